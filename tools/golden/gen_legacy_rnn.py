"""Record the legacy symbolic RNN API (``mx.rnn``) under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_legacy_rnn.py

The routines below take the ``mxnet`` module as an argument, so ``tests/rnn_legacy`` runs the
very same code against this repository's mxnet and compares with what they returned here
(this file must stay importable without mxnet).

- ``CASES``: a cell (a Python expression over ``mx`` and ``rnn`` = ``mx.rnn``) is built under
  a fresh ``mx.name.NameManager`` and unrolled on ``Variable('data')``; the recorded symbol
  is ``Group(outputs + flattened states)`` (states already among the outputs left out). Recorded: state_info, list_arguments /
  list_outputs / list_auxiliary_states, ``tojson()``, the inferred argument shapes, outputs
  and gradients of every argument after ``simple_bind`` + forward (+ backward with fixed head
  gradients when ``train``), with argument values drawn from ``numpy.random.RandomState``
  seeded by the case id; and the ``unpack_weights`` result of those values plus whether
  ``pack_weights`` gives them back.
- ``iterator_run``: ``encode_sentences`` and ``BucketSentenceIter`` batches (two epochs, both
  layouts, given and automatic buckets) with ``random`` and ``numpy.random`` seeded.
- ``checkpoint_run``: ``save_rnn_checkpoint`` / ``load_rnn_checkpoint`` / ``do_rnn_checkpoint``
  with a fused LSTM: the names and values stored in the .params file and the values loaded
  back.
- ``train_lm``: a tiny bucketing LSTM language model (``BucketingModule`` +
  ``BucketSentenceIter`` + ``LSTMCell`` stack), parameters set from NumPy, two epochs of SGD;
  the training perplexity after every batch and the final validation perplexity.

Output: ``tests/golden/legacy_rnn.npz`` (compressed) with two entries: ``__meta__``, the
zlib-compressed UTF-8 JSON of the non-array results plus an ``index`` of the arrays
(``<case>/...`` key -> offset and shape), and ``__data__``, all float32 arrays flattened end to
end (one entry instead of hundreds keeps the file small). ``load_golden`` reads it back.
"""
from __future__ import annotations

import json
import os
import random
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "legacy_rnn.npz"


def load_golden(path=OUT_NPZ):
    """``(meta, arrays)`` of the fixture file: the JSON record and ``{key: ndarray}``."""
    with np.load(path) as npz:
        meta = json.loads(zlib.decompress(npz["__meta__"].tobytes()).decode())
        flat = npz["__data__"]
    arrays = {}
    for key, (pos, shape) in meta.pop("index").items():
        size = int(np.prod(shape, dtype=np.int64))
        arrays[key] = flat[pos:pos + size].reshape(shape)
    return meta, arrays


def seed_of(text):
    return zlib.crc32(text.encode())


@dataclass
class Case:
    """Unroll ``expr`` over ``length`` steps of data shaped ``shape`` (in ``layout``)."""

    id: str
    expr: str
    length: int
    layout: str
    merge: object
    shape: tuple
    train: bool = True            # forward(is_train=True) and backward
    state_vars: bool = False      # begin_state(func=mx.sym.Variable): states become inputs
    list_inputs: bool = False     # unroll on a list of per-step variables t0_data, ...


CASES = [
    Case("rnn_tanh_ntc_list", "rnn.RNNCell(4)", 3, "NTC", False, (2, 3, 5)),
    Case("rnn_relu_tnc_merged", "rnn.RNNCell(3, activation='relu', prefix='r_')", 3, "TNC",
         True, (3, 2, 4)),
    Case("rnn_default_merge", "rnn.RNNCell(3)", 2, "NTC", None, (2, 2, 3)),
    Case("lstm_ntc_merged", "rnn.LSTMCell(4, forget_bias=0.5)", 3, "NTC", True, (2, 3, 5)),
    Case("lstm_tnc_list", "rnn.LSTMCell(3, prefix='enc_')", 3, "TNC", False, (3, 2, 4)),
    Case("lstm_state_vars", "rnn.LSTMCell(3)", 2, "NTC", True, (2, 2, 3), state_vars=True),
    Case("lstm_list_inputs", "rnn.LSTMCell(3)", 3, "NTC", True, (2, 4), list_inputs=True),
    Case("gru_ntc_list", "rnn.GRUCell(4)", 3, "NTC", False, (2, 3, 5)),
    Case("gru_tnc_merged", "rnn.GRUCell(3, prefix='g_')", 2, "TNC", True, (2, 3, 4)),
    Case("seq_lstm_gru", "seq(rnn.LSTMCell(4, prefix='l0_'), rnn.GRUCell(3, prefix='l1_'))", 3,
         "NTC", True, (2, 3, 5)),
    Case("seq_dropout_predict",
         "seq(rnn.LSTMCell(3, prefix='l0_'), rnn.DropoutCell(0.5, prefix='d_'),"
         " rnn.RNNCell(3, prefix='l1_'))", 2, "TNC", False, (2, 2, 3), train=False),
    Case("seq_shared_params", "shared_stack(mx)", 2, "NTC", True, (2, 2, 3)),
    Case("bi_lstm_gru_merged", "rnn.BidirectionalCell(rnn.LSTMCell(3, prefix='l_'),"
         " rnn.GRUCell(3, prefix='r_'))", 3, "NTC", True, (2, 3, 4)),
    Case("bi_rnn_list_tnc", "rnn.BidirectionalCell(rnn.RNNCell(2, prefix='l_'),"
         " rnn.RNNCell(2, prefix='r_'), output_prefix='bo_')", 3, "TNC", False, (3, 2, 3)),
    Case("bi_default_merge", "rnn.BidirectionalCell(rnn.GRUCell(2, prefix='l_'),"
         " rnn.GRUCell(2, prefix='r_'))", 2, "NTC", None, (2, 2, 3)),
    Case("seq_bi_stack", "seq(rnn.BidirectionalCell(rnn.LSTMCell(2, prefix='a_'),"
         " rnn.LSTMCell(2, prefix='b_')), rnn.LSTMCell(3, prefix='top_'))", 2, "NTC", True,
         (2, 2, 3)),
    Case("residual_gru_merged", "rnn.ResidualCell(rnn.GRUCell(4))", 3, "NTC", True, (2, 3, 4)),
    Case("residual_lstm_list", "rnn.ResidualCell(rnn.LSTMCell(3))", 2, "TNC", False, (2, 2, 3)),
    Case("zoneout_predict", "rnn.ZoneoutCell(rnn.RNNCell(3), zoneout_outputs=0.3,"
         " zoneout_states=0.4)", 3, "NTC", False, (2, 3, 4), train=False),
    Case("fused_lstm_tnc", "rnn.FusedRNNCell(3, prefix='lstm_')", 3, "TNC", True, (3, 2, 4)),
    Case("fused_lstm_bi2_states", "rnn.FusedRNNCell(3, num_layers=2, bidirectional=True,"
         " get_next_state=True)", 3, "TNC", True, (3, 2, 4)),
    Case("fused_gru_ntc_list", "rnn.FusedRNNCell(3, mode='gru', get_next_state=True)", 3,
         "NTC", False, (2, 3, 4)),
    Case("fused_relu_2", "rnn.FusedRNNCell(2, num_layers=2, mode='rnn_relu')", 2, "TNC", True,
         (2, 2, 3)),
    Case("fused_tanh_bi", "rnn.FusedRNNCell(2, mode='rnn_tanh', bidirectional=True,"
         " get_next_state=True, forget_bias=0.0)", 2, "NTC", True, (2, 2, 3)),
    Case("unfused_lstm_bi2", "rnn.FusedRNNCell(3, num_layers=2, bidirectional=True,"
         " dropout=0.2).unfuse()", 2, "TNC", True, (2, 2, 4), train=False),
    Case("unfused_gru", "rnn.FusedRNNCell(3, mode='gru', prefix='f_').unfuse()", 2, "NTC",
         True, (2, 2, 3)),
    Case("conv_rnn", "rnn.ConvRNNCell((2, 2, 4, 4), 2)", 2, "NTC", False, (2, 2, 2, 4, 4)),
    Case("conv_lstm", "rnn.ConvLSTMCell((2, 2, 4, 4), 2, i2h_kernel=(3, 3), i2h_pad=(1, 1),"
         " activation='tanh')", 2, "NTC", True, (2, 2, 2, 4, 4)),
    Case("conv_gru", "rnn.ConvGRUCell((2, 1, 5, 5), 2, i2h_kernel=(3, 3), i2h_pad=(0, 0),"
         " h2h_kernel=(1, 1))", 2, "TNC", False, (2, 2, 1, 5, 5)),
]


def shared_stack(mx):
    """Two LSTM layers with their own weights plus a third sharing the second's weights."""
    rnn = mx.rnn
    shared = rnn.RNNParams("shared_")
    stack = rnn.SequentialRNNCell()
    stack.add(rnn.LSTMCell(3, prefix="first_"))
    stack.add(rnn.LSTMCell(3, prefix="second_", params=shared))
    stack.add(rnn.LSTMCell(3, prefix="third_", params=shared))
    return stack


def namespace(mx):
    def seq(*cells):
        stack = mx.rnn.SequentialRNNCell()
        for c in cells:
            stack.add(c)
        return stack

    return {"mx": mx, "rnn": mx.rnn, "seq": seq, "shared_stack": shared_stack}


def _flatten(items):
    if isinstance(items, (list, tuple)):
        return [x for it in items for x in _flatten(it)]
    return [items]


def build_case(mx, case):
    """``(cell, symbol, n_outputs)`` for a case, built under a fresh NameManager."""
    with mx.name.NameManager():
        cell = eval(case.expr, namespace(mx))  # noqa: S307 - expressions from the table
        if case.list_inputs:
            data = [mx.sym.Variable(f"t{i}_data") for i in range(case.length)]
        else:
            data = mx.sym.Variable("data")
        begin = cell.begin_state(func=mx.sym.Variable) if case.state_vars else None
        outs, states = cell.unroll(case.length, data, begin_state=begin, layout=case.layout,
                                   merge_outputs=case.merge)
        outs = _flatten(outs)
        # a state that is also an output (the last step's h) is listed once: 1.9.1 keeps only
        # the last head gradient of a repeated graph output, this repository sums them
        seen = {o.list_outputs()[0] for o in outs}
        extra = []
        for st in _flatten(states):
            key = st.list_outputs()[0]
            if key not in seen:
                seen.add(key)
                extra.append(st)
        sym = mx.sym.Group(outs + extra)
    return cell, sym, len(outs)


def input_shapes(mx, case, cell):
    if case.list_inputs:
        shapes = {f"t{i}_data": case.shape for i in range(case.length)}
    else:
        shapes = {"data": case.shape}
    if case.state_vars:
        batch = case.shape[case.layout.find("N")]
        for k, info in enumerate(cell.state_info):
            shp = tuple(batch if s == 0 else s for s in info["shape"])
            shapes[f"{cell._prefix}begin_state_{k}"] = shp
    return shapes


def _jsonable(x):
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def run_case(mx, case):
    """Everything recorded for one case: ``(meta dict, arrays dict)``."""
    cell, sym, n_out = build_case(mx, case)
    meta = {
        "state_info": _jsonable(cell.state_info),
        "arguments": sym.list_arguments(),
        "outputs": sym.list_outputs(),
        "aux": sym.list_auxiliary_states(),
        "json": sym.tojson(),
        "n_out": n_out,
    }
    shapes = input_shapes(mx, case, cell)
    arg_shapes, out_shapes, _ = sym.infer_shape(**shapes)
    meta["arg_shapes"] = [list(s) for s in arg_shapes]
    meta["out_shapes"] = [list(s) for s in out_shapes]
    rng = np.random.RandomState(seed_of(case.id))
    values = {name: rng.uniform(-0.8, 0.8, shp).astype(np.float32)
              for name, shp in zip(sym.list_arguments(), arg_shapes)}
    exe = sym.simple_bind(mx.cpu(), grad_req="write" if case.train else "null", **shapes)
    for name, v in values.items():
        exe.arg_dict[name][:] = v
    outs = exe.forward(is_train=case.train)
    arrays = {f"y{i}": o.asnumpy() for i, o in enumerate(outs)}
    if case.train:
        heads = [rng.uniform(-1, 1, s).astype(np.float32) for s in out_shapes]
        exe.backward([mx.nd.array(h) for h in heads])
        for name in sym.list_arguments():
            arrays[f"g/{name}"] = exe.grad_dict[name].asnumpy()

    weights = {k: mx.nd.array(v) for k, v in values.items() if k not in shapes}
    try:
        unpacked = cell.unpack_weights(weights)
    except Exception as err:  # noqa: BLE001 - recorded: cells sharing foreign-named weights
        meta["unpack_error"] = type(err).__name__
        return meta, arrays
    meta["unpacked"] = sorted(unpacked)
    for k, v in unpacked.items():
        if k not in weights:
            arrays[f"u/{k}"] = v.asnumpy()
    repacked = cell.pack_weights(unpacked)
    meta["repack_keys_equal"] = sorted(repacked) == sorted(weights)
    meta["repack_equal"] = meta["repack_keys_equal"] and all(
        np.array_equal(repacked[k].asnumpy(), weights[k].asnumpy()) for k in weights)
    return meta, arrays


# ---------------------------------------------------------------------------------------------
# iterator


WORDS = ["the", "cat", "dog", "sat", "on", "mat", "a", "ran", "far", "away", "and", "slept"]


def corpus(seed=3, n=40, max_len=9):
    rng = np.random.RandomState(seed)
    lengths = rng.randint(1, max_len + 1, size=n)
    return [[WORDS[j] for j in rng.randint(0, len(WORDS), size=k)] for k in lengths]


def iterator_run(mx):
    """``(meta, arrays)`` of encode_sentences and BucketSentenceIter runs."""
    sents = corpus()
    meta, arrays = {}, {}
    enc, vocab = mx.rnn.encode_sentences(sents, invalid_label=0, start_label=1)
    meta["encoded"] = enc
    meta["vocab"] = vocab
    enc2, vocab2 = mx.rnn.encode_sentences([["cat", "zebra", "dog"], ["yak"]], vocab=dict(vocab),
                                           unknown_token="<unk>")
    meta["encoded_unk"] = enc2
    meta["vocab_unk"] = vocab2
    enc3, vocab3 = mx.rnn.encode_sentences(sents[:4])
    meta["encoded_default"] = enc3
    meta["vocab_default"] = vocab3

    runs = {"nt_buckets": dict(buckets=[3, 5, 7], layout="NT", invalid_label=0),
            "tn_buckets": dict(buckets=[4, 9], layout="TN", invalid_label=0),
            "nt_auto": dict(layout="NT", invalid_label=-1)}
    for key, kw in runs.items():
        random.seed(11)
        np.random.seed(11)
        it = mx.rnn.BucketSentenceIter(enc, 4, **kw)
        rec = {"buckets": list(it.buckets), "default_bucket_key": it.default_bucket_key,
               "provide_data": [[d.name, list(d.shape), d.layout] for d in it.provide_data],
               "provide_label": [[d.name, list(d.shape), d.layout] for d in it.provide_label],
               "batches": []}
        for epoch in range(2):
            if epoch:
                it.reset()
            for b, batch in enumerate(it):
                rec["batches"].append([batch.bucket_key, batch.pad,
                                       [list(d.shape) for d in batch.provide_data],
                                       [list(d.shape) for d in batch.provide_label]])
                arrays[f"iter/{key}/{epoch}/{b}/data"] = batch.data[0].asnumpy()
                arrays[f"iter/{key}/{epoch}/{b}/label"] = batch.label[0].asnumpy()
        meta[key] = rec
    return meta, arrays


# ---------------------------------------------------------------------------------------------
# checkpoints


def checkpoint_run(mx, workdir):
    """``(meta, arrays)`` of a save/load_rnn_checkpoint round trip in ``workdir``."""
    with mx.name.NameManager():
        cell = mx.rnn.FusedRNNCell(3, num_layers=1, mode="lstm", bidirectional=True,
                                   prefix="lstm_")
        out, _ = cell.unroll(2, mx.sym.Variable("data"), layout="TNC", merge_outputs=True)
        sym = mx.sym.FullyConnected(out, num_hidden=2, name="pred")
    arg_shapes, _, _ = sym.infer_shape(data=(2, 2, 4))
    rng = np.random.RandomState(5)
    args = {n: mx.nd.array(rng.uniform(-1, 1, s).astype(np.float32))
            for n, s in zip(sym.list_arguments(), arg_shapes) if n != "data"}
    prefix = os.path.join(workdir, "ck")
    mx.rnn.save_rnn_checkpoint(cell, prefix, 3, sym, args, {})
    stored = mx.nd.load(prefix + "-0003.params")
    meta = {"stored": sorted(stored), "symbol_json": open(prefix + "-symbol.json").read()}
    arrays = {f"ck/stored/{k}": v.asnumpy() for k, v in stored.items()}
    sym2, arg2, aux2 = mx.rnn.load_rnn_checkpoint([cell], prefix, 3)
    meta["loaded"] = sorted(arg2)
    meta["loaded_aux"] = sorted(aux2)
    meta["loaded_args"] = sym2.list_arguments()
    arrays.update({f"ck/loaded/{k}": v.asnumpy() for k, v in arg2.items()})
    cb = mx.rnn.do_rnn_checkpoint(cell, os.path.join(workdir, "cb"), period=2)
    for epoch in range(4):
        cb(epoch, sym, args, {})
    meta["callback_files"] = sorted(f for f in os.listdir(workdir) if f.startswith("cb"))
    return meta, arrays


# ---------------------------------------------------------------------------------------------
# a tiny bucketing language model


LM_BUCKETS = [4, 6, 9]


def lm_symbol(mx, vocab_size, num_embed=6, num_hidden=8, num_layers=2, fused=False):
    if fused:
        cell = mx.rnn.FusedRNNCell(num_hidden, num_layers=num_layers, mode="lstm",
                                   prefix="lstm_")
    else:
        cell = mx.rnn.SequentialRNNCell()
        for i in range(num_layers):
            cell.add(mx.rnn.LSTMCell(num_hidden, prefix=f"lstm_l{i}_"))

    def sym_gen(seq_len):
        data = mx.sym.Variable("data")
        label = mx.sym.Variable("softmax_label")
        embed = mx.sym.Embedding(data=data, input_dim=vocab_size, output_dim=num_embed,
                                 name="embed")
        cell.reset()
        outputs, _ = cell.unroll(seq_len, inputs=embed, merge_outputs=True)
        pred = mx.sym.Reshape(outputs, shape=(-1, num_hidden))
        pred = mx.sym.FullyConnected(data=pred, num_hidden=vocab_size, name="pred")
        label = mx.sym.Reshape(label, shape=(-1,))
        pred = mx.sym.SoftmaxOutput(data=pred, label=label, name="softmax", use_ignore=True,
                                    ignore_label=0)
        return pred, ("data",), ("softmax_label",)

    return cell, sym_gen


def train_lm(mx, fused=False):
    """Per-batch training perplexity over two epochs and the final validation perplexity."""
    sents = corpus(seed=8, n=96, max_len=8)
    enc, vocab = mx.rnn.encode_sentences(sents, invalid_label=0, start_label=1)
    vocab_size = len(vocab) + 1
    random.seed(2)
    np.random.seed(2)
    train = mx.rnn.BucketSentenceIter(enc[:60], 6, buckets=list(LM_BUCKETS), invalid_label=0)
    val = mx.rnn.BucketSentenceIter(enc[60:], 6, buckets=list(LM_BUCKETS), invalid_label=0)
    _, sym_gen = lm_symbol(mx, vocab_size, fused=fused)
    mod = mx.mod.BucketingModule(sym_gen=sym_gen, default_bucket_key=train.default_bucket_key,
                                 context=mx.cpu())
    mod.bind(data_shapes=train.provide_data, label_shapes=train.provide_label)
    arg_names = mod._curr_module._symbol.list_arguments()
    arg_shapes, _, _ = mod._curr_module._symbol.infer_shape(
        data=train.provide_data[0].shape, softmax_label=train.provide_label[0].shape)
    rng = np.random.RandomState(4)
    args = {n: mx.nd.array(rng.uniform(-0.3, 0.3, s).astype(np.float32))
            for n, s in zip(arg_names, arg_shapes) if n not in ("data", "softmax_label")}
    mod.init_params(arg_params=args, aux_params={}, allow_missing=False)
    trace = []

    def on_batch(param):
        trace.append(float(param.eval_metric.get()[1]))

    mod.fit(train, eval_metric=mx.metric.Perplexity(0), num_epoch=2, optimizer="sgd",
            optimizer_params={"learning_rate": 0.5, "momentum": 0.5, "wd": 1e-4},
            batch_end_callback=on_batch)
    score = mod.score(val, mx.metric.Perplexity(0))
    return {"trace": trace, "val": [[n, float(v)] for n, v in score],
            "arg_names": sorted(args)}


# ---------------------------------------------------------------------------------------------


def main():
    import mxnet as mx

    meta = {"cases": {}}
    out = {}
    for case in CASES:
        m, arrays = run_case(mx, case)
        meta["cases"][case.id] = m
        out.update({f"{case.id}/{k}": v for k, v in arrays.items()})
    m, arrays = iterator_run(mx)
    meta["iterator"] = m
    out.update(arrays)
    with tempfile.TemporaryDirectory() as tmp:
        m, arrays = checkpoint_run(mx, tmp)
    meta["checkpoint"] = m
    out.update(arrays)
    meta["lm"] = train_lm(mx)
    meta["lm_fused"] = train_lm(mx, fused=True)
    index, pos = {}, 0
    for key, arr in out.items():
        assert arr.dtype == np.float32, (key, arr.dtype)
        index[key] = [pos, list(arr.shape)]
        pos += arr.size
    meta["index"] = index
    flat = np.concatenate([a.ravel() for a in out.values()])
    blob = np.frombuffer(zlib.compress(json.dumps(meta).encode(), 9), np.uint8)
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, __meta__=blob, __data__=flat)
    print(f"wrote {len(out)} arrays to {OUT_NPZ} ({OUT_NPZ.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
