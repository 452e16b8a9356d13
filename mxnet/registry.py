"""Name registries for pluggable classes (initialisers, metrics, ...), as ``mx.registry``.

A :class:`Registry` maps lower-cased names and aliases to subclasses of one base class, and
builds instances from a name, a ``[name, kwargs]`` JSON string, a config dict or an instance.
"""
from __future__ import annotations

import json
import warnings

__all__ = ["Registry", "get_register_func", "get_alias_func", "get_create_func",
           "get_registry"]


_ALL: list = []   # every Registry made (modules keep their own, e.g. mx.init's)


class Registry:
    """Subclasses of ``base`` by name; ``nickname`` names them in messages ("metric", ...)."""

    def __init__(self, base, nickname):
        self.base = base
        self.nickname = nickname
        self.table: dict = {}
        _ALL.append(self)

    def register(self, klass, name=None):
        """Register ``klass`` under ``name`` (default: its lower-cased class name); usable as a
        class decorator. Re-registering a name warns and overrides, as 1.9.1 does."""
        if not (isinstance(klass, type) and issubclass(klass, self.base)):
            raise AssertionError(f"Can only register subclass of {self.base.__name__}, got {klass!r}")
        name = (name or klass.__name__).lower()
        old = self.table.get(name)
        if old is not None and old is not klass:
            warnings.warn(f"New {self.nickname} {klass.__module__}.{klass.__name__} registered with "
                          f"name {name} is overriding existing {self.nickname} {old.__module__}."
                          f"{old.__name__}", UserWarning, stacklevel=3)
        self.table[name] = klass
        return klass

    def alias(self, *aliases):
        """A class decorator registering the class under extra names as well."""
        def reg(klass):
            for name in aliases:
                self.register(klass, name)
            return klass
        return reg

    def create(self, *args, **kwargs):
        """An instance from a name (+ args), a JSON ``[name, kwargs]`` string, a dict, or an
        instance of the base class (returned as it is)."""
        if args:
            name, args = args[0], args[1:]
        else:
            name = kwargs.pop(self.nickname)
        if isinstance(name, self.base):
            if args or kwargs:
                raise AssertionError(f"{self.nickname} is already an instance. Additional "
                                     "arguments are invalid")
            return name
        if isinstance(name, dict):
            return self.create(**name)
        if not isinstance(name, str):
            raise AssertionError(f"{self.nickname} must be of string type, got "
                                 f"{type(name).__name__}")
        if name.startswith("[") or name.startswith("{"):
            if args or kwargs:
                raise AssertionError(f"no extra arguments are allowed with a JSON {self.nickname}")
            loaded = json.loads(name)
            if isinstance(loaded, dict):
                return self.create(**loaded)
            return self.create(loaded[0], **loaded[1])
        klass = self.table.get(name.lower())
        if klass is None:
            raise AssertionError(f"{name.lower()} is not registered. Please register with "
                                 f"{self.nickname}.register first")
        return klass(*args, **kwargs)


_REGISTRIES: dict = {}


def _registry(base, nickname):
    reg = _REGISTRIES.get(base)
    if reg is None:
        reg = _REGISTRIES[base] = Registry(base, nickname)
    return reg


def get_register_func(base_class, nickname):
    """The ``register`` function of the registry for ``base_class``."""
    return _registry(base_class, nickname).register


def get_alias_func(base_class, nickname):
    """The ``alias`` decorator factory of the registry for ``base_class``."""
    return _registry(base_class, nickname).alias


def get_create_func(base_class, nickname):
    """The ``create`` function of the registry for ``base_class``."""
    return _registry(base_class, nickname).create


def get_registry(base_class):
    """A copy of the {name: class} table registered for ``base_class`` ({} when none)."""
    reg = _REGISTRIES.get(base_class)
    if reg is None:
        reg = next((r for r in _ALL if r.base is base_class), None)
    return dict(reg.table) if reg is not None else {}
