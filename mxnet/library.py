"""``mx.library.load``: in MXNet 1.9.1 it loads a compiled C++ extension library (custom
operators, partitioners, graph passes built against ``lib_api.h``).

This implementation has no native core for such a library to register into, so after
checking the path as 1.9.1 does, :func:`load` raises :class:`~mxnet.base.MXNetError`.
Write custom operators in Python instead (``mx.operator.CustomOp``)."""
from __future__ import annotations

import os

from .base import MXNetError

__all__ = ["load"]


def load(path, verbose=True):
    """Check ``path`` as 1.9.1 does (it must exist, be absolute and end in ``.so`` or
    ``.dll``), then raise MXNetError: compiled extension libraries cannot be loaded here."""
    if not os.path.exists(path):
        raise MXNetError(f"load path {path} does NOT exist")
    if not os.path.isabs(path):
        raise MXNetError(f"load path {path} is not an absolute path")
    if os.path.splitext(path)[1] not in (".so", ".dll"):
        raise MXNetError(f"load path {path} is NOT a library file")
    raise MXNetError(
        f"mx.library.load({path!r}): compiled MXNet extension libraries cannot be loaded by "
        f"this implementation: mxnet-py is pure Python on NumPy/CuPy and has no C++ core "
        f"(libmxnet) for the library's operators, partitioners or passes to register into. "
        f"Write custom operators in Python with mx.operator.CustomOp / mx.operator.register "
        f"instead")
