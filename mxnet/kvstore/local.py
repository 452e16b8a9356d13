"""The in-process stores: ``local`` (sums and updates in CPU memory) and ``device``
(sums on the devices the values come from; ``nccl`` is served by it too).

Every key owns an :class:`_Entry`: the stored array (a raw buffer, its context and an
engine Var). Push and pull are engine operations, pushed with ``FnProperty.ASYNC`` so
that they overlap with the caller:

- a push reads the source arrays' vars and writes the store's buffer var: it sums
  the sources on the key's home device into that buffer;
- a pull reads the store's buffer var and writes the destination array's var,
  copying into the destination's buffer in place, on its device.

So a pull runs after the pushes issued before it, a push waits for the pulls issued
before it, and anything reading a pulled array waits for the pull (NDArray
operations wait on pending work of their inputs).

With an updater (``set_optimizer`` / ``_set_updater``) the sum goes to a per-key
merge buffer (its own var) instead, and the updater is called in the pushing
thread, as 1.9.1 calls it, with NDArrays that carry the merge buffer's and the
stored weight's vars. Its operations therefore wait for that reduction and for
pulls still reading the weight. Calling it at push time, rather than in a worker
later, keeps 1.9.1's semantics for everything the optimizer does in Python: it
reads the learning rate and counts the update when ``push`` is called, so a
``set_learning_rate`` right after a push cannot leak into that push's update.
The price is that a push with an updater returns only once its update is done.
"""
from __future__ import annotations

import contextlib
import operator

import numpy as _np

from .. import engine
from ..backend import get_backend
from ..base import MXNetError
from ..context import Context
from ..ndarray import NDArray
from ..ndarray.ndarray import _new
from .base import (KVStoreBase, UpdaterStatesMixin, _fail, _key_value_pairs, _raise_mixed,
                   parse_compression)

__all__ = ["KVStore"]

_ASYNC = engine.FnProperty.ASYNC
_NO_SCOPE = contextlib.nullcontext()


def _scope(ctx):
    """Make ``ctx`` the current device while its arrays are created or combined."""
    if ctx.device_typeid == 2:
        return get_backend(ctx).device
    return _NO_SCOPE


def _copy_into(dst, dst_ctx, src):
    """Copy raw array ``src`` (any device) into raw array ``dst`` on ``dst_ctx``, casting."""
    be = get_backend(dst_ctx)
    with _scope(dst_ctx):
        be.xp.copyto(dst, be.asarray(src), casting="unsafe")


def _sum_into(out, ctx, parts, grouped=False):
    """Write the sum of raw arrays ``parts`` (any devices) into ``out`` on ``ctx``.

    ``grouped``: in the order of 1.9.1's CPU store ('local'), which adds to the first part
    the others summed four at a time, x0 + (((x1 + x2) + x3) + x4), then + (x5 + ...); else
    first to last, as its 'device' store (float sums depend on the order)."""
    be = get_backend(ctx)
    xp = be.xp
    with _scope(ctx):
        if len(parts) == 1:
            xp.copyto(out, be.asarray(parts[0]), casting="unsafe")
            return
        arrs = [be.asarray(p).astype(out.dtype, copy=False) for p in parts]
        if grouped and len(arrs) > 2:
            first = arrs[1:5]   # x0 + S equals S + x0: the first group is summed in out
            xp.add(first[0], first[1], out=out)
            for a in first[2:]:
                xp.add(out, a, out=out)
            xp.add(out, arrs[0], out=out)
            for i in range(5, len(arrs), 4):
                group = arrs[i:i + 4]
                acc = group[0] if len(group) == 1 else xp.add(group[0], group[1])
                for a in group[2:]:
                    xp.add(acc, a, out=acc)
                xp.add(out, acc, out=out)
            return
        xp.add(arrs[0], arrs[1], out=out)
        for a in arrs[2:]:
            xp.add(out, a, out=out)


def _ctx_order(ctx):
    return (ctx.device_typeid, ctx.device_id)


class _Entry:
    """The stored value of one key, and the buffers its pushes use."""

    __slots__ = ("key", "var", "data", "ctx", "shape", "dtype", "home",
                 "merge", "merge_var", "residual", "rows", "stype", "sparse_merge")

    def __init__(self, key, shape, dtype, ctx):
        self.key = key
        self.var = engine.Var()       # guards data / ctx (the stored value)
        self.shape = tuple(shape)
        self.dtype = dtype
        self.ctx = ctx                # where data lives now; ops may move it to home
        with _scope(ctx):
            self.data = get_backend(ctx).xp.empty(self.shape, dtype=dtype)
        self.home = None              # where pushes are summed (decided at first push)
        self.merge = None             # the summed gradient when an updater runs
        self.merge_var = None
        self.residual = {}            # 2-bit compression: source position -> residual
        self.rows = None              # the stored row ids after a row_sparse push, else None
        self.stype = "default"        # the storage type of the value given to init
        self.sparse_merge = None      # the summed row_sparse gradient given to the updater

    @property
    def nbytes(self):
        return self.data.nbytes

    def place(self, home):
        """Move the stored value to ``home`` (the caller waited for ops on it)."""
        if self.ctx == home:
            return
        with _scope(home):
            self.data = get_backend(home).asarray(self.data)
        self.ctx = home


class KVStore(UpdaterStatesMixin, KVStoreBase):
    """A single-process key-value store (see :func:`mxnet.kvstore.create`).

    ``on_device=False`` gives the ``local`` store: values are summed and updated in
    CPU memory (``cpu_pinned(0)``, as 1.9.1 does). ``on_device=True`` gives the
    ``device`` store: each key gets a home among the devices of the first push,
    chosen to balance bytes, and its values are summed and updated there.
    """

    def __init__(self, name="local", on_device=False):
        self._type = name
        self._on_device = bool(on_device)
        self._store = {}
        self._key_str = None          # True / False once the first key fixes the kind
        self._updater = None
        self._threshold = None        # 2-bit gradient compression threshold, when on
        self._devices = None          # device store: the devices keys are spread over
        self._load = {}
        self._cpu = Context("cpu_pinned", 0)

    # -- properties -----------------------------------------------------------------
    @property
    def type(self):
        """The type name the store was created with (lower case)."""
        return self._type

    @property
    def rank(self):
        """Always 0: a single-process store has one worker."""
        return 0

    @property
    def num_workers(self):
        """Always 1."""
        return 1

    def is_capable(self, capability):
        """True for ``'optimizer'``; ValueError for capabilities 1.9.1 does not know."""
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return True
        raise ValueError(f"Unknown capability: {capability}")

    # -- argument handling ------------------------------------------------------------
    def _pairs(self, keys, vals):
        """Flatten a call's keys and arrays, checking the store keeps one key kind."""
        pairs, use_str = _key_value_pairs(keys, vals)
        if use_str is not None:
            if self._key_str is None:
                self._key_str = use_str
            elif use_str != self._key_str:
                _raise_mixed(self._key_str, pairs[0][0] if pairs else keys)
        return pairs

    def _entry(self, key):
        entry = self._store.get(key)
        if entry is None:
            raise MXNetError(f"key {key!r} has not been inited (the key doesn't exist in this "
                             f"store); call init (or broadcast) for it before push or pull")
        return entry

    def _checked(self, pairs, what):
        """Look up each pair's entry, checking the array's shape against the stored one."""
        out = []
        for k, arr in pairs:
            entry = self._entry(k)
            if tuple(arr.shape) != entry.shape:
                raise MXNetError(f"{what}: shape mismatch for key {k!r}: the stored value has "
                                 f"shape {entry.shape}, the array has shape {tuple(arr.shape)}")
            out.append((entry, arr))
        return out

    @staticmethod
    def _priority(priority):
        return operator.index(priority)

    # -- init ---------------------------------------------------------------------------
    def init(self, key, value):
        """Give each key its initial value (copied); a key may be initialised once."""
        self._init_pairs(self._pairs(key, value))

    def _init_pairs(self, pairs):
        for k, v in pairs:
            if k in self._store:
                raise MXNetError(f"duplicate init of key {k!r}: kv.init and kv.broadcast may "
                                 f"set a key only once")
            ctx = v.context if self._on_device else self._cpu
            entry = _Entry(k, v.shape, v._data.dtype, ctx)
            if v.stype == "row_sparse":   # as 1.9.1, the store keeps the rows it was given
                entry.stype = "row_sparse"
                entry.rows = get_backend(ctx).asarray(v._parts.indices).astype("int64")
            self._store[k] = entry
            engine.push(lambda e=entry, src=v: _copy_into(e.data, e.ctx, src._data),
                        (v.engine_var,), (entry.var,), 0, f"KVStore.init({k!r})")

    # -- push -----------------------------------------------------------------------------
    def push(self, key, value, priority=0):
        """Sum the values given for each key (one per device) into the store.

        Without an updater the sum replaces the stored value; with one (see
        :meth:`set_optimizer`) the updater is called as ``updater(key, sum, stored)``.
        """
        self._push_pairs(self._pairs(key, value), priority)

    def _push_pairs(self, pairs, priority):
        priority = self._priority(priority)
        groups = {}
        for entry, arr in self._checked(pairs, "push"):
            groups.setdefault(entry.key, (entry, []))[1].append(arr)
        for entry, srcs in groups.values():
            self._push_one(entry, tuple(srcs), priority)

    def _home(self, entry, srcs):
        """The device where ``entry``'s pushes are summed (chosen at its first push)."""
        if not self._on_device:
            return self._cpu
        if entry.home is None:
            if self._devices is None:
                devs = sorted({a.context for a in srcs}, key=_ctx_order)
                self._devices = devs
                self._load = dict.fromkeys(devs, 0)
                waiting = [e for e in self._store.values() if e.home is None]
                for e in sorted(waiting, key=lambda e: -e.nbytes):
                    self._assign(e)
            else:
                self._assign(entry)
        return entry.home

    def _assign(self, entry):
        dev = min(self._devices, key=lambda d: self._load[d])  # first device wins ties
        self._load[dev] += entry.nbytes
        entry.home = dev
        # Move the stored value now, once, so that later ops find it in place.
        engine.wait_for_var(entry.var)
        entry.place(dev)

    def _push_one(self, entry, srcs, priority):
        home = self._home(entry, srcs)
        if any(a.stype != "default" for a in srcs):
            self._push_sparse(entry, srcs, home)
            return
        entry.rows = None
        threshold = self._threshold
        updater = self._updater
        if updater is None:   # as 1.9.1: the sum (dense here) becomes the stored value
            entry.stype = "default"
        name = f"KVStore.push({entry.key!r})"
        if threshold is not None:
            bad = [a.dtype for a in srcs if a.dtype != _np.float32]
            if bad:   # 1.9.1's 2-bit kernels read float32 only (they raise for others)
                raise MXNetError(f"{name}: 2-bit gradient compression supports float32 values "
                                 f"only, got {_np.dtype(bad[0]).name}")
        src_vars = tuple(a.engine_var for a in srcs)

        def parts():
            if threshold is None:
                return [a._data for a in srcs]
            return [self._quantize(entry, i, a, threshold) for i, a in enumerate(srcs)]

        if updater is None:
            engine.push(lambda: _sum_into(entry.data, home, parts(), not self._on_device),
                        src_vars, (entry.var,), priority, name, _ASYNC)
            return

        if len(srcs) == 1 and threshold is None and srcs[0].context == home:
            grad = srcs[0]  # the pushed array itself, as in 1.9.1
        else:
            # as 1.9.1: a 'device' store sums into a buffer of the stored value's dtype
            dt = entry.data.dtype if self._on_device else srcs[0]._data.dtype
            if entry.merge_var is None:
                entry.merge_var = engine.Var()
            if entry.merge is None or entry.merge.dtype != dt:
                engine.wait_for_var(entry.merge_var)
                with _scope(home):
                    entry.merge = get_backend(home).xp.empty(entry.shape, dtype=dt)
            merge = entry.merge
            engine.push(lambda: _sum_into(merge, home, parts(), not self._on_device),
                        src_vars, (entry.merge_var,), priority, name, _ASYNC)
            grad = _new(merge, home)
            grad._var = entry.merge_var
        if entry.stype == "row_sparse":   # a row_sparse weight (as 1.9.1) and a dense grad
            engine.wait_for_var(entry.var)
            key = entry.key.encode() if isinstance(entry.key, str) else entry.key
            self._update_sparse_weight(entry, home, updater, key, grad)
            return
        weight = _new(entry.data, home)
        weight._var = entry.var
        # Called here, in the pushing thread, as 1.9.1 does: the optimizer reads its
        # learning rate and counts the update at push time. Its NDArray operations
        # wait for the reduction above and for pulls still reading the weight.
        updater(entry.key.encode() if isinstance(entry.key, str) else entry.key, grad, weight)

    def _push_sparse(self, entry, srcs, home):
        """Push row_sparse values: they are summed over the union of their rows (1.9.1's
        reduction), on ``home``. With an updater it gets that sum as a RowSparseNDArray
        (so lazy updates touch only those rows); without one the sum becomes the stored
        value, and a row_sparse ``pull`` receives exactly its rows."""
        from ..ndarray.sparse import _SLOT as _RSP_SLOT
        from ..ndarray.sparse import RowSparseNDArray, _Parts, _scatter_add
        if any(a.stype != "row_sparse" for a in srcs):
            raise MXNetError(f"KVStore.push({entry.key!r}): a push mixing storage types "
                             f"{[a.stype for a in srcs]} is not supported; push only "
                             "row_sparse or only dense values")
        if self._threshold is not None:
            raise MXNetError(f"KVStore.push({entry.key!r}): gradient compression of "
                             "row_sparse values is not supported (1.9.1 has none either)")
        be = get_backend(home)
        xp = be.xp
        with _scope(home):
            parts = [a._parts for a in srcs]   # waits for the writes to each source
            idx = [be.asarray(p.indices).astype("int64") for p in parts]
            rows = xp.unique(xp.concatenate(idx)) if idx else xp.zeros((0,), "int64")
            dt = parts[0].data.dtype
            vals = xp.zeros((rows.shape[0],) + entry.shape[1:], dtype=dt)
            for p, i in zip(parts, idx):
                # each source's rows are unique, so a plain += would do; scatter-add is
                # kept for safety with unsorted or repeated ids
                _scatter_add(xp, vals, xp.searchsorted(rows, i), be.asarray(p.data).astype(dt))
        updater = self._updater
        engine.wait_for_var(entry.var)
        if updater is not None:
            grad = entry.sparse_merge
            if grad is None or grad.context != home:
                grad = entry.sparse_merge = RowSparseNDArray._wrap(
                    _Parts(entry.shape, vals, rows), home)
            else:
                # as 1.9.1: one buffer per key holds the summed gradient, so an updater
                # keeping a reference to it (LBSGD's accumulation) sees the later sums
                if grad._var is not None:
                    engine.wait_for_var(grad._var)
                _RSP_SLOT.__set__(grad, _Parts(entry.shape, vals, rows))
            key = entry.key.encode() if isinstance(entry.key, str) else entry.key
            if entry.stype == "row_sparse":
                self._update_sparse_weight(entry, home, updater, key, grad)
                return
            weight = _new(entry.data, home)
            weight._var = entry.var
            updater(key, grad, weight)
            return
        with _scope(home):
            dense = xp.zeros(entry.shape, dtype=entry.data.dtype)
            dense[rows] = vals.astype(dense.dtype)
        entry.data = dense
        entry.ctx = home
        entry.rows = rows
        entry.stype = "row_sparse"

    @staticmethod
    def _update_sparse_weight(entry, home, updater, key, grad):
        """Run ``updater`` on a key initialised with a row_sparse value: as in 1.9.1 it
        gets the stored weight as a RowSparseNDArray (its stored rows), so optimizers
        create row_sparse states and update lazily; the rows it leaves stored are kept."""
        from ..ndarray.sparse import RowSparseNDArray, _Parts
        be = get_backend(home)
        xp = be.xp
        with _scope(home):
            rows = entry.rows
            if rows is None:   # after a dense push: every row that holds a non-zero
                flat = entry.data.reshape(entry.shape[0], -1)
                rows = xp.nonzero((flat != 0).any(axis=1))[0]
            rows = be.asarray(rows).astype("int64")
            weight = RowSparseNDArray._wrap(_Parts(entry.shape, entry.data[rows], rows), home)
        updater(key, grad, weight)
        p = weight._parts
        with _scope(home):
            rows = be.asarray(p.indices).astype("int64")
            entry.data[...] = 0
            entry.data[rows] = be.asarray(p.data).astype(entry.data.dtype)
        entry.rows = rows

    @staticmethod
    def _quantize(entry, i, arr, threshold):
        """2-bit compression of source ``i``: +threshold, -threshold or 0, keeping the rest."""
        ctx = arr.context
        be = get_backend(ctx)
        xp = be.xp
        with _scope(ctx):
            r = entry.residual.get(i)
            if r is None or r.dtype != arr._data.dtype:
                r = xp.zeros(entry.shape, dtype=arr._data.dtype)
            else:
                r = be.asarray(r)
            r += arr._data
            t = r.dtype.type(threshold)
            q = xp.where(r >= t, t, xp.where(r <= -t, -t, r.dtype.type(0))).astype(r.dtype)
            r -= q
            entry.residual[i] = r
        return q

    # -- pull -----------------------------------------------------------------------------
    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Copy the stored value of each key into its output array(s), on their devices.

        With ``ignore_sparse`` (the default) sparse outputs are skipped, as in 1.9.1;
        otherwise a row_sparse output receives the rows of the last row_sparse push (every
        non-zero row after a dense one).
        """
        if out is None:
            _fail("KVStore.pull: out is required (the NDArray(s) to pull into)")
        pairs = self._pairs(key, out)
        if ignore_sparse:  # as 1.9.1: sparse outputs are left alone (saying so once per key)
            for k, o in pairs:
                if o.stype != "default":
                    _warn_sparse_pull(self, k)
            pairs = [(k, o) for k, o in pairs if o.stype == "default"]
        self._pull_pairs(pairs, priority)

    def _pull_pairs(self, pairs, priority):
        priority = self._priority(priority)
        for entry, dst in self._checked(pairs, "pull"):
            if entry.stype != dst.stype:   # 1.9.1's note on a copy between storage types
                from ..ndarray import _fallback_log
                if not _fallback_log.QUIET[0]:
                    _fallback_log.log_copy(_StoredValue(entry.stype, entry.ctx), dst)
            def copy_out(entry=entry, dst=dst):
                if dst.stype == "default":
                    _copy_into(dst._data, dst.context, entry.data)
                    return
                dbe = get_backend(dst.context)
                with _scope(dst.context):
                    if entry.rows is not None and dst.stype == "row_sparse":
                        rows = dbe.asarray(entry.rows)
                        dst._set_rows(rows, dbe.asarray(entry.data)[rows])
                    else:   # inside this op, which writes dst: no wait on dst
                        dst._assign_in_op(dbe.asarray(entry.data))
            engine.push(copy_out, (entry.var,), (dst.engine_var,), priority,
                        f"KVStore.pull({entry.key!r})", _ASYNC)

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Pull only the rows ``row_ids`` of each key; the other rows of ``out`` become 0.

        Values are dense here, so ``out`` holds what 1.9.1's row_sparse result holds
        when converted to dense. With one ``row_ids`` array and a list of outputs, the
        first output is pulled and copied to the others, as in 1.9.1.
        """
        if out is None or row_ids is None:
            _fail("KVStore.row_sparse_pull: out and row_ids are required")
        if isinstance(row_ids, NDArray):
            row_ids = [row_ids]
        if not isinstance(row_ids, list):
            _fail("row_ids should be NDArray or list of NDArray")
        first_out = out
        single = len(row_ids) == 1 and isinstance(out, list)
        if single:
            first_out = [out[0]]
        pairs = self._pairs(key, first_out)
        rid_pairs, _ = _key_value_pairs(key, row_ids)
        if len(rid_pairs) != len(pairs):
            _fail("the number of row_ids doesn't match the number of values")
        priority = self._priority(priority)
        for (entry, dst), (_, rid) in zip(self._checked(pairs, "row_sparse_pull"), rid_pairs):
            # as 1.9.1: a stored row_sparse value without rows gives no rows
            empty = entry.stype == "row_sparse" and entry.rows is not None and \
                int(entry.rows.shape[0]) == 0

            def copy_rows(entry=entry, dst=dst, rid=rid, empty=empty):
                be = get_backend(entry.ctx)
                with _scope(entry.ctx):
                    rows = be.xp.unique(be.asarray(rid._data).astype("int64").reshape(-1))
                    if empty:
                        rows = rows[:0]
                    picked = entry.data[rows]
                dbe = get_backend(dst.context)
                if dst.stype == "row_sparse":  # 1.9.1's result: the pulled rows, stored
                    dst._set_rows(dbe.asarray(rows), dbe.asarray(picked))
                    return
                with _scope(dst.context):
                    d = dst._data
                    d[...] = 0
                    d[dbe.asarray(rows)] = dbe.asarray(picked)
            engine.push(copy_rows, (entry.var, rid.engine_var), (dst.engine_var,), priority,
                        f"KVStore.row_sparse_pull({entry.key!r})", _ASYNC)
        if single:
            for o in out[1:]:
                out[0].copyto(o)

    # -- combined -------------------------------------------------------------------------
    def pushpull(self, key, value, out=None, priority=0):
        """Push ``value`` then pull into ``out`` (into ``value`` itself when ``out`` is None)."""
        vpairs = self._pairs(key, value)
        opairs = vpairs if out is None else self._pairs(key, out)
        self._checked(opairs, "pull")
        self._push_pairs(vpairs, priority)
        for k, o in opairs:   # as 1.9.1's pull: sparse outputs are left alone (saying so)
            if o.stype != "default":
                _warn_sparse_pull(self, k)
        self._pull_pairs([(k, o) for k, o in opairs if o.stype == "default"], priority)

    def broadcast(self, key, value, out, priority=0):
        """Initialise ``key`` with ``value``, then pull it into every array of ``out``."""
        vpairs = self._pairs(key, value)
        opairs = self._pairs(key, out)
        self._init_pairs(vpairs)
        self._pull_pairs(opairs, priority)

    # -- updaters -------------------------------------------------------------------------
    def set_optimizer(self, optimizer):
        """Update stored weights with ``optimizer`` on every push (update_on_kvstore)."""
        from .. import optimizer as opt  # imported late: the optimizer sits above the store
        self._set_updater(opt.get_updater(optimizer))

    def _set_updater(self, updater):
        """Call ``updater(key, summed_grad, stored_weight)`` on every later push.

        As in 1.9.1, string keys reach the updater as bytes, and it is called from the
        pushing thread. It is not called by ``init`` or ``broadcast``.
        """
        for entry in self._store.values():  # pushes in flight finish the old way
            engine.wait_for_var(entry.var)
        self._updater = updater

    set_updater = _set_updater


    # -- compression and cluster stubs --------------------------------------------------------
    def set_gradient_compression(self, compression_params):
        """Turn on 2-bit compression of pushed values (``device`` stores only, as in 1.9.1).

        ``{'type': '2bit', 'threshold': t}`` (t defaults to 0.5): each pushed value
        contributes +t, -t or 0 per element, and what it leaves out is kept per source
        and added to that source's next push.
        """
        if "device" not in self.type and "dist" not in self.type:
            raise Exception("Gradient compression is not supported for this type of kvstore")
        self._threshold = parse_compression(compression_params)

    def _barrier(self):
        """A no-op: one worker has no one to wait for."""

    def _send_command_to_servers(self, head, body):
        """A no-op: a single-process store has no servers."""

    def __repr__(self):   # 1.9.1's (the default object repr of its class)
        return f"<mxnet.kvstore.kvstore.KVStore object at {id(self):#x}>"


class _StoredValue:
    """What ``log_copy`` reads of a stored value: its storage type and context."""

    __slots__ = ("stype", "context")

    def __init__(self, stype, context):
        self.stype = stype
        self.context = context


def _warn_sparse_pull(store, key):
    """1.9.1's warning, once per key of ``store``, that a pull into a sparse array was
    ignored (``Module`` pulls updated weights this way; row_sparse ones need
    ``row_sparse_pull``)."""
    warned = store.__dict__.setdefault("_sparse_pull_warned", set())
    if key in warned:
        return
    warned.add(key)
    from ..base import native_log
    native_log("../src/kvstore/./kvstore_local.h:378",
               "Warning: non-default weights detected during kvstore pull. This call has been "
               "ignored. Please make sure to use kv.row_sparse_pull() or module.prepare() with "
               "row_ids.")
