"""Imperative automatic differentiation: record a tape, then run it backward.

Gradient rules come from the operator registry and are written with registered
operators, so recording the backward pass (``create_graph=True``) gives higher-order
gradients.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import weakref

import numpy as np

from . import engine as _engine
from ._mode import mode as _mode
from .base import MXNetAssertionError, MXNetError, MXNetKeyError
from .ndarray import NDArray
from .ndarray import _fallback_log
from .ndarray import op as _F
from .ndarray.ndarray import _held, _new, _sync
from .ndarray.tape import WRITTEN, FusedNode, Leaf, TapeNode
from .operator._common import elementwise_sum_order
from .operator.registry import OpDef

__all__ = ["record", "pause", "train_mode", "predict_mode", "is_recording", "is_training",
           "set_recording", "set_training", "mark_variables", "backward", "grad", "Function",
           "get_symbol"]


class _Scope:
    """Sets the recording/training flags for a ``with`` block and restores them after."""

    def __init__(self, recording, training):
        self._rec, self._train = recording, training
        self._prev = None

    def __enter__(self):
        self._prev = (_mode.recording, _mode.training)
        if self._rec is not None:
            _mode.recording = self._rec
        if self._train is not None:
            _mode.training = self._train
        return self

    def __exit__(self, *exc):
        _mode.recording, _mode.training = self._prev


def record(train_mode=True):
    """Record operations for differentiation inside the block (training mode by default)."""
    return _Scope(True, train_mode)


def pause(train_mode=False):
    """Stop recording inside the block."""
    return _Scope(False, train_mode)


def train_mode():
    """Run operators in training mode (Dropout active, BatchNorm batch statistics)."""
    return _Scope(None, True)


def predict_mode():
    """Run operators in inference mode."""
    return _Scope(None, False)


def is_recording() -> bool:
    return _mode.recording


def is_training() -> bool:
    return _mode.training


def _flag(fn, value):
    # 1.9.1 passes the flag to C as an int: anything else is a TypeError
    if not isinstance(value, (bool, int, np.integer, np.bool_)):
        raise TypeError(f"{fn}: expected a bool, got {value!r} of type {type(value).__name__}")
    return bool(value)


def set_recording(is_recording):
    """Set the recording flag; returns the previous value."""
    flag = _flag("set_recording", is_recording)
    prev = _mode.recording
    _mode.recording = flag
    return prev


def set_training(train_mode):
    """Set the training flag; returns the previous value."""
    flag = _flag("set_training", train_mode)
    prev = _mode.training
    _mode.training = flag
    return prev


def mark_variables(variables, gradients, grad_reqs="write"):
    """Mark arrays as variables whose gradients go into the given buffers."""
    if isinstance(variables, NDArray):
        variables, gradients = [variables], [gradients]
    elif isinstance(gradients, NDArray):
        gradients = [gradients]
    if isinstance(grad_reqs, str):
        grad_reqs = [grad_reqs] * len(variables)
    if not len(variables) == len(gradients) == len(grad_reqs):
        raise MXNetError(f"mark_variables: got {len(variables)} variables, {len(gradients)} "
                         f"gradient buffers and {len(grad_reqs)} grad_reqs; expected one "
                         "buffer and one grad_req per variable")
    for req in grad_reqs:
        if req not in ("write", "add", "null"):
            raise MXNetKeyError(f"mark_variables: grad_req must be 'write', 'add' or 'null', "
                               f"got {req!r}")
    for i, (v, g) in enumerate(zip(variables, gradients)):
        if not isinstance(v, NDArray) or not isinstance(g, NDArray):
            bad = v if not isinstance(v, NDArray) else g
            raise MXNetError(f"mark_variables: variable {i} and its gradient buffer must both be "
                             f"NDArrays, got {type(bad).__name__}")
    for v, g, req in zip(variables, gradients, grad_reqs):
        v._grad = g
        v._grad_req = req
        # as attach_grad(grad_req='null'): the array stays out of the graph
        v._node = None if req == "null" else (Leaf(v), 0)



def _not_in_graph():
    return MXNetError("Cannot differentiate node because it is not in a computational graph. "
                      "You need to set is_recording to true or use autograd.record() to save "
                      "computational graphs for backward. If you want to differentiate the same "
                      "graph twice, you need to pass retain_graph=True to backward.")


def _topo_order(head_entries):
    """Nodes reachable from the heads, each after every node that consumes it."""
    order, seen = [], set()
    stack = [(e[0], False) for e in reversed(head_entries)]   # first head walked first
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        if isinstance(node, TapeNode):
            if node.freed:
                raise _not_in_graph()
            # inputs pushed last-first, so the walk visits them first-first: the order is
            # the reverse of a depth-first post-order over inputs in order, as 1.9.1's backward
            # runs independent branches (the last-recorded branch first); this matters for
            # ops whose backward has effects, such as BatchNorm's moving statistics
            for e in reversed(node.in_entries):
                if e is not None and id(e[0]) not in seen:
                    stack.append((e[0], False))
    order.reverse()
    return order


class _Parts(list):
    """Several gradient contributions to one tape entry, in the order the walk made them."""
    __slots__ = ()


def _accumulate(store, key, idx, nouts, g):
    slot = store.get(key)
    if slot is None:
        slot = store[key] = [None] * nouts
    cur = slot[idx]
    if cur is None:
        slot[idx] = g
    elif type(cur) is _Parts:
        cur.append(g)
    else:
        slot[idx] = _Parts((cur, g))


def _summed(slot):
    """``slot`` (popped from the walk's store) with each entry's contributions added up.

    1.9.1 sums an entry's gradients with one ElementWiseSum over them in the walk's order
    (the last-recorded consumer first), so they are added in that operator's order."""
    if slot is not None:
        for i, v in enumerate(slot):
            if type(v) is _Parts:
                seq = elementwise_sum_order(v)
                acc = seq[0]
                for g in seq[1:]:
                    acc = acc + g
                slot[i] = acc
    return slot


def _check_heads(heads, head_grads):
    """Normalise backward's arguments: (heads, head gradients, head tape entries)."""
    if isinstance(heads, NDArray):
        heads = [heads]
    if len(heads) == 0:
        raise MXNetError("backward: got no heads; there are no inputs in the computation graph "
                         "that require gradients")
    if head_grads is None:
        head_grads = [None] * len(heads)
    elif isinstance(head_grads, NDArray):
        head_grads = [head_grads]
    if len(head_grads) != len(heads):
        # 1.9.1 checks this with an assert, so the error is also an AssertionError
        raise MXNetAssertionError(f"backward: got {len(heads)} heads but {len(head_grads)} "
                                 "head gradients; expected one head gradient (or None) per head")
    entries = []
    for h in heads:
        if h._node is None:
            raise _not_in_graph()
        entries.append(h._node)
    # as in 1.9.1, a tape entry listed twice among the heads takes the head gradient of
    # its last listing only
    last = {(id(e[0]), e[1]): i for i, e in enumerate(entries)}
    if len(last) < len(entries):
        keep = sorted(last.values())
        heads = [heads[i] for i in keep]
        head_grads = [head_grads[i] for i in keep]
        entries = [entries[i] for i in keep]
    return heads, head_grads, entries


def _run_backward(heads, head_grads, retain_graph, train_mode, create_graph, variables=None,
                  order=None):
    heads, head_grads, entries = _check_heads(heads, head_grads)
    prev = (_mode.recording, _mode.training)
    _mode.recording, _mode.training = create_graph, train_mode
    try:
        # the dense operators a gradient rule composes are internal: 1.9.1 never names
        # them in its storage fallback warnings
        _fallback_log.MUTED[0] += 1
        if order is None:
            order = _topo_order(entries)
        if variables is not None:   # checked before the walk frees the graph
            _check_variables(variables, order)
        grads: dict = {}
        for h, e, hg in zip(heads, entries, head_grads):
            g = hg if hg is not None else _F.ones_like(h.detach())
            node = e[0]
            nouts = len(node.out_data) if isinstance(node, TapeNode) else 1
            _accumulate(grads, id(node), e[1], nouts, g)
        leaf_grads = {}
        edges = None
        if variables is None and not create_graph and \
                any(type(n) is FusedNode for n in order):
            edges = _leaf_edges(order, entries)
        uses = _fallback_log.LeafUses(order, lambda: _leaf_edges(order, entries))
        unreached = []   # variables only gradient-free paths lead to (one_hot, a constant
        for node in order:   # second derivative ...): 1.9.1 writes zeros into 'write' buffers
            slot = _summed(grads.pop(id(node), None))
            if slot is None:
                if isinstance(node, Leaf):
                    unreached.append(node)
                continue
            if isinstance(node, Leaf):
                leaf_grads[id(node)] = (node, slot[0])
                continue
            if isinstance(node, FusedNode):
                sinks = None if edges is None else _sinks(node, edges)
                igrads = node.runner.backward(node, _fused_ograds(node, slot), sinks,
                                              variables is None)
            else:
                igrads = _node_gradient(node, slot, uses)
            for e, ig in zip(node.in_entries, igrads):
                if e is None or ig is None:
                    continue
                src = e[0]
                nouts = len(src.out_data) if isinstance(src, TapeNode) else 1
                _accumulate(grads, id(src), e[1], nouts, ig)
            if not retain_graph:
                node.free()
        for st, parts in uses.multi.values():   # 1.9.1 sums a sparse variable's uses by add_n
            _fallback_log.log_add_n(st, parts, heads[0].context)
    finally:
        _fallback_log.MUTED[0] -= 1
        _mode.recording, _mode.training = prev
    if variables is not None:
        out = []
        for v in variables:
            got = leaf_grads.get(id(v._node[0]))
            # None: reached only through gradient-free paths, where 1.9.1 gives zeros
            out.append(_F.zeros_like(v.detach()) if got is None else got[1])
        return out
    # the walk's last gradients, unreferenced, so that _store_grad may take their buffers
    slot = igrads = ig = None
    for node in unreached:
        arr = node.array
        if arr is not None and arr._grad is not None and arr._grad_req == "write":
            _store_grad(arr._grad, "write", [_F.zeros_like(arr.detach())], 0)
            node.fresh = True
    for pair in leaf_grads.values():
        leaf = pair[0]
        arr = leaf.array
        if pair[1] is WRITTEN:   # a fused node wrote it into the buffer already
            leaf.fresh = True
            continue
        if arr is None or arr._grad_req == "null" or arr._grad is None:
            continue
        _store_grad(arr._grad, arr._grad_req, pair, 1)
        leaf.fresh = True
    return None


def _check_variables(variables, order):
    """grad's variables must be attached leaves that the graph of the heads reaches."""
    reached = {id(n) for n in order if isinstance(n, Leaf)}
    for i, v in enumerate(variables):
        e = v._node
        if e is None or not isinstance(e[0], Leaf):
            raise MXNetError(f"grad: variable {i} has no gradient buffer; call attach_grad() "
                             "(or mark_variables) on it before recording")
        if id(e[0]) not in reached:
            raise MXNetError(f"grad: variable {i} is not used in computing the heads, so it "
                             "has no gradient")


def _item_refs(holder, i):
    return sys.getrefcount(holder[i])


def _data_refs(holder, i):
    return sys.getrefcount(holder[i]._data)


class _Probe:
    __slots__ = ("_data",)

    def __init__(self):
        self._data = object()


# the counts _item_refs/_data_refs see for an object held by its container alone (measured,
# not assumed: how the interpreter counts the references of its own stack varies)
_ITEM_ALONE = _item_refs([object()], 0)
_DATA_ALONE = _data_refs([_Probe()], 0)


def _store_grad(buf, req, holder, i):
    """Write the gradient ``holder[i]`` into the gradient buffer ``buf`` (``req`` "write" or
    "add"). "add" adds in place. "write" on the CPU hands the gradient's memory to ``buf``
    instead of copying it when nothing else can see either: the gradient is referenced by
    ``holder`` alone and owns its memory, which nothing else references, and ``buf`` owns
    its memory, which no view or other holder shares; otherwise it copies."""
    src = holder[i]
    if req == "write" and buf.stype == "row_sparse" and src.stype == "row_sparse" and \
            src.shape == buf.shape:
        buf._store_from(src)   # keeps the gradient's rows, all-zero ones included
        return
    g = src._data
    del src
    if req == "add":
        v = buf._var
        if v is not None and (v.npending or v.exc is not None):
            _sync(buf)
        if type(buf._data) is np.ndarray and type(g) is np.ndarray:
            np.add(buf._data, g, out=buf._data, casting="unsafe")
        else:
            buf._assign(buf._data + g)
        return
    if buf.stype != "default":   # a sparse buffer stores what it is given in its own format
        buf._assign(g)
        return
    old = buf._data
    if (type(g) is np.ndarray and type(old) is np.ndarray and g.base is None
            and old.base is None and g.shape == old.shape and g.dtype == old.dtype
            and g.flags.c_contiguous and g.flags.writeable):
        del g, old
        if (_item_refs(holder, i) == _ITEM_ALONE and _data_refs(holder, i) == _DATA_ALONE
                and _data_refs((buf,), 0) == _DATA_ALONE):
            v = buf._var
            if v is not None and (v.npending or v.exc is not None):
                _sync(buf)
            buf._data = holder[i]._data
            return
        g = holder[i]._data
    buf._assign(g)


def _fused_ograds(node, slot):
    """A fused node's output gradients, zeros for the outputs that got none."""
    return [g if g is not None else _F.zeros_like(_new(d, node.ctx))
            for g, d in zip(slot, node.out_data)]


def _node_gradient(node, slot, uses=None):
    """The input gradients of one recorded operator call, from its output gradients.
    ``uses`` (a LeafUses): print 1.9.1's fallback line of the gradient operator."""
    outputs = [_new(d, node.ctx, (node, i)) for i, d in enumerate(node.out_data)]
    ograds = [g if g is not None else _F.zeros_like(o.detach()) for g, o in zip(slot, outputs)]
    if node.gradient is not None:
        return node.gradient(ograds)
    if uses is not None and not _mode.recording:
        quiet = _fallback_log.backward_node(node, uses)
    else:
        quiet = node.op.name == "dot" and _rsp_grad_of(node, 1)
    if quiet:   # its line is printed (1.9.1's gradient operator, not the rule's)
        _fallback_log.QUIET[0] += 1
    try:
        res = node.op.apply_gradient(_F, node.attrs, node.inputs, outputs, ograds,
                                     [e is not None for e in node.in_entries])
    finally:
        if quiet:
            _fallback_log.QUIET[0] -= 1
    rule = node.op.grad_rows
    if rule is None or _mode.recording:
        return res
    return _rsp_gradients(rule, node.attrs, node.inputs, res)


def _rsp_grad_of(node, pos):
    """Whether input ``pos`` of ``node`` is a variable with a row_sparse gradient buffer."""
    e = node.in_entries[pos] if len(node.in_entries) > pos else None
    arr = e[0].array if e is not None and isinstance(e[0], Leaf) else None
    return arr is not None and getattr(arr._grad, "stype", None) == "row_sparse"


def _rsp_gradients(rule, attrs, inputs, igrads):
    """The gradients ``igrads`` with those that 1.9.1 makes row_sparse (the operator's
    ``grad_rows`` rule names their rows) turned into RowSparseNDArrays. A recorded
    gradient (create_graph) stays dense."""
    from .ndarray.sparse import RowSparseNDArray, _xp
    out = list(igrads) if isinstance(igrads, (list, tuple)) else [igrads]
    for pos, g in enumerate(out):
        if g is None or not isinstance(g, NDArray) or g.stype != "default":
            continue
        rows = rule(_xp(g._ctx), attrs, pos, inputs)
        if rows is not None:
            out[pos] = RowSparseNDArray._from_rows(g, rows)
    return out


def _leaf_edges(order, head_entries):
    """How many recorded inputs (and heads) refer to each leaf of the graph being walked."""
    count: dict = {}
    for node in order:
        if isinstance(node, TapeNode):
            for e in node.in_entries:
                if e is not None and isinstance(e[0], Leaf):
                    count[id(e[0])] = count.get(id(e[0]), 0) + 1
    for e in head_entries:
        if isinstance(e[0], Leaf):
            count[id(e[0])] = count.get(id(e[0]), 0) + 1
    return count


def _sinks(node, edges):
    """For each input of a fused node: (gradient buffer, grad_req) when the node is the only
    way back to that leaf, so it may write the final gradient there itself; else None."""
    out = []
    for e in node.in_entries:
        sink = None
        if e is not None and isinstance(e[0], Leaf) and edges.get(id(e[0])) == 1:
            arr = e[0].array
            # a sparse buffer is written by _store_grad (the program writes dense arrays)
            if arr is not None and arr._grad is not None and \
                    arr._grad_req in ("write", "add") and arr._grad.stype == "default":
                sink = (arr._grad, arr._grad_req)
        out.append(sink)
    return out


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):
    """Compute the gradients of ``heads`` into the ``.grad`` of every attached variable.

    While a distributed KVStore with overlap is in use (see docs/distributed.md), a pass
    over a graph with a hybridized block in it (or any graph, with
    ``MXNET_KVSTORE_OVERLAP=2``) runs on a background thread as one asynchronous engine
    op: each gradient buffer is handed on (to a KVStore push, a read, ...) as soon as its
    value is final. Reading a gradient, or writing an array the pass reads, waits for it
    as for any pending engine op, so the results are those of the synchronous pass.
    """
    order = None
    if _overlap_active():
        order = _backward_async(heads, head_grads, retain_graph, train_mode)
        if order is None:
            return
    _run_backward(heads, head_grads, retain_graph, train_mode, create_graph=False, order=order)


# -- asynchronous backward (communication overlap) ----------------------------------------------

# Distributed stores that overlap gradient communication with backward register here;
# backward runs asynchronously while one of them is alive.
_overlap_owners = weakref.WeakSet()


def _overlap_active():
    """Whether backward passes (autograd's and the Executor's) run asynchronously now: a
    store with overlap is alive and the engine is not the synchronous NaiveEngine."""
    return bool(_overlap_owners) and _engine.get_engine().name != "NaiveEngine"


def _overlap_imperative():
    """Whether a store asked for the asynchronous pass over imperative graphs as well
    (``MXNET_KVSTORE_OVERLAP=2``). At 1, a graph without a hybridized block runs
    synchronously: its pass is many small operators, Python-bound, and run on the walker
    thread it competed for the GIL and the cores with the messenger and the other
    processes; on 2 shared cores that cost more than the overlap hid (docs/distributed.md)."""
    for owner in list(_overlap_owners):
        if getattr(owner, "_overlap", 1) == 2:
            return True
    return False


class _Walker:
    """The thread that runs asynchronous backward passes, one after another."""

    def __init__(self):
        self.q = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="mxnet-autograd-backward",
                                       daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            job = self.q.get()
            job()


_walker = None
_walker_lock = threading.Lock()


def _submit(job):
    global _walker
    with _walker_lock:
        if _walker is None:
            _walker = _Walker()
        _walker.q.put(job)


def _forget_walker():
    global _walker, _walker_lock
    _walker = None
    _walker_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_walker)


def _run_async(body, reads, writes, name):
    """Run ``body(release)`` on the walker thread as one asynchronous engine op that reads
    the vars ``reads`` and writes the vars ``writes``.

    The body starts once every grant is held; ``release(var)`` gives one var back before
    the body ends (a gradient that is final), the others are given back when it returns.
    While it runs, wait points on the walker thread skip the vars still held (waiting on
    them would wait for the op itself). What the body raises is stored on the vars it
    still writes and raised at the next wait point, naming the op ``name``.
    """
    def start(done):
        _submit(lambda: _run_job(done, body, reads, writes))
    _engine.push_async(start, reads, writes, 0, name)


def _run_job(done, body, reads, writes):
    held = set(reads)
    held.update(writes)

    def release(var):
        if var in held:
            held.discard(var)
            done.release(var)

    _held.vars = held
    try:
        body(release)
    except BaseException as err:  # noqa: BLE001 - recorded on the vars still written
        done(err)
        return
    finally:
        _held.vars = None
    done()


def _backward_async(heads, head_grads, retain_graph, train_mode):
    """Start backward as an engine op: it writes the gradient buffers of the leaves it
    reaches (each given back as soon as it is final) and reads every array the tape
    saved (given back when the pass ends, so a later in-place write waits for it).

    Returns None when started; for a graph that should run synchronously (no hybridized
    block, see :func:`_overlap_imperative`), starts nothing and returns its node order."""
    heads, head_grads, entries = _check_heads(heads, head_grads)
    order = _topo_order(entries)   # "not in a graph" is raised here, synchronously
    if not any(type(n) is FusedNode for n in order) and not _overlap_imperative():
        return order
    reads = []
    for h in heads:
        reads.append(h.engine_var)
    for g in head_grads:
        if g is not None:
            reads.append(g.engine_var)
    last = {}          # id(leaf) -> position in order of the last node that consumes it
    # id(leaf) -> (gradient buffer, grad_req), held here: the variable itself may be
    # collected before the pass writes its gradient, as the synchronous pass would have
    targets = {}
    has_fused = False
    for i, node in enumerate(order):
        if isinstance(node, TapeNode):
            if type(node) is FusedNode:
                has_fused = True
            for a, e in zip(node.inputs, node.in_entries):
                reads.append(a.engine_var)
                if e is not None and isinstance(e[0], Leaf):
                    last[id(e[0])] = i
        elif isinstance(node, Leaf):
            arr = node.array
            if arr is not None and arr._grad is not None and arr._grad_req != "null":
                targets[id(node)] = (arr._grad, arr._grad_req)
                arr._grad.engine_var   # noqa: B018 - create the var before taking grants on it
                node.fresh = True
    if not retain_graph:
        for node in order:
            if isinstance(node, TapeNode):
                node.claimed = True
    writes = list(dict.fromkeys(g._var for g, _ in targets.values()))
    edges = _leaf_edges(order, entries) if has_fused else None

    _run_async(lambda release: _walk(release, heads, head_grads, entries, order, last, targets,
                                     edges, retain_graph, train_mode),
               reads, writes, "autograd.backward")
    return None


def _walk(release, heads, head_grads, entries, order, last, targets, edges, retain_graph,
          train_mode):
    """The body of an asynchronous backward pass (on the walker thread, see
    :func:`_run_async`)."""
    users = {}   # gradient var -> how many target leaves still write it
    for g, _ in targets.values():
        users[g._var] = users.get(g._var, 0) + 1
    by_pos = {}  # position in order -> leaves whose gradient is final after that node
    for key in targets:
        by_pos.setdefault(last.get(key, -1), []).append(key)
    grads: dict = {}

    def finish_leaf(key):
        slot = _summed(grads.pop(key, None))
        target = targets.pop(key, None)
        if target is None:
            return
        buf, req = target
        if slot is not None and slot[0] is not None and slot[0] is not WRITTEN:
            _store_grad(buf, req, slot, 0)
        var = buf._var
        users[var] -= 1
        if not users[var]:
            release(var)

    prev = (_mode.recording, _mode.training)
    _mode.recording, _mode.training = False, train_mode
    try:
        for h, e, hg in zip(heads, entries, head_grads):
            g = hg if hg is not None else _F.ones_like(h.detach())
            node = e[0]
            nouts = len(node.out_data) if isinstance(node, TapeNode) else 1
            _accumulate(grads, id(node), e[1], nouts, g)
        for key in by_pos.pop(-1, ()):
            finish_leaf(key)
        for i, node in enumerate(order):
            slot = _summed(grads.pop(id(node), None)) if not isinstance(node, Leaf) else None
            if slot is not None:
                if isinstance(node, FusedNode):
                    sinks = None if edges is None else _sinks(node, edges)

                    def on_sink(pos, node=node):
                        key = id(node.in_entries[pos][0])
                        if key in targets:
                            _accumulate(grads, key, 0, 1, WRITTEN)
                            finish_leaf(key)
                    igrads = node.runner.backward(node, _fused_ograds(node, slot), sinks, True,
                                                  on_sink=on_sink)
                else:
                    igrads = _node_gradient(node, slot)
                for e, ig in zip(node.in_entries, igrads):
                    if e is None or ig is None:
                        continue
                    src = e[0]
                    if isinstance(src, Leaf) and id(src) not in targets:
                        continue   # finished already (written by a sink) or not wanted
                    nouts = len(src.out_data) if isinstance(src, TapeNode) else 1
                    _accumulate(grads, id(src), e[1], nouts, ig)
                igrads = ig = None   # held by grads alone (see _store_grad)
                if not retain_graph:
                    node.free()
            for key in by_pos.pop(i, ()):
                finish_leaf(key)
    finally:
        _mode.recording, _mode.training = prev


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False,
         train_mode=True):
    """Return the gradients of ``heads`` with respect to ``variables`` (not written to .grad).

    With ``create_graph=True`` the gradient computation is itself recorded, so the
    returned arrays can be differentiated again.
    """
    single = isinstance(variables, NDArray)
    if single:
        variables = [variables]
    if retain_graph is None:
        retain_graph = create_graph
    res = _run_backward(heads, head_grads, retain_graph, train_mode, create_graph, variables)
    return res


def get_symbol(x):
    """The recorded computation that produced ``x``, as a Symbol.

    As in 1.9.1, inputs become variables ``var0, var1, ...`` and operator nodes are named
    ``node_0, node_1, ...`` in execution order; attributes equal to their defaults are left out.
    """
    from .base import attr_str
    from .symbol import Symbol
    from .symbol.graph import Node, topo_order

    if x._node is None:
        raise MXNetError("get_symbol: the NDArray is not part of a computational graph; did "
                         "you forget to turn on recording with autograd.record()?")
    order = list(reversed(_topo_order([x._node])))   # producers before consumers
    built: dict = {}
    counters = {"var": 0, "node": 0}
    consts = set()   # inputs recorded as constants: 1.9.1 names them null<k>, not var<k>

    def variable(key):
        if key not in built:
            built[key] = Node(None, f"var{counters['var']}")
            counters["var"] += 1
        return built[key]

    for node in order:
        if isinstance(node, Leaf):
            variable(id(node))
            continue
        entries = []
        for arr, e in zip(node.inputs, node.in_entries):
            if e is None:
                entries.append((variable(("const", id(arr))), 0))
                consts.add(id(built[("const", id(arr))]))
            elif isinstance(e[0], Leaf):
                entries.append((variable(id(e[0])), 0))
            else:
                entries.append((built[id(e[0])], e[1]))
        defaults = node.op._defaults
        # an NDArray-scalar operator always passes its scalar, so 1.9.1 lists it
        strings = {k: attr_str(v) for k, v in node.attrs.items()
                   if k not in defaults or defaults[k] != v or
                   (k == "scalar" and node.op.name.endswith("_scalar"))}
        built[id(node)] = Node(node.op, f"node_{counters['node']}", strings, dict(node.attrs),
                               entries)
        counters["node"] += 1
    head, index = x._node
    sym = Symbol([(built[id(head)], index)])
    n_var = n_op = 0
    for gnode in topo_order(sym._outputs):   # names follow the graph's own order, as 1.9.1
        if gnode.op is None:
            prefix = "null" if id(gnode) in consts else "var"
            gnode.name, n_var = f"{prefix}{n_var}", n_var + 1
        else:
            gnode.name, n_op = f"node_{n_op}", n_op + 1
    return sym


_FUNCTION_OP = OpDef("_CustomFunction", None, inputs=lambda attrs: [])


class _NoFunctionBackward(MXNetError, NotImplementedError):
    """A custom Function without backward: an MXNetError as in 1.9.1, and the NotImplementedError
    the method raised."""


class Function:
    """A user-defined differentiable function.

    Subclass it and override ``forward`` and ``backward`` (both on NDArrays). Use
    ``save_for_backward`` in ``forward`` to keep arrays for ``backward``.
    """

    def __init__(self):
        self._used = False
        self.saved_tensors = ()

    def save_for_backward(self, *args):
        self.saved_tensors = args

    def __call__(self, *inputs):
        if self._used:
            # 1.9.1 asserts this, so the error is also an AssertionError
            raise MXNetAssertionError("Each Function instance can only be called once; create "
                                      "a new instance")
        self._used = True
        with pause(train_mode=_mode.training):
            outputs = self.forward(*inputs)
        if not _mode.recording:  # 1.9.1 hands back whatever forward returned, unchecked
            return outputs
        single = isinstance(outputs, NDArray)
        outs = [outputs] if single else list(outputs)
        if _mode.recording:
            for o in outs:
                if o._node is not None and not o._node[0].freed:
                    # 1.9.1 refuses to record over an array already in the graph (an input
                    # returned as is, say): its recorded history would be lost
                    raise MXNetError(f"{type(self).__name__}.forward returned an array that is "
                                     "already part of the recorded graph; return a new array "
                                     "(e.g. x.copy()) instead")
            fn_ref = self

            def gradient(ograds, _fn=fn_ref, _n=len(inputs)):
                with pause(train_mode=_mode.training):
                    try:
                        res = _fn.backward(*ograds)
                    except NotImplementedError as e:
                        if isinstance(e, MXNetError):
                            raise
                        # 1.9.1 reports the failure of a custom backward as an MXNetError
                        raise _NoFunctionBackward(f"{type(_fn).__name__}.backward is not "
                                                  f"implemented") from e
                res = [res] if isinstance(res, NDArray) else res
                bad = [r for r in res if not isinstance(r, NDArray)] \
                    if isinstance(res, (list, tuple)) else [res]
                if bad:
                    raise MXNetError(f"{type(_fn).__name__}.backward must return NDArrays, "
                                     f"got {type(bad[0]).__name__}")
                if len(res) != _n:
                    raise MXNetError(f"Function.backward returned {len(res)} gradients for "
                                     f"{_n} inputs")
                return res

            node = TapeNode(_FUNCTION_OP, {}, list(inputs), [o._data for o in outs],
                            outs[0].context if outs else None, gradient=gradient)
            for i, o in enumerate(outs):
                o._node = (node, i)
        return outputs

    def forward(self, *inputs):
        raise NotImplementedError

    def backward(self, *output_grads):
        raise NotImplementedError

