"""Special functions: ``gamma``, ``gammaln``, ``erf``, ``erfinv`` and the internal ``_digamma``.

NumPy has none of these, so each is built here from its mathematical definition, on whole
arrays, in float64 (integer and half/single inputs are promoted, and the result is cast back
to the input dtype, as 1.9.1 does):

* log-gamma / gamma: a power series of ``lgamma(2 + e)`` for ``|e| <= 1/2`` (coefficients
  from zeta values) plus the recurrence ``G(z + 1) = z G(z)`` below 24, Stirling's series
  from 24 up, and the reflection formula ``G(x) G(1 - x) = pi / sin(pi x)`` below -1/2;
* erf: a positive-term series ``erf(a) = 2/sqrt(pi) e^(-a^2) sum (2a^2)^n a / (2n+1)!!``
  for small arguments and the Laplace continued fraction of ``erfc`` for large ones;
* erfinv: a closed-form first guess refined by Halley steps on ``erf`` (centre) or ``erfc``
  (tails, where ``1 - |y|`` is exact);
* digamma: the recurrence up to 10, the asymptotic series, and reflection for x < 0.

Special values follow 1.9.1: ``gamma`` is ``nan`` at negative integers and ``+-inf`` at
``+-0``; ``gammaln`` is ``inf`` at every non-positive integer; ``erfinv(+-1) = +-inf`` and
``nan`` outside [-1, 1] (0 for integer dtypes); ``_digamma`` at a pole gives the largest
float64 (what 1.9.1's gradients of ``gamma``/``gammaln`` carry there).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..backend.libm32 import c_math
from . import elemwise as _elemwise
from .elemwise import _reject_bool, _same_shape, _same_type
from .registry import register

__all__ = ["lgamma", "gamma", "digamma", "erf", "erfc", "erfinv"]

_F64 = np.dtype(np.float64)
_PI = math.pi
_EULER_GAMMA = 0.57721566490153286061
_LOG_PI = math.log(math.pi)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
# the constant of 1.9.1's erf gradient (recorded from it; a hair below 2 / sqrt(pi)); as float32
# it is 2 / sqrtf(pi) in float32 arithmetic
_ERF_GRAD_C = 1.1283791331978021
_SQRTF_PI = float(np.sqrt(np.float32(math.pi)))   # 2 / _SQRTF_PI is _ERF_GRAD_C
_SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2.0
_INV_SQRT_PI = 1.0 / math.sqrt(math.pi)
_DBL_MAX = float(np.finfo(np.float64).max)


# ---------------------------------------------------------------------------------------------
# constants derived once, exactly, with rational arithmetic


def _bernoulli(n_max):
    """B_0 .. B_n_max (convention B_1 = -1/2) from sum_{k<=m} C(m+1, k) B_k = 0."""
    b = [Fraction(1)]
    for m in range(1, n_max + 1):
        b.append(-sum(math.comb(m + 1, k) * b[k] for k in range(m)) / (m + 1))
    return b


_B = _bernoulli(24)


def _zeta_minus_one(k, n_head=10, n_corr=10):
    """zeta(k) - 1 for integer k >= 2: a direct head sum plus an Euler-Maclaurin tail."""
    head = sum(Fraction(1, n ** k) for n in range(2, n_head))
    big_n = Fraction(n_head)
    tail = big_n ** (1 - k) / (k - 1) + big_n ** (-k) / 2
    rising = Fraction(k)                       # k (k+1) ... (k + 2j - 2)
    for j in range(1, n_corr + 1):
        tail += _B[2 * j] / math.factorial(2 * j) * rising * big_n ** (-k - 2 * j + 1)
        rising *= (k + 2 * j - 1) * (k + 2 * j)
    return float(head + tail)


# lgamma(2 + e) = (1 - gamma_E) e + sum_{k>=2} (-1)^k (zeta(k) - 1) e^k / k, for |e| < 2.
# 30 terms give float64 accuracy for |e| <= 1/2.
_LG2_COEF = [1.0 - _EULER_GAMMA] + [(-1) ** k * _zeta_minus_one(k) / k for k in range(2, 31)]

# Stirling: lgamma(z) ~ (z - 1/2) log z - z + log(2 pi)/2 + sum_k B_2k / (2k (2k-1) z^(2k-1)).
_STIRLING = [float(_B[2 * k] / (2 * k * (2 * k - 1))) for k in range(1, 9)]
# Digamma: psi(z) ~ log z - 1/(2z) - sum_k B_2k / (2k z^(2k)).
_DIGAMMA_ASYM = [float(_B[2 * k] / (2 * k)) for k in range(1, 9)]

_SMALL_LIMIT = 24.0       # below: series + recurrence; at and above: Stirling
_PSI_SHIFT = 10.0         # digamma recurrence target
_ERF_SPLIT = 2.5          # below: series; at and above: continued fraction
_ERF_SERIES_TERMS = 40
_ERF_CF_TERMS = 42
_ERF_ONE = 6.0            # erf(a) rounds to 1 in float64 from here on


# ---------------------------------------------------------------------------------------------
# kernels on float64 arrays


def _horner(xp, coefs, t):
    acc = xp.full_like(t, coefs[-1])
    for c in reversed(coefs[:-1]):
        acc = acc * t + c
    return acc


def _sinpi(xp, x):
    """sin(pi x), accurate near the zeros (argument reduced exactly to [-1/2, 1/2])."""
    t = x - 2.0 * xp.rint(0.5 * x)                       # in [-1, 1], exact
    u = xp.where(t > 0.5, 1.0 - t, xp.where(t < -0.5, -1.0 - t, t))
    return xp.sin(_PI * u)


def _small_parts(xp, z):
    """For z in [-1/2, 24): (S, P, n) with G(z) = exp(S) P / D(n), D(0)=z(1+z), D(1)=z, else 1.

    ``S = lgamma(2 + e)`` with ``e = z - n``, ``n = round(z)``, and ``P = prod (k + e)`` for
    ``2 <= k < n`` (exactly the factorial at integers).
    """
    n = xp.floor(z + 0.5)
    e = z - n
    s = e * _horner(xp, _LG2_COEF, e)
    p = xp.ones_like(z)
    for k in range(2, int(_SMALL_LIMIT) + 1):
        p = xp.where(n > k, p * (k + e), p)
    return s, p, n


def _stirling_tail(xp, z):
    """The correction series of Stirling's formula (z >= 24)."""
    w = 1.0 / (z * z)
    return _horner(xp, _STIRLING, w) / z


def _reflect_arg(xp, x):
    """z = fl(1 - x) and the rounding error d with 1 - x = z + d exactly (Knuth's TwoSum)."""
    z = 1.0 - x
    bb = z - 1.0
    d = (1.0 - (z - bb)) + (-x - bb)
    return z, d


def _psi_rough(xp, z):
    """log z - 1/(2z): psi(z) to a few digits for z >= 3/2, enough for first-order corrections."""
    return xp.log(z) - 0.5 / z


def lgamma(xp, x):
    """log|Gamma(x)| for a float64 array; ``inf`` at non-positive integers and at +-inf."""
    neg = x < -0.5
    z, dz = _reflect_arg(xp, x)
    z = xp.where(neg, z, x)
    small = z < _SMALL_LIMIT
    zs = xp.where(small, z, 1.0)
    s, p, n = _small_parts(xp, zs)
    corr = xp.where(n == 1.0, xp.log(xp.where(n == 1.0, zs, 1.0)), 0.0)
    z0 = xp.where(n == 0.0, zs, 1.0)
    corr = corr + xp.where(n == 0.0, xp.log(xp.abs(z0)) + xp.log1p(z0), 0.0)
    lg_small = s + xp.log(p) - corr
    zl = xp.where(small | ~xp.isfinite(z), _SMALL_LIMIT, z)
    lg_big = (zl - 0.5) * xp.log(zl) - zl + _HALF_LOG_2PI + _stirling_tail(xp, zl)
    lg = xp.where(small, lg_small, lg_big)
    zc = xp.where(neg & xp.isfinite(z), z, 2.0)
    lg = lg + xp.where(neg, dz * _psi_rough(xp, zc), 0.0)   # lgamma(z + dz), to first order
    lg = xp.where(neg, _LOG_PI - xp.log(xp.abs(_sinpi(xp, x))) - lg, lg)
    pole = (x <= 0) & (xp.floor(x) == x)
    lg = xp.where(pole | xp.isinf(x), np.inf, lg)
    return xp.where(xp.isnan(x), x, lg)


def gamma(xp, x):
    """Gamma(x) for a float64 array; ``nan`` at negative integers and -inf, ``+-inf`` at +-0."""
    neg = x < -0.5
    z, dz = _reflect_arg(xp, x)
    z = xp.where(neg, z, x)
    small = z < _SMALL_LIMIT
    zs = xp.where(small, z, 1.0)
    s, p, n = _small_parts(xp, zs)
    d = xp.where(n == 0.0, zs * (1.0 + zs), xp.where(n == 1.0, zs, 1.0))
    g_small = xp.exp(s) * p / d
    # Stirling, split so that neither factor overflows: G(z) = m h, h = z^((z - 1/2) / 2).
    zl = xp.where(small, _SMALL_LIMIT, xp.minimum(z, 200.0))
    zl = xp.where(xp.isnan(zl), _SMALL_LIMIT, zl)
    h = xp.power(zl, 0.5 * (zl - 0.5))
    m = h * (xp.exp(-zl) * _SQRT_2PI * xp.exp(_stirling_tail(xp, zl)))
    g_pos = xp.where(small, g_small, m * h)
    g_pos = xp.where(z > 180.0, np.inf, g_pos)
    # reflection: G(x) = pi / (sin(pi x) G(1 - x))
    sp = _sinpi(xp, x)
    zc = xp.where(neg & xp.isfinite(z), z, 2.0)
    q = _PI / (sp * (1.0 + dz * _psi_rough(xp, zc)))        # G(z + dz) = G(z) (1 + dz psi(z))
    g_neg = xp.where(small, q / g_small, (q / m) / h)
    g_neg = xp.where(z > 200.0, xp.copysign(0.0, sp), g_neg)
    out = xp.where(neg, g_neg, g_pos)
    bad = ((x < 0) & (xp.floor(x) == x)) | xp.isnan(x)     # negative integers, -inf, nan
    return xp.where(bad, np.nan, out)


def digamma(xp, x):
    """psi(x) = d/dx log Gamma(x) for a float64 array; the largest float64 at the poles."""
    neg = x < 0
    z = xp.where(neg, 1.0 - x, x)
    acc = xp.zeros_like(z)
    for _ in range(int(_PSI_SHIFT)):
        low = z < _PSI_SHIFT
        acc = acc + xp.where(low, 1.0 / xp.where(low, z, 1.0), 0.0)
        z = xp.where(low, z + 1.0, z)
    w = 1.0 / (z * z)
    psi = xp.log(z) - 0.5 / z - w * _horner(xp, _DIGAMMA_ASYM, w) - acc
    r = x - xp.rint(x)                                      # cot(pi x) has period 1
    psi = xp.where(neg, psi - _PI / xp.tan(_PI * r), psi)
    pole = (x <= 0) & (xp.floor(x) == x)
    return xp.where(pole, _DBL_MAX, psi)


# 1.9.1's float32 gradients of gamma and gammaln take psi from Cephes' algorithm with float
# variables: reflection for x <= 0 (psi(1 - x) less pi / tanf(pi * f), f the distance to the
# nearest integer, in float; 0 where f is 1/2), a table for the
# positive integers up to 10, else the upward recurrence to 10 (each 1/s added in double and
# rounded to float), then log(s) - 0.5/s - s**-2 * P(s**-2) - w in double, rounded once (P a
# cubic in float, logf and tanf the C library's). Emulated step for step here (for arrays of
# up to _LIBM_MAX elements, 2-3x the float64 series' time); checked against 1.9.1 on 5,500
# arguments in (-6, 1000): no difference.
_PSI_A32 = tuple(np.float32(v) for v in (-4.16666666666666666667E-3, 3.96825396825396825397E-3,
                                         -8.33333333333333333333E-3, 8.33333333333333333333E-2))


def _psi_int_table():
    out = [np.float32(np.inf)]
    for n in range(1, 11):
        y = np.float32(0)
        for i in range(1, n):
            y = np.float32(float(y) + 1.0 / i)
        out.append(np.float32(float(y) - _EULER_GAMMA))
    return np.array(out, np.float32)


_PSI_INT32 = _psi_int_table()


def digamma_f32(x):
    """psi of float32 ``x`` (NumPy) as 1.9.1's float kernels compute it; inf at the poles."""
    from ..backend.libm32 import logf
    f32, f64 = np.float32, np.float64
    x = np.asarray(x, dtype=f32)
    with np.errstate(all="ignore"):
        neg = x <= 0
        fl = np.floor(x)
        nz = x - fl
        nz = np.where(nz > 0.5, x - (fl + f32(1)), nz)
        cot = np.zeros(x.shape, f32)
        refl = neg & (nz != 0.5) & (fl != x)
        if refl.any():   # pi / tanf(pi * nz), all in float (tanf the C library's)
            arg = f32(_PI) * nz[refl]
            tanf = c_math("tanf")
            t = tanf(arg).astype(f32) if tanf is not None else np.tan(arg.astype(f64)).astype(f32)
            cot[refl] = f32(_PI) / t
        nz = cot
        z = np.where(neg, (1.0 - x.astype(f64)).astype(f32), x)
        w = np.zeros(z.shape, f32)
        for _ in range(10):
            low = z < 10
            if not low.any():
                break
            w = np.where(low, (w + 1.0 / z.astype(f64)).astype(f32), w)
            z = np.where(low, z + f32(1), z)
        zz = f32(1) / (z * z)
        a = np.full(z.shape, _PSI_A32[0], f32)
        for c in _PSI_A32[1:]:
            a = a * zz + c
        tail = np.where(z < 1.0e8, zz * a, f32(0))
        y = (logf(np, z).astype(f64) - 0.5 / z.astype(f64) - tail - w).astype(f32)
        xi = np.where(neg, (1.0 - x.astype(f64)).astype(f32), x)
        small_int = (xi <= 10) & (xi == np.floor(xi))
        if small_int.any():
            y = np.where(small_int, _PSI_INT32[np.clip(xi, 0, 10).astype(np.int64)], y)
        y = np.where(neg, y - nz, y)
        y = np.where(neg & (fl == x), f32(np.inf), y)
        return np.where(np.isnan(x), x, y)


def _erf_series(xp, a):
    t = 2.0 * a * a
    acc = xp.ones_like(a)
    for k in range(_ERF_SERIES_TERMS, 0, -1):
        acc = 1.0 + acc * (t / (2 * k + 1))
    return _TWO_OVER_SQRT_PI * xp.exp(-a * a) * a * acc


def _erfc_cf(xp, a):
    f = a
    for k in range(_ERF_CF_TERMS, 0, -1):
        f = a + (0.5 * k) / f
    return xp.exp(-a * a) * _INV_SQRT_PI / f


def _erf_erfc_pos(xp, a):
    """(erf(a), erfc(a)) for a >= 0 (or nan), each accurate relative to its own size."""
    lo = a < _ERF_SPLIT
    hi = ~lo
    ef = xp.empty_like(a)
    ec = xp.empty_like(a)
    s = _erf_series(xp, a[lo])
    ef[lo] = s
    ec[lo] = 1.0 - s
    c = _erfc_cf(xp, a[hi])
    ec[hi] = c
    ef[hi] = 1.0 - c
    return ef, ec


def erf(xp, x):
    """The error function of a float64 array."""
    a = xp.abs(x)
    ef, _ = _erf_erfc_pos(xp, a)
    ef = xp.where(a >= _ERF_ONE, 1.0, ef)
    return xp.copysign(ef, x)


def erfc(xp, x):
    """The complementary error function of a float64 array."""
    a = xp.abs(x)
    ef, ec = _erf_erfc_pos(xp, a)
    return xp.where(x < 0, 1.0 + ef, ec)


_WINITZKI_A = 0.147


def erfinv(xp, y):
    """The inverse error function of a float64 array: +-inf at +-1, nan outside [-1, 1]."""
    a = xp.abs(y)
    q = 1.0 - a                                             # exact where it is used (a > 1/2)
    tail = a > 0.5
    # First guess (Winitzki's closed form, ~2e-3 relative), with log(1 - a^2) computed stably.
    log1ma2 = xp.where(tail, xp.log(xp.where(tail, q, 1.0)) + xp.log1p(a),
                       xp.log1p(-a * a))
    b = 2.0 / (_PI * _WINITZKI_A) + 0.5 * log1ma2
    guess = xp.sqrt(xp.sqrt(b * b - log1ma2 / _WINITZKI_A) - b)
    x = xp.where(a < 1e-3, _SQRT_PI_OVER_2 * a * (1.0 + (_PI / 12.0) * a * a), guess)
    x = xp.where(a < 1.0, x, 1.0)                           # keep the iteration finite
    # Halley steps on f = erf(x) - a (centre) or f = erfc(x) - q (tails); f'' = -2 x f'.
    for _ in range(3):
        ef, ec = _erf_erfc_pos(xp, x)
        d = _TWO_OVER_SQRT_PI * xp.exp(-x * x)
        u = xp.where(tail, q - ec, ef - a) / d
        x = x - u / (1.0 + x * u)
    out = xp.copysign(x, y)
    out = xp.where(a == 1.0, xp.copysign(np.inf, y), out)
    return xp.where((a > 1.0) | xp.isnan(y), np.nan, out)


# ---------------------------------------------------------------------------------------------
# registration


# 1.9.1's CPU kernels of gamma and gammaln call the C library: tgammaf/lgammaf for float16 and
# float32 data (through float) and tgamma/lgamma for float64. glibc's are not correctly rounded
# (float32 results up to 5 ulp from the exact value, which the series above gives: the two
# disagree on about half the float32 arguments of gamma and a third of gammaln's, and on half
# the float64 ones). Floating-point arrays of up to _LIBM_MAX elements therefore call the C
# library itself, one call per element (~0.25 us each: faster than the series up to ~500
# elements, ~3x slower at 16,384); larger arrays, and other backends, keep the series.
_LIBM_MAX = 1 << 14
_LIBM_NAMES = {"gamma": "tgamma", "gammaln": "lgamma"}
_LIBM_FNS = {}


def _libm_call(name, x):
    """``name``'s C library function applied to float array ``x`` (same dtype), or None."""
    key = (name, x.dtype == _F64)
    fn = _LIBM_FNS.get(key, False)
    if fn is False:
        fn = _LIBM_FNS[key] = c_math(_LIBM_NAMES[name] + ("" if key[1] else "f"),
                                     double=key[1])
    if fn is None:
        return None
    with np.errstate(all="ignore"):
        xin = x if key[1] else x.astype(np.float32)
        return np.asarray(fn(xin), dtype=np.float64 if key[1] else np.float32).astype(x.dtype)


def _kernel(fn, nan_to_zero=False):
    """A compute function: promote to float64, apply ``fn``, cast back to the input dtype.

    Casting follows a C cast, so integer outputs truncate toward zero and inf/nan become what
    the platform's conversion gives; ``nan_to_zero`` maps nan to 0 first (1.9.1's ``erfinv``
    returns 0 for out-of-domain integer inputs).
    """
    def compute(rc, attrs, x):
        xp = rc.xp
        _reject_bool(compute.__name__, x)
        if compute.__name__ in _LIBM_NAMES and xp is np and x.dtype.kind == "f" and \
                x.itemsize >= 2 and x.size <= _LIBM_MAX:
            out = _libm_call(compute.__name__, x)
            if out is not None:
                return out
        if compute.__name__ == "_digamma" and xp is np and x.dtype == np.float32 and \
                x.size <= _LIBM_MAX:
            return digamma_f32(x)
        if compute.__name__ == "erf" and xp is np and x.dtype == np.float32 and \
                0 < x.size <= _elemwise.LIBM_EXACT_MAX:
            from ..backend.libm32_more import erff   # glibc's erff, as 1.9.1's kernel calls it
            return erff(x.reshape(-1)).reshape(x.shape)
        out = fn(xp, x.astype(_F64, copy=False))
        if out.dtype == x.dtype:
            return out
        if compute.__name__ == "erfinv" and x.dtype == np.float16:
            out = out.astype(np.float32)     # 1.9.1's half kernel rounds through float
        if nan_to_zero and x.dtype.kind in "iub":
            out = xp.where(xp.isnan(out), 0.0, out)
        if xp is not np and x.dtype.kind in "iu":
            return _x86_cast(xp, out, x.dtype)
        return out.astype(x.dtype)
    return compute


def _x86_cast(xp, v, dtype):
    """float64 -> integer as the CPU (x86-64) converts: out-of-range values and nan/inf give
    the "integer indefinite" value of the 32- or 64-bit conversion, which narrower types then
    truncate. GPUs saturate instead; this keeps both devices' results equal."""
    wide = np.int64 if dtype.itemsize == 8 or dtype == np.uint32 else np.int32
    info = np.iinfo(wide)
    ok = xp.isfinite(v) & (v > float(info.min) - 1.0) & (v < float(info.max) + 1.0)
    return xp.where(ok, v, float(info.min)).astype(wide).astype(dtype)


def _gamma_grad(F, attrs, inputs, outputs, og):
    # 1.9.1: the head gradient times (gamma(x) * psi(x)), that product rounded first
    return [og[0] * (outputs[0] * F._digamma(inputs[0]))]


def _gammaln_grad(F, attrs, inputs, outputs, og):
    return [og[0] * F._digamma(inputs[0])]


def _erf_grad(F, attrs, inputs, outputs, og):
    x, g = inputs[0], og[0]
    if getattr(x, "dtype", None) == np.float16 and getattr(g, "dtype", None) == np.float16:
        # 1.9.1's half kernel: x * x in float16, the exp and the constant in float32, the
        # derivative rounded once to float16, then times the head gradient
        d = F.exp(-F.square(x).astype("float32")) * _ERF_GRAD_C
        return [g * d.astype("float16")]
    # 1.9.1: g * (C * exp(-x*x)), the derivative rounded to the dtype first; in float32 that
    # product (formed in double) equals 2 * exp(-x*x) / sqrtf(pi) in float32 arithmetic
    e = F.exp(-F.square(x))
    if getattr(x, "dtype", None) == np.float32:
        return [g * (e * 2.0 / _SQRTF_PI)]
    return [g * (e * _ERF_GRAD_C)]


def _erfinv_grad(F, attrs, inputs, outputs, og):
    # 1.9.1: g * (sqrt(pi)/2 * exp(y*y)), the constant in the data's dtype, the derivative
    # formed first
    y = outputs[0]
    c = np.float32(_SQRT_PI_OVER_2) if getattr(y, "dtype", None) == np.float32 else \
        _SQRT_PI_OVER_2
    return [og[0] * (F.exp(F.square(y)) * c)]


_SPECIAL = [
    ("gamma", gamma, _gamma_grad, False,
     "Elementwise gamma function Gamma(x); nan at negative integers, +-inf at +-0."),
    ("gammaln", lgamma, _gammaln_grad, False,
     "Elementwise log of the absolute value of the gamma function; inf at non-positive integers."),
    ("erf", erf, _erf_grad, False, "Elementwise Gauss error function."),
    ("erfinv", erfinv, _erfinv_grad, True,
     "Elementwise inverse error function; +-inf at +-1 and nan outside [-1, 1]."),
    ("_digamma", digamma, None, False,
     "Elementwise digamma (psi) function, the derivative of gammaln; internal helper used by "
     "the gradients of gamma and gammaln."),
]

def _half_grad(grad):
    """``grad`` as 1.9.1's half backward kernels compute it for float16: the derivative from
    float32 values, rounded once to float16, times the head gradient."""
    if grad is None:
        return None

    def g16(F, attrs, inputs, outputs, og):
        x, g = inputs[0], og[0]
        if getattr(x, "dtype", None) == np.float16 and getattr(g, "dtype", None) == np.float16:
            x32 = x.astype("float32")
            # gamma's derivative reads gamma(x) itself, which the half kernel takes in float
            y32 = F.gamma(x32) if grad is _gamma_grad else outputs[0].astype("float32")
            d = grad(F, attrs, [x32], [y32], [F.ones_like(x).astype("float32")])[0]
            return [g * d.astype("float16")]
        return grad(F, attrs, inputs, outputs, og)
    return g16


for _name, _fn, _grad, _nan0, _doc in _SPECIAL:
    _compute = _kernel(_fn, _nan0)
    _compute.__name__ = _name
    register(_name, _compute, gradient=_grad if _name == "erf" else _half_grad(_grad),
             infer_shape=_same_shape, infer_type=_same_type,
             inplace=((0, 0),), doc=_doc)
