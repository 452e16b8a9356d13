"""``mx.np.linalg``: norms, inverses, determinants, decompositions and solvers.

``inv``, ``det``, ``slogdet`` and ``solve`` are differentiable; the decompositions
(``svd``, ``cholesky``, ``eigh`` ...) compute values only, as do the functions 1.9.1 itself
runs on the host with official NumPy (``cond``, ``lstsq``, ``matrix_power``,
``matrix_rank``, ``multi_dot``, ``qr``)."""
from __future__ import annotations

import math as _math

from .._mode import mode as _mode
from ..base import MXNetError
from .multiarray import _call
from ._op import _arr
from . import fallback_linalg  # noqa: F401  (1.9.1 exposes it here too)
from .fallback_linalg import cond, lstsq, matrix_power, matrix_rank, multi_dot, qr  # noqa: F401

__all__ = ["norm", "inv", "det", "slogdet", "svd", "cholesky", "eigh", "eigvalsh", "eig",
           "eigvals", "pinv", "solve", "tensorinv", "tensorsolve", "cond", "lstsq",
           "matrix_power", "matrix_rank", "multi_dot", "qr"]


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002  (NumPy's argument name)
    """Vector or matrix norm. Vectors (one axis, or a 1-d array): the 2-norm by default, any
    finite ``ord`` (``0`` counts nonzeros). Matrices (two axes, or a 2-d array): Frobenius by
    default or with ``'fro'``; ``1``/``-1``/``inf``/``-inf`` (max/min absolute column/row
    sums, differentiable); ``2``/``-2``/``'nuc'`` (singular values, computed on the host
    without a gradient, as 1.9.1 does). As in 1.9.1, a vector ``ord=inf`` raises."""
    _arr(x, "norm")
    if isinstance(axis, int):
        axis = (axis,)
    elif axis is not None:
        axis = tuple(int(a) for a in axis)
    if ord is not None and axis is None and x.ndim > 2:
        raise ValueError("norm: Improper number of dimensions to norm.")
    axes = tuple(range(x.ndim)) if axis is None else tuple(a % max(x.ndim, 1) for a in axis)
    if ord is None or (ord == "fro" and len(axes) == 2) or (ord in (1, 2) and len(axes) == 1):
        return _call("_npi_norm", [x], ord=ord if ord in (1, 2) else None, axis=axis,
                     keepdims=bool(keepdims))
    if isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise ValueError(f"norm: invalid norm order {ord!r}; expected a number, 'fro' or 'nuc'")
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"norm: ord={ord!r} is only valid for matrices (axis {axis})")
        if _math.isinf(ord):
            raise MXNetError(f"norm: a vector norm with ord={ord} is not supported "
                             "(1.9.1 rejects it too); use np.abs(x).max() / .min()")
        return _vector_norm(x, float(ord), axes[0], keepdims)
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"norm: ord={ord!r} needs one or two distinct axes, got axis={axis}")
    if ord == "nuc" and _mode.recording and axes == (x.ndim - 2, x.ndim - 1) \
            and x.dtype.kind == "f":
        # the sum of the singular values, through svd so that the gradient flows (as 1.9.1)
        from ._op import swapaxes
        out = svd(x if x.shape[-2] <= x.shape[-1] else swapaxes(x, -1, -2))[1].sum(axis=-1)
        return out.reshape(out.shape + (1, 1)) if keepdims else out
    if ord in (2, -2, "nuc"):
        import numpy as _onp
        from .multiarray import array
        val = _onp.linalg.norm(x.asnumpy(), ord=ord, axis=axes, keepdims=bool(keepdims))
        dt = x.dtype if _onp.dtype(x.dtype).kind == "f" else _onp.float32
        return array(_onp.asarray(val, dtype=dt), dtype=dt, ctx=x.ctx)
    if ord not in (1, -1) and not (not isinstance(ord, str) and _math.isinf(ord)):
        raise ValueError(f"norm: invalid matrix norm order {ord!r}; expected 1, -1, 2, -2, "
                         "inf, -inf, 'fro' or 'nuc'")
    from . import _op
    r, c = axes
    if ord in (1, -1):
        sum_axis, pick_axis = r, c
    else:
        sum_axis, pick_axis = c, r
    sums = _op.abs(x).sum(axis=sum_axis, keepdims=True)
    out = sums.max(axis=pick_axis, keepdims=True) if ord > 0 else \
        sums.min(axis=pick_axis, keepdims=True)
    if not keepdims:
        out = out.reshape(tuple(d for i, d in enumerate(x.shape) if i not in axes))
    return out


def _vector_norm(x, ord, ax, keepdims):  # noqa: A002
    from . import _op
    if ord == 0:
        dt = x.dtype if x.dtype.kind == "f" else "float32"
        return (x != 0).astype(dt).sum(axis=ax, keepdims=bool(keepdims))
    if x.dtype.kind == "f":   # 1.9.1's scaled p-norm kernel
        return _call("_npi_norm", [x], ord=float(ord), axis=(ax,), keepdims=bool(keepdims))
    a = _op.abs(x)
    if x.dtype.kind != "f":
        a = a.astype("float32")
    return (a ** ord).sum(axis=ax, keepdims=bool(keepdims)) ** (1.0 / ord)


def inv(a):
    """The inverse of each square matrix in ``a`` (differentiable)."""
    return _call("_npi_inv", [_arr(a, "inv")])


def det(a):
    """The determinant of each square matrix in ``a`` (differentiable)."""
    return _call("_npi_det", [_arr(a, "det")])


def slogdet(a):
    """(sign, log|det|) of each square matrix in ``a`` (log|det| is differentiable)."""
    res = _call("_npi_slogdet", [_arr(a, "slogdet")])
    return list(res)  # 1.9.1 returns a list here (eigh/svd/qr give tuples)


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
    """The Moore-Penrose pseudo-inverse; ``rcond`` a number or an array broadcasting to the
    batch shape of ``a`` (one cutoff per matrix)."""
    from numpy import number as _np_number

    from ..base import MXNetAssertionError
    from ..ndarray.ndarray import NDArray
    if hermitian:
        raise NotImplementedError("pinv: hermitian=True is not supported (as in 1.9.1)")
    if isinstance(rcond, NDArray):
        return _call("_npi_pinv", [_arr(a, "pinv"), rcond.as_np_ndarray()], hermitian=False)
    if not isinstance(rcond, (int, float, _np_number)):
        raise MXNetAssertionError(f"pinv: rcond must be a number or an mxnet.numpy.ndarray, "
                                  f"got {type(rcond).__name__}")
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
