"""The Executor: a Symbol bound to arrays, run forward and backward.

Binding infers every entry's shape and dtype once and turns the graph into a list of
steps (operator, parsed parameters, input slots, output slots).

- **Inference** (``forward`` without gradients to record) runs the steps as one loop
  over raw device arrays. Results live in buffers laid out by the memory plan
  (:mod:`mxnet.executor.plan`): in-place reuse and size-pooled sharing, so the
  executor's memory stays bounded by the plan and ``outputs`` are the same arrays from
  one call to the next, as in 1.9.1. Kernels that accept ``out`` (``OpDef.accepts_out``)
  write into their planned buffers directly; the others compute a fresh array that is
  copied in. A result whose shape or dtype differs from the plan's is kept as is (the
  safe fallback).
- **Training** (``forward(is_train=True)`` with some ``grad_req`` other than ``null``)
  runs the compiled program of :mod:`mxnet.executor.program`: the forward keeps the
  values the backward reads, in buffers reused from one step to the next, and
  ``backward`` runs the gradient graph built once from the registry's gradient rules,
  writing (``write``) or adding (``add``) straight into the bound gradient arrays.

As in 1.9.1, an entry listed more than once among the outputs (``Group([y, y])``) is
one buffer behind several ``outputs`` NDArrays, an output that is a bound argument is
that argument's memory, and ``backward`` gives such an entry the head gradient of its
last listing only. Both passes lay their buffers out by shape inference, so a creation
operator whose legacy ``shape`` leaves dimensions at 0 (``mx.rnn`` begin states) writes
the inferred shape into its buffer.

``debug_str`` lists the graph as 1.9.1's does; with gradients requested it adds the
gradient entries to the outputs and the backward nodes 1.9.1 would run (named, wired and
ordered as :mod:`.monitoring` derives them). It ends, as 1.9.1's does, with ``Total N MB
allocated``: the executor's own buffers under the memory plan of inference or, when
gradients are requested, of forward and backward together (``memory_plan(training=True)``,
a report of what a static plan of the training graph needs).

Model parallelism (``group2ctx`` with ``mx.AttrScope(ctx_group=...)``) places arrays as
1.9.1 does: see :func:`_placement`. Stateful operators (Custom) get their per-node state
once, at bind time (``OpDef.create_state``), kept in ``RunContext.states``.

Sparse storage (csr, row_sparse) follows 1.9.1's storage-type inference (:mod:`.stype`):
sparse arguments stay the arrays bound (``simple_bind`` makes them from ``stype_dict`` or the
variables' ``stype``), outputs and gradients get the inferred storage types. The kernels
read the arguments' dense forms; ``backward`` stores each sparse gradient from the dense
result, with the rows 1.9.1 keeps. An all-dense graph skips all of this after one scan.
"""
from __future__ import annotations

import os

import numpy as np

from .. import engine
from .._mode import mode as _mode
from ..backend import get_backend
from ..base import MXNetError, MXNetKeyError, MXNetValueError, native_log
from ..context import Context
from ..ndarray import NDArray, zeros
from ..ndarray import ndarray as _ndm
from ..ndarray.ndarray import _new
from ..operator.registry import RunContext
from ..symbol.graph import aux_var_ids, topo_order
from .infer import infer_shapes, infer_types
from .plan import forward_schedule, training_schedule
from . import monitoring
from . import stype as _stype
from .program import GraphProgram, _views, accepts_out

__all__ = ["Executor", "simple_bind"]

_GRAD_REQ = ("null", "write", "add")


def _get_inputs(key, values, names, allow_missing):
    """Arrays in ``names`` order from a list or a dict, checked as 1.9.1 checks them."""
    if isinstance(values, (list, tuple)):
        values = list(values)
        if len(values) != len(names):
            raise ValueError(f"Length of {key} does not match the number of arguments")
        for a in values:
            if a is None and allow_missing:
                continue
            if not isinstance(a, NDArray):
                raise TypeError("Only accept list of NDArrays or dict of str to NDArray")
        return values
    if isinstance(values, dict):
        out = []
        for n in names:
            if n in values:
                if not isinstance(values[n], NDArray):
                    raise TypeError("Only accept list of NDArrays or dict of str to NDArray")
                out.append(values[n])
            elif allow_missing:
                out.append(None)
            else:
                raise ValueError(f"key `{n}` is missing in `{key}`")
        return out
    raise TypeError("Only accept list of NDArrays or dict of str to NDArray")


class _GradReqKeyError(MXNetKeyError, ValueError):
    """An unknown grad_req in a list or dict: a KeyError in 1.9.1, a ValueError as for a string."""


def _grad_reqs(grad_req, names):
    if isinstance(grad_req, str):
        reqs = [grad_req] * len(names)
    elif isinstance(grad_req, (list, tuple)):
        reqs = list(grad_req)
        if len(reqs) != len(names):
            raise MXNetError(f"grad_req has {len(reqs)} entries for {len(names)} arguments")
    elif isinstance(grad_req, dict):
        reqs = [grad_req.get(n, "null") for n in names]
    else:
        raise TypeError("grad_req must be a string, a list or a dict")
    for r in (grad_req,) if isinstance(grad_req, str) else reqs:
        if r not in _GRAD_REQ:
            # bind raises a ValueError here, simple_bind a RuntimeError: this is both; an entry
            # of a list or dict fails 1.9.1's name lookup, a KeyError
            cls = MXNetValueError if isinstance(grad_req, str) else _GradReqKeyError
            raise cls(f"grad_req must be in {{'null': 0, 'write': 1, 'add': 3}}, got {r!r}")
    return reqs


def _placement(order, ctx, group2ctx):
    """id(node) -> Context of every node under ``group2ctx`` (model parallelism), or None
    when nothing is placed off ``ctx``.

    As in 1.9.1, a node whose ``__ctx_group__`` (``mx.AttrScope(ctx_group=...)``) names a
    group of ``group2ctx`` lives on that group's context; an operator outside any group
    takes the context of its first input that has one, and what is left (variables outside
    a group, operators fed only by them) lives on ``ctx``. Arguments, auxiliary states and
    gradients that ``simple_bind`` allocates, and the executor's outputs, live on their
    node's context. Every array here is host memory, so the kernels themselves need no
    copies between groups; placement is honoured for CPU contexts only (with another
    device type involved, everything stays on ``ctx``, as before).
    """
    if not group2ctx:
        return None
    for c in list(group2ctx.values()) + [ctx]:
        if not isinstance(c, Context):
            raise MXNetError(f"bind: group2ctx values must be Contexts, got {c!r}")
        if c.device_type != "cpu":
            return None
    dev = {}
    for node in order:
        c = group2ctx.get((node.attrs or {}).get("__ctx_group__"))
        if c is None and node.op is not None:
            c = next((dev[id(n)] for n, _ in node.inputs if dev[id(n)] is not None), None)
        dev[id(node)] = c
    return {k: (ctx if c is None else c) for k, c in dev.items()}


class _Step:
    __slots__ = ("node", "op", "attrs", "ins", "outs", "nvis", "out_ok")

    def __init__(self, node, ins, outs):
        self.node = node
        self.op = node.op
        self.attrs = node.parsed
        self.ins = ins
        self.outs = outs
        self.nvis = node.num_visible_outputs()
        self.out_ok = accepts_out(node.op)


class _BytesNames:
    """A monitor callback called as 1.9.1 calls it: each name as ``bytes``."""

    __slots__ = ("callback",)

    def __init__(self, callback):
        self.callback = callback

    def __call__(self, name, array):
        self.callback(name.encode() if isinstance(name, str) else name, array)


class Executor:
    """Runs a bound Symbol. Use ``forward``/``backward``; read ``outputs``, ``grad_dict``."""

    def __init__(self, sym, ctx, args, args_grad=None, grad_req="write", aux_states=None,
                 group2ctx=None, shared_exec=None):
        if not isinstance(ctx, Context):
            raise TypeError("Context type error")
        self._symbol = sym
        self._ctx = ctx
        self._group2ctx = dict(group2ctx) if group2ctx else None
        self._arg_names = sym.list_arguments()
        self._aux_names = sym.list_auxiliary_states()
        self.arg_arrays = _get_inputs("args", args, self._arg_names, False)
        if args_grad is None:
            self.grad_arrays = [None] * len(self._arg_names)
        else:
            self.grad_arrays = _get_inputs("args_grad", args_grad, self._arg_names, True)
        self.aux_arrays = _get_inputs("aux_states", [] if aux_states is None else aux_states,
                                      self._aux_names, False)
        reqs = _grad_reqs(grad_req, self._arg_names)
        self._grad_req = grad_req
        self._reqs = ["null" if g is None else r for r, g in zip(reqs, self.grad_arrays)]
        self._monitor = None
        self._monitor_all = False
        self._recorded = False
        self._plan = None
        self._train_plan = None
        self._views = None
        self._plain = None   # _plain_steps(), built with the views
        self._prog = None
        self._arena = None
        self._ones = None
        self._build()
        self._init_storage()

    # -- the static part: inference, steps, outputs -----------------------------------------
    def _build(self):
        sym = self._symbol
        shapes = {n: a.shape for n, a in zip(self._arg_names, self.arg_arrays)}
        shapes.update({n: a.shape for n, a in zip(self._aux_names, self.aux_arrays)})
        types = {n: np.dtype(a.dtype) for n, a in zip(self._arg_names, self.arg_arrays)}
        types.update({n: np.dtype(a.dtype) for n, a in zip(self._aux_names, self.aux_arrays)})
        sres = infer_shapes(sym, shapes)
        tres = infer_types(sym, types)
        order = topo_order(sym._outputs)
        self._order = order
        self._place = _placement(order, self._ctx, self._group2ctx)
        slot_of = {}
        self._var_slots = []   # (slot, "arg"/"aux", index)
        arg_pos = {n: i for i, n in enumerate(self._arg_names)}
        aux_pos = {n: i for i, n in enumerate(self._aux_names)}
        aux_ids = aux_var_ids(order)
        steps = []
        nslots = 0
        self._var_node = {}
        for node in order:
            if node.op is None:
                self._var_node[nslots] = node
                slot_of[(id(node), 0)] = nslots
                if id(node) in aux_ids:
                    self._var_slots.append((nslots, "aux", aux_pos[node.name]))
                else:
                    self._var_slots.append((nslots, "arg", arg_pos[node.name]))
                nslots += 1
                continue
            outs = []
            for i in range(node.num_outputs()):
                slot_of[(id(node), i)] = nslots
                outs.append(nslots)
                nslots += 1
            steps.append(_Step(node, [slot_of[(id(s), i)] for s, i in node.inputs], outs))
        self._steps = steps
        self._nslots = nslots
        self._slot_of = slot_of
        self._mon_labels = None
        self._mon_plans = {}
        self._head_slots = [slot_of[(id(n), i)] for n, i in sym._outputs]
        self._entry_shape = [None] * nslots
        self._entry_dtype = [None] * nslots
        for (nid, i), s in slot_of.items():
            v = sres.values.get((nid, i))
            if v is not None and all(d is not None for d in v):
                self._entry_shape[s] = tuple(v)
            t = tres.values.get((nid, i))
            self._entry_dtype[s] = None if t is None else np.dtype(t)
        xp = get_backend(self._ctx).xp
        self.outputs = []
        self._out_bufs = []
        # as in 1.9.1, an entry listed twice among the outputs gives two NDArrays on one
        # buffer, and an output that is a bound argument (or auxiliary state) is that
        # array's memory
        var_data = {slot: self._var_array(kind, idx)._data
                    for slot, kind, idx in self._var_slots}
        first = {}
        place = self._place
        for (hnode, _), s in zip(sym._outputs, self._head_slots):
            shape = self._entry_shape[s]
            dtype = self._entry_dtype[s] or np.dtype(np.float32)
            if shape is None:
                raise MXNetError(f"bind: cannot infer the shape of output {len(self.outputs)} "
                                 f"({sym.list_outputs()[len(self.outputs)]})")
            buf = first.get(s)
            if buf is None:
                buf = var_data.get(s)
                if buf is None:
                    buf = xp.zeros(shape, dtype=dtype)
                first[s] = buf
            self._out_bufs.append(buf)
            self.outputs.append(_new(buf, self._ctx if place is None else place[id(hnode)]))
        # stateful operators (Custom) get their state once per node at bind time, as in
        # 1.9.1; every forward and backward of this executor then uses it
        self._states = {}
        for st in steps:
            make = getattr(st.op, "create_state", None)
            shapes = [self._entry_shape[s] for s in st.ins]
            if make is not None and None not in shapes:
                dtypes = [self._entry_dtype[s] or np.dtype(np.float32) for s in st.ins]
                node_ctx = self._ctx if place is None else place[id(st.node)]
                self._states[id(st.attrs)] = make(node_ctx, st.attrs, shapes, dtypes)

    # -- storage types (see :mod:`.stype`) ----------------------------------------------------------
    def _init_storage(self):
        """Give the outputs the storage types 1.9.1 infers, and note the gradient arrays
        that are sparse (``backward`` stores those itself). Nothing for dense graphs."""
        self._sparse_grads = {}   # arg position -> its variable's slot
        self._sparse_error = None
        self._sparse_uses = None   # built by _sparse_rows
        by_node = {}
        for slot, kind, idx in self._var_slots:
            by_node[id(self._var_node[slot])] = self._var_array(kind, idx)
        info = _stype.infer(self._order, self._symbol._outputs,
                            lambda node: getattr(by_node.get(id(node)), "stype", None))
        if info is None:
            return
        _stype.log_fallbacks(self._order, info, self._ctx, self._training())
        from ..ndarray import sparse as _sp
        for i, st in enumerate(info.output_stypes(self._symbol._outputs)):
            o = self.outputs[i]
            if st != "default" and o.stype == "default" and \
                    self._head_slots[i] not in self._var_node:
                self.outputs[i] = _sp.zeros(st, o.shape, ctx=o.context, dtype=o.dtype)
        for slot, kind, idx in self._var_slots:
            g = self.grad_arrays[idx] if kind == "arg" else None
            if g is not None and self._reqs[idx] != "null" and g.stype != "default":
                self._sparse_grads[idx] = slot
        # 1.9.1's sparse Embedding backward computes no gradient of its indices
        arg_of = {slot: idx for slot, kind, idx in self._var_slots if kind == "arg"}
        for st in self._steps:
            if st.op.name == "Embedding" and st.attrs.get("sparse_grad") and \
                    arg_of.get(st.ins[1]) in self._sparse_grads:
                idx = arg_of.get(st.ins[0])
                if idx is not None and self._reqs[idx] != "null":
                    self._sparse_error = (f"Executor.backward: Embedding {st.node.name!r} "
                                          "with sparse_grad=True computes no gradient of its "
                                          f"data {self._arg_names[idx]!r}; bind it with "
                                          "grad_req 'null'")

    def _sparse_rows(self):
        """{arg position: rows} of the row_sparse gradients whose rows 1.9.1 chooses by the
        operators' ``grad_rows`` rules (every column the csr of ``dot(csr, w)`` holds, every
        row an Embedding looked up), read from the recorded forward values."""
        from ..ndarray.sparse import _xp
        xp = _xp(self._ctx)
        vals = self._arena.vals
        bound = {slot: self._var_array(kind, idx) for slot, kind, idx in self._var_slots}
        uses = self._sparse_uses
        if uses is None:   # per row_sparse gradient: the steps reading its variable
            uses = self._sparse_uses = {
                pos: [(st, k) for st in self._steps for k, s in enumerate(st.ins) if s == slot]
                for pos, slot in self._sparse_grads.items()
                if self.grad_arrays[pos].stype == "row_sparse"}
        out = {}
        for pos, steps in uses.items():
            found = []
            for st, k in steps:
                rule = st.op.grad_rows
                r = None
                if rule is not None:
                    ins = [bound[e] if e in bound else _new(vals[e], self._ctx)
                           for e in st.ins]
                    r = rule(xp, st.attrs, k, ins)
                found.append(r)
            if found and all(r is not None for r in found):
                out[pos] = found[0] if len(found) == 1 else xp.unique(xp.concatenate(found))
        return out

    def _store_sparse_grads(self, res, rows):
        """Write the dense gradients ``res`` (per input position) into the sparse gradient
        arrays, in their storage types (``rows``: see :meth:`_sparse_rows`)."""
        from ..ndarray.sparse import RowSparseNDArray
        for pos in self._sparse_grads:
            v = res[pos] if pos < len(res) else None
            g = self.grad_arrays[pos]
            if v is None:
                v = get_backend(self._ctx).xp.zeros(g.shape, dtype=g.dtype)
            if self._reqs[pos] == "add":
                if pos in rows:   # as 1.9.1's sparse dot / Embedding backward
                    raise MXNetError(f"Executor.backward: the row_sparse gradient of "
                                     f"{self._arg_names[pos]!r} needs grad_req 'write', got "
                                     "'add'")
                g._assign(g._data + v)
            elif pos in rows:
                g._store_from(RowSparseNDArray._from_rows(_new(v, self._ctx), rows[pos]))
            else:
                g._assign(v)

    # -- dictionaries ---------------------------------------------------------------------------
    @staticmethod
    def _get_dict(names, arrays):
        if len(set(names)) != len(names):
            # a ValueError in 1.9.1's bind; simple_bind fails with a RuntimeError: this is both
            raise MXNetValueError(f"Duplicate names detected, {names}")
        return dict(zip(names, arrays))

    @property
    def arg_dict(self):
        return self._get_dict(self._arg_names, self.arg_arrays)

    @property
    def grad_dict(self):
        return self._get_dict(self._arg_names, self.grad_arrays)

    @property
    def aux_dict(self):
        return self._get_dict(self._aux_names, self.aux_arrays)

    @property
    def output_dict(self):
        return self._get_dict(self._symbol.list_outputs(), self.outputs)

    @property
    def symbol(self):
        return self._symbol

    # -- memory plan -------------------------------------------------------------------------------
    def _schedule(self, training):
        fwd = [(st.node, st.ins, st.outs) for st in self._steps]
        info = {s: (self._entry_shape[s], self._entry_dtype[s]) for s in range(self._nslots)}
        var_slots = [s for s, _, _ in self._var_slots]
        if not training:
            return forward_schedule(fwd, info, var_slots, self._head_slots)
        grad_vars = {s for s, kind, idx in self._var_slots
                     if kind == "arg" and self._reqs[idx] != "null"}
        return training_schedule(fwd, info, var_slots, self._head_slots, grad_vars)

    def memory_plan(self, enable_inplace=None, match_range=None, training=False):
        """The memory plan of this executor (see :mod:`.plan`).

        By default the plan of the inference pass, which ``forward`` runs in. With
        ``training=True``, the plan of forward and backward together as 1.9.1's graph
        executor would hold them for the bound gradient requests (a report: training
        itself runs through autograd).
        """
        return self._schedule(training).plan(enable_inplace, match_range)

    def _training(self):
        return any(r != "null" for r in self._reqs)

    @property
    def allocated_bytes(self):
        """Bytes this executor allocates itself (not the bound arguments, gradients or
        auxiliary states): the planned buffers of forward and, when gradients are
        requested, backward, as ``debug_str``'s last line counts them."""
        if self._training():
            if self._train_plan is None:
                self._train_plan = self.memory_plan(training=True)
            return self._train_plan.total_bytes
        return self._ensure_plan().total_bytes

    @property
    def plan_bytes(self):
        """(planned bytes, naive bytes) of the intermediate buffers for inference."""
        plan = self._ensure_plan()
        return plan.planned_bytes, plan.naive_bytes

    def _ensure_plan(self):
        if self._plan is None:
            self._plan = self.memory_plan()
        return self._plan

    def _ensure_views(self):
        """Preallocated storage blocks and every planned entry's view into them."""
        if self._views is not None:
            return self._views
        plan = self._ensure_plan()
        info = {s: (self._entry_shape[s], self._entry_dtype[s]) for s in plan.storage}
        planned = _views(get_backend(self._ctx).xp, plan, info, plan.storage)
        views = [planned.get(s) for s in range(self._nslots)]
        for i, s in enumerate(self._head_slots):
            if views[s] is None:
                views[s] = self._out_bufs[i]
        self._views = views
        return views

    # -- running ------------------------------------------------------------------------------------
    def forward(self, is_train=False, **kwargs):
        """Run the graph; keyword arrays are first copied into the bound arguments."""
        if kwargs:
            arg_dict = self.arg_dict
            for name, array in kwargs.items():
                if not isinstance(array, (NDArray, np.ndarray)):
                    raise ValueError("only accept keyword argument of NDArrays and numpy.ndarray")
                if name not in arg_dict:
                    raise TypeError(f"Unknown argument {name}")
                if arg_dict[name].shape != array.shape:
                    raise ValueError(f"Shape not match! Argument {name}, need: "
                                     f"{arg_dict[name].shape}, received: {array.shape}")
                arg_dict[name][:] = array
        if is_train and any(r != "null" for r in self._reqs):
            self._forward_recorded()
        else:
            self._forward_planned(bool(is_train))
        return self.outputs

    def _var_array(self, kind, idx):
        return self.arg_arrays[idx] if kind == "arg" else self.aux_arrays[idx]

    def _forward_planned(self, is_train):
        slots = [None] * self._nslots
        for slot, kind, idx in self._var_slots:
            a = self._var_array(kind, idx)
            a.wait_to_read()
            slots[slot] = a._data
        ctx = self._ctx
        rc = RunContext(get_backend(ctx), is_train, self._states)
        xp = rc.xp
        monitor = self._monitor if self._monitor_active() else None
        prev = (_mode.recording, _mode.training)
        _mode.recording, _mode.training = False, is_train
        try:
            self._run_planned(rc, slots, monitor)
        finally:
            _mode.recording, _mode.training = prev
        done = {}   # head slot -> its buffer (an entry listed twice: one buffer)
        for i, s in enumerate(self._head_slots):
            o, buf, val = self.outputs[i], self._out_bufs[i], slots[s]
            if s in done:
                buf = done[s]
            elif s in self._var_node:   # a bound array is an output: it is its memory
                buf = val
            elif val is not buf:
                if buf.shape == val.shape and buf.dtype == val.dtype:
                    xp.copyto(buf, val)
                else:
                    buf = val.copy()
            done[s] = self._out_bufs[i] = buf
            o._data = buf
            o._node = None
        self._recorded = False
        self._inferred = True

    def _plain_steps(self):
        """Per step, what the predict loop needs, resolved once per plan:
        (kernel, attrs, input slots, output slots, planned buffers, out= list or None)."""
        if self._plain is None:
            views = self._ensure_views()
            plain = []
            for st in self._steps:
                bufs = [views[s] for s in st.outs]
                plain.append((st.op.compute, st.attrs, st.ins, st.outs, bufs,
                              bufs if st.out_ok else None))
            self._plain = plain
        return self._plain

    def _run_planned(self, rc, slots, monitor):
        """The predict-mode steps over the planned buffers; ``monitor`` (or None) sees each
        step's inputs (when it asks for all) and outputs."""
        xp = rc.xp
        every = monitor is not None and self._monitor_all
        hook = _ndm._prof_hook   # the profiler records these steps as 1.9.1's does
        k = 0
        try:
            for k, (compute, attrs, ins_at, outs_at, bufs, out) in enumerate(  # noqa: B007
                    self._plain_steps()):
                ins = [slots[s] for s in ins_at]
                if every:
                    self._monitor_step(k, ins, None)
                if hook is not None:
                    t0 = _ndm._perf_ns()
                if out is not None:   # the kernel writes into the planned buffers itself
                    res = compute(rc, attrs, *ins, out=out)
                else:
                    res = compute(rc, attrs, *ins)
                if type(res) is not tuple and type(res) is not list:
                    res = (res,)
                if hook is not None:
                    hook(self._steps[k].op, self._ctx, t0, res[0] if len(res) == 1 else list(res))
                for s, r, buf in zip(outs_at, res, bufs):
                    if r is buf:
                        slots[s] = r
                    elif buf is not None and buf.shape == r.shape and buf.dtype == r.dtype:
                        xp.copyto(buf, r)
                        slots[s] = buf
                    else:  # the plan did not foresee this result: keep it (owning its memory)
                        slots[s] = r.copy() if getattr(r, "base", None) is not None else r
                if monitor is not None:
                    self._monitor_step(k, None, [slots[s] for s in outs_at])
        except MXNetError:
            raise
        except Exception as e:  # a kernel failed on these inputs
            st = self._steps[k]
            shown = ", ".join(f"{tuple(slots[s].shape)} {slots[s].dtype}" for s in st.ins
                              if slots[s] is not None)
            raise MXNetError(f"{st.op.name} ({st.node.name}): {type(e).__name__}: {e} "
                             f"(inputs: {shown or 'none'})") from e

    def _program(self):
        """The compiled forward/backward program (built at the first training forward)."""
        if self._prog is None:
            pos = {}
            for slot, kind, idx in self._var_slots:
                pos[slot] = idx if kind == "arg" else len(self._arg_names) + idx
            var_pos = {}
            slot = 0
            for node in self._order:
                if node.op is None:
                    var_pos[id(node)] = pos[slot]
                slot += node.num_outputs()
            self._prog = GraphProgram(self._order, self._symbol._outputs, var_pos, self._ctx,
                                      last_head_grad=True)
            # the program lays its kept buffers out by shape inference, as the inference
            # plan does (a creation op with a legacy 0 in ``shape`` writes into its buffer)
            self._prog.set_info({s: (self._entry_shape[s], self._entry_dtype[s])
                                 for s in range(self._nslots)
                                 if self._entry_shape[s] is not None and
                                 self._entry_dtype[s] is not None})
            self._arena = self._prog.acquire()
        return self._prog

    def _forward_recorded(self, is_train=True, monitor=True):
        """A training forward: the program runs the steps into its kept buffers and keeps
        every value ``backward`` reads. ``is_train=False`` replays an inference forward for
        a backward that follows it (``monitor=False``: without reporting it again)."""
        prog = self._program()
        arrays = list(self.arg_arrays) + list(self.aux_arrays)
        raw = []
        for a in arrays:
            a.wait_to_read()
            raw.append(a._data)
        monitor = self._monitor_step if monitor and self._monitor_active() else None
        rc = RunContext(get_backend(self._ctx), is_train, self._states)
        prev = (_mode.recording, _mode.training)
        _mode.recording, _mode.training = False, is_train
        try:
            outs = prog.forward(self._arena, raw, rc, True, monitor)
        finally:
            _mode.recording, _mode.training = prev
        for o, r in zip(self.outputs, outs):
            o._data = r
            o._node = None
        self._recorded = True

    def backward(self, out_grads=None, is_train=True):
        """Back-propagate from the outputs into the bound gradient arrays.

        While a distributed KVStore with overlap is in use (as for ``autograd.backward``,
        see docs/distributed.md), the pass runs on a background thread as one asynchronous
        engine op and returns at once: it writes the gradient arrays (each handed on, to a
        KVStore push say, as soon as the program has written it) and the auxiliary states,
        and reads the arguments, outputs and head gradients until it ends. Whatever waits
        for those arrays waits for the pass (the next ``forward`` among them), so results
        are those of the synchronous pass; a failure is raised at the next wait point on
        what the pass had not finished.
        """
        if out_grads is None:
            out_grads = []
        elif isinstance(out_grads, NDArray):
            out_grads = [out_grads]
        elif isinstance(out_grads, dict):
            out_grads = [out_grads[k] for k in self._symbol.list_outputs()]
        for g in out_grads:
            if not isinstance(g, NDArray):
                raise TypeError("inputs must be NDArray")
        if not any(r != "null" for r in self._reqs):
            return
        if not self._recorded:
            if not getattr(self, "_inferred", False):
                raise MXNetError("backward: call forward(is_train=True) before backward")
            # 1.9.1 also runs backward after forward(is_train=False), from that forward's
            # values: the inference forward is replayed, keeping what backward reads
            self._forward_recorded(is_train=False, monitor=False)
        out_grads = self._check_head_grads(out_grads)
        watch = self._monitor is not None and self._monitor_active()
        from .. import autograd
        if not watch and not self._sparse_grads and autograd._overlap_active():
            self._backward_async(out_grads, bool(is_train))
            return
        busy = getattr(self, "_busy", None)
        if busy is not None and (busy.npending or busy.exc is not None):
            engine.wait_for_var(busy)   # an asynchronous pass still uses the arena
        heads = []
        for g in out_grads:
            g.wait_to_read()
            heads.append(g._data)
        if len(heads) < len(self.outputs):   # heads the requested gradients do not read
            heads += self._ones[len(heads):]
        naux = len(self.aux_arrays)
        mask = tuple(r != "null" for r in self._reqs) + (False,) * naux
        sinks = [None if r == "null" else (g, r) for g, r in zip(self.grad_arrays, self._reqs)]
        sparse = self._sparse_grads
        if sparse:   # sparse gradient arrays are stored below, from the dense results
            if self._sparse_error:
                raise MXNetError(self._sparse_error)
            sinks = [None if i in sparse else k for i, k in enumerate(sinks)]
            rows = self._sparse_rows()
        rc = RunContext(get_backend(self._ctx), bool(is_train), self._states)
        prev = (_mode.recording, _mode.training)
        _mode.recording, _mode.training = False, bool(is_train)
        try:
            # the report shows the auxiliary states as the gradient nodes read them, before
            # the backward pass updates them (BatchNorm's moving statistics)
            before = [a._data.copy() for a in self.aux_arrays] if watch else None
            res = self._prog.backward(self._arena, mask, heads, sinks + [None] * naux, rc, True)
            if sparse:
                self._store_sparse_grads(res, rows)
            if watch:
                self._monitor_backward(heads, before)
        finally:
            _mode.recording, _mode.training = prev

    def _check_head_grads(self, out_grads):
        """The head gradients ``backward`` was given, checked as 1.9.1 checks them: extra
        ones are ignored, each must match its output's shape, and an output whose head
        gradient the requested gradients read (it is not a loss) must have one. The outputs
        left without one get ones (``self._ones``), which no requested gradient reads."""
        outs = self.outputs
        out_grads = list(out_grads[:len(outs)])
        for i, g in enumerate(out_grads):
            if g.shape != outs[i].shape:
                names = self._symbol.list_outputs()
                raise MXNetError(f"Executor.backward: out_grads[{i}] has shape {g.shape}, but "
                                 f"output {i} ({names[i]}) has shape {outs[i].shape}")
        if len(out_grads) < len(outs):
            missing = [i for i in self._heads_read() if i >= len(out_grads)]
            if missing:
                i = missing[0]
                names = self._symbol.list_outputs()
                raise MXNetError(
                    f"Executor.backward: output {i} ({names[i]}) is not a loss, so the "
                    f"gradients need its head gradient, but out_grads gives "
                    f"{len(out_grads)} of {len(outs)}; pass one NDArray per output in "
                    f"out_grads, or make the output a loss with mx.sym.make_loss to minimise it")
            if self._ones is None:
                xp = get_backend(self._ctx).xp
                self._ones = [xp.ones(o.shape, dtype=o.dtype) for o in outs]
        return out_grads

    def _heads_read(self):
        """The outputs whose head gradients the requested gradients read (1.9.1's gradient
        graph, as ``monitoring.backward_plan`` derives it), per grad_req combination."""
        key = ("heads read",) + tuple(self._reqs)
        got = self._mon_plans.get(key)
        if got is None:
            try:
                plan = self._backward_plan()
                got = sorted({mn.info for mn in plan.order if mn.kind == "head"})
            except Exception:  # noqa: BLE001 - an operator the emulation cannot describe:
                got = []       # no check (its head gradients default to ones)
            self._mon_plans[key] = got
        return got

    def _backward_async(self, out_grads, is_train):
        """Start the compiled backward on autograd's walker thread (see ``backward``)."""
        from .. import autograd
        if getattr(self, "_busy", None) is None:
            # the arena's var, written by the pass: a later backward waits for it (the
            # next forward waits for the arguments, which the pass reads until it ends)
            self._busy = engine.Var()
        naux = len(self.aux_arrays)
        mask = tuple(r != "null" for r in self._reqs) + (False,) * naux
        sinks = [None if r == "null" else (g, r) for g, r in zip(self.grad_arrays, self._reqs)]
        # BatchNorm-like operators update the auxiliary states in backward: written
        writes = [self._busy] + [a.engine_var for a in self.aux_arrays]
        var_of = {}   # position -> its gradient's var
        left = {}     # gradient var -> positions whose gradient is not written yet
        for pos, sink in enumerate(sinks):
            if sink is not None:
                v = var_of[pos] = sink[0].engine_var
                left[v] = left.get(v, 0) + 1
                writes.append(v)
        # the arguments are read until the pass ends (the next forward, which waits for
        # them, cannot overwrite the arena early); giving each back after its last use
        # let pulls land earlier but was measured no faster (docs/distributed.md)
        reads = [a.engine_var for a in self.arg_arrays] + [o.engine_var for o in self.outputs] + \
            [g.engine_var for g in out_grads]
        reads = list(dict.fromkeys(reads))
        writes = list(dict.fromkeys(writes))
        prog, arena, ones = self._prog, self._arena, self._ones
        rc = RunContext(get_backend(self._ctx), is_train, self._states)

        def body(release):
            def on_sink(pos):
                v = var_of.get(pos)
                if v is not None:
                    left[v] -= 1
                    if not left[v]:
                        release(v)
            heads = [g._data for g in out_grads]
            if len(heads) < len(self.outputs):
                heads += ones[len(heads):]
            prev = (_mode.recording, _mode.training)
            _mode.recording, _mode.training = False, is_train
            try:
                prog.backward(arena, mask, heads, sinks + [None] * naux, rc, True, on_sink)
            finally:
                _mode.recording, _mode.training = prev

        autograd._run_async(body, reads, writes, "Executor.backward")

    # -- monitoring ---------------------------------------------------------------------------------
    def set_monitor_callback(self, callback, monitor_all=False):
        """Call ``callback(name, NDArray)`` on what 1.9.1's executor shows a monitor: every
        operator output during ``forward`` (hidden outputs included) and every output of
        its gradient nodes during ``backward``; with ``monitor_all``, before each node's
        outputs, its inputs too (see :mod:`.monitoring` for the names and the order).
        As in 1.9.1, whose callback receives C strings, each name arrives as ``bytes``."""
        self._monitor = None if callback is None else _BytesNames(callback)
        self._monitor_all = bool(monitor_all)

    def _monitor_active(self):
        """Whether the callback wants values now (a :class:`mxnet.monitor.Monitor` says it
        does not between collections, which spares the backward report its cost)."""
        cb = self._monitor
        if cb is None:
            return False
        return not getattr(getattr(cb.callback, "__self__", None), "_monitor_idle", False)

    def _monitor_step(self, k, ins, outs):
        """Report forward step ``k``: its raw inputs before it runs (with ``monitor_all``;
        ``outs`` is None then), its raw outputs after (``ins`` is None)."""
        labels = self._mon_labels
        if labels is None:
            labels = self._mon_labels = [monitoring.forward_labels(st.node)
                                         for st in self._steps]
        in_labels, out_labels = labels[k]
        cb, ctx = self._monitor, self._ctx
        if ins is not None:
            if self._monitor_all:
                for (var, label), d in zip(in_labels, ins):
                    arr = _new(d, ctx)
                    if var is not None:
                        cb(var, arr)
                    cb(label, arr)
            return
        for j, label in enumerate(out_labels):
            d = outs[j] if j < len(outs) else monitoring.phantom(self._steps[k].node, j, outs)
            if d is not None:
                cb(label, _new(d, ctx))

    def _backward_plan(self):
        """The gradient nodes 1.9.1 runs for the current grad_reqs (``monitoring.backward_plan``
        over the arguments that want a gradient), built once per grad_req combination."""
        key = tuple(self._reqs)
        plan = self._mon_plans.get(key)
        if plan is None:
            requested, seen = [], set()
            for slot, kind, idx in self._var_slots:
                if kind == "arg" and self._reqs[idx] != "null" and idx not in seen:
                    seen.add(idx)
                    requested.append((idx, self._var_node[slot]))
            requested.sort(key=lambda p: p[0])
            plan = self._mon_plans[key] = monitoring.backward_plan(
                self._order, self._symbol._outputs, requested)
        return plan

    def _monitor_backward(self, heads, aux_before):
        """Report the gradient nodes 1.9.1 would run, after the compiled backward."""
        plan = self._backward_plan()
        vals, slot_of = self._arena.vals, self._slot_of
        aux = {slot: aux_before[idx] for slot, kind, idx in self._var_slots if kind == "aux"}

        def fwd_value(node, k):
            s = slot_of.get((id(node), k))
            if s is None:
                return None
            return aux[s] if s in aux else vals[s]

        # 1.9.1 copies the head gradients into buffers of the outputs' dtypes
        heads = [h if h.dtype == o.dtype else h.astype(o.dtype)
                 for h, o in zip(heads, self._out_bufs)]
        monitoring.report_backward(plan, self._monitor, self._monitor_all, fwd_value, heads,
                                   self.grad_arrays, self._ctx)

    # -- parameters and reshaping ---------------------------------------------------------------------
    def copy_params_from(self, arg_params, aux_params=None, allow_extra_params=False):
        """Copy parameter arrays (by name) into the bound arguments and auxiliary states."""
        arg_dict, aux_dict = self.arg_dict, self.aux_dict
        for name, array in (arg_params or {}).items():
            if name in arg_dict:
                dst = arg_dict[name]
                array.astype(dst.dtype).copyto(dst)
            elif not allow_extra_params:
                raise ValueError(f'Find name "{name}" that is not in the arguments')
        for name, array in (aux_params or {}).items():
            if name in aux_dict:
                dst = aux_dict[name]
                array.astype(dst.dtype).copyto(dst)
            elif not allow_extra_params:
                raise ValueError(f'Find name {name} that is not in the auxiliary states')

    def reshape(self, partial_shaping=False, allow_up_sizing=False, **kwargs):
        """A new executor for new input shapes, sharing memory with this one.

        Arrays whose shape is unchanged are shared; smaller ones are views on the old
        memory; larger ones need ``allow_up_sizing``. Arguments not named in ``kwargs``
        may change shape only with ``partial_shaping``.
        """
        provided = {k: v for k, v in kwargs.items() if isinstance(v, tuple)}
        res = infer_shapes(self._symbol, provided)
        order = topo_order(self._symbol._outputs)
        new_shape = {}
        for n in order:
            if n.op is None:
                v = res.values.get((id(n), 0))
                new_shape[n.name] = None if v is None else tuple(0 if d is None else d for d in v)

        def remake(name, arr, kind):
            shape = new_shape.get(name)
            if shape is None or 0 in shape:
                raise MXNetError(f"reshape: cannot infer the new shape of {kind} {name}")
            if not (partial_shaping or name in provided or shape == arr.shape):
                raise MXNetError(f"Shape of unspecifie {kind}: {name} changed. This can cause the "
                                 "new executor to not share parameters with the old one. Please "
                                 "check for error in network.If this is intended, set "
                                 "partial_shaping=True to suppress this warning.")
            return _reshaped(arr, shape, allow_up_sizing, name, arr.context)

        args, grads = [], []
        for name, a, g in zip(self._arg_names, self.arg_arrays, self.grad_arrays):
            args.append(remake(name, a, "arg"))
            grads.append(None if g is None else _reshaped(g, args[-1].shape, allow_up_sizing,
                                                          name, g.context))
        aux = [remake(name, a, "aux") for name, a in zip(self._aux_names, self.aux_arrays)]
        ex = Executor(self._symbol, self._ctx, args, grads, self._reqs, aux, self._group2ctx)
        ex._grad_req = self._grad_req
        if self._monitor is not None:
            ex.set_monitor_callback(self._monitor.callback, self._monitor_all)
        return ex

    # -- introspection -----------------------------------------------------------------------------------
    def debug_str(self):
        """A listing of the graph as 1.9.1's executor prints it: the outputs (with gradients
        requested, the gradient entries follow the graph's outputs, one per argument that
        needs one), the variables and operator nodes, and with gradients the backward nodes
        1.9.1 would run (see :mod:`.monitoring` for how they are derived); then the megabytes
        the executor allocates itself (``allocated_bytes``) and the temporary-space line,
        which 1.9.1 prints with a fixed count."""
        text = self._symbol.debug_str()
        if self._training() and self._order and any(n.op is not None for n in self._order):
            text = _training_listing(self, text)
        return (text + f"Total {self.allocated_bytes >> 20} MB allocated\n"
                "Total 11 TempSpace resource requested\n")

    def get_optimized_symbol(self):
        """The bound symbol (no graph rewriting happens here)."""
        return self._symbol.__copy__()


def _reshaped(arr, shape, allow_up_sizing, name, ctx):
    """``arr`` itself, a view of its first elements, or (when allowed) a new array."""
    if arr.shape == tuple(shape):
        return arr
    if arr.stype != "default":   # a sparse array of a new shape: a new one (nothing stored)
        from ..ndarray import sparse as _sp
        return _sp.zeros(arr.stype, shape, ctx=ctx, dtype=arr.dtype)
    size = int(np.prod(shape, dtype=np.int64))
    if size > arr.size:
        if not allow_up_sizing:
            raise MXNetError(f"New shape of arg: {name} larger than original. First making a big "
                             "executor and then down sizing it is more efficient than the "
                             "reverse.If you really want to up size, set allow_up_sizing=True to "
                             "enable allocation of new arrays.")
        return zeros(shape, ctx=ctx, dtype=arr.dtype)
    return _new(arr._data.reshape(-1)[:size].reshape(shape), arr._ctx)


def simple_bind(sym, ctx, grad_req="write", type_dict=None, group2ctx=None, shared_arg_names=None,
                shared_exec=None, shared_buffer=None, shapes=None, stype_dict=None):
    """Infer every shape and dtype from the given input shapes, allocate arrays and bind.

    Arguments get the storage types of ``stype_dict`` or of their variables' ``stype``,
    and gradients those that storage-type inference gives them (see :mod:`.stype`)."""
    if not isinstance(ctx, Context):
        raise TypeError("Context type error")
    shapes = dict(shapes or {})
    for k, v in shapes.items():
        if not isinstance(v, tuple):
            raise TypeError(f"Argument shapes must be tuples, but '{k}' is {type(v)}")
    # 1.9.1 reports a failed shape inference as "simple_bind error. Arguments:", one
    # "name: shape" line per given shape, then the reason
    given = "".join(f"{k}: {v}\n" for k, v in shapes.items())
    try:
        sres = infer_shapes(sym, shapes)
    except MXNetError as e:   # (keeping the error's class: it may also be a ValueError ...)
        msg = f"simple_bind error. Arguments:\n{given}{e}"
        try:
            err = type(e)(msg)
        except TypeError:
            err = MXNetError(msg)
        raise err from None
    names, aux_names = sym.list_arguments(), sym.list_auxiliary_states()
    if not sres.complete:
        unknown = [n for n, s in zip(names, sres.arg_shapes) if not s or 0 in s]
        raise MXNetError(f"simple_bind error. Arguments:\n{given}"
                         f"cannot infer the shapes of {unknown}")
    known_types = {k: v for k, v in (type_dict or {}).items() if v is not None}
    tres = infer_types(sym, known_types)
    if not tres.complete:
        filled = dict(known_types)
        for n, t in zip(names, tres.arg_types):
            filled.setdefault(n, t or np.float32)
        for n, t in zip(aux_names, tres.aux_types):
            filled.setdefault(n, t or np.float32)
        tres = infer_types(sym, filled)
    arg_types = [t or np.float32 for t in tres.arg_types]
    aux_types = [t or np.float32 for t in tres.aux_types]
    reqs = _grad_reqs(grad_req, names)
    # 1.9.1 reuses shared_exec's parameter arrays only when a shared_buffer is given too
    shared_names = set(shared_arg_names or ()) if shared_buffer is not None else set()
    shared_args = shared_exec.arg_dict if shared_exec is not None else {}
    shared_grads = shared_exec.grad_dict if shared_exec is not None else {}
    shared_aux = shared_exec.aux_dict if shared_exec is not None else {}
    # model parallelism: each variable's arrays live on its group's context
    order = topo_order(sym._outputs)
    place = _placement(order, ctx, group2ctx)
    var_ctx = {} if place is None else {n.name: place[id(n)] for n in order if n.op is None}
    declared = _stype.declared_stypes(order, stype_dict)
    sinfo = _stype.infer(order, sym._outputs, lambda node: declared.get(node.name))
    grad_st = {} if sinfo is None else \
        {n.name: sinfo.grad.get(id(n), "default") for n in order if n.op is None}

    def make(name, shape, dtype, pool_key):
        c = var_ctx.get(name, ctx)
        if shared_buffer is not None:
            buf = shared_buffer.get(pool_key)
            if buf is not None and np.dtype(buf.dtype) == np.dtype(dtype) and \
                    buf.context == c and buf.size >= int(np.prod(shape, dtype=np.int64)):
                return _reshaped(buf, shape, False, name, c)
            arr = zeros(shape, ctx=c, dtype=dtype)
            shared_buffer[pool_key] = arr
            return arr
        return zeros(shape, ctx=c, dtype=dtype)

    def fits(arr, shape, dtype):
        return arr is not None and arr.shape == tuple(shape) and \
            np.dtype(arr.dtype) == np.dtype(dtype)

    args, grads = [], []
    for n, s, t, r in zip(names, sres.arg_shapes, arg_types, reqs):
        ast, gst = declared.get(n, "default"), grad_st.get(n, "default")
        if ast != "default" or gst != "default":
            # sparse arrays: shared with shared_exec as parameters only (not pooled)
            from ..ndarray import sparse as _sp
            c = var_ctx.get(n, ctx)
            a = shared_args.get(n) if n in shared_names else None
            args.append(a if fits(a, s, t) and a.stype == ast else
                        _sp.zeros(ast, s, ctx=c, dtype=t))
            g = shared_grads.get(n) if n in shared_names else None
            grads.append(None if r == "null" else g if fits(g, s, t) and g.stype == gst else
                         _sp.zeros(gst, s, ctx=c, dtype=t))
            continue
        if n in shared_names and fits(shared_args.get(n), s, t):
            args.append(shared_args[n])
            g = shared_grads.get(n)
            grads.append(None if r == "null" else (g if fits(g, s, t) else
                                                   zeros(s, ctx=var_ctx.get(n, ctx), dtype=t)))
            continue
        if n in shared_names:   # 1.9.1 keeps only the other arguments in shared_buffer
            args.append(zeros(s, ctx=var_ctx.get(n, ctx), dtype=t))
            grads.append(None if r == "null" else zeros(s, ctx=var_ctx.get(n, ctx), dtype=t))
            continue
        args.append(make(n, s, t, n))
        grads.append(None if r == "null" else make(n, s, t, f"grad of {n}"))
    aux = []
    for n, s, t in zip(aux_names, sres.aux_shapes, aux_types):
        if n in shared_names and fits(shared_aux.get(n), s, t):
            aux.append(shared_aux[n])
        else:
            aux.append(zeros(s, ctx=var_ctx.get(n, ctx), dtype=t))
    ex = Executor(sym, ctx, args, grads, reqs, aux, group2ctx, shared_exec)
    ex._grad_req = grad_req
    subgraph_log(ctx, 1991)
    return ex


def check_bind_contexts(ctx, args, args_grad, group2ctx):
    """As 1.9.1's ``Symbol.bind``: without ``group2ctx`` every argument and gradient array must
    already live on the bind context (auxiliary states are not checked)."""
    if group2ctx or not isinstance(ctx, Context):   # a bad ctx is the Executor's TypeError
        return
    for arrays, kind, what in ((args, "Input", "arguments"), (args_grad, "Gradient", "gradients")):
        values = arrays.values() if isinstance(arrays, dict) else (arrays or ())
        for a in values:
            actx = getattr(a, "context", None)
            if actx is not None and actx != ctx:
                raise MXNetError(f"bind: {kind} array is in {actx} while binding with ctx={ctx}. "
                                 f"All {what} must be in global context ({ctx}) unless group2ctx "
                                 "is specified for cross-device graph.")


def subgraph_log(ctx, line):
    """The line 1.9.1's CPU build writes to stderr for every graph it binds (``line`` is that of
    its bind / simple_bind path): it partitions the graph for the MKLDNN subgraph backend, or
    says it does not when ``MXNET_SUBGRAPH_BACKEND=NONE``."""
    if getattr(ctx, "device_type", "cpu") != "cpu":
        return
    backend = os.environ.get("MXNET_SUBGRAPH_BACKEND", "MKLDNN")
    if backend == "NONE":
        native_log("../src/executor/graph_executor.cc:60",
                   "MXNET_SUBGRAPH_BACKEND=NONE is detected, subgraph backend is not in use")
    elif getattr(ctx, "device_id", 0) == 0:   # as 1.9.1: it partitions only cpu(0)'s graphs
        native_log(f"../src/executor/graph_executor.cc:{line}",
                   f"Subgraph backend {backend} is activated.")


# -- the training listing of debug_str ---------------------------------------------------------------

# 1.9.1's gradient operator of a forward operator, where it is not ``_backward_<name>``
# (``_backward<name>`` for a name beginning with an underscore)
_GRAD_OP = {
    "exp": "elemwise_mul", "negative": "negative", "transpose": "transpose",
    "Flatten": "_backward_copy", "flatten": "_backward_copy", "expand_dims": "_backward_reshape",
    "Reshape": "_backward_reshape", "reshape": "_backward_reshape", "identity": "_copy",
    "_copy": "_copy", "_plus_scalar": "_copy", "_minus_scalar": "_copy",
    "_rminus_scalar": "negative", "broadcast_to": "_broadcast_backward",
    "broadcast_axis": "_broadcast_backward", "broadcast_like": "_broadcast_backward",
    "Cast": "_backward_cast", "amp_cast": "_backward_amp_cast",
    "space_to_depth": "depth_to_space", "depth_to_space": "space_to_depth",
    "elemwise_sub": "_backward_sub", "elemwise_mul": "_backward_mul",
    "elemwise_div": "_backward_div", "batch_dot": "batch_dot", "split": "_backward_SliceChannel",
    "LinearRegressionOutput": "_backward_linear_reg_out",
    "LogisticRegressionOutput": "_backward_logistic_reg_out",
    "MAERegressionOutput": "_backward_mae_reg_out", "make_loss": "ones_like",
    "reshape_like": "_backward_copy", "_contrib_div_sqrt_dim": "_contrib_div_sqrt_dim",
    "CTCLoss": "_backward_ctc_loss",
    "add_n": "_copy",
}

# operators of the nodes the gradient graph adds, per kind (see monitoring.MonNode)
_KIND_OP = {"head": "_identity_with_attr_like_rhs", "zeros": "_zeros_without_dtype",
            "zeros_like": "zeros_like", "sum": "add_n", "add": "elemwise_add",
            "identity": "_copy", "copy": "_copy"}


def _ref_text(ref):
    """How a node input is printed: ``name(index)``, with the version of a variable."""
    kind = ref[0]
    if kind == "head":
        return f"_head_grad_{ref[1]}(0) version=0"
    node, k = ref[1], ref[2]
    if kind == "fwd" and node.op is None:
        return f"{node.name}({k}) version={node.version}"
    return f"{node.name}({k})"


def _grad_node_attrs(fwd, name):
    """The attributes 1.9.1 shows on the gradient node ``name`` of ``fwd``: the forward
    node's, except where its gradient builds nodes with attributes of their own."""
    op = fwd.op.name
    if op == "Custom":
        return {}   # 1.9.1 shows none on _backward_Custom
    if op in ("broadcast_to", "broadcast_axis", "broadcast_like"):
        return {"keepdims": "true"}   # a sum back to the input's shape
    if op == "batch_dot" and fwd.parsed.get("transpose_a") is False and \
            fwd.parsed.get("transpose_b") is False:
        lhs = name.endswith("_backward_lhs")   # dlhs = og . rhs^T, drhs = lhs^T . og
        return {"transpose_a": "false" if lhs else "true",
                "transpose_b": "true" if lhs else "false"}
    return fwd.attrs


def _training_listing(ex, text):
    """``text`` (the symbol's listing) with the gradient outputs and backward nodes added."""
    plan = ex._backward_plan()
    lines = text.rstrip("\n").split("\n")
    head = 1 + len(ex._symbol._outputs)   # "Symbol Outputs:" and one line per output
    nout = len(ex._symbol._outputs)
    for j, (_, ref) in enumerate(plan.roots):
        lines.insert(head + j, f"\toutput[{nout + j}]={_ref_text(ref)}")
    shown_heads = set()
    for mn in plan.order:
        for ref in mn.inputs:
            if ref[0] == "head" and ref[1] not in shown_heads:
                shown_heads.add(ref[1])
                lines.append(f"Variable:_head_grad_{ref[1]}")
        if mn.kind == "grad":
            fwd = mn.info[0]
            name = fwd.op.name
            op = _GRAD_OP.get(name, "_backward" + (name if name.startswith("_") else "_" + name))
            attrs = _grad_node_attrs(fwd, mn.name)
        else:
            fwd = None
            op = _KIND_OP[mn.kind]
            attrs = {"num_args": str(len(mn.inputs))} if mn.kind == "sum" else {}
        lines += ["--------------------", f"Op:{op}, Name={mn.name}", "Inputs:"]
        lines += [f"\targ[{j}]={_ref_text(ref)}" for j, ref in enumerate(mn.inputs)]
        if attrs:
            lines.append("Attrs:")
            lines += [f"\t{key}={attrs[key]}" for key in sorted(attrs)]
        if fwd is None and mn.kind == "zeros_like" and mn.info is not None:
            fwd = mn.info   # an operator's zero gradient depends on it
        if fwd is not None:
            lines += ["Control deps:", f"\tcdep[0]={fwd.name}"]
    return "\n".join(lines) + "\n"
