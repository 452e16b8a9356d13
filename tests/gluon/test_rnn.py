"""gluon.rnn against 1.9.1: fused layers and cells with weights set from NumPy (outputs, final
states, gradients, imperative and hybridized), parameter names and shapes before and after
deferred initialisation, reprs; plus behaviour checked without fixtures (the packing operator,
symbols, state checks, save/load, training-mode randomness, modifier rules).

Fixtures: tests/golden/gluon_rnn.npz, written by tools/golden/gen_gluon_rnn.py (whose case
tables this module replays).
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.base import MXNetError
from mxnet.gluon import nn, rnn

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]


def _load_table():
    return load_script("tools/golden/gen_gluon_rnn.py")


TABLE = _load_table()
GOLD = np.load(REPO / "tests" / "golden" / "gluon_rnn.npz")
META = json.loads(str(GOLD["__meta__"]))
NS = TABLE.namespace(mx)


def close(actual, expected, what, rtol=1e-4, atol=1e-5):
    actual = actual.asnumpy() if hasattr(actual, "asnumpy") else np.asarray(actual)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


def _build(expr):
    with mx.name.NameManager():
        return eval(expr, NS)  # noqa: S307 - expressions from the golden table


def _params_info(net):
    return [[name, list(p.shape) if p.shape is not None else None]
            for name, p in net.collect_params().items()]


def _set_params(net, key):
    for j, p in enumerate(net.collect_params().values()):
        p.set_data(mx.nd.array(GOLD[f"{key}/p{j}"], dtype=p.dtype))


def _flat(y):
    if isinstance(y, (list, tuple)):
        return [a for item in y for a in _flat(item)]
    return [y]


# ---------------------------------------------------------------------------------------------
# fused layers


@pytest.mark.parametrize("case", TABLE.LAYERS, ids=lambda c: c.id)
def test_layer_matches_reference(case):
    key = case.id
    meta = META["layers"][key]
    net = _build(case.expr)
    assert net.prefix == meta["prefix"]
    assert _params_info(net) == meta["params_before"]
    assert repr(net) == meta["repr_before"]

    x = GOLD[f"{key}/x"]
    dtype = x.dtype
    net.initialize()
    net(mx.nd.array(x, dtype=dtype))            # finishes deferred initialisation
    assert _params_info(net) == meta["params_after"]
    assert repr(net) == meta["repr_after"]
    batch = case.shape[net._layout.find("N")]
    assert [list(s["shape"]) for s in net.state_info(batch)] == meta["state_shapes"]
    n_states = len(meta["state_shapes"])
    states = [GOLD[f"{key}/s{i}"] for i in range(n_states)]
    _set_params(net, key)
    params = list(net.collect_params().values())
    tol = dict(rtol=1e-9, atol=1e-10) if dtype == np.float64 else {}

    for mode in ("imperative", "hybrid"):
        if mode == "hybrid":
            net.hybridize()
        xa = mx.nd.array(x, dtype=dtype)
        xa.attach_grad()
        sa = [mx.nd.array(s, dtype=dtype) for s in states]
        for s in sa:
            s.attach_grad()
        net.collect_params().zero_grad()
        if case.grad:
            with autograd.record(train_mode=case.train):
                res = net(xa, sa) if case.states else net(xa)
        else:
            res = net(xa, sa) if case.states else net(xa)
        if case.states:
            assert isinstance(res, tuple if mode == "imperative" else list) and len(res) == 2
            y, hs = res[0], list(res[1])
            assert len(hs) == n_states
        else:
            assert isinstance(res, mx.nd.NDArray)
            y, hs = res, []
        close(y, GOLD[f"{key}/y"], f"{key} {mode} output", **tol)
        for i, h in enumerate(hs):
            close(h, GOLD[f"{key}/hs{i}"], f"{key} {mode} state {i}", **tol)
        if not case.grad:
            continue
        heads = [mx.nd.array(GOLD[f"{key}/dy"], dtype=dtype)]
        heads += [mx.nd.array(GOLD[f"{key}/dhs{i}"], dtype=dtype) for i in range(len(hs))]
        autograd.backward([y] + hs, heads)
        close(xa.grad, GOLD[f"{key}/dx"], f"{key} {mode} input gradient", **tol)
        if case.states:
            for i, s in enumerate(sa):
                close(s.grad, GOLD[f"{key}/ds{i}"], f"{key} {mode} state gradient {i}", **tol)
        for j, p in enumerate(params):
            close(p.grad(), GOLD[f"{key}/g{j}"], f"{key} {mode} gradient of {p.name}", **tol)


@pytest.mark.parametrize("case", TABLE.SEQLEN, ids=lambda c: c.id)
@pytest.mark.parametrize("mode", ["imperative", "hybrid"])
def test_layer_sequence_length(case, mode):
    """use_sequence_length follows cuDNN (1.9.1 on a GPU): the expected values are 1.9.1's
    cells unrolled with valid_length, fed the same weights."""
    key = case.id
    net = _build(TABLE.fused_expr(case))
    net.initialize()
    if mode == "hybrid":
        net.hybridize()
    x, lens = GOLD[f"{key}/x"], GOLD[f"{key}/len"]
    n_states = 2 if case.mode == "lstm" else 1
    states = [mx.nd.array(GOLD[f"{key}/s{i}"]) for i in range(n_states)]
    net(mx.nd.array(x), states, mx.nd.array(lens))
    _set_params(net, key)
    y, hs = net(mx.nd.array(x), states, mx.nd.array(lens))
    close(y, GOLD[f"{key}/y"], f"{key} output")
    for i, h in enumerate(hs):
        close(h, GOLD[f"{key}/hs{i}"], f"{key} state {i}")


def test_layer_sequence_length_deferred_and_grad():
    # unlike 1.9.1, a deferred LSTM with use_sequence_length traces fine
    net = rnn.LSTM(3, use_sequence_length=True, bidirectional=True)
    net.initialize()
    x = mx.nd.random.normal(shape=(4, 2, 5))
    x.attach_grad()
    lens = mx.nd.array([2, 4])
    with autograd.record():
        y = net(x, None, lens)
    y.backward()
    assert net.l0_i2h_weight.shape == (12, 5)
    assert np.all(y.asnumpy()[2:, 0] == 0)
    assert np.all(x.grad.asnumpy()[2:, 0] == 0)      # steps past the end get no gradient
    assert np.any(x.grad.asnumpy()[:2, 0] != 0)


@pytest.mark.parametrize("k", range(len(TABLE.EXPORTS)))
def test_layer_export_matches_reference(k, tmp_path):
    expr, shape, with_states = TABLE.EXPORTS[k]
    net = _build(expr)
    net.initialize()
    net.hybridize()
    x = mx.nd.ones(shape)
    y = net(x, net.begin_state(shape[net._layout.find("N")])) if with_states else net(x)
    net.export(str(tmp_path / "net"))
    graph = json.loads((tmp_path / "net-symbol.json").read_text())
    assert TABLE.export_nodes(graph) == META["exports"][k]
    # and the files load back into a block that computes the same
    names = ["data0", "data1", "data2", "data3"][:len(graph["arg_nodes"]) - len(
        net.collect_params())]
    block = mx.gluon.SymbolBlock.imports(str(tmp_path / "net-symbol.json"), names,
                                         str(tmp_path / "net-0000.params"))
    states = net.begin_state(shape[net._layout.find("N")])
    again = block(x, *states)
    first = _flat(y)
    for a, b in zip(_flat(again), first):
        close(a, b.asnumpy(), f"{expr} reloaded")


def test_layer_without_states_uses_zeros():
    net = rnn.GRU(3, layout="NTC")
    net.initialize()
    x = mx.nd.random.normal(shape=(2, 4, 3))
    y0 = net(x)
    y1, _ = net(x, net.begin_state(2))
    close(y0, y1.asnumpy(), "zero begin state")
    assert net.skip_states is False


def test_layer_state_checks():
    net = rnn.LSTM(4, num_layers=2, input_size=5)
    net.initialize()
    x = mx.nd.zeros((3, 2, 5))
    with pytest.raises(ValueError, match="Invalid recurrent state shape"):
        net(x, [mx.nd.zeros((2, 3, 4)), mx.nd.zeros((2, 3, 4))])
    # a single array stands for a one-state list
    gru = rnn.GRU(2)
    gru.initialize()
    y, hs = gru(mx.nd.zeros((3, 2, 5)), mx.nd.zeros((1, 2, 2)))
    assert y.shape == (3, 2, 2) and hs[0].shape == (1, 2, 2)
    with pytest.raises(AssertionError):
        rnn.RNN(3, layout="CNT")


def test_layer_begin_state():
    net = rnn.LSTM(4, num_layers=2, bidirectional=True, projection_size=3, prefix="enc_")
    states = net.begin_state(5)
    assert [s.shape for s in states] == [(4, 5, 3), (4, 5, 4)]
    assert all(s.dtype == np.float32 for s in states)
    ones = net.begin_state(2, func=mx.nd.ones, dtype="float64")
    assert ones[0].dtype == np.float64 and float(ones[1].sum().asscalar()) == 4 * 2 * 4
    syms = net.begin_state(func=mx.sym.var)
    assert [s.name for s in syms] == ["enc_h0_0", "enc_h0_1"]
    info = rnn.GRU(3, dtype="float64").state_info(7)
    assert info == [{"shape": (1, 7, 3), "__layout__": "LNC", "dtype": "float64"}]


def test_layer_symbolic_call():
    net = rnn.LSTM(3, layout="NTC", prefix="l_")
    out = net(mx.sym.var("data"))
    assert isinstance(out, mx.sym.Symbol)
    args = out.list_arguments()
    assert args == ["data", "l_l0_i2h_weight", "l_l0_h2h_weight", "l_l0_i2h_bias",
                    "l_l0_h2h_bias"]
    arg_shapes, out_shapes, _ = out.infer_shape(data=(2, 5, 4))
    shapes = dict(zip(args, arg_shapes))
    assert shapes["l_l0_i2h_weight"] == (12, 4) and out_shapes == [(2, 5, 3)]

    net.initialize()
    x = mx.nd.random.normal(shape=(2, 5, 4))
    expect = net(x)
    feed = {name: p.data() for name, p in net.collect_params().items()}
    got = out.eval(data=x, **feed)[0]
    close(got, expect.asnumpy(), "symbolic call")

    out, states = net(mx.sym.var("data"), net.begin_state(func=mx.sym.var))
    assert len(states) == 2 and isinstance(out, mx.sym.Symbol)


def test_layer_hybridized_state_format_is_cached():
    # as in 1.9.1 the cached graph keeps the output format of its first call
    net = rnn.GRU(3)
    net.initialize()
    net.hybridize()
    x = mx.nd.random.normal(shape=(2, 2, 3))
    out = net(x, net.begin_state(2))
    assert isinstance(out, list) and len(out) == 2
    again = net(x)
    assert isinstance(again, list) and len(again) == 2


def test_layer_save_load_names(tmp_path):
    net = rnn.LSTM(3, num_layers=2, bidirectional=True, input_size=2)
    net.initialize()
    keys = sorted(net._collect_params_with_prefix())
    assert keys[0] == "_unfused.0.l_cell.h2h_bias" and len(keys) == 16
    single = rnn.GRU(3, input_size=2)
    assert sorted(single._collect_params_with_prefix())[0] == "_unfused.0.h2h_bias"
    path = str(tmp_path / "lstm.params")
    net.save_parameters(path)
    assert sorted(mx.nd.load(path)) == keys
    other = rnn.LSTM(3, num_layers=2, bidirectional=True)
    other.load_parameters(path, ctx=mx.current_context())
    x = mx.nd.random.normal(shape=(3, 2, 2))
    close(other(x), net(x).asnumpy(), "reloaded layer")


def test_layer_state_clip():
    net = rnn.LSTM(4, state_clip_min=-0.05, state_clip_max=0.05, state_clip_nan=True)
    net.initialize(mx.init.Uniform(2.0))
    x = mx.nd.random.normal(shape=(6, 3, 2))
    _, (h, c) = net(x, net.begin_state(3))
    assert float(c.abs().max().asscalar()) <= 0.05 + 1e-7
    free = rnn.LSTM(4)
    free.initialize()
    for name, p in free.collect_params().items():
        p.set_data(net.collect_params()[name.replace(free.prefix, net.prefix)].data())
    _, (_, c2) = free(x, free.begin_state(3))
    assert float(c2.abs().max().asscalar()) > 0.05


def test_layer_dropout_training():
    # both dtypes drop between layers (1.9.1's float32 oneDNN path silently does not: not
    # copied)
    for dtype, dropped in (("float64", True), ("float32", True)):
        net = rnn.RNN(5, num_layers=2, dropout=0.5, activation="tanh", dtype=dtype)
        net.initialize(mx.init.Uniform(1.0))
        x = mx.nd.random.normal(shape=(4, 3, 5), dtype=dtype)
        predict = net(x)
        with autograd.record():
            train = net(x)
        train.backward()
        assert np.allclose(train.asnumpy(), predict.asnumpy()) != dropped
        assert net.l1_i2h_weight.grad().shape == (5, 5)


def test_layer_trainer_step():
    net = rnn.GRU(3, num_layers=2, input_size=3)
    net.initialize()
    trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
    x = mx.nd.random.normal(shape=(4, 2, 3))
    before = net.l0_i2h_weight.data().asnumpy().copy()
    with autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    trainer.step(2)
    assert not np.allclose(net.l0_i2h_weight.data().asnumpy(), before)


def test_layer_cast():
    net = rnn.LSTM(2, input_size=3)
    net.initialize()
    net.cast("float64")
    assert net._dtype == "float64"
    y = net(mx.nd.ones((2, 1, 3), dtype="float64"))
    assert y.dtype == np.float64


# ---------------------------------------------------------------------------------------------
# cells


def _cell_cases():
    for case in TABLE.CELLS:
        for k, u in enumerate(case.unrolls):
            yield pytest.param(case, k, u, id=f"{case.id}-u{k}")


def _run_unroll(cell, u, key, T, mode):
    x = GOLD[f"{key}/x"]
    n_states = sum(1 for name in GOLD.files if name.startswith(f"{key}/s"))
    states = [GOLD[f"{key}/s{i}"] for i in range(n_states)]
    lens = GOLD[f"{key}/len"] if u.valid else None
    xa = mx.nd.array(x)
    xa.attach_grad()
    sa = [mx.nd.array(s) for s in states]
    for s in sa:
        s.attach_grad()
    va = None if lens is None else mx.nd.array(lens)
    cell.collect_params().zero_grad()
    with autograd.record(train_mode=u.train):
        if mode == "imperative":
            inp = xa
            if u.as_list:
                inp = list(mx.nd.split(xa, num_outputs=T, axis=u.layout.find("T"),
                                       squeeze_axis=True))
            y, hs = cell.unroll(T, inp, begin_state=sa or None, layout=u.layout,
                                merge_outputs=u.merge, valid_length=va)
        else:
            net = TABLE.make_unroller(mx)(cell, T, u.layout, u.merge, len(sa), va is not None)
            net.hybridize()
            y, hs = net(xa, *(list(sa) + ([va] if va is not None else [])))
    return xa, sa, y, list(hs)


@pytest.mark.parametrize("case,k,u", list(_cell_cases()))
def test_cell_matches_reference(case, k, u):
    key = TABLE.unroll_id(case.id, k)
    meta = META["cells"][case.id]
    cell = _build(case.expr)
    if k == 0:
        assert cell.prefix == meta["prefix"]
        assert _params_info(cell) == meta["params_before"]
        assert repr(cell) == meta["repr_before"]
    N, T, _ = case.shape
    cell.initialize()
    cell.unroll(T, mx.nd.array(GOLD[f"{key}/x"]), layout=u.layout, merge_outputs=True)
    if k == 0:
        assert _params_info(cell) == meta["params_after"]
        assert repr(cell) == meta["repr_after"]
        assert [list(s["shape"]) for s in cell.state_info(N)] == meta["state_shapes"]
    _set_params(cell, key)
    params = list(cell.collect_params().values())
    kind = meta["kinds"][key]
    modes = ["imperative"]
    if isinstance(cell, mx.gluon.HybridBlock) and not u.as_list:
        modes.append("hybrid")     # also where 1.9.1 itself cannot trace the unroll
    for mode in modes:
        xa, sa, y, hs = _run_unroll(cell, u, key, T, mode)
        if mode == "imperative":
            assert isinstance(y, list) == (kind == "list")
        ys = _flat(y)
        n_out = sum(1 for name in GOLD.files if name.startswith(f"{key}/y"))
        assert len(ys) == n_out
        for t, yt in enumerate(ys):
            close(yt, GOLD[f"{key}/y{t}"], f"{key} {mode} output {t}")
        for i, h in enumerate(hs):
            close(h, GOLD[f"{key}/hs{i}"], f"{key} {mode} state {i}")
        if not u.grad:
            continue
        heads = ys + hs
        autograd.backward(heads, [mx.nd.array(GOLD[f"{key}/dh{i}"]) for i in range(len(heads))])
        close(xa.grad, GOLD[f"{key}/dx"], f"{key} {mode} input gradient")
        for i, s in enumerate(sa):
            close(s.grad, GOLD[f"{key}/ds{i}"], f"{key} {mode} state gradient {i}")
        for j, p in enumerate(params):
            close(p.grad(), GOLD[f"{key}/g{j}"], f"{key} {mode} gradient of {p.name}")


@pytest.mark.parametrize("expr", TABLE.REPRS)
def test_repr_matches_reference(expr):
    assert repr(_build(expr)) == META["reprs"][expr]


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


def test_cell_step_by_hand():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    h = rng.standard_normal((2, 2)).astype(np.float32)
    c = rng.standard_normal((2, 2)).astype(np.float32)
    cell = rnn.LSTMCell(2, input_size=3)
    cell.initialize(mx.init.Normal(0.5))
    wx, wh = cell.i2h_weight.data().asnumpy(), cell.h2h_weight.data().asnumpy()
    cell.i2h_bias.set_data(mx.nd.array(rng.standard_normal(8)))
    bx, bh = cell.i2h_bias.data().asnumpy(), cell.h2h_bias.data().asnumpy()
    out, (h1, c1) = cell(mx.nd.array(x), [mx.nd.array(h), mx.nd.array(c)])
    g = x @ wx.T + bx + h @ wh.T + bh
    i, f, cand, o = np.split(g, 4, axis=1)
    c_ref = _sigmoid(f) * c + _sigmoid(i) * np.tanh(cand)
    h_ref = _sigmoid(o) * np.tanh(c_ref)
    close(c1, c_ref, "lstm cell state")
    close(out, h_ref, "lstm output")
    assert out is h1 or np.array_equal(out.asnumpy(), h1.asnumpy())


def test_hybridized_cell_steps_match():
    cell = rnn.GRUCell(3)
    cell.initialize()
    x = mx.nd.random.normal(shape=(2, 4, 5))
    y0, s0 = cell.unroll(4, x, merge_outputs=True)
    cell.hybridize()                 # every step now runs the cached graph
    y1, s1 = cell.unroll(4, x, merge_outputs=True)
    close(y1, y0.asnumpy(), "hybridized steps")
    close(s1[0], s0[0].asnumpy(), "hybridized state")


def test_rnn_cell_leaky_activation():
    # 1.9.1 registers the LeakyReLU block as a child and then cannot unroll; here it works
    cell = rnn.RNNCell(3, activation=nn.LeakyReLU(0.1), input_size=2)
    cell.initialize(mx.init.Normal(1.0))
    x = mx.nd.random.normal(shape=(2, 4, 2))
    y, _ = cell.unroll(4, x, merge_outputs=True)
    ref = rnn.RNNCell(3, activation="relu", input_size=2)
    ref.initialize()
    for name in ("i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias"):
        getattr(ref, name).set_data(getattr(cell, name).data())
    # LeakyReLU(0.1)(a) = relu(a) - 0.1 * relu(-a): check the first step by hand
    wx, bx = cell.i2h_weight.data().asnumpy(), cell.i2h_bias.data().asnumpy()
    bh = cell.h2h_bias.data().asnumpy()
    a = x.asnumpy()[:, 0] @ wx.T + bx + bh
    close(y[:, 0], np.where(a > 0, a, 0.1 * a), "leaky step 0")


def test_cell_counters_and_names():
    cell = rnn.GRUCell(3, prefix="g_")
    states = cell.begin_state(batch_size=2)
    assert [s.shape for s in states] == [(2, 3)]
    syms = cell.begin_state(func=mx.sym.var)
    assert syms[0].name == "g_begin_state_1"
    cell.reset()
    assert cell._counter == -1 and cell._init_counter == -1
    out, new = cell(mx.sym.var("x"), [mx.sym.var("h")])
    assert out.name == "g_t0_out" and cell._counter == 0


def test_symbolic_unroll_without_begin_state():
    cell = rnn.LSTMCell(3, prefix="c_")
    outs, states = cell.unroll(4, mx.sym.var("data"), layout="NTC", merge_outputs=True)
    arg_shapes, out_shapes, _ = outs.infer_shape(data=(2, 4, 5))
    assert out_shapes == [(2, 4, 3)]
    assert dict(zip(outs.list_arguments(), arg_shapes))["c_i2h_weight"] == (12, 5)
    cell.initialize()
    x = mx.nd.random.normal(shape=(2, 4, 5))
    expect, _ = cell.unroll(4, x, layout="NTC", merge_outputs=True)
    feed = {name: p.data() for name, p in cell.collect_params().items()}
    close(outs.eval(data=x, **feed)[0], expect.asnumpy(), "symbolic unroll")
    listed, _ = cell.unroll(4, mx.sym.var("data"), layout="NTC", merge_outputs=False)
    assert isinstance(listed, list) and len(listed) == 4


def test_merge_outputs_none_keeps_input_form():
    cell = rnn.GRUCell(2)
    cell.initialize()
    x = mx.nd.random.normal(shape=(3, 4, 2))
    out, _ = cell.unroll(4, x, merge_outputs=None)
    assert isinstance(out, list) and len(out) == 4       # plain cells step through a list
    seq = rnn.SequentialRNNCell()
    seq.add(rnn.DropoutCell(0.0))
    seq.add(rnn.DropoutCell(0.0))
    out, _ = seq.unroll(4, x, merge_outputs=None)   # dropout cells pass a tensor through
    assert isinstance(out, mx.nd.NDArray) and out.shape == (3, 4, 2)
    seq.add(rnn.GRUCell(2))
    seq.initialize()
    out, _ = seq.unroll(4, x, merge_outputs=None)
    assert isinstance(out, list)


def test_sequential_cells_step_and_index():
    seq = rnn.HybridSequentialRNNCell()
    seq.add(rnn.LSTMCell(3))
    seq.add(rnn.RNNCell(2))
    seq.initialize()
    assert len(seq) == 2 and isinstance(seq[1], rnn.RNNCell)
    states = seq.begin_state(batch_size=4)
    assert [s.shape for s in states] == [(4, 3), (4, 3), (4, 2)]
    out, new = seq(mx.nd.ones((4, 5)), states)
    assert out.shape == (4, 2) and len(new) == 3
    bad = rnn.SequentialRNNCell()
    bad.add(rnn.BidirectionalCell(rnn.GRUCell(2), rnn.GRUCell(2)))
    with pytest.raises(AssertionError):
        bad(mx.nd.ones((1, 2)), bad.begin_state(batch_size=1))
    with pytest.raises(ValueError):
        rnn.HybridSequentialRNNCell().add(rnn.SequentialRNNCell())


def test_bidirectional_cannot_step():
    bi = rnn.BidirectionalCell(rnn.GRUCell(2), rnn.GRUCell(2))
    with pytest.raises(NotImplementedError):
        bi(mx.nd.ones((1, 2)), bi.begin_state(batch_size=1))


def test_modifier_rules():
    base = rnn.LSTMCell(3, prefix="b_")
    zone = rnn.ZoneoutCell(base, 0.5, 0.5)
    assert zone.prefix == "b_zoneout" and zone.params is base.params
    res_base = rnn.GRUCell(2, prefix="r_")
    assert rnn.ResidualCell(res_base).prefix == "r_residualcell"
    with pytest.raises(AssertionError):
        base.begin_state(batch_size=2)
    with pytest.raises(AssertionError):
        rnn.ResidualCell(base)
    states = zone.begin_state(batch_size=2)            # symbols by default, as in 1.9.1
    assert all(isinstance(s, mx.sym.Symbol) for s in states)
    nd_states = zone.begin_state(batch_size=2, func=mx.nd.zeros)
    assert [s.shape for s in nd_states] == [(2, 3), (2, 3)]
    with pytest.raises(AssertionError):
        rnn.ZoneoutCell(rnn.BidirectionalCell(rnn.GRUCell(2), rnn.GRUCell(2)))
    with pytest.raises(AssertionError):
        rnn.DropoutCell("0.5")


def test_zoneout_training_keeps_old_values():
    base = rnn.RNNCell(4, input_size=3)
    zone = rnn.ZoneoutCell(base, zoneout_outputs=0.5, zoneout_states=0.0)
    zone.initialize(mx.init.Normal(1.0))
    x = mx.nd.random.normal(shape=(8, 3))
    states = zone.begin_state(batch_size=8, func=mx.nd.zeros)
    base._modified = False
    new, _ = base(x, states)
    base._modified = True
    zone.reset()
    with autograd.record():
        out, _ = zone(x, states)
    out, new = out.asnumpy(), new.asnumpy()
    kept = out == 0                                   # the previous output starts at zero
    assert kept.any() and (~kept).any()
    np.testing.assert_allclose(out[~kept], new[~kept], rtol=1e-6)


def test_dropout_cell_training():
    cell = rnn.DropoutCell(0.5)
    x = mx.nd.ones((4, 6, 5))
    out, states = cell.unroll(6, x, merge_outputs=True)
    assert states == [] and np.array_equal(out.asnumpy(), x.asnumpy())
    with autograd.record():
        out, _ = cell.unroll(6, x, merge_outputs=True)
    vals = set(np.unique(out.asnumpy()).tolist())
    assert vals <= {0.0, 2.0} and len(vals) == 2


def test_residual_cell_adds_input():
    base = rnn.GRUCell(3)
    cell = rnn.ResidualCell(base)
    cell.initialize()
    x = mx.nd.random.normal(shape=(2, 3))
    out, _ = cell(x, cell.begin_state(batch_size=2, func=mx.nd.zeros))
    base._modified = False
    plain, _ = base(x, base.begin_state(batch_size=2))
    close(out, (plain + x).asnumpy(), "residual")


def test_unroll_length_checks():
    cell = rnn.RNNCell(2)
    cell.initialize()
    with pytest.raises(AssertionError):
        cell.unroll(3, mx.nd.ones((2, 4, 2)))
    with pytest.raises(AssertionError):
        cell.unroll(3, None)


# ---------------------------------------------------------------------------------------------
# the packing operator


def test_rnn_param_concat_forward_and_grad():
    a = mx.nd.array(np.arange(6).reshape(2, 3))
    b = mx.nd.array([7, 8])
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = mx.nd._internal._rnn_param_concat(a, b, dim=0)
        (y * mx.nd.arange(8)).sum().backward()
    np.testing.assert_array_equal(y.asnumpy(), [0, 1, 2, 3, 4, 5, 7, 8])
    np.testing.assert_array_equal(a.grad.asnumpy(), [[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(b.grad.asnumpy(), [6, 7])
    with pytest.raises(MXNetError):
        mx.nd._internal._rnn_param_concat(a, b, dim=1)


def test_rnn_param_concat_infers_missing_shapes():
    w = mx.sym.var("w", shape=(4, 0))
    v = mx.sym.var("v", shape=(4, 0))
    b = mx.sym.var("b")
    cat = mx.sym._internal._rnn_param_concat(w, v, b, dim=0)
    # forwards
    _, out_shapes, _ = cat.infer_shape(w=(4, 2), v=(4, 2), b=(3,))
    assert out_shapes == [(19,)]
    # backwards: the two alike incomplete inputs share what is left
    x = mx.sym.var("x")
    net = mx.sym.elemwise_add(cat, x)
    arg_shapes, _, _ = net.infer_shape(x=(27,), b=(3,))
    assert dict(zip(net.list_arguments(), arg_shapes)) == {"w": (4, 3), "v": (4, 3), "b": (3,),
                                                           "x": (27,)}
    with pytest.raises(MXNetError):
        net.infer_shape(x=(26,), b=(3,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        partial, _, _ = net.infer_shape_partial(b=(3,))
    assert dict(zip(net.list_arguments(), partial))["w"] in ((4, 0), ())
