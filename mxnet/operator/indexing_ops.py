"""Indexing operators: take, batch_take, pick, one_hot, where, clip, gather_nd, scatter_nd,
_scatter_set_nd and the Sequence* family (SequenceMask, SequenceLast, SequenceReverse).

Index inputs may have any dtype. As in 1.9.1, a floating index is converted the way a C
cast does it (truncation toward zero) after the bounds rules of each operator; index
inputs never receive a gradient. Gradients that scatter into the data (take, pick,
batch_take, gather_nd, SequenceLast) use dedicated ``_backward_*`` operators; the others
are compositions of registered operators.

Where 1.9.1 reads or writes out of bounds (undefined behaviour: SequenceLast/Reverse with
lengths outside [1, T], scatter_nd with negative indices) this module picks a defined
behaviour, documented at each operator.
"""
from __future__ import annotations

import math

import numpy as np

from ..base import MXNetError, dtype_np, native_log
from ._common import shape_err
from .registry import Param, register

__all__ = ["IndexOutOfBounds"]


class IndexOutOfBounds(MXNetError, IndexError):
    """An index outside the array; 1.9.1 raises a plain IndexError for gather_nd."""


# ---------------------------------------------------------------------------------------------
# helpers

def _c_cast(value, dtype):
    """A Python float converted to ``dtype`` as C++ does (integers truncate, then wrap)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        if not math.isfinite(value):
            return np.array(0, dtype=dtype)[()]
        return np.array(int(value)).astype(dtype)[()]
    if dtype.kind == "b":
        return np.bool_(value != 0)
    return np.array(value).astype(dtype)[()]


def _f32(value):
    """A float parameter as 1.9.1 stores it (single precision)."""
    return float(np.float32(value))


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _as_int(xp, idx):
    """Indices as int64, truncating floats toward zero."""
    return idx.astype(np.int64)


def _mode_index(xp, opname, idx, n, mode):
    """Apply take/pick's ``mode`` to raw indices for an axis of length ``n``."""
    if mode == "raise":
        bad = (idx < 0) | (idx > n - 1)
        if bool(xp.any(bad)):
            # 1.9.1 fails a CHECK here: a plain MXNetError, not an IndexError as for gather_nd
            raise MXNetError(f"{opname}: indices out of bounds for an axis of size {n} "
                             f"(mode='raise'); got {idx.min().item()}..{idx.max().item()}")
        return _as_int(xp, idx)
    if n == 0:
        if idx.size:
            raise MXNetError(f"{opname}: cannot index an axis of size 0")
        return _as_int(xp, idx)
    i = _as_int(xp, idx)
    if mode == "wrap":
        return xp.mod(i, n)
    return xp.clip(i, 0, n - 1)


def _scatter_add(xp, out, index, values):
    """out[index] += values, accumulating repeated positions."""
    if xp is np:
        np.add.at(out, index, values)
    else:
        import cupyx
        cupyx.scatter_add(out, index, values)


def _first_type(attrs, in_types, out_types):
    """Output dtype = first input's dtype; other inputs are free (index arrays)."""
    t = in_types[0] if in_types[0] is not None else out_types[0]
    return [t] + list(in_types[1:]), [t], []


_MODE_PARAM = Param("mode", "str", "clip", choices=("clip", "raise", "wrap"))


# ---------------------------------------------------------------------------------------------
# take

def _take_axis(opname, axis, ndim):
    if not -ndim <= axis < ndim:
        raise MXNetError(f"{opname}: axis {axis} is out of range for an input of rank {ndim}; "
                         f"expected an axis in [{-ndim}, {ndim - 1}]")
    return axis % ndim


def _take(rc, attrs, a, indices):
    axis = _take_axis("take", attrs["axis"], a.ndim)
    idx = _mode_index(rc.xp, "take", indices, a.shape[axis], attrs["mode"])
    return rc.xp.take(a, idx, axis=axis)


def _take_shape(attrs, ins, outs):
    a, i = ins
    if a is None or i is None:
        return ins, outs, []
    axis = _take_axis("take", attrs["axis"], len(a))
    return ins, [tuple(a[:axis]) + tuple(i) + tuple(a[axis + 1:])], []


def _take_grad(F, attrs, ins, outs, og):
    return [F._backward_take(og[0], ins[1], ins[0], axis=attrs["axis"], mode=attrs["mode"]), None]


register("take", _take, inputs=("a", "indices"),
         params=(Param("axis", "int", 0), _MODE_PARAM),
         infer_shape=_take_shape, infer_type=_first_type, gradient=_take_grad,
         doc="Gather slices of ``a`` along ``axis`` at the positions given by ``indices``.")


def _backward_take(rc, attrs, ograd, indices, data):
    xp = rc.xp
    axis = _take_axis("take", attrs["axis"], data.ndim)
    n = data.shape[axis]
    mode = "clip" if attrs["mode"] == "raise" else attrs["mode"]
    idx = _mode_index(xp, "take", indices, n, mode).reshape(-1)
    pre, post = _prod(data.shape[:axis]), _prod(data.shape[axis + 1:])
    out = xp.zeros((pre, n, post), dtype=data.dtype)
    _scatter_add(xp, out, (slice(None), idx), ograd.reshape(pre, idx.size, post).astype(data.dtype))
    return out.reshape(data.shape)


register("_backward_take", _backward_take, inputs=("ograd", "indices", "data"),
         params=(Param("axis", "int", 0), _MODE_PARAM), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[2]], []),
         infer_type=lambda a, i, o: (i, [i[2]], []),
         gradient=lambda F, a, ins, outs, og: [F.take(og[0], ins[1], axis=a["axis"], mode=a["mode"]),
                                               None, None])


# ---------------------------------------------------------------------------------------------
# batch_take (1.9.1: deprecated in favour of pick; indices must be int32)

def _batch_take_check(a_shape, i_shape):
    if len(a_shape) < 2:
        raise MXNetError(f"batch_take: the data array must have at least 2 dimensions; "
                         f"got shape {tuple(a_shape)}")
    rows = _prod(a_shape) // a_shape[-1] if a_shape[-1] else 0
    if _prod(i_shape) != rows:
        raise MXNetError(f"batch_take: indices of shape {tuple(i_shape)} must have one entry per "
                         f"row of the data {tuple(a_shape)} (size {rows})")
    return rows


def _batch_take(rc, attrs, a, indices):
    xp = rc.xp
    # 1.9.1 logs this on every call (from its type inference, before any dtype check)
    native_log("../src/operator/tensor/./indexing_op.h:1090",
               "batch_take is deprecated. Please use pick instead.")
    if indices.dtype != np.int32:
        raise shape_err("batch_take", "indices must have dtype int32", a, indices)
    rows = _batch_take_check(a.shape, indices.shape)
    k = a.shape[-1]
    idx = xp.clip(indices.reshape(-1).astype(np.int64), 0, k - 1)
    out = a.reshape(rows, k)[xp.arange(rows), idx]
    return out.reshape(indices.shape)


def _batch_take_shape(attrs, ins, outs):
    a, i = ins
    if a is None or i is None:
        return ins, outs, []
    _batch_take_check(a, i)
    return ins, [tuple(i)], []


register("batch_take", _batch_take, inputs=("a", "indices"),
         infer_shape=_batch_take_shape,
         infer_type=lambda a, i, o: ([i[0], np.dtype(np.int32)], [i[0]], []),
         gradient=lambda F, a, ins, outs, og: [F._backward_batch_take(og[0], ins[1], ins[0]), None],
         doc="For each row of ``a`` (flattened to 2-D), the element at column ``indices[i]``.")


def _backward_batch_take(rc, attrs, ograd, indices, data):
    xp = rc.xp
    k = data.shape[-1]
    rows = _prod(data.shape) // k if k else 0
    idx = xp.clip(indices.reshape(-1).astype(np.int64), 0, k - 1)
    out = xp.zeros((rows, k), dtype=data.dtype)
    out[xp.arange(rows), idx] = ograd.reshape(-1)
    return out.reshape(data.shape)


register("_backward_batch_take", _backward_batch_take, inputs=("ograd", "indices", "data"),
         nd_hidden=True, infer_shape=lambda a, i, o: (i, [i[2]], []),
         infer_type=lambda a, i, o: (i, [i[2]], []),
         gradient=lambda F, a, ins, outs, og: [F.batch_take(og[0], ins[1]), None, None])


# ---------------------------------------------------------------------------------------------
# pick

def _pick_shapes(attrs, dshape, ishape=None):
    """(axis, keepdims-shape, dropped-shape); checks the index shape when given."""
    axis = attrs["axis"]
    if axis is None:
        raise MXNetError("pick: axis=None is not supported; pass the axis to pick along")
    nd = len(dshape)
    if not -nd <= axis < nd:
        raise MXNetError(f"pick: axis {axis} is out of range for data of shape {tuple(dshape)}")
    axis %= nd
    keep = tuple(dshape[:axis]) + (1,) + tuple(dshape[axis + 1:])
    drop = tuple(dshape[:axis]) + tuple(dshape[axis + 1:])
    if ishape is not None:
        ishape = tuple(ishape)
        expected = keep if len(ishape) == nd else drop
        if ishape != expected:
            raise MXNetError(f"pick: index shape {ishape} does not match data shape {tuple(dshape)} "
                             f"along axis {axis}; expected {drop} or {keep}")
    return axis, keep, drop


def _pick(rc, attrs, data, index):
    xp = rc.xp
    axis, keep, drop = _pick_shapes(attrs, data.shape, index.shape)
    idx = _mode_index(xp, "pick", index, data.shape[axis], attrs["mode"]).reshape(keep)
    out = xp.take_along_axis(data, idx, axis=axis)
    return out if attrs["keepdims"] else out.reshape(drop or (1,))


def _pick_shape(attrs, ins, outs):
    d, i = ins
    if d is None:
        return ins, outs, []
    axis, keep, drop = _pick_shapes(attrs, d, i)
    return [d, i if i is not None else (drop or keep)], [keep if attrs["keepdims"] else (drop or (1,))], []


_PICK_PARAMS = (Param("axis", "int", -1, optional=True), Param("keepdims", "bool", False),
                Param("mode", "str", "clip", choices=("clip", "wrap")))

register("pick", _pick, inputs=("data", "index"), params=_PICK_PARAMS,
         infer_shape=_pick_shape, infer_type=_first_type,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_pick(og[0], ins[1], ins[0], axis=a["axis"], keepdims=a["keepdims"],
                              mode=a["mode"]), None],
         doc="Pick one element per position along ``axis``, at the position given by ``index``.")


def _backward_pick(rc, attrs, ograd, index, data, out=None):
    xp = rc.xp
    axis, keep, _ = _pick_shapes(attrs, data.shape)
    n = data.shape[axis]
    pre, post = _prod(data.shape[:axis]), _prod(data.shape[axis + 1:])
    idx = _mode_index(xp, "pick", index, n, attrs["mode"]).reshape(pre, post)
    o = out[0] if out else None
    if o is not None and o.shape == data.shape and o.dtype == data.dtype and \
            o.flags.c_contiguous:
        o.fill(0)
        o.reshape(pre, n, post)[xp.arange(pre)[:, None], idx, xp.arange(post)[None, :]] = \
            ograd.reshape(pre, post)
        return o
    out = xp.zeros((pre, n, post), dtype=data.dtype)
    out[xp.arange(pre)[:, None], idx, xp.arange(post)[None, :]] = ograd.reshape(pre, post)
    return out.reshape(data.shape)


register("_backward_pick", _backward_pick, inputs=("ograd", "index", "data"), params=_PICK_PARAMS,
         accepts_out=True,
         nd_hidden=True, infer_shape=lambda a, i, o: (i, [i[2]], []),
         infer_type=lambda a, i, o: (i, [i[2]], []),
         gradient=lambda F, a, ins, outs, og: [
             F.pick(og[0], ins[1], axis=a["axis"], keepdims=a["keepdims"], mode=a["mode"]),
             None, None])


# ---------------------------------------------------------------------------------------------
# one_hot

def _one_hot(rc, attrs, indices):
    xp = rc.xp
    depth = attrs["depth"]
    if depth < 0:
        raise MXNetError(f"one_hot: depth must be a non-negative integer, got {depth}")
    dt = dtype_np(attrs["dtype"])
    hit = _as_int(xp, indices)[..., None] == xp.arange(depth)
    out = xp.full(hit.shape, _c_cast(attrs["off_value"], dt), dtype=dt)
    out[hit] = _c_cast(attrs["on_value"], dt)
    return out


register("one_hot", _one_hot, inputs=("indices",),
         params=(Param("depth", "int"), Param("on_value", "float", 1.0),
                 Param("off_value", "float", 0.0),
                 Param("dtype", "dtype", "float32", choices=("bfloat16", "float16", "float32", "float64",
                                                             "int32", "int64", "int8", "uint8"))),
         # 1.9.1 waits for the complete indices shape
         infer_shape=lambda a, i, o: (i, [None if i[0] is None or None in i[0]
                                          else tuple(i[0]) + (a["depth"],)], []),
         infer_type=lambda a, i, o: (i, [dtype_np(a["dtype"])], []),
         gradient=lambda F, a, ins, outs, og: [None],
         doc="One-hot rows of length ``depth``; indices outside [0, depth) give all ``off_value``.")


# ---------------------------------------------------------------------------------------------
# where

def _where_cond(opname, cshape, xshape):
    """How the condition lines up with x: 'same' or 'rows'; raises otherwise."""
    cshape, xshape = tuple(cshape), tuple(xshape)
    if cshape == xshape:
        return "same"
    if len(cshape) == 1 and len(xshape) >= 1 and cshape[0] == xshape[0]:
        return "rows"
    raise MXNetError(f"{opname}: condition of shape {cshape} must have the shape of x {xshape} "
                     f"or be 1-D of length x.shape[0]")


def _where(rc, attrs, cond, x, y):
    xp = rc.xp
    if x.shape != y.shape:
        raise shape_err("where", "x and y must have the same shape", cond, x, y)
    if x.dtype != y.dtype:
        raise shape_err("where", "x and y must have the same dtype", cond, x, y)
    c = cond != 0
    if _where_cond("where", cond.shape, x.shape) == "rows":
        c = c.reshape((-1,) + (1,) * (x.ndim - 1))
    return xp.where(c, x, y)


def _where_shape(attrs, ins, outs):
    c, x, y = ins
    s = None
    for other in (x, y, outs[0]):  # partial shapes (None dimensions) fill each other in
        if other is None:
            continue
        other = tuple(other)
        if s is None:
            s = other
            continue
        if len(other) != len(s) or any(a is not None and b is not None and a != b
                                       for a, b in zip(s, other)):
            raise MXNetError(f"where: x and y must have the same shape, got "
                             f"{None if x is None else tuple(x)} and "
                             f"{None if y is None else tuple(y)}")
        s = tuple(b if a is None else a for a, b in zip(s, other))
    if s is None:
        return ins, outs, []
    if c is not None:
        _where_cond("where", c, s)
    return [c if c is not None else s, s, s], [s], []


def _where_type(attrs, in_types, out_types):
    c, x, y = in_types
    t = next((v for v in (x, y, out_types[0]) if v is not None), None)
    if x is not None and y is not None and np.dtype(x) != np.dtype(y):
        raise MXNetError(f"where: x and y must have the same dtype, got {x} and {y}")
    return [c, t, t], [t], []


def _where_grad(F, attrs, ins, outs, og):
    cond, g = ins[0], og[0]
    zero = F.zeros_like(g)
    return [None, F.where(cond, g, zero), F.where(cond, zero, g)]


register("where", _where, inputs=("condition", "x", "y"), infer_shape=_where_shape,
         infer_type=_where_type, gradient=_where_grad,
         doc="Elements of ``x`` where ``condition`` is non-zero, else of ``y``.")


# ---------------------------------------------------------------------------------------------
# clip

def _clip(rc, attrs, x, out=None):
    xp = rc.xp
    lo, hi = _f32(attrs["a_min"]), _f32(attrs["a_max"])
    xc = x.astype(np.float32) if x.dtype == np.float16 else x
    with np.errstate(all="ignore"):
        lo_v, hi_v = _c_cast(lo, x.dtype), _c_cast(hi, x.dtype)
    o = out[0] if out else None
    if o is not None and o.shape == x.shape and o.dtype == x.dtype:
        # masks first: the in-place plan may have put ``o`` over ``x``
        below, above = xc < lo, xc > hi
        xp.copyto(o, x)
        xp.copyto(o, lo_v, where=below)
        xp.copyto(o, hi_v, where=above)   # above a_max wins, as below
        return o
    # 1.9.1's order: above a_max wins, then below a_min (matters when a_min > a_max)
    out = xp.where(xc > hi, hi_v, xp.where(xc < lo, lo_v, x))
    return out.astype(x.dtype, copy=False)


def _clip_grad(F, attrs, ins, outs, og):
    x = ins[0]
    lo, hi = _f32(attrs["a_min"]), _f32(attrs["a_max"])
    inside = F._greater_equal_scalar(x, scalar=lo) * F._lesser_equal_scalar(x, scalar=hi)
    return [og[0] * inside]


register("clip", _clip, params=(Param("a_min", "float"), Param("a_max", "float")),
         infer_shape=lambda a, i, o: ([i[0] or o[0]], [i[0] or o[0]], []),
         infer_type=lambda a, i, o: ([i[0] or o[0]], [i[0] or o[0]], []),
         gradient=_clip_grad, inplace=((0, 0),), accepts_out=True,
         doc="Limit values to [a_min, a_max]; the gradient passes where a_min <= x <= a_max.")


# ---------------------------------------------------------------------------------------------
# gather_nd / scatter_nd

def _nd_check(opname, ishape, target_ndim):
    if len(ishape) < 2:
        raise MXNetError(f"{opname}: indices must have at least 2 dimensions (M, ...); "
                         f"got shape {tuple(ishape)}")
    if ishape[0] > target_ndim:
        raise MXNetError(f"{opname}: indices.shape[0]={ishape[0]} exceeds the number of "
                         f"dimensions ({target_ndim}) of the indexed array")


def _nd_index(xp, opname, indices, shape):
    """The tuple of int64 index arrays that ``indices`` (M, ...) selects in ``shape``.

    Values in [-dim, dim - 1] are valid (compared before any truncation, as 1.9.1 does);
    negative ones count from the end. Anything else raises IndexOutOfBounds.
    """
    m = indices.shape[0]
    dims = xp.asarray(shape[:m], dtype=np.int64).reshape((m,) + (1,) * (indices.ndim - 1))
    bad = (indices > dims - 1) | (indices < -dims)
    if bool(xp.any(bad)):
        rows = bad.reshape(m, -1).any(axis=1)
        k = int(xp.argmax(rows))
        v = indices[k][bad[k]].reshape(-1)[0].item()
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        raise IndexOutOfBounds(f"{opname}: index {v} is out of bounds for axis {k} "
                               f"with size {shape[k]}")
    idx = xp.where(indices < 0, indices + dims, indices)
    idx = _as_int(xp, idx)
    return tuple(idx[k] for k in range(m))


def _gather_nd(rc, attrs, data, indices):
    _nd_check("gather_nd", indices.shape, data.ndim)
    out = data[_nd_index(rc.xp, "gather_nd", indices, data.shape)]
    return rc.xp.array(out, copy=True)


def _gather_nd_shape(attrs, ins, outs):
    d, i = ins
    if d is None or i is None:
        return ins, outs, []
    _nd_check("gather_nd", i, len(d))
    return ins, [tuple(i[1:]) + tuple(d[i[0]:])], []


register("gather_nd", _gather_nd, inputs=("data", "indices"), infer_shape=_gather_nd_shape,
         infer_type=_first_type,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_gather_nd(og[0], ins[1], shape=tuple(ins[0].shape)), None],
         doc="Gather elements or slices of ``data`` at the index tuples in ``indices`` (M, ...).")


def _scatter_check(opname, dshape, ishape, shape):
    _nd_check(opname, ishape, len(shape))
    expected = tuple(ishape[1:]) + tuple(shape[ishape[0]:])
    if tuple(dshape) != expected:
        raise MXNetError(f"{opname}: invalid combination of data {tuple(dshape)}, indices "
                         f"{tuple(ishape)} and output shape {tuple(shape)}; data must have shape "
                         f"{expected}")


def _scatter_nd(rc, attrs, data, indices):
    xp = rc.xp
    shape = tuple(attrs["shape"])
    _scatter_check("scatter_nd", data.shape, indices.shape, shape)
    out = xp.zeros(shape, dtype=data.dtype)
    idx = _nd_index(xp, "scatter_nd", indices, shape)
    if xp is not np and idx[0].size > 1:
        # a GPU scatter lets an arbitrary one of repeated writes win; keep the last, as the CPU
        idx, data = _last_writes(xp, idx, data, shape)
    out[idx] = data
    return out


def _last_writes(xp, idx, data, shape):
    """The index tuple and rows of ``out[idx] = data`` reduced to the last write of every
    repeated position (so any scatter order gives NumPy's result)."""
    flat = xp.ravel_multi_index(tuple(i.reshape(-1) for i in idx), shape[:len(idx)])
    _, first_in_reversed = xp.unique(flat[::-1], return_index=True)
    last = flat.size - 1 - first_in_reversed
    rows = data.reshape((flat.size,) + data.shape[idx[0].ndim:])
    return tuple(i.reshape(-1)[last] for i in idx), rows[last]


def _scatter_shape(attrs, ins, outs):
    shape = tuple(attrs["shape"])
    d, i = ins
    if d is not None and i is not None:
        _scatter_check("scatter_nd", d, i, shape)
    elif i is not None:
        d = tuple(i[1:]) + shape[i[0]:]
    return [d, i], [shape], []


register("scatter_nd", _scatter_nd, inputs=("data", "indices"), params=(Param("shape", "shape"),),
         infer_shape=_scatter_shape, infer_type=_first_type,
         gradient=lambda F, a, ins, outs, og: [F.gather_nd(og[0], ins[1]), None],
         doc="Write ``data`` into a zero array of ``shape`` at the index tuples in ``indices``. "
             "Negative indices count from the end (1.9.1 left them undefined); with repeated "
             "indices one of the writes wins.")


def _backward_gather_nd(rc, attrs, data, indices):
    xp = rc.xp
    shape = tuple(attrs["shape"])
    _scatter_check("_backward_gather_nd", data.shape, indices.shape, shape)
    out = xp.zeros(shape, dtype=data.dtype)
    _scatter_add(xp, out, _nd_index(xp, "_backward_gather_nd", indices, shape), data)
    return out


register("_backward_gather_nd", _backward_gather_nd, inputs=("data", "indices"),
         params=(Param("shape", "shape"),), infer_shape=_scatter_shape, infer_type=_first_type,
         gradient=lambda F, a, ins, outs, og: [F.gather_nd(og[0], ins[1]), None],
         doc="scatter_nd that adds up repeated indices (the gradient of gather_nd).")


def _scatter_set_nd(rc, attrs, lhs, rhs, indices):
    shape = tuple(attrs["shape"])
    if tuple(lhs.shape) != shape:
        raise shape_err("_scatter_set_nd", f"lhs must have the output shape {shape}", lhs, rhs, indices)
    _scatter_check("_scatter_set_nd", rhs.shape, indices.shape, shape)
    out = lhs.copy()
    out[_nd_index(rc.xp, "_scatter_set_nd", indices, shape)] = rhs
    return out


def _scatter_set_grad(F, attrs, ins, outs, og):
    g = og[0]
    return [F._scatter_set_nd(g, F.zeros_like(ins[1]), ins[2], shape=attrs["shape"]),
            F.gather_nd(g, ins[2]), None]


register("_scatter_set_nd", _scatter_set_nd, inputs=("lhs", "rhs", "indices"),
         params=(Param("shape", "shape"),),
         infer_shape=lambda a, i, o: ([tuple(a["shape"]), i[1], i[2]], [tuple(a["shape"])], []),
         infer_type=lambda a, i, o: ([i[0] or i[1], i[0] or i[1], i[2]], [i[0] or i[1]], []),
         gradient=_scatter_set_grad, inplace=((0, 0),),
         doc="A copy of ``lhs`` with ``rhs`` written at the index tuples in ``indices``.")


# ---------------------------------------------------------------------------------------------
# SequenceMask / SequenceLast / SequenceReverse
#
# data has the time axis at ``axis`` (0 or 1) and the batch axis at the other of the two;
# sequence_length is 1-D of the batch size. Lengths are truncated toward zero.

def _seq_inputs(attrs):
    return ["data", "sequence_length"] if attrs["use_sequence_length"] else ["data"]


def _seq_axis(opname, attrs, ndim, only_zero=False):
    if ndim < 2:
        raise MXNetError(f"{opname}: the data array must have rank 2 or greater, got rank {ndim}")
    axis = attrs["axis"]
    if only_zero and axis != 0:
        raise MXNetError(f"{opname}: axis must be 0 (the time axis), got {axis}")
    if axis not in (0, 1):
        raise MXNetError(f"{opname}: axis must be 0 or 1 (the time axis), got {axis}")
    return axis


def _seq_lengths(xp, opname, data, lengths, axis):
    batch = data.shape[1 - axis]
    if tuple(lengths.shape) != (batch,):
        raise shape_err(opname, f"sequence_length must have shape ({batch},), one length per "
                                f"batch entry", data, lengths)
    return _as_int(xp, lengths)


def _seq_shape(out_fn, only_zero=False):
    def infer(attrs, ins, outs):
        d = ins[0]
        if d is None:
            return ins, outs, []
        axis = _seq_axis("Sequence", attrs, len(d), only_zero)
        new_ins = [d] + ([(d[1 - axis],)] if attrs["use_sequence_length"] else [])
        return new_ins, [out_fn(tuple(d), axis)], []
    return infer


def _seq_type(attrs, in_types, out_types):
    t = in_types[0] if in_types[0] is not None else out_types[0]
    # 1.9.1 gives an untyped sequence_length the data's dtype
    rest = [t if r is None else r for r in in_types[1:]]
    return [t] + rest, [t], []


_SEQ_PARAMS = (Param("use_sequence_length", "bool", False), Param("value", "float", 0.0),
               Param("axis", "int", 0))
_SEQ_PARAMS_NOVAL = (Param("use_sequence_length", "bool", False), Param("axis", "int", 0))


def _sequence_mask(rc, attrs, data, lengths=None):
    xp = rc.xp
    axis = _seq_axis("SequenceMask", attrs, data.ndim)
    if not attrs["use_sequence_length"]:
        return data.copy()
    lens = _seq_lengths(xp, "SequenceMask", data, lengths, axis)
    keep = xp.arange(data.shape[axis])[:, None] < lens[None, :]   # (T, B)
    if axis == 1:
        keep = keep.T
    keep = keep.reshape(keep.shape + (1,) * (data.ndim - 2))
    return xp.where(keep, data, _c_cast(attrs["value"], data.dtype)).astype(data.dtype, copy=False)


def _sequence_mask_grad(F, attrs, ins, outs, og):
    if not attrs["use_sequence_length"]:
        return [og[0]]
    return [F.SequenceMask(og[0], ins[1], use_sequence_length=True, value=0.0, axis=attrs["axis"]),
            None]


register("SequenceMask", _sequence_mask, inputs=_seq_inputs, params=_SEQ_PARAMS,
         infer_shape=_seq_shape(lambda d, axis: d), infer_type=_seq_type,
         gradient=_sequence_mask_grad,
         doc="Set the steps of each sequence at or beyond its length to ``value``.")


def _last_index(xp, opname, attrs, data, lengths, axis):
    """The time step read for each batch entry (lengths outside [1, T] are clipped)."""
    steps = data.shape[axis]
    batch = data.shape[1 - axis]
    if not attrs["use_sequence_length"]:
        return xp.full((batch,), steps - 1, dtype=np.int64)
    lens = _seq_lengths(xp, opname, data, lengths, axis)
    return xp.clip(lens - 1, 0, steps - 1)


def _time_major(xp, arr, axis):
    return arr if axis == 0 else xp.swapaxes(arr, 0, 1)


def _sequence_last(rc, attrs, data, lengths=None):
    xp = rc.xp
    axis = _seq_axis("SequenceLast", attrs, data.ndim)
    idx = _last_index(xp, "SequenceLast", attrs, data, lengths, axis)
    tm = _time_major(xp, data, axis)
    return tm[idx, xp.arange(tm.shape[1])]


def _sequence_last_grad(F, attrs, ins, outs, og):
    extra = list(ins[1:])
    g = F._backward_SequenceLast(og[0], ins[0], *extra, use_sequence_length=attrs["use_sequence_length"],
                                 axis=attrs["axis"])
    return [g] + [None] * len(extra)


register("SequenceLast", _sequence_last, inputs=_seq_inputs, params=_SEQ_PARAMS_NOVAL,
         infer_shape=_seq_shape(lambda d, axis: d[:axis] + d[axis + 1:]), infer_type=_seq_type,
         gradient=_sequence_last_grad,
         doc="The last valid step of each sequence (lengths outside [1, T] are clipped into it).")


def _backward_sequence_last(rc, attrs, ograd, data, lengths=None):
    xp = rc.xp
    axis = _seq_axis("SequenceLast", attrs, data.ndim)
    idx = _last_index(xp, "SequenceLast", attrs, data, lengths, axis)
    out = xp.zeros(data.shape, dtype=data.dtype)
    tm = _time_major(xp, out, axis)  # a view: writes land in ``out``
    tm[idx, xp.arange(tm.shape[1])] = ograd
    return out


def _backward_sequence_last_grad(F, attrs, ins, outs, og):
    extra = list(ins[2:])
    g = F.SequenceLast(og[0], *extra, use_sequence_length=attrs["use_sequence_length"],
                       axis=attrs["axis"])
    return [g, None] + [None] * len(extra)


register("_backward_SequenceLast", _backward_sequence_last, params=_SEQ_PARAMS_NOVAL,
         inputs=lambda a: ["ograd", "data"] + (["sequence_length"] if a["use_sequence_length"] else []),
         nd_hidden=True, infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []), gradient=_backward_sequence_last_grad)


def _sequence_reverse(rc, attrs, data, lengths=None):
    xp = rc.xp
    _seq_axis("SequenceReverse", attrs, data.ndim, only_zero=True)
    if not attrs["use_sequence_length"]:
        return xp.flip(data, 0).copy()
    steps = data.shape[0]
    lens = xp.clip(_seq_lengths(xp, "SequenceReverse", data, lengths, 0), 0, steps)[None, :]
    t = xp.arange(steps)[:, None]
    src = xp.where(t < lens, lens - 1 - t, t)  # (T, B); an involution per batch entry
    return data[src, xp.arange(data.shape[1])[None, :]]


def _sequence_reverse_grad(F, attrs, ins, outs, og):
    extra = list(ins[1:])
    g = F.SequenceReverse(og[0], *extra, use_sequence_length=attrs["use_sequence_length"],
                          axis=attrs["axis"])
    return [g] + [None] * len(extra)


register("SequenceReverse", _sequence_reverse, inputs=_seq_inputs, params=_SEQ_PARAMS_NOVAL,
         infer_shape=_seq_shape(lambda d, axis: d, only_zero=True), infer_type=_seq_type,
         gradient=_sequence_reverse_grad,
         doc="Reverse the first ``sequence_length`` steps of each sequence along axis 0 "
             "(lengths are clipped to [0, T]).")
