"""``mx.np.stride_tricks`` (1.9.1's module of that name holds ``broadcast_arrays``)."""
from __future__ import annotations

from ._op_more import broadcast_arrays  # noqa: F401

__all__ = ["broadcast_arrays"]
