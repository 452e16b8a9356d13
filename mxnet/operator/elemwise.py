"""Elementwise operators: unary math, binary (same-shape and broadcasting) and scalar forms.

Binary ops follow 1.9.1: both inputs must share a dtype; a scalar is first cast to the
array's dtype (so ``int32 * 1.5`` multiplies by 1); comparisons return 0/1 in the
input dtype; integer division truncates toward zero.

bfloat16 data (with ml_dtypes): the unary kernels compute in float32 and, like 1.9.1's
mshadow kernels on a CPU, cut the float32 result to bfloat16 by truncation (dropping the low
16 bits), not by rounding to nearest as the oneDNN operators (nn_dense, nn_conv, ...) do.
"""
from __future__ import annotations

import math
import os
from importlib import import_module

import numpy as np

from ..base import _BF16, MXNetError
from ._common import cast_scalar, elementwise_sum_order, same_dtype, shape_err
from .registry import Param, register

# ---------------------------------------------------------------------------------------------
# shape / type inference shared by elementwise ops


def _same_shape(attrs, in_shapes, out_shapes):
    known = None
    for s in list(in_shapes) + list(out_shapes):
        if s is None:
            continue
        s = tuple(s)
        if known is None:
            known = s
        elif None in known and len(s) == len(known):  # partial shapes fill each other in
            known = tuple(b if a is None else a for a, b in zip(known, s))
    return [known] * len(in_shapes), [known] * len(out_shapes), []


def _same_type(attrs, in_types, out_types):
    known = next((t for t in list(in_types) + list(out_types) if t is not None), None)
    return [known] * len(in_types), [known] * len(out_types), []


def _broadcast_shape(attrs, in_shapes, out_shapes):
    a, b = in_shapes
    if a is None or b is None:
        return in_shapes, out_shapes, []
    if None in a or None in b:
        # partial shapes (1.9.1): an output axis is unknown where either operand's is
        n = max(len(a), len(b))
        pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
        out = []
        for x, y in zip(pa, pb):
            if x is None or y is None:
                out.append(None)
            elif x != y and 1 not in (x, y):
                raise MXNetError(f"broadcast: operands could not be broadcast together with "
                                 f"shapes {tuple(a)} {tuple(b)}")
            else:
                out.append(max(x, y))
        return [a, b], [tuple(out)], []
    try:
        out = tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise MXNetError(f"broadcast: operands could not be broadcast together with shapes "
                         f"{tuple(a)} {tuple(b)}") from None
    return [a, b], [out], []


# ---------------------------------------------------------------------------------------------
# unary operators

def _float_out(out, *arrays):
    """``out[0]`` when every array is floating point of its dtype and shape (else None)."""
    o = out[0] if out else None
    if o is None:
        return None
    for a in arrays:
        if a.dtype != o.dtype or a.dtype.kind != "f":
            return None
    return o


# unary kernels that are one ufunc on float data, written into ``out`` when given
_UFUNC_UNARY = {"negative": "negative", "abs": "absolute", "square": "square", "sqrt": "sqrt",
                "exp": "exp", "log": "log", "tanh": "tanh", "sin": "sin", "cos": "cos",
                "expm1": "expm1", "log1p": "log1p"}


def bf16_truncate(a):
    """float32 values cut to bfloat16 by dropping their low 16 bits (mshadow's conversion);
    NaN stays NaN."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    t = (a.view(np.uint32) >> 16).astype(np.uint16).view(_BF16)
    nan = np.isnan(a)
    if nan.any():
        t[nan] = np.nan
    return t


def _reject_bool(name, x):
    """1.9.1's legacy unary kernels have no boolean instance ("Unknown type enum 7")."""
    if x.dtype == np.bool_:
        raise MXNetError(f"{name}: boolean input is not supported (1.9.1 has no bool kernel for "
                         f"this operator; input shape {tuple(x.shape)}); cast it first")


def _unary(name, fn, grad=None, aliases=(), doc="", int_ok=True):
    ufunc = _UFUNC_UNARY.get(name)
    no_bool = True   # (-x on a bool array, 1.9.1's int64 result, is NDArray.__neg__'s)
    if ufunc is None and name != "relu":
        def compute(rc, attrs, x):
            if no_bool and x.dtype == np.bool_:
                _reject_bool(name, x)
            if _BF16 is not None and x.dtype == _BF16:
                return bf16_truncate(fn(rc.xp, x.astype(np.float32)))
            return fn(rc.xp, x)
    else:
        def compute(rc, attrs, x, out=None):
            if no_bool and x.dtype == np.bool_:
                _reject_bool(name, x)
            if _BF16 is not None and x.dtype == _BF16:
                return bf16_truncate(fn(rc.xp, x.astype(np.float32)))
            o = _float_out(out, x)
            if o is not None and o.shape == x.shape:
                if ufunc is None:   # relu
                    return rc.xp.maximum(x, x.dtype.type(0), out=o)
                if x.dtype == np.float32 and name in _F32_VIA_F64:
                    return _f32_exact(rc.xp, ufunc, x, o)
                if name in ("sin", "cos", "tanh", "expm1", "log1p") and x.dtype == np.float32:
                    o[...] = fn(rc.xp, x)
                    return o
                return getattr(rc.xp, ufunc)(x, out=o)
            return fn(rc.xp, x)
    compute.__name__ = name
    register(name, compute, gradient=grad, infer_shape=_same_shape, infer_type=_same_type,
             inplace=((0, 0),), aliases=aliases, doc=doc, accepts_out=ufunc is not None or
             name == "relu")


# 1.9.1's CPU kernels call glibc's float functions (expf, logf, sinf, tanhf, powf ...), which are
# nearly always correctly rounded; NumPy's float32 SIMD loops are off by an ulp far more often. For
# these ops a float32 result is the float64 value rounded once (a float16 input goes through
# float32 first, as 1.9.1's half kernels do); float64 stays as NumPy computes it.
# (sin and cos: glibc's sinf/cosf steps, backend/libm32.sincosf, for float32 arrays of up to
# SINCOS_EXACT_MAX elements: 0 of 900,012 arguments differ from glibc; NumPy's float32 loops are
# one ulp off on ~15%, float64 rounded once on ~1.3%. The emulation costs ~22 us + ~7 ns per
# element ((32, 10): 2 -> 24 us; 16,384 elements: 8 -> 131 us), so larger arrays keep NumPy's.)
# The ops whose kernel is ``_f32_via_f64(name)`` in the table below; their out= path reads it.
_F32_VIA_F64: set = set()
SINCOS_EXACT_MAX = 1 << 14


# tanh: glibc's tanhf (fdlibm's float steps on expm1f, backend/libm32.tanhf) for float32 arrays
# of up to TANH_EXACT_MAX elements: 0 of 1.2M arguments differ from glibc, float64 rounded once
# differs on ~17%. The emulation is ~70 NumPy calls, ~75 us + ~40 ns per element ((32, 10):
# ~3 -> ~80 us): tanh runs in loops (a hand-written RNN cell calls it every step), so the
# emulation is opt-in, for arrays of up to MXNET_PY_TANH_EXACT_MAX elements (default 0: every
# float32 tanh is the float64 value rounded once).
TANH_EXACT_MAX = int(os.environ.get("MXNET_PY_TANH_EXACT_MAX", "0") or 0)


def _tanh32(xp, x):
    if x.dtype == np.float32 and xp is np and x.size <= TANH_EXACT_MAX:
        from ..backend.libm32 import tanhf
        return tanhf(xp, x)
    if x.dtype == np.float32:
        return _f32_exact(xp, "tanh", x)
    return xp.tanh(x)


def _sincos32(cos):
    def fn(xp, x):
        if x.dtype == np.float32 and xp is np and x.size <= SINCOS_EXACT_MAX:
            from ..backend.libm32 import sincosf
            return sincosf(xp, x, cos)
        return xp.cos(x) if cos else xp.sin(x)
    return fn


# log1p, expm1, sinh, arcsinh, arccosh, arctanh: glibc's float steps (fdlibm's log1pf, expm1f,
# sinhf, asinhf, acoshf, atanhf on its expf/logf: backend/libm32, libm32_hyp) for float32 arrays
# of up to LIBM_EXACT_MAX elements: 0 of 4.4M arguments differ from glibc 2.36, where NumPy's
# float32 loops (or float64 rounded once, expm1) differ on ~5% (log1p), ~9% (expm1) and ~15-20%
# (the others). The emulation costs ~55-95 us + ~15-30 ns per element ((32, 10): ~2 -> ~60 us),
# so larger arrays keep NumPy's; MXNET_PY_LIBM_EXACT_MAX=0 switches it off.
LIBM_EXACT_MAX = int(os.environ.get("MXNET_PY_LIBM_EXACT_MAX", str(1 << 14)) or 0)


def _glibc32(name, fallback=None):
    """The kernel of ``name``: glibc's float32 algorithm on small float32 NumPy arrays, else
    ``fallback(xp, x)`` (default: the backend's own ufunc)."""
    module, fname = _GLIBC_FUNCS[name]
    emulate = None

    def fn(xp, x):
        nonlocal emulate
        if x.dtype == np.float32 and xp is np and 0 < x.size <= LIBM_EXACT_MAX:
            if emulate is None:   # the backend module loads on first use
                emulate = getattr(import_module(f"mxnet.backend.{module}"), fname)
            flat = np.ascontiguousarray(x).reshape(-1)
            return emulate(flat).reshape(x.shape)
        if fallback is not None:
            return fallback(xp, x)
        return getattr(xp, name)(x)
    return fn


# name -> (backend module, glibc function it emulates). libm32_more's (log10 ... cbrt; also
# special.erf's erff): 0 of ~76M arguments each differ from glibc 2.36 (0 of ~1.9M mx.nd
# outputs from 1.9.1), where the float64 value rounded once differs on ~0.3-20% of them; they
# cost ~12-45 us at (32, 10) and ~40-180 us at 16,384 elements (the float64 round trip: ~3 and
# ~15-20 us); larger arrays keep the float64 value rounded once.
_GLIBC_FUNCS = {"expm1": ("libm32", "expm1f"),
                "log1p": ("libm32_hyp", "log1pf"), "sinh": ("libm32_hyp", "sinhf"),
                "arcsinh": ("libm32_hyp", "asinhf"), "arccosh": ("libm32_hyp", "acoshf"),
                "arctanh": ("libm32_hyp", "atanhf"),
                "log10": ("libm32_more", "log10f"), "log2": ("libm32_more", "log2f"),
                "tan": ("libm32_more", "tanf"), "arctan": ("libm32_more", "atanf"),
                "arcsin": ("libm32_more", "asinf"), "arccos": ("libm32_more", "acosf"),
                "cbrt": ("libm32_more", "cbrtf")}


def _expm1_f64(xp, x):
    return _f32_exact(xp, "expm1", x) if x.dtype == np.float32 else xp.expm1(x)


def _f32_exact(xp, ufunc, x, out=None):
    """``ufunc`` (a name) of float32 ``x`` evaluated in float64 and rounded once to float32, in
    buffered chunks (no float64 copy of the whole array); written into ``out`` when given."""
    if xp is not np:   # other backends: a plain float64 round trip
        y = getattr(xp, ufunc)(x.astype(np.float64)).astype(np.float32)
        if out is None:
            return y
        out[...] = y
        return out
    if out is None:
        out = xp.empty(x.shape, np.float32)
    getattr(xp, ufunc)(x, out=out, dtype=np.float64)
    return out


def _f32_via_f64(name):
    _F32_VIA_F64.add(name)

    def fn(xp, x):
        if x.dtype == np.float32:
            return _f32_exact(xp, name, x)
        return getattr(xp, name)(x)
    return fn


_HALF_LN2_F32 = np.float32(0.5 * math.log(2.0))


def _cosh(xp, x):
    """float32: glibc's coshf, (e + 1 / e) / 2 with e = expf(|x|) in float32 arithmetic, outside
    |x| < ln2 / 2 and |x| > 88 (there the float64 value rounded once); others as NumPy gives."""
    if x.dtype != np.float32:
        return xp.cosh(x)
    ax = xp.abs(x)
    with np.errstate(over="ignore"):
        e = _f32_exact(xp, "exp", ax)
        out = e * 0.5
        out += 0.5 / e
        edge = (ax < _HALF_LN2_F32) | (ax > 88.0)
        if edge.any():
            xp.copyto(out, _f32_exact(xp, "cosh", x), where=edge)
    return out


_cbrt32 = _glibc32("cbrt", _f32_via_f64("cbrt"))


def _rcbrt(xp, x):
    # float32: 1 / cbrtf(x) in float32 arithmetic (glibc's cbrtf emulated up to LIBM_EXACT_MAX
    # elements, else taken as float64 rounded once)
    if x.dtype == np.float32:
        return 1.0 / _cbrt32(xp, x)
    return 1.0 / xp.cbrt(x)


def _float_unary(xp_fn, int_as=np.float64):
    """A float kernel that keeps the input dtype (integer inputs compute in ``int_as``, cast
    back: float64 for most of 1.9.1's kernels, float32 for degrees and radians)."""
    def fn(xp, x):
        # float16 math runs in float32 and rounds once, as mshadow's half-precision kernels do.
        # Integers are converted first: NumPy would compute int8 in float16 (tanh(int8 5) is 1,
        # not 1.9.1's 0) and negate int8 -128 to -128 inside sigmoid
        dt = x.dtype
        if dt.kind in "iu":
            x = x.astype(int_as)
        out = xp_fn(xp, x.astype(np.float32) if dt == np.float16 else x)
        return out if out.dtype == dt else out.astype(dt)
    return fn


def _zero_grad(F, attrs, inputs, outputs, og):
    return [F.zeros_like(inputs[0])]


_LN2, _LN10 = math.log(2.0), math.log(10.0)
# 1.9.1's gradient formulas (these orders of operations give its float32 and float64 bits):
# log2/log10 divide log_b(e) by x; degrees/radians multiply by float32 constants in every dtype
_LOG2E, _LOG10E = 1.0 / _LN2, math.log10(math.e)
_DEG_PER_RAD = float(np.float32(180.0) / np.float32(math.pi))    # 57.2957763671875
_RAD_PER_DEG = float(np.float32(math.pi / 180.0))

_UNARY = [
    # name, kernel, gradient(F, x, y, g)
    ("negative", lambda xp, x: xp.negative(x),
     lambda F, x, y, g: -g),
    ("abs", lambda xp, x: xp.abs(x), lambda F, x, y, g: g * F.sign(x)),
    ("sign", lambda xp, x: xp.nan_to_num(xp.sign(x), nan=0.0) if x.dtype.kind == "f" else xp.sign(x),
     None),
    ("round", lambda xp, x: _round_half_away(xp, x), None),
    ("rint", lambda xp, x: _rint_half_down(xp, x), None),
    ("ceil", lambda xp, x: xp.ceil(x), None),
    ("floor", lambda xp, x: xp.floor(x), None),
    ("trunc", lambda xp, x: xp.trunc(x), None),
    ("fix", lambda xp, x: xp.trunc(x), None),
    # integers square as floats (1.9.1: int32 46341 squares to INT_MIN, 4097 to 16785408)
    ("square", lambda xp, x: xp.square(x) if x.dtype.kind == "f" else
     xp.square(x.astype(np.float32)).astype(x.dtype), lambda F, x, y, g: g * x * 2),
    # 1.9.1: the head gradient times the derivative, formed first (0.5 / y, not g / 2y)
    ("sqrt", _float_unary(lambda xp, x: xp.sqrt(x)), lambda F, x, y, g: g * (0.5 / y)),
    ("rsqrt", _float_unary(lambda xp, x: 1.0 / xp.sqrt(x)), lambda F, x, y, g: g * (-0.5 / (x * F.sqrt(x)))),
    ("cbrt", _float_unary(_cbrt32), lambda F, x, y, g: g * (1.0 / (y * y * 3))),
    ("rcbrt", _float_unary(_rcbrt),
     lambda F, x, y, g: g * (-1.0 / (F.cbrt(x) * 3 * x))),
    ("exp", _float_unary(_f32_via_f64("exp")), lambda F, x, y, g: g * y),
    # 1.9.1: log and log1p gradients are g times a reciprocal (g / x differs in ~20%)
    ("log", _float_unary(_f32_via_f64("log")), lambda F, x, y, g: g * (1.0 / x)),
    ("log10", _float_unary(_glibc32("log10", _f32_via_f64("log10"))),
     lambda F, x, y, g: g * (_LOG10E / x)),
    ("log2", _float_unary(_glibc32("log2", _f32_via_f64("log2"))),
     lambda F, x, y, g: g * (_LOG2E / x)),
    ("log1p", _float_unary(_glibc32("log1p")), lambda F, x, y, g: g * (1.0 / (x + 1))),
    ("expm1", _float_unary(_glibc32("expm1", _expm1_f64)), lambda F, x, y, g: g * F.exp(x)),
    ("reciprocal", _float_unary(lambda xp, x: 1.0 / x), lambda F, x, y, g: g * (-1.0 / (x * x))),
    ("sin", _float_unary(_sincos32(False)), lambda F, x, y, g: g * F.cos(x)),
    ("cos", _float_unary(_sincos32(True)), lambda F, x, y, g: -g * F.sin(x)),
    ("tan", _float_unary(_glibc32("tan", _f32_via_f64("tan"))),
     lambda F, x, y, g: g * (y * y + 1)),
    ("arcsin", _float_unary(_glibc32("arcsin", _f32_via_f64("arcsin"))),
     lambda F, x, y, g: g * F.rsqrt(1 - x * x)),
    ("arccos", _float_unary(_glibc32("arccos", _f32_via_f64("arccos"))),
     lambda F, x, y, g: -g * F.rsqrt(1 - x * x)),
    ("arctan", _float_unary(_glibc32("arctan", _f32_via_f64("arctan"))),
     lambda F, x, y, g: g * (1.0 / (x * x + 1))),
    ("sinh", _float_unary(_glibc32("sinh")), lambda F, x, y, g: g * F.cosh(x)),
    ("cosh", _float_unary(_cosh), lambda F, x, y, g: g * F.sinh(x)),
    ("tanh", _float_unary(_tanh32), lambda F, x, y, g: g * (1 - y * y)),
    ("arcsinh", _float_unary(_glibc32("arcsinh")),
     lambda F, x, y, g: g * (1.0 / F._hypot_scalar(x, scalar=1.0))),
    ("arccosh", _float_unary(_glibc32("arccosh")),
     lambda F, x, y, g: g * F.rsqrt(x * x - 1)),
    ("arctanh", _float_unary(_glibc32("arctanh")),
     lambda F, x, y, g: g * (1.0 / (1 - x * x))),
    # the forward multiplies by the same float32 constants (float64 degrees(-3) is -171.8873291...)
    ("degrees", _float_unary(lambda xp, x: x * x.dtype.type(_DEG_PER_RAD), np.float32),
     lambda F, x, y, g: g * _DEG_PER_RAD),
    ("radians", _float_unary(lambda xp, x: x * x.dtype.type(_RAD_PER_DEG), np.float32),
     lambda F, x, y, g: g * _RAD_PER_DEG),
    ("sigmoid", _float_unary(lambda xp, x: _sigmoid(xp, x)), lambda F, x, y, g: g * (y * (1 - y))),
    ("relu", lambda xp, x: xp.maximum(x, x.dtype.type(0)), lambda F, x, y, g: g * (y > 0)),
    ("softsign", _float_unary(lambda xp, x: x / (1 + xp.abs(x))),
     lambda F, x, y, g: g * (1 / F.square(F.abs(x) + 1))),   # 1.9.1: g times a reciprocal
]


def _sigmoid(xp, x):
    # 1.9.1: 1 / (1 + expf(-x)) in float32 around glibc's (nearly always correctly rounded) expf
    if x.dtype == np.float32:
        return 1.0 / (1.0 + _f32_exact(xp, "exp", -x))
    return 1.0 / (1.0 + xp.exp(-x))


def _rint_half_down(xp, x):
    """1.9.1's rint: ties go to the lower integer (-2.5 -> -3, 2.5 -> 2)."""
    if x.dtype.kind not in "fc":
        return x.copy()
    f, c = xp.floor(x), xp.ceil(x)
    # the ceiling (not floor + 1) keeps the sign of zero: rint(-0.4) is -0.0 in 1.9.1
    return xp.where(x - f <= c - x, f, c).astype(x.dtype, copy=False)


def _round_half_away(xp, x):
    if x.dtype.kind not in "fc":
        return x.copy()
    return xp.trunc(x + xp.copysign(x.dtype.type(0.5), x))


def _make_grad(rule):
    def grad(F, attrs, inputs, outputs, og):
        x, y, g = inputs[0], outputs[0], og[0]
        if getattr(x, "dtype", None) == np.float16 and getattr(g, "dtype", None) == np.float16:
            # 1.9.1's half backward kernels: the derivative from float32 values, rounded once
            # to float16, times the head gradient (not a float16 rounding after every step)
            d = rule(F, x.astype("float32"), y.astype("float32"),
                     F.ones_like(x).astype("float32"))
            return [g * d.astype("float16")]
        return [rule(F, x, y, g)]
    return grad


for _name, _fn, _rule in _UNARY:
    _unary(_name, _fn, _make_grad(_rule) if _rule else _zero_grad)


def _identity_compute(rc, attrs, x):
    return x.copy()


register("_copy", _identity_compute, gradient=lambda F, a, i, o, og: [og[0]],
         infer_shape=_same_shape, infer_type=_same_type, aliases=("identity",))
register("BlockGrad", _identity_compute, gradient=_zero_grad, infer_shape=_same_shape,
         infer_type=_same_type, aliases=("stop_gradient",))


def _filled_like(value):
    def compute(rc, attrs, x, out=None):
        o = out[0] if out else None
        if o is not None and o.shape == x.shape and o.dtype == x.dtype:
            o.fill(value)
            return o
        return rc.xp.full_like(x, value) if value else rc.xp.zeros_like(x)
    return compute


register("zeros_like", _filled_like(0), gradient=_zero_grad, infer_shape=_same_shape,
         infer_type=_same_type, accepts_out=True)
register("ones_like", _filled_like(1), gradient=_zero_grad, infer_shape=_same_shape,
         infer_type=_same_type, accepts_out=True)


# ---------------------------------------------------------------------------------------------
# binary kernels


def _int_div(xp, a, b):
    """C-style integer division (truncation toward zero); division by zero gives 0."""
    safe = xp.where(b == 0, b.dtype.type(1), b)
    q = a // safe
    fix = (q < 0) & (q * safe != a)
    q = q + fix.astype(q.dtype)
    return xp.where(b == 0, q.dtype.type(0), q)


def _div(xp, a, b):
    if a.dtype.kind in "iub":
        return _int_div(xp, a, b)
    return xp.true_divide(a, b)


def _mod(xp, a, b):
    if a.dtype.kind in "iub":
        # 1.9.1 takes the remainder of the operands converted to double (int64 2**53 + 1 mod 3
        # is 2); exact for every narrower integer type
        dt = a.dtype if a.dtype != np.bool_ else np.dtype(np.int8)
        if dt.itemsize == 8:
            a, b = a.astype(np.float64), b.astype(np.float64)
        safe = xp.where(b == 0, b.dtype.type(1), b)
        return xp.where(b == 0, a.dtype.type(0), xp.mod(a, safe)).astype(dt, copy=False)
    out = xp.mod(a, b)
    # 1.9.1 works on magnitudes: an exact zero remainder is -0 for a < 0 with b < 0 and for
    # a = -0 with b > 0, else +0 (NumPy gives the divisor's sign)
    neg = ((a < 0) & (b < 0)) | ((a == 0) & xp.signbit(a) & (b > 0))
    out = xp.where(out == 0, xp.where(neg, out.dtype.type(-0.0), out.dtype.type(0)), out)
    return xp.where(b == 0, a.dtype.type(0), out)


def _power(xp, a, b):
    if a.dtype.kind in "iu":   # 1.9.1: powf on the operands as floats (int32 16777217 ** 1 is
        # 16777216, int64 3 ** 39 is 4052555218645155840); powf as below, float64 rounded once
        p = xp.power(a.astype(np.float32).astype(np.float64), b.astype(np.float32))
        return p.astype(np.float32).astype(a.dtype)
    if a.dtype == np.float32 and getattr(b, "dtype", None) == np.float32:
        if b.ndim == 0 and b == 2:   # x ** 2: the float32 product is already correctly rounded
            return xp.multiply(a, a)
        # glibc's powf (1.9.1's kernel) is nearly always correctly rounded: round float64 once
        return xp.power(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
    return xp.power(a, b)


def _cmp(fn):
    def k(xp, a, b):
        out = fn(a, b)
        return out.astype(a.dtype) if a.dtype != np.bool_ else out
    return k


def _logical(fn):
    def k(xp, a, b):
        return fn(a != 0, b != 0).astype(a.dtype)
    return k


_BINARY_KERNELS = {
    "add": lambda xp, a, b: xp.add(a, b),
    "sub": lambda xp, a, b: xp.subtract(a, b),
    "mul": lambda xp, a, b: xp.multiply(a, b),
    "div": _div,
    "mod": _mod,
    "power": _power,
    "maximum": lambda xp, a, b: xp.maximum(a, b),
    "minimum": lambda xp, a, b: xp.minimum(a, b),
    # integers as floats, as 1.9.1 (int32 hypot(2147483647, 2) is INT_MIN)
    "hypot": lambda xp, a, b: (xp.hypot(a, b) if a.dtype.kind == "f" else
                               xp.hypot(a.astype(np.float32), b.astype(np.float32))
                               ).astype(a.dtype, copy=False),
    "equal": _cmp(np.equal),
    "not_equal": _cmp(np.not_equal),
    "greater": _cmp(np.greater),
    "greater_equal": _cmp(np.greater_equal),
    "lesser": _cmp(np.less),
    "lesser_equal": _cmp(np.less_equal),
    "logical_and": _logical(np.logical_and),
    "logical_or": _logical(np.logical_or),
    "logical_xor": _logical(np.logical_xor),
}


def _is_half(*arrays):
    return all(getattr(a, "dtype", None) == np.float16 for a in arrays)


def _half_binary_grad(F, kind, rule, a, b, y, g):
    """(lhs, rhs) gradients; for float16 arrays as 1.9.1's half backward kernels compute them:
    each derivative from float32 values (power and hypot from their unrounded float32
    results), rounded once to float16, times the head gradient. (mod keeps the float16 steps:
    1.9.1 floors the float16 quotient.)"""
    if kind == "mod" or not _is_half(a, b, g):
        return rule(F, a, b, y, g)
    a32, b32 = a.astype("float32"), b.astype("float32")
    if kind == "power":
        y32 = F.broadcast_power(a32, b32)
    elif kind == "hypot":
        y32 = F.broadcast_hypot(a32, b32)
    else:
        y32 = y.astype("float32")
    da, db = rule(F, a32, b32, y32, F.ones_like(g).astype("float32"))
    return g * da.astype("float16"), g * db.astype("float16")


def _binary_grads(kind):
    """Gradient rule (for lhs, rhs) of a binary op; ``red`` sums a gradient down to an input's shape."""
    def rule(F, a, b, y, g):
        if kind == "add":
            return g, g
        if kind == "sub":
            return g, -g
        if kind == "mul":
            return g * b, g * a
        # 1.9.1: the head gradient times the derivative, the derivative formed first
        if kind == "div":
            return g * (1 / b), g * (-a / (b * b))
        if kind == "mod":
            return g, -g * F.floor(a / b)
        if kind == "power":
            return g * (b * F.broadcast_power(a, b - 1)), g * (y * F.log(a))
        if kind == "maximum":
            return g * (a >= b), g * (a < b)
        if kind == "minimum":
            return g * (a <= b), g * (a > b)
        if kind == "hypot":
            return g * (a / y), g * (b / y)
        return F.zeros_like(a), F.zeros_like(b)
    return rule


# binary kernels that are one ufunc on float data, written into ``out`` when given
_UFUNC_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "div": "true_divide",
                 "maximum": "maximum", "minimum": "minimum"}


def _register_binary(kind, kernel):
    rule = _binary_grads(kind)
    broadcast_name = f"broadcast_{kind}"
    elem_name = {"add": "elemwise_add", "sub": "elemwise_sub", "mul": "elemwise_mul",
                 "div": "elemwise_div"}.get(kind, f"_{kind}")
    ufunc = _UFUNC_BINARY.get(kind)

    def compute_elem(rc, attrs, a, b, _k=kernel, _n=elem_name, out=None):
        same_dtype(_n, a, b)
        if a.dtype == np.bool_:
            raise shape_err(_n, "boolean inputs are not supported by 1.9.1's binary operators", a, b)
        if a.shape != b.shape:
            raise shape_err(_n, "inputs must have the same shape", a, b)
        if out is not None and ufunc is not None:
            o = _float_out(out, a, b)
            if o is not None and o.shape == a.shape:   # o may be a's or b's buffer
                return getattr(rc.xp, ufunc)(a, b, out=o)
        return _k(rc.xp, a, b)

    def compute_bcast(rc, attrs, a, b, _k=kernel, _n=broadcast_name, out=None):
        if a.dtype != b.dtype:
            same_dtype(_n, a, b)
        if a.dtype == np.bool_:
            raise shape_err(_n, "boolean inputs are not supported by 1.9.1's binary operators", a, b)
        try:
            if out is not None and ufunc is not None:
                o = _float_out(out, a, b)
                if o is not None and o.shape == _bshape(a.shape, b.shape):
                    return getattr(rc.xp, ufunc)(a, b, out=o)
            return _k(rc.xp, a, b)
        except ValueError:
            raise shape_err(_n, "operands could not be broadcast together", a, b) from None

    def grad_elem(F, attrs, ins, outs, og):
        return list(_half_binary_grad(F, kind, rule, ins[0], ins[1], outs[0], og[0]))

    def grad_bcast(F, attrs, ins, outs, og):
        ga, gb = _half_binary_grad(F, kind, rule, ins[0], ins[1], outs[0], og[0])
        return [F._reduce_to_shape_of(ga, ins[0]), F._reduce_to_shape_of(gb, ins[1])]

    aliases = {"add": ("_plus", "_add"), "sub": ("_minus", "_sub"), "mul": ("_mul",),
               "div": ("_div",)}.get(kind, ())
    register(elem_name, compute_elem, inputs=("lhs", "rhs"), gradient=grad_elem,
             infer_shape=_same_shape, infer_type=_same_type, inplace=((0, 0), (1, 0)),
             aliases=aliases, accepts_out=ufunc is not None)
    register(broadcast_name, compute_bcast, inputs=("lhs", "rhs"), gradient=grad_bcast,
             infer_shape=_broadcast_shape, infer_type=_same_type, accepts_out=ufunc is not None,
             aliases=(("broadcast_plus",) if kind == "add" else
                      ("broadcast_minus",) if kind == "sub" else ()))


def _bshape(a, b):
    if a == b:
        return a
    return tuple(np.broadcast_shapes(a, b))


for _kind, _kernel in _BINARY_KERNELS.items():
    _register_binary(_kind, _kernel)


def _reduce_to_shape_of(rc, attrs, g, like):
    """Sum a broadcast gradient down to the shape of ``like``."""
    if g.shape == like.shape:
        return g
    nd_extra = g.ndim - like.ndim
    axes = tuple(range(nd_extra)) + tuple(
        i + nd_extra for i, s in enumerate(like.shape) if s == 1 and g.shape[i + nd_extra] != 1)
    if axes and g.dtype == np.float16 and rc.xp is np:
        # 1.9.1's broadcast backward sums float16 with compensated float16 steps
        from .reduce import _f16_sum
        return _f16_sum(g, axes, True).reshape(like.shape)
    if axes and g.dtype in (np.float32, np.float64) and rc.xp is np:
        # and float32/float64 with compensated steps, as its sum operator: as nd.sum here
        # (1.9.1's steps over up to 16 elements per output, else a wider sum rounded once)
        # up to 65,536 elements; larger gradients keep NumPy's sum (nd.sum's wider sum
        # costs ~1.5x there)
        n = g.size // max(1, like.size)
        if 2 < n <= 16 or (n > 16 and g.size <= 65536):   # 16: reduce._KAHAN_MAX
            from .reduce import _float_sum
            return _float_sum(np, g, axes, True).reshape(like.shape)
    out = g.sum(axis=axes, keepdims=True) if axes else g
    return out.reshape(like.shape)


register("_reduce_to_shape_of", _reduce_to_shape_of, inputs=("data", "like"),
         gradient=lambda F, a, ins, outs, og: [F.broadcast_like(og[0], ins[0]), None],
         nd_hidden=True)


# ---------------------------------------------------------------------------------------------
# scalar operators

_SCALAR_PARAMS = (Param("scalar", "float", 1.0), Param("is_int", "bool", True))


def _register_scalar(name, kernel, rule, reverse=False, ufunc=None):
    # 1.9.1 computes scalar ops on boolean arrays in int64
    if reverse:
        def compute(rc, attrs, x, _k=kernel, out=None):
            x = _scalar_input(attrs, x)
            s = cast_scalar(attrs["scalar"], x.dtype)
            o = _float_out(out, x) if ufunc is not None else None
            if o is not None and o.shape == x.shape:
                return getattr(rc.xp, ufunc)(s, x, out=o)
            return _k(rc.xp, s, x)
    else:
        def compute(rc, attrs, x, _k=kernel, out=None):
            x = _scalar_input(attrs, x)
            s = cast_scalar(attrs["scalar"], x.dtype)
            o = _float_out(out, x) if ufunc is not None else None
            if o is not None and o.shape == x.shape:
                return getattr(rc.xp, ufunc)(x, s, out=o)
            return _k(rc.xp, x, s)

    def grad(F, attrs, ins, outs, og):
        x, y, g = ins[0], outs[0], og[0]
        half_d = _HALF_SCALAR_D.get(name)
        if half_d is not None and _is_half(x, g):
            # 1.9.1's half kernels: the scalar as float16, the derivative from float32 values
            # rounded once to float16, times the head gradient
            d = half_d(F, x.astype("float32"), float(np.float16(attrs["scalar"])),
                       y.astype("float32"))
            return [g * d.astype("float16")]
        return [rule(F, x, attrs["scalar"], y, g)]

    register(name, compute, params=_SCALAR_PARAMS, gradient=grad, infer_shape=_same_shape,
             infer_type=_scalar_type, inplace=((0, 0),), accepts_out=ufunc is not None)


def _scalar_input(attrs, x):
    """The array a scalar operator computes on: an integer or bool array with is_int=False
    (what mx.np's graphs write for a float scalar; mx.nd / mx.sym leave the default True)
    becomes float64, as in 1.9.1; otherwise a boolean array becomes int64."""
    if not attrs.get("is_int", True) and x.dtype.kind in "iub":
        return x.astype(np.float64)
    return x.astype(np.int64) if x.dtype == np.bool_ else x


def _scalar_type(attrs, in_types, out_types):
    # as computed: a boolean input gives an int64 output (float64 with is_int=False)
    t = in_types[0]
    if t is not None and np.dtype(t).kind in "iub" and not attrs.get("is_int", True):
        return [t], [np.dtype(np.float64)], []
    if t is not None and np.dtype(t) == np.bool_:
        return [t], [np.dtype(np.int64)], []
    return _same_type(attrs, in_types, out_types)


def _scalar_kernel(kind):
    return _BINARY_KERNELS[kind]


def _zero(F, x, s, y, g):
    return F.zeros_like(x)


def _kernel_scalar(x, s):
    """The scalar as 1.9.1's kernels use it: cast to the array's dtype (float32: rounded)."""
    return np.float32(s) if getattr(x, "dtype", None) == np.float32 else s


def _power_scalar_grad(F, x, s, y, g):
    # 1.9.1: g * (s * pow(x, s - 1)), s and s - 1 in the array's dtype
    sk = _kernel_scalar(x, s)
    return g * ((x ** float(sk - 1)) * sk)


def _rpower_scalar_grad(F, x, s, y, g):
    # 1.9.1: g * (y * log(s)), the log of the scalar in the array's dtype (float32: logf)
    sk = _kernel_scalar(x, s)
    lg = np.float32(np.log(np.float64(sk))) if type(sk) is np.float32 else math.log(s)
    return g * (y * lg)


# float16 derivatives (x and y in float32, s the float16 scalar) where the rules below would
# round to float16 more than once
_HALF_SCALAR_D = {
    "_rdiv_scalar": lambda F, x, s, y: -s / (x * x),
    "_power_scalar": lambda F, x, s, y: (x ** (s - 1)) * s,
    "_rpower_scalar": lambda F, x, s, y: y * math.log(s),
    "_hypot_scalar": lambda F, x, s, y: x / F._hypot_scalar(x, scalar=s),
}


_SCALAR = [
    ("_plus_scalar", "add", lambda F, x, s, y, g: g, False),
    ("_minus_scalar", "sub", lambda F, x, s, y, g: g, False),
    ("_rminus_scalar", "sub", lambda F, x, s, y, g: -g, True),
    ("_mul_scalar", "mul", lambda F, x, s, y, g: g * s, False),
    ("_div_scalar", "div", lambda F, x, s, y, g: g / s, False),
    ("_rdiv_scalar", "div", lambda F, x, s, y, g: g * (-_kernel_scalar(x, s) / (x * x)), True),
    ("_mod_scalar", "mod", lambda F, x, s, y, g: g, False),
    ("_rmod_scalar", "mod", lambda F, x, s, y, g: -g * F.floor(s / x), True),
    ("_power_scalar", "power", _power_scalar_grad, False),
    ("_rpower_scalar", "power", _rpower_scalar_grad, True),
    ("_maximum_scalar", "maximum", lambda F, x, s, y, g: g * (x >= s), False),
    ("_minimum_scalar", "minimum", lambda F, x, s, y, g: g * (x <= s), False),
    ("_hypot_scalar", "hypot", lambda F, x, s, y, g: g * (x / y), False),
    ("_equal_scalar", "equal", _zero, False),
    ("_not_equal_scalar", "not_equal", _zero, False),
    ("_greater_scalar", "greater", _zero, False),
    ("_greater_equal_scalar", "greater_equal", _zero, False),
    ("_lesser_scalar", "lesser", _zero, False),
    ("_lesser_equal_scalar", "lesser_equal", _zero, False),
    ("_logical_and_scalar", "logical_and", _zero, False),
    ("_logical_or_scalar", "logical_or", _zero, False),
    ("_logical_xor_scalar", "logical_xor", _zero, False),
]

for _name, _kind, _rule, _rev in _SCALAR:
    _register_scalar(_name, _scalar_kernel(_kind), _rule, reverse=_rev,
                     ufunc=_UFUNC_BINARY.get(_kind))


def _logical_not(rc, attrs, x):
    # 1.9.1 has no bool kernel here; ours accepts bool (the ONNX importer's Not needs it)
    return (x == 0).astype(x.dtype)


register("logical_not", _logical_not, gradient=_zero_grad, infer_shape=_same_shape,
         infer_type=_same_type)


# ---------------------------------------------------------------------------------------------
# n-ary sum


def _add_n(rc, attrs, *arrays):
    if not arrays:
        raise MXNetError("add_n: needs at least one input")
    for a in arrays[1:]:
        same_dtype("add_n", arrays[0], a)
        if a.shape != arrays[0].shape:
            raise shape_err("add_n", "all inputs must have the same shape", arrays[0], a)
    seq = elementwise_sum_order(arrays)
    out = seq[0].copy()
    for a in seq[1:]:
        out += a
    return out


register("add_n", _add_n, params=(Param("num_args", "int", 1),), variadic="num_args",
         gradient=lambda F, attrs, ins, outs, og: [og[0]] * len(ins),
         infer_shape=_same_shape, infer_type=_same_type, aliases=("ElementWiseSum",))
