"""Record 1.9.1's object-detection pipeline for tests/test_image_det.py: ImageDetIter batches
(with CreateDetAugmenter settings and augmenter lists that draw nothing random), the detection
augmenters' dumps, ImageDetRecordIter batches, and the errors both raise.

Run with the reference interpreter, from outside the repository::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /path/to/repo/.ref/bin/python \
        /path/to/repo/tools/golden/gen_det_iter.py

The dataset is tiny and synthetic: six noisy gradient images (PNG, written by the encoder
below, as the reference has neither Pillow nor cv2) with 1 to 3 boxes each, one of them
inverted (ImageDetIter drops it). Output, in ``tests/golden/det/``:

* ``det.rec`` / ``det.idx`` -- the images packed by 1.9.1's ``recordio.pack`` with raw
  detection labels ``[2, 6, (cls, xmin, ymin, xmax, ymax, difficult) * n]``;
* ``edge.rec`` -- three records with odd labels (``EDGE_LABELS``);
* ``golden.npz`` -- the batches (``<iter>/<case>/<epoch>/<batch>/data|label``);
* ``golden.json`` -- shapes, pads, indices, dumps and error messages.

The tests rebuild the PNG files and the ``.lst`` list (labels ``[4, 6, w, h, objects]``) with
:func:`prepare_folder`; the case tables below are shared with them.
"""
from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path

import numpy as np
from png_encode import png_bytes as _png_bytes  # (run from tools/golden: its folder is on sys.path)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "golden" / "det"

SIZES = [(20, 26), (24, 22), (18, 30), (26, 26), (22, 17), (16, 24)]
# per image: (class, xmin, ymin, xmax, ymax) boxes, normalised; image 3's second box is inverted
BOXES = [
    [(0, 0.10, 0.15, 0.55, 0.60), (1, 0.40, 0.30, 0.95, 0.90)],
    [(2, 0.05, 0.05, 0.45, 0.50)],
    [(1, 0.20, 0.10, 0.70, 0.40), (0, 0.00, 0.50, 0.30, 1.00), (3, 0.60, 0.55, 0.90, 0.85)],
    [(0, 0.25, 0.25, 0.75, 0.75), (2, 0.80, 0.10, 0.20, 0.40)],
    [(3, 0.30, 0.20, 0.95, 0.70)],
    [(1, 0.05, 0.30, 0.35, 0.80), (1, 0.50, 0.05, 0.90, 0.45)],
]


# edge.rec (ImageDetRecordIter only): a zero-width box, a zero-height box, a negative class, a
# box reaching outside the image; a label whose only box is inverted; a header of width 3
EDGE_LABELS = [
    [2, 6, 0, 0.1, 0.1, 0.1, 0.5, 0, 1, 0.1, 0.1, 0.5, 0.1, 0, -1, 0.1, 0.1, 0.5, 0.5, 0,
     2, -0.2, 0.1, 1.3, 0.5, 0],
    [2, 5, 0, 0.5, 0.1, 0.4, 0.5],
    [3, 5, 9, 0, 0.1, 0.1, 0.5, 0.5],
]


def png_bytes(img):
    """PNG bytes of a uint8 (H, W, 3) array, deflated at level 9 (the recorded files' bytes)."""
    return _png_bytes(img, 9)


def images():
    """The uint8 RGB source images: a colour ramp with noise on top."""
    rs = np.random.RandomState(5)
    out = []
    for h, w in SIZES:
        yy, xx = np.mgrid[0:h, 0:w]
        ramp = np.stack([xx * 180 // w, yy * 180 // h, 200 - (xx + yy) * 150 // (h + w)], axis=2)
        out.append(np.clip(ramp + rs.randint(0, 70, (h, w, 3)), 0, 255).astype(np.uint8))
    return out


def rec_label(i):
    """The raw label of record ``i``: header [2, 6], then (cls, box, difficult=i % 2) rows."""
    vals = [2.0, 6.0]
    for box in BOXES[i]:
        vals += list(box) + [float(i % 2)]
    return np.array(vals, np.float32)


def lst_label(i):
    """The raw label of image ``i`` in the list file: header [4, 6, width, height]."""
    h, w = SIZES[i]
    return np.concatenate([[4.0, 6.0, w, h], rec_label(i)[2:]]).astype(np.float32)


def lst_text():
    lines = []
    for i in range(len(SIZES)):
        vals = "\t".join(repr(float(v)) for v in lst_label(i))
        lines.append(f"{i}\t{vals}\timg{i}.png\n")
    return "".join(lines)


def prepare_folder(folder, with_records=True):
    """The PNG files, det.lst and (copied from the golden folder) det.rec / det.idx."""
    folder = Path(folder)
    for i, img in enumerate(images()):
        (folder / f"img{i}.png").write_bytes(png_bytes(img))
    (folder / "det.lst").write_text(lst_text())
    if with_records:
        for name in ("det.rec", "det.idx", "edge.rec"):
            shutil.copy(OUT / name, folder / name)


# -- ImageDetIter cases: (constructor arguments, epochs) ------------------------------------------
def _fixed_aug_list(mx):
    """Every kind of detection augmenter, with settings that draw nothing that matters."""
    img = mx.image
    return [img.DetBorrowAug(img.ResizeAug(14, 1)),
            img.DetHorizontalFlipAug(1.0),
            img.DetRandomSelectAug([img.DetRandomCropAug()], skip_prob=1),
            img.DetRandomSelectAug([img.DetRandomPadAug()], skip_prob=1),
            img.DetBorrowAug(img.ForceResizeAug((12, 10), 2)),
            img.DetBorrowAug(img.CastAug()),
            img.DetBorrowAug(img.ColorNormalizeAug(mx.nd.array([120.0, 110.0, 100.0]),
                                                   mx.nd.array([60.0, 55.0, 50.0])))]


DET_ITER_CASES = {
    "rec_idx": dict(batch_size=2, data_shape=(3, 12, 12), path_imgrec="det.rec",
                    path_imgidx="det.idx"),
    "rec_seq_roll": dict(batch_size=4, data_shape=(3, 10, 14), path_imgrec="det.rec", resize=16,
                         inter_method=1, mean=True, std=True, last_batch_handle="roll_over"),
    "lst_fixed_augs": dict(batch_size=2, data_shape=(3, 10, 12), path_imglist="det.lst",
                           path_root=".", aug_list="fixed", last_batch_handle="discard",
                           data_name="img", label_name="boxes"),
    "imglist_pad": dict(batch_size=4, data_shape=(3, 12, 10), imglist="first4", path_root=".",
                        rand_crop=0, rand_pad=0, rand_mirror=False, inter_method=3),
}
DET_ITER_EPOCHS = 2


def det_iter_args(case, folder, mx):
    """The keyword arguments of ``case`` with paths inside ``folder``."""
    folder = Path(folder)
    args = dict(DET_ITER_CASES[case])
    for key in ("path_imgrec", "path_imgidx", "path_imglist", "path_root"):
        if key in args:
            args[key] = str(folder / args[key])
    if args.get("aug_list") == "fixed":
        args["aug_list"] = _fixed_aug_list(mx)
    if args.get("imglist") == "first4":
        args["imglist"] = [[rec_label(i), f"img{i}.png"] for i in range(4) if i != 2]
    return args


# -- ImageDetRecordIter cases -------------------------------------------------------------------------
REC_ITER_CASES = {
    "default": dict(batch_size=2, data_shape=(3, 12, 12)),
    "mirror_norm": dict(batch_size=4, data_shape=(3, 10, 14), rand_mirror_prob=1.0, resize=14,
                        inter_method=2, mean_r=120, mean_g=110, mean_b=100, std_r=60, std_g=55,
                        std_b=50, scale=0.5, label_pad_width=30, label_pad_value=-2,
                        round_batch=False),
    "fit_lst": dict(batch_size=2, data_shape=(3, 14, 18), resize_mode="fit",
                    path_imglist="det.lst", inter_method=3),
    "shrink": dict(batch_size=4, data_shape=(3, 22, 24), resize_mode="shrink", inter_method=0,
                   label_width=-1),
    "fit_up": dict(batch_size=3, data_shape=(3, 33, 40), resize_mode="fit", resize=12),
    "edge": dict(batch_size=2, data_shape=(3, 6, 8), rand_mirror_prob=1.0, path_imgrec="edge.rec"),
}
REC_ITER_EPOCHS = 2


def rec_iter_args(case, folder):
    folder = Path(folder)
    args = dict(REC_ITER_CASES[case], verbose=False)
    args["path_imgrec"] = str(folder / args.get("path_imgrec", "det.rec"))
    if "path_imglist" in args:
        args["path_imglist"] = str(folder / args["path_imglist"])
    return args


def dump_configs(mx):
    """Augmenter lists whose dumps are compared."""
    img = mx.image
    return {
        "create_default": img.CreateDetAugmenter((3, 20, 30)),
        "create_all": img.CreateDetAugmenter((3, 20, 30), resize=24, rand_crop=0.5, rand_pad=0.3,
                                             rand_gray=0.1, rand_mirror=True, mean=True, std=True,
                                             brightness=0.1, contrast=0.1, saturation=0.1,
                                             pca_noise=0.05, hue=0.1, inter_method=1,
                                             min_object_covered=[0.1, 0.5, 0.9],
                                             area_range=(0.3, 2.0), max_attempts=20,
                                             pad_val=(1, 2, 3)),
        "multi_crop": [img.CreateMultiRandCropAugmenter(
            min_object_covered=[0.3, 0.7], aspect_ratio_range=0.5,
            area_range=[(0.1, 1.0), (0.2, 0.8)], min_eject_coverage=0.4, max_attempts=7,
            skip_prob=0.2)],
        "single": [img.DetHorizontalFlipAug(0.3), img.DetRandomCropAug(0.2, 2.0, 0.5),
                   img.DetRandomPadAug(1.5, 2.5, 9, 7)],
    }


def _dumps(augs):
    return json.loads(json.dumps([a.dumps() for a in augs]))


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recorded
        return [type(e).__name__, str(e).strip().splitlines()[-1]]
    return None


def main():
    import mxnet as mx

    OUT.mkdir(parents=True, exist_ok=True)
    arrays, meta = {}, {"det_iter": {}, "rec_iter": {}, "errors": {}}
    rec = mx.recordio.MXIndexedRecordIO(str(OUT / "det.idx"), str(OUT / "det.rec"), "w")
    for i, img in enumerate(images()):
        header = mx.recordio.IRHeader(0, rec_label(i), i, 0)
        rec.write_idx(i, mx.recordio.pack(header, png_bytes(img)))
    rec.close()
    rec = mx.recordio.MXRecordIO(str(OUT / "edge.rec"), "w")
    small = images()[4][:6, :8]
    for i, label in enumerate(EDGE_LABELS):
        header = mx.recordio.IRHeader(0, np.array(label, np.float32), i, 0)
        rec.write(mx.recordio.pack(header, png_bytes(small)))
    rec.close()

    with tempfile.TemporaryDirectory() as tmp:
        prepare_folder(tmp)
        for case in DET_ITER_CASES:
            random.seed(7)
            np.random.seed(7)
            it = mx.image.ImageDetIter(**det_iter_args(case, tmp, mx))
            info = {"provide_data": [[d[0], list(d[1])] for d in it.provide_data],
                    "provide_label": [[d[0], list(d[1])] for d in it.provide_label],
                    "label_shape": list(it.label_shape), "pads": []}
            for epoch in range(DET_ITER_EPOCHS):
                for n, batch in enumerate(it):
                    key = f"det/{case}/{epoch}/{n}"
                    arrays[key + "/data"] = batch.data[0].asnumpy()
                    arrays[key + "/label"] = batch.label[0].asnumpy()
                    info["pads"].append([epoch, n, batch.pad])
                it.reset()
            meta["det_iter"][case] = info

        # sync_label_shape: the imglist iterator (2 boxes at most) grows to the record one's 3
        a = mx.image.ImageDetIter(**det_iter_args("rec_idx", tmp, mx))
        b = mx.image.ImageDetIter(**det_iter_args("imglist_pad", tmp, mx))
        before = [list(a.label_shape), list(b.label_shape)]
        b = a.sync_label_shape(b)
        batch = b.next()
        arrays["sync/label"] = batch.label[0].asnumpy()
        meta["sync"] = {"before": before, "after": [list(a.label_shape), list(b.label_shape)],
                        "provide_label": [[d[0], list(d[1])] for d in b.provide_label]}

        for case in REC_ITER_CASES:
            it = mx.io.ImageDetRecordIter(**rec_iter_args(case, tmp))
            info = {"provide_data": [[d.name, list(d.shape)] for d in it.provide_data],
                    "provide_label": [[d.name, list(d.shape)] for d in it.provide_label],
                    "batches": []}
            for epoch in range(REC_ITER_EPOCHS):
                for n, batch in enumerate(it):
                    key = f"rec/{case}/{epoch}/{n}"
                    arrays[key + "/data"] = batch.data[0].asnumpy()
                    arrays[key + "/label"] = batch.label[0].asnumpy()
                    info["batches"].append([epoch, n, batch.pad, batch.index.tolist()])
                it.reset()
            meta["rec_iter"][case] = info

        rec_path = str(Path(tmp) / "det.rec")
        errs = meta["errors"]
        errs["rec_label_width"] = _error(lambda: mx.io.ImageDetRecordIter(
            path_imgrec=rec_path, data_shape=(3, 8, 8), batch_size=2, label_width=14))
        errs["rec_label_pad_width"] = _error(lambda: mx.io.ImageDetRecordIter(
            path_imgrec=rec_path, data_shape=(3, 8, 8), batch_size=2, label_pad_width=10))
        bad = Path(tmp) / "bad.lst"
        bad.write_text("0\t2\t6\t0\t0.1\t0.1\t0.5\t0.5\t0\t1\timg0.png\n")
        errs["det_obj_width"] = _error(lambda: mx.image.ImageDetIter(
            2, (3, 8, 8), path_imglist=str(bad), path_root=tmp))
        bad.write_text("0\t2\t6\t0\timg0.png\n")
        errs["det_short_label"] = _error(lambda: mx.image.ImageDetIter(
            2, (3, 8, 8), path_imglist=str(bad), path_root=tmp))
        bad.write_text("0\t2\t6\t0\t0.5\t0.1\t0.4\t0.5\t0\timg0.png\n")
        errs["det_no_valid"] = _error(lambda: mx.image.ImageDetIter(
            2, (3, 8, 8), path_imglist=str(bad), path_root=tmp))
        it = mx.image.ImageDetIter(**det_iter_args("rec_idx", tmp, mx))
        errs["reshape_fewer"] = _error(lambda: it.reshape(label_shape=(2, 6)))
        errs["reshape_width"] = _error(lambda: it.reshape(label_shape=(4, 5)))
        errs["reshape_ndim"] = _error(lambda: it.reshape(label_shape=(4,)))
        it.reshape(label_shape=(5, 6))
        batch = it.next()
        arrays["reshape/label"] = batch.label[0].asnumpy()
        # the augmenters still resize to the old shape: only provide_data changes
        it.reshape(data_shape=(3, 8, 9))
        meta["reshape"] = {"provide_data": [[d[0], list(d[1])] for d in it.provide_data],
                           "provide_label": [[d[0], list(d[1])] for d in it.provide_label],
                           "label_shape": list(it.label_shape)}

    meta["dumps"] = {name: _dumps(augs) for name, augs in dump_configs(mx).items()}
    np.savez_compressed(OUT / "golden.npz", **arrays)
    (OUT / "golden.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(arrays)} arrays to {OUT}")


if __name__ == "__main__":
    main()
