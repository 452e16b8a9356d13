"""Helpers shared by the Python-side iterators: input normalisation and batch-axis slicing."""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ..ndarray import NDArray, array

__all__ = ["_init_data", "_has_instance", "_getdata_by_idx", "_slice_along_batch_axis"]


def _h5py_dataset():
    try:  # optional, as in 1.9.1
        import h5py
    except ImportError:
        return None
    return h5py.Dataset


def _init_data(data, allow_empty, default_name):
    """Turn an array, a list of arrays or a dict of arrays into a sorted list of (name, NDArray).

    One array (or a one-element list) is called ``default_name``; the items of a longer list are
    called ``_<i>_<default_name>``. Dict entries keep their keys and are sorted by them.
    """
    assert (data is not None) or allow_empty
    if data is None:
        data = []
    h5 = _h5py_dataset()
    single = (np.ndarray, NDArray) + ((h5,) if h5 is not None else ())
    if isinstance(data, single):
        data = [data]
    if isinstance(data, list):  # not a tuple: 1.9.1 rejects those with the TypeError below
        if not allow_empty:
            assert len(data) > 0
        if len(data) == 1:
            data = OrderedDict([(default_name, data[0])])
        else:
            data = OrderedDict([(f"_{i}_{default_name}", d) for i, d in enumerate(data)])
    if not isinstance(data, dict):
        raise TypeError("Input must be NDArray, numpy.ndarray, h5py.Dataset a list of them or "
                        "dict with them as values")
    data = dict(data)
    keep = (NDArray,) + ((h5,) if h5 is not None else ())
    for k, v in data.items():
        if not isinstance(v, keep):
            try:
                data[k] = array(v)
            except Exception:  # noqa: BLE001 - any failure means an unusable input
                raise TypeError(f"Invalid type '{type(v)}' for {k}, should be NDArray, "
                                "numpy.ndarray or h5py.Dataset") from None
    return sorted(data.items())


def _has_instance(data, dtype):
    """Whether any array of a ``_init_data`` list is a ``dtype``."""
    return any(isinstance(arr, dtype) for _, arr in data)


def _getdata_by_idx(data, idx):
    """The (name, array) list with every array reordered by ``idx`` along axis 0."""
    h5 = _h5py_dataset()
    out = []
    for k, v in data:
        if h5 is not None and isinstance(v, h5):
            out.append((k, v))
        else:
            out.append((k, array(v.asnumpy()[idx], v.context)))
    return out


def _slice_along_batch_axis(data, s, batch_axis):
    """``data[s]`` along ``batch_axis`` (a contiguous slice)."""
    return data.slice_axis(axis=batch_axis, begin=s.start, end=s.stop)
