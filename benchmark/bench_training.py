"""Time of one training step (forward, backward, SGD update: momentum 0.9, lr 0.01).

Workloads (synthetic random data, float32):

- ``mlp``: MLP 784-512-512-10 (ReLU), batch 128
- ``lenet``: conv20 5x5, max-pool 2, conv50 5x5, max-pool 2, fc500, fc10 (ReLU), batch 64
  on 1x28x28
- ``resnet18``: the standard CIFAR ResNet-18 (3x3 stem conv 64, BasicBlocks
  64-128-256-512 x2, global average pool, fc10), batch 32 on 3x32x32
- ``lstm``: 2-layer LSTM language model (vocab 10000, embed 200, hidden 200, decoder
  200->10000), batch 20, 35 steps (skipped when ``gluon.rnn.LSTM`` is missing)

Paths:

- ``imperative``: Gluon, ``autograd.record`` + ``backward`` + ``Trainer.step``
- ``hybrid``: the same after ``hybridize(static_alloc=True, static_shape=True)`` (net and loss)
- ``symbolic``: ``net(mx.sym.var('data'))`` + ``SoftmaxOutput``, ``simple_bind``,
  ``forward(is_train=True)``/``backward()`` and an ``mx.optimizer`` updater over the
  executor's argument/gradient arrays
- ``eager``: PyTorch, ``zero_grad`` + forward + ``cross_entropy`` + ``backward`` + ``SGD.step``

Runs this project's mxnet and PyTorch CPU with ``sys.executable``, the reference MXNet
1.9.1 with the ``.ref`` venv (from /tmp so ``import mxnet`` finds the real one, threaded
engine), one subprocess per (framework, workload), all with ``--threads`` BLAS/OpenMP
threads (default 1). Each step ends with a full sync (``mx.nd.waitall()``). Reports
milliseconds per step (best of N after 2 warm-up steps; N = ``--repeat``, 3 for ResNet-18
unless ``--repeat-resnet``), the least process CPU time (all threads) of a step, samples/s
(from wall time) and the ratios mxnet-py / 1.9.1 and mxnet-py / torch of both wall and CPU
time (on a loaded machine the CPU-time ratio is the steadier one).

    python benchmark/bench_training.py [--ref .ref/bin/python] [--threads 1]
        [--workloads mlp,lenet,resnet18,lstm] [--paths imperative,hybrid,symbolic]
        [--frameworks mxnet-py,mxnet-1.9.1,torch] [--repeat 5] [--repeat-resnet 3]
        [--json out.json] [--interleave]

``--interleave`` runs the paths of one framework step by step in turn (N rounds after
warm-up) instead of one after the other, and adds a table of medians and of the
hybrid/imperative and symbolic/imperative ratios: use it to compare the paths.

A full run takes about 1.5 minutes on one thread. Numbers from a machine shared with other
jobs: compare the CPU-time columns, and rerun when the wall and CPU columns disagree.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

WORKLOADS = ("mlp", "lenet", "resnet18", "lstm")
MX_PATHS = ("imperative", "hybrid", "symbolic")
BATCH = {"mlp": 128, "lenet": 64, "resnet18": 32, "lstm": 20}

_KERNEL = r'''
import json, sys, time
impl, work, paths, repeat, threads = sys.argv[1], sys.argv[2], sys.argv[3].split(","), \
    int(sys.argv[4]), int(sys.argv[5])
interleave = len(sys.argv) > 6 and sys.argv[6] == "1"
sys.path.insert(0, sys.argv[7])  # benchmark/, for _nets (it imports no mxnet itself)
from _nets import V, E, H, T, gluon_net, torch_net
import numpy as np
rs = np.random.RandomState(0)
N = {"mlp": 128, "lenet": 64, "resnet18": 32, "lstm": 20}[work]
if work == "mlp":
    x_np = rs.uniform(-1, 1, (N, 784)).astype(np.float32)
    y_np = rs.randint(0, 10, (N,)).astype(np.float32)
elif work == "lenet":
    x_np = rs.uniform(-1, 1, (N, 1, 28, 28)).astype(np.float32)
    y_np = rs.randint(0, 10, (N,)).astype(np.float32)
elif work == "resnet18":
    x_np = rs.uniform(-1, 1, (N, 3, 32, 32)).astype(np.float32)
    y_np = rs.randint(0, 10, (N,)).astype(np.float32)
else:
    x_np = rs.randint(0, V, (T, N)).astype(np.float32)
    y_np = rs.randint(0, V, (T, N)).astype(np.float32)
res = {}

def best(step, sync, n):
    for _ in range(2):
        step(); sync()
    wall, cpu = float("inf"), float("inf")
    for _ in range(n):
        t, c = time.perf_counter(), time.process_time()
        step(); sync()
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return {"ms": wall * 1e3, "cpu_ms": cpu * 1e3}


def interleaved(steps, sync, n):
    """Every path's step in turn, n rounds: best and median wall and CPU times per path
    (the fairest comparison of paths on a machine whose load changes)."""
    for step in steps.values():
        for _ in range(2):
            step(); sync()
    walls = {p: [] for p in steps}
    cpus = {p: [] for p in steps}
    for _ in range(n):
        for p, step in steps.items():
            t, c = time.perf_counter(), time.process_time()
            step(); sync()
            walls[p].append(time.perf_counter() - t)
            cpus[p].append(time.process_time() - c)
    out = {}
    for p in steps:
        w, c = sorted(walls[p]), sorted(cpus[p])
        out[p] = {"ms": w[0] * 1e3, "cpu_ms": c[0] * 1e3, "med_ms": w[len(w) // 2] * 1e3,
                  "med_cpu_ms": c[len(c) // 2] * 1e3}
    return out

if impl == "torch":
    import torch
    import torch.nn.functional as TF
    torch.set_num_threads(threads)
    torch.manual_seed(0)

    net = torch_net(work)
    net.train()
    x = torch.from_numpy(x_np).long() if work == "lstm" else torch.from_numpy(x_np)
    y = torch.from_numpy(y_np).long()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

    def step():
        opt.zero_grad()
        out = net(x)
        loss = TF.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))
        loss.backward()
        opt.step()
    res["eager"] = best(step, lambda: None, repeat)
    print(json.dumps(res))
    sys.exit(0)

import mxnet as mx
from mxnet import autograd, gluon
mx.random.seed(0)
ctx = mx.cpu()


def build():
    return gluon_net(mx, work, ctx)


x = mx.nd.array(x_np, ctx=ctx)
y = mx.nd.array(y_np, ctx=ctx)
sync = mx.nd.waitall
steps = {}
for path in paths:
    net = build()
    if net is None:
        res["skipped"] = "gluon.rnn.LSTM is missing"
        break
    if path in ("imperative", "hybrid"):
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        if path == "hybrid":
            net.hybridize(static_alloc=True, static_shape=True)
            loss_fn.hybridize(static_alloc=True, static_shape=True)
        net(x)  # finish deferred initialisation before the Trainer sees the parameters
        trainer = gluon.Trainer(net.collect_params(), "sgd",
                                {"learning_rate": 0.01, "momentum": 0.9}, kvstore=None)

        def step(net=net, loss_fn=loss_fn, trainer=trainer):
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(N)
    else:
        net(x)  # parameters (names and values) for the executor come from the Gluon net
        out = net(mx.sym.var("data"))
        if work == "lstm":
            out = mx.sym.reshape(out, shape=(-1, V))
        out = mx.sym.SoftmaxOutput(out, mx.sym.var("softmax_label"), name="softmax")
        lshape = (T * N,) if work == "lstm" else (N,)
        reqs = {n: ("null" if n in ("data", "softmax_label") else "write")
                for n in out.list_arguments()}
        exe = out.simple_bind(ctx, grad_req=reqs, data=x.shape, softmax_label=lshape)
        params = net.collect_params()
        arg_params = {n: params[n].data() for n in out.list_arguments() if n in params}
        aux_params = {n: params[n].data() for n in out.list_auxiliary_states()}
        exe.copy_params_from(arg_params, aux_params)
        exe.arg_dict["data"][:] = x
        exe.arg_dict["softmax_label"][:] = y.reshape(lshape)
        updater = mx.optimizer.get_updater(mx.optimizer.SGD(
            learning_rate=0.01, momentum=0.9, rescale_grad=1.0 / N))
        pairs = [(i, w, g) for i, (n, w, g) in enumerate(zip(out.list_arguments(), exe.arg_arrays,
                                                             exe.grad_arrays))
                 if g is not None and reqs[n] != "null"]

        def step(exe=exe, pairs=pairs, updater=updater):
            exe.forward(is_train=True)
            exe.backward()
            for i, w, g in pairs:
                updater(i, g, w)
    if interleave:
        steps[path] = step
    else:
        res[path] = best(step, sync, repeat)
if steps:
    res.update(interleaved(steps, sync, repeat))
print(json.dumps(res))
'''


def run(python, impl, work, paths, repeat, threads, env, cwd=None, timeout=1800,
        interleave=False):
    cmd = [python, "-c", _KERNEL, impl, work, ",".join(paths), str(repeat), str(threads),
           "1" if interleave else "0", os.path.dirname(os.path.abspath(__file__))]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False, cwd=cwd,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"[{impl} {work}] timed out", file=sys.stderr)
        return {}
    if out.returncode != 0:
        print(f"[{impl} {work}] failed:\n{out.stderr.strip()[-2000:]}", file=sys.stderr)
        return {}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--ref", default=os.path.join(root, ".ref", "bin", "python"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--paths", default=",".join(MX_PATHS))
    ap.add_argument("--frameworks", default="mxnet-py,mxnet-1.9.1,torch")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--repeat-resnet", type=int, default=3)
    ap.add_argument("--json", help="also write the raw results here")
    ap.add_argument("--interleave", action="store_true",
                    help="run the paths' steps in turn within each process (N rounds) and also "
                         "report medians: the steadiest comparison of imperative, hybrid and "
                         "symbolic on a loaded machine")
    args = ap.parse_args()
    works = [w for w in args.workloads.split(",") if w]
    paths = [p for p in args.paths.split(",") if p]
    fws = [f for f in args.frameworks.split(",") if f]
    nt = str(args.threads)
    threads = dict(OMP_NUM_THREADS=nt, OPENBLAS_NUM_THREADS=nt, MKL_NUM_THREADS=nt)
    env = dict(os.environ, PYTHONPATH=root, **threads)
    ref_env = dict(os.environ, **threads)
    ref_env.pop("PYTHONPATH", None)
    if ref_env.get("MXNET_ENGINE_TYPE") not in (None, "ThreadedEnginePerDevice"):
        ref_env.pop("MXNET_ENGINE_TYPE")
    ref = os.path.abspath(args.ref)
    results = {}
    for w in works:
        rep = args.repeat_resnet if w == "resnet18" else args.repeat
        r = {}
        if "mxnet-py" in fws:
            r["mxnet-py"] = run(sys.executable, "mxnet", w, paths, rep, args.threads, env,
                                cwd=root, interleave=args.interleave)
        if "mxnet-1.9.1" in fws and os.path.exists(ref):
            r["mxnet-1.9.1"] = run(ref, "mxnet", w, paths, rep, args.threads, ref_env, cwd="/tmp",
                                   interleave=args.interleave)
        if "torch" in fws:
            r["torch"] = run(sys.executable, "torch", w, paths, rep, args.threads, env, cwd=root)
        results[w] = r
        print(f"[{w} done]", file=sys.stderr, flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)

    print(f"one training step (fwd + bwd + SGD momentum), float32, {nt} thread(s); "
          "ms = best wall time, cpu = least process CPU time of a step (ms)")
    hdr = (f"{'workload':9s}{'path':11s}{'py ms':>8s}{'cpu':>8s}{'smp/s':>7s}"
           f"{'1.9.1 ms':>9s}{'cpu':>8s}{'smp/s':>7s}{'torch ms':>9s}{'cpu':>8s}{'smp/s':>7s}"
           f"{'py/1.9.1':>9s}{'(cpu)':>6s}{'py/torch':>9s}{'(cpu)':>6s}")
    print(hdr)
    print("-" * len(hdr))

    def fmt(v, w, spec=".1f"):
        return f"{v:{w}{spec}}" if v is not None else f"{'-':>{w}s}"

    def ratio(a, b, w):
        return fmt(a / b if a and b else None, w, ".2f")

    for w in works:
        r = results[w]
        n = BATCH[w]
        tr = (r.get("torch") or {}).get("eager") or {}
        for note in {v.get("skipped") for v in r.values() if v and v.get("skipped")}:
            print(f"{w:9s}skipped: {note}")
        for p in paths:
            ours = (r.get("mxnet-py") or {}).get(p) or {}
            ref_ = (r.get("mxnet-1.9.1") or {}).get(p) or {}
            if not ours and not ref_:
                continue
            o, f, t = ours.get("ms"), ref_.get("ms"), tr.get("ms")
            oc, fc, tc = ours.get("cpu_ms"), ref_.get("cpu_ms"), tr.get("cpu_ms")
            print(f"{w:9s}{p:11s}{fmt(o, 8)}{fmt(oc, 8)}{fmt(o and n * 1e3 / o, 7, '.0f')}"
                  f"{fmt(f, 9)}{fmt(fc, 8)}{fmt(f and n * 1e3 / f, 7, '.0f')}"
                  f"{fmt(t, 9)}{fmt(tc, 8)}{fmt(t and n * 1e3 / t, 7, '.0f')}"
                  f"{ratio(o, f, 9)}{ratio(oc, fc, 6)}{ratio(o, t, 9)}{ratio(oc, tc, 6)}")
    print("(torch: PyTorch eager, the same on every row of a workload; ratios: mxnet-py time / "
          "other time, < 1 means mxnet-py is faster)")
    if args.interleave:
        print("\nmxnet-py, paths interleaved: median ms per step (median CPU ms); "
              "hybrid/imperative and symbolic/imperative ratios of the medians")
        for w in works:
            ours = (results[w].get("mxnet-py") or {})
            meds = {p: ours[p] for p in paths if p in ours and "med_ms" in ours[p]}
            if not meds:
                continue
            cells = "  ".join(f"{p} {v['med_ms']:.1f} ({v['med_cpu_ms']:.1f})"
                              for p, v in meds.items())
            base = meds.get("imperative")
            ratios = ""
            if base:
                ratios = "  " + "  ".join(
                    f"{p}/imp {v['med_ms'] / base['med_ms']:.3f} "
                    f"({v['med_cpu_ms'] / base['med_cpu_ms']:.3f})"
                    for p, v in meds.items() if p != "imperative")
            print(f"{w:9s}{cells}{ratios}")


if __name__ == "__main__":
    main()
