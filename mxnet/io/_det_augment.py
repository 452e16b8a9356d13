"""The random augmentation of ImageDetRecordIter (1.9.1's default detection augmenter).

Everything here works on uint8 (H, W, C) RGB images and on (N, width) float32 object arrays
``[class, xmin, ymin, xmax, ymax, extra...]`` with boxes normalised to [0, 1]. Boxes are
handled as NumPy arrays (no loop over objects), pixels as array expressions.

Random draws come from a :class:`mxnet.io.image_record_iter._StdEngine` (``std::mt19937``
with libstdc++'s distributions) and follow 1.9.1's stream draw for draw: the colour step
takes eight canonical floats (the hue, saturation, lightness and contrast values, then their
four probability checks), the expansion a scale and two offsets, the crop a ``std::shuffle``
of the samplers and four floats per trial (scale, ratio, x, y) up to the first accepted one.
"""
from __future__ import annotations

import numpy as np

from ._image_aug import _round_u8, hls_shift

_F = np.float32


# -- colour ------------------------------------------------------------------------------------
def _shift_value(u, limit):
    """``u * 2 limit - limit`` (float32) truncated toward zero: an HSL shift in [-limit, limit]."""
    return int(u * np.float32(2 * limit) - np.float32(limit))


def draw_colour(p, rng):
    """The colour step's draws: ``(dh, ds, dl, c)`` (HLS shifts, contrast or None), or None
    when no colour probability is positive. As 1.9.1, eight floats are drawn then: the four
    values (hue, saturation, lightness, contrast), then the four ``u < prob`` checks."""
    probs = (p["random_hue_prob"], p["random_saturation_prob"], p["random_illumination_prob"],
             p["random_contrast_prob"])
    if not any(q > 0 for q in probs):
        return None
    u = rng.canonical(rng.words(8))
    on = [u[4 + i] < np.float32(q) for i, q in enumerate(probs)]
    dh = _shift_value(u[0], p["max_random_hue"]) if on[0] else 0
    ds = _shift_value(u[1], p["max_random_saturation"]) if on[1] else 0
    dl = _shift_value(u[2], p["max_random_illumination"]) if on[2] else 0
    c = None
    if on[3]:
        mc = np.float32(p["max_random_contrast"])
        c = u[3] * mc * np.float32(2) - mc
    return dh, ds, dl, c


def apply_colour(img, dh, ds, dl, c):
    """The hue / saturation / lightness shifts (one HLS round trip, OpenCV's 8-bit arithmetic,
    channels clipped to [0, 180] / [0, 255]), then the contrast ``saturate(x * (1 + c))``.
    ``img`` is uint8 (H, W, C); returns a new array or ``img``."""
    if dh or ds or dl:
        if img.shape[2] == 3:
            img = hls_shift(img, dh, dl, ds)
        elif dl:   # a grey pixel's HLS is (0, v, 0): only the lightness moves it
            img = np.clip(img.astype(np.int32) + dl, 0, 255).astype(np.uint8)
    if c is not None and abs(c) > 1e-3:
        img = _round_u8(img.astype(np.float32) * (np.float32(1) + c))
    return img


def color_jitter(img, p, rng):
    """:func:`draw_colour` then :func:`apply_colour`."""
    d = draw_colour(p, rng)
    return img if d is None else apply_colour(img, *d)


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


def crop_boxes(rng, n, s, img_aspect):
    """``n`` random crop rectangles (x, y, w, h), normalised, of sampler ``s``, drawn as 1.9.1
    draws its trials (four floats each: scale, ratio, x, y): a scale in [min, max), an aspect
    ratio (width / height, relative to the image's) in the sampler's range and limited so that
    both sides fit, then a uniform position. Returns ((n, 4) float32 boxes, the raw words)."""
    words = rng.words(4 * n)
    u = rng.canonical(words).reshape(n, 4)
    lo, hi = np.float32(s["min_scale"]), np.float32(s["max_scale"])
    scale = (u[:, 0] * (hi - lo) + lo + np.float32(1e-12)).astype(np.float32)
    sq = scale * scale
    ar = np.float32(img_aspect)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lo = np.maximum(np.float32(s["min_aspect"]) / ar, sq)
        hi = np.minimum(np.float32(s["max_aspect"]) / ar, np.float32(1) / sq)
        ratio = np.sqrt(u[:, 1] * (hi - lo) + lo)
        w = scale * ratio
        h = scale / ratio
    one = np.float32(1)
    w = np.where(w < one, w, one)      # std::min(1, v): NaN gives 1
    h = np.where(h < one, h, one)
    x = u[:, 2] * (one - w)
    y = u[:, 3] * (one - h)
    return np.stack([x, y, w, h], axis=1).astype(np.float32), words


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


def draw_crop(objs, rows, cols, p, rng):
    """The random crop's draws on a ``rows`` x ``cols`` image: the samplers in random order
    (``std::shuffle``), each drawing up to its number of trials; the first rectangle that
    passes its constraints and keeps at least one object wins (an image without objects takes
    the first rectangle). Returns ((top, left, height, width) in pixels, truncated from the
    normalised rectangle, and the kept objects projected and clipped), or None when every
    trial fails. The trials are drawn ahead and the words after the accepted one put back, so
    the stream is 1.9.1's."""
    order = list(range(len(p["samplers"])))
    for i in range(1, len(order)):
        j = int(rng.integers(0, i + 1))
        order[i], order[j] = order[j], order[i]
    for idx in order:
        s = p["samplers"][idx]
        trials = s["trials"]
        if trials <= 0:
            continue
        boxes, words = crop_boxes(rng, trials, s, np.float32(cols) / np.float32(rows))
        if len(objs):
            keep = emitted(boxes, objs, p["crop_emit_mode"], p["emit_overlap_thresh"])
            good = crop_accepts(boxes, objs, s) & keep.any(axis=1)
        else:   # nothing to check: the first rectangle is taken
            keep = np.zeros((trials, 0), bool)
            good = np.ones(trials, bool)
        hits = np.flatnonzero(good)
        if hits.size == 0:
            continue
        k = int(hits[0])
        rng.unread(words[4 * (k + 1):])
        x, y, w, h = boxes[k]
        left, top = int(x * np.float32(cols)), int(y * np.float32(rows))
        width = max(1, int(w * np.float32(cols)))
        height = max(1, int(h * np.float32(rows)))
        return (top, left, height, width), project(objs[keep[k]], boxes[k])
    return None


def random_crop(img, objs, p, rng):
    """:func:`draw_crop` applied to ``img``. Returns (img, objs), unchanged when every trial
    fails."""
    got = draw_crop(objs, img.shape[0], img.shape[1], p, rng)
    if got is None:
        return img, objs
    (top, left, height, width), objs = got
    return img[top:top + height, left:left + width], objs


def draw_pad(objs, rows, cols, p, rng):
    """The random expansion's draws: a scale in [1, max_pad_scale) (below 1.05 nothing
    happens: None) and a uniform offset in [0, scale - 1) on x then y. Returns ((top, left,
    bottom, right) border widths, the re-expressed objects); see :func:`pad`."""
    hi = np.float32(p["max_pad_scale"])
    scale = rng.random() * (hi - np.float32(1)) + np.float32(1)
    if scale < 1.05:
        return None
    span = scale - np.float32(1)
    ox = rng.random() * span
    oy = rng.random() * span
    return pad_geometry(objs, rows, cols, ox, oy, scale)


def pad_geometry(objs, rows, cols, ox, oy, scale):
    """The borders (top, left, bottom, right) of an image of ``rows`` x ``cols`` placed in a
    canvas ``scale`` times larger (in units of the image, the image's top-left corner at (ox,
    oy)), truncated to whole pixels, and the boxes re-expressed in the canvas."""
    x, y = -np.float32(ox), -np.float32(oy)
    w = h = np.float32(scale)
    left, top = int(-x * np.float32(cols)), int(-y * np.float32(rows))
    right = max(0, int((w + x - np.float32(1)) * np.float32(cols)))
    bottom = max(0, int((h + y - np.float32(1)) * np.float32(rows)))
    return (top, left, bottom, right), project(objs, (x, y, w, h))


def pad_pixels(img, borders, fill_value):
    """``img`` inside borders (top, left, bottom, right) filled with ``fill_value`` (clipped to
    [0, 255])."""
    top, left, bottom, right = borders
    rows, cols = img.shape[:2]
    fill = int(np.clip(fill_value, 0, 255))
    out = np.full((rows + top + bottom, cols + left + right, img.shape[2]), fill, np.uint8)
    out[top:top + rows, left:left + cols] = img
    return out


def pad(img, objs, ox, oy, scale, fill_value):
    """Place the image inside a canvas ``scale`` times larger (in units of the image, the
    image's top-left corner at (ox, oy)) filled with ``fill_value`` (clipped to [0, 255]); the
    border widths are truncated to whole pixels. The boxes follow. Returns (img, objs)."""
    borders, objs = pad_geometry(objs, img.shape[0], img.shape[1], ox, oy, scale)
    return pad_pixels(img, borders, fill_value), objs
