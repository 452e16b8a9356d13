"""ImageRecordIter's HSL shift and ImageDetRecordIter's random augmenters draw 1.9.1's numbers (CPU).

Found by experiment with 1.9.1 (preprocess_threads=1):

* ImageRecordIter's ``random_h`` / ``random_s`` / ``random_l``: after the colour jitter and
  before the PCA noise, all three shifts are drawn whenever one is asked for, two canonical
  floats ``a``, ``b`` each, the shift being ``trunc((a + 4 b) / 5 * 2 R - R)``;
* ImageDetRecordIter: one ``std::mt19937`` seeded 233 (``seed`` seeds only the shuffling,
  ``std::mt19937(233 + seed)``) runs on over the images, across passes and through the
  ``mean_img`` pass. Per image: the ``resize`` interpolation, colour (eight floats: the hue,
  saturation, lightness and contrast values, then their four probability checks), the mirror
  check, the expansion (check, scale, x and y offsets), the crop (check, ``std::shuffle`` of
  the samplers, four floats per trial up to the first accepted one), the fitting resize's
  interpolation;
* both: 1.9.1 reads a file 8 MiB at a time (no index file). Shuffling, each chunk is
  shuffled apart (one engine running on), and without ``seed_aug`` its images are augmented in
  file order, then handed out shuffled. With ``seed_aug`` an image's engine is seeded
  ``111 + seed_aug + n``, n its place in its chunk plus the batch's fill level when the chunk
  began (``batch_size`` when shuffling and in the ``mean_img`` pass), or with ``path_imgidx``
  its slot in the batch;
* ImageRecordIter's ``mean_img`` pass draws before the batches (their engine runs on).

The values are CRC32s of the batches (data as float32 bytes, combined with the labels) that
1.9.1 gave on the files built below, and a few of its HSL shifts recovered from its pixels.
"""
import io
import zlib

import numpy as np
import pytest

import mxnet as mx
from mxnet.io.image_record_iter import _hls_draw, _StdEngine


def _png(img):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    return buf.getvalue()


def build_rec(path, idx=None):
    """24 images of 20x20: odd ones noise, even ones smooth colour ramps (with an index file
    when ``idx`` is given)."""
    rs = np.random.RandomState(7)
    w = mx.recordio.MXRecordIO(path, "w") if idx is None else \
        mx.recordio.MXIndexedRecordIO(idx, path, "w")
    for i in range(24):
        if i % 2:
            img = rs.randint(0, 256, (20, 20, 3))
        else:
            y, x = np.mgrid[0:20, 0:20]
            img = (rs.randint(0, 256, 3)[None, None, :]
                   + np.stack([y * 5, x * 7, (x + y) * 3], -1)) % 256
        rec = mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0), _png(img.astype(np.uint8)))
        if idx is None:
            w.write(rec)
        else:
            w.write_idx(i, rec)
    w.close()


def build_det_rec(path, n=30):
    """``n`` noise images of 16x20 (rows x cols) with one to three boxes each."""
    rs = np.random.RandomState(11)
    w = mx.recordio.MXRecordIO(path, "w")
    for i in range(n):
        img = rs.randint(0, 256, (16, 20, 3)).astype(np.uint8)
        objs = []
        for k in range(1 + i % 3):
            x0, y0 = rs.uniform(0, 0.6, 2)
            bw, bh = rs.uniform(0.15, 0.4, 2)
            objs += [float(k), x0, y0, x0 + bw, y0 + bh]
        lab = [2.0, 5.0] + objs
        w.write(mx.recordio.pack(mx.recordio.IRHeader(len(lab), lab, i, 0), _png(img)))
    w.close()


def build_big_rec(path, det):
    """560 noise images of 72x72 (about 8.8 MB: two of 1.9.1's 8 MiB reading chunks), with
    one box each for ``det``."""
    rs = np.random.RandomState(13)
    w = mx.recordio.MXRecordIO(path, "w")
    for i in range(560):
        img = rs.randint(0, 256, (72, 72, 3)).astype(np.uint8)
        x0, y0 = rs.uniform(0, 0.5, 2)
        lab = [2.0, 5.0, float(i % 4), x0, y0, x0 + 0.3, y0 + 0.4] if det else float(i)
        header = mx.recordio.IRHeader(7 if det else 0, lab, i, 0)
        w.write(mx.recordio.pack(header, _png(img)))
    w.close()


def crc(data, label):
    d = zlib.crc32(np.ascontiguousarray(data, np.float32).tobytes())
    lab = zlib.crc32(np.ascontiguousarray(label, np.float32).tobytes())
    return "%08x" % ((d ^ lab << 1) & 0xFFFFFFFF)


def run(it, passes=2):
    out = []
    for _ in range(passes):
        for b in it:
            out.append(crc(b.data[0].asnumpy(), b.label[0].asnumpy()))
        it.reset()
    return out


REC_CONFIGS = [
    {"random_h": 20, "random_s": 100, "random_l": 50},
    {"random_h": 90, "random_s": 127, "random_l": 127, "seed_aug": 3},
    {"random_h": 10, "random_s": 20, "random_l": 30, "rand_crop": True, "rand_mirror": True,
     "brightness": 0.3, "contrast": 0.3, "saturation": 0.3, "pca_noise": 0.2},
    {"random_h": 36, "random_l": 40, "max_rotate_angle": 20, "max_random_scale": 1.2,
     "min_random_scale": 0.9, "rand_mirror": True, "seed_aug": 5},
    {"random_s": 60, "random_resized_crop": True, "min_random_area": 0.4, "rand_mirror": True,
     "max_random_contrast": 0.3, "max_random_illumination": 20},
    # shuffled without seed_aug: 1.9.1 draws in file order, then hands the images out shuffled
    {"random_h": 10, "random_s": 20, "random_l": 30, "rand_crop": True, "rand_mirror": True,
     "brightness": 0.3, "pca_noise": 0.2, "shuffle": True, "seed": 4, "batch_size": 5},
    {"max_rotate_angle": 20, "max_random_scale": 1.2, "min_random_scale": 0.9,
     "rand_mirror": True, "shuffle": True, "seed": 1, "batch_size": 7, "inter_method": 10},
    # seed_aug after a round_batch wrap-around: the chunk read then is numbered from the
    # batch's fill level (here 4)
    {"rand_crop": True, "rand_mirror": True, "seed_aug": 5, "batch_size": 5},
    {"rand_crop": True, "rand_mirror": True, "seed_aug": 5, "batch_size": 5, "shuffle": True,
     "seed": 3},
]
# with path_imgidx: a seed_aug engine is numbered by the image's slot in its batch
REC_IDX_CONFIGS = [
    {"rand_crop": True, "rand_mirror": True, "seed_aug": 3, "batch_size": 5},
    {"rand_crop": True, "rand_mirror": True, "seed_aug": 3, "batch_size": 6, "shuffle": True},
    {"rand_crop": True, "rand_mirror": True, "random_h": 20, "shuffle": True, "seed": 2},
]
# with mean_img computed: its pass draws first (the batches' engine runs on after it; with
# seed_aug its images are numbered from batch_size)
REC_MEAN_CONFIGS = [
    {"rand_crop": True, "rand_mirror": True},
    {"rand_crop": True, "rand_mirror": True, "shuffle": True, "seed": 1},
    {"rand_crop": True, "rand_mirror": True, "seed_aug": 2, "batch_size": 6},
]

DET_FULL = dict(rand_crop_prob=0.8, num_crop_sampler=2, min_crop_scales=(0.3, 0.6),
                max_crop_scales=(0.9, 1.0), min_crop_aspect_ratios=(0.5,),
                max_crop_aspect_ratios=(2.0,), min_crop_overlaps=(0.3, 0.0), rand_pad_prob=0.5,
                max_pad_scale=2.0, rand_mirror_prob=0.5, random_hue_prob=0.5, max_random_hue=18,
                random_saturation_prob=0.5, max_random_saturation=32,
                random_illumination_prob=0.5, max_random_illumination=32,
                random_contrast_prob=0.5, max_random_contrast=0.5)

DET_CONFIGS = [
    {"rand_mirror_prob": 0.5},
    {"random_hue_prob": 0.5, "max_random_hue": 30, "random_saturation_prob": 0.4,
     "max_random_saturation": 40, "random_illumination_prob": 0.6,
     "max_random_illumination": 50, "random_contrast_prob": 0.5, "max_random_contrast": 0.5},
    {"rand_pad_prob": 0.6, "max_pad_scale": 2.5, "fill_value": 30, "rand_mirror_prob": 0.5,
     "data_shape": (3, 32, 32), "resize_mode": "fit"},
    {"rand_crop_prob": 0.8, "num_crop_sampler": 3, "min_crop_scales": (0.3, 0.5, 0.7),
     "max_crop_scales": (0.8, 0.9, 1.0), "min_crop_aspect_ratios": (0.5,),
     "max_crop_aspect_ratios": (2.0,), "min_crop_overlaps": (0.1, 0.0, 0.0),
     "min_crop_object_coverages": (0.0, 0.5, 0.0), "max_crop_trials": (10, 20, 30),
     "data_shape": (3, 32, 32), "resize_mode": "fit"},
    dict(DET_FULL, data_shape=(3, 24, 24), inter_method=10),
    dict(DET_FULL, data_shape=(3, 24, 24), crop_emit_mode="overlap", emit_overlap_thresh=0.5,
         resize=18, resize_mode="shrink"),
    dict(DET_FULL, data_shape=(3, 24, 24), shuffle=True, seed=3),
    dict(DET_FULL, data_shape=(3, 24, 24), shuffle=True, seed=1, batch_size=7),
    dict(DET_FULL, data_shape=(3, 24, 24), shuffle=True, seed=1, batch_size=7,
         round_batch=False),
]
# with mean_img computed (its pass draws from the same engine and, shuffled, is a pass of its own)
DET_MEAN_CONFIGS = [
    {"rand_crop_prob": 0.5, "min_crop_scales": (0.4,), "rand_mirror_prob": 0.5, "batch_size": 7},
    {"rand_mirror_prob": 0.5, "random_hue_prob": 0.5, "max_random_hue": 18, "shuffle": True,
     "seed": 2},
]

# on the 8.8 MB files: each 8 MiB chunk is shuffled apart (one engine running on) and drawn
# in file order
BIG_REC_CONFIG = {"shuffle": True, "seed": 2, "batch_size": 40, "rand_mirror": True,
                  "rand_crop": True, "data_shape": (3, 8, 8)}
BIG_REC_SEED_AUG_CONFIG = {"seed_aug": 5, "batch_size": 50, "rand_mirror": True,
                           "rand_crop": True, "data_shape": (3, 8, 8)}
BIG_DET_CONFIG = {"shuffle": True, "seed": 2, "batch_size": 40, "rand_mirror_prob": 0.5,
                  "rand_crop_prob": 0.5, "data_shape": (3, 72, 72), "resize_mode": "shrink"}


def rec_iter(path, cfg, **extra):
    kw = {"data_shape": (3, 16, 16), "batch_size": 8, **cfg, **extra}
    return mx.io.ImageRecordIter(path_imgrec=path, preprocess_threads=1, verbose=False, **kw)


def det_iter(path, cfg, **extra):
    kw = {"data_shape": (3, 16, 20), "batch_size": 8, **cfg, **extra}
    return mx.io.ImageDetRecordIter(path_imgrec=path, preprocess_threads=1, verbose=False, **kw)


# 1.9.1's CRCs (two passes)
REC_EXPECTED = [
    ["cf332201", "6dc1bcd6", "dd53b296", "ea4cd52c", "5c95d39f", "a9cc010f"],
    ["1279dc9b", "fdfeb948", "4ddcc6c5", "1279dc9b", "fdfeb948", "4ddcc6c5"],
    ["7dff5df8", "f75c0530", "d7d02126", "776b862d", "6e2dee5a", "5b46b93b"],
    ["9fb65f6a", "dbb1d757", "bdf83f0c", "9fb65f6a", "dbb1d757", "bdf83f0c"],
    ["600d7f36", "36e7d52c", "f15f9f4e", "5952b30b", "37674827", "c3e3c7ed"],
    ["c2c60e6d", "ae090310", "3cb46fe6", "590500c1", "a1c7de78", "22eddcc9", "927368a0",
     "521cbfa3", "d30aed0b", "ce79685a"],
    ["872d82a2", "dc81fa8f", "51bd875f", "ce1e42d9", "e1e49412", "aacaa727", "a28cf42c"],
    ["bad9cc87", "f4a054e0", "0976d439", "a5ea2817", "8b647dd3", "604d3e70", "29051189",
     "9270ed95", "57768e9d", "e496876e"],
    ["d7f2e4b6", "e30ea475", "48a6fc2a", "3aa16cba", "71560f79", "e24d90d1", "656ef55b",
     "32b12beb", "81a2131b", "751817a5"],
]
DET_EXPECTED = [
    ["893c8f6c", "c2af96c9", "7168669a", "78013b92", "be21cdeb", "d5f313c7", "b8d074e5",
     "9e7802fc"],
    ["4fdd513c", "3247b65a", "b9c89975", "49433d95", "d181c272", "9acc6e73", "25998c06",
     "debbd796"],
    ["969ae393", "bd1f4f9b", "26f0ea7c", "6bd8492d", "670a95ba", "9f91d999", "1682aa47",
     "e2ac8755"],
    ["bbdbe1e4", "16685682", "8979d6a5", "1de963f3", "056863ea", "ac6f17d5", "05a12389",
     "43933e71"],
    ["21d65476", "5bcca1cc", "e821349e", "d7f8bbb9", "a1046b4b", "a83b0e6a", "57a693ea",
     "2e70d4ff"],
    ["251b87de", "be69cc3e", "18cc27a2", "b42a7d8d", "b3034580", "99bb9248", "cb635618",
     "3a8f563d"],
    ["15978e6f", "f655d2e2", "efc1853d", "f63f36a3", "0f5c1400", "e3b0a6c9", "b9a7cca0",
     "ab36d46d"],
    ["07ecf3f7", "62883176", "63590adb", "320caefd", "032761bf", "3a11db2c", "c45d9165",
     "cbe88ff9", "2af535fb"],
    ["07ecf3f7", "62883176", "63590adb", "320caefd", "13b70982", "3e66c95c", "78ea675f",
     "71db5c12", "202bbe11", "14c33eac"],
]
DET_MEAN_EXPECTED = [
    ["a5e54677", "8b2e5547", "73fec7bc", "877432ac", "86855d34", "c34a6636", "62eeb2a5",
     "e7161c95", "bc69a4f3", "a549a6f7"],
    ["654c8616", "ce368022", "ea46d223", "aff6d6de", "af3e1f65", "528fbd0f", "a3ac1517",
     "fa0f1604", "981e98f4"],
]
REC_IDX_EXPECTED = [
    ["2d65cf7d", "54c2fd81", "f0f8f189", "89d59109", "e621f1f2", "81c684ab", "6342069a",
     "ec56f27c", "06a31623", "b94260aa"],
    ["a4b56dd5", "83d8a1be", "1a1f372b", "eb07d9d6", "c6f565e1", "48fe13f5", "1c86ab7e",
     "54ec2c85"],
    ["1db97c66", "3ee39629", "e6d16389", "d2322416", "9b492ec2", "ad7368dc"],
]
REC_MEAN_EXPECTED = [
    ["c5b71175", "a8fad7a2", "a4b2cd73", "dd7bfb91", "c0c7a9c1", "4f41e2de", "19ff7e2d"],
    ["c5b71175", "2b25af73", "17357502", "27bb8bef", "d9bc268c", "8258b727", "83cf93c9"],
    ["d008bfb4", "e5a5e5ac", "1c821a1b", "3c6b99f4", "f50c5b71", "e5a5e5ac", "1c821a1b",
     "3c6b99f4", "f50c5b71"],
]
BIG_REC_SEED_AUG_EXPECTED = \
    ["5e978bb2", "e7bb2e01", "5f6f08d3", "77eea0f3", "dc63e923", "d937022c", "d76b63fa",
     "77892eeb", "1ed9073e", "36a71977", "b78813ce", "4caca5a8"]
BIG_REC_EXPECTED = \
    ["3bc31557", "0726bf73", "759c684b", "a0c65808", "82e779f6", "1506ca49", "9ee470be",
     "94e0f6f0", "96ff9883", "4e9c6249", "772c65f1", "8d7440d5", "f9bcea30", "5aa5bead",
     "f2b51dec", "c1093503", "00a5243e", "7976de9e", "ff2693a9", "4d9ccc1e", "6eafc21f",
     "b94b9b48", "415d73ed", "2360a5b3", "c2c02412", "c9e4ec67", "c16e3e33", "dd46f8cd"]
BIG_DET_EXPECTED = \
    ["de6de907", "92b31f45", "a6104b3b", "73da4ded", "f0632238", "860769ab", "0f0efb8c",
     "3c8a1b4b", "5313999c", "3622d2a3", "f5ae0fea", "e252c042", "dabc7d84", "e622a4ce",
     "9e4beeab", "16e9d7c1", "51ecf2b8", "10f53ee1", "cac92293", "ff6d558e", "79fea7a9",
     "b9ef6e9f", "66ee6f64", "a920e055", "b8924736", "c6ddde72", "7a7736de", "437903c0"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    pytest.importorskip("PIL.Image")
    d = tmp_path_factory.mktemp("iteraug2")
    build_rec(str(d / "t.rec"))
    build_rec(str(d / "i.rec"), str(d / "i.idx"))
    build_det_rec(str(d / "det.rec"))
    return d


@pytest.mark.parametrize("i", range(len(REC_CONFIGS)))
def test_image_record_iter_hsl_equals_191(files, i):
    assert run(rec_iter(str(files / "t.rec"), REC_CONFIGS[i])) == REC_EXPECTED[i]


@pytest.mark.parametrize("i", range(len(REC_IDX_CONFIGS)))
def test_image_record_iter_with_index_equals_191(files, i):
    it = rec_iter(str(files / "i.rec"), REC_IDX_CONFIGS[i], path_imgidx=str(files / "i.idx"))
    assert run(it) == REC_IDX_EXPECTED[i]


@pytest.mark.parametrize("i", range(len(REC_MEAN_CONFIGS)))
def test_image_record_iter_mean_img_pass_equals_191(files, tmp_path, i):
    path = str(tmp_path / "mean.nd")
    got = run(rec_iter(str(files / "t.rec"), REC_MEAN_CONFIGS[i], mean_img=path))
    mean = mx.nd.load(path)["mean_img"].asnumpy()
    assert [crc(mean, np.zeros(1))] + got == REC_MEAN_EXPECTED[i]


@pytest.mark.parametrize("i", range(len(DET_CONFIGS)))
def test_image_det_record_iter_augmenters_equal_191(files, i):
    assert run(det_iter(str(files / "det.rec"), DET_CONFIGS[i])) == DET_EXPECTED[i]


@pytest.mark.parametrize("i", range(len(DET_MEAN_CONFIGS)))
def test_image_det_record_iter_mean_img_pass_equals_191(files, tmp_path, i):
    path = str(tmp_path / "mean.nd")
    got = run(det_iter(str(files / "det.rec"), DET_MEAN_CONFIGS[i], mean_img=path))
    mean = mx.nd.load(path)["mean_img"].asnumpy()
    assert [crc(mean, np.zeros(1))] + got == DET_MEAN_EXPECTED[i]


def test_hsl_draws_are_191s():
    # the hue shifts (random_h=90) 1.9.1 applied to the first image of a file with
    # seed_aug=0, 1, ... (engine seeds 111, 112, ...), recovered from its pixels
    assert [_hls_draw(_StdEngine(111 + i), 90) for i in range(8)] == \
        [-50, 25, -41, -66, -40, 6, 40, -39]
    # the saturation shift (random_s=127, the second pair of floats) of engine seed 155926,
    # where ``u = 0.2 a + 0.8 b`` evaluated in float32 would give 99
    e = _StdEngine(155926)
    _hls_draw(e, 0)
    assert _hls_draw(e, 127) == 98
    # the shift stays within [-R, R]
    e = _StdEngine(1)
    v = [_hls_draw(e, 7) for _ in range(2000)]
    assert -7 <= min(v) < 0 < max(v) <= 7


def test_det_seed_does_not_change_the_draws(files):
    cfg = dict(DET_FULL, data_shape=(3, 24, 24))
    a = run(det_iter(str(files / "det.rec"), cfg, seed=1), passes=1)
    b = run(det_iter(str(files / "det.rec"), cfg, seed=9), passes=1)
    assert a == b


@pytest.fixture(scope="module")
def big_files(tmp_path_factory):
    pytest.importorskip("PIL.Image")
    d = tmp_path_factory.mktemp("iteraug2big")
    build_big_rec(str(d / "big.rec"), det=False)
    build_big_rec(str(d / "bigdet.rec"), det=True)
    return d


def test_big_file_shuffle_and_draws_equal_191(big_files):
    got = run(rec_iter(str(big_files / "big.rec"), BIG_REC_CONFIG))
    assert got == BIG_REC_EXPECTED
    got = run(det_iter(str(big_files / "bigdet.rec"), BIG_DET_CONFIG))
    assert got == BIG_DET_EXPECTED
    # seed_aug without shuffling: each chunk is numbered from the batch's fill level
    got = run(rec_iter(str(big_files / "big.rec"), BIG_REC_SEED_AUG_CONFIG), passes=1)
    assert got == BIG_REC_SEED_AUG_EXPECTED


def test_read_chunks_rule():
    from mxnet.io.image_record_iter import _read_chunks
    mib8 = 8 << 20
    # records of 3 MiB: two start in the first 8 MiB read, the second one begins the next read
    offsets = [k * (3 << 20) for k in range(7)]
    assert _read_chunks(offsets, 7 * (3 << 20)) == [(0, 2), (2, 4), (4, 6), (6, 7)]
    # a read that reaches the end keeps everything
    assert _read_chunks([0, 100, 200], 300) == [(0, 3)]
    assert _read_chunks([0, mib8 - 4, mib8 + 8], mib8 + 16) == [(0, 1), (1, 3)]


# -- a reset straight after the constructor, on a shuffled file of several chunks ---------------
# The loader thread reads ahead a varying number of batches (and so draws a varying number of
# chunks) before the reset stops it: the pass left early still spends the draws of all its
# chunks, so the next pass is the one a full first pass gives, whatever the timing.
EARLY_RESET_REC = {"shuffle": True, "seed": 4, "rand_crop": True, "rand_mirror": True,
                   "brightness": 0.3, "data_shape": (3, 12, 12), "batch_size": 6,
                   "prefetch_buffer": 3}
EARLY_RESET_DET = {"shuffle": True, "seed": 4, "rand_mirror_prob": 0.5, "rand_crop_prob": 0.5,
                   "min_crop_scales": (0.4,), "batch_size": 5, "prefetch_buffer": 3}


def _early_reset_runs(make, wait):
    import time
    it = make()
    time.sleep(wait)   # lets the loader thread read more or less ahead
    it.reset()
    got = [crc(b.data[0].asnumpy(), b.label[0].asnumpy()) for b in it]
    it.close()
    return got


def test_early_reset_on_shuffled_chunks_is_reproducible(files, monkeypatch):
    from mxnet.io import image_record_iter
    monkeypatch.setattr(image_record_iter, "_CHUNK_BYTES", 4096)   # several chunks
    rec, det = str(files / "t.rec"), str(files / "det.rec")
    src = image_record_iter._RecordSource(rec, "", 1, 0, True, 4)
    assert len(src.chunks) >= 4
    src.close()
    for make in (lambda: rec_iter(rec, EARLY_RESET_REC), lambda: det_iter(det, EARLY_RESET_DET),
                 lambda: rec_iter(rec, EARLY_RESET_REC, shuffle=False),
                 lambda: det_iter(det, EARLY_RESET_DET, shuffle=False)):
        full = make()
        both = run(full)
        full.close()
        want = both[len(both) // 2:]   # the second pass after a full first one
        for wait in (0, 0.02, 0, 0.1, 0):
            assert _early_reset_runs(make, wait) == want


# 1.9.1's second pass after a reset in mid-pass (after 1 or 2 batches) on the one-chunk files:
# it augments the whole chunk, so the pass left early spends all its draws
EARLY_RESET_EXPECTED = {
    ("rec", False): ["9a2dcfc3", "d993c17a", "873d5233", "45751deb"],
    ("rec", True): ["b3d4fd49", "78ba6b9e", "b643b121", "77c89a22"],
    ("det", False): ["65fa0d1e", "562eb914", "3c042d15", "699b9ffd", "6c9d8de7", "764f071a"],
    ("det", True): ["cf162692", "676c99c3", "80ad8648", "5bfbb337", "c9314310", "9da1ac16"],
}


@pytest.mark.parametrize("kind,shuffle", sorted(EARLY_RESET_EXPECTED))
def test_reset_in_mid_pass_equals_191(files, kind, shuffle):
    import time
    for batches, wait in ((1, 0), (1, 0.05), (2, 0), (1, 0)):
        if kind == "rec":
            it = rec_iter(str(files / "t.rec"), EARLY_RESET_REC, shuffle=shuffle)
        else:
            it = det_iter(str(files / "det.rec"), EARLY_RESET_DET, shuffle=shuffle)
        for _ in range(batches - 1):
            it.next()
        time.sleep(wait)
        it.reset()
        got = [crc(b.data[0].asnumpy(), b.label[0].asnumpy()) for b in it]
        it.close()
        assert got == EARLY_RESET_EXPECTED[kind, shuffle], (batches, wait)


def test_reset_in_mid_pass_with_index_is_reproducible(files):
    # 1.9.1 varies here (with an index file it reads a batch at a time, a timing-dependent
    # number ahead); ours spends the rest of the pass, as a full pass does
    rec, idx = str(files / "i.rec"), str(files / "i.idx")
    make = lambda: rec_iter(rec, EARLY_RESET_REC, path_imgidx=idx)   # noqa: E731
    full = make()
    both = run(full)
    full.close()
    for wait in (0, 0.05, 0):
        assert _early_reset_runs(make, wait) == both[len(both) // 2:]


def test_early_reset_spending_is_bounded_by_file_size():
    # spending the rest of a pass left early reads its remaining headers: only for files (or
    # parts) of up to _SPEND_MAX_BYTES
    from mxnet.io import image_record_iter as iri

    class Src:
        begin, end = 0, iri._SPEND_MAX_BYTES

    assert iri._spend_allowed(Src)
    Src.end += 1
    assert not iri._spend_allowed(Src)
