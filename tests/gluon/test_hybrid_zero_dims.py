"""Hybridized graphs that create arrays with legacy 0 (unknown) dimensions, against 1.9.1.

``begin_state(batch_size=0, func=F.zeros)`` of unrolled cells (LSTM, GRU, RNN, a stacked
``HybridSequentialRNNCell``), the fused ``gluon.rnn.LSTM`` layer called without states in a
hybridized block, and ``F.zeros``/``F.ones``/``F.full`` with 0s in ``shape`` combined with
a data-dependent array: forward outputs, input and parameter gradients, for two batch sizes
in a row, with and without ``static_alloc``/``static_shape``; the exported ``-symbol.json``
(byte-equal to 1.9.1's) and the outputs of ``SymbolBlock.imports`` of it.

Fixtures: tests/golden/hybrid_zero_dims.npz, written by tools/golden/gen_hybrid_zero_dims.py
(whose case table and block builder this module replays).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
GEN = load_script("tools/golden/gen_hybrid_zero_dims.py")
GOLD = np.load(REPO / "tests" / "golden" / "hybrid_zero_dims.npz")
META = json.loads(str(GOLD["__meta__"]))


def _close(actual, expected, what):
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5, err_msg=what)


def _run(name):
    nparams = len(META["params"][name])
    params = [GOLD[f"{name}/p{j}"] for j in range(nparams)]
    with mx.name.NameManager():
        return GEN.run_case(mx, name, params=params, record=GOLD)


@pytest.mark.parametrize("name", list(GEN.CASES))
def test_outputs_and_gradients(name):
    net, res = _run(name)
    got = [[n, list(p.shape)] for n, p in net.collect_params().items()]
    assert got == META["params"][name]
    for k in range(len(GEN.CASES[name][2])):
        for part in ["y", "dx"] + [f"g{j}" for j in range(len(got))]:
            key = f"{name}/{k}/{part}"
            _close(res[key], GOLD[key], key)


@pytest.mark.parametrize("name", [n for n, c in GEN.CASES.items() if c[3]])
def test_export_and_imports(name, tmp_path):
    net, res = _run(name)
    xs = [GOLD[f"{name}/{k}/x"] for k in range(len(GEN.CASES[name][2]))]
    text, ys = GEN.export_and_import(mx, name, net, tmp_path, xs)
    assert text == META["json"][name]
    for k, y in enumerate(ys):
        _close(y, GOLD[f"{name}/imports/{k}/y"], f"{name}/imports/{k}/y")


def test_issue_script_lstm_cell_xavier():
    """The reported script: Xavier weights, recorded call and backward."""
    net = GEN.build(mx, "lstm_cell")
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = mx.nd.random.uniform(shape=(4, 3, 5))
    x.attach_grad()
    with mx.autograd.record():
        y = net(x)
    y.backward()
    assert y.shape == (4, 3, 8)
    assert x.grad.shape == (4, 3, 5) and float(mx.nd.abs(x.grad).sum().asscalar()) > 0
    # inference (not recorded) on another batch size: buffers laid out anew
    assert net(mx.nd.ones((2, 3, 5))).shape == (2, 3, 8)


class _Creator(mx.gluon.HybridBlock):
    def __init__(self, make):
        super().__init__()
        self._make = make

    def hybrid_forward(self, F, x):
        return x * 2 + self._make(F)


@pytest.mark.parametrize("make, low, high", [
    (lambda F: F.random.uniform(low=1, high=2, shape=(0, 8)), 1.0, 2.0),
    (lambda F: F.random.normal(loc=0, scale=1e-3, shape=(0, 0)), -0.01, 0.01),
])
def test_random_samplers_with_zero_dims(make, low, high):
    # 1.9.1 infers the sampler's shape from its consumer too; values are random there, so
    # only the shape and the range of the draws are checked
    net = _Creator(make)
    net.hybridize()
    for n in (4, 6):
        x = mx.nd.ones((n, 8))
        d = (net(x) - x * 2).asnumpy()
        assert d.shape == (n, 8)
        assert (d >= low).all() and (d <= high).all()
        assert np.unique(d).size > 1


def test_inconsistent_creator_shape_names_operator():
    net = _Creator(lambda F: F.zeros(shape=(3, 8)))
    net.hybridize()
    net2 = _Creator(lambda F: F.zeros(shape=(0, 8)))
    net2.hybridize()
    assert net2(mx.nd.ones((4, 8))).shape == (4, 8)
    with pytest.raises(MXNetError, match="elemwise_add|_plus"):
        net(mx.nd.ones((4, 8)))


def test_cached_op_infers_zero_dims():
    """mx.nd.CachedOp on a symbol with the same pattern, batch size changing."""
    data = mx.sym.var("data")
    sym = mx.sym.FullyConnected(data, num_hidden=4, no_bias=True, name="fc") + \
        mx.sym.ones(shape=(0, 4))
    op = mx.nd.CachedOp(sym, flags=[("static_alloc", True), ("static_shape", True)])
    w = mx.nd.array(np.arange(12, dtype="f4").reshape(4, 3) / 10)
    for n in (2, 5):
        x = mx.nd.array(np.arange(3 * n, dtype="f4").reshape(n, 3))
        out = op(x, w)
        want = x.asnumpy() @ w.asnumpy().T + 1
        np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)


def test_simple_bind_same_pattern():
    """The symbolic graph bound by simple_bind: forward and backward for batch 4."""
    data = mx.sym.var("data")
    h = mx.sym.FullyConnected(data, num_hidden=4, no_bias=True, name="fc")
    sym = mx.sym.sum((h + mx.sym.zeros(shape=(0, 4))) * mx.sym.full(shape=(0, 0), val=3.0))
    ex = sym.simple_bind(mx.cpu(), data=(4, 3))
    ex.arg_dict["data"][:] = 1.0
    ex.arg_dict["fc_weight"][:] = 0.5
    ex.forward(is_train=True)
    assert float(ex.outputs[0].asscalar()) == pytest.approx(4 * 4 * 1.5 * 3)
    ex.backward(mx.nd.ones((1,)))   # sum is not a loss: 1.9.1 needs its head gradient
    np.testing.assert_allclose(ex.grad_dict["fc_weight"].asnumpy(), np.full((4, 3), 12.0))
