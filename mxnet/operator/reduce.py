"""Reductions: sum, mean, prod, max, min, nansum, nanprod, norm, argmax, argmin, argmax_channel.

Output dtypes follow 1.9.1: every reduction keeps the input dtype, including the
indices returned by argmax/argmin. A reduction over every axis gives shape (1,) unless keepdims.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, dtype_np
from ._common import norm_axes, normalize_axis
from ._safe_acc import warn_float16
from .registry import Param, register

_AXIS_PARAMS = (Param("axis", "shape", None), Param("keepdims", "bool", False),
                Param("exclude", "bool", False))


def _finish(out, xp, dtype):
    if out.ndim == 0:
        out = out.reshape(1)
    return out if out.dtype == dtype else out.astype(dtype)


def _out_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    res = tuple(s for i, s in enumerate(shape) if i not in axes)
    return res or (1,)


def _reduce_shape(attrs, ins, outs):
    s = ins[0]
    if s is None:
        return ins, outs, []
    axes = norm_axes("reduce", attrs["axis"], len(s), attrs["exclude"])
    return ins, [_out_shape(s, axes, attrs["keepdims"])], []


def _bcast_back(F, attrs, g, x):
    """Reshape a reduced gradient so it broadcasts against ``x``."""
    axes = norm_axes("reduce", attrs["axis"], len(x.shape), attrs["exclude"])
    kept = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    return F.reshape(g, shape=kept)


def _reduce_shape_when_known(attrs, ins, outs):
    """max and min: 1.9.1 leaves the output unknown until the input shape is complete."""
    if ins[0] is not None and None in ins[0]:
        return ins, outs, []
    return _reduce_shape(attrs, ins, outs)


def _make_reduce(name, kernel, grad_rule, aliases=(), infer_shape=_reduce_shape):
    def compute(rc, attrs, x):
        if attrs["axis"] is None and not attrs["exclude"]:
            axes = None  # whole-array reduction: NumPy's fastest path
        else:
            axes = norm_axes(name, attrs["axis"], x.ndim, attrs["exclude"])
        out = kernel(rc.xp, x, axes, attrs["keepdims"])
        return _finish(out, rc.xp, x.dtype)

    def grad(F, attrs, ins, outs, og):
        x, y = ins[0], outs[0]
        g = _bcast_back(F, attrs, og[0], x)
        yb = _bcast_back(F, attrs, y, x)
        return [grad_rule(F, attrs, x, yb, g)]

    register(name, compute, params=_AXIS_PARAMS, gradient=grad, infer_shape=infer_shape,
             aliases=aliases)


def _count(x, axes):
    if axes is None:
        return x.size
    n = 1
    for a in axes:
        n *= x.shape[a]
    return n


def _mean_kernel(xp, x, axes, keepdims):
    if x.dtype.kind in "iu":
        # 1.9.1 sums in the input dtype (wrapping), casts the count to that dtype too, and
        # divides with C's integer division (rounding toward zero)
        total = xp.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
        n = np.array(_count(x, axes)).astype(x.dtype)
        if n == 0:
            raise MXNetError(f"mean: the element count {_count(x, axes)} is 0 in dtype "
                             f"{x.dtype}; cannot divide by zero")
        q = total // n
        return q + ((total % n != 0) & ((total < 0) != (n < 0))).astype(x.dtype)
    if x.dtype == np.float16:  # 1.9.1: float32 sum rounded to float16, then divided in float16
        with np.errstate(over="ignore"):
            total = xp.sum(x, axis=axes, keepdims=keepdims, dtype=np.float32).astype(np.float16)
        return total / np.float16(max(_count(x, axes), 1))
    return xp.mean(x, axis=axes, keepdims=keepdims)


_make_reduce("sum", lambda xp, x, a, k: x.sum(axis=a, keepdims=k),
             lambda F, at, x, y, g: F.broadcast_like(g, x), aliases=("sum_axis",))
# 1.9.1's sum of squares (the sparse-aware reduction its optimizers and norm use)
_make_reduce("_square_sum", lambda xp, x, a, k: (x * x).sum(axis=a, keepdims=k),
             lambda F, at, x, y, g: F.broadcast_like(g, x) * x * 2)
_make_reduce("mean", _mean_kernel,
             lambda F, at, x, y, g: F.broadcast_like(g, x) * (y.size / x.size))
_make_reduce("prod", lambda xp, x, a, k: x.prod(axis=a, keepdims=k),
             lambda F, at, x, y, g: F.broadcast_like(g * y, x) / x)
_make_reduce("nansum", lambda xp, x, a, k: xp.nansum(x, axis=a, keepdims=k),
             lambda F, at, x, y, g: F.broadcast_like(g, x) * (x == x))
_make_reduce("nanprod", lambda xp, x, a, k: xp.nanprod(x, axis=a, keepdims=k),
             lambda F, at, x, y, g: (F.broadcast_like(g * y, x)
                                     / F.where(x == x, x, F.ones_like(x)) * (x == x)))


def _minmax_grad(F, at, x, y, g):
    mask = F.broadcast_equal(x, F.broadcast_like(y, x))
    return F.broadcast_like(g, x) * mask


def _safe_extreme(fn):
    def k(xp, x, a, keep):
        if x.size == 0:
            raise MXNetError("max/min: cannot reduce an empty array")
        return fn(x, axis=a, keepdims=keep)
    return k


_make_reduce("max", _safe_extreme(np.max), _minmax_grad, aliases=("max_axis",),
             infer_shape=_reduce_shape_when_known)
_make_reduce("min", _safe_extreme(np.min), _minmax_grad, aliases=("min_axis",),
             infer_shape=_reduce_shape_when_known)


# --- norm -----------------------------------------------------------------------------------

def _int_l2(xp, x, axes, keep):
    """1.9.1's scaled L2 norm evaluated in integer arithmetic: ratios |x|/max|x| truncate to
    0 or 1, so the result is trunc(max|x| * sqrt(count of elements equal to max|x|))."""
    a = xp.abs(x)
    scale = xp.max(a, axis=axes, keepdims=True) if a.size else xp.zeros((1,) * a.ndim, a.dtype)
    cnt = xp.sum((a == scale) & (scale != 0), axis=axes, keepdims=True)
    out = xp.trunc(scale.astype(np.float64) * xp.sqrt(cnt.astype(np.float64))).astype(x.dtype)
    if keep:
        return out
    return out.reshape(_out_shape(x.shape, tuple(range(x.ndim)) if axes is None else axes, False))


def _norm(rc, attrs, x):
    xp = rc.xp
    ord_ = attrs["ord"]
    axes = norm_axes("norm", attrs["axis"], x.ndim)
    keep = attrs["keepdims"]
    want = attrs["out_dtype"]
    if want is not None and np.dtype(want) != x.dtype:
        # 1.9.1 accepts out_dtype but its kernel fails unless it equals the input dtype
        raise MXNetError(f"norm: out_dtype={want} differs from the input dtype {x.dtype}; "
                         "1.9.1 only supports an out_dtype equal to the input dtype")
    if ord_ == 1:
        out = xp.sum(xp.abs(x), axis=axes, keepdims=keep)
    elif ord_ == 2 and x.dtype.kind in "iu":
        out = _int_l2(xp, x, axes, keep)
    elif ord_ == 2:
        warn_float16("LpNorm", x.dtype)
        out = xp.sqrt(xp.sum(xp.square(x.astype(np.float32) if x.dtype == np.float16 else x),
                             axis=axes, keepdims=keep))
    else:
        raise MXNetError(f"norm: ord must be 1 or 2, got {ord_}")
    return _finish(out, xp, x.dtype)


def _norm_grad(F, attrs, ins, outs, og):
    x, y = ins[0], outs[0]
    at = {"axis": attrs["axis"], "exclude": False}
    g = _bcast_back(F, at, og[0], x)
    yb = _bcast_back(F, at, y, x)
    if attrs["ord"] == 1:
        return [F.broadcast_like(g, x) * F.sign(x)]
    return [F.broadcast_like(g / yb, x) * x]


def _norm_type(attrs, in_types, out_types):
    """1.9.1 types the output as out_dtype when given (the kernel itself needs it to equal
    the input's dtype), else as the input."""
    t = in_types[0]
    if attrs.get("out_dtype") not in (None, "None"):
        return [t], [dtype_np(attrs["out_dtype"])], []
    t = t if t is not None else out_types[0]
    return [t], [t], []


register("norm", _norm, params=(Param("ord", "int", 2), Param("axis", "shape", None),
                                 Param("out_dtype", "dtype", None,
                                       choices=(None, "float16", "float32", "float64", "int32",
                                                "int64", "int8")),
                                 Param("keepdims", "bool", False)),
         gradient=_norm_grad, infer_type=_norm_type)


# --- argmax / argmin --------------------------------------------------------------------------

def _arg(fn, name):
    def compute(rc, attrs, x):
        xp = rc.xp
        axis = attrs["axis"]
        if axis is None:
            out = fn(x.reshape(-1))
            out = xp.asarray(out).reshape((1,) * x.ndim if attrs["keepdims"] else 1)
        else:
            axis = normalize_axis(name, axis, x.ndim)
            out = fn(x, axis=axis)
            if attrs["keepdims"]:
                out = xp.expand_dims(out, axis)
        return _finish(out, xp, x.dtype)
    return compute


for _name, _fn in (("argmax", np.argmax), ("argmin", np.argmin)):
    register(_name, _arg(_fn, _name), params=(Param("axis", "int", None), Param("keepdims", "bool", False)),
             gradient=lambda F, a, ins, outs, og: [F.zeros_like(ins[0])])


def _argmax_channel(rc, attrs, x):
    if x.ndim < 2:
        raise MXNetError(f"argmax_channel: input must have at least 2 dims (the channel axis "
                         f"is 1), got shape {x.shape}")
    return _finish(rc.xp.argmax(x, axis=1), rc.xp, x.dtype)


register("argmax_channel", _argmax_channel, gradient=lambda F, a, ins, outs, og: [F.zeros_like(ins[0])])
