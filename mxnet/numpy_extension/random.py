"""``mx.npx.random``: seeding."""
from __future__ import annotations

__all__ = ["seed"]


def seed(seed, ctx="all"):  # noqa: A002  (1.9.1's argument name)
    """Seed the random generators of every device (or of ``ctx``), as ``mx.random.seed``."""
    from ..random import seed as _seed
    _seed(seed, ctx)
