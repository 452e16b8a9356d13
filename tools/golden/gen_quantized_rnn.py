"""Record 1.9.1's ``_contrib_quantized_rnn`` (the INT8 LSTM) and how its quantization flow
rewrites an ``RNN`` node.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && DNNL_MAX_CPU_ISA=AVX2 MXNET_SUBGRAPH_BACKEND=NONE \\
        MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_quantized_rnn.py

``DNNL_MAX_CPU_ISA=AVX2``: on a CPU with AVX512-VNNI, 1.9.1's operator fails with "could
not create a primitive descriptor for a reorder primitive" (oneDNN 2.4's int8 RNN weight
reorder); capped at AVX2 or AVX512_CORE it runs, and both give the same results.

``tests/golden/quantized_rnn.npz`` holds, per case ``<id>``: ``<id>.in0`` .. ``in5`` (the
operator's inputs: uint8 data from ``quantize_asym``, float32 parameters, state,
state_cell, scale, shift), ``<id>.out<j>`` and ``<id>.attrs`` (JSON of the operator
attributes); ``flow.x`` / ``flow.out`` / ``flow.args.<name>`` are the end-to-end run of a
naive-calibrated ``quantize_model`` graph. ``tests/golden/quantized_rnn_flow.json`` holds
the quantized graphs (op, name, attributes) 1.9.1 emits. (A GRU ``RNN`` is left out: 1.9.1
logs that only LSTM is supported, yet still emits a ``_contrib_quantized_rnn`` node whose
graph cannot even be serialised.)
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "quantized_rnn.npz"
OUT_JSON = REPO / "tests" / "golden" / "quantized_rnn_flow.json"

# id: (T, N, I, H, L, bidirectional, calibrated data range, weight spread, extra attrs)
CASES = {
    "uni_l1": (3, 2, 4, 5, 1, False, (-1.0, 1.0), 0.6, {"state_outputs": True}),
    "uni_l1_noout": (5, 3, 7, 6, 1, False, (-2.0, 0.5), 0.3, {}),
    "uni_l2": (4, 3, 6, 4, 2, False, (-1.5, 0.8), 0.6, {"state_outputs": True}),
    "uni_l3_fused": (3, 2, 4, 4, 3, False, (-0.7, 1.2), 0.6, {"state_outputs": True}),
    "bi_l1": (3, 2, 5, 3, 1, True, (-1.0, 1.0), 0.6, {"state_outputs": True}),
    "bi_l2": (3, 2, 6, 3, 2, True, (-1.0, 0.5), 0.6, {"state_outputs": True}),
    "positive_range": (4, 2, 8, 6, 1, False, (0.0, 3.0), 1.0, {"state_outputs": True}),
    "wide_big": (6, 4, 16, 12, 2, False, (-4.0, 4.0), 2.0, {"state_outputs": True}),
    "ignored_attrs": (3, 2, 4, 5, 1, False, (-1.0, 1.0), 0.6,
                      {"state_outputs": True, "p": 0.3, "lstm_state_clip_min": -0.05,
                       "lstm_state_clip_max": 0.05}),
}


def _param_size(I, H, L, bi):
    D = 2 if bi else 1
    G = 4 * H
    return D * G * (I + H) + (L - 1) * D * G * (D * H + H) + L * D * 2 * G


def _inputs(cid, spec):
    T, N, I, H, L, bi, _, spread, _ = spec
    rs = np.random.RandomState(sum(map(ord, cid)))
    D = 2 if bi else 1
    x = rs.uniform(-1.3, 1.3, (T, N, I)).astype(np.float32)
    w = rs.uniform(-spread, spread, (_param_size(I, H, L, bi),)).astype(np.float32)
    h0 = rs.uniform(-0.5, 0.5, (L * D, N, H)).astype(np.float32)
    c0 = rs.uniform(-0.5, 0.5, (L * D, N, H)).astype(np.float32)
    return x, w, h0, c0


def _flow(mx, out):
    """The quantized graphs of a few RNN-containing symbols, and one calibrated run."""
    from mxnet.contrib import quantization as q
    T, N, I, H = 3, 2, 4, 5
    data = mx.sym.var("data")
    rnn = mx.sym.RNN(data, mx.sym.var("rnn_parameters"), mx.sym.var("rnn_state"),
                     mx.sym.var("rnn_state_cell"), state_size=H, num_layers=1, mode="lstm",
                     name="rnn")
    syms = {
        "rnn": rnn,
        "rnn_fc": mx.sym.FullyConnected(rnn, num_hidden=3, name="fc", flatten=False),
        "rnn_relu": mx.sym.relu(rnn, name="act"),
    }
    graphs = {}
    for name, s in syms.items():
        qsym, calib = q._quantize_symbol(s, mx.cpu(), quantized_dtype="auto",
                                         quantize_mode="full")
        nodes = json.loads(qsym.tojson())["nodes"]
        graphs[name] = {"calib": list(calib),
                        "nodes": [[n["op"], n["name"], n.get("attrs", {})] for n in nodes]}
    rs = np.random.RandomState(7)
    args = {"rnn_parameters": rs.uniform(-0.5, 0.5, (4 * H * (I + H) + 8 * H,)),
            "rnn_state": rs.uniform(-0.3, 0.3, (1, N, H)),
            "rnn_state_cell": rs.uniform(-0.3, 0.3, (1, N, H))}
    args = {k: v.astype(np.float32) for k, v in args.items()}
    calib_x = rs.uniform(-1, 1, (2 * T, N, I)).astype(np.float32)
    it = mx.io.NDArrayIter(data=calib_x, batch_size=T)
    qsym, qarg, _ = q.quantize_model(rnn, {k: mx.nd.array(v) for k, v in args.items()}, {},
                                     calib_mode="naive", calib_data=it,
                                     quantized_dtype="auto", quantize_mode="full",
                                     label_names=())
    nodes = json.loads(qsym.tojson())["nodes"]
    graphs["rnn_naive"] = {"nodes": [[n["op"], n["name"], n.get("attrs", {})] for n in nodes]}
    x = rs.uniform(-1, 1, (T, N, I)).astype(np.float32)
    ex = qsym.bind(mx.cpu(), dict(qarg, data=mx.nd.array(x)))
    out["flow.calib_x"] = calib_x
    out["flow.x"] = x
    out["flow.out"] = ex.forward()[0].asnumpy()
    for k, v in args.items():
        out[f"flow.args.{k}"] = v
    return graphs


def main():
    import mxnet as mx
    out = {}
    for cid, spec in CASES.items():
        T, N, I, H, L, bi, (lo, hi), _, extra = spec
        x, w, h0, c0 = _inputs(cid, spec)
        qx, scale, shift = mx.nd.contrib.quantize_asym(mx.nd.array(x), min_calib_range=lo,
                                                       max_calib_range=hi)
        attrs = dict(state_size=H, num_layers=L, bidirectional=bi, mode="lstm", **extra)
        ins = [qx, mx.nd.array(w), mx.nd.array(h0), mx.nd.array(c0), scale, shift]
        res = mx.nd.contrib.quantized_rnn(*ins, **attrs)
        res = res if isinstance(res, (list, tuple)) else [res]
        for i, a in enumerate(ins):
            out[f"{cid}.in{i}"] = a.asnumpy()
        for j, r in enumerate(res):
            out[f"{cid}.out{j}"] = r.asnumpy()
        out[f"{cid}.attrs"] = np.array(json.dumps(attrs))
    graphs = _flow(mx, out)
    np.savez_compressed(OUT_NPZ, **out)
    OUT_JSON.write_text(json.dumps(graphs, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT_NPZ} ({len(CASES)} cases) and {OUT_JSON}")


if __name__ == "__main__":
    main()
