"""Nested lists of arrays or symbols, flattened and regrouped (the control-flow front ends
of mx.nd.contrib and mx.sym.contrib take and return such structures)."""
from __future__ import annotations

__all__ = ["flatten", "regroup"]


def flatten(args, leaf_items, what, kind, error, article="a"):
    """(flat list of leaves, format) of a leaf or a nested list of leaves.

    ``leaf_items(x)`` gives the items a leaf stands for (a multi-output symbol stands for
    several), or None when ``x`` is not a leaf; anything else raises ``error`` naming
    ``what`` and ``kind`` (the leaf type's name, after ``article``). The format is 0 for a single item, n for
    a leaf of n items and a list of formats for a list.
    """
    items = leaf_items(args)
    if items is not None:
        return (items, 0) if len(items) == 1 else (items, len(items))
    if not isinstance(args, (list, tuple)):
        raise error(f"{what} must be {article} {kind} or a (nested) list of {kind}s, but got "
                    f"{args!r} of type {type(args).__name__}")
    flat, fmt = [], []
    for a in args:
        f, sub = flatten(a, leaf_items, what, kind, error, article)
        flat.extend(f)
        fmt.append(sub)
    return flat, fmt


def regroup(flat, fmt):
    """Inverse of :func:`flatten`: (structure, the items left over)."""
    if isinstance(fmt, int):
        return (flat[0], flat[1:]) if fmt == 0 else (list(flat[:fmt]), flat[fmt:])
    out = []
    for sub in fmt:
        item, flat = regroup(flat, sub)
        out.append(item)
    return out, flat
