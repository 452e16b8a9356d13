"""Record forward outputs, final states and autograd gradients of the fused RNN op under 1.9.1.

Run with the reference interpreter (never with this repository's mxnet), from the repo root::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_nn_rnn.py

Every entry of ``CASES`` is one ``mx.nd.RNN(data, parameters, state[, state_cell]
[, sequence_length], **kwargs)`` call on random inputs (random packed parameters included).
It is recorded under autograd and back-propagated with fixed random head gradients for every
visible output. ``tests/golden/nn_rnn.npz`` gets, per case ``<id>``:

* ``<id>/in<i>``   -- the inputs (data, parameters, state, [state_cell], [sequence_length]),
* ``<id>/head<j>`` -- the head gradient of visible output j,
* ``<id>/out<j>``  -- visible output j (output, [state_output, [statecell_output]]),
* ``<id>/grad<i>`` -- the gradient of input i (sequence_length excluded).

1.9.1's CPU kernel ignores ``sequence_length`` (the output equals the full-length run), while
its cuDNN kernel -- the behaviour the operator documents -- runs each batch element over its
own valid prefix. Cases with ``use_sequence_length`` are therefore recorded by running 1.9.1
once per batch element on that element's prefix, zero-padding the output and the data
gradient and summing the parameter gradients: exactly the cuDNN semantics.

``tests/operator/test_nn_rnn.py`` imports this module (it must stay importable without
mxnet) and replays every case against this repository's mxnet from the stored inputs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "nn_rnn.npz"

GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}


@dataclass
class Case:
    """One RNN call: (seq_len, batch, input_size) data and the op's keyword arguments."""

    id: str
    T: int
    N: int
    I: int
    kwargs: dict = field(default_factory=dict)
    lengths: tuple | None = None
    dtype: str = "float64"
    seed: int = 0
    backward: bool = True


def param_size(kw, I):
    """The packed parameter count (1.9.1's layout, see mxnet/operator/nn_rnn.py)."""
    G, H, L = GATES[kw["mode"]], kw["state_size"], kw["num_layers"]
    D = 2 if kw.get("bidirectional") else 1
    P = kw.get("projection_size")
    R = P or H
    total = 0
    for l in range(L):
        ins = I if l == 0 else D * R
        total += D * (G * H * ins + G * H * R + (P * H if P else 0) + 2 * G * H)
    return total


def make_inputs(case):
    kw = case.kwargs
    rs = np.random.RandomState(case.seed)
    D = 2 if kw.get("bidirectional") else 1
    H, L = kw["state_size"], kw["num_layers"]
    R = kw.get("projection_size") or H
    ins = [rs.uniform(-1, 1, (case.T, case.N, case.I)),
           rs.uniform(-0.8, 0.8, (param_size(kw, case.I),)),
           rs.uniform(-1, 1, (L * D, case.N, R))]
    if kw["mode"] == "lstm":
        ins.append(rs.uniform(-1, 1, (L * D, case.N, H)))
    ins = [a.astype(case.dtype) for a in ins]
    if case.lengths is not None:
        ins.append(np.array(case.lengths, dtype=case.dtype))
    return ins


def n_visible(case):
    if not case.kwargs.get("state_outputs"):
        return 1
    return 3 if case.kwargs["mode"] == "lstm" else 2


def make_heads(case, out_shapes):
    rs = np.random.RandomState(1000 + case.seed)
    return [rs.normal(size=s).astype(case.dtype) for s in out_shapes]


def _n_grads(case):
    return 4 if case.kwargs["mode"] == "lstm" else 3


def run_case(mx, case, inputs=None, heads=None):
    """Forward + backward of one case with the given mxnet; returns (outs, heads, grads).

    Cases with ``backward=False`` run the forward pass only, in inference mode (1.9.1 has no
    CPU training support for LSTM projection); their grads list is empty.
    """
    inputs = make_inputs(case) if inputs is None else inputs
    nd = mx.nd
    arrs = [nd.array(a, dtype=case.dtype) for a in inputs]
    if not case.backward:
        res = nd.RNN(*arrs, **case.kwargs)
        res = res if isinstance(res, (list, tuple)) else [res]
        outs = [r.asnumpy() for r in res]
        return outs, [], []
    ng = _n_grads(case)
    for a in arrs[:ng]:
        a.attach_grad()
    with mx.autograd.record():
        res = nd.RNN(*arrs, **case.kwargs)
    res = res if isinstance(res, (list, tuple)) else [res]
    outs = [r.asnumpy() for r in res]
    if heads is None:
        heads = make_heads(case, [o.shape for o in outs])
    mx.autograd.backward(list(res), [nd.array(h, dtype=case.dtype) for h in heads])
    grads = [a.grad.asnumpy() for a in arrs[:ng]]
    return outs, heads, grads


def run_case_per_element(mx, case):
    """The cuDNN sequence-length semantics from 1.9.1's CPU kernel: one run per element."""
    inputs = make_inputs(case)
    kw = dict(case.kwargs, use_sequence_length=False)
    data, lens = inputs[0], inputs[-1].astype(int)
    states = inputs[2:-1]
    full = Case(case.id, case.T, case.N, case.I, kw, None, case.dtype, case.seed, case.backward)
    probe, _, _ = run_case(mx, full, inputs=inputs[:-1])
    heads = make_heads(case, [o.shape for o in probe]) if case.backward else []
    outs = [np.zeros_like(o) for o in probe]
    grads = [np.zeros_like(a) for a in inputs[:-1]] if case.backward else []
    for b in range(case.N):
        n = lens[b]
        sub = Case(case.id, n, 1, case.I, kw, None, case.dtype, case.seed, case.backward)
        sub_in = [data[:n, b:b + 1], inputs[1]] + [s[:, b:b + 1] for s in states]
        sub_heads = [heads[0][:n, b:b + 1]] + [h[:, b:b + 1] for h in heads[1:]] if heads else None
        o, _, g = run_case(mx, sub, inputs=sub_in, heads=sub_heads)
        outs[0][:n, b:b + 1] = o[0]
        for j in range(1, len(o)):
            outs[j][:, b:b + 1] = o[j]
        if not g:
            continue
        grads[0][:n, b:b + 1] = g[0]
        grads[1] += g[1]
        for j in range(2, len(g)):
            grads[j][:, b:b + 1] = g[j]
    return inputs, outs, heads, grads


CASES: list[Case] = []


def case(cid, T, N, I, lengths=None, dtype="float64", seed=0, backward=True, **kwargs):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    CASES.append(Case(cid, T, N, I, kwargs, lengths, dtype, seed, backward))


for _k, _mode in enumerate(("rnn_relu", "rnn_tanh", "lstm", "gru")):
    _base = dict(mode=_mode, state_size=2)
    case(f"{_mode}.uni", 3, 2, 3, num_layers=1, state_outputs=True, seed=10 * _k, **_base)
    case(f"{_mode}.uni_2layer_nostates", 3, 2, 3, num_layers=2, seed=10 * _k + 1, **_base)
    case(f"{_mode}.bi_2layer", 3, 2, 3, num_layers=2, bidirectional=True, state_outputs=True,
         seed=10 * _k + 2, **_base)
    case(f"{_mode}.bi_2layer_seqlen", 4, 3, 3, lengths=(4, 2, 3), num_layers=2,
         bidirectional=True, state_outputs=True, use_sequence_length=True, seed=10 * _k + 3,
         **_base)
    case(f"{_mode}.uni_seqlen", 3, 2, 3, lengths=(1, 3), num_layers=1, state_outputs=True,
         use_sequence_length=True, seed=10 * _k + 4, **_base)
    case(f"{_mode}.float32_bi", 5, 3, 4, dtype="float32", mode=_mode, state_size=3,
         num_layers=2, bidirectional=True, state_outputs=True, seed=10 * _k + 5)
# 1.9.1 runs LSTM projection on a CPU in inference only: forward values, no gradients
# (the gradients are covered by numeric differentiation in the tests).
_P = dict(mode="lstm", projection_size=2, state_outputs=True, backward=False)
case("lstm.proj_uni_2layer", 3, 2, 3, state_size=3, num_layers=2, seed=50, **_P)
case("lstm.proj_bi_2layer", 3, 2, 3, state_size=3, num_layers=2, bidirectional=True, seed=51,
     **_P)
case("lstm.proj_float32", 4, 2, 3, dtype="float32", state_size=4, num_layers=1,
     bidirectional=True, seed=52, **_P)
case("lstm.proj_seqlen", 3, 2, 3, lengths=(2, 3), state_size=3, num_layers=2,
     bidirectional=True, use_sequence_length=True, seed=53, **_P)
case("gru.3layer_bi", 3, 2, 2, mode="gru", state_size=2, num_layers=3, bidirectional=True,
     state_outputs=True, seed=60)


def main():
    import mxnet as mx

    if not mx.__version__.startswith("1.9"):
        raise SystemExit(f"run this under the MXNet 1.9.1 reference, not {mx.__version__}")
    store = {}
    for c in CASES:
        if c.lengths is not None:
            inputs, outs, heads, grads = run_case_per_element(mx, c)
        else:
            inputs = make_inputs(c)
            outs, heads, grads = run_case(mx, c, inputs=inputs)
        for i, a in enumerate(inputs):
            store[f"{c.id}/in{i}"] = a
        for j, o in enumerate(outs):
            store[f"{c.id}/out{j}"] = o
        for j, h in enumerate(heads):
            store[f"{c.id}/head{j}"] = h
        for i, g in enumerate(grads):
            store[f"{c.id}/grad{i}"] = g
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **store)
    print(f"wrote {len(CASES)} cases to {OUT_NPZ}")


if __name__ == "__main__":
    main()
