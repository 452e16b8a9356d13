"""Regressions found by running small versions of MXNet 1.x example programs (autoencoder, VAE,
capsules, SGLD, CTC OCR, DEC, SVM, multi-task, RBM, actor-critic, custom operators, profiler)
against MXNet 1.9.1."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd


def _grad_of(op, x, *args, **kwargs):
    x = nd.array(x)
    x.attach_grad()
    with autograd.record():
        y = op(x, *args, **kwargs)
    y.backward()
    return x.grad.asnumpy()


def test_mae_regression_output_gradient_at_a_tie_is_minus_one():
    # recorded from 1.9.1: a tie (out == label) gets -grad_scale/n, not 0
    g = _grad_of(nd.MAERegressionOutput, [[0.5, -1, 2]], nd.array([[1, 0, 2]]), grad_scale=0.5)
    np.testing.assert_allclose(g, [[-0.16667, -0.16667, -0.16667]], rtol=1e-4)
    g = _grad_of(nd.MAERegressionOutput, [[3.0, 1.0]], nd.array([[1.0, 1.0]]))
    np.testing.assert_allclose(g, [[0.5, -0.5]])


@pytest.mark.parametrize("reg, zero_sign", [(1.0, -1.0), (2.0, -1.0), (-1.0, 1.0)])
def test_svm_output_l2_gradient_zeros_carry_1_9_1_sign(reg, zero_sign):
    # recorded from 1.9.1: the L2-SVM gradient's zeros are -0.0 for a positive coefficient
    x = [[1.0, 1.5, -1.0, -2.0, 3.0], [0.2, -0.5, 0.0, 2.0, -3.0]]
    g = _grad_of(nd.SVMOutput, x, nd.array([0, 1]), regularization_coefficient=reg)
    expected = np.array([[0.0, 5.0, 0.0, 0.0, 8.0], [2.4, -3.0, 2.0, 6.0, 0.0]]) * reg
    np.testing.assert_allclose(g, expected, rtol=1e-6)
    zeros = g[g == 0]
    assert zeros.size == 4 and np.all(np.copysign(1.0, zeros) == zero_sign)


def test_parameter_grad_with_grad_req_null_is_a_plain_runtime_error():
    # 1.9.1: RuntimeError (not MXNetError) "Cannot get gradient array for Parameter 'w' ..."
    p = gluon.Parameter("w", shape=(2,), grad_req="null")
    p.initialize()
    for f in (p.grad, p.list_grad):
        with pytest.raises(RuntimeError, match="grad_req='null'") as info:
            f()
        assert type(info.value) is RuntimeError


def test_autograd_function_outside_recording_returns_forward_output_unchecked():
    class Three(autograd.Function):
        def forward(self, x):
            return 3

    class Twice(autograd.Function):
        def forward(self, x):
            return x * 2

        def backward(self, dy):
            return dy * 2

    # recorded from 1.9.1: prints 3 (no check on what forward returned when not recording)
    assert Three()(nd.ones((1,))) == 3
    x = nd.array([1.0, 2.0])
    x.attach_grad()
    with autograd.record():
        y = Twice()(x)
    y.backward()
    assert x.grad.asnumpy().tolist() == [2.0, 2.0]


def test_nd_indexing_with_numpy_float_or_bool_scalars_and_python_bools():
    m = nd.arange(9).reshape((3, 3))
    # recorded from 1.9.1: numpy float and numpy bool scalars are ValueErrors, like Python floats
    for key in (np.float32(1), np.float16(1), (1, np.float32(1)), np.bool_(True)):
        with pytest.raises(ValueError):
            m[key]
    with pytest.raises(ValueError):
        m[np.float32(1)] = 5
    # recorded from 1.9.1: reading with a Python bool takes it as the integer 0 or 1
    assert m[True].asnumpy().tolist() == [3.0, 4.0, 5.0]
    assert m[False].asnumpy().tolist() == [0.0, 1.0, 2.0]
    assert m[True, 2].asnumpy().tolist() == [5.0]
    assert nd.arange(4)[True].asnumpy().tolist() == [1.0]
    # ... while writing keeps NumPy's meaning (True selects everything)
    m2 = m.copy()
    m2[True] = 7
    assert m2.asnumpy().tolist() == [[7.0] * 3] * 3
    m2 = m.copy()
    m2[True, 2] = -1
    assert m2.asnumpy().tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [-1.0, -1.0, -1.0]]


def test_views_of_arrays_outside_the_graph_stay_views_while_recording():
    # a CRF forward pass (MXNet's gluon/lstm_crf example) writes its start state inside record()
    with autograd.record():
        alphas = nd.full((1, 3), -10000.0)
        alphas[0][0] = 0.0
        c = nd.zeros((4, 3))
        c[1:3][0] = 2
        d = nd.zeros((2, 3))
        d[0, 1:2][0] = 3
    # recorded from 1.9.1
    assert alphas.asnumpy().tolist() == [[0.0, -10000.0, -10000.0]]
    assert c.asnumpy().tolist() == [[0, 0, 0], [2, 2, 2], [0, 0, 0], [0, 0, 0]]
    assert d.asnumpy().tolist() == [[0, 3, 0], [0, 0, 0]]
    # slices of a variable are still recorded: x[1]*2 + x[0:1]*3 + x[1, 1]*5 (1.9.1's gradient)
    x = nd.array([[1.0, 2.0], [3.0, 4.0]])
    x.attach_grad()
    with autograd.record():
        loss = (x[1] * 2).sum() + (x[0:1] * 3).sum() + (x[1, 1] * 5).sum()
    loss.backward()
    assert x.grad.asnumpy().tolist() == [[3.0, 3.0], [2.0, 7.0]]
    # and writing through a view of a variable is refused, as in 1.9.1
    with pytest.raises(mx.base.MXNetError):
        with autograd.record():
            v = x[1]
            v[0] = 10


def test_profiler_dumps_flags_and_profile_process_errors_as_in_1_9_1():
    # recorded from 1.9.1: ascending/reset pass when ``in (False, True)`` (0, 1, 1.0 too),
    # else AssertionError; an unknown profile_process is a KeyError
    for kw in (dict(ascending=1), dict(ascending=1.0), dict(reset=1), dict(reset=0)):
        assert isinstance(mx.profiler.dumps(**kw), str)
    for kw in (dict(ascending="yes"), dict(ascending=2), dict(ascending=None), dict(reset="x")):
        with pytest.raises(AssertionError, match="Invalid value provided for"):
            mx.profiler.dumps(**kw)
    for call in (lambda: mx.profiler.set_state("stop", profile_process="xx"),
                 lambda: mx.profiler.pause(profile_process=None),
                 lambda: mx.profiler.resume(profile_process="xx"),
                 lambda: mx.profiler.dump(profile_process="xx")):
        with pytest.raises(KeyError):
            call()


class _CenterOp(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0])


@mx.operator.register("sweep_examples2_center")
class _CenterProp(mx.operator.CustomOpProp):
    def list_auxiliary_states(self):
        return ["moving_mean", "moving_var"]

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], [(in_shape[0][1],), (1,)]

    def create_operator(self, ctx, shapes, dtypes):
        return _CenterOp()


def test_custom_op_auxiliary_states_carry_no_initializer_mark():
    c = mx.sym.Custom(mx.sym.Variable("x"), op_type="sweep_examples2_center", name="ctr")
    # recorded from 1.9.1: only op_type, no __init__ (BatchNorm's moving_mean does get one)
    assert c.attr_dict() == {"ctr_moving_mean": {"op_type": "sweep_examples2_center"},
                             "ctr_moving_var": {"op_type": "sweep_examples2_center"},
                             "ctr": {"op_type": "sweep_examples2_center"}}
    bn = mx.sym.BatchNorm(mx.sym.Variable("x"), name="bn")
    assert bn.attr_dict()["bn_moving_mean"] == {"__init__": '["zero", {}]'}
    # so a Module's default initializer refuses them, as 1.9.1's does
    mod = mx.mod.Module(c, data_names=["x"], label_names=None)
    mod.bind([("x", (2, 3))])
    with pytest.raises(ValueError, match="ctr_moving_mean"):
        mod.init_params(mx.init.Constant(0.1))


def test_float32_l2_norm_takes_1_9_1_scaled_steps():
    # recorded from 1.9.1 (a plain sqrt(sum(x**2)) gives 9.539392)
    assert nd.norm(nd.arange(1, 7)).asnumpy()[0] == np.float32(9.5393915)
    # up to 64 elements (one output) or 8 (several) take the scaled steps; recorded from 1.9.1
    v = np.random.RandomState(2).randn(60).astype(np.float32)
    assert nd.norm(nd.array(v)).asnumpy()[0] == np.float32(7.899526)
    # Monitor's default statistic is norm(x) / sqrt(size): 1.9.1 prints 3.8944402
    assert (nd.norm(nd.array([[1, 2, 3], [4, 5, 6]])) / np.sqrt(6)).asnumpy()[0] == \
        np.float32(3.8944402)
    rows = nd.array(np.random.RandomState(1).randn(3, 8).astype(np.float32))
    got = nd.norm(rows, axis=1).asnumpy()
    assert got.tolist() == [3.7566988468170166, 3.0483694076538086, 2.1746134757995605]
    # special values and the gradient are unchanged
    y = nd.norm(nd.array([[np.inf, 1.0], [np.nan, 2.0], [0.0, 0.0]]), axis=1).asnumpy()
    assert np.isinf(y[0]) and np.isnan(y[1]) and y[2] == 0
    assert nd.norm(nd.array([1e300, 1e300], dtype="float64")).asnumpy()[0] == 1.4142135623730952e300
