"""``mx.image``: image decoding, resizing and cropping, augmenters, and the ImageIter iterator.

``ImageIter`` and the detection parts (``ImageDetIter``, ``CreateDetAugmenter`` and the
``Det*Aug`` augmenters, in :mod:`mxnet.image.detection`), which need ``mxnet.io``, are imported
on first use, so the image functions work on their own.
"""
import importlib

from .augmenters import *  # noqa: F403
from .augmenters import __all__ as _aug_all
from .image import *  # noqa: F403
from .image import __all__ as _img_all

_DETECTION = ("DetAugmenter", "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug",
              "DetRandomCropAug", "DetRandomPadAug", "CreateMultiRandCropAugmenter",
              "CreateDetAugmenter", "ImageDetIter")

__all__ = list(_img_all) + list(_aug_all) + ["ImageIter"] + list(_DETECTION)  # noqa: F405


def __getattr__(name):
    if name == "ImageIter":
        return importlib.import_module(f"{__name__}.image_iter").ImageIter
    if name in _DETECTION or name in ("detection", "det"):
        module = importlib.import_module(f"{__name__}.detection")
        return module if name in ("detection", "det") else getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
