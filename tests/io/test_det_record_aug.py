"""ImageDetRecordIter's own augmentation (random crop / pad / colour jitter, mean_img) against
1.9.1 (tools/golden/gen_det_record_aug.py) and by invariants on random settings."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.io import _det_augment as aug
from mxnet.io import _image_aug as kern
from mxnet.io.image_record_iter import _kernels, _StdEngine

from .._scripts import load_script

GEN = load_script("tools/golden/gen_det_record_aug.py")
BASE = load_script("tools/golden/gen_det_iter.py", "_gen_det_iter")
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "det"


@pytest.fixture(scope="module")
def g():
    with np.load(GOLDEN / "aug.npz") as data:
        return dict(data)


@pytest.fixture(scope="module")
def meta():
    return json.loads((GOLDEN / "aug.json").read_text())


@pytest.fixture
def folder(tmp_path):
    pytest.importorskip("PIL")
    GEN.prepare_folder(tmp_path)
    return tmp_path


def _batches(it):
    try:
        return [(b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad, b.index.tolist()) for b in it]
    finally:
        it.close()


# -- deterministic settings against 1.9.1 ----------------------------------------------------------
@pytest.mark.parametrize("case", list(GEN.FIXED))
def test_fixed_settings_match_reference(case, folder, g, meta):
    got = _batches(mx.io.ImageDetRecordIter(**GEN.args_of(case, folder, GEN.FIXED)))
    assert [[n, pad, index] for n, (_, _, pad, index) in enumerate(got)] == meta["batches"][case]
    for n, (data, label, _, _) in enumerate(got):
        np.testing.assert_allclose(data, g[f"{case}/{n}/data"], atol=1e-4, err_msg=case)
        # the near-full crops move the boxes by less than 1e-3; everything else is exact
        np.testing.assert_allclose(label, g[f"{case}/{n}/label"], atol=1e-3, rtol=0,
                                   err_msg=case)


def test_mean_img_matches_reference(folder, g, meta):
    path = folder / "mean.nd"
    for case in GEN.MEAN:
        it = mx.io.ImageDetRecordIter(mean_img=str(path), **GEN.args_of(case, folder, GEN.MEAN))
        got = _batches(it)
        assert len(got) == len(meta["batches"][case])
        for n, (data, label, _, _) in enumerate(got):
            np.testing.assert_allclose(data, g[f"{case}/{n}/data"], atol=1e-4, err_msg=case)
            np.testing.assert_array_equal(label, g[f"{case}/{n}/label"])
        if case == "mean_compute":   # computed over one pass and saved as {"mean_img": array}
            saved = mx.nd.load(str(path))
            assert sorted(saved) == meta["mean_keys"]
            np.testing.assert_allclose(saved["mean_img"].asnumpy(), g["mean/saved"], atol=1e-4)


def test_mean_img_errors(folder):
    rec = str(folder / "det.rec")
    bad = folder / "bad.nd"
    bad.write_bytes(b"not an ndarray file")
    with pytest.raises(MXNetError, match="mean_img"):
        mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2,
                                 mean_img=str(bad), verbose=False)
    wrong = folder / "wrong.nd"
    mx.nd.save(str(wrong), {"mean_img": mx.nd.zeros((3, 4, 4))})
    with pytest.raises(MXNetError, match=r"mean_img.*\(3, 4, 4\).*\(3, 8, 8\)"):
        mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2,
                                 mean_img=str(wrong), verbose=False)
    # with mean_r set 1.9.1 neither reads nor writes mean_img
    unused = folder / "unused.nd"
    it = mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2,
                                  mean_img=str(unused), mean_r=1, verbose=False)
    it.close()
    assert not unused.exists()


@pytest.mark.parametrize("name", list(GEN.ERRORS))
def test_option_errors(name, folder, meta):
    want = meta["errors"][name][1]
    # the option 1.9.1's message names (e.g. max_crop_scales, crop_emit_mode's value)
    key = [w for w in ("crop_scales", "aspect_ratios", "crop_overlaps", "crop_samplers",
                       "'corner'") if w in want][0]
    with pytest.raises(MXNetError) as info:
        mx.io.ImageDetRecordIter(path_imgrec=str(folder / "det.rec"), data_shape=(3, 8, 8),
                                 batch_size=2, verbose=False, **GEN.ERRORS[name])
    assert key.replace("crop_samplers", "num_crop_sampler") in str(info.value)


# -- random settings: recover 1.9.1's draws, then compare the arithmetic -------------------------
def _shift(hls, delta):
    """OpenCV-arithmetic RGB of ``hls`` shifted by ``delta`` = (dh, dl, ds), clipped."""
    t = hls.astype(np.int32) + np.asarray(delta)
    return kern.hls8_to_rgb(np.clip(t, 0, [180, 255, 255]).astype(np.uint8))


def test_hls_jitter_matches_reference(g):
    imgs = GEN.noise_images()
    case = GEN.RANDOM["hls"]
    grid = np.stack(np.meshgrid(np.arange(-case["max_random_hue"], case["max_random_hue"] + 1),
                                np.arange(-case["max_random_illumination"],
                                          case["max_random_illumination"] + 1),
                                np.arange(-case["max_random_saturation"],
                                          case["max_random_saturation"] + 1),
                                indexing="ij"), -1).reshape(-1, 3)
    data = g["hls/0/data"].transpose(0, 2, 3, 1)
    found = []
    for img, want in zip(imgs, data):
        hls = kern.rgb_to_hls8(img)
        # every candidate on a few pixels, then the survivors on the whole image
        few = _shift(hls[None, :2], grid[:, None, None, :])
        cand = grid[(few == want[None, :2]).all(axis=(1, 2, 3))]
        hits = [c for c in cand if np.array_equal(_shift(hls, c), want)]
        assert hits, "no hue/lightness/saturation shift reproduces 1.9.1's pixels"
        found.append(hits[0])
    assert any(np.any(f != 0) for f in found)


def test_contrast_matches_reference(g):
    imgs = np.stack(GEN.noise_images()).astype(np.float32)
    data = g["contrast/0/data"].transpose(0, 2, 3, 1)
    alphas = []
    for x, y in zip(imgs, data):
        m = (x > 0) & (y < 255)
        lo = ((y[m] - 0.5) / x[m]).max()
        hi = ((y[m] + 0.5) / x[m]).min()
        assert lo <= hi
        alpha = np.float32((lo + hi) / 2)
        np.testing.assert_array_equal(kern._round_u8(x * alpha), y)
        alphas.append(alpha)
    assert all(abs(a - 1) <= GEN.RANDOM["contrast"]["max_random_contrast"] + 1e-3
               for a in alphas)
    assert np.ptp(alphas) > 0.05


def test_pad_matches_reference(g):
    imgs = GEN.noise_images()
    case = GEN.RANDOM["pad"]
    data, labels = g["pad/0/data"], g["pad/0/label"]
    padded = 0
    for img, lab_in, out, lab in zip(imgs, GEN.NOISE_BOXES, data, labels):
        objs = np.array(lab_in[2:], np.float32).reshape(-1, 6)
        got = lab[6:6 + objs.size].reshape(-1, 6)
        rows, cols = int(lab[1]), int(lab[2])
        if (rows, cols) == img.shape[:2]:
            np.testing.assert_array_equal(out[:, :rows, :cols].transpose(1, 2, 0), img)
            continue
        padded += 1
        # the scale and offsets from the first box: new = (old + offset) / scale
        scale = (objs[0, 3] - objs[0, 1]) / (got[0, 3] - got[0, 1])
        ox = got[0, 1] * scale - objs[0, 1]
        oy = got[0, 2] * scale - objs[0, 2]
        assert 1.05 <= scale < case["max_pad_scale"] + 1e-4
        mine, mine_objs = aug.pad(img, objs, ox, oy, scale, case["fill_value"])
        assert mine.shape[:2] == (rows, cols)
        np.testing.assert_array_equal(out[:, :rows, :cols].transpose(1, 2, 0), mine)
        np.testing.assert_allclose(mine_objs, got, atol=1e-5)
        assert (mine == 255).all(axis=2).sum() >= rows * cols - img.shape[0] * img.shape[1]
    assert padded >= 3


def test_colour_jitter_comes_before_the_resize(g):
    imgs = GEN.noise_images()
    case = GEN.RANDOM["colour_resize"]
    _, h, w = case["data_shape"]
    lim = case["max_random_illumination"]
    for img, want in zip(imgs, g["colour_resize/0/data"]):
        hls = kern.rgb_to_hls8(img)
        ok = [dl for dl in range(-lim, lim + 1)
              if np.array_equal(_kernels().resize(_shift(hls, (0, dl, 0)) if dl else img, w, h, 1),
                                want.transpose(1, 2, 0))]
        assert ok


# -- invariants on this implementation --------------------------------------------------------------
_COLOURS = np.array([[250, 30, 30], [30, 250, 30], [30, 30, 250]], np.uint8)


def _painted_rec(path, n=6, size=(40, 48)):
    """Records of black images with 1 to 3 solid rectangles, one per vertical band of 16 columns
    (they never overlap); the label boxes are the rectangles' exact pixel edges (class = colour
    index, one extra column)."""
    import mxnet.recordio as rio
    rs = np.random.RandomState(3)
    rec = rio.MXRecordIO(str(path), "w")
    h, w = size
    for i in range(n):
        img = np.zeros((h, w, 3), np.uint8)
        vals = [2.0, 6.0]
        for k in range(1 + i % 3):
            x0, y0 = 16 * k + rs.randint(0, 6), rs.randint(0, h - 14)
            x1, y1 = x0 + rs.randint(6, 11), y0 + rs.randint(8, 14)
            img[y0:y1, x0:x1] = _COLOURS[k]
            vals += [k, x0 / w, y0 / h, x1 / w, y1 / h, 7.0]
        header = rio.IRHeader(0, np.array(vals, np.float32), i, 0)
        rec.write(rio.pack(header, BASE.png_bytes(img)))
    rec.close()


RANDOM_AUG = dict(rand_crop_prob=0.8, num_crop_sampler=3, min_crop_scales=(0.3, 0.5, 0.7),
                  max_crop_scales=(0.8, 0.9, 1.0), min_crop_aspect_ratios=(0.5,),
                  max_crop_aspect_ratios=(2.0,), min_crop_overlaps=(0.1, 0.0, 0.0),
                  min_crop_object_coverages=(0.0, 0.5, 0.0), max_crop_trials=(10, 20, 30),
                  rand_pad_prob=0.5, max_pad_scale=2.0, fill_value=0, rand_mirror_prob=0.5)


def test_boxes_follow_the_painted_objects(tmp_path):
    pytest.importorskip("PIL")
    path = tmp_path / "painted.rec"
    _painted_rec(path)
    it = mx.io.ImageDetRecordIter(path_imgrec=str(path), data_shape=(3, 80, 96), batch_size=6,
                                  resize_mode="shrink", seed=5, verbose=False,
                                  label_pad_width=24, **RANDOM_AUG)
    checked = changed = 0
    for _ in range(6):
        data, label, _, _ = _batches_one(it)
        for img, lab in zip(data, label):
            rows, cols, length = int(lab[1]), int(lab[2]), int(lab[3])
            assert lab[0] == 3 and (lab[4], lab[5]) == (2, 6)
            assert (lab[4 + length:] == -1).all() and (length - 2) % 6 == 0 and length > 2
            objs = lab[6:4 + length].reshape(-1, 6)
            assert (objs[:, 1:5] >= 0).all() and (objs[:, 1:5] <= 1).all()
            assert (objs[:, 5] == 7).all()
            changed += (rows, cols) != (40, 48)
            pic = img[:, :rows, :cols].transpose(1, 2, 0)
            for cls, x0, y0, x1, y1, _ in objs:
                # the pixels strictly inside the box (one pixel of margin) have its colour
                c0, c1 = int(np.ceil(x0 * cols)) + 1, int(np.floor(x1 * cols)) - 1
                r0, r1 = int(np.ceil(y0 * rows)) + 1, int(np.floor(y1 * rows)) - 1
                if c1 <= c0 or r1 <= r0:
                    continue
                inside = pic[r0:r1, c0:c1]
                np.testing.assert_array_equal(inside, np.broadcast_to(_COLOURS[int(cls)],
                                                                      inside.shape))
                checked += 1
    it.close()
    assert checked > 40 and changed > 10


def _batches_one(it):
    it.reset()
    b = it.next()
    return b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad, b.index.tolist()


def test_crop_respects_the_sampler_constraints():
    rng = _StdEngine(0)
    objs = np.array([[0, 0.1, 0.1, 0.4, 0.5, 0], [1, 0.5, 0.3, 0.9, 0.9, 0],
                     [2, 0.05, 0.6, 0.3, 0.95, 0]], np.float32)
    smp = dict(min_scale=0.3, max_scale=0.9, min_aspect=0.5, max_aspect=2.0, min_overlap=0.3,
               max_overlap=0.9, min_sample_coverage=0.2, max_sample_coverage=1.0,
               min_object_coverage=0.6, max_object_coverage=0.95, trials=50)
    boxes, _ = aug.crop_boxes(rng, 4000, smp, 1.0)
    x, y, w, h = boxes.T
    assert (w > 0).all() and (w <= 1).all() and (h <= 1).all()
    assert (x >= 0).all() and (x + w <= 1 + 1e-6).all() and (y + h <= 1 + 1e-6).all()
    area = w * h
    assert area.min() >= 0.3 ** 2 - 1e-4 and area.max() <= 0.9 ** 2 + 1e-4
    assert (w / h >= 0.5 - 1e-4).all() and (w / h <= 2.0 + 1e-4).all()
    ok = aug.crop_accepts(boxes, objs, smp)
    assert 0 < ok.mean() < 1
    # closed form on the accepted and rejected rectangles
    ix = np.clip(np.minimum(x[:, None] + w[:, None], objs[:, 3]) - np.maximum(x[:, None],
                                                                              objs[:, 1]), 0, None)
    iy = np.clip(np.minimum(y[:, None] + h[:, None], objs[:, 4]) - np.maximum(y[:, None],
                                                                              objs[:, 2]), 0, None)
    inter = ix * iy
    oa = (objs[:, 3] - objs[:, 1]) * (objs[:, 4] - objs[:, 2])
    iou = inter / (area[:, None] + oa - inter)

    def want(eps):
        cover = inter / area[:, None]
        part = inter / oa
        return ((iou >= 0.3 + eps) & (iou <= 0.9 - eps) & (cover >= 0.2 + eps)
                & (cover <= 1 - eps) & (part >= 0.6 + eps) & (part <= 0.95 - eps)).any(axis=1)
    clear = want(1e-5) == want(-1e-5)     # leave out rounding ties at the thresholds
    assert clear.mean() > 0.9
    np.testing.assert_array_equal(ok[clear], want(0)[clear])
    # emission: centre inside (left/top edge included), or overlap above the threshold
    centre = aug.emitted(boxes, objs, "center", 0.3)
    cx, cy = (objs[:, 1] + objs[:, 3]) / 2, (objs[:, 2] + objs[:, 4]) / 2
    np.testing.assert_array_equal(centre, (cx >= x[:, None]) & (cx < (x + w)[:, None])
                                  & (cy >= y[:, None]) & (cy < (y + h)[:, None]))
    np.testing.assert_array_equal(aug.emitted(boxes, objs, "overlap", 0.45),
                                  inter / oa > 0.45)


def test_random_crop_crops_the_pixels_its_boxes_say():
    rows, cols = 30, 40
    yy, xx = np.mgrid[0:rows, 0:cols]
    img = np.stack([yy, xx, np.zeros_like(xx)], -1).astype(np.uint8)
    objs = np.array([[0, 0.2, 0.2, 0.6, 0.7, 3], [1, 0.55, 0.1, 0.95, 0.5, 4]], np.float32)
    smp = dict(min_scale=0.4, max_scale=0.9, min_aspect=0.5, max_aspect=2.0, min_overlap=0.0,
               max_overlap=1.0, min_sample_coverage=0.0, max_sample_coverage=1.0,
               min_object_coverage=0.0, max_object_coverage=1.0, trials=25)
    p = {"samplers": [smp], "crop_emit_mode": "center", "emit_overlap_thresh": 0.3}
    rng = _StdEngine(1)
    cropped = 0
    for _ in range(40):
        out, new = aug.random_crop(img, objs, p, rng)
        if out.shape == img.shape:
            continue
        cropped += 1
        top, left = int(out[0, 0, 0]), int(out[0, 0, 1])
        h, w = out.shape[:2]
        assert new.shape[1] == 6 and 1 <= len(new) <= 2
        assert (new[:, 1:5] >= 0).all() and (new[:, 1:5] <= 1).all()
        for row in new:
            src = objs[objs[:, 0] == row[0]][0]
            np.testing.assert_array_equal(row[[0, 5]], src[[0, 5]])
            # the box maps back onto the source box, up to the pixel truncation of the crop
            back_x = np.array([row[1], row[3]]) * w + left
            want_x = np.clip(np.array([src[1], src[3]]) * cols, left, left + w)
            np.testing.assert_allclose(back_x, want_x, atol=1.5 + 0.02 * cols)
            back_y = np.array([row[2], row[4]]) * h + top
            want_y = np.clip(np.array([src[2], src[4]]) * rows, top, top + h)
            np.testing.assert_allclose(back_y, want_y, atol=1.5 + 0.02 * rows)
    assert cropped > 30


def test_zero_probabilities_are_the_identity_and_runs_repeat(folder):
    rec = str(folder / "det.rec")
    common = dict(path_imgrec=rec, data_shape=(3, 12, 12), batch_size=3, verbose=False)
    tuning = dict(min_crop_scales=(0.2,), max_crop_scales=(0.6,), max_pad_scale=3,
                  max_random_hue=40, max_random_saturation=40, max_random_illumination=40,
                  max_random_contrast=0.5, fill_value=9, num_crop_sampler=2)
    plain = _batches(mx.io.ImageDetRecordIter(**common))
    off = _batches(mx.io.ImageDetRecordIter(**common, **tuning))
    for a, b in zip(plain, off):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    on = dict(tuning, rand_crop_prob=0.7, rand_pad_prob=0.7, random_hue_prob=0.5,
              random_saturation_prob=0.5, random_illumination_prob=0.5,
              random_contrast_prob=0.5, rand_mirror_prob=0.5)
    first = _batches(mx.io.ImageDetRecordIter(**common, **on, seed=4))
    again = _batches(mx.io.ImageDetRecordIter(**common, **on, seed=4))
    other = _batches(mx.io.ImageDetRecordIter(**common, **on, seed=5))
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    # as in 1.9.1, ``seed`` seeds only the shuffling: the augmentation draws stay the same
    for a, b in zip(first, other):
        np.testing.assert_array_equal(a[0], b[0])
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(first, plain))


def test_colour_kernels_round_trip():
    rs = np.random.RandomState(0)
    img = rs.randint(0, 256, (64, 64, 3)).astype(np.uint8)
    hls = kern.rgb_to_hls8(img)
    assert hls[..., 0].max() <= 180
    # the 8-bit round trip loses at most a few levels (OpenCV's behaviour)
    assert np.abs(kern.hls8_to_rgb(hls).astype(int) - img).max() <= 6
    grey = np.repeat(rs.randint(0, 256, (8, 8, 1)), 3, axis=2).astype(np.uint8)
    g_hls = kern.rgb_to_hls8(grey)
    assert (g_hls[..., 0] == 0).all() and (g_hls[..., 2] == 0).all()
    np.testing.assert_array_equal(g_hls[..., 1], grey[..., 0])
    np.testing.assert_array_equal(kern.hls8_to_rgb(g_hls), grey)
