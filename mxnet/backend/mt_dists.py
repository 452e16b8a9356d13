"""1.9.1's CPU random distributions, drawn bit for bit from its generator states.

Two generators feed 1.9.1's CPU random operators, both ``std::mt19937`` (NumPy's legacy
MT19937 is the same engine, so its raw words are the engine's outputs):

- the parallel sampler states (:class:`~mxnet.backend.mt_parallel.ParallelMT`): the
  ``mx.nd.random`` samplers (exponential, gamma, poisson, negative binomial, generalized
  negative binomial).  An ``n``-element call splits into the chunks of ``ParallelMT.chunks(n)``;
  element ``i`` of chunk ``k`` draws from state ``k`` after the chunk's earlier elements.  An
  element's rejection loop can take any number of words.  With one parameter set for the
  whole call, every word position of every chunk is parsed at once as a possible start (see
  ``_Positions``); with per-element parameters the chunks run in lock step (``_Lanes``): each
  step draws one element for every chunk still short of its end.  Either way each state gets
  back the words its chunk did not use;
- the single engine (:class:`~mxnet.backend.mt_parallel.SerialMT`, ``seed * 127``): the
  ``mx.nd.random.shuffle`` index draws (``std::uniform_int_distribution`` of the old libstdc++:
  ``floor(word / (2**32 // range))``, retrying words at or past ``range * (2**32 // range)``),
  the uniforms behind ``mx.nd.random.multinomial`` and every ``mx.np.random`` sampler here.

Measured algorithms (every value equal to 1.9.1's in the recorded cases):

- exponential: ``-log(1.0 - u) / lambda`` in double (``u`` the canonical float of the output
  type; float16 draws float64 uniforms);
- gamma: Marsaglia and Tsang with a fresh polar normal per try (``d = a - 1/3``, or ``a + 2/3``
  when ``a < 1``; ``c = 1/sqrt(9d)``); in float32, ``x = 1 + c*Z`` and ``V = x*x*x`` are float
  arithmetic, the test ``log(1 - u) < Z*Z/2 + d*(1 - V + logf(V))`` is double, the sample is
  ``d*V*beta`` in float; ``a < 1`` multiplies by ``pow(u, float(1/a))`` (double) after
  acceptance; float64 is the same in double throughout; float16 is float32's, rounded;
- poisson (always float draws, whatever the output type): Knuth's product of uniforms against
  ``expf(-lambda)`` below 12, else the rejection method with ``tanf(pi*u)``, ``lgammaf`` and
  ``expf`` (glibc's functions: tanf and lgammaf are called through ctypes when libm loads);
- negative binomial: ``poisson(gamma(k, (1 - p) / p))``; generalized: ``poisson(gamma(1/alpha,
  alpha*mu))``, or ``poisson(mu)`` when ``alpha == 0`` (float32 draws);
- multinomial: one float32 canonical uniform per sample (row after row), the first category
  whose running sum of probabilities (in the probabilities' type) exceeds it, else the
  number of categories (one past the last, as 1.9.1 gives);
- shuffle: 1-d arrays get libstdc++'s ``std::shuffle`` (forward swaps of ``i`` with a draw
  in ``[0, i]``); n-d arrays a backward Fisher-Yates over the first axis (``i`` from
  ``len - 1`` down to 1 swaps with a draw in ``[0, i]``);
- ``mx.np.random``: each function's docstring gives its transform of the single engine's
  uniforms (exponential, logistic, gumbel, rayleigh, weibull, pareto, power, bernoulli,
  choice, lognormal) or its own scheme (gamma, chisquare, beta, multinomial).

glibc's double ``log``/``exp``/``pow`` are called one value at a time (NumPy's differ in the
last bit now and then); where a float result is wanted, NumPy's value is used unless it lies
within a few double ulps of a rounding boundary (``_rounded``).
"""
from __future__ import annotations

import math

import numpy as np

from .mt_parallel import ParallelMT, SerialMT
from .libm32 import c_math, expf as _expf32, logf as _logf32
from .mt_parallel import canonical_f32, canonical_f64

__all__ = ["exponential", "gamma", "poisson", "negative_binomial", "np_exponential",
           "np_rayleigh", "np_pareto", "np_weibull", "np_power", "np_gumbel", "np_logistic",
           "np_bernoulli", "np_choice", "np_uniforms", "np_gamma", "np_chisquare", "np_beta",
           "np_lognormal", "np_multinomial",
           "generalized_negative_binomial", "multinomial", "shuffle", "shuffle_permutation",
           "per_element", "randint_upto", "ParallelMT", "SerialMT"]

_f32 = np.float32
_f64 = np.float64
_TWO32 = 4294967296.0
_M32 = 0xFFFFFFFF


# ---- glibc's double and float functions ------------------------------------------------------
_log_d = np.frompyfunc(math.log, 1, 1)      # glibc log; NumPy's SIMD log differs in ~0.3%
_pow_d = np.frompyfunc(math.pow, 2, 1)      # glibc pow; NumPy's power differs in ~5%


def _glog(x):
    x = np.asarray(x, dtype=_f64)
    if x.size == 0:
        return x.copy()
    with np.errstate(all="ignore"):
        ok = x > 0
        if ok.all():
            return _log_d(x).astype(_f64)
        out = np.log(x)
        out[ok] = _log_d(x[ok]).astype(_f64)
    return out


def _gpow(x, y):
    x, y = np.broadcast_arrays(np.asarray(x, dtype=_f64), np.asarray(y, dtype=_f64))
    if x.size == 0:
        return np.empty(x.shape, _f64)
    return _pow_d(x, y).astype(_f64)


def _rounded(fast, eps, exact, dtype=_f32):
    """``exact`` (double values) rounded to ``dtype``, from ``fast``, an approximation within
    ``eps`` of it: where every value within ``eps`` of ``fast`` rounds alike, that is the
    answer; elsewhere ``exact(positions)`` is computed (glibc's functions, one by one)."""
    out = fast.astype(dtype)
    with np.errstate(all="ignore"):
        amb = (fast - eps).astype(dtype) != (fast + eps).astype(dtype)
    if amb.any():
        idx = np.flatnonzero(amb)
        out.reshape(-1)[idx] = np.asarray(exact(idx), dtype=_f64).astype(dtype)
    return out


_E49 = 2.0 ** -49          # a few double ulps, relative: NumPy's log/exp/power error bound


def _libm():
    fns = [c_math(name) for name in ("tanf", "lgammaf", "logf", "expf")]
    return None if None in fns else fns   # no C library: round the double results


_LIBM = _libm()


def _tanf(x):
    x = np.asarray(x, dtype=_f32)
    if x.size == 0:
        return x.copy()
    if _LIBM is not None:
        return _LIBM[0](x).astype(_f32)
    return np.tan(x.astype(_f64)).astype(_f32)


_LGAMMAF_CACHE: dict = {}


_LG_TABLE = np.zeros(0, _f32)       # lgammaf(1), lgammaf(2), ...
_LG_MAX = 1 << 16


def _lgammaf(x):
    """glibc's lgammaf of float32 values (the arguments here are mostly small integers: a
    table serves those)."""
    global _LG_TABLE
    x = np.asarray(x, dtype=_f32)
    if x.size > 64:
        isint = (x >= 1) & (x < _LG_MAX) & (x == np.floor(x))
        if isint.any():
            top = int(x[isint].max())
            if top > len(_LG_TABLE):
                size = 1 << max(10, (top - 1).bit_length())
                _LG_TABLE = _lgammaf_list(np.arange(1, size + 1, dtype=_f32))
            out = np.empty(x.shape, _f32)
            out[isint] = _LG_TABLE[x[isint].astype(np.int64) - 1]
            if not isint.all():
                out[~isint] = _lgammaf_list(x[~isint])
            return out
    return _lgammaf_list(x)


def _lgammaf_list(x):
    uniq, inv = np.unique(x, return_inverse=True)
    vals = np.empty(len(uniq), _f32)
    for j, v in enumerate(uniq.tolist()):
        r = _LGAMMAF_CACHE.get(v)
        if r is None:
            if _LIBM is not None:
                r = _f32(_LIBM[1](_f32(v)))
            else:
                r = _f32(math.lgamma(v)) if v > 0 or v != int(v) else _f32(np.inf)
            if len(_LGAMMAF_CACHE) < 100000:
                _LGAMMAF_CACHE[v] = r
        vals[j] = r
    return vals[inv.reshape(x.shape)]


def _logf(x):
    x = np.asarray(x, dtype=_f32)
    if x.size <= 24 and _LIBM is not None:      # a few values: calling glibc is cheaper
        return _LIBM[2](x).astype(_f32) if x.size else x.copy()
    return _logf32(np, x)


def _expf(x):
    x = np.asarray(x, dtype=_f32)
    if x.size <= 24 and _LIBM is not None:
        return _LIBM[3](x).astype(_f32) if x.size else x.copy()
    return _expf32(np, x)


# ---- the chunks of one sampler call, run in lock step ----------------------------------------
class _Lanes:
    """One lane per chunk of an ``n``-element call: a growing buffer of words taken from
    each chunk's state and a pointer to the next unread one."""

    def __init__(self, pm, n, words_per_element=2):
        self.pm = pm
        self.chunks = pm.chunks(n)
        self.keys = [k for _, _, k in self.chunks]
        nl = len(self.chunks)
        self.start = np.array([a for a, _, _ in self.chunks], dtype=np.int64)
        self.length = np.array([b - a for a, b, _ in self.chunks], dtype=np.int64)
        self.ptr = np.zeros(nl, dtype=np.int64)
        step = int(self.length.max()) if nl else 0
        self.buf = np.zeros((nl, 0), dtype=np.uint32)
        self._grow(int(step * words_per_element * 1.25) + 64)

    def _grow(self, extra):
        if not self.keys:
            return
        more = np.stack([self.pm.take(k, extra) for k in self.keys]).astype(np.uint32)
        self.buf = np.concatenate([self.buf, more], axis=1) if self.buf.shape[1] else more

    def take(self, lanes, m=1):
        """The next ``m`` words of each lane in ``lanes`` (shape (len(lanes), m))."""
        p = self.ptr[lanes]
        if len(p):
            need = int(p.max()) + m
            cap = self.buf.shape[1]
            if need > cap:
                self._grow(max(need - cap, cap // 2, 256))
        w = self.buf[lanes[:, None], p[:, None] + np.arange(m)]
        self.ptr[lanes] += m
        return w

    def finish(self):
        """Hand each state back the words its chunk did not use."""
        for i, k in enumerate(self.keys):
            self.pm.give_back(k, self.buf[i, int(self.ptr[i]):].copy())
        self.buf = self.buf[:, :0]

    def run(self, n, fn, out_dtype):
        """Element ``j`` of every chunk, for j = 0, 1, ...: ``fn(lanes, idx)`` draws one value
        for each lane in ``lanes``, whose output positions are ``idx``."""
        out = np.empty(n, dtype=out_dtype)
        if n <= 0:
            return out
        for j in range(int(self.length.max())):
            lanes = np.flatnonzero(self.length > j)
            idx = self.start[lanes] + j
            out[idx] = fn(lanes, idx)
        self.finish()
        return out


def _uniform32(L, lanes):
    return canonical_f32(L.take(lanes, 1)[:, 0])


def _uniform64(L, lanes):
    w = L.take(lanes, 2)
    return canonical_f64(w[:, 0], w[:, 1])


def _normal32(L, lanes):
    """A fresh libstdc++ polar-method normal (float) for every lane."""
    out = np.empty(len(lanes), _f32)
    pend = np.arange(len(lanes))
    while len(pend):
        u = canonical_f32(L.take(lanes[pend], 2))
        x = (2.0 * u[:, 0].astype(_f64) - 1.0).astype(_f32)
        y = (2.0 * u[:, 1].astype(_f64) - 1.0).astype(_f32)
        r2 = x * x + y * y
        ok = (r2 <= 1) & (r2 != 0)
        if ok.any():
            rt = r2[ok]
            with np.errstate(all="ignore"):
                out[pend[ok]] = y[ok] * np.sqrt(_f32(-2) * _logf(rt) / rt)
        pend = pend[~ok]
    return out


def _normal64(L, lanes):
    out = np.empty(len(lanes), _f64)
    pend = np.arange(len(lanes))
    while len(pend):
        w = L.take(lanes[pend], 4)
        x = 2.0 * canonical_f64(w[:, 0], w[:, 1]) - 1.0
        y = 2.0 * canonical_f64(w[:, 2], w[:, 3]) - 1.0
        r2 = x * x + y * y
        ok = (r2 <= 1) & (r2 != 0)
        if ok.any():
            rt = r2[ok]
            out[pend[ok]] = y[ok] * np.sqrt(-2.0 * _glog(rt) / rt)
        pend = pend[~ok]
    return out


def per_element(param, n, nparm=None):
    """Each of ``n`` elements' parameter: 1.9.1's samplers give element ``i`` parameter
    ``i // (1 + (n - 1) // nparm)``; a scalar (an operator attribute, so rounded to float32)
    serves every element."""
    p = np.asarray(param)
    if p.ndim == 0:                 # an operator attribute: a C float
        return np.full(n, _f32(p[()]), dtype=_f32)
    p = p.reshape(-1)
    nparm = len(p) if nparm is None else nparm
    if n <= 0:
        return p[:0]
    nbatch = 1 + (n - 1) // nparm
    return p[np.arange(n) // nbatch]


def _constant(p):
    return bool(p[0] == p[-1]) and bool((p == p[0]).all())


def _param_type(*params):
    """Double when a parameter array is float64 (1.9.1 then computes with double parameters),
    else float."""
    return _f64 if any(np.asarray(p).dtype == _f64 and np.ndim(p) > 0 for p in params) else _f32


# ---- the samplers ----------------------------------------------------------------------------
def exponential(pm, n, lam, dtype="float32"):
    """``n`` exponential draws with rate ``lam`` (scalar or per-element array) in ``dtype``;
    ``mx.nd.random.exponential(scale=s)`` has ``lam = 1/s`` (in the output type)."""
    dtype = np.dtype(dtype)
    lam = per_element(lam, n).astype(_f64)
    if dtype == np.float32:
        u = pm.uniform_f32(n).astype(_f64)
    else:
        u = pm.uniform_f64(n)
    with np.errstate(all="ignore"):
        if dtype == np.float64:
            return -_glog(1.0 - u) / lam
        fast = -np.log(1.0 - u) / lam
        # float16 goes through float (mshadow's half from double rounds to float first)
        return _rounded(fast, np.abs(fast) * _E49,
                        lambda i: -_glog(1.0 - u[i]) / lam[i]).astype(dtype)


def _gamma_lanes(L, lanes, a, b, f64):
    """One Marsaglia-Tsang gamma draw per lane (parameters ``a``, ``b`` per lane)."""
    if f64:
        a = a.astype(_f64)
        b = b.astype(_f64)
        d = np.where(a < 1, a + 2.0 / 3.0, a - 1.0 / 3.0)
        k = np.sqrt(9.0 * d)
        c = 1.0 / k
        out = np.empty(len(lanes), _f64)
    else:       # float draws; double parameters stay double where C++ would keep them
        a64 = a.astype(_f64)
        d = np.where(a < 1, a64 + 2.0 / 3.0, a64 - 1.0 / 3.0).astype(_f32)
        k = np.sqrt(9.0 * d.astype(_f64)).astype(_f32)
        c = (1.0 / k.astype(_f64)).astype(_f32)
        out = np.empty(len(lanes), _f32)
    pend = np.arange(len(lanes))
    while len(pend):
        ln = lanes[pend]
        z = _normal64(L, ln) if f64 else _normal32(L, ln)
        ok = z > -k[pend]
        sel = pend[ok]
        zs = z[ok]
        if len(sel):
            with np.errstate(all="ignore"):
                if f64:
                    x = 1.0 + c[sel] * zs
                    v = x * x * x
                    lu = _glog(1.0 - _uniform64(L, lanes[sel]))
                    rhs = 0.5 * zs * zs + d[sel] * (1.0 - v + _glog(v))
                else:
                    x = _f32(1) + c[sel] * zs
                    v = x * x * x
                    lu = _glog(1.0 - _uniform32(L, lanes[sel]).astype(_f64))
                    z64 = zs.astype(_f64)
                    rhs = 0.5 * z64 * z64 + d[sel].astype(_f64) * (
                        1.0 - v.astype(_f64) + _logf(v).astype(_f64))
            acc = lu < rhs
            done = sel[acc]
            if f64 or b.dtype != _f64:
                out[done] = d[done] * v[acc] * b[done]
            else:       # float d*V, then times the double scale
                out[done] = ((d[done] * v[acc]).astype(_f64) * b[done]).astype(_f32)
            finished = np.zeros(len(pend), bool)
            finished[np.flatnonzero(ok)[acc]] = True
            pend = pend[~finished]
    small = np.flatnonzero(a < 1)
    if len(small):
        if f64:
            u = _uniform64(L, lanes[small])
            out[small] = out[small] * _gpow(u, 1.0 / a[small])
        else:
            u = _uniform32(L, lanes[small]).astype(_f64)
            inv = (1.0 / a64[small]).astype(_f32)     # 1/a is rounded to float
            out[small] = (out[small].astype(_f64) * _gpow(u, inv)).astype(_f32)
    return out


# ---- one parameter for the whole call: every word position parsed at once ----------------------
# With the same parameters for every element, the words a try takes depend only on where it
# starts.  So every position of every chunk's buffer is treated as a possible start: the
# quantities that decide the control flow are computed for all positions at once (with NumPy's
# fast functions, and with glibc's exact ones only where a comparison is too close to call),
# pointer jumping finds the accepted try reached from each start, and one gather per element
# index walks each chunk from its first word.  Only the accepted tries' values are computed
# exactly.
_BIG = np.int64(1) << 40


def _next_valid(valid, stride):
    """For each position, the first position at or after it (same residue mod ``stride``)
    where ``valid`` holds; ``_BIG`` where there is none."""
    nl, cols = valid.shape
    idx = np.where(valid, np.arange(cols, dtype=np.int64), _BIG)
    out = np.empty_like(idx)
    for r in range(stride):
        sub = idx[:, r::stride]
        out[:, r::stride] = np.minimum.accumulate(sub[:, ::-1], axis=1)[:, ::-1]
    return out


def _settle(nxt, final):
    """Pointer jumping: follow ``nxt`` (shape (lanes, cols + 1), column ``cols`` a sink) from
    every position until a position where ``final`` holds (or the sink)."""
    nl, cols1 = nxt.shape
    base = (np.arange(nl, dtype=np.int64) * cols1)[:, None]
    flat = np.where(final, np.arange(cols1, dtype=np.int64)[None, :], nxt)
    flat = np.minimum(flat, cols1 - 1) + base
    flat = flat.reshape(-1)
    while True:
        nf = flat[flat]
        if np.array_equal(nf, flat):
            break
        flat = nf
    return (flat.reshape(nl, cols1) - base)


def _rejection_constants(lam):
    """The float32 constants of the poisson rejection method for rates ``lam``:
    sqrt(2 * lam), logf(lam) and lam * logf(lam) - lgammaf(lam + 1)."""
    sq = np.sqrt(2.0 * lam.astype(_f64)).astype(_f32)
    ll = _logf(lam)
    return sq, ll, lam * ll - _lgammaf((lam.astype(_f64) + 1.0).astype(_f32))


def _parse_all(P, parse):
    """``parse()`` over the candidate positions ``P``, which grow until it succeeds; the states
    are then left just past the words used. Returns parse's (starts, ends, ...) tuple."""
    while True:
        res = parse()
        if res is not None:
            break
        P.grow()
    P.finish(res[1])
    return res


class _Positions:
    """The buffers of words of the chunks of one call, parsed from every position."""

    def __init__(self, pm, n, words_per_element):
        self.pm = pm
        self.chunks = pm.chunks(n)
        self.keys = [k for _, _, k in self.chunks]
        self.start = np.array([a for a, _, _ in self.chunks], dtype=np.int64)
        self.length = np.array([b - a for a, b, _ in self.chunks], dtype=np.int64)
        self.step = int(self.length.max()) if self.keys else 0
        cap = int(self.step * words_per_element * 1.2) + 48
        self.buf = np.stack([pm.take(k, cap) for k in self.keys]).astype(np.uint32) \
            if self.keys else np.zeros((0, cap), np.uint32)

    def grow(self):
        extra = self.buf.shape[1] // 2 + 64
        more = np.stack([self.pm.take(k, extra) for k in self.keys]).astype(np.uint32)
        self.buf = np.concatenate([self.buf, more], axis=1)

    def walk(self, jump, ok):
        """Element starts, element after element: ``jump[lane, p]`` is where the element
        starting at ``p`` ends (shape (lanes, cols + 1)); ``ok`` says whether that is known.
        Returns (starts (lanes, step), ends per lane), or None when a lane runs past its
        buffer."""
        nl = len(self.keys)
        rows = np.arange(nl)
        cur = np.zeros(nl, dtype=np.int64)
        starts = np.zeros((nl, self.step), dtype=np.int64)
        for j in range(self.step):
            act = self.length > j
            starts[:, j] = cur
            if not ok[rows, cur][act].all():
                return None
            cur = np.where(act, jump[rows, cur], cur)
        return starts, cur

    def finish(self, ends):
        for i, k in enumerate(self.keys):
            self.pm.give_back(k, self.buf[i, int(ends[i]):].copy())

    def gather(self, arr, starts):
        """``arr[lane, starts[lane, j]]`` in output order (chunk after chunk)."""
        nl = len(self.keys)
        vals = arr[np.arange(nl)[:, None], starts]
        mask = np.arange(self.step)[None, :] < self.length[:, None]
        return vals[mask]


def _gamma_const(pm, n, a, b, f64):
    """Gamma draws with one (alpha, beta) for the whole call (see the section comment)."""
    if f64:
        d = a + 2.0 / 3.0 if a < 1 else a - 1.0 / 3.0
        k = math.sqrt(9.0 * d)
        c = 1.0 / k
        wu, wp = 2, 4               # words per uniform, per polar pair
    else:
        a64 = float(a)
        d = _f32(a64 + 2.0 / 3.0 if a < 1 else a64 - 1.0 / 3.0)
        k = _f32(math.sqrt(9.0 * float(d)))
        c = _f32(1.0 / float(k))
        wu, wp = 1, 2
    small = a < 1
    tail = wp + wu + (wu if small else 0)   # an accepted try's words after its pair start
    P = _Positions(pm, n, (3.0 * wp / 2.0 + 1.5 * wu) * (1.3 if small else 1.1) + 0.5)
    starts, ends, acc_at, z_exact = _parse_all(P, lambda: _gamma_parse(P, d, k, c, f64, wu,
                                                                      wp, tail))
    if f64:
        x = 1.0 + c * z_exact
        v = x * x * x
        out = d * v * _f64(b)
        if small:
            w = P.gather(P.buf, acc_at + wp + wu), P.gather(P.buf, acc_at + wp + wu + 1)
            out = out * _gpow(canonical_f64(*w), 1.0 / float(a))
        return out
    x = _f32(1) + c * z_exact
    v = x * x * x
    out = d * v * _f32(b)
    if small:
        u = canonical_f32(P.gather(P.buf, acc_at + wp + wu)).astype(_f64)
        inv = float(_f32(1.0 / float(a)))
        o64 = out.astype(_f64)
        with np.errstate(all="ignore"):
            fast = o64 * np.power(u, inv)
        out = _rounded(fast, np.abs(fast) * (4 * _E49),
                       lambda i: o64[i] * _gpow(u[i], inv))
    return out


def _gamma_parse(P, d, k, c, f64, wu, wp, tail):
    nl, cols = P.buf.shape
    at, X, Y, r2 = _gamma_tries(P.buf, d, k, c, f64, wu, wp)
    ok = (at < cols) & (at + tail <= cols)
    jump = np.where(ok, at + tail, cols)
    walked = P.walk(jump, ok)
    if walked is None:
        return None
    starts, ends = walked
    acc_at = at[np.arange(nl)[:, None], starts]
    acc_at_flat = P.gather(at, starts)
    sel = (np.repeat(np.arange(nl), [int(x) for x in P.length]), acc_at_flat)
    z_exact = _polar_exact(X[sel], Y[sel], r2[sel], f64)
    return starts, ends, acc_at, z_exact


def _gamma_tries(buf, d, k, c, f64, wu, wp):
    """For every position of ``buf`` (lanes, cols): the pair position of the accepted try a
    gamma draw starting there reaches (``cols`` where the buffer ends first), and the pair
    arrays (x, y, r2 per position)."""
    nl, cols = buf.shape
    if f64:
        un = canonical_f64(buf[:, :-1], buf[:, 1:])          # the canonical double at each position
        xs = 2.0 * un - 1.0
        X, Y = xs[:, :-2], xs[:, 2:]
    else:
        un = canonical_f32(buf)
        xs = (2.0 * un.astype(_f64) - 1.0).astype(_f32)
        X, Y = xs[:, :-1], xs[:, 1:]
    with np.errstate(all="ignore"):
        r2 = X * X + Y * Y
        valid = (r2 <= 1) & (r2 != 0)
        z = Y * np.sqrt((-2.0 if f64 else _f32(-2)) * np.log(r2) / r2)    # near glibc's
    m = valid.shape[1]
    # the try at a valid pair q: its uniform follows the pair
    uacc = un[:, wp:wp + m]
    mm = uacc.shape[1]
    zq = z[:, :mm]
    vq = valid[:, :mm]
    with np.errstate(all="ignore"):
        if f64:
            xx = 1.0 + c * zq
            v = xx * xx * xx
            lv = np.log(v)
            lhs = np.log(1.0 - uacc)
            rhs = 0.5 * zq * zq + d * (1.0 - v + lv)
            scale = 1e-9
        else:
            xx = _f32(1) + c * zq
            v = xx * xx * xx
            lv = np.log(v).astype(_f64)
            lhs = np.log(1.0 - uacc.astype(_f64))
            z64 = zq.astype(_f64)
            v64 = v.astype(_f64)
            rhs = 0.5 * z64 * z64 + float(d) * (1.0 - v64 + lv)
            scale = 1e-5
        cond = zq > -k
        acc = cond & (lhs < rhs)
        mag = 1.0 + np.abs(lhs) + np.abs(rhs) + float(d) * (np.abs(v.astype(_f64)) +
                                                             np.abs(lv))
        # near Z = -k, x = 1 + cZ is small and its relative error large: decide exactly
        border = vq & ((np.abs(zq.astype(_f64) + float(k)) < scale * (1.0 + float(k))) |
                       (xx < 0.01) | (cond & ~(np.abs(lhs - rhs) > scale * mag)))
    if border.any():                       # too close to call: glibc's functions decide
        bi = np.nonzero(border)
        ze = _polar_exact(X[bi], Y[bi], r2[bi], f64)
        if f64:
            xe = 1.0 + c * ze
            ve = xe * xe * xe
            ce = ze > -k
            with np.errstate(all="ignore"):
                ae = ce & (_glog(1.0 - uacc[bi]) < 0.5 * ze * ze + d * (1.0 - ve + _glog(ve)))
        else:
            xe = _f32(1) + c * ze
            ve = xe * xe * xe
            ce = ze > -k
            ze64 = ze.astype(_f64)
            with np.errstate(all="ignore"):
                ae = ce & (_glog(1.0 - uacc[bi].astype(_f64)) < 0.5 * ze64 * ze64 + float(d) * (
                    1.0 - ve.astype(_f64) + _logf(ve).astype(_f64)))
        cond[bi] = ce
        acc[bi] = ae
    acc &= vq
    # a try starting anywhere: its pair is the next valid one of the same residue
    q = _next_valid(vq, wp)                                   # (nl, mm)
    qc = np.minimum(q, mm - 1)
    rows = np.arange(nl)[:, None]
    known = q < mm
    acc_q = acc[rows, qc] & known
    end_q = np.where(cond[rows, qc], qc + wp + wu, qc + wp)
    nxt = np.full((nl, cols + 1), cols, dtype=np.int64)       # column ``cols``: the sink
    nxt[:, :mm] = np.where(known, np.where(acc_q, qc, end_q), cols)
    final = np.zeros((nl, cols + 1), dtype=bool)
    final[:, :mm] = acc
    final[:, cols] = True
    return _settle(nxt, final), X, Y, r2


def _gamma_poisson_const(pm, n, ga, gb):
    """poisson(gamma(ga, gb)) draws (float), one (ga, gb) for the whole call: the negative
    binomials.  Every position is parsed as a start as in :func:`_gamma_const`; the poisson
    part, whose rate differs from start to start, runs for all starts at once.  Rates of 12
    and more need glibc's lgammaf of each start's own rate, one call each: the callers keep
    to small means and short chunks, where this beats the lock step."""
    a, b = _f32(ga), _f32(gb)
    a64 = float(a)
    d = _f32(a64 + 2.0 / 3.0 if a < 1 else a64 - 1.0 / 3.0)
    k = _f32(math.sqrt(9.0 * float(d)))
    c = _f32(1.0 / float(k))
    small = bool(a < 1)
    tail = 3 + (1 if small else 0)
    mean = float(a) * float(b)
    P = _Positions(pm, n, 6.5 + (mean + 1.5 if mean < 12 else 4.0))
    return _parse_all(P, lambda: _gamma_poisson_parse(P, a, b, d, k, c, small, tail))[2]


def _gamma_poisson_parse(P, a, b, d, k, c, small, tail):
    buf = P.buf
    nl, cols = buf.shape
    at, X, Y, r2 = _gamma_tries(buf, d, k, c, False, 1, 2)
    okg = (at < cols) & (at + tail <= cols)                 # (nl, cols + 1)
    # the gamma value of every accepted try some start reaches
    mark = np.zeros(nl * cols, dtype=bool)
    rows1 = np.broadcast_to(np.arange(nl)[:, None], at.shape)
    mark[(rows1 * cols + np.minimum(at, cols - 1))[okg]] = True
    idx = np.flatnonzero(mark)
    ri, ci = idx // cols, idx % cols
    z = _polar_exact(X[ri, ci], Y[ri, ci], r2[ri, ci], False)
    x = _f32(1) + c * z
    v = x * x * x
    val = d * v * b
    if small:
        u = canonical_f32(buf[ri, ci + 3]).astype(_f64)
        inv = float(_f32(1.0 / float(a)))
        o64 = val.astype(_f64)
        with np.errstate(all="ignore"):
            fast = o64 * np.power(u, inv)
        val = _rounded(fast, np.abs(fast) * (4 * _E49), lambda i: o64[i] * _gpow(u[i], inv))
    lam_at = np.zeros(nl * cols, dtype=_f32)
    lam_at[idx] = val
    lam = lam_at[(rows1 * cols + np.minimum(at, cols - 1))]
    end, cnt, okp = _poisson_from(canonical_f32(buf), at + tail, lam, okg)
    ok = okg & okp
    jump = np.where(ok, end, cols)
    walked = P.walk(jump, ok)
    if walked is None:
        return None
    starts, ends = walked
    return starts, ends, P.gather(cnt, starts)


def _poisson_from(u, start, lam, mask):
    """One poisson draw (rate ``lam``) beginning at word ``start``, for every position where
    ``mask`` holds (arrays of shape (lanes, cols + 1); ``u`` the (lanes, cols) uniforms).
    Returns (end, value, known)."""
    nl, cols = u.shape
    shp = start.shape
    end = np.full(shp, cols, dtype=np.int64)
    cnt = np.zeros(shp, dtype=np.int64)
    known = np.zeros(shp, dtype=bool)
    sel = np.flatnonzero(mask)
    row = sel // shp[1]
    g = start.reshape(-1)[sel]
    la = lam.reshape(-1)[sel]
    inside = g < cols
    sel, row, g, la = sel[inside], row[inside], g[inside], la[inside]
    uf = u.reshape(-1)
    knuth = la < 12.0
    # Knuth's products, every start at once
    ks, kr, kg = sel[knuth], row[knuth], g[knuth]
    t = _expf(-la[knuth])
    f = kr * cols + kg
    lim = (kr + 1) * cols
    p = uf[f]
    m = 0
    live = np.arange(len(ks))
    done_cnt = np.zeros(len(ks), dtype=np.int64)
    lost = np.zeros(len(ks), dtype=bool)
    while True:
        go = p > t[live]
        done_cnt[live[~go]] = m
        live, p = live[go], p[go]
        if not len(live):
            break
        m += 1
        out = f[live] + m >= lim[live]
        if out.any():
            lost[live[out]] = True
            live, p = live[~out], p[~out]
        p = p * uf[f[live] + m]
    ok = ~lost
    cnt.reshape(-1)[ks[ok]] = done_cnt[ok]
    end.reshape(-1)[ks[ok]] = kg[ok] + done_cnt[ok] + 1
    known.reshape(-1)[ks[ok]] = True
    # the rejection method, try after try for every start at once
    big = ~knuth
    if big.any():
        bs, br, cur = sel[big], row[big], g[big].copy()
        lb = la[big]
        sq, ll, gg = _rejection_constants(lb)
        live = np.arange(len(bs))
        while len(live):
            out = cur[live] + 1 >= cols
            live = live[~out]
            if not len(live):
                break
            rr, cc = br[live], cur[live]
            ang = _PI_F * u[rr, cc]
            y = np.tan(ang.astype(_f64)).astype(_f32)
            em = sq[live] * y + lb[live]
            with np.errstate(all="ignore"):
                tol = 2 * np.spacing(np.abs(em)) + _f32(4e-7) * sq[live] * np.abs(y)
                near = np.abs(em - np.round(em)) <= tol
            if near.any():
                y[near] = _tanf(ang[near])
                em[near] = sq[live][near] * y[near] + lb[live][near]
            neg = em < 0.0
            cur[live[neg]] += 1
            pos = ~neg
            lv, yv, ev = live[pos], y[pos], np.floor(em[pos])
            u1 = u[br[lv], cur[lv] + 1]
            with np.errstate(all="ignore"):
                arg = ev * ll[lv] - _lgammaf((ev.astype(_f64) + 1.0).astype(_f32)) - gg[lv]
                tt = (0.9 * (1.0 + (yv * yv).astype(_f64)) *
                      np.exp(arg).astype(_f64)).astype(_f32)
                close = ~(np.abs(u1 - tt) > _f32(1e-5) * tt)
            if close.any():
                ye = _tanf(_PI_F * u[br[lv[close]], cur[lv[close]]])
                ee = np.floor(sq[lv[close]] * ye + lb[lv[close]])
                arg = ee * ll[lv[close]] - _lgammaf((ee.astype(_f64) + 1.0).astype(_f32)) \
                    - gg[lv[close]]
                tt[close] = (0.9 * (1.0 + (ye * ye).astype(_f64)) *
                             _expf(arg).astype(_f64)).astype(_f32)
                ev[close] = ee
            acc = ~(u1 > tt)
            fin = lv[acc]
            cnt.reshape(-1)[bs[fin]] = ev[acc].astype(np.int64)
            end.reshape(-1)[bs[fin]] = cur[fin] + 2
            known.reshape(-1)[bs[fin]] = True
            cur[lv[~acc]] += 2
            live = np.concatenate([live[neg], lv[~acc]])
    return end, cnt, known


def _polar_exact(x, y, r2, f64):
    """libstdc++'s polar value ``y * sqrt(-2 log(r2) / r2)`` with glibc's log (logf)."""
    with np.errstate(all="ignore"):
        if f64:
            return y * np.sqrt(-2.0 * _glog(r2) / r2)
        return y * np.sqrt(_f32(-2) * _logf(r2) / r2)



def _poisson_const(pm, n, lam):
    """Poisson draws with one rate for the whole call (see the section comment)."""
    lam = _f32(lam)
    small = bool(lam < 12.0)
    P = _Positions(pm, n, (float(lam) + 1.0) * 1.1 + 1.0 if small else 4.0)
    return _parse_all(P, lambda: _knuth_parse(P, lam) if small else
                      _rejection_parse(P, lam))[2]


def _knuth_parse(P, lam):
    t = _expf(np.array([-lam], dtype=_f32))[0]
    u = canonical_f32(P.buf)
    nl, cols = u.shape
    uf = u.reshape(-1)
    cnt = np.zeros(nl * cols, dtype=np.int64)
    known = np.ones(nl * cols, dtype=bool)
    f = np.flatnonzero(uf > t)                 # starts still multiplying
    lim = (f // cols + 1) * cols               # the end of each start's row
    p = uf[f]
    m = 0
    while len(f):
        m += 1
        out = f + m >= lim
        if out.any():
            known[f[out]] = False
            f, lim, p = f[~out], lim[~out], p[~out]
        p = p * uf[f + m]
        keep = p > t
        cnt[f[~keep]] = m
        f, lim, p = f[keep], lim[keep], p[keep]
    cnt = cnt.reshape(nl, cols)
    known = known.reshape(nl, cols)
    jump = np.full((nl, cols + 1), cols, dtype=np.int64)
    jump[:, :cols] = np.where(known, np.arange(cols) + cnt + 1, cols)
    ok = np.zeros((nl, cols + 1), dtype=bool)
    ok[:, :cols] = known
    walked = P.walk(jump, ok)
    if walked is None:
        return None
    starts, ends = walked
    return starts, ends, P.gather(cnt, starts)


def _rejection_parse(P, lam):
    sq = _f32(math.sqrt(2.0 * float(lam)))
    ll = _logf(np.array([lam], dtype=_f32))[0]
    g = lam * ll - _lgammaf(np.array([_f32(float(lam) + 1.0)]))[0]
    u = canonical_f32(P.buf)
    nl, cols = u.shape
    ang = _PI_F * u
    y = np.tan(ang.astype(_f64)).astype(_f32)             # glibc's tanf where it matters
    em = sq * y + lam
    with np.errstate(all="ignore"):
        tol = 2 * np.spacing(np.abs(em)) + _f32(4e-7) * sq * np.abs(y)
        near = np.abs(em - np.round(em)) <= tol           # floor (or sign) too close to call
    if near.any():
        bi = np.nonzero(near)
        y[bi] = _tanf(ang[bi])
        em[bi] = sq * y[bi] + lam
    valid = ~(em < 0.0)
    mm = cols - 1
    vq = valid[:, :mm]
    emf = np.floor(em[:, :mm])
    uacc = u[:, 1:]
    with np.errstate(all="ignore"):
        t = np.zeros((nl, mm), dtype=_f32)
        vi = np.nonzero(vq)
        e = emf[vi]
        arg = e * ll - _lgammaf((e.astype(_f64) + 1.0).astype(_f32)) - g
        yy = y[:, :mm][vi]
        t[vi] = (0.9 * (1.0 + (yy * yy).astype(_f64)) *
                 np.exp(arg).astype(_f64)).astype(_f32)
        close = np.zeros((nl, mm), dtype=bool)
        close[vi] = ~(np.abs(uacc[vi] - t[vi]) > _f32(1e-5) * t[vi])
    if close.any():                                       # exact tanf and expf decide
        bi = np.nonzero(close)
        ye = _tanf(ang[:, :mm][bi])
        ee = np.floor(sq * ye + lam)
        arg = ee * ll - _lgammaf((ee.astype(_f64) + 1.0).astype(_f32)) - g
        t[bi] = (0.9 * (1.0 + (ye * ye).astype(_f64)) * _expf(arg).astype(_f64)).astype(_f32)
        emf[bi] = ee
    acc = vq & ~(uacc > t)
    q = _next_valid(vq, 1)
    qc = np.minimum(q, mm - 1)
    rows = np.arange(nl)[:, None]
    known = q < mm
    nxt = np.full((nl, cols + 1), cols, dtype=np.int64)
    nxt[:, :mm] = np.where(known, np.where(acc[rows, qc], qc, qc + 2), cols)
    final = np.zeros((nl, cols + 1), dtype=bool)
    final[:, :mm] = acc
    final[:, cols] = True
    at = _settle(nxt, final)
    ok = (at < mm) & (at + 2 <= cols)
    jump = np.where(ok, at + 2, cols)
    walked = P.walk(jump, ok)
    if walked is None:
        return None
    starts, ends = walked
    vals = np.zeros((nl, cols + 1), dtype=np.int64)
    vals[:, :mm] = np.where(acc, emf, 0).astype(np.int64)
    return starts, ends, P.gather(vals, at[np.arange(nl)[:, None], starts])

def gamma(pm, n, alpha, beta, dtype="float32"):
    """``n`` gamma(shape ``alpha``, scale ``beta``) draws (parameters scalar or per element)
    in ``dtype``: float64 draws in double, float32 and float16 in float (with float
    parameters, or double ones when an array of them is float64)."""
    dtype = np.dtype(dtype)
    f64 = dtype == np.float64
    pt = _f64 if f64 else _param_type(alpha, beta)
    a = per_element(alpha, n).astype(pt)
    b = per_element(beta, n).astype(pt)
    if n > 0 and pt == (_f64 if f64 else _f32) and _constant(a) and _constant(b):
        return _gamma_const(pm, n, a[0], b[0], f64).astype(dtype)
    L = _Lanes(pm, n, 12 if f64 else 6)
    out = L.run(n, lambda lanes, idx: _gamma_lanes(L, lanes, a[idx], b[idx], f64),
                _f64 if f64 else _f32)
    return out.astype(dtype)


_PI_F = _f32(3.1415926)


def _poisson_lanes(L, lanes, lam):
    """One poisson draw per lane, rate ``lam`` (float32) per lane."""
    lam = np.asarray(lam, dtype=_f32)
    out = np.zeros(len(lanes), np.int64)
    small = np.flatnonzero(lam < 12.0)
    if len(small):          # Knuth: count the uniforms whose running product stays above t
        t = _expf(-lam[small])
        prod = _uniform32(L, lanes[small])
        pend = np.flatnonzero(prod > t)
        while len(pend):
            out[small[pend]] += 1
            prod[pend] = prod[pend] * _uniform32(L, lanes[small[pend]])
            pend = pend[prod[pend] > t[pend]]
    big = np.flatnonzero(~(lam < 12.0))
    if len(big):
        lb = lam[big]
        sq, ll, g = _rejection_constants(lb)
        pend = np.arange(len(big))
        while len(pend):
            ln = lanes[big[pend]]
            y = np.empty(len(pend), _f32)
            em = np.empty(len(pend), _f32)
            need = np.arange(len(pend))
            while len(need):            # draw until sq*y + lam is not negative
                yy = _tanf(_PI_F * _uniform32(L, ln[need]))
                ee = sq[pend[need]] * yy + lb[pend[need]]
                y[need] = yy
                em[need] = ee
                need = need[ee < 0.0]
            em = np.floor(em)
            with np.errstate(all="ignore"):
                ex = _expf(em * ll[pend] - _lgammaf((em.astype(_f64) + 1.0).astype(_f32))
                           - g[pend])
                t = (0.9 * (1.0 + (y * y).astype(_f64)) * ex.astype(_f64)).astype(_f32)
            u = _uniform32(L, ln)
            acc = ~(u > t)
            out[big[pend[acc]]] = em[acc].astype(np.int64)
            pend = pend[~acc]
    return out


def poisson(pm, n, lam, dtype="float32"):
    """``n`` poisson draws of rate ``lam`` (scalar or per element); the draws are float
    whatever ``dtype`` is."""
    lam = per_element(lam, n).astype(_f32)
    # every-position parsing costs ~(lam + 1) products per word: for Knuth's method it only
    # pays while chunks are short (up to 64 elements); longer chunks run in lock step
    if n > 0 and _constant(lam) and (not lam[0] < 12.0 or n <= 64 * 1024):
        return _poisson_const(pm, n, lam[0]).astype(np.dtype(dtype))
    L = _Lanes(pm, n, 3)
    out = L.run(n, lambda lanes, idx: _poisson_lanes(L, lanes, lam[idx]), np.int64)
    return out.astype(np.dtype(dtype))


def negative_binomial(pm, n, k, p, dtype="float32"):
    """``n`` negative binomial draws: failures before the ``k``-th success, success
    probability ``p`` (scalars or per element)."""
    pt = _param_type(k, p)
    k = per_element(k, n).astype(pt).astype(_f32)
    p = per_element(p, n).astype(pt)
    with np.errstate(all="ignore"):
        beta = ((pt(1) - p) / p).astype(_f32)
    if 0 < n <= 8192 and _constant(k) and _constant(beta) and k[0] > 0 and \
            float(k[0]) * float(beta[0]) < 6.0:
        return _gamma_poisson_const(pm, n, k[0], beta[0]).astype(np.dtype(dtype))
    L = _Lanes(pm, n, 9)

    def one(lanes, idx):
        lam = _gamma_lanes(L, lanes, k[idx], beta[idx], False)
        return _poisson_lanes(L, lanes, lam)
    return L.run(n, one, np.int64).astype(np.dtype(dtype))


def generalized_negative_binomial(pm, n, mu, alpha, dtype="float32"):
    """``n`` generalized negative binomial draws (mean ``mu``, dispersion ``alpha``)."""
    pt = _param_type(mu, alpha)
    mu = per_element(mu, n).astype(pt)
    alpha = per_element(alpha, n).astype(pt)
    with np.errstate(all="ignore"):
        ga = pt(1) / alpha
        gb = alpha * mu
    if n > 0 and _constant(mu) and _constant(alpha):
        if alpha[0] == 0:           # no gamma draw: poisson(mu)
            return poisson(pm, n, mu[0], dtype)
        if n <= 8192 and pt == _f32 and ga[0] > 0 and float(ga[0]) * float(gb[0]) < 6.0:
            return _gamma_poisson_const(pm, n, ga[0], gb[0]).astype(np.dtype(dtype))
    L = _Lanes(pm, n, 9)

    def one(lanes, idx):
        al = alpha[idx]
        lam = mu[idx].astype(_f32)
        g = np.flatnonzero(al != 0)
        if len(g):
            lam[g] = _gamma_lanes(L, lanes[g], ga[idx][g], gb[idx][g], False)
        return _poisson_lanes(L, lanes, lam)
    return L.run(n, one, np.int64).astype(np.dtype(dtype))


# ---- the single engine: shuffle and multinomial ----------------------------------------------
def randint_upto(sm, highs):
    """One old-libstdc++ ``uniform_int_distribution(0, h)`` draw from the single engine ``sm``
    (a :class:`SerialMT`) for each ``h`` in ``highs``, in order: ``word // (2**32 // (h + 1))``,
    a word at or past ``(h + 1) * (2**32 // (h + 1))`` being thrown away."""
    highs = np.asarray(highs, dtype=np.uint64)
    m = len(highs)
    out = np.empty(m, dtype=np.uint64)
    if m == 0:
        return out
    uer = highs + np.uint64(1)
    scale = np.uint64(_M32) // uer
    past = uer * scale
    pos = 0
    while pos < m:
        w = sm.take(0, m - pos + 8).astype(np.uint64)
        bad = np.flatnonzero(w[:m - pos] >= past[pos:])
        if len(bad) == 0:
            out[pos:] = w[:m - pos] // scale[pos:]
            sm.give_back(0, w[m - pos:].astype(np.uint32))
            break
        stop = int(bad[0])              # word ``stop`` is thrown away; go on after it
        out[pos:pos + stop] = w[:stop] // scale[pos:pos + stop]
        sm.give_back(0, w[stop + 1:].astype(np.uint32))
        pos += stop
        while True:
            v = int(sm.take(0, 1)[0])
            if v < int(past[pos]):
                out[pos] = v // int(scale[pos])
                break
        pos += 1
    return out


def shuffle_permutation(sm, length, ndim=1):
    """The order 1.9.1's ``shuffle`` puts ``length`` items (first-axis rows) in: output item
    ``i`` is input item ``perm[i]``."""
    perm = list(range(length))
    if length <= 1:
        return np.array(perm, dtype=np.int64)
    if ndim == 1:
        js = randint_upto(sm, np.arange(1, length)).tolist()
        for i, j in enumerate(js, 1):
            perm[i], perm[j] = perm[j], perm[i]
    else:
        js = randint_upto(sm, np.arange(length - 1, 0, -1)).tolist()
        for i, j in zip(range(length - 1, 0, -1), js):
            perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, dtype=np.int64)


def shuffle(sm, data):
    """``mx.nd.random.shuffle(data)`` drawn from ``sm`` (a :class:`SerialMT`)."""
    data = np.asarray(data)
    if data.ndim == 0:
        return data.copy()
    return data[shuffle_permutation(sm, data.shape[0], data.ndim)]


def multinomial(sm, prob, shape=(), get_prob=False, dtype="int32"):
    """``mx.nd.random.multinomial(prob, shape)`` drawn from ``sm``: samples of shape
    ``prob.shape[:-1] + shape`` (and the log probability of each when ``get_prob``)."""
    prob = np.asarray(prob)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    kcat = prob.shape[-1]
    rows = prob.reshape(-1, kcat)
    nrow = rows.shape[0]
    m = int(np.prod(shape)) if shape else 1
    u = sm.uniform_f32(nrow * m).reshape(nrow, m)
    acc = np.cumsum(rows, axis=1, dtype=rows.dtype)
    loc = u.astype(rows.dtype)
    hit = acc[:, None, :] > loc[:, :, None]
    idx = np.where(hit.any(axis=2), hit.argmax(axis=2), kcat)
    out = idx.reshape(prob.shape[:-1] + shape).astype(np.dtype(dtype))
    if not get_prob:
        return out
    picked = np.take_along_axis(rows, np.minimum(idx, kcat - 1), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = _logf(picked) if picked.dtype == _f32 else _glog(picked)
    return out, lp.reshape(out.shape).astype(prob.dtype)


# ---- mx.np.random: uniforms from the single engine, then a closed-form transform -------------
# Each output element takes one float32 canonical uniform ``u`` from ``sm`` (a SerialMT),
# element after element in C order.  A parameter given as a Python number (an operator
# attribute) and one given as an array (broadcast to the output) go through different
# kernels in 1.9.1, which round at different steps: ``scalar`` below says which.
_exp_d = np.frompyfunc(math.exp, 1, 1)      # glibc exp


def _gexp(x):
    x = np.asarray(x, dtype=_f64)
    return _exp_d(x).astype(_f64) if x.size else x.copy()


def _powf(x, y):
    """glibc's powf (through ctypes), else the double pow rounded to float."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=_f32), np.asarray(y, dtype=_f32))
    if x.size == 0:
        return np.empty(x.shape, _f32)
    if _POWF is None:
        return _gpow(x, y).astype(_f32)
    # glibc's powf rounds a double result good to ~2**-33 (relative; measured: with a
    # margin of 2**-32 no value of 4,000,000 differed): NumPy's double power gives the same
    # float wherever everything within 2**-30 of it rounds alike; the other values (~2%, and
    # any inf/nan/0 edge) are computed by powf itself
    xf, yf = x.reshape(-1), y.reshape(-1)
    with np.errstate(all="ignore"):
        fast = np.power(xf.astype(_f64), yf.astype(_f64))
        return _rounded(fast, np.abs(fast) * 2.0 ** -30,
                        lambda i: _POWF(xf[i], yf[i])).reshape(x.shape)


_POWF = c_math("powf", 2)


def _param(p, n):
    """A parameter as float32 per element (arrays must already have ``n`` elements or one)."""
    p = np.asarray(p)
    if p.ndim == 0:
        return _f32(p[()])
    return np.broadcast_to(p.reshape(-1).astype(_f32), (n,))


def np_uniforms(sm, n):
    """The ``n`` canonical float32 uniforms that the ``mx.np.random`` transforms start from."""
    return sm.uniform_f32(n)


def np_exponential(sm, n, scale=1.0):
    """``mx.np.random.exponential(scale, size)`` (``n`` elements, float32)."""
    u = sm.uniform_f32(n)
    s = _param(scale, n)
    with np.errstate(all="ignore"):
        if np.ndim(scale) == 0:
            u64 = u.astype(_f64)
            fast = -(_f64(s) * np.log(u64))
            return _rounded(fast, np.abs(fast) * _E49, lambda i: -(_f64(s) * _glog(u64[i])))
        return -(s * _logf(u))


def np_rayleigh(sm, n, scale=1.0):
    """``mx.np.random.rayleigh(scale, size)``."""
    u = sm.uniform_f32(n).astype(_f64)
    with np.errstate(all="ignore"):
        fast = np.sqrt(-2.0 * np.log(u))
        t = _rounded(fast, fast * _E49, lambda i: np.sqrt(-2.0 * _glog(u[i])))
    return t * _param(scale, n)


def np_pareto(sm, n, a):
    """``mx.np.random.pareto(a, size)`` (Lomax: ``u ** (-1/a) - 1``)."""
    u = sm.uniform_f32(n)
    av = _param(a, n)
    with np.errstate(all="ignore"):
        if np.ndim(a) == 0:
            u64 = u.astype(_f64)
            arg = -np.log(u64) / _f64(av)
            fast = np.exp(arg) - 1.0
            return _rounded(fast, (np.abs(fast) + 1.0) * (np.abs(arg) + 2.0) * _E49,
                            lambda i: _gexp(-_glog(u64[i]) / _f64(av)) - 1.0)
        arg = (-_logf(u) / av).astype(_f64)
        fast = np.exp(arg) - 1.0
        return _rounded(fast, (np.abs(fast) + 1.0) * _E49, lambda i: _gexp(arg[i]) - 1.0)


def np_weibull(sm, n, a):
    """``mx.np.random.weibull(a, size)``: ``powf(-logf(u), 1/a)``."""
    u = sm.uniform_f32(n)
    inv = (1.0 / np.asarray(_param(a, n), dtype=_f64)).astype(_f32)
    with np.errstate(all="ignore"):
        return _powf(-_logf(u), inv)


def np_power(sm, n, a):
    """``mx.np.random.power(a, size)``: ``powf(1 - u, 1/a)``."""
    u = sm.uniform_f32(n)
    inv = (1.0 / np.asarray(_param(a, n), dtype=_f64)).astype(_f32)
    with np.errstate(all="ignore"):
        return _powf(_f32(1) - u, inv)


def np_gumbel(sm, n, loc=0.0, scale=1.0):
    """``mx.np.random.gumbel(loc, scale, size)``: ``loc - scale * log(-log(u))``, the logs in
    double, the rest in float."""
    u = sm.uniform_f32(n).astype(_f64)
    with np.errstate(all="ignore"):
        fast = np.log(-np.log(u))
        t = _rounded(fast, (np.abs(fast) + 1.0) * _E49, lambda i: _glog(-_glog(u[i])))
    return _param(loc, n) - _param(scale, n) * t


def np_logistic(sm, n, loc=0.0, scale=1.0):
    """``mx.np.random.logistic(loc, scale, size)``: ``loc + scale * log(u / (1 - u))``, the
    quotient and log in double, the rest in float."""
    u = sm.uniform_f32(n)
    with np.errstate(all="ignore"):
        ratio = u.astype(_f64) / (_f32(1) - u).astype(_f64)
        fast = np.log(ratio)
        t = _rounded(fast, np.abs(fast) * _E49, lambda i: _glog(ratio[i]))
    return _param(loc, n) + _param(scale, n) * t


def np_bernoulli(sm, n, prob=None, logit=None, dtype="float32"):
    """``mx.npx.random.bernoulli(prob=..., logit=..., size)``: ``u < prob``."""
    u = sm.uniform_f32(n)
    if prob is not None:
        hit = u < _param(prob, n)
    else:
        lg = np.asarray(logit, dtype=_f64)
        with np.errstate(over="ignore"):
            p = 1.0 / (1.0 + np.exp(-lg))
        hit = u.astype(_f64) < (p if p.ndim == 0 else np.broadcast_to(p.reshape(-1), (n,)))
    return hit.astype(np.dtype(dtype))


def np_choice(sm, a, n, p=None, replace=True):
    """``mx.np.random.choice(a, size, replace, p)`` as int64 indices.

    With replacement: without ``p`` one 32-bit word each, ``word % a``; with ``p`` one float32
    uniform each, the first index whose running sum of ``p`` (float) exceeds it.  Without
    replacement: with ``p``, ``a`` float32 uniforms and the ``size`` items of largest
    ``u ** (1/p)``, largest first (exact ties of the key, ~never, may order differently);
    without ``p`` see :func:`_choice_no_replace`."""
    if not replace:
        if p is not None:       # one uniform per item, the n largest u ** (1/p) (in order)
            u = sm.uniform_f32(int(a)).astype(_f64)
            with np.errstate(all="ignore"):
                key = np.log(u) / np.asarray(p, dtype=_f64)
            return np.argsort(-key, kind="stable")[:int(n)].astype(np.int64)
        return _choice_no_replace(sm, int(a), int(n))
    if p is None:
        return (sm.take(0, n).astype(np.int64) % int(a)) if n > 0 else np.empty(0, np.int64)
    u = sm.uniform_f32(n)
    cs = np.cumsum(np.asarray(p, dtype=_f32), dtype=_f32)
    return np.minimum(np.searchsorted(cs, u, side="right"), len(cs) - 1).astype(np.int64)


def _serial_u64(sm, m):
    """m canonical doubles (two words each) from the single engine."""
    w = sm.take(0, 2 * m).reshape(m, 2)
    return canonical_f64(w[:, 0], w[:, 1])


def _serial_n64(sm, m):
    """m normals from one ``normal_distribution<double>`` (both values of each pair)."""
    if m <= 0:
        return np.empty(0, _f64)
    return sm._polar(0, (m + 1) // 2, True, _glog, both=True).reshape(-1)[:m]


def _serial_n64_firsts(sm, npairs, sel):
    """Of ``2 * npairs`` normals drawn like :func:`_serial_n64`, normal ``2i`` for each ``i``
    in ``sel``: every pair's words are drawn (and rejections found), the logarithms are taken
    for the wanted pairs only."""
    from .mt_parallel import _log_f64, _polar_xy
    ys, rs = [], []
    need = npairs
    while need:
        w = sm.take(0, 4 * (need + need // 3 + 8))
        x, y, r2 = _polar_xy(w, True)
        ok = np.flatnonzero((r2 <= 1) & (r2 != 0))
        take = ok[:need]
        if len(take) == need:
            sm.give_back(0, w[4 * (int(take[-1]) + 1):])
        ys.append(y[take])
        rs.append(r2[take])
        need -= len(take)
    y = np.concatenate(ys)[sel]
    rt = np.concatenate(rs)[sel]
    with np.errstate(all="ignore"):
        return y * np.sqrt(-2.0 * _log_f64(rt) / rt)


def np_gamma(sm, n, shape, scale=1.0, dtype="float32"):
    """``mx.np.random.gamma(shape, scale, size)``: every round fills ``2n`` double uniforms,
    then ``2n`` double normals; element ``i`` not yet drawn tries Marsaglia-Tsang once with
    normal ``2i`` and uniform ``2i`` (``log(u) < Z*Z/2 + d*(1 - V + log V)``, all double), and
    for ``shape < 1`` multiplies by ``powf(float(uniform 2i+1), float(1/shape))``.  Rounds
    repeat until every element is drawn."""
    a = np.broadcast_to(np.asarray(shape, dtype=_f64).reshape(-1), (n,)) if np.ndim(shape) \
        else np.full(n, _f64(_f32(shape)))          # a Python number is a float attribute
    b = np.broadcast_to(np.asarray(scale, dtype=_f64).reshape(-1), (n,)) if np.ndim(scale) \
        else np.full(n, _f64(_f32(scale)))
    d = np.where(a < 1, a + 2.0 / 3.0, a - 1.0 / 3.0)
    k = np.sqrt(9.0 * d)
    c = 1.0 / k
    small = a < 1
    inv = (1.0 / a).astype(_f32)
    out = np.empty(n, _f64)
    pend = np.arange(n)
    while len(pend):
        u = _serial_u64(sm, 2 * n).reshape(n, 2)[pend]
        z = _serial_n64_firsts(sm, n, pend)
        dp, cp = d[pend], c[pend]
        with np.errstate(all="ignore"):
            x = 1.0 + cp * z
            v = x * x * x
            vv = np.where(v > 0, v, 1.0)
            # the test with NumPy's logs; where its two sides are too close for their few
            # ulps of error to be ruled out, again with glibc's
            lhs = np.log(u[:, 0])
            lv = np.log(vv)
            rhs = 0.5 * z * z + dp * (1.0 - v + lv)
            ok = lhs < rhs
            near = np.flatnonzero(~(np.abs(lhs - rhs) > 2.0 ** -40 * (
                np.abs(lhs) + 0.5 * z * z + dp * (np.abs(1.0 - v) + np.abs(lv)) + 1.0)))
            if len(near):
                ok[near] = _glog(u[near, 0]) < 0.5 * z[near] * z[near] + dp[near] * (
                    1.0 - v[near] + _glog(vv[near]))
            ok &= z > -k[pend]
        sel = pend[ok]
        val = dp[ok] * v[ok] * b[sel]
        sm_ = small[sel]
        if sm_.any():
            val[sm_] = val[sm_] * _powf(u[ok, 1][sm_].astype(_f32), inv[sel][sm_]).astype(_f64)
        out[sel] = val
        pend = pend[~ok]
    return out.astype(np.dtype(dtype))


def np_chisquare(sm, n, df, dtype="float32", scale=2.0):
    """``mx.np.random.chisquare(df, size)``: ``np_gamma(df / 2, scale)``.  A chi-square is
    gamma(df/2, 2); 1.9.1 draws gamma(df/2, 0.5) (pass ``scale=0.5`` for its numbers)."""
    if np.ndim(df):
        return np_gamma(sm, n, np.asarray(df, dtype=_f64) / 2.0, scale, dtype)
    return np_gamma(sm, n, _f32(df) / _f32(2), scale, dtype)


def _choice_no_replace(sm, a, k):
    """1.9.1's ``n``-of-``a`` draw without replacement, one 32-bit word ``w`` per step.

    - ``2k >= a``: a reservoir pass; ``out = [0, .., k-1]``, then for ``i = k .. a-1``
      ``z = w % (i + 1)`` and, when ``z < k``, ``out[z] = i`` (``a - k`` words);
    - ``2k < a``: Floyd's order, ``j = a-k .. a-1`` and ``r = w % (j + 1)`` (``k`` words).  A
      fresh ``r`` is taken and reserves ``j`` for it; an ``r`` already taken gives the value it
      reserved (or ``j`` when that is taken too) and reserves ``j`` instead; an ``r`` that is
      some other value's reservation gives ``j``.
    """
    if k > a or k < 0:
        raise ValueError("cannot take a larger sample than population when replace=False")
    if 2 * k >= a:
        out = np.arange(k, dtype=np.int64)
        if a > k:
            i = np.arange(k, a, dtype=np.int64)
            z = sm.take(0, a - k).astype(np.int64) % (i + 1)
            hit = z < k
            last = np.full(k, -1, dtype=np.int64)
            np.maximum.at(last, z[hit], i[hit])
            out = np.where(last >= 0, last, out)
        return out
    rs = (sm.take(0, k).astype(np.int64) % np.arange(a - k + 1, a + 1, dtype=np.int64)).tolist()
    taken, reserved, res_by, out = set(), set(), {}, []
    for j, r in zip(range(a - k, a), rs):
        if r in taken:
            v = res_by.get(r)
            if v is None or v in taken:
                v = j
            old = res_by.get(r)
            if old is not None:
                reserved.discard(old)
            res_by[r] = j
            reserved.add(j)
        elif r in reserved:
            v = j
        else:
            v = r
            res_by[r] = j
            reserved.add(j)
        out.append(v)
        taken.add(v)
        reserved.discard(v)
    return np.array(out, dtype=np.int64)


def np_multinomial(sm, n, pvals, size=None):
    """``mx.np.random.multinomial(n, pvals, size)``: ``n`` double uniforms per draw (draw
    after draw), each counted in the first category whose running sum of ``pvals`` (in
    their own type: double for a list) exceeds it, else in the last.  int64 counts of shape
    ``size + (len(pvals),)``."""
    pv = np.asarray(pvals)
    if pv.dtype.kind != "f":
        pv = pv.astype(_f64)
    size = () if size is None else ((size,) if isinstance(size, (int, np.integer))
                                    else tuple(size))
    ndraw = int(np.prod(size)) if size else 1
    kcat = pv.shape[-1]
    n = int(n)
    u = _serial_u64(sm, ndraw * n).astype(pv.dtype).reshape(ndraw, n)
    cs = np.cumsum(pv, dtype=pv.dtype)
    idx = np.minimum(np.searchsorted(cs, u, side="right"), kcat - 1)
    counts = np.zeros((ndraw, kcat), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(ndraw), n), idx.reshape(-1)), 1)
    return counts.reshape(size + (kcat,))


def np_beta(sm, n, a, b, dtype="float32"):
    """``mx.np.random.beta(a, b, size)``: two :func:`np_gamma` calls in double (``a`` first,
    then ``b``, scale 1), ``x / (x + y)`` in double."""
    x = np_gamma(sm, n, a, 1.0, "float64")
    y = np_gamma(sm, n, b, 1.0, "float64")
    with np.errstate(all="ignore"):
        return (x / (x + y)).astype(np.dtype(dtype))


def np_lognormal(sm, n, mean=0.0, sigma=1.0):
    """``mx.np.random.lognormal(mean, sigma, size)``: ``expf(mean + sigma * z)`` in float,
    ``z`` the single engine's float normals."""
    z = sm.normal_f32(n)
    return _expf(_param(mean, n) + _param(sigma, n) * z)
