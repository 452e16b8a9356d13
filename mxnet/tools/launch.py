"""Start a distributed mxnet-py job with ``mpiexec`` (the ``mpich`` wheel's, or a system
MPICH or Open MPI).

    python -m mxnet.tools.launch -n WORKERS [-s SERVERS] [--launcher local|mpi]
                                 [-H HOSTFILE] [--env K=V ...] [--timeout SEC] COMMAND ...

The job is one MPI world: SERVERS server processes (ranks 0..S-1, ``DMLC_ROLE=server``)
then WORKERS worker processes (``DMLC_ROLE=worker``), all running COMMAND.
``DMLC_NUM_WORKER`` and ``DMLC_NUM_SERVER`` are set for everyone. SERVERS defaults to
WORKERS, as in MXNet; use ``-s 0`` with ``dist_sync_allreduce``. As in 1.9.1, a server's
``import mxnet`` serves until the workers are done and then exits the process
(``mxnet/kvstore/role.py``), so one script serves every role.

``--launcher local`` runs every process on this machine; ``--launcher mpi`` spreads
them over the hosts of HOSTFILE (MPICH's format: one ``host[:slots]`` per line; the
Python environment must exist at the same path on every host).

The flavour of mpiexec is read once from ``mpiexec --version``: MPICH's Hydra gets
``-genv``/``-env``/``-f``; Open MPI gets ``-x K=V``, ``--hostfile`` (the host file is
rewritten to Open MPI's ``host slots=N`` lines), ``--oversubscribe``, ``--bind-to none``
and, when run as root, ``--allow-run-as-root``; each role's ``DMLC_ROLE`` is then set
through ``env``. An mpiexec of unknown flavour gets Hydra's syntax.

When a process dies, mpiexec stops the others; this launcher then says which role
died and how. A process of the job that ends without finishing its part (before
``MPI_Init``, where mpiexec does not notice) makes the launcher stop the job itself.
Each rank runs COMMAND under a small guard process (``_rank_guard.py``), so this holds
even for a rank that fails before it imports mxnet; a rank that exits with status 0
without using mxnet counts as finished.
Ctrl-C (or SIGTERM) stops the whole job and leaves no process behind.
The exit status is the job's (124 after ``--timeout``, 130 after Ctrl-C).
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from pathlib import Path

__all__ = ["main", "find_mpiexec", "mpi_flavor", "build_command"]

_PREFIX = "mxnet.tools.launch"
# Seconds the launcher leaves mpiexec to end a job by itself after one of its processes
# ended without finishing (see _run).
_DEATH_GRACE = 3.0


def find_mpiexec():
    """The ``mpiexec`` to use: ``$MXNET_MPIEXEC``, the one installed next to this Python
    (the ``mpich`` wheel puts it there), or the first on ``PATH``; None if there is none."""
    env = os.environ.get("MXNET_MPIEXEC")
    if env:
        return env
    for d in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        p = d / "mpiexec"
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    return shutil.which("mpiexec")


def _parse_env(pairs):
    out = []
    for item in pairs or ():
        sep = "=" if "=" in item else ":"
        key, _, val = item.partition(sep)
        if not key or not _:
            raise SystemExit(f"{_PREFIX}: --env wants KEY=VALUE, got {item!r}")
        out.append((key, val))
    return out


MPICH = "mpich"
OPENMPI = "openmpi"
_FLAVORS = {}


def mpi_flavor(mpiexec):
    """``"openmpi"`` or ``"mpich"``: what ``mpiexec --version`` says it is (asked once per
    mpiexec). Hydra (MPICH and its derivatives) and anything unrecognised give ``"mpich"``."""
    if mpiexec in _FLAVORS:
        return _FLAVORS[mpiexec]
    try:
        p = subprocess.run([mpiexec, "--version"], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=20)
        text = (p.stdout or "") + (p.stderr or "")
    except (OSError, subprocess.SubprocessError):
        text = ""
    flavor = MPICH
    if "HYDRA" not in text.upper() and re.search(r"Open MPI|OpenRTE|open-mpi\.org", text, re.I):
        flavor = OPENMPI
    _FLAVORS[mpiexec] = flavor
    return flavor


def _openmpi_hostfile(src, dst):
    """Rewrite an MPICH host file (``host[:slots]`` lines) as Open MPI's (``host slots=N``);
    lines already in Open MPI's form are kept."""
    out = []
    with open(src) as f:
        for line in f:
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            m = re.fullmatch(r"(\S+?):(\d+)", text)
            out.append(f"{m.group(1)} slots={m.group(2)}" if m else text)
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")
    return dst


def _run_as_root():
    return hasattr(os, "geteuid") and os.geteuid() == 0


def build_command(mpiexec, workers, servers, command, hostfile=None, env=(), rundir=None,
                  flavor=MPICH):
    """The ``mpiexec`` command line of a job: MPICH Hydra's syntax, or Open MPI's with
    ``flavor="openmpi"`` (see :func:`mpi_flavor`)."""
    if flavor == OPENMPI:
        return _build_openmpi(mpiexec, workers, servers, command, hostfile, env, rundir)
    cmd = [mpiexec]
    if hostfile:
        cmd += ["-f", hostfile]
    genv = [("DMLC_NUM_WORKER", str(workers)), ("DMLC_NUM_SERVER", str(servers))]
    if rundir:
        genv.append(("MXNET_LAUNCH_RUNDIR", rundir))
    if "PYTHONUNBUFFERED" not in os.environ:
        genv.append(("PYTHONUNBUFFERED", "1"))
    for k, v in list(genv) + list(env):
        cmd += ["-genv", k, v]
    if servers:
        cmd += ["-n", str(servers), "-env", "DMLC_ROLE", "server"] + list(command) + [":"]
    cmd += ["-n", str(workers), "-env", "DMLC_ROLE", "worker"] + list(command)
    return cmd


# Variables a remote Open MPI process would otherwise lack (Hydra passes the whole
# environment; Open MPI passes only what ``-x`` names beyond its own).
_OMPI_FORWARD = ("PATH", "PYTHONPATH", "LD_LIBRARY_PATH", "VIRTUAL_ENV")


def _build_openmpi(mpiexec, workers, servers, command, hostfile, env, rundir):
    cmd = [mpiexec]
    if _run_as_root():
        cmd.append("--allow-run-as-root")
    # as with Hydra: any number of processes on one machine, and no pinning of each
    # process (with its thread pools) to a single core
    cmd += ["--oversubscribe", "--bind-to", "none"]
    if hostfile:
        cmd += ["--hostfile", hostfile]
    xs = []
    if hostfile:
        xs += [["-x", k] for k in sorted(os.environ) if k in _OMPI_FORWARD or k.startswith("MXNET_")]
    genv = [("DMLC_NUM_WORKER", str(workers)), ("DMLC_NUM_SERVER", str(servers))]
    if rundir:
        genv.append(("MXNET_LAUNCH_RUNDIR", rundir))
    if "PYTHONUNBUFFERED" not in os.environ:
        genv.append(("PYTHONUNBUFFERED", "1"))
    xs += [["-x", f"{k}={v}"] for k, v in list(genv) + list(env)]
    xs = [a for pair in xs for a in pair]
    # Open MPI 4 applies a -x only to the app context it appears in (one given before
    # the first reaches only the first), so every context repeats them; each role's own
    # variable is set by env(1), which execs the command (the rank keeps its pid).
    if servers:
        cmd += ["-n", str(servers)] + xs + ["env", "DMLC_ROLE=server"] + list(command) + [":"]
    cmd += ["-n", str(workers)] + xs + ["env", "DMLC_ROLE=worker"] + list(command)
    return cmd


class _Relay(threading.Thread):
    """Copies one of mpiexec's output streams to ours, noting its failure reports
    (Hydra's, or Open MPI's)."""

    _PID = re.compile(rb"PID (\d+) RUNNING AT (\S+)|with PID (\d+) on node")
    _CODE = re.compile(rb"EXIT CODE: (\d+)|Exit code:\s+(\d+)|with errorcode (\d+)")
    _STRING = re.compile(rb"EXIT STRING: (.*)|(exited on signal \d+.*)")

    def __init__(self, src, dst, report):
        super().__init__(daemon=True)
        self.src = src
        self.dst = dst
        self.report = report

    def run(self):
        for line in iter(self.src.readline, b""):
            for key, rx in (("pid", self._PID), ("code", self._CODE), ("string", self._STRING)):
                m = rx.search(line)
                if m and key not in self.report:
                    text = next(g for g in m.groups() if g is not None)
                    self.report[key] = text.decode(errors="replace").strip()
            try:
                self.dst.write(line)
                self.dst.flush()
            except (OSError, ValueError):
                pass


def note_process_start():
    """Note this process's pid and role for the launcher, first thing in ``import mxnet``
    (only in a process that mpiexec started for this launcher).

    With the note the launcher can tell when the process ends before finishing its part
    (even from a failing import), and stop the job that would otherwise wait for it in
    ``MPI_Init`` for ever. ``mxnet.kvstore`` replaces the note with a fuller one later.
    """
    rundir = os.environ.get("MXNET_LAUNCH_RUNDIR")
    # MPICH sets PMI_RANK; Open MPI sets OMPI_COMM_WORLD_RANK (and PMIX_RANK)
    rank = next((os.environ[k] for k in ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")
                 if k in os.environ), "")
    if not rundir or not rank.isdigit() or not os.path.isdir(rundir):
        return
    mark = os.environ.get("MXNET_KVSTORE_RANK_PID")
    if mark is not None and mark != str(os.getpid()):
        return  # a process started by a process of the job
    path = os.path.join(rundir, f"rank{rank}")
    if os.path.exists(path):
        return
    r = int(rank)
    try:
        ns = int(os.environ.get("DMLC_NUM_SERVER", "0"))
    except ValueError:
        ns = 0
    who = f"server {r} (MPI rank {r})" if r < ns else f"worker {r - ns} (MPI rank {r})"
    try:
        with open(path, "w") as f:
            f.write(f"{os.getpid()} {who}\n")
    except OSError:
        pass


def _notes(rundir):
    """(rank, pid, role) of every process noted in ``rundir``: the ranks' own notes
    (``rank<N>``, written at ``import mxnet``) and the rank guards' (``guard<N>``)."""
    out = []
    for name in os.listdir(rundir) if rundir and os.path.isdir(rundir) else ():
        for prefix in ("rank", "guard"):
            if name.startswith(prefix) and name[len(prefix):].isdigit():
                try:
                    with open(os.path.join(rundir, name)) as f:
                        pid, _, who = f.read().strip().partition(" ")
                except OSError:
                    continue
                out.append((name[len(prefix):], pid, who))
    return out


def _finished(rundir):
    """The pids of processes that noted a clean end of their part of the job."""
    return {pid for r, pid, _ in _notes(rundir) if os.path.exists(os.path.join(rundir, f"ok{r}"))}


def _roles(rundir):
    """pid -> 'worker 1 (MPI rank 3)' from the notes the processes left in ``rundir``."""
    return {pid: who for _, pid, who in _notes(rundir)}


class _DeathWatch(threading.Thread):
    """Notes which of the job's processes ends first, and how (Linux pidfds).

    Hydra's own report names an arbitrary process once it has killed them all, so
    the launcher watches the pids the processes wrote into ``rundir`` itself.
    ``first`` is ``[(pid, waitpid-style status or None), ...]``: one entry when the
    first death was seen alone, several when they were seen together (ambiguous).
    """

    def __init__(self, rundir):
        super().__init__(daemon=True)
        self.rundir = rundir
        self.first = None
        self.done = threading.Event()

    def run(self):
        if not hasattr(os, "pidfd_open"):
            return
        import select
        fds = {}
        seen = set()
        poller = select.poll()
        try:
            while not self.done.is_set() and self.first is None:
                vanished = []
                for pid in _roles(self.rundir):
                    if pid in seen:
                        continue
                    seen.add(pid)
                    try:
                        fd = os.pidfd_open(int(pid))
                    except ProcessLookupError:
                        vanished.append(pid)  # gone before it could be watched
                        continue
                    except (OSError, ValueError):
                        continue
                    fds[fd] = pid
                    poller.register(fd, select.POLLIN)
                ready = []
                for fd, _ in poller.poll(0 if vanished else 50):
                    poller.unregister(fd)
                    ready.append(fds[fd])
                ok = _finished(self.rundir)
                dead = [pid for pid in vanished + ready if pid not in ok]
                if dead:
                    known = _guard_statuses(self.rundir)
                    self.first = [(pid, _status_of(pid, known)) for pid in dead]
        finally:
            for fd in fds:
                os.close(fd)


def _guard_statuses(rundir):
    """pid -> waitpid-style status, from the ends the rank guards noted (``exit<rank>``)."""
    out = {}
    for name in os.listdir(rundir) if rundir and os.path.isdir(rundir) else ():
        if not name.startswith("exit") or name.endswith(".tmp"):
            continue
        try:
            with open(os.path.join(rundir, name)) as f:
                guard, child, rc = f.read().split()
            rc = int(rc)
        except (OSError, ValueError):
            continue
        status = (-rc) & 0x7F if rc < 0 else (rc & 0xFF) << 8
        out[guard] = out[child] = status
    return out


def _status_of(pid, known):
    status = _exit_status(pid)
    return known.get(pid) if status is None else status


def _exit_status(pid):
    """The waitpid status of a dead, not yet reaped process (/proc/PID/stat field 52)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[49])
    except (OSError, IndexError, ValueError):
        return None


def _how(status, report, rc):
    if status is not None:
        if status & 0x7F:
            sig = status & 0x7F
            try:
                return f"was killed by signal {sig} ({signal.Signals(sig).name})"
            except ValueError:
                return f"was killed by signal {sig}"
        return f"exited with status {status >> 8}"
    sig = re.search(r"signal (\d+)", report.get("string", ""))
    if sig:
        return f"ended; mpiexec reports signal {sig.group(1)}"
    if report.get("code") is not None:
        return f"ended; mpiexec reports exit code {report['code']}"
    return f"failed (mpiexec exit status {rc})"


def _aborts(rundir):
    """The messages of processes that aborted the job, earliest first."""
    notes = []
    for name in os.listdir(rundir) if rundir and os.path.isdir(rundir) else ():
        if name.startswith("abort"):
            try:
                with open(os.path.join(rundir, name)) as f:
                    stamp, _, text = f.read().strip().partition(" ")
                notes.append((float(stamp), text))
            except (OSError, ValueError):
                continue
    return [t for _, t in sorted(notes)]


def _explain(rc, report, rundir, first, by_launcher=False):
    aborts = _aborts(rundir)
    if aborts:
        return (f"{_PREFIX}: the job failed: a process aborted it: {aborts[0]} "
                f"See the output above for details.")
    roles = _roles(rundir)

    def name(pid):
        who = roles.get(pid)
        return f"{who}, pid {pid}," if who else f"the process with pid {pid}"
    # mpiexec kills the other processes within milliseconds of the first death, and a
    # process can take longer than that to be reported dead, so "first seen" is only
    # very likely the cause.
    if first and by_launcher:
        # mpiexec's report is about the processes the launcher then stopped
        names = "; ".join(f"{name(pid)} " + (_how(status, {}, 0) if status is not None else "ended")
                          for pid, status in first)
        return (f"{_PREFIX}: the job failed: {names} before finishing its part of the job; "
                f"the others could not go on without it, so the launcher stopped them. See "
                f"the output above for its error, if any.")
    if first and len(first) == 1:
        pid, status = first[0]
        return (f"{_PREFIX}: the job failed: {name(pid)} {_how(status, report, rc)} (the first "
                f"process seen ending); mpiexec then stopped the others. See the output above "
                f"for its error.")
    if first:
        names = "; ".join(f"{name(pid)} {_how(status, report, rc)}" for pid, status in first)
        return (f"{_PREFIX}: the job failed; processes seen ending together: {names}. mpiexec "
                f"stopped the others. See the output above for the error.")
    return (f"{_PREFIX}: the job failed: a process {_how(None, report, rc)}; mpiexec stopped "
            f"the other processes. See the output above for its error.")


def _stop(proc, grace=5.0):
    """Stop mpiexec and its job: SIGINT (Hydra then kills the job), then harder."""
    for sig, wait in ((signal.SIGINT, grace), (signal.SIGTERM, grace), (signal.SIGKILL, grace)):
        if proc.poll() is not None:
            return
        try:
            if sig == signal.SIGKILL:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
        except (ProcessLookupError, PermissionError):
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def main(argv=None):
    """Parse arguments, run the job, return its exit status."""
    ap = argparse.ArgumentParser(
        prog="python -m mxnet.tools.launch",
        description="Launch a distributed mxnet-py job (workers and servers) with mpiexec.")
    ap.add_argument("-n", "--num-workers", type=int, required=True, help="number of workers")
    ap.add_argument("-s", "--num-servers", type=int, default=None,
                    help="number of servers (default: as many as workers; 0 for allreduce)")
    ap.add_argument("--launcher", choices=("local", "mpi"), default="local",
                    help="local: all processes here; mpi: over the hosts of -H")
    ap.add_argument("-H", "--hostfile", default=None, help="MPICH host file (host[:slots] lines)")
    ap.add_argument("--env", action="append", default=[], metavar="K=V",
                    help="set an environment variable in every process (repeatable)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="stop the job after this many seconds (exit status 124)")
    ap.add_argument("--mpiexec", default=None, help="the mpiexec to use (default: found)")
    ap.add_argument("--dry-run", action="store_true", help="print the mpiexec command and exit")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command every process runs")
    args = ap.parse_args(argv)

    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if len(command) == 1 and " " in command[0]:
        command = shlex.split(command[0])
    if not command:
        ap.error("no command given")
    workers = args.num_workers
    servers = workers if args.num_servers is None else args.num_servers
    if workers < 1 or servers < 0:
        ap.error("need at least one worker and a non-negative number of servers")
    if args.hostfile and args.launcher != "mpi":
        ap.error("-H/--hostfile needs --launcher mpi")
    if args.hostfile and not os.path.isfile(args.hostfile):
        ap.error(f"host file {args.hostfile!r} not found")
    mpiexec = args.mpiexec or find_mpiexec()
    if not mpiexec:
        print(f"{_PREFIX}: mpiexec not found: pip install 'mxnet-py[dist]' (mpi4py and mpich), "
              f"or set MXNET_MPIEXEC", file=sys.stderr)
        return 127
    env = _parse_env(args.env)
    flavor = mpi_flavor(mpiexec)

    with tempfile.TemporaryDirectory(prefix="mxnet-launch-") as rundir:
        hostfile = args.hostfile
        if hostfile and flavor == OPENMPI:
            hostfile = _openmpi_hostfile(hostfile, os.path.join(rundir, "hostfile"))
        cmd = build_command(mpiexec, workers, servers, _guarded(command), hostfile, env, rundir,
                            flavor=flavor)
        if args.dry_run:
            print(shlex.join(cmd))
            return 0
        return _run(cmd, args.timeout, rundir)


def _guarded(command):
    """COMMAND run under the rank guard (``_rank_guard.py``), which lets the launcher watch
    a rank that fails before it imports mxnet."""
    return [sys.executable, str(Path(__file__).with_name("_rank_guard.py"))] + list(command)


def _ours(pid, rundir):
    """Whether live process ``pid`` belongs to this job (its environment names ``rundir``)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read().split(b"\0")
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z" and f"MXNET_LAUNCH_RUNDIR={rundir}".encode() in env


def _reap_leftovers(rundir, grace=3.0):
    """After mpiexec is gone, make sure no process of the job outlives it."""
    pids = list(_roles(rundir))
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        pids = [p for p in pids if _ours(p, rundir)]
        if not pids:
            return
        time.sleep(0.05)
    for p in pids:
        if _ours(p, rundir):
            try:
                os.kill(int(p), signal.SIGKILL)
            except OSError:
                pass


def _run(cmd, timeout, rundir):
    report = {}
    # mpiexec gets its own session, so signals reach the job only through this launcher
    # (which then stops everything) and never half of it.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    relays = [_Relay(proc.stdout, sys.stdout.buffer, report),
              _Relay(proc.stderr, sys.stderr.buffer, report)]
    for r in relays:
        r.start()
    watch = _DeathWatch(rundir)
    watch.start()
    stop = {"why": None}

    def on_signal(signum, frame):
        stop["why"] = signum

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    deadline = None if timeout is None else time.monotonic() + timeout
    died_at = None
    try:
        while proc.poll() is None:
            now = time.monotonic()
            if stop["why"] is None and deadline is not None and now > deadline:
                stop["why"] = "timeout"
                print(f"{_PREFIX}: the job ran past --timeout {timeout:g} s; stopping it",
                      file=sys.stderr, flush=True)
            if stop["why"] is None and watch.first is not None:
                # A process ended without finishing its part. mpiexec stops the job
                # itself when one dies after MPI_Init; one that ends before it (even
                # with status 0) leaves the others waiting in MPI_Init for ever.
                died_at = now if died_at is None else died_at
                if now - died_at > _DEATH_GRACE:
                    stop["why"] = "died"
            if stop["why"] is not None:
                # processes stuck in MPI_Init do not react to mpiexec's SIGINT quickly
                _stop(proc, grace=1.0 if stop["why"] == "died" else 5.0)
                break
            try:
                proc.wait(0.1)
            except subprocess.TimeoutExpired:
                pass
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        if proc.poll() is None:
            _stop(proc, grace=2.0)
        for r in relays:
            r.join(5.0)
        watch.done.set()
        watch.join(1.0)
        _reap_leftovers(rundir)
    rc = proc.returncode
    if stop["why"] == "timeout":
        return 124
    if stop["why"] == "died":
        print(_explain(rc, report, rundir, watch.first, by_launcher=True), file=sys.stderr,
              flush=True)
        status = watch.first[0][1] if len(watch.first) == 1 else None
        code = (status >> 8) if status is not None and not status & 0x7F else 0
        return code or 1
    if stop["why"] is not None:
        print(f"{_PREFIX}: stopped by signal {stop['why']}; the job was ended", file=sys.stderr)
        return 130 if stop["why"] == signal.SIGINT else 143
    if rc != 0:
        print(_explain(rc, report, rundir, watch.first), file=sys.stderr, flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
