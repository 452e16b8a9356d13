"""Symbol: a declarative graph of registered operators.

Symbols are composed from the same operator definitions as ``mx.nd``. ``infer_shape``
and ``infer_type`` run the registry's inference rules over the graph, ``tojson`` writes
1.9.1's ``-symbol.json`` text, and ``bind``/``simple_bind`` build an Executor.

How 1.9.1 stores attributes, which this module reproduces:

- an operator node keeps the parameters the user passed, as ``str(value)`` (dtypes by
  name), plus hidden ``__x__`` attributes; ``lr_mult=...`` and the other names in
  :data:`HIDDEN_KEYS` are stored as ``__lr_mult__`` and listed under both spellings;
- variables that an operator creates for its missing inputs (``fc1_weight``) start with
  a copy of the operator's attributes;
- ``AttrScope`` attributes join every node created inside the scope.
"""
from __future__ import annotations

import numbers
import operator
import warnings
import weakref

import numpy as np

from ..attribute import AttrScope
from ..base import (MXNetAssertionError, MXNetError, MXNetKeyError, NotImplementedForSymbol,
                   dtype_code, dtype_np)
from ..name import NameManager
from ..operator.registry import get_op
from .graph import (HIDDEN_KEYS, SUBGRAPHS_KEY, Node, aux_var_ids, copy_graph, is_hidden_key,
                    topo_order, without_amp_casts)

__all__ = ["Symbol", "var", "Variable", "Group", "NotImplementedForSymbol", "create_node"]


# ------------------------------------------------------------------------------------------
# attributes

def _attr_key(key, value):
    """The stored key of a user attribute: ``lr_mult`` -> ``__lr_mult__``.

    Keys that merely end in a hidden name (``weight_lr_mult``) were the pre-1.0 way to
    set variable attributes through an operator; 1.9.1 rejects them.
    """
    for k in HIDDEN_KEYS:
        if key == k:
            return f"__{k}__"
        if key.endswith(k) and not is_hidden_key(key):
            raise MXNetError(f"setting variable attributes with {key} is deprecated. please "
                             f"instead use\nw = Variable({k}={value})\nsym = YourSymbolName("
                             f"{key[:len(key) - len(k) - 1]}=w)")
    return key


def _value_str(key, value):
    """How 1.9.1's generated functions print a parameter value: ``str``, dtypes by name."""
    if key == "dtype":
        dt = np.dtype(value) if not isinstance(value, np.dtype) else value
        return dt.names[0] if dt.names else dt.name
    return str(value)


def _parse_node_attrs(op, attrs, name, lenient=False):
    """The registry's parsed parameters from a node's string attributes.

    With ``lenient`` (loading files), parameters the registry does not know are kept in
    the attributes but left out of parsing, with a warning, instead of failing.
    """
    if op.params:
        user = {k: v for k, v in attrs.items() if not is_hidden_key(k)}
        unknown = [k for k in user if k not in op.params]
        if lenient and unknown and not getattr(op, "any_params", False):
            warnings.warn(f"{op.name} node {name!r}: ignoring parameters {unknown} that this "
                          "implementation does not know", stacklevel=3)
            user = {k: v for k, v in user.items() if k in op.params}
    else:  # operators without a parameter schema accept (and ignore) any attribute
        user = {}
    try:
        return op.parse_attrs(user)
    except MXNetError as e:
        shown = ", ".join(f'{k}="{v}"' for k, v in attrs.items())
        raise MXNetError(f"{e}, in operator {op.name}(name=\"{name}\"{', ' if shown else ''}"
                         f"{shown})") from None


# 1.9.1 keeps a node's attributes in a C++ hash map (libstdc++'s unordered_map: 11 buckets,
# then the next prime >= twice as many whenever it fills up) and reports them in that map's
# iteration order. The order depends on the insertion history, which _ATTR_HISTORY keeps for
# the nodes made by create_node: (order copied from another node, its bucket count, the keys
# inserted first). Keys not named there were inserted later, in the dict's order.
_ATTR_HISTORY = weakref.WeakKeyDictionary()


def _attr_hash_order(node):
    """(the keys of ``node.attrs`` in 1.9.1's iteration order, that map's bucket count)."""
    from ..ndarray._fallback_log import _str_hash
    start, nb, first = _ATTR_HISTORY.get(node, ((), 11, ()))
    out = [k for k in start if k in node.attrs]
    seen = set(out)

    def place(key):
        b = _str_hash(key) % nb
        at = next((i for i, x in enumerate(out) if _str_hash(x) % nb == b), 0)
        out.insert(at, key)

    for k in list(first) + list(node.attrs):
        if k in seen or k not in node.attrs:
            continue
        seen.add(k)
        if len(out) + 1 > nb:  # full: rehash into more buckets, re-placing in current order
            nb *= 2
            while any(nb % d == 0 for d in range(2, int(nb ** 0.5) + 1)):
                nb += 1
            old, out[:] = list(out), []
            for x in old:
                place(x)
        place(k)
    return out, nb


def _copy_graph_keeping_order(heads):
    """copy_graph, the copies keeping their attribute maps' 1.9.1 order (a C++ map copy)."""
    new = copy_graph(heads)
    for a, b in zip(topo_order(heads), topo_order(new)):
        if a in _ATTR_HISTORY:
            _ATTR_HISTORY[b] = _attr_hash_order(a) + ((),)
    return new


def _listed_attrs(node):
    """A node's attributes as list_attr shows them: hidden keys also without underscores."""
    out = {}
    for k in _attr_hash_order(node)[0]:
        v = node.attrs[k]
        out[k] = v
        if is_hidden_key(k) and k[2:-2] in HIDDEN_KEYS:
            out[k[2:-2]] = v
    return out


# ------------------------------------------------------------------------------------------
# the Symbol

# the subgraph backends a CPU build of 1.9.1 registers (ours leave the graph unchanged)
_SUBGRAPH_BACKENDS = frozenset(("MKLDNN", "MKLDNN_QUANTIZE"))


def _is_number(x):
    if isinstance(x, (bool, np.bool_)):
        # str(True) is not a number to 1.9.1's scalar parameter parser
        raise MXNetError(f"Invalid Parameter format for scalar expect double but value='{x}'")
    return isinstance(x, numbers.Number)


def _print_infer_arguments(what, args, kwargs):
    """1.9.1 prints the arguments a failed inference was given to stdout before re-raising."""
    print(f"{what} error. Arguments:")
    for i, arg in enumerate(args):
        print(f"  #{i}: {arg}")
    for k, v in kwargs.items():
        print(f"  {k}: {v}")


class Symbol:
    """A list of graph outputs, each a (node, output index) pair."""

    __slots__ = ("_outputs", "__weakref__")
    __array_priority__ = 1000.0

    def __init__(self, outputs):
        # Symbol(None) is an empty symbol, as unpickling 1.9.1's pickles creates it
        self._outputs = [] if outputs is None else list(outputs)

    # -- identity ---------------------------------------------------------------------------
    def _single_node(self):
        """The node behind every output, or None when outputs come from several nodes."""
        if not self._outputs:
            return None
        node = self._outputs[0][0]
        for n, _ in self._outputs:
            if n is not node:
                return None
        return node

    @property
    def name(self):
        """The name of the node behind the outputs (None for a group of several nodes)."""
        node = self._single_node()
        return None if node is None else node.name

    def __repr__(self):
        name = self.name
        if name is None:
            return f"<{type(self).__name__} group [{', '.join(s.name for s in self)}]>"
        return f"<{type(self).__name__} {name}>"

    def __len__(self):
        return len(self._outputs)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index):
        count = len(self._outputs)
        if isinstance(index, slice):
            start = 0 if index.start is None else index.start
            stop = count if index.stop is None else index.stop
            step = 1 if index.step is None else index.step
            return Group([self[i] for i in range(start, stop, step)])
        if isinstance(index, str):
            idx = None
            for i, nm in enumerate(self.list_outputs()):
                if nm == index:
                    if idx is not None:
                        raise ValueError(f'There are multiple outputs with name "{index}"')
                    idx = i
            if idx is None:
                raise ValueError(f'Cannot find output that matches name "{index}"')
            index = idx
        if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
            raise TypeError("Symbol only support integer index to fetch i-th output")
        index = int(index)
        if index >= count:
            raise IndexError(f"Symbol output index {index} out of range ({count} outputs)")
        if index < 0:
            raise MXNetError(f"Symbol output index {index} is negative")
        return Symbol([self._outputs[index]])

    def __bool__(self):
        raise NotImplementedForSymbol(self.__bool__, "bool")

    __nonzero__ = __bool__

    def __hash__(self):
        return id(self)

    # -- copying and pickling ---------------------------------------------------------------
    def __copy__(self):
        return self.__deepcopy__(None)

    def __deepcopy__(self, _memo):
        return Symbol(_copy_graph_keeping_order(self._outputs))

    def _deep_copy(self):
        return Symbol(_copy_graph_keeping_order(self._outputs))

    def __getstate__(self):
        return {"handle": self.tojson()}

    def __setstate__(self, state):
        from .json_io import load_json
        handle = state.get("handle") if isinstance(state, dict) else None
        self._outputs = [] if handle is None else load_json(handle)._outputs

    def __reduce__(self):
        # 1.9.1's pickle layout, so that pickles load in either implementation
        return (Symbol, (None,), self.__getstate__())   # 1.9.1: NumPy symbols come back plain

    # -- listing ------------------------------------------------------------------------------
    def _order(self):
        return topo_order(self._outputs)

    def list_arguments(self):
        """Names of the argument variables (inputs and parameters), in graph order."""
        order = self._order()
        aux = aux_var_ids(order)
        return [n.name for n in order if n.op is None and id(n) not in aux]

    def list_auxiliary_states(self):
        """Names of the auxiliary-state variables (e.g. BatchNorm's moving statistics)."""
        order = self._order()
        aux = aux_var_ids(order)
        return [n.name for n in order if n.op is None and id(n) in aux]

    def list_inputs(self):
        """Every variable name, arguments and auxiliary states, in graph order."""
        return [n.name for n in self._order() if n.op is None]

    def list_outputs(self):
        """Output names (``name_output``, or the variable name)."""
        out = []
        for node, i in self._outputs:
            names = node.output_names()
            out.append(names[i] if i < len(names) else f"{node.name}_output{i}")
        return out

    def get_internals(self):
        """A group of every visible output of every node in the graph."""
        outs = []
        for node in self._order():
            outs.extend((node, i) for i in range(node.num_visible_outputs()))
        return Symbol(outs)

    def get_children(self):
        """The inputs of this symbol's node(s) as a group, or None when there are none."""
        ins, seen = [], set()
        for node, _ in self._outputs:
            if id(node) in seen:
                continue
            seen.add(id(node))
            ins.extend(node.inputs)
        return Symbol(ins) if ins else None

    # -- attributes ---------------------------------------------------------------------------
    def attr(self, key):
        """One attribute of the node behind this symbol, or None.

        ``name``, ``op_name`` and ``_value_index`` are answered specially; ``lr_mult``
        and the other hidden names also find ``__lr_mult__``.
        """
        node = self._single_node()
        if node is None:
            return None
        if key == "name":
            return node.name
        if key == "op_name":
            return "null" if node.op is None else node.op.name
        if key == "_value_index":
            return ", ".join(str(i) for _, i in self._outputs)
        if key in node.attrs:
            return node.attrs[key]
        if key in HIDDEN_KEYS:
            return node.attrs.get(f"__{key}__")
        return None

    def list_attr(self, recursive=False):
        """The first output node's attributes (hidden ones under both spellings)."""
        if recursive:
            raise DeprecationWarning("Symbol.list_attr with recursive=True has been deprecated. "
                                     "Please use attr_dict instead.")
        if not self._outputs:
            return {}
        return _listed_attrs(self._outputs[0][0])

    def attr_dict(self):
        """{node name: {attribute: value}} over the whole graph (nodes that have any)."""
        res = {}
        for node in self._order():
            if node.attrs:
                res.setdefault(node.name, {}).update(_listed_attrs(node))
        return res

    def _set_attr(self, **kwargs):
        """Set string attributes on the node behind this (non-grouped) symbol.

        ``name`` renames the node; operator parameters are re-parsed.
        """
        node = self._single_node()
        for key, value in kwargs.items():
            if not isinstance(value, str):
                raise ValueError("Set Attr only accepts string values")
            if node is None:
                raise MXNetError("Symbol.SetAttrs only works for non-grouped symbol")
            skey = _attr_key(key, value)
            if skey == "name":
                node.name = value
            else:
                node.attrs[skey] = value
        if node is not None and node.op is not None and kwargs:
            held = node.parsed.get(SUBGRAPHS_KEY)
            node.parsed = _parse_node_attrs(node.op, node.attrs, node.name)
            if held is not None:
                node.parsed = dict(node.parsed, **{SUBGRAPHS_KEY: held})

    # -- composition ----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        """A copy with variables replaced by symbols given by name (see ``_compose``)."""
        s = self.__copy__()
        s._compose(*args, **kwargs)
        return s

    def _compose(self, *args, **kwargs):
        """Replace (in place) the variables named by ``kwargs`` with the given symbols.

        As in 1.9.1, a composed graph takes keyword arguments only; ``name`` renames
        the head node.
        """
        name = kwargs.pop("name", None)
        if args and kwargs:
            raise TypeError("compose only accept input Symbols either as positional or keyword "
                            "arguments, not both")
        for a in list(args) + list(kwargs.values()):
            if not isinstance(a, Symbol):
                raise TypeError("Compose expect `Symbol` as arguments")
        for k, v in kwargs.items():
            if len(v._outputs) != 1:
                raise MXNetError(f"Keyword Argument {k} is a tuple, scalar is required")
        if name and self._outputs:
            self._outputs[0][0].name = name
        if args:
            raise MXNetError("General composition only supports kwargs for now: positional "
                             f"arguments given to compose the graph of {self.name}")
        if not kwargs:
            return
        order = self._order()
        variables = [n for n in order if n.op is None]
        matched = {n.name for n in variables if n.name in kwargs}
        if len(matched) != len(kwargs):
            unknown = sorted(set(kwargs) - matched)
            raise MXNetError(f"Symbol.Compose: keyword arguments {unknown} do not name an input; "
                             f"inputs are {[n.name for n in variables]}")
        repl = {id(n): kwargs[n.name]._outputs[0] for n in variables if n.name in kwargs}
        for node in order:
            if node.op is None:
                continue
            changed = False
            for i, (src, _) in enumerate(node.inputs):
                if id(src) in repl:
                    node.inputs[i] = repl[id(src)]
                    changed = True
            if changed:
                _update_versions(node)
        self._outputs = [repl.get(id(n), (n, i)) if n.op is None else (n, i)
                         for n, i in self._outputs]

    # -- inference --------------------------------------------------------------------------------
    def infer_shape(self, *args, **kwargs):
        """(arg_shapes, out_shapes, aux_shapes) from known shapes; Nones when incomplete."""
        try:
            res = self._infer_shape_impl(False, *args, **kwargs)
        except MXNetError:
            _print_infer_arguments("infer_shape", args, kwargs)
            raise
        if res[1] is None:
            arg_shapes, _, _ = self._infer_shape_impl(True, *args, **kwargs)
            unknowns = []
            from ..util import is_np_shape
            unknown_dim = -1 if is_np_shape() else 0
            for name, shape in zip(self.list_arguments(), arg_shapes):
                if shape is None or (not shape and not unknown_dim) or unknown_dim in shape:
                    if len(unknowns) >= 10:
                        unknowns.append("...")
                        break
                    unknowns.append(f"{name}: {shape}")
            warnings.warn("Cannot decide shape for the following arguments (0s in shape means "
                          "unknown dimensions). Consider providing them as input:\n\t"
                          + "\n\t".join(unknowns), stacklevel=2)
        return res

    def infer_shape_partial(self, *args, **kwargs):
        """Like infer_shape, but unknown shapes come back as ``()`` (unknown dims as 0)."""
        return self._infer_shape_impl(True, *args, **kwargs)

    def _known(self, what, args, kwargs):
        if args and kwargs:
            raise ValueError(f"Can only specify known argument {what}s either by positional or "
                             "kwargs way.")
        known = {}
        if args:
            names = self.list_arguments()
            for i, v in enumerate(args):
                if v is None:
                    continue
                if what == "shape" and not isinstance(v, tuple):
                    raise TypeError(f"Arguments need to be shapes (tuple), but argument {i} is "
                                    f"{type(v)}.")
                if i >= len(names):
                    raise MXNetError(f"infer_{what}: {len(args)} positional values given for "
                                     f"{len(names)} arguments {names}")
                known[names[i]] = v
        else:
            inputs = None
            for k, v in kwargs.items():
                if what == "shape" and not isinstance(v, tuple):
                    raise TypeError(f"Arguments need to be shapes (tuple), but '{k}' is {type(v)}.")
                if inputs is None:
                    inputs = set(self.list_inputs())
                if k not in inputs:
                    raise MXNetError(f"infer_{what}: {k!r} is not an input of the symbol; inputs "
                                     f"are {self.list_inputs()}")
                known[k] = v
        return known

    def _infer_shape_impl(self, partial, *args, **kwargs):
        from ..executor.infer import infer_shapes
        known = self._known("shape", args, kwargs)
        # integers only (a float dimension is a TypeError in 1.9.1, not truncated)
        shapes = {k: tuple(operator.index(d) for d in v) for k, v in known.items()}
        for k, v in shapes.items():
            if any(d < -1 for d in v):
                raise MXNetError(f"infer_shape: shape dim size must be >= -1, while received "
                                 f"{min(v)} (argument {k}: {v})")
        res = infer_shapes(self, shapes)
        if not res.complete and not partial:
            return None, None, None
        return res.arg_shapes, res.out_shapes, res.aux_shapes

    def infer_type(self, *args, **kwargs):
        """(arg_types, out_types, aux_types) as NumPy types, from known argument types."""
        try:
            res = self._infer_type_impl(False, *args, **kwargs)
        except MXNetError as e:
            if not isinstance(e, TypeError):  # 1.9.1 rejects a bad dtype name before printing
                _print_infer_arguments("infer_type", args, kwargs)
            raise
        if res[1] is None:
            arg_types, _, _ = self._infer_type_impl(True, *args, **kwargs)
            unknowns = [f"{n}: {t}" for n, t in zip(self.list_arguments(), arg_types) if not t]
            if len(unknowns) > 10:
                unknowns = unknowns[:10] + ["..."]
            warnings.warn("Cannot decide type for the following arguments. Consider providing "
                          "them as input:\n\t" + "\n\t".join(unknowns), stacklevel=2)
        return res

    def infer_type_partial(self, *args, **kwargs):
        """Like infer_type, but unknown types come back as None."""
        return self._infer_type_impl(True, *args, **kwargs)

    def _infer_type_impl(self, partial, *args, **kwargs):
        from ..executor.infer import infer_types
        known = self._known("type", args, kwargs)
        types = {}
        for k, v in known.items():
            dt = dtype_np(v)
            try:
                dtype_code(dt)
            except MXNetError:
                if args:
                    raise TypeError(f"Argument need to be one of the MXNet dtypes, got {v!r}") \
                        from None
                continue
            types[k] = dt
        res = infer_types(self, types)
        if not res.complete and not partial:
            return None, None, None
        return res.arg_types, res.out_types, res.aux_types

    # -- serialisation ----------------------------------------------------------------------------
    def tojson(self, remove_amp_cast=True):
        """The graph in 1.9.1's -symbol.json text; by default without the ``amp_cast`` /
        ``amp_multicast`` nodes mixed precision inserted, as 1.9.1 writes it."""
        from .json_io import symbol_to_json
        sym = self
        if remove_amp_cast:
            heads = without_amp_casts(self._outputs)
            if heads is not self._outputs:
                sym = Symbol(heads)
        return symbol_to_json(sym)

    def save(self, fname, remove_amp_cast=True):
        """Write ``tojson(remove_amp_cast)`` to ``fname`` (atomically)."""
        if not isinstance(fname, str):
            raise TypeError("fname need to be string")
        from ..ndarray.serialization import write_file_atomic
        try:
            write_file_atomic(fname, self.tojson(remove_amp_cast).encode("utf-8"))
        except OSError as err:  # an MXNetError in 1.9.1, naming the file (not our temporary)
            raise MXNetError(f"Symbol.save: cannot write {fname!r}: {err.strerror or err}") \
                from err

    def debug_str(self):
        """A readable listing of the graph: outputs, variables, and each operator."""
        if len(self._outputs) == 1 and self._outputs[0][0].op is None:
            return f"Variable:{self._outputs[0][0].name}\n"
        head = self._outputs[0][0] if len(self._outputs) == 1 else None
        if head is not None and not head.inputs:   # an operator without inputs (mx.sym.zeros)
            return f"AtomicFunctor  Op:{head.op.name}\n"
        order = self._order()
        lines = ["Symbol Outputs:"]
        for i, (n, k) in enumerate(self._outputs):
            lines.append(f"\toutput[{i}]={n.name}({k})")
        for n in order:
            if n.op is None:
                lines.append(f"Variable:{n.name}")
                continue
            lines.append("--------------------")
            lines.append(f"Op:{n.op.name}, Name={n.name}")
            lines.append("Inputs:")
            for j, ((s, k), v) in enumerate(zip(n.inputs, n.versions)):
                extra = f" version={v}" if s.op is None else ""
                lines.append(f"\targ[{j}]={s.name}({k}){extra}")
            if n.attrs:
                lines.append("Attrs:")
                for key in sorted(n.attrs):
                    lines.append(f"\t{key}={n.attrs[key]}")
        return "\n".join(lines) + "\n"

    # -- running ------------------------------------------------------------------------------------
    def bind(self, ctx, args, args_grad=None, grad_req="write", aux_states=None, group2ctx=None,
             shared_exec=None):
        """An Executor over given argument arrays (list in list_arguments order, or dict)."""
        from ..executor.executor import Executor, check_bind_contexts, subgraph_log
        check_bind_contexts(ctx, args, args_grad, group2ctx)
        ex = Executor(self, ctx, args, args_grad, grad_req, aux_states, group2ctx, shared_exec)
        subgraph_log(ctx, 2072)
        return ex

    def simple_bind(self, ctx, grad_req="write", type_dict=None, stype_dict=None, group2ctx=None,
                    shared_arg_names=None, shared_exec=None, shared_buffer=None, **kwargs):
        """Allocate every array from the shapes in ``kwargs`` and bind."""
        from ..executor.executor import simple_bind
        return simple_bind(self, ctx, grad_req=grad_req, type_dict=type_dict,
                           group2ctx=group2ctx, shared_arg_names=shared_arg_names,
                           shared_exec=shared_exec, shared_buffer=shared_buffer, shapes=kwargs,
                           stype_dict=stype_dict)

    def eval(self, ctx=None, **kwargs):
        """Bind the given NDArrays, run forward once, return the outputs (a list)."""
        from ..context import current_context
        if ctx is None:
            ctx = current_context()
        return self.bind(ctx, kwargs).forward()

    def gradient(self, wrt):
        """Not implemented in 1.9.1 either: bind the symbol and call backward."""
        raise MXNetError("Symbol.gradient is not implemented; bind the symbol and call "
                         "Executor.backward instead")

    # -- NDArray-only methods -------------------------------------------------------------------------
    def wait_to_read(self):
        raise NotImplementedForSymbol(self.wait_to_read, None)

    def asnumpy(self):
        raise NotImplementedForSymbol(self.asnumpy, None)

    def asscalar(self):
        raise NotImplementedForSymbol(self.asscalar, None)

    def copy(self):
        raise NotImplementedForSymbol(self.copy, None)

    def as_in_context(self):
        raise NotImplementedForSymbol(self.as_in_context, None)

    def detach(self):
        raise NotImplementedForSymbol(self.detach, None)

    def backward(self):
        raise NotImplementedForSymbol(self.backward, None)

    def as_nd_ndarray(self):
        return self

    def as_np_ndarray(self):
        """The same outputs as a NumPy-mode symbol (``mx.sym.np._Symbol``)."""
        from .numpy._symbol import as_np
        return as_np(self)

    def optimize_for(self, backend, args=None, aux=None, ctx=None, shape_dict=None,
                     type_dict=None, stype_dict=None, skip_infer=False, **kwargs):
        """Graph partitioning for an accelerator backend: there are no backends to
        partition for here, so this returns an unchanged copy."""
        if not isinstance(backend, str):
            raise MXNetAssertionError(f"optimize_for: backend must be a string, got {backend!r}")
        if backend not in _SUBGRAPH_BACKENDS:  # 1.9.1 logs this and returns the graph as is
            from ..base import native_log
            native_log("../src/c_api/c_api_symbolic.cc:1555",
                       f"Error optimizing for backend '{backend}' cannot be found")
        return self.__copy__()

    def get_backend_symbol(self, backend):
        """The symbol as rewritten for ``backend``: an unchanged copy here."""
        if backend not in _SUBGRAPH_BACKENDS:
            raise MXNetError(f"SubgraphProperty {backend} is not found in "
                             f"SubgraphBackendRegistry (known: {sorted(_SUBGRAPH_BACKENDS)})")
        return self.__copy__()

    # -- arithmetic -------------------------------------------------------------------------------------
    def _binary(self, other, op_name, hint, scalar_name, scalar_hint):
        if isinstance(other, Symbol):
            return create_node(op_name, [self, other], {}, hint=hint)
        if _is_number(other):
            return create_node(scalar_name, [self], {}, {"scalar": other}, hint=scalar_hint)
        raise TypeError(f"type {type(other)} not supported")

    def _scalar_only(self, other, scalar_name, scalar_hint):
        if _is_number(other):
            return create_node(scalar_name, [self], {}, {"scalar": other}, hint=scalar_hint)
        raise TypeError(f"type {type(other)} not supported")

    def __abs__(self):
        return create_node("abs", [self], {}, hint="abs")

    def __add__(self, o):
        return self._binary(o, "elemwise_add", "_plus", "_plus_scalar", "_plusscalar")

    def __radd__(self, o):
        return self.__add__(o)

    def __sub__(self, o):
        return self._binary(o, "elemwise_sub", "_minus", "_minus_scalar", "_minusscalar")

    def __rsub__(self, o):
        return self._scalar_only(o, "_rminus_scalar", "_rminusscalar")

    def __mul__(self, o):
        return self._binary(o, "elemwise_mul", "_mul", "_mul_scalar", "_mulscalar")

    def __rmul__(self, o):
        return self.__mul__(o)

    def __truediv__(self, o):
        return self._binary(o, "elemwise_div", "_div", "_div_scalar", "_divscalar")

    __div__ = __truediv__

    def __rtruediv__(self, o):
        return self._scalar_only(o, "_rdiv_scalar", "_rdivscalar")

    __rdiv__ = __rtruediv__

    def __mod__(self, o):
        return self._binary(o, "_mod", "_mod", "_mod_scalar", "_modscalar")

    def __rmod__(self, o):
        return self._scalar_only(o, "_rmod_scalar", "_rmodscalar")

    def __pow__(self, o):
        return self._binary(o, "_power", "_power", "_power_scalar", "_powerscalar")

    def __rpow__(self, o):
        return self._scalar_only(o, "_rpower_scalar", "_rpower_scalar")

    def __neg__(self):
        return self.__mul__(-1.0)

    def __eq__(self, o):
        return self._binary(o, "_equal", "_equal", "_equal_scalar", "_equal_scalar")

    def __ne__(self, o):
        return self._binary(o, "_not_equal", "_not_equal", "_not_equal_scalar",
                            "_not_equal_scalar")

    def __gt__(self, o):
        return self._binary(o, "_greater", "_greater", "_greater_scalar", "_greater_scalar")

    def __ge__(self, o):
        return self._binary(o, "_greater_equal", "_greater_equal", "_greater_equal_scalar",
                            "_greater_equal_scalar")

    def __lt__(self, o):
        return self._binary(o, "_lesser", "_lesser", "_lesser_scalar", "_lesser_scalar")

    def __le__(self, o):
        return self._binary(o, "_lesser_equal", "_lesser_equal", "_lesser_equal_scalar",
                            "_lesser_equal_scalar")

    def _inplace(self, alias, other):
        raise NotImplementedForSymbol(getattr(self, {"+=": "__iadd__", "-=": "__isub__",
                                                     "*=": "__imul__", "/=": "__itruediv__"}[alias]),
                                      alias, other, 1)

    def __iadd__(self, o):
        self._inplace("+=", o)

    def __isub__(self, o):
        self._inplace("-=", o)

    def __imul__(self, o):
        self._inplace("*=", o)

    def __itruediv__(self, o):
        self._inplace("/=", o)

    __idiv__ = __itruediv__


def _from_json(text):
    from .json_io import load_json
    return load_json(text)


# ------------------------------------------------------------------------------------------
# creating operator nodes

def _update_versions(node):
    """Record each variable input's version; operators that mutate an input bump it."""
    nargs = node.num_args()
    versions = []
    for i, (src, _) in enumerate(node.inputs):
        if src.op is None:
            if i >= nargs:
                src.version += 1
            versions.append(src.version)
        else:
            versions.append(0)
    node.versions = versions


_AUX_INIT = {"moving_mean": '["zero", {}]', "moving_var": '["one", {}]',
             "moving_avg": '["zero", {}]'}  # IdentityAttachKLSparseReg's (1.9.1)


def create_node(op_name, args, kwargs, params=None, name=None, attr=None, hint=None):
    """Create an operator node and compose it with input symbols; returns the Symbol.

    ``args`` are positional input symbols, ``kwargs`` input symbols by input name;
    ``params`` the operator parameters (and other attributes) as Python values.
    Missing inputs become new variables named ``<node>_<input>``.
    """
    op = get_op(op_name)
    attrs = {}
    merged = dict(params or {})
    merged.update(AttrScope.current().get(attr))
    for k, v in merged.items():
        attrs[_attr_key(k, v)] = _value_str(k, v)
    name = NameManager.current().get(name, hint or op_name.lower())
    parsed = _parse_node_attrs(op, attrs, name)
    node = Node(op, name, attrs, parsed)
    if op.variadic:  # 1.9.1's frontend passes the keywords, then the input count
        first = [k for k in attrs if k != op.variadic] + [op.variadic]
    elif getattr(op, "any_params", False):  # Custom: the keywords as given
        first = list(attrs)
    else:  # other keys, then the parameters as declared, dtype last
        first = [k for k in attrs if k not in op.params]
        first += [k for k in op.params if k in attrs and k != "dtype"] + ["dtype"]
    _ATTR_HISTORY[node] = ((), 11, first)
    for i, s in enumerate(args):
        if not isinstance(s, Symbol):
            raise TypeError(f"{op_name}: positional input {i} must be a Symbol, got "
                            f"{type(s).__name__}")
        if len(s._outputs) != 1:
            raise MXNetError(f"{op_name}: argument {i} is a tuple with {len(s._outputs)} elements "
                             f"({s.list_outputs()}), a single output is required")
    for k, s in kwargs.items():
        if not isinstance(s, Symbol):
            raise TypeError(f"{op_name}: input {k!r} must be a Symbol, got {type(s).__name__}")
        if len(s._outputs) != 1:
            raise MXNetError(f"Keyword Argument {k} is a tuple, scalar is required")
    if op.variadic:
        if kwargs:
            raise MXNetError(f"{op_name}: variable length function do not accept kwargs inputs "
                             f"({sorted(kwargs)})")
        node.inputs = [s._outputs[0] for s in args]
        expected = node.input_names()
        if len(expected) < len(node.inputs):
            raise MXNetError(f"{op_name}: {op.variadic}={parsed.get(op.variadic)} but "
                             f"{len(node.inputs)} inputs were given")
        # 1.9.1 makes variables for the inputs not given (bilinear UpSampling's weight,
        # concat(a, b, num_args=3)'s arg2)
        for nm in expected[len(node.inputs):]:
            node.inputs.append((Node(None, f"{name}_{nm}", dict(attrs)), 0))
    else:
        names = node.input_names()
        if len(args) > len(names):
            raise MXNetError(f"Incorrect number of arguments, requires {len(names)}, provided "
                             f"{len(args)}")
        entries = [s._outputs[0] for s in args]
        unknown = [k for k in kwargs if k not in names[len(args):]]
        if unknown:
            raise MXNetError(f"Symbol.Compose: keyword argument(s) {unknown} of {op_name} do not "
                             f"name an input; the inputs are {names[len(args):]}")
        aux = set(op.aux_names(parsed))
        for nm in names[len(args):]:
            if nm in kwargs:
                entries.append(kwargs[nm]._outputs[0])
            else:
                entries.append((Node(None, f"{name}_{nm}", dict(attrs)), 0))
        node.inputs = entries
        # a Custom op's auxiliary states get no initializer mark (1.9.1 sets one only for the
        # built-in operators that ask for it, BatchNorm's moving_mean for instance)
        for nm, (src, _) in zip(names, entries):
            if nm in aux and src.op is None and nm in _AUX_INIT and "__init__" not in src.attrs \
                    and op_name != "Custom":
                src.attrs["__init__"] = _AUX_INIT[nm]
    given = {id(s._outputs[0][0]) for s in list(args) + list(kwargs.values())}
    made = [src for src, _ in node.inputs if src.op is None and id(src) not in given]
    if made:  # the made variables start as copies of the node's attribute map
        copied = _attr_hash_order(node)
        for src in made:
            _ATTR_HISTORY[src] = (copied[0], copied[1], ())
    if op_name == "UpSampling" and parsed.get("sample_type") == "bilinear":
        # 1.9.1 marks the weight variable (given or made) with the bilinear initializer
        src = node.inputs[1][0] if len(node.inputs) > 1 else None
        if src is not None and src.op is None and "__init__" not in src.attrs:
            src.attrs["__init__"] = '["bilinear", {}]'
    _update_versions(node)
    res = Symbol([(node, i) for i in range(node.num_visible_outputs())])
    if args and getattr(args[0], "_np_symbol", False):  # NumPy-mode symbols stay NumPy-mode
        res.__class__ = type(args[0])
    return res


# ------------------------------------------------------------------------------------------
# variables and groups

_STYPE_CODES = {"default": 0, "row_sparse": 1, "csr": 2}


def var(name, attr=None, shape=None, lr_mult=None, wd_mult=None, dtype=None, init=None,
        stype=None, **kwargs):
    """A variable (placeholder) symbol, with optional shape/dtype/init/lr_mult/wd_mult hints."""
    if not isinstance(name, str):
        raise TypeError("Expect a string for variable `name`")
    attrs = AttrScope.current().get(attr)
    attrs = dict(attrs) if attrs else {}
    if shape is not None:
        attrs["__shape__"] = str(shape)
    if lr_mult is not None:
        attrs["__lr_mult__"] = str(lr_mult)
    if wd_mult is not None:
        attrs["__wd_mult__"] = str(wd_mult)
    if dtype is not None:
        attrs["__dtype__"] = str(dtype_code(dtype_np(dtype)))
    if init is not None:
        attrs["__init__"] = init if isinstance(init, str) else init.dumps()
    if stype is not None:
        if stype not in _STYPE_CODES:
            raise MXNetKeyError(f"var: unknown storage type {stype!r}")  # KeyError in 1.9.1
        attrs["__storage_type__"] = str(_STYPE_CODES[stype])
    for k, v in kwargs.items():
        if is_hidden_key(k):
            attrs[k] = str(v)
        else:
            raise ValueError(f"Attribute name={k} is not supported. Additional attributes must "
                             "start and end with double underscores, e.g, __yourattr__")
    sym = Symbol([(Node(None, name), 0)])
    sym._set_attr(**attrs)
    return sym


Variable = var


def Group(symbols, create_fn=Symbol):
    """One symbol whose outputs are the outputs of every symbol in ``symbols``; ``create_fn``
    (a Symbol class) makes the result."""
    if not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise TypeError("Expected a list of symbols as input")
    outs = []
    for s in symbols:
        outs.extend(s._outputs)
    return create_fn(outs)
