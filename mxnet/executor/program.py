"""Compiled graphs: a traced graph run as one unit, forward and backward, over kept buffers.

A :class:`GraphProgram` is what a hybridized block runs (MXNet's CachedOp) and what the
Executor trains with. It is built once per input signature (shapes, dtypes, device).

- **Forward** runs the operator steps in topological order on raw device arrays. A kernel
  that accepts ``out`` (``OpDef.accepts_out``) writes into a buffer the program keeps from
  one call to the next; other kernels return fresh arrays, kept as they are (no copy).
  A graph output is written again only into an array handed out earlier that nothing
  references any more (its reference count says so); else it is a fresh array.
- **Backward** is built once per set of inputs that need a gradient, at the first backward,
  from the registry's gradient rules traced on placeholders with ``F = mx.sym`` (the
  templates the memory planner uses, :mod:`.plan`), with the ``need_grad`` flags the
  imperative tape would pass. The result is one flat list of steps: the rules' operators,
  gradient sums where an entry has several consumers, zeros for outputs no gradient
  reached, and, for the rare rule that cannot be traced, the rule itself run on NDArrays.
  Exact peephole rewrites (:mod:`.fusion`) drop identities and fuse a few pairs of steps;
  zero gradients are not added and steps nobody reads are dropped. Intermediate gradient
  entries are laid out by the memory planner (in-place reuse and size-pooled sharing); a
  step whose in-place input is a fresh array nothing else holds writes over it. An input's
  final gradient is written straight into that input's gradient buffer when the tape says
  nothing else contributes to it (``write``), or added to it (``add``).

Every recorded call holds an *arena*, the buffers of its forward values and its backward,
until its tape node is freed: two recorded calls before one backward never overwrite each
other. Arenas are pooled, so a training loop reuses the same buffers every step.

With ``create_graph=True`` (higher-order gradients) backward rebuilds the per-operator tape
from the saved forward values and runs the registry's rules on it while recording, exactly
as the imperative path does.
"""
from __future__ import annotations

import sys

import numpy as np

from .._mode import mode as _mode
from ..base import MXNetError
from ..ndarray import ndarray as _ndm
from ..ndarray.tape import WRITTEN, FusedNode, TapeNode, live_entry
from ..backend import get_backend
from ..operator._common import elementwise_sum_order
from ..operator.registry import OpDef, RunContext, get_op
from .fusion import fuse_backward
from .plan import _attrs_key, _ignored, _nbytes, _trace, plan_memory

__all__ = ["GraphProgram", "RecordedCall", "accepts_out", "run"]

_OP, _RULE, _ZEROS, _RAISE = 0, 1, 2, 3

# idle arenas a program keeps (a loop calling one block several times per step needs as
# many as calls; more are rarely reused, and each holds a full set of buffers)
_MAX_FREE_ARENAS = 4


def accepts_out(op):
    """Whether ``op``'s kernel takes ``out=`` (a list with one array or None per output)."""
    return bool(getattr(op, "accepts_out", False))


class _Step:
    """One step: ``kind`` (operator, rule, zeros, raise), the operator and its parsed attrs,
    input and output entries. ``check`` lists the input positions whose values may live in
    a buffer that later steps reuse (a result viewing one of them is copied). A rule step
    keeps the ``need_grad`` flags in ``need`` and its forward input count in ``nin``; for a
    forward step ``nin`` is 1 when it writes a graph output. ``dyn``: the (input, output)
    pairs a backward step may run in place on, when the input's array turns out unshared."""

    __slots__ = ("kind", "op", "attrs", "ins", "outs", "out_ok", "name", "check", "need", "nin",
                 "dyn")

    def __init__(self, kind, op, attrs, ins, outs, name):
        self.kind = kind
        self.op = op
        self.attrs = attrs
        self.ins = list(ins)
        self.outs = list(outs)
        self.out_ok = kind in (_OP, _ZEROS) and accepts_out(op)
        self.name = name
        self.check = ()
        self.need = None
        self.nin = 0
        self.dyn = None


def _may_share(xp, a, b):
    try:
        return bool(xp.may_share_memory(a, b))
    except Exception:  # noqa: BLE001 - when in doubt, assume they overlap
        return True


def _unalias(xp, r, ins, check, buf):
    """``r``, or a copy of it when it may view an input whose buffer is reused later."""
    for i in check:
        a = ins[i]
        if r is a or (getattr(r, "base", None) is not None and _may_share(xp, r, a)):
            if buf is not None and buf.shape == r.shape and buf.dtype == r.dtype:
                xp.copyto(buf, r)
                return buf
            return r.copy()
    return r


def _run_step(st, rc, ins, bufs):
    """Run one operator step; returns its results as a tuple."""
    if st.out_ok and bufs is not None:
        res = st.op.compute(rc, st.attrs, *ins, out=[bufs[s] for s in st.outs])
    else:
        res = st.op.compute(rc, st.attrs, *ins)
    if type(res) is not tuple and type(res) is not list:
        return (res,)
    return res


def _kernel_error(st, ins, e):
    shown = ", ".join(f"{tuple(a.shape)} {a.dtype}" for a in ins if hasattr(a, "shape"))
    return MXNetError(f"{st.op.name} ({st.name}): {type(e).__name__}: {e} "
                      f"(inputs: {shown or 'none'})")


def _views(xp, plan, info, wanted):
    """Arrays for the planned entries in ``wanted``: views into one block per storage id."""
    blocks = {}
    views = {}
    for e in wanted:
        sid = plan.storage.get(e)
        if sid is None or info.get(e) is None:
            continue
        if sid not in blocks:
            blocks[sid] = xp.empty(max(plan.sizes[sid], 1), dtype=np.uint8)
        shape, dtype = info[e]
        n = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        views[e] = blocks[sid][:n].view(dtype).reshape(shape)
    return views


class _Arena:
    """The buffers of one call: forward values, kept forward buffers, backward buffers."""

    __slots__ = ("vals", "fbuf", "ibuf", "bbuf", "rbuf", "hbuf")

    def __init__(self, n):
        self.vals = [None] * n
        self.hbuf = {}             # graph output entry -> arrays handed out before
        self.fbuf = None           # kept buffers of out-capable forward entries (training)
        self.ibuf = None           # inference: planned views (None until planned)
        self.bbuf = {}             # backward plan key -> planned views of its entries
        self.rbuf = {}             # backward plan key -> kept buffers of final gradients


class _Backward:
    """The backward plan for one set of inputs needing gradients."""

    __slots__ = ("steps", "n", "hg", "final", "final_set", "direct", "kept_finals",
                 "views_wanted", "plan", "info")


_TEMPLATES: dict = {}


def _template(op, attrs, in_info, out_info, need):
    """The traced gradient template of ``op`` (None when it cannot be traced)."""
    key = (op.name, op.gradient, _attrs_key(attrs), tuple(in_info), tuple(out_info),
           tuple(need))
    if key in _TEMPLATES:
        return _TEMPLATES[key]
    prev = _mode.need_grad
    _mode.need_grad = list(need)
    try:
        tpl = _trace(op, attrs, in_info, out_info, shaped=True)
    except Exception:  # noqa: BLE001 - such a rule runs as is, on NDArrays
        tpl = None
    finally:
        _mode.need_grad = prev
    _TEMPLATES[key] = tpl
    return tpl


class GraphProgram:
    """A graph compiled for one input signature.

    ``order``: the graph's nodes in topological order; ``heads``: its (node, index)
    outputs; ``var_pos``: id(variable node) -> position of its array in the input list
    that ``forward`` takes; ``ctx``: the device.

    ``last_head_grad``: how backward treats an entry listed more than once among the
    outputs. False (a hybridized block, 1.9.1's CachedOp): each listing is an output of
    its own and their gradients add up. True (the Executor, 1.9.1's graph executor): the
    entry takes the gradient of its last listing only, the others are ignored.
    """

    def __init__(self, order, heads, var_pos, ctx, last_head_grad=False):
        slot_of = {}
        self.var_slots = []
        steps = []
        n = 0
        for node in order:
            if node.op is None:
                slot_of[(id(node), 0)] = n
                self.var_slots.append((n, var_pos[id(node)]))
                n += 1
                continue
            outs = list(range(n, n + node.num_outputs()))
            n += len(outs)
            for i, s in enumerate(outs):
                slot_of[(id(node), i)] = s
            steps.append(_Step(_OP, node.op, node.parsed,
                               [slot_of[(id(s), i)] for s, i in node.inputs], outs, node.name))
        self.ctx = ctx
        self.nslots = n
        self.fsteps = steps
        self.states = None   # per-node operator states kept across calls (RunContext.states)
        self.heads = [slot_of[(id(h), i)] for h, i in heads]
        self.last_head_grad = bool(last_head_grad)
        # positions of outputs whose entry an earlier output lists already (run() hands
        # them out as copies: 1.9.1's CachedOp gives each output its own array)
        self.dup_heads = frozenset(j for j, h in enumerate(self.heads)
                                   if h in self.heads[:j])
        self.var_of = {s: p for s, p in self.var_slots}
        self.ninputs = 1 + max((p for _, p in self.var_slots), default=-1)
        self._head_set = set(self.heads)
        self._writes = {e for st in steps if st.out_ok for e in st.outs}
        for st in steps:   # forward steps: ``nin`` flags a step writing a graph output
            st.nin = int(any(e in self._head_set for e in st.outs))
        self._free: list = []
        self._bplans: dict = {}
        self._iplan = None         # (plan, views wanted) of the inference pass
        self._icheck = None        # per forward step: the inference plan's alias checks
        self._info = None          # entry -> (shape, dtype), from the first run
        self._fresh_heads = ()     # see set_info
        self._rows_consumers = None   # see grad_rows
        # a creation operator whose legacy ``shape`` leaves dimensions at 0: the first
        # forward takes the entries' shapes from inference over the graph (see infer_info)
        self._open = _open_creators(steps)
        self._graph = (heads, slot_of, [(node, var_pos[id(node)]) for node in order
                                        if node.op is None]) if self._open else None

    def set_info(self, info):
        """Take the entries' (shape, dtype) from shape and type inference (``{entry: (shape,
        dtype)}``) instead of learning them from the first run: the kept buffers are laid
        out from the first call on, so a kernel writing into one writes the inferred shape.
        A graph output of an operator without inputs (a creation operator, whose legacy
        ``shape`` may leave dimensions at 0 for inference to fill) gets a new array of its
        inferred shape when no earlier one is free: such a kernel has nothing else to take
        the shape from."""
        self._info = dict(info)
        self._fresh_heads = frozenset(e for st in self.fsteps if st.out_ok and not st.ins
                                      for e in st.outs if e in self._head_set)

    def infer_info(self, inputs):
        """``{entry: (shape, dtype)}`` from shape and type inference over the graph, given
        the raw input arrays ``inputs`` (the signature this program was built for); entries
        inference leaves open are left out. Used at the first forward of a graph holding a
        creation operator with legacy 0 (unknown) dimensions in its ``shape``: as in 1.9.1,
        the operators consuming its array determine them."""
        from ..symbol import Symbol
        from .infer import infer_graph
        heads, slot_of, var_nodes = self._graph
        shapes, dtypes = {}, {}
        for node, p in var_nodes:
            a = inputs[p]
            shapes[node.name] = tuple(a.shape)
            dtypes[node.name] = np.dtype(a.dtype)
        sym = Symbol(list(heads))
        svals, _ = infer_graph(sym, "shape", shapes)
        tvals, _ = infer_graph(sym, "type", dtypes)
        info = {}
        for key, s in slot_of.items():
            shape, dtype = svals.get(key), tvals.get(key)
            if shape is not None and dtype is not None and all(d is not None for d in shape):
                info[s] = (tuple(int(d) for d in shape), np.dtype(dtype))
        return info

    # -- arenas -------------------------------------------------------------------------------
    def acquire(self):
        """A free arena (a new one when every arena is held by a recorded call)."""
        free = self._free
        return free.pop() if free else _Arena(self.nslots)

    def release(self, arena):
        arena.vals = [None] * self.nslots
        if len(self._free) < _MAX_FREE_ARENAS:   # beyond that, let the buffers go
            self._free.append(arena)

    # -- forward --------------------------------------------------------------------------------
    def forward(self, arena, inputs, rc, keep, monitor=None):
        """Run the forward steps on the raw arrays ``inputs``; returns the raw outputs.

        ``keep``: a recorded call whose values backward will read (every entry keeps its own
        buffer); otherwise the inference plan's shared buffers are used. ``monitor(k, ins,
        outs)``, when given, is called before step ``k`` runs with its inputs (``outs``
        None) and after it with its outputs (``ins`` None).
        """
        vals = arena.vals
        for s, p in self.var_slots:
            vals[s] = inputs[p]
        if self._info is None and self._open:   # 0-dim creators: shapes from inference
            self.set_info(self.infer_info(inputs))
        checks = None
        if keep:
            bufs = arena.fbuf
            if bufs is None and self._info is not None:
                bufs = arena.fbuf = self._training_bufs(rc.xp)
        else:
            bufs = arena.ibuf
            if bufs is None and self._info is not None:
                bufs = arena.ibuf = self._inference_views(rc.xp)
            if bufs is not None:
                checks = self._icheck
        xp = rc.xp
        hook = _ndm._prof_hook
        heads = self._head_set
        hbuf = arena.hbuf
        fresh = self._fresh_heads
        for k, st in enumerate(self.fsteps):
            ins = [vals[s] for s in st.ins]
            if monitor is not None:   # inputs are shown before the step may overwrite them
                monitor(k, ins, None)
            if hook is not None:
                t0 = _ndm._perf_ns()
            try:
                if st.nin and st.out_ok:   # writes a graph output: a free old one if any
                    out = [_free_output(hbuf.get(s)) if s in heads else
                           (None if bufs is None else bufs[s]) for s in st.outs]
                    if fresh:   # an operator without inputs: else a new one, inferred
                        out = [_new_output(xp, self._info.get(s)) if o is None and s in fresh
                               else o for s, o in zip(st.outs, out)]
                    res = st.op.compute(rc, st.attrs, *ins, out=out)
                    if type(res) is not tuple and type(res) is not list:
                        res = (res,)
                else:
                    res = _run_step(st, rc, ins, bufs)
            except MXNetError:
                raise
            except Exception as e:  # a kernel failed on these inputs
                raise _kernel_error(st, ins, e) from e
            if hook is not None:
                hook(st.op, self.ctx, t0, res[0] if len(res) == 1 else list(res))
            check = checks[k] if checks is not None else ()
            for s, r in zip(st.outs, res):
                if check and r is not bufs[s]:
                    r = _unalias(xp, r, ins, check, bufs[s])
                vals[s] = r
                if st.nin and s in heads and getattr(r, "base", 1) is None:
                    _keep_output(hbuf, s, r)
            if monitor is not None:
                monitor(k, None, [vals[s] for s in st.outs])
        if self._info is None:
            self._info = {s: (tuple(v.shape), np.dtype(v.dtype)) for s, v in enumerate(vals)
                          if v is not None and hasattr(v, "shape")}
        outs = []
        for h in self.heads:
            v = vals[h]
            if bufs is not None and h not in self.var_of and \
                    getattr(v, "base", None) is not None and _views_any(xp, v, bufs):
                v = v.copy()
            outs.append(v)
        return outs

    def _out_entries(self):
        """The forward entries that kernels write into kept buffers (outputs excluded)."""
        return [e for st in self.fsteps if st.out_ok for e in st.outs if e not in self._head_set]

    def _training_bufs(self, xp):
        """One buffer per entry written through ``out`` (a recorded call keeps every value)."""
        bufs = [None] * self.nslots
        for e in self._out_entries():
            i = self._info.get(e)
            if i is not None:
                bufs[e] = xp.empty(i[0], dtype=i[1])
        return bufs

    def _inference_views(self, xp):
        """Buffers of the inference pass: the memory plan of the forward steps, with arrays
        only for the entries of kernels that write into them."""
        info = self._info
        if self._iplan is None:
            sched = []
            for st in self.fsteps:
                skip = _ignored(st.op, st.attrs)
                read = [e for i, e in enumerate(st.ins) if i not in skip]
                pos = {i: k for k, i in enumerate(j for j in range(len(st.ins)) if j not in skip)}
                pairs = [(pos[p[0]],) + tuple(p[1:]) for p in st.op.inplace
                         if p[0] in pos and p[1] < len(st.outs)]
                sched.append((st.name, read, list(st.outs), pairs))
            nbytes = {e: _nbytes(info.get(e)) for st in self.fsteps for e in st.outs}
            plan = plan_memory(sched, nbytes, set(self.heads), {s for s, _ in self.var_slots})
            wanted = self._out_entries()
            self._icheck = [_checks(st, plan, self._writes) for st in self.fsteps]
            self._iplan = (plan, wanted)
        plan, wanted = self._iplan
        views = _views(xp, plan, info, wanted)
        return [views.get(s) for s in range(self.nslots)]

    # -- backward -------------------------------------------------------------------------------
    def grad_rows(self, vals, mask, ctx):
        """{input position: rows} for the inputs whose gradient 1.9.1 makes row_sparse:
        every step reading the input has a ``grad_rows`` rule naming rows for it (e.g.
        Embedding with sparse_grad), and the input is no graph output. ``vals``: the
        recorded forward values."""
        cons = self._rows_consumers
        if cons is None:
            by_pos = {}   # one input may feed several variable slots
            for st in self.fsteps:
                for k, e in enumerate(st.ins):
                    if e in self.var_of:
                        by_pos.setdefault(self.var_of[e], []).append((st, k))
            outputs = {self.var_of[s] for s in self._head_set if s in self.var_of}
            cons = self._rows_consumers = {
                pos: uses for pos, uses in by_pos.items()
                if pos not in outputs and all(st.op.grad_rows is not None for st, _ in uses)}
        if not cons:
            return None
        from ..ndarray.sparse import _xp
        xp = _xp(ctx)
        out = {}
        for pos, uses in cons.items():
            if pos >= len(mask) or not mask[pos]:
                continue
            found = []
            for st, k in uses:
                ins = [_ndm._new(vals[e], ctx) if vals[e] is not None else None
                       for e in st.ins]
                r = st.op.grad_rows(xp, st.attrs, k, ins)
                if r is None:
                    break
                found.append(r)
            else:
                out[pos] = found[0] if len(found) == 1 else xp.unique(xp.concatenate(found))
        return out

    def backward(self, arena, mask, ograds, sinks, rc, transient, on_sink=None):
        """Gradients of the inputs flagged in ``mask`` from the raw output gradients.

        ``sinks[i]``: None or (gradient NDArray, req) to write input ``i``'s gradient into;
        returns per input None, :data:`WRITTEN` or a raw array. ``transient``: returned
        arrays are only read during the current backward pass, so they may be the arena's
        buffers; otherwise they are copies. ``on_sink(i)``, when given, is called as soon
        as sink ``i`` holds its final gradient (before the remaining steps run).
        """
        bp = self._bplans.get(mask)
        if bp is None:
            bp = self._bplans[mask] = self._build_backward(mask, arena.vals)
        xp = rc.xp
        vals = arena.vals + [None] * (bp.n - self.nslots)
        for e, g in zip(bp.hg, ograds):
            vals[e] = g
        bufs = arena.bbuf.get(mask)
        if bufs is None:
            views = _views(xp, bp.plan, bp.info, bp.views_wanted)
            bufs = arena.bbuf[mask] = [views.get(e) for e in range(bp.n)]
        rbuf = arena.rbuf.get(mask)
        if rbuf is None:
            rbuf = arena.rbuf[mask] = {f: xp.empty(bp.info[f][0], dtype=bp.info[f][1])
                                       for f in bp.kept_finals}
        cur = bufs
        bound = {}
        if rbuf or sinks:
            cur = list(bufs)
            for f, b in rbuf.items():
                cur[f] = b
            if sinks:
                for pos, f in bp.direct.items():
                    sink = sinks[pos] if pos < len(sinks) else None
                    if sink is not None and sink[1] == "write":
                        g = sink[0]
                        _sync_array(g)
                        d = g._data
                        info = bp.info.get(f)
                        if info is not None and tuple(d.shape) == info[0] and \
                                np.dtype(d.dtype) == info[1]:
                            cur[f] = d
                            bound[f] = d
        early = None   # final slot -> sink positions, to report them when written
        if on_sink is not None and sinks:
            early = {}
            done_sinks = set()
            for pos, f in bp.final.items():
                if f is not None and pos < len(sinks) and sinks[pos] is not None:
                    early.setdefault(f, []).append(pos)
        hook = _ndm._prof_hook
        for st in bp.steps:
            dyn = None if st.dyn is None else _inplace_out(st, vals, cur, bp.info)
            ins = [vals[s] for s in st.ins]
            kind = st.kind
            if hook is not None:
                t0 = _ndm._perf_ns()
            if st.name == "_grad_add" and (ins[0] is None or ins[1] is None):
                res = (ins[1] if ins[0] is None else ins[0],)   # a rule gave no gradient
            elif kind == _OP or kind == _ZEROS:
                try:
                    if dyn is not None:   # may write over a dead fresh input
                        res = st.op.compute(rc, st.attrs, *ins, out=dyn)
                        if type(res) is not tuple and type(res) is not list:
                            res = (res,)
                    else:
                        res = _run_step(st, rc, ins, cur)
                except MXNetError:
                    raise
                except Exception as e:  # a kernel failed on these inputs
                    raise _kernel_error(st, ins, e) from e
            elif kind == _RULE:
                res = self._run_rule(st, ins)
            else:
                raise MXNetError(f"Operator {st.op.name} is non-differentiable because it "
                                 "didn't register a gradient function")
            if hook is not None:
                hook(st.op, self.ctx, t0, res[0] if len(res) == 1 else list(res))
            check = st.check
            for k, (s, r) in enumerate(zip(st.outs, res)):
                # a result written over a dead fresh input (``dyn``) is where it belongs
                if check and r is not cur[s] and (dyn is None or r is not dyn[k]):
                    r = _unalias(xp, r, ins, check, cur[s])
                vals[s] = r
            ins = res = r = dyn = None   # no stray references: _inplace_out counts them
            if early is not None:
                for s in st.outs:
                    for pos in early.get(s, ()):
                        if vals[s] is not None and pos not in done_sinks:
                            _write_sink(xp, sinks[pos], vals[s], bound.get(s))
                            done_sinks.add(pos)
                            on_sink(pos)
        out = [None] * self.ninputs
        for pos, f in bp.final.items():
            if f is None:
                continue
            if early is not None and pos in done_sinks:
                out[pos] = WRITTEN
                continue
            v = vals[f]
            if v is None:   # a rule run as is gave this input no gradient
                continue
            sink = sinks[pos] if sinks and pos < len(sinks) else None
            if sink is not None:
                _write_sink(xp, sink, v, bound.get(f))
                out[pos] = WRITTEN
                if on_sink is not None:
                    on_sink(pos)
                continue
            if not transient:
                v = v.copy()
            out[pos] = v
        return out

    def _run_rule(self, st, ins):
        """A gradient rule that could not be traced, run on NDArrays (not recorded)."""
        from ..ndarray import op as _F
        ctx = self.ctx
        arrays = [_ndm._new(a, ctx) for a in ins]
        nin = st.nin
        nout = (len(arrays) - nin) // 2
        fin, fout, og = arrays[:nin], arrays[nin:nin + nout], arrays[nin + nout:]
        res = st.op.apply_gradient(_F, st.attrs, fin, fout, og, list(st.need))
        res = list(res) if isinstance(res, (list, tuple)) else [res]
        res = (res + [None] * nin)[:nin]
        return tuple(None if r is None else r._data for r in res)

    def _build_backward(self, mask, vals):
        info = {s: (tuple(v.shape), np.dtype(v.dtype)) for s, v in enumerate(vals)
                if v is not None and hasattr(v, "shape")}
        needs = {s for s, p in self.var_slots if p < len(mask) and mask[p]}
        for st in self.fsteps:
            if any(e in needs for e in st.ins):
                needs.update(st.outs)
        n = [self.nslots]
        steps = []

        def new(i):
            e = n[0]
            n[0] += 1
            if i is not None:
                info[e] = i
            return e

        hg = [new(info.get(h)) for h in self.heads]
        grad: dict = {}

        zeros = set()   # entries known to hold zeros (adding them changes nothing)

        pend: dict = {}   # entry -> its gradient contributions so far, in the walk's order

        def add_grad(e, g):
            pend.setdefault(e, []).append(g)

        def settle(e):
            """The gradient of ``e``: its contributions added up in 1.9.1's order (its
            ElementWiseSum over them in the walk's order, as ``autograd._summed``);
            contributions known to be zero are not added."""
            parts = pend.pop(e, None)
            if parts is not None:
                for g in elementwise_sum_order(parts):
                    add_now(e, g)
            return grad.get(e)

        def add_now(e, g):
            if e not in grad:
                grad[e] = g
                return
            if g in zeros:
                return
            if grad[e] in zeros:
                grad[e] = g
                return
            a, b = info.get(grad[e]), info.get(g)
            same = a is not None and a == b
            s = new(a if same else info.get(e))
            steps.append(_Step(_OP, _ADD if same else _BROADCAST_ADD, {}, [grad[e], g], [s],
                               "_grad_add"))
            grad[e] = s

        head_grads = list(zip(self.heads, hg))
        if self.last_head_grad:   # a repeated output: only its last head gradient counts
            head_grads = list(dict(head_grads).items())
        for h, g in head_grads:
            if h in needs:
                add_grad(h, g)
        for st in reversed(self.fsteps):
            if not any(o in grad or o in pend for o in st.outs) or \
                    not any(e in needs for e in st.ins):
                continue
            op = st.op
            if op.gradient is None:
                steps.append(_Step(_RAISE, op, st.attrs, [], [], st.name))
                continue
            need = [e in needs for e in st.ins]
            og: dict = {}

            def og_entry(j, st=st, og=og):
                if j not in og:
                    g = settle(st.outs[j])
                    if g is None:   # no gradient reached this output: zeros
                        g = new(info.get(st.outs[j]))
                        steps.append(_Step(_ZEROS, _ZEROS_LIKE, {}, [st.outs[j]], [g],
                                           "zeros_like"))
                        zeros.add(g)
                    og[j] = g
                return og[j]

            in_info = [info.get(e) for e in st.ins]
            out_info = [info.get(e) for e in st.outs]
            tpl = None
            if all(i is not None for i in in_info + out_info):
                tpl = _template(op, st.attrs, in_info, out_info, need)
            if tpl is None:
                ogs = [og_entry(j) for j in range(len(st.outs))]
                outs = [new(None) for _ in st.ins]
                rs = _Step(_RULE, op, st.attrs, list(st.ins) + list(st.outs) + ogs, outs,
                           f"{st.name}_backward")
                rs.need, rs.nin = need, len(st.ins)
                steps.append(rs)
                grads = outs
            else:
                made = []

                def resolve(ref, st=st, made=made):
                    kind = ref[0]
                    if kind == "in":
                        return st.ins[ref[1]]
                    if kind == "out":
                        return st.outs[ref[1]]
                    if kind == "og":
                        return og_entry(ref[1])
                    return made[ref[1]][ref[2]]

                for bop, battrs, refs, infos in tpl.nodes:
                    ins = [resolve(r) for r in refs]
                    outs = [new(i) for i in infos]
                    made.append(outs)
                    steps.append(_Step(_OP, bop, battrs, ins, outs,
                                       f"{st.name}_backward:{bop.name}"))
                    if bop is _ZEROS_LIKE:
                        zeros.update(outs)
                grads = [None if g is None else resolve(g) for g in tpl.grads]
            for e, g in zip(st.ins, grads):
                if g is not None and e in needs:
                    add_grad(e, g)
        final = {}
        for s, p in self.var_slots:   # several variable nodes may stand for one input
            if p < len(mask) and mask[p]:
                g = settle(s)
                if g is None:
                    final.setdefault(p, None)
                elif final.get(p) is None:
                    final[p] = g
                else:
                    if ("input", p) not in grad:
                        add_now(("input", p), final[p])
                    add_now(("input", p), g)
                    final[p] = grad[("input", p)]
        keep = {f for f in final.values() if f is not None}
        steps = fuse_backward(steps, info, keep, lambda op, attrs, ins, outs, name: _Step(
            _OP, op, attrs, ins, outs, name))
        steps = _drop_dead(steps, keep)
        bp = _Backward()
        bp.steps = steps
        bp.n = n[0]
        bp.hg = hg
        bp.final = final
        bp.info = info
        # entries read by steps, and who produced each entry
        reads: dict = {}
        producer = {}
        for st in steps:
            for e in st.ins:
                reads[e] = reads.get(e, 0) + 1
            for e in st.outs:
                producer[e] = st
        finals = [f for f in final.values() if f is not None]
        bp.final_set = set(finals)
        bp.direct = {}
        for p, f in final.items():
            st = producer.get(f)
            if st is not None and st.out_ok and not reads.get(f) and finals.count(f) == 1:
                bp.direct[p] = f
        # finals written through out get a kept buffer of their own (unless bound to a sink)
        bp.kept_finals = [f for f in bp.final_set if producer.get(f) is not None and
                          producer[f].out_ok and info.get(f) is not None]
        # the memory plan of the backward entries: forward values, head gradients and the
        # final gradients are not planned (they outlive the steps or belong to the caller)
        external = set(range(self.nslots)) | set(hg) | bp.final_set
        sched = []
        for st in steps:
            if st.kind != _OP and st.kind != _ZEROS:
                sched.append((st.name, list(st.ins), list(st.outs), []))
                continue
            skip = _ignored(st.op, st.attrs)
            read = [e for i, e in enumerate(st.ins) if i not in skip]
            pos = {i: k for k, i in enumerate(j for j in range(len(st.ins)) if j not in skip)}
            pairs = [(pos[q[0]],) + tuple(q[1:]) for q in st.op.inplace
                     if q[0] in pos and q[1] < len(st.outs)]
            sched.append((st.name, read, list(st.outs), pairs))
        nbytes = {e: _nbytes(info.get(e)) for st in steps for e in st.outs}
        plan = plan_memory(sched, nbytes, set(), external)
        bp.plan = plan
        bp.views_wanted = [e for st in steps if st.out_ok for e in st.outs
                           if e in plan.storage]
        writes = {e for st in steps if st.out_ok for e in st.outs}
        reads = {}
        for st in steps:
            for e in st.ins:
                reads[e] = reads.get(e, 0) + 1
        for st in steps:
            st.check = _checks(st, plan, writes)
            if st.kind == _OP and st.out_ok:
                # an input made by a kernel that takes ``out`` qualifies too: such a kernel
                # may still return a fresh array (Pooling, unless its batch is split), and a
                # planned buffer never passes _inplace_out's reference count
                st.dyn = tuple((q[0], q[1]) for q in st.op.inplace
                                if len(q) == 2 and q[0] < len(st.ins) and q[1] < len(st.outs)
                                and st.ins[q[0]] not in external and reads[st.ins[q[0]]] == 1
                                and st.outs[q[1]] not in bp.final_set
                                and info.get(st.outs[q[1]]) is not None) or None
        return bp

    # -- higher order ---------------------------------------------------------------------------
    def replay(self, vals, inputs, ograds, mask):
        """Input gradients computed by the per-operator rules on a tape rebuilt from the
        saved forward values ``vals``, recorded when autograd records (``create_graph``)."""
        from ..ndarray import op as _F
        ctx = self.ctx
        arrays = [None] * self.nslots
        for s, p in self.var_slots:
            arrays[s] = inputs[p]
        nodes = []
        for st in self.fsteps:
            ins = [arrays[s] for s in st.ins]
            datas = [vals[s].copy() for s in st.outs]
            node = TapeNode(st.op, st.attrs, ins, datas, ctx)
            if all(e is None for e in node.in_entries):
                node = None
            for j, s in enumerate(st.outs):
                arrays[s] = _ndm._new(datas[j], ctx, None if node is None else (node, j))
            nodes.append(node)
        grads: dict = {}

        def acc(e, g):
            grads[e] = g if e not in grads else grads[e] + g

        for h, g in zip(self.heads, ograds):
            acc(h, g)
        for st, node in zip(reversed(self.fsteps), reversed(nodes)):
            if node is None or not any(o in grads for o in st.outs):
                continue
            outputs = [arrays[s] for s in st.outs]
            og = [grads[s] if s in grads else _F.zeros_like(o.detach())
                  for s, o in zip(st.outs, outputs)]
            res = st.op.apply_gradient(_F, st.attrs, node.inputs, outputs, og,
                                       [e is not None for e in node.in_entries])
            for e, entry, g in zip(st.ins, node.in_entries, res):
                if g is not None and entry is not None:
                    acc(e, g)
        out = [None] * self.ninputs
        for s, p in self.var_slots:
            if p < len(mask) and mask[p] and s in grads:
                out[p] = grads[s] if out[p] is None else out[p] + grads[s]
        return out


# operators without side effects: a backward step of one whose results nobody reads is
# dropped (the imperative tape computes such gradients and then discards them)
_PURE = frozenset(("zeros_like", "ones_like", "_reduce_to_shape_of", "Reshape", "reshape_like",
                   "broadcast_like", "_mul_scalar", "_div_scalar", "negative", "elemwise_add",
                   "elemwise_mul", "broadcast_add", "broadcast_mul", "sum"))


def _drop_dead(steps, keep):
    """``steps`` without the side-effect-free steps whose results nobody reads."""
    while True:
        reads = {e for st in steps for e in st.ins}
        dead = {k for k, st in enumerate(steps) if st.kind in (_OP, _ZEROS) and
                st.op.name in _PURE and not any(e in reads or e in keep for e in st.outs)}
        if not dead:
            return steps
        steps = [st for k, st in enumerate(steps) if k not in dead]


def _checks(st, plan, writes):
    """The inputs of ``st`` a result could view while their buffer is reused later: planned
    entries that a kernel writes through ``out`` (any other value is a fresh array, or a
    copy made by this same check one step earlier)."""
    return tuple(i for i, e in enumerate(st.ins) if e in plan.storage and e in writes and
                 not _identity_shared(st, i, plan))


def _identity_shared(st, i, plan):
    """Whether input ``i`` of ``st`` shares its storage with an output by an identity pair
    (the output is the input's bytes, so a view of it is where the plan puts it)."""
    if st.op is None:
        return False
    for pair in st.op.inplace:
        if len(pair) > 2 and pair[2] and pair[0] == i and pair[1] < len(st.outs):
            sid = plan.storage.get(st.ins[i])
            if sid is not None and sid == plan.storage.get(st.outs[pair[1]]):
                return True
    return False


def _one_reference():
    """What ``sys.getrefcount`` says of an object held by one container and read into a
    local variable (the interpreter may count the local and the call's argument or not)."""
    holder = [object()]
    a = holder[0]
    return sys.getrefcount(a)


# an array whose count is at most this is referenced by nothing but its one holder
_ONE_REF = _one_reference()


def _inplace_out(st, vals, cur, info):
    """The ``out`` list of a step that may write over an input: an input only this step
    reads, whose value is a fresh array (made by a kernel without ``out``) that nothing
    else holds, takes the output's place when it has the output's shape and dtype."""
    out = [cur[s] for s in st.outs]
    for i, o in st.dyn:
        a = vals[st.ins[i]]
        # held by the values list alone; a view counts when the array it views is held by
        # that view alone
        if a is None or sys.getrefcount(a) > _ONE_REF:
            continue
        flags = getattr(a, "flags", None)
        # a broadcast or strided view (read-only in NumPy) cannot take a result
        if flags is not None and not (flags.c_contiguous and getattr(flags, "writeable", True)):
            continue
        base = getattr(a, "base", 1)
        if base is not None and (getattr(base, "base", 1) is not None or
                                 sys.getrefcount(base) > _ONE_REF):
            continue
        want = info[st.outs[o]]
        if tuple(a.shape) == want[0] and a.dtype == want[1]:
            out[o] = a
    return out


def _open_creators(steps):
    """Whether a step is a creation operator (no inputs) whose ``shape`` attribute has a 0
    dimension that legacy shape semantics leave for inference to fill in."""
    from ..util import is_np_shape
    if is_np_shape():   # NumPy shape semantics: a 0 is a real, empty dimension
        return False
    for st in steps:
        if st.ins or not isinstance(st.attrs, dict):
            continue
        shape = st.attrs.get("shape")
        if isinstance(shape, (tuple, list)) and any(d == 0 for d in shape):
            return True
    return False


def _free_output(cands):
    """An array handed out as a graph output before that nobody holds any more (its only
    references are the candidate list and this call), to be written again; else None."""
    if cands:
        for b in cands:
            if sys.getrefcount(b) <= _ONE_REF:   # held by the candidate list alone
                return b
    return None


def _new_output(xp, info):
    """A new array for a graph output of known ``(shape, dtype)``; None when unknown."""
    return None if info is None else xp.empty(info[0], dtype=info[1])


def _keep_output(hbuf, s, r):
    """Remember graph output ``r`` of entry ``s`` (the last two) for reuse once freed."""
    cands = hbuf.get(s)
    if cands is None:
        hbuf[s] = [r]
    elif all(r is not b for b in cands):
        cands.insert(0, r)
        del cands[2:]


def _views_any(xp, v, bufs):
    """Whether ``v`` may view one of the kept buffers ``bufs``."""
    for b in bufs:
        if b is not None and _may_share(xp, v, b):
            return True
    return False


def _write_sink(xp, sink, v, bound):
    """Put final gradient ``v`` into sink ``(gradient NDArray, req)`` unless a step wrote
    it there already (``bound`` is then ``v``)."""
    g, req = sink
    if bound is not v:
        _sync_array(g)
        if req == "add":
            xp.add(g._data, v, out=g._data, casting="unsafe")
        else:
            xp.copyto(g._data, v, casting="unsafe")
    elif req == "add":   # cannot happen: only write sinks are bound
        raise MXNetError("internal error: an 'add' gradient was bound")


def _sync_array(a):
    v = a._var
    if v is not None and (v.npending or v.exc is not None):
        _ndm._sync(a)


class RecordedCall:
    """The runner of a :class:`~mxnet.ndarray.tape.FusedNode`: one recorded call of a
    program, holding its arena until the node is freed."""

    __slots__ = ("prog", "arena", "mask", "hook")

    def __init__(self, prog, arena, mask, hook=None):
        self.prog, self.arena, self.mask = prog, arena, mask
        self.hook = hook   # an op hook (monitoring.OpHook) shown the gradient nodes

    def backward(self, node, ograds, sinks, transient, on_sink=None):
        if _mode.recording:   # create_graph: the per-operator rules, recorded
            return self.prog.replay(self.arena.vals, node.inputs, ograds, self.mask)
        ctx = node.ctx
        rc = ctx._rc[_mode.training] or _ndm._run_context(ctx, _mode.training)
        raw = []
        for g in ograds:
            _sync_array(g)
            raw.append(g._data)
        rows = self.prog.grad_rows(self.arena.vals, self.mask, ctx)   # before backward
        if self.hook is not None:   # from the forward values, which backward may free
            self.hook.report_backward(self.arena.vals, raw, self.mask)
        res = self.prog.backward(self.arena, self.mask, raw, sinks, rc, transient, on_sink)
        out = [r if r is None or r is WRITTEN else _ndm._new(r, ctx) for r in res]
        if rows:
            from ..ndarray.sparse import RowSparseNDArray
            for pos, r in rows.items():
                if out[pos] is not None and out[pos] is not WRITTEN:
                    out[pos] = RowSparseNDArray._from_rows(out[pos], r)
        return out

    def release(self):
        arena, self.arena = self.arena, None
        if arena is not None:
            self.prog.release(arena)


_CACHED_OP = OpDef("_CachedOp", None, inputs=lambda attrs: [])


def run(prog, arrays, ctx, hook=None):
    """Call ``prog`` on the NDArrays ``arrays``; returns its outputs as NDArrays, recorded
    on the tape as one node when autograd records and some input is part of the graph.
    ``hook``: an op hook (``monitoring.OpHook``) shown this call's operators, and its
    gradient nodes when the call is recorded and back-propagated."""
    raw = []
    record = False
    for a in arrays:
        _sync_array(a)
        raw.append(a._data)
        if a._node is not None and live_entry(a) is not None:
            record = True
    training = _mode.training
    if prog.states is None:
        rc = ctx._rc[training] or _ndm._run_context(ctx, training)
    else:
        rc = RunContext(get_backend(ctx), training, prog.states)
    arena = prog.acquire()
    record = record and _mode.recording
    try:
        outs = prog.forward(arena, raw, rc, record,
                            None if hook is None else hook.forward_monitor(record))
    except BaseException:
        prog.release(arena)
        raise
    var_of = prog.var_of
    dups = prog.dup_heads
    if dups:   # a repeated output: every listing after the first gets its own copy
        outs = [o.copy() if j in dups else o for j, o in enumerate(outs)]
    if not record:
        prog.release(arena)
        return [arrays[var_of[h]] if h in var_of and j not in dups else _ndm._new(o, ctx)
                for j, (h, o) in enumerate(zip(prog.heads, outs))]
    mask = tuple(live_entry(a) is not None for a in arrays)
    node = FusedNode(_CACHED_OP, list(arrays), outs, ctx, RecordedCall(prog, arena, mask, hook))
    return [arrays[var_of[h]] if h in var_of and j not in dups else _ndm._new(o, ctx, (node, j))
            for j, (h, o) in enumerate(zip(prog.heads, outs))]


_ADD = get_op("elemwise_add")
_BROADCAST_ADD = get_op("broadcast_add")
_ZEROS_LIKE = get_op("zeros_like")
