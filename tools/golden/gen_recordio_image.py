"""Record 1.9.1's RecordIO files, mx.image results, augmenters, ImageIter batches and its reading
of im2rec output, for tests/test_recordio.py, tests/test_image.py and tests/test_im2rec.py.

Run with the reference interpreter from the repository root::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_recordio_image.py

The reference has neither Pillow nor the cv2 module, so

* PNG files are written by the small encoder below;
* ``sample.jpg`` (a JPEG made by Pillow) is created by running ``python3`` (any interpreter
  with Pillow, named by ``$PILLOW_PYTHON``) when it is missing;
* im2rec is this repository's (``python3 -m mxnet.tools.im2rec``): what is recorded is how
  1.9.1 reads its output.

Everything goes to ``tests/golden/recordio/``:

* ``raw.rec`` / ``raw.idx`` -- byte records, several with the magic number inside (split);
* ``images.rec`` / ``images.idx`` -- image records packed by 1.9.1's ``recordio.pack``: seven
  PNGs with scalar labels, a JPEG, a PNG with a three-value label;
* ``sample.jpg``;
* ``golden.npz`` -- arrays (sources, decoded images, function, augmenter and batch outputs);
* ``golden.json`` -- everything else (raw payloads in hex, headers, dumps, crop boxes, ...).
"""
from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from png_encode import png_bytes  # (run from tools/golden: its folder is on sys.path)

import mxnet as mx

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "golden" / "recordio"
MAGIC = struct.pack("<I", 0xCED7230A)

RAW_RECORDS = [b"", b"a", b"abcd", b"ab" + MAGIC + b"xy", MAGIC, b"xxxx" + MAGIC + b"yyyy" + MAGIC,
               MAGIC + MAGIC + b"z", b"12345678" + MAGIC + b"abc" + MAGIC, b"tail" * 5 + b"!"]

SIZES = [(10, 12), (12, 9), (9, 9), (11, 14), (8, 10), (13, 11), (10, 10)]


def source_images():
    """The uint8 RGB images the records and im2rec folders hold (noise over a gradient)."""
    rs = np.random.RandomState(11)
    out = []
    for h, w in SIZES:
        yy, xx = np.mgrid[0:h, 0:w]
        base = np.stack([xx * 200 // w, yy * 200 // h, (xx + yy) * 100 // (h + w)], axis=2)
        out.append(np.clip(base + rs.randint(0, 56, (h, w, 3)), 0, 255).astype(np.uint8))
    return out


def labels_for(i):
    return float(i % 3)


def make_jpeg(path):
    python = os.environ.get("PILLOW_PYTHON", "python3")
    code = ("import numpy as np, sys; from PIL import Image\n"
            "yy, xx = np.mgrid[0:16, 0:20]\n"
            "img = np.stack([xx * 12, yy * 15, 255 - xx * 6 - yy * 5], 2).astype(np.uint8)\n"
            "Image.fromarray(img).save(sys.argv[1], 'JPEG', quality=90)\n")
    subprocess.run([python, "-c", code, str(path)], check=True)


def write_records(meta, arrays):
    w = mx.recordio.MXIndexedRecordIO(str(OUT / "raw.idx"), str(OUT / "raw.rec"), "w")
    tells = []
    for i, r in enumerate(RAW_RECORDS):
        tells.append(w.tell())
        w.write_idx(i, r)
    w.close()
    meta["raw"] = {"records": [r.hex() for r in RAW_RECORDS], "tells": tells}

    imgs = source_images()
    jpeg = (OUT / "sample.jpg").read_bytes()
    w = mx.recordio.MXIndexedRecordIO(str(OUT / "images.idx"), str(OUT / "images.rec"), "w")
    headers = []
    for i, img in enumerate(imgs):
        header = mx.recordio.IRHeader(0, labels_for(i), i, 0)
        w.write_idx(i, mx.recordio.pack(header, png_bytes(img)))
        arrays[f"src/{i}"] = img
    w.write_idx(len(imgs), mx.recordio.pack(mx.recordio.IRHeader(0, 7.0, 99, 5), jpeg))
    w.write_idx(len(imgs) + 1, mx.recordio.pack(mx.recordio.IRHeader(0, [1.5, 2.5, 3.5], 8, 0),
                                                png_bytes(imgs[0])))
    w.close()
    r = mx.recordio.MXIndexedRecordIO(str(OUT / "images.idx"), str(OUT / "images.rec"), "r")
    for key in r.keys:
        h, payload = mx.recordio.unpack(r.read_idx(key))
        label = h.label.tolist() if isinstance(h.label, np.ndarray) else h.label
        headers.append([h.flag, label, h.id, h.id2, len(payload)])
        arrays[f"rec/decoded/{key}"] = mx.image.imdecode(payload).asnumpy()
    meta["images"] = {"headers": headers, "keys": r.keys}
    r.close()
    # pack() on its own, with the label forms it accepts
    packs = {"scalar": mx.recordio.pack((0, 3.5, 17, 2), b"payload"),
             "list": mx.recordio.pack((9, [1, 2.5, -3], 18, 0), b"xyz"),
             "array": mx.recordio.pack(mx.recordio.IRHeader(0, np.arange(4, dtype="float64"), 1, 1),
                                       b""),
             "flagged": mx.recordio.pack((5, 2.0, 3, 4), b"abc")}
    meta["pack"] = {k: v.hex() for k, v in packs.items()}


def image_functions(arrays, meta):
    jpeg = (OUT / "sample.jpg").read_bytes()
    gray = source_images()[1][:, :, 0]
    png = png_bytes(source_images()[0])
    arrays["dec/png/rgb"] = mx.image.imdecode(png).asnumpy()
    arrays["dec/png/bgr"] = mx.image.imdecode(png, to_rgb=False).asnumpy()
    arrays["dec/png/gray"] = mx.image.imdecode(png, flag=0).asnumpy()
    arrays["dec/graypng/color"] = mx.image.imdecode(png_bytes(gray)).asnumpy()
    arrays["dec/graypng/gray"] = mx.image.imdecode(png_bytes(gray), 0).asnumpy()
    arrays["dec/jpg/rgb"] = mx.image.imdecode(jpeg).asnumpy()
    arrays["dec/jpg/gray"] = mx.image.imdecode(jpeg, 0).asnumpy()
    arrays["dec/jpg/bgr"] = mx.image.imdecode(jpeg, 1, False).asnumpy()
    arrays["dec/jpg/imread"] = mx.image.imread(str(OUT / "sample.jpg")).asnumpy()

    rs = np.random.RandomState(3)
    u8 = rs.randint(0, 256, (9, 11, 3)).astype(np.uint8)
    f32 = rs.uniform(0, 255, (9, 11, 3)).astype(np.float32)
    arrays["fn/u8"], arrays["fn/f32"] = u8, f32
    x, xf = mx.nd.array(u8, dtype="uint8"), mx.nd.array(f32)
    for (w, h) in [(5, 4), (15, 13), (11, 5)]:
        for interp in range(5):
            arrays[f"fn/imresize/{w}x{h}/{interp}"] = mx.image.imresize(x, w, h, interp=interp).asnumpy()
        for interp in (1, 2):
            arrays[f"fn/imresize_f32/{w}x{h}/{interp}"] = \
                mx.image.imresize(xf, w, h, interp=interp).asnumpy()
    for interp in (1, 2, 9):
        arrays[f"fn/resize_short/6/{interp}"] = mx.image.resize_short(x, 6, interp).asnumpy()
        arrays[f"fn/resize_short/14/{interp}"] = mx.image.resize_short(x, 14, interp).asnumpy()
    arrays["fn/fixed_crop/plain"] = mx.image.fixed_crop(x, 1, 2, 5, 4).asnumpy()
    arrays["fn/fixed_crop/sized"] = mx.image.fixed_crop(x, 1, 2, 5, 4, size=(8, 6), interp=1).asnumpy()
    boxes = {}
    for name, size in [("small", (6, 5)), ("big", (20, 10)), ("tall", (4, 12))]:
        out, box = mx.image.center_crop(x, size)
        arrays[f"fn/center_crop/{name}"], boxes[f"center_crop/{name}"] = out.asnumpy(), box
    for seed in (5, 6):
        random.seed(seed)
        out, box = mx.image.random_crop(x, (6, 5))
        arrays[f"fn/random_crop/{seed}"], boxes[f"random_crop/{seed}"] = out.asnumpy(), box
        random.seed(seed)
        out, box = mx.image.random_size_crop(x, (7, 7), 0.3, (0.75, 1.333))
        arrays[f"fn/random_size_crop/{seed}"], boxes[f"random_size_crop/{seed}"] = out.asnumpy(), box
        random.seed(seed)
        out, box = mx.image.random_size_crop(x, (5, 6), (0.1, 0.5), (0.5, 2.0), interp=1)
        arrays[f"fn/random_size_crop2/{seed}"], boxes[f"random_size_crop2/{seed}"] = out.asnumpy(), box
    random.seed(1)
    out, box = mx.image.random_size_crop(x, (5, 5), (2.0, 3.0), (1.0, 1.0))  # never fits
    arrays["fn/random_size_crop/fallback"], boxes["random_size_crop/fallback"] = out.asnumpy(), box
    meta["boxes"] = {k: list(v) for k, v in boxes.items()}
    arrays["fn/color_normalize"] = mx.image.color_normalize(
        mx.nd.array(f32), mx.nd.array([100.0, 110.0, 120.0]), mx.nd.array([50.0, 60.0, 70.0])).asnumpy()
    meta["scale_down"] = [[list(a), list(b), list(mx.image.scale_down(a, b))] for a, b in
                          [((10, 8), (12, 6)), ((10, 8), (4, 4)), ((5, 20), (8, 10)), ((7, 7), (9, 3))]]
    small = mx.nd.array(u8[:3, :4], dtype="uint8")
    for t in range(5):
        arrays[f"fn/border/{t}"] = mx.image.copyMakeBorder(x, 1, 2, 3, 4, type=t).asnumpy()
        arrays[f"fn/border_big/{t}"] = mx.image.copyMakeBorder(small, 5, 4, 9, 10, type=t).asnumpy()
    arrays["fn/border/value"] = mx.image.copyMakeBorder(x, 2, 1, 1, 2, value=7.6).asnumpy()
    arrays["fn/border/values3"] = mx.image.copyMakeBorder(x, 2, 1, 1, 2, values=(1, 2, 300)).asnumpy()
    arrays["fn/border/f32"] = mx.image.copyMakeBorder(xf, 1, 1, 2, 2, type=0, value=-3.5).asnumpy()


def augmenters(arrays, meta):
    rs = np.random.RandomState(4)
    u8 = mx.nd.array(rs.randint(0, 256, (10, 12, 3)), dtype="uint8")
    f32 = mx.nd.array(rs.uniform(0, 255, (10, 12, 3)).astype(np.float32))
    arrays["aug/u8"], arrays["aug/f32"] = u8.asnumpy(), f32.asnumpy()
    eigval = np.array([55.46, 4.794, 1.148])
    eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                       [-0.5836, -0.6948, 0.4203]])
    img = mx.image
    cases = {
        "resize": (img.ResizeAug(7), "u8"),
        "resize_interp1": (img.ResizeAug(15, 1), "u8"),
        "force_resize": (img.ForceResizeAug((5, 9)), "u8"),
        "force_resize9": (img.ForceResizeAug((20, 14), 9), "u8"),
        "random_crop": (img.RandomCropAug((6, 6)), "u8"),
        "random_sized_crop": (img.RandomSizedCropAug((8, 8), 0.3, (0.75, 1.33)), "u8"),
        "center_crop": (img.CenterCropAug((7, 5)), "u8"),
        "brightness": (img.BrightnessJitterAug(0.4), "f32"),
        "contrast": (img.ContrastJitterAug(0.4), "f32"),
        "saturation": (img.SaturationJitterAug(0.4), "f32"),
        "hue": (img.HueJitterAug(0.4), "f32"),
        "color_jitter": (img.ColorJitterAug(0.3, 0.3, 0.3), "f32"),
        "lighting": (img.LightingAug(0.5, eigval, eigvec), "f32"),
        "normalize": (img.ColorNormalizeAug(mx.nd.array([1.0, 2.0, 3.0]), np.array([2.0, 3.0, 4.0])),
                      "f32"),
        "gray": (img.RandomGrayAug(1.0), "f32"),
        "nogray": (img.RandomGrayAug(0.0), "f32"),
        "flip": (img.HorizontalFlipAug(1.0), "u8"),
        "cast": (img.CastAug(), "u8"),
        "cast_f64": (img.CastAug("float64"), "u8"),
        "order": (img.RandomOrderAug([img.BrightnessJitterAug(0.2), img.CastAug("float32"),
                                      img.SaturationJitterAug(0.2)]), "f32"),
    }
    dumps = {}
    for name, (aug, src) in cases.items():
        random.seed(8)
        np.random.seed(8)
        source = u8 if src == "u8" else f32
        arrays[f"aug/out/{name}"] = aug(source.copy()).asnumpy()
        dumps[name] = aug.dumps()
    created = {
        "plain": dict(data_shape=(3, 8, 8)),
        "full": dict(data_shape=(3, 6, 7), resize=9, rand_crop=True, rand_resize=True,
                     rand_mirror=True, mean=True, std=True, brightness=0.2, contrast=0.2,
                     saturation=0.2, hue=0.1, pca_noise=0.1, rand_gray=0.5, inter_method=1),
        "crop": dict(data_shape=(3, 5, 6), rand_crop=True, mean=np.array([10.0, 20.0, 30.0]),
                     std=mx.nd.array([2.0])),
    }
    for name, kw in created.items():
        augs = img.CreateAugmenter(**kw)
        dumps[f"create/{name}"] = [a.dumps() for a in augs]
        random.seed(21)
        np.random.seed(21)
        x = u8
        for a in augs:
            x = a(x)
        arrays[f"aug/create/{name}"] = x.asnumpy()
    meta["dumps"] = dumps


ITER_CASES = {
    "idx_pad": dict(batch_size=3, data_shape=(3, 8, 8), rec=True, idx=True),
    "idx_discard": dict(batch_size=3, data_shape=(3, 8, 8), rec=True, idx=True,
                        last_batch_handle="discard"),
    "idx_roll": dict(batch_size=3, data_shape=(3, 8, 8), rec=True, idx=True,
                     last_batch_handle="roll_over"),
    "seq_pad": dict(batch_size=4, data_shape=(3, 7, 7), rec=True, idx=False),
    "seq_roll": dict(batch_size=4, data_shape=(3, 7, 7), rec=True, idx=False,
                     last_batch_handle="roll_over"),
    "shuffle_aug": dict(batch_size=3, data_shape=(3, 6, 6), rec=True, idx=True, shuffle=True,
                        rand_crop=True, rand_mirror=True),
    "resize_norm": dict(batch_size=2, data_shape=(3, 8, 8), rec=True, idx=True, resize=10,
                        mean=True, std=True, label_width=2),
    "parts": dict(batch_size=2, data_shape=(3, 8, 8), rec=True, idx=True, num_parts=2,
                  part_index=1),
    "list_file": dict(batch_size=3, data_shape=(3, 8, 8), lst=True, label_width=2),
    "list_rec": dict(batch_size=3, data_shape=(3, 8, 8), rec=True, idx=True, lst=True,
                     label_width=2),
    "imglist": dict(batch_size=3, data_shape=(3, 8, 8), imglist=True),
}
N_PNG = len(SIZES)
LST_TEXT = "".join(f"{i}\t{i * 2}.000000\t{i + 0.25}\timg{i}.png\n" for i in range(N_PNG))


def iterator_args(case, folder):
    kw = dict(ITER_CASES[case])
    rec, idx, lst, imglist = (kw.pop(k, False) for k in ("rec", "idx", "lst", "imglist"))
    if rec:
        kw["path_imgrec"] = str(folder / "images.rec")
    if idx:
        kw["path_imgidx"] = str(folder / "png.idx")
    if lst:
        kw["path_imglist"] = str(folder / "list.lst")
        kw["path_root"] = str(folder)
    if imglist:
        kw["imglist"] = [[float(i), f"img{i}.png"] for i in range(N_PNG)]
        kw["path_root"] = str(folder)
    return kw


def prepare_iter_folder(folder):
    """images.rec cut after the scalar-label PNG records, its index, the PNG files, a list."""
    folder = Path(folder)
    lines = (OUT / "images.idx").read_text().splitlines()
    end = int(lines[N_PNG].split("\t")[1])
    (folder / "images.rec").write_bytes((OUT / "images.rec").read_bytes()[:end])
    lines = lines[:N_PNG]
    (folder / "png.idx").write_text("".join(line + "\n" for line in lines))
    for i, img in enumerate(source_images()):
        (folder / f"img{i}.png").write_bytes(png_bytes(img))
    (folder / "list.lst").write_text(LST_TEXT)


def iterators(arrays, meta):
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        prepare_iter_folder(tmp)
        for case in ITER_CASES:
            random.seed(13)
            np.random.seed(13)
            it = mx.image.ImageIter(**iterator_args(case, Path(tmp)))
            pads = []
            for epoch in range(3):
                n = 0
                for batch in it:
                    arrays[f"iter/{case}/{epoch}/{n}/data"] = batch.data[0].asnumpy()
                    arrays[f"iter/{case}/{epoch}/{n}/label"] = batch.label[0].asnumpy()
                    pads.append([epoch, n, batch.pad])
                    n += 1
                it.reset()
            out[case] = {"pads": pads, "provide_data": it.provide_data,
                         "provide_label": it.provide_label}
    meta["iter"] = out


IM2REC_CASES = {
    "jpg": ["--no-shuffle"],
    "png_resize": ["--no-shuffle", "--encoding", ".png", "--resize", "6", "--center-crop"],
    "pass": ["--no-shuffle", "--pass-through"],
    "gray": ["--no-shuffle", "--encoding", ".png", "--color", "0"],
    "quality": ["--no-shuffle", "--quality", "40", "--num-thread", "2"],
}


def im2rec_folder(folder):
    """Two class folders of PNGs (images 0-3 in 'cats', 4-6 in 'dogs') and a stray text file."""
    folder = Path(folder)
    for i, img in enumerate(source_images()):
        sub = folder / ("cats" if i < 4 else "dogs")
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"im{i}.png").write_bytes(png_bytes(img))
    (folder / "cats" / "notes.txt").write_text("not an image")


def run_im2rec(args):
    python = os.environ.get("PILLOW_PYTHON", "python3")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("MXNET_ENGINE_TYPE", None)
    subprocess.run([python, "-m", "mxnet.tools.im2rec", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def im2rec(arrays, meta):
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        im2rec_folder(tmp / "imgs")
        run_im2rec(["--list", "--recursive", str(tmp / "data"), str(tmp / "imgs")])
        out["list"] = (tmp / "data.lst").read_text()
        for case, extra in IM2REC_CASES.items():
            work = tmp / case
            work.mkdir()
            (work / "data.lst").write_text(out["list"])
            run_im2rec([*extra, str(work / "data"), str(tmp / "imgs")])
            r = mx.recordio.MXIndexedRecordIO(str(work / "data.idx"), str(work / "data.rec"), "r")
            headers = []
            for key in r.keys:
                h, payload = mx.recordio.unpack(r.read_idx(key))
                headers.append([h.flag, float(h.label), h.id, h.id2])
                arrays[f"im2rec/{case}/{key}"] = mx.image.imdecode(payload).asnumpy()
            out[case] = {"keys": r.keys, "headers": headers,
                         "idx": (work / "data.idx").read_text()}
            r.close()
            it = mx.image.ImageIter(2, (3, 5, 5), path_imgrec=str(work / "data.rec"),
                                    path_imgidx=str(work / "data.idx"))
            batch = it.next()
            arrays[f"im2rec/{case}/iter_data"] = batch.data[0].asnumpy()
            arrays[f"im2rec/{case}/iter_label"] = batch.label[0].asnumpy()
        # multi-label lists with --pack-label
        work = tmp / "multi"
        work.mkdir()
        (work / "data.lst").write_text("".join(
            f"{i}\t{i}.000000\t{i * 0.5:f}\t{-i:f}\t{'cats' if i < 4 else 'dogs'}/im{i}.png\n"
            for i in range(N_PNG)))
        run_im2rec(["--pack-label", "--encoding", ".png", str(work / "data"), str(tmp / "imgs")])
        r = mx.recordio.MXIndexedRecordIO(str(work / "data.idx"), str(work / "data.rec"), "r")
        out["multi"] = {"headers": [], "list": (work / "data.lst").read_text()}
        for key in r.keys:
            h, payload = mx.recordio.unpack(r.read_idx(key))
            out["multi"]["headers"].append([h.flag, h.label.tolist(), h.id, h.id2])
        r.close()
    meta["im2rec"] = out


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    if not (OUT / "sample.jpg").exists():
        make_jpeg(OUT / "sample.jpg")
    arrays, meta = {}, {}
    write_records(meta, arrays)
    image_functions(arrays, meta)
    augmenters(arrays, meta)
    iterators(arrays, meta)
    im2rec(arrays, meta)
    np.savez_compressed(OUT / "golden.npz", **arrays)
    (OUT / "golden.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print("wrote", OUT, sum(f.stat().st_size for f in OUT.iterdir()), "bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
