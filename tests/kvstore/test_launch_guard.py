"""The launcher's rank guard: a rank that fails before importing mxnet (where mpiexec
does not notice, and the other ranks wait in MPI_Init) ends the job with a clear
error, and a rank that exits cleanly without mxnet is not taken for a failure."""
from __future__ import annotations

import pytest

from .test_dist import needs_mpi, run_job

_FAIL_EARLY = r"""
import os, sys
rank = int(os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK", "-1")))
if rank == 2:
    sys.exit("worker 1 fails before importing mxnet")
import mxnet as mx
kv = mx.kv.create("dist_sync")
kv.init(0, mx.nd.zeros((3,)))
kv.push(0, mx.nd.ones((3,)))
"""

_NO_MXNET = r"""
import os, time
rank = int(os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK", "-1")))
time.sleep(0 if rank == 0 else 5)   # rank 0 ends first, cleanly; the others go on
os.write(1, f"rank {rank} done\n".encode())
"""


@needs_mpi
@pytest.mark.slow
def test_rank_failing_before_import_ends_the_job(tmp_path):
    rc, out, secs = run_job(tmp_path, _FAIL_EARLY, timeout=60)
    assert rc == 1, out
    assert "worker 1 fails before importing mxnet" in out, out
    assert "worker 1 (MPI rank 2)" in out and "exited with status 1" in out, out
    assert secs < 30, out   # well before the 60 s --timeout


@needs_mpi
@pytest.mark.slow
def test_clean_exit_without_mxnet_is_not_a_failure(tmp_path):
    rc, out, secs = run_job(tmp_path, _NO_MXNET, workers=2, servers=0, timeout=60)
    assert rc == 0, out
    assert "rank 1 done" in out and "rank 0 done" in out, out
    assert "the job failed" not in out


_SUM = r"""
import os
import mxnet as mx
kv = mx.kv.create("dist_sync")
kv.init(0, mx.nd.zeros((3,)))
kv.push(0, mx.nd.ones((3,)) * (kv.rank + 1))
o = mx.nd.zeros((3,))
kv.pull(0, out=o)
# one write per line: print() writes its pieces separately when unbuffered, and the
# two workers' output would interleave
os.write(1, f"rank {kv.rank} sum {o.asnumpy().tolist()}\n".encode())
"""


@needs_mpi
@pytest.mark.slow
def test_job_over_a_host_file(tmp_path):
    # --launcher mpi with a host file naming this machine twice (as two hosts): the
    # multi-host code path (host file, environment forwarding) end to end on one machine
    import subprocess
    import sys

    from .test_dist import _env
    hosts = tmp_path / "hosts"
    hosts.write_text("localhost:2\n127.0.0.1:2\n")
    script = tmp_path / "job.py"
    script.write_text(_SUM)
    out = subprocess.run([sys.executable, "-m", "mxnet.tools.launch", "--launcher", "mpi",
                          "-H", str(hosts), "-n", "2", "-s", "1", "--timeout", "60",
                          sys.executable, str(script)], capture_output=True, text=True,
                         env=_env(), cwd=str(tmp_path), timeout=90)
    assert out.returncode == 0, out.stdout + out.stderr
    for rank in (0, 1):
        assert f"rank {rank} sum [3.0, 3.0, 3.0]" in out.stdout, out.stdout + out.stderr
