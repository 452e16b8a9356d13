"""The launcher's Open MPI command line and flavour detection (pure string checks: no MPI
needed). The MPICH (Hydra) command line is checked in test_dist.py."""
from __future__ import annotations

import os
import stat

import pytest

from mxnet.tools import launch


def _ompi(workers, servers, **kw):
    return launch.build_command("mpiexec", workers, servers, ["python", "t.py"],
                                flavor="openmpi", **kw)


def test_default_is_hydra_syntax():
    cmd = launch.build_command("mpiexec", 2, 1, ["python", "t.py"], env=[("A", "1")])
    assert "-genv" in cmd and "-x" not in cmd and "--oversubscribe" not in cmd
    assert cmd == launch.build_command("mpiexec", 2, 1, ["python", "t.py"], env=[("A", "1")],
                                       flavor="mpich")


def test_openmpi_env_and_roles(monkeypatch):
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    cmd = _ompi(2, 1, env=[("A", "1"), ("B", "x y")], rundir="/tmp/run")
    s = " ".join(cmd)
    assert cmd[0] == "mpiexec"
    assert "-genv" not in cmd and "-env" not in cmd and "-f" not in cmd
    for kv in ("DMLC_NUM_WORKER=2", "DMLC_NUM_SERVER=1", "MXNET_LAUNCH_RUNDIR=/tmp/run",
               "A=1", "B=x y"):
        i = cmd.index(kv)
        assert cmd[i - 1] == "-x"
    assert "--oversubscribe" in cmd and "--bind-to none" in s
    # Open MPI 4 applies a -x only to its own app context: each context repeats them;
    # the role is set through env(1)
    xs = ("-x DMLC_NUM_WORKER=2 -x DMLC_NUM_SERVER=1 -x MXNET_LAUNCH_RUNDIR=/tmp/run "
          "-x A=1 -x B=x y")
    assert s.endswith(f"-n 1 {xs} env DMLC_ROLE=server python t.py : "
                      f"-n 2 {xs} env DMLC_ROLE=worker python t.py"), s
    assert cmd.index("-x") > cmd.index("-n")


def test_openmpi_without_servers_and_unbuffered(monkeypatch):
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    cmd = _ompi(3, 0)
    assert "PYTHONUNBUFFERED=1" in cmd and ":" not in cmd and "DMLC_ROLE=server" not in cmd
    assert " ".join(cmd).endswith("-n 3 -x DMLC_NUM_WORKER=3 -x DMLC_NUM_SERVER=0 "
                                  "-x PYTHONUNBUFFERED=1 env DMLC_ROLE=worker python t.py")


@pytest.mark.parametrize("root", [True, False])
def test_openmpi_run_as_root(monkeypatch, root):
    monkeypatch.setattr(launch, "_run_as_root", lambda: root)
    assert ("--allow-run-as-root" in _ompi(1, 1)) is root
    # Hydra has no such option
    cmd = launch.build_command("mpiexec", 1, 1, ["python", "t.py"])
    assert "--allow-run-as-root" not in cmd


def test_openmpi_hostfile(monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    monkeypatch.setenv("MXNET_KVSTORE_TIMEOUT", "9")
    src = tmp_path / "hosts"
    src.write_text("# cluster\nnode1:4\nnode2\n\nnode3 slots=2\n")
    dst = launch._openmpi_hostfile(str(src), str(tmp_path / "ompi"))
    assert (tmp_path / "ompi").read_text() == "node1 slots=4\nnode2\nnode3 slots=2\n"
    cmd = _ompi(2, 0, hostfile=dst)
    i = cmd.index("--hostfile")
    assert cmd[i + 1] == dst
    # a remote Open MPI process gets only the variables -x names
    s = " ".join(cmd)
    assert "-x PYTHONPATH" in s and "-x MXNET_KVSTORE_TIMEOUT" in s and "-x PATH" in s
    # locally the environment is inherited: nothing forwarded by name
    assert "-x PYTHONPATH" not in " ".join(_ompi(2, 0))


def _fake_mpiexec(tmp_path, text):
    p = tmp_path / "mpiexec"
    p.write_text(f"#!/bin/sh\ncat <<'END'\n{text}\nEND\n")
    p.chmod(p.stat().st_mode | stat.S_IXUSR)
    return str(p)


@pytest.mark.parametrize("text,flavor", [
    ("mpiexec (OpenRTE) 4.1.6\n\nReport bugs to http://www.open-mpi.org/community/help/",
     "openmpi"),
    ("mpiexec (Open MPI) 5.0.3\n\nReport bugs to https://www.open-mpi.org/community/help/",
     "openmpi"),
    ("HYDRA build details:\n    Version:                                 4.2.2", "mpich"),
    ("Intel(R) MPI Library for Linux* OS, Version 2021.10", "mpich"),
    ("", "mpich"),
])
def test_flavor_detection(tmp_path, text, flavor):
    if os.name != "posix":
        pytest.skip("needs a shell script")
    assert launch.mpi_flavor(_fake_mpiexec(tmp_path, text)) == flavor


def test_flavor_of_missing_mpiexec_is_mpich(tmp_path):
    assert launch.mpi_flavor(str(tmp_path / "no-such-mpiexec")) == "mpich"


def test_dry_run_uses_the_detected_flavor(tmp_path, capsys):
    fake = _fake_mpiexec(tmp_path, "mpiexec (OpenRTE) 4.1.6")
    assert launch.main(["-n", "2", "-s", "1", "--mpiexec", fake, "--dry-run",
                        "python", "t.py"]) == 0
    out = capsys.readouterr().out
    assert "-x DMLC_NUM_WORKER=2" in out and "env DMLC_ROLE=server " in out
    assert "_rank_guard.py python t.py" in out
    assert "-genv" not in out


def test_openmpi_failure_reports_are_noted():
    import io
    text = (b"mpiexec noticed that process rank 2 with PID 4242 on node h exited on "
            b"signal 9 (Killed).\n"
            b"  Exit code:    3\n")
    report = {}
    r = launch._Relay(io.BytesIO(text), io.BytesIO(), report)
    r.run()
    assert report["pid"] == "4242" and report["code"] == "3"
    assert report["string"].startswith("exited on signal 9")
    assert "signal 9" in launch._how(None, report, 1)
