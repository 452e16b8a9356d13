"""Overlap of gradient communication with backward: MXNET_KVSTORE_OVERLAP=1 vs 0.

Every worker trains a deep, wide MLP (``--sizes``, default 784-1024-1024-1024-1024-10,
3.96 M parameters: 15.8 MB of float32 gradients per step in 10 keys) with
``gluon.Trainer`` (SGD, momentum 0.9) on a fixed random batch of ``--batch`` samples,
hybridized unless ``--imperative``. Each (store, workers, overlap) is its own MPI job,
as the variable is read when the store is created:

- overlap ``1`` (the default): backward runs as an asynchronous engine op that hands
  each layer's gradient on as soon as it is final; the Trainer's pushes (last layer
  first) leave while earlier layers' gradients are still computed;
- overlap ``0``: backward runs inline; every push starts after all of backward.

Reported per job, on worker 0: samples/s of all workers (median of ``--repeat`` timings
of ``--steps`` steps, between barriers) and the median time from the ``backward()``
call to the end of ``step()``, the end being when every updated weight is available
(``wait_to_read`` on each parameter), i.e. what the next forward would wait for.

    python benchmark/bench_overlap.py [--workers 1,2] [--modes dist_sync,dist_sync_allreduce]
        [--batch 32] [--steps 10] [--repeat 3] [--sizes 784,1024,1024,1024,1024,10]
        [--threads 1] [--imperative] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def child(mode, batch, steps, repeat, sizes, hybridize):
    import numpy as np

    import mxnet as mx
    from mxnet import autograd, gluon
    kv = mx.kv.create(mode)
    mx.random.seed(0)
    net = gluon.nn.HybridSequential()
    for n_in, n_out in zip(sizes[:-2], sizes[1:-1]):
        net.add(gluon.nn.Dense(n_out, activation="relu", in_units=n_in))
    net.add(gluon.nn.Dense(sizes[-1], in_units=sizes[-2]))
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    params = list(net.collect_params().values())
    trainer = gluon.Trainer(params, "sgd", {"learning_rate": 0.01, "momentum": 0.9}, kvstore=kv)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    rs = np.random.RandomState(kv.rank)
    x = mx.nd.array(rs.uniform(0, 1, (batch, sizes[0])).astype(np.float32))
    y = mx.nd.array(rs.randint(0, sizes[-1], batch).astype(np.float32))
    tails = []

    def step():
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.wait_to_read()
        t = time.perf_counter()
        loss.backward()
        trainer.step(batch)
        for p in params:
            p.data().wait_to_read()
        tails.append(time.perf_counter() - t)

    def sync():
        mx.nd.waitall()
        kv._barrier()

    for _ in range(2):
        step()
    rates = []
    tails.clear()
    for _ in range(repeat):
        sync()
        t = time.perf_counter()
        for _ in range(steps):
            step()
        sync()
        rates.append(kv.num_workers * batch * steps / (time.perf_counter() - t))
    if kv.rank == 0:
        print("RESULT " + json.dumps({"rate": statistics.median(rates),
                                      "tail_ms": 1e3 * statistics.median(tails)}), flush=True)


def run(mode, workers, overlap, args):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("DMLC_", "PMI_", "MXNET_KVSTORE_")):
            del env[k]
    n = str(args.threads)
    env.update({"OMP_NUM_THREADS": n, "OPENBLAS_NUM_THREADS": n, "MKL_NUM_THREADS": n,
                "MXNET_KVSTORE_OVERLAP": overlap})
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    me = [sys.executable, str(Path(__file__).resolve()), "--child", mode, "--batch",
          str(args.batch), "--steps", str(args.steps), "--repeat", str(args.repeat),
          "--sizes", args.sizes] + (["--imperative"] if args.imperative else [])
    servers = 0 if "allreduce" in mode else 1
    cmd = [sys.executable, "-m", "mxnet.tools.launch", "-n", str(workers), "-s", str(servers),
           "--timeout", "900"] + me
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1000)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"{mode} x{workers} overlap={overlap} failed:\n{out.stdout}\n{out.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--child")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--modes", default="dist_sync,dist_sync_allreduce")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="784,1024,1024,1024,1024,10")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--imperative", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.child:
        child(args.child, args.batch, args.steps, args.repeat, sizes, not args.imperative)
        return
    nparams = sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))
    print(f"MLP {args.sizes}: {nparams / 1e6:.2f} M parameters, batch {args.batch} per worker, "
          f"{'imperative' if args.imperative else 'hybridized'}")
    print(f"{'store':<22}{'workers':>8}{'overlap':>8}{'samples/s':>12}{'backward..step ms':>20}")
    rows = []
    for mode in args.modes.split(","):
        for w in (int(x) for x in args.workers.split(",")):
            for overlap in ("1", "0"):
                res = run(mode, w, overlap, args)
                rows.append({"mode": mode, "workers": w, "overlap": overlap, **res})
                print(f"{mode:<22}{w:>8}{overlap:>8}{res['rate']:>12.0f}{res['tail_ms']:>20.1f}",
                      flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
