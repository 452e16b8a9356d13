"""Image operators: ``_image_*``, served as ``mx.nd.image.*`` / ``mx.sym.image.*`` (and
``F.image.*`` in HybridBlocks), as in 1.9.1.

Layouts and dtypes follow 1.9.1:

- ``to_tensor`` takes (H, W, C) or (N, H, W, C) of any dtype and gives float32
  (C, H, W) / (N, C, H, W) divided by 255;
- ``normalize`` takes (C, H, W) or (N, C, H, W) with C 1 or 3 and keeps the dtype (integer
  results are truncated); its defaults (four zeros and four ones) fit no input, as in 1.9.1;
- ``resize`` (OpenCV's numbers: nearest, bilinear, bicubic, area, Lanczos; 5, OpenCV's
  exact bilinear for uint8, plain bilinear for floats) and ``crop`` take (H, W, C) or (N, H, W, C)
  and keep the dtype; resize accepts uint8, float32 and float64 only;
- the flips, colour changes and lighting take a single (H, W, C) image with C 1 or 3 and
  keep the dtype, saturating integer results.

Gradients are 1.9.1's: ``normalize`` divides by std, ``crop`` scatters into zeros, and the
flips, colour and lighting operators pass the head gradient through unchanged (even the
flips, whose gradient 1.9.1 does not flip back). ``to_tensor`` and ``resize`` have none.

The random operators draw host scalars from the device generator (``mx.random.seed``):
the flips flip with probability 0.5; the colour factors are uniform in
[min_factor, max_factor]; ``random_color_jitter`` applies its four changes in a random
order with factors from [max(0, 1 - a), 1 + a] (hue: [-hue, hue]); ``random_lighting``
draws the three PCA weights from N(0, alpha_std).

On the CPU the draws are 1.9.1's, from its single-engine ``Random<cpu>`` resource (the one
``mx.np.random.uniform`` uses; ``mx.nd.random``'s parallel states are left alone):

- a flip takes one canonical double (two words) and flips when it is >= 0.5;
- a colour factor is one canonical float ``u``: ``lo + (hi - lo) * u`` in float32;
- ``random_color_jitter`` first shuffles the order (0 brightness, 1 contrast, 2 saturation,
  3 hue) as libstdc++'s classic ``std::shuffle`` does: for i = 1, 2, 3 swap i with a
  ``uniform_int_distribution(0, i)`` draw (word ``// (2**32-1) // (i+1)``, words at or past
  ``(i+1) * that`` rejected), then draws a factor for each change whose amount is > 0:
  ``1 + U[-a, a)`` (not clipped at 0), hue ``U[-hue, hue)``;
- ``random_lighting`` takes three values of one ``normal_distribution<float>`` (the polar
  method, both values of each pair) times alpha_std.
"""
from __future__ import annotations

import numpy as np

from ..backend.mt_parallel import canonical_f64
from ..base import MXNetError
from .registry import Param, register

__all__ = ["ImageOpError"]


class ImageOpError(MXNetError, ValueError):
    """An image operator's argument or input is invalid (an MXNetError that is also a
    ValueError, which the vision transforms have always raised)."""


_F32 = np.float32


def _err(opname, msg):
    return ImageOpError(f"{opname}: {msg}")


def _work(dtype):
    return np.float64 if np.dtype(dtype) == np.float64 else _F32


def _saturate(xp, out, dtype):
    """Back to ``dtype``: integers clamped to their range and truncated."""
    dtype = np.dtype(dtype)
    if dtype.kind in "ui":
        info = np.iinfo(dtype)
        return xp.trunc(xp.clip(out, info.min, info.max)).astype(dtype)
    if dtype.kind == "b":
        return out != 0
    return out.astype(dtype, copy=False)


def _same_type(attrs, in_types, out_types):
    t = in_types[0] if in_types[0] is not None else out_types[0]
    return [t], [t], []


# ---------------------------------------------------------------------------------------------
# checks shared by kernels and shape inference

def _check_hw_c(opname, shape, what="image"):
    """(H, W, C) or (N, H, W, C)."""
    if len(shape) not in (3, 4):
        raise _err(opname, f"the input {what} must have shape (height, width, channels) or "
                           f"(N, height, width, channels), got {tuple(shape)}")


def _check_single(opname, shape):
    """One (H, W, C) image with 1 or 3 channels (flips, colour, lighting)."""
    if len(shape) != 3:
        raise _err(opname, f"the input image must have shape (height, width, channels), got "
                           f"{tuple(shape)}")
    if shape[2] is not None and shape[2] not in (1, 3):
        raise _err(opname, f"the last dimension of the input image must be the channel "
                           f"dimension with 1 or 3 elements, got shape {tuple(shape)}")


def _single_shape(opname):
    def infer(attrs, in_shapes, out_shapes):
        d = in_shapes[0] if in_shapes[0] is not None else out_shapes[0]
        if d is not None:
            _check_single(opname, d)
        return [d], [d], []
    return infer


# ---------------------------------------------------------------------------------------------
# to_tensor

def _to_tensor(rc, attrs, x):
    _check_hw_c("_image_to_tensor", x.shape)
    axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
    if x.dtype.kind == "f":   # divided in the input's own precision, as 1.9.1 does
        out = (x / x.dtype.type(255)).astype(_F32)
    else:
        out = x.astype(_F32) / _F32(255)
    return rc.xp.ascontiguousarray(out.transpose(axes))


def _to_tensor_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    if d is None:
        return [d], [None], []
    _check_hw_c("_image_to_tensor", d)
    out = (d[2], d[0], d[1]) if len(d) == 3 else (d[0], d[3], d[1], d[2])
    return [d], [out], []


register("_image_to_tensor", _to_tensor, infer_shape=_to_tensor_shape,
         infer_type=lambda a, i, o: ([i[0]], [np.dtype(_F32)], []),
         doc="Turn (H, W, C) or (N, H, W, C) images with values in [0, 255] into float32 "
             "(C, H, W) or (N, C, H, W) tensors with values in [0, 1].")


# ---------------------------------------------------------------------------------------------
# normalize

def _normalize_check(opname, attrs, shape):
    if len(shape) not in (3, 4):
        raise _err(opname, f"the input tensor must have shape (channels, height, width) or "
                           f"(N, channels, height, width), got {tuple(shape)}")
    c = shape[-3]
    if c is None:
        return
    if c not in (1, 3):
        raise _err(opname, f"the channel dimension (the first of (C, H, W)) must have 1 or 3 "
                           f"elements, got input shape {tuple(shape)}")
    for name in ("mean", "std"):
        n = len(attrs[name])
        if n not in (1, c):
            raise _err(opname, f"invalid {name} {list(attrs[name])} for input shape "
                               f"{tuple(shape)}: {name} must have either 1 or {c} elements")


def _per_channel(xp, values, c, dtype):
    v = np.broadcast_to(np.asarray(values, dtype=_F32), (c,)).astype(dtype)
    return xp.asarray(v.reshape((c, 1, 1)))


def _normalize(rc, attrs, x):
    _normalize_check("_image_normalize", attrs, x.shape)
    xp, c, work = rc.xp, x.shape[-3], _work(x.dtype)
    mean = _per_channel(xp, attrs["mean"], c, work)
    std = _per_channel(xp, attrs["std"], c, work)
    out = (x.astype(work) - mean) / std
    if x.dtype.kind in "ui":  # a plain C cast: truncated, wrapping around the type's range
        return xp.trunc(out).astype(np.int64).astype(x.dtype)
    return out.astype(x.dtype)


def _backward_normalize(rc, attrs, og):
    _normalize_check("_backward_image_normalize", attrs, og.shape)
    xp, c, work = rc.xp, og.shape[-3], _work(og.dtype)
    std = _per_channel(xp, attrs["std"], c, work)
    if work is np.float64:   # 1.9.1 multiplies by the reciprocal there
        return og * (1.0 / std)
    return (og.astype(work) / std).astype(og.dtype)


def _normalize_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0] if in_shapes[0] is not None else out_shapes[0]
    if d is not None:
        _normalize_check("_image_normalize", attrs, d)
    return [d], [d], []


_NORM_PARAMS = (
    Param("mean", "tuple_float", (0.0, 0.0, 0.0, 0.0), doc="Per-channel means (1 or C values)."),
    Param("std", "tuple_float", (1.0, 1.0, 1.0, 1.0),
          doc="Per-channel standard deviations (1 or C values)."),
)

register("_image_normalize", _normalize, params=_NORM_PARAMS, infer_shape=_normalize_shape,
         infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_image_normalize(og[0], mean=a["mean"], std=a["std"])],
         doc="``(data - mean[c]) / std[c]`` per channel of a (C, H, W) or (N, C, H, W) tensor "
             "(C is 1 or 3; one mean or std value applies to every channel).")

register("_backward_image_normalize", _backward_normalize, params=_NORM_PARAMS,
         inputs=("ograd",), nd_hidden=True, infer_shape=_normalize_shape,
         infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_image_normalize(og[0], mean=a["mean"], std=a["std"])],
         doc="The gradient of _image_normalize: the head gradient divided by std.")


# ---------------------------------------------------------------------------------------------
# resize

_INTERPS = (0, 1, 2, 3, 4, 5)
_RESIZE_DTYPES = ("uint8", "float32", "float64")


def _resize_dtype_ok(dtype, interp):
    """uint8, float32 and float64 images resize with every method; nearest (0) only copies
    pixels, so 1.9.1 also takes other integer images there."""
    dtype = np.dtype(dtype)
    return dtype.name in _RESIZE_DTYPES or (interp == 0 and dtype.kind in "iu")


def _resize_check(opname, attrs):
    size = attrs["size"]
    if len(size) not in (1, 2):
        raise _err(opname, f"size must have 1 or 2 elements, (size,) or (width, height), got "
                           f"{size}")
    for what, v in zip(("width", "height"), size):
        if v is None or v <= 0:
            raise _err(opname, f"size: the output {what} must be greater than 0, got {v}")
    if attrs["interp"] not in _INTERPS:
        raise _err(opname, f"Unknown interp method {attrs['interp']}: interp must be 0 "
                           "(nearest), 1 (bilinear), 2 (bicubic), 3 (area), 4 (Lanczos) or 5 "
                           "(exact bilinear)")


def _resize_out_hw(attrs, h, w):
    """(height, width) of the output for an input of height h, width w."""
    size = attrs["size"]
    if len(size) == 2:
        return size[1], size[0]
    s = size[0]
    if not attrs["keep_ratio"]:
        return s, s
    if h is None or w is None:
        return None, None
    if h > w:
        return s * h // w, s
    return s, s * w // h


def _resize(rc, attrs, x):
    name = "_image_resize"
    _check_hw_c(name, x.shape)
    if not _resize_dtype_ok(x.dtype, attrs["interp"]):
        raise _err(name, f"data: resizing supports uint8, float32 and float64 images (other "
                         f"integer types with interp=0 only), got {x.dtype}")
    out_h, out_w = _resize_out_hw(attrs, x.shape[-3], x.shape[-2])
    from ..gluon.data.vision import _image  # the OpenCV-compatible NumPy resize
    xp = rc.xp
    host = x if xp is np else xp.asnumpy(x)
    out = _image.resize(host, out_w, out_h, attrs["interp"])  # 5: OpenCV's INTER_LINEAR_EXACT
    return out if xp is np else xp.asarray(out)


def _resize_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    if d is None:
        return [d], [None], []
    _check_hw_c("_image_resize", d)
    h, w = _resize_out_hw(attrs, d[-3], d[-2])
    return [d], [tuple(d[:-3]) + (h, w, d[-1])], []


def _resize_type(attrs, in_types, out_types):
    t = in_types[0] if in_types[0] is not None else out_types[0]
    if t is not None and not _resize_dtype_ok(t, attrs["interp"]):
        raise _err("_image_resize", f"data: resizing supports uint8, float32 and float64 "
                                    f"images (other integer types with interp=0 only), got "
                                    f"{np.dtype(t)}")
    return [t], [t], []


register("_image_resize", _resize, attr_check=_resize_check, infer_shape=_resize_shape,
         infer_type=_resize_type,
         params=(Param("size", "shape", (), doc="(width, height), or one size: a square, or "
                                                 "with keep_ratio the short edge."),
                 Param("keep_ratio", "bool", False,
                       doc="With a single size, resize the short edge to it and keep the "
                           "aspect ratio."),
                 Param("interp", "int", 1, doc="0 nearest, 1 bilinear, 2 bicubic, 3 area, "
                                               "4 Lanczos (OpenCV's codes).")),
         doc="Resize (H, W, C) or (N, H, W, C) images as OpenCV's cv::resize does.")


# ---------------------------------------------------------------------------------------------
# crop

def _crop_check(opname, attrs, shape):
    if len(shape) not in (3, 4):
        raise _err(opname, f"the input must be (height, width, channels) or (N, height, width, "
                           f"channels), got {tuple(shape)}")
    h, w, c = shape[-3], shape[-2], shape[-1]
    if c is not None and c not in (1, 3):
        raise _err(opname, f"the channel dimension of the input image must be 1 or 3, got "
                           f"shape {tuple(shape)}")
    if attrs["width"] <= 0 or attrs["height"] <= 0:
        raise _err(opname, f"width and height must be greater than 0, got width="
                           f"{attrs['width']}, height={attrs['height']}")
    if attrs["x"] < 0 or attrs["y"] < 0:
        raise _err(opname, f"x and y must not be negative, got x={attrs['x']}, y={attrs['y']}")
    if w is not None and attrs["x"] + attrs["width"] > w:
        raise _err(opname, f"x + width ({attrs['x']} + {attrs['width']}) must not be greater "
                           f"than the input width {w}")
    if h is not None and attrs["y"] + attrs["height"] > h:
        raise _err(opname, f"y + height ({attrs['y']} + {attrs['height']}) must not be greater "
                           f"than the input height {h}")


def _crop_window(attrs):
    x0, y0 = attrs["x"], attrs["y"]
    return (Ellipsis, slice(y0, y0 + attrs["height"]), slice(x0, x0 + attrs["width"]),
            slice(None))


def _crop(rc, attrs, x):
    _crop_check("_image_crop", attrs, x.shape)
    return rc.xp.ascontiguousarray(x[_crop_window(attrs)])


def _backward_crop(rc, attrs, og, data):
    _crop_check("_backward_image_crop", attrs, data.shape)
    out = rc.xp.zeros(data.shape, dtype=og.dtype)
    out[_crop_window(attrs)] = og
    return out


def _crop_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    if d is None:
        return [d], [None], []
    _crop_check("_image_crop", attrs, d)
    return [d], [tuple(d[:-3]) + (attrs["height"], attrs["width"], d[-1])], []


_CROP_PARAMS = (Param("x", "int", doc="Left boundary of the cropped area."),
                Param("y", "int", doc="Top boundary of the cropped area."),
                Param("width", "int", doc="Width of the cropped area."),
                Param("height", "int", doc="Height of the cropped area."))

register("_image_crop", _crop, params=_CROP_PARAMS, infer_shape=_crop_shape,
         infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_image_crop(og[0], ins[0], **{k: a[k] for k in ("x", "y", "width",
                                                                         "height")})],
         doc="The (height, width) window at column x, row y of (H, W, C) or (N, H, W, C) "
             "images.")

register("_backward_image_crop", _backward_crop, params=_CROP_PARAMS,
         inputs=("ograd", "data"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[0]], []),
         gradient=lambda F, a, ins, outs, og: [F._image_crop(og[0], **a), None],
         doc="The gradient of _image_crop: the head gradient placed in zeros shaped like data.")


# ---------------------------------------------------------------------------------------------
# flips

def _pass_through(F, attrs, ins, outs, og):
    """1.9.1's gradient of the flips, colour and lighting operators: the head gradient."""
    return [F.identity(og[0])]


def _flip_kernel(opname, axis, random):
    def compute(rc, attrs, x):
        _check_single(opname, x.shape)
        if random and not _coin(rc):
            return x.copy()
        return rc.xp.ascontiguousarray(rc.xp.flip(x, axis=axis))
    return compute


for _name, _axis, _what in (("flip_left_right", 1, "left to right"),
                            ("flip_top_bottom", 0, "upside down")):
    for _random in (False, True):
        _op = f"_image_{'random_' if _random else ''}{_name}"
        register(_op, _flip_kernel(_op, _axis, _random), needs_rng=_random,
                 infer_shape=_single_shape(_op), infer_type=_same_type, gradient=_pass_through,
                 doc=(f"Flip an (H, W, C) image {_what}"
                      + (" with probability 0.5." if _random else ".")))


# ---------------------------------------------------------------------------------------------
# colour changes

_GRAY = (0.299, 0.587, 0.114)


def _gray_coef(xp, work):
    return xp.asarray(np.array(_GRAY, dtype=_F32).astype(work))


def _brightness(xp, x, alpha):
    return _saturate(xp, x.astype(_F32) * _F32(alpha), x.dtype)


# 1.9.1's colour kernels compute in float32, but a float64 image's products are formed in
# float64 and rounded to float32 where 1.9.1 stores them; ``_work`` gives that product type.

def _contrast(xp, x, alpha):
    """Blend with the image's mean gray level (a float32 running sum over the pixels)."""
    f, work = _F32, _work(x.dtype)
    xw = x.astype(work)
    if x.shape[-1] == 1:
        terms = xw.astype(f).reshape(-1)
    else:
        terms = (xw[..., :3] * _gray_coef(xp, work)).astype(f).reshape(-1)
    total = float(xp.cumsum(terms, dtype=f)[-1]) if terms.size else 0.0
    mean = f(total) / f(x.shape[0] * x.shape[1])
    beta = f(f(1) - f(alpha)) * f(mean)
    out = (_half_round(x.dtype, xw * work(f(alpha))) + work(beta)).astype(f)
    return _saturate(xp, out, x.dtype)


def _half_round(dtype, prod):
    """A float16 image's products with a float come back as float16 in 1.9.1 (its half
    type rounds every arithmetic result); other types keep the product as it is."""
    if np.dtype(dtype) == np.float16:
        return prod.astype(np.float16).astype(_F32)
    return prod


def _saturation(xp, x, alpha):
    """Blend every pixel with a gray value; 1.9.1's kernel keeps only the blue term of the
    luma sum (0.114 * B) as that value, and leaves single-channel images unchanged."""
    if x.shape[-1] == 1:
        return x.copy()
    f, work = _F32, _work(x.dtype)
    xw = x.astype(work)
    gray = _half_round(x.dtype, (xw[..., 2:3] * work(f(_GRAY[2]))).astype(f)) * f(f(1) - f(alpha))
    out = (gray.astype(work) + _half_round(x.dtype, xw * work(f(alpha)))).astype(f)
    return _saturate(xp, out, x.dtype)


_HLS_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def _hue(xp, x, alpha):
    """Rotate the hue by ``alpha`` turns: RGB / 255 to HLS and back in float32 with
    OpenCV's formulas, as 1.9.1 does; single-channel images are left unchanged."""
    if x.shape[-1] == 1:
        return x.copy()
    f = _F32
    xf = x.astype(f) / f(255)
    r, g, b = xf[..., 0], xf[..., 1], xf[..., 2]
    vmax = xp.maximum(xp.maximum(r, g), b)
    vmin = xp.minimum(xp.minimum(r, g), b)
    diff = vmax - vmin
    light = (vmax + vmin) * f(0.5)
    coloured = diff > np.finfo(f).eps
    with np.errstate(divide="ignore", invalid="ignore"):
        sat = xp.where(light < 0.5, diff / (vmax + vmin), diff / (f(2) - vmax - vmin))
        step = f(60) / diff
    is_r = vmax == r
    is_g = ~is_r & (vmax == g)
    hue = xp.where(is_r, (g - b) * step,
                   xp.where(is_g, (b - r) * step + f(120), (r - g) * step + f(240)))
    hue = xp.where(hue < 0, hue + f(360), hue)
    sat = xp.where(coloured, sat, f(0))
    hue = xp.where(coloured, hue, f(0)) + f(f(alpha) * f(360))
    # back to RGB
    p2 = xp.where(light <= 0.5, light * (f(1) + sat), light + sat - light * sat)
    p1 = f(2) * light - p2
    h = hue * f(1.0 / 60.0)
    h = h - f(6) * xp.floor(h / f(6))
    h = xp.where(h >= 6, h - f(6), h)
    sector = xp.clip(h.astype(np.int32), 0, 5)
    h = h - sector.astype(f)
    tab = xp.stack([p2, p1, p1 + (p2 - p1) * (f(1) - h), p1 + (p2 - p1) * h], axis=-1)
    pick = xp.asarray(_HLS_SECTORS)[sector]                # (..., 3): b, g, r positions
    bgr = xp.take_along_axis(tab, pick, axis=-1)
    rgb = xp.where((sat != 0)[..., None], bgr[..., ::-1], light[..., None])
    return _saturate(xp, (rgb * f(255)).astype(f), x.dtype)


# AlexNet's PCA eigenvectors (columns) times eigenvalues
_LIGHT_TABLE = (np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                          [-0.5836, -0.6948, 0.4203]])
                * np.array([55.46, 4.794, 1.148])[None, :]).astype(_F32)


def _lighting(xp, x, alpha):
    """AlexNet's PCA lighting: add ``eigvec @ (alpha * eigval)`` to the RGB values (the
    first of those offsets to a single-channel image)."""
    # 1.9.1 keeps eigvec * eigval as a float32 table (products taken in double) and sums
    # the three float32 products table * alpha in order
    terms = _LIGHT_TABLE * np.asarray(alpha, _F32)[None, :]
    shift = ((terms[:, 0] + terms[:, 1]) + terms[:, 2]).astype(_F32)
    shift = shift[: x.shape[-1]]
    return _saturate(xp, x.astype(_F32) + xp.asarray(shift), x.dtype)


_ADJUST = {"brightness": _brightness, "contrast": _contrast, "saturation": _saturation,
           "hue": _hue}


def _serial(rc):
    """1.9.1's single-engine CPU generator, or None (a GPU: its generator draws instead)."""
    return getattr(rc.rng, "serial", None)


def _coin(rc):
    """Whether a random flip flips."""
    ser = _serial(rc)
    if ser is None:
        return float(rc.rng.random()) < 0.5
    w = ser.take(0, 2)
    return float(canonical_f64(w[0], w[1])) >= 0.5


def _uniform(rc, lo, hi):
    """One host float uniform in [lo, hi)."""
    ser = _serial(rc)
    if ser is None:
        return lo + (hi - lo) * float(rc.rng.random())
    lo, hi = np.float32(lo), np.float32(hi)
    return float(ser.uniform_f32(1)[0] * (hi - lo) + lo)


def _uniform_int(ser, hi):
    """libstdc++'s classic ``uniform_int_distribution(0, hi)`` on a 32-bit engine."""
    span = hi + 1
    scaling = 0xFFFFFFFF // span
    while True:
        w = int(ser.take(0, 1)[0])
        if w < span * scaling:
            return w // scaling


def _random_adjust(opname, kind):
    fn = _ADJUST[kind]

    def compute(rc, attrs, x):
        _check_single(opname, x.shape)
        return fn(rc.xp, x, _uniform(rc, attrs["min_factor"], attrs["max_factor"]))
    return compute


def _factor_check(opname, attrs):
    for k in ("min_factor", "max_factor"):
        if attrs[k] < 0:
            raise _err(opname, f"value {attrs[k]} for parameter {k} should be greater equal "
                               "to 0")


_FACTOR_PARAMS = (Param("min_factor", "float", doc="Minimum factor (>= 0)."),
                  Param("max_factor", "float", doc="Maximum factor (>= 0)."))
_FACTOR_DOCS = {
    "brightness": "Scale the pixel values by a factor drawn uniformly from "
                  "[min_factor, max_factor].",
    "contrast": "Blend an (H, W, C) image with its mean gray level by a factor drawn "
                "uniformly from [min_factor, max_factor].",
    "saturation": "Blend an (H, W, C) image with a gray value by a factor drawn uniformly "
                  "from [min_factor, max_factor].",
    "hue": "Rotate the hue of an (H, W, C) image by a number of turns drawn uniformly from "
           "[min_factor, max_factor].",
}

for _kind, _doc in _FACTOR_DOCS.items():
    _op = f"_image_random_{_kind}"
    register(_op, _random_adjust(_op, _kind), params=_FACTOR_PARAMS, needs_rng=True,
             attr_check=_factor_check, infer_shape=_single_shape(_op), infer_type=_same_type,
             gradient=_pass_through, doc=_doc)


def _permutation(rc, n):
    ser = _serial(rc)
    if ser is not None:
        order = list(range(n))
        for i in range(1, n):
            j = _uniform_int(ser, i)
            order[i], order[j] = order[j], order[i]
        return order
    rng = rc.rng
    if hasattr(rng, "permutation"):
        return [int(i) for i in rng.permutation(n)]
    return [int(i) for i in np.argsort(np.asarray(rng.random(n).tolist()))]


def _color_jitter(rc, attrs, x):
    _check_single("_image_random_color_jitter", x.shape)
    xp, out = rc.xp, x
    for which in _permutation(rc, 4):
        kind = ("brightness", "contrast", "saturation", "hue")[which]
        amount = attrs[kind]
        if amount <= 0:
            continue
        if kind == "hue":
            out = _hue(xp, out, _uniform(rc, -amount, amount))
        elif _serial(rc) is not None:   # 1.9.1: 1 + U[-amount, amount), in float32
            out = _ADJUST[kind](xp, out, float(_F32(1) + _F32(_uniform(rc, -amount, amount))))
        else:
            out = _ADJUST[kind](xp, out, _uniform(rc, max(0.0, 1 - amount), 1 + amount))
    return out.copy() if out is x else out


register("_image_random_color_jitter", _color_jitter, needs_rng=True,
         params=(Param("brightness", "float", doc="How much to jitter brightness."),
                 Param("contrast", "float", doc="How much to jitter contrast."),
                 Param("saturation", "float", doc="How much to jitter saturation."),
                 Param("hue", "float", doc="How much to jitter hue.")),
         infer_shape=_single_shape("_image_random_color_jitter"), infer_type=_same_type,
         gradient=_pass_through,
         doc="Random brightness, contrast, saturation and hue changes of an (H, W, C) image, "
             "in a random order (an amount of 0 leaves that property alone).")


def _adjust_lighting(rc, attrs, x):
    name = "_image_adjust_lighting"
    _check_single(name, x.shape)
    return _lighting(rc.xp, x, attrs["alpha"])


def _lighting_check(opname, attrs):
    if len(attrs["alpha"]) != 3:
        raise _err(opname, f"alpha must have 3 elements (R, G, B), got {list(attrs['alpha'])}")


register("_image_adjust_lighting", _adjust_lighting, attr_check=_lighting_check,
         params=(Param("alpha", "tuple_float", doc="The lighting alphas for R, G and B."),),
         infer_shape=_single_shape("_image_adjust_lighting"), infer_type=_same_type,
         gradient=_pass_through,
         doc="Add AlexNet's PCA lighting offset with the given weights to an (H, W, C) image.")


def _random_lighting(rc, attrs, x):
    _check_single("_image_random_lighting", x.shape)
    ser = _serial(rc)
    if ser is None:
        alpha = np.asarray(rc.rng.standard_normal(3).tolist()) * attrs["alpha_std"]
    else:
        alpha = ser.normal_f32(3) * np.float32(attrs["alpha_std"])
    return _lighting(rc.xp, x, alpha)


register("_image_random_lighting", _random_lighting, needs_rng=True,
         params=(Param("alpha_std", "float", 0.05, doc="Level of the lighting noise."),),
         infer_shape=_single_shape("_image_random_lighting"), infer_type=_same_type,
         gradient=_pass_through,
         doc="Add AlexNet's PCA lighting noise, with weights drawn from N(0, alpha_std), to an "
             "(H, W, C) image.")
