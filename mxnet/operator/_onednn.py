"""float32 arithmetic of the oneDNN (MKLDNN) kernels 1.9.1's CPU build uses, emulated bit for bit.

1.9.1 hands a few float32 operators to oneDNN's JIT kernels (softmax and log_softmax over the
last axis, for one). Those do not call glibc: ``exp`` is a degree-5 polynomial on the reduced
argument, ``log`` a 32-entry table plus a degree-5 polynomial, and a reduction along the axis
is kept in 16 SIMD lanes (AVX-512), folded into one at the end by halving. Matching that
order and those polynomials gives 1.9.1's bits; NumPy's own exp and pairwise sum differ in the
last bit on about half the elements.
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
_EXP_POLY64 = tuple(np.float64(c) for c in (*_EXP_POLY[::-1], 1))   # r**5 .. r**1, 1
_NEG_LN2_64 = np.float64(-_LN2)


def dnn_exp(xp, x):
    """oneDNN's float32 exp of float32 ``x``: e**x = 2 * 2**(n-1) * p(r) with n the nearest
    integer to x*log2(e), r = x - n*ln2 (fused), p the polynomial; below logf(FLT_MIN) gives 0.
    Each fused multiply-add is formed in float64 (the float32 product is exact there) and
    rounded once to float32."""
    if xp is not np:   # other backends: the same steps on freshly made arrays
        return _dnn_exp_generic(xp, x)
    # float64 arrays hold each step's float32 value, NumPy scalars of the arrays' dtypes
    # (Python numbers, and float32-by-float64 operations, cost more on small arrays)
    v = np.maximum(x, _LN_FLT_MIN)
    np.minimum(v, _LN_FLT_MAX, out=v)
    fx = v * _LOG2E
    fx += np.float32(0.5)
    np.floor(fx, out=fx)
    t = fx.astype(np.float64)
    t *= _NEG_LN2_64                  # exact: fx is an integer of at most 8 bits
    t += v
    r = t.astype(np.float32).astype(np.float64)
    c5, c4, c3, c2, c1, one = _EXP_POLY64
    y = r * c5
    for c in (c4, c3, c2, c1):
        y += c
        y = y.astype(np.float32).astype(np.float64)
        y *= r
    y += one
    y = y.astype(np.float32)
    # 2**(n-1) built from its exponent bits (n - 1 = -127 gives 0, as the kernel's shift)
    scale = fx.astype(np.int32)
    scale += np.int32(126)
    scale <<= np.int32(23)
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


# oneDNN's log: x = 2**e * m; the top 5 bits of m's fraction pick r ~ 1/m and a stored
# -log(r) - 127*ln2 (where they are set, m is halved and e raised so that r*m stays near 1);
# then log(x) = [e_raw*ln2 + stored] + q(r*m - 1), q a degree-5 polynomial with q(0) = 0.
# Below: r and the stored value for each index, as float32 bit patterns.
_LOG_R = (0x3f800000, 0x3f780000, 0x3f700000, 0x3f680000, 0x3f600000, 0x3f580000, 0x3f580000,
          0x3f500000, 0x3f480000, 0x3f480000, 0x3f400000, 0x3f400000, 0x3f380000, 0x3f380000,
          0x3f300000, 0x3f300000, 0x3fa80000, 0x3fa80000, 0x3fa00000, 0x3fa00000, 0x3fa00000,
          0x3f980000, 0x3f980000, 0x3f900000, 0x3f900000, 0x3f900000, 0x3f900000, 0x3f880000,
          0x3f880000, 0x3f880000, 0x3f800000, 0x3f800000)
_LOG_T = (0xc2b00f34, 0xc2affef2, 0xc2afee29, 0xc2afdccd, 0xc2afcad6, 0xc2afb837, 0xc2afb837,
          0xc2afa4e4, 0xc2af90cf, 0xc2af90cf, 0xc2af7be9, 0xc2af7be9, 0xc2af661e, 0xc2af661e,
          0xc2af4f5c, 0xc2af4f5c, 0xc2b09a6f, 0xc2b09a6f, 0xc2b08174, 0xc2b08174, 0xc2b08174,
          0xc2b06731, 0xc2b06731, 0xc2b04b82, 0xc2b04b82, 0xc2b04b82, 0xc2b04b82, 0xc2b02e3e,
          0xc2b02e3e, 0xc2b02e3e, 0xc2b00f34, 0xc2b00f34)
# q's coefficients for z**2 .. z**5 (z's own is 1)
_LOG_POL = tuple(_f32_bits(h) for h in (0xbf000000, 0x3eaaaaab, 0xbe8004ab, 0x3e4cc8a3))


def _log_tables():
    """Per j = (float32 bits) >> 18 (sign, exponent field e, top 5 fraction bits i): r / 2**k
    with k the exponent m is scaled by (e - 127, or e - 126 where m is halved; exact), and
    the float32 of e' * ln2 + stored (fused: one rounding, e' = e or e + 1). The negative
    half gives NaN."""
    j = np.arange(1 << 14, dtype=np.int64)
    i = j & 31
    e = (j >> 5) + (i >> 4)
    r = np.array(_LOG_R, np.uint32).view(np.float32).astype(np.float64)[i]
    t = np.array(_LOG_T, np.uint32).view(np.float32).astype(np.float64)[i]
    rs = np.ldexp(r, (127 - e).astype(np.int32))
    base = (e * np.float64(_LN2) + t).astype(np.float32)
    base[1 << 13:] = np.nan
    return rs, base


_LOG_RS, _LOG_BASE = _log_tables()
_LOG_POL64 = tuple(np.float64(c) for c in (*_LOG_POL[::-1], 1))   # z**5 .. z**2, then z


def dnn_log(xp, x):
    """oneDNN's float32 natural log of float32 ``x``, positive and normal (0 gives -inf,
    negative NaN). Meant for few values (a row's sum): ~25 small array operations. Each fused
    multiply-add is formed in float64 (exact there) and rounded once to float32."""
    x = xp.ascontiguousarray(x, dtype=np.float32)
    j = x.view(np.uint32) >> np.uint32(18)
    c5, c4, c3, c2, one = _LOG_POL64
    z = xp.asarray(_LOG_RS).take(j)
    z *= x                            # r * m, exact in float64
    z -= one
    z = z.astype(np.float32).astype(np.float64)
    q = z * c5
    for c in (c4, c3, c2, one):
        q += c
        q = q.astype(np.float32).astype(np.float64)
        q *= z
    q = q.astype(np.float32)
    base = xp.asarray(_LOG_BASE).take(j)
    y = q + base
    lo = y - base
    lo -= q
    y += lo                           # the kernel's correction step, as it is written there
    if not (x > 0).all():
        y[x == 0] = -np.inf
        y[x < 0] = np.nan
    return y


def dnn_log_softmax(xp, x):
    """oneDNN's float32 log_softmax along the last axis: (x - max) - log(sum of exp(x - max)),
    the sum lane-ordered, exp and log oneDNN's."""
    z = x - xp.max(x, axis=-1, keepdims=True)
    z -= dnn_log(xp, lane_sum(xp, dnn_exp(xp, z)))
    return z


def dnn_softmax_backward(xp, og, y):
    """oneDNN's softmax gradient: y * (og - sum(og * y)), the sum lane-ordered."""
    return y * (og - lane_sum(xp, og * y))


def dnn_log_softmax_backward(xp, og, y):
    """oneDNN's log_softmax gradient: og - exp(y) * sum(og), fused into one rounding."""
    s = lane_sum(xp, og)
    return (og.astype(np.float64) - dnn_exp(xp, y).astype(np.float64) * s).astype(np.float32)
