"""Static memory planning for a bound graph (section 3 of the MXNet paper).

Every output of every operator node is an *entry*. The planner walks a schedule of
steps, keeping for each entry the number of reads still to come:

- **in-place**: when an operator declares that output ``o`` may reuse input ``i``'s
  buffer (the registry's ``inplace`` pairs), the input is a planned intermediate, this
  step is its last reader, and both have the same byte size, the output takes the
  input's storage;
- **co-sharing**: an entry whose last reader has run returns its storage to a free pool;
  a later entry takes a free block whose size is within a factor ``match_range`` of its
  own (the block grows to the larger size), or gets a new block.

Graph outputs get dedicated buffers; variables (arguments and auxiliary states) and the
gradient arrays bound to them are owned by the caller. Switches, as in MXNet:
``MXNET_EXEC_ENABLE_INPLACE`` (default on) and ``NNVM_EXEC_MATCH_RANGE`` (default 16;
0 turns sharing off).

Two schedules are planned:

- **inference**: the forward steps in topological order;
- **training**: the forward steps, then the backward pass as 1.9.1's gradient graph would
  run it. The backward steps come from tracing each operator's registered gradient rule
  on placeholder symbols: the operators the rule composes become steps, and the forward
  inputs, outputs and output gradients it reads become their inputs. So an activation
  stays live until the last backward step that reads it has run, exactly what the rule
  depends on. A rule that cannot be traced is planned conservatively (one step reading
  every input, output and output gradient). Gradients reaching one entry from several
  consumers are summed as soon as the second one exists (in place when allowed), and a
  variable's final gradient is written into the caller's gradient array.

The training plan only reports sizes (training runs through autograd). Every plan also
carries ``peak_bytes``: the peak over the schedule of the bytes live at once (with the
plan's in-place reuse), a lower bound for any allocator on that schedule.
"""
from __future__ import annotations

import bisect
import math
import os

import numpy as np

__all__ = ["MemoryPlan", "plan_memory", "env_inplace", "env_match_range", "Schedule",
           "forward_schedule", "training_schedule", "symbol_schedule", "plan_symbol",
           "memory_report", "MODES"]

# the four planning modes: (name, enable_inplace, match_range or None for the default)
MODES = (("none", False, 0), ("inplace", True, 0), ("share", False, None), ("both", True, None))


def env_inplace() -> bool:
    """``MXNET_EXEC_ENABLE_INPLACE``: anything but 0/false/off leaves in-place reuse on."""
    v = os.environ.get("MXNET_EXEC_ENABLE_INPLACE", "1").strip().lower()
    return v not in ("0", "false", "off", "no")


def env_match_range() -> int:
    """``NNVM_EXEC_MATCH_RANGE``: size factor within which free blocks are reused."""
    try:
        return max(0, int(os.environ.get("NNVM_EXEC_MATCH_RANGE", "16")))
    except ValueError:
        return 16


class MemoryPlan:
    """Where each planned entry lives.

    ``storage[e]`` is the storage id of entry ``e`` (absent for entries the plan does
    not own); ``sizes[sid]`` the byte size of each storage block; ``inplace`` the
    (input entry, output entry) pairs that were reused in place; ``peak_bytes`` the
    most bytes live at once (dedicated outputs included).
    """

    def __init__(self):
        self.storage: dict = {}
        self.sizes: list = []
        self.inplace: list = []
        self.shared = 0
        self.naive_bytes = 0
        self.dedicated_bytes = 0
        self.peak_bytes = 0

    @property
    def planned_bytes(self) -> int:
        """Bytes of the shared pool (dedicated output buffers not included)."""
        return sum(self.sizes)

    @property
    def total_bytes(self) -> int:
        """Everything the executor allocates itself: the pool plus the output buffers
        (what 1.9.1's ``Total N MB allocated`` counts)."""
        return self.planned_bytes + self.dedicated_bytes

    def summary(self) -> str:
        mb = lambda b: b / float(1 << 20)
        return (f"Memory plan: {len(self.storage)} intermediate entries in {len(self.sizes)} "
                f"blocks, {self.planned_bytes} bytes planned vs {self.naive_bytes} naive "
                f"({mb(self.planned_bytes):.3f} MB vs {mb(self.naive_bytes):.3f} MB); "
                f"{len(self.inplace)} in-place, {self.shared} shared; outputs "
                f"{self.dedicated_bytes} bytes; peak live {self.peak_bytes} bytes")


class _Pool:
    """Free storage blocks ordered by size."""

    def __init__(self):
        self.keys: list = []   # sorted (size, sid)

    def put(self, size, sid):
        bisect.insort(self.keys, (size, sid))

    def take(self, size, match_range):
        """A free block within [size / match_range, size * match_range]: the smallest
        one at least as large as wanted, else the largest smaller one (it will grow)."""
        if not self.keys or match_range <= 0:
            return None
        lo, hi = size / match_range, size * match_range
        i = bisect.bisect_left(self.keys, (size, -1))
        if i < len(self.keys) and self.keys[i][0] <= hi:
            return self.keys.pop(i)[1]
        j = i - 1
        if j >= 0 and self.keys[j][0] >= lo:
            return self.keys.pop(j)[1]
        return None


def plan_memory(steps, nbytes, dedicated, external, enable_inplace=None, match_range=None):
    """Plan storage for the entries produced by ``steps``.

    ``steps``: (name, input entries, output entries, inplace pairs) per step in run
    order. A pair is (input position, output position), or (input position, output
    position, True) for an *identity* pair: the output is the input's bytes unchanged
    (a reshape), so it may share the input's storage even while others still read it.
    ``nbytes``: entry -> byte size (None when unknown: such entries are not planned).
    ``dedicated``: entries that keep their own buffer (graph outputs);
    ``external``: entries owned by the caller (variables, bound gradient arrays).

    In-place decisions and the peak are made in one walk over the steps. Blocks are
    assigned online as 1.9.1 does (a free list: freed blocks are reused by later entries
    within ``match_range``) and offline (largest entries first, each into the
    best-fitting block whose entries' lifetimes do not overlap its own), for every
    power-of-two range up to ``match_range`` (1.9.1's NNVM_AUTO_SEARCH_MATCH_RANGE);
    the plan with the fewest bytes is kept.
    """
    if enable_inplace is None:
        enable_inplace = env_inplace()
    if match_range is None:
        match_range = env_match_range()
    best = _assign(steps, nbytes, dedicated, external, enable_inplace, match_range)
    if enable_inplace and match_range > 0:
        # in-place reuse is an option, not a duty: a pure co-sharing plan sometimes packs
        # better (the lower bound stays the in-place walk's peak)
        alt = _assign(steps, nbytes, dedicated, external, False, match_range)
        if alt.planned_bytes < best.planned_bytes:
            alt.peak_bytes = best.peak_bytes
            best = alt
    return best


def _assign(steps, nbytes, dedicated, external, enable_inplace, match_range):
    online = _plan_online(steps, nbytes, dedicated, external, enable_inplace, match_range)
    best = online
    if match_range > 0:
        # the in-place decisions do not depend on the matching, so only the block
        # assignment is redone: online and offline, for each range up to match_range
        ranges = sorted({match_range} | {1 << k for k in range(8) if (1 << k) < match_range})
        for mr in ranges:
            cands = [_plan_offline(online, steps, nbytes, mr)]
            if mr != match_range:
                cands.append(_plan_online(steps, nbytes, dedicated, external, enable_inplace,
                                          mr))
            for cand in cands:
                if cand.planned_bytes < best.planned_bytes:
                    best = cand
    return best


def _plan_online(steps, nbytes, dedicated, external, enable_inplace, match_range):
    plan = MemoryPlan()
    refs: dict = {}
    for _, ins, _, _ in steps:
        for e in ins:
            refs[e] = refs.get(e, 0) + 1
    pool = _Pool()

    def owned(e):
        return e not in dedicated and e not in external and nbytes.get(e) is not None

    held: set = set()      # storage ids currently live
    live_users: dict = {}  # sid -> number of live entries on it
    live = [0]             # bytes live now (one count per storage block)
    peak = 0
    for _, ins, outs, inplace in steps:
        taken = set()
        if enable_inplace:
            for pair in inplace:
                i_pos, o_pos = pair[0], pair[1]
                identity = len(pair) > 2 and pair[2]
                if i_pos >= len(ins) or o_pos >= len(outs):
                    continue
                e_in, e_out = ins[i_pos], outs[o_pos]
                if not (owned(e_in) and owned(e_out)) or e_out in plan.storage:
                    continue
                if e_in in taken or nbytes[e_in] != nbytes[e_out]:
                    continue
                sid = plan.storage.get(e_in)
                if sid is None:
                    continue
                if not identity:   # this step must be the input's last reader, alone
                    if refs.get(e_in, 0) != 1 or ins.count(e_in) != 1 or \
                            live_users.get(sid, 0) != 1:
                        continue
                plan.storage[e_out] = sid
                taken.add(e_in)
                live_users[sid] += 1
                plan.inplace.append((e_in, e_out))
        for e in sorted(outs, key=lambda x: -(nbytes.get(x) or 0)):
            if e in dedicated and nbytes.get(e) is not None and e not in external:
                live[0] += nbytes[e]   # output buffers live from here to the end
            if not owned(e) or e in plan.storage:
                continue
            size = nbytes[e]
            sid = pool.take(size, match_range)
            if sid is None:
                sid = len(plan.sizes)
                plan.sizes.append(size)
            else:
                plan.sizes[sid] = max(plan.sizes[sid], size)
                plan.shared += 1
            plan.storage[e] = sid
            held.add(sid)
            live_users[sid] = live_users.get(sid, 0) + 1
            live[0] += size
        peak = max(peak, live[0])
        # inputs read for the last time free their storage (unless handed over in place)
        for e in ins:
            if e not in refs:
                continue
            refs[e] -= 1
            if refs[e] == 0:
                _drop(plan, e, nbytes, held, live_users, pool, live)
        # outputs nobody reads are dead at once
        for e in outs:
            if owned(e) and refs.get(e, 0) == 0:
                _drop(plan, e, nbytes, held, live_users, pool, live)
    plan.peak_bytes = peak
    seen = set()
    for e, b in nbytes.items():
        if b is None or e in external or e in seen:
            continue
        seen.add(e)
        if e in dedicated:
            plan.dedicated_bytes += b
        else:
            plan.naive_bytes += b
    return plan


def _drop(plan, e, nbytes, held, live_users, pool, live):
    sid = plan.storage.get(e)
    if sid is None:
        return
    live_users[sid] -= 1
    if live_users[sid] == 0 and sid in held:
        held.discard(sid)
        pool.put(plan.sizes[sid], sid)
        live[0] -= nbytes[e]


def _plan_offline(online, steps, nbytes, match_range):
    """Reassign ``online``'s entries to blocks knowing every lifetime in advance.

    Entries that share storage in place form one group living from its first producer
    to its last reader. Groups are placed largest first, each into the smallest block
    (within ``match_range``) holding no group whose lifetime overlaps, else a new one.
    """
    first, last = {}, {}
    for k, (_, ins, outs, _) in enumerate(steps):
        for e in outs:
            first.setdefault(e, k)
            last.setdefault(e, k)
        for e in ins:
            last[e] = k
    groups: dict = {}   # online storage chain -> its entries; in-place chains stay together
    parent = {}

    def find(e):
        while parent.get(e, e) != e:
            e = parent[e]
        return e

    for e_in, e_out in online.inplace:
        parent[find(e_out)] = find(e_in)
    for e in online.storage:
        groups.setdefault(find(e), []).append(e)
    items = []
    for members in groups.values():
        start = min(first.get(e, 0) for e in members)
        end = max(last.get(e, 0) for e in members)
        size = max(nbytes[e] for e in members)
        items.append((size, start, end, members))
    items.sort(key=lambda t: (-t[0], t[1]))
    plan = MemoryPlan()
    plan.inplace = list(online.inplace)
    plan.peak_bytes = online.peak_bytes
    plan.naive_bytes = online.naive_bytes
    plan.dedicated_bytes = online.dedicated_bytes
    spans: list = []   # per block: sorted (start, end) of its groups
    for size, start, end, members in items:
        best = None
        for sid, bsize in enumerate(plan.sizes):
            if bsize > size * match_range or (best is not None and bsize >= plan.sizes[best]):
                continue
            iv = spans[sid]
            j = bisect.bisect_left(iv, (start, -1))
            if j < len(iv) and iv[j][0] <= end:
                continue
            if j > 0 and iv[j - 1][1] >= start:
                continue
            best = sid
        if best is None:
            best = len(plan.sizes)
            plan.sizes.append(size)
            spans.append([])
        else:
            plan.shared += 1
        bisect.insort(spans[best], (start, end))
        for e in members:
            plan.storage[e] = best
    return plan


# ---------------------------------------------------------------------------------------------
# schedules: the steps to plan, their entries' sizes, and who owns what

class Schedule:
    """Steps in run order plus what the planner needs to know about their entries.

    ``steps``: (name, input entries, output entries, inplace pairs); ``nbytes``: entry ->
    byte size; ``dedicated``: graph outputs; ``external``: caller-owned entries.
    """

    def __init__(self, steps, nbytes, dedicated, external):
        self.steps = steps
        self.nbytes = nbytes
        self.dedicated = set(dedicated)
        self.external = set(external)

    def plan(self, enable_inplace=None, match_range=None):
        return plan_memory(self.steps, self.nbytes, self.dedicated, self.external,
                           enable_inplace, match_range)


def _nbytes(info):
    if info is None:
        return None
    shape, dtype = info
    if shape is None or dtype is None or any(d is None for d in shape):
        return None
    return int(math.prod(shape)) * np.dtype(dtype).itemsize


def _pairs(op, nout):
    # The executor computes each result out of place and then copies it into its planned
    # buffer, so reuse is safe for any operator; the registry's pairs say where it is
    # possible by the operator's meaning.
    return [p for p in op.inplace if p[1] < nout]


def _ignored(op, attrs):
    rule = op.ignored_inputs
    return set(rule(attrs)) if rule is not None else set()


def _read(op, attrs, ins):
    """The inputs whose values ``op`` reads (its registry's ignored_inputs dropped)."""
    skip = _ignored(op, attrs)
    if not skip:
        return list(ins)
    return [e for i, e in enumerate(ins) if i not in skip]


def forward_schedule(fwd, info, var_slots, heads):
    """The inference schedule. ``fwd``: (node, input entries, output entries) per
    operator node in topological order; ``info``: entry -> (shape, dtype);
    ``var_slots``: the variables' entries; ``heads``: the graph outputs' entries."""
    steps = []
    for node, ins, outs in fwd:
        read = _read(node.op, node.parsed, ins)
        pairs = _pairs(node.op, len(outs))
        if len(read) != len(ins):   # in-place positions refer to the full input list
            pairs = [(read.index(ins[p[0]]),) + tuple(p[1:]) for p in pairs
                     if p[0] < len(ins) and ins[p[0]] in read]
        steps.append((node.name, read, list(outs), pairs))
    nbytes = {e: _nbytes(info.get(e)) for _, _, outs in fwd for e in outs}
    return Schedule(steps, nbytes, set(heads) - set(var_slots), set(var_slots))


# -- gradient rules traced into templates --------------------------------------------------------

class _Template:
    """An operator's backward pass as steps over references.

    A reference is ``("in", i)``, ``("out", j)``, ``("og", j)`` (a forward input, output or
    output gradient) or ``("n", k, idx)`` (output ``idx`` of template node ``k``).
    ``nodes``: (op, parsed attrs, input refs, output infos); ``grads``: one reference or
    None per forward input.
    """

    __slots__ = ("nodes", "grads", "name")

    def __init__(self, nodes, grads, name):
        self.nodes, self.grads, self.name = nodes, grads, name


_TEMPLATES: dict = {}


def _attrs_key(attrs):
    return tuple(sorted((k, repr(v)) for k, v in attrs.items()))


def _conservative(op, in_info, out_info):
    """One opaque step reading everything the rule could read, writing every input
    gradient."""
    refs = [("in", i) for i in range(len(in_info))] + \
           [("out", j) for j in range(len(out_info))] + [("og", j) for j in range(len(out_info))]

    class _Opaque:
        name = f"{op.name}_backward(untraced)"
        inplace = ()
        ignored_inputs = None   # it may read every input

    node = (_Opaque, {}, refs, list(in_info))
    return _Template([node], [("n", 0, i) for i in range(len(in_info))], _Opaque.name)


def _gradient_template(op, attrs, in_info, out_info):
    key = (op.name, _attrs_key(attrs), tuple(in_info), tuple(out_info))
    tpl = _TEMPLATES.get(key)
    if tpl is None:
        try:
            tpl = _trace(op, attrs, in_info, out_info)
        except Exception:  # noqa: BLE001 - any rule we cannot trace is planned conservatively
            tpl = None
        if tpl is None:
            tpl = _conservative(op, in_info, out_info)
        _TEMPLATES[key] = tpl
    return tpl


def _placeholder_class():
    from ..symbol.symbol import Symbol

    class Placeholder(Symbol):
        """A variable that also answers ``shape``/``dtype`` as the NDArray it stands for
        would (gradient rules may read them)."""

        def __init__(self, outputs, shape, dtype):
            Symbol.__init__(self, outputs)
            self.shape = tuple(shape)
            self.dtype = np.dtype(dtype).type
            self.ndim = len(shape)
            self.size = int(math.prod(shape))
            self.context = self.ctx = None
            self.stype = "default"

    return Placeholder


class _ShapedOps:
    """``mx.sym`` as gradient rules see it while traced with ``shaped=True``: a result with
    one output also answers ``shape``/``dtype``/``size`` (inferred from what is known),
    and ``dtype=None`` means "not given" (as it does for mx.nd)."""

    def __init__(self, ops, known_s, known_t, placeholder):
        self._ops, self._s, self._t, self._ph = ops, known_s, known_t, placeholder

    def __getattr__(self, name):
        fn = getattr(self._ops, name)
        if not callable(fn):
            return fn

        def call(*args, **kw):
            if "dtype" in kw and kw["dtype"] is None:
                del kw["dtype"]
            return self._shaped(fn(*args, **kw))
        return call

    def _shaped(self, res):
        from ..symbol.symbol import Symbol
        from .infer import infer_graph
        if not isinstance(res, Symbol) or isinstance(res, self._ph) or len(res._outputs) != 1:
            return res
        try:
            shapes, _ = infer_graph(res, "shape", self._s)
            types, _ = infer_graph(res, "type", self._t)
        except Exception:  # noqa: BLE001 - the result just stays a plain Symbol
            return res
        node, i = res._outputs[0]
        shape, dtype = shapes.get((id(node), i)), types.get((id(node), i))
        if shape is None or dtype is None or any(d is None for d in shape):
            return res
        return self._ph(res._outputs, shape, dtype)


def _trace(op, attrs, in_info, out_info, shaped=False):
    """Run ``op.gradient`` with ``F = mx.sym`` on placeholders; None when it cannot be
    planned exactly. With ``shaped``, intermediate results know their shapes too (see
    :class:`_ShapedOps`), so rules reading them can be traced."""
    from ..attribute import AttrScope
    from ..name import NameManager
    from ..symbol import op as sym_ops
    from ..symbol.symbol import Symbol, var
    from .infer import infer_graph
    from ..symbol.graph import topo_order
    Placeholder = _placeholder_class()

    def ph(name, info):
        return Placeholder(var(name)._outputs, info[0], info[1])

    with NameManager(), AttrScope():
        ins = [ph(f"in{i}", s) for i, s in enumerate(in_info)]
        outs = [ph(f"out{j}", s) for j, s in enumerate(out_info)]
        ogs = [ph(f"og{j}", s) for j, s in enumerate(out_info)]
        F = sym_ops
        if shaped:
            ks = {f"in{i}": s[0] for i, s in enumerate(in_info)}
            kt = {f"in{i}": s[1] for i, s in enumerate(in_info)}
            for j, s in enumerate(out_info):
                ks[f"out{j}"] = ks[f"og{j}"] = s[0]
                kt[f"out{j}"] = kt[f"og{j}"] = s[1]
            F = _ShapedOps(sym_ops, ks, kt, Placeholder)
        res = op.gradient(F, attrs, ins, outs, ogs)
    res = list(res) if isinstance(res, (list, tuple)) else [res]
    # as autograd pairs them: inputs past the rule's list (auxiliary states) get none
    res = (res + [None] * len(in_info))[:len(in_info)]
    heads = []
    for r in res:
        if r is None:
            continue
        if not isinstance(r, Symbol) or len(r._outputs) != 1:
            return None
        heads.append(r._outputs[0])
    order = topo_order(heads)
    refs_of_var = {}
    for i in range(len(in_info)):
        refs_of_var[f"in{i}"] = ("in", i)
    for j in range(len(out_info)):
        refs_of_var[f"out{j}"] = ("out", j)
        refs_of_var[f"og{j}"] = ("og", j)
    for n in order:
        if n.op is None and n.name not in refs_of_var:
            return None   # the rule made a variable of its own
        if n.op is not None and n.op.infer_shape is None and not shaped:
            return None   # shape inference would have to run the operator
    known_s = {f"in{i}": s[0] for i, s in enumerate(in_info)}
    known_t = {f"in{i}": s[1] for i, s in enumerate(in_info)}
    for j, s in enumerate(out_info):
        known_s[f"out{j}"] = known_s[f"og{j}"] = s[0]
        known_t[f"out{j}"] = known_t[f"og{j}"] = s[1]
    group = Symbol(heads)
    shapes, _ = infer_graph(group, "shape", known_s)
    types, _ = infer_graph(group, "type", known_t)
    where = {}
    nodes = []
    for n in order:
        if n.op is None:
            where[id(n)] = refs_of_var[n.name]
            continue
        k = len(nodes)
        where[id(n)] = k
        infos = []
        for i in range(n.num_outputs()):
            s, t = shapes.get((id(n), i)), types.get((id(n), i))
            if s is None or any(d is None for d in s):
                return None
            infos.append((tuple(s), np.dtype(t if t is not None else np.float32)))
        ins_refs = []
        for s, i in n.inputs:
            w = where[id(s)]
            ins_refs.append(w if isinstance(w, tuple) else ("n", w, i))
        nodes.append((n.op, n.parsed, ins_refs, infos))
    grads = []
    hi = iter(heads)
    for r in res:
        if r is None:
            grads.append(None)
            continue
        node, i = next(hi)
        w = where[id(node)]
        grads.append(w if isinstance(w, tuple) else ("n", w, i))
    return _Template(nodes, grads, op.name)


def training_schedule(fwd, info, var_slots, heads, grad_vars):
    """The training schedule: forward steps, then the backward steps of every operator
    that leads to a variable in ``grad_vars`` (entries), in reverse order."""
    info = dict(info)
    fwd_sched = forward_schedule(fwd, info, var_slots, heads)
    steps = list(fwd_sched.steps)
    nbytes = dict(fwd_sched.nbytes)
    external = set(var_slots)
    counter = [max([e for _, _, outs in fwd for e in outs] + list(var_slots) + [-1]) + 1]

    def new_entry(i):
        e = counter[0]
        counter[0] += 1
        info[e] = i
        nbytes[e] = _nbytes(i)
        return e

    # which entries carry a gradient back to a wanted variable
    needs = set(grad_vars)
    active = []
    for node, ins, outs in fwd:
        if node.op.gradient is not None and any(e in needs for e in ins):
            needs.update(outs)
            active.append(True)
        else:
            active.append(False)
    templates = {}
    contrib = {}
    for k, (node, ins, outs) in enumerate(fwd):
        if not active[k]:
            continue
        tpl = _gradient_template(node.op, node.parsed, [info.get(e) for e in ins],
                                 [info.get(e) for e in outs])
        templates[k] = tpl
        for e, g in zip(ins, tpl.grads):
            if g is not None and e in needs:
                contrib[e] = contrib.get(e, 0) + 1
    grad: dict = {}
    seen_contrib: dict = {}
    passed: set = set()   # entries already handed on as some gradient

    def add_grad(e, g, fresh):
        """One more gradient contribution ``g`` for entry ``e``; ``fresh`` when ``g`` was
        just made for this purpose (not another entry's gradient passed through)."""
        seen_contrib[e] = seen_contrib.get(e, 0) + 1
        last = seen_contrib[e] == contrib.get(e, 0) + heads.count(e)
        fresh = fresh and g not in passed
        passed.add(g)
        if e not in grad:
            grad[e] = g
            if last and fresh and e in grad_vars:
                external.add(g)   # written straight into the bound gradient array
            return
        s = new_entry(info.get(e))
        steps.append(("_grad_add", [grad[e], g], [s], [(0, 0), (1, 0)]))
        grad[e] = s
        if last and e in grad_vars:
            external.add(s)

    for h in heads:
        if h in needs:   # the head gradients are the caller's arrays
            g = new_entry(info.get(h))
            external.add(g)
            add_grad(h, g, False)
    for k in range(len(fwd) - 1, -1, -1):
        if not active[k]:
            continue
        node, ins, outs = fwd[k]
        tpl = templates[k]
        made = []
        og = {}

        def resolve(ref):
            kind = ref[0]
            if kind == "in":
                return ins[ref[1]]
            if kind == "out":
                return outs[ref[1]]
            if kind == "og":
                j = ref[1]
                if j not in og:
                    g = grad.get(outs[j])
                    if g is None:   # no gradient reached this output: zeros
                        g = new_entry(info.get(outs[j]))
                        steps.append(("zeros_like", [], [g], []))
                    og[j] = g
                return og[j]
            return made[ref[1]][ref[2]]

        for op, attrs, refs, infos in tpl.nodes:
            skip = _ignored(op, attrs)
            pairs = _pairs(op, len(infos))
            step_ins, pos = [], {}
            for i, r in enumerate(refs):
                if i not in skip:
                    pos[i] = len(step_ins)
                    step_ins.append(resolve(r))
            pairs = [(pos[p[0]],) + tuple(p[1:]) for p in pairs if p[0] in pos]
            step_outs = [new_entry(i) for i in infos]
            made.append(step_outs)
            steps.append((f"{node.name}_backward:{op.name}", step_ins, step_outs, pairs))
        for e, g in zip(ins, tpl.grads):
            if g is not None and e in needs:
                add_grad(e, resolve(g), g[0] == "n")
    # gradients of graph inputs end in the caller's arrays
    return Schedule(steps, nbytes, fwd_sched.dedicated, external)


# -- planning straight from a Symbol (no arrays are allocated) -------------------------------------

def symbol_schedule(sym, shapes, dtypes=None, grad_req="null"):
    """The schedule of ``sym`` bound with the given input shapes (a dict) and gradient
    requests (a string, list or dict as ``simple_bind`` takes them)."""
    from ..base import MXNetError
    from ..symbol.graph import aux_var_ids, topo_order
    from .infer import infer_shapes, infer_types
    sres = infer_shapes(sym, dict(shapes))
    if not sres.complete:
        raise MXNetError("memory plan: the given shapes do not determine every entry's shape")
    tres = infer_types(sym, dict(dtypes or {}))
    order = topo_order(sym._outputs)
    aux = aux_var_ids(order)
    slot_of, info, fwd, var_slots = {}, {}, [], []
    names = sym.list_arguments()
    arg_slot = {}
    n = 0
    for node in order:
        outs = []
        for i in range(node.num_outputs()):
            slot_of[(id(node), i)] = n
            t = tres.values.get((id(node), i))
            info[n] = (sres.values.get((id(node), i)), np.dtype(t if t is not None else
                                                                np.float32))
            outs.append(n)
            n += 1
        if node.op is None:
            var_slots.append(outs[0])
            if id(node) not in aux:
                arg_slot[node.name] = outs[0]
            continue
        fwd.append((node, [slot_of[(id(s), i)] for s, i in node.inputs], outs))
    heads = [slot_of[(id(h), i)] for h, i in sym._outputs]
    if isinstance(grad_req, str):
        reqs = {k: grad_req for k in names}
    elif isinstance(grad_req, (list, tuple)):
        reqs = dict(zip(names, grad_req))
    else:
        reqs = {k: grad_req.get(k, "null") for k in names}
    grad_vars = {arg_slot[k] for k, r in reqs.items() if r != "null" and k in arg_slot}
    if not grad_vars:
        return forward_schedule(fwd, info, var_slots, heads)
    return training_schedule(fwd, info, var_slots, heads, grad_vars)


def plan_symbol(sym, shapes, dtypes=None, grad_req="null", enable_inplace=None,
                match_range=None):
    """The memory plan of ``sym`` for the given input shapes, without binding it."""
    return symbol_schedule(sym, shapes, dtypes, grad_req).plan(enable_inplace, match_range)


def memory_report(sym, shapes, dtypes=None, grad_req="null"):
    """Bytes the executor would allocate under each mode of :data:`MODES`, and
    ``"lower_bound"``: the peak of live bytes over the schedule (with in-place reuse)."""
    sched = symbol_schedule(sym, shapes, dtypes, grad_req)
    out = {}
    for name, inplace, match in MODES:
        p = sched.plan(inplace, env_match_range() if match is None else match)
        out[name] = p.total_bytes
        if name == "both":
            out["lower_bound"] = p.peak_bytes
    return out
