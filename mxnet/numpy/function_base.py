"""``mx.np.function_base`` (1.9.1's module of that name holds ``meshgrid``)."""
from __future__ import annotations

from ._op import meshgrid  # noqa: F401

__all__ = ["meshgrid"]
