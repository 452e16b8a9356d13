"""Activation, LeakyReLU, softmax/log_softmax/softmin and SoftmaxActivation: 1.9.1 golden
forward and backward, numeric gradients, shape/type inference and errors."""
from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .harness import GradCase, check_grad_case, expect_error, load_golden_npz, rand

nd = mx.nd

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "nn_activation_output.npz"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_nn_activation_output.py"


def load_table():
    """The golden generator module (importable without the reference mxnet)."""
    name = "golden_gen_nn_activation_output"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, REPO / "tools" / "golden" / "gen_nn_activation_output.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


TABLE = load_table()


def _away_from_kinks(*shape, seed=0):
    """Values in [-1, 1] kept 0.05 away from 0 (where relu-like gradients jump)."""
    x = rand(*shape, seed=seed)
    return np.where(np.abs(x) < 0.05, 0.3, x)


# ---------------------------------------------------------------------------------------------
# numeric gradients

GRAD_CASES = [
    *[GradCase(f"Activation.{t}", lambda x, t=t: nd.Activation(x, act_type=t),
               [_away_from_kinks(2, 3, seed=1) * 2], ops=("Activation",))
      for t in ("relu", "sigmoid", "tanh", "softrelu", "softsign")],
    GradCase("LeakyReLU.leaky", lambda x: nd.LeakyReLU(x, slope=0.1), [_away_from_kinks(3, 4)],
             ops=("LeakyReLU",)),
    GradCase("LeakyReLU.elu", lambda x: nd.LeakyReLU(x, act_type="elu", slope=0.5),
             [_away_from_kinks(3, 4, seed=2)], ops=("LeakyReLU",)),
    GradCase("LeakyReLU.gelu", lambda x: nd.LeakyReLU(x, act_type="gelu"), [rand(3, 4, seed=3)],
             ops=("LeakyReLU",), eps=1e-2, rtol=1e-2, atol=2e-4),  # float32 inside, as 1.9.1
    GradCase("LeakyReLU.prelu", lambda x, g: nd.LeakyReLU(x, g, act_type="prelu"),
             [_away_from_kinks(2, 3, 2, seed=4), np.array([0.5, -1.0, 2.0])], ops=("LeakyReLU",)),
    GradCase("LeakyReLU.prelu_axis0", lambda x, g: nd.LeakyReLU(x, g, act_type="prelu"),
             [_away_from_kinks(2, 3, 2, seed=5), np.array([0.5, 2.0])], ops=("LeakyReLU",)),
    GradCase("softmax", lambda x: nd.softmax(x, axis=1), [rand(2, 3, 4, seed=6)],
             ops=("softmax",)),
    GradCase("softmax_temperature", lambda x: nd.softmax(x, temperature=0.7),
             [rand(3, 4, seed=7)], ops=("softmax",)),
    GradCase("softmax_length", lambda x, n: nd.softmax(x, n.astype("int32"), use_length=True),
             [rand(2, 3, 4, seed=8), np.array([[1, 4, 0], [2, 3, 4]])], wrt=[0],
             ops=("softmax",)),
    GradCase("log_softmax", lambda x: nd.log_softmax(x, axis=0, temperature=1.5),
             [rand(3, 4, seed=9)], ops=("log_softmax",)),
    GradCase("softmin", lambda x: nd.softmin(x, temperature=0.5), [rand(3, 4, seed=10)],
             ops=("softmin",)),
    GradCase("SoftmaxActivation.instance", lambda x: nd.SoftmaxActivation(x),
             [rand(3, 4, seed=11)], ops=("SoftmaxActivation",)),
    GradCase("SoftmaxActivation.channel", lambda x: nd.SoftmaxActivation(x, mode="channel"),
             [rand(2, 3, 2, 2, seed=12)], ops=("SoftmaxActivation",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward and backward


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def tolerance(case, dtype):
    base = {"float16": (3e-3, 1e-3), "float32": (1e-5, 1e-6)}.get(str(dtype), (1e-7, 1e-10))
    if case.rtol is not None:
        return max(case.rtol, base[0]), max(case.rtol * 1e-2, base[1])
    return base


def replay(case, golden):
    """Run one golden case on this mxnet and compare outputs and gradients."""
    n_in = len(case.inputs)
    n_out = sum(1 for k in golden if k.startswith(f"{case.id}/out"))
    inputs = [golden[f"{case.id}/in{i}"] for i in range(n_in)]
    heads = [golden[f"{case.id}/head{j}"] for j in range(n_out)]
    outs, _, grads = TABLE.run_case(mx, case, inputs=inputs, heads=heads)
    assert len(outs) == n_out
    for j, o in enumerate(outs):
        want = golden[f"{case.id}/out{j}"]
        assert o.dtype == want.dtype and o.shape == want.shape, (j, o.dtype, o.shape, want.dtype,
                                                                 want.shape)
        rtol, atol = tolerance(case, want.dtype)
        np.testing.assert_allclose(o, want, rtol=rtol, atol=atol, err_msg=f"output {j}")
    wrt = case.grad_inputs() if case.backward else []
    for i, g in zip(wrt, grads):
        want = golden[f"{case.id}/grad{i}"]
        assert g.dtype == want.dtype and g.shape == want.shape, (i, g.dtype, want.dtype)
        rtol, atol = tolerance(case, want.dtype)
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


CASES = [c for c in TABLE.CASES if c.family == "activation"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    replay(case, golden)


# ---------------------------------------------------------------------------------------------
# forward details


def test_signatures_follow_1_9_1():
    assert list(inspect.signature(nd.Activation).parameters)[:2] == ["data", "act_type"]
    assert list(get_op("LeakyReLU").params) == ["act_type", "slope", "lower_bound",
                                                "upper_bound"]
    assert list(get_op("softmax").params) == ["axis", "temperature", "dtype", "use_length"]
    assert get_op("softmax").input_names(get_op("softmax").parse_attrs({"use_length": True})) == [
        "data", "length"]
    assert get_op("log_softmax").input_names(get_op("log_softmax").parse_attrs({})) == ["data"]
    assert get_op("LeakyReLU").input_names(get_op("LeakyReLU").parse_attrs(
        {"act_type": "prelu"})) == ["data", "gamma"]
    x = nd.array([[-1.0, 2.0]])
    np.testing.assert_allclose(nd.log_softmax(x, 0).asnumpy(), [[0.0, 0.0]])  # axis follows data


def test_rrelu_train_and_predict():
    x = nd.array(-np.ones((50, 40)))
    out, mask = nd.LeakyReLU(x, act_type="rrelu", lower_bound=0.2, upper_bound=0.5)
    np.testing.assert_allclose(mask.asnumpy(), 0.35, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), -0.35, rtol=1e-6)
    x.attach_grad()
    with mx.autograd.record():
        out, mask = nd.LeakyReLU(x, act_type="rrelu", lower_bound=0.2, upper_bound=0.5)
    m = mask.asnumpy()
    assert 0.2 <= m.min() and m.max() < 0.5 and m.std() > 0.05
    np.testing.assert_allclose(out.asnumpy(), -m)
    out.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), m)
    y = nd.array([[1.0, -2.0]])
    with mx.autograd.train_mode():
        out, mask = nd.LeakyReLU(y, act_type="rrelu")
    assert out.asnumpy()[0, 0] == 1.0


def test_selu_gradient_matches_1_9_1_not_the_derivative():
    x = nd.array([-3.0], dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = nd.LeakyReLU(x, act_type="selu")
    y.backward()
    lam, alpha = 1.0507009873554805, 1.6732632423543772
    assert abs(x.grad.asscalar() - lam * (y.asscalar() + alpha)) < 1e-6
    assert abs(x.grad.asscalar() - lam * alpha * np.exp(-3.0)) > 1e-2


def test_softmax_activation_gradient_matches_1_9_1():
    """In instance mode 1.9.1 normalises over the last axis but differentiates over axis 1."""
    x = nd.array(rand(2, 3, 4, seed=5))
    x.attach_grad()
    head = rand(2, 3, 4, seed=6)
    with mx.autograd.record():
        y = nd.SoftmaxActivation(x)
    y.backward(nd.array(head))
    yn = y.asnumpy()
    np.testing.assert_allclose(yn.sum(axis=-1), 1.0, rtol=1e-6)
    want = yn * (head - (head * yn).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5, atol=1e-7)


def test_softmax_length_masks_and_clips():
    x = nd.array(rand(2, 4, seed=3))
    out = nd.softmax(x, nd.array([0, 9], dtype="int32"), use_length=True).asnumpy()
    assert np.all(out[0] == 0)
    np.testing.assert_allclose(out[1], nd.softmax(x).asnumpy()[1], rtol=1e-6)


def test_softmax_is_stable_and_keeps_dtype():
    big = nd.array([[1e4, 0.0, -1e4]], dtype="float16")
    for op in (nd.softmax, nd.softmin, nd.log_softmax):
        out = op(big)
        assert out.dtype == np.float16
    np.testing.assert_allclose(nd.softmax(big).asnumpy(), [[1, 0, 0]])
    # 1.9.1 (oneDNN's log of the row sum 1.0 is -1.43e-6, recorded from 1.9.1)
    np.testing.assert_array_equal(nd.log_softmax(nd.array([[1000.0, 0.0]])).asnumpy(),
                                  np.array([[1.430511474609375e-06, -1000.0]], np.float32))
    assert nd.softmax(nd.ones((2, 3)), dtype="float64").dtype == np.float64


def test_infer_shape_and_type():
    def infer(name, shapes, **kw):
        op = get_op(name)
        attrs = op.parse_attrs(kw)
        return op.infer_shape(attrs, shapes, [None] * op.num_outputs(attrs))

    assert infer("LeakyReLU", [(4, 3, 5), None], act_type="prelu")[0] == [(4, 3, 5), (3,)]
    assert infer("LeakyReLU", [(4, 3)], act_type="rrelu")[1] == [(4, 3), (4, 3)]
    assert infer("softmax", [(2, 3, 4), None], use_length=True, axis=1)[0] == [(2, 3, 4), (2, 4)]
    assert infer("Activation", [None], act_type="relu")[1] == [None]
    op = get_op("softmax")
    attrs = op.parse_attrs({"dtype": "float64"})
    assert op.infer_type(attrs, [np.dtype("float32")], [None])[1] == [np.dtype("float64")]


# ---------------------------------------------------------------------------------------------
# relu split over threads


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_relu_in_ranges_over_threads(monkeypatch, threads, dtype):
    """relu's forward and backward run on flat ranges in several threads: the values of
    max(x, 0) (NaN becomes 0, as fmax; the sign of a zero result is NumPy's fmax's choice,
    which differs between its vector and scalar loops) and the bits of ograd * (y > 0),
    special values included."""
    from mxnet.operator import _batch_threads
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    monkeypatch.setenv("MXNET_PY_OP_THREADS", str(threads))
    rng = np.random.default_rng(11)
    x = rng.standard_normal((3, 5, 70001 // 15 + 1)).astype(dtype)
    special = [np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-30, -1e-30]
    x.reshape(-1)[:len(special)] = special
    x.reshape(-1)[-len(special):] = special
    head = rng.standard_normal(x.shape).astype(dtype)
    head.reshape(-1)[:4] = [np.inf, -1.0, np.nan, -0.0]
    xa = nd.array(x, dtype=dtype)
    xa.attach_grad()
    with mx.autograd.record():
        y = nd.Activation(xa, act_type="relu")
    y.backward(nd.array(head, dtype=dtype))
    want_y = np.fmax(x, x.dtype.type(0))
    with np.errstate(invalid="ignore"):
        want_g = head * (want_y > 0).astype(dtype)
    np.testing.assert_array_equal(y.asnumpy(), want_y)
    assert xa.grad.asnumpy().tobytes() == want_g.tobytes()
    # the written-into-output forms give the same bits
    out = nd.zeros(x.shape, dtype=dtype)
    nd.Activation(xa, act_type="relu", out=out)
    np.testing.assert_array_equal(out.asnumpy(), want_y)


# ---------------------------------------------------------------------------------------------
# errors


def test_errors():
    i32 = nd.array([[1, -2]], dtype="int32")
    expect_error(nd.Activation, i32, act_type="relu", match="int32")
    expect_error(nd.Activation, nd.ones((2,)), act_type="gelu", match="act_type")
    expect_error(nd.Activation, nd.ones((2,)), match="act_type")
    expect_error(nd.LeakyReLU, i32, match="floating point")
    expect_error(nd.softmax, i32, match="softmax")
    expect_error(nd.softmax, nd.ones((2, 3)), axis=2, match="axis")
    expect_error(nd.log_softmax, nd.ones((2, 3)), use_length=True, match="length")
    expect_error(nd.softmin, nd.ones((2, 3)), use_length=True, match="length")
    expect_error(nd.softmax, nd.ones((2, 3)), nd.ones((2,)), use_length=True, match="integer")
    expect_error(nd.softmax, nd.ones((2, 3)), nd.ones((3,), dtype="int32"), use_length=True,
                 match="(2,)")
    expect_error(nd.softmax, nd.ones((2, 3)), dtype="int32", match="dtype")
    expect_error(nd.LeakyReLU, nd.ones((2, 3, 2)), nd.ones((3, 1)), act_type="prelu",
                 match="gamma")
    # 1.9.1 takes 1-D data with a gamma of size 1 or of the data's length; others fail
    expect_error(nd.LeakyReLU, nd.ones((3,)), nd.ones((2,)), act_type="prelu", match="gamma")
    expect_error(nd.LeakyReLU, nd.ones((2, 3)), act_type="prelu", match="gamma")
    expect_error(nd.SoftmaxActivation, nd.ones((2, 3)), mode="channel", match="3 dim")
    expect_error(nd.SoftmaxActivation, nd.ones((2, 3)), mode="spatial", match="mode")


def _generic_softmax_steps(x, kind, temperature):
    """1.9.1's generic CPU softmax kernel, written out independently: float64 exp/log rounded
    to float32 once (the large-array path), each row's sum taken in order (a cumulative sum)."""
    f32 = x.dtype == np.float32
    z = -x if kind == "softmin" else x
    z = z - z.max(axis=-1, keepdims=True)
    if temperature is not None:
        z = z / x.dtype.type(temperature)
    e = np.exp(z.astype(np.float64)).astype(x.dtype) if f32 else np.exp(z)
    s = np.cumsum(e, axis=-1)[..., -1:]
    if kind == "log_softmax":
        return z - (np.log(s.astype(np.float64)).astype(x.dtype) if f32 else np.log(s))
    return e / s


@pytest.mark.parametrize("threads", ["1", "2", "3"])
@pytest.mark.parametrize("kind, temperature, dtype, shape", [
    ("softmax", None, np.float32, (300, 700)), ("softmax", None, np.float32, (3, 97, 350)),
    ("log_softmax", None, np.float32, (130, 1000)), ("softmin", 2.5, np.float32, (70, 1500)),
    ("softmax", 0.5, np.float64, (129, 600))])
def test_large_softmax_rows_in_blocks(monkeypatch, threads, kind, temperature, dtype, shape):
    """Large softmaxes go block of rows by block of rows over the op threads: the same bits
    as the generic kernel's steps on the whole array, whatever the thread count."""
    from mxnet.operator import _batch_threads
    from mxnet.operator import nn_activation as na
    monkeypatch.setenv("MXNET_PY_OP_THREADS", threads)
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    x = np.random.default_rng(5).standard_normal(shape).astype(dtype) * 4
    assert x.size > na.LIBM_EXACT_MAX
    got = na.softmax_forward(np, x, x.ndim - 1, temperature, kind)
    want = _generic_softmax_steps(x, kind, temperature)
    assert got.dtype == dtype and np.array_equal(got, want)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("kind", ["softmax", "log_softmax"])
def test_large_onednn_fast_softmax_rows_in_blocks(monkeypatch, threads, kind):
    """The NumPy float32 path that stands in for oneDNN's softmax on large arrays, in blocks
    of rows over the op threads: every row's steps (max, exp, pairwise sum, log) alike, so
    the same bits as on the whole array."""
    from mxnet.operator import _batch_threads
    from mxnet.operator import nn_activation as na
    monkeypatch.setenv("MXNET_PY_OP_THREADS", threads)
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    x = np.random.default_rng(6).standard_normal((3, 150, 700)).astype(np.float32) * 4
    assert x.size > na.EMULATE_MAX and na.onednn_softmax(kind, x, 2, None, False,
                                                         np.float32) == "fast"
    got = na.softmax_forward(np, x, 2, kind=kind, onednn="fast")
    z = x - x.max(axis=-1, keepdims=True)
    want = (z - np.log(np.exp(z).sum(axis=-1, keepdims=True)) if kind == "log_softmax" else
            np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True))
    assert np.array_equal(got, want)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("kind", ["softmax", "log_softmax"])
@pytest.mark.parametrize("into", [None, "fresh", "ograd"])
def test_large_onednn_fast_softmax_gradient_rows(monkeypatch, threads, kind, into):
    """The NumPy float32 gradient path of large softmaxes in blocks of rows over the op
    threads: the same bits as the whole-array expressions, also written into ``out`` or into
    the head gradient's own buffer."""
    from mxnet.operator import _batch_threads
    from mxnet.operator import nn_activation as na
    monkeypatch.setenv("MXNET_PY_OP_THREADS", threads)
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    rng = np.random.default_rng(8)
    x = rng.standard_normal((150, 700)).astype(np.float32) * 4
    og = rng.standard_normal(x.shape).astype(np.float32)
    y = na.softmax_forward(np, x, 1, kind=kind, onednn="fast")
    if kind == "log_softmax":
        want = og - np.exp(y) * og.sum(axis=1, keepdims=True)
    else:
        d = og * y
        want = d - y * d.sum(axis=1, keepdims=True)
    g = og.copy()
    out = {None: None, "fresh": np.empty_like(og), "ograd": g}[into]
    got = na.softmax_backward(np, g, y, 1, kind=kind, out=out, onednn="fast")
    assert np.array_equal(got, want)
    if out is not None:
        assert got is out
