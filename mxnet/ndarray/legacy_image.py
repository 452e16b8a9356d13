"""``mx.nd.imdecode``: 1.9.1's deprecated one-call image decoder (``mx.image.imdecode`` is
the maintained one).

It decodes an encoded image into a channels-first float array, optionally clipped to a
rectangle and with a mean image subtracted, and can write into slot ``index`` of a batch.
As in 1.9.1 (which decodes with OpenCV and keeps OpenCV's layout) colour channels come in
BGR(A) order. Decoding uses Pillow (the ``image`` extra), imported only when called.

1.9.1's own version cannot run under Python 3 (the bytes are passed to the backend as a
C string, so the decoder never sees a whole file); this one follows what its C++ side
does with the buffer.
"""
from __future__ import annotations

import io

import numpy as np

from ..base import MXNetError

__all__ = ["imdecode"]


def _decode(data, channels):
    try:
        from PIL import Image
    except ImportError:
        raise MXNetError("imdecode needs Pillow (pip install 'mxnet-py[image]')") from None
    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except Exception as e:  # Pillow raises many types for bad data
        raise MXNetError(f"imdecode: cannot decode the image ({type(e).__name__}: {e})") \
            from None
    if channels == 1:
        return np.asarray(img.convert("L"))[:, :, None]
    if img.mode not in ("L", "RGB", "RGBA"):
        rgba = img.mode in ("LA", "PA") or "transparency" in img.info
        img = img.convert("RGBA" if rgba else "RGB")
    arr = np.asarray(img)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.shape[2] >= 3:   # OpenCV's order: BGR(A)
        arr = np.concatenate([arr[:, :, 2::-1], arr[:, :, 3:]], axis=2)
    return arr


def imdecode(str_img, clip_rect=(0, 0, 0, 0), out=None, index=0, channels=3, mean=None):
    """Decode an image into a float (channels, height, width) NDArray.

    ``str_img`` holds the encoded file (bytes). ``clip_rect`` = (x0, y0, x1, y1) keeps that
    rectangle (all zeros: the whole image). ``channels`` is 1 (gray) or the number of
    leading colour channels to keep (BGR order). ``mean``, an NDArray of the output's shape,
    is subtracted. With ``out`` (3-D, or 4-D with ``index`` picking the slot) the result is
    written there and ``out`` returned.
    """
    from . import NDArray, array

    if isinstance(str_img, str):
        str_img = str_img.encode("latin-1")
    if not isinstance(str_img, (bytes, bytearray, memoryview)):
        raise MXNetError(f"imdecode: str_img must be bytes; got {type(str_img).__name__}")
    if len(str_img) == 0:
        raise MXNetError("imdecode: str_img is empty")
    channels = int(channels)
    if channels < 1:
        raise MXNetError(f"imdecode: channels must be positive; got {channels}")
    img = _decode(bytes(str_img), channels)
    if channels > img.shape[2]:
        raise MXNetError(f"imdecode: the image has {img.shape[2]} channel(s), fewer than the "
                         f"{channels} asked for")
    x0, y0, x1, y1 = (int(v) for v in clip_rect)
    if y1 - y0 == 0:
        x0, y0, x1, y1 = 0, 0, img.shape[1], img.shape[0]
    if not (0 <= x0 <= x1 <= img.shape[1] and 0 <= y0 <= y1 <= img.shape[0]):
        raise MXNetError(f"imdecode: clip_rect {tuple(clip_rect)} does not fit an image of "
                         f"{img.shape[1]}x{img.shape[0]} (width x height)")
    res = img[y0:y1, x0:x1, :channels].transpose(2, 0, 1)
    shape = res.shape
    dtype = np.float32 if mean is None else np.dtype(mean.dtype)
    if mean is not None:
        if not isinstance(mean, NDArray) or tuple(mean.shape) != shape:
            raise MXNetError(f"imdecode: mean must be an NDArray of shape {shape}; got "
                             f"{getattr(mean, 'shape', type(mean).__name__)}")
        res = res.astype(dtype) - mean.asnumpy()
    res = res.astype(dtype)
    if out is None:
        return array(res, dtype=dtype)
    if out.ndim == 3:
        target = out
    elif out.ndim == 4:
        if not 0 <= int(index) < out.shape[0]:
            raise MXNetError(f"imdecode: index {index} is outside out's batch of "
                             f"{out.shape[0]}")
        target = out[int(index)]
    else:
        raise MXNetError(f"imdecode: out must be 3-D or 4-D; got shape {tuple(out.shape)}")
    if tuple(target.shape) != shape:
        raise MXNetError(f"imdecode: the decoded image has shape {shape} but out holds "
                         f"{tuple(target.shape)}")
    if mean is not None and np.dtype(out.dtype) != dtype:
        raise MXNetError(f"imdecode: mean has dtype {dtype}, out has {np.dtype(out.dtype)}")
    target[:] = res.astype(out.dtype)
    return out


# -- mx.nd._internal._cv*: the OpenCV-backed operators 1.9.1's mx.image calls -----------------------
def _image_module():
    from ..image import image  # mx.image sits above mx.nd: imported on use
    return image


def _cvimdecode(buf, flag=1, to_rgb=True, out=None, **kwargs):
    """Decode an encoded image (a uint8 NDArray of the file's bytes) to (H, W, C) uint8."""
    return _image_module().imdecode(buf, flag=flag, to_rgb=to_rgb, out=out)


def _cvimread(filename, flag=1, to_rgb=True, out=None, **kwargs):
    """Read and decode an image file to (H, W, C) uint8."""
    return _image_module().imread(filename, flag=flag, to_rgb=to_rgb, out=out)


def _cvimresize(src, w, h, interp=1, out=None, **kwargs):
    """Resize an (H, W, C) image to width ``w``, height ``h`` (OpenCV's interpolation codes)."""
    return _image_module().imresize(src, w, h, interp=interp, out=out)


def _cvcopyMakeBorder(src, top, bot, left, right, type=0, value=0.0, values=(),  # noqa: N802
                      out=None, **kwargs):
    """Pad an (H, W, C) image (OpenCV's border types)."""
    return _image_module().copyMakeBorder(src, top, bot, left, right, type=type, value=value,
                                          values=values, out=out)
