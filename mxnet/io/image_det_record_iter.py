"""ImageDetRecordIter: batches of images with their object boxes from a detection RecordIO file.

1.9.1 implements it in C++. Each record's label is a raw detection label ``[header_width,
object_width, <header...>, objects...]`` (see :mod:`mxnet.image.detection`). Every batch row
of the label output is::

    [channels, image_height, image_width, label_length, <the raw label>, pad, pad, ...]

where the image size is the one of the image inside the data slot (the whole ``data_shape``
unless ``resize_mode`` is ``fit`` / ``shrink``) and the raw label is padded with
``label_pad_value`` to ``label_pad_width`` values (by default the longest label of the file,
found by a pass over it at construction). Objects with an empty box (xmax <= xmin or
ymax <= ymin) are dropped from the label, as 1.9.1 does; the length counts what remains.

The images are decoded (Pillow, or the NumPy kernels of
:mod:`mxnet.gluon.data.vision._image`), resized with those kernels (OpenCV's arithmetic), then
go through 1.9.1's default detection augmenter (:mod:`mxnet.io._det_augment`: colour jitter,
mirror, random expansion, random crop, each updating the boxes), are fitted to ``data_shape``
and normalised as ``(x - mean) / std * scale`` (or ``(x - mean_img) / std * scale``) over the
whole slot.

The random draws are 1.9.1's (CPU, its single decoding thread): one ``std::mt19937`` seeded
233 runs on over the images, across passes and through the ``mean_img`` pass (``seed`` does
not touch it); the shuffled order is ``std::shuffle`` with ``std::mt19937(233 + seed)``, a new
permutation per pass (the ``mean_img`` pass is one), each 8 MiB reading chunk of the file
apart (:func:`mxnet.io.image_record_iter._read_chunks`). 1.9.1 augments a shuffled chunk in
file order and then hands its images out shuffled, so with ``shuffle`` each chunk is drawn
ahead in file order (:meth:`_DetLoader.plan_of`, from the labels and the image sizes read
once from the headers) and applied when each image comes. Equal to 1.9.1 in the tested cases
(tests/test_compat_sweep_iter_aug2.py); 1.9.1's split of the stream over several decoding
threads is not reproduced.
"""
from __future__ import annotations

import io as _io
import os

import numpy as np

from ..base import MXNetError, native_log
from . import _det_augment as _aug
from ._native import (RawBatch, _literal, parse_bool, parse_float, parse_int, parse_shape,
                      parse_str, required)
from .image_record_iter import (_Augmenter, _PassDraws, _RecordBatcher, _RecordSource, _recordio,
                                _spend_allowed, _StdEngine, decoding_log)
from .io import MXDataIter

__all__ = ["ImageDetRecordIter"]

_RESIZE_MODES = ("force", "shrink", "fit")
_OUT_DTYPES = {"float32": np.float32, "float16": np.float16, "float64": np.float64,
               "int32": np.int32, "int64": np.int64, "int8": np.int8, "uint8": np.uint8}

# the default detection augmenter's options: (kind, default)
_AUG_SCALARS = {"rand_crop_prob": (float, 0.0), "rand_pad_prob": (float, 0.0),
                "max_pad_scale": (float, 1.0), "fill_value": (int, 127),
                "random_hue_prob": (float, 0.0), "max_random_hue": (int, 0),
                "random_saturation_prob": (float, 0.0), "max_random_saturation": (int, 0),
                "random_illumination_prob": (float, 0.0), "max_random_illumination": (int, 0),
                "random_contrast_prob": (float, 0.0), "max_random_contrast": (float, 0.0),
                "num_crop_sampler": (int, 1), "emit_overlap_thresh": (float, 0.3)}
# per crop sampler: (option, key in the sampler, kind, default)
_SAMPLER_TUPLES = (("min_crop_scales", "min_scale", float, 0.0),
                   ("max_crop_scales", "max_scale", float, 1.0),
                   ("min_crop_aspect_ratios", "min_aspect", float, 1.0),
                   ("max_crop_aspect_ratios", "max_aspect", float, 1.0),
                   ("min_crop_overlaps", "min_overlap", float, 0.0),
                   ("max_crop_overlaps", "max_overlap", float, 1.0),
                   ("min_crop_sample_coverages", "min_sample_coverage", float, 0.0),
                   ("max_crop_sample_coverages", "max_sample_coverage", float, 1.0),
                   ("min_crop_object_coverages", "min_object_coverage", float, 0.0),
                   ("max_crop_object_coverages", "max_object_coverage", float, 1.0),
                   ("max_crop_trials", "trials", int, 25))
# the seed of 1.9.1's augmentation engine (its first decoding thread's)
_DET_SEED = 233
# accepted and without effect here
_IGNORED = ("shuffle_chunk_size", "shuffle_chunk_seed", "prefetch_buffer", "ctx",
            "preprocess_threads", "verbose", "mean_a", "std_a", "aug_seq")
_KNOWN = {"path_imglist", "path_imgrec", "label_width", "data_shape", "num_parts", "part_index",
          "label_pad_width", "label_pad_value", "shuffle", "seed", "batch_size", "round_batch",
          "dtype", "resize", "rand_mirror_prob", "inter_method", "resize_mode", "mean_img",
          "mean_r", "mean_g", "mean_b", "std_r", "std_g", "std_b", "scale", "data_name",
          "label_name", "crop_emit_mode"} | set(_AUG_SCALARS) | {t[0] for t in _SAMPLER_TUPLES} \
    | set(_IGNORED)


def _read_det_imglist(path):
    """{image index: float32 label} from ``index<TAB>label values...<TAB>path`` lines."""
    labels = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            fields = line.strip().split("\t")
            if fields == [""]:
                continue
            try:
                if len(fields) < 3:
                    raise ValueError("expected 'index<TAB>label values<TAB>path'")
                labels[int(float(fields[0]))] = np.array([float(v) for v in fields[1:-1]],
                                                         np.float32)
            except ValueError as e:
                raise MXNetError(f"ImageDetRecordIter: bad line {lineno} of {path!r}: "
                                 f"{line.rstrip()!r} ({e})") from None
    return labels


def _unpack(record):
    """(label values or None, image id, image bytes) of a record."""
    header, payload = _recordio().unpack(record)
    label = np.asarray(header.label, np.float32).reshape(-1) if header.flag > 0 else None
    return label, int(header.id), payload


class _DetLoader:
    """Reads batches of records and turns them into (data, label) batches."""

    def __init__(self, p, batcher, labels_by_id, pad_width):
        self.p = p
        self.batcher = batcher
        self.labels_by_id = labels_by_id
        self.pad_width = pad_width
        # ImageRecordIter's decoding and resizing (its normalisation is not used)
        self.aug = _Augmenter({**p, "std_r": 1.0, "std_g": 1.0, "std_b": 1.0})
        c, h, w = p["data_shape"]
        b = p["batch_size"]
        mean = np.array([p["mean_r"], p["mean_g"], p["mean_b"]][:c], np.float32)
        std = np.array([p["std_r"], p["std_g"], p["std_b"]][:c], np.float32)
        std[std <= 0] = 1.0
        self.mean = mean[:, None, None]
        self.std = std[:, None, None]
        self.scale = np.float32(p["scale"])
        self.mean_img = None      # (c, h, w) float32 when mean_img is in use
        # persistent buffers: without round_batch the padding slots keep the previous batch
        self.data = np.zeros((b, c, h, w), np.float32)
        self.label = np.full((b, 4 + pad_width), p["label_pad_value"], np.float32)
        self.index = np.zeros((b,), np.uint64)
        # as 1.9.1 (one decoding thread): one std::mt19937 seeded 233 draws every random
        # augmentation, running on over the images and across passes (``seed`` does not
        # touch it)
        self.engine = _StdEngine(_DET_SEED)
        # 1.9.1 augments a shuffled chunk in file order and hands its images out shuffled: with
        # shuffle (and anything random) each chunk is planned ahead in file order
        self.plan_ahead = batcher.source.shuffle and self._draws()
        self._meta = None           # per file position: (label, rows, cols)
        self._plans = _PassDraws(batcher.source, self._plan_chunk) if self.plan_ahead else None

    def label_of(self, label, image_id):
        p = self.p
        if self.labels_by_id is not None:
            if image_id not in self.labels_by_id:
                raise MXNetError(f"ImageDetRecordIter: image id {image_id} is not in path_imglist")
            return self.labels_by_id[image_id].copy()
        if label is None:
            raise MXNetError("Not enough label packed in img_list or recordio file.")
        if p["label_width"] > 0 and label.size != p["label_width"]:
            raise MXNetError(f"Check failed: param_.label_width == rec.num_label "
                             f"({p['label_width']} vs. {label.size}) : rec file provide "
                             f"{label.size}-dimensional label but label_width is set to "
                             f"{p['label_width']}")
        return label.copy()

    def _draws(self):
        """Whether the augmentation draws random numbers at all."""
        p = self.p
        return bool(p["rand_mirror_prob"] > 0 or p["rand_pad_prob"] > 0 and p["max_pad_scale"] > 1
                    or p["rand_crop_prob"] > 0 and p["samplers"] or p["inter_method"] == 10
                    or any(p[k] > 0 for k in ("random_hue_prob", "random_saturation_prob",
                                              "random_illumination_prob", "random_contrast_prob")))

    def _file_meta(self, first, stop):
        """(label without empty boxes, rows, cols) of the records at file positions [first,
        stop) of the part (read once and kept; the image size from its header)."""
        meta = self._meta
        if meta is None:
            meta = self._meta = {}
        if first not in meta:
            source = self.batcher.source
            reader = _recordio().MXRecordIO(source.reader.uri, "r")
            try:
                for k in range(first, stop):
                    reader.handle.seek(source.offsets[k])
                    raw, image_id, payload = _unpack(reader.read())
                    label = _valid_objects(self.label_of(raw, image_id))
                    meta[k] = (label,) + self._image_size(payload)
            finally:
                reader.close()
        return [meta[k] for k in range(first, stop)]

    def _image_size(self, payload):
        """(rows, cols) of an encoded image, from its header when Pillow can read it."""
        try:
            from PIL import Image
            with Image.open(_io.BytesIO(payload)) as im:
                cols, rows = im.size
            return rows, cols
        except Exception:  # noqa: BLE001 - fall back on decoding
            img = self.aug.decode(payload)
            return img.shape[0], img.shape[1]

    def plan_of(self, pass_id, index):
        """The drawn augmentation of the record at file position ``index`` in pass
        ``pass_id``. 1.9.1 shuffles each chunk of the file apart and augments it in file order,
        so the chunks of a pass are drawn in file order, each when first asked for (with the
        ones before it)."""
        return self._plans.get(pass_id, index)

    def _plan_chunk(self, first, stop):
        for label, rows, cols in self._file_meta(first, stop):
            _, objs = _split_label(label)
            yield self._plan(objs, rows, cols, self.engine)

    def _plan(self, objs, rows, cols, rng):
        """Draw one image's augmentation from its size (``rows`` x ``cols`` as decoded) and its
        objects, in 1.9.1's order: the ``resize`` step's interpolation, colour, mirror,
        expansion, crop, then the fitting resize's interpolation. Returns (steps, objs, rows,
        cols): the pixel steps for :meth:`_apply`, the boxes and the final size."""
        p = self.p
        _, out_h, out_w = p["data_shape"]
        method = p["inter_method"]
        steps = []
        if p["resize"] > 0:
            r = p["resize"]
            w, h = (r, r * rows // cols) if rows > cols else (r * cols // rows, r)
            steps.append(("resize", (w, h, self.aug._interp(method, cols, rows, w, h, rng))))
            rows, cols = h, w
        colour = _aug.draw_colour(p, rng)
        if colour is not None:
            steps.append(("colour", colour))
        if p["rand_mirror_prob"] > 0 and rng.random() < p["rand_mirror_prob"]:
            steps.append(("mirror", None))
            objs = _aug.mirror(objs)
        if p["rand_pad_prob"] > 0 and p["max_pad_scale"] > 1 \
                and rng.random() < p["rand_pad_prob"]:
            got = _aug.draw_pad(objs, rows, cols, p, rng)
            if got is not None:
                (top, left, bottom, right), objs = got
                steps.append(("pad", (top, left, bottom, right)))
                rows, cols = rows + top + bottom, cols + left + right
        if p["rand_crop_prob"] > 0 and p["samplers"] and rng.random() < p["rand_crop_prob"]:
            got = _aug.draw_crop(objs, rows, cols, p, rng)
            if got is not None:
                (top, left, h, w), objs = got
                h, w = min(h, rows - top), min(w, cols - left)
                steps.append(("crop", (top, left, h, w)))
                rows, cols = h, w
        mode = p["resize_mode"]
        size = None
        if mode == "force":
            size = out_w, out_h
        elif mode == "fit" or (mode == "shrink" and (rows > out_h or cols > out_w)):
            # in float32, as 1.9.1 (its size can be one pixel short of the double's)
            f = np.float32
            ratio = min(f(out_h) / f(rows), f(out_w) / f(cols))
            size = max(1, int(f(cols) * ratio)), max(1, int(f(rows) * ratio))
        if size is not None:
            w, h = size
            steps.append(("resize", (w, h, self.aug._interp(method, cols, rows, w, h, rng))))
            rows, cols = h, w
        return steps, objs, rows, cols

    def _apply(self, img, steps):
        """The pixel work of a plan (see :meth:`_plan`) on the decoded (H, W, C) image."""
        for name, args in steps:
            if name == "resize":
                w, h, interp = args
                img = self.aug._resize(img, w, h, None, interp)
            elif name == "colour":
                img = _aug.apply_colour(np.ascontiguousarray(img), *args)
            elif name == "mirror":
                img = img[:, ::-1]
            elif name == "pad":
                img = _aug.pad_pixels(img, args, self.p["fill_value"])
            else:   # crop
                top, left, h, w = args
                img = img[top:top + h, left:left + w]
        return img

    def _process(self, payload, label, slot, rng, out=None, plan=None):
        """Decode and augment one image into ``self.data[slot]`` (or ``out``), normalised
        unless ``out`` is given; returns the image height and width inside the slot and the
        updated raw label. ``plan``: the image's drawn augmentation (from :meth:`_plan`),
        otherwise drawn here from ``rng``."""
        p = self.p
        _, out_h, out_w = p["data_shape"]
        img = self.aug.decode(payload)
        if img.ndim == 2:
            img = img[:, :, None]
        header, objs = _split_label(label)
        if plan is None:
            plan = self._plan(objs, img.shape[0], img.shape[1], rng)
        steps, objs, rows, cols = plan
        img = self._apply(img, steps)
        label = np.concatenate([header, objs.ravel()]).astype(np.float32)
        if img.shape[:2] != (rows, cols):   # pragma: no cover - the plan tracks the size
            raise MXNetError(f"ImageDetRecordIter: internal size mismatch {img.shape[:2]} vs "
                             f"{(rows, cols)}")
        if rows > out_h or cols > out_w:
            raise MXNetError(f"ImageDetRecordIter: an image of {rows}x{cols} does not fit "
                             f"data_shape {p['data_shape']}")
        normalize = out is None
        if out is None:
            out = self.data[slot]
        out[...] = 0
        out[:, :rows, :cols] = img.transpose(2, 0, 1)
        if not normalize:
            pass
        elif self.mean_img is not None:
            np.subtract(out, self.mean_img, out=out)
            np.divide(out, self.std, out=out)
            np.multiply(out, self.scale, out=out)
        elif self.mean.any() or (self.std != 1).any() or self.scale != 1:
            np.subtract(out, self.mean, out=out)
            np.divide(out, self.std, out=out)
            np.multiply(out, self.scale, out=out)
        return rows, cols, label

    def compute_mean(self, source):
        """The mean of the (augmented, unnormalised) data slots over one pass of ``source``."""
        total = np.zeros(self.p["data_shape"], np.float32)   # 1.9.1 adds up in float32
        buf = np.zeros(self.p["data_shape"], np.float32)
        rng = self.engine
        count = 0
        while True:
            rec = source.next()
            if rec is None:
                break
            raw, image_id, payload = _unpack(rec)
            label = _valid_objects(self.label_of(raw, image_id))
            plan = self.plan_of(source.passes, source.index) if self.plan_ahead else None
            self._process(payload, label, 0, rng, out=buf, plan=plan)
            total += buf
            count += 1
        if count == 0:
            raise MXNetError("ImageDetRecordIter: cannot compute mean_img: the record file holds "
                             "no image")
        return total * (np.float32(1) / np.float32(count))   # as 1.9.1: times 1.0f / count

    def before_first(self):
        # a pass left early (reset() in mid-pass) spends the draws of its images not read yet
        # (shuffled: of its chunks, see _PassDraws), whatever the loader thread read ahead
        if not self.plan_ahead and not self.batcher.overflow and self._draws() and \
                _spend_allowed(self.batcher.source):
            source = self.batcher.source
            while True:
                rec = source.next()
                if rec is None:
                    break
                raw, image_id, payload = _unpack(rec)
                _, objs = _split_label(_valid_objects(self.label_of(raw, image_id)))
                self._plan(objs, *self._image_size(payload), self.engine)
        self.batcher.before_first()

    def next(self):
        item = self.batcher.next()
        if item is None:
            return None
        records, pad, batch_no = item
        p = self.p
        b = p["batch_size"]
        rng = self.engine
        indices, pass_ids = self.batcher.indices, self.batcher.pass_ids
        for i, rec in enumerate(records):
            raw, image_id, payload = _unpack(rec)
            label = _valid_objects(self.label_of(raw, image_id))
            plan = self.plan_of(pass_ids[i], indices[i]) if self.plan_ahead else None
            rows, cols, label = self._process(payload, label, i, rng, plan=plan)
            if label.size > self.pad_width:
                raise MXNetError(f"ImageDetRecordIter: a label of {label.size} values is longer "
                                 f"than label_pad_width {self.pad_width}")
            row = self.label[i]
            row[:4] = (p["data_shape"][0], rows, cols, label.size)
            row[4:4 + label.size] = label
            row[4 + label.size:] = p["label_pad_value"]
            self.index[i] = image_id
        if len(records) < b:
            pad = b - len(records)
        data = self.data.copy()
        if p["out_dtype"] is not np.float32:
            data = data.astype(p["out_dtype"])
        return RawBatch(data, self.label.copy(), pad, self.index.copy())

    def close(self):
        self.batcher.source.close()


def _split_label(label):
    """(header, (N, object_width) objects) of a raw detection label."""
    if label.size < 2:
        raise MXNetError(f"ImageDetRecordIter: a detection label needs at least the header width "
                         f"and the object width, got {label.size} values")
    header, width = int(label[0]), int(label[1])
    if width < 5 or header < 2 or header > label.size or (label.size - header) % width:
        raise MXNetError(f"ImageDetRecordIter: invalid detection label of {label.size} values "
                         f"(header width {header}, object width {width})")
    return label[:header], label[header:].reshape(-1, width)


def _valid_objects(label):
    """The raw label without the objects whose box is empty (xmax <= xmin or ymax <= ymin)."""
    header, objs = _split_label(label)
    keep = (objs[:, 3] > objs[:, 1]) & (objs[:, 4] > objs[:, 2])
    if keep.all():
        return label
    return np.concatenate([header, objs[keep].ravel()])


def _parse_tuple(value, name, kind):
    """A tuple option (``(0.1, 0.3)``, ``[1]``, ``"(2, 3)"`` or a number) as a list of ``kind``."""
    v = _literal(value)
    if isinstance(v, (int, float, np.integer, np.floating)):
        v = (v,)
    try:
        return [kind(x) if kind is float else int(x) for x in v]
    except (TypeError, ValueError):
        raise MXNetError(f"ImageDetRecordIter: invalid value for {name}: expected a tuple of "
                         f"{kind.__name__}, got {value!r}") from None


def _parse_aug(kwargs):
    """The default detection augmenter's options, checked as 1.9.1 checks them."""
    name = "ImageDetRecordIter"
    p = {}
    for key, (kind, default) in _AUG_SCALARS.items():
        value = kwargs.get(key, default)
        p[key] = parse_float(value, key) if kind is float else parse_int(value, key)
    mode = parse_str(kwargs.get("crop_emit_mode", "center"), "crop_emit_mode")
    if mode not in ("center", "overlap"):
        raise MXNetError(f"Invalid Input: '{mode}', valid values are: {{'center', 'overlap'}} "
                         "(parameter crop_emit_mode)")
    p["crop_emit_mode"] = mode
    num = p["num_crop_sampler"]
    columns = {}
    for opt, key, kind, default in _SAMPLER_TUPLES:
        vals = _parse_tuple(kwargs.get(opt, (default,)), opt, kind)
        if num > 0 and len(vals) != num:
            if len(vals) == 1 and num > 1:
                vals = vals * num
            else:
                raise MXNetError(f"{name}: {opt} has {len(vals)} values, expected 1 or "
                                 f"num_crop_sampler ({num}): # of parameters/crop_samplers "
                                 "mismatch")
        columns[key] = vals
    samplers = [{key: columns[key][i] for key in columns} for i in range(max(num, 0))]
    for i, smp in enumerate(samplers):
        checks = (
            (smp["min_scale"] >= 0, "min_crop_scales", "be >= 0", smp["min_scale"]),
            (smp["max_scale"] <= 1, "max_crop_scales", "be <= 1", smp["max_scale"]),
            (smp["max_scale"] > smp["min_scale"], "max_crop_scales",
             f"be > min_crop_scales ({smp['min_scale']})", smp["max_scale"]),
            (smp["min_aspect"] >= 0, "min_crop_aspect_ratios", "be >= 0", smp["min_aspect"]),
            (smp["max_aspect"] >= smp["min_aspect"], "max_crop_aspect_ratios",
             f"be >= min_crop_aspect_ratios ({smp['min_aspect']})", smp["max_aspect"]),
            (smp["max_overlap"] >= smp["min_overlap"], "max_crop_overlaps",
             f"be >= min_crop_overlaps ({smp['min_overlap']})", smp["max_overlap"]),
            (smp["max_sample_coverage"] >= smp["min_sample_coverage"],
             "max_crop_sample_coverages",
             f"be >= min_crop_sample_coverages ({smp['min_sample_coverage']})",
             smp["max_sample_coverage"]),
            (smp["max_object_coverage"] >= smp["min_object_coverage"],
             "max_crop_object_coverages",
             f"be >= min_crop_object_coverages ({smp['min_object_coverage']})",
             smp["max_object_coverage"]))
        for ok, opt, want, got in checks:
            if not ok:
                raise MXNetError(f"{name}: {opt}[{i}] must {want}, got {got}")
    p["samplers"] = samplers
    return p


class ImageDetRecordIter(MXDataIter):
    """Batches of images and their boxes from a detection RecordIO file (``path_imgrec``).

    ``data`` is (batch, channels, height, width), RGB, float32 (or ``dtype``); ``label`` is
    (batch, 4 + label_pad_width), one row per image as described in the module docstring. The
    labels come from the records, or from ``path_imglist`` (``index<TAB>label
    values<TAB>path`` lines, matched on the records' ids); ``label_width`` > 0 requires every
    record to hold that many values.

    Per image: the shorter side is resized to ``resize`` (if > 0); colours are jittered
    (``random_hue/saturation/illumination_prob`` with ``max_random_*``: integer shifts of
    OpenCV's 8-bit HLS channels; ``random_contrast_prob``: ``x * (1 + c)``, ``|c| <=
    max_random_contrast``); the image and its boxes are mirrored with probability
    ``rand_mirror_prob``; with probability ``rand_pad_prob`` the image is placed in a canvas
    up to ``max_pad_scale`` times larger filled with ``fill_value``; with probability
    ``rand_crop_prob`` one of ``num_crop_sampler`` crop samplers (``min/max_crop_scales``,
    ``..._aspect_ratios``, ``..._overlaps``, ``..._sample_coverages``,
    ``..._object_coverages``, ``max_crop_trials``) crops it, keeping the boxes chosen by
    ``crop_emit_mode`` / ``emit_overlap_thresh``; it is then fitted to ``data_shape`` by
    ``resize_mode``: ``force`` (resize to it), ``fit`` (largest size keeping the aspect
    ratio) or ``shrink`` (like fit, only for larger images); a smaller image sits in the
    top-left corner of a zero slot. ``inter_method`` picks the interpolation (0 nearest,
    1 bilinear, 2 cubic, 3 area, 4 Lanczos, 9 auto, 10 random). The slot is normalised as
    ``(x - mean) / std * scale`` (``mean_r/g/b``, ``std_r/g/b``; a std of 0 means 1); when
    ``mean_img`` is set and ``mean_r/g/b`` are all 0, ``mean`` is that image (read from the
    file, or computed over one pass of the data and saved there as ``{"mean_img": array}``).

    ``shuffle`` reshuffles the records on every pass (1.9.1's order, seeded by ``seed``; the
    random augmentation draws are 1.9.1's too and do not depend on ``seed``); ``num_parts``
    / ``part_index`` read one share of the file; with ``round_batch`` (default) the last batch
    is completed from the start, without it the missing slots keep the previous batch's
    contents; ``pad`` says how many in both cases.
    """

    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        if args:
            raise TypeError(f"{name} can only accept keyword arguments")
        unknown = sorted(set(kwargs) - _KNOWN)
        if unknown:
            raise MXNetError(f"{name}: unknown parameters {unknown}")
        get = kwargs.get
        path = parse_str(get("path_imgrec", "./data/imgrec.rec"), "path_imgrec")
        data_shape = parse_shape(required(kwargs, "data_shape", "Shape(tuple)", name), "data_shape")
        if len(data_shape) != 3 or data_shape[0] not in (1, 3):
            raise MXNetError(f"{name}: data_shape must be (channels, height, width) with 1 or 3 "
                             f"channels, got {data_shape}")
        dtype = get("dtype", None)
        dtype = "float32" if dtype in (None, "None") else np.dtype(dtype).name
        if dtype not in _OUT_DTYPES:
            raise MXNetError(f"{name}: unsupported dtype {dtype}")
        resize_mode = parse_str(get("resize_mode", "force"), "resize_mode")
        if resize_mode not in _RESIZE_MODES:
            raise MXNetError(f"Invalid Input: '{resize_mode}', valid values are: {{'fit', 'force', "
                             "'shrink'}} (parameter resize_mode)")
        p = {
            "data_shape": data_shape,
            "batch_size": parse_int(required(kwargs, "batch_size", "int (non-negative)", name),
                                    "batch_size"),
            "label_width": parse_int(get("label_width", -1), "label_width"),
            "label_pad_value": parse_float(get("label_pad_value", -1.0), "label_pad_value"),
            "resize": parse_int(get("resize", -1), "resize"),
            "rand_mirror_prob": parse_float(get("rand_mirror_prob", 0.0), "rand_mirror_prob"),
            "inter_method": parse_int(get("inter_method", 1), "inter_method"),
            "resize_mode": resize_mode,
            "seed": parse_int(get("seed", 0), "seed"),
            "scale": parse_float(get("scale", 1.0), "scale"),
            "out_dtype": _OUT_DTYPES[dtype],
            # for ImageRecordIter's decoder / resizer
            "normalize": False,
        }
        for key in ("mean_r", "mean_g", "mean_b", "std_r", "std_g", "std_b"):
            p[key] = parse_float(get(key, 0.0), key)
        p.update(_parse_aug(kwargs))
        if p["batch_size"] <= 0:
            raise MXNetError(f"{name}: batch_size must be positive, got {p['batch_size']}")
        if p["inter_method"] not in (0, 1, 2, 3, 4, 9, 10):
            raise MXNetError(f"invalid inter_method: valid value 0,1,2,3,9,10, got {p['inter_method']}")
        num_parts = parse_int(get("num_parts", 1), "num_parts")
        part_index = parse_int(get("part_index", 0), "part_index")
        if num_parts <= 0 or not 0 <= part_index < num_parts:
            raise MXNetError(f"{name}: invalid part_index {part_index} of num_parts {num_parts}")
        shuffle = parse_bool(get("shuffle", False), "shuffle")
        verbose = parse_bool(get("verbose", True), "verbose")
        if verbose:
            decoding_log("../src/io/iter_image_det_recordio.cc:282", "ImageDetRecordIOParser",
                         path, parse_int(get("preprocess_threads", 4), "preprocess_threads"))
        source = _RecordSource(path, "", num_parts, part_index, shuffle, p["seed"],
                               magic=_DET_SEED)
        imglist = parse_str(get("path_imglist", ""), "path_imglist")
        labels = _read_det_imglist(imglist) if imglist else None
        try:
            widest = self._widest_label(source, labels, p["label_width"])
        except BaseException:
            source.close()
            raise
        pad_width = parse_int(get("label_pad_width", 0), "label_pad_width")
        if pad_width > 0:
            if pad_width < widest:
                source.close()
                raise MXNetError(f"ImageDetRecordIOParser: label_pad_width: {pad_width} smaller "
                                 f"than estimated width: {widest}")
        else:
            pad_width = widest
        if verbose:
            native_log("../src/io/iter_image_det_recordio.cc:339",
                       f"ImageDetRecordIOParser: {path}, label padding width: {pad_width}")
        batcher = _RecordBatcher(source, p["batch_size"],
                                 parse_bool(get("round_batch", True), "round_batch"))
        loader = _DetLoader(p, batcher, labels, pad_width)
        mean_img = parse_str(get("mean_img", ""), "mean_img")
        # 1.9.1 uses mean_img only when mean_r/g/b are all 0
        if mean_img and not (p["mean_r"] or p["mean_g"] or p["mean_b"]):
            try:
                loader.mean_img = self._mean_image(mean_img, loader, source, data_shape, verbose)
            except BaseException:
                source.close()
                raise
        prefetch = max(1, parse_int(get("prefetch_buffer", 4), "prefetch_buffer"))
        super().__init__(loader, data_name=get("data_name", "data"),
                         label_name=get("label_name", "softmax_label"), prefetch_buffer=prefetch)

    @staticmethod
    def _mean_image(path, loader, source, data_shape, verbose):
        """The mean image read from ``path``, or computed over one pass and saved there."""
        from ..ndarray import array as nd_array
        from ..ndarray import load as nd_load
        from ..ndarray import save as nd_save
        if os.path.isfile(path):
            if verbose:
                native_log("../src/io/./iter_normalize.h:272", f"Load mean image from {path}")
            try:
                loaded = nd_load(path)
            except Exception as e:  # noqa: BLE001 - any unreadable file
                raise MXNetError(f"ImageDetRecordIter: cannot read mean_img {path!r}: {e}") \
                    from None
            values = list(loaded.values()) if isinstance(loaded, dict) else list(loaded)
            if len(values) != 1:
                raise MXNetError(f"ImageDetRecordIter: mean_img {path!r} must hold one array, "
                                 f"got {len(values)}")
            mean = values[0].asnumpy().astype(np.float32)
            if mean.shape != tuple(data_shape):
                raise MXNetError(f"ImageDetRecordIter: mean_img {path!r} has shape "
                                 f"{mean.shape}, expected data_shape {tuple(data_shape)}")
            return mean
        if verbose:
            native_log("../src/io/./iter_normalize.h:382", f"Cannot find {path}: create mean "
                       "image, this will take some time...")
        mean = loader.compute_mean(source)
        source.before_first()   # as 1.9.1: a new pass (reshuffled) for the batches
        if verbose:
            native_log("../src/io/./iter_normalize.h:408", f"Save mean image to {path}..")
        nd_save(path, {"mean_img": nd_array(mean)})
        return mean

    @staticmethod
    def _widest_label(source, labels_by_id, label_width):
        """The longest label (a pass over the file, or over the image list)."""
        if labels_by_id is not None:
            return max((v.size for v in labels_by_id.values()), default=0)
        widest = 0
        while True:
            rec = source.next()
            if rec is None:
                break
            header, _ = _recordio().unpack(rec)
            if header.flag <= 0:
                raise MXNetError("Not enough label packed in img_list or recordio file.")
            n = int(header.flag)
            if label_width > 0 and n != label_width:
                raise MXNetError(f"Check failed: param_.label_width == rec.num_label "
                                 f"({label_width} vs. {n}) : rec file provide {n}-dimensional "
                                 f"label but label_width is set to {label_width}")
            widest = max(widest, n)
        source.rewind()     # the first pass again (the same shuffled order)
        return widest
