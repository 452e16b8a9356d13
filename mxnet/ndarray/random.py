"""``mx.nd.random``: draw samples from common distributions.

Each sampler takes its distribution parameters either as numbers, which draws ``shape``
samples with the ``_random_*`` operators (on ``ctx``, the current context by default), or
as NDArrays of one common shape, which draws ``shape`` samples for every element with the
``_sample_*`` operators (on the parameters' context; the output shape is the parameters'
shape followed by ``shape``). ``out=`` writes into an existing array, whose shape and
dtype then fill in ``shape`` and ``dtype`` when they are not given.

>>> import mxnet as mx
>>> mx.random.seed(7)
>>> mx.nd.random.uniform(-1, 1, shape=(2, 3)).shape
(2, 3)
>>> mx.nd.random.normal(mx.nd.array([0, 10]), mx.nd.array([1, 2]), shape=4).shape
(2, 4)
"""
from __future__ import annotations

import re

import numpy as np

from ..base import MXNetError, dtype_np, numeric_types
from ..context import Context, current_context
from ..operator.registry import get_op
from .ndarray import NDArray, invoke
from .register import make_function

__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial",
           "negative_binomial", "generalized_negative_binomial", "shuffle", "randint"]


class _NullType:
    """The "argument not given" marker (distinct from None, which some parameters accept)."""

    __slots__ = ()

    def __repr__(self):
        return "_Null"


_Null = _NullType()


def _context(ctx):
    if ctx is None:
        return current_context()
    if isinstance(ctx, Context):
        return ctx
    if isinstance(ctx, str):
        m = re.fullmatch(r"\s*(\w+)\s*(?:\(\s*(\d+)\s*\))?\s*", ctx)
        if m:
            return Context(m.group(1), int(m.group(2) or 0))
    raise MXNetError(f"ctx must be a Context such as mx.cpu(0), got {ctx!r}")


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def _check_outs(op, attrs, inputs, out):
    """Reject an ``out`` whose shape differs from what the operator will produce (writing
    would otherwise broadcast silently)."""
    if out is None or op.infer_shape is None:
        return
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    _, expected, _ = op.infer_shape(attrs, [tuple(a.shape) for a in inputs], [None] * len(outs))
    for o, e in zip(outs, expected):
        if e is not None and tuple(o.shape) != tuple(e):
            raise MXNetError(f"{op.name}: Shape inconsistent, provided = {tuple(o.shape)}, "
                             f"inferred shape = {tuple(e)}")


def _out_dtype(opname, out, dtype, allowed):
    """Reconcile ``dtype`` with the dtype of ``out`` as 1.9.1 does."""
    have = np.dtype(out.dtype).name
    if dtype is _Null or dtype is None:
        if have not in allowed:
            raise MXNetError(f"{opname}: output type must be one of {list(allowed)}, "
                             f"but out has dtype {have}")
        return have
    want = dtype_np(dtype).name
    if want != have:
        raise MXNetError(f"{opname}: Output type does not match requested type: out has dtype "
                         f"{have} but dtype={want} was requested")
    return want


def _helper(random_name, sample_name, params, shape, dtype, ctx, out, kwargs,
            allowed=("float16", "float32", "float64")):
    """Dispatch to ``_random_*`` (number parameters) or ``_sample_*`` (NDArray parameters)."""
    if dtype is None:
        dtype = "float64"  # 1.9.1 passes dtype through np.dtype(), which reads None as float64
    if isinstance(params[0], NDArray):
        for p in params[1:]:
            if not isinstance(p, NDArray):
                raise AssertionError("Distribution parameters must all have the same type, but "
                                     f"got both {type(params[0])} and {type(p)}.")
        if sample_name is None:
            raise TypeError(f"{random_name}: NDArray parameters are not supported; pass numbers")
        op = get_op(sample_name)
        kw = dict(kwargs)
        if shape is not _Null:
            kw["shape"] = shape
        if out is not None and (dtype is _Null or dtype is None):
            dtype = _out_dtype(sample_name, out, dtype, allowed)
        if dtype is not _Null:
            kw["dtype"] = dtype
        attrs = op.parse_attrs(kw)
        _check_outs(op, attrs, params, out)
        return invoke(op, list(params), attrs, out=out)
    if isinstance(params[0], numeric_types):
        for p in params[1:]:
            if not isinstance(p, numeric_types):
                raise AssertionError("Distribution parameters must all have the same type, but "
                                     f"got both {type(params[0])} and {type(p)}.")
        op = get_op(random_name)
        for pname, p in zip(op.params, params):
            if isinstance(p, (bool, np.bool_)):
                raise MXNetError(f"{random_name}: invalid value {p!r} for parameter '{pname}'; "
                                 "expected a number, not a bool")
        if out is not None:
            ctx = out.context if ctx is None else _context(ctx)
            dtype = _out_dtype(random_name, out, dtype, allowed)
            if shape is _Null:
                shape = tuple(out.shape)
            elif _shape_tuple(shape) != tuple(out.shape):
                raise MXNetError(f"{random_name}: Shape inconsistent, provided = "
                                 f"{tuple(out.shape)}, inferred shape = {_shape_tuple(shape)}")
        else:
            ctx = _context(ctx)
            if shape is _Null:
                shape = 1
        kw = dict(kwargs)
        kw.update(zip([p for p in op.params][:len(params)], params))
        kw["shape"] = shape
        kw["ctx"] = str(ctx)
        if dtype is not _Null:
            kw["dtype"] = dtype
        return invoke(op, [], op.parse_attrs(kw), out=out, ctx=ctx)
    raise ValueError("Distribution parameters must be either NDArray or numbers, but got "
                     f"{type(params[0])}.")


def uniform(low=0, high=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the uniform distribution on ``[low, high)``.

    ``low`` and ``high`` are numbers (``shape`` samples, default one) or NDArrays of one
    shape (``shape`` samples per pair, output shape ``low.shape + shape``). ``dtype`` is
    float16, float32 (default) or float64.

    >>> mx.nd.random.uniform(0, 1, shape=(2,)).shape
    (2,)
    """
    return _helper("_random_uniform", "_sample_uniform", [low, high], shape, dtype, ctx, out,
                   kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the normal distribution with mean ``loc`` and standard deviation
    ``scale`` (numbers or NDArrays, see :func:`uniform`).

    >>> mx.nd.random.normal(0, 2, shape=(3, 2)).shape
    (3, 2)
    """
    return _helper("_random_normal", "_sample_normal", [loc, scale], shape, dtype, ctx, out,
                   kwargs)


def randn(*shape, **kwargs):
    """Standard normal samples of the given dimensions; ``loc``, ``scale``, ``dtype``,
    ``ctx`` and ``out`` may be passed as keywords.

    >>> mx.nd.random.randn(2, 3, loc=5).shape
    (2, 3)
    """
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    dtype = kwargs.pop("dtype", _Null)
    ctx = kwargs.pop("ctx", None)
    out = kwargs.pop("out", None)
    for name, v in (("loc", loc), ("scale", scale)):
        if not isinstance(v, (int, float, NDArray)):
            raise AssertionError(f"randn: {name} must be a number or an NDArray, got {type(v)}")
    return _helper("_random_normal", "_sample_normal", [loc, scale], shape, dtype, ctx, out,
                   kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the Poisson distribution with rate ``lam`` (stored as floats).

    >>> mx.nd.random.poisson(4.0, shape=5).shape
    (5,)
    """
    return _helper("_random_poisson", "_sample_poisson", [lam], shape, dtype, ctx, out, kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the exponential distribution with scale ``scale`` (rate ``1/scale``).

    >>> mx.nd.random.exponential(2.0, shape=(2, 2)).shape
    (2, 2)
    """
    return _helper("_random_exponential", "_sample_exponential", [1.0 / scale], shape, dtype,
                   ctx, out, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the gamma distribution with shape ``alpha`` and scale ``beta``.

    >>> mx.nd.random.gamma(2.0, 0.5, shape=3).shape
    (3,)
    """
    return _helper("_random_gamma", "_sample_gamma", [alpha, beta], shape, dtype, ctx, out,
                   kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Samples from the negative binomial distribution: the failures seen before the
    ``k``-th success when each trial succeeds with probability ``p`` (stored as floats).

    >>> mx.nd.random.negative_binomial(3, 0.4, shape=2).shape
    (2,)
    """
    return _helper("_random_negative_binomial", "_sample_negative_binomial", [k, p], shape,
                   dtype, ctx, out, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, ctx=None, out=None,
                                  **kwargs):
    """Samples from the negative binomial distribution with mean ``mu`` and dispersion
    ``alpha`` (variance ``mu + alpha * mu**2``), stored as floats.

    >>> mx.nd.random.generalized_negative_binomial(2.0, 0.5, shape=2).shape
    (2,)
    """
    return _helper("_random_generalized_negative_binomial",
                   "_sample_generalized_negative_binomial", [mu, alpha], shape, dtype, ctx, out,
                   kwargs)


def randint(low, high, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Integers drawn uniformly from ``[low, high)``; ``dtype`` is int32 (default) or int64.

    >>> mx.nd.random.randint(0, 10, shape=(2, 2)).dtype
    <class 'numpy.int32'>
    """
    return _helper("_random_randint", None, [low, high], shape, dtype, ctx, out, kwargs,
                   allowed=("int32", "int64"))


def _check_data(data):
    if not isinstance(data, NDArray):
        raise AssertionError(f"Argument data must have NDArray type, but got {data}")  # as 1.9.1


def multinomial(data, shape=_Null, get_prob=False, out=None, dtype="int32", **kwargs):
    """Class indices drawn from the categorical distributions in the last axis of ``data``.

    For ``data`` of shape ``(d1, ..., dn, k)`` the result has shape
    ``(d1, ..., dn) + shape``. With ``get_prob=True`` the log-probability of each draw is
    returned too (``[samples, log_probs]``); a head gradient on it flows back to ``data``.

    >>> mx.nd.random.multinomial(mx.nd.array([[0.2, 0.8], [0.5, 0.5]]), shape=3).shape
    (2, 3)
    """
    _check_data(data)
    op = get_op("_sample_multinomial")
    kw = dict(kwargs)
    if shape is not _Null:
        kw["shape"] = shape
    kw["get_prob"] = get_prob
    kw["dtype"] = "float64" if dtype is None else dtype  # as np.dtype(None) in 1.9.1
    attrs = op.parse_attrs(kw)
    _check_outs(op, attrs, [data], out)
    return invoke(op, [data], attrs, out=out)


def shuffle(data, **kwargs):
    """A copy of ``data`` with its first axis randomly permuted.

    >>> mx.nd.random.shuffle(mx.nd.arange(6).reshape((3, 2))).shape
    (3, 2)
    """
    out = kwargs.pop("out", None)
    _check_data(data)
    op = get_op("_shuffle")
    attrs = op.parse_attrs(kwargs)
    _check_outs(op, attrs, [data], out)
    return invoke(op, [data], attrs, out=out)


def _like_function(dist):
    fn = make_function(get_op(f"_random_{dist}_like"), f"{dist}_like")
    fn.__module__ = __name__
    return fn


uniform_like = _like_function("uniform")
normal_like = _like_function("normal")
gamma_like = _like_function("gamma")
exponential_like = _like_function("exponential")
poisson_like = _like_function("poisson")
negative_binomial_like = _like_function("negative_binomial")
generalized_negative_binomial_like = _like_function("generalized_negative_binomial")
