"""LAMB (You et al., 2019): Adam directions scaled per layer by the trust ratio
``|weight| / |direction|``.

One weight at a time it runs ``lamb_update_phase1``, the two norms, then
``lamb_update_phase2``; lists from the Updater (``aggregate_num``, default 45) go through
the multi-tensor ``_multi_lamb_update``. As in 1.9.1, the one-at-a-time multi-precision
path never writes the float32 master copy back (``mp_lamb_update_phase2`` only returns
the float16 weight), so repeated steps there all start from the initial master copy.
"""
from __future__ import annotations

import os


from .. import ndarray as nd
from ..ndarray import NDArray
from ..ndarray.contrib_front import multi_lamb_update, multi_mp_lamb_update
from .optimizer import Optimizer, _AggregatedUpdates, register

__all__ = ["LAMB", "multi_lamb_update", "multi_mp_lamb_update"]


@register
class LAMB(_AggregatedUpdates, Optimizer):
    """Layer-wise adaptive moments for large-batch training.

    Parameters
    ----------
    beta1, beta2 : float
        Decay rates of the moment estimates.
    epsilon : float
        Added to the denominator.
    lower_bound, upper_bound : float, optional
        Bounds on ``|weight|`` in the trust ratio.
    bias_correction : bool
        Correct the moment estimates for their zero start.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6,
                 lower_bound=None, upper_bound=None, bias_correction=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bias_correction
        size = int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "45"))
        self.aggregate_num = max(1, min(45, size))

    def create_state(self, index, weight):
        return (nd.zeros(weight.shape, weight.context, dtype=weight.dtype),
                nd.zeros(weight.shape, weight.context, dtype=weight.dtype))

    def _bounds(self):
        kwargs = {}
        if self.lower_bound:
            kwargs["lower_bound"] = self.lower_bound
        if self.upper_bound:
            kwargs["upper_bound"] = self.upper_bound
        return kwargs

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        kwargs = {"beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon,
                  "bias_correction": self.bias_correction, "rescale_grad": self.rescale_grad}
        if self.aggregate_num <= 1 or not isinstance(index, (tuple, list)):
            if isinstance(index, (tuple, list)):
                index, weight, grad, state = index[0], weight[0], grad[0], state[0]
            self._update_one(index, weight, grad, state, multi_precision, kwargs)
        else:
            self._update_many(index, weight, grad, state, multi_precision, kwargs)

    def _update_one(self, index, weight, grad, state, multi_precision, kwargs):
        if not isinstance(weight, NDArray) or not isinstance(grad, NDArray):
            raise AssertionError("weight and grad must be NDArrays")
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs["t"] = self._index_update_count[index]
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        if multi_precision:
            weight32 = state[0]
            mean, var = state[1]
            g = nd.mp_lamb_update_phase1(weight, grad, mean, var, weight32, wd=wd, **kwargs)
            r_1 = weight32.norm()
            r_2 = g.norm()
            nd.mp_lamb_update_phase2(weight, g, r_1, r_2, weight32, lr=lr, out=weight,
                                     **self._bounds())
        else:
            mean, var = state
            g = nd.lamb_update_phase1(weight, grad, mean, var, wd=wd, **kwargs)
            r_1 = weight.norm()
            r_2 = g.norm()
            nd.lamb_update_phase2(weight, g, r_1, r_2, lr=lr, out=weight, **self._bounds())

    def _update_many(self, index, weight, grad, state, multi_precision, kwargs):
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        kwargs.update(self._bounds())
        steps, lrs, wds = [], [], []
        for i, w, g in zip(index, weight, grad):
            if not isinstance(w, NDArray) or not isinstance(g, NDArray):
                raise AssertionError("weights and grads must be NDArrays")
            self._update_count(i)
            steps.append(self._index_update_count[i])
            lrs.append(self._get_lr(i))
            wds.append(self._get_wd(i))
        for start in range(0, len(weight), self.aggregate_num):
            sl = slice(start, min(start + self.aggregate_num, len(weight)))
            common = dict(out=list(weight[sl]), step_count=steps[sl], lrs=lrs[sl], wds=wds[sl],
                          **kwargs)
            if not multi_precision:
                mean, var = zip(*state[sl])
                multi_lamb_update(list(weight[sl]), list(grad[sl]), mean, var, **common)
            else:
                masters = [s[0] for s in state[sl]]
                mean, var = zip(*[s[1] for s in state[sl]])
                multi_mp_lamb_update(list(weight[sl]), list(grad[sl]), mean, var, masters,
                                     **common)
