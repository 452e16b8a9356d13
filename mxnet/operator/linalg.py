"""Matrix products and dense linear algebra: dot, batch_dot and the ``linalg`` family.

Conventions shared with 1.9.1:

- every ``linalg`` operator works on the trailing two axes and batches over the rest
  (gemm/gemm2 may instead take the row axis from ``axis``); the linalg family accepts
  float32/float64 only, dot/batch_dot also float16 on a GPU;
- triangular inputs (trsm, trmm, potri, and the symmetric inputs of potrf and syevd) are
  read from one triangle only, the other one is ignored;
- a per-matrix scalar result (det, slogdet, sumlogdiag) of a single 2-D matrix has shape (1,);
- packed triangles (extracttrian/maketrian) list the lower triangle row by row; an upper
  triangle is packed as the lower triangle of the transpose.

Gradients are written with registered operators. Two internal helpers serve them:
``_matrix_transpose`` (swap the last two axes) and ``_matrix_tril`` (keep one triangle).
``_backward_dot`` handles dot's N-D reshaping; det, slogdet and syevd use dedicated
``_backward_linalg_*`` kernels because their rules need per-matrix case analysis
(singular matrices get a zero gradient, as in 1.9.1).
"""
from __future__ import annotations

import contextlib
import math

import numpy as np

from ..base import MXNetError
from ._common import errstate
from ._gemm_order import gemm
from .registry import Param, register

# ---------------------------------------------------------------------------------------------
# checks


def _seen(arrays):
    return ", ".join(f"{tuple(a.shape)} {a.dtype}" for a in arrays)


def _err(opname, msg, *arrays):
    tail = f" (inputs: {_seen(arrays)})" if arrays else ""
    return MXNetError(f"{opname}: {msg}{tail}")


def _is_gpu_array(a):
    return type(a).__module__.startswith("cupy")


def _check_float(opname, *arrays, half_on_gpu=False):
    """All inputs share one floating dtype that the operator supports."""
    first = arrays[0].dtype
    for a in arrays[1:]:
        if a.dtype != first:
            raise _err(opname, f"all inputs must have the same dtype, got {a.dtype} and {first}",
                       *arrays)
    ok = first in (np.float32, np.float64) or (
        half_on_gpu and first == np.float16 and _is_gpu_array(arrays[0]))
    if not ok:
        what = ("float32/float64 (float16 too on a GPU)" if half_on_gpu else "float32 or float64")
        raise _err(opname, f"dtype {first} is not supported; expected {what}", *arrays)


def _check_matrices(opname, *arrays, square=(), same_batch=True):
    """Inputs of ndim >= 2, equal ndim and batch dims; ``square`` lists input indices."""
    nd = arrays[0].ndim
    for a in arrays:
        if a.ndim < 2:
            raise _err(opname, "inputs must be tensors of matrices (ndim >= 2)", *arrays)
        if a.ndim != nd:
            raise _err(opname, "inputs must have the same number of dimensions", *arrays)
    if same_batch:
        for a in arrays[1:]:
            if a.shape[:-2] != arrays[0].shape[:-2]:
                raise _err(opname, "inputs must have the same shape except on the last two axes",
                           *arrays)
    for i in square:
        if arrays[i].shape[-1] != arrays[i].shape[-2]:
            raise _err(opname, f"input {i} must be a tensor of square matrices", *arrays)


def _t(xp, a):
    """Swap the last two axes (a view)."""
    return xp.swapaxes(a, -1, -2)


def _tri(xp, a, lower, k=0):
    return xp.tril(a, k) if lower else xp.triu(a, k)


def _sym_from(xp, a, lower):
    """The symmetric matrix whose ``lower`` (or upper) triangle is that of ``a``."""
    t = _tri(xp, a, lower)
    return t + _t(xp, _tri(xp, a, lower, -1 if lower else 1))


def _per_matrix(out, a):
    """A per-matrix result of one 2-D matrix gets shape (1,), as in 1.9.1."""
    return out.reshape(1) if a.ndim == 2 else out


@contextlib.contextmanager
def _raising(xp):
    """Make CuPy's linalg routines raise LinAlgError on failure, as NumPy's do."""
    if xp is np:
        yield
        return
    try:
        import cupyx
        ctx = cupyx.errstate(linalg="raise")
    except (ImportError, AttributeError):  # pragma: no cover - older CuPy
        ctx = contextlib.nullcontext()
    with ctx:
        yield


def _eye_like(xp, a):
    n = a.shape[-1]
    return xp.broadcast_to(xp.eye(n, dtype=a.dtype), a.shape[:-2] + (n, n))


def _same_type(attrs, in_types, out_types):
    known = next((t for t in list(in_types) + list(out_types) if t is not None), None)
    return [known] * len(in_types), [known] * len(out_types), []


def _known(*shapes):
    return all(s is not None and None not in s for s in shapes)


# ---------------------------------------------------------------------------------------------
# dot and batch_dot

_STYPE = Param("forward_stype", "str", None, choices=("None", "csr", "default", "row_sparse"),
               doc="Ignored: outputs are dense.")
_DOT_PARAMS = (Param("transpose_a", "bool", False, doc="Use the transpose of lhs."),
               Param("transpose_b", "bool", False, doc="Use the transpose of rhs."),
               _STYPE)


def _dot_plan(opname, ls, rs, ta, tb):
    """2-D views of dot's operands: (lhs 2-D shape, rhs 2-D shape, output shape).

    lhs is viewed as (rows, k) = (prod(shape[:-1]), shape[-1]), or with transpose_a as the
    transpose of (shape[0], prod(shape[1:])); rhs as (shape[0], prod(shape[1:])) or with
    transpose_b as the transpose of (prod(shape[:-1]), shape[-1]).
    """
    ls, rs = tuple(ls), tuple(rs)
    if not ls or not rs:
        raise MXNetError(f"{opname}: inputs must have at least one dimension, got lhs {ls} "
                         f"and rhs {rs}")
    if len(ls) == 1 and len(rs) == 1 and (ta or tb):
        raise MXNetError(f"{opname}: cannot transpose vectors (lhs {ls}, rhs {rs})")
    lview = (ls[0], math.prod(ls[1:])) if ta else (math.prod(ls[:-1]), ls[-1])
    rview = (math.prod(rs[:-1]), rs[-1]) if tb else (rs[0], math.prod(rs[1:]))
    kl = ls[0] if ta else ls[-1]
    kr = rs[-1] if tb else rs[0]
    if kl != kr:
        raise MXNetError(f"{opname}: shape mismatch: lhs {ls} (transpose_a={ta}) contracts a "
                         f"dimension of {kl} but rhs {rs} (transpose_b={tb}) one of {kr}")
    out = (ls[1:] if ta else ls[:-1]) + (rs[:-1] if tb else rs[1:])
    return lview, rview, out or (1,)


def _dot_operands(xp, lhs, rhs, ta, tb, opname="dot"):
    lview, rview, out = _dot_plan(opname, lhs.shape, rhs.shape, ta, tb)
    a = lhs.reshape(lview)
    b = rhs.reshape(rview)
    return (a.T if ta else a), (b.T if tb else b), out


_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _dot(rc, attrs, lhs, rhs):
    # the common 2-D case goes straight to BLAS; everything else takes the general path
    if (lhs.ndim == 2 and rhs.ndim == 2 and lhs.shape[1] == rhs.shape[0]
            and not attrs["transpose_a"] and not attrs["transpose_b"]
            and lhs.dtype == rhs.dtype and lhs.dtype in _BLAS_FLOATS):
        return gemm(rc.xp, lhs, rhs)
    _check_float("dot", lhs, rhs, half_on_gpu=True)
    a, b, out = _dot_operands(rc.xp, lhs, rhs, attrs["transpose_a"], attrs["transpose_b"])
    if lhs.ndim == 1 and rhs.ndim == 1:   # BLAS's DOT, not a 1 x 1 GEMM
        return rc.xp.matmul(a, b).reshape(out)
    return gemm(rc.xp, a, b).reshape(out)


def _partial_product_shape(plan, opname, ins, attrs, batch):
    """A dot/batch_dot output for operands with unknown dims: planned on stand-in sizes,
    then unknown where an operand's dim is (1.9.1 needs the contracted sizes known)."""
    ls, rs = tuple(ins[0]), tuple(ins[1])
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    if len(ls) < (3 if batch else 1) or len(rs) < (3 if batch else 1) or \
            (len(ls) == 1 and len(rs) == 1):
        return None
    kl = ls[-2 if batch else 0] if ta else ls[-1]
    kr = (rs[-1] if tb else rs[-2]) if batch else (rs[-1] if tb else rs[0])
    if kl is None or kr is None:
        return None
    if batch:
        for a, b in zip(ls[:-2], rs[:-2]):
            if a != b:  # 1.9.1 rejects an unknown batch size facing a known one too
                raise MXNetError(f"{opname}: batch dimensions differ: lhs {ls}, rhs {rs}")
    lfill = tuple(7 if d is None else d for d in ls)
    rfill = tuple(7 if d is None else d for d in rs)
    res = plan(opname, lfill, rfill, ta, tb)
    out = res[2] if not batch else res
    if not batch:
        kept = (list(ls[1:] if ta else ls[:-1]) + list(rs[:-1] if tb else rs[1:])) or [1]
    else:
        m = ls[-1] if ta else ls[-2]
        n = rs[-2] if tb else rs[-1]
        kept = list(ls[:-2]) + [m, n]
    return tuple(None if k is None else o for k, o in zip(kept, out))


def _dot_shape(attrs, ins, outs):
    if ins[0] is not None and ins[1] is not None and not _known(*ins):
        out = _partial_product_shape(_dot_plan, "dot", ins, attrs, False)
        return ins, [out] if out is not None else outs, []
    if not _known(*ins):
        return ins, outs, []
    _, _, out = _dot_plan("dot", ins[0], ins[1], attrs["transpose_a"], attrs["transpose_b"])
    return ins, [out], []


def _dot_grad(F, attrs, ins, outs, og):
    # only the transposes that are on (so a storage-fallback log shows 1.9.1's params)
    flags = {k: True for k in ("transpose_a", "transpose_b") if attrs[k]}
    res = F._backward_dot(og[0], ins[0], ins[1], **flags)
    return [res[0], res[1]]


def _dot_grad_rows(xp, attrs, pos, inputs):
    """``dot(csr, dense)`` without transposes: 1.9.1's row_sparse gradient of the dense
    operand stores one row per column index the csr holds (stored zeros included), even
    where that row's gradient is zero."""
    lhs = inputs[0]
    if pos != 1 or attrs["transpose_a"] or attrs["transpose_b"] or \
            getattr(lhs, "stype", "default") != "csr":
        return None
    return xp.unique(lhs._parts.indices).astype(np.int64)


register("dot", _dot, params=_DOT_PARAMS, inputs=("lhs", "rhs"), gradient=_dot_grad,
         infer_shape=_dot_shape, infer_type=_same_type, grad_rows=_dot_grad_rows,
         doc="Dot product: contracts the last axis of lhs with the first axis of rhs "
             "(transpose_a/transpose_b flip which axis of each operand is contracted).")


def _backward_dot(rc, attrs, g, lhs, rhs):
    xp = rc.xp
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    a, b, _ = _dot_operands(xp, lhs, rhs, ta, tb, "_backward_dot")
    g2 = g.reshape(a.shape[0], b.shape[1])
    da = gemm(xp, g2, b.T)           # gradient of the (rows, k) operand
    db = gemm(xp, a.T, g2)           # gradient of the (k, cols) operand
    da = da.T if ta else da
    db = db.T if tb else db
    return xp.ascontiguousarray(da).reshape(lhs.shape), xp.ascontiguousarray(db).reshape(rhs.shape)


def _backward_dot_grad(F, attrs, ins, outs, og):
    # dl = Bl(g, r) and dr = Br(g, l) are bilinear; their adjoints are dot itself.
    g, lhs, rhs = ins
    h_l, h_r = og
    kw = {"transpose_a": attrs["transpose_a"], "transpose_b": attrs["transpose_b"]}
    dg = F.dot(h_l, rhs, **kw) + F.dot(lhs, h_r, **kw)
    dl = F._backward_dot(g, lhs, h_r, **kw)[0]
    dr = F._backward_dot(g, h_l, rhs, **kw)[1]
    return [dg, dl, dr]


register("_backward_dot", _backward_dot, params=_DOT_PARAMS, inputs=("ograd", "lhs", "rhs"),
         num_outputs=2, gradient=_backward_dot_grad, infer_type=_same_type,
         infer_shape=lambda a, i, o: (i, [i[1], i[2]], []),
         doc="Gradients of dot with respect to lhs and rhs.")


def _mm_grads(mm, a, b, g, ta, tb):
    """Gradients of C = op(A) op(B), written with the product ``mm(x, y, ta, tb)``."""
    da = mm(g, b, False, not tb) if not ta else mm(b, g, tb, True)
    db = mm(a, g, not ta, False) if not tb else mm(g, a, True, ta)
    return da, db


def _batch_dot_plan(opname, ls, rs, ta, tb):
    ls, rs = tuple(ls), tuple(rs)
    if len(ls) < 3 or len(ls) != len(rs):
        raise MXNetError(f"{opname}: both inputs must have the same number of dimensions N >= 3, "
                         f"got lhs {ls} and rhs {rs}")
    if ls[:-2] != rs[:-2]:
        raise MXNetError(f"{opname}: batch dimensions differ: lhs {ls}, rhs {rs}")
    m, kl = (ls[-1], ls[-2]) if ta else (ls[-2], ls[-1])
    kr, n = (rs[-1], rs[-2]) if tb else (rs[-2], rs[-1])
    if kl != kr:
        raise MXNetError(f"{opname}: shape mismatch: lhs {ls} x rhs {rs} with transpose_a={ta}, "
                         f"transpose_b={tb} contracts {kl} against {kr}")
    return ls[:-2] + (m, n)


def _batch_dot(rc, attrs, lhs, rhs):
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    _batch_dot_plan("batch_dot", lhs.shape, rhs.shape, ta, tb)
    _check_float("batch_dot", lhs, rhs, half_on_gpu=True)
    xp = rc.xp
    return gemm(xp, _t(xp, lhs) if ta else lhs, _t(xp, rhs) if tb else rhs)


def _batch_dot_grad(F, attrs, ins, outs, og):
    def mm(x, y, ta, tb):
        return F.batch_dot(x, y, transpose_a=ta, transpose_b=tb)
    return list(_mm_grads(mm, ins[0], ins[1], og[0], attrs["transpose_a"], attrs["transpose_b"]))


def _batch_dot_shape(attrs, ins, outs):
    if ins[0] is not None and ins[1] is not None and not _known(*ins):
        out = _partial_product_shape(_batch_dot_plan, "batch_dot", ins, attrs, True)
        return ins, [out] if out is not None else outs, []
    if not _known(*ins):
        return ins, outs, []
    return ins, [_batch_dot_plan("batch_dot", ins[0], ins[1], attrs["transpose_a"],
                                 attrs["transpose_b"])], []


register("batch_dot", _batch_dot, params=_DOT_PARAMS, inputs=("lhs", "rhs"),
         gradient=_batch_dot_grad, infer_shape=_batch_dot_shape, infer_type=_same_type,
         doc="Batched matrix product over the leading axes of two N-D arrays (N >= 3).")


# ---------------------------------------------------------------------------------------------
# gemm and gemm2

_TA = Param("transpose_a", "bool", False, doc="Multiply with the transpose of A.")
_TB = Param("transpose_b", "bool", False, doc="Multiply with the transpose of B.")
_ALPHA = Param("alpha", "float", 1.0, doc="Scalar factor of the product.")
_AXIS = Param("axis", "int", -2, doc="Axis holding the matrix rows; columns are the last axis.")


def _row_axis(opname, axis, ndim):
    ax = axis + ndim if axis < 0 else axis
    if not 0 <= ax < ndim - 1:
        raise MXNetError(f"{opname}: invalid row axis {axis} for inputs of ndim {ndim}; expected "
                         f"an axis in [{-ndim}, {ndim - 2}] other than the last")
    return ax


def _gemm_plan(opname, sa, sb, ta, tb, axis):
    """Output shape of op(A) op(B) where rows live on ``axis`` and columns on the last axis."""
    sa, sb = tuple(sa), tuple(sb)
    if len(sa) < 2 or len(sa) != len(sb):
        raise MXNetError(f"{opname}: A and B must be tensors of matrices with the same ndim >= 2, "
                         f"got A {sa} and B {sb}")
    ax = _row_axis(opname, axis, len(sa))
    last = len(sa) - 1
    for i in range(len(sa)):
        if i not in (ax, last) and sa[i] != sb[i]:
            raise MXNetError(f"{opname}: A {sa} and B {sb} must have the same shape except on the "
                             f"row axis {axis} and the last axis")
    m, ka = (sa[last], sa[ax]) if ta else (sa[ax], sa[last])
    kb, n = (sb[last], sb[ax]) if tb else (sb[ax], sb[last])
    if ka != kb:
        raise MXNetError(f"{opname}: incompatible matrix dimensions: A {sa} (transpose_a={ta}) "
                         f"x B {sb} (transpose_b={tb}) contracts {ka} against {kb}")
    out = list(sa)
    out[ax], out[last] = m, n
    return tuple(out), ax


def _gemm_product(xp, a, b, ta, tb, alpha, ax):
    nd = a.ndim
    if ax != nd - 2:
        a, b = xp.swapaxes(a, ax, nd - 2), xp.swapaxes(b, ax, nd - 2)
    out = gemm(xp, _t(xp, a) if ta else a, _t(xp, b) if tb else b)
    if alpha != 1.0:
        out *= out.dtype.type(alpha)
    if ax != nd - 2:
        out = xp.ascontiguousarray(xp.swapaxes(out, ax, nd - 2))
    return out


def _gemm2(rc, attrs, a, b):
    _check_float("_linalg_gemm2", a, b)
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    _, ax = _gemm_plan("_linalg_gemm2", a.shape, b.shape, ta, tb, attrs["axis"])
    return _gemm_product(rc.xp, a, b, ta, tb, attrs["alpha"], ax)


def _gemm(rc, attrs, a, b, c):
    _check_float("_linalg_gemm", a, b, c)
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    out_shape, ax = _gemm_plan("_linalg_gemm", a.shape, b.shape, ta, tb, attrs["axis"])
    if tuple(c.shape) != out_shape:
        raise _err("_linalg_gemm", f"C must have the shape of the product, {out_shape}", a, b, c)
    out = _gemm_product(rc.xp, a, b, ta, tb, attrs["alpha"], ax)
    beta = attrs["beta"]
    if beta != 0.0:  # like BLAS, beta == 0 ignores C entirely
        out += c * c.dtype.type(beta) if beta != 1.0 else c
    return out


def _gemm_grads(F, attrs, a, b, g):
    kw = {"alpha": attrs["alpha"], "axis": attrs["axis"]}

    def mm(x, y, ta, tb):
        return F._linalg_gemm2(x, y, transpose_a=ta, transpose_b=tb, **kw)
    return _mm_grads(mm, a, b, g, attrs["transpose_a"], attrs["transpose_b"])


def _gemm2_shape(attrs, ins, outs):
    if not _known(ins[0], ins[1]):
        return ins, outs, []
    out, _ = _gemm_plan("_linalg_gemm2", ins[0], ins[1], attrs["transpose_a"],
                        attrs["transpose_b"], attrs["axis"])
    return ins, [out], []


def _gemm_shape(attrs, ins, outs):
    ins = list(ins)
    out = outs[0] if outs and outs[0] is not None else ins[2]
    if _known(ins[0], ins[1]):
        out, _ = _gemm_plan("_linalg_gemm", ins[0], ins[1], attrs["transpose_a"],
                            attrs["transpose_b"], attrs["axis"])
        if ins[2] is not None and None not in ins[2] and tuple(ins[2]) != out:
            raise MXNetError(f"_linalg_gemm: C has shape {tuple(ins[2])} but the product has "
                             f"shape {out}")
    ins[2] = out
    return ins, [out], []


register("_linalg_gemm", _gemm, inputs=("A", "B", "C"),
         params=(_TA, _TB, _ALPHA, Param("beta", "float", 1.0, doc="Scalar factor of C."), _AXIS),
         gradient=lambda F, at, ins, outs, og: [*_gemm_grads(F, at, ins[0], ins[1], og[0]),
                                                og[0] * at["beta"]],
         infer_shape=_gemm_shape, infer_type=_same_type, aliases=("linalg_gemm",),
         doc="alpha * op(A) op(B) + beta * C over batches of matrices.")
register("_linalg_gemm2", _gemm2, inputs=("A", "B"), params=(_TA, _TB, _ALPHA, _AXIS),
         gradient=lambda F, at, ins, outs, og: list(_gemm_grads(F, at, ins[0], ins[1], og[0])),
         infer_shape=_gemm2_shape, infer_type=_same_type, aliases=("linalg_gemm2",),
         doc="alpha * op(A) op(B) over batches of matrices.")


# ---------------------------------------------------------------------------------------------
# internal helpers for gradients: transpose of the last two axes, one triangle of a matrix


def _matrix_transpose(rc, attrs, a):
    if a.ndim < 2:
        raise _err("_matrix_transpose", "input must have ndim >= 2", a)
    return rc.xp.ascontiguousarray(_t(rc.xp, a))


register("_matrix_transpose", _matrix_transpose, inputs=("A",),
         gradient=lambda F, at, ins, outs, og: [F._matrix_transpose(og[0])],
         infer_shape=lambda at, i, o: (i, [None if i[0] is None else
                                           tuple(i[0][:-2]) + (i[0][-1], i[0][-2])], []),
         infer_type=_same_type, doc="Swap the last two axes (internal).")


def _matrix_tril(rc, attrs, a):
    if a.ndim < 2:
        raise _err("_matrix_tril", "input must have ndim >= 2", a)
    return _tri(rc.xp, a, attrs["lower"], attrs["offset"])


register("_matrix_tril", _matrix_tril, inputs=("A",),
         params=(Param("offset", "int", 0), Param("lower", "bool", True)),
         gradient=lambda F, at, ins, outs, og: [F._matrix_tril(og[0], offset=at["offset"],
                                                               lower=at["lower"])],
         infer_shape=lambda at, i, o: (i, [i[0]], []), infer_type=_same_type,
         doc="Keep the lower (or upper) triangle relative to diagonal ``offset`` (internal).")


def _copyltu(F, m, lower=True):
    """The symmetric matrix built from the lower (or upper) triangle of ``m``."""
    strict = F._matrix_tril(m, offset=-1 if lower else 1, lower=lower)
    return F._matrix_tril(m, lower=lower) + F._matrix_transpose(strict)


def _batch_scalars(F, v, a, trailing):
    """Per-matrix values ``v`` reshaped to broadcast against the matrices of ``a``."""
    return F.reshape(v, shape=tuple(a.shape[:-2]) + (1,) * trailing)


# ---------------------------------------------------------------------------------------------
# trmm, trsm, syrk

_TRI_PARAMS = (Param("transpose", "bool", False, doc="Use the transpose of the triangular A."),
               Param("rightside", "bool", False, doc="Multiply (solve) from the right."),
               Param("lower", "bool", True, doc="A is lower (else upper) triangular."),
               Param("alpha", "float", 1.0, doc="Scalar factor."))


def _check_tri(opname, a, b, rightside):
    _check_float(opname, a, b)
    _check_matrices(opname, a, b, square=(0,))
    if rightside and b.shape[-1] != a.shape[-2]:
        raise _err(opname, "incompatible matrix dimensions: B's columns must match A", a, b)
    if not rightside and b.shape[-2] != a.shape[-1]:
        raise _err(opname, "incompatible matrix dimensions: B's rows must match A", a, b)


def _tri_op(xp, a, attrs):
    m = _tri(xp, a, attrs["lower"])
    return _t(xp, m) if attrs["transpose"] else m


def _trmm(rc, attrs, a, b):
    _check_tri("_linalg_trmm", a, b, attrs["rightside"])
    xp = rc.xp
    m = _tri_op(xp, a, attrs)
    out = xp.matmul(b, m) if attrs["rightside"] else xp.matmul(m, b)
    alpha = attrs["alpha"]
    if alpha != 1.0:
        out *= out.dtype.type(alpha)
    return out


def _substitute(xp, m, b, lower):
    """Solve m x = b for triangular m by substitution (division by zero gives inf/nan)."""
    n = m.shape[-1]
    x = xp.zeros(xp.broadcast_shapes(m.shape[:-2], b.shape[:-2]) + b.shape[-2:], dtype=b.dtype)
    order = range(n) if lower else range(n - 1, -1, -1)
    with errstate(divide="ignore", invalid="ignore"):
        for i in order:
            acc = b[..., i, :] - xp.einsum("...j,...jk->...k", m[..., i, :], x)
            x[..., i, :] = acc / m[..., i, i][..., None]
    return x


def _tri_solve(xp, m, b, lower):
    """Solve m x = b for a batch of triangular m; BLAS-like inf/nan when m is singular."""
    try:
        with _raising(xp):
            return xp.linalg.solve(m, b)
    except np.linalg.LinAlgError:
        return _substitute(xp, m, b, lower)


def _trsm(rc, attrs, a, b):
    _check_tri("_linalg_trsm", a, b, attrs["rightside"])
    xp = rc.xp
    m = _tri_op(xp, a, attrs)
    lower_eff = attrs["lower"] != attrs["transpose"]
    rhs = b * b.dtype.type(attrs["alpha"]) if attrs["alpha"] != 1.0 else b
    if attrs["rightside"]:  # X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T
        out = _t(xp, _tri_solve(xp, _t(xp, m), _t(xp, rhs), not lower_eff))
    else:
        out = _tri_solve(xp, m, rhs, lower_eff)
    return xp.ascontiguousarray(out)


def _tri_grad_a(F, attrs, d_op):
    """Gradient of the triangular A from the gradient of op(A)."""
    d = F._matrix_transpose(d_op) if attrs["transpose"] else d_op
    return F._matrix_tril(d, lower=attrs["lower"])


def _trmm_grad(F, attrs, ins, outs, og):
    a, b = ins
    g = og[0]
    alpha, t, right = attrs["alpha"], attrs["transpose"], attrs["rightside"]
    db = F._linalg_trmm(a, g, transpose=not t, rightside=right, lower=attrs["lower"], alpha=alpha)
    if right:   # C = alpha B op(A): d op(A) = alpha B^T g
        d_op = F._linalg_gemm2(b, g, transpose_a=True, alpha=alpha)
    else:       # C = alpha op(A) B: d op(A) = alpha g B^T
        d_op = F._linalg_gemm2(g, b, transpose_b=True, alpha=alpha)
    return [_tri_grad_a(F, attrs, d_op), db]


def _trsm_grad(F, attrs, ins, outs, og):
    a, _ = ins
    x, g = outs[0], og[0]
    t, right = attrs["transpose"], attrs["rightside"]
    # y = op(A)^-T g (left) or g op(A)^-T (right); then dB = alpha y
    y = F._linalg_trsm(a, g, transpose=not t, rightside=right, lower=attrs["lower"])
    if right:   # X op(A) = alpha B: d op(A) = -X^T y
        d_op = F._linalg_gemm2(x, y, transpose_a=True, alpha=-1.0)
    else:       # op(A) X = alpha B: d op(A) = -y X^T
        d_op = F._linalg_gemm2(y, x, transpose_b=True, alpha=-1.0)
    return [_tri_grad_a(F, attrs, d_op), y * attrs["alpha"]]


def _square_first(opname, rule, wait_all=False):
    """``rule`` behind 1.9.1's shape check that input A holds square matrices (made once
    every input's shape is known, with ``wait_all``)."""
    def infer(attrs, ins, outs):
        s = ins[0]
        if wait_all and any(x is None for x in ins):
            return ins, outs, []
        if s is not None:
            if len(s) < 2:
                raise MXNetError(f"{opname}: A must be a tensor of matrices (ndim >= 2), "
                                 f"got shape {tuple(s)}")
            if None not in s[-2:] and s[-1] != s[-2]:
                raise MXNetError(f"{opname}: A must be a tensor of square matrices, "
                                 f"got shape {tuple(s)}")
        return rule(attrs, ins, outs)
    return infer


def _tri_shape(attrs, ins, outs):
    return ins, [ins[1]], []


register("_linalg_trmm", _trmm, inputs=("A", "B"), params=_TRI_PARAMS, gradient=_trmm_grad,
         infer_shape=_square_first("_linalg_trmm", _tri_shape, True), infer_type=_same_type,
         aliases=("linalg_trmm",),
         doc="alpha * op(A) B (or alpha * B op(A)) for triangular A.")
register("_linalg_trsm", _trsm, inputs=("A", "B"), params=_TRI_PARAMS, gradient=_trsm_grad,
         infer_shape=_square_first("_linalg_trsm", _tri_shape, True), infer_type=_same_type,
         aliases=("linalg_trsm",),
         doc="Solve op(A) X = alpha B (or X op(A) = alpha B) for triangular A.")


def _syrk(rc, attrs, a):
    _check_float("_linalg_syrk", a)
    _check_matrices("_linalg_syrk", a)
    xp = rc.xp
    out = xp.matmul(_t(xp, a), a) if attrs["transpose"] else xp.matmul(a, _t(xp, a))
    if attrs["alpha"] != 1.0:
        out *= out.dtype.type(attrs["alpha"])
    return out


def _syrk_grad(F, attrs, ins, outs, og):
    a, g = ins[0], og[0]
    al = attrs["alpha"]
    if attrs["transpose"]:  # C = alpha A^T A: dA = alpha A (g + g^T)
        return [F._linalg_gemm2(a, g, alpha=al) + F._linalg_gemm2(a, g, transpose_b=True, alpha=al)]
    return [F._linalg_gemm2(g, a, alpha=al) + F._linalg_gemm2(g, a, transpose_a=True, alpha=al)]


def _syrk_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 2:
        return ins, outs, []
    n = s[-1] if attrs["transpose"] else s[-2]
    return ins, [tuple(s[:-2]) + (n, n)], []


register("_linalg_syrk", _syrk, inputs=("A",),
         params=(Param("transpose", "bool", False, doc="Compute A^T A instead of A A^T."),
                 Param("alpha", "float", 1.0, doc="Scalar factor.")),
         gradient=_syrk_grad, infer_shape=_syrk_shape, infer_type=_same_type,
         aliases=("linalg_syrk",), doc="alpha * A A^T (or alpha * A^T A).")


# ---------------------------------------------------------------------------------------------
# Cholesky: potrf, potri

_LOWER = Param("lower", "bool", True, doc="Work with the lower (else upper) triangle.")


def _square_shape(attrs, ins, outs):
    return ins, [ins[0]], []


def _potrf(rc, attrs, a):
    _check_float("_linalg_potrf", a)
    _check_matrices("_linalg_potrf", a, square=(0,))
    xp = rc.xp
    lower = attrs["lower"]
    try:
        with _raising(xp):
            chol = xp.linalg.cholesky(_sym_from(xp, a, lower))
    except np.linalg.LinAlgError:
        raise _err("_linalg_potrf", "the input is not symmetric positive definite "
                   "(Cholesky factorization failed)", a) from None
    return chol if lower else xp.ascontiguousarray(_t(xp, chol))


def _potrf_grad(F, attrs, ins, outs, og):
    # A = L L^T: dA = 0.5 L^-T sym(tril(L^T dL)) L^-1 (symmetric); upper: L = U^T.
    c, g = outs[0], og[0]
    if attrs["lower"]:
        p = _copyltu(F, F._linalg_gemm2(c, g, transpose_a=True))
        y = F._linalg_trsm(c, p, transpose=True, alpha=0.5)
        return [F._linalg_trsm(c, y, rightside=True)]
    p = _copyltu(F, F._linalg_gemm2(c, g, transpose_b=True))
    y = F._linalg_trsm(c, p, lower=False, alpha=0.5)
    return [F._linalg_trsm(c, y, rightside=True, transpose=True, lower=False)]


register("_linalg_potrf", _potrf, inputs=("A",), params=(_LOWER,), gradient=_potrf_grad,
         infer_shape=_square_shape, infer_type=_same_type, aliases=("linalg_potrf",),
         doc="Cholesky factor of a symmetric positive definite matrix (read from one triangle).")


def _potri(rc, attrs, a):
    _check_float("_linalg_potri", a)
    _check_matrices("_linalg_potri", a, square=(0,))
    xp = rc.xp
    lower = attrs["lower"]
    try:
        with _raising(xp):
            inv = xp.linalg.inv(_tri(xp, a, lower))
    except np.linalg.LinAlgError:
        raise _err("_linalg_potri", "the input is not a Cholesky factor (a diagonal entry is "
                   "zero)", a) from None
    out = xp.matmul(_t(xp, inv), inv) if lower else xp.matmul(inv, _t(xp, inv))
    return _sym_from(xp, out, True)


def _potri_grad(F, attrs, ins, outs, og):
    # out = (L L^T)^-1: dL = -tril(out (g + g^T) out L); upper: dU = -triu(U out (g + g^T) out)
    lower = attrs["lower"]
    c = F._matrix_tril(ins[0], lower=lower)   # only this triangle of the input is read
    y, g = outs[0], og[0]
    m = F._linalg_gemm2(y, F._linalg_gemm2(g + F._matrix_transpose(g), y))
    d = F._linalg_gemm2(m, c, alpha=-1.0) if lower else F._linalg_gemm2(c, m, alpha=-1.0)
    return [F._matrix_tril(d, lower=lower)]


register("_linalg_potri", _potri, inputs=("A",), params=(_LOWER,), gradient=_potri_grad,
         infer_shape=_square_shape, infer_type=_same_type, aliases=("linalg_potri",),
         doc="Inverse of A A^T (or A^T A) from its triangular Cholesky factor A.")


# ---------------------------------------------------------------------------------------------
# gelqf, syevd


def _gelqf(rc, attrs, a):
    _check_float("_linalg_gelqf", a)
    _check_matrices("_linalg_gelqf", a)
    if a.shape[-2] > a.shape[-1]:
        raise _err("_linalg_gelqf", "A must have no more rows than columns", a)
    xp = rc.xp
    q, r = xp.linalg.qr(_t(xp, a))           # A^T = q r  =>  A = r^T q^T
    return xp.ascontiguousarray(_t(xp, q)), xp.ascontiguousarray(_t(xp, r))


def _gelqf_grad(F, attrs, ins, outs, og):
    # A = L Q: dA = L^-T (dQ + sym(tril(M)) Q), M = L^T dL - dQ Q^T
    q, lo = outs
    dq, dl = og
    m = F._linalg_gemm2(lo, dl, transpose_a=True) - F._linalg_gemm2(dq, q, transpose_b=True)
    x = dq + F._linalg_gemm2(_copyltu(F, m), q)
    return [F._linalg_trsm(lo, x, transpose=True)]


def _gelqf_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 2:
        return ins, outs, []
    return ins, [tuple(s), tuple(s[:-1]) + (s[-2],)], []


register("_linalg_gelqf", _gelqf, inputs=("A",), num_outputs=2, gradient=_gelqf_grad,
         infer_shape=_gelqf_shape, infer_type=_same_type, aliases=("linalg_gelqf",),
         doc="LQ factorization A = L Q; returns (Q, L).")


def _syevd(rc, attrs, a):
    _check_float("_linalg_syevd", a)
    _check_matrices("_linalg_syevd", a, square=(0,))
    xp = rc.xp
    w, v = xp.linalg.eigh(a, UPLO="L")
    u = _t(xp, v)                             # rows are eigenvectors
    # fix signs: the entry of largest magnitude in each eigenvector is positive
    big = xp.take_along_axis(u, xp.argmax(xp.abs(u), axis=-1)[..., None], axis=-1)
    u = u * xp.where(big < 0, -1, 1).astype(u.dtype)
    return xp.ascontiguousarray(u), w.astype(a.dtype, copy=False)


def _syevd_grad(F, attrs, ins, outs, og):
    return [F._backward_linalg_syevd(og[0], og[1], outs[0], outs[1])]


def _backward_syevd(rc, attrs, du, dlam, u, lam):
    # A = U^T diag(lam) U: dA = sym(U^T (diag(dlam) + F o (U dU^T)) U), F_ij = 1/(lam_j - lam_i)
    xp = rc.xp
    gap = lam[..., None, :] - lam[..., :, None]
    n = lam.shape[-1]
    eye = xp.eye(n, dtype=bool)
    f = 1 / xp.where(eye, 1, gap)
    inner = xp.where(eye, 0, f) * xp.matmul(u, _t(xp, du))
    inner = inner + dlam[..., None] * xp.eye(n, dtype=u.dtype)
    d = xp.matmul(_t(xp, u), xp.matmul(inner, u))
    return (d + _t(xp, d)) * d.dtype.type(0.5)


def _syevd_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 2:
        return ins, outs, []
    return ins, [tuple(s), tuple(s[:-1])], []


register("_linalg_syevd", _syevd, inputs=("A",), num_outputs=2, gradient=_syevd_grad,
         infer_shape=_square_first("_linalg_syevd", _syevd_shape), infer_type=_same_type,
         doc="Eigendecomposition of a symmetric matrix (lower triangle): returns (U, lambda) with "
             "U A = diag(lambda) U and ascending lambda.")
register("_backward_linalg_syevd", _backward_syevd, inputs=("dU", "dL", "U", "L"),
         infer_shape=lambda at, i, o: (i, [i[0]], []), infer_type=_same_type,
         doc="Gradient of syevd (internal).")


# ---------------------------------------------------------------------------------------------
# inverse, det, slogdet, sumlogdiag


def _inverse(rc, attrs, a):
    _check_float("_linalg_inverse", a)
    _check_matrices("_linalg_inverse", a, square=(0,))
    xp = rc.xp
    try:
        with _raising(xp):
            return xp.linalg.inv(a)
    except np.linalg.LinAlgError:
        raise _err("_linalg_inverse", "the input matrix is singular", a) from None


def _inverse_grad(F, attrs, ins, outs, og):
    y, g = outs[0], og[0]   # dA = -Y^T g Y^T
    return [F._linalg_gemm2(y, F._linalg_gemm2(g, y, transpose_b=True), transpose_a=True,
                            alpha=-1.0)]


register("_linalg_inverse", _inverse, inputs=("A",), gradient=_inverse_grad,
         infer_shape=_square_first("_linalg_inverse", _square_shape), infer_type=_same_type,
         aliases=("linalg_inverse",),
         doc="Inverse of a batch of square matrices.")


def _scalar_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 2:
        return ins, outs, []
    per = tuple(s[:-2]) or (1,)
    return ins, [per] * len(outs), []


def _det_shape(nvis):
    """det and slogdet: ``nvis`` per-matrix values, then the hidden LU factors and pivots."""
    def infer(attrs, ins, outs):
        s = ins[0]
        if s is None or len(s) < 2:
            return ins, outs, []
        per = tuple(s[:-2]) or (1,)
        return ins, [per] * nvis + [tuple(s), tuple(s[:-1])], []
    return infer


def _check_det(opname, a):
    _check_float(opname, a)
    _check_matrices(opname, a, square=(0,))


def _det_type(opname):
    """det and slogdet: 1.9.1 types them for float32 and float64 only (the hidden pivots,
    the last output, are int32)."""
    def infer(attrs, ins, outs):
        for t in list(ins) + list(outs[:-1]):
            if t is not None and np.dtype(t) not in _BLAS_FLOATS:
                raise MXNetError(f"{opname}: unsupported dtype {np.dtype(t).name}; expected "
                                 f"float32 or float64")
        i, o, _ = _same_type(attrs, ins, outs[:-1])
        return i, o + [np.dtype(np.int32)], []
    return infer


def _lu_factors(xp, a):
    """The hidden (LU, pivots) outputs 1.9.1's det and slogdet keep: LAPACK's getrf of the
    row-major buffer (that is, of A^T), read back row-major, with 1-based int32 pivots."""
    m = xp.array(_t(xp, a.reshape((-1,) + a.shape[-2:])), copy=True)
    b, n = m.shape[0], m.shape[-1]
    piv = xp.zeros((b, n), dtype=np.int32)
    rows = xp.arange(b)
    for k in range(n):
        p = xp.argmax(xp.abs(m[:, k:, k]), axis=-1) + k
        piv[:, k] = p + 1
        top, other = m[rows, k].copy(), m[rows, p].copy()
        m[rows, k], m[rows, p] = other, top
        d = m[:, k, k]
        scale = xp.where(d == 0, m.dtype.type(1), d)
        m[:, k + 1:, k] /= scale[:, None]
        m[:, k + 1:, k + 1:] -= m[:, k + 1:, k, None] * m[:, k, None, k + 1:]
    lu = xp.ascontiguousarray(_t(xp, m)).reshape(a.shape)
    return lu, piv.reshape(a.shape[:-1])


def _det(rc, attrs, a):
    _check_det("_linalg_det", a)
    return (_per_matrix(rc.xp.linalg.det(a), a),) + _lu_factors(rc.xp, a)


def _safe_inv_t(xp, a, singular):
    """A^-T where ``singular`` is False; entries of singular matrices are undefined (0 used)."""
    sing = singular.reshape(a.shape[:-2] + (1, 1))
    inv = xp.linalg.inv(xp.where(sing, _eye_like(xp, a), a))
    return xp.where(sing, 0, _t(xp, inv))


def _backward_det(rc, attrs, g, a, det):
    # d det / dA = det A^-T; no gradient for singular A (as in 1.9.1)
    xp = rc.xp
    s = (g * det).reshape(a.shape[:-2] + (1, 1))
    return xp.ascontiguousarray(s * _safe_inv_t(xp, a, det.reshape(a.shape[:-2]) == 0))


register("_linalg_det", _det, inputs=("A",), output_names=("output0",),
         num_outputs=3, num_visible_outputs=1,
         gradient=lambda F, at, ins, outs, og: [F._backward_linalg_det(og[0], ins[0], outs[0])],
         infer_shape=_square_first("_linalg_det", _det_shape(1)),
         infer_type=_det_type("_linalg_det"),
         aliases=("linalg_det",),
         doc="Determinant of a batch of square matrices.")
register("_backward_linalg_det", _backward_det, inputs=("ograd", "A", "det"),
         infer_shape=lambda at, i, o: (i, [i[1]], []), infer_type=_same_type,
         doc="Gradient of det (internal).")


def _slogdet(rc, attrs, a):
    _check_det("_linalg_slogdet", a)
    sign, logabs = rc.xp.linalg.slogdet(a)
    return (_per_matrix(sign, a), _per_matrix(logabs, a)) + _lu_factors(rc.xp, a)


def _backward_slogdet(rc, attrs, g, a, sign):
    # d log|det| / dA = A^-T; the sign has no gradient; none for singular A
    xp = rc.xp
    s = g.reshape(a.shape[:-2] + (1, 1))
    return xp.ascontiguousarray(s * _safe_inv_t(xp, a, sign.reshape(a.shape[:-2]) == 0))


register("_linalg_slogdet", _slogdet, inputs=("A",), num_outputs=4, num_visible_outputs=2,
         gradient=lambda F, at, ins, outs, og: [
             F._backward_linalg_slogdet(og[1], ins[0], outs[0])],
         infer_shape=_square_first("_linalg_slogdet", _det_shape(2)),
         infer_type=_det_type("_linalg_slogdet"),
         aliases=("linalg_slogdet",),
         doc="Sign and natural log of the absolute determinant; returns (sign, logabsdet).")
register("_backward_linalg_slogdet", _backward_slogdet, inputs=("ograd", "A", "sign"),
         infer_shape=lambda at, i, o: (i, [i[1]], []), infer_type=_same_type,
         doc="Gradient of slogdet (internal).")


def _sumlogdiag(rc, attrs, a):
    _check_float("_linalg_sumlogdiag", a)
    _check_matrices("_linalg_sumlogdiag", a, square=(0,))
    xp = rc.xp
    return _per_matrix(xp.sum(xp.log(xp.diagonal(a, 0, -2, -1)), axis=-1), a)


def _sumlogdiag_grad(F, attrs, ins, outs, og):
    a = ins[0]
    g = _batch_scalars(F, og[0], a, 1)
    return [F._linalg_makediag(F.broadcast_div(g, F._linalg_extractdiag(a)))]


register("_linalg_sumlogdiag", _sumlogdiag, inputs=("A",), gradient=_sumlogdiag_grad,
         infer_shape=_scalar_shape, infer_type=_same_type, aliases=("linalg_sumlogdiag",),
         doc="Sum of the natural logarithms of the diagonal of a batch of square matrices.")


# ---------------------------------------------------------------------------------------------
# diagonals and triangles: extractdiag, makediag, extracttrian, maketrian

_OFFSET = Param("offset", "int", 0, doc="Diagonal offset: > 0 above, < 0 below the main one.")
_TRIAN = (_OFFSET, Param("lower", "bool", True, doc="Lower (else upper) triangle when offset "
                                                    "is 0; ignored otherwise."))


def _check_offset(opname, n, offset, *arrays):
    m = n - abs(offset)
    if m <= 0:
        raise _err(opname, f"illegal offset {offset} for matrices of size {n}", *arrays)
    return m


def _extractdiag(rc, attrs, a):
    _check_float("_linalg_extractdiag", a)
    _check_matrices("_linalg_extractdiag", a, square=(0,))
    _check_offset("_linalg_extractdiag", a.shape[-1], attrs["offset"], a)
    return rc.xp.diagonal(a, attrs["offset"], -2, -1).copy()


def _makediag(rc, attrs, a):
    _check_float("_linalg_makediag", a)
    if a.ndim < 1:
        raise _err("_linalg_makediag", "input must have ndim >= 1", a)
    xp = rc.xp
    k = attrs["offset"]
    n = a.shape[-1]
    size = n + abs(k)
    out = xp.zeros(a.shape[:-1] + (size, size), dtype=a.dtype)
    idx = xp.arange(n)
    out[..., idx + max(-k, 0), idx + max(k, 0)] = a
    return out


def _diag_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 2:
        return ins, outs, []
    m = _check_offset("_linalg_extractdiag", s[-1], attrs["offset"])
    return ins, [tuple(s[:-2]) + (m,)], []


def _makediag_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 1:
        return ins, outs, []
    size = s[-1] + abs(attrs["offset"])
    return ins, [tuple(s[:-1]) + (size, size)], []


register("_linalg_extractdiag", _extractdiag, inputs=("A",), params=(_OFFSET,),
         gradient=lambda F, at, ins, outs, og: [F._linalg_makediag(og[0], offset=at["offset"])],
         infer_shape=_square_first("_linalg_extractdiag", _diag_shape), infer_type=_same_type,
         aliases=("linalg_extractdiag",),
         doc="The diagonal (at ``offset``) of a batch of square matrices.")
register("_linalg_makediag", _makediag, inputs=("A",), params=(_OFFSET,),
         gradient=lambda F, at, ins, outs, og: [F._linalg_extractdiag(og[0], offset=at["offset"])],
         infer_shape=_makediag_shape, infer_type=_same_type, aliases=("linalg_makediag",),
         doc="Square matrices with the input on diagonal ``offset``.")


def _trian_layout(offset, lower):
    """(work on the transpose?, non-positive offset of the lower triangle)."""
    upper = offset > 0 or (offset == 0 and not lower)
    return upper, -abs(offset)


def _trian_index(xp, m, k):
    """Row and column indices of the packed lower triangle of size m, shifted down by -k."""
    r, c = xp.tril_indices(m)
    return r - k, c


def _extracttrian(rc, attrs, a):
    _check_float("_linalg_extracttrian", a)
    _check_matrices("_linalg_extracttrian", a, square=(0,))
    m = _check_offset("_linalg_extracttrian", a.shape[-1], attrs["offset"], a)
    xp = rc.xp
    upper, k = _trian_layout(attrs["offset"], attrs["lower"])
    src = _t(xp, a) if upper else a
    r, c = _trian_index(xp, m, k)
    return src[..., r, c]


def _maketrian_size(opname, count, offset, *arrays):
    m = int((math.isqrt(8 * count + 1) - 1) // 2)
    if m * (m + 1) // 2 != count or count == 0:
        raise _err(opname, f"the last axis ({count}) is not a triangular number m(m+1)/2", *arrays)
    return m, m + abs(offset)


def _maketrian(rc, attrs, a):
    _check_float("_linalg_maketrian", a)
    if a.ndim < 1:
        raise _err("_linalg_maketrian", "input must have ndim >= 1", a)
    m, size = _maketrian_size("_linalg_maketrian", a.shape[-1], attrs["offset"], a)
    xp = rc.xp
    upper, k = _trian_layout(attrs["offset"], attrs["lower"])
    out = xp.zeros(a.shape[:-1] + (size, size), dtype=a.dtype)
    r, c = _trian_index(xp, m, k)
    out[..., r, c] = a
    return xp.ascontiguousarray(_t(xp, out)) if upper else out


def _extracttrian_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 2:
        return ins, outs, []
    m = _check_offset("_linalg_extracttrian", s[-1], attrs["offset"])
    return ins, [tuple(s[:-2]) + (m * (m + 1) // 2,)], []


def _maketrian_shape(attrs, ins, outs):
    s = ins[0]
    if s is None or len(s) < 1:
        return ins, outs, []
    _, size = _maketrian_size("_linalg_maketrian", s[-1], attrs["offset"])
    return ins, [tuple(s[:-1]) + (size, size)], []


register("_linalg_extracttrian", _extracttrian, inputs=("A",), params=_TRIAN,
         gradient=lambda F, at, ins, outs, og: [
             F._linalg_maketrian(og[0], offset=at["offset"], lower=at["lower"])],
         infer_shape=_square_first("_linalg_extracttrian", _extracttrian_shape),
         infer_type=_same_type, aliases=("linalg_extracttrian",),
         doc="A triangle of a batch of square matrices, packed into the last axis.")
register("_linalg_maketrian", _maketrian, inputs=("A",), params=_TRIAN,
         gradient=lambda F, at, ins, outs, og: [
             F._linalg_extracttrian(og[0], offset=at["offset"], lower=at["lower"])],
         infer_shape=_maketrian_shape, infer_type=_same_type, aliases=("linalg_maketrian",),
         doc="Square matrices built from packed triangles (the inverse of extracttrian).")
