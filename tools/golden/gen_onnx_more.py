"""Print what MXNet 1.9.1's ONNX exporter writes for an LSTM, a topk and a BERT-style
self-attention block, as literals for tests/test_onnx/test_export_more.py.

Run under the reference venv (onnx 1.13.1 installed there), outside the repository root:

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_onnx_more.py

For each graph: the graph's output names, the key nodes (op type and attributes of the
node types listed in KEY) in file order, and 1.9.1's own outputs of the model (its
executor) for the deterministic inputs and parameters built by ``values``. 1.9.1's
converters are called at opset 13, as tools/golden/gen_onnx.py does.
"""
import pprint

import mxnet as mx
import numpy as np
import onnx
from mxnet.onnx.mx2onnx._export_onnx import MXNetGraph
from onnx import helper

S = mx.sym
KEY = ("LSTM", "GRU", "RNN", "TopK", "MatMul", "Softmax", "Gemm")


def values(shape, scale=0.1):
    """Deterministic test values: a saw-tooth, the same in every venv."""
    n = int(np.prod(shape))
    return ((np.arange(n) % 7 - 3) * scale).astype(np.float32).reshape(shape)


def lstm():
    x = S.var("data")
    r = S.RNN(x, S.var("params"), S.var("state"), S.var("cell"), state_size=3, num_layers=2,
              mode="lstm", state_outputs=True, name="lstm")
    return r, {"data": (3, 2, 2), "state": (2, 2, 3), "cell": (2, 2, 3)}, ["params"]


def topk():
    x = S.var("data")
    return S.topk(x, k=2, axis=1, ret_typ="both", name="topk"), {"data": (2, 5)}, []


def attention():
    x = S.var("data")                                  # (seq, batch, units)
    qkv = S.FullyConnected(x, num_hidden=12, flatten=False, name="qkv")
    score = S.contrib.interleaved_matmul_selfatt_qk(qkv, heads=2, name="qk")
    att = S.softmax(score, axis=-1, name="att")
    ctx = S.contrib.interleaved_matmul_selfatt_valatt(qkv, att, heads=2, name="valatt")
    out = S.FullyConnected(ctx, num_hidden=4, flatten=False, name="proj")
    # (1.9.1's LayerNorm converter writes opset-13 ReduceMean nodes that its own check at
    # the installed onnx's newest opset rejects, so the block ends at the residual add)
    return S.elemwise_add(out, x, name="residual"), {"data": (3, 2, 4)}, [
        "qkv_weight", "qkv_bias", "proj_weight", "proj_bias"]


def attr_value(a):
    v = helper.get_attribute_value(a)
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, (list, tuple)):
        return [x.decode() if isinstance(x, bytes) else x for x in v]
    return v


def main():
    out = {}
    for name, build in (("lstm", lstm), ("topk", topk), ("attention", attention)):
        sym, shapes, param_names = build()
        arg_shapes, _, _ = sym.infer_shape(**shapes)
        arg_shapes = dict(zip(sym.list_arguments(), arg_shapes))
        params = {k: mx.nd.array(values(arg_shapes[k], 0.05)) for k in param_names}
        in_shapes = [shapes[k] for k in shapes]
        graph = MXNetGraph().create_onnx_graph_proto(
            sym, params, in_shapes, [onnx.TensorProto.FLOAT] * len(in_shapes), opset_version=13,
            dynamic=False)
        key = [(n.op_type, {a.name: attr_value(a) for a in n.attribute})
               for n in graph.node if n.op_type in KEY]
        args = {k: mx.nd.array(values(s)) for k, s in shapes.items()}
        args.update(params)
        ex = sym.bind(mx.cpu(), args)
        results = [o.asnumpy().round(6).tolist() for o in ex.forward(is_train=False)]
        out[name] = {"outputs": [o.name for o in graph.output], "key_nodes": key,
                     "mxnet_outputs": results}
    pprint.pprint(out, width=100, compact=True)


if __name__ == "__main__":
    main()
