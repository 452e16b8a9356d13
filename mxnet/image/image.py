"""Image functions of ``mx.image``: decoding, resizing, borders and crops on (H, W, C) NDArrays.

Decoding uses OpenCV (``cv2``) when it is installed and Pillow otherwise; both return what
1.9.1's OpenCV build returns for PNG, and the same JPEG pixels up to the decoder's rounding.
Resizing always uses the NumPy kernels of :mod:`mxnet.gluon.data.vision._image`, which follow
OpenCV 3.4.2 (the version inside 1.9.1) number for number; a newer ``cv2`` would not.

Random choices (crops, sizes) draw from Python's :mod:`random` module, as 1.9.1 does, so
``random.seed`` makes them repeatable, and equal to 1.9.1's for the same seed.
"""
from __future__ import annotations

import random
import warnings

import numpy as np

from .. import ndarray as nd
from .. import util as _util
from ..base import MXNetError, numeric_types
from ..context import cpu
from ..gluon.data.vision import _image

__all__ = ["imread", "imdecode", "imresize", "scale_down", "copyMakeBorder", "resize_short",
           "fixed_crop", "random_crop", "center_crop", "color_normalize", "random_size_crop",
           "imrotate", "random_rotate"]


def _numpy(x):
    return x.asnumpy() if isinstance(x, nd.NDArray) else np.asarray(x)


def _wrap(arr, like=None, out=None):
    """``arr`` as an NDArray: on ``like``'s context (CPU by default), or written into ``out``.
    Under ``npx.set_np()`` (and for an mx.np ``like``) the result is an mx.np array, as in
    1.9.1; a legacy ``like`` keeps a legacy result."""
    ctx = like.context if isinstance(like, nd.NDArray) else cpu()
    res = nd.array(np.ascontiguousarray(arr), ctx=ctx, dtype=arr.dtype)
    if isinstance(like, nd.NDArray):
        as_np = type(like).__module__.startswith("mxnet.numpy")
    else:
        as_np = _util.is_np_array()
    if as_np and out is None:
        res = res.as_np_ndarray()
    if out is not None:
        if tuple(out.shape) != tuple(res.shape):
            raise MXNetError(f"out has shape {tuple(out.shape)}, the result has {tuple(res.shape)}")
        out[:] = res
        return out
    return res


# -- decoding -----------------------------------------------------------------------------------------
def _decode(buf, flag, to_rgb):
    """uint8 (H, W, 3) for ``flag`` > 0 (RGB unless ``to_rgb`` is False), (H, W, 1) for 0."""
    flag = _int_arg("imdecode", "flag", flag)
    if flag < 0:
        raise MXNetError(f"imdecode: flag must be 0 (grayscale) or 1 (color), got {flag}")
    if len(buf) == 0:
        raise MXNetError("imdecode: the input cannot be an empty buffer")
    try:
        import cv2
    except ImportError:
        cv2 = None
    if cv2 is not None:
        img = cv2.imdecode(np.frombuffer(buf, np.uint8),
                           cv2.IMREAD_COLOR if flag > 0 else cv2.IMREAD_GRAYSCALE)
        if img is None:
            raise MXNetError("imdecode: decoding failed, invalid image data")
        if flag == 0:
            return img.reshape(img.shape[0], img.shape[1], 1)
        return np.ascontiguousarray(img[:, :, ::-1]) if to_rgb else img
    try:
        return _image.imdecode(buf, 0 if flag == 0 else 1, to_rgb)
    except ValueError as e:
        raise MXNetError(f"imdecode: decoding failed, invalid image data ({e})") from None


def imdecode(buf, flag=1, to_rgb=True, out=None):
    """Decode an encoded image (JPEG, PNG, ...) to a uint8 (H, W, C) NDArray on the CPU.

    ``buf`` is bytes, a bytearray, or a uint8 NumPy array / NDArray of the file's bytes.
    ``flag`` 1 gives 3 colour channels, 0 one gray channel. Colour comes in RGB order unless
    ``to_rgb`` is False (then BGR, OpenCV's order).
    """
    if isinstance(buf, nd.NDArray):
        data = buf.asnumpy().astype(np.uint8, copy=False).tobytes()
    elif isinstance(buf, (bytes, bytearray, memoryview, np.ndarray)):
        data = bytes(buf) if not isinstance(buf, np.ndarray) else buf.tobytes()
    else:
        raise ValueError("buf must be of type bytes, bytearray or numpy.ndarray; to decode a "
                         "str, convert it to bytes first")
    return _wrap(_decode(data, flag, to_rgb), out=out)


def imread(filename, flag=1, to_rgb=True, out=None):
    """Read an image file and decode it (see :func:`imdecode`)."""
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError as e:
        raise MXNetError(f"imread: cannot read {filename!r}: {e.strerror or e}") from e
    return _wrap(_decode(data, flag, to_rgb), out=out)


# -- resizing and borders -------------------------------------------------------------------------------
def _int_arg(fn, name, value):
    """``value`` as an int; 1.9.1 passes these to its operators as text, where only integers
    (not floats, not booleans) parse."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise MXNetError(f"{fn}: Invalid Parameter format for {name} expect int but "
                         f"value='{value}'")
    return int(value)


def imresize(src, w, h, interp=1, out=None):
    """Resize an (H, W, C) image to width ``w`` and height ``h``.

    ``interp``: 0 nearest, 1 bilinear (default), 2 bicubic, 3 area, 4 Lanczos; the results
    equal OpenCV 3.4.2's, which 1.9.1 uses.
    """
    w, h = _int_arg("imresize", "w", w), _int_arg("imresize", "h", h)
    interp = _int_arg("imresize", "interp", interp)
    arr = _numpy(src)
    if arr.ndim != 3:
        raise MXNetError(f"imresize: expected an (H, W, C) image, got shape {arr.shape}")
    if (h, w) == arr.shape[:2] and arr.size:
        # OpenCV copies an image resized to its own size before it looks at ``interp``
        return _wrap(arr.copy(), like=src, out=out)
    try:
        res = _image.resize(arr, int(w), int(h), int(interp))
    except ValueError as e:
        raise MXNetError(f"imresize: {e}") from None
    return _wrap(res, like=src, out=out)


_BORDER_MODES = {1: "edge", 2: "symmetric", 3: "wrap", 4: "reflect"}


def copyMakeBorder(src, top, bot, left, right, type=0, value=0.0, values=(), out=None):  # noqa: N802
    """Pad an (H, W, C) image by ``top``, ``bot``, ``left``, ``right`` pixels.

    ``type`` is OpenCV's border type: 0 constant (``value``, or per channel ``values``),
    1 replicate the edge, 2 reflect (``fedcba|abcdef``), 3 wrap, 4 reflect without repeating
    the edge (``fedcb|abcdef``).
    """
    arr = _numpy(src)
    if arr.ndim != 3:
        raise MXNetError(f"copyMakeBorder: expected an (H, W, C) image, got shape {arr.shape}")
    pads = [_int_arg("copyMakeBorder", n, v)
            for n, v in (("top", top), ("bot", bot), ("left", left), ("right", right))]
    type = _int_arg("copyMakeBorder", "type", type)  # noqa: A001 - 1.9.1's argument name
    if 16 <= type <= 20:
        type -= 16  # noqa: A001 - OpenCV's BORDER_ISOLATED flag; a whole image has no outside
    if min(pads) < 0:
        raise MXNetError(f"copyMakeBorder: the borders must not be negative, got {pads}")
    width = ((pads[0], pads[1]), (pads[2], pads[3]), (0, 0))
    if type == 0:
        fill = np.full(4, value, np.float64)
        # a scalar ``values`` counts as one value, as in 1.9.1
        vals = np.atleast_1d(np.asarray(() if values is None else values, np.float64)).ravel()
        fill[:min(vals.size, 4)] = vals[:4]
        res = np.empty((arr.shape[0] + pads[0] + pads[1], arr.shape[1] + pads[2] + pads[3],
                        arr.shape[2]), arr.dtype)
        c = arr.shape[2]
        colour = np.zeros(c, np.float64)
        colour[:min(c, 4)] = fill[:min(c, 4)]
        if arr.dtype.kind in "ui":
            info = np.iinfo(arr.dtype)
            colour = np.clip(np.rint(colour), info.min, info.max)
        res[...] = colour.astype(arr.dtype)
        res[pads[0]:pads[0] + arr.shape[0], pads[2]:pads[2] + arr.shape[1]] = arr
    elif type in _BORDER_MODES:
        mode = _BORDER_MODES[type]
        if mode == "reflect" and max(pads) > 0 and min(arr.shape[:2]) == 1:
            mode = "edge"  # OpenCV's reflect-101 of a single row or column repeats it
        res = np.pad(arr, width, mode=mode)
    else:
        raise MXNetError(f"copyMakeBorder: unknown border type {type}; use 0 constant, "
                         f"1 replicate, 2 reflect, 3 wrap or 4 reflect-101")
    return _wrap(res, like=src, out=out)


def scale_down(src_size, size):
    """Shrink the crop ``size`` (w, h), keeping its aspect ratio, until it fits ``src_size``."""
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def _get_interp_method(interp, sizes=()):
    """Resolve the interpolation code: 9 picks by the resize direction (area to shrink,
    bicubic to enlarge, bilinear otherwise), 10 picks at random; 0-4 pass through."""
    if interp == 9:
        if not sizes:
            return 2
        if len(sizes) != 4:
            raise ValueError(f"sizes must be (old_h, old_w, new_h, new_w), got {sizes}")
        oh, ow, nh, nw = sizes
        if nh > oh and nw > ow:
            return 2
        if nh < oh and nw < ow:
            return 3
        return 1
    if interp == 10:
        return random.randint(0, 4)
    if interp not in (0, 1, 2, 3, 4):
        raise ValueError(f"Unknown interp method {interp}")
    return interp


def resize_short(src, size, interp=2):
    """Resize so that the shorter side becomes ``size``, keeping the aspect ratio."""
    h, w = src.shape[0], src.shape[1]
    if h > w:
        new_h, new_w = size * h // w, size
    else:
        new_h, new_w = size, size * w // h
    return imresize(src, new_w, new_h, interp=_get_interp_method(interp, (h, w, new_h, new_w)))


# -- crops ----------------------------------------------------------------------------------------------
def fixed_crop(src, x0, y0, w, h, size=None, interp=2):
    """The ``w`` x ``h`` window at column ``x0``, row ``y0``; resized to ``size`` (w, h) if given."""
    out = src[y0:y0 + h, x0:x0 + w]
    if size is not None and (w, h) != tuple(size):
        out = imresize(out, size[0], size[1],
                       interp=_get_interp_method(interp, (h, w, size[1], size[0])))
    return out


def random_crop(src, size, interp=2):
    """A crop of ``size`` (w, h) at a random position (scaled down first if the image is
    smaller, then resized back to ``size``). Returns ``(image, (x0, y0, w, h))``."""
    h, w = src.shape[0], src.shape[1]
    new_w, new_h = scale_down((w, h), size)
    x0 = random.randint(0, w - new_w)
    y0 = random.randint(0, h - new_h)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def center_crop(src, size, interp=2):
    """Like :func:`random_crop`, at the centre. Returns ``(image, (x0, y0, w, h))``."""
    h, w = src.shape[0], src.shape[1]
    new_w, new_h = scale_down((w, h), size)
    x0 = int((w - new_w) / 2)
    y0 = int((h - new_h) / 2)
    return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def random_size_crop(src, size, area, ratio, interp=2, **kwargs):
    """A crop covering a random fraction ``area`` (a number: (area, 1); or (lo, hi)) of the image
    with a random aspect ratio in ``ratio`` (log-uniform), resized to ``size``. Falls back to
    :func:`center_crop` after 10 failed tries. Returns ``(image, (x0, y0, w, h))``."""
    h, w = src.shape[0], src.shape[1]
    src_area = h * w
    if "min_area" in kwargs:
        warnings.warn("`min_area` is deprecated. Please use `area` instead.", DeprecationWarning,
                      stacklevel=2)
        area = kwargs.pop("min_area")
    if kwargs:
        raise TypeError(f"random_size_crop: unexpected keyword arguments {sorted(kwargs)}")
    if isinstance(area, numeric_types):
        area = (area, 1.0)
    for _ in range(10):
        target_area = random.uniform(area[0], area[1]) * src_area
        log_ratio = (np.log(ratio[0]), np.log(ratio[1]))
        new_ratio = np.exp(random.uniform(*log_ratio))
        new_w = int(round(np.sqrt(target_area * new_ratio)))
        new_h = int(round(np.sqrt(target_area / new_ratio)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            return fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)
    return center_crop(src, size, interp)


def color_normalize(src, mean, std=None):
    """``src -= mean; src /= std``, in place (either may be None). Returns ``src``."""
    if mean is not None:
        src -= mean
    if std is not None:
        src /= std
    return src


# -- rotation ---------------------------------------------------------------------------------------------
def imrotate(src, rotation_degrees, zoom_in=False, zoom_out=False):
    """Rotate float32 (C, H, W) or (N, C, H, W) images about their centres by
    ``rotation_degrees`` (a number, or one angle per image), sampling bilinearly with zeros
    outside; ``zoom_in`` scales so that no padding shows, ``zoom_out`` so nothing is cut."""
    from ..gluon.data.vision.transforms import _rotate
    return _rotate(src, rotation_degrees, zoom_in, zoom_out)


def random_rotate(src, angle_limits, zoom_in=False, zoom_out=False):
    """:func:`imrotate` by angles drawn uniformly from ``angle_limits`` with ``np.random``
    (one angle per image of a batch)."""
    if src.ndim == 3:
        degrees = np.random.uniform(*angle_limits)
    else:
        degrees = nd.array(np.random.uniform(*angle_limits, size=src.shape[0]))
    return imrotate(src, degrees, zoom_in=zoom_in, zoom_out=zoom_out)


def __getattr__(name):
    """1.9.1 defines the augmenters and ImageIter in this module, so scripts import them from
    ``mxnet.image.image``; here they live in ``augmenters`` / ``image_iter`` and are looked up
    on first use (those modules import this one)."""
    import importlib
    if name == "ImageIter":
        return importlib.import_module(f"{__package__}.image_iter").ImageIter
    augmenters = importlib.import_module(f"{__package__}.augmenters")
    if name in augmenters.__all__:
        return getattr(augmenters, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
