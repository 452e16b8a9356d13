"""Distributed KVStore push + pull throughput, against raw mpi4py Allreduce.

One round on every worker pushes one float32 array to key 0 and pulls the result back
into another array, then waits for it (``kv.push; kv.pull; out.wait_to_read()``). In
``dist_sync`` the result is the sum over workers, so a round is an all-reduce made of
two trips through the servers. Throughput is the array's size divided by the time of
one round (MB/s of gradient all-reduced per worker), the best of ``--repeat``
measurements of ``--rounds`` rounds each, as measured on worker 0. Rows:

- ``mpi4py Allreduce``: ``comm.Allreduce(a, b)`` on NumPy buffers among the workers
  (the floor of what MPI itself costs on this machine);
- ``dist_sync_allreduce``: this repository's server-less store (MPI Iallreduce);
- ``dist_sync S=k``: the parameter-server store with k servers (arrays above
  ``MXNET_KVSTORE_BIGARRAY_BOUND`` = 1e6 elements are sharded over the servers);
- ``dist_async S=1``: the same without the per-round synchronisation;
- ``mxnet 1.9.1 dist_sync S=k``: the reference (ps-lite over ZeroMQ, with a scheduler
  process), when ``.ref/bin/python`` is installed; its processes are started here with
  the ``DMLC_*`` variables, from a temporary directory.

Every configuration is its own job started with ``python -m mxnet.tools.launch``;
all processes share this machine's cores.

    python benchmark/bench_dist_kvstore.py [--workers 2] [--sizes 4,64] [--rounds 5]
                                           [--repeat 3] [--configs raw,allreduce,ps1,ps2,async,ref1,ref2]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
REF_PYTHON = REPO / ".ref" / "bin" / "python"

CONFIGS = {
    "raw": ("mpi4py Allreduce", "raw", 0),
    "allreduce": ("dist_sync_allreduce", "dist_sync_allreduce", 0),
    "ps1": ("dist_sync S=1", "dist_sync", 1),
    "ps2": ("dist_sync S=2", "dist_sync", 2),
    "async": ("dist_async S=1", "dist_async", 1),
    "ref1": ("mxnet 1.9.1 dist_sync S=1", "dist_sync", 1),
    "ref2": ("mxnet 1.9.1 dist_sync S=2", "dist_sync", 2),
}

# Run by the reference interpreter in every role (servers and the scheduler never return
# from ``import mxnet``); worker 0 prints the result.
REF_SCRIPT = r"""
import json, math, sys, time
import mxnet as mx
mode, sizes, rounds, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
kv = mx.kv.create(mode)
res = {}
for mb in [int(s) for s in sizes.split(",")]:
    n = mb * (1 << 20) // 4
    kv.init(mb, mx.nd.zeros((n,)))
    g = mx.nd.ones((n,))
    out = mx.nd.zeros((n,))
    def one():
        kv.push(mb, g)
        kv.pull(mb, out=out)
        out.wait_to_read()
    one()
    best = math.inf
    for _ in range(repeat):
        kv._barrier()
        t = time.perf_counter()
        for _ in range(rounds):
            one()
        best = min(best, (time.perf_counter() - t) / rounds)
    res[mb] = best
kv._barrier()
if kv.rank == 0:
    print("RESULT " + json.dumps(res), flush=True)
"""


def child(mode, sizes, rounds, repeat):
    """Run inside the job: time the rounds, print one JSON line on worker 0."""
    res = {}
    if mode == "raw":
        from mpi4py import MPI
        comm = MPI.COMM_WORLD
        rank = comm.Get_rank()
        for mb in sizes:
            n = mb * (1 << 20) // 4
            a = np.ones(n, dtype=np.float32)
            b = np.empty_like(a)

            def one(a=a, b=b):
                comm.Allreduce(a, b, op=MPI.SUM)
            one()
            best = math.inf
            for _ in range(repeat):
                comm.Barrier()
                t = time.perf_counter()
                for _ in range(rounds):
                    one()
                best = min(best, (time.perf_counter() - t) / rounds)
            assert b[0] == comm.Get_size()
            res[mb] = best
    else:
        import mxnet as mx
        kv = mx.kv.create(mode)
        rank = kv.rank
        for mb in sizes:
            n = mb * (1 << 20) // 4
            key = f"k{mb}"
            kv.init(key, mx.nd.zeros((n,)))
            g = mx.nd.ones((n,))
            out = mx.nd.zeros((n,))

            def one(key=key, g=g, out=out):
                kv.push(key, g)
                kv.pull(key, out=out)
                out.wait_to_read()
            one()
            best = math.inf
            for _ in range(repeat):
                kv._barrier()
                t = time.perf_counter()
                for _ in range(rounds):
                    one()
                best = min(best, (time.perf_counter() - t) / rounds)
            if "_async" not in mode:
                assert out[0].asscalar() == kv.num_workers
            res[mb] = best
        kv._barrier()
    if rank == 0:
        print("RESULT " + json.dumps(res), flush=True)


def run_reference(label, mode, workers, servers, sizes, rounds, repeat, timeout):
    """Start 1.9.1's scheduler, servers and workers by hand; return its result."""
    import random
    import signal
    import tempfile
    with tempfile.TemporaryDirectory(prefix="bench-dist-ref-") as tmp:
        script = Path(tmp) / "ref_dist.py"
        script.write_text(REF_SCRIPT)
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DMLC_", "PYTHONPATH"))}
        base.update(DMLC_PS_ROOT_URI="127.0.0.1", DMLC_PS_ROOT_PORT=str(random.randint(20000, 40000)),
                    DMLC_NUM_SERVER=str(servers), DMLC_NUM_WORKER=str(workers))
        args = [str(REF_PYTHON), str(script), mode, ",".join(map(str, sizes)), str(rounds),
                str(repeat)]
        roles = ["scheduler"] + ["server"] * servers + ["worker"] * workers
        procs = [subprocess.Popen(args, cwd=tmp, env=dict(base, DMLC_ROLE=role), text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  start_new_session=True) for role in roles]
        t = time.perf_counter()
        res = None
        try:
            for p in procs[::-1]:  # workers first
                left = max(1.0, timeout - (time.perf_counter() - t))
                out, _ = p.communicate(timeout=left)
                for line in out.splitlines():
                    if line.startswith("RESULT "):
                        res = {int(k): v for k, v in json.loads(line[7:]).items()}
        except subprocess.TimeoutExpired:
            pass
        finally:
            for p in procs:
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        return label, res, time.perf_counter() - t


def run_config(name, workers, sizes, rounds, repeat, timeout):
    label, mode, servers = CONFIGS[name]
    if name.startswith("ref"):
        if not REF_PYTHON.exists():
            return label, None, 0.0
        return run_reference(label, mode, workers, servers, sizes, rounds, repeat, timeout)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    cmd = [sys.executable, "-m", "mxnet.tools.launch", "-n", str(workers), "-s", str(servers),
           "--timeout", str(timeout), sys.executable, str(Path(__file__).resolve()),
           "--child", mode, "--sizes", ",".join(map(str, sizes)),
           "--rounds", str(rounds), "--repeat", str(repeat)]
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout + 30)
    wall = time.perf_counter() - t
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return label, {int(k): v for k, v in json.loads(line[7:]).items()}, wall
    sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
    return label, None, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--sizes", default="4,64", help="array sizes in MB")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.child:
        child(args.child, sizes, args.rounds, args.repeat)
        return
    print(f"push+pull round per worker, {args.workers} workers, best of {args.repeat} x "
          f"{args.rounds} rounds; MB/s = array MB / seconds per round ({os.cpu_count()} cores)")
    head = f"{'store':28s}" + "".join(f"{f'{mb} MB ms':>12s}{f'{mb} MB MB/s':>13s}" for mb in sizes)
    print(head)
    print("-" * len(head))
    for name in args.configs.split(","):
        label, res, wall = run_config(name, args.workers, sizes, args.rounds, args.repeat,
                                      args.timeout)
        if res is None:
            why = "not installed" if name.startswith("ref") and not REF_PYTHON.exists() else "failed"
            print(f"{label:28s} {why}")
            continue
        row = f"{label:28s}"
        for mb in sizes:
            s = res[mb]
            row += f"{s * 1e3:12.2f}{mb / s:13.1f}"
        print(row + f"   (job {wall:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
