"""The operators of ``mx.nd.sparse`` on CSR / row_sparse components: ``dot``, the
elementwise arithmetic, reductions, slicing, zero-preserving unary functions, the lazy
optimizer updates, and the hooks that route ``mx.nd.X`` calls with sparse arguments here.
The storage-type rules they follow are listed in :mod:`mxnet.ndarray.sparse`.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, numeric_types
from ..context import Context, current_context
from ..operator.registry import get_op
from .ndarray import NDArray, _new, invoke
from .sparse import (_IDX, BaseSparseNDArray, CSRNDArray, RowSparseNDArray, _csr_from_dense,
                     _csr_rows, _Parts, _row_of, _scatter_add, _segment_sum, _xp, py_slice,
                     zeros_like)

__all__ = ["dot", "add", "subtract", "multiply", "divide", "sum", "mean", "slice", "concat"]


# --------------------------------------------------------------------------- dot

def _dense_dot(lhs, rhs, transpose_a, transpose_b):
    op = get_op("dot")
    return invoke(op, [lhs, rhs], op.parse_attrs({"transpose_a": transpose_a,
                                                  "transpose_b": transpose_b}))


def _segment_sum_cols(xp, prod_t, seg, nseg, dt):
    """``out[s, j]`` = the sum of ``prod_t[j, i]`` over the ``i`` with ``seg[i] == s``.

    One ``bincount`` pass per column of the dense operand: measured 2.5x faster than
    ``add.reduceat`` over rows (which loops per segment and column) for 200k stored values
    times 64 columns.
    """
    out = xp.empty((nseg, prod_t.shape[0]), dt)
    for j in range(prod_t.shape[0]):
        out[:, j] = xp.bincount(seg, weights=prod_t[j], minlength=nseg)
    return out


def _scaled_rows_t(xp, p, w, take, dt):
    """``(w[take] * data[:, None]).T`` as a C-contiguous array (dense columns x nnz)."""
    # take() gives a C-contiguous result (a[:, idx] does not), so each row of the product
    # is contiguous for bincount
    prod_t = xp.take(xp.ascontiguousarray(w.T).astype(dt, copy=False), take, axis=1)
    prod_t *= p.data.astype(dt, copy=False)
    return prod_t


def _csr_mm(xp, p, w, dt):
    """csr @ w (dense result)."""
    prod_t = _scaled_rows_t(xp, p, w, p.indices, dt)
    return _segment_sum_cols(xp, prod_t, _row_of(xp, p.indptr, p.shape[0]), p.shape[0], dt)


def _csr_t_mm(xp, p, w, dt):
    """csr.T @ w as (the column ids that hold values, their result rows)."""
    cols, inv = xp.unique(p.indices, return_inverse=True)
    prod_t = _scaled_rows_t(xp, p, w, _row_of(xp, p.indptr, p.shape[0]), dt)
    return cols.astype(_IDX), _segment_sum_cols(xp, prod_t, inv.reshape(-1), cols.size, dt)


def dot(lhs, rhs, transpose_a=False, transpose_b=False, forward_stype=None, **kwargs):
    """Matrix product with sparse operands.

    ``dot(csr, dense)`` is dense, ``dot(csr, dense, transpose_a=True)`` row_sparse,
    ``dot(dense, csr)`` (either transpose of the csr) csr; other mixes compute densely.
    ``forward_stype`` ('default', 'csr' or 'row_sparse') sets the result's storage type.
    While autograd records, the product is taped as the dense ``dot`` (so ``backward``
    fills the gradients), and the result keeps the storage type above, as in 1.9.1.
    """
    for arg, value in (("lhs", lhs), ("rhs", rhs)):   # 1.9.1: an AssertionError
        if not isinstance(value, NDArray):
            from ..base import MXNetAssertionError
            raise MXNetAssertionError(f"dot: argument {arg} must be an NDArray, got "
                                      f"{type(value).__name__}")
    if lhs.stype == "csr" and rhs.stype == "default" and rhs.ndim != 2:   # as 1.9.1
        raise MXNetError(f"dot: a csr lhs needs a 2-D dense rhs, got shape {rhs.shape}")
    res = _dot(lhs, rhs, transpose_a, transpose_b)
    if transpose_b and not transpose_a and forward_stype is None and lhs.stype == "default" \
            and rhs.stype == "csr" and lhs.ndim == 2:
        # 1.9.1 has no kernel for dense x csr.T: it runs densely (to csr) and says so
        from ._fallback_log import log_fallback
        log_fallback("dot", [lhs, rhs], {"transpose_b": True}, 1, (), ["csr"])
    if forward_stype is None or forward_stype == res.stype or _recorded(lhs, rhs):
        return res
    if forward_stype not in ("default", "csr", "row_sparse"):
        raise MXNetError(f"dot: forward_stype must be 'default', 'csr' or 'row_sparse', got "
                         f"{forward_stype!r}")
    if forward_stype != "default":
        # 1.9.1 has no kernel for this sparse output storage type: it runs densely, says so
        from ._fallback_log import log_fallback
        given = {k: v for k, v in (("transpose_a", transpose_a or None),
                                   ("transpose_b", transpose_b or None),
                                   ("forward_stype", forward_stype)) if v is not None}
        log_fallback("dot", [lhs, rhs], given, 1, get_op("dot").params, [forward_stype])
    if res.stype != "default":
        res = res.tostype("default")
    return res if forward_stype == "default" else res.tostype(forward_stype)


def _dot(lhs, rhs, transpose_a, transpose_b):
    from .._mode import mode
    ls, rs = lhs.stype, rhs.stype
    if mode.recording and (lhs._node is not None or rhs._node is not None):
        return _dense_dot(lhs, rhs, transpose_a, transpose_b)
    lshape = lhs.shape[::-1] if transpose_a else lhs.shape
    rshape = rhs.shape[::-1] if transpose_b else rhs.shape
    if len(lshape) == 2 and len(rshape) == 2 and lshape[1] != rshape[0] and \
            (ls == "csr" or rs == "csr"):
        raise MXNetError(f"dot: shape mismatch, {lhs.shape} (transpose_a={transpose_a}) x "
                         f"{rhs.shape} (transpose_b={transpose_b}): inner sizes "
                         f"{lshape[1]} and {rshape[0]} differ")
    if np.dtype(lhs.dtype) != np.dtype(rhs.dtype):   # 1.9.1's type inference refuses it
        raise MXNetError(f"dot: incompatible input types: lhs is {np.dtype(lhs.dtype).name}, "
                         f"rhs is {np.dtype(rhs.dtype).name}; both must have the same dtype")
    ctx = lhs._ctx
    xp = _xp(ctx)
    if (ls == "csr" or rs == "csr") and (np.dtype(lhs.dtype).kind != "f"
                                         or np.dtype(rhs.dtype).kind != "f"):
        raise MXNetError(f"dot: a csr product supports floating-point dtypes only, got "
                         f"{np.dtype(lhs.dtype).name} and {np.dtype(rhs.dtype).name}")
    if ls == "csr" and rs == "default" and np.dtype(lhs.dtype) == np.float16:   # as 1.9.1
        raise MXNetError("dot: a csr lhs supports float32 and float64 only, got float16")
    if ls == "csr" and rs == "default" and rhs.ndim == 2:
        rhs.wait_to_read()
        p = lhs._parts
        w = rhs._data.T if transpose_b else rhs._data
        dt = np.result_type(p.data.dtype, w.dtype)
        if not transpose_a:
            return _new(_csr_mm(xp, p, w, dt), ctx)
        cols, acc = _csr_t_mm(xp, p, w, dt)
        return RowSparseNDArray._wrap(_Parts((p.shape[1], w.shape[1]), acc, cols), ctx)
    if ls == "csr" and rs == "row_sparse" and transpose_a and not transpose_b:
        # as 1.9.1: row_sparse, holding the columns of the csr values whose row the
        # row_sparse operand stores
        lhs.wait_to_read()
        rhs.wait_to_read()
        p, q = lhs._parts, rhs._parts
        entry_rows = _row_of(xp, p.indptr, p.shape[0])
        keep = xp.isin(entry_rows, q.indices)
        counts = xp.bincount(entry_rows[keep], minlength=p.shape[0]) if p.shape[0] else \
            xp.zeros(0, _IDX)
        indptr = xp.concatenate([xp.zeros(1, _IDX), xp.cumsum(counts).astype(_IDX)])
        sub = _Parts(p.shape, p.data[keep], p.indices[keep], indptr)
        w = xp.zeros(q.shape, q.data.dtype)
        w[q.indices] = q.data
        dt = np.result_type(p.data.dtype, w.dtype)
        cols, acc = _csr_t_mm(xp, sub, w, dt)
        return RowSparseNDArray._wrap(_Parts((p.shape[1], w.shape[1]), acc, cols), ctx)
    if ls == "default" and rs == "csr" and lhs.ndim == 2 and not transpose_a:
        lhs.wait_to_read()
        p = rhs._parts
        a_t = lhs._data.T
        dt = np.result_type(p.data.dtype, a_t.dtype)
        if transpose_b:  # (a @ csr.T).T = csr @ a.T
            out_t = _csr_mm(xp, p, a_t, dt)
        else:  # (a @ csr).T = csr.T @ a.T
            cols, acc = _csr_t_mm(xp, p, a_t, dt)
            out_t = xp.zeros((p.shape[1], a_t.shape[1]), dt)
            out_t[cols] = acc
        return CSRNDArray._wrap(_csr_from_dense(xp, xp.ascontiguousarray(out_t.T)), ctx)
    if (ls != "default" or rs != "default") and (ls, rs) != ("csr", "row_sparse"):
        # (1.9.1 multiplies csr by row_sparse natively, to a dense result)
        from ._fallback_log import log_fallback
        given = {k: True for k, v in (("transpose_a", transpose_a), ("transpose_b", transpose_b))
                 if v}
        res = _dense_dot(lhs, rhs, transpose_a, transpose_b)
        log_fallback("dot", [lhs, rhs], given)
        return res
    return _dense_dot(lhs, rhs, transpose_a, transpose_b)


# --------------------------------------------------------------------------- elementwise

def _fallback(name, *inputs, **attrs):
    """The dense operator ``name`` on the dense forms of the inputs (storage fallback)."""
    from . import _public
    from ._fallback_log import log_fallback
    shown_inputs = attrs.pop("_logged_as", None) or inputs   # the arrays the log names
    if "out" not in attrs and _recorded(*inputs):
        # recorded by autograd on the arrays themselves (read densely), so that the
        # gradient reaches a sparse input
        op = get_op(name)
        given = dict(attrs)
        if op.variadic and op.variadic not in given:
            given[op.variadic] = len(inputs)
        res = invoke(op, list(inputs), op.parse_attrs(given))
        log_fallback(op.name, inputs, {k: v for k, v in given.items()}, 1,
                     tuple(p for p in op.params if p != op.variadic))
        _given(res, given)
        return res
    for a in inputs:   # a sparse input's dense form is read here, outside the engine: wait
        if isinstance(a, BaseSparseNDArray):   # for pending writes (a KVStore pull ...)
            a._parts   # noqa: B018
    dense = [_new(a._data, a._ctx) if isinstance(a, BaseSparseNDArray) else a for a in inputs]
    res = _public[name](*dense, **attrs)
    if "_update" in name:   # an optimizer update writes its states in place: as
        # 1.9.1's fallback, row_sparse states get their new values back (non-zero rows)
        for a, d in zip(inputs, dense):
            if isinstance(a, RowSparseNDArray) and a is not attrs.get("out") and \
                    not _xp(a._ctx).array_equal(a._data, d._data):
                a._store_from(RowSparseNDArray._from_rows(d, _nonzero_rows(d)))
    inputs = shown_inputs
    if any(isinstance(a, BaseSparseNDArray) for a in inputs):
        try:
            op = get_op(name)
        except (KeyError, MXNetError):
            op = None
        shown = {k: v for k, v in attrs.items() if k != "out"}
        if op is not None and op.variadic and op.variadic not in shown:
            shown[op.variadic] = len(inputs)   # the frontend passes the input count
        out = attrs.get("out")   # a sparse ``out`` keeps its storage type
        # named as 1.9.1's operator (concat is Concat); the frontend appends the input count
        log_fallback(op.name if op is not None else name, inputs, shown, 1,
                     tuple(p for p in op.params if p != op.variadic) if op is not None else (),
                     [getattr(out, "stype", "default")])
    return res


def _check_same_shape(fn, a, b):
    if a.shape != b.shape:
        raise MXNetError(f"{fn}: shapes {a.shape} and {b.shape} differ; sparse operands "
                         "must have the same shape")
    if np.dtype(a.dtype) != np.dtype(b.dtype):   # as 1.9.1's type inference
        raise MXNetError(f"{fn}: incompatible input types: lhs is {np.dtype(a.dtype).name}, "
                         f"rhs is {np.dtype(b.dtype).name}; both must have the same dtype")


def _union(fn, a, b, sign):
    """a + sign * b for two sparse arrays of one stype, storing the union of patterns."""
    _check_same_shape(fn, a, b)
    xp = _xp(a._ctx)
    pa, pb = a._parts, b._parts
    dt = np.result_type(pa.data.dtype, pb.data.dtype)
    if a.stype == "row_sparse":
        rows = xp.union1d(pa.indices, pb.indices).astype(_IDX)
        out = xp.zeros((rows.size,) + pa.shape[1:], dt)
        out[xp.searchsorted(rows, pa.indices)] += pa.data
        out[xp.searchsorted(rows, pb.indices)] += sign * pb.data
        return RowSparseNDArray._wrap(_Parts(pa.shape, out, rows), a._ctx)
    cols = pa.shape[1]
    ka = _row_of(xp, pa.indptr, pa.shape[0]) * cols + pa.indices
    kb = _row_of(xp, pb.indptr, pb.shape[0]) * cols + pb.indices
    keys = xp.union1d(ka, kb)
    vals = xp.zeros(keys.size, dt)
    vals[xp.searchsorted(keys, ka)] += pa.data
    vals[xp.searchsorted(keys, kb)] += sign * pb.data
    return _csr_from_keys(xp, keys, vals, pa.shape, a._ctx)


def _csr_from_keys(xp, keys, vals, shape, ctx):
    rows = keys // max(shape[1], 1)
    counts = xp.bincount(rows, minlength=shape[0]) if rows.size else xp.zeros(shape[0], _IDX)
    indptr = xp.concatenate([xp.zeros(1, _IDX), xp.cumsum(counts).astype(_IDX)])
    return CSRNDArray._wrap(_Parts(shape, vals, (keys % max(shape[1], 1)).astype(_IDX),
                                   indptr), ctx)


def _sparse_mul(a, b):
    """a * b for two sparse arrays of one stype. As in 1.9.1, csr keeps the intersection of
    the patterns and row_sparse the union of the rows (zero rows included)."""
    _check_same_shape("multiply", a, b)
    xp = _xp(a._ctx)
    pa, pb = a._parts, b._parts
    dt = np.result_type(pa.data.dtype, pb.data.dtype)
    if a.stype == "row_sparse":
        rows = xp.union1d(pa.indices, pb.indices).astype(_IDX)
        va = xp.zeros((rows.size,) + pa.shape[1:], dt)
        vb = xp.zeros_like(va)
        va[xp.searchsorted(rows, pa.indices)] = pa.data
        vb[xp.searchsorted(rows, pb.indices)] = pb.data
        return RowSparseNDArray._wrap(_Parts(pa.shape, va * vb, rows), a._ctx)
    cols = pa.shape[1]
    ka = _row_of(xp, pa.indptr, pa.shape[0]) * cols + pa.indices
    kb = _row_of(xp, pb.indptr, pb.shape[0]) * cols + pb.indices
    keys, ia, ib = xp.intersect1d(ka, kb, return_indices=True)
    return _csr_from_keys(xp, keys, pa.data[ia] * pb.data[ib], pa.shape, a._ctx)


def _scale_by_dense(sp_arr, dense, op):
    """``sp_arr (op) dense`` evaluated at the stored positions only (dense broadcast)."""
    xp = _xp(sp_arr._ctx)
    p = sp_arr._parts
    dense.wait_to_read()
    try:
        full = xp.broadcast_to(dense._data, p.shape)
    except ValueError:
        raise MXNetError(f"multiply: shapes {p.shape} and {dense.shape} cannot be "
                         "broadcast together") from None
    if p.indptr is not None:
        other = full[_row_of(xp, p.indptr, p.shape[0]), p.indices]
        return CSRNDArray._wrap(_Parts(p.shape, op(p.data, other), p.indices.copy(),
                                       p.indptr.copy()), sp_arr._ctx)
    other = full[p.indices]
    return RowSparseNDArray._wrap(_Parts(p.shape, op(p.data, other), p.indices.copy()),
                                  sp_arr._ctx)


def _map_data(a, fn):
    p = a._parts
    return type(a)._wrap(_Parts(p.shape, fn(p.data), p.indices.copy(),
                                None if p.indptr is None else p.indptr.copy()), a._ctx)


def _scalar_data(a, opname, scalar):
    """``a`` with the dense scalar operator ``opname`` applied to its stored values (so the
    scalar is cast to the dtype as 1.9.1 does: ``int_array * 2.5`` multiplies by 2)."""
    from .ndarray import _scalar_attrs
    if _recorded(a):   # taped like the dense operator (the stype: _keeps_stype)
        return invoke(get_op(opname), [a], _scalar_attrs(_py_scalar(scalar)))
    res = invoke(get_op(opname), [_new(a._parts.data, a._ctx)], _scalar_attrs(_py_scalar(scalar)))
    return _map_data(a, lambda d: res._data.astype(d.dtype, copy=False))


def _py_scalar(v):
    return v.item() if isinstance(v, np.generic) else v


_SCALAR_COMPARE = {"_greater_scalar": lambda a, b: a > b, "_lesser_scalar": lambda a, b: a < b,
                   "_greater_equal_scalar": lambda a, b: a >= b,
                   "_lesser_equal_scalar": lambda a, b: a <= b,
                   "_equal_scalar": lambda a, b: a == b,
                   "_not_equal_scalar": lambda a, b: a != b}


def compare_scalar(data, opname, scalar):
    """A comparison of a sparse array with a scalar: as in 1.9.1 it keeps the storage type
    when comparing 0 with the scalar is false (zeros stay zero), else it is dense."""
    if isinstance(data, BaseSparseNDArray) and not _SCALAR_COMPARE[opname](0, scalar) \
            and not _recorded(data):
        return _scalar_data(data, opname, scalar)
    from .ndarray import _log_sparse_arith, _scalar_attrs
    _log_sparse_arith(opname, [data], _py_scalar(scalar))
    return invoke(get_op(opname), [data], _scalar_attrs(_py_scalar(scalar)))


def _recorded(*arrays):
    """Whether autograd records an operator on these operands (one of them is in the graph)."""
    from .._mode import mode
    return mode.recording and any(isinstance(a, NDArray) and a._node is not None
                                  for a in arrays)


def _given(res, params):
    """Note the parameters the caller gave to the recorded call that made ``res`` (1.9.1's
    fallback line of its gradient operator prints them); returns ``res``."""
    from . import _fallback_log
    if res._node is not None:
        _fallback_log.GIVEN[res._node[0]] = {k: v for k, v in params.items() if v is not None}
    return res


def _unrecorded(fn, *args, **kwargs):
    """``fn`` run with autograd recording off and the fallback log quiet."""
    from .._mode import mode
    from . import _fallback_log
    prev = mode.recording
    mode.recording = False
    _fallback_log.QUIET[0] += 1
    try:
        return fn(*args, **kwargs)
    finally:
        _fallback_log.QUIET[0] -= 1
        mode.recording = prev


def _with_entry(taped, fn, *args, **kwargs):
    """The sparse result 1.9.1 gives while recording: ``fn(*args)`` computed on the
    components (unrecorded), holding the tape entry of ``taped``, the same values computed
    by the recorded dense operator (so gradients flow through it). A dense ``fn`` result
    gives ``taped`` itself."""
    res = _unrecorded(fn, *args, **kwargs)
    if not isinstance(res, BaseSparseNDArray):
        return taped
    res._node = taped._node
    return res


def _keeps_stype(fn, sparse_if=None):
    """Wrap the sparse front end ``fn`` so that, while autograd records, its result keeps
    the storage type 1.9.1's storage inference gives (the same as unrecorded): the recorded
    path tapes a dense operator, whose entry the sparse result takes over. ``sparse_if``
    (called with fn's arguments) tells whether that result can be sparse at all, so that
    a dense one (``dot(csr, weight)`` in training) is not computed twice."""
    import functools

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        res = fn(*args, **kwargs)
        if type(res) is not NDArray or res._node is None or kwargs.get("out") is not None \
                or not any(isinstance(a, BaseSparseNDArray) for a in args):
            return res
        from .._mode import mode
        if not mode.recording or (sparse_if is not None and not sparse_if(*args, **kwargs)):
            return res
        return _with_entry(res, fn, *args, **kwargs)
    return wrapped


def _dot_sparse_if(lhs, rhs, transpose_a=False, transpose_b=False, forward_stype=None,
                   **kwargs):
    ls, rs = lhs.stype, rhs.stype
    if forward_stype not in (None, "default"):
        return True
    return forward_stype is None and (
        (ls == "csr" and transpose_a and (rs == "default" and rhs.ndim == 2 or
                                          rs == "row_sparse" and not transpose_b))
        or (ls == "default" and rs == "csr" and lhs.ndim == 2 and not transpose_a))


def _same_sparse(lhs, rhs, *args, **kwargs):
    return _is_sparse(lhs) and _is_sparse(rhs) and lhs.stype == rhs.stype


def _taped_dense(opname, lhs, rhs):
    """The dense operator ``opname`` on two arrays (sparse ones read densely), recorded by
    autograd like any dense call, as the sparse ``dot`` is while recording."""
    op = get_op(opname)
    return invoke(op, [lhs, rhs], op.parse_attrs({}))


def _is_sparse(x):
    return isinstance(x, BaseSparseNDArray)


def _log_dense_arith(kind, lhs, rhs):
    """The fallback warnings 1.9.1 prints for the dense forms of ``+ - /`` with a sparse
    operand: a scalar minuend/dividend (``_rminus_scalar``/``_rdiv_scalar``), a division by
    an array, or operands of different shapes (``broadcast_*``)."""
    from .ndarray import _log_sparse_arith
    if isinstance(lhs, numeric_types) and isinstance(rhs, NDArray):
        if kind in ("sub", "div"):
            _log_sparse_arith(f"_r{'minus' if kind == 'sub' else 'div'}_scalar", [rhs], lhs)
    elif isinstance(lhs, NDArray) and isinstance(rhs, NDArray) and \
            (kind == "div" or lhs.shape != rhs.shape or not _is_sparse(lhs)):
        _log_sparse_arith(f"broadcast_{kind}", [lhs, rhs])


def _log_mixed(op_name, lhs, rhs):
    """Two sparse operands of different storage types run densely (1.9.1 warns)."""
    if _is_sparse(lhs) and _is_sparse(rhs):
        from ._fallback_log import log_fallback
        log_fallback(op_name, [lhs, rhs])


def add(lhs, rhs):
    """Elementwise sum: sparse + sparse of one stype keeps it; anything else is dense."""
    if isinstance(lhs, NDArray) and isinstance(rhs, NDArray) and _recorded(lhs, rhs):
        res = _taped_dense("broadcast_add", lhs, rhs)
        if not (_is_sparse(lhs) and _is_sparse(rhs) and lhs.stype == rhs.stype):
            _log_dense_arith("add", lhs, rhs)   # as unrecorded
            _log_mixed("elemwise_add", lhs, rhs)
        return res
    if _is_sparse(lhs) and _is_sparse(rhs) and lhs.stype == rhs.stype:
        return _union("add", lhs, rhs, 1)
    for a, b in ((lhs, rhs), (rhs, lhs)):   # as 1.9.1: adding a zero scalar keeps the stype
        if _is_sparse(a) and isinstance(b, numeric_types) and b == 0:
            return _scalar_data(a, "_plus_scalar", b)
    from .ufuncs import add as dense_add
    _log_dense_arith("add", lhs, rhs)
    res = dense_add(lhs, rhs)
    _log_mixed("elemwise_add", lhs, rhs)
    return res


def subtract(lhs, rhs):
    """Elementwise difference: sparse - sparse of one stype keeps it; else dense."""
    if isinstance(lhs, NDArray) and isinstance(rhs, NDArray) and _recorded(lhs, rhs):
        res = _taped_dense("broadcast_sub", lhs, rhs)
        if not (_is_sparse(lhs) and _is_sparse(rhs) and lhs.stype == rhs.stype):
            _log_dense_arith("sub", lhs, rhs)   # as unrecorded
            _log_mixed("elemwise_sub", lhs, rhs)
        return res
    if _is_sparse(lhs) and _is_sparse(rhs) and lhs.stype == rhs.stype:
        return _union("subtract", lhs, rhs, -1)
    if _is_sparse(lhs) and isinstance(rhs, numeric_types) and rhs == 0:   # keeps the stype
        return _scalar_data(lhs, "_minus_scalar", rhs)
    from .ufuncs import subtract as dense_sub
    _log_dense_arith("sub", lhs, rhs)
    res = dense_sub(lhs, rhs)
    _log_mixed("elemwise_sub", lhs, rhs)
    return res


def multiply(lhs, rhs):
    """Elementwise product; a sparse operand's storage type is kept (also with a dense
    or scalar partner)."""
    if isinstance(lhs, NDArray) and isinstance(rhs, NDArray) and _recorded(lhs, rhs):
        return _taped_dense("broadcast_mul", lhs, rhs)
    if _is_sparse(lhs) and _is_sparse(rhs) and lhs.stype == rhs.stype:
        return _sparse_mul(lhs, rhs)
    if isinstance(rhs, numeric_types) and _is_sparse(lhs):
        return _scalar_data(lhs, "_mul_scalar", rhs)
    if isinstance(lhs, numeric_types) and _is_sparse(rhs):
        return _scalar_data(rhs, "_mul_scalar", lhs)
    if _is_sparse(lhs) and isinstance(rhs, NDArray) and not _is_sparse(rhs):
        return _scale_by_dense(lhs, rhs, lambda x, y: (x * y).astype(x.dtype))
    if _is_sparse(rhs) and isinstance(lhs, NDArray) and not _is_sparse(lhs):
        return _scale_by_dense(rhs, lhs, lambda x, y: (y * x).astype(x.dtype))
    from .ufuncs import multiply as dense_mul
    res = dense_mul(lhs, rhs)
    _log_mixed("elemwise_mul", lhs, rhs)
    return res


def divide(lhs, rhs):
    """Elementwise quotient: sparse / scalar keeps the stype, as does csr / dense when the
    dense array broadcasts (1.9.1's broadcast_div); anything else is dense."""
    if isinstance(rhs, numeric_types) and _is_sparse(lhs):
        return _scalar_data(lhs, "_div_scalar", rhs)
    if isinstance(lhs, CSRNDArray) and isinstance(rhs, NDArray) and not _is_sparse(rhs) \
            and not _recorded(lhs, rhs):
        if lhs.shape != rhs.shape:
            return _scale_by_dense(lhs, rhs, lambda x, y: (x / y).astype(x.dtype))
        from .ufuncs import divide as dense_div
        return dense_div(lhs, rhs)   # 1.9.1's elemwise_div: dense, with no fallback line
    from .ufuncs import divide as dense_div
    _log_dense_arith("div", lhs, rhs)
    return dense_div(lhs, rhs)


def _broadcast_scale(name, op):
    def fn(lhs, rhs, **kwargs):
        # as 1.9.1: csr (op) dense keeps the csr's pattern; other mixes compute densely
        if isinstance(lhs, CSRNDArray) and isinstance(rhs, NDArray) and \
                not _is_sparse(rhs) and not kwargs:
            if name == "broadcast_div" and lhs.shape == rhs.shape:   # as 1.9.1
                raise MXNetError("broadcast_div: a csr lhs and a dense rhs of the same shape "
                                 f"{lhs.shape} are not supported; use elemwise_div")
            if _recorded(lhs, rhs):
                res = _taped_dense(name, lhs, rhs)
                from ._fallback_log import AS_OP
                AS_OP[res._node[0]] = name   # (not the elemwise operator of csr * dense)
                return res
            return _scale_by_dense(lhs, rhs, op)
        return _fallback(name, lhs, rhs, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``{name}``; a csr ``lhs`` with a dense ``rhs`` gives a csr result with "
                  "the lhs's stored positions, as in 1.9.1; other mixes are dense.")
    return fn


broadcast_mul = _broadcast_scale("broadcast_mul", lambda x, y: (x * y).astype(x.dtype))
broadcast_div = _broadcast_scale("broadcast_div", lambda x, y: (x / y).astype(x.dtype))


def _make_add_n(name):
    def fn(*args, **kwargs):
        # as 1.9.1: the sum of row_sparse arrays only is row_sparse (the union of their rows)
        if args and all(isinstance(a, RowSparseNDArray) for a in args) and not kwargs:
            res = args[0].copy()
            for a in args[1:]:
                res = add(res, a)
            return res
        return _fallback(name, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``{name}``: the elementwise sum of the arguments; row_sparse only gives "
                  "row_sparse, anything else is dense.")
    return fn


def _square_sum(data, axis=None, keepdims=False, **kwargs):
    """Sum of squares; as in 1.9.1, a row_sparse ``data`` reduced over ``axis=1`` with
    ``keepdims`` gives a row_sparse result with the same rows."""
    ax = axis[0] if isinstance(axis, (tuple, list)) and len(axis) == 1 else axis
    if isinstance(data, BaseSparseNDArray) and _recorded(data):   # taped (read densely)
        op = get_op("_square_sum")
        return invoke(op, [data], op.parse_attrs(dict(kwargs, axis=axis, keepdims=keepdims)))
    if isinstance(data, RowSparseNDArray) and ax == 1 and keepdims and data.ndim == 2 \
            and not kwargs.get("exclude"):
        p = data._parts
        return RowSparseNDArray._wrap(
            _Parts((p.shape[0], 1), (p.data * p.data).sum(axis=1, keepdims=True),
                   p.indices.copy()), data._ctx)
    from . import _internal_fns
    if isinstance(data, BaseSparseNDArray):
        data = _new(data._data, data._ctx)
    return _internal_fns["_square_sum"](data, axis=axis, keepdims=keepdims, **kwargs)


def _make_identity(name):
    def fn(data, **kwargs):
        # as 1.9.1: a sparse input keeps its storage type (a recorded make_loss stays dense,
        # taped like the dense operator)
        if isinstance(data, BaseSparseNDArray) and not (name == "make_loss" and
                                                        _recorded(data)):
            return _unrecorded(data.copy)
        op = get_op(name)
        return invoke(op, [data], op.parse_attrs(kwargs))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``{name}``: the input's values; a sparse input keeps its storage type."
    return fn


make_loss = _make_identity("make_loss")
stop_gradient = _make_identity("stop_gradient")


add_n = _make_add_n("add_n")
ElementWiseSum = _make_add_n("ElementWiseSum")


# --------------------------------------------------------------------------- reductions

def _norm_axis(axis, ndim, fn):
    if axis is None or axis == ():
        return None
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            return "dense"
        axis = axis[0]
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise MXNetError(f"{fn}: axis {axis} is out of range for a {ndim}-D array")
    return axis % ndim


def _reduce(fn, data, axis, keepdims, exclude, mean):
    if not isinstance(data, CSRNDArray) or exclude:
        name = "mean" if mean else "sum"
        given = {k: v for k, v in (("axis", axis), ("keepdims", keepdims or None),
                                   ("exclude", exclude or None)) if v is not None}
        return _fallback(name, data, **given)
    ax = _norm_axis(axis, 2, fn)
    raw = axis[0] if isinstance(axis, (list, tuple)) and len(axis) == 1 else axis
    if ax == "dense" or (keepdims and ax is not None) or \
            (isinstance(raw, (int, np.integer)) and raw < 0):
        # (1.9.1 reduces a csr along axis 0 or 1 natively only, without keepdims)
        given = {"axis": axis, "keepdims": True} if keepdims else {"axis": axis}
        return _fallback("mean" if mean else "sum", data, **given)
    if _recorded(data):   # taped like the dense operator (1.9.1's forward is native)
        if ax is None:
            from ._fallback_log import log_fallback
            log_fallback("mean" if mean else "sum", [data], {"keepdims": keepdims or None},
                         1, ("axis", "keepdims", "exclude"))
        op = get_op("mean" if mean else "sum")
        return _given(invoke(op, [data], op.parse_attrs({"axis": axis, "keepdims": keepdims})),
                      {"axis": axis, "keepdims": keepdims or None})
    xp = _xp(data._ctx)
    p = data._parts
    dt = p.data.dtype
    rows, cols = p.shape
    if ax is None:
        # computed from the stored values, but 1.9.1 runs this one densely (and says so)
        from ._fallback_log import log_fallback
        log_fallback("mean" if mean else "sum", [data], {"keepdims": keepdims or None}, 1,
                     ("axis", "keepdims", "exclude"))
        out = p.data.sum(dtype=dt).reshape(1)
        if mean:
            out = out / (rows * cols)
        if keepdims:
            out = out.reshape(1, 1)
    elif ax == 0:
        out = xp.zeros(cols, dt)
        _scatter_add(xp, out, p.indices, p.data)
        if mean:
            out = out / rows
        if keepdims:
            out = out.reshape(1, cols)
    else:
        out = _segment_sum(xp, p.data, p.indptr, rows)
        if mean:
            out = out / cols
        if keepdims:
            out = out.reshape(rows, 1)
    return _new(out.astype(dt, copy=False), data._ctx)


def sum(data, axis=None, keepdims=False, exclude=False, **kwargs):  # noqa: A001  (1.9.1's name)
    """Sum of the elements (over ``axis``); the result is dense."""
    return _reduce("sum", data, axis, keepdims, exclude, False)


def mean(data, axis=None, keepdims=False, exclude=False, **kwargs):
    """Mean of the elements (over ``axis``); the result is dense."""
    return _reduce("mean", data, axis, keepdims, exclude, True)


# --------------------------------------------------------------------------- slicing, concat

def slice(data, begin, end, step=(), **kwargs):  # noqa: A001  (1.9.1's name)
    """A csr sub-array ``data[begin[0]:end[0], begin[1]:end[1]]`` (csr stays csr; other
    storage types compute densely)."""
    if not isinstance(data, CSRNDArray) or any(s not in (None, 1) for s in (step or ())):
        # (the frontend passes ``step`` only when given)
        return _fallback("slice", data, begin=begin, end=end, **({"step": step} if step else {}))
    if _recorded(data):   # taped like the dense operator (the csr result: _keeps_stype)
        op = get_op("slice")
        return _given(invoke(op, [data], op.parse_attrs({"begin": begin, "end": end,
                                                          "step": step})),
                      {"begin": begin, "end": end, "step": step or None})
    rows, cols = data.shape
    b = list(begin) + [None] * (2 - len(begin))
    e = list(end) + [None] * (2 - len(end))
    r0, r1, _ = py_slice(b[0], e[0]).indices(rows)
    c0, c1, _ = py_slice(b[1], e[1]).indices(cols)
    r1, c1 = max(r0, r1), max(c0, c1)
    sub = _csr_rows(data, r0, r1)
    if (c0, c1) == (0, cols):
        return sub
    xp = _xp(data._ctx)
    p = sub._parts
    keep = (p.indices >= c0) & (p.indices < c1)
    row_of = _row_of(xp, p.indptr, p.shape[0])[keep]
    counts = xp.bincount(row_of, minlength=p.shape[0]) if row_of.size else \
        xp.zeros(p.shape[0], _IDX)
    indptr = xp.concatenate([xp.zeros(1, _IDX), xp.cumsum(counts).astype(_IDX)])
    return CSRNDArray._wrap(_Parts((r1 - r0, c1 - c0), p.data[keep], p.indices[keep] - c0,
                                   indptr), data._ctx)


def concat(*data, dim=1, **kwargs):
    """Join arrays along ``dim``; csr arrays joined along axis 0 stay csr."""
    if data and dim == 0 and all(isinstance(d, CSRNDArray) for d in data):
        xp = _xp(data[0]._ctx)
        cols = {d.shape[1] for d in data}
        if len(cols) != 1:
            raise MXNetError(f"concat: csr arrays need one column count, got "
                             f"{[d.shape for d in data]}")
        dtypes = [np.dtype(d.dtype).name for d in data]
        if len(set(dtypes)) != 1:   # as 1.9.1's type inference
            raise MXNetError(f"concat: the inputs must share one dtype, got {dtypes}")
        parts = [d._parts for d in data]
        offsets = np.cumsum([0] + [p.data.size for p in parts])
        indptr = xp.concatenate([xp.zeros(1, _IDX)] + [p.indptr[1:] + int(o)
                                                        for p, o in zip(parts, offsets)])
        shape = (int(np.sum([p.shape[0] for p in parts])), cols.pop())
        return CSRNDArray._wrap(_Parts(shape, xp.concatenate([p.data for p in parts]),
                                       xp.concatenate([p.indices for p in parts]),
                                       indptr.astype(_IDX)), data[0]._ctx)
    return _fallback("concat", *data, dim=dim)


# --------------------------------------------------------------------------- unary

# Functions with f(0) == 0: on a sparse array they act on the stored values only.
ZERO_PRESERVING = ("abs", "sign", "square", "sqrt", "cbrt", "relu", "negative", "round",
                   "rint", "ceil", "floor", "trunc", "fix", "sin", "tan", "arcsin",
                   "arctan", "sinh", "tanh", "arcsinh", "arctanh", "expm1", "log1p",
                   "degrees", "radians", "clip")


def _unary(name, data, **attrs):
    if not isinstance(data, BaseSparseNDArray):
        return _fallback(name, data, **attrs)
    if _recorded(data):   # taped like the dense operator (the stype: _keeps_stype)
        op = get_op(name)
        return _given(invoke(op, [data], op.parse_attrs(attrs)), attrs)
    if name == "clip":
        lo, hi = float(attrs.get("a_min", 0)), float(attrs.get("a_max", 0))
        if not lo <= 0 <= hi:
            raise MXNetError(f"clip: on a {data.stype} array a_min <= 0 <= a_max is needed "
                             f"(zeros must stay zero), got a_min={lo}, a_max={hi}")
    op = get_op(name)
    vals = invoke(op, [_new(data._parts.data, data._ctx)], op.parse_attrs(attrs))
    return _map_data(data, lambda d: vals._data)


def _make_unary(name):
    def fn(data, *args, **kwargs):
        if name == "clip" and args:
            kwargs.update(zip(("a_min", "a_max"), args))
        return _unary(name, data, **kwargs)
    fn.__name__ = name
    fn.__doc__ = (f"Elementwise ``{name}``; a sparse input keeps its storage type "
                  "(``f(0) == 0``).")
    return fn


for _n in ZERO_PRESERVING:
    globals()[_n] = _make_unary(_n)
__all__ += list(ZERO_PRESERVING)


# while recording, these keep the storage types of their unrecorded results (as 1.9.1)
dot = _keeps_stype(dot, _dot_sparse_if)
add = _keeps_stype(add, _same_sparse)
subtract = _keeps_stype(subtract, _same_sparse)
multiply = _keeps_stype(multiply)
divide = _keeps_stype(divide, lambda lhs, rhs: isinstance(rhs, numeric_types))
broadcast_mul = _keeps_stype(broadcast_mul, lambda lhs, rhs, **kw: isinstance(lhs, CSRNDArray))
broadcast_div = _keeps_stype(broadcast_div, lambda lhs, rhs, **kw: isinstance(lhs, CSRNDArray))
add_n = _keeps_stype(add_n, lambda *a, **kw: all(isinstance(x, RowSparseNDArray) for x in a))
ElementWiseSum = _keeps_stype(ElementWiseSum,
                              lambda *a, **kw: all(isinstance(x, RowSparseNDArray) for x in a))
_square_sum = _keeps_stype(_square_sum, lambda data, axis=None, keepdims=False, **kw:
                           isinstance(data, RowSparseNDArray) and keepdims)
slice = _keeps_stype(slice, lambda data, *a, **kw: isinstance(data, CSRNDArray))  # noqa: A001
_unary = _keeps_stype(_unary)
compare_scalar = _keeps_stype(compare_scalar, lambda data, opname, scalar:
                              not _SCALAR_COMPARE[opname](0, scalar))


# --------------------------------------------------------------------------- mx.nd hooks

# 1.9.1's mx.nd.sparse names that act like the dense operator here (dense result)
_DENSE_ALIASES = ("Embedding", "FullyConnected", "LinearRegressionOutput",
                  "LogisticRegressionOutput", "MAERegressionOutput",
                  "adam_update", "arccos", "arccosh", "broadcast_add",
                  "broadcast_minus", "broadcast_plus", "broadcast_sub", "cos",
                  "cosh", "elemwise_div", "exp", "ftrl_update", "gamma", "gammaln", "log",
                  "log10", "log2", "norm", "rsqrt", "sgd_mom_update",
                  "sgd_update", "sigmoid", "where")


def _with_out(sparse_fn):
    """``sparse_fn`` taking ``out=``: the result is copied into ``out``, which is returned."""
    import functools

    @functools.wraps(sparse_fn)
    def fn(*args, out=None, **kwargs):
        if sparse_fn.__name__ in ZERO_PRESERVING and args and _is_sparse(args[0]) and \
                isinstance(out, NDArray) and not _is_sparse(out) and not _recorded(args[0]):
            # 1.9.1 infers a dense output here, so the operator itself runs densely
            if sparse_fn.__name__ == "clip":
                kwargs.update(zip(("a_min", "a_max"), args[1:]))
                args = args[:1]
            return _fallback(sparse_fn.__name__, *args, out=out, **kwargs)
        res = sparse_fn(*args, **kwargs)
        if out is None:
            return res
        _check_out_dtype(sparse_fn.__name__, res, out)
        res.copyto(out)
        return out
    return fn


def _check_out_dtype(name, res, out):
    """1.9.1's type inference: ``out=`` must have the result's dtype (copyto would cast)."""
    if isinstance(out, NDArray) and np.dtype(out.dtype) != np.dtype(res.dtype):
        raise MXNetError(f"{name}: Type inconsistent: the out= array has dtype "
                         f"{np.dtype(out.dtype).name}, expected {np.dtype(res.dtype).name}")


def _elemwise(fn):
    def f(lhs, rhs, out=None, **kwargs):
        res = fn(lhs, rhs)
        if out is not None:
            _check_out_dtype(getattr(fn, "__name__", "elemwise"), res, out)
            res.copyto(out)
            return out
        return res
    return f


# update ops whose row_sparse-gradient form is lazy in 1.9.1 -> number of state inputs
_LAZY_UPDATES = {"sgd_update": 0, "sgd_mom_update": 1, "adam_update": 2, "ftrl_update": 2}
# of these, the ones with a ``lazy_update`` parameter (ftrl_update is lazy on row_sparse
# weights only)
_LAZY_PARAM = ("sgd_update", "sgd_mom_update", "adam_update")


_LAZY_LOGGED = []


def _log_lazy_update():
    """The note 1.9.1 prints once per process when a lazy row_sparse update runs."""
    if not _LAZY_LOGGED:
        _LAZY_LOGGED.append(True)
        from ..base import native_log
        native_log("../src/operator/././../common/utils.h:472",
                   "Optimizer with lazy_update = True detected. Be aware that lazy update with "
                   "row_sparse gradient is different from standard update, and may lead to "
                   "different empirical results. See https://mxnet.apache.org/api/python/"
                   "optimization/optimization.html for more details.")


def _nonzero_rows(arr):
    """The ids of the rows of a dense NDArray that hold a non-zero."""
    d = arr._data
    flat = d.reshape(d.shape[0], -1)
    return _xp(arr._ctx).nonzero((flat != 0).any(axis=1))[0]


def _adam_std_update(weight, grad, mean, var, out=None, lr=None, beta1=0.9, beta2=0.999,
                     epsilon=1e-8, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0,
                     lazy_update=True):
    """adam_update of a dense weight and states by a row_sparse gradient with
    lazy_update=False (1.9.1's AdamStd kernel): every row is updated, the rows the gradient
    lacks with ``g = wd * weight``. Its var step squares ``g`` first,
    ``beta2 * var + (1 - beta2) * (g * g)``, where the dense kernel multiplies left to right;
    the two differ in the last bit for about one value in a thousand."""
    if lr is None:
        raise MXNetError("adam_update: Required parameter lr of float is not presented")
    if not weight.shape == grad.shape == mean.shape == var.shape:
        raise MXNetError(f"adam_update: shapes differ: weight {weight.shape}, grad {grad.shape}, "
                         f"mean {mean.shape}, var {var.shape}")
    xp = _xp(weight._ctx)
    for a in (weight, mean, var):
        a.wait_to_read()
    dt = weight._data.dtype

    def c(v):   # a float parameter as the kernel sees it (a C float in the array dtype)
        return dt.type(np.float32(v))
    w = weight._data
    g = grad._data.astype(dt, copy=False) * c(rescale_grad) + w * c(wd)
    if clip_gradient >= 0:
        g = xp.clip(g, -c(clip_gradient), c(clip_gradient))
    one = dt.type(1)
    m = c(beta1) * mean._data + (one - c(beta1)) * g
    v = c(beta2) * var._data + (one - c(beta2)) * (g * g)
    new = w - c(lr) * m / (xp.sqrt(v) + c(epsilon))
    mean._data[...] = m
    var._data[...] = v
    target = out if out is not None else weight.copy()
    target.wait_to_read()
    target._data[...] = new
    return target


def _make_lazy_update(name, nstates):
    def fn(weight, grad, *rest, out=None, _rsp_weight=False, **kwargs):
        if isinstance(grad, RowSparseNDArray) and not kwargs.get("lazy_update", True) and \
                not any(isinstance(a, BaseSparseNDArray) for a in (weight,) + rest):
            # 1.9.1's standard update reads a row_sparse gradient natively (no fallback)
            from . import _public
            grad._parts   # noqa: B018 - waits for pending writes (a KVStore pull ...)
            if name == "adam_update" and len(rest) == 2:
                return _adam_std_update(weight, grad, *rest, out=out, **kwargs)
            return _public[name](weight, _new(grad._data, grad._ctx), *rest, out=out,
                                 **kwargs)
        lazy = kwargs.get("lazy_update", True)
        if not isinstance(grad, RowSparseNDArray) or \
                (name not in _LAZY_PARAM and not _rsp_weight and
                 not isinstance(weight, RowSparseNDArray)) or \
                (not lazy and not isinstance(weight, RowSparseNDArray)) or \
                (isinstance(weight, BaseSparseNDArray) and weight.stype != "row_sparse"):
            sp_states = [a for a in rest[:nstates] if isinstance(a, RowSparseNDArray)]
            if not sp_states:
                return _fallback(name, weight, grad, *rest, out=out, **kwargs)
            # row_sparse states are updated on their dense forms and stored back (their
            # non-zero rows), as 1.9.1's fallback writes back its mutable inputs
            dense = {id(a): _new(a._data, a._ctx) for a in sp_states}
            res = _fallback(name, weight, grad, *[dense.get(id(a), a) for a in rest], out=out,
                            _logged_as=(weight, grad) + tuple(rest), **kwargs)
            for a in sp_states:
                d = dense[id(a)]
                a._store_from(RowSparseNDArray._from_rows(d, _nonzero_rows(d)))
            return res
        states, args = rest[:nstates], rest[nstates:]
        held = [a for a in (weight, out) + tuple(states) if isinstance(a, BaseSparseNDArray)]
        if lazy and name in _LAZY_PARAM and (nstates or float(kwargs.get("wd", 0.0)) != 0.0):
            # 1.9.1 notes once that lazy and standard updates differ (plain sgd: with wd)
            _log_lazy_update()
        if held:   # a row_sparse weight (and states), as a symbolic Module binds them: the
            # same lazy update on their dense forms, stored back in their storage type (1.9.1
            # runs a standard update for dense states; its optimizers make them row_sparse)
            std = isinstance(weight, BaseSparseNDArray) and \
                any(not isinstance(st, BaseSparseNDArray) for st in states)
            if isinstance(weight, BaseSparseNDArray):
                n, k = weight.shape[0], int(weight._parts.indices.shape[0])
                if k != n:   # as 1.9.1's kernels check
                    kind = {"sgd_update": "SGDUpdate", "sgd_mom_update": "SGDMomUpdate"}.get(
                        name, "AdamStdUpdate" if std else "AdamUpdate")
                    raise MXNetError(f"{name}: {kind} for RowSparse weights is only implemented "
                                     "for RowSparse weights with all rows containing non-zeros. "
                                     f"Expects weights.data.shape[0] ({k}) == weights.shape[0] "
                                     f"({n}).")
            dense = {id(a): _new(a._data, a._ctx) for a in held}
            sub = [dense.get(id(a), a) for a in (weight, grad) + tuple(rest)]
            dout = dense.get(id(out), out)
            # as 1.9.1's kernels: a row_sparse weight with dense states (or lazy_update=False)
            # gets the standard update, natively (no fallback)
            res = fn(*sub, out=dout, **(dict(kwargs, lazy_update=lazy and not std)
                                        if name in _LAZY_PARAM else
                                        dict(kwargs, _rsp_weight=not std)))

            def store(dst, val):   # a full row_sparse array stays full (1.9.1's storage);
                # the row_sparse states of a (full) row_sparse weight become full, as 1.9.1's
                # kernels fill them with zeros before their first update
                full = isinstance(dst, RowSparseNDArray) and \
                    (int(dst._parts.indices.shape[0]) == dst.shape[0] or
                     (dst is not weight and isinstance(weight, RowSparseNDArray)))
                if full:
                    xp = _xp(dst._ctx)
                    dst._store_from(RowSparseNDArray._from_rows(
                        val, xp.arange(dst.shape[0], dtype=_IDX)))
                else:
                    dst._assign(val._data)
            for a in held:
                if a is not out:
                    store(a, dense[id(a)])
            if out is None:
                return RowSparseNDArray._from_rows(res, _nonzero_rows(res))
            if isinstance(out, BaseSparseNDArray):
                store(out, res)
            return out
        if grad.shape != weight.shape:
            raise MXNetError(f"{name}: grad shape {grad.shape} differs from weight shape "
                             f"{weight.shape}")
        from . import _public
        rows = grad._parts.indices
        for a in (weight,) + tuple(states):
            a.wait_to_read()
        ctx = weight._ctx
        s_rows = [_new(st._data[rows], ctx) for st in states]
        new_rows = _public[name](_new(weight._data[rows], ctx), _new(grad._parts.data, ctx),
                                 *s_rows, *args, **kwargs)
        for st, sr in zip(states, s_rows):  # the op updated the gathered state rows in place
            st._data[rows] = sr._data
        target = out if out is not None else weight.copy()
        target.wait_to_read()
        target._data[rows] = new_rows._data
        return target
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``{name}``; with a row_sparse ``grad`` and ``lazy_update=True`` only the "
                  "rows the gradient stores (and their optimizer states) change, as in 1.9.1.")
    return fn


def adagrad_update(weight, grad, history, lr, epsilon=1e-7, wd=0.0, rescale_grad=1.0,
                   clip_gradient=-1.0, out=None, **kwargs):
    """AdaGrad on the rows of a row_sparse ``grad`` (1.9.1's ``_sparse_adagrad_update``):
    ``g = clip(rescale_grad * grad)``, ``history[rows] += g**2``,
    ``weight[rows] -= lr * g / sqrt(history[rows] + epsilon)``; other rows are untouched.
    As in 1.9.1, ``grad`` must be row_sparse and ``wd`` must be 0."""
    held = [a for a in (weight, history) if isinstance(a, RowSparseNDArray)]
    if isinstance(grad, RowSparseNDArray) and held and (out is None or out is weight) and \
            not any(isinstance(a, CSRNDArray) for a in (weight, history)):
        # as 1.9.1 (its optimizer gives a row_sparse weight a row_sparse history): the same
        # update on the dense forms; an array stored back keeps its old rows and the grad's
        dense = {id(a): _new(a._data, a._ctx) for a in held}
        dw = dense.get(id(weight), weight)
        res = adagrad_update(dw, grad, dense.get(id(history), history), lr, epsilon, wd,
                             rescale_grad, clip_gradient, out=dw if out is not None else None)
        xp = _xp(grad._ctx)
        w_full = isinstance(weight, RowSparseNDArray) and \
            int(weight._parts.indices.shape[0]) == weight.shape[0]
        for a in held:
            if a is weight and out is None:
                continue
            if a is history and w_full:   # as 1.9.1: a full weight's history is full
                rows = xp.arange(a.shape[0], dtype=_IDX)
            else:
                rows = xp.union1d(a._parts.indices, grad._parts.indices).astype(_IDX)
            a._store_from(RowSparseNDArray._from_rows(dense[id(a)], rows))
        if out is not None:
            return out
        if isinstance(weight, RowSparseNDArray):
            rows = xp.union1d(weight._parts.indices, grad._parts.indices).astype(_IDX)
            return RowSparseNDArray._from_rows(res, rows)
        return res
    if not isinstance(grad, RowSparseNDArray) or isinstance(weight, BaseSparseNDArray) \
            or isinstance(history, BaseSparseNDArray):
        raise MXNetError(f"adagrad_update: needs a dense weight and history and a row_sparse "
                         f"grad, got storage types {weight.stype}, {grad.stype}, "
                         f"{history.stype}")
    if wd != 0:
        raise MXNetError(f"adagrad_update: wd={wd} is not supported with a row_sparse grad "
                         "(1.9.1 has no such kernel either); use wd=0")
    if not weight.shape == grad.shape == history.shape:
        raise MXNetError(f"adagrad_update: shapes differ: weight {weight.shape}, grad "
                         f"{grad.shape}, history {history.shape}")
    xp = _xp(weight._ctx)
    p = grad._parts
    rows = p.indices
    weight.wait_to_read()
    history.wait_to_read()
    dt = weight._data.dtype
    g = p.data.astype(dt) * dt.type(rescale_grad)
    if clip_gradient > 0:
        g = xp.clip(g, -dt.type(clip_gradient), dt.type(clip_gradient))
    h = history._data[rows] + g * g
    history._data[rows] = h
    # lr times the quotient (1.9.1's order: (lr * g) / ... differs in the last bit)
    new_rows = weight._data[rows] - dt.type(lr) * (g / xp.sqrt(h + dt.type(epsilon)))
    target = out if out is not None else weight.copy()
    target.wait_to_read()
    target._data[rows] = new_rows
    return target


def _install(nd_module, public, sp_mod):
    """Fill mx.nd.sparse (``sp_mod``) with 1.9.1's names and route ``mx.nd`` calls with
    sparse arguments to the functions here (run when mx.nd.sparse is first imported: no
    sparse array exists before)."""

    from .register import SPARSE_FRONTS
    names = {"adagrad_update": adagrad_update,
             "elemwise_add": _elemwise(add), "elemwise_sub": _elemwise(subtract),
             "elemwise_mul": _elemwise(multiply), "NDArray": NDArray, "Context": Context,
             "add_n": _with_out(add_n), "ElementWiseSum": _with_out(ElementWiseSum),
             "broadcast_mul": _with_out(broadcast_mul),
             "broadcast_div": _with_out(broadcast_div),
             "make_loss": _with_out(make_loss), "stop_gradient": _with_out(stop_gradient),
             "current_context": current_context}
    for name in _DENSE_ALIASES:
        if name in public:
            names[name] = public[name]
    for name, nstates in _LAZY_UPDATES.items():
        if name in public:
            names[name] = SPARSE_FRONTS[name] = _make_lazy_update(name, nstates)
    for name in public:   # other optimizer updates (mp_sgd_mom_update ...) on sparse arrays:
        # the dense update, with row_sparse states given their new values back
        if "_update" in name and name not in SPARSE_FRONTS and name not in names:
            SPARSE_FRONTS[name] = (lambda *args, _n=name, **kw: _fallback(_n, *args, **kw))
    for name, fn in names.items():
        setattr(sp_mod, name, fn)
        if name[0].islower() and name not in sp_mod.__all__:
            sp_mod.__all__.append(name)
    fronts = {"dot": dot, "zeros_like": zeros_like, "elemwise_add": add,
              "elemwise_sub": subtract, "elemwise_mul": multiply, "sum": sum, "mean": mean,
              "slice": slice, "concat": concat, "add_n": add_n, "ElementWiseSum": ElementWiseSum,
              "broadcast_mul": broadcast_mul, "broadcast_div": broadcast_div,
              "_square_sum": _square_sum, "make_loss": make_loss,
              "stop_gradient": stop_gradient, "BlockGrad": stop_gradient}
    for name in ZERO_PRESERVING:
        fronts[name] = globals()[name]
    for name in _SCALAR_COMPARE:
        fronts[name] = (lambda data, scalar=1.0, _n=name, **kw:
                        compare_scalar(data, _n, scalar))
    for name, sfn in fronts.items():
        SPARSE_FRONTS[name] = _with_out(sfn)
