"""Activation layers and the softmax family.

* ``Activation`` (relu, sigmoid, tanh, softrelu, softsign) and ``LeakyReLU`` (leaky, prelu,
  elu, selu, gelu, rrelu);
* ``softmax``, ``log_softmax``, ``softmin`` (with ``axis``, ``temperature``, output
  ``dtype`` and, for softmax, a ``length`` mask) and ``SoftmaxActivation``.

Each forward is one fused array expression, and each has a dedicated ``_backward_X``
operator, as in 1.9.1 (where none of these backward operators is itself differentiable).

Points where 1.9.1 is followed although it may surprise:

* scalar parameters declared ``float`` in 1.9.1 (``slope``, the rrelu bounds) are rounded to
  float32 before use, also on float64 data;
* ``gelu`` is the exact erf form, evaluated in float32 whatever the input dtype; ``selu`` uses
  float32 constants (and glibc's expm1f);
* float32 sigmoid, tanh, softrelu, gelu, elu and leaky of 1 to 5 dimensions run in oneDNN's
  eltwise kernels in 1.9.1's CPU build (gelu then takes Abramowitz and Stegun's erf); ours
  emulates those kernels bit for bit (``_onednn.py``; sigmoid/tanh/softrelu/selu up to
  ACT_EMULATE_MAX elements, larger arrays keep NumPy's functions, within an ulp or two);
* the gradients of leaky, elu, selu and rrelu are functions of the *output*. For ``selu``
  1.9.1 computes ``lambda * (y + alpha)`` below zero, not the true ``y + lambda * alpha``;
  ``SELU_GRAD_AS_1_9_1`` keeps that behaviour;
* ``SoftmaxActivation``'s backward always normalises over axis 1, so in instance mode on
  data of more than 2 dimensions its gradient is not the derivative of its forward (which
  works over the last axis); ``SOFTMAX_ACTIVATION_GRAD_AS_1_9_1`` keeps that. 1.9.1 also
  runs it on float32 only; other float dtypes are accepted here;
* ``rrelu`` returns two arrays, the output and the slope mask. While training the slopes are
  drawn uniformly from [lower_bound, upper_bound); in predict mode the slope is their mean
  (1.9.1 leaves the mask uninitialised there; here it holds that mean);
* ``log_softmax`` and ``softmin`` accept ``use_length`` but take no ``length`` input, so
  ``use_length=True`` always fails, as in 1.9.1;
* lengths beyond the axis size are clipped to it (1.9.1 reads past the row).
"""
from __future__ import annotations

import math

import numpy as np

from ..backend import libm32 as _libm32
from ..base import _BF16, MXNetError
from ._batch_threads import run_parts
from ._common import normalize_axis
from ._onednn import (ACT_EMULATE_MAX, EMULATE_MAX, dnn_exp, dnn_gelu, dnn_gelu_grad,
                      dnn_log_softmax, dnn_log_softmax_backward, dnn_sigmoid, dnn_softmax,
                      dnn_softmax_backward, dnn_softrelu, dnn_tanh, dnn_tanh_grad)
from ._safe_acc import softmax_f16, softmax_grad_f16, warn_float16
from .conv_kernels import scratch
from .reduce import _f16_sum as _kahan_sum
from .registry import Param, register
from .special import erf as _erf

SELU_GRAD_AS_1_9_1 = True
SOFTMAX_ACTIVATION_GRAD_AS_1_9_1 = True

_F32 = np.float32
_SELU_ALPHA = float(_F32(1.6732632423543772848170429916717))
_SELU_LAMBDA = float(_F32(1.0507009873554804934193349852946))
_SOFTRELU_LINEAR_FROM = 20.0
_INV_SQRT2_F32 = _F32(1.0 / math.sqrt(2.0))
_SQRT2_F32 = _F32(math.sqrt(2.0))
_INV_SQRT_2PI_F32 = _F32(1.0 / math.sqrt(2.0 * math.pi))


def _f32(v):
    """A parameter declared ``float`` in 1.9.1, rounded the way its C++ struct stores it."""
    return float(_F32(v))


# half-precision types: computed in float32 and rounded back (bfloat16 needs ml_dtypes)
_LOW = (np.dtype(np.float16),) + ((_BF16,) if _BF16 is not None else ())


def check_float(opname, *arrays):
    """MXNetError unless every array has a floating-point dtype, bfloat16 included (1.9.1's
    check)."""
    for a in arrays:
        if a.dtype.kind != "f" and a.dtype != _BF16:
            raise MXNetError(f"{opname}: this operator only supports floating point data, got "
                             f"an input of dtype {a.dtype} and shape {tuple(a.shape)}")


def _work(x):
    """The array in the precision kernels compute in (float16 and bfloat16 are computed in
    float32; the caller rounds the result back)."""
    return x.astype(_F32) if x.dtype in _LOW else x


def _like_inputs(*idx):
    """infer_shape/infer_type: output k has the shape/type of input ``idx[k]``."""
    def infer(attrs, ins, outs):
        return list(ins), [ins[i] if ins[i] is not None else o for i, o in zip(idx, outs)], []
    return infer


def _same(attrs, ins, outs):
    known = next((s for s in list(ins) + list(outs) if s is not None), None)
    return [known] * len(ins), [known] * len(outs), []


# ---------------------------------------------------------------------------------------------
# Activation

_ACT_TYPES = ("relu", "sigmoid", "softrelu", "softsign", "tanh")


def _act_forward(xp, kind, x):
    if kind == "relu":
        return xp.fmax(x, x.dtype.type(0))
    if kind == "sigmoid":
        return 1.0 / (1.0 + xp.exp(-x))
    if kind == "tanh":
        return xp.tanh(x)
    if kind == "softrelu":
        lin = x > _SOFTRELU_LINEAR_FROM
        return xp.where(lin, x, xp.log1p(xp.exp(xp.where(lin, 0.0, x))))
    return x / (1.0 + xp.abs(x))                                     # softsign


def _act_derivative(xp, kind, x, y):
    if kind == "relu":
        return (y > 0).astype(y.dtype)
    if kind == "sigmoid":
        return y * (1.0 - y)
    if kind == "tanh":
        return 1.0 - y * y
    if kind == "softrelu":
        return -xp.expm1(-y)
    d = 1.0 + xp.abs(x)                                             # softsign
    return 1.0 / (d * d)


# long enough that a part of run_parts takes one or two fmax calls: with 2^15 a (32,64,32,32)
# relu made 64 calls, and under a busy second core its two threads spent as long passing the GIL
# between calls (0.42 ms) as one thread took for the whole array (0.28); 2^17: 0.22
_ZERO_CHUNK = 1 << 17
_ZEROS: dict = {}


def _split_ok(*arrays):
    """Whether the NumPy kernels below may run on flat ranges of these arrays."""
    return all(type(a) is np.ndarray and a.flags.c_contiguous for a in arrays)


def _relu_into(x, o):
    """o = fmax(x, 0), in ranges over the op threads. fmax against a block of zeros runs
    NumPy's vector loop; against the scalar 0 it takes a loop about twice as slow (the same
    values; which zero fmax returns for x = -0.0 is NumPy's choice either way)."""
    z = _ZEROS.get(x.dtype)
    if z is None:
        z = _ZEROS[x.dtype] = np.zeros(_ZERO_CHUNK, dtype=x.dtype)
    xf, of = x.reshape(-1), o.reshape(-1)

    def part(a, b):
        for s in range(a, b, _ZERO_CHUNK):
            e = min(s + _ZERO_CHUNK, b)
            np.fmax(xf[s:e], z[:e - s], out=of[s:e])
    run_parts(part, xf.size)
    return o


def _relu_grad_into(og, y, o):
    """o = og * (y > 0) (o may be og), in ranges over the op threads; the mask of a range
    goes into the thread's scratch buffer."""
    gf, yf, of = og.reshape(-1), y.reshape(-1), o.reshape(-1)

    def part(a, b):
        mask = np.greater(yf[a:b], 0, out=scratch(np, "act.mask", (b - a,), bool))
        np.multiply(gf[a:b], mask, out=of[a:b])
    run_parts(part, gf.size)
    return o


def _flat_parts(kernel, arrays, o, dtype):
    """``kernel(*ranges, t, o_range)`` over flat ranges of ``arrays`` and ``o`` (contiguous
    NumPy arrays) split across the op threads, ``t`` a scratch range of ``dtype`` for the
    kernel's temporary. ``o`` may be one of the arrays: kernels read a range's inputs into
    ``t`` before writing its output."""
    flats, of = [a.reshape(-1) for a in arrays], o.reshape(-1)

    def part(a, b):
        kernel(*[f[a:b] for f in flats], scratch(np, "act.tmp", (b - a,), dtype), of[a:b])
    run_parts(part, of.size)
    return o


def _softrelu_into(x, t, o):
    """o = where(x > 20, x, log1p(exp(where(x > 20, 0, x)))), the same steps as
    ``_act_forward``."""
    lin = np.greater(x, _SOFTRELU_LINEAR_FROM, out=scratch(np, "act.mask", x.shape, bool))
    np.copyto(t, x)
    np.copyto(t, 0.0, where=lin)
    np.exp(t, out=t)
    np.log1p(t, out=t)
    np.copyto(t, x, where=lin)
    np.copyto(o, t)


def _softsign_into(x, t, o):
    """o = x / (1 + |x|)."""
    np.abs(x, out=t)
    np.add(t, 1.0, out=t)
    np.divide(x, t, out=o)


def _derivative_into(kind, x, y, t):
    """t = the derivative of ``kind`` (not relu) at (x, y), the steps of ``_act_derivative``."""
    if kind == "sigmoid":                  # y * (1 - y)
        np.subtract(1.0, y, out=t)
        np.multiply(y, t, out=t)
    elif kind == "tanh":                   # 1 - y * y
        np.multiply(y, y, out=t)
        np.subtract(1.0, t, out=t)
    elif kind == "softrelu":               # -expm1(-y)
        np.negative(y, out=t)
        np.expm1(t, out=t)
        np.negative(t, out=t)
    else:                                  # softsign: 1 / (1 + |x|)**2
        np.abs(x, out=t)
        np.add(t, 1.0, out=t)
        np.multiply(t, t, out=t)
        np.divide(1.0, t, out=t)
    return t


def _out_like(out, x):
    """``out[0]`` when it can hold a result shaped and typed like ``x`` (else None)."""
    o = out[0] if out else None
    if o is None or o.shape != x.shape or o.dtype != x.dtype or x.dtype in _LOW:
        return None
    return o


def _onednn_act(rc, x):
    """Whether 1.9.1's CPU build runs this float32 activation in oneDNN (1 to 5 dimensions)
    and ours emulates its kernel (up to ACT_EMULATE_MAX elements; larger arrays take NumPy's
    functions, within an ulp or two)."""
    return rc.xp is np and x.dtype == np.float32 and 1 <= x.ndim <= 5 and \
        x.size <= ACT_EMULATE_MAX


_DNN_ACT = {"sigmoid": dnn_sigmoid, "tanh": dnn_tanh, "softrelu": dnn_softrelu}


def _activation(rc, attrs, x, out=None):
    check_float("Activation", x)
    o = _out_like(out, x)
    kind = attrs["act_type"]
    if kind in _DNN_ACT and _onednn_act(rc, x):
        with np.errstate(all="ignore"):
            y = _DNN_ACT[kind](np, x)
        if o is None:
            return y
        np.copyto(o, y)
        return o
    if kind == "relu" and x.dtype not in _LOW and _split_ok(x) and \
            (o is None or _split_ok(o)):
        return _relu_into(x, np.empty_like(x) if o is None else o)
    if o is not None and kind in ("softrelu", "softsign") and _split_ok(x, o):
        return _flat_parts(_softrelu_into if kind == "softrelu" else _softsign_into, [x], o,
                           x.dtype)
    if o is not None and kind in ("relu", "sigmoid", "tanh"):
        xp = rc.xp
        if kind == "relu":
            return xp.fmax(x, x.dtype.type(0), out=o)
        if kind == "tanh":
            return xp.tanh(x, out=o)
        xp.negative(x, out=o)              # the same steps as 1 / (1 + exp(-x))
        xp.exp(o, out=o)
        o += 1.0
        return xp.divide(1.0, o, out=o)
    return _act_forward(rc.xp, kind, _work(x)).astype(x.dtype, copy=False)


def _activation_backward(rc, attrs, og, x, y, out=None):
    o = _out_like(out, y)
    kind = attrs["act_type"]
    if kind in ("tanh", "softrelu") and og.dtype == y.dtype and og.shape == y.shape and \
            _onednn_act(rc, y):
        # oneDNN's: 1 - y*y fused (y is its tanh), and softrelu's logistic of the input
        with np.errstate(all="ignore"):
            d = dnn_tanh_grad(np, y) if kind == "tanh" else dnn_sigmoid(np, x)
        return np.multiply(og, d, out=o)
    if attrs["act_type"] == "relu" and og.dtype == y.dtype and y.dtype not in _LOW and \
            og.shape == y.shape and _split_ok(og, y) and (o is None or _split_ok(o)):
        return _relu_grad_into(og, y, np.empty_like(y) if o is None else o)
    kind = attrs["act_type"]
    if o is not None and og.dtype == y.dtype and kind != "relu" and og.shape == y.shape and \
            _split_ok(og, y, o, *((x,) if kind == "softsign" else ())):
        def grad(og_, x_, y_, t, o_):
            np.multiply(og_, _derivative_into(kind, x_, y_, t), out=o_)
        # x is only read for softsign (for the others it may be a stand-in of its shape)
        return _flat_parts(grad, [og, x if kind == "softsign" else y, y], o, y.dtype)
    if o is not None and og.dtype == y.dtype:
        if kind == "relu":   # o may be og's buffer (the declared in-place pair)
            return rc.xp.multiply(og, y > 0, out=o)
        if kind in ("sigmoid", "tanh"):
            return rc.xp.multiply(og, _act_derivative(rc.xp, kind, x, y), out=o)
    d = _act_derivative(rc.xp, attrs["act_type"], _work(x), _work(y))
    return (_work(og) * d).astype(x.dtype, copy=False)


_ACT_PARAMS = (Param("act_type", "str", choices=_ACT_TYPES,
                     doc="The activation function: relu, sigmoid, softrelu, softsign or tanh."),)

register("Activation", _activation, params=_ACT_PARAMS, infer_shape=_same, infer_type=_same,
         accepts_out=True,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_Activation(og[0], ins[0], outs[0], act_type=a["act_type"])],
         inplace=((0, 0),),
         doc="Apply an elementwise activation function (relu, sigmoid, tanh, softrelu or "
             "softsign).")
register("_backward_Activation", _activation_backward, params=_ACT_PARAMS, accepts_out=True,
         inputs=("ograd", "data", "output"), infer_shape=_like_inputs(1),
         infer_type=_like_inputs(1), inplace=((0, 0),),
         # softsign's gradient reads the data, softrelu's too (oneDNN's logistic of it);
         # the others use the output
         ignored_inputs=lambda attrs: () if attrs.get("act_type") in ("softsign", "softrelu")
         else (1,),
         doc="The gradient of Activation.")


# ---------------------------------------------------------------------------------------------
# LeakyReLU

_LEAKY_TYPES = ("elu", "gelu", "leaky", "prelu", "rrelu", "selu")
_LEAKY_PARAMS = (
    Param("act_type", "str", "leaky", choices=_LEAKY_TYPES, doc="The activation function."),
    Param("slope", "float", 0.25, doc="The negative slope of leaky and the scale of elu."),
    Param("lower_bound", "float", 0.125, doc="The smallest random slope of rrelu."),
    Param("upper_bound", "float", 0.334, doc="The largest random slope of rrelu."),
)


def prelu_gamma_shape(opname, gshape, dshape):
    """Where gamma's axes sit in data: aligned from the right, onto axes 0 and 1 only.

    Returns gamma's shape padded with ones to data's rank, as 1.9.1 broadcasts it.
    """
    out = [1] * len(dshape)
    s = len(gshape) - 1
    for i in range(len(dshape) - 1, -1, -1):
        if s >= 0 and i <= 1 and (dshape[i] == gshape[s] or gshape[s] == 1):
            out[i] = gshape[s]
            s -= 1
    if s != -1:
        raise MXNetError(f"{opname}: cannot broadcast gamma of shape {tuple(gshape)} to data of "
                         f"shape {tuple(dshape)}; gamma's axes must match data's axes 0 and 1 "
                         f"(a per-channel gamma has shape ({dshape[1] if len(dshape) > 1 else '?'},))")
    return tuple(out)


def _gelu_f32(xp, x):
    """0.5 x (1 + erf(x / sqrt 2)) in float32, as 1.9.1 computes it for every dtype."""
    xf = x.astype(_F32)
    e = _erf(xp, (xf / _SQRT2_F32).astype(np.float64)).astype(_F32)
    return _F32(0.5) * xf * (_F32(1.0) + e)


def _gelu_grad_f32(xp, x):
    xf = x.astype(_F32)
    e = _erf(xp, (xf / _SQRT2_F32).astype(np.float64)).astype(_F32)
    return _F32(0.5) * (_F32(1.0) + e) + xf * xp.exp(_F32(-0.5) * xf * xf) * _INV_SQRT_2PI_F32


def _leaky_inputs(attrs):
    return ["data", "gamma"] if attrs["act_type"] == "prelu" else ["data"]


def _rrelu_mean(attrs):
    return float((_F32(attrs["lower_bound"]) + _F32(attrs["upper_bound"])) / _F32(2.0))


def _half_or(x, value):
    """``value`` rounded to float16 when ``x`` is float16 (1.9.1's half kernels cast their
    float parameters to the data type), else unchanged."""
    return float(np.float16(value)) if x.dtype == np.float16 else value


def _leaky_into(xp, x, o, slope):
    """leaky/prelu into ``o``: ``x`` where positive, else ``x * slope`` (a scalar or an
    array broadcasting against ``x``). The mask is taken first: ``o`` may be ``x``."""
    neg = xp.greater(x, 0, out=scratch(xp, "act.mask", x.shape, bool))
    xp.logical_not(neg, out=neg)   # not positive (NaN included)
    xp.copyto(o, x)
    xp.multiply(o, slope, out=o, where=neg)
    return o


# prelu's gamma gradient over at most this many elements per channel takes 1.9.1's compensated
# (Kahan) sum, element after element (a loop: ~5 us per element); larger ones NumPy's sum
_PRELU_KAHAN_MAX = 1024


def _onednn_elu(x):
    """Whether 1.9.1's CPU build runs this elu in oneDNN (float32, 1 to 5 dimensions) and ours
    emulates it (up to EMULATE_MAX elements)."""
    return x.dtype == np.float32 and 1 <= x.ndim <= 5 and x.size <= EMULATE_MAX


def _onednn_gelu(x):
    """Whether 1.9.1 runs this gelu in oneDNN (float32, 1 to 5 dimensions; its erf is
    Abramowitz and Stegun's approximation, within ~1e-7 of the true gelu). The emulation costs
    less than the exact float64 erf, so it has no size limit."""
    return type(x) is np.ndarray and x.dtype == np.float32 and 1 <= x.ndim <= 5


def _leaky_relu(rc, attrs, x, gamma=None, out=None):
    check_float("LeakyReLU", x)
    xp, kind = rc.xp, attrs["act_type"]
    if gamma is not None and gamma.dtype != x.dtype:  # 1.9.1's type inference is uniform
        raise MXNetError(f"LeakyReLU: gamma has dtype {gamma.dtype} but data has dtype "
                         f"{x.dtype}; act_type='{kind}' needs them to match (cast one of them)")
    o = out[0] if out else None
    if o is not None and xp is np and o.shape == x.shape and o.dtype == x.dtype and \
            x.dtype not in _LOW and kind in ("leaky", "prelu"):
        if kind == "leaky":
            return _leaky_into(xp, x, o, x.dtype.type(_f32(attrs["slope"])))
        check_float("LeakyReLU", gamma)
        if x.ndim >= 2 and gamma.dtype == x.dtype:
            g = gamma.reshape(
                prelu_gamma_shape("LeakyReLU", gamma.shape, x.shape))
            return _leaky_into(xp, x, o, g)
    xw = _work(x)
    dt = xw.dtype.type
    if kind == "leaky":
        # 1.9.1 rounds the slope to float16 for half data, and computes float64 data's
        # negative part in float32 (leaky(-1e300) is -inf, leaky(-1e-300) is -0.0)
        if x.dtype == np.float16:
            y = xp.where(x > 0, xw, xw * dt(np.float16(_f32(attrs["slope"]))))
        elif x.dtype == np.float64:
            neg = x.astype(_F32) * _F32(_f32(attrs["slope"]))
            y = xp.where(x > 0, x, neg.astype(np.float64))
        else:
            y = xp.where(x > 0, xw, xw * dt(_f32(attrs["slope"])))
    elif kind == "elu" and _onednn_elu(x):   # slope * (exp(x) - 1) with oneDNN's exp
        a = _F32(_f32(attrs["slope"]))
        e = dnn_exp(xp, xp.minimum(x, _F32(0)))
        e -= _F32(1)
        e *= a
        y = xp.where(x > 0, x, e)
    elif kind == "elu":   # float16: the slope rounded to float16 (as 1.9.1)
        y = xp.where(x > 0, xw, dt(_half_or(x, _f32(attrs["slope"])))
                     * xp.expm1(xp.minimum(xw, 0)))
    elif kind == "selu":
        neg = xp.minimum(xw, 0)   # float32: glibc's expm1f (larger arrays: rounded once)
        if x.dtype == _F32 and type(x) is np.ndarray and x.size <= ACT_EMULATE_MAX:
            # glibc's expm1f, which 1.9.1's selu calls (rounding expm1 once differs on ~8%)
            em1 = _libm32.expm1f(xp.where(x > 0, _F32(0), x))   # keeps -0.0
        elif neg.dtype == _F32 and xp is np:
            em1 = xp.expm1(neg, dtype=np.float64).astype(_F32)
        else:
            em1 = xp.expm1(neg)
        inner = dt(_SELU_ALPHA) * em1
        if x.dtype == np.float16:   # 1.9.1: alpha * expm1 rounded to float16, lambda too
            inner = inner.astype(np.float16).astype(xw.dtype)
        y = dt(_half_or(x, _SELU_LAMBDA)) * xp.where(x > 0, xw, inner)
    elif kind == "gelu" and _onednn_gelu(x):
        with np.errstate(all="ignore"):
            y = dnn_gelu(xp, x)
    elif kind == "gelu":
        y = _gelu_f32(xp, x)
    elif kind == "prelu":
        check_float("LeakyReLU", gamma)
        if x.ndim < 1:   # as 1.9.1: 1-D data takes gamma along its only axis
            raise MXNetError(f"LeakyReLU: prelu needs data with at least 1 dimension, got "
                             f"shape {tuple(x.shape)}")
        g = _work(gamma).reshape(prelu_gamma_shape("LeakyReLU", gamma.shape, x.shape))
        y = xp.where(x > 0, xw, xw * g)
    else:                                                           # rrelu
        if rc.is_train:
            lo, hi = _f32(attrs["lower_bound"]), _f32(attrs["upper_bound"])
            draw = rc.rng.random(x.shape, dtype=np.float64 if x.dtype == np.float64 else _F32)
            mask = (lo + (hi - lo) * draw).astype(x.dtype, copy=False)
        else:
            mask = xp.full(x.shape, _rrelu_mean(attrs), dtype=x.dtype)
        y = xp.where(x > 0, x, x * mask)
        return y, mask
    return y.astype(x.dtype, copy=False)


def _leaky_backward(rc, attrs, og, x, y, extra=None):
    xp, kind = rc.xp, attrs["act_type"]
    g = _work(og)
    yw = _work(y)
    dt = yw.dtype.type
    if kind == "leaky" and _onednn_elu(x):   # oneDNN's relu gradient: 1 at NaN too
        d = xp.where(y <= 0, dt(_f32(attrs["slope"])), dt(1))
    elif kind == "leaky":
        d = xp.where(y > 0, dt(1), dt(_f32(attrs["slope"])))
    elif kind == "elu" and _onednn_elu(x):   # oneDNN's: slope * exp(x), from the input
        # 1 where exp(x) > 1 (a tiny positive x has exp(x) = 1: slope there), and at NaN
        e = dnn_exp(xp, x)
        d = xp.where(e <= _F32(1), e * _F32(_f32(attrs["slope"])), _F32(1))
    elif kind == "elu":
        d = xp.where(y > 0, dt(1), yw + dt(_half_or(y, _f32(attrs["slope"]))))
    elif kind == "selu":
        if SELU_GRAD_AS_1_9_1 and y.dtype == np.float16:   # y + alpha rounded to float16
            inner = (yw + dt(_SELU_ALPHA)).astype(np.float16).astype(yw.dtype)
            d = dt(_half_or(y, _SELU_LAMBDA)) * xp.where(y > 0, dt(1), inner)
        elif SELU_GRAD_AS_1_9_1:
            d = dt(_SELU_LAMBDA) * xp.where(y > 0, dt(1), yw + dt(_SELU_ALPHA))
        else:
            d = xp.where(y > 0, dt(_SELU_LAMBDA), yw + dt(_SELU_LAMBDA * _SELU_ALPHA))
    elif kind == "gelu" and _onednn_gelu(x):
        with np.errstate(all="ignore"):
            d = dnn_gelu_grad(xp, x)
    elif kind == "gelu":
        d = _gelu_grad_f32(xp, x)
    elif kind == "prelu":
        gshape = prelu_gamma_shape("LeakyReLU", extra.shape, x.shape)
        gam = _work(extra).reshape(gshape)
        xw = _work(x)
        dx = g * xp.where(x > 0, dt(1), gam)
        axes = tuple(i for i, s in enumerate(gshape) if s == 1)
        prod = g * xp.where(x > 0, dt(0), xw)
        if xp is np and prod.dtype == np.float32 and \
                math.prod(prod.shape[a] for a in axes) <= _PRELU_KAHAN_MAX:
            dg = _kahan_sum(prod, axes, True, acc=np.float32)   # 1.9.1's compensated sum
        else:
            dg = xp.sum(prod, axis=axes, keepdims=True)
        return (dx.astype(x.dtype, copy=False),
                dg.reshape(extra.shape).astype(extra.dtype, copy=False))
    else:                                                           # rrelu
        d = xp.where(y > 0, dt(1), _work(extra))
    if kind in ("leaky", "elu", "selu") and x.dtype == np.float16:
        d = d.astype(np.float16).astype(dt)   # 1.9.1's half kernel: the derivative in float16
    return (g * d).astype(x.dtype, copy=False)


def _leaky_shape(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else outs[0]
    ins = list(ins)
    n_out = 2 if attrs["act_type"] == "rrelu" else 1
    if attrs["act_type"] == "prelu" and d is not None:
        if len(d) < 1 or (len(d) < 2 and ins[1] is None):
            raise MXNetError(f"LeakyReLU: prelu needs data with at least 2 dimensions (or a "
                             f"known gamma shape), got shape {tuple(d)}")
        if ins[1] is None:
            ins[1] = (d[1],)
        else:
            prelu_gamma_shape("LeakyReLU", ins[1], d)
    ins[0] = d
    return ins, [d] * n_out, []


def _leaky_type(attrs, ins, outs):
    t = next((s for s in list(ins) + list(outs) if s is not None), None)
    return [t] * len(ins), [t] * len(outs), []


def _leaky_grad(F, attrs, ins, outs, og):
    kind = attrs["act_type"]
    args = [og[0], ins[0], outs[0]]
    if kind == "prelu":
        args.append(ins[1])
    elif kind == "rrelu":
        args.append(outs[1])
    res = F._backward_LeakyReLU(*args, **attrs)
    return list(res) if kind == "prelu" else [res]


def _leaky_n_out(attrs):
    return 2 if attrs["act_type"] == "rrelu" else 1


register("LeakyReLU", _leaky_relu, params=_LEAKY_PARAMS, inputs=_leaky_inputs,
         num_outputs=_leaky_n_out, accepts_out=True,
         output_names=lambda a: ["output", "mask"] if a["act_type"] == "rrelu" else ["output"],
         infer_shape=_leaky_shape, infer_type=_leaky_type, gradient=_leaky_grad, needs_rng=True,
         doc="Leaky rectifiers and their relatives: leaky, prelu (learned slope ``gamma``), "
             "elu, selu, gelu and rrelu (random slope while training).")


def _leaky_backward_inputs(attrs):
    kind = attrs["act_type"]
    extra = ["gamma"] if kind == "prelu" else ["mask"] if kind == "rrelu" else []
    return ["ograd", "data", "output"] + extra


def _leaky_backward_shape(attrs, ins, outs):
    res = [ins[1]]
    if attrs["act_type"] == "prelu":
        res.append(ins[3])
    return list(ins), res, []


register("_backward_LeakyReLU", _leaky_backward, params=_LEAKY_PARAMS,
         inputs=_leaky_backward_inputs,
         num_outputs=lambda a: 2 if a["act_type"] == "prelu" else 1,
         infer_shape=_leaky_backward_shape, infer_type=_leaky_backward_shape,
         doc="The gradient of LeakyReLU (data, and gamma for prelu).")


# ---------------------------------------------------------------------------------------------
# softmax, log_softmax, softmin

_SOFTMAX_DTYPES = ("float16", "float32", "float64")


def _softmax_params():
    return (Param("axis", "int", -1, doc="The axis to normalise over."),
            Param("temperature", "float", None, doc="Divides the input (None means 1)."),
            Param("dtype", "dtype", None, choices=_SOFTMAX_DTYPES,
                  doc="The output dtype (default: the input's)."),
            Param("use_length", "bool", False, optional=True,
                  doc="Mask each row beyond ``length`` (softmax only)."))


def _out_dtype(attrs, x):
    return np.dtype(attrs["dtype"]) if attrs["dtype"] else x.dtype


def _length_mask(xp, opname, length, shape, axis):
    """Boolean mask of the positions each row's length keeps, shaped like data."""
    if length.dtype not in (np.int32, np.int64):   # 1.9.1 rejects int8, uint8 and bool too
        raise MXNetError(f"{opname}: length must have an integer dtype (int32 or int64), got "
                         f"{length.dtype}")
    want = tuple(s for i, s in enumerate(shape) if i != axis)
    if tuple(length.shape) != want:
        raise MXNetError(f"{opname}: length has shape {tuple(length.shape)} but data of shape "
                         f"{tuple(shape)} needs {want} (data's shape without axis {axis})")
    n = shape[axis]
    lim = xp.expand_dims(xp.clip(length.astype(np.int64), 0, n), axis)
    pos = xp.arange(n).reshape(tuple(n if i == axis else 1 for i in range(len(shape))))
    return pos < lim


def _seq_sum(xp, a, axis):
    """Sum along ``axis`` adding one element after another, as 1.9.1's generic CPU softmax
    kernel does (NumPy's pairwise sum rounds differently); keeps the axis."""
    n = a.shape[axis]
    if n <= 2:
        return xp.sum(a, axis=axis, keepdims=True)
    if a.size == n:   # one row: NumPy would sum it pairwise
        return xp.take(xp.cumsum(a, axis=axis), [n - 1], axis=axis)
    # summing over the outer axis of a C-contiguous array adds row after row
    if axis == a.ndim - 1:
        cols = xp.ascontiguousarray(a.reshape(-1, n).T)
        return xp.sum(cols, axis=0).reshape(a.shape[:-1] + (1,))
    b = xp.ascontiguousarray(xp.moveaxis(a, axis, 0))
    return xp.expand_dims(xp.sum(b, axis=0), axis)


# float32 arrays up to this size take glibc's expf/logf steps (backend/libm32: 1.9.1's generic
# softmax kernel calls them; ~3x the cost of float64 rounded once, which differs from glibc on
# ~0.06% of arguments); larger ones keep float64 rounded once
LIBM_EXACT_MAX = 1 << 16


def _exp_f32(xp, z):
    """exp as glibc's expf for float32 (float64 rounded once above LIBM_EXACT_MAX); NumPy's
    otherwise."""
    if z.dtype == np.float32 and xp is np:
        if z.size <= LIBM_EXACT_MAX:
            return _libm32.expf(xp, z)
        return xp.exp(z, out=xp.empty(z.shape, np.float32), dtype=np.float64)
    return xp.exp(z)


def _log_f32(xp, z):
    if z.dtype == np.float32 and xp is np:
        if z.size <= LIBM_EXACT_MAX:
            return _libm32.logf(xp, z)
        return xp.log(z, out=xp.empty(z.shape, np.float32), dtype=np.float64)
    return xp.log(z)


# Emulating oneDNN's exp (and log) takes ~50 small NumPy calls: on a (32, 10) batch of class
# scores ~30 us (softmax) / ~40 us (log_softmax) more per call than NumPy's float32 path, which
# is not bit-exact (~60% of outputs match 1.9.1's bits). 1.9.1 takes oneDNN's kernel at every
# size, so all sizes are emulated up to EMULATE_MAX elements (~6x NumPy's softmax there).
ONEDNN_SOFTMAX_MIN_SIZE = 1


def onednn_softmax(kind, x, axis, temperature, use_length, out_dtype):
    """Whether 1.9.1's CPU build hands this softmax to oneDNN (float32 in and out, the last
    axis of a 1- to 4-d array, no temperature given, no lengths): "exact" where ours emulates
    its arithmetic, "fast" where ours takes NumPy's float32 path instead; else None."""
    if kind == "softmin" or x.dtype != np.float32 or np.dtype(out_dtype) != np.float32 or \
            temperature is not None or use_length or axis != x.ndim - 1 or \
            not 1 <= x.ndim <= 4:
        return None
    return "exact" if ONEDNN_SOFTMAX_MIN_SIZE <= x.size <= EMULATE_MAX else "fast"


# rows of large softmaxes go in blocks of about this many elements, and at least this many
# rows (the in-order sums run across the rows of a block: short ones cost per row)
_SOFTMAX_BLOCK = 1 << 16
_SOFTMAX_ROWS = 64


def _by_row_blocks(rows, n, block):
    """``block(i, j)`` for every block of rows i..j of a (rows, n) array (at least
    _SOFTMAX_ROWS rows, about _SOFTMAX_BLOCK elements each), the blocks shared out over the op
    threads."""
    step = max(_SOFTMAX_ROWS, _SOFTMAX_BLOCK // max(n, 1))

    def part(a, b):
        for i in range(a, b, step):
            block(i, min(i + step, b))
    run_parts(part, rows, rows * n)


def _softmax_rows(x, kind, temperature, out_dtype, out):
    """softmax_forward's generic steps over the last axis of a large C-contiguous float32 /
    float64 array (the same operations on every row, so the same bits), block of rows by
    block of rows while each is in the core's cache, the blocks shared out over the op
    threads (a (700, 10000) SoftmaxOutput of a language model took ~9 ms a call in whole-array
    passes: exp in float64, and a transposed copy of the whole array for the in-order sums)."""
    n = x.shape[-1]
    x2 = x.reshape(-1, n)
    wdt = np.result_type(x.dtype, _F32)
    if out is None or out.dtype != out_dtype or out.shape != x.shape or \
            not out.flags.c_contiguous:
        out = np.empty(x.shape, out_dtype)
    r2 = out.reshape(-1, n)
    scale = None if temperature is None or temperature == 1.0 else wdt.type(temperature)

    def wide(fn, a):   # float32: the float64 function rounded once, as for large arrays
        if wdt == np.float32:
            return fn(a, out=np.empty(a.shape, np.float32), dtype=np.float64)
        return fn(a)

    def block(i, j):
        z = x2[i:j].astype(wdt, copy=False)
        if kind == "softmin":
            z = -z
        z = z - z.max(axis=1, keepdims=True)
        if scale is not None:
            z = z / scale
        e = wide(np.exp, z)
        s = _seq_sum(np, e, 1)
        r2[i:j] = z - wide(np.log, s) if kind == "log_softmax" else e / s
    _by_row_blocks(x2.shape[0], n, block)
    return out


def _fast_softmax_rows(x, kind, out):
    """softmax_forward's NumPy float32 path (the "fast" stand-in for oneDNN's kernel on large
    arrays) block of rows by block of rows over the op threads: each row's steps are the
    same, so are its bits."""
    n = x.shape[-1]
    x2, o2 = x.reshape(-1, n), out.reshape(-1, n)

    def block(i, j):
        z = np.subtract(x2[i:j], np.max(x2[i:j], axis=1, keepdims=True), out=o2[i:j])
        if kind == "log_softmax":
            e = np.exp(z, out=scratch(np, "act.tmp", z.shape, z.dtype))
            z -= np.log(np.sum(e, axis=1, keepdims=True))
        else:
            np.exp(z, out=z)
            z /= np.sum(z, axis=1, keepdims=True)
    _by_row_blocks(x2.shape[0], n, block)
    return out


def _fast_softmax_grad_rows(og, y, kind, out):
    """softmax_backward's NumPy float32 path on large arrays, block of rows by block of rows
    over the op threads (each row's steps alike: the same bits): og - exp(y) * sum(og) for
    log_softmax, og * y - y * sum(og * y) for softmax."""
    n = y.shape[-1]
    if out is None or out.shape != y.shape or out.dtype != y.dtype or \
            not out.flags.c_contiguous or np.may_share_memory(out, y):
        out = np.empty(y.shape, y.dtype)
    g2, y2, o2 = og.reshape(-1, n), y.reshape(-1, n), out.reshape(-1, n)

    def block(i, j):
        g, yb = g2[i:j], y2[i:j]
        t = scratch(np, "act.tmp", yb.shape, yb.dtype)
        if kind == "log_softmax":
            s = np.sum(g, axis=1, keepdims=True)
            np.exp(yb, out=t)
            t *= s
            np.subtract(g, t, out=o2[i:j])
        else:
            d = np.multiply(g, yb, out=o2[i:j])
            np.multiply(yb, np.sum(d, axis=1, keepdims=True), out=t)
            d -= t
    _by_row_blocks(y2.shape[0], n, block)
    return out


def softmax_forward(xp, x, axis, temperature=None, kind="softmax", mask=None, out_dtype=None,
                    out=None, onednn=False):
    """Numerically stable softmax / log_softmax / softmin of ``x`` along ``axis``.

    Computes in the input's dtype (float16 in float32), then casts to ``out_dtype``, as 1.9.1
    does; ``mask`` (boolean, like ``x``) zeroes the positions it excludes. ``out``: an array
    to write the result into (used when no cast or mask is involved; same steps either way).
    1.9.1's generic kernel (which ours follows bit for bit): e = expf((x - max) / t), the sum
    taken in order, then e / sum or (x - max) / t - logf(sum). ``onednn`` (see
    onednn_softmax): "exact" gives softmax / log_softmax as oneDNN's kernel computes them
    (bit for bit); otherwise NumPy's float32 exp, sum, log.
    """
    if onednn == "exact" and kind in ("softmax", "log_softmax") and x.size:
        res = (dnn_softmax if kind == "softmax" else dnn_log_softmax)(xp, x)
        if out is not None and out.shape == res.shape and out.dtype == res.dtype:
            out[...] = res
            return out
        return res
    out_dtype = np.dtype(out_dtype or x.dtype)
    if x.size == 0:  # an empty array: nothing to normalise (max has no identity)
        return xp.zeros(x.shape, dtype=out_dtype)
    wdt = np.result_type(x.dtype, _F32)
    if onednn and x.dtype == np.float32:
        if out is None or out.dtype != np.float32 or out.shape != x.shape:
            out = xp.empty(x.shape, np.float32)
        if xp is np and x.size > LIBM_EXACT_MAX and out.flags.c_contiguous and \
                x.flags.c_contiguous:   # (axis is the last: see onednn_softmax)
            return _fast_softmax_rows(x, kind, out)
        m = xp.max(x, axis=axis, keepdims=True)
        z = xp.subtract(x, m, out=out)
        if kind == "log_softmax":
            e = xp.exp(z, out=scratch(xp, "act.tmp", z.shape, z.dtype)) if xp is np else \
                xp.exp(z)
            z -= xp.log(xp.sum(e, axis=axis, keepdims=True))
            return z
        xp.exp(z, out=z)
        z /= xp.sum(z, axis=axis, keepdims=True)
        return z
    if x.dtype == np.float16 and xp is np:
        return softmax_f16(x, axis, temperature, kind, out_dtype, mask)
    if (xp is np and mask is None and axis == x.ndim - 1 and x.size > LIBM_EXACT_MAX
            and x.dtype in (np.float32, np.float64) and x.flags.c_contiguous):
        return _softmax_rows(x, kind, temperature, out_dtype, out)
    z = x.astype(wdt, copy=False)
    if kind == "softmin":
        z = -z
    if mask is not None:
        z = xp.where(mask, z, -xp.inf)
    m = z.max(axis=axis, keepdims=True)
    if mask is not None:
        m = xp.where(xp.any(mask, axis=axis, keepdims=True), m, 0)
    z = z - m
    if temperature is not None and temperature != 1.0:
        z = z / wdt.type(temperature)
    e = _exp_f32(xp, z)
    s = _seq_sum(xp, e, axis)
    if kind == "log_softmax":
        res = z - _log_f32(xp, s)
    else:
        if mask is not None:
            s = xp.where(s == 0, 1, s)
        res = e / s
    if out is not None and out.dtype == out_dtype and out.shape == res.shape:
        out[...] = res
        return out
    return res.astype(out_dtype, copy=False)


def softmax_backward(xp, og, y, axis, temperature=None, kind="softmax", in_dtype=None, out=None,
                     onednn=False):
    """The input gradient of softmax_forward from its output ``y`` and head gradient ``og``
    (written into ``out`` when given and no cast is involved; same steps either way). As
    1.9.1's generic kernel: y * (og - sum(og * y)) or og - expf(y) * sum(og), the sums in
    order, then divided by the temperature; ``onednn``: as oneDNN's kernel (bit for bit)."""
    if og.dtype == y.dtype == np.float16 and np.dtype(in_dtype or og.dtype) == np.float16 \
            and xp is np:
        return softmax_grad_f16(og, y, axis, temperature, kind)
    if onednn == "exact" and og.dtype == y.dtype == np.float32:
        fn = dnn_log_softmax_backward if kind == "log_softmax" else dnn_softmax_backward
        dx = fn(xp, og, y)
    elif onednn and og.dtype == y.dtype == np.float32 and xp is np and \
            y.size > LIBM_EXACT_MAX and og.flags.c_contiguous and y.flags.c_contiguous:
        dx = _fast_softmax_grad_rows(og, y, kind, out)   # (the axis is the last)
    elif onednn and og.dtype == y.dtype == np.float32:   # NumPy's float32 path
        if kind == "log_softmax":
            dx = og - xp.exp(y) * xp.sum(og, axis=axis, keepdims=True)
        else:
            dx = xp.multiply(og, y, out=out if out is not None and out.shape == og.shape and
                             out.dtype == og.dtype else None)
            dx -= y * xp.sum(dx, axis=axis, keepdims=True)
    else:
        wdt = np.result_type(og.dtype, y.dtype, _F32)
        g = og.astype(wdt, copy=False)
        yw = y.astype(wdt, copy=False)
        if kind == "log_softmax":
            dx = g - _exp_f32(xp, yw) * _seq_sum(xp, g, axis)
        else:
            dx = yw * (g - _seq_sum(xp, g * yw, axis))
            if kind == "softmin":
                dx = -dx
        if temperature is not None and temperature != 1.0:
            dx = dx / wdt.type(temperature)
    dt = np.dtype(in_dtype or og.dtype)
    if out is not None and out.dtype == dt and out.shape == dx.shape:
        if dx is not out:
            out[...] = dx
        return out
    return dx.astype(dt, copy=False)


def _make_softmax(kind):
    def compute(rc, attrs, x, length=None, out=None):
        check_float(kind, x)
        warn_float16("softmax", x.dtype)
        axis = normalize_axis(kind, attrs["axis"], x.ndim)
        if attrs["use_length"] and kind != "softmax":
            raise MXNetError(f"{kind}: use_length=True needs a length input, which {kind} does "
                             f"not take (only softmax does)")
        mask = None
        if attrs["use_length"]:
            mask = _length_mask(rc.xp, kind, length, x.shape, axis)
        od = _out_dtype(attrs, x)
        dnn = onednn_softmax(kind, x, axis, attrs["temperature"], attrs["use_length"], od)
        return softmax_forward(rc.xp, x, axis, attrs["temperature"], kind, mask, od,
                               out=out[0] if out else None, onednn=dnn)

    def backward(rc, attrs, og, x, y, length=None, out=None):
        axis = normalize_axis(kind, attrs["axis"], x.ndim)
        # with dtype given, 1.9.1's backward takes the generic kernel (its forward, oneDNN's)
        dnn = None if attrs["dtype"] else \
            onednn_softmax(kind, x, axis, attrs["temperature"], attrs["use_length"], y.dtype)
        dx = softmax_backward(rc.xp, og, y, axis, attrs["temperature"], kind, x.dtype,
                              out=out[0] if out else None, onednn=dnn)
        if attrs["use_length"]:   # 1.9.1 writes +0 past each row's length (y is 0 there)
            rc.xp.copyto(dx, 0, where=y == 0)
        return dx

    def gradient(F, attrs, ins, outs, og):
        # an unset dtype stays unset (mx.nd would read dtype=None as float64)
        kw = {k: v for k, v in attrs.items() if k != "dtype" or v is not None}
        dx = getattr(F, f"_backward_{kind}")(og[0], ins[0], outs[0], **kw)
        return [dx] + [None] * (len(ins) - 1)

    def infer_shape(attrs, ins, outs):
        d = ins[0] if ins[0] is not None else outs[0]
        ins = list(ins)
        if d is not None and len(ins) > 1 and ins[1] is None:
            ax = normalize_axis(kind, attrs["axis"], len(d))
            ins[1] = tuple(s for i, s in enumerate(d) if i != ax)
        ins[0] = d
        return ins, [d], []

    def infer_type(attrs, ins, outs):
        ins = list(ins)
        if attrs["dtype"]:
            return ins, [np.dtype(attrs["dtype"])], []
        if ins[0] is None:
            ins[0] = outs[0]
        return ins, [ins[0]], []

    if kind == "softmax":
        def inputs(attrs):
            return ["data", "length"] if attrs["use_length"] else ["data"]
    else:
        inputs = ("data",)
    docs = {"softmax": "exp(x / t) normalised to sum to one along ``axis``.",
            "log_softmax": "The logarithm of softmax along ``axis``.",
            "softmin": "softmax of the negated input along ``axis``."}
    register(kind, compute, params=_softmax_params(), inputs=inputs, gradient=gradient,
             infer_shape=infer_shape, infer_type=infer_type, doc=docs[kind], accepts_out=True)
    register(f"_backward_{kind}", backward, params=_softmax_params(), accepts_out=True,
             inputs=("ograd", "data", "output"), infer_shape=_like_inputs(1),
             infer_type=_like_inputs(1), doc=f"The gradient of {kind}.")


for _kind in ("softmax", "log_softmax", "softmin"):
    _make_softmax(_kind)


# ---------------------------------------------------------------------------------------------
# SoftmaxActivation

_SA_PARAMS = (Param("mode", "str", "instance", choices=("channel", "instance"),
                    doc="instance: softmax over the last axis; channel: over axis 1."),)


def _sa_axis(attrs, x):
    if attrs["mode"] == "channel":
        if x.ndim < 3:
            raise MXNetError(f"SoftmaxActivation: mode='channel' needs data with at least 3 "
                             f"dimensions, got shape {tuple(x.shape)}")
        return 1
    return x.ndim - 1


def _softmax_activation(rc, attrs, x):
    check_float("SoftmaxActivation", x)
    if x.dtype == np.float16 and rc.xp is np:   # 1.9.1's CPU kernel is float32-only
        raise MXNetError("SoftmaxActivation: data has dtype float16; the CPU kernel supports "
                         "float32 only (cast the data first, or use softmax)")
    return softmax_forward(rc.xp, x, _sa_axis(attrs, x))


def _softmax_activation_backward(rc, attrs, og, y):
    axis = _sa_axis(attrs, y)
    if SOFTMAX_ACTIVATION_GRAD_AS_1_9_1 and y.ndim > 1:
        axis = 1
    return softmax_backward(rc.xp, og, y, axis, in_dtype=y.dtype)


register("SoftmaxActivation", _softmax_activation, params=_SA_PARAMS, infer_shape=_same,
         infer_type=_same,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_SoftmaxActivation(og[0], outs[0], mode=a["mode"])],
         doc="softmax over each instance's last axis, or over the channel axis (1).")
register("_backward_SoftmaxActivation", _softmax_activation_backward, params=_SA_PARAMS,
         inputs=("ograd", "output"), infer_shape=_like_inputs(1), infer_type=_like_inputs(1),
         doc="The gradient of SoftmaxActivation.")
