"""Record gluon.data behaviour under 1.9.1: batch order, batchify, image kernels, RecordIO.

Run with the reference interpreter (never with this repository's mxnet), from the repo root::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_gluon_data.py

``tests/golden/gluon_data.npz`` holds

* ``json`` -- a JSON text with the index-level results: BatchSampler / DataLoader batches over
  three epochs for each ``last_batch`` mode, Dataset views (shard, take, filter, sample),
  batchify dtypes and shapes, resize output sizes with ``keep_ratio``;
* ``batchify/<case>/<i>`` -- the arrays default_batchify_fn made;
* ``img/u8``, ``img/f32``, ``img/odd`` -- the input images of the kernel cases;
* ``resize/<src>/<w>x<h>/<interp>`` -- ``nd.image.resize`` results;
* ``op/<name>`` -- other image operators (to_tensor, normalize, flips, fixed-factor colour
  changes, adjust_lighting), the Python-level crops (center_crop, fixed_crop) and
  ``image.imrotate`` (``op/rotate/<case>``);
* ``rec/bytes``, ``rec/idx`` -- a RecordIO file written by ``MXIndexedRecordIO`` (one record
  contains the magic number, so the writer splits it), ``rec/label<i>``, ``rec/img<i>`` and
  ``rec/gray<i>`` -- ImageRecordDataset samples (PNG payloads, decoded by OpenCV);
* ``jpeg/bytes`` and its OpenCV decodes ``jpeg/color``, ``jpeg/gray``, ``jpeg/bgr``.
"""
from __future__ import annotations

import json
import os
import struct
import tempfile
from pathlib import Path

import numpy as np
from png_encode import png_bytes  # (run from tools/golden: its folder is on sys.path)

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "tests" / "golden" / "gluon_data.npz"


def images():
    rs = np.random.RandomState(7)
    return {"u8": rs.randint(0, 256, (9, 13, 3)).astype(np.uint8),
            "f32": rs.uniform(-5, 260, (9, 13, 3)).astype(np.float32),
            "odd": rs.randint(0, 256, (17, 6, 1)).astype(np.uint8)}


RESIZE_CASES = [((5, 4), (0, 1, 2, 3, 4)), ((26, 18), (0, 1, 2, 3, 4)), ((6, 4), (1, 3)),
                ((20, 7), (1, 2)), ((13, 9), (1,)), ((1, 1), (1, 2))]
KEEP_RATIO_CASES = [((9, 13, 3), 4), ((13, 9, 3), 4), ((5, 8, 3), 3), ((8, 5, 3), 3), ((7, 7, 3), 5),
                    ((9, 13, 3), (4,))]
REC_IMAGES = 4
# a 24 x 16 JPEG (quality 90) made once with Pillow: the reference has no JPEG encoder
JPEG_B64 = (
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQ"
    "ERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU"
    "FBQUFBQUFBQUFBQUFBT/wAARCAAQABgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAA"
    "AgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6"
    "Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG"
    "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREA"
    "AgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5"
    "OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPE"
    "xcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD468OfCpiceVgLjkKQRz0z/jXpug/CokKG"
    "gLYGBgDoevX8K9+8OfCcuyjyecfKOmM/5/WvS/DvwqMvlYjUk9inLf5/rXz9DN13PleFePbqPvngfh34VBnUCHJUAEY6jPFF"
    "fY3h/wCE42LtiLZPIx0PfP8AntRXtwzVNaM/qjLOPX9XS5j/2Q=="
)


def main():
    import mxnet as mx
    from mxnet.gluon.data import ArrayDataset, BatchSampler, DataLoader, SequentialSampler, SimpleDataset
    from mxnet.gluon.data.dataloader import default_batchify_fn

    arrays, meta = {}, {}

    # -- batch order ----------------------------------------------------------------------------
    order = {}
    for mode in ("keep", "discard", "rollover"):
        bs = BatchSampler(SequentialSampler(10), 3, mode)
        order[f"sampler/{mode}"] = [[list(map(int, b)) for b in bs] for _ in range(3)]
        order[f"sampler_len/{mode}"] = len(bs)
        ds = ArrayDataset(np.arange(11, dtype=np.float32) * 10, np.arange(11))
        loader = DataLoader(ds, batch_size=4, last_batch=mode)
        epochs = []
        for _ in range(3):
            epochs.append([[b[0].asnumpy().tolist(), b[1].asnumpy().tolist()] for b in loader])
        order[f"loader/{mode}"] = epochs
        order[f"loader_len/{mode}"] = len(loader)
    np.random.seed(42)
    shuffled = DataLoader(SimpleDataset(list(range(10))), batch_size=4, shuffle=True)
    order["shuffle_seed42"] = [[b.asnumpy().tolist() for b in shuffled] for _ in range(2)]
    base = SimpleDataset(list(range(10)))
    order["shard"] = [list(base.shard(3, i)) for i in range(3)]
    order["shard_len"] = [len(base.shard(4, i)) for i in range(4)]
    order["take"] = [list(base.take(4)), list(base.take(None)), list(base.take(20))]
    order["filter"] = list(base.filter(lambda v: v % 3 == 0))
    order["sample"] = list(base.sample(SequentialSampler(3, 5)))
    order["transform_first"] = [list(t) for t in
                                ArrayDataset([1, -2, 3], [-4, 5, -6]).transform_first(abs)]
    meta["order"] = order

    # -- batchify ---------------------------------------------------------------------------------
    cases = {
        "ints": [1, 2, 3],
        "floats": [1.5, 2.5],
        "np_f32": [np.float32(1), np.float32(2)],
        "bools": [True, False, True],
        "nested": [(1, 2.0, np.arange(3, dtype=np.float32), (np.int32(4), [5, 6])),
                   (7, 8.0, np.arange(3, 6, dtype=np.float32), (np.int32(9), [10, 11]))],
        "ndarray": [(mx.nd.array([1, 2]), mx.nd.array([[3]], dtype="int32")),
                    (mx.nd.array([4, 5]), mx.nd.array([[6]], dtype="int32"))],
        "np_rows": [np.ones((2, 2), np.float64), np.zeros((2, 2), np.float64)],
    }
    described = {}

    def flatten(out, prefix):
        if isinstance(out, list):
            return [flatten(o, f"{prefix}/{i}") for i, o in enumerate(out)]
        arrays[prefix] = out.asnumpy()
        return [str(np.dtype(out.dtype)), list(out.shape)]

    for name, samples in cases.items():
        described[name] = flatten(default_batchify_fn(samples), f"batchify/{name}")
    meta["batchify"] = described

    # -- image operators ----------------------------------------------------------------------------
    imgs = images()
    for k, v in imgs.items():
        arrays[f"img/{k}"] = v
    for src in ("u8", "f32", "odd"):
        x = mx.nd.array(imgs[src], dtype=imgs[src].dtype)
        for size, interps in RESIZE_CASES:
            for interp in interps:
                out = mx.nd.image.resize(x, size=size, interp=interp).asnumpy()
                arrays[f"resize/{src}/{size[0]}x{size[1]}/{interp}"] = out
    keep = []
    for shape, size in KEEP_RATIO_CASES:
        y = mx.nd.image.resize(mx.nd.zeros(shape, dtype="uint8"), size=size, keep_ratio=True)
        keep.append([list(shape), size, list(y.shape)])
    meta["keep_ratio"] = keep

    u8 = mx.nd.array(imgs["u8"], dtype="uint8")
    f32 = mx.nd.array(imgs["f32"])
    ops = arrays
    ops["op/to_tensor_u8"] = mx.nd.image.to_tensor(u8).asnumpy()
    ops["op/to_tensor_batch"] = mx.nd.image.to_tensor(mx.nd.stack(u8, u8[::-1])).asnumpy()
    t = mx.nd.image.to_tensor(u8)
    ops["op/normalize3"] = mx.nd.image.normalize(t, mean=(0.485, 0.456, 0.406),
                                                 std=(0.229, 0.224, 0.225)).asnumpy()
    ops["op/normalize1"] = mx.nd.image.normalize(t, mean=(0.5,), std=(0.25,)).asnumpy()
    ops["op/normalize_batch"] = mx.nd.image.normalize(mx.nd.stack(t, t * 0.5), mean=(0.1, 0.2, 0.3),
                                                      std=(0.3, 0.2, 0.1)).asnumpy()
    ops["op/flip_lr"] = mx.nd.image.flip_left_right(u8).asnumpy()
    ops["op/flip_tb"] = mx.nd.image.flip_top_bottom(u8).asnumpy()
    for name in ("brightness", "contrast", "saturation", "hue"):
        fn = getattr(mx.nd.image, "random_" + name)
        for factor in (0.4, 1.6):
            ops[f"op/{name}/u8/{factor}"] = fn(u8, factor, factor).asnumpy()
            ops[f"op/{name}/f32/{factor}"] = fn(f32, factor, factor).asnumpy()
    ops["op/lighting/u8"] = mx.nd.image.adjust_lighting(u8, alpha=(0.1, -0.2, 0.3)).asnumpy()
    ops["op/lighting/f32"] = mx.nd.image.adjust_lighting(f32, alpha=(0.1, -0.2, 0.3)).asnumpy()
    for size in ((5, 4), (13, 9), (20, 12), (4, 12)):
        ops[f"op/center_crop/{size[0]}x{size[1]}"] = mx.image.center_crop(u8, size, 1)[0].asnumpy()
    ops["op/fixed_crop"] = mx.image.fixed_crop(u8, 2, 1, 7, 5, (10, 8), 1).asnumpy()
    ops["op/crop_resize"] = mx.nd.image.resize(mx.nd.image.crop(u8, 3, 2, 6, 5), size=(4, 3)).asnumpy()
    chw = mx.nd.image.to_tensor(u8)
    ops["op/rotate/30"] = mx.image.imrotate(chw, 30).asnumpy()
    ops["op/rotate/in"] = mx.image.imrotate(chw, -50, zoom_in=True).asnumpy()
    ops["op/rotate/out"] = mx.image.imrotate(chw, 75, zoom_out=True).asnumpy()
    ops["op/rotate/batch"] = mx.image.imrotate(mx.nd.stack(chw, chw * 0.5),
                                               mx.nd.array([10, -100])).asnumpy()

    # -- RecordIO ---------------------------------------------------------------------------------------
    rs = np.random.RandomState(3)
    with tempfile.TemporaryDirectory() as tmp:
        rec_path, idx_path = os.path.join(tmp, "d.rec"), os.path.join(tmp, "d.idx")
        writer = mx.recordio.MXIndexedRecordIO(idx_path, rec_path, "w")
        for i in range(REC_IMAGES):
            img = rs.randint(0, 256, (5 + i, 7, 3)).astype(np.uint8)
            label = float(i) if i != 2 else [1.5, 2.5, 3.5]
            header = mx.recordio.IRHeader(0, label, i, 0)
            writer.write_idx(i * 10, mx.recordio.pack(header, png_bytes(img)))
        # a raw record with the magic inside, at an aligned offset (split by the writer)
        magic = struct.pack("<I", 0xCED7230A)
        writer.write_idx(999, b"abcd" + magic + b"efgh" + magic + b"xy")
        writer.close()
        arrays["rec/bytes"] = np.frombuffer(open(rec_path, "rb").read(), np.uint8)
        meta["rec_idx"] = open(idx_path).read()
        ds = mx.gluon.data.vision.ImageRecordDataset(rec_path)
        gray = mx.gluon.data.vision.ImageRecordDataset(rec_path, flag=0)
        for i in range(REC_IMAGES):
            img, label = ds[i]
            arrays[f"rec/img{i}"] = img.asnumpy()
            arrays[f"rec/gray{i}"] = gray[i][0].asnumpy()
            arrays[f"rec/label{i}"] = np.asarray(label, np.float32)
        raw = mx.gluon.data.RecordFileDataset(rec_path)
        meta["rec_raw_last"] = list(raw[len(raw) - 1])
        meta["rec_len"] = len(raw)

    import base64
    jpeg = np.frombuffer(base64.b64decode(JPEG_B64), np.uint8)
    arrays["jpeg/bytes"] = jpeg
    arrays["jpeg/color"] = mx.image.imdecode(jpeg.tobytes()).asnumpy()
    arrays["jpeg/gray"] = mx.image.imdecode(jpeg.tobytes(), flag=0).asnumpy()
    arrays["jpeg/bgr"] = mx.image.imdecode(jpeg.tobytes(), to_rgb=0).asnumpy()

    arrays["json"] = np.array(json.dumps(meta))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(arrays)} arrays)")


if __name__ == "__main__":
    main()
