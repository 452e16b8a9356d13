"""test_utils' symbolic checks (1.9.1's signatures) on cases with closed-form answers."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import mxnet as mx
from mxnet import test_utils as tu


def _ab():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    return a, b, a * b + 2 * a


def test_signatures_are_1_9_1s():
    f = inspect.signature(tu.check_symbolic_forward)
    assert list(f.parameters) == ["sym", "location", "expected", "rtol", "atol", "aux_states",
                                  "ctx", "equal_nan", "dtype"]
    b = inspect.signature(tu.check_symbolic_backward)
    assert list(b.parameters) == ["sym", "location", "out_grads", "expected", "rtol", "atol",
                                  "aux_states", "grad_req", "ctx", "grad_stypes", "equal_nan",
                                  "dtype"]
    assert b.parameters["grad_req"].default == "write"
    n = inspect.signature(tu.check_numeric_gradient)
    assert list(n.parameters)[:10] == ["sym", "location", "aux_states", "numeric_eps", "rtol",
                                       "atol", "grad_nodes", "use_forward_train", "ctx",
                                       "grad_stype_dict"]


def test_forward_list_and_dict():
    _, _, y = _ab()
    a = np.array([[1.0, -2.0], [3.0, 0.5]])
    b = np.array([[4.0, 1.0], [-1.0, 2.0]])
    want = a * b + 2 * a
    outs = tu.check_symbolic_forward(y, [a, b], [want])
    np.testing.assert_allclose(outs[0].asnumpy(), want)
    tu.check_symbolic_forward(y, {"a": a, "b": b}, {y.list_outputs()[0]: want})
    tu.check_symbolic_forward(y, {"a": a, "b": b}, [want], dtype=np.float64)
    with pytest.raises(AssertionError):
        tu.check_symbolic_forward(y, [a, b], [want + 0.1])
    with pytest.raises(ValueError):
        tu.check_symbolic_forward(y, {"a": a}, [want])


def test_forward_with_aux_states():
    x = mx.sym.var("x")
    bn = mx.sym.BatchNorm(x, fix_gamma=False, eps=1e-5, name="bn")
    data = np.arange(12, dtype=np.float64).reshape(2, 3, 2, 1)
    gamma, beta = np.array([1.0, 2.0, 0.5]), np.array([0.0, 1.0, -1.0])
    mean, var = np.array([1.0, 2.0, 3.0]), np.array([4.0, 1.0, 0.25])
    want = (data - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5) * \
        gamma[:, None, None] + beta[:, None, None]
    tu.check_symbolic_forward(bn, [data, gamma, beta], [want], aux_states=[mean, var],
                              rtol=1e-5, atol=1e-5)
    tu.check_symbolic_forward(bn, [data, gamma, beta], [want], rtol=1e-5, atol=1e-5,
                              aux_states={"bn_moving_mean": mean, "bn_moving_var": var})


def test_backward_write_add_null():
    _, _, y = _ab()
    a = np.array([1.0, -2.0, 3.0])
    b = np.array([4.0, 1.0, -1.0])
    g = np.array([0.5, 2.0, -1.0])
    grad_a, grad_b = g * (b + 2), g * a
    grads = tu.check_symbolic_backward(y, [a, b], [g], [grad_a, grad_b])
    np.testing.assert_allclose(grads["a"].asnumpy(), grad_a, rtol=1e-6)
    tu.check_symbolic_backward(y, {"a": a, "b": b}, {y.list_outputs()[0]: g},
                               {"a": grad_a, "b": grad_b}, grad_req="add")
    tu.check_symbolic_backward(y, [a, b], [g], {"a": grad_a, "b": np.zeros(3)},
                               grad_req={"a": "write", "b": "null"})
    tu.check_symbolic_backward(y, [a, b], [g], {"b": grad_b}, grad_req=["null", "write"],
                               dtype=np.float64)
    with pytest.raises(AssertionError):
        tu.check_symbolic_backward(y, [a, b], [g], [grad_a, grad_a])


def test_backward_dense_layer():
    x, w, bias = (mx.sym.var(n) for n in ("x", "w", "bias"))
    y = mx.sym.FullyConnected(x, w, bias, num_hidden=2, name="fc")
    rng = np.random.RandomState(0)
    xv, wv, bv = rng.randn(3, 4), rng.randn(2, 4), rng.randn(2)
    g = rng.randn(3, 2)
    tu.check_symbolic_forward(y, [xv, wv, bv], [xv @ wv.T + bv], rtol=1e-5, atol=1e-5)
    tu.check_symbolic_backward(y, [xv, wv, bv], [g], [g @ wv, g.T @ xv, g.sum(0)],
                               rtol=1e-5, atol=1e-5)


def test_backward_of_a_loss_head_needs_no_out_grads():
    x, label = mx.sym.var("x"), mx.sym.var("label")
    y = mx.sym.SoftmaxOutput(x, label, name="sm")
    xv = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
    lv = np.array([1.0, 2.0])
    p = np.exp(xv - xv.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    tu.check_symbolic_forward(y, [xv, lv], [p], rtol=1e-5, atol=1e-6)
    tu.check_symbolic_backward(y, [xv, lv], None, {"x": p - np.eye(3)[lv.astype(int)]},
                               rtol=1e-5, atol=1e-6, grad_req={"x": "write", "label": "null"})


def test_numeric_gradient_of_a_symbol():
    x, w = mx.sym.var("x"), mx.sym.var("w")
    y = mx.sym.broadcast_add(mx.sym.tanh(mx.sym.FullyConnected(x, w, num_hidden=3,
                                                               no_bias=True)) * 2,
                             mx.sym.sigmoid(x).sum(axis=1, keepdims=True))
    rng = np.random.RandomState(1)
    loc = [rng.uniform(-1, 1, (2, 4)), rng.uniform(-1, 1, (3, 4))]
    np.random.seed(0)
    tu.check_numeric_gradient(y, loc, dtype=np.float64, rtol=1e-4, atol=1e-6)
    tu.check_numeric_gradient(y, loc, rtol=1e-2, atol=1e-3)   # float32, 1.9.1's defaults
    tu.check_numeric_gradient(y, {"x": loc[0], "w": loc[1]}, grad_nodes=["w"],
                              dtype=np.float64, rtol=1e-4, atol=1e-6)
    tu.check_numeric_gradient(y, loc, grad_nodes={"x": "add", "w": "null"}, dtype=np.float64,
                              rtol=1e-4, atol=1e-6)


def test_numeric_gradient_with_aux_states():
    x = mx.sym.var("x")
    y = mx.sym.BatchNorm(x, fix_gamma=False, name="bn") * mx.sym.var("s")
    rng = np.random.RandomState(2)
    loc = {"x": rng.randn(4, 2, 3), "bn_gamma": rng.uniform(0.5, 1.5, 2),
           "bn_beta": rng.randn(2), "s": rng.randn(4, 2, 3)}
    aux = {"bn_moving_mean": np.zeros(2), "bn_moving_var": np.ones(2)}
    np.random.seed(1)
    tu.check_numeric_gradient(y, loc, aux_states=aux, dtype=np.float64, numeric_eps=1e-5,
                              rtol=1e-3, atol=1e-5)


def test_numeric_gradient_catches_a_wrong_rule(monkeypatch):
    from mxnet.operator.registry import get_op
    x = mx.sym.var("x")
    y = mx.sym.tanh(x)
    loc = [np.array([[0.3, -0.8, 1.2]])]
    tu.check_numeric_gradient(y, loc, dtype=np.float64, rtol=1e-4, atol=1e-6)
    monkeypatch.setattr(get_op("tanh"), "gradient", lambda F, a, ins, outs, og: [og[0]])
    with pytest.raises(AssertionError):
        tu.check_numeric_gradient(y, loc, dtype=np.float64, rtol=1e-4, atol=1e-6)


def test_executor_numeric_grad():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    y = a * a * b
    av, bv = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    ex = y.bind(mx.current_context(), {"a": mx.nd.array(av), "b": mx.nd.array(bv)})
    g = tu.numeric_grad(ex, {"a": av, "b": bv}, eps=1e-3, dtype=np.float64)
    np.testing.assert_allclose(g["a"], 2 * av * bv, rtol=1e-3)
    np.testing.assert_allclose(g["b"], av * av, rtol=1e-3)
    # the function form still works
    (gf,) = tu.numeric_grad(lambda v: float((v ** 3).sum()), [np.array([1.0, 2.0])], eps=1e-4)
    np.testing.assert_allclose(gf, [3.0, 12.0], rtol=1e-6)


def test_function_form_keeps_its_defaults():
    tu.check_numeric_gradient(lambda x: mx.nd.sin(x) * x, [np.array([0.1, 1.0, -2.0])])
