"""Record 1.9.1's ImageRecordIter with default-augmenter settings that draw nothing random
(a fixed ``rotate``, ``min_random_scale == max_random_scale``, a fixed aspect ratio, crop sizes,
``pad`` / ``fill_value``, ``max_img_size`` / ``min_img_size``, the interpolation methods,
``mean_img``), for tests/io/test_image_record_aug.py.

Run with the reference interpreter, from outside the repository::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /path/to/repo/.ref/bin/python \\
        /path/to/repo/tools/golden/gen_image_record_aug.py

Output in ``tests/golden/image_record_aug/``:

* ``aug.rec`` -- three small noisy-gradient PNG images (12x16, 15x11, 14x14), labels 0, 1, 2;
* ``golden.npz`` -- ``<case>/data`` (the first batch), ``<case>/mean`` (a saved mean image);
* ``golden.json`` -- the case table (keyword arguments) and the error messages.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

import mxnet as mx
from gen_det_iter import png_bytes  # (run from tools/golden: its own folder is on sys.path)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "golden" / "image_record_aug"
SIZES = [(12, 16), (15, 11), (14, 14)]

BASE = {"data_shape": (3, 8, 8), "batch_size": 3, "preprocess_threads": 1}
CASES = {
    "plain": {},
    "rotate30": {"rotate": 30},
    "rotate45_resize10": {"rotate": 45, "resize": 10},
    "rotate30_fill0": {"rotate": 30, "fill_value": 0},
    "rotate30_cubic": {"rotate": 30, "inter_method": 2},
    "rotate30_area": {"rotate": 30, "inter_method": 3},
    "rotate30_lanczos": {"rotate": 30, "inter_method": 4},
    "rotate30_auto": {"rotate": 30, "inter_method": 9},
    "rotate_neg_ignored": {"rotate": -30},
    "scale15": {"min_random_scale": 1.5, "max_random_scale": 1.5},
    "scale07_fill9": {"min_random_scale": 0.7, "max_random_scale": 0.7, "fill_value": 9},
    "scale13_rotate20_cubic": {"min_random_scale": 1.3, "max_random_scale": 1.3, "rotate": 20,
                               "inter_method": 2},
    "aspect15": {"min_aspect_ratio": 1.5, "max_aspect_ratio": 1.5},
    "aspect06_rotate10": {"min_aspect_ratio": 0.6, "max_aspect_ratio": 0.6, "rotate": 10},
    "max_img_size10": {"max_img_size": 10, "data_shape": (3, 6, 6)},
    "min_img_size18": {"min_img_size": 18, "data_shape": (3, 12, 12)},
    "pad2_fill7": {"pad": 2, "fill_value": 7, "data_shape": (3, 14, 14)},
    "pad1_rotate15": {"pad": 1, "rotate": 15, "fill_value": 50, "data_shape": (3, 12, 12)},
    "crop_size9": {"min_crop_size": 9, "max_crop_size": 9},
    "crop_size11_cubic": {"min_crop_size": 11, "max_crop_size": 11, "inter_method": 2,
                          "data_shape": (3, 7, 9)},
    "rrc_full": {"random_resized_crop": True, "min_random_area": 1.0, "max_random_area": 1.0,
                 "min_aspect_ratio": 1.0, "max_aspect_ratio": 1.0},
    "rrc_default_is_plain": {"random_resized_crop": True},
    # area 0.99, aspect 1: the square image is taken whole and resized, the others fall back
    "rrc_area099": {"random_resized_crop": True, "min_random_area": 0.99, "max_random_area": 0.99,
                    "min_aspect_ratio": 1.0, "max_aspect_ratio": 1.0, "inter_method": 2},
    "zero_magnitudes": {"max_rotate_angle": 0, "max_shear_ratio": 0.0, "brightness": 0.0,
                        "contrast": 0.0, "saturation": 0.0, "pca_noise": 0.0, "random_h": 0,
                        "random_s": 0, "random_l": 0, "max_random_contrast": 0.0,
                        "max_random_illumination": 0.0},
    "uint8_rotate30": {"rotate": 30, "_iter": "ImageRecordUInt8Iter"},
    "normalized_rotate30": {"rotate": 30, "mean_r": 100, "mean_g": 110, "mean_b": 90,
                            "std_r": 50, "std_g": 60, "std_b": 70, "scale": 0.5},
}
# mean_img: created on the first use (the file does not exist yet), then loaded
MEAN_CASES = {
    "mean_plain": {},
    "mean_mirror_norm": {"mirror": True, "scale": 0.5, "std_r": 2.0, "mean_r": 10.0},
    "mean_rotate30_pad1": {"rotate": 30, "pad": 1, "data_shape": (3, 10, 10)},
}
ERRORS = {
    "crop_too_big": {"min_crop_size": 9, "max_crop_size": 20},
    "rotate_nearest": {"rotate": 30, "inter_method": 0},
    "resize_nearest": {"resize": 10, "inter_method": 0},
}


def images():
    """The uint8 RGB source images: a colour ramp with noise on top."""
    rs = np.random.RandomState(0)
    out = []
    for h, w in SIZES:
        yy, xx = np.mgrid[0:h, 0:w]
        base = np.stack([xx * 200 // w, yy * 200 // h, (xx + yy) * 100 // (h + w)], axis=2)
        out.append(np.clip(base + rs.randint(0, 56, (h, w, 3)), 0, 255).astype(np.uint8))
    return out


def kwargs_for(case):
    kw = {**BASE, **case}
    kw.pop("_iter", None)
    return kw


def first_batch(rec, case):
    cls = getattr(mx.io, case.get("_iter", "ImageRecordIter"))
    it = cls(path_imgrec=str(rec), **kwargs_for(case))
    return it.next().data[0].asnumpy()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rec = OUT / "aug.rec"
    writer = mx.recordio.MXRecordIO(str(rec), "w")
    for i, img in enumerate(images()):
        writer.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0), png_bytes(img)))
    writer.close()
    arrays, meta = {}, {"cases": {}, "mean_cases": {}, "errors": {}}
    for name, case in CASES.items():
        arrays[f"{name}/data"] = first_batch(rec, case)
        meta["cases"][name] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in case.items()}
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in MEAN_CASES.items():
            path = os.path.join(tmp, name + ".bin")
            created = first_batch(rec, {**case, "mean_img": path})
            mean = mx.nd.load(path)
            arrays[f"{name}/data"] = created
            arrays[f"{name}/mean"] = mean["mean_img"].asnumpy()
            reloaded = first_batch(rec, {**case, "mean_img": path})
            assert np.array_equal(created, reloaded)
            meta["mean_cases"][name] = {k: (list(v) if isinstance(v, tuple) else v)
                                        for k, v in case.items()}
            meta["mean_cases"][name]["keys"] = sorted(mean)
    for name, case in ERRORS.items():
        try:
            first_batch(rec, case)
            meta["errors"][name] = None
        except mx.base.MXNetError as e:
            lines = [ln for ln in str(e).splitlines() if "Check failed" in ln] or [str(e)]
            meta["errors"][name] = lines[0].split("Check failed: ")[-1][:300]
        meta["errors"][name + "/kwargs"] = case
    np.savez_compressed(OUT / "golden.npz", **arrays)
    (OUT / "golden.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print("wrote", len(arrays), "arrays to", OUT)


if __name__ == "__main__":
    main()
