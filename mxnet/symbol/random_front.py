"""The samplers of ``mx.sym.random`` that 1.9.1 writes in Python.

Each takes its distribution parameters either as numbers, making a ``_random_*`` node
that stores them as attributes, or as Symbols of one common shape, making a
``_sample_*`` node that reads them as inputs. Like 1.9.1's front ends they pass their
parameters on even when left at their defaults, so ``mx.sym.random.uniform(shape=(2,))``
records ``low='0'`` and ``high='1'``; ``shape`` and ``dtype`` are recorded only when given
(``dtype=None`` is given: the operator function stores it as ``'float64'``, as NumPy
reads ``np.dtype(None)``).
"""
from __future__ import annotations

from numbers import Number

__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma",
           "negative_binomial", "generalized_negative_binomial", "multinomial", "shuffle",
           "randint"]


class _NullType:
    """The "argument not given" marker (None is a value some parameters accept)."""

    __slots__ = ()

    def __repr__(self):
        return "_Null"


_Null = _NullType()


def _sym():
    from .. import symbol
    return symbol


def _dispatch(dist, names, values, shape, dtype, kwargs, sampler=True):
    """A ``_random_<dist>`` node for number parameters, ``_sample_<dist>`` for Symbols."""
    sym = _sym()
    extra = dict(kwargs)
    if shape is not _Null:
        extra["shape"] = shape
    if dtype is not _Null:
        extra["dtype"] = dtype
    first = values[0]
    if isinstance(first, sym.Symbol):
        for v in values[1:]:
            if not isinstance(v, sym.Symbol):
                raise AssertionError("Distribution parameters must all have the same type, but "
                                     f"got both {type(first)} and {type(v)}.")
        if not sampler:
            raise TypeError(f"_random_{dist}: Symbol parameters are not supported; pass numbers")
        return getattr(sym.op, f"_sample_{dist}")(*values, **extra)
    if isinstance(first, Number):
        for v in values[1:]:
            if not isinstance(v, Number):
                raise AssertionError("Distribution parameters must all have the same type, but "
                                     f"got both {type(first)} and {type(v)}.")
        return getattr(sym.op, f"_random_{dist}")(**dict(zip(names, values)), **extra)
    raise ValueError("Distribution parameters must be either Symbol or numbers, but got "
                     f"{type(first)}.")


def uniform(low=0, high=1, shape=_Null, dtype=_Null, **kwargs):
    """Samples from the uniform distribution on ``[low, high)``."""
    return _dispatch("uniform", ("low", "high"), [low, high], shape, dtype, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, **kwargs):
    """Samples from the normal distribution with mean ``loc`` and deviation ``scale``."""
    return _dispatch("normal", ("loc", "scale"), [loc, scale], shape, dtype, kwargs)


def randn(*shape, **kwargs):
    """Normal samples of the given dimensions (``loc``, ``scale``, ``dtype`` by keyword)."""
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    dtype = kwargs.pop("dtype", _Null)
    return _dispatch("normal", ("loc", "scale"), [loc, scale], shape, dtype, kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, **kwargs):
    """Samples from the Poisson distribution with rate ``lam``."""
    return _dispatch("poisson", ("lam",), [lam], shape, dtype, kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, **kwargs):
    """Samples from the exponential distribution with scale ``scale`` (stored as the rate
    ``lam = 1 / scale``)."""
    return _dispatch("exponential", ("lam",), [1.0 / scale], shape, dtype, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, **kwargs):
    """Samples from the gamma distribution with shape ``alpha`` and scale ``beta``."""
    return _dispatch("gamma", ("alpha", "beta"), [alpha, beta], shape, dtype, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, **kwargs):
    """Samples from the negative binomial distribution (failures before the ``k``-th
    success, each trial succeeding with probability ``p``)."""
    return _dispatch("negative_binomial", ("k", "p"), [k, p], shape, dtype, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, **kwargs):
    """Samples from the negative binomial distribution with mean ``mu`` and dispersion
    ``alpha``."""
    return _dispatch("generalized_negative_binomial", ("mu", "alpha"), [mu, alpha], shape,
                     dtype, kwargs)


def randint(low, high, shape=_Null, dtype=_Null, **kwargs):
    """Integers drawn uniformly from ``[low, high)`` (number bounds only)."""
    return _dispatch("randint", ("low", "high"), [low, high], shape, dtype, kwargs,
                     sampler=False)


def multinomial(data, shape=_Null, get_prob=True, dtype="int32", **kwargs):
    """Class indices drawn from the categorical distributions in the last axis of
    ``data``; with ``get_prob`` (the default here, as in 1.9.1's symbolic front end) also
    their log-probabilities."""
    extra = dict(kwargs)
    if shape is not _Null:
        extra["shape"] = shape
    return _sym().op._sample_multinomial(data, get_prob=get_prob, dtype=dtype, **extra)


def shuffle(data, **kwargs):
    """``data`` with its first axis randomly permuted."""
    return _sym().op._shuffle(data, **kwargs)
