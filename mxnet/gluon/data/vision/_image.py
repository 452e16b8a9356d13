"""Image kernels on NumPy arrays for the vision transforms and datasets.

The resize follows OpenCV's ``cv::resize`` (which 1.9.1 calls) closely enough to give the
same numbers:

- pixel centres map as ``src = (dst + 0.5) * (src_size / dst_size) - 0.5``;
- horizontally an out-of-range tap is clamped together with its weight, vertically only
  the row index is clamped (the weights stay), as OpenCV does;
- uint8 images use 11-bit fixed-point weights; bilinear rows are combined the way
  OpenCV's SSE2 kernel does (``>> 4``, high half of a 16-bit product, ``+ 2 >> 2``), other
  kernels with a plain rounding shift by 22 bits;
- bilinear downscaling by exactly 2 in both directions becomes area averaging, and area
  downscaling by whole factors averages blocks.

Decoding uses Pillow, imported only when an image file is actually read.
"""
from __future__ import annotations

import logging
import math
import warnings

import numpy as np

__all__ = ["resize", "imdecode", "imread", "to_gray", "INTERP_NAMES"]

INTERP_NAMES = {0: "nearest", 1: "bilinear", 2: "bicubic", 3: "area", 4: "lanczos",
                5: "bilinear_exact"}

_COEF_BITS = 11
# 1-byte images take OpenCV's 8-bit fixed-point kernels. (1.9.1 hands int8 images to OpenCV
# as uint8 bytes; a signed kernel gives its numbers for non-negative pixels and keeps
# negative ones negative.)
_BYTE_TYPES = (np.dtype(np.uint8), np.dtype(np.int8))
_COEF_SCALE = 1 << _COEF_BITS


# -- weights along one axis ----------------------------------------------------------------------
def _cubic_weights(f):
    a = np.float32(-0.75)
    one = np.float32(1)
    c0 = ((a * (f + one) - 5 * a) * (f + one) + 8 * a) * (f + one) - 4 * a
    c1 = ((a + 2) * f - (a + 3)) * f * f + one
    c2 = ((a + 2) * (one - f) - (a + 3)) * (one - f) * (one - f) + one
    c3 = one - c0 - c1 - c2
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.float32)


def _lanczos_weights(f):
    s45 = 0.70710678118654752440084436210485
    cs = np.array([[1, 0], [-s45, -s45], [0, 1], [s45, -s45], [-1, 0], [s45, s45], [0, -1],
                   [-s45, s45]])
    # ``f + 3 - i`` is float32 arithmetic before the angle is taken in double, as in OpenCV
    f3 = (f.astype(np.float32) + np.float32(3))[:, None]
    y0 = -f3.astype(np.float64) * math.pi * 0.25
    s0, c0 = np.sin(y0), np.cos(y0)
    y = -(f3 - np.arange(8, dtype=np.float32)).astype(np.float64) * math.pi * 0.25
    with np.errstate(divide="ignore", invalid="ignore"):
        w = ((cs[:, 0] * s0 + cs[:, 1] * c0) / (y * y)).astype(np.float32)
        total = np.zeros(len(f), np.float32)
        for i in range(8):  # float32 running sum, in OpenCV's order
            total = (total + w[:, i]).astype(np.float32)
        w = w * (np.float32(1) / total)[:, None]
    tiny = f < np.finfo(np.float32).eps
    w[tiny] = 0
    w[tiny, 3] = 1
    return w.astype(np.float32)


def _axis_taps(src, dst, method, horizontal):
    """Source indices (dst, k) and float32 weights (dst, k) along one axis."""
    inv_scale = dst / src
    scale = 1.0 / inv_scale
    d = np.arange(dst, dtype=np.float64)
    if method == "area":  # OpenCV's INTER_AREA when enlarging: a linear kernel, area positions
        s = np.floor(d * scale).astype(np.int64)
        f = ((d + 1) - (s + 1) * inv_scale).astype(np.float32)
        f = np.where(f <= 0, np.float32(0), f - np.floor(f)).astype(np.float32)
    else:
        f = ((d + 0.5) * scale - 0.5).astype(np.float32)
        s = np.floor(f).astype(np.int64)
        f = (f - s.astype(np.float32)).astype(np.float32)
    if method in ("bilinear", "area"):
        if horizontal:
            lo = s < 0
            f[lo], s[lo] = 0, 0
            hi = s >= src - 1
            f[hi], s[hi] = 0, src - 1
        w = np.stack([np.float32(1) - f, f], axis=1).astype(np.float32)
        offs = np.arange(2)
    elif method == "bicubic":
        w = _cubic_weights(f)
        offs = np.arange(-1, 3)
    else:
        w = _lanczos_weights(f)
        offs = np.arange(-3, 5)
    idx = np.clip(s[:, None] + offs, 0, src - 1)
    return idx, w


def _fixed(w):
    """OpenCV's saturate_cast<short>(w * 2048) (round half to even)."""
    return np.clip(np.rint(w * _COEF_SCALE), -32768, 32767).astype(np.int64)


def _area_fast(img, sx, sy, out_h, out_w):
    h, w = out_h * sy, out_w * sx
    block = img[:h, :w].reshape(out_h, sy, out_w, sx, -1)
    if img.dtype in _BYTE_TYPES:
        total = block.astype(np.int64).sum(axis=(1, 3))
        if sx == 2 and sy == 2:
            return ((total + 2) >> 2).astype(img.dtype)
        return _saturate(total.astype(np.float32) * np.float32(1.0 / (sx * sy)), img.dtype)
    cn = block.shape[-1]
    if sx == 2 and sy == 2 and cn in (1, 4) and img.dtype == np.float32:
        # OpenCV's SIMD kernel: (row0 pair + row1 pair) * 0.25 over whole groups of four
        # values of an output row; the rest of the row takes the scalar order
        res = ((block[:, 0, :, 0] + block[:, 0, :, 1]) + (block[:, 1, :, 0] + block[:, 1, :, 1]))
        res *= np.float32(0.25)
        tail = out_w - out_w * cn // 4 * 4 // cn
        if tail:
            res[:, out_w - tail:] = _area_fast_sum(block[:, :, out_w - tail:], img.dtype)
        return res
    return _area_fast_sum(block, img.dtype)


def _area_fast_sum(block, dtype):
    """Whole-block means of float (out_h, sy, out_w, sx, c) blocks in OpenCV's scalar order:
    taps row by row, then along the row, added to a running sum (from 0) in groups of four,
    ((a + b) + c) + d, as its unrolled loop does, then one by one; times a float32 1/area
    (also for float64 images)."""
    out_h, sy, out_w, sx, cn = block.shape
    work = np.float64 if dtype == np.float64 else np.float32
    taps = [block[:, i, :, j].astype(work, copy=False) for i in range(sy) for j in range(sx)]
    total = np.zeros((out_h, out_w, cn), work)
    group = np.empty_like(total)
    k = 0
    while k + 4 <= len(taps):
        np.add(taps[k], taps[k + 1], out=group)
        group += taps[k + 2]
        group += taps[k + 3]
        total += group
        k += 4
    for t in taps[k:]:
        total += t
    return (total * work(np.float32(1.0) / np.float32(sx * sy))).astype(dtype)


def _area_tab(src, dst):
    """Fractional-area taps of OpenCV's INTER_AREA shrink: indices and float32 weights, (dst, k).

    Padding taps repeat the last index with weight 0, which leaves a running float sum unchanged.
    """
    scale = src / dst
    taps = []
    for dx in range(dst):
        fs1 = dx * scale
        fs2 = fs1 + scale
        s2 = min(math.floor(fs2), src - 1)
        s1 = min(math.ceil(fs1), s2)
        cell = min(scale, src - fs1)
        row = []
        if s1 - fs1 > 1e-3:
            row.append((s1 - 1, (s1 - fs1) / cell))
        row += [(sx, 1.0 / cell) for sx in range(s1, s2)]
        if fs2 - s2 > 1e-3:
            row.append((s2, min(min(fs2 - s2, 1.0), cell) / cell))
        taps.append(row)
    k = max(len(r) for r in taps)
    idx = np.array([[i for i, _ in r] + [r[-1][0]] * (k - len(r)) for r in taps], np.int64)
    wts = np.array([[a for _, a in r] + [0.0] * (k - len(r)) for r in taps], np.float32)
    return idx, wts


def _area_shrink(img, w, h):
    """OpenCV's generic INTER_AREA shrink: float32 weights, sums accumulated in its order
    (in float64 for float64 images, float32 otherwise)."""
    xi, xw = _area_tab(img.shape[1], w)
    yi, yw = _area_tab(img.shape[0], h)
    if img.dtype == np.float64:
        xw, yw = xw.astype(np.float64), yw.astype(np.float64)
    src = img.astype(np.float64 if img.dtype == np.float64 else np.float32)
    rows = src[:, xi[:, 0]] * xw[None, :, 0, None]
    for k in range(1, xi.shape[1]):
        rows = rows + src[:, xi[:, k]] * xw[None, :, k, None]
    out = rows[yi[:, 0]] * yw[:, 0, None, None]
    for k in range(1, yi.shape[1]):
        out = out + rows[yi[:, k]] * yw[:, k, None, None]
    return _saturate(out, img.dtype) if img.dtype.kind in "ui" else out.astype(img.dtype)


_CUBIC_CHUNK = 8


def _cubic_simd(rows, yi, ay):
    scale = np.float32(1.0 / (_COEF_SCALE * _COEF_SCALE))
    b = (ay.astype(np.float32) * scale).astype(np.float32)
    acc = rows[yi[:, 0]].astype(np.float32) * b[:, 0, None, None]
    for k in range(1, 4):
        acc = acc + rows[yi[:, k]].astype(np.float32) * b[:, k, None, None]
    return np.rint(acc).astype(np.int64)


def _saturate(x, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.rint(x), info.min, info.max).astype(dtype)


def _exact_taps(src, dst):
    """Two taps per output along one axis, weights in 1/256 steps (summing to 256)."""
    pos = (np.arange(dst, dtype=np.float64) + 0.5) * (src / dst) - 0.5
    s = np.floor(pos).astype(np.int64)
    w1 = np.rint((pos - s) * 256).astype(np.int64)
    w0 = 256 - w1
    edge = (pos < 0) | (s >= src - 1)      # outside the source: the edge pixel alone
    s = np.clip(s, 0, src - 1)
    w0[edge], w1[edge] = 256, 0
    return s, np.minimum(s + 1, src - 1), w0, w1


def _linear_exact_u8(img, w, h):
    """Bilinear in integer arithmetic (8-bit weights per axis, one rounding at the end), the
    way OpenCV's INTER_LINEAR_EXACT treats uint8 images."""
    x0, x1, wx0, wx1 = _exact_taps(img.shape[1], w)
    y0, y1, wy0, wy1 = _exact_taps(img.shape[0], h)
    src = img.astype(np.int64)
    rows = src[:, x0] * wx0[None, :, None] + src[:, x1] * wx1[None, :, None]
    out = rows[y0] * wy0[:, None, None] + rows[y1] * wy1[:, None, None]
    return ((out + (1 << 15)) >> 16).astype(np.uint8)


def _resize_hwc(img, w, h, interp):
    src_h, src_w = img.shape[:2]
    method = INTERP_NAMES[interp]
    if method == "bilinear_exact":  # OpenCV's INTER_LINEAR_EXACT: bit-exact for uint8 only
        if img.dtype == np.uint8:
            return _linear_exact_u8(img, w, h)
        method = "bilinear"
    scale_x, scale_y = src_w / w, src_h / h
    ix, iy = int(round(scale_x)), int(round(scale_y))
    area_fast = abs(scale_x - ix) < 2.2e-16 and abs(scale_y - iy) < 2.2e-16
    if method == "bilinear" and area_fast and ix == 2 and iy == 2:
        method = "area"
    if method == "nearest":  # OpenCV steps by 1 / (dst / src), which can round differently
        xs = np.minimum(np.floor(np.arange(w) * (1.0 / (w / src_w))).astype(np.int64), src_w - 1)
        ys = np.minimum(np.floor(np.arange(h) * (1.0 / (h / src_h))).astype(np.int64), src_h - 1)
        return img[ys[:, None], xs]
    if method == "area" and scale_x >= 1 and scale_y >= 1:
        if area_fast:
            return _area_fast(img, ix, iy, h, w)
        return _area_shrink(img, w, h)
    xi, xw = _axis_taps(src_w, w, method, True)
    yi, yw = _axis_taps(src_h, h, method, False)
    if img.dtype in _BYTE_TYPES:
        ax, ay = _fixed(xw), _fixed(yw)
        src = img.astype(np.int64)
        rows = (src[:, xi] * ax[None, :, :, None]).sum(axis=2)           # (src_h, w, c)
        if method in ("bilinear", "area"):
            s0, s1 = rows[yi[:, 0]], rows[yi[:, 1]]
            b0, b1 = ay[:, 0, None, None], ay[:, 1, None, None]
            out = ((((s0 >> 4) * b0) >> 16) + (((s1 >> 4) * b1) >> 16) + 2) >> 2
        else:
            acc = (rows[yi] * ay[:, :, None, None]).sum(axis=1)
            out = (acc + (1 << (2 * _COEF_BITS - 1))) >> (2 * _COEF_BITS)
            if method == "bicubic":  # OpenCV's SSE2 kernel: float32 sums over 8-value chunks
                simd = _cubic_simd(rows, yi, ay)
                flat_cols = np.arange(w * img.shape[2]).reshape(w, img.shape[2])
                use = flat_cols < (w * img.shape[2]) // _CUBIC_CHUNK * _CUBIC_CHUNK
                out = np.where(use[None], simd, out)
        info = np.iinfo(img.dtype)
        return np.clip(out, info.min, info.max).astype(img.dtype)
    work = np.float64 if img.dtype == np.float64 else np.float32
    src = img.astype(work)
    rows = src[:, xi[:, 0]] * xw[None, :, 0, None].astype(work)
    for k in range(1, xi.shape[1]):
        rows = rows + src[:, xi[:, k]] * xw[None, :, k, None].astype(work)
    out = rows[yi[:, 0]] * yw[:, 0, None, None].astype(work)
    for k in range(1, yi.shape[1]):
        out = out + rows[yi[:, k]] * yw[:, k, None, None].astype(work)
    if img.dtype.kind in "ui":
        return _saturate(out, img.dtype)
    return out.astype(img.dtype)


def resize(img, w, h, interp=1):
    """Resize an (H, W, C), (H, W) or (N, H, W, C) NumPy image to width ``w``, height ``h``."""
    if interp not in INTERP_NAMES:
        raise ValueError(f"Unknown interp method {interp}; expected one of 0-5 "
                         f"({', '.join(f'{k} {v}' for k, v in INTERP_NAMES.items())})")
    w, h = int(w), int(h)
    if w <= 0 or h <= 0:
        raise ValueError(f"resize: the output size must be positive, got width={w} height={h}")
    img = np.asarray(img)
    if img.ndim == 4:
        return np.stack([_resize_hwc(x, w, h, interp) for x in img])
    if img.ndim == 2:
        return _resize_hwc(img[:, :, None], w, h, interp)[:, :, 0]
    if img.ndim != 3:
        raise ValueError(f"resize: expected an (H, W, C) or (N, H, W, C) image, got shape {img.shape}")
    return _resize_hwc(img, w, h, interp)


# -- decoding -------------------------------------------------------------------------------------
def _pil():
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("decoding images needs Pillow: pip install Pillow "
                          "(or pip install mxnet-py[image])") from None
    png_log = logging.getLogger("PIL.PngImagePlugin")
    if png_log.level == logging.NOTSET:  # its per-chunk DEBUG lines would flood a DEBUG root log
        png_log.setLevel(logging.INFO)
    return Image


def to_gray(rgb):
    """OpenCV's cvtColor RGB -> gray (14-bit fixed point) of a uint8 (H, W, 3) array; (H, W, 1)."""
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    y = (r * 4899 + g * 9617 + b * 1868 + (1 << 13)) >> 14
    return y.astype(np.uint8)[..., None]


def _png_gray(rgb):
    """libpng's rgb_to_gray as OpenCV requests it (weights 0.299, 0.587 in 15-bit fixed point,
    truncated); gray pixels pass through unchanged."""
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    y = (9797 * r + 19234 * g + 3737 * b) >> 15
    return y.astype(np.uint8)[..., None]


def _cmyk_to_rgb(cmyk, inverted):
    """OpenCV's CMYK -> RGB for JPEGs, on the values as stored in the file (Pillow inverts
    Adobe CMYK on load): each channel is ``k - ((255 - v) * k >> 8)``."""
    v = cmyk.astype(np.int64)
    if inverted:
        v = 255 - v
    k = v[..., 3:4]
    return (k - (((255 - v[..., :3]) * k) >> 8)).astype(np.uint8)


def imdecode(buf, flag=1, to_rgb=True):
    """Decode encoded image bytes to a uint8 NumPy array: (H, W, 3) for flag=1, (H, W, 1) for 0.

    Grayscale output follows OpenCV's decoders: libjpeg's own gray output for JPEG, libpng's
    conversion for PNG, and cvtColor's weights for other formats.
    """
    import io
    Image = _pil()
    try:
        im = Image.open(io.BytesIO(bytes(buf)))
        if flag == 0 and im.format == "JPEG":
            im.draft("L", im.size)
        im.load()
    except Exception as e:  # noqa: BLE001 - Pillow raises many kinds
        raise ValueError(f"imdecode: cannot decode the image ({type(e).__name__}: {e})") from None
    if im.mode.startswith("I;16"):
        im = Image.fromarray((np.asarray(im, dtype=np.uint16) >> 8).astype(np.uint8))
    if flag == 0 and im.mode == "L":
        return np.ascontiguousarray(np.asarray(im, dtype=np.uint8)[..., None])
    if im.mode == "CMYK":
        arr = _cmyk_to_rgb(np.asarray(im), "adobe" in im.info)
    else:
        with warnings.catch_warnings():   # Pillow's advice on palette transparency; 1.9.1 is silent
            warnings.simplefilter("ignore")
            arr = np.asarray(im.convert("RGB"), dtype=np.uint8)
    if flag == 0:
        return _png_gray(arr) if im.format == "PNG" else to_gray(arr)
    if not to_rgb:
        arr = arr[:, :, ::-1]
    return np.ascontiguousarray(arr)


def imread(filename, flag=1, to_rgb=True):
    """Read and decode an image file (see :func:`imdecode`)."""
    with open(filename, "rb") as f:
        return imdecode(f.read(), flag, to_rgb)


# -- tensor conversion and colour ------------------------------------------------------------------
def _check_image(x, name, ndims=(3, 4)):
    if x.ndim not in ndims:
        raise ValueError(f"{name}: the input image must have shape (H, W, C) or (N, H, W, C), "
                         f"got {x.shape}")


def to_tensor(x):
    """(H, W, C) or (N, H, W, C) in [0, 255] -> float32 (C, H, W) or (N, C, H, W) in [0, 1]."""
    _check_image(x, "to_tensor")
    out = x.astype(np.float32) / np.float32(255.0)
    axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
    return np.ascontiguousarray(out.transpose(axes))


def normalize(x, mean, std):
    """Per-channel ``(x - mean) / std`` of a (C, H, W) or (N, C, H, W) tensor (C is 1 or 3);
    a scalar (or one-element) mean or std applies to every channel. Keeps the dtype."""
    if x.ndim not in (3, 4):
        raise ValueError(f"normalize: the input must have shape (C, H, W) or (N, C, H, W), "
                         f"got {x.shape}")
    c = x.shape[-3]
    if c not in (1, 3):
        raise ValueError(f"normalize: the channel dimension must have 1 or 3 elements, got input "
                         f"with shape {x.shape}")
    mean = np.atleast_1d(np.asarray(mean, np.float32))
    std = np.atleast_1d(np.asarray(std, np.float32))
    for what, v in (("mean", mean), ("std", std)):
        if v.size not in (1, c):
            raise ValueError(f"normalize: {what} must have 1 or {c} elements, got {v.tolist()}")
    work = np.float64 if x.dtype == np.float64 else np.float32
    mean = np.broadcast_to(mean, (c,)).astype(work)[:, None, None]
    std = np.broadcast_to(std, (c,)).astype(work)[:, None, None]
    out = (x.astype(work) - mean) / std
    return _cast_like(out, x.dtype)


def _cast_like(out, dtype):
    """Back to ``dtype``: integers are clamped to their range and truncated, as 1.9.1's casts."""
    dtype = np.dtype(dtype)
    if dtype.kind in "ui":
        info = np.iinfo(dtype)
        return np.trunc(np.clip(out, info.min, info.max)).astype(dtype)
    if dtype.kind == "b":
        return out != 0
    return out.astype(dtype)


def flip(x, axis):
    """Mirror along ``axis`` (1 is left-right for (H, W, C), 0 top-bottom)."""
    return np.ascontiguousarray(np.flip(x, axis=axis))


_GRAY = np.array([0.299, 0.587, 0.114], np.float32)


def adjust_brightness(x, alpha):
    return _cast_like(x.astype(np.float32) * np.float32(alpha), x.dtype)


def adjust_contrast(x, alpha):
    """Blend with the mean gray level of the whole image (per image of a batch)."""
    xf = x.astype(np.float32)
    gray = (xf[..., :3] * _GRAY).sum(axis=-1)
    mean = gray.mean(axis=(-2, -1), keepdims=True)[..., None]
    return _cast_like(xf * np.float32(alpha) + mean * np.float32(1 - alpha), x.dtype)


def adjust_saturation(x, alpha):
    """Blend every pixel with a gray value. 1.9.1's kernel keeps only the blue term of the
    luma sum (``0.114 * B``) as that gray value; this reproduces its numbers."""
    xf = x.astype(np.float32)
    gray = xf[..., 2:3] * _GRAY[2]
    return _cast_like(xf * np.float32(alpha) + gray * np.float32(1 - alpha), x.dtype)


def adjust_hue(x, alpha):
    """Rotate the hue by ``alpha`` turns (HLS colour space, values in [0, 255])."""
    xf = x.astype(np.float32) / np.float32(255)
    r, g, b = xf[..., 0], xf[..., 1], xf[..., 2]
    vmax = np.maximum(np.maximum(r, g), b)
    vmin = np.minimum(np.minimum(r, g), b)
    diff = vmax - vmin
    light = (vmax + vmin) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        sat = np.where(light < 0.5, diff / (vmax + vmin), diff / (2 - vmax - vmin))
        safe = np.where(diff == 0, 1, diff)
        hue = np.where(vmax == r, (g - b) / safe,
                       np.where(vmax == g, 2 + (b - r) / safe, 4 + (r - g) / safe)) * 60
    sat = np.where(diff == 0, 0, sat)
    hue = np.where(diff == 0, 0, hue)
    hue = np.mod(hue + np.float32(alpha) * 360, 360) / 360
    q = np.where(light < 0.5, light * (1 + sat), light + sat - light * sat)
    p = 2 * light - q

    def channel(t):
        t = np.mod(t, 1)
        return np.where(t < 1 / 6, p + (q - p) * 6 * t,
                        np.where(t < 1 / 2, q, np.where(t < 2 / 3, p + (q - p) * (2 / 3 - t) * 6, p)))

    out = np.stack([channel(hue + 1 / 3), channel(hue), channel(hue - 1 / 3)], axis=-1) * 255
    if x.shape[-1] > 3:
        out = np.concatenate([out, xf[..., 3:] * 255], axis=-1)
    return _cast_like(out.astype(np.float32), x.dtype)


_EIGVAL = np.array([55.46, 4.794, 1.148], np.float32)
_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009],
                    [-0.5808, -0.0045, -0.8140],
                    [-0.5836, -0.6948, 0.4203]], np.float32)


def adjust_lighting(x, alpha):
    """AlexNet's PCA lighting: add ``eigvec @ (alpha * eigval)`` to the RGB values."""
    shift = _EIGVEC @ (np.asarray(alpha, np.float32) * _EIGVAL)
    return _cast_like(x.astype(np.float32) + shift.astype(np.float32), x.dtype)


def color_jitter(x, rng, brightness, contrast, saturation, hue):
    """Brightness, contrast, saturation and hue changes in a random order."""
    out = x
    for which in rng.permutation(4):
        if which == 0 and brightness > 0:
            out = adjust_brightness(out, rng.uniform(max(0.0, 1 - brightness), 1 + brightness))
        elif which == 1 and contrast > 0:
            out = adjust_contrast(out, rng.uniform(max(0.0, 1 - contrast), 1 + contrast))
        elif which == 2 and saturation > 0:
            out = adjust_saturation(out, rng.uniform(max(0.0, 1 - saturation), 1 + saturation))
        elif which == 3 and hue > 0:
            out = adjust_hue(out, rng.uniform(-hue, hue))
    return out


def crop(x, x0, y0, width, height):
    """The (height, width) window at column ``x0``, row ``y0`` of (H, W, C) or (N, H, W, C)."""
    h, w = x.shape[-3], x.shape[-2]
    if x0 < 0 or y0 < 0 or x0 + width > w or y0 + height > h or width <= 0 or height <= 0:
        raise ValueError(f"crop: the region x={x0}, y={y0}, width={width}, height={height} is not "
                         f"inside the image of width {w} and height {h}")
    return np.ascontiguousarray(x[..., y0:y0 + height, x0:x0 + width, :])


def resize_size(shape, size, keep_ratio):
    """The (width, height) of 1.9.1's image resize for an (.., H, W, C) ``shape``."""
    h, w = shape[-3], shape[-2]
    if isinstance(size, (int, np.integer)):
        size = (int(size),)
    size = tuple(int(s) for s in size)
    if len(size) == 1:
        if not keep_ratio:
            return size[0], size[0]
        if h > w:
            return size[0], size[0] * h // w
        return size[0] * w // h, size[0]
    if len(size) != 2:
        raise ValueError(f"resize: size must be an int or (width, height), got {size}")
    return size
