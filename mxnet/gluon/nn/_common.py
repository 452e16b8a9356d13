"""Small helpers shared by the gluon.nn layer modules."""
from __future__ import annotations

import numbers

from ..block import Block

__all__ = ["indent", "children_repr", "tuple_of"]


def indent(text, spaces):
    """Indent every line of ``text`` after the first by ``spaces`` blanks."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return "\n".join([lines[0]] + [pad + line for line in lines[1:]])


def children_repr(block, items=None):
    """1.9.1's default block repr: ``Name(\\n  (key): child\\n)``.

    ``items`` defaults to the blocks held as attributes (like 1.9.1's ``Block.__repr__``); containers
    pass their registered children instead. A block without any prints ``Name(\\n\\n)``.
    """
    if items is None:
        items = [(k, v) for k, v in block.__dict__.items() if isinstance(v, Block)]
    body = "\n".join(f"  ({key}): {indent(repr(child), 2)}" for key, child in items)
    return f"{block.__class__.__name__}(\n{body}\n)"


def tuple_of(value, n):
    """``value`` repeated ``n`` times when it is a number; a sequence is kept as given."""
    if isinstance(value, numbers.Number):
        return (value,) * n
    return value
