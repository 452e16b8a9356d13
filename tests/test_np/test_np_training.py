"""Gluon under npx.set_np(): the d2l "linear regression (concise)" and "softmax regression"
loops against 1.9.1 (tests/golden/numpy_train.npz, from tools/golden/gen_numpy.py, whose
loops run here on the recorded data, initial weights and batch order), imperative and
hybridized."""
import os

import numpy as onp
import pytest

from mxnet import autograd, gluon, np, npx

from .._scripts import load_script

# the golden script's own training loops (it sets NumPy mode only when run)
GEN = load_script("tools/golden/gen_numpy.py")

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden", "numpy_train.npz")


@pytest.fixture(scope="module")
def golden():
    if not os.path.exists(GOLDEN):
        pytest.fail("golden fixture missing; regenerate with: cd /tmp && MXNET_ENGINE_TYPE="
                    "NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_numpy.py")
    with onp.load(GOLDEN) as z:
        return {k: z[k] for k in z.files}


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _linreg(g, hybridize):
    def check(xb, yb, out, lv):
        assert all(isinstance(a, np.ndarray) for a in (xb, yb, out, lv))
    losses, net = GEN.train_linreg(g["lin_X"], g["lin_y"], hybridize, check)
    assert isinstance(net[0].weight.data(), np.ndarray)
    assert isinstance(net[0].weight.grad(), np.ndarray)
    return losses, net[0].weight.data().asnumpy(), net[0].bias.data().asnumpy()


def _softmax(g, hybridize):
    losses, accs, net = GEN.train_softmax(g["sm_X"], g["sm_y"], g["sm_W0"], hybridize)
    return losses, accs, net[0].weight.data().asnumpy(), net[0].bias.data().asnumpy()


@pytest.mark.filterwarnings("ignore:All children of this Sequential")
@pytest.mark.parametrize("hybridize", [False, True], ids=["imperative", "hybridized"])
def test_linear_regression_matches_reference(golden, hybridize):
    tag = "hyb" if hybridize else "imp"
    losses, w, b = _linreg(golden, hybridize)
    onp.testing.assert_allclose(losses, golden[f"lin_{tag}_loss"], rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(w, golden[f"lin_{tag}_w"], rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(b, golden[f"lin_{tag}_b"], rtol=1e-5, atol=1e-6)
    assert losses[-1] < losses[0] / 2


@pytest.mark.filterwarnings("ignore:All children of this Sequential")
@pytest.mark.parametrize("hybridize", [False, True], ids=["imperative", "hybridized"])
def test_softmax_regression_matches_reference(golden, hybridize):
    tag = "hyb" if hybridize else "imp"
    losses, accs, w, b = _softmax(golden, hybridize)
    onp.testing.assert_allclose(losses, golden[f"sm_{tag}_loss"], rtol=1e-5, atol=1e-5)
    onp.testing.assert_array_equal(accs, golden[f"sm_{tag}_acc"])
    onp.testing.assert_allclose(w, golden[f"sm_{tag}_w"], rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(b, golden[f"sm_{tag}_b"], rtol=1e-5, atol=1e-6)


def test_blocks_give_np_arrays_and_legacy_mode_gives_nd():
    from mxnet import nd
    net = gluon.nn.Dense(3)
    net.initialize()
    x = np.ones((2, 4))
    assert isinstance(net(x), np.ndarray)
    assert isinstance(net.weight.data(), np.ndarray)
    net.hybridize()
    assert isinstance(net(x), np.ndarray)
    npx.reset_np()
    net2 = gluon.nn.Dense(3)
    net2.initialize()
    out = net2(nd.ones((2, 4)))
    assert type(out) is nd.NDArray and type(net2.weight.data()) is nd.NDArray


def test_conv_and_pool_layers_with_np_arrays():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Conv2D(2, 3, padding=1), gluon.nn.MaxPool2D(), gluon.nn.Flatten(),
            gluon.nn.Dense(2))
    net.initialize()
    x = np.ones((1, 1, 4, 4))
    y1 = net(x)
    net.hybridize()
    y2 = net(x)
    assert isinstance(y1, np.ndarray) and isinstance(y2, np.ndarray) and y1.shape == (1, 2)
    onp.testing.assert_allclose(y1.asnumpy(), y2.asnumpy(), rtol=1e-5, atol=1e-6)


def test_d2l_from_scratch_patterns_match_reference(golden):
    """Manual minibatches and SGD (``p[:] = p - lr * p.grad / n``), softmax cross-entropy by
    ``probs[range(n), labels]`` and the accuracy count, as d2l writes them."""
    rs = onp.random.RandomState(2)
    X = np.array(rs.normal(0, 1, (30, 3)).astype("float32"))
    y = np.dot(X, np.array([1.5, -2.0, 0.5])) + 0.7
    w = np.array(rs.normal(0, 0.01, (3, 1)).astype("float32"))
    b = np.zeros(1)
    w.attach_grad()
    b.attach_grad()
    losses = []
    for _ in range(3):
        for i in range(0, 30, 8):
            idx = np.array(list(range(i, min(i + 8, 30))))
            xb, yb = X[idx], y[idx]
            with autograd.record():
                yh = np.dot(xb, w) + b
                lv = (yh - yb.reshape(yh.shape)) ** 2 / 2
            lv.backward()
            for p in (w, b):
                p[:] = p - 0.1 * p.grad / xb.shape[0]
            losses.append(float(lv.mean().item()))
    onp.testing.assert_allclose(losses, golden["scratch_loss"], rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(w.asnumpy(), golden["scratch_w"], rtol=1e-5, atol=1e-6)
    onp.testing.assert_allclose(b.asnumpy(), golden["scratch_b"], rtol=1e-5, atol=1e-6)
    logits = np.array(rs.normal(0, 1, (6, 4)).astype("float32"))
    labels = np.array([0, 3, 1, 1, 2, 0])
    e = np.exp(logits)
    probs = e / e.sum(1, keepdims=True)
    ce = -np.log(probs[range(len(probs)), labels])
    acc = float((probs.argmax(axis=1).astype(labels.dtype) == labels).astype(labels.dtype).sum())
    onp.testing.assert_allclose(ce.asnumpy(), golden["scratch_ce"], rtol=1e-5, atol=1e-6)
    assert acc == float(golden["scratch_acc"])


def test_save_and_load_parameters_under_np(tmp_path):
    net = gluon.nn.Dense(2)
    net.initialize()
    net(np.ones((1, 3)))
    f = str(tmp_path / "net.params")
    net.save_parameters(f)
    with open(f, "rb") as fh:   # NumPy-shape (V3) records, as 1.9.1 writes under set_np
        assert bytes.fromhex("cafa93f9") in fh.read()
    net2 = gluon.nn.Dense(2)
    net2.load_parameters(f)
    assert isinstance(net2.weight.data(), np.ndarray)
    onp.testing.assert_array_equal(net2.weight.data().asnumpy(), net.weight.data().asnumpy())
