"""``mx.AttrScope``: attributes attached to every symbol created inside the scope."""
from __future__ import annotations

import threading

__all__ = ["AttrScope"]


class _Current:
    """``AttrScope.current``: the active scope (also callable: ``AttrScope.current()``)."""

    def __get__(self, obj, cls):
        return AttrScope._get_current()


class AttrScope:
    """Attach string attributes (e.g. ``ctx_group='dev1'``, ``lr_mult='0.1'``) to new symbols."""

    _current = threading.local()
    current = _Current()

    def __init__(self, **kwargs):
        for v in kwargs.values():
            if not isinstance(v, str):
                raise ValueError("Attributes need to be string")
        self._attr = kwargs
        self._old_scope = None

    def get(self, attr):
        """The scope's attributes updated with ``attr`` (which wins on conflicts)."""
        if not self._attr:
            return dict(attr) if attr else {}
        out = dict(self._attr)
        if attr:
            out.update(attr)
        return out

    def __call__(self):
        return self

    def __enter__(self):
        self._old_scope = AttrScope._get_current()
        merged = dict(self._old_scope._attr)
        merged.update(self._attr)
        self._attr = merged
        AttrScope._current.value = self
        return self

    def __exit__(self, *exc):
        AttrScope._current.value = self._old_scope

    @staticmethod
    def _get_current() -> AttrScope:
        cur = getattr(AttrScope._current, "value", None)
        if cur is None:
            cur = AttrScope._current.value = AttrScope()
        return cur
