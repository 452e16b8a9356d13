"""Operators behind ``mx.sym.np`` functions that 1.9.1 writes as graph nodes of their own.

- ``_npi_diff(a, n, axis)``: the n-th discrete difference (prepend/append are the front end's
  business); its gradient applies the transposed difference n times.
- ``_npi_polyval(p, x)``: the polynomial with coefficients ``p`` (highest power first) at
  ``x``; gradients for both.
- ``_npi_average(a[, weights], axis, returned, weighted)``: the (weighted) mean along ``axis``,
  with the sum of the weights as a second output when ``returned``. As in 1.9.1 the gradient
  reads only the first output's gradient.
- ``_npi_ediff1d(ary[, to_begin][, to_end], ...)``: consecutive differences of the flattened
  array, with optional leading/trailing values (arrays, or the scalar attributes).
- ``_npi_hsplit`` / ``_npi_dsplit``: ``_split_v2`` under 1.9.1's names for hsplit / dsplit.
- ``_npi_diag_indices_from(arr)``: the (ndim, n) int64 index rows of a square array's diagonal.
- ``_npi_share_memory(a, b)``: whether the two bound arrays share memory (a bool scalar).

And the Python (``Custom``) operators 1.9.1's ``mx.sym.np`` uses where it has no kernel:
``resize_fallback``, ``unravel_index_fallback`` and ``empty_like_fallback``, which run the
NumPy function on the host.

This module is loaded with the other NumPy-interface operators (see np_ops.py).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, parse_attr
from ._common import normalize_axis
from .registry import Param, get_op, register

__all__ = []


# -- diff -------------------------------------------------------------------------------------------

_DIFF_PARAMS = (Param("n", "int", 1, doc="How many times to take the difference."),
                Param("axis", "int", -1, doc="The axis along which to take it."))


def _diff_axis(attrs, ndim):
    if attrs["n"] < 0:
        raise MXNetError(f"diff: order must be non-negative but got {attrs['n']}")
    return normalize_axis("diff", attrs["axis"], ndim)


def _diff(rc, attrs, a):
    return rc.xp.diff(a, n=attrs["n"], axis=_diff_axis(attrs, a.ndim))


def _diff_backward(rc, attrs, g, a):
    xp = rc.xp
    ax = _diff_axis(attrs, a.ndim)
    pad = [(0, 0)] * a.ndim
    pad[ax] = (1, 1)
    lo, hi = [slice(None)] * a.ndim, [slice(None)] * a.ndim
    lo[ax], hi[ax] = slice(None, -1), slice(1, None)
    for _ in range(attrs["n"]):
        p = xp.pad(g, pad)
        g = p[tuple(lo)] - p[tuple(hi)]   # the transpose of one difference
    return g.astype(a.dtype, copy=False)


def _diff_shape(attrs, ins, outs):
    a = ins[0]
    if a is None:
        return ins, outs, []
    ax = _diff_axis(attrs, len(a))
    out = list(a)
    out[ax] = None if a[ax] is None else max(a[ax] - attrs["n"], 0)
    return ins, [tuple(out)], []


register("_npi_diff", _diff, params=_DIFF_PARAMS, inputs=("a",), nd_hidden=True,
         infer_shape=_diff_shape,
         gradient=lambda F, a, ins, outs, og: [F._npi_backward_diff(og[0], ins[0], **a)],
         doc="The n-th discrete difference along ``axis``.")
register("_npi_backward_diff", _diff_backward, params=_DIFF_PARAMS, inputs=("ograd", "a"),
         nd_hidden=True, infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         doc="Gradient of _npi_diff.")


# -- polyval ----------------------------------------------------------------------------------------

def _polyval(rc, attrs, p, x):
    if p.ndim != 1:
        raise MXNetError(f"polyval: p must be 1-d, got shape {tuple(p.shape)}")
    res = rc.xp.zeros(x.shape, dtype=x.dtype)
    for c in p:
        res = res * x + c
    return res.astype(x.dtype, copy=False)


def _polyval_backward(rc, attrs, g, p, x):
    xp = rc.xp
    n = p.shape[0]
    powers = [xp.ones_like(x)]
    for _ in range(1, n):
        powers.append(powers[-1] * x)
    dp = xp.stack([(g * powers[n - 1 - i]).sum() for i in range(n)]) if n else \
        xp.zeros((0,), dtype=p.dtype)
    dx = xp.zeros_like(x)
    for i in range(n - 1):   # the derivative's coefficients: p[i] * (n - 1 - i)
        dx = dx * x + p[i] * (n - 1 - i)
    return dp.astype(p.dtype, copy=False), (g * dx).astype(x.dtype, copy=False)


register("_npi_polyval", _polyval, inputs=("p", "x"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         gradient=lambda F, a, ins, outs, og: list(F._npi_backward_polyval(og[0], ins[0],
                                                                           ins[1])),
         doc="The polynomial with coefficients ``p`` (highest power first) at ``x``.")
register("_npi_backward_polyval", _polyval_backward, inputs=("ograd", "p", "x"),
         nd_hidden=True, num_outputs=2,
         infer_shape=lambda a, i, o: (i, [i[1], i[2]], []),
         infer_type=lambda a, i, o: (i, [i[1], i[2]], []),
         doc="Gradient of _npi_polyval (for p, then x).")


# -- average ----------------------------------------------------------------------------------------

_AVERAGE_PARAMS = (Param("axis", "shape", None, optional=True, doc="Axes to average over."),
                   Param("returned", "bool", False, doc="Also return the sum of the weights."),
                   Param("weighted", "bool", True, doc="Whether a weights input is given."))


def _avg_axes(attrs, ndim):
    axis = attrs["axis"]
    if axis is None:
        return tuple(range(ndim))
    return tuple(sorted(normalize_axis("average", int(i), ndim) for i in axis))


def _avg_weights(xp, attrs, a, w):
    """The weights broadcast to a's shape (a 1-d weight lies along the one averaged axis)."""
    if w.shape == a.shape:
        return w
    axes = _avg_axes(attrs, a.ndim)
    if w.ndim != 1 or len(axes) != 1 or w.shape[0] != a.shape[axes[0]]:
        raise MXNetError(f"average: weights of shape {tuple(w.shape)} do not fit an array of "
                         f"shape {tuple(a.shape)} averaged over axis {attrs['axis']}")
    shape = [1] * a.ndim
    shape[axes[0]] = w.shape[0]
    return xp.broadcast_to(w.reshape(shape), a.shape)


def _average(rc, attrs, a, w=None):
    xp = rc.xp
    axes = _avg_axes(attrs, a.ndim)
    if attrs["weighted"] and w is not None:
        wb = _avg_weights(xp, attrs, a, w)
        avg = (a * wb).sum(axis=axes) / wb.sum(axis=axes)
        # 1.9.1: the weights' sum has avg's shape for full weights, else it is a scalar
        scl = wb.sum(axis=axes) if w.shape == a.shape else w.sum()
    else:
        count = int(np.prod([a.shape[i] for i in axes])) if axes else 1
        avg = a.sum(axis=axes) / a.dtype.type(count)
        scl = xp.asarray(count, dtype=a.dtype)
    avg = xp.asarray(avg, dtype=a.dtype)
    if attrs["returned"]:
        return avg, xp.asarray(scl, dtype=a.dtype)
    return avg


def _average_backward(rc, attrs, g, a, w=None):
    xp = rc.xp
    axes = _avg_axes(attrs, a.ndim)
    gb = xp.expand_dims(g, axes) if axes else g
    if attrs["weighted"] and w is not None:
        wb = _avg_weights(xp, attrs, a, w)
        scl = wb.sum(axis=axes, keepdims=True)
        avg = (a * wb).sum(axis=axes, keepdims=True) / scl
        da = gb * wb / scl
        dwb = gb * (a - avg) / scl
        if w.shape != a.shape:
            others = tuple(i for i in range(a.ndim) if i not in axes)
            dwb = dwb.sum(axis=others).reshape(w.shape)
        return da.astype(a.dtype, copy=False), dwb.astype(w.dtype, copy=False)
    count = int(np.prod([a.shape[i] for i in axes])) if axes else 1
    return (xp.broadcast_to(gb, a.shape) / a.dtype.type(count)).astype(a.dtype, copy=False)


def _average_inputs(attrs):
    return ["a", "weights"] if attrs["weighted"] else ["a"]


def _average_nout(attrs):
    return 2 if attrs["returned"] else 1


def _average_shape(attrs, ins, outs):
    a = ins[0]
    if a is None or None in a:
        return ins, outs, []
    axes = _avg_axes(attrs, len(a))
    out = tuple(d for i, d in enumerate(a) if i not in axes)
    res = [out]
    if attrs["returned"]:
        w = ins[1] if len(ins) > 1 else None
        res.append(out if (w is not None and tuple(w) == tuple(a)) else ())
    return ins, res, []


def _average_grad(F, attrs, ins, outs, og):
    res = F._npi_backward_average(og[0], *ins, **attrs)
    return list(res) if len(ins) > 1 else [res]


register("_npi_average", _average, params=_AVERAGE_PARAMS, inputs=_average_inputs,
         nd_hidden=True, num_outputs=_average_nout, infer_shape=_average_shape,
         gradient=_average_grad, doc="The (weighted) average along ``axis``.")
register("_npi_backward_average", _average_backward, params=_AVERAGE_PARAMS,
         inputs=lambda a: ["ograd"] + _average_inputs(a), nd_hidden=True,
         num_outputs=lambda a: 2 if a["weighted"] else 1,
         infer_shape=lambda a, i, o: (i, list(i[1:]), []),
         infer_type=lambda a, i, o: (i, list(i[1:]), []),
         doc="Gradient of _npi_average (for a, then the weights).")


# -- ediff1d ----------------------------------------------------------------------------------------

_EDIFF_PARAMS = (
    Param("to_begin_arr_given", "bool", False, doc="A to_begin array is the second input."),
    Param("to_end_arr_given", "bool", False, doc="A to_end array is the last input."),
    Param("to_begin_scalar", "float", None, optional=True, doc="A scalar to put first."),
    Param("to_end_scalar", "float", None, optional=True, doc="A scalar to put last."))


def _ediff_inputs(attrs):
    return (["input1"] + (["input2"] if attrs["to_begin_arr_given"] else [])
            + (["input3"] if attrs["to_end_arr_given"] else []))


def _ediff_parts(attrs, arrays):
    ary, rest = arrays[0], list(arrays[1:])
    begin = rest.pop(0) if attrs["to_begin_arr_given"] else None
    end = rest.pop(0) if attrs["to_end_arr_given"] else None
    return ary, begin, end


def _ediff1d(rc, attrs, *arrays):
    xp = rc.xp
    ary, begin, end = _ediff_parts(attrs, arrays)
    dt = ary.dtype
    parts = [xp.diff(ary.reshape(-1))]
    if begin is not None:
        parts.insert(0, begin.reshape(-1).astype(dt))
    elif attrs["to_begin_scalar"] is not None:
        parts.insert(0, xp.asarray([attrs["to_begin_scalar"]], dtype=dt))
    if end is not None:
        parts.append(end.reshape(-1).astype(dt))
    elif attrs["to_end_scalar"] is not None:
        parts.append(xp.asarray([attrs["to_end_scalar"]], dtype=dt))
    return xp.concatenate(parts)


def _ediff_backward(rc, attrs, g, *arrays):
    xp = rc.xp
    ary, begin, end = _ediff_parts(attrs, arrays)
    nb = begin.size if begin is not None else int(attrs["to_begin_scalar"] is not None)
    ne = end.size if end is not None else int(attrs["to_end_scalar"] is not None)
    core = xp.pad(g[nb:g.shape[0] - ne], (1, 1))
    da = core[:-1] - core[1:]
    res = [da.reshape(ary.shape).astype(ary.dtype, copy=False)]
    if begin is not None:
        res.append(g[:nb].reshape(begin.shape).astype(begin.dtype, copy=False))
    if end is not None:
        res.append(g[g.shape[0] - ne:].reshape(end.shape).astype(end.dtype, copy=False))
    return tuple(res) if len(res) > 1 else res[0]


def _ediff_shape(attrs, ins, outs):
    if any(s is None or None in s for s in ins):
        return ins, outs, []
    ary, begin, end = _ediff_parts(attrs, ins)
    n = max(int(np.prod(ary)) - 1, 0)
    n += int(np.prod(begin)) if begin is not None else int(attrs["to_begin_scalar"] is not None)
    n += int(np.prod(end)) if end is not None else int(attrs["to_end_scalar"] is not None)
    return ins, [(n,)], []


def _ediff_grad(F, attrs, ins, outs, og):
    res = F._npi_backward_ediff1d(og[0], *ins, **attrs)
    return list(res) if len(ins) > 1 else [res]


register("_npi_ediff1d", _ediff1d, params=_EDIFF_PARAMS, inputs=_ediff_inputs, nd_hidden=True,
         infer_shape=_ediff_shape, infer_type=lambda a, i, o: (i, [i[0]], []),
         gradient=_ediff_grad,
         doc="Differences of consecutive elements of the flattened array, with optional ends.")
register("_npi_backward_ediff1d", _ediff_backward, params=_EDIFF_PARAMS,
         inputs=lambda a: ["ograd"] + _ediff_inputs(a), nd_hidden=True,
         num_outputs=lambda a: len(_ediff_inputs(a)),
         infer_shape=lambda a, i, o: (i, list(i[1:]), []),
         infer_type=lambda a, i, o: (i, list(i[1:]), []),
         doc="Gradient of _npi_ediff1d.")


# -- hsplit / dsplit, diag_indices_from, share_memory --------------------------------------------------

def _clone(name, source):
    op = get_op(source)
    register(name, op.compute, params=tuple(op.params.values()), inputs=op._inputs,
             num_outputs=op._num_outputs, gradient=op.gradient, infer_shape=op.infer_shape,
             infer_type=op.infer_type, nd_hidden=True, doc=op.doc)


_clone("_npi_hsplit", "_split_v2")
_clone("_npi_dsplit", "_split_v2")


def _diag_indices_from(rc, attrs, arr):
    if arr.ndim < 2 or len(set(arr.shape)) != 1:
        raise MXNetError(f"diag_indices_from: input must be at least 2-d with equal "
                         f"dimensions, got shape {tuple(arr.shape)}")
    row = rc.xp.arange(arr.shape[0], dtype=np.int64)
    return rc.xp.stack([row] * arr.ndim)


register("_npi_diag_indices_from", _diag_indices_from, inputs=("data",), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [None if i[0] is None else (len(i[0]), i[0][0])], []),
         infer_type=lambda a, i, o: (i, [np.dtype(np.int64)], []),
         doc="The index rows of the diagonal of a square array, shape (ndim, n).")


def _share_memory(rc, attrs, a, b):
    if a is b:
        return rc.xp.asarray(True)
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.asarray(bool(np.may_share_memory(a, b)))
    return rc.xp.asarray(False)


register("_npi_share_memory", _share_memory, inputs=("a", "b"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [()], []),
         infer_type=lambda a, i, o: (i, [np.dtype(np.bool_)], []),
         doc="Whether the two arrays share memory (a bool scalar).")


# -- the Python (Custom) fallbacks -------------------------------------------------------------

def _register_fallbacks():
    from .custom import CustomOp, CustomOpProp
    from .custom import register as register_custom

    def _value(v):
        return parse_attr(v) if isinstance(v, str) else v

    class _HostOp(CustomOp):
        def __init__(self, fn):
            super().__init__()
            self._fn = fn

        def forward(self, is_train, req, in_data, out_data, aux):
            from ..ndarray import array
            res = self._fn(*[x.asnumpy() for x in in_data])
            for o, r in zip(out_data, req):
                self.assign(o, r, array(np.asarray(res, dtype=o.dtype), ctx=o.context,
                                        dtype=o.dtype))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            for r, g in zip(req, in_grad):
                self.assign(g, r, 0)

    class _ResizeProp(CustomOpProp):
        def __init__(self, new_shape):
            super().__init__(need_top_grad=True)
            s = _value(new_shape)
            self._shape = (s,) if isinstance(s, int) else tuple(s)

        def list_arguments(self):
            return ["a"]

        def infer_shape(self, in_shape):
            return in_shape, [self._shape], []

        def create_operator(self, ctx, in_shapes, in_dtypes):
            return _HostOp(lambda a: np.resize(a, self._shape))

    class _UnravelProp(CustomOpProp):
        def __init__(self, shape):
            super().__init__(need_top_grad=True)
            s = _value(shape)
            self._shape = (s,) if isinstance(s, int) else tuple(s)

        def list_arguments(self):
            return ["indices"]

        def infer_shape(self, in_shape):
            return in_shape, [(len(self._shape),) + tuple(in_shape[0])], []

        def infer_type(self, in_type):
            return in_type, [np.int64], []

        def create_operator(self, ctx, in_shapes, in_dtypes):
            # as 1.9.1: NumPy's unravel_index on the host (only integer indices are accepted)
            return _HostOp(lambda i: np.stack(np.unravel_index(i, self._shape)))

    class _EmptyLikeProp(CustomOpProp):
        def __init__(self, dtype="None", order="C", subok="False", shape="None"):
            super().__init__(need_top_grad=True)
            self._dtype = _value(dtype)
            s = _value(shape)
            self._shape = None if s is None else ((s,) if isinstance(s, int) else tuple(s))

        def list_arguments(self):
            return ["prototype"]

        def infer_shape(self, in_shape):
            return in_shape, [self._shape if self._shape is not None else in_shape[0]], []

        def infer_type(self, in_type):
            return in_type, [in_type[0] if self._dtype is None else np.dtype(self._dtype)], []

        def create_operator(self, ctx, in_shapes, in_dtypes):
            shape = self._shape if self._shape is not None else tuple(in_shapes[0])
            # uninitialised memory in 1.9.1; zeros here
            return _HostOp(lambda p: np.zeros(shape))

    register_custom("resize_fallback")(_ResizeProp)
    register_custom("unravel_index_fallback")(_UnravelProp)
    register_custom("empty_like_fallback")(_EmptyLikeProp)


_register_fallbacks()
