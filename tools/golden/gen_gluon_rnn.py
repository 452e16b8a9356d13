"""Record gluon.rnn fused layers and cells under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_gluon_rnn.py

Every block is built from a Python expression under a fresh ``mx.name.NameManager`` (so name
counters start at 0), initialised, run once to finish deferred initialisation, then given
NumPy-made parameter values with ``collect_params()[name].set_data``.

- ``LAYERS``: fused RNN/LSTM/GRU layers. One forward (with or without begin states) under
  ``autograd.record`` and, unless ``grad`` is off, one backward with fixed head gradients for
  the output and the final states; then the same forward hybridized.
- ``SEQLEN``: fused layers with ``use_sequence_length=True``. 1.9.1's CPU kernel ignores the
  lengths (only cuDNN honours them), so the expected values come from the equivalent cells
  unrolled with ``valid_length`` (a BidirectionalCell for two directions), fed the layer's
  weights.
- ``CELLS``: cells unrolled in several ways (``Unroll``: layout, merge_outputs, valid_length,
  explicit begin state, gradients, hybridized inside a wrapper block).

``tests/golden/gluon_rnn.npz`` holds arrays under ``<case>/...`` keys (``x``, ``s<i>`` begin
states, ``p<j>`` parameter values in ``collect_params()`` order, ``y`` or ``y<t>`` outputs,
``hs<i>`` final states, ``dy``/``dhs<i>`` head gradients, ``dx``/``ds<i>``/``g<j>``
gradients) and, under ``__meta__``, a JSON string with prefixes, parameter names and shapes
(before and after deferred initialisation) and reprs. ``tests/gluon/test_rnn.py`` imports this
module (it must stay importable without mxnet) and replays the cases.
"""
from __future__ import annotations

import contextlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "gluon_rnn.npz"


def namespace(mx):
    """The names the case expressions may use, for a given ``mxnet`` module."""
    from mxnet.gluon import nn, rnn

    def seq(*cells):
        net = rnn.SequentialRNNCell()
        for c in cells:
            net.add(c)
        return net

    def hseq(*cells):
        net = rnn.HybridSequentialRNNCell()
        for c in cells:
            net.add(c)
        return net

    return {"mx": mx, "nn": nn, "rnn": rnn, "seq": seq, "hseq": hseq}


def make_unroller(mx):
    """A HybridBlock class that unrolls a cell inside ``hybrid_forward`` (for hybridizing)."""
    from mxnet.gluon import HybridBlock

    class Unroller(HybridBlock):
        def __init__(self, cell, length, layout, merge, n_states, use_valid):
            super().__init__(prefix="unroller_")
            self.cell = cell
            self._args = (length, layout, merge, n_states, use_valid)

        def hybrid_forward(self, F, x, *rest):
            length, layout, merge, n_states, use_valid = self._args
            rest = list(rest)
            valid = rest.pop() if use_valid else None
            begin = rest[:n_states] if n_states else None
            out, states = self.cell.unroll(length, x, begin_state=begin, layout=layout,
                                           merge_outputs=merge, valid_length=valid)
            return out, states

    return Unroller


def seed_of(text):
    return zlib.crc32(text.encode())


# ---------------------------------------------------------------------------------------------
# case tables


@dataclass
class Layer:
    """A fused layer ``expr`` run on ``x`` of ``shape`` (in the layer's layout)."""

    id: str
    expr: str
    shape: tuple
    states: bool = True      # pass begin states (random) and get the final states back
    train: bool = True       # autograd.record(train_mode=...)
    grad: bool = True


LAYERS = [
    Layer("rnn_relu", "rnn.RNN(4, input_size=3)", (5, 2, 3)),
    Layer("rnn_tanh_ntc", "rnn.RNN(4, activation='tanh', layout='NTC')", (2, 5, 3), states=False),
    Layer("rnn_tanh_bi2", "rnn.RNN(3, num_layers=2, activation='tanh', bidirectional=True)",
          (4, 2, 3)),
    Layer("rnn_relu_2", "rnn.RNN(3, num_layers=2, i2h_bias_initializer='ones')", (3, 2, 2),
          states=False),
    Layer("lstm", "rnn.LSTM(4)", (5, 2, 3)),
    Layer("lstm_bi2", "rnn.LSTM(3, num_layers=2, bidirectional=True)", (4, 3, 5)),
    Layer("lstm_ntc_nostate", "rnn.LSTM(3, layout='NTC', num_layers=2)", (2, 4, 3),
          states=False),
    # 1.9.1 cannot train a projected LSTM on the CPU: forward in predict mode only
    Layer("lstm_proj", "rnn.LSTM(5, projection_size=3, num_layers=2)", (4, 2, 3), train=False,
          grad=False),
    Layer("lstm_proj_bi_ntc", "rnn.LSTM(4, projection_size=2, bidirectional=True, layout='NTC')",
          (2, 3, 3), train=False, grad=False),
    Layer("lstm_dropout_predict", "rnn.LSTM(3, num_layers=2, dropout=0.5)", (3, 2, 2),
          train=False, grad=False),
    Layer("gru", "rnn.GRU(4)", (5, 2, 3)),
    Layer("gru_bi2_ntc", "rnn.GRU(3, num_layers=2, bidirectional=True, layout='NTC')",
          (2, 4, 3)),
    Layer("gru_nostate", "rnn.GRU(3, input_size=3, prefix='mygru_')", (4, 2, 3), states=False),
    Layer("gru_f64", "rnn.GRU(3, dtype='float64')", (3, 2, 2)),
]


@dataclass
class SeqLen:
    """A fused layer with use_sequence_length (TNC) checked against cells with valid_length."""

    id: str
    mode: str            # lstm | gru | rnn_tanh | rnn_relu
    hidden: int
    bidirectional: bool
    shape: tuple         # (T, N, C)
    lengths: tuple


SEQLEN = [
    SeqLen("seqlen_lstm_bi", "lstm", 3, True, (4, 3, 2), (4, 1, 3)),
    SeqLen("seqlen_gru", "gru", 3, False, (5, 2, 3), (2, 5)),
    SeqLen("seqlen_rnn_tanh_bi", "rnn_tanh", 2, True, (3, 2, 2), (1, 3)),
]


def fused_expr(case):
    # input_size is given: 1.9.1 cannot trace an LSTM with use_sequence_length symbolically
    # (composing RNN with state_cell and sequence_length fails), so no deferred inference
    cls = {"lstm": "rnn.LSTM", "gru": "rnn.GRU"}.get(case.mode)
    bi = f", bidirectional=True, input_size={case.shape[2]}" if case.bidirectional else \
        f", input_size={case.shape[2]}"
    if cls is None:
        act = case.mode[4:]
        return f"rnn.RNN({case.hidden}, activation='{act}'{bi}, use_sequence_length=True)"
    return f"{cls}({case.hidden}{bi}, use_sequence_length=True)"


def cell_expr(case):
    if case.mode == "lstm":
        return f"rnn.LSTMCell({case.hidden})"
    if case.mode == "gru":
        return f"rnn.GRUCell({case.hidden})"
    return f"rnn.RNNCell({case.hidden}, activation='{case.mode[4:]}')"


@dataclass
class Unroll:
    """One way to unroll a cell case."""

    layout: str = "NTC"
    merge: object = True           # merge_outputs: True, False or None
    valid: bool = False            # pass valid_length
    begin: bool = False            # pass random begin states
    grad: bool = False             # backward from outputs and final states
    hybrid: bool = True            # also run hybridized inside Unroller (hybrid cells only)
    train: bool = False            # autograd.record(train_mode=...)
    as_list: bool = False          # pass the inputs as a list of steps


@dataclass
class Cell:
    id: str
    expr: str
    shape: tuple                   # (N, T, C) for NTC runs; TNC runs swap the first two
    unrolls: tuple


_BASIC = (Unroll(), Unroll(merge=False, begin=True), Unroll(layout="TNC", valid=True),
          Unroll(layout="TNC", merge=False, valid=True, begin=True, grad=True),
          Unroll(merge=None, as_list=True, hybrid=False), Unroll(grad=True, begin=True))

CELLS = [
    Cell("rnncell_tanh", "rnn.RNNCell(4)", (2, 3, 3), _BASIC),
    Cell("rnncell_relu", "rnn.RNNCell(4, activation='relu', input_size=3)", (2, 3, 3),
         (Unroll(), Unroll(layout="TNC", valid=True, begin=True, grad=True))),
    # (1.9.1 cannot unroll an RNNCell whose activation is a LeakyReLU block: the block becomes
    # a child without ``reset``; test_rnn.py checks that case by hand)
    Cell("rnncell_softrelu", "rnn.RNNCell(3, activation='softrelu')", (2, 3, 2),
         (Unroll(begin=True),)),
    Cell("lstmcell", "rnn.LSTMCell(4)", (3, 4, 3), _BASIC),
    Cell("lstmcell_act", "rnn.LSTMCell(3, activation='relu', recurrent_activation='softsign')",
         (2, 3, 2), (Unroll(begin=True, grad=True),)),
    Cell("grucell", "rnn.GRUCell(4)", (2, 4, 3), _BASIC),
    Cell("seqcell", "seq(rnn.LSTMCell(3), rnn.GRUCell(4))", (2, 3, 2),
         (Unroll(hybrid=False), Unroll(merge=False, begin=True, hybrid=False),
          Unroll(layout="TNC", valid=True, hybrid=False, grad=True))),
    Cell("hseqcell", "hseq(rnn.RNNCell(3), rnn.LSTMCell(4))", (2, 3, 2),
         (Unroll(), Unroll(merge=False, begin=True), Unroll(layout="TNC", valid=True, grad=True))),
    Cell("bicell", "rnn.BidirectionalCell(rnn.LSTMCell(3), rnn.GRUCell(3))", (2, 4, 2),
         (Unroll(), Unroll(merge=False, begin=True), Unroll(valid=True, grad=True),
          Unroll(layout="TNC", merge=False, valid=True), Unroll(merge=None, as_list=True,
                                                                hybrid=False))),
    Cell("dropoutcell", "seq(rnn.LSTMCell(3), rnn.DropoutCell(0.5), rnn.GRUCell(3))", (2, 3, 2),
         (Unroll(hybrid=False), Unroll(merge=False, hybrid=False))),
    Cell("residualcell", "rnn.ResidualCell(rnn.GRUCell(3))", (2, 3, 3),
         (Unroll(), Unroll(merge=False, begin=True), Unroll(layout="TNC", valid=True, grad=True),
          # 1.9.1 cannot trace this one (its masked inputs stay one grouped symbol)
          Unroll(merge=False, valid=True, hybrid=False))),
    Cell("zoneoutcell", "rnn.ZoneoutCell(rnn.LSTMCell(3), 0.5, 0.5)", (2, 3, 2),
         (Unroll(), Unroll(merge=False, begin=True))),
    Cell("hseq_bi", "hseq(rnn.BidirectionalCell(rnn.LSTMCell(3), rnn.LSTMCell(3)), "
         "rnn.LSTMCell(2))", (2, 3, 2), (Unroll(), Unroll(layout="TNC", valid=True))),
]

# Fused layers hybridized, run once on ``shape`` (with begin states when the flag is set) and
# exported: the graph's nodes (op, name, attrs, inputs; variables without their __shape__,
# which 1.9.1 leaves at 0 for deferred input sizes) must match 1.9.1's.
EXPORTS = [
    ("rnn.LSTM(3, bidirectional=True, layout='NTC')", (2, 4, 5), False),
    ("rnn.GRU(4, num_layers=2, dropout=0.5)", (3, 2, 3), True),
    ("rnn.LSTM(4, projection_size=2, num_layers=2, input_size=3)", (3, 2, 3), True),
    ("rnn.RNN(2, activation='tanh', prefix='r_')", (3, 2, 3), False),
]


def export_nodes(graph):
    """The comparable part of an exported -symbol.json."""
    nodes = []
    for n in graph["nodes"]:
        attrs = {k: v for k, v in (n.get("attrs") or {}).items() if k != "__shape__"}
        nodes.append([n["op"], n["name"], attrs, n["inputs"]])
    return {"nodes": nodes, "heads": graph["heads"], "arg_nodes": graph["arg_nodes"]}


# Reprs of blocks that are only constructed.
REPRS = [
    "rnn.RNN(4)", "rnn.RNN(4, activation='tanh', layout='NTC', input_size=3)",
    "rnn.LSTM(5, num_layers=2, bidirectional=True, projection_size=3, dropout=0.25)",
    "rnn.GRU(4, input_size=3, dropout=0.5)", "rnn.RNNCell(4)", "rnn.LSTMCell(4, input_size=3)",
    "rnn.GRUCell(5)", "rnn.DropoutCell(0.5, axes=(1,))",
    "seq(rnn.LSTMCell(3), rnn.DropoutCell(0.5), rnn.ResidualCell(rnn.GRUCell(3)))",
    "hseq(rnn.RNNCell(3, activation='relu'), rnn.LSTMCell(3))",
    "rnn.BidirectionalCell(rnn.LSTMCell(3), rnn.LSTMCell(3))",
    "rnn.ZoneoutCell(rnn.RNNCell(3), 0.1, 0.2)",
]


def valid_lengths(case_id, n, t):
    """Per-sample lengths in [1, t] (float32, as 1.9.1's sequence ops take them)."""
    rng = np.random.default_rng(seed_of(case_id + "/valid"))
    lens = rng.integers(1, t + 1, size=n)
    lens[0] = t
    return lens.astype(np.float32)


def unroll_id(cell_id, k):
    return f"{cell_id}/u{k}"


# ---------------------------------------------------------------------------------------------
# recording (reference interpreter only)


def _params_info(net):
    return [[name, list(p.shape) if p.shape is not None else None]
            for name, p in net.collect_params().items()]


def _set_params(mx, net, key, out, dtype="float32"):
    rng = np.random.default_rng(seed_of(key + "/params"))
    for j, (name, p) in enumerate(net.collect_params().items()):
        val = (rng.standard_normal(p.shape) * 0.4).astype(p.dtype)
        out[f"{key}/p{j}"] = val
        net.collect_params()[name].set_data(mx.nd.array(val, dtype=p.dtype))


def _flat(y):
    """Outputs as a flat list. (Hybridized with merge_outputs=False and valid_length, 1.9.1's
    BidirectionalCell and ResidualCell return the steps as one grouped symbol, so the cached
    graph's outputs come back nested one level deeper than imperatively.)"""
    if isinstance(y, (list, tuple)):
        return [a for item in y for a in _flat(item)]
    return [y]


def _build(mx, ns, expr):
    with mx.name.NameManager():
        return eval(expr, ns)  # noqa: S307 - expressions from the tables above


def record_layer(mx, ns, case, out, meta):
    from mxnet import autograd
    key = case.id
    net = _build(mx, ns, case.expr)
    info = {"prefix": net.prefix, "params_before": _params_info(net), "repr_before": repr(net)}
    dtype = "float64" if "f64" in key else "float32"
    rng = np.random.default_rng(seed_of(key))
    x = rng.standard_normal(case.shape).astype(dtype)
    out[f"{key}/x"] = x
    net.initialize()
    net(mx.nd.array(x, dtype=dtype))
    info["params_after"] = _params_info(net)
    info["repr_after"] = repr(net)
    batch = case.shape[net._layout.find("N")]
    state_shapes = [tuple(s["shape"]) for s in net.state_info(batch)]
    info["state_shapes"] = [list(s) for s in state_shapes]
    states = [rng.standard_normal(s).astype(dtype) for s in state_shapes]
    for i, s in enumerate(states):
        out[f"{key}/s{i}"] = s
    _set_params(mx, net, key, out)
    params = list(net.collect_params().values())
    results = {}
    for mode in ("imperative", "hybrid"):
        if mode == "hybrid":
            net.hybridize()
        xa = mx.nd.array(x, dtype=dtype)
        xa.attach_grad()
        sa = [mx.nd.array(s, dtype=dtype) for s in states]
        for s in sa:
            s.attach_grad()
        net.collect_params().zero_grad()
        # without gradients nothing is recorded (1.9.1 refuses to record a projected LSTM
        # on the CPU, even in predict mode)
        scope = autograd.record(train_mode=case.train) if case.grad else contextlib.nullcontext()
        with scope:
            res = net(xa, sa) if case.states else net(xa)
        if case.states:
            y, hs = res[0], list(res[1])
        else:
            y, hs = res, []
        results[mode] = (y.asnumpy(), [h.asnumpy() for h in hs])
        if case.grad:
            dy = np.random.default_rng(seed_of(key + "/dy")).standard_normal(y.shape)
            dhs = [np.random.default_rng(seed_of(key + f"/dhs{i}")).standard_normal(h.shape)
                   for i, h in enumerate(hs)]
            autograd.backward([y] + hs, [mx.nd.array(dy, dtype=dtype)] +
                              [mx.nd.array(d, dtype=dtype) for d in dhs])
            if mode == "imperative":
                out[f"{key}/dy"] = dy.astype(dtype)
                for i, d in enumerate(dhs):
                    out[f"{key}/dhs{i}"] = d.astype(dtype)
                out[f"{key}/dx"] = xa.grad.asnumpy()
                for i, s in enumerate(sa):
                    if case.states:
                        out[f"{key}/ds{i}"] = s.grad.asnumpy()
                for j, p in enumerate(params):
                    out[f"{key}/g{j}"] = p.grad().asnumpy()
            else:
                np.testing.assert_allclose(xa.grad.asnumpy(), out[f"{key}/dx"], rtol=1e-4,
                                           atol=1e-5)
    y, hs = results["imperative"]
    out[f"{key}/y"] = y
    for i, h in enumerate(hs):
        out[f"{key}/hs{i}"] = h
    hy, hhs = results["hybrid"]
    np.testing.assert_allclose(hy, y, rtol=1e-5, atol=1e-6)
    meta["layers"][key] = info


def record_seqlen(mx, ns, case, out, meta):
    """Expected outputs of a fused layer with sequence lengths, from cells in 1.9.1."""
    from mxnet.gluon import rnn
    key = case.id
    layer = _build(mx, ns, fused_expr(case))
    layer.initialize()
    T, N, C = case.shape
    rng = np.random.default_rng(seed_of(key))
    x = rng.standard_normal(case.shape).astype(np.float32)
    lens = np.array(case.lengths, dtype=np.float32)
    layer(mx.nd.array(x), layer.begin_state(N), mx.nd.array(lens))   # finish deferred init
    _set_params(mx, layer, key, out)
    out[f"{key}/x"] = x
    out[f"{key}/len"] = lens
    states = [rng.standard_normal(tuple(s["shape"])).astype(np.float32)
              for s in layer.state_info(N)]
    for i, s in enumerate(states):
        out[f"{key}/s{i}"] = s
    values = {name[len(layer.prefix):]: p.data().asnumpy()
              for name, p in layer.collect_params().items()}
    dirs = ["l", "r"] if case.bidirectional else ["l"]
    cells = []
    for d in dirs:
        cell = _build(mx, ns, cell_expr(case))
        cell.initialize()
        for kind in ("i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias"):
            cell.params[cell.prefix + kind].set_data(mx.nd.array(values[f"{d}0_{kind}"]))
        cells.append(cell)
    begin = []
    for k in range(len(dirs)):
        begin += [mx.nd.array(s[k]) for s in states]
    xa = mx.nd.array(x)
    va = mx.nd.array(lens)
    if case.bidirectional:
        bi = rnn.BidirectionalCell(cells[0], cells[1])
        y, hs = bi.unroll(T, xa, begin_state=begin, layout="TNC", merge_outputs=True,
                          valid_length=va)
    else:
        y, hs = cells[0].unroll(T, xa, begin_state=begin, layout="TNC", merge_outputs=True,
                                valid_length=va)
    ns_ = len(states)
    # the cells give [h_l, (c_l), h_r, (c_r)]; the layer stacks directions per state
    stacked = [np.stack([hs[k * ns_ + i].asnumpy() for k in range(len(dirs))])
               for i in range(ns_)]
    out[f"{key}/y"] = y.asnumpy()
    for i, h in enumerate(stacked):
        out[f"{key}/hs{i}"] = h


def record_cell(mx, ns, case, out, meta):
    from mxnet import autograd
    from mxnet.gluon import HybridBlock
    Unroller = make_unroller(mx)
    info = {}
    for k, u in enumerate(case.unrolls):
        key = unroll_id(case.id, k)
        cell = _build(mx, ns, case.expr)
        if k == 0:
            info["prefix"] = cell.prefix
            info["params_before"] = _params_info(cell)
            info["repr_before"] = repr(cell)
        N, T, C = case.shape
        shape = (N, T, C) if u.layout == "NTC" else (T, N, C)
        rng = np.random.default_rng(seed_of(key))
        x = rng.standard_normal(shape).astype(np.float32)
        out[f"{key}/x"] = x
        cell.initialize()
        # finish deferred initialisation with a plain unroll
        cell.unroll(T, mx.nd.array(x), layout=u.layout, merge_outputs=True)
        if k == 0:
            info["params_after"] = _params_info(cell)
            info["repr_after"] = repr(cell)
            info["state_shapes"] = [list(s["shape"]) for s in cell.state_info(N)]
        _set_params(mx, cell, key, out)
        states = [rng.standard_normal(tuple(s["shape"])).astype(np.float32)
                  for s in cell.state_info(N)] if u.begin else []
        for i, s in enumerate(states):
            out[f"{key}/s{i}"] = s
        lens = valid_lengths(key, N, T) if u.valid else None
        if lens is not None:
            out[f"{key}/len"] = lens
        params = list(cell.collect_params().values())
        modes = ["imperative"]
        if u.hybrid and isinstance(cell, HybridBlock):
            modes.append("hybrid")
        for mode in modes:
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
                    net = Unroller(cell, T, u.layout, u.merge, len(sa), va is not None)
                    net.hybridize()
                    extra = list(sa) + ([va] if va is not None else [])
                    y, hs = net(xa, *extra)
            ys = _flat(y)
            hs = list(hs)
            if mode == "imperative":
                info.setdefault("kinds", {})[key] = "list" if isinstance(y, (list, tuple)) \
                    else "tensor"
                for t, yt in enumerate(ys):
                    out[f"{key}/y{t}"] = yt.asnumpy()
                for i, h in enumerate(hs):
                    out[f"{key}/hs{i}"] = h.asnumpy()
            else:
                for t, yt in enumerate(ys):
                    np.testing.assert_allclose(yt.asnumpy(), out[f"{key}/y{t}"], rtol=1e-5,
                                               atol=1e-6)
            if u.grad:
                heads = ys + hs
                grads = [np.random.default_rng(seed_of(key + f"/d{i}")).standard_normal(
                    h.shape).astype(np.float32) for i, h in enumerate(heads)]
                autograd.backward(heads, [mx.nd.array(g) for g in grads])
                if mode == "imperative":
                    for i, g in enumerate(grads):
                        out[f"{key}/dh{i}"] = g
                    out[f"{key}/dx"] = xa.grad.asnumpy()
                    for i, s in enumerate(sa):
                        out[f"{key}/ds{i}"] = s.grad.asnumpy()
                    for j, p in enumerate(params):
                        out[f"{key}/g{j}"] = p.grad().asnumpy()
                else:
                    np.testing.assert_allclose(xa.grad.asnumpy(), out[f"{key}/dx"], rtol=1e-4,
                                               atol=1e-5)
    meta["cells"][case.id] = info


def record_export(mx, ns, expr, shape, with_states):
    import tempfile
    net = _build(mx, ns, expr)
    net.initialize()
    net.hybridize()
    x = mx.nd.ones(shape)
    if with_states:
        net(x, net.begin_state(shape[net._layout.find("N")]))
    else:
        net(x)
    with tempfile.TemporaryDirectory() as tmp:
        net.export(f"{tmp}/net")
        graph = json.loads(Path(f"{tmp}/net-symbol.json").read_text())
    return export_nodes(graph)


def main():
    import mxnet as mx
    ns = namespace(mx)
    out: dict = {}
    meta: dict = {"layers": {}, "cells": {}, "reprs": {}}
    for case in LAYERS:
        record_layer(mx, ns, case, out, meta)
    for case in SEQLEN:
        record_seqlen(mx, ns, case, out, meta)
    for case in CELLS:
        record_cell(mx, ns, case, out, meta)
    for expr in REPRS:
        meta["reprs"][expr] = repr(_build(mx, ns, expr))
    meta["exports"] = [record_export(mx, ns, *spec) for spec in EXPORTS]
    out["__meta__"] = np.array(json.dumps(meta, sort_keys=True))
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **out)
    print(f"wrote {len(out)} arrays to {OUT_NPZ}")


if __name__ == "__main__":
    main()
