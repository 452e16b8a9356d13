"""Key-value stores for data-parallel training: ``mx.kv.create('local' | 'device')``."""
from __future__ import annotations

from . import base, dist, kvstore, kvstore_server, local, role  # noqa: F401
from .base import KVStoreBase, TestStore, create  # noqa: F401
from .dist import KVStoreServer  # noqa: F401
from .local import KVStore  # noqa: F401

__all__ = ["create", "KVStoreBase", "KVStore", "KVStoreServer"]
