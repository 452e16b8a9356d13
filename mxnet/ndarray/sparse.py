"""``mx.nd.sparse``: compressed sparse row (CSR) and row-sparse NDArrays.

A sparse array keeps its components (CSR: ``data``, ``indices``, ``indptr``; row_sparse:
``data``, ``indices``) as device arrays; the operators in :mod:`.sparse_ops` work on them.
Any other operator given a sparse array reads its dense form and returns a dense NDArray:
1.9.1's "storage fallback" (same values, default stype).

How it plugs into :class:`~mxnet.ndarray.NDArray` without slowing the dense path: the
sparse classes add no slots. Their components live in NDArray's own ``_data`` slot (as a
``_Parts`` record), and the classes override ``_data`` with a property. Its getter builds
the dense array, so ``invoke`` reads a dense array from a sparse input without knowing
about sparsity. Its setter, on a fresh object (``invoke`` wrapping a dense result in the
class of its first input), turns the object into a plain NDArray; on an existing sparse
array (a sparse gradient buffer that autograd writes) it converts the value into the
array's own storage type. ``mx.nd.X`` functions look for a sparse front end
(``register.SPARSE_FRONTS``) only when an argument is not a plain NDArray.

1.9.1 behaviour kept (checked against the real library; see tools/golden/gen_sparse.py):

- ``dot(csr, dense)`` is dense, ``dot(csr.T, dense)`` is row_sparse, ``dot(dense, csr)``
  and ``dot(dense, csr.T)`` are csr; other combinations are dense. csr products need
  floating-point dtypes.
- ``add``/``subtract`` of two csr (two row_sparse) arrays stay csr (row_sparse), keeping
  the union of both patterns even where the values cancel; with a dense operand the
  result is dense. ``multiply`` keeps the sparse operand's stype (csr * csr stores the
  intersection, row_sparse * row_sparse the union of the rows); ``divide`` is dense.
- Scalar ``*`` and ``/`` keep the stype; scalar ``+`` and ``-`` give dense arrays.
- Zero-preserving unary functions (``abs``, ``sign``, ``square``, ``sqrt``, ``relu``,
  ``negative``, ...) keep the stype; ``clip`` on a sparse array needs a_min <= 0 <= a_max.
  ``sum``/``mean`` return dense arrays.
- csr <-> row_sparse conversion raises ValueError; ``RowSparseNDArray`` only takes
  ``[:]``; ``CSRNDArray`` takes an int or a step-1 slice of rows.
- ``retain`` returns the requested rows in the order given (zeros for rows not stored).
- ``sgd_update``/``sgd_mom_update``/``adam_update`` with a row_sparse gradient and
  ``lazy_update=True`` touch only the gradient's rows.
- Through autograd, the row_sparse gradient of ``Embedding(sparse_grad=True)`` and
  ``contrib.SparseEmbedding`` stores every row looked up, and that of ``dot(csr, x)`` every
  column id the csr holds, even rows whose gradient is all zeros (so lazy updates decay
  them); other gradients written into a row_sparse buffer keep their non-zero rows.
- The index arrays are int64 whatever the input dtype; constructors do not check the
  order of indices (``check_format`` does).
- While autograd records, results keep the storage types above: the operator is taped as
  its dense form (so gradients flow) and the sparse result takes over its tape entry;
  backward prints 1.9.1's fallback lines of the gradient operators (``_fallback_log``).

Deliberate differences: csr (+, -, *) csr results are canonical (1.9.1 over-allocates and
leaves indices unsorted); ``size`` is the dense element count (1.9.1 raises); COO input
to ``csr_matrix`` works without SciPy.
"""
from __future__ import annotations

import sys as _sys
import warnings

import numpy as np

from ..backend import get_backend
from ..base import MXNetError, MXNetTypeError, MXNetValueError, dtype_np, numeric_types
from ..context import Context, current_context
from ..operator.registry import get_op
from .ndarray import NDArray, _new, _wait_var, invoke

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "csr_matrix",
           "row_sparse_array", "zeros", "empty", "array", "cast_storage", "retain",
           "zeros_like"]

_IDX = np.int64
_SLOT = NDArray._data  # the member descriptor of NDArray's ``_data`` slot


class _NotImplemented(MXNetError, NotImplementedError):
    """An MXNetError that is also the NotImplementedError 1.9.1 raises."""


class _Parts:
    """The components of one sparse array (device arrays) and its dense shape."""

    __slots__ = ("shape", "data", "indices", "indptr")

    def __init__(self, shape, data, indices, indptr=None):
        self.shape = tuple(int(s) for s in shape)
        self.data = data
        self.indices = indices
        self.indptr = indptr


def _xp(ctx):
    return get_backend(ctx).xp


# --------------------------------------------------------------------------- component kernels

def _csr_to_dense(xp, p):
    rows, cols = p.shape
    dense = xp.zeros(p.shape, p.data.dtype)
    if p.data.size:
        row_of = xp.repeat(xp.arange(rows), xp.diff(p.indptr).astype(np.int64))
        dense[row_of, p.indices] = p.data
    return dense


def _rsp_to_dense(xp, p):
    dense = xp.zeros(p.shape, p.data.dtype)
    if p.indices.size:
        dense[p.indices] = p.data
    return dense


def _csr_from_dense(xp, dense, mask=None):
    """CSR parts of a 2-D dense array; ``mask`` (default: ``dense != 0``) picks what is stored."""
    if dense.ndim != 2:
        raise MXNetError(f"csr storage needs a 2-D array, got shape {tuple(dense.shape)}")
    if mask is None:
        mask = dense != 0
    rows, cols = xp.nonzero(mask)
    counts = xp.bincount(rows, minlength=dense.shape[0]) if rows.size else \
        xp.zeros(dense.shape[0], _IDX)
    indptr = xp.concatenate([xp.zeros(1, _IDX), xp.cumsum(counts).astype(_IDX)])
    return _Parts(dense.shape, dense[rows, cols], cols.astype(_IDX), indptr)


def _rsp_from_dense(xp, dense, rows=None):
    """Row-sparse parts of a dense array (at least 1-D): the rows holding a non-zero."""
    if dense.ndim < 1:
        raise MXNetError("row_sparse storage needs an array of at least one dimension")
    if rows is None:
        flat = dense.reshape(dense.shape[0], int(np.prod(dense.shape[1:])))
        rows = xp.nonzero((flat != 0).any(axis=1))[0]
    rows = rows.astype(_IDX)
    return _Parts(dense.shape, dense[rows], rows)


def _row_of(xp, indptr, rows):
    return xp.repeat(xp.arange(rows, dtype=_IDX), xp.diff(indptr).astype(np.int64))


def _scatter_add(xp, out, idx, values):
    """``out[idx] += values`` with repeated indices accumulating (NumPy's ``add.at``; CuPy
    builds without ``ufunc.at`` use ``cupyx.scatter_add``)."""
    if hasattr(xp.add, "at"):
        xp.add.at(out, idx, values)
    else:  # pragma: no cover  (older CuPy)
        import cupyx
        cupyx.scatter_add(out, idx, values)


def _segment_sum(xp, values, indptr, nrows):
    """Per-row sums of ``values`` (first axis split by ``indptr``), empty rows giving 0."""
    out = xp.zeros((nrows,) + values.shape[1:], values.dtype)
    if not values.shape[0]:
        return out
    if hasattr(xp.add, "reduceat"):
        nonempty = xp.diff(indptr) > 0
        out[nonempty] = xp.add.reduceat(values, indptr[:-1][nonempty], axis=0)
    else:  # pragma: no cover  (CuPy has no reduceat)
        _scatter_add(xp, out, _row_of(xp, indptr, nrows), values)
    return out


# --------------------------------------------------------------------------- classes

class BaseSparseNDArray(NDArray):
    """The common base of the sparse NDArrays (``CSRNDArray``, ``RowSparseNDArray``)."""

    __slots__ = ()
    _stype = None
    _is_sparse = True

    def __init__(self, handle=None, writable=True):
        # unpickling calls cls(None) before __setstate__; build an empty array
        _SLOT.__set__(self, None)
        self._ctx = current_context()
        self._var = None
        self._node = None
        self._grad = None
        self._grad_req = "null"

    # -- storage ----------------------------------------------------------------------------
    @property
    def _parts(self) -> _Parts:
        """The components, once pending engine writes to this array are done."""
        v = self._var
        if v is not None and (v.npending or v.exc is not None):
            _wait_var(v)
        return _SLOT.__get__(self)

    @property
    def _data(self):
        """The dense form (what dense operators read: 1.9.1's storage fallback)."""
        p = _SLOT.__get__(self)
        xp = _xp(self._ctx)
        return _csr_to_dense(xp, p) if p.indptr is not None else _rsp_to_dense(xp, p)

    @_data.setter
    def _data(self, value):
        try:
            _SLOT.__get__(self)
        except AttributeError:
            # a fresh object: a dense result that ``invoke``/``_new`` wrapped in the class of
            # a sparse input. It is dense (1.9.1's storage fallback).
            self.__class__ = NDArray
            _SLOT.__set__(self, value)
            return
        # an existing sparse array (a sparse gradient buffer written by autograd): keep
        # the storage type
        self._assign(value)

    def _assign(self, data):
        """Replace the values with those of a dense array (``out=`` and ``copyto``)."""
        self._parts   # noqa: B018 - waits for pending writes
        self._assign_in_op(data)

    def _assign_in_op(self, data):
        """``_assign`` from inside the engine op that writes this array (no wait on it)."""
        xp = _xp(self._ctx)
        if type(data).__module__.split(".")[0] != xp.__name__:
            data = get_backend(self._ctx).asarray(data)
        p = _SLOT.__get__(self)
        try:
            dense = xp.broadcast_to(xp.asarray(data).astype(p.data.dtype), p.shape)
        except ValueError:
            raise MXNetError(f"cannot assign an array of shape {tuple(np.shape(data))} to a "
                             f"{type(self).__name__} of shape {p.shape}") from None
        new = self._from_dense(xp, dense)
        _SLOT.__set__(self, new)

    @classmethod
    def _wrap(cls, parts, ctx):
        a = object.__new__(cls)
        _SLOT.__set__(a, parts)
        a._ctx = ctx
        a._var = None
        a._node = None
        a._grad = None
        a._grad_req = "null"
        return a

    # -- attributes --------------------------------------------------------------------------
    @property
    def shape(self):
        return _SLOT.__get__(self).shape

    @property
    def dtype(self):
        return _SLOT.__get__(self).data.dtype.type

    @property
    def size(self):
        return int(np.prod(_SLOT.__get__(self).shape))

    @property
    def ndim(self):
        return len(_SLOT.__get__(self).shape)

    @property
    def stype(self):
        """Storage type: 'csr' or 'row_sparse'."""
        return self._stype

    def _aux_nd(self, arr):
        return _new(arr.copy(), self._ctx)

    @property
    def data(self):
        """A copy of the stored values, as a dense NDArray."""
        return self._aux_nd(self._parts.data)

    @property
    def indices(self):
        """A copy of the index array (int64), as a dense NDArray."""
        return self._aux_nd(self._parts.indices)

    # -- conversion ----------------------------------------------------------------------------
    def asnumpy(self):
        """The dense values as a NumPy array."""
        self.wait_to_read()
        d = self._data
        return d.get() if self._ctx.device_typeid == 2 else np.asarray(d)

    def asscalar(self):
        # 1.9.1 raises NotImplementedError; this error is both
        raise _NotImplemented(f"asscalar: not supported for a {type(self).__name__}")

    def tostype(self, stype):
        """Convert to another storage type: 'default', 'csr' or 'row_sparse'."""
        return cast_storage(self, stype)

    def copy(self):
        """A new sparse array with copies of the components."""
        if _ops._recorded(self):   # taped as ``_copy`` (1.9.1 records it)
            return _ops._with_entry(invoke(get_op("_copy"), [self], {}), self.copyto,
                                    self._ctx)
        return self.copyto(self._ctx)

    def copyto(self, other):
        """Copy onto a Context (a new array), or into an NDArray of the same shape."""
        if isinstance(other, Context):
            p = self._parts
            be = get_backend(other)
            conv = (lambda a: None if a is None else be.asarray(a).copy())
            return type(self)._wrap(_Parts(p.shape, conv(p.data), conv(p.indices),
                                           conv(p.indptr)), other)
        if isinstance(other, NDArray):
            if other is self:
                import warnings
                warnings.warn("You are attempting to copy an array to itself", RuntimeWarning,
                              stacklevel=2)
                return False
            if other.shape != self.shape:
                raise MXNetError(f"copyto: shape mismatch, source {self.shape} vs target "
                                 f"{other.shape}")
            if isinstance(other, BaseSparseNDArray) and other.stype == self.stype:
                p = self._parts
                be = get_backend(other._ctx)
                conv = (lambda a: None if a is None else be.asarray(a).astype(
                    other._parts.data.dtype if a is p.data else a.dtype, copy=True))
                _SLOT.__set__(other, _Parts(p.shape, conv(p.data), conv(p.indices),
                                            conv(p.indptr)))
                return other
            if other.stype != "default":   # csr <-> row_sparse
                raise TypeError(f"copyto does not support destination NDArray stype "
                                f"{other.stype}")
            from ._fallback_log import log_copy   # sparse into dense, as 1.9.1 logs it
            log_copy(self, other)
            other._assign(self._data)
            return other
        raise TypeError(f"copyto does not support type {type(other)}")

    def as_in_context(self, context):
        return self if self._ctx == context else self.copyto(context)

    def astype(self, dtype, copy=True):
        """The array with its values cast to ``dtype`` (same storage type)."""
        dt = dtype_np(dtype)
        p = self._parts
        if not copy and p.data.dtype == dt:
            return self
        return type(self)._wrap(_Parts(p.shape, p.data.astype(dt), p.indices.copy(),
                                       None if p.indptr is None else p.indptr.copy()), self._ctx)

    def as_np_ndarray(self):
        raise MXNetValueError(f"as_np_ndarray: not supported for a {type(self).__name__}; "
                              "convert with tostype('default') first")

    def detach(self):
        """The same components, cut off from the recorded graph (the storage type kept)."""
        return type(self)._wrap(self._parts, self._ctx)

    def __bool__(self):   # 1.9.1 raises NotImplementedError
        raise _NotImplemented(f"the truth value of a {type(self).__name__} is not supported")

    __nonzero__ = __bool__

    def reshape(self, *shape, **kwargs):
        from ..base import NotSupportedForSparseNDArray
        raise NotSupportedForSparseNDArray(self.reshape, None, *shape)

    # -- protocol -------------------------------------------------------------------------------
    def __repr__(self):
        shape = "x".join(str(s) for s in self.shape)
        return f"\n<{type(self).__name__} {shape} @{self._ctx}>"

    def __iter__(self):
        raise MXNetError(f"iteration is not supported for a {type(self).__name__}")

    def __getstate__(self):
        from .serialization import dumps_one
        return {"handle": bytearray(dumps_one(self))}

    def __setstate__(self, state):
        from .serialization import _load_ctx, loads_one
        rec, dev_type, dev_id = loads_one(state["handle"], keep_sparse=True)
        ctx = _load_ctx(dev_type, dev_id)   # as 1.9.1: any CPU array comes back on cpu(0)
        res = _from_record(rec, ctx)
        _SLOT.__set__(self, res._parts)
        self._ctx = ctx
        self._var = None
        self._node = None
        self._grad = None
        self._grad_req = "null"

    # -- arithmetic -------------------------------------------------------------------------------
    def __add__(self, other):
        return _ops.add(self, other)

    def __radd__(self, other):
        return _ops.add(other, self)

    def __sub__(self, other):
        return _ops.subtract(self, other)

    def __rsub__(self, other):
        return _ops.subtract(other, self)

    def __mul__(self, other):
        # as 1.9.1's ``*``: a row_sparse array times a dense one of another shape
        # (broadcasting) is dense
        if isinstance(self, RowSparseNDArray) and isinstance(other, NDArray) and \
                not isinstance(other, BaseSparseNDArray) and other.shape != self.shape:
            return NDArray._binary(self, other, "broadcast_mul", "_mul_scalar")
        return _ops.multiply(self, other)

    def __rmul__(self, other):
        # dense * sparse is dense in 1.9.1 (the dense array's ``*`` runs)
        if isinstance(other, NDArray) and not isinstance(other, BaseSparseNDArray):
            return NDArray._binary(other, self, "broadcast_mul", "_mul_scalar")
        return _ops.multiply(other, self)

    def __truediv__(self, other):
        if isinstance(self, CSRNDArray) and isinstance(other, NDArray) and \
                not isinstance(other, BaseSparseNDArray):   # 1.9.1's ``/`` is broadcast_div
            return _ops.broadcast_div(self, other)
        return _ops.divide(self, other)

    def __rtruediv__(self, other):
        return _ops.divide(other, self)

    __div__ = __truediv__
    __rdiv__ = __rtruediv__

    def __neg__(self):
        return _ops._unary("negative", self)

    def _compare(self, other, bname, sname):
        if isinstance(other, numeric_types):
            return _ops.compare_scalar(self, sname, other)
        return NDArray._binary(self, other, bname, sname)

    def __eq__(self, other):
        return self._compare(other, "broadcast_equal", "_equal_scalar")

    def __ne__(self, other):
        return self._compare(other, "broadcast_not_equal", "_not_equal_scalar")

    def __gt__(self, other):
        return self._compare(other, "broadcast_greater", "_greater_scalar")

    def __ge__(self, other):
        return self._compare(other, "broadcast_greater_equal", "_greater_equal_scalar")

    def __lt__(self, other):
        return self._compare(other, "broadcast_lesser", "_lesser_scalar")

    def __le__(self, other):
        return self._compare(other, "broadcast_lesser_equal", "_lesser_equal_scalar")

    __hash__ = NDArray.__hash__

    def __abs__(self):
        return _ops._unary("abs", self)

    def _inplace_res(self, res):
        if isinstance(res, BaseSparseNDArray) and res.stype == self.stype:
            _SLOT.__set__(self, res._parts)
            return self
        # as 1.9.1: a result of another storage type is copied back into this array's
        # (logged as a storage fallback copy); a row_sparse array keeps its non-zero rows
        if res.stype != "default":
            res = res.tostype("default")
        res.copyto(self)
        return self

    def __iadd__(self, other):
        return self._inplace_res(_ops.add(self, other))

    def __isub__(self, other):
        return self._inplace_res(_ops.subtract(self, other))

    def __imul__(self, other):
        return self._inplace_res(self.__mul__(other))

    def __itruediv__(self, other):
        return self._inplace_res(self.__truediv__(other))

    __idiv__ = __itruediv__

    def __setitem__(self, key, value):
        name = type(self).__name__
        if isinstance(key, py_slice) and key != py_slice(None):   # 1.9.1: a ValueError
            raise MXNetValueError(f"{name}.__setitem__: assignment to the slice {key!r} is not "
                                  "implemented; only [:] is supported")
        if not (isinstance(key, py_slice) and key == py_slice(None)):
            err = MXNetTypeError if isinstance(self, RowSparseNDArray) else MXNetError
            raise err(f"{name} only supports [:] for assignment, got {key!r}")
        if isinstance(value, np.ndarray):   # as 1.9.1, which warns and goes through dense
            warnings.warn(f"Assigning non-NDArray object to {name} is not efficient",
                          RuntimeWarning, stacklevel=2)
        if isinstance(value, numeric_types) and isinstance(self, RowSparseNDArray):
            # as 1.9.1: every row becomes stored, holding the value (zero included)
            xp = _xp(self._ctx)
            self.wait_to_read()
            p = self._parts
            _SLOT.__set__(self, _Parts(p.shape, xp.full(p.shape, value, p.data.dtype),
                                       xp.arange(p.shape[0], dtype=_IDX)))
            return
        if isinstance(value, numeric_types):
            raise ValueError(f"Assigning numeric types to {type(self).__name__} is not "
                             "implemented yet.")
        if isinstance(value, NDArray):
            if value is not self:
                value.copyto(self)
            return
        self._assign(value)


py_slice = slice  # ``slice`` is rebound below to the sparse slice function


class CSRNDArray(BaseSparseNDArray):
    """A 2-D array in compressed sparse row format: ``data``, ``indices`` (column ids per
    stored value, ascending within a row) and ``indptr`` (row starts, length rows + 1)."""

    __slots__ = ()
    _stype = "csr"

    @staticmethod
    def _from_dense(xp, dense):
        return _csr_from_dense(xp, dense)

    @property
    def indptr(self):
        """A copy of the row pointer array (int64), as a dense NDArray."""
        return self._aux_nd(self._parts.indptr)

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            n = self.shape[0]
            k = int(key) + n if key < 0 else int(key)
            if not 0 <= k < n:
                raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}")
            return _csr_rows(self, k, k + 1)
        if isinstance(key, py_slice):
            if key.step not in (None, 1):
                raise ValueError("CSRNDArray only supports continuous slicing on axis 0")
            start, stop, _ = key.indices(self.shape[0])
            return _csr_rows(self, start, max(start, stop))
        if isinstance(key, tuple):
            raise ValueError("Multi-dimension indexing is not supported")
        raise ValueError(f"Undefined behaviour for {key}")

    def asscipy(self):
        """A ``scipy.sparse.csr_matrix`` copy (needs SciPy)."""
        try:
            import scipy.sparse as spsp
        except ImportError:
            raise ImportError("asscipy: scipy could not be imported") from None
        p = self._parts
        return spsp.csr_matrix((_host(p.data), _host(p.indices), _host(p.indptr)),
                               shape=p.shape)

    def check_format(self, full_check=True):
        """Raise MXNetError unless the components form a valid CSR array (``full_check``
        also checks that column indices are in range and ascending within each row)."""
        _check_csr(self._parts, full_check, "check_format")


class RowSparseNDArray(BaseSparseNDArray):
    """An array storing only some rows: ``data`` (the rows, shape (k,) + shape[1:]) and
    ``indices`` (their ascending row ids)."""

    __slots__ = ()
    _stype = "row_sparse"

    @staticmethod
    def _from_dense(xp, dense):
        return _rsp_from_dense(xp, dense)

    def __getitem__(self, key):
        if isinstance(key, py_slice) and key == py_slice(None):
            return self
        raise MXNetError(f"RowSparseNDArray only supports [:] for __getitem__, got {key!r}")

    def _set_rows(self, rows, values):
        """Replace the components in place: ``values`` (device array) stored at the
        ascending row ids ``rows`` (used by ``KVStore.row_sparse_pull``)."""
        p = _SLOT.__get__(self)  # runs inside the engine op that writes this array
        _SLOT.__set__(self, _Parts(p.shape, values.astype(p.data.dtype), rows.astype(_IDX)))

    @classmethod
    def _from_rows(cls, dense, rows):
        """The row_sparse gradient that stores rows ``rows`` (ascending, unique device
        array) of the dense NDArray ``dense``, all-zero rows included."""
        dense.wait_to_read()
        d = dense._data
        rows = rows.astype(_IDX, copy=False)
        return cls._wrap(_Parts(tuple(d.shape), d[rows], rows), dense._ctx)

    def _store_from(self, src):
        """Become a copy of the row_sparse array ``src`` (same shape), converted to this
        array's dtype: how autograd writes a row_sparse gradient into its buffer."""
        mine, p = self._parts, src._parts
        be = get_backend(self._ctx)
        _SLOT.__set__(self, _Parts(mine.shape, be.asarray(p.data, dtype=mine.data.dtype),
                                   be.asarray(p.indices, dtype=_IDX)))

    def retain(self, *args, **kwargs):
        """The rows whose ids are in ``indices`` (see :func:`retain`)."""
        return retain(self, *args, **kwargs)

    def check_format(self, full_check=True):
        """Raise MXNetError unless the row indices are ascending, unique and in range."""
        _check_rsp(self._parts, full_check, "check_format")


def _host(a):
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _check_csr(p, full_check, fn):
    if len(p.shape) != 2:
        raise MXNetValueError(f"{fn}: a csr array must be 2-D, got shape {p.shape}")
    rows, cols = p.shape
    indptr, idx = _host(p.indptr), _host(p.indices)
    if p.data.ndim != 1 or idx.shape != p.data.shape:
        raise MXNetError(f"{fn}: csr data and indices must be 1-D of one length, got "
                         f"{tuple(p.data.shape)} and {idx.shape}")
    if indptr.shape != (rows + 1,):
        raise MXNetError(f"{fn}: csr indptr must have shape ({rows + 1},) for shape "
                         f"{p.shape}, got {indptr.shape}")
    if indptr[0] != 0 or indptr[-1] != idx.size or (np.diff(indptr) < 0).any():
        raise MXNetError(f"{fn}: csr indptr must rise from 0 to nnz={idx.size}, got "
                         f"{indptr.tolist()}")
    if full_check and idx.size:
        if idx.min() < 0 or idx.max() >= cols:
            raise MXNetError(f"{fn}: csr column indices must lie in [0, {cols}), got "
                             f"values from {idx.min()} to {idx.max()}")
        step = np.diff(idx)
        starts = np.zeros(idx.size, bool)
        starts[indptr[1:-1][indptr[1:-1] < idx.size]] = True
        if ((step <= 0) & ~starts[1:]).any():
            raise MXNetError(f"{fn}: csr column indices must be ascending within each row")


def _check_rsp(p, full_check, fn):
    idx = _host(p.indices)
    if idx.ndim != 1 or p.data.shape[:1] != idx.shape or \
            tuple(p.data.shape[1:]) != tuple(p.shape[1:]):
        raise MXNetError(f"{fn}: row_sparse data {tuple(p.data.shape)} and indices "
                         f"{idx.shape} do not fit shape {p.shape}")
    if full_check and idx.size:
        if idx.min() < 0 or idx.max() >= p.shape[0] or (np.diff(idx) <= 0).any():
            raise MXNetError(f"{fn}: row_sparse indices must be non-negative, less than "
                             f"{p.shape[0]} and strictly ascending, got {idx.tolist()}")


def _csr_rows(a, start, stop):
    p = a._parts
    ptr = p.indptr[start:stop + 1]
    lo, hi = int(ptr[0]), int(ptr[-1])
    return CSRNDArray._wrap(_Parts((stop - start, p.shape[1]), p.data[lo:hi].copy(),
                                   p.indices[lo:hi].copy(), (ptr - lo).astype(_IDX)), a._ctx)


# --------------------------------------------------------------------------- constructors

def _ctx(ctx):
    return Context(ctx) if ctx is not None else current_context()


def _default_dtype(src, dtype):
    """1.9.1's rule: the source's dtype for NumPy arrays and NDArrays, else float32."""
    if dtype is not None:
        return dtype_np(dtype)
    if isinstance(src, (np.ndarray, NDArray)):
        return np.dtype(src.dtype)
    return np.dtype(np.float32)


def _host_array(x, dtype=None):
    if isinstance(x, NDArray):
        x = x.asnumpy()
    return np.asarray(x, dtype=dtype)


def _is_scipy(x):
    return type(x).__module__.startswith("scipy.sparse")


def _from_host_parts(cls, parts, ctx):
    be = get_backend(ctx)
    conv = (lambda a: None if a is None else be.asarray(np.ascontiguousarray(a)))
    return cls._wrap(_Parts(parts.shape, conv(parts.data), conv(parts.indices),
                            conv(parts.indptr)), ctx)


def _shape_of(shape, fn):
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    try:
        shape = tuple(int(s) for s in shape)
    except TypeError:
        raise MXNetError(f"{fn}: shape must be a tuple of ints, got {shape!r}") from None
    if any(s < 0 for s in shape):
        raise MXNetError(f"{fn}: shape {shape} has a negative dimension")
    return shape


def csr_matrix(arg1, shape=None, ctx=None, dtype=None):
    """Create a :class:`CSRNDArray`.

    ``arg1`` is one of: ``(data, indices, indptr)``; ``(data, (row, col))`` (COO triplets,
    duplicates summed); a 2-D dense array (list, NumPy array or NDArray); a CSRNDArray; a
    SciPy sparse matrix; or a shape ``(M, N)`` for an all-zero array. The index arrays are
    stored as int64. Without ``shape``, it is inferred from the indices.
    """
    ctx = _ctx(ctx)
    fn = "csr_matrix"
    if _is_scipy(arg1):
        m = arg1.tocsr()
        m.sort_indices()
        dt = dtype_np(dtype) if dtype is not None else np.dtype(m.dtype)
        parts = _Parts(m.shape, m.data.astype(dt), m.indices.astype(_IDX),
                       m.indptr.astype(_IDX))
        return _from_host_parts(CSRNDArray, parts, ctx)
    if isinstance(arg1, CSRNDArray):
        res = arg1.copyto(ctx)
        return res if dtype is None else res.astype(dtype)
    if isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(s, (int, np.integer))
                                                          for s in arg1):
        return zeros("csr", arg1, ctx=ctx, dtype=dtype)
    if isinstance(arg1, tuple) and len(arg1) not in (2, 3):   # 1.9.1: a ValueError
        raise MXNetValueError(f"{fn}: a tuple source must be (data, indices, indptr) or "
                              f"(data, (row, col)), got a tuple of length {len(arg1)}")
    if isinstance(arg1, tuple) and len(arg1) == 2 and not (
            isinstance(arg1[1], (tuple, list)) and len(arg1[1]) == 2):
        raise MXNetValueError(f"{fn}: a 2-tuple source must be (data, (row, col)); for "
                              "(data, indices, indptr) pass all three")
    if isinstance(arg1, (str, bytes)):   # 1.9.1: a TypeError
        raise MXNetTypeError(f"{fn}: source must be array-like, got {type(arg1).__name__}")
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = arg1
        dt = _default_dtype(data, dtype)
        data = _host_array(data, dt).reshape(-1)
        indices = _host_array(indices).astype(_IDX).reshape(-1)
        indptr = _host_array(indptr).astype(_IDX).reshape(-1)
        if shape is None:
            if indptr.size < 1:
                raise MXNetError(f"{fn}: indptr must not be empty")
            shape = (indptr.size - 1, int(indices.max()) + 1 if indices.size else 0)
        parts = _Parts(_shape_of(shape, fn), data, indices, indptr)
        _check_csr(parts, False, fn)
        return _from_host_parts(CSRNDArray, parts, ctx)
    if isinstance(arg1, tuple) and len(arg1) == 2:
        data, (row, col) = arg1
        dt = _default_dtype(data, dtype)
        data = _host_array(data, dt).reshape(-1)
        row = _host_array(row).astype(_IDX).reshape(-1)
        col = _host_array(col).astype(_IDX).reshape(-1)
        if not data.size == row.size == col.size:
            raise MXNetError(f"{fn}: COO data, row and col must have one length, got "
                             f"{data.size}, {row.size} and {col.size}")
        if shape is None:
            shape = (int(row.max()) + 1 if row.size else 0, int(col.max()) + 1 if col.size else 0)
        shape = _shape_of(shape, fn)
        if len(shape) != 2:
            raise MXNetError(f"{fn}: shape must be 2-D, got {shape}")
        for axis, idx in ((0, row), (1, col)):   # 1.9.1 (via SciPy): a ValueError
            if idx.size and idx.max() >= shape[axis]:
                raise MXNetValueError(f"{fn}: axis {axis} index {int(idx.max())} exceeds "
                                      f"matrix dimension {shape[axis]}")
            if idx.size and idx.min() < 0:
                raise MXNetValueError(f"{fn}: negative axis {axis} index: {int(idx.min())}")
        return _from_host_parts(CSRNDArray, _coo_to_csr(data, row, col, shape), ctx)
    if isinstance(arg1, BaseSparseNDArray):
        raise ValueError(f"{fn}: cannot build a csr array from a {arg1.stype} array")
    dt = _default_dtype(arg1, dtype)
    dense = _host_array(arg1, dt)
    if dense.ndim != 2:
        raise MXNetValueError(f"{fn}: a dense source must be 2-D, got shape {dense.shape}")
    if shape is not None and _shape_of(shape, fn) != dense.shape:   # 1.9.1: a ValueError
        raise MXNetValueError(f"{fn}: shape {tuple(shape)} does not match the source shape "
                              f"{dense.shape}")
    return _from_host_parts(CSRNDArray, _csr_from_dense(np, dense), ctx)


def _coo_to_csr(data, row, col, shape):
    key = row * shape[1] + col
    uniq, inv = np.unique(key, return_inverse=True)
    vals = np.zeros(uniq.size, data.dtype)
    np.add.at(vals, inv.reshape(-1), data)
    rows = uniq // max(shape[1], 1)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=shape[0]))])
    return _Parts(shape, vals, (uniq % max(shape[1], 1)).astype(_IDX), indptr.astype(_IDX))


def row_sparse_array(arg1, shape=None, ctx=None, dtype=None):
    """Create a :class:`RowSparseNDArray`.

    ``arg1`` is one of: ``(data, indices)`` (the stored rows and their ascending row
    ids); a dense array (list, NumPy array or NDArray; its non-zero rows are kept); a
    RowSparseNDArray; or a shape for an all-zero array. Without ``shape`` the first
    dimension is ``max(indices) + 1``.
    """
    ctx = _ctx(ctx)
    fn = "row_sparse_array"
    if isinstance(arg1, RowSparseNDArray):
        res = arg1.copyto(ctx)
        return res if dtype is None else res.astype(dtype)
    if isinstance(arg1, tuple) and arg1 and all(isinstance(s, (int, np.integer)) for s in arg1):
        return zeros("row_sparse", arg1, ctx=ctx, dtype=dtype)
    if isinstance(arg1, (str, bytes)):   # 1.9.1: a TypeError
        raise MXNetTypeError(f"{fn}: source must be array-like, got {type(arg1).__name__}")
    if isinstance(arg1, tuple) and len(arg1) > 2 and not all(
            isinstance(s, (int, np.integer)) for s in arg1):   # 1.9.1: a TypeError
        raise MXNetTypeError(f"{fn}: a tuple source must be (data, indices) or a shape of "
                             f"ints, got a tuple of length {len(arg1)}")
    if isinstance(arg1, tuple) and len(arg1) == 2:
        data, indices = arg1
        dt = _default_dtype(data, dtype)
        data = _host_array(data, dt)
        indices = _host_array(indices).astype(_IDX).reshape(-1)
        if data.ndim < 1:
            raise MXNetError(f"{fn}: data must be at least 1-D, got shape {data.shape}")
        if shape is None:
            shape = (int(indices.max()) + 1 if indices.size else 0,) + data.shape[1:]
        parts = _Parts(_shape_of(shape, fn), data, indices)
        _check_rsp(parts, False, fn)
        return _from_host_parts(RowSparseNDArray, parts, ctx)
    if isinstance(arg1, BaseSparseNDArray):
        raise ValueError(f"{fn}: cannot build a row_sparse array from a {arg1.stype} array")
    dt = _default_dtype(arg1, dtype)
    dense = _host_array(arg1, dt)
    if shape is not None and _shape_of(shape, fn) != dense.shape:   # 1.9.1: a ValueError
        raise MXNetValueError(f"{fn}: shape {tuple(shape)} does not match the source shape "
                              f"{dense.shape}")
    return _from_host_parts(RowSparseNDArray, _rsp_from_dense(np, dense), ctx)


def zeros(stype, shape, ctx=None, dtype=None, **kwargs):
    """An all-zero array of storage type ``stype`` ('csr', 'row_sparse' or 'default')."""
    ctx = _ctx(ctx)
    if stype == "default":
        from . import zeros as dense_zeros
        return dense_zeros(shape, ctx=ctx, dtype=dtype, **kwargs)
    shape = _shape_of(shape, "zeros")
    dt = dtype_np(dtype)
    xp = _xp(ctx)
    if stype == "csr":
        if len(shape) != 2:
            raise MXNetError(f"zeros: a csr array must be 2-D, got shape {shape}")
        parts = _Parts(shape, xp.zeros(0, dt), xp.zeros(0, _IDX), xp.zeros(shape[0] + 1, _IDX))
        return CSRNDArray._wrap(parts, ctx)
    if stype == "row_sparse":
        parts = _Parts(shape, xp.zeros((0,) + shape[1:], dt), xp.zeros(0, _IDX))
        return RowSparseNDArray._wrap(parts, ctx)
    raise MXNetValueError(f"zeros: unknown storage type {stype!r}; expected 'default', "
                          "'csr' or 'row_sparse'")


def empty(stype, shape, ctx=None, dtype=None):
    """An array of storage type ``stype`` with nothing stored (all zero)."""
    return zeros(stype, shape, ctx=ctx, dtype=dtype)


def array(source_array, ctx=None, dtype=None):
    """A sparse array from a sparse NDArray or a SciPy sparse matrix (dense sources go
    through :func:`mxnet.nd.array`, as in 1.9.1)."""
    if isinstance(source_array, CSRNDArray):
        return csr_matrix(source_array, ctx=ctx, dtype=dtype)
    if isinstance(source_array, RowSparseNDArray):
        return row_sparse_array(source_array, ctx=ctx, dtype=dtype)
    if _is_scipy(source_array):
        return csr_matrix(source_array, ctx=ctx, dtype=dtype)
    # two arguments, as 1.9.1 raises it (str(e) shows the tuple)
    raise ValueError("Please use mx.nd.array to create an NDArray with source_array of type ",
                     type(source_array))


def _from_record(rec, ctx):
    """A sparse NDArray from a decoded sparse record (see serialization.SparseRecord)."""
    cls = CSRNDArray if rec.stype == "csr" else RowSparseNDArray
    if rec.stype == "csr":
        indptr, idx = rec.aux
        parts = _Parts(rec.shape, rec.data, idx, indptr)
    else:
        parts = _Parts(rec.shape, rec.data, rec.aux[0])
    return _from_host_parts(cls, parts, ctx)


# --------------------------------------------------------------------------- storage casts

def cast_storage(data, stype, out=None, **kwargs):
    """``data`` converted to storage type ``stype`` ('default', 'csr' or 'row_sparse').

    As in 1.9.1, csr and row_sparse cannot be converted into each other directly.
    """
    if stype not in ("default", "csr", "row_sparse"):
        raise MXNetError(f"cast_storage: unknown stype {stype!r}; expected 'default', 'csr' "
                         "or 'row_sparse'")
    if not isinstance(data, NDArray):
        raise MXNetError(f"cast_storage: data must be an NDArray, got {type(data).__name__}")
    src = data.stype
    if stype == "default" and (src == "default" or _ops._recorded(data)):
        # the registered op (taped by autograd; a recorded sparse array reads densely)
        op = get_op("cast_storage")
        return invoke(op, [data], op.parse_attrs({"stype": "default"}), out=out)
    if out is None and _ops._recorded(data):
        # taped as the registered op (a dense copy); the result keeps ``stype`` (1.9.1)
        res = _ops._unrecorded(cast_storage, data, stype)
        op = get_op("cast_storage")
        res._node = invoke(op, [data], op.parse_attrs({"stype": stype}))._node
        return res
    if src == stype:
        res = data.copy()
    elif stype == "default":
        res = _new(data._data, data._ctx)
    elif src != "default":
        raise ValueError(f"cast_storage from {src} to {stype} is not supported")
    else:
        data.wait_to_read()
        xp = _xp(data._ctx)
        if stype == "csr":
            if data.ndim != 2:
                raise MXNetValueError(f"cast_storage: csr needs a 2-D array, got shape {data.shape}")
            res = CSRNDArray._wrap(_csr_from_dense(xp, data._data), data._ctx)
        else:
            if data.ndim < 1:
                raise MXNetError("cast_storage: row_sparse needs an array of at least 1-D")
            res = RowSparseNDArray._wrap(_rsp_from_dense(xp, data._data), data._ctx)
    if out is not None:
        res.copyto(out)
        return out
    return res


def zeros_like(data, **kwargs):
    """An all-zero array with the shape, dtype and storage type of ``data``."""
    if isinstance(data, BaseSparseNDArray):
        return zeros(data.stype, data.shape, ctx=data._ctx, dtype=data.dtype)
    return invoke(get_op("zeros_like"), [data], {})


def retain(data, indices, **kwargs):
    """A row_sparse array holding the rows of ``data`` listed in ``indices``, in that order
    (rows ``data`` does not store come back as zeros), as 1.9.1's ``_sparse_retain``."""
    if not isinstance(data, RowSparseNDArray):
        raise MXNetError(f"retain: data must be a RowSparseNDArray, got storage type "
                         f"{getattr(data, 'stype', type(data).__name__)}")
    if indices is None:
        raise MXNetError("retain: indices must be an NDArray of row ids, got None")
    xp = _xp(data._ctx)
    want = indices._data if isinstance(indices, NDArray) else xp.asarray(indices)
    want = want.astype(_IDX).reshape(-1)
    p = data._parts
    out = xp.zeros((want.size,) + p.shape[1:], p.data.dtype)
    if p.indices.size and want.size:
        pos = xp.clip(xp.searchsorted(p.indices, want), 0, p.indices.size - 1)
        hit = p.indices[pos] == want
        out[hit] = p.data[pos[hit]]
    res = RowSparseNDArray._wrap(_Parts(p.shape, out, want), data._ctx)
    if _ops._recorded(data):
        # taped as ``data`` times a 0/1 mask of the kept rows (the same values)
        mask = xp.zeros((p.shape[0],) + (1,) * (len(p.shape) - 1), p.data.dtype)
        mask[want[(want >= 0) & (want < p.shape[0])]] = 1
        res._node = _ops._taped_dense("broadcast_mul", data, _new(mask, data._ctx))._node
        from ._fallback_log import NATIVE_NODES
        NATIVE_NODES.add(res._node[0])   # 1.9.1's gradient of retain is native
    return res


# the operators (they need the classes above, hence the late import)
from . import sparse_ops as _ops  # noqa: E402
from .sparse_ops import _install  # noqa: E402

# the public functions take ``out=`` as 1.9.1's do
for _n in ("dot", "add", "subtract", "multiply", "divide", "sum", "mean", "slice", "concat") \
        + _ops.ZERO_PRESERVING:
    globals()[_n] = _ops._with_out(getattr(_ops, _n))
retain = _ops._with_out(retain)
zeros_like = _ops._with_out(zeros_like)
__all__ += _ops.__all__

# loaded on first use (mx.nd.sparse, tostype, a sparse record, ...), after mx.nd itself
_nd = _sys.modules[__name__.rpartition(".")[0]]
_install(_nd, _nd._public, _sys.modules[__name__])
