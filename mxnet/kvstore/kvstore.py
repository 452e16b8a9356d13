"""1.9.1's module path for the single-process store: ``mxnet.kvstore.kvstore.KVStore``."""
from __future__ import annotations

from .base import KVStoreBase
from .local import KVStore

__all__ = ["KVStore", "KVStoreBase"]
