"""``mx.AttrScope``: attributes attached to every symbol created inside the scope."""
from __future__ import annotations

import threading

from .base import MXNetError

__all__ = ["AttrScope"]


class AttrScope:
    """Attach string attributes (e.g. ``ctx_group='dev1'``, ``lr_mult='0.1'``) to new symbols."""

    _local = threading.local()

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            if not isinstance(v, str):
                raise MXNetError(f"AttrScope: attribute {k!r} must be a string, got {type(v).__name__}")
        self._attr = kwargs
        self._old = None

    def get(self, attr):
        """Merge the scope's attributes under ``attr`` (which wins on conflicts)."""
        if not self._attr:
            return dict(attr) if attr else {}
        out = dict(self._attr)
        if attr:
            out.update(attr)
        return out

    def __enter__(self):
        self._old = AttrScope.current()
        merged = dict(self._old._attr)
        merged.update(self._attr)
        self._attr = merged
        AttrScope._local.current = self
        return self

    def __exit__(self, *exc):
        AttrScope._local.current = self._old

    @staticmethod
    def current() -> AttrScope:
        cur = getattr(AttrScope._local, "current", None)
        if cur is None:
            cur = AttrScope._local.current = AttrScope()
        return cur
