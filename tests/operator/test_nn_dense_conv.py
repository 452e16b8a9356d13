"""FullyConnected, Convolution, Deconvolution and their backward operators: 1.9.1 golden
forward/backward, numeric gradients (first and second order), shape/type inference, errors."""
from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator import conv_kernels
from mxnet.operator.registry import get_op

from .._scripts import load_script
from .harness import GradCase, check_grad_case, expect_error, load_golden_npz, rand

nd = mx.nd
op = nd.op

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "nn_dense_conv.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_nn_dense_conv.py")


def _load_table():
    return load_script("tools/golden/gen_nn_dense_conv.py")


_TABLE = _load_table()


# ---------------------------------------------------------------------------------------------
# numeric gradients

def _fc(**kw):
    return lambda *a: nd.FullyConnected(*a, **kw)


def _conv(**kw):
    return lambda *a: nd.Convolution(*a, **kw)


def _deconv(**kw):
    return lambda *a: nd.Deconvolution(*a, **kw)


def _bwd(name, **kw):
    return lambda *a: getattr(op, name)(*a, **kw)


_C2 = dict(kernel=(3, 2), stride=(2, 1), dilate=(1, 2), pad=(1, 1), num_filter=4, num_group=2)
_D2 = dict(kernel=(3, 2), stride=(2, 3), dilate=(1, 2), pad=(1, 0), adj=(1, 2), num_filter=4,
           num_group=2)

GRAD_CASES = [
    GradCase("fc", _fc(num_hidden=3), [rand(2, 4), rand(3, 4, seed=1), rand(3, seed=2)],
             ops=("FullyConnected",)),
    GradCase("fc_flatten_no_bias", _fc(num_hidden=3, no_bias=True),
             [rand(2, 2, 3), rand(3, 6, seed=1)], ops=("FullyConnected",)),
    GradCase("fc_no_flatten", _fc(num_hidden=2, flatten=False),
             [rand(2, 3, 4), rand(2, 4, seed=1), rand(2, seed=2)], ops=("FullyConnected",)),
    GradCase("backward_fc", _bwd("_backward_FullyConnected", num_hidden=3),
             [rand(2, 3, seed=3), rand(2, 4), rand(3, 4, seed=1)],
             ops=("_backward_FullyConnected",)),
    GradCase("backward_fc_no_flatten_no_bias",
             _bwd("_backward_FullyConnected", num_hidden=2, flatten=False, no_bias=True),
             [rand(2, 3, 2, seed=3), rand(2, 3, 4), rand(2, 4, seed=1)],
             ops=("_backward_FullyConnected",)),
    GradCase("conv1d", _conv(kernel=(3,), stride=(2,), dilate=(2,), pad=(1,), num_filter=2),
             [rand(2, 2, 8), rand(2, 2, 3, seed=1), rand(2, seed=2)], ops=("Convolution",)),
    GradCase("conv2d_group", _conv(**_C2), [rand(2, 4, 5, 4), rand(4, 2, 3, 2, seed=1),
                                            rand(4, seed=2)], ops=("Convolution",)),
    GradCase("conv2d_depthwise_no_bias",
             _conv(kernel=(3, 3), pad=(1, 1), num_filter=3, num_group=3, no_bias=True),
             [rand(2, 3, 4, 4), rand(3, 1, 3, 3, seed=1)], ops=("Convolution",)),
    GradCase("conv2d_pad_exceeds_kernel", _conv(kernel=(2, 2), pad=(2, 2), num_filter=2),
             [rand(1, 2, 3, 3), rand(2, 2, 2, 2, seed=1), rand(2, seed=2)],
             ops=("Convolution",)),
    GradCase("conv2d_nhwc", _conv(layout="NHWC", **_C2),
             [rand(2, 5, 4, 4), rand(4, 3, 2, 2, seed=1), rand(4, seed=2)],
             ops=("Convolution",)),
    GradCase("conv3d", _conv(kernel=(2, 2, 2), stride=(1, 2, 1), pad=(1, 0, 0), num_filter=2),
             [rand(1, 2, 3, 4, 3), rand(2, 2, 2, 2, 2, seed=1), rand(2, seed=2)],
             ops=("Convolution",)),
    GradCase("backward_conv2d", _bwd("_backward_Convolution", **_C2),
             [rand(2, 4, 3, 4, seed=3), rand(2, 4, 5, 4), rand(4, 2, 3, 2, seed=1)],
             ops=("_backward_Convolution",)),
    GradCase("backward_conv1d_no_bias",
             _bwd("_backward_Convolution", kernel=(3,), pad=(1,), num_filter=2, no_bias=True),
             [rand(2, 2, 5, seed=3), rand(2, 3, 5), rand(2, 3, 3, seed=1)],
             ops=("_backward_Convolution",)),
    GradCase("deconv1d", _deconv(kernel=(3,), stride=(2,), pad=(1,), adj=(1,), num_filter=2,
                                 no_bias=False),
             [rand(2, 2, 4), rand(2, 2, 3, seed=1), rand(2, seed=2)], ops=("Deconvolution",)),
    GradCase("deconv2d_group", _deconv(**_D2),
             [rand(1, 4, 3, 2), rand(4, 2, 3, 2, seed=1)], ops=("Deconvolution",)),
    GradCase("deconv2d_target", _deconv(kernel=(3, 3), stride=(2, 2), target_shape=(6, 5),
                                        num_filter=2),
             [rand(1, 2, 3, 3), rand(2, 2, 3, 3, seed=1)], ops=("Deconvolution",)),
    GradCase("deconv2d_nhwc", _deconv(layout="NHWC", no_bias=False, **_D2),
             [rand(1, 3, 2, 4), rand(4, 3, 2, 2, seed=1), rand(4, seed=2)],
             ops=("Deconvolution",)),
    GradCase("deconv3d", _deconv(kernel=(2, 2, 2), stride=(2, 1, 1), num_filter=2),
             [rand(1, 2, 2, 3, 2), rand(2, 2, 2, 2, 2, seed=1)], ops=("Deconvolution",)),
    GradCase("backward_deconv2d", _bwd("_backward_Deconvolution", no_bias=False, **_D2),
             [rand(1, 4, 6, 8, seed=3), rand(1, 4, 3, 2), rand(4, 2, 3, 2, seed=1)],
             ops=("_backward_Deconvolution",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def test_second_order_through_convolution():
    """d/dx of ||dL/dw||^2 goes through _backward_Convolution's own gradient."""
    kw = dict(kernel=(2, 2), num_filter=2, no_bias=True)
    x = nd.array(rand(1, 2, 3, 3), dtype="float64")
    w = nd.array(rand(2, 2, 2, 2, seed=1), dtype="float64")
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        y = nd.Convolution(x, w, **kw)
        (gw,) = mx.autograd.grad(nd.sum(y * y), [w], create_graph=True)
        z = nd.sum(gw * gw)
    z.backward()
    # z(x) is quartic in x; compare with a central difference
    xn, wn = x.asnumpy(), w.asnumpy()

    def zf(xv):
        xa = nd.array(xv, dtype="float64")
        wa = nd.array(wn, dtype="float64")
        wa.attach_grad()
        with mx.autograd.record():
            yy = nd.Convolution(xa, wa, **kw)
            s = nd.sum(yy * yy)
        s.backward()
        return float((wa.grad.asnumpy() ** 2).sum())

    num = np.zeros_like(xn)
    eps = 1e-5
    for i in np.ndindex(xn.shape):
        d = np.zeros_like(xn)
        d[i] = eps
        num[i] = (zf(xn + d) - zf(xn - d)) / (2 * eps)
    np.testing.assert_allclose(x.grad.asnumpy(), num, rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward and backward


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(dtype):
    return (1e-4, 1e-5) if dtype == "float32" else (1e-10, 1e-12)


@pytest.mark.parametrize("case", _TABLE.CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    inputs = [golden[f"{case.id}/in{i}"] for i in range(len(case.inputs))]
    out, _, grads = _TABLE.run_case(mx, case, inputs=inputs, head=golden[f"{case.id}/head0"])
    rtol, atol = _tol(case.dtype)
    want = golden[f"{case.id}/out0"]
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape, want.shape)
    np.testing.assert_allclose(out, want, rtol=rtol, atol=atol, err_msg="output")
    for i, g in enumerate(grads):
        want = golden[f"{case.id}/grad{i}"]
        assert g.shape == want.shape and g.dtype == want.dtype
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


# ---------------------------------------------------------------------------------------------
# layouts, dtypes, chunking


def _nchw_vs_nhwc(fn, x, w, b, **kw):
    ref = fn(nd.array(x), nd.array(w), nd.array(b), **kw).asnumpy()
    last = fn(nd.array(np.moveaxis(x, 1, -1)), nd.array(np.moveaxis(w, 1, -1)), nd.array(b),
              layout="NHWC" if x.ndim == 4 else "NDHWC", **kw).asnumpy()
    np.testing.assert_allclose(np.moveaxis(last, -1, 1), ref, rtol=1e-5, atol=1e-6)


def test_channel_last_layouts_match_channel_first():
    kw = dict(kernel=(3, 3), stride=(2, 1), pad=(1, 1), num_filter=6, num_group=2)
    _nchw_vs_nhwc(nd.Convolution, rand(2, 4, 7, 6), rand(6, 2, 3, 3, seed=1), rand(6, seed=2),
                  **kw)
    _nchw_vs_nhwc(nd.Deconvolution, rand(2, 4, 4, 3), rand(4, 3, 3, 3, seed=1), rand(6, seed=2),
                  adj=(1, 0), no_bias=False, **kw)
    kw3 = dict(kernel=(2, 3, 2), num_filter=3)
    _nchw_vs_nhwc(nd.Convolution, rand(1, 2, 4, 5, 3), rand(3, 2, 2, 3, 2, seed=1),
                  rand(3, seed=2), **kw3)


def test_float16_runs_in_float32():
    x, w, b = rand(2, 3, 5, 5), rand(4, 3, 3, 3, seed=1), rand(4, seed=2)
    kw = dict(kernel=(3, 3), num_filter=4)
    y16 = nd.Convolution(nd.array(x, dtype="float16"), nd.array(w, dtype="float16"),
                         nd.array(b, dtype="float16"), **kw)
    assert y16.dtype == np.float16
    y = nd.Convolution(nd.array(x), nd.array(w), nd.array(b), **kw).asnumpy()
    np.testing.assert_allclose(y16.asnumpy().astype(np.float32), y, rtol=1e-2, atol=1e-2)
    f16 = nd.FullyConnected(nd.array(rand(2, 3), dtype="float16"),
                            nd.array(rand(4, 3, seed=1), dtype="float16"), num_hidden=4,
                            no_bias=True)
    assert f16.dtype == np.float16


@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("tuning", ["chunked", "tall", "chunked_tall"])
def test_kernel_tuning_does_not_change_results(monkeypatch, stride, tuning):
    """Chunking the batch (small column buffers, one image per GEMM) and the transposed
    weight-gradient product are pure performance choices."""
    kw = dict(kernel=(3, 3), stride=(stride, stride), pad=(1, 1), num_filter=3)
    args = [rand(6, 2, 6, 6), rand(3, 2, 3, 3, seed=1), rand(3, seed=2)]
    g = rand(6, 3, *((6, 6) if stride == 1 else (3, 3)), seed=3)

    def run():
        xs = [nd.array(a, dtype="float64") for a in args]
        for a in xs:
            a.attach_grad()
        with mx.autograd.record():
            y = nd.Convolution(*xs, **kw)
            z = nd.Deconvolution(y, xs[1], kernel=(3, 3), stride=(stride, stride), pad=(1, 1),
                                 num_filter=2)
        mx.autograd.backward([y, z], [nd.array(g, dtype="float64"),
                                      nd.array(np.ones(z.shape), dtype="float64")])
        return [y.asnumpy(), z.asnumpy()] + [a.grad.asnumpy() for a in xs]

    whole = run()
    if "chunked" in tuning:
        monkeypatch.setattr(conv_kernels, "_COL_BYTES", 1)   # one block per chunk
        monkeypatch.setattr(conv_kernels, "_GEMM_COLS", 1)   # one image per block
    if "tall" in tuning:
        monkeypatch.setattr(conv_kernels, "_TALL_COLS", 1)
    parts = run()
    for a, b in zip(whole, parts):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_nd_signatures_follow_1_9_1_order():
    params = list(get_op("Convolution").params)
    assert params == ["kernel", "stride", "dilate", "pad", "num_filter", "num_group",
                      "workspace", "no_bias", "cudnn_tune", "cudnn_off", "layout"]
    params = list(get_op("Deconvolution").params)
    assert params == ["kernel", "stride", "dilate", "pad", "adj", "target_shape", "num_filter",
                      "num_group", "workspace", "no_bias", "cudnn_tune", "cudnn_off", "layout"]
    assert list(get_op("FullyConnected").params) == ["num_hidden", "no_bias", "flatten"]
    d = get_op("Deconvolution").parse_attrs({"kernel": (2, 2), "num_filter": 1})
    c = get_op("Convolution").parse_attrs({"kernel": (2, 2), "num_filter": 1})
    assert d["no_bias"] is True and c["no_bias"] is False
    assert d["workspace"] == 512 and c["workspace"] == 1024
    assert "num_hidden" in inspect.signature(nd.FullyConnected).parameters
    # positional params after the inputs, as generated functions take them
    y = nd.FullyConnected(nd.ones((2, 3)), nd.ones((4, 3)), nd.zeros((4,)), 4)
    assert y.shape == (2, 4)


# ---------------------------------------------------------------------------------------------
# shape and type inference


def _infer(name, attrs, ins, outs=None):
    o = get_op(name)
    a = o.parse_attrs(attrs)
    return o.infer_shape(a, ins, outs or [None])


def test_infer_shape_fills_weight_and_bias():
    ins, outs, aux = _infer("FullyConnected", {"num_hidden": 6}, [(2, 3, 4), None, None])
    assert ins == [(2, 3, 4), (6, 12), (6,)] and outs == [(2, 6)] and aux == []
    ins, outs, _ = _infer("FullyConnected", {"num_hidden": 6, "flatten": False},
                          [(2, 3, 4), None, None])
    assert ins[1] == (6, 4) and outs == [(2, 3, 6)]
    ins, outs, _ = _infer("FullyConnected", {"num_hidden": 6, "no_bias": True},
                          [(None, 3, 4), None], [(5, 6)])
    assert ins == [(5, 3, 4), (6, 12)] and outs == [(5, 6)]

    ins, outs, _ = _infer("Convolution", {"kernel": (3, 3), "num_filter": 8, "num_group": 2,
                                          "pad": (1, 1)}, [(2, 4, 10, 10), None, None])
    assert ins == [(2, 4, 10, 10), (8, 2, 3, 3), (8,)] and outs == [(2, 8, 10, 10)]
    ins, outs, _ = _infer("Convolution", {"kernel": (3, 3), "num_filter": 8, "layout": "NHWC"},
                          [(2, 10, 10, 4), None, None])
    assert ins[1] == (8, 3, 3, 4) and outs == [(2, 8, 8, 8)]
    ins, outs, _ = _infer("Convolution", {"kernel": (3, 3), "num_filter": 8},
                          [(None, None, 7, None), None, None])
    assert ins[1] == (8, None, 3, 3) and outs == [(None, 8, 5, None)]

    ins, outs, _ = _infer("Deconvolution", {"kernel": (3, 3), "num_filter": 6, "num_group": 2,
                                            "stride": (2, 2)}, [(2, 4, 5, 5), None])
    assert ins == [(2, 4, 5, 5), (4, 3, 3, 3)] and outs == [(2, 6, 11, 11)]
    ins, outs, _ = _infer("Deconvolution", {"kernel": (3, 3), "num_filter": 3, "stride": (2, 2),
                                            "target_shape": (10, 10), "layout": "NHWC",
                                            "no_bias": False}, [(2, 5, 5, 4), None, None])
    assert ins == [(2, 5, 5, 4), (4, 3, 3, 3), (3,)] and outs == [(2, 10, 10, 3)]
    ins, outs, _ = _infer("Deconvolution", {"kernel": (3, 3, 3), "num_filter": 6,
                                            "layout": "NDHWC"}, [(2, 5, 6, 7, 4), None])
    assert ins[1] == (4, 3, 3, 3, 6) and outs == [(2, 7, 8, 9, 6)]


def test_backward_ops_infer_shape_and_type():
    a = get_op("_backward_Convolution").parse_attrs({"kernel": (3, 3), "num_filter": 4})
    ins = [(2, 4, 3, 3), (2, 3, 5, 5), (4, 3, 3, 3)]
    _, outs, _ = get_op("_backward_Convolution").infer_shape(a, ins, [None] * 3)
    assert outs == [(2, 3, 5, 5), (4, 3, 3, 3), (4,)]
    it, ot, _ = get_op("Convolution").infer_type(a, [np.float32, None, None], [None])
    assert it == [np.float32] * 3 and ot == [np.float32]
    with pytest.raises(mx.base.MXNetError, match="same dtype"):
        get_op("FullyConnected").infer_type({}, [np.float32, np.float64, None], [None])


def test_infer_shape_rejects_wrong_weights():
    with pytest.raises(mx.base.MXNetError, match=r"weight has shape \(6, 4, 2, 2\)"):
        _infer("Convolution", {"kernel": (3, 3), "num_filter": 6},
               [(2, 4, 7, 7), (6, 4, 2, 2), None])
    with pytest.raises(mx.base.MXNetError, match="bias"):
        _infer("FullyConnected", {"num_hidden": 6}, [(2, 4), None, (5,)])


# ---------------------------------------------------------------------------------------------
# errors (messages name the operator, the argument and what was seen)


def _x(*shape, dtype="float32"):
    return nd.ones(shape, dtype=dtype)


def test_fully_connected_errors():
    expect_error(nd.FullyConnected, _x(3, 4), _x(6, 5), _x(6), num_hidden=6, match="weight")
    expect_error(nd.FullyConnected, _x(3, 4), _x(5, 4), _x(5), num_hidden=6, match="(6, 4)")
    expect_error(nd.FullyConnected, _x(3, 4), _x(6, 4), _x(5), num_hidden=6, match="bias")
    expect_error(nd.FullyConnected, _x(3, 4), _x(6, 4, dtype="float64"), _x(6), num_hidden=6,
                 match="same dtype")
    expect_error(nd.FullyConnected, _x(3, 4, dtype="int32"), _x(6, 4, dtype="int32"),
                 _x(6, dtype="int32"), num_hidden=6, match="int32")
    expect_error(nd.FullyConnected, _x(3, 4), _x(6, 4), num_hidden=6, match="bias")
    expect_error(nd.FullyConnected, _x(3, 4), _x(6, 4), num_hidden=0, no_bias=True,
                 match="num_hidden")


def test_convolution_errors():
    x, w, b = _x(2, 4, 7, 7), _x(6, 4, 3, 3), _x(6)
    conv = nd.Convolution
    expect_error(conv, x, _x(6, 4, 2, 2), b, kernel=(3, 3), num_filter=6, match="weight")
    expect_error(conv, x, w, _x(5), kernel=(3, 3), num_filter=6, match="bias")
    expect_error(conv, x, _x(6, 4, 9, 9), b, kernel=(9, 9), num_filter=6, match="exceeds")
    expect_error(conv, x, w, b, kernel=(3, 3), num_filter=6, num_group=3, match="divisible")
    expect_error(conv, x, _x(5, 2, 3, 3), _x(5), kernel=(3, 3), num_filter=5, num_group=2,
                 match="num_filter=5")
    expect_error(conv, x, _x(6, 4, 3), b, kernel=(3,), num_filter=6, match="3-D")
    expect_error(conv, _x(2, 4, 7), w, b, kernel=(3, 3), num_filter=6, match="4-D")
    expect_error(conv, x, w, b, kernel=(3, 3), stride=(2,), num_filter=6, match="stride")
    expect_error(conv, x, w, b, kernel=(3, 3), pad=(1,), num_filter=6, match="pad")
    expect_error(conv, x, w, b, kernel=(3, 3), stride=(0, 1), num_filter=6, match="stride")
    expect_error(conv, x, w, b, kernel=(3, 3), dilate=(1, 0), num_filter=6, match="dilate")
    expect_error(conv, _x(1, 1, 4, 4, 4, 4), _x(1, 1, 2, 2, 2, 2), _x(1), kernel=(2, 2, 2, 2),
                 num_filter=1, match="kernel")
    expect_error(conv, x, w, b, kernel=(3, 3), num_filter=6, layout="NCW", match="layout")
    expect_error(conv, x, w, b, kernel=(3, 3), num_filter=6, layout="NWC", match="layout")
    expect_error(conv, x, w.astype("float64"), b, kernel=(3, 3), num_filter=6,
                 match="same dtype")
    expect_error(conv, x.astype("int32"), w.astype("int32"), b.astype("int32"), kernel=(3, 3),
                 num_filter=6, match="int32")
    expect_error(conv, x, w, kernel=(3, 3), num_filter=6, match="bias")
    expect_error(conv, x, w, b, kernel=(3, 3), num_filter=6, no_bias=True)


def test_deconvolution_errors():
    x, w = _x(2, 4, 5, 5), _x(4, 3, 3, 3)
    dc = nd.Deconvolution
    expect_error(dc, x, w, kernel=(3, 3), stride=(2, 2), adj=(2, 2), num_filter=3,
                 match="adj")
    expect_error(dc, x, w, kernel=(3, 3), adj=(1, 1), num_filter=3, match="smaller than")
    expect_error(dc, x, w, kernel=(3, 3), target_shape=(6, 6), num_filter=3, match="adj")
    expect_error(dc, x, w, kernel=(3, 3), stride=(2, 2), target_shape=(12, 12), num_filter=3,
                 match="too big")
    expect_error(dc, x, w, kernel=(3, 3), stride=(2, 2), target_shape=(10,), num_filter=3,
                 match="target_shape")
    expect_error(dc, x, w, kernel=(3, 3), adj=(1,), stride=(2, 2), num_filter=3, match="adj")
    expect_error(dc, x, _x(4, 3, 3, 3), kernel=(3, 3), num_filter=5, num_group=2,
                 match="num_filter")
    expect_error(dc, _x(2, 5, 5, 5), _x(5, 3, 3, 3), kernel=(3, 3), num_filter=6, num_group=2,
                 match="divisible")
    expect_error(dc, x, _x(3, 4, 3, 3), kernel=(3, 3), num_filter=3, match="weight")
    expect_error(dc, x, w, kernel=(3, 3), pad=(4, 4), num_filter=3, match="size")
    expect_error(dc, x, w, _x(3), kernel=(3, 3), num_filter=3, match="input")
    expect_error(dc, x.astype("int32"), w.astype("int32"), kernel=(3, 3), num_filter=3,
                 match="int32")


def test_backward_ops_check_ograd():
    expect_error(op._backward_Convolution, _x(2, 6, 4, 4), _x(2, 4, 7, 7), _x(6, 4, 3, 3),
                 kernel=(3, 3), num_filter=6, match="ograd")
    expect_error(op._backward_FullyConnected, _x(2, 5), _x(2, 4), _x(6, 4), num_hidden=6,
                 match="ograd")


NON_DIFFERENTIABLE = ()


@pytest.mark.parametrize("layer", ["fc", "conv"])
def test_weight_gradients_do_not_depend_on_whether_data_needs_a_gradient(layer):
    # when the data needs no gradient, backward takes the weight/bias-only operators
    rs = np.random.RandomState(3)
    if layer == "fc":
        x, w, b = rs.randn(4, 6), rs.randn(5, 6), rs.randn(5)
        fn = lambda d, ww, bb: mx.nd.FullyConnected(d, ww, bb, num_hidden=5)
    else:
        x, w, b = rs.randn(2, 3, 6, 6), rs.randn(4, 3, 3, 3), rs.randn(4)
        fn = lambda d, ww, bb: mx.nd.Convolution(d, ww, bb, kernel=(3, 3), num_filter=4)
    grads = []
    for data_grad in (True, False):
        d, ww, bb = (mx.nd.array(a, dtype="float64") for a in (x, w, b))
        for arr in ([d, ww, bb] if data_grad else [ww, bb]):
            arr.attach_grad()
        with mx.autograd.record():
            out = (fn(d, ww, bb) ** 2).sum()
        out.backward()
        grads.append((ww.grad.asnumpy(), bb.grad.asnumpy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-12)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-12)
