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

WORKLOADS = ("mlp", "resnet18", "lstm", "resnet50")
BATCH = {"mlp": 1024, "resnet18": 128, "lstm": 20, "resnet50": 64}
V, E, H, T = 10000, 200, 200, 35
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
    import torch.nn as tnn
    import torch.nn.functional as TF
    torch.manual_seed(0)
    dev = torch.device("cpu" if DRYRUN else "cuda:0")
    sync = (lambda: None) if DRYRUN else torch.cuda.synchronize

    class Basic(tnn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1 = tnn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.b1 = tnn.BatchNorm2d(cout)
            self.c2 = tnn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.b2 = tnn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride, bias=False),
                                           tnn.BatchNorm2d(cout))

        def forward(self, x):
            r = x if self.down is None else self.down(x)
            y = TF.relu(self.b1(self.c1(x)))
            return TF.relu(self.b2(self.c2(y)) + r)

    class LM(tnn.Module):
        def __init__(self):
            super().__init__()
            self.emb = tnn.Embedding(V, E)
            self.rnn = tnn.LSTM(E, H, 2)
            self.dec = tnn.Linear(H, V)

        def forward(self, x):
            return self.dec(self.rnn(self.emb(x))[0])

    if work == "mlp":
        net = tnn.Sequential(tnn.Linear(784, 512), tnn.ReLU(), tnn.Linear(512, 512), tnn.ReLU(),
                             tnn.Linear(512, 10))
    elif work == "resnet18":
        layers, cin = [tnn.Conv2d(3, 64, 3, 1, 1, bias=False), tnn.BatchNorm2d(64), tnn.ReLU()], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [Basic(cin, cout, stride), Basic(cout, cout, 1)]
            cin = cout
        layers += [tnn.AdaptiveAvgPool2d(1), tnn.Flatten(), tnn.Linear(512, 10)]
        net = tnn.Sequential(*layers)
    elif work == "resnet50":
        import torchvision
        net = torchvision.models.resnet50(num_classes=1000)
    else:
        net = LM()
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
    """The Gluon network of ``work``, initialised on ``ctx`` (not hybridized)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import mxnet as mx
    from mxnet import gluon
    from mxnet.gluon import nn

    class Basic(gluon.HybridBlock):
        def __init__(self, cout, stride, down, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.c1 = nn.Conv2D(cout, 3, stride, 1, use_bias=False)
                self.b1 = nn.BatchNorm()
                self.c2 = nn.Conv2D(cout, 3, 1, 1, use_bias=False)
                self.b2 = nn.BatchNorm()
                self.down = None
                if down:
                    self.down = nn.HybridSequential(prefix="down_")
                    with self.down.name_scope():
                        self.down.add(nn.Conv2D(cout, 1, stride, use_bias=False),
                                      nn.BatchNorm())

        def hybrid_forward(self, F, x):
            r = x if self.down is None else self.down(x)
            y = F.Activation(self.b1(self.c1(x)), act_type="relu")
            return F.Activation(self.b2(self.c2(y)) + r, act_type="relu")

    class LM(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.emb = nn.Embedding(V, E)
                self.rnn = gluon.rnn.LSTM(H, num_layers=2, input_size=E)
                self.dec = nn.Dense(V, flatten=False, in_units=H)

        def hybrid_forward(self, F, x):
            return self.dec(self.rnn(self.emb(x)))

    if work == "mlp":
        net = nn.HybridSequential(prefix="mlp_")
        with net.name_scope():
            net.add(nn.Dense(512, activation="relu"), nn.Dense(512, activation="relu"),
                    nn.Dense(10))
    elif work == "resnet18":
        net = nn.HybridSequential(prefix="resnet_")
        with net.name_scope():
            net.add(nn.Conv2D(64, 3, 1, 1, use_bias=False), nn.BatchNorm(),
                    nn.Activation("relu"))
            cin = 64
            for i, (cout, stride) in enumerate(((64, 1), (128, 2), (256, 2), (512, 2))):
                net.add(Basic(cout, stride, stride != 1 or cin != cout, prefix=f"s{i}a_"),
                        Basic(cout, 1, False, prefix=f"s{i}b_"))
                cin = cout
            net.add(nn.GlobalAvgPool2D(), nn.Dense(10))
    elif work == "resnet50":
        net = gluon.model_zoo.vision.resnet50_v1(classes=1000)
    else:
        net = LM(prefix="lm_")
    net.initialize(mx.init.Xavier(), ctx=ctx)
    return net


def _mxnet_worker(work, paths, warmup, steps):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import mxnet as mx
    from mxnet import autograd, gluon
    mx.random.seed(0)
    ctx = mx.cpu(0) if DRYRUN else mx.gpu(0)

    def build():
        return build_mxnet(work, ctx)

    xn, yn = _data(work)
    x = mx.nd.array(xn, ctx=ctx)
    y = mx.nd.array(yn, ctx=ctx)
    n = BATCH[work]
    res = {}
    for path in paths:
        net = build()
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        if path == "hybrid":
            net.hybridize(static_alloc=True, static_shape=True)
            loss_fn.hybridize(static_alloc=True, static_shape=True)
        net(x)
        trainer = gluon.Trainer(net.collect_params(), "sgd",
                                {"learning_rate": 0.01, "momentum": 0.9}, kvstore=None)

        def step():
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(n)
        res[path] = _time(step, mx.nd.waitall, warmup, steps)
    return res


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
