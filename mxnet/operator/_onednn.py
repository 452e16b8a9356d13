"""float32 arithmetic of the oneDNN (MKLDNN) kernels 1.9.1's CPU build uses, emulated bit for bit.

1.9.1 hands a few float32 operators to oneDNN's JIT kernels (softmax and log_softmax over the
last axis, for one). Those do not call glibc: ``exp`` is a degree-5 polynomial on the reduced
argument, and a reduction along the axis is kept in 16 SIMD lanes (AVX-512), folded into one
at the end by halving. Matching that order and that polynomial gives 1.9.1's bits; NumPy's own
exp and pairwise sum differ in the last bit on about half the elements.
"""
from __future__ import annotations

import numpy as np

_LANES = 16   # float32 lanes of an AVX-512 register

# The emulation costs ~30 passes over the data (float64 steps for each fused multiply-add),
# 6-10x NumPy's float32 exp: the operators using it take NumPy's faster path on arrays larger
# than this (not bit-exact there).
EMULATE_MAX = 1 << 18


def _f32_bits(h):
    return np.array([h], np.uint32).view(np.float32)[0]


# the polynomial's coefficients for r**1 .. r**5 (the constant term is 1), the clamp bounds
# (logf of FLT_MAX and of FLT_MIN), and log2(e), ln(2), each as its float32 bit pattern
_EXP_POLY = tuple(_f32_bits(h) for h in (0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d,
                                          0x3c07cfce))
_LN_FLT_MAX = _f32_bits(0x42b17218)
_LN_FLT_MIN = _f32_bits(0xc2aeac50)
_LOG2E = _f32_bits(0x3fb8aa3b)
_LN2 = _f32_bits(0x3f317218)


def dnn_exp(xp, x):
    """oneDNN's float32 exp of float32 ``x``: e**x = 2 * 2**(n-1) * p(r) with n the nearest
    integer to x*log2(e), r = x - n*ln2 (fused), p the polynomial; below logf(FLT_MIN) gives 0.
    Each fused multiply-add is formed in float64 (the float32 product is exact there) and
    rounded once to float32."""
    if xp is not np:   # other backends: the same steps on freshly made arrays
        return _dnn_exp_generic(xp, x)
    v = np.clip(x, _LN_FLT_MIN, _LN_FLT_MAX)
    fx = np.multiply(v, _LOG2E)
    fx += np.float32(0.5)
    np.floor(fx, out=fx)
    t = np.multiply(fx, -_LN2, dtype=np.float64)
    t += v
    r = t.astype(np.float32)
    # 2**(n-1) built from its exponent bits (n - 1 = -127 gives 0, as the kernel's shift)
    scale = fx.astype(np.int32)
    scale += 126
    scale <<= 23
    y = np.empty(x.shape, np.float32)
    np.multiply(r, _EXP_POLY[4], out=t, dtype=np.float64)
    for c in (*_EXP_POLY[3::-1], np.float32(1)):
        if c is not _EXP_POLY[3]:
            np.multiply(y, r, out=t, dtype=np.float64)
        t += c
        np.copyto(y, t, casting="unsafe")
    y *= scale.view(np.float32)
    y *= np.float32(2)
    under = x < _LN_FLT_MIN
    if under.any():
        y[under] = 0
    return y


def _dnn_exp_generic(xp, x):
    with np.errstate(invalid="ignore", over="ignore"):
        under = x < _LN_FLT_MIN
        v = xp.clip(x, _LN_FLT_MIN, _LN_FLT_MAX)
        fx = xp.floor(v * _LOG2E + np.float32(0.5))
        r = (v.astype(np.float64) - fx.astype(np.float64) * _LN2).astype(np.float32)
        scale = ((fx.astype(np.int32) + 126) << 23).view(np.float32)
        y = xp.full(x.shape, _EXP_POLY[4], np.float32)
        for c in (*_EXP_POLY[3::-1], np.float32(1)):
            y = (y.astype(np.float64) * r + c).astype(np.float32)
        y = y * scale * np.float32(2)
        y[under] = 0
    return y


def lane_sum(xp, x):
    """Sum of float32 ``x`` along its last axis as oneDNN's kernels form it: element j goes to
    lane j % 16 (each lane adds in order), then the lanes fold in halves (16 -> 8 -> 4 -> 2 -> 1).
    Keeps the axis (length 1)."""
    n = x.shape[-1]
    k, tail = divmod(n, _LANES)
    if k:
        # a reduction over a non-innermost axis adds in order (no pairwise blocking)
        acc = x[..., :k * _LANES].reshape(x.shape[:-1] + (k, _LANES)).sum(axis=-2)
    else:
        acc = xp.zeros(x.shape[:-1] + (_LANES,), np.float32)
    if tail:
        acc[..., :tail] += x[..., k * _LANES:]
    w = _LANES
    while w > 1:
        w //= 2
        acc = acc[..., :w] + acc[..., w:2 * w]
    return acc


def dnn_softmax(xp, x):
    """oneDNN's float32 softmax along the last axis: exp(x - max) times the reciprocal of the
    lane-ordered sum."""
    m = xp.max(x, axis=-1, keepdims=True)
    e = dnn_exp(xp, x - m)
    e *= np.float32(1) / lane_sum(xp, e)
    return e


def dnn_softmax_backward(xp, og, y):
    """oneDNN's softmax gradient: y * (og - sum(og * y)), the sum lane-ordered."""
    return y * (og - lane_sum(xp, og * y))


def dnn_log_softmax_backward(xp, og, y):
    """oneDNN's log_softmax gradient: og - exp(y) * sum(og), fused into one rounding."""
    s = lane_sum(xp, og)
    return (og.astype(np.float64) - dnn_exp(xp, y).astype(np.float64) * s).astype(np.float32)


def dnn_sigmoid(xp, x):
    """oneDNN's float32 logistic: t = e / (e + 1) with e = exp(-|x|) (oneDNN's exp), and
    1 - t where x is positive: bit for bit what 1.9.1's Activation(act_type='sigmoid') gives
    on float32 data of 1 to 5 dimensions. Not wired into Activation: at ~10x the cost of
    NumPy's sigmoid it would slow every LSTM gate."""
    e = dnn_exp(xp, -xp.abs(x))
    t = e / (e + np.float32(1))
    return xp.where(x > 0, np.float32(1) - t, t)
