"""export_model's arguments and errors, mx.contrib's layout, and the optional dependency."""
import logging
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import onnx  # noqa: E402

import mxnet as mx  # noqa: E402

from ._harness import assert_close, random_params, run_mxnet, run_onnx  # noqa: E402


def _mlp():
    x = mx.sym.var("data")
    h = mx.sym.Activation(mx.sym.FullyConnected(x, num_hidden=8, name="fc1"), act_type="relu")
    h = mx.sym.BatchNorm(h, name="bn", fix_gamma=False)
    return mx.sym.SoftmaxOutput(mx.sym.FullyConnected(h, num_hidden=3, name="fc2"),
                                name="softmax")


def test_params_forms_and_old_argument_names(tmp_path):
    sym = _mlp()
    params = random_params(sym, {"data": (4, 5), "softmax_label": (4,)})
    args = {k: v for k, v in params.items() if k in sym.list_arguments()}
    auxs = {k: v for k, v in params.items() if k in sym.list_auxiliary_states()}
    x = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    (want,) = run_mxnet(sym, {"data": x, "softmax_label": np.zeros(4, np.float32)}, params)
    files = [
        mx.onnx.export_model(sym, params, [(4, 5)], onnx_file_path=str(tmp_path / "a.onnx")),
        mx.onnx.export_model(sym, [args, auxs], input_shape=[(4, 5)], input_type=np.float32,
                             onnx_file_path=str(tmp_path / "b.onnx")),
        mx.onnx.export_model(sym, {**{f"arg:{k}": v for k, v in args.items()},
                                   **{f"aux:{k}": v for k, v in auxs.items()}},
                             [(4, 5)], [np.float32], str(tmp_path / "c.onnx")),
        mx.contrib.onnx.export_model(sym, params, [(4, 5)],
                                     onnx_file_path=str(tmp_path / "d.onnx")),
    ]
    for path in files:
        model = onnx.load(path)
        # the loss label is a training input: the ONNX graph takes the data only
        assert [i.name for i in model.graph.input] == ["data"]
        assert [o.name for o in model.graph.output] == ["softmax"]
        assert model.opset_import[0].version == 13
        (got,) = run_onnx(path, {"data": x})
        assert_close(got, want)


def test_export_from_checkpoint_files(tmp_path):
    sym = _mlp()
    params = random_params(sym, {"data": (2, 5), "softmax_label": (2,)})
    args = {k: v for k, v in params.items() if k in sym.list_arguments()}
    auxs = {k: v for k, v in params.items() if k in sym.list_auxiliary_states()}
    prefix = str(tmp_path / "mlp")
    mx.model.save_checkpoint(prefix, 3, sym, args, auxs)
    out = str(tmp_path / "mlp.onnx")
    assert mx.onnx.export_model(f"{prefix}-symbol.json", f"{prefix}-0003.params", [(2, 5)],
                                onnx_file_path=out) == out
    x = np.ones((2, 5), np.float32)
    (want,) = run_mxnet(sym, {"data": x, "softmax_label": np.zeros(2, np.float32)}, params)
    assert_close(run_onnx(out, {"data": x})[0], want)
    # a path for one of the two and an object for the other works too
    mixed = str(tmp_path / "mixed.onnx")
    mx.onnx.export_model(f"{prefix}-symbol.json", params, [(2, 5)], onnx_file_path=mixed)
    assert_close(run_onnx(mixed, {"data": x})[0], want)


def test_unsupported_operator_is_named(tmp_path):
    sym = mx.sym.gammaln(mx.sym.var("data"))   # no converter, in 1.9.1 either
    with pytest.raises(AttributeError, match="No conversion function registered for op type "
                                             "gammaln yet.") as info:
        mx.onnx.export_model(sym, {}, [(3, 4)], onnx_file_path=str(tmp_path / "x.onnx"))
    assert isinstance(info.value, mx.MXNetError)


def test_unsupported_parameter_is_named(tmp_path):
    sym = mx.sym.softmax(data=mx.sym.var("data"), length=mx.sym.var("length"), use_length=True)
    with pytest.raises(mx.MXNetError, match="softmax .*use_length"):
        mx.onnx.export_model(sym, {}, [(3, 4), (3,)], [np.float32, np.int32],
                             onnx_file_path=str(tmp_path / "x.onnx"))


@pytest.mark.parametrize("kwargs, match", [
    ({"in_shapes": [(2, 5), (2, 5)]}, "1 data input.*'data'.*2 shape"),
    ({"in_shapes": [(2, 5)], "opset_version": 9}, "opset_version=9 is not supported"),
    ({"in_shapes": [(2, 5)], "dynamic_input_shapes": [(None, 5)]}, "dynamic=True"),
    ({"in_shapes": [(2, 7)]}, "cannot infer the model's shapes"),
])
def test_argument_errors(tmp_path, kwargs, match):
    sym = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    params = random_params(sym, {"data": (2, 5)})
    with pytest.raises(mx.MXNetError, match=match):
        mx.onnx.export_model(sym, params, onnx_file_path=str(tmp_path / "x.onnx"), **kwargs)
    with pytest.raises(ValueError, match="Symbol and a dict"):
        mx.onnx.export_model(sym, 3, [(2, 5)], onnx_file_path=str(tmp_path / "x.onnx"))
    with pytest.raises(mx.MXNetError, match="'nowhere.params' does not exist"):
        mx.onnx.export_model(sym, "nowhere.params", [(2, 5)],
                             onnx_file_path=str(tmp_path / "x.onnx"))


def test_int_inputs_multiple_outputs_and_duplicate_names(tmp_path, caplog):
    tokens = mx.sym.var("tokens")
    emb = mx.sym.Embedding(tokens, input_dim=7, output_dim=3, name="emb")
    a = mx.sym.relu(emb, name="act")
    b = mx.sym.sigmoid(emb, name="act")  # the same name twice
    sym = mx.sym.Group([a, b, mx.sym.sum(emb, axis=2, name="total")])
    params = random_params(sym, {"tokens": (2, 4)})
    x = np.array([[0, 1, 2, 6], [3, 4, 5, 0]], np.int32)
    want = run_mxnet(sym, {"tokens": x}, params)
    path = str(tmp_path / "emb.onnx")
    with caplog.at_level(logging.INFO):
        mx.onnx.export_model(sym, params, [(2, 4)], [np.int32], path, verbose=True,
                             run_shape_inference=True)
    assert any("Embedding" in r.getMessage() for r in caplog.records)
    model = onnx.load(path)
    assert model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.INT32
    names = [o.name for o in model.graph.output]
    assert names[0] == "act" and names[1].endswith("_act") and names[2] == "total"
    assert len(model.graph.value_info) > 0  # run_shape_inference annotated the graph
    got = run_onnx(path, {"tokens": x})
    for g, w in zip(got, want):
        assert_close(g, w)


def test_get_operator_support():
    ops = mx.onnx.get_operator_support()
    assert ops == sorted(ops)
    for op in ("Convolution", "FullyConnected", "BatchNorm", "Pooling", "softmax", "Reshape",
               "LeakyReLU", "UpSampling", "Embedding", "_linalg_gemm2", "_rdiv_scalar"):
        assert op in ops


def test_contrib_layout():
    assert mx.contrib.onnx.export_model is mx.onnx.export_model
    for fn in ("import_model", "get_model_metadata", "import_to_gluon"):
        assert callable(getattr(mx.contrib.onnx, fn))
    assert mx.contrib.ndarray.box_nms is mx.nd.contrib.box_nms
    assert mx.contrib.nd.box_iou is mx.nd.contrib.box_iou
    assert mx.contrib.symbol.box_nms is mx.sym.contrib.box_nms
    assert mx.contrib.sym is mx.contrib.symbol
    assert "box_nms" in dir(mx.contrib.nd)
    with pytest.raises(AttributeError):
        mx.contrib.no_such_module  # noqa: B018


def _python(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_import_mxnet_does_not_load_onnx():
    res = _python("import sys, mxnet as mx\n"
                  "assert 'onnx' not in sys.modules, 'onnx'\n"
                  "assert 'mxnet.onnx' not in sys.modules and 'mxnet.contrib' not in sys.modules\n"
                  "mx.onnx; mx.contrib.onnx\n"
                  "assert 'onnx' not in sys.modules, 'onnx after mx.contrib.onnx'\n"
                  "print('ok')")
    assert res.returncode == 0 and "ok" in res.stdout, res.stderr


def test_missing_onnx_names_the_extra():
    res = _python("import sys\nsys.modules['onnx'] = None\nimport mxnet as mx\n"
                  "try:\n"
                  "    mx.onnx.export_model(mx.sym.var('x'), {}, [(1,)])\n"
                  "except ImportError as e:\n"
                  "    print('ImportError:', e)\n"
                  "try:\n"
                  "    mx.contrib.onnx.import_model('m.onnx')\n"
                  "except ImportError as e:\n"
                  "    print('ImportError:', e)\n")
    assert res.returncode == 0, res.stderr
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("ImportError")]
    assert len(lines) == 2 and all("pip install mxnet-py[onnx]" in ln for ln in lines)


@pytest.mark.parametrize("codes", [(-3, -2), (0, -4, 1, -1, -2), (-1, 0), (0, -3, 0)])
def test_dynamic_reshape_codes(tmp_path, codes):
    """MXNet's special reshape codes follow the runtime shape in a dynamic export."""
    sym = mx.sym.relu(mx.sym.Reshape(mx.sym.var("data"), shape=codes))
    path = str(tmp_path / "r.onnx")
    mx.onnx.export_model(sym, {}, [(2, 3, 4, 5)], onnx_file_path=path, dynamic=True,
                         dynamic_input_shapes=[(None, 3, 4, 5)])
    for batch in (1, 4):
        x = np.random.default_rng(batch).standard_normal((batch, 3, 4, 5)).astype(np.float32)
        (want,) = run_mxnet(sym, {"data": x}, {})
        assert_close(run_onnx(path, {"data": x})[0], want)
