"""Object detection in ``mx.image``: detection augmenters and the ImageDetIter iterator.

A detection label is a float array: ``[header_width, object_width, <more header values>,
obj_0, obj_1, ...]`` where every object is ``object_width`` values
``[class_id, xmin, ymin, xmax, ymax, <extra values>]`` with coordinates normalised to [0, 1].
Inside the pipeline the label is the (num_objects, object_width) array of the objects only.

A detection augmenter is called as ``aug(image, label)`` and returns ``(image, label)``.
Random draws use Python's :mod:`random` (and ``np.random`` for the lighting noise and
``draw_next``'s colours), in the order 1.9.1 draws them, so seeding gives 1.9.1's choices.
"""
from __future__ import annotations

import json
import logging
import random
import warnings
from math import sqrt

import numpy as np

from .. import ndarray as nd
from ..base import MXNetError, numeric_types
from .augmenters import (_IMAGENET_MEAN, _IMAGENET_STD, _PCA_EIGVAL, _PCA_EIGVEC, Augmenter,
                         CastAug, ColorJitterAug, ColorNormalizeAug, ForceResizeAug, HueJitterAug,
                         LightingAug, RandomGrayAug, ResizeAug)
from .image import copyMakeBorder, fixed_crop
from .image_iter import ImageIter, _host

__all__ = ["DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug",
           "DetRandomCropAug", "DetRandomPadAug", "CreateMultiRandCropAugmenter",
           "CreateDetAugmenter", "ImageDetIter"]


# -- augmenters -----------------------------------------------------------------------------------------
class DetAugmenter:
    """Base class of the detection augmenters: ``__call__(src, label) -> (src, label)``."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        for key, value in kwargs.items():
            if isinstance(value, nd.NDArray):
                value = value.asnumpy()
            if isinstance(value, np.ndarray):
                self._kwargs[key] = value.tolist()

    def dumps(self):
        """The augmenter as JSON text: ``[class name in lower case, {arguments}]``."""
        return json.dumps([type(self).__name__.lower(), self._kwargs])

    def __call__(self, src, label):
        raise NotImplementedError("DetAugmenter subclasses must implement __call__")


class DetBorrowAug(DetAugmenter):
    """Use an image :class:`~mxnet.image.Augmenter` that leaves the boxes valid (resizing,
    colour changes, ...); the label passes through unchanged."""

    def __init__(self, augmenter):
        if not isinstance(augmenter, Augmenter):
            raise TypeError("DetBorrowAug: augmenter must be an mx.image.Augmenter, got "
                            f"{type(augmenter).__name__}")
        super().__init__(augmenter=augmenter.dumps())
        self.augmenter = augmenter

    def dumps(self):
        return [type(self).__name__.lower(), self.augmenter.dumps()]

    def __call__(self, src, label):
        return self.augmenter(src), label


class DetRandomSelectAug(DetAugmenter):
    """With probability ``skip_prob`` do nothing, otherwise apply one of ``aug_list`` chosen at
    random (the list is shuffled in place and its first entry applied)."""

    def __init__(self, aug_list, skip_prob=0):
        super().__init__(skip_prob=skip_prob)
        if not isinstance(aug_list, (list, tuple)):
            aug_list = [aug_list]
        for aug in aug_list:
            if not isinstance(aug, DetAugmenter):
                raise ValueError("DetRandomSelectAug: aug_list may hold DetAugmenter objects only, "
                                 f"got {type(aug).__name__}")
        if not aug_list:
            skip_prob = 1
        self.aug_list = aug_list
        self.skip_prob = skip_prob

    def dumps(self):
        return [type(self).__name__.lower(), [a.dumps() for a in self.aug_list]]

    def __call__(self, src, label):
        if random.random() < self.skip_prob:
            return src, label
        random.shuffle(self.aug_list)
        return self.aug_list[0](src, label)


class DetHorizontalFlipAug(DetAugmenter):
    """Mirror the image and its boxes left-right with probability ``p``."""

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def __call__(self, src, label):
        if random.random() < self.p:
            src = nd.flip(src, axis=1)
            self._flip_label(label)
        return src, label

    @staticmethod
    def _flip_label(label):
        """In place: ``xmin, xmax <- 1 - xmax, 1 - xmin``."""
        left = 1.0 - label[:, 3]
        label[:, 3] = 1.0 - label[:, 1]
        label[:, 1] = left


def _as_range(value, what, owner):
    if isinstance(value, (tuple, list)):
        return value
    if not isinstance(value, numeric_types):
        raise TypeError(f"{owner}: {what} must be a number or a (low, high) pair, got {value!r}")
    logging.info("Using fixed %s: %s in %s", what.replace("_", " "), value, owner)
    return (value, value)


def _box_areas(boxes):
    """Areas of the (N, 4+) boxes ``[xmin, ymin, xmax, ymax, ...]`` (0 for inverted ones)."""
    return (np.maximum(0, boxes[:, 2] - boxes[:, 0]) * np.maximum(0, boxes[:, 3] - boxes[:, 1]))


class DetRandomCropAug(DetAugmenter):
    """Crop a random window that keeps the objects well covered.

    A window of aspect ratio (w / h) drawn uniformly from ``aspect_ratio_range`` and an area
    (as a fraction of the image) within ``area_range`` is proposed at a random place, up to
    ``max_attempts`` times. It is accepted when every (valid) object it touches has more than
    ``min_object_covered`` of its area inside. Objects then keeping no more than
    ``min_eject_coverage`` of their area are dropped; if none would remain the proposal is
    rejected. When no proposal is accepted the input is returned unchanged.
    """

    def __init__(self, min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33),
                 area_range=(0.05, 1.0), min_eject_coverage=0.3, max_attempts=50):
        owner = type(self).__name__
        aspect_ratio_range = _as_range(aspect_ratio_range, "aspect_ratio_range", owner)
        area_range = _as_range(area_range, "area_range", owner)
        super().__init__(min_object_covered=min_object_covered,
                         aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                         min_eject_coverage=min_eject_coverage, max_attempts=max_attempts)
        self.min_object_covered = min_object_covered
        self.min_eject_coverage = min_eject_coverage
        self.max_attempts = max_attempts
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.enabled = False
        if area_range[1] <= 0 or area_range[0] > area_range[1]:
            warnings.warn(f"Skip DetRandomCropAug due to invalid area_range: {area_range}",
                          stacklevel=2)
        elif aspect_ratio_range[0] > aspect_ratio_range[1] or aspect_ratio_range[0] <= 0:
            warnings.warn("Skip DetRandomCropAug due to invalid aspect_ratio_range: "
                          f"{aspect_ratio_range}", stacklevel=2)
        else:
            self.enabled = True

    def __call__(self, src, label):
        crop = self._random_crop_proposal(label, src.shape[0], src.shape[1])
        if crop:
            x, y, w, h, label = crop
            src = fixed_crop(src, x, y, w, h, None)
        return src, label

    @staticmethod
    def _calculate_areas(label):
        return _box_areas(label)

    @staticmethod
    def _intersect(label, xmin, ymin, xmax, ymax):
        """The boxes clipped to the window (all zeros where they miss it)."""
        out = label.copy()
        out[:, 0] = np.maximum(label[:, 0], xmin)
        out[:, 1] = np.maximum(label[:, 1], ymin)
        out[:, 2] = np.minimum(label[:, 2], xmax)
        out[:, 3] = np.minimum(label[:, 3], ymax)
        miss = (out[:, 0] >= out[:, 2]) | (out[:, 1] >= out[:, 3])
        out[miss, :] = 0
        return out

    def _check_satisfy_constraints(self, label, xmin, ymin, xmax, ymax, width, height):
        """Whether the pixel window (xmin, ymin, xmax, ymax) covers the objects enough."""
        if (xmax - xmin) * (ymax - ymin) < 2:
            return False
        window = (float(xmin) / width, float(ymin) / height, float(xmax) / width,
                  float(ymax) / height)
        areas = _box_areas(label[:, 1:])
        valid = np.where(areas * width * height > 2)[0]
        if valid.size < 1:
            return False
        inter = self._intersect(label[valid, 1:], *window)
        coverage = _box_areas(inter) / areas[valid]
        coverage = coverage[coverage > 0]
        return coverage.size > 0 and np.amin(coverage) > self.min_object_covered

    def _update_labels(self, label, crop_box, height, width):
        """The labels in the coordinates of ``crop_box`` (x, y, w, h in pixels), without the
        objects left with too little of their area; None when no object remains."""
        x0, y0 = float(crop_box[0]) / width, float(crop_box[1]) / height
        w, h = float(crop_box[2]) / width, float(crop_box[3]) / height
        out = label.copy()
        out[:, (1, 3)] -= x0
        out[:, (2, 4)] -= y0
        out[:, (1, 3)] /= w
        out[:, (2, 4)] /= h
        out[:, 1:5] = np.clip(out[:, 1:5], 0, 1)
        coverage = _box_areas(out[:, 1:]) * w * h / _box_areas(label[:, 1:])
        keep = (out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2]) & (coverage > self.min_eject_coverage)
        keep = np.where(keep)[0]
        if keep.size < 1:
            return None
        return out[keep, :]

    def _random_crop_proposal(self, label, height, width):
        """``(x, y, w, h, new_label)`` of an accepted window, or ``()``."""
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h = int(round(sqrt(min_area / ratio)))
            max_h = int(round(sqrt(max_area / ratio)))
            if round(max_h * ratio) > width:
                max_h = int((width + 0.4999999) / ratio)  # the largest with round(h * ratio) <= width
            max_h = min(max_h, height)
            h = min(h, max_h)
            if h < max_h:
                h = random.randint(h, max_h)
            w = int(round(h * ratio))
            if w > width:
                raise MXNetError(f"DetRandomCropAug: proposed width {w} exceeds the image width {width}")
            area = w * h
            if area < min_area:  # rounding may leave the area just outside the range
                h += 1
                w = int(round(h * ratio))
                area = w * h
            if area > max_area:
                h -= 1
                w = int(round(h * ratio))
                area = w * h
            if not (min_area <= area <= max_area and 0 <= w <= width and 0 <= h <= height):
                continue
            y = random.randint(0, max(0, height - h))
            x = random.randint(0, max(0, width - w))
            if self._check_satisfy_constraints(label, x, y, x + w, y + h, width, height):
                new_label = self._update_labels(label, (x, y, w, h), height, width)
                if new_label is not None:
                    return (x, y, w, h, new_label)
        return ()


class DetRandomPadAug(DetAugmenter):
    """Place the image at a random spot of a larger canvas filled with ``pad_val``.

    The canvas has an aspect ratio (w / h) drawn uniformly from ``aspect_ratio_range`` and an
    area, relative to the image, in ``area_range`` (which must reach above 1); it is at least
    as large as the image and exceeds it by 2 pixels or more on both sides, else the proposal
    is dropped. After ``max_attempts`` dropped proposals the input is returned unchanged.
    """

    def __init__(self, aspect_ratio_range=(0.75, 1.33), area_range=(1.0, 3.0), max_attempts=50,
                 pad_val=(128, 128, 128)):
        owner = type(self).__name__
        if not isinstance(pad_val, (list, tuple)) and not isinstance(pad_val, numeric_types):
            raise TypeError(f"{owner}: pad_val must be a number or a list of numbers, got {pad_val!r}")
        aspect_ratio_range = _as_range(aspect_ratio_range, "aspect_ratio_range", owner)
        area_range = _as_range(area_range, "area_range", owner)
        super().__init__(aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                         max_attempts=max_attempts, pad_val=pad_val)
        self.pad_val = pad_val
        self.aspect_ratio_range = aspect_ratio_range
        self.area_range = area_range
        self.max_attempts = max_attempts
        self.enabled = False
        if area_range[1] <= 1.0 or area_range[0] > area_range[1]:
            warnings.warn(f"Skip DetRandomPadAug due to invalid parameters: {area_range}",
                          stacklevel=2)
        elif aspect_ratio_range[0] <= 0 or aspect_ratio_range[0] > aspect_ratio_range[1]:
            warnings.warn("Skip DetRandomPadAug due to invalid aspect_ratio_range: "
                          f"{aspect_ratio_range}", stacklevel=2)
        else:
            self.enabled = True

    def __call__(self, src, label):
        height, width = src.shape[0], src.shape[1]
        pad = self._random_pad_proposal(label, height, width)
        if pad:
            x, y, w, h, label = pad
            if isinstance(self.pad_val, (list, tuple)):
                fill = {"values": tuple(self.pad_val)}
            else:
                fill = {"value": float(self.pad_val)}
            src = copyMakeBorder(src, y, h - y - height, x, w - x - width, 0, **fill)
        return src, label

    @staticmethod
    def _update_labels(label, pad_box, height, width):
        """The labels in the coordinates of the canvas ``pad_box`` (x, y, w, h in pixels)."""
        out = label.copy()
        out[:, (1, 3)] = (out[:, (1, 3)] * width + pad_box[0]) / pad_box[2]
        out[:, (2, 4)] = (out[:, (2, 4)] * height + pad_box[1]) / pad_box[3]
        return out

    def _random_pad_proposal(self, label, height, width):
        """``(x, y, w, h, new_label)`` of the canvas, or ``()``."""
        if not self.enabled or height <= 0 or width <= 0:
            return ()
        min_area = self.area_range[0] * height * width
        max_area = self.area_range[1] * height * width
        for _ in range(self.max_attempts):
            ratio = random.uniform(*self.aspect_ratio_range)
            if ratio <= 0:
                continue
            h = int(round(sqrt(min_area / ratio)))
            max_h = int(round(sqrt(max_area / ratio)))
            if round(h * ratio) < width:
                h = int((width + 0.499999) / ratio)
            h = max(h, height)
            h = min(h, max_h)
            if h < max_h:
                h = random.randint(h, max_h)
            w = int(round(h * ratio))
            if (h - height) < 2 or (w - width) < 2:
                continue  # too thin a border to be worth it
            y = random.randint(0, max(0, h - height))
            x = random.randint(0, max(0, w - width))
            return (x, y, w, h, self._update_labels(label, (x, y, w, h), height, width))
        return ()


def CreateMultiRandCropAugmenter(min_object_covered=0.1, aspect_ratio_range=(0.75, 1.33),  # noqa: N802
                                 area_range=(0.05, 1.0), min_eject_coverage=0.3,
                                 max_attempts=50, skip_prob=0):
    """A :class:`DetRandomSelectAug` over several :class:`DetRandomCropAug`.

    Each argument is a single setting or a list of them (one per crop augmenter); lists must
    all have the same length, single settings are shared. (A ``(low, high)`` tuple counts as
    a single setting; a list of tuples gives one per augmenter.)
    """
    params = [min_object_covered, aspect_ratio_range, area_range, min_eject_coverage, max_attempts]
    params = [p if isinstance(p, list) else [p] for p in params]
    num = max([1] + [len(p) for p in params])
    for k, p in enumerate(params):
        if len(p) != num:
            if len(p) != 1:
                raise ValueError("CreateMultiRandCropAugmenter: the list arguments must have the "
                                 f"same length, got lengths {[len(q) for q in params]}")
            params[k] = p * num
    augs = [DetRandomCropAug(min_object_covered=moc, aspect_ratio_range=arr, area_range=ar,
                             min_eject_coverage=mec, max_attempts=ma)
            for moc, arr, ar, mec, ma in zip(*params)]
    return DetRandomSelectAug(augs, skip_prob=skip_prob)


def _det_stat(value, name):
    if value is True:
        return np.array(_IMAGENET_MEAN if name == "mean" else _IMAGENET_STD)
    if value is not None and not (isinstance(value, np.ndarray) and value.shape[0] in (1, 3)):
        raise ValueError(f"CreateDetAugmenter: {name} must be True, None or a NumPy array of 1 "
                         f"or 3 values, got {value!r}")
    return value


def CreateDetAugmenter(data_shape, resize=0, rand_crop=0, rand_pad=0, rand_gray=0,  # noqa: N802
                       rand_mirror=False, mean=None, std=None, brightness=0, contrast=0,
                       saturation=0, pca_noise=0, hue=0, inter_method=2, min_object_covered=0.1,
                       aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 3.0),
                       min_eject_coverage=0.3, max_attempts=50, pad_val=(127, 127, 127)):
    """The detection augmenter list for images of ``data_shape`` (C, H, W), in this order:

    resize of the shorter side (``resize`` > 0); random crops with probability ``rand_crop``
    (:func:`CreateMultiRandCropAugmenter` over ``min_object_covered``, ``aspect_ratio_range``,
    ``area_range``, ``min_eject_coverage``, ``max_attempts``); a mirror with probability 0.5
    (``rand_mirror``); random padding with probability ``rand_pad`` (area up to
    ``area_range[1]``, filled with ``pad_val``); the forced resize to (H, W) with
    ``inter_method``; the cast to float32; colour jitter; hue jitter; PCA lighting noise;
    random gray; normalisation by ``mean`` / ``std`` (True picks ImageNet's values).
    """
    auglist = []
    if resize > 0:
        auglist.append(DetBorrowAug(ResizeAug(resize, inter_method)))
    if rand_crop > 0:
        auglist.append(CreateMultiRandCropAugmenter(min_object_covered, aspect_ratio_range,
                                                    area_range, min_eject_coverage, max_attempts,
                                                    skip_prob=1 - rand_crop))
    if rand_mirror > 0:
        auglist.append(DetHorizontalFlipAug(0.5))
    if rand_pad > 0:  # as late as possible: the canvas is bigger than the image
        pad = DetRandomPadAug(aspect_ratio_range, (1.0, area_range[1]), max_attempts, pad_val)
        auglist.append(DetRandomSelectAug([pad], 1 - rand_pad))
    auglist.append(DetBorrowAug(ForceResizeAug((data_shape[2], data_shape[1]), inter_method)))
    auglist.append(DetBorrowAug(CastAug()))
    if brightness or contrast or saturation:
        auglist.append(DetBorrowAug(ColorJitterAug(brightness, contrast, saturation)))
    if hue:
        auglist.append(DetBorrowAug(HueJitterAug(hue)))
    if pca_noise > 0:
        auglist.append(DetBorrowAug(LightingAug(pca_noise, _PCA_EIGVAL, _PCA_EIGVEC)))
    if rand_gray > 0:
        auglist.append(DetBorrowAug(RandomGrayAug(rand_gray)))
    mean = _det_stat(mean, "mean")
    std = _det_stat(std, "std")
    if mean is not None or std is not None:
        auglist.append(DetBorrowAug(ColorNormalizeAug(mean, std)))
    return auglist


# -- the iterator ---------------------------------------------------------------------------------------
class ImageDetIter(ImageIter):
    """Batches of augmented images with their object boxes.

    The sources are those of :class:`~mxnet.image.ImageIter` (``path_imgrec`` with
    ``path_imgidx``, ``path_imglist`` + ``path_root``, or ``imglist``); every label is a raw
    detection label (see the module's docstring). ``aug_list`` is a list of detection
    augmenters; without it ``CreateDetAugmenter(data_shape, **kwargs)`` makes one.

    Batches hold ``data`` (batch, C, H, W) float32 and ``label`` (batch, max_objects,
    object_width): each image's objects, then rows of -1. ``max_objects`` is the largest
    object count found in one pass over the data at construction (see :meth:`reshape` and
    :meth:`sync_label_shape`). Images whose label has no valid box are skipped.
    """

    def __init__(self, batch_size, data_shape, path_imgrec=None, path_imglist=None, path_root=None,
                 path_imgidx=None, shuffle=False, part_index=0, num_parts=1, aug_list=None,
                 imglist=None, data_name="data", label_name="label", last_batch_handle="pad",
                 **kwargs):
        super().__init__(batch_size=batch_size, data_shape=data_shape, path_imgrec=path_imgrec,
                         path_imglist=path_imglist, path_root=path_root, path_imgidx=path_imgidx,
                         shuffle=shuffle, part_index=part_index, num_parts=num_parts, aug_list=[],
                         imglist=imglist, data_name=data_name, label_name=label_name,
                         last_batch_handle=last_batch_handle)
        self.auglist = CreateDetAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        label_shape = self._estimate_label_shape()
        self.provide_label = [(label_name, (self.batch_size,) + label_shape)]
        self.label_shape = label_shape

    # -- labels -------------------------------------------------------------------------------------
    @staticmethod
    def _check_valid_label(label):
        """RuntimeError unless ``label`` is (N >= 1, 5+) with at least one valid object."""
        if label.ndim != 2 or label.shape[1] < 5:
            raise RuntimeError(f"Label with shape (1+, 5+) required, {label} received.")
        ok = (label[:, 0] >= 0) & (label[:, 3] > label[:, 1]) & (label[:, 4] > label[:, 2])
        if not ok.any():
            raise RuntimeError("Invalid label occurs.")

    def _estimate_label_shape(self):
        """(most objects in one image, object width), from a pass over the labels."""
        most, width = 0, None
        self.reset()
        try:
            while True:
                label, _ = self.next_sample()
                label = self._parse_label(label)
                most = max(most, label.shape[0])
                width = label.shape[1]
        except StopIteration:
            pass
        self.reset()
        if width is None:
            raise MXNetError("ImageDetIter: the data source holds no image")
        return (most, width)

    @staticmethod
    def _parse_label(label):
        """The (num_objects, object_width) objects of a raw label, without the inverted boxes."""
        raw = np.asarray(_host(label), dtype=np.float32).ravel()
        if raw.size < 7:
            raise RuntimeError(f"Label shape is invalid: {raw.shape}")
        header_width, obj_width = int(raw[0]), int(raw[1])
        if obj_width <= 0 or header_width < 0 or (raw.size - header_width) % obj_width != 0:
            raise RuntimeError(f"Label shape {raw.shape} inconsistent with annotation width "
                               f"{obj_width}.")
        out = raw[header_width:].reshape(-1, obj_width)
        if obj_width < 5:
            raise RuntimeError(f"Label object width {obj_width} is smaller than 5 "
                               "(id, xmin, ymin, xmax, ymax).")
        valid = np.where((out[:, 3] > out[:, 1]) & (out[:, 4] > out[:, 2]))[0]
        if valid.size < 1:
            raise RuntimeError("Encounter sample with no valid label.")
        return out[valid, :]

    def reshape(self, data_shape=None, label_shape=None):
        """Change the data shape (C, H, W) and/or the label shape (max_objects, object_width);
        the object count may only grow and the width must stay."""
        if data_shape is not None:
            self.check_data_shape(data_shape)
            data_shape = tuple(data_shape)
            self.provide_data = [(self.provide_data[0][0], (self.batch_size,) + data_shape)]
            self.data_shape = data_shape
        if label_shape is not None:
            self.check_label_shape(label_shape)
            label_shape = tuple(label_shape)
            self.provide_label = [(self.provide_label[0][0], (self.batch_size,) + label_shape)]
            self.label_shape = label_shape

    def check_label_shape(self, label_shape):
        """ValueError unless ``label_shape`` is (count >= current count, same object width)."""
        if len(label_shape) != 2:
            raise ValueError("label_shape should have length 2")
        if label_shape[0] < self.label_shape[0]:
            raise ValueError(f"Attempts to reduce label count from {self.label_shape[0]} to "
                             f"{label_shape[0]}, not allowed.")
        if label_shape[1] != self.provide_label[0][1][2]:
            raise ValueError("label_shape object width inconsistent: "
                             f"{self.provide_label[0][1][2]} vs {label_shape[1]}.")

    def sync_label_shape(self, it, verbose=False):
        """Give this iterator and ``it`` (another ImageDetIter, e.g. the validation one) the
        larger of their object counts; returns ``it``."""
        if not isinstance(it, ImageDetIter):
            raise TypeError("sync_label_shape: it must be an ImageDetIter, got "
                            f"{type(it).__name__}")
        mine, theirs = self.label_shape, it.label_shape
        if mine[1] != theirs[1]:
            raise ValueError(f"sync_label_shape: object width mismatch ({mine[1]} vs {theirs[1]})")
        most = max(mine[0], theirs[0])
        if most > mine[0]:
            self.reshape(None, (most, mine[1]))
        if most > theirs[0]:
            it.reshape(None, (most, theirs[1]))
        if verbose and most > min(mine[0], theirs[0]):
            logging.info("Resized label_shape to (%d, %d).", most, mine[1])
        return it

    # -- batches ------------------------------------------------------------------------------------
    def _batchify(self, batch_data, batch_label, start=0):
        i = start
        try:
            while i < self.batch_size:
                label, s = self.next_sample()
                data = self.imdecode(s)
                try:
                    self.check_valid_image([data])
                    label = self._parse_label(label)
                    data, label = self.augmentation_transform(data, label)
                    self._check_valid_label(label)
                except RuntimeError as e:
                    logging.debug("Invalid image, skipping:  %s", e)
                    continue
                label = np.asarray(_host(label), np.float32)
                slot = batch_label[i]
                if label.shape[0] > slot.shape[0] or label.shape[1] != slot.shape[1]:
                    raise MXNetError(f"ImageDetIter: an image has labels of shape {label.shape}, "
                                     f"which does not fit the label shape {slot.shape}")
                batch_data[i] = _host(self.postprocess_data(data))
                slot[:label.shape[0]] = label
                slot[label.shape[0]:] = -1
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def _new_label(self):
        # objects a sample does not fill stay -1 (padding rows)
        return np.full(self.provide_label[0][1], -1, np.float32)

    def augmentation_transform(self, data, label):  # pylint: disable=arguments-differ
        """Apply the detection augmenters in order; returns ``(data, label)``."""
        for aug in self.auglist:
            data, label = aug(data, label)
        return data, label

    # -- visual check -------------------------------------------------------------------------------
    def draw_next(self, color=None, thickness=2, mean=None, std=None, clip=True, waitKey=None,  # noqa: N803
                  window_name="draw_next", id2labels=None):
        """Yield the next images (augmented, uint8, BGR order as OpenCV shows them) with their
        boxes drawn, undoing ``std`` / ``mean`` (True: ImageNet's) first.

        ``color`` is an RGB triple (random per box when None). Boxes are drawn with NumPy; with
        ``waitKey`` set (or ``id2labels`` given) OpenCV (``cv2``) shows the images / writes the
        class names, and the generator warns and stops when cv2 is missing.
        """
        cv2 = None
        if waitKey is not None or id2labels is not None:
            try:
                import cv2
            except ImportError as e:
                warnings.warn(f"Unable to import cv2, skip drawing: {e}", stacklevel=2)
                return
        std = _det_stat(std, "std")
        mean = _det_stat(mean, "mean")
        count = 0
        try:
            while True:
                label, s = self.next_sample()
                data = self.imdecode(s)
                try:
                    self.check_valid_image([data])
                    label = self._parse_label(label)
                except RuntimeError as e:
                    logging.debug("Invalid image, skipping:  %s", e)
                    continue
                count += 1
                data, label = self.augmentation_transform(data, label)
                image = np.array(_host(data), dtype=np.float64)
                if std is not None:
                    image *= std
                if mean is not None:
                    image += mean
                image = image[:, :, ::-1]
                if clip:
                    image = np.clip(image, 0, 255)
                image = np.ascontiguousarray(image.astype(np.uint8))
                rgb = None if not color else tuple(color)[::-1]
                height, width = image.shape[:2]
                for obj in np.asarray(_host(label)):
                    x1 = int(obj[1] * width)
                    if x1 < 0:
                        continue
                    y1, x2, y2 = int(obj[2] * height), int(obj[3] * width), int(obj[4] * height)
                    bc = np.random.rand(3) * 255 if rgb is None else rgb
                    _draw_box(image, x1, y1, x2, y2, bc, thickness)
                    if id2labels is not None and int(obj[0]) in id2labels:
                        text = f"{id2labels[int(obj[0])]:s}"
                        font = cv2.FONT_HERSHEY_SIMPLEX
                        text_h = cv2.getTextSize(text, font, 0.5, 2)[0][1]
                        cv2.putText(image, text, (x1 + 5, y1 + text_h + 5), font, 0.5,
                                    (255, 255, 255), 2)
                if waitKey is not None:
                    cv2.imshow(window_name, image)
                    cv2.waitKey(waitKey)
                yield image
        except StopIteration:
            if not count:
                return


def _draw_box(image, x1, y1, x2, y2, colour, thickness):
    """Outline the box (x1, y1)-(x2, y2) on the (H, W, 3) uint8 image in place."""
    height, width = image.shape[:2]
    x1, x2 = sorted((x1, x2))
    y1, y2 = sorted((y1, y2))
    t = max(1, int(thickness))
    lo, hi = t // 2, (t - 1) // 2 + 1
    colour = np.clip(np.rint(np.asarray(colour, np.float64)), 0, 255).astype(np.uint8)

    def fill(r0, r1, c0, c1):
        r0, r1 = max(r0, 0), min(r1, height)
        c0, c1 = max(c0, 0), min(c1, width)
        if r0 < r1 and c0 < c1:
            image[r0:r1, c0:c1] = colour

    fill(y1 - lo, y1 + hi, x1 - lo, x2 + hi)
    fill(y2 - lo, y2 + hi, x1 - lo, x2 + hi)
    fill(y1 - lo, y2 + hi, x1 - lo, x1 + hi)
    fill(y1 - lo, y2 + hi, x2 - lo, x2 + hi)
