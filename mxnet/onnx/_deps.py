"""Loading the optional ``onnx`` dependency on first use.

``import mxnet`` never imports onnx: it is heavy and optional. The functions that need it
call :func:`require_onnx`, which names the extra to install when it is missing.
"""

_HINT = ("mxnet ONNX support needs the 'onnx' package{extra}; install it with "
         "`pip install mxnet-py[onnx]` (or `pip install onnx onnxruntime`)")


def require_onnx():
    """Import and return the ``onnx`` module, or raise ImportError naming the extra."""
    try:
        import onnx
    except ImportError as err:
        raise ImportError(_HINT.format(extra="") + f": {err}") from err
    return onnx
