"""What ``import mxnet`` does in a process of a distributed job.

As in MXNet 1.9.1, the same script serves every role: ``mxnet/__init__.py`` calls
:func:`on_import` last, and

- with ``DMLC_ROLE=server`` (as ``python -m mxnet.tools.launch`` sets it) the import runs
  the server loop until every worker is done, then ends the process with
  ``sys.exit(0)``, so nothing after ``import mxnet`` runs in a server;
- with ``DMLC_ROLE=scheduler`` the process exits at once: MPI does the scheduler's job;
- with ``DMLC_ROLE=worker`` it only arranges that a worker which never creates a
  distributed store still joins the job when it exits: MPICH's ``MPI_Init`` returns
  only once every rank of the job has called it, and the servers wait for every
  worker's goodbye.

Servers and workers act only in the process that ``mpiexec`` started. A child it
starts (multiprocessing, a DataLoader worker) inherits the environment but is told
apart by ``MXNET_KVSTORE_RANK_PID``, which the rank process sets to its own pid. A
pytest process never becomes a server or exits here, whatever ``DMLC_ROLE`` says.
Without ``DMLC_ROLE`` (a plain ``mpiexec``) nothing happens beyond that mark: roles then
come from the rank at ``kv.create``. Without any of these variables the import is
unaffected.
"""
from __future__ import annotations

import os
import sys
import warnings

__all__ = ["on_import", "mpi_rank", "child_of_rank"]

_MARK = "MXNET_KVSTORE_RANK_PID"
# What MPI process managers put in the environment of the processes they start.
_RANK_VARS = ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")


def _first(names):
    for n in names:
        v = os.environ.get(n)
        if v is not None and v.strip().lstrip("-").isdigit():
            return int(v)
    return None


def child_of_rank():
    """Whether this process was started by a process of a job rather than by mpiexec."""
    mark = os.environ.get(_MARK)
    return mark is not None and mark != str(os.getpid())


def mpi_rank():
    """This process's rank when mpiexec started it (None otherwise, or in its children).

    The first call in a rank process marks the environment with its pid, so that
    processes it starts later know they are not the rank process.
    """
    rank = _first(_RANK_VARS)
    if rank is None or child_of_rank():
        return None
    os.environ[_MARK] = str(os.getpid())
    return rank


def _under_pytest():
    return "_pytest" in sys.modules or "pytest" in sys.modules


def on_import():
    """Act on ``DMLC_ROLE`` (see the module docstring); a no-op outside a job."""
    env = os.environ
    if "DMLC_ROLE" not in env and not any(k in env for k in _RANK_VARS):
        return
    rank = mpi_rank()
    role = env.get("DMLC_ROLE", "").strip().lower()
    if role in ("server", "scheduler") and _under_pytest():
        warnings.warn(f"DMLC_ROLE={role} is set in a pytest process; ignoring it (a test run "
                      f"never becomes a {role})", RuntimeWarning, stacklevel=3)
        return
    if role == "scheduler":
        print("mxnet: DMLC_ROLE=scheduler: mxnet-py needs no scheduler process (MPI plays "
              "its part); exiting", file=sys.stderr, flush=True)
        sys.exit(0)
    if rank is None:
        if role == "server" and not child_of_rank():
            warnings.warn("DMLC_ROLE=server, but this process was not started by mpiexec: "
                          "mxnet-py runs distributed jobs over MPI, so it cannot serve here. "
                          "Start jobs with python -m mxnet.tools.launch", RuntimeWarning,
                          stacklevel=3)
        return
    if role == "server":
        from .dist import serve_and_exit
        serve_and_exit()
    if role == "worker":
        import atexit
        atexit.register(_join_at_exit)


def _join_at_exit():
    """A worker that never created a distributed store joins the job now and says
    goodbye, so the servers (and MPI_Init elsewhere) do not wait for it forever."""
    from . import dist, dist_worker
    if dist.started():
        return
    err = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
    j = dist.job()  # every rank must call MPI_Init, even to abort: the others wait in it
    if err is not None:
        from .protocol import Endpoint
        Endpoint(j.world, j.layout).fault(f"exiting on an unhandled {type(err).__name__} before "
                                          f"joining the job: {err}")
    dist_worker.get(j.world, j.layout, at_exit=False)
    dist_worker._close_at_exit()
