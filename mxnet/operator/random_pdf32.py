"""Float32 densities of ``_random_pdf_*`` in 1.9.1's own arithmetic (NumPy backend).

1.9.1's CPU kernels evaluate each density element by element in a mix of float and double:
some values are kept as float (a parameter's log-gamma, ``alpha * log(beta)``), others are
formed in double (``log`` and ``lgamma`` of a float, which C++ promotes) and rounded once at
the end. The gradients of the parameters are then summed over the sample axes with the
compensated (Kahan) float steps of 1.9.1's sum. The steps below were found by probing 1.9.1
with random inputs: they give its bits for every output we compared (see the tests), where
the float64 closed forms of ``random_ops`` differ from it by up to hundreds of ulp.

Each entry of ``PDF32`` is ``(forward, grads)``:

* ``forward(x, *params, is_log)`` returns the float32 density or log-density;
* ``grads(x, *params, sc)`` returns the per-element gradients (sample's shape, or
  broadcastable to it; None for a zero gradient) of the sample and each parameter, where
  ``sc`` is the output gradient times the density (for the density) or the output gradient
  itself (for the log-density).

The parameters come reshaped so that they broadcast against the sample.
"""
from __future__ import annotations

import numpy as np

from ..backend.libm32 import c_math, logf
from .random_ops import _SQRT_2PI_F as _SQRT_2PI   # sqrt(2 pi), pi being float's

_f32 = np.float32
_f64 = np.float64
_ONE = _f32(1)

# float64 lgamma through the C library for up to this many elements (~0.25 us each), the
# float64 series of ``special`` beyond (it agrees with glibc's to about an ulp of float64,
# which moves the float32 result only when that lies within 1e-9 of a rounding boundary)
_LGAMMA_C_MAX = 1 << 14
# psi in 1.9.1's float steps for up to this many elements; float64 psi rounded beyond
_PSI32_MAX = 1 << 16
# parameter gradients summed over at most this many samples each take 1.9.1's compensated
# steps (4 NumPy calls per sample); longer sums are carried in float64 and rounded once
KAHAN_MAX = 128


def _special():
    from . import special  # noqa: PLC0415 - sibling module
    return special


def _lgamma64(v):
    """glibc's double lgamma of float array ``v`` (float64 result)."""
    v = np.asarray(v, _f64)
    if v.size <= _LGAMMA_C_MAX:
        fn = c_math("lgamma", double=True)
        if fn is not None:
            return np.asarray(fn(v), dtype=_f64).reshape(v.shape)
    return _special().lgamma(np, v)


def _psi32(v):
    v = np.asarray(v, _f32)
    sp = _special()
    if v.size <= _PSI32_MAX:
        return sp.digamma_f32(v).reshape(v.shape)
    return sp.digamma(np, v.astype(_f64)).astype(_f32)


def _d(v):
    return np.asarray(v, _f64)


def _r(v):
    return np.asarray(v, _f64).astype(_f32)


# ---- normal: exponent in float; normaliser sqrt(2 pi) s rounded to float, pi being float's --
def _normal(x, mu, sigma, is_log):
    d = x - mu
    e = (_f32(-0.5) * d * d) / (sigma * sigma)
    norm = _d(_r(_SQRT_2PI * _d(sigma)))
    if is_log:
        return _r(_d(e) - np.log(norm))
    return _r(np.exp(_d(e)) / norm)


def _normal_grads(x, mu, sigma, sc):
    d = x - mu
    sq = sigma * sigma
    g_mu = sc * d / sq
    g_sigma = sc * (d * d - sq) / (sq * sigma)
    return [-g_mu, g_mu, g_sigma]


# ---- uniform: 1 / (high - low) and -logf(high - low) everywhere ------------------------------
def _uniform(x, low, high, is_log):
    w = high - low
    out = -logf(np, w) if is_log else _ONE / w
    return np.broadcast_to(out, np.broadcast_shapes(x.shape, w.shape))


def _uniform_grads(x, low, high, sc):
    g = sc / (high - low)
    return [None, g, -g]


# ---- exponential -------------------------------------------------------------------------------
def _exponential(x, lam, is_log):
    lx = lam * x
    if is_log:
        return logf(np, lam) - lx
    return _r(_d(lam) * np.exp(_d(-lx)))


def _exponential_grads(x, lam, sc):
    return [-sc * lam, sc * (_ONE / lam - x)]


# ---- gamma (shape alpha, rate beta) ------------------------------------------------------------
def _gamma_log(x, a, b):
    a_log_b = _d(_r(_d(a) * np.log(_d(b))))
    lg_a = _d(_r(_lgamma64(a)))
    return _r(a_log_b + _d(a - _ONE) * np.log(_d(x)) - _d(b * x) - lg_a)


def _gamma(x, a, b, is_log):
    lpdf = _gamma_log(x, a, b)
    return lpdf if is_log else _r(np.exp(_d(lpdf)))


def _gamma_grads(x, a, b, sc):
    g_x = sc * ((a - _ONE) / x - b)
    g_a = _r(_d(sc) * (_d(logf(np, b)) + np.log(_d(x)) - _d(_psi32(a))))
    g_b = sc * (a / b - x)
    return [g_x, g_a, g_b]


# ---- poisson -------------------------------------------------------------------------------------
def _poisson(x, lam, is_log):
    lpdf = _r(_d(x * logf(np, lam)) - _d(lam) - _lgamma64(x + _ONE))
    return lpdf if is_log else _r(np.exp(_d(lpdf)))


def _poisson_grads(x, lam, sc):
    return [None, sc * (x / lam - _ONE)]


# ---- negative binomial (k failures, success probability p) -------------------------------------
def _nbinom(x, k, p, is_log):
    lpdf = _r(_lgamma64(x + k) - _lgamma64(x + _ONE) - _d(_r(_lgamma64(k)))
              + _d(k) * np.log(_d(p)) + _d(x) * np.log(_d(_ONE - p)))
    return lpdf if is_log else _r(np.exp(_d(lpdf)))


def _nbinom_grads(x, k, p, sc):
    g_k = _r(_d(sc) * (_d(_psi32(x + k) - _psi32(k)) + np.log(_d(p))))
    g_p = sc * (k / p - x / (_ONE - p))
    return [None, g_k, g_p]


# ---- generalized negative binomial (mean mu, dispersion alpha): a negative binomial with
# k = 1 / alpha and p = 1 / (1 + alpha mu), both rounded to float; here lgamma(k) stays double
def _gen_nbinom(x, mu, alpha, is_log):
    k = _r(1.0 / _d(alpha))
    p = _r(1.0 / (1.0 + _d(alpha * mu)))
    lpdf = _r(_lgamma64(x + k) - _lgamma64(x + _ONE) - _lgamma64(k)
              + _d(k) * np.log(_d(p)) + _d(x) * np.log(_d(_ONE - p)))
    return lpdf if is_log else _r(np.exp(_d(lpdf)))


def _gen_nbinom_grads(x, mu, alpha, sc):
    # the negative binomial's gradients in k and p, then the chain rule in float
    k = _r(1.0 / _d(alpha))
    p = _r(1.0 / (1.0 + _d(alpha * mu)))
    _, g_k, g_p = _nbinom_grads(x, k, p, sc)
    opa = _ONE + alpha * mu
    g_mu = -g_p * alpha / (opa * opa)
    g_alpha = -g_k / (alpha * alpha) + -g_p * mu / (opa * opa)
    return [None, g_mu, g_alpha]


# ---- dirichlet: the classes on the last axis; float running sums, each term formed in double --
def _dirichlet(x, alpha, is_log):
    terms = np.zeros(x.shape[:-1], _f32)
    lgs = np.zeros_like(terms)
    t = np.broadcast_to(_d(alpha - _ONE) * np.log(_d(x)), x.shape)
    lg = np.broadcast_to(_lgamma64(alpha), x.shape)
    for j in range(x.shape[-1]):
        terms = _r(_d(terms) + t[..., j])
        lgs = _r(_d(lgs) + lg[..., j])
    lpdf = _r(_lgamma64(_dirichlet_total(x, alpha)) - _d(lgs) + _d(terms))
    return lpdf if is_log else _r(np.exp(_d(lpdf)))


def _dirichlet_total(x, alpha):
    """The classes' alphas added in float, class after class."""
    a = np.broadcast_to(alpha, x.shape)
    total = np.zeros(x.shape[:-1], _f32)
    for j in range(x.shape[-1]):
        total = total + a[..., j]
    return total


def _dirichlet_grads(x, alpha, sc):
    sc = sc[..., None]
    psi_total = _psi32(_dirichlet_total(x, alpha))[..., None]
    g_x = sc * (alpha - _ONE) / x
    g_a = _r(_d(sc) * (_d(psi_total - _psi32(np.broadcast_to(alpha, x.shape))) + np.log(_d(x))))
    return [g_x, g_a]


PDF32 = {
    "normal": (_normal, _normal_grads),
    "uniform": (_uniform, _uniform_grads),
    "exponential": (_exponential, _exponential_grads),
    "gamma": (_gamma, _gamma_grads),
    "poisson": (_poisson, _poisson_grads),
    "negative_binomial": (_nbinom, _nbinom_grads),
    "generalized_negative_binomial": (_gen_nbinom, _gen_nbinom_grads),
    "dirichlet": (_dirichlet, _dirichlet_grads),
}


def sum_samples(g, nb, ne):
    """Sum float32 ``g`` (shape P + E + ...) over its sample axes E (``ne`` axes after the
    ``nb`` batch axes) as 1.9.1 does: compensated float steps, sample after sample."""
    if not ne:
        return g + _f32(0)
    shape = g.shape
    batch = shape[:nb]
    tail = shape[nb + ne:]
    n = int(np.prod(shape[nb:nb + ne], dtype=np.int64))
    m = g.reshape(batch + (n,) + tail)
    if n > KAHAN_MAX or n == 0:
        return np.add(m.sum(axis=nb, dtype=_f64), 0, dtype=_f32, casting="unsafe")
    from .reduce import kahan_down
    return kahan_down(np.ascontiguousarray(np.moveaxis(m, nb, 0)))
