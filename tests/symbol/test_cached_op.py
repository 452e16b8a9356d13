"""mx.nd.CachedOp: a Symbol called like a function, with autograd through it."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.base import MXNetError


def _dense_relu():
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    return mx.sym.relu(fc)


def _arrays(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(4, 5)).astype(np.float32)
    w = rng.normal(size=(3, 5)).astype(np.float32)
    b = rng.normal(size=(3,)).astype(np.float32)
    return x, w, b


def test_forward_is_the_closed_form():
    sym = _dense_relu()
    op = mx.nd.CachedOp(sym)
    assert sym.list_inputs() == ["data", "fc_weight", "fc_bias"]
    x, w, b = _arrays()
    y = op(mx.nd.array(x), mx.nd.array(w), mx.nd.array(b))
    np.testing.assert_allclose(y.asnumpy(), np.maximum(x @ w.T + b, 0), rtol=1e-5, atol=1e-6)


def test_gradients_through_the_call():
    op = mx.nd.CachedOp(_dense_relu(), flags=[("static_alloc", True)])
    x, w, b = _arrays(1)
    args = [mx.nd.array(a) for a in (x, w, b)]
    for a in args:
        a.attach_grad()
    with autograd.record():
        y = op(*args)
        loss = (y * y).sum()
    loss.backward()
    z = x @ w.T + b
    dz = 2 * np.maximum(z, 0) * (z > 0)
    np.testing.assert_allclose(args[0].grad.asnumpy(), dz @ w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(args[1].grad.asnumpy(), dz.T @ x, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(args[2].grad.asnumpy(), dz.sum(0), rtol=1e-4, atol=1e-5)


def test_several_outputs_and_out():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    op = mx.nd.CachedOp(mx.sym.Group([a + b, a * b]))
    s, p = op(mx.nd.array([1.0, 2.0]), mx.nd.array([3.0, 4.0]))
    np.testing.assert_array_equal(s.asnumpy(), [4, 6])
    np.testing.assert_array_equal(p.asnumpy(), [3, 8])
    dst = [mx.nd.zeros(2), mx.nd.zeros(2)]
    op(mx.nd.array([1.0, 2.0]), mx.nd.array([3.0, 4.0]), out=dst)
    np.testing.assert_array_equal(dst[1].asnumpy(), [3, 8])


def test_auxiliary_states_in_list_inputs_order():
    data = mx.sym.var("data")
    bn = mx.sym.BatchNorm(data, fix_gamma=False, use_global_stats=True, name="bn")
    op = mx.nd.CachedOp(bn)
    names = bn.list_inputs()
    assert names == ["data", "bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var"]
    x = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    vals = {"data": x, "bn_gamma": np.array([2.0, 1.0]), "bn_beta": np.array([0.5, -1.0]),
            "bn_moving_mean": np.array([1.0, 3.0]), "bn_moving_var": np.array([4.0, 1.0])}
    y = op(*[mx.nd.array(vals[n]) for n in names])
    m, v = vals["bn_moving_mean"][None, :, None], vals["bn_moving_var"][None, :, None]
    want = (x - m) / np.sqrt(v + 1e-3) * vals["bn_gamma"][None, :, None] + \
        vals["bn_beta"][None, :, None]
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_wrong_number_of_inputs():
    op = mx.nd.CachedOp(_dense_relu())
    with pytest.raises(MXNetError, match=r"CachedOp: the symbol takes 3 inputs"):
        op(mx.nd.ones((2, 5)))
    with pytest.raises(MXNetError, match="sym must be a Symbol"):
        mx.nd.CachedOp("not a symbol")
