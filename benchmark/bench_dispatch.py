"""Per-op dispatch overhead of small imperative ops on (16, 16) float32 arrays.

Runs the same op list under this project's mxnet, raw NumPy, the reference MXNet 1.9.1
(``.ref`` venv, run in a subprocess) and PyTorch CPU (when installed), and prints
microseconds per op and ratios, all from one run.

    python benchmark/bench_dispatch.py [--ref .ref/bin/python] [--repeat 20000]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

OPS = ["add", "mul_scalar", "exp", "sum", "dot", "chain3"]

_KERNEL = r'''
import json, sys, time, os
impl, repeat = sys.argv[1], int(sys.argv[2])
import numpy as np
res = {}
def timeit(fn, n):
    fn()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6
a_np = np.random.rand(16, 16).astype(np.float32); b_np = np.random.rand(16, 16).astype(np.float32)
if impl == "numpy":
    a, b = a_np, b_np
    ops = {"add": lambda: a + b, "mul_scalar": lambda: a * 2.0, "exp": lambda: np.exp(a),
           "sum": lambda: a.sum(), "dot": lambda: a @ b, "chain3": lambda: np.exp(a * b + 1.0)}
    for k, f in ops.items():
        res[k] = timeit(f, repeat)
elif impl == "torch":
    import torch
    torch.set_num_threads(1)
    a, b = torch.from_numpy(a_np), torch.from_numpy(b_np)
    ops = {"add": lambda: a + b, "mul_scalar": lambda: a * 2.0, "exp": lambda: torch.exp(a),
           "sum": lambda: a.sum(), "dot": lambda: a @ b, "chain3": lambda: torch.exp(a * b + 1.0)}
    for k, f in ops.items():
        res[k] = timeit(f, repeat)
    ar, br = a.clone().requires_grad_(), b.clone().requires_grad_()
    rops = {"add": lambda: ar + br, "mul_scalar": lambda: ar * 2.0, "exp": lambda: torch.exp(ar),
            "sum": lambda: ar.sum(), "dot": lambda: ar @ br, "chain3": lambda: torch.exp(ar * br + 1.0)}
    for k, f in rops.items():
        res[k + "@record"] = timeit(f, repeat)
else:
    import mxnet as mx
    a, b = mx.nd.array(a_np), mx.nd.array(b_np)
    # each op is followed by nothing: asynchronous engines are timed to completion at the end
    ops = {"add": lambda: a + b, "mul_scalar": lambda: a * 2.0, "exp": lambda: mx.nd.exp(a),
           "sum": lambda: a.sum(), "dot": lambda: mx.nd.dot(a, b) if hasattr(mx.nd, "dot") else None,
           "chain3": lambda: mx.nd.exp(a * b + 1.0)}
    def timed(f, n):
        f(); mx.nd.waitall()
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(n):
                f()
            mx.nd.waitall()
            best = min(best, (time.perf_counter() - t) / n)
        return best * 1e6
    for k, f in ops.items():
        res[k] = timed(f, repeat)
    a.attach_grad(); b.attach_grad()
    with mx.autograd.record():
        for k, f in ops.items():
            res[k + "@record"] = timed(f, repeat)
print(json.dumps(res))
'''


def run(python, impl, repeat, env=None, cwd=None):
    # the reference runs outside the checkout so that `import mxnet` finds the real one
    out = subprocess.run([python, "-c", _KERNEL, impl, str(repeat)], capture_output=True,
                         text=True, env=env, check=False, cwd=cwd)
    if out.returncode != 0:
        print(f"[{impl}] failed: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ref", default=os.path.join(os.path.dirname(__file__), "..", ".ref", "bin", "python"))
    ap.add_argument("--repeat", type=int, default=5000)
    args = ap.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    env = dict(os.environ, PYTHONPATH=root, OMP_NUM_THREADS="1")
    results = {"mxnet-py": run(sys.executable, "mxnet", args.repeat, env),
               "numpy": run(sys.executable, "numpy", args.repeat, env)}
    ref_env = dict(os.environ, OMP_NUM_THREADS="1", MXNET_ENGINE_TYPE="ThreadedEnginePerDevice")
    ref_env.pop("PYTHONPATH", None)
    have_ref = os.path.exists(args.ref)
    results["mxnet-1.9.1"] = run(args.ref, "mxnet", args.repeat, ref_env, cwd="/") if have_ref else None
    results["torch"] = run(sys.executable, "torch", args.repeat, env)
    rows = OPS + [o + "@record" for o in OPS]
    cols = [k for k, v in results.items() if v]
    print(f"{'op (16x16 float32), us/op':28s}" + "".join(f"{c:>14s}" for c in cols)
          + f"{'vs 1.9.1':>10s}{'vs torch':>10s}")
    for r in rows:
        vals = [results[c].get(r) for c in cols]
        line = f"{r:28s}" + "".join(f"{v:14.2f}" if v is not None else f"{'-':>14s}" for v in vals)
        ours = (results["mxnet-py"] or {}).get(r)
        for other in ("mxnet-1.9.1", "torch"):
            ov = (results.get(other) or {}).get(r)
            line += f"{ours / ov:10.2f}" if ours and ov else f"{'-':>10s}"
        print(line)
    print("(ratios: mxnet-py time / other time; < 1 means mxnet-py is faster)")


if __name__ == "__main__":
    main()
