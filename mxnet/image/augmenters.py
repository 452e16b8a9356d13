"""Image augmenters of ``mx.image``: callables that take an (H, W, C) NDArray and return one.

An augmenter remembers its constructor arguments for :meth:`Augmenter.dumps` (a JSON text
``[name, {arguments}]``). :func:`CreateAugmenter` builds the usual training / validation list.

The colour augmenters work on float images (put :class:`CastAug` first) and several change
their input in place, as 1.9.1's do. Random draws use Python's :mod:`random` (and
``np.random`` for the lighting noise), like 1.9.1, so seeding those repeats 1.9.1's choices.
"""
from __future__ import annotations

import json
import random
import warnings

import numpy as np

from .. import ndarray as nd
from .image import (_get_interp_method, center_crop, color_normalize, imresize, random_crop,
                    random_size_crop, resize_short)

__all__ = ["Augmenter", "SequentialAug", "ResizeAug", "ForceResizeAug", "RandomCropAug",
           "RandomSizedCropAug", "CenterCropAug", "RandomOrderAug", "BrightnessJitterAug",
           "ContrastJitterAug", "SaturationJitterAug", "HueJitterAug", "ColorJitterAug",
           "LightingAug", "ColorNormalizeAug", "RandomGrayAug", "HorizontalFlipAug", "CastAug",
           "CreateAugmenter"]

_LUMA = [[[0.299, 0.587, 0.114]]]


class _ImageArgError(ValueError, AssertionError):
    """A bad argument to an image iterator or augmenter factory: a ValueError that is also an
    AssertionError, the exception 1.9.1 raises for these checks."""


class Augmenter:
    """Base class: subclasses implement ``__call__(src) -> image``."""

    def __init__(self, **kwargs):
        self._kwargs = {}
        for key, value in kwargs.items():
            if isinstance(value, nd.NDArray):
                value = value.asnumpy()
            if isinstance(value, np.ndarray):
                value = value.tolist()
            self._kwargs[key] = value

    def dumps(self):
        """The augmenter as JSON text: ``[class name in lower case, {arguments}]``."""
        return json.dumps([type(self).__name__.lower(), self._kwargs])

    def __call__(self, src):
        raise NotImplementedError("Augmenter subclasses must implement __call__")


class _SizedAug(Augmenter):
    """An augmenter configured by an output ``size`` and an interpolation method."""

    def __init__(self, size, interp=2):
        super().__init__(size=size, interp=interp)
        self.size = size
        self.interp = interp


class SequentialAug(Augmenter):
    """Apply the augmenters ``ts`` one after another."""

    def __init__(self, ts):
        super().__init__()
        self.ts = ts

    def dumps(self):
        return [type(self).__name__.lower(), [t.dumps() for t in self.ts]]

    def __call__(self, src):
        for t in self.ts:
            src = t(src)
        return src


class RandomOrderAug(Augmenter):
    """Apply the augmenters ``ts`` in a random order (shuffled in place each call)."""

    def __init__(self, ts):
        super().__init__()
        self.ts = ts

    def dumps(self):
        return [type(self).__name__.lower(), [t.dumps() for t in self.ts]]

    def __call__(self, src):
        random.shuffle(self.ts)
        for t in self.ts:
            src = t(src)
        return src


# -- geometry -------------------------------------------------------------------------------------------
class ResizeAug(_SizedAug):
    """Resize the shorter side to ``size``, keeping the aspect ratio."""

    def __call__(self, src):
        return resize_short(src, self.size, self.interp)


class ForceResizeAug(_SizedAug):
    """Resize to exactly ``size`` (w, h)."""

    def __call__(self, src):
        w, h = self.size
        method = _get_interp_method(self.interp, (src.shape[0], src.shape[1], h, w))
        return imresize(src, w, h, interp=method)


class RandomCropAug(_SizedAug):
    """A ``size`` (w, h) crop at a random position."""

    def __call__(self, src):
        return random_crop(src, self.size, self.interp)[0]


class RandomSizedCropAug(Augmenter):
    """A crop of random area fraction and aspect ratio, resized to ``size``."""

    def __init__(self, size, area, ratio, interp=2, **kwargs):
        super().__init__(size=size, area=area, ratio=ratio, interp=interp)
        if "min_area" in kwargs:
            warnings.warn("`min_area` is deprecated. Please use `area` instead.",
                          DeprecationWarning, stacklevel=2)
            area = kwargs.pop("min_area")
        if kwargs:
            raise TypeError(f"RandomSizedCropAug: unexpected keyword arguments {sorted(kwargs)}")
        self.size = size
        self.area = area
        self.ratio = ratio
        self.interp = interp

    def __call__(self, src):
        return random_size_crop(src, self.size, self.area, self.ratio, self.interp)[0]


class CenterCropAug(_SizedAug):
    """A ``size`` (w, h) crop at the centre."""

    def __call__(self, src):
        return center_crop(src, self.size, self.interp)[0]


class HorizontalFlipAug(Augmenter):
    """Mirror left-right with probability ``p``."""

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p

    def __call__(self, src):
        if random.random() < self.p:
            src = nd.flip(src, axis=1)
        return src


class CastAug(Augmenter):
    """Cast to ``typ`` (float32 by default)."""

    def __init__(self, typ="float32"):
        super().__init__(type=typ)
        self.typ = typ

    def __call__(self, src):
        return src.astype(self.typ)


# -- colour ---------------------------------------------------------------------------------------------
class BrightnessJitterAug(Augmenter):
    """Scale all values by ``1 + u``, ``u`` uniform in [-brightness, brightness]."""

    def __init__(self, brightness):
        super().__init__(brightness=brightness)
        self.brightness = brightness

    def __call__(self, src):
        alpha = 1.0 + random.uniform(-self.brightness, self.brightness)
        src *= alpha
        return src


class ContrastJitterAug(Augmenter):
    """Blend with the image's mean luma: ``alpha * x + (1 - alpha) * mean_luma``,
    ``alpha = 1 + u``, ``u`` uniform in [-contrast, contrast]."""

    def __init__(self, contrast):
        super().__init__(contrast=contrast)
        self.contrast = contrast
        self.coef = nd.array(_LUMA)

    def __call__(self, src):
        alpha = 1.0 + random.uniform(-self.contrast, self.contrast)
        weighted = src * self.coef
        # the sum over pixels of each pixel's luma, divided by the pixel count (size / 3)
        mean_luma = nd.sum(weighted) * (3.0 * (1.0 - alpha) / weighted.size)
        src *= alpha
        src += mean_luma
        return src


class SaturationJitterAug(Augmenter):
    """Blend every pixel with its own luma: ``alpha * x + (1 - alpha) * luma``."""

    def __init__(self, saturation):
        super().__init__(saturation=saturation)
        self.saturation = saturation
        self.coef = nd.array(_LUMA)

    def __call__(self, src):
        alpha = 1.0 + random.uniform(-self.saturation, self.saturation)
        luma = nd.sum(src * self.coef, axis=2, keepdims=True)
        luma *= 1.0 - alpha
        src *= alpha
        src += luma
        return src


_RGB_TO_YIQ = np.array([[0.299, 0.587, 0.114],
                        [0.596, -0.274, -0.321],
                        [0.211, -0.523, 0.311]])
_YIQ_TO_RGB = np.array([[1.0, 0.956, 0.621],
                        [1.0, -0.272, -0.647],
                        [1.0, -1.107, 1.705]])


class HueJitterAug(Augmenter):
    """Rotate the hue: turn the (I, Q) chroma plane of YIQ space by ``u * pi``, ``u`` uniform
    in [-hue, hue]."""

    def __init__(self, hue):
        super().__init__(hue=hue)
        self.hue = hue
        self.tyiq = _RGB_TO_YIQ.copy()
        self.ityiq = _YIQ_TO_RGB.copy()

    def __call__(self, src):
        alpha = random.uniform(-self.hue, self.hue)
        c, s = np.cos(alpha * np.pi), np.sin(alpha * np.pi)
        turn = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
        matrix = (self.ityiq @ turn @ self.tyiq).T
        return nd.dot(src, nd.array(matrix, ctx=src.context))


class ColorJitterAug(RandomOrderAug):
    """Brightness, contrast and saturation jitter (those that are > 0) in a random order."""

    def __init__(self, brightness, contrast, saturation):
        ts = []
        if brightness > 0:
            ts.append(BrightnessJitterAug(brightness))
        if contrast > 0:
            ts.append(ContrastJitterAug(contrast))
        if saturation > 0:
            ts.append(SaturationJitterAug(saturation))
        super().__init__(ts)


class LightingAug(Augmenter):
    """AlexNet's PCA lighting noise: add ``eigvec @ (alpha * eigval)`` to every pixel, with
    ``alpha ~ N(0, alphastd)`` (drawn with ``np.random``)."""

    def __init__(self, alphastd, eigval, eigvec):
        super().__init__(alphastd=alphastd, eigval=eigval, eigvec=eigvec)
        self.alphastd = alphastd
        self.eigval = eigval
        self.eigvec = eigvec

    def __call__(self, src):
        alpha = np.random.normal(0, self.alphastd, size=(3,))
        rgb = np.dot(self.eigvec * alpha, self.eigval)
        src += nd.array(rgb, ctx=src.context)
        return src


class ColorNormalizeAug(Augmenter):
    """``(x - mean) / std`` per channel (either may be None)."""

    def __init__(self, mean, std):
        super().__init__(mean=mean, std=std)
        self.mean = mean if mean is None or isinstance(mean, nd.NDArray) else nd.array(mean)
        self.std = std if std is None or isinstance(std, nd.NDArray) else nd.array(std)

    def __call__(self, src):
        ctx = src.context
        if self.mean is not None and self.mean.context != ctx:
            self.mean = self.mean.as_in_context(ctx)
        if self.std is not None and self.std.context != ctx:
            self.std = self.std.as_in_context(ctx)
        return color_normalize(src, self.mean, self.std)


class RandomGrayAug(Augmenter):
    """With probability ``p``, replace every channel by the gray value
    ``0.21 R + 0.72 G + 0.07 B``."""

    def __init__(self, p):
        super().__init__(p=p)
        self.p = p
        self.mat = nd.array([[0.21, 0.21, 0.21], [0.72, 0.72, 0.72], [0.07, 0.07, 0.07]])

    def __call__(self, src):
        if random.random() < self.p:
            src = nd.dot(src, self.mat.as_in_context(src.context))
        return src


# -- the standard list ----------------------------------------------------------------------------------
_IMAGENET_MEAN = [123.68, 116.28, 103.53]
_IMAGENET_STD = [58.395, 57.12, 57.375]
_PCA_EIGVAL = np.array([55.46, 4.794, 1.148])
_PCA_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009],
                        [-0.5808, -0.0045, -0.8140],
                        [-0.5836, -0.6948, 0.4203]])


def _check_stat(value, name):
    if value is True:
        return nd.array(_IMAGENET_MEAN if name == "mean" else _IMAGENET_STD)
    if value is None:
        return None
    if not isinstance(value, (np.ndarray, nd.NDArray)) or value.shape[0] not in (1, 3):
        raise _ImageArgError(f"CreateAugmenter: {name} must be True, None, or a NumPy array / "
                         f"NDArray of 1 or 3 values, got {value!r}")
    return value


def CreateAugmenter(data_shape, resize=0, rand_crop=False, rand_resize=False, rand_mirror=False,  # noqa: N802
                    mean=None, std=None, brightness=0, contrast=0, saturation=0, hue=0,
                    pca_noise=0, rand_gray=0, inter_method=2):
    """The augmenter list for images of ``data_shape`` (C, H, W), in this order: resize of the
    shorter side (``resize`` > 0); a crop to (H, W) -- random-sized (``rand_resize``, which
    needs ``rand_crop``), random (``rand_crop``) or central; a random mirror; the cast to
    float32; colour jitter; hue jitter; PCA lighting noise; random gray; then normalisation
    by ``mean`` / ``std`` (True picks ImageNet's values)."""
    auglist = []
    if resize > 0:
        auglist.append(ResizeAug(resize, inter_method))
    crop_size = (data_shape[2], data_shape[1])
    if rand_resize:
        if not rand_crop:
            raise _ImageArgError("CreateAugmenter: rand_resize=True needs rand_crop=True")
        auglist.append(RandomSizedCropAug(crop_size, 0.08, (3.0 / 4.0, 4.0 / 3.0), inter_method))
    elif rand_crop:
        auglist.append(RandomCropAug(crop_size, inter_method))
    else:
        auglist.append(CenterCropAug(crop_size, inter_method))
    if rand_mirror:
        auglist.append(HorizontalFlipAug(0.5))
    auglist.append(CastAug())
    if brightness or contrast or saturation:
        auglist.append(ColorJitterAug(brightness, contrast, saturation))
    if hue:
        auglist.append(HueJitterAug(hue))
    if pca_noise > 0:
        auglist.append(LightingAug(pca_noise, _PCA_EIGVAL, _PCA_EIGVEC))
    if rand_gray > 0:
        auglist.append(RandomGrayAug(rand_gray))
    mean = _check_stat(mean, "mean")
    std = _check_stat(std, "std")
    if mean is not None or std is not None:
        auglist.append(ColorNormalizeAug(mean, std))
    return auglist
