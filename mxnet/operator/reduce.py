"""Reductions: sum, mean, prod, max, min, nansum, nanprod, norm, argmax, argmin, argmax_channel.

Output dtypes follow 1.9.1: every reduction keeps the input dtype, including the
indices returned by argmax/argmin. A reduction over every axis gives shape (1,) unless keepdims.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, dtype_np
from ._common import norm_axes, normalize_axis
from ._safe_acc import _F16_EXACT_MAX, safe_acc_on, warn_float16
from .registry import Param, register

_AXIS_PARAMS = (Param("axis", "shape", None), Param("keepdims", "bool", False),
                Param("exclude", "bool", False))


def _finish(out, xp, dtype):
    if out.ndim == 0:
        out = out.reshape(1)
    return out if out.dtype == dtype else out.astype(dtype)


def _out_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    res = tuple(s for i, s in enumerate(shape) if i not in axes)
    return res or (1,)


def _reduce_shape(attrs, ins, outs):
    s = ins[0]
    if s is None:
        return ins, outs, []
    axes = norm_axes("reduce", attrs["axis"], len(s), attrs["exclude"])
    return ins, [_out_shape(s, axes, attrs["keepdims"])], []


def _bcast_back(F, attrs, g, x):
    """Reshape a reduced gradient so it broadcasts against ``x``."""
    axes = norm_axes("reduce", attrs["axis"], len(x.shape), attrs["exclude"])
    kept = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    return F.reshape(g, shape=kept)


def _reduce_shape_when_known(attrs, ins, outs):
    """max and min: 1.9.1 leaves the output unknown until the input shape is complete."""
    if ins[0] is not None and None in ins[0]:
        return ins, outs, []
    return _reduce_shape(attrs, ins, outs)


def _make_reduce(name, kernel, grad_rule, aliases=(), infer_shape=_reduce_shape):
    def compute(rc, attrs, x):
        if attrs["axis"] is None and not attrs["exclude"]:
            axes = None  # whole-array reduction: NumPy's fastest path
        else:
            axes = norm_axes(name, attrs["axis"], x.ndim, attrs["exclude"])
        out = kernel(rc.xp, x, axes, attrs["keepdims"])
        return _finish(out, rc.xp, x.dtype)

    def grad(F, attrs, ins, outs, og):
        x, y = ins[0], outs[0]
        g = _bcast_back(F, attrs, og[0], x)
        yb = _bcast_back(F, attrs, y, x)
        return [grad_rule(F, attrs, x, yb, g)]

    register(name, compute, params=_AXIS_PARAMS, gradient=grad, infer_shape=infer_shape,
             aliases=aliases)


def _count(x, axes):
    if axes is None:
        return x.size
    n = 1
    for a in axes:
        n *= x.shape[a]
    return n


def _f16_rows(x, axes):
    """float16 input as an (outputs, reduced) matrix whose rows list the reduced elements in
    1.9.1's order (row-major over the reduced axes)."""
    axes = tuple(range(x.ndim)) if axes is None else tuple(sorted(axes))
    kept = [i for i in range(x.ndim) if i not in axes]
    m = np.transpose(np.asarray(x), kept + list(axes))
    return m.reshape(int(np.prod([x.shape[i] for i in kept])), _count(x, axes)), axes


def _f16_shape(x, axes, keepdims, out):
    return out.reshape(_out_shape(x.shape, axes, keepdims))


# float16 reductions over more elements than this sum in float32 and round once (not 1.9.1's
# sequential float16 steps, which NumPy can only emulate with a loop over the elements)
F16_EXACT_MAX = _F16_EXACT_MAX


def _f16_sum(x, axes, keepdims, skip_nan=False, acc=np.float16):
    """1.9.1's float16 sum on the CPU: a compensated (Kahan) sum carried in float16, each
    operation rounded to float16; plain sum resets the compensation once the total is
    infinite, nansum skips NaN elements and keeps no such guard. ``acc`` is the type the
    sum is carried in (mx.np's reductions carry float16 in float32). Reductions over more
    than ``F16_EXACT_MAX`` elements are summed in float32 and rounded once."""
    m, axes = _f16_rows(x, axes)
    m = m.astype(acc, copy=False)
    if m.shape[1] > F16_EXACT_MAX:   # the loops below would cost ~0.5 us per element
        with np.errstate(all="ignore"):
            total = (np.nansum if skip_nan else np.sum)(m, axis=1, dtype=np.float32)
        return _f16_shape(x, axes, keepdims, total.astype(acc))
    if m.shape[0] == 1:   # one output: the same steps on NumPy scalars (much faster)
        return _f16_shape(x, axes, keepdims, np.array([_kahan_1d(m[0], skip_nan, acc)], acc))
    s = np.zeros(m.shape[0], acc)
    r = np.zeros(m.shape[0], acc)
    with np.errstate(all="ignore"):
        for k in range(m.shape[1]):
            v = m[:, k]
            y = v - r
            t = s + y
            nr = (t - s) - y
            if skip_nan:
                ok = ~np.isnan(v)
                s, r = np.where(ok, t, s), np.where(ok, nr, r)
            else:
                s, r = t, np.where(np.isinf(t), acc(0), nr)
    return _f16_shape(x, axes, keepdims, s)


def _kahan_1d(row, skip_nan, acc):
    """_f16_sum's loop for a single output, on scalars of type ``acc``."""
    s = r = acc(0)
    inf = acc(np.inf)
    with np.errstate(all="ignore"):
        for v in row:
            if skip_nan and v != v:
                continue
            y = v - r
            t = s + y
            r = (t - s) - y
            if not skip_nan and (t == inf or t == -inf):
                r = acc(0)
            s = t
    return s


def _f16_prod(x, axes, keepdims, skip_nan=False, acc=np.float16):
    """1.9.1's float16 product: a running product rounded to ``acc`` after each factor."""
    m, axes = _f16_rows(x, axes)
    m = m.astype(acc, copy=False)
    if skip_nan:
        m = np.where(np.isnan(m), acc(1), m)
    with np.errstate(all="ignore"):   # accumulate multiplies left to right, rounding each step
        p = np.multiply.accumulate(m, axis=1)[:, -1] if m.shape[1] else np.ones(m.shape[0], acc)
    return _f16_shape(x, axes, keepdims, p)


def _f16_or(f16, other):
    """Kernel that uses ``f16`` for float16 input and ``other`` for every other dtype."""
    return lambda xp, x, a, k: (f16(x, a, k) if x.dtype == np.float16 and xp is np
                                else other(xp, x, a, k))


# 1.9.1 sums float32 and float64 with compensated (Kahan) steps, element after element;
# reductions of up to this many elements per output take the same steps (a loop over them,
# 4 NumPy calls per element), longer ones round a wider sum once (_f32_sum_via_f64 and
# _LD_MAX below). The limit keeps the loop to a few tens of microseconds: a mean over
# (32, 64) rows took 116 us with it at 64 (12 us pairwise); the loop costs 2.5-3x NumPy's
# float32 sum even for many outputs of 32 elements ((65536, 32) summed over axis 1).
_KAHAN_MAX = 16


def _kahan_sum(x, axes, keepdims):
    """float32/float64 sum in 1.9.1's compensated steps (as _f16_sum, with fewer NumPy calls
    per element when no partial sum can overflow)."""
    m, axes = _f16_rows(x, axes)
    with np.errstate(all="ignore"):
        big = np.abs(m).max() if m.size else 0
    if m.shape[0] == 1 or not np.isfinite(big) or big * m.shape[1] >= np.finfo(m.dtype).max:
        return _f16_sum(x, axes, keepdims, acc=x.dtype.type)   # (keeps the infinity rule)
    # one contiguous row per reduced element
    return _f16_shape(x, axes, keepdims, kahan_down(np.ascontiguousarray(m.T)))


def kahan_down(cols):
    """1.9.1's compensated (Kahan) sum of ``cols`` down its first axis, in its dtype: the sum
    starts as 0 + cols[0] (-0.0 becomes +0.0, as 1.9.1's start at 0), then adds row after row
    with the running compensation. ``cols`` contiguous, at least one row."""
    s = cols[0] + cols.dtype.type(0)
    c = np.zeros_like(s)
    y, t = np.empty_like(s), np.empty_like(s)
    for k in range(1, cols.shape[0]):
        np.subtract(cols[k], c, out=y)
        np.add(s, y, out=t)
        np.subtract(t, s, out=c)
        c -= y
        s, t = t, s
    return s


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# A float32 sum that keeps the last axis (over rows: axis 0 of a matrix) is NumPy's fastest
# reduction, adding whole rows at a time; carried in float64 it takes 3-12x as long, so above
# this many input elements such sums stay in float32 (NumPy adds row after row, which gives
# 1.9.1's result in 30-50% of outputs over tens of rows, under 15% over hundreds or more).
_F64_OUTER_MAX = 8192
# float64 sums of up to this many input elements (over more than _KAHAN_MAX per output) are
# carried in long double (x86's 80-bit) and rounded once: 1.9.1's compensated float64 result
# for 96% of positive-valued outputs (NumPy's pairwise sum: 61%), 60% where terms cancel
# (33%). long double has no SIMD loops: ~4 ns an element, so larger inputs keep float64.
_LD_MAX = 1024


def _f32_sum_via_f64(x, axes, keepdims):
    """float32 sum over more than _KAHAN_MAX elements per output: carried in float64 and
    rounded to float32 once. 1.9.1's compensated float32 steps give that rounding of the
    exact sum for almost every output of same-signed data (1.9.1 agreed on 96% of
    positive-valued outputs in a sweep over 17 to 10^6 elements, against 67% for NumPy's
    float32 pairwise sum), and on 61% where large terms cancel (32% pairwise). einsum
    casts and accumulates faster than add.reduce's buffered cast on large arrays."""
    if x.size >= 65536 and 0 < x.ndim <= len(_LETTERS):
        sub = _LETTERS[:x.ndim]
        kept = "" if axes is None else "".join(c for i, c in enumerate(sub) if i not in axes)
        with np.errstate(all="ignore"):
            out = np.einsum(f"{sub}->{kept}", x, dtype=np.float64)
        if keepdims:
            out = out.reshape(_out_shape(x.shape, range(x.ndim) if axes is None else axes, True))
    else:
        out = np.add.reduce(x, axis=axes, keepdims=keepdims, dtype=np.float64)
    # rounded to float32, + 0.0 (1.9.1's sum starts at +0.0: a sum of -0.0 terms is +0.0);
    # an overflow warning from the cast is silenced by the package's filter for this module
    return np.add(out, 0, dtype=np.float32, casting="unsafe")


def _f64_model(x, axes):
    """Whether a float32 sum takes _f32_sum_via_f64 (long enough, and not a long sum over
    rows only)."""
    return x.dtype == np.float32 and _count(x, axes) > _KAHAN_MAX and (
        axes is None or x.ndim - 1 in axes or x.size <= _F64_OUTER_MAX)


def _nansum_kernel(xp, x, axes, keepdims):
    if xp is np and x.dtype in (np.float32, np.float64) and 2 < _count(x, axes) <= _KAHAN_MAX:
        # 1.9.1's compensated steps (as sum's), a NaN element skipped. (1.9.1 keeps no guard
        # for infinite totals there, so its nansum of [inf, 2] is nan; ours stays inf.)
        with np.errstate(all="ignore"):
            if not np.isnan(x).any():
                return _kahan_sum(x, axes, keepdims)
            if not np.isinf(x).any():
                return _f16_sum(x, axes, keepdims, True, acc=x.dtype.type)
    if xp is np and _f64_model(x, axes):   # as _float_sum, NaN counted as 0
        out = _f32_sum_via_f64(x, axes, keepdims)
        if np.isnan(out).any():   # (only then a pass to find the NaN elements)
            out = _f32_sum_via_f64(np.where(np.isnan(x), np.float32(0), x), axes, keepdims)
        return out
    with np.errstate(all="ignore"):
        return xp.nansum(x, axis=axes, keepdims=keepdims)


def _float_sum(xp, x, axes, keepdims):
    if xp is not np:
        return x.sum(axis=axes, keepdims=keepdims)
    if x.dtype in (np.float32, np.float64) and 2 < _count(x, axes) <= _KAHAN_MAX:
        with np.errstate(all="ignore"):
            return _kahan_sum(x, axes, keepdims)
    if _f64_model(x, axes):
        return _f32_sum_via_f64(x, axes, keepdims)
    if x.dtype == np.float64 and x.size <= _LD_MAX and _count(x, axes) > _KAHAN_MAX:
        # the float64 analogue: carried in long double, rounded once (+ 0.0 as above)
        out = np.add.reduce(x, axis=axes, keepdims=keepdims, dtype=np.longdouble)
        return np.add(out, 0, dtype=np.float64, casting="unsafe")
    # the ufunc's own reduce (not ndarray.sum, NumPy's Python wrapper): a warning it raises
    # (inf - inf) is then reported from this module, where the package's filter silences it,
    # without the cost of an errstate block on every call (~1 us of a ~4 us sum)
    return np.add.reduce(x, axis=axes, keepdims=keepdims)


def _mean_kernel(xp, x, axes, keepdims):
    if x.dtype.kind in "iu":
        # 1.9.1 sums in the input dtype (wrapping), casts the count to that dtype too, and
        # divides with C's integer division (rounding toward zero)
        total = xp.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
        n = np.array(_count(x, axes)).astype(x.dtype)
        if n == 0:
            raise MXNetError(f"mean: the element count {_count(x, axes)} is 0 in dtype "
                             f"{x.dtype}; cannot divide by zero")
        q = total // n
        return q + ((total % n != 0) & ((total < 0) != (n < 0))).astype(x.dtype)
    if x.dtype == np.float16 and xp is np:
        # 1.9.1: its float16 sum, divided by the count cast to float16
        with np.errstate(all="ignore"):
            return _f16_sum(x, axes, keepdims) / np.float16(_count(x, axes))
    if x.size == 0:   # NaN where nothing is averaged, without NumPy's "empty slice" warning
        with np.errstate(invalid="ignore", divide="ignore"):
            return xp.sum(x, axis=axes, keepdims=keepdims) / x.dtype.type(_count(x, axes))
    n = _count(x, axes)
    if xp is np and x.dtype in (np.float32, np.float64):
        return _float_sum(xp, x, axes, keepdims) / x.dtype.type(n)   # 1.9.1: sum, then / n
    return xp.mean(x, axis=axes, keepdims=keepdims)


def _quiet(fn):
    """``fn`` with NumPy's floating-point warnings off (its Python wrappers would report
    overflow from NumPy's module, past the package's filter); 1.9.1 is silent."""
    def k(xp, x, a, keep):
        with np.errstate(all="ignore"):
            return fn(xp, x, a, keep)
    return k


_make_reduce("sum", _f16_or(_f16_sum, _float_sum),
             lambda F, at, x, y, g: F.broadcast_like(g, x), aliases=("sum_axis",))
# 1.9.1's sum of squares (the sparse-aware reduction its optimizers and norm use)
_make_reduce("_square_sum", _quiet(lambda xp, x, a, k: (x * x).sum(axis=a, keepdims=k)),
             lambda F, at, x, y, g: F.broadcast_like(g, x) * x * 2)
# 1.9.1 divides the broadcast head gradient by the element count (in the gradient's dtype)
_make_reduce("mean", _quiet(_mean_kernel),
             lambda F, at, x, y, g: F.broadcast_like(g, x) / float(x.size // max(y.size, 1)))
_make_reduce("prod", _f16_or(_f16_prod, _quiet(lambda xp, x, a, k: x.prod(axis=a, keepdims=k))),
             # the derivative y / x first, then times the head gradient (1.9.1's order)
             lambda F, at, x, y, g: F.broadcast_like(g, x) * (F.broadcast_like(y, x) / x))
_make_reduce("nansum", _f16_or(lambda x, a, k: _f16_sum(x, a, k, True), _nansum_kernel),
             lambda F, at, x, y, g: F.broadcast_like(g, x) * (x == x))
_make_reduce("nanprod", _f16_or(lambda x, a, k: _f16_prod(x, a, k, True),
                                 _quiet(lambda xp, x, a, k: xp.nanprod(x, axis=a, keepdims=k))),
             lambda F, at, x, y, g: (F.broadcast_like(g * y, x)
                                     / F.where(x == x, x, F.ones_like(x)) * (x == x)))


def _minmax_grad(F, at, x, y, g):
    mask = F.broadcast_equal(x, F.broadcast_like(y, x))
    return F.broadcast_like(g, x) * mask


def _safe_extreme(fn):
    def k(xp, x, a, keep):
        if x.size == 0:
            raise MXNetError("max/min: cannot reduce an empty array")
        return fn(x, axis=a, keepdims=keep)
    return k


_make_reduce("max", _safe_extreme(np.max), _minmax_grad, aliases=("max_axis",),
             infer_shape=_reduce_shape_when_known)
_make_reduce("min", _safe_extreme(np.min), _minmax_grad, aliases=("min_axis",),
             infer_shape=_reduce_shape_when_known)


# --- norm -----------------------------------------------------------------------------------

def _int_l2(xp, x, axes, keep):
    """1.9.1's scaled L2 norm evaluated in integer arithmetic: ratios |x|/max|x| truncate to
    0 or 1, so the result is trunc(max|x| * sqrt(count of elements equal to max|x|))."""
    a = xp.abs(x)
    scale = xp.max(a, axis=axes, keepdims=True) if a.size else xp.zeros((1,) * a.ndim, a.dtype)
    cnt = xp.sum((a == scale) & (scale != 0), axis=axes, keepdims=True)
    out = xp.trunc(scale.astype(np.float64) * xp.sqrt(cnt.astype(np.float64))).astype(x.dtype)
    if keep:
        return out
    return out.reshape(_out_shape(x.shape, tuple(range(x.ndim)) if axes is None else axes, False))


def _scaled_sumsq(m, t):
    """Per row of the (outputs, reduced) matrix m: the largest |x| so far (the scale) and the
    sum of squares of x / scale, every step rounded to the dtype t as 1.9.1's scaled L2 norm
    takes them; as two arrays of t."""
    one = t(1)
    with np.errstate(all="ignore"):
        if m.shape[0] == 1:   # one output: the same steps on NumPy scalars (much faster)
            ss = sc = t(0)
            for v in m[0]:
                if v == 0:
                    continue
                a = abs(v)
                if sc < a:
                    r = sc / a
                    ss = one + ss * r * r
                    sc = a
                else:
                    r = a / sc
                    ss = ss + r * r
            return np.array([sc], t), np.array([ss], t)
        ss = np.zeros(m.shape[0], t)
        sc = np.zeros(m.shape[0], t)
        for k in range(m.shape[1]):
            v = m[:, k]
            a = np.abs(v)
            up = sc < a
            r_up, r_dn = sc / a, a / sc
            new = np.where(up, one + ss * r_up * r_up, ss + r_dn * r_dn)
            ss = np.where(v != 0, new, ss)
            sc = np.where((v != 0) & up, a, sc)
        return sc, ss


# A whole-array float32/float64 L2 norm over more than _L2_EXACT_MAX[0] (and up to this many)
# elements takes 1.9.1's scaled steps piecewise (_scaled_l2_pieces), unless the running
# maximum of |x| grows more than _L2_PIECES_MAX times (sorted data): then sqrt(sum(x**2)).
# The pieces cost two sequential NumPy passes (~3 ns an element each) and a few us a piece:
# norm of (1000,) 7 -> 20 us, (32, 64) 7 -> 24 us, (64, 64) 8 -> 40 us; larger arrays keep
# the fast sum, which differs from 1.9.1 in the last bits of most results.
_L2_PIECES_SIZE_MAX = 4096
_L2_PIECES_MAX = 48


def _scaled_l2_pieces(x):
    """1.9.1's scaled L2 norm of all of x (the steps of _scaled_sumsq, bit for bit) without a
    Python loop over the elements: the scale changes only where |x| reaches a new maximum, and
    between two such places the steps are a sequential sum of the squared ratios, which
    np.add.accumulate rounds as 1.9.1 does. None when |x| holds a non-finite value or reaches
    a new maximum too often."""
    t = x.dtype.type
    a = np.abs(x.ravel())
    if not a.all():
        a = a[a != 0]   # zeros leave both the scale and the sum as they are
        if a.size == 0:
            return np.zeros((1,), x.dtype)
    run = np.maximum.accumulate(a)
    if not np.isfinite(run[-1]):
        return None
    starts = np.flatnonzero(run[1:] != run[:-1]) + 1   # new maxima after the first element
    if starts.size >= _L2_PIECES_MAX:
        return None
    terms = a / run
    terms *= terms
    ends = list(starts) + [a.size]
    one = t(1)
    ss = one                # the first element: scale |x0|, sum 1
    prev_end = ends[0]
    if prev_end > 1:
        terms[0] = ss
        ss = np.add.accumulate(terms[:prev_end])[-1]
    for k, end in zip(starts, ends[1:]):
        r = run[k - 1] / a[k]
        ss = one + ss * r * r
        if end - k > 1:
            terms[k] = ss
            ss = np.add.accumulate(terms[k:end])[-1]
    return np.array([run[-1] * np.sqrt(ss)], x.dtype)


def _f16_l2(x, axes, keep):
    """1.9.1's float16 L2 norm without safe accumulation: a scaled sum of squares kept in
    float16 (see _scaled_sumsq), finished as scale * sqrt(sum) in float32 and rounded to
    float16."""
    m, axes = _f16_rows(x, axes)
    sc, ss = _scaled_sumsq(m, np.float16)
    with np.errstate(all="ignore"):
        out = (sc.astype(np.float32) * np.sqrt(ss.astype(np.float32))).astype(np.float16)
    return _f16_shape(x, axes, keep, out)


# float32/float64 L2 norms over at most this many elements per output (the first for a single
# output, the second for several) take 1.9.1's scaled steps (a Python loop over the elements,
# ~0.2 us each for one output, ~8 NumPy calls each for several); longer whole-array norms
# take _scaled_l2_pieces (above), the rest sqrt(sum(x**2)), which differs from 1.9.1's result
# in the last bit now and then. The limits keep the loop short: a 4096-element norm took
# 875 us in it (8 us otherwise).
_L2_EXACT_MAX = (64, 8)


def _scaled_l2(x, axes, keep):
    """1.9.1's float32/float64 L2 norm on the CPU: the scaled sum of squares of
    _scaled_sumsq in the input dtype, finished as scale * sqrt(sum).
    norm([1, 2, 3, 4, 5, 6]) is 9.5393915 there, not 9.539392."""
    m, axes = _f16_rows(x, axes)
    sc, ss = _scaled_sumsq(m, x.dtype.type)
    with np.errstate(all="ignore"):
        return _f16_shape(x, axes, keep, sc * np.sqrt(ss))


def _f16_lp(x, axes, keep, p, safe):
    """1.9.1's mx.np vector p-norm of float16 (p = 1 or 2): a scaled sum of |x / scale|**p
    with the scale the largest |x| so far; every step rounds to float16, finished as
    scale * (sum ** (1/p)) with the power rounded to float16 first. With safe accumulation
    the whole computation is float32, rounded to float16 at the end."""
    m, axes = _f16_rows(x, axes)
    t = np.float32 if safe else np.float16
    m = m.astype(t)
    s = np.zeros(m.shape[0], t)
    sc = np.zeros(m.shape[0], t)
    pw = np.float32(p)
    with np.errstate(all="ignore"):
        for k in range(m.shape[1]):
            v = m[:, k]
            a = np.abs(v)
            up = sc < a
            p_up = np.power((sc / a).astype(np.float32), pw).astype(t)
            p_dn = np.power((a / sc).astype(np.float32), pw).astype(t)
            new = np.where(up, t(1) + s * p_up, s + p_dn)
            s = np.where(v != 0, new, s)
            sc = np.where((v != 0) & up, a, sc)
        root = np.power(s.astype(np.float32), np.float32(1.0 / p))
        out = (sc * root.astype(t)).astype(np.float16)
    return _f16_shape(x, axes, keep, out)


def _l2_rescaled(xp, x, axes, keep, out):
    """Where the sum of squares overflowed but the data is finite, the norm taken as
    max|x| * sqrt(sum((x / max|x|)^2)), as 1.9.1's scaled kernel gives (float64 norm of
    [1e300, 1e300] is 1.414e300, not inf)."""
    a = xp.abs(x)
    scale = xp.max(a, axis=axes, keepdims=True)
    with np.errstate(all="ignore"):
        r = xp.sqrt(xp.sum(xp.square(a / scale), axis=axes, keepdims=True)) * scale
    if not keep:
        r = r.reshape(out.shape)
        scale = scale.reshape(out.shape)
    return xp.where(xp.isinf(out) & xp.isfinite(scale), r, out)


def _norm(rc, attrs, x):
    xp = rc.xp
    ord_ = attrs["ord"]
    axes = norm_axes("norm", attrs["axis"], x.ndim)
    keep = attrs["keepdims"]
    want = attrs["out_dtype"]
    if want is not None and np.dtype(want) != x.dtype:
        # 1.9.1 accepts out_dtype but its kernel fails unless it equals the input dtype
        raise MXNetError(f"norm: out_dtype={want} differs from the input dtype {x.dtype}; "
                         "1.9.1 only supports an out_dtype equal to the input dtype")
    f16 = x.dtype == np.float16 and xp is np
    if ord_ == 1 and f16:   # 1.9.1's compensated sum of |x|, float32-carried when safe
        acc = np.float32 if safe_acc_on() else np.float16
        with np.errstate(all="ignore"):
            out = _f16_sum(np.abs(x), axes, keep, acc=acc).astype(np.float16)
    elif ord_ == 1 and xp is np and x.dtype == np.float32 and _count(x, axes) > _KAHAN_MAX:
        # 1.9.1: a compensated float32 sum; rounding a float64 sum agrees with it far more
        # often (~95% of outputs) than NumPy's float32 pairwise sum (~40%)
        out = np.add.reduce(np.abs(x), axis=axes, keepdims=keep, dtype=np.float64)
        out = out.astype(np.float32)
    elif ord_ == 1 and xp is np:
        out = _float_sum(xp, np.abs(x), axes, keep)   # up to _KAHAN_MAX: 1.9.1's steps
    elif ord_ == 1:
        out = xp.sum(xp.abs(x), axis=axes, keepdims=keep)
    elif ord_ == 2 and f16 and not safe_acc_on():
        warn_float16("LpNorm", x.dtype)
        out = _f16_l2(x, axes, keep)
    elif ord_ == 2 and x.dtype.kind in "iu":
        out = _int_l2(xp, x, axes, keep)
    elif ord_ == 2 and xp is np and x.dtype in (np.float32, np.float64) and x.size \
            and _count(x, axes) <= _L2_EXACT_MAX[_count(x, axes) != x.size]:
        out = _scaled_l2(x, axes, keep)
    elif ord_ == 2 and xp is np and x.dtype in (np.float32, np.float64) and \
            _count(x, axes) == x.size <= _L2_PIECES_SIZE_MAX and \
            (out := _scaled_l2_pieces(x)) is not None:
        if keep:
            out = out.reshape((1,) * x.ndim)
    elif ord_ == 2:
        warn_float16("LpNorm", x.dtype)
        out = xp.sqrt(xp.sum(xp.square(x.astype(np.float32) if x.dtype == np.float16 else x),
                             axis=axes, keepdims=keep))
        if x.dtype != np.float16 and x.size and bool(xp.isinf(out).any()):
            out = _l2_rescaled(xp, x, axes, keep, out)
    else:
        raise MXNetError(f"norm: ord must be 1 or 2, got {ord_}")
    return _finish(out, xp, x.dtype)


def _norm_grad(F, attrs, ins, outs, og):
    x, y = ins[0], outs[0]
    at = {"axis": attrs["axis"], "exclude": False}
    g = _bcast_back(F, at, og[0], x)
    yb = _bcast_back(F, at, y, x)
    if attrs["ord"] == 1:
        return [F.broadcast_like(g, x) * F.sign(x)]
    # 1.9.1: og * (x / norm), in that order
    return [F.broadcast_like(g, x) * (x / F.broadcast_like(yb, x))]


def _norm_type(attrs, in_types, out_types):
    """1.9.1 types the output as out_dtype when given (the kernel itself needs it to equal
    the input's dtype), else as the input."""
    t = in_types[0]
    if attrs.get("out_dtype") not in (None, "None"):
        return [t], [dtype_np(attrs["out_dtype"])], []
    t = t if t is not None else out_types[0]
    return [t], [t], []


register("norm", _norm, params=(Param("ord", "int", 2), Param("axis", "shape", None),
                                 Param("out_dtype", "dtype", None,
                                       choices=(None, "float16", "float32", "float64", "int32",
                                                "int64", "int8")),
                                 Param("keepdims", "bool", False)),
         gradient=_norm_grad, infer_type=_norm_type)


# --- argmax / argmin --------------------------------------------------------------------------

def _reject_bool_index(name, x):
    if x.dtype == np.bool_:   # 1.9.1: "Unknown type enum 7"
        raise MXNetError(f"{name}: boolean input is not supported (1.9.1 has no bool kernel; "
                         f"input shape {tuple(x.shape)}); cast it first")


def _arg(fn, name):
    def compute(rc, attrs, x):
        _reject_bool_index(name, x)
        xp = rc.xp
        axis = attrs["axis"]
        if axis is None:
            out = fn(x.reshape(-1))
            out = xp.asarray(out).reshape((1,) * x.ndim if attrs["keepdims"] else 1)
        else:
            axis = normalize_axis(name, axis, x.ndim)
            out = fn(x, axis=axis)
            if attrs["keepdims"]:
                out = xp.expand_dims(out, axis)
        return _finish(out, xp, x.dtype)
    return compute


for _name, _fn in (("argmax", np.argmax), ("argmin", np.argmin)):
    register(_name, _arg(_fn, _name), params=(Param("axis", "int", None), Param("keepdims", "bool", False)),
             gradient=lambda F, a, ins, outs, og: [F.zeros_like(ins[0])])


def _argmax_channel(rc, attrs, x):
    _reject_bool_index("argmax_channel", x)
    if x.ndim < 2:
        raise MXNetError(f"argmax_channel: input must have at least 2 dims (the channel axis "
                         f"is 1), got shape {x.shape}")
    return _finish(rc.xp.argmax(x, axis=1), rc.xp, x.dtype)


register("argmax_channel", _argmax_channel, gradient=lambda F, a, ins, outs, og: [F.zeros_like(ins[0])])
