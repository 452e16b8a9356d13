"""Regression tests from the Gluon Parameter / ParameterDict / Trainer compatibility sweep:
user scripts run under MXNet 1.9.1 and mxnet-py, differences fixed here. The expected values,
warnings and exception types were recorded from MXNet 1.9.1 and are written as literals."""
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn


def _grad_of_three_times(p):
    with autograd.record():
        y = (p.data() * 3).sum()
    y.backward()


def test_cast_keeps_the_gradient_values():
    # 1.9.1: cast() converts the gradient buffers too; they are not reset to zero
    p = gluon.Parameter("c", shape=(2, 2), init=mx.init.Constant(1.5))
    p.initialize()
    _grad_of_three_times(p)
    p.cast("float16")
    assert p.grad().dtype == np.float16
    assert p.grad().asnumpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert p.data().asnumpy().tolist() == [[1.5, 1.5], [1.5, 1.5]]
    p.cast(np.float64)
    assert p.grad().dtype == np.float64
    assert p.grad().asnumpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    _grad_of_three_times(p)   # grad_req 'write' still: the new gradient replaces it
    assert p.grad().asnumpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]


def test_constant_grad_req_stays_null_with_a_warning():
    k = gluon.Constant("k", nd.array([[1, 2], [3, 4]]))
    with pytest.warns(UserWarning, match='Constant parameter "k" does not support grad_req '
                                         'other than "null"'):
        k.grad_req = "write"
    assert k.grad_req == "null"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        k.grad_req = "null"   # no warning


def test_constant_takes_an_init_passed_to_initialize():
    # 1.9.1: [[1, 2], [3, 4]], then ones after initialize(init=One(), force_reinit=True)
    k = gluon.Constant("k", nd.array([[1, 2], [3, 4]]))
    k.initialize()
    assert k.data().asnumpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    k.initialize(force_reinit=True, init=mx.init.One())
    assert k.data().asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    # a block-wide default initializer does not replace a constant's value
    net = nn.HybridSequential()
    with net.name_scope():
        c = net.params.get_constant("c", [5.0, 6.0])
    net.initialize(mx.init.One())
    assert c.data().asnumpy().tolist() == [5.0, 6.0]


def test_parameterdict_get_does_not_change_an_existing_parameter():
    pd = gluon.ParameterDict("net_")
    w = pd.get("weight", shape=(3, 2))
    # 1.9.1: AssertionError "Cannot retrieve Parameter 'net_weight' because desired attribute
    # does not match with stored for attribute 'lr_mult': desired '3.0' vs stored '1.0'."
    with pytest.raises(AssertionError, match="lr_mult"):
        pd.get("weight", lr_mult=3.0)
    with pytest.raises(AssertionError, match="grad_req"):
        pd.get("weight", grad_req="add")
    assert w.lr_mult == 1.0 and w.grad_req == "write"
    assert pd.get("weight", lr_mult=1.0, shape=(3, 2)) is w   # equal values are a match
    # 1.9.1: KeyError "No constant named 'net_c2'. Please specify value ..."
    with pytest.raises(KeyError, match="net_c2"):
        pd.get_constant("c2")


def _prefixed_net(prefix):
    net = nn.HybridSequential(prefix=prefix)
    with net.name_scope():
        net.add(nn.Dense(4, in_units=3), nn.Dense(2, in_units=4))
    return net


def test_save_params_and_load_params_are_deprecated_aliases(tmp_path):
    net = _prefixed_net("a_")
    net.initialize(mx.init.One())
    f = str(tmp_path / "legacy.params")
    with pytest.warns(UserWarning, match="save_params is deprecated. Please use save_parameters"):
        net.save_params(f)
    # 1.9.1 writes the ParameterDict names without the block's prefix
    assert sorted(nd.load(f)) == ["dense0_bias", "dense0_weight", "dense1_bias",
                                  "dense1_weight"]
    other = _prefixed_net("b_")
    with pytest.warns(UserWarning, match="load_params is deprecated. Please use "
                                         "load_parameters"):
        other.load_params(f)
    assert other[0].weight.data().asnumpy().tolist() == [[1.0] * 3] * 4
    net.save_parameters(str(tmp_path / "new.params"))
    with pytest.warns(UserWarning, match="load_params is deprecated"):
        other.load_params(str(tmp_path / "new.params"), mx.cpu(), True, True)


def test_data_without_a_context_on_several_contexts_reads_the_current_one():
    net = nn.Dense(2, in_units=2)
    net.initialize(mx.init.One(), ctx=[mx.cpu(1), mx.cpu(2)])
    # 1.9.1: RuntimeError "Parameter 'dense0_weight' was not initialized on context cpu(0).
    # It was only initialized on [cpu(1), cpu(2)]."
    with pytest.raises(RuntimeError, match=r"not initialized on context cpu\(0\)"):
        net.weight.data()
    with mx.Context(mx.cpu(2)):
        assert net.weight.data().context == mx.cpu(2)
        assert net.weight.grad().context == mx.cpu(2)
    single = gluon.Parameter("s", shape=(1,))
    single.initialize(ctx=mx.cpu(3))
    assert single.data().context == mx.cpu(3)   # the only context, whatever the current one


def test_set_data_needs_an_initialized_or_deferred_parameter():
    p = gluon.Parameter("w", shape=5)
    # 1.9.1: AssertionError "Parameter 'w' has not been initialized"
    with pytest.raises(AssertionError, match="'w' has not been initialized"):
        p.set_data(nd.ones((5,)))
    assert p._data is None


def test_trainer_without_parameters_is_a_type_error():
    # 1.9.1: TypeError for an empty list, dict or ParameterDict (a block's .params whose
    # parameters all live in child blocks is the usual cause)
    class Net(nn.Block):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.fc = nn.Dense(2, in_units=2)

    net = Net()
    net.collect_params().initialize()
    for params in ([], {}, gluon.ParameterDict(), net.params):
        with pytest.raises(TypeError):
            gluon.Trainer(params, "sgd")


def test_attributes_user_code_reads_as_in_1_9_1():
    net = nn.Dense(2, in_units=2)
    net.initialize(mx.init.One(), ctx=[mx.cpu(0), mx.cpu(1)])
    w = net.weight
    red = w._reduce()
    assert red.context == mx.cpu(0) and red.asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert [g.context for g in w._grad] == [mx.cpu(0), mx.cpu(1)]
    w.grad_req = "null"
    assert w._grad is None
    tr = gluon.Trainer(net.collect_params(), "sgd")
    assert tr._contexts == [mx.cpu(0), mx.cpu(1)]


def test_update_on_kvstore_updates_before_the_stale_gradient_error():
    # 1.9.1 (kvstore 'device', update_on_kvstore by default): the store updates and the
    # weights are pulled before step() raises about cpu(0)'s stale gradient
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = nn.Dense(1, in_units=2)
    net.initialize(mx.init.One(), ctx=ctxs)
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with autograd.record():
        loss = net(nd.array([[1.0, 2.0]], ctx=mx.cpu(1))).sum()
    loss.backward()
    with pytest.raises(UserWarning, match="has not been updated by backward since last"):
        tr.step(1)

    def weights():
        return [np.round(d.asnumpy().astype(np.float64), 5).tolist() for d in net.weight.list_data()]

    assert weights() == [[[0.9, 0.8]], [[0.9, 0.8]]]
    tr.step(1, ignore_stale_grad=True)
    assert weights() == [[[0.8, 0.6]], [[0.8, 0.6]]]
    with autograd.record():
        losses = [net(nd.array([[1.0, 2.0]], ctx=c)).sum() for c in ctxs]
    autograd.backward(losses)
    tr.step(1)
    assert weights() == [[[0.6, 0.2]], [[0.6, 0.2]]]


def test_a_parameter_of_empty_shape_cannot_be_initialized():
    # 1.9.1 (legacy shapes): ValueError "Cannot initialize Parameter 'e' because it has
    # invalid shape: ()."
    e = gluon.Parameter("e", shape=())
    with pytest.raises(ValueError, match=r"invalid shape: \(\)"):
        e.initialize(init="ones")


def test_loading_onto_other_contexts_than_the_initialized_ones_raises(tmp_path):
    f = str(tmp_path / "c.params")
    src = nn.Dense(2, in_units=2, prefix="d_")
    src.initialize(mx.init.One())
    src.save_parameters(f)
    net = nn.Dense(2, in_units=2, prefix="d_")
    net.initialize(ctx=mx.cpu(6))
    # 1.9.1: AssertionError "Failed to load Parameter 'd_weight' on [cpu(7)] because it was
    # previous initialized on [cpu(6)]."
    with pytest.raises(AssertionError, match=r"'d_weight' on \[cpu\(7\)\]"):
        net.load_parameters(f, ctx=mx.cpu(7))
    with pytest.raises(AssertionError, match=r"on \[cpu\(7\)\]"):
        net.collect_params().load(str(tmp_path / "c.params"), ctx=mx.cpu(7),
                                  restore_prefix="d_")
    net.load_parameters(f, ctx=[mx.cpu(6)])   # the same contexts are fine
    net.load_parameters(f)                    # and so is no ctx
    assert net.weight.list_ctx() == [mx.cpu(6)]
    assert net.weight.data().asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_parameter_with_an_array_constant_init_traces_more_than_once(tmp_path):
    # the custom-layer tutorial: init=mx.init.Constant(scales.asnumpy()) on a parameter of
    # a hybridized block that is traced, then exported; 1.9.1 exports the init as
    # '["constant", {"value": [2.0]}]'
    class Scale(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.scales = self.params.get("scales", shape=(1,),
                                              init=mx.init.Constant(np.array([2.0])),
                                              differentiable=False)

        def hybrid_forward(self, F, x, scales):
            return F.broadcast_mul(x, scales)

    net = Scale(prefix="s_")
    net.initialize()
    net.hybridize()
    assert net(nd.ones((2, 1))).asnumpy().tolist() == [[2.0], [2.0]]
    net.export(str(tmp_path / "scale"))
    sym = mx.sym.load(str(tmp_path / "scale-symbol.json"))
    assert sym.attr_dict()["s_scales"]["__init__"] == '["constant", {"value": [2.0]}]'
    assert net.scales.var().attr("__init__") == '["constant", {"value": [2.0]}]'
