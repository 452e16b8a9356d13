"""MXNet's older autograd API (``mx.contrib.autograd``), kept as in 1.9.1.

These are thin layers over :mod:`mxnet.autograd`: one switch (``set_is_training``) turns
recording and training mode on or off together.
"""
import functools

from .. import autograd as _ag
from ..base import MXNetError

__all__ = ["set_is_training", "TrainingStateScope", "train_section", "test_section",
           "mark_variables", "backward", "compute_gradient", "grad_and_loss", "grad"]


def set_is_training(is_train):
    """Turn recording and training mode on or off together; returns the previous state."""
    _ag.set_training(bool(is_train))
    return bool(_ag.set_recording(bool(is_train)))


class TrainingStateScope:
    """A ``with`` scope that sets the training/recording state and restores it on exit."""

    def __init__(self, enter_state):
        self._enter_state = enter_state
        self._prev = None

    def __enter__(self):
        self._prev = set_is_training(self._enter_state)

    def __exit__(self, ptype, value, trace):
        if self._prev != self._enter_state:
            set_is_training(self._prev)


def train_section():
    """Scope that records operations for gradients, in training mode.

    >>> import mxnet as mx
    >>> x = mx.nd.array([1.0, 2.0]); g = mx.nd.zeros(2)
    >>> mark_variables([x], [g])
    >>> with train_section():
    ...     y = x * x
    >>> backward([y]); g.asnumpy().tolist()
    [2.0, 4.0]
    """
    return TrainingStateScope(True)


def test_section():
    """Scope that neither records nor runs in training mode (e.g. inside a train_section)."""
    return TrainingStateScope(False)


def mark_variables(variables, gradients, grad_reqs="write"):
    """Attach gradient buffers ``gradients`` to ``variables`` (lists of NDArray)."""
    _ag.mark_variables(variables, gradients, grad_reqs)


def backward(outputs, out_grads=None, retain_graph=False):
    """Back-propagate from ``outputs`` (a list or tuple of NDArray) into the marked variables."""
    if not isinstance(outputs, (list, tuple)):
        raise MXNetError(f"contrib.autograd.backward: outputs must be a list or tuple of "
                         f"NDArrays, got {type(outputs).__name__}")
    if out_grads is not None and len(out_grads) != len(outputs):
        raise MXNetError(f"contrib.autograd.backward: outputs and out_grads must have the same "
                         f"length, got {len(outputs)} and {len(out_grads)}")
    _ag.backward(list(outputs), None if out_grads is None else list(out_grads),
                 retain_graph=retain_graph)


def compute_gradient(outputs):
    """Deprecated alias of ``backward(outputs)``."""
    backward(outputs)


def grad_and_loss(func, argnum=None):
    """Wrap ``func`` so that it returns (gradients of the chosen arguments, its outputs).

    ``argnum`` (an int or list of ints) picks the arguments to differentiate; all by default.
    """
    from ..ndarray import NDArray, zeros_like

    @functools.wraps(func)
    def wrapped(*args):
        variables = args
        if argnum is not None:
            picks = argnum if isinstance(argnum, list) else [argnum]
            variables = [args[i] for i in picks]
        for x in variables:
            if not isinstance(x, NDArray):
                raise MXNetError(f"contrib.autograd: the inputs to differentiate must be "
                                 f"NDArrays, got {type(x).__name__}")
        grads = [zeros_like(x) for x in variables]
        mark_variables(variables, grads)
        with train_section():
            outputs = func(*args)
        compute_gradient([outputs] if isinstance(outputs, NDArray) else outputs)
        return grads, outputs
    return wrapped


def grad(func, argnum=None):
    """Wrap ``func`` so that it returns the gradients of the chosen arguments only."""
    with_loss = grad_and_loss(func, argnum)

    @functools.wraps(with_loss)
    def wrapped(*args):
        return with_loss(*args)[0]
    return wrapped
