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
_LANE_LOOP_MIN = 64   # rows from which lane_sum adds its 16-wide blocks in a Python loop

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
# the same as 0-d arrays (see dnn_exp)
_EXP_K = tuple(np.array(c) for c in (_LN_FLT_MIN, _LN_FLT_MAX, _LOG2E, np.float32(0.5),
                                     _NEG_LN2_64, np.int32(126), np.int32(23), np.float32(2)))
_EXP_POLY64_K = tuple(np.array(c) for c in _EXP_POLY64)
_ONE_K = np.array(np.float32(1))
_ZERO_K = np.array(np.float32(0))


def dnn_exp(xp, x):
    """oneDNN's float32 exp of float32 ``x``: e**x = 2 * 2**(n-1) * p(r) with n the nearest
    integer to x*log2(e), r = x - n*ln2 (fused), p the polynomial; below logf(FLT_MIN) gives 0.
    Each fused multiply-add is formed in float64 (the float32 product is exact there) and
    rounded once to float32."""
    if xp is not np:   # other backends: the same steps on freshly made arrays
        return _dnn_exp_generic(xp, x)
    # float64 arrays hold each step's float32 value. The constants are 0-d arrays of the
    # arrays' dtypes: NumPy scalars act the same (both keep their dtype) but cost more per call
    # on small arrays, as do operations mixing float32 and float64 arrays (an explicit astype
    # is cheaper than the ufunc's own cast)
    lo, hi, log2e, half, neg_ln2, i126, i23, two = _EXP_K
    v = np.maximum(x, lo)
    np.minimum(v, hi, out=v)
    fx = np.multiply(v, log2e)
    np.add(fx, half, out=fx)
    np.floor(fx, out=fx)
    t = fx.astype(np.float64)
    np.multiply(t, neg_ln2, out=t)    # exact: fx is an integer of at most 8 bits
    t += v.astype(np.float64)
    r = t.astype(np.float32).astype(np.float64)
    c5, c4, c3, c2, c1, one = _EXP_POLY64_K
    y = np.multiply(r, c5, out=t)
    for c in (c4, c3, c2, c1):
        np.add(y, c, out=y)
        y = y.astype(np.float32).astype(np.float64)
        np.multiply(y, r, out=y)
    np.add(y, one, out=y)
    y = y.astype(np.float32)
    # 2**(n-1) built from its exponent bits (n - 1 = -127 gives 0, as the kernel's shift).
    # Below logf(FLT_MIN) the clamp gives n = -126, so 0 (p(r) is finite): no separate mask.
    scale = fx.astype(np.int32)
    np.add(scale, i126, out=scale)
    np.left_shift(scale, i23, out=scale)
    np.multiply(y, scale.view(np.float32), out=y)
    np.multiply(y, two, out=y)
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
    lead = x.shape[:-1]
    if k:
        blocks = x[..., :k * _LANES].reshape(lead + (k, _LANES))
        if k > 1 and x.size >= _LANE_LOOP_MIN * n:
            # many rows: adding the k blocks one by one (the same order) beats NumPy's
            # reduction, whose inner loop is only 16 long; that reduction starts from +0
            # (all -0 lanes give +0), so this does too
            acc = blocks[..., 0, :] + (_ZERO_K if xp is np else np.float32(0))
            for i in range(1, k):
                acc += blocks[..., i, :]
        else:
            # a reduction over a non-innermost axis adds in order (no pairwise blocking)
            acc = blocks.sum(axis=-2)
        if tail:
            acc[..., :tail] += x[..., k * _LANES:]
        w = _LANES
    else:
        # fewer than 16 elements: lanes n..15 hold +0 throughout, so the first folds only add
        # +0 to lanes 0..w-1 (w the least power of two above n), which leaves every value as
        # it is (NaN payloads too) but -0; and lane 0 ends +0, never -0, either way (a sum with
        # a +0 lane in it). So fold from w lanes. The same operations as with 16 lanes where
        # two NaNs may meet (NumPy's loops do not all keep the same one's payload).
        w = 2
        while w <= n:
            w *= 2
        acc = xp.zeros(lead + (w,), np.float32)
        acc[..., :n] += x
    while w > 1:
        w //= 2
        acc = acc[..., :w] + acc[..., w:2 * w]
    return acc


def dnn_softmax(xp, x):
    """oneDNN's float32 softmax along the last axis: exp(x - max) times the reciprocal of the
    lane-ordered sum."""
    e = dnn_exp(xp, x - x.max(axis=-1, keepdims=True))
    e *= (_ONE_K if xp is np else np.float32(1)) / lane_sum(xp, e)
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
_LOG_POL64_K = tuple(np.array(c) for c in _LOG_POL64)
_LOG_SHIFT_K = np.array(np.uint32(18))


def dnn_log(xp, x, positive=False):
    """oneDNN's float32 natural log of float32 ``x``, positive and normal (0 gives -inf,
    negative NaN; ``positive``: the caller knows x has neither). Meant for few values (a row's
    sum): ~25 small array operations. Each fused multiply-add is formed in float64 (exact
    there) and rounded once to float32."""
    x = xp.ascontiguousarray(x, dtype=np.float32)
    if xp is np:   # constants as 0-d arrays, tables as they are (see dnn_exp)
        sh, (c5, c4, c3, c2, one), rs, tb = _LOG_SHIFT_K, _LOG_POL64_K, _LOG_RS, _LOG_BASE
    else:
        sh, (c5, c4, c3, c2, one) = np.uint32(18), _LOG_POL64
        rs, tb = xp.asarray(_LOG_RS), xp.asarray(_LOG_BASE)
    j = x.view(np.uint32) >> sh
    z = rs.take(j)
    z *= x.astype(np.float64)         # r * m, exact in float64 (a mixed product costs more)
    z -= one
    z = z.astype(np.float32).astype(np.float64)
    q = z * c5
    for c in (c4, c3, c2, one):
        q += c
        q = q.astype(np.float32).astype(np.float64)
        q *= z
    q = q.astype(np.float32)
    base = tb.take(j)
    y = q + base
    lo = y - base
    lo -= q
    y += lo                           # the kernel's correction step, as it is written there
    if not positive and not (x > 0).all():
        y[x == 0] = -np.inf
        y[x < 0] = np.nan
    return y


def dnn_log_softmax(xp, x):
    """oneDNN's float32 log_softmax along the last axis: (x - max) - log(sum of exp(x - max)),
    the sum lane-ordered, exp and log oneDNN's."""
    z = x - x.max(axis=-1, keepdims=True)
    # the sum is at least 1 (the maximum's exp(0)) or NaN: no zero or negative to mend
    z -= dnn_log(xp, lane_sum(xp, dnn_exp(xp, z)), positive=True)
    return z


def dnn_softmax_backward(xp, og, y):
    """oneDNN's softmax gradient: y * (og - sum(og * y)), the sum lane-ordered."""
    return y * (og - lane_sum(xp, og * y))


def dnn_log_softmax_backward(xp, og, y):
    """oneDNN's log_softmax gradient: og - exp(y) * sum(og), fused into one rounding."""
    s = lane_sum(xp, og)
    return (og.astype(np.float64) - dnn_exp(xp, y).astype(np.float64) * s).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# Elementwise activations (oneDNN 2.4's eltwise kernels: logistic, tanh, soft_relu, gelu_erf).
# 1.9.1 runs float32 Activation (sigmoid, tanh, softrelu) and LeakyReLU (elu, gelu) of 1 to 5
# dimensions through them, forward and backward; the backward kernels recompute the forward
# from the input. Each fused multiply-add is formed in float64 and rounded once to float32.

# the elementwise emulations cost 3-5x NumPy's own functions (tanh forward + backward of (32, 512):
# ~190 us against ~45 us), so arrays of more elements keep NumPy's, within an ulp or two
ACT_EMULATE_MAX = 1 << 14

_ONE = np.float32(1)


def _fma(xp, a, b, c):
    """float32 a * b + c with one rounding (the product is exact in float64)."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


def dnn_sigmoid(xp, x):
    """oneDNN's logistic: t = e / (e + 1), e = exp(-|x|) (oneDNN's exp); 1 - t unless x's sign
    bit is set."""
    e = dnn_exp(xp, -xp.abs(x))
    t = e / (e + _ONE)
    return xp.where(xp.signbit(x), t, _ONE - t)


# tanh: |x| = b + r with b = |x| cut to its top 10 bits (sign, exponent, one fraction bit: a
# half binade); each half binade from 2**-12 to 9.01 has a degree-6 polynomial in r. Below
# 0x1.bb67aep-12 tanh(x) = x, from 9.01 on it is 1. _TANH_POL[d][i]: r**d's coefficient of
# polynomial i, as float32 bits.
_TANH_POL = np.array([
    [0x00000000, 0x39bfffff, 0x39ffffff, 0x3a3ffffe, 0x3a7ffffb, 0x3abffff7, 0x3affffeb,
     0x3b3fffdc, 0x3b7fffab, 0x3bbfff70, 0x3bfffeab, 0x3c3ffdc0, 0x3c7ffaab, 0x3cbff701,
     0x3cffeaad, 0x3d3fdc08, 0x3d7faacd, 0x3dbf7081, 0x3dfeacc9, 0x3e3dc7fd, 0x3e7acbf5,
     0x3eb77a9f, 0x3eec9a9f, 0x3f22991f, 0x3f42f7d6, 0x3f67b7cc, 0x3f76ca83, 0x3f7ebbe9,
     0x3f7fd40c, 0x3f7fff32, 0x3f7ffffc, 0x3f800000],
    [0x3f800000, 0x3f800018, 0x3f7fffe8, 0x3f7fffda, 0x3f7fffdc, 0x3f7fffdc, 0x3f7fffac,
     0x3f7fff70, 0x3f7ffeec, 0x3f7ffdc0, 0x3f7ffbed, 0x3f7ff704, 0x3f7feff5, 0x3f7fdbca,
     0x3f7fbfff, 0x3f7f7041, 0x3f7f009b, 0x3f7dc36c, 0x3f7c0aa8, 0x3f7734b8, 0x3f70a4de,
     0x3f5f1fd8, 0x3f495493, 0x3f18b9ec, 0x3ed706cb, 0x3e390b06, 0x3d90b11f, 0x3c21a053,
     0x3aaf7fdb, 0x37ccc1a3, 0x355c6733, 0x00000000],
    [0x00000000, 0xbe4e0ff1, 0x3d25b1b1, 0x3d6b6dab, 0x3c9fb1d5, 0xbabff06f, 0x3c07b3f6,
     0xbb3fc1bc, 0x3a9f5921, 0xbbbf06f2, 0xbbb0f402, 0xbc47db9e, 0xbc73d5e7, 0xbca25bda,
     0xbcfca780, 0xbd40e07c, 0xbd7dab03, 0xbdbe4a0f, 0xbdfb14a5, 0xbe36cc8d, 0xbe6bd102,
     0xbe9fe7c5, 0xbeba0f10, 0xbec206a8, 0xbea3c388, 0xbe277d62, 0xbd8b7960, 0xbc209f49,
     0xbaad44ca, 0xb7c6eeac, 0xb663aa41, 0x00000000],
    [0x00000000, 0x45b3ae96, 0xc414eb20, 0xc450e02e, 0xc3152b4e, 0xbead2f56, 0xc2162e02,
     0xbeb4bd5a, 0xc11a59a4, 0xbed2f507, 0xc020d32c, 0x3dd0f506, 0xbf2a75e2, 0xbff950e3,
     0xbed47334, 0xbe809b8c, 0xbeb64532, 0xbe961a5b, 0xbe9b63ac, 0xbea0d4b2, 0xbe828a77,
     0xbe378612, 0xbdc20908, 0x3d2d3957, 0x3dd46e89, 0x3db3f629, 0x3d2c5e7b, 0x3bd20403,
     0x3a59dfae, 0x3770af45, 0x372cc014, 0x00000000],
    [0x00000000, 0xcc981a1b, 0x4a7edd3d, 0x4ab1007c, 0x48fedd9c, 0x41a557b5, 0x477ee32a,
     0x422557f5, 0x45ff3ce4, 0x42a55641, 0x446e0867, 0xc33dc19a, 0x42915214, 0x43af4fad,
     0x4110fe88, 0xc1099b75, 0x3fc8a8dc, 0xbfbeaef5, 0xbe365aad, 0x3f4d9652, 0x3ddfa08f,
     0x3e34e9b8, 0x3e2d07a6, 0x3dc63567, 0x3cdaeb78, 0xbcd17537, 0xbc92829c, 0xbb43ab99,
     0xb9b471dd, 0xb6baad5a, 0xb78bafc7, 0x00000000],
    [0x00000000, 0x52f688d5, 0xd0505c72, 0xd08f98e3, 0xce505cc9, 0xc7162b8a, 0xcc5061d6,
     0xc7162bdf, 0xca50b37f, 0xc7162a3a, 0xc8422086, 0x471a714e, 0xc5ece1f1, 0xc70e3d90,
     0xc3eba94a, 0x43e0c424, 0xc21f4552, 0x42217cc8, 0x405e7dc4, 0xc10dd401, 0x3e96b602,
     0xbd1a6d2f, 0xbd393883, 0xbd674682, 0xbd310016, 0xb961e269, 0x3ba32495, 0x3a7680d5,
     0x38b3173c, 0x35a9deea, 0x375c3f2a, 0x00000000],
    [0x00000000, 0xd8995ed1, 0x558285ea, 0x55b2cd69, 0x53028625, 0x4bc9991f, 0x5082898a,
     0x4b4999b3, 0x4e02c07c, 0x4ac99764, 0x4b72c822, 0xca40c0e1, 0x489413e4, 0x49b12224,
     0x46134c4e, 0xc60c2d57, 0x43c83910, 0xc3c872d1, 0xc186bc9e, 0x42325bc3, 0xbf2ffa4a,
     0x3d9a203c, 0xbc545a43, 0xbae08fee, 0x3c80225d, 0x3b1fd1df, 0xba36b9d1, 0xb91de544,
     0xb71f100f, 0xb408e2ed, 0xb685fec8, 0x00000000],
], np.uint32).view(np.float32).astype(np.float64)
_TANH_IDX_BIAS = np.uint32(0x39800000)          # 2**-12: the first half binade's start
_TANH_TOP_BITS = np.uint32(0xffc00000)
_TANH_LINEAR_BELOW = _f32_bits(0x39ddb3d7)
_TANH_ONE_FROM = _f32_bits(0x41102cb3)


def dnn_tanh(xp, x):
    """oneDNN's float32 tanh (see _TANH_POL); NaN stays NaN."""
    s = xp.abs(x)
    bits = s.view(np.uint32)
    idx = bits - _TANH_IDX_BIAS
    idx &= _TANH_TOP_BITS
    idx >>= np.uint32(22)
    idx &= np.uint32(31)           # the permute reads 5 index bits
    r = (s - (bits & _TANH_TOP_BITS).view(np.float32)).astype(np.float64)
    tab = xp.asarray(_TANH_POL)
    p = tab[6].take(idx)
    for d in range(5, -1, -1):
        p *= r
        p += tab[d].take(idx)
        p = p.astype(np.float32).astype(np.float64)
    p = p.astype(np.float32)
    p[s >= _TANH_ONE_FROM] = 1
    small = s < _TANH_LINEAR_BELOW
    p[small] = s[small]
    return xp.where(xp.signbit(x), -p, p)


def dnn_tanh_grad(xp, y):
    """oneDNN's tanh derivative from the output: 1 - y*y fused into one rounding."""
    y64 = y.astype(np.float64)
    return (1.0 - y64 * y64).astype(np.float32)


# soft_relu: log(1 + e**x) = n*ln2 + log(2**-n + p(r)), with oneDNN's exp reduction
# (n, r, the polynomial p) and log(m * 2**k) = k*ln2 + q(m - 1) for m in [0.5, 1), q of
# degree 8 (coefficients of z**0 .. z**8 as float32 bits)
_SOFTRELU_POL = tuple(np.float64(_f32_bits(h)) for h in (
    0xb2b4637d, 0x3f7fff8e, 0xbf001759, 0x3ea70608, 0xbea3d7bf, 0xbe361d04, 0xbfa8f1e6,
    0xbfe1e812, 0xbfc4d30e))


def dnn_softrelu(xp, x):
    """oneDNN's float32 soft_relu (log(1 + exp(x))); above logf(FLT_MAX) x itself."""
    v = xp.minimum(x, _LN_FLT_MAX)
    v = xp.maximum(v, _LN_FLT_MIN, out=v)
    fx = v * _LOG2E
    fx += np.float32(0.5)
    fx = xp.floor(fx, out=fx)
    nln2 = fx * _LN2                      # rounded, then subtracted (no fused step here)
    r = (v - nln2).astype(np.float64)
    c5, c4, c3, c2, c1, one = _EXP_POLY64
    e = r * c5
    for c in (c4, c3, c2, c1):
        e += c
        e = e.astype(np.float32).astype(np.float64)
        e *= r
    e += one
    e = e.astype(np.float32)
    # 2**-(n-1) from its exponent bits (fx >= -126 after the clamp; n = 128 gives 0)
    k = (np.int32(128) - fx.astype(np.int32)).astype(np.uint32)
    k <<= np.uint32(23)
    e *= np.float32(2)
    e += k.view(np.float32)
    e /= np.float32(2)
    eb = e.view(np.uint32)
    ex = (eb >> np.uint32(23)).astype(np.float32)
    ex -= np.float32(126)
    m = ((eb & np.uint32(0x807fffff)) | np.uint32(0x3f000000)).view(np.float32) - _ONE
    m = m.astype(np.float64)
    q = m * _SOFTRELU_POL[8]
    for c in _SOFTRELU_POL[7:0:-1]:
        q += c
        q = q.astype(np.float32).astype(np.float64)
        q *= m
    q += _SOFTRELU_POL[0]
    ex *= _LN2
    ex += q.astype(np.float32)
    ex += nln2
    return xp.where(x > _LN_FLT_MAX, x, ex)


# gelu_erf: erf by Abramowitz and Stegun 7.1.26 (t = 1 / (1 + p|s|), erf = 1 - t*P(t)*exp(-s*s),
# P of degree 4), s = x / sqrt(2) as a product; constants as float32 bits
_GELU_P = np.float64(_f32_bits(0x3ea7ba05))
_GELU_INV_SQRT2 = _f32_bits(0x3f3504f3)
_GELU_INV_SQRTPI = _f32_bits(0x3f106eba)
_GELU_A = tuple(np.float64(_f32_bits(h)) for h in (0x3e827906, 0xbe91a98e, 0x3fb5f0e3,
                                                     0xbfba00e3, 0x3f87dc22))


def _dnn_erf(xp, s):
    """oneDNN's erf of float32 ``s`` (the A&S form), and exp(-s*s) (oneDNN's exp)."""
    q = dnn_exp(xp, -(s * s))
    t = _ONE / (xp.abs(s).astype(np.float64) * _GELU_P + 1.0).astype(np.float32)
    t64 = t.astype(np.float64)
    a1, a2, a3, a4, a5 = _GELU_A
    p = t64 * a5
    for c in (a4, a3, a2):
        p += c
        p = p.astype(np.float32).astype(np.float64)
        p *= t64
    p += a1
    p = p.astype(np.float32).astype(np.float64)
    qt = (-q * t).astype(np.float64)
    erf = (qt * p + 1.0).astype(np.float32)
    return xp.where(xp.signbit(s), -erf, erf), q


def dnn_gelu(xp, x):
    """oneDNN's float32 gelu_erf: S + S * erf(s) fused, s = x / sqrt(2), S = s / sqrt(2)."""
    s = x * _GELU_INV_SQRT2
    erf, _ = _dnn_erf(xp, s)
    big_s = (s * _GELU_INV_SQRT2).astype(np.float64)
    return (erf.astype(np.float64) * big_s + big_s).astype(np.float32)


def dnn_gelu_grad(xp, x):
    """oneDNN's gelu_erf derivative: (s / sqrt(pi) * exp(-s*s) + 0.5) + 0.5 * erf(s) fused."""
    s = x * _GELU_INV_SQRT2
    erf, q = _dnn_erf(xp, s)
    t = s * _GELU_INV_SQRTPI
    t *= q
    t += np.float32(0.5)
    return (erf.astype(np.float64) * 0.5 + t).astype(np.float32)
