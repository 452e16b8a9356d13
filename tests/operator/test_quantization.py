"""INT8 quantization operators (contrib_quantize.py, contrib_quantized.py): bit-exact 1.9.1
golden outputs, closed forms, symbols and errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mxnet as mx

from .._scripts import load_script
from .harness import (GradCase, check_grad_case, expect_error, golden_case_results,
                      load_golden_npz, rand)

nd = mx.nd
C = nd.contrib
C_SYM = mx.sym.contrib

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "quantization.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_quantization.py")

# 1.9.1 registers no gradient for any of these.
NON_DIFFERENTIABLE = (
    "_contrib_quantize", "_contrib_quantize_v2", "_contrib_quantize_asym",
    "_contrib_dequantize", "_contrib_requantize", "_contrib_calibrate_entropy",
    "_contrib_quantized_fully_connected", "_contrib_quantized_conv",
    "_contrib_quantized_pooling", "_contrib_quantized_flatten", "_contrib_quantized_act",
    "_contrib_quantized_concat", "_contrib_quantized_elemwise_add",
    "_contrib_quantized_elemwise_mul", "_contrib_quantized_embedding",
    "_contrib_quantized_batch_norm", "_contrib_backward_hawkesll",
)


def _load_table():
    return load_script("tools/golden/gen_quantization.py")


_TABLE = _load_table()


def _hawkes_inputs(seed):
    r = np.random.RandomState(seed)
    n, k, t = 3, 2, 5
    return dict(state=r.uniform(0.0, 1.0, (n, k)), lags=r.uniform(0.1, 1.0, (n, t)),
                marks=r.randint(0, k, (n, t)), valid_length=np.array([5.0, 3.0, 0.0]),
                max_time=np.array([6.0, 4.0, 2.0]))


_H = _hawkes_inputs(5)


def _hawkes(lda, alpha, beta):
    dt = "float64"
    return C.hawkesll(lda, alpha, beta, nd.array(_H["state"], dtype=dt),
                      nd.array(_H["lags"], dtype=dt), nd.array(_H["marks"], dtype="int32"),
                      nd.array(_H["valid_length"], dtype=dt),
                      nd.array(_H["max_time"], dtype=dt))[0]


GRAD_CASES = [
    GradCase("sparse_embedding", lambda w: C.SparseEmbedding(
        nd.array([[0, 3], [2, 3]], dtype="float64"), w, input_dim=4, output_dim=3),
        [rand(4, 3, seed=6)], ops=("_contrib_SparseEmbedding",)),
    GradCase("hawkesll", _hawkes,
             [rand(3, 2, low=0.5, high=2.0, seed=7), np.array([0.3, 0.5]),
              np.array([1.2, 0.8])], ops=("_contrib_hawkesll",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _r(v):
    return nd.array([v], dtype="float32")


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden outputs


@pytest.mark.parametrize("case", _TABLE.CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    for key, have, want in golden_case_results(_TABLE, case, golden, post=False):
        if case.id.startswith("tol."):
            # float kernels (summation order; 1.9.1's hawkesll takes exp and log in single
            # precision even for float64) differ in the last bits
            rtol = 1e-7 if want.dtype == np.float64 else 2e-5
            np.testing.assert_allclose(have, want, rtol=rtol, atol=rtol,
                                       err_msg=f"{case.id} {key}")
        else:
            np.testing.assert_array_equal(have, want, err_msg=f"{case.id} {key}")


# ---------------------------------------------------------------------------------------------
# closed forms


def test_quantize_dequantize_round_trip_is_within_half_a_step():
    x = np.random.RandomState(0).uniform(-2.0, 3.0, (50, 7)).astype(np.float32)
    q, lo, hi = C.quantize_v2(nd.array(x))
    assert q.dtype == np.int8
    back = C.dequantize(q, lo, hi).asnumpy()
    step = 3.0 / 127.5
    assert np.abs(back - x).max() <= step / 2 + 1e-6


def test_quantized_fully_connected_matches_the_float_layer():
    r = np.random.RandomState(1)
    x = r.uniform(0, 1.0, (6, 20)).astype(np.float32)
    w = r.uniform(-0.5, 0.5, (4, 20)).astype(np.float32)
    qx = C.quantize_v2(nd.array(x), out_type="uint8", min_calib_range=0.0,
                       max_calib_range=1.0)
    qw = C.quantize_v2(nd.array(w), min_calib_range=-0.5, max_calib_range=0.5)
    y, lo, hi = C.quantized_fully_connected(qx[0], qw[0], qx[1], qx[2], qw[1], qw[2],
                                            num_hidden=4, no_bias=True)
    assert y.dtype == np.int32
    # the int32 accumulator of integer products: exactly the integer GEMM
    want = qx[0].asnumpy().astype(np.int64) @ qw[0].asnumpy().astype(np.int64).T
    np.testing.assert_array_equal(y.asnumpy(), want)
    # and, scaled back, close to the float result
    real = C.dequantize(C.requantize(y, lo, hi)[0], *C.requantize(y, lo, hi)[1:]).asnumpy()
    np.testing.assert_allclose(real, x @ w.T, atol=0.06)


def test_quantized_pooling_max_is_the_integer_max():
    x = np.random.RandomState(2).randint(-128, 128, (1, 2, 4, 4)).astype(np.int8)
    out = C.quantized_pooling(nd.array(x, dtype="int8"), _r(-1.0), _r(1.0), kernel=(2, 2),
                              stride=(2, 2), pool_type="max")[0].asnumpy()
    want = x.reshape(1, 2, 2, 2, 2, 2).max(axis=(3, 5))
    np.testing.assert_array_equal(out, want)


def test_calibrate_entropy_keeps_a_clean_gaussian_nearly_whole():
    x = np.random.RandomState(3).normal(0.0, 1.0, 200000)
    hist, edges = np.histogram(x, bins=2001, range=(-5.0, 5.0))
    t, d = C.calibrate_entropy(nd.array(hist.astype(np.float32)),
                               nd.array(edges.astype(np.float32)))
    assert 2.5 < float(t.asscalar()) <= 5.0
    assert 0.0 <= float(d.asscalar()) < 0.05


# ---------------------------------------------------------------------------------------------
# symbols


def test_quantize_v2_symbol_infers_and_runs():
    x = mx.sym.var("x")
    q = mx.sym.contrib.quantize_v2(x, min_calib_range=-1.0, max_calib_range=1.0)
    assert q.list_outputs()[0].endswith("output0") and len(q.list_outputs()) == 3
    arg_shapes, out_shapes, _ = q.infer_shape(x=(2, 5))
    assert out_shapes == [(2, 5), (1,), (1,)]
    _, out_types, _ = q.infer_type(x="float32")
    assert [np.dtype(t) for t in out_types] == [np.int8, np.float32, np.float32]
    data = np.linspace(-1.2, 1.2, 10).reshape(2, 5).astype(np.float32)
    ex = q.bind(mx.cpu(), {"x": nd.array(data)})
    got = [o.asnumpy() for o in ex.forward()]
    want = [o.asnumpy() for o in C.quantize_v2(nd.array(data), min_calib_range=-1.0,
                                               max_calib_range=1.0)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_quantized_layer_graph_symbol():
    """quantize -> quantized FC -> requantize -> dequantize as one bound graph."""
    d, w = mx.sym.var("d"), mx.sym.var("w")
    wmin, wmax = mx.sym.var("wmin"), mx.sym.var("wmax")
    q = mx.sym.contrib.quantize_v2(d, out_type="uint8", min_calib_range=0.0,
                                   max_calib_range=1.0)
    fc = mx.sym.contrib.quantized_fully_connected(q[0], w, q[1], q[2], wmin, wmax,
                                                  num_hidden=3, no_bias=True)
    rq = mx.sym.contrib.requantize(fc[0], fc[1], fc[2], min_calib_range=-2.0,
                                   max_calib_range=2.0)
    out = mx.sym.contrib.dequantize(rq[0], rq[1], rq[2])
    assert out.list_arguments() == ["d", "w", "wmin", "wmax"]
    arg_shapes, out_shapes, _ = out.infer_shape(d=(4, 6))
    assert arg_shapes[1] == (3, 6) and out_shapes == [(4, 3)]
    arg_types, out_types, _ = out.infer_type(d="float32", w="int8")
    assert np.dtype(out_types[0]) == np.float32
    r = np.random.RandomState(4)
    dv = r.uniform(0, 1, (4, 6)).astype(np.float32)
    wv = r.randint(-128, 128, (3, 6)).astype(np.int8)
    args = {"d": nd.array(dv), "w": nd.array(wv, dtype="int8"), "wmin": _r(-0.5),
            "wmax": _r(0.5)}
    got = out.bind(mx.cpu(), args).forward()[0].asnumpy()
    qd = C.quantize_v2(nd.array(dv), out_type="uint8", min_calib_range=0.0,
                       max_calib_range=1.0)
    fcv = C.quantized_fully_connected(qd[0], args["w"], qd[1], qd[2], _r(-0.5), _r(0.5),
                                      num_hidden=3, no_bias=True)
    rqv = C.requantize(*fcv, min_calib_range=-2.0, max_calib_range=2.0)
    np.testing.assert_array_equal(got, C.dequantize(*rqv).asnumpy())
    # and the graph survives a JSON round trip
    again = mx.sym.load_json(out.tojson())
    np.testing.assert_array_equal(again.bind(mx.cpu(), args).forward()[0].asnumpy(), got)


def test_quantized_concat_symbol_takes_num_args_data_then_ranges():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    rng = [mx.sym.var(n) for n in ("a0", "a1", "b0", "b1")]
    c = mx.sym.contrib.quantized_concat(a, b, *rng, num_args=2, dim=1)
    assert c.list_arguments() == ["a", "b", "a0", "a1", "b0", "b1"]
    _, out_shapes, _ = c.infer_shape(a=(2, 3), b=(2, 4))
    assert out_shapes == [(2, 7), (1,), (1,)]
    _, out_types, _ = c.infer_type(a="uint8", b="uint8")
    assert np.dtype(out_types[0]) == np.uint8


def test_quantized_elemwise_mul_float_output_has_one_output():
    a = nd.array([[3, -4, 127]], dtype="int8")
    b = nd.array([[2, 5, -128]], dtype="int8")
    out = C.quantized_elemwise_mul(a, b, _r(-1.0), _r(1.0), _r(-2.0), _r(2.0),
                                   enable_float_output=True)
    assert isinstance(out, nd.NDArray) and out.dtype == np.float32
    want = np.array([[6, -20, -16256]]) * (1.0 / 127.5) * (2.0 / 127.5)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# errors (1.9.1 refuses these too)


def test_quantize_rejects_non_float32_data():
    expect_error(C.quantize, nd.ones((2, 2), dtype="float64"), _r(-1.0), _r(1.0),
                 match="float32")
    expect_error(C.quantize_v2, nd.ones((2, 2), dtype="float16"), match="float32")


def test_dequantize_and_requantize_check_their_input_type():
    expect_error(C.dequantize, nd.ones((2, 2)), _r(-1.0), _r(1.0), match="int8")
    expect_error(C.requantize, nd.ones((2, 2), dtype="int8"), _r(-1.0), _r(1.0),
                 match="int32")


def test_range_inputs_must_be_single_values():
    expect_error(C.quantize, nd.ones((2, 2)), nd.array([-1.0, 0.0]), _r(1.0),
                 match="min_range")


def test_quantize_asym_only_runs_on_3d_float32():
    expect_error(C.quantize_asym, nd.ones((2, 3)), match="3-D")
    expect_error(C.quantize_asym, nd.ones((1, 2, 3), dtype="int8"), match="float32")


def test_quantized_conv_needs_uint8_2d_or_3d_and_one_group():
    x8 = nd.ones((1, 2, 5, 5), dtype="int8")
    w = nd.ones((3, 2, 3, 3), dtype="int8")
    expect_error(C.quantized_conv, x8, w, _r(-1.0), _r(1.0), _r(-1.0), _r(1.0),
                 kernel=(3, 3), num_filter=3, no_bias=True, match="uint8")
    xu = nd.ones((1, 2, 5), dtype="uint8")
    expect_error(C.quantized_conv, xu, nd.ones((3, 2, 3), dtype="int8"), _r(-1.0), _r(1.0),
                 _r(-1.0), _r(1.0), kernel=(3,), num_filter=3, no_bias=True, match="2-D")
    expect_error(C.quantized_conv, nd.ones((1, 2, 5, 5), dtype="uint8"),
                 nd.ones((4, 1, 3, 3), dtype="int8"), _r(-1.0), _r(1.0), _r(-1.0), _r(1.0),
                 kernel=(3, 3), num_filter=4, num_group=2, no_bias=True, match="num_group")


def test_quantized_pooling_and_act_refuse_what_1_9_1_refuses():
    x = nd.ones((1, 1, 4, 4), dtype="int8")
    expect_error(C.quantized_pooling, x, _r(-1.0), _r(1.0), kernel=(2, 2), pool_type="sum",
                 match="pool_type")
    expect_error(C.quantized_act, x, _r(-1.0), _r(1.0), act_type="tanh", match="relu")


def test_quantized_batch_norm_needs_a_calibrated_range():
    x = nd.ones((1, 2, 3, 3), dtype="int8")
    stats = [nd.ones(2), nd.zeros(2), nd.zeros(2), nd.ones(2)]
    expect_error(C.quantized_batch_norm, x, *stats, _r(-1.0), _r(1.0), match="calib")


def test_quantized_fully_connected_checks_the_weight_shape():
    expect_error(C.quantized_fully_connected, nd.ones((2, 5), dtype="int8"),
                 nd.ones((3, 4), dtype="int8"), _r(-1.0), _r(1.0), _r(-1.0), _r(1.0),
                 num_hidden=3, no_bias=True, match="weight")


def test_quantized_embedding_needs_an_int8_weight():
    expect_error(C.quantized_embedding, nd.array([0, 1]), nd.ones((3, 2), dtype="uint8"),
                 _r(-1.0), _r(1.0), input_dim=3, output_dim=2, match="int8")


def test_calibrate_entropy_checks_the_edges():
    expect_error(C.calibrate_entropy, nd.ones(11), nd.ones(11), match="hist_edges")


# ---------------------------------------------------------------------------------------------
# mx.nd.imdecode (1.9.1's deprecated decoder; its own version cannot run on Python 3, so the
# truth here is the lossless PNG round trip)


def _png(arr):
    Image = pytest.importorskip("PIL.Image")
    import io
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG")
    return buf.getvalue()


_IMG = np.random.RandomState(8).randint(0, 256, (5, 7, 4)).astype(np.uint8)


def test_imdecode_gives_channels_first_bgr_floats():
    out = nd.imdecode(_png(_IMG[:, :, :3]))
    assert out.dtype == np.float32 and out.shape == (3, 5, 7)
    np.testing.assert_array_equal(out.asnumpy(), _IMG[:, :, 2::-1].transpose(2, 0, 1))
    bgra = nd.imdecode(_png(_IMG), channels=4).asnumpy()
    np.testing.assert_array_equal(bgra, _IMG[:, :, [2, 1, 0, 3]].transpose(2, 0, 1))
    gray = nd.imdecode(_png(_IMG[:, :, 0]), channels=1).asnumpy()
    np.testing.assert_array_equal(gray, _IMG[None, :, :, 0])


def test_imdecode_clips_subtracts_the_mean_and_fills_a_batch_slot():
    data = _png(_IMG[:, :, :3])
    mean = nd.array(np.full((3, 2, 3), 100.0))
    got = nd.imdecode(data, clip_rect=(1, 2, 4, 4), mean=mean).asnumpy()
    want = _IMG[2:4, 1:4, 2::-1].transpose(2, 0, 1) - 100.0
    np.testing.assert_array_equal(got, want)
    batch = nd.zeros((2, 3, 5, 7))
    assert nd.imdecode(data, out=batch, index=1) is batch
    np.testing.assert_array_equal(batch.asnumpy()[1], _IMG[:, :, 2::-1].transpose(2, 0, 1))
    assert batch.asnumpy()[0].sum() == 0


def test_imdecode_errors():
    pytest.importorskip("PIL.Image")
    expect_error(nd.imdecode, b"not an image", match="decode")
    expect_error(nd.imdecode, _png(_IMG[:, :, 0]), channels=3, match="channel")
    expect_error(nd.imdecode, _png(_IMG[:, :, :3]), clip_rect=(0, 0, 9, 3), match="clip_rect")
    expect_error(nd.imdecode, _png(_IMG[:, :, :3]), out=nd.zeros((3, 4, 4)), match="out")


def test_quantized_layers_name_their_outputs_as_1_9_1():
    v = mx.sym.var
    rng = (v("mn"), v("mx"))
    syms = [C_SYM.quantized_act(v("d"), *rng, act_type="relu"),
            C_SYM.quantized_flatten(v("d"), *rng),
            C_SYM.quantized_pooling(v("d"), *rng, kernel=(2, 2)),
            C_SYM.quantized_concat(v("a"), v("b"), *rng, *rng, num_args=2),
            C_SYM.quantized_elemwise_add(v("a"), v("b"), *rng, *rng),
            C_SYM.quantized_embedding(v("d"), v("w"), *rng, input_dim=3, output_dim=2)]
    for s in syms:
        prefix = s.name
        assert s.list_outputs() == [f"{prefix}_output", f"{prefix}_min_output",
                                    f"{prefix}_max_output"]
