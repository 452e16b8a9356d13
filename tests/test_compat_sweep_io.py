"""Regressions found by running realistic MXNet 1.9.1 scripts for mx.io iterators and
gluon.data pipelines under both libraries.

Every expected value below was recorded by running the same code under MXNet 1.9.1.
"""
import re
import struct
import sys
import warnings
import zlib

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon, nd


def _write_mnist(tmp_path, n=5):
    images = (np.arange(n * 28 * 28) % 251).astype(np.uint8)
    (tmp_path / "img").write_bytes(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    labels = (np.arange(n) % 10).astype(np.uint8)
    (tmp_path / "lab").write_bytes(struct.pack(">II", 2049, n) + labels.tobytes())
    return str(tmp_path / "img"), str(tmp_path / "lab")


def _write_png(path, pixels):
    """A minimal 8-bit RGB / grey PNG writer, so the tests need no imaging library."""
    a = np.asarray(pixels, np.uint8)
    h, w = a.shape[:2]
    raw = b"".join(b"\x00" + a[i].tobytes() for i in range(h))

    def chunk(tag, body):
        return (struct.pack(">I", len(body)) + tag + body
                + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", w, h, 8, 2 if a.ndim == 3 else 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# -- MNISTIter's log line ------------------------------------------------------------------------
def test_mnist_iter_log_line_matches_191(tmp_path, capsys):
    img, lab = _write_mnist(tmp_path)
    mx.io.MNISTIter(image=img, label=lab, batch_size=3, shuffle=False, flat=True)
    mx.io.MNISTIter(image=img, label=lab, batch_size=2, shuffle=True, flat=False)
    err = capsys.readouterr().err.splitlines()
    # recorded from 1.9.1: the flat shape as a tuple, the 4-d one as a list, each from its line
    assert re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", err[0]) == (
        "../src/io/iter_mnist.cc:109: MNISTIter: load 5 images, shuffle=0, shape=(3,784)")
    assert re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", err[1]) == (
        "../src/io/iter_mnist.cc:112: MNISTIter: load 5 images, shuffle=1, shape=[2,1,28,28]")
    mx.io.MNISTIter(image=img, label=lab, batch_size=2, silent=True)
    assert capsys.readouterr().err == ""


# -- native iterators print as MXDataIter --------------------------------------------------------
def test_native_iterators_repr_as_mxdataiter(tmp_path):
    (tmp_path / "d.csv").write_text("1,2\n3,4\n5,6\n")
    it = mx.io.CSVIter(data_csv=str(tmp_path / "d.csv"), data_shape=(2,), batch_size=2)
    # recorded from 1.9.1: '<mxnet.io.io.MXDataIter object at 0x7f...>', and str() the same
    assert re.fullmatch(r"<mxnet\.io\.io\.MXDataIter object at 0x[0-9a-f]+>", repr(it))
    assert str(it) == repr(it)
    assert isinstance(it, mx.io.MXDataIter)
    assert re.fullmatch(r"<mxnet\.io\.io\.NDArrayIter object at 0x[0-9a-f]+>",
                        repr(mx.io.NDArrayIter(np.zeros(3), batch_size=1)))


# -- pinned / shared host memory (DataLoader(pin_memory=True)) ------------------------------------
@pytest.mark.parametrize("ctx", [mx.cpu_pinned(0), mx.Context("cpu_shared", 0),
                                 mx.cpu_pinned(1)])
def test_operators_on_pinned_memory_return_cpu_arrays(ctx):
    p = nd.ones((1, 2), ctx=ctx)
    plain = mx.cpu(ctx.device_id)
    # recorded from 1.9.1: operators write cpu(id); copy, astype, slicing keep the context
    assert (p + p).context == plain
    assert (p * 2).context == plain
    assert nd.relu(p).context == plain
    assert nd.zeros_like(p).context == plain
    assert p.T.context == plain
    assert (p + nd.ones((1, 2), ctx=plain)).context == plain
    assert p.copy().context == ctx
    assert p.astype("int32").context == ctx
    assert p[0].context == ctx
    assert p.reshape((2,)).context == ctx
    assert (p + p).asnumpy().tolist() == [[2.0, 2.0]]


def test_gluon_block_takes_pinned_batches():
    net = gluon.nn.Dense(2, in_units=2, weight_initializer="ones")
    net.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    # recorded from 1.9.1: pinned/shared memory of id i reads the cpu(i) copy
    assert net.weight.data(mx.cpu_pinned(1)).context == mx.cpu(1)
    assert net.weight.data(mx.Context("cpu_shared", 0)).context == mx.cpu(0)
    out = net(nd.ones((1, 2), ctx=mx.cpu_pinned(1)))
    assert out.context == mx.cpu(1)
    assert out.asnumpy().tolist() == [[2.0, 2.0]]
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize(ctx=mx.cpu(0))
    with pytest.raises(RuntimeError, match=r"not initialized on context cpu_pinned\(1\)"):
        net.weight.data(mx.cpu_pinned(1))


def test_dataloader_pin_memory_batches_feed_a_network():
    ds = gluon.data.ArrayDataset(np.arange(8, dtype="float32").reshape(4, 2), np.arange(4))
    net = gluon.nn.Dense(1, in_units=2, weight_initializer="ones")
    net.initialize()
    outs = []
    for data, _label in gluon.data.DataLoader(ds, batch_size=3, pin_memory=True):
        assert data.context == mx.cpu_pinned(0)
        out = net(data)
        assert out.context == mx.cpu(0)
        outs += out.asnumpy().ravel().tolist()
    assert outs == [1.0, 5.0, 9.0, 13.0]


# -- gluon.data.vision ---------------------------------------------------------------------------
def test_image_folder_warning_points_at_the_library(tmp_path):
    (tmp_path / "cls").mkdir()
    (tmp_path / "cls" / "notes.txt").write_text("x")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ds = gluon.data.vision.ImageFolderDataset(str(tmp_path))
    assert len(ds) == 0 and ds.synsets == ["cls"]
    # 1.9.1 warns from its own module (so the default filter shows it once per file), with
    # the message 'Ignoring <path> of type .txt. Only support .jpg, .jpeg, .png'
    assert len(caught) == 1
    assert str(caught[0].message).endswith("of type .txt. Only support .jpg, .jpeg, .png")
    assert caught[0].filename.endswith("datasets.py")


def test_image_iter_label_width_mismatch_is_a_value_error(tmp_path):
    pytest.importorskip("PIL")
    _write_png(tmp_path / "a.png", np.full((4, 4, 3), 7))
    it = mx.image.ImageIter(batch_size=1, data_shape=(3, 4, 4), path_root=str(tmp_path),
                            imglist=[[[1.0, 2.5], "a.png"]])
    # 1.9.1 raises ValueError (a NumPy broadcast failure) for two labels with label_width=1
    with pytest.raises(ValueError):
        it.next()


def test_without_pillow_decoding_raises_an_import_error_naming_it(tmp_path, monkeypatch):
    # Pillow is the ``image`` extra: without it (and without cv2) every decoding entry point
    # says which package to install, and ImageIter does not report it as a broken image
    _write_png(tmp_path / "a.png", np.full((4, 4, 3), 7))
    for mod in ("PIL", "PIL.Image", "cv2"):
        monkeypatch.setitem(sys.modules, mod, None)
    payload = (tmp_path / "a.png").read_bytes()
    rec = str(tmp_path / "a.rec")
    writer = mx.recordio.MXRecordIO(rec, "w")
    writer.write(mx.recordio.pack(mx.recordio.IRHeader(0, 0.0, 0, 0), payload))
    writer.close()
    it = mx.image.ImageIter(batch_size=1, data_shape=(3, 4, 4), path_root=str(tmp_path),
                            imglist=[[1.0, "a.png"]])
    calls = [lambda: mx.image.imdecode(payload), lambda: mx.image.imread(str(tmp_path / "a.png")),
             it.next, lambda: mx.recordio.unpack_img(mx.recordio.pack(
                 mx.recordio.IRHeader(0, 0.0, 0, 0), payload)),
             lambda: mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=1)]
    for call in calls:
        with pytest.raises(ImportError, match="Pillow"):
            call()
    with pytest.raises(mx.base.MXNetError, match="Pillow"):
        mx.nd.imdecode(payload)


def test_center_crop_rejects_a_non_positive_size():
    img = nd.ones((3, 3, 3))
    # 1.9.1 fails with MXNetError for CenterCrop(0) and CenterCrop((0, 2)) rather than return an
    # empty image; a positive size still works
    for size in (0, (0, 2)):
        with pytest.raises(mx.base.MXNetError, match="CenterCrop"):
            gluon.data.vision.transforms.CenterCrop(size)(img)
    assert gluon.data.vision.transforms.CenterCrop(2)(img).shape == (2, 2, 3)


# -- empty input files ---------------------------------------------------------------------------
def test_empty_csv_and_libsvm_files_raise_mxnet_error(tmp_path):
    (tmp_path / "e.csv").write_text("")
    (tmp_path / "e.libsvm").write_text("")
    # recorded from 1.9.1 (dmlc skips empty files): MXNetError ending in
    # 'Cannot find any files that matches the URI pattern <path>', not StopIteration
    with pytest.raises(mx.base.MXNetError, match="Cannot find any files that matches"):
        mx.io.CSVIter(data_csv=str(tmp_path / "e.csv"), data_shape=(2,), batch_size=2)
    with pytest.raises(mx.base.MXNetError, match="Cannot find any files that matches"):
        mx.io.CSVIter(data_csv=str(tmp_path / "e.csv"), data_shape=(2,), batch_size=2,
                      round_batch=False)
    with pytest.raises(mx.base.MXNetError, match="Cannot find any files that matches"):
        mx.io.LibSVMIter(data_libsvm=str(tmp_path / "e.libsvm"), data_shape=(3,), batch_size=2)


def test_image_record_iter_logs_its_parser_line(tmp_path, capsys):
    pytest.importorskip("PIL")
    _write_png(tmp_path / "a.png", np.full((4, 4, 3), 9))
    rec = str(tmp_path / "a.rec")
    writer = mx.recordio.MXRecordIO(rec, "w")
    for i in range(2):
        header = mx.recordio.IRHeader(0, float(i), i, 0)
        writer.write(mx.recordio.pack(header, (tmp_path / "a.png").read_bytes()))
    writer.close()
    it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=2,
                               preprocess_threads=1)
    assert it.next().label[0].asnumpy().tolist() == [0.0, 1.0]
    err = capsys.readouterr().err
    # recorded from 1.9.1 (after a '[HH:MM:SS] ' prefix)
    assert re.search(r"\] \.\./src/io/iter_image_recordio_2\.cc:177: ImageRecordIOParser2: "
                     + re.escape(rec) + r", use 1 threads for decoding\.\.\n", err)
    mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=2, verbose=False)
    assert capsys.readouterr().err == ""


def test_ndarray_iter_rejects_a_tuple_of_arrays():
    # recorded from 1.9.1: only an array, a list or a dict is accepted
    msg = ("Input must be NDArray, numpy.ndarray, h5py.Dataset a list of them or dict with "
           "them as values")
    with pytest.raises(TypeError, match=re.escape(msg)):
        mx.io.NDArrayIter((np.zeros(3), np.ones(3)), batch_size=2)
    with pytest.raises(TypeError, match=re.escape(msg)):
        mx.io.NDArrayIter(np.zeros(3), (np.ones(3),), batch_size=2)
    it = mx.io.NDArrayIter([np.zeros(3), np.ones(3)], batch_size=2)
    assert [d.name for d in it.provide_data] == ["_0_data", "_1_data"]


def test_mnist_iter_only_reads_float32(tmp_path):
    img, lab = _write_mnist(tmp_path, n=4)
    for dtype in ("float16", "int32", "uint8"):
        # 1.9.1 fails with MXNetError (a TBlob type check) for any dtype but float32
        with pytest.raises(mx.base.MXNetError, match="dtype"):
            mx.io.MNISTIter(image=img, label=lab, batch_size=2, silent=True, dtype=dtype)
    for dtype in (None, "float32", np.float32):
        it = mx.io.MNISTIter(image=img, label=lab, batch_size=2, silent=True, dtype=dtype,
                             shuffle=False)
        assert it.next().data[0].dtype == np.float32


def test_native_iter_next_returns_the_c_flag(tmp_path):
    (tmp_path / "d.csv").write_text("1,2\n3,4\n5,6\n7,8\n")
    it = mx.io.CSVIter(data_csv=str(tmp_path / "d.csv"), data_shape=(2,), batch_size=2)
    # recorded from 1.9.1: True while the constructor's first batch is pending, then the
    # C API's int flag (printed as '1 1 0' after a reset)
    assert it.iter_next() is True
    it.reset()
    flags = [it.iter_next(), it.iter_next(), it.iter_next()]
    assert flags == [1, 1, 0] and all(type(f) is int for f in flags)


def test_prefetching_iter_batches_carry_provide_data():
    p = mx.io.PrefetchingIter(mx.io.NDArrayIter(np.arange(6), batch_size=3),
                              rename_data=[{"data": "x"}])
    batch = p.next()
    # recorded from 1.9.1: next() hands back current_batch, with the renamed descriptions
    assert batch is p.current_batch
    assert [(d.name, d.shape) for d in batch.provide_data] == [("x", (3,))]
    assert batch.provide_label == []
    assert batch.data[0].asnumpy().tolist() == [0.0, 1.0, 2.0]
    assert [b.data[0].asnumpy().tolist() for b in p] == [[3.0, 4.0, 5.0]]
    # ResizeIter builds a fresh DataBatch without them, in 1.9.1 as here
    r = mx.io.ResizeIter(mx.io.NDArrayIter(np.arange(6), batch_size=3), 2)
    batch = r.next()
    assert batch.provide_data is None and batch is not r.current_batch
