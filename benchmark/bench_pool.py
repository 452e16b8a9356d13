"""Forward and forward+backward time of max and avg Pooling at LeNet and ResNet-18 (CIFAR) shapes.

Batch 32, float32. Runs the same configurations under this project's mxnet, the reference
MXNet 1.9.1 (``.ref`` venv, in a subprocess from /tmp so that ``import mxnet`` finds it) and
PyTorch CPU (when importable), each with one thread, and prints milliseconds of process CPU
time per call (``time.process_time``, best of 5 runs, so that other load on a shared machine
does not skew the comparison) and ratios, all from one run.

    python benchmark/bench_pool.py [--ref .ref/bin/python] [--repeat 20] [--threads 1]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

# name, data shape, Pooling kwargs (pool_type is added per row)
CONFIGS = [
    ("lenet.pool1 2x2/2", (32, 20, 24, 24), {"kernel": (2, 2), "stride": (2, 2)}),
    ("lenet.pool2 2x2/2", (32, 50, 8, 8), {"kernel": (2, 2), "stride": (2, 2)}),
    ("r18.stem 3x3/2 p1", (32, 64, 32, 32), {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1)}),
    ("r18.s2 3x3/1 p1", (32, 128, 16, 16), {"kernel": (3, 3), "stride": (1, 1), "pad": (1, 1)}),
    ("r18.s3 2x2/2", (32, 256, 8, 8), {"kernel": (2, 2), "stride": (2, 2)}),
    ("r18.head global", (32, 512, 4, 4), {"global_pool": True}),
]
POOL_TYPES = ("max", "avg")

_KERNEL = r'''
import json, sys, time
impl, repeat, configs = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
import numpy as np

def timeit(fn, sync, n):
    # CPU time of this process (every implementation runs single-threaded): other load on the
    # machine does not count against whichever implementation happens to be running
    fn(); sync()
    best = float("inf")
    for _ in range(5):
        t = time.process_time()
        for _ in range(n):
            fn()
        sync()
        best = min(best, (time.process_time() - t) / n)
    return best * 1e3

res = {}
rng = np.random.RandomState(0)
if impl == "torch":
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(int(sys.argv[4]))
    for name, shape, kw in configs:
        x = torch.from_numpy(rng.rand(*shape).astype(np.float32))
        xg = x.clone().requires_grad_()
        for pt in ("max", "avg"):
            if kw.get("global_pool"):
                fn = (lambda t: F.adaptive_max_pool2d(t, 1)) if pt == "max" else (
                    lambda t: F.adaptive_avg_pool2d(t, 1))
            else:
                k, s, p = kw["kernel"], kw["stride"], kw.get("pad", (0, 0))
                fn = (lambda t, k=k, s=s, p=p: F.max_pool2d(t, k, s, p)) if pt == "max" else (
                    lambda t, k=k, s=s, p=p: F.avg_pool2d(t, k, s, p))
            def fwd(fn=fn):
                with torch.no_grad():
                    fn(x)
            def fb(fn=fn):
                y = fn(xg)
                y.backward(torch.ones_like(y))
                xg.grad = None
            res[f"{name}|{pt}|fwd"] = timeit(fwd, lambda: None, repeat)
            res[f"{name}|{pt}|fwd+bwd"] = timeit(fb, lambda: None, repeat)
else:
    import mxnet as mx
    nd = mx.nd
    for name, shape, kw in configs:
        kw = {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}
        x = nd.array(rng.rand(*shape).astype(np.float32))
        x.attach_grad()
        for pt in ("max", "avg"):
            def fwd(pt=pt, kw=kw):
                nd.Pooling(x, pool_type=pt, **kw)
            def fb(pt=pt, kw=kw):
                with mx.autograd.record():
                    y = nd.Pooling(x, pool_type=pt, **kw)
                y.backward()
            res[f"{name}|{pt}|fwd"] = timeit(fwd, nd.waitall, repeat)
            res[f"{name}|{pt}|fwd+bwd"] = timeit(fb, nd.waitall, repeat)
print(json.dumps(res))
'''


def run(python, impl, repeat, threads, env, cwd=None):
    out = subprocess.run([python, "-c", _KERNEL, impl, str(repeat), json.dumps(CONFIGS),
                          str(threads)], capture_output=True, text=True, env=env, check=False,
                         cwd=cwd)
    if out.returncode != 0:
        print(f"[{impl} via {python}] failed: {out.stderr.strip().splitlines()[-1:]}",
              file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--ref", default=os.path.join(root, ".ref", "bin", "python"))
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    threads = str(args.threads)
    env = dict(os.environ, PYTHONPATH=root, OMP_NUM_THREADS=threads)
    results = {"mxnet-py": run(sys.executable, "mxnet", args.repeat, threads, env)}
    if os.path.exists(args.ref):
        ref_env = dict(os.environ, OMP_NUM_THREADS=threads, MXNET_ENGINE_TYPE="NaiveEngine")
        ref_env.pop("PYTHONPATH", None)
        results["mxnet-1.9.1"] = run(args.ref, "mxnet", args.repeat, threads, ref_env, cwd="/tmp")
    try:
        import torch  # noqa: F401
        results["torch"] = run(sys.executable, "torch", args.repeat, threads, env)
    except ImportError:
        pass
    cols = [k for k, v in results.items() if v]
    print(f"Pooling, batch 32, float32, {threads} thread(s); CPU ms per call (best of 5 x "
          f"{args.repeat})")
    head = f"{'config':20s}{'type':>5s}{'pass':>9s}" + "".join(f"{c:>13s}" for c in cols)
    print(head + "".join(f"{'vs ' + c:>15s}" for c in cols if c != "mxnet-py"))
    for name, _, _ in CONFIGS:
        for pt in POOL_TYPES:
            for phase in ("fwd", "fwd+bwd"):
                key = f"{name}|{pt}|{phase}"
                vals = [results[c].get(key) for c in cols]
                line = f"{name:20s}{pt:>5s}{phase:>9s}" + "".join(
                    f"{v:13.3f}" if v is not None else f"{'-':>13s}" for v in vals)
                ours = results["mxnet-py"].get(key) if results.get("mxnet-py") else None
                for c in cols:
                    if c == "mxnet-py":
                        continue
                    other = results[c].get(key)
                    line += f"{ours / other:15.2f}" if ours and other else f"{'-':>15s}"
                print(line)
    print("(ratios: mxnet-py time / other time; < 1 means mxnet-py is faster)")


if __name__ == "__main__":
    main()
