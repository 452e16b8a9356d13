"""Distributed stores over MPI: ``dist_sync``, ``dist_async`` (+ ``_device`` aliases) and
``dist_sync_allreduce``.

A job is one MPI world started by ``python -m mxnet.tools.launch``: its first
``DMLC_NUM_SERVER`` ranks are servers and the rest are workers, every one running
the same script. What a process does:

- a server started with ``DMLC_ROLE=server`` (the launcher sets it) runs the server
  loop (:mod:`.dist_server`) inside ``import mxnet`` and, when the workers are done,
  ends the process with ``sys.exit(0)`` (see :mod:`.role`), as 1.9.1 does;
- a worker gets its store from ``mx.kv.create('dist_...')`` (:mod:`.dist_worker`,
  :mod:`.dist_allreduce`);
- under a plain ``mpiexec`` without ``DMLC_ROLE``, a rank that the layout makes a
  server serves from ``mx.kv.create`` instead;
- a process with ``DMLC_ROLE=scheduler`` has nothing to do (MPI plays the
  scheduler's part) and exits.

See ``docs/distributed.md``.
"""
from __future__ import annotations

import os
import sys
import threading
import time

from ..base import MXNetError
from . import protocol as P

__all__ = ["create_dist", "KVStoreServer", "job", "started", "serve", "serve_and_exit"]


class _Job:
    """This process's place in the MPI job (made once, on the first distributed store)."""

    def __init__(self):
        try:
            from mpi4py import MPI
        except ImportError as err:
            raise MXNetError("distributed KVStores need mpi4py and an MPI library: "
                             "pip install 'mxnet-py[dist]' (mpi4py and mpich)") from err
        self.MPI = MPI
        self.world = MPI.COMM_WORLD
        self.layout = P.Layout(self.world.Get_rank(), self.world.Get_size())
        self._note_for_launcher()
        _start_orphan_guard(self.layout)

    def _note_for_launcher(self):
        """Tell ``mxnet.tools.launch`` which pid has which role (for its error messages)."""
        lay = self.layout
        P.note_for_launcher("rank", lay.rank, f"{os.getpid()} {lay.describe(lay.rank)}")


def _start_orphan_guard(layout):
    """Exit when the process that started this one (the MPI process manager) is gone,
    so a killed launcher leaves no stray ranks behind."""
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                print(f"mxnet.kvstore: {layout.me}: the MPI launcher is gone; exiting",
                      file=sys.stderr, flush=True)
                os._exit(1)
    threading.Thread(target=watch, name="mxnet-kvstore-orphan-guard", daemon=True).start()


_job = None
_job_lock = threading.Lock()


def job():
    """This process's :class:`_Job` (starts MPI on first call)."""
    global _job
    with _job_lock:
        if _job is None:
            _job = _Job()
    return _job


def started():
    """Whether this process has joined its MPI job (as a server or a worker)."""
    return _job is not None


def serve(j=None):
    """Run this server process's loop until every worker is done."""
    j = job() if j is None else j
    if j.layout.role != "server":
        raise MXNetError(f"only a server process can serve; this is {j.layout.me}")
    from .dist_server import serve as loop
    loop(j.world, j.layout)
    P.note_for_launcher("ok", j.layout.rank)


def serve_and_exit():
    """Serve until the job ends, then end the process (``sys.exit(0)``)."""
    serve()
    sys.exit(0)


def _not_launched(name):
    return MXNetError(
        f"distributed KVStore {name!r} is not available in this process: it is not part of "
        f"a distributed job. Start every process with "
        f"python -m mxnet.tools.launch -n WORKERS [-s SERVERS] python SCRIPT ...")


def create_dist(name):
    """Make the distributed store ``name`` (a lower-case name containing ``dist``).

    In a server process this serves until the job ends, then exits the process.
    """
    if not P.launched():
        raise _not_launched(name)
    from .role import child_of_rank
    if child_of_rank():
        raise MXNetError(f"distributed KVStore {name!r} is not available in this process: it "
                         f"was started by a process of the job (pid "
                         f"{os.environ.get('MXNET_KVSTORE_RANK_PID')}), not by mpiexec; create "
                         f"the store in the process the launcher started")
    j = job()
    role = j.layout.role
    if role == "scheduler":
        sys.exit(0)
    if role == "server":
        serve_and_exit()
    from . import dist_worker
    van = dist_worker.get(j.world, j.layout)
    if "allreduce" in name:
        from .dist_allreduce import AllreduceKVStore
        return AllreduceKVStore(name, van)
    return dist_worker.DistKVStore(name, van)


class KVStoreServer:
    """The server role of a distributed job: ``KVStoreServer(kv).run()`` serves until the
    workers are done. ``import mxnet`` does this by itself in server processes."""

    def __init__(self, kvstore=None):
        self.kvstore = kvstore
        if not P.launched():
            raise _not_launched(getattr(kvstore, "type", kvstore) or "dist")
        self._job = job()
        if self._job.layout.role != "server":
            raise MXNetError(f"KVStoreServer can only run in a server process; this is "
                             f"{self._job.layout.me}")

    def run(self):
        """Serve until every worker is done."""
        from .dist_server import serve as loop
        loop(self._job.world, self._job.layout)
