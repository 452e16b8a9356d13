"""mxnet-py's exporter against MXNet 1.9.1's (fixtures by tools/golden/gen_onnx.py, opset 13):
the layer nodes and their attributes, and, for the small models, the outputs of 1.9.1's own
.onnx file and ours run side by side in onnxruntime."""
import json
import os

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import onnx  # noqa: E402
from onnx import helper  # noqa: E402

import mxnet as mx  # noqa: E402

from ._harness import GOLDEN, assert_close, random_params, run_onnx  # noqa: E402

# ONNX ops that carry a layer's meaning; the helper arithmetic around them (1.9.1 builds
# FullyConnected's output shape with Shape/Slice/Concat, for one) may differ.
ANCHORS = {"Conv", "ConvTranspose", "BatchNormalization", "Relu", "Tanh", "Sigmoid", "MaxPool",
           "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Add", "Concat", "Resize",
           "Gemm", "Softmax", "LeakyRelu", "Clip", "Transpose", "Flatten", "Reshape"}
# anchors 1.9.1 also uses as helpers: kept only when they produce a layer's named output
NAMED_ONLY = {"Concat", "Flatten", "Reshape"}
IGNORED_ATTRS = {"momentum", "coordinate_transformation_mode", "nearest_mode", "axis"}


def _defaults(op, attrs):
    nd = len(attrs.get("kernel_shape", ()))
    d = {}
    if op in ("Conv", "ConvTranspose", "MaxPool", "AveragePool"):
        d = {"strides": [1] * nd, "pads": [0] * (2 * nd)}
    if op in ("Conv", "ConvTranspose"):
        d.update(dilations=[1] * nd, group=1)
    if op == "ConvTranspose":
        d["output_padding"] = [0] * nd
    if op in ("MaxPool", "AveragePool"):
        d["ceil_mode"] = 0
    if op == "AveragePool":
        d["count_include_pad"] = 0
    if op == "Gemm":
        d = {"alpha": 1.0, "beta": 1.0, "transA": 0, "transB": 0}
    return d


def _anchors(nodes, layer_names, dense_names):
    """(op, attributes) of the layer nodes, in graph order, defaults filled in."""
    out = []
    for op, outputs, attrs in nodes:
        if op not in ANCHORS:
            continue
        if op in NAMED_ONLY and not any(o in layer_names for o in outputs):
            continue
        if op == "Reshape" and any(o in dense_names for o in outputs):
            # 1.9.1 reads a missing flatten attribute as False and reshapes Gemm's result; its
            # SoftmaxOutput always flattens and reshapes back, also for 2-D data
            continue
        full = _defaults(op, attrs)
        full.update({k: v for k, v in attrs.items() if k not in IGNORED_ATTRS})
        out.append((op, {k: (round(v, 6) if isinstance(v, float) else v)
                         for k, v in sorted(full.items())}))
    return out


def _ours(node):
    attrs = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode()
        elif isinstance(v, onnx.TensorProto):
            continue
        attrs[a.name] = list(v) if isinstance(v, (list, tuple)) else v
    return node.op_type, list(node.output), attrs


@pytest.fixture(scope="module")
def reference():
    with open(os.path.join(GOLDEN, "onnx_ref_graphs.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def ref_arrays():
    return np.load(os.path.join(GOLDEN, "onnx_ref_inputs.npz"))


def _export(name, entry, arrays, path):
    sym = mx.sym.load_json(entry["symbol"])
    shapes = [tuple(s) for s in entry["in_shapes"]]
    prefix = f"{name}_param_"
    params = {k[len(prefix):]: mx.nd.array(arrays[k]) for k in arrays.files if k.startswith(prefix)}
    if not params:
        params = random_params(sym, {"data": shapes[0]})
    return sym, mx.onnx.export_model(sym, params, shapes, onnx_file_path=path)


@pytest.mark.parametrize("name", ["mlp", "cnn", "resnet18_v1"])
def test_layer_nodes_match_1_9_1(tmp_path, reference, ref_arrays, name):
    entry = reference[name]
    sym, path = _export(name, entry, ref_arrays, str(tmp_path / "m.onnx"))
    mx_nodes = json.loads(entry["symbol"])["nodes"]
    layer_names = {n["name"] for n in mx_nodes if n["op"] != "null"}
    dense = {n["name"] for n in mx_nodes if n["op"] in ("FullyConnected", "SoftmaxOutput")}
    theirs = _anchors([(n["op_type"], n["outputs"], n["attrs"]) for n in entry["nodes"]],
                      layer_names, dense)
    ours = _anchors([_ours(n) for n in onnx.load(path).graph.node], layer_names, dense)
    assert [op for op, _ in ours] == [op for op, _ in theirs]
    for (op, a), (_, b) in zip(ours, theirs):
        assert a == b, op
    assert [o.name for o in onnx.load(path).graph.output] == entry["outputs"]


@pytest.mark.parametrize("name", ["mlp", "cnn"])
def test_outputs_match_1_9_1_file(tmp_path, reference, ref_arrays, name):
    _, path = _export(name, reference[name], ref_arrays, str(tmp_path / "m.onnx"))
    x = ref_arrays[f"{name}_data"]
    (want,) = run_onnx(os.path.join(GOLDEN, f"onnx_ref_{name}.onnx"), {"data": x})
    (got,) = run_onnx(path, {"data": x})
    assert_close(got, want, rtol=1e-5, atol=1e-6)
