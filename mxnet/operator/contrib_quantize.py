"""INT8 quantization primitives of ``mx.nd.contrib``: quantize, quantize_v2, quantize_asym,
dequantize and requantize.

The numbers follow 1.9.1's CPU build (oneDNN reorders), measured against it:

- A symmetric quantizer maps ``x`` to ``rint(x * scale)`` in float32 (round half to even),
  saturated to the output type. The scale is ``Q / max(|min|, |max|)`` where Q is
  127 (int8) or 255 (uint8) for ``quantize`` and 127.5 / 255.5 for ``quantize_v2``;
  ``dequantize`` multiplies by ``max(|min|, |max|) / Q`` with Q = 127.5 / 255.5.
- int8 outputs report the range ``(-r, r)`` with ``r = max(|min|, |max|)``; uint8 outputs
  report the range they were given (negative inputs saturate to 0).
- A zero range makes the scale infinite: 0 * inf is NaN, which saturates to 127 for
  int8 and to 0 for uint8, as the reference does.
- ``requantize`` rescales int32 (whose full scale 2**31 - 1 stands for the range given)
  to int8/uint8 with one float32 scale; without a calibrated range it takes the largest
  magnitude of the data (in float32, converted back to int32 as x86 does: a value that
  rounds to 2**31 wraps to -2**31, which flips the output's sign, exactly as in 1.9.1).
- ``quantize_asym`` maps float32 to uint8 through ``rint(x * scale + shift)`` with
  ``scale = 255 / (max - min)`` and ``shift = 255 - max * scale``; 1.9.1 only runs it on
  3-D data (anything else crashes its CPU fallback), so other ranks are refused here.

None of them has a gradient (1.9.1 registers none).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .registry import Param, register

__all__ = ["maxabs", "saturate", "read_range", "INT8_RANGE", "UINT8_RANGE"]

F32 = np.float32
INT8_RANGE = F32(127.5)
UINT8_RANGE = F32(255.5)
_INT32_MAX_F = F32(2147483647)           # 2**31 as float32
_I8, _U8, _I32, _FL = (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int32),
                       np.dtype(np.float32))
_LIMITS = {_I8: (-128, 127), _U8: (0, 255)}
_NAN_TO = {_I8: 127, _U8: 0}


def maxabs(a, b):
    """max(|a|, |b|) in float32."""
    return F32(max(abs(F32(a)), abs(F32(b))))


def saturate(xp, y, dtype):
    """Round float32 ``y`` half to even and saturate it to int8/uint8 (NaN as 1.9.1 does)."""
    dtype = np.dtype(dtype)
    lo, hi = _LIMITS[dtype]
    r = xp.rint(y)
    r = xp.where(xp.isnan(r), F32(_NAN_TO[dtype]), r)
    return xp.clip(r, lo, hi).astype(dtype)


def read_range(opname, name, arr):
    """The float32 scalar of a (1,)-shaped range input."""
    if arr.size != 1:
        raise MXNetError(f"{opname}: {name} must hold a single value (shape (1,)); got shape "
                         f"{tuple(arr.shape)}")
    return F32(float(arr.reshape(-1)[0]))


def _scalar(xp, v):
    return xp.asarray([v], dtype=F32)


def _check_dtype(opname, what, dt, allowed):
    if dt is not None and np.dtype(dt) not in allowed:
        names = " or ".join(np.dtype(a).name for a in allowed)
        raise MXNetError(f"{opname}: {what} has dtype {np.dtype(dt).name}; expected {names}")


def _ranges_shape(opname, n_range_inputs=2, n_range_outputs=2):
    """infer_shape: output 0 has the data's shape; every range is (1,)."""
    def infer(attrs, ins, outs):
        ins = list(ins)
        for i in range(1, 1 + n_range_inputs):
            if ins[i] is not None and tuple(ins[i]) != (1,):
                raise MXNetError(f"{opname}: range input {i} must have shape (1,); got "
                                 f"{tuple(ins[i])}")
            ins[i] = (1,)
        data = ins[0] if ins[0] is not None else outs[0]
        ins[0] = data
        return ins, [data] + [(1,)] * n_range_outputs, []
    return infer


def _out_type(attrs):
    """The output dtype of quantize_v2 / requantize ('auto': uint8 only when a calibrated
    minimum is given and is not negative)."""
    ot = attrs["out_type"]
    if ot == "auto":
        lo = attrs.get("min_calib_range")
        return _U8 if lo is not None and attrs.get("max_calib_range") is not None \
            and lo >= 0 else _I8
    return np.dtype(ot)


def _calibrated(attrs):
    return attrs["min_calib_range"] is not None and attrs["max_calib_range"] is not None


_CALIB = (Param("min_calib_range", "float", None,
                doc="Calibrated minimum of the real values; computed from the data when "
                    "absent."),
          Param("max_calib_range", "float", None,
                doc="Calibrated maximum of the real values; computed from the data when "
                    "absent."))


# ---------------------------------------------------------------------------------------------
# quantize (v1)

_Q1 = "_contrib_quantize"


def _quantize(rc, attrs, data, min_range, max_range):
    xp = rc.xp
    _check_dtype(_Q1, "data", data.dtype, (_FL,))
    lo = read_range(_Q1, "min_range", min_range)
    hi = read_range(_Q1, "max_range", max_range)
    r = maxabs(lo, hi)
    dt = np.dtype(attrs["out_type"])
    with np.errstate(divide="ignore", invalid="ignore"):
        if dt == _I8:
            scale = F32(127) / r
            ranges = (-r, r)
        else:
            scale = F32(255) / r
            ranges = (lo, hi)
        out = saturate(xp, data * scale, dt)
    return out, _scalar(xp, ranges[0]), _scalar(xp, ranges[1])


def _quantize_type(attrs, ins, outs):
    for i, t in enumerate(ins):
        _check_dtype(_Q1, ("data", "min_range", "max_range")[i], t, (_FL,))
    return [_FL] * 3, [np.dtype(attrs["out_type"]), _FL, _FL], []


register(_Q1, _quantize, inputs=("data", "min_range", "max_range"), num_outputs=3,
         params=(Param("out_type", "str", "uint8", choices=("int8", "uint8"),
                       doc="Integer type of the quantized output."),),
         infer_shape=_ranges_shape(_Q1), infer_type=_quantize_type,
         doc="Quantize float32 data to int8/uint8 given its real range [min_range, "
             "max_range]. Returns the quantized data and the range it now represents.")


# ---------------------------------------------------------------------------------------------
# quantize_v2

_Q2 = "_contrib_quantize_v2"


def _data_range(data):
    if data.size == 0:
        raise MXNetError(f"{_Q2}: cannot compute the range of empty data")
    return F32(float(data.min())), F32(float(data.max()))


def _quantize_v2(rc, attrs, data):
    xp = rc.xp
    _check_dtype(_Q2, "data", data.dtype, (_FL, _I8, _U8))
    dt = _out_type(attrs)
    calib = _calibrated(attrs)
    if data.dtype != _FL:
        # already quantized: the bytes pass through under the output type
        if calib:
            lo, hi = F32(attrs["min_calib_range"]), F32(attrs["max_calib_range"])
        elif data.dtype == _U8:
            lo, hi = F32(0), UINT8_RANGE
        else:
            lo, hi = -INT8_RANGE, INT8_RANGE
        return data.view(dt).copy(), _scalar(xp, lo), _scalar(xp, hi)
    if calib:
        lo, hi = F32(attrs["min_calib_range"]), F32(attrs["max_calib_range"])
    else:
        lo, hi = _data_range(data)
    r = maxabs(lo, hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = (INT8_RANGE if dt == _I8 else UINT8_RANGE) / r
        out = saturate(xp, data * scale, dt)
    if dt == _I8:
        lo, hi = -r, r
    return out, _scalar(xp, lo), _scalar(xp, hi)


def _quantize_v2_type(attrs, ins, outs):
    _check_dtype(_Q2, "data", ins[0], (_FL, _I8, _U8))
    return [ins[0] if ins[0] is not None else _FL], [_out_type(attrs), _FL, _FL], []


register(_Q2, _quantize_v2, inputs=("data",), num_outputs=3,
         params=(Param("out_type", "str", "int8", choices=("auto", "int8", "uint8"),
                       doc="Integer type of the output; 'auto' picks uint8 when the "
                           "calibrated minimum is not negative, int8 otherwise."),) + _CALIB,
         infer_shape=_ranges_shape(_Q2, 0), infer_type=_quantize_v2_type,
         doc="Quantize float32 data to int8/uint8 using the calibrated range, or the data's "
             "own minimum and maximum. int8/uint8 data passes through unchanged. Returns "
             "the quantized data and its real range.")


# ---------------------------------------------------------------------------------------------
# quantize_asym

_QA = "_contrib_quantize_asym"


def _quantize_asym(rc, attrs, data):
    xp = rc.xp
    _check_dtype(_QA, "data", data.dtype, (_FL,))
    if data.ndim != 3:
        raise MXNetError(f"{_QA}: data must be 3-D (1.9.1 only runs this operator on 3-D "
                         f"input); got shape {tuple(data.shape)}")
    if _calibrated(attrs):
        lo, hi = F32(attrs["min_calib_range"]), F32(attrs["max_calib_range"])
    else:
        if data.size == 0:
            raise MXNetError(f"{_QA}: cannot compute the range of empty data")
        lo, hi = F32(float(data.min())), F32(float(data.max()))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = F32(255) / F32(hi - lo)
        shift = F32(255) - F32(hi * scale)
        out = saturate(xp, data * scale + shift, _U8)
    return out, _scalar(xp, scale), _scalar(xp, shift)


def _quantize_asym_type(attrs, ins, outs):
    _check_dtype(_QA, "data", ins[0], (_FL,))
    return [_FL], [_U8, _FL, _FL], []


register(_QA, _quantize_asym, inputs=("data",), num_outputs=3, params=_CALIB,
         output_names=("output", "scale", "shift"),
         infer_shape=_ranges_shape(_QA, 0), infer_type=_quantize_asym_type,
         doc="Asymmetric quantization of 3-D float32 data to uint8: "
             "round(data * scale + shift) with the range [min, max] mapped onto [0, 255]. "
             "Returns the data, the scale and the shift.")


# ---------------------------------------------------------------------------------------------
# dequantize

_DQ = "_contrib_dequantize"


def _dequantize(rc, attrs, data, min_range, max_range):
    _check_dtype(_DQ, "data", data.dtype, (_I8, _U8))
    lo = read_range(_DQ, "min_range", min_range)
    hi = read_range(_DQ, "max_range", max_range)
    q = INT8_RANGE if data.dtype == _I8 else UINT8_RANGE
    scale = F32(maxabs(lo, hi) / q)
    return data.astype(F32) * scale


def _dequantize_type(attrs, ins, outs):
    if ins[0] is None:
        raise MXNetError(f"{_DQ}: the dtype of data must be known (int8 or uint8)")
    _check_dtype(_DQ, "data", ins[0], (_I8, _U8))
    for i in (1, 2):
        _check_dtype(_DQ, ("min_range", "max_range")[i - 1], ins[i], (_FL,))
    return [ins[0], _FL, _FL], [_FL], []


def _dequantize_shape(attrs, ins, outs):
    ins2, outs2, _ = _ranges_shape(_DQ, 2, 0)(attrs, ins, outs)
    return ins2, outs2[:1], []


register(_DQ, _dequantize, inputs=("data", "min_range", "max_range"),
         params=(Param("out_type", "str", "float32", choices=("float32",),
                       doc="Output type (float32 only)."),),
         infer_shape=_dequantize_shape, infer_type=_dequantize_type,
         doc="Turn int8/uint8 data back into float32 given the real range it represents.")


# ---------------------------------------------------------------------------------------------
# requantize

_RQ = "_contrib_requantize"


def _wrap_int32(v):
    """float32 -> int32 as x86's conversion does: out-of-range values become -2**31."""
    v = F32(v)
    if not (-2.0 ** 31 <= float(v) < 2.0 ** 31):
        return -2 ** 31
    return int(v)


def _requantize(rc, attrs, data, min_range, max_range):
    xp = rc.xp
    _check_dtype(_RQ, "data", data.dtype, (_I32,))
    lo = read_range(_RQ, "min_range", min_range)
    hi = read_range(_RQ, "max_range", max_range)
    r_in = maxabs(lo, hi)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if _calibrated(attrs):
            r_out = maxabs(attrs["min_calib_range"], attrs["max_calib_range"])
        else:
            if data.size == 0:
                raise MXNetError(f"{_RQ}: cannot compute the range of empty data")
            peak = maxabs(float(data.min()), float(data.max()))
            r_out = F32(F32(_wrap_int32(peak)) * r_in) / _INT32_MAX_F
        dt = _out_type(attrs)
        q_out = F32(127) if dt == _I8 else F32(255)
        scale = F32(F32(r_in / _INT32_MAX_F) * F32(q_out / r_out))
        out = saturate(xp, data.astype(F32) * scale, dt)
    ranges = (-r_out, r_out) if dt == _I8 else (F32(0), r_out)
    return out, _scalar(xp, ranges[0]), _scalar(xp, ranges[1])


def _requantize_type(attrs, ins, outs):
    _check_dtype(_RQ, "data", ins[0], (_I32,))
    for i in (1, 2):
        _check_dtype(_RQ, ("min_range", "max_range")[i - 1], ins[i], (_FL,))
    return [_I32, _FL, _FL], [_out_type(attrs), _FL, _FL], []


register(_RQ, _requantize, inputs=("data", "min_range", "max_range"), num_outputs=3,
         params=(Param("out_type", "str", "int8", choices=("auto", "int8", "uint8"),
                       doc="Integer type of the output; 'auto' picks uint8 when the "
                           "calibrated minimum is not negative, int8 otherwise."),) + _CALIB,
         infer_shape=_ranges_shape(_RQ), infer_type=_requantize_type,
         doc="Rescale int32 data (the output of a quantized layer, whose full int32 scale "
             "stands for [min_range, max_range]) to int8/uint8 over the calibrated range, or "
             "over the data's own largest magnitude.")


# ---------------------------------------------------------------------------------------------
# calibrate_entropy

_CE = "_contrib_calibrate_entropy"
_SMOOTH_EPS = F32(0.0001)


def _seq_sum(a):
    """Left-to-right float32 sum (the order 1.9.1's loops add in)."""
    return F32(np.cumsum(a, dtype=F32)[-1]) if a.size else F32(0)


def _smooth(p):
    """Move a little mass onto the empty bins: each zero gets eps, the nonzero ones give
    it up evenly. None when every bin is empty or the nonzero ones cannot afford it."""
    zero = p == 0
    n_zero = int(zero.sum())
    n_nonzero = p.size - n_zero
    if n_nonzero == 0:
        return None
    eps1 = F32(_SMOOTH_EPS * F32(n_zero) / F32(n_nonzero))
    if eps1 >= 1.0:
        return None
    return (p + np.where(zero, _SMOOTH_EPS, -eps1).astype(F32)).astype(F32)


def _kl(p, q):
    p = (p / _seq_sum(p)).astype(F32)
    q = (q / _seq_sum(q)).astype(F32)
    if not (np.all(p > 0) and np.all(q > 0)):
        raise MXNetError(f"{_CE}: the smoothed histograms have non-positive bins; the "
                         f"histogram has too few nonzero bins for this num_quantized_bins")
    with np.errstate(divide="ignore", invalid="ignore"):
        return _seq_sum((p * np.log((p / q).astype(F32))).astype(F32))


def _calibrate_entropy(rc, attrs, hist, hist_edges):
    xp = rc.xp
    _check_dtype(_CE, "hist", hist.dtype, (_FL,))
    _check_dtype(_CE, "hist_edges", hist_edges.dtype, (_FL,))
    h = np.asarray(hist.get() if hasattr(hist, "get") else hist, dtype=F32).reshape(-1)
    edges = np.asarray(hist_edges.get() if hasattr(hist_edges, "get") else hist_edges,
                       dtype=F32).reshape(-1)
    n = h.size
    if edges.size != n + 1:
        raise MXNetError(f"{_CE}: hist_edges must have one more element than hist; got "
                         f"{edges.size} edges for {n} bins")
    nq = attrs["num_quantized_bins"]
    zero_bin, half = n // 2, nq // 2
    if nq <= 0 or half > min(zero_bin, n - zero_bin - 1):
        raise MXNetError(f"{_CE}: num_quantized_bins={nq} must be positive and at most the "
                         f"number of bins ({n})")
    counts = np.trunc(np.maximum(h, 0)).astype(np.int64)     # the integer view of the bins
    lo_cum = np.cumsum(h, dtype=F32)
    best, best_div = 0, F32(np.finfo(np.float32).max)
    thresholds = []
    # with an even number of bins 1.9.1's widest window reads one edge past the end; that
    # window is left out here
    for k, i in enumerate(range(half, min(zero_bin, n - zero_bin - 1) + 1)):
        start, stop = zero_bin - i, zero_bin + i + 1
        thresholds.append(edges[stop])
        length = stop - start
        # p: the bins inside the window, everything left of it folded into the first one
        # and everything right of it added onto the last one (whose own count stays in the
        # integer copy; the first one's does not)
        p = np.empty(length, dtype=F32)
        p[0] = lo_cum[start]
        p[1:] = h[start + 1:stop]
        p[-1] = _seq_sum(h[stop - 1:])
        sliced = np.zeros(length, dtype=np.int64)
        sliced[1:] = counts[start + 1:stop]
        merged = length // nq
        bins = sliced[:nq * merged].reshape(nq, merged).sum(axis=1)
        bins[-1] += sliced[nq * merged:].sum()
        bins = bins.astype(np.int32).astype(F32)              # an int accumulator
        group = np.minimum(np.arange(length) // merged, nq - 1)
        norm = np.bincount(group, weights=(sliced != 0), minlength=nq).astype(np.int64)
        share = np.where(norm > 0, bins / np.maximum(norm, 1).astype(F32), F32(0)).astype(F32)
        q = np.where((p != 0) & (norm[group] > 0), share[group], F32(0)).astype(F32)
        ps, qs = _smooth(p), _smooth(q)
        if qs is None:
            div = F32(np.inf)
        elif ps is None:
            raise MXNetError(f"{_CE}: the histogram is empty")
        else:
            div = _kl(ps, qs)
        if div < best_div:
            best, best_div = k, div
    return _scalar(xp, thresholds[best]), _scalar(xp, best_div)


def _calibrate_shape(attrs, ins, outs):
    return list(ins), [(1,), (1,)], []


def _calibrate_type(attrs, ins, outs):
    _check_dtype(_CE, "hist", ins[0], (_FL,))
    _check_dtype(_CE, "hist_edges", ins[1], (_FL,))
    return [_FL, _FL], [_FL, _FL], []


register(_CE, _calibrate_entropy, inputs=("hist", "hist_edges"), num_outputs=2,
         output_names=("threshold", "divergence"),
         params=(Param("num_quantized_bins", "int", 255,
                       doc="Number of bins the quantized distribution has (255 for int8)."),),
         infer_shape=_calibrate_shape, infer_type=_calibrate_type,
         doc="Pick the clipping threshold of a symmetric histogram (float32 counts and their "
             "edges, centred on zero) that minimises the KL divergence between the clipped "
             "distribution and its quantization into num_quantized_bins levels. Returns the "
             "threshold and that divergence.")
