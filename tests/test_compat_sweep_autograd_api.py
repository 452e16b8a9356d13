"""Compatibility sweep of mx.autograd as user scripts drive it.

Expected values and error classes were recorded from MXNet 1.9.1 running the same snippets
(or are closed forms, where noted).
"""
import json

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd as ag
from mxnet import nd


def _attached(values, dtype="float32"):
    x = nd.array(values, dtype=dtype)
    x.attach_grad()
    return x


# -- variables reached only through gradient-free paths get zeros ---------------------------------

def test_backward_through_one_hot_writes_zeros_into_a_stale_buffer():
    # recorded from 1.9.1: the 'write' buffer becomes zeros; an 'add' buffer is untouched
    x = _attached([0.5, 1.0, 2.0])
    x.grad[:] = 5
    with ag.record():
        y = nd.one_hot(x, 3) * 2
    y.backward()
    assert x.grad.asnumpy().tolist() == [0.0, 0.0, 0.0]
    w = _attached([1., 2., 3.])
    with ag.record():
        y = nd.one_hot(x, 3).sum(axis=0) * w
    y.backward()
    assert x.grad.asnumpy().tolist() == [0.0, 0.0, 0.0]
    assert w.grad.asnumpy().tolist() == [1.0, 1.0, 1.0]   # one hit per column
    x.attach_grad(grad_req="add")
    x.grad[:] = 5
    with ag.record():
        y = nd.one_hot(x, 3).sum() * 2 + w.sum()
    y.backward()
    assert x.grad.asnumpy().tolist() == [5.0, 5.0, 5.0]


def test_grad_through_one_hot_is_zeros():
    # recorded from 1.9.1: grad() returns zeros, it does not fail
    x = _attached([0.5, 1.0, 2.0])
    w = _attached([1., 2., 3.])
    with ag.record():
        y = nd.one_hot(x, 3).sum() + w.sum()
    gx, gw = ag.grad(y, [x, w])
    assert gx.asnumpy().tolist() == [0.0, 0.0, 0.0]
    assert gw.asnumpy().tolist() == [1.0, 1.0, 1.0]


def test_third_derivative_of_square_is_zero():
    # closed form d3/dx3 x**2 = 0; 1.9.1 writes the zeros into x.grad as well
    x = _attached([0.5, 1.0, 2.0])
    x.grad[:] = 7
    with ag.record():
        y = nd.square(x)
        g1 = ag.grad(y, [x], create_graph=True, retain_graph=True)[0]
        g2 = ag.grad(g1, [x], create_graph=True, retain_graph=True)[0]
        g3 = ag.grad(g2, [x], retain_graph=True)[0]
        g2.backward()
    assert g2.asnumpy().tolist() == [2.0, 2.0, 2.0]
    assert g3.asnumpy().tolist() == [0.0, 0.0, 0.0]
    assert x.grad.asnumpy().tolist() == [0.0, 0.0, 0.0]


def test_failed_grad_call_keeps_the_graph():
    # 1.9.1 checks the variables before running backward: a later call on the graph works
    x = _attached([1., 2., 3.])
    unmarked = nd.array([1., 1., 1.])
    with ag.record():
        y = (x * 2).sum()
    with pytest.raises(mx.MXNetError, match="variable 0"):
        ag.grad(y, [unmarked])
    w = _attached([1., 1., 1.])
    with pytest.raises(mx.MXNetError, match="variable 1 is not used"):
        ag.grad(y, [x, w])
    g = ag.grad([y], x, head_grads=nd.ones(1))
    assert g[0].asnumpy().tolist() == [2.0, 2.0, 2.0]   # recorded from 1.9.1


# -- head gradients, mark_variables ----------------------------------------------------------------

def test_mark_variables_with_a_non_ndarray_buffer_raises():
    # 1.9.1 fails (AttributeError on the int's handle); ours names the argument
    x = nd.array([1., 2.])
    with pytest.raises(mx.MXNetError, match="mark_variables: variable 0"):
        ag.mark_variables([x], [1])


def test_mark_variables_write_and_add_buffers():
    # recorded from 1.9.1
    x, w = nd.array([1., 2.]), nd.array([3., 4.])
    gx, gw = nd.zeros(2), nd.ones(2) * 10
    ag.mark_variables([x, w], [gx, gw], grad_reqs=["write", "add"])
    for _ in range(2):
        with ag.record():
            y = (x * w).sum()
        y.backward()
    assert gx.asnumpy().tolist() == [3.0, 4.0]
    assert gw.asnumpy().tolist() == [12.0, 14.0]


# -- autograd.Function ---------------------------------------------------------------------------

class _Double(ag.Function):
    def __init__(self, ret=None):
        super().__init__()
        self._ret = ret

    def forward(self, a, b):
        return a * b

    def backward(self, d):
        return self._ret(d)


def _run_function(ret):
    a, b = _attached([1., 2.]), _attached([3., 4.])
    with ag.record():
        o = _Double(ret)(a, b)
    o.backward()
    return a, b


def test_function_backward_must_return_ndarrays():
    # 1.9.1: MXNetError (its Python assert fails inside the C callback)
    with pytest.raises(mx.MXNetError, match="_Double.backward must return NDArrays, got NoneType"):
        _run_function(lambda d: (d, None))
    with pytest.raises(mx.MXNetError, match="got float"):
        _run_function(lambda d: 1.0)
    with pytest.raises(mx.MXNetError, match="1 gradients for 2 inputs"):
        _run_function(lambda d: d)
    a, b = _run_function(lambda d: (d * 2, d * 3))
    assert a.grad.asnumpy().tolist() == [2.0, 2.0]
    assert b.grad.asnumpy().tolist() == [3.0, 3.0]


def test_function_instance_called_twice_is_an_assertion_error():
    # 1.9.1: AssertionError
    f = _Double(lambda d: (d, d))
    x = nd.ones(2)
    f(x, x)
    with pytest.raises(AssertionError):
        f(x, x)


# -- in-place writes while recording -------------------------------------------------------------

def test_partial_write_of_a_recorded_value_into_a_constant_raises():
    # 1.9.1: MXNetError "Inplace operations (+=, -=, x[:]=, etc) are not supported ..."
    x = _attached([1., 2., 3.])
    y = nd.zeros(3)
    with ag.record():
        with pytest.raises(mx.MXNetError, match="Inplace operations"):
            y[1:] = (x * 2)[:2]
        with pytest.raises(mx.MXNetError, match="Inplace operations"):
            y[1] = x[0]
        with pytest.raises(mx.MXNetError, match="Inplace operations"):
            y += x
        y[:] = 5          # no recorded value: allowed
        y += nd.ones(3)
    assert y.asnumpy().tolist() == [6.0, 6.0, 6.0]


def test_whole_copy_of_a_recorded_value_is_recorded():
    # recorded from 1.9.1: y[:] = x and x.copyto(y) carry the gradient
    x = _attached([1., 2., 3.])
    y = nd.zeros(3)
    with ag.record():
        y[:] = x
    y.backward()
    assert x.grad.asnumpy().tolist() == [1.0, 1.0, 1.0]
    x.grad[:] = 0
    z = nd.zeros(3)
    with ag.record():
        x.copyto(z)
        out = (z * x).sum()
    out.backward()
    assert x.grad.asnumpy().tolist() == [2.0, 4.0, 6.0]   # closed form: d/dx x*x


# -- get_symbol ----------------------------------------------------------------------------------

def test_get_symbol_lists_the_scalar_of_scalar_operators():
    # recorded from 1.9.1 (names counted from 0 in a fresh process)
    x = _attached([[1., 2.], [3., 4.]])
    with ag.record():
        c = 1 - (x + 1) * 3
    nodes = [(n["op"], n.get("attrs", {}))
             for n in json.loads(ag.get_symbol(c).tojson())["nodes"]]
    assert nodes == [("null", {}), ("_plus_scalar", {"scalar": "1.0"}),
                     ("_mul_scalar", {"scalar": "3.0"}), ("_rminus_scalar", {"scalar": "1.0"})]
    with pytest.raises(mx.MXNetError, match="not part of a computational graph"):
        ag.get_symbol(nd.ones(2))


def test_third_order_of_sin_times_exp():
    # closed forms (1.9.1 gives the same): derivatives of sin(z) * exp(z)
    z = _attached([0.3, 0.7])
    with ag.record():
        y = nd.sin(z) * nd.exp(z)
        g1 = ag.grad(y, [z], create_graph=True, retain_graph=True)[0]
        g2 = ag.grad(g1, [z], create_graph=True, retain_graph=True)[0]
        g3 = ag.grad(g2, [z], create_graph=True, retain_graph=True)[0]
    ez, s, c = np.exp([0.3, 0.7]), np.sin([0.3, 0.7]), np.cos([0.3, 0.7])
    np.testing.assert_allclose(g1.asnumpy(), ez * (s + c), rtol=1e-5)
    np.testing.assert_allclose(g2.asnumpy(), 2 * ez * c, rtol=1e-5)
    np.testing.assert_allclose(g3.asnumpy(), 2 * ez * (c - s), rtol=1e-5)


def test_np_writes_of_recorded_values_while_recording():
    # recorded from 1.9.1 (npx.set_np): arr[:] = v and arr[...] = v carry the gradient, a
    # partial write or += of a recorded value into an array outside the graph is refused
    from mxnet import np as mnp
    a = mnp.array([1., 2., 3.])
    a.attach_grad()
    for key in (slice(None), Ellipsis):
        d = mnp.zeros(3)
        with ag.record():
            d[key] = a * 2
        d.backward()
        assert a.grad.tolist() == [2.0, 2.0, 2.0]
    d = mnp.zeros(3)
    with ag.record():
        with pytest.raises(mx.MXNetError, match="Inplace operations"):
            d[1:] = a[:2]
        with pytest.raises(mx.MXNetError, match="Inplace operations"):
            d += a
    assert d.tolist() == [0.0, 0.0, 0.0]


def test_backward_of_no_heads_raises():
    # 1.9.1: MXNetError ("no inputs in computation graph that require gradients")
    with pytest.raises(mx.MXNetError, match="no heads"):
        ag.backward([])


def test_get_symbol_names_constant_inputs_null():
    # recorded from 1.9.1 in a fresh process: a constant input is 'null<k>', sharing the
    # counter with the variables
    x = _attached([[1., 2.], [3., 4.]])
    c = nd.ones((2, 2))
    with ag.record():
        y = x * c + x
    sym = ag.get_symbol(y)
    assert sym.list_arguments() == ["var0", "null1"]
    assert sym.list_outputs() == ["node_1_output"]
    out = sym.eval(var0=nd.array([[1., 2.], [3., 4.]]), null1=nd.ones((2, 2)) * 3)[0]
    assert out.asnumpy().tolist() == [[4.0, 8.0], [12.0, 16.0]]


def test_function_returning_its_recorded_input_raises():
    # 1.9.1: MXNetError ("Assigning to NDArrays that are already in a computational graph")
    class Ident(ag.Function):
        def forward(self, x):
            return x

        def backward(self, dy):
            return dy

    x = _attached([0., 1.])
    with ag.record():
        with pytest.raises(mx.MXNetError, match="already part of the recorded graph"):
            Ident()(x)
    with ag.record():
        y = (x * 2).sum()
    y.backward()   # x is still the variable
    assert x.grad.asnumpy().tolist() == [2.0, 2.0]
