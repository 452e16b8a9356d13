"""The graph pass behind ``amp.convert_symbol``: insert amp_cast / amp_multicast nodes.

The pass walks the graph once, inputs before users, copying each node. It tracks which
output entries are known to be in the low-precision target type (``low``) and which are
known to be float32 (``wide``), and routes each operator's inputs as its list demands:

- float32 ops (and excluded nodes): every input that is not known float32 and is not a
  variable (variables are taken to be float32 already) gets an ``amp_cast`` to float32;
- target-precision ops: the op's own type rule, run with input 0 in the target type,
  says which inputs want the target type (BatchNorm's gamma, for one, stays float32); those
  not already in it get an ``amp_cast`` (with ``cast_optional_params`` the parameters are
  left for the caller to store in the target type instead);
- widest-type ops: when every input's precision is known, the narrow ones are cast up to
  float32 if any is float32 (else everything runs in the target type); otherwise a single
  ``amp_multicast`` decides at run time;
- conditionally-float32 ops behave as float32 ops when one of their parameters has one of
  the listed values;
- anything else is copied, and its output precision inferred from input 0's when known.

Every graph output that is not known float32 finally gets an ``amp_cast`` to float32.
Cast nodes are named ``<producer>[_<output name or index>]_amp_cast_<dtype>``, as 1.9.1
names them; a cast is shared by every consumer of the same entry.
"""
from __future__ import annotations

import numpy as np

from ...base import dtype_name, dtype_np
from ...executor.infer import _default_type
from ...operator.registry import get_op
from ...symbol.graph import Node, topo_order
from .lists.output_names import NAMED_OUTPUTS

_F32 = np.dtype(np.float32)


def _key(entry, version):
    node, index = entry
    return (id(node), index, version)


class _Pass:
    def __init__(self, target, target_ops, fp32_ops, widest_ops, conditional, excluded,
                 data_names, cast_optional):
        self.target = target
        self.target_str = dtype_name(target)
        self.target_ops = set(target_ops)
        self.fp32_ops = set(fp32_ops)
        self.widest_ops = set(widest_ops)
        self.conditional = conditional
        self.excluded = set(excluded)
        self.data_names = set(data_names)
        self.cast_optional = cast_optional
        self.mirror = {}       # id(original node) -> copied node
        self.wide = {}         # entry key -> (new node, index, version) known float32
        self.low = {}          # entry key -> (new node, index, version) known target type
        self._keep = []        # keeps original nodes alive so their ids stay unique

    # -- helpers -------------------------------------------------------------------------------
    def _suffix(self, node, index):
        if self.mirror[id(node)].op is None:
            return ""
        if node.op.name in NAMED_OUTPUTS:
            names = node.op.list_output_names(node.parsed)
            if index < len(names):
                return "_" + names[index]
        return f"_{index}"

    def _mirror_entry(self, node, index, version):
        return (self.mirror[id(node)], index, version)

    def _cast(self, node, index, version, dtype_str, table, consumer):
        """A new amp_cast of the mirrored entry; recorded in ``table`` and fed to consumer."""
        op = get_op("amp_cast")
        name = f"{node.name}{self._suffix(node, index)}_amp_cast_{dtype_str}"
        cast = Node(op, name, {"dtype": dtype_str}, op.parse_attrs({"dtype": dtype_str}),
                    inputs=[(self.mirror[id(node)], index)], versions=[version])
        table[_key((node, index), version)] = (cast, 0, version)
        if consumer is not None:
            _append(consumer, (cast, 0, version))
        return cast

    def _multicast(self, node, new_node):
        op = get_op("amp_multicast")
        n = len(node.inputs)
        first, idx0 = node.inputs[0]
        name = f"{first.name}{self._suffix(first, idx0)}_amp_multicast"
        attrs = {"num_outputs": str(n)}
        mc = Node(op, name, attrs, op.parse_attrs(attrs),
                  inputs=[(self.mirror[id(s)], i) for s, i in node.inputs],
                  versions=list(node.versions))
        for i in range(n):
            _append(new_node, (mc, i, node.versions[i]))

    def _infer_types(self, node, in0):
        """The op's type rule run with input 0 in ``in0``: (input types, output types)."""
        nargs = node.num_args()
        ins = [None] * len(node.inputs)
        if ins:
            ins[0] = in0
        outs = [None] * node.num_outputs()
        rule = node.op.infer_type or _default_type
        res = rule(node.parsed, ins[:nargs], outs)
        new_ins = list(res[0])
        aux = list(res[2]) if len(res) > 2 and res[2] else []
        if len(new_ins) == nargs and len(node.inputs) > nargs:
            new_ins += aux or [None] * (len(node.inputs) - nargs)
        new_ins = [None if t is None else np.dtype(t) for t in new_ins]
        new_outs = [None if t is None else np.dtype(t) for t in res[1]]
        return new_ins + [None] * (len(node.inputs) - len(new_ins)), new_outs

    def _record_outputs(self, node, new_node, out_types):
        for i, t in enumerate(out_types[:node.num_outputs()]):
            if t is None:
                continue
            if t == self.target:
                self.low[_key((node, i), 0)] = (new_node, i, 0)
            elif t == _F32:
                self.wide[_key((node, i), 0)] = (new_node, i, 0)

    def _is_conditional_fp32(self, node):
        if node.op is None or node.name in self.excluded:
            return False
        params = self.conditional.get(node.op.name)
        if not params:
            return False
        return any(node.attrs.get(p) in vals for p, vals in params.items() if p in node.attrs)

    # -- the walk ------------------------------------------------------------------------------
    def visit(self, node):
        self._keep.append(node)
        new_node = Node(node.op, node.name, dict(node.attrs), node.parsed)
        new_node.version = node.version
        opname = None if node.op is None else node.op.name
        mutable = set(range(node.num_args(), len(node.inputs))) if node.op is not None else set()
        entries = list(zip(node.inputs, node.versions))
        if (opname is not None and opname in self.fp32_ops) or node.name in self.excluded:
            self._to_wide(node, new_node, entries, mutable, cast_vars=False)
        elif opname is not None and opname in self.target_ops:
            in_types, out_types = self._infer_types(node, self.target)
            self._record_outputs(node, new_node, out_types)
            for i, ((src, idx), ver) in enumerate(entries):
                k = _key((src, idx), ver)
                if k in self.low:
                    _append(new_node, self.low[k])
                elif ((self.cast_optional and src.op is None and src.name not in self.data_names)
                      or i in mutable
                      or not (in_types[i] is None or in_types[i] == self.target)):
                    entry = self._mirror_entry(src, idx, ver)
                    _append(new_node, entry)
                    if self.cast_optional and src.op is None:
                        self.low[k] = entry
                else:
                    self._cast(src, idx, ver, self.target_str, self.low, new_node)
        elif opname is not None and opname in self.widest_ops:
            self._widest(node, new_node, entries)
        elif self._is_conditional_fp32(node):
            self._to_wide(node, new_node, entries, mutable, cast_vars=True)
        else:
            if node.inputs:
                k0 = _key(node.inputs[0], node.versions[0])
                if k0 in self.low or k0 in self.wide:
                    in0 = self.target if k0 in self.low else _F32
                    try:
                        _, out_types = self._infer_types(node, in0)
                    except Exception:  # noqa: BLE001 - a failed rule leaves the outputs unknown
                        out_types = []
                    self._record_outputs(node, new_node, out_types)
            for (src, idx), ver in entries:
                _append(new_node, self._mirror_entry(src, idx, ver))
        self.mirror[id(node)] = new_node

    def _to_wide(self, node, new_node, entries, mutable, cast_vars):
        for i in range(node.num_outputs()):
            self.wide[_key((node, i), 0)] = (new_node, i, 0)
        for i, ((src, idx), ver) in enumerate(entries):
            k = _key((src, idx), ver)
            if k in self.wide:
                _append(new_node, self.wide[k])
            elif (src.op is None and not cast_vars) or i in mutable:
                _append(new_node, self._mirror_entry(src, idx, ver))
            else:
                self._cast(src, idx, ver, "float32", self.wide, new_node)

    def _widest(self, node, new_node, entries):
        if not node.inputs:
            from ...base import MXNetError
            raise MXNetError(f"amp.convert_symbol: node {node.name} ({node.op.name}) has no "
                             "inputs; the symbol is malformed")
        out_low = True
        for (src, idx), ver in entries:
            k = _key((src, idx), ver)
            if k not in self.low and k not in self.wide:
                self._multicast(node, new_node)
                return
            if k in self.wide:
                out_low = False
        table = self.low if out_low else self.wide
        for i in range(node.num_outputs()):
            table[_key((node, i), 0)] = (new_node, i, 0)
        dtype_str = self.target_str if out_low else "float32"
        for (src, idx), ver in entries:
            k = _key((src, idx), ver)
            if k in table:
                _append(new_node, table[k])
            else:
                self._cast(src, idx, ver, dtype_str, table, new_node)

    def run(self, heads):
        for node in topo_order(heads):
            self.visit(node)
        outputs = []
        for node, idx in heads:
            k = _key((node, idx), 0)
            if k not in self.wide:
                self._cast(node, idx, 0, "float32", self.wide, None)
            new, i, _ = self.wide[k]
            outputs.append((new, i))
        return outputs


def _append(node, entry):
    src, idx, ver = entry
    node.inputs.append((src, idx))
    node.versions.append(ver)


def reduce_precision(heads, target, target_ops, fp32_ops, widest_ops, conditional, excluded,
                     data_names, cast_optional):
    """The converted graph's heads ((node, index) pairs) for the original ``heads``."""
    p = _Pass(dtype_np(target), target_ops, fp32_ops, widest_ops, conditional, excluded,
              data_names, cast_optional)
    return p.run(heads)
