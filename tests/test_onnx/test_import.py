"""import_model / import_to_gluon / get_model_metadata on files PyTorch's exporter wrote
(tests/golden/onnx_torch_*, made by tools/golden/gen_onnx_torch.py), against PyTorch's own
outputs."""
import os

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import mxnet as mx  # noqa: E402

from ._harness import GOLDEN, assert_close, run_mxnet  # noqa: E402

MODELS = ["cnn", "cnn_folded_opset11", "misc"]


@pytest.fixture(scope="module")
def torch_outputs():
    return np.load(os.path.join(GOLDEN, "onnx_torch.npz"))


def _path(name):
    return os.path.join(GOLDEN, f"onnx_torch_{name}.onnx")


@pytest.mark.parametrize("name", MODELS)
def test_import_model_matches_pytorch(name, torch_outputs):
    sym, args, auxs = mx.contrib.onnx.import_model(_path(name))
    x, want = torch_outputs[f"{name}_x"], torch_outputs[f"{name}_y"]
    (got,) = run_mxnet(sym, {"input": x}, {**args, **auxs})
    assert_close(got, want, rtol=1e-4, atol=1e-5, what=name)
    assert set(sym.list_arguments()) == {"input"} | set(args)
    assert set(sym.list_auxiliary_states()) == set(auxs)
    if name == "cnn":  # BatchNormalization's running statistics become auxiliary states
        assert len(auxs) == 4 and all("running" in k for k in auxs)


def test_import_to_gluon(torch_outputs):
    net = mx.contrib.onnx.import_to_gluon(_path("cnn"), mx.cpu())
    assert isinstance(net, mx.gluon.SymbolBlock)
    got = net(mx.nd.array(torch_outputs["cnn_x"])).asnumpy()
    assert_close(got, torch_outputs["cnn_y"], rtol=1e-4, atol=1e-5)


def test_get_model_metadata():
    meta = mx.contrib.onnx.get_model_metadata(_path("cnn"))
    assert meta == {"input_tensor_data": [("input", (2, 3, 16, 16), 1)],
                    "output_tensor_data": [("output", (2, 10))]}


def test_unsupported_onnx_operator(tmp_path):
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("Det", ["x"], ["y"], name="det")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, (2, 2))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ())])
    path = str(tmp_path / "det.onnx")
    with open(path, "wb") as f:
        f.write(helper.make_model(graph).SerializeToString())
    with pytest.raises(mx.MXNetError, match="ONNX operator Det .*'det'.* not supported"):
        mx.contrib.onnx.import_model(path)


def test_import_folds_shape_arithmetic(tmp_path):
    """Shape -> Gather -> Unsqueeze -> Concat -> Reshape (x.view(x.size(0), -1)) imports as
    a plain Reshape once ONNX shape inference knows the input shape."""
    from onnx import TensorProto, helper, numpy_helper
    init = [numpy_helper.from_array(np.array(0, np.int64), "zero"),
            numpy_helper.from_array(np.array([-1], np.int64), "minus1"),
            numpy_helper.from_array(np.array([0], np.int64), "axes0")]
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
             helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"]),
             helper.make_node("Concat", ["n1", "minus1"], ["shape"], axis=0),
             helper.make_node("Reshape", ["x", "shape"], ["flat"]),
             helper.make_node("Mul", ["flat", "flat"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, (2, 3, 4))], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, (2, 12))], initializer=init)
    path = str(tmp_path / "view.onnx")
    with open(path, "wb") as f:
        f.write(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
                .SerializeToString())
    sym, args, auxs = mx.contrib.onnx.import_model(path)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    (got,) = run_mxnet(sym, {"x": x}, args)
    assert_close(got, (x * x).reshape(2, 12))
    assert args == {} and auxs == {}


def _w(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# (id, nodes, inputs {name: shape}, initializers {name: array}, opset)
_GRAPHS = [
    ("conv_same_upper", [("Conv", ["x", "w"], {"auto_pad": "SAME_UPPER", "strides": [2, 2]})],
     {"x": (1, 2, 7, 7)}, {"w": _w(3, 2, 3, 3)}, 13),
    ("conv_asymmetric_pads", [("Conv", ["x", "w", "b"], {"pads": [0, 1, 2, 1]})],
     {"x": (1, 2, 6, 6)}, {"w": _w(3, 2, 3, 3), "b": _w(3)}, 13),
    ("maxpool_asymmetric_ceil", [("MaxPool", ["x"], {"kernel_shape": [3, 3], "strides": [2, 2],
                                                     "pads": [1, 0, 0, 1], "ceil_mode": 1})],
     {"x": (1, 2, 8, 8)}, {}, 13),
    ("avgpool_include_pad", [("AveragePool", ["x"], {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1],
                                                     "count_include_pad": 1})],
     {"x": (1, 2, 5, 5)}, {}, 13),
    ("softmax_opset11_axis1", [("Softmax", ["x"], {"axis": 1})], {"x": (2, 3, 4)}, {}, 11),
    ("logsoftmax_opset13_axis1", [("LogSoftmax", ["x"], {"axis": 1})], {"x": (2, 3, 4)}, {}, 13),
    ("gemm_alpha_beta_transA", [("Gemm", ["x", "w", "c"], {"alpha": 0.5, "beta": 2.0,
                                                           "transA": 1})],
     {"x": (4, 3)}, {"w": _w(4, 5), "c": _w(1, 5)}, 13),
    ("gemm_two_inputs", [("Gemm", ["x", "y"], {"transB": 1})], {"x": (3, 4), "y": (5, 4)}, {},
     13),
    ("matmul_batched", [("MatMul", ["x", "y"], {})], {"x": (2, 3, 4), "y": (2, 4, 5)}, {}, 13),
    ("matmul_const_3d", [("MatMul", ["x", "w"], {})], {"x": (2, 3, 4)}, {"w": _w(4, 6)}, 13),
    ("broadcast_ranks", [("Add", ["x", "c"], {}), ("Mul", ["o0", "x"], {})],
     {"x": (2, 3, 4)}, {"c": _w(4)}, 13),
    ("scalar_ops", [("Sub", ["s", "x"], {}), ("Div", ["o0", "s"], {}), ("Pow", ["o1", "two"], {})],
     {"x": (2, 3)}, {"s": np.array(1.5, np.float32), "two": np.array(2.0, np.float32)}, 13),
    ("reduce_opset18", [("ReduceMean", ["x", "axes"], {"keepdims": 0})], {"x": (2, 3, 4)},
     {"axes": np.array([1, 2], np.int64)}, 18),
    ("reduce_opset11", [("ReduceSum", ["x"], {"axes": [0], "keepdims": 1})], {"x": (2, 3, 4)},
     {}, 11),
    ("slice_steps", [("Slice", ["x", "st", "en", "ax", "sp"], {})], {"x": (4, 6)},
     {"st": np.array([3, 0], np.int64), "en": np.array([-10**10, 5], np.int64),
      "ax": np.array([0, 1], np.int64), "sp": np.array([-1, 2], np.int64)}, 13),
    ("split_unequal", [("Split", ["x", "sizes"], {"axis": 1}, ["p0", "p1"]),
                       ("Concat", ["p1", "p0"], {"axis": -1})],
     {"x": (2, 5)}, {"sizes": np.array([2, 3], np.int64)}, 13),
    ("gather_embedding", [("Gather", ["table", "idx"], {})], {"idx": (2, 3)},
     {"table": _w(7, 4)}, 13),
    ("pad_reflect_clip", [("Pad", ["x", "pads"], {"mode": "reflect"}),
                          ("Clip", ["o0", "lo", "hi"], {})],
     {"x": (1, 1, 4, 4)}, {"pads": np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64),
                           "lo": np.array(-0.5, np.float32), "hi": np.array(0.5, np.float32)},
     13),
    ("resize_sizes", [("Resize", ["x", "", "", "sizes"], {"mode": "nearest"})],
     {"x": (1, 2, 3, 3)}, {"sizes": np.array([1, 2, 9, 9], np.int64)}, 13),
    ("prelu_scalar_slope", [("PRelu", ["x", "slope"], {})], {"x": (2, 3, 4)},
     {"slope": np.array([0.3], np.float32)}, 13),
    ("gelu_layernorm_opset20", [("Gelu", ["x"], {}), ("LayerNormalization", ["o0", "g", "b"],
                                                      {"axis": -1, "epsilon": 1e-5})],
     {"x": (2, 3, 4)}, {"g": _w(4), "b": _w(4, seed=1)}, 20),
    ("flatten_axis2_unsqueeze_neg", [("Flatten", ["x"], {"axis": 2}),
                                     ("Unsqueeze", ["o0", "ax"], {}),
                                     ("Squeeze", ["o1", "ax0"], {})],
     {"x": (2, 3, 4, 5)}, {"ax": np.array([-1, 0], np.int64), "ax0": np.array([0], np.int64)},
     13),
    ("expand_tile_where", [("Expand", ["x", "shape"], {}), ("Tile", ["o0", "reps"], {}),
                           ("Greater", ["o1", "zero"], {}), ("Where", ["o2", "o1", "zero"], {})],
     {"x": (3, 1)}, {"shape": np.array([2, 3, 4], np.int64), "reps": np.array([1, 1, 2], np.int64),
                     "zero": np.array(0.0, np.float32)}, 13),
]


def _model(nodes, inputs, inits, opset):
    from onnx import TensorProto, helper, numpy_helper
    made = []
    for k, spec in enumerate(nodes):
        op, ins, attrs = spec[:3]
        outs = spec[3] if len(spec) > 3 else [f"o{k}"]
        made.append(helper.make_node(op, ins, outs, name=f"n{k}", **attrs))
    last = made[-1].output[0]
    graph = helper.make_graph(
        made, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT if n != "idx" else
                                                  TensorProto.INT64, s)
                    for n, s in inputs.items()],
        [helper.make_tensor_value_info(last, TensorProto.FLOAT, None)],
        initializer=[numpy_helper.from_array(v, n) for n, v in inits.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


@pytest.mark.parametrize("nodes, inputs, inits, opset",
                         [pytest.param(*g[1:], id=g[0]) for g in _GRAPHS])
def test_import_matches_onnxruntime(tmp_path, nodes, inputs, inits, opset):
    from ._harness import run_onnx
    path = str(tmp_path / "g.onnx")
    with open(path, "wb") as f:
        f.write(_model(nodes, inputs, inits, opset).SerializeToString())
    rng = np.random.default_rng(3)
    feeds = {n: (rng.integers(0, 7, s).astype(np.int64) if n == "idx" else
                 rng.standard_normal(s).astype(np.float32)) for n, s in inputs.items()}
    (want,) = run_onnx(path, feeds)
    sym, args, auxs = mx.contrib.onnx.import_model(path)
    (got,) = run_mxnet(sym, feeds, {**args, **auxs})
    assert_close(got, want)
