"""Time of one optimizer update over the parameters of the CIFAR ResNet-18 (102 arrays,
11.2 M float32 values).

``mx.optimizer`` updaters (``get_updater``; the weights updated in place as ``Trainer`` and
``Module`` do) under this project's mxnet and the reference MXNet 1.9.1 (``.ref`` venv,
NaiveEngine, run from /tmp), and ``torch.optim`` (``foreach=False``, one tensor at a time)
for PyTorch CPU when installed; all with ``--threads`` BLAS/OpenMP threads. Prints the best
milliseconds per update and the ratios mxnet-py / 1.9.1 and mxnet-py / torch.

    python benchmark/bench_optimizer.py [--ref .ref/bin/python] [--threads 1] [--repeat 15]
        [--optimizers sgd,sgd_mom,nag,adam,rmsprop,adagrad]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

OPTIMIZERS = ("sgd", "sgd_mom", "nag", "adam", "rmsprop", "adagrad")

_KERNEL = r'''
import json, sys, time
impl, names, repeat, threads = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3]), \
    int(sys.argv[4])
import numpy as np


def resnet18_shapes():
    shapes = [(64, 3, 3, 3)] + [(64,)] * 4
    c = 64
    for f, s in ((64, 1), (128, 2), (256, 2), (512, 2)):
        for b in range(2):
            stride = s if b == 0 else 1
            shapes += [(f, c, 3, 3)] + [(f,)] * 4 + [(f, f, 3, 3)] + [(f,)] * 4
            if stride != 1 or c != f:
                shapes += [(f, c, 1, 1)] + [(f,)] * 4
            c = f
    return shapes + [(10, 512), (10,)]


rs = np.random.RandomState(0)
values = [(rs.standard_normal(s).astype(np.float32),
           rs.standard_normal(s).astype(np.float32) * 0.01) for s in resnet18_shapes()]
res = {"arrays": len(values), "values": int(sum(w.size for w, _ in values))}


def best(step):
    for _ in range(2):
        step()
    t_best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        step()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best * 1e3


if impl == "torch":
    import torch
    torch.set_num_threads(threads)
    make = {"sgd": lambda p: torch.optim.SGD(p, lr=0.01, foreach=False),
            "sgd_mom": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, foreach=False),
            "nag": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True,
                                             foreach=False),
            "adam": lambda p: torch.optim.Adam(p, lr=0.001, foreach=False),
            "rmsprop": lambda p: torch.optim.RMSprop(p, lr=0.001, foreach=False),
            "adagrad": lambda p: torch.optim.Adagrad(p, lr=0.01, foreach=False)}
    for name in names:
        params = [torch.from_numpy(w.copy()).requires_grad_() for w, _ in values]
        for p, (_, g) in zip(params, values):
            p.grad = torch.from_numpy(g.copy())
        opt = make[name](params)
        with torch.no_grad():
            res[name] = best(opt.step)
else:
    import mxnet as mx
    make = {"sgd": lambda: mx.optimizer.SGD(learning_rate=0.01),
            "sgd_mom": lambda: mx.optimizer.SGD(learning_rate=0.01, momentum=0.9),
            "nag": lambda: mx.optimizer.NAG(learning_rate=0.01, momentum=0.9),
            "adam": lambda: mx.optimizer.Adam(learning_rate=0.001),
            "rmsprop": lambda: mx.optimizer.RMSProp(learning_rate=0.001),
            "adagrad": lambda: mx.optimizer.AdaGrad(learning_rate=0.01)}
    for name in names:
        weights = [mx.nd.array(w) for w, _ in values]
        grads = [mx.nd.array(g) for _, g in values]
        updater = mx.optimizer.get_updater(make[name]())

        def step():
            for i, (w, g) in enumerate(zip(weights, grads)):
                updater(i, g, w)
            mx.nd.waitall()
        res[name] = best(step)
print(json.dumps(res))
'''


def run(python, impl, names, repeat, threads, env, cwd=None):
    proc = subprocess.run([python, "-c", _KERNEL, impl, ",".join(names), str(repeat),
                           str(threads)], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=1800)
    if proc.returncode != 0:
        print(f"[{impl} failed]\n{proc.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", default=os.path.join(root, ".ref", "bin", "python"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--optimizers", default=",".join(OPTIMIZERS))
    args = ap.parse_args()
    names = [n for n in args.optimizers.split(",") if n]
    unknown = set(names) - set(OPTIMIZERS)
    if unknown:
        ap.error(f"unknown optimizers {sorted(unknown)}; choose from {OPTIMIZERS}")
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
              "MXNET_CPU_WORKER_NTHREADS"):
        env[k] = str(args.threads)
    results = {"mxnet-py": run(sys.executable, "mxnet", names, args.repeat, args.threads,
                               dict(env, PYTHONPATH=root), root)}
    if os.path.exists(args.ref):
        results["mxnet-1.9.1"] = run(args.ref, "mxnet", names, args.repeat, args.threads,
                                     dict(env, MXNET_ENGINE_TYPE="NaiveEngine"), "/tmp")
    try:
        import torch  # noqa: F401
        results["torch"] = run(sys.executable, "torch", names, args.repeat, args.threads, env)
    except ImportError:
        pass
    ours = results["mxnet-py"] or {}
    print(f"one optimizer update over the CIFAR ResNet-18's parameters "
          f"({ours.get('arrays')} arrays, {ours.get('values')} float32 values), "
          f"{args.threads} thread(s); best ms of {args.repeat}")
    cols = ["mxnet-py", "mxnet-1.9.1", "torch"]
    print(f"{'optimizer':10s}" + "".join(f"{c:>13s}" for c in cols) +
          f"{'/mxnet-1.9.1':>14s}{'/torch':>9s}")
    for n in names:
        vals = [(results.get(c) or {}).get(n) for c in cols]
        line = f"{n:10s}" + "".join(f"{v:13.2f}" if v is not None else f"{'-':>13s}"
                                    for v in vals)
        for other in vals[1:]:
            line += (f"{vals[0] / other:{14 if other is vals[1] else 9}.2f}"
                     if vals[0] is not None and other else f"{'-':>9s}")
        print(line)
    print("(ratios: mxnet-py time / other time, < 1 means mxnet-py is faster)")


if __name__ == "__main__":
    main()
