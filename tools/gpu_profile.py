"""Where a GPU training step spends its time (a diagnostic for issue 8, run by
tools/gpu_check.sh on a lent GPU).

For each workload it runs a few warm-up steps, then profiles ``--steps`` steps with
cProfile and prints the functions with the most own time, and counts the device-to-host
transfers (``get``, ``item``, ``bool``, ``float``, ``int`` on CuPy arrays), each of which
stalls the host until the GPU is idle.

    python tools/gpu_profile.py [--workloads mlp,resnet18] [--steps 5] [--top 30]

``--ctx cpu`` profiles the same steps on the CPU.
"""
from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def _count_transfers(counter):
    """Count calls of CuPy's device-to-host methods in ``counter``; returns the names that
    could not be wrapped (CuPy's ndarray is a C type that may refuse new attributes)."""
    import cupy
    refused = []
    for name in ("get", "item", "__bool__", "__float__", "__int__", "tolist"):
        orig = getattr(cupy.ndarray, name, None)
        if orig is None:
            continue

        def wrapped(self, *a, _orig=orig, _name=name, **k):
            counter[_name] += 1
            return _orig(self, *a, **k)
        try:
            setattr(cupy.ndarray, name, wrapped)
        except (TypeError, AttributeError):
            refused.append(name)
    return refused


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workloads", default="mlp,resnet18")
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--ctx", default="gpu")
    args = ap.parse_args()
    import mxnet as mx
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "benchmark"))
    import bench_gpu as B

    ctx = mx.gpu(0) if args.ctx == "gpu" else mx.cpu(0)
    counter = collections.Counter()
    patched = False
    if args.ctx == "gpu":
        try:
            import cupy
            print("cupy", cupy.__version__, "cudnn:",
                  hasattr(cupy.cuda, "cudnn") or "cupy.cuda.cudnn missing", flush=True)
        except Exception as e:  # noqa: BLE001 - diagnostic output only
            print("cupy import failed:", e)
    for work in args.workloads.split(","):
        step = B.mxnet_step(work, ctx, hybridize=True)
        for _ in range(3):
            step()
        mx.nd.waitall()
        if args.ctx == "gpu" and not patched:
            patched = True
            refused = _count_transfers(counter)
            if refused:
                print("device-to-host calls not countable:", ", ".join(refused))
        counter.clear()
        prof = cProfile.Profile()
        t = time.perf_counter()
        prof.enable()
        for _ in range(args.steps):
            step()
        mx.nd.waitall()
        prof.disable()
        dt = (time.perf_counter() - t) / args.steps
        print(f"\n=== {work} on {ctx}: {dt * 1e3:.2f} ms/step under the profiler; "
              f"device-to-host transfers per step: "
              f"{ {k: v / args.steps for k, v in counter.items()} }", flush=True)
        stats = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
