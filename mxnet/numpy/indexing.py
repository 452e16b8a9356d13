"""``mx.np.ndarray`` indexing: NumPy's rules, including boolean masks and zero-dim results.

A basic key (integers, slices, None, Ellipsis) that selects one contiguous run of the array is
a view (sharing memory and the engine variable), as in 1.9.1; every other key gives a copy.
"""
from __future__ import annotations

import numpy as _onp

from .._mode import mode as _mode
from ..base import MXNetValueError
from ..backend import get_backend
from ..ndarray.indexing import _check_bounds, _drop_leading_ones, _is_contiguous_basic_key
from ..ndarray.ndarray import (NDArray, _check_no_recorded_source, _check_not_in_graph, _new,
                               _record, _sync, invoke)
from ..operator.registry import get_op

_GETITEM = None


def _convert(key, xp):
    if isinstance(key, NDArray):
        key.wait_to_read()
        d = key._data
        if d.dtype.kind == "f":
            return d.astype(_onp.int64)
        return d
    if isinstance(key, (list, _onp.ndarray, range)):
        arr = xp.asarray(key)
        # 1.9.1 truncates float index lists to integers, as it does float ndarray indices
        return arr.astype(_onp.int64) if arr.dtype.kind == "f" else arr
    if isinstance(key, tuple):
        return tuple(_convert(k, xp) for k in key)
    if isinstance(key, (float, _onp.floating, str, bytes, dict, set)):
        # 1.9.1 raises ValueError for keys of these types
        raise ValueError(f"ndarray indexing: key {key!r} of type {type(key).__name__} is not "
                         f"supported; use integers, slices, None, Ellipsis or integer arrays")
    return key


def _check(k, arr, xp, where):
    for part in (k if isinstance(k, tuple) else (k,)):
        if isinstance(part, slice) and part.step == 0:
            raise ValueError(f"{where}: slice step cannot be zero")
    if xp is not _onp:
        try:
            _check_bounds(k, arr.shape)
        except IndexError as e:
            raise IndexError(f"{where}: {e} (array shape {arr.shape})") from None


def getitem(arr, key):
    """``arr[key]`` with NumPy semantics."""
    global _GETITEM
    xp = get_backend(arr._ctx).xp
    k = _convert(key, xp)
    _check(k, arr, xp, "ndarray indexing")
    if _GETITEM is None:
        _GETITEM = get_op("_np_getitem")
    if _mode.recording:
        return invoke(_GETITEM, [arr], {"key": k})
    if arr._var is not None and (arr._var.npending or arr._var.exc is not None):
        _sync(arr)
    if arr.ndim and _is_contiguous_basic_key(k, arr.shape):
        # as 1.9.1: a basic key selecting one contiguous run gives a view (zero-dim too)
        kk = k if isinstance(k, tuple) else (k,)
        if not any(p is Ellipsis for p in kk):
            kk = kk + (Ellipsis,)
        try:
            view = arr._data[kk]
        except IndexError as e:
            raise IndexError(f"ndarray indexing: {e} (array shape {arr.shape})") from None
        res = _new(view, arr._ctx, cls=arr.__class__)
        res._var = arr.engine_var
        return res
    return invoke(_GETITEM, [arr], {"key": k})


def setitem(arr, key, value):
    """``arr[key] = value``: a scalar, an array or array-like, broadcast as NumPy does and cast
    to ``arr``'s dtype."""
    backend = get_backend(arr._ctx)
    xp = backend.xp
    copy_node = False
    if _mode.recording:
        _check_not_in_graph([arr])
        # arr[:] = recorded value (same shape) is a recorded copy in 1.9.1; a partial write
        # of a recorded value is refused
        copy_node = isinstance(value, NDArray) and value.shape == arr.shape and \
            value.dtype == arr.dtype and (key is Ellipsis or
                                          (isinstance(key, slice) and key == slice(None)))
        if not copy_node:
            _check_no_recorded_source("ndarray.__setitem__", [value])
    if arr._var is not None and (arr._var.npending or arr._var.exc is not None):
        _sync(arr)
    k = _convert(key, xp)
    _check(k, arr, xp, "ndarray.__setitem__")
    if isinstance(value, NDArray):
        value.wait_to_read()
        v = value._data if value._ctx == arr._ctx else backend.asarray(value._data)
    elif isinstance(value, (int, float, bool, _onp.generic)):
        v = _onp.array(value).astype(arr._data.dtype)[()]
    else:
        v = backend.asarray(_onp.asarray(value))
    try:
        arr._data[k] = _drop_leading_ones(v)
    except (IndexError, ValueError) as e:
        # a value that does not broadcast is an MXNetError in 1.9.1; keep ValueError as a base
        cls = MXNetValueError if isinstance(e, ValueError) else type(e)
        raise cls(f"ndarray.__setitem__: {e} (array shape {arr.shape}, value shape "
                      f"{getattr(v, 'shape', ())})") from None
    if copy_node:
        node = _record(get_op("_copyto"), {}, [value], [arr._data], arr._ctx)
        if node is not None:
            arr._node = (node, 0)
