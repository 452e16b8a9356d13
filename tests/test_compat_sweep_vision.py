"""Regressions found by running realistic MXNet 1.9.1 image / vision pipeline scripts under both
libraries (mx.image, ImageIter, ImageRecordIter and its uint8 / int8 variants).

Every expected value below was recorded by running the same code under MXNet 1.9.1 on the
images that ``_images()`` makes (saved as PNG, so the decoded pixels are exact).
"""
import logging

import numpy as np
import pytest

import mxnet as mx
from .io._records import png


def _images():
    rs = np.random.RandomState(7)
    out = []
    for shape in [(29, 24, 3), (20, 30, 3), (26, 26, 3), (17, 23, 3)]:
        a = rs.randint(0, 256, size=shape).astype(np.uint8)
        a[:, :, 0] = np.linspace(0, 255, shape[1]).astype(np.uint8)[None, :]
        out.append(a)
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    pytest.importorskip("PIL")
    root = tmp_path_factory.mktemp("vision")
    w = mx.recordio.MXRecordIO(str(root / "t.rec"), "w")
    for i, a in enumerate(_images()):
        (root / f"im{i}.png").write_bytes(png(a))
        w.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i % 2), i, 0), png(a)))
    w.close()
    return root


@pytest.mark.parametrize("w,h,total,col_sums,row_sums", [
    # recorded from 1.9.1: sum, per-column sums of channel 0, per-row sums of channel 1
    (40, 33, 494906, [0, 0, 330, 330, 660, 990, 990, 1320, 1683, 1683, 2013, 2343],
     [6065, 6065, 4217, 5588, 4516, 4516, 5234, 3569, 5081, 4390, 4390, 6401]),
    (10, 10, 36205, [0, 200, 510, 710, 1020, 1220, 1530, 1830, 2040, 2340],
     [1428, 1463, 1113, 1139, 987, 1137, 1104, 1149, 1382, 1245]),
    (17, 13, 83557, [0, 130, 390, 520, 793, 923, 1183, 1326, 1586, 1716, 1989, 2119],
     [2211, 1903, 2487, 2249, 2788, 2159, 2501, 2297, 2047, 2453, 1709, 2373]),
])
def test_imresize_nearest_picks_opencv_source_pixels(w, h, total, col_sums, row_sums):
    img = mx.nd.array(_images()[2], dtype="uint8")
    r = mx.image.imresize(img, w, h, interp=0).asnumpy().astype(np.int64)
    assert r.shape == (h, w, 3)
    assert int(r.sum()) == total
    assert r[:, :, 0].sum(axis=0).tolist()[:12] == col_sums
    assert r[:, :, 1].sum(axis=1).tolist()[:12] == row_sums


def test_image_iter_labels_are_ndarrays_and_logs_threads(files, caplog):
    with caplog.at_level(logging.INFO):
        it = mx.image.ImageIter(2, (3, 8, 8), imglist=[[1, "im0.png"], [2.5, "im1.png"]],
                                path_root=str(files), dtype="int32")
    # recorded from 1.9.1: the two log lines before the list is loaded
    msgs = [r.getMessage() for r in caplog.records]
    assert msgs[:2] == ["Using 1 threads for decoding...",
                        "Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number "
                        "to use more threads."]
    label, _ = it.next_sample()
    assert isinstance(label, mx.nd.NDArray)
    assert label.dtype == np.int32 and label.asnumpy().tolist() == [1]
    assert isinstance(it.imglist["1"][0], mx.nd.NDArray)
    it.reset()
    assert it.next().label[0].asnumpy().tolist() == [1.0, 2.0]


def test_image_iter_list_file_labels_are_ndarrays(files):
    (files / "t.lst").write_text("0\t3\tim0.png\n1\t4\tim1.png\n")
    it = mx.image.ImageIter(2, (3, 8, 8), path_imglist=str(files / "t.lst"),
                            path_root=str(files))
    label, _ = it.next_sample()
    assert isinstance(label, mx.nd.NDArray)
    assert label.dtype == np.float32 and label.asnumpy().tolist() == [3.0]
    it.reset()
    assert it.next().label[0].asnumpy().tolist() == [3.0, 4.0]


def _rec_kwargs(files):
    return dict(path_imgrec=str(files / "t.rec"), data_shape=(3, 12, 12), batch_size=4)


@pytest.mark.parametrize("seq,sums,row", [
    # recorded from 1.9.1 (resize=14, pad=1): image sums, and row 0 of image 1's red channel
    ("aug_default", [53623, 52166, 54600, 53735],
     [51, 64, 77, 89, 102, 114, 127, 139, 152, 165, 177, 190]),
    ("aug_default,aug_default", [53135, 52288, 54648, 54165],
     [61, 72, 83, 94, 104, 115, 126, 136, 147, 158, 169, 180]),
])
def test_image_record_iter_aug_seq_chains_default_augmenter(files, seq, sums, row):
    it = mx.io.ImageRecordUInt8Iter(**_rec_kwargs(files), resize=14, pad=1, aug_seq=seq)
    d = it.next().data[0].asnumpy().astype(np.int64)
    assert [int(x.sum()) for x in d] == sums
    assert d[1, 0, 0].tolist() == row


def test_image_record_iter_aug_seq_unknown_name_raises(files):
    with pytest.raises(mx.base.MXNetError, match="aug_seq"):
        mx.io.ImageRecordIter(**_rec_kwargs(files), aug_seq="aug_foo")
    with pytest.raises(NotImplementedError, match="det_aug_default"):
        mx.io.ImageRecordIter(**_rec_kwargs(files), aug_seq="det_aug_default")


@pytest.mark.parametrize("kwargs,sums,r0,g3", [
    # recorded from 1.9.1: saturated, not wrapped
    ({}, [43864, 44741, 42993, 44692], [5, 27, 49, 71, 93, 115, 127, 127, 127, 127, 127, 127],
     [127, 127, 120, 75, 85, 69, 127, 127, 77, 105, 40, 117]),
    # recorded from 1.9.1: the mean is rounded half away from zero; std and scale are unused
    (dict(mean_r=99.5, mean_g=100.5, mean_b=-50.5, std_b=2.0, scale=0.3),
     [24046, 24956, 23707, 25832], [-95, -73, -51, -29, -7, 15, 38, 60, 82, 104, 126, 127],
     [80, 64, 19, -26, -16, -32, 26, 86, -24, 4, -61, 16]),
])
def test_image_record_int8_iter_values(files, kwargs, sums, r0, g3):
    for make in (mx.io.ImageRecordInt8Iter,
                 lambda **kw: mx.io.ImageRecordIter(dtype="int8", **kw)):
        d = make(**_rec_kwargs(files), resize=12, **kwargs).next().data[0].asnumpy()
        assert d.dtype == np.int8
        d = d.astype(np.int64)
        assert [int(x.sum()) for x in d] == sums
        assert d[0, 0, 0].tolist() == r0
        assert d[0, 1, 3].tolist() == g3


@pytest.mark.parametrize("interp,sums", [
    (2, [53280, 54025, 52580, 54331]),   # recorded from 1.9.1
    (4, [53200, 54120, 52351, 54073]),   # recorded from 1.9.1
])
def test_image_record_iter_resizes_in_bgr_order(files, interp, sums):
    it = mx.io.ImageRecordUInt8Iter(**_rec_kwargs(files), resize=12, inter_method=interp)
    d = it.next().data[0].asnumpy().astype(np.int64)
    assert [int(x.sum()) for x in d] == sums


@pytest.mark.parametrize("w,h,total,first,last", [
    # recorded from 1.9.1 (OpenCV's INTER_LINEAR_EXACT): sum, row 0 of red, last row of blue
    (13, 17, 83807, [5, 25, 46, 66, 86, 107], [92, 155, 131, 118, 43, 91]),
    (40, 33, 499066, [0, 5, 11, 18, 24, 31], [22, 49, 92, 157, 109, 54]),
    (5, 5, 9448, [21, 74, 127, 180, 233], [26, 167, 190, 158, 218]),
])
def test_imresize_interp_5_is_exact_bilinear(w, h, total, first, last):
    img = mx.nd.array(_images()[2], dtype="uint8")
    r = mx.image.imresize(img, w, h, interp=5).asnumpy().astype(np.int64)
    assert r.shape == (h, w, 3)
    assert int(r.sum()) == total
    assert r[0, :6, 0].tolist() == first
    assert r[-1, -6:, 2].tolist() == last


def test_interp_5_in_image_resize_op_and_transforms():
    from mxnet.gluon.data.vision import transforms as T
    img = mx.nd.array(_images()[2], dtype="uint8")
    # recorded from 1.9.1
    assert int(mx.nd.image.resize(img, size=(13, 17), interp=5).asnumpy().astype(np.int64)
               .sum()) == 83807
    assert int(T.CropResize(0, 0, 20, 20, size=(13, 17), interpolation=5)(img).asnumpy()
               .astype(np.int64).sum()) == 77694
    assert int(T.CenterCrop((30, 30), interpolation=9)(img).asnumpy().astype(np.int64)
               .sum()) == 340305
    with pytest.raises(ValueError, match="Unknown interp method 5"):
        T.CenterCrop((30, 30), interpolation=5)(img)
    # float images: 1.9.1 (OpenCV) falls back to plain bilinear
    f = img.astype("float32")
    np.testing.assert_array_equal(mx.image.imresize(f, 13, 17, interp=5).asnumpy(),
                                  mx.image.imresize(f, 13, 17, interp=1).asnumpy())


def test_internal_cv_image_functions(files):
    img = mx.nd.array(_images()[2], dtype="uint8")
    # recorded from 1.9.1: shapes and sums
    r = mx.nd._internal._cvimresize(img, 5, 6, interp=1)
    assert r.shape == (6, 5, 3) and int(r.asnumpy().astype(np.int64).sum()) == 11654
    r = mx.nd._internal._cvcopyMakeBorder(img, 1, 1, 2, 2, type=1)
    assert r.shape == (28, 30, 3) and int(r.asnumpy().astype(np.int64).sum()) == 320135
    buf = (files / "im3.png").read_bytes()
    r = mx.nd._internal._cvimdecode(mx.nd.array(np.frombuffer(buf, dtype=np.uint8),
                                                dtype="uint8"))
    assert r.shape == (17, 23, 3) and r.dtype == np.uint8
    assert int(r.asnumpy().astype(np.int64).sum()) == 145520
    r = mx.nd._internal._cvimread(str(files / "im3.png"), flag=0)
    assert r.shape == (17, 23, 1) and int(r.asnumpy().astype(np.int64).sum()) == 49134


@pytest.mark.parametrize("value,ok", [(2, False), ("2", False), (1, True), ("true", True),
                                      (True, True), (0, True)])
def test_image_record_iter_bool_arguments(files, value, ok):
    # 1.9.1: "Invalid Parameter format for rand_crop expect boolean but value='2'"
    if ok:
        mx.io.ImageRecordIter(**_rec_kwargs(files), rand_crop=value)
    else:
        with pytest.raises(mx.base.MXNetError, match="expect boolean but value='2'"):
            mx.io.ImageRecordIter(**_rec_kwargs(files), rand_crop=value)


# a 7x6 CMYK JPEG (Adobe, inverted) written by Pillow, zlib-compressed and base64-encoded
_CMYK_JPEG = (
    "eNr7f+P/OwY+x5T8pFSGFAYQ+H+bwZmBmYkJhICABYhYOVhZWVhYudjZ2Th4uHh4uLm4uXn5hAR4+QT5uLkFxAQE"
    "hUVERUV5+MUlxEQkhERERf4fYBDhYGBjYGdxFmTwFWSIFGTwFmT4f4RBnoGBkZURDBiggJEJaAMbOwcnFzdQwVYB"
    "BiZGZmYmFmaQnUDZWqA8A4sgq5CioSObcGAiu1KhiFHjxIUcyk4bD4oGXfygYpxU1MTJJSYuISmlqqauoallYmpm"
    "bmFp5ezi6ubu4ekVHBIaFh4RGZWckpqWnpGZVVxSWlZeUVnV3NLa1t7R2TVp8pSp06bPmDlr0eIlS5ctX7Fy1abN"
    "W7Zu275j565Dh48cPXb8xMlTly5fuXrt+o2btx4+evzk6bPnL16++vjp85ev377/+Pnr/y0GPhZnBl+GSAZvBgZ7"
    "hhPXj21+cL/RTuHjvtmP5rqdD7v47NK6r+oXF/nq6uW+W7NW6oqrTOr0c52mrJ3LZp+deMnszhufurBrC9dFHn2c"
    "L3Dv0OQbFWanj0T19Ren5rFM5195UGXCzEdG01L9te4ofFadkKsYpuGS4Z7/sfqwuRzL5o/vO/O21gtlh1eJzV/2"
    "d0VMReeeC2r75t1sXbOMaePEQpY3Rx+VTFQ95Z531z7k9f+bAMhfuwc=")


@pytest.mark.parametrize("flag,shape,total,row0", [
    # recorded from 1.9.1 (OpenCV's CMYK conversion)
    (1, (6, 7, 3), 17420, [109, 150, 245, 128, 187, 206, 1, 24, 255, 153, 202, 106]),
    (0, (6, 7, 1), 5748, [149, 172, 43, 176, 191, 133, 173]),
])
def test_imdecode_cmyk_jpeg(flag, shape, total, row0):
    pytest.importorskip("PIL")
    import base64
    import zlib
    buf = zlib.decompress(base64.b64decode(_CMYK_JPEG))
    r = mx.image.imdecode(buf, flag=flag).asnumpy().astype(np.int64)
    assert r.shape == shape
    assert int(r.sum()) == total
    assert r[0].ravel().tolist()[:12] == row0


@pytest.mark.parametrize("shape,interp,sums,row", [
    # recorded from 1.9.1: images smaller than the crop are scaled to its height first, then
    # (the 29x24 one, still too narrow) to its width
    ((3, 40, 40), 1, [598201, 599925, 603669, 599899],
     [105, 101, 104, 116, 127, 120, 130, 146, 162, 167]),
    ((3, 40, 40), 2, [598741, 600268, 604403, 600820],
     [80, 74, 87, 125, 141, 106, 114, 150, 183, 186]),
    ((3, 30, 36), 1, [402512, 403079, 406538, 404482], None),
])
def test_image_record_iter_enlarges_small_images_in_two_steps(files, shape, interp, sums, row):
    kw = dict(_rec_kwargs(files), data_shape=shape)
    d = mx.io.ImageRecordUInt8Iter(**kw, inter_method=interp).next().data[0].asnumpy()
    d = d.astype(np.int64)
    assert [int(x.sum()) for x in d] == sums
    if row is not None:
        assert d[0, 1, 20, :10].tolist() == row


def test_image_iter_record_argument_errors_are_assertion_errors(files):
    # 1.9.1 raises AssertionError for these checks
    kw = dict(batch_size=2, data_shape=(3, 8, 8), path_imgrec=str(files / "t.rec"))
    with pytest.raises(AssertionError):
        mx.image.ImageIter(shuffle=True, **kw)
    with pytest.raises(AssertionError):
        mx.image.ImageIter(num_parts=2, **kw)


@pytest.mark.parametrize("call", [
    lambda img: mx.image.imresize(img, 10.0, 12),
    lambda img: mx.image.imresize(img, 10, 12.5),
    lambda img: mx.image.imresize(img, 10, 12, interp=2.0),
    lambda img: mx.image.resize_short(img, 10.5),
    lambda img: mx.image.copyMakeBorder(img, 1.0, 2, 3, 4),
    lambda img: mx.image.imdecode(png(img.asnumpy()), flag=True),
])
def test_image_functions_reject_non_integer_arguments(call):
    # 1.9.1: "Invalid Parameter format for h expect int but value='12.0'" (and alike)
    img = mx.nd.array(_images()[3], dtype="uint8")
    with pytest.raises(mx.base.MXNetError, match="expect int but value="):
        call(img)
    assert mx.image.imresize(img, np.int64(10), 12).shape == (12, 10, 3)


def test_crop_transforms_reject_float_sizes_when_resizing():
    from mxnet.gluon.data.vision import transforms as T
    img = mx.nd.array(_images()[3], dtype="uint8")
    # 1.9.1: "Invalid Parameter format for h expect int but value='40.0'"
    with pytest.raises(mx.base.MXNetError, match="expect int but value="):
        T.CenterCrop(40.0)(img)
    with pytest.raises(mx.base.MXNetError, match="expect int but value="):
        T.RandomResizedCrop(10.0)(img)
    assert T.CenterCrop(10.0)(img).shape == (10, 10, 3)   # no resize needed: accepted by 1.9.1


@pytest.mark.parametrize("key,value", [("resize", 12.0), ("pad", 1.0), ("resize", True),
                                       ("batch_size", 4.0)])
def test_image_record_iter_int_arguments_reject_floats_and_bools(files, key, value):
    # 1.9.1: "Invalid Parameter format for resize expect int but value='12.0'"
    kw = dict(_rec_kwargs(files))
    kw[key] = value
    with pytest.raises(mx.base.MXNetError, match=f"for {key} expect int"):
        mx.io.ImageRecordIter(**kw)
