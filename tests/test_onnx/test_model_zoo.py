"""Whole Gluon model-zoo networks: hybridize, export to -symbol.json/.params, convert those
files with export_model, run them with onnxruntime, and import the ONNX file back."""
import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import mxnet as mx  # noqa: E402
from mxnet.gluon.model_zoo import vision  # noqa: E402

from ._harness import assert_close, run_mxnet, run_onnx  # noqa: E402


def _zoo_files(tmp_path, name, size, batch=1):
    net = vision.get_model(name, classes=10)
    net.initialize(mx.init.Xavier(magnitude=2.0))
    net.hybridize()
    x = np.random.default_rng(0).standard_normal((batch, 3, size, size)).astype(np.float32)
    want = net(mx.nd.array(x)).asnumpy()
    prefix = str(tmp_path / name)
    net.export(prefix)
    return f"{prefix}-symbol.json", f"{prefix}-0000.params", x, want


@pytest.mark.parametrize("name, size", [("resnet18_v1", 32), ("mobilenet0.25", 32),
                                        ("mobilenetv2_0.25", 32), ("squeezenet1.1", 224),
                                        ("alexnet", 64)])
def test_model_zoo_export_and_import(tmp_path, name, size):
    sym_file, params_file, x, want = _zoo_files(tmp_path, name, size)
    path = mx.onnx.export_model(sym_file, params_file, [x.shape], np.float32,
                                str(tmp_path / f"{name}.onnx"))
    scale = np.abs(want).max()
    (got,) = run_onnx(path, {"data": x})
    assert_close(got / scale, want / scale, rtol=1e-4, atol=1e-5, what=f"{name} onnxruntime")

    sym, args, auxs = mx.contrib.onnx.import_model(path)
    (got,) = run_mxnet(sym, {"data": x}, {**args, **auxs})
    assert_close(got / scale, want / scale, rtol=1e-4, atol=1e-5, what=f"{name} imported")


def test_dynamic_batch(tmp_path):
    """dynamic=True leaves the batch dim symbolic: one file serves several batch sizes."""
    sym_file, params_file, x, _ = _zoo_files(tmp_path, "resnet18_v1", 32, batch=2)
    path = mx.onnx.export_model(sym_file, params_file, [x.shape], onnx_file_path=str(
        tmp_path / "dyn.onnx"), dynamic=True, dynamic_input_shapes=[(None, 3, 32, 32)])
    import onnx
    dims = onnx.load(path).graph.input[0].type.tensor_type.shape.dim
    assert not dims[0].HasField("dim_value") and [d.dim_value for d in dims[1:]] == [3, 32, 32]
    sym = mx.sym.load(sym_file)
    params = {k[4:]: v for k, v in mx.nd.load(params_file).items()}
    for batch in (1, 3):
        xb = np.random.default_rng(batch).standard_normal((batch, 3, 32, 32)).astype(np.float32)
        (want,) = run_mxnet(sym, {"data": xb}, params)
        (got,) = run_onnx(path, {"data": xb})
        assert_close(got, want, rtol=1e-4, atol=1e-4, what=f"batch {batch}")
