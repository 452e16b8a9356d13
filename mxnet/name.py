"""Automatic symbol names: ``fullyconnected0``, ``_plus1``, ... and ``Prefix`` scopes."""
from __future__ import annotations

import threading

__all__ = ["NameManager", "Prefix"]


class _Current:
    """``NameManager.current``: the active manager (1.9.1 spells it as a class property;
    calling it, ``NameManager.current()``, gives the same object)."""

    def __get__(self, obj, cls):
        return NameManager._get_current()


class NameManager:
    """Hands out unique names per operator hint; use as a ``with`` block to scope them."""

    _current = threading.local()
    current = _Current()

    def __init__(self):
        self._counter: dict[str, int] = {}
        self._old_manager = None

    def get(self, name, hint):
        """``name`` if given, else ``hint`` followed by a per-hint counter."""
        if name:
            return name
        n = self._counter.get(hint, 0)
        self._counter[hint] = n + 1
        return f"{hint}{n}"

    def __call__(self):
        return self

    def __enter__(self):
        self._old_manager = NameManager._get_current()
        NameManager._current.value = self
        return self

    def __exit__(self, *exc):
        NameManager._current.value = self._old_manager

    @staticmethod
    def _get_current() -> NameManager:
        cur = getattr(NameManager._current, "value", None)
        if cur is None:
            cur = NameManager._current.value = NameManager()
        return cur


class Prefix(NameManager):
    """A NameManager that puts ``prefix`` in front of every name it gives."""

    def __init__(self, prefix):
        super().__init__()
        self._prefix = prefix

    def get(self, name, hint):
        return self._prefix + super().get(name, hint)
