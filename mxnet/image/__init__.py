"""``mx.image``: image decoding, resizing and cropping, augmenters, and the ImageIter iterator.

``ImageIter`` (which needs ``mxnet.io``) is imported on first use, so the image functions work
on their own.
"""
import importlib

from .augmenters import *  # noqa: F403
from .augmenters import __all__ as _aug_all
from .image import *  # noqa: F403
from .image import __all__ as _img_all

__all__ = list(_img_all) + list(_aug_all) + ["ImageIter"]  # noqa: F405 - see __getattr__


def __getattr__(name):
    if name == "ImageIter":
        return importlib.import_module(f"{__name__}.image_iter").ImageIter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
