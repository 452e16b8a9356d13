"""The subgraph operators of symbolic control flow: ``_foreach``, ``_while_loop``, ``_cond``.

A node of these operators carries, next to its parsed parameters, the Symbols it runs (its
*subgraphs*, kept in a :class:`SubgraphHolder` under ``Node.parsed["_subgraphs"]``; the
front ends in :mod:`mxnet.symbol.control_flow` build them, and -symbol.json stores them under
the node's ``"subgraphs"`` key). The parameters say how the node's inputs feed each subgraph:

- ``_foreach`` (one subgraph, the loop body): the inputs are the sequences (``in_data_locs``
  give the body input each one's slices feed), the initial states (``in_state_locs``) and
  the free variables (``remain_locs``). The body's first ``num_out_data`` outputs are
  stacked along a new axis 0; the rest are the next states.
- ``_while_loop`` (condition, body): ``cond_input_locs`` / ``func_input_locs`` pick, for each
  subgraph input, the node input that feeds it; ``func_var_locs`` says which body inputs
  are the loop variables (the body's outputs after ``num_out_data`` replace them). Step
  outputs are stacked and padded with zeros to ``max_iterations`` rows.
- ``_cond`` (predicate, then, else): ``*_input_locs`` as for the while loop; only the branch
  the predicate picks runs.

Each subgraph runs as a compiled :class:`~mxnet.executor.program.GraphProgram`, one per input
signature, cached in the holder. Shape and type inference run the subgraphs' own inference.
The gradient rules need the concrete arrays (a loop's length or a branch depends on values),
so they run on NDArrays only: they replay the forward steps keeping every step's values and
run each step's backward in reverse order. This module reaches up into the executor for that
(imported lazily); running graphs is what these operators are.
"""
from __future__ import annotations

import weakref

import numpy as np

from ..base import MXNetError
from .registry import Param, register

__all__ = ["SubgraphHolder", "attach_subgraphs", "SUBGRAPH_COUNTS"]

_KEY = "_subgraphs"

# how many subgraphs each operator takes (1.9.1 counts them in ``num_args``)
SUBGRAPH_COUNTS = {"_foreach": 1, "_while_loop": 2, "_cond": 3}


class SubgraphHolder:
    """The subgraphs of one node and what running them needs: per subgraph its input
    variables (in ``list_inputs`` order), the compiled programs and inference results."""

    def __init__(self, graphs):
        from ..symbol.graph import topo_order
        self.graphs = tuple(graphs)
        self.inputs = []
        for g in self.graphs:
            names, seen = [], set()
            for n in topo_order(g._outputs):
                if n.op is None:
                    names.append(n)
                    if n.name in seen:
                        raise MXNetError(f"control flow subgraph: the inputs of a subgraph must "
                                         f"have unique names; {n.name!r} appears twice")
                    seen.add(n.name)
            self.inputs.append(names)
        self.programs: dict = {}
        self.inferred: dict = {}
        self.calls: list = []   # (weakref to a first output, (is_train, random state))

    def __repr__(self):
        # unique per holder: gradient-template caches key on the repr of parsed attributes
        return f"<SubgraphHolder of {len(self.graphs)} at {id(self):#x}>"

    def num_inputs(self, k):
        return len(self.inputs[k])

    def num_outputs(self, k):
        return len(self.graphs[k]._outputs)

    # -- running --------------------------------------------------------------------------------
    def program(self, k, ctx, arrays):
        key = (k, ctx, tuple((tuple(a.shape), np.dtype(a.dtype)) for a in arrays))
        prog = self.programs.get(key)
        if prog is None:
            from ..executor.program import GraphProgram
            from ..symbol.graph import topo_order
            g = self.graphs[k]
            var_pos = {id(n): i for i, n in enumerate(self.inputs[k])}
            if len(self.programs) > 64:
                self.programs.pop(next(iter(self.programs)))
            prog = self.programs[key] = GraphProgram(topo_order(g._outputs), g._outputs,
                                                     var_pos, ctx)
        return prog

    def run(self, k, rc, arrays):
        """Subgraph ``k``'s outputs on the raw arrays ``arrays`` (inference, nothing kept)."""
        prog = self.program(k, rc.ctx, arrays)
        arena = prog.acquire()
        try:
            return list(prog.forward(arena, list(arrays), rc, False))
        finally:
            prog.release(arena)

    def run_kept(self, k, rc, arrays):
        """Run subgraph ``k`` keeping its values for :meth:`backward`: (outputs, handle)."""
        prog = self.program(k, rc.ctx, arrays)
        arena = prog.acquire()
        try:
            outs = list(prog.forward(arena, list(arrays), rc, True))
        except BaseException:
            prog.release(arena)
            raise
        return outs, (prog, arena)

    @staticmethod
    def backward(handle, rc, ograds):
        """Gradients (raw arrays or None) of every input of a kept run from its output
        gradients; releases the run's buffers."""
        prog, arena = handle
        try:
            mask = (True,) * prog.ninputs
            return list(prog.backward(arena, mask, list(ograds), None, rc, False))
        finally:
            prog.release(arena)

    # -- replaying a forward call for its gradient ------------------------------------------
    def remember(self, rc, state, outputs):
        """Note how a forward call ran (training flag, random state before it), keyed by its
        first output, so the gradient's replay draws the same random numbers (Dropout)."""
        if not outputs:
            return
        try:
            ref = weakref.ref(outputs[0])
        except TypeError:
            return
        calls = [c for c in self.calls if c[0]() is not None][-15:]
        calls.append((ref, (rc.is_train, state)))
        self.calls = calls

    def recall(self, first_output):
        for ref, info in reversed(self.calls):
            if ref() is first_output:
                return info
        return None

    # -- inference ------------------------------------------------------------------------------
    def infer(self, k, what, known):
        """(input values, output values) of subgraph ``k`` given values (shapes or dtypes,
        None when unknown) for its inputs, by the subgraph's own inference."""
        key = (k, what, tuple(known))
        hit = self.inferred.get(key)
        if hit is not None:
            return hit
        from ..executor.infer import infer_graph
        g = self.graphs[k]
        given = {n.name: v for n, v in zip(self.inputs[k], known) if v is not None}
        values, _ = infer_graph(g, what, given)
        ins = [values.get((id(n), 0)) for n in self.inputs[k]]
        outs = [values.get((id(n), i)) for n, i in g._outputs]
        if len(self.inferred) > 256:
            self.inferred.clear()
        self.inferred[key] = (ins, outs)
        return ins, outs


def attach_subgraphs(op, parsed, graphs, name):
    """``parsed`` with the subgraphs of a control flow node added (checked against the
    node's parameters); ``name`` is the node's, for messages."""
    want = SUBGRAPH_COUNTS.get(op.name)
    if want is None:
        raise MXNetError(f"node {name!r}: operator {op.name} does not take subgraphs, but "
                         f"{len(graphs)} were given")
    if len(graphs) != want:
        raise MXNetError(f"node {name!r}: {op.name} takes {want} subgraph(s), got {len(graphs)}")
    holder = SubgraphHolder(graphs)
    _check_layout(op.name, parsed, holder, name)
    return dict(parsed, **{_KEY: holder})


def _check_layout(opname, a, h, name):
    def bad(msg):
        raise MXNetError(f"{opname} node {name!r}: {msg}")

    def within(locs, n, what):
        for loc in locs:
            if not 0 <= loc < n:
                bad(f"{what} {list(locs)} refers to position {loc}, but there are only {n}")

    if opname == "_foreach":
        n = h.num_inputs(0)
        locs = a["in_data_locs"] + a["in_state_locs"] + a["remain_locs"]
        if sorted(locs) != list(range(n)):
            bad(f"in_data_locs, in_state_locs and remain_locs ({locs}) must name each of the "
                f"body's {n} inputs once")
        if h.num_outputs(0) != a["num_outputs"]:
            bad(f"the body has {h.num_outputs(0)} outputs but num_outputs={a['num_outputs']}")
    elif opname == "_while_loop":
        nin = a["num_args"] - 2
        within(a["cond_input_locs"], nin, "cond_input_locs")
        within(a["func_input_locs"], nin, "func_input_locs")
        if len(a["cond_input_locs"]) != h.num_inputs(0):
            bad(f"the condition has {h.num_inputs(0)} inputs but cond_input_locs lists "
                f"{len(a['cond_input_locs'])}")
        if len(a["func_input_locs"]) != h.num_inputs(1):
            bad(f"the body has {h.num_inputs(1)} inputs but func_input_locs lists "
                f"{len(a['func_input_locs'])}")
        within(a["func_var_locs"], h.num_inputs(1), "func_var_locs")
        if h.num_outputs(0) != 1:
            bad(f"the condition must have one output, it has {h.num_outputs(0)}")
        if h.num_outputs(1) != a["num_outputs"]:
            bad(f"the body has {h.num_outputs(1)} outputs but num_outputs={a['num_outputs']}")
    else:
        nin = a["num_args"] - 3
        for key, k in (("cond_input_locs", 0), ("then_input_locs", 1), ("else_input_locs", 2)):
            within(a[key], nin, key)
            if len(a[key]) != h.num_inputs(k):
                bad(f"subgraph {k} has {h.num_inputs(k)} inputs but {key} lists {len(a[key])}")
        if h.num_outputs(0) != 1:
            bad(f"the predicate must have one output, it has {h.num_outputs(0)}")
        for k in (1, 2):
            if h.num_outputs(k) != a["num_outputs"]:
                bad(f"branch {k} has {h.num_outputs(k)} outputs but "
                    f"num_outputs={a['num_outputs']}")


def _holder(opname, attrs):
    h = attrs.get(_KEY)
    if h is None:
        raise MXNetError(f"{opname}: this node has no subgraph; build it with "
                         f"mx.sym.contrib.{opname.strip('_')} (or load it from -symbol.json), "
                         "it cannot be called directly")
    return h


# ---------------------------------------------------------------------------------------------
# helpers

def _locs(v):
    if v is None:
        return []
    if isinstance(v, (int, np.integer)):
        return [int(v)]
    return [int(x) for x in v]


def _merge(what, a, b, opname, where):
    """The more known of two partial values (shapes with None dims, or dtypes)."""
    if a is None:
        return b
    if b is None:
        return a
    if what == "type":
        if np.dtype(a) != np.dtype(b):
            raise MXNetError(f"{opname}: dtype of {where} is inconsistent: {np.dtype(a)} vs "
                             f"{np.dtype(b)}")
        return a
    a, b = tuple(a), tuple(b)
    if len(a) != len(b):
        raise MXNetError(f"{opname}: shape of {where} is inconsistent: {a} vs {b}")
    out = []
    for x, y in zip(a, b):
        if x is not None and y is not None and x != y:
            raise MXNetError(f"{opname}: shape of {where} is inconsistent: {a} vs {b}")
        out.append(x if x is not None else y)
    return tuple(out)


def _lead(n, s):
    """Shape ``s`` with a leading dimension ``n`` (None when ``s`` is unknown)."""
    return None if s is None else (n,) + tuple(s)


def _raw(x):
    x.wait_to_read()
    return x._data


def _is_symbolic(arrays):
    from ..ndarray.ndarray import NDArray
    return any(a is not None and not isinstance(a, NDArray) for a in arrays)


def _rng_state(rc):
    try:
        return rc.backend.rng.bit_generator.state
    except AttributeError:   # a generator whose state cannot be read: replays draw anew
        return None


class _Replay:
    """The run context of a gradient's replay of the forward call that made ``outputs``:
    its training flag, and while active its random state."""

    def __init__(self, h, ctx, outputs):
        from ..ndarray import ndarray as _ndm
        info = h.recall(_raw(outputs[0])) if outputs else None
        training, self.state = info if info is not None else (True, None)
        self.rc = _ndm._run_context(ctx, training)
        self.saved = None

    def __enter__(self):
        if self.state is not None:
            self.saved = _rng_state(self.rc)
            self.rc.backend.rng.bit_generator.state = self.state
        return self.rc

    def __exit__(self, *exc):
        if self.saved is not None:
            self.rc.backend.rng.bit_generator.state = self.saved


def _grad_context(opname, inputs, outputs, ograds):
    if _is_symbolic(list(inputs) + list(outputs) + list(ograds)):
        # the loop length and the branch taken depend on values: no symbolic rule
        raise MXNetError(f"{opname}: the gradient runs on concrete arrays only")
    for k, (o, g) in enumerate(zip(outputs, ograds)):
        if tuple(o.shape) != tuple(g.shape):
            raise MXNetError(f"{opname}: the gradient of output {k} has shape {tuple(g.shape)}, "
                             f"but the output has shape {tuple(o.shape)}")
    from ..ndarray import ndarray as _ndm
    return inputs[0].context, _ndm._new


def _zeros_like(xp, a):
    return xp.zeros(a.shape, dtype=a.dtype)


def _scalar_true(xp, v, opname):
    if v.size != 1:
        raise MXNetError(f"{opname}: the condition must give one value, got shape "
                         f"{tuple(v.shape)}")
    return bool(v.reshape(-1)[0].item())


# ---------------------------------------------------------------------------------------------
# _foreach

def _foreach_split(a, arrays):
    nd, ns = len(a["in_data_locs"]), len(a["in_state_locs"])
    return arrays[:nd], arrays[nd:nd + ns], arrays[nd + ns:]


def _foreach_feed(a, h, remain):
    feed = [None] * h.num_inputs(0)
    for loc, r in zip(a["remain_locs"], remain):
        feed[loc] = r
    return feed


def _foreach_len(a, data):
    if not data:
        raise MXNetError("_foreach: the loop needs at least one sequence to iterate over")
    n = data[0].shape[0] if data[0].ndim else None
    for k, d in enumerate(data):
        if d.ndim == 0 or d.shape[0] != n:
            raise MXNetError(f"_foreach: every sequence must have the same length along axis 0; "
                             f"sequence 0 has shape {tuple(data[0].shape)}, sequence {k} has "
                             f"{tuple(d.shape)}")
    if n == 0:
        raise MXNetError("_foreach: the sequences are empty along axis 0 (shape "
                         f"{tuple(data[0].shape)}); a loop of zero steps is not supported")
    return n


def _foreach_compute(rc, a, *arrays):
    h = _holder("_foreach", a)
    data, states, remain = _foreach_split(a, arrays)
    steps = _foreach_len(a, data)
    feed = _foreach_feed(a, h, remain)
    nout = a["num_out_data"]
    rng = _rng_state(rc)
    per_step = []
    for t in range(steps):
        for loc, d in zip(a["in_data_locs"], data):
            feed[loc] = d[t]
        for loc, s in zip(a["in_state_locs"], states):
            feed[loc] = s
        res = h.run(0, rc, feed)
        per_step.append(res[:nout])
        states = res[nout:]
    xp = rc.xp
    stacked = [xp.stack([step[j] for step in per_step], axis=0) for j in range(nout)]
    result = tuple(stacked) + tuple(states)
    h.remember(rc, rng, result)
    return result


def _foreach_grad(F, a, inputs, outputs, ograds):
    ctx, new = _grad_context("_foreach", inputs, outputs, ograds)
    h = _holder("_foreach", a)
    raw = [_raw(x) for x in inputs]
    data, states, remain = _foreach_split(a, raw)
    steps = _foreach_len(a, data)
    feed = _foreach_feed(a, h, remain)
    nout = a["num_out_data"]
    kept = []
    with _Replay(h, ctx, outputs) as rc:
        for t in range(steps):
            for loc, d in zip(a["in_data_locs"], data):
                feed[loc] = d[t]
            for loc, s in zip(a["in_state_locs"], states):
                feed[loc] = s
            res, handle = h.run_kept(0, rc, feed)
            kept.append(handle)
            states = res[nout:]
    xp = rc.xp
    og = [_raw(g) for g in ograds]
    g_states = og[nout:]
    g_data = [_zeros_like(xp, d) for d in data]
    g_remain = [None] * len(remain)
    for t in reversed(range(steps)):
        res = h.backward(kept[t], rc, [g[t] for g in og[:nout]] + list(g_states))
        kept[t] = None
        for k, loc in enumerate(a["in_data_locs"]):
            if res[loc] is not None:
                g_data[k][t] = res[loc]
        g_states = [res[loc] if res[loc] is not None else _zeros_like(xp, s)
                    for loc, s in zip(a["in_state_locs"], g_states)]
        for k, loc in enumerate(a["remain_locs"]):
            r = res[loc]
            if r is not None:
                g_remain[k] = r.copy() if g_remain[k] is None else g_remain[k] + r
    g_remain = [_zeros_like(xp, r) if g is None else g for g, r in zip(g_remain, remain)]
    return [new(g, ctx) for g in g_data + list(g_states) + g_remain]


def _foreach_infer(what):
    def rule(a, ins, outs):
        h = _holder("_foreach", a)
        nd, ns = len(a["in_data_locs"]), len(a["in_state_locs"])
        nout = a["num_out_data"]
        n = None
        if what == "shape":
            for s in list(ins[:nd]) + list(outs[:nout]):
                if s is not None and len(s) and s[0] is not None:
                    n = s[0]
        feed = [None] * h.num_inputs(0)
        for k, loc in enumerate(a["in_data_locs"]):
            s = ins[k]
            feed[loc] = (None if s is None or not len(s) else tuple(s[1:])) \
                if what == "shape" else s
        for k, loc in enumerate(a["in_state_locs"]):
            feed[loc] = _merge(what, ins[nd + k], outs[nout + k], "_foreach", f"state {k}")
        for k, loc in enumerate(a["remain_locs"]):
            feed[loc] = ins[nd + ns + k]
        vin, vout = h.infer(0, what, feed)
        new_ins = list(ins)
        for k, loc in enumerate(a["in_data_locs"]):
            new_ins[k] = _lead(n, vin[loc]) if what == "shape" else vin[loc]
        states = []
        for k, loc in enumerate(a["in_state_locs"]):
            s = _merge(what, vin[loc], vout[nout + k], "_foreach",
                       f"state {k} (its initial value vs the body's new value)")
            new_ins[nd + k] = s
            states.append(s)
        for k, loc in enumerate(a["remain_locs"]):
            new_ins[nd + ns + k] = vin[loc]
        data_outs = [_lead(n, v) if what == "shape" else v for v in vout[:nout]]
        return new_ins, data_outs + states, []
    return rule


def _foreach_inputs(a):
    nd, ns = len(_locs(a.get("in_data_locs"))), len(_locs(a.get("in_state_locs")))
    nr = a["num_args"] - 1 - nd - ns
    return ([f"data{i}" for i in range(nd)] + [f"state{i}" for i in range(ns)]
            + [f"free{i}" for i in range(max(nr, 0))])


def _foreach_check(opname, a):
    for key in ("in_data_locs", "in_state_locs", "remain_locs"):
        a[key] = _locs(a[key])
    n = len(a["in_data_locs"]) + len(a["in_state_locs"]) + len(a["remain_locs"])
    if n != a["num_args"] - 1:
        raise MXNetError(f"{opname}: num_args={a['num_args']} must be 1 (the body) plus the "
                         f"{n} inputs that in_data_locs, in_state_locs and remain_locs place")
    if a["num_outputs"] != a["num_out_data"] + len(a["in_state_locs"]):
        raise MXNetError(f"{opname}: num_outputs={a['num_outputs']} must be num_out_data="
                         f"{a['num_out_data']} plus the {len(a['in_state_locs'])} states")


_LOCS = "the positions of subgraph inputs (a list of ints)"

register("_foreach", _foreach_compute,
         params=(Param("num_args", "int", doc="the node's inputs plus one (the body)"),
                 Param("num_outputs", "int", doc="stacked outputs plus states"),
                 Param("num_out_data", "int", doc="how many body outputs are stacked"),
                 Param("in_data_locs", "any", doc=_LOCS),
                 Param("in_state_locs", "any", doc=_LOCS),
                 Param("remain_locs", "any", doc=_LOCS)),
         inputs=_foreach_inputs, num_outputs=lambda a: a["num_outputs"],
         infer_shape=_foreach_infer("shape"), infer_type=_foreach_infer("type"),
         gradient=_foreach_grad, attr_check=_foreach_check, nd_hidden=True,
         doc="Run a loop body (a subgraph) over axis 0 of the sequences, threading states; "
             "built by mx.sym.contrib.foreach.")


# ---------------------------------------------------------------------------------------------
# _while_loop

def _while_vars(a):
    """Node input index of each loop variable."""
    return [a["func_input_locs"][p] for p in a["func_var_locs"]]


def _while_forward(rc, a, h, arrays, keep):
    cur = list(arrays)
    var_idx = _while_vars(a)
    nout = a["num_out_data"]
    per_step, kept, feeds = [], [], []
    while len(per_step) < a["max_iterations"]:
        c = h.run(0, rc, [cur[i] for i in a["cond_input_locs"]])[0]
        if not _scalar_true(rc.xp, c, "_while_loop"):
            break
        feed = [cur[i] for i in a["func_input_locs"]]
        if keep:
            res, handle = h.run_kept(1, rc, feed)
            kept.append(handle)
        else:
            res = h.run(1, rc, feed)
        feeds.append(feed)
        for k, (i, v) in enumerate(zip(var_idx, res[nout:])):
            if tuple(v.shape) != tuple(cur[i].shape) or v.dtype != cur[i].dtype:
                raise MXNetError(f"_while_loop: loop variable {k} changed from "
                                 f"{tuple(cur[i].shape)} {np.dtype(cur[i].dtype)} to "
                                 f"{tuple(v.shape)} {np.dtype(v.dtype)} in step "
                                 f"{len(per_step)}; it must keep its shape and dtype")
            cur[i] = v
        per_step.append(res[:nout])
    return per_step, [cur[i] for i in var_idx], kept, feeds


def _while_compute(rc, a, *arrays):
    h = _holder("_while_loop", a)
    rng = _rng_state(rc)
    per_step, final, _, _ = _while_forward(rc, a, h, arrays, False)
    xp = rc.xp
    nout = a["num_out_data"]
    m = a["max_iterations"]
    if per_step:
        infos = [(tuple(o.shape), o.dtype) for o in per_step[0]]
    else:   # no step ran: the outputs' shapes come from inference
        s_in = [tuple(arrays[i].shape) for i in a["func_input_locs"]]
        t_in = [np.dtype(arrays[i].dtype) for i in a["func_input_locs"]]
        _, shapes = h.infer(1, "shape", s_in)
        _, types = h.infer(1, "type", t_in)
        infos = []
        for j in range(nout):
            if shapes[j] is None or any(d is None for d in shapes[j]):
                raise MXNetError(f"_while_loop: the loop ran no step and the shape of step "
                                 f"output {j} cannot be inferred")
            infos.append((tuple(shapes[j]), types[j] or np.float32))
    outs = []
    for j, (shape, dtype) in enumerate(infos):
        buf = xp.zeros((m,) + shape, dtype=dtype)   # rows past the last step stay zero
        for t, step in enumerate(per_step):
            buf[t] = step[j]
        outs.append(buf)
    result = tuple(outs) + tuple(final)
    h.remember(rc, rng, result)
    return result


def _while_grad(F, a, inputs, outputs, ograds):
    ctx, new = _grad_context("_while_loop", inputs, outputs, ograds)
    h = _holder("_while_loop", a)
    raw = [_raw(x) for x in inputs]
    nout = a["num_out_data"]
    with _Replay(h, ctx, outputs) as rc:
        per_step, _, kept, feeds = _while_forward(rc, a, h, raw, True)
    xp = rc.xp
    og = [_raw(g) for g in ograds]
    var_pos = list(a["func_var_locs"])
    g_vars = list(og[nout:])
    grads = [None] * len(raw)
    for t in reversed(range(len(per_step))):
        res = h.backward(kept[t], rc, [g[t] for g in og[:nout]] + g_vars)
        kept[t] = None
        g_vars = [res[p] if res[p] is not None else _zeros_like(xp, feeds[t][p])
                  for p in var_pos]
        for p, i in enumerate(a["func_input_locs"]):
            if p in var_pos or res[p] is None:
                continue
            grads[i] = res[p].copy() if grads[i] is None else grads[i] + res[p]
    for i, g in zip(_while_vars(a), g_vars):
        grads[i] = g
    return [new(_zeros_like(xp, x) if g is None else g, ctx) for g, x in zip(grads, raw)]


def _while_infer(what):
    def rule(a, ins, outs):
        h = _holder("_while_loop", a)
        nout = a["num_out_data"]
        var_idx = _while_vars(a)
        cur = list(ins)
        for k, i in enumerate(var_idx):
            cur[i] = _merge(what, cur[i], outs[nout + k], "_while_loop", f"loop variable {k}")
        vin, vout = h.infer(1, what, [cur[i] for i in a["func_input_locs"]])
        for p, i in enumerate(a["func_input_locs"]):
            cur[i] = _merge(what, cur[i], vin[p], "_while_loop", f"input {i}")
        for k, i in enumerate(var_idx):
            cur[i] = _merge(what, cur[i], vout[nout + k], "_while_loop",
                            f"loop variable {k} (its initial value vs the body's new value)")
        cin, _ = h.infer(0, what, [cur[i] for i in a["cond_input_locs"]])
        for p, i in enumerate(a["cond_input_locs"]):
            cur[i] = _merge(what, cur[i], cin[p], "_while_loop", f"input {i}")
        m = a["max_iterations"]
        step = [_lead(m, v) if what == "shape" else v for v in vout[:nout]]
        return cur, step + [cur[i] for i in var_idx], []
    return rule


def _while_check(opname, a):
    for key in ("cond_input_locs", "func_input_locs", "func_var_locs"):
        a[key] = _locs(a[key])
    if a["max_iterations"] < 0:
        raise MXNetError(f"{opname}: max_iterations must be >= 0, got {a['max_iterations']}")
    if a["num_outputs"] != a["num_out_data"] + len(a["func_var_locs"]):
        raise MXNetError(f"{opname}: num_outputs={a['num_outputs']} must be num_out_data="
                         f"{a['num_out_data']} plus the {len(a['func_var_locs'])} loop variables")


register("_while_loop", _while_compute,
         params=(Param("num_args", "int", doc="the node's inputs plus two (the subgraphs)"),
                 Param("num_outputs", "int", doc="stacked step outputs plus loop variables"),
                 Param("num_out_data", "int", doc="how many body outputs are stacked"),
                 Param("max_iterations", "int", doc="the most steps; rows of each output"),
                 Param("cond_input_locs", "any", doc=_LOCS),
                 Param("func_input_locs", "any", doc=_LOCS),
                 Param("func_var_locs", "any", doc=_LOCS)),
         inputs=lambda a: [f"input{i}" for i in range(a["num_args"] - 2)],
         num_outputs=lambda a: a["num_outputs"],
         infer_shape=_while_infer("shape"), infer_type=_while_infer("type"),
         gradient=_while_grad, attr_check=_while_check, nd_hidden=True,
         doc="Run a body subgraph while a condition subgraph holds, at most max_iterations "
             "times; built by mx.sym.contrib.while_loop.")


# ---------------------------------------------------------------------------------------------
# _cond

def _cond_branch(rc, a, h, arrays):
    p = h.run(0, rc, [arrays[i] for i in a["cond_input_locs"]])[0]
    return (1, "then_input_locs") if _scalar_true(rc.xp, p, "_cond") else (2, "else_input_locs")


def _cond_compute(rc, a, *arrays):
    h = _holder("_cond", a)
    rng = _rng_state(rc)
    k, key = _cond_branch(rc, a, h, arrays)
    result = tuple(h.run(k, rc, [arrays[i] for i in a[key]]))
    h.remember(rc, rng, result)
    return result


def _cond_grad(F, a, inputs, outputs, ograds):
    ctx, new = _grad_context("_cond", inputs, outputs, ograds)
    h = _holder("_cond", a)
    raw = [_raw(x) for x in inputs]
    with _Replay(h, ctx, outputs) as rc:
        k, key = _cond_branch(rc, a, h, raw)
        _, handle = h.run_kept(k, rc, [raw[i] for i in a[key]])
    xp = rc.xp
    res = h.backward(handle, rc, [_raw(g) for g in ograds])
    grads = [None] * len(raw)
    for p, i in enumerate(a[key]):
        if res[p] is not None:
            grads[i] = res[p] if grads[i] is None else grads[i] + res[p]
    return [new(_zeros_like(xp, x) if g is None else g, ctx) for g, x in zip(grads, raw)]


def _cond_infer(what):
    def rule(a, ins, outs):
        h = _holder("_cond", a)
        cur = list(ins)
        results = list(outs)
        for k, key in ((1, "then_input_locs"), (2, "else_input_locs")):
            vin, vout = h.infer(k, what, [cur[i] for i in a[key]])
            for p, i in enumerate(a[key]):
                cur[i] = _merge(what, cur[i], vin[p], "_cond", f"input {i}")
            for j, v in enumerate(vout):
                results[j] = _merge(what, results[j], v, "_cond",
                                    f"output {j} (the then branch vs the else branch)")
        cin, _ = h.infer(0, what, [cur[i] for i in a["cond_input_locs"]])
        for p, i in enumerate(a["cond_input_locs"]):
            cur[i] = _merge(what, cur[i], cin[p], "_cond", f"input {i}")
        return cur, results, []
    return rule


def _cond_check(opname, a):
    for key in ("cond_input_locs", "then_input_locs", "else_input_locs"):
        a[key] = _locs(a[key])


register("_cond", _cond_compute,
         params=(Param("num_args", "int", doc="the node's inputs plus three (the subgraphs)"),
                 Param("num_outputs", "int", doc="outputs of each branch"),
                 Param("cond_input_locs", "any", doc=_LOCS),
                 Param("then_input_locs", "any", doc=_LOCS),
                 Param("else_input_locs", "any", doc=_LOCS)),
         inputs=lambda a: [f"input{i}" for i in range(a["num_args"] - 3)],
         num_outputs=lambda a: a["num_outputs"],
         infer_shape=_cond_infer("shape"), infer_type=_cond_infer("type"),
         gradient=_cond_grad, attr_check=_cond_check, nd_hidden=True,
         doc="Run the then or the else subgraph, as the predicate subgraph says; built by "
             "mx.sym.contrib.cond.")
