"""Contrib optimizers: GroupAdaGrad."""
from __future__ import annotations

from .. import ndarray as nd
from ..ndarray import NDArray
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
        return nd.zeros((weight.shape[0], 1), weight.context)

    def update(self, index, weight, grad, state):
        if not isinstance(weight, NDArray) or not isinstance(grad, NDArray):
            raise AssertionError("weight and grad must be NDArrays")
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        if wd != 0:
            raise AssertionError("Weight decay is not supported for GroupAdaGrad")
        grad = grad * self.rescale_grad
        grad = self._clip(grad)
        state[:] += nd.mean(nd.square(grad), axis=1, keepdims=True)
        div = lr * grad / nd.sqrt(state + self.float_stable_eps)
        weight[:] -= div
