"""Overlap of gradient communication with backward: MXNET_KVSTORE_OVERLAP=1 (or 2) vs 0.

Every worker trains a deep, wide MLP (``--sizes``, default 784-1024-1024-1024-1024-10,
3.96 M parameters: 15.8 MB of float32 gradients per step in 10 keys) on a fixed random
batch of ``--batch`` samples, SGD with momentum 0.9: with ``gluon.Trainer``, hybridized
unless ``--imperative``, or with ``mx.mod.Module`` (``--module``, the same MLP as a
Symbol with SoftmaxOutput). Each (store, workers, overlap level) is its own MPI job, as
the variable is read when the store is created:

- level ``1`` (the default): the backward of compiled graphs (a hybridized block,
  Module's executor) runs as an asynchronous engine op that hands each layer's gradient
  on as soon as it is final; the pushes (last layer first) leave while earlier layers'
  gradients are still computed. A graph without a hybridized block (``--imperative``)
  runs its backward synchronously, only the push order is reversed;
- level ``2``: imperative graphs run asynchronously too;
- level ``0``: backward runs inline; every push starts after all of backward.

Reported per job, on worker 0: samples/s of all workers (median of ``--repeat`` timings
of ``--steps`` steps, between barriers), the median time from the ``backward()`` call to
the end of the update, the end being when every updated weight is available
(``wait_to_read`` on each parameter), i.e. what the next forward would wait for, and
the CPU time per step of each of worker 0's threads (``--json`` keeps it).

    python benchmark/bench_overlap.py [--workers 1,2] [--modes dist_sync,dist_sync_allreduce]
        [--batch 32] [--steps 10] [--repeat 3] [--sizes 784,1024,1024,1024,1024,10]
        [--threads 1] [--imperative | --module] [--levels 1,0] [--rounds 1] [--json out.json]

With ``--rounds N`` every level runs N times, the levels' jobs alternating, and the
table shows the median samples/s with the range; on a shared machine use several rounds.
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

import _nets

REPO = Path(__file__).resolve().parents[1]


def child(mode, batch, steps, repeat, sizes, kind):
    import numpy as np

    import mxnet as mx
    from mxnet import autograd, gluon
    kv = mx.kv.create(mode)
    mx.random.seed(0)
    rs = np.random.RandomState(kv.rank)
    x = mx.nd.array(rs.uniform(0, 1, (batch, sizes[0])).astype(np.float32))
    y = mx.nd.array(rs.randint(0, sizes[-1], batch).astype(np.float32))
    tails = []
    if kind == "module":
        step, params = _module_step(mx, kv, x, y, sizes, tails)
    else:
        step, params = _gluon_step(mx, autograd, gluon, kv, x, y, sizes, kind == "hybrid",
                                   tails)

    def sync():
        mx.nd.waitall()
        kv._barrier()

    for _ in range(2):
        step()
    rates = []
    tails.clear()
    cpu0 = _thread_cpu()
    for _ in range(repeat):
        sync()
        t = time.perf_counter()
        for _ in range(steps):
            step()
        sync()
        rates.append(kv.num_workers * batch * steps / (time.perf_counter() - t))
    cpu = _thread_cpu()
    nsteps = repeat * steps
    # CPU ms per step of each thread of this worker (main, backward walker, messenger, ...)
    per_thread = {k: round(1e3 * (v - cpu0.get(k, 0.0)) / nsteps, 2) for k, v in cpu.items()}
    if kv.rank == 0:
        print("RESULT " + json.dumps({"rate": statistics.median(rates),
                                      "tail_ms": 1e3 * statistics.median(tails),
                                      "cpu_ms": per_thread}), flush=True)


def _gluon_step(mx, autograd, gluon, kv, x, y, sizes, hybridize, tails):
    net = _nets.dense_mlp(mx, sizes)
    if hybridize:
        net.hybridize()
    params = list(net.collect_params().values())
    trainer = gluon.Trainer(params, "sgd", {"learning_rate": 0.01, "momentum": 0.9}, kvstore=kv)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    batch = x.shape[0]

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
    return step, params


def _module_step(mx, kv, x, y, sizes, tails):
    h = mx.sym.var("data")
    for i, n in enumerate(sizes[1:-1]):
        h = mx.sym.Activation(mx.sym.FullyConnected(h, num_hidden=n, name=f"fc{i}"),
                              act_type="relu")
    h = mx.sym.FullyConnected(h, num_hidden=sizes[-1], name="out")
    mod = mx.mod.Module(mx.sym.SoftmaxOutput(h, name="softmax"), context=mx.cpu())
    mod.bind(data_shapes=[("data", x.shape)], label_shapes=[("softmax_label", y.shape)])
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer(kvstore=kv, optimizer="sgd",
                       optimizer_params={"learning_rate": 0.01, "momentum": 0.9})
    batch = mx.io.DataBatch([x], [y])
    weights = [a for per_device in mod._exec_group.param_arrays for a in per_device]

    def step():
        mod.forward(batch, is_train=True)
        mod.get_outputs()[0].wait_to_read()
        t = time.perf_counter()
        mod.backward()
        mod.update()
        for w in weights:
            w.wait_to_read()
        tails.append(time.perf_counter() - t)
    return step, weights


def _thread_cpu():
    """CPU seconds used so far by each live thread of this process, by thread name
    (engine workers summed)."""
    import threading
    out = {}
    for t in threading.enumerate():
        try:
            secs = time.clock_gettime(time.pthread_getcpuclockid(t.ident))
        except (AttributeError, OSError, TypeError):
            continue
        name = "engine-workers" if t.name.startswith("mxnet-engine-worker") else t.name
        out[name] = out.get(name, 0.0) + secs
    return out


def _kind(args):
    return "module" if args.module else "imperative" if args.imperative else "hybrid"


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
          "--sizes", args.sizes, "--kind", _kind(args)]
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
    kinds = ap.add_mutually_exclusive_group()
    kinds.add_argument("--imperative", action="store_true")
    kinds.add_argument("--module", action="store_true")
    ap.add_argument("--kind", help=argparse.SUPPRESS)
    ap.add_argument("--levels", default="1,0", help="MXNET_KVSTORE_OVERLAP values to compare")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.child:
        child(args.child, args.batch, args.steps, args.repeat, sizes, args.kind)
        return
    nparams = sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))
    how = {"hybrid": "Gluon, hybridized", "imperative": "Gluon, imperative",
           "module": "Module"}[_kind(args)]
    print(f"MLP {args.sizes}: {nparams / 1e6:.2f} M parameters, batch {args.batch} per worker, "
          f"{how}")
    print(f"{'store':<22}{'workers':>8}{'overlap':>8}{'samples/s':>20}{'backward..update ms':>22}")
    rows = []
    levels = args.levels.split(",")
    for mode in args.modes.split(","):
        for w in (int(x) for x in args.workers.split(",")):
            got = {lv: [] for lv in levels}
            for rnd in range(args.rounds):
                # alternate which level goes first, so a drifting load favours none
                for lv in (levels if rnd % 2 == 0 else levels[::-1]):
                    res = run(mode, w, lv, args)
                    got[lv].append(res)
                    rows.append({"mode": mode, "workers": w, "overlap": lv, "round": rnd, **res})
            for lv in levels:
                rates = sorted(r["rate"] for r in got[lv])
                rate = f"{statistics.median(rates):.0f}"
                if len(rates) > 1:
                    rate += f" ({rates[0]:.0f}-{rates[-1]:.0f})"
                tail = statistics.median(r["tail_ms"] for r in got[lv])
                print(f"{mode:<22}{w:>8}{lv:>8}{rate:>20}{tail:>22.1f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
