"""-symbol.json: write 1.9.1's layout and read it back (including pre-1.0 files)."""
from __future__ import annotations

import json

from ..base import MXNetError
from ..operator.registry import get_op
from .graph import Node, topo_order

__all__ = ["symbol_to_json", "load_json", "load"]

MXNET_VERSION = 10901


def symbol_to_json(sym) -> str:
    """Serialise a Symbol: nodes in DFS topological order, string attrs, heads."""
    order = topo_order(sym._outputs)
    index = {id(n): i for i, n in enumerate(order)}
    nodes, arg_nodes, row_ptr = [], [], [0]
    for i, n in enumerate(order):
        entry = {"op": "null" if n.op is None else n.op.name, "name": n.name}
        attrs = dict(n.attrs)
        attrs.update(n.extra)
        if attrs:
            entry["attrs"] = attrs
        entry["inputs"] = [[index[id(s)], k, 0] for s, k in n.inputs]
        nodes.append(entry)
        if n.op is None:
            arg_nodes.append(i)
        row_ptr.append(row_ptr[-1] + n.num_outputs())
    doc = {"nodes": nodes, "arg_nodes": arg_nodes, "node_row_ptr": row_ptr,
           "heads": [[index[id(n)], k, 0] for n, k in sym._outputs],
           "attrs": {"mxnet_version": ["int", MXNET_VERSION]}}
    return json.dumps(doc, indent=2)


_HIDDEN_KEYS = {"ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage", "init",
                "shape", "dtype", "storage_type"}


def load_json(json_str):
    """A Symbol from -symbol.json text (1.x layout, or pre-1.0 ``param``/``attr`` keys)."""
    from .symbol import Symbol
    try:
        doc = json.loads(json_str)
    except (TypeError, ValueError) as e:
        raise MXNetError(f"load_json: malformed JSON: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list) or "heads" not in doc:
        raise MXNetError("load_json: not a symbol file: expected an object with 'nodes' and 'heads'")
    built: list[Node] = []
    for i, nd in enumerate(doc["nodes"]):
        if not isinstance(nd, dict) or "op" not in nd or "name" not in nd:
            raise MXNetError(f"load_json: node {i} lacks 'op' or 'name'")
        raw = {}
        for key in ("param", "attr", "attrs"):  # pre-1.0 files split params and attributes
            if isinstance(nd.get(key), dict):
                raw.update(nd[key])
        attrs, extra = {}, {}
        for k, v in raw.items():
            if k.startswith("__") and k.endswith("__"):
                extra[k] = str(v)
            elif nd["op"] == "null" or k in _HIDDEN_KEYS and k not in _op_params(nd["op"]):
                extra[k] = str(v)
            else:
                attrs[k] = str(v)
        inputs = []
        for inp in nd.get("inputs", []):
            src, idx = int(inp[0]), int(inp[1]) if len(inp) > 1 else 0
            if not 0 <= src < i:
                raise MXNetError(f"load_json: node {i} ({nd['name']}) refers to node {src}, "
                                 "which does not precede it")
            inputs.append((built[src], idx))
        if nd["op"] == "null":
            node = Node(None, nd["name"], extra={**attrs, **extra})
        else:
            op = get_op(nd["op"])
            user = {k: v for k, v in attrs.items() if k in op.params}
            parsed = op.parse_attrs(user)
            node = Node(op, nd["name"], attrs, parsed, extra, inputs)
        built.append(node)
    heads = []
    for h in doc["heads"]:
        src = int(h[0])
        if not 0 <= src < len(built):
            raise MXNetError(f"load_json: head refers to missing node {src}")
        heads.append((built[src], int(h[1]) if len(h) > 1 else 0))
    return Symbol(heads)


def _op_params(op_name):
    try:
        return get_op(op_name).params
    except MXNetError:
        return {}


def load(fname):
    """Read a Symbol from a -symbol.json file."""
    if not isinstance(fname, str):
        raise TypeError("fname must be a string")
    try:
        with open(fname, encoding="utf-8") as f:
            text = f.read(64 << 20)
    except OSError as e:
        raise MXNetError(f"sym.load: cannot read {fname}: {e}") from None
    return load_json(text)
