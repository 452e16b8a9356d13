"""Where MXNet's native library, C headers and TVM op config live (``mx.libinfo``).

In 1.9.1 these locate ``libmxnet.so`` and its ``include/`` folder for ctypes and for
building C++ extensions. This implementation ships neither: each function still honours
its environment variable (``MXNET_LIBRARY_PATH``, ``MXNET_INCLUDE_PATH``,
``MXNET_CONF_PATH``) as 1.9.1 does and otherwise raises :class:`~mxnet.base.MXNetError`
(a RuntimeError, which is what 1.9.1 raises when it finds nothing).
"""
from __future__ import annotations

import logging
import os

from .base import MXNetError

__all__ = ["find_lib_path", "find_include_path", "find_conf_path", "__version__"]

__version__ = "1.9.1"

_WHY = ("mxnet-py is a pure-Python implementation on NumPy/CuPy: it has no native MXNet "
        "library, C API headers or TVM operator library")


def _from_env(var, exists):
    """The absolute path in ``var`` if it names something that exists; None otherwise
    (with 1.9.1's warnings for a relative or missing path)."""
    value = os.environ.get(var)
    if not value:
        return None
    if not exists(value):
        logging.warning("%s '%s' doesn't exist", var, value)
        return None
    if not os.path.isabs(value):
        logging.warning("%s should be an absolute path, instead of: %s", var, value)
        return None
    return value


def find_lib_path(prefix="libmxnet"):
    """``[MXNET_LIBRARY_PATH]`` when that variable names a file; otherwise MXNetError,
    since no ``{prefix}`` shared library is part of this implementation."""
    found = _from_env("MXNET_LIBRARY_PATH", os.path.isfile)
    if found:
        return [found]
    raise MXNetError(f"Cannot find the MXNet library.\nfind_lib_path({prefix!r}): {_WHY}; "
                     f"set MXNET_LIBRARY_PATH to use a library of your own")


def find_include_path():
    """``MXNET_INCLUDE_PATH`` when that variable names a folder; otherwise MXNetError,
    since no C headers are part of this implementation."""
    found = _from_env("MXNET_INCLUDE_PATH", os.path.isdir)
    if found:
        return found
    raise MXNetError(f"Cannot find the MXNet include path.\nfind_include_path(): {_WHY}; "
                     f"set MXNET_INCLUDE_PATH to use headers of your own")


def find_conf_path(prefix="tvmop"):
    """``MXNET_CONF_PATH`` when that variable names a file; otherwise MXNetError (there
    is no ``{prefix}.conf``: TVM operators are not part of this implementation)."""
    found = _from_env("MXNET_CONF_PATH", os.path.isfile)
    if found:
        return found
    raise MXNetError(f"Cannot find the TVM op config.\nfind_conf_path({prefix!r}): {_WHY}")
