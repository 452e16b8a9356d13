"""Run one rank's command for ``mxnet.tools.launch`` and make its end visible.

``mpiexec`` starts ``python _rank_guard.py COMMAND ...`` (by file path, so the package
``mxnet`` is never imported here and this process takes no role). The guard

- notes its pid and role in the launcher's run directory (``guard<rank>``), so the
  launcher watches this rank from the start, even when COMMAND fails before ``import mxnet`` (a syntax error,
  a missing module) and would otherwise leave the other ranks waiting in ``MPI_Init``;
- runs COMMAND as its child, with every inherited file descriptor (MPICH's process
  manager talks to the rank through one), forwarding SIGINT, SIGTERM and SIGHUP to it;
  the child is killed if the guard is;
- ends the way the child ended (the same status, or the same signal), after noting a
  clean end (status 0) of a child that never imported mxnet as finished, so such a rank
  is not taken for a failure (a child that imported mxnet notes its own end), and any
  other end with its status (``exit<rank>``: guard pid,
  child pid, Popen return code), which the launcher reports.

Only the standard library is used.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys

_RANK_VARS = ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")


def _rank():
    for k in _RANK_VARS:
        v = os.environ.get(k, "")
        if v.isdigit():
            return int(v)
    return None


def _note(rundir, name, text):
    path = os.path.join(rundir, name)
    tmp = os.path.join(rundir, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        pass


def _die_with_parent():
    # Linux: the child gets SIGKILL when the guard dies, whatever kills the guard.
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - not Linux, or no prctl: the launcher reaps leftovers
        pass


def main(argv):
    command = argv[1:]
    if not command:
        print("mxnet.tools.launch: the rank guard needs a command", file=sys.stderr)
        return 2
    rundir = os.environ.get("MXNET_LAUNCH_RUNDIR", "")
    rank = _rank()
    watched = bool(rundir) and rank is not None and os.path.isdir(rundir)
    if watched:
        try:
            servers = int(os.environ.get("DMLC_NUM_SERVER", "0"))
        except ValueError:
            servers = 0
        who = (f"server {rank} (MPI rank {rank})" if rank < servers
               else f"worker {rank - servers} (MPI rank {rank})")
        _note(rundir, f"guard{rank}", f"{os.getpid()} {who}\n")
    try:
        child = subprocess.Popen(command, close_fds=False, preexec_fn=_die_with_parent)
    except OSError as err:
        print(f"mxnet.tools.launch: cannot run {command[0]!r}: {err}", file=sys.stderr,
              flush=True)
        return 127

    def forward(signum, frame):
        try:
            child.send_signal(signum)
        except OSError:
            pass

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, forward)
    rc = child.wait()
    if watched:
        if rc == 0 and not os.path.exists(os.path.join(rundir, f"rank{rank}")):
            # never imported mxnet (which notes rank<N> and, at a clean end, ok<N>)
            _note(rundir, f"ok{rank}", "\n")
        else:
            _note(rundir, f"exit{rank}", f"{os.getpid()} {child.pid} {rc}\n")
    if rc < 0:   # killed by a signal: end the same way, so mpiexec reports that signal
        if -rc not in (signal.SIGKILL, signal.SIGSTOP):   # these two take no handler
            signal.signal(-rc, signal.SIG_DFL)
        os.kill(os.getpid(), -rc)
        return 128 - rc
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
