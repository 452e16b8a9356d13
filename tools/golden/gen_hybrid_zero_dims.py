"""Record, under MXNet 1.9.1, hybridized blocks whose traced graph creates arrays with legacy
0 (unknown) dimensions: ``begin_state(batch_size=0, func=F.zeros)`` of unrolled cells, the
fused RNN layers called without states inside a hybridized block, and ``F.zeros`` /
``F.ones`` / ``F.full`` with a 0 in ``shape`` combined with data-dependent arrays. 1.9.1
infers those dimensions from the consumers of the array, for the input shapes of each call.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_hybrid_zero_dims.py

Every case block is built by :func:`build` (shared with ``tests/gluon/test_hybrid_zero_dims.py``,
so this module must stay importable without mxnet), initialised, run once to
finish deferred initialisation (hybridized: such graphs cannot run imperatively), given
NumPy-made parameter values, hybridized again (with the case's flags: a new cache) and
then called once per batch size under ``autograd.record`` with a fixed head gradient.

``tests/golden/hybrid_zero_dims.npz`` keys, per case ``c`` and call ``k``: ``c/p<j>``
parameter values (``collect_params()`` order), ``c/<k>/x``, ``c/<k>/y``, ``c/<k>/dy``,
``c/<k>/dx``, ``c/<k>/g<j>`` (parameter gradients). ``c/imports/<k>/y`` holds the outputs of
``SymbolBlock.imports`` of the exported block. ``__meta__`` is a JSON string with the
parameter names and shapes per case and the exported ``-symbol.json`` texts.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "tests" / "golden" / "hybrid_zero_dims.npz"

# name -> (block kind, hybridize kwargs, input shapes of the successive calls, exported?)
CASES = {
    "lstm_cell": ("lstm_cell", {}, [(4, 3, 5), (6, 3, 5)], True),
    "gru_cell": ("gru_cell", {}, [(4, 3, 5)], False),
    "rnn_cell": ("rnn_cell", {}, [(4, 3, 5)], False),
    "stacked": ("stacked", {}, [(4, 3, 5), (6, 3, 5)], True),
    "fused_lstm": ("fused_lstm", {}, [(3, 4, 5), (3, 6, 5)], True),
    "zeros_add": ("zeros_add", {}, [(4, 5), (6, 5)], True),
    "static_lstm": ("lstm_cell", {"static_alloc": True, "static_shape": True},
                    [(4, 3, 5), (6, 3, 5)], False),
    "static_zeros": ("zeros_add", {"static_alloc": True, "static_shape": True},
                     [(4, 5), (6, 5)], False),
}


def build(mx, kind):
    """A new block of ``kind`` (its prefix is ``net_``)."""
    gluon = mx.gluon

    class Net(gluon.HybridBlock):
        def __init__(self):
            super().__init__(prefix="net_")
            with self.name_scope():
                if kind == "lstm_cell":
                    self.cell = gluon.rnn.LSTMCell(8)
                elif kind == "gru_cell":
                    self.cell = gluon.rnn.GRUCell(8)
                elif kind == "rnn_cell":
                    self.cell = gluon.rnn.RNNCell(8, activation="tanh")
                elif kind == "stacked":
                    self.cell = gluon.rnn.HybridSequentialRNNCell()
                    with self.cell.name_scope():
                        self.cell.add(gluon.rnn.LSTMCell(8))
                        self.cell.add(gluon.rnn.GRUCell(6))
                elif kind == "fused_lstm":
                    self.rnn = gluon.rnn.LSTM(7, num_layers=2)
                elif kind == "zeros_add":
                    self.fc = gluon.nn.Dense(8)
                else:
                    raise ValueError(kind)

        def hybrid_forward(self, F, x):
            if kind == "fused_lstm":
                return self.rnn(x)
            if kind == "zeros_add":
                h = self.fc(x)
                a = h + F.zeros(shape=(0, 8))
                b = F.ones(shape=(0, 8)) * h
                c = F.full(shape=(0, 0), val=0.5) + h
                return a * b + c
            st = self.cell.begin_state(batch_size=0, func=F.zeros)
            out, _ = self.cell.unroll(3, x, st, layout="NTC", merge_outputs=True)
            return out

    return Net()


def run_case(mx, name, params=None, record=None):
    """Run case ``name``: returns ``(net, results)``; ``results`` maps the fixture keys of
    the case to NumPy arrays. ``params``: the parameter values to set (default: made here
    from a seeded generator); ``record``: previously recorded arrays to take ``x`` and
    ``dy`` from (default: made here)."""
    kind, flags, shapes, _ = CASES[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    net = build(mx, kind)
    net.initialize()
    net.hybridize()   # such a graph cannot run imperatively (a 0 in a creator's shape)
    net(mx.nd.ones(shapes[0]))   # finish deferred initialisation
    res = {}
    for j, p in enumerate(net.collect_params().values()):
        v = params[j] if params is not None else rng.uniform(-0.5, 0.5, p.shape).astype("f4")
        p.set_data(mx.nd.array(v))
        res[f"{name}/p{j}"] = v
    net.hybridize(**flags)
    for k, shape in enumerate(shapes):
        if record is not None:
            xv, dyv = record[f"{name}/{k}/x"], record[f"{name}/{k}/dy"]
        else:
            xv = rng.uniform(-1, 1, shape).astype("f4")
            dyv = None
        x = mx.nd.array(xv)
        x.attach_grad()
        with mx.autograd.record():
            y = net(x)
        if dyv is None:
            dyv = rng.uniform(-1, 1, y.shape).astype("f4")
        y.backward(mx.nd.array(dyv))
        res[f"{name}/{k}/x"] = xv
        res[f"{name}/{k}/dy"] = dyv
        res[f"{name}/{k}/y"] = y.asnumpy()
        res[f"{name}/{k}/dx"] = x.grad.asnumpy()
        for j, p in enumerate(net.collect_params().values()):
            res[f"{name}/{k}/g{j}"] = p.grad().asnumpy()
    return net, res


def export_and_import(mx, name, net, tmp, xs):
    """Export ``net`` (called already), load it back with ``SymbolBlock.imports`` and run it
    on each of ``xs``; returns the JSON text and the outputs."""
    path = f"{tmp}/{name}"
    net.export(path)
    text = Path(f"{path}-symbol.json").read_text()
    blk = mx.gluon.SymbolBlock.imports(f"{path}-symbol.json", ["data"], f"{path}-0000.params")
    return text, [blk(mx.nd.array(x)).asnumpy() for x in xs]


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__}")
    arrays, meta = {}, {"params": {}, "json": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (_, _, shapes, exported) in CASES.items():
            net, res = run_case(mx, name)
            arrays.update(res)
            meta["params"][name] = [[n, list(p.shape)] for n, p in net.collect_params().items()]
            if exported:
                xs = [res[f"{name}/{k}/x"] for k in range(len(shapes))]
                text, ys = export_and_import(mx, name, net, tmp, xs)
                meta["json"][name] = text
                for k, y in enumerate(ys):
                    arrays[f"{name}/imports/{k}/y"] = y
    arrays["__meta__"] = np.array(json.dumps(meta, sort_keys=True))
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {len(arrays)} arrays to {OUT}")


if __name__ == "__main__":
    main()
