"""Gluon core: parameters, naming, deferred init, hybridize, export/import, save/load."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon


class Affine(gluon.HybridBlock):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        with self.name_scope():
            self.weight = self.params.get("weight", shape=(units, 0), allow_deferred_init=True)
            self.bias = self.params.get("bias", shape=(units,), init="zeros", allow_deferred_init=True)

    def hybrid_forward(self, F, x, weight, bias):
        return F.relu(F.FullyConnected(x, weight, bias, num_hidden=self.units))


class Two(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.a = Affine(5)
            self.b = Affine(2)

    def hybrid_forward(self, F, x):
        return self.b(self.a(x))


def _data():
    return mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (4, 3)))


def test_names_and_deferred_shapes():
    net = Two(prefix="two_")
    names = list(net.collect_params().keys())
    assert names == ["two_affine0_weight", "two_affine0_bias", "two_affine1_weight", "two_affine1_bias"]
    assert net.a.weight.shape == (5, 0)
    net.initialize()
    with pytest.raises(gluon.DeferredInitializationError):
        net.a.weight.data()
    net(_data())
    assert net.a.weight.shape == (5, 3) and net.b.weight.shape == (2, 5)
    assert list(net._collect_params_with_prefix()) == ["a.weight", "a.bias", "b.weight", "b.bias"]


def test_uninitialized_parameter_error_names_it():
    p = gluon.Parameter("w", shape=(2, 3))
    with pytest.raises(mx.MXNetError, match="'w' has not been initialized"):
        p.data()


def test_hybridized_matches_imperative_forward_and_backward():
    x = _data()
    net = Two(prefix="m_")
    net.initialize(mx.init.Xavier())
    grads = []
    outs = []
    for hybrid in (False, True):
        if hybrid:
            net.hybridize()
        with autograd.record():
            y = net(x)
            loss = (y * y).sum()
        loss.backward()
        outs.append(y.asnumpy())
        grads.append(net.a.weight.grad().asnumpy().copy())
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-6)
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-6)


def test_gradient_matches_closed_form():
    net = Affine(1, prefix="aff_")
    net.initialize(mx.init.One())
    x = mx.nd.array([[1.0, 2.0, 3.0]])
    with autograd.record():
        y = net(x).sum()
    y.backward()
    assert net.weight.grad().asnumpy().tolist() == [[1.0, 2.0, 3.0]]
    assert net.bias.grad().asnumpy().tolist() == [1.0]


def test_export_and_symbolblock_imports(tmp_path):
    x = _data()
    net = Two(prefix="e_")
    net.initialize(mx.init.Xavier())
    net.hybridize()
    y = net(x)
    prefix = str(tmp_path / "model")
    net.export(prefix, epoch=3)
    keys = sorted(mx.nd.load(prefix + "-0003.params"))
    assert keys == ["arg:e_affine0_bias", "arg:e_affine0_weight", "arg:e_affine1_bias",
                    "arg:e_affine1_weight"]
    block = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], prefix + "-0003.params")
    np.testing.assert_allclose(block(x).asnumpy(), y.asnumpy(), rtol=1e-6)


def test_save_load_parameters_round_trip(tmp_path):
    x = _data()
    net = Two(prefix="s_")
    net.initialize(mx.init.Xavier())
    y = net(x).asnumpy()
    f = str(tmp_path / "p.params")
    net.save_parameters(f)
    assert sorted(mx.nd.load(f)) == ["a.bias", "a.weight", "b.bias", "b.weight"]
    other = Two(prefix="t_")
    other.load_parameters(f, ctx=mx.current_context())
    np.testing.assert_allclose(other(x).asnumpy(), y, rtol=1e-6)
    with pytest.raises(mx.MXNetError, match="missing"):
        Affine(3).load_parameters(f)


def test_trainer_sgd_step_updates_weights():
    net = Affine(1, prefix="tr_")
    net.initialize(mx.init.One())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
    x = mx.nd.array([[1.0, 2.0, 3.0]])
    with autograd.record():
        y = net(x).sum()
    y.backward()
    trainer.step(1)
    assert net.weight.data().asnumpy().tolist() == [[0.5, 0.0, -0.5]]


def test_trainer_across_two_cpu_devices_sums_gradients():
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = Affine(1, prefix="dp_")
    net.initialize(mx.init.One(), ctx=ctxs)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.25})
    data = mx.nd.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    parts = gluon.utils.split_and_load(data, ctxs)
    with autograd.record():
        losses = [net(p).sum() for p in parts]
    for loss in losses:
        loss.backward()
    trainer.step(2)
    expected = 1 - 0.25 * np.array([[2.0, 3.0, 4.0]]) / 2
    for ctx in ctxs:
        np.testing.assert_allclose(net.weight.data(ctx).asnumpy(), expected, rtol=1e-6)


def test_trainer_stale_gradient_raises_as_1_9_1():
    a, b = Affine(1, prefix="sa_"), Affine(1, prefix="sb_")
    for blk in (a, b):
        blk.initialize(mx.init.One())
    params = a.collect_params()
    params.update(b.collect_params())
    trainer = gluon.Trainer(params, "sgd", {"learning_rate": 0.1})
    x = mx.nd.array([[1.0, 2.0, 3.0]])
    b(x)  # finishes b's deferred initialisation
    with autograd.record():
        y = a(x).sum()  # b is not used: its gradients are stale
    y.backward()
    # the Trainer orders parameters by name, so 1.9.1 names sb_bias (checked with Dense
    # layers of the same prefixes)
    with pytest.raises(UserWarning, match="sb_bias"):
        trainer.step(1)
    with autograd.record():
        y = a(x).sum()
    y.backward()
    before = b.weight.data().asnumpy().copy()
    trainer.step(1, ignore_stale_grad=True)
    np.testing.assert_array_equal(b.weight.data().asnumpy(), before)
    assert a.weight.data().asnumpy().tolist() != [[1.0, 1.0, 1.0]]


def test_set_data_on_deferred_parameter_uses_its_contexts():
    p = gluon.Parameter("w", shape=(2, 0), allow_deferred_init=True)
    p.initialize(ctx=[mx.cpu(1)])
    p.set_data(mx.nd.ones((2, 3)))
    assert p.list_ctx() == [mx.cpu(1)] and p.shape == (2, 3)
    assert p.data(mx.cpu(1)).asnumpy().tolist() == [[1.0] * 3] * 2


def test_parameters_without_their_own_init_take_the_default_whatever_their_name():
    # 1.9.1: {'my_bias': [3, 3], 'gamma': [3, 3], 'w': [3, 3], 'fixed_beta': [1, 1]}
    pd = gluon.ParameterDict()
    for n in ("my_bias", "gamma", "w"):
        pd.get(n, shape=(2,))
    pd.get("fixed_beta", shape=(2,), init="ones")
    pd.initialize(mx.init.Constant(3))
    got = {k: v.data().asnumpy().tolist() for k, v in pd.items()}
    assert got == {"my_bias": [3, 3], "gamma": [3, 3], "w": [3, 3], "fixed_beta": [1, 1]}
    p = gluon.Parameter("w", shape=(4,))
    p.initialize()                       # the default Uniform(0.07), not a name rule
    v = p.data().asnumpy()
    assert np.all(np.abs(v) <= 0.07) and np.any(v != 0)


def test_trainer_orders_parameters_by_name_as_1_9_1():
    net = gluon.nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(gluon.nn.Embedding(4, 2), gluon.nn.Dense(3, in_units=2))
    net.initialize()
    trainer = gluon.Trainer(net.collect_params(), "sgd")
    names = [p.name for p in trainer._params]
    assert names == sorted(net.collect_params().keys())
    assert names[0] == "net_dense0_bias"      # 1.9.1: embedding weight is index 2
