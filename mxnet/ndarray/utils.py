"""``mx.nd.utils``: the array creation and file functions that pick dense or sparse storage
(1.9.1's ``mxnet.ndarray.utils``)."""
from __future__ import annotations

from .ndarray import NDArray
from .ndarray import array as _dense_array
from .ndarray import empty as _dense_empty
from .serialization import load, load_frombuffer, save

__all__ = ["zeros", "empty", "array", "load", "load_frombuffer", "save"]

_STYPES = (None, "default", "csr", "row_sparse")


def _check_stype(fn, stype):
    if stype not in _STYPES:
        from ..base import MXNetValueError   # 1.9.1 raises a ValueError
        raise MXNetValueError(f"{fn}: unknown storage type stype={stype!r}; expected "
                              "'default', 'csr' or 'row_sparse'")


def zeros(shape, ctx=None, dtype=None, stype=None, **kwargs):
    """An all-zero array of ``shape``: dense by default, CSR or row-sparse when ``stype`` is
    'csr' or 'row_sparse' (``dtype`` defaults to float32)."""
    _check_stype("zeros", stype)
    if stype in (None, "default"):
        from . import _dense_zeros
        return _dense_zeros(shape, ctx=ctx, dtype=dtype, **kwargs)
    from .sparse import zeros as sparse_zeros
    return sparse_zeros(stype, shape, ctx=ctx, dtype=dtype, **kwargs)


def empty(shape, ctx=None, dtype=None, stype=None):
    """An array of ``shape`` whose values are not meant to be read before being written
    (zero-filled here); ``stype`` picks dense, 'csr' or 'row_sparse' storage."""
    _check_stype("empty", stype)
    if stype in (None, "default"):
        return _dense_empty(shape, ctx=ctx, dtype=dtype)
    from .sparse import empty as sparse_empty
    return sparse_empty(stype, shape, ctx=ctx, dtype=dtype)


def _is_sparse_source(x):
    if isinstance(x, NDArray):
        return getattr(x, "stype", "default") != "default"
    return type(x).__module__.startswith("scipy.sparse")


def array(source_array, ctx=None, dtype=None):
    """An NDArray copied from ``source_array``: a sparse NDArray or a SciPy sparse matrix
    gives a sparse array of the same kind (CSR for SciPy), anything else a dense one."""
    if _is_sparse_source(source_array):
        from .sparse import array as sparse_array
        return sparse_array(source_array, ctx=ctx, dtype=dtype)
    return _dense_array(source_array, ctx=ctx, dtype=dtype)
