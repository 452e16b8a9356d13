"""``mx.np.io``: reading arrays from text files."""
from __future__ import annotations

import numpy as _onp

__all__ = ["genfromtxt"]


def genfromtxt(*args, **kwargs):
    """``numpy.genfromtxt`` on the host, the result as an ``mx.np.ndarray`` (same dtype)."""
    from .multiarray import array
    data = _onp.genfromtxt(*args, **kwargs)
    return array(data, dtype=data.dtype)
