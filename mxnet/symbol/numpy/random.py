"""``mx.sym.np.random``: samplers as graph nodes (drawn anew at every run).

A parameter given as a Symbol becomes an input of the sampler node and its attribute is
written as None; numbers and ``size`` are written as given. Each function builds the nodes
and attributes 1.9.1's does, so a traced block exports the same -symbol.json.
"""
from __future__ import annotations

import numpy as _onp

from ..symbol import Symbol as _Symbol
from ._symbol import node as _node

__all__ = ["uniform", "normal", "exponential", "gamma", "beta", "chisquare", "choice",
           "gumbel", "logistic", "lognormal", "multivariate_normal", "pareto", "power", "rand",
           "randint", "rayleigh", "shuffle", "weibull"]


def _ctx(ctx):
    from ...context import current_context
    return str(current_context() if ctx is None else ctx)


def _sampler(op, params, size, hint, ctx=None, dtype=None, has_ctx=True):
    """One sampler node: Symbol parameters are its inputs (in ``params`` order)."""
    inputs, attrs = [], {}
    for k, v in params.items():
        if isinstance(v, _Symbol):
            inputs.append(v)
            attrs[k] = None
        else:
            attrs[k] = v
    if has_ctx:
        attrs["ctx"] = _ctx(ctx)
    if dtype is not False:
        attrs["dtype"] = _onp.dtype(dtype or "float32").name
    attrs["size"] = None if size == () else size
    return _node(op, inputs, attrs, hint=hint)


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from U[low, high)."""
    return _sampler("_npi_uniform", {"low": low, "high": high}, size, "uniform", ctx, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from N(loc, scale**2)."""
    return _sampler("_npi_normal", {"loc": loc, "scale": scale}, size, "normal", ctx, dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """exp of samples from N(mean, sigma**2)."""
    from . import exp
    return exp(normal(mean, sigma, size=size, dtype=dtype, ctx=ctx))


def exponential(scale=1.0, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from the exponential distribution with mean ``scale``."""
    return _sampler("_npi_exponential", {"scale": scale}, size, "exponential", ctx, False)


def gamma(shape=1.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from Gamma(shape, scale)."""
    return _sampler("_npi_gamma", {"shape": shape, "scale": scale}, size, "gamma", ctx, dtype)


def beta(a, b, size=None, dtype=None, ctx=None):
    """Samples from Beta(a, b), as X / (X + Y) of two gamma draws in float64."""
    x = gamma(a, 1, size=size, dtype="float64", ctx=ctx)
    y = gamma(b, 1, size=size, dtype="float64", ctx=ctx)
    return (x / (x + y)).astype(dtype or "float32")


def chisquare(df, size=None, dtype=None, ctx=None):
    """Samples from the chi-square distribution (a gamma draw, as 1.9.1 builds it)."""
    return gamma(df / 2, 1 / 2, size=size, dtype=dtype, ctx=ctx)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from the Gumbel distribution."""
    return _sampler("_npi_gumbel", {"loc": loc, "scale": scale}, size, "gumbel", ctx, False)


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from the logistic distribution."""
    return _sampler("_npi_logistic", {"loc": loc, "scale": scale}, size, "logistic", ctx, False)


def pareto(a, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from the Pareto II (Lomax) distribution with shape ``a``."""
    return _sampler("_npi_pareto", {"a": a}, size, "pareto", ctx, False)


def power(a, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples in [0, 1] from the power distribution with exponent ``a - 1``."""
    return _sampler("_npi_powerd", {"a": a}, size, "powerd", None, False, has_ctx=False)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from the Rayleigh distribution."""
    return _sampler("_npi_rayleigh", {"scale": scale}, size, "rayleigh", ctx, False)


def weibull(a, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from the Weibull distribution with shape ``a``."""
    return _sampler("_npi_weibull", {"a": a}, size, "weibull", ctx, False)


def rand(*size, **kwargs):
    """Uniform [0, 1) samples of the given shape."""
    return uniform(0, 1, size=size, **kwargs)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """Integers from [low, high) (the legacy ``_random_randint`` node, as in 1.9.1)."""
    if high is None:
        low, high = 0, low
    return _node("_random_randint", [], {"ctx": _ctx(ctx), "dtype": _onp.dtype(
        dtype or "int64").name, "high": high, "low": low,
        "shape": () if size is None else size}, hint="random_randint")


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from ``range(a)`` (an int) or from the elements of the 1-D Symbol ``a``."""
    if isinstance(a, _Symbol):
        idx = _node("_npi_choice", [a] + ([p] if p is not None else []),
                   {"a": None, "ctx": None, "replace": replace, "size": size,
                    "weighted": p is not None}, hint="choice")
        return _node("take", [a, idx], {}, hint="take")
    return _node("_npi_choice", [p] if p is not None else [],
                {"a": a, "ctx": _ctx(ctx), "replace": replace, "size": size,
                 "weighted": p is not None}, hint="choice")


def shuffle(x):  # noqa: ARG001
    """As in 1.9.1's symbolic front end: builds nothing and returns None."""
    return None


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):  # noqa: ARG001
    """Samples from N(mean, cov): the Python operator ``mvn_fallback``, as in 1.9.1."""
    from ...operator import np_random  # noqa: F401  (registers mvn_fallback)
    return _node("Custom", [mean, cov], {"op_type": "mvn_fallback", "size": size},
                hint="custom")
