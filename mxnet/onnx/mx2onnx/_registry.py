"""The table of MXNet-operator -> ONNX converters.

A converter is ``fn(g, n)``: ``g`` is the :class:`~._graph.OnnxBuilder` collecting ONNX
nodes and constants, ``n`` the :class:`~._graph.NodeView` of the MXNet node being
converted. It must produce ONNX tensors named ``n.outputs``.
"""

CONVERTERS = {}
# op name -> predicate(parsed params): the node's outputs are named name0, name1, ... (1.9.1
# names the outputs of these converters so) instead of name, name1, ...
NUMBERED_OUTPUTS = {}


def register(*op_names):
    """Decorator: register ``fn`` as the converter of each MXNet operator in ``op_names``."""
    def wrap(fn):
        for name in op_names:
            CONVERTERS[name] = fn
        return fn
    return wrap


def numbered_outputs(*op_names, when=lambda params: True):
    """Name the outputs of ``op_names`` nodes from 0 when ``when(params)`` holds."""
    for name in op_names:
        NUMBERED_OUTPUTS[name] = when


def load_converters():
    """Import the converter modules (they import onnx, so only on first export)."""
    from . import _ops_contrib, _ops_more, _ops_nn, _ops_tensor  # noqa: F401
    return CONVERTERS
