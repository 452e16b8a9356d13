"""``mx.np.random``: samplers drawing from the device generator that ``mx.random.seed`` /
``npx.random.seed`` seed. On CPU they draw 1.9.1's numbers for a seed (its single-engine
generator, see operator/np_random.py and backend/mt_dists.py), except laplace, f, binomial and
multivariate_normal; chisquare draws gamma(df/2, scale 2), where 1.9.1 wrongly scales by 0.5."""
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


# --- the samplers with array-valued parameters -------------------------------------------------
# One operator draws each distribution: a parameter given as an mx.np array becomes an input
# of the node (its attribute None), as in 1.9.1, so normal / logistic / gumbel differentiate
# loc and scale, exponential / rayleigh their scale and weibull / pareto their ``a``
# (pathwise, through the noise the node keeps), while uniform, gamma and power give zero
# gradients. ``size`` need only broadcast with the parameters (see operator/np_random.py).

def _any_array(*vals):
    return any(isinstance(v, NDArray) for v in vals)


def _out_shape(fname, size, bshape):
    """``size`` when the parameters' shape ``bshape`` broadcasts to it (else MXNetError), or
    ``bshape`` when ``size`` is None (npx.random.bernoulli's rule)."""
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


def _float_dtype(fname, dtype):
    """1.9.1's float samplers (uniform, normal, gamma, chisquare, lognormal) accept only
    float16/32/64 (or None) as ``dtype``."""
    if dtype is not None and _onp.dtype(dtype).name not in ("float16", "float32", "float64"):
        raise MXNetError(f"{fname}: invalid dtype {_onp.dtype(dtype).name!r}; expected one of "
                         "'float16', 'float32', 'float64'")


def _sample(opname, size, ctx, out, params, dtype=None, has_dtype=True, has_ctx=True):
    """Invoke sampler ``opname``; array parameters are its inputs, in ``params`` order."""
    arrays, attrs = [], {}
    for k, v in params.items():
        if isinstance(v, NDArray):
            arrays.append(v if isinstance(v, ndarray) else v.as_np_ndarray())
            attrs[k] = None
        else:
            attrs[k] = float(v)
    attrs["size"] = _size(size)
    if has_dtype:
        attrs["dtype"] = _dt(dtype).name
    dev = _ctx(ctx) if ctx is not None or not arrays else arrays[0].context
    if has_ctx:
        attrs["ctx"] = str(dev)
    op = get_op(opname)
    res = invoke(op, arrays, op.parse_attrs(attrs), ctx=dev, cls=ndarray)
    return _with_out(res, out)


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from U[low, high) (float32 unless ``dtype`` is given); a scalar array when
    ``size`` is None."""
    _float_dtype("uniform", dtype)
    if not _any_array(low, high):
        low, high = _scalar(low, "uniform", "low"), _scalar(high, "uniform", "high")
    return _sample("_npi_uniform", size, ctx, out, {"low": low, "high": high}, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from N(loc, scale**2) (float32 unless ``dtype`` is given)."""
    _float_dtype("normal", dtype)
    if not isinstance(scale, NDArray) and scale < 0:
        raise MXNetValueError(f"normal: scale must be non-negative, got {scale}")  # as 1.9.1
    _check("normal", "scale", scale)
    return _sample("_npi_normal", size, ctx, out, {"loc": loc, "scale": scale}, dtype)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Integers from [low, high) (or [0, low) when ``high`` is None); int64 by default."""
    if dtype is not None and _onp.dtype(dtype).name not in ("int32", "int64"):
        raise MXNetError(f"randint: invalid dtype {_onp.dtype(dtype).name!r}; expected "
                         "'int32' or 'int64'")  # as 1.9.1
    for name, v in (("low", low), ("high", high)):
        if v is not None and not isinstance(v, (int, _onp.integer)):
            raise MXNetError(f"randint: {name} must be an integer, got {v!r}")
    res = _draw("_npi_random_randint", ctx, low=int(low), high=None if high is None else int(high),
                size=_size(size), dtype=_onp.dtype(dtype or _onp.int64).name)
    return _with_out(res, out)


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """Samples from ``range(a)`` (an int) or from the elements of a 1-D array ``a``."""
    pool = None
    if isinstance(a, NDArray):
        if a.ndim < 1:  # 1.9.1 draws rows (along axis 0) of an n-d array
            raise MXNetError("choice: a must have at least one dimension")
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
        # 1.9.1 keeps a running sum of pvals in the array's own precision and rejects the
        # draw once it passes 1
        total = _onp.cumsum(pvals.reshape(-1)).max(initial=0.0)
    else:
        total = _onp.cumsum(_onp.asarray(pvals, dtype=_onp.float64).reshape(-1)).max(
            initial=0.0)
    if float(total) > 1.0 + 1e-12:
        raise MXNetError(f"multinomial: a running sum of pvals reaches {float(total)!r}, "
                         "above 1")
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


# --- more distributions -----------------------------------------------------------------------

def _dist(opname, fname, size, dtype, ctx, out=None, **params):
    for k, v in params.items():
        params[k] = _scalar(v, fname, k)
    res = _draw(opname, ctx, size=_size(size), dtype=_dt(dtype).name, **params)
    return _with_out(res, out)


def _positive(fname, **params):
    for k, v in params.items():
        if not isinstance(v, NDArray) and v <= 0:
            raise MXNetValueError(f"{fname}: {k} must be positive, got {v}")  # as 1.9.1


def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the exponential distribution with mean ``scale``."""
    _check("exponential", "scale", scale)
    if not isinstance(scale, NDArray) and scale < 0:  # 1.9.1 allows scale == 0
        raise MXNetValueError(f"exponential: scale must be non-negative, got {scale}")
    return _sample("_npi_exponential", size, ctx, out, {"scale": scale}, has_dtype=False)


def gamma(shape=1.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from Gamma(shape, scale) (zero gradients for array parameters, as in 1.9.1)."""
    _float_dtype("gamma", dtype)
    _check("gamma", "shape", shape, strict=True)
    _check("gamma", "scale", scale, strict=True)
    _positive("gamma", shape=shape, scale=scale)
    return _sample("_npi_gamma", size, ctx, out, {"shape": shape, "scale": scale}, dtype)


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
    _float_dtype("chisquare", dtype)
    if _any_array(df):
        # gamma(df/2, scale 2); 1.9.1 passes scale 0.5 here, a bug not copied
        return gamma(df / 2, 2.0, size=size, dtype=dtype, ctx=ctx)
    _positive("chisquare", df=df)
    return _dist("_npi_chisquare", "chisquare", size, dtype, ctx, df=df)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Gumbel distribution."""
    _check("gumbel", "scale", scale)
    return _sample("_npi_gumbel", size, ctx, out, {"loc": loc, "scale": scale}, has_dtype=False)


def laplace(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the Laplace distribution."""
    return _dist("_npi_laplace", "laplace", size, dtype, ctx, out, loc=loc, scale=scale)


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the logistic distribution."""
    _check("logistic", "scale", scale)
    return _sample("_npi_logistic", size, ctx, out, {"loc": loc, "scale": scale},
                   has_dtype=False)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples whose logarithm is N(mean, sigma**2)."""
    _float_dtype("lognormal", dtype)
    if _any_array(mean, sigma):
        from ._op import exp
        return _with_out(exp(normal(mean, sigma, size=size, dtype=dtype, ctx=ctx)), out)
    return _dist("_npi_lognormal", "lognormal", size, dtype, ctx, out, mean=mean, sigma=sigma)


def pareto(a, size=None, ctx=None, out=None):
    """Samples from the Pareto II (Lomax) distribution with shape ``a``."""
    _check("pareto", "a", a)
    _positive("pareto", a=a)
    return _sample("_npi_pareto", size, ctx, out, {"a": a}, has_dtype=False)


def power(a, size=None, ctx=None, out=None):
    """Samples in [0, 1] from the power distribution with exponent ``a - 1``."""
    _check("power", "a", a)
    _positive("power", a=a)
    return _sample("_npi_powerd", size, ctx, out, {"a": a}, has_dtype=False, has_ctx=False)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Rayleigh distribution."""
    _check("rayleigh", "scale", scale)
    return _sample("_npi_rayleigh", size, ctx, out, {"scale": scale}, has_dtype=False)


def weibull(a, size=None, ctx=None, out=None):
    """Samples from the Weibull distribution with shape ``a``."""
    _check("weibull", "a", a)
    _positive("weibull", a=a)
    return _sample("_npi_weibull", size, ctx, out, {"a": a}, has_dtype=False)


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
