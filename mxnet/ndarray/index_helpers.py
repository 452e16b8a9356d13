"""1.9.1's indexing helpers of ``mxnet.ndarray.ndarray``, exposed as ``mx.nd.X``:
:func:`get_indexing_dispatch_code`, :func:`indexing_key_expand_implicit_axes` and
:func:`get_oshape_of_gather_nd_op`. Behaviour (results, and which keys raise what) follows
the reference as recorded in tests/golden/nd_helpers.json."""
from __future__ import annotations

import numpy as np

__all__ = ["get_indexing_dispatch_code", "indexing_key_expand_implicit_axes",
           "get_oshape_of_gather_nd_op", "BASIC_INDEXING", "ADVANCED_INDEXING",
           "EMPTY_TUPLE_INDEXING", "UNSUPPORTED_INDEXING", "NO_ZERO_DIM_BOOL_ARRAY",
           "ZERO_DIM_BOOL_ARRAY_FALSE", "ZERO_DIM_BOOL_ARRAY_TRUE"]

BASIC_INDEXING, ADVANCED_INDEXING, EMPTY_TUPLE_INDEXING, UNSUPPORTED_INDEXING = 0, 1, 2, -1
NO_ZERO_DIM_BOOL_ARRAY, ZERO_DIM_BOOL_ARRAY_FALSE, ZERO_DIM_BOOL_ARRAY_TRUE = -1, 0, 1

# the integer scalars 1.9.1 accepts as basic indices (other NumPy integer types are rejected)
_INT_TYPES = (int, np.int32, np.int64)


def _nd_class():
    from .ndarray import NDArray
    return NDArray


def get_indexing_dispatch_code(key):
    """0 (basic) or 1 (advanced) for an already expanded index tuple ``key``.

    Elements are read in order: ints, slices and None are basic; the first list, tuple,
    range, NumPy array or NDArray makes the key advanced. Any other element met before that
    (float, str, Ellipsis, NumPy bool, ...) raises ValueError; a non-tuple key fails the
    AssertionError 1.9.1 raises.
    """
    if not isinstance(key, tuple):
        raise AssertionError(f"get_indexing_dispatch_code: key must be a tuple (expand it with "
                             f"indexing_key_expand_implicit_axes first), got "
                             f"{type(key).__name__}")
    nd = _nd_class()
    for idx in key:
        if isinstance(idx, (np.ndarray, nd, list, tuple, range)):
            return ADVANCED_INDEXING
        if not (isinstance(idx, (slice, *_INT_TYPES)) or idx is None):
            raise ValueError(f"get_indexing_dispatch_code: NDArray does not support slicing "
                             f"with key {idx} of type {type(idx)}.")
    return BASIC_INDEXING


def _bool_mismatch(axis, size, bool_size):
    return IndexError(f"indexing_key_expand_implicit_axes: boolean index did not match indexed "
                      f"array along axis {axis}; size is {size} but corresponding boolean size "
                      f"is {bool_size}")


def indexing_key_expand_implicit_axes(key, shape):
    """Expand ``key`` (for an array of ``shape``) to an explicit tuple.

    Returns ``(expanded_key, bool_scalar)``: the Ellipsis becomes the slices it stands for
    (or, without one, slices are appended until every axis is indexed); Python bools and 0-d
    boolean NDArrays are dropped, and the last of them gives ``bool_scalar`` (1 for True, 0
    for False; -1 when there was none). Boolean NDArrays are checked against the axes they
    cover and, under NumPy array semantics, replaced by their nonzero indices; in legacy
    mode they raise ValueError. Two Ellipses raise IndexError.
    """
    from ..util import is_np_array
    nd = _nd_class()
    if not isinstance(key, tuple):
        key = (key,)
    shape = tuple(shape)
    items, ell_at, bool_scalar, axis = [], None, NO_ZERO_DIM_BOOL_ARRAY, 0
    for pos, idx in enumerate(key):
        if idx is Ellipsis:
            if ell_at is not None:
                raise IndexError("Cannot use more than one ellipsis (`...`) for indexing "
                                 "(indexing_key_expand_implicit_axes)")
            ell_at = pos  # as in 1.9.1: the position in the key as given, before bools drop
            continue
        if isinstance(idx, bool):
            bool_scalar = int(idx)
            continue
        if isinstance(idx, nd) and idx.ndim == 0:
            if np.dtype(idx.dtype) != np.bool_:
                raise AttributeError(f"indexing_key_expand_implicit_axes: a 0-d {idx.dtype} "
                                     "NDArray is not a valid index here ('NDArray' object has "
                                     "no attribute 'item')")
            bool_scalar = int(bool(idx.asnumpy()))
            continue
        if isinstance(idx, nd) and np.dtype(idx.dtype) == np.bool_:
            for j, n in enumerate(idx.shape):
                if axis + j >= len(shape):
                    raise IndexError("tuple index out of range (indexing_key_expand_implicit_"
                                     f"axes: a boolean index reaches past the {len(shape)} "
                                     f"axes of shape {shape})")
                if shape[axis + j] != n:
                    raise _bool_mismatch(axis + j, shape[axis + j], n)
            if not is_np_array():
                raise ValueError("Cannot perform boolean indexing in legacy mode. Please "
                                 "activate numpy semantics by calling `npx.set_np()` in the "
                                 "global scope before calling this function. "
                                 "(indexing_key_expand_implicit_axes)")
            host = idx.asnumpy()
            maker = type(idx)
            parts = [_wrap_index(maker, p, idx) for p in np.nonzero(host)]
            items.extend(parts)
            axis += host.ndim
            continue
        items.append(idx)
        axis += 1
    consumed = sum(1 for x in items if x is not None)
    fill = (slice(None),) * max(0, len(shape) - consumed)
    if ell_at is None:
        return tuple(items) + fill, bool_scalar
    return tuple(items[:ell_at]) + fill + tuple(items[ell_at:]), bool_scalar


def _wrap_index(maker, values, like):
    """``values`` (int64 NumPy indices) as an array of the boolean key's own class."""
    from .ndarray import _new
    arr = _new(np.ascontiguousarray(values, dtype=np.int64), like.context)
    if maker is not type(arr):
        arr.__class__ = maker
    return arr


def get_oshape_of_gather_nd_op(dshape, ishape):
    """The output shape of ``gather_nd(data, indices)``: ``ishape[1:] + dshape[ishape[0]:]``.

    Both shapes must be non-empty (1.9.1 asserts it).
    """
    dshape, ishape = tuple(dshape), tuple(ishape)
    if not dshape or not ishape:
        raise AssertionError(f"get_oshape_of_gather_nd_op: data shape {dshape} and index shape "
                             f"{ishape} must both have at least one axis")
    return ishape[1:] + dshape[ishape[0]:]
