"""1.9.1's CPU random streams: its parallel generator of std::mt19937 states, reproduced.

Measured against MXNet 1.9.1 (every value equal):

- the CPU generator has 1024 states; ``mx.random.seed(s)`` (and the unseeded start, which is
  seed 0) seeds state ``k`` as ``std::mt19937(s * 127 + k)``: NumPy's legacy MT19937 seeding
  (``RandomState(seed)``) is the same ``init_genrand``, so its raw 32-bit outputs are the
  state's words;
- a sampler filling ``n`` elements splits them into ``nthread = min(1024, ceil(n / 64))``
  contiguous chunks of ``step = ceil(n / nthread)`` elements; chunk ``k`` draws from state
  ``k``, element after element, and the states keep their position from call to call;
- uniform float32 is libstdc++'s ``generate_canonical<float>``: one word ``w``, then
  ``float(w) / 2**32`` (exactly 1.0 where that rounds up, about once in 2**25 draws:
  the libstdc++ 1.9.1 was built with has no clamp below 1); float64 takes two words,
  ``(w0 + w1 * 2**32) / 2**64`` in double; float16 samples are the float64 ones rounded;
- normal float32 is libstdc++'s polar method with a fresh distribution per element: pairs of
  canonical floats ``x = 2u - 1``, ``y = 2v - 1`` until ``0 < r2 = x*x + y*y <= 1``, then
  ``y * sqrt(-2 * log(r2) / r2)`` (the second value, ``x * ...``, is thrown away); float64
  is the same in double, each canonical value taking two words;
- randint takes two words per element, ``(w0 << 31) + w1`` as an unsigned 64-bit number,
  reduced modulo ``high - low`` (both int32 and int64 outputs).

1.9.1's other CPU generator, the one ``mx.np.random.uniform``/``normal`` draw from (mshadow's
``Random<cpu>``), is a single std::mt19937 seeded with ``seed * 127``: :class:`SerialMT`.
Its uniform is ``generate_canonical<float>`` element after element; its normal is a
``std::normal_distribution<float>`` made afresh for each call, so both values of each polar
pair are used (``y * m`` first, then ``x * m``) and an odd count throws the last one away.
"""
from __future__ import annotations

import math
import weakref

import numpy as np

__all__ = ["canonical_f32", "canonical_f64", "ParallelMT", "SerialMT", "NUM_STATES",
           "MIN_PER_THREAD", "SEED_MAGIC"]

NUM_STATES = 1024
MIN_PER_THREAD = 64
SEED_MAGIC = 127

_TWO32 = 4294967296.0


class _Snapshot:
    """A copy-on-write snapshot of an :class:`_Engines`: states are saved the first time
    they change after the snapshot (reading a state costs ~0.1 ms, so nothing is copied
    up front)."""

    __slots__ = ("owner", "seed", "saved", "__weakref__")

    def __init__(self, owner):
        self.owner = owner
        self.seed = owner.seed
        self.saved = {}


class _Engines:
    """``count`` std::mt19937 states, state ``k`` seeded ``seed * 127 + k``, created when
    first drawn from. Words drawn but not used (the polar method's rejection runs ahead) are
    kept per state and handed out first, so a state never has to be rewound."""

    count = NUM_STATES

    def __init__(self, seed=0):
        self.seed = int(seed)
        self._states = [None] * self.count
        self._pending = [None] * self.count
        self._watch = weakref.WeakSet()

    def state(self, k):
        """State ``k``'s bit generator (NumPy's MT19937, seeded as std::mt19937)."""
        st = self._states[k]
        if st is None:
            if self._watch:
                self._touch(k)
            st = np.random.RandomState((self.seed * SEED_MAGIC + k) & 0xFFFFFFFF)._bit_generator
            self._states[k] = st
        return st

    def _touch(self, k):
        for snap in self._watch:
            if k not in snap.saved:
                snap.saved[k] = self._current(k)

    def _current(self, k):
        st = self._states[k]
        return None if st is None else (st.state, self._pending[k])

    def take(self, k, count):
        """The next ``count`` words (uint32) of state ``k``."""
        st = self.state(k)
        if self._watch:
            self._touch(k)
        p = self._pending[k]
        if p is None:
            return st.random_raw(count).astype(np.uint32)
        if len(p) > count:
            self._pending[k] = p[count:]
            return p[:count]
        self._pending[k] = None
        if len(p) == count:
            return p
        return np.concatenate([p, st.random_raw(count - len(p)).astype(np.uint32)])

    def give_back(self, k, words):
        """Return the unused tail of the last :meth:`take` of state ``k``."""
        if len(words) == 0:
            return
        if self._watch:
            self._touch(k)
        p = self._pending[k]
        self._pending[k] = words if p is None else np.concatenate([words, p])

    def get_state(self):
        """A snapshot for :meth:`set_state`."""
        snap = _Snapshot(self)
        self._watch.add(snap)
        return snap

    def set_state(self, snap):
        owner = snap.owner
        keys = list(snap.saved) if owner is self else range(self.count)
        self.seed = snap.seed
        for k in keys:
            if self._watch:
                self._touch(k)
            v = snap.saved[k] if k in snap.saved else owner._current(k)
            if v is None:
                self._states[k] = None
                self._pending[k] = None
            else:
                st = self._states[k]
                if st is None:
                    st = np.random.RandomState(0)._bit_generator
                    self._states[k] = st
                st.state = v[0]
                self._pending[k] = v[1]

    def _polar(self, k, m, f64, log, both=False):
        """m polar-method normals from state ``k`` alone (see :func:`_polar_select`)."""
        got = []
        need = m
        while need:
            w = self.take(k, _WPP[f64] * (need + need // 3 + 8))
            x, y, r2 = _polar_xy(w, f64)
            ok = np.flatnonzero((r2 <= 1) & (r2 != 0))
            take = ok[:need]
            if len(take) == need:
                self.give_back(k, w[_WPP[f64] * (int(take[-1]) + 1):])
            got.append(_polar_values(x, y, r2, take, f64, log, both))
            need -= len(take)
        return np.concatenate(got) if len(got) > 1 else got[0]


class ParallelMT(_Engines):
    """The 1024 std::mt19937 states of 1.9.1's CPU sampler, created when first drawn from."""

    @staticmethod
    def chunks(n):
        """The (start, stop, state index) of each chunk of an ``n``-element sampler call."""
        if n <= 0:
            return []
        nthread = min(NUM_STATES, (n + MIN_PER_THREAD - 1) // MIN_PER_THREAD)
        step = (n + nthread - 1) // nthread
        return [(k * step, min(n, (k + 1) * step), k) for k in range(nthread) if k * step < n]

    def words(self, n, per_element=1):
        """``n * per_element`` raw 32-bit words (uint32 array), chunk by chunk: element i's
        words are ``out[i * per_element:(i + 1) * per_element]``."""
        out = np.empty(n * per_element, dtype=np.uint32)
        if n <= 0:
            return out
        pending, states, watched = self._pending, self._states, bool(self._watch)
        nthread = min(NUM_STATES, (n + MIN_PER_THREAD - 1) // MIN_PER_THREAD)
        step = (n + nthread - 1) // nthread
        for k in range(nthread):
            a = k * step * per_element
            if a >= n * per_element:
                break
            b = min(n, (k + 1) * step) * per_element
            st = states[k]
            if st is not None and pending[k] is None and not watched:   # the common case
                out[a:b] = st.random_raw(b - a)
            else:
                out[a:b] = self.take(k, b - a)
        return out

    def uniform_f32(self, n):
        """n canonical float32 values in [0, 1) (libstdc++'s generate_canonical<float>)."""
        return canonical_f32(self.words(n))

    def uniform_f64(self, n):
        """n canonical float64 values in [0, 1) (two words each, low word first)."""
        return _canonical_f64(self.words(n, 2))

    def uniform_f32_le(self, n, t):
        """Whether each of n canonical float32 draws is ``<= t`` (a float32), found from the
        words alone: the canonical value does not decrease with the word."""
        t = np.float32(t)
        cut = _LE_CUT.get(float(t))
        if cut is None:
            guess = int(min(max(float(t), 0.0), 1.0) * _TWO32)
            cand = np.arange(max(guess - 4096, 0), min(guess + 4096, 1 << 32), dtype=np.int64)
            ok = np.flatnonzero(canonical_f32(cand) <= t)
            cut = int(cand[ok[-1]]) if len(ok) else -1   # -1: t < 0, nothing is kept
            if len(_LE_CUT) < 256:
                _LE_CUT[float(t)] = cut
        w = self.words(n)
        if cut < 0:
            return np.zeros(n, dtype=bool)
        return w <= np.uint32(cut)

    def normal_f32(self, n, log=None):
        """n standard normal float32 values, libstdc++'s polar method per element (``log``:
        the float32 logarithm to use; 1.9.1 calls glibc's logf, the default here)."""
        return self._normal(n, False, _logf() if log is None else log)

    def normal_f64(self, n):
        """n standard normal float64 values (the polar method in double, per element)."""
        return self._normal(n, True, np.log)

    def _normal(self, n, f64, log):
        """All chunks at once: each state draws enough pairs for its chunk (in the rare case
        it does not, it draws on alone), the values are computed in one pass."""
        chunks = self.chunks(n)
        if not chunks:
            return np.empty(0, np.float64 if f64 else np.float32)
        wpp = _WPP[f64]
        segs, starts, pos = [], [], 0
        for a, b, k in chunks:
            m = b - a
            d = m + m // 3 + 8
            segs.append(self.take(k, wpp * d))
            starts.append(pos)
            pos += d
        x, y, r2 = _polar_xy(np.concatenate(segs), f64)
        okpos = np.flatnonzero((r2 <= 1) & (r2 != 0))
        bounds = np.searchsorted(okpos, starts + [pos])
        picks, short = [], {}
        for i, (a, b, k) in enumerate(chunks):
            m = b - a
            sel = okpos[bounds[i]:bounds[i + 1]]
            if len(sel) >= m:
                sel = sel[:m]
                self.give_back(k, segs[i][wpp * (int(sel[-1]) + 1 - starts[i]):])
            else:
                short[i] = m - len(sel)
            picks.append(sel)
        vals = _polar_values(x, y, r2, np.concatenate(picks), f64, log)
        if not short:
            return vals
        pieces, at = [], 0
        for i, (_a, _b, k) in enumerate(chunks):
            pieces.append(vals[at:at + len(picks[i])])
            at += len(picks[i])
            if i in short:
                pieces.append(self._polar(k, short[i], f64, log))
        return np.concatenate(pieces)

    def uniform(self, n, dtype):
        """n canonical values of ``dtype`` (float32 or float64)."""
        return self.uniform_f64(n) if np.dtype(dtype) == np.float64 else self.uniform_f32(n)

    def normal(self, n, dtype):
        """n standard normal values of ``dtype`` (float32 or float64)."""
        return self.normal_f64(n) if np.dtype(dtype) == np.float64 else self.normal_f32(n)

    def randint_raw(self, n):
        """n unsigned 64-bit numbers ``(w0 << 31) + w1`` (1.9.1's randint draw)."""
        w = self.words(n, 2).reshape(n, 2).astype(np.uint64)
        return (w[:, 0] << np.uint64(31)) + w[:, 1]


class SerialMT(_Engines):
    """1.9.1's ``Random<cpu>`` resource: one std::mt19937 seeded with ``seed * 127``."""

    count = 1

    def uniform_f32(self, n):
        """n canonical float32 values, one word each."""
        return canonical_f32(self.take(0, n)) if n > 0 else np.empty(0, np.float32)

    def normal_f32(self, n, log=None):
        """n standard normal float32 values from one fresh normal_distribution<float>."""
        if n <= 0:
            return np.empty(0, np.float32)
        log = _logf() if log is None else log
        return self._polar(0, (n + 1) // 2, False, log, both=True).reshape(-1)[:n]


def _logf():
    """glibc's logf where its emulation is available, else NumPy's float32 log."""
    try:
        from .libm32 import logf
    except ImportError:   # pragma: no cover - the emulation is optional
        return np.log
    return lambda x: logf(np, x)


_LOG_D = np.frompyfunc(math.log, 1, 1)     # glibc's log, one value at a time


def _log_f64(x):
    """glibc's double ``log`` of ``x`` (NumPy's SIMD log differs in the last bit for ~0.3%
    of values, which changes float64 normals). One call per value (~80 ns each) is as fast
    here as any vectorised pre-check that is accurate enough to decide the rounding."""
    if x.size == 0:
        return np.log(x)
    return _LOG_D(x).astype(np.float64)


_WPP = {False: 2, True: 4}   # words per polar pair: float32, float64
_LE_CUT = {}   # float32 threshold -> the last word whose canonical value is <= it


def canonical_f32(words):
    """libstdc++'s generate_canonical<float> of each 32-bit word: float(w) / 2**32 (1.0 where
    that rounds up; 1.9.1's libstdc++ has no clamp below 1)."""
    u = words.astype(np.float32)
    u *= np.float32(1.0 / _TWO32)
    return u


def canonical_f64(w0, w1):
    """generate_canonical<double> of word pairs (low word first): (w0 + w1 * 2**32) / 2**64."""
    u = w1.astype(np.float64)
    u *= _TWO32
    u += w0
    u *= 1.0 / (_TWO32 * _TWO32)
    return u


def _canonical_f64(words):
    """canonical_f64 of consecutive word pairs."""
    w = words.reshape(-1, 2)
    return canonical_f64(w[:, 0], w[:, 1])


def _polar_xy(words, f64):
    """The candidate pairs ``x = 2u - 1``, ``y = 2v - 1`` and ``r2`` of a run of words."""
    if f64:
        u = _canonical_f64(words).reshape(-1, 2)
        x = 2.0 * u[:, 0] - 1.0
        y = 2.0 * u[:, 1] - 1.0
    else:   # float 2u, minus the double 1.0, rounded back to float
        u = canonical_f32(words).reshape(-1, 2)
        x = (2.0 * u[:, 0].astype(np.float64) - 1.0).astype(np.float32)
        y = (2.0 * u[:, 1].astype(np.float64) - 1.0).astype(np.float32)
    return x, y, x * x + y * y


def _polar_values(x, y, r2, idx, f64, log, both=False):
    """``y * sqrt(-2 log(r2) / r2)`` at the accepted pairs ``idx`` (``both``: the pairs
    ``(y * mult, x * mult)``, shaped (len(idx), 2))."""
    rt = r2[idx]
    with np.errstate(all="ignore"):
        if f64:
            mult = np.sqrt(-2.0 * _log_f64(rt) / rt)
        else:
            mult = np.sqrt(np.float32(-2) * log(rt) / rt)
    if both:
        return np.stack([y[idx] * mult, x[idx] * mult], axis=1)
    return y[idx] * mult
