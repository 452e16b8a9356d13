"""ONNX -> MXNet conversion."""
