"""NumPy kernels of ImageRecordIter's default augmenter (the part 1.9.1 does with OpenCV).

* :func:`warp_affine` -- an affine warp with OpenCV's fixed-point arithmetic: the destination
  grid is mapped back through the inverted matrix with coordinates in 1/32 pixel, and the
  nearest / bilinear / bicubic / Lanczos-4 taps use 15-bit integer weights, so the result
  equals OpenCV's up to the rounding of the weight tables (bilinear is exact);
* :func:`affine_matrix` -- the rotation / shear / scale / aspect matrix and output size;
* :func:`hls_shift` -- RGB -> HLS (8-bit, H in [0, 180]), integer shifts, HLS -> RGB;
* :func:`color_jitter` and :func:`pca_lighting` -- brightness / contrast / saturation and the
  AlexNet-style PCA noise, each rounded back to uint8 as 1.9.1 does between steps.

Everything works on whole (H, W, C) uint8 arrays; the random numbers are drawn by the caller.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["affine_matrix", "warp_affine", "hls_shift", "color_jitter", "pca_lighting",
           "PCA_EIGVAL", "PCA_EIGVEC"]

_AB_BITS = 10
_AB_SCALE = 1 << _AB_BITS
_INTER_BITS = 5
_TAB = 1 << _INTER_BITS
_COEF_BITS = 15
_COEF_SCALE = 1 << _COEF_BITS

# ImageNet RGB eigen-decomposition used by the PCA lighting noise
PCA_EIGVAL = np.array([55.46, 4.794, 1.148], np.float32)
PCA_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009],
                       [-0.5808, -0.0045, -0.8140],
                       [-0.5836, -0.6948, 0.4203]], np.float32)


def affine_matrix(angle, shear, scale, ratio, rows, cols, min_size, max_size):
    """The 2x3 float32 forward matrix (source -> destination) and the output size.

    ``angle`` in degrees, ``shear`` the x-shear factor, ``scale`` the zoom, ``ratio`` the
    width/height stretch; the output is ``scale * (cols, rows)`` clamped to
    ``[min_size, max_size]`` (truncated to integers), and the source centre lands on the output
    centre.
    """
    f = np.float32
    a = f(math.cos(angle / 180.0 * math.pi))
    b = f(math.sin(angle / 180.0 * math.pi))
    shear, scale, ratio = f(shear), f(scale), f(ratio)
    hs = f(2) * scale / (f(1) + ratio)
    ws = ratio * hs
    new_w = max(f(min_size), min(f(max_size), scale * f(cols)))
    new_h = max(f(min_size), min(f(max_size), scale * f(rows)))
    m = np.zeros((2, 3), np.float32)
    m[0, 0] = hs * a - shear * b * ws
    m[1, 0] = -b * ws
    m[0, 1] = hs * b + shear * a * ws
    m[1, 1] = a * ws
    cx = m[0, 0] * f(cols) + m[0, 1] * f(rows)
    cy = m[1, 0] * f(cols) + m[1, 1] * f(rows)
    m[0, 2] = (new_w - cx) / f(2)
    m[1, 2] = (new_h - cy) / f(2)
    return m, int(new_w), int(new_h)


def _invert(m):
    m = m.astype(np.float64)
    d = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    d = 1.0 / d if d != 0 else 0.0
    a11, a22 = m[1, 1] * d, m[0, 0] * d
    a12, a21 = -m[0, 1] * d, -m[1, 0] * d
    b1 = -a11 * m[0, 2] - a12 * m[1, 2]
    b2 = -a21 * m[0, 2] - a22 * m[1, 2]
    return np.array([[a11, a12, b1], [a21, a22, b2]])


def _lanczos4(x):
    t = x[:, None] + 3 - np.arange(8)[None, :]          # distances to the 8 taps
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(np.abs(t) < 1e-7, 1.0,
                     np.sin(np.pi * t) * np.sin(np.pi * t / 4) / (np.pi * np.pi * t * t / 4))
    w[x < np.finfo(np.float32).eps] = np.eye(8)[3]
    return w / w.sum(1, keepdims=True)


def _weight_table(interp):
    """(32, 32, k, k) int weights summing to 2**15 for every sub-pixel offset (fy, fx)."""
    x = np.arange(_TAB, dtype=np.float64) / _TAB
    if interp == 1:
        k1 = np.stack([1 - x, x], -1)
    elif interp == 2:
        from ..gluon.data.vision._image import _cubic_weights   # the resize's cubic kernel
        k1 = _cubic_weights(x.astype(np.float32)).astype(np.float64)
    else:
        k1 = _lanczos4(x)
    k = k1.shape[1]
    w = k1[:, None, :, None] * k1[None, :, None, :]       # (fy, fx, ky, kx)
    iw = np.rint(w * _COEF_SCALE).astype(np.int64)
    diff = iw.sum((2, 3)) - _COEF_SCALE
    if diff.any():  # push the rounding error onto the central taps as OpenCV does
        c = k // 2
        centre = iw[:, :, c:c + 2, c:c + 2].reshape(_TAB, _TAB, -1)
        pick = np.where(diff < 0, centre.argmax(-1), centre.argmin(-1))
        ky, kx = c + pick // 2, c + pick % 2
        fy, fx = np.meshgrid(np.arange(_TAB), np.arange(_TAB), indexing="ij")
        iw[fy, fx, ky, kx] -= diff
    return iw


_TABLES = {}


def warp_affine(img, m, out_w, out_h, interp, fill):
    """Warp the (H, W, C) uint8 ``img`` by the forward 2x3 matrix ``m`` into (out_h, out_w, C).

    ``interp``: 0 nearest, 1 bilinear (also for 3, area, as OpenCV's warpAffine does), 2 bicubic,
    4 Lanczos-4. Pixels mapped from outside the source take ``fill``.
    """
    h, w, c = img.shape
    out_w, out_h = max(int(out_w), 0), max(int(out_h), 0)
    inv = _invert(m)
    xs = np.arange(out_w, dtype=np.float64)
    ys = np.arange(out_h, dtype=np.float64)
    adelta = np.rint(inv[0, 0] * xs * _AB_SCALE).astype(np.int64)
    bdelta = np.rint(inv[1, 0] * xs * _AB_SCALE).astype(np.int64)
    nearest = interp == 0
    round_delta = _AB_SCALE // 2 if nearest else _AB_SCALE // _TAB // 2
    x0 = np.rint((inv[0, 1] * ys + inv[0, 2]) * _AB_SCALE).astype(np.int64) + round_delta
    y0 = np.rint((inv[1, 1] * ys + inv[1, 2]) * _AB_SCALE).astype(np.int64) + round_delta
    gx = x0[:, None] + adelta[None, :]
    gy = y0[:, None] + bdelta[None, :]
    fill_px = np.full(c, np.clip(fill, 0, 255), np.uint8)
    if nearest:
        sx, sy = gx >> _AB_BITS, gy >> _AB_BITS
        inside = (sx >= 0) & (sx < w) & (sy >= 0) & (sy < h)
        out = img[np.clip(sy, 0, h - 1), np.clip(sx, 0, w - 1)]
        out[~inside] = fill_px
        return out
    if interp == 3:
        interp = 1
    table = _TABLES.get(interp)
    if table is None:
        table = _TABLES[interp] = _weight_table(interp)
    k = table.shape[-1]
    gx >>= _AB_BITS - _INTER_BITS
    gy >>= _AB_BITS - _INTER_BITS
    fx, fy = gx & (_TAB - 1), gy & (_TAB - 1)
    sx = (gx >> _INTER_BITS) - (k // 2 - 1)   # first tap
    sy = (gy >> _INTER_BITS) - (k // 2 - 1)
    pad = k + 1
    src = np.empty((h + 2 * pad, w + 2 * pad, c), np.int64)
    src[...] = fill_px
    src[pad:pad + h, pad:pad + w] = img
    weights = table[fy, fx]                    # (out_h, out_w, k, k)
    acc = np.zeros((out_h, out_w, c), np.int64)
    limit_y, limit_x = h + 2 * pad - 1, w + 2 * pad - 1
    for i in range(k):                         # k*k whole-image gathers
        rows = np.clip(sy + i + pad, 0, limit_y)
        for j in range(k):
            cols = np.clip(sx + j + pad, 0, limit_x)
            acc += src[rows, cols] * weights[:, :, i, j, None]
    return np.clip((acc + (1 << (_COEF_BITS - 1))) >> _COEF_BITS, 0, 255).astype(np.uint8)


def _round_u8(x):
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def rgb_to_hls8(img):
    """OpenCV's 8-bit RGB -> HLS (H in [0, 180], L and S in [0, 255]) of (..., 3) uint8, in
    float32 as OpenCV computes it."""
    rgb = img.astype(np.float32) * np.float32(1 / 255)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    vmax = rgb.max(-1)
    vmin = rgb.min(-1)
    diff = vmax - vmin
    light = (vmax + vmin) * np.float32(0.5)
    eps = np.finfo(np.float32).eps
    ok = diff > eps
    with np.errstate(divide="ignore", invalid="ignore"):
        sat = np.where(light < 0.5, diff / (vmax + vmin), diff / (np.float32(2) - (vmax + vmin)))
        d = np.float32(60) / diff
        hue = np.where(vmax == r, (g - b) * d,
                       np.where(vmax == g, (b - r) * d + np.float32(120), (r - g) * d + np.float32(240)))
    hue = np.where(hue < 0, hue + np.float32(360), hue)
    hue = np.where(ok, hue, 0).astype(np.float32)
    sat = np.where(ok, sat, 0).astype(np.float32)
    return np.stack([_round_u8(hue * np.float32(0.5)), _round_u8(light * np.float32(255)),
                     _round_u8(sat * np.float32(255))], -1)


_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def hls8_to_rgb(hls):
    """OpenCV's 8-bit HLS -> RGB of (..., 3) uint8 HLS values (H in [0, 180])."""
    h = hls[..., 0].astype(np.float32)
    lum = hls[..., 1].astype(np.float32) * np.float32(1 / 255)
    s = hls[..., 2].astype(np.float32) * np.float32(1 / 255)
    p2 = np.where(lum <= 0.5, lum * (np.float32(1) + s), lum + s - lum * s)
    p1 = np.float32(2) * lum - p2
    h = h * np.float32(6 / 180)
    h = np.where(h >= 6, h - np.float32(6), h)
    sector = np.floor(h).astype(np.int64)
    frac = h - sector
    tab = np.stack([p2, p1, p1 + (p2 - p1) * (np.float32(1) - frac), p1 + (p2 - p1) * frac], -1)
    idx = _SECTORS[np.clip(sector, 0, 5)]                        # (..., 3) indices as b, g, r
    bgr = np.take_along_axis(tab, idx, -1)
    rgb = bgr[..., ::-1]
    rgb = np.where((s == 0)[..., None], lum[..., None], rgb)
    return _round_u8(rgb * np.float32(255))


def hls_shift(img, dh, dl, ds):
    """Shift hue (0..180 scale), lightness and saturation (0..255 scale) by integers, clamping."""
    hls = rgb_to_hls8(img).astype(np.int32)
    hls += np.array([dh, dl, ds], np.int32)
    np.clip(hls, 0, np.array([180, 255, 255]), out=hls)
    return hls8_to_rgb(hls)


def _gray(img):
    # 1.9.1 applies the luma weights to its BGR buffer in RGB order: 0.299 lands on blue; the
    # grey is OpenCV's 8-bit one (14-bit fixed-point weights, rounded)
    i = img.astype(np.int32)
    return ((i[..., 0] * 1868 + i[..., 1] * 9617 + i[..., 2] * 4899 + 8192) >> 14).astype(np.float32)


def color_jitter(img, brightness, contrast, saturation):
    """Scale the pixels by ``brightness``, blend with the grey mean by ``contrast`` and with the
    per-pixel grey by ``saturation`` (factors around 1; each step rounds back to uint8)."""
    if brightness != 1:
        img = _round_u8(img.astype(np.float32) * np.float32(brightness))
    if contrast != 1:
        mean = _gray(img).mean(dtype=np.float64)
        img = _round_u8(img.astype(np.float32) * np.float32(contrast)
                        + np.float32((1 - contrast) * mean))
    if saturation != 1:
        gray = _round_u8(_gray(img)).astype(np.float32)[..., None]
        img = _round_u8(img.astype(np.float32) * np.float32(saturation)
                        + gray * np.float32(1 - saturation))
    return img


def pca_lighting(img, alpha):
    """Add ``PCA_EIGVEC @ (alpha * PCA_EIGVAL)`` to the RGB pixels (rounded, clamped)."""
    offset = PCA_EIGVEC @ (np.asarray(alpha, np.float32) * PCA_EIGVAL)
    # 1.9.1 clamps the float sum to [0, 255] and truncates it to the 8-bit pixel
    val = img.astype(np.float32) + offset[: img.shape[-1]].astype(np.float32)
    return np.clip(val, 0, 255).astype(np.uint8)
