"""The table of MXNet-operator -> ONNX converters.

A converter is ``fn(g, n)``: ``g`` is the :class:`~._graph.OnnxBuilder` collecting ONNX
nodes and constants, ``n`` the :class:`~._graph.NodeView` of the MXNet node being
converted. It must produce ONNX tensors named ``n.outputs``.
"""

CONVERTERS = {}


def register(*op_names):
    """Decorator: register ``fn`` as the converter of each MXNet operator in ``op_names``."""
    def wrap(fn):
        for name in op_names:
            CONVERTERS[name] = fn
        return fn
    return wrap


def load_converters():
    """Import the converter modules (they import onnx, so only on first export)."""
    from . import _ops_nn, _ops_tensor  # noqa: F401
    return CONVERTERS
