"""The random augmentation of ImageDetRecordIter (1.9.1's default detection augmenter).

Everything here works on uint8 (H, W, C) RGB images and on (N, width) float32 object arrays
``[class, xmin, ymin, xmax, ymax, extra...]`` with boxes normalised to [0, 1]. Boxes are
handled as NumPy arrays (no loop over objects), pixels as array expressions.

Random draws come from a ``numpy.random.Generator``; their order follows 1.9.1's step order,
not its random stream.
"""
from __future__ import annotations

import numpy as np

from ._image_aug import _round_u8, hls_shift

_F = np.float32


# -- colour ------------------------------------------------------------------------------------
def _signed_int(rng, limit):
    """``int(u * limit)`` for u uniform in [-1, 1), truncated toward zero."""
    return int(np.trunc(np.float32(rng.uniform(-1.0, 1.0)) * np.float32(limit)))


def color_jitter(img, p, rng):
    """The random hue / saturation / lightness shifts (one HLS round trip, OpenCV's 8-bit
    arithmetic, channels clipped to [0, 180] / [0, 255]) followed by the random contrast
    ``saturate(x * (1 + c))``. ``img`` is uint8 (H, W, C); returns a new array or ``img``."""
    dh = ds = dl = 0
    if p["random_hue_prob"] > 0 or p["random_saturation_prob"] > 0 \
            or p["random_illumination_prob"] > 0:
        if p["random_hue_prob"] > 0 and rng.random() < p["random_hue_prob"]:
            dh = _signed_int(rng, p["max_random_hue"])
        if p["random_saturation_prob"] > 0 and rng.random() < p["random_saturation_prob"]:
            ds = _signed_int(rng, p["max_random_saturation"])
        if p["random_illumination_prob"] > 0 and rng.random() < p["random_illumination_prob"]:
            dl = _signed_int(rng, p["max_random_illumination"])
    if dh or ds or dl:
        if img.shape[2] == 3:
            img = hls_shift(img, dh, dl, ds)
        elif dl:   # a grey pixel's HLS is (0, v, 0): only the lightness moves it
            img = np.clip(img.astype(np.int32) + dl, 0, 255).astype(np.uint8)
    if p["random_contrast_prob"] > 0 and rng.random() < p["random_contrast_prob"]:
        c = np.float32(rng.uniform(-1.0, 1.0)) * np.float32(p["max_random_contrast"])
        if abs(c) > 1e-3:
            img = _round_u8(img.astype(np.float32) * (np.float32(1) + c))
    return img


# -- boxes -------------------------------------------------------------------------------------
def project(objs, box):
    """The objects' boxes in the coordinates of ``box`` = (x, y, w, h) (normalised to the
    current image), clipped to [0, 1]; other columns are kept."""
    x, y, w, h = (np.float32(v) for v in box)
    out = objs.copy()
    out[:, 1] = np.maximum(np.float32(0), (objs[:, 1] - x) / w)
    out[:, 2] = np.maximum(np.float32(0), (objs[:, 2] - y) / h)
    out[:, 3] = np.minimum(np.float32(1), (objs[:, 3] - x) / w)
    out[:, 4] = np.minimum(np.float32(1), (objs[:, 4] - y) / h)
    return out


def mirror(objs):
    """Boxes of a horizontally flipped image: xmin, xmax <- 1 - xmax, 1 - xmin."""
    out = objs.copy()
    out[:, 1] = np.float32(1) - objs[:, 3]
    out[:, 3] = np.float32(1) - objs[:, 1]
    return out


def _intersection(boxes, objs):
    """Areas of the intersections of (T, 4) rectangles (x, y, w, h) with the (N,) object boxes:
    (T, N) (0 where they do not overlap)."""
    x0 = np.maximum(boxes[:, None, 0], objs[None, :, 1])
    y0 = np.maximum(boxes[:, None, 1], objs[None, :, 2])
    x1 = np.minimum(boxes[:, None, 0] + boxes[:, None, 2], objs[None, :, 3])
    y1 = np.minimum(boxes[:, None, 1] + boxes[:, None, 3], objs[None, :, 4])
    w, h = x1 - x0, y1 - y0
    return np.where((w > 0) & (h > 0), w * h, np.float32(0))


def _uniform(rng, lo, hi, size):
    """float32 ``lo + (hi - lo) * u`` (like std::uniform_real_distribution, also for lo > hi)."""
    u = rng.random(size).astype(np.float32)
    lo, hi = np.float32(lo), np.float32(hi)
    return lo + (hi - lo) * u


def crop_boxes(rng, n, s, img_aspect):
    """``n`` random crop rectangles (x, y, w, h), normalised, of sampler ``s``: a scale in
    [min, max), an aspect ratio (width / height, relative to the image's) in the sampler's
    range and limited so that both sides fit, then a uniform position."""
    scale = _uniform(rng, s["min_scale"], s["max_scale"], n) + np.float32(1e-12)
    sq = scale * scale
    ar = np.float32(img_aspect)
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.maximum(np.float32(s["min_aspect"]) / ar, sq)
        hi = np.minimum(np.float32(s["max_aspect"]) / ar, np.float32(1) / sq)
        ratio = np.sqrt(lo + (hi - lo) * rng.random(n).astype(np.float32))
        w = scale * ratio
        h = scale / ratio
    one = np.float32(1)
    w = np.where(w < one, w, one)      # std::min(1, v): NaN gives 1
    h = np.where(h < one, h, one)
    x = (one - w) * rng.random(n).astype(np.float32)
    y = (one - h) * rng.random(n).astype(np.float32)
    return np.stack([x, y, w, h], axis=1).astype(np.float32)


def crop_accepts(boxes, objs, s):
    """(T,) whether each crop rectangle satisfies the sampler's constraints for at least one
    object (IoU in [min, max] overlap, intersection / crop area in the sample-coverage range,
    intersection / object area in the object-coverage range; a range [<= 0, >= 1] is not
    checked, and nothing checked accepts every rectangle)."""
    t, n = len(boxes), len(objs)
    ok = np.ones((t, n), bool)
    checked = False
    inter = _intersection(boxes, objs)
    crop_area = (boxes[:, 2] * boxes[:, 3])[:, None]
    obj_area = ((objs[:, 3] - objs[:, 1]) * (objs[:, 4] - objs[:, 2]))[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        for key, value in (("overlap", inter / (crop_area + obj_area - inter)),
                           ("sample_coverage", inter / crop_area),
                           ("object_coverage", inter / obj_area)):
            lo, hi = s["min_" + key], s["max_" + key]
            if lo > 0 or hi < 1:
                checked = True
                ok &= (value >= np.float32(lo)) & (value <= np.float32(hi))
    if not checked:
        return np.ones(t, bool)
    return ok.any(axis=1)


def emitted(boxes, objs, mode, thresh):
    """(T, N) which objects survive each crop: ``center`` keeps the objects whose centre lies in
    the crop (left/top edges included), ``overlap`` those whose intersection / area exceeds
    ``thresh``."""
    if mode == "center":
        cx = (objs[:, 1] + objs[:, 3]) * np.float32(0.5)
        cy = (objs[:, 2] + objs[:, 4]) * np.float32(0.5)
        x, y, w, h = (boxes[:, i:i + 1] for i in range(4))
        return (cx >= x) & (cx < x + w) & (cy >= y) & (cy < y + h)
    area = ((objs[:, 3] - objs[:, 1]) * (objs[:, 4] - objs[:, 2]))[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        return _intersection(boxes, objs) / area > np.float32(thresh)


def random_crop(img, objs, p, rng):
    """The random crop: the samplers in random order, each drawing up to its number of trials;
    the first rectangle that passes its constraints and keeps at least one object crops the
    image (pixel rectangle truncated from the normalised one) and its boxes (projected and
    clipped, the others dropped). Returns (img, objs), unchanged when every trial fails."""
    rows, cols = img.shape[:2]
    for idx in rng.permutation(len(p["samplers"])):
        s = p["samplers"][idx]
        trials = s["trials"]
        if trials <= 0:
            continue
        boxes = crop_boxes(rng, trials, s, cols / rows)
        if len(objs):
            keep = emitted(boxes, objs, p["crop_emit_mode"], p["emit_overlap_thresh"])
            good = crop_accepts(boxes, objs, s) & keep.any(axis=1)
        else:   # nothing to check: the first rectangle is taken
            keep = np.zeros((trials, 0), bool)
            good = np.ones(trials, bool)
        hits = np.flatnonzero(good)
        if hits.size == 0:
            continue
        k = hits[0]
        x, y, w, h = boxes[k]
        left, top = int(x * np.float32(cols)), int(y * np.float32(rows))
        width = max(1, int(w * np.float32(cols)))
        height = max(1, int(h * np.float32(rows)))
        img = img[top:top + height, left:left + width]
        return img, project(objs[keep[k]], boxes[k])
    return img, objs


def random_pad(img, objs, p, rng):
    """The random expansion: a scale in [1, max_pad_scale) (below 1.05 nothing happens) and a
    uniform offset in [0, scale - 1) on each axis; see :func:`pad`. Returns (img, objs)."""
    scale = float(_uniform(rng, 1.0, p["max_pad_scale"], 1)[0])
    if scale < 1.05:
        return img, objs
    ox, oy = _uniform(rng, 0.0, scale - 1.0, 2)
    return pad(img, objs, ox, oy, scale, p["fill_value"])


def pad(img, objs, ox, oy, scale, fill_value):
    """Place the image inside a canvas ``scale`` times larger (in units of the image, the
    image's top-left corner at (ox, oy)) filled with ``fill_value`` (clipped to [0, 255]); the
    border widths are truncated to whole pixels. The boxes follow. Returns (img, objs)."""
    x, y = -np.float32(ox), -np.float32(oy)
    w = h = np.float32(scale)
    rows, cols = img.shape[:2]
    left, top = int(-x * np.float32(cols)), int(-y * np.float32(rows))
    right = max(0, int((w + x - np.float32(1)) * np.float32(cols)))
    bottom = max(0, int((h + y - np.float32(1)) * np.float32(rows)))
    fill = int(np.clip(fill_value, 0, 255))
    out = np.full((rows + top + bottom, cols + left + right, img.shape[2]), fill, np.uint8)
    out[top:top + rows, left:left + cols] = img
    return out, project(objs, (x, y, w, h))
