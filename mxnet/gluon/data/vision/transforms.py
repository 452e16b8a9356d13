"""Image transforms as Gluon blocks: ``Compose([Resize(32), ToTensor(), Normalize(m, s)])``.

The pixel work is NumPy code in :mod:`._image` (OpenCV-compatible resize, colour changes).
The hybridizable transforms are HybridBlocks as in 1.9.1: called on NDArrays they run the
kernel directly; traced into a Symbol (``hybridize()``, or inside :class:`Compose`, which
hybridizes runs of HybridBlocks) they become a Python custom operator that runs the same
kernel, so both ways give the same numbers. (1.9.1 emits ``_image_*`` operators there; this
registry has none yet.)

Random transforms draw from MXNet's generator (``mx.random.seed``), except the crops, which
use Python's ``random`` as 1.9.1 does.
"""
from __future__ import annotations

import ast
import random

import numpy as np

from .... import ndarray as nd
from .... import operator as _operator
from ....backend import get_backend
from ....context import cpu
from ....symbol import Symbol
from ...block import Block, HybridBlock
from ...nn import HybridSequential, Sequential
from . import _image

__all__ = ["Compose", "Cast", "ToTensor", "Normalize", "Rotate", "RandomRotation", "Resize",
           "CenterCrop", "CropResize",
           "RandomResizedCrop", "RandomFlipLeftRight", "RandomFlipTopBottom", "RandomBrightness",
           "RandomContrast", "RandomSaturation", "RandomHue", "RandomColorJitter",
           "RandomLighting", "RandomApply"]

_numeric = (int, float, np.integer, np.floating)


def _rng():
    return get_backend(cpu()).rng


# -- kernels by name: what the blocks and the custom operator run ----------------------------------
def _k_to_tensor(x):
    return _image.to_tensor(x)


def _k_normalize(x, mean, std):
    return _image.normalize(x, mean, std)


def _k_resize(x, size, keep_ratio, interp):
    w, h = _image.resize_size(x.shape, size, keep_ratio)
    return _image.resize(x, w, h, interp)


def _k_crop(x, x0, y0, width, height, size=None, interp=1):
    out = _image.crop(x, x0, y0, width, height)
    if size:
        w, h = _image.resize_size(out.shape, size, False)
        out = _image.resize(out, w, h, 1 if interp is None else interp)
    return out


def _image_axis(x, axis_hwc):
    return axis_hwc + (x.ndim - 3)


def _k_random_flip(x, axis):
    if _rng().random() < 0.5:
        return _image.flip(x, _image_axis(x, axis))
    return x


def _k_random_brightness(x, lo, hi):
    return _image.adjust_brightness(x, _rng().uniform(lo, hi))


def _k_random_contrast(x, lo, hi):
    return _image.adjust_contrast(x, _rng().uniform(lo, hi))


def _k_random_saturation(x, lo, hi):
    return _image.adjust_saturation(x, _rng().uniform(lo, hi))


def _k_random_hue(x, lo, hi):
    return _image.adjust_hue(x, _rng().uniform(lo, hi))


def _k_random_color_jitter(x, brightness, contrast, saturation, hue):
    return _image.color_jitter(x, _rng(), brightness, contrast, saturation, hue)


def _k_random_lighting(x, alpha_std):
    return _image.adjust_lighting(x, _rng().normal(0, alpha_std, size=3))


_KERNELS = {
    "to_tensor": _k_to_tensor, "normalize": _k_normalize, "resize": _k_resize, "crop": _k_crop,
    "random_flip": _k_random_flip, "random_brightness": _k_random_brightness,
    "random_contrast": _k_random_contrast, "random_saturation": _k_random_saturation,
    "random_hue": _k_random_hue, "random_color_jitter": _k_random_color_jitter,
    "random_lighting": _k_random_lighting,
}


def _out_shape(kernel, shape, params):
    shape = tuple(int(s) for s in shape)
    if kernel == "to_tensor":
        return (shape[2], shape[0], shape[1]) if len(shape) == 3 else \
            (shape[0], shape[3], shape[1], shape[2])
    if kernel == "resize":
        w, h = _image.resize_size(shape, params["size"], params["keep_ratio"])
        return shape[:-3] + (h, w, shape[-1])
    if kernel == "crop":
        w, h = params["width"], params["height"]
        if params.get("size"):
            w, h = _image.resize_size((h, w, 1), params["size"], False)
        return shape[:-3] + (h, w, shape[-1])
    return shape


def _host(x):
    """The NumPy pixels and the context of an NDArray (a NumPy array gives cpu(0))."""
    if isinstance(x, nd.NDArray):
        return x.asnumpy(), x.context
    return np.asarray(x), cpu()


def _run_nd(kernel, x, params):
    img, ctx = _host(x)
    out = _KERNELS[kernel](img, **params)
    return nd.array(out, ctx=ctx, dtype=out.dtype)


# -- the custom operator used when a transform is traced into a Symbol -----------------------------
_OP_TYPE = "_gluon_vision_transform"


class _TransformOp(_operator.CustomOp):
    def __init__(self, kernel, params):
        super().__init__()
        self._kernel, self._params = kernel, params

    def forward(self, is_train, req, in_data, out_data, aux):
        out = _KERNELS[self._kernel](in_data[0].asnumpy(), **self._params)
        self.assign(out_data[0], req[0], nd.array(out, ctx=in_data[0].context, dtype=out.dtype))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], nd.zeros(in_grad[0].shape, ctx=in_grad[0].context,
                                                 dtype=in_grad[0].dtype))


@_operator.register(_OP_TYPE)
class _TransformProp(_operator.CustomOpProp):
    def __init__(self, kernel, params="{}"):
        super().__init__(need_top_grad=False)
        self._kernel = kernel
        self._params = ast.literal_eval(params)

    def infer_shape(self, in_shape):
        return in_shape, [_out_shape(self._kernel, in_shape[0], self._params)], []

    def infer_type(self, in_type):
        out = np.float32 if self._kernel == "to_tensor" else in_type[0]
        return in_type, [out], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _TransformOp(self._kernel, self._params)


def _plain(v):
    """Parameters as plain Python literals (they travel as a string attribute)."""
    if isinstance(v, (list, tuple)):
        return tuple(_plain(x) for x in v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    return v


class _ImageTransform(HybridBlock):
    """A transform that runs the kernel named ``_kernel`` with the arguments ``_kernel_args()``."""

    _kernel = ""

    def _kernel_args(self):
        return {}

    def hybrid_forward(self, F, x):
        params = self._kernel_args()
        if not isinstance(x, Symbol):
            return _run_nd(self._kernel, x, params)
        text = repr({k: _plain(v) for k, v in params.items()})
        return F.Custom(x, op_type=_OP_TYPE, kernel=self._kernel, params=text)


# -- the transforms --------------------------------------------------------------------------------
class Compose(Sequential):
    """Apply ``transforms`` one after another. Consecutive HybridBlocks are grouped into a
    hybridized HybridSequential, as 1.9.1 does.

    >>> t = Compose([Resize(32), ToTensor()])
    """

    def __init__(self, transforms):
        super().__init__()
        transforms = list(transforms) + [None]
        run = []
        for t in transforms:
            if isinstance(t, HybridBlock):
                run.append(t)
                continue
            if len(run) == 1:
                self.add(run[0])
            elif len(run) > 1:
                group = HybridSequential()
                for block in run:
                    group.add(block)
                group.hybridize()
                self.add(group)
            run = []
            if t is not None:
                self.add(t)


class Cast(HybridBlock):
    """Cast the input to ``dtype`` (default float32)."""

    def __init__(self, dtype="float32"):
        super().__init__()
        self._dtype = dtype

    def hybrid_forward(self, F, x):
        return F.cast(x, self._dtype)


class ToTensor(_ImageTransform):
    """(H, W, C) or (N, H, W, C) images with values in [0, 255] to float32 (C, H, W) or
    (N, C, H, W) tensors in [0, 1]."""

    _kernel = "to_tensor"


class Normalize(_ImageTransform):
    """``(x - mean[c]) / std[c]`` per channel of a (C, H, W) or (N, C, H, W) tensor; a scalar
    mean or std applies to all channels."""

    _kernel = "normalize"

    def __init__(self, mean=0.0, std=1.0):
        super().__init__()
        self._mean = mean
        self._std = std

    def _kernel_args(self):
        return {"mean": self._mean, "std": self._std}


def _rotate(x, degrees, zoom_in=False, zoom_out=False):
    """Rotate float32 (C, H, W) or (N, C, H, W) images about their centres (bilinear sampling,
    zeros outside), optionally zoomed so that no padding shows (zoom_in) or nothing is cut
    (zoom_out). ``degrees`` is a scalar or one angle per image."""
    if zoom_in and zoom_out:
        raise ValueError("`zoom_in` and `zoom_out` cannot be both True")
    if np.dtype(x.dtype) != np.float32:
        raise TypeError("This transformation only supports float32. Consider calling it after ToTensor")
    single = x.ndim == 3
    if single:
        if not isinstance(degrees, _numeric):
            raise TypeError("When a single image is passed the rotation angle is required to be a scalar.")
        x = x.expand_dims(axis=0)
    elif x.ndim != 4:
        raise ValueError("Only 3D and 4D are supported by this function")
    n, _, h, w = x.shape
    degrees = np.full(n, degrees, np.float32) if isinstance(degrees, _numeric) else \
        np.asarray(degrees.asnumpy() if isinstance(degrees, nd.NDArray) else degrees, np.float32)
    if degrees.shape != (n,):
        raise ValueError("The number of images must be equal to the number of rotation angles")
    rad = (np.float32(np.pi) * degrees / np.float32(180)).astype(np.float32)[:, None, None]
    hs, ws = np.float32((h - 1) / 2), np.float32((w - 1) / 2)
    rows = np.repeat(np.arange(h, dtype=np.float32)[:, None], w, axis=1)[None] - hs
    cols = np.repeat(np.arange(w, dtype=np.float32)[None, :], h, axis=0)[None] - ws
    cos, sin = np.cos(rad), np.sin(rad)
    gx = (cols * cos - rows * sin) / ws
    gy = (cols * sin + rows * cos) / hs
    scale = np.float32(1)
    if zoom_in or zoom_out:
        fh, fw = np.float32(h), np.float32(w)
        rho = np.sqrt(fh * fh + fw * fw)
        corner = np.arctan(fh / fw)
        turn = np.abs(rad)
        max_x = np.maximum(np.abs(rho * np.cos(corner + turn)), np.abs(rho * np.cos(corner - turn)))
        max_y = np.maximum(np.abs(rho * np.sin(corner + turn)), np.abs(rho * np.sin(corner - turn)))
        if zoom_out:
            scale = np.maximum(max_x / fw, max_y / fh)
        else:
            scale = np.minimum(fw / max_x, fh / max_y)
        scale = scale[:, None].astype(np.float32)
    grid = (np.stack([gx, gy], axis=1) * scale).astype(np.float32)
    out = nd.BilinearSampler(x, nd.array(grid, ctx=x.context))
    return out[0] if single else out


class Rotate(Block):
    """Rotate float32 (C, H, W) or (N, C, H, W) images by ``rotation_degrees`` about their
    centres, keeping the shape; ``zoom_in`` / ``zoom_out`` scale so that no padding shows /
    the whole image stays visible."""

    def __init__(self, rotation_degrees, zoom_in=False, zoom_out=False):
        super().__init__()
        self._args = (rotation_degrees, zoom_in, zoom_out)

    def forward(self, x):
        return _rotate(x, *self._args)


class RandomRotation(Block):
    """Rotate by an angle drawn uniformly (``np.random``) from ``angle_limits``, with
    probability ``rotate_with_proba``; one angle per image of a batch."""

    def __init__(self, angle_limits, zoom_in=False, zoom_out=False, rotate_with_proba=1.0):
        super().__init__()
        lower, upper = angle_limits
        if lower >= upper:
            raise ValueError("`angle_limits` must be an ordered tuple")
        if rotate_with_proba < 0 or rotate_with_proba > 1:
            raise ValueError("Probability of rotating the image should be between 0 and 1")
        self._args = (angle_limits, zoom_in, zoom_out)
        self._rotate_with_proba = rotate_with_proba

    def forward(self, x):
        if np.random.random() > self._rotate_with_proba:
            return x
        limits, zoom_in, zoom_out = self._args
        degrees = np.random.uniform(*limits) if x.ndim == 3 else \
            np.random.uniform(*limits, size=x.shape[0])
        return _rotate(x, degrees, zoom_in, zoom_out)


class Resize(_ImageTransform):
    """Resize (H, W, C) or (N, H, W, C) images to ``size``: an int (a square, or with
    ``keep_ratio`` the short edge) or ``(width, height)``. ``interpolation`` follows OpenCV:
    0 nearest, 1 bilinear (default), 2 bicubic, 3 area, 4 Lanczos."""

    _kernel = "resize"

    def __init__(self, size, keep_ratio=False, interpolation=1):
        super().__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def _kernel_args(self):
        return {"size": self._size, "keep_ratio": self._keep, "interp": self._interpolation}


class CropResize(_ImageTransform):
    """Crop the ``width`` x ``height`` region at column ``x``, row ``y``; then, if ``size`` is
    given, resize it to ``size`` with ``interpolation``."""

    _kernel = "crop"

    def __init__(self, x, y, width, height, size=None, interpolation=None):
        super().__init__()
        self._x, self._y = x, y
        self._width, self._height = width, height
        self._size = size
        self._interpolation = interpolation

    def _kernel_args(self):
        return {"x0": self._x, "y0": self._y, "width": self._width, "height": self._height,
                "size": self._size, "interp": self._interpolation}


def _scale_down(src_size, size):
    """Shrink a (w, h) crop size to fit inside ``src_size``, keeping its aspect ratio."""
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def _fixed_crop(x, x0, y0, w, h, size, interp):
    out = x[y0:y0 + h, x0:x0 + w]
    if size is not None and (w, h) != tuple(size):
        out = _image.resize(out, size[0], size[1], interp)
    return np.ascontiguousarray(out)


class CenterCrop(Block):
    """Crop the centre of an (H, W, C) image to ``size`` ((width, height) or an int); an image
    smaller than that is cropped at its own aspect ratio and scaled up."""

    def __init__(self, size, interpolation=1):
        super().__init__()
        if isinstance(size, _numeric):
            size = (size, size)
        self._args = (tuple(size), interpolation)

    def forward(self, x):
        size, interp = self._args
        img, ctx = _host(x)
        h, w = img.shape[:2]
        new_w, new_h = _scale_down((w, h), size)
        x0, y0 = int((w - new_w) / 2), int((h - new_h) / 2)
        out = _fixed_crop(img, x0, y0, new_w, new_h, size, interp)
        return nd.array(out, ctx=ctx, dtype=out.dtype)


class RandomResizedCrop(Block):
    """Crop a random region of an (H, W, C) image, with an area of ``scale`` times the image's
    and an aspect ratio (w / h) in ``ratio`` (drawn log-uniformly), and resize it to ``size``.
    After 10 failed draws it falls back to a centre crop."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        super().__init__()
        if isinstance(size, _numeric):
            size = (size, size)
        self._args = (tuple(size), scale, ratio, interpolation)

    def forward(self, x):
        size, area, ratio, interp = self._args
        img, ctx = _host(x)
        h, w = img.shape[:2]
        if isinstance(area, _numeric):
            area = (area, 1.0)
        for _ in range(10):
            target = random.uniform(area[0], area[1]) * h * w
            aspect = np.exp(random.uniform(np.log(ratio[0]), np.log(ratio[1])))
            new_w = int(round(np.sqrt(target * aspect)))
            new_h = int(round(np.sqrt(target / aspect)))
            if new_w <= w and new_h <= h:
                x0 = random.randint(0, w - new_w)
                y0 = random.randint(0, h - new_h)
                out = _fixed_crop(img, x0, y0, new_w, new_h, size, interp)
                return nd.array(out, ctx=ctx, dtype=out.dtype)
        new_w, new_h = _scale_down((w, h), size)
        out = _fixed_crop(img, int((w - new_w) / 2), int((h - new_h) / 2), new_w, new_h, size,
                          interp)
        return nd.array(out, ctx=ctx, dtype=out.dtype)


class RandomFlipLeftRight(_ImageTransform):
    """Mirror the image left to right with probability 0.5."""

    _kernel = "random_flip"

    def _kernel_args(self):
        return {"axis": 1}


class RandomFlipTopBottom(_ImageTransform):
    """Flip the image upside down with probability 0.5."""

    _kernel = "random_flip"

    def _kernel_args(self):
        return {"axis": 0}


class _RandomFactor(_ImageTransform):
    def __init__(self, amount):
        super().__init__()
        self._args = (max(0, 1 - amount), 1 + amount)

    def _kernel_args(self):
        return {"lo": self._args[0], "hi": self._args[1]}


class RandomBrightness(_RandomFactor):
    """Scale the pixel values by a factor drawn from [max(0, 1 - brightness), 1 + brightness]."""

    _kernel = "random_brightness"


class RandomContrast(_RandomFactor):
    """Blend with the image's mean gray level by a factor drawn from
    [max(0, 1 - contrast), 1 + contrast]."""

    _kernel = "random_contrast"


class RandomSaturation(_RandomFactor):
    """Blend with a gray value by a factor drawn from [max(0, 1 - saturation), 1 + saturation]."""

    _kernel = "random_saturation"


class RandomHue(_RandomFactor):
    """Rotate the hue by a factor drawn from [max(0, 1 - hue), 1 + hue] turns."""

    _kernel = "random_hue"


class RandomColorJitter(_ImageTransform):
    """Random brightness, contrast, saturation and hue changes, applied in a random order;
    each amount works as in the single transforms (0 leaves that property alone)."""

    _kernel = "random_color_jitter"

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__()
        self._args = (brightness, contrast, saturation, hue)

    def _kernel_args(self):
        return dict(zip(("brightness", "contrast", "saturation", "hue"), self._args))


class RandomLighting(_ImageTransform):
    """AlexNet-style PCA lighting noise with weights drawn from N(0, alpha)."""

    _kernel = "random_lighting"

    def __init__(self, alpha):
        super().__init__()
        self._alpha = alpha

    def _kernel_args(self):
        return {"alpha_std": self._alpha}


class RandomApply(Sequential):
    """Apply ``transforms`` with probability ``p`` (drawn with Python's ``random``)."""

    def __init__(self, transforms, p=0.5):
        super().__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, x):
        if self.p < random.random():
            return x
        return self.transforms(x)
