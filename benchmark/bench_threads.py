"""How well NumPy calls scale over Python threads on this machine, against processes.

The NumPy kernels of mxnet-py (pooling, relu, BatchNorm) split large ops over threads
(``mxnet/operator/_batch_threads.py``), as 1.9.1's kernels run on OpenMP threads. NumPy
releases the GIL inside its loops, but each call takes it again to parse its arguments and
set up, so two threads running chains of NumPy calls hand the GIL back and forth. This
measures what that costs at the array sizes those kernels work on: the time per call of
``np.add(a[:n], a[17:17 + n], out=o)`` (float32, a shifted flat pass as in the pool kernels)

- in one thread,
- in two threads at once, each on its own arrays (time per call of one thread),
- in two processes at once (the same, with no shared GIL).

A ratio ``2 threads / 1 thread`` near 1 means the second thread runs in parallel; near 2 means
the calls ran one after the other (no gain); above 2, the hand-offs cost more than they save.

    python benchmark/bench_threads.py [--sizes 16384,131072,524288,2097152] [--seconds 0.5]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time

import numpy as np


def _reps(n, seconds):
    """How many adds of n elements take about ``seconds``."""
    a = np.random.rand(n + 64).astype(np.float32)
    o = np.empty(n, np.float32)
    np.add(a[:n], a[17:17 + n], out=o)
    t = time.perf_counter()
    for _ in range(5):
        np.add(a[:n], a[17:17 + n], out=o)
    return max(10, int(seconds * 5 / max(time.perf_counter() - t, 1e-7)))


def _work(n, reps):
    """A closure doing ``reps`` shifted adds of n float32 elements on its own arrays."""
    a = np.random.rand(n + 64).astype(np.float32)
    o = np.empty(n, np.float32)

    def work():
        for _ in range(reps):
            np.add(a[:n], a[17:17 + n], out=o)
    np.add(a[:n], a[17:17 + n], out=o)  # warm: page faults
    return work


def per_call_one_thread(n, reps):
    work = _work(n, reps)
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        work()
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def per_call_two_threads(n, reps):
    works = [_work(n, reps) for _ in range(2)]
    best = float("inf")
    for _ in range(3):
        threads = [threading.Thread(target=w) for w in works]
        t = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def per_call_two_processes(n, reps):
    cmd = [sys.executable, __file__, "--child", str(n), "--reps", str(reps)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    return max(float(p.communicate()[0].strip()) for p in procs)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="16384,131072,524288,2097152")
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--reps", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(per_call_one_thread(args.child, args.reps))
        return
    print(f"np.add of n float32 elements (shifted flat pass); microseconds per call, best of 3; "
          f"Python {sys.version.split()[0]}, NumPy {np.__version__}")
    print(f"{'n':>9s} {'1 thread':>10s} {'2 threads':>10s} {'2 procs':>10s} "
          f"{'threads/1':>10s} {'procs/1':>9s}")
    for n in (int(s) for s in args.sizes.split(",")):
        reps = _reps(n, args.seconds)
        one = per_call_one_thread(n, reps)
        two = per_call_two_threads(n, reps)
        procs = per_call_two_processes(n, reps)
        print(f"{n:9d} {one * 1e6:10.1f} {two * 1e6:10.1f} {procs * 1e6:10.1f} "
              f"{two / one:10.2f} {procs / one:9.2f}")


if __name__ == "__main__":
    main()
