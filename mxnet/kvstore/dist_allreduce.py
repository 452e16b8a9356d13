"""``dist_sync_allreduce``: data-parallel training over MPI Allreduce, without servers.

Every worker keeps a full copy of every key. ``init`` broadcasts worker 0's value;
``push`` sums the pushed arrays over devices, then over workers with a non-blocking
``MPI_Iallreduce``. The collective's place is reserved in program order when ``push``
is called (so every worker starts the same collectives in the same order); an
asynchronous engine op fills it once the pushed arrays are computed, so the
all-reduce of one layer's gradient can run while backward computes the others. The
result replaces the stored value, or, after ``set_optimizer``, goes through the
optimizer, which every worker runs alike on identical sums, so the copies stay
identical. ``pull`` copies the local value.

Launch the job with ``-s 0`` (servers are not used; if the job has some, they just
wait for the workers to finish).
"""
from __future__ import annotations

import threading

import numpy as np

from .. import engine
from ..base import MXNetError
from ..context import cpu
from ..ndarray import NDArray
from ..ndarray.ndarray import _new
from .dist_common import DistWorkerCommon
from .base import _fail, _key_value_pairs
from .dist_worker import host_array, reduce_to_host
from .local import _copy_into

__all__ = ["AllreduceKVStore"]

_ASYNC = engine.FnProperty.ASYNC

# MPI has no standard 16-bit float: such values are reduced in float32.
_WIDEN = {np.dtype(np.float16): np.dtype(np.float32), np.dtype(np.bool_): np.dtype(np.int32)}


def _offload(fut, then, done, priority, name):
    """Once ``fut`` is done: run ``then()`` on an engine worker and complete async op
    ``done`` with the first failure (of ``fut`` or ``then``), if any."""
    err = fut.exception()
    if err is not None:
        done(err)
        return

    def job():
        try:
            then()
        except Exception as e:  # noqa: BLE001 - the op's failure
            done(e)
            return
        done()
    engine.push(job, (), (), priority, name, _ASYNC)


class _Entry:
    __slots__ = ("key", "shape", "dtype", "data", "var")

    def __init__(self, key, data):
        self.key = key
        self.shape = data.shape
        self.dtype = data.dtype
        self.data = data
        self.var = engine.Var()


class AllreduceKVStore(DistWorkerCommon):
    """A server-less synchronous store over MPI collectives."""

    def _key_table(self):
        return self._store

    def __init__(self, name, van):
        self._type = name
        self._van = van
        self._layout = van.layout
        self._store = {}
        self._key_str = None
        self._updater = None
        self._lock = threading.Lock()
        self._setup_overlap()
        van.barrier()







    def _collective(self, start):
        return self._van.collective(start)

    # -- init ------------------------------------------------------------------------------
    def init(self, key, value):
        """Give each key worker 0's value (a broadcast; every worker must call it)."""
        pairs = self._pairs(key, value)
        seen = set()
        for k, _ in pairs:
            if k in self._store or k in seen:
                raise MXNetError(f"duplicate init of key {k!r}: kv.init and kv.broadcast may set "
                                 f"a key only once")
            seen.add(k)
        wcomm = self._van.wcomm
        futs = []
        for k, v in pairs:
            dtype = np.dtype(v._data.dtype)
            wire = _WIDEN.get(dtype, dtype)
            if self.rank == 0:
                v.wait_to_read()
                buf = np.array(host_array(v), dtype=wire, order="C", copy=True)
            else:
                buf = np.empty(tuple(v.shape), dtype=wire)
            futs.append((k, buf, dtype, self._collective(lambda b=buf: wcomm.Ibcast(b, root=0))))
        for k, buf, dtype, fut in futs:
            fut.result()
            self._store[k] = _Entry(k, buf.astype(dtype, copy=False))

    # -- push / pull -------------------------------------------------------------------------
    def push(self, key, value, priority=0):
        """Sum each key's values over devices and workers into the store (collective)."""
        for entry, srcs in self._grouped(self._pairs(key, value), "push"):
            slot = self._van.reserve()
            name = f"KVStore.push({entry.key!r})"
            src_vars = tuple(s.engine_var for s in srcs)

            def start(done, entry=entry, srcs=srcs, slot=slot, src_vars=src_vars, name=name):
                wire = _WIDEN.get(entry.dtype, entry.dtype)
                send, owned = reduce_to_host(srcs, wire)
                if owned:
                    for v in src_vars:
                        done.release(v)
                recv = np.empty(entry.shape, dtype=wire)
                fut = self._allreduce(slot, send, recv)

                def finish():
                    total = recv.astype(entry.dtype, copy=False)
                    if self._updater is None:
                        entry.data = total
                    else:
                        self._update(entry, total)
                # the optimizer may be slow: run it on an engine worker, not the messenger
                fut.add_done_callback(lambda f: _offload(f, finish, done, priority, name))

            def skipped(exc, entry=entry, slot=slot):
                # the other workers still run this collective: take part with zeros
                wire = _WIDEN.get(entry.dtype, entry.dtype)
                self._allreduce(slot, np.zeros(entry.shape, wire), np.empty(entry.shape, wire))
            engine.push_async(start, src_vars, (entry.var,), priority, name, on_skip=skipped)

    def _allreduce(self, slot, send, recv):
        from mpi4py import MPI
        wcomm = self._van.wcomm
        return slot.fill(lambda: wcomm.Iallreduce(send, recv, op=MPI.SUM))

    def _update(self, entry, total):
        ctx = cpu()
        weight = _new(entry.data, ctx)
        key = entry.key.encode() if isinstance(entry.key, str) else entry.key
        with self._lock:  # the optimizer's counters are shared between keys
            self._updater(key, _new(total, ctx), weight)
        weight.wait_to_read()
        if weight._data is not entry.data:
            entry.data = np.ascontiguousarray(weight._data).reshape(entry.shape)

    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Copy each key's value into its output array(s)."""
        if out is None:
            _fail()
        for entry, dsts in self._grouped(self._pairs(key, out), "pull"):
            def copy_out(entry=entry, dsts=dsts):
                for d in dsts:
                    _copy_into(d._data, d.context, entry.data)
            engine.push(copy_out, (entry.var,), tuple(d.engine_var for d in dsts), priority,
                        f"KVStore.pull({entry.key!r})", _ASYNC)

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Pull only the rows ``row_ids`` of each key; the other rows of ``out`` become 0."""
        if out is None or row_ids is None:
            _fail()
        if isinstance(row_ids, NDArray):
            row_ids = [row_ids]
        if not isinstance(row_ids, list):
            _fail("row_ids should be NDArray or list of NDArray")
        single = len(row_ids) == 1 and isinstance(out, list)
        pairs = self._pairs(key, [out[0]] if single else out)
        rid_pairs, _ = _key_value_pairs(key, row_ids)
        if len(rid_pairs) != len(pairs):
            _fail("the number of row_ids doesn't match the number of values")
        for (k, dst), (_, rid) in zip(pairs, rid_pairs):
            (entry, _), = self._grouped([(k, dst)], "row_sparse_pull")

            def copy_rows(entry=entry, dst=dst, rid=rid):
                rows = np.unique(host_array(rid).astype(np.int64).reshape(-1))
                picked = np.zeros(entry.shape, dtype=entry.dtype)
                picked[rows] = entry.data[rows]
                _copy_into(dst._data, dst.context, picked)
            engine.push(copy_rows, (entry.var, rid.engine_var), (dst.engine_var,), priority,
                        f"KVStore.row_sparse_pull({k!r})", _ASYNC)
        if single:
            for o in out[1:]:
                out[0].copyto(o)



    # -- optimizer ------------------------------------------------------------------------------
    def set_optimizer(self, optimizer):
        """Every worker runs ``optimizer`` on the summed gradients (identical updates)."""
        from .. import optimizer as opt
        self._set_updater(opt.get_updater(optimizer))

    def _set_updater(self, updater):
        for entry in self._store.values():
            engine.wait_for_var(entry.var)
        self._updater = updater

    set_updater = _set_updater


    def set_gradient_compression(self, compression_params):
        raise MXNetError(f"gradient compression is not supported by {self._type!r}: the "
                         f"allreduce sums full-precision values; use 'dist_sync' with servers")

    def _send_command_to_servers(self, head, body):
        """A no-op: this store has no servers."""

    def _barrier(self):
        """Wait until every worker reached this barrier."""
        engine.wait_all()
        self._van.barrier()

    def __repr__(self):
        return (f"<KVStore {self._type!r}: worker {self.rank} of {self.num_workers}, "
                f"{len(self._store)} keys>")
