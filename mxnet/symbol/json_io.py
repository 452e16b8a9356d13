"""-symbol.json: write 1.9.1's text byte for byte, and read it back (pre-1.0 files too).

The writer follows dmlc-core's JSONWriter, which 1.9.1 uses:

- objects and arrays open on the current line; a "multi-line" scope puts each item on a
  new line indented two spaces per open scope, and separates items with ``", "`` (so
  lines end in a space);
- node lists and string maps with more than one key are multi-line; arrays of plain
  numbers or entries are multi-line only when they have more than ten items;
- node attributes are written in sorted key order.
"""
from __future__ import annotations

import json

from ..base import MXNetError, native_log
from ..operator.control_flow_ops import attach_subgraphs
from ..operator.registry import get_op
from .graph import HIDDEN_KEYS, Node, is_hidden_key, topo_order

__all__ = ["symbol_to_json", "load_json", "load", "graph_to_doc", "mxnet_num_outputs"]

MXNET_VERSION = 10901


# ------------------------------------------------------------------------------------------
# writing

class _Writer:
    """A minimal dmlc::JSONWriter: tracks open scopes and their item counts."""

    def __init__(self):
        self.parts = []
        self.multi = []
        self.count = []

    def _sep(self):
        if not self.multi or self.multi[-1]:
            self.parts.append("\n" + " " * (2 * len(self.multi)))

    def begin(self, bracket, multi_line):
        self.parts.append(bracket)
        self.multi.append(multi_line)
        self.count.append(0)

    def end(self, bracket):
        multi, n = self.multi.pop(), self.count.pop()
        if multi and n:
            self._sep()
        self.parts.append(bracket)

    def item(self):
        """Start the next array item."""
        if self.count[-1]:
            self.parts.append(", ")
        self._sep()
        self.count[-1] += 1

    def key(self, k):
        """Start the next object member."""
        if self.count[-1]:
            self.parts.append(", ")
        self._sep()
        self.parts.append(_quote(k) + ": ")
        self.count[-1] += 1

    def text(self):
        return "".join(self.parts)


def _quote(s):
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _write_value(w, v):
    if isinstance(v, str):
        w.parts.append(_quote(v))
    elif isinstance(v, bool):
        w.parts.append("true" if v else "false")
    elif isinstance(v, int):
        w.parts.append(str(v))
    elif isinstance(v, dict):
        w.begin("{", len(v) > 1)
        for k in v:
            w.key(k)
            _write_value(w, v[k])
        w.end("}")
    elif isinstance(v, _Entries):
        w.begin("[", len(v.items) > 10)
        for e in v.items:
            w.item()
            w.begin("[", False)
            for x in e:
                w.item()
                w.parts.append(str(x))
            w.end("]")
        w.end("]")
    elif isinstance(v, _Any):
        w.begin("[", False)
        w.item()
        _write_value(w, v.type_name)
        w.item()
        _write_value(w, v.value)
        w.end("]")
    elif isinstance(v, list):
        plain = all(isinstance(x, int) for x in v)
        w.begin("[", len(v) > 10 or not plain)
        for x in v:
            w.item()
            _write_value(w, x)
        w.end("]")
    else:
        raise TypeError(f"cannot write {type(v).__name__} into symbol JSON")


class _Entries:
    """A list of (node, index, version) triples: a POD array for the writer."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


class _Any:
    """dmlc::any as written in graph attributes: ``["type", value]``."""

    __slots__ = ("type_name", "value")

    def __init__(self, type_name, value):
        self.type_name, self.value = type_name, value


def _pooling_outputs(p, n):
    """1.9.1 as distributed is built with oneDNN, whose max pooling keeps its workspace
    as a hidden second output (1- to 3-d kernels, channel-first layouts)."""
    kernel = p.get("kernel") or ()
    if n == 1 and p.get("pool_type") == "max" and 1 <= len(kernel) <= 3 and \
            p.get("layout") in (None, "NCW", "NCHW", "NCDHW"):
        return 2
    return n


# Operators whose output count in 1.9.1 differs from the registry's, as a function of the
# parsed parameters and the registry's count:
# - the fused RNN keeps its backward state in a hidden output here, which 1.9.1's CPU
#   operator does not have (it has exactly the visible outputs: 1, or 2/3 with
#   ``state_outputs``);
# - Pooling: the oneDNN workspace above;
# - the spatial transformer family keeps intermediate grids as hidden outputs in 1.9.1.
_MXNET_OUTPUTS = {
    "RNN": lambda p, n: (3 if p.get("mode") == "lstm" else 2) if p.get("state_outputs") else 1,
    "Pooling": _pooling_outputs,
    "GridGenerator": lambda p, n: 2,
    "BilinearSampler": lambda p, n: 2,
    "SpatialTransformer": lambda p, n: 3,
    # NumPy-interface ops whose 1.9.1 kernels keep hidden outputs (the mean; norm's temps)
    "_npi_std": lambda p, n: 2,
    "_npi_var": lambda p, n: 2,
    "_npi_norm": lambda p, n: 4,
}


def mxnet_num_outputs(node):
    """Outputs of ``node`` as 1.9.1 counts them: ``node_row_ptr`` in -symbol.json, and the
    arrays its executor holds (and shows a monitor) per node."""
    n = node.num_outputs()
    if node.op is not None:
        rule = _MXNET_OUTPUTS.get(node.op.name)
        if rule is not None:
            return rule(node.parsed, n)
    return n


_json_num_outputs = mxnet_num_outputs


def graph_to_doc(heads, top=True):
    """The -symbol.json document of a graph, as plain Python data (dicts, lists).

    A control-flow node carries its subgraphs under ``"subgraphs"``, each a full graph
    document without the top-level ``attrs`` (as 1.9.1 writes them).
    """
    order = topo_order(heads)
    index = {id(n): i for i, n in enumerate(order)}
    nodes, arg_nodes, row_ptr = [], [], [0]
    for i, n in enumerate(order):
        entry = {"op": "null" if n.op is None else n.op.name, "name": n.name}
        if n.attrs:
            entry["attrs"] = {k: n.attrs[k] for k in sorted(n.attrs)}
        entry["inputs"] = [[index[id(s)], k, v] for (s, k), v in zip(n.inputs, n.versions)]
        subs = n.subgraphs
        if subs:
            entry["subgraphs"] = [graph_to_doc(g._outputs, top=False) for g in subs]
        nodes.append(entry)
        if n.op is None:
            arg_nodes.append(i)
        row_ptr.append(row_ptr[-1] + _json_num_outputs(n))
    doc = {"nodes": nodes, "arg_nodes": arg_nodes, "node_row_ptr": row_ptr,
           "heads": [[index[id(n)], k, 0] for n, k in heads]}
    if top:
        doc["attrs"] = {"mxnet_version": ["int", MXNET_VERSION]}
        from ..util import is_np_shape
        if is_np_shape():  # 1.9.1 marks graphs saved under NumPy shape semantics
            doc["attrs"] = {"is_np_shape": ["int", 1], **doc["attrs"]}
    return doc


def _write_graph(w, doc):
    w.begin("{", True)
    w.key("nodes")
    w.begin("[", True)
    for nd in doc["nodes"]:
        w.item()
        w.begin("{", True)
        w.key("op")
        _write_value(w, nd["op"])
        w.key("name")
        _write_value(w, nd["name"])
        if "attrs" in nd:
            w.key("attrs")
            _write_value(w, nd["attrs"])
        w.key("inputs")
        _write_value(w, _Entries(nd["inputs"]))
        if "subgraphs" in nd:
            w.key("subgraphs")
            w.begin("[", True)
            for sub in nd["subgraphs"]:
                w.item()
                _write_graph(w, sub)
            w.end("]")
        w.end("}")
    w.end("]")
    w.key("arg_nodes")
    _write_value(w, doc["arg_nodes"])
    w.key("node_row_ptr")
    _write_value(w, doc["node_row_ptr"])
    w.key("heads")
    _write_value(w, _Entries(doc["heads"]))
    if "attrs" in doc:
        w.key("attrs")
        w.begin("{", "is_np_shape" in doc["attrs"])
        if "is_np_shape" in doc["attrs"]:
            w.key("is_np_shape")
            _write_value(w, _Any("int", 1))
        w.key("mxnet_version")
        _write_value(w, _Any("int", MXNET_VERSION))
        w.end("}")
    w.end("}")


def symbol_to_json(sym) -> str:
    """Serialise a Symbol exactly as 1.9.1's ``tojson`` prints it."""
    w = _Writer()
    _write_graph(w, graph_to_doc(sym._outputs))
    return w.text()


# ------------------------------------------------------------------------------------------
# reading

def _file_version(doc):
    v = doc.get("attrs", {}).get("mxnet_version") if isinstance(doc.get("attrs"), dict) else None
    if isinstance(v, list) and len(v) == 2:
        try:
            return int(v[1])
        except (TypeError, ValueError):
            return 0
    return 0  # files without a version predate 0.9


def _upgrade_hidden(attrs):
    """Pre-0.9 files kept ``lr_mult`` & co. as plain keys; 1.9.1 moves them to ``__x__``."""
    out = {}
    for k, v in attrs.items():
        out[f"__{k}__" if k in HIDDEN_KEYS else k] = v
    return out


def _entry(raw, where):
    if not isinstance(raw, (list, tuple)) or not raw:
        raise MXNetError(f"load_json: malformed entry {raw!r} in {where}")
    try:
        nid = int(raw[0])
        idx = int(raw[1]) if len(raw) > 1 else 0
        ver = int(raw[2]) if len(raw) > 2 else 0
    except (TypeError, ValueError):
        raise MXNetError(f"load_json: malformed entry {raw!r} in {where}") from None
    return nid, idx, ver


def load_json(json_str):
    """A Symbol from -symbol.json text (1.x layout, or pre-1.0 ``param``/``attr`` keys)."""
    from .symbol import Symbol
    if not isinstance(json_str, str):
        raise TypeError("fname required to be string")
    try:
        doc = json.loads(json_str)
    except ValueError as e:
        raise MXNetError(f"load_json: malformed JSON: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list) or "heads" not in doc:
        raise MXNetError("load_json: not a symbol file: expected an object with 'nodes' and "
                         "'heads'")
    version = _file_version(doc) or 800  # 1.9.1 dates unversioned files to v0.8.0
    _log_upgrade(version)
    sym = Symbol(_load_graph(doc, version < 900, "load_json"))
    if version < 10901:
        native_log("../src/nnvm/legacy_json_util.cc:216", "Symbol successfully upgraded!")
    return sym


def _log_upgrade(version):
    """The lines 1.9.1 logs when it reads a file written by another version."""
    if version > 10901:
        native_log("../src/nnvm/legacy_json_util.cc:203",
                   f"Warning: loading symbol saved by MXNet version {version} with lower "
                   "version of MXNet v10901. May cause undefined behavior. Please update MXNet "
                   "if you encounter any issue")
    elif version < 10901:
        major, rest = divmod(version, 10000)
        native_log("../src/nnvm/legacy_json_util.cc:208",
                   f"Loading symbol saved by previous version v{major}.{rest // 100}."
                   f"{rest % 100}. Attempting to upgrade...")


def _load_graph(doc, legacy, where):
    """The heads of the graph in a parsed -symbol.json document (or a node's subgraph)."""
    from .symbol import Symbol, _parse_node_attrs
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list) or "heads" not in doc:
        raise MXNetError(f"{where}: not a symbol graph: expected an object with 'nodes' and "
                         "'heads'")
    built: list[Node] = []
    for i, nd in enumerate(doc["nodes"]):
        if not isinstance(nd, dict) or "op" not in nd or "name" not in nd:
            raise MXNetError(f"{where}: node {i} lacks 'op' or 'name'")
        attrs = {}
        for key in ("attr", "attrs"):  # pre-1.0 files split params and attributes
            part = nd.get(key)
            if isinstance(part, dict):
                attrs.update({str(k): str(v) for k, v in part.items()})
        param = nd.get("param")
        if isinstance(param, dict) and param:
            # 1.9.1 reads 'param' into a hash map of its own and then inserts that map's
            # entries (in its iteration order) after the 'attr'/'attrs' ones
            from .symbol import _attr_hash_order
            staged = Node(None, "", {str(k): str(v) for k, v in param.items()})
            for k in _attr_hash_order(staged)[0]:
                attrs.setdefault(k, staged.attrs[k])
        if legacy:
            attrs = _upgrade_hidden(attrs)
        inputs, versions = [], []
        for raw in nd.get("inputs", []):
            src, idx, ver = _entry(raw, f"node {i} ({nd['name']})")
            if not 0 <= src < i:
                raise MXNetError(f"{where}: node {i} ({nd['name']}) refers to node {src}, "
                                 "which does not precede it")
            if idx >= built[src].num_outputs():
                raise MXNetError(f"{where}: node {i} ({nd['name']}) reads output {idx} of "
                                 f"{built[src].name}, which has {built[src].num_outputs()}")
            inputs.append((built[src], idx))
            versions.append(ver)
        name = str(nd["name"])
        if nd["op"] == "null":
            node = Node(None, name, attrs)
        else:
            try:
                op = get_op(nd["op"])
            except MXNetError:
                raise MXNetError(f"Failed loading Op {name} of type {nd['op']}: "
                                 f"operator {nd['op']} is not registered") from None
            parsed = _parse_node_attrs(op, attrs, name, lenient=True)
            subs = nd.get("subgraphs")
            if subs:
                if not isinstance(subs, list):
                    raise MXNetError(f"{where}: node {name}: 'subgraphs' must be a list")
                graphs = [Symbol(_load_graph(g, legacy, f"{where} (subgraph {k} of {name})"))
                          for k, g in enumerate(subs)]
                parsed = attach_subgraphs(op, parsed, graphs, name)
            node = Node(op, name, attrs, parsed, inputs, versions)
            expected = len(node.input_names())
            if legacy and len(inputs) + len(op.aux_names(parsed)) == expected > len(inputs):
                _add_aux_variables(node)
                inputs = node.inputs
            if len(inputs) != expected and not op.variadic:
                raise MXNetError(f"{where}: node {name} ({op.name}) has {len(inputs)} inputs, "
                                 f"but the operator takes {expected} {node.input_names()}")
            for (src, _), ver in zip(inputs[node.num_args():], versions[node.num_args():]):
                if src.op is None:
                    src.version = max(src.version, ver)
        built.append(node)
    heads = []
    for h in doc["heads"]:
        src, idx, _ = _entry(h, "heads")
        if not 0 <= src < len(built):
            raise MXNetError(f"{where}: head refers to missing node {src}")
        heads.append((built[src], idx))
    return heads


def _add_aux_variables(node):
    """Pre-0.9 files leave out the auxiliary states; 1.9.1's upgrade makes their variables,
    each starting from a copy of the operator's attributes (plus the usual initializer)."""
    from .symbol import _ATTR_HISTORY, _AUX_INIT, _attr_hash_order
    copied = _attr_hash_order(node)
    for nm in node.input_names()[len(node.inputs):]:
        var = Node(None, f"{node.name}_{nm}", node.attrs)
        _ATTR_HISTORY[var] = (copied[0], copied[1], ())
        if nm in _AUX_INIT:
            var.attrs["__init__"] = _AUX_INIT[nm]
        node.inputs.append((var, 0))
        node.versions.append(0)


def load(fname):
    """Read a Symbol from a -symbol.json file."""
    if not isinstance(fname, str):
        raise TypeError("fname required to be string")
    try:
        with open(fname, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise MXNetError(f"sym.load: cannot read {fname}: {e}") from None
    except UnicodeDecodeError as e:
        raise MXNetError(f"sym.load: {fname} is not UTF-8 text: {e}") from None
    return load_json(text)


_ = is_hidden_key
