"""``mx.np.random``: samplers drawing from the device generator that ``mx.random.seed`` /
``npx.random.seed`` seed. Streams differ from 1.9.1's (a different generator); the
distributions, shapes and dtypes match."""
from __future__ import annotations

import numpy as _onp

from ..base import MXNetError
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


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from U[low, high) (float32 unless ``dtype`` is given); a scalar array when
    ``size`` is None."""
    res = _draw("_npi_uniform", ctx, low=_scalar(low, "uniform", "low"),
                high=_scalar(high, "uniform", "high"), size=_size(size), dtype=_dt(dtype).name)
    return _with_out(res, out)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from N(loc, scale**2) (float32 unless ``dtype`` is given)."""
    if not isinstance(scale, NDArray) and scale < 0:
        raise MXNetError(f"normal: scale must be non-negative, got {scale}")
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


# --- more distributions (scalar parameters; array-valued ones raise) --------------------------

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
    _positive("exponential", scale=scale)
    return _dist("_npi_exponential", "exponential", size, None, ctx, out, scale=scale)


def gamma(shape=1.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from Gamma(shape, scale)."""
    _positive("gamma", shape=shape, scale=scale)
    return _dist("_npi_gamma", "gamma", size, dtype, ctx, out, shape=shape, scale=scale)


def beta(a, b, size=None, dtype=None, ctx=None):
    """Samples from Beta(a, b)."""
    _positive("beta", a=a, b=b)
    return _dist("_npi_beta", "beta", size, dtype, ctx, a=a, b=b)


def chisquare(df, size=None, dtype=None, ctx=None):
    """Samples from the chi-square distribution with ``df`` degrees of freedom."""
    _positive("chisquare", df=df)
    return _dist("_npi_chisquare", "chisquare", size, dtype, ctx, df=df)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Gumbel distribution."""
    return _dist("_npi_gumbel", "gumbel", size, None, ctx, out, loc=loc, scale=scale)


def laplace(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the Laplace distribution."""
    return _dist("_npi_laplace", "laplace", size, dtype, ctx, out, loc=loc, scale=scale)


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the logistic distribution."""
    return _dist("_npi_logistic", "logistic", size, None, ctx, out, loc=loc, scale=scale)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples whose logarithm is N(mean, sigma**2)."""
    return _dist("_npi_lognormal", "lognormal", size, dtype, ctx, out, mean=mean, sigma=sigma)


def pareto(a, size=None, ctx=None, out=None):
    """Samples from the Pareto II (Lomax) distribution with shape ``a``."""
    _positive("pareto", a=a)
    return _dist("_npi_pareto", "pareto", size, None, ctx, out, a=a)


def power(a, size=None, ctx=None, out=None):
    """Samples in [0, 1] from the power distribution with exponent ``a - 1``."""
    _positive("power", a=a)
    return _dist("_npi_powerd", "power", size, None, ctx, out, a=a)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Rayleigh distribution."""
    return _dist("_npi_rayleigh", "rayleigh", size, None, ctx, out, scale=scale)


def weibull(a, size=None, ctx=None, out=None):
    """Samples from the Weibull distribution with shape ``a``."""
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
