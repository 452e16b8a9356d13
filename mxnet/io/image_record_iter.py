"""ImageRecordIter and friends: batches of decoded, augmented images from a RecordIO file.

The work is split in three stages:

* **reading** (the iterator's loader thread): records come off the ``.rec`` file in order (or
  in a shuffled order), one share of the file when ``num_parts`` > 1 -- split by bytes as dmlc's
  RecordIO splitter does, or by record count when ``path_imgidx`` is given -- and are grouped
  into batches with 1.9.1's ``round_batch`` rule;
* **decoding and augmentation** (a pool of ``preprocess_threads`` threads, one batch per task):
  Pillow decodes (it releases the GIL), the crop / mirror / normalisation are NumPy operations
  that write straight into the batch array (also without the GIL);
* **prefetching**: up to ``prefetch_buffer`` finished batches wait for the consumer.

Records are read with :mod:`mxnet.recordio`; decoding and resizing use the NumPy kernels of
:mod:`mxnet.gluon.data.vision._image` (the ones :mod:`mxnet.image` uses too), whose resize
follows OpenCV's arithmetic.

Random choices (crop offsets, mirroring, the shuffled order) come from generators seeded by
``seed`` and the batch's position in the stream, so a run is reproducible whatever the thread
timing. Without shuffling and random augmentation the batches equal 1.9.1's bit for bit in the
tested cases (PNG and baseline JPEG; a JPEG decoded by a differently built libjpeg may differ
by a grey level here and there).
"""
from __future__ import annotations

import collections
import io as _io
import os
import struct
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..base import MXNetError
from ._native import RawBatch, parse_bool, parse_float, parse_int, parse_shape, parse_str, required
from .io import MXDataIter

__all__ = ["ImageRecordIter", "ImageRecordUInt8Iter", "ImageRecordInt8Iter"]

_MAGIC = 0xCED7230A
_LEN_MASK = (1 << 29) - 1


def _kernels():
    """The NumPy image kernels (decode with Pillow, OpenCV-exact resize)."""
    from ..gluon.data.vision import _image
    return _image


def _pil_image():
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("ImageRecordIter decodes images with Pillow: pip install Pillow "
                          "(or pip install mxnet-py[image])") from None
    return Image


# -- reading records --------------------------------------------------------------------------------
def _recordio():
    from .. import recordio
    return recordio


def _record_begin(path, pos, size):
    """The first record start at or after the 4-aligned ``pos`` (dmlc's SeekRecordBegin)."""
    if pos <= 0:
        return 0
    if pos >= size:
        return size
    with open(path, "rb") as f:
        f.seek(pos)
        while pos < size:
            block = f.read(1 << 16)
            if len(block) < 8:
                return size
            words = np.frombuffer(block[:len(block) // 4 * 4], "<u4")
            hits = np.nonzero(words[:-1] == _MAGIC)[0]
            for h in hits:
                if (int(words[h + 1]) >> 29) in (0, 1):
                    return pos + 4 * int(h)
            pos += (len(words) - 1) * 4
            f.seek(pos)
        return size


def _scan_offsets(path, begin, end):
    """The start offsets of the records in [begin, end), walking the part headers."""
    offsets = []
    with open(path, "rb") as f:
        pos = begin
        while pos < end:
            offsets.append(pos)
            while True:
                f.seek(pos)
                head = f.read(8)
                if len(head) < 8:
                    raise MXNetError(f"Invalid RecordIO file {path!r}: truncated record at offset {pos}")
                magic, lrec = struct.unpack("<II", head)
                if magic != _MAGIC:
                    raise MXNetError(f"Invalid RecordIO file {path!r}: bad magic number at offset {pos}")
                length = lrec & _LEN_MASK
                pos += 8 + length + (-length) % 4
                if (lrec >> 29) in (0, 3):
                    break
    return offsets


class _RecordSource:
    """The records of one part of a .rec file, in file order or shuffled on every pass."""

    def __init__(self, path, path_idx, num_parts, part_index, shuffle, seed):
        recordio = _recordio()
        for f in (path, path_idx):
            if f and not os.path.isfile(f):
                raise MXNetError(f"LocalFileSystem.GetPathInfo: {f} error: No such file or directory")
        self.shuffle = shuffle
        self.seed = seed
        self.passes = 0
        self.offsets = None       # explicit record offsets (idx file or shuffling)
        size = os.path.getsize(path)
        self.begin, self.end = 0, size
        if path_idx:
            index = recordio.MXIndexedRecordIO(path_idx, path, "r")
            offsets = sorted(index.idx.values())
            index.close()
            step = -(-len(offsets) // num_parts)
            self.offsets = offsets[step * part_index: step * (part_index + 1)]
        else:
            step = -(-size // num_parts)
            step = -(-step // 4) * 4
            self.begin = _record_begin(path, step * part_index, size)
            self.end = _record_begin(path, step * (part_index + 1), size)
            if shuffle:
                self.offsets = _scan_offsets(path, self.begin, self.end)
        self.reader = recordio.MXRecordIO(path, "r")
        self._order = None
        self._pos = 0
        self.before_first()

    def before_first(self):
        if self.offsets is not None:
            order = np.arange(len(self.offsets))
            if self.shuffle:
                np.random.default_rng([self.seed & 0xFFFFFFFF, self.passes]).shuffle(order)
            self._order = order
            self._pos = 0
        else:
            self.reader.handle.seek(self.begin)
        self.passes += 1

    def next(self):
        """The next record's bytes, or None at the end of the part."""
        if self.offsets is not None:
            if self._pos >= len(self._order):
                return None
            offset = self.offsets[self._order[self._pos]]
            self._pos += 1
            self.reader.handle.seek(offset)
            rec = self.reader.read()
            if rec is None:
                raise MXNetError(f"Invalid RecordIO index: offset {offset} is past the end of the file")
            return rec
        if self.reader.tell() >= self.end:
            return None
        return self.reader.read()

    def close(self):
        self.reader.close()


class _RecordBatcher:
    """Groups records into batches with 1.9.1's rule: with ``round_batch`` a short last batch is
    completed from the start (the next pass then begins after those records); without it the
    short batch is returned as is (and 1.9.1 reports pad 0 for it)."""

    def __init__(self, source, batch_size, round_batch):
        self.source = source
        self.batch_size = batch_size
        self.round_batch = round_batch
        self.overflow = False
        self.count = 0   # batches handed out (seeds the augmentation)

    def before_first(self):
        if not self.round_batch or not self.overflow:
            self.source.before_first()
        self.overflow = False

    def next(self):
        if self.overflow:
            return None
        records = []
        while len(records) < self.batch_size:
            rec = self.source.next()
            if rec is None:
                break
            records.append(rec)
        if not records:
            return None
        pad = 0
        if len(records) < self.batch_size and self.round_batch:
            pad = self.batch_size - len(records)
            self.overflow = True
            self.source.before_first()
            while len(records) < self.batch_size:
                rec = self.source.next()
                if rec is None:
                    raise MXNetError("number of input images must be bigger than the batch size")
                records.append(rec)
        self.count += 1
        return records, pad, self.count - 1


# -- decoding and augmentation ----------------------------------------------------------------------
def _unpack(record):
    header, payload = _recordio().unpack(record)
    if header.flag > 0:
        labels = np.asarray(header.label, np.float32)
    else:
        labels = np.array([header.label], np.float32)
    return labels, header.id, payload


class _Augmenter:
    """Per-image decode, resize, pad, crop, mirror and normalisation into a batch slot."""

    def __init__(self, p):
        self.p = p
        c = p["data_shape"][0]
        self.channels = c
        self.crop_h, self.crop_w = p["data_shape"][1], p["data_shape"][2]
        mean = np.array([p["mean_r"], p["mean_g"], p["mean_b"]][:c], np.float32)
        std = np.array([p["std_r"], p["std_g"], p["std_b"]][:c], np.float32)
        self.mean = mean[:, None, None]
        self.factor = (np.float32(p["scale"]) / std).astype(np.float32)[:, None, None]
        self.identity = not mean.any() and bool((self.factor == 1).all())
        self.normalize = p["normalize"]

    def decode(self, buf):
        Image = _pil_image()
        if self.channels == 3:
            try:
                im = Image.open(_io.BytesIO(buf))
                im.load()
            except Exception as e:  # noqa: BLE001 - Pillow raises many kinds
                raise MXNetError(f"ImageRecordIter: cannot decode an image ({type(e).__name__}: "
                                 f"{e})") from None
            if im.mode == "RGB":
                return np.asarray(im)
        return _kernels().imdecode(buf, 1 if self.channels == 3 else 0)

    def _interp(self, method, old_w, old_h, new_w, new_h, rng):
        if method == 9:   # automatic: cubic to enlarge, area to shrink
            if new_w > old_w and new_h > old_h:
                return 2
            if new_w < old_w and new_h < old_h:
                return 3
            return 1
        if method == 10:
            return int(rng.integers(0, 5))
        return method

    def _resize(self, img, w, h, rng):
        interp = self._interp(self.p["inter_method"], img.shape[1], img.shape[0], w, h, rng)
        return _kernels().resize(img, w, h, interp)

    def process(self, buf, out, rng):
        p = self.p
        img = self.decode(buf)
        if img.ndim == 2:
            img = img[:, :, None]
        if p["resize"] > 0:
            rows, cols = img.shape[:2]
            r = p["resize"]
            if rows > cols:
                img = self._resize(img, r, r * rows // cols, rng)
            else:
                img = self._resize(img, r * cols // rows, r, rng)
        if p["pad"] > 0:
            k = p["pad"]
            img = np.pad(img, ((k, k), (k, k), (0, 0)), constant_values=p["fill_value"])
        ch, cw = self.crop_h, self.crop_w
        rows, cols = img.shape[:2]
        if rows < ch or cols < cw:   # enlarge so that the crop fits
            scale = max(ch / rows, cw / cols)
            img = self._resize(img, max(cw, int(cols * scale)), max(ch, int(rows * scale)), rng)
            rows, cols = img.shape[:2]
        y, x = rows - ch, cols - cw
        if p["rand_crop"]:
            y, x = int(rng.integers(0, y + 1)), int(rng.integers(0, x + 1))
        else:
            y, x = y // 2, x // 2
        crop = img[y:y + ch, x:x + cw]
        if p["mirror"] or (p["rand_mirror"] and rng.integers(0, 2)):
            crop = crop[:, ::-1]
        chw = crop.transpose(2, 0, 1)
        if not self.normalize or self.identity:
            out[...] = chw
        elif out.dtype == np.float32:
            np.subtract(chw, self.mean, out=out)
            np.multiply(out, self.factor, out=out)
        else:
            val = (chw - self.mean) * self.factor
            if out.dtype.kind in "iu":
                info = np.iinfo(out.dtype)
                val = np.trunc(np.clip(val, info.min, info.max))
            out[...] = val


class _ImageRecordLoader:
    """The loader behind ImageRecordIter: reads batches of records, decodes them on a pool."""

    def __init__(self, p, batcher, labels_by_id):
        self.p = p
        self.batcher = batcher
        self.labels_by_id = labels_by_id
        self.aug = _Augmenter(p)
        threads = max(1, p["preprocess_threads"])
        self.depth = threads + 1
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="mxnet-ImageRecordIter")
        self.inflight = collections.deque()

    def _decode_batch(self, records, pad, batch_no):
        p = self.p
        b = p["batch_size"]
        c, h, w = p["data_shape"]
        lw = p["label_width"]
        data = np.zeros((b, c, h, w), p["out_dtype"])
        label = np.zeros((b, lw), np.float32)
        rng = np.random.default_rng([p["seed_aug"] & 0xFFFFFFFF, batch_no])
        for i, rec in enumerate(records):
            labels, image_id, payload = _unpack(rec)
            if self.labels_by_id is not None:
                if image_id not in self.labels_by_id:
                    raise MXNetError(f"ImageRecordIter: image id {image_id} is not in path_imglist")
                labels = self.labels_by_id[image_id]
            elif len(labels) != lw:
                raise MXNetError(f"Check failed: param_.label_width == rec.num_label ({lw} vs. "
                                 f"{len(labels)}) : rec file provide {len(labels)}-dimensional "
                                 f"label but label_width is set to {lw}")
            label[i] = labels
            self.aug.process(payload, data[i], rng)
        if lw == 1:
            label = label.reshape(b)
        return RawBatch(data, label, pad, np.zeros(b, np.uint64))

    def before_first(self):
        for f in self.inflight:
            f.cancel()
        self.inflight.clear()
        self.batcher.before_first()

    def next(self):
        while len(self.inflight) < self.depth:
            item = self.batcher.next()
            if item is None:
                break
            self.inflight.append(self.pool.submit(self._decode_batch, *item))
        if not self.inflight:
            return None
        return self.inflight.popleft().result()

    def close(self):
        for f in self.inflight:
            f.cancel()
        self.inflight.clear()
        self.pool.shutdown(wait=False)
        self.batcher.source.close()


# -- the iterators ------------------------------------------------------------------------------------
_UNSUPPORTED = {  # 1.9.1 options with their defaults; other values are not implemented here
    "aug_seq": "aug_default", "random_resized_crop": False, "max_rotate_angle": 0,
    "max_aspect_ratio": 0.0, "min_aspect_ratio": None, "max_shear_ratio": 0.0,
    "max_crop_size": -1, "min_crop_size": -1, "max_random_scale": 1.0, "min_random_scale": 1.0,
    "max_random_area": 1.0, "min_random_area": 1.0, "max_img_size": 1e10, "min_img_size": 0.0,
    "brightness": 0.0, "contrast": 0.0, "saturation": 0.0, "pca_noise": 0.0, "random_h": 0,
    "random_s": 0, "random_l": 0, "rotate": -1, "mean_img": "", "max_random_contrast": 0.0,
    "max_random_illumination": 0.0,
}
_OUT_DTYPES = {"float32": np.float32, "float16": np.float16, "float64": np.float64,
               "int32": np.int32, "int64": np.int64, "int8": np.int8, "uint8": np.uint8}


def _is_default(key, value):
    default = _UNSUPPORTED[key]
    if value is None or default is None:
        return value in (None, "None") and default is None
    if isinstance(default, str):
        return str(value) == default
    if isinstance(default, bool):
        return parse_bool(value, key) == default
    return parse_float(value, key) == float(default)


def _read_imglist(path, label_width):
    labels = {}
    with open(path) as f:
        for line in f:
            parts = line.strip().split("\t")
            if len(parts) < 2 + label_width - 1:
                continue
            labels[int(float(parts[0]))] = np.array([float(v) for v in parts[1:1 + label_width]],
                                                    np.float32)
    return labels


class ImageRecordIter(MXDataIter):
    """Batches of images from a RecordIO file (``.rec``, packed by im2rec or ``recordio.pack``).

    Every record is decoded (JPEG, PNG, ...), optionally resized so its shorter side is
    ``resize``, padded by ``pad`` pixels of ``fill_value``, enlarged if still smaller than
    ``data_shape``, cropped to ``data_shape`` (in the centre, or at a random place with
    ``rand_crop``), mirrored (``mirror``, or at random with ``rand_mirror``) and normalised as
    ``(pixel - mean) * (scale / std)`` per channel (``mean_r/g/b``, ``std_r/g/b``). The data
    is (batch, channels, height, width), RGB, float32; labels are (batch,) or
    (batch, label_width).

    ``preprocess_threads`` threads decode and augment; ``prefetch_buffer`` batches are kept
    ready. ``shuffle`` reshuffles the records on every pass (seeded by ``seed``, not in
    1.9.1's order). ``num_parts`` / ``part_index`` read one share of the file. With
    ``round_batch`` (default) the last batch is completed from the start and its ``pad`` says
    how many; without it the last batch is short, zero-filled, and reports pad 0 as 1.9.1 does.

    Not implemented (NotImplementedError when set): the affine, colour and random-size
    augmenters (``max_rotate_angle``, ``random_resized_crop``, ``brightness``, ...) and
    ``mean_img``. All arguments are keywords.
    """

    _default_dtype = "float32"
    _normalize = True

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        if args:
            raise TypeError(f"{name} can only accept keyword arguments")
        for key, value in kwargs.items():
            if key in _UNSUPPORTED and not _is_default(key, value):
                raise NotImplementedError(f"{name}: the option {key}={value!r} is not supported "
                                          "by this implementation")
        get = kwargs.get
        path = parse_str(get("path_imgrec", ""), "path_imgrec")
        if not path:
            raise MXNetError(f"{name}: path_imgrec must be given")
        data_shape = parse_shape(required(kwargs, "data_shape", "Shape(tuple)", name), "data_shape")
        if len(data_shape) != 3 or data_shape[0] not in (1, 3):
            raise MXNetError(f"{name}: data_shape must be (channels, height, width) with 1 or 3 "
                             f"channels, got {data_shape}")
        dtype = get("dtype", None)
        dtype = self._default_dtype if dtype in (None, "None") else np.dtype(dtype).name
        if dtype not in _OUT_DTYPES:
            raise MXNetError(f"{name}: unsupported dtype {dtype}")
        p = {
            "data_shape": data_shape,
            "batch_size": parse_int(required(kwargs, "batch_size", "int (non-negative)", name),
                                    "batch_size"),
            "label_width": parse_int(get("label_width", 1), "label_width"),
            "preprocess_threads": parse_int(get("preprocess_threads", 4), "preprocess_threads"),
            "resize": parse_int(get("resize", -1), "resize"),
            "rand_crop": parse_bool(get("rand_crop", False), "rand_crop"),
            "rand_mirror": parse_bool(get("rand_mirror", False), "rand_mirror"),
            "mirror": parse_bool(get("mirror", False), "mirror"),
            "pad": parse_int(get("pad", 0), "pad"),
            "fill_value": parse_int(get("fill_value", 255), "fill_value"),
            "inter_method": parse_int(get("inter_method", 1), "inter_method"),
            "seed": parse_int(get("seed", 0), "seed"),
            "scale": parse_float(get("scale", 1.0), "scale"),
            "normalize": self._normalize,
            "out_dtype": _OUT_DTYPES[dtype],
        }
        seed_aug = get("seed_aug", None)
        p["seed_aug"] = p["seed"] if seed_aug in (None, "None") else parse_int(seed_aug, "seed_aug")
        for key, default in (("mean_r", 0.0), ("mean_g", 0.0), ("mean_b", 0.0), ("std_r", 1.0),
                             ("std_g", 1.0), ("std_b", 1.0)):
            p[key] = parse_float(get(key, default), key)
        if p["batch_size"] <= 0:
            raise MXNetError(f"{name}: batch_size must be positive, got {p['batch_size']}")
        if p["inter_method"] not in (0, 1, 2, 3, 4, 9, 10):
            raise MXNetError(f"invalid inter_method: valid value 0,1,2,3,9,10, got {p['inter_method']}")
        num_parts = parse_int(get("num_parts", 1), "num_parts")
        part_index = parse_int(get("part_index", 0), "part_index")
        if num_parts <= 0 or not 0 <= part_index < num_parts:
            raise MXNetError(f"{name}: invalid part_index {part_index} of num_parts {num_parts}")
        shuffle = parse_bool(get("shuffle", False), "shuffle")
        source = _RecordSource(path, parse_str(get("path_imgidx", ""), "path_imgidx"), num_parts,
                               part_index, shuffle, p["seed"])
        batcher = _RecordBatcher(source, p["batch_size"],
                                 parse_bool(get("round_batch", True), "round_batch"))
        imglist = parse_str(get("path_imglist", ""), "path_imglist")
        labels = _read_imglist(imglist, p["label_width"]) if imglist else None
        loader = _ImageRecordLoader(p, batcher, labels)
        prefetch = max(1, parse_int(get("prefetch_buffer", 4), "prefetch_buffer"))
        super().__init__(loader, data_name=get("data_name", "data"),
                         label_name=get("label_name", "softmax_label"), prefetch_buffer=prefetch)


class ImageRecordUInt8Iter(ImageRecordIter):
    """:class:`ImageRecordIter` giving the cropped pixels as uint8, without normalisation."""

    _default_dtype = "uint8"
    _normalize = False


class ImageRecordInt8Iter(ImageRecordIter):
    """:class:`ImageRecordIter` giving normalised values cast to int8 (truncated, clamped)."""

    _default_dtype = "int8"
