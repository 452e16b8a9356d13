"""Print what MXNet 1.9.1's ONNX importer builds for a few small graphs, as literals for
tests/test_onnx/test_import_more.py (REF_1_9_1).

Run under the reference venv (onnx 1.13.1 installed there), outside the repository root:

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_onnx_import_more.py

For each graph: the operators of the imported symbol (tojson's nodes that are not
variables, in order) and their attributes, its list_outputs(), and 1.9.1's outputs for the
deterministic input built by ``values``. The graphs are the same as ``REF_GRAPHS`` in the test.
"""
import json
import os
import pprint
import tempfile

import mxnet as mx
import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def values(shape, scale=0.1):
    """Deterministic test values: a saw-tooth with distinct values per row."""
    n = int(np.prod(shape))
    return ((np.arange(n) * 5 % 11 - 5) * scale).astype(np.float32).reshape(shape)


def graphs():
    """name -> (nodes, input shape, initializers, output names, opset)."""
    n = helper.make_node
    return {
        "topk": ([n("TopK", ["x", "k"], ["v", "i"], axis=1, name="topk")], (2, 5),
                 {"k": np.array([2], np.int64)}, ["v", "i"], 11),
        "depth_to_space": ([n("DepthToSpace", ["x"], ["y"], blocksize=2, name="d2s")],
                           (1, 4, 1, 2), {}, ["y"], 11),
        "space_to_depth": ([n("SpaceToDepth", ["x"], ["y"], blocksize=2, name="s2d")],
                           (1, 1, 2, 4), {}, ["y"], 11),
        "hardmax": ([n("Hardmax", ["x"], ["y"], axis=1, name="hardmax")], (2, 2, 3), {}, ["y"],
                    11),
        "lp_normalization": ([n("LpNormalization", ["x"], ["y"], axis=1, p=2, name="lpn")],
                             (2, 3), {}, ["y"], 11),
        "reduce_log_sum_exp": ([n("ReduceLogSumExp", ["x"], ["y"], axes=[1], keepdims=0,
                                  name="rlse")], (2, 3, 2), {}, ["y"], 11),
        "logical": ([n("Greater", ["x", "zero"], ["g"], name="gt"),
                     n("Less", ["x", "half"], ["l"], name="lt"),
                     n("And", ["g", "l"], ["a"], name="and"),
                     n("Xor", ["g", "l"], ["y"], name="xor")], (2, 3),
                    {"zero": np.array(0, np.float32), "half": np.array(0.25, np.float32)},
                    ["a", "y"], 11),
        "max_roi_pool": ([n("MaxRoiPool", ["x", "rois"], ["y"], pooled_shape=[2, 2],
                            spatial_scale=0.5, name="roipool")], (1, 1, 6, 6),
                         {"rois": np.array([[0, 1, 1, 9, 11]], np.float32)}, ["y"], 11),
    }


def build(nodes, shape, inits, outputs, opset):
    # 1.9.1 reads initializers only when they are listed among the graph's inputs too
    inputs = [helper.make_tensor_value_info("x", F, shape)] + [
        helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
        for k, v in inits.items()]
    inits = [numpy_helper.from_array(v, k) for k, v in inits.items()]
    graph = helper.make_graph(nodes, "g", inputs,
                              [helper.make_tensor_value_info(o, F, None) for o in outputs],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def main():
    out = {}
    tmp = tempfile.mkdtemp()
    for name, (nodes, shape, inits, outputs, opset) in graphs().items():
        path = os.path.join(tmp, name + ".onnx")
        with open(path, "wb") as f:
            f.write(build(nodes, shape, inits, outputs, opset).SerializeToString())
        try:
            sym, args, auxs = mx.contrib.onnx.import_model(path)
        except Exception as e:  # noqa: BLE001  (recorded: 1.9.1 cannot import it)
            out[name] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"}
            continue
        nodes = [nd for nd in json.loads(sym.tojson())["nodes"] if nd["op"] != "null"]
        ops = [nd["op"] for nd in nodes]
        attrs = [nd.get("attrs", {}) for nd in nodes]
        exe = sym.bind(mx.cpu(), {"x": mx.nd.array(values(shape)), **args}, aux_states=auxs)
        res = [np.round(o.asnumpy().astype(np.float64), 6).tolist()
               for o in exe.forward(is_train=False)]
        out[name] = {"ops": ops, "attrs": attrs, "outputs": sym.list_outputs(), "values": res}
    pprint.pprint(out, width=100)


if __name__ == "__main__":
    main()
