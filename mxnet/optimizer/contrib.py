"""Contrib optimizers: GroupAdaGrad."""
from __future__ import annotations

from .. import ndarray as nd
from ..ndarray import NDArray, _fallback_log
from .optimizer import Optimizer, register

__all__ = ["GroupAdaGrad"]


@register
class GroupAdaGrad(Optimizer):
    """AdaGrad with one learning rate per row of a 2-D weight::

        g = clip(rescale_grad*grad)
        history += mean(g*g, axis=1, keepdims=True)
        weight -= lr * g / sqrt(history + eps)

    Weight decay is not supported.

    Parameters
    ----------
    eps : float
        Added inside the square root.
    """

    def __init__(self, eps=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        if len(weight.shape) != 2:
            raise AssertionError("GroupAdaGrad needs 2-D weights")
        return nd.zeros((weight.shape[0], 1), weight.context, stype=weight.stype)

    def update(self, index, weight, grad, state):
        if not isinstance(weight, NDArray) or not isinstance(grad, NDArray):
            raise AssertionError("weight and grad must be NDArrays")
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        if wd != 0:
            raise AssertionError("Weight decay is not supported for GroupAdaGrad")
        if grad.stype == "row_sparse":
            # 1.9.1 runs its row-sparse kernel here, with no storage-fallback warnings: the
            # same arithmetic (rows without gradient do not change) on dense copies, written
            # back in each array's own storage type
            _fallback_log.QUIET[0] += 1
            try:
                new_w, new_h = self._step(lr, weight.tostype("default"),
                                          grad.tostype("default"), state.tostype("default"))
            finally:
                _fallback_log.QUIET[0] -= 1
            for dst, val in ((weight, new_w), (state, new_h)):
                if dst.stype == "default":
                    dst[:] = val
                else:
                    val.tostype(dst.stype).copyto(dst)
            return
        weight[:], state[:] = self._step(lr, weight, grad, state)

    def _step(self, lr, weight, grad, history):
        """The new weight and history (dense arrays in, new arrays out)."""
        grad = self._clip(grad * self.rescale_grad)
        history = history + nd.mean(nd.square(grad), axis=1, keepdims=True)
        return weight - lr * grad / nd.sqrt(history + self.float_stable_eps), history
