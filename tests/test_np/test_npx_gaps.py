"""The mx.npx names added after the first NumPy-interface pass (operator front ends, npx.image,
npx.random.bernoulli/normal_n/uniform_n, softmax with a length mask), against MXNet 1.9.1
goldens from tools/golden/gen_npx_gaps.py (case table: tools/golden/npx_gaps_cases.py)."""
import inspect
import json
import os
import sys

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np, npx
from mxnet.base import MXNetError

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools", "golden"))
from npx_gaps_cases import cases, error_cases, random_cases, run  # noqa: E402

GOLD = os.path.join(ROOT, "tests", "golden")
ARR = onp.load(os.path.join(GOLD, "npx_gaps.npz"))
META = json.load(open(os.path.join(GOLD, "npx_gaps.json")))


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


CASES = cases(np, npx)


@pytest.mark.parametrize("key", sorted(CASES))
def test_values_and_gradients(key):
    fn, _, diff = CASES[key]
    n_in = sum(1 for k in ARR.files if k.startswith(f"{key}:in"))
    inputs = [ARR[f"{key}:in{i}"] for i in range(n_in)]
    xs, outs, _ = run(np, autograd, fn, inputs, diff,
                      lambda outs: [ARR[f"{key}:head{j}"] for j in range(len(outs))])
    assert [str(o.dtype) for o in outs] == META["dtypes"][key]
    for j, o in enumerate(outs):
        assert isinstance(o, np.ndarray)
        want = ARR[f"{key}:out{j}"]
        assert o.shape == want.shape
        tol = 2e-3 if o.dtype == onp.float16 else 1e-5
        onp.testing.assert_allclose(o.asnumpy().astype("float64"), want.astype("float64"),
                                    rtol=tol, atol=tol, err_msg=f"{key} out{j}")
    if diff:
        for i in diff:
            onp.testing.assert_allclose(xs[i].grad.asnumpy(), ARR[f"{key}:grad{i}"],
                                        rtol=1e-4, atol=1e-5, err_msg=f"{key} grad{i}")


def test_softmax_length_brief_example():
    x = np.array([[1, -2, 3], [-0.5, 0.5, 2]])
    y = npx.softmax(x, np.array([2, 3], dtype="int32"), use_length=True)
    onp.testing.assert_allclose(y.asnumpy(), [[0.95257413, 0.04742587, 0.0],
                                              [0.06289002, 0.1709528, 0.7661572]], rtol=1e-6)


ERRS = error_cases(np, npx)
_EXC = {"MXNetError": MXNetError, "ValueError": ValueError}


@pytest.mark.parametrize("key", sorted(ERRS))
def test_errors(key):
    fn, _ = ERRS[key]
    n_in = sum(1 for k in ARR.files if k.startswith(f"err:{key}:in"))
    xs = [np.array(ARR[f"err:{key}:in{i}"]) for i in range(n_in)]
    with pytest.raises(_EXC[META["errors"][key]]) as info:
        fn(*xs)
    assert "npx." in str(info.value) or "softmax" in str(info.value)


def test_constraint_check_passes():
    r = npx.constraint_check(np.ones((2, 2)) > 0, "unused")
    assert r.shape == () and r.dtype == onp.bool_ and bool(r)
    with pytest.raises(ValueError, match="need positive"):
        npx.constraint_check(np.array([1.0, -1.0]) > 0, "need positive")


RNDS = random_cases(np, npx)


@pytest.mark.parametrize("key", sorted(RNDS))
def test_random_shapes(key):
    fn, _ = RNDS[key]
    n_in = sum(1 for k in ARR.files if k.startswith(f"rnd:{key}:in"))
    r = fn(*[np.array(ARR[f"rnd:{key}:in{i}"]) for i in range(n_in)])
    want = META["random"][key]
    assert isinstance(r, np.ndarray)
    assert list(r.shape) == want["shape"] and str(r.dtype) == want["dtype"]
    if want["binary"]:
        assert onp.isin(r.asnumpy(), [0, 1]).all()


def test_random_distributions():
    mx.random.seed(3)
    b = npx.random.bernoulli(np.array([0.0, 1.0, 0.25]), size=(4000, 3)).asnumpy()
    assert (b[:, 0] == 0).all() and (b[:, 1] == 1).all()
    assert abs(b[:, 2].mean() - 0.25) < 0.03
    lg = npx.random.bernoulli(logit=np.array([2.0]), size=(4000, 1)).asnumpy()
    assert abs(lg.mean() - 1 / (1 + onp.exp(-2.0))) < 0.03
    u = npx.random.uniform_n(np.array([0.0, 10.0]), 11.0, batch_shape=(3000,)).asnumpy()
    assert u.shape == (3000, 2)
    assert u[:, 0].min() >= 0 and u[:, 0].max() < 11 and u[:, 1].min() >= 10
    n = npx.random.normal_n(np.array([5.0, -5.0]), 2.0, batch_shape=(4000,)).asnumpy()
    onp.testing.assert_allclose(n.mean(0), [5, -5], atol=0.15)
    onp.testing.assert_allclose(n.std(0), [2, 2], atol=0.15)


def test_normal_n_pathwise_gradient():
    loc = np.array([1.0, 2.0])
    loc.attach_grad()
    with autograd.record():
        y = npx.random.normal_n(loc, 1.0, batch_shape=(5,))
    y.backward()
    onp.testing.assert_allclose(loc.grad.asnumpy(), [5.0, 5.0])


def test_signatures_follow_191():
    params = lambda f: list(inspect.signature(f).parameters)[:3]  # noqa: E731
    assert params(npx.softmax) == ["data", "length", "axis"]
    assert params(npx.log_softmax) == ["data", "axis", "temperature"]
    assert params(npx.deconvolution) == ["data", "weight", "bias"]
    assert params(npx.rnn) == ["data", "parameters", "state"]
    assert list(inspect.signature(npx.random.bernoulli).parameters) == [
        "prob", "logit", "size", "dtype", "ctx", "out"]
    for n in ("ImageIter", "resize_short", "to_tensor", "random_hue"):
        assert n in dir(npx.image) and callable(getattr(npx.image, n))
    assert npx.Context is mx.Context


def test_out_and_type_checks():
    x = np.array([0.2, -0.4])
    o = np.zeros(2)
    npx.erfinv(x, out=o)
    onp.testing.assert_allclose(o.asnumpy(), npx.erfinv(x).asnumpy())
    with pytest.raises(TypeError, match="npx.gammaln"):
        npx.gammaln(onp.array([1.0]))
    with pytest.raises(MXNetError, match="npx.gather_nd"):
        npx.gather_nd(x)
    with pytest.raises(MXNetError, match="length"):
        npx.softmax(x, -1)  # the second positional argument is length, as in 1.9.1


def test_hybridized_blocks_trace_new_names():
    from mxnet.gluon import HybridBlock

    class Net(HybridBlock):
        def hybrid_forward(self, F, x, n, img):
            a = F.npx.softmax(x, n, use_length=True)
            b = F.npx.smooth_l1(F.npx.erfinv(x * 0.1), scalar=2.0)
            c = F.npx.image.normalize(F.npx.image.to_tensor(img), mean=(0.1, 0.2, 0.3),
                                      std=(0.5, 0.5, 0.5))
            d = F.npx.multibox_prior(c.expand_dims(0), sizes=(0.5,))
            return a + b, c, d

    x = np.array(onp.random.RandomState(0).randn(2, 3).astype("float32"))
    n = np.array([1, 3], dtype="int32")
    img = np.array(onp.random.RandomState(1).randint(0, 255, (4, 5, 3)).astype("uint8"))
    net = Net()
    eager = net(x, n, img)
    net.hybridize()
    traced = net(x, n, img)
    for e, t in zip(eager, traced):
        onp.testing.assert_allclose(t.asnumpy(), e.asnumpy(), rtol=1e-6)
    for name in ("roi_pooling", "multibox_target", "multibox_detection"):
        assert callable(getattr(mx.sym.npx, name))
