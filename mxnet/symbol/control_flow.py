"""Symbolic control flow: ``mx.sym.contrib.foreach``, ``while_loop`` and ``cond``.

Each front end calls the user's Python function once, on fresh variables, inside an
``AttrScope`` that tags every node it creates with ``__subgraph_name__``. The tagged part of
the result is the subgraph; wherever it reads a value from outside (a parameter, an earlier
result), that edge is cut and replaced by a new variable named after the value's output, and
the outside value becomes an input of the control flow node. The node (``_foreach``,
``_while_loop`` or ``_cond``, see :mod:`mxnet.operator.control_flow_ops`) records with
``*_locs`` parameters which of its inputs feeds which subgraph input, exactly as 1.9.1 lays
them out, so -symbol.json files match byte for byte.
"""
from __future__ import annotations

import collections

from .._nest import flatten, regroup
from ..attribute import AttrScope
from ..base import MXNetError
from ..operator.control_flow_ops import attach_subgraphs
from .graph import SUBGRAPHS_KEY, Node, topo_order
from .symbol import Symbol, create_node, var

__all__ = ["foreach", "while_loop", "cond"]

_SUBGRAPH_KEY = "__subgraph_name__"

# per base name, how many subgraphs were named so far (1.9.1 counts process-wide)
_subgraph_counts: collections.defaultdict = collections.defaultdict(int)


class ControlFlowError(MXNetError, ValueError):
    """A control flow body or its arguments do not fit together (also a ValueError, which is
    what 1.9.1 raises for most of these cases)."""


def _reset_names():
    """Restart the subgraph name counters (tests that compare names with 1.9.1's use it)."""
    _subgraph_counts.clear()


def _subgraph_name(base):
    outer = AttrScope.current()._attr.get(_SUBGRAPH_KEY, "")
    if outer:
        base = f"{outer}${base}"
    n = _subgraph_counts[base]
    _subgraph_counts[base] = n + 1
    return f"{base}{n}"


# ---------------------------------------------------------------------------------------------
# nested lists of symbols

def _symbol_items(x):
    if not isinstance(x, Symbol):
        return None
    return [x] if len(x._outputs) == 1 else [Symbol([e]) for e in x._outputs]


def _flatten(args, what):
    """(flat list of single-output Symbols, format) of a Symbol or a nested list of them."""
    return flatten(args, _symbol_items, what, "Symbol", ControlFlowError)


def _entry_name(sym):
    """The name 1.9.1 gives the fresh variable standing for ``sym`` inside a subgraph."""
    node, idx = sym._outputs[0]
    return f"{node.name}-{idx}"


def _in_graph(node, name):
    return node.attrs.get(_SUBGRAPH_KEY, "") == name


def _wrap_outputs(outputs, name, everything, avoid_names=()):
    """``outputs`` where none is an input of the graph behind ``everything`` (all the
    function's results) or lies outside the subgraph: those pass through ``identity``, as in
    1.9.1, so that the cut graph has real outputs."""
    from . import op as _op
    if not outputs:
        return []
    inputs = set(Symbol([s._outputs[0] for s in everything]).list_inputs())
    wrapped = []
    for s in outputs:
        node = s._outputs[0][0]
        if node.name in inputs or node.name in avoid_names or not _in_graph(node, name):
            s = _op.identity(s)
        wrapped.append(s._outputs[0])
    return wrapped


def _cut(group, name):
    """Copy the subgraph tagged ``name`` behind ``group``; every edge coming from outside
    becomes a new variable. Returns (subgraph Symbol, {variable name: outside Symbol})."""
    copies, cut_vars, outside = {}, {}, {}
    for node in topo_order(group._outputs):
        if not _in_graph(node, name):
            continue
        inputs = []
        for src, idx in node.inputs:
            if _in_graph(src, name):
                inputs.append((copies[id(src)], 0 if src.op is None else idx))
                continue
            key = (id(src), idx)
            new = cut_vars.get(key)
            if new is None:
                names = src.output_names() if src.op is not None else [src.name]
                vname = names[idx] if idx < len(names) else f"{src.name}_output{idx}"
                new = cut_vars[key] = Node(None, vname)
                outside[vname] = Symbol([(src, idx)])
            inputs.append((new, 0))
        new = Node(node.op, node.name, node.attrs, node.parsed, inputs, node.versions)
        new.version = node.version
        copies[id(node)] = new
    sub = Symbol([(copies[id(n)], i) for n, i in group._outputs])
    names = sub.list_inputs()
    if len(set(names)) != len(names):
        raise ControlFlowError(f"the inputs of the subgraph {name} don't have unique names: "
                               f"{names}")
    return sub, outside


def _fresh_copy(sub, vname):
    """An outer variable for a variable the user's function created inside the subgraph."""
    for n in topo_order(sub._outputs):
        if n.op is None and n.name == vname:
            return Symbol([(Node(None, n.name, dict(n.attrs)), 0)])
    raise MXNetError(f"internal error: subgraph input {vname} not found")


def _node(op_name, inputs, graphs, **params):
    sym = create_node(op_name, inputs, {}, params=dict(params, num_args=len(inputs) + len(graphs)))
    node = sym._outputs[0][0]
    parsed = {k: v for k, v in node.parsed.items() if k != SUBGRAPHS_KEY}
    node.parsed = attach_subgraphs(node.op, parsed, graphs, node.name)
    return [Symbol([(node, i)]) for i in range(node.num_outputs())]


def _check_symbols(flat, what):
    for s in flat:
        if not isinstance(s, Symbol):
            raise ControlFlowError(f"{what} should be a Symbol or a nested list of Symbols, "
                                   f"got {type(s).__name__}")


# ---------------------------------------------------------------------------------------------
# foreach

def foreach(body, data, init_states, name="foreach"):
    """A loop over axis 0 of ``data`` as one graph node.

    ``body(data_slice, states)`` returns ``(outputs, new_states)``; it is called once, on
    placeholder Symbols, to build the loop body. ``data`` is a Symbol or a list of Symbols
    (the body then gets the list of their slices); ``init_states`` a Symbol or a nested list
    of Symbols, and ``new_states`` must have the same structure. Returns ``(outputs,
    states)``: the body's per-step outputs stacked along a new axis 0, and the states after
    the last step. Either part may be empty (``[]``).

    Symbols the body reads from outside (parameters, other results) become inputs of the
    loop node, so their gradients are computed too.

    >>> step = lambda x, s: (x + s[0], [s[0] * 2])
    >>> outs, states = mx.sym.contrib.foreach(step, mx.sym.var('data'), [mx.sym.var('s')])
    """
    flat_data, data_fmt = _flatten(data, "foreach input")
    _check_symbols(flat_data, "data")
    flat_init, init_fmt = _flatten(init_states, "foreach states")
    _check_symbols(flat_init, "init_states")
    sub_name = _subgraph_name(name)
    with AttrScope(**{_SUBGRAPH_KEY: sub_name}):
        data_vars, _ = regroup([var(_entry_name(s)) for s in flat_data], data_fmt)
        state_vars, _ = regroup([var(_entry_name(s)) for s in flat_init], init_fmt)
        outs, new_states = body(data_vars, state_vars)
        flat_out, out_fmt = _flatten(outs, "foreach output")
        flat_new, new_fmt = _flatten(new_states, "foreach loop_vars")
        if new_fmt != init_fmt:
            raise ControlFlowError("foreach: the body's new states have a different structure "
                                   f"({new_fmt}) than init_states ({init_fmt})")
        _check_symbols(flat_out, "the output")
        _check_symbols(flat_new, "the output states")
        out_names = {s._outputs[0][0].name for s in flat_out}
        every = flat_out + flat_new
        heads = _wrap_outputs(flat_out, sub_name, every) + \
            _wrap_outputs(flat_new, sub_name, every, out_names)
    sub, outside = _cut(Symbol(heads), sub_name)
    names = sub.list_inputs()
    data_names = [_entry_name(s) for s in flat_data]
    state_names = [_entry_name(s) for s in flat_init]
    inputs = list(flat_data) + list(flat_init)
    in_data_locs, in_state_locs, remain_locs = [], [], []
    for n in data_names:
        if n not in names:
            raise ControlFlowError("foreach: the data arrays have to be used in the loop body "
                                   f"({n} is not)")
        in_data_locs.append(names.index(n))
    for n in state_names:
        if n not in names:
            raise ControlFlowError("foreach: the state arrays have to be used in the loop body "
                                   f"({n} is not)")
        in_state_locs.append(names.index(n))
    for k, n in enumerate(names):
        if n in outside:
            inputs.append(outside[n])
            remain_locs.append(k)
        elif n not in data_names and n not in state_names:
            inputs.append(_fresh_copy(sub, n))
            remain_locs.append(k)
    res = _node("_foreach", inputs, [sub], num_outputs=len(flat_out) + len(flat_new),
                num_out_data=len(flat_out), in_state_locs=in_state_locs,
                in_data_locs=in_data_locs, remain_locs=remain_locs)
    nout = len(flat_out)
    outs, _ = regroup(res[:nout], out_fmt)
    states, _ = regroup(res[nout:], new_fmt)
    return outs, states


# ---------------------------------------------------------------------------------------------
# while_loop

def _to_int(value, what):
    if hasattr(value, "asscalar"):
        value = value.asscalar()
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ControlFlowError(f"Cannot convert {what} to python int") from None


def while_loop(cond, func, loop_vars, max_iterations=None, name="while_loop"):
    """A while loop as one graph node, run for at most ``max_iterations`` steps.

    ``cond(*loop_vars)`` returns a Symbol holding one value (the loop goes on while it is
    nonzero); ``func(*loop_vars)`` returns ``(step_output, new_loop_vars)``. Each is called
    once on placeholder Symbols. Returns ``(outputs, final_loop_vars)``: the step outputs
    stacked along axis 0 and always ``max_iterations`` rows long (rows past the last step are
    zeros; 1.9.1 leaves them uninitialised), and the loop variables after the last step.

    >>> cond = lambda i, s: i <= 5
    >>> func = lambda i, s: ([i + s], [i + 1, s + i])
    >>> outs, (i, s) = mx.sym.contrib.while_loop(cond, func, [mx.sym.var('i'),
    ...                                           mx.sym.var('s')], max_iterations=10)
    """
    flat_vars, var_fmt = _flatten(loop_vars, "while loop_vars")
    _check_symbols(flat_vars, "loop_vars")
    if max_iterations is None:
        raise ControlFlowError("while_loop: max_iterations should be specified")
    max_iterations = _to_int(max_iterations, "max_iteration")
    if len(flat_vars) == 0:
        raise ControlFlowError("while_loop: loop_vars should contain at least one element")

    def build(fn, base):
        sub_name = _subgraph_name(base)
        with AttrScope(**{_SUBGRAPH_KEY: sub_name}):
            fresh, _ = regroup([var(_entry_name(s)) for s in flat_vars], var_fmt)
            if isinstance(fresh, Symbol):
                fresh = [fresh]
            outs, new_vars, out_fmt = fn(fresh)
            heads = _wrap_outputs(outs + new_vars, sub_name, outs + new_vars)
        sub, outside = _cut(Symbol(heads), sub_name)
        return sub, outside, len(outs), out_fmt

    def cond_fn(fresh):
        res = cond(*fresh)
        if not isinstance(res, Symbol):
            raise ControlFlowError("while_loop: the return of cond must be a Symbol")
        return [], [res], None

    def func_fn(fresh):
        step_out, new_vars = func(*fresh)
        step_out = [] if step_out is None else step_out
        new_vars = [] if new_vars is None else new_vars
        step_out = list(step_out) if isinstance(step_out, tuple) else step_out
        new_vars = list(new_vars) if isinstance(new_vars, tuple) else new_vars
        flat_out, out_fmt = _flatten(step_out, "while output")
        flat_new, _ = _flatten(new_vars, "while loop_vars")
        _check_symbols(flat_out, "the step output")
        if len(flat_new) != len(flat_vars):
            raise ControlFlowError("while_loop: the number of loop_vars should be consistent "
                                   f"during the loop ({len(flat_vars)} given, the body "
                                   f"returned {len(flat_new)})")
        return flat_out, flat_new, out_fmt

    cond_g, cond_out, _, _ = build(cond_fn, name + "_cond")
    func_g, func_out, num_out_data, out_fmt = build(func_fn, name + "_func")
    var_names = {_entry_name(s): k for k, s in enumerate(flat_vars)}
    inputs, where = [], {}

    def locate(key, sym):
        if key not in where:
            where[key] = len(inputs)
            inputs.append(sym)
        return where[key]

    def place(sub, outside, tag):
        locs, var_locs = [], [-1] * len(flat_vars)
        for p, n in enumerate(sub.list_inputs()):
            if n in var_names:   # a loop variable: one node input for both subgraphs
                locs.append(locate(("var", var_names[n]), flat_vars[var_names[n]]))
                var_locs[var_names[n]] = p
            elif n in outside:   # an outside value: one node input per subgraph (as 1.9.1)
                locs.append(locate((tag, n), outside[n]))
            else:
                locs.append(locate((tag, n), _fresh_copy(sub, n)))
        return locs, var_locs

    cond_locs, _ = place(cond_g, cond_out, "cond")
    func_locs, func_var_locs = place(func_g, func_out, "func")
    for k, loc in enumerate(func_var_locs, 1):
        if loc == -1:
            raise ControlFlowError(f"while_loop: the {k}-th loop_var doesn't involve into the "
                                   "computation")
    nvars = len(flat_vars)
    res = _node("_while_loop", inputs, [cond_g, func_g], max_iterations=max_iterations,
                cond_input_locs=cond_locs, func_input_locs=func_locs,
                func_var_locs=func_var_locs, num_out_data=num_out_data,
                num_outputs=num_out_data + nvars)
    outputs, _ = regroup(res[:num_out_data], out_fmt)
    final, _ = regroup(res[num_out_data:], var_fmt)
    return outputs, final


# ---------------------------------------------------------------------------------------------
# cond

def cond(pred, then_func, else_func, name="cond"):
    """If-then-else as one graph node: ``then_func()`` when the one-value Symbol ``pred`` is
    nonzero, else ``else_func()``; only the chosen branch runs.

    Both functions take no arguments (they read the Symbols they need from the enclosing
    scope) and return a Symbol or a nested list of Symbols, with the same number of outputs,
    shapes and dtypes. Returns the outputs in the then-branch's structure.

    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> out = mx.sym.contrib.cond(a * b < 5, lambda: (a + 5) * (b + 5),
    ...                           lambda: (a - 5) * (b - 5))
    """
    def build(fn, base):
        sub_name = _subgraph_name(base)
        with AttrScope(**{_SUBGRAPH_KEY: sub_name}):
            flat, fmt = _flatten(fn(), "cond outputs")
            _check_symbols(flat, "the branch outputs")
            heads = _wrap_outputs(flat, sub_name, flat)
        sub, outside = _cut(Symbol(heads), sub_name)
        return sub, outside, len(flat), fmt

    if not isinstance(pred, Symbol):
        raise ControlFlowError(f"cond: pred must be a Symbol, got {type(pred).__name__}")
    pred_g, pred_out, pred_n, _ = build(lambda: pred, name + "_pred")
    if pred_n != 1:
        raise ControlFlowError("cond: pred should always be a single output")
    then_g, then_out, then_n, then_fmt = build(then_func, name + "_then")
    else_g, else_out, else_n, _ = build(else_func, name + "_else")
    if then_n != else_n:
        raise ControlFlowError("cond: number of outputs differs between then-branch and "
                               f"else-branch ({then_n} vs {else_n})")
    inputs = []

    def place(sub, outside):
        # as 1.9.1: a subgraph input reuses an earlier node input whose symbol has its name
        locs = []
        for n in sub.list_inputs():
            known = [k for k, s in enumerate(inputs) if s._outputs[0][0].name == n]
            if known:
                locs.append(known[-1])
                continue
            inputs.append(outside[n] if n in outside else _fresh_copy(sub, n))
            locs.append(len(inputs) - 1)
        return locs

    cond_locs = place(pred_g, pred_out)
    then_locs = place(then_g, then_out)
    else_locs = place(else_g, else_out)
    res = _node("_cond", inputs, [pred_g, then_g, else_g], cond_input_locs=cond_locs,
                then_input_locs=then_locs, else_input_locs=else_locs, num_outputs=then_n)
    outputs, _ = regroup(res, then_fmt)
    return outputs
