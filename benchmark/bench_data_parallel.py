"""Data-parallel training throughput (samples/s) over the distributed KVStores.

Every worker trains the same MLP, 784-512-512-10 with ReLU (669,706 parameters, so 2.7 MB
of float32 gradients per step in 6 keys), with ``gluon.Trainer`` (SGD, momentum 0.9) on
synthetic MNIST-shaped data, ``--batch`` samples per worker and step (a fixed random
batch, so no data loading is timed). The net is hybridized unless ``--imperative``. The
Trainer gets the store object, as 1.9.1 scripts do, with the default
``update_on_kvstore``: the optimizer runs on the servers for ``dist_sync``, on every
worker for ``dist_sync_allreduce``.

Rows, for each worker count of ``--workers``:

- ``no kvstore``: one plain process, ``Trainer(kvstore=None)`` (the 1-worker ceiling);
- ``dist_sync``: parameter servers (``--servers``, default 1);
- ``dist_sync_allreduce``: no servers, MPI allreduce among the workers.

Overlap (``--overlap``, any of these, measured in the same job, interleaved, so that the
load of a shared machine affects them alike):

- ``on``: the store as it is: push and pull return at once; the messenger thread, MPI
  and the servers move the keys while the worker goes on, and the next step waits
  only for the weights it reads;
- ``step``: ``mx.nd.waitall()`` after each ``trainer.step``: a step's communication
  still pipelines its keys, but never overlaps computation;
- ``off``: ``mx.nd.waitall()`` after every push and pull: nothing overlaps at all.

Throughput = workers x batch x steps / seconds, timed on worker 0 between barriers after
``--warmup`` steps; the median over ``--repeat`` timings of ``--steps`` steps per job and
``--jobs`` jobs. Every process runs with ``--threads`` BLAS/OpenMP threads (default 1).
On a machine with fewer cores than processes (servers count too) the processes share
cores, and the figures say more about that than about the store.

    python benchmark/bench_data_parallel.py [--workers 1,2,4] [--batch 64] [--steps 20]
        [--repeat 5] [--jobs 3] [--modes dist_sync,dist_sync_allreduce] [--overlap on,step,off]
        [--servers 1] [--threads 1] [--imperative] [--no-baseline] [--json out.json]
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
SIZES = (784, 512, 512, 10)
OVERLAPS = ("on", "step", "off")


def _blas_env(threads):
    n = str(threads)
    return {"OMP_NUM_THREADS": n, "OPENBLAS_NUM_THREADS": n, "MKL_NUM_THREADS": n}


def _wrap_calls(kv, state):
    """Make every push and pull of ``kv`` finish before it returns while
    ``state['overlap'] == 'off'``."""
    import mxnet as mx
    for name in ("push", "pull", "pushpull"):
        call = getattr(kv, name)

        def maybe_waited(*args, _call=call, **kwargs):
            _call(*args, **kwargs)
            if state["overlap"] == "off":
                mx.nd.waitall()
        setattr(kv, name, maybe_waited)


def child(mode, batch, steps, repeat, warmup, overlaps, hybridize):
    """One process of a job (or the plain baseline): print a RESULT line on worker 0."""
    import numpy as np

    import mxnet as mx
    from mxnet import autograd, gluon
    kv = None if mode == "none" else mx.kv.create(mode)
    rank = kv.rank if kv is not None else 0
    workers = kv.num_workers if kv is not None else 1
    state = {"overlap": "on"}
    if kv is not None:
        _wrap_calls(kv, state)
    mx.random.seed(0)
    net = _nets.dense_mlp(mx, SIZES)
    if hybridize:
        net.hybridize(static_alloc=True, static_shape=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": 0.01, "momentum": 0.9}, kvstore=kv)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    rs = np.random.RandomState(rank)
    x = mx.nd.array(rs.uniform(0, 1, (batch, SIZES[0])).astype(np.float32))
    y = mx.nd.array(rs.randint(0, SIZES[-1], batch).astype(np.float32))

    def step():
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(batch)
        if state["overlap"] == "step":
            mx.nd.waitall()

    def sync():
        mx.nd.waitall()
        if kv is not None:
            kv._barrier()

    for _ in range(warmup):
        step()
    rates = {o: [] for o in overlaps}
    for _ in range(repeat):
        for o in overlaps:
            state["overlap"] = o
            sync()
            t = time.perf_counter()
            for _ in range(steps):
                step()
            sync()
            rates[o].append(workers * batch * steps / (time.perf_counter() - t))
    if rank == 0:
        print("RESULT " + json.dumps(rates), flush=True)


def run(mode, workers, servers, overlaps, args):
    """Start one job (or the plain process for ``mode='none'``); return its rates."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("DMLC_", "PMI_", "MXNET_KVSTORE_")):
            del env[k]
    env.update(_blas_env(args.threads))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    me = [sys.executable, str(Path(__file__).resolve()), "--child", mode,
          "--batch", str(args.batch), "--steps", str(args.steps), "--repeat", str(args.repeat),
          "--warmup", str(args.warmup), "--overlap", ",".join(overlaps)]
    if args.imperative:
        me.append("--imperative")
    if mode == "none":
        cmd = me
    else:
        cmd = [sys.executable, "-m", "mxnet.tools.launch", "-n", str(workers), "-s", str(servers),
               "--timeout", str(args.timeout)] + me
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=args.timeout + 30)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    sys.stderr.write(f"{mode} x{workers} failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}\n")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--batch", type=int, default=64, help="samples per worker and step")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=3, help="jobs per configuration")
    ap.add_argument("--modes", default="dist_sync,dist_sync_allreduce")
    ap.add_argument("--overlap", default="on,step,off")
    ap.add_argument("--servers", type=int, default=1, help="servers of dist_sync / dist_async")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--imperative", action="store_true",
                    help="do not hybridize the net (layer by layer through the engine)")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json", default=None)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    overlaps = args.overlap.split(",")
    if any(o not in OVERLAPS for o in overlaps):
        ap.error(f"--overlap takes some of {','.join(OVERLAPS)}")
    if args.child:
        child(args.child, args.batch, args.steps, args.repeat, args.warmup, overlaps,
              not args.imperative)
        return
    jobs = [("no kvstore (1 process)", "none", 1, 0)] if not args.no_baseline else []
    for mode in args.modes.split(","):
        servers = 0 if "allreduce" in mode else args.servers
        for w in [int(w) for w in args.workers.split(",")]:
            jobs.append((mode + (f" S={servers}" if servers else ""), mode, w, servers))
    ncpu = os.cpu_count() or 1
    print(f"MLP {'-'.join(map(str, SIZES))} ({'imperative' if args.imperative else 'hybridized'}), "
          f"batch {args.batch}/worker, SGD momentum; samples/s of all workers, median of "
          f"{args.repeat} x {args.steps} steps x {args.jobs} jobs; {args.threads} BLAS "
          f"thread(s)/process; {ncpu} cores")
    head = (f"{'store':24s}{'workers':>8s}{'procs':>6s}{'overlap':>9s}{'samples/s':>11s}"
            f"{'per worker':>11s}{'min-max':>14s}{'vs on':>7s}")
    print(head)
    print("-" * len(head))
    results = []
    for label, mode, w, servers in jobs:
        ovs = ["on"] if mode == "none" else overlaps
        rates = {o: [] for o in ovs}
        t = time.perf_counter()
        for _ in range(args.jobs):
            res = run(mode, w, servers, ovs, args)
            for o in ovs:
                rates[o].extend((res or {}).get(o, []))
        wall = time.perf_counter() - t
        base = statistics.median(rates["on"]) if rates.get("on") else None
        procs = w + servers
        for o in ovs:
            r = rates[o]
            if not r:
                print(f"{label:24s}{w:8d}{procs:6d}{o:>9s}{'failed':>11s}")
                continue
            med = statistics.median(r)
            rel = f"{med / base:7.2f}" if base else ""
            print(f"{label:24s}{w:8d}{procs:6d}{o if mode != 'none' else '-':>9s}{med:11.0f}"
                  f"{med / w:11.0f}{f'{min(r):.0f}-{max(r):.0f}':>14s}{rel}"
                  + (f"   ({wall:.0f} s)" if o == ovs[-1] else ""), flush=True)
            results.append({"store": label, "mode": mode, "workers": w, "servers": servers,
                            "overlap": o, "samples_per_s": med, "rates": r})
    if ncpu < max(w + s for _, _, w, s in jobs):
        print(f"(procs > {ncpu} cores: those jobs share cores, workers and servers alike)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
