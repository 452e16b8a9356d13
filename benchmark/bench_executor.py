"""Per-node overhead of the symbolic executor.

A chain of N cheap nodes on a tiny array (``x -> tanh -> *1.0001 -> tanh -> ...``, shape
(4, 4) float32), bound with ``simple_bind``; the kernels cost next to nothing, so the time
per node of ``forward`` (predict), ``forward(is_train=True)`` + ``backward``, and of the
same ops run imperatively (alone, and recorded with autograd then differentiated) is the
framework's own overhead. Chains of several lengths separate
the fixed cost of a call from the cost per node: the slope of time against N is the
per-node cost, the intercept the per-call cost (least squares over the lengths).

Runs this project's mxnet and the reference MXNet 1.9.1 (``.ref`` venv, in a subprocess
started from / so that ``import mxnet`` finds the real one; NaiveEngine, as the
reference's threaded engine adds its own hand-off per op), one thread each.

    python benchmark/bench_executor.py [--ref .ref/bin/python] [--lengths 10,100,400]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_KERNEL = r'''
import json, sys, time
lengths = [int(v) for v in sys.argv[1].split(",")]
rounds = int(sys.argv[2])
import numpy as np
import mxnet as mx

def chain(n):
    x = mx.sym.var("x")
    y = x
    for i in range(n):
        y = mx.sym.tanh(y) if i % 2 == 0 else y * 1.0001
    return y

def best(fn, inner):
    fn()
    mx.nd.waitall()
    t_best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        mx.nd.waitall()
        t_best = min(t_best, (time.perf_counter() - t) / inner)
    return t_best * 1e6

res = {}
data = np.random.rand(4, 4).astype(np.float32)
for n in lengths:
    inner = max(3, 2000 // n)
    ex = chain(n).simple_bind(mx.cpu(), x=(4, 4))
    ex.arg_dict["x"][:] = data
    res[f"forward/{n}"] = best(lambda: ex.forward(is_train=False), inner)
    og = mx.nd.ones((4, 4))
    def train():
        ex.forward(is_train=True)
        ex.backward(og)
    res[f"train/{n}"] = best(train, inner)
    a = mx.nd.array(data)
    def imperative():
        y = a
        for i in range(n):
            y = mx.nd.tanh(y) if i % 2 == 0 else y * 1.0001
        return y
    res[f"imperative/{n}"] = best(imperative, inner)
    a.attach_grad()
    def imperative_train():
        with mx.autograd.record():
            y = imperative()
        y.backward(og)
    res[f"imperative-train/{n}"] = best(imperative_train, inner)
print(json.dumps(res))
'''


MODES = ("forward", "train", "imperative", "imperative-train")


def run(python, lengths, rounds, env, cwd=None):
    out = subprocess.run([python, "-c", _KERNEL, lengths, str(rounds)], capture_output=True,
                         text=True, env=env, cwd=cwd, check=False)
    if out.returncode != 0:
        print(f"[{python}] failed: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def fit(points):
    """Least-squares (intercept, slope) of time (us) against chain length."""
    n = len(points)
    mx_ = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx_) ** 2 for x, _ in points)
    slope = sum((x - mx_) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return my - slope * mx_, slope


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", default=os.path.join(os.path.dirname(__file__), "..", ".ref", "bin",
                                                  "python"))
    ap.add_argument("--lengths", default="10,100,400")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    threads = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    env = dict(os.environ, PYTHONPATH=root, **threads)
    results = {"mxnet-py": run(sys.executable, args.lengths, args.rounds, env)}
    if os.path.exists(args.ref):
        ref_env = dict(os.environ, MXNET_ENGINE_TYPE="NaiveEngine", **threads)
        ref_env.pop("PYTHONPATH", None)
        results["mxnet-1.9.1"] = run(args.ref, args.lengths, args.rounds, ref_env, cwd="/")
    cols = [k for k, v in results.items() if v]
    lengths = [int(v) for v in args.lengths.split(",")]
    print("microseconds per call (best of rounds), chain of N tanh / mul-scalar nodes on (4, 4)")
    print(f"{'mode':17s}{'N':>6s}" + "".join(f"{c:>14s}" for c in cols))
    for mode in MODES:
        for n in lengths:
            print(f"{mode:17s}{n:6d}" + "".join(f"{results[c][f'{mode}/{n}']:14.1f}" for c in cols))
    print()
    print(f"{'mode':17s}" + "".join(f"{c + ' us/node':>22s}{'us/call':>10s}" for c in cols)
          + f"{'per-node ratio':>16s}")
    for mode in MODES:
        line = f"{mode:17s}"
        slopes = {}
        for c in cols:
            icpt, slope = fit([(n, results[c][f"{mode}/{n}"]) for n in lengths])
            slopes[c] = slope
            line += f"{slope:22.2f}{icpt:10.1f}"
        if len(slopes) == 2 and slopes.get("mxnet-1.9.1"):
            line += f"{slopes['mxnet-py'] / slopes['mxnet-1.9.1']:16.2f}"
        print(line)
    print("(train = forward(is_train=True) + backward; imperative-train = the chain under "
          "autograd.record + backward; per-node ratio: mxnet-py / 1.9.1, "
          "< 1 means mxnet-py is faster)")


if __name__ == "__main__":
    main()
