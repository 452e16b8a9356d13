"""``mx.np.linalg``: norms (more to come)."""
from __future__ import annotations

from ..base import MXNetError
from .multiarray import _call
from ._op import _arr

__all__ = ["norm"]


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002  (NumPy's argument name)
    """Vector or matrix norm: the 2-norm (Frobenius for matrices) by default, ``ord=1`` or
    ``ord=2`` along one axis, ``ord='fro'`` over two axes. Other orders raise MXNetError."""
    _arr(x, "norm")
    if isinstance(axis, int):
        axis = (axis,)
    elif axis is not None:
        axis = tuple(int(a) for a in axis)
    if ord is not None and ord not in (1, 2, "fro"):
        raise MXNetError(f"norm: ord={ord!r} is not supported yet")
    if ord is not None and axis is None and x.ndim == 2:
        if ord == "fro":
            ord = None
        else:
            raise MXNetError(f"norm: matrix norm with ord={ord!r} is not supported yet")
    if ord is not None and axis is None and x.ndim > 2:
        raise ValueError("norm: Improper number of dimensions to norm.")
    return _call("_npi_norm", [x], ord=ord, axis=axis, keepdims=bool(keepdims))
