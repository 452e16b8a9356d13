"""``mx.viz``: a text summary of a Symbol's layers and a Graphviz drawing of its graph.

Both read the graph as its ``-symbol.json`` lists it, so layer order, names and the
attribute strings they show are those of the saved file. The layout of
``print_summary`` and the nodes, colours and edge labels of ``plot_network`` follow
1.9.1, quirks included:

- a layer's "Previous Layer" lists its operator inputs, plus the variables whose node
  index happens to appear in the first head entry (in practice node 0, the data);
- parameter counts are worked out from attributes and input channels for
  Convolution, FullyConnected, BatchNorm (gamma and beta) and Embedding only;
- shapes are shown without the batch axis.
"""
from __future__ import annotations

import json

from .base import MXNetError
from .symbol import Symbol

__all__ = ["print_summary", "plot_network"]

_WEIGHT_SUFFIXES = ("_weight", "_bias", "_beta", "_gamma", "_moving_var", "_moving_mean",
                    "_running_var", "_running_mean")

# fill colours by kind of node: inputs, compute layers, activations, normalisation,
# pooling, shape ops, softmax, everything else
_PALETTE = ("#8dd3c7", "#fb8072", "#ffffb3", "#bebada", "#80b1d3", "#fdb462", "#b3de69",
            "#fccde5")


def _tuple_str(s):
    """'(3, 3)' -> ['3', '3'] (attribute strings of shapes)."""
    return [p.strip() for p in s.strip("()[] ").split(",") if p.strip()]


def _dims(shape):
    return "x".join(str(d) for d in shape)


def _output_key(node):
    """The name get_internals().list_outputs() gives a node's (last) output."""
    if node["op"] == "null":
        return node["name"]
    key = node["name"] + "_output"
    n = node.get("attrs", {}).get("num_outputs")
    if n is not None:
        key += str(int(n) - 1)
    return key


def _internal_dict(symbol, what, given):
    internals = symbol.get_internals()
    if what == "shape":
        _, values, _ = internals.infer_shape(**given)
        if values is None:
            raise ValueError("Input shape is incomplete")
    else:
        _, values, _ = internals.infer_type(**given)
        if values is None:
            raise ValueError("Input type is incomplete")
    return dict(zip(internals.list_outputs(), values))


class _Row:
    """Fixed-width columns: each field is cut at its column's end and padded to it."""

    def __init__(self, ends):
        self.ends = ends

    def __call__(self, fields):
        line = ""
        for end, field in zip(self.ends, fields):
            line = (line + str(field))[:end]
            line += " " * (end - len(line))
        print(line)


def print_summary(symbol, shape=None, line_length=120, positions=(.44, .64, .74, 1.)):
    """Print one row per layer of ``symbol``: name and operator, output shape (when the
    input ``shape`` dict is given), parameter count and the layers it reads; then the
    total parameter count.

    ``positions`` are the right edges of the four columns, as fractions of
    ``line_length`` when the last one is at most 1, else in characters.
    """
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be Symbol")
    shapes = _internal_dict(symbol, "shape", shape) if shape is not None else None
    conf = json.loads(symbol.tojson())
    nodes = conf["nodes"]
    first_head = set(conf["heads"][0])
    positions = list(positions)
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    row = _Row(positions)

    def shown(node, idx):
        """Whether a node counts as a layer others are said to read from."""
        return node["op"] != "null" or idx in first_head

    def out_shape(node):
        if shapes is None:
            return []
        key = node["name"] if node["op"] == "null" else node["name"] + "_output"
        s = shapes.get(key)
        return list(s[1:]) if s is not None else []

    def params_of(node, channels):
        op, attrs = node["op"], node.get("attrs", {})
        if op == "Convolution":
            count = channels * int(attrs["num_filter"]) // int(attrs.get("num_group", "1"))
            for k in _tuple_str(attrs["kernel"]):
                count *= int(k)
            if attrs.get("no_bias") != "True":
                count += int(attrs["num_filter"])
            return count
        if op == "FullyConnected":
            bias = 0 if attrs.get("no_bias") == "True" else 1
            return (channels + bias) * int(attrs["num_hidden"])
        if op == "BatchNorm":
            if shapes is None:
                return 0
            return int(shapes[node["name"] + "_output"][1]) * 2
        if op == "Embedding":
            return int(attrs["input_dim"]) * int(attrs["output_dim"])
        return 0

    print("_" * line_length)
    row(["Layer (type)", "Output Shape", "Param #", "Previous Layer"])
    print("=" * line_length)
    total = 0
    for i, node in enumerate(nodes):
        if node["op"] == "null" and i > 0:
            continue
        prev, channels = [], 0
        if node["op"] != "null":
            for src, _, *_ in node["inputs"]:
                inp = nodes[src]
                if not shown(inp, src):
                    continue
                prev.append(inp["name"])
                if shapes is not None:
                    key = inp["name"] if inp["op"] == "null" else inp["name"] + "_output"
                    if key in shapes:
                        channels += int(shapes[key][1])
        count = params_of(node, channels)
        total += count
        oshape = out_shape(node) if shown(node, i) else []
        row([f"{node['name']}({node['op']})", _dims(oshape), count, prev[0] if prev else ""])
        for name in prev[1:]:
            row(["", "", "", name])
        print(("=" if i == len(nodes) - 1 else "_") * line_length)
    print(f"Total params: {total}")
    print("_" * line_length)


class _GraphvizMissing(MXNetError, ImportError):
    """plot_network needs the graphviz package."""


def plot_network(symbol, title="plot", save_format="pdf", shape=None, dtype=None,
                 node_attrs=None, hide_weights=True):
    """Draw ``symbol`` as a ``graphviz.Digraph`` (render or view it with graphviz).

    One box per operator, labelled with its key parameters, one oval per input
    variable; with ``hide_weights`` parameters and auxiliary states are left out.
    Edges point from a layer back to its inputs and, given input ``shape``s or
    ``dtype``s (dicts by input name), are labelled with what flows along them.
    ``node_attrs`` overrides the default Graphviz node attributes.
    """
    try:
        from graphviz import Digraph
    except ImportError:
        raise _GraphvizMissing("plot_network needs the graphviz Python package "
                               "(pip install graphviz) to draw the network") from None
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be a Symbol")
    shapes = _internal_dict(symbol, "shape", shape) if shape is not None else None
    types = _internal_dict(symbol, "type", dtype) if dtype is not None else None
    conf = json.loads(symbol.tojson())
    nodes = conf["nodes"]
    base_attr = {"shape": "box", "fixedsize": "true", "width": "1.3", "height": "0.8034",
                 "style": "filled"}
    base_attr.update(node_attrs or {})
    dot = Digraph(name=title, format=save_format)
    hidden = set()
    for node in nodes:
        op, name = node["op"], node["name"]
        attrs = node.get("attrs", {})
        attr = dict(base_attr)
        label = name
        if op == "null":
            if name.endswith(_WEIGHT_SUFFIXES):
                if hide_weights:
                    hidden.add(name)
                continue   # not drawn as a box; shown (if at all) as a bare edge end
            attr["shape"] = "oval"
            color = _PALETTE[0]
        elif op == "Convolution":
            stride = "x".join(_tuple_str(attrs["stride"])) if "stride" in attrs else "1"
            label = (f"Convolution\n{'x'.join(_tuple_str(attrs['kernel']))}/{stride}, "
                     f"{attrs['num_filter']}")
            color = _PALETTE[1]
        elif op == "FullyConnected":
            label = f"FullyConnected\n{attrs['num_hidden']}"
            color = _PALETTE[1]
        elif op == "BatchNorm":
            color = _PALETTE[3]
        elif op in ("Activation", "LeakyReLU"):
            label = f"{op}\n{attrs.get('act_type')}"
            color = _PALETTE[2]
        elif op == "Pooling":
            stride = "x".join(_tuple_str(attrs["stride"])) if "stride" in attrs else "1"
            label = (f"Pooling\n{attrs.get('pool_type')}, "
                     f"{'x'.join(_tuple_str(attrs['kernel']))}/{stride}")
            color = _PALETTE[4]
        elif op in ("Concat", "Flatten", "Reshape"):
            color = _PALETTE[5]
        elif op == "Softmax":
            color = _PALETTE[6]
        else:
            color = _PALETTE[7]
            if op == "Custom":
                label = attrs["op_type"]
        attr["fillcolor"] = color
        dot.node(name=name, label=label, **attr)
    for node in nodes:
        if node["op"] == "null":
            continue
        inputs = node["inputs"]
        if node["op"] == "_contrib_BilinearResize2D":
            inputs = inputs[:1]
        for src, *_ in inputs:
            inp = nodes[src]
            if inp["name"] in hidden:
                continue
            attr = {"dir": "back", "arrowtail": "open", "label": ""}
            key = _output_key(inp)
            if shapes is not None:
                attr["label"] = _dims(shapes[key][1:])
            if types is not None:
                attr["label"] += "(" + types[key].__name__ + ")"
            dot.edge(tail_name=node["name"], head_name=inp["name"], **attr)
    return dot
