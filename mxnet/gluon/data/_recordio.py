"""A minimal reader of MXNet RecordIO files (``.rec`` with a ``.idx`` index), for the datasets.

Layout (dmlc-core as used by 1.9.1): every record starts with the magic ``0xCED7230A`` and a
word ``lrec = cflag << 29 | length``; the payload follows, padded with zeros to 4 bytes.
``cflag`` 0 is a whole record; 1, 2, 3 mark the first, middle and last part of a payload the
writer split where the magic occurred in it, so the reader joins the parts with the magic.
The index holds text lines ``key<TAB>offset``.

The file handle is opened lazily and reopened after a fork or unpickling, so a dataset can be
shared with DataLoader worker processes (each gets its own handle and file position).
"""
from __future__ import annotations

import os
import struct
from collections import namedtuple

import numpy as np

from ...base import MXNetError

__all__ = ["RecordReader", "IRHeader", "unpack", "MAGIC"]

MAGIC = 0xCED7230A
_MAGIC_BYTES = struct.pack("<I", MAGIC)
_LEN_MASK = (1 << 29) - 1

IRHeader = namedtuple("HEADER", ["flag", "label", "id", "id2"])
_IR_FORMAT = "IfQQ"
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def unpack(record):
    """Split an image record into its ``IRHeader`` and the remaining payload bytes.

    When ``flag`` > 0 the label is an array of ``flag`` float32 values stored after the header.
    """
    header = IRHeader(*struct.unpack(_IR_FORMAT, record[:_IR_SIZE]))
    payload = record[_IR_SIZE:]
    if header.flag > 0:
        label = np.frombuffer(payload, np.float32, header.flag)
        header = header._replace(label=label)
        payload = payload[header.flag * 4:]
    return header, payload


class _MissingRecordFile(MXNetError, FileNotFoundError):
    """A missing .rec file: 1.9.1 raises MXNetError; a FileNotFoundError as well here."""


class RecordReader:
    """Random access to the records of ``rec_path`` through the index ``idx_path``."""

    def __init__(self, idx_path, rec_path, key_type=int):
        if not os.path.isfile(rec_path):  # 1.9.1 opens the .rec before the index
            raise _MissingRecordFile(f"RecordIO: cannot open '{rec_path}' for reading: "
                                     f"No such file or directory")
        self.idx_path = idx_path
        self.rec_path = rec_path
        self.key_type = key_type
        self.keys = []
        self.positions = {}
        with open(idx_path) as f:
            for line in f:
                parts = line.strip().split("\t")
                if len(parts) < 2:
                    continue
                key = key_type(parts[0])
                self.positions[key] = int(parts[1])
                self.keys.append(key)
        if not os.path.isfile(rec_path):
            raise _MissingRecordFile(f"RecordIO file {rec_path} not found")
        self._handle = None
        self._pid = None

    # -- handles ----------------------------------------------------------------------------------
    def _file(self):
        if self._handle is None or self._pid != os.getpid():
            self._handle = open(self.rec_path, "rb")  # noqa: SIM115 - kept open for random reads
            self._pid = os.getpid()
        return self._handle

    def close(self):
        if self._handle is not None and self._pid == os.getpid():
            self._handle.close()
        self._handle = None

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_handle"] = None
        state["_pid"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    # -- reading ----------------------------------------------------------------------------------
    def read_at(self, offset):
        """The record that starts at byte ``offset``."""
        f = self._file()
        f.seek(offset)
        parts = []
        while True:
            head = f.read(8)
            if len(head) < 8:
                raise ValueError(f"{self.rec_path}: truncated record header at offset {f.tell()}")
            magic, lrec = struct.unpack("<II", head)
            if magic != MAGIC:
                raise ValueError(f"{self.rec_path}: invalid RecordIO magic {magic:#x} at offset "
                                 f"{f.tell() - 8}; is this an MXNet .rec file?")
            cflag, length = lrec >> 29, lrec & _LEN_MASK
            data = f.read(length)
            if len(data) < length:
                raise ValueError(f"{self.rec_path}: truncated record at offset {f.tell()}")
            f.read((-length) % 4)
            parts.append(data)
            if cflag in (0, 3):
                break
        return _MAGIC_BYTES.join(parts)

    def read_idx(self, key):
        """The record stored under index key ``key``."""
        return self.read_at(self.positions[key])
