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
print("rank", rank, "done", flush=True)
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
