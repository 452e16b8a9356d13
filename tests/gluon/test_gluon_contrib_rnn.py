"""gluon.contrib.rnn against 1.9.1: convolutional RNN/LSTM/GRU cells (1-3 D), LSTMPCell and
VariationalDropoutCell replayed from tools/golden/gen_gluon_contrib.py (parameter names and
shapes before/after deferred initialisation, reprs, unrolled outputs and states with and
without valid lengths, explicit begin states, hybridized, gradients); plus dropout-mask
structure in training mode and argument checks.

Fixtures: tests/golden/gluon_contrib.npz.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.gluon import rnn
from mxnet.gluon.contrib import rnn as crnn
from mxnet.gluon.contrib.rnn.rnn_cell import dynamic_unroll

from .._scripts import load_script

TABLE = load_script("tools/golden/gen_gluon_contrib.py")
GOLD = np.load(TABLE.OUT_NPZ)
META = json.loads(str(GOLD["__meta__"]))


def _check(prefix, info, arrays, want):
    for key in ("before", "after", "repr_before", "repr_after", "init"):
        if key in want:
            assert info[key] == want[key], f"{prefix}: {key}"
    keys = sorted(k.split("/", 1)[1] for k in GOLD.files if k.startswith(prefix + "/"))
    assert sorted(arrays) == keys, prefix
    for k in keys:
        expected = GOLD[f"{prefix}/{k}"]
        assert arrays[k].shape == expected.shape, f"{prefix}/{k}"
        np.testing.assert_allclose(arrays[k], expected, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{prefix}/{k}")


@pytest.mark.parametrize("case", TABLE.CELLS, ids=[c[0] for c in TABLE.CELLS])
def test_cell_golden(case):
    info, arrays = TABLE.run_cell(mx, case)
    _check(case[0], info, arrays, META["cells"][case[0]])


@pytest.mark.parametrize("expr", [e for e in TABLE.REPRS if "crnn." in e])
def test_repr(expr):
    assert repr(TABLE.build(mx, expr)) == META["reprs"][expr]


def test_state_info_and_alias():
    cell = crnn.Conv2DGRUCell((3, 6, 5), 4, (3, 1), 3, conv_layout="NCHW")
    assert cell.prefix == "conv_gru0_" or cell.prefix.startswith("conv_gru")
    assert cell.state_info(2) == [{"shape": (2, 4, 4, 5), "__layout__": "NCHW"}]
    nhwc = crnn.Conv1DLSTMCell((9, 2), 3, 3, 3, conv_layout="NWC")
    assert nhwc.state_info(1) == [{"shape": (1, 7, 3), "__layout__": "NWC"}] * 2
    assert nhwc.i2h_weight.shape == (12, 3, 2) and nhwc.h2h_weight.shape == (12, 3, 3)
    lstmp = crnn.LSTMPCell(6, 2)
    assert lstmp.state_info(3) == [{"shape": (3, 2), "__layout__": "NC"},
                                   {"shape": (3, 6), "__layout__": "NC"}]


def test_argument_checks():
    with pytest.raises(AssertionError, match="Only support odd number"):
        crnn.Conv2DLSTMCell((1, 4, 4), 2, 3, 2)
    with pytest.raises(AssertionError, match="For 2D convolution"):
        crnn.Conv2DRNNCell((1, 4, 4), 2, (3, 3, 3), 3)
    with pytest.raises(AssertionError, match="variational state dropout"):
        crnn.VariationalDropoutCell(rnn.BidirectionalCell(rnn.GRUCell(2), rnn.GRUCell(2)),
                                    drop_states=0.5)


def test_variational_masks_shared_over_time():
    mx.random.seed(3)
    base = rnn.RNNCell(50, activation="relu", input_size=40)
    cell = crnn.VariationalDropoutCell(base, drop_inputs=0.5, drop_states=0.5,
                                       drop_outputs=0.5)
    cell.initialize(mx.init.One())
    x = mx.nd.ones((2, 3, 40))
    with autograd.record():
        outs, _ = cell.unroll(3, x, merge_outputs=False)
    zero = [(o.asnumpy() == 0) for o in outs]
    # one output mask for every step, about half of the units dropped
    assert all((z == zero[0]).all() for z in zero)
    assert 0.2 < zero[0].mean() < 0.8
    assert cell.drop_outputs_mask is not None
    cell.reset()
    assert cell.drop_inputs_mask is None and cell.drop_outputs_mask is None
    # predict mode: identity
    plain = crnn.VariationalDropoutCell(rnn.RNNCell(50, input_size=40), drop_inputs=0.9)
    plain.initialize(mx.init.One())
    y, _ = plain.unroll(3, x, merge_outputs=True)
    twin = rnn.RNNCell(50, input_size=40)
    twin.initialize(mx.init.One())
    ref, _ = twin.unroll(3, x, merge_outputs=True)
    np.testing.assert_allclose(y.asnumpy(), ref.asnumpy(), rtol=1e-6)


def test_dynamic_unroll_matches_unroll():
    cell = rnn.LSTMCell(4, input_size=3)
    cell.initialize(mx.init.Uniform(0.5))
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (5, 2, 3)))
    valid = mx.nd.array([2, 5])
    begin = cell.begin_state(batch_size=2)
    out, states = dynamic_unroll(cell, x, begin, layout="TNC", valid_length=valid)
    ref, ref_states = cell.unroll(5, x, begin_state=begin, layout="TNC", merge_outputs=True,
                                  valid_length=valid)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(states, ref_states):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
