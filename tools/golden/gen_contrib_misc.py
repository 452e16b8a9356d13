"""Golden data for mx.contrib.{amp,text,svrg_optimization} from the reference MXNet 1.9.1.

Run under the reference venv from /tmp:
    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_contrib_misc.py

Writes
- tests/golden/contrib_misc.json: converted-symbol JSON (amp), vocabulary/embedding
  results (text), SVRG parameters after training (svrg_optimization);
- mxnet/contrib/amp/lists/symbol_fp16.py and symbol_bf16.py: 1.9.1's AMP operator-name
  lists, as plain data (the names are facts about 1.9.1's operator set).
"""
import collections
import json
import os
import pprint

import numpy as np
import mxnet as mx
from mxnet.contrib import amp
from mxnet.contrib import text

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "golden", "contrib_misc.json")
LISTS = os.path.join(ROOT, "mxnet", "contrib", "amp", "lists")


def write_lists():
    from mxnet.contrib.amp.lists import symbol_fp16, symbol_bf16
    os.makedirs(LISTS, exist_ok=True)
    for mod, fname, names in (
            (symbol_fp16, "symbol_fp16.py",
             ("FP16_FUNCS", "FP16_FP32_FUNCS", "FP32_FUNCS", "CONDITIONAL_FP32_FUNCS",
              "WIDEST_TYPE_CASTS", "LOSS_OUTPUT_FUNCTIONS")),
            (symbol_bf16, "symbol_bf16.py",
             ("BF16_FUNCS", "BF16_FP32_FUNCS", "BF16_USE_FP32_PARAMS", "FP32_FUNCS",
              "CONDITIONAL_FP32_FUNCS", "WIDEST_TYPE_CASTS", "LOSS_OUTPUT_FUNCTIONS"))):
        lines = [f'"""AMP operator-name lists of MXNet 1.9.1 ({fname[:-3]}); generated data.',
                 "", "Written by tools/golden/gen_contrib_misc.py from the reference "
                 "installation; do not edit.", '"""', ""]
        for n in names:
            lines.append(f"{n} = {pprint.pformat(getattr(mod, n), width=84, compact=True)}")
            lines.append("")
        with open(os.path.join(LISTS, fname), "w") as f:
            f.write("\n".join(lines))


# Attribute sets tried in turn when probing an operator whose parameters are required.
_PROBE_ATTRS = [
    {}, {"act_type": "relu"}, {"kernel": "(1, 1)", "num_filter": "1"}, {"num_hidden": "1"},
    {"shape": "(1,)"}, {"axis": "0"}, {"kernel": "(1, 1)"}, {"num_outputs": "1"}, {"dim": "1"},
    {"mode": "constant", "pad_width": "(0,0,0,0,0,0,0,0)"}, {"scalar": "1"},
    {"output_dim": "2", "input_dim": "2"}, {"num_args": "1"}, {"dtype": "float32"},
    {"axes": "(0,)"}, {"begin": "(0,)", "end": "(1,)"}, {"depth": "2"}, {"reps": "(1,)"},
    {"repeats": "1"}, {"k": "1"}, {"size": "1"}, {"pooled_size": "(1,1)", "spatial_scale": "1"}]
_PROBE_SKIP = {"_sg_mkldnn_fully_connected"}  # crashes the reference when loaded this way


def probe_output_names():
    """Which operators name their outputs (FListOutputNames) in 1.9.1's cast-node names.

    ReducePrecision names a cast of output i of node X as ``X_<name>_amp_cast_<dtype>``
    where <name> is the op's output name when it registers FListOutputNames, else ``i``.
    Python cannot read that attribute, so each op is placed before a FullyConnected and
    the name of the cast that convert_symbol inserts is read back.
    """
    named = {}
    for op in mx.operator.get_all_registered_operators():
        if op == "FullyConnected" or op.startswith("_backward") or op in _PROBE_SKIP:
            continue
        for extra in _PROBE_ATTRS:
            found = None
            for nin in (1, 2, 3):
                nodes = [{"op": "null", "name": f"v{i}", "inputs": []} for i in range(nin)]
                nodes.append({"op": op, "name": "x", "attrs": extra,
                              "inputs": [[i, 0, 0] for i in range(nin)]})
                nodes.append({"op": "null", "name": "w", "inputs": []})
                nodes.append({"op": "FullyConnected", "name": "fc",
                              "attrs": {"num_hidden": "2", "no_bias": "True"},
                              "inputs": [[nin, 0, 0], [nin + 1, 0, 0]]})
                g = {"nodes": nodes, "arg_nodes": list(range(nin)) + [nin + 1],
                     "node_row_ptr": list(range(nin + 4)), "heads": [[nin + 2, 0, 0]],
                     "attrs": {"mxnet_version": ["int", 10901]}}
                try:
                    s = mx.sym.load_json(json.dumps(g))
                    c = amp.convert_symbol(s, target_dtype_ops=["FullyConnected"], fp32_ops=[],
                                           conditional_fp32_ops=[])
                except Exception:  # noqa: BLE001 - wrong arity or parameters: try the next
                    continue
                names = [n["name"] for n in json.loads(c.tojson(remove_amp_cast=False))["nodes"]]
                found = [n[2:-len("_amp_cast_float16")] for n in names
                         if n.startswith("x_") and n.endswith("_amp_cast_float16")]
                break
            if found is not None:
                if found and found[0] != "0":
                    named[op] = found[0]
                break
    named["FullyConnected"] = "output"
    lines = ['"""Operators whose outputs 1.9.1 names (FListOutputNames) in amp cast-node names.',
             "", "Maps op name -> the name of output 0. Generated by tools/golden/"
             "gen_contrib_misc.py", "(probing the reference); do not edit.", '"""', "",
             f"NAMED_OUTPUTS = {pprint.pformat(named, width=84, compact=True)}", ""]
    with open(os.path.join(LISTS, "output_names.py"), "w") as f:
        f.write("\n".join(lines))


def write_pretrained_names():
    # keep 1.9.1's own order: get_pretrained_file_names returns the names in that order
    names = {k: list(v) for k, v in text.embedding.get_pretrained_file_names().items()}
    path = os.path.join(ROOT, "mxnet", "contrib", "text", "_pretrained_names.py")
    lines = ['"""Pre-trained embedding file names 1.9.1 knows (GloVe, fastText); generated data.',
             "", "Written by tools/golden/gen_contrib_misc.py from the reference installation; "
             "do not edit.", '"""', ""]
    for k in sorted(names):
        lines.append(f"{k.upper()}_FILES = {pprint.pformat(names[k], width=84, compact=True)}")
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def mlp():
    data = mx.sym.var("data")
    x = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    x = mx.sym.Activation(x, act_type="relu", name="relu1")
    x = mx.sym.FullyConnected(x, num_hidden=4, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def cnn():
    data = mx.sym.var("data")
    c1 = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name="conv1")
    b1 = mx.sym.BatchNorm(c1, name="bn1")
    a1 = mx.sym.Activation(b1, act_type="relu", name="relu1")
    c2 = mx.sym.Convolution(a1, kernel=(3, 3), num_filter=4, pad=(1, 1), name="conv2")
    s = mx.sym.elemwise_add(c2, a1, name="add1")
    s2 = mx.sym.Activation(s, act_type="softrelu", name="srelu")
    p = mx.sym.Pooling(s2, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    cat = mx.sym.concat(p, p, dim=1, name="cat")
    lk = mx.sym.LeakyReLU(cat, act_type="elu", name="elu")
    f = mx.sym.flatten(lk, name="flat")
    fc = mx.sym.FullyConnected(f, num_hidden=3, name="fc")
    return mx.sym.softmax(fc, name="prob")


def amp_cases():
    cases = {}
    for name, fn in (("mlp", mlp), ("cnn", cnn)):
        s = fn()
        cases[f"{name}_fp16"] = amp.convert_symbol(s).tojson(remove_amp_cast=False)
        cases[f"{name}_bf16"] = amp.convert_symbol(s, target_dtype="bfloat16").tojson(
            remove_amp_cast=False)
        cases[f"{name}_fp16_optional"] = amp.convert_symbol(
            s, cast_optional_params=True).tojson(remove_amp_cast=False)
    cases["mlp_fp16_excl"] = amp.convert_symbol(mlp(), excluded_sym_names=["fc2"]).tojson(
        remove_amp_cast=False)
    cases["cnn_fp16_excl"] = amp.convert_symbol(
        cnn(), excluded_sym_names=["conv2", "add1"]).tojson(remove_amp_cast=False)
    cases["mlp_custom"] = amp.convert_symbol(
        mlp(), target_dtype_ops=["FullyConnected"], fp32_ops=["SoftmaxOutput"],
        conditional_fp32_ops=[("Activation", "act_type", ["relu"])]).tojson(
            remove_amp_cast=False)
    cases["cnn_data_names"] = amp.convert_symbol(
        cnn(), data_names=["data"]).tojson(remove_amp_cast=False)
    cases["cnn_data_names_optional"] = amp.convert_symbol(
        cnn(), data_names=["data"], cast_optional_params=True).tojson(remove_amp_cast=False)
    cases["cnn_bf16_data_names"] = amp.convert_symbol(
        cnn(), target_dtype="bfloat16", data_names=["data"]).tojson(remove_amp_cast=False)
    # widest-type ops fed by inputs of unknown precision get amp_multicast
    a, b = mx.sym.var("a"), mx.sym.var("b")
    w = mx.sym.elemwise_add(mx.sym.exp(a, name="ea"), mx.sym.exp(b, name="eb"), name="sum")
    cases["widest_unknown"] = amp.convert_symbol(w).tojson(remove_amp_cast=False)
    w2 = mx.sym.broadcast_mul(mx.sym.FullyConnected(a, num_hidden=2, name="fa"),
                              mx.sym.sum(b, name="sb"), name="bm")
    cases["widest_mixed"] = amp.convert_symbol(w2).tojson(remove_amp_cast=False)
    c = mx.sym.var("c")
    cases["multicast_vars"] = amp.convert_symbol(
        mx.sym.elemwise_add(a, b, name="ab")).tojson(remove_amp_cast=False)
    fa = mx.sym.FullyConnected(a, num_hidden=2, name="fa")
    cases["multicast_mixed"] = amp.convert_symbol(mx.sym.Group([
        mx.sym.broadcast_add(fa, c, name="bc"),
        mx.sym.concat(fa, mx.sym.relu(b, name="rb"), dim=0, name="cc")])).tojson(
            remove_amp_cast=False)
    # convert_model: which params change dtype
    s = mlp()
    args = {"fc1_weight": mx.nd.ones((16, 8)), "fc1_bias": mx.nd.zeros((16,)),
            "fc2_weight": mx.nd.ones((4, 16)), "fc2_bias": mx.nd.zeros((4,))}
    model = {}
    for opt in (False, True):
        s2, a2, _ = amp.convert_model(s, dict(args), {}, cast_optional_params=opt)
        model[str(opt)] = {"json": s2.tojson(remove_amp_cast=False),
                           "dtypes": {k: str(v.dtype) for k, v in a2.items()}}
    cases["convert_model"] = model
    return cases


def text_cases():
    res = {}
    src = " Life is great ! \n life is good . \n the the the a a b "
    cnt = text.utils.count_tokens_from_str(src, " ", "\n", True)
    res["count"] = dict(cnt)
    cnt2 = text.utils.count_tokens_from_str("*x*y*\n*x*", "\\*", "\n", False,
                                            collections.Counter({"x": 1, "z": 5}))
    res["count_update"] = dict(cnt2)
    counter = collections.Counter(["a", "b", "b", "c", "c", "c", "some_word$", "b", "a", "d"])
    vocabs = {}
    for key, kw in {
            "default": {},
            "most2": {"most_freq_count": 2},
            "min2": {"min_freq": 2},
            "reserved": {"reserved_tokens": ["<pad>", "<bos>"], "unknown_token": "<unk>"},
            "unk_in_counter": {"unknown_token": "a", "min_freq": 1},
            "reserved_most": {"reserved_tokens": ["c"], "most_freq_count": 3}}.items():
        v = text.vocab.Vocabulary(counter, **kw)
        vocabs[key] = {"idx_to_token": v.idx_to_token, "token_to_idx": v.token_to_idx,
                       "len": len(v), "reserved": v.reserved_tokens,
                       "indices": v.to_indices(["c", "zz", "a", "<pad>"]),
                       "tokens": v.to_tokens(list(range(len(v))))}
    res["vocab"] = vocabs
    # a local vector file
    path = "/tmp/contrib_misc_vecs.txt"
    with open(path, "w") as f:
        f.write("a 0.1 0.2 0.3\nb 1 2 3\nc -1 -2 -3\nunk 9 9 9\n")
    emb = text.embedding.CustomEmbedding(path, elem_delim=" ")
    emb_v = text.embedding.CustomEmbedding(
        path, elem_delim=" ", vocabulary=text.vocab.Vocabulary(counter, min_freq=2))
    res["custom"] = {"idx_to_token": emb.idx_to_token, "vec_len": emb.vec_len,
                     "idx_to_vec": emb.idx_to_vec.asnumpy().tolist(),
                     "get": emb.get_vecs_by_tokens(["b", "zz", "A"], lower_case_backup=True)
                     .asnumpy().tolist(),
                     "vocab_idx_to_token": emb_v.idx_to_token,
                     "vocab_idx_to_vec": emb_v.idx_to_vec.asnumpy().tolist()}
    emb.update_token_vectors(["a", "c"], mx.nd.array([[5, 5, 5], [6, 6, 6]]))
    res["custom"]["updated"] = emb.idx_to_vec.asnumpy().tolist()
    path2 = "/tmp/contrib_misc_vecs2.txt"
    with open(path2, "w") as f:
        f.write("b 7 8\nd 3 4\n")
    e1 = text.embedding.CustomEmbedding(path, elem_delim=" ")
    e2 = text.embedding.CustomEmbedding(path2, elem_delim=" ")
    comp = text.embedding.CompositeEmbedding(text.vocab.Vocabulary(counter), [e1, e2])
    res["composite"] = {"idx_to_token": comp.idx_to_token, "vec_len": comp.vec_len,
                        "idx_to_vec": comp.idx_to_vec.asnumpy().tolist()}
    res["pretrained"] = {k: sorted(v) for k, v in
                         text.embedding.get_pretrained_file_names().items()}
    return res


def svrg_case():
    from mxnet.contrib.svrg_optimization.svrg_module import SVRGModule
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (20, 3)).astype("float32")
    y = (x @ np.array([1.5, -2.0, 0.5], dtype="float32") + 0.3).astype("float32")
    data = mx.sym.var("data")
    label = mx.sym.var("lin_reg_label")
    fc = mx.sym.FullyConnected(data, num_hidden=1, name="fc")
    out = mx.sym.LinearRegressionOutput(fc, label, name="lro")
    init = {"fc_weight": mx.nd.array([[0.1, 0.2, -0.1]]), "fc_bias": mx.nd.array([0.05])}
    res = {"x": x.tolist(), "y": y.tolist(), "init": {k: v.asnumpy().tolist()
                                                      for k, v in init.items()}}
    for freq, epochs in ((1, 1), (2, 3)):
        it = mx.io.NDArrayIter(x, y, batch_size=6, label_name="lin_reg_label")
        mod = SVRGModule(out, data_names=["data"], label_names=["lin_reg_label"],
                         update_freq=freq)
        mod.fit(it, eval_metric="mse", optimizer="sgd",
                optimizer_params=(("learning_rate", 0.05),), num_epoch=epochs,
                arg_params={k: v.copy() for k, v in init.items()}, kvstore="local")
        arg, _ = mod.get_params()
        res[f"freq{freq}_epochs{epochs}"] = {k: v.asnumpy().tolist() for k, v in arg.items()}
        res[f"freq{freq}_epochs{epochs}_full"] = {
            k: v.asnumpy().tolist() for k, v in mod._param_dict[0].items()}
    return res


def main():
    write_lists()
    probe_output_names()
    write_pretrained_names()
    out = {"amp": amp_cases(), "text": text_cases(), "svrg": svrg_case()}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", OUT, os.path.getsize(OUT))


if __name__ == "__main__":
    main()
