"""The Module API's behaviour beyond the golden replays: log formats with real timings,
resuming from checkpoints, bucket parameter sharing, states and error handling."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import mxnet as mx
import mxnet.callback as callback
import mxnet.model as model
import mxnet.module as mod_api
import mxnet.monitor as monitor
from mxnet.io import DataBatch, NDArrayIter
from mxnet.module.executor_group import _split_input_slice


def mlp():
    data = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=8, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


def data(n=32, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 5).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.float32) + (x[:, 1] > 1)
    return x, y


def fixed_args(seed=1):
    rng = np.random.RandomState(seed)
    shapes = {"fc1_weight": (8, 5), "fc1_bias": (8,), "fc2_weight": (3, 8), "fc2_bias": (3,)}
    return {k: mx.nd.array(rng.uniform(-0.5, 0.5, s).astype(np.float32))
            for k, s in shapes.items()}


def two_cpus():
    return [mx.cpu(0), mx.cpu(1)]


def params_np(m):
    arg, aux = m.get_params()
    return {k: v.asnumpy() for k, v in {**arg, **aux}.items()}


# -- log lines ------------------------------------------------------------------------------
def test_fit_log_lines_format(logs):
    x, y = data()
    train = NDArrayIter(x, y, batch_size=4)
    val = NDArrayIter(x[:8], y[:8], batch_size=4)
    m = mod_api.Module(mlp(), context=two_cpus())
    m.fit(train, eval_data=val, num_epoch=1, arg_params=fixed_args(),
          batch_end_callback=callback.Speedometer(4, 3))
    speed = [ln for ln in logs if "Speed" in ln]
    assert len(speed) == 2
    for ln, (a, b) in zip(speed, [(0, 3), (3, 6)]):
        assert re.fullmatch(rf"Epoch\[0\] Batch \[{a}-{b}\]\tSpeed: (\d+\.\d\d|inf) "
                            r"samples/sec\taccuracy=\d\.\d{6}", ln), ln
    assert re.fullmatch(r"Epoch\[0\] Train-accuracy=\d\.\d{6}", logs[-3])
    assert re.fullmatch(r"Epoch\[0\] Time cost=\d+\.\d{3}", logs[-2])
    assert re.fullmatch(r"Epoch\[0\] Validation-accuracy=\d\.\d{6}", logs[-1])


def test_speedometer_auto_reset_and_restart(logs):
    metric = mx.metric.create("acc")
    metric.update([mx.nd.array([0, 1])], [mx.nd.array([[0.9, 0.1], [0.8, 0.2]])])
    sp = callback.Speedometer(2, frequent=2, auto_reset=False)
    for epoch in range(2):
        for nbatch in range(5):
            sp(model.BatchEndParam(epoch, nbatch, metric, None))
    assert [re.sub(r"Speed: \S+", "Speed: S", ln) for ln in logs] == [
        "Epoch[0] Batch [0-2]\tSpeed: S samples/sec\taccuracy=0.500000",
        "Epoch[0] Batch [0-4]\tSpeed: S samples/sec\taccuracy=0.500000",
        "Epoch[1] Batch [0-2]\tSpeed: S samples/sec\taccuracy=0.500000",
        "Epoch[1] Batch [0-4]\tSpeed: S samples/sec\taccuracy=0.500000"]


def test_monitor_toc_print_format(logs):
    m = mod_api.Module(mlp(), context=mx.cpu(0))
    m.bind([("data", (4, 5))], [("softmax_label", (4,))], for_training=False)
    m.init_params(arg_params=fixed_args())
    mon = monitor.Monitor(1, pattern="fc2_.*")
    m.install_monitor(mon)
    mon.tic()
    m.forward(DataBatch([mx.nd.ones((4, 5))], None), is_train=False)
    mon.toc_print()
    names = [ln.split()[2] for ln in logs]
    assert names == ["fc2_output", "fc2_weight", "fc2_bias"]
    for ln in logs:
        assert re.fullmatch(r"Batch:       1 \S+ +\S+\t", ln) and len(ln.split("\t")[0]) >= 47


# -- checkpoints and resuming ------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:Parameters already initialized")
@pytest.mark.parametrize("ctx,kvstore", [(mx.cpu(0), "local"), (two_cpus(), "local"),
                                         (two_cpus(), None)])
def test_fit_checkpoint_load_resume_round_trip(tmp_path, ctx, kvstore):
    x, y = data()
    opt = (("learning_rate", 0.1), ("momentum", 0.9))

    def fresh():
        return NDArrayIter(x, y, batch_size=8)

    full = mod_api.Module(mlp(), context=ctx)
    full.fit(fresh(), num_epoch=2, arg_params=fixed_args(), kvstore=kvstore,
             optimizer_params=opt)

    prefix = str(tmp_path / "run")
    first = mod_api.Module(mlp(), context=ctx)
    first.fit(fresh(), num_epoch=1, arg_params=fixed_args(), kvstore=kvstore,
              optimizer_params=opt,
              epoch_end_callback=callback.module_checkpoint(first, prefix,
                                                            save_optimizer_states=True))
    for suffix in ("-symbol.json", "-0001.params", "-0001.states"):
        assert (tmp_path / ("run" + suffix)).exists()
    resumed = mod_api.Module.load(prefix, 1, load_optimizer_states=True, context=ctx)
    resumed.fit(fresh(), num_epoch=2, begin_epoch=1, kvstore=kvstore, optimizer_params=opt)
    want, got = params_np(full), params_np(resumed)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6, atol=1e-7, err_msg=k)


def test_do_checkpoint_and_load_params(tmp_path):
    x, y = data()
    m = mod_api.Module(mlp())
    prefix = str(tmp_path / "ck")
    m.fit(NDArrayIter(x, y, batch_size=8), num_epoch=2, arg_params=fixed_args(),
          epoch_end_callback=callback.do_checkpoint(prefix, period=2))
    assert not (tmp_path / "ck-0001.params").exists()
    arg, aux = model.load_params(prefix, 2)
    assert aux == {}
    for k, v in m.get_params()[0].items():
        np.testing.assert_array_equal(arg[k].asnumpy(), v.asnumpy())
    m2 = mod_api.Module(mlp())
    m2.bind([("data", (8, 5))], [("softmax_label", (8,))])
    m2.init_params()
    m2.load_params(prefix + "-0002.params")
    for k, v in m2.get_params()[0].items():
        np.testing.assert_array_equal(arg[k].asnumpy(), v.asnumpy())


# -- prediction ---------------------------------------------------------------------------------
def test_predict_merge_and_numpy_input():
    x, y = data(n=10)
    m = mod_api.Module(mlp(), context=two_cpus())
    m.bind([("data", (4, 5))], [("softmax_label", (4,))], for_training=False)
    m.init_params(arg_params=fixed_args())
    it = NDArrayIter(x, y, batch_size=4)
    merged = m.predict(it)
    assert merged.shape == (10, 3)
    per_batch = m.predict(it, merge_batches=False)
    assert [len(b) for b in per_batch] == [1, 1, 1]
    assert [b[0].shape[0] for b in per_batch] == [4, 4, 2]  # padding removed
    np.testing.assert_allclose(np.concatenate([b[0].asnumpy() for b in per_batch]),
                               merged.asnumpy())
    assert isinstance(m.predict(it, always_output_list=True), list)
    direct = m.predict(x[:4])
    np.testing.assert_allclose(direct.asnumpy(), merged.asnumpy()[:4], rtol=1e-6)
    outs = list(m.iter_predict(it))
    assert [n for _, n, _ in outs] == [0, 1, 2]
    with pytest.raises(ValueError):
        m.predict([1, 2, 3])


def test_outputs_unmerged_and_output_shapes():
    m = mod_api.Module(mlp(), context=two_cpus(), work_load_list=[1, 3])
    m.bind([("data", (8, 5))], [("softmax_label", (8,))], for_training=False)
    m.init_params(arg_params=fixed_args())
    m.forward(DataBatch([mx.nd.ones((8, 5))], [mx.nd.zeros((8,))]))
    parts = m.get_outputs(merge_multi_context=False)[0]
    assert [p.shape for p in parts] == [(2, 3), (6, 3)]
    assert [p.context for p in parts] == two_cpus()
    assert m.output_shapes == [("softmax_output", (8, 3))]


# -- BucketingModule ---------------------------------------------------------------------------
def bucket_gen(key):
    data_ = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data_, num_hidden=6, flatten=False, name="fc1")
    pooled = mx.sym.mean(mx.sym.Activation(fc1, act_type="tanh"), axis=1)
    fc2 = mx.sym.FullyConnected(pooled, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax"), ("data",), ("softmax_label",)


def bucket_batch(key, rng):
    return DataBatch([mx.nd.array(rng.randn(4, key, 4))], [mx.nd.array(rng.randint(0, 3, 4))],
                     bucket_key=key, provide_data=[("data", (4, key, 4))],
                     provide_label=[("softmax_label", (4,))])


def test_bucketing_shares_parameters_and_optimizer():
    rng = np.random.RandomState(0)
    bm = mod_api.BucketingModule(bucket_gen, default_bucket_key=6, context=two_cpus())
    bm.bind([("data", (4, 6, 4))], [("softmax_label", (4,))])
    bm.init_params(initializer=mx.init.Xavier())
    bm.init_optimizer(optimizer_params=(("learning_rate", 0.5),))
    bm.forward_backward(bucket_batch(3, rng))
    bm.update()
    default, small = bm._buckets[6], bm._buckets[3]
    assert small.symbol is not default.symbol
    for a, b in zip(default._exec_group.param_arrays, small._exec_group.param_arrays):
        assert all(x is y for x, y in zip(a, b))  # the very same arrays on each device
    assert small._optimizer is default._optimizer
    before = params_np(bm)
    bm.forward_backward(bucket_batch(6, rng))
    bm.update()
    after = params_np(bm)
    assert any(not np.array_equal(before[k], after[k]) for k in before)
    # the small bucket sees the update made through the default one
    bm.switch_bucket(3, None)
    small_w = small._exec_group.param_arrays[0][0].asnumpy()
    np.testing.assert_array_equal(small_w, after["fc1_weight"])
    assert sorted(bm._buckets) == [3, 6]
    assert bm.symbol is small.symbol


def test_bucketing_checkpoint_round_trip(tmp_path):
    rng = np.random.RandomState(1)
    bm = mod_api.BucketingModule(bucket_gen, default_bucket_key=6)
    bm.bind([("data", (4, 6, 4))], [("softmax_label", (4,))])
    bm.init_params(initializer=mx.init.Xavier())
    bm.init_optimizer()
    bm.forward_backward(bucket_batch(2, rng))
    bm.update()
    prefix = str(tmp_path / "bk")
    bm.save_checkpoint(prefix, 1)
    assert (tmp_path / "bk-2-symbol.json").exists() and (tmp_path / "bk.buckets").exists()
    loaded = mod_api.BucketingModule.load(prefix, 1, sym_gen=bucket_gen, default_bucket_key=6)
    loaded.bind([("data", (4, 6, 4))], [("softmax_label", (4,))], for_training=False)
    want, got = params_np(bm), params_np(loaded)
    for k in want:
        np.testing.assert_array_equal(got[k], want[k])


# -- SequentialModule and PythonLossModule -------------------------------------------------------
def test_sequential_with_python_loss():
    net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    m1 = mod_api.Module(net, label_names=None)

    def grad(scores, labels):  # softmax cross-entropy gradient
        p = np.exp(scores.asnumpy())
        p /= p.sum(axis=1, keepdims=True)
        p[np.arange(len(p)), labels.asnumpy().astype(int)] -= 1
        return p

    loss = mod_api.PythonLossModule(grad_func=grad, data_names=["fc_output"])
    seq = mod_api.SequentialModule().add(m1).add(loss, take_labels=True, auto_wiring=True)
    x, y = data()
    it = NDArrayIter(x, y, batch_size=8)
    seq.bind(it.provide_data, it.provide_label)
    seq.init_params(initializer=mx.init.Zero())
    seq.init_optimizer(optimizer_params=(("learning_rate", 0.5),))
    b = next(iter(it))
    seq.forward_backward(b)
    seq.update()
    w = seq.get_params()[0]["fc_weight"].asnumpy()
    assert np.abs(w).sum() > 0
    assert seq.output_shapes == [("pyloss_output", (8, 3))]
    with pytest.raises(AssertionError):
        seq.add(mod_api.Module(net, label_names=None), typo=True)


# -- states, reshape, errors ---------------------------------------------------------------------
def test_state_names_and_set_states():
    data_ = mx.sym.var("data")
    state = mx.sym.var("state")
    net = mx.sym.elemwise_add(data_, state, name="out")
    m = mod_api.Module(net, label_names=None, state_names=["state"], context=two_cpus())
    m.bind([("data", (4, 3))], None, for_training=False)
    m.init_params()
    m.set_states(value=2.0)
    m.forward(DataBatch([mx.nd.ones((4, 3))], None))
    np.testing.assert_array_equal(m.get_outputs()[0].asnumpy(), np.full((4, 3), 3.0))
    states = m.get_states(merge_multi_context=False)
    assert len(states) == 1 and len(states[0]) == 2
    m.set_states(states=[[mx.nd.zeros((2, 3)), mx.nd.zeros((2, 3), ctx=mx.cpu(1))]])
    m.forward(DataBatch([mx.nd.ones((4, 3))], None))
    np.testing.assert_array_equal(m.get_outputs()[0].asnumpy(), np.ones((4, 3)))


def test_bind_and_init_warnings_and_errors(logs):
    m = mod_api.Module(mlp())
    with pytest.raises(ValueError):
        m.bind([("x", (4, 5))], [("softmax_label", (4,))])
    m.bind([("data", (4, 5))], [("softmax_label", (4,))])
    m.bind([("data", (4, 5))], [("softmax_label", (4,))])
    assert logs[-1] == "Already bound, ignoring bind()"
    m.init_params()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m.init_params()
    assert "init_params call ignored" in str(w[-1].message)
    m2 = mod_api.Module(mlp())
    m2.bind([("data", (4, 5))], [("softmax_label", (4,))])
    with pytest.raises(RuntimeError, match="fc2_bias is not presented"):
        m2.init_params(arg_params={k: v for k, v in fixed_args().items() if k != "fc2_bias"})
    m2.init_params(arg_params={"fc1_weight": mx.nd.ones((8, 5))}, allow_missing=True)
    np.testing.assert_array_equal(m2.get_params()[0]["fc1_weight"].asnumpy(), 1)
    with pytest.raises(ValueError):
        mod_api.Module(mlp(), data_names=["nope"])
    with pytest.warns(UserWarning):
        mod_api.Module(mlp(), label_names=["nope"])


def test_split_input_slice():
    assert _split_input_slice(10, [1, 1, 1]) == [slice(0, 3), slice(3, 6), slice(6, 10)]
    assert _split_input_slice(8, [1, 3]) == [slice(0, 2), slice(2, 8)]
    with pytest.raises(ValueError):
        _split_input_slice(2, [1, 1, 1])


def test_create_kvstore_rules(monkeypatch):
    monkeypatch.delenv("MXNET_UPDATE_ON_KVSTORE", raising=False)
    args = {"w": mx.nd.zeros((3,))}
    assert model._create_kvstore("local", 1, args) == (None, False)
    kv, upd = model._create_kvstore("local", 2, args)
    assert kv.type == "local" and upd
    assert model._create_kvstore(None, 2, args) == (None, False)
    monkeypatch.setenv("MXNET_UPDATE_ON_KVSTORE", "0")
    assert model._create_kvstore("device", 2, args)[1] is False
    with pytest.raises(TypeError):
        model._create_kvstore(3, 2, args)


def test_fit_with_monitor(logs):
    x, y = data(n=16)
    m = mod_api.Module(mlp(), context=two_cpus())
    mon = monitor.Monitor(2, pattern="fc1_(output|weight)")
    m.fit(NDArrayIter(x, y, batch_size=8), num_epoch=1, arg_params=fixed_args(), monitor=mon)
    rows = [ln.split()[1:3] for ln in logs if ln.startswith("Batch:")]
    # batch 0 only (interval 2); each of the two executors reports its output and weight
    assert sorted(rows) == sorted([["1", "fc1_output"]] * 2 + [["1", "fc1_weight"]] * 2)
