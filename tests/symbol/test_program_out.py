"""Kernels that accept ``out`` write into their planned buffers: a planned graph run
twice allocates no new buffer for them, computes what the unplanned path computes, and
training through the compiled program gives autograd's gradients."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.operator.registry import get_op

from ._fill import fill_args


def _mlp():
    x = mx.sym.var("data")
    x = mx.sym.FullyConnected(x, num_hidden=32, name="fc0")
    x = mx.sym.Activation(x, act_type="relu", name="relu0")
    x = mx.sym.FullyConnected(x, num_hidden=16, name="fc1")
    x = mx.sym.Activation(x, act_type="tanh", name="tanh1")
    x = mx.sym.FullyConnected(x, num_hidden=6, name="fc2")
    return mx.sym.SoftmaxOutput(x, mx.sym.var("softmax_label"), name="softmax")


def _bind(sym, grad_req="null", seed=0):
    return fill_args(sym.simple_bind(mx.current_context(), grad_req=grad_req, data=(8, 10),
                                     softmax_label=(8,)), seed, 6, 0.5)


class _Spy:
    """Wraps the kernels of out-capable operators to record what they were given and
    what they returned."""

    def __init__(self, monkeypatch, names):
        self.calls = []
        for name in names:
            op = get_op(name)
            monkeypatch.setattr(op, "compute", self._wrap(name, op.compute))

    def _wrap(self, name, fn):
        def compute(rc, attrs, *arrays, out=None):
            if out is None:
                res = fn(rc, attrs, *arrays)
            else:
                res = fn(rc, attrs, *arrays, out=out)
            self.calls.append((name, out, res))
            return res
        return compute


_OUT_OPS = ("FullyConnected", "Activation", "SoftmaxOutput")


def test_planned_inference_writes_into_the_same_buffers(monkeypatch):
    sym = _mlp()
    ex = _bind(sym)
    spy = _Spy(monkeypatch, _OUT_OPS)
    runs = []
    for _ in range(2):
        spy.calls.clear()
        ex.forward(is_train=False)
        assert len(spy.calls) == 6
        for name, out, res in spy.calls:
            assert out is not None and out[0] is not None, name
            assert res is out[0], f"{name} did not write into its planned buffer"
        runs.append([(id(out[0]), res) for _, out, res in spy.calls])
    # the second run wrote into exactly the first run's buffers: nothing new was allocated
    assert [i for i, _ in runs[0]] == [i for i, _ in runs[1]]
    # the output is the executor's own buffer, as in 1.9.1
    assert spy.calls[-1][2] is ex.outputs[0]._data


def test_planned_results_equal_the_unplanned_path():
    sym = _mlp()
    ex = _bind(sym)
    got = ex.forward(is_train=False)[0].asnumpy()
    args = ex.arg_dict
    h = mx.nd.FullyConnected(args["data"], args["fc0_weight"], args["fc0_bias"], num_hidden=32)
    h = mx.nd.Activation(h, act_type="relu")
    h = mx.nd.FullyConnected(h, args["fc1_weight"], args["fc1_bias"], num_hidden=16)
    h = mx.nd.Activation(h, act_type="tanh")
    h = mx.nd.FullyConnected(h, args["fc2_weight"], args["fc2_bias"], num_hidden=6)
    want = mx.nd.SoftmaxOutput(h, args["softmax_label"]).asnumpy()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("grad_req", ["write", "add"])
def test_training_program_matches_autograd(grad_req):
    sym = _mlp()
    reqs = {n: ("null" if n in ("data", "softmax_label") else grad_req)
            for n in sym.list_arguments()}
    ex = _bind(sym, reqs)
    for g in ex.grad_arrays:
        if g is not None:
            g[:] = 0.25
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward()
    # the same graph, recorded imperatively
    args = {n: a.copy() for n, a in ex.arg_dict.items()}
    params = [n for n in sym.list_arguments() if reqs[n] != "null"]
    for n in params:
        args[n].attach_grad()
    want = {n: np.full(args[n].shape, 0.25, np.float32) if grad_req == "add" else None
            for n in params}
    for _ in range(2):
        with autograd.record():
            h = mx.nd.FullyConnected(args["data"], args["fc0_weight"], args["fc0_bias"],
                                     num_hidden=32)
            h = mx.nd.Activation(h, act_type="relu")
            h = mx.nd.FullyConnected(h, args["fc1_weight"], args["fc1_bias"], num_hidden=16)
            h = mx.nd.Activation(h, act_type="tanh")
            h = mx.nd.FullyConnected(h, args["fc2_weight"], args["fc2_bias"], num_hidden=6)
            y = mx.nd.SoftmaxOutput(h, args["softmax_label"])
        y.backward()
        for n in params:
            g = args[n].grad.asnumpy()
            want[n] = g.copy() if want[n] is None or grad_req == "write" else want[n] + g
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), y.asnumpy(), rtol=1e-6)
    for n in params:
        np.testing.assert_allclose(ex.grad_dict[n].asnumpy(), want[n], rtol=1e-5, atol=1e-6,
                                   err_msg=n)


def test_training_steps_reuse_their_buffers(monkeypatch):
    sym = _mlp()
    reqs = {n: ("null" if n in ("data", "softmax_label") else "write")
            for n in sym.list_arguments()}
    ex = _bind(sym, reqs)
    ex.forward(is_train=True)
    ex.backward()
    spy = _Spy(monkeypatch, _OUT_OPS + ("_backward_FullyConnected", "_backward_Activation",
                                        "_backward_SoftmaxOutput"))
    seen = []
    for _ in range(2):
        spy.calls.clear()
        ex.forward(is_train=True)
        ex.backward()
        seen.append([(name, tuple(id(o) for o in out)) for name, out, _ in spy.calls])
        for name, out, res in spy.calls:
            res = res if isinstance(res, (tuple, list)) else (res,)
            for o, r in zip(out, res):
                assert o is None or r is o, name
    assert seen[0] == seen[1]
    # weight gradients go straight into the bound gradient arrays
    grads = {id(g._data) for g in ex.grad_arrays if g is not None}
    written = {id(o) for name, out, _ in spy.calls if name == "_backward_FullyConnected"
               for o in out[1:] if o is not None}
    assert written and written <= grads


def test_memory_plans_are_unchanged_by_out_kernels():
    sym = _mlp()
    ex = _bind(sym)
    plan = ex.memory_plan()
    ex.forward(is_train=False)
    assert ex.memory_plan().sizes == plan.sizes
    assert ex.plan_bytes[0] <= ex.plan_bytes[1]


def test_backward_never_writes_into_a_broadcast_view():
    """A gradient that is a broadcast view (global average pooling over 1x1 maps gives
    one) is not a buffer a later step may overwrite in place."""
    data = mx.sym.var("data")
    c = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name="c")
    a = mx.sym.Activation(mx.sym.BatchNorm(c, name="b") + data, act_type="relu", name="a")
    p = mx.sym.Pooling(a, global_pool=True, kernel=(1, 1), pool_type="avg", name="p")
    fc = mx.sym.FullyConnected(mx.sym.Flatten(p), num_hidden=3, name="fc")
    sym = mx.sym.SoftmaxOutput(fc, name="softmax")
    ex = sym.simple_bind(mx.current_context(), data=(2, 4, 1, 1))
    rs = np.random.RandomState(0)
    for name, arr in ex.arg_dict.items():
        arr[:] = rs.randint(0, 3, arr.shape) if name == "softmax_label" else \
            rs.uniform(-1, 1, arr.shape)
    grads = []
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward()
        grads.append({n: g.asnumpy().copy() for n, g in ex.grad_dict.items()})
    args = {n: a.copy() for n, a in ex.arg_dict.items()}
    for n in args:
        args[n].attach_grad()
    with autograd.record():
        h = mx.nd.Convolution(args["data"], args["c_weight"], args["c_bias"], kernel=(3, 3),
                              num_filter=4, pad=(1, 1))
        h = mx.nd.BatchNorm(h, args["b_gamma"], args["b_beta"], ex.aux_dict["b_moving_mean"],
                            ex.aux_dict["b_moving_var"])
        h = mx.nd.Activation(h + args["data"], act_type="relu")
        h = mx.nd.Pooling(h, global_pool=True, kernel=(1, 1), pool_type="avg")
        h = mx.nd.FullyConnected(mx.nd.Flatten(h), args["fc_weight"], args["fc_bias"],
                                 num_hidden=3)
        y = mx.nd.SoftmaxOutput(h, args["softmax_label"])
    y.backward()
    for n in ("data", "c_weight", "b_beta", "fc_weight"):
        np.testing.assert_allclose(grads[0][n], grads[1][n], rtol=1e-6, err_msg=n)
        np.testing.assert_allclose(grads[1][n], args[n].grad.asnumpy(), rtol=1e-4, atol=1e-6,
                                   err_msg=n)
