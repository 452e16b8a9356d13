"""Symbol: a declarative graph of registered operators.

Symbols are composed with the same operator definitions as ``mx.nd``; ``infer_shape``
and ``infer_type`` run the registry's inference rules over the graph, ``tojson`` writes
1.9.1's ``-symbol.json`` layout, and ``bind``/``simple_bind`` build an Executor.
"""
from __future__ import annotations

import copy as _copy

import numpy as np

from ..attribute import AttrScope
from ..base import MXNetError, attr_str, dtype_name, dtype_np, numeric_types
from ..name import NameManager
from ..operator.registry import get_op
from .graph import Node, aux_var_ids, topo_order

__all__ = ["Symbol", "var", "Variable", "Group"]

_HIDDEN = ("ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage", "init",
           "shape", "dtype", "stype", "profiler_scope")


class Symbol:
    """A list of graph outputs, each a (node, output index) pair."""

    __slots__ = ("_outputs", "__weakref__")

    def __init__(self, outputs):
        self._outputs = list(outputs)

    # -- identity -----------------------------------------------------------------------------
    @property
    def name(self):
        """The name of a single-output symbol's node (None for a group)."""
        if len(self._outputs) != 1:
            return None
        return self._outputs[0][0].name

    def __repr__(self):
        if len(self._outputs) == 1:
            return f"<Symbol {self.name}>"
        return f"<Symbol group [{', '.join(n.name for n, _ in self._outputs)}]>"

    def __len__(self):
        return len(self._outputs)

    def __iter__(self):
        return (Symbol([o]) for o in self._outputs)

    def __getitem__(self, index):
        if isinstance(index, str):
            names = self.list_outputs()
            if index not in names:
                raise MXNetError(f"Symbol.__getitem__: no output named {index!r}; outputs are {names}")
            if names.count(index) > 1:
                raise MXNetError(f"Symbol.__getitem__: output name {index!r} is ambiguous")
            index = names.index(index)
        if isinstance(index, slice):
            return Symbol(self._outputs[index])
        if not -len(self._outputs) <= index < len(self._outputs):
            raise IndexError(f"Symbol index {index} out of range for {len(self._outputs)} outputs")
        return Symbol([self._outputs[index]])

    def __copy__(self):
        return Symbol(list(self._outputs))

    def __deepcopy__(self, memo):
        return self.copy()

    def copy(self):
        """A deep copy of the graph (new nodes)."""
        mapping = {}
        for node in topo_order(self._outputs):
            mapping[id(node)] = Node(node.op, node.name, node.attrs, dict(node.parsed), node.extra,
                                     [(mapping[id(s)], i) for s, i in node.inputs])
        return Symbol([(mapping[id(n)], i) for n, i in self._outputs])

    # -- listing --------------------------------------------------------------------------------
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
        return [node.output_names()[i] for node, i in self._outputs]

    def get_internals(self):
        """A group of every output of every node in the graph."""
        outs = []
        for node in self._order():
            outs.extend((node, i) for i in range(node.num_visible_outputs()))
        return Symbol(outs)

    def get_children(self):
        """The inputs of this symbol's node(s) as a group, or None for a variable."""
        ins = [inp for node, _ in self._outputs for inp in node.inputs]
        return Symbol(ins) if ins else None

    # -- attributes -------------------------------------------------------------------------------
    def attr(self, key):
        """One attribute of this (single) symbol's node, or None."""
        if len(self._outputs) != 1:
            raise MXNetError("Symbol.attr: only defined for single-output symbols")
        node = self._outputs[0][0]
        for d in (node.extra, node.attrs):
            if key in d:
                return d[key]
            if f"__{key}__" in d:
                return d[f"__{key}__"]
        return None

    def list_attr(self, recursive=False):
        """This node's attributes as strings (with recursive=True, see attr_dict)."""
        if recursive:
            raise MXNetError("Symbol.list_attr(recursive=True) is deprecated; use attr_dict()")
        node = self._outputs[0][0]
        out = dict(node.attrs)
        for k, v in node.extra.items():
            out[k] = v
            plain = k.strip("_")
            if k.startswith("__") and plain in ("lr_mult", "wd_mult", "ctx_group") and node.op is None \
                    or k.startswith("__") and plain == "ctx_group":
                out[plain] = v
        return out

    def attr_dict(self):
        """{node name: {attribute: value}} over the whole graph (only nodes that have any)."""
        res = {}
        for node in self._order():
            d = Symbol([(node, 0)]).list_attr()
            if d:
                res[node.name] = d
        return res

    def _set_attr(self, **kwargs):
        """Set string attributes on this symbol's node(s)."""
        for node, _ in self._outputs:
            for k, v in kwargs.items():
                if not isinstance(v, str):
                    raise MXNetError(f"Symbol._set_attr: value of {k!r} must be a string")
                if k in _HIDDEN:
                    node.extra[f"__{k}__"] = v
                else:
                    node.attrs[k] = v

    # -- composition -----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        """Replace variables by name (``kwargs``) or in list_arguments order (``args``)."""
        s = self.copy()
        s._compose(*args, **kwargs)
        return s

    def _compose(self, *args, name=None, **kwargs):
        order = self._order()
        variables = [n for n in order if n.op is None]
        repl = {}
        if args:
            argnames = self.list_arguments()
            for nm, sym in zip(argnames, args):
                repl[nm] = sym
        for k, v in kwargs.items():
            repl[k] = v
        for nm, sym in repl.items():
            if not isinstance(sym, Symbol) or len(sym._outputs) != 1:
                raise MXNetError(f"Symbol compose: argument {nm!r} must be a single-output Symbol")
        by_name = {n.name: n for n in variables}
        for node in order:
            node.inputs = [(repl[src.name]._outputs[0] if src.op is None and src.name in repl
                            else (src, i)) for src, i in node.inputs]
        if name and len(self._outputs) == 1:
            self._outputs[0][0].name = name
        self._outputs = [(repl[n.name]._outputs[0] if n.op is None and n.name in repl else (n, i))
                         for n, i in self._outputs]
        del by_name

    # -- inference ---------------------------------------------------------------------------------
    def infer_shape(self, *args, **kwargs):
        """(arg_shapes, out_shapes, aux_shapes) from known argument shapes; Nones if incomplete."""
        res = self._infer("shape", args, kwargs, partial=False)
        return res

    def infer_shape_partial(self, *args, **kwargs):
        """Like infer_shape, but unknown shapes come back as ``()`` instead of failing."""
        return self._infer("shape", args, kwargs, partial=True)

    def infer_type(self, *args, **kwargs):
        """(arg_types, out_types, aux_types) as NumPy types, from known argument types."""
        return self._infer("type", args, kwargs, partial=False)

    def infer_type_partial(self, *args, **kwargs):
        return self._infer("type", args, kwargs, partial=True)

    def _infer(self, what, args, kwargs, partial):
        from ..executor.infer import infer_graph
        known = {}
        argnames = self.list_arguments()
        if args:
            for nm, v in zip(argnames, args):
                if v is not None:
                    known[nm] = v
        known.update({k: v for k, v in kwargs.items() if v is not None})
        for k in known:
            if k not in self.list_inputs():
                raise MXNetError(f"infer_{what}: {k!r} is not an input of the symbol; inputs are "
                                 f"{self.list_inputs()}")
        values, outs = infer_graph(self, what, known)
        order = self._order()
        aux = aux_var_ids(order)
        arg_v = [values.get((id(n), 0)) for n in order if n.op is None and id(n) not in aux]
        aux_v = [values.get((id(n), 0)) for n in order if n.op is None and id(n) in aux]
        out_v = [values.get((id(n), i)) for n, i in self._outputs]
        if what == "shape":
            complete = all(v is not None and None not in v and 0 not in v
                           for v in arg_v + aux_v + out_v)
            if not complete and not partial:
                return None, None, None
            fix = (lambda v: () if v is None else tuple(0 if d is None else d for d in v))
        else:
            complete = all(v is not None for v in arg_v + aux_v + out_v)
            if not complete and not partial:
                return None, None, None
            fix = (lambda v: None if v is None else np.dtype(v).type)
        return [fix(v) for v in arg_v], [fix(v) for v in out_v], [fix(v) for v in aux_v]

    # -- serialisation --------------------------------------------------------------------------------
    def tojson(self):
        """The graph in 1.9.1's -symbol.json layout."""
        from .json_io import symbol_to_json
        return symbol_to_json(self)

    def save(self, fname, remove_amp_cast=True):
        """Write ``tojson()`` to ``fname`` (atomically)."""
        from ..ndarray.serialization import write_file_atomic
        write_file_atomic(fname, self.tojson().encode("utf-8"))

    # -- running -------------------------------------------------------------------------------------
    def bind(self, ctx, args, args_grad=None, grad_req="write", aux_states=None, group2ctx=None,
             shared_exec=None):
        """An Executor over given argument arrays (list in list_arguments order, or dict)."""
        from ..executor.executor import Executor
        return Executor(self, ctx, args, args_grad, grad_req, aux_states, group2ctx, shared_exec)

    def simple_bind(self, ctx, grad_req="write", type_dict=None, stype_dict=None, group2ctx=None,
                    shared_arg_names=None, shared_exec=None, shared_buffer=None, **kwargs):
        """Allocate every array from the shapes in ``kwargs`` and bind."""
        from ..executor.executor import simple_bind
        return simple_bind(self, ctx, grad_req, type_dict, group2ctx, shared_exec, kwargs)

    def eval(self, ctx=None, **kwargs):
        """Bind the given NDArrays and run forward once; returns the outputs."""
        from ..context import current_context
        ex = self.bind(ctx or current_context(), kwargs, grad_req="null")
        return ex.forward()

    def gradient(self, wrt):
        raise MXNetError("Symbol.gradient is not supported; bind and call backward instead")

    # -- arithmetic ------------------------------------------------------------------------------------
    def _binary(self, other, op_name, scalar_name, hint, shint):
        if isinstance(other, Symbol):
            return _make(op_name, [self, other], {}, hint=hint)
        if isinstance(other, numeric_types):
            return _make(scalar_name, [self], {"scalar": other}, hint=shint)
        raise TypeError(f"type {type(other).__name__} not supported for Symbol arithmetic")

    def _rbinary(self, other, scalar_name, shint):
        if isinstance(other, numeric_types):
            return _make(scalar_name, [self], {"scalar": other}, hint=shint)
        raise TypeError(f"type {type(other).__name__} not supported for Symbol arithmetic")

    def __add__(self, o):
        return self._binary(o, "elemwise_add", "_plus_scalar", "_plus", "_plusscalar")

    def __radd__(self, o):
        return self._rbinary(o, "_plus_scalar", "_plusscalar")

    def __sub__(self, o):
        return self._binary(o, "elemwise_sub", "_minus_scalar", "_minus", "_minusscalar")

    def __rsub__(self, o):
        return self._rbinary(o, "_rminus_scalar", "_rminusscalar")

    def __mul__(self, o):
        return self._binary(o, "elemwise_mul", "_mul_scalar", "_mul", "_mulscalar")

    def __rmul__(self, o):
        return self._rbinary(o, "_mul_scalar", "_mulscalar")

    def __truediv__(self, o):
        return self._binary(o, "elemwise_div", "_div_scalar", "_div", "_divscalar")

    def __rtruediv__(self, o):
        return self._rbinary(o, "_rdiv_scalar", "_rdivscalar")

    def __mod__(self, o):
        return self._binary(o, "_mod", "_mod_scalar", "_mod", "_modscalar")

    def __rmod__(self, o):
        return self._rbinary(o, "_rmod_scalar", "_rmodscalar")

    def __pow__(self, o):
        return self._binary(o, "_power", "_power_scalar", "_power", "_powerscalar")

    def __rpow__(self, o):
        return self._rbinary(o, "_rpower_scalar", "_rpowerscalar")

    def __neg__(self):
        return _make("_mul_scalar", [self], {"scalar": -1.0}, hint="_mulscalar")

    def __eq__(self, o):
        return self._binary(o, "_equal", "_equal_scalar", "_equal", "_equalscalar")

    def __ne__(self, o):
        return self._binary(o, "_not_equal", "_not_equal_scalar", "_notequal", "_notequalscalar")

    def __gt__(self, o):
        return self._binary(o, "_greater", "_greater_scalar", "_greater", "_greaterscalar")

    def __ge__(self, o):
        return self._binary(o, "_greater_equal", "_greater_equal_scalar", "_greaterequal",
                            "_greaterequalscalar")

    def __lt__(self, o):
        return self._binary(o, "_lesser", "_lesser_scalar", "_lesser", "_lesserscalar")

    def __le__(self, o):
        return self._binary(o, "_lesser_equal", "_lesser_equal_scalar", "_lesserequal",
                            "_lesserequalscalar")

    def __hash__(self):
        return id(self)

    def __getstate__(self):
        return {"json": self.tojson()}

    def __setstate__(self, state):
        from .json_io import load_json
        self._outputs = load_json(state["json"])._outputs

    def __reduce__(self):
        return (_from_state, (self.tojson(),))


def _from_state(text):
    from .json_io import load_json
    return load_json(text)


def _make(op_name, inputs, kwargs, name=None, attr=None, hint=None):
    """Create an operator node over input symbols; missing inputs become new variables."""
    op = get_op(op_name)
    user_kwargs = {k: v for k, v in kwargs.items() if v is not None}
    parsed = op.parse_attrs(user_kwargs)
    name = NameManager.current().get(name, hint or op_name.lower())
    attrs = {k: attr_str(v) for k, v in user_kwargs.items()}
    extra = {}
    for k, v in AttrScope.current().get(attr).items():
        extra[f"__{k}__" if k in _HIDDEN else k] = v
    names = op.input_names(parsed) + op.aux_names(parsed)
    entries = []
    for i, nm in enumerate(names):
        sym = inputs[i] if i < len(inputs) else None
        if sym is None:
            var_extra = dict(attrs)
            var_node = Node(None, f"{name}_{nm}", extra=var_extra)
            entries.append((var_node, 0))
            continue
        if not isinstance(sym, Symbol):
            raise MXNetError(f"{op_name}: input {nm!r} must be a Symbol, got {type(sym).__name__}")
        if len(sym._outputs) != 1:
            raise MXNetError(f"{op_name}: input {nm!r} is a group of {len(sym._outputs)} outputs; "
                             "pass a single output")
        entries.append(sym._outputs[0])
    if len(inputs) > len(names):
        raise MXNetError(f"{op_name}: expected at most {len(names)} inputs {names}, got {len(inputs)}")
    node = Node(op, name, attrs, parsed, extra, entries)
    nvis = node.num_visible_outputs()
    return Symbol([(node, i) for i in range(nvis)])


def var(name, attr=None, shape=None, lr_mult=None, wd_mult=None, dtype=None, init=None,
        stype=None, profiler_scope=None, **kwargs):
    """A variable (placeholder) symbol, with optional shape/dtype/init/lr_mult/wd_mult hints."""
    if not isinstance(name, str):
        raise TypeError("Expect a string for variable `name`")
    extra = {}
    scope_attr = AttrScope.current().get(attr)
    for k, v in scope_attr.items():
        extra[f"__{k}__" if k in _HIDDEN else k] = v
    if shape is not None:
        extra["__shape__"] = attr_str(tuple(shape))
    if lr_mult is not None:
        extra["__lr_mult__"] = str(lr_mult)
    if wd_mult is not None:
        extra["__wd_mult__"] = str(wd_mult)
    if dtype is not None:
        from ..base import dtype_code
        extra["__dtype__"] = str(dtype_code(dtype_np(dtype)))
    if init is not None:
        extra["__init__"] = init if isinstance(init, str) else init.dumps()
    if stype is not None:
        extra["__storage_type__"] = {"default": "0", "row_sparse": "1", "csr": "2"}.get(stype, stype)
    for k, v in kwargs.items():
        if k.startswith("__") and k.endswith("__"):
            extra[k] = str(v)
        else:
            raise MXNetError(f"var: unknown keyword {k!r}; attributes must look like __name__")
    return Symbol([(Node(None, name, extra=extra), 0)])


Variable = var


def Group(symbols):
    """One symbol whose outputs are the outputs of every symbol in ``symbols``."""
    if not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise MXNetError("Group: expects a non-empty list of Symbols")
    outs = []
    for s in symbols:
        outs.extend(s._outputs)
    return Symbol(outs)


_ = (dtype_name, _copy)
