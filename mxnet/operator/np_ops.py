"""Operators with NumPy semantics, behind ``mx.np`` / ``mx.npx`` (1.9.1's ``_npi_*`` / ``_np_*``).

They differ from the legacy ops in three ways:
- zero-dim results stay zero-dim (a full reduction has shape ``()``, not ``(1,)``);
- binary ops promote mixed dtypes as 1.9.1 does: a float operand wins over an integer one
  (``float32 + int64 -> float32``), two floats or two integers take the wider type, and
  true division of integers gives float32;
- shapes may contain zeros.

Every kernel returns a real array (NumPy ufuncs return scalars for 0-d input).
"""
from __future__ import annotations

import itertools
import math
import warnings

import numpy as np

from ..base import MXNetError, MXNetValueError
from ._common import normalize_axis
from ._gemm_order import gemm
from .reduce import _f16_l2, _f16_lp, _f16_prod, _f16_rows, _f16_sum, _float_sum, _mean_kernel, kahan_down
from .registry import Param, get_op, register

_F32 = np.dtype(np.float32)


def promote(opname, a, b, mixed_sign=False):
    """The result dtype of a binary op on two arrays' dtypes, as 1.9.1's mx.np computes it.

    ``mixed_sign``: the op accepts uint8 with a wider signed integer (1.9.1's add, multiply
    and power do; its other binary ops reject any signed/unsigned mix)."""
    a, b = np.dtype(a), np.dtype(b)
    if a == b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    fa, fb = a.kind == "f", b.kind == "f"
    if fa != fb:
        return a if fa else b
    if a.kind != b.kind and not (mixed_sign and min(a.itemsize, b.itemsize) == 1
                                 and max(a.itemsize, b.itemsize) > 1):
        raise MXNetError(f"{opname}: mixing signed and unsigned integer dtypes ({a} and {b}) "
                         "is not supported, as in 1.9.1")
    try:
        return np.promote_types(a, b)
    except TypeError:
        raise MXNetError(f"{opname}: cannot combine dtypes {a} and {b}") from None


def scalar_dtype(x_dtype, scalar, is_int):
    """The result dtype of an array (``x_dtype``) with a Python scalar."""
    # 1.9.1 keeps an integer array's dtype and casts the scalar to it (int32 * 1.5 multiplies
    # by 1); boolean arrays compute in int64
    x_dtype = np.dtype(x_dtype)
    if x_dtype.kind in "iub" and not is_int:
        # the operator itself (what a hybridized graph or mx.sym runs) gives float64 for an
        # integer or bool array with a float scalar; mx.np's imperative calls pass is_int=True
        # there, as 1.9.1's FFI behaves
        return np.dtype(np.float64)
    return np.dtype(np.int64) if x_dtype.kind == "b" else x_dtype


def _bshape(opname, a, b):
    try:
        return tuple(np.broadcast_shapes(a.shape, b.shape))
    except ValueError:
        raise MXNetError(f"{opname}: operands could not be broadcast together with shapes "
                         f"{a.shape} ({a.dtype}) and {b.shape} ({b.dtype})") from None


# ---------------------------------------------------------------------------------------------
# binary arithmetic with promotion

def _true_div(xp, a, b):
    return xp.true_divide(a, b)


def _mod(xp, a, b):
    dt = getattr(a, "dtype", None)
    if dt is not None and dt.itemsize == 8 and dt.kind in "iu":
        # 1.9.1 takes the remainder of doubles (int64 2**53 + 1 mod 3 is 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = xp.mod(xp.asarray(a, dtype=np.float64), xp.asarray(b, dtype=np.float64))
        return xp.where(xp.asarray(b) == 0, 0, r).astype(dt)
    out = xp.mod(a, b)
    if getattr(out, "dtype", np.dtype(np.int64)).kind == "f":
        # 1.9.1 works on magnitudes: a remainder r of |a| by |b| is negated for a < 0 and
        # shifted by b when the signs differ and r != 0, so an exact zero is +0 except for
        # a < 0 with b < 0 (-0) and a = -0 with b > 0 (-0); NumPy takes the divisor's sign
        zero = out == 0
        a = xp.asarray(a, dtype=out.dtype)
        b = xp.asarray(b, dtype=out.dtype)
        neg_zero = ((a < 0) & (b < 0)) | ((a == 0) & xp.signbit(a) & (b > 0))
        signed = xp.where(neg_zero, out.dtype.type(-0.0), out.dtype.type(0))
        out = xp.where(zero, signed, out)
        out = xp.where(b == 0, out.dtype.type(0), out)   # 1.9.1: x % 0 gives 0
    return out


def _trunc_to_int(xp, out, dt):
    """Float results to integer ``dt`` as a C cast does on x86 (see _cast_scalar): through a
    64-bit or else a 32-bit integer, whose most negative value inf, NaN and values out of
    that range become (int32: -2**31; int8 and uint8: its low byte, 0)."""
    lo = -2 ** 63 if dt.itemsize == 8 else -2 ** 31
    with np.errstate(invalid="ignore"):
        ok = xp.isfinite(out) & (out > lo - 1) & (out < -lo)
    return xp.where(ok, out, lo).astype(np.int64).astype(dt)


def _power(xp, a, b):
    dt = getattr(a, "dtype", None)
    if dt is not None and dt.kind in "iu" and xp.any(xp.asarray(b) < 0):
        # an integer to a negative power: 1.9.1 computes in floating point and truncates
        # (2 ** -1 gives 0) where NumPy raises
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = xp.power(xp.asarray(a, dtype=np.float64), xp.asarray(b, dtype=np.float64))
            return _trunc_to_int(xp, out, dt)
    if dt is not None and dt.kind in "iu":
        # 1.9.1: powf of the operands as floats (int32 29 ** 6 is 594823296, 16777217 ** 1 is
        # 16777216), taken here as the float64 power rounded once to float32
        with np.errstate(over="ignore", invalid="ignore"):
            p = xp.power(xp.asarray(a, dtype=np.float32).astype(np.float64),
                         xp.asarray(b, dtype=np.float32))
            return p.astype(np.float32).astype(dt)
    if dt == np.float32 and getattr(b, "dtype", None) == np.float32:
        # glibc's powf (1.9.1's kernel) is nearly always correctly rounded: the float64 power
        # rounded once (NumPy's own float32 power differs between its versions: 3 ** 0.5)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            p = xp.power(xp.asarray(a, dtype=np.float64), xp.asarray(b, dtype=np.float64))
        return p.astype(np.float32)
    return xp.power(a, b)


_BIN = {
    "add": (lambda xp, a, b: xp.add(a, b)),
    "subtract": (lambda xp, a, b: xp.subtract(a, b)),
    "multiply": (lambda xp, a, b: xp.multiply(a, b)),
    "true_divide": _true_div,
    "mod": _mod,
    "power": (lambda xp, a, b: _power(xp, a, b)),
    "maximum": (lambda xp, a, b: xp.maximum(a, b)),
    "minimum": (lambda xp, a, b: xp.minimum(a, b)),
}


def _bin_grads(F, kind, x, y, z, g):
    """(dx, dy) before reducing to the input shapes."""
    mul, div = F._npi_multiply, F._npi_true_divide
    if kind == "add":
        return g, g
    if kind == "subtract":
        return g, F._npi_negative(g)
    if kind == "multiply":
        return mul(g, y), mul(g, x)
    if kind == "true_divide":
        return div(g, y), F._npi_negative(div(mul(g, z), y))
    if kind == "mod":
        return g, F._npi_negative(mul(g, F._npi_floor(div(x, y))))
    if kind == "power":
        dx = mul(mul(g, y), F._npi_power(x, F._npi_subtract_scalar(y, scalar=1.0, is_int=False)))
        return dx, mul(mul(g, z), F._npi_log(x))
    if kind == "maximum":
        return mul(g, F._npi_greater_equal(x, y)), mul(g, F._npi_less(x, y))
    return mul(g, F._npi_less_equal(x, y)), mul(g, F._npi_greater(x, y))


def _sum_to(F, g, x):
    return F._np_sum_to_like(g, x)


def _register_binary(kind, kernel):
    name = f"_npi_{kind}"

    def compute(rc, attrs, a, b, _k=kernel, _n=name, _kind=kind):
        dt = promote(_n, a.dtype, b.dtype, mixed_sign=_kind in ("add", "multiply", "power"))
        if _kind == "true_divide" and dt.kind in "iub":
            dt = _F32
        if a.shape != b.shape:
            _bshape(_n, a, b)
        xp = rc.xp
        if _kind in ("true_divide", "mod") and dt.kind in "iu":
            with np.errstate(divide="ignore", invalid="ignore"):
                out = _k(xp, a.astype(dt, copy=False), b.astype(dt, copy=False))
        else:
            out = _k(xp, a.astype(dt, copy=False), b.astype(dt, copy=False))
        return xp.asarray(out, dtype=dt)

    def grad(F, attrs, ins, outs, og, _kind=kind):
        x, y = ins
        gx, gy = _bin_grads(F, _kind, x, y, outs[0], og[0])
        return [_sum_to(F, gx, x), _sum_to(F, gy, y)]

    register(name, compute, inputs=("lhs", "rhs"), gradient=grad, nd_hidden=True,
             doc=f"Elementwise {kind} with broadcasting and NumPy type promotion.")


for _kind, _kernel in _BIN.items():
    _register_binary(_kind, _kernel)


def _sum_to_like(rc, attrs, g, like):
    """Sum a broadcast gradient down to ``like``'s shape and cast it to ``like``'s dtype."""
    xp = rc.xp
    if g.shape != like.shape:
        extra = g.ndim - like.ndim
        axes = tuple(range(extra)) + tuple(
            i + extra for i, s in enumerate(like.shape) if s == 1 and g.shape[i + extra] != 1)
        if axes:
            g = g.sum(axis=axes, keepdims=True)
        g = g.reshape(like.shape)
    return xp.asarray(g, dtype=like.dtype)


register("_np_sum_to_like", _sum_to_like, inputs=("data", "like"), nd_hidden=True,
         gradient=lambda F, a, ins, outs, og: [
             F._npi_multiply(og[0], F._npi_ones_like(ins[0])), None])


def _ones_like(rc, attrs, x):
    return rc.xp.ones_like(x)


def _zeros_like(rc, attrs, x):
    return rc.xp.zeros_like(x)


def _zero_grad(F, attrs, ins, outs, og):
    return [F._npi_zeros_like(x) for x in ins]


register("_npi_ones_like", _ones_like, nd_hidden=True, gradient=_zero_grad)
register("_npi_zeros_like", _zeros_like, nd_hidden=True, gradient=_zero_grad)


# --- scalar forms ------------------------------------------------------------------------------

_SCALAR_PARAMS = (Param("scalar", "float", 1.0), Param("is_int", "bool", True))


def _scalar_value(attrs, dt):
    return _cast_scalar(attrs["scalar"], dt, attrs["is_int"])


def _cast_scalar(s, dt, is_int=True):  # noqa: ARG001  (ints and floats convert alike)
    """``s`` converted to ``dt`` as 1.9.1's C cast of the double it passes does on x86: the
    value is truncated to a 64-bit (int64) or else a 32-bit integer, which narrower types
    then wrap (300 in int8 is 44); a value that is not finite or outside that 32/64-bit
    range gives its most negative value (so 2**40 in int32 is -2**31, 1e10 in int8 is 0).
    bool is ``s != 0``."""
    if dt.kind in "iu":
        f = float(s)
        lo = -2 ** 63 if dt.itemsize == 8 else -2 ** 31
        v = int(f) if lo - 1 < f < -lo else lo   # (False for NaN; inf is out of range)
        return np.array(v, dtype=np.int64).astype(dt)[()]
    if dt.kind == "b":
        return np.bool_(s != 0)
    return dt.type(s)


def _register_scalar(kind, reverse):
    name = f"_npi_{'r' if reverse else ''}{kind}_scalar"
    kernel = _BIN[kind]

    def compute(rc, attrs, x, _k=kernel, _kind=kind, _rev=reverse):
        if _kind == "true_divide" and x.dtype.kind in "iub":
            dt = _F32
        else:
            dt = scalar_dtype(x.dtype, attrs["scalar"], attrs["is_int"])
        xp = rc.xp
        a = x.astype(dt, copy=False)
        if _kind == "power" and not _rev and dt.kind in "iu" and attrs["scalar"] < 0:
            # an integer array to a negative power: 1.9.1 computes in floating point and
            # truncates (2 ** -1 gives 0) where NumPy raises
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                out = xp.power(a.astype(np.float64), float(int(attrs["scalar"])))
                return xp.asarray(_trunc_to_int(xp, out, dt))
        s = _scalar_value(attrs, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = _k(xp, s, a) if _rev else _k(xp, a, s)
        return xp.asarray(out, dtype=dt)

    def grad(F, attrs, ins, outs, og, _kind=kind, _rev=reverse):
        x, y, g = ins[0], outs[0], og[0]
        s = attrs["scalar"]
        mul = F._npi_multiply
        if _kind in ("add",):
            d = g
        elif _kind == "subtract":
            d = F._npi_negative(g) if _rev else g
        elif _kind == "multiply":
            d = F._npi_multiply_scalar(g, scalar=s, is_int=False)
        elif _kind == "true_divide":
            d = (F._npi_negative(F._npi_true_divide(mul(g, y), x)) if _rev
                 else F._npi_true_divide_scalar(g, scalar=s, is_int=False))
        elif _kind == "mod":
            d = (F._npi_negative(mul(g, F._npi_floor(F._npi_rtrue_divide_scalar(
                x, scalar=s, is_int=False)))) if _rev else g)
        elif _kind == "power":
            if _rev:
                d = F._npi_multiply_scalar(mul(g, y), scalar=float(np.log(s)), is_int=False)
            else:
                d = F._npi_multiply_scalar(mul(g, F._npi_power_scalar(
                    x, scalar=s - 1, is_int=False)), scalar=s, is_int=False)
        elif _kind == "maximum":
            d = mul(g, F._npi_greater_equal_scalar(x, scalar=s, is_int=False))
        else:
            d = mul(g, F._npi_less_equal_scalar(x, scalar=s, is_int=False))
        return [F._np_sum_to_like(d, x)]

    def infer_type(attrs, ins, outs, _kind=kind):
        x = ins[0]
        if x is None:   # nothing to go on but the output
            return [outs[0]], [outs[0]], []
        if _kind == "true_divide" and np.dtype(x).kind in "iub":
            return [x], [_F32], []
        return [x], [scalar_dtype(x, attrs["scalar"], attrs["is_int"])], []

    register(name, compute, params=_SCALAR_PARAMS, gradient=grad, nd_hidden=True,
             infer_type=infer_type,
             doc=f"Elementwise {kind} of an array and a scalar (NumPy type rules).")
    return name


SCALAR_OPS = []
for _kind in _BIN:
    SCALAR_OPS.append(_register_scalar(_kind, False))
    if _kind in ("subtract", "true_divide", "mod", "power"):
        SCALAR_OPS.append(_register_scalar(_kind, True))


# --- comparisons (bool results; no gradient flows through them) -----------------------------

_CMP = {"equal": "equal", "not_equal": "not_equal", "greater": "greater",
        "greater_equal": "greater_equal", "less": "less", "less_equal": "less_equal"}
COMPARISONS = []


def _register_cmp(kind, ufunc):
    def compute(rc, attrs, a, b, _u=ufunc, _n=f"_npi_{kind}"):
        dt = promote(_n, a.dtype, b.dtype)
        if a.shape != b.shape:
            _bshape(_n, a, b)
        return rc.xp.asarray(getattr(rc.xp, _u)(a.astype(dt, copy=False), b.astype(dt, copy=False)))

    def compute_s(rc, attrs, x, _u=ufunc):
        # 1.9.1 first casts the scalar to the array's dtype: int_array == 2.5 compares with 2
        s = _cast_scalar(attrs["scalar"], x.dtype, attrs["is_int"])
        return rc.xp.asarray(getattr(rc.xp, _u)(x, s))

    def infer_type(attrs, ins, outs):   # an unknown input takes the other's dtype; bool out
        known = next((t for t in ins if t is not None), None)
        return [known if t is None else t for t in ins], [np.dtype(np.bool_)], []

    register(f"_npi_{kind}", compute, inputs=("lhs", "rhs"), gradient=_zero_grad, nd_hidden=True,
             infer_type=infer_type)
    register(f"_npi_{kind}_scalar", compute_s, params=_SCALAR_PARAMS, gradient=_zero_grad,
             nd_hidden=True, infer_type=infer_type)
    COMPARISONS.extend([f"_npi_{kind}", f"_npi_{kind}_scalar"])


for _kind, _u in _CMP.items():
    _register_cmp(_kind, _u)


# ---------------------------------------------------------------------------------------------
# unary math: the legacy kernels and gradients (same dtype rules), returning 0-d arrays

UNARY = ("negative", "abs", "sign", "square", "sqrt", "cbrt", "exp", "expm1", "log", "log2",
         "log10", "log1p", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
         "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc",
         "rint", "fix", "degrees", "radians", "relu", "sigmoid")
_NP_ROUNDING: dict = {}


def _register_unary(name):
    base = get_op(name)
    special = _NP_ROUNDING.get(name)

    def compute(rc, attrs, x, _b=base, _s=special):
        if _s is not None:
            out = _s(rc.xp, x)
        else:
            out = _b.compute(rc, attrs, x)
        return rc.xp.asarray(out, dtype=x.dtype if x.dtype.kind != "b" else None)

    grad = None
    if base.gradient is not None:
        def grad(F, attrs, ins, outs, og, _b=base):
            return _b.gradient(F, attrs, ins, outs, og)
    register(f"_npi_{name}", compute, gradient=grad, nd_hidden=True, doc=base.doc)


for _u in UNARY:
    _register_unary(_u)


# ---------------------------------------------------------------------------------------------
# reductions

_RED_PARAMS = (Param("axis", "shape", None), Param("keepdims", "bool", False),
               Param("dtype", "dtype", None))


def _axes(opname, axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if ndim == 0 and len(axis) == 1 and axis[0] in (0, -1):
        return ()   # 1.9.1 accepts one axis 0 or -1 on a zero-dim array (a no-op)
    if ndim == 0 and axis:
        raise MXNetError(f"{opname}: axis {axis} is out of bounds for array of dimension 0")
    axes = tuple(normalize_axis(opname, a, ndim) for a in axis)
    if len(set(axes)) != len(axes):
        raise MXNetError(f"{opname}: duplicate value in 'axis' {axis}")
    return axes


def _kept(x_shape, axes):
    return tuple(1 if i in axes else s for i, s in enumerate(x_shape))


def _red_dtype(kind, x, attrs):
    if attrs.get("dtype") is not None:
        return np.dtype(attrs["dtype"])
    if kind in ("mean",) and x.dtype.kind in "iub":
        return _F32
    if kind in ("sum", "prod") and x.dtype.kind == "b":
        return np.dtype(np.int64)
    return x.dtype


def _int_div(total, n):
    """``total / n`` for integer arrays with C's division (rounding toward zero)."""
    q = total // n
    return q + ((total % n != 0) & ((total < 0) != (n < 0))).astype(q.dtype)


def _int_mean(xp, x, axes, keepdims, dt):
    """1.9.1's mean of integer data with an integer result dtype ``dt``: the sum wraps in
    ``dt``, and is divided by the count (cast to ``dt``) rounding toward zero."""
    n = 1
    for a in axes:
        n *= x.shape[a]
    total = xp.sum(x, axis=axes, keepdims=keepdims, dtype=dt)
    nd = np.array(n).astype(dt)
    return _int_div(total, nd) if nd != 0 else total


def _int_var(xp, x, axes, ddof, root, dt):
    """var/std of integer data (or float data with a wider result dtype) as 1.9.1 computes
    them: the mean, the deviations and their squares in the input dtype (integers wrap; their
    mean rounds toward zero), the squares summed in the result dtype ``dt`` and divided by
    ``n - ddof`` there (C's integer division for an integer ``dt``); std is its root."""
    n = 1
    for a in axes:
        n *= x.shape[a]
    with np.errstate(all="ignore"):
        if x.dtype == np.float16:   # float data with a wider dt: the same steps
            mean = _np_f16("mean", x, axes).reshape(_kept(x.shape, axes))
        elif x.dtype.kind == "f":
            mean = xp.mean(x, axis=axes, keepdims=True, dtype=x.dtype)
        else:
            mean = _int_mean(xp, x, axes, True, x.dtype)
        d = x - mean
        acc = xp.sum(d * d, axis=axes, dtype=dt)
        if dt.kind in "iu":
            nd = np.array(max(n - ddof, 1)).astype(dt)
            out = _int_div(acc, nd) if nd != 0 else acc
        else:
            out = acc / dt.type(max(n - ddof, 1))
        return xp.sqrt(out) if root else out


def _np_f16(kind, x, axes, ddof=0):
    """1.9.1's mx.np sum/mean/prod/var/std of float16: carried in float32 (a compensated
    sum, a running product), rounded to float16; mean then divides by the count in float16;
    var averages the float16 squared deviations from that mean the same way (over n - ddof)
    and std is its float16 square root."""
    n = 1
    for a in axes:
        n *= x.shape[a]
    with np.errstate(all="ignore"):
        if kind == "prod":
            out = _f16_prod(x, axes, False, acc=np.float32).astype(np.float16)
        else:
            out = _f16_sum(x, axes, False, acc=np.float32).astype(np.float16)
        if kind in ("mean", "var", "std"):
            out = out / np.float16(n)
        if kind in ("var", "std"):
            d = x - out.reshape(_kept(x.shape, axes))
            out = _f16_sum(d * d, axes, False, acc=np.float32).astype(np.float16)
            out = out / np.float16(n - ddof)
            if kind == "std":
                out = np.sqrt(out)
    return out.reshape(tuple(s for i, s in enumerate(x.shape) if i not in axes))


def _make_reduction(kind, fn):
    name = {"max": "_np_max", "min": "_np_min", "prod": "_np_prod"}.get(kind, f"_npi_{kind}")

    def compute(rc, attrs, x, _n=name, _kind=kind):
        axes = _axes(_n, attrs["axis"], x.ndim)
        dt = _red_dtype(_kind, x, attrs)
        if x.size == 0 and _kind in ("max", "min") and any(x.shape[a] == 0 for a in axes):
            raise MXNetError(f"{_n}: zero-size array to reduction operation {_kind} which has "
                             f"no identity (shape {x.shape}, axis {attrs['axis']})")
        xp = rc.xp
        src = x.astype(np.float64, copy=False) if x.dtype.kind in "iu" and _kind in (
            "mean", "var", "std") else x
        if x.dtype.kind == "f" and dt.kind == "f" and dt.itemsize > x.dtype.itemsize:
            src = x.astype(dt)   # as 1.9.1: a wider requested dtype is the accumulation type
        if x.dtype == np.float16 and dt == np.float16 and xp is np and \
                _kind in ("sum", "mean", "prod", "var", "std"):
            out = _np_f16(_kind, x, axes, attrs.get("ddof", 0))
        elif x.size == 0 and _kind in ("mean", "var", "std"):
            with warnings.catch_warnings():   # NaN for an empty reduction, without NumPy's
                warnings.simplefilter("ignore", RuntimeWarning)   # warnings on stderr
                with np.errstate(invalid="ignore", divide="ignore"):
                    out = fn(xp, src, axes, attrs)
        else:
            with np.errstate(all="ignore"):   # inf - inf gives NaN silently, as in 1.9.1
                out = fn(xp, src, axes, attrs)
        if _kind in ("var", "std") and x.size and (x.dtype.kind in "iu" or (
                x.dtype.kind == "f" and dt.kind == "f" and dt.itemsize > x.dtype.itemsize
                and xp is np)):
            out = _int_var(xp, x, axes, attrs["ddof"], _kind == "std", dt)
        elif _kind == "mean" and x.dtype.kind in "iub" and dt.kind in "iu":
            out = _int_mean(xp, x, axes, False, dt)   # the sum wraps in dt, as in 1.9.1
        if attrs["keepdims"]:
            out = xp.reshape(out, _kept(x.shape, axes))
        return xp.asarray(out).astype(dt, copy=False)

    def grad(F, attrs, ins, outs, og, _kind=kind):
        x, y = ins[0], outs[0]
        axes = _axes(name, attrs["axis"], len(x.shape))
        kept = _kept(x.shape, axes)
        g = F._np_reshape(og[0], newshape=kept)
        n = 1
        for a in axes:
            n *= x.shape[a]
        mul = F._npi_multiply
        if _kind == "sum":
            d = g
        elif _kind == "mean":
            d = F._npi_true_divide_scalar(g, scalar=float(max(n, 1)), is_int=False)
        elif _kind == "prod":
            d = F._npi_true_divide(mul(g, F._np_reshape(y, newshape=kept)), x)
        elif _kind in ("max", "min"):
            d = mul(g, F._npi_equal(x, F._np_reshape(y, newshape=kept)))
        else:
            ddof = attrs["ddof"]
            mean = F._npi_mean(x, axis=tuple(axes), keepdims=True)
            centred = F._npi_subtract(x, mean)
            d = F._npi_multiply_scalar(mul(g, centred), scalar=2.0 / max(n - ddof, 1),
                                       is_int=False)
            if _kind == "std":
                d = F._npi_true_divide(d, F._npi_multiply_scalar(
                    F._np_reshape(y, newshape=kept), scalar=2.0, is_int=False))
        return [F._np_sum_to_like(F._npi_multiply(d, F._npi_ones_like(x)), x)]

    params = _RED_PARAMS + ((Param("ddof", "int", 0),) if kind in ("var", "std") else ())
    register(name, compute, inputs=("a",), params=params, gradient=grad, nd_hidden=True,
             doc=f"NumPy-style {kind} over ``axis`` (all axes by default).")
    return name


def _sum_fn(xp, x, axes, attrs, kind="sum"):
    if xp is np and x.dtype in (np.float32, np.float64) and axes and x.size:
        # 1.9.1's mx.np sum/mean of float32/float64 are its legacy kernels (compensated
        # steps): the same emulation as nd.sum/nd.mean
        out = (_float_sum if kind == "sum" else _mean_kernel)(xp, x, axes, False)
        return out.reshape(tuple(s for i, s in enumerate(x.shape) if i not in axes))
    return getattr(xp, kind)(x, axis=axes, **({"keepdims": False} if kind == "sum" else {}))


# var/std of float32 arrays of up to _VAR_EXACT_SIZE_MAX[0] elements (float64: [1]) take
# 1.9.1's steps (_var_fn); larger ones keep NumPy's var, which differs from 1.9.1 in the last
# bit of about a third of the outputs. float32: (32, 10) 12 -> 14 us, (256, 256) 35 -> 60 us.
# float64 ones over at most _VAR_KAHAN_MAX elements per output take the compensated steps (a
# loop over the reduced elements: (32, 10) along axis 0 13 -> 85 us), longer ones sum in long
# double and round once.
_VAR_EXACT_SIZE_MAX = (1 << 16, 4096)
_VAR_KAHAN_MAX = 64


def _var_fn(xp, x, axes, ddof, root):
    """1.9.1's mx.np var/std of float32/float64: the mean (float32 input: the sum in double
    rounded to float32, divided by n in float32), then the squared deviations (in the input
    dtype) summed the same way (float32: in double, rounded once), divided by n - ddof;
    float64 input takes compensated double steps for both sums."""
    n = x.size // max(1, int(np.prod([s for i, s in enumerate(x.shape) if i not in axes])))
    if xp is not np or x.dtype not in (np.float32, np.float64) or not x.size or n <= ddof \
            or x.size > _VAR_EXACT_SIZE_MAX[x.dtype == np.float64]:
        return (xp.std if root else xp.var)(x, axis=axes, ddof=ddof)
    t = x.dtype.type
    out_shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
    if t is np.float64 and n <= _VAR_KAHAN_MAX:
        m = np.ascontiguousarray(_f16_rows(x, axes)[0].T)   # one row per reduced element
        d = m - kahan_down(m) / n
        out = kahan_down(d * d) / t(n - ddof)
    else:
        # the mean: summed in double (long double for float64), rounded, divided by n
        acc = np.float64 if t is np.float32 else np.longdouble
        mean = np.add.reduce(x, axis=axes, keepdims=True, dtype=acc).astype(t) / t(n)
        d = x - mean
        out = np.add.reduce(d * d, axis=axes, dtype=acc).astype(t) / t(n - ddof)
    out = out.reshape(out_shape)
    return np.sqrt(out) if root else out


REDUCTIONS = [
    _make_reduction("sum", _sum_fn),
    _make_reduction("mean", lambda xp, x, axes, at: _sum_fn(xp, x, axes, at, "mean")),
    _make_reduction("prod", lambda xp, x, axes, at: xp.prod(x, axis=axes)),
    _make_reduction("max", lambda xp, x, axes, at: xp.max(x, axis=axes)),
    _make_reduction("min", lambda xp, x, axes, at: xp.min(x, axis=axes)),
    _make_reduction("var", lambda xp, x, axes, at: _var_fn(xp, x, axes, at["ddof"], False)),
    _make_reduction("std", lambda xp, x, axes, at: _var_fn(xp, x, axes, at["ddof"], True)),
]


def _arg_reduce(fn, name):
    def compute(rc, attrs, x):
        xp = rc.xp
        axis = attrs["axis"]
        if x.ndim == 0 and axis in (0, -1):
            axis = None   # as 1.9.1
        if x.size == 0 and (axis is None or x.shape[normalize_axis(name, axis, x.ndim)] == 0):
            raise MXNetError(f"{name}: attempt to get {name[5:]} of an empty sequence "
                             f"(shape {x.shape})")
        if axis is None:
            out = fn(x.reshape(-1))
            if attrs["keepdims"]:
                out = xp.reshape(out, (1,) * x.ndim)
        else:
            ax = normalize_axis(name, axis, x.ndim)
            out = fn(x, axis=ax)
            if attrs["keepdims"]:
                out = xp.expand_dims(out, ax)
        return xp.asarray(out, dtype=np.int64)
    register(name, compute, params=(Param("axis", "int", None), Param("keepdims", "bool", False)),
             gradient=_zero_grad, nd_hidden=True)


_arg_reduce(np.argmax, "_npi_argmax")
_arg_reduce(np.argmin, "_npi_argmin")


# ---------------------------------------------------------------------------------------------
# shape manipulation

def _np_reshape(rc, attrs, x):
    shape = attrs["newshape"]
    if any(int(s) < -1 for s in shape):
        # NumPy takes any negative size as "infer"; 1.9.1's _np_reshape only accepts -1
        raise MXNetError(f"reshape: newshape {tuple(shape)} has a negative size other than -1; "
                         "only -1 may mark the dimension to infer (use npx.reshape for the "
                         "-2..-6 codes)")
    try:
        return x.reshape(shape, order=attrs["order"])
    except ValueError:
        raise MXNetError(f"reshape: cannot reshape array of size {x.size} (shape {x.shape}) "
                         f"into shape {shape}") from None


def _reshape_back(F, attrs, ins, outs, og):
    return [F._np_reshape(og[0], newshape=tuple(ins[0].shape))]


register("_np_reshape", _np_reshape, inputs=("a",), nd_hidden=True,
         params=(Param("newshape", "shape"), Param("order", "str", "C", choices=("C",))),
         gradient=_reshape_back)


def _transpose(rc, attrs, x):
    axes = attrs["axes"]
    if axes is not None and len(axes) == 0:
        axes = None
    if axes is not None:
        named = [normalize_axis("transpose", a, x.ndim) for a in axes]
        if len(set(named)) != len(named):   # a ValueError in 1.9.1
            raise MXNetValueError(f"transpose: repeated axis in axes {axes}")
        if sorted(named) != list(range(x.ndim)):
            raise MXNetError(f"transpose: axes {axes} do not match an array of shape {x.shape}")
    return rc.xp.transpose(x, axes)


def _transpose_grad(F, attrs, ins, outs, og):
    nd = len(ins[0].shape)
    axes = attrs["axes"] or tuple(reversed(range(nd)))
    axes = [a % nd for a in axes]
    inv = tuple(int(i) for i in np.argsort(axes))
    return [F._np_transpose(og[0], axes=inv)]


register("_np_transpose", _transpose, inputs=("a",), nd_hidden=True,
         params=(Param("axes", "shape", None),), gradient=_transpose_grad)


def _swapaxes(rc, attrs, x):
    a1 = normalize_axis("swapaxes", attrs["dim1"], x.ndim)
    a2 = normalize_axis("swapaxes", attrs["dim2"], x.ndim)
    return rc.xp.swapaxes(x, a1, a2)


register("_npi_swapaxes", _swapaxes, inputs=("a",), nd_hidden=True,
         params=(Param("dim1", "int", 0), Param("dim2", "int", 0)),
         gradient=lambda F, a, ins, outs, og: [F._npi_swapaxes(og[0], **a)])


def _expand_dims(rc, attrs, x):
    axis = attrs["axis"]
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise MXNetError(f"expand_dims: axis {axis} is out of range for an array of shape "
                         f"{x.shape}")
    return rc.xp.expand_dims(x, axis)


register("_npi_expand_dims", _expand_dims, inputs=("a",), nd_hidden=True,
         params=(Param("axis", "int"),), gradient=_reshape_back)


def _squeeze(rc, attrs, x):
    axis = attrs["axis"]
    if axis is not None:
        axis = tuple(normalize_axis("squeeze", a, x.ndim) for a in axis)
        for a in axis:
            if x.shape[a] != 1:
                raise MXNetError(f"squeeze: cannot select an axis to squeeze out which has "
                                 f"size not equal to one (axis {a} of shape {x.shape})")
    return rc.xp.squeeze(x, axis)


register("_np_squeeze", _squeeze, inputs=("a",), nd_hidden=True,
         params=(Param("axis", "shape", None),), gradient=_reshape_back)


def _broadcast_to(rc, attrs, x):
    shape = attrs["shape"]
    try:
        return rc.xp.broadcast_to(x, shape).copy()
    except ValueError:
        raise MXNetError(f"broadcast_to: cannot broadcast an array of shape {x.shape} to "
                         f"shape {shape}") from None


register("_np_broadcast_to", _broadcast_to, inputs=("array",), nd_hidden=True,
         params=(Param("shape", "shape"),),
         gradient=lambda F, a, ins, outs, og: [F._np_sum_to_like(og[0], ins[0])])


def _concat_check(name, arrays, axis):
    if not arrays:
        raise MXNetError(f"{name}: need at least one array")
    nd0 = arrays[0].ndim
    if nd0 == 0:
        raise MXNetError(f"{name}: zero-dimensional arrays cannot be concatenated")
    ax = normalize_axis(name, axis, nd0)
    for a in arrays[1:]:
        if a.ndim != nd0 or any(s != t for i, (s, t) in enumerate(zip(a.shape, arrays[0].shape))
                                if i != ax):
            seen = ", ".join(str(tuple(b.shape)) for b in arrays)
            raise MXNetError(f"{name}: all the input array dimensions except for the "
                             f"concatenation axis {axis} must match exactly (shapes {seen})")
    return ax


def _concatenate(rc, attrs, *arrays):
    axis = attrs["axis"]
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    ax = _concat_check("concatenate", arrays, axis)
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = promote("concatenate", dt, a.dtype)
    return rc.xp.concatenate([a.astype(dt, copy=False) for a in arrays], axis=ax)


def _concat_grad(F, attrs, ins, outs, og):
    axis = attrs["axis"]
    g = og[0]
    if axis is None:
        axis = 0
        sizes = [int(np.prod(x.shape)) for x in ins]
    else:
        axis = axis % len(ins[0].shape)
        sizes = [x.shape[axis] for x in ins]
    res, start = [], 0
    for x, n in zip(ins, sizes):
        piece = F.slice_axis(g, axis=axis, begin=start, end=start + n)
        res.append(F._np_reshape(F._np_sum_to_like(piece, piece), newshape=tuple(x.shape))
                   if attrs["axis"] is None else piece)
        start += n
    return res


register("_npi_concatenate", _concatenate, variadic="num_args", nd_hidden=True,
         params=(Param("num_args", "int", 1), Param("axis", "int", 0, optional=True)),
         gradient=_concat_grad)


def _stack(rc, attrs, *arrays):
    shapes = {tuple(a.shape) for a in arrays}
    if len(shapes) != 1:
        raise MXNetError(f"stack: all input arrays must have the same shape (shapes "
                         f"{[tuple(a.shape) for a in arrays]})")
    ax = attrs["axis"]
    nd = arrays[0].ndim + 1
    if not -nd <= ax < nd:
        raise MXNetError(f"stack: axis {ax} is out of range for the {nd}-d result")
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = promote("stack", dt, a.dtype)
    return rc.xp.stack([a.astype(dt, copy=False) for a in arrays], axis=ax)


def _stack_grad(F, attrs, ins, outs, og):
    nd = len(ins[0].shape) + 1
    ax = attrs["axis"] % nd
    return [F._np_reshape(F.slice_axis(og[0], axis=ax, begin=i, end=i + 1),
                          newshape=tuple(x.shape)) for i, x in enumerate(ins)]


register("_npi_stack", _stack, variadic="num_args", nd_hidden=True,
         params=(Param("num_args", "int", 1), Param("axis", "int", 0)), gradient=_stack_grad)


def _split_points(attrs, n):
    sections, indices = attrs["sections"], attrs["indices"]
    if sections:
        if n % sections:
            raise MXNetValueError(f"split: array split does not result in an equal division "
                                  f"({n} into {sections} sections)")
        return [i * (n // sections) for i in range(1, sections)]
    return [int(i) for i in indices]


def _split_count(attrs):
    return attrs["sections"] or len(attrs["indices"]) + 1


def _split(rc, attrs, x):
    if x.ndim == 0:
        raise MXNetError("split: a zero-dimensional array cannot be split")
    ax = normalize_axis("split", attrs["axis"], x.ndim)
    return tuple(rc.xp.split(x, _split_points(attrs, x.shape[ax]), axis=ax))


def _split_grad(F, attrs, ins, outs, og):
    return [F._npi_concatenate(*og, axis=attrs["axis"])]


register("_npi_split", _split, inputs=("a",), nd_hidden=True, num_outputs=_split_count,
         params=(Param("sections", "int", 0), Param("indices", "shape", ()),
                 Param("axis", "int", 0)), gradient=_split_grad)


def _tile(rc, attrs, x):
    reps = attrs["reps"]
    if any(r < 0 for r in reps):
        raise MXNetError(f"tile: reps {reps} must be non-negative")
    return rc.xp.tile(x, reps)


def _tile_grad(F, attrs, ins, outs, og):
    shape = tuple(ins[0].shape)
    reps = tuple(attrs["reps"])
    n = max(len(shape), len(reps))
    shape = (1,) * (n - len(shape)) + shape
    reps = (1,) * (n - len(reps)) + reps
    inter = tuple(v for pair in zip(reps, shape) for v in pair)
    g = F._np_reshape(og[0], newshape=inter)
    g = F._npi_sum(g, axis=tuple(range(0, 2 * n, 2)))
    return [F._np_reshape(g, newshape=tuple(ins[0].shape))]


register("_npi_tile", _tile, inputs=("A",), nd_hidden=True, params=(Param("reps", "shape"),),
         gradient=_tile_grad)


def _repeat(rc, attrs, x):
    r = attrs["repeats"]
    if r < 0:
        raise MXNetError(f"repeat: repeats {r} must be non-negative")
    axis = attrs["axis"]
    if axis is not None:
        axis = normalize_axis("repeat", axis, x.ndim)
    return rc.xp.repeat(x, r, axis=axis)


def _repeat_grad(F, attrs, ins, outs, og):
    shape = tuple(ins[0].shape)
    r, axis = attrs["repeats"], attrs["axis"]
    if axis is None:
        g = F._np_reshape(og[0], newshape=(int(np.prod(shape)), r))
        return [F._np_reshape(F._npi_sum(g, axis=(1,)), newshape=shape)]
    axis = axis % len(shape)
    inter = shape[:axis] + (shape[axis], r) + shape[axis + 1:]
    g = F._npi_sum(F._np_reshape(og[0], newshape=inter), axis=(axis + 1,))
    return [g]


register("_np_repeat", _repeat, inputs=("a",), nd_hidden=True,
         params=(Param("repeats", "int"), Param("axis", "int", None)), gradient=_repeat_grad)


def _where(rc, attrs, cond, x, y):
    dt = promote("where", x.dtype, y.dtype)
    try:
        return rc.xp.where(cond.astype(bool), x.astype(dt, copy=False), y.astype(dt, copy=False))
    except ValueError:
        raise MXNetError(f"where: operands could not be broadcast together with shapes "
                         f"{cond.shape} {x.shape} {y.shape}") from None


def _where_grad(F, attrs, ins, outs, og):
    c, x, y = ins
    g = og[0]
    zero = F._npi_zeros_like(g)
    return [None, F._np_sum_to_like(F._npi_where(c, g, zero), x),
            F._np_sum_to_like(F._npi_where(c, zero, g), y)]


register("_npi_where", _where, inputs=("condition", "x", "y"), nd_hidden=True,
         gradient=_where_grad)


def _clip(rc, attrs, x):
    lo, hi = attrs["a_min"], attrs["a_max"]
    if lo is None and hi is None:
        raise MXNetError("clip: at least one of a_min and a_max must be given")
    xp = rc.xp
    out = x
    # 1.9.1 tests the upper bound first: with a_min > a_max, values above a_max give a_max
    # and the others below a_min give a_min
    if x.dtype.kind in "iu":
        # bounds outside the dtype's range (-1 for uint8) are compared as numbers, not cast
        # first (numpy 2 refuses to cast them): such a bound never applies
        if lo is not None:
            out = xp.where(x < lo, np.array(lo).astype(x.dtype), out)
        if hi is not None:
            out = xp.where(x > hi, np.array(hi).astype(x.dtype), out)
        return xp.asarray(out, dtype=x.dtype)
    if lo is not None:
        out = xp.maximum(out, x.dtype.type(lo))
    if hi is not None:
        out = xp.where(x > x.dtype.type(hi), x.dtype.type(hi), out)
    return xp.asarray(out, dtype=x.dtype)


def _clip_grad(F, attrs, ins, outs, og):
    x = ins[0]
    lo, hi = attrs["a_min"], attrs["a_max"]
    g = og[0]
    if lo is not None:
        g = F._npi_multiply(g, F._npi_greater_equal_scalar(x, scalar=lo, is_int=False))
    if hi is not None:
        g = F._npi_multiply(g, F._npi_less_equal_scalar(x, scalar=hi, is_int=False))
    return [F._np_sum_to_like(g, x)]


register("_npi_clip", _clip, inputs=("a",), nd_hidden=True,
         params=(Param("a_min", "float", None), Param("a_max", "float", None)),
         gradient=_clip_grad)


# ---------------------------------------------------------------------------------------------
# linear algebra

def _no_cpu_half(opname, dt, rc):
    """1.9.1's CPU dot/matmul/tensordot kernels take float32/float64 only (float16: GPU)."""
    if dt == np.float16 and rc.xp is np:
        raise MXNetError(f"{opname}: float16 inputs are supported on GPUs only; on the CPU "
                         f"1.9.1 takes float32 or float64 (cast the operands first)")


def _tensordot(rc, attrs, a, b):
    ax_a, ax_b = attrs["a_axes_summed"], attrs["b_axes_summed"]
    if len(ax_a) != len(ax_b) or any(
            a.shape[normalize_axis("tensordot", i, a.ndim)] !=
            b.shape[normalize_axis("tensordot", j, b.ndim)] for i, j in zip(ax_a, ax_b)):
        raise MXNetError(f"tensordot: shape mismatch for sum: a {a.shape} axes {ax_a}, "
                         f"b {b.shape} axes {ax_b}")
    dt = promote("tensordot", a.dtype, b.dtype)
    _no_cpu_half("tensordot", dt, rc)
    if len(ax_a) == 1 and a.ndim in (1, 2) and b.ndim in (1, 2) and a.ndim + b.ndim > 2 and \
            ax_a[0] % a.ndim == a.ndim - 1 and ax_b[0] % b.ndim == 0:
        # a matrix-vector or matrix product: GEMM, as 1.9.1 (see _gemm_order)
        a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
        with np.errstate(all="ignore"):
            out = gemm(rc.xp, a.reshape(-1, a.shape[-1]), b.reshape(b.shape[0], -1))
        return out.reshape(a.shape[:-1] + b.shape[1:])
    with np.errstate(all="ignore"):   # overflow to inf without NumPy's warning, as in 1.9.1
        return rc.xp.asarray(rc.xp.tensordot(a.astype(dt, copy=False), b.astype(dt, copy=False),
                                             axes=(list(ax_a), list(ax_b))))


def _tensordot_grad(F, attrs, ins, outs, og):
    a, b = ins
    na, nb = len(a.shape), len(b.shape)
    ax_a = [i % na for i in attrs["a_axes_summed"]]
    ax_b = [j % nb for j in attrs["b_axes_summed"]]
    fa = [i for i in range(na) if i not in ax_a]
    fb = [j for j in range(nb) if j not in ax_b]
    g = og[0]
    nfa = len(fa)
    # dA: contract g's B-free axes with B's free axes
    da = F._npi_tensordot(g, b, a_axes_summed=tuple(range(nfa, nfa + len(fb))),
                          b_axes_summed=tuple(fb))
    # B's uncontracted axes come out in B's order; each stands for its paired axis of A
    order_a = fa + [ax_a[ax_b.index(j)] for j in sorted(ax_b)]
    da = F._np_transpose(da, axes=tuple(int(i) for i in np.argsort(order_a)))
    # dB: contract A's free axes with g's A-free axes
    db = F._npi_tensordot(a, g, a_axes_summed=tuple(fa), b_axes_summed=tuple(range(nfa)))
    order_b = [ax_b[ax_a.index(i)] for i in sorted(ax_a)] + fb
    db = F._np_transpose(db, axes=tuple(int(i) for i in np.argsort(order_b)))
    return [F._np_sum_to_like(da, a), F._np_sum_to_like(db, b)]


register("_npi_tensordot", _tensordot, inputs=("a", "b"), nd_hidden=True,
         params=(Param("a_axes_summed", "shape"), Param("b_axes_summed", "shape")),
         gradient=_tensordot_grad)


def _matmul(rc, attrs, a, b):
    if a.ndim == 0 or b.ndim == 0:
        raise MXNetError(f"matmul: Input operand does not have enough dimensions (shapes "
                         f"{a.shape}, {b.shape}); scalars are not allowed")
    # NumPy's rules: a 1-d left operand is a row, a 1-d right operand a column, and the
    # added axis is dropped from the result
    aa = a[None, :] if a.ndim == 1 else a
    bb = b[:, None] if b.ndim == 1 else b
    if aa.shape[-1] != bb.shape[-2]:
        raise MXNetError(f"matmul: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(shapes {a.shape} and {b.shape})")
    try:
        np.broadcast_shapes(aa.shape[:-2], bb.shape[:-2])
    except ValueError:
        raise MXNetError(f"matmul: batch dimensions of {a.shape} and {b.shape} do not "
                         "broadcast") from None
    dt = promote("matmul", a.dtype, b.dtype)
    _no_cpu_half("matmul", dt, rc)
    aa, bb = aa.astype(dt, copy=False), bb.astype(dt, copy=False)
    # 1.9.1 keeps vector-shaped products on GEMM (a 1-D . 1-D product is BLAS's DOT)
    out = rc.xp.matmul(aa, bb) if a.ndim == 1 and b.ndim == 1 else gemm(rc.xp, aa, bb)
    if b.ndim == 1:
        out = out[..., 0]
    if a.ndim == 1:
        out = out[..., 0, :] if b.ndim > 1 else out[..., 0]
    return out


def _matmul_grad(F, attrs, ins, outs, og):
    a, b = ins
    a1d, b1d = len(a.shape) == 1, len(b.shape) == 1
    g = og[0]
    if b1d:
        g = F._npi_expand_dims(g, axis=-1)
    if a1d:
        g = F._npi_expand_dims(g, axis=-2)
    aa = F._npi_expand_dims(a, axis=0) if a1d else a
    bb = F._npi_expand_dims(b, axis=-1) if b1d else b
    da = F._np_sum_to_like(F._npi_matmul(g, F._npi_swapaxes(bb, dim1=-1, dim2=-2)), aa)
    db = F._np_sum_to_like(F._npi_matmul(F._npi_swapaxes(aa, dim1=-1, dim2=-2), g), bb)
    if a1d:
        da = F._np_reshape(da, newshape=tuple(a.shape))
    if b1d:
        db = F._np_reshape(db, newshape=tuple(b.shape))
    return [da, db]


register("_npi_matmul", _matmul, inputs=("a", "b"), nd_hidden=True, gradient=_matmul_grad)


# float32/float64 norms of arrays of at most this many elements take 1.9.1's scaled steps
# (below) while no row reaches a new maximum of |x| more than _SCALED_SEGMENTS_MAX times
# (sorted data); the rest sum |x|**p directly, which differs from 1.9.1 in the last bit of
# about half the outputs. The steps cost ~10 NumPy calls a segment (a few per row, ~ln(n)):
# norm of (32, 10) 5 -> 28 us, (32, 10) along an axis 7 -> 80 us, (64, 64) along an axis
# 8 -> 170 us, (4096,) 6 -> 57 us; 512 x 512 took 8 ms in them (70 us otherwise).
_SCALED_SIZE_MAX = 4096
_SCALED_SEGMENTS_MAX = 48


def _c_pow(a, b):
    """C's pow(a, b) on doubles (glibc's, as math.pow), inf / NaN where math.pow raises."""
    try:
        return math.pow(a, b)
    except OverflowError:
        return math.inf
    except ValueError:
        return math.nan


_c_pow_u = np.frompyfunc(_c_pow, 2, 1)


def _lp_pow(r, p):
    """1.9.1's pow(r, p) of the scaled p-norm steps in double (glibc's pow for p other than
    1 and 2: NumPy's vectorised power may differ from it in the last bit)."""
    if p == 1.0:
        return r
    if p == 2.0:
        return r * r
    if p < 0:   # pow(0, p) of the first step (its product with the empty sum is dropped)
        r = np.where(r == 0, 1, r)
    rd = r.astype(np.float64)
    try:    # (math.pow over a list: half the time of the object-array ufunc)
        return np.fromiter(map(math.pow, rd.ravel().tolist(), itertools.repeat(p)), np.float64,
                           rd.size).reshape(rd.shape)
    except (OverflowError, ValueError):     # overflow, pow(0, p < 0): _c_pow's values
        return _c_pow_u(rd, p).astype(np.float64)


def _scaled_norm_191(x, axes, keepdims, p, l2_kernel):
    """1.9.1's float32/float64 norm on the CPU, per output: the largest |x| so far (the scale)
    and the sum of (|x| / scale)**p, rescaled as 1 + sum * (old / new scale)**p when the scale
    grows, every step rounded to the input dtype; finished as scale * sum**(1/p).
    ``l2_kernel``: nd.norm's L2 steps ((sum * r) * r and scale * sqrt(sum)), which the
    flattened and Frobenius norms take. Without a loop over the elements: between two new
    maxima of a row the steps are a sequential sum, which np.add.accumulate rounds as 1.9.1
    does (adding the zeros outside the segment is exact). None where that needs too many
    passes or the data is not finite."""
    t = x.dtype.type
    m, _ = _f16_rows(x, axes)
    a = np.abs(m)
    if not np.isfinite(a).all():
        return None
    run = np.maximum.accumulate(a, axis=1)
    new = np.empty(a.shape, bool)
    new[:, 0] = a[:, 0] > 0
    new[:, 1:] = a[:, 1:] > run[:, :-1]
    if a.shape[0] == 1:
        starts = np.flatnonzero(new[0]).tolist()
        if len(starts) > _SCALED_SEGMENTS_MAX:
            return None
    else:
        sid = np.cumsum(new, axis=1, dtype=np.int32)
        nseg = sid[:, -1]
        if nseg.max(initial=0) > _SCALED_SEGMENTS_MAX:
            return None
    with np.errstate(all="ignore"):
        if l2_kernel:
            r = a / run
            terms = np.multiply(r, r, out=r)
        else:
            terms = _lp_pow(a / run, p).astype(t)
        one = t(1)
        if a.shape[0] == 1:   # one output: each segment a slice of the row
            # (the slices skip the leading zeros' 0/0 and each segment's first term; inside
            # a segment a zero's term is 0 already unless p < 0)
            if p < 0 and not l2_kernel:
                terms[a == 0] = 0
            ss, scale = t(0), t(0)
            starts.append(a.shape[1])
            row, trow = a[0], terms[0]
            for k, end in zip(starts[:-1], starts[1:]):
                r = scale / row[k]
                ss = one + (ss * r) * r if l2_kernel else \
                    one + ss * t(_lp_pow(np.array([r]), p)[0])
                if end - k > 1:
                    trow[k] = ss
                    ss = np.add.accumulate(trow[k:end])[-1]
                scale = row[k]
            ss, scale = np.array([ss], t), np.array([scale], t)
        else:
            # every row's segment j at once: its terms (zeros elsewhere), its first position
            # (where the rescaled sum goes), then one sequential sum along the rows
            terms[new | (a == 0)] = 0
            rows = np.arange(a.shape[0])
            nmax = int(nseg.max(initial=0))
            ri, ci = np.nonzero(new)
            postab = np.zeros((a.shape[0], nmax), np.intp)
            postab[ri, sid[ri, ci] - 1] = ci
            tops = a[rows[:, None], postab]
            prev = np.zeros_like(tops)
            prev[:, 1:] = tops[:, :-1]
            with np.errstate(all="ignore"):
                ratio = prev / tops
            if not l2_kernel:
                ratio = _lp_pow(ratio, p).astype(t)
            live = nseg[:, None] > np.arange(nmax)
            # (segment, reduced element, output): the sums run down axis 1, a whole row of
            # outputs at a time (NumPy reduces axis 0 of a C-contiguous matrix with two or
            # more columns row after row: each column's sum is sequential)
            sidT = np.ascontiguousarray(sid.T)
            termsT = np.ascontiguousarray(terms.T)
            ss = np.zeros(a.shape[0], t)
            w = np.empty_like(termsT)
            for j in range(nmax):
                r = ratio[:, j]
                start = one + (ss * r) * r if l2_kernel else one + ss * r
                np.multiply(termsT, sidT == j + 1, out=w)     # (segment j's terms, 0 elsewhere)
                w[postab[:, j], rows] = np.where(live[:, j], start, ss)
                ss = np.add.reduce(w, axis=0)
            scale = run[:, -1]
        if l2_kernel or p == 2.0:
            out = scale * np.sqrt(ss) if l2_kernel else scale * _lp_pow(ss, 0.5).astype(t)
        elif p == 1.0:
            out = scale * ss
        else:
            out = scale * _lp_pow(ss, 1.0 / p).astype(t)
            if p < 0:   # a zero element makes the sum infinite: the norm is 0 (as NumPy;
                out[(a == 0).any(axis=1)] = 0   # 1.9.1 skips zeros, a wrong result)
    return out.reshape(_kept(x.shape, axes) if keepdims else
                       tuple(d for i, d in enumerate(x.shape) if i not in axes))


def _norm(rc, attrs, x):
    ordv, axis = attrs["ord"], attrs["axis"]
    if attrs["flag"] in (-2, 1) and ordv in (None, 2.0, "fro"):
        ordv = None  # 1.9.1's graphs: the 2-norm of the flattened array / Frobenius norm
    xp = rc.xp
    axes = tuple(range(x.ndim)) if axis is None else tuple(
        normalize_axis("norm", a, x.ndim) for a in axis)
    vector_p = isinstance(ordv, float) and ordv not in (1.0, 2.0, 0.0) and np.isfinite(ordv)
    if ordv not in (None, 1.0, 2.0, "fro") and not (vector_p and len(axes) == 1):
        raise MXNetError(f"norm: ord={ordv!r} is not supported yet (only None, 1, 2 for "
                         "vectors and 'fro' for matrices)")
    if ordv == "fro" and len(axes) != 2:
        raise MXNetError(f"norm: ord='fro' needs a 2-d reduction (axis {axis}, shape {x.shape})")
    if ordv in (1.0, 2.0) and len(axes) != 1 and not (axis is None and x.ndim == 1):
        raise MXNetError(f"norm: matrix norms with ord={ordv} are not supported yet "
                         f"(axis {axis}, shape {x.shape})")
    src = x.astype(np.float64) if x.dtype.kind != "f" else x
    if x.dtype == np.float16 and xp is np and (axis is None and ordv is None or len(axes) == 1) \
            and not vector_p:
        # 1.9.1: the flattened 2-norm is nd.norm's float16 one; a vector norm along one axis
        # is its own scaled p-norm (float32 throughout under MXNET_SAFE_ACCUMULATION=1)
        from ._safe_acc import safe_acc_on, warn_float16
        if axis is None and ordv is None:
            out = _f16_l2(x, axes, attrs["keepdims"])
        else:
            warn_float16("LpNorm", x.dtype, "npLpNorm")
            out = _f16_lp(x, axes, attrs["keepdims"], 1 if ordv == 1.0 else 2, safe_acc_on())
        if not attrs["keepdims"]:
            out = out.reshape(tuple(s for i, s in enumerate(x.shape) if i not in axes))
        return out
    if xp is np and x.dtype in (np.float32, np.float64) and x.size:
        l2 = ordv is None and (axis is None or len(axes) == 2) or ordv == "fro"
        if x.size <= _SCALED_SIZE_MAX:
            out = _scaled_norm_191(x, axes, attrs["keepdims"], 2.0 if ordv in (None, "fro")
                                   else ordv, l2)
            if out is not None:
                return out
    if ordv == 1.0:
        out = xp.sum(xp.abs(src), axis=axes, keepdims=attrs["keepdims"])
    elif vector_p:
        with np.errstate(all="ignore"):
            out = xp.sum(xp.abs(src) ** ordv, axis=axes, keepdims=attrs["keepdims"]) ** (
                1.0 / ordv)
    else:
        out = xp.sqrt(xp.sum(src * src, axis=axes, keepdims=attrs["keepdims"]))
    dt = x.dtype if x.dtype.kind == "f" else _F32
    return xp.asarray(out, dtype=dt)


def _norm_grad(F, attrs, ins, outs, og):
    x, y = ins[0], outs[0]
    nd = len(x.shape)
    axes = tuple(range(nd)) if attrs["axis"] is None else tuple(a % nd for a in attrs["axis"])
    kept = _kept(x.shape, axes)
    g = F._np_reshape(og[0], newshape=kept)
    p = attrs["ord"]
    if p == 1.0 and attrs["flag"] not in (-2, 1):
        d = F._npi_multiply(g, F._npi_sign(x))
    elif isinstance(p, float) and p != 2.0 and attrs["flag"] not in (-2, 1):
        # d||x||_p / dx = sign(x) |x|**(p-1) / ||x||_p**(p-1)
        num = F._npi_multiply(F._npi_sign(x), F._npi_power_scalar(F._npi_absolute(x),
                                                                   scalar=p - 1.0))
        den = F._npi_power_scalar(F._np_reshape(y, newshape=kept), scalar=p - 1.0)
        d = F._npi_multiply(g, F._npi_true_divide(num, den))
    else:
        d = F._npi_multiply(g, F._npi_true_divide(x, F._np_reshape(y, newshape=kept)))
    return [F._np_sum_to_like(d, x)]


def _ord(v):
    if v is None or (isinstance(v, str) and v in ("None", "")):
        return None
    if isinstance(v, str) and v.strip("'\"") == "fro":
        return "fro"
    return float(v)


register("_npi_norm", _norm, inputs=("x",), nd_hidden=True,
         params=(Param("ord", "any", None), Param("axis", "shape", None),
                 Param("keepdims", "bool", False), Param("flag", "int", -1)),
         gradient=_norm_grad,
         attr_check=lambda name, attrs: attrs.__setitem__("ord", _ord(attrs["ord"])))


# ---------------------------------------------------------------------------------------------
# npx.reshape: NumPy reshape with 1.9.1's npx codes


def npx_reshape_shape(src, target, reverse=False):
    """The output shape of ``npx.reshape``: -1 infers, -2 copies a dim, -3 drops a size-1 dim,
    -4 copies all remaining dims, -5 merges two dims, -6 splits one dim into the next two values."""
    src = tuple(src)
    target = tuple(int(t) for t in target)
    if reverse:
        src, target = src[::-1], _reverse_codes(target)
    out, i, j, infer = [], 0, 0, None

    def need(k):
        if i + k > len(src):
            raise MXNetError(f"npx.reshape: shape {target} does not fit input shape {src}")
    while j < len(target):
        t = target[j]
        if t >= 0:
            out.append(t)
            i += 1
        elif t == -1:
            if infer is not None:
                raise MXNetError(f"npx.reshape: more than one -1 in shape {target}")
            infer = len(out)
            out.append(1)
            i += 1
        elif t == -2:
            need(1)
            out.append(src[i])
            i += 1
        elif t == -3:
            need(1)
            if src[i] != 1:
                raise MXNetError(f"npx.reshape: -3 needs a dimension of size 1, got {src[i]} "
                                 f"(input shape {src})")
            i += 1
        elif t == -4:
            out.extend(src[i:])
            i = len(src)
        elif t == -5:
            need(2)
            out.append(src[i] * src[i + 1])
            i += 2
        elif t == -6:
            need(1)
            if j + 2 >= len(target):
                raise MXNetError(f"npx.reshape: -6 must be followed by two values in {target}")
            d1, d2 = target[j + 1], target[j + 2]
            if d1 == -1:
                d1 = src[i] // d2
            if d2 == -1:
                d2 = src[i] // d1
            if d1 * d2 != src[i]:
                raise MXNetError(f"npx.reshape: cannot split dimension {src[i]} into "
                                 f"({target[j + 1]}, {target[j + 2]})")
            out.extend([d1, d2])
            i += 1
            j += 2
        else:
            raise MXNetError(f"npx.reshape: invalid code {t} in shape {target}")
        j += 1
    size = int(np.prod(src)) if src else 1
    if infer is not None:
        rest = int(np.prod([d for k, d in enumerate(out) if k != infer])) if len(out) > 1 else 1
        if rest == 0 or size % rest:
            raise MXNetError(f"npx.reshape: cannot infer -1 in {target} for input shape {src}")
        out[infer] = size // rest
    if int(np.prod(out)) != size:
        raise MXNetError(f"npx.reshape: cannot reshape input of shape {src} into {target}")
    return tuple(out[::-1]) if reverse else tuple(out)


def _reverse_codes(target):
    # -6 a b reads as a group; keep its operands in order after reversing
    groups, j = [], 0
    while j < len(target):
        if target[j] == -6:
            groups.append((-6, target[j + 2], target[j + 1]))
            j += 3
        else:
            groups.append((target[j],))
            j += 1
    return tuple(v for g in reversed(groups) for v in g)


def _npx_reshape(rc, attrs, x):
    return x.reshape(npx_reshape_shape(x.shape, attrs["newshape"], attrs["reverse"]))


register("_npx_reshape", _npx_reshape, inputs=("a",), nd_hidden=True,
         params=(Param("newshape", "shape"), Param("reverse", "bool", False),
                 Param("order", "str", "C", choices=("C",))),
         gradient=_reshape_back)


# ---------------------------------------------------------------------------------------------
# creation (no inputs)

_CTX_DT = (Param("ctx", "str", ""), Param("dtype", "dtype", "float32"))


def _full(rc, attrs):
    return rc.xp.full(attrs["shape"], attrs["value"], dtype=attrs["dtype"])


register("_npi_full", _full, inputs=(), nd_hidden=True,
         params=(Param("shape", "shape"), Param("value", "float", 0.0)) + _CTX_DT)
register("_npi_zeros", lambda rc, attrs: rc.xp.zeros(attrs["shape"], dtype=attrs["dtype"]),
         inputs=(), nd_hidden=True, params=(Param("shape", "shape"),) + _CTX_DT)
register("_npi_ones", lambda rc, attrs: rc.xp.ones(attrs["shape"], dtype=attrs["dtype"]),
         inputs=(), nd_hidden=True, params=(Param("shape", "shape"),) + _CTX_DT)


def _arange(rc, attrs):
    start, stop, step = attrs["start"], attrs["stop"], attrs["step"]
    if stop is None:
        start, stop = 0.0, start
    if step == 0:
        raise MXNetError("arange: step must not be 0")
    n = max(int(np.ceil((stop - start) / step)), 0)
    dt = np.dtype(attrs["dtype"])
    if dt.kind in "iub":   # as the legacy arange: start and step cast to the integer dtype
        start, step = float(np.array(start).astype(dt)), float(np.array(step).astype(dt))
    elif dt == np.float16:   # and truncated to integers for float16 (1.9.1's quirk)
        start, step = float(np.trunc(start)), float(np.trunc(step))
    if dt == np.float32:   # 1.9.1 forms start + i * step in float32
        f32 = np.float32
        return f32(start) + rc.xp.arange(n, dtype=f32) * f32(step)
    vals = start + step * rc.xp.arange(n, dtype=np.float64)
    return vals.astype(attrs["dtype"])


register("_npi_arange", _arange, inputs=(), nd_hidden=True,
         params=(Param("start", "float"), Param("stop", "float", None),
                 Param("step", "float", 1.0)) + _CTX_DT)


def _linspace(rc, attrs):
    return rc.xp.linspace(attrs["start"], attrs["stop"], attrs["num"],
                          endpoint=attrs["endpoint"]).astype(attrs["dtype"])


register("_npi_linspace", _linspace, inputs=(), nd_hidden=True,
         params=(Param("start", "float"), Param("stop", "float"), Param("num", "int", 50),
                 Param("endpoint", "bool", True)) + _CTX_DT)


def _eye(rc, attrs):
    return rc.xp.eye(attrs["N"], attrs["M"], k=attrs["k"], dtype=attrs["dtype"])


register("_npi_eye", _eye, inputs=(), nd_hidden=True,
         params=(Param("N", "int"), Param("M", "int", None), Param("k", "int", 0)) + _CTX_DT)


# ---------------------------------------------------------------------------------------------
# random (drawn from the device generator that mx.random.seed seeds)

def _size(attrs):
    s = attrs["size"]
    return () if s is None else s


def _randint(rc, attrs):
    lo, hi = attrs["low"], attrs["high"]
    if hi is None:
        lo, hi = 0, lo
    if hi <= lo:
        raise MXNetError(f"randint: low ({lo}) must be less than high ({hi})")
    gen = getattr(rc.rng, "parallel", None)
    if gen is not None:   # 1.9.1's CPU draw: low + ((w0 << 31) + w1) % (high - low), unsigned
        size = tuple(_size(attrs))
        raw = gen.randint_raw(int(np.prod(size, dtype=np.int64)))
        res = raw % np.uint64(hi - lo) + np.uint64(lo & 0xFFFFFFFFFFFFFFFF)
        return res.view(np.int64).reshape(size).astype(attrs["dtype"])
    return rc.xp.asarray(rc.rng.integers(lo, hi, size=_size(attrs))).astype(attrs["dtype"])


# _npi_uniform / _npi_normal (array-valued parameters too) live in np_random.py
register("_npi_random_randint", _randint, inputs=(), nd_hidden=True, needs_rng=True,
         params=(Param("low", "int"), Param("high", "int", None), Param("size", "shape", None),
                 Param("ctx", "str", ""), Param("dtype", "dtype", "int64")))


def _choice(rc, attrs, *p):
    a, replace = attrs["a"], attrs["replace"]
    if a is None:   # the population is an array input (its length is what counts)
        a, p = int(p[0].shape[0]) if p[0].ndim else 0, p[1:]
    size = _size(attrs)
    n = int(np.prod(size)) if size else 1
    if a <= 0:
        raise MXNetError(f"choice: a must be positive, got {a}")
    if not replace and n > a:
        raise MXNetError(f"choice: cannot take a larger sample ({n}) than population ({a}) "
                         "when replace=False")
    prob = None
    if p:
        prob = np.asarray(p[0].get() if hasattr(p[0], "get") else p[0], dtype=np.float64)
        if prob.ndim != 1 or prob.size == 0:
            raise MXNetError(f"choice: p must be a non-empty 1-D array, got shape {prob.shape}")
        if not replace and prob.shape != (a,):
            raise MXNetError(f"choice: p must have shape ({a},), got {prob.shape}")
    serial = getattr(rc.rng, "serial", None)
    if serial is not None:      # 1.9.1's CPU draws (backend/mt_dists.py)
        from ..backend.mt_dists import np_choice  # noqa: PLC0415
        with np.errstate(all="ignore"):
            out = np_choice(serial, a, n, prob, replace)
        return out.reshape(tuple(size) if size else ())
    if p:
        if replace:
            # inverse CDF over the cumulative weights, unnormalised as in 1.9.1, so float32
            # weights that sum to 1 within rounding are accepted; a draw past the last
            # cumulative weight takes the last index
            u = np.asarray(rc.rng.random(size if size else None))
            out = np.searchsorted(np.cumsum(prob), u, side="right")
            return rc.xp.asarray(np.minimum(out, prob.size - 1), dtype=np.int64)
        if prob.shape != (a,):
            raise MXNetError(f"choice: p must have shape ({a},), got {prob.shape}")
        prob = prob / prob.sum()
    out = rc.rng.choice(a, size=size, replace=replace, p=prob)
    return rc.xp.asarray(out, dtype=np.int64)


register("_npi_choice", _choice, nd_hidden=True, needs_rng=True,
         inputs=lambda attrs: (("input1",) if attrs["a"] is None else ()) + (
             ("p",) if attrs["weighted"] else ()),
         params=(Param("a", "int", None), Param("size", "shape", None), Param("replace", "bool", True),
                 Param("weighted", "bool", False), Param("ctx", "str", "")))


# ---------------------------------------------------------------------------------------------
# indexing: NumPy's basic, integer-array and boolean-mask reads; 0-d results stay 0-d

def _getitem(rc, attrs, x):
    key = attrs["key"]
    try:
        out = x[key]
    except IndexError as e:
        raise IndexError(f"ndarray indexing: {e} (array shape {x.shape})") from None
    return rc.xp.array(out, copy=True)


register("_np_getitem", _getitem, params=(Param("key", "any", None),), nd_hidden=True,
         gradient=lambda F, a, ins, outs, og: [F._index_backward(og[0], ins[0], key=a["key"])])


def _multinomial(rc, attrs):
    pvals = np.asarray(attrs["pvals"], dtype=np.float64)
    if pvals.ndim != 1 or pvals.size == 0:
        raise MXNetError(f"multinomial: pvals must be a non-empty 1-d sequence, got {pvals.shape}")
    if pvals[:-1].sum() > 1.0 + 1e-12 or (pvals < 0).any():
        raise MXNetError(f"multinomial: pvals must be probabilities summing to at most 1, got "
                         f"{pvals.tolist()}")
    size = _size(attrs)
    serial = getattr(rc.rng, "serial", None)
    if serial is not None:      # 1.9.1's CPU draws (backend/mt_dists.py)
        from ..backend.mt_dists import np_multinomial  # noqa: PLC0415
        res = np_multinomial(serial, attrs["n"], pvals, size=tuple(size) or None)
        if int(np.prod(size, dtype=np.int64)):  # 1.9.1 then draws a double per category
            serial.take(0, 2 * pvals.size)
        return res
    out = rc.rng.multinomial(attrs["n"], pvals, size=size)
    return rc.xp.asarray(out, dtype=np.int64)


register("_npi_multinomial", _multinomial, inputs=(), nd_hidden=True, needs_rng=True,
         params=(Param("n", "int"), Param("pvals", "tuple_float"), Param("size", "shape", None),
                 Param("ctx", "str", "")))


# ---------------------------------------------------------------------------------------------
# logical reductions and tests, rounding, flip, sorting (no gradient flows through the first
# three groups; sort and flip have one)

def _logical_reduce(fn, name):
    def compute(rc, attrs, x):
        axes = _axes(name, attrs["axis"], x.ndim)
        out = fn(x, axis=axes, keepdims=attrs["keepdims"])
        return rc.xp.asarray(out, dtype=np.bool_)
    register(name, compute, inputs=("data",), nd_hidden=True, gradient=_zero_grad,
             params=(Param("axis", "shape", None), Param("keepdims", "bool", False)))


_logical_reduce(np.any, "_np_any")
_logical_reduce(np.all, "_np_all")

for _name, _fn in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite),
                   ("logical_not", np.logical_not)):
    register(f"_npi_{_name}", (lambda f: (lambda rc, attrs, x: rc.xp.asarray(
        getattr(rc.xp, f.__name__)(x))))(_fn), nd_hidden=True, gradient=_zero_grad)

LOGICAL = ("_np_any", "_np_all", "_npi_isnan", "_npi_isinf", "_npi_isfinite", "_npi_logical_not")


def _around(rc, attrs, x):
    """1.9.1 scales by 10 one step at a time in the array's dtype (``decimals`` steps of
    ``* 10``, or of ``/ 10`` when negative), rounds half to even, then undoes the scaling the
    same way, each step rounded to the dtype: float32 ``round(0.81, 2)`` gives 0.81000006,
    not NumPy's 0.81. Integers with negative ``decimals`` truncate towards zero (``-17`` to
    ``-10`` at ``decimals=-1``); other integers come back unchanged."""
    xp, d = rc.xp, attrs["decimals"]
    if x.dtype.kind in "iub":
        if d >= 0:
            return x.copy()
        p = 10 ** -d
        wide = x.astype(np.uint64 if x.dtype.kind == "u" else np.int64)
        q = xp.abs(wide) // p if x.dtype.kind != "u" else wide // p
        if x.dtype.kind != "u":
            q = xp.where(wide < 0, -q, q)
        return (q * p).astype(x.dtype)
    ten = x.dtype.type(10)
    scaled = x
    for _ in range(abs(d)):
        scaled = scaled * ten if d > 0 else scaled / ten
    # a tie goes to the even neighbour by adding one to the floor, so a scaled value of
    # exactly -0.5 rounds to +0 (NumPy's rint gives -0)
    out = xp.where(scaled == -0.5, x.dtype.type(0), xp.rint(scaled))
    for _ in range(abs(d)):
        out = out / ten if d > 0 else out * ten
    return xp.asarray(out, dtype=x.dtype)


register("_npi_around", _around, nd_hidden=True, params=(Param("decimals", "int", 0),),
         gradient=_zero_grad)


def _flip(rc, attrs, x):
    axis = attrs["axis"]
    if axis is not None:
        axis = tuple(normalize_axis("flip", a, x.ndim) for a in axis)
    return rc.xp.flip(x, axis).copy()


register("_npi_flip", _flip, nd_hidden=True, params=(Param("axis", "shape", None),),
         gradient=lambda F, a, ins, outs, og: [F._npi_flip(og[0], **a)])


def _sort_axis(name, x, axis):
    if axis is None:
        return x.reshape(-1), 0
    return x, normalize_axis(name, axis, x.ndim)


def _argsort(rc, attrs, x):
    from .sort import _select   # ties in 1.9.1's CPU order, as the legacy argsort
    src, ax = _sort_axis("argsort", x, attrs["axis"])
    return rc.xp.asarray(_select(rc.xp, src, ax, src.shape[ax], True)[1], dtype=np.int64)


register("_npi_argsort", _argsort, nd_hidden=True, gradient=_zero_grad,
         params=(Param("axis", "int", -1, optional=True),))


def _sort(rc, attrs, x):
    src, ax = _sort_axis("sort", x, attrs["axis"])
    return rc.xp.sort(src, axis=ax, kind="stable")


def _sort_grad(F, attrs, ins, outs, og):
    # scatter the output gradient back through the sorting permutation
    x = ins[0]
    order = F._npi_argsort(x, axis=attrs["axis"])
    inv = F._npi_argsort(order, axis=attrs["axis"] if attrs["axis"] is not None else 0)
    g = og[0]
    if attrs["axis"] is None:
        return [F._np_reshape(F._np_take_along(g, inv, axis=0), newshape=tuple(x.shape))]
    return [F._np_take_along(g, inv, axis=attrs["axis"])]


register("_npi_sort", _sort, nd_hidden=True, gradient=_sort_grad,
         params=(Param("axis", "int", -1, optional=True),))


def _take_along(rc, attrs, x, idx):
    return rc.xp.take_along_axis(x, idx.astype(np.int64), axis=attrs["axis"])


def _take_along_grad(F, attrs, ins, outs, og):
    x, idx = ins
    inv = F._npi_argsort(idx, axis=attrs["axis"])
    return [F._np_take_along(og[0], inv, axis=attrs["axis"]), None]


register("_np_take_along", _take_along, inputs=("data", "indices"), nd_hidden=True,
         params=(Param("axis", "int"),), gradient=_take_along_grad,
         doc="take_along_axis where ``indices`` is a permutation along ``axis``.")


from . import np_ops_extra  # noqa: E402,F401  (1.9.1's graph names and further mx.np operators)
from . import np_random  # noqa: E402,F401  (the samplers, array-valued parameters too)
from . import np_sym_extra  # noqa: E402,F401  (operators behind further mx.sym.np functions)
