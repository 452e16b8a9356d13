"""``mx.np.utils``: the dtype names and constants ``mx.np`` exports."""
from __future__ import annotations

import numpy as _onp

__all__ = ["float16", "float32", "float64", "uint8", "int32", "int8", "int64", "bool", "bool_",
           "pi", "inf", "nan", "PZERO", "NZERO", "newaxis", "finfo", "e", "NINF", "PINF", "NAN",
           "NaN"]

float16, float32, float64 = _onp.float16, _onp.float32, _onp.float64
uint8, int8, int32, int64 = _onp.uint8, _onp.int8, _onp.int32, _onp.int64
bool = bool  # noqa: A001,PLW0127  (1.9.1's name for the builtin)
bool_ = _onp.bool_
pi, e, inf, nan = _onp.pi, _onp.e, _onp.inf, _onp.nan
PZERO, NZERO, PINF, NINF = 0.0, -0.0, _onp.inf, -_onp.inf
NAN = NaN = _onp.nan
newaxis = None
finfo = _onp.finfo
