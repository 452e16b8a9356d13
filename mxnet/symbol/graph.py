"""The symbolic graph's nodes and the walks over them.

A graph is a set of :class:`Node` objects linked through their ``inputs``; a Symbol is
a list of (node, output index) heads into it. Nodes are mutable only while a Symbol is
being composed; every public Symbol operation that changes a graph copies it first.
"""
from __future__ import annotations

__all__ = ["Node", "topo_order", "aux_var_ids", "is_hidden_key", "HIDDEN_KEYS", "copy_graph",
           "SUBGRAPHS_KEY", "without_amp_casts"]

# The key under which a control-flow node keeps its subgraphs in ``Node.parsed`` (next to the
# parsed operator parameters, so that the operator's rules see them); never written as an
# attribute string.
SUBGRAPHS_KEY = "_subgraphs"

# Attribute names that MXNet stores as ``__name__`` and lists twice (with and without the
# underscores) in list_attr/attr_dict.
HIDDEN_KEYS = ("ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage")


def is_hidden_key(key) -> bool:
    """``__x__`` keys are attributes, never operator parameters."""
    return len(key) > 4 and key.startswith("__") and key.endswith("__")


class Node:
    """One graph node: an operator call, or a variable when ``op`` is None.

    - ``attrs``: every attribute as a string, exactly what -symbol.json stores: the
      operator parameters the user gave plus hidden ``__x__`` attributes;
    - ``parsed``: the operator parameters parsed by the registry (defaults filled);
    - ``inputs``: (node, output index) pairs; ``versions``: the version number each
      input entry was recorded with (variables count the operators that mutate them);
    - ``version``: for variables, how many operators mutate it so far.
    """

    __slots__ = ("op", "name", "attrs", "parsed", "inputs", "versions", "version", "__weakref__")

    def __init__(self, op, name, attrs=None, parsed=None, inputs=(), versions=None):
        self.op = op
        self.name = name
        self.attrs = dict(attrs or {})
        self.parsed = parsed if parsed is not None else {}
        self.inputs = list(inputs)
        self.versions = list(versions) if versions is not None else [0] * len(self.inputs)
        self.version = 0

    @property
    def is_variable(self) -> bool:
        return self.op is None

    def num_outputs(self) -> int:
        return 1 if self.op is None else self.op.num_outputs(self.parsed)

    def num_visible_outputs(self) -> int:
        return 1 if self.op is None else self.op.num_visible_outputs(self.parsed)

    def num_args(self) -> int:
        """How many leading inputs are arguments (the rest are auxiliary states)."""
        if self.op is None:
            return 0
        return len(self.inputs) - len(self.op.aux_names(self.parsed))

    def output_names(self) -> list:
        """The names list_outputs shows for each visible output."""
        if self.op is None:
            return [self.name]
        return [f"{self.name}_{o}" for o in self.op.list_output_names(self.parsed)]

    def input_names(self) -> list:
        """The operator's names for its input slots (arguments, then auxiliary states)."""
        if self.op is None:
            return []
        return self.op.input_names(self.parsed) + self.op.aux_names(self.parsed)

    @property
    def subgraphs(self):
        """The Symbols this node's operator runs (control flow operators); else empty."""
        held = self.parsed.get(SUBGRAPHS_KEY) if self.op is not None else None
        return () if held is None else held.graphs

    def __repr__(self):
        return f"<Node {self.name} ({'null' if self.op is None else self.op.name})>"


def topo_order(heads):
    """Nodes reachable from ``heads`` ((node, index) pairs), inputs before users.

    This is a post-order depth-first walk that visits inputs in order, the order
    -symbol.json lists its nodes in.
    """
    order, seen = [], set()
    for head, _ in heads:
        if id(head) in seen:
            continue
        seen.add(id(head))
        stack = [(head, 0)]
        while stack:
            node, i = stack[-1]
            if i < len(node.inputs):
                stack[-1] = (node, i + 1)
                child = node.inputs[i][0]
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append((child, 0))
            else:
                stack.pop()
                order.append(node)
    return order


def aux_var_ids(order):
    """ids of variable nodes that feed an auxiliary-state slot of some operator."""
    aux = set()
    for node in order:
        if node.op is not None and node.op._aux:
            for src, _ in node.inputs[node.num_args():]:
                if src.op is None:
                    aux.add(id(src))
    return aux


def copy_graph(heads):
    """A deep copy of the graph behind ``heads``; returns the new heads."""
    mapping = {}
    for node in topo_order(heads):
        new = Node(node.op, node.name, node.attrs, node.parsed,
                   [(mapping[id(s)], i) for s, i in node.inputs], node.versions)
        new.version = node.version
        mapping[id(node)] = new
    return [(mapping[id(n)], i) for n, i in heads]


_AMP_CASTS = ("amp_cast", "amp_multicast")


def without_amp_casts(heads):
    """``heads`` of a copy of the graph in which every input read through an ``amp_cast`` /
    ``amp_multicast`` node reads the cast's own input instead, or ``heads`` itself when
    there are no casts: what 1.9.1 saves by default (``remove_amp_cast=True``). As there,
    a cast that is itself an output stays (its input is rewired)."""
    order = topo_order(heads)
    if not any(n.op is not None and n.op.name in _AMP_CASTS for n in order):
        return heads
    mapping = {}

    def source(entry):
        node, idx = entry
        while node.op is not None and node.op.name in _AMP_CASTS:
            node, idx = node.inputs[0 if node.op.name == "amp_cast" else idx]
        return mapping[id(node)], idx

    kept = {id(n) for n, _ in heads}
    for node in order:
        if node.op is not None and node.op.name in _AMP_CASTS and id(node) not in kept:
            continue
        new = Node(node.op, node.name, node.attrs, node.parsed,
                   [source(e) for e in node.inputs], node.versions)
        new.version = node.version
        mapping[id(node)] = new
    return [(mapping[id(n)], i) for n, i in heads]
