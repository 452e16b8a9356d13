"""Export MXNet models to ONNX (``mx.onnx.export_model``), as in MXNet 1.9.1.

Needs the optional ``onnx`` package (``pip install mxnet-py[onnx]``); it is imported
only when a function here runs.
"""
from .mx2onnx import export_model, get_operator_support  # noqa: F401

__all__ = ["export_model", "get_operator_support"]
