"""Operators with no inputs that create arrays: zeros, ones, full, arange, eye, linspace."""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, dtype_np
from ..util import is_np_shape
from .registry import Param, register

_CTX_DTYPE = (Param("ctx", "str", ""), Param("dtype", "dtype", "float32"))


def _shape_of(attrs):
    return tuple(attrs["shape"])


def _into(out, value):
    """The planned output buffer in ``out`` filled with ``value``; None without one. Such
    a buffer has the shape inference gave the entry, which a legacy ``shape`` with 0
    dimensions leaves open."""
    buf = out[0] if out else None
    if buf is not None:
        buf[...] = value
    return buf


def _zeros(rc, attrs, out=None):
    buf = _into(out, 0)
    if buf is not None:
        return buf
    return rc.xp.zeros(_shape_of(attrs), dtype=dtype_np(attrs["dtype"]))


def _ones(rc, attrs, out=None):
    buf = _into(out, 1)
    if buf is not None:
        return buf
    return rc.xp.ones(_shape_of(attrs), dtype=dtype_np(attrs["dtype"]))


def _full(rc, attrs, out=None):
    buf = _into(out, attrs["value"])
    if buf is not None:
        return buf
    # 1e5 in float16 is inf, nan in an integer dtype INT_MIN: silent, as 1.9.1
    with np.errstate(over="ignore", invalid="ignore"):
        return rc.xp.full(_shape_of(attrs), attrs["value"], dtype=dtype_np(attrs["dtype"]))


def _const_shape(attrs, ins, outs):
    shape = tuple(attrs["shape"])
    if not is_np_shape():  # legacy shapes: a 0 dimension is left for inference to fill in
        shape = tuple(None if d == 0 else d for d in shape)
    return ins, [shape], []


register("_zeros", _zeros, inputs=(), params=(Param("shape", "shape", ()),) + _CTX_DTYPE,
         infer_shape=_const_shape, accepts_out=True)
register("_ones", _ones, inputs=(), params=(Param("shape", "shape", ()),) + _CTX_DTYPE,
         infer_shape=_const_shape, accepts_out=True)
register("_full", _full, inputs=(), params=(Param("shape", "shape", ()),) + _CTX_DTYPE + (
    Param("value", "float"),), infer_shape=_const_shape, accepts_out=True)


def _no_bool_range(opname, dtype):
    """1.9.1's arange, linspace and eye have no boolean output ("Invalid Input: 'bool'")."""
    if np.dtype(dtype) == np.bool_:
        raise MXNetError(f"{opname}: dtype bool is not supported; expected one of bfloat16, "
                         f"float16, float32, float64, int32, int64, int8, uint8")


def arange_values(start, stop, step, repeat, dtype, xp=np):
    """MXNet's arange: ``stop=None`` means [0, start); each value repeated ``repeat`` times."""
    if stop is None:
        start, stop = 0.0, start
    if step == 0:
        raise MXNetError("arange: step must not be 0")
    n = int(np.ceil((stop - start) / step))
    if n < 0:
        n = 0
    dtype = np.dtype(dtype)
    _no_bool_range("arange", dtype)
    if dtype.kind in "iub":  # 1.9.1 casts start and step to the integer dtype first
        start, step = float(np.array(start).astype(dtype)), float(np.array(step).astype(dtype))
    elif dtype == np.float16:   # and truncates them to integers for float16 (a 1.9.1 quirk:
        start, step = float(np.trunc(start)), float(np.trunc(step))   # arange(0, 2, 0.5) is 0s)
    if dtype == np.float32:   # 1.9.1 forms start + i * step in float32 arithmetic
        f32 = np.float32
        vals = f32(start) + xp.arange(n, dtype=f32) * f32(step)
    else:
        vals = start + step * xp.arange(n, dtype=np.float64)
    if repeat > 1:
        vals = xp.repeat(vals, repeat)
    return vals.astype(dtype)


def _arange(rc, attrs):
    start, stop, step = attrs["start"], attrs["stop"], attrs["step"]
    if stop is None:
        start, stop = 0.0, start
    if step != 0 and (start >= stop if step > 0 else start <= stop):  # as 1.9.1 checks it
        gap = " " if step > 0 else ""
        raise MXNetError(f"Invalid range (start, stop, step){gap}= "
                         f"({start:g},{stop:g},{step:g})")
    return arange_values(attrs["start"], attrs["stop"], attrs["step"], attrs["repeat"],
                         dtype_np(attrs["dtype"]), rc.xp)


register("_arange", _arange, inputs=(), params=(
    Param("start", "float"), Param("stop", "float", None), Param("step", "float", 1.0),
    Param("repeat", "int", 1), Param("infer_range", "bool", False)) + _CTX_DTYPE)


def _eye(rc, attrs):
    _no_bool_range("eye", dtype_np(attrs["dtype"]))
    n = attrs["N"]
    m = attrs["M"] or n
    return rc.xp.eye(n, m, k=attrs["k"], dtype=dtype_np(attrs["dtype"]))


register("_eye", _eye, inputs=(), params=(
    Param("N", "int"), Param("M", "int", 0), Param("k", "int", 0)) + _CTX_DTYPE)


def _linspace(rc, attrs):
    _no_bool_range("linspace", dtype_np(attrs["dtype"]))
    return rc.xp.linspace(attrs["start"], attrs["stop"], attrs["num"], endpoint=attrs["endpoint"],
                          dtype=np.float64).astype(dtype_np(attrs["dtype"]))


register("_linspace", _linspace, inputs=(), params=(
    Param("start", "float"), Param("stop", "float"), Param("num", "int"),
    Param("endpoint", "bool", True)) + _CTX_DTYPE)


def _full_like(rc, attrs, x):
    return rc.xp.full(x.shape, attrs["fill_value"], dtype=x.dtype)


register("full_like", _full_like, params=(Param("fill_value", "float"),),
         gradient=lambda F, a, ins, outs, og: [F.zeros_like(ins[0])])
