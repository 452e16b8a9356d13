"""The server side of a distributed KVStore (``mxnet.kvstore.kvstore_server``, as in 1.9.1).

A server process of a job started by ``python -m mxnet.tools.launch`` already serves
inside ``import mxnet`` (see :mod:`mxnet.kvstore.role`), which is what 1.9.1's
``_init_kvstore_server_module`` does when this module is imported; :class:`KVStoreServer`
is the same class as ``mx.kv.KVStoreServer``.
"""
from __future__ import annotations

from .dist import KVStoreServer

__all__ = ["KVStoreServer"]


def _init_kvstore_server_module():
    """Serve and exit if this process is a server of a distributed job; otherwise do
    nothing (``import mxnet`` has already done this once)."""
    from .role import on_import
    on_import()
