"""gluon.data.vision: image kernels and transforms against 1.9.1, and the file datasets.

Golden values come from tests/golden/gluon_data.npz (tools/golden/gen_gluon_data.py, 1.9.1).
Dataset files are generated in tmp folders in the real formats; nothing is downloaded.
"""
from __future__ import annotations

import gzip
import inspect
import json
import os
import struct
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.gluon.data import DataLoader, vision
from mxnet.gluon.data.vision import _image
from mxnet.gluon.data.vision import transforms as T

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "gluon_data.npz"
RESIZE_CASES = [((5, 4), (0, 1, 2, 3, 4)), ((26, 18), (0, 1, 2, 3, 4)), ((6, 4), (1, 3)),
                ((20, 7), (1, 2)), ((13, 9), (1,)), ((1, 1), (1, 2))]


@pytest.fixture(scope="module")
def golden():
    g = np.load(GOLDEN)
    return g, json.loads(str(g["json"]))


def nd(a):
    return mx.nd.array(a, dtype=a.dtype)


# -- deterministic kernels and transforms ----------------------------------------------------------
@pytest.mark.parametrize("src", ["u8", "f32", "odd"])
def test_resize_matches_opencv_numbers(golden, src):
    g, _ = golden
    img = g[f"img/{src}"]
    for (w, h), interps in RESIZE_CASES:
        for interp in interps:
            ref = g[f"resize/{src}/{w}x{h}/{interp}"]
            out = T.Resize((w, h), interpolation=interp)(nd(img)).asnumpy()
            assert out.dtype == ref.dtype and out.shape == ref.shape
            if img.dtype == np.uint8 or interp in (0, 1, 2):
                np.testing.assert_array_equal(out, ref, err_msg=f"{w}x{h} interp={interp}")
            else:  # float area / Lanczos: OpenCV's SIMD summation order differs by an ulp
                np.testing.assert_allclose(out, ref, rtol=2e-6, atol=1e-4)


def test_resize_keep_ratio_sizes_and_batches(golden):
    _, meta = golden
    for shape, size, expect in meta["keep_ratio"]:
        out = T.Resize(size if isinstance(size, int) else tuple(size), keep_ratio=True)(
            mx.nd.zeros(tuple(shape), dtype="uint8"))
        assert list(out.shape) == expect
    batch = np.stack([np.arange(48, dtype=np.uint8).reshape(4, 4, 3)] * 2)
    out = T.Resize(2)(nd(batch))
    assert out.shape == (2, 2, 2, 3)
    np.testing.assert_array_equal(out.asnumpy()[0], _image.resize(batch[0], 2, 2, 1))
    with pytest.raises(ValueError, match="Unknown interp"):
        T.Resize(3, interpolation=7)(nd(batch[0]))


def test_to_tensor_and_normalize(golden):
    g, _ = golden
    u8 = g["img/u8"]
    t = T.ToTensor()(nd(u8))
    assert t.dtype == np.float32
    np.testing.assert_array_equal(t.asnumpy(), g["op/to_tensor_u8"])
    batch = T.ToTensor()(nd(np.stack([u8, u8[::-1]])))
    np.testing.assert_array_equal(batch.asnumpy(), g["op/to_tensor_batch"])
    norm = T.Normalize(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225))(t)
    np.testing.assert_array_equal(norm.asnumpy(), g["op/normalize3"])
    np.testing.assert_array_equal(T.Normalize(0.5, 0.25)(t).asnumpy(), g["op/normalize1"])
    stacked = mx.nd.stack(t, t * 0.5)
    np.testing.assert_array_equal(T.Normalize((0.1, 0.2, 0.3), (0.3, 0.2, 0.1))(stacked).asnumpy(),
                                  g["op/normalize_batch"])
    with pytest.raises(ValueError, match="1 or 3 elements"):
        T.Normalize((0.1, 0.2), (1, 1))(t)


def test_crops_match_reference(golden):
    g, _ = golden
    u8 = nd(g["img/u8"])
    for size in ((5, 4), (13, 9), (20, 12), (4, 12)):
        out = T.CenterCrop(size)(u8)
        np.testing.assert_array_equal(out.asnumpy(), g[f"op/center_crop/{size[0]}x{size[1]}"])
    np.testing.assert_array_equal(T.CropResize(3, 2, 6, 5, size=(4, 3))(u8).asnumpy(),
                                  g["op/crop_resize"])
    assert T.CropResize(1, 1, 4, 3)(u8).shape == (3, 4, 3)
    assert T.CenterCrop(5)(u8).shape == (5, 5, 3)


def test_rotate_matches_reference(golden):
    g, _ = golden
    chw = T.ToTensor()(nd(g["img/u8"]))
    cases = {"30": T.Rotate(30)(chw), "in": T.Rotate(-50, zoom_in=True)(chw),
             "out": T.Rotate(75, zoom_out=True)(chw),
             "batch": T.Rotate(mx.nd.array([10, -100]))(mx.nd.stack(chw, chw * 0.5))}
    for name, out in cases.items():
        np.testing.assert_allclose(out.asnumpy(), g[f"op/rotate/{name}"], atol=2e-6, err_msg=name)
    with pytest.raises(TypeError, match="only supports float32"):
        T.Rotate(10)(nd(g["img/u8"]))
    with pytest.raises(ValueError, match="cannot be both True"):
        T.Rotate(10, zoom_in=True, zoom_out=True)(chw)
    np.random.seed(0)
    kept = sum(T.RandomRotation((-20, 20), rotate_with_proba=0.3)(chw) is chw for _ in range(100))
    assert 50 < kept < 90
    np.testing.assert_allclose(T.RandomRotation((-1e-4, 1e-4))(chw).asnumpy(), chw.asnumpy(), atol=1e-4)
    with pytest.raises(ValueError, match="ordered tuple"):
        T.RandomRotation((5, 1))


def test_fixed_factor_colour_kernels(golden):
    g, _ = golden
    fns = {"brightness": _image.adjust_brightness, "contrast": _image.adjust_contrast,
           "saturation": _image.adjust_saturation, "hue": _image.adjust_hue}
    for name, fn in fns.items():
        for factor in (0.4, 1.6):
            for src in ("u8", "f32"):
                out, ref = fn(g[f"img/{src}"], factor), g[f"op/{name}/{src}/{factor}"]
                assert out.dtype == ref.dtype
                if name == "hue":  # float rounding in the HLS round trip, then uint8 truncation
                    np.testing.assert_allclose(out.astype(float), ref, atol=1 if src == "u8" else 1e-3)
                else:
                    np.testing.assert_array_equal(out, ref, err_msg=f"{name} {factor} {src}")
    for src in ("u8", "f32"):
        np.testing.assert_array_equal(_image.adjust_lighting(g[f"img/{src}"], (0.1, -0.2, 0.3)),
                                      g[f"op/lighting/{src}"])


def test_compose_hybridizes_and_matches_step_by_step(golden):
    g, _ = golden
    img = nd(g["img/u8"])
    steps = [T.Resize((6, 4)), T.ToTensor(), T.Normalize((0.4, 0.5, 0.6), (0.2, 0.2, 0.2))]
    composed = T.Compose(steps + [T.Cast("float64")])
    assert isinstance(composed[0], mx.gluon.nn.HybridSequential)  # one hybridized group
    out = composed(img)
    ref = img
    for s in steps:
        ref = s(ref)
    assert out.dtype == np.float64 and out.shape == (3, 4, 6)
    np.testing.assert_array_equal(out.asnumpy(), ref.asnumpy().astype(np.float64))
    np.testing.assert_array_equal(composed(img).asnumpy(), out.asnumpy())  # cached graph rerun
    mixed = T.Compose([T.CenterCrop(8), T.ToTensor()])
    assert mixed(img).shape == (3, 8, 8)


# -- random transforms: ranges and statistics ------------------------------------------------------
def test_random_flips():
    img = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    mx.random.seed(11)
    for block, flipped in ((T.RandomFlipLeftRight(), img[:, ::-1]), (T.RandomFlipTopBottom(), img[::-1])):
        hits = 0
        for _ in range(200):
            out = block(nd(img)).asnumpy()
            if np.array_equal(out, flipped):
                hits += 1
            else:
                np.testing.assert_array_equal(out, img)
        assert 60 < hits < 140  # p = 0.5, far outside +-5 sigma otherwise
    mx.random.seed(3)
    a = [T.RandomFlipLeftRight()(nd(img)).asnumpy()[0, 0, 0] for _ in range(20)]
    mx.random.seed(3)
    assert [T.RandomFlipLeftRight()(nd(img)).asnumpy()[0, 0, 0] for _ in range(20)] == a


def test_random_brightness_factor_range():
    img = np.full((2, 2, 3), 100.0, np.float32)
    mx.random.seed(1)
    factors = np.array([T.RandomBrightness(0.3)(nd(img)).asnumpy()[0, 0, 0] / 100 for _ in range(300)])
    assert factors.min() >= 0.7 - 1e-6 and factors.max() <= 1.3 + 1e-6
    assert abs(factors.mean() - 1.0) < 0.05 and factors.std() > 0.12  # uniform: std 0.173
    assert T.RandomBrightness(2.0)._kernel_args() == {"lo": 0, "hi": 3.0}


def test_random_colour_transforms_shape_dtype_and_identity():
    rs = np.random.RandomState(0)
    img = rs.randint(0, 256, (6, 5, 3)).astype(np.uint8)
    mx.random.seed(2)
    for block in (T.RandomContrast(0.5), T.RandomSaturation(0.5), T.RandomHue(0.2),
                  T.RandomColorJitter(0.3, 0.3, 0.3, 0.1), T.RandomLighting(0.1)):
        out = block(nd(img))
        assert out.shape == img.shape and out.dtype == np.uint8
    np.testing.assert_array_equal(T.RandomColorJitter()(nd(img)).asnumpy(), img)
    np.testing.assert_array_equal(T.RandomLighting(0.0)(nd(img)).asnumpy(), img)
    # lighting adds one RGB offset to every pixel; its mean over many draws is ~0
    flat = np.full((3, 3, 3), 100.0, np.float32)
    shifts = np.array([T.RandomLighting(0.1)(nd(flat)).asnumpy()[1, 1] - 100 for _ in range(200)])
    assert np.abs(shifts.mean(axis=0)).max() < 1.5 and shifts.std(axis=0).min() > 0.1
    # hue factor 1 +- hue: a full turn is the identity, so tiny amounts barely change colours
    near = T.RandomHue(1e-4)(nd(img.astype(np.float32))).asnumpy()
    np.testing.assert_allclose(near, img, atol=0.2)


def test_random_resized_crop_and_apply():
    img = nd(np.random.RandomState(1).randint(0, 256, (20, 30, 3)).astype(np.uint8))
    import random
    random.seed(0)
    for _ in range(20):
        out = T.RandomResizedCrop((8, 6), scale=(0.2, 1.0))(img)
        assert out.shape == (6, 8, 3) and out.dtype == np.uint8
    assert T.RandomResizedCrop(5)(img).shape == (5, 5, 3)
    # an impossible aspect ratio falls back to the centre crop
    wide = T.RandomResizedCrop((8, 6), scale=(1.0, 1.0), ratio=(50.0, 60.0))(img)
    np.testing.assert_array_equal(wide.asnumpy(), T.CenterCrop((8, 6))(img).asnumpy())
    random.seed(4)
    outs = [T.RandomApply(T.Cast("float64"), p=0.5)(img).dtype for _ in range(100)]
    assert 25 < sum(d == np.float64 for d in outs) < 75


def test_hybridized_random_transform_runs_through_custom_op():
    img = nd(np.random.RandomState(2).randint(0, 256, (4, 5, 3)).astype(np.uint8))
    block = T.RandomBrightness(0.5)
    block.hybridize()
    outs = [block(img).asnumpy() for _ in range(5)]
    assert all(o.shape == (4, 5, 3) and o.dtype == np.uint8 for o in outs)
    assert any(not np.array_equal(outs[0], o) for o in outs[1:])  # fresh draws every call


# -- datasets from files ---------------------------------------------------------------------------
def _write_idx(path, arr, magic):
    payload = struct.pack(">I", magic) + struct.pack(">" + "I" * arr.ndim, *arr.shape) + arr.tobytes()
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(payload)


def _mnist_files(root, n_train=5, n_test=3, gz=True):
    rs = np.random.RandomState(0)
    out = {}
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        images = rs.randint(0, 256, (n, 28, 28)).astype(np.uint8)
        labels = rs.randint(0, 10, n).astype(np.uint8)
        ext = ".gz" if gz else ""
        _write_idx(os.path.join(root, f"{prefix}-images-idx3-ubyte{ext}"), images, 2051)
        _write_idx(os.path.join(root, f"{prefix}-labels-idx1-ubyte{ext}"), labels, 2049)
        out[prefix] = (images, labels)
    return out


@pytest.fixture
def no_download(monkeypatch):
    calls = []

    def fake(url, path=None, overwrite=False, sha1_hash=None, **kw):
        calls.append(url)
        raise MXNetError(f"download: cannot fetch {url} (offline)")
    monkeypatch.setattr(mx.gluon.utils, "download", fake)
    return calls


@pytest.mark.parametrize("cls", [vision.MNIST, vision.FashionMNIST])
def test_mnist_reads_idx_files(tmp_path, no_download, cls):
    files = _mnist_files(str(tmp_path))
    train = cls(root=str(tmp_path))
    test = cls(root=str(tmp_path), train=False)
    assert len(train) == 5 and len(test) == 3 and no_download == []
    img, label = train[2]
    assert img.shape == (28, 28, 1) and img.dtype == np.uint8
    np.testing.assert_array_equal(img.asnumpy()[..., 0], files["train"][0][2])
    assert label == files["train"][1][2] and np.asarray(label).dtype == np.int32
    np.testing.assert_array_equal(test[1][0].asnumpy()[..., 0], files["t10k"][0][1])
    tr = cls(root=str(tmp_path), transform=lambda x, y: (x.astype("float32") / 255, y + 100))
    assert tr[0][0].dtype == np.float32 and tr[0][1] == files["train"][1][0] + 100


def test_mnist_uncompressed_files_and_loader(tmp_path, no_download):
    files = _mnist_files(str(tmp_path), n_train=7, gz=False)
    ds = vision.MNIST(root=str(tmp_path)).transform_first(T.ToTensor())
    batches = list(DataLoader(ds, batch_size=4))
    assert batches[0][0].shape == (4, 1, 28, 28) and batches[0][1].dtype == np.int32
    np.testing.assert_allclose(batches[1][0].asnumpy()[0, 0], files["train"][0][4] / 255.0, rtol=1e-6)
    with DataLoader(ds, batch_size=4, num_workers=2) as loader:
        for got, ref in zip(loader, batches):
            np.testing.assert_array_equal(got[0].asnumpy(), ref[0].asnumpy())
            np.testing.assert_array_equal(got[1].asnumpy(), ref[1].asnumpy())


def test_mnist_missing_files_try_download_once_then_explain(tmp_path, no_download):
    root = tmp_path / "nowhere"
    with pytest.raises(MXNetError) as err:
        vision.MNIST(root=str(root))
    msg = str(err.value)
    assert "train-images-idx3-ubyte.gz" in msg and "train-labels-idx1-ubyte.gz" in msg
    assert str(root) in msg and "offline" in msg
    assert len(no_download) == 1
    assert no_download[0].endswith("/gluon/dataset/mnist/train-images-idx3-ubyte.gz")


def test_mnist_download_path_is_used(tmp_path, monkeypatch):
    src = tmp_path / "mirror"
    src.mkdir()
    _mnist_files(str(src), n_train=2, n_test=2)
    fetched = []

    def fake(url, path=None, overwrite=False, sha1_hash=None, **kw):
        name = url.rsplit("/", 1)[-1]
        fetched.append((name, sha1_hash))
        target = os.path.join(path, name)
        Path(target).write_bytes((src / name).read_bytes())
        return target
    monkeypatch.setattr(mx.gluon.utils, "download", fake)
    ds = vision.FashionMNIST(root=str(tmp_path / "fm"), train=False)
    assert len(ds) == 2
    assert fetched[0] == ("t10k-images-idx3-ubyte.gz", "626ed6a7c06dd17c0eec72fa3be1740f146a2863")


def test_default_roots():
    home = os.path.join(os.path.expanduser("~"), ".mxnet") if "MXNET_HOME" not in os.environ \
        else os.environ["MXNET_HOME"]
    for cls, name in ((vision.MNIST, "mnist"), (vision.FashionMNIST, "fashion-mnist"),
                      (vision.CIFAR10, "cifar10"), (vision.CIFAR100, "cifar100")):
        params = inspect.signature(cls).parameters
        assert params["root"].default == os.path.join(home, "datasets", name)
        assert params["train"].default is True
    assert inspect.signature(vision.CIFAR100).parameters["fine_label"].default is False


def _cifar_batch(path, n, label_bytes, seed):
    rs = np.random.RandomState(seed)
    labels = rs.randint(0, 100, (n, label_bytes)).astype(np.uint8)
    pixels = rs.randint(0, 256, (n, 3, 32, 32)).astype(np.uint8)
    rows = np.concatenate([labels, pixels.reshape(n, -1)], axis=1)
    Path(path).write_bytes(rows.tobytes())
    return pixels.transpose(0, 2, 3, 1), labels.astype(np.int32)


def test_cifar10_reads_binary_batches(tmp_path, no_download):
    root = tmp_path / "cifar-10-batches-bin"  # the layout of the official archive also works
    root.mkdir()
    parts = [_cifar_batch(root / f"data_batch_{i}.bin", 2, 1, i) for i in range(1, 6)]
    test = _cifar_batch(root / "test_batch.bin", 3, 1, 9)
    ds = vision.CIFAR10(root=str(tmp_path))
    assert len(ds) == 10 and no_download == []
    img, label = ds[4]
    assert img.shape == (32, 32, 3) and img.dtype == np.uint8
    np.testing.assert_array_equal(img.asnumpy(), parts[2][0][0])
    assert label == parts[2][1][0, 0]
    tds = vision.CIFAR10(root=str(tmp_path), train=False)
    np.testing.assert_array_equal(tds[2][0].asnumpy(), test[0][2])


def test_cifar100_coarse_and_fine(tmp_path, no_download):
    pixels, labels = _cifar_batch(tmp_path / "train.bin", 4, 2, 1)
    _cifar_batch(tmp_path / "test.bin", 2, 2, 2)
    coarse = vision.CIFAR100(root=str(tmp_path))
    fine = vision.CIFAR100(root=str(tmp_path), fine_label=True)
    assert [coarse[i][1] for i in range(4)] == labels[:, 0].tolist()
    assert [fine[i][1] for i in range(4)] == labels[:, 1].tolist()
    np.testing.assert_array_equal(fine[3][0].asnumpy(), pixels[3])


def test_cifar_missing_files_explain(tmp_path, no_download):
    with pytest.raises(MXNetError) as err:
        vision.CIFAR10(root=str(tmp_path))
    assert "data_batch_1.bin" in str(err.value) and "test_batch.bin" in str(err.value)
    assert len(no_download) == 1 and no_download[0].endswith("cifar10/cifar-10-binary.tar.gz")
    Path(tmp_path / "train.bin").write_bytes(b"\x00" * 100)
    Path(tmp_path / "test.bin").write_bytes(b"\x00" * 100)
    with pytest.raises(MXNetError, match="not a CIFAR binary batch"):
        vision.CIFAR100(root=str(tmp_path))


def test_image_record_dataset_matches_reference(tmp_path, golden):
    pytest.importorskip("PIL")
    g, meta = golden
    rec = tmp_path / "imgs.rec"
    rec.write_bytes(g["rec/bytes"].tobytes())
    (tmp_path / "imgs.idx").write_text(meta["rec_idx"])
    ds = vision.ImageRecordDataset(str(rec))
    gray = vision.ImageRecordDataset(str(rec), flag=0,
                                     transform=lambda x, y: (x, np.asarray(y, np.float32) * 2))
    for i in range(4):
        img, label = ds[i]
        assert img.dtype == np.uint8
        np.testing.assert_array_equal(img.asnumpy(), g[f"rec/img{i}"])
        np.testing.assert_array_equal(np.asarray(label, np.float32), g[f"rec/label{i}"])
        gimg, glabel = gray[i]
        np.testing.assert_array_equal(gimg.asnumpy(), g[f"rec/gray{i}"])
        np.testing.assert_array_equal(glabel, g[f"rec/label{i}"] * 2)


def test_jpeg_decoding_matches_opencv(golden, tmp_path):
    pytest.importorskip("PIL")
    g, _ = golden
    data = g["jpeg/bytes"].tobytes()
    np.testing.assert_array_equal(_image.imdecode(data), g["jpeg/color"])
    np.testing.assert_array_equal(_image.imdecode(data, flag=0), g["jpeg/gray"])
    np.testing.assert_array_equal(_image.imdecode(data, to_rgb=False), g["jpeg/bgr"])
    (tmp_path / "a.jpg").write_bytes(data)
    np.testing.assert_array_equal(_image.imread(str(tmp_path / "a.jpg"), 0), g["jpeg/gray"])
    with pytest.raises(ValueError, match="cannot decode"):
        _image.imdecode(b"not an image")


def test_image_folder_dataset(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    rs = np.random.RandomState(5)
    pics = {}
    for cls in ("cat", "bus"):
        (tmp_path / cls).mkdir()
        for j in range(2):
            arr = rs.randint(0, 256, (4 + j, 6, 3)).astype(np.uint8)
            Image.fromarray(arr).save(tmp_path / cls / f"{j}.png")
            pics[(cls, j)] = arr
    (tmp_path / "cat" / "notes.txt").write_text("x")
    (tmp_path / "stray.png").write_bytes(b"")
    with pytest.warns(UserWarning, match="Ignoring"):
        ds = vision.ImageFolderDataset(str(tmp_path))
    assert ds.synsets == ["bus", "cat"] and len(ds) == 4
    assert [os.path.basename(p) for p, _ in ds.items] == ["0.png", "1.png", "0.png", "1.png"]
    img, label = ds[3]
    assert label == 1 and img.dtype == np.uint8
    np.testing.assert_array_equal(img.asnumpy(), pics[("cat", 1)])
    with pytest.warns(UserWarning):
        gray = vision.ImageFolderDataset(str(tmp_path), flag=0, transform=lambda x, y: (x.shape, y))
    assert gray[0] == ((4, 6, 1), 0)
