"""MXNet's ``.params`` container: the codec behind ``mx.nd.save`` / ``mx.nd.load``.

The codec works on NumPy arrays only. A *record* is ``(array, dev_type, dev_id)``:
the array's values plus the device it was saved from (1 cpu, 2 gpu, 3 cpu_pinned,
5 cpu_shared). ``encode`` writes what MXNet 1.9.1 writes (NDArray V2 records, dense);
``decode`` reads V2 (dense, row_sparse, csr), V3 (NumPy-shape semantics), V1 and the
magic-less V0 layout. See ``FORMATS.md`` in the shared notes for the byte layout.

Facts about 1.9.1 that shape this module (checked against the real library):

* A zero-size array such as ``mx.nd.array([])`` is written as a normal record
  (ndim 1, dim 0, context, type flag) with no data bytes; it loads back with its dtype.
* A 0-d array is written in V2 as ndim 0 followed by context, type flag and one
  element. 1.9.1 itself cannot read such a file back (it takes ndim 0 to mean an
  undefined array and loses its place). V0/V1 records with ndim 0 *are* read by
  1.9.1 as 0-d arrays with one element. We read all three as 0-d arrays.
* Trailing bytes after the names and a non-zero reserved header word are ignored.
* A name count other than 0 or N is rejected; duplicate names are kept (the
  dict built from them keeps the last one).
* Type flags 8-11 (int16, uint16, uint32, uint64) are rejected by 1.9.1 ("Unknown
  type enum"); this codec accepts them because the rest of mxnet-py has those dtypes.
* Every loaded array lands on ``cpu(0)`` unless it was saved from a GPU and that GPU
  exists (1.9.1 drops the id of CPU contexts: ``cpu(1)`` comes back as ``cpu(0)``).
* Sparse records keep their storage type in 1.9.1. ``decode`` densifies them unless
  ``keep_sparse=True`` (what ``load`` uses), which returns a :class:`SparseRecord`
  holding the components; ``encode`` writes a :class:`SparseRecord` as 1.9.1 does.
"""
from __future__ import annotations

import os
import struct
import sys
import tempfile
from typing import NamedTuple

import numpy as np

from ..base import CODE_TO_DTYPE, DTYPE_TO_CODE, MXNetError, MXNetTypeError

__all__ = ["SparseRecord", "encode", "decode", "write_file_atomic", "save", "load", "load_frombuffer",
           "LIST_MAGIC", "V0", "V1_MAGIC", "V2_MAGIC", "V3_MAGIC"]

LIST_MAGIC = 0x112
V1_MAGIC = 0xF993FAC8
V2_MAGIC = 0xF993FAC9
V3_MAGIC = 0xF993FACA
V0 = 0  # pseudo-version label for the magic-less layout

_STYPE_DEFAULT, _STYPE_ROW_SPARSE, _STYPE_CSR = 0, 1, 2
_NUM_AUX = {_STYPE_DEFAULT: 0, _STYPE_ROW_SPARSE: 1, _STYPE_CSR: 2}
_BF16_CODE = 12
# Smallest record any version can hold: V0, ndim 0, context, type flag, 1 byte.
_MIN_RECORD_BYTES = 4 + 8 + 4 + 1
_LITTLE = sys.byteorder == "little"
# A sparse record's dense shape is not bounded by the bytes in the file, so densifying
# it is capped: larger sparse arrays raise MXNetError instead of exhausting memory.
MAX_SPARSE_DENSE_BYTES = 1 << 33

_STYPE_CODES = {"row_sparse": _STYPE_ROW_SPARSE, "csr": _STYPE_CSR}


class SparseRecord(NamedTuple):
    """A sparse array's components in a record: ``stype`` ('csr' or 'row_sparse'), the
    dense ``shape``, the stored values ``data`` and ``aux`` (csr: ``[indptr, indices]``;
    row_sparse: ``[indices]``), all NumPy arrays."""

    stype: str
    shape: tuple
    data: np.ndarray
    aux: list


_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_U64 = struct.Struct("<Q")
_HEADER = struct.Struct("<QQQ")
_CTX_TYPE = struct.Struct("<iii")


# --------------------------------------------------------------------------- encode

def _native(arr, index, what="array"):
    """(array in native little-endian order, its MXNet type code)."""
    arr = np.asarray(arr)
    native = arr.dtype.newbyteorder("=") if arr.dtype.byteorder not in "=|" else arr.dtype
    code = DTYPE_TO_CODE.get(native)
    if code is None:
        raise MXNetError(f"encode: {what} {index} has dtype {arr.dtype}, "
                         "which has no MXNet type code")
    arr = np.asarray(arr, dtype=native, order="C")
    if not _LITTLE and native.itemsize > 1:
        arr = arr.byteswap()
    return arr, code


def _shape_bytes(shape):
    return struct.pack(f"<i{len(shape)}q", len(shape), *shape)


def _sparse_chunks(rec, dev_type, dev_id, index):
    """The chunks of one sparse V2 record: storage shape, shape, context, type flag, the
    aux types and shapes, the values, then the aux arrays."""
    stype = _STYPE_CODES.get(rec.stype)
    if stype is None or len(rec.aux) != _NUM_AUX[stype]:
        raise MXNetError(f"encode: record {index} has storage type {rec.stype!r} with "
                         f"{len(rec.aux)} aux arrays")
    data, code = _native(rec.data, index)
    aux = [_native(a, index, "aux array of record") for a in rec.aux]
    yield struct.pack("<Ii", V2_MAGIC, stype) + _shape_bytes(data.shape) + \
        _shape_bytes(tuple(rec.shape))
    yield _CTX_TYPE.pack(dev_type, dev_id, code)
    yield b"".join(_I32.pack(c) + _shape_bytes(a.shape) for a, c in aux)
    for a in [data] + [a for a, _ in aux]:
        if a.size:
            yield memoryview(a.reshape(-1).view(np.uint8))


def _record_chunks(arr, dev_type, dev_id, index, magic=V2_MAGIC):
    """Yield the byte chunks of one dense V2 record (V3 with ``magic=V3_MAGIC``); a
    :class:`SparseRecord` gives a sparse V2 record."""
    if isinstance(arr, SparseRecord):
        if not (-2**31 <= dev_type < 2**31 and -2**31 <= dev_id < 2**31):
            raise MXNetError(f"encode: record {index} has a context ({dev_type}, {dev_id}) "
                             "outside the int32 range")
        yield from _sparse_chunks(arr, dev_type, dev_id, index)
        return
    if not isinstance(arr, np.ndarray):
        arr = np.asarray(arr)
    native = arr.dtype.newbyteorder("=") if arr.dtype.byteorder not in "=|" else arr.dtype
    code = DTYPE_TO_CODE.get(native)
    if code is None:
        raise MXNetError(f"encode: array {index} has dtype {arr.dtype}, "
                         "which has no MXNet type code")
    if not (-2**31 <= dev_type < 2**31 and -2**31 <= dev_id < 2**31):
        raise MXNetError(f"encode: record {index} has a context ({dev_type}, {dev_id}) "
                         "outside the int32 range")
    arr = np.asarray(arr, dtype=native, order="C")
    if not _LITTLE and native.itemsize > 1:
        arr = arr.byteswap()
    yield struct.pack(f"<Iii{arr.ndim}q", magic, _STYPE_DEFAULT, arr.ndim, *arr.shape)
    yield _CTX_TYPE.pack(dev_type, dev_id, code)
    if arr.size:
        yield memoryview(arr.reshape(-1).view(np.uint8))


def _iter_encode(arrays, names=None, magic=V2_MAGIC):
    """Yield the chunks of a whole ``.params`` file (see :func:`encode`); ``magic=V3_MAGIC``
    writes NumPy-shape records, as ``npx.save`` does."""
    arrays = list(arrays)
    if names is not None:
        names = list(names)
        if len(names) != len(arrays):
            raise MXNetError(f"encode: {len(names)} names for {len(arrays)} arrays")
        for n in names:
            if not isinstance(n, str):
                raise MXNetError(f"encode: names must be str, got {type(n).__name__}")
    records = []
    for i, rec in enumerate(arrays):
        try:
            arr, dev_type, dev_id = rec
            dev_type, dev_id = int(dev_type), int(dev_id)
        except (TypeError, ValueError):
            raise MXNetError(f"encode: record {i} must be (array, dev_type, dev_id)") from None
        records.append((arr, dev_type, dev_id))
    yield _HEADER.pack(LIST_MAGIC, 0, len(records))
    for i, (arr, dev_type, dev_id) in enumerate(records):
        yield from _record_chunks(arr, dev_type, dev_id, i, magic)
    if not names:
        yield _U64.pack(0)
        return
    out = [_U64.pack(len(names))]
    for n in names:
        raw = n.encode("utf-8")
        out.append(_U64.pack(len(raw)))
        out.append(raw)
    yield b"".join(out)


def encode(arrays, names=None) -> bytes:
    """Serialise records ``(np_array, dev_type, dev_id)`` to ``.params`` bytes.

    ``names`` is None for a list file, or one str per array for a dict file. The
    output is byte-for-byte what MXNet 1.9.1's ``mx.nd.save`` writes for dense arrays.
    An empty ``names`` list writes a list file, as 1.9.1 does for an empty dict.

    >>> buf = encode([(np.arange(3, dtype=np.float32), 1, 0)], ["w"])
    >>> decode(buf)[1]
    ['w']
    """
    return b"".join(_iter_encode(arrays, names))


# --------------------------------------------------------------------------- decode

class _Reader:
    """A cursor over a byte buffer whose reads check the bytes that remain."""

    __slots__ = ("buf", "pos", "end", "where", "np_shape")

    def __init__(self, buf, where):
        self.buf = buf
        self.pos = 0
        self.end = len(buf)
        self.where = where
        self.np_shape = True   # False: V3 (NumPy-shape) records are refused, as 1.9.1's nd.load

    def fail(self, what, at=None):
        at = self.pos if at is None else at
        raise MXNetError(f"{self.where}: invalid .params data at byte offset {at}: {what}")

    def remaining(self):
        return self.end - self.pos

    def need(self, nbytes, what):
        if nbytes > self.end - self.pos:
            self.fail(f"expected {what} ({nbytes} bytes) but only "
                      f"{self.end - self.pos} bytes remain")

    def unpack(self, st, what):
        self.need(st.size, what)
        val = st.unpack_from(self.buf, self.pos)
        self.pos += st.size
        return val

    def u32(self, what):
        return self.unpack(_U32, what)[0]

    def i32(self, what):
        return self.unpack(_I32, what)[0]

    def u64(self, what):
        return self.unpack(_U64, what)[0]

    def dims(self, ndim, fmt, what):
        """Read ``ndim`` dims of struct format char ``fmt``, after checking the length."""
        size = struct.calcsize("<" + fmt)
        if ndim < 0:
            self.fail(f"negative ndim {ndim} in {what}", self.pos - 4)
        self.need(ndim * size, f"{ndim} dims of {what}")
        val = struct.unpack_from(f"<{ndim}{fmt}", self.buf, self.pos)
        self.pos += ndim * size
        return val

    def raw(self, nbytes, what):
        self.need(nbytes, what)
        start = self.pos
        self.pos += nbytes
        return start


def _dtype_of(code, rd, at):
    dt = CODE_TO_DTYPE.get(code)
    if dt is None:
        if code == _BF16_CODE:
            rd.fail("a bfloat16 array (type flag 12); reading it needs the ml_dtypes "
                    "package, which is not installed", at)
        rd.fail(f"expected a known type flag (0-12), got {code}", at)
    return dt


def _read_array(rd, shape, dt, what):
    """Read a C-order array of ``shape`` and dtype ``dt``; returns an owned array."""
    count = 1
    for d in shape:
        count *= d
    nbytes = count * dt.itemsize
    start = rd.raw(nbytes, f"the data of {what}, shape {tuple(shape)} {dt.name}")
    if dt == np.bool_:
        arr = np.frombuffer(rd.buf, np.uint8, count, start) != 0
    else:
        arr = np.frombuffer(rd.buf, dt, count, start).copy()
        if not _LITTLE and dt.itemsize > 1:
            arr.byteswap(inplace=True)
    try:
        return arr.reshape(shape)
    except ValueError:  # a zero-size shape whose other dims overflow NumPy's limits
        rd.fail(f"the shape {tuple(shape)} of {what} is too large", start)


def _check_dims(rd, dims, at, what):
    for d in dims:
        if d < 0:
            rd.fail(f"expected non-negative dims in {what}, got {tuple(dims)}"
                    + (" (-1 marks an undefined array, which cannot be loaded)" if d == -1
                       else ""), at)


def _shape_i64(rd, what, np_semantics=False):
    """A TShape as V1/V2/V3 write it: i32 ndim, then i64 dims."""
    at = rd.pos
    ndim = rd.i32(f"the ndim of {what}")
    if ndim == -1 and np_semantics:
        rd.fail(f"{what} is an undefined (unknown-shape) array, which cannot be loaded", at)
    if ndim < 0:
        rd.fail(f"expected ndim >= 0 for {what}, got {ndim}", at)
    dims = rd.dims(ndim, "q", what)
    _check_dims(rd, dims, at, what)
    return dims


def _read_ctx_type(rd, what):
    at = rd.pos
    dev_type, dev_id, code = rd.unpack(_CTX_TYPE, f"the context and type flag of {what}")
    return dev_type, dev_id, _dtype_of(code, rd, at + 8)


def _read_legacy(rd, first, at, idx):
    """V1 (magic already read) or V0 (``first`` is the ndim) record."""
    what = f"array {idx}"
    if first == V1_MAGIC:
        shape = _shape_i64(rd, what)
    else:
        if first > rd.remaining() // 4:
            rd.fail(f"expected an NDArray record magic (0x{V2_MAGIC:08X}, 0x{V3_MAGIC:08X}, "
                    f"0x{V1_MAGIC:08X}) or a legacy V0 ndim, got 0x{first:08X}", at)
        shape = rd.dims(first, "I", what)
    dev_type, dev_id, dt = _read_ctx_type(rd, what)
    return _read_array(rd, shape, dt, what), dev_type, dev_id


def _check_dense_size(rd, shape, dtype, at, what):
    size = dtype.itemsize
    for d in shape:
        size *= d
    if size > MAX_SPARSE_DENSE_BYTES:
        rd.fail(f"{what}: the dense form of this sparse array, shape {tuple(shape)}, needs "
                f"{size} bytes, over the {MAX_SPARSE_DENSE_BYTES}-byte limit "
                "(serialization.MAX_SPARSE_DENSE_BYTES)", at)


def _densify_row_sparse(rd, shape, sshape, data, aux, at, what, keep=False):
    (idx,) = aux
    if len(shape) < 1 or len(sshape) != len(shape) or tuple(sshape[1:]) != tuple(shape[1:]):
        rd.fail(f"{what}: row_sparse storage shape {tuple(sshape)} does not fit "
                f"shape {tuple(shape)}", at)
    if idx.shape != (sshape[0],):
        rd.fail(f"{what}: row_sparse index shape {idx.shape}, expected ({sshape[0]},)", at)
    if idx.size and (idx.min() < 0 or idx.max() >= shape[0]):
        rd.fail(f"{what}: row_sparse row index out of range [0, {shape[0]})", at)
    if keep:
        return SparseRecord("row_sparse", tuple(shape), data, [idx])
    _check_dense_size(rd, shape, data.dtype, at, what)
    dense = np.zeros(shape, data.dtype)
    dense[idx.astype(np.intp)] = data
    return dense


def _densify_csr(rd, shape, sshape, data, aux, at, what, keep=False):
    indptr, idx = aux
    if len(shape) != 2 or len(sshape) != 1:
        rd.fail(f"{what}: csr needs a 2-D shape and a 1-D storage shape, got "
                f"{tuple(shape)} and {tuple(sshape)}", at)
    rows, cols = shape
    nnz = sshape[0]
    if indptr.shape != (rows + 1,) or idx.shape != (nnz,):
        rd.fail(f"{what}: csr indptr/indices shapes {indptr.shape}/{idx.shape} do not fit "
                f"shape {tuple(shape)} with {nnz} stored values", at)
    counts = np.diff(indptr.astype(np.int64))
    if indptr[0] != 0 or indptr[-1] != nnz or (counts < 0).any():
        rd.fail(f"{what}: csr indptr must rise from 0 to {nnz}", at)
    if idx.size and (idx.min() < 0 or idx.max() >= cols):
        rd.fail(f"{what}: csr column index out of range [0, {cols})", at)
    if keep:
        return SparseRecord("csr", tuple(shape), data, [indptr, idx])
    _check_dense_size(rd, shape, data.dtype, at, what)
    dense = np.zeros(shape, data.dtype)
    row_of = np.repeat(np.arange(rows, dtype=np.intp), counts)
    dense[row_of, idx.astype(np.intp)] = data
    return dense


def _read_v23(rd, magic, at, idx, keep_sparse=False):
    """V2 / V3 record after its magic."""
    what = f"array {idx}"
    np_semantics = magic == V3_MAGIC
    if np_semantics and not rd.np_shape:
        raise MXNetError(f"{rd.where}: {what} was saved with NumPy shape semantics (npx.save); "
                         "load it with them on (npx.set_np() or `with mx.util.np_shape(True)`) "
                         "or with npx.load")
    st_at = rd.pos
    stype = rd.i32(f"the storage type of {what}")
    if stype not in _NUM_AUX:
        rd.fail(f"expected storage type 0 (default), 1 (row_sparse) or 2 (csr) for "
                f"{what}, got {stype}", st_at)
    if np_semantics and stype != _STYPE_DEFAULT:
        rd.fail(f"a V3 (NumPy-shape) record must be dense, got storage type {stype}", st_at)
    nad = _NUM_AUX[stype]
    sshape = _shape_i64(rd, f"the storage shape of {what}", np_semantics) if nad else None
    shape = _shape_i64(rd, f"the shape of {what}", np_semantics)
    if nad and not shape:
        rd.fail(f"a sparse {what} needs a shape", at)
    dev_type, dev_id, dt = _read_ctx_type(rd, what)
    if not nad:
        return _read_array(rd, shape, dt, what), dev_type, dev_id
    aux_meta = []
    for k in range(nad):
        a_at = rd.pos
        code = rd.i32(f"aux type {k} of {what}")
        adt = _dtype_of(code, rd, a_at)
        if adt.kind not in "iu":
            rd.fail(f"expected an integer aux type for {what}, got {adt.name}", a_at)
        aux_meta.append((adt, _shape_i64(rd, f"aux shape {k} of {what}")))
    if stype == _STYPE_ROW_SPARSE and len(sshape) == len(shape) and aux_meta[0][1] and \
            sshape[0] == 0 and aux_meta[0][1][0] > 0:
        # 1.9.1 can write a stale storage shape (0 rows) for a row_sparse array that an
        # optimizer kernel filled; its data holds one row per index, as its reader assumes
        sshape = (aux_meta[0][1][0],) + tuple(sshape[1:])
    data = _read_array(rd, sshape, dt, what)
    aux = [_read_array(rd, ashape, adt, f"aux {k} of {what}")
           for k, (adt, ashape) in enumerate(aux_meta)]
    densify = _densify_row_sparse if stype == _STYPE_ROW_SPARSE else _densify_csr
    return densify(rd, shape, sshape, data, aux, at, what, keep_sparse), dev_type, dev_id


def _read_record(rd, idx, keep_sparse=False):
    at = rd.pos
    first = rd.u32(f"the magic of array {idx}")
    if first in (V2_MAGIC, V3_MAGIC):
        return _read_v23(rd, first, at, idx, keep_sparse)
    return _read_legacy(rd, first, at, idx)


def decode(buf, where="decode", keep_sparse=False, np_shape=True):
    """Parse ``.params`` bytes into ``(records, names)``.

    ``records`` is a list of ``(np_array, dev_type, dev_id)``; ``names`` is None for
    a list file, else a list of str as long as ``records``. Sparse records come back
    dense, or as :class:`SparseRecord` in place of the array with ``keep_sparse``.
    Malformed input raises :class:`MXNetError` naming the byte offset. With
    ``np_shape=False`` a V3 (NumPy-shape) record raises :class:`MXNetError` too.
    """
    try:
        buf = memoryview(buf).cast("B")
    except TypeError:
        raise MXNetError(f"{where}: expected a bytes-like buffer, got "
                         f"{type(buf).__name__}") from None
    rd = _Reader(buf, where)
    rd.np_shape = np_shape
    magic, _reserved, count = rd.unpack(_HEADER, "the file header (list magic, reserved, count)")
    if magic != LIST_MAGIC:
        rd.fail(f"expected the list magic 0x{LIST_MAGIC:x}, got 0x{magic:x}", 0)
    if count and count > max(0, rd.remaining() - 8) // _MIN_RECORD_BYTES:
        rd.fail(f"the array count {count} cannot fit in the {rd.remaining()} bytes that "
                "remain", 16)
    records = [_read_record(rd, i, keep_sparse) for i in range(count)]
    at = rd.pos
    nnames = rd.u64("the name count")
    if nnames not in (0, count):
        rd.fail(f"expected 0 or {count} names, got {nnames}", at)
    if not nnames:
        return records, None
    names = []
    for i in range(nnames):
        n_at = rd.pos
        length = rd.u64(f"the length of name {i}")
        start = rd.raw(length, f"name {i}")
        try:
            names.append(bytes(buf[start:start + length]).decode("utf-8"))
        except UnicodeDecodeError as err:
            rd.fail(f"name {i} is not valid UTF-8 ({err.reason})", n_at + 8)
    return records, names


# --------------------------------------------------------------------------- files

_UMASK = None


def _default_mode():
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0o022)
        os.umask(_UMASK)
    return 0o666 & ~_UMASK


def write_file_atomic(fname, data):
    """Write ``data`` (bytes, or an iterable of bytes-like chunks) to ``fname`` atomically.

    The bytes go to a temporary file in the same directory, which then replaces
    ``fname``; a failure part-way leaves any old ``fname`` untouched.
    """
    fname = os.fspath(fname)
    directory = os.path.dirname(os.path.abspath(fname))
    try:
        mode = os.stat(fname).st_mode & 0o7777
    except OSError:
        mode = _default_mode()
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(fname) + ".",
                                   suffix=".tmp")
    except OSError as e:  # name the file asked for, not the temporary one
        raise type(e)(e.errno, e.strerror, fname) from None
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, (bytes, bytearray, memoryview)):
                f.write(data)
            else:
                for chunk in data:
                    f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        try:
            os.replace(tmp, fname)
        except OSError as e:  # e.g. fname is a directory: name it, not the temporary file
            raise type(e)(e.errno, e.strerror, fname) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# --------------------------------------------------------------------------- NDArray level

def _to_record(nd):
    ctx = nd.context
    if nd.stype != "default":
        nd.wait_to_read()
        p = nd._parts
        host = (lambda a: a.get() if hasattr(a, "get") else np.asarray(a))
        aux = [host(p.indptr), host(p.indices)] if nd.stype == "csr" else [host(p.indices)]
        return SparseRecord(nd.stype, p.shape, host(p.data), aux), ctx.device_typeid, \
            ctx.device_id
    return nd.asnumpy(), ctx.device_typeid, ctx.device_id


def _check_not_np_ndarray(values):
    try:
        from ..numpy import ndarray as np_ndarray  # noqa: F401  (absent until mxnet.numpy exists)
    except ImportError:
        return
    if any(isinstance(v, np_ndarray) for v in values):
        raise TypeError("cannot save mxnet.numpy.ndarray using mxnet.ndarray.save; "
                        "use mxnet.numpy.save instead.")


class _SavePathError(MXNetTypeError, AttributeError):
    """save() given a non-str file name (1.9.1 fails with an AttributeError there)."""


def save(fname, data):
    """Save an NDArray, a list of NDArrays or a dict str -> NDArray to ``fname``.

    The file is MXNet 1.9.1's ``.params`` format; a dict keeps its iteration order.
    Like 1.9.1, a tuple is not accepted, and an empty dict is saved as an empty list.
    """
    from .ndarray import NDArray
    if isinstance(data, NDArray):
        data = [data]
    if isinstance(data, dict):
        if any(not isinstance(k, str) for k in data) or \
                any(not isinstance(v, NDArray) for v in data.values()):
            raise TypeError("save only accept dict str->NDArray or list of NDArray")
        _check_not_np_ndarray(data.values())
        names = list(data.keys())
        values = list(data.values())
    elif isinstance(data, list):
        if any(not isinstance(v, NDArray) for v in data):
            raise TypeError("save only accept dict str->NDArray or list of NDArray")
        _check_not_np_ndarray(data)
        names = None
        values = data
    else:
        raise ValueError("data needs to either be a NDArray, dict of str, NDArray pairs "
                         "or a list of NDarrays.")
    if not isinstance(fname, str):   # checked after the data, as 1.9.1
        raise _SavePathError(f"save: fname must be a str file path, got {type(fname).__name__}"
                             " (file objects, bytes and pathlib paths are not accepted)")
    chunks = _iter_encode([_to_record(v) for v in values], names)
    try:
        write_file_atomic(fname, chunks)
    except OSError as err:
        raise MXNetError(f"save: cannot write {fname!r}: {err.strerror or err}") from err


def _load_ctx(dev_type, dev_id):
    from ..context import cpu, gpu, num_gpus
    if dev_type == 2 and dev_id >= 0:
        try:
            available = num_gpus()
        except MXNetError:  # no CuPy: no GPU
            available = 0
        if dev_id < available:
            return gpu(dev_id)
    return cpu(0)


def _to_ndarray(arr, dev_type, dev_id):
    from . import ndarray as _nd
    if isinstance(arr, SparseRecord):
        from .sparse import _from_record
        return _from_record(arr, _load_ctx(dev_type, dev_id))
    return _nd.array(arr, ctx=_load_ctx(dev_type, dev_id), dtype=arr.dtype)


def _to_ndarrays(records, names):
    out = [_to_ndarray(*rec) for rec in records]
    if names is None:
        return out
    return dict(zip(names, out))


def _np_shape_on():
    from ..util import is_np_shape
    return is_np_shape()


def load(fname):
    """Load a ``.params`` file: a list of NDArrays, or a dict when the file has names."""
    if not isinstance(fname, str):
        raise TypeError("fname required to be a string")
    try:
        with open(fname, "rb") as f:
            buf = f.read()
    except OSError as err:
        raise MXNetError(f"load: cannot open {fname!r}: {err.strerror or err}") from err
    return _to_ndarrays(*decode(buf, f"load({fname!r})", keep_sparse=True,
                                np_shape=_np_shape_on()))


def load_frombuffer(buf):
    """Like :func:`load`, from the bytes of a ``.params`` file."""
    if isinstance(buf, str):  # a str holding the file's bytes one char per byte
        try:
            buf = buf.encode("latin-1")
        except UnicodeEncodeError:
            raise MXNetError("load_frombuffer: a str buffer must hold only characters "
                             "below U+0100 (one per byte)") from None
    if not isinstance(buf, bytes):
        raise TypeError("buf required to be a string or bytes")
    return _to_ndarrays(*decode(buf, "load_frombuffer", keep_sparse=True,
                                np_shape=_np_shape_on()))


def dumps_one(nd) -> bytes:
    """One NDArray as a single V2 record: the payload of 1.9.1's NDArray pickles."""
    arr, dev_type, dev_id = _to_record(nd)
    return b"".join(bytes(c) for c in _record_chunks(arr, dev_type, dev_id, 0))


def loads_one(buf, keep_sparse=False):
    """(numpy array, dev_type, dev_id) from one record written by :func:`dumps_one` or 1.9.1
    (a :class:`SparseRecord` in place of the array for sparse records with ``keep_sparse``)."""
    rd = _Reader(bytes(buf), "NDArray pickle")
    return _read_record(rd, 0, keep_sparse)
