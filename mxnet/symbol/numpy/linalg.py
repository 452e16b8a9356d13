"""``mx.sym.np.linalg``: norms on Symbols."""
from __future__ import annotations

from ._symbol import node

__all__ = ["norm", "inv", "det", "slogdet", "solve"]


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002  (NumPy's argument name)
    """Symbolic vector / matrix norm, written with 1.9.1's ``flag`` codes: -2 for the 2-norm of
    the flattened input, 1 for the 2-norm / Frobenius norm over ``axis``, -1 for an explicit
    vector order."""
    if isinstance(axis, int):
        axis = (axis,)
    elif axis is not None:
        axis = tuple(axis)
    if ord is None and axis is None:
        params = {"axis": None, "flag": -2, "keepdims": keepdims, "ord": 2}
    elif ord is None or ord == "fro":
        params = {"axis": axis, "flag": 1, "keepdims": keepdims, "ord": 2}
    elif ord in (1, 2):
        params = {"axis": axis, "flag": -1, "keepdims": keepdims, "ord": ord}
    else:
        from ...base import MXNetError
        raise MXNetError(f"norm: ord={ord!r} is not supported on symbols yet")
    return node("_npi_norm", [x], params, hint="norm")


def inv(a):
    """Symbolic matrix inverse (the legacy _linalg_inverse operator, as 1.9.1 builds it)."""
    return node("_linalg_inverse", [a], hint="inv")


def det(a):
    """Symbolic determinant."""
    return node("_linalg_det", [a], hint="det")


def slogdet(a):
    """Symbolic (sign, log|det|); returns a two-output symbol."""
    return node("_linalg_slogdet", [a], hint="slogdet")


def solve(a, b):
    """Symbolic solution of a @ x = b."""
    return node("_npi_solve", [a, b], hint="solve")
