"""Pooling: 1.9.1 golden forward/backward, numeric gradients, output shapes, the corner cases
1.9.1 defines (ties, empty windows, lowest value) and error messages."""
from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .._scripts import load_script
from .harness import GradCase, check_grad_case, expect_error, load_golden_npz, positive, rand

nd = mx.nd

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "nn_pool_spatial.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_nn_pool_spatial.py")

NON_DIFFERENTIABLE = ("_backward_Pooling",)


def _load_table():
    return load_script("tools/golden/gen_nn_pool_spatial.py")


_TABLE = _load_table()


def distinct(*shape, seed=0):
    """Values at least 0.05 apart (no ties, no kinks within the difference step)."""
    n = int(np.prod(shape))
    return np.random.RandomState(seed).permutation(n).reshape(shape) * 0.05 - n * 0.025


def pool(**kw):
    return lambda x: nd.Pooling(x, **kw)


GRAD_CASES = [
    GradCase("max2d", pool(kernel=(2, 2), stride=(2, 2)), [distinct(2, 2, 4, 5)], ops=("Pooling",)),
    GradCase("max2d_overlap_pad_full", pool(kernel=(3, 3), stride=(2, 1), pad=(1, 1),
                                            pooling_convention="full"),
             [distinct(1, 2, 5, 4, seed=1)], ops=("Pooling",)),
    GradCase("max1d", pool(kernel=(3,), stride=(2,), pad=(1,)), [distinct(2, 2, 7, seed=2)],
             ops=("Pooling",)),
    GradCase("max3d", pool(kernel=(2, 2, 2), stride=(1, 2, 2)), [distinct(1, 2, 3, 4, 4, seed=3)],
             ops=("Pooling",)),
    GradCase("avg2d_pad", pool(pool_type="avg", kernel=(3, 3), stride=(2, 2), pad=(1, 1)),
             [rand(2, 2, 5, 5)], ops=("Pooling",)),
    GradCase("avg2d_exclude_pad_full", pool(pool_type="avg", kernel=(2, 3), stride=(2, 2),
                                            pad=(1, 1), count_include_pad=False,
                                            pooling_convention="full"),
             [rand(1, 2, 5, 6, seed=4)], ops=("Pooling",)),
    GradCase("avg3d", pool(pool_type="avg", kernel=(2, 2, 2), stride=(2, 1, 2), pad=(1, 0, 1)),
             [rand(1, 2, 3, 3, 4, seed=5)], ops=("Pooling",)),
    GradCase("sum1d_full", pool(pool_type="sum", kernel=(2,), stride=(3,),
                                pooling_convention="full"),
             [rand(2, 3, 7, seed=6)], ops=("Pooling",)),
    GradCase("lp1", pool(pool_type="lp", p_value=1, kernel=(2, 2), stride=(1, 2)),
             [rand(1, 2, 4, 4, seed=7)], ops=("Pooling",)),
    GradCase("lp2", pool(pool_type="lp", p_value=2, kernel=(2, 2), stride=(2, 2), pad=(1, 1)),
             [positive(1, 2, 4, 5, seed=8)], ops=("Pooling",)),
    GradCase("lp3", pool(pool_type="lp", p_value=3, kernel=(3, 2), stride=(1, 1)),
             [positive(1, 2, 4, 4, seed=9)], ops=("Pooling",)),
    GradCase("global_max", pool(global_pool=True), [distinct(2, 3, 3, 4, seed=10)],
             ops=("Pooling",)),
    GradCase("global_avg", pool(global_pool=True, pool_type="avg"), [rand(2, 3, 3, 4, seed=11)],
             ops=("Pooling",)),
    GradCase("global_lp2", pool(global_pool=True, pool_type="lp", p_value=2),
             [positive(2, 2, 5, seed=12)], ops=("Pooling",)),
    GradCase("nhwc_max", pool(kernel=(2, 2), stride=(1, 2), layout="NHWC"),
             [distinct(2, 4, 4, 3, seed=13)], ops=("Pooling",)),
    GradCase("ndhwc_avg", pool(kernel=(2, 2, 2), pool_type="avg", layout="NDHWC"),
             [rand(1, 3, 3, 3, 2, seed=14)], ops=("Pooling",)),
    GradCase("same_avg", pool(kernel=(3,), stride=(2,), pad=(0, 0, 0), pool_type="avg",
                              pooling_convention="same"),
             [rand(2, 2, 7, seed=15)], ops=("Pooling",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward and backward


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(dtype):
    return {"float16": (2e-3, 2e-3), "float32": (1e-4, 1e-5)}.get(dtype, (1e-7, 1e-9))


def check_golden(case, golden):
    inputs = [golden[f"{case.id}/in{i}"] for i in range(len(case.inputs))]
    out, _, grads = _TABLE.run_case(mx, case, inputs=inputs, head=golden[f"{case.id}/head0"])
    rtol, atol = _tol(case.dtype)
    want = golden[f"{case.id}/out0"]
    assert out.dtype == want.dtype and out.shape == want.shape, (out.dtype, out.shape, want.shape)
    np.testing.assert_allclose(out, want, rtol=rtol, atol=atol, err_msg="output")
    for i, g in enumerate(grads):
        want = golden[f"{case.id}/grad{i}"]
        assert g.shape == want.shape
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


@pytest.mark.parametrize("case", [c for c in _TABLE.CASES if c.family == "pool"],
                         ids=lambda c: c.id)
def test_golden(case, golden):
    check_golden(case, golden)


# ---------------------------------------------------------------------------------------------
# shapes and semantics


@pytest.mark.parametrize("conv,kernel,stride,pad,expected", [
    ("valid", (2, 2), (2, 2), (0, 0), (2, 2)),
    ("valid", (3, 3), (2, 2), (1, 1), (3, 3)),
    ("valid", (2, 2), (3, 3), (0, 0), (2, 2)),
    ("valid", (2, 2), (2, 2), (1, 1), (3, 3)),
    ("full", (2, 2), (2, 2), (0, 0), (3, 3)),
    ("full", (3, 3), (2, 2), (1, 1), (3, 3)),
    ("full", (2, 2), (3, 3), (0, 0), (2, 2)),
    ("full", (3, 3), (3, 3), (2, 2), (3, 3)),
    ("full", (2, 2), (2, 2), (1, 1), (4, 4)),
])
def test_output_shapes_match_1_9_1(conv, kernel, stride, pad, expected):
    x = nd.ones((1, 1, 5, 5))
    out = nd.Pooling(x, kernel=kernel, stride=stride, pad=pad, pooling_convention=conv)
    assert out.shape == (1, 1) + expected
    op = get_op("Pooling")
    attrs = op.parse_attrs(dict(kernel=kernel, stride=stride, pad=pad, pooling_convention=conv))
    assert op.infer_shape(attrs, [(1, 1, 5, 5)], [None])[1] == [(1, 1) + expected]


def test_same_convention_1d():
    x = nd.arange(1, 8).reshape((1, 1, 7))
    kw = dict(pooling_convention="same", pad=(0, 0, 0))
    assert nd.Pooling(x, kernel=(2,), **kw).asnumpy().ravel().tolist() == [2, 3, 4, 5, 6, 7, 7]
    assert nd.Pooling(x, kernel=(3,), stride=(2,), **kw).asnumpy().ravel().tolist() == [3, 5, 7, 7]
    avg = nd.Pooling(x, kernel=(3,), stride=(2,), pool_type="avg", **kw).asnumpy().ravel()
    assert avg.tolist() == [2, 4, 6, 7]
    s = nd.Pooling(x, kernel=(4,), stride=(1,), pool_type="sum", **kw).asnumpy().ravel()
    assert s.tolist() == [10, 14, 18, 22, 18, 13, 7]


def test_max_gradient_goes_to_first_maximum():
    x = nd.array([[[[1, 3, 3, 1], [3, 3, 0, 3], [2, 2, 2, 2], [2, 2, 2, 2]]]], dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(x, kernel=(2, 2), stride=(2, 2))
    y.backward(nd.ones_like(y))
    assert x.grad.asnumpy()[0, 0].tolist() == [[0, 1, 1, 0], [0, 0, 0, 0], [1, 0, 1, 0],
                                               [0, 0, 0, 0]]
    with mx.autograd.record():
        y = nd.Pooling(x, kernel=(3, 3), stride=(1, 1))
    y.backward(nd.ones_like(y))
    assert x.grad.asnumpy()[0, 0].tolist() == [[0, 2, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0],
                                               [0, 0, 0, 0]]


def test_empty_windows_and_lowest_value():
    x = np.arange(1, 7.0)
    for nsp, avg_tail in ((1, 0.0), (2, 0.0), (3, np.nan)):
        data = nd.array(np.ones((1, 1) + (6,) * nsp) * x, dtype="float64")
        kw = dict(kernel=(1,) * nsp, stride=(2,) * nsp, pooling_convention="full")
        mx_ = nd.Pooling(data, **kw).asnumpy().ravel()
        assert mx_[-1] == np.finfo(np.float64).min
        avg = nd.Pooling(data, pool_type="avg", count_include_pad=False, **kw).asnumpy().ravel()
        np.testing.assert_equal(avg[-1], avg_tail)
        assert nd.Pooling(data, pool_type="sum", **kw).asnumpy().ravel()[-1] == 0
    neg = nd.array(np.full((1, 1, 2, 2), -np.inf, dtype=np.float32))
    assert nd.Pooling(neg, kernel=(2, 2)).asnumpy().item() == np.finfo(np.float32).min
    withnan = nd.array([[[[np.nan, 1.0], [2.0, np.nan]]]])
    assert nd.Pooling(withnan, kernel=(2, 2)).asnumpy().item() == 2.0
    assert nd.Pooling(withnan, global_pool=True).asnumpy().item() == 2.0


def test_lp_semantics():
    x = nd.array([[[[-1.0, 2.0], [0.5, -3.0]]]], dtype="float64")
    lp = [nd.Pooling(x, kernel=(2, 2), pool_type="lp", p_value=p).asnumpy().item()
          for p in (1, 2, 3)]
    np.testing.assert_allclose(lp, [-1.5, np.sqrt(14.25), np.cbrt(-19.875)], rtol=1e-12)
    z = nd.zeros((1, 1, 2, 2), dtype="float64")
    z.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(z, kernel=(2, 2), pool_type="lp", p_value=2)
    y.backward()
    assert np.all(z.grad.asnumpy() == 0)


def test_global_pool_ignores_kernel_stride_pad():
    x = nd.arange(16).reshape((1, 1, 4, 4))
    assert nd.Pooling(x, global_pool=True, pad=(1, 1), pool_type="avg").asnumpy().item() == 7.5
    assert nd.Pooling(x, global_pool=True, stride=(2, 2), pool_type="sum").asnumpy().item() == 120
    assert nd.Pooling(x, global_pool=True, kernel=(2, 2),
                      pooling_convention="full").shape == (1, 1, 1, 1)
    assert nd.Pooling(nd.ones((2, 3, 5)), global_pool=True).shape == (2, 3, 1)


def test_channels_last_layouts_transpose():
    x = rand(2, 5, 6, 3, seed=3)
    got = nd.Pooling(nd.array(x), kernel=(2, 3), stride=(2, 1), layout="NHWC", pool_type="avg")
    want = nd.Pooling(nd.array(x.transpose(0, 3, 1, 2)), kernel=(2, 3), stride=(2, 1),
                      pool_type="avg")
    # NHWC divides each tap by the window size (1.9.1's own kernel), NCHW the sum (oneDNN's)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy().transpose(0, 2, 3, 1), rtol=1e-6,
                               atol=1e-7)


def test_dtypes_kept():
    for dt in ("float16", "float32", "float64"):
        y = nd.Pooling(nd.ones((1, 1, 4, 4), dtype=dt), kernel=(2, 2), pool_type="avg")
        assert y.dtype == np.dtype(dt)


def test_backward_operator_direct():
    x = nd.array(distinct(1, 2, 4, 4), dtype="float64")
    kw = dict(kernel=(2, 2), stride=(1, 1), pool_type="max")
    y = nd.Pooling(x, **kw)
    og = nd.array(rand(*y.shape), dtype="float64")
    g = nd.op._backward_Pooling(og, x, y, **kw)
    x.attach_grad()
    with mx.autograd.record():
        y2 = nd.Pooling(x, **kw)
    y2.backward(og)
    np.testing.assert_array_equal(g.asnumpy(), x.grad.asnumpy())


def test_signature_and_positional_params():
    params = list(inspect.signature(nd.Pooling).parameters)
    assert params[:11] == ["data", "kernel", "pool_type", "global_pool", "cudnn_off",
                           "pooling_convention", "stride", "pad", "p_value", "count_include_pad",
                           "layout"]
    y = nd.Pooling(nd.ones((1, 1, 4, 4)), (2, 2), "sum")
    assert y.asnumpy()[0, 0, 0, 0] == 4 and y.shape == (1, 1, 3, 3)
    assert not hasattr(nd, "_backward_Pooling")


def test_infer_shape_and_type():
    op = get_op("Pooling")
    attrs = op.parse_attrs(dict(kernel=(2, 2), stride=(2, 2), layout="NHWC"))
    assert op.infer_shape(attrs, [(2, 6, 8, 3)], [None])[1] == [(2, 3, 4, 3)]
    assert op.infer_shape(attrs, [None], [None])[1] == [None]
    attrs = op.parse_attrs(dict(global_pool=True))
    assert op.infer_shape(attrs, [(2, 3, 4, 5, 6)], [None])[1] == [(2, 3, 1, 1, 1)]
    assert op.infer_type(attrs, [np.dtype("float64")], [None])[1] == [np.dtype("float64")]
    # 1.9.1 lets int32 through type inference; the kernel rejects it when it runs
    assert op.infer_type(attrs, [np.dtype("int32")], [None])[1] == [np.dtype("int32")]


# ---------------------------------------------------------------------------------------------
# errors


def test_errors():
    x = nd.ones((2, 3, 5, 5))
    expect_error(nd.Pooling, x, match="kernel is required")
    expect_error(nd.Pooling, x, kernel=(2, 2, 2), match="5-D")
    expect_error(nd.Pooling, x, kernel=(2,), match="3-D")
    expect_error(nd.Pooling, x, kernel=(2, 2), stride=(1,), match="stride")
    expect_error(nd.Pooling, x, kernel=(6, 6), match="exceeds")
    expect_error(nd.Pooling, x, kernel=(0, 2), match="positive")
    expect_error(nd.Pooling, x, kernel=(2, 2), stride=(0, 1), match="stride")
    expect_error(nd.Pooling, nd.ones((2, 3)), global_pool=True, match="3-D")
    expect_error(nd.Pooling, nd.ones((1, 1, 3, 3, 3, 3)), kernel=(2, 2, 2, 2), match="6 dim")
    expect_error(nd.Pooling, x, global_pool=True, kernel=(2,), match="global_pool")
    expect_error(nd.Pooling, nd.ones((1, 1, 4, 4), dtype="int32"), kernel=(2, 2), match="int32")
    expect_error(nd.Pooling, x, kernel=(2, 2), pool_type="lp", match="p_value")
    expect_error(nd.Pooling, x, kernel=(2, 2), pool_type="lp", p_value=4, match="p_value=4")
    expect_error(nd.Pooling, x, kernel=(2, 2), pool_type="min", match="pool_type")
    expect_error(nd.Pooling, x, kernel=(2, 2), pooling_convention="same", match="1-D")
    expect_error(nd.Pooling, nd.ones((1, 1, 7)), kernel=(2,), pooling_convention="same",
                 match="pad=(0, 0, 0)")
    expect_error(nd.Pooling, x, kernel=(2, 2), layout="NCW", match="layout")
    expect_error(nd.Pooling, x, kernel=(2, 2), layout="NCDHW", match="layout")
    op = nd.op._backward_Pooling
    expect_error(op, nd.ones((2, 3, 3, 3)), x, nd.ones((2, 3, 3, 3)), kernel=(2, 2), match="ograd")


@pytest.mark.parametrize("shape,kw", [
    ((2, 2, 7, 6), dict(kernel=(3, 2), stride=(1, 2), pad=(1, 1))),
    ((1, 2, 5, 6, 5), dict(kernel=(2, 3, 2), stride=(2, 1, 1), pad=(1, 1, 0),
                           pooling_convention="full")),
])
@pytest.mark.parametrize("pool_type", ["max", "avg", "lp"])
def test_every_axis_grouping_gives_the_same_result(monkeypatch, shape, kw, pool_type):
    """Windows are reduced one group of axes at a time; every grouping must agree exactly
    on which maximum gets the gradient (ties included) and closely on sums."""
    from mxnet.operator import nn_pool
    x = nd.array(np.random.RandomState(0).randint(0, 3, size=shape), dtype="float64")
    extra = dict(p_value=2) if pool_type == "lp" else {}
    head = nd.array(rand(*nd.Pooling(x, pool_type=pool_type, **kw, **extra).shape),
                    dtype="float64")
    results = []
    for grouping in nn_pool.GROUPINGS[len(shape) - 2]:
        monkeypatch.setattr(nn_pool, "_plan", lambda g, grouping=grouping: grouping)
        x.attach_grad()
        with mx.autograd.record():
            y = nd.Pooling(x, pool_type=pool_type, **kw, **extra)
        y.backward(head)
        results.append((y.asnumpy(), x.grad.asnumpy()))
    for y, gx in results[1:]:
        np.testing.assert_allclose(y, results[0][0], rtol=1e-12)
        np.testing.assert_allclose(gx, results[0][1], rtol=1e-12, atol=1e-12)


def test_max_gradient_nan_reaches_only_the_maximum():
    x = nd.array([[[[1.0, 4.0], [2.0, 3.0]]]])
    x.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(x, kernel=(2, 2))
    y.backward(nd.array([[[[np.nan]]]]))
    g = x.grad.asnumpy()[0, 0]
    assert np.isnan(g[0, 1]) and np.all(g[[0, 1, 1], [0, 0, 1]] == 0)


def test_symbolic_graph_gradient():
    data = mx.sym.var("data")
    y = mx.sym.Pooling(data, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max")
    x = distinct(1, 2, 5, 5, seed=4)
    ex = y.simple_bind(mx.current_context(), data=x.shape)
    ex.arg_dict["data"][:] = x
    ex.forward(is_train=True)
    head = nd.array(rand(*ex.outputs[0].shape))
    ex.backward(head)
    xa = nd.array(x)
    xa.attach_grad()
    with mx.autograd.record():
        z = nd.Pooling(xa, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max")
    z.backward(head)
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), z.asnumpy())
    np.testing.assert_allclose(ex.grad_dict["data"].asnumpy(), xa.grad.asnumpy())
