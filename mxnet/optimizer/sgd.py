"""SGD and its relatives: SGD (momentum, multi-tensor aggregation), NAG, Signum/signSGD,
LARS, DCASGD, SGLD, plus ccSGD and Test, which 1.9.1 still registers.

SGD and LARS process lists of weights when the Updater aggregates them (``aggregate_num``,
from ``MXNET_OPTIMIZER_AGGREGATION_SIZE``, default 4), through the fused ``multi_*``
operators; their rounding differs slightly from the single-weight operators, as in 1.9.1.
"""
from __future__ import annotations

import logging
import math
import os

import numpy as np

from .. import ndarray as nd
from .. import random as _random
from ..ndarray import NDArray
from .optimizer import (Optimizer, _AggregatedUpdates, _flatten_list, _fp16_warning,
                        register)

__all__ = ["SGD", "ccSGD", "NAG", "Signum", "LARS", "LBSGD", "DCASGD", "SGLD", "Test"]


def _aggregation_size(default="4"):
    return int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", default))


def _as_lists(indices, weights, grads, states):
    if not isinstance(indices, (tuple, list)):
        return [indices], [weights], [grads], [states]
    return list(indices), list(weights), list(grads), list(states)


def _all_dense(weights, grads):
    for w, g in zip(weights, grads):
        if not isinstance(w, NDArray) or not isinstance(g, NDArray):
            raise AssertionError("weights and gradients must be NDArrays")
    return all(w.stype == "default" and g.stype == "default" for w, g in zip(weights, grads))


class _MomentumStateMixin:
    """State of the momentum family: a momentum array (None without momentum); with
    multi-precision float16 weights, ``(momentum, weight32)`` -- in that order, unlike the
    base class's ``(weight32, state)``."""

    _fp16_name = "SGD"

    def create_state_multi_precision(self, index, weight):
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (self.create_state(index, master), master)
        if weight.dtype == np.float16 and not self.multi_precision:
            _fp16_warning(self._fp16_name)
        return self.create_state(index, weight)

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return nd.zeros(weight.shape, weight.context, dtype=weight.dtype)


def _sgd_step(weights, grads, states, lrs, wds, kwargs, multi_precision, lazy_update=True):
    """One-weight-at-a-time SGD through sgd_update / sgd_mom_update and their mp_ forms."""
    for weight, grad, state, lr, wd in zip(weights, grads, states, lrs, wds):
        if not multi_precision:
            if state is not None:
                nd.sgd_mom_update(weight, grad, state, out=weight, lazy_update=lazy_update,
                                  lr=lr, wd=wd, **kwargs)
            else:
                nd.sgd_update(weight, grad, out=weight, lazy_update=lazy_update, lr=lr, wd=wd,
                              **kwargs)
        elif state[0] is not None:
            nd.mp_sgd_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd,
                                 **kwargs)
        else:
            nd.mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)


def _sgd_kwargs(opt, momentum):
    return opt._fused_kwargs(momentum=momentum) if momentum > 0 else opt._fused_kwargs()


@register
class SGD(_MomentumStateMixin, _AggregatedUpdates, Optimizer):
    """Stochastic gradient descent with momentum and weight decay::

        mom = momentum * mom - lr * (rescale_grad * clip(grad) + wd * weight)
        weight += mom

    (``weight = (1 - lr*wd)*weight - lr*clip(rescale_grad*grad)`` without momentum).

    Parameters
    ----------
    momentum : float
        The momentum.
    lazy_update : bool
        With a row_sparse gradient, update only its rows (weight decay and momentum
        included), leaving the other rows and their momentum as they are; False makes
        the standard dense update. Dense gradients ignore it.
    multi_precision : bool
        Update float16 weights through float32 master copies.
    """

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.aggregate_num = _aggregation_size()

    def create_state(self, index, weight):
        # as 1.9.1: a row_sparse weight gets a row_sparse momentum when updates are lazy
        # (a dense one makes its kernel run the standard update)
        if self.momentum != 0.0 and self.lazy_update and weight.stype == "row_sparse":
            return nd.sparse.zeros("row_sparse", weight.shape, weight.context,
                                   dtype=weight.dtype)
        return super().create_state(index, weight)

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        aggregate = _all_dense(weights, grads)
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        kwargs = _sgd_kwargs(self, self.momentum)
        if not aggregate:
            _sgd_step(weights, grads, states, lrs, wds, kwargs, multi_precision,
                      self.lazy_update)
            return
        n = len(weights)
        common = dict(out=weights, num_weights=n, lrs=lrs, wds=wds, **kwargs)
        if not multi_precision:
            if self.momentum > 0:
                nd.multi_sgd_mom_update(*_flatten_list(zip(weights, grads, states)), **common)
            else:
                nd.multi_sgd_update(*_flatten_list(zip(weights, grads)), **common)
        elif self.momentum > 0:
            moms, masters = zip(*states)
            nd.multi_mp_sgd_mom_update(*_flatten_list(zip(weights, grads, moms, masters)),
                                       **common)
        else:
            masters = [s[1] for s in states]
            nd.multi_mp_sgd_update(*_flatten_list(zip(weights, grads, masters)), **common)


@register
class ccSGD(SGD):  # noqa: N801  (1.9.1's name)
    """Deprecated alias of :class:`SGD`."""


@register
class NAG(_MomentumStateMixin, Optimizer):
    """Nesterov accelerated gradient (``nag_mom_update``; plain SGD without momentum).

    Parameters
    ----------
    momentum : float
        The momentum.
    multi_precision : bool
        Update float16 weights through float32 master copies.
    """

    _fp16_name = "NAG"

    def __init__(self, momentum=0.0, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        _all_dense([weight], [grad])
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = _sgd_kwargs(self, self.momentum)
        if not multi_precision:
            if state is not None:
                nd.nag_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
            else:
                nd.sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        elif state[0] is not None:
            nd.mp_nag_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd,
                                 **kwargs)
        else:
            nd.mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        use_mp = (self.multi_precision and weight.dtype == np.float16
                  and isinstance(state, (tuple, list)))
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


@register
class Signum(Optimizer):
    """Signum (signSGD with momentum)::

        mom = momentum*mom - (1-momentum)*(wd*weight + rescale_grad*clip(grad))
        weight = (1 - lr*wd_lh)*weight + lr*sign(mom)

    With ``momentum=0`` it is signSGD, ``weight = (1-lr*wd)*weight - lr*sign(grad)``.

    Parameters
    ----------
    momentum : float
        The momentum.
    wd_lh : float
        Decoupled weight decay.
    """

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return nd.zeros(weight.shape, weight.context, dtype=weight.dtype, stype=weight.stype)

    def update(self, index, weight, grad, state):
        _all_dense([weight], [grad])
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = _sgd_kwargs(self, self.momentum)
        if self.wd_lh:
            kwargs["wd_lh"] = self.wd_lh
        if state is not None:
            nd.signum_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            nd.signsgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)


@register
class LARS(_MomentumStateMixin, _AggregatedUpdates, Optimizer):
    """Layer-wise adaptive rate scaling (You et al., 2017): SGD with momentum where each
    layer's learning rate is scaled by ``eta*|w| / (|g| + wd*|w| + eps)`` (when both norms
    are positive); parameters named ``*gamma``, ``*beta`` or ``*bias`` keep the plain rate.

    Parameters
    ----------
    momentum : float
        The momentum.
    lazy_update : bool
        Row-sparse lazy updates (ignored for dense arrays).
    eta : float
        The LARS coefficient.
    eps : float
        Added to the denominator.
    momentum_correction : bool
        Scale the momentum by ``lr / previous lr`` when a scheduler changes the rate.
    """

    def __init__(self, momentum=0.0, lazy_update=True, eta=0.001, eps=0,
                 momentum_correction=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.momentum_correction = momentum_correction
        self.lazy_update = lazy_update
        self.aggregate_num = _aggregation_size()
        self.eta = eta
        self.eps = eps
        self.skip = 0
        self.last_lr = None
        self.cur_lr = None

    def _get_lrs(self, indices):
        """As the base class, also remembering the previous and current base rates."""
        if self.cur_lr is not None:
            self.last_lr = self.cur_lr
        lr = self._base_lr()
        if self.cur_lr is None:
            self.last_lr = lr
        self.cur_lr = lr
        return self._scaled(lr, indices, self.lr_mult, "lr_mult")

    def set_wd_mult(self, args_wd_mult):
        """Named parameters not ending in ``_weight`` get no weight decay (``_gamma`` too)."""
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not n.endswith("_weight"):
                self.wd_mult[n] = 0.0
        self._wd_mult_from_sym()
        self.wd_mult.update(args_wd_mult)

    def _l2norm(self, v, rescale=False):
        v = v.astype("float32")
        if rescale:
            v *= self.rescale_grad
        return nd.norm(v).asnumpy().reshape(-1)[0]

    @staticmethod
    def _is_excluded(name):
        return name.endswith("gamma") or name.endswith("beta") or name.endswith("bias")

    def _name(self, i):
        return self.idx2name[i] if i in self.idx2name else str(i)

    def _get_lars(self, i, weight, g, lr, wd):
        """The learning rate of one layer after LARS scaling."""
        if self._is_excluded(self._name(i)):
            return lr
        w_norm = self._l2norm(weight)
        g_norm = self._l2norm(g, rescale=True)
        if w_norm > 0.0 and g_norm > 0.0:
            lars = self.eta * w_norm / (g_norm + wd * w_norm + self.eps)
        else:
            lars = 1.0
        return lars * lr

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        aggregate = _all_dense(weights, grads)
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        momentum = self.momentum
        if momentum > 0 and self.momentum_correction and self.last_lr != 0:
            momentum = self.momentum * (self.cur_lr / self.last_lr)
        kwargs = self._fused_kwargs(momentum=momentum) if self.momentum > 0 else self._fused_kwargs()
        if not aggregate:
            lrs = [self._get_lars(i, w, g, lr, wd)
                   for i, w, g, lr, wd in zip(indices, weights, grads, lrs, wds)]
            _sgd_step(weights, grads, states, lrs, wds, kwargs, multi_precision,
                      self.lazy_update)
            return
        self._aggregated(indices, weights, grads, states, lrs, wds, kwargs, multi_precision)

    def _aggregated(self, indices, weights, grads, states, lrs, wds, kwargs, multi_precision):
        """LARS-scaled rates for all layers at once (multi_sum_sq + multi_lars), then the
        preloaded multi-SGD operators, ``aggregate_num`` weights per call."""
        n = len(indices)
        excluded = [self._is_excluded(self._name(i)) for i in indices]
        order = [k for k in range(n) if not excluded[k]] + [k for k in range(n) if excluded[k]]
        nb_lars = n - sum(excluded)
        ctx = weights[0].context
        new_lrs = nd.array([lrs[k] for k in order], ctx=ctx, dtype="float32")
        new_wds = nd.array([wds[k] for k in order], ctx=ctx, dtype="float32")
        ws = [weights[k] for k in order]
        gs = [grads[k] for k in order]
        sts = [states[k] for k in order]
        if nb_lars > 0:
            w_sq = nd.multi_sum_sq(*ws[:nb_lars], num_arrays=nb_lars)
            g_sq = nd.multi_sum_sq(*gs[:nb_lars], num_arrays=nb_lars)
            lars_lrs = nd.multi_lars(new_lrs[:nb_lars], w_sq, g_sq, new_wds[:nb_lars],
                                     eta=self.eta, eps=self.eps, rescale_grad=self.rescale_grad)
            new_lrs = (nd.concat(lars_lrs, new_lrs[nb_lars:], dim=0) if nb_lars < n
                       else lars_lrs)
        step = self.aggregate_num
        for start in range(0, n, step):
            sl = slice(start, start + step)
            w, g, s = ws[sl], gs[sl], sts[sl]
            tail = [new_lrs[sl], new_wds[sl]]
            common = dict(out=w, num_weights=len(w), **kwargs)
            if not multi_precision:
                if self.momentum > 0:
                    nd.preloaded_multi_sgd_mom_update(*(_flatten_list(zip(w, g, s)) + tail),
                                                      **common)
                else:
                    nd.preloaded_multi_sgd_update(*(_flatten_list(zip(w, g)) + tail), **common)
            elif self.momentum > 0:
                moms, masters = zip(*s)
                nd.preloaded_multi_mp_sgd_mom_update(
                    *(_flatten_list(zip(w, g, moms, masters)) + tail), **common)
            else:
                masters = [x[1] for x in s]
                nd.preloaded_multi_mp_sgd_update(*(_flatten_list(zip(w, g, masters)) + tail),
                                                  **common)


@register
class LBSGD(Optimizer):
    """Large-batch SGD: gradients are accumulated over ``batch_scale`` calls, then one SGD
    step is taken with the learning rate scaled by a warmup multiplier ('linear', 'power2',
    'sqrt') over ``warmup_epochs * updates_per_epoch`` updates, or by a LARS-style ratio
    ('lars'). Calls that only accumulate apply ``sgd_update`` with ``lr=0`` (which still
    applies no decay, as lr*wd = 0).

    Parameters
    ----------
    momentum : float
        The momentum.
    multi_precision : bool
        Update float16 weights through float32 master copies.
    warmup_strategy : str
        'linear', 'power2', 'sqrt' or 'lars'.
    warmup_epochs : int
        Length of the warmup in epochs.
    batch_scale : int
        Number of calls accumulated into one step.
    updates_per_epoch : int
        Updates per epoch, for the warmup length.
    begin_epoch : int
        The epoch to start from.
    num_epochs : int
        Total number of epochs (kept for compatibility).
    """

    def __init__(self, momentum=0.0, multi_precision=False, warmup_strategy="linear",
                 warmup_epochs=5, batch_scale=1, updates_per_epoch=32, begin_epoch=0,
                 num_epochs=60, **kwargs):
        super().__init__(**kwargs)
        # the two log lines 1.9.1 prints on construction
        logging.info("Running Large-Batch SGD Algorithm")
        logging.info("(Batch_scale=%f, warmup_epochs=%d, warmup_strategy=%s, updates_per_epoch=%d)",
                     batch_scale, warmup_epochs, warmup_strategy, updates_per_epoch)
        self.momentum = momentum
        self.multi_precision = multi_precision
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads = {}
        self.adaptive = False
        self.admult = 1

    def create_state(self, index, weight):
        if self.multi_precision and weight.dtype == np.float16:
            master = nd.array(weight, ctx=weight.context, dtype=np.float32)
            momentum = (nd.zeros(weight.shape, weight.context, dtype=np.float32)
                        if self.momentum != 0.0 else None)
            return (momentum, master)
        if weight.dtype == np.float16 and not self.multi_precision:
            _fp16_warning("SGD")
        if self.momentum != 0.0:
            return nd.zeros(weight.shape, weight.context, dtype=weight.dtype)
        return None

    def _get_lbmult(self, nup):
        """The warmup multiplier after ``nup`` accumulated updates."""
        nwup = self.warmup_epochs * self.updates_per_epoch
        maxmult = float(self.batch_scale)
        if nup >= nwup:
            return maxmult
        if nwup <= 1:
            return 1.0
        if self.warmup_strategy == "linear":
            return 1.0 + (maxmult - 1) * nup / nwup
        if self.warmup_strategy == "power2":
            return 1.0 + (maxmult - 1) * (nup * nup) / (nwup * nwup)
        if self.warmup_strategy == "sqrt":
            return 1.0 + (maxmult - 1) * math.sqrt(float(nup) / nwup)
        return 1.0

    def _l2norm(self, v):
        return nd.multiply(v, v).asnumpy().sum()

    def _get_lars(self, weight, g, wd):
        """A LARS-style multiplier, clamped to [0.01, 100]."""
        weight2 = self._l2norm(weight)
        grad2 = self._l2norm(g)
        lars = math.sqrt(weight2 / (grad2 + wd * weight2 + 1e-18))
        return min(max(lars, 0.01), 100)

    def _reset_cum_gradient(self, index):
        self.cumgrads[index]["cum_grad"] = 0

    def _get_cum_gradient(self, index):
        return self.cumgrads.get(index, {})

    def _put_cum_gradient(self, index, cgrad):
        self.cumgrads[index] = cgrad

    def _cumulate_gradient(self, grad, index):
        cgrad = self._get_cum_gradient(index)
        if cgrad and cgrad["num_cums"] > 0:
            cum_grad = cgrad["cum_grad"] + grad
            num_cums = cgrad["num_cums"] + 1
        else:
            cum_grad = grad
            num_cums = self.init_updates + 1
        cgrad = {"cum_grad": cum_grad, "num_cums": num_cums}
        self._put_cum_gradient(index, cgrad)
        return cgrad

    def update(self, index, weight, grad, state):
        _all_dense([weight], [grad])
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        self._update_count(index)
        cgrad = self._cumulate_gradient(grad, index)
        if cgrad["num_cums"] % self.batch_scale != 0:
            nd.sgd_update(weight, grad, out=weight, lr=0.0, wd=wd)
            return
        grad = cgrad["cum_grad"] / self.batch_scale
        if self.warmup_strategy == "lars":
            lbmult = self._get_lars(weight, grad, wd)
        else:
            lbmult = self._get_lbmult(cgrad["num_cums"])
        lr = lr * lbmult
        kwargs = _sgd_kwargs(self, self.momentum)
        if not isinstance(state, (list, tuple)):
            if state is not None:
                nd.sgd_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
            else:
                nd.sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        elif state[0] is not None:
            nd.mp_sgd_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd,
                                 **kwargs)
        else:
            nd.mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)
        self._reset_cum_gradient(index)


@register
class DCASGD(Optimizer):
    """Delay-compensated asynchronous SGD (Zheng et al., 2016)::

        step = -lr * (g + wd*weight + lamda * g*g * (weight - previous_weight))

    With momentum > 0 the steps accumulate: ``mom = momentum*mom + step``, ``weight += mom``.
    (1.9.1 tests the momentum array's truth value there, so its update raises for any
    momentum > 0; here it runs.)

    Parameters
    ----------
    momentum : float
        The momentum.
    lamda : float
        Scale of the delay compensation.
    """

    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.weight_previous = {}
        self.lamda = lamda

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return (None, weight.copy())
        return (nd.zeros(weight.shape, weight.context, dtype=weight.dtype), weight.copy())

    def update(self, index, weight, grad, state):
        _all_dense([weight], [grad])
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        grad = grad * self.rescale_grad
        grad = self._clip(grad)
        mom, previous_weight = state
        if mom is not None:
            mom[:] *= self.momentum
            mom[:] += -lr * (grad + wd * weight + self.lamda * grad * grad
                             * (weight - previous_weight))
        else:
            mom = -lr * (grad + wd * weight + self.lamda * grad * grad
                         * (weight - previous_weight))
        previous_weight[:] = weight
        weight[:] += mom


@register
class SGLD(Optimizer):
    """Stochastic gradient Langevin dynamics: half an SGD step plus Gaussian noise of
    variance ``lr``::

        weight += -lr/2 * (rescale_grad*clip(grad) + wd*weight) + N(0, sqrt(lr))
    """

    def create_state(self, index, weight):
        return None

    def update(self, index, weight, grad, state):
        _all_dense([weight], [grad])
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        grad = grad * self.rescale_grad
        grad = self._clip(grad)
        weight[:] += -lr / 2 * (grad + wd * weight)
        weight[:] += _random.normal(0, math.sqrt(lr), shape=weight.shape, dtype=weight.dtype,
                                    ctx=weight.context)


@register
class Test(Optimizer):
    """A test optimizer: ``weight += rescale_grad * grad``, its state a copy of the weight."""

    def create_state(self, index, weight):
        return nd.zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        weight[:] += grad * self.rescale_grad
        state[:] = weight
