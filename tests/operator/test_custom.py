"""Custom operators in Python: mx.operator.CustomOp / CustomOpProp / register and mx.nd.Custom."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx

from .harness import GradCase, check_grad_case, expect_error, rand

nd = mx.nd


# ---------------------------------------------------------------------------------------------
# operators used by the tests


class _Sigmoid(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], 1.0 / (1.0 + nd.exp(-in_data[0])))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        y = out_data[0]
        self.assign(in_grad[0], req[0], out_grad[0] * y * (1.0 - y))


@mx.operator.register("test_sigmoid")
class _SigmoidProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Sigmoid()


class _Softmax(mx.operator.CustomOp):
    """Softmax over the last axis; backward uses the saved output only."""

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0]
        e = nd.exp(x - nd.max(x, axis=-1, keepdims=True))
        self.assign(out_data[0], req[0], e / nd.sum(e, axis=-1, keepdims=True))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        y, g = out_data[0], out_grad[0]
        self.assign(in_grad[0], req[0], y * (g - nd.sum(g * y, axis=-1, keepdims=True)))


@mx.operator.register("test_softmax")
class _SoftmaxProp(mx.operator.CustomOpProp):
    def declare_backward_dependency(self, out_grad, in_data, out_data):
        return out_grad + out_data

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Softmax()


class _MulAdd(mx.operator.CustomOp):
    """Two inputs, two outputs: (a * b, a + scale * b); records what it was asked to do."""

    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.log = []

    def forward(self, is_train, req, in_data, out_data, aux):
        self.log.append(("forward", is_train, list(req)))
        a, b = in_data
        self.assign(out_data[0], req[0], a * b)
        self.assign(out_data[1], req[1], a + self.scale * b)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.log.append(("backward", list(req)))
        a, b = in_data
        g0, g1 = out_grad
        self.assign(in_grad[0], req[0], g0 * b + g1)
        self.assign(in_grad[1], req[1], g0 * a + self.scale * g1)


_SEEN = {}


@mx.operator.register("test_muladd")
class _MulAddProp(mx.operator.CustomOpProp):
    def __init__(self, scale="1.0", **extra):
        super().__init__()
        _SEEN["kwargs"] = dict(scale=scale, **extra)
        self.scale = float(scale)

    def list_arguments(self):
        return ["a", "b"]

    def list_outputs(self):
        return ["prod", "sum"]

    def create_operator(self, ctx, in_shapes, in_dtypes):
        _SEEN["create"] = (ctx, in_shapes, in_dtypes)
        op = _MulAdd(self.scale)
        _SEEN["op"] = op
        return op


class _Counter(mx.operator.CustomOp):
    """Doubles its input; counts calls in an auxiliary state; gradient ignores out_grad."""

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * 2)
        aux[0][:] += 1

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        _SEEN["counter_backward"] = (out_grad[0].shape, in_data[0].shape, out_data[0].shape)
        self.assign(in_grad[0], req[0], nd.ones_like(in_data[0]) * 7)


@mx.operator.register("test_counter")
class _CounterProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_auxiliary_states(self):
        return ["count"]

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], [(1,)]

    def infer_type(self, in_type):
        return in_type, [np.float64], [in_type[0]]

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        return in_data

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Counter()


# ---------------------------------------------------------------------------------------------
# gradients

GRAD_CASES = [
    GradCase("custom_sigmoid", lambda x: nd.Custom(x, op_type="test_sigmoid"), [rand(3, 4)],
             ops=("Custom",)),
    GradCase("custom_softmax", lambda x: nd.Custom(x, op_type="test_softmax"), [rand(2, 5)],
             ops=("Custom",)),
    GradCase("custom_two_outputs",
             lambda a, b: nd.Custom(a, b, op_type="test_muladd", scale=0.5), [rand(2, 3),
                                                                              rand(2, 3, seed=1)],
             ops=("Custom",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def test_sigmoid_and_softmax_match_closed_forms():
    x = rand(3, 4)
    xa = nd.array(x)
    xa.attach_grad()
    with mx.autograd.record():
        y = nd.Custom(xa, op_type="test_sigmoid")
    y.backward()
    s = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(y.asnumpy(), s, rtol=1e-6)
    np.testing.assert_allclose(xa.grad.asnumpy(), s * (1 - s), rtol=1e-5)

    with mx.autograd.record():
        p = nd.Custom(data=xa, op_type="test_softmax")
        loss = nd.sum(p * nd.array(rand(3, 4, seed=2)))
    loss.backward()
    e = np.exp(x - x.max(-1, keepdims=True))
    pn = e / e.sum(-1, keepdims=True)
    np.testing.assert_allclose(p.asnumpy(), pn, rtol=1e-6)
    w = rand(3, 4, seed=2)
    np.testing.assert_allclose(xa.grad.asnumpy(), pn * (w - (w * pn).sum(-1, keepdims=True)),
                               rtol=1e-5, atol=1e-7)


def test_multiple_outputs_kwargs_as_strings_and_requests():
    a, b = nd.array(rand(2, 3)), nd.array(rand(2, 3, seed=1))
    prod, total = nd.Custom(a, b, op_type="test_muladd", scale=2, flag=True, shape=(1, 2),
                            name="mine")
    assert _SEEN["kwargs"] == {"scale": "2", "flag": "True", "shape": "(1, 2)"}
    np.testing.assert_allclose(prod.asnumpy(), a.asnumpy() * b.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(total.asnumpy(), a.asnumpy() + 2 * b.asnumpy(), rtol=1e-6)
    ctx, shapes, dtypes = _SEEN["create"]
    assert ctx == mx.current_context() and shapes == [[2, 3], [2, 3]] and dtypes == [0, 0]
    assert _SEEN["op"].log == [("forward", 0, ["write", "write"])]

    # under autograd: training flag set, the same instance runs backward, and an input
    # without a gradient buffer gets the 'null' request
    a.attach_grad()
    with mx.autograd.record():
        prod, total = nd.Custom(a, b, op_type="test_muladd", scale=2)
    op = _SEEN["op"]
    mx.autograd.backward([prod])
    assert op.log == [("forward", 1, ["write", "write"]), ("backward", ["write", "null"])]
    np.testing.assert_allclose(a.grad.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_aux_states_dtypes_and_backward_dependencies():
    x = nd.array([[1.0, 2.0], [3.0, 4.0]])
    count = nd.zeros((1,))
    x.attach_grad()
    with mx.autograd.record():
        y = nd.Custom(x, count, op_type="test_counter")
    assert y.dtype == np.float64
    assert count.asnumpy()[0] == 1          # the aux state was updated in place
    y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), 7 * np.ones((2, 2)))
    # out_grad and out_data were not declared as dependencies: empty placeholders arrive
    assert _SEEN["counter_backward"] == ((), (2, 2), ())
    nd.Custom(x, count=count, op_type="test_counter")
    assert count.asnumpy()[0] == 2


def test_registry_metadata():
    op = mx.operator.get_op("Custom")
    attrs = op.parse_attrs({"op_type": "test_counter"})
    assert op.input_names(attrs) == ["data"] and op.aux_names(attrs) == ["count"]
    attrs = op.parse_attrs({"op_type": "test_muladd", "scale": 3})
    assert attrs == {"op_type": "test_muladd", "scale": "3"}
    assert op.list_output_names(attrs) == ["prod", "sum"]
    ins, outs, aux = op.infer_shape(op.parse_attrs({"op_type": "test_counter"}), [(2, 3), None],
                                    [None])
    assert outs == [(2, 3)] and aux == [(1,)]
    _, types, _ = op.infer_type(attrs, [np.dtype("float32"), np.dtype("float32")], [None, None])
    assert types == [np.dtype("float32")] * 2
    names = mx.operator.get_all_registered_operators()
    assert "Custom" in names and "CTCLoss" in names
    args = mx.operator.get_operator_arguments("_contrib_quadratic")
    assert args.names == ["data", "a", "b", "c"] and args.types[0] == "NDArray-or-Symbol"


def test_assign_requests():
    op = mx.operator.CustomOp()
    dst = nd.ones((2,))
    op.assign(dst, "null", nd.array([5, 6]))
    np.testing.assert_array_equal(dst.asnumpy(), [1, 1])
    op.assign(dst, "add", nd.array([5, 6]))
    np.testing.assert_array_equal(dst.asnumpy(), [6, 7])
    op.assign(dst, "inplace", nd.array([2, 3]))
    np.testing.assert_array_equal(dst.asnumpy(), [2, 3])
    expect_error(op.assign, dst, "sometimes", nd.array([1, 1]), match="request")


def test_errors():
    x = nd.ones((2, 2))
    expect_error(nd.Custom, x, op_type="no_such_custom_op", match="Cannot find custom operator")
    expect_error(nd.Custom, x, match="op_type")
    expect_error(nd.Custom, x, op_type="test_muladd", match="'b'")
    expect_error(nd.Custom, x, x, op_type="test_sigmoid", match="input")
    with pytest.raises(mx.base.MXNetError):
        mx.operator.register("not_a_prop")(object)

    class _Bad(mx.operator.CustomOpProp):
        def infer_shape(self, in_shape):
            return in_shape, []

    mx.operator.register("test_bad_shape")(_Bad)
    expect_error(nd.Custom, x, op_type="test_bad_shape", match="infer_shape")


def test_reregistering_warns_and_overrides():
    @mx.operator.register("test_rereg")
    class _A(mx.operator.CustomOpProp):
        def create_operator(self, ctx, in_shapes, in_dtypes):
            return _Sigmoid()

    with pytest.warns(UserWarning, match="overriding"):
        @mx.operator.register("test_rereg")
        class _B(mx.operator.CustomOpProp):
            def create_operator(self, ctx, in_shapes, in_dtypes):
                return _Softmax()

    out = nd.Custom(nd.zeros((1, 2)), op_type="test_rereg").asnumpy()
    np.testing.assert_allclose(out, [[0.5, 0.5]])
