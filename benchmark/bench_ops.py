"""One table: forward + backward time of every layer op of LeNet and ResNet-18 (CIFAR), batch 32.

Ops: Convolution, Deconvolution, Pooling (max, avg, global), FullyConnected, BatchNorm
(training mode), Activation (tanh, relu), softmax and SoftmaxOutput, float32, on the layer
shapes of LeNet (1x28x28) and ResNet-18 for CIFAR (3x32x32); Deconvolution on the transposes
of ResNet-18's strided convolutions (a decoder's upsampling layers).

Each row is timed in three persistent worker processes: this project's mxnet, the reference
MXNet 1.9.1 (``.ref`` venv, started from /tmp with the NaiveEngine) and PyTorch CPU, all with
``--threads`` BLAS/OpenMP threads (default: every core). Rows are timed round-robin, the
three frameworks one after the other within a row and round, so that load from other jobs
on a shared machine hits all of them alike, with a pause (``--settle``) before each request
so that the worker threads one framework leaves spinning do not slow the next; each request
first makes untimed calls for ``--warm-ms`` milliseconds (the pause leaves every framework's
threads idle, and they need some activity to run at their steady speed again: after a
10-120 ms pause mxnet-py's op threads took ~6 calls, ~25 ms, of the ResNet-18 stem), then
times ``--inner`` calls; every time is the best of ``--rounds`` rounds. A call is one forward
under
``autograd.record`` and one backward to every input (torch: ``autograd.grad``), with a wait
for the results.

For the GEMM ops (Convolution, Deconvolution, FullyConnected) the table adds GFLOP/s (a
multiply-add counts 2; forward + backward is 3 times the forward) and the share of this
machine's float32 GEMM peak, the best ``np.matmul`` of two 2048x2048 matrices measured
between the rows of the same run.

    python benchmark/bench_ops.py [--quick] [--rounds 5] [--inner 2] [--warm-ms 25] [--threads N]
        [--timer wall|cpu] [--rows conv,pool] [--match 'relu|stem pool'] [--no-ref]
        [--no-torch] [--json out.json]

``--quick`` times one row per op kind with 3 rounds (about a minute); the full table takes a
few minutes. Ratios are this project's time over the other's (< 1: this project is faster).
On a machine shared with other jobs, ``--threads 1 --timer cpu`` (process CPU time) gives
the steadier comparison; the GEMM percentages then refer to the one-thread peak.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
N = 32


def _conv(name, c, h, f, k, s=1, p=0, kind="Convolution", adj=0, tag="conv"):
    return dict(name=name, op=kind, tag=tag, data=(N, c, h, h),
                kw=dict(kernel=(k, k), stride=(s, s), pad=(p, p), num_filter=f,
                        **({"adj": (adj, adj), "no_bias": False} if kind == "Deconvolution"
                           else {})))


def _pool(name, shape, pool_type, k=None, s=1, p=0):
    kw = dict(pool_type=pool_type)
    kw.update(dict(global_pool=True, kernel=(1, 1)) if k is None else
              dict(kernel=(k, k), stride=(s, s), pad=(p, p)))
    return dict(name=name, op="Pooling", tag="pool", data=shape, kw=kw)


ROWS = [
    # LeNet, 1x28x28
    _conv("lenet conv1 1->20 5x5", 1, 28, 20, 5),
    dict(name="lenet tanh (32,20,24,24)", op="Activation", tag="act", data=(N, 20, 24, 24),
         kw=dict(act_type="tanh")),
    _pool("lenet pool1 max 2x2/2", (N, 20, 24, 24), "max", 2, 2),
    _conv("lenet conv2 20->50 5x5", 20, 12, 50, 5),
    _pool("lenet pool2 max 2x2/2", (N, 50, 8, 8), "max", 2, 2),
    _pool("lenet pool2 avg 2x2/2", (N, 50, 8, 8), "avg", 2, 2),
    dict(name="lenet fc1 800->500", op="FullyConnected", tag="fc", data=(N, 800),
         kw=dict(num_hidden=500)),
    dict(name="lenet fc2 500->10", op="FullyConnected", tag="fc", data=(N, 500),
         kw=dict(num_hidden=10)),
    dict(name="lenet SoftmaxOutput (32,10)", op="SoftmaxOutput", tag="softmax", data=(N, 10),
         kw={}),
    # ResNet-18 for CIFAR, 3x32x32
    _conv("r18 stem 3->64 3x3", 3, 32, 64, 3, 1, 1),
    dict(name="r18 BatchNorm (32,64,32,32)", op="BatchNorm", tag="bn", data=(N, 64, 32, 32),
         kw=dict(fix_gamma=False)),
    dict(name="r18 relu (32,64,32,32)", op="Activation", tag="act", data=(N, 64, 32, 32),
         kw=dict(act_type="relu")),
    _pool("r18 stem pool max 3x3/2 p1", (N, 64, 32, 32), "max", 3, 2, 1),
    _pool("r18 stem pool avg 3x3/2 p1", (N, 64, 32, 32), "avg", 3, 2, 1),
    _conv("r18 s1 64->64 3x3", 64, 32, 64, 3, 1, 1),
    _conv("r18 s2 64->128 3x3/2", 64, 32, 128, 3, 2, 1),
    _conv("r18 s2 128->128 3x3", 128, 16, 128, 3, 1, 1),
    _conv("r18 s2 down 64->128 1x1/2", 64, 32, 128, 1, 2, 0),
    dict(name="r18 BatchNorm (32,128,16,16)", op="BatchNorm", tag="bn", data=(N, 128, 16, 16),
         kw=dict(fix_gamma=False)),
    _conv("r18 s3 128->256 3x3/2", 128, 16, 256, 3, 2, 1),
    _conv("r18 s3 256->256 3x3", 256, 8, 256, 3, 1, 1),
    _conv("r18 s3 down 128->256 1x1/2", 128, 16, 256, 1, 2, 0),
    dict(name="r18 BatchNorm (32,256,8,8)", op="BatchNorm", tag="bn", data=(N, 256, 8, 8),
         kw=dict(fix_gamma=False)),
    _conv("r18 s4 256->512 3x3/2", 256, 8, 512, 3, 2, 1),
    _conv("r18 s4 512->512 3x3", 512, 4, 512, 3, 1, 1),
    _conv("r18 s4 down 256->512 1x1/2", 256, 8, 512, 1, 2, 0),
    dict(name="r18 BatchNorm (32,512,4,4)", op="BatchNorm", tag="bn", data=(N, 512, 4, 4),
         kw=dict(fix_gamma=False)),
    _pool("r18 global avg pool (32,512,4,4)", (N, 512, 4, 4), "avg"),
    dict(name="r18 fc 512->10", op="FullyConnected", tag="fc", data=(N, 512),
         kw=dict(num_hidden=10)),
    dict(name="r18 softmax (32,10)", op="softmax", tag="softmax", data=(N, 10), kw={}),
    dict(name="r18 SoftmaxOutput (32,10)", op="SoftmaxOutput", tag="softmax", data=(N, 10),
         kw={}),
    # Deconvolution: ResNet-18's strided convolutions transposed (decoder upsampling)
    _conv("deconv 128->64 3x3/2 adj1 (16->32)", 128, 16, 64, 3, 2, 1, "Deconvolution", 1,
          "deconv"),
    _conv("deconv 256->128 4x4/2 p1 (8->16)", 256, 8, 128, 4, 2, 1, "Deconvolution", 0,
          "deconv"),
    _conv("deconv 512->256 2x2/2 (4->8)", 512, 4, 256, 2, 2, 0, "Deconvolution", 0, "deconv"),
]

QUICK = ["lenet conv1 1->20 5x5", "lenet pool1 max 2x2/2", "lenet fc1 800->500",
         "lenet SoftmaxOutput (32,10)", "r18 BatchNorm (32,64,32,32)", "r18 relu (32,64,32,32)",
         "r18 stem pool max 3x3/2 p1", "r18 stem pool avg 3x3/2 p1", "r18 s1 64->64 3x3",
         "r18 s2 64->128 3x3/2", "r18 s4 512->512 3x3", "r18 softmax (32,10)",
         "deconv 128->64 3x3/2 adj1 (16->32)"]


def flops(row):
    """Forward + backward FLOPs of a GEMM op (None for the others)."""
    kw, d = row["kw"], row["data"]
    if row["op"] == "FullyConnected":
        return 3 * 2.0 * d[0] * math.prod(d[1:]) * kw["num_hidden"]
    if row["op"] not in ("Convolution", "Deconvolution"):
        return None
    k, s, p = kw["kernel"][0], kw["stride"][0], kw["pad"][0]
    n, c, h = d[0], d[1], d[2]
    f = kw["num_filter"]
    if row["op"] == "Convolution":
        o = (h + 2 * p - k) // s + 1
        return 3 * 2.0 * n * f * c * k * k * o * o
    return 3 * 2.0 * n * c * f * k * k * h * h  # every input pixel meets every tap once


# ---------------------------------------------------------------------------------------------
# workers: one per framework, timing rows on request (JSON lines over stdin/stdout)


def _mxnet_step(mx, row, rng):
    import numpy as np
    nd = mx.nd
    d = row["data"]
    kw = {k: tuple(v) if isinstance(v, list) else v for k, v in row["kw"].items()}
    x = nd.array(rng.standard_normal(d).astype(np.float32))
    args = [x]
    op = row["op"]
    if op in ("Convolution", "Deconvolution"):
        k = kw["kernel"]
        c, f = d[1], kw["num_filter"]
        wshape = (f, c) + k if op == "Convolution" else (c, f) + k
        args += [nd.array(rng.standard_normal(wshape).astype(np.float32) * 0.05),
                 nd.zeros((f,))]
        fn = getattr(nd, op)
    elif op == "FullyConnected":
        args += [nd.array(rng.standard_normal((kw["num_hidden"], d[1])).astype(np.float32)
                          * 0.05), nd.zeros((kw["num_hidden"],))]
        fn = nd.FullyConnected
    elif op == "BatchNorm":
        c = d[1]
        args += [nd.ones((c,)), nd.zeros((c,))]
        aux = [nd.zeros((c,)), nd.ones((c,))]
        fn = lambda *a, **k: nd.BatchNorm(*a, *aux, **k)  # noqa: E731
    elif op == "SoftmaxOutput":
        label = nd.array(rng.integers(0, d[1], d[0]).astype(np.float32))
        fn = lambda a, **k: nd.SoftmaxOutput(a, label, **k)  # noqa: E731
    else:
        fn = getattr(nd, op)
    for a in args:
        a.attach_grad()
    y = fn(*args, **kw)
    head = nd.ones(y.shape)

    def step():
        with mx.autograd.record():
            out = fn(*args, **kw)
        if op == "SoftmaxOutput":
            out.backward()
        else:
            out.backward(head)
        for a in args:
            a.grad.wait_to_read()
    return step


def _torch_step(torch, row, rng):
    import numpy as np
    F = torch.nn.functional
    d = row["data"]
    kw = row["kw"]
    op = row["op"]
    x = torch.from_numpy(rng.standard_normal(d).astype(np.float32)).requires_grad_()
    args = [x]
    if op in ("Convolution", "Deconvolution"):
        k, s, p = kw["kernel"], kw["stride"], kw["pad"]
        c, f = d[1], kw["num_filter"]
        wshape = (f, c) + tuple(k) if op == "Convolution" else (c, f) + tuple(k)
        w = torch.from_numpy(rng.standard_normal(wshape).astype(np.float32) * 0.05)
        args += [w.requires_grad_(), torch.zeros(f, requires_grad=True)]
        if op == "Convolution":
            fn = lambda a, w, b: F.conv2d(a, w, b, stride=s, padding=p)  # noqa: E731
        else:
            adj = kw.get("adj", (0, 0))
            fn = lambda a, w, b: F.conv_transpose2d(a, w, b, stride=s, padding=p,  # noqa: E731
                                                    output_padding=adj)
    elif op == "FullyConnected":
        w = torch.from_numpy(rng.standard_normal((kw["num_hidden"], d[1])).astype(np.float32))
        args += [w.requires_grad_(), torch.zeros(kw["num_hidden"], requires_grad=True)]
        fn = F.linear
    elif op == "BatchNorm":
        c = d[1]
        args += [torch.ones(c, requires_grad=True), torch.zeros(c, requires_grad=True)]
        rm, rv = torch.zeros(c), torch.ones(c)
        fn = lambda a, g, b: F.batch_norm(a, rm, rv, g, b, training=True, momentum=0.1,  # noqa
                                          eps=1e-3)
    elif op == "Activation":
        fn = torch.tanh if kw["act_type"] == "tanh" else F.relu
    elif op == "Pooling":
        if kw.get("global_pool"):
            fn = (lambda a: F.adaptive_max_pool2d(a, 1)) if kw["pool_type"] == "max" else (
                lambda a: F.adaptive_avg_pool2d(a, 1))
        else:
            k, s, p = kw["kernel"], kw["stride"], kw["pad"]
            fn = (lambda a: F.max_pool2d(a, k, s, p)) if kw["pool_type"] == "max" else (
                lambda a: F.avg_pool2d(a, k, s, p))
    elif op == "softmax":
        fn = lambda a: F.softmax(a, dim=-1)  # noqa: E731
    else:  # SoftmaxOutput: softmax forward, (softmax - onehot) backward
        label = torch.from_numpy(rng.integers(0, d[1], d[0]))
        fn = lambda a: F.cross_entropy(a, label, reduction="sum")  # noqa: E731
    y = fn(*args)
    head = torch.ones_like(y)

    def step():
        out = fn(*args)
        torch.autograd.grad(out, args, head)
    return step


def _worker(kind, threads, timer):
    """Serve timing requests: {"row": i, "inner": n, "warm": s} -> {"ms": best of n calls
    made after s seconds of untimed ones}."""
    if kind != "torch":
        # before numpy, as a script that starts with ``import mxnet`` does
        import mxnet as mx
        make = lambda row, rng: _mxnet_step(mx, row, rng)  # noqa: E731
    import numpy as np
    clock = time.process_time if timer == "cpu" else time.perf_counter
    if kind == "torch":
        import torch
        torch.set_num_threads(threads)
        make = lambda row, rng: _torch_step(torch, row, rng)  # noqa: E731
    steps = {}
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        i = req["row"]
        try:
            if i not in steps:
                steps[i] = make(ROWS[i], np.random.default_rng(i))
                steps[i]()  # warm-up
            until = time.perf_counter() + req.get("warm", 0)
            while time.perf_counter() < until:
                steps[i]()
            best = math.inf
            for _ in range(req["inner"]):
                t = clock()
                steps[i]()
                best = min(best, clock() - t)
            print(json.dumps({"ms": best * 1e3}), flush=True)
        except Exception as e:  # noqa: BLE001 (reported in the table, not fatal)
            print(json.dumps({"error": f"{type(e).__name__}: {e}"[:200]}), flush=True)


class _Worker:
    def __init__(self, name, cmd, env, cwd):
        self.name = name
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
        first = self.proc.stdout.readline()
        if not first:
            err = self.proc.stderr.read().strip().splitlines()[-1:]
            raise RuntimeError(f"{name} worker did not start: {err}")

    def time(self, row, inner, warm=0.0):
        self.proc.stdin.write(json.dumps({"row": row, "inner": inner, "warm": warm}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name} worker died")
        return json.loads(line)

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def _start_workers(args, threads, base_env):
    me = str(Path(__file__).resolve())
    tenv = {k: str(threads) for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                      "OPENBLAS_NUM_THREADS")}
    workers = {}
    specs = [("mxnet-py", [sys.executable, me, "--worker", "mxnet"],
              dict(base_env, PYTHONPATH=str(REPO), **tenv), str(REPO))]
    ref = REPO / ".ref" / "bin" / "python"
    if not args.no_ref and ref.exists():
        env = dict(base_env, MXNET_ENGINE_TYPE="NaiveEngine", **tenv)
        env.pop("PYTHONPATH", None)
        specs.append(("mxnet-1.9.1", [str(ref), me, "--worker", "mxnet"], env, "/tmp"))
    if not args.no_torch:
        specs.append(("torch", [sys.executable, me, "--worker", "torch"],
                      dict(base_env, **tenv), "/tmp"))
    for name, cmd, env, cwd in specs:
        cmd = cmd + ["--threads", str(threads), "--timer", args.timer]
        try:
            workers[name] = _Worker(name, cmd, env, cwd)
        except (RuntimeError, OSError) as e:
            print(f"[{name} skipped: {e}]", file=sys.stderr)
    return workers


def gemm_peak(repeat=3, clock=time.perf_counter):
    """GFLOP/s of np.matmul on float32 2048x2048 (best of ``repeat``)."""
    import numpy as np
    rng = np.random.default_rng(0)
    a = rng.random((2048, 2048), dtype=np.float32)
    b = rng.random((2048, 2048), dtype=np.float32)
    out = np.empty_like(a)
    best = math.inf
    for _ in range(repeat + 1):
        t = clock()
        np.matmul(a, b, out=out)
        best = min(best, clock() - t)
    return 2 * 2048 ** 3 / best / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one row per op kind, 3 rounds")
    ap.add_argument("--rounds", type=int, default=None, help="rounds per row (default 5)")
    ap.add_argument("--inner", type=int, default=2, help="calls per round")
    ap.add_argument("--warm-ms", type=float, default=25.0,
                    help="untimed calls for this long before each round's timed ones")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--rows", default=None,
                    help="comma-separated tags (conv,deconv,pool,fc,bn,act,softmax) or names")
    ap.add_argument("--match", default=None,
                    help="'|'-separated substrings: only rows whose name contains one")
    ap.add_argument("--no-ref", action="store_true", help="skip MXNet 1.9.1")
    ap.add_argument("--no-torch", action="store_true", help="skip PyTorch")
    ap.add_argument("--timer", choices=("wall", "cpu"), default="wall",
                    help="wall clock, or process CPU time (steadier on a shared machine; "
                         "use it with --threads 1)")
    ap.add_argument("--settle", type=float, default=0.12,
                    help="seconds to pause before each timing request, so that the threads "
                         "the previous framework (or the GEMM peak) left spinning go idle "
                         "(OpenBLAS spins ~0.1 s after a GEMM by default)")
    ap.add_argument("--json", default=None, help="also write the results here")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return _worker(args.worker, args.threads, args.timer)
    clock = time.process_time if args.timer == "cpu" else time.perf_counter
    rounds = args.rounds or (3 if args.quick else 5)
    rows = list(range(len(ROWS)))
    if args.quick:
        rows = [i for i in rows if ROWS[i]["name"] in QUICK]
    if args.rows:
        want = set(args.rows.split(","))
        rows = [i for i in rows if ROWS[i]["tag"] in want or ROWS[i]["name"] in want]
    if args.match:
        subs = args.match.split("|")
        rows = [i for i in rows if any(t in ROWS[i]["name"] for t in subs)]
    base_env = dict(os.environ)   # the workers' environment: each framework's own defaults
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[k] = str(args.threads)  # this process's GEMM peak (NumPy not loaded yet)
    # the GEMM peak measured here between rows must not leave OpenBLAS threads spinning
    # (~0.1 s by default) while a worker is timed
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "16")
    workers = _start_workers(args, args.threads, base_env)
    names = list(workers)
    best = {(i, w): math.inf for i in rows for w in names}
    errors = {}
    peak = gemm_peak(clock=clock)
    started = time.time()
    try:
        for _ in range(rounds):
            for i in rows:
                for w in names:
                    if (i, w) in errors:
                        continue
                    if args.settle > 0:
                        time.sleep(args.settle)
                    res = workers[w].time(i, args.inner, args.warm_ms / 1e3)
                    if "error" in res:
                        errors[(i, w)] = res["error"]
                    else:
                        best[(i, w)] = min(best[(i, w)], res["ms"])
                if flops(ROWS[i]):
                    peak = max(peak, gemm_peak(1, clock))
    finally:
        for w in workers.values():
            w.close()
    _print_table(rows, names, best, errors, peak, args, rounds, time.time() - started)
    if args.json:
        out = {"peak_gflops": peak, "threads": args.threads, "timer": args.timer, "rows": [
            dict(name=ROWS[i]["name"], op=ROWS[i]["op"], flops=flops(ROWS[i]),
                 **{w: (None if math.isinf(best[(i, w)]) else best[(i, w)]) for w in names})
            for i in rows]}
        Path(args.json).write_text(json.dumps(out, indent=1))


def _print_table(rows, names, best, errors, peak, args, rounds, seconds):
    what = "CPU ms" if args.timer == "cpu" else "ms"
    print(f"Forward + backward, float32, batch {N}, {args.threads} thread(s); {what} per call, "
          f"best of {rounds} rounds x {args.inner} after {args.warm_ms:g} ms warm; "
          f"float32 GEMM peak (np.matmul 2048^2): {peak:.1f} GFLOP/s")
    others = [w for w in names if w != "mxnet-py"]
    head = f"{'row':36s}" + "".join(f"{w:>12s}" for w in names)
    head += "".join(f"{'/' + w:>13s}" for w in others) + f"{'GFLOP/s':>9s}{'% peak':>8s}"
    print(head)

    def ms(i, w):
        v = best[(i, w)]
        return None if math.isinf(v) else v

    worst = {}
    for i in rows:
        row = ROWS[i]
        line = f"{row['name'][:36]:36s}"
        for w in names:
            v = ms(i, w)
            line += f"{v:12.3f}" if v is not None else f"{'err' if (i, w) in errors else '-':>12s}"
        ours = ms(i, "mxnet-py") if "mxnet-py" in names else None
        for w in others:
            v = ms(i, w)
            r = ours / v if ours and v else None
            line += f"{r:13.2f}" if r else f"{'-':>13s}"
            if r and (w not in worst or r > worst[w][0]):
                worst[w] = (r, row["name"])
        fl = flops(row)
        if fl and ours:
            rate = fl / (ours * 1e-3) / 1e9
            line += f"{rate:9.1f}{100 * rate / peak:7.0f}%"
        print(line)
    for (i, w), e in errors.items():
        print(f"  [{w} failed on {ROWS[i]['name']}: {e}]")
    for w, (r, name) in worst.items():
        print(f"largest ratio mxnet-py / {w}: {r:.2f} ({name})")
    print(f"({len(rows)} rows in {seconds:.0f} s; ratios: mxnet-py time / other time, < 1 means "
          f"mxnet-py is faster)")


if __name__ == "__main__":
    main()
