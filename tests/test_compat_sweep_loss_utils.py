"""Regressions found by a compatibility sweep of gluon.loss with non-default arguments,
gluon.utils (split_data, split_and_load, clip_global_norm, download, small helpers) and the
train-loop helpers, against MXNet 1.9.1. Literal values were recorded from 1.9.1."""
from __future__ import annotations

import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon
from mxnet.base import MXNetError
from mxnet.gluon import utils as gu


# -- split_data / split_and_load -------------------------------------------------------------------
def test_split_data_more_slices_than_rows_leaves_empty_slices():
    # recorded from 1.9.1: uneven splitting never refuses; the last slices are empty
    x = mx.nd.arange(6).reshape((2, 3))
    parts = gu.split_data(x, 3, even_split=False)
    assert [p.shape for p in parts] == [(1, 3), (1, 3), (0, 3)]
    assert [p.asnumpy().tolist() for p in parts[:2]] == [[[0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0]]]
    x = mx.nd.arange(30).reshape((10, 3))
    parts = gu.split_data(x, 11, even_split=False)
    assert [p.shape[0] for p in parts] == [1] * 10 + [0]
    with pytest.raises(ValueError, match="cannot be evenly split into 11 slices"):
        gu.split_data(x, 11)


def test_split_and_load_numpy_input_in_np_mode_keeps_dtype():
    # recorded from 1.9.1: under npx.set_np() a NumPy batch becomes mx.np arrays of its dtype
    ctxs = [mx.cpu(0), mx.cpu(1)]
    with mx.util.np_array(True), mx.util.np_shape(True):
        parts = gu.split_and_load(np.arange(6.0).reshape(3, 2), ctxs, even_split=False)
        assert [(type(p).__name__, str(p.ctx), p.dtype, p.shape) for p in parts] == [
            ("ndarray", "cpu(0)", np.dtype("float64"), (2, 2)),
            ("ndarray", "cpu(1)", np.dtype("float64"), (1, 2))]
        (one,) = gu.split_and_load([[1, 2], [3, 4]], [mx.cpu(0)])
        assert (type(one).__name__, one.dtype, one.shape) == ("ndarray", np.dtype("float32"),
                                                             (2, 2))
    # legacy mode: NDArray float32, as before
    parts = gu.split_and_load(np.ones((4, 2), dtype="int64"), ctxs)
    assert [(type(p).__name__, p.dtype) for p in parts] == [("NDArray", np.float32)] * 2


# -- clip_global_norm ------------------------------------------------------------------------------
def test_clip_global_norm_rejects_integer_arrays():
    # 1.9.1 raises MXNetError (its norm is a dot product, float only)
    with pytest.raises(MXNetError, match="clip_global_norm: .*int32"):
        gu.clip_global_norm([mx.nd.ones(4, dtype="int32")], 1.0)


def test_clip_global_norm_accepts_a_one_element_array_as_max_norm():
    # recorded from 1.9.1
    arrs = [mx.nd.ones((4,)), mx.nd.ones((2, 2)) * 2]
    n = gu.clip_global_norm(arrs, mx.nd.array([1.0]))
    assert isinstance(n, np.float32)
    np.testing.assert_allclose(n, 4.472136, rtol=1e-6)
    np.testing.assert_allclose(arrs[0].asnumpy(), [0.22361] * 4, rtol=1e-4)
    np.testing.assert_allclose(arrs[1].asnumpy(), [[0.44721] * 2] * 2, rtol=1e-4)
    arrs = [mx.nd.ones((4,))]
    n = gu.clip_global_norm(arrs, mx.nd.array([1.0]), check_isfinite=False)
    assert isinstance(n, mx.nd.NDArray) and n.asnumpy().tolist() == [2.0]
    assert arrs[0].asnumpy().tolist() == [0.5] * 4


# -- small helpers ---------------------------------------------------------------------------------
def test_indent_brief_print_list_and_replace_file(tmp_path):
    # recorded from 1.9.1
    assert gu._indent("a\nb\nc", 2) == "a\n  b\n  c"
    assert gu._indent("abc", 4) == "abc"
    assert gu._indent("", 2) == ""
    assert gu._brief_print_list(list(range(20))) == "'0', '1', '2', ..., '16', '17', '18', '19'"
    assert gu._brief_print_list(["a", "b"]) == "'a', 'b'"
    assert gu._brief_print_list(list(range(12)), limit=3) == "'0', ..., '10', '11'"
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("x")
    b.write_text("y")
    gu.replace_file(str(a), str(b))
    assert sorted(os.listdir(tmp_path)) == ["b"] and b.read_text() == "x"
    assert "replace_file" in gu.__all__


def test_shape_is_known_and_output_type_checks():
    # recorded from 1.9.1 (these helpers live in gluon.utils there)
    assert [gu.shape_is_known(s) for s in [(2, 3), (0, 3), None, ()]] == [True, False, False,
                                                                         False]
    with pytest.raises(AssertionError):
        gu.shape_is_known((-1,))
    with mx.util.np_shape(True):
        assert [gu.shape_is_known(s) for s in [(0, 3), (), (-1, 3), [2]]] == [True, True, False,
                                                                             True]
    assert gu._check_same_symbol_type([mx.sym.var("a"), mx.sym.var("b")]) is mx.sym.Symbol
    with pytest.raises(TypeError):
        gu._check_same_symbol_type([mx.sym.var("a"), mx.sym.var("b").as_np_ndarray()])
    with pytest.raises(TypeError):
        gu._check_all_np_ndarrays([mx.nd.ones(1)])
    one = mx.nd.ones(1).as_np_ndarray()
    assert gu._check_all_np_ndarrays(one) is None
    assert gu._check_all_np_ndarrays([one, None, (one,)]) is None


# -- download without network ----------------------------------------------------------------------
def test_download_argument_errors(tmp_path):
    # recorded from 1.9.1: AssertionError for a negative retry count and for a URL without a
    # file name (when no file path is given)
    with pytest.raises(AssertionError, match="retries should be at least 0, currently it's -1"):
        gu.download("http://127.0.0.1:9/none.bin", path=str(tmp_path), retries=-1)
    with pytest.raises(AssertionError, match="file name"):
        gu.download("http://127.0.0.1:9/dir/", path=str(tmp_path), retries=1)


def test_download_failure_prints_tries_and_raises_oserror(tmp_path, capsys):
    url = (tmp_path / "missing.bin").as_uri()
    target = tmp_path / "sub" / "out.bin"
    # 1.9.1 raises requests' ConnectionError, an OSError; ours is also an MXNetError
    with pytest.raises(OSError) as info:
        gu.download(url, path=str(target), retries=2)
    assert isinstance(info.value, MXNetError)
    out = capsys.readouterr().out.splitlines()
    # as 1.9.1: one "Downloading" line per try, two tries for retries=2, the folder made
    assert out[0] == f"Downloading {target} from {url}..."
    assert out[1].startswith("download failed due to ") and out[1].endswith(
        ", retrying, 1 attempt left")
    assert out[2] == out[0] and len(out) == 3
    assert os.listdir(tmp_path / "sub") == []


def test_download_unverified_ssl_warns(tmp_path, capsys):
    # recorded from 1.9.1: a UserWarning before the first try
    url = (tmp_path / "missing.bin").as_uri()
    with pytest.warns(UserWarning, match=r"Unverified HTTPS request is being made "
                                         r"\(verify_ssl=False\)"):
        with pytest.raises(OSError):
            gu.download(url, path=str(tmp_path), retries=1, verify_ssl=False)
    assert capsys.readouterr().out.count("Downloading ") == 1


def test_download_hash_mismatch_retries_then_raises_userwarning(tmp_path, capsys):
    # recorded from 1.9.1: the wrong SHA-1 is retried like a failed fetch and finally raised as
    # a UserWarning exception; the fetched file stays
    src = tmp_path / "src.txt"
    src.write_text("hello\n")
    target = tmp_path / "g.txt"
    with pytest.raises(UserWarning) as info:
        gu.download(src.as_uri(), path=str(target), sha1_hash="0" * 40, retries=2)
    assert isinstance(info.value, MXNetError)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[1].endswith(", retrying, 1 attempt left")
    assert target.read_text() == "hello\n"
    got = gu.download(src.as_uri(), path=str(tmp_path / "h" / "i.txt"),
                      sha1_hash="f572d396fae9206628714fb2ce00f72e94f2258f")
    assert got == str(tmp_path / "h" / "i.txt")


def test_download_existing_file_is_not_fetched(tmp_path, capsys):
    f = tmp_path / "x.bin"
    f.write_bytes(b"hello world")
    sha1 = "2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"
    assert gu.check_sha1(str(f), sha1) and not gu.check_sha1(str(f), "0" * 40)
    assert gu.download("http://127.0.0.1:9/x.bin", path=str(tmp_path)) == str(f)
    assert gu.download("http://127.0.0.1:9/x.bin", path=str(f), sha1_hash=sha1) == str(f)
    assert capsys.readouterr().out == ""


# -- losses in NumPy mode --------------------------------------------------------------------------
_PRED = [[0.5, -1.0, 2.0], [-0.3, 0.8, -2.5]]
_LAB = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]


@pytest.mark.parametrize("hybrid", [False, True])
def test_np_mode_pos_weight_and_sample_weight_promote_dtypes(hybrid):
    # recorded from 1.9.1: float64 predictions with a float32 pos_weight / int32 sample_weight
    with mx.util.np_array(True), mx.util.np_shape(True):
        pred = mx.np.array(np.array(_PRED))
        lab = mx.np.array(np.array(_LAB))
        pw = mx.np.array([1.0, 2.0, 3.0], dtype="float32")
        cases = [
            (gluon.loss.SigmoidBCELoss(), (pred, lab, None, pw), [0.389374, 3.011075]),
            (gluon.loss.SigmoidBCELoss(from_sigmoid=True),
             (mx.npx.sigmoid(pred), lab, None, pw), [0.389374, 3.011075]),
            (gluon.loss.L1Loss(), (pred, lab, mx.np.array([[1], [2]], dtype="int32")),
             [0.833333, 2.666667]),
        ]
        for loss, args, expected in cases:
            if hybrid:
                loss.hybridize()
            out = loss(*args)
            assert out.dtype == np.float64
            np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5)


# -- gluon.contrib.nn ------------------------------------------------------------------------------
def test_sync_batch_norm_caution_is_reported_once_from_the_library():
    # 1.9.1 raises the warning inside the library, so Python's default filter shows it once
    import warnings

    from mxnet.gluon.contrib import nn as cnn
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("default")
        cnn.SyncBatchNorm(in_channels=2)
        cnn.SyncBatchNorm(in_channels=3)
    cautions = [w for w in caught if "Caution using SyncBatchNorm" in str(w.message)]
    assert len(cautions) >= 1
    assert all("gluon" in w.filename and "test_" not in w.filename for w in cautions)
