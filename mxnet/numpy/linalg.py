"""``mx.np.linalg``: norms, inverses, determinants, decompositions and solvers.

``inv``, ``det``, ``slogdet`` and ``solve`` are differentiable; the decompositions
(``svd``, ``cholesky``, ``eigh`` ...) compute values only, as do the functions 1.9.1 itself
runs on the host with official NumPy (``cond``, ``lstsq``, ``matrix_power``,
``matrix_rank``, ``multi_dot``, ``qr``)."""
from __future__ import annotations

from ..base import MXNetError
from .multiarray import _call
from ._op import _arr
from . import fallback_linalg  # noqa: F401  (1.9.1 exposes it here too)
from .fallback_linalg import cond, lstsq, matrix_power, matrix_rank, multi_dot, qr  # noqa: F401

__all__ = ["norm", "inv", "det", "slogdet", "svd", "cholesky", "eigh", "eigvalsh", "eig",
           "eigvals", "pinv", "solve", "tensorinv", "tensorsolve", "cond", "lstsq",
           "matrix_power", "matrix_rank", "multi_dot", "qr"]


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


def inv(a):
    """The inverse of each square matrix in ``a`` (differentiable)."""
    return _call("_npi_inv", [_arr(a, "inv")])


def det(a):
    """The determinant of each square matrix in ``a`` (differentiable)."""
    return _call("_npi_det", [_arr(a, "det")])


def slogdet(a):
    """(sign, log|det|) of each square matrix in ``a`` (log|det| is differentiable)."""
    res = _call("_npi_slogdet", [_arr(a, "slogdet")])
    return tuple(res)


def svd(a):
    """The reduced singular value decomposition (u, s, vt) of each matrix (values only)."""
    return tuple(_call("_npi_svd", [_arr(a, "svd")]))


def cholesky(a, upper=False):
    """The Cholesky factor (lower, or upper with ``upper=True``) of each SPD matrix."""
    return _call("_npi_cholesky", [_arr(a, "cholesky")], lower=not upper)


def eigh(a, UPLO="L"):  # noqa: N803  (NumPy's argument name)
    """Eigenvalues (ascending) and eigenvectors of symmetric matrices."""
    return tuple(_call("_npi_eigh", [_arr(a, "eigh")], UPLO=UPLO))


def eigvalsh(a, UPLO="L"):  # noqa: N803
    """Eigenvalues (ascending) of symmetric matrices."""
    return _call("_npi_eigvalsh", [_arr(a, "eigvalsh")], UPLO=UPLO)


def eig(a):
    """Eigenvalues and right eigenvectors (real spectra only: mx.np has no complex dtype)."""
    return tuple(_call("_npi_eig", [_arr(a, "eig")]))


def eigvals(a):
    """Eigenvalues (real spectra only)."""
    return _call("_npi_eigvals", [_arr(a, "eigvals")])


def pinv(a, rcond=1e-15, hermitian=False):
    """The Moore-Penrose pseudo-inverse (a scalar ``rcond``)."""
    from ..ndarray.ndarray import NDArray
    if isinstance(rcond, NDArray):
        raise MXNetError("pinv: an array-valued rcond is not supported yet; pass a float")
    return _call("_npi_pinv_scalar_rcond", [_arr(a, "pinv")], rcond=float(rcond),
                 hermitian=bool(hermitian))


def solve(a, b):
    """The solution x of a @ x = b (b a vector or a matrix per batch; differentiable)."""
    return _call("_npi_solve", [_arr(a, "solve"), _arr(b, "solve")])


def tensorinv(a, ind=2):
    """The inverse of ``a`` seen as a matrix over its first ``ind`` axes."""
    return _call("_npi_tensorinv", [_arr(a, "tensorinv")], ind=int(ind))


def tensorsolve(a, b, axes=None):
    """The solution x of tensordot(a, x, x.ndim) = b."""
    return _call("_npi_tensorsolve", [_arr(a, "tensorsolve"), _arr(b, "tensorsolve")],
                 a_axes=None if axes is None else tuple(axes))
