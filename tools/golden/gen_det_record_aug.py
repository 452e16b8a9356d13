"""Record 1.9.1's ImageDetRecordIter with its own augmentation options (random crop, random
pad, colour jitter, mean_img) for tests/io/test_det_record_aug.py.

Run with the reference interpreter, from outside the repository::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /path/to/repo/.ref/bin/python \\
        /path/to/repo/tools/golden/gen_det_record_aug.py

Inputs: ``tests/golden/det/det.rec`` and ``edge.rec`` (tools/golden/gen_det_iter.py) and a
new ``noise.rec`` of six 12x16 uniform-noise images (``noise_images``) with two boxes each.

The cases fall in two groups:

* ``FIXED``: settings whose outcome does not depend on the random draws: crops with scales in
  [0.9999, 1) (the crop rectangle is the image less its last row and column, the boxes move by
  less than 1e-3, and which samplers' constraints pass does not depend on the draw), padding
  with ``max_pad_scale`` below 1.05, zero colour ranges, and ``mean_img`` (computed, then read
  back, then overridden by ``mean_r``). The batches are compared as they are.
* ``RANDOM``: colour jitter and padding with probability 1; the tests recover each image's
  drawn values from 1.9.1's output and check that this implementation's arithmetic gives the
  same pixels for them.

Output in ``tests/golden/det/``: ``noise.rec``, ``aug.npz`` (``<case>/<batch>/data|label``,
``mean/<case>``) and ``aug.json`` (pads, indices, error messages).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "golden" / "det"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_det_iter as _base  # noqa: E402

NOISE_BOXES = [[2, 6, 0, 0.1, 0.2, 0.5, 0.6, 0, 1, 0.4, 0.3, 0.9, 0.95, 1]] * 6
# a crop whose scale lies in [0.9999, 1): deterministic up to 1e-3 in the boxes
NEAR_FULL = dict(rand_crop_prob=1, min_crop_scales=(0.9999,), max_crop_scales=(1.0,),
                 min_crop_aspect_ratios=(0.01,), max_crop_aspect_ratios=(100,),
                 max_crop_trials=(3,))

FIXED = {
    "crop_full": dict(NEAR_FULL, batch_size=3, data_shape=(3, 12, 12)),
    "crop_full_fit_mirror": dict(NEAR_FULL, batch_size=4, data_shape=(3, 14, 18),
                                 resize_mode="fit", rand_mirror_prob=1, resize=15),
    "edge_center": dict(NEAR_FULL, batch_size=3, data_shape=(3, 6, 8), path_imgrec="edge.rec"),
    "edge_overlap_06": dict(NEAR_FULL, batch_size=3, data_shape=(3, 6, 8),
                            path_imgrec="edge.rec", crop_emit_mode="overlap",
                            emit_overlap_thresh=0.6),
    "edge_overlap_07": dict(NEAR_FULL, batch_size=3, data_shape=(3, 6, 8),
                            path_imgrec="edge.rec", crop_emit_mode="overlap",
                            emit_overlap_thresh=0.7),
    # box areas in det.rec: 0.2025 0.33 0.18 0.15 0.15 0.09 0.25 0.325 0.15 0.16
    "min_overlap": dict(NEAR_FULL, batch_size=6, data_shape=(3, 10, 10),
                        min_crop_overlaps=(0.3,)),
    "max_overlap": dict(NEAR_FULL, batch_size=6, data_shape=(3, 10, 10),
                        max_crop_overlaps=(0.17,)),
    "min_sample_cov": dict(NEAR_FULL, batch_size=6, data_shape=(3, 10, 10),
                           min_crop_sample_coverages=(0.22,)),
    "max_object_cov": dict(NEAR_FULL, batch_size=6, data_shape=(3, 10, 10),
                           max_crop_object_coverages=(0.9,)),
    "two_samplers": dict(NEAR_FULL, batch_size=6, data_shape=(3, 10, 10), num_crop_sampler=2,
                         min_crop_scales=(0.9999, 0.9999), max_crop_scales=(1.0, 1.0),
                         min_crop_overlaps=(0.3, 0.0), max_crop_overlaps=(1.0, 0.17),
                         max_crop_trials=(2, 4)),
    "pad_small": dict(batch_size=3, data_shape=(3, 12, 12), rand_pad_prob=1,
                      max_pad_scale=1.049, fill_value=40),
    "colour_zero": dict(batch_size=3, data_shape=(3, 12, 12), random_hue_prob=1,
                        random_saturation_prob=1, random_illumination_prob=1,
                        random_contrast_prob=1),
}
RANDOM = {
    "hls": dict(path_imgrec="noise.rec", batch_size=6, data_shape=(3, 12, 16),
                random_hue_prob=1, max_random_hue=6, random_saturation_prob=1,
                max_random_saturation=10, random_illumination_prob=1,
                max_random_illumination=8),
    "contrast": dict(path_imgrec="noise.rec", batch_size=6, data_shape=(3, 12, 16),
                     random_contrast_prob=1, max_random_contrast=0.5),
    "pad": dict(path_imgrec="noise.rec", batch_size=6, data_shape=(3, 36, 48),
                resize_mode="shrink", rand_pad_prob=1, max_pad_scale=2.5, fill_value=300),
    "colour_resize": dict(path_imgrec="noise.rec", batch_size=6, data_shape=(3, 20, 28),
                          random_illumination_prob=1, max_random_illumination=8),
}
MEAN = {
    "mean_compute": dict(batch_size=4, data_shape=(3, 12, 14), resize_mode="fit"),
    "mean_load_std_scale": dict(batch_size=4, data_shape=(3, 12, 14), resize_mode="fit",
                                std_g=2, scale=0.5),
    "mean_overridden": dict(batch_size=4, data_shape=(3, 12, 14), resize_mode="fit",
                            mean_r=10),
}
ERRORS = {
    "scales_equal": dict(rand_crop_prob=1, min_crop_scales=(0.5,), max_crop_scales=(0.5,)),
    "scale_negative": dict(rand_crop_prob=1, min_crop_scales=(-0.1,)),
    "scale_above_one": dict(rand_crop_prob=1, max_crop_scales=(1.5,)),
    "aspect_order": dict(rand_crop_prob=1, min_crop_aspect_ratios=(2,),
                         max_crop_aspect_ratios=(1,)),
    "overlap_order": dict(rand_crop_prob=1, min_crop_overlaps=(0.6,), max_crop_overlaps=(0.5,)),
    "sampler_count": dict(num_crop_sampler=3, min_crop_scales=(0.1, 0.2),
                          max_crop_scales=(0.5, 0.6)),
    "emit_mode": dict(crop_emit_mode="corner"),
}


def noise_images():
    rs = np.random.RandomState(11)
    return [rs.randint(0, 256, (12, 16, 3)).astype(np.uint8) for _ in NOISE_BOXES]


def args_of(case, folder, table):
    folder = Path(folder)
    args = dict(table[case], verbose=False)
    args["path_imgrec"] = str(folder / args.get("path_imgrec", "det.rec"))
    return args


def prepare_folder(folder):
    """det.rec, edge.rec and noise.rec copied into ``folder``."""
    import shutil
    for name in ("det.rec", "edge.rec", "noise.rec"):
        shutil.copy(OUT / name, Path(folder) / name)


def record_batches(it, case, arrays, meta):
    """Every batch of ``it`` into ``arrays`` (data, label) and ``meta`` (number, pad, index)."""
    info = []
    for n, batch in enumerate(it):
        arrays[f"{case}/{n}/data"] = batch.data[0].asnumpy()
        arrays[f"{case}/{n}/label"] = batch.label[0].asnumpy()
        info.append([n, batch.pad, batch.index.tolist()])
    meta["batches"][case] = info


def main():
    import mxnet as mx

    rec = mx.recordio.MXRecordIO(str(OUT / "noise.rec"), "w")
    for i, (img, lab) in enumerate(zip(noise_images(), NOISE_BOXES)):
        header = mx.recordio.IRHeader(0, np.array(lab, np.float32), i, 0)
        rec.write(mx.recordio.pack(header, _base.png_bytes(img)))
    rec.close()
    arrays, meta = {}, {"batches": {}, "errors": {}}
    with tempfile.TemporaryDirectory() as tmp:
        prepare_folder(tmp)
        for table in (FIXED, RANDOM):
            for case in table:
                record_batches(mx.io.ImageDetRecordIter(**args_of(case, tmp, table)), case,
                               arrays, meta)
        mean_path = os.path.join(tmp, "mean.nd")
        for case in MEAN:
            record_batches(mx.io.ImageDetRecordIter(mean_img=mean_path,
                                                    **args_of(case, tmp, MEAN)),
                           case, arrays, meta)
            if case == "mean_compute":
                saved = mx.nd.load(mean_path)
                meta["mean_keys"] = sorted(saved)
                arrays["mean/saved"] = saved["mean_img"].asnumpy()
        rec_path = str(Path(tmp) / "det.rec")
        for name, kw in ERRORS.items():
            meta["errors"][name] = _base._error(lambda kw=kw: mx.io.ImageDetRecordIter(
                path_imgrec=rec_path, data_shape=(3, 8, 8), batch_size=2, verbose=False, **kw))
    np.savez_compressed(OUT / "aug.npz", **arrays)
    (OUT / "aug.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(arrays)} arrays to {OUT}")


if __name__ == "__main__":
    main()
