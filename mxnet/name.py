"""Automatic symbol names: ``fullyconnected0``, ``_plus1``, ... and ``Prefix`` scopes."""
from __future__ import annotations

import threading

__all__ = ["NameManager", "Prefix"]


class NameManager:
    """Hands out unique names per operator hint; use as a ``with`` block to scope them."""

    _local = threading.local()

    def __init__(self):
        self._counter: dict[str, int] = {}
        self._old = None

    def get(self, name, hint):
        """``name`` if given, else ``hint`` followed by a per-hint counter."""
        if name:
            return name
        n = self._counter.get(hint, 0)
        self._counter[hint] = n + 1
        return f"{hint}{n}"

    def __enter__(self):
        self._old = NameManager.current()
        NameManager._local.current = self
        return self

    def __exit__(self, *exc):
        NameManager._local.current = self._old

    @staticmethod
    def current() -> NameManager:
        cur = getattr(NameManager._local, "current", None)
        if cur is None:
            cur = NameManager._local.current = NameManager()
        return cur


class Prefix(NameManager):
    """A NameManager that puts ``prefix`` in front of every name it gives."""

    def __init__(self, prefix):
        super().__init__()
        self._prefix = prefix

    def get(self, name, hint):
        return self._prefix + super().get(name, hint)
