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

The shuffled order is 1.9.1's (``std::shuffle`` with ``std::mt19937(111 + seed)``, a new
permutation at every pass; without ``path_imgidx`` 1.9.1 reads the part 8 MiB at a time and
shuffles each such chunk apart, the engine running on: :func:`_read_chunks`). The random
augmentation draws are 1.9.1's too (``_StdEngine``: std::mt19937 with libstdc++'s
distributions; ``seed`` does not touch them): without ``seed_aug``, one engine seeded 111
(1.9.1's single decoding thread) runs on over the images and across passes, after the
``mean_img`` pass if there is one -- the batches take turns on it, so the result does not
depend on our thread count; with ``seed_aug``, every image gets a fresh engine seeded ``111 +
seed_aug + n``, n its place in its chunk plus how full the batch was when the chunk began
(``batch_size`` when shuffling and in the ``mean_img`` pass), or, with ``path_imgidx``, its
slot in the batch (see :meth:`_RecordBatcher._note`). Per image, in 1.9.1's order: the affine
warp (shear, angle, scale, aspect; interpolation), the random-size crop (area, aspect, swap
coin per try, then y, x), the crop-size crop, the plain crop's y and x, brightness / contrast /
saturation (all three factors, then a std::shuffle of their order), the HSL shift (applied
after the jitter; all three shifts drawn when one is asked for, two floats ``a``, ``b`` each,
the shift being ``trunc((a + 4 b) / 5 * 2 R - R)``), PCA lighting
(std::normal_distribution<float>), the mirror coin (std::bernoulli_distribution) and the two
always-drawn contrast / illumination factors. When shuffling without ``seed_aug``, 1.9.1
augments each chunk in file order and then hands its images out shuffled; so do we
(:class:`_ChunkDraws`: the draws of a chunk are recorded ahead in file order from the image
sizes, read once from the image headers, with the augmenter running on :class:`_Dims`, and
replayed when each image comes). Equal to 1.9.1 in the tested cases
(tests/test_compat_sweep_iter_aug.py, tests/test_compat_sweep_iter_aug2.py). Still ours: with
``path_imgidx`` and ``seed_aug``, the batches after a computed ``mean_img`` (1.9.1 numbers them
otherwise), the draws spent by batches 1.9.1 prefetched and threw away on a ``reset()`` in
mid-pass on a file of several chunks (timing-dependent there; ours spends the draws of the whole
pass left early, whatever our loader thread read ahead, so the next pass gets what it gets
after a full pass -- which is 1.9.1's result on a file of one chunk; on files over 256 MiB it
depends on the read-ahead, as 1.9.1's on its timing) and 1.9.1's several-thread
split of the stream. Without random augmentation the batches equal 1.9.1's bit for bit in the
tested cases (PNG and baseline JPEG; a JPEG decoded by a differently built libjpeg may differ by
a grey level here and there).
"""
from __future__ import annotations

import bisect
import collections
import io as _io
import os
import struct
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..base import MXNetError, native_log
from . import _image_aug as _aug
from ._native import RawBatch, parse_bool, parse_float, parse_int, parse_shape, parse_str, required
from .io import MXDataIter

__all__ = ["ImageRecordIter", "ImageRecordUInt8Iter", "ImageRecordInt8Iter"]

_MAGIC = 0xCED7230A
_LEN_MASK = (1 << 29) - 1


def _kernels():
    """The NumPy image kernels (decode with Pillow, OpenCV-exact resize)."""
    from ..gluon.data.vision import _image
    return _image


class _Dims:
    """The size of an image without its pixels: the augmenter's steps run on it to replay
    their random draws only (see :meth:`_Augmenter.draw_words`)."""

    __slots__ = ("shape",)
    ndim = 3

    def __init__(self, rows, cols, channels):
        self.shape = (rows, cols, channels)

    def __getitem__(self, key):
        ys, xs = key[0], key[1]
        return _Dims(len(range(*ys.indices(self.shape[0]))),
                     len(range(*xs.indices(self.shape[1]))), self.shape[2])


def _resize_bgr(img, w, h, interp):
    """Resize an (H, W, C) image as 1.9.1 does on OpenCV's BGR copy: the channel order
    matters to bicubic, whose SIMD kernel treats the row's last few values apart."""
    if isinstance(img, _Dims):
        return _Dims(int(h), int(w), img.shape[2])
    if img.shape[2] == 3:
        return _kernels().resize(img[:, :, ::-1], w, h, interp)[:, :, ::-1]
    return _kernels().resize(img, w, h, interp)


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


_CHUNK_BYTES = 8 << 20


def _read_chunks(offsets, end):
    """The record ranges [(first, stop)] 1.9.1 shuffles apart when it shuffles a .rec file
    without an index: it reads 8 MiB at a time and keeps the records before the last one that
    starts in the buffer (that one begins the next read); a read that reaches the part's end
    keeps everything."""
    starts = np.asarray(offsets, np.int64)
    chunks, i, n = [], 0, len(starts)
    while i < n:
        limit = int(starts[i]) + _CHUNK_BYTES
        if end <= limit:
            chunks.append((i, n))
            break
        j = int(np.searchsorted(starts, limit, side="left")) - 1  # the last start in the buffer
        j = max(j, i + 1)
        chunks.append((i, j))
        i = j
    return chunks


def _std_shuffle(mt, n):
    """``arange(n)`` permuted as 1.9.1's record shuffling does it: libstdc++'s ``std::shuffle``
    (one swap per position ``i = 1 .. n-1``, no paired draws) with its division-based
    ``uniform_int_distribution``: ``scale = (2**32 - 1) // (i + 1)``, words ``>= (i + 1) *
    scale`` rejected, ``j = word // scale``. ``mt`` is the std::mt19937 (NumPy's legacy
    MT19937 bit generator seeded alike), advanced as 1.9.1's is."""
    if n <= 1:
        return np.arange(n)
    ue = np.arange(2, n + 1, dtype=np.uint64)           # i + 1 for i = 1 .. n-1
    scale = np.uint64(0xFFFFFFFF) // ue
    past = ue * scale
    js = np.empty(n - 1, dtype=np.int64)
    pos, block = 0, 1 << 14
    pending = np.zeros(0, dtype=np.uint64)     # words drawn ahead, not yet used
    while pos < n - 1:      # blocks, so that a rare rejected word redoes only its block
        need = min(n - 1, pos + block) - pos
        if len(pending) < need:
            w = np.concatenate([pending, mt.random_raw(need - len(pending)).astype(np.uint64)])
            pending = pending[:0]
        else:
            w, pending = pending[:need], pending[need:]
        bad = np.flatnonzero(w >= past[pos:pos + need])
        k = need if bad.size == 0 else int(bad[0])
        js[pos:pos + k] = (w[:k] // scale[pos:pos + k]).astype(np.int64)
        pos += k
        if bad.size:        # word k is rejected: position pos draws again from the next one
            pending = np.concatenate([w[k + 1:], pending])
    a = list(range(n))
    for i, j in zip(range(1, n), js.tolist()):
        a[i], a[j] = a[j], a[i]
    return np.array(a, dtype=np.int64)


class _StdEngine:
    """A ``std::mt19937`` with libstdc++'s distributions, as 1.9.1's image augmenter draws from
    it (NumPy's MT19937 seeded with an integer is the same generator). The method names follow
    ``numpy.random.Generator`` so the augmenter's code works with either."""

    __slots__ = ("_bg", "_buf", "_i")
    _local = threading.local()

    def __init__(self, seed, scratch=False):
        """``scratch``: reseed this thread's reusable generator (much cheaper than a new one);
        only for an engine used up before the thread makes its next scratch engine."""
        if scratch:
            rs = getattr(self._local, "rs", None)
            if rs is None:
                rs = self._local.rs = np.random.RandomState()
            rs.seed(seed & 0xFFFFFFFF)
            self._bg = rs._bit_generator
        else:
            self._bg = np.random.RandomState(seed & 0xFFFFFFFF)._bit_generator
        self._buf = []
        self._i = 0

    def u32(self):
        if self._i >= len(self._buf):
            self._buf = self._bg.random_raw(16).tolist()
            self._i = 0
        self._i += 1
        return self._buf[self._i - 1]

    def words(self, n):
        """The next ``n`` raw 32-bit words (a list), for a caller that draws ahead."""
        i = self._i
        if i + n <= len(self._buf):
            self._i = i + n
            return self._buf[i:i + n]
        out = self._buf[i:]
        out += self._bg.random_raw(n - len(out)).tolist()
        self._buf = []
        self._i = 0
        return out

    def unread(self, words):
        """Put ``words`` (the last ones read, in order) back: the next draws repeat them."""
        if words:
            self._buf = list(words) + self._buf[self._i:]
            self._i = 0

    @staticmethod
    def canonical(words):
        """float32 canonical values of raw words, as :meth:`random` makes them."""
        v = np.asarray(words, np.float64).astype(np.float32) * np.float32(2.0 ** -32)
        return np.where(v < 1, v, np.float32(1 - 2.0 ** -24)).astype(np.float32)

    def integers(self, lo, hi):
        """``std::uniform_int_distribution(lo, hi - 1)``: libstdc++'s divide-and-reject."""
        span = hi - lo
        scale = 0xFFFFFFFF // span
        limit = span * scale
        while True:
            r = self.u32()
            if r < limit:
                return lo + r // scale

    def random(self):
        """``std::generate_canonical<float, 24>``: one 32-bit draw over 2**32, in float32."""
        v = np.float32(self.u32()) * np.float32(2.0 ** -32)
        return v if v < 1 else np.float32(1 - 2.0 ** -24)

    def uniform(self, lo, hi):
        """``std::uniform_real_distribution<float>(lo, hi)``."""
        return self.random() * (np.float32(hi) - np.float32(lo)) + np.float32(lo)

    def bernoulli(self):
        """``std::bernoulli_distribution(0.5)``: a 64-bit canonical double below one half."""
        lo = self.u32()
        return (lo + self.u32() * 4294967296.0) * 2.0 ** -64 < 0.5

    def normal(self, mean, std, n):
        """``n`` draws of one ``std::normal_distribution<float>`` (Marsaglia's polar method,
        the second value of each pair kept for the next draw)."""
        out, saved = [], None
        one, two = np.float32(1), np.float32(2)
        for _ in range(n):
            if saved is not None:
                out.append(saved)
                saved = None
                continue
            while True:
                x = two * self.random() - one
                y = two * self.random() - one
                r2 = x * x + y * y
                if 0 < r2 <= 1:
                    break
            mult = np.sqrt(np.float32(-2) * np.log(r2) / r2)
            saved = x * mult
            out.append(y * mult)
        return np.array(out, np.float32) * np.float32(std) + np.float32(mean)


class _Recorder(_StdEngine):
    """Draws from another engine and keeps the raw words it took (``log``)."""

    __slots__ = ("_src", "log")

    def __init__(self, src):
        self._src = src
        self.log = []

    def u32(self):
        w = self._src.u32()
        self.log.append(w)
        return w


class _Replay(_StdEngine):
    """An engine that gives back recorded words (see :meth:`_Augmenter.draw_words`)."""

    __slots__ = ()

    def __init__(self, words):
        self._buf = list(words)
        self._i = 0
        self._bg = None

    def u32(self):
        if self._i >= len(self._buf):   # pragma: no cover - the recording covers every draw
            raise MXNetError("ImageRecordIter: internal error: an image drew more random numbers "
                             "than its recorded draws")
        self._i += 1
        return self._buf[self._i - 1]


def _hls_draw(rng, limit):
    """One HSL shift in ``[-limit, limit]`` as 1.9.1 draws it: two canonical floats ``a``, ``b``
    make ``u = (a + 4 b) / 5``, the shift is ``u * 2 limit - limit`` truncated toward zero
    (found by experiment; the double arithmetic matches where float32 would round otherwise)."""
    a = float(rng.random())
    b = float(rng.random())
    return int((a + 4.0 * b) / 5.0 * (2.0 * limit) - limit)


class _RecordSource:
    """The records of one part of a .rec file, in file order or shuffled on every pass."""

    def __init__(self, path, path_idx, num_parts, part_index, shuffle, seed, magic=111):
        recordio = _recordio()
        for f in (path, path_idx):
            if f and not os.path.isfile(f):
                raise MXNetError(f"LocalFileSystem.GetPathInfo: {f} error: No such file or directory")
        self.shuffle = shuffle
        self.seed = seed
        self.magic = magic        # the shuffling engine's seed is magic + seed
        self.passes = 0
        self._mt = None           # 1.9.1's shuffling engine: std::mt19937(111 + seed)
        self.offsets = None       # explicit record offsets (idx file or shuffling)
        self.chunks = None        # [(first, stop)] record ranges shuffled apart (see _read_chunks)
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
                self.chunks = _read_chunks(self.offsets, self.end)
        self.reader = recordio.MXRecordIO(path, "r")
        self._chunk_firsts = [a for a, _ in self.chunks] if self.chunks else None
        self._chunk_start = self.begin
        self.chunk_new = False    # whether the record last read begins one of 1.9.1's chunks
        self.chunk_pos = 0        # and its place in that chunk (file order)
        self._order = None
        self._pos = 0
        self.index = -1   # the file position (within the part) of the record last read
        self.before_first()

    def before_first(self):
        if self.offsets is not None:
            order = np.arange(len(self.offsets))
            if self.shuffle:
                if self._mt is None:
                    self._mt = np.random.RandomState((self.magic + self.seed)
                                                     & 0xFFFFFFFF)._bit_generator
                if self.chunks is None:
                    order = _std_shuffle(self._mt, len(order))
                else:   # each chunk apart, one engine running on
                    order = np.concatenate([_std_shuffle(self._mt, b - a) + a
                                            for a, b in self.chunks] or [order])
            self._order = order
            self._pos = 0
        else:
            self.reader.handle.seek(self.begin)
        self.index = -1
        self._chunk_start = self.begin
        self.passes += 1

    def rewind(self):
        """Back to the start of the current pass, in the same order (no new shuffle)."""
        if self.offsets is not None:
            self._pos = 0
        else:
            self.reader.handle.seek(self.begin)
        self.index = -1
        self._chunk_start = self.begin

    def next(self):
        """The next record's bytes, or None at the end of the part."""
        if self.offsets is not None:
            if self._pos >= len(self._order):
                return None
            self.index = int(self._order[self._pos])
            offset = self.offsets[self.index]
            self._pos += 1
            self.reader.handle.seek(offset)
            rec = self.reader.read()
            if rec is None:
                raise MXNetError(f"Invalid RecordIO index: offset {offset} is past the end of the file")
            self.chunk_new = False
            self.chunk_pos = self.index
            if self.chunks is not None:
                self.chunk_pos -= self.chunks[bisect.bisect_right(self._chunk_firsts, self.index) - 1][0]
            return rec
        pos = self.reader.tell()
        if pos >= self.end:
            return None
        self.index += 1
        rec = self.reader.read()
        # 1.9.1's 8 MiB reads (see _read_chunks), followed record by record: a record begins
        # a new chunk when the record after it starts past the current chunk's first 8 MiB
        limit = self._chunk_start + _CHUNK_BYTES
        if self.index == 0:
            self.chunk_new, self.chunk_pos = True, 0
        elif self.end > limit and self.reader.tell() >= limit:
            self.chunk_new, self.chunk_pos = True, 0
            self._chunk_start = pos
        else:
            self.chunk_new = False
            self.chunk_pos += 1
        return rec

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
        self.indices = []   # the file positions of the last batch's records
        self.pass_ids = []  # and the passes they were read in
        self.aug_indices = []   # and the indices 1.9.1 seeds their seed_aug engines with
        self._fill = 0      # how full the batch was when the current chunk began

    def before_first(self):
        if not self.round_batch or not self.overflow:
            self.source.before_first()
        self.overflow = False

    def _note(self, fill):
        """The seed_aug index of the record just read (``fill``: records already in the batch).
        1.9.1 numbers the records of each chunk it reads from the batch's fill level at the
        chunk's start (from ``batch_size`` when shuffling)."""
        src = self.source
        if src.offsets is not None and src.chunks is None:
            # with an index file 1.9.1 reads a batch's worth of records at a time: the index
            # is the record's slot in the batch (shuffled or not)
            self.aug_indices.append(fill)
            return
        if src.shuffle:
            self.aug_indices.append(self.batch_size + src.chunk_pos)
            return
        if src.chunk_new:
            self._fill = fill
        self.aug_indices.append(self._fill + src.chunk_pos)

    def next(self):
        if self.overflow:
            return None
        records = []
        self.indices = indices = []
        self.pass_ids = pass_ids = []
        self.aug_indices = []
        while len(records) < self.batch_size:
            rec = self.source.next()
            if rec is None:
                break
            self._note(len(records))
            records.append(rec)
            indices.append(self.source.index)
            pass_ids.append(self.source.passes)
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
                self._note(len(records))
                records.append(rec)
                indices.append(self.source.index)
                pass_ids.append(self.source.passes)
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
        a = {key: p.get(key, default) for key, default in AUG_DEFAULTS.items()}
        self.a = a
        self.mean_img = p.get("mean_img_array")
        lo = a["min_aspect_ratio"]
        hi = a["max_aspect_ratio"]
        self.aspect_range = (1 - hi, 1 + hi) if lo is None else (lo, hi)
        # (with random_resized_crop the scale and aspect options belong to the crop: only a
        # rotation or shear warps then)
        self.affine = (a["max_rotate_angle"] > 0 or a["max_shear_ratio"] > 0 or a["rotate"] > 0
                       or (not a["random_resized_crop"] and (
                           a["max_random_scale"] != 1 or a["min_random_scale"] != 1
                           or a["max_aspect_ratio"] != 0 or a["max_img_size"] != 1e10
                           or a["min_img_size"] != 0)))
        # 1.9.1 skips the random-size crop when it could only take the whole image as is
        self.resized_crop = a["random_resized_crop"] and (
            a["max_random_area"] != 1 or a["min_random_area"] != 1 or self.aspect_range != (1, 1))
        self.hls = bool(a["random_h"] or a["random_s"] or a["random_l"])
        self.jitter = a["brightness"] > 0 or a["contrast"] > 0 or a["saturation"] > 0

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

    def _resize(self, img, w, h, rng, interp=None):
        if interp is None:
            interp = self._interp(self.p["inter_method"], img.shape[1], img.shape[0], w, h, rng)
        return _resize_bgr(img, w, h, interp)

    def _affine(self, img, rng):
        a = self.a
        ms = np.float32(a["max_shear_ratio"])
        shear = np.float32(rng.random()) * ms * np.float32(2) - ms
        angle = int(rng.integers(-a["max_rotate_angle"], a["max_rotate_angle"] + 1))
        if a["rotate"] > 0:
            angle = a["rotate"]
        scale = ratio = 1.0
        if not a["random_resized_crop"]:
            lo, hi = a["min_random_scale"], a["max_random_scale"]
            scale = rng.random() * (hi - lo) + lo
            lo, hi = self.aspect_range
            ratio = rng.random() * (hi - lo) + lo
        rows, cols = img.shape[:2]
        m, new_w, new_h = _aug.affine_matrix(angle, shear, scale, ratio, rows, cols,
                                             a["min_img_size"], a["max_img_size"])
        fw = max(np.float32(a["min_img_size"]), min(np.float32(a["max_img_size"]), np.float32(scale) * cols))
        fh = max(np.float32(a["min_img_size"]), min(np.float32(a["max_img_size"]), np.float32(scale) * rows))
        interp = self._interp(self.p["inter_method"], cols, rows, fw, fh, rng)
        if isinstance(img, _Dims):
            return _Dims(max(int(new_h), 0), max(int(new_w), 0), img.shape[2])
        return _aug.warp_affine(img, m, new_w, new_h, interp, self.p["fill_value"])

    def _resized_crop(self, img, rng):
        """The random-size crop: area fraction and log-uniform aspect, ten tries."""
        a = self.a
        rows, cols = img.shape[:2]
        lo, hi = self.aspect_range
        if lo <= 0 or hi <= 0:
            raise MXNetError(f"ImageRecordIter: random_resized_crop needs a positive aspect ratio "
                             f"range, got [{lo}, {hi}] (min_aspect_ratio, max_aspect_ratio)")
        area = rows * cols
        area = np.float32(area)
        for _ in range(10):
            # as 1.9.1: three float draws a try (area fraction, aspect ratio -- uniform, not
            # log-uniform --, and a coin that swaps width and height), then y and x
            frac = rng.uniform(a["min_random_area"], a["max_random_area"])
            ratio = rng.uniform(lo, hi)
            swap = rng.random() >= 0.5
            w = int(np.floor(np.sqrt(area * frac * ratio) + np.float32(0.5)))
            h = int(np.floor(np.sqrt(area * frac / ratio) + np.float32(0.5)))
            if swap:
                w, h = h, w
            if 0 < w <= cols and 0 < h <= rows:
                y = int(rng.integers(0, rows - h + 1))
                x = int(rng.integers(0, cols - w + 1))
                interp = self._interp(self.p["inter_method"], w, h, self.crop_w, self.crop_h, rng)
                return _resize_bgr(img[y:y + h, x:x + w], self.crop_w, self.crop_h, interp)
        return None

    def _size_crop(self, img, rng):
        a = self.a
        lo, hi = a["min_crop_size"], a["max_crop_size"]
        rows, cols = img.shape[:2]
        if not (cols >= hi and rows >= hi and hi >= lo):
            raise MXNetError(f"ImageRecordIter: input image size smaller than max_crop_size "
                             f"(image {cols}x{rows}, min_crop_size={lo}, max_crop_size={hi})")
        size = int(rng.integers(lo, hi + 1))
        y, x = rows - size, cols - size
        if self.p["rand_crop"]:
            y, x = int(rng.integers(0, y + 1)), int(rng.integers(0, x + 1))
        else:
            y, x = y // 2, x // 2
        interp = self._interp(self.p["inter_method"], size, size, self.crop_w, self.crop_h, rng)
        return _resize_bgr(img[y:y + size, x:x + size], self.crop_w, self.crop_h, interp)

    def _plain_crop(self, img, rng):
        ch, cw = self.crop_h, self.crop_w
        rows, cols = img.shape[:2]
        # enlarge so that the crop fits: as 1.9.1, first to the crop's height, then (if still
        # too narrow) to its width, each keeping the aspect ratio
        # (with inter_method 10, 1.9.1 draws the method once, whether it enlarges or not)
        drawn = int(rng.integers(0, 5)) if self.p["inter_method"] == 10 else None
        if rows < ch:
            img = self._resize(img, cols * ch // rows, ch, rng, drawn)
            rows, cols = img.shape[:2]
        if cols < cw:
            img = self._resize(img, cw, rows * cw // cols, rng, drawn)
            rows, cols = img.shape[:2]
        y, x = rows - ch, cols - cw
        if self.p["rand_crop"]:
            y, x = int(rng.integers(0, y + 1)), int(rng.integers(0, x + 1))
        else:
            y, x = y // 2, x // 2
        return img[y:y + ch, x:x + cw]

    def _check_inter(self):
        if self.p["inter_method"] not in (1, 2, 3, 4, 9, 10):
            raise MXNetError(f"ImageRecordIter: invalid inter_method: valid value 1,2,3,4,9,10 when "
                             f"resizing or warping, got {self.p['inter_method']}")

    def augment(self, img, rng):
        """The default augmenter on one decoded (H, W, C) uint8 image: resize, affine warp, pad,
        crop (random-size / crop-size / plain), colour jitter, HSL shift (after the jitter,
        as 1.9.1), PCA lighting."""
        p, a = self.p, self.a
        if a["random_resized_crop"] and (
                a["min_random_scale"] != 1 or a["max_random_scale"] != 1
                or a["min_crop_size"] != -1 or a["max_crop_size"] != -1 or p["rand_crop"]):
            raise MXNetError("ImageRecordIter: random_resized_crop=True conflicts with "
                             "min_random_scale, max_random_scale, min_crop_size, max_crop_size "
                             f"and rand_crop (got min/max_random_scale {a['min_random_scale']}/"
                             f"{a['max_random_scale']}, min/max_crop_size {a['min_crop_size']}/"
                             f"{a['max_crop_size']}, rand_crop {p['rand_crop']})")
        if img.ndim == 2:
            img = img[:, :, None]
        if p["resize"] > 0:
            rows, cols = img.shape[:2]
            r = p["resize"]
            if rows > cols:
                img = self._resize(img, r, r * rows // cols, rng)
            else:
                img = self._resize(img, r * cols // rows, r, rng)
        if self.affine:
            self._check_inter()
            img = self._affine(img, rng)
        if p["pad"] > 0:
            k = p["pad"]
            if isinstance(img, _Dims):
                img = _Dims(img.shape[0] + 2 * k, img.shape[1] + 2 * k, img.shape[2])
            else:
                img = np.pad(img, ((k, k), (k, k), (0, 0)), constant_values=p["fill_value"])
        crop = None
        if self.resized_crop:
            crop = self._resized_crop(img, rng)
        elif a["max_crop_size"] != -1 or a["min_crop_size"] != -1:
            crop = self._size_crop(img, rng)
        if crop is None:
            crop = self._plain_crop(img, rng)
        dry = isinstance(crop, _Dims)
        if self.jitter:
            # 1.9.1 draws all three factors whenever one is asked for, then applies them in
            # a random order (std::shuffle of the three steps: one swap per position)
            factors = [np.float32(1) + rng.uniform(-v, v) for v in
                       (a["brightness"], a["contrast"], a["saturation"])]
            order = [0, 1, 2]
            for i in (1, 2):
                j = int(rng.integers(0, i + 1))
                order[i], order[j] = order[j], order[i]
            for step in order if not dry else ():
                one = [1, 1, 1]
                one[step] = factors[step]
                crop = _aug.color_jitter(crop, *one)
        if self.hls:
            if crop.shape[2] != 3:
                raise MXNetError("ImageRecordIter: random_h/random_s/random_l need 3-channel "
                                 f"images, got {crop.shape[2]} channel(s)")
            # as 1.9.1: all three shifts are drawn whenever one is asked for, two floats
            # each (hue, saturation, lightness), weighted 1:4 into one uniform value
            dh, ds, dl = (_hls_draw(rng, v) for v in (a["random_h"], a["random_s"], a["random_l"]))
            if not dry:
                crop = _aug.hls_shift(crop, dh, dl, ds)
        if a["pca_noise"] > 0:
            alpha = rng.normal(0, a["pca_noise"], 3)
            if not dry:
                crop = _aug.pca_lighting(crop, alpha)
        return crop

    def process(self, buf, out, rng):
        self.finish(self.decode(buf), out, rng)

    def _finish_draws(self, dtype, rng):
        """1.9.1's order: the mirror coin (only with rand_mirror), then the contrast and the
        illumination factors (always drawn, except for uint8 output; used when normalising)."""
        p = self.p
        mirror = bool(p["rand_mirror"] and rng.bernoulli()) or p["mirror"]
        mc, mi = np.float32(self.a["max_random_contrast"]), np.float32(self.a["max_random_illumination"])
        contrast = illumination = None
        if dtype != np.uint8:
            contrast = np.float32(rng.random() * mc * np.float32(2) - mc + np.float32(1))
            illumination = np.float32(rng.random() * mi * np.float32(2) - mi)
        return mirror, contrast, illumination, mc, mi

    def random(self):
        """Whether a drawn number can change the output."""
        p, a = self.p, self.a
        return bool(p["rand_crop"] or p["rand_mirror"] or self.affine or self.resized_crop
                    or a["max_crop_size"] != a["min_crop_size"] or p["inter_method"] == 10
                    or self.jitter or self.hls or a["pca_noise"] > 0
                    or (p["normalize"] and (a["max_random_contrast"] or a["max_random_illumination"])))

    def draw_words(self, rows, cols, dtype, engine):
        """The raw words one image of ``rows`` x ``cols`` takes from ``engine`` (its draws
        made without the pixel work), for replaying them later with :class:`_Replay`."""
        rec = _Recorder(engine)
        crop = _Dims(rows, cols, self.channels)
        for _ in range(self.p.get("aug_passes", 1)):
            crop = self.augment(crop, rec)
        self._finish_draws(dtype, rec)
        return rec.log

    def finish(self, crop, out, rng):
        """Augment, mirror and normalise one decoded image into its batch slot ``out``."""
        p = self.p
        for _ in range(p.get("aug_passes", 1)):
            crop = self.augment(crop, rng)
        mirror, contrast, illumination, mc, mi = self._finish_draws(out.dtype, rng)
        chw = crop.transpose(2, 0, 1)
        if out.dtype == np.int8 and self.mean_img is None:
            # 1.9.1's int8 output: the pixel minus the mean rounded (half away from zero) to an
            # integer, saturated to [-128, 127]; std and scale are not used
            mean = np.trunc(self.mean + np.copysign(np.float32(0.5), self.mean))
            val = np.clip(chw.astype(np.float32) - mean, -128, 127)
            out[...] = val[:, :, ::-1] if mirror else val
            return
        if not (self.normalize and (mc or mi)):
            contrast = None
        if not self.normalize or (self.identity and contrast is None and self.mean_img is None):
            out[...] = chw[:, :, ::-1] if mirror else chw
            return
        mean = self.mean if self.mean_img is None else self.mean_img
        val = chw.astype(np.float32) - mean
        if contrast is not None:
            val = val * contrast + illumination
        val *= self.factor
        if mirror:
            val = val[:, :, ::-1]
        if out.dtype.kind in "iu":
            info = np.iinfo(out.dtype)
            val = np.trunc(np.clip(val, info.min, info.max))
        out[...] = val


# Spending the draws of a pass left early reads the headers of its remaining records (~27 us an
# image): done for record files (or parts) of up to this many bytes; on larger ones a reset in
# mid-pass leaves the next pass's draws depending on how far the loader had read ahead, as in
# 1.9.1 (where they depend on its prefetch timing).
_SPEND_MAX_BYTES = 256 << 20


def _spend_allowed(source):
    """Whether a pass of ``source`` left early spends its remaining draws (see above)."""
    return source.end - source.begin <= _SPEND_MAX_BYTES


class _PassDraws:
    """What a shuffled pass draws for each file position, made ahead chunk by chunk in file
    order (1.9.1 augments each chunk it reads in file order and hands its images out shuffled).
    ``draw_chunk(first, stop)`` yields the draws of the positions [first, stop) in order; a
    chunk is drawn when a position in it is first asked for in the pass, together with the
    chunks before it that are not drawn yet.

    A pass left early (a ``reset()`` in mid-pass) still spends the draws of all its chunks, and
    so does a pass that was begun and never read from: they are drawn (and dropped) when a later
    pass is first asked for. How far the loader thread had read ahead before the reset then
    does not matter: a pass's draws depend only on the passes before it, and equal those it gets
    when the passes before it are read to the end."""

    def __init__(self, source, draw_chunk):
        self.source, self.draw_chunk = source, draw_chunk
        self._starts = [a for a, _ in source.chunks]
        self._state = (None, -1, {})   # (pass, last chunk drawn, {file position: draws})

    def _spend(self, first_chunk):
        """Draw (and drop) the chunks from ``first_chunk`` to the end of the file."""
        for a, b in self.source.chunks[first_chunk:]:
            for _ in self.draw_chunk(a, b):
                pass

    def get(self, pass_id, index):
        """The draws of the record at file position ``index`` in pass ``pass_id``."""
        chunks = self.source.chunks
        c = bisect.bisect_right(self._starts, index) - 1
        if self._state[0] != pass_id:
            last, done, _ = self._state
            if last is not None and pass_id > last and _spend_allowed(self.source):
                self._spend(done + 1)               # the rest of the pass left early
                for _ in range(last + 1, pass_id):  # passes begun and never read from
                    self._spend(0)
            self._state = (pass_id, -1, {})
        _, done, draws = self._state
        for k in range(done + 1, c + 1):
            if k >= 2:   # the shuffled order goes chunk by chunk: older draws are not needed
                for pos in range(*chunks[k - 2]):
                    draws.pop(pos, None)
            a, b = chunks[k]
            for pos, d in enumerate(self.draw_chunk(a, b), a):
                draws[pos] = d
        if c > done:
            self._state = (pass_id, c, draws)
        return draws[index]


class _ChunkDraws:
    """The random draws of a shuffled pass without ``seed_aug``, as 1.9.1 makes them: it
    augments each chunk it reads (see :func:`_read_chunks`) in file order and then hands the
    images out shuffled. So each chunk's draws are recorded ahead in file order from the image
    sizes (read once, from the image headers; the augmenter runs on :class:`_Dims`) and
    replayed (:class:`_Replay`) when the images come."""

    def __init__(self, aug, source, engine, dtype):
        self.aug, self.source, self.engine, self.dtype = aug, source, engine, dtype
        self._dims = np.full((len(source.offsets), 2), -1, np.int64)
        self._words = _PassDraws(source, self._draw_chunk)

    def _image_dims(self, first, stop):
        """(rows, cols) of the images at file positions [first, stop)."""
        if self._dims[first, 0] < 0:
            src = self.source
            reader = _recordio().MXRecordIO(src.reader.uri, "r")
            try:
                for k in range(first, stop):
                    reader.handle.seek(src.offsets[k])
                    payload = _unpack(reader.read())[2]
                    try:
                        with _pil_image().open(_io.BytesIO(payload)) as im:
                            cols, rows = im.size
                    except Exception:  # noqa: BLE001 - fall back on decoding
                        rows, cols = self.aug.decode(payload).shape[:2]
                    self._dims[k] = rows, cols
            finally:
                reader.close()
        return self._dims[first:stop]

    def _draw_chunk(self, first, stop):
        for rows, cols in self._image_dims(first, stop).tolist():
            yield self.aug.draw_words(rows, cols, self.dtype, self.engine)

    def words_of(self, pass_id, index):
        """The recorded draws of the image at file position ``index`` in pass ``pass_id``:
        the chunks of a pass are drawn in file order, each when first asked for (with the ones
        before it)."""
        return self._words.get(pass_id, index)


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
        # Without seed_aug, 1.9.1's (single) decoding thread draws from one std::mt19937(111)
        # that runs on across batches and passes: the batches take turns on it (each waits
        # for the one before to finish its draws; the decoding itself overlaps).
        self.engine = p.get("_engine") or _StdEngine(111) if p["seed_aug"] is None else None
        # 1.9.1 augments a shuffled file chunk by chunk in file order and hands the images out
        # shuffled: then the draws of each chunk are recorded ahead, in file order, from the
        # image sizes (no pixel work), and replayed when the images come
        src = batcher.source
        self.draws = None
        if self.engine is not None and src.shuffle and src.chunks is not None \
                and self.aug.random():
            self.draws = _ChunkDraws(self.aug, src, self.engine, p["out_dtype"])
        self._turn = threading.Event()
        self._turn.set()
        self._dones = []   # the turns not yet given (released on close)

    def _decode_batch(self, records, pad, batch_no, indices=None, wait=None, done=None,
                      draws=None):
        p = self.p
        b = p["batch_size"]
        c, h, w = p["data_shape"]
        lw = p["label_width"]
        data = np.zeros((b, c, h, w), p["out_dtype"])
        label = np.zeros((b, lw), np.float32)
        try:
            images = [self.aug.decode(_unpack(rec)[2]) for rec in records]
            if wait is not None:
                wait.wait()
            self._augment_batch(records, indices, images, data, label, draws)
        finally:
            if done is not None:
                done.set()
        if lw == 1:
            label = label.reshape(b)
        return RawBatch(data, label, pad, np.zeros(b, np.uint64))

    def _augment_batch(self, records, indices, images, data, label, draws=None):
        p = self.p
        lw = p["label_width"]
        # with seed_aug, 1.9.1 seeds a fresh engine for every image from seed_aug and the
        # image's index (its place in its chunk, shifted: see _RecordBatcher._note)
        base = None if p["seed_aug"] is None else 111 + p["seed_aug"]
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
            if draws is not None:
                rng = _Replay(draws[i])
            elif base is None:
                rng = self.engine
            else:
                rng = _StdEngine(base + indices[i], scratch=True)
            self.aug.finish(images[i], data[i], rng)

    def before_first(self):
        # the batches under way finish (as 1.9.1's prefetched ones, their draws are spent)
        for f in self.inflight:
            f.result()
        self.inflight.clear()
        self._spend_rest_of_pass()
        self.batcher.before_first()

    def _spend_rest_of_pass(self):
        """A pass left early (``reset()`` in mid-pass) spends the draws of its images not read
        yet, in their order, on the engine the batches take turns on: how far the loader thread
        had read ahead then does not matter, and the next pass draws what it draws after a full
        pass (as 1.9.1 does on a file of one 8 MiB chunk, which it augments whole). The shuffled
        chunked case does the same in :class:`_PassDraws`."""
        if self.engine is None or self.draws is not None or self.batcher.overflow \
                or not self.aug.random() or not _spend_allowed(self.batcher.source):
            return
        src = self.batcher.source
        dtype = self.p["out_dtype"]
        while True:
            rec = src.next()
            if rec is None:
                return
            payload = _unpack(rec)[2]
            try:
                with _pil_image().open(_io.BytesIO(payload)) as im:
                    cols, rows = im.size
            except Exception:  # noqa: BLE001 - fall back on decoding
                rows, cols = self.aug.decode(payload).shape[:2]
            self.aug.draw_words(rows, cols, dtype, self.engine)

    def next(self):
        while len(self.inflight) < self.depth:
            item = self.batcher.next()
            if item is None:
                break
            wait = done = draws = None
            if self.draws is not None:
                draws = [self.draws.words_of(q, k) for q, k in
                         zip(self.batcher.pass_ids, self.batcher.indices)]
            elif self.engine is not None:
                wait, done = self._turn, threading.Event()
                self._turn = done
                self._dones = [e for e in self._dones if not e.is_set()] + [done]
            self.inflight.append(self.pool.submit(self._decode_batch, *item,
                                                  list(self.batcher.aug_indices), wait, done,
                                                  draws))
        if not self.inflight:
            return None
        return self.inflight.popleft().result()

    def close(self):
        for f in self.inflight:
            f.cancel()
        self.inflight.clear()
        for e in self._dones:   # a cancelled batch never gives its turn: let the next one go
            e.set()
        self.pool.shutdown(wait=False)
        self.batcher.source.close()


# -- the iterators ------------------------------------------------------------------------------------
# the default augmenter's options (1.9.1's names and defaults)
AUG_DEFAULTS = {
    "random_resized_crop": False, "max_rotate_angle": 0, "rotate": -1, "max_shear_ratio": 0.0,
    "max_aspect_ratio": 0.0, "min_aspect_ratio": None, "max_random_scale": 1.0,
    "min_random_scale": 1.0, "max_random_area": 1.0, "min_random_area": 1.0,
    "max_img_size": 1e10, "min_img_size": 0.0, "max_crop_size": -1, "min_crop_size": -1,
    "random_h": 0, "random_s": 0, "random_l": 0, "brightness": 0.0, "contrast": 0.0,
    "saturation": 0.0, "pca_noise": 0.0, "max_random_contrast": 0.0,
    "max_random_illumination": 0.0,
}
_INT_OPTIONS = {"max_rotate_angle", "rotate", "max_crop_size", "min_crop_size", "random_h",
                "random_s", "random_l"}
_OUT_DTYPES = {"float32": np.float32, "float16": np.float16, "float64": np.float64,
               "int32": np.int32, "int64": np.int64, "int8": np.int8, "uint8": np.uint8}


def _parse_aug(kwargs, name):
    """The default augmenter's options from the keyword arguments, typed and checked."""
    out = {}
    for key, default in AUG_DEFAULTS.items():
        value = kwargs.get(key, default)
        if key == "random_resized_crop":
            value = parse_bool(value, key)
        elif key == "min_aspect_ratio":
            value = None if value in (None, "None") else parse_float(value, key)
        elif key in _INT_OPTIONS:
            value = parse_int(value, key)
        else:
            value = parse_float(value, key)
        out[key] = value
    for key in ("max_rotate_angle", "random_h", "random_s", "random_l"):
        if out[key] < 0:
            raise MXNetError(f"{name}: {key} must be non-negative, got {out[key]}")
    for key in ("max_shear_ratio", "brightness", "contrast", "saturation", "pca_noise",
                "max_random_contrast", "max_random_illumination"):
        if out[key] < 0:
            raise MXNetError(f"{name}: {key} must be non-negative, got {out[key]}")
    if out["min_random_scale"] > out["max_random_scale"]:
        raise MXNetError(f"{name}: min_random_scale ({out['min_random_scale']}) must not exceed "
                         f"max_random_scale ({out['max_random_scale']})")
    if out["random_resized_crop"]:
        if out["min_random_area"] > out["max_random_area"] or out["min_random_area"] <= 0:
            raise MXNetError(f"{name}: with random_resized_crop, 0 < min_random_area <= "
                             f"max_random_area is expected, got [{out['min_random_area']}, "
                             f"{out['max_random_area']}]")
    if out["min_aspect_ratio"] is not None and out["min_aspect_ratio"] > out["max_aspect_ratio"]:
        raise MXNetError(f"{name}: min_aspect_ratio ({out['min_aspect_ratio']}) must not exceed "
                         f"max_aspect_ratio ({out['max_aspect_ratio']})")
    return out


def _mean_image(path, p, make_batcher, name, verbose=False):
    """Load the mean image saved at ``path``, or compute it over one pass of the records (the
    augmented crops, before normalisation) and save it there, as 1.9.1 does (with its log
    lines when ``verbose``)."""
    from .. import ndarray as nd
    shape = tuple(p["data_shape"])
    src = "../src/io/iter_image_recordio_2.cc"
    if os.path.isfile(path):
        if verbose:
            native_log(f"{src}:235", f"Load mean image from {path}")
        loaded = nd.load(path)
        arrays = list(loaded.values()) if isinstance(loaded, dict) else list(loaded)
        if isinstance(loaded, dict) and "mean_img" in loaded:
            arrays = [loaded["mean_img"]]
        if not arrays:
            raise MXNetError(f"{name}: mean_img file {path!r} holds no array")
        mean = arrays[0].asnumpy().astype(np.float32)
        if mean.shape != shape:
            raise MXNetError(f"{name}: mean_img {path!r} has shape {mean.shape}, expected "
                             f"data_shape {shape}")
        if verbose:
            native_log(f"{src}:253", f"Load mean image from {path} completed")
        return mean
    if verbose:
        native_log(f"{src}:662", f"Cannot find {path}: create mean image, this will take some "
                   "time...")
    aug = _Augmenter(p)   # 1.9.1 averages what the iterator would output without the mean
    batcher = make_batcher()
    total = np.zeros(shape, np.float32)   # 1.9.1 adds up in float32
    count = 0
    rng = _StdEngine(111 + (p["seed_aug"] or 0))
    source = batcher.source
    draws = None
    if p["seed_aug"] is None:   # the batches' engine runs on after the mean pass's draws
        p["_engine"] = rng
        if source.shuffle and source.chunks is not None and aug.random():
            draws = _ChunkDraws(aug, source, rng, np.dtype(np.float32))
    slot = np.zeros(shape, np.float32)
    while True:
        rec = batcher.source.next()
        if rec is None:
            break
        if draws is not None:
            rng = _Replay(draws.words_of(source.passes, source.index))
        elif p["seed_aug"] is not None:
            if source.offsets is not None and source.chunks is None:   # an index file
                n = p["batch_size"] + count % p["batch_size"]
            else:
                n = p["batch_size"] + source.chunk_pos
            rng = _StdEngine(111 + p["seed_aug"] + n, scratch=True)
        aug.process(_unpack(rec)[2], slot, rng)
        total += slot
        count += 1
    batcher.source.close()
    if count == 0:
        raise MXNetError(f"{name}: cannot compute mean_img, the record file is empty")
    mean = total * (np.float32(1) / np.float32(count))   # as 1.9.1: times 1.0f / count
    if verbose:
        native_log(f"{src}:700", f"Save mean image to {path}..")
    nd.save(path, {"mean_img": nd.array(mean)})
    return mean


def _read_imglist(path, label_width):
    """({image id: labels}, the number of records read) from an image list file."""
    labels = {}
    count = 0
    with open(path) as f:
        for line in f:
            parts = line.strip().split("\t")
            if len(parts) < 2 + label_width - 1:
                continue
            labels[int(float(parts[0]))] = np.array([float(v) for v in parts[1:1 + label_width]],
                                                    np.float32)
            count += 1
    return labels, count


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
    ready. ``shuffle`` reshuffles the records on every pass (seeded by ``seed``, 1.9.1's
    order); the random augmentation follows ``seed_aug`` (1.9.1's draws, see the module
    notes). ``num_parts`` / ``part_index`` read one share of the file. With
    ``round_batch`` (default) the last batch is completed from the start and its ``pad`` says
    how many; without it the last batch is short, zero-filled, and reports pad 0 as 1.9.1 does.

    The default augmenter's other options work as in 1.9.1 (see docs/image_record_iter.md):
    the affine warp (``rotate``, ``max_rotate_angle``, ``max_shear_ratio``,
    ``min/max_random_scale``, ``min/max_aspect_ratio``, ``min/max_img_size``), crop sizes,
    ``random_resized_crop``, the HSL shift, brightness / contrast / saturation, ``pca_noise``,
    ``max_random_contrast`` / ``max_random_illumination`` and ``mean_img``. ``aug_seq`` may
    name 'aug_default' once or several times (comma-separated: the augmenter runs that many
    times, as in 1.9.1); 'det_aug_default' is not implemented. All arguments are keywords.
    """

    _default_dtype = "float32"
    _normalize = True

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        if args:
            raise TypeError(f"{name} can only accept keyword arguments")
        aug_seq = parse_str(kwargs.get("aug_seq", "aug_default"), "aug_seq")
        # 1.9.1 splits aug_seq at commas and runs the augmenters in turn on every image
        aug_names = [n.strip() for n in aug_seq.split(",")]
        for n in aug_names:
            if n == "det_aug_default":
                raise NotImplementedError(f"{name}: aug_seq={aug_seq!r}: the detection augmenter "
                                          "'det_aug_default' is not implemented for this iterator")
            if n != "aug_default":
                raise MXNetError(f"{name}: aug_seq={aug_seq!r} names an unknown augmenter {n!r}; "
                                 "expected comma-separated 'aug_default'")
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
            "aug_passes": len(aug_names),
            "out_dtype": _OUT_DTYPES[dtype],
        }
        seed_aug = get("seed_aug", None)
        p["seed_aug"] = None if seed_aug in (None, "None") else parse_int(seed_aug, "seed_aug")
        for key, default in (("mean_r", 0.0), ("mean_g", 0.0), ("mean_b", 0.0), ("std_r", 1.0),
                             ("std_g", 1.0), ("std_b", 1.0)):
            p[key] = parse_float(get(key, default), key)
        if p["batch_size"] <= 0:
            raise MXNetError(f"{name}: batch_size must be positive, got {p['batch_size']}")
        if p["inter_method"] not in (0, 1, 2, 3, 4, 9, 10):
            raise MXNetError(f"invalid inter_method: valid value 0,1,2,3,9,10, got {p['inter_method']}")
        p.update(_parse_aug(kwargs, name))
        num_parts = parse_int(get("num_parts", 1), "num_parts")
        part_index = parse_int(get("part_index", 0), "part_index")
        if num_parts <= 0 or not 0 <= part_index < num_parts:
            raise MXNetError(f"{name}: invalid part_index {part_index} of num_parts {num_parts}")
        shuffle = p["shuffle"] = parse_bool(get("shuffle", False), "shuffle")
        path_idx = parse_str(get("path_imgidx", ""), "path_imgidx")
        round_batch = parse_bool(get("round_batch", True), "round_batch")
        verbose = parse_bool(get("verbose", True), "verbose")
        imglist = parse_str(get("path_imglist", ""), "path_imglist")
        labels = None
        if imglist:   # 1.9.1 reads the list (and logs it) before it makes the parser
            labels, count = _read_imglist(imglist, p["label_width"])
            if verbose:
                native_log("../src/io/./image_iter_common.h:76",
                           f"Loaded ImageList from {imglist} {count} Image records")
        if verbose:
            decoding_log("../src/io/iter_image_recordio_2.cc:177", "ImageRecordIOParser2", path,
                         p["preprocess_threads"])

        def make_batcher():
            source = _RecordSource(path, path_idx, num_parts, part_index, shuffle, p["seed"])
            return _RecordBatcher(source, p["batch_size"], round_batch)
        batcher = make_batcher()
        mean_img = parse_str(get("mean_img", ""), "mean_img")
        if mean_img:
            p["mean_img_array"] = _mean_image(mean_img, p, make_batcher, name, verbose)
        loader = _ImageRecordLoader(p, batcher, labels)
        prefetch = max(1, parse_int(get("prefetch_buffer", 4), "prefetch_buffer"))
        super().__init__(loader, data_name=get("data_name", "data"),
                         label_name=get("label_name", "softmax_label"), prefetch_buffer=prefetch)


def decoding_log(source, parser, path, threads):
    """The line 1.9.1's record parsers log when made. Its OpenMP pool keeps one core back for
    the engine, so the thread count it reports is at most the number of cores less one."""
    threads = max(1, min(threads, (os.cpu_count() or 1) - 1))
    native_log(source, f"{parser}: {path}, use {threads} threads for decoding..")


class ImageRecordUInt8Iter(ImageRecordIter):
    """:class:`ImageRecordIter` giving the cropped pixels as uint8, without normalisation."""

    _default_dtype = "uint8"
    _normalize = False


class ImageRecordInt8Iter(ImageRecordIter):
    """:class:`ImageRecordIter` giving int8 pixels: ``pixel - round(mean)``, saturated
    (as in 1.9.1, ``std_*`` and ``scale`` are not applied)."""

    _default_dtype = "int8"
