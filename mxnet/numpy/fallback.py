"""NumPy functions that ``mx.np`` runs with official NumPy on the host, as 1.9.1's
``mx.np.fallback`` does: array arguments are copied to NumPy, the function runs there, and
array results come back as ``mx.np.ndarray`` on the first input's device (scalars and
Python values come back as NumPy gives them). Nothing here records for autograd.

1.9.1 ran NumPy 1.23; functions NumPy 2 removed are written out here (``alltrue``,
``msort``, ``trapz``, ``in1d``), and the financial functions that NumPy 1.20 had already
dropped raise, as they do in 1.9.1.
"""
from __future__ import annotations

import functools

import numpy as _onp

from ..ndarray.ndarray import NDArray

_NAMES = ("allclose", "alltrue", "apply_along_axis", "apply_over_axes", "argpartition",
           "argwhere", "array_equal", "array_equiv", "choose", "compress", "corrcoef",
           "correlate", "count_nonzero", "cov", "digitize", "divmod", "extract", "flatnonzero",
           "float_power", "frexp", "heaviside", "histogram2d", "histogram_bin_edges",
           "histogramdd", "i0", "in1d", "interp", "intersect1d", "isclose", "isin", "ix_",
           "lexsort", "min_scalar_type", "mirr", "modf", "msort", "nanargmax", "nanargmin",
           "nancumprod", "nancumsum", "nanmax", "nanmedian", "nanmin", "nanpercentile",
           "nanprod", "nanquantile", "npv", "partition", "piecewise", "packbits", "poly",
           "polyadd", "polydiv", "polyfit", "polyint", "polymul", "polysub", "positive", "ppmt",
           "promote_types", "ptp", "pv", "rate", "real", "result_type", "rollaxis", "roots",
           "searchsorted", "select", "setdiff1d", "setxor1d", "signbit", "spacing",
           "take_along_axis", "trapz", "tril_indices_from", "trim_zeros", "triu_indices_from",
           "union1d", "unpackbits", "unwrap", "vander")
__all__ = list(_NAMES)


def _to_host(v, ctxs):
    if isinstance(v, NDArray):
        ctxs.append(v.ctx)
        return v.asnumpy()
    if isinstance(v, (list, tuple)):
        return type(v)(_to_host(x, ctxs) for x in v)
    if isinstance(v, dict):
        return {k: _to_host(x, ctxs) for k, x in v.items()}
    return v


def _to_device(v, ctx):
    from .multiarray import array
    if isinstance(v, _onp.ndarray) and v.dtype.kind in "biuf":
        return array(v, dtype=v.dtype, ctx=ctx)
    if isinstance(v, tuple):
        return tuple(_to_device(x, ctx) for x in v)
    if isinstance(v, list):
        return [_to_device(x, ctx) for x in v]
    return v


def _wrap(name, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        ctxs = []
        hargs = _to_host(args, ctxs)
        hkwargs = _to_host(kwargs, ctxs)
        out = fn(*hargs, **hkwargs)
        return _to_device(out, ctxs[0] if ctxs else None)
    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__module__ = "mxnet.numpy"
    wrapper.__doc__ = (f"``numpy.{name}`` run on the host with official NumPy (1.9.1's "
                       f"fallback); array results come back as mx.np arrays. No autograd.")
    return wrapper


def _removed(name):
    def fn(*args, **kwargs):
        raise RuntimeError(f"{name}: this financial function was removed from NumPy in 1.20 "
                           "(NEP 32); use the numpy_financial package")
    fn.__name__ = name
    return fn


def _msort(a):
    return _onp.sort(a, axis=0)


def _in1d(ar1, ar2, assume_unique=False, invert=False):
    return _onp.isin(_onp.ravel(ar1), ar2, assume_unique=assume_unique, invert=invert)


def _count_nonzero(a, axis=None, keepdims=False):
    # NumPy 1.23 (1.9.1's) gives a Python int for a full count; NumPy 2 an int64 scalar
    out = _onp.count_nonzero(a, axis=axis, keepdims=keepdims)
    return int(out) if axis is None and not keepdims else out


_SUBSTITUTES = {
    "count_nonzero": _count_nonzero,
    "alltrue": _onp.all, "msort": _msort, "in1d": _in1d,
    "trapz": getattr(_onp, "trapezoid", None) or getattr(_onp, "trapz", None),
}

for _name in _NAMES:
    if _name in ("mirr", "npv", "ppmt", "pv", "rate"):
        globals()[_name] = _removed(_name)
        continue
    _fn = _SUBSTITUTES.get(_name) or getattr(_onp, _name)
    globals()[_name] = _wrap(_name, _fn)
