"""Global random state: ``mx.random.seed``; the samplers live in ``mx.nd.random``."""
from __future__ import annotations

from .backend import get_backend, gpu_count, seed_all
from .base import MXNetValueError, integer_types
from .context import Context

__all__ = ["seed"]


def seed(seed_state, ctx="all"):
    """Seed the generator of every device (``ctx='all'``) or of one context.

    The same seed gives the same samples on the same device kind. As in 1.9.1, all CPU
    contexts share one generator, so seeding any CPU context reseeds them all.
    """
    if not isinstance(seed_state, integer_types):
        raise MXNetValueError(f"seed: seed_state must be int, got {seed_state!r} "
                              f"({type(seed_state).__name__})")
    if ctx == "all":
        seed_all(int(seed_state))
    else:
        ctx = Context(ctx)
        if ctx.device_typeid == 2 and gpu_count() == 0:
            return  # 1.9.1 without a usable GPU accepts (and ignores) a GPU context here
        get_backend(ctx).seed(int(seed_state))


def __getattr__(name):
    from .ndarray import random as _r
    try:
        return getattr(_r, name)
    except AttributeError:
        raise AttributeError(f"module 'mxnet.random' has no attribute {name!r}") from None
