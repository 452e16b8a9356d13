"""The worker side of the distributed stores.

:class:`WorkerVan` is a worker process's messenger: one daemon thread that alone calls
MPI once the job is set up. Stores hand it small callables (post these messages,
expect these replies, start this collective) and get a Future back; the thread
posts non-blocking sends, receives replies straight into the buffers the store
gave, tests collectives, answers pings and watches the other processes.

:class:`DistKVStore` is ``dist_sync`` / ``dist_async`` (and their ``_device``
aliases), the parameter-server stores:

- ``push`` is an asynchronous engine op that reads the pushed arrays and writes the
  key's order var: once the arrays are computed (say, by an asynchronous backward
  pass still running on other layers) it sums them over devices and hands the sum
  (2-bit compressed when asked) to the messenger, then gives the order var back. It
  holds the arrays (when it sends straight from their buffer) until the servers
  acknowledged the push, so a later write cannot change them in flight.
- ``pull`` is an asynchronous engine op writing the key's order var and the output
  arrays: once granted (after the push before it was handed on) it hands its
  request to the messenger, and completes when the reply has been copied in.
- No engine thread ever waits for the network: the messenger completes the ops from
  its future callbacks.
- Priorities: what the messenger finds queued when it looks, it posts highest
  ``priority`` first; a key's messages keep their program order (the servers see a
  pull after the push before it) and commands are never crossed (:func:`by_priority`).
  Nothing is held back for a higher priority that might come later: the messenger
  posts as soon as it can, so with a free messenger messages leave in program order.
- ``init`` is collective: worker 0 sends the values, every worker records the
  keys' shapes, then all meet at a barrier.
"""
from __future__ import annotations

import heapq
import itertools
import pickle
import queue
import sys
import threading
import time
from collections import deque
from concurrent.futures import Future

import numpy as np

from .. import engine
from ..base import MXNetError
from ..ndarray import NDArray
from . import protocol as P
from .dist_common import DistWorkerCommon
from .base import _fail, _key_value_pairs, parse_compression
from .local import _copy_into

__all__ = ["WorkerVan", "DistKVStore", "host_array"]

# Idle rounds of the messenger loop spent yielding (not sleeping) while replies or
# collectives are pending: MPI makes progress only inside MPI calls, so a short spin
# right after activity halves the latency of a 4 MB all-reduce; then it backs off.
_SPIN = 200
# Seconds a collective may stay pending after a worker in it said goodbye.
_LEFT_GRACE = 5.0


def host_array(arr):
    """A NumPy view (CPU) or copy (GPU) of NDArray ``arr``'s data; the caller waited for it."""
    d = arr._data
    if arr.context.device_typeid == 2:
        return d.get()
    return np.asarray(d)


def reduce_to_host(srcs, dtype):
    """Sum arrays ``srcs`` (computed already) into one C-contiguous NumPy array of ``dtype``.

    Returns ``(array, owned)``; ``owned`` is False when the array is the first
    source's own buffer, which must then stay unchanged while it is in use.
    """
    parts = [host_array(s) for s in srcs]
    first = parts[0]
    if len(parts) == 1:
        if first.dtype == dtype and first.flags.c_contiguous and srcs[0].context.device_typeid != 2:
            return first, False
        return np.ascontiguousarray(first, dtype=dtype), True
    out = np.array(first, dtype=dtype, order="C", copy=True)
    for p in parts[1:]:
        np.add(out, p, out=out, casting="unsafe")
    return out, True


class _Call:
    """A request waiting for ``remaining`` replies (ACKs, or data into ``bufs[part]``)."""

    __slots__ = ("future", "remaining", "bufs")

    def __init__(self, future, remaining, bufs):
        self.future = future
        self.remaining = remaining
        self.bufs = bufs

    def one(self, err=None):
        self.remaining -= 1
        if err is not None and not self.future.done():
            self.future.set_exception(MXNetError(err))
        if self.remaining <= 0 and not self.future.done():
            self.future.set_result(None)
        return self.remaining <= 0


class WorkerVan:
    """The messenger thread of one worker process (one per process, see :func:`get`)."""

    def __init__(self, world, layout):
        self.world = world
        self.layout = layout
        self.ep = P.Endpoint(world, layout, on_fault=self._fail_all)
        self.ep.watch = {r for r in range(layout.size) if r != layout.rank}
        self.q = queue.SimpleQueue()
        self.calls = {}
        self.colls = []
        self.slots = deque()   # reserved collectives not started yet, in program order
        self.ids = itertools.count(1)
        self.store_ids = itertools.count()
        self.wcomm = None
        self._gone_since = None
        self.closed = False
        self._stop = False
        self._thread = threading.Thread(target=self._loop, name="mxnet-kvstore-van", daemon=True)

    # -- set up and tear down -----------------------------------------------------------
    def start(self):
        ep = self.ep
        for r in ep.watch:
            ep.send(r, (P.HELLO,))
        self._thread.start()
        others = [w for w in self.layout.worker_ranks if w != self.layout.rank]
        while not all(w in ep.heard for w in others):
            time.sleep(0.002)  # the thread aborts the job if one never comes
        group = self.world.Get_group().Incl(self.layout.worker_ranks)
        self.wcomm = self.world.Create_group(group)
        group.Free()

    def close(self):
        """Tell every other process this worker is done, deliver what is queued, stop."""
        if self.closed or self.ep.faulted:
            return
        self.closed = True

        def bye():
            self.ep.bye(self.ep.watch)
            self._stop = True
        self.q.put((bye, 0, None))
        # Wait for every other process to be done too (a dead or hung one ends the job).
        self._thread.join()

    def _fail_all(self, text):
        err = MXNetError(text)
        for call in list(self.calls.values()):
            if not call.future.done():
                call.future.set_exception(err)
        for _, fut in self.colls:
            if not fut.done():
                fut.set_exception(err)
        for slot in self.slots:
            if not slot.future.done():
                slot.future.set_exception(err)

    # -- the thread ----------------------------------------------------------------------
    def _loop(self):
        ep = self.ep
        idle = 0
        try:
            while True:
                did = self._run_queued()
                got = ep.poll()
                while got is not None:
                    self._handle(*got)
                    did = True
                    got = ep.poll()
                busy = ep.progress()
                if self.colls:
                    self._test_collectives()
                ep.check()
                if self._stop and not busy and self.ep.finished():
                    return
                if did or busy:
                    idle = 0
                    time.sleep(0)
                elif self.calls or self.colls:
                    idle += 1
                    if idle < _SPIN:
                        time.sleep(0)
                    else:
                        time.sleep(min(5e-4 if self.colls else 1e-3, 1e-5 * (idle - _SPIN)))
                else:
                    try:
                        first = self.q.get(timeout=0.02)
                    except queue.Empty:
                        continue
                    self._run_queued(first)
        except BaseException as err:  # noqa: BLE001 - any failure here ends the job
            if not ep.faulted:
                ep.fault(f"the communication thread failed: {err!r}")

    def _run_queued(self, first=None):
        """Run the submitted items, highest priority first (see :func:`by_priority`);
        return whether there were any."""
        batch = [] if first is None else [first]
        while True:
            try:
                batch.append(self.q.get_nowait())
            except queue.Empty:
                break
        for item in by_priority(batch):
            item()
        return bool(batch)

    def _handle(self, src, hdr):
        if self.ep.handle_common(src, hdr):
            return
        kind = hdr[0]
        if kind == P.ACK:
            _, req, err = hdr
            call = self.calls[req]
            if call.one(err):
                del self.calls[req]
        elif kind == P.REPLY:
            _, req, part, err = hdr
            call = self.calls[req]
            if err is None:
                self.ep.recv_into(src, call.bufs[part])
            if call.one(err):
                del self.calls[req]
        else:
            self.ep.fault(f"unexpected message {hdr!r} from {self.layout.describe(src)}")

    def _test_collectives(self):
        keep = []
        for req, fut in self.colls:
            if req.Test():
                fut.set_result(None)
            else:
                keep.append((req, fut))
        self.colls = keep
        gone = [w for w in self.ep.left if w in self.layout.worker_ranks] if keep else ()
        if not gone:
            self._gone_since = None
            return
        # A worker says goodbye only after its own collectives completed, but ours may
        # need a few more tests to see theirs complete: only a collective still
        # pending a while later was really left behind.
        now = time.monotonic()
        if self._gone_since is None:
            self._gone_since = now
        elif now - self._gone_since > min(self.ep.timeout, _LEFT_GRACE):
            self.ep.fault(f"{self.layout.describe(gone[0])} left the job while the other "
                          f"workers still wait for it in a collective operation")

    # -- what stores call ------------------------------------------------------------------
    def call(self, posts, expect, bufs=None, priority=0, chain=None):
        """Post ``posts`` ([(dst, header, arrays)]) and expect ``expect`` replies.

        Headers are callables ``req -> tuple`` so they can carry the request id.
        Returns a Future done when every reply came (failed if one was an error).
        ``priority`` and ``chain`` order the posting (see :func:`by_priority`).
        """
        fut = Future()
        req = next(self.ids)

        def item():
            if expect:
                self.calls[req] = _Call(fut, expect, bufs)
            for dst, header, arrays in posts:
                self.ep.send(dst, header(req), arrays)
            if not expect:
                fut.set_result(None)
        self._put(item, priority, chain)
        return fut

    def collective(self, start):
        """Start collective ``start()`` (returns an MPI request) in the messenger thread.

        Collectives start in the order they are submitted, which is program order, so
        every worker starts them in the same order.
        """
        slot = self.reserve()
        return slot.fill(start)

    def reserve(self):
        """Reserve the next collective's place in program order, to be started once its
        data is ready: returns a :class:`_Slot` whose ``fill(start)`` (from any thread)
        provides it. The messenger starts collectives strictly in reservation order."""
        slot = _Slot(self)
        self._put(lambda: self.slots.append(slot), 0, _COLLECTIVES)
        return slot

    def _start_filled(self):
        slots = self.slots
        while slots and slots[0].start is not None:
            slot = slots.popleft()
            self.colls.append((slot.start(), slot.future))

    def _put(self, item, priority=0, chain=None):
        if self.closed or self.ep.faulted:
            raise MXNetError(self.ep.faulted or "the distributed KVStore is closed")
        self.q.put((item, priority, chain))

    def barrier(self):
        """Block until every worker reached this barrier."""
        self.collective(lambda: self.wcomm.Ibarrier()).result()

    def command(self, head, body, sid):
        """Send a command to every server and wait until all acknowledged it."""
        posts = [(s, (lambda req, s=s: (P.CMD, sid, head, body, req)), ())
                 for s in self.layout.server_ranks]
        self.call(posts, len(posts)).result()


class _Slot:
    """A collective's reserved place in the messenger's program order (see
    :meth:`WorkerVan.reserve`)."""

    __slots__ = ("van", "start", "future")

    def __init__(self, van):
        self.van = van
        self.start = None
        self.future = Future()

    def fill(self, start):
        """Provide the collective: ``start()`` returns its MPI request. Returns a Future
        done when the collective completed."""
        self.start = start
        self.van._put(self.van._start_filled, 0, _COLLECTIVES)
        return self.future


# The chain of every collective: they keep their submission order, which is program
# order, so every worker starts the same collectives in the same order.
_COLLECTIVES = "collectives"


def by_priority(batch):
    """The callables of ``batch`` ([(callable, priority, chain)], in submission order)
    in the order to run them.

    Higher priority runs first, ties in submission order, but an item never overtakes
    an earlier item of the same chain (a store's key: a pull must follow the push
    before it), and an item without a chain (init, commands, goodbye) is a fence that
    nothing crosses.
    """
    out = []
    seg = []
    for entry in batch:
        if entry[2] is None:
            out.extend(_segment(seg))
            seg = []
            out.append(entry[0])
        else:
            seg.append(entry)
    out.extend(_segment(seg))
    return out


def _segment(seg):
    if len(seg) < 2 or all(e[1] == seg[0][1] for e in seg):
        return [e[0] for e in seg]
    chains = {}
    for seq, (fn, prio, chain) in enumerate(seg):
        chains.setdefault(chain, deque()).append((seq, prio, fn))
    heap = [(-q[0][1], q[0][0], c) for c, q in chains.items()]
    heapq.heapify(heap)
    out = []
    while heap:
        _, _, c = heapq.heappop(heap)
        q = chains[c]
        out.append(q.popleft()[2])
        if q:
            heapq.heappush(heap, (-q[0][1], q[0][0], c))
    return out


_van = None
_van_lock = threading.Lock()


def get(world, layout, at_exit=True):
    """This worker process's messenger, started on first use (closed at exit when
    ``at_exit``)."""
    global _van
    with _van_lock:
        if _van is None:
            van = WorkerVan(world, layout)
            van.start()
            if at_exit:
                import atexit
                atexit.register(_close_at_exit)
            _van = van
    return _van


def started():
    """Whether this worker process has started its messenger."""
    return _van is not None


def _close_at_exit():
    van = _van
    if van is None or van.ep.faulted:
        return
    err = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
    if err is not None:
        # Dying of an unhandled exception: the others cannot go on without this
        # worker, so end the job now rather than let them wait for it.
        van.ep.fault(f"exiting on an unhandled {type(err).__name__}: {err}")
    try:
        engine.wait_all()
    except Exception as err:  # noqa: BLE001 - exiting anyway; say what was lost
        print(f"mxnet.kvstore: {van.layout.me}: pending work failed at exit: {err}",
              file=sys.stderr, flush=True)
    van.close()
    P.note_for_launcher("ok", van.layout.rank)


class _Key:
    """What a worker knows of a key: its shape, dtype, where its pieces live and the
    engine var that keeps its pushes and pulls in program order."""

    __slots__ = ("key", "shape", "dtype", "size", "plan", "residual", "var")

    def __init__(self, key, shape, dtype, num_servers):
        self.key = key
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.plan = P.shard_plan(key, self.size, num_servers)
        self.residual = None
        self.var = engine.Var()


def when_done(fut, done, then=None):
    """Complete async engine op ``done`` when Future ``fut`` is done, after running
    ``then()`` on success (a failure of either completes the op with that failure)."""
    def cb(f):
        err = f.exception()
        if err is None and then is not None:
            try:
                then()
            except Exception as e:  # noqa: BLE001 - the op's failure
                err = e
        done(err)
    fut.add_done_callback(cb)


class DistKVStore(DistWorkerCommon):
    """A parameter-server store (``dist_sync``, ``dist_async`` and their device aliases)."""

    def _key_table(self):
        return self._keys

    def __init__(self, name, van):
        self._type = name
        self._van = van
        self._layout = van.layout
        self._sid = next(van.store_ids)
        self._keys = {}
        self._key_str = None
        self._threshold = None
        self._updater = None
        self._sync = "_async" not in name
        self._unacked = []
        self._setup_overlap()
        if self._layout.num_servers == 0:
            raise MXNetError(f"KVStore {name!r} needs servers, but the job has none: launch it "
                             f"with -s 1 or more, or use 'dist_sync_allreduce'")
        if self.rank == 0 and self._sync:
            van.command(P.CMD_SYNC_MODE, "1", self._sid)
        van.barrier()

    # -- properties ------------------------------------------------------------------------




    # -- helpers -----------------------------------------------------------------------------


    def _server(self, index):
        return self._layout.server_ranks[index]

    # -- init ----------------------------------------------------------------------------------
    def init(self, key, value):
        """Set each key's initial value: worker 0's values are stored, every worker
        records the keys, then the workers meet at a barrier."""
        pairs = self._pairs(key, value)
        futs = []
        metas = []
        for k, v in pairs:
            if k in self._keys or any(m.key == k for m in metas):
                raise MXNetError(f"duplicate init of key {k!r}: kv.init and kv.broadcast may set "
                                 f"a key only once")
            metas.append(_Key(k, v.shape, v._data.dtype, self._layout.num_servers))
        for meta, (k, v) in zip(metas, pairs):
            self._keys[k] = meta
            if self.rank != 0:
                continue
            v.wait_to_read()
            flat = np.ascontiguousarray(host_array(v), dtype=meta.dtype).reshape(-1)
            posts = []
            for part, (srv, a, b) in enumerate(meta.plan):
                shape = meta.shape if len(meta.plan) == 1 else (b - a,)
                posts.append((self._server(srv),
                              (lambda req, k=k, part=part, shape=shape:
                               (P.INIT, self._sid, k, part, shape, meta.dtype.str, req)),
                              (flat[a:b],)))
            futs.append(self._van.call(posts, len(posts)))
        for f in futs:
            f.result()
        self._van.barrier()

    # -- push ----------------------------------------------------------------------------------
    def push(self, key, value, priority=0):
        """Send the sum of each key's values (over devices) to the servers."""
        for meta, srcs in self._grouped(self._pairs(key, value), "push"):
            self._push_one(meta, srcs, priority)

    def _push_one(self, meta, srcs, priority):
        # A var of this push alone, held until the servers acknowledged it: _barrier
        # waits for it (and raises the push's failure, if any).
        mine = engine.Var()
        self._unacked = [v for v in self._unacked if v.npending or v.exc is not None]
        self._unacked.append(mine)
        src_vars = tuple(s.engine_var for s in srcs)

        def start(done):
            fut, owned = self._send_push(meta, srcs, priority)
            done.release(meta.var)   # the next op on this key may go to the messenger
            if owned:   # the data was copied: later writes to the arrays need not wait
                for v in src_vars:
                    done.release(v)
            when_done(fut, done)
        engine.push_async(start, src_vars, (meta.var, mine), priority,
                          f"KVStore.push({meta.key!r})")

    def _send_push(self, meta, srcs, priority):
        """Sum ``srcs`` (computed already), hand the messages to the messenger; returns
        (future of the acknowledgements, whether the data sent is a copy)."""
        data, owned = reduce_to_host(srcs, meta.dtype)
        flat = data.reshape(-1)
        t = self._threshold
        posts = []
        if t is None:
            for part, (srv, a, b) in enumerate(meta.plan):
                posts.append((self._server(srv), self._push_header(meta.key, part, b - a, None),
                              (flat[a:b],)))
        else:
            if meta.residual is None:
                meta.residual = np.zeros(meta.size, dtype=meta.dtype)
            codes = P.quantize_2bit(flat, meta.residual, t)
            owned = True
            for part, (srv, a, b) in enumerate(meta.plan):
                posts.append((self._server(srv), self._push_header(meta.key, part, b - a, t),
                              (P.pack_2bit(codes[a:b]),)))
        fut = self._van.call(posts, len(posts), priority=priority, chain=(self._sid, meta.key))
        return fut, owned

    def _push_header(self, key, part, n, threshold):
        sid = self._sid
        return lambda req: (P.PUSH, sid, key, part, n, threshold, req)

    # -- pull ----------------------------------------------------------------------------------
    def _fetch(self, meta, priority=0):
        """Request the key's value from its servers; returns (future, flat buffer)."""
        buf = np.empty(meta.size, dtype=meta.dtype)
        posts = []
        bufs = {}
        sid = self._sid
        for part, (srv, a, b) in enumerate(meta.plan):
            posts.append((self._server(srv),
                          (lambda req, k=meta.key, part=part: (P.PULL, sid, k, part, req)), ()))
            bufs[part] = buf[a:b]
        return self._van.call(posts, len(posts), bufs, priority, (sid, meta.key)), buf

    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Copy each key's value from the servers into its output array(s)."""
        if out is None:
            _fail()
        pairs = self._pairs(key, out)
        if ignore_sparse:   # as 1.9.1: sparse outputs are left alone
            pairs = [(k, o) for k, o in pairs if o.stype == "default"]
        for meta, dsts in self._grouped(pairs, "pull"):
            def start(done, meta=meta, dsts=dsts):
                fut, buf = self._fetch(meta, priority)

                def copy_out():
                    val = buf.reshape(meta.shape)
                    for d in dsts:
                        _copy_into(d._data, d.context, val)
                when_done(fut, done, copy_out)
            engine.push_async(start, (), (meta.var,) + tuple(d.engine_var for d in dsts), priority,
                              f"KVStore.pull({meta.key!r})")

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Pull only the rows ``row_ids`` of each key; the other rows of ``out`` become 0."""
        if out is None or row_ids is None:
            _fail()
        if isinstance(row_ids, NDArray):
            row_ids = [row_ids]
        if not isinstance(row_ids, list):
            _fail("row_ids should be NDArray or list of NDArray")
        single = len(row_ids) == 1 and isinstance(out, list)
        first_out = [out[0]] if single else out
        pairs = self._pairs(key, first_out)
        rid_pairs, _ = _key_value_pairs(key, row_ids)
        if len(rid_pairs) != len(pairs):
            _fail("the number of row_ids doesn't match the number of values")
        for (k, dst), (_, rid) in zip(pairs, rid_pairs):
            (meta, _), = self._grouped([(k, dst)], "row_sparse_pull")

            def start(done, meta=meta, dst=dst, rid=rid):
                fut, buf = self._fetch(meta, priority)

                def copy_rows():
                    val = buf.reshape(meta.shape)
                    rows = np.unique(host_array(rid).astype(np.int64).reshape(-1))
                    if dst.stype == "row_sparse":   # a Module's row_sparse weight: its rows
                        from ..backend import get_backend
                        be = get_backend(dst.context)
                        dst._set_rows(be.asarray(rows), be.asarray(val[rows]))
                        return
                    picked = np.zeros(meta.shape, dtype=val.dtype)
                    picked[rows] = val[rows]
                    _copy_into(dst._data, dst.context, picked)
                when_done(fut, done, copy_rows)
            engine.push_async(start, (rid.engine_var,), (meta.var, dst.engine_var), priority,
                              f"KVStore.row_sparse_pull({k!r})")
        if single:
            for o in out[1:]:
                out[0].copyto(o)


    # -- optimizer and commands ----------------------------------------------------------------
    def set_optimizer(self, optimizer):
        """Run ``optimizer`` on the servers: worker 0 sends it pickled; pushes then update
        the stored weights there."""
        if self.rank == 0:
            body = pickle.dumps(optimizer, 0)
            self._send_command_to_servers(P.CMD_CONTROLLER, body)
            if getattr(optimizer, "multi_precision", False):
                self._send_command_to_servers(P.CMD_SET_MULTI_PRECISION, "")
        self._van.barrier()

    def _set_updater(self, updater):
        """Keep ``updater`` on this worker (1.9.1 does not run it for dist pushes)."""
        self._updater = updater

    set_updater = _set_updater

    def _send_command_to_servers(self, head, body):
        """Send command ``head`` with ``body`` to every server; wait for them."""
        self._van.command(int(head), body, self._sid)

    def _barrier(self):
        """Wait until the servers acknowledged this worker's pushes, then for every worker.

        So after a barrier every push made before it, by any worker, has reached the
        servers (in async mode: has been applied).
        """
        pending, self._unacked = self._unacked, []
        for v in pending:
            engine.wait_for_var(v)
        self._van.barrier()


    def set_gradient_compression(self, compression_params):
        """2-bit compression of pushes (worker to server); the residual stays here."""
        self._threshold = parse_compression(compression_params)

    def __repr__(self):
        return (f"<KVStore {self._type!r}: worker {self.rank} of {self.num_workers}, "
                f"{len(self._keys)} keys>")
