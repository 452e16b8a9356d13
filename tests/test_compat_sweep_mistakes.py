"""Compatibility sweep of the mistakes users make in Gluon and Module training loops: what
they see (exception class, message, warnings, how often hybrid_forward runs). Expected
behaviour was recorded from MXNet 1.9.1 (CPU build)."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon, nd


@pytest.mark.parametrize("arrays", [
    [nd.array([3., 4.], dtype="float16")],
    [nd.array([3., 4.], dtype="float64")],
    [nd.array([3.]), nd.array([4.], dtype="float64")],
])
def test_clip_global_norm_of_float16_float64_and_mixed_arrays(arrays):
    # 1.9.1's CPU build refuses these (no float16 dot; float64 fails its Concat/add_n); here
    # float16/float64 training works on the CPU, so they are clipped: norm 5, scaled to 1
    # (closed form: each element times 1 / (5 + 1e-8), in the arrays' precision)
    norm = gluon.utils.clip_global_norm(arrays, 1.0)
    assert abs(float(norm) - 5.0) < 1e-3
    got = np.concatenate([a.asnumpy().astype(np.float64) for a in arrays])
    np.testing.assert_allclose(got, [0.6, 0.8], rtol=1e-3)


@pytest.mark.parametrize("max_norm", ["1.0", None, [1.0]])
def test_clip_global_norm_with_a_bad_max_norm_raises_before_scaling(max_norm):
    # 1.9.1: AssertionError "Argument lhs must have NDArray type, but got 1.0" for a str or a
    # list, MXNetError for None; the arrays stay unchanged (ours scaled them by NaN for None)
    arrays = [nd.array([3., 4.])]
    with pytest.raises(AssertionError if max_norm is not None else mx.MXNetError):
        gluon.utils.clip_global_norm(arrays, max_norm)
    assert arrays[0].asnumpy().tolist() == [3.0, 4.0]
    # then clipping to 0 zeroes them, without a warning (recorded)
    gluon.utils.clip_global_norm(arrays, 0)
    assert arrays[0].asnumpy().tolist() == [0.0, 0.0]


def test_clip_global_norm_uses_the_smallest_value_of_an_array_max_norm():
    # 1.9.1 takes the minimum of max_norm / norm (an array) and 1: [0.6, 0.8] for
    # max_norm [1, 2] and for [2, 1] (both recorded)
    for m in ([1.0, 2.0], [2.0, 1.0]):
        arrays = [nd.array([3., 4.])]
        n = gluon.utils.clip_global_norm(arrays, nd.array(m))
        assert n == np.float32(5.0)
        np.testing.assert_allclose(arrays[0].asnumpy(), [0.6, 0.8], rtol=1e-6)


class _Printing(gluon.HybridBlock):
    def __init__(self, in_units=0, **kw):
        super().__init__(**kw)
        self.calls = []
        with self.name_scope():
            self.fc = gluon.nn.Dense(3, in_units=in_units)

    def hybrid_forward(self, F, x):
        self.calls.append(F.__name__.split(".")[-1])
        return self.fc(x)


@pytest.mark.parametrize("in_units", [0, 4])
def test_hybridized_block_traces_once_even_with_deferred_init(in_units):
    # 1.9.1: a print in hybrid_forward shows once ("Symbol") for three calls, whether or not
    # the Dense waits for its input size
    net = _Printing(in_units)
    net.initialize()
    net.hybridize()
    for shape in [(2, 4), (2, 4), (3, 4)]:
        assert net(nd.ones(shape)).shape == (shape[0], 3)
    assert net.calls == ["symbol"]


def test_hybridized_block_called_before_initialize_traces_once():
    # 1.9.1: the first call traces, then fails with RuntimeError "Parameter ... has not been
    # initialized"; after initialize() the next call runs without tracing again
    net = _Printing()
    net.hybridize()
    with pytest.raises(RuntimeError, match="has not been initialized"):
        net(nd.ones((2, 4)))
    net.initialize()
    assert net(nd.ones((2, 4))).shape == (2, 3)
    assert net.calls == ["symbol"]


def test_infer_shape_then_call_traces_once():
    # 1.9.1: infer_shape traces; the hybridized call that follows reuses that graph
    net = _Printing()
    net.initialize()
    net.hybridize()
    net.infer_shape(nd.ones((2, 4)))
    net(nd.ones((2, 4)))
    assert net.calls == ["symbol"]


def test_initializer_class_instead_of_instance_raises_assertionerror():
    # 1.9.1: AssertionError "initializer must be of string type" at initialize() (also for
    # a Dense waiting for its input size), for Parameter(init=...) and weight_initializer
    with pytest.raises(AssertionError, match="^initializer must be of string type"):
        gluon.nn.Dense(2, in_units=2).initialize(mx.init.Xavier)
    with pytest.raises(AssertionError, match="^initializer must be of string type"):
        gluon.nn.Dense(2).initialize(mx.init.Xavier)
    p = gluon.Parameter("w", shape=(2,), init=mx.init.One)
    with pytest.raises(AssertionError, match="^initializer must be of string type"):
        p.initialize()
    with pytest.raises(AssertionError, match="^initializer must be of string type"):
        gluon.nn.Dense(2, in_units=2, weight_initializer=mx.init.One).initialize()
    # an instance works
    d = gluon.nn.Dense(2, in_units=2, weight_initializer=mx.init.One())
    d.initialize()
    assert d.weight.data().asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]


def _two_device_net(**kw):
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize(mx.init.One(), ctx=ctxs)
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, **kw)
    xs = gluon.utils.split_and_load(nd.ones((4, 2)), ctxs)
    return net, tr, xs


def _backward(net, xs):
    with mx.autograd.record():
        losses = [net(x).sum() for x in xs]
    for loss in losses:
        loss.backward()


@pytest.mark.parametrize("kw", [{}, {"kvstore": "local"}])
def test_stale_gradients_on_two_devices_with_update_on_kvstore(kw):
    # 1.9.1 (update_on_kvstore, the default with two devices): step before any backward
    # raises the stale-gradient UserWarning; after one good step the gradients are never
    # marked stale again, so a second step without backward, or a backward on one device
    # only, goes through (recorded first weight rows: 0.9, 0.8, 0.7 on both devices)
    net, tr, xs = _two_device_net(**kw)
    with pytest.raises(UserWarning, match="has not been updated by backward since last"):
        tr.step(4)
    _backward(net, xs)
    tr.step(4)
    tr.step(4)
    for c in (mx.cpu(0), mx.cpu(1)):
        np.testing.assert_allclose(net.weight.data(c).asnumpy()[0], [0.8, 0.8], rtol=1e-6)
    _backward(net, xs[:1])
    tr.step(4)
    for c in (mx.cpu(0), mx.cpu(1)):
        np.testing.assert_allclose(net.weight.data(c).asnumpy()[0], [0.7, 0.7], rtol=1e-6)


@pytest.mark.parametrize("kw", [{"update_on_kvstore": False}, {"kvstore": None}])
def test_stale_gradients_on_two_devices_without_the_store_updating(kw):
    # 1.9.1: with the devices updating their own copies, each step needs a fresh backward on
    # every device (recorded: 0.9 after one step with the store, 0.95 without a store)
    net, tr, xs = _two_device_net(**kw)
    _backward(net, xs)
    tr.step(4)
    with pytest.raises(UserWarning, match="on context cpu\\(0\\) has not been updated"):
        tr.step(4)
    _backward(net, xs[:1])
    with pytest.raises(UserWarning, match="on context cpu\\(1\\) has not been updated"):
        tr.step(4)
    expected = 0.95 if "kvstore" in kw else 0.9
    np.testing.assert_allclose(net.weight.data(mx.cpu(1)).asnumpy()[0], [expected] * 2,
                               rtol=1e-6)


def test_single_device_stale_gradient_walkthrough():
    # recorded from 1.9.1 (one device, no kvstore): a step after a backward that used only
    # the first layer raises for the unused layer and updates nothing; the first layer's
    # gradients count as used by that failed step, so step(ignore_stale_grad=True) then
    # changes nothing either; batch_size 0 divides by zero before anything happens
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(4, in_units=3), gluon.nn.Dense(2, in_units=3))
    net.initialize(mx.init.One())
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with mx.autograd.record():
        y = net[0](nd.ones((2, 3))).sum()
    y.backward()
    with pytest.raises(UserWarning, match="^Gradient of Parameter `.*dense.*_bias` on context "
                                          "cpu\\(0\\) has not been updated by backward"):
        tr.step(2)
    tr.step(2, ignore_stale_grad=True)
    assert net[0].weight.data().asnumpy()[0].tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(UserWarning):
        tr.step(2)
    with pytest.raises(ZeroDivisionError):
        tr.step(0)


class _PrintingWithLSTM(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc = gluon.nn.Dense(3, flatten=False)
            self.lstm = gluon.rnn.LSTM(4, layout="NTC")

    def hybrid_forward(self, F, x):
        print("trace", F.__name__)
        return self.lstm(self.fc(x))


def test_a_print_in_hybrid_forward_shows_once_with_an_lstm_child(capsys):
    # 1.9.1: "trace mxnet.symbol" printed once for two calls of different shapes, the
    # LSTM's input size being deferred
    net = _PrintingWithLSTM()
    net.initialize()
    net.hybridize()
    assert net(nd.ones((2, 5, 4))).shape == (2, 5, 4)
    assert net(nd.ones((3, 6, 4))).shape == (3, 6, 4)
    assert capsys.readouterr().out == "trace mxnet.symbol\n"


def test_parameterdict_load_messages_name_parameters_without_the_restore_prefix(tmp_path):
    # recorded from 1.9.1: AssertionError "Parameter 'bias' is missing in file: ..." and
    # "Parameter 'extra' loaded from file: ... is not present in ParameterDict ..." (the
    # names as the file has them, without restore_prefix)
    full = str(tmp_path / "full.params")
    part = str(tmp_path / "part.params")
    nd.save(full, {"weight": nd.ones((2, 2)), "bias": nd.ones((2,)), "extra": nd.ones((1,))})
    nd.save(part, {"weight": nd.ones((2, 2))})
    d = gluon.nn.Dense(2, in_units=2, prefix="fc_")
    with pytest.raises(AssertionError, match="^Parameter 'extra' loaded from file"):
        d.collect_params().load(full, restore_prefix="fc_")
    with pytest.raises(AssertionError, match="^Parameter 'bias' is missing in file"):
        d.collect_params().load(part, restore_prefix="fc_")
    # without a prefix the full name shows
    with pytest.raises(AssertionError, match="^Parameter 'fc_bias' is missing in "):
        d.collect_params().load_dict({"fc_weight": nd.ones((2, 2))})
