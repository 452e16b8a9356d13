"""``mx.npx.random``: seeding, and the batched / Bernoulli samplers of 1.9.1's
``npx.random``. On CPU a seed gives 1.9.1's numbers (``bernoulli`` compares the single
engine's float uniforms with ``prob``, as 1.9.1 does); distributions, shapes and dtypes match."""
from __future__ import annotations

import numpy as _onp

from ..base import MXNetError
from ..ndarray.ndarray import NDArray

__all__ = ["seed", "bernoulli", "normal_n", "uniform_n"]


def seed(seed, ctx="all"):  # noqa: A002  (1.9.1's argument name)
    """Seed the random generators of every device (or of ``ctx``), as ``mx.random.seed``."""
    from ..random import seed as _seed
    _seed(seed, ctx)


def _batch(fname, batch_shape, *params):
    """``batch_shape`` followed by the broadcast shape of the array parameters."""
    if batch_shape is None:
        bs = ()
    elif isinstance(batch_shape, (int, _onp.integer)):
        bs = (int(batch_shape),)
    else:
        bs = tuple(int(s) for s in batch_shape)
    shapes = [p.shape for p in params if isinstance(p, NDArray)]
    try:
        pshape = _onp.broadcast_shapes(*shapes)
    except ValueError:
        raise MXNetError(f"npx.random.{fname}: the parameter shapes {shapes} do not "
                         "broadcast together") from None
    return bs + tuple(pshape)


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Samples from N(loc, scale**2) of shape ``batch_shape + broadcast(loc, scale).shape``
    (differentiable in array ``loc``/``scale``, as ``np.random.normal``)."""
    from ..numpy import random as _r
    return _r.normal(loc, scale, size=_batch("normal_n", batch_shape, loc, scale), dtype=dtype,
                     ctx=ctx)


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Samples from U[low, high) of shape ``batch_shape + broadcast(low, high).shape``."""
    from ..numpy import random as _r
    return _r.uniform(low, high, size=_batch("uniform_n", batch_shape, low, high),
                      dtype=dtype, ctx=ctx)


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):
    """0/1 samples (float32 unless ``dtype`` is given) that are 1 with probability ``prob``,
    or sigmoid(``logit``); exactly one of the two must be given. ``size`` defaults to the
    parameter's shape."""
    from ..numpy import random as _r
    from ..numpy.multiarray import _with_out, ndarray
    if (prob is None) == (logit is None):
        raise ValueError("npx.random.bernoulli: give exactly one of prob and logit; got "
                         f"prob={prob!r}, logit={logit!r}")
    p = prob if prob is not None else logit
    if isinstance(p, NDArray):
        if not isinstance(p, ndarray):
            p = p.as_np_ndarray()
        p = p.detach().astype("float64")
        if logit is not None:
            p = _sigmoid(p)
        pv = p.asnumpy()
        if prob is not None and ((pv < 0).any() or (pv > 1).any()):
            raise ValueError("npx.random.bernoulli: expect 0 <= prob <= 1, got values in "
                             f"[{pv.min()}, {pv.max()}]")
        shape = tuple(p.shape)
        ctx = ctx if ctx is not None else p.context
    else:
        p = float(p)
        if logit is not None:
            p = float(1.0 / (1.0 + _onp.exp(-p)))
        elif not 0.0 <= p <= 1.0:
            raise ValueError(f"npx.random.bernoulli: expect 0 <= prob <= 1, got {p}")
        shape = ()
    shape = _r._out_shape("npx.random.bernoulli", size, shape)
    u = _r.uniform(0.0, 1.0, size=shape, dtype="float64", ctx=ctx)
    res = (u < p).astype(dtype or "float32")
    return _with_out(res, out)


def _sigmoid(x):
    from ..numpy import exp
    return 1.0 / (1.0 + exp(-x))
