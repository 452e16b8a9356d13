"""Random sampling operators: ``_random_*`` (scalar parameters), ``_sample_*`` (one batch of
draws per element of parameter arrays), ``_random_*_like``, ``_random_randint``,
``_sample_multinomial`` and ``_shuffle``; and the densities ``_random_pdf_*``.

Every kernel draws from ``rc.rng``, the device's own generator, so ``mx.random.seed`` makes
runs repeatable. On CPU every sampler here draws 1.9.1's numbers for a seed: uniform, normal,
randint, gamma, exponential, poisson and the (generalized) negative binomial (scalar,
``_sample_*`` and ``_like`` forms) from ``rc.rng.parallel``, 1.9.1's parallel generator
(``backend/mt_parallel.py``, the distributions' algorithms in ``backend/mt_dists.py``);
``_sample_multinomial`` and ``_shuffle`` from ``rc.rng.serial``, its single engine. On GPU
the samplers use the CuPy ``Generator``, through the methods it shares with NumPy's:
``random``, ``standard_normal``, ``standard_exponential``, ``standard_gamma``, ``poisson``
and ``integers``.

Compared with 1.9.1:

- parameter checks of the scalar forms are 1.9.1's (``scale > 0``, ``low <= high``, ...);
- the array forms check nothing in 1.9.1, and some inputs crash it (``alpha <= 0`` for
  gamma, ``k < 0`` for negative binomial); here those raise MXNetError, while inputs
  1.9.1 handles keep its results (negative ``lam`` of poisson draws 0, negative ``sigma``
  mirrors the normal);
- ``randint`` with ``low == high`` kills 1.9.1 with SIGFPE; here it raises MXNetError.

The samplers are not differentiable. As in 1.9.1, ``_sample_*`` and ``_random_*_like``
pass zero gradients to their inputs; ``_shuffle`` has no gradient. ``_sample_multinomial``
with ``get_prob=True`` back-propagates the head gradient of the log-probability output
(the REINFORCE estimator): ``d log p[s] / d p[s] = 1 / p[s]`` at each drawn class ``s``.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, dtype_np
from ..util import is_np_shape
from .registry import Param, register

_FLOATS = ("float16", "float32", "float64")


# ---------------------------------------------------------------------------------------------
# helpers


def _work_dtype(out_dtype):
    """The dtype draws are made in: float64 for float64 outputs, float32 otherwise."""
    return np.dtype(np.float64) if out_dtype == np.float64 else np.dtype(np.float32)


def _check_shape(opname, shape, allow_empty):
    if shape is None or (not allow_empty and len(shape) == 0):
        raise MXNetError(f"Operator {opname} inferring shapes failed: no output shape; pass "
                         "shape=(...) with every dimension positive")
    if any(d is None or d <= 0 for d in shape):
        raise MXNetError(f"Operator {opname} inferring shapes failed: shape {tuple(shape)} "
                         "has a dimension that is not positive")
    return tuple(int(d) for d in shape)


def _require_float(opname, dtype):
    if np.dtype(dtype).kind != "f":
        raise MXNetError(f"{opname}: this operation only supports floating point types, "
                         f"not {np.dtype(dtype).name}")


def _as_param(xp, value, wdt):
    """A parameter as an array of the work dtype (CuPy's generator wants arrays, not NumPy
    scalars)."""
    return xp.asarray(value, dtype=wdt)


def _std_gamma(rc, alpha, size, wdt):
    """Standard gamma draws of shape ``size`` for shape parameters ``alpha`` (broadcast)."""
    xp = rc.xp
    a = xp.ascontiguousarray(xp.broadcast_to(_as_param(xp, alpha, np.float64), size))
    return rc.rng.standard_gamma(a, size, dtype=wdt)


def _poisson(rc, lam, size, wdt):
    """Poisson draws; a negative rate draws 0, as 1.9.1's kernel does."""
    xp = rc.xp
    lam = xp.maximum(xp.broadcast_to(_as_param(xp, lam, np.float64), size), 0.0)
    return rc.rng.poisson(xp.ascontiguousarray(lam), size).astype(wdt)


# ---------------------------------------------------------------------------------------------
# the distributions: one draw function each, shared by the scalar, array and _like forms.
# ``params`` are Python floats or arrays broadcastable to ``size``.


def _draw_uniform(rc, size, wdt, low, high):
    return low + (high - low) * rc.rng.random(size, dtype=wdt)


def _draw_normal(rc, size, wdt, loc, scale):
    return loc + scale * rc.rng.standard_normal(size, dtype=wdt)


def _parallel(rc):
    """The CPU's 1.9.1 parallel generator, or None (GPU: the device's own generator)."""
    return getattr(rc.rng, "parallel", None)


def _mt_draw(gen, name, size, out_dt, a, b):
    """1.9.1's uniform/normal kernel on the parallel generator: ``a + (b - a) * u`` or
    ``a + b * z`` per element, in the types its C++ uses. ``a``, ``b``: parameter arrays (of
    the kernel's input type) broadcastable to ``size``, each element's parameters leading.

    Draws are in the output type, double for float16; the parameter difference is in the
    input type; the rest in the wider of the two, except that any operation with a half
    operand rounds to half; float16 results are rounded through float32, as mshadow's half_t
    conversions do."""
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    ftype = out_dt if out_dt in (f32, f64) else f64
    n = int(np.prod(size, dtype=np.int64))
    base = (gen.uniform if name == "uniform" else gen.normal)(n, ftype).reshape(size)
    a, b = np.asarray(a), np.asarray(b)
    if name == "uniform":
        b = b - a
    if a.dtype == np.float16:   # half_t arithmetic: each operation in float, rounded to half
        t = (b.astype(f32) * base.astype(f32)).astype(np.float16)
        return (a.astype(f32) + t.astype(f32)).astype(np.float16).astype(out_dt, copy=False)
    ctype = np.result_type(a.dtype, ftype)
    res = a.astype(ctype) + b.astype(ctype) * base.astype(ctype, copy=False)
    if out_dt == np.float16 and ctype == f64:
        res = res.astype(f32)
    return res.astype(out_dt, copy=False)


_MT_EXACT = ("gamma", "exponential", "poisson", "negative_binomial",
             "generalized_negative_binomial")


def _mt_exact(gen, name, size, out_dt, params):
    """1.9.1's CPU sampler ``name`` (see ``backend/mt_dists.py``) for ``size`` outputs: each
    parameter is a number (an attribute, taken as a C float) or an array with one entry per
    batch of outputs (the ``_sample_*`` layout)."""
    from ..backend import mt_dists  # noqa: PLC0415 - loaded with the first such draw
    n = int(np.prod(size, dtype=np.int64))
    if n == 0:
        return np.empty(size, dtype=out_dt)
    with np.errstate(all="ignore"):
        res = getattr(mt_dists, name)(gen, n, *params, dtype=out_dt)
    return np.asarray(res).astype(out_dt, copy=False).reshape(size)


def _mt_scalar(gen, name, size, out_dt, a, b):
    """The scalar and ``_like`` forms: 1.9.1's parameters are float32 (``high - low`` too)."""
    return _mt_draw(gen, name, size, out_dt, np.float32(a), np.float32(b))


def _draw_gamma(rc, size, wdt, alpha, beta):
    return _std_gamma(rc, alpha, size, wdt) * beta


def _draw_exponential(rc, size, wdt, lam):
    return rc.rng.standard_exponential(size, dtype=wdt) / lam


def _draw_poisson(rc, size, wdt, lam):
    return _poisson(rc, lam, size, wdt)


def _draw_negative_binomial(rc, size, wdt, k, p):
    # failures before the k-th success with success probability p: a Poisson whose
    # rate is Gamma(k, (1 - p) / p) distributed.
    xp = rc.xp
    k = _as_param(xp, k, np.float64)
    p = _as_param(xp, p, np.float64)
    rate = _std_gamma(rc, k, size, np.float64) * ((1.0 - p) / p)
    return _poisson(rc, rate, size, wdt)


def _draw_gen_negative_binomial(rc, size, wdt, mu, alpha):
    # mean mu, variance mu + alpha * mu^2; alpha == 0 is the Poisson limit.
    xp = rc.xp
    mu = _as_param(xp, mu, np.float64)
    alpha = _as_param(xp, alpha, np.float64)
    pos = alpha > 0
    shape_k = xp.where(pos, 1.0 / xp.where(pos, alpha, 1.0), 1.0)
    rate = xp.where(pos, _std_gamma(rc, shape_k, size, np.float64) * (alpha * mu), mu)
    return _poisson(rc, xp.broadcast_to(rate, size), size, wdt)


# Checks on scalar parameters (the _random_* and _like forms), with 1.9.1's rules.
def _chk_uniform(a):
    if not a["high"] >= a["low"]:
        return "low must be less or equal to high in uniform distribution"


def _chk_normal(a):
    if not a["scale"] > 0:
        return "scale parameter in gaussian has to be positive"


def _chk_gamma(a):
    if not a["alpha"] > 0:
        return "alpha parameter in gamma distribution has to be positive"
    if not a["beta"] > 0:
        return "beta parameter in gamma distribution has to be positive"


def _chk_exponential(a):
    if not a["lam"] > 0:
        return "lambda parameter in exponential distribution has to be positive"


def _chk_poisson(a):
    if not a["lam"] >= 0:
        return "lambda parameter in poisson distribution has to be non-negative"


def _chk_negative_binomial(a):
    if not a["k"] >= 0:
        return "k parameter in negative binomial distribution has to be non-negative"
    if not a["p"] > 0:  # 1.9.1 returns garbage for p == 0
        return "p parameter in negative binomial distribution has to be positive"


def _chk_gen_negative_binomial(a):
    if not a["mu"] >= 0:
        return "mu parameter in generalized negative binomial distribution has to be non-negative"
    if not a["alpha"] >= 0:
        return ("alpha parameter in generalized negative binomial distribution has to be "
                "non-negative")


# Checks on array parameters (the _sample_* forms): only what would otherwise fail.
def _achk_gamma(xp, alpha, beta):
    if bool(xp.any(~(alpha > 0))):
        return "every alpha of a gamma distribution has to be positive"


def _achk_negative_binomial(xp, k, p):
    if bool(xp.any(~(k >= 0))):
        return "every k of a negative binomial distribution has to be non-negative"
    if bool(xp.any(~(p > 0))):
        return "every p of a negative binomial distribution has to be positive"


def _achk_gen_negative_binomial(xp, mu, alpha):
    if bool(xp.any(~(alpha >= 0))):
        return "every alpha of a generalized negative binomial distribution has to be non-negative"


# name, scalar params (name, kind, default), _sample_ input names, draw, scalar check,
# array check, description
_DISTS = [
    ("uniform", (("low", "float", 0.0), ("high", "float", 1.0)), ("low", "high"),
     _draw_uniform, _chk_uniform, None,
     "a uniform distribution on [low, high)"),
    ("normal", (("loc", "float", 0.0), ("scale", "float", 1.0)), ("mu", "sigma"),
     _draw_normal, _chk_normal, None,
     "a normal distribution with mean loc and standard deviation scale"),
    ("gamma", (("alpha", "float", 1.0), ("beta", "float", 1.0)), ("alpha", "beta"),
     _draw_gamma, _chk_gamma, _achk_gamma,
     "a gamma distribution with shape alpha and scale beta"),
    ("exponential", (("lam", "float", 1.0),), ("lam",),
     _draw_exponential, _chk_exponential, None,
     "an exponential distribution with rate lam"),
    ("poisson", (("lam", "float", 1.0),), ("lam",),
     _draw_poisson, _chk_poisson, None,
     "a Poisson distribution with rate lam (the samples are stored as floats)"),
    ("negative_binomial", (("k", "int", 1), ("p", "float", 1.0)), ("k", "p"),
     _draw_negative_binomial, _chk_negative_binomial, _achk_negative_binomial,
     "a negative binomial distribution: failures before the k-th success, each trial "
     "succeeding with probability p"),
    ("generalized_negative_binomial", (("mu", "float", 1.0), ("alpha", "float", 1.0)),
     ("mu", "alpha"), _draw_gen_negative_binomial, _chk_gen_negative_binomial,
     _achk_gen_negative_binomial,
     "a generalized negative binomial distribution with mean mu and dispersion alpha "
     "(variance mu + alpha * mu^2)"),
]


def _zero_grads(F, attrs, inputs, outputs, ograds):
    return [F.zeros_like(x) for x in inputs]


def _no_input_grads(F, attrs, inputs, outputs, ograds):
    return []


def _check_scalars(opname, check, attrs):
    msg = check(attrs)
    if msg:
        raise MXNetError(f"{opname}: {msg}")


# ---------------------------------------------------------------------------------------------
# _random_X: scalar parameters, no inputs


def _make_random(name, pspecs, draw, check, desc):
    opname = f"_random_{name}"
    pnames = [p[0] for p in pspecs]

    def compute(rc, attrs, out=None):
        _check_scalars(opname, check, attrs)
        buf = out[0] if out else None
        if buf is not None:   # a graph's buffer, shaped by inference (legacy 0 dimensions)
            shape = tuple(buf.shape)
        else:
            shape = _check_shape(opname, attrs["shape"], allow_empty=False)
        out_dt = dtype_np(attrs["dtype"] or "float32")
        wdt = _work_dtype(out_dt)
        gen = _parallel(rc)
        if gen is not None and name in _MT_EXACT:
            res = _mt_exact(gen, name, shape, out_dt, [attrs[p] for p in pnames])
        elif gen is not None:
            res = _mt_scalar(gen, name, shape, out_dt, *[attrs[p] for p in pnames])
        else:
            res = draw(rc, shape, wdt, *[attrs[p] for p in pnames]).astype(out_dt, copy=False)
        if buf is not None:
            buf[...] = res
            return buf
        return res

    def infer_shape(attrs, ins, outs):
        shape = attrs["shape"]
        if shape is None or len(shape) == 0:
            return ins, list(outs), []
        if not is_np_shape():   # legacy shapes: a 0 dimension is left for inference
            return ins, [tuple(None if d == 0 else d for d in shape)], []
        return ins, [tuple(shape)], []

    def infer_type(attrs, ins, outs):
        if attrs["dtype"] is not None:
            return ins, [dtype_np(attrs["dtype"])], []
        return ins, [outs[0] if outs and outs[0] is not None else np.dtype(np.float32)], []

    compute.__name__ = opname
    params = tuple(Param(n, k, d) for n, k, d in pspecs) + (
        Param("shape", "shape", None), Param("ctx", "str", ""),
        Param("dtype", "dtype", None, choices=_FLOATS))
    aliases = (f"random_{name}",) + ((name,) if name in ("uniform", "normal") else ())
    register(opname, compute, inputs=(), params=params, infer_shape=infer_shape,
             infer_type=infer_type, gradient=_no_input_grads, aliases=aliases, needs_rng=True,
             accepts_out=True, doc=f"Draw samples of ``shape`` from {desc}.")


# ---------------------------------------------------------------------------------------------
# _random_X_like: scalar parameters, shape and dtype of the input


def _make_like(name, pspecs, draw, check, desc):
    opname = f"_random_{name}_like"
    pnames = [p[0] for p in pspecs]

    def compute(rc, attrs, data):
        _require_float(opname, data.dtype)
        _check_scalars(opname, check, attrs)
        gen = _parallel(rc)
        if gen is not None and name in _MT_EXACT:
            return _mt_exact(gen, name, data.shape, data.dtype, [attrs[p] for p in pnames])
        if gen is not None:
            return _mt_scalar(gen, name, data.shape, data.dtype, *[attrs[p] for p in pnames])
        wdt = _work_dtype(data.dtype)
        return draw(rc, data.shape, wdt, *[attrs[p] for p in pnames]).astype(data.dtype,
                                                                              copy=False)

    def same(attrs, ins, outs):
        known = ins[0] if ins[0] is not None else outs[0]
        return [known], [known], []

    compute.__name__ = opname
    register(opname, compute, inputs=("data",),
             params=tuple(Param(n, k, d) for n, k, d in pspecs), infer_shape=same,
             infer_type=same, gradient=_zero_grads, needs_rng=True,
             doc=f"Draw samples from {desc}, shaped and typed like ``data``.")


# ---------------------------------------------------------------------------------------------
# _sample_X: one batch of ``shape`` draws per element of the parameter arrays


def _make_sample(name, inames, draw, acheck, desc):
    opname = f"_sample_{name}"

    def compute(rc, attrs, *params):
        xp = rc.xp
        first = params[0]
        for other, iname in zip(params[1:], inames[1:]):
            if other.shape != first.shape:
                raise MXNetError(f"{opname}: input '{iname}' has shape {tuple(other.shape)} "
                                 f"but '{inames[0]}' has shape {tuple(first.shape)}; the "
                                 "parameter arrays must have the same shape")
            if other.dtype != first.dtype:
                raise MXNetError(f"{opname}: input '{iname}' has dtype {other.dtype} but "
                                 f"'{inames[0]}' has dtype {first.dtype}; the parameter arrays "
                                 "must have the same dtype")
        extra = _check_shape(opname, attrs["shape"], allow_empty=True)
        out_dt = dtype_np(attrs["dtype"] or "float32")
        gen = _parallel(rc)
        if gen is not None and first.dtype.kind == "f" and name not in _MT_EXACT:
            size = tuple(first.shape) + extra
            bshape = tuple(first.shape) + (1,) * len(extra)
            with np.errstate(over="ignore", invalid="ignore"):
                return _mt_draw(gen, name, size, out_dt, *[p.reshape(bshape) for p in params])
        wdt = _work_dtype(out_dt)
        cast = [p.astype(wdt) for p in params]
        if acheck is not None:
            msg = acheck(xp, *cast)
            if msg:
                raise MXNetError(f"{opname}: {msg}")
        if gen is not None and first.dtype.kind == "f":     # 1.9.1's exact kernels
            return _mt_exact(gen, name, tuple(first.shape) + extra, out_dt,
                             [p.reshape(-1) for p in params])
        size = tuple(first.shape) + extra
        bshape = tuple(first.shape) + (1,) * len(extra)
        cast = [p.reshape(bshape) for p in cast]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = draw(rc, size, wdt, *cast)
        return xp.asarray(out).astype(out_dt, copy=False)

    def infer_shape(attrs, ins, outs):
        known = next((s for s in ins if s is not None), None)
        if known is None:
            return ins, list(outs), []
        for s in ins:
            if s is not None and tuple(s) != tuple(known):
                raise MXNetError(f"{opname}: parameter arrays must have the same shape, got "
                                 f"{[tuple(x) for x in ins if x is not None]}")
        return [tuple(known)] * len(ins), [tuple(known) + tuple(attrs["shape"] or ())], []

    def infer_type(attrs, ins, outs):
        known = next((t for t in ins if t is not None), None)
        if known is None:   # 1.9.1 leaves the output open until a parameter's type is known
            return list(ins), list(outs), []
        out = dtype_np(attrs["dtype"]) if attrs["dtype"] is not None else np.dtype(np.float32)
        return [known] * len(ins), [out], []

    compute.__name__ = opname
    register(opname, compute, inputs=inames,
             params=(Param("shape", "shape", ()), Param("dtype", "dtype", None, choices=_FLOATS)),
             infer_shape=infer_shape, infer_type=infer_type, gradient=_zero_grads,
             aliases=(f"sample_{name}",), needs_rng=True,
             doc=f"Draw ``shape`` samples from {desc} for each element of the parameter "
                 "arrays; the output shape is the parameters' shape followed by ``shape``.")


for _name, _pspecs, _inames, _draw, _chk, _achk, _desc in _DISTS:
    _make_random(_name, _pspecs, _draw, _chk, _desc)
    _make_like(_name, _pspecs, _draw, _chk, _desc)
    _make_sample(_name, _inames, _draw, _achk, _desc)


# ---------------------------------------------------------------------------------------------
# _random_randint


def _randint(rc, attrs):
    opname = "_random_randint"
    low, high = attrs["low"], attrs["high"]
    if high < low:
        raise MXNetError(f"{opname}: low must be less or equal to high in uniform distribution "
                         f"(low={low}, high={high})")
    if high == low:
        raise MXNetError(f"{opname}: the interval [low, high) = [{low}, {high}) is empty")
    # NumPy mode: shape () is one scalar draw (mx.sym.np.random.randint without size)
    shape = _check_shape(opname, attrs["shape"], allow_empty=is_np_shape())
    out_dt = dtype_np(attrs["dtype"] or "int32")
    gen = _parallel(rc)
    if gen is None:
        return rc.rng.integers(low, high, size=shape, dtype=np.int64).astype(out_dt, copy=False)
    # 1.9.1: low + (64-bit draw) % (high - low), in unsigned 64-bit arithmetic
    n = int(np.prod(shape, dtype=np.int64))
    span = np.uint64((high - low) & 0xFFFFFFFFFFFFFFFF)
    res = gen.randint_raw(n) % span + np.uint64(low & 0xFFFFFFFFFFFFFFFF)
    return res.view(np.int64).astype(out_dt, copy=False).reshape(shape)


register("_random_randint", _randint, inputs=(), params=(
    Param("low", "int"), Param("high", "int"), Param("shape", "shape", None),
    Param("ctx", "str", ""), Param("dtype", "dtype", None, choices=("int32", "int64"))),
    infer_shape=lambda a, i, o: (i, [tuple(a["shape"])] if a["shape"] or (
        a["shape"] == () and is_np_shape()) else list(o), []),
    infer_type=lambda a, i, o: (i, [dtype_np(a["dtype"] or "int32")], []),
    gradient=_no_input_grads, aliases=("random_randint",), needs_rng=True,
    doc="Draw integers uniformly from [low, high) (int32 unless ``dtype`` says int64).")


# ---------------------------------------------------------------------------------------------
# _sample_multinomial


def _multinomial_shape(opname, dshape, extra):
    if len(dshape) == 0:
        raise MXNetError(f"Operator {opname} inferring shapes failed: data must have at least "
                         "one dimension (the classes)")
    out = tuple(dshape[:-1]) + tuple(extra)
    return out if out else (1,)


def _first_above(xp, probs, u):
    """For each row r of ``probs`` (n, k) and each draw u[r, j]: the first class whose running
    sum exceeds u, or k when none does (1.9.1's rule, also for unnormalised rows)."""
    n, k = probs.shape
    if n == 0 or u.size == 0:
        return xp.zeros(u.shape, dtype=np.int64)
    cdf = xp.cumsum(probs, axis=1)
    if bool(xp.all(probs >= 0)):
        # rows are non-decreasing: one searchsorted over all rows, each lifted clear of the
        # previous one by an offset larger than any row total and any draw.
        lift = float(cdf[:, -1].max()) + 2.0
        offs = xp.arange(n, dtype=np.float64)[:, None] * lift
        idx = xp.searchsorted((cdf + offs).reshape(-1), (u + offs).reshape(-1), side="right")
        return idx.reshape(u.shape) - xp.arange(n)[:, None] * k
    above = cdf[:, None, :] > u[:, :, None]
    return xp.where(xp.any(above, axis=2), xp.argmax(above, axis=2), k)


def _sample_multinomial(rc, attrs, data):
    opname = "_sample_multinomial"
    xp = rc.xp
    _require_float(opname, data.dtype)
    extra = _check_shape(opname, attrs["shape"], allow_empty=True)
    out_shape = _multinomial_shape(opname, data.shape, extra)
    k = data.shape[-1]
    if k == 0:
        raise MXNetError(f"{opname}: data has no classes (last dimension is 0)")
    n = int(np.prod(data.shape[:-1], dtype=np.int64))
    m = int(np.prod(extra, dtype=np.int64))
    serial = getattr(rc.rng, "serial", None)
    if serial is not None:      # 1.9.1's CPU draws
        return _multinomial_mt(serial, data, n, k, m, out_shape, attrs)
    probs = data.reshape(n, k).astype(np.float64)
    u = rc.rng.random((n, m), dtype=np.float64)
    cls = _first_above(xp, probs, u)
    sample = cls.reshape(out_shape).astype(dtype_np(attrs["dtype"]), copy=False)
    if not attrs["get_prob"]:
        return sample
    picked = xp.take_along_axis(probs, xp.minimum(cls, k - 1), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = xp.log(picked)
    return sample, logp.reshape(out_shape).astype(data.dtype, copy=False)


def _multinomial_mt(serial, data, n, k, m, out_shape, attrs):
    """1.9.1's CPU kernel: one float32 uniform from the single engine per sample, row after
    row, compared (in the probabilities' type) with the running sums of the row's
    probabilities: the first class whose sum exceeds it, else ``k`` (one past the last class,
    as 1.9.1 gives for rows summing to less than the draw)."""
    from ..backend import mt_dists  # noqa: PLC0415
    rows = data.reshape(n, k)
    u = serial.uniform_f32(n * m).reshape(n, m)
    if rows.dtype == np.float64:
        u = u.astype(np.float64)
    # running sums in the probabilities' type (half: in float, as mshadow's half_t adds)
    cdf = np.cumsum(rows, axis=1, dtype=np.float32 if rows.dtype == np.float16 else rows.dtype)
    if n and m and bool((rows >= 0).all()) and np.isfinite(cdf[:, -1]).all():
        # rows never decrease: searchsorted. Many rows: one call, the rows lifted clear of
        # each other by multiples of a power of two above every sum and draw, when the
        # float64 sums stay exact (no nonzero value below the lifts' last bit); else row by row
        top = max(float(cdf[:, -1].max()), 1.0)
        lift = 2.0 ** (int(np.ceil(np.log2(top))) + 1)
        exact = n > 64 and rows.dtype != np.float64
        if exact:
            both = np.concatenate([cdf.reshape(-1), u.reshape(-1)])
            tiny = both[both > 0]
            exact = not len(tiny) or float(tiny.min()) >= n * lift * 2.0 ** -27
        if exact:
            offs = np.arange(n, dtype=np.float64)[:, None] * lift
            idx = np.searchsorted((cdf.astype(np.float64) + offs).reshape(-1),
                                  (u.astype(np.float64) + offs).reshape(-1), side="right")
            cls = idx.reshape(n, m) - np.arange(n)[:, None] * k
        else:
            cls = np.stack([np.searchsorted(cdf[r], u[r], side="right") for r in range(n)])
    elif n and m:
        hit = cdf[:, None, :] > u[:, :, None]
        cls = np.where(hit.any(axis=2), hit.argmax(axis=2), k)
    else:
        cls = np.zeros((n, m), dtype=np.int64)
    sample = cls.reshape(out_shape).astype(dtype_np(attrs["dtype"]), copy=False)
    if not attrs["get_prob"]:
        return sample
    picked = np.take_along_axis(rows, np.minimum(cls, k - 1), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = mt_dists._logf(picked) if picked.dtype == np.float32 else (
            mt_dists._glog(picked) if picked.dtype == np.float64 else np.log(picked))
    return sample, np.asarray(lp).reshape(out_shape).astype(data.dtype, copy=False)


def _multinomial_grad(F, attrs, inputs, outputs, ograds):
    if not attrs["get_prob"]:
        return [F.zeros_like(inputs[0])]
    return [F._backward_sample_multinomial(ograds[1], inputs[0], outputs[0])]


def _multinomial_infer_shape(attrs, ins, outs):
    if ins[0] is None:
        return ins, list(outs), []
    out = _multinomial_shape("_sample_multinomial", ins[0], attrs["shape"] or ())
    return ins, [out] * (2 if attrs["get_prob"] else 1), []


def _multinomial_infer_type(attrs, ins, outs):
    sample_t = dtype_np(attrs["dtype"])
    if ins[0] is None:   # open until the probabilities' type is known, as in 1.9.1
        return ins, list(outs), []
    if attrs["get_prob"]:
        return ins, [sample_t, ins[0]], []
    return ins, [sample_t], []


register("_sample_multinomial", _sample_multinomial, inputs=("data",), params=(
    Param("shape", "shape", ()), Param("get_prob", "bool", False),
    Param("dtype", "dtype", "int32", choices=("float16", "float32", "float64", "int32", "uint8"))),
    num_outputs=lambda a: 2 if a["get_prob"] else 1,
    infer_shape=_multinomial_infer_shape, infer_type=_multinomial_infer_type,
    gradient=_multinomial_grad, aliases=("sample_multinomial",), needs_rng=True,
    doc="Draw class indices from the categorical distributions in the last axis of ``data`` "
        "(``shape`` draws per distribution). With ``get_prob=True`` a second output holds the "
        "log-probability of each draw; its head gradient flows back to ``data``.")


def _backward_sample_multinomial(rc, attrs, ograd, data, sample):
    """d(sum ograd * log p[s]) / dp: ograd / p[s] accumulated at each drawn class."""
    xp = rc.xp
    k = data.shape[-1]
    n = int(np.prod(data.shape[:-1], dtype=np.int64))
    probs = data.reshape(n, k).astype(np.float64)
    cls = xp.minimum(sample.reshape(n, -1).astype(np.int64), k - 1)
    picked = xp.take_along_axis(probs, cls, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        contrib = ograd.reshape(n, -1).astype(np.float64) / picked
    flat = (cls + xp.arange(n)[:, None] * k).reshape(-1)
    grad = xp.bincount(flat, weights=contrib.reshape(-1), minlength=n * k)
    return grad.reshape(data.shape).astype(data.dtype, copy=False)


register("_backward_sample_multinomial", _backward_sample_multinomial,
         inputs=("ograd", "data", "sample"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []))


# ---------------------------------------------------------------------------------------------
# _shuffle


def _shuffle(rc, attrs, data):
    if data.ndim == 0:
        raise MXNetError("Operator _shuffle inferring shapes failed: data must have at least one "
                         "dimension")
    n = data.shape[0]
    rng = rc.rng
    serial = getattr(rng, "serial", None)
    if serial is not None:      # 1.9.1's CPU swaps, drawn from its single engine
        from ..backend.mt_dists import shuffle_permutation  # noqa: PLC0415
        return data[shuffle_permutation(serial, n, data.ndim)]
    perm = rng.permutation(n) if hasattr(rng, "permutation") else rc.xp.argsort(
        rng.random(n, dtype=np.float64))
    return data[perm]


register("_shuffle", _shuffle, inputs=("data",),
         infer_shape=lambda a, i, o: ([i[0] or o[0]], [i[0] or o[0]], []),
         infer_type=lambda a, i, o: ([i[0] or o[0]], [i[0] or o[0]], []),
         aliases=("shuffle",), needs_rng=True,
         doc="Randomly permute ``data`` along its first axis (rows keep their contents).")


# ---------------------------------------------------------------------------------------------
# _random_pdf_X: densities (or log-densities) of samples, with gradients.
#
# The parameters have one common shape P; ``sample`` has shape P + E (E may be empty) and
# holds len(E) samples per distribution; the output has the sample's shape. Dirichlet's
# ``alpha`` is P + (k,) and its sample P + E + (k,), giving P + E. As in 1.9.1 there are no
# support checks (uniform's density is 1 / (high - low) everywhere, gamma's is nan for
# negative samples) and the discrete distributions pass no gradient to ``sample``.
# Gradients come from ``_backward_pdf_X``. float32 data on NumPy takes 1.9.1's own float32
# steps (random_pdf32, bit for bit); other dtypes and backends the float64 closed forms below.


def _special():
    from . import special  # noqa: PLC0415 - sibling module, imported when a pdf first runs
    return special


# 1.9.1 normalises by sqrt(2 pi) with pi's float32 value (also for float64 data)
_SQRT_2PI_F = float(np.sqrt(2.0 * float(np.float32(np.pi))))


def _pdf_normal(xp, x, mu, sigma):
    d = x - mu
    z = d / sigma
    e = (-0.5 * d * d) / (sigma * sigma)   # (1.9.1's steps, which float64 data repeats)
    norm = _SQRT_2PI_F * sigma
    return e - xp.log(norm), xp.exp(e) / norm, [-z / sigma, z / sigma, (z * z - 1.0) / sigma]


def _pdf_uniform(xp, x, low, high):
    width = high - low
    inv = 1.0 / width
    return -xp.log(width), xp.broadcast_to(inv, x.shape), [None, inv, -inv]


def _pdf_gamma(xp, x, alpha, beta):
    sp = _special()
    logx = xp.log(x)
    logf = alpha * xp.log(beta) + (alpha - 1.0) * logx - beta * x - sp.lgamma(xp, alpha)
    return logf, None, [(alpha - 1.0) / x - beta,
                        xp.log(beta) + logx - sp.digamma(xp, alpha), alpha / beta - x]


def _pdf_exponential(xp, x, lam):
    return xp.log(lam) - lam * x, lam * xp.exp(-lam * x), [-lam + 0.0 * x, 1.0 / lam - x]


def _pdf_poisson(xp, x, lam):
    sp = _special()
    logf = x * xp.log(lam) - lam - sp.lgamma(xp, x + 1.0)
    return logf, None, [None, x / lam - 1.0]


def _pdf_negative_binomial(xp, x, k, p):
    sp = _special()
    logf = (sp.lgamma(xp, x + k) - sp.lgamma(xp, x + 1.0) - sp.lgamma(xp, k)
            + k * xp.log(p) + x * xp.log1p(-p))
    dk = sp.digamma(xp, x + k) - sp.digamma(xp, k) + xp.log(p)
    return logf, None, [None, dk, k / p - x / (1.0 - p)]


def _pdf_gen_negative_binomial(xp, x, mu, alpha):
    # a negative binomial with k = 1 / alpha and success probability 1 / (1 + alpha mu)
    sp = _special()
    k = 1.0 / alpha
    am = alpha * mu
    log1am = xp.log1p(am)
    logf = (sp.lgamma(xp, x + k) - sp.lgamma(xp, x + 1.0) - sp.lgamma(xp, k)
            - k * log1am + x * (xp.log(am) - log1am))
    dmu = x / mu - (1.0 + x * alpha) / (1.0 + am)
    dalpha = (k * k * (sp.digamma(xp, k) - sp.digamma(xp, x + k) + log1am)
              - k * mu / (1.0 + am) + x * k - x * mu / (1.0 + am))
    return logf, None, [None, dmu, dalpha]


def _pdf_dirichlet(xp, x, alpha):
    sp = _special()
    logx = xp.log(x)
    total = alpha.sum(axis=-1, keepdims=True)
    logf = (sp.lgamma(xp, total[..., 0]) - sp.lgamma(xp, alpha).sum(axis=-1)
            + ((alpha - 1.0) * logx).sum(axis=-1))
    dx = (alpha - 1.0) / x
    dalpha = sp.digamma(xp, total) - sp.digamma(xp, alpha) + logx
    return logf, None, [dx, dalpha]


# name, parameter input names, density function, description
_PDFS = [
    ("normal", ("mu", "sigma"), _pdf_normal, "normal distributions (mean mu, deviation sigma)"),
    ("uniform", ("low", "high"), _pdf_uniform, "uniform distributions on [low, high)"),
    ("gamma", ("alpha", "beta"), _pdf_gamma, "gamma distributions (shape alpha, rate beta)"),
    ("exponential", ("lam",), _pdf_exponential, "exponential distributions (rate lam)"),
    ("poisson", ("lam",), _pdf_poisson, "Poisson distributions (rate lam)"),
    ("negative_binomial", ("k", "p"), _pdf_negative_binomial,
     "negative binomial distributions (k successes, success probability p)"),
    ("generalized_negative_binomial", ("mu", "alpha"), _pdf_gen_negative_binomial,
     "negative binomial distributions with mean mu and dispersion alpha"),
    ("dirichlet", ("alpha",), _pdf_dirichlet, "Dirichlet distributions (concentrations alpha)"),
]


def _pdf_layout(opname, dirichlet, sample_shape, param_shapes, inames):
    """Check the shapes; return (P, E): the parameter batch shape and the extra sample axes."""
    first = tuple(param_shapes[0])
    for s, n in zip(param_shapes[1:], inames[1:]):
        if tuple(s) != first:
            raise MXNetError(f"{opname}: Shape inconsistent: '{n}' has shape {tuple(s)} but "
                             f"'{inames[0]}' has shape {first}; the parameters must share a shape")
    sample_shape = tuple(sample_shape)
    if dirichlet:
        if len(first) == 0:
            raise MXNetError(f"{opname}: alpha needs at least one axis (the classes)")
        batch = first[:-1]
        ok = (len(sample_shape) >= len(first) and sample_shape[-1] == first[-1]
              and sample_shape[:len(batch)] == batch)
        extra = sample_shape[len(batch):-1] if ok else ()
    else:
        batch = first
        ok = sample_shape[:len(batch)] == batch and len(sample_shape) >= len(batch)
        extra = sample_shape[len(batch):] if ok else ()
    if not ok:
        raise MXNetError(f"{opname}: Shape inconsistent: sample has shape {sample_shape}, which "
                         f"must start with the parameters' shape {first if not dirichlet else batch}"
                         + (f" and end with {first[-1]} classes" if dirichlet else ""))
    return batch, extra


def _pdf_eval(opname, fn, dirichlet, xp, sample, params, inames):
    batch, extra = _pdf_layout(opname, dirichlet, sample.shape, [p.shape for p in params], inames)
    tail = (sample.shape[-1],) if dirichlet else ()
    bshape = batch + (1,) * len(extra) + tail
    x = sample.astype(np.float64)
    ps = [p.astype(np.float64).reshape(bshape) for p in params]
    if not dirichlet:
        ps = [xp.broadcast_to(p, x.shape) for p in ps]
    with np.errstate(all="ignore"):
        logf, direct, grads = fn(xp, x, *ps)
    return logf, direct, grads, len(batch), len(extra)


def _pdf32_args(opname, name, dirichlet, xp, sample, params, inames):
    """(forward, sample, params reshaped to broadcast, nb, ne) where 1.9.1's float32 steps
    apply (random_pdf32: NumPy and float32 data), else None."""
    from .random_pdf32 import PDF32  # noqa: PLC0415 - sibling module, loaded on first use
    if xp is not np or sample.dtype != np.float32 or name not in PDF32 or \
            any(p.dtype != np.float32 for p in params):
        return None
    batch, extra = _pdf_layout(opname, dirichlet, sample.shape, [p.shape for p in params], inames)
    bshape = batch + (1,) * len(extra) + ((sample.shape[-1],) if dirichlet else ())
    return PDF32[name][0], sample, [p.reshape(bshape) for p in params], len(batch), len(extra)


def _pdf32_backward(name, exact, is_log, ograd, sample, params):
    from .random_pdf32 import PDF32, sum_samples  # noqa: PLC0415
    fwd, x, ps, nb, ne = exact
    with np.errstate(all="ignore"):
        og = ograd.astype(np.float32, copy=False)
        sc = og if is_log else og * fwd(x, *ps, False)
        grads = PDF32[name][1](x, *ps, sc)
        arrs = (sample,) + tuple(params)
        outs = [np.zeros(a.shape, dtype=a.dtype) if d is None else None
                for d, a in zip(grads, arrs)]
        if grads[0] is not None:
            outs[0] = np.ascontiguousarray(np.broadcast_to(grads[0], sample.shape))
        live = [i for i in range(1, len(grads)) if grads[i] is not None]
        if live:   # the parameters' gradients summed over the samples in one pass
            sums = sum_samples(np.stack([np.broadcast_to(grads[i], sample.shape)
                                         for i in live]), nb + 1, ne)
            for j, i in enumerate(live):
                outs[i] = np.ascontiguousarray(sums[j]).reshape(arrs[i].shape)
    return tuple(outs)


def _make_pdf(name, inames, fn, desc):
    opname = f"_random_pdf_{name}"
    dirichlet = name == "dirichlet"

    def compute(rc, attrs, sample, *params):
        xp = rc.xp
        exact = _pdf32_args(opname, name, dirichlet, xp, sample, params, inames)
        if exact is not None:
            fwd, x, ps, _, _ = exact
            with np.errstate(all="ignore"):
                return np.ascontiguousarray(fwd(x, *ps, attrs["is_log"]))
        logf, direct, _, _, _ = _pdf_eval(opname, fn, dirichlet, xp, sample, params, inames)
        if attrs["is_log"]:
            out = logf
        else:
            with np.errstate(all="ignore"):
                out = direct if direct is not None else xp.exp(logf)
        return xp.asarray(out).astype(sample.dtype, copy=False)

    def backward(rc, attrs, ograd, sample, *params):
        xp = rc.xp
        exact = _pdf32_args(opname, name, dirichlet, xp, sample, params, inames)
        if exact is not None:
            return _pdf32_backward(name, exact, attrs["is_log"], ograd, sample, params)
        logf, direct, grads, nb, ne = _pdf_eval(opname, fn, dirichlet, xp, sample, params, inames)
        g = ograd.astype(np.float64)
        with np.errstate(all="ignore"):
            if not attrs["is_log"]:
                g = g * (direct if direct is not None else xp.exp(logf))
            if dirichlet:
                g = g[..., None]
            outs = []
            for i, (d, arr) in enumerate(zip(grads, (sample,) + params)):
                if d is None:
                    outs.append(xp.zeros(arr.shape, dtype=arr.dtype))
                    continue
                full = xp.broadcast_to(g * d, sample.shape)
                if i > 0 and ne:
                    full = full.sum(axis=tuple(range(nb, nb + ne)))
                outs.append(full.reshape(arr.shape).astype(arr.dtype, copy=False))
        return tuple(outs)

    def infer_shape(attrs, ins, outs):
        if any(s is None for s in ins):
            return ins, [ins[0]] if ins[0] is not None else list(outs), []
        batch, extra = _pdf_layout(opname, dirichlet, ins[0], ins[1:], inames)
        return ins, [tuple(batch) + tuple(extra)] if dirichlet else [tuple(ins[0])], []

    def infer_type(attrs, ins, outs):
        known = next((t for t in ins if t is not None), None)
        return [known] * len(ins), [known], []

    def gradient(F, attrs, inputs, outputs, ograds):
        res = getattr(F, f"_backward_pdf_{name}")(ograds[0], *inputs, is_log=attrs["is_log"])
        return list(res) if isinstance(res, (list, tuple)) else [res]

    compute.__name__ = opname
    backward.__name__ = f"_backward_pdf_{name}"
    is_log = (Param("is_log", "bool", False),)
    register(opname, compute, inputs=("sample",) + inames, params=is_log,
             infer_shape=infer_shape, infer_type=infer_type, gradient=gradient,
             aliases=(f"random_pdf_{name}",),
             doc=f"The density (``is_log=True``: log-density) of ``sample`` under {desc}; "
                 "the parameters' shape must lead the sample's shape.")
    register(f"_backward_pdf_{name}", backward, inputs=("ograd", "sample") + inames,
             params=is_log, num_outputs=1 + len(inames), nd_hidden=True,
             infer_shape=lambda a, i, o: (i, list(i[1:]), []),
             infer_type=lambda a, i, o: (i, list(i[1:]), []))


for _name, _inames, _fn, _desc in _PDFS:
    _make_pdf(_name, _inames, _fn, _desc)
