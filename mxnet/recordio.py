"""RecordIO: the record file format of MXNet's data pipelines (``.rec`` files, ``.idx`` indexes).

The layout is dmlc-core's, as 1.9.1 writes it (see FORMATS.md):

- a record part is ``u32 magic 0xCED7230A``, ``u32 lrec = cflag << 29 | length``, ``length``
  payload bytes, then zero padding to a multiple of 4 bytes;
- the writer never lets the magic word appear at a 4-byte-aligned position of a payload: it
  cuts the payload there (dropping those 4 bytes) and writes the pieces as parts flagged
  1 (first), 2 (middle) and 3 (last); a record that needs no cut has ``cflag`` 0;
- the reader joins the parts, putting the magic back between them;
- an index file is text, one ``key<TAB>offset`` line per record, the offset being where the
  record's first part starts.

Image records start with an ``IRHeader`` (``struct 'IfQQ'``: flag, label, id, id2); see
:func:`pack` and :func:`unpack`.

This module reads and writes plain Python files; it needs no native library. Reading checks
every length against the file size, so a damaged file gives an :class:`MXNetError` that names
the offset instead of a huge allocation or a silent short record.
"""
from __future__ import annotations

import numbers
import os
import struct
from collections import namedtuple
from multiprocessing import current_process

import numpy as np

from .base import MXNetError

__all__ = ["MXRecordIO", "MXIndexedRecordIO", "IRHeader", "pack", "unpack", "pack_img",
           "unpack_img"]

_MAGIC = 0xCED7230A
_MAGIC_BYTES = struct.pack("<I", _MAGIC)
_HEAD = struct.Struct("<II")
_LEN_BITS = 29
_LEN_MASK = (1 << _LEN_BITS) - 1


def _encode_record(buf):
    """The bytes dmlc-core's RecordIOWriter writes for one payload ``buf``."""
    n = len(buf)
    if n >= 1 << _LEN_BITS:
        raise MXNetError(f"RecordIO records must be shorter than 2**29 bytes, got {n} bytes")
    out = []
    start = 0
    # cut points: the magic word at an aligned offset inside the aligned body of the payload
    pos = buf.find(_MAGIC_BYTES)
    body_end = n - n % 4
    while 0 <= pos:
        if pos % 4 == 0 and pos + 4 <= body_end:
            out.append(_HEAD.pack(_MAGIC, (1 if start == 0 else 2) << _LEN_BITS | (pos - start)))
            out.append(buf[start:pos])
            start = pos + 4
            pos = buf.find(_MAGIC_BYTES, start)
        else:
            pos = buf.find(_MAGIC_BYTES, pos + 1)
    out.append(_HEAD.pack(_MAGIC, (3 if start else 0) << _LEN_BITS | (n - start)))
    out.append(buf[start:])
    out.append(b"\x00" * (-n % 4))
    return b"".join(out)


def _as_bytes(buf, what="record"):
    if isinstance(buf, str):
        raise TypeError(f"a {what} must be bytes (or bytearray / memoryview), not str; "
                        f"encode the text first, e.g. s.encode()")
    if isinstance(buf, bytes):
        return buf
    try:
        return memoryview(buf).tobytes()
    except TypeError:
        raise TypeError(f"a {what} must be a bytes-like object, got {type(buf).__name__}") from None


def _strip_uri(uri):
    uri = os.fspath(uri)
    if isinstance(uri, bytes):
        uri = uri.decode("utf-8")
    return uri[len("file://"):] if uri.startswith("file://") else uri


class MXRecordIO:
    """Sequential reading (``flag='r'``) or writing (``flag='w'``) of a RecordIO file.

    >>> rec = MXRecordIO('data.rec', 'w')
    >>> rec.write(b'first'); rec.write(b'second'); rec.close()
    >>> rec = MXRecordIO('data.rec', 'r')
    >>> rec.read(), rec.read(), rec.read()
    (b'first', b'second', None)

    ``read`` gives ``None`` at the end of the file; ``reset`` starts over (and, for a writer,
    empties the file, as opening it again does). The object pickles: the copy opens the file
    again (a writer's copy therefore starts a new, empty file, as in 1.9.1).
    """

    def __init__(self, uri, flag):
        self.uri = _strip_uri(uri)
        self.flag = flag
        self.handle = None
        self.pid = None
        self.is_open = False
        self.writable = flag == "w"
        self._size = 0
        self.open()

    # -- opening and closing ---------------------------------------------------------------------
    def open(self):
        """Open the file: for reading from its start, or for writing, emptied."""
        if self.flag not in ("r", "w"):
            raise ValueError(f"Invalid flag {self.flag!r}: use 'r' to read or 'w' to write")
        self.writable = self.flag == "w"
        try:
            self.handle = open(self.uri, "wb" if self.writable else "rb")  # noqa: SIM115
        except OSError as e:
            raise MXNetError(f"RecordIO: cannot open {self.uri!r} for "
                             f"{'writing' if self.writable else 'reading'}: "
                             f"{e.strerror or e}") from e
        self._size = 0 if self.writable else os.fstat(self.handle.fileno()).st_size
        self.pid = current_process().pid
        self.is_open = True

    def close(self):
        """Close the file (a no-op when it is closed already)."""
        if not getattr(self, "is_open", False):
            return
        try:
            self.handle.close()
        finally:
            self.handle = None
            self.is_open = False
            self.pid = None

    def reset(self):
        """Back to the first record; a writer starts the file over, empty."""
        self.close()
        self.open()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - nothing useful to do at interpreter shutdown
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __getstate__(self):
        if self.is_open and self.writable and self.handle is not None:
            self.handle.flush()
        state = dict(self.__dict__)
        state["handle"] = None
        state["pid"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        was_open = state.get("is_open", False)
        self.is_open = False
        self.handle = None
        if was_open:
            self.open()

    def _check_pid(self, allow_reset=False):
        """A file handle belongs to the process that opened it; another process must reopen."""
        if self.pid != current_process().pid:
            if not allow_reset:
                raise RuntimeError("Forbidden operation in multiple processes: this record file "
                                   "was opened by another process; call reset() first")
            self.reset()

    def _require(self, write):
        if not self.is_open:
            raise MXNetError(f"RecordIO: {self.uri!r} is closed")
        if write and not self.writable:
            raise MXNetError(f"RecordIO: {self.uri!r} was opened for reading, not writing")
        if not write and self.writable:
            raise MXNetError(f"RecordIO: {self.uri!r} was opened for writing, not reading")

    # -- records ---------------------------------------------------------------------------------
    def write(self, buf):
        """Append one record holding the bytes ``buf``."""
        self._require(write=True)
        self._check_pid(allow_reset=False)
        self.handle.write(_encode_record(_as_bytes(buf)))

    def read(self):
        """The next record's bytes, or ``None`` at the end of the file."""
        self._require(write=False)
        self._check_pid(allow_reset=False)
        return self._read_record()

    def tell(self):
        """The current byte position: where the next record will be written (or read)."""
        if not self.is_open:
            raise MXNetError(f"RecordIO: {self.uri!r} is closed")
        return self.handle.tell()

    def _fail(self, offset, what):
        raise MXNetError(f"Invalid RecordIO file {self.uri!r}: {what} at offset {offset}")

    def _read_payload(self, length, offset):
        """The ``length`` payload bytes (plus padding) of the part whose header is at ``offset``."""
        start = offset + _HEAD.size
        n = length + (-length % 4)
        if start + n > self._size:  # the file may have grown since it was opened
            self._size = os.fstat(self.handle.fileno()).st_size
            if start + n > self._size:
                self._fail(offset, f"truncated record: the header announces {length} payload "
                                   f"bytes ({n} with padding), {max(self._size - start, 0)} are "
                                   f"left in the file")
        data = self.handle.read(n)
        if len(data) != n:
            self._fail(offset, "truncated record")
        return data[:length]

    def _read_record(self):
        f = self.handle
        start = f.tell()
        parts = []
        while True:
            offset = f.tell()
            head = f.read(_HEAD.size)
            if not head and not parts:
                return None
            if len(head) != _HEAD.size:
                self._fail(offset, f"truncated record header ({len(head)} of 8 bytes)")
            magic, lrec = _HEAD.unpack(head)
            if magic != _MAGIC:
                self._fail(offset, f"bad magic number {magic:#010x} (expected {_MAGIC:#010x}; "
                                   f"is this a RecordIO file, and the offset a record start?)")
            cflag, length = lrec >> _LEN_BITS, lrec & _LEN_MASK
            if cflag > 3:
                self._fail(offset, f"bad continuation flag {cflag}")
            if parts and cflag in (0, 1):
                self._fail(offset, f"a new record (flag {cflag}) inside the split record that "
                                   f"starts at offset {start}")
            if not parts and cflag in (2, 3):
                self._fail(offset, f"a continuation part (flag {cflag}) where a record should start")
            parts.append(self._read_payload(length, offset))
            if cflag in (0, 3):
                break
        return parts[0] if len(parts) == 1 else _MAGIC_BYTES.join(parts)


class MXIndexedRecordIO(MXRecordIO):
    """A RecordIO file with an index file, for random access by key.

    Writing: ``write_idx(key, buf)`` appends the record and the line ``key<TAB>offset`` to the
    index. Reading: ``read_idx(key)``; ``keys`` lists the keys in file order and ``idx`` maps
    each key (converted with ``key_type``) to its offset.

    An index line is written only after its record has been handed to the operating system,
    so an index never points past the data of a file that is still being written.
    """

    def __init__(self, idx_path, uri, flag, key_type=int):
        self.idx_path = os.fspath(idx_path)
        self.idx = {}
        self.keys = []
        self.key_type = key_type
        self.fidx = None
        super().__init__(uri, flag)

    def open(self):
        super().open()
        self.idx = {}
        self.keys = []
        try:
            self.fidx = open(self.idx_path, self.flag)  # noqa: SIM115
        except OSError as e:
            super().close()
            raise MXNetError(f"RecordIO: cannot open the index {self.idx_path!r}: "
                             f"{e.strerror or e}") from e
        if not self.writable:
            self._load_index()

    def _load_index(self):
        for lineno, line in enumerate(self.fidx, 1):
            fields = line.strip().split("\t")
            if fields == [""]:
                continue
            try:
                if len(fields) < 2:
                    raise ValueError("expected 'key<TAB>offset'")
                key, offset = self.key_type(fields[0]), int(fields[1])
                if offset < 0:
                    raise ValueError("negative offset")
            except ValueError as e:
                raise MXNetError(f"Invalid RecordIO index {self.idx_path!r}, line {lineno}: "
                                 f"{line.rstrip()!r} ({e})") from None
            if key not in self.idx:
                self.keys.append(key)
            self.idx[key] = offset

    def close(self):
        if not getattr(self, "is_open", False):
            return
        try:
            super().close()
        finally:
            if self.fidx is not None:
                self.fidx.close()
                self.fidx = None

    def __getstate__(self):
        if self.is_open and self.writable and self.fidx is not None:
            self.fidx.flush()
        state = super().__getstate__()
        state["fidx"] = None
        return state

    def seek(self, idx):
        """Move the read position to the record stored under key ``idx``."""
        self._require(write=False)
        self._check_pid(allow_reset=True)
        offset = self.idx[idx]
        if offset > self._size:
            self._size = os.fstat(self.handle.fileno()).st_size
            if offset > self._size:
                self._fail(offset, f"the index {self.idx_path!r} puts key {idx!r} past the end of "
                                   f"the file ({self._size} bytes)")
        self.handle.seek(offset)

    def read_idx(self, idx):
        """The bytes of the record stored under key ``idx``."""
        self.seek(idx)
        record = self.read()
        if record is None:
            self._fail(self.idx[idx], f"the index {self.idx_path!r} puts key {idx!r} at the end "
                                      f"of the file")
        return record

    def write_idx(self, idx, buf):
        """Append the record ``buf`` under key ``idx``."""
        self._require(write=True)
        key = self.key_type(idx)
        text = str(key)
        if "\t" in text or "\n" in text or "\r" in text:
            raise ValueError(f"RecordIO index keys cannot contain tabs or line breaks: {text!r}")
        record = _encode_record(_as_bytes(buf))
        self._check_pid(allow_reset=False)
        pos = self.tell()
        self.handle.write(record)
        self.handle.flush()
        self.fidx.write(f"{text}\t{pos}\n")
        if key not in self.idx:
            self.keys.append(key)
        self.idx[key] = pos


# -- image records ---------------------------------------------------------------------------------
IRHeader = namedtuple("HEADER", ["flag", "label", "id", "id2"])
IRHeader.__doc__ = """The header of an image record: ``flag``, ``label``, ``id``, ``id2``.

``label`` is a float, or an array of floats (then ``pack`` stores its length in ``flag`` and the
values in front of the payload). ``id`` is usually the image's index, ``id2`` its high bits."""

_IR_FORMAT = "IfQQ"
_IR_STRUCT = struct.Struct("<" + _IR_FORMAT)
_IR_SIZE = _IR_STRUCT.size


def pack(header, s):
    """Prefix the payload ``s`` (bytes) with the packed ``header`` (an IRHeader or 4-tuple).

    A numeric label is stored in the header with ``flag`` 0; an array label sets ``flag`` to its
    length, stores 0 as the header's label and puts the float32 values before ``s``.
    """
    header = IRHeader(*header)
    s = _as_bytes(s, "payload")
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label, dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + s
    try:
        head = _IR_STRUCT.pack(int(header.flag), float(header.label), int(header.id),
                               int(header.id2))
    except struct.error as e:
        raise MXNetError(f"pack: cannot store the header {tuple(header)} ({e}); id and id2 must "
                         f"be unsigned 64-bit integers") from None
    return head + s


def unpack(s):
    """Split a record made by :func:`pack` into ``(IRHeader, payload bytes)``.

    When ``flag`` > 0 the header's label is the float32 array stored before the payload.
    """
    s = _as_bytes(s)
    if len(s) < _IR_SIZE:
        raise MXNetError(f"unpack: an image record holds at least {_IR_SIZE} header bytes, "
                         f"got {len(s)}")
    header = IRHeader(*_IR_STRUCT.unpack_from(s))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        if len(s) < header.flag * 4:
            raise MXNetError(f"unpack: the header announces {header.flag} label values but only "
                             f"{len(s)} bytes follow it")
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4:]
    return header, s


def _cv2():
    try:
        import cv2
    except ImportError:
        return None
    return cv2


def _pil():
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("encoding and decoding images needs OpenCV (cv2) or Pillow: "
                          "pip install Pillow (or pip install mxnet-py[image])") from None
    return Image


_PIL_FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".png": "PNG", ".bmp": "BMP", ".tif": "TIFF",
                ".tiff": "TIFF", ".webp": "WEBP", ".ppm": "PPM", ".pgm": "PPM"}


def _encode_image(img, img_fmt=".jpg", quality=95):
    """Encode a uint8 image given in OpenCV's channel order (gray, BGR or BGRA), like
    ``cv2.imencode``: ``quality`` is JPEG's 0-100 quality or PNG's 0-9 compression level."""
    img = np.asarray(img.asnumpy() if hasattr(img, "asnumpy") else img)
    fmt = img_fmt.lower()
    cv2 = _cv2()
    if cv2 is not None:
        params = []
        if fmt in (".jpg", ".jpeg"):
            params = [cv2.IMWRITE_JPEG_QUALITY, int(quality)]
        elif fmt == ".png":
            params = [cv2.IMWRITE_PNG_COMPRESSION, int(quality)]
        ok, buf = cv2.imencode(img_fmt, img, params)
        if not ok:
            raise MXNetError(f"failed to encode an image of shape {img.shape} as {img_fmt}")
        return buf.tobytes()
    if fmt not in _PIL_FORMATS:
        raise MXNetError(f"cannot encode images as {img_fmt!r} without OpenCV; "
                         f"use one of {sorted(_PIL_FORMATS)}")
    if img.dtype != np.uint8:
        raise MXNetError(f"encoding needs a uint8 image, got {img.dtype}")
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[:, :, 0]
    if img.ndim == 3 and img.shape[2] in (3, 4):
        order = [2, 1, 0] + ([3] if img.shape[2] == 4 else [])
        img = img[:, :, order]
        if img.shape[2] == 4 and _PIL_FORMATS[fmt] == "JPEG":
            img = img[:, :, :3]
    elif img.ndim != 2:
        raise MXNetError(f"cannot encode an image of shape {img.shape}: expected (H, W), "
                         f"(H, W, 1), (H, W, 3) or (H, W, 4)")
    Image = _pil()
    import io
    out = io.BytesIO()
    pil = Image.fromarray(np.ascontiguousarray(img))
    kind = _PIL_FORMATS[fmt]
    if kind == "JPEG":
        pil.save(out, "JPEG", quality=min(max(int(quality), 0), 100))
    elif kind == "PNG":
        pil.save(out, "PNG", compress_level=min(max(int(quality), 0), 9))
    else:
        pil.save(out, kind)
    return out.getvalue()


def _decode_image(buf, iscolor=-1):
    """Decode bytes like ``cv2.imdecode(buf, iscolor)``: a uint8 array in OpenCV's channel
    order, (H, W) for gray; ``iscolor`` 1 forces BGR, 0 gray, -1 keeps the file's channels."""
    cv2 = _cv2()
    if cv2 is not None:
        img = cv2.imdecode(np.frombuffer(buf, np.uint8), iscolor)
        if img is None:
            raise MXNetError("Decoding failed. Invalid image data.")
        return img
    try:
        return _pil_decode(buf, iscolor)
    except ValueError as e:
        raise MXNetError(f"Decoding failed. Invalid image data: {e}") from None


def _pil_decode(buf, iscolor):
    from .gluon.data.vision import _image
    if iscolor == 0:
        return _image.imdecode(buf, 0)[:, :, 0]
    if iscolor > 0:
        return _image.imdecode(buf, 1, to_rgb=False)
    import io
    Image = _pil()
    try:
        with Image.open(io.BytesIO(buf)) as im:
            bands = im.getbands()
            alpha = "A" in bands or (im.mode == "P" and "transparency" in im.info)
            if alpha:
                rgba = np.asarray(im.convert("RGBA"), np.uint8)
    except Exception as e:  # noqa: BLE001 - Pillow raises many kinds
        raise MXNetError(f"Decoding failed. Invalid image data ({type(e).__name__}: {e}).") from None
    if alpha:
        return np.ascontiguousarray(rgba[:, :, [2, 1, 0, 3]])
    if bands in (("L",), ("1",), ("I",), ("I;16",)) or im.mode.startswith("I;16"):
        return _image.imdecode(buf, 0)[:, :, 0]
    return _image.imdecode(buf, 1, to_rgb=False)


def pack_img(header, img, quality=95, img_fmt=".jpg"):
    """Encode ``img`` (a uint8 NumPy array in OpenCV's BGR order, or gray) and :func:`pack` it.

    ``quality`` is the JPEG quality (1-100, default 95) or, for ``img_fmt='.png'``, the PNG
    compression level (0-9). OpenCV encodes when it is installed, Pillow otherwise.
    """
    return pack(header, _encode_image(img, img_fmt, quality))


def unpack_img(s, iscolor=-1):
    """:func:`unpack` a record and decode its image: ``(IRHeader, uint8 array in BGR order)``.

    ``iscolor`` is OpenCV's imdecode flag: 1 colour, 0 gray (H, W), -1 as stored.
    """
    header, payload = unpack(s)
    return header, _decode_image(payload, iscolor)
