"""``_sparse_retain`` (``mx.sym.sparse.retain``): keep the rows of ``data`` whose ids are listed
in ``indices``, zeroing the others.

``mx.nd.sparse.retain`` works on a RowSparseNDArray's stored rows directly (see
mxnet/ndarray/sparse.py); this registered form serves symbols and executors, where the
kernel sees the dense form of the data (a row the array does not store is a row of zeros, so
the dense result equals the row_sparse one). The executor's storage-type pass gives the
output row_sparse storage when the data is row_sparse (mxnet/executor/stype.py).

Row ids are truncated to integers; ids outside [0, rows) select nothing. The gradient of
``data`` is the output gradient with the same rows kept; ``indices`` has none.
"""
from __future__ import annotations

import numpy as np

from .registry import register

__all__ = []


def _row_mask(xp, n, indices):
    ids = indices.reshape(-1).astype(np.int64)
    ids = ids[(ids >= 0) & (ids < n)]
    mask = xp.zeros((n,), dtype=bool)
    mask[ids] = True
    return mask


def _retain(rc, attrs, data, indices):
    xp = rc.xp
    if data.ndim == 0:
        return data.copy()
    keep = _row_mask(xp, data.shape[0], indices)
    return xp.where(keep.reshape((-1,) + (1,) * (data.ndim - 1)), data,
                    xp.zeros((), dtype=data.dtype))


def _retain_shape(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else (outs[0] if outs else None)
    return [d, ins[1]], [d], []


def _retain_type(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else (outs[0] if outs else None)
    return [d, ins[1]], [d], []


register("_sparse_retain", _retain, inputs=("data", "indices"), infer_shape=_retain_shape,
         infer_type=_retain_type,
         gradient=lambda F, a, ins, outs, og: [F._backward_sparse_retain(og[0], ins[1]), None],
         doc="The rows of ``data`` whose ids are in ``indices``; the other rows are zero.")

register("_backward_sparse_retain", _retain, inputs=("ograd", "indices"), nd_hidden=True,
         infer_shape=_retain_shape, infer_type=_retain_type,
         doc="Gradient of _sparse_retain: the output gradient with the same rows kept.")
