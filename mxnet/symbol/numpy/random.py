"""``mx.sym.np.random``: samplers as graph nodes (drawn anew at every run)."""
from __future__ import annotations

import numpy as _onp

from ._symbol import node

__all__ = ["uniform", "normal", "exponential", "gamma"]


def _ctx(ctx):
    from ...context import current_context
    return str(current_context() if ctx is None else ctx)


def _size(size):
    return (size,) if isinstance(size, int) else size


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from U[low, high)."""
    return node("_npi_uniform", [], {"ctx": _ctx(ctx), "dtype": _onp.dtype(dtype or "float32").name,
                                     "high": high, "low": low, "size": _size(size)},
                hint="uniform")


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from N(loc, scale**2)."""
    return node("_npi_normal", [], {"ctx": _ctx(ctx), "dtype": _onp.dtype(dtype or "float32").name,
                                    "loc": loc, "scale": scale, "size": _size(size)},
                hint="normal")


def exponential(scale=1.0, size=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from the exponential distribution with mean ``scale``."""
    return node("_npi_exponential", [], {"ctx": _ctx(ctx), "scale": scale, "size": _size(size)},
                hint="exponential")


def gamma(shape=1.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # noqa: ARG001
    """Samples from Gamma(shape, scale)."""
    return node("_npi_gamma", [], {"ctx": _ctx(ctx), "dtype": _onp.dtype(dtype or "float32").name,
                                   "scale": scale, "shape": shape, "size": _size(size)},
                hint="gamma")
