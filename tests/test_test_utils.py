"""mx.test_utils: tolerances, comparisons, random inputs and the numeric gradient check."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import test_utils as tu


def test_default_tolerances_per_dtype():
    # assert_almost_equal picks tolerances per dtype
    tu.assert_almost_equal(np.float32(1.0), np.float32(1.0 + 5e-5))
    tu.assert_almost_equal(np.array([1.0], np.float16), np.array([1.005], np.float16))
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(np.array([1.0], np.float64), np.array([1.0 + 1e-4], np.float64))
    # almost_equal always defaults to float64's tolerances (1.9.1: False, False, False)
    assert not tu.almost_equal(np.float32(1.0), np.float32(1.0 + 5e-5))
    assert not tu.almost_equal(np.array([1.0], np.float64), np.array([1.0 + 1e-4], np.float64))
    assert not tu.almost_equal(np.array([1.0], np.float16), np.array([1.005], np.float16))


def test_assert_almost_equal_reports_location():
    with pytest.raises(AssertionError, match=r"Location of maximum error: \(1,\)"):
        tu.assert_almost_equal(np.array([1.0, 2.0], np.float32), np.array([1.0, 3.0], np.float32))
    tu.assert_almost_equal(mx.nd.ones((2,)), np.ones(2, np.float32))


def test_same_and_shapes():
    assert tu.same(mx.nd.array([1, 2]), np.array([1, 2], np.float32))
    assert len(tu.rand_shape_2d()) == 2 and len(tu.rand_shape_3d()) == 3
    assert len(tu.rand_shape_nd(4)) == 4
    a = tu.rand_ndarray((3, 4), dtype=np.float64)
    assert a.shape == (3, 4) and a.dtype == np.float64


def test_default_context_switch():
    old = tu.default_context()
    try:
        tu.set_default_context(mx.cpu(1))
        assert mx.nd.zeros((1,)).context == mx.cpu(1)
    finally:
        tu.set_default_context(old)


def test_numeric_gradient_check_catches_a_wrong_gradient():
    class Wrong(mx.autograd.Function):
        def forward(self, x):
            return x * x

        def backward(self, dy):
            return dy  # should be 2*x*dy

    tu.check_numeric_gradient(lambda x: x * x, [np.array([1.0, 2.0])])
    with pytest.raises(AssertionError):
        tu.check_numeric_gradient(lambda x: Wrong()(x), [np.array([1.0, 2.0])])


# -- names added to match 1.9.1's mx.test_utils ------------------------------------------------
from pathlib import Path  # noqa: E402

from tests._scripts import load_script  # noqa: E402

_GEN = load_script("tools/golden/gen_test_utils.py")
_GOLDEN = np.load(Path(__file__).resolve().parent / "golden" / "test_utils.npz")


@pytest.mark.parametrize("case", list(_GEN.CASES))
def test_seeded_helpers_match_1_9_1(case):
    got = {k: np.asarray(v) for k, v in _GEN.CASES[case](mx, tu).items()}
    want = sorted(k.split("/", 1)[1] for k in _GOLDEN.files if k.startswith(case + "/"))
    assert want and set(want) <= set(got)
    for key in want:
        ref = _GOLDEN[f"{case}/{key}"]
        assert got[key].shape == ref.shape, key
        if ref.dtype.kind == "f":
            np.testing.assert_allclose(got[key], ref, rtol=1e-6, atol=1e-9, err_msg=key)
        else:
            np.testing.assert_array_equal(got[key], ref, err_msg=key)


def test_chi_square_pvalues_without_scipy():
    # 95% quantiles of chi-square(df): the survival function there is 0.05
    for df, q in ((1, 3.841459), (2, 5.991465), (4, 9.487729), (10, 18.307038)):
        assert tu._upper_regularized_gamma(df / 2.0, q / 2.0) == pytest.approx(0.05, abs=1e-6)
    got = _GEN.case_generator_checks(mx, tu)
    assert got["checks"].tolist() == [True, False, True, False]
    np.random.seed(4)
    buckets, probs = tu.gen_buckets_probs_with_ppf(lambda p: -1 + 4 * p, 5)
    p_good, _, _ = tu.chi_square_check(lambda n: np.random.uniform(-1, 3, n), buckets, probs,
                                       nsamples=5000)
    p_bad, _, _ = tu.chi_square_check(lambda n: np.random.uniform(-1, 2, n), buckets, probs,
                                      nsamples=5000)
    assert p_good > 0.05 and p_bad < 1e-10
    tu.verify_generator(lambda n: np.random.uniform(-1, 3, n), buckets, probs, nsamples=2000,
                        nrepeat=3)
    with pytest.raises(AssertionError, match="Generator test fails"):
        tu.verify_generator(lambda n: np.random.uniform(-1, 2, n), buckets, probs,
                            nsamples=2000, nrepeat=3)


def test_check_speed_and_simple_forward():
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    t = tu.check_speed(net, ctx=mx.cpu(), N=3, data=(2, 5))
    assert isinstance(t, float) and t > 0
    loc = {"data": np.ones((2, 5)), "fc_weight": np.ones((4, 5)), "fc_bias": np.zeros(4)}
    assert tu.check_speed(net, location=loc, N=2, typ="forward") > 0
    with pytest.raises(ValueError, match="whole"):
        tu.check_speed(net, location=loc, typ="backward")
    out = tu.simple_forward(net, data=np.ones((2, 5)), fc_weight=np.ones((4, 5)),
                            fc_bias=np.arange(4.0))
    np.testing.assert_allclose(out, np.tile(5.0 + np.arange(4.0), (2, 1)))


def test_comparison_variants():
    a = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    b = a.copy()
    b[3] = 5.0
    tu.assert_almost_equal_with_err(a, b, etol=0.3)
    with pytest.raises(AssertionError, match="mismatch"):
        tu.assert_almost_equal_with_err(a, b, etol=0.2)
    with pytest.raises(AssertionError):
        tu.assert_almost_equal_with_err(a, b)
    tu.assert_almost_equal_ignore_nan(np.array([np.nan, 1.0]), np.array([7.0, 1.0]))
    tu.assert_allclose(a, a.copy())
    with pytest.raises(AssertionError):
        tu.checkShapes(np.zeros(2), np.zeros(3))
    assert "maximum error: (1,)" in tu.locationError(a, b, (1,), ("x", "y"), maxError=True)
    tu.compare_ndarray_tuple((mx.nd.ones(2), (mx.nd.zeros(1),)), (np.ones(2), (np.zeros(1),)))
    assert tu.get_tolerance(np.float16(1), None, tu.default_rtols()) == 1e-2
    assert tu.get_tolerance(np.zeros(1), {np.dtype(np.float64): 7.0}, tu.default_rtols()) == 7
    assert tu.get_tols(np.float16(1), np.float64(1), None, None) == (1e-2, 1e-1)
    assert tu.get_rtol() == 1e-5 and tu.get_atol(0.5) == 0.5 and tu.get_etol() == 0
    x = mx.nd.ones((2,))
    assert tu.same_array(x, x) and not tu.same_array(x, x.copy())
    s1 = mx.sym.relu(mx.sym.var("a"))
    assert tu.same_symbol_structure(s1, mx.sym.relu(mx.sym.var("b")))
    assert not tu.same_symbol_structure(s1, mx.sym.sigmoid(mx.sym.var("a")))


def test_retry_environment_and_platform(monkeypatch):
    calls = []

    @tu.retry(3)
    def flaky():
        calls.append(1)
        assert len(calls) == 3

    flaky()
    assert len(calls) == 3
    monkeypatch.delenv("MXTU_X", raising=False)
    with tu.environment("MXTU_X", "1"):
        assert tu.getenv("MXTU_X") == "1"
        with tu.environment({"MXTU_X": None}):
            assert tu.getenv("MXTU_X") is None
        assert tu.getenv("MXTU_X") == "1"
    assert tu.getenv("MXTU_X") is None
    assert not tu.has_tvm_ops() and tu.is_op_runnable()
    assert list(tu.list_gpus()) == []
    assert isinstance(tu.is_cd_run(), bool) and isinstance(tu.is_aarch64_run(), bool)
    with pytest.raises(mx.MXNetError, match="CUDA"):
        tu.get_cuda_compute_capability(mx.gpu(0))
    assert tu.get_im2rec_path().endswith("im2rec.py")
    monkeypatch.setenv("MXTU_HOME", "/nonexistent")
    with pytest.raises(OSError):
        tu.get_im2rec_path("MXTU_HOME")
    with tu.discard_stderr():
        pass
    assert tu.default_dtype() is np.float32


def test_dummy_iter_and_sparse_shapes():
    it = mx.io.NDArrayIter(np.arange(12.0).reshape(6, 2), np.arange(6.0), batch_size=2)
    dummy = tu.DummyIter(it)
    first = next(dummy)
    assert next(dummy) is first and dummy.batch_size == 2
    assert dummy.provide_data == it.provide_data
    np.random.seed(0)
    csr = tu.rand_ndarray((6, 5), "csr", density=0.4)
    assert csr.stype == "csr" and (csr.asnumpy() != 0).sum() == 12
    shuffled = tu.create_sparse_array((6, 5), "csr", data_init=3.0, shuffle_csr_indices=True)
    assert set(np.unique(shuffled.asnumpy())) <= {0.0, 3.0}
    with pytest.raises(AssertionError):
        tu.create_sparse_array((2, 2), "dense")


def test_compare_optimizer_and_hybridize_consistency():
    tu.compare_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9),
                         mx.optimizer.SGD(learning_rate=0.1, momentum=0.9), (3, 4), np.float32)
    with pytest.raises(AssertionError):
        tu.compare_optimizer(mx.optimizer.SGD(learning_rate=0.1),
                             mx.optimizer.SGD(learning_rate=0.2), (3, 4), np.float32)

    def builder(prefix):
        net = mx.gluon.nn.HybridSequential(prefix=prefix)
        with net.name_scope():
            net.add(mx.gluon.nn.Dense(3, in_units=4))
        return net

    x = mx.np.array(np.random.uniform(size=(2, 4)).astype(np.float32))
    tu.check_gluon_hybridize_consistency(builder, [x])
    with pytest.raises(AssertionError):
        tu.check_gluon_hybridize_consistency(builder, [x], numpy_func=lambda a: a[:, :3] + 1e3)


def test_download_helpers_offline(tmp_path):
    src = tmp_path / "src.bin"
    src.write_bytes(b"abc" * 1000)
    url = src.as_uri()
    got = tu.download(url, dirname=str(tmp_path / "out"))
    assert Path(got).read_bytes() == src.read_bytes()
    assert tu.download(url, fname=got) == got  # exists: skipped
    import bz2
    import zipfile
    (tmp_path / "z").mkdir()
    with zipfile.ZipFile(tmp_path / "pack.zip", "w") as zf:
        zf.writestr("inner.txt", "hello")
    tu.get_zip_data(str(tmp_path / "z"), (tmp_path / "pack.zip").as_uri(), "pack.zip")
    assert (tmp_path / "z" / "inner.txt").read_text() == "hello"
    (tmp_path / "b").mkdir()
    (tmp_path / "d.bz2").write_bytes(bz2.compress(b"line1\nline2\n"))
    tu.get_bz2_data(str(tmp_path / "b"), "d.txt", (tmp_path / "d.bz2").as_uri(), "d.bz2")
    assert (tmp_path / "b" / "d.txt").read_bytes() == b"line1\nline2\n"
    assert not (tmp_path / "b" / "d.bz2").exists()
    meta = {"m": {"symbol": url, "params": url}}
    prefix, epoch = tu.download_model("m", dst_dir=str(tmp_path / "models"), meta_info=meta)
    assert epoch == 0 and Path(prefix + "-0000.params").exists()
    assert tu.download_model("nope", meta_info=meta) == (None, 0)
    with pytest.raises(OSError):
        tu.download((tmp_path / "missing").as_uri(), dirname=str(tmp_path), retries=1)
    assert not any(p.name.endswith(".tmp") for p in tmp_path.rglob("*"))
