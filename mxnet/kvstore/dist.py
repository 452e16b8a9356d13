"""Distributed stores (``dist_sync``, ``dist_async``, ``dist_device_sync`` ...).

They are not implemented yet; asking for one fails early with a clear error rather
than quietly giving a single-process store.
"""
from __future__ import annotations

from ..base import MXNetError

__all__ = ["create_dist", "KVStoreServer"]


def _unavailable(name):
    return MXNetError(f"distributed KVStore {name!r} is not available yet in mxnet-py; "
                      f"use 'local' or 'device' for single-process training")


def create_dist(name):
    """Raise: distributed KVStore types are not available yet."""
    raise _unavailable(name)


class KVStoreServer:
    """The server side of a distributed store (not available yet)."""

    def __init__(self, kvstore=None):
        raise _unavailable(getattr(kvstore, "type", "dist"))
