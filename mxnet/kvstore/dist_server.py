"""The server side of ``dist_sync`` / ``dist_async``: one loop per server process.

A server holds, for each store and key, the piece of the value that lives on it (the
whole value, or one shard of a big array). It answers what workers send:

- ``INIT`` stores the initial value (only worker 0 sends it);
- ``PUSH`` brings a worker's (possibly 2-bit compressed) value. In sync mode pushes
  are summed per round, a round being one push from every worker; when the round is
  complete the sum is applied: it goes through the optimizer when one was sent,
  else it replaces the stored value. In async mode each push is applied on arrival.
  The server handles one message at a time, so each update is atomic per key.
- ``PULL`` is answered with the stored value. In sync mode a worker's pull waits
  until the rounds that worker has pushed to are applied, so a pull after a push
  sees that push's round.
- ``CMD`` carries ``_send_command_to_servers`` commands (the optimizer, sync mode ...).

The loop ends when every worker has said it is done.
"""
from __future__ import annotations

import pickle
import time
import traceback
from collections import deque

import numpy as np

from . import protocol as P

__all__ = ["serve"]


class _Shard:
    """One key's piece on this server, and its sync-mode bookkeeping."""

    __slots__ = ("data", "rounds", "applied", "last", "waiting", "inflight", "error")

    def __init__(self, data):
        self.data = data
        self.rounds = deque()   # open rounds: [merged sum, set of workers in it]
        self.applied = 0        # rounds applied so far
        self.last = {}          # worker rank -> the last round it pushed to
        self.waiting = []       # deferred pulls: (worker, req, part, round needed)
        self.inflight = 0       # replies still being sent from ``data``
        self.error = None


class _Store:
    """The state of one worker-side store (workers number their stores alike)."""

    def __init__(self):
        self.sync = False
        self.updater = None
        self.shards = {}


class Server:
    """The server loop of one server process."""

    def __init__(self, world, layout):
        self.layout = layout
        self.ep = P.Endpoint(world, layout)
        self.ep.watch = set(layout.worker_ranks)
        self.stores = {}

    def run(self):
        ep = self.ep
        nworkers = self.layout.num_workers
        for w in self.layout.worker_ranks:
            ep.send(w, (P.HELLO,))
        idle = 0
        while True:
            got = ep.poll()
            busy = ep.progress()
            ep.check()
            if got is not None:
                self.handle(*got)
                idle = 0
                continue
            if len(ep.left) >= nworkers:
                ep.bye(self.layout.worker_ranks)
                if not ep.progress():
                    break
            if busy:
                time.sleep(0)
                continue
            idle += 1
            time.sleep(min(1e-3, 2e-5 * idle))
        ep.flush()

    # -- messages ---------------------------------------------------------------------
    def store(self, sid):
        st = self.stores.get(sid)
        if st is None:
            st = self.stores[sid] = _Store()
        return st

    def handle(self, src, hdr):
        ep = self.ep
        if ep.handle_common(src, hdr):
            if hdr[0] == P.DONE:
                for st in self.stores.values():
                    for (key, _), sh in st.shards.items():
                        self.check_stuck(key, sh)
            return
        kind = hdr[0]
        if kind == P.PUSH:
            _, sid, key, part, n, threshold, req = hdr
            self.on_push(src, self.store(sid), key, part, n, threshold, req)
        elif kind == P.PULL:
            _, sid, key, part, req = hdr
            self.on_pull(src, self.store(sid), key, part, req)
        elif kind == P.INIT:
            _, sid, key, part, shape, dtype, req = hdr
            buf = np.empty(shape, dtype=np.dtype(dtype))
            ep.recv_into(src, buf)
            self.store(sid).shards[(key, part)] = _Shard(buf)
            ep.send(src, (P.ACK, req, None))
        elif kind == P.CMD:
            _, sid, head, body, req = hdr
            ep.send(src, (P.ACK, req, self.command(self.store(sid), head, body)))
        else:
            ep.fault(f"unexpected message {hdr!r} from {self.layout.describe(src)}")

    def check_stuck(self, key, sh):
        """A worker that is done can never complete a sync round still waiting for it."""
        if not sh.rounds or not self.ep.left:
            return
        for rnd in sh.rounds:
            gone = [w for w in self.ep.left if w not in rnd[1]]
            if gone:
                pushed = ", ".join(self.layout.describe(w) for w in sorted(rnd[1]))
                self.ep.fault(f"{self.layout.describe(gone[0])} finished while a dist_sync "
                              f"round of key {key!r} still waits for its push (pushed by "
                              f"{pushed}); every worker must push each key equally often")

    def missing(self, key):
        return (f"key {key!r} has not been initialised on {self.layout.me}; call kv.init "
                f"for it on every worker before push or pull")

    def on_push(self, src, st, key, part, n, threshold, req):
        ep = self.ep
        sh = st.shards.get((key, part))
        if sh is None:
            nbytes = 4 * P.packed_words(n) if threshold is not None else None
            if nbytes is None:
                # the size is unknown without the key: take it from the message itself
                ep.recv_into(src, self._probe_buffer(src))
            else:
                ep.drain(src, nbytes)
            ep.send(src, (P.ACK, req, self.missing(key)))
            return
        if threshold is None:
            buf = np.empty(sh.data.shape, dtype=sh.data.dtype)
            ep.recv_into(src, buf)
        else:
            words = np.empty(P.packed_words(n), dtype=np.float32)
            ep.recv_into(src, words)
            buf = P.unpack_2bit(words, n, threshold, sh.data.dtype).reshape(sh.data.shape)
        if not st.sync:
            self.apply(st, key, sh, buf)
            ep.send(src, (P.ACK, req, sh.error))
            return
        r = max(sh.last.get(src, sh.applied - 1) + 1, sh.applied)
        i = r - sh.applied
        if i == len(sh.rounds):
            sh.rounds.append([buf, {src}])
        else:
            rnd = sh.rounds[i]
            np.add(rnd[0], buf, out=rnd[0])
            rnd[1].add(src)
        sh.last[src] = r
        ep.send(src, (P.ACK, req, None))
        self.check_stuck(key, sh)
        nworkers = self.layout.num_workers
        while sh.rounds and len(sh.rounds[0][1]) >= nworkers:
            merged = sh.rounds.popleft()[0]
            self.apply(st, key, sh, merged)
            sh.applied += 1
        if sh.waiting:
            still = []
            for w, wreq, wpart, need in sh.waiting:
                if need < sh.applied:
                    self.reply(w, wreq, wpart, sh)
                else:
                    still.append((w, wreq, wpart, need))
            sh.waiting = still

    def _probe_buffer(self, src):
        st = self.ep.MPI.Status()
        self.ep.comm.Probe(src, P.TAG_DATA, st)
        return np.empty(st.Get_count(self.ep.MPI.BYTE), dtype=np.uint8)

    def on_pull(self, src, st, key, part, req):
        sh = st.shards.get((key, part))
        if sh is None:
            self.ep.send(src, (P.REPLY, req, part, self.missing(key)))
            return
        need = sh.last.get(src, -1)
        if st.sync and need >= sh.applied:
            sh.waiting.append((src, req, part, need))
        else:
            self.reply(src, req, part, sh)

    def reply(self, dst, req, part, sh):
        if sh.error is not None:
            self.ep.send(dst, (P.REPLY, req, part, sh.error))
            return
        data = sh.data
        sh.inflight += 1

        def sent():
            if sh.data is data:
                sh.inflight -= 1
        self.ep.send(dst, (P.REPLY, req, part, None), (data,), sent)

    def apply(self, st, key, sh, grad):
        """Apply one (summed) push to the stored value."""
        if st.updater is None:
            sh.data = grad  # a fresh buffer: replies still in flight keep the old one
            sh.inflight = 0
            return
        if sh.inflight:  # copy on write: replies in flight still read the old buffer
            sh.data = sh.data.copy()
            sh.inflight = 0
        from ..context import cpu
        from ..ndarray.ndarray import _new
        ctx = cpu()
        weight = _new(sh.data, ctx)
        try:
            st.updater(key.encode() if isinstance(key, str) else key, _new(grad, ctx), weight)
            weight.wait_to_read()
        except Exception:  # noqa: BLE001 - reported to the workers that pull this key
            sh.error = (f"the optimizer failed on {self.layout.me} updating key {key!r}:\n"
                        + traceback.format_exc())
            return
        data = weight._data
        if data is not sh.data:
            sh.data = np.ascontiguousarray(data).reshape(sh.data.shape)

    def command(self, st, head, body):
        """Run a server command; return None or an error message."""
        try:
            if head == P.CMD_CONTROLLER:
                from .. import optimizer as opt
                if isinstance(body, str):
                    body = body.encode("latin-1")
                st.updater = opt.get_updater(pickle.loads(body))
            elif head == P.CMD_SYNC_MODE:
                st.sync = str(body).strip() not in ("0", "False", "false")
            elif head in (P.CMD_STOP_SERVER, P.CMD_SET_MULTI_PRECISION, P.CMD_SET_GRADIENT_COMPRESSION,
                          P.CMD_SET_PROFILER_PARAMS):
                # The optimizer keeps its own fp32 copies; compression travels with each
                # push; servers stop when every worker is done, never earlier.
                pass
            else:
                return f"unknown server command {head!r}"
        except Exception:  # noqa: BLE001 - sent back to the worker
            return f"server command {head} failed on {self.layout.me}:\n" + traceback.format_exc()
        return None


def serve(world, layout):
    """Run this process's server loop until the workers are done."""
    server = Server(world, layout)
    try:
        server.run()
    except KeyboardInterrupt:
        server.ep.fault("interrupted")
