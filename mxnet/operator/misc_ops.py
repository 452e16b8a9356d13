"""Odds and ends of 1.9.1's ``mx.nd`` namespace that fit no other family.

- elementwise / scan: ``hard_sigmoid``, ``cumsum`` (registered as ``_np_cumsum``);
- statistics: ``moments``, ``_histogram`` (behind ``mx.nd.histogram``), ``all_finite``,
  ``multi_all_finite``;
- index arithmetic: ``ravel_multi_index`` / ``unravel_index`` (``_ravel_multi_index`` /
  ``_unravel_index``), ``choose_element_0index`` (another name of ``pick``),
  ``fill_element_0index``, ``_onehot_encode`` (behind ``mx.nd.onehot_encode``);
- ``khatri_rao``, ``reset_arrays``, ``cast_storage``, ``amp_cast``, ``amp_multicast``;
- sliding blocks: ``im2col`` / ``col2im``; FlowNet's ``Correlation``;
- legacy layers: ``IdentityAttachKLSparseReg``, ``BatchNorm_v1``, ``Convolution_v1``,
  ``Pooling_v1``.

1.9.1 behaviour kept on purpose (see the tests for each):

- ``cumsum`` keeps small integer dtypes (int8 stays int8) and turns bool into int64.
- ``moments`` rejects empty ``axes``; on integer data both outputs are integers (C division).
- ``ravel_multi_index`` / ``unravel_index`` truncate float indices toward zero and never
  check bounds: ``unravel_index`` leaves the quotient in the first coordinate and C's
  remainder sign in the others (-1 with shape (7, 6) gives (0, -1)).
- ``_histogram`` with ``bin_cnt`` computes a bin as ``(x - lo) * bin_cnt / (hi - lo)`` and
  then nudges it by one against the edges in the data's dtype, so integer data with
  fractional edges lands where 1.9.1 puts it; a degenerate range ``(a, a)`` becomes
  ``(a - 0.5, a + 0.5)``; counts are int64 and edges have the data's dtype.
- ``fill_element_0index`` and ``_onehot_encode`` skip out-of-range indices (a row of
  ``_onehot_encode`` stays all zero).
- ``amp_cast`` casts only float16/float32/bfloat16 data; other dtypes pass through.
  ``amp_multicast`` casts its float16/float32 inputs to float32 when any input is float32
  (to float16 with ``cast_narrow`` when any is float16) and otherwise to the dtype of the
  *first* input, whatever that is; other dtypes pass through.
- ``Pooling_v1`` pads with zeros (max pooling sees them), divides averages by the full kernel
  size and clips windows at the padded edge (``pooling_convention='full'``); its max
  gradient goes to every element equal to the window maximum.
- ``BatchNorm_v1``'s third output is the variance (not 1/std) and ``eps`` is a float32.
- ``IdentityAttachKLSparseReg`` updates ``moving_avg`` in the backward pass, which works on
  2-D (batch, features) data only (as in 1.9.1, whose backward fails on any other shape).
- ``khatri_rao``, ``_histogram``, ``fill_element_0index``, ``_onehot_encode``,
  ``reset_arrays``, ``all_finite`` and ``multi_all_finite`` have no gradient (backward raises);
  ``ravel_multi_index`` and ``unravel_index`` have a zero gradient.

Known gap: with ``init_output=False`` 1.9.1's ``all_finite``/``multi_all_finite`` leave the
output untouched when every value is finite (so ``out=`` accumulates over calls). Operators
here cannot see the previous content of ``out``, so the result is always 1 or 0.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..base import MXNetError, dtype_np
from ._common import errstate, float32_only_type, one_dtype_type
from .registry import Param, all_ops, get_op, register

try:  # bfloat16 exists only with ml_dtypes
    _BF16 = dtype_np("bfloat16")
except MXNetError:  # pragma: no cover - depends on the environment
    _BF16 = None

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_FLOATS = tuple(t for t in (_F16, _F32, _F64, _BF16) if t is not None)
_HALF = tuple(t for t in (_F16, _BF16) if t is not None)  # np.dtype(None) == float64


# ---------------------------------------------------------------------------------------------
# shared helpers


def _f32(v):
    """A value as 1.9.1 sees a ``float`` (not ``double``) parameter."""
    return float(np.float32(v))


def _desc(*arrays):
    return ", ".join(f"{tuple(a.shape)} {a.dtype}" for a in arrays)


def _check_float(opname, name, a):
    if a.dtype not in _FLOATS:
        raise MXNetError(f"{opname}: {name} has dtype {a.dtype} (shape {tuple(a.shape)}); "
                         f"only floating point types are supported")


def _check_same_dtype(opname, names, arrays):
    dt = arrays[0].dtype
    for name, a in zip(names[1:], arrays[1:]):
        if a.dtype != dt:
            raise MXNetError(f"{opname}: all inputs must share one dtype; {names[0]} is {dt} but "
                             f"{name} is {a.dtype} (inputs: {_desc(*arrays)})")
    return dt


def _acc(dtype):
    """Half precision is computed in float32."""
    return _F32 if dtype in _HALF else dtype


def _prod(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


def _trunc_int(xp, a):
    """Indices as int64, float values truncated toward zero (a C cast)."""
    if a.dtype.kind in "iub":
        return a.astype(np.int64)
    return xp.trunc(a).astype(np.int64)


def _c_div(xp, a, b):
    """Integer division rounding toward zero, as in C (``b`` a nonzero Python int)."""
    q = a // b
    fix = (q * b != a) & ((a < 0) != (b < 0))
    return q + fix


def _alias(target, alias):
    """Make ``alias`` another public name of the registered operator ``target``."""
    ops = all_ops()
    if alias in ops:
        return
    op = get_op(target)
    op.aliases = tuple(op.aliases) + (alias,)
    ops[alias] = op


def _first_shape(attrs, ins, outs):
    d = ins[0]
    return ins, [d] * len(outs), []


def _out_dtype(dt):
    """infer_type: every output has the fixed dtype ``dt``; inputs stay as given."""
    def infer(attrs, in_types, out_types):
        return in_types, [dt] * len(out_types), []
    return infer


# ---------------------------------------------------------------------------------------------
# hard_sigmoid


def _hs_line(x, attrs):
    """alpha * x + beta in x's dtype, with alpha and beta rounded to float32 first (for
    float16 data, as 1.9.1's half kernel: the product rounded to float16, the sum taken in
    float32 with the float32 beta)."""
    half = x.dtype == np.float16
    if half:
        x = x.astype(np.float32)
    a = x.dtype.type(_f32(attrs["alpha"]))
    b = x.dtype.type(_f32(attrs["beta"]))
    v = x * a
    if half:
        v = v.astype(np.float16).astype(np.float32)
    v += b
    return v, a


def _hard_sigmoid(rc, attrs, x):
    _check_float("hard_sigmoid", "data", x)
    v, _ = _hs_line(x, attrs)
    return rc.xp.clip(v, 0, 1, out=v).astype(x.dtype, copy=False)


def _backward_hard_sigmoid(rc, attrs, og, x):
    v, a = _hs_line(x, attrs)
    if x.dtype == np.float16:   # 1.9.1: the head gradient times alpha rounded to float16
        a = np.float32(np.float16(a))
    inside = (v > 0) & (v < 1)
    return rc.xp.where(inside, og * a, og.dtype.type(0)).astype(x.dtype, copy=False)


_HS_PARAMS = (Param("alpha", "float", 0.2, doc="Slope of the linear part."),
              Param("beta", "float", 0.5, doc="Offset of the linear part."))

register("hard_sigmoid", _hard_sigmoid, params=_HS_PARAMS, infer_shape=_first_shape,
         gradient=lambda F, a, ins, outs, og: [F._backward_hard_sigmoid(og[0], ins[0], **a)],
         doc="``clip(alpha * x + beta, 0, 1)`` elementwise.")

register("_backward_hard_sigmoid", _backward_hard_sigmoid, params=_HS_PARAMS,
         inputs=("ograd", "data"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         gradient=lambda F, a, ins, outs, og: [F._backward_hard_sigmoid(og[0], ins[1], **a),
                                               F.zeros_like(ins[1])],
         doc="Gradient of hard_sigmoid: alpha * ograd where 0 < alpha * x + beta < 1.")


# ---------------------------------------------------------------------------------------------
# cumsum (_np_cumsum)


def _cumsum_axis(opname, axis, ndim):
    if axis is None:
        return None
    if not -ndim <= axis < max(ndim, 1):
        raise MXNetError(f"{opname}: axis {axis} is out of range for an array of ndim {ndim}")
    return axis % max(ndim, 1)


def _cumsum_dtype(attrs, in_dtype):
    if attrs["dtype"] is not None:
        return dtype_np(attrs["dtype"])
    in_dtype = np.dtype(in_dtype)
    return np.dtype(np.int64) if in_dtype == np.bool_ else in_dtype


def _cumsum(rc, attrs, a):
    axis = _cumsum_axis("cumsum", attrs["axis"], a.ndim)
    dt = _cumsum_dtype(attrs, a.dtype)
    with np.errstate(all="ignore"):   # overflow to inf, nan cast to int: silent, as 1.9.1
        if axis is None:
            return rc.xp.cumsum(a.reshape(-1), dtype=dt)
        return rc.xp.cumsum(a, axis=axis, dtype=dt)


def _backward_cumsum(rc, attrs, og, a):
    xp = rc.xp
    axis = _cumsum_axis("cumsum", attrs["axis"], a.ndim)
    g = og.reshape(-1) if axis is None else og
    ax = 0 if axis is None else axis
    rev = xp.flip(xp.cumsum(xp.flip(g, axis=ax), axis=ax, dtype=og.dtype), axis=ax)
    return rev.reshape(a.shape).astype(a.dtype, copy=False)


def _cumsum_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    if attrs["axis"] is None:
        return ins, [(None if None in d else _prod(d),)], []
    _cumsum_axis("cumsum", attrs["axis"], len(d))
    return ins, [tuple(d)], []


_CUMSUM_PARAMS = (
    Param("axis", "int", None, doc="Axis to sum along; None sums the flattened array."),
    Param("dtype", "dtype", None, choices=("float16", "float32", "float64", "int32", "int64",
                                           "int8"),
          doc="Output (and accumulator) dtype; default: the input's (bool becomes int64)."),
)

register("_np_cumsum", _cumsum, params=_CUMSUM_PARAMS, inputs=("a",), aliases=("cumsum",),
         infer_shape=_cumsum_shape,
         infer_type=lambda a, i, o: (i, [None if i[0] is None else _cumsum_dtype(a, i[0])], []),
         gradient=lambda F, a, ins, outs, og: [F._backward_np_cumsum(og[0], ins[0], **a)],
         doc="Cumulative sum along ``axis`` (of the flattened array when axis is None).")

register("_backward_np_cumsum", _backward_cumsum, params=_CUMSUM_PARAMS,
         inputs=("ograd", "a"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         gradient=lambda F, a, ins, outs, og: [F._np_cumsum(og[0], **a), F.zeros_like(ins[1])],
         doc="Gradient of cumsum: the reversed cumulative sum, shaped like the input.")


# ---------------------------------------------------------------------------------------------
# moments


def _moments_axes(axes, ndim):
    if not axes:
        raise MXNetError("moments: axes is empty; 1.9.1 does not compute global moments "
                         f"implicitly, pass every axis (e.g. axes={tuple(range(ndim))})")
    out = set()
    for ax in axes:
        if ax is None or not -ndim <= ax < ndim:
            raise MXNetError(f"moments: axis {ax} in axes={tuple(axes)} is out of range for "
                             f"data of ndim {ndim}")
        out.add(ax % ndim)
    return tuple(sorted(out))


def _moments_shapes(attrs, dshape):
    axes = _moments_axes(attrs["axes"], len(dshape))
    kept = tuple(1 if i in axes else s for i, s in enumerate(dshape))
    if attrs["keepdims"]:
        return axes, kept, kept
    dropped = tuple(s for i, s in enumerate(dshape) if i not in axes)
    return axes, kept, dropped or (1,)


def _moments(rc, attrs, x):
    xp = rc.xp
    axes, kept, oshape = _moments_shapes(attrs, x.shape)
    n = _prod(x.shape[i] for i in axes)
    if x.dtype == np.bool_:
        raise MXNetError(f"moments: boolean input is not supported (1.9.1 has no bool kernel; "
                         f"input shape {tuple(x.shape)}); cast it first")
    if x.dtype.kind in "iu":
        # integer data as 1.9.1: sums, deviations and squares wrap in the input dtype, the
        # count is cast to it too, and the divisions are C integer divisions
        nc = int(np.array(n).astype(x.dtype))
        if nc == 0:
            raise MXNetError(f"moments: the reduced element count {n} is 0 in {x.dtype}; "
                             f"integer division by zero (input shape {tuple(x.shape)})")
        mean = _c_div(xp, x.sum(axis=axes, keepdims=True, dtype=x.dtype), nc)
        d = x - mean
        var = _c_div(xp, (d * d).sum(axis=axes, keepdims=True, dtype=x.dtype), nc)
    elif x.dtype == np.float16 and xp is np:
        # 1.9.1: compensated float32 sums rounded to float16, divided by the float16 count;
        # the squared deviations are float16 products
        from .reduce import _f16_sum
        cnt = np.float16(n)
        with np.errstate(all="ignore"):
            mean = _f16_sum(x, axes, True, acc=np.float32).astype(np.float16) / cnt
            d = x - mean
            var = _f16_sum(d * d, axes, True, acc=np.float32).astype(np.float16) / cnt
    elif x.dtype == np.float32:
        # 1.9.1: each sum accumulated in float64, rounded to float32, then divided by the
        # float32 count (bit-exact; NumPy's float64 pairwise sum of float32 data is exact
        # enough that its rounding matches 1.9.1's)
        cnt = np.float32(n)
        mean = x.sum(axis=axes, keepdims=True, dtype=np.float64).astype(np.float32) / cnt
        d = x - mean
        var = (d * d).sum(axis=axes, keepdims=True, dtype=np.float64).astype(np.float32) / cnt
    else:
        xa = x.astype(_acc(x.dtype), copy=False)
        mean = xa.mean(axis=axes, keepdims=True)
        d = xa - mean
        var = (d * d).mean(axis=axes, keepdims=True)
    return (mean.astype(x.dtype).reshape(oshape), var.astype(x.dtype).reshape(oshape))


def _backward_moments(rc, attrs, og_mean, og_var, x, mean):
    axes, kept, _ = _moments_shapes(attrs, x.shape)
    n = _prod(x.shape[i] for i in axes)
    acc = _acc(x.dtype)
    m = mean.astype(acc, copy=False).reshape(kept)
    gm = og_mean.astype(acc, copy=False).reshape(kept)
    gv = og_var.astype(acc, copy=False).reshape(kept)
    if x.dtype == np.float32:
        # 1.9.1's steps in float32: 2 * og_var * (x - mean) / n + og_mean / n
        cnt = np.float32(n)
        dx = x - m
        dx *= gv * np.float32(2)
        dx /= cnt
        dx += gm / cnt
        return dx
    dx = x.astype(acc) - m
    dx *= gv * (2.0 / n)
    dx += gm / n
    return dx.astype(x.dtype, copy=False)


def _moments_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    _, _, oshape = _moments_shapes(attrs, d)
    return ins, [oshape, oshape], []


_MOMENTS_PARAMS = (
    Param("axes", "shape", None, doc="Axes to compute the mean and variance over (required)."),
    Param("keepdims", "bool", False, doc="Keep the reduced axes with size 1."),
)

register("moments", _moments, params=_MOMENTS_PARAMS, num_outputs=2, infer_shape=_moments_shape,
         infer_type=lambda a, i, o: (i, [i[0], i[0]], []),
         gradient=lambda F, a, ins, outs, og: [
             F._backward_moments(og[0], og[1], ins[0], outs[0], **a)],
         doc="Mean and (biased) variance of ``data`` over ``axes``: two outputs.")

register("_backward_moments", _backward_moments, params=_MOMENTS_PARAMS,
         inputs=("ograd_mean", "ograd_var", "data", "mean"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[2]], []),
         infer_type=lambda a, i, o: (i, [i[2]], []),
         doc="Gradient of moments with respect to its data.")


# ---------------------------------------------------------------------------------------------
# khatri_rao


def _khatri_rao(rc, attrs, *mats):
    names = [f"args[{i}]" for i in range(len(mats))]
    for name, m in zip(names, mats):
        _check_float("khatri_rao", name, m)
        if m.ndim != 2:
            raise MXNetError(f"khatri_rao: every input must be a matrix; {name} has shape "
                             f"{tuple(m.shape)} (inputs: {_desc(*mats)})")
    _check_same_dtype("khatri_rao", names, mats)
    k = mats[0].shape[1]
    if any(m.shape[1] != k for m in mats):
        raise MXNetError(f"khatri_rao: every input must have the same number of columns "
                         f"(inputs: {_desc(*mats)})")
    out = mats[0].copy()
    for m in mats[1:]:  # one broadcast product per input matrix
        out = (out[:, None, :] * m[None, :, :]).reshape(-1, k)
    return out


def _khatri_rao_shape(attrs, ins, outs):
    if any(s is None for s in ins):
        return ins, outs, []
    rows = _prod(s[0] for s in ins) if all(s[0] is not None for s in ins) else None
    return ins, [(rows, ins[0][1])], []


register("khatri_rao", _khatri_rao, params=(Param("num_args", "int", 1),), variadic="num_args",
         infer_shape=_khatri_rao_shape, infer_type=one_dtype_type,
         doc="Column-wise Kronecker product of matrices with equal column counts: row "
             "``(i1, ..., in)`` of the result is the product of row i1 of the first matrix, "
             "..., row in of the last.")


# ---------------------------------------------------------------------------------------------
# ravel_multi_index / unravel_index


def _index_shape(opname, attrs):
    shape = attrs["shape"]
    if not shape:
        raise MXNetError(f"{opname}: the shape parameter is required and must not be empty")
    return tuple(int(s) for s in shape)


def _ravel(rc, attrs, data):
    xp = rc.xp
    shape = _index_shape("ravel_multi_index", attrs)
    if data.ndim != 2 or data.shape[0] != len(shape):
        raise MXNetError(f"ravel_multi_index: data must be 2-D with one row per dimension of "
                         f"shape={shape}, i.e. ({len(shape)}, N); got {tuple(data.shape)}")
    strides = [_prod(shape[i + 1:]) for i in range(len(shape))]
    idx = _trunc_int(xp, data)
    flat = (idx * xp.asarray(strides, dtype=np.int64)[:, None]).sum(axis=0)
    return flat.astype(data.dtype)


def _unravel(rc, attrs, data):
    xp = rc.xp
    shape = _index_shape("unravel_index", attrs)
    if 0 in shape:
        raise MXNetError(f"unravel_index: shape {shape} has a zero dimension")
    if data.ndim != 1:
        raise MXNetError(f"unravel_index: data must be a 1-D array of flat indices, got shape "
                         f"{tuple(data.shape)}")
    rest = _trunc_int(xp, data)
    coords = []
    for s in reversed(shape[1:]):  # C division: the quotient carries on, the rest stays here
        q = _c_div(xp, rest, s)
        coords.append(rest - q * s)
        rest = q
    coords.append(rest)
    return xp.stack(coords[::-1]).astype(data.dtype)


def _ravel_shape(attrs, ins, outs):
    d = ins[0]
    return ins, [None if d is None else (d[1],)], []


def _unravel_shape(attrs, ins, outs):
    d = ins[0]
    n = len(_index_shape("unravel_index", attrs))
    return ins, [None if d is None else (n, d[0])], []


def _zero_grad(F, attrs, ins, outs, og):
    return [F.zeros_like(ins[0])]


_INDEX_PARAMS = (Param("shape", "shape", None, doc="Shape of the array the indices refer to."),)

register("_ravel_multi_index", _ravel, params=_INDEX_PARAMS, aliases=("ravel_multi_index",),
         infer_shape=_ravel_shape, gradient=_zero_grad,
         doc="Flat indices of the columns of ``data`` (one row per dimension) into ``shape``.")
register("_unravel_index", _unravel, params=_INDEX_PARAMS, aliases=("unravel_index",),
         infer_shape=_unravel_shape, gradient=_zero_grad,
         doc="Multi-indices (one row per dimension of ``shape``) of the flat indices ``data``.")


# ---------------------------------------------------------------------------------------------
# _histogram


def _hist_check(opname, attrs):
    cnt, rng = attrs["bin_cnt"], attrs["range"]
    if (cnt is None) != (rng is None):
        raise MXNetError(f"{opname}: bin_cnt and range must be given together (or neither, "
                         f"with a bins input); got bin_cnt={cnt}, range={rng}")
    if cnt is not None:
        if cnt < 1:
            raise MXNetError(f"{opname}: bin_cnt must be positive, got {cnt}")
        if len(rng) != 2:
            raise MXNetError(f"{opname}: range must be a pair (low, high), got {rng}")
        if rng[0] > rng[1]:
            raise MXNetError(f"{opname}: range {rng} must have low <= high")


def _histogram(rc, attrs, data, bins=None):
    xp = rc.xp
    x = data.reshape(-1)
    if bins is None:
        n = attrs["bin_cnt"]
        lo, hi = (float(v) for v in attrs["range"])
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = (lo + xp.arange(n + 1, dtype=np.float64) * ((hi - lo) / n)).astype(data.dtype)
        xf = x.astype(np.float64)
        valid = (xf >= lo) & (xf <= hi)
        t = ((xf - lo) * n / (hi - lo)).astype(np.int64)
        t = xp.clip(t, 0, n - 1)
        t -= (x < edges[t]).astype(np.int64)
        t = xp.clip(t, 0, n - 1)
        t += ((x >= edges[t + 1]) & (t != n - 1)).astype(np.int64)
    else:
        if bins.ndim != 1 or bins.shape[0] < 2:
            raise MXNetError(f"_histogram: bins must be a 1-D array of at least two edges, got "
                             f"shape {tuple(bins.shape)}")
        if bins.dtype != data.dtype:
            raise MXNetError(f"_histogram: bins has dtype {bins.dtype} but data has "
                             f"{data.dtype}; they must match")
        n = bins.shape[0] - 1
        edges = bins.copy()
        valid = (x >= bins[0]) & (x <= bins[-1])
        t = xp.searchsorted(bins[1:-1], x, side="right")
    counts = xp.bincount(t[valid], minlength=n).astype(np.int64)
    return counts, edges


def _histogram_shape(attrs, ins, outs):
    if attrs["bin_cnt"] is not None:
        n = attrs["bin_cnt"]
        return ins, [(n,), (n + 1,)], []
    b = ins[1] if len(ins) > 1 else None
    if b is None:
        return ins, outs, []
    return ins, [(b[0] - 1,), tuple(b)], []


register("_histogram", _histogram,
         params=(Param("bin_cnt", "int", None, doc="Number of equal bins over range."),
                 Param("range", "tuple_float", None, doc="(low, high) of the equal bins.")),
         inputs=lambda a: ["data"] if a["bin_cnt"] is not None else ["data", "bins"],
         num_outputs=2, attr_check=_hist_check, infer_shape=_histogram_shape,
         infer_type=lambda a, i, o: (i, [np.dtype(np.int64), i[0]], []),
         doc="Histogram of the flattened data: (int64 counts, bin edges). Either bin_cnt equal "
             "bins over range, or the edges given as the bins input.")


# ---------------------------------------------------------------------------------------------
# choose_element_0index, fill_element_0index, _onehot_encode

_alias("pick", "choose_element_0index")


def _fill_element_0index(rc, attrs, lhs, mhs, rhs):
    xp = rc.xp
    if lhs.ndim != 2 or mhs.ndim != 1 or rhs.ndim != 1:
        raise MXNetError(f"fill_element_0index: expects a matrix lhs, a vector of values mhs "
                         f"and a vector of column indices rhs; got {_desc(lhs, mhs, rhs)}")
    if not lhs.shape[0] == mhs.shape[0] == rhs.shape[0]:
        raise MXNetError(f"fill_element_0index: lhs rows, mhs and rhs must have the same "
                         f"length; got {_desc(lhs, mhs, rhs)}")
    _check_same_dtype("fill_element_0index", ["lhs", "mhs"], [lhs, mhs])
    out = lhs.copy()
    idx = _trunc_int(xp, rhs)
    ok = (idx >= 0) & (idx < lhs.shape[1])
    rows = xp.arange(lhs.shape[0])[ok]
    out[rows, idx[ok]] = mhs[ok]
    return out


register("fill_element_0index", _fill_element_0index, inputs=("lhs", "mhs", "rhs"),
         infer_shape=lambda a, i, o: (i, [i[0]], []),
         infer_type=lambda a, i, o: (i, [i[0]], []),
         doc="A copy of matrix ``lhs`` with ``lhs[i, rhs[i]] = mhs[i]`` for every row i "
             "(out-of-range column indices are skipped).")


def _onehot_encode(rc, attrs, indices, proto):
    xp = rc.xp
    if indices.ndim != 1 or proto.ndim != 2:
        raise MXNetError(f"_onehot_encode: needs 1-D indices and a 2-D output; got "
                         f"{_desc(indices, proto)}")
    if indices.shape[0] != proto.shape[0]:
        raise MXNetError(f"_onehot_encode: {indices.shape[0]} indices for an output of "
                         f"{proto.shape[0]} rows (inputs: {_desc(indices, proto)})")
    out = xp.zeros(proto.shape, dtype=proto.dtype)
    idx = _trunc_int(xp, indices)
    ok = (idx >= 0) & (idx < proto.shape[1])
    out[xp.arange(proto.shape[0])[ok], idx[ok]] = 1
    return out


register("_onehot_encode", _onehot_encode, inputs=("lhs", "rhs"),
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         doc="One-hot rows of the indices ``lhs``, shaped like ``rhs`` (the legacy "
             "onehot_encode; use one_hot).")


# ---------------------------------------------------------------------------------------------
# reset_arrays, all_finite, multi_all_finite


def _reset_arrays(rc, attrs, *arrays):
    for i, a in enumerate(arrays):
        _check_float("reset_arrays", f"data[{i}]", a)
    for a in arrays:
        a[...] = 0  # in place, as 1.9.1: the op has no outputs
    return ()


register("reset_arrays", _reset_arrays, params=(Param("num_arrays", "int"),),
         variadic="num_arrays", num_outputs=0,
         infer_shape=lambda a, i, o: (i, [], []), infer_type=lambda a, i, o: (i, [], []),
         doc="Set every input array to zero in place; returns nothing.")


def _finite_flag(rc, opname, arrays):
    xp = rc.xp
    ok = True
    for i, a in enumerate(arrays):
        _check_float(opname, f"data[{i}]" if len(arrays) > 1 else "data", a)
        ok = ok and bool(xp.isfinite(a).all())
    return xp.full((1,), 1.0 if ok else 0.0, dtype=np.float32)


def _all_finite(rc, attrs, data):
    return _finite_flag(rc, "all_finite", [data])


def _multi_all_finite(rc, attrs, *arrays):
    _check_same_dtype("multi_all_finite", [f"data[{i}]" for i in range(len(arrays))], arrays)
    return _finite_flag(rc, "multi_all_finite", arrays)


_INIT_OUTPUT = Param("init_output", "bool", True, doc="Initialise the output to 1 first.")

register("all_finite", _all_finite, params=(_INIT_OUTPUT,),
         infer_shape=lambda a, i, o: (i, [(1,)], []), infer_type=_out_dtype(_F32),
         doc="float32 array [1.0] when every element is finite, [0.0] otherwise.")
register("multi_all_finite", _multi_all_finite,
         params=(Param("num_arrays", "int", 1), _INIT_OUTPUT), variadic="num_arrays",
         inputs=lambda a: [f"array_{i}" for i in range(a["num_arrays"])],  # 1.9.1's names
         infer_shape=lambda a, i, o: (i, [(1,)], []), infer_type=_out_dtype(_F32),
         doc="float32 array [1.0] when every element of every input is finite, [0.0] otherwise.")


# ---------------------------------------------------------------------------------------------
# cast_storage, amp_cast, amp_multicast


def _cast_storage(rc, attrs, data):
    # The registered op sees dense arrays only, so every target stype is a dense copy here;
    # an executor stores the result in ``stype`` (mxnet/executor/stype.py) and
    # mx.nd.cast_storage builds the sparse arrays (mxnet/ndarray/sparse.py).
    return data.copy()


register("cast_storage", _cast_storage,
         params=(Param("stype", "str", choices=("csr", "default", "row_sparse"),
                       doc="Output storage type."),),
         infer_shape=_first_shape,
         gradient=lambda F, a, ins, outs, og: [F.cast_storage(og[0], stype="default")],
         doc="Convert between storage types: mx.nd.cast_storage returns CSRNDArray / "
             "RowSparseNDArray, and a bound symbol's result has storage type ``stype``.")

_AMP_CASTABLE = tuple(t for t in (_F16, _F32, _BF16) if t is not None)


def _pairwise_shape(ins, outs):
    """Input i and output i have one shape, known from either side (parameters whose shape
    only the consumer of the cast knows, as in Gluon's deferred initialisation)."""
    def merge(a, b):
        if a is None or b is None or len(a) != len(b):
            return b if a is None else a
        return tuple(y if x is None or x == 0 else x for x, y in zip(a, b))
    pairs = [merge(i, o) for i, o in zip(ins, outs)]
    return pairs, list(pairs), []


def _amp_cast_dtype(attrs, in_dtype):
    in_dtype = np.dtype(in_dtype)
    return dtype_np(attrs["dtype"]) if in_dtype in _AMP_CASTABLE else in_dtype


def _amp_cast(rc, attrs, data):
    with errstate(over="ignore", invalid="ignore"):  # overflow gives inf, as a C cast
        return data.astype(_amp_cast_dtype(attrs, data.dtype))


def _backward_amp_cast(rc, attrs, og, data):
    return og.astype(data.dtype)


register("amp_cast", _amp_cast,
         params=(Param("dtype", "dtype", choices=("bfloat16", "float16", "float32", "float64",
                                                  "int32", "int64", "int8", "uint8"),
                       doc="Target dtype (float16/float32/bfloat16 data only)."),),
         infer_shape=lambda a, i, o: _pairwise_shape(i, o),
         infer_type=lambda a, i, o: (i, [None if i[0] is None else _amp_cast_dtype(a, i[0])], []),
         gradient=lambda F, a, ins, outs, og: [F._backward_amp_cast(og[0], ins[0])],
         doc="Cast float16/float32/bfloat16 data to ``dtype``; other dtypes pass unchanged.")

register("_backward_amp_cast", _backward_amp_cast, inputs=("ograd", "data"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         gradient=lambda F, a, ins, outs, og: [F._backward_amp_cast(og[0], ins[0]),
                                               F.zeros_like(ins[1])],
         doc="The output gradient cast back to the dtype of ``data``.")


def _multicast_types(attrs, types):
    if attrs["cast_narrow"]:
        target = _F16 if any(t == _F16 for t in types) else _F32
    else:
        target = _F32 if any(t == _F32 for t in types) else types[0]
    return [target if t in (_F16, _F32) else t for t in types]


def _amp_multicast(rc, attrs, *arrays):
    if len(arrays) != attrs["num_outputs"]:
        raise MXNetError(f"amp_multicast: num_outputs={attrs['num_outputs']} but "
                         f"{len(arrays)} arrays were given")
    types = _multicast_types(attrs, [a.dtype for a in arrays])
    with errstate(over="ignore", invalid="ignore"):
        return tuple(a.astype(t) for a, t in zip(arrays, types))


def _multicast_type(attrs, ins, outs):
    if any(t is None for t in ins):
        return ins, outs, []
    return ins, _multicast_types(attrs, [np.dtype(t) for t in ins]), []


register("amp_multicast", _amp_multicast,
         params=(Param("num_outputs", "int", doc="Number of input/output pairs."),
                 Param("cast_narrow", "bool", False, doc="Cast to the narrowest float type.")),
         variadic="num_outputs",
         inputs=lambda a: [f"data_{i}" for i in range(a["num_outputs"])],  # 1.9.1's names
         num_outputs=lambda a: a["num_outputs"],
         infer_shape=lambda a, i, o: _pairwise_shape(i, o), infer_type=_multicast_type,
         gradient=lambda F, a, ins, outs, og: [F._backward_amp_cast(g, x)
                                               for g, x in zip(og, ins)],
         doc="Cast the float16/float32 inputs to one float type (the widest, or with "
             "cast_narrow the narrowest); other inputs pass unchanged.")


# ---------------------------------------------------------------------------------------------
# im2col / col2im


def _spatial(opname, attrs, name, n, default, minimum):
    v = tuple(attrs[name])
    if not v:
        return (default,) * n
    if len(v) != n:
        raise MXNetError(f"{opname}: {name}={v} must have as many entries as "
                         f"kernel={tuple(attrs['kernel'])}")
    if any(x is None or x < minimum for x in v):
        raise MXNetError(f"{opname}: every entry of {name}={v} must be >= {minimum}")
    return v


class _Blocks:
    """Geometry of sliding blocks over ``spatial`` (channel-first data)."""

    def __init__(self, opname, attrs, spatial):
        kernel = tuple(attrs["kernel"])
        n = len(kernel)
        if not 1 <= n <= 3 or any(k is None or k < 1 for k in kernel):
            raise MXNetError(f"{opname}: kernel={kernel} must have 1, 2 or 3 positive entries")
        self.kernel = kernel
        self.stride = _spatial(opname, attrs, "stride", n, 1, 1)
        self.dilate = _spatial(opname, attrs, "dilate", n, 1, 1)
        self.pad = _spatial(opname, attrs, "pad", n, 0, 0)
        spatial = tuple(spatial)
        if len(spatial) != n:
            raise MXNetError(f"{opname}: a {n}-D kernel {kernel} needs {n} spatial dimensions, "
                             f"got {spatial}")
        self.spatial = spatial
        out = []
        for i, (s, k, st, d, p) in enumerate(zip(spatial, kernel, self.stride, self.dilate,
                                                 self.pad)):
            dk = d * (k - 1) + 1
            if s is not None and dk > s + 2 * p:
                raise MXNetError(f"{opname}: the dilated kernel ({dk}) exceeds the padded input "
                                 f"({s} + 2*{p}) along spatial dim {i}")
            out.append(None if s is None else (s + 2 * p - dk) // st + 1)
        self.out = tuple(out)
        self.taps = _prod(kernel)

    def tap_slices(self):
        """(kernel offset, slices of the padded input that this tap reads) per tap."""
        for off in itertools.product(*(range(k) for k in self.kernel)):
            yield off, tuple(slice(o * d, o * d + (n - 1) * s + 1, s)
                             for o, d, n, s in zip(off, self.dilate, self.out, self.stride))


_LEAD = (slice(None), slice(None))


def _im2col_kernel(xp, x, g):
    n, c = x.shape[:2]
    xpad = xp.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in g.pad)) if any(g.pad) else x
    cols = xp.empty((n, c) + g.kernel + g.out, dtype=x.dtype)
    for off, sl in g.tap_slices():  # one strided copy per kernel tap, for the whole batch
        cols[_LEAD + off] = xpad[_LEAD + sl]
    return cols.reshape(n, c * g.taps, _prod(g.out))


def _col2im_kernel(xp, cols, g, dtype):
    n, c = cols.shape[0], cols.shape[1] // g.taps
    acc = _acc(dtype)
    cols = cols.reshape((n, c) + g.kernel + g.out).astype(acc, copy=False)
    padded = tuple(s + 2 * p for s, p in zip(g.spatial, g.pad))
    img = xp.zeros((n, c) + padded, dtype=acc)
    for off, sl in g.tap_slices():  # slice-adds: overlapping blocks accumulate
        img[_LEAD + sl] += cols[_LEAD + off]
    crop = tuple(slice(p, p + s) for p, s in zip(g.pad, g.spatial))
    return img[_LEAD + crop].astype(dtype)


def _check_rank(opname, x, g_rank):
    if x.ndim != g_rank + 2:
        raise MXNetError(f"{opname}: data of shape {tuple(x.shape)} must be {g_rank + 2}-D "
                         f"(N, C, spatial...) for a {g_rank}-D kernel")


def _im2col(rc, attrs, x):
    _check_float("im2col", "data", x)
    _check_rank("im2col", x, len(attrs["kernel"]))
    return _im2col_kernel(rc.xp, x, _Blocks("im2col", attrs, x.shape[2:]))


def _col2im_blocks(opname, attrs, cshape):
    size = tuple(attrs["output_size"])
    if len(size) != len(attrs["kernel"]):
        raise MXNetError(f"{opname}: output_size={size} must have as many entries as "
                         f"kernel={tuple(attrs['kernel'])}")
    g = _Blocks(opname, attrs, size)
    if len(cshape) != 3:
        raise MXNetError(f"{opname}: data must be 3-D (N, C * prod(kernel), blocks), got "
                         f"{tuple(cshape)}")
    if cshape[1] is not None and cshape[1] % g.taps:
        raise MXNetError(f"{opname}: data's second dimension ({cshape[1]}) must be a multiple "
                         f"of the kernel size {g.taps} (kernel={g.kernel})")
    if cshape[2] is not None and cshape[2] != _prod(g.out):
        raise MXNetError(f"{opname}: data has {cshape[2]} blocks but output_size={size} with "
                         f"kernel={g.kernel}, stride={g.stride}, dilate={g.dilate}, "
                         f"pad={g.pad} gives {g.out} = {_prod(g.out)} blocks")
    return g


def _col2im(rc, attrs, cols):
    _check_float("col2im", "data", cols)
    g = _col2im_blocks("col2im", attrs, cols.shape)
    return _col2im_kernel(rc.xp, cols, g, cols.dtype)


def _backward_im2col(rc, attrs, og, x):
    g = _Blocks("im2col", attrs, x.shape[2:])
    return _col2im_kernel(rc.xp, og, g, x.dtype)


def _im2col_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    if len(d) != len(attrs["kernel"]) + 2:
        raise MXNetError(f"im2col: data of shape {tuple(d)} must be "
                         f"{len(attrs['kernel']) + 2}-D for kernel={tuple(attrs['kernel'])}")
    g = _Blocks("im2col", attrs, d[2:])
    c = None if d[1] is None else d[1] * g.taps
    blocks = None if None in g.out else _prod(g.out)
    return ins, [(d[0], c, blocks)], []


def _col2im_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    g = _col2im_blocks("col2im", attrs, d)
    c = None if d[1] is None else d[1] // g.taps
    return ins, [(d[0], c) + tuple(attrs["output_size"])], []


_BLOCK_PARAMS = (
    Param("kernel", "shape", doc="Block size: (w,), (h, w) or (d, h, w)."),
    Param("stride", "shape", (), doc="Step between blocks per spatial dim (default 1)."),
    Param("dilate", "shape", (), doc="Spacing of kernel taps per spatial dim (default 1)."),
    Param("pad", "shape", (), doc="Zero padding on both sides per spatial dim (default 0)."),
)


def _block_kw(attrs):
    return {k: attrs[k] for k in ("kernel", "stride", "dilate", "pad")}


register("im2col", _im2col, params=_BLOCK_PARAMS, infer_shape=_im2col_shape,
         gradient=lambda F, a, ins, outs, og: [F._backward_im2col(og[0], ins[0], **a)],
         doc="Sliding blocks of (N, C, *spatial) data as columns: (N, C * prod(kernel), "
             "number of blocks), channel-major then kernel offset.")

register("_backward_im2col", _backward_im2col, params=_BLOCK_PARAMS, inputs=("ograd", "data"),
         nd_hidden=True, infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         gradient=lambda F, a, ins, outs, og: [F.im2col(og[0], **a), F.zeros_like(ins[1])],
         doc="Gradient of im2col: col2im of the output gradient to the data's shape.")

register("col2im", _col2im,
         params=(Param("output_size", "shape", doc="Spatial shape of the image."),)
         + _BLOCK_PARAMS, infer_shape=_col2im_shape,
         gradient=lambda F, a, ins, outs, og: [F.im2col(og[0], **_block_kw(a))],
         doc="Sum sliding blocks (the columns of im2col) back into an (N, C, *output_size) "
             "image; overlapping blocks add up.")


# ---------------------------------------------------------------------------------------------
# Correlation (FlowNet)


class _CorrGeom:
    def __init__(self, attrs, shape):
        k, md = attrs["kernel_size"], attrs["max_displacement"]
        s1, s2, pad = attrs["stride1"], attrs["stride2"], attrs["pad_size"]
        if k < 1 or k % 2 == 0:
            raise MXNetError(f"Correlation: kernel_size must be a positive odd number, got {k}")
        if s1 < 1 or s2 < 1 or md < 0 or pad < 0:
            raise MXNetError(f"Correlation: stride1={s1} and stride2={s2} must be positive, "
                             f"max_displacement={md} and pad_size={pad} non-negative")
        if len(shape) != 4:
            raise MXNetError(f"Correlation: data must be 4-D (N, C, H, W), got {tuple(shape)}")
        n, c, h, w = shape
        self.k, self.md, self.s1, self.s2, self.pad = k, md, s1, s2, pad
        border = md + (k - 1) // 2
        self.hp, self.wp = h + 2 * pad, w + 2 * pad
        self.th = math.ceil((self.hp - 2 * border) / s1)
        self.tw = math.ceil((self.wp - 2 * border) / s1)
        if self.th < 1 or self.tw < 1:
            raise MXNetError(f"Correlation: kernel_size={k} and max_displacement={md} do not fit "
                             f"in data of shape {tuple(shape)} padded by {pad}")
        self.radius = md // s2
        self.grid = 2 * self.radius + 1
        self.sumelems = k * k * c
        # region of the padded first input that any output reads
        self.y0, self.x0 = md, md
        self.ylen = (self.th - 1) * s1 + k
        self.xlen = (self.tw - 1) * s1 + k

    def displacements(self):
        for tc in range(self.grid * self.grid):
            dy = (tc // self.grid - self.radius) * self.s2
            dx = (tc % self.grid - self.radius) * self.s2
            yield tc, dy, dx

    def region(self, dy=0, dx=0):
        return (slice(None), slice(None), slice(self.y0 + dy, self.y0 + dy + self.ylen),
                slice(self.x0 + dx, self.x0 + dx + self.xlen))

    def taps(self):
        """Slices of a region map that the k x k window at each output position reads."""
        for h in range(self.k):
            for w in range(self.k):
                yield (slice(None), slice(h, h + (self.th - 1) * self.s1 + 1, self.s1),
                       slice(w, w + (self.tw - 1) * self.s1 + 1, self.s1))


def _corr_inputs(a, b):
    _check_float("Correlation", "data1", a)
    _check_same_dtype("Correlation", ["data1", "data2"], [a, b])
    if a.shape != b.shape:
        raise MXNetError(f"Correlation: data1 and data2 must have the same shape, got "
                         f"{_desc(a, b)}")


def _padded(xp, x, pad, dtype):
    x = x.astype(dtype, copy=False)
    return xp.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad))) if pad else x


def _correlation(rc, attrs, a, b):
    xp = rc.xp
    _corr_inputs(a, b)
    g = _CorrGeom(attrs, a.shape)
    acc = _acc(a.dtype)
    pa, pb = _padded(xp, a, g.pad, acc), _padded(xp, b, g.pad, acc)
    ra = pa[g.region()]
    out = xp.empty((a.shape[0], g.grid * g.grid, g.th, g.tw), dtype=acc)
    # kernel_size 1: einsum adds the channels in turn already (channels are not the innermost
    # axis), which is 1.9.1's order
    seq = a.dtype in (np.float32, np.float64) and g.k > 1 and g.sumelems <= _CORR_SEQ_MAX \
        and out.size * g.sumelems <= _CORR_ORDERED_MAX
    for tc, dy, dx in g.displacements():  # one pass over the data per displacement
        rb = pb[g.region(dy, dx)]
        if seq:   # 1.9.1's order: taps row-major, channels innermost, added to 0 in turn
            box = xp.zeros((a.shape[0], g.th, g.tw), dtype=acc)
            for sl in g.taps():
                ta, tb = ra[(slice(None),) * 2 + sl[1:]], rb[(slice(None),) * 2 + sl[1:]]
                for c in range(a.shape[1]):
                    box += (ta[:, c] * tb[:, c] if attrs["is_multiply"]
                            else xp.abs(ta[:, c] - tb[:, c]))
            out[:, tc] = box / g.sumelems
            continue
        if attrs["is_multiply"]:
            m = xp.einsum("nchw,nchw->nhw", ra, rb)
        else:
            m = xp.abs(ra - rb).sum(axis=1)
        box = xp.zeros((a.shape[0], g.th, g.tw), dtype=acc)
        for sl in g.taps():  # k x k window sum at the strided output positions
            box += m[sl]
        out[:, tc] = box / g.sumelems
    tmp1 = xp.ascontiguousarray(pa.transpose(0, 2, 3, 1)).astype(a.dtype, copy=False)
    tmp2 = xp.ascontiguousarray(pb.transpose(0, 2, 3, 1)).astype(a.dtype, copy=False)
    return out.astype(a.dtype, copy=False), tmp1, tmp2


# Correlation in 1.9.1's summation order: the forward adds k * k * channels products in turn,
# the backward each (og * other) / sumelems term in the order of its output position,
# displacement and tap. For kernel_size 1 this costs about what the tap-summed code did (the
# backward of (2, 48, 24, 32), max_displacement 4: 8.4-12.7 ms before, 9.3-11.3 ms after on a
# busy machine; (2, 64, 24, 32), max_displacement 8: 39-48 ms, 45 ms). Larger kernels take
# k * k (backward) or k * k * channels (forward) passes instead of one, 6-9x the time: they
# follow 1.9.1's order only up to _CORR_ORDERED_MAX products (and _CORR_SEQ_MAX per forward
# output).
_CORR_SEQ_MAX = 32
_CORR_ORDERED_MAX = 1 << 16


def _corr_grad_ordered(xp, g, is_multiply, og, pa, pb, ga, gb):
    """Add 1.9.1's gradient terms into ga / gb in its order. 1.9.1 loops over output rows,
    columns, displacements and taps; a pixel of data1 thus gets its terms by tap descending
    (a later output row reads it at a smaller tap offset), then displacement; a pixel of
    data2 by (displacement + tap) descending, then displacement and tap."""
    trips = [(tc, dy, dx, h, w) for tc, dy, dx in g.displacements()
             for h in range(g.k) for w in range(g.k)]
    se = og.dtype.type(g.sumelems)
    pow2 = math.frexp(g.sumelems)[0] == 0.5   # dividing by 2^n commutes with the product
    if pow2:
        og = og / se

    def sl(y, x):
        return (slice(None), slice(None), slice(y, y + (g.th - 1) * g.s1 + 1, g.s1),
                slice(x, x + (g.tw - 1) * g.s1 + 1, g.s1))

    for target in (0, 1):
        key = ((lambda t: (-t[3], -t[4], t[0])) if target == 0 else
               (lambda t: (-(t[1] + t[3]), -(t[2] + t[4]), t[0], t[3], t[4])))
        for tc, dy, dx, h, w in sorted(trips, key=key):
            s1 = sl(g.y0 + h, g.x0 + w)
            s2 = sl(g.y0 + dy + h, g.x0 + dx + w)
            o = og[:, tc][:, None]
            if is_multiply:
                term = o * (pb[s2] if target == 0 else pa[s1])
            else:
                term = xp.where(pa[s1] >= pb[s2], o, -o)
            if not pow2:
                term /= se
            if target == 0:
                ga[s1] += term
            elif is_multiply:
                gb[s2] += term
            else:
                gb[s2] -= term


def _backward_correlation(rc, attrs, og, a, b):
    xp = rc.xp
    g = _CorrGeom(attrs, a.shape)
    acc = _acc(a.dtype)
    pa, pb = _padded(xp, a, g.pad, acc), _padded(xp, b, g.pad, acc)
    ga, gb = xp.zeros_like(pa), xp.zeros_like(pb)
    ra = pa[g.region()]
    if a.dtype in (np.float32, np.float64) and (
            g.k == 1 or og.size * a.shape[1] * g.k * g.k <= _CORR_ORDERED_MAX):
        _corr_grad_ordered(xp, g, attrs["is_multiply"], og, pa, pb, ga, gb)
        crop = (slice(None), slice(None), slice(g.pad, g.hp - g.pad), slice(g.pad, g.wp - g.pad))
        return ga[crop], gb[crop]
    og = og.astype(acc, copy=False) / g.sumelems
    for tc, dy, dx in g.displacements():
        spread = xp.zeros((a.shape[0], g.ylen, g.xlen), dtype=acc)
        for sl in g.taps():  # every region position collects the outputs whose window holds it
            spread[sl] += og[:, tc]
        spread = spread[:, None]
        rb = pb[g.region(dy, dx)]
        if attrs["is_multiply"]:
            ga[g.region()] += spread * rb
            gb[g.region(dy, dx)] += spread * ra
        else:
            sign = xp.where(ra >= rb, acc.type(1), acc.type(-1))
            sign *= spread
            ga[g.region()] += sign
            gb[g.region(dy, dx)] -= sign
    crop = (slice(None), slice(None), slice(g.pad, g.hp - g.pad), slice(g.pad, g.wp - g.pad))
    return ga[crop].astype(a.dtype), gb[crop].astype(a.dtype)


def _corr_shape(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else ins[1]
    if d is None or None in d:
        return ins, outs, []
    g = _CorrGeom(attrs, d)
    d = tuple(d)
    tmp = (d[0], g.hp, g.wp, d[1])
    return [d, d], [(d[0], g.grid * g.grid, g.th, g.tw), tmp, tmp], []


def _corr_type(attrs, ins, outs):
    t = ins[0] if ins[0] is not None else ins[1]
    return [t, t], [t, t, t], []


_CORR_PARAMS = (
    Param("kernel_size", "int", 1, doc="Side of the (odd) patch compared at each position."),
    Param("max_displacement", "int", 1, doc="Largest displacement searched."),
    Param("stride1", "int", 1, doc="Step between output positions in data1."),
    Param("stride2", "int", 1, doc="Step between displacements in data2."),
    Param("pad_size", "int", 0, doc="Zero padding of both inputs."),
    Param("is_multiply", "bool", True, doc="Multiply patches (True) or sum |differences|."),
)

register("Correlation", _correlation, params=_CORR_PARAMS, inputs=("data1", "data2"),
         num_outputs=3, num_visible_outputs=1, infer_shape=_corr_shape,
         infer_type=_corr_type,
         gradient=lambda F, a, ins, outs, og: list(
             F._backward_Correlation(og[0], ins[0], ins[1], **a)),
         doc="FlowNet correlation: for every displacement within max_displacement (step "
             "stride2), the mean over a kernel_size patch and the channels of data1 * data2 "
             "(or |data1 - data2|) at output positions spaced stride1.")

register("_backward_Correlation", _backward_correlation, params=_CORR_PARAMS,
         inputs=("ograd", "data1", "data2"), num_outputs=2, nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1], i[2]], []),
         infer_type=lambda a, i, o: (i, [i[1], i[2]], []),
         doc="Gradients of Correlation with respect to data1 and data2.")


# ---------------------------------------------------------------------------------------------
# IdentityAttachKLSparseReg


def _kl_identity(rc, attrs, data, moving_avg):
    return data.copy()


def _backward_kl_sparse(rc, attrs, og, data, moving_avg):
    if data.ndim != 2 or data.shape[1] != moving_avg.shape[0]:
        raise MXNetError(f"IdentityAttachKLSparseReg: the backward pass needs 2-D data "
                         f"(batch, features) matching moving_avg {tuple(moving_avg.shape)}; got "
                         f"data {tuple(data.shape)} (1.9.1 fails on other shapes too)")
    m = _f32(attrs["momentum"])
    t = _f32(attrs["sparseness_target"])
    avg = data.sum(axis=0) / data.shape[0]
    moving_avg *= m
    moving_avg += (1 - m) * avg.astype(moving_avg.dtype, copy=False)
    reg = (_f32(attrs["penalty"]) * (-t / moving_avg + (1 - t) / (1 - moving_avg)))
    return og + reg.astype(og.dtype, copy=False)


def _kl_shape(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else (outs[0] if outs else None)
    if d is None:
        return ins, outs, [None]
    if len(d) < 2:
        raise MXNetError(f"IdentityAttachKLSparseReg: data must have at least 2 dimensions, "
                         f"got {tuple(d)}")
    return [tuple(d)], [tuple(d)], [(d[1],)]


_KL_PARAMS = (
    Param("sparseness_target", "float", 0.1, doc="Target mean activation."),
    Param("penalty", "float", 0.001, doc="Weight of the sparseness penalty."),
    Param("momentum", "float", 0.9, doc="Momentum of the moving average of activations."),
)

register("IdentityAttachKLSparseReg", _kl_identity, params=_KL_PARAMS, aux=("moving_avg",),
         infer_shape=_kl_shape,
         infer_type=float32_only_type("IdentityAttachKLSparseReg", num_aux=1),
         gradient=lambda F, a, ins, outs, og: [
             F._backward_IdentityAttachKLSparseReg(og[0], ins[0], ins[1], **a), None],
         doc="Identity forward; the backward pass adds the gradient of a KL sparseness penalty "
             "on the moving average (auxiliary state moving_avg) of each feature's mean.")

register("_backward_IdentityAttachKLSparseReg", _backward_kl_sparse, params=_KL_PARAMS,
         inputs=("ograd", "data", "moving_avg"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         doc="Gradient of IdentityAttachKLSparseReg; updates moving_avg in place.")


# ---------------------------------------------------------------------------------------------
# Pooling_v1


class _PoolV1:
    """Window geometry of the legacy pooling (clipped windows over zero-padded data)."""

    def __init__(self, opname, attrs, dshape):
        dshape = tuple(dshape)
        if len(dshape) not in (3, 4, 5):
            raise MXNetError(f"{opname}: data must be 3-D, 4-D or 5-D (N, C, spatial...), got "
                             f"{dshape}")
        nsp = len(dshape) - 2
        spatial = dshape[2:]
        if attrs["global_pool"]:
            kernel, stride, pad = tuple(spatial), (1,) * nsp, (0,) * nsp
        else:
            kernel = tuple(attrs["kernel"])
            if len(kernel) != nsp or any(k is None or k < 1 for k in kernel):
                raise MXNetError(f"{opname}: kernel={kernel} must have {nsp} positive entries "
                                 f"for data of shape {dshape}")
            stride = tuple(attrs["stride"]) or (1,) * nsp
            pad = tuple(attrs["pad"]) or (0,) * nsp
            if len(stride) != nsp or len(pad) != nsp or min(stride) < 1 or min(pad) < 0:
                raise MXNetError(f"{opname}: stride={stride} (positive) and pad={pad} "
                                 f"(non-negative) must have {nsp} entries each")
        out = []
        for i, (L, k, s, p) in enumerate(zip(spatial, kernel, stride, pad)):
            if k > L + 2 * p:
                raise MXNetError(f"{opname}: kernel size {k} exceeds the input size {L} padded "
                                 f"to {L + 2 * p} along spatial dim {i} (data shape {dshape})")
            span = L + 2 * p - k
            out.append(span // s + 1 if attrs["pooling_convention"] == "valid"
                       else -(-span // s) + 1)
        self.spatial, self.kernel, self.stride, self.pad = spatial, kernel, stride, pad
        self.out = tuple(out)
        self.padded = tuple(L + 2 * p for L, p in zip(spatial, pad))
        self.ext = tuple(max(pd, (o - 1) * s + k)
                         for pd, o, s, k in zip(self.padded, self.out, self.stride, self.kernel))

    def taps(self):
        for off in itertools.product(*(range(k) for k in self.kernel)):
            yield _LEAD + tuple(slice(o, o + (n - 1) * s + 1, s)
                                for o, n, s in zip(off, self.out, self.stride))

    def inner(self):
        return _LEAD + tuple(slice(p, p + L) for p, L in zip(self.pad, self.spatial))

    def buffer(self, xp, x, pool_type, dtype):
        """x zero-padded; beyond the padding (clipped windows) -inf for max, else 0."""
        beyond = -np.inf if pool_type == "max" else 0
        buf = xp.full(x.shape[:2] + self.ext, beyond, dtype=dtype)
        buf[_LEAD + tuple(slice(0, pd) for pd in self.padded)] = 0
        buf[self.inner()] = x
        return buf


def _pooling_v1(rc, attrs, data):
    xp = rc.xp
    _check_float("Pooling_v1", "data", data)
    g = _PoolV1("Pooling_v1", attrs, data.shape)
    acc = _acc(data.dtype)
    kind = attrs["pool_type"]
    buf = g.buffer(xp, data.astype(acc, copy=False), kind, acc)
    res = None
    for sl in g.taps():  # one strided slice per kernel tap, for the whole batch
        if res is None:
            res = buf[sl].copy()
        elif kind == "max":
            xp.maximum(res, buf[sl], out=res)
        else:
            res += buf[sl]
    if kind == "avg":  # 1.9.1 multiplies by a float32 reciprocal, even for float64 data
        res *= acc.type(np.float32(1.0) / np.float32(_prod(g.kernel)))
    return res.astype(data.dtype, copy=False)


def _backward_pooling_v1(rc, attrs, og, data, out):
    xp = rc.xp
    g = _PoolV1("_backward_Pooling_v1", attrs, data.shape)
    acc = _acc(data.dtype)
    kind = attrs["pool_type"]
    og = og.astype(acc, copy=False)
    if kind == "avg":
        og = og * acc.type(np.float32(1.0) / np.float32(_prod(g.kernel)))
    grad = xp.zeros(data.shape[:2] + g.ext, dtype=acc)
    if kind == "max":
        buf = g.buffer(xp, data.astype(acc, copy=False), kind, acc)
        top = out.astype(acc, copy=False)
        for sl in g.taps():  # every element equal to its window's maximum gets the gradient
            grad[sl] += xp.where(buf[sl] == top, og, acc.type(0))
    else:
        for sl in g.taps():
            grad[sl] += og
    return grad[g.inner()].astype(data.dtype)


def _pooling_v1_shape(attrs, ins, outs):
    d = ins[0]
    if d is None or None in d:
        return ins, outs, []
    return ins, [tuple(d[:2]) + _PoolV1("Pooling_v1", attrs, d).out], []


_POOL_V1_PARAMS = (
    Param("kernel", "shape", (), doc="Window size: (y, x) or (d, y, x)."),
    Param("pool_type", "str", "max", choices=("avg", "max", "sum"), doc="Window reduction."),
    Param("global_pool", "bool", False, doc="Pool each whole feature map (kernel ignored)."),
    Param("pooling_convention", "str", "valid", choices=("full", "valid"),
          doc="Output size rule: floor (valid) or ceil (full)."),
    Param("stride", "shape", (), doc="Window step per spatial dim (default 1)."),
    Param("pad", "shape", (), doc="Zero padding per spatial dim (default 0)."),
)

register("Pooling_v1", _pooling_v1, params=_POOL_V1_PARAMS, infer_shape=_pooling_v1_shape,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_Pooling_v1(og[0], ins[0], outs[0], **a)],
         doc="Deprecated pooling (use Pooling): zero padding that max pooling sees, averages "
             "over the full kernel size.")

register("_backward_Pooling_v1", _backward_pooling_v1, params=_POOL_V1_PARAMS,
         inputs=("ograd", "data", "output"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []),
         doc="Gradient of Pooling_v1 with respect to its data.")


# ---------------------------------------------------------------------------------------------
# BatchNorm_v1 and Convolution_v1: the current kernels under the legacy names


def _register_batchnorm_v1():
    try:
        from .nn_norm import (_BN_AUX, _BN_BACKWARD_INPUTS, _BN_INPUTS, _bn_backward_shape,
                              _bn_backward_type, _bn_outputs, _bn_shape, _bn_type,
                              _make_bn_backward, _make_bn_forward, _make_bn_gradient)
    except ImportError:  # pragma: no cover - the BatchNorm family is not there
        return
    axis1 = lambda attrs: 1  # noqa: E731
    forward = _make_bn_forward("BatchNorm_v1", True, axis1)  # outputs (out, mean, var)
    backward = _make_bn_backward("BatchNorm_v1", True, axis1)

    def batchnorm_v1(rc, attrs, x, gamma, beta, mm, mv):
        return forward(rc, dict(attrs, eps=_f32(attrs["eps"])), x, gamma, beta, mm, mv)

    def backward_batchnorm_v1(rc, attrs, og, x, gamma, mean, var, mm, mv):
        return backward(rc, dict(attrs, eps=_f32(attrs["eps"])), og, x, gamma, mean, var, mm, mv)

    params = (
        Param("eps", "float", 1e-3, doc="Added to the variance (a float32)."),
        Param("momentum", "float", 0.9, doc="Weight of the old value in the moving averages."),
        Param("fix_gamma", "bool", True, doc="Use gamma = 1 and give it no gradient."),
        Param("use_global_stats", "bool", False, doc="Normalise with the moving statistics."),
        Param("output_mean_var", "bool", False, doc="Also return the mean and the variance."),
    )
    register("BatchNorm_v1", batchnorm_v1, params=params, inputs=_BN_INPUTS, aux=_BN_AUX,
             num_outputs=3, num_visible_outputs=_bn_outputs,
             output_names=lambda a: ["output", "mean", "var"][:_bn_outputs(a)],
             infer_shape=_bn_shape(axis1), infer_type=_bn_type,
             gradient=_make_bn_gradient("_backward_BatchNorm_v1"),
             doc="Deprecated batch normalisation over axis 1 (use BatchNorm); its optional "
                 "outputs are the mean and the variance.")
    register("_backward_BatchNorm_v1", backward_batchnorm_v1, params=params,
             inputs=_BN_BACKWARD_INPUTS, num_outputs=3, nd_hidden=True,
             infer_shape=_bn_backward_shape, infer_type=_bn_backward_type)


def _register_convolution_v1():
    try:
        from .nn_conv import _CONV_PARAMS, _convolution, _grad_of, _infer, _inputs
        from .nn_dense import uniform_type
    except ImportError:  # pragma: no cover - the convolution family is not there
        return
    layouts = ("NCDHW", "NCHW", "NDHWC", "NHWC")
    params = tuple(Param(p.name, p.kind, p.default, optional=p.optional, choices=layouts,
                         doc=p.doc) if p.name == "layout" else p for p in _CONV_PARAMS)
    register("Convolution_v1", _convolution, params=params, inputs=_inputs,
             infer_shape=_infer("Convolution_v1", False),
             infer_type=uniform_type("Convolution_v1"),
             gradient=_grad_of("_backward_Convolution"),
             doc="Deprecated convolution (use Convolution); the same computation.")


_register_batchnorm_v1()
_register_convolution_v1()
