"""``NDArray.__getitem__`` / ``__setitem__``: basic and advanced indexing with 1.9.1's shapes.

A result that would be 0-dimensional has shape (1,), as 1.9.1 has no 0-d arrays. Integer
or unit-step slices along the first axis, and any basic key (integers, slices, None,
Ellipsis) whose selection is one contiguous block of the row-major buffer (``x[0:1, 0:2]``,
``x[1, 2:4]``), return views that share memory (and the engine variable) with the source,
as in 1.9.1; other keys return copies. Under ``autograd.record()`` every key is
recorded as a copying, differentiable operator.
"""
from __future__ import annotations

import numpy as np

from .._mode import mode as _mode
from ..backend import get_backend
from ..base import MXNetError, MXNetTypeError, numeric_types
from ..operator.registry import Param, get_op, register
from .ndarray import (NDArray, _check_no_recorded_source, _check_not_in_graph, _new, _record,
                      _sync, invoke)


def _convert_key(key, xp):
    # 1.9.1 reads boolean masks as 0/1 integer indices, and float indices as integers
    if isinstance(key, NDArray):
        if key._data.dtype == np.bool_:
            raise ValueError("NDArray indexing: boolean NDArray indices are not supported; "
                             "use integer indices")
        return key._data.astype(np.int64) if key._data.dtype.kind == "f" else key._data
    if isinstance(key, (list, np.ndarray)):
        arr = xp.asarray(key)
        # 1.9.1 truncates float index lists to integers, as it does float NDArray indices
        return arr.astype(np.int64) if arr.dtype.kind in "bf" else arr
    if isinstance(key, (float, np.floating)):
        raise ValueError(f"NDArray indexing: float index {key} is not supported; use an integer")
    if isinstance(key, np.bool_):
        raise ValueError(f"NDArray indexing: key {key!r} of type numpy.bool_ is not supported; "
                         f"use integers, slices, None, Ellipsis or integer arrays")
    if isinstance(key, (str, bytes, dict, set)):
        # 1.9.1 raises ValueError for keys of these types
        raise ValueError(f"NDArray indexing: key {key!r} of type {type(key).__name__} is not "
                         f"supported; use integers, slices, None, Ellipsis or integer arrays")
    if isinstance(key, tuple):
        return tuple(_convert_key(k, xp) for k in key)
    return key


def _check_bounds(k, shape):
    """Raise NumPy's IndexError for out-of-range integer indices. NumPy checks them itself;
    CuPy's advanced indexing wraps them silently, so GPU arrays are checked here."""
    parts = k if isinstance(k, tuple) else (k,)
    consumed = sum(1 for p in parts if p is not None and p is not Ellipsis)
    axis = 0
    for p in parts:
        if p is None:
            continue
        if p is Ellipsis:
            axis += len(shape) - consumed
            continue
        if axis >= len(shape):
            return  # too many indices: the backend raises
        n = shape[axis]
        if hasattr(p, "ndim") and p.dtype.kind in "iu" and p.size:
            lo, hi = int(p.min()), int(p.max())
            bad = hi if hi >= n else (lo if lo < -n else None)
            if bad is not None:
                raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
        axis += 1


def _is_first_axis_view(key):
    if isinstance(key, tuple):
        if len(key) != 1:
            return False
        key = key[0]
    if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        return True
    return isinstance(key, slice) and key.step in (None, 1)


def _is_contiguous_basic_key(key, shape):
    """True when ``key`` uses only integers, slices, None and Ellipsis, and the elements it
    selects form one contiguous run of a C-ordered array of ``shape`` (1.9.1 returns a view
    for such keys and a copy otherwise)."""
    parts = key if isinstance(key, tuple) else (key,)
    for p in parts:
        if isinstance(p, bool) or not (p is None or p is Ellipsis or isinstance(p, slice)
                                        or isinstance(p, (int, np.integer))):
            return False
    if sum(p is Ellipsis for p in parts) > 1:
        return False
    # zero strides of a 1-byte probe over the logical shape: indexing it costs no memory,
    # and NumPy's contiguity flag of the result is the test 1.9.1 applies
    strides = [0] * len(shape)
    step = 1
    for i in range(len(shape) - 1, -1, -1):
        strides[i] = step
        step *= max(int(shape[i]), 1)
    probe = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape=tuple(shape),
                                            strides=tuple(strides))
    try:
        sel = probe[parts if Ellipsis in parts else parts + (Ellipsis,)]
    except IndexError:
        return True  # let the view path raise NumPy's IndexError with the array's shape
    return bool(sel.flags.c_contiguous)


def _index_compute(rc, attrs, x):
    try:
        out = x[attrs["key"]]
    except IndexError as e:
        raise IndexError(f"NDArray indexing: {e} (array shape {x.shape})") from None
    if out.ndim == 0:
        out = out.reshape(1)
    return rc.xp.array(out, copy=True)


def _index_backward_compute(rc, attrs, g, x):
    xp = rc.xp
    out = xp.zeros_like(x)
    key = attrs["key"]
    target_shape = x[key].shape
    g = g.reshape(target_shape)
    if xp is np:
        np.add.at(out, key, g)
    else:  # CuPy
        import cupyx
        cupyx.scatter_add(out, key, g)
    return out


register("_index", _index_compute, params=(Param("key", "any", None),), nd_hidden=True,
         gradient=lambda F, a, ins, outs, og: [F._index_backward(og[0], ins[0], key=a["key"])])
register("_index_backward", _index_backward_compute, params=(Param("key", "any", None),),
         inputs=("grad", "data"), nd_hidden=True,
         gradient=lambda F, a, ins, outs, og: [F._index(og[0], key=a["key"]), None])
_INDEX = get_op("_index")


def getitem(arr: NDArray, key):
    """Read ``arr[key]``."""
    xp = get_backend(arr._ctx).xp
    k = _convert_key(key, xp)
    # 1.9.1 reads a Python bool as the integer 0 or 1 when reading (x[True] is x[1]); writes
    # keep NumPy's meaning
    if isinstance(k, bool):
        k = int(k)
    elif isinstance(k, tuple) and any(isinstance(p, bool) for p in k):
        k = tuple(int(p) if isinstance(p, bool) else p for p in k)
    for part in (k if isinstance(k, tuple) else (k,)):
        if isinstance(part, slice) and part.step == 0:
            raise ValueError("NDArray indexing: slice step cannot be zero")
    if xp is not np:
        try:
            _check_bounds(k, arr.shape)
        except IndexError as e:
            raise IndexError(f"NDArray indexing: {e} (array shape {arr.shape})") from None
    # while recording, 1.9.1 still hands out views of an array outside the graph, so writes
    # through them land (e.g. ``alphas[0][0] = 0`` in a CRF's forward pass)
    if _mode.recording and arr._node is not None and not arr._node[0].freed:
        return invoke(_INDEX, [arr], {"key": k})
    if arr._var is not None and (arr._var.npending or arr._var.exc is not None):
        _sync(arr)
    if isinstance(k, slice) and arr.ndim:
        start, stop, step = k.indices(arr.shape[0])
        if step == 1 and stop < start:
            raise MXNetError(f"NDArray indexing: slice [{k.start}:{k.stop}] selects a negative "
                             f"extent on axis 0 of size {arr.shape[0]}")
    if arr.ndim > 1 and not _is_first_axis_view(k) and _is_contiguous_basic_key(k, arr.shape):
        # a multi-axis basic key whose selection is one contiguous block of the row-major
        # buffer (e.g. x[0:1, 0:2], x[1, 2:4]) is a view in 1.9.1, as first-axis slices are
        key = k if isinstance(k, tuple) else (k,)
        try:
            view = arr._data[key if Ellipsis in key else key + (Ellipsis,)]
        except IndexError as e:
            raise IndexError(f"NDArray indexing: {e} (array shape {arr.shape})") from None
        if view.ndim == 0:
            view = view.reshape(1)
        res = _new(view, arr._ctx)
        res._var = arr.engine_var
        return res
    if _is_first_axis_view(k) and arr.ndim:
        part = k[0] if isinstance(k, tuple) else k
        if arr.ndim == 1 and not isinstance(part, slice):
            # an element of a 1-D array is a (1,) view of it, as in 1.9.1
            i = int(part)
            if not -arr.shape[0] <= i < arr.shape[0]:
                raise IndexError(f"NDArray indexing: index {i} is out of bounds for axis 0 "
                                 f"with size {arr.shape[0]} (array shape {arr.shape})")
            i %= arr.shape[0]
            part = slice(i, i + 1)
        try:
            view = arr._data[part]
        except IndexError as e:
            raise IndexError(f"NDArray indexing: {e} (array shape {arr.shape})") from None
        res = _new(view, arr._ctx)
        res._var = arr.engine_var
        return res
    return invoke(_INDEX, [arr], {"key": k})


def _drop_leading_ones(v):
    """Drop a value's leading size-1 axes: 1.9.1 accepts ``a[0] = ones((1, 1))``, where the value
    has more axes than the target; for every value NumPy accepts, the write is the same."""
    shape = getattr(v, "shape", ())
    n = 0
    while n < len(shape) and shape[n] == 1:
        n += 1
    return v.reshape(shape[n:]) if n else v


def setitem(arr: NDArray, key, value):
    """Write ``arr[key] = value`` (scalar, NDArray or array-like, broadcast as NumPy does)."""
    backend = get_backend(arr._ctx)
    xp = backend.xp
    copy_node = False
    if _mode.recording:
        _check_not_in_graph([arr])
        # x[:] = recorded value (same shape) is a recorded copy in 1.9.1; a partial write
        # of a recorded value is refused
        copy_node = isinstance(value, NDArray) and value.shape == arr.shape and \
            value.dtype == arr.dtype and \
            (key is Ellipsis or (isinstance(key, slice) and key == slice(None))) and \
            type(arr) is NDArray
        if not copy_node:
            _check_no_recorded_source("NDArray.__setitem__", [value])
    if arr._var is not None and (arr._var.npending or arr._var.exc is not None):
        _sync(arr)
    k = _convert_key(key, xp)
    if xp is not np:
        try:
            _check_bounds(k, arr.shape)
        except IndexError as e:
            raise IndexError(f"NDArray.__setitem__: {e} (array shape {arr.shape})") from None
    if isinstance(value, (str, bytes, dict, set)):
        raise MXNetTypeError(f"NDArray.__setitem__: cannot assign a value of type "
                             f"{type(value).__name__} ({value!r}); expected a number, an NDArray "
                             f"or an array-like")
    if isinstance(value, NDArray):
        value.wait_to_read()
        v = value._data if value._ctx == arr._ctx else backend.asarray(value._data)
    elif isinstance(value, numeric_types):
        # C-style cast, as 1.9.1 does (257 into uint8 wraps to 1)
        v = np.array(value).astype(arr._data.dtype)[()]
    else:
        v = backend.asarray(value)
    try:
        if isinstance(v, np.generic):
            arr._data[k] = v
        else:
            v = _drop_leading_ones(v)
            target = arr._data[k]
            if getattr(target, "shape", None) != getattr(v, "shape", None) and v.size == target.size \
                    and target.ndim and v.ndim:
                v = v.reshape(target.shape)
            arr._data[k] = v
    except (IndexError, ValueError) as e:
        raise type(e)(f"NDArray.__setitem__: {e} (array shape {arr.shape}, "
                      f"value shape {getattr(v, 'shape', ())})") from None
    if copy_node:
        node = _record(get_op("_copyto"), {}, [value], [arr._data], arr._ctx)
        if node is not None:
            arr._node = (node, 0)
