"""LibSVMIter: batches from LibSVM text files (``label index:value index:value ...``).

Feature indices are zero-based, as in 1.9.1. As in 1.9.1 the data batches are CSRNDArrays
(every ``index:value`` pair of a line is stored, a written ``0`` included), and so are the
labels read from a ``label_libsvm`` file; labels taken from the lines' first column are
dense.
"""
from __future__ import annotations

import itertools
import os

import numpy as np

from ..base import MXNetError
from ._native import RowBatcher, parse_bool, parse_int, parse_shape, parse_str, required
from .csv_iter import open_input
from .io import MXDataIter

__all__ = ["LibSVMIter"]

_CHUNK = 1024


def line_partition(path, num_parts, part_index):
    """dmlc's byte range of part ``part_index`` of a text file: the lines that start after the
    first line break at or past ``ceil(size / num_parts) * part_index``."""
    size = os.path.getsize(path)
    if num_parts == 1:
        return 0, size
    step = -(-size // num_parts)
    with open(path, "rb") as f:
        def begin(pos):
            if pos == 0:
                return 0
            if pos >= size:
                return size
            f.seek(pos)
            while True:
                block = f.read(65536)
                if not block:
                    return size
                cut = min((i for i in (block.find(b"\n"), block.find(b"\r")) if i >= 0), default=-1)
                if cut >= 0:
                    pos += cut + 1
                    break
                pos += len(block)
            return pos
        return begin(step * part_index), begin(step * (part_index + 1))


class _LibSVMRows:
    """Dense rows of one LibSVM file (its byte range), parsed lazily."""

    def __init__(self, path, width, dtype, byte_range):
        self.path = path
        self.width = width
        self.dtype = dtype
        self.begin, self.end = byte_range
        self._file = None
        self._pending = []
        self.before_first()

    def before_first(self):
        self.close()
        self._file = open_input(self.path, "rb")
        self._file.seek(self.begin)
        self._pos = self.begin
        self._pending = []

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def _lines(self, n):
        """At least ``n`` non-empty lines of the range when there are that many (maybe more)."""
        out = []
        while len(out) < n and self._file is not None:
            chunk = list(itertools.islice(self._file, max(n, _CHUNK)))
            if not chunk:
                self.close()
                break
            for raw in chunk:
                if self._pos >= self.end:
                    self.close()
                    break
                self._pos += len(raw)
                line = raw.decode().strip()
                if line:
                    out.append(line)
        return out

    def _parse(self, lines):
        values = np.zeros((len(lines), self.width), self.dtype)
        labels = np.zeros(len(lines), self.dtype)
        for r, line in enumerate(lines):
            tokens = line.split()
            try:
                labels[r] = float(tokens[0].split(":")[0])
                for tok in tokens[1:]:
                    key, _, val = tok.partition(":")
                    if not key.isdigit():  # e.g. qid:<n>
                        continue
                    col = int(key)
                    if col >= self.width:
                        raise MXNetError(f"LibSVMIter: feature index {col} in {self.path} is out of "
                                         f"range for data_shape ({self.width},)")
                    v = float(val)
                    # a written zero is stored in the CSR batch: it is kept as -0.0 (equal
                    # to 0) so that the batch can tell it from an absent feature
                    values[r, col] = v if v != 0 else -0.0
            except ValueError:
                raise MXNetError(f"LibSVMIter: cannot parse line {line!r} of {self.path}") from None
        return labels, values

    def take(self, n):
        if len(self._pending) < n:
            self._pending.extend(self._lines(n - len(self._pending)))
        lines, self._pending = self._pending[:n], self._pending[n:]
        return self._parse(lines)


class _LibSVMStream:
    def __init__(self, data, label, label_width):
        self.data = data
        self.label = label
        self.label_width = label_width
        self.count = 0

    def before_first(self):
        self.data.before_first()
        if self.label is not None:
            self.label.before_first()
        self.count = 0

    def take(self, n):
        labels, values = self.data.take(n)
        m = len(labels)
        if m == 0:
            return None
        if self.label is not None:
            _, label_values = self.label.take(m)
            if len(label_values) != m:
                raise MXNetError(f"LibSVMIter: {self.label.path} has fewer lines than {self.data.path}")
            labels = label_values
        else:
            labels = labels.reshape(m, 1)
        index = np.arange(self.count, self.count + m, dtype=np.uint64)
        self.count += m
        return index, values, labels

    def close(self):
        self.data.close()
        if self.label is not None:
            self.label.close()


class _LibSVMLoader(RowBatcher):
    def __init__(self, stream, batch_size, width, label_width, squeeze_label):
        super().__init__(stream, batch_size, (width,), (label_width,), np.float32, np.float32,
                         round_batch=True)
        self.squeeze_label = squeeze_label

    def next(self):
        raw = super().next()
        if raw is None or not self.squeeze_label:
            return raw
        return raw._replace(label=raw.label.reshape(len(raw.label)))

    def close(self):
        self.stream.close()


class LibSVMIter(MXDataIter):
    """Batches from a LibSVM file: data (batch, data_shape[0]) and labels (batch,).

    ``label_libsvm`` (default ``'NULL'``) names a second LibSVM file whose features are the
    labels, of shape (batch, label_shape[0]). ``num_parts`` / ``part_index`` read one share of
    the file (split by bytes at line boundaries, as dmlc does). Like 1.9.1 only
    ``round_batch=True`` is supported: a short last batch is completed from the start.
    Data batches are CSRNDArrays, as are labels from ``label_libsvm``.
    """

    def __init__(self, *args, **kwargs):
        if args:
            raise TypeError("LibSVMIter can only accept keyword arguments")
        name = "LibSVMIter"
        data_path = parse_str(required(kwargs, "data_libsvm", "string", name), "data_libsvm")
        data_shape = parse_shape(required(kwargs, "data_shape", "Shape(tuple)", name), "data_shape")
        label_path = parse_str(kwargs.get("label_libsvm", "NULL"), "label_libsvm")
        label_shape = parse_shape(kwargs.get("label_shape", (1,)), "label_shape")
        batch_size = parse_int(required(kwargs, "batch_size", "int (non-negative)", name), "batch_size")
        round_batch = parse_bool(kwargs.get("round_batch", True), "round_batch")
        num_parts = parse_int(kwargs.get("num_parts", 1), "num_parts")
        part_index = parse_int(kwargs.get("part_index", 0), "part_index")
        prefetch = parse_int(kwargs.get("prefetch_buffer", 4), "prefetch_buffer")
        if not round_batch:
            raise MXNetError("sparse batch loader doesn't support round_batch == false yet")
        if len(data_shape) != 1 or len(label_shape) != 1:
            raise MXNetError("LibSVMIter: data_shape and label_shape must be 1-D")
        if batch_size <= 0:
            raise MXNetError(f"{name}: batch_size must be positive, got {batch_size}")
        if num_parts <= 0 or not 0 <= part_index < num_parts:
            raise MXNetError(f"{name}: invalid part_index {part_index} of num_parts {num_parts}")
        for path in (data_path, label_path):
            if path != "NULL" and not os.path.exists(path):
                raise MXNetError(f"LocalFileSystem.GetPathInfo: {path} error: No such file or directory")
        data = _LibSVMRows(data_path, data_shape[0], np.float32,
                           line_partition(data_path, num_parts, part_index))
        label = None
        if label_path != "NULL":
            label = _LibSVMRows(label_path, label_shape[0], np.float32,
                                line_partition(label_path, num_parts, part_index))
        label_width = label_shape[0] if label is not None else 1
        stream = _LibSVMStream(data, label, label_width)
        loader = _LibSVMLoader(stream, batch_size, data_shape[0], label_width, squeeze_label=label is None)
        super().__init__(loader, data_name=kwargs.get("data_name", "data"),
                         label_name=kwargs.get("label_name", "softmax_label"),
                         prefetch_buffer=prefetch)

    def getdata(self):
        return _to_csr(self._current.data)

    def getlabel(self):
        label = self._current.label
        if self._loader.squeeze_label:  # labels from the first column: dense, as in 1.9.1
            return super().getlabel()
        return _to_csr(label)


def _to_csr(dense):
    """The CSRNDArray of a parsed batch: the stored entries are the non-zero values and the
    written zeros (held as -0.0)."""
    from ..ndarray.sparse import csr_matrix
    dense = np.asarray(dense, np.float32)
    stored = (dense != 0) | np.signbit(dense)
    rows, cols = np.nonzero(stored)
    indptr = np.zeros(dense.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=dense.shape[0]), out=indptr[1:])
    values = dense[rows, cols] + np.float32(0)   # -0.0 + 0 is +0.0
    return csr_matrix((values, cols.astype(np.int64), indptr), shape=dense.shape,
                      dtype=np.float32)
