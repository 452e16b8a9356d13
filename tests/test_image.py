"""mx.image functions, augmenters and ImageIter against 1.9.1 (tools/golden/gen_recordio_image.py)."""
import json
import random
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet import image
from mxnet.base import MXNetError

from ._scripts import load_script

GOLDEN = Path(__file__).parent / "golden" / "recordio"


GEN = load_script("tools/golden/gen_recordio_image.py", "_gen_recordio_image")


@pytest.fixture(scope="module")
def meta():
    return json.loads((GOLDEN / "golden.json").read_text())


@pytest.fixture(scope="module")
def g():
    with np.load(GOLDEN / "golden.npz") as data:
        return dict(data)


def png_bytes(img):
    img = np.asarray(img, np.uint8)
    h, w = img.shape[:2]
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    head = struct.pack(">IIBBBBB", w, h, 8, 2 if img.ndim == 3 else 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def u8(g, name="fn/u8"):
    return mx.nd.array(g[name], dtype="uint8")


# -- decoding --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pil():
    return pytest.importorskip("PIL")


def test_imdecode_png(g, pil):
    src = g["src/0"]
    png = png_bytes(src)
    out = image.imdecode(png)
    assert out.dtype == np.uint8 and out.shape == src.shape and out.context == mx.cpu()
    np.testing.assert_array_equal(out.asnumpy(), g["dec/png/rgb"])
    np.testing.assert_array_equal(image.imdecode(png, to_rgb=False).asnumpy(), g["dec/png/bgr"])
    np.testing.assert_array_equal(image.imdecode(png, flag=0).asnumpy(), g["dec/png/gray"])
    gray = png_bytes(g["src/1"][:, :, 0])
    np.testing.assert_array_equal(image.imdecode(gray).asnumpy(), g["dec/graypng/color"])
    np.testing.assert_array_equal(image.imdecode(gray, 0).asnumpy(), g["dec/graypng/gray"])
    # bytearray, NumPy and NDArray buffers
    np.testing.assert_array_equal(image.imdecode(np.frombuffer(png, np.uint8)).asnumpy(), src)
    np.testing.assert_array_equal(image.imdecode(mx.nd.array(np.frombuffer(png, np.uint8))).asnumpy(),
                                  src)
    out = mx.nd.zeros(src.shape, dtype="uint8")
    assert image.imdecode(bytearray(png), out=out) is out
    np.testing.assert_array_equal(out.asnumpy(), src)


def test_imdecode_jpeg_and_imread(g, pil):
    jpeg = (GOLDEN / "sample.jpg").read_bytes()
    for key, got in [("rgb", image.imdecode(jpeg)), ("gray", image.imdecode(jpeg, 0)),
                     ("bgr", image.imdecode(jpeg, 1, False)),
                     ("imread", image.imread(str(GOLDEN / "sample.jpg")))]:
        diff = np.abs(got.asnumpy().astype(int) - g[f"dec/jpg/{key}"])
        assert got.shape == g[f"dec/jpg/{key}"].shape and diff.max() <= 2, key


def test_imdecode_errors(pil):
    with pytest.raises(ValueError, match="bytes"):
        image.imdecode("a string")
    with pytest.raises(MXNetError, match="empty"):
        image.imdecode(b"")
    with pytest.raises(MXNetError, match="decoding failed"):
        image.imdecode(b"garbage")
    with pytest.raises(MXNetError, match="flag"):
        image.imdecode(png_bytes(np.zeros((2, 2, 3))), flag=-1)
    with pytest.raises(MXNetError, match="cannot read"):
        image.imread("/nonexistent/x.png")


# -- deterministic functions -----------------------------------------------------------------------
def test_imresize(g):
    x, xf = u8(g), mx.nd.array(g["fn/f32"])
    for w, h in [(5, 4), (15, 13), (11, 5)]:
        for interp in range(5):
            out = image.imresize(x, w, h, interp=interp)
            assert out.dtype == np.uint8
            np.testing.assert_array_equal(out.asnumpy(), g[f"fn/imresize/{w}x{h}/{interp}"],
                                          err_msg=f"{w}x{h} interp {interp}")
        for interp in (1, 2):
            np.testing.assert_allclose(image.imresize(xf, w, h, interp).asnumpy(),
                                       g[f"fn/imresize_f32/{w}x{h}/{interp}"], rtol=1e-5, atol=1e-3)
    with pytest.raises(MXNetError, match="interp"):
        image.imresize(x, 3, 3, interp=7)


def test_resize_short_and_crops(g, meta):
    x = u8(g)
    for size in (6, 14):
        for interp in (1, 2, 9):
            np.testing.assert_array_equal(image.resize_short(x, size, interp).asnumpy(),
                                          g[f"fn/resize_short/{size}/{interp}"])
    np.testing.assert_array_equal(image.fixed_crop(x, 1, 2, 5, 4).asnumpy(), g["fn/fixed_crop/plain"])
    np.testing.assert_array_equal(image.fixed_crop(x, 1, 2, 5, 4, size=(8, 6), interp=1).asnumpy(),
                                  g["fn/fixed_crop/sized"])
    boxes = meta["boxes"]
    for name, size in [("small", (6, 5)), ("big", (20, 10)), ("tall", (4, 12))]:
        out, box = image.center_crop(x, size)
        assert list(box) == boxes[f"center_crop/{name}"]
        np.testing.assert_array_equal(out.asnumpy(), g[f"fn/center_crop/{name}"])
    for seed in (5, 6):
        random.seed(seed)
        out, box = image.random_crop(x, (6, 5))
        assert list(box) == boxes[f"random_crop/{seed}"]
        np.testing.assert_array_equal(out.asnumpy(), g[f"fn/random_crop/{seed}"])
        random.seed(seed)
        out, box = image.random_size_crop(x, (7, 7), 0.3, (0.75, 1.333))
        assert list(box) == boxes[f"random_size_crop/{seed}"]
        np.testing.assert_array_equal(out.asnumpy(), g[f"fn/random_size_crop/{seed}"])
        random.seed(seed)
        out, box = image.random_size_crop(x, (5, 6), (0.1, 0.5), (0.5, 2.0), interp=1)
        assert list(box) == boxes[f"random_size_crop2/{seed}"]
        np.testing.assert_array_equal(out.asnumpy(), g[f"fn/random_size_crop2/{seed}"])
    random.seed(1)
    out, box = image.random_size_crop(x, (5, 5), (2.0, 3.0), (1.0, 1.0))
    assert list(box) == boxes["random_size_crop/fallback"]
    np.testing.assert_array_equal(out.asnumpy(), g["fn/random_size_crop/fallback"])
    for src, size, want in meta["scale_down"]:
        assert list(image.scale_down(tuple(src), tuple(size))) == want


def test_color_normalize(g):
    src = mx.nd.array(g["fn/f32"])
    out = image.color_normalize(src, mx.nd.array([100.0, 110.0, 120.0]), mx.nd.array([50.0, 60.0, 70.0]))
    assert out is src
    np.testing.assert_allclose(out.asnumpy(), g["fn/color_normalize"], rtol=1e-6, atol=1e-6)


def test_copy_make_border(g):
    x, small = u8(g), mx.nd.array(g["fn/u8"][:3, :4], dtype="uint8")
    for t in range(5):
        np.testing.assert_array_equal(image.copyMakeBorder(x, 1, 2, 3, 4, type=t).asnumpy(),
                                      g[f"fn/border/{t}"], err_msg=f"type {t}")
        np.testing.assert_array_equal(image.copyMakeBorder(small, 5, 4, 9, 10, type=t).asnumpy(),
                                      g[f"fn/border_big/{t}"], err_msg=f"big, type {t}")
    np.testing.assert_array_equal(image.copyMakeBorder(x, 2, 1, 1, 2, value=7.6).asnumpy(),
                                  g["fn/border/value"])
    np.testing.assert_array_equal(image.copyMakeBorder(x, 2, 1, 1, 2, values=(1, 2, 300)).asnumpy(),
                                  g["fn/border/values3"])
    # 1.9.1 leaves the channels after a short ``values`` uninitialised; here they take ``value``
    out = image.copyMakeBorder(x, 2, 1, 1, 2, value=4, values=(9,)).asnumpy()
    np.testing.assert_array_equal(out[0, 0], [9, 4, 4])
    np.testing.assert_array_equal(
        image.copyMakeBorder(mx.nd.array(g["fn/f32"]), 1, 1, 2, 2, value=-3.5).asnumpy(),
        g["fn/border/f32"])


def test_imrotate_shapes():
    x = mx.nd.array(np.random.RandomState(0).rand(3, 6, 6).astype(np.float32))
    out = image.imrotate(x, 90)
    assert out.shape == (3, 6, 6)
    np.testing.assert_allclose(out.asnumpy(), np.rot90(x.asnumpy(), k=1, axes=(1, 2)), atol=1e-5)
    assert image.random_rotate(mx.nd.stack(x, x), (-10, 10)).shape == (2, 3, 6, 6)
    with pytest.raises(TypeError, match="float32"):
        image.imrotate(x.astype("uint8"), 10)


# -- augmenters ------------------------------------------------------------------------------------
EIGVAL = np.array([55.46, 4.794, 1.148])
EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                   [-0.5836, -0.6948, 0.4203]])


def aug_cases():
    return {
        "resize": (image.ResizeAug(7), "u8"),
        "resize_interp1": (image.ResizeAug(15, 1), "u8"),
        "force_resize": (image.ForceResizeAug((5, 9)), "u8"),
        "force_resize9": (image.ForceResizeAug((20, 14), 9), "u8"),
        "random_crop": (image.RandomCropAug((6, 6)), "u8"),
        "random_sized_crop": (image.RandomSizedCropAug((8, 8), 0.3, (0.75, 1.33)), "u8"),
        "center_crop": (image.CenterCropAug((7, 5)), "u8"),
        "brightness": (image.BrightnessJitterAug(0.4), "f32"),
        "contrast": (image.ContrastJitterAug(0.4), "f32"),
        "saturation": (image.SaturationJitterAug(0.4), "f32"),
        "hue": (image.HueJitterAug(0.4), "f32"),
        "color_jitter": (image.ColorJitterAug(0.3, 0.3, 0.3), "f32"),
        "lighting": (image.LightingAug(0.5, EIGVAL, EIGVEC), "f32"),
        "normalize": (image.ColorNormalizeAug(mx.nd.array([1.0, 2.0, 3.0]), np.array([2.0, 3.0, 4.0])),
                      "f32"),
        "gray": (image.RandomGrayAug(1.0), "f32"),
        "nogray": (image.RandomGrayAug(0.0), "f32"),
        "flip": (image.HorizontalFlipAug(1.0), "u8"),
        "cast": (image.CastAug(), "u8"),
        "cast_f64": (image.CastAug("float64"), "u8"),
        "order": (image.RandomOrderAug([image.BrightnessJitterAug(0.2), image.CastAug("float32"),
                                        image.SaturationJitterAug(0.2)]), "f32"),
    }


def test_augmenters_match_reference(g, meta):
    sources = {"u8": u8(g, "aug/u8"), "f32": mx.nd.array(g["aug/f32"])}
    for name, (aug, src) in aug_cases().items():
        random.seed(8)
        np.random.seed(8)
        out = aug(sources[src].copy())
        want = g[f"aug/out/{name}"]
        assert out.shape == want.shape and out.dtype == want.dtype, name
        if want.dtype == np.uint8:
            np.testing.assert_array_equal(out.asnumpy(), want, err_msg=name)
        else:
            np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-3, err_msg=name)
        assert aug.dumps() == meta["dumps"][name], name


def test_create_augmenter_matches_reference(g, meta):
    created = {
        "plain": dict(data_shape=(3, 8, 8)),
        "full": dict(data_shape=(3, 6, 7), resize=9, rand_crop=True, rand_resize=True,
                     rand_mirror=True, mean=True, std=True, brightness=0.2, contrast=0.2,
                     saturation=0.2, hue=0.1, pca_noise=0.1, rand_gray=0.5, inter_method=1),
        "crop": dict(data_shape=(3, 5, 6), rand_crop=True, mean=np.array([10.0, 20.0, 30.0]),
                     std=mx.nd.array([2.0])),
    }
    for name, kw in created.items():
        augs = image.CreateAugmenter(**kw)
        assert [a.dumps() for a in augs] == meta["dumps"][f"create/{name}"], name
        random.seed(21)
        np.random.seed(21)
        x = u8(g, "aug/u8")
        for a in augs:
            x = a(x)
        np.testing.assert_allclose(x.asnumpy(), g[f"aug/create/{name}"], rtol=1e-5, atol=1e-4,
                                   err_msg=name)
    with pytest.raises(ValueError, match="rand_crop"):
        image.CreateAugmenter((3, 4, 4), rand_resize=True)
    with pytest.raises(ValueError, match="mean"):
        image.CreateAugmenter((3, 4, 4), mean=[1, 2, 3])


def test_augmenter_statistics():
    rs = np.random.RandomState(0)
    src = mx.nd.array(rs.uniform(0, 255, (32, 32, 3)).astype(np.float32))
    random.seed(0)
    flips = sum(bool((image.HorizontalFlipAug(0.5)(src).asnumpy() != src.asnumpy()).any())
                for _ in range(200))
    assert 70 < flips < 130
    out = image.SaturationJitterAug(0.0)(src.copy())  # alpha = 1: unchanged
    np.testing.assert_allclose(out.asnumpy(), src.asnumpy(), rtol=1e-6)
    gray = image.RandomGrayAug(1.0)(src).asnumpy()
    np.testing.assert_allclose(gray[..., 0], gray[..., 2], rtol=1e-6)
    contrast = image.ContrastJitterAug(0.5)
    for _ in range(5):  # blending with the mean luma keeps the mean luma
        out = contrast(src.copy()).asnumpy()
        luma = lambda a: (a * [0.299, 0.587, 0.114]).sum(axis=2).mean()  # noqa: E731
        assert abs(luma(out) - luma(src.asnumpy())) < 1e-2
    crop = image.RandomSizedCropAug((10, 12), (0.08, 1.0), (0.75, 1.33))
    assert all(crop(src).shape == (12, 10, 3) for _ in range(10))
    with pytest.raises(NotImplementedError):
        image.Augmenter()(src)


# -- ImageIter -------------------------------------------------------------------------------------
@pytest.fixture
def iter_folder(tmp_path, pil):
    pytest.importorskip("mxnet.io")
    GEN.prepare_iter_folder(tmp_path)
    return tmp_path


@pytest.mark.parametrize("case", list(GEN.ITER_CASES))
def test_image_iter_matches_reference(case, iter_folder, g, meta):
    want = meta["iter"][case]
    random.seed(13)
    np.random.seed(13)
    it = image.ImageIter(**GEN.iterator_args(case, iter_folder))
    for got, ref in ((it.provide_data, want["provide_data"]), (it.provide_label, want["provide_label"])):
        assert [(d[0], tuple(d[1])) for d in got] == [(n, tuple(s)) for n, s in ref]
    pads = []
    for epoch in range(3):
        for n, batch in enumerate(it):
            pads.append([epoch, n, batch.pad])
            np.testing.assert_allclose(batch.data[0].asnumpy(), g[f"iter/{case}/{epoch}/{n}/data"],
                                       rtol=1e-5, atol=1e-4, err_msg=f"{epoch}/{n}")
            np.testing.assert_array_equal(batch.label[0].asnumpy(),
                                          g[f"iter/{case}/{epoch}/{n}/label"])
        it.reset()
    assert pads == want["pads"]


def test_image_iter_errors(iter_folder):
    rec = str(iter_folder / "images.rec")
    with pytest.raises(ValueError, match="path_imgrec"):
        image.ImageIter(2, (3, 4, 4))
    with pytest.raises(ValueError, match="3 channels"):
        image.ImageIter(2, (1, 4, 4), path_imgrec=rec)
    with pytest.raises(ValueError, match="path_imgidx"):
        image.ImageIter(2, (3, 4, 4), path_imgrec=rec, shuffle=True)
    bad = iter_folder / "bad.rec"
    from mxnet import recordio
    with recordio.MXRecordIO(str(bad), "w") as w:
        w.write(recordio.pack((0, 1.0, 0, 0), b"not an image"))
    it = image.ImageIter(1, (3, 4, 4), path_imgrec=str(bad))
    with pytest.raises(RuntimeError, match="Broken image index"):
        it.next()
