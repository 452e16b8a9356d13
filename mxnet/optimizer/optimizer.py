"""The Optimizer base class, its name registry, and the Updater that KVStore and Trainer use.

An optimizer turns (index, weight, grad, state) into an in-place weight update. The base
class keeps what every optimizer shares, with 1.9.1's attribute names (so pickled
optimizers move between the two):

- the learning rate: ``lr``, or ``lr_scheduler(num_update)`` when a scheduler is set;
- per-parameter multipliers ``lr_mult`` / ``wd_mult``, keyed by index or by name. Names come
  from ``param_idx2name``; ``sym`` contributes its variables' ``__lr_mult__`` /
  ``__wd_mult__`` attributes; with ``param_idx2name``, parameters whose names end in neither
  ``_weight`` nor ``_gamma`` get no weight decay. A Gluon ``param_dict`` (index ->
  Parameter) takes precedence over both;
- update counting: ``_index_update_count[index]`` (starting at ``begin_num_update``) and
  ``num_update``, the largest count, which drives the scheduler; one count table per device;
- multi-precision: with ``multi_precision=True`` a float16 weight's state holds a float32
  master copy, updated in float32 and cast back.
"""
from __future__ import annotations

import pickle
import warnings

import numpy as np

from .. import ndarray as nd
from ..ndarray import NDArray

__all__ = ["Optimizer", "Updater", "create", "get_updater", "register"]


def _flatten_list(nested):
    return [x for group in nested for x in group]


def _fp16_warning(name=None):
    where = f" of the {name} optimizer" if name else " of the optimizer"
    warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or slow "
                  "convergence. Consider using multi_precision=True option" + where,
                  stacklevel=3)


class _AggregatedUpdates:
    """``update`` / ``update_multi_precision`` for optimizers whose ``_update_impl`` takes one
    index or a list of them (aggregated updates); float16 weights go through their float32
    master copies when ``multi_precision`` is set."""

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        first = weight[0] if isinstance(index, (tuple, list)) else weight
        use_mp = self.multi_precision and first.dtype == np.float16
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


class Optimizer:
    """Base class of all optimizers.

    Parameters
    ----------
    rescale_grad : float
        Gradients are multiplied by this before use (often ``1/batch_size``).
    param_idx2name : dict of int to str, optional
        Names of the parameters by index (for name-keyed multipliers and weight decay).
    wd : float
        Weight decay (L2 penalty) coefficient.
    clip_gradient : float, optional
        Clip the rescaled gradient to ``[-clip_gradient, clip_gradient]``.
    learning_rate : float, optional
        The learning rate; defaults to 0.01 without a scheduler. When both are given,
        it replaces the scheduler's ``base_lr``.
    lr_scheduler : LRScheduler, optional
        Gives the learning rate as a function of ``num_update``.
    sym : Symbol, optional
        Its variables' ``lr_mult`` / ``wd_mult`` attributes set the multipliers.
    begin_num_update : int
        The update count to start from.
    multi_precision : bool
        Keep float32 master copies of float16 weights.
    param_dict : dict of int to gluon.Parameter, optional
        Parameters whose ``lr_mult`` / ``wd_mult`` override the tables.
    """

    opt_registry: dict = {}

    def __init__(self, rescale_grad=1.0, param_idx2name=None, wd=0.0, clip_gradient=None,
                 learning_rate=None, lr_scheduler=None, sym=None, begin_num_update=0,
                 multi_precision=False, param_dict=None):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None:
            if lr_scheduler.base_lr != learning_rate:
                # 1.9.1 prints this warning to stdout rather than issuing it
                print(UserWarning("learning rate from ``lr_scheduler`` has been overwritten by "
                                  "``learning_rate`` in optimizer."))
                lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        if not isinstance(param_idx2name, dict):
            raise AssertionError("param_idx2name should be a dict of param indexes to names.")
        self.idx2name = param_idx2name.copy()
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.allow_np_array = False
        self.set_lr_mult({})
        self.set_wd_mult({})

    # -- the registry --------------------------------------------------------------------------
    @staticmethod
    def register(klass):
        """Class decorator: make ``klass`` creatable by its lower-cased name."""
        if not isinstance(klass, type):
            raise AssertionError("register expects a class")
        name = klass.__name__.lower()
        old = Optimizer.opt_registry.get(name)
        if old is not None:  # 1.9.1 warns for a re-registration of the same class too
            warnings.warn(f"WARNING: New optimizer {klass.__module__}.{klass.__name__} is "
                          f"overriding existing optimizer {old.__module__}.{old.__name__}",
                          stacklevel=2)
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """An instance of the optimizer registered as ``name`` (case-insensitive)."""
        klass = Optimizer.opt_registry.get(name.lower())
        if klass is None:
            raise ValueError(f"Cannot find optimizer {name}")
        return klass(**kwargs)

    # -- learning rate -------------------------------------------------------------------------
    @property
    def learning_rate(self):
        """The current learning rate (the scheduler's value at ``num_update`` when set)."""
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def set_learning_rate(self, lr):
        """Set the learning rate; not allowed when a scheduler decides it."""
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that "
                              "set_learning_rate can mutate the value of the learning rate of the "
                              "optimizer only when the LRScheduler of the optimizer is undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale):
        """Removed in MXNet; use :meth:`set_lr_mult`."""
        raise DeprecationWarning

    # -- states and updates --------------------------------------------------------------------
    def create_state(self, index, weight):
        """The auxiliary state (momentum ...) for one weight; None when there is none."""

    def create_state_multi_precision(self, index, weight):
        """:meth:`create_state`, plus a float32 master copy for float16 weights when
        ``multi_precision`` is set: the state is then ``(weight32, state)``."""
        if self.multi_precision and weight.dtype == np.float16:
            master = weight.astype(np.float32)
            return (master,) + (self.create_state(index, master),)
        if weight.dtype == np.float16 and not self.multi_precision:
            _fp16_warning()
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """Update ``weight`` in place from ``grad`` and ``state``."""
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        """:meth:`update`, going through the float32 master copy for float16 weights when
        ``multi_precision`` is set."""
        if self.multi_precision and weight.dtype == np.float16:
            master, inner = state[0], state[1]
            self.update(index, master, grad.astype(np.float32), inner)
            nd.cast(master, dtype=weight.dtype, out=weight)
        else:
            self.update(index, weight, grad, state)

    # -- multipliers ---------------------------------------------------------------------------
    def set_lr_mult(self, args_lr_mult):
        """Learning rate multipliers by parameter name or index (names also come from
        ``sym``'s ``__lr_mult__`` attributes)."""
        self.lr_mult = {}
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__lr_mult__" in attr[name]:
                    self.lr_mult[name] = float(attr[name]["__lr_mult__"])
        self.lr_mult.update(args_lr_mult)

    def set_wd_mult(self, args_wd_mult):
        """Weight decay multipliers by parameter name or index. Named parameters that end in
        neither ``_weight`` nor ``_gamma`` default to 0; ``sym``'s ``__wd_mult__`` applies."""
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not (n.endswith("_weight") or n.endswith("_gamma")):
                self.wd_mult[n] = 0.0
        self._wd_mult_from_sym()
        self.wd_mult.update(args_wd_mult)

    def _wd_mult_from_sym(self):
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__wd_mult__" in attr[name]:
                    self.wd_mult[name] = float(attr[name]["__wd_mult__"])

    def _set_current_context(self, device_id):
        """Switch to the update counts of device ``device_id``."""
        if device_id not in self._all_index_update_counts:
            self._all_index_update_counts[device_id] = {}
        self._index_update_count = self._all_index_update_counts[device_id]

    def _update_count(self, index):
        """Count one more update of each index in ``index`` (an index or a list of them)."""
        if not isinstance(index, (list, tuple)):
            index = [index]
        for idx in index:
            if idx not in self._index_update_count:
                self._index_update_count[idx] = self.begin_num_update
            self._index_update_count[idx] += 1
            self.num_update = max(self._index_update_count[idx], self.num_update)

    def _base_lr(self):
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def _scaled(self, base, indices, table, attr):
        out = [base for _ in indices]
        for i, index in enumerate(indices):
            if index in self.param_dict:
                out[i] *= getattr(self.param_dict[index], attr)
            elif index in table:
                out[i] *= table[index]
            elif index in self.idx2name:
                out[i] *= table.get(self.idx2name[index], 1.0)
        return out

    def _get_lrs(self, indices):
        """The learning rate of each index: the base rate times its lr multiplier."""
        return self._scaled(self._base_lr(), indices, self.lr_mult, "lr_mult")

    def _get_lr(self, index):
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        """The weight decay of each index: ``wd`` times its wd multiplier."""
        return self._scaled(self.wd, indices, self.wd_mult, "wd_mult")

    def _clip(self, grad):
        """``grad`` clipped to ``[-clip_gradient, clip_gradient]`` (Python update paths; a
        clip_gradient of 0 clips everything to 0, as 1.9.1 does)."""
        if self.clip_gradient is not None:
            from .. import ndarray as nd
            grad = nd.clip(grad, -self.clip_gradient, self.clip_gradient)
        return grad

    def _fused_kwargs(self, **kwargs):
        """Keyword arguments for a fused update operator: ``kwargs`` plus rescale_grad and
        (when set and non-zero) clip_gradient."""
        kwargs["rescale_grad"] = self.rescale_grad
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        return kwargs

    def _get_wd(self, index):
        return self._get_wds([index])[0]

    # -- pickling: Gluon parameters are not part of the state ----------------------------------
    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("param_dict", None)
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self.param_dict = {}


register = Optimizer.register
create = Optimizer.create_optimizer


class Updater:
    """Applies an optimizer to (index, grad, weight) triples, creating each index's state on
    first sight. Optimizers with ``aggregate_num > 0`` get lists of same-dtype weights at
    once (up to ``aggregate_num`` per call), as 1.9.1 does."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index, grad, weight):
        """Update ``weight`` (one array or a list) from ``grad`` for ``index``."""
        if not isinstance(index, (list, tuple)):
            indices, grads, weights = [index], [grad], [weight]
        else:
            indices, grads, weights = list(index), list(grad), list(weight)
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)
        for i, idx in enumerate(indices):
            if isinstance(idx, bytes):
                indices[i] = idx = idx.decode()
            if idx not in self.states:
                self.states[idx] = self.optimizer.create_state_multi_precision(idx, weights[i])
                self.states_synced[idx] = True
            elif not self.states_synced[idx]:
                self.states[idx] = self.sync_state_context(self.states[idx], weights[i].context)
                self.states_synced[idx] = True
        step = self.optimizer.aggregate_num
        # the optimizer may have been replaced (set_states with a pickled one): one that does
        # not aggregate gets one array at a time
        if not self.aggregate_updates or step <= 0:
            for i, w, g in zip(indices, weights, grads):
                self.optimizer.update_multi_precision(i, w, g, self.states[i])
            return
        by_dtype: dict = {}   # (and by context: a model-parallel executor's weights
        for i, w, g in zip(indices, weights, grads):   # live on several devices)
            by_dtype.setdefault((w.dtype, w.context), []).append((i, w, g))
        for group in by_dtype.values():
            idxs, ws, gs = zip(*group)
            for start in range(0, len(idxs), step):
                sl = slice(start, start + step)
                self.optimizer.update_multi_precision(
                    idxs[sl], ws[sl], gs[sl], [self.states[i] for i in idxs[sl]])

    def sync_state_context(self, state, context):
        """``state`` (nested tuples/lists of NDArrays) moved to ``context``."""
        if isinstance(state, NDArray):
            return state.as_in_context(context)
        if isinstance(state, (tuple, list)):
            synced = [self.sync_state_context(s, context) for s in state]
            return tuple(synced) if isinstance(state, tuple) else synced
        return state

    def set_states(self, states):
        """Load states pickled by :meth:`get_states` (with or without the optimizer)."""
        states = pickle.loads(states)
        if isinstance(states, tuple) and len(states) == 2:
            self.states, self.optimizer = states
        else:
            self.states = states
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def get_states(self, dump_optimizer=False):
        """The states as pickled bytes; ``dump_optimizer`` includes the optimizer (its
        learning rate, scheduler and update counts)."""
        return pickle.dumps((self.states, self.optimizer) if dump_optimizer else self.states)


def get_updater(optimizer):
    """An :class:`Updater` applying ``optimizer`` (KVStore and Trainer call it)."""
    return Updater(optimizer)
