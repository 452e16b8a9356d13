"""Regressions found by running realistic MXNet 1.9.1 user scripts under both libraries.

Every expected value below was recorded by running the same code under MXNet 1.9.1.
"""
import pytest

import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import nn, rnn


class _ArangeInit(mx.init.Initializer):
    """A user initializer that is never registered (1.9.1 accepts such classes)."""

    def _init_weight(self, name, arr):
        arr[:] = nd.arange(arr.size).reshape(arr.shape) * 0.5


def test_unregistered_initializer_subclass_in_gluon():
    # recorded from 1.9.1: [[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]] [0.0, 0.0] for both nets
    expected_w = [[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]]
    net = nn.Dense(2, in_units=3)
    net.initialize(_ArangeInit())
    assert net.weight.data().asnumpy().tolist() == expected_w
    assert net.bias.data().asnumpy().tolist() == [0.0, 0.0]
    deferred = nn.Dense(2)
    deferred.initialize(_ArangeInit())
    deferred(nd.ones((1, 3)))
    assert deferred.weight.data().asnumpy().tolist() == expected_w
    # an explicit init argument beats the parameter's own init (1.9.1: [1.0, 1.0])
    p = gluon.Parameter("w", shape=(2,), init=_ArangeInit())
    p.initialize(init=mx.init.One())
    assert p.data().asnumpy().tolist() == [1.0, 1.0]


def test_split_data_uneven_gives_extra_rows_to_first_slices():
    # recorded from 1.9.1
    parts = gluon.utils.split_data(nd.arange(10), 3, even_split=False)
    assert [s.asnumpy().tolist() for s in parts] == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0],
                                                     [7.0, 8.0, 9.0]]
    parts = gluon.utils.split_data(nd.ones((2, 7)), 4, batch_axis=1, even_split=False)
    assert [s.shape for s in parts] == [(2, 2), (2, 2), (2, 2), (2, 1)]
    parts = gluon.utils.split_and_load(nd.arange(5), [mx.cpu(0), mx.cpu(1)], even_split=False)
    assert [s.asnumpy().tolist() for s in parts] == [[0.0, 1.0, 2.0], [3.0, 4.0]]
    assert [s.context for s in parts] == [mx.cpu(0), mx.cpu(1)]
    with pytest.raises(ValueError, match="evenly split"):
        gluon.utils.split_data(nd.arange(10), 3)


class Two(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.a = nn.Dense(3, in_units=4)
            self.b = nn.Dense(3, in_units=4, params=self.a.params)
            self.body = nn.HybridSequential()
            self.body.add(nn.Dense(2, in_units=3), nn.Dense(2, in_units=2))
            self.lstm = rnn.LSTM(2, input_size=2)

    def hybrid_forward(self, F, x, y):
        h = self.body(self.a(x) + self.b(y))
        out, _ = self.lstm(h.expand_dims(0), [F.zeros((1, 2, 2)), F.zeros((1, 2, 2))])
        return out, h


# recorded from 1.9.1 (Block.summary of Two on two (2, 4) inputs)
_SUMMARY_191 = """\
--------------------------------------------------------------------------------
        Layer (type)                                Output Shape         Param #
================================================================================
               Input                              (2, 4), (2, 4)               0
             Dense-1                                      (2, 3)              15
             Dense-2                                      (2, 3)              15
             Dense-3                                      (2, 2)               8
             Dense-4                                      (2, 2)               6
              LSTM-5           (1, 2, 2), [(1, 2, 2), (1, 2, 2)]              48
               Two-6                           (1, 2, 2), (2, 2)               0
================================================================================
Parameters in forward computation graph, duplicate included
   Total params: 92
   Trainable params: {trainable}
   Non-trainable params: {frozen}
Shared params in forward computation graph: 15
Unique parameters in model: 77
--------------------------------------------------------------------------------
"""


def test_block_summary_layout(capsys):
    net = Two()
    net.initialize(mx.init.Constant(0.1))
    x = nd.ones((2, 4))
    net.summary(x, x)
    got = capsys.readouterr().out
    assert got == _SUMMARY_191.format(trainable=92, frozen=0)
    # 1.9.1: 20 trainable / 72 non-trainable once a.weight (used twice) and the LSTM freeze
    net.a.weight.grad_req = "null"
    net.lstm.collect_params().setattr("grad_req", "null")
    net.summary(x, x)
    assert "   Trainable params: 20\n   Non-trainable params: 72\n" in capsys.readouterr().out
    net.hybridize()
    with pytest.raises(AssertionError, match="must not be hybridized to print summary"):
        net.summary(x, x)


def test_load_parameters_of_a_prefix_stripped_parameterdict_file(tmp_path):
    # 1.9.1 loads a ParameterDict.save(strip_prefix=...) file through load_parameters (its
    # keys have no '.', so it restores them with the block's prefix)
    def make(value):
        net = nn.HybridSequential(prefix="n_")
        with net.name_scope():
            net.add(nn.Dense(2, in_units=3), nn.Dense(1, in_units=2))
        net.initialize(mx.init.Constant(value))
        return net
    src = make(0.5)
    fname = str(tmp_path / "pd.params")
    src.collect_params().save(fname, strip_prefix="n_")
    assert sorted(nd.load(fname)) == ["dense0_bias", "dense0_weight", "dense1_bias",
                                      "dense1_weight"]
    dst = make(0.0)
    dst.load_parameters(fname)
    x = nd.ones((1, 3))
    # closed form (biases keep their zeros init): 0.5 * 2 * (3 * 0.5) = 1.5; 1.9.1 gives 1.5
    assert dst(x).asnumpy().tolist() == [[1.5]]


def test_float16_arrays_print_as_in_1_9_1():
    # 1.9.1 formats with NumPy 1.x, whose float16 text differs from NumPy 2's (recorded
    # from 1.9.1: "[5000.]", "array([5000.], dtype=float16)", "5000.0")
    assert str(mx.nd.array([5000.0], dtype="float16")).splitlines()[1] == "[5000.]"
    assert repr(mx.np.array([5000.0], dtype="float16")) == "array([5000.], dtype=float16)"
    assert str(mx.np.array(5000.0, dtype="float16")) == "5000.0"
    assert str(mx.np.array([5000.0, 1.5], dtype="float16")) == "[5.0e+03 1.5e+00]"
