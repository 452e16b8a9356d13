"""Regressions found by running realistic MXNet 1.9.1 data-pipeline and tooling scripts under
both libraries (io iterators, image, test_utils, profiler).

Every expected value below was recorded by running the same code under MXNet 1.9.1.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet import test_utils as tu


def test_assert_almost_equal_report_matches_191(capsys):
    a = np.arange(12.0).reshape(3, 4)
    b = a + np.linspace(0, 1, 12).reshape(3, 4)
    b[0, 0] = 0.0
    b[0, 1] = 1.0
    b[2, 3] = 11.0 + 3.0
    with pytest.raises(AssertionError) as info:
        tu.assert_almost_equal(a, b, mismatches=(3, 2))
    # recorded from 1.9.1 (stdout, then the message)
    assert capsys.readouterr().out == (
        "\n*** Maximum errors for vector of size 12:  rtol=1e-05, atol=1e-20\n\n"
        "  1: Error 21428.571429  Location of error: (2, 3), a=11.00000000, b=14.00000000\n"
        "  2: Error 8333.333333  Location of error: (1, 1), a=5.00000000, b=5.45454545\n")
    assert str(info.value) == (
        "\nItems are not equal:\n"
        "Error 21428.571429 exceeds tolerance rtol=1.000000e-05, atol=1.000000e-20 "
        "(mismatch at least 25.000000%).\n"
        "Location of maximum error: (2, 3), a=11.00000000, b=14.00000000\n"
        " ACTUAL: array([[ 0.,  1.,  2.,  3.],\n"
        "       [ 4.,  5.,  6.,  7.],\n"
        "       [ 8.,  9., 10., 11.]])\n"
        " DESIRED: array([[ 0.        ,  1.        ,  2.18181818,  3.27272727],\n"
        "       [ 4.36363636,  5.45454545,  6.54545455,  7.63636364],\n"
        "       [ 8.72727273,  9.81818182, 10.90909091, 14.        ]])")
    # not limited: the exact share of mismatching elements, names used in the location
    with pytest.raises(AssertionError) as info:
        tu.assert_almost_equal(mx.nd.array([1, 2, 5]), mx.nd.array([1, 3, 5]), names=("p", "q"))
    assert capsys.readouterr().out.endswith(
        "  1: Error 769.230774  Location of error: (1,), p=2.00000000, q=3.00000000\n")
    assert "(mismatch 33.333333%).\nLocation of maximum error: (1,), p=2.00000000, q=3.00000000\n" \
        " ACTUAL: array([1., 2., 5.], dtype=float32)" in str(info.value)


def test_assert_almost_equal_scalar_and_shape_messages(capsys):
    with pytest.raises(AssertionError) as info:
        tu.assert_almost_equal(np.float32(1.0), np.float32(2.0))
    # recorded from 1.9.1: measured in float64, no location, nothing printed
    assert str(info.value) == ("\nItems are not equal:\nError 833.333333 exceeds tolerance "
                               "rtol=1.000000e-04, atol=1.000000e-03.\n\n ACTUAL: 1.0\n"
                               " DESIRED: 2.0")
    assert capsys.readouterr().out == ""
    with pytest.raises(AssertionError) as info:
        tu.assert_almost_equal(np.ones(2), np.ones(3), use_broadcast=False)
    assert str(info.value).startswith(
        "\nItems are not equal: a.shape = (2,) and b.shape = (3,) are not equal\n")
    # long arrays are elided as 1.9.1 printed them (threshold 4)
    with pytest.raises(AssertionError) as info:
        tu.assert_almost_equal(np.arange(30, dtype="float32"), np.arange(30, dtype="float32") * 1.1,
                               mismatches=(3, 2))
    assert "(mismatch at least 10.000000%)" in str(info.value)
    assert " ACTUAL: array([ 0.,  1.,  2., ..., 27., 28., 29.], dtype=float32)" in str(info.value)


def test_almost_equal_defaults_and_with_err_message(capsys):
    a = np.ones(3, "float32")
    # recorded from 1.9.1: almost_equal uses float64's tolerances whatever the dtype
    assert not tu.almost_equal(a, a + np.float32(5e-5))
    tu.assert_almost_equal(a, a + np.float32(5e-5))
    with pytest.raises(AssertionError) as info:
        tu.assert_almost_equal_with_err(a, a + np.array([0, 1, 0], "float32"), etol=0.2)
    assert "Error 833.333313 exceeds tolerance rtol=1.000000e-04, atol=1.000000e-03 " \
        "(mismatch 33.333333%).\nLocation of maximum error: (1,), a=1.00000000, b=2.00000000" \
        in str(info.value)
    assert "  1: Error 833.333313  Location of error: (1,)" in capsys.readouterr().out
    tu.assert_almost_equal_with_err(a, a + np.array([0, 1, 0], "float32"), etol=0.4)


def test_profiler_memory_avg_use_is_half_the_spread(tmp_path):
    mx.profiler.set_config(profile_memory=True, profile_imperative=True, aggregate_stats=True,
                           filename=str(tmp_path / "pm.json"))
    mx.profiler.set_state("run")
    a = mx.nd.ones((1000,))
    b = mx.nd.ones((2000,))
    c = mx.nd.ones((500,))
    del b
    d = mx.nd.ones((3000,))
    d.wait_to_read()
    mx.profiler.set_state("stop")
    table = mx.profiler.dumps()
    data = mx.profiler.dumps(format="json", reset=True)
    del a, c
    # recorded from 1.9.1: 5 samples, min 4 kB, max 18 kB, "Avg Use" 7 kB = (18 - 4) / 2
    row = [ln for ln in table.splitlines() if ln.startswith("Memory: cpu/0")]
    assert row == ["Memory: cpu/0                           5           4.0000          18.0000"
                   "           7.0000"]
    assert '"Avg": 7' in data


def test_copy_make_border_scalar_values():
    img = mx.nd.ones((2, 2, 3), dtype="uint8") * 9
    # recorded from 1.9.1: [7, 0, 0] [8, 0, 0] [1, 2, 3]
    for values, first in [(7, [7, 0, 0]), (7.6, [8, 0, 0]), ((1, 2, 3), [1, 2, 3])]:
        out = mx.image.copyMakeBorder(img, 1, 0, 0, 0, type=0, values=values)
        assert out.shape == (3, 2, 3)
        assert out[0, 0].asnumpy().tolist() == first


def test_image_argument_checks_raise_assertion_error():
    # 1.9.1 asserts in these checks; the errors here are ValueErrors that are AssertionErrors too
    with pytest.raises(AssertionError, match="rand_crop"):
        mx.image.CreateAugmenter((3, 4, 4), rand_resize=True)
    with pytest.raises(AssertionError, match="std"):
        mx.image.CreateAugmenter((3, 4, 4), std=np.ones(2))
    with pytest.raises(AssertionError, match="mean"):
        mx.image.CreateAugmenter((3, 4, 4), mean=[1, 2, 3])
    with pytest.raises(AssertionError, match="path_imgrec"):
        mx.image.ImageIter(batch_size=2, data_shape=(3, 4, 4))
    with pytest.raises(ValueError, match="uint8"):
        mx.image.ImageIter(batch_size=2, data_shape=(3, 4, 4), imglist=[[0.0, "x.png"]],
                           dtype="uint8")


def test_csv_iter_integer_dtype_reads_leading_integer(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(" 7,-3.9,1e3\n+4,2.5e-01,-0\n3.99,-7.5,1.5e+00\n")
    it = mx.io.CSVIter(data_csv=str(path), data_shape=(3,), batch_size=3, dtype="int32")
    # recorded from 1.9.1
    assert it.next().data[0].asnumpy().tolist() == [[7, -3, 1], [4, 2, 0], [3, -7, 1]]
    it = mx.io.CSVIter(data_csv=str(path), data_shape=(3,), batch_size=3, dtype="int64")
    assert it.next().data[0].asnumpy().tolist() == [[7, -3, 1], [4, 2, 0], [3, -7, 1]]
    it = mx.io.CSVIter(data_csv=str(path), data_shape=(3,), batch_size=3)
    np.testing.assert_allclose(it.next().data[0].asnumpy(),
                               [[7, -3.9, 1000], [4, 0.25, 0], [3.99, -7.5, 1.5]], rtol=1e-6)
    # np.savetxt's default format, read with an integer dtype (1.9.1: [[0, 5], [1, 1]])
    lab = tmp_path / "l.csv"
    np.savetxt(lab, np.arange(4).reshape(2, 2) * 0.5, delimiter=",")
    it = mx.io.CSVIter(data_csv=str(lab), data_shape=(2,), batch_size=2, dtype="int32")
    assert it.next().data[0].asnumpy().tolist() == [[0, 5], [1, 1]]
    bad = tmp_path / "bad.csv"
    bad.write_text("9,x,2\n")
    with pytest.raises(mx.base.MXNetError, match="integer"):
        mx.io.CSVIter(data_csv=str(bad), data_shape=(3,), batch_size=1, dtype="int32").next()


def test_ndarray_iter_csr_needs_discard():
    csr = mx.nd.array(np.eye(4)).tostype("csr")
    # recorded from 1.9.1: NotImplementedError for pad/roll_over, CSR data or labels
    for kw in [dict(last_batch_handle="pad"), dict(last_batch_handle="roll_over"), dict()]:
        with pytest.raises(NotImplementedError, match="discard"):
            mx.io.NDArrayIter(csr, batch_size=2, **kw)
    with pytest.raises(NotImplementedError, match="discard"):
        mx.io.NDArrayIter(np.ones((4, 2)), csr, batch_size=2)
    it = mx.io.NDArrayIter(csr, np.arange(4.0), batch_size=3, last_batch_handle="discard")
    batches = list(it)
    assert len(batches) == 1
    assert batches[0].data[0].asnumpy().tolist() == np.eye(4)[:3].tolist()
    assert batches[0].label[0].asnumpy().tolist() == [0.0, 1.0, 2.0]


def test_profiler_argument_errors_use_191_exception_types():
    # recorded from 1.9.1: AssertionError for format/sort_by, KeyError for an unknown state,
    # an int ``ascending`` is accepted
    with pytest.raises(AssertionError, match="sort_by"):
        mx.profiler.dumps(sort_by="bogus")
    with pytest.raises(AssertionError, match="format"):
        mx.profiler.dumps(format="x")
    with pytest.raises(KeyError, match="walk"):
        mx.profiler.set_state("walk")
    with pytest.raises(mx.base.MXNetError):
        mx.profiler.set_state("RUN")
    assert isinstance(mx.profiler.dumps(ascending=1), str)
