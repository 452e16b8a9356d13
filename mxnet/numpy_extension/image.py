"""``mx.npx.image``: the image operators (``_image_*`` in the registry) on ``mx.np`` arrays,
plus, as in 1.9.1, every public name of ``mx.image`` (loaded on first use)."""
from __future__ import annotations

from ._op import _op

__all__ = ["to_tensor", "normalize", "resize", "crop", "flip_left_right", "flip_top_bottom",
           "random_flip_left_right", "random_flip_top_bottom", "random_brightness",
           "random_contrast", "random_saturation", "random_hue", "random_color_jitter",
           "adjust_lighting", "random_lighting"]


def to_tensor(data=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """(H, W, C) or (N, H, W, C) uint8/float image(s) in [0, 255] -> float32 (C, H, W) /
    (N, C, H, W) in [0, 1]."""
    return _op("image.to_tensor", "_image_to_tensor", [data], kwargs, out)


def normalize(data=None, mean=None, std=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """(x - mean) / std per channel of a (C, H, W) or (N, C, H, W) tensor."""
    return _op("image.normalize", "_image_normalize", [data],
               dict(kwargs, mean=mean, std=std), out)


def resize(data=None, size=None, keep_ratio=None, interp=None, out=None, name=None,
           **kwargs):  # noqa: ARG001
    """Resize (H, W, C) / (N, H, W, C) image(s) to ``size`` = (width, height) or one int."""
    return _op("image.resize", "_image_resize", [data],
               dict(kwargs, size=size, keep_ratio=keep_ratio, interp=interp), out)


def crop(data=None, x=None, y=None, width=None, height=None, out=None, name=None,
         **kwargs):  # noqa: ARG001
    """The ``width`` x ``height`` region of (H, W, C) / (N, H, W, C) image(s) at (x, y)."""
    return _op("image.crop", "_image_crop", [data],
               dict(kwargs, x=x, y=y, width=width, height=height), out)


def _simple(public, doc):
    def fn(data=None, out=None, name=None, **kwargs):  # noqa: ARG001
        return _op(f"image.{public}", f"_image_{public}", [data], kwargs, out)
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = doc
    return fn


flip_left_right = _simple("flip_left_right", "Mirror the image(s) along the width axis.")
flip_top_bottom = _simple("flip_top_bottom", "Mirror the image(s) along the height axis.")
random_flip_left_right = _simple("random_flip_left_right",
                                 "Mirror along the width axis with probability 0.5.")
random_flip_top_bottom = _simple("random_flip_top_bottom",
                                 "Mirror along the height axis with probability 0.5.")


def _factor(public, doc):
    def fn(data=None, min_factor=None, max_factor=None, out=None, name=None,
           **kwargs):  # noqa: ARG001
        return _op(f"image.{public}", f"_image_{public}", [data],
                   dict(kwargs, min_factor=min_factor, max_factor=max_factor), out)
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = doc
    return fn


random_brightness = _factor("random_brightness",
                            "Scale brightness by a factor drawn from [min_factor, max_factor].")
random_contrast = _factor("random_contrast",
                          "Scale contrast by a factor drawn from [min_factor, max_factor].")
random_saturation = _factor("random_saturation",
                            "Scale saturation by a factor drawn from [min_factor, max_factor].")
random_hue = _factor("random_hue",
                     "Shift hue by a factor drawn from [min_factor, max_factor].")


def random_color_jitter(data=None, brightness=None, contrast=None, saturation=None, hue=None,
                        out=None, name=None, **kwargs):  # noqa: ARG001
    """Random brightness, contrast, saturation and hue jitter of the given strengths."""
    return _op("image.random_color_jitter", "_image_random_color_jitter", [data],
               dict(kwargs, brightness=brightness, contrast=contrast, saturation=saturation,
                    hue=hue), out)


def adjust_lighting(data=None, alpha=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """AlexNet-style PCA lighting shift with the three weights ``alpha``."""
    return _op("image.adjust_lighting", "_image_adjust_lighting", [data],
               dict(kwargs, alpha=alpha), out)


def random_lighting(data=None, alpha_std=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """PCA lighting shift with weights drawn from N(0, alpha_std**2)."""
    return _op("image.random_lighting", "_image_random_lighting", [data],
               dict(kwargs, alpha_std=alpha_std), out)


def __getattr__(name):
    # the rest of 1.9.1's npx.image: mx.image's public names, imported when first asked for
    if not name.startswith("_"):
        from .. import image as _image
        if name in getattr(_image, "__all__", ()):
            return getattr(_image, name)
    raise AttributeError(f"module 'mxnet.numpy_extension.image' has no attribute '{name}'")


def __dir__():
    from .. import image as _image
    return sorted(set(globals()) | set(getattr(_image, "__all__", ())))
