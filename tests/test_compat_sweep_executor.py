"""Compatibility sweep: executor and hybridized-block monitoring, backward head gradients,
executor API edge cases.

Names, operator names, error kinds and values were recorded from MXNet 1.9.1 (the reference
venv, NaiveEngine) unless a test says it checks a closed form.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.base import MXNetError

S = mx.sym


def _bind(sym, **shapes):
    ex = sym.simple_bind(mx.cpu(), **shapes)
    for a in ex.arg_arrays:
        a[:] = 1.0
    return ex


def _grads(ex):
    return {k: (None if v is None else v.asnumpy().ravel().tolist())
            for k, v in ex.grad_dict.items()}


# ---------------------------------------------------------------------------------------------
# Executor.backward() without head gradients

@pytest.mark.parametrize("make", [
    lambda x: x * 2,                                   # a plain operator
    lambda x: S.sum(x * 2),                            # a reduction is no loss either
    lambda x: x,                                       # a variable as the output
    lambda x: S.softmax(x),
    lambda x: S.FullyConnected(x, num_hidden=2, name="fc"),
    lambda x: S.Group([S.MakeLoss(x * 2), x * 3]),     # one output of two needs its head
    lambda x: S.ones_like(x) + x * 0,
])
def test_backward_without_head_gradient_of_a_non_loss_raises(make):
    # 1.9.1: MXNetError "... head_gradient is required when calling backward ..."
    ex = _bind(make(S.var("x")), x=(2, 2))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match="head gradient"):
        ex.backward()


def test_backward_without_head_gradient_after_inference_forward_raises():
    ex = _bind(S.var("x") * 2, x=(2, 2))
    ex.forward(is_train=False)
    with pytest.raises(MXNetError, match="not a loss"):
        ex.backward()


@pytest.mark.parametrize("make,shapes,want", [
    # values recorded from 1.9.1
    (lambda x, y: S.MakeLoss(x * 2), {"x": (2, 2)}, {"x": [2.0] * 4}),
    (lambda x, y: S.make_loss(x * 2), {"x": (2, 2)}, {"x": [2.0] * 4}),
    (lambda x, y: S.MakeLoss(x * 2) * 3, {"x": (2, 2)}, {"x": [2.0] * 4}),
    (lambda x, y: S.Group([S.MakeLoss(x * 2), S.MakeLoss(x * 3)]), {"x": (2, 2)},
     {"x": [5.0] * 4}),
    (lambda x, y: S.Group([S.MakeLoss(x * 2), S.BlockGrad(x * 3)]), {"x": (2, 2)},
     {"x": [2.0] * 4}),
    (lambda x, y: S.stop_gradient(x * 2), {"x": (2, 2)}, {"x": [0.0] * 4}),
    (lambda x, y: S.argmax(x, axis=1), {"x": (2, 2)}, {"x": [0.0] * 4}),
    (lambda x, y: S.LinearRegressionOutput(x, y), {"x": (2, 3), "y": (2, 3)},
     {"x": [0.0] * 6, "y": [0.0] * 6}),
    (lambda x, y: S.SVMOutput(x, y), {"x": (2, 3), "y": (2,)},
     {"x": [4.0, 0.0, 4.0, 4.0, 0.0, 4.0], "y": [0.0, 0.0]}),
    (lambda x, y: S.Group([S.MakeLoss(x * 2), y * 3]), {"x": (2, 2), "y": (2, 2)},
     {"x": [2.0] * 4, "y": None}),   # y's gradient is not asked for: its head is not read
])
def test_backward_without_head_gradient_of_losses(make, shapes, want):
    sym = make(S.var("x"), S.var("y"))
    req = {"x": "write", "y": "null"} if set(want) == {"x", "y"} and want["y"] is None \
        else "write"
    ex = sym.simple_bind(mx.cpu(), grad_req=req, **shapes)
    for a in ex.arg_arrays:
        a[:] = 1.0
    ex.forward(is_train=True)
    ex.backward()
    got = _grads(ex)
    for k, v in want.items():
        if v is None:
            assert got[k] is None
        else:
            np.testing.assert_allclose(got[k], v, rtol=1e-6, err_msg=k)


def test_backward_softmax_output_without_head_gradient():
    ex = _bind(S.SoftmaxOutput(S.var("x"), S.var("y")), x=(2, 3), y=(2,))
    ex.forward(is_train=True)
    ex.backward()
    third = 1.0 / 3
    np.testing.assert_allclose(ex.grad_dict["x"].asnumpy(),
                               [[third, third - 1, third]] * 2, rtol=1e-6)
    np.testing.assert_array_equal(ex.grad_dict["y"].asnumpy(), [0.0, 0.0])


def test_backward_head_gradient_list_shorter_or_longer_than_the_outputs():
    x = S.var("x")
    g = mx.nd.ones((2, 2)) * 5
    # the output needing a head gradient comes first: one head gradient is enough
    ex = _bind(S.Group([x * 3, S.MakeLoss(x * 2)]), x=(2, 2))
    ex.forward(is_train=True)
    ex.backward([g])
    np.testing.assert_array_equal(ex.grad_dict["x"].asnumpy(), np.full((2, 2), 17.0))
    # ... second: it is missing
    ex = _bind(S.Group([S.MakeLoss(x * 2), x * 3]), x=(2, 2))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match="output 1"):
        ex.backward([g])
    # extra head gradients are ignored
    ex = _bind(x * 3, x=(2, 2))
    ex.forward(is_train=True)
    ex.backward([g, g])
    np.testing.assert_array_equal(ex.grad_dict["x"].asnumpy(), np.full((2, 2), 15.0))


def test_backward_head_gradient_of_the_wrong_shape_or_kind():
    ex = _bind(S.var("x") * 3, x=(2, 2))
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match=r"out_grads\[0\] has shape \(3, 3\)"):
        ex.backward([mx.nd.ones((3, 3))])
    with pytest.raises(TypeError, match="inputs must be NDArray"):
        ex.backward([np.ones((2, 2))])


def test_backward_without_requested_gradients_needs_no_head_gradient():
    ex = S.var("x") * 2
    ex = ex.simple_bind(mx.cpu(), x=(2, 2), grad_req="null")
    ex.forward(is_train=True)
    ex.backward()   # nothing to compute: no error, as in 1.9.1
    assert ex.grad_dict == {"x": None}


# ---------------------------------------------------------------------------------------------
# HybridBlock.register_op_hook

def _hook_net():
    net = gluon.nn.HybridSequential(prefix="hk_")
    with net.name_scope():
        net.add(gluon.nn.Dense(3, activation="relu", in_units=2),
                gluon.nn.Dense(2, in_units=3))
    net.initialize(mx.init.Constant(0.5))
    return net


def _collect(seen):
    def cb(name, op_name, arr):
        seen.append((name, op_name, arr.asnumpy().copy()))
    return cb


def test_op_hook_not_hybridized_calls_nothing():
    net = _hook_net()
    seen = []
    net.register_op_hook(_collect(seen), monitor_all=True)
    net(mx.nd.ones((1, 2)))
    assert seen == []


def test_op_hook_forward_and_backward_names_and_values():
    net = _hook_net()
    net.hybridize()
    seen = []
    net.register_op_hook(_collect(seen))
    x = mx.nd.array([[1.0, 2.0], [3.0, -4.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # 1.9.1 warns on every hybridized call too
        net(x)
        fwd = [(n, o) for n, o, _ in seen]
        assert fwd == [(b"hk_dense0_fwd_output", b"FullyConnected"),
                       (b"hk_dense0_relu_fwd_output", b"Activation"),
                       (b"hk_dense1_fwd_output", b"FullyConnected")]
        seen.clear()
        with autograd.record():
            y = net(x)
        y.backward()
    # x wants no gradient: 1.9.1 does not show hk_dense0_fwd_backward_0
    assert [(n, o) for n, o, _ in seen[3:]] == [
        (b"hk_dense1_fwd_backward_0", b"_backward_FullyConnected"),
        (b"hk_dense1_fwd_backward_1", b"_backward_FullyConnected"),
        (b"hk_dense1_fwd_backward_2", b"_backward_FullyConnected"),
        (b"hk_dense0_relu_fwd_backward_0", b"_backward_Activation"),
        (b"hk_dense0_fwd_backward_1", b"_backward_FullyConnected"),
        (b"hk_dense0_fwd_backward_2", b"_backward_FullyConnected")]
    vals = {n: a for n, _, a in seen}
    # closed forms: h = relu(x W1^T) = [[1.5]*3, [0]*3], y = h W2^T, head gradient ones
    np.testing.assert_allclose(vals[b"hk_dense1_fwd_output"], [[2.25, 2.25], [0, 0]])
    np.testing.assert_allclose(vals[b"hk_dense1_fwd_backward_1"], np.full((2, 3), 1.5))
    np.testing.assert_allclose(vals[b"hk_dense1_fwd_backward_2"], [2.0, 2.0])
    np.testing.assert_allclose(vals[b"hk_dense0_relu_fwd_backward_0"], [[1, 1, 1], [0, 0, 0]])
    np.testing.assert_allclose(vals[b"hk_dense0_fwd_backward_1"], [[1.0, 2.0]] * 3)
    np.testing.assert_allclose(vals[b"hk_dense0_fwd_backward_2"], [1.0, 1.0, 1.0])


def test_op_hook_monitor_all_shows_inputs_in_forward_only():
    net = _hook_net()
    net.hybridize()
    seen = []
    net.register_op_hook(_collect(seen), monitor_all=True)
    x = mx.nd.array([[1.0, 2.0], [3.0, -4.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with autograd.record():
            y = net(x)
        y.backward()
    names = [n.decode() for n, _, _ in seen]
    assert names == ["hk_dense0_fwd_data", "hk_dense0_fwd_weight", "hk_dense0_fwd_bias",
                     "hk_dense0_fwd_output", "hk_dense0_relu_fwd_input0",
                     "hk_dense0_relu_fwd_output", "hk_dense1_fwd_data", "hk_dense1_fwd_weight",
                     "hk_dense1_fwd_bias", "hk_dense1_fwd_output",
                     "hk_dense1_fwd_backward_0", "hk_dense1_fwd_backward_1",
                     "hk_dense1_fwd_backward_2", "hk_dense0_relu_fwd_backward_0",
                     "hk_dense0_fwd_backward_1", "hk_dense0_fwd_backward_2"]
    np.testing.assert_allclose(seen[0][2], [[1.0, 2.0], [3.0, -4.0]])


class _Mixed(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.bn = gluon.nn.BatchNorm(in_channels=2)
            self.dense = gluon.nn.Dense(2, in_units=2)

    def hybrid_forward(self, F, x):
        h = self.bn(x)
        a, b = F.split(h, num_outputs=2, axis=1)
        y = (a + 1) * b + F.sum(h * h, axis=1, keepdims=True)
        y = F.Dropout(y, p=0.0)
        return self.dense(F.concat(y, a, dim=1)) + 2 * x


_MIXED_TRAIN = (   # (name, operator) recorded from 1.9.1: a recorded call and its backward
    "net_batchnorm0_fwd_output BatchNorm;net_batchnorm0_fwd_mean BatchNorm;"
    "net_batchnorm0_fwd_var BatchNorm;net_split0_output0 SliceChannel;"
    "net_split0_output1 SliceChannel;net__plusscalar0_0 _plus_scalar;net__mul0_0 elemwise_mul;"
    "net__mul1_0 elemwise_mul;net_sum0_0 sum;net__plus0_output elemwise_add;"
    "net_dropout0_output Dropout;net_dropout0_mask Dropout;net_concat0_output Concat;"
    "net_dense0_fwd_output FullyConnected;net__mulscalar0_0 _mul_scalar;"
    "net__plus1_output elemwise_add;net__mulscalar0_backward_0 _backward_mul_scalar;"
    "net_dense0_fwd_backward_0 _backward_FullyConnected;"
    "net_dense0_fwd_backward_1 _backward_FullyConnected;"
    "net_dense0_fwd_backward_2 _backward_FullyConnected;net_concat0_backward_0 _backward_Concat;"
    "net_concat0_backward_1 _backward_Concat;net_dropout0_backward_0 _backward_Dropout;"
    "net_sum0_backward_0 _backward_sum;net__mul1_backward_0 _backward_mul;"
    "net__mul1_backward_1 _backward_mul;net__mul0_backward_0 _backward_mul;"
    "net__mul0_backward_1 _backward_mul;net__plusscalar0_backward_0 _copy;sum_grad_0 add_n;"
    "net_split0_backward_data _backward_SliceChannel;sum_grad_0 add_n;"
    "net_batchnorm0_fwd_backward_0 _backward_BatchNorm;"
    "net_batchnorm0_fwd_backward_1 _backward_BatchNorm;"
    "net_batchnorm0_fwd_backward_2 _backward_BatchNorm;sum_grad_0 add_n")

_MIXED_INFER_ALL = (   # names recorded from 1.9.1: an inference call with monitor_all
    "net_batchnorm0_fwd_data net_batchnorm0_fwd_gamma net_batchnorm0_fwd_beta "
    "net_batchnorm0_fwd_moving_mean net_batchnorm0_fwd_moving_var net_batchnorm0_fwd_output "
    "net_split0_data net_split0_output0 net_split0_output1 net__plusscalar0_input0 "
    "net__plusscalar0_0 net__mul0_lhs net__mul0_rhs net__mul0_0 net__mul1_lhs net__mul1_rhs "
    "net__mul1_0 net_sum0_input0 net_sum0_0 net__plus0_lhs net__plus0_rhs net__plus0_output "
    "net_dropout0_data net_dropout0_output net_concat0_arg0 net_concat0_arg1 "
    "net_concat0_output net_dense0_fwd_data net_dense0_fwd_weight net_dense0_fwd_bias "
    "net_dense0_fwd_output net__mulscalar0_input0 net__mulscalar0_0 net__plus1_lhs "
    "net__plus1_rhs net__plus1_output")


def test_op_hook_gradient_nodes_of_a_mixed_graph():
    net = _Mixed(prefix="net_")
    net.initialize(mx.init.Constant(0.5))
    net.hybridize()
    x = mx.nd.array([[1.0, 2.0], [3.0, -4.0], [0.5, 0.25]])
    x.attach_grad()
    seen = []
    net.register_op_hook(_collect(seen), monitor_all=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net(x)
        assert " ".join(n.decode() for n, _, _ in seen) == _MIXED_INFER_ALL
        net.register_op_hook(_collect(seen))
        seen.clear()
        with autograd.record():
            y = net(x)
        y.backward()
    got = ";".join(f"{n.decode()} {o.decode()}" for n, o, _ in seen)
    assert got == _MIXED_TRAIN
    # values recorded from 1.9.1: the last node is x's summed gradient
    np.testing.assert_allclose(seen[-1][2].ravel()[:3], [2.5687, 2.1777, 1.8863], rtol=1e-3)
    np.testing.assert_allclose(seen[-1][2], x.grad.asnumpy(), rtol=1e-6)
    vals = {n: a for n, _, a in seen}
    np.testing.assert_allclose(vals[b"net_dense0_fwd_backward_2"], [3.0, 3.0])
    np.testing.assert_allclose(vals[b"net_batchnorm0_fwd_backward_2"], [3.0, 3.0])


def test_op_hook_on_imported_symbol_block_and_through_a_plain_block(tmp_path):
    net = _hook_net()
    net.hybridize()
    x = mx.nd.array([[1.0, 2.0]])
    net(x)
    net.export(str(tmp_path / "m"), 0)
    sb = gluon.SymbolBlock.imports(str(tmp_path / "m-symbol.json"), ["data"],
                                   str(tmp_path / "m-0000.params"))
    seen = []
    sb.register_op_hook(_collect(seen))
    sb(x)   # a SymbolBlock always runs its graph, hybridized or not
    assert [n for n, _, _ in seen] == [b"hk_dense0_fwd_output", b"hk_dense0_relu_fwd_output",
                                       b"hk_dense1_fwd_output"]
    # Block.register_op_hook passes the hook on to its children
    seq = gluon.nn.Sequential()
    d = gluon.nn.Dense(2, in_units=3, prefix="dd_")
    d.initialize(mx.init.One())
    d.hybridize()
    seq.add(d)
    seen.clear()
    seq.register_op_hook(_collect(seen))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seq(mx.nd.ones((1, 3)))
    assert [(n, o) for n, o, _ in seen] == [(b"dd_fwd_output", b"FullyConnected")]
    np.testing.assert_array_equal(seen[0][2], [[3.0, 3.0]])


def test_op_hook_with_static_alloc_shows_hidden_and_unread_outputs():
    # names recorded from 1.9.1: with static_alloc an inference call shows the hidden
    # outputs too, and backward shows the data gradient nobody asked for
    net = gluon.nn.HybridSequential(prefix="s_")
    with net.name_scope():
        net.add(gluon.nn.Dense(3, in_units=2), gluon.nn.BatchNorm(in_channels=3),
                gluon.nn.Dropout(0.5), gluon.nn.Dense(2, in_units=3))
    net.initialize(mx.init.Constant(0.5))
    net.hybridize(static_alloc=True)
    seen = []
    net.register_op_hook(_collect(seen))
    x = mx.nd.array([[1.0, 2.0], [3.0, -4.0]])
    fwd = ["s_dense0_fwd_output", "s_batchnorm0_fwd_output", "s_batchnorm0_fwd_mean",
           "s_batchnorm0_fwd_var", "s_dropout0_fwd_output", "s_dropout0_fwd_mask",
           "s_dense1_fwd_output"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net(x)
        assert [n.decode() for n, _, _ in seen] == fwd
        seen.clear()
        with autograd.record():
            y = net(x)
        y.backward()
    assert [n.decode() for n, _, _ in seen] == fwd + [
        "s_dense1_fwd_backward_0", "s_dense1_fwd_backward_1", "s_dense1_fwd_backward_2",
        "s_dropout0_fwd_backward_0", "s_batchnorm0_fwd_backward_0",
        "s_batchnorm0_fwd_backward_1", "s_batchnorm0_fwd_backward_2",
        "s_dense0_fwd_backward_0", "s_dense0_fwd_backward_1", "s_dense0_fwd_backward_2"]


class _LogSoftmaxSqrt(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc = gluon.nn.Dense(2, in_units=2)

    def hybrid_forward(self, F, x):
        return F.log_softmax(self.fc(x)).sqrt()


def test_op_hook_with_static_alloc_and_monitor_all_shows_gradient_inputs():
    net = _LogSoftmaxSqrt(prefix="q_")
    net.initialize(mx.init.Constant(0.5))
    net.hybridize(static_alloc=True)
    seen = []
    net.register_op_hook(_collect(seen), monitor_all=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with autograd.record():
            y = net(mx.nd.array([[1.0, 2.0], [3.0, -4.0]]))
        y.backward()
    # recorded from 1.9.1 (without static_alloc it shows no gradient node inputs)
    assert " ".join(n.decode() for n, _, _ in seen) == (
        "q_dense0_fwd_data q_dense0_fwd_weight q_dense0_fwd_bias q_dense0_fwd_output "
        "q_log_softmax0_data q_log_softmax0_0 q_sqrt0_input0 q_sqrt0_0 q_sqrt0_backward_lhs "
        "q_sqrt0_backward_rhs q_sqrt0_backward_0 q_log_softmax0_backward_ograd "
        "q_log_softmax0_backward_output q_log_softmax0_backward_0 "
        "q_dense0_fwd_backward_input0 q_dense0_fwd_backward_input1 "
        "q_dense0_fwd_backward_input2 q_dense0_fwd_backward_0 q_dense0_fwd_backward_1 "
        "q_dense0_fwd_backward_2")


def test_op_hook_warns_like_1_9_1_after_hybridize():
    net = _hook_net()
    net.hybridize()
    net.register_op_hook(lambda *a: None)
    with pytest.warns(UserWarning, match="register_op_hook"):
        net(mx.nd.ones((1, 2)))


@pytest.mark.parametrize("make,shapes,want", [
    # (input labels, output labels) recorded from 1.9.1's CachedOp hook with monitor_all
    (lambda d, w: S.relu(d, name="r"), {"d": (2, 3)}, ["r_input0", "r_0"]),
    (lambda d, w: S.softmax(d, name="s"), {"d": (2, 3)}, ["s_data", "s_output"]),
    (lambda d, w: S.log_softmax(d, name="s"), {"d": (2, 3)}, ["s_data", "s_0"]),
    (lambda d, w: S.make_loss(d, name="m"), {"d": (2, 3)}, ["m_input0", "m_loss"]),
    (lambda d, w: S.split_v2(d, 3, axis=1), {"d": (2, 3)},
     ["_split_v20_data", "_split_v20_0", "_split_v20_1", "_split_v20_2"]),
    (lambda d, w: S.LinearRegressionOutput(d, w, name="l"), {"d": (2, 3), "w": (2, 3)},
     ["l_data", "l_label", "l_0"]),
    (lambda d, w: S.concat(d, w, dim=0, name="c"), {"d": (2, 3), "w": (2, 3)},
     ["c_arg0", "c_arg1", "c_output"]),
    (lambda d, w: S.elemwise_add(d, w, name="a"), {"d": (2, 3), "w": (2, 3)},
     ["a_lhs", "a_rhs", "a_output"]),
    (lambda d, w: S.topk(d, k=2, ret_typ="both", name="t"), {"d": (2, 3)},
     ["t_input0", "t_0", "t_1"]),
    (lambda d, w: S.Dropout(d, p=0.5, name="o"), {"d": (2, 3)}, ["o_data", "o_output"]),
])
def test_cached_op_hook_labels(make, shapes, want):
    with mx.name.NameManager():   # automatic names counted from 0
        sym = make(S.var("d"), S.var("w"))
    op = mx.nd.CachedOp(sym)
    seen = []
    op._register_op_hook(_collect(seen), True)
    op(*[mx.nd.ones(shapes[n]) for n in sym.list_inputs()])
    assert [n.decode() for n, _, _ in seen] == want


def test_executor_monitor_all_names_split_v2_input_data():
    with mx.name.NameManager():
        sym = S.split_v2(S.var("data"), 3, axis=1)
    ex = sym.simple_bind(mx.cpu(), data=(2, 3), grad_req="null")
    names = []
    ex.set_monitor_callback(lambda n, a: names.append(n), monitor_all=True)
    ex.forward()
    assert names == [b"data", b"_split_v20_data", b"_split_v20_output0", b"_split_v20_output1",
                     b"_split_v20_output2"]


# ---------------------------------------------------------------------------------------------
# executor API edge cases

def _fc_exec():
    fc = S.FullyConnected(S.var("x"), num_hidden=3, name="fc")
    ex = fc.simple_bind(mx.cpu(), x=(2, 4))
    for a in ex.arg_arrays:
        a[:] = np.arange(a.size).reshape(a.shape) * 0.1
    return ex


def test_reshape_shares_memory_and_checks_sizes():
    ex = _fc_exec()
    small = ex.reshape(x=(1, 4))
    small.arg_dict["fc_weight"][:] = 7
    small.arg_dict["x"][:] = 9
    small.grad_dict["fc_weight"][:] = 3
    assert ex.arg_dict["fc_weight"].asnumpy()[0, 0] == 7.0
    assert ex.grad_dict["fc_weight"].asnumpy()[0, 0] == 3.0
    np.testing.assert_allclose(ex.arg_dict["x"].asnumpy().ravel(),
                               [9, 9, 9, 9, 0.4, 0.5, 0.6, 0.7], rtol=1e-6)
    # 1.9.1: MXNetError for growing without allow_up_sizing, and for a parameter whose
    # shape changes even with partial_shaping unless up-sizing is allowed
    with pytest.raises(MXNetError):
        _fc_exec().reshape(x=(5, 4))
    with pytest.raises(MXNetError):
        _fc_exec().reshape(partial_shaping=True, x=(2, 5))
    assert _fc_exec().reshape(partial_shaping=True, allow_up_sizing=True,
                              x=(2, 5)).arg_dict["fc_weight"].shape == (3, 5)
    with pytest.raises(MXNetError):
        _fc_exec().reshape(y=(2, 4))


def test_copy_params_from_errors():
    ex = _fc_exec()
    # 1.9.1: ValueError naming the extra key, unless allow_extra_params
    with pytest.raises(ValueError, match="zzz"):
        ex.copy_params_from({"fc_weight": mx.nd.ones((3, 4)), "zzz": mx.nd.ones(1)})
    ex.copy_params_from({"fc_weight": mx.nd.ones((3, 4)), "zzz": mx.nd.ones(1)},
                        allow_extra_params=True)
    with pytest.raises(ValueError, match="foo"):
        ex.copy_params_from({}, {"foo": mx.nd.ones(1)})
    with pytest.raises(MXNetError):
        ex.copy_params_from({"fc_weight": mx.nd.ones((2, 4))})
    ex.copy_params_from({"fc_weight": mx.nd.ones((3, 4), dtype="float64")})
    assert ex.arg_dict["fc_weight"].dtype == np.float32


def test_forward_keyword_errors_and_duplicate_output_names():
    ex = _fc_exec()
    with pytest.raises(TypeError, match="Unknown argument y"):
        ex.forward(y=mx.nd.ones((2, 4)))
    with pytest.raises(ValueError, match="Shape not match"):
        ex.forward(x=mx.nd.ones((3, 4)))
    with pytest.raises(ValueError, match="only accept keyword argument of NDArrays"):
        ex.forward(x=[[1, 2, 3, 4]] * 2)
    out = ex.forward(x=mx.nd.ones((2, 4), dtype="float64"))
    assert isinstance(out, list) and out[0].dtype == np.float32
    fc = S.FullyConnected(S.var("x"), num_hidden=3, name="fc")
    with pytest.raises(ValueError, match="Duplicate names"):
        _ = S.Group([fc, fc]).simple_bind(mx.cpu(), x=(2, 4)).output_dict


def test_grad_req_add_accumulates_over_two_backwards():
    y = S.MakeLoss(S.sum(S.var("x") * S.var("w")))
    ex = y.simple_bind(mx.cpu(), x=(3,), w=(3,), grad_req={"x": "add", "w": "write"})
    ex.arg_dict["x"][:] = [1, 2, 3]
    ex.arg_dict["w"][:] = [4, 5, 6]
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward()
    np.testing.assert_array_equal(ex.grad_dict["x"].asnumpy(), [8.0, 10.0, 12.0])
    np.testing.assert_array_equal(ex.grad_dict["w"].asnumpy(), [1.0, 2.0, 3.0])
