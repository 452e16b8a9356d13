"""``mx.sym.npx.random``: the Bernoulli and batched samplers of ``npx.random`` on NumPy-mode
symbols (what ``F.npx.random`` is while a NumPy-mode HybridBlock is traced)."""
from __future__ import annotations

from ...base import MXNetError
from ..symbol import Symbol as _Symbol

__all__ = ["bernoulli", "normal_n", "uniform_n"]


def _batch_size(fname, batch_shape, *params):
    if any(isinstance(p, _Symbol) for p in params):
        raise MXNetError(f"npx.random.{fname}: Symbol parameters are not supported here; "
                         "pass numbers, or use np.random with size=")
    if batch_shape is None:
        return None
    return (int(batch_shape),) if isinstance(batch_shape, int) else tuple(batch_shape)


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Samples from N(loc, scale**2) of shape ``batch_shape`` (number parameters)."""
    from ..numpy import random as _r
    return _r.normal(loc, scale, size=_batch_size("normal_n", batch_shape, loc, scale),
                     dtype=dtype, ctx=ctx)


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Samples from U[low, high) of shape ``batch_shape`` (number parameters)."""
    from ..numpy import random as _r
    return _r.uniform(low, high, size=_batch_size("uniform_n", batch_shape, low, high),
                      dtype=dtype, ctx=ctx)


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """0/1 samples (float32 unless ``dtype`` is given), 1 with probability ``prob`` or
    sigmoid(``logit``); exactly one of the two must be given."""
    from ..numpy import random as _r
    if (prob is None) == (logit is None):
        raise ValueError("npx.random.bernoulli: give exactly one of prob and logit; got "
                         f"prob={prob!r}, logit={logit!r}")
    p = prob if prob is not None else logit
    if isinstance(p, _Symbol):
        if logit is not None:
            from . import sigmoid
            p = sigmoid(p)
        if size is None:
            from ..numpy import ones_like, zeros_like
            u = _r.uniform(zeros_like(p), ones_like(p), ctx=ctx)
        else:
            u = _r.uniform(0.0, 1.0, size=size, ctx=ctx)
    else:
        import math
        p = float(p)
        if logit is not None:
            p = 1.0 / (1.0 + math.exp(-p))
        elif not 0.0 <= p <= 1.0:
            raise ValueError(f"npx.random.bernoulli: expect 0 <= prob <= 1, got {p}")
        u = _r.uniform(0.0, 1.0, size=() if size is None else size, dtype="float64", ctx=ctx)
    return (u < p).astype(dtype or "float32")
