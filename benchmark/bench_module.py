"""Time of one ``Module.fit``-style training step beside the Gluon hybridized step.

Workloads (synthetic random data, float32, SGD lr 0.01 momentum 0.9, softmax cross-entropy):

- ``mlp``: MLP 784-512-512-10 (ReLU), batch 128
- ``lenet``: conv20 5x5, max-pool 2, conv50 5x5, max-pool 2, fc500, fc10 (ReLU), batch 64
  on 1x28x28

Paths:

- ``module``: ``mx.mod.Module`` on one cpu context (``bind`` + ``init_params`` +
  ``init_optimizer``), each step ``forward_backward(DataBatch)`` + ``update()`` -- what
  ``Module.fit`` does per batch (without metric update)
- ``gluon``: the same net built from ``gluon.nn``, ``hybridize(static_alloc=True,
  static_shape=True)``, ``autograd.record`` + ``SoftmaxCrossEntropyLoss`` + ``backward`` +
  ``Trainer.step``

Runs this project's mxnet with ``sys.executable`` and the reference MXNet 1.9.1 with the
``.ref`` venv (from /tmp so ``import mxnet`` finds the real one), one subprocess per
(framework, workload), with OMP/OPENBLAS/MKL_NUM_THREADS = ``--threads`` (default 1). Each
step ends with ``mx.nd.waitall()``. Reports the best of ``--repeat`` (default 5) steps after
2 warm-up steps: process CPU time (all threads) and wall time, in ms, and the ratios
mxnet-py / 1.9.1 (CPU time; the steadier figure on a shared machine) and module / gluon.

    python benchmark/bench_module.py [--ref .ref/bin/python] [--threads 1]
        [--workloads mlp,lenet] [--repeat 5] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

WORKLOADS = ("mlp", "lenet")
PATHS = ("module", "gluon")

_KERNEL = r'''
import json, sys, time
work, repeat = sys.argv[1], int(sys.argv[2])
import numpy as np
import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

rs = np.random.RandomState(0)
mx.random.seed(0)
N = {"mlp": 128, "lenet": 64}[work]
shape = (N, 784) if work == "mlp" else (N, 1, 28, 28)
x = mx.nd.array(rs.uniform(-1, 1, shape).astype(np.float32))
y = mx.nd.array(rs.randint(0, 10, (N,)).astype(np.float32))
OPT = {"learning_rate": 0.01, "momentum": 0.9}


def best(step):
    for _ in range(2):
        step(); mx.nd.waitall()
    wall, cpu = float("inf"), float("inf")
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        step(); mx.nd.waitall()
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return {"ms": wall * 1e3, "cpu_ms": cpu * 1e3}


def symbol():
    d = mx.sym.var("data")
    if work == "mlp":
        h = mx.sym.Activation(mx.sym.FullyConnected(d, num_hidden=512, name="fc1"), act_type="relu")
        h = mx.sym.Activation(mx.sym.FullyConnected(h, num_hidden=512, name="fc2"), act_type="relu")
        h = mx.sym.FullyConnected(h, num_hidden=10, name="fc3")
    else:
        h = mx.sym.Activation(mx.sym.Convolution(d, kernel=(5, 5), num_filter=20, name="c1"),
                              act_type="relu")
        h = mx.sym.Pooling(h, kernel=(2, 2), stride=(2, 2), pool_type="max")
        h = mx.sym.Activation(mx.sym.Convolution(h, kernel=(5, 5), num_filter=50, name="c2"),
                              act_type="relu")
        h = mx.sym.Pooling(h, kernel=(2, 2), stride=(2, 2), pool_type="max")
        h = mx.sym.Activation(mx.sym.FullyConnected(mx.sym.flatten(h), num_hidden=500, name="f1"),
                              act_type="relu")
        h = mx.sym.FullyConnected(h, num_hidden=10, name="f2")
    return mx.sym.SoftmaxOutput(h, name="softmax")


def gluon_net():
    net = nn.HybridSequential()
    if work == "mlp":
        net.add(nn.Dense(512, activation="relu"), nn.Dense(512, activation="relu"), nn.Dense(10))
    else:
        net.add(nn.Conv2D(20, 5, activation="relu"), nn.MaxPool2D(2, 2),
                nn.Conv2D(50, 5, activation="relu"), nn.MaxPool2D(2, 2),
                nn.Dense(500, activation="relu"), nn.Dense(10))
    return net


res = {}
mod = mx.mod.Module(symbol(), data_names=["data"], label_names=["softmax_label"],
                    context=mx.cpu())
mod.bind(data_shapes=[("data", shape)], label_shapes=[("softmax_label", (N,))])
mod.init_params(mx.init.Xavier())
mod.init_optimizer(optimizer="sgd", optimizer_params=OPT)
batch = mx.io.DataBatch([x], [y])


def module_step():
    mod.forward_backward(batch)
    mod.update()


res["module"] = best(module_step)

net = gluon_net()
net.initialize(mx.init.Xavier())
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
net.hybridize(static_alloc=True, static_shape=True)
loss_fn.hybridize(static_alloc=True, static_shape=True)
trainer = gluon.Trainer(net.collect_params(), "sgd", OPT)


def gluon_step():
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(N)


res["gluon"] = best(gluon_step)
print("RESULT " + json.dumps(res))
'''


def run(python, cwd, work, repeat, threads):
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = str(threads)
    if cwd is None:
        env["PYTHONPATH"] = os.pathsep.join(
            [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
            + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    else:
        env.pop("PYTHONPATH", None)
    proc = subprocess.run([python, "-c", _KERNEL, work, str(repeat)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    sys.stderr.write(f"[{python} {work}] failed:\n{proc.stderr[-2000:]}\n")
    return None


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", default=os.path.join(repo, ".ref", "bin", "python"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args()

    results = {}
    for work in args.workloads.split(","):
        results[work] = {
            "mxnet-py": run(sys.executable, None, work, args.repeat, args.threads),
            "mxnet-1.9.1": (run(args.ref, "/tmp", work, args.repeat, args.threads)
                            if os.path.exists(args.ref) else None),
        }

    def cell(r, path, key):
        return f"{r[path][key]:9.2f}" if r and path in r else f"{'-':>9}"

    def ratio(a, b):
        return f"{a / b:7.2f}x" if a and b else f"{'-':>8}"

    print(f"threads={args.threads}, best of {args.repeat} steps; CPU = process CPU time (ms)")
    print(f"{'workload':9} {'path':7} {'py CPU':>9} {'py wall':>9} {'1.9.1 CPU':>9} "
          f"{'1.9.1 wall':>10} {'py/1.9.1':>8} {'mod/gluon py':>12} {'mod/gluon 1.9.1':>15}")
    for work, r in results.items():
        ours, ref = r["mxnet-py"], r["mxnet-1.9.1"]
        for path in PATHS:
            a = ours[path]["cpu_ms"] if ours else None
            b = ref[path]["cpu_ms"] if ref else None
            mg_ours = ratio(ours["module"]["cpu_ms"], ours["gluon"]["cpu_ms"]) \
                if ours and path == "module" else ""
            mg_ref = ratio(ref["module"]["cpu_ms"], ref["gluon"]["cpu_ms"]) \
                if ref and path == "module" else ""
            print(f"{work:9} {path:7} {cell(ours, path, 'cpu_ms')} {cell(ours, path, 'ms')} "
                  f"{cell(ref, path, 'cpu_ms')} {cell(ref, path, 'ms'):>10} {ratio(a, b)} "
                  f"{mg_ours:>12} {mg_ref:>15}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
