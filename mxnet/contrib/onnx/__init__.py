"""ONNX support under ``mx.contrib.onnx`` (MXNet 1.9.1's layout).

- :func:`import_model`: an .onnx file -> ``(sym, arg_params, aux_params)``;
- :func:`get_model_metadata`: the names and shapes of a file's inputs and outputs;
- :func:`import_to_gluon`: an .onnx file -> a ``gluon.SymbolBlock`` with its parameters;
- :func:`export_model`: the older location of :func:`mxnet.onnx.export_model`.

Needs the optional ``onnx`` package (``pip install mxnet-py[onnx]``), imported on first use.
"""
from ...onnx import export_model  # noqa: F401
from ._import import get_model_metadata, import_model, import_to_gluon  # noqa: F401

__all__ = ["import_model", "get_model_metadata", "import_to_gluon", "export_model"]

# 1.9.1 also offers each under a trailing-underscore name
export_model_, import_model_ = export_model, import_model
get_model_metadata_, import_to_gluon_ = get_model_metadata, import_to_gluon
