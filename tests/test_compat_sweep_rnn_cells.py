"""Compatibility sweep: gluon.rnn cells and layers as user scripts drive them.

Expected values were recorded by running the same code under MXNet 1.9.1 (CPU).
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon


def _set_params(block, seed, scale=0.5):
    """Deterministic parameters: uniform draws from a seeded NumPy stream, in sorted-name order."""
    rs = np.random.RandomState(seed)
    params = block.collect_params()
    for name in sorted(params.keys()):
        p = params[name]
        p.set_data(mx.nd.array(rs.uniform(-scale, scale, p.shape), dtype=p.dtype))


def _close(actual, expected, atol=2e-5):
    np.testing.assert_allclose(actual.asnumpy(), np.array(expected), rtol=0, atol=atol)


# -- _unfuse: a fused layer as a stack of cells ----------------------------------------------------

# recorded from 1.9.1: (layer, kwargs, bidirectional) -> repr of the stack (lines joined by '|'),
# the last output step and the last returned state, for the inputs and parameters built below
_UNFUSE_CASES = [
    ("RNN", {"activation": "tanh"}, False,
     "HybridSequentialRNNCell(|(0): RNNCell(4 -> 2, tanh)|(1): RNNCell(2 -> 2, tanh)|)",
     [[-0.01147, 0.01878], [-0.45219, 0.44463]],
     [[-0.01147, 0.01878], [-0.45219, 0.44463]]),
    ("RNN", {"activation": "tanh"}, True,
     "HybridSequentialRNNCell(|(0): BidirectionalCell(forward=RNNCell(4 -> 2, tanh), "
     "backward=RNNCell(4 -> 2, tanh))|(1): BidirectionalCell(forward=RNNCell(4 -> 2, tanh), "
     "backward=RNNCell(4 -> 2, tanh))|)",
     [[-0.07052, 0.58663, -0.42201, -0.71865], [-0.66448, 0.35053, -0.13995, -0.55498]],
     [[-0.04169, -0.40318], [0.21423, -0.34658]]),
    ("LSTM", {}, False,
     "HybridSequentialRNNCell(|(0): LSTMCell(4 -> 8)|(1): LSTMCell(2 -> 8)|)",
     [[0.1497, 0.0821], [0.12376, 0.08623]],
     [[0.26582, 0.23425], [0.22933, 0.22927]]),
    ("LSTM", {}, True,
     "HybridSequentialRNNCell(|(0): BidirectionalCell(forward=LSTMCell(4 -> 8), "
     "backward=LSTMCell(4 -> 8))|(1): BidirectionalCell(forward=LSTMCell(4 -> 8), "
     "backward=LSTMCell(4 -> 8))|)",
     [[0.14656, 0.07161, -0.10916, -0.16948], [0.16528, 0.03396, -0.11959, -0.1533]],
     [[-0.61114, -0.50384], [-0.62647, -0.51642]]),
    ("GRU", {}, False,
     "HybridSequentialRNNCell(|(0): GRUCell(4 -> 6)|(1): GRUCell(2 -> 6)|)",
     [[0.15998, -0.43525], [0.25167, -0.39026]],
     [[0.15998, -0.43525], [0.25167, -0.39026]]),
    ("GRU", {}, True,
     "HybridSequentialRNNCell(|(0): BidirectionalCell(forward=GRUCell(4 -> 6), "
     "backward=GRUCell(4 -> 6))|(1): BidirectionalCell(forward=GRUCell(4 -> 6), "
     "backward=GRUCell(4 -> 6))|)",
     [[0.13255, -0.2991, -0.17385, -0.05924], [0.0108, -0.29256, -0.30321, -0.03414]],
     [[-0.46708, -0.08606], [-0.44385, 1e-05]]),
]


@pytest.mark.parametrize("case", _UNFUSE_CASES, ids=lambda c: f"{c[0]}-bi{c[2]}")
def test_unfuse_matches_recorded_values_and_fused_layer(case):
    kind, kwargs, bidirectional, text, last_out, last_state = case
    layer = getattr(gluon.rnn, kind)(2, num_layers=2, bidirectional=bidirectional, input_size=4,
                                     prefix="m_", **kwargs)
    layer.initialize()
    _set_params(layer, 1)
    x = mx.nd.array(np.random.RandomState(4).uniform(-1, 1, (3, 2, 4)))
    stack = layer._unfuse()
    assert type(stack) is gluon.rnn.HybridSequentialRNNCell
    assert repr(stack).replace("\n", "|") == text
    # the stack shares the layer's Parameters (same names, same objects)
    assert sorted(stack.collect_params().keys()) == sorted(layer.collect_params().keys())
    assert stack.prefix == "m_"
    if bidirectional:
        assert [c.prefix for c in stack._children.values()] == ["m_", "m_"]
        assert stack[0]._children["r_cell"].prefix == "m_r0_"
    else:
        assert [c.prefix for c in stack._children.values()] == ["m_l0_", "m_l1_"]
    out, states = stack.unroll(3, x, layout="TNC", merge_outputs=True)
    _close(out[-1], last_out)
    _close(states[-1], last_state)
    assert len(states) == (2 if kind == "LSTM" else 1) * 2 * (2 if bidirectional else 1)
    _close(out, layer(x).asnumpy(), atol=1e-5)


def test_unfuse_dropout_deferred_input_and_unsupported_options():
    layer = gluon.rnn.GRU(3, dropout=0.5, num_layers=3, layout="NTC", prefix="d_")
    stack = layer._unfuse()
    # recorded from 1.9.1
    assert repr(stack).replace("\n", "|") == (
        "HybridSequentialRNNCell(|(0): GRUCell(None -> 9)|(1): DropoutCell(rate=0.5, axes=())|"
        "(2): GRUCell(3 -> 9)|(3): DropoutCell(rate=0.5, axes=())|(4): GRUCell(3 -> 9)|)")
    assert [c.prefix for c in stack._children.values()] == [
        "d_l0_", "d_dropout0_", "d_l1_", "d_dropout1_", "d_l2_"]
    assert list(stack.collect_params().keys()) == [
        f"d_l{i}_{k}" for i in range(3)
        for k in ("i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias")]
    layer.initialize()
    out, _ = stack.unroll(2, mx.nd.ones((1, 2, 5)), merge_outputs=True)
    assert out.shape == (1, 2, 3)
    assert layer.l0_i2h_weight.shape == (9, 5)     # the deferred size reached the fused layer
    assert stack[0].i2h_weight is layer.l0_i2h_weight
    with pytest.raises(AssertionError, match="_unfuse"):
        gluon.rnn.LSTM(3, input_size=4, projection_size=2)._unfuse()
    with pytest.raises(AssertionError, match="_unfuse"):
        gluon.rnn.LSTM(3, input_size=4, state_clip_min=-1, state_clip_max=1)._unfuse()


# -- load_parameters: the list of names in the missing-parameter message ----------------------------

def test_load_parameters_missing_message_abbreviates_long_lists(tmp_path):
    layer = gluon.rnn.LSTM(3, num_layers=2, bidirectional=True, input_size=4)
    layer.initialize()
    path = str(tmp_path / "unfused.params")
    layer._unfuse().save_parameters(path)
    other = gluon.rnn.LSTM(3, num_layers=2, bidirectional=True, input_size=4)
    # recorded from 1.9.1: 16 names in the file, shown as the first 3, '...', the last 4
    expected = ("Parameter '_unfused.0.l_cell.i2h_weight' is missing in file '" + path +
                "', which contains parameters: '0.l_cell.i2h_weight', '0.l_cell.h2h_weight', "
                "'0.l_cell.i2h_bias', ..., '1.r_cell.i2h_weight', '1.r_cell.h2h_weight', "
                "'1.r_cell.i2h_bias', '1.r_cell.h2h_bias'. Set allow_missing=True to ignore "
                "missing parameters.")
    with pytest.raises(AssertionError) as info:
        other.load_parameters(path)
    assert str(info.value) == expected


# -- error messages name the class the user called -------------------------------------------------

def test_wrong_arguments_are_reported_against_the_called_class():
    # recorded from 1.9.1 (Python's own TypeError text)
    with pytest.raises(TypeError, match=r"^GRUCell\.__init__\(\) got an unexpected keyword "
                                        r"argument 'activation'"):
        gluon.rnn.GRUCell(2, activation="relu")
    with pytest.raises(TypeError, match=r"^SequentialRNNCell\.begin_state\(\) takes 1 "
                                        r"positional argument but 2 were given"):
        gluon.rnn.SequentialRNNCell().begin_state(2)
    with pytest.raises(TypeError, match=r"^HybridSequentialRNNCell\.begin_state\(\) takes 1 "
                                        r"positional argument but 2 were given"):
        gluon.rnn.HybridSequentialRNNCell().begin_state(2)
    stack = gluon.rnn.SequentialRNNCell()
    stack.add(gluon.rnn.LSTMCell(3))
    stack.add(gluon.rnn.GRUCell(4))
    assert [s.shape for s in stack.begin_state(batch_size=2)] == [(2, 3), (2, 3), (2, 4)]
