"""GPU training throughput: this project on ``mx.gpu(0)`` (CuPy) beside PyTorch eager on
the same GPU, in one run. CI never runs it; tools/gpu_check.sh does, on a lent GPU.

Workloads (synthetic data, float32, SGD momentum 0.9, softmax cross-entropy):

- ``mlp``: MLP 784-512-512-10 (ReLU), batch 1024
- ``resnet18``: the CIFAR ResNet-18 of bench_training.py, batch 128 on 3x32x32
- ``lstm``: 2-layer LSTM language model (vocab 10000, embed 200, hidden 200), batch 20,
  35 steps
- ``resnet50``: ResNet-50 v1 (model zoo / torchvision layout), batch 64 on 3x224x224

Paths: ``hybrid`` (Gluon after ``hybridize(static_alloc=True, static_shape=True)``),
``imperative`` (Gluon, MLP only by default) and torch ``eager``. One subprocess per
(framework, workload), each under ``--timeout`` seconds. A step ends with a full device
sync (``mx.nd.waitall()`` / ``torch.cuda.synchronize()``). Reports the median step time
over ``--steps`` steps after ``--warmup`` warm-up steps (the first compiles CuPy kernels),
samples/s, and mxnet-py / torch (time ratio; below 1 means mxnet-py is faster).

    python benchmark/bench_gpu.py [--workloads mlp,resnet18,lstm,resnet50]
        [--frameworks mxnet-py,torch] [--steps 10] [--warmup 3] [--timeout 120]
        [--json out.json]

Without a GPU it prints that and exits 0.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import _nets
from _nets import T, V

WORKLOADS = ("mlp", "resnet18", "lstm", "resnet50")
BATCH = {"mlp": 1024, "resnet18": 128, "lstm": 20, "resnet50": 64}
# BENCH_GPU_DRYRUN=1 runs everything on the CPU (checks the script without a GPU)
DRYRUN = os.environ.get("BENCH_GPU_DRYRUN") == "1"


def _data(work):
    import numpy as np
    rs = np.random.RandomState(0)
    n = BATCH[work]
    if work == "mlp":
        x = rs.uniform(-1, 1, (n, 784)).astype(np.float32)
        y = rs.randint(0, 10, (n,))
    elif work == "resnet18":
        x = rs.uniform(-1, 1, (n, 3, 32, 32)).astype(np.float32)
        y = rs.randint(0, 10, (n,))
    elif work == "resnet50":
        x = rs.uniform(-1, 1, (n, 3, 224, 224)).astype(np.float32)
        y = rs.randint(0, 1000, (n,))
    else:
        x = rs.randint(0, V, (T, n))
        y = rs.randint(0, V, (T, n))
    return x, y


def _time(step, sync, warmup, steps):
    import statistics
    for _ in range(warmup):
        step()
    sync()
    times = []
    for _ in range(steps):
        t = time.perf_counter()
        step()
        sync()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def _torch_worker(work, warmup, steps):
    import torch
    import torch.nn.functional as TF
    torch.manual_seed(0)
    dev = torch.device("cpu" if DRYRUN else "cuda:0")
    sync = (lambda: None) if DRYRUN else torch.cuda.synchronize

    net = _nets.torch_net(work)
    net = net.to(dev).train()
    xn, yn = _data(work)
    x = torch.from_numpy(xn).to(dev)
    y = torch.from_numpy(yn).long().to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

    def step():
        opt.zero_grad()
        out = net(x)
        loss = TF.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))
        loss.backward()
        opt.step()
    return {"eager": _time(step, sync, warmup, steps)}


def build_mxnet(work, ctx):
    """The Gluon network of ``work`` (this project's mxnet), initialised on ``ctx``."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import mxnet as mx
    return _nets.gluon_net(mx, work, ctx)


def mxnet_step(work, ctx, hybridize):
    """One Gluon training step of ``work`` on ``ctx`` (a closure over its own network,
    loss, Trainer and synthetic batch; the network's shapes already inferred)."""
    net = build_mxnet(work, ctx)
    import mxnet as mx
    from mxnet import autograd, gluon
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    if hybridize:
        net.hybridize(static_alloc=True, static_shape=True)
        loss_fn.hybridize(static_alloc=True, static_shape=True)
    xn, yn = _data(work)
    x, y = mx.nd.array(xn, ctx=ctx), mx.nd.array(yn, ctx=ctx)
    net(x)
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": 0.01, "momentum": 0.9}, kvstore=None)

    def step():
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(BATCH[work])
    return step


def _mxnet_worker(work, paths, warmup, steps):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import mxnet as mx
    mx.random.seed(0)
    ctx = mx.cpu(0) if DRYRUN else mx.gpu(0)
    return {path: _time(mxnet_step(work, ctx, path == "hybrid"), mx.nd.waitall, warmup, steps)
            for path in paths}


def _worker(args):
    fw, work = args.worker
    if fw == "torch":
        res = _torch_worker(work, args.warmup, args.steps)
    else:
        paths = ["hybrid", "imperative"] if work == "mlp" else ["hybrid"]
        res = _mxnet_worker(work, paths, args.warmup, args.steps)
    print("RESULT " + json.dumps(res), flush=True)


def _have_gpu():
    code = ("import sys; sys.path.insert(0, %r); import mxnet as mx; "
            "sys.exit(0 if mx.context.num_gpus() > 0 else 1)"
            % os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--frameworks", default="mxnet-py,torch")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--json")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        _worker(args)
        return
    if not DRYRUN and not _have_gpu():
        print("bench_gpu: no GPU visible to CuPy (or CuPy missing); nothing to measure.")
        return
    table = {}
    for work in args.workloads.split(","):
        for fw in args.frameworks.split(","):
            cmd = [sys.executable, os.path.abspath(__file__), "--worker", fw, work,
                   "--steps", str(args.steps), "--warmup", str(args.warmup)]
            t0 = time.perf_counter()
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                line = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
                if line:
                    table.setdefault(work, {}).update(
                        {f"{fw}:{k}": v for k, v in json.loads(line[-1][7:]).items()})
                else:
                    table.setdefault(work, {})[f"{fw}:error"] = (p.stderr or p.stdout)[-600:]
            except subprocess.TimeoutExpired:
                table.setdefault(work, {})[f"{fw}:error"] = f"timed out after {args.timeout} s"
            print(f"# {work} {fw}: {time.perf_counter() - t0:.1f} s", flush=True)
    print(f"{'workload':10} {'batch':>5} {'path':18} {'ms/step':>9} {'samples/s':>10} "
          f"{'vs torch':>9}")
    for work, row in table.items():
        ref = row.get("torch:eager")
        for key, v in row.items():
            if key.endswith(":error"):
                print(f"{work:10} {BATCH[work]:5} {key:18} ERROR {v!r}")
                continue
            ratio = f"{v / ref:8.2f}x" if ref and not key.startswith("torch") else ""
            print(f"{work:10} {BATCH[work]:5} {key:18} {v:9.2f} {BATCH[work] / v * 1e3:10.0f} "
                  f"{ratio:>9}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(table, f, indent=1)


if __name__ == "__main__":
    main()
