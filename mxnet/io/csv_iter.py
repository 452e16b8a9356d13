"""CSVIter: batches of rows from CSV files (data, and optionally labels in a second file)."""
from __future__ import annotations

import itertools
import os
import re

import numpy as np

from ..base import MXNetError
from ._native import RowBatcher, parse_bool, parse_int, parse_shape, parse_str, required
from .io import MXDataIter

__all__ = ["CSVIter"]

_DTYPES = {"float32": np.float32, "int32": np.int32, "int64": np.int64}
_INT_FIELD = re.compile(r"(?:^|,)[ \t]*([+-]?\d*)[^,\n]*", re.M)
_CHUNK = 1024  # lines parsed at a time


def open_input(path, mode="r"):
    """Open ``path`` or raise MXNetError worded like dmlc's local file system."""
    if not os.path.exists(path):
        raise MXNetError(f"LocalFileSystem.GetPathInfo: {path} error: No such file or directory")
    if os.path.isfile(path) and os.path.getsize(path) == 0:
        # dmlc's input split skips empty files, so 1.9.1 finds no input at all
        raise MXNetError(f"Check failed: files_.size() != 0U (0 vs. 0) : Cannot find any files "
                         f"that matches the URI pattern {path}")
    try:
        return open(path, mode)  # noqa: SIM115 - the caller closes it
    except OSError as e:
        raise MXNetError(f"LocalFileSystem: cannot open {path}: {e.strerror}") from None


class _CSVRows:
    """The rows of one CSV file, read and parsed lazily in chunks."""

    def __init__(self, path, shape, dtype):
        self.path = path
        self.shape = tuple(shape)
        self.size = int(np.prod(self.shape))
        self.dtype = dtype
        self._file = None
        self._rows = None   # parsed rows not handed out yet
        self.before_first()

    def before_first(self):
        self.close()
        self._file = open_input(self.path)
        self._rows = np.zeros((0, self.size), self.dtype)

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def _parse(self, lines):
        lines = [ln for ln in lines if ln.strip()]
        if not lines:
            return np.zeros((0, self.size), self.dtype)
        for ln in lines:
            n = ln.count(",") + 1
            if ln.rstrip().endswith(","):
                n -= 1
            if n != self.size:
                raise MXNetError(
                    f"Check failed: row.length == shape.Size() ({n} vs. {self.size}) : The data "
                    f"size in CSV do not match size of shape: specified shape={list(self.shape)}, "
                    f"the csv row-length={n}")
        if np.dtype(self.dtype).kind == "i":
            return self._parse_int(lines)
        try:
            rows = np.loadtxt(lines, delimiter=",", dtype=np.float64, ndmin=2,
                              usecols=range(self.size))
        except ValueError as e:
            raise MXNetError(f"CSVIter: cannot parse {self.path}: {e}") from None
        return rows.astype(self.dtype)

    def _parse_int(self, lines):
        # Integer dtypes read each field's leading integer, as 1.9.1 does (strtol-like):
        # "3.99" -> 3, "2.5e-01" -> 2, "1e3" -> 1; a field without leading digits is an error.
        text = "\n".join(ln.rstrip().rstrip(",") for ln in lines)
        fields = np.array(_INT_FIELD.findall(text), dtype=str)
        bad = ~np.char.isdigit(np.char.lstrip(fields, "+-"))
        if bad.any():
            raise MXNetError(f"CSVIter: cannot parse {self.path}: a field of row "
                             f"{int(np.argmax(bad)) // self.size + 1} of this block does not "
                             f"start with an integer, as dtype {np.dtype(self.dtype).name} needs")
        return fields.astype(np.int64).reshape(len(lines), self.size).astype(self.dtype)

    def take(self, n):
        """Up to ``n`` rows as an (m, size) array; an empty array at the end of the file."""
        while len(self._rows) < n and self._file is not None:
            lines = list(itertools.islice(self._file, max(_CHUNK, n)))
            if not lines:
                self.close()
                break
            parsed = self._parse(lines)
            self._rows = np.concatenate([self._rows, parsed]) if len(self._rows) else parsed
        out, self._rows = self._rows[:n], self._rows[n:]
        return out


class _CSVStream:
    """(index, data, label) rows of a data file and an optional label file, read in step."""

    def __init__(self, data_csv, data_shape, label_csv, label_shape, dtype):
        self.data = _CSVRows(data_csv, data_shape, dtype)
        self.label = _CSVRows(label_csv, label_shape, dtype) if label_csv != "NULL" else None
        self.label_size = int(np.prod(label_shape))
        self.dtype = dtype
        self.count = 0

    def before_first(self):
        self.data.before_first()
        if self.label is not None:
            self.label.before_first()
        self.count = 0

    def take(self, n):
        data = self.data.take(n)
        m = len(data)
        if m == 0:
            return None
        if self.label is not None:
            label = self.label.take(m)
            if len(label) != m:
                raise MXNetError(f"CSVIter: {self.label.path} has fewer rows than {self.data.path}")
        else:
            label = np.zeros((m, self.label_size), self.dtype)
        index = np.arange(self.count, self.count + m, dtype=np.uint64)
        self.count += m
        return index, data, label

    def close(self):
        self.data.close()
        if self.label is not None:
            self.label.close()


class _CSVLoader(RowBatcher):
    def __init__(self, stream, batch_size, data_shape, label_shape, dtype, round_batch):
        super().__init__(stream, batch_size, (int(np.prod(data_shape)),),
                         (int(np.prod(label_shape)),), dtype, dtype, round_batch)
        self.out_data_shape = (self.batch_size,) + tuple(data_shape)
        self.out_label_shape = (self.batch_size,) + (tuple(label_shape) if tuple(label_shape) != (1,)
                                                     else ())

    def next(self):
        raw = super().next()
        if raw is None:
            return None
        return raw._replace(data=raw.data.reshape(self.out_data_shape),
                            label=raw.label.reshape(self.out_label_shape))

    def close(self):
        self.stream.close()


class CSVIter(MXDataIter):
    """Batches of rows from CSV files.

    Every row of ``data_csv`` is one example of shape ``data_shape``; ``label_csv`` (default
    ``'NULL'``: zero labels) holds the labels, one row of shape ``label_shape`` each. With
    ``round_batch`` (the default) a short last batch is completed from the start of the file
    and the next epoch begins after those rows; otherwise it keeps rows of the batch before in
    its padding slots. ``dtype`` is ``'float32'``, ``'int32'`` or ``'int64'``. With an integer
    dtype each field's leading integer is read exactly (``3.99`` -> 3, ``2.5e-01`` -> 2), as
    1.9.1 reads them.

    All arguments are keywords, as in 1.9.1; unknown keywords are ignored.
    """

    def __init__(self, *args, **kwargs):
        if args:
            raise TypeError("CSVIter can only accept keyword arguments")
        name = "CSVIter"
        data_csv = parse_str(required(kwargs, "data_csv", "string", name), "data_csv")
        data_shape = parse_shape(required(kwargs, "data_shape", "Shape(tuple)", name), "data_shape")
        label_csv = parse_str(kwargs.get("label_csv", "NULL"), "label_csv")
        label_shape = parse_shape(kwargs.get("label_shape", (1,)), "label_shape")
        batch_size = parse_int(required(kwargs, "batch_size", "int (non-negative)", name), "batch_size")
        round_batch = parse_bool(kwargs.get("round_batch", True), "round_batch")
        prefetch = parse_int(kwargs.get("prefetch_buffer", 4), "prefetch_buffer")
        dtype = kwargs.get("dtype", None)
        dtype = "float32" if dtype in (None, "None") else np.dtype(dtype).name
        if dtype not in _DTYPES:
            raise MXNetError(f"Invalid Input: '{dtype}', valid values are: {{None, 'float32', "
                             "'int32', 'int64'}")
        if batch_size <= 0:
            raise MXNetError(f"{name}: batch_size must be positive, got {batch_size}")
        stream = _CSVStream(data_csv, data_shape, label_csv, label_shape, _DTYPES[dtype])
        loader = _CSVLoader(stream, batch_size, data_shape, label_shape, _DTYPES[dtype], round_batch)
        super().__init__(loader, data_name=kwargs.get("data_name", "data"),
                         label_name=kwargs.get("label_name", "softmax_label"),
                         prefetch_buffer=prefetch)
