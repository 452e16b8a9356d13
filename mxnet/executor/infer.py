"""Shape and type inference over a Symbol graph, using each operator's rules.

The pass sweeps the topological order forwards and then backwards until nothing
changes, so weight shapes follow from data shapes and data shapes can follow from
outputs. Internally an unknown shape is ``None`` and an unknown dimension is ``None``;
the results use 1.9.1's legacy spelling: ``()`` for an unknown shape and ``0`` for an
unknown dimension.

Operators without a shape rule are handled by running them once on zero-filled inputs
whose shapes are all known (cheap for the creation operators that lack rules).
"""
from __future__ import annotations

import operator

import numpy as np

from ..base import MXNetError, dtype_np, parse_attr
from ..symbol.graph import aux_var_ids, topo_order
from ..util import is_np_shape

__all__ = ["infer_shapes", "infer_types", "InferResult", "infer_graph"]


class InferResult:
    """Per-entry values plus the argument / output / auxiliary lists in 1.9.1's form."""

    __slots__ = ("values", "order", "complete", "arg_shapes", "out_shapes", "aux_shapes",
                 "arg_types", "out_types", "aux_types")

    def __init__(self, values, order, complete):
        self.values, self.order, self.complete = values, order, complete


def _fmt(shape):
    if shape is None:
        return "()"
    return "(" + ",".join("?" if d is None else str(d) for d in shape) + ")"


def _merge_shape(old, new):
    """Combine two partial shapes; raises ValueError when they disagree."""
    if new is None:
        return old
    new = tuple(new)
    if old is None:
        return new
    if len(old) != len(new):
        raise ValueError
    out = []
    for a, b in zip(old, new):
        if a is None:
            out.append(b)
        elif b is None or a == b:
            out.append(a)
        else:
            raise ValueError
    return tuple(out)


def _merge_type(old, new):
    if new is None:
        return old
    new = np.dtype(new)
    if old is None:
        return new
    if old != new:
        raise ValueError
    return old


def _shape_known(s):
    return s is not None and all(d is not None for d in s)


def _to_internal_shape(v):
    if v is None:
        return None
    v = (int(v),) if isinstance(v, (int, np.integer)) else tuple(v)
    # integer dimensions only: 1.9.1 raises TypeError for a float one instead of truncating
    v = tuple(None if d is None else operator.index(d) for d in v)
    if is_np_shape():  # NumPy semantics: 0 is a real size, -1 unknown, () a scalar
        return tuple(None if (d is None or d < 0) else d for d in v)
    if len(v) == 0:
        return None  # legacy: an empty shape means unknown
    return tuple(None if (d is None or d <= 0) else d for d in v)


def _var_shape_hint(node):
    text = node.attrs.get("__shape__")
    if text is None:
        return None
    try:
        return _to_internal_shape(parse_attr(text))
    except (TypeError, ValueError):
        return None


def _var_type_hint(node):
    text = node.attrs.get("__dtype__")
    if text is None:
        return None
    try:
        return dtype_np(int(text))
    except (TypeError, ValueError, MXNetError):
        return None


def _evaluate_shapes(op, attrs, in_shapes):
    """Output shapes of an operator without a shape rule, by running it on zeros."""
    from ..backend import get_backend
    from ..context import Context
    from ..operator.registry import RunContext
    rc = RunContext(get_backend(Context("cpu", 0)), False)
    arrays = [np.zeros(s, dtype=np.float32) for s in in_shapes]
    res = op.compute(rc, attrs, *arrays)
    res = list(res) if isinstance(res, (list, tuple)) else [res]
    return [tuple(int(d) for d in np.shape(r)) for r in res]


def _default_type(attrs, ins, outs):
    """Operators without a type rule: one dtype everywhere (or their ``dtype`` parameter)."""
    want = attrs.get("dtype") if isinstance(attrs, dict) else None
    if want is not None and isinstance(want, str) and want not in ("None", ""):
        try:
            return list(ins), [dtype_np(want)] * len(outs), []
        except MXNetError:
            pass
    known = next((t for t in list(ins) + list(outs) if t is not None), None)
    return [known if t is None else t for t in ins], [known if t is None else t for t in outs], []


def _run(sym, what, known):
    order = topo_order(sym._outputs)
    shape = what == "shape"
    merge = _merge_shape if shape else _merge_type
    values: dict = {}
    for n in order:
        if n.op is not None:
            continue
        v = known.get(n.name)
        if v is not None:
            v = _to_internal_shape(v) if shape else dtype_np(v)
        else:
            v = _var_shape_hint(n) if shape else _var_type_hint(n)
        if v is not None:
            values[(id(n), 0)] = v
    ops = [n for n in order if n.op is not None]
    evaluated = set()

    def visit(n):
        changed = False
        nargs = n.num_args()
        has_aux = len(n.inputs) > nargs
        ins = [values.get((id(s), i)) for s, i in n.inputs]
        nout = n.num_outputs()
        outs = [values.get((id(n), i)) for i in range(nout)]
        rule = n.op.infer_shape if shape else (n.op.infer_type or _default_type)
        try:
            if rule is None:
                if id(n) in evaluated or not all(_shape_known(s) for s in ins):
                    return False
                evaluated.add(id(n))
                try:
                    new_ins, new_outs, new_aux = ins, _evaluate_shapes(n.op, n.parsed, ins), []
                except MXNetError:
                    raise
                except Exception:  # noqa: BLE001 - an op that cannot run on zeros stays unknown
                    return False
            else:
                res = rule(n.parsed, ins[:nargs] if has_aux else ins, outs)
                new_ins, new_outs = list(res[0]), list(res[1])
                new_aux = list(res[2]) if len(res) > 2 and res[2] else []
        except MXNetError as e:
            raise MXNetError(f"Error in operator {n.name}: {e}") from None
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as e:
            shown = ", ".join(_fmt(s) if shape else str(s) for s in ins)
            raise MXNetError(f"Error in operator {n.name}: {n.op.name} cannot infer the {what}s "
                             f"of its outputs from its inputs [{shown}]: "
                             f"{type(e).__name__}: {e}") from None
        if has_aux and len(new_ins) == nargs:
            new_ins = new_ins + (new_aux or [None] * (len(n.inputs) - nargs))
        names = n.input_names()
        for j, ((s, i), v) in enumerate(zip(n.inputs, new_ins)):
            old = values.get((id(s), i))
            try:
                m = merge(old, v)
            except ValueError:
                what_in = names[j] if j < len(names) else f"input {j}"
                raise MXNetError(
                    f"Error in operator {n.name}: {what} inconsistent for input {what_in} "
                    f"({s.name}): provided {_fmt(old) if shape else old}, inferred "
                    f"{_fmt(tuple(v)) if shape else np.dtype(v)}") from None
            if m is not None and (old is None or m != old):
                values[(id(s), i)] = m
                changed = True
        for i, v in enumerate(new_outs[:nout]):
            old = values.get((id(n), i))
            try:
                m = merge(old, v)
            except ValueError:
                raise MXNetError(
                    f"Error in operator {n.name}: {what} inconsistent for output {i}: provided "
                    f"{_fmt(old) if shape else old}, inferred "
                    f"{_fmt(tuple(v)) if shape else np.dtype(v)}") from None
            if m is not None and (old is None or m != old):
                values[(id(n), i)] = m
                changed = True
        return changed

    for _ in range(2 * len(ops) + 2):
        changed = False
        for n in ops:
            changed |= visit(n)
        for n in reversed(ops):
            changed |= visit(n)
        if not changed:
            break
    entries = [(id(n), i) for n in order for i in range(n.num_outputs())]
    if shape:
        complete = all(_shape_known(values.get(e)) for e in entries)
    else:
        complete = all(values.get(e) is not None for e in entries)
    return values, order, complete


def _lists(sym, values, order):
    aux = aux_var_ids(order)
    arg_v = [values.get((id(n), 0)) for n in order if n.op is None and id(n) not in aux]
    aux_v = [values.get((id(n), 0)) for n in order if n.op is None and id(n) in aux]
    out_v = [values.get((id(n), i)) for n, i in sym._outputs]
    return arg_v, out_v, aux_v


def legacy_shape(v):
    """1.9.1's Python view of an inferred shape: () if unknown, 0 for unknown dims (under
    NumPy shape semantics: None if unknown, -1 for unknown dims)."""
    if is_np_shape():
        return None if v is None else tuple(-1 if d is None else int(d) for d in v)
    return () if v is None else tuple(0 if d is None else int(d) for d in v)


def infer_shapes(sym, known):
    """Run shape inference; ``known`` maps input names to shapes (0 = unknown dim)."""
    values, order, complete = _run(sym, "shape", known)
    res = InferResult(values, order, complete)
    a, o, x = _lists(sym, values, order)
    res.arg_shapes = [legacy_shape(v) for v in a]
    res.out_shapes = [legacy_shape(v) for v in o]
    res.aux_shapes = [legacy_shape(v) for v in x]
    return res


def infer_types(sym, known):
    """Run type inference; ``known`` maps input names to dtypes."""
    values, order, complete = _run(sym, "type", known)
    res = InferResult(values, order, complete)
    a, o, x = _lists(sym, values, order)
    fix = lambda v: None if v is None else np.dtype(v).type
    res.arg_types = [fix(v) for v in a]
    res.out_types = [fix(v) for v in o]
    res.aux_types = [fix(v) for v in x]
    return res


def infer_graph(sym, what, known):
    """Values per (node id, output index) from ``known`` {name: shape or dtype}."""
    values, _, _ = _run(sym, what, known)
    return values, None
