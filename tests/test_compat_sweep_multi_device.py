"""Regression tests from the multi-device (data parallel over several CPU contexts) sweep:
user scripts run under MXNet 1.9.1 and mxnet-py, differences fixed here. Expected values,
messages and exception types were recorded from MXNet 1.9.1 and are written as literals."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.base import MXNetError

CTX = [mx.cpu(0), mx.cpu(1)]


def test_trainer_without_a_store_reports_update_on_kvstore_as_none():
    # 1.9.1: kvstore=None (or one context) leaves Trainer._update_on_kvstore None after a step
    for kvstore, ctxs in ((None, CTX), ("device", [mx.cpu(1)])):
        net = gluon.nn.Dense(1, in_units=2)
        net.initialize(mx.init.One(), ctx=ctxs)
        tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, kvstore=kvstore)
        with autograd.record():
            ls = [net(nd.ones((1, 2), ctx=c)) for c in ctxs]
        autograd.backward(ls)
        tr.step(1)
        assert tr._kvstore is None and tr._update_on_kvstore is None
        # recorded from 1.9.1: every context updates with its own gradient
        assert net.weight.data(ctxs[-1]).asnumpy().tolist() == [[pytest.approx(0.9)] * 2]


def _fc():
    return mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=4, name="fc")


def test_bind_needs_arguments_and_gradients_on_the_bind_context():
    c = mx.cpu(2)
    fc = _fc()
    good = {"data": nd.ones((2, 3), ctx=c), "fc_weight": nd.ones((4, 3), ctx=c),
            "fc_bias": nd.ones((4,), ctx=c)}
    ex = fc.bind(c, good)
    assert ex.forward()[0].context == c
    # messages recorded from 1.9.1 (its text after the "Check failed" prefix)
    with pytest.raises(MXNetError, match=r"Input array is in cpu\(0\) while binding with "
                       r"ctx=cpu\(2\)\. All arguments must be in global context \(cpu\(2\)\)"):
        fc.bind(c, dict(good, fc_weight=nd.ones((4, 3))))
    with pytest.raises(MXNetError, match=r"Input array is in cpu\(1\) while binding"):
        fc.bind(c, [good["data"], good["fc_weight"], nd.ones((4,), ctx=mx.cpu(1))])
    with pytest.raises(MXNetError, match=r"Gradient array is in cpu\(0\) while binding with "
                       r"ctx=cpu\(2\)\. All gradients must be in global context"):
        fc.bind(c, good, args_grad={"fc_weight": nd.ones((4, 3)),
                                    "fc_bias": nd.ones((4,), ctx=c)})
    with pytest.raises(MXNetError, match=r"Input array is in cpu\(0\) while binding"):
        fc.eval(ctx=c, data=nd.ones((2, 3)), fc_weight=good["fc_weight"], fc_bias=good["fc_bias"])
    # 1.9.1 binds with group2ctx given, and does not check auxiliary states
    fc.bind(c, dict(good, fc_weight=nd.ones((4, 3))), group2ctx={"dev1": mx.cpu(0)})
    bn = mx.sym.BatchNorm(mx.sym.var("data"), name="bn")
    bn.bind(c, [nd.ones((2, 3), ctx=c), nd.ones((3,), ctx=c), nd.ones((3,), ctx=c)],
            aux_states=[nd.ones((3,)), nd.ones((3,), ctx=c)])


def test_subgraph_line_only_for_graphs_bound_on_cpu0(capfd, monkeypatch):
    monkeypatch.delenv("MXNET_SUBGRAPH_BACKEND", raising=False)
    fc = _fc()
    capfd.readouterr()
    for i in (1, 0, 3):
        fc.simple_bind(mx.cpu(i), data=(2, 3))
    lines = [ln.split("] ", 1)[1] for ln in capfd.readouterr().err.splitlines()]
    # recorded from 1.9.1: one line, for cpu(0)
    assert lines == ["../src/executor/graph_executor.cc:1991: Subgraph backend MKLDNN is "
                     "activated."]
    monkeypatch.setenv("MXNET_SUBGRAPH_BACKEND", "NONE")
    fc.simple_bind(mx.cpu(1), data=(2, 3))
    lines = [ln.split("] ", 1)[1] for ln in capfd.readouterr().err.splitlines()]
    assert lines == ["../src/executor/graph_executor.cc:60: MXNET_SUBGRAPH_BACKEND=NONE is "
                     "detected, subgraph backend is not in use"]


def test_module_on_two_contexts_logs_the_subgraph_line_once(capfd):
    data = mx.sym.var("data")
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(data, num_hidden=2, name="fc"),
                               name="softmax")
    mod = mx.mod.Module(out, context=[mx.cpu(0), mx.cpu(1), mx.cpu(2)], work_load_list=[1, 2, 1])
    capfd.readouterr()
    mod.bind(data_shapes=[("data", (10, 3))], label_shapes=[("softmax_label", (10,))])
    assert capfd.readouterr().err.count("Subgraph backend") == 1
    # recorded from 1.9.1
    assert mod._exec_group.slices == [slice(0, 2), slice(2, 7), slice(7, 10)]


def test_module_work_load_list_of_the_wrong_length_is_an_assertion_error():
    out = mx.sym.SoftmaxOutput(_fc(), name="softmax")
    with pytest.raises(AssertionError, match="work_load_list"):
        mx.mod.Module(out, context=[mx.cpu(0), mx.cpu(1), mx.cpu(2)], work_load_list=[1, 2])


@pytest.mark.parametrize("use_opt", [False, True])
def test_device_store_sums_pushes_in_the_stored_dtype(use_opt):
    kv = mx.kv.create("device")
    kv.init(3, nd.ones((2,)))
    seen = []
    if use_opt:
        kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1))
    else:
        def upd(key, grad, weight):
            seen.append((grad.dtype, weight.dtype))
            weight[:] -= 0.1 * grad
        kv._set_updater(upd)
    kv.push(3, [nd.ones((2,), dtype="float16", ctx=c) for c in CTX])
    out16 = nd.zeros((2,), dtype="float16", ctx=mx.cpu(1))
    out32 = nd.zeros((2,), ctx=mx.cpu(0))
    kv.pull(3, out=[out16])
    kv.pull(3, out=[out32])
    # recorded from 1.9.1: the updater sees a float32 gradient; the weight is 1 - 0.1 * 2
    if not use_opt:
        assert seen == [(np.float32, np.float32)]
    assert out32.asnumpy().tolist() == [pytest.approx(0.8)] * 2
    assert out16.dtype == np.float16
    assert out16.asnumpy().tolist() == [0.7998046875, 0.7998046875]


def test_mcc_counts_as_a_float_after_reset():
    m = mx.metric.create("mcc")
    labels = [nd.array([0, 1, 1, 0], ctx=c) for c in CTX]
    preds = [nd.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.1, 0.9]], ctx=c) for c in CTX]
    m.update(labels, preds)
    # recorded from 1.9.1: num_inst 1.0 (a float), one macro average per update call
    assert m.num_inst == 1.0 and isinstance(m.num_inst, float)
    assert m.get() == ("mcc", pytest.approx(0.0))


@pytest.mark.parametrize("kvstore,nctx", [("device", 1), ("local", 1), (None, 2)])
def test_update_on_kvstore_true_without_a_store_raises_at_every_step(kvstore, nctx):
    # 1.9.1 raises an AttributeError from Trainer.step (each call) when no store is created
    ctxs = CTX[:nctx]
    net = gluon.nn.Dense(1, in_units=2)
    net.initialize(mx.init.One(), ctx=ctxs)
    tr = gluon.Trainer(net.collect_params(), "sgd", kvstore=kvstore, update_on_kvstore=True)
    with autograd.record():
        ls = [net(nd.ones((1, 2), ctx=c)) for c in ctxs]
    autograd.backward(ls)
    for _ in range(2):
        with pytest.raises(AttributeError, match="update_on_kvstore"):
            tr.step(1)
    assert net.weight.data(ctxs[0]).asnumpy().tolist() == [[1.0, 1.0]]
    # a store object is used even on one context (1.9.1)
    tr2 = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5},
                        kvstore=mx.kv.create("local"), update_on_kvstore=True)
    tr2.step(1)
    assert tr2._update_on_kvstore is True
    assert net.weight.data(ctxs[-1]).asnumpy().tolist() == [[1.0 - 0.5 * nctx] * 2]


def test_store_value_list_mismatch_is_an_assertion_error_that_says_why():
    # 1.9.1 raises a bare AssertionError (no message); ours names the counts
    kv = mx.kv.create("device")
    kv.init(["w1", "w2"], [nd.ones((2, 2)), nd.ones((3,))])
    vals = [nd.ones((2, 2), ctx=c) for c in CTX + [mx.cpu(2)]]
    with pytest.raises(AssertionError, match="2 keys but 3 values"):
        kv.pushpull(["w1", "w2"], vals)
    with pytest.raises(AssertionError, match="must be NDArrays"):
        kv.push("w1", [np.ones((2, 2))])
    with pytest.raises(AssertionError, match="out is required"):
        kv.pull("w1")
    # recorded from 1.9.1: a list of lists sums per key and writes back on each device
    lists = [vals, [nd.ones((3,), ctx=c) for c in CTX]]
    kv.pushpull(["w1", "w2"], lists)
    assert [[float(v.asnumpy().ravel()[0]) for v in vv] for vv in lists] == [[3.0] * 3, [2.0] * 2]




def test_np_split_along_a_later_axis_may_leave_empty_slices(np_mode):
    # recorded from 1.9.1: np mode splits with np.split, so extra slices come back empty
    x = mx.np.arange(6).reshape(3, 2)
    parts = gluon.utils.split_and_load(x, [mx.cpu(0), mx.cpu(1), mx.cpu(2)], batch_axis=1,
                                       even_split=False)
    assert [(p.shape, p.ctx) for p in parts] == [((3, 1), mx.cpu(0)), ((3, 1), mx.cpu(1)),
                                                 ((3, 0), mx.cpu(2))]
    parts = gluon.utils.split_data(mx.np.arange(6).reshape(1, 3, 2), 4, batch_axis=1,
                                   even_split=False)
    assert [p.tolist() for p in parts] == [[[[0.0, 1.0]]], [[[2.0, 3.0]]], [[[4.0, 5.0]]], [[]]]


def test_legacy_split_along_a_later_axis_needs_a_row_per_slice():
    # 1.9.1: slice_axis refuses an empty range (an MXNetError)
    with pytest.raises(MXNetError):
        gluon.utils.split_data(nd.arange(6).reshape((3, 2)), 3, batch_axis=1, even_split=False)
