"""``mx.np``: arrays and functions with NumPy semantics (MXNet 1.9.1's NumPy interface).

``mx.np.ndarray`` is a subclass of ``mx.nd.NDArray``; every function runs registered
operators, so autograd, devices and the engine work as for ``mx.nd``.
"""
from __future__ import annotations

import numpy as _onp

from . import multiarray  # noqa: F401  (first: _op and the rest build on it)
from . import (arrayprint, fallback, fallback_linalg, function_base, io, linalg,  # noqa: F401
               random, stride_tricks, utils)
from .arrayprint import set_printoptions  # noqa: F401
from .io import genfromtxt  # noqa: F401
from ._op import *  # noqa: F401,F403
from ._op import __all__ as _op_all
from ._op_more import *  # noqa: F401,F403
from ._op_more import __all__ as _more_all
from .fallback import *  # noqa: F401,F403
from .fallback import __all__ as _fallback_all
from .multiarray import *  # noqa: F401,F403
from .multiarray import __all__ as _ma_all

pi = _onp.pi
e = _onp.e
euler_gamma = _onp.euler_gamma
inf = _onp.inf
nan = _onp.nan
newaxis = None
NAN = NaN = nan
NINF = -_onp.inf
PINF = _onp.inf
NZERO = -0.0
PZERO = 0.0
bool = bool  # noqa: A001,PLW0127  (1.9.1 exports the builtin under this name)

bool_ = _onp.bool_
int8, uint8, int16, int32, int64 = _onp.int8, _onp.uint8, _onp.int16, _onp.int32, _onp.int64
float16, float32, float64 = _onp.float16, _onp.float32, _onp.float64
dtype = _onp.dtype
finfo, iinfo = _onp.finfo, _onp.iinfo

__all__ = list(_ma_all) + list(_op_all) + list(_more_all) + list(_fallback_all) + [
    "linalg", "random", "pi", "e", "euler_gamma", "inf", "nan", "newaxis", "bool_", "int8",
    "uint8", "int16", "int32", "int64", "float16", "float32", "float64", "dtype", "finfo",
    "iinfo", "NAN", "NaN", "NINF", "PINF", "NZERO", "PZERO", "bool", "fallback",
    "fallback_linalg", "arrayprint", "function_base", "io", "stride_tricks", "utils",
    "set_printoptions", "genfromtxt"]

from ..operator import np_ops as _np_ops  # noqa: E402,F401  (registers the _npi_* operators)
