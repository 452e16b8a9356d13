"""The symbolic graph's nodes and the passes over them (topological order, listing)."""
from __future__ import annotations

__all__ = ["Node", "topo_order", "aux_var_ids"]


class Node:
    """One graph node: an operator call, or a variable when ``op`` is None.

    ``attrs`` holds the operator parameters exactly as the user gave them, as strings
    (what -symbol.json stores); ``parsed`` the typed values; ``extra`` hidden attributes
    such as ``__shape__`` or ``__lr_mult__``; ``inputs`` (node, output index) pairs.
    """

    __slots__ = ("op", "name", "attrs", "parsed", "extra", "inputs", "__weakref__")

    def __init__(self, op, name, attrs=None, parsed=None, extra=None, inputs=()):
        self.op = op
        self.name = name
        self.attrs = dict(attrs or {})
        self.parsed = parsed if parsed is not None else {}
        self.extra = dict(extra or {})
        self.inputs = list(inputs)

    @property
    def is_variable(self) -> bool:
        return self.op is None

    def num_outputs(self) -> int:
        return 1 if self.op is None else self.op.num_outputs(self.parsed)

    def num_visible_outputs(self) -> int:
        return 1 if self.op is None else self.op.num_visible_outputs(self.parsed)

    def num_args(self) -> int:
        """How many leading inputs are arguments (the rest are auxiliary states)."""
        return len(self.inputs) if self.op is None else len(self.op.input_names(self.parsed))

    def output_names(self) -> list:
        if self.op is None:
            return [self.name]
        return [f"{self.name}_{o}" for o in self.op.list_output_names(self.parsed)]


def topo_order(heads):
    """Nodes reachable from ``heads`` ((node, index) pairs), inputs before users, in DFS order."""
    order, seen = [], set()
    for head, _ in heads:
        if id(head) in seen:
            continue
        stack = [(head, 0)]
        seen.add(id(head))
        while stack:
            node, i = stack.pop()
            if i < len(node.inputs):
                stack.append((node, i + 1))
                child = node.inputs[i][0]
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append((child, 0))
            else:
                order.append(node)
    return order


def aux_var_ids(order):
    """ids of variable nodes that feed an auxiliary-state slot of some operator."""
    aux = set()
    for node in order:
        if node.op is not None:
            for src, _ in node.inputs[node.num_args():]:
                if src.op is None:
                    aux.add(id(src))
    return aux
