"""Object detection data pipeline (mx.image.ImageDetIter, the Det*Aug augmenters,
mx.io.ImageDetRecordIter) against 1.9.1 (tools/golden/gen_det_iter.py), and the sampling rules
of the random augmenters."""
import json
import random
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet import image
from mxnet.base import MXNetError

from ._scripts import load_script

GOLDEN = Path(__file__).parent / "golden" / "det"


GEN = load_script("tools/golden/gen_det_iter.py", "_gen_det_iter")


@pytest.fixture(scope="module")
def meta():
    return json.loads((GOLDEN / "golden.json").read_text())


@pytest.fixture(scope="module")
def g():
    with np.load(GOLDEN / "golden.npz") as data:
        return dict(data)


@pytest.fixture
def folder(tmp_path):
    pytest.importorskip("PIL")
    GEN.prepare_folder(tmp_path)
    return tmp_path


def _descs(descs):
    return [[d[0], list(d[1])] for d in descs]


def _close(got, want, msg=""):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4, err_msg=msg)


# -- ImageDetIter -------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", list(GEN.DET_ITER_CASES))
def test_image_det_iter_matches_reference(case, folder, g, meta):
    want = meta["det_iter"][case]
    random.seed(7)
    np.random.seed(7)
    it = image.ImageDetIter(**GEN.det_iter_args(case, folder, mx))
    assert _descs(it.provide_data) == want["provide_data"]
    assert _descs(it.provide_label) == want["provide_label"]
    assert list(it.label_shape) == want["label_shape"]
    pads = []
    for epoch in range(GEN.DET_ITER_EPOCHS):
        for n, batch in enumerate(it):
            key = f"det/{case}/{epoch}/{n}"
            pads.append([epoch, n, batch.pad])
            _close(batch.data[0].asnumpy(), g[key + "/data"], key)
            np.testing.assert_array_equal(batch.label[0].asnumpy(), g[key + "/label"], err_msg=key)
        it.reset()
    assert pads == want["pads"]


def test_sync_label_shape_and_reshape(folder, g, meta):
    a = image.ImageDetIter(**GEN.det_iter_args("rec_idx", folder, mx))
    b = image.ImageDetIter(**GEN.det_iter_args("imglist_pad", folder, mx))
    assert [list(a.label_shape), list(b.label_shape)] == meta["sync"]["before"]
    assert a.sync_label_shape(b) is b
    assert [list(a.label_shape), list(b.label_shape)] == meta["sync"]["after"]
    assert _descs(b.provide_label) == meta["sync"]["provide_label"]
    np.testing.assert_array_equal(b.next().label[0].asnumpy(), g["sync/label"])

    it = image.ImageDetIter(**GEN.det_iter_args("rec_idx", folder, mx))
    errors = meta["errors"]
    for name, shape in (("reshape_fewer", (2, 6)), ("reshape_width", (4, 5)), ("reshape_ndim", (4,))):
        with pytest.raises(ValueError) as info:
            it.reshape(label_shape=shape)
        assert str(info.value) == errors[name][1]
    it.reshape(label_shape=(5, 6))
    np.testing.assert_array_equal(it.next().label[0].asnumpy(), g["reshape/label"])
    it.reshape(data_shape=(3, 8, 9))
    assert _descs(it.provide_data) == meta["reshape"]["provide_data"]
    assert _descs(it.provide_label) == meta["reshape"]["provide_label"]
    with pytest.raises(TypeError):
        it.sync_label_shape(object())


def test_image_det_iter_label_errors(folder, meta):
    bad = folder / "bad.lst"
    cases = {"det_obj_width": "0\t2\t6\t0\t0.1\t0.1\t0.5\t0.5\t0\t1\timg0.png\n",
             "det_short_label": "0\t2\t6\t0\timg0.png\n",
             "det_no_valid": "0\t2\t6\t0\t0.5\t0.1\t0.4\t0.5\t0\timg0.png\n"}
    for name, text in cases.items():
        bad.write_text(text)
        kind, message = meta["errors"][name]
        with pytest.raises(RuntimeError) as info:
            image.ImageDetIter(2, (3, 8, 8), path_imglist=str(bad), path_root=str(folder))
        assert type(info.value).__name__ == kind
        assert str(info.value) == message
    # an image whose boxes all vanish is skipped while batching
    good = GEN.lst_text().splitlines(keepends=True)[0]
    bad.write_text(good + good.replace("img0", "img1").replace("0\t", "1\t", 1))
    it = image.ImageDetIter(1, (3, 8, 8), path_imglist=str(bad), path_root=str(folder),
                            aug_list=[_DropAll(), image.DetBorrowAug(image.ForceResizeAug((8, 8)))])
    with pytest.raises(StopIteration):
        it.next()


class _DropAll(image.DetAugmenter):
    def __call__(self, src, label):
        out = label.copy()
        out[:, 0] = -1
        return src, out


def test_draw_next(folder):
    it = image.ImageDetIter(2, (3, 12, 12), path_imgrec=str(folder / "det.rec"))
    images = list(it.draw_next(color=(255, 0, 0), thickness=1))
    assert len(images) == 6
    first = images[0]
    assert first.dtype == np.uint8 and first.shape == (12, 12, 3)
    # the first box (0.10, 0.15)-(0.55, 0.60): its top-left corner is drawn in BGR red
    np.testing.assert_array_equal(first[int(0.15 * 12), int(0.10 * 12)], [0, 0, 255])


# -- augmenters ---------------------------------------------------------------------------------------
def test_det_augmenter_dumps_match_reference(meta):
    for name, augs in GEN.dump_configs(mx).items():
        got = json.loads(json.dumps([a.dumps() for a in augs]))
        assert got == meta["dumps"][name], name


def test_det_augmenter_arguments():
    with pytest.raises(TypeError):
        image.DetBorrowAug(image.DetHorizontalFlipAug(0.5))
    with pytest.raises(ValueError):
        image.DetRandomSelectAug([image.CastAug()])
    assert image.DetRandomSelectAug([]).skip_prob == 1
    with pytest.warns(UserWarning, match="area_range"):
        assert not image.DetRandomCropAug(area_range=(0.5, 0.1)).enabled
    with pytest.warns(UserWarning, match="aspect_ratio_range"):
        assert not image.DetRandomCropAug(aspect_ratio_range=(0, 1)).enabled
    with pytest.warns(UserWarning):
        assert not image.DetRandomPadAug(area_range=(0.5, 0.9)).enabled
    with pytest.raises(ValueError):
        image.CreateDetAugmenter((3, 8, 8), mean=[1, 2, 3])
    with pytest.raises(ValueError):
        image.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.2],
                                           area_range=[(0.1, 1), (0.2, 1), (0.3, 1)])
    with pytest.raises(NotImplementedError):
        image.DetAugmenter()(None, None)


def _label(rows):
    return np.array(rows, np.float32)


LABEL = _label([[0, 0.1, 0.1, 0.5, 0.6, 0], [1, 0.4, 0.3, 0.9, 0.95, 1], [2, 0.6, 0.05, 0.8, 0.2, 0]])


def _areas(boxes):
    return np.maximum(0, boxes[:, 2] - boxes[:, 0]) * np.maximum(0, boxes[:, 3] - boxes[:, 1])


def test_horizontal_flip():
    src = mx.nd.array(np.arange(2 * 5 * 3).reshape(2, 5, 3), dtype="uint8")
    out, label = image.DetHorizontalFlipAug(1.0)(src, LABEL.copy())
    np.testing.assert_array_equal(out.asnumpy(), src.asnumpy()[:, ::-1])
    np.testing.assert_allclose(label[:, 1], 1 - LABEL[:, 3], rtol=1e-6)
    np.testing.assert_allclose(label[:, 3], 1 - LABEL[:, 1], rtol=1e-6)
    np.testing.assert_array_equal(label[:, (0, 2, 4, 5)], LABEL[:, (0, 2, 4, 5)])
    out, label = image.DetHorizontalFlipAug(0.0)(src, LABEL.copy())
    assert out is src and (label == LABEL).all()
    random.seed(3)
    aug = image.DetHorizontalFlipAug(0.3)
    flips = sum(aug(src, LABEL.copy())[1][0, 1] != LABEL[0, 1] for _ in range(2000))
    assert 0.25 < flips / 2000 < 0.35


def test_random_crop_invariants():
    random.seed(11)
    np.random.seed(11)
    height, width = 60, 80
    src = mx.nd.array(np.random.randint(0, 255, (height, width, 3)), dtype="uint8")
    for moc, ratio, area in ((0.1, (0.75, 1.33), (0.05, 1.0)), (0.5, (0.5, 2.0), (0.3, 0.8)),
                             (0.7, (1.0, 1.0), (0.2, 1.0))):
        aug = image.DetRandomCropAug(min_object_covered=moc, aspect_ratio_range=ratio,
                                     area_range=area, min_eject_coverage=0.3)
        cropped = 0
        for _ in range(150):
            proposal = aug._random_crop_proposal(LABEL, height, width)
            if not proposal:
                continue
            cropped += 1
            x, y, w, h, new = proposal
            assert 0 <= x and x + w <= width and 0 <= y and y + h <= height
            assert area[0] * height * width <= w * h <= area[1] * height * width
            # the aspect ratio is the drawn one up to the rounding of w and h
            assert ratio[0] - 1.0 / h - 0.02 <= w / h <= ratio[1] + 1.0 / h + 0.02
            # every object the window touches keeps more than min_object_covered of its area
            win = np.array([x / width, y / height, (x + w) / width, (y + h) / height])
            boxes = LABEL[:, 1:5]
            inter = np.stack([np.maximum(boxes[:, 0], win[0]), np.maximum(boxes[:, 1], win[1]),
                              np.minimum(boxes[:, 2], win[2]), np.minimum(boxes[:, 3], win[3])], 1)
            cover = _areas(inter) / _areas(boxes)
            assert cover[cover > 1e-5].min() > moc   # (1e-5: a box edge on the window edge)
            # the kept objects: inside [0, 1], valid, more than min_eject_coverage kept
            assert new.shape[1] == LABEL.shape[1] and 1 <= new.shape[0] <= LABEL.shape[0]
            assert (new[:, 1:5] >= 0).all() and (new[:, 1:5] <= 1).all()
            assert (new[:, 3] > new[:, 1]).all() and (new[:, 4] > new[:, 2]).all()
            for row in new:
                orig = LABEL[LABEL[:, 0] == row[0]][0]
                assert _areas(row[None, 1:5])[0] * (w * h) / (width * height) > \
                    0.3 * _areas(orig[None, 1:5])[0] - 1e-6
        assert cropped > 20
        # through __call__: the image is the window
        random.seed(5)
        out, new = aug(src, LABEL.copy())
        random.seed(5)
        x, y, w, h, want = aug._random_crop_proposal(LABEL, height, width)
        np.testing.assert_array_equal(out.asnumpy(), src.asnumpy()[y:y + h, x:x + w])
        np.testing.assert_array_equal(new, want)


def test_random_crop_gives_up():
    # a tiny box that no window over 90% of the image can hold above 0.99 coverage... but an
    # impossible area range makes every attempt fail: the input comes back
    random.seed(1)
    label = _label([[0, 0.0, 0.0, 0.01, 0.01, 0]])
    aug = image.DetRandomCropAug(min_object_covered=0.5, area_range=(0.2, 0.3), max_attempts=5)
    src = mx.nd.zeros((50, 50, 3), dtype="uint8")
    out, new = aug(src, label)
    assert out is src and new is label
    calls = []

    def counting(*args):
        calls.append(args)
        return 1.0
    orig, random.uniform = random.uniform, counting
    try:
        image.DetRandomCropAug(max_attempts=7, aspect_ratio_range=(1.0, 1.0),
                               area_range=(0.2, 0.3))._random_crop_proposal(label, 50, 50)
    finally:
        random.uniform = orig
    assert len(calls) == 7   # one aspect-ratio draw per attempt, max_attempts attempts


def test_random_pad_invariants():
    random.seed(2)
    height, width = 30, 40
    src = mx.nd.array(np.random.randint(0, 255, (height, width, 3)), dtype="uint8")
    for ratio, area in (((0.75, 1.33), (1.0, 3.0)), ((1.0, 2.0), (1.5, 4.0))):
        aug = image.DetRandomPadAug(aspect_ratio_range=ratio, area_range=area, pad_val=(1, 2, 3))
        padded = 0
        for _ in range(200):
            proposal = aug._random_pad_proposal(LABEL, height, width)
            if not proposal:
                continue
            padded += 1
            x, y, w, h, new = proposal
            assert h - height >= 2 and w - width >= 2
            assert 0 <= x <= w - width and 0 <= y <= h - height
            assert h * w <= area[1] * height * width * 1.1 + w + h
            # the boxes cover the same pixels of the canvas
            np.testing.assert_allclose(new[:, (1, 3)] * w, LABEL[:, (1, 3)] * width + x, rtol=1e-5)
            np.testing.assert_allclose(new[:, (2, 4)] * h, LABEL[:, (2, 4)] * height + y, rtol=1e-5)
        assert padded > 100
    random.seed(4)
    out, new = aug(src, LABEL.copy())
    random.seed(4)
    x, y, w, h, _ = aug._random_pad_proposal(LABEL, height, width)
    arr = out.asnumpy()
    assert arr.shape == (h, w, 3)
    np.testing.assert_array_equal(arr[y:y + height, x:x + width], src.asnumpy())
    mask = np.ones((h, w), bool)
    mask[y:y + height, x:x + width] = False
    assert (arr[mask] == [1, 2, 3]).all()


def test_random_select_and_create():
    random.seed(0)
    calls = []

    class Mark(image.DetAugmenter):
        def __init__(self, k):
            super().__init__(k=k)
            self.k = k

        def __call__(self, src, label):
            calls.append(self.k)
            return src, label
    sel = image.DetRandomSelectAug([Mark(0), Mark(1), Mark(2)], skip_prob=0.25)
    for _ in range(4000):
        sel(None, None)
    assert 0.70 < len(calls) / 4000 < 0.80
    counts = np.bincount(calls, minlength=3) / len(calls)
    assert np.all(np.abs(counts - 1 / 3) < 0.05)
    augs = image.CreateDetAugmenter((3, 20, 30), resize=24, rand_crop=0.5, rand_pad=0.3,
                                    rand_mirror=True, mean=True, std=True,
                                    min_object_covered=[0.1, 0.9], area_range=(0.3, 2.0))
    assert [type(a).__name__ for a in augs] == [
        "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomSelectAug",
        "DetBorrowAug", "DetBorrowAug", "DetBorrowAug"]
    crop, pad = augs[1], augs[3]
    assert crop.skip_prob == 0.5 and abs(pad.skip_prob - 0.7) < 1e-12
    assert sorted(a.min_object_covered for a in crop.aug_list) == [0.1, 0.9]
    assert pad.aug_list[0].area_range == (1.0, 2.0)
    # the whole chain on a real image keeps valid boxes and the output shape
    random.seed(9)
    np.random.seed(9)
    src = mx.nd.array(np.random.randint(0, 255, (40, 50, 3)), dtype="uint8")
    for _ in range(30):
        out, label = src, LABEL.copy()
        for aug in augs:
            out, label = aug(out, label)
        assert out.shape == (20, 30, 3) and out.dtype == np.float32
        assert label.shape[1] == 6 and (label[:, 3] > label[:, 1]).all()


# -- ImageDetRecordIter -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", list(GEN.REC_ITER_CASES))
def test_image_det_record_iter_matches_reference(case, folder, g, meta):
    want = meta["rec_iter"][case]
    it = mx.io.ImageDetRecordIter(**GEN.rec_iter_args(case, folder))
    try:
        assert _descs(it.provide_data) == want["provide_data"]
        assert _descs(it.provide_label) == want["provide_label"]
        got = []
        for epoch in range(GEN.REC_ITER_EPOCHS):
            for n, batch in enumerate(it):
                key = f"rec/{case}/{epoch}/{n}"
                got.append([epoch, n, batch.pad, batch.index.tolist()])
                _close(batch.data[0].asnumpy(), g[key + "/data"], key)
                np.testing.assert_array_equal(batch.label[0].asnumpy(), g[key + "/label"],
                                              err_msg=key)
            it.reset()
        assert got == want["batches"]
    finally:
        it.close()


def test_image_det_record_iter_errors(folder, meta):
    rec = str(folder / "det.rec")
    for name, kwargs in (("rec_label_width", dict(label_width=14)),
                         ("rec_label_pad_width", dict(label_pad_width=10))):
        with pytest.raises(MXNetError) as info:
            mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2, **kwargs)
        assert meta["errors"][name][1].split("MXNetError: ")[-1] in str(info.value)
    with pytest.raises(MXNetError, match="data_shape"):
        mx.io.ImageDetRecordIter(path_imgrec=rec, batch_size=2)
    with pytest.raises(MXNetError, match="resize_mode"):
        mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2,
                                 resize_mode="stretch")
    # the augmentation options are checked (their behaviour: tests/io/test_det_record_aug.py)
    with pytest.raises(MXNetError, match="crop_emit_mode"):
        mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2,
                                 rand_crop_prob=0.5, crop_emit_mode="corner")
    with pytest.raises(MXNetError, match="max_crop_trials"):
        mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2,
                                 num_crop_sampler=2, max_crop_trials=(1, 2, 3))


def test_image_det_record_iter_shuffle_and_mirror(folder):
    rec = str(folder / "det.rec")
    plain = mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 12, 12), batch_size=6,
                                     verbose=False)
    base = plain.next()
    by_id = {int(i): (base.data[0].asnumpy()[k], base.label[0].asnumpy()[k])
             for k, i in enumerate(base.index)}
    it = mx.io.ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 12, 12), batch_size=6,
                                  shuffle=True, rand_mirror_prob=0.5, seed=3, verbose=False)
    orders, mirrored = [], 0
    for _ in range(4):
        batch = it.next()
        orders.append(tuple(int(i) for i in batch.index))
        for k, i in enumerate(orders[-1]):
            data, label = batch.data[0].asnumpy()[k], batch.label[0].asnumpy()[k]
            ref_data, ref_label = by_id[i]
            n = int(label[3])
            objs, ref_objs = label[6:4 + n].reshape(-1, 6), ref_label[6:4 + n].reshape(-1, 6)
            if np.allclose(data, ref_data, rtol=1e-5, atol=1e-4):
                np.testing.assert_array_equal(label, ref_label)
            else:
                mirrored += 1
                _close(data, ref_data[:, :, ::-1])
                np.testing.assert_allclose(objs[:, 1], 1 - ref_objs[:, 3], atol=1e-6)
                np.testing.assert_allclose(objs[:, 3], 1 - ref_objs[:, 1], atol=1e-6)
        it.reset()
    assert all(sorted(o) == list(range(6)) for o in orders)
    assert len(set(orders)) > 1
    assert 3 <= mirrored <= 21
    it.close()
    plain.close()


def test_import_does_not_load_pillow():
    import subprocess
    code = ("import sys, mxnet, mxnet.image, mxnet.io; mxnet.image.ImageDetIter; "
            "assert 'PIL' not in sys.modules, 'PIL imported'")
    with warnings.catch_warnings():
        subprocess.run([sys.executable, "-c", code], check=True,
                       cwd=str(Path(__file__).parents[1]))


def test_records_pack_like_reference(tmp_path):
    from mxnet import recordio
    path = str(tmp_path / "det.rec")
    rec = recordio.MXRecordIO(path, "w")
    for i, img in enumerate(GEN.images()):
        rec.write(recordio.pack(recordio.IRHeader(0, GEN.rec_label(i), i, 0), GEN.png_bytes(img)))
    rec.close()
    assert Path(path).read_bytes() == (GOLDEN / "det.rec").read_bytes()


def test_module_aliases():
    assert image.det is image.detection
    assert image.det.ImageDetIter is image.ImageDetIter
    from mxnet.image import CreateDetAugmenter, DetRandomCropAug  # noqa: F401
    assert "ImageDetRecordIter" in mx.io.__all__ and "ImageDetIter" in image.__all__
