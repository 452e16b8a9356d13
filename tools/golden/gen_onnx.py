"""Record the ONNX graphs MXNet 1.9.1's exporter (mx.onnx) writes, for tests/test_onnx.

Run under the reference venv, with onnx installed there (``/work/main/.ref/bin/pip install
'onnx<1.14'``; 1.13.1 works with its numpy and protobuf), from a directory other than the
repository root:

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_onnx.py

1.9.1's export_model stamps the installed onnx's newest opset on the file although its
converters are written for opsets 12 and 13; this script calls the converter at opset 13.
For each model it stores the -symbol.json, the input shapes and every ONNX node (op type,
name, inputs, outputs, attributes) in tests/golden/onnx_ref_graphs.json. For the small
models it also writes 1.9.1's whole .onnx file (tests/golden/onnx_ref_<name>.onnx), with
the input used (tests/golden/onnx_ref_inputs.npz), so that tests can run 1.9.1's file and
mxnet-py's side by side.
"""
import json
import os

import mxnet as mx
import numpy as np
import onnx
from mxnet.gluon.model_zoo import vision
from mxnet.onnx.mx2onnx._export_onnx import MXNetGraph
from onnx import helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden")
S = mx.sym


def mlp():
    x = S.var("data")
    h = S.FullyConnected(x, num_hidden=16, name="fc1")
    h = S.Activation(h, act_type="relu", name="relu1")
    h = S.BatchNorm(h, fix_gamma=False, name="bn1")
    h = S.Dropout(h, p=0.3, name="drop")
    h = S.LeakyReLU(S.FullyConnected(h, num_hidden=8, name="fc2"), act_type="leaky", slope=0.1,
                    name="leaky")
    h = S.clip(h, -2.0, 2.0, name="clip")
    return S.SoftmaxOutput(S.FullyConnected(h, num_hidden=4, name="fc3"), name="softmax"), [(3, 10)]


def cnn():
    x = S.var("data")
    c1 = S.Convolution(x, kernel=(3, 3), num_filter=8, pad=(1, 1), name="conv1")
    c1 = S.BatchNorm(c1, fix_gamma=False, eps=1e-5, name="bn1")
    c1 = S.Activation(c1, act_type="relu", name="relu1")
    p1 = S.Pooling(c1, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    a = S.Convolution(p1, kernel=(3, 3), num_filter=8, pad=(1, 1), num_group=2, no_bias=True,
                      name="conv2a")
    b = S.Convolution(p1, kernel=(1, 1), num_filter=8, name="conv2b")
    s = S.elemwise_add(a, b, name="add")
    s = S.Activation(s, act_type="tanh", name="tanh")
    cat = S.Concat(s, p1, dim=1, name="concat")
    p2 = S.Pooling(cat, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
                   count_include_pad=False, name="pool2")
    up = S.UpSampling(p2, scale=2, sample_type="nearest", name="up")
    d = S.Deconvolution(up, kernel=(2, 2), stride=(2, 2), num_filter=4, no_bias=True, name="deconv")
    g = S.Pooling(d, kernel=(1, 1), global_pool=True, pool_type="avg", name="gpool")
    f = S.Flatten(g, name="flatten")
    r = S.Reshape(S.FullyConnected(f, num_hidden=6, name="fc"), shape=(0, 2, 3), name="reshape")
    t = S.transpose(r, axes=(0, 2, 1), name="transpose")
    return S.softmax(t, axis=-1, name="softmax"), [(2, 3, 16, 16)]


def resnet18():
    net = vision.get_model("resnet18_v1", classes=10)
    net.initialize()
    net.hybridize()
    net(mx.nd.zeros((1, 3, 32, 32)))
    return net._cached_graph[1], [(1, 3, 32, 32)]


def random_params(sym, in_shapes, seed=0):
    rng = np.random.default_rng(seed)
    data_names = [n for n in sym.list_inputs() if not n.endswith(("weight", "bias", "gamma",
                                                                  "beta", "moving_mean",
                                                                  "moving_var", "label"))]
    arg_shapes, _, aux_shapes = sym.infer_shape(**dict(zip(data_names, in_shapes)))
    params = {}
    for name, shape in zip(sym.list_arguments(), arg_shapes):
        if name not in data_names and not name.endswith("label"):
            params[name] = mx.nd.array(rng.standard_normal(shape).astype(np.float32) * 0.5)
        elif name.endswith("label"):
            # 1.9.1's exporter mis-indexes its node table when it skips a label input itself
            params[name] = mx.nd.zeros(shape)
    for name, shape in zip(sym.list_auxiliary_states(), aux_shapes):
        lo = 0.5 if name.endswith("var") else -0.5
        params[name] = mx.nd.array(rng.uniform(lo, 1.5, shape).astype(np.float32))
    return params, data_names


def attr_value(a):
    v = helper.get_attribute_value(a)
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, (list, tuple)):
        return [x.decode() if isinstance(x, bytes) else x for x in v]
    if isinstance(v, onnx.TensorProto):
        return onnx.numpy_helper.to_array(v).tolist()
    return v


def main():
    graphs, inputs = {}, {}
    for name, build, keep_file in [("mlp", mlp, True), ("cnn", cnn, True),
                                   ("resnet18_v1", resnet18, False)]:
        sym, in_shapes = build()
        params, data_names = random_params(sym, in_shapes)
        graph = MXNetGraph().create_onnx_graph_proto(
            sym, params, in_shapes, [onnx.TensorProto.FLOAT] * len(in_shapes), opset_version=13,
            dynamic=False)
        nodes = [{"op_type": n.op_type, "name": n.name, "inputs": list(n.input),
                  "outputs": list(n.output),
                  "attrs": {a.name: attr_value(a) for a in n.attribute}} for n in graph.node]
        graphs[name] = {"symbol": json.dumps(json.loads(sym.tojson())), "in_shapes": in_shapes, "nodes": nodes,
                        "outputs": [o.name for o in graph.output]}
        if keep_file:
            model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
            model.ir_version = 7
            with open(os.path.join(OUT, f"onnx_ref_{name}.onnx"), "wb") as f:
                f.write(model.SerializeToString())
            rng = np.random.default_rng(1)
            for n, shape in zip(data_names, in_shapes):
                inputs[f"{name}_{n}"] = rng.standard_normal(shape).astype(np.float32)
            # the parameters too, so that mxnet-py exports exactly the same model
            for k, v in params.items():
                inputs[f"{name}_param_{k}"] = v.asnumpy()
    with open(os.path.join(OUT, "onnx_ref_graphs.json"), "w") as f:
        json.dump(graphs, f, sort_keys=True)
    np.savez_compressed(os.path.join(OUT, "onnx_ref_inputs.npz"), **inputs)


if __name__ == "__main__":
    main()
