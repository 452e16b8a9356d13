"""``mx.sym.np.linalg``: norms, inverses, decompositions and solvers on Symbols (the nodes
1.9.1 writes)."""
from __future__ import annotations

from ._symbol import node

__all__ = ["norm", "inv", "det", "slogdet", "solve", "svd", "cholesky", "tensorinv",
           "tensorsolve", "pinv", "eigvals", "eigvalsh", "eig", "eigh"]


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


def _outputs(res, n):
    return [res[i] for i in range(n)]


def svd(a):
    """Symbolic reduced SVD: a list [ut, l, v] with a = ut @ diag(l) @ v."""
    return _outputs(node("_npi_svd", [a], hint="svd"), 3)


def cholesky(a):
    """Symbolic lower Cholesky factor."""
    return node("_npi_cholesky", [a], hint="cholesky")


def tensorinv(a, ind=2):
    """Symbolic tensor inverse over the first ``ind`` axes."""
    return node("_npi_tensorinv", [a], {"ind": int(ind)}, hint="tensorinv")


def tensorsolve(a, b, axes=None):
    """Symbolic solution x of tensordot(a, x, x.ndim) = b."""
    return node("_npi_tensorsolve", [a, b],
                {"a_axes": None if axes is None else tuple(int(k) for k in axes)},
                hint="tensorsolve")


def pinv(a, rcond=1e-15, hermitian=False):
    """Symbolic Moore-Penrose pseudo-inverse; ``rcond`` a number or a Symbol (an array
    broadcasting to the batch shape of ``a``)."""
    from ...base import MXNetAssertionError
    from ..symbol import Symbol
    if hermitian:
        raise NotImplementedError("pinv: hermitian=True is not supported (as in 1.9.1)")
    if isinstance(rcond, Symbol):
        return node("_npi_pinv", [a, rcond], {"hermitian": False}, hint="pinv")
    if not isinstance(rcond, (int, float)):
        raise MXNetAssertionError(f"pinv: rcond must be a number or a Symbol, got "
                                  f"{type(rcond).__name__}")
    return node("_npi_pinv_scalar_rcond", [a], {"hermitian": False, "rcond": float(rcond)},
                hint="pinv_scalar_rcond")


def eigvals(a):
    """Symbolic eigenvalues (real spectra only)."""
    return node("_npi_eigvals", [a], hint="eigvals")


def eigvalsh(a, UPLO="L"):  # noqa: N803  (NumPy's argument name)
    """Symbolic eigenvalues of symmetric matrices."""
    return node("_npi_eigvalsh", [a], {"UPLO": UPLO}, hint="eigvalsh")


def eig(a):
    """Symbolic eigenvalues and eigenvectors: a list [w, v]."""
    return _outputs(node("_npi_eig", [a], hint="eig"), 2)


def eigh(a, UPLO="L"):  # noqa: N803
    """Symbolic eigenvalues and eigenvectors of symmetric matrices: a list [w, v]."""
    return _outputs(node("_npi_eigh", [a], {"UPLO": UPLO}, hint="eigh"), 2)
