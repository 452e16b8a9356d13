"""``mx.np.random``: samplers drawing from the device generator that ``mx.random.seed`` /
``npx.random.seed`` seed. Streams differ from 1.9.1's (a different generator); the
distributions, shapes and dtypes match."""
from __future__ import annotations

import numpy as _onp

from ..base import MXNetError, MXNetValueError
from ..ndarray.ndarray import NDArray, invoke
from ..operator.registry import get_op
from .multiarray import _ctx, _dt, _with_out, ndarray

__all__ = ["uniform", "normal", "randint", "choice", "shuffle", "multinomial", "rand", "randn",
           "seed"]


def _size(size):
    if size is None:
        return None
    if isinstance(size, (int, _onp.integer)):
        return (int(size),)
    return tuple(int(s) for s in size)


def _draw(name, ctx, **kwargs):
    op = get_op(name)
    return invoke(op, [], op.parse_attrs(kwargs), ctx=_ctx(ctx), cls=ndarray)


def _scalar(v, fname, arg):
    if isinstance(v, NDArray):
        raise MXNetError(f"{fname}: array-valued {arg} is not supported yet; pass a scalar")
    return float(v)


# --- array-valued parameters ---------------------------------------------------------------
# A sampler given mx.np arrays draws standard noise of the broadcast shape and transforms it
# with recorded array operations, so that (as in 1.9.1) normal / logistic / gumbel
# differentiate loc and scale, exponential / rayleigh their scale and weibull / pareto their
# ``a`` (pathwise gradients), while uniform, gamma and power give zero gradients.

def _any_array(*vals):
    return any(isinstance(v, NDArray) for v in vals)


def _arr_params(fname, dtype, ctx, params, detach=False):
    """The parameters as arrays of the output dtype (scalars stay floats), the output dtype,
    the device and the broadcast shape of the array parameters."""
    dt = _dt(dtype)
    out, shapes, dev = {}, [], None
    for k, v in params.items():
        if isinstance(v, NDArray):
            if not isinstance(v, ndarray):
                v = v.as_np_ndarray()
            dev = dev or v.context
            v = v.detach() if detach else v
            out[k] = v.astype(dt) if v.dtype != dt else v
            shapes.append(v.shape)
        else:
            out[k] = float(v)
    return out, dt, _ctx(ctx) if ctx is not None else dev, _onp.broadcast_shapes(*shapes)


def _out_shape(fname, size, bshape):
    size = _size(size)
    if size is None:
        return bshape
    try:
        ok = _onp.broadcast_shapes(bshape, size) == size
    except ValueError:
        ok = False
    if not ok:
        raise MXNetError(f"{fname}: operands could not be broadcast together with shapes "
                         f"{list(bshape)} {list(size)} (the parameters and size)")
    return size


def _check(fname, name, v, strict=False):
    """1.9.1 checks array parameters on the values: ValueError when one is negative (or not
    positive, ``strict``)."""
    if isinstance(v, NDArray):
        bad = (v <= 0) if strict else (v < 0)
        if bool(bad.asnumpy().any()):
            raise ValueError(f"{fname}: expect {name} {'>' if strict else '>='} 0")


def _noise(opname, shape, dt, ctx, **kw):
    return _draw(opname, ctx, size=shape, dtype=dt.name, **kw)


def _sample_array(fname, size, dtype, ctx, out, params, build, detach=False):
    vals, dt, dev, bshape = _arr_params(fname, dtype, ctx, params, detach)
    shape = _out_shape(fname, size, bshape)
    res = build(vals, shape, dt, dev)
    if res.dtype != dt:
        res = res.astype(dt)
    if detach:  # keep the parameters in the graph with zero gradients, as 1.9.1 does
        from .multiarray import _call
        for v in params.values():
            if isinstance(v, NDArray):
                res = res + _call("_npi_zeros_like", [v.as_np_ndarray()]).astype(dt)
    return _with_out(res, out)


def _loc_scale(fname, opname, loc, scale, size, dtype, ctx, out, **std):
    _check(fname, "scale", scale)
    return _sample_array(fname, size, dtype, ctx, out, {"loc": loc, "scale": scale},
                         lambda v, shape, dt, dev: v["loc"] + v["scale"] * _noise(
                             opname, shape, dt, dev, **std))


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from U[low, high) (float32 unless ``dtype`` is given); a scalar array when
    ``size`` is None."""
    if _any_array(low, high):  # zero gradients, as in 1.9.1
        return _sample_array("uniform", size, dtype, ctx, out, {"low": low, "high": high},
                             lambda v, shape, dt, dev: v["low"] + (v["high"] - v["low"]) * _noise(
                                 "_npi_uniform", shape, dt, dev), detach=True)
    res = _draw("_npi_uniform", ctx, low=_scalar(low, "uniform", "low"),
                high=_scalar(high, "uniform", "high"), size=_size(size), dtype=_dt(dtype).name)
    return _with_out(res, out)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from N(loc, scale**2) (float32 unless ``dtype`` is given)."""
    if not isinstance(scale, NDArray) and scale < 0:
        raise MXNetValueError(f"normal: scale must be non-negative, got {scale}")  # as 1.9.1
    if _any_array(loc, scale):
        return _loc_scale("normal", "_npi_normal", loc, scale, size, dtype, ctx, out)
    res = _draw("_npi_normal", ctx, loc=_scalar(loc, "normal", "loc"),
                scale=_scalar(scale, "normal", "scale"), size=_size(size),
                dtype=_dt(dtype).name)
    return _with_out(res, out)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Integers from [low, high) (or [0, low) when ``high`` is None); int64 by default."""
    res = _draw("_npi_random_randint", ctx, low=int(low), high=None if high is None else int(high),
                size=_size(size), dtype=_onp.dtype(dtype or _onp.int64).name)
    return _with_out(res, out)


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """Samples from ``range(a)`` (an int) or from the elements of a 1-D array ``a``."""
    pool = None
    if isinstance(a, NDArray):
        if a.ndim != 1:
            raise ValueError("choice: a must be 1-dimensional")
        pool, a = a, a.shape[0]
    op = get_op("_npi_choice")
    inputs = []
    attrs = {"a": int(a), "size": _size(size), "replace": bool(replace), "weighted": p is not None}
    if p is not None:
        if not isinstance(p, NDArray):
            from .multiarray import array
            p = array(p, dtype="float64")
        inputs = [p]
    idx = invoke(op, inputs, op.parse_attrs(attrs), ctx=_ctx(ctx), cls=ndarray)
    res = idx if pool is None else pool[idx]
    return _with_out(res, out)


def shuffle(x):
    """Shuffle ``x`` in place along its first axis."""
    if not isinstance(x, NDArray):
        raise TypeError(f"shuffle: expected an mxnet.numpy.ndarray, got {type(x).__name__}")
    res = invoke(get_op("_shuffle"), [x], get_op("_shuffle").parse_attrs({}))
    x._assign(res._data)


def multinomial(n, pvals, size=None, ctx=None):
    """Counts (int64) of ``n`` draws over the categories with probabilities ``pvals``."""
    if isinstance(pvals, NDArray):
        pvals = pvals.asnumpy()
    pvals = tuple(float(p) for p in _onp.asarray(pvals, dtype=_onp.float64).reshape(-1))
    if isinstance(n, (bool, float, _onp.floating)):  # as 1.9.1: no silent truncation of n
        raise MXNetError(f"multinomial: n must be an int, got {n!r}")
    return _draw("_npi_multinomial", ctx, n=int(n), pvals=pvals, size=_size(size))


def rand(*size, **kwargs):
    """Uniform [0, 1) samples of the given shape."""
    return uniform(size=size or None, **kwargs)


def randn(*size, **kwargs):
    """Standard normal samples of the given shape."""
    return normal(size=size or None, **kwargs)


def seed(seed_state, ctx="all"):
    """Seed the random generators (as ``mx.random.seed``)."""
    from ..random import seed as _seed
    _seed(seed_state, ctx)


# --- more distributions (array-valued parameters broadcast, see above) --------------------------

def _dist(opname, fname, size, dtype, ctx, out=None, **params):
    for k, v in params.items():
        params[k] = _scalar(v, fname, k)
    res = _draw(opname, ctx, size=_size(size), dtype=_dt(dtype).name, **params)
    return _with_out(res, out)


def _positive(fname, **params):
    for k, v in params.items():
        if not isinstance(v, NDArray) and v <= 0:
            raise MXNetError(f"{fname}: {k} must be positive, got {v}")


def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the exponential distribution with mean ``scale``."""
    if _any_array(scale):
        _check("exponential", "scale", scale)
        return _sample_array("exponential", size, None, ctx, out, {"scale": scale},
                             lambda v, shape, dt, dev: v["scale"] * _noise(
                                 "_npi_exponential", shape, dt, dev))
    _positive("exponential", scale=scale)
    return _dist("_npi_exponential", "exponential", size, None, ctx, out, scale=scale)


def gamma(shape=1.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from Gamma(shape, scale) (zero gradients for array parameters, as in 1.9.1)."""
    if _any_array(shape, scale):
        _check("gamma", "shape", shape, strict=True)
        _check("gamma", "scale", scale, strict=True)

        def build(v, shp, dt, dev):
            arrs = [v[k] for k in ("shape", "scale") if isinstance(v[k], NDArray)]
            op = get_op("_npi_gamma")
            attrs = {k: (None if isinstance(v[k], NDArray) else v[k]) for k in ("shape", "scale")}
            attrs.update(size=shp, dtype=dt.name)
            return invoke(op, arrs, op.parse_attrs(attrs), ctx=dev, cls=ndarray)
        return _sample_array("gamma", size, dtype, ctx, out, {"shape": shape, "scale": scale},
                             build, detach=True)
    _positive("gamma", shape=shape, scale=scale)
    return _dist("_npi_gamma", "gamma", size, dtype, ctx, out, shape=shape, scale=scale)


def beta(a, b, size=None, dtype=None, ctx=None):
    """Samples from Beta(a, b)."""
    if _any_array(a, b):
        x = gamma(a, 1.0, size=size, dtype="float64", ctx=ctx)
        y = gamma(b, 1.0, size=size, dtype="float64", ctx=ctx)
        return (x / (x + y)).astype(_dt(dtype))
    _positive("beta", a=a, b=b)
    return _dist("_npi_beta", "beta", size, dtype, ctx, a=a, b=b)


def chisquare(df, size=None, dtype=None, ctx=None):
    """Samples from the chi-square distribution with ``df`` degrees of freedom."""
    if _any_array(df):
        return gamma(df / 2, 0.5, size=size, dtype=dtype, ctx=ctx)
    _positive("chisquare", df=df)
    return _dist("_npi_chisquare", "chisquare", size, dtype, ctx, df=df)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Gumbel distribution."""
    if _any_array(loc, scale):
        return _loc_scale("gumbel", "_npi_gumbel", loc, scale, size, None, ctx, out)
    return _dist("_npi_gumbel", "gumbel", size, None, ctx, out, loc=loc, scale=scale)


def laplace(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the Laplace distribution."""
    return _dist("_npi_laplace", "laplace", size, dtype, ctx, out, loc=loc, scale=scale)


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the logistic distribution."""
    if _any_array(loc, scale):
        return _loc_scale("logistic", "_npi_logistic", loc, scale, size, None, ctx, out)
    return _dist("_npi_logistic", "logistic", size, None, ctx, out, loc=loc, scale=scale)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples whose logarithm is N(mean, sigma**2)."""
    if _any_array(mean, sigma):
        from ._op import exp
        return _with_out(exp(normal(mean, sigma, size=size, dtype=dtype, ctx=ctx)), out)
    return _dist("_npi_lognormal", "lognormal", size, dtype, ctx, out, mean=mean, sigma=sigma)


def pareto(a, size=None, ctx=None, out=None):
    """Samples from the Pareto II (Lomax) distribution with shape ``a``."""
    if _any_array(a):
        from ._op import exp
        _check("pareto", "a", a)
        return _sample_array("pareto", size, None, ctx, out, {"a": a},
                             lambda v, shape, dt, dev: exp(_noise(
                                 "_npi_exponential", shape, dt, dev) / v["a"]) - 1)
    _positive("pareto", a=a)
    return _dist("_npi_pareto", "pareto", size, None, ctx, out, a=a)


def power(a, size=None, ctx=None, out=None):
    """Samples in [0, 1] from the power distribution with exponent ``a - 1``."""
    if _any_array(a):  # zero gradients, as in 1.9.1
        _check("power", "a", a)
        return _sample_array("power", size, None, ctx, out, {"a": a},
                             lambda v, shape, dt, dev: _noise(
                                 "_npi_uniform", shape, dt, dev) ** (1.0 / v["a"]), detach=True)
    _positive("power", a=a)
    return _dist("_npi_powerd", "power", size, None, ctx, out, a=a)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Rayleigh distribution."""
    if _any_array(scale):
        _check("rayleigh", "scale", scale)
        return _sample_array("rayleigh", size, None, ctx, out, {"scale": scale},
                             lambda v, shape, dt, dev: v["scale"] * _noise(
                                 "_npi_rayleigh", shape, dt, dev))
    return _dist("_npi_rayleigh", "rayleigh", size, None, ctx, out, scale=scale)


def weibull(a, size=None, ctx=None, out=None):
    """Samples from the Weibull distribution with shape ``a``."""
    if _any_array(a):
        _check("weibull", "a", a)
        return _sample_array("weibull", size, None, ctx, out, {"a": a},
                             lambda v, shape, dt, dev: _noise(
                                 "_npi_exponential", shape, dt, dev) ** (1.0 / v["a"]))
    _positive("weibull", a=a)
    return _dist("_npi_weibull", "weibull", size, None, ctx, out, a=a)


def f(dfnum, dfden, size=None, dtype=None, ctx=None):
    """Samples from the F distribution."""
    _positive("f", dfnum=dfnum, dfden=dfden)
    return _dist("_npi_f", "f", size, dtype, ctx, dfnum=dfnum, dfden=dfden)


def binomial(n, p, size=None, dtype=None, ctx=None):
    """Numbers of successes in ``n`` trials of probability ``p`` (int64 by default)."""
    if not 0 <= float(p) <= 1:
        raise MXNetError(f"binomial: p must be in [0, 1], got {p}")
    return _dist("_npi_binomial", "binomial", size, dtype or "int64", ctx, n=n, p=p)


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):  # noqa: ARG001
    """Samples from N(mean, cov) (mean a 1-d array, cov a 2-d array)."""
    if not isinstance(mean, NDArray) or not isinstance(cov, NDArray):
        raise TypeError("multivariate_normal: mean and cov must be mxnet.numpy.ndarray")
    if mean.ndim != 1 or cov.shape != (mean.shape[0], mean.shape[0]):
        raise MXNetError(f"multivariate_normal: mean {mean.shape} and cov {cov.shape} do not "
                         "fit")
    op = get_op("_npi_multivariate_normal")
    return invoke(op, [mean, cov], op.parse_attrs({"size": _size(size)}), cls=ndarray)


__all__ += ["exponential", "gamma", "beta", "chisquare", "gumbel", "laplace", "logistic",
            "lognormal", "pareto", "power", "rayleigh", "weibull", "f", "binomial",
            "multivariate_normal"]
