"""Submodules loaded on first attribute access (``mx.np``, ``mx.contrib.onnx``, ...), so that
``import mxnet`` neither pays for them nor imports their optional dependencies."""
from __future__ import annotations

import importlib
import sys

__all__ = ["lazy_submodules"]


def lazy_submodules(module_name, table):
    """A module-level ``__getattr__`` for ``module_name`` that imports
    ``module_name.<table[attr]>`` the first time ``attr`` is read and keeps it there."""
    def __getattr__(attr):
        sub = table.get(attr)
        if sub is None:
            raise AttributeError(f"module {module_name!r} has no attribute {attr!r}")
        mod = importlib.import_module(f"{module_name}.{sub}")
        setattr(sys.modules[module_name], attr, mod)
        return mod
    return __getattr__
