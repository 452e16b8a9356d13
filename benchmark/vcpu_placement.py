"""How fast one core rewrites memory that another core has just read (Linux).

On a cloud VM two vCPUs may sit on cores that share a cache or on cores that do not, and the
hypervisor can move them while a benchmark runs. This prints the time to overwrite a 4 MB
buffer right after (a) this core and (b) the other core read it. Similar figures mean a shared
cache; (b) several times (a) means every buffer one thread writes and another reads costs a
trip between caches, which slows multi-threaded kernels. Run it before and after a benchmark
to label the run.

    python benchmark/vcpu_placement.py
"""
from __future__ import annotations

import os
import threading
import time

import numpy as np


def main(repeat=30):
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        print("needs two CPUs")
        return
    os.sched_setaffinity(0, {cpus[0]})
    buf = np.zeros(1 << 20, np.float32)
    src = np.random.default_rng(0).random(1 << 20, dtype=np.float32)
    go, done = threading.Event(), threading.Event()

    def reader():
        os.sched_setaffinity(0, {cpus[1]})
        while True:
            go.wait()
            go.clear()
            buf.sum()
            done.set()

    threading.Thread(target=reader, daemon=True).start()
    best = {}
    for who in ("this core", "other core"):
        t = float("inf")
        for _ in range(repeat):
            if who == "this core":
                buf.sum()
            else:
                go.set()
                done.wait()
                done.clear()
            start = time.perf_counter()
            np.copyto(buf, src)
            t = min(t, time.perf_counter() - start)
        best[who] = t * 1e6
    print(f"rewrite 4 MB after a read by this core: {best['this core']:.0f} us, "
          f"by CPU {cpus[1]}: {best['other core']:.0f} us "
          f"({best['other core'] / best['this core']:.1f}x)")


if __name__ == "__main__":
    main()
