"""``numpy.linalg`` functions that ``mx.np.linalg`` runs with official NumPy on the host, as
1.9.1's ``mx.np.fallback_linalg`` does (no autograd)."""
from __future__ import annotations

import numpy as _onp

from .fallback import _wrap

_NAMES = ("cond", "lstsq", "matrix_power", "matrix_rank", "multi_dot", "qr")
__all__ = list(_NAMES)

for _name in _NAMES:
    globals()[_name] = _wrap(_name, getattr(_onp.linalg, _name))
