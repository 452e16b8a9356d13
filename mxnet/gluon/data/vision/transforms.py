"""Image transforms as Gluon blocks: ``Compose([Resize(32), ToTensor(), Normalize(m, s)])``.

As in 1.9.1 the hybridizable transforms are HybridBlocks calling the image operators
(``F.image.*``, registered as ``_image_*`` in mxnet/operator/image_ops.py), so a hybridized
pipeline exports the same -symbol.json as 1.9.1's. The random ones draw from MXNet's
generator (``mx.random.seed``). CenterCrop, RandomResizedCrop, Rotate and RandomRotation are
plain Blocks computing with NumPy (:mod:`._image`); the crops draw with Python's ``random``
as 1.9.1 does.

The image operators raise MXNetError (which is also a ValueError) for invalid arguments.
"""
from __future__ import annotations

import random

import numpy as np

from .... import ndarray as nd
from .... import util as _util
from ....base import MXNetValueError
from ....context import cpu
from ...block import Block, HybridBlock
from ...nn import HybridSequential, Sequential
from . import _image

__all__ = ["Compose", "Cast", "ToTensor", "Normalize", "Rotate", "RandomRotation", "Resize",
           "CenterCrop", "CropResize",
           "RandomResizedCrop", "RandomFlipLeftRight", "RandomFlipTopBottom", "RandomBrightness",
           "RandomContrast", "RandomSaturation", "RandomHue", "RandomColorJitter",
           "RandomLighting", "RandomApply"]

_numeric = (int, float, np.integer, np.floating)


def _as_nd(x):
    """A NumPy image as an NDArray of the same dtype; anything else unchanged."""
    if isinstance(x, np.ndarray):
        arr = nd.array(x, dtype=x.dtype)
        # under npx.set_np() the result is an mx.np array, as every other block returns
        return arr.as_np_ndarray() if _util.is_np_array() else arr
    return x


def _host(x):
    """The NumPy pixels and the context of an NDArray (a NumPy array gives cpu(0))."""
    if isinstance(x, nd.NDArray):
        return x.asnumpy(), x.context
    return np.asarray(x), cpu()


def _result(out, ctx, like):
    """The NumPy result ``out`` as an array of the input's kind: an mx.np input gives mx.np."""
    res = nd.array(out, ctx=ctx, dtype=out.dtype)
    if isinstance(like, nd.NDArray) and type(like).__module__.startswith("mxnet.numpy"):
        return res.as_np_ndarray()
    return res


class _ImageTransform(HybridBlock):
    """A HybridBlock transform that also takes NumPy images (converted to NDArrays)."""

    def forward(self, x, *args):
        return super().forward(_as_nd(x), *args)


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

    def forward(self, x, *args):
        return super().forward(_as_nd(x), *args)


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

    def hybrid_forward(self, F, x):
        return F.image.to_tensor(x)


class Normalize(_ImageTransform):
    """``(x - mean[c]) / std[c]`` per channel of a (C, H, W) or (N, C, H, W) tensor; a scalar
    mean or std applies to all channels."""

    def __init__(self, mean=0.0, std=1.0):
        super().__init__()
        self._mean = mean
        self._std = std

    def hybrid_forward(self, F, x):
        return F.image.normalize(x, self._mean, self._std)


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

    def __init__(self, size, keep_ratio=False, interpolation=1):
        super().__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        return F.image.resize(x, self._size, self._keep, self._interpolation)


class CropResize(_ImageTransform):
    """Crop the ``width`` x ``height`` region at column ``x``, row ``y``; then, if ``size`` is
    given, resize it to ``size`` with ``interpolation``."""

    def __init__(self, x, y, width, height, size=None, interpolation=None):
        super().__init__()
        self._x, self._y = x, y
        self._width, self._height = width, height
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        out = F.image.crop(x, self._x, self._y, self._width, self._height)
        if self._size:
            # interpolation None means the operator's default (1.9.1 fails on it in a graph)
            extra = {} if self._interpolation is None else {"interp": self._interpolation}
            out = F.image.resize(out, self._size, False, **extra)
        return out


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
        from ....image.image import _get_interp_method, _int_arg  # as 1.9.1's imresize call
        interp = _get_interp_method(interp, (h, w, size[1], size[0]))
        out = _image.resize(out, _int_arg("imresize", "w", size[0]),
                            _int_arg("imresize", "h", size[1]), interp)
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
        if min(size) <= 0:  # 1.9.1 fails (MXNetError) rather than return an empty image
            raise MXNetValueError(f"CenterCrop: size must be positive, got {size}")
        img, ctx = _host(x)
        h, w = img.shape[:2]
        new_w, new_h = _scale_down((w, h), size)
        x0, y0 = int((w - new_w) / 2), int((h - new_h) / 2)
        out = _fixed_crop(img, x0, y0, new_w, new_h, size, interp)
        return _result(out, ctx, x)


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
                return _result(out, ctx, x)
        new_w, new_h = _scale_down((w, h), size)
        out = _fixed_crop(img, int((w - new_w) / 2), int((h - new_h) / 2), new_w, new_h, size,
                          interp)
        return _result(out, ctx, x)


class RandomFlipLeftRight(_ImageTransform):
    """Mirror an (H, W, C) image left to right with probability 0.5."""

    def hybrid_forward(self, F, x):
        return F.image.random_flip_left_right(x)


class RandomFlipTopBottom(_ImageTransform):
    """Flip an (H, W, C) image upside down with probability 0.5."""

    def hybrid_forward(self, F, x):
        return F.image.random_flip_top_bottom(x)


class _RandomFactor(_ImageTransform):
    """Calls ``F.image.<_op>(x, max(0, 1 - amount), 1 + amount)`` on an (H, W, C) image."""

    _op = ""

    def __init__(self, amount):
        super().__init__()
        self._args = (max(0, 1 - amount), 1 + amount)

    def _kernel_args(self):
        return {"lo": self._args[0], "hi": self._args[1]}

    def hybrid_forward(self, F, x):
        return getattr(F.image, self._op)(x, *self._args)


class RandomBrightness(_RandomFactor):
    """Scale the pixel values by a factor drawn from [max(0, 1 - brightness), 1 + brightness]."""

    _op = "random_brightness"

    def __init__(self, brightness):  # 1.9.1's keyword name
        super().__init__(brightness)


class RandomContrast(_RandomFactor):
    """Blend with the image's mean gray level by a factor drawn from
    [max(0, 1 - contrast), 1 + contrast]."""

    _op = "random_contrast"

    def __init__(self, contrast):  # 1.9.1's keyword name
        super().__init__(contrast)


class RandomSaturation(_RandomFactor):
    """Blend with a gray value by a factor drawn from [max(0, 1 - saturation), 1 + saturation]."""

    _op = "random_saturation"

    def __init__(self, saturation):  # 1.9.1's keyword name
        super().__init__(saturation)


class RandomHue(_RandomFactor):
    """Rotate the hue by a factor drawn from [max(0, 1 - hue), 1 + hue] turns."""

    _op = "random_hue"

    def __init__(self, hue):  # 1.9.1's keyword name
        super().__init__(hue)


class RandomColorJitter(_ImageTransform):
    """Random brightness, contrast, saturation and hue changes, applied in a random order;
    each amount works as in the single transforms (0 leaves that property alone)."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__()
        self._args = (brightness, contrast, saturation, hue)

    def hybrid_forward(self, F, x):
        return F.image.random_color_jitter(x, *self._args)


class RandomLighting(_ImageTransform):
    """AlexNet-style PCA lighting noise with weights drawn from N(0, alpha)."""

    def __init__(self, alpha):
        super().__init__()
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.image.random_lighting(x, self._alpha)


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
