"""``mx.np.arrayprint``: print options (arrays print through NumPy, so NumPy's apply)."""
from __future__ import annotations

import numpy as _onp

__all__ = ["set_printoptions"]


def set_printoptions(precision=None, threshold=None, **kwargs):
    """Set how arrays print (NumPy's options: ``precision``, ``threshold``, ...)."""
    _onp.set_printoptions(precision=precision, threshold=threshold, **kwargs)
