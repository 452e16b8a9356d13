"""Record MXNet 1.9.1's INT8 quantization flow (``mx.contrib.quantization``) on small models.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_SUBGRAPH_BACKEND=NONE MXNET_ENGINE_TYPE=NaiveEngine \\
        /work/main/.ref/bin/python /work/main/tools/golden/gen_quantization_flow.py

``MXNET_SUBGRAPH_BACKEND=NONE`` matters: with 1.9.1's default oneDNN subgraph backend the
float model that calibration runs is fused, its monitor never reports the convolution /
fully-connected outputs, and those requantize nodes silently stay uncalibrated. This
repository has no fusion, so it reproduces the unfused run. For ``quantize_net_v2`` the
``MKLDNN_QUANTIZE`` backend rewrite is turned off (``Symbol.get_backend_symbol`` made the
identity) for the same reason: the fused ``_sg_mkldnn_*`` nodes do not exist here.

Per case and variant, ``tests/golden/quantization_flow.json`` holds the quantized symbol's
JSON text, its calibration-layer list and the quantized argument names/dtypes;
``tests/golden/quantization_flow.npz`` holds the case inputs (float parameters,
calibration and test data), the quantized arguments (except for resnet, where only a
sha256 of each int8 array and the ranges are kept to stay small) and the quantized model's
outputs on the test data where 1.9.1 can run it (its CPU quantized convolution only takes
uint8 data, so the conv case is quantized to uint8).

The model builders below take ``mx`` as an argument so that
``tests/test_contrib_quantization.py`` can rebuild the same inputs with this repository's
mxnet; the module stays importable without mxnet.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[2] / "tests" / "golden"


def mlp_symbol(mx):
    data = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=4, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


def conv_symbol(mx):
    s = mx.sym
    data = s.var("data")
    c1 = s.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=4, name="conv1")
    p1 = s.Pooling(c1, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    c2 = s.Convolution(p1, kernel=(1, 1), num_filter=4, name="conv2")
    c3 = s.Convolution(p1, kernel=(3, 3), pad=(1, 1), num_filter=4, no_bias=True, name="conv3")
    add = s.elemwise_add(c2, c3, name="add1")
    cat = s.Concat(add, p1, dim=1, name="concat1")
    p2 = s.Pooling(cat, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="pool2")
    fl = s.Flatten(p2, name="flatten1")
    fc = s.FullyConnected(fl, num_hidden=5, name="fc1")
    return s.SoftmaxOutput(fc, name="softmax")


def rewrite_graphs(mx):
    """Graphs exercising the rewrite rules only (no parameters needed): name -> Symbol."""
    s = mx.sym
    d, d2 = s.var("data"), s.var("data2")

    def conv(x, n):
        return s.Convolution(x, kernel=(1, 1), num_filter=2, name=n)

    def relu(x, n):
        return s.Activation(x, act_type="relu", name=n)

    sp = s.SliceChannel(d, num_outputs=2, axis=1, name="split")
    c1 = conv(sp[1], "conv1")
    return {
        # a support layer before the first / after the last must layer ('smart' skips it)
        "edges": relu(conv(s.Pooling(d, kernel=(2, 2), pool_type="max", name="pool0"),
                           "conv1"), "relu_out"),
        # a float layer between quantized ones; a quantized output read by a float layer;
        # a layer whose weights are not quantized offline
        "mixed": s.Group([conv(relu(conv(s.Activation(conv(d, "conv1"), act_type="tanh",
                                                      name="tanh1"), "conv2"), "relu2"),
                               "conv3"),
                          s.sigmoid(relu(conv(d, "conv4"), "relu4"), name="sig")]),
        # multi-output float producer; one quantized output read by a float op and a head
        "split": s.Group([c1 + 1, c1, conv(sp[0], "conv2")]),
        "bn_emb_mul": s.Group([s.BatchNorm(conv(d, "c1"), name="bn"),
                               s.Embedding(d2, input_dim=10, output_dim=4, name="emb"),
                               s.elemwise_mul(conv(d, "c2"), d, name="mul")]),
        "unnamed_outputs": s.Group([
            s.Pooling(conv(d + 1, "c1"), kernel=(2, 2), pool_type="max", name="mp"),
            s.Pooling(conv(s.sin(d), "c2"), kernel=(2, 2), pool_type="avg", name="ap")]),
        "concat": s.FullyConnected(s.Flatten(s.Concat(conv(d, "c1"), relu(conv(d, "c2"), "r"),
                                                      dim=1, name="cat"), name="fl"),
                                   num_hidden=3, name="fc"),
        "not_quantizable": s.Group([
            conv(s.Concat(conv(d, "c1"), d2, dim=-1, name="cat0"), "c3"),
            conv(s.Activation(conv(d, "c4"), act_type="sigmoid", name="sg"), "c5"),
            conv(s.LeakyReLU(conv(d, "c6"), name="lk"), "c7")]),
    }


# (quantize_mode, quantized_dtype, excluded symbols, excluded operators)
REWRITE_VARIANTS = [
    ("full", "int8", None, None),
    ("smart", "auto", None, None),
    ("full", "uint8", ["c1", "conv2"], None),
    ("smart", "int8", None, ["Pooling", "elemwise_add", "Flatten"]),
]


def offline_of(sym):
    """The arguments the rewrite cases quantize offline (weights except conv3's)."""
    return [a for a in sym.list_arguments() if "weight" in a and not a.startswith("conv3")]


def random_params(sym, data_shape, seed, label=True):
    """Float parameters for ``sym`` drawn from a seeded NumPy generator (in sorted
    argument order), so both implementations build identical models."""
    shapes = {"data": data_shape}
    if label:
        shapes["softmax_label"] = data_shape[:1]
    arg_shapes, _, aux_shapes = sym.infer_shape(**shapes)
    rng = np.random.RandomState(seed)
    args, auxs = {}, {}
    for name, shp in sorted(zip(sym.list_arguments(), arg_shapes)):
        if name in shapes:
            continue
        fan = int(np.prod(shp[1:])) if len(shp) > 1 else 1
        scale = 0.1 if name.endswith(("bias", "beta")) else 1.0 / np.sqrt(max(fan, 1))
        if name.endswith("gamma"):
            args[name] = (1 + 0.1 * rng.randn(*shp)).astype(np.float32)
        else:
            args[name] = (scale * rng.randn(*shp)).astype(np.float32)
    for name, shp in sorted(zip(sym.list_auxiliary_states(), aux_shapes)):
        if name.endswith("var"):
            auxs[name] = (0.5 + rng.rand(*shp)).astype(np.float32)
        else:
            auxs[name] = (0.1 * rng.randn(*shp)).astype(np.float32)
    return args, auxs


def case_data():
    """name -> (calib data, calib labels or None, test data, batch size)."""
    rng = np.random.RandomState(7)
    return {
        "mlp": (rng.randn(20, 6).astype(np.float32), rng.randint(0, 4, 20).astype(np.float32),
                rng.randn(8, 6).astype(np.float32), 5),
        "conv": (rng.rand(8, 3, 8, 8).astype(np.float32), None,
                 rng.rand(4, 3, 8, 8).astype(np.float32), 4),
        "resnet": (rng.rand(4, 3, 32, 32).astype(np.float32), None, None, 2),
        "gluon": (rng.randn(12, 6).astype(np.float32), rng.randint(0, 3, 12).astype(np.float32),
                  rng.randn(5, 6).astype(np.float32), 4),
    }


# quantize_model keyword variants per case
VARIANTS = {
    "mlp": [
        dict(calib_mode="none", quantized_dtype="int8", quantize_mode="full"),
        dict(calib_mode="naive", quantized_dtype="int8", quantize_mode="smart"),
        dict(calib_mode="naive", quantized_dtype="uint8", quantize_mode="full"),
        dict(calib_mode="entropy", quantized_dtype="int8", quantize_mode="smart"),
        dict(calib_mode="entropy", quantized_dtype="auto", quantize_mode="full"),
        dict(calib_mode="naive", quantized_dtype="auto", quantize_mode="smart",
             num_calib_examples=10),
        dict(calib_mode="naive", quantized_dtype="int8", quantize_mode="full",
             excluded_sym_names=["fc1"]),
        dict(calib_mode="naive", quantized_dtype="int8", quantize_mode="full",
             excluded_op_names=["Activation"]),
    ],
    "conv": [
        dict(calib_mode="naive", quantized_dtype="uint8", quantize_mode="smart"),
        dict(calib_mode="none", quantized_dtype="uint8", quantize_mode="full"),
        dict(calib_mode="entropy", quantized_dtype="uint8", quantize_mode="full"),
    ],
    "resnet": [
        dict(calib_mode="naive", quantized_dtype="auto", quantize_mode="smart"),
        dict(calib_mode="entropy", quantized_dtype="auto", quantize_mode="full"),
        dict(calib_mode="none", quantized_dtype="int8", quantize_mode="smart",
             excluded_sym_names=["resnetv10_conv0_fwd"]),
    ],
}

GLUON_VARIANTS = [
    dict(calib_mode="naive", quantized_dtype="auto", quantize_mode="full"),
    dict(calib_mode="entropy", quantized_dtype="int8", quantize_mode="smart"),
]


def gluon_net(mx):
    net = mx.gluon.nn.HybridSequential(prefix="qnet_")
    with net.name_scope():
        net.add(mx.gluon.nn.Dense(8, activation="relu", in_units=6, prefix="d0_"))
        net.add(mx.gluon.nn.Dense(3, in_units=8, prefix="d1_"))
    net.initialize()
    rng = np.random.RandomState(3)
    for _, p in sorted(net.collect_params().items()):
        p.set_data(mx.nd.array(0.5 * rng.randn(*p.shape)))
    return net


def _sha(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def _run(mx, qsym, qargs, auxs, x):
    args = dict(qargs)
    args["data"] = mx.nd.array(x)
    if "softmax_label" in qsym.list_arguments():
        args["softmax_label"] = mx.nd.zeros((x.shape[0],))
    ex = qsym.bind(mx.cpu(), args={k: args[k] for k in qsym.list_arguments()},
                   aux_states={k: auxs[k] for k in qsym.list_auxiliary_states()},
                   grad_req="null")
    ex.forward(is_train=False)
    return ex.outputs[0].asnumpy()


def run_with_dequantized(mx, qsym, qargs, auxs, x):
    """(model output, output of the last dequantize node) on ``x``."""
    internals = qsym.get_internals()
    names = [n for n in internals.list_outputs() if n.endswith("_dequantize_output")]
    both = mx.sym.Group([qsym, internals[names[-1]]])
    return tuple(_run_group(mx, both, qargs, auxs, x))


def _run_group(mx, sym, qargs, auxs, x):
    args = dict(qargs)
    args["data"] = mx.nd.array(x)
    if "softmax_label" in sym.list_arguments():
        args["softmax_label"] = mx.nd.zeros((x.shape[0],))
    ex = sym.bind(mx.cpu(), args={k: args[k] for k in sym.list_arguments()},
                  aux_states={k: auxs[k] for k in sym.list_auxiliary_states()},
                  grad_req="null")
    ex.forward(is_train=False)
    return [o.asnumpy() for o in ex.outputs]


def main():
    import mxnet as mx
    from mxnet.contrib import quantization as q

    # 1.9.1 only checks that scipy imports before entropy calibration (it never calls it;
    # the search is the _contrib_calibrate_entropy operator); the reference venv has none
    if q.stats is None:
        q.stats = object()
    if os.environ.get("MXNET_SUBGRAPH_BACKEND") != "NONE":
        sys.exit("run with MXNET_SUBGRAPH_BACKEND=NONE (see the module docstring)")
    meta, arrays = {}, {}
    data = case_data()
    sym_of = {"mlp": mlp_symbol(mx), "conv": conv_symbol(mx)}
    net = mx.gluon.model_zoo.vision.resnet18_v1()
    net.hybridize()
    sym_of["resnet"] = net(mx.sym.var("data"))
    meta["resnet_symbol"] = sym_of["resnet"].tojson()
    for case, variants in VARIANTS.items():
        sym = sym_of[case]
        xc, yc, xt, bs = data[case]
        label = case != "resnet"
        args, auxs = random_params(sym, (bs,) + xc.shape[1:], seed=11, label=label)
        if case != "resnet":  # resnet's 11M parameters are rebuilt from the seed instead
            for k, v in args.items():
                arrays[f"{case}/param/{k}"] = v
            for k, v in auxs.items():
                arrays[f"{case}/aux/{k}"] = v
        nd_args = {k: mx.nd.array(v) for k, v in args.items()}
        nd_auxs = {k: mx.nd.array(v) for k, v in auxs.items()}
        if xt is not None:
            arrays[f"{case}/float_out"] = _run(mx, sym, nd_args, nd_auxs, xt)
        for vi, kw in enumerate(variants):
            it = mx.io.NDArrayIter(xc, yc, batch_size=bs) if yc is not None else \
                mx.io.NDArrayIter(xc, batch_size=bs)
            kw = dict(kw)
            qsym, qargs, qauxs = q.quantize_model(
                sym, nd_args, nd_auxs, ctx=mx.cpu(), calib_data=it,
                label_names=("softmax_label",) if label else None, **kw)
            key = f"{case}/{vi}"
            _, calib = q._quantize_symbol(
                sym, mx.cpu(), excluded_symbols=kw.get("excluded_sym_names"),
                excluded_operators=kw.get("excluded_op_names"), offline_params=list(args),
                quantized_dtype=kw["quantized_dtype"], quantize_mode=kw["quantize_mode"])
            meta[key] = {"kwargs": kw, "json": qsym.tojson(), "calib_layers": calib,
                         "qargs": {k: str(v.dtype.__name__ if hasattr(v.dtype, "__name__")
                                              else v.dtype) for k, v in qargs.items()}}
            if case == "resnet":
                meta[key]["sha256"] = {k: _sha(v.asnumpy()) for k, v in qargs.items()
                                       if k.endswith("_quantize")}
                for k, v in qargs.items():
                    if k.endswith(("_quantize_min", "_quantize_max")):
                        arrays[f"{key}/arg/{k}"] = v.asnumpy()
            else:
                for k, v in qargs.items():
                    if k.endswith(("_quantize", "_quantize_min", "_quantize_max")):
                        arrays[f"{key}/arg/{k}"] = v.asnumpy()
                out, deq = run_with_dequantized(mx, qsym, qargs, qauxs, xt)
                arrays[f"{key}/out"], arrays[f"{key}/deq"] = out, deq
        arrays[f"{case}/calib_x"] = xc
        if yc is not None:
            arrays[f"{case}/calib_y"] = yc
        if xt is not None:
            arrays[f"{case}/test_x"] = xt

    with mx.name.NameManager():
        graphs = rewrite_graphs(mx)
    for gname, g in graphs.items():
        for vi, (mode, dt, ex_sym, ex_op) in enumerate(REWRITE_VARIANTS):
            qsym, calib = q._quantize_symbol(
                g, mx.cpu(), excluded_symbols=ex_sym, excluded_operators=ex_op,
                offline_params=offline_of(g), quantized_dtype=dt, quantize_mode=mode)
            meta[f"rewrite/{gname}/{vi}"] = {"json": qsym.tojson(), "calib_layers": calib}

    # Gluon: quantize_net_v2 without the oneDNN rewrite
    mx.sym.Symbol.get_backend_symbol = lambda self, backend: self
    xc, yc, xt, bs = data["gluon"]
    for vi, kw in enumerate(GLUON_VARIANTS):
        net = gluon_net(mx)
        if vi == 0:
            arrays["gluon/float_out"] = net(mx.nd.array(xt)).asnumpy()
            for k, p in net.collect_params().items():
                arrays[f"gluon/param/{k}"] = p.data().asnumpy()
        loader = mx.gluon.data.DataLoader(
            mx.gluon.data.ArrayDataset(mx.nd.array(xc), mx.nd.array(yc)), batch_size=bs)
        qnet = q.quantize_net_v2(net, calib_data=loader, ctx=mx.cpu(), **kw)
        arrays[f"gluon/{vi}/out"] = qnet(mx.nd.array(xt)).asnumpy()
        qsym = qnet._cached_graph[1]
        meta[f"gluon/{vi}"] = {"kwargs": kw, "json": qsym.tojson()}
    arrays["gluon/calib_x"], arrays["gluon/calib_y"], arrays["gluon/test_x"] = xc, yc, xt

    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "quantization_flow.json", "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    np.savez_compressed(OUT / "quantization_flow.npz", **arrays)
    print("wrote", len(meta), "entries and", len(arrays), "arrays")


if __name__ == "__main__":
    main()
