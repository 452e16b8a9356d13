"""Regressions found by running the computer-vision and GAN chapters of "Dive into Deep
Learning" (MXNet edition) under both MXNet 1.9.1 and this package: image augmentation,
fine-tuning, anchor boxes, SSD, ROI pooling, FCN, style transfer, GAN / DCGAN.

Expected values were recorded by running the same code under MXNet 1.9.1.
"""
import struct
import warnings
import zlib

import numpy as np
import pytest

import mxnet as mx
from mxnet import nd




def _silent(fn):
    """Run ``fn`` and check that it shows no warning under the filters in force (the package
    silences NumPy's floating-point RuntimeWarnings raised from its own modules; 1.9.1 prints
    none of these)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", append=True)   # after the package's own filters
        res = fn()
    assert not seen, [str(w.message) for w in seen]
    return res


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nd_reductions_of_infinities_are_silent_nan(dtype):
    # e.g. a Normalize transform with std=0 gives +-inf, whose sum a script prints;
    # recorded from 1.9.1: nan, with nothing on stderr
    a = nd.array([np.inf, -np.inf], dtype=dtype)
    b = nd.array([[np.inf, -np.inf, 1, 2], [1e38, 1e38, 1, 1]], dtype=dtype)
    assert np.isnan(_silent(lambda: a.sum().asscalar()))
    assert np.isnan(_silent(lambda: a.mean().asscalar()))
    assert np.isnan(_silent(lambda: nd.nansum(a).asscalar()))
    s = _silent(lambda: nd.sum(b, axis=1).asnumpy())
    assert np.isnan(s[0]) and s[1] == np.dtype(dtype).type(1e38) * 2
    m = _silent(lambda: nd.mean(b, axis=0).asnumpy())
    assert m.tolist() == [np.inf, -np.inf, 1.0, 1.5]


def test_np_reductions_of_infinities_are_silent(np_mode):
    # recorded from 1.9.1: nan nan nan nan, [nan 1e+38] for the row means, no warnings
    b = mx.np.array([np.inf, -np.inf, 1.0])
    m = mx.np.array([[np.inf, -np.inf], [1e38, 1e38]])
    assert np.isnan(_silent(lambda: float(b.sum())))
    assert np.isnan(_silent(lambda: float(mx.np.mean(b))))
    assert np.isnan(_silent(lambda: float(mx.np.std(b))))
    assert np.isnan(_silent(lambda: float(mx.np.var(b))))
    rows = _silent(lambda: m.mean(axis=1).asnumpy())
    assert np.isnan(rows[0]) and rows[1] == np.float32(1e38)
    # overflow to inf in a contraction is silent too; recorded from 1.9.1: inf
    assert _silent(lambda: float(mx.np.tensordot(m, m))) == np.inf


def _png(a):
    """A minimal RGB PNG (no compression filter) of the uint8 array ``a``."""
    h, w = a.shape[:2]
    raw = b"".join(b"\x00" + a[i].tobytes() for i in range(h))

    def chunk(tag, data):
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@pytest.fixture
def det_rec(tmp_path):
    """Three 8x8 images with one box each, as d2l's banana-detection record file."""
    rs = np.random.RandomState(3)
    path = str(tmp_path / "t.rec")
    w = mx.recordio.MXRecordIO(path, "w")
    for i in range(3):
        a = rs.randint(0, 256, (8, 8, 3)).astype("uint8")
        lab = np.array([2, 5, i % 2, 0.1, 0.2, 0.6, 0.7], dtype="float32")
        w.write(mx.recordio.pack(mx.recordio.IRHeader(0, lab, i, 0), _png(a)))
    w.close()
    return path


@pytest.mark.parametrize("cls,kwargs", [
    (mx.io.ImageRecordIter, {"label_width": 7}),
    (mx.io.ImageDetRecordIter, {}),
])
def test_record_iter_mean_image_is_float32_sum_times_reciprocal(det_rec, tmp_path, cls, kwargs):
    # 1.9.1 adds the images up in float32 and multiplies by 1.0f / count, so a mean of
    # 116/3 is stored as 38.66666793823242 (not the nearest float32, 38.666664...);
    # recorded from 1.9.1: the first mean values, their sum and the first batch's sum
    pytest.importorskip("PIL")
    mp = str(tmp_path / "mean.nd")
    it = cls(path_imgrec=det_rec, batch_size=3, data_shape=(3, 8, 8), mean_img=mp,
             verbose=False, **kwargs)
    batch = next(it)
    mean = list(nd.load(mp).values())[0].asnumpy()
    assert mean.ravel()[:5].tolist() == [118.0, 88.0, 38.66666793823242, 107.0,
                                         167.6666717529297]
    assert float(mean.astype("float64").sum()) == pytest.approx(24494.33403968811, abs=1e-9)
    total = float(batch.data[0].asnumpy().astype("float64").sum())
    assert total == pytest.approx(-0.00214385986328125, abs=1e-12)


def test_image_det_record_iter_logs_like_1_9_1(det_rec, tmp_path, capsys):
    # recorded from 1.9.1 (stderr, after the "[hh:mm:ss] " stamp)
    pytest.importorskip("PIL")
    mp = str(tmp_path / "mean.nd")
    mx.io.ImageDetRecordIter(path_imgrec=det_rec, batch_size=3, data_shape=(3, 8, 8),
                             mean_img=mp)
    mx.io.ImageDetRecordIter(path_imgrec=det_rec, batch_size=3, data_shape=(3, 8, 8),
                             mean_img=mp)
    lines = [ln.split("] ", 1)[1] for ln in capsys.readouterr().err.splitlines()]
    assert lines[1:4] == [
        f"../src/io/iter_image_det_recordio.cc:339: ImageDetRecordIOParser: {det_rec}, "
        "label padding width: 7",
        f"../src/io/./iter_normalize.h:382: Cannot find {mp}: create mean image, this will "
        "take some time...",
        f"../src/io/./iter_normalize.h:408: Save mean image to {mp}..",
    ]
    assert lines[5:] == [
        f"../src/io/iter_image_det_recordio.cc:339: ImageDetRecordIOParser: {det_rec}, "
        "label padding width: 7",
        f"../src/io/./iter_normalize.h:272: Load mean image from {mp}",
    ]
    mx.io.ImageDetRecordIter(path_imgrec=det_rec, batch_size=3, data_shape=(3, 8, 8),
                             verbose=False)
    assert capsys.readouterr().err == ""


def _palette_png(idx, palette, trns):
    """A palette PNG (as VOC's SegmentationClass labels) with a tRNS transparency chunk."""
    h, w = idx.shape
    raw = b"".join(b"\x00" + idx[i].astype("uint8").tobytes() for i in range(h))

    def chunk(tag, data):
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", bytes(np.asarray(palette, "uint8").ravel()))
            + chunk(b"tRNS", bytes(trns)) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def test_imdecode_palette_png_with_transparency_is_silent():
    pytest.importorskip("PIL")
    buf = _palette_png(np.array([[0, 1, 2], [3, 2, 1]]),
                       [[0, 0, 0], [128, 0, 0], [0, 128, 0], [224, 224, 192]], [0, 128, 255, 255])
    # recorded from 1.9.1 (and nothing on stderr)
    rgb = _silent(lambda: mx.image.imdecode(buf).asnumpy())
    assert rgb.reshape(-1).tolist() == [0, 0, 0, 128, 0, 0, 0, 128, 0, 224, 224, 192,
                                        0, 128, 0, 128, 0, 0]
    gray = _silent(lambda: mx.image.imdecode(buf, flag=0).asnumpy())
    assert gray.reshape(-1).tolist() == [0, 38, 75, 220, 75, 38]


@pytest.mark.parametrize("interp", [9, 10])
def test_imresize_to_own_size_copies_whatever_interp(interp):
    # 1.9.1 hands interp to OpenCV, which copies an image resized to its own size before it
    # checks the method; other sizes with interp 9 / 10 raise MXNetError (recorded from 1.9.1)
    img = nd.array(np.random.RandomState(0).randint(0, 256, (5, 7, 3)), dtype="uint8")
    out = mx.image.imresize(img, 7, 5, interp=interp)
    assert out.dtype == np.uint8 and out.shape == (5, 7, 3)
    assert (out.asnumpy() == img.asnumpy()).all()
    with pytest.raises(mx.base.MXNetError):
        mx.image.imresize(img, 6, 5, interp=interp)


def test_np_ndarray_format_spec_needs_0d(np_mode):
    # recorded from 1.9.1: '[0.9 0.1]' without a spec, '  3.0' for a 0-d array, and
    # TypeError for a spec on a 1-d array
    b = mx.np.array([0.9, 0.1])
    assert f"{b}" == "[0.9 0.1]" and format(b, "") == "[0.9 0.1]"
    assert f"{mx.np.array(3):>5}" == "  3.0"
    assert f"{b[0]:.2f}" == "0.90"
    with pytest.raises(TypeError):
        f"{b:.2f}"


def test_multibox_prior_uses_first_ratio_for_every_size():
    # anchors are each size at ratios[0], then sizes[0] at ratios[1:]; recorded from 1.9.1
    o = nd.contrib.MultiBoxPrior(nd.zeros((1, 3, 3, 4)), sizes=[0.3, 0.6], ratios=[2, 1, 0.5])
    assert o.shape == (1, 48, 4)
    assert o[0, :4].asnumpy().tolist() == [
        [-0.0340990275144577, 0.060600645840168, 0.2840990424156189, 0.2727327048778534],
        [-0.1931980550289154, -0.0454653799533844, 0.4431980550289154, 0.3787987232208252],
        [0.012499995529651642, 0.01666666567325592, 0.23750001192092896, 0.3166666626930237],
        [0.04545048624277115, -0.0454653799533844, 0.20454952120780945, 0.3787987232208252]]
    assert float(o.asnumpy().astype("float64").sum()) == pytest.approx(96.00000201165676,
                                                                        abs=1e-9)
    # a zero ratio gives zero-width, infinitely tall boxes, silently
    z = _silent(lambda: nd.contrib.MultiBoxPrior(nd.zeros((1, 3, 2, 2)), sizes=[0.5],
                                                 ratios=[0]).asnumpy())
    assert z[0, :2].tolist() == [[0.25, -np.inf, 0.25, np.inf], [0.75, -np.inf, 0.75, np.inf]]


def test_npx_multibox_prior_single_ratio_other_than_one(np_mode):
    o = mx.npx.multibox_prior(mx.np.zeros((1, 3, 2, 2)), sizes=[0.5], ratios=[2])
    # recorded from 1.9.1
    assert o[0, :2].asnumpy().tolist() == [
        [-0.10355338454246521, 0.0732233077287674, 0.6035534143447876, 0.4267767071723938],
        [0.3964466154575348, 0.0732233077287674, 1.1035534143447876, 0.4267767071723938]]


@pytest.mark.parametrize("kw", [
    dict(kernel=(1, 1), pad=(1, 1), pool_type="max"),
    dict(kernel=(2, 2), stride=(3, 3), pad=(2, 2), pool_type="max", pooling_convention="full"),
    dict(kernel=(1, 1), pad=(0, 1), pool_type="max"),
    dict(kernel=(1, 1), pad=(1, 1), pool_type="avg", count_include_pad=False),
    dict(kernel=(2, 2), pad=(2, 2), pool_type="avg", pooling_convention="full"),
])
def test_float32_max_avg_pooling_rejects_pad_as_large_as_kernel(kw):
    # 1.9.1 (oneDNN) raises MXNetError for these instead of pooling windows of padding only
    x = nd.array(np.arange(2 * 2 * 5 * 5, dtype="float32").reshape(2, 2, 5, 5))
    with pytest.raises(mx.base.MXNetError, match="pad"):
        nd.Pooling(x, **kw).wait_to_read()
    with pytest.raises(mx.base.MXNetError, match="pad"):
        mx.gluon.nn.MaxPool2D(pool_size=1, strides=1, padding=1)(x).wait_to_read()


@pytest.mark.parametrize("dtype,kw,shape,total", [
    # recorded from 1.9.1: its own kernels take these pads
    ("float32", dict(kernel=(2, 2), stride=(2, 2), pad=(2, 2), pool_type="avg",
                     pooling_convention="full"), (2, 2, 5, 5), 1237.5),
    ("float16", dict(kernel=(1, 1), pad=(1, 1), pool_type="avg", count_include_pad=False),
     (2, 2, 7, 7), 4950.0),
    ("float32", dict(kernel=(1, 1), pad=(1, 1), pool_type="max", global_pool=True),
     (2, 2, 1, 1), 246.0),
    ("float32", dict(kernel=(2, 2), stride=(1, 1), pad=(2, 2), pool_type="sum"),
     (2, 2, 8, 8), 19800.0),
])
def test_pooling_pads_taken_by_1_9_1s_own_kernels(dtype, kw, shape, total):
    x = nd.array(np.arange(2 * 2 * 5 * 5, dtype="float32").reshape(2, 2, 5, 5)).astype(dtype)
    y = nd.Pooling(x, **kw)
    assert y.shape == shape
    assert float(y.asnumpy().astype("float64").sum()) == total


@pytest.mark.parametrize("op", ["ROIAlign", "PSROIPooling", "DeformablePSROIPooling"])
def test_region_pooling_spatial_scale_is_bounded(op):
    # recorded from 1.9.1: "value 2 for Parameter spatial_scale exceed bound [0,1]"
    x, r = nd.ones((1, 8, 6, 6)), nd.array([[0, 0, 0, 2, 2]])
    kw = {"ROIAlign": dict(pooled_size=(2, 2)),
          "PSROIPooling": dict(output_dim=2, pooled_size=2),
          "DeformablePSROIPooling": dict(output_dim=2, pooled_size=2, group_size=2,
                                         no_trans=True)}[op]
    fn = getattr(nd.contrib, op)
    with pytest.raises(mx.base.MXNetError, match="spatial_scale"):
        fn(x, r, spatial_scale=2.0, **kw).wait_to_read()
    assert fn(x, r, spatial_scale=1.0, **kw).shape[0] == 1


def test_binding_a_graph_logs_the_subgraph_backend(capsys, monkeypatch):
    # recorded from 1.9.1 (stderr, after the "[hh:mm:ss] " stamp): bind / eval, simple_bind
    # and Module.bind each log one line; MXNET_SUBGRAPH_BACKEND=NONE logs another
    monkeypatch.delenv("MXNET_SUBGRAPH_BACKEND", raising=False)
    a, b = mx.sym.var("a"), mx.sym.var("b")
    s = a + b
    capsys.readouterr()
    s.bind(mx.cpu(), {"a": nd.ones(2), "b": nd.ones(2)})
    s.eval(a=nd.ones(2), b=nd.ones(2))
    s.simple_bind(mx.cpu(), a=(2,), b=(2,))
    c = mx.sym.FullyConnected(a, num_hidden=2, name="fc")
    mx.mod.Module(c, data_names=["a"], label_names=None).bind(data_shapes=[("a", (1, 3))])
    lines = [ln.split("] ", 1)[1] for ln in capsys.readouterr().err.splitlines()]
    act = "Subgraph backend MKLDNN is activated."
    assert lines == [f"../src/executor/graph_executor.cc:2072: {act}",
                     f"../src/executor/graph_executor.cc:2072: {act}",
                     f"../src/executor/graph_executor.cc:1991: {act}",
                     f"../src/executor/graph_executor.cc:1991: {act}"]
    monkeypatch.setenv("MXNET_SUBGRAPH_BACKEND", "NONE")
    s.bind(mx.cpu(), {"a": nd.ones(2), "b": nd.ones(2)})
    lines = [ln.split("] ", 1)[1] for ln in capsys.readouterr().err.splitlines()]
    assert lines == ["../src/executor/graph_executor.cc:60: MXNET_SUBGRAPH_BACKEND=NONE is "
                     "detected, subgraph backend is not in use"]
    # a hybridized Gluon block (CachedOp) logs nothing
    net = mx.gluon.nn.Dense(2, in_units=3)
    net.initialize()
    net.hybridize()
    net(nd.ones((1, 3)))
    assert capsys.readouterr().err == ""


def test_training_avg_pooling_without_padding_count_logs_once_per_shape(capsys):
    # recorded from 1.9.1: oneDNN logs when it makes an avg-pooling primitive that leaves the
    # padding out of the count for training; once per shape, never for inference
    pool = mx.gluon.nn.AvgPool2D(3, 1, 1, count_include_pad=False)
    capsys.readouterr()
    x = nd.ones((1, 2, 11, 13))
    pool(x).wait_to_read()   # inference
    for _ in range(2):
        with mx.autograd.record():
            pool(x).wait_to_read()
    with mx.autograd.record():
        pool(nd.ones((1, 2, 11, 14))).wait_to_read()
        mx.gluon.nn.AvgPool2D(3, 1, 1)(nd.ones((1, 2, 11, 15))).wait_to_read()
    lines = [ln.split("] ", 1)[1] for ln in capsys.readouterr().err.splitlines()]
    assert lines == ["../src/operator/nn/mkldnn/mkldnn_pooling.cc:58: MKLDNN Pooling: training "
                     "with prop_kind is forward_scoring"] * 2
