"""What ``import mxnet`` does in each role of a distributed job (1.9.1's behaviour: one
script for every role; a server serves inside ``import mxnet`` and exits when the job
ends), and that processes outside a job, or pytest itself, are never affected."""
from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest

from mxnet.kvstore import role

from .test_dist import ROOT, _env, needs_mpi, run_job

# The same script for every role, as 1.9.1 scripts are written. A server never gets past
# ``import mxnet``, so only workers print the first line.
_SCRIPT_191 = r"""
import os, sys
import mxnet as mx
print(f"PAST IMPORT {os.environ.get('DMLC_ROLE')}", flush=True)  # one write: no interleaving
kv = mx.kv.create(sys.argv[1])
kv.init("w", mx.nd.ones((2, 3)))
kv.push("w", mx.nd.full((2, 3), kv.rank + 1))
out = mx.nd.zeros((2, 3))
kv.pull("w", out=out)
print(f"PULLED {kv.rank} {out.asnumpy().ravel().tolist()}", flush=True)
"""


@needs_mpi
@pytest.mark.slow
def test_server_serves_inside_import(tmp_path):
    rc, out, secs = run_job(tmp_path, _SCRIPT_191, ["dist_sync"], workers=2, servers=1)
    assert rc == 0, out
    assert out.count("PAST IMPORT worker") == 2 and "PAST IMPORT server" not in out, out
    for r in (0, 1):
        assert f"PULLED {r} {[3.0] * 6}" in out, out
    assert secs < 30


@needs_mpi
@pytest.mark.slow
def test_plain_mpiexec_takes_roles_from_the_rank(tmp_path):
    # Without the launcher (no DMLC_ROLE) rank 0 becomes the server at kv.create.
    from mxnet.tools import launch
    script = tmp_path / "job.py"
    script.write_text(_SCRIPT_191)
    mpiexec = launch.find_mpiexec()
    env = _env()
    if launch.mpi_flavor(mpiexec) == "openmpi":  # root, and more ranks than cores
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
    p = subprocess.run([mpiexec, "-n", "3", sys.executable, str(script), "dist_sync"],
                       capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=60)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert out.count("PAST IMPORT None") == 3, out
    for r in (0, 1):
        assert f"PULLED {r} {[3.0] * 6}" in out, out


@needs_mpi
@pytest.mark.slow
def test_workers_without_a_store_end_the_job(tmp_path):
    # The server started serving at import; workers that never create a dist store
    # still join at exit and say goodbye, so the job ends at once, cleanly.
    body = """
    import os
    import mxnet as mx
    print(f"DONE {os.environ['DMLC_ROLE']}", flush=True)
    """
    rc, out, secs = run_job(tmp_path, body, workers=2, servers=2)
    assert rc == 0, out
    assert out.count("DONE worker") == 2 and "DONE server" not in out, out
    assert secs < 20, out


@needs_mpi
@pytest.mark.slow
@pytest.mark.parametrize("how", ["raise", "exit0", "import"])
def test_worker_ending_before_it_joins(tmp_path, how):
    # Every rank must call MPI_Init before any can return from it: a worker that dies
    # before its kv.create would leave the others waiting there. A worker dying of an
    # error joins just to abort the job; one that quietly exits, or fails inside
    # ``import mxnet``, is noticed by the launcher, which stops the job.
    body = f"""
    import os, time
    rank = os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK"))
    if rank == "2" and {how!r} == "import":
        os.environ["MXNET_ENGINE_TYPE"] = "NoSuchEngine"  # import mxnet raises
    import mxnet as mx
    if rank == "2":
        if {how!r} == "raise":
            raise RuntimeError("no data here")
        os._exit(0)
    time.sleep(0.5)
    kv = mx.kv.create("dist_sync")
    print("NEVER", flush=True)
    """
    rc, out, secs = run_job(tmp_path, body, workers=2, servers=1)
    assert rc != 0, out
    assert "NEVER" not in out
    if how == "raise":
        assert "worker 1 (MPI rank 2): exiting on an unhandled RuntimeError" in out, out
        assert "no data here" in out
    else:
        # MPICH leaves the job to the launcher; Open MPI's mpiexec may stop it first
        assert "worker 1 (MPI rank 2), pid" in out, out
        assert "launcher stopped them" in out or "mpiexec" in out, out
    if how == "import":
        assert "NoSuchEngine" in out
    assert secs < 25, out


def _run_python(code, env_extra):
    env = _env(env_extra)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=60)


def test_scheduler_exits_at_import():
    p = _run_python("import mxnet\nprint('AFTER')", {"DMLC_ROLE": "scheduler"})
    assert p.returncode == 0, p.stderr
    assert "AFTER" not in p.stdout
    assert "needs no scheduler" in p.stderr


def test_server_outside_mpi_imports_normally():
    # e.g. started by 1.9.1's ps-lite tracker: it cannot serve, says so, and goes on
    p = _run_python("import mxnet\nprint('AFTER')", {"DMLC_ROLE": "server"})
    assert p.returncode == 0, p.stderr
    assert "AFTER" in p.stdout
    assert "not started by mpiexec" in p.stderr


def test_plain_import_is_untouched():
    code = ("import os, mxnet\n"
            "assert 'MXNET_KVSTORE_RANK_PID' not in os.environ\n"
            "assert not mxnet.kvstore.dist.started()\n"
            "print('AFTER')")
    p = _run_python(code, {})
    assert p.returncode == 0 and "AFTER" in p.stdout, p.stderr


def _forget_rank_mark(monkeypatch):
    # set, then delete: monkeypatch then removes whatever the code under test sets
    monkeypatch.setenv("MXNET_KVSTORE_RANK_PID", "0")
    monkeypatch.delenv("MXNET_KVSTORE_RANK_PID")


@pytest.mark.parametrize("kind", ["server", "scheduler"])
def test_pytest_never_becomes_a_server(monkeypatch, kind):
    monkeypatch.setenv("DMLC_ROLE", kind)
    monkeypatch.setenv("PMI_RANK", "0")
    monkeypatch.setenv("PMI_SIZE", "2")
    _forget_rank_mark(monkeypatch)
    with pytest.warns(RuntimeWarning, match="pytest process"):
        role.on_import()  # returns: no serving, no sys.exit
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        monkeypatch.delenv("DMLC_ROLE")
        monkeypatch.delenv("PMI_RANK")
        role.on_import()  # nothing set: nothing happens


def test_children_of_a_rank_are_not_ranks(monkeypatch):
    monkeypatch.setenv("PMI_RANK", "3")
    _forget_rank_mark(monkeypatch)
    assert role.mpi_rank() == 3
    assert os.environ["MXNET_KVSTORE_RANK_PID"] == str(os.getpid())
    assert not role.child_of_rank()
    monkeypatch.setenv("MXNET_KVSTORE_RANK_PID", str(os.getpid() + 1))  # as in a child
    assert role.child_of_rank() and role.mpi_rank() is None


@needs_mpi
@pytest.mark.slow
def test_uneven_allreduce_pushes_end_the_job(tmp_path):
    # A worker that finishes while the others wait in a collective it never joined ends
    # the job (after a short grace: one that did join may just be seen leaving first).
    body = """
    import mxnet as mx
    kv = mx.kv.create("dist_sync_allreduce")
    kv.init(0, mx.nd.zeros(3))
    o = mx.nd.zeros(3)
    for _ in range(2 if kv.rank == 1 else 5):
        kv.push(0, mx.nd.ones(3))
        kv.pull(0, out=o)
        o.wait_to_read()
    """
    rc, out, secs = run_job(tmp_path, body, workers=2, servers=0)
    assert rc != 0, out
    assert "worker 1 (MPI rank 1) left the job while the other workers still wait" in out, out
    assert secs < 25, out
