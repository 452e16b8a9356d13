"""glibc's float32 log10f, log2f, erff, tanf, atanf, asinf, acosf and cbrtf, bit for bit.

1.9.1's CPU kernels of log10, log2, erf, tan, arctan, arcsin, arccos, cbrt and rcbrt call the
C library's float functions. In glibc 2.28-2.39 these are short float (or double) algorithms
that are not correctly rounded, so the float64 value rounded once, or NumPy's float32 loops,
disagree with 1.9.1 on ~0.3-20% of arguments. The functions below take the same steps with
whole-array NumPy arithmetic (float32 where the C code computes in float, float64 where it
uses double):

* log10f: fdlibm's (x = 2^k m; k log10(2) in two pieces plus logf(m) / ln 10) on logf;
* log2f: the table-driven algorithm of logf (Arm's, in glibc since 2.28) with log2 constants;
* erff: fdlibm's rational approximations on four intervals, expf in the tail;
* tanf: sinf's reduction by pi/2 in double, split into two floats, then fdlibm's kernel;
* atanf: fdlibm's (reduction by atan of 0, 1/2, 1, 3/2 or inf, an odd polynomial);
* asinf: Cephes' polynomial with fdlibm's reduction above 1/2; acosf: fdlibm's;
* cbrtf: glibc's own (a quadratic guess, one Halley step in double, 2^(e/3) from a table).

The thresholds and coefficients are the published constants of those algorithms (fdlibm: Sun
Microsystems' permissive licence; Cephes; Arm optimized-routines, MIT); the array code is ours.
Checked against glibc 2.36 (and 1.9.1's mx.nd functions) on ~4M arguments per function: random
bit patterns, the usual ranges, a binade of mantissas and each branch threshold's neighbours,
0 differ. Every function takes a float32 NumPy array and returns one of the same shape.
"""
from __future__ import annotations

import numpy as np

from . import libm32

__all__ = ["log10f", "log2f", "erff", "tanf", "atanf", "asinf", "acosf", "cbrtf"]

_f32 = np.float32
_f64 = np.float64


def _bits(v):
    return np.array(v, np.uint32).view(_f32)


def _low12_cleared(v):
    return (v.view(np.int32) & np.int32(-4096)).view(_f32)


# ---- log10f: fdlibm's float steps on logf ---------------------------------------------------
_L10_IVLN10, _L10_HI, _L10_LO = _bits([0x3ede5bd9, 0x3e9a2080, 0x355427db])
_LOG_LOGC = np.ascontiguousarray(libm32._LOG_TAB[:, 1])


def _log_reduce(ix):
    """glibc's logf/log2f reduction of positive normal float32 bits ``ix``: the table index i,
    the exponent k and r = z/c - 1 as its FMA build forms it (1/c split so that z * hi is
    exact), r in double."""
    tmp = ix - np.int32(libm32._LOG_OFF)
    i = tmp >> 19
    i &= 15
    z = tmp & np.int32(-0x800000)
    np.subtract(ix, z, out=z)
    z = z.view(_f32).astype(_f64)
    tmp >>= 23                                  # k
    r = libm32._LOG_INVC_HI.take(i)
    r *= z
    r -= 1.0
    z *= libm32._LOG_INVC_LO.take(i)
    r += z
    return i, tmp, r


def _logf_normal(m):
    """libm32.logf's steps (glibc's logf) for positive normal finite float32 ``m`` only."""
    i, k, r = _log_reduce(m.view(np.int32))
    y0 = k * libm32._LOG_LN2
    y0 += _LOG_LOGC.take(i)
    y0 += r
    r2 = r * r
    a0, a1, a2 = libm32._LOG_A
    y = r
    y *= a1
    y += a2
    y += a0 * r2
    y *= r2
    y += y0
    return y.astype(_f32)


def log10f(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    hx = x.view(np.int32)
    with np.errstate(all="ignore"):
        # one check for the rare inputs: subnormal, zero, negative, inf, NaN
        rare = (hx - np.int32(0x00800000)).view(np.uint32) >= np.uint32(0x7f000000)
        k = hx >> 23
        k -= 127
        any_rare = bool(rare.any())
        if any_rare:
            sub = (hx < 0x00800000) & (hx > 0)
            if bool(sub.any()):                 # subnormal: scaled by 2^25 first
                hx = np.where(sub, (x * _f32(2.0 ** 25)).view(np.int32), hx)
                k = np.where(sub, (hx >> 23) - 152, k)
        i = (k < 0).astype(np.int32)            # m in [1/2, 1) when k < 0, else [1, 2)
        k += i
        np.subtract(0x7f, i, out=i)
        i <<= 23
        i |= hx & 0x007fffff
        m = i.view(_f32)
        y = k.astype(_f32)
        z = _logf_normal(m)
        z *= _L10_IVLN10
        z += y * _L10_LO
        y *= _L10_HI
        res = z
        res += y
        if any_rare:
            bad = ~(x > 0) | (hx >= 0x7f800000)
            if bool(bad.any()):
                res = np.where(bad, np.log10(x), res)
    return res


# ---- erff: fdlibm's float steps (rational approximations in x^2, |x| - 1 and 1/x^2) ----------
def _c32(*v):
    return tuple(_f32(a) for a in v)


_ERF_EFX, _ERF_ERX = _c32(1.28379167095512586316e-01, 8.45062911510467529297e-01)
_ERF_PP = _c32(1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
               -5.77027029648944159157e-03, -2.37630166566501626084e-05)
_ERF_QQ = _c32(3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03,
               1.32494738004321644526e-04, -3.96022827877536812320e-06)
_ERF_PA = _c32(-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
               3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02,
               -2.16637559486879084300e-03)
_ERF_QA = _c32(1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02,
               1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02)
_ERF_RA = _c32(-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
               -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
               -8.12874355063065934246e+01, -9.81432934416914548592e+00)
_ERF_SA = _c32(1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02,
               6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02,
               6.57024977031928170135e+00, -6.04244152148580987438e-02)
_ERF_RB = _c32(-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
               -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
               -4.83519191608651397019e+02)
_ERF_SB = _c32(3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03,
               3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02,
               -2.24409524465858183362e+01)


_ERF_RB_FROM = _bits(0x4036db6e)     # 1/0.35


def _horner(z, c):
    """c[0] + z*(c[1] + z*(... + z*c[-1])) in float32, as the C source nests it."""
    r = c[-1]
    for a in c[-2::-1]:
        r = a + z * r
    return r


def _horner_ip(z, c):
    """The same steps as _horner (c[0] + z*(c[1] + ...)) on an array z, in place on one
    buffer (each a + z*r computed as r*z + a: the same roundings)."""
    r = z * c[-1]
    for a in c[-2:0:-1]:
        r += a
        r *= z
    r += c[0]
    return r


def _erf_small(x):
    """|x| < 0.84375: x + x P(x^2) / Q(x^2) (x itself, plus x efx, below 2^-28)."""
    one = _f32(1)
    z = x * x
    res = x + x * (_horner(z, _ERF_PP) / (one + z * _horner(z, _ERF_QQ)))
    tiny = np.abs(x) < _f32(2.0 ** -28)
    if bool(tiny.any()):
        x16 = _f32(16) * x     # below 2^-119: scaled by 16 so that no bits are lost
        t = np.where(np.abs(x) < _f32(2.0 ** -119), (x16 + x16 * _ERF_EFX) * _f32(0.0625),
                     x + _ERF_EFX * x)
        res = np.where(tiny, t, res)
    return res


def _erf_mid(x):
    """0.84375 <= |x| < 1.25: erx + P(s) / Q(s), s = |x| - 1."""
    one = _f32(1)
    s = np.abs(x) - one
    pq = _horner(s, _ERF_PA) / (one + s * _horner(s, _ERF_QA))
    return np.where(x >= 0, _ERF_ERX + pq, -_ERF_ERX - pq)


def _erf_far(x):
    """1.25 <= |x| < 6: 1 - exp(-z^2 - 0.5625) exp((z - |x|)(z + |x|) + R/S) / |x|, R/S
    rational in 1/x^2 (two sets of coefficients, split at 1/0.35), z = |x| with its low 12
    bits cleared."""
    one = _f32(1)
    ax = np.abs(x)
    s = one / (ax * ax)
    rb = ax >= _ERF_RB_FROM
    if not bool(rb.any()):
        rr, ss = _horner(s, _ERF_RA), _horner(s, _ERF_SA)
    elif bool(rb.all()):
        rr, ss = _horner(s, _ERF_RB), _horner(s, _ERF_SB)
    else:
        rr = np.where(rb, _horner(s, _ERF_RB), _horner(s, _ERF_RA))
        ss = np.where(rb, _horner(s, _ERF_SB), _horner(s, _ERF_SA))
    ss = one + s * ss
    z = _low12_cleared(ax)
    r = libm32.expf(np, -z * z - _f32(0.5625)) * libm32.expf(np, (z - ax) * (z + ax) + rr / ss)
    return np.where(x >= 0, one - r / ax, r / ax - one)


def erff(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    if x.size == 0:
        return x.copy()
    ix = x.view(np.int32) & 0x7fffffff
    with np.errstate(all="ignore"):
        # each interval's steps on its own elements (all of them when only one is present)
        kind = ((ix >= 0x3f580000).astype(np.int8) + (ix >= 0x3fa00000) + (ix >= 0x40c00000))
        lo, hi = int(kind.min()), int(kind.max())
        steps = (_erf_small, _erf_mid, _erf_far, None)
        if lo == hi and lo < 3:
            return steps[lo](x)
        res = np.empty_like(x)
        for k in range(lo, hi + 1):
            i = np.flatnonzero(kind == k)     # (index arrays: boolean scatters are slow)
            if i.size == 0:
                continue
            xs = x.take(i)
            if k == 3:             # |x| >= 6: +-1; +-inf: +-1; NaN: NaN
                res[i] = np.where(np.isnan(xs), xs, np.copysign(_f32(1), xs))
            else:
                res[i] = steps[k](xs)
    return res


# ---- tanf: sinf's reduction by pi/2 in double, split into two floats, then fdlibm's float kernel
_TAN_T = tuple(_bits([0x3eaaaaab, 0x3e088889, 0x3d5d0dd1, 0x3cb327a4, 0x3c11371f, 0x3b6b6916,
                      0x3abede48, 0x3a1a26c8, 0x398137b9, 0x38a3f445, 0x3895c07a, 0xb79bae5f,
                      0x37d95384]))
_TAN_PIO4, _TAN_PIO4LO = _bits([0x3f490fda, 0x33222168])
def _kernel_tanf(x, y, odd):
    """fdlibm's __kernel_tanf: tan(x + y) (odd False) or -1 / tan(x + y) (odd True)."""
    one, two = _f32(1), _f32(2)
    T = _TAN_T
    ix = x.view(np.int32) & 0x7fffffff
    big = ix >= 0x3f2ca140                     # |x| >= 0.6744: tan(pi/4 - |x|) instead
    anybig, anyodd = bool(big.any()), bool(odd.any())
    x0 = x
    if anybig:
        iy = one - two * odd                   # +-1 (np.where with scalars is slow here)
        sgn = np.copysign(one, x)
        xb = (_TAN_PIO4 - np.abs(x)) + (_TAN_PIO4LO - sgn * y)
        x = np.where(big, xb, x)
        y = y * ~big                           # (0 where big)
    z = x * x
    w = z * z
    r = _horner_ip(w, T[1::2])
    v = _horner_ip(w, T[2::2])
    v *= z
    s = z * x
    r += v
    r *= s
    r += y
    r *= z
    r += y
    r += T[0] * s
    w = x + r
    res = w
    if anybig:
        res_big = sgn * (iy - two * (x - (w * w / (w + iy) - r)))
    if anyodd:
        # -1 / w, accurately (fdlibm's split of w and of the quotient into 12-bit heads)
        zz = _low12_cleared(w)
        v = r - (zz - x)
        a = -one / w
        t = _low12_cleared(a)
        s = one + t * zz
        res_odd = t + a * (s + t * v)
        res = np.where(odd, res_odd, w)
    if anybig:
        res = np.where(big, res_big, res)
    # |x| < 2^-13: x, or -1 / (x + y); pi/4 - |x| < 2^-13: +-(1 -+ 2 (pi/4 - |x|))
    near = ix < 0x39000000
    if anybig:
        near |= big & (np.abs(xb) < _f32(2.0 ** -13))
    i = np.flatnonzero(near)
    if i.size:
        if not anybig:
            iy = one - two * odd
            sgn = np.copysign(one, x0)
        xi, yi, oi, bi = x.take(i), y.take(i), odd.take(i), big.take(i)
        si, iyi = sgn.take(i), iy.take(i)
        res[i] = np.where(bi, si * iyi * (one - two * iyi * xi), np.where(oi, -one / (xi + yi), xi))
    return res


def _rem_pio2f(x):
    """x - n pi/2 in double (glibc's sinf reduction: n from x * 2/pi scaled by 2^24, 4/pi to
    192 bits from 120 on), split into a float pair (y0, y1), and n."""
    xd = x.astype(_f64)
    n = xd * libm32._SC_HPI_INV
    n = n.astype(np.int64)
    n += 0x800000
    n >>= 24
    nf = n.astype(_f64)
    nf *= libm32._SC_HPI
    r = np.subtract(xd, nf, out=xd)    # (no fused multiply-add here, unlike sinf's FMA build)
    big = np.abs(x) >= _f32(120.0)
    if bool(big.any()):
        bits = x[big].view(np.uint32).astype(np.int64)
        lr, ln = libm32._sc_reduce_large(bits & 0x7FFFFFFF)
        r[big] = np.where(bits >> 31 != 0, -lr, lr)
        n[big] = ln
    y0 = r.astype(_f32)
    r -= y0
    return y0, r.astype(_f32), n


def tanf(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    ix = x.view(np.int32) & 0x7fffffff
    with np.errstate(all="ignore"):
        # (below pi/4 the reduction gives n = 0, y0 = x, y1 = 0: the C code's direct call)
        if bool((ix < 0x3f490fdb).all()):      # |x| < pi/4: the reduction's n = 0, y = (x, 0)
            res = _kernel_tanf(x, np.zeros_like(x), np.zeros(x.shape, bool))
        else:
            y0, y1, n = _rem_pio2f(x)
            n &= 1
            res = _kernel_tanf(y0, y1, n.astype(bool))
        bad = ix >= 0x7f800000
        if bool(bad.any()):
            res = np.where(bad, x - x, res)
    return res


# ---- atanf: fdlibm's float steps (atan(c) + atan((|x| - c) / (1 + c|x|)), c in 0, 1/2, 1, 3/2,
# inf, and an odd polynomial split into two halves) ---------------------------------------------
_ATAN_HI = _bits([0x3eed6338, 0x3f490fda, 0x3f7b985e, 0x3fc90fda, 0])
_ATAN_LO = _bits([0x31ac3769, 0x33222168, 0x33140fb4, 0x33a22168, 0])
_ATAN_T = _c32(3.33333333333329318027e-01, -1.99999999998764832476e-01, 1.42857142725034663711e-01,
               -1.11111104054623557880e-01, 9.09088713343650656196e-02, -7.69187620504482999495e-02,
               6.66107313738753120669e-02, -5.83357013379057348645e-02, 4.97687799461593236017e-02,
               -3.65315727442169155270e-02, 1.62858201153657823623e-02)
# the reduced argument t = (a|x| + b) / (c|x| + d) of each interval (with the C code's roundings:
# (2|x| - 1) / (2 + |x|), (|x| - 1) / (|x| + 1), (|x| - 1.5) / (1 + 1.5|x|), -1 / |x|, |x|)
_ATAN_A, _ATAN_B, _ATAN_C, _ATAN_D = (np.array(v, _f32) for v in (
    [2, 1, 1, 0, 1], [-1, -1, -1.5, -1, 0], [1, 1, 1.5, 1, 0], [2, 1, 1, 0, 1]))
# rows of (a, b, c, d, atan_lo, atan_hi, 0, 0) by |x|'s bits >> 18 (32-byte rows gather fastest)
_ATAN_KEY = np.arange(8192, dtype=np.int64) << 18
_ATAN_TAB = np.zeros((8192, 8), _f32)
_ATAN_TAB[:, :6] = np.stack([v.take((_ATAN_KEY >= 0x3f300000) * 1 + (_ATAN_KEY >= 0x3f980000)
                                    + (_ATAN_KEY >= 0x401c0000) + 4 * (_ATAN_KEY < 0x3ee00000))
                             for v in (_ATAN_A, _ATAN_B, _ATAN_C, _ATAN_D, _ATAN_LO, _ATAN_HI)],
                            axis=1)


def atanf(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    ix = x.view(np.int32) & 0x7fffffff
    ax = np.abs(x)
    T = _ATAN_T
    with np.errstate(all="ignore"):
        # interval 0..3: atan(c) + atan((|x| - c) / (1 + c|x|)), c = 1/2, 1, 3/2, inf; 4: none
        mx = int(ix.max(initial=0))
        if mx < 0x3ee00000:     # interval 4 only: t = (1|x| + 0) / (0|x| + 1) = |x|, no atan(c)
            t, LO, HI = ax, _f32(0), _f32(0)
        else:                   # each element's a, b, c, d, lo, hi: one row gather (the
            K = _ATAN_TAB.take((ix >> 18).astype(np.intp), axis=0)   # thresholds are whole
            t = K[..., 0] * ax                                          # multiples of 2^18)
            t += K[..., 1]
            d = K[..., 2] * ax
            d += K[..., 3]
            t /= d
            LO, HI = K[..., 4], K[..., 5]
        z = t * t
        w = z * z
        s1 = _horner_ip(w, T[0::2])
        s1 *= z
        s2 = _horner_ip(w, T[1::2])
        s2 *= w
        s1 += s2
        s1 *= t
        s1 -= LO
        s1 -= t
        r = HI - s1        # (interval 4: 0 - ((t s - 0) - t) = t - t s)
        r = np.copysign(r, x)
        if mx >= 0x4c000000:                                   # |x| >= 2^25, inf, NaN
            big = ix >= 0x4c000000
            r = np.where(big, np.copysign(_ATAN_HI[3] + _ATAN_LO[3], x), r)
            r = np.where(ix > 0x7f800000, x + x, r)
    return r            # (below 2^-29 these steps give x itself, as the C code's early return)


# ---- cbrtf: glibc's own (x = m 2^e, a quadratic guess u for m^(1/3), one Halley step in double,
# times 2^((e mod 3)/3), then 2^(e div 3); C's truncating / and %) ------------------------------
_CBRT2 = 1.2599210498948731648
_CBRT_FACTOR = np.array([1.0 / (_CBRT2 * _CBRT2), 1.0 / _CBRT2, 1.0, _CBRT2, _CBRT2 * _CBRT2])
_CBRT_U = (0.492659620528969547, 0.697570460207922770, 0.191502161678719066)


# C's truncating e / 3 and the factor 2^((e % 3) / 3) of every frexp exponent e (-148..129 for
# nonzero finite float32; 0 for zero, inf and NaN, which are patched below), from e + _CBRT_OFF
_CBRT_OFF = 160
_CBRT_E = np.arange(-_CBRT_OFF, 200)
_CBRT_Q = (np.trunc(_CBRT_E / 3)).astype(np.int32)
_CBRT_F = _CBRT_FACTOR[2 + _CBRT_E - 3 * _CBRT_Q]


def cbrtf(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    with np.errstate(all="ignore"):
        xm, xe = np.frexp(np.abs(x))
        xmd = xm.astype(_f64)
        u = _CBRT_U[2] * xmd
        np.subtract(_CBRT_U[1], u, out=u)
        u *= xmd
        u += _CBRT_U[0]
        u = u.astype(_f32)
        t2 = u * u
        t2 *= u
        t2 = t2.astype(_f64)
        xe += _CBRT_OFF
        num = 2.0 * xmd
        num += t2
        num *= u                                 # (u * (t2 + 2 m), u widened exactly)
        t2 *= 2.0
        t2 += xmd
        num /= t2
        num *= _CBRT_F.take(xe)
        ym = num.astype(_f32)
        res = np.ldexp(np.copysign(ym, x, out=ym), _CBRT_Q.take(xe), out=ym)
        bad = ~(xm >= _f32(0.5)) | (xm == np.inf)    # zero, inf, NaN (frexp's m: 0, inf, NaN)
        if bool(bad.any()):
            res = np.where(bad, x + x, res)
    return res


# ---- asinf: glibc's float steps (Cephes' polynomial: x + x^3 P(x^2) below 1/2, else
# pi/2 - 2 asin(sqrt((1 - |x|) / 2)) with sqrt split into a 12-bit head and a correction) --------
_ASIN_P = _c32(1.666675248e-1, 7.495297643e-2, 4.547037598e-2, 2.417951451e-2, 4.216630880e-2)
_ASIN_PIO2_HI = _f32(1.57079637050628662109375)
_ASIN_PIO2_LO = _f32(-4.37113900018624283e-8)
_ASIN_PIO4_HI = _f32(0.785398185253143310546875)


def _asin_poly(t):
    r = _horner_ip(t, _ASIN_P)
    r *= t
    return r


def asinf(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    if x.size == 0:
        return x.copy()
    one, two = _f32(1), _f32(2)
    hx = x.view(np.int32)
    ix = hx & 0x7fffffff
    with np.errstate(all="ignore"):
        mn, mx = int(ix.min()), int(ix.max())
        if mn < 0x3f000000:                                     # |x| < 1/2
            res = x * _asin_poly(x * x)
            res += x
        if mx >= 0x3f000000:
            t = (one - np.abs(x)) * _f32(0.5)
            p = _asin_poly(t)
            s = np.sqrt(t)
            if mx >= 0x3f79999a:                                # |x| >= 0.975
                r1 = _ASIN_PIO2_HI - (two * (s + s * p) - _ASIN_PIO2_LO)
            if mn < 0x3f79999a:
                w = _low12_cleared(s)
                c = (t - w * w) / (s + w)
                p2 = two * s * p - (_ASIN_PIO2_LO - two * c)
                q = _ASIN_PIO4_HI - two * w
                r2 = _ASIN_PIO4_HI - (p2 - q)
            r = r1 if mn >= 0x3f79999a else r2 if mx < 0x3f79999a else \
                np.where(ix >= 0x3f79999a, r1, r2)
            r = np.copysign(r, x, out=r)
            res = r if mn >= 0x3f000000 else np.where(ix >= 0x3f000000, r, res)
            if mx >= 0x3f800000:
                one_ = ix == 0x3f800000
                if bool(one_.any()):
                    res = np.where(one_, x * _ASIN_PIO2_HI + x * _ASIN_PIO2_LO, res)
                out = ix > 0x3f800000                           # |x| > 1, NaN
                if bool(out.any()):
                    res = np.where(out, np.arcsin(x), res)
    return res           # (below 2^-27 these steps give x itself, as the C code's early return)


# ---- acosf: fdlibm's float steps (pi/2 - (x + x R(x^2)) below 1/2, else 2 asin(sqrt((1 -+ x) / 2))
# with R = P/Q rational, the sqrt split into a 12-bit head and a correction for x > 1/2) --------
_ACOS_PS = _c32(1.66666666666666657415e-01, -3.25565818622400915405e-01, 2.01212532134862925881e-01,
                -4.00555345006794114027e-02, 7.91534994289814532176e-04, 3.47933107596021167570e-05)
_ACOS_QS = _c32(-2.40339491173441421878e+00, 2.02094576023350569471e+00, -6.88283971605453293030e-01,
                7.70381505559019352791e-02)
_ACOS_PI, _ACOS_PIO2_HI, _ACOS_PIO2_LO = _bits([0x40490fda, 0x3fc90fda, 0x33a22168])


def _acos_r(z):
    p, q = _ACOS_PS, _ACOS_QS
    pp = _horner_ip(z, p)
    pp *= z
    qq = _horner_ip(z, q)
    qq *= z
    qq += _f32(1)
    pp /= qq
    return pp


def acosf(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    if x.size == 0:
        return x.copy()
    one, two, half = _f32(1), _f32(2), _f32(0.5)
    hx = x.view(np.int32)
    ix = hx & 0x7fffffff
    with np.errstate(all="ignore"):
        mn, mx = int(ix.min()), int(ix.max())
        if mn < 0x3f000000:                                     # |x| < 1/2
            res = _ACOS_PIO2_HI - (x - (_ACOS_PIO2_LO - x * _acos_r(x * x)))
        if mx >= 0x3f000000:
            neg = hx < 0
            z = (one - np.abs(x)) * half                       # (1 + x for x < 0: the same)
            s = np.sqrt(z)
            r = _acos_r(z)
            r *= s
            anyneg, allneg = bool(neg.any()), bool(neg.all())
            if anyneg:
                rn = _ACOS_PI - two * (s + (r - _ACOS_PIO2_LO))           # x <= -1/2
            if not allneg:
                df = _low12_cleared(s)
                c = (z - df * df) / (s + df)
                rp = two * (df + (r + c))                                 # x >= 1/2
            rh = rn if allneg else rp if not anyneg else np.where(neg, rn, rp)
            res = rh if mn >= 0x3f000000 else np.where(ix >= 0x3f000000, rh, res)
            if mx >= 0x3f800000:
                one_ = ix == 0x3f800000
                if bool(one_.any()):
                    res = np.where(one_, np.where(neg, _ACOS_PI + two * _ACOS_PIO2_LO, _f32(0)),
                                   res)
                out = ix > 0x3f800000                           # |x| > 1, NaN
                if bool(out.any()):
                    res = np.where(out, np.arccos(x), res)
        if mn <= 0x32800000:
            tiny = ix <= 0x32800000
            res = np.where(tiny, _ACOS_PIO2_HI + _ACOS_PIO2_LO, res)
    return res


# ---- log2f: logf's table-driven algorithm (Arm's, as in glibc 2.28+) with log2 constants:
# log2(x) = k + log2(c_i) + log1p(z/c_i - 1)/ln2, the last a quartic in double --------------------
_LOG2_C = np.array([float.fromhex(v) for v in (
    "-0x1.efec65b963019p-2", "-0x1.b0b6832d4fca4p-2", "-0x1.7418b0a1fb77bp-2", "-0x1.39de91a6dcf7bp-2",
    "-0x1.01d9bf3f2b631p-2", "-0x1.97c1d1b3b7af0p-3", "-0x1.2f9e393af3c9fp-3", "-0x1.960cbbf788d5cp-4",
    "-0x1.a6f9db6475fcep-5", "0x0.0p+0", "0x1.338ca9f24f53dp-4", "0x1.476a9543891bap-3",
    "0x1.e840b4ac4e4d2p-3", "0x1.40645f0c6651cp-2", "0x1.88e9c2c1b9ff8p-2", "0x1.ce0a44eb17bccp-2")])
_LOG2_A = tuple(float.fromhex(v) for v in ("-0x1.712b6f70a7e4dp-2", "0x1.ecabf496832ep-2",
                                           "-0x1.715479ffae3dep-1", "0x1.715475f35c8b8p0"))


def log2f(x):
    x = np.ascontiguousarray(x, dtype=_f32)
    ix = x.view(np.int32)
    with np.errstate(all="ignore"):
        # one check for the rare inputs: subnormal, zero, negative, inf, NaN
        rare = bool(((ix - np.int32(0x00800000)).view(np.uint32) >= np.uint32(0x7f000000)).any())
        sub = (ix < 0x00800000) & (ix > 0) if rare else None
        if rare and bool(sub.any()):                        # subnormal: scale by 2^23 first
            ix = np.where(sub, (x * _f32(2.0 ** 23)).view(np.int32) - np.int32(23 << 23), ix)
        i, k, r = _log_reduce(ix)
        a0, a1, a2, a3 = _LOG2_A
        r2 = r * r
        y = r * a1
        y += a2
        y += a0 * r2
        y *= r2
        p = _LOG2_C.take(i)
        p += k
        r *= a3
        r += p
        y += r
        y = y.astype(_f32)
        bad = (~(x > 0) | (ix >= 0x7f800000)) if rare else None    # 0 -> -inf, inf -> inf,
        if rare and bool(bad.any()):                                # <0/nan -> nan
            y = np.where(bad, np.log2(x), y)
    return y
