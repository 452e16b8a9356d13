"""Output and loss layers (SoftmaxOutput, regression outputs, SVMOutput, MakeLoss, make_loss,
smooth_l1, softmax_cross_entropy): 1.9.1 golden forward and backward, numeric gradients where
the backward is the true derivative, shape inference and errors."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .harness import GradCase, check_grad_case, expect_error, rand
from .test_nn_activation import TABLE, golden, replay  # noqa: F401  (golden is a fixture)

nd = mx.nd

# Their backward is a loss gradient that ignores the head gradient (or, for make_loss, is 1),
# not the derivative of the forward: checked against 1.9.1's values in test_golden instead.
NON_DIFFERENTIABLE = ("SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
                      "MAERegressionOutput", "SVMOutput", "MakeLoss", "make_loss")


def _off_kinks(x, at):
    return np.where(np.abs(np.abs(x) - at) < 0.05, x + 0.1, x)


GRAD_CASES = [
    GradCase("smooth_l1", lambda x: nd.smooth_l1(x), [_off_kinks(rand(3, 4, low=-2, high=2), 1)],
             ops=("smooth_l1",)),
    GradCase("smooth_l1_sigma", lambda x: nd.smooth_l1(x, scalar=2.0),
             [_off_kinks(rand(3, 4, seed=1), 0.25)], ops=("smooth_l1",)),
    GradCase("softmax_cross_entropy", lambda x, y: nd.softmax_cross_entropy(x, y),
             [rand(3, 4, seed=2), np.array([0.0, 3.0, 1.0])], wrt=[0],
             ops=("softmax_cross_entropy",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


CASES = [c for c in TABLE.CASES if c.family == "output"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_golden(case, golden):  # noqa: F811
    replay(case, golden)


def test_golden_covers_every_output_op():
    ops = {c.op for c in CASES}
    for name in NON_DIFFERENTIABLE:
        assert name in ops, name


# ---------------------------------------------------------------------------------------------
# details


def _grad(fn, *arrays, head=None):
    xs = [nd.array(a, dtype="float64") for a in arrays]
    xs[0].attach_grad()
    with mx.autograd.record():
        y = fn(*xs)
    y.backward(None if head is None else nd.array(head, dtype="float64"))
    return y.asnumpy(), xs[0].grad.asnumpy()


def test_softmax_output_ignores_head_gradient():
    x = rand(3, 4, seed=3)
    label = np.array([0.0, 2.0, 3.0])
    y, g1 = _grad(lambda a, b: nd.SoftmaxOutput(a, b), x, label, head=np.full((3, 4), 7.0))
    _, g2 = _grad(lambda a, b: nd.SoftmaxOutput(a, b), x, label)
    np.testing.assert_allclose(g1, g2)
    np.testing.assert_allclose(g1, y - np.eye(4)[[0, 2, 3]], rtol=1e-12)
    _, g3 = _grad(lambda a, b: nd.Softmax(a, b, grad_scale=2.0, normalization="batch"), x, label)
    np.testing.assert_allclose(g3, g1 * 2 / 3, rtol=1e-7)  # the scale is float32 in 1.9.1


def test_label_gets_no_gradient():
    x = nd.array(rand(2, 3))
    lab = nd.array([1.0, 2.0])
    lab.attach_grad()
    x.attach_grad()
    with mx.autograd.record():
        y = nd.SoftmaxOutput(x, lab)
    y.backward()
    assert np.all(lab.grad.asnumpy() == 0)


def test_make_loss_backward_is_constant():
    x = rand(2, 3, seed=4)
    _, g = _grad(lambda a: nd.make_loss(a), x, head=np.full((2, 3), 5.0))
    np.testing.assert_array_equal(g, np.ones((2, 3)))
    _, g = _grad(lambda a: nd.MakeLoss(a, grad_scale=3.0, normalization="batch"), rand(4, seed=4))
    np.testing.assert_array_equal(g, np.full(4, 3.0))  # a 1-d input is one row in 1.9.1


def test_signatures_and_defaults():
    assert list(inspect.signature(nd.SoftmaxOutput).parameters)[:10] == [
        "data", "label", "grad_scale", "ignore_label", "multi_output", "use_ignore",
        "preserve_shape", "normalization", "out_grad", "smooth_alpha"]
    assert get_op("Softmax") is get_op("SoftmaxOutput")
    assert list(inspect.signature(nd.SVMOutput).parameters)[:5] == [
        "data", "label", "margin", "regularization_coefficient", "use_linear"]
    assert list(get_op("MakeLoss").params) == ["grad_scale", "valid_thresh", "normalization"]
    assert list(get_op("smooth_l1").params) == ["scalar", "is_int"]
    assert get_op("make_loss").list_output_names({}) == ["loss"]
    for name in ("LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput"):
        assert list(inspect.signature(getattr(nd, name)).parameters)[:3] == [
            "data", "label", "grad_scale"]
    np.testing.assert_allclose(nd.smooth_l1(nd.array([0.5, 3.0])).asnumpy(), [0.125, 2.5])


def test_infer_shape():
    def inf(name, shapes, **kw):
        op = get_op(name)
        attrs = op.parse_attrs(kw)
        return op.infer_shape(attrs, shapes, [None] * op.num_outputs(attrs))[0]

    assert inf("SoftmaxOutput", [(4, 3), None]) == [(4, 3), (4,)]
    assert inf("SoftmaxOutput", [(4, 3, 5), None]) == [(4, 3, 5), (4, 3)]
    assert inf("SoftmaxOutput", [(4, 3, 5, 6), None], multi_output=True) == [(4, 3, 5, 6),
                                                                             (4, 30)]
    assert inf("SoftmaxOutput", [(4, 3, 5), (4, 1, 5)], multi_output=True)[1] == (4, 1, 5)
    assert inf("LinearRegressionOutput", [(4, 1), None]) == [(4, 1), (4,)]
    assert inf("LogisticRegressionOutput", [(4, 3), None]) == [(4, 3), (4, 3)]
    assert inf("MAERegressionOutput", [(4, 3, 2), (4, 6)]) == [(4, 3, 2), (4, 6)]
    assert inf("SVMOutput", [(4, 3, 5), None]) == [(4, 3, 5), (4, 3)]
    assert inf("softmax_cross_entropy", [(4, 3), None]) == [(4, 3), (4,)]
    op = get_op("softmax_cross_entropy")
    assert op.infer_shape({}, [(4, 3), (4,)], [None])[1] == [(1,)]


def test_errors():
    x = nd.ones((4, 3))
    expect_error(nd.SoftmaxOutput, x, nd.ones((5,)), match="label")
    expect_error(nd.SoftmaxOutput, nd.ones((4, 3, 5)), nd.ones((4, 5)), match="(4, 3)")
    expect_error(nd.SoftmaxOutput, nd.ones((4, 3, 5)), nd.ones((4, 3)), multi_output=True,
                 match="(4, 5)")
    expect_error(nd.SoftmaxOutput, nd.ones((4, 3), dtype="int32"), nd.ones((4,), dtype="int32"),
                 match="int32")
    expect_error(nd.SoftmaxOutput, x, nd.ones((4,)), normalization="mean", match="normalization")
    expect_error(nd.LinearRegressionOutput, x, nd.ones((4,)), match="label")
    expect_error(nd.LogisticRegressionOutput, x, nd.ones((3, 4)), match="(4, 3)")
    expect_error(nd.MAERegressionOutput, nd.ones((4, 3), dtype="int32"),
                 nd.ones((4, 3), dtype="int32"), match="floating point")
    expect_error(nd.SVMOutput, x, nd.ones((4, 3)), match="(4,)")
    expect_error(nd.MakeLoss, x, normalization="sum", match="normalization")
    expect_error(nd.softmax_cross_entropy, nd.ones((4, 3, 2)), nd.ones((4,)), match="2-d")
    expect_error(nd.softmax_cross_entropy, x, nd.ones((4, 1)), match="1-d")
