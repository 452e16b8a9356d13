"""``MXNET_SAFE_ACCUMULATION`` and 1.9.1's float16 arithmetic on the CPU.

1.9.1 warns once per process (per operator family) when a float16 softmax, L2 norm or
LayerNorm runs without the variable. The float16 kernels here reproduce 1.9.1's results bit
for bit: the variable is read at each call and picks the accumulation type where 1.9.1 lets
it (softmax and its gradient, nd.norm, np.linalg.norm, LayerNorm off the last axis).
The reductions themselves (sum, mean, prod, ...) live in reduce.py."""
from __future__ import annotations

import os

import numpy as np

from ..base import native_log

_warned: set = set()
# rows longer than this are summed in float32 rather than by 1.9.1's float16 steps, which
# NumPy can only emulate with one pass per element (reduce.py's F16_EXACT_MAX)
_F16_EXACT_MAX = 4096
_SRC = {"softmax": "../src/operator/nn/./../../common/utils.h:472",
        "LpNorm": "../src/operator/tensor/./.././../common/utils.h:472",
        "LayerNorm": "../src/operator/nn/../../common/utils.h:472",
        # np.linalg.norm along given axes (its flattened norm logs nothing)
        "npLpNorm": "../src/operator/numpy/linalg/./../../tensor/../../common/utils.h:472"}


def warn_float16(family, dtype, site=None):
    """Log 1.9.1's recommendation for ``family`` ('softmax', 'LpNorm' or 'LayerNorm') on
    float16 input, once per ``site`` (a key of _SRC; ``family`` by default)."""
    site = site or family
    if dtype != np.float16 or site in _warned:
        return
    if safe_acc_on():
        return
    _warned.add(site)
    what = ("float16 inputs for LayerNorm" if family == "LayerNorm"
            else f"{family} with float16 inputs")
    native_log(_SRC[site], f"MXNET_SAFE_ACCUMULATION=1 is recommended for {what}. "
               "See https://mxnet.apache.org/api/faq/env_var for more details.")


def safe_acc_on():
    """Whether ``MXNET_SAFE_ACCUMULATION=1`` is set (read at each call, as 1.9.1 does)."""
    return os.environ.get("MXNET_SAFE_ACCUMULATION", "0").strip() == "1"


def softmax_f16(x, axis, temperature, kind, out_dtype, mask=None):
    """1.9.1's CPU softmax / log_softmax / softmin of a float16 array along ``axis``.

    The shifted input (and its division by the temperature) is rounded to float16; each
    exponential is a float32 value added, in order along the axis, to a running total kept
    in float16 (float32 with MXNET_SAFE_ACCUMULATION=1); the results are float32 divisions
    (or log differences) rounded to float16, except softmax under safe accumulation, whose
    float32 quotient goes straight to the output dtype. ``mask`` (boolean, like ``x``)
    keeps each row's leading ``length`` positions; the others are left out and give 0.
    """
    f32 = np.float32
    acc = f32 if safe_acc_on() else np.float16
    v = np.moveaxis(np.asarray(x), axis, -1)
    keep = None if mask is None else np.moveaxis(mask, axis, -1)
    with np.errstate(all="ignore"):
        if kind == "softmin":
            v = -v
        top = v.max(axis=-1, keepdims=True) if keep is None else \
            np.where(keep, v, -np.inf).max(axis=-1, keepdims=True)
        d = v - top.astype(np.float16)
        if temperature is not None and temperature != 1.0:
            d = d / np.float16(temperature)
        # float32 exp/log correctly rounded (as the C library's expf/logf give them)
        e = np.exp(d.astype(np.float64)).astype(f32)
        if keep is not None:
            e = np.where(keep, e, f32(0))
        if acc is f32 or v.shape[-1] > _F16_EXACT_MAX:   # cumsum adds left to right
            s = np.cumsum(e, axis=-1)[..., -1:]
        else:
            s = np.zeros(v.shape[:-1], acc)
            for k in range(v.shape[-1]):
                s = (s.astype(f32) + e[..., k]).astype(acc)
            s = s[..., None].astype(f32)
        if kind == "log_softmax":
            out = (d.astype(f32) - np.log(s.astype(np.float64)).astype(f32)).astype(np.float16)
        else:
            out = e / s
            if acc is np.float16 or np.dtype(out_dtype) == np.float16:
                out = out.astype(np.float16)
        out = out.astype(out_dtype)
        if keep is not None:
            out = np.where(keep, out, out.dtype.type(0))
    return np.moveaxis(out, -1, axis)


def layer_norm_f16(x3, gamma, beta, eps, last):
    """1.9.1's CPU LayerNorm of float16 ``x3`` (shape (p, c, q), normalised over c) with
    float16 gamma/beta; returns (out, mean, std), mean and std shaped (p, q).

    The last axis (``last``) has its own kernel: a float32 running sum for the mean, float16
    deviations squared and summed in float32, the variance plus eps rounded to float16.
    Other axes use compensated reductions carried in float32, or in float16 when
    MXNET_SAFE_ACCUMULATION=1 (so in 1.9.1), then float16 arithmetic throughout."""
    from .reduce import _f16_sum
    h, f32 = np.float16, np.float32
    c = x3.shape[1]
    with np.errstate(all="ignore"):
        if last:
            m = x3[:, :, 0].astype(f32)
            # cumsum adds left to right in float32, as the C loops do
            mean = np.cumsum(m, axis=1)[:, -1] / f32(c)
            off = (m - mean[:, None]).astype(h)
            o = off.astype(f32)
            sq = np.cumsum(o * o, axis=1)[:, -1]
            sig = np.sqrt((sq / f32(c) + f32(h(eps))).astype(h).astype(f32))
            prod = (off * gamma[None, :]).astype(f32)
            out = (prod / sig[:, None]).astype(h) + beta[None, :]
            return out[:, :, None], mean.astype(h)[:, None], sig.astype(h)[:, None]
        warn_float16("LayerNorm", h)
        acc = h if safe_acc_on() else f32
        mean = _f16_sum(x3, (1,), True, acc=acc).astype(h) / h(c)
        d = x3 - mean
        var = _f16_sum(d * d, (1,), True, acc=acc).astype(h) / h(c)
        std = np.sqrt(var + h(eps))
        out = (d / std) * gamma[None, :, None] + beta[None, :, None]
        return out, mean[:, 0, :], std[:, 0, :]


def softmax_grad_f16(og, y, axis, temperature, kind):
    """1.9.1's CPU input gradient of softmax / log_softmax / softmin from float16 ``og`` and
    output ``y``: the row sum of og*y (og alone for log_softmax) is kept in float16 (float32
    with MXNET_SAFE_ACCUMULATION=1), each result is rounded to float16 and then divided by
    the float16 temperature; safe log_softmax rounds only after that division."""
    f32, h = np.float32, np.float16
    safe = safe_acc_on()
    acc = f32 if safe else h
    g = np.moveaxis(np.asarray(og), axis, -1)
    yv = np.moveaxis(np.asarray(y), axis, -1)
    t = None if temperature is None or temperature == 1.0 else f32(h(temperature))
    with np.errstate(all="ignore"):
        terms = g if kind == "log_softmax" else g * yv
        if g.shape[-1] > _F16_EXACT_MAX:   # long rows: a float32 sum, not the step loop
            s = np.cumsum(terms.astype(f32), axis=-1)[..., -1:]
        else:
            s = np.zeros(g.shape[:-1], acc)
            for k in range(g.shape[-1]):
                s = (s.astype(f32) + terms[..., k].astype(f32)).astype(acc)
            s = s[..., None].astype(f32)
        if kind == "log_softmax":
            ey = np.exp(yv.astype(np.float64)).astype(f32)
            if safe:
                dx = g.astype(f32) - ey * s
                dx = (dx if t is None else dx / t).astype(h)
                return np.moveaxis(dx, -1, axis)
            dx = (g.astype(f32) - (ey * s).astype(h).astype(f32)).astype(h)
        else:
            dx = (yv.astype(f32) * (g.astype(f32) - s).astype(h).astype(f32)).astype(h)
            if kind == "softmin":
                dx = -dx
        if t is not None:
            dx = (dx.astype(f32) / t).astype(h)
    return np.moveaxis(dx, -1, axis)


def plain_softmax_f16(x, axis):
    """The float16 softmax of 1.9.1's older kernels (SoftmaxOutput, softmax_cross_entropy):
    each exponential rounded to float16, a float16 running sum along ``axis`` and float16
    quotients."""
    v = np.moveaxis(np.asarray(x), axis, -1)
    with np.errstate(all="ignore"):
        d = (v - v.max(axis=-1, keepdims=True)).astype(np.float64)
        e = np.exp(d).astype(np.float32).astype(np.float16)
        # float16 accumulate adds left to right, rounding each step
        tot = np.add.accumulate(e, axis=-1)[..., -1:]
        out = e / tot
    return np.moveaxis(out, -1, axis)
