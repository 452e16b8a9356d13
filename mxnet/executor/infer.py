"""Shape and type inference over a Symbol graph, using each operator's rules.

Passes run forward and backward over the topological order until nothing changes, so
weight shapes are inferred from data shapes and vice versa.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, dtype_np, parse_attr
from ..symbol.graph import topo_order

__all__ = ["infer_graph"]


def _merge(opname, node_name, old, new, what):
    if new is None:
        return old, False
    if old is None:
        return new, True
    if what == "shape":
        if len(old) != len(new):
            raise MXNetError(f"infer_shape: inconsistent shapes at {opname} node {node_name!r}: "
                             f"{tuple(old)} vs {tuple(new)}")
        merged = []
        for a, b in zip(old, new):
            if a in (None, 0):
                merged.append(b)
            elif b in (None, 0) or a == b:
                merged.append(a)
            else:
                raise MXNetError(f"infer_shape: inconsistent shapes at {opname} node {node_name!r}: "
                                 f"{tuple(old)} vs {tuple(new)}")
        merged = tuple(merged)
        return merged, merged != tuple(old)
    if np.dtype(old) != np.dtype(new):
        raise MXNetError(f"infer_type: inconsistent dtypes at {opname} node {node_name!r}: "
                         f"{np.dtype(old)} vs {np.dtype(new)}")
    return old, False


def _var_hint(node, what):
    if what == "shape" and "__shape__" in node.extra:
        v = parse_attr(node.extra["__shape__"])
        return tuple(None if d == 0 else d for d in v) if v else None
    if what == "type" and "__dtype__" in node.extra:
        return dtype_np(int(node.extra["__dtype__"]))
    return None


def _default_type(attrs, ins, outs):
    known = next((t for t in list(ins) + list(outs) if t is not None), None)
    return [known if t is None else t for t in ins], [known if t is None else t for t in outs], []


def infer_graph(sym, what, known):
    """Values per (node id, output index), from ``known`` {variable name: shape or dtype}."""
    order = topo_order(sym._outputs)
    values: dict = {}
    for n in order:
        if n.op is None:
            v = known.get(n.name)
            if v is not None:
                v = tuple(v) if what == "shape" else dtype_np(v)
                if what == "shape":
                    v = tuple(None if d == 0 else d for d in v)
            else:
                v = _var_hint(n, what)
            if v is not None:
                values[(id(n), 0)] = v
    for _ in range(len(order) + 2):
        changed = False
        for n in order:
            if n.op is None:
                continue
            rule = n.op.infer_shape if what == "shape" else (n.op.infer_type or _default_type)
            if rule is None:
                continue
            nargs = n.num_args()
            ins = [values.get((id(s), i)) for s, i in n.inputs]
            nout = n.num_outputs()
            outs = [values.get((id(n), i)) for i in range(nout)]
            try:
                res = rule(n.parsed, ins[:nargs] if n.op._aux else ins, outs)
            except MXNetError as e:
                raise MXNetError(f"infer_{what}: error in operator {n.name} ({n.op.name}): {e}") from None
            except (TypeError, ValueError, IndexError) as e:
                raise MXNetError(f"infer_{what}: error in operator {n.name} ({n.op.name}) with "
                                 f"inputs {ins}: {e}") from None
            new_ins, new_outs = list(res[0]), list(res[1])
            new_aux = list(res[2]) if len(res) > 2 and res[2] else []
            if n.op._aux and len(new_ins) == nargs:
                new_ins = new_ins + (new_aux or [None] * (len(n.inputs) - nargs))
            for (s, i), v in zip(n.inputs, new_ins):
                merged, ch = _merge(n.op.name, n.name, values.get((id(s), i)), v, what)
                if ch:
                    values[(id(s), i)] = merged
                    changed = True
            for i, v in enumerate(new_outs):
                merged, ch = _merge(n.op.name, n.name, values.get((id(n), i)), v, what)
                if ch:
                    values[(id(n), i)] = merged
                    changed = True
        if not changed:
            break
    if what == "shape":
        values = {k: (None if v is None else tuple(v)) for k, v in values.items()}
    return values, None
