"""mx.io behaviour beyond the golden batches: the iteration protocol, random augmentation,
shuffling, partitioning and option parsing."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

from ._records import jpeg, pack, png, write_rec


# -- NDArrayIter ---------------------------------------------------------------------------------------
def test_ndarray_iter_protocol_methods():
    it = mx.io.NDArrayIter(np.arange(10).reshape(5, 2), np.arange(5), batch_size=2)
    seen = []
    while it.iter_next():
        seen.append((it.getdata()[0].asnumpy()[:, 0].tolist(), it.getlabel()[0].asnumpy().tolist(),
                     it.getpad(), it.getindex()))
    assert seen == [([0, 2], [0, 1], 0, None), ([4, 6], [2, 3], 0, None), ([8, 0], [4, 0], 1, None)]
    it.reset()
    assert next(it).data[0].shape == (2, 2)
    assert iter(it) is it


def test_ndarray_iter_accepts_nd_and_rejects_bad_input():
    it = mx.io.NDArrayIter(mx.nd.ones((4, 3)), mx.nd.zeros((4,)), batch_size=4)
    assert [d.name for d in it.provide_data] == ["data"]
    with pytest.raises(TypeError):
        mx.io.NDArrayIter(object(), batch_size=1)
    # 1.9.1 accepts an unknown last_batch_handle (and drops the short last batch); warn here
    with pytest.warns(UserWarning, match="last_batch_handle"):
        mx.io.NDArrayIter(np.ones((4, 3)), batch_size=2, last_batch_handle="keep")


def test_data_desc_is_a_namedtuple_with_extras():
    d = mx.io.DataDesc("data", (2, 3), np.int32, "NTC")
    name, shape = d
    assert (name, shape, d.dtype, d.layout) == ("data", (2, 3), np.int32, "NTC")
    assert d == ("data", (2, 3))
    assert mx.io.DataDesc.get_batch_axis(d.layout) == 0


# -- ImageRecordIter -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def images():
    rs = np.random.RandomState(5)
    return [rs.randint(0, 256, (14 + i % 3, 16 + i % 4, 3)).astype(np.uint8) for i in range(11)]


@pytest.fixture(scope="module")
def rec(tmp_path_factory, images):
    d = tmp_path_factory.mktemp("imgrec")
    write_rec(d / "a.rec", [pack(i, png(im), image_id=50 + i) for i, im in enumerate(images)],
              d / "a.idx")
    return d


def _all(it, epochs=1):
    out = []
    for ep in range(epochs):
        if ep:
            it.reset()
        for b in it:
            out.append((b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad))
    return out


def _windows(img, h, w):
    """Every (h, w) crop of ``img`` and its mirror image, as CHW float32."""
    out = []
    for y in range(img.shape[0] - h + 1):
        for x in range(img.shape[1] - w + 1):
            c = img[y:y + h, x:x + w].astype(np.float32)
            out += [c.transpose(2, 0, 1), c[:, ::-1].transpose(2, 0, 1)]
    return out


def test_random_augmentation_is_valid_and_independent_of_threads(rec, images):
    pytest.importorskip("PIL")
    kw = dict(path_imgrec=str(rec / "a.rec"), data_shape=(3, 10, 12), batch_size=4, rand_crop=True,
              rand_mirror=True, seed=7)
    runs = []
    for threads in (1, 2, 3):
        it = mx.io.ImageRecordIter(preprocess_threads=threads, **kw)
        runs.append(_all(it, 2))
        it.close()
    for other in runs[1:]:
        for (d0, l0, p0), (d1, l1, p1) in zip(runs[0], other):
            np.testing.assert_array_equal(d0, d1)
            np.testing.assert_array_equal(l0, l1)
            assert p0 == p1
    for data, label, _ in runs[0]:
        for x, lab in zip(data, label):
            assert any(np.array_equal(x, w) for w in _windows(images[int(lab)], 10, 12))
    crops = {runs[0][0][0][i].tobytes() for i in range(4)}
    centre = mx.io.ImageRecordIter(path_imgrec=str(rec / "a.rec"), data_shape=(3, 10, 12), batch_size=4)
    first = centre.next().data[0].asnumpy()
    assert crops != {first[i].tobytes() for i in range(4)}
    centre.close()


@pytest.mark.parametrize("with_idx", [False, True])
def test_shuffle_permutes_every_epoch(rec, with_idx):
    pytest.importorskip("PIL")
    kw = dict(path_imgrec=str(rec / "a.rec"), data_shape=(3, 8, 8), batch_size=11, shuffle=True, seed=3)
    if with_idx:
        kw["path_imgidx"] = str(rec / "a.idx")
    it = mx.io.ImageRecordIter(**kw)
    orders = [b[1].astype(int).tolist() for b in _all(it, 3)]
    assert all(sorted(o) == list(range(11)) for o in orders)
    assert len({tuple(o) for o in orders}) == 3
    it2 = mx.io.ImageRecordIter(**kw)
    assert [b[1].astype(int).tolist() for b in _all(it2, 3)] == orders


@pytest.mark.parametrize("with_idx", [False, True])
@pytest.mark.parametrize("num_parts", [2, 3, 4])
def test_parts_cover_every_record_once(rec, with_idx, num_parts):
    pytest.importorskip("PIL")
    labels = []
    for p in range(num_parts):
        kw = dict(path_imgrec=str(rec / "a.rec"), data_shape=(3, 8, 8), batch_size=1,
                  num_parts=num_parts, part_index=p)
        if with_idx:
            kw["path_imgidx"] = str(rec / "a.idx")
        labels += [int(b[1][0]) for b in _all(mx.io.ImageRecordIter(**kw))]
    assert labels == list(range(11))


def test_imglist_labels_and_label_width(rec, tmp_path):
    pytest.importorskip("PIL")
    lst = tmp_path / "a.lst"
    lst.write_text("".join(f"{50 + i}\t{i * 2}\t{-i}\tim{i}.png\n" for i in range(11)))
    it = mx.io.ImageRecordIter(path_imgrec=str(rec / "a.rec"), path_imglist=str(lst), label_width=2,
                               data_shape=(3, 8, 8), batch_size=4)
    assert it.provide_label[0].shape == (4, 2)
    assert it.next().label[0].asnumpy().tolist() == [[0, 0], [2, -1], [4, -2], [6, -3]]


def test_dtype_and_string_options(rec):
    pytest.importorskip("PIL")
    it = mx.io.ImageRecordIter(path_imgrec=str(rec / "a.rec"), data_shape="(3, 8, 8)", batch_size="4",
                               dtype="float16", mean_r="1.5", rand_mirror="False")
    assert it.provide_data[0].dtype == np.float16 and it.provide_data[0].shape == (4, 3, 8, 8)
    it = mx.io.ImageRecordInt8Iter(path_imgrec=str(rec / "a.rec"), data_shape=(3, 8, 8), batch_size=4,
                                   mean_r=128, mean_g=128, mean_b=128)
    data = it.next().data[0].asnumpy()
    assert data.dtype == np.int8 and data.min() >= -128


def test_jpeg_records_decode(tmp_path):
    pytest.importorskip("PIL")
    img = np.linspace(0, 255, 20 * 24 * 3).reshape(20, 24, 3).astype(np.uint8)
    write_rec(tmp_path / "j.rec", [pack(0, jpeg(img))])
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=str(tmp_path / "j.rec"), data_shape=(3, 20, 24),
                                    batch_size=1)
    out = it.next().data[0].asnumpy()[0].transpose(1, 2, 0).astype(int)
    assert np.abs(out - img).mean() < 3


def test_missing_file_and_bad_shape(rec):
    with pytest.raises(MXNetError, match="No such file"):
        mx.io.ImageRecordIter(path_imgrec=str(rec / "nope.rec"), data_shape=(3, 8, 8), batch_size=2)
    with pytest.raises(MXNetError, match="data_shape"):
        mx.io.ImageRecordIter(path_imgrec=str(rec / "a.rec"), data_shape=(2, 8, 8), batch_size=2)


# -- MNISTIter / CSVIter options -------------------------------------------------------------------------
def test_mnist_missing_file(tmp_path):
    with pytest.raises(MXNetError, match="No such file"):
        mx.io.MNISTIter(image=str(tmp_path / "x"), label=str(tmp_path / "y"), batch_size=2)


def test_mnist_shuffle_order_matches_libstdcxx():
    from mxnet.io.mnist_iter import std_shuffle_order
    # 1.9.1's MNISTIter(shuffle=True, seed=0) over 10 images gives this order
    assert std_shuffle_order(10, 0).tolist() == [0, 2, 3, 5, 9, 1, 6, 8, 4, 7]
    assert std_shuffle_order(10, 1).tolist() == [6, 9, 7, 2, 4, 1, 5, 3, 8, 0]


def test_csv_string_options(tmp_path):
    (tmp_path / "d.csv").write_text("1,2\n3,4\n5,6\n")
    it = mx.io.CSVIter(data_csv=str(tmp_path / "d.csv"), data_shape="(2,)", batch_size="2",
                       round_batch="False", unknown_option=1)
    batches = list(it)
    assert [b.pad for b in batches] == [0, 1]
    assert batches[1].data[0].asnumpy().tolist() == [[5, 6], [3, 4]]
