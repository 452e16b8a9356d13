"""BatchNorm and LayerNorm, training-mode forward and forward+backward, on the activation
shapes of ResNet-18 for CIFAR-10 at batch 32 (float32).

Runs this project's mxnet, the reference MXNet 1.9.1 (``.ref`` venv, in a subprocess
started outside the checkout) and PyTorch CPU (when installed), one thread each, and
prints milliseconds per call and ratios, all from one run.

    python benchmark/bench_norm.py [--ref .ref/bin/python] [--repeat 10]

LayerNorm normalises the last axis (its default), with gamma and beta of that length.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

SHAPES = [(32, 64, 32, 32), (32, 128, 16, 16), (32, 256, 8, 8), (32, 512, 4, 4)]

_KERNEL = r'''
import json, sys, time
impl, repeat, shapes = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
import numpy as np
res = {}

def best_of(fn, n, sync=lambda: None):
    fn(); sync()
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e3

for shape in shapes:
    key = "x".join(map(str, shape))
    x_np = np.random.RandomState(0).standard_normal(shape).astype(np.float32)
    c, w = shape[1], shape[-1]
    if impl == "torch":
        import torch
        import torch.nn.functional as F
        torch.set_num_threads(1)
        x = torch.from_numpy(x_np).requires_grad_()
        g, b = torch.ones(c, requires_grad=True), torch.zeros(c, requires_grad=True)
        rm, rv = torch.zeros(c), torch.ones(c)
        lg, lb = torch.ones(w, requires_grad=True), torch.zeros(w, requires_grad=True)
        bn = lambda: F.batch_norm(x, rm, rv, g, b, training=True, momentum=0.1, eps=1e-3)
        ln = lambda: F.layer_norm(x, (w,), lg, lb, eps=1e-5)
        def fb(f):
            def run():
                y = f()
                y.backward(torch.ones_like(y))
            return run
        with torch.no_grad():
            res[f"BatchNorm {key} fwd"] = best_of(bn, repeat)
            res[f"LayerNorm {key} fwd"] = best_of(ln, repeat)
        res[f"BatchNorm {key} fwd+bwd"] = best_of(fb(bn), repeat)
        res[f"LayerNorm {key} fwd+bwd"] = best_of(fb(ln), repeat)
    else:
        import mxnet as mx
        nd = mx.nd
        x = nd.array(x_np)
        g, b, rm, rv = nd.ones(c), nd.zeros(c), nd.zeros(c), nd.ones(c)
        lg, lb = nd.ones(w), nd.zeros(w)
        for a in (x, g, b, lg, lb):
            a.attach_grad()
        head = nd.ones(shape)
        bn = lambda: nd.BatchNorm(x, g, b, rm, rv, fix_gamma=False)
        ln = lambda: nd.LayerNorm(x, lg, lb)
        def fwd(f):
            def run():
                with mx.autograd.train_mode():
                    f()
            return run
        def fb(f):
            def run():
                with mx.autograd.record():
                    y = f()
                y.backward(head)
            return run
        res[f"BatchNorm {key} fwd"] = best_of(fwd(bn), repeat, nd.waitall)
        res[f"LayerNorm {key} fwd"] = best_of(fwd(ln), repeat, nd.waitall)
        res[f"BatchNorm {key} fwd+bwd"] = best_of(fb(bn), repeat, nd.waitall)
        res[f"LayerNorm {key} fwd+bwd"] = best_of(fb(ln), repeat, nd.waitall)
print(json.dumps(res))
'''


def run(python, impl, repeat, env=None, cwd=None):
    out = subprocess.run([python, "-c", _KERNEL, impl, str(repeat), json.dumps(SHAPES)],
                         capture_output=True, text=True, env=env, check=False, cwd=cwd)
    if out.returncode != 0:
        print(f"[{impl} {python}] failed: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--ref", default=os.path.join(root, ".ref", "bin", "python"))
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    threads = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    env = dict(os.environ, PYTHONPATH=root, **threads)
    results = {"mxnet-py": run(sys.executable, "mxnet", args.repeat, env)}
    ref_env = dict(os.environ, MXNET_ENGINE_TYPE="ThreadedEnginePerDevice", **threads)
    ref_env.pop("PYTHONPATH", None)
    results["mxnet-1.9.1"] = (run(args.ref, "mxnet", args.repeat, ref_env, cwd="/tmp")
                              if os.path.exists(args.ref) else None)
    try:
        import torch  # noqa: F401
        results["torch"] = run(sys.executable, "torch", args.repeat, env)
    except ImportError:
        results["torch"] = None
    cols = [k for k, v in results.items() if v]
    rows = list(next(iter(v for v in results.values() if v)).keys()) if cols else []
    print(f"{'float32, batch 32, ms/call':36s}" + "".join(f"{c:>13s}" for c in cols)
          + f"{'vs 1.9.1':>10s}{'vs torch':>10s}")
    for r in rows:
        line = f"{r:36s}" + "".join(f"{results[c].get(r, float('nan')):13.3f}" for c in cols)
        ours = (results["mxnet-py"] or {}).get(r)
        for other in ("mxnet-1.9.1", "torch"):
            ov = (results.get(other) or {}).get(r)
            line += f"{ours / ov:10.2f}" if ours and ov else f"{'-':>10s}"
        print(line)
    print("(ratios: mxnet-py time / other time; < 1 means mxnet-py is faster)")


if __name__ == "__main__":
    main()
