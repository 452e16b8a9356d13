"""Image records for the tests: PNG / JPEG payloads, written with mx.recordio."""
from __future__ import annotations

import io

import numpy as np

from .._scripts import load_script

_PNG = load_script("tools/golden/png_encode.py")


def png(img):
    """A PNG of ``img`` (HxWx3 RGB or HxW grey, uint8), by the golden generators' encoder, so
    building records needs no Pillow; decoding them still does."""
    return _PNG.png_bytes(img)


def jpeg(img, quality=90):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(np.asarray(img, np.uint8)).save(buf, format="JPEG", quality=quality)
    return buf.getvalue()


def pack(label, payload, image_id=0):
    """An image record: IRHeader (a scalar label, or an array label in front) and payload."""
    import mxnet as mx
    label = np.atleast_1d(np.asarray(label, np.float32))
    lab = float(label[0]) if label.size == 1 else label
    return mx.recordio.pack(mx.recordio.IRHeader(0, lab, image_id, 0), payload)


def write_rec(path, records, idx_path=None):
    """Write ``records`` (bytes) with mx.recordio; with ``idx_path`` keyed 0, 1, ..."""
    import mxnet as mx
    if idx_path is None:
        w = mx.recordio.MXRecordIO(str(path), "w")
        for rec in records:
            w.write(rec)
    else:
        w = mx.recordio.MXIndexedRecordIO(str(idx_path), str(path), "w")
        for i, rec in enumerate(records):
            w.write_idx(i, rec)
    w.close()
