"""Sorting operators: topk, sort, argsort.

On the CPU, equal elements come out in the order 1.9.1's CPU sorts give them (libstdc++'s
``std::sort`` / ``std::partial_sort`` retraced step by step, ``_stl_sort.py``) for rows of up
to 4,096 elements and up to 4,096 retraced elements per call; elsewhere (larger inputs,
rows holding NaN, CuPy) orderings are stable: equal elements keep their original order in
both directions. NaN sorts as larger than every number. ``axis=None`` works on the
flattened array.

topk with ret_typ 'value' and sort have a hidden second output holding the source
positions of the sorted values, as in 1.9.1; the gradient sends each output gradient back
to the position its value came from.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, dtype_np
from .registry import Param, register

_INDEX_DTYPES = ("float16", "float32", "float64", "int32", "int64", "uint8")


def _axis(opname, axis, ndim):
    if not -ndim <= axis < ndim:
        raise MXNetError(f"{opname}: axis {axis} is out of range for an input of rank {ndim}; "
                         f"expected an axis in [{-ndim}, {ndim - 1}] or None")
    return axis % ndim


def _flat_axis(opname, x, axis):
    """(array to sort, axis): the flattened array and 0 when ``axis`` is None."""
    if axis is None:
        return x.reshape(-1), 0
    return x, _axis(opname, axis, x.ndim)


def _order(xp, x, axis, ascend):
    """Stable argsort along ``axis``; descending keeps ties in their original order too."""
    kw = {"kind": "stable"} if xp is np else {}  # CuPy's sort is always stable
    if ascend:
        return xp.argsort(x, axis=axis, **kw)
    rev = xp.argsort(xp.flip(x, axis), axis=axis, **kw)
    return (x.shape[axis] - 1) - xp.flip(rev, axis)


def _topk_k(opname, k, n):
    if k <= 0:
        return n
    if k > n:
        raise MXNetError(f"{opname}: k={k} is larger than the size {n} of the sorted axis")
    return k


# The retrace runs in Python, ~7 us per element of a row with ties (an 80,000-element row:
# 0.54 s), so only small inputs take it: at most ~30 ms a call.
_STL_ROW_MAX = 1 << 12     # longest row whose ties are ordered as 1.9.1's CPU sort does
_STL_TOTAL_MAX = 1 << 12   # most elements retraced (in Python) per call


def _tie_order(x, axis, order, k, ascend):
    """``order`` (a stable full order along ``axis``) with the rows whose first k + 1 sorted
    values hold ties reordered as 1.9.1's CPU topk/sort does (its first ``k`` positions; the
    rest follow in any order). Other ties cannot change the first k positions."""
    from ._stl_sort import topk_order
    n = x.shape[axis]
    xl, ol = np.moveaxis(x, axis, -1), np.moveaxis(order, axis, -1)
    sv = np.take_along_axis(xl, ol[..., :k + 1], axis=-1)
    rows = np.argwhere((sv[..., 1:] == sv[..., :-1]).any(axis=-1))
    if n > _STL_ROW_MAX or len(rows) * n > _STL_TOTAL_MAX:
        return order
    ol = ol.copy()
    for r in map(tuple, rows):
        vals = xl[r]
        if vals.dtype.kind == "f" and np.isnan(vals).any():
            continue   # NaN keeps this module's rule (largest), not 1.9.1's comparisons
        first = topk_order(vals.tolist(), k, ascend)
        if k < n:
            rest = np.ones(n, dtype=bool)
            rest[first] = False
            first = np.concatenate([np.asarray(first, dtype=ol.dtype), np.nonzero(rest)[0]])
        ol[r] = first
    return np.moveaxis(ol, -1, axis)


def _select(xp, x, axis, k, ascend):
    """(values, int64 positions) of the first ``k`` elements in sorted order along ``axis``,
    ties ordered as 1.9.1's CPU sort orders them (see ``_tie_order``)."""
    order = _order(xp, x, axis, ascend)
    n = x.shape[axis]
    m = min(k + 1, n)
    lead = (slice(None),) * axis
    head = order if m == n else order[lead + (slice(0, m),)]
    vals = xp.take_along_axis(x, head, axis=axis)
    # a stable order is already 1.9.1's for k = 1 and for full sorts of up to 16 elements
    # (libstdc++'s insertion sort); elsewhere rows with ties are retraced
    stable = k == 1 or (n <= 16 and k * 8 > n)
    if xp is np and not stable and x.size and np.count_nonzero(
            vals[lead + (slice(1, None),)] == vals[lead + (slice(0, -1),)]):
        order = _tie_order(x, axis, order, k, ascend)
        head = order if m == n else order[lead + (slice(0, m),)]
        vals = xp.take_along_axis(x, head, axis=axis)
    if k < n:
        order = xp.ascontiguousarray(order[lead + (slice(0, k),)])
        vals = xp.ascontiguousarray(vals[lead + (slice(0, k),)])
    return vals, order


# ---------------------------------------------------------------------------------------------
# topk

def _no_bool(opname, data):
    if data.dtype == np.bool_:   # 1.9.1: "Unknown type enum 7"
        raise MXNetError(f"{opname}: boolean input is not supported (1.9.1 has no bool kernel; "
                         f"input shape {tuple(data.shape)}); cast it first")


def _topk(rc, attrs, data):
    _no_bool("topk", data)
    xp = rc.xp
    x, axis = _flat_axis("topk", data, attrs["axis"])
    ret = attrs["ret_typ"]
    n = x.shape[axis]
    k = _topk_k("topk", attrs["k"], n)
    dt = dtype_np(attrs["dtype"])
    if ret == "mask":
        if xp is not np:   # (stable order on the GPU: the rank of each element)
            rank = xp.argsort(_order(xp, x, axis, attrs["is_ascend"]), axis=axis)
            return (rank < k).astype(data.dtype).reshape(data.shape)
        mask = np.zeros(x.shape, dtype=data.dtype)
        np.put_along_axis(mask, _select(xp, x, axis, k, attrs["is_ascend"])[1], 1, axis=axis)
        return mask.reshape(data.shape)
    vals, pos = _select(xp, x, axis, k, attrs["is_ascend"])
    if ret == "indices":
        return pos.astype(dt)
    # 'value' keeps its positions in a hidden int64 output (for the gradient only)
    return vals, (pos.astype(dt) if ret == "both" else pos)


def _topk_out_shape(attrs, dshape):
    if attrs["axis"] is None:
        n = 1
        for s in dshape:
            n *= s
        return (_topk_k("topk", attrs["k"], n),)
    axis = _axis("topk", attrs["axis"], len(dshape))
    out = list(dshape)
    out[axis] = _topk_k("topk", attrs["k"], dshape[axis])
    return tuple(out)


def _topk_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    if attrs["ret_typ"] == "mask":
        return ins, [tuple(d)], []
    s = _topk_out_shape(attrs, tuple(d))
    return ins, [s] * _topk_nout(attrs), []


def _topk_type(attrs, in_types, out_types):
    t = in_types[0]
    dt = dtype_np(attrs["dtype"])
    ret = attrs["ret_typ"]
    if ret == "mask":
        return in_types, [t], []
    if ret == "indices":
        return in_types, [dt], []
    return in_types, [t, dt if ret == "both" else np.dtype(np.int64)], []


def _topk_nout(attrs):
    return 2 if attrs["ret_typ"] in ("value", "both") else 1


def _topk_names(attrs):
    ret = attrs["ret_typ"]
    return {"both": ["output0", "output1"], "value": ["output0"]}.get(ret, ["output"])


def _topk_grad(F, attrs, ins, outs, og):
    if attrs["ret_typ"] in ("indices", "mask"):
        return [F.zeros_like(ins[0])]
    return [F._backward_topk(og[0], outs[1], ins[0], axis=attrs["axis"])]


register("topk", _topk, params=(
    Param("axis", "int", -1, optional=True), Param("k", "int", 1),
    Param("ret_typ", "str", "indices", choices=("both", "indices", "mask", "value")),
    Param("is_ascend", "bool", False),
    Param("dtype", "dtype", "float32", choices=_INDEX_DTYPES)),
    num_outputs=_topk_nout, num_visible_outputs=lambda a: 2 if a["ret_typ"] == "both" else 1,
    output_names=_topk_names, infer_shape=_topk_shape, infer_type=_topk_type,
    gradient=_topk_grad,
    doc="The k largest (or smallest, with is_ascend) elements along ``axis``: their values, "
        "their positions (as ``dtype``), both, or a 0/1 mask over the input. k <= 0 means all.")


def _backward_topk(rc, attrs, ograd, indices, data):
    xp = rc.xp
    pos = indices.astype(np.int64)
    if attrs["axis"] is None:
        out = xp.zeros(data.size, dtype=data.dtype)
        out[pos.reshape(-1)] = ograd.reshape(-1)
        return out.reshape(data.shape)
    axis = _axis("topk", attrs["axis"], data.ndim)
    out = xp.zeros(data.shape, dtype=data.dtype)
    grids = []
    for i, s in enumerate(pos.shape):
        grids.append(pos if i == axis else
                     xp.arange(s).reshape((1,) * i + (s,) + (1,) * (pos.ndim - i - 1)))
    out[tuple(grids)] = ograd
    return out


register("_backward_topk", _backward_topk, inputs=("ograd", "indices", "data"),
         params=(Param("axis", "int", -1, optional=True),), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[2]], []),
         infer_type=lambda a, i, o: (i, [i[2]], []),
         doc="Scatter sorted-value gradients back to their source positions.")


# ---------------------------------------------------------------------------------------------
# sort / argsort

def _sort(rc, attrs, data):
    if data.dtype == np.float16:
        raise MXNetError("sort: float16 input is not supported (as in 1.9.1); cast it first")
    _no_bool("sort", data)
    xp = rc.xp
    x, axis = _flat_axis("sort", data, attrs["axis"])
    vals, pos = _select(xp, x, axis, x.shape[axis], attrs["is_ascend"])
    return vals, pos


def _sort_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    if attrs["axis"] is None:
        n = 1
        for s in d:
            n *= s
        s = (n,)
    else:
        _axis("sort", attrs["axis"], len(d))
        s = tuple(d)
    return ins, [s, s], []


register("sort", _sort, params=(Param("axis", "int", -1, optional=True),
                                 Param("is_ascend", "bool", True)),
         num_outputs=2, num_visible_outputs=1, output_names=["output0"],
         infer_shape=_sort_shape,
         infer_type=lambda a, i, o: (i, [i[0], np.dtype(np.int64)], []),
         gradient=lambda F, a, ins, outs, og: [F._backward_topk(og[0], outs[1], ins[0], axis=a["axis"])],
         doc="Sorted copy along ``axis`` (flattened when None).")


def _argsort(rc, attrs, data):
    if data.dtype == np.float16:
        raise MXNetError("argsort: float16 input is not supported (as in 1.9.1); cast it first")
    _no_bool("argsort", data)
    x, axis = _flat_axis("argsort", data, attrs["axis"])
    order = _select(rc.xp, x, axis, x.shape[axis], attrs["is_ascend"])[1]
    return order.astype(dtype_np(attrs["dtype"]))


register("argsort", _argsort, params=(Param("axis", "int", -1, optional=True),
                                      Param("is_ascend", "bool", True),
                                      Param("dtype", "dtype", "float32", choices=_INDEX_DTYPES)),
         infer_shape=lambda a, i, o: (i, [None if i[0] is None else _sort_shape(a, i, o)[1][0]], []),
         infer_type=lambda a, i, o: (i, [dtype_np(a["dtype"])], []),
         gradient=lambda F, a, ins, outs, og: [F.zeros_like(ins[0])],
         doc="Positions that sort ``data`` along ``axis`` (flattened when None), as ``dtype``.")
