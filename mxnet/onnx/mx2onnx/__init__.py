"""MXNet -> ONNX conversion."""
from ._export_model import export_model, get_operator_support  # noqa: F401
