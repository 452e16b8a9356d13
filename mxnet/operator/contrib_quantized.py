"""Quantized layers of ``mx.nd.contrib`` as 1.9.1 runs them on CPU (through oneDNN):
quantized_fully_connected, quantized_conv, quantized_pooling, quantized_flatten,
quantized_act, quantized_concat, quantized_elemwise_add and quantized_embedding.

Every layer takes its integer tensors followed by a (1,)-shaped float32 min and max per
tensor (the real range each stands for) and returns its result with the output's range.

- fully_connected / conv: int8 or uint8 data (conv: uint8 only, 2-D or 3-D, one group, as
  in 1.9.1) times int8 weights, accumulated exactly in int32. FC rescales its int8 bias to
  the accumulator's scale, ``data_scale * weight_scale * max|bias range| / 127.5`` (scales
  ``127.5 / r`` for int8 and ``255.5 / r`` for uint8), truncated toward zero; conv adds
  the int8 bias unscaled, as 1.9.1 does. The output range is
  ``+-(r_data / 127) * (r_weight / q) * 2**31`` with q = 255 for FC on uint8 data and 127
  otherwise (this asymmetry is 1.9.1's).
- pooling (max, avg), flatten and act (relu) keep the data's range; 1.9.1's quantized act
  declares an int8 output, so uint8 data comes back as its bytes under int8.
- concat rescales every input to the widest range (always including 0) and the output type
  (uint8 only when every input is uint8).
- elemwise_add sums ``a * s_a + b * s_b`` in float32 into int32 (range
  ``+-(r_a + r_b)``) or, with a calibrated range, into uint8 (both inputs uint8) or int8.
- embedding looks rows of an int8 weight up and keeps its range.

Integer products are formed in float64, which is exact for these operand sizes.
None of these layers has a gradient (1.9.1 registers none).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .contrib_quantize import F32, INT8_RANGE, UINT8_RANGE, maxabs, read_range, saturate
from .registry import Param, get_op, register

# 1.9.1's names for a quantized layer's outputs: the data and its range
_Q_OUTS = ("output", "min_output", "max_output")

__all__ = []

_I8, _U8, _I32, _FL = (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int32),
                       np.dtype(np.float32))
_INT32_MAX_F = F32(2147483647)
_CALIB = (Param("min_calib_range", "float", None,
                doc="Calibrated minimum of the output's real values."),
          Param("max_calib_range", "float", None,
                doc="Calibrated maximum of the output's real values."))


def _check(opname, what, dt, allowed):
    if dt is not None and np.dtype(dt) not in allowed:
        names = " or ".join(np.dtype(a).name for a in allowed)
        raise MXNetError(f"{opname}: {what} has dtype {np.dtype(dt).name}; expected {names}")


def _scalar(xp, v):
    return xp.asarray([v], dtype=F32)


def _q_scale(dtype, r):
    """127.5 / r (int8) or 255.5 / r (uint8)."""
    return (INT8_RANGE if np.dtype(dtype) == _I8 else UINT8_RANGE) / r


def _mult_range(data_dtype, r_data, r_weight):
    """The real range (-top, top) of an int32 accumulator of data x int8 weight products:
    one int32 step is (r_data / 127) * (r_weight / q), q = 255 for uint8 data, else 127."""
    q = F32(127) if np.dtype(data_dtype) == _I8 else F32(255)
    level = F32(F32(r_data / F32(127)) * F32(r_weight / q))
    top = F32(level * _INT32_MAX_F)
    return -top, top


def _ranges(opname, names, arrays):
    return [read_range(opname, n, a) for n, a in zip(names, arrays)]


def _set_ranges(ins, start):
    for i in range(start, len(ins)):
        if ins[i] is not None and tuple(ins[i]) != (1,):
            raise MXNetError(f"range input {i} must have shape (1,); got {tuple(ins[i])}")
        ins[i] = (1,)


def _bias_int32(xp, bias, r_data_scale, r_weight_scale, r_bias):
    rescale = F32(F32(F32(r_data_scale * r_weight_scale) * r_bias) / INT8_RANGE)
    return xp.trunc(bias.astype(F32) * rescale).astype(np.int64)


def _linear_inputs(attrs):
    if attrs["no_bias"]:
        return ["data", "weight", "min_data", "max_data", "min_weight", "max_weight"]
    return ["data", "weight", "bias", "min_data", "max_data", "min_weight", "max_weight",
            "min_bias", "max_bias"]


def _linear_type(opname, data_types):
    def infer(attrs, ins, outs):
        _check(opname, "data", ins[0], data_types)
        _check(opname, "weight", ins[1], (_I8,))
        nb = attrs["no_bias"]
        if not nb:
            _check(opname, "bias", ins[2], (_I8,))
        first = 2 if nb else 3
        for i in range(first, len(ins)):
            _check(opname, f"range input {i}", ins[i], (_FL,))
        data = ins[0]
        new = [data, _I8] + ([] if nb else [_I8]) + [_FL] * (len(ins) - first)
        return new, [_I32, _FL, _FL], []
    return infer


def _linear_compute(opname, core, conv=False):
    """Shared body of quantized FC and conv: exact int32 accumulation, bias and ranges."""
    def compute(rc, attrs, *arrays):
        xp = rc.xp
        nb = attrs["no_bias"]
        data, weight = arrays[0], arrays[1]
        bias = None if nb else arrays[2]
        rest = arrays[2 if nb else 3:]
        _check(opname, "weight", weight.dtype, (_I8,))
        if bias is not None:
            _check(opname, "bias", bias.dtype, (_I8,))
        lo_d, hi_d, lo_w, hi_w = _ranges(opname, ("min_data", "max_data", "min_weight",
                                                  "max_weight"), rest[:4])
        r_d, r_w = maxabs(lo_d, hi_d), maxabs(lo_w, hi_w)
        acc = core(rc, attrs, data.astype(np.float64), weight.astype(np.float64))
        acc = xp.rint(acc).astype(np.int64)
        if bias is not None:
            lo_b, hi_b = _ranges(opname, ("min_bias", "max_bias"), rest[4:6])
            if conv:
                # 1.9.1's quantized conv adds the int8 bias as it is, unscaled
                qb = bias.astype(np.int64).reshape((1, -1) + (1,) * (acc.ndim - 2))
            else:
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    qb = _bias_int32(xp, bias, _q_scale(data.dtype, r_d), _q_scale(_I8, r_w),
                                     maxabs(lo_b, hi_b))
            acc = acc + qb
        # int32 wrap-around, as an int32 accumulator would
        out = acc.astype(np.int32)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            lo, hi = _mult_range(_I8 if conv else data.dtype, r_d, r_w)
        return out, _scalar(xp, lo), _scalar(xp, hi)
    return compute


# ---------------------------------------------------------------------------------------------
# quantized_fully_connected

_FC = "_contrib_quantized_fully_connected"


def _fc_core(rc, attrs, x, w):
    if attrs["flatten"]:
        x2 = x.reshape(x.shape[0], -1)
        return x2 @ w.T
    return x @ w.T


def _fc(rc, attrs, *arrays):
    data, weight = arrays[0], arrays[1]
    _check(_FC, "data", data.dtype, (_I8, _U8))
    k = int(np.prod(data.shape[1:])) if attrs["flatten"] else data.shape[-1]
    if weight.shape != (attrs["num_hidden"], k):
        raise MXNetError(f"{_FC}: weight must have shape ({attrs['num_hidden']}, {k}) for data "
                         f"of shape {tuple(data.shape)}; got {tuple(weight.shape)}")
    if not attrs["no_bias"] and tuple(arrays[2].shape) != (attrs["num_hidden"],):
        raise MXNetError(f"{_FC}: bias must have shape ({attrs['num_hidden']},); got "
                         f"{tuple(arrays[2].shape)}")
    return _fc_compute(rc, attrs, *arrays)


_fc_compute = _linear_compute(_FC, _fc_core)


def _fc_shape(attrs, ins, outs):
    ins = list(ins)
    d = ins[0]
    nh = attrs["num_hidden"]
    _set_ranges(ins, 2 if attrs["no_bias"] else 3)
    if not attrs["no_bias"]:
        ins[2] = (nh,)
    if d is None:
        return ins, [None, (1,), (1,)], []
    if attrs["flatten"]:
        k = int(np.prod(d[1:]))
        out = (d[0], nh)
    else:
        k = d[-1]
        out = tuple(d[:-1]) + (nh,)
    ins[1] = (nh, k)
    return ins, [out, (1,), (1,)], []


register(_FC, _fc, inputs=_linear_inputs, num_outputs=3,
         output_names=_Q_OUTS,
         params=(Param("num_hidden", "int", doc="Number of output units."),
                 Param("no_bias", "bool", False, doc="Leave the bias (and its range) out."),
                 Param("flatten", "bool", True,
                       doc="Collapse all axes after the first before the product.")),
         infer_shape=_fc_shape, infer_type=_linear_type(_FC, (_I8, _U8)),
         doc="Fully connected layer on int8/uint8 data and int8 weights with an int32 "
             "result and its real range.")


# ---------------------------------------------------------------------------------------------
# quantized_conv

_CV = "_contrib_quantized_conv"
_CONV_KEYS = ("kernel", "stride", "dilate", "pad", "num_filter", "num_group", "layout")


def _float_conv_attrs(attrs):
    conv = get_op("Convolution")
    kw = {k: attrs[k] for k in _CONV_KEYS if attrs[k] is not None and attrs[k] != ()}
    kw["no_bias"] = True
    return conv, conv.parse_attrs(kw)


def _conv_core(rc, attrs, x, w):
    conv, cattrs = _float_conv_attrs(attrs)
    return conv.compute(rc, cattrs, x, w)


_conv_compute = _linear_compute(_CV, _conv_core, conv=True)


def _conv_check(attrs, ndim):
    if attrs["num_group"] != 1:
        raise MXNetError(f"{_CV}: only num_group=1 is supported (as in 1.9.1); got "
                         f"num_group={attrs['num_group']}")
    layout = attrs["layout"]
    if len(attrs["kernel"]) not in (2, 3) or ndim not in (None, len(attrs["kernel"]) + 2) or \
            (layout is not None and layout not in ("NCHW", "NCDHW")):
        raise MXNetError(f"{_CV}: only 2-D (NCHW) and 3-D (NCDHW) convolutions are supported "
                         f"(as in 1.9.1); got kernel {attrs['kernel']}, layout {layout}"
                         + ("" if ndim is None else f" and data of rank {ndim}"))


def _conv(rc, attrs, *arrays):
    _check(_CV, "data", arrays[0].dtype, (_U8,))
    _conv_check(attrs, arrays[0].ndim)
    return _conv_compute(rc, attrs, *arrays)


def _conv_shape(attrs, ins, outs):
    ins = list(ins)
    nb = attrs["no_bias"]
    _conv_check(attrs, None if ins[0] is None else len(ins[0]))
    conv, cattrs = _float_conv_attrs(attrs)
    cins, couts, _ = conv.infer_shape(cattrs, ins[:2], [None])
    ins[:2] = cins
    if not nb:
        ins[2] = (attrs["num_filter"],)
    _set_ranges(ins, 2 if nb else 3)
    return ins, [couts[0], (1,), (1,)], []


register(_CV, _conv, inputs=_linear_inputs, num_outputs=3,
         output_names=_Q_OUTS,
         params=(Param("kernel", "shape", doc="Kernel size: (h, w) or (d, h, w)."),
                 Param("stride", "shape", (), doc="Stride per spatial axis (default 1)."),
                 Param("dilate", "shape", (), doc="Dilation per spatial axis (default 1)."),
                 Param("pad", "shape", (), doc="Zero padding per spatial axis (default 0)."),
                 Param("num_filter", "int", doc="Number of output channels."),
                 Param("num_group", "int", 1, doc="Number of channel groups."),
                 Param("workspace", "int", 1024, doc="Unused here (1.9.1's scratch limit)."),
                 Param("no_bias", "bool", False, doc="Leave the bias (and its range) out."),
                 Param("cudnn_tune", "str", None, optional=True,
                       choices=("fastest", "limited_workspace", "off"), doc="Unused here."),
                 Param("cudnn_off", "bool", False, doc="Unused here."),
                 Param("layout", "str", None, optional=True,
                       choices=("NCDHW", "NCHW", "NCW", "NDHWC", "NHWC"),
                       doc="Data layout; only NCHW and NCDHW run (as in 1.9.1).")),
         infer_shape=_conv_shape, infer_type=_linear_type(_CV, (_U8,)),
         doc="Convolution of uint8 data with int8 weights; int32 result with its real range.")


# ---------------------------------------------------------------------------------------------
# layers that keep the data's range: pooling, flatten, act


def _passthrough_type(opname, allowed, out_dtype=None):
    def infer(attrs, ins, outs):
        _check(opname, "data", ins[0], allowed)
        for i in (1, 2):
            _check(opname, ("min_data", "max_data")[i - 1], ins[i], (_FL,))
        d = ins[0]
        o = out_dtype if out_dtype is not None else d
        return [d, _FL, _FL], [o, _FL, _FL], []
    return infer


def _ranges_out(xp, opname, lo, hi):
    lo_v, hi_v = _ranges(opname, ("min_data", "max_data"), (lo, hi))
    return _scalar(xp, lo_v), _scalar(xp, hi_v)


_PL = "_contrib_quantized_pooling"


def _pool_attrs(attrs):
    pool = get_op("Pooling")
    return pool, pool.parse_attrs({k: v for k, v in attrs.items()})


def _quantized_pooling(rc, attrs, data, lo, hi):
    xp = rc.xp
    _check(_PL, "data", data.dtype, (_I8, _U8))
    if attrs["pool_type"] not in ("max", "avg"):
        raise MXNetError(f"{_PL}: pool_type '{attrs['pool_type']}' is not supported; expected "
                         f"'max' or 'avg' (as in 1.9.1)")
    pool, pattrs = _pool_attrs(attrs)
    y = pool.compute(rc, pattrs, data.astype(np.float64))
    out = saturate(xp, y, data.dtype)
    return (out,) + _ranges_out(xp, _PL, lo, hi)


def _pooling_shape(attrs, ins, outs):
    ins = list(ins)
    _set_ranges(ins, 1)
    if ins[0] is None:
        return ins, [None, (1,), (1,)], []
    pool, pattrs = _pool_attrs(attrs)
    _, pouts, _ = pool.infer_shape(pattrs, ins[:1], [None])
    return ins, [pouts[0], (1,), (1,)], []


def _pool_params():
    from .nn_pool import _POOL_PARAMS
    return _POOL_PARAMS


register(_PL, _quantized_pooling, inputs=("data", "min_data", "max_data"), num_outputs=3,
         output_names=_Q_OUTS,
         params=_pool_params(), infer_shape=_pooling_shape,
         infer_type=_passthrough_type(_PL, (_I8, _U8)),
         doc="Max or average pooling of int8/uint8 data (averages round half to even); the "
             "range is unchanged.")


_FL_OP = "_contrib_quantized_flatten"


def _quantized_flatten(rc, attrs, data, lo, hi):
    _check(_FL_OP, "data", data.dtype, (_I8, _U8))
    n = data.shape[0] if data.ndim else 1
    return (data.reshape(n, -1).copy(),) + _ranges_out(rc.xp, _FL_OP, lo, hi)


def _flatten_shape(attrs, ins, outs):
    ins = list(ins)
    _set_ranges(ins, 1)
    d = ins[0]
    out = None if d is None else (d[0], int(np.prod(d[1:])))
    return ins, [out, (1,), (1,)], []


register(_FL_OP, _quantized_flatten, inputs=("data", "min_data", "max_data"), num_outputs=3,
         output_names=_Q_OUTS,
         infer_shape=_flatten_shape, infer_type=_passthrough_type(_FL_OP, (_I8, _U8)),
         doc="Collapse all axes after the first of int8/uint8 data; the range is unchanged.")


_ACT = "_contrib_quantized_act"


def _quantized_act(rc, attrs, data, lo, hi):
    xp = rc.xp
    _check(_ACT, "data", data.dtype, (_I8, _U8))
    if attrs["act_type"] != "relu":
        raise MXNetError(f"{_ACT}: act_type '{attrs['act_type']}' is not supported; only "
                         f"'relu' is (as in 1.9.1)")
    if data.dtype == _I8:
        out = xp.maximum(data, xp.zeros((), dtype=_I8))
    else:
        out = data.view(_I8).copy()   # 1.9.1 declares an int8 output whatever the input
    return (out,) + _ranges_out(xp, _ACT, lo, hi)


def _act_shape(attrs, ins, outs):
    ins = list(ins)
    _set_ranges(ins, 1)
    return ins, [ins[0], (1,), (1,)], []


register(_ACT, _quantized_act, inputs=("data", "min_data", "max_data"), num_outputs=3,
         output_names=_Q_OUTS,
         params=(Param("act_type", "str", choices=("relu", "sigmoid", "softrelu", "softsign",
                                                   "tanh"),
                       doc="Activation; only relu runs (as in 1.9.1)."),),
         infer_shape=_act_shape, infer_type=_passthrough_type(_ACT, (_I8, _U8), _I8),
         doc="ReLU of int8 data; the range is unchanged.")


# ---------------------------------------------------------------------------------------------
# quantized_concat

_CC = "_contrib_quantized_concat"


def _concat_inputs(attrs):
    n = attrs["num_args"]
    names = [f"arg{i}" for i in range(n)]
    for i in range(n):
        names += [f"arg{i}_min", f"arg{i}_max"]
    return names


def _concat_out_dtype(dtypes):
    return _U8 if all(np.dtype(d) == _U8 for d in dtypes) else _I8


def _quantized_concat(rc, attrs, *arrays):
    xp = rc.xp
    n = attrs["num_args"]
    datas, rng = arrays[:n], arrays[n:]
    for i, d in enumerate(datas):
        _check(_CC, f"input {i}", d.dtype, (_I8, _U8))
    lows = [read_range(_CC, f"min of input {i}", rng[2 * i]) for i in range(n)]
    highs = [read_range(_CC, f"max of input {i}", rng[2 * i + 1]) for i in range(n)]
    neg = F32(min([F32(0)] + lows))
    pos = F32(max([F32(0)] + highs))
    odt = _concat_out_dtype([d.dtype for d in datas])
    axis = attrs["dim"]
    parts = []
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out_scale = _q_scale(odt, maxabs(neg, pos))
        for d, lo, hi in zip(datas, lows, highs):
            s = _q_scale(d.dtype, maxabs(lo, hi))
            if s == out_scale:
                parts.append(d.astype(odt))
            else:
                parts.append(saturate(xp, d.astype(F32) * F32(out_scale / s), odt))
    try:
        out = xp.concatenate(parts, axis=axis)
    except ValueError:
        raise MXNetError(f"{_CC}: inputs of shapes {[tuple(d.shape) for d in datas]} cannot "
                         f"be joined along axis {axis}") from None
    return out, _scalar(xp, neg), _scalar(xp, pos)


def _concat_shape(attrs, ins, outs):
    n = attrs["num_args"]
    ins = list(ins)
    _set_ranges(ins, n)
    shapes = ins[:n]
    if any(s is None for s in shapes):
        return ins, [None, (1,), (1,)], []
    ax = attrs["dim"] % len(shapes[0])
    out = list(shapes[0])
    out[ax] = sum(s[ax] for s in shapes)
    return ins, [tuple(out), (1,), (1,)], []


def _concat_type(attrs, ins, outs):
    n = attrs["num_args"]
    for i in range(n):
        _check(_CC, f"input {i}", ins[i], (_I8, _U8))
    known = [t for t in ins[:n] if t is not None]
    odt = _concat_out_dtype(known) if len(known) == n else None
    return list(ins[:n]) + [_FL] * (2 * n), [odt, _FL, _FL], []


register(_CC, _quantized_concat, inputs=_concat_inputs, num_outputs=3,
         output_names=_Q_OUTS,
         params=(Param("num_args", "int", doc="Number of int8/uint8 inputs."),
                 Param("dim", "int", 1, doc="Axis to join along.")),
         infer_shape=_concat_shape, infer_type=_concat_type,
         doc="Join int8/uint8 tensors along an axis, each rescaled to the widest range.")


# ---------------------------------------------------------------------------------------------
# quantized_elemwise_add

_ADD = "_contrib_quantized_elemwise_add"


def _add_out_dtype(attrs, a_dtype, b_dtype):
    """int32 without a calibrated range; with one, uint8 when both inputs are uint8."""
    if attrs["min_calib_range"] is None or attrs["max_calib_range"] is None:
        return _I32
    if a_dtype is None or b_dtype is None:
        return None
    return _U8 if np.dtype(a_dtype) == _U8 and np.dtype(b_dtype) == _U8 else _I8


def _quantized_add(rc, attrs, a, b, a_lo, a_hi, b_lo, b_hi):
    xp = rc.xp
    _check(_ADD, "lhs", a.dtype, (_I8, _U8))
    _check(_ADD, "rhs", b.dtype, (_I8, _U8))
    if a.shape != b.shape:
        raise MXNetError(f"{_ADD}: lhs and rhs must have the same shape; got {tuple(a.shape)} "
                         f"and {tuple(b.shape)}")
    a_lo, a_hi, b_lo, b_hi = _ranges(_ADD, ("lhs_min", "lhs_max", "rhs_min", "rhs_max"),
                                     (a_lo, a_hi, b_lo, b_hi))
    ra, rb = maxabs(a_lo, a_hi), maxabs(b_lo, b_hi)
    odt = _add_out_dtype(attrs, a.dtype, b.dtype)
    q_out = {_I32: F32(2147483648.0), _I8: INT8_RANGE, _U8: UINT8_RANGE}[odt]
    calib = odt != _I32
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sa, sb = _q_scale(a.dtype, ra), _q_scale(b.dtype, rb)
        if calib:
            lo, hi = F32(attrs["min_calib_range"]), F32(attrs["max_calib_range"])
            out_scale = q_out / maxabs(lo, hi)
        else:
            hi = F32(ra + rb)
            lo = -hi
        A, B = a.astype(F32), b.astype(F32)
        if a.dtype != b.dtype:
            # 1.9.1 first reorders the uint8 operand into int8 at the sum's scale
            u8_is_b = a.dtype == _I8
            ru, qu = (rb, UINT8_RANGE) if u8_is_b else (ra, _a_range(a.dtype))
            if calib:
                s_u8 = F32(out_scale / (sb if u8_is_b else sa))
                s_i8 = F32(out_scale / (sa if u8_is_b else sb))
            else:
                tot = F32(ra + rb)
                s_u8 = F32(F32(ru * q_out) / F32(tot * qu))
                ri = ra if u8_is_b else rb
                s_i8 = F32(F32(ri * q_out) / F32(tot * INT8_RANGE))
            if u8_is_b:
                B = saturate(xp, B * s_u8, _I8).astype(F32)
                s0, s1 = s_i8, F32(1)
            else:
                A = saturate(xp, A * s_u8, _I8).astype(F32)
                s0, s1 = F32(1), s_i8
        elif calib:
            s0, s1 = F32(out_scale / sa), F32(out_scale / sb)
        else:
            tot = F32(ra + rb)
            qa = _a_range(a.dtype)
            s0 = F32(F32(ra * q_out) / F32(tot * qa))
            s1 = F32(F32(rb * q_out) / F32(tot * qa))
        y = A * s0 + B * s1
        if odt == _I32:
            out = _saturate_i32(xp, y)
        else:
            out = saturate(xp, y, odt)
    return out, _scalar(xp, lo), _scalar(xp, hi)


def _a_range(dtype):
    """The quantized range (127.5 or 255.5) of an int8/uint8 dtype."""
    return INT8_RANGE if np.dtype(dtype) == _I8 else UINT8_RANGE


def _saturate_i32(xp, y):
    r = xp.rint(y).astype(np.float64)
    r = xp.where(xp.isnan(r), 0.0, r)
    return xp.clip(r, -2147483648.0, 2147483647.0).astype(np.int32)


def _add_shape(attrs, ins, outs):
    ins = list(ins)
    _set_ranges(ins, 2)
    d = ins[0] if ins[0] is not None else ins[1]
    ins[0] = ins[0] or d
    ins[1] = ins[1] or d
    return ins, [d, (1,), (1,)], []


def _add_type(attrs, ins, outs):
    _check(_ADD, "lhs", ins[0], (_I8, _U8))
    _check(_ADD, "rhs", ins[1], (_I8, _U8))
    return list(ins[:2]) + [_FL] * 4, [_add_out_dtype(attrs, ins[0], ins[1]), _FL, _FL], []


register(_ADD, _quantized_add, inputs=("lhs", "rhs", "lhs_min", "lhs_max", "rhs_min", "rhs_max"),
         num_outputs=3, output_names=_Q_OUTS, params=_CALIB, infer_shape=_add_shape,
         infer_type=_add_type,
         doc="Add two int8/uint8 tensors of possibly different ranges: an int32 result over "
             "the summed range, or int8/uint8 over a calibrated range.")


# ---------------------------------------------------------------------------------------------
# quantized_embedding

_EMB = "_contrib_quantized_embedding"


def _quantized_embedding(rc, attrs, data, weight, lo, hi):
    xp = rc.xp
    _check(_EMB, "weight", weight.dtype, (_I8,))
    if weight.shape != (attrs["input_dim"], attrs["output_dim"]):
        raise MXNetError(f"{_EMB}: weight must have shape ({attrs['input_dim']}, "
                         f"{attrs['output_dim']}); got {tuple(weight.shape)}")
    idx = xp.clip(data.astype(np.float64), 0, attrs["input_dim"] - 1).astype(np.int64)
    out = xp.take(weight, idx, axis=0)
    lo_v, hi_v = _ranges(_EMB, ("min_weight", "max_weight"), (lo, hi))
    return out, _scalar(xp, lo_v), _scalar(xp, hi_v)


def _embedding_shape(attrs, ins, outs):
    ins = list(ins)
    ins[1] = (attrs["input_dim"], attrs["output_dim"])
    _set_ranges(ins, 2)
    out = None if ins[0] is None else tuple(ins[0]) + (attrs["output_dim"],)
    return ins, [out, (1,), (1,)], []


def _embedding_type(attrs, ins, outs):
    _check(_EMB, "weight", ins[1], (_I8,))
    return [ins[0] or _FL, _I8, _FL, _FL], [_I8, _FL, _FL], []


register(_EMB, _quantized_embedding, inputs=("data", "weight", "min_weight", "max_weight"),
         num_outputs=3, output_names=_Q_OUTS,
         params=(Param("input_dim", "int", doc="Number of rows of the weight."),
                 Param("output_dim", "int", doc="Length of each row."),
                 Param("dtype", "str", "float32",
                       choices=("bfloat16", "float16", "float32", "float64", "int32", "int64",
                                "int8", "uint8"), doc="Accepted for 1.9.1 compatibility."),
                 Param("sparse_grad", "bool", False, doc="Accepted for 1.9.1 compatibility.")),
         infer_shape=_embedding_shape, infer_type=_embedding_type,
         doc="Look rows of an int8 weight up (indices clipped into range); the weight's range "
             "is returned with them.")


# ---------------------------------------------------------------------------------------------
# quantized_elemwise_mul

_MUL = "_contrib_quantized_elemwise_mul"


def _mul_out_dtype(attrs):
    if attrs["enable_float_output"]:
        return _FL
    if attrs["min_calib_range"] is not None and attrs["max_calib_range"] is not None:
        return _I8
    return _I32


def _quantized_mul(rc, attrs, a, b, a_lo, a_hi, b_lo, b_hi):
    xp = rc.xp
    _check(_MUL, "lhs", a.dtype, (_I8,))
    _check(_MUL, "rhs", b.dtype, (_I8,))
    if a.shape != b.shape:
        raise MXNetError(f"{_MUL}: lhs and rhs must have the same shape (no broadcasting); got "
                         f"{tuple(a.shape)} and {tuple(b.shape)}")
    a_lo, a_hi, b_lo, b_hi = _ranges(_MUL, ("lhs_min", "lhs_max", "rhs_min", "rhs_max"),
                                     (a_lo, a_hi, b_lo, b_hi))
    prod = a.astype(np.int32) * b.astype(np.int32)
    odt = _mul_out_dtype(attrs)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sa = INT8_RANGE / maxabs(a_lo, a_hi)
        sb = INT8_RANGE / maxabs(b_lo, b_hi)
        if odt == _FL:
            scale = F32(1.0 / np.float64(sa) / np.float64(sb))
            return prod.astype(F32) * scale
        if odt == _I8:
            lo, hi = F32(attrs["min_calib_range"]), F32(attrs["max_calib_range"])
            scale = F32(F32(INT8_RANGE / maxabs(lo, hi)) / sa) / sb
            y = xp.trunc(prod.astype(F32) * scale)
            # a C cast of an out-of-range value keeps the low byte of the int32 result
            y = xp.where(xp.isfinite(y) & (xp.abs(y) < 2.0 ** 31), y, -2.0 ** 31)
            out = y.astype(np.int64).astype(np.int8)
        else:
            lo, hi = _mult_range(_I8, maxabs(a_lo, a_hi), maxabs(b_lo, b_hi))
            out = prod
    return out, _scalar(xp, lo), _scalar(xp, hi)


def _mul_shape(attrs, ins, outs):
    ins = list(ins)
    _set_ranges(ins, 2)
    d = ins[0] if ins[0] is not None else ins[1]
    ins[0] = ins[0] or d
    ins[1] = ins[1] or d
    return ins, [d] + ([] if attrs["enable_float_output"] else [(1,), (1,)]), []


def _mul_type(attrs, ins, outs):
    _check(_MUL, "lhs", ins[0], (_I8,))
    _check(_MUL, "rhs", ins[1], (_I8,))
    extra = [] if attrs["enable_float_output"] else [_FL, _FL]
    return [_I8, _I8] + [_FL] * 4, [_mul_out_dtype(attrs)] + extra, []


register(_MUL, _quantized_mul, inputs=("lhs", "rhs", "lhs_min", "lhs_max", "rhs_min", "rhs_max"),
         num_outputs=lambda a: 1 if a["enable_float_output"] else 3,
         output_names=lambda a: ("output",) if a["enable_float_output"] else _Q_OUTS,
         params=_CALIB + (Param("enable_float_output", "bool", False,
                                doc="Return the float32 product instead of an integer one."),),
         infer_shape=_mul_shape, infer_type=_mul_type,
         doc="Multiply two int8 tensors elementwise: the exact int32 product with its range, "
             "int8 over a calibrated range (truncated, as 1.9.1 does), or float32.")


# ---------------------------------------------------------------------------------------------
# quantized_batch_norm

_BN = "_contrib_quantized_batch_norm"


def _quantized_bn(rc, attrs, data, gamma, beta, mean, var, lo, hi):
    xp = rc.xp
    _check(_BN, "data", data.dtype, (_I8, _U8))
    for n, a in (("gamma", gamma), ("beta", beta), ("moving_mean", mean), ("moving_var", var)):
        _check(_BN, n, a.dtype, (_FL,))
    if attrs["min_calib_range"] is None or attrs["max_calib_range"] is None:
        raise MXNetError(f"{_BN}: min_calib_range and max_calib_range are required (1.9.1's "
                         f"quantized BatchNorm has no uncalibrated mode)")
    axis = attrs["axis"] % data.ndim
    if axis != 1:
        raise MXNetError(f"{_BN}: only the channel axis 1 is supported (1.9.1 fails on any "
                         f"other); got axis={attrs['axis']} for data of shape "
                         f"{tuple(data.shape)}")
    c = data.shape[axis]
    for n, a in (("gamma", gamma), ("beta", beta), ("moving_mean", mean), ("moving_var", var)):
        if tuple(a.shape) != (c,):
            raise MXNetError(f"{_BN}: {n} must have shape ({c},) for data of shape "
                             f"{tuple(data.shape)} (axis {attrs['axis']}); got {tuple(a.shape)}")
    lo_d, hi_d = _ranges(_BN, ("min_data", "max_data"), (lo, hi))
    o_lo, o_hi = F32(attrs["min_calib_range"]), F32(attrs["max_calib_range"])
    r_d, r_o = maxabs(lo_d, hi_d), maxabs(o_lo, o_hi)
    eps = attrs["eps"]
    x = data.astype(F32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if data.dtype == _U8:
            x = saturate(xp, x * F32(INT8_RANGE / UINT8_RANGE), _I8).astype(F32)
        invstd = (1.0 / xp.sqrt(var.astype(np.float64) + eps)).astype(F32)
        w = gamma * invstd * r_d / r_o
        b = (beta - mean * gamma * invstd) * INT8_RANGE / r_o
        # the normalisation then runs with mean 0 and variance 1 (eps applied once more)
        w = w / xp.sqrt(F32(1) + F32(eps))
        shape = [1] * data.ndim
        shape[axis] = c
        y = x * w.reshape(shape) + b.reshape(shape)
        out = saturate(xp, y, _I8)
    return out, _scalar(xp, o_lo), _scalar(xp, o_hi)


def _bn_shape(attrs, ins, outs):
    ins = list(ins)
    d = ins[0]
    if d is not None:
        c = d[attrs["axis"] % len(d)]
        for i in range(1, 5):
            ins[i] = (c,)
    _set_ranges(ins, 5)
    return ins, [d, (1,), (1,)], []


def _bn_type(attrs, ins, outs):
    _check(_BN, "data", ins[0], (_I8, _U8))
    return [ins[0]] + [_FL] * 6, [_I8, _FL, _FL], []


register(_BN, _quantized_bn,
         inputs=("data", "gamma", "beta", "moving_mean", "moving_var", "min_data", "max_data"),
         num_outputs=3, output_names=_Q_OUTS,
         params=(Param("eps", "float", 1e-3, doc="Added to the variance."),
                 Param("momentum", "float", 0.9, doc="Unused (inference only)."),
                 Param("fix_gamma", "bool", True,
                       doc="Accepted but ignored: 1.9.1's quantized BatchNorm always uses "
                           "gamma."),
                 Param("use_global_stats", "bool", False, doc="Unused (inference only)."),
                 Param("output_mean_var", "bool", False, doc="Unused."),
                 Param("axis", "int", 1, doc="Channel axis."),
                 Param("cudnn_off", "bool", False, doc="Unused."),) + _CALIB,
         infer_shape=_bn_shape, infer_type=_bn_type,
         doc="Inference BatchNorm of int8/uint8 data with the moving statistics, giving int8 "
             "over the (required) calibrated output range.")
