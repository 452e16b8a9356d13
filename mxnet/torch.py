"""Torch-backed NDArray functions (``mx.th`` / ``mx.torch``).

MXNet 1.9.1 fills this module with ``_th_*`` functions only when built with
``USE_TORCH=1`` (Lua Torch), which its released packages are not, so there it is empty.
This implementation has no Torch plugin either: the module is empty, and reading a
function from it raises AttributeError saying why.
"""
from __future__ import annotations

__all__: list = []


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"module 'mxnet.torch' has no attribute {name!r}: Torch functions (mx.th.*) exist only "
        f"in an MXNet built with the Lua Torch plugin (USE_TORCH=1), which this "
        f"implementation does not have")
