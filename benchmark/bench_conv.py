"""Convolution forward + backward throughput on ResNet-18 (CIFAR) 3x3 layers, batch 32.

Times one training step of a Convolution layer under autograd (forward, then backward to
data, weight and bias) and reports its GFLOP/s next to the float32 GEMM peak of
``np.matmul`` on 2048x2048, measured in the same process. Optionally times PyTorch (CPU,
in a child process) and the reference MXNet 1.9.1 (``.ref/bin/python`` run from /tmp) on
the same layers.

    python benchmark/bench_conv.py [--repeat 5] [--no-ref] [--no-torch] [--layers 0,1]

FLOPs count multiply-adds as two: forward ``2*N*F*(C/G)*prod(kernel)*prod(out)``, backward
twice that (data gradient and weight gradient). Every time is the best of ``--repeat``
runs, and the GEMM peak is the best seen during the whole run: on a shared machine this
compares the quiet moments of each.
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

import numpy as np

REPO = Path(__file__).resolve().parents[1]

# (N, C, H, W, F, kernel, stride, pad): every 3x3 layer shape of the residual stages, then
# the 3-channel stem (27-long dot products: far from any GEMM peak, shown for completeness)
LAYERS = [
    (32, 64, 32, 32, 64, 3, 1, 1),
    (32, 64, 32, 32, 128, 3, 2, 1),
    (32, 128, 16, 16, 128, 3, 1, 1),
    (32, 128, 16, 16, 256, 3, 2, 1),
    (32, 256, 8, 8, 256, 3, 1, 1),
    (32, 256, 8, 8, 512, 3, 2, 1),
    (32, 512, 4, 4, 512, 3, 1, 1),
    (32, 3, 32, 32, 64, 3, 1, 1),
]


def layer_flops(layer):
    n, c, h, w, f, k, s, p = layer
    ho, wo = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    fwd = 2.0 * n * f * c * k * k * ho * wo
    return fwd, 2 * fwd


def best_of(fn, repeat):
    fn()
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def gemm_peak(repeat):
    """GFLOP/s of np.matmul on float32 2048x2048 (best of ``repeat``)."""
    rng = np.random.default_rng(0)
    a = rng.random((2048, 2048), dtype=np.float32)
    b = rng.random((2048, 2048), dtype=np.float32)
    t = best_of(lambda: np.matmul(a, b), repeat)
    return 2 * 2048 ** 3 / t / 1e9


def time_mxnet(mx, layer, repeat):
    """(forward s, forward+backward s) of one layer under autograd, with mxnet module ``mx``
    (this repository's or 1.9.1)."""
    n, c, h, w, f, k, s, p = layer
    rng = np.random.default_rng(1)
    x = mx.nd.array(rng.standard_normal((n, c, h, w), dtype=np.float32))
    wt = mx.nd.array(rng.standard_normal((f, c, k, k), dtype=np.float32) * 0.05)
    b = mx.nd.zeros((f,))
    kw = dict(kernel=(k, k), stride=(s, s), pad=(p, p), num_filter=f)
    y = mx.nd.Convolution(x, wt, b, **kw)
    gy = mx.nd.array(rng.standard_normal(y.shape, dtype=np.float32))
    for a in (x, wt, b):
        a.attach_grad()

    def fwd():
        mx.nd.Convolution(x, wt, b, **kw).wait_to_read()

    def fwd_bwd():
        with mx.autograd.record():
            out = mx.nd.Convolution(x, wt, b, **kw)
        out.backward(gy)
        for a in (x, wt, b):
            a.grad.wait_to_read()
    return best_of(fwd, repeat), best_of(fwd_bwd, repeat)


def time_torch(layer, repeat):
    import torch
    n, c, h, w, f, k, s, p = layer
    x = torch.randn(n, c, h, w, requires_grad=True)
    wt = (torch.randn(f, c, k, k) * 0.05).requires_grad_()
    b = torch.zeros(f, requires_grad=True)
    y = torch.nn.functional.conv2d(x, wt, b, stride=s, padding=p)
    gy = torch.randn_like(y)

    def fwd():
        with torch.no_grad():
            torch.nn.functional.conv2d(x, wt, b, stride=s, padding=p)

    def fb():
        out = torch.nn.functional.conv2d(x, wt, b, stride=s, padding=p)
        torch.autograd.grad(out, (x, wt, b), gy)
    return best_of(fwd, repeat), best_of(fb, repeat)


def _torch_main(layers, repeat):
    """Run in a child process: print JSON timings of PyTorch (its OpenMP threads keep spinning
    after each call and would slow down whatever runs next in the same process)."""
    import torch
    torch.set_num_threads(os.cpu_count() or 1)
    print(json.dumps([time_torch(tuple(layer), repeat) for layer in layers]))


def time_torch_subprocess(layers, repeat):
    code = (f"import sys; sys.path.insert(0, {str(REPO / 'benchmark')!r}); import bench_conv; "
            f"bench_conv._torch_main({json.dumps([list(x) for x in layers])}, {repeat})")
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=1800, check=True)
    except (subprocess.SubprocessError, OSError) as e:
        print(f"PyTorch timing skipped: {getattr(e, 'stderr', '') or e}".strip()[-300:],
              file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ref_main(layers, repeat):
    """Run inside the reference interpreter: print JSON timings."""
    os.environ.setdefault("MXNET_ENGINE_TYPE", "NaiveEngine")
    import mxnet as mx
    print(json.dumps([time_mxnet(mx, tuple(layer), repeat) for layer in layers]))


def time_reference(layers, repeat):
    ref = REPO / ".ref" / "bin" / "python"
    if not ref.exists():
        return None
    code = (f"import sys; sys.path.insert(0, {str(REPO / 'benchmark')!r}); import bench_conv; "
            f"bench_conv._ref_main({json.dumps([list(x) for x in layers])}, {repeat})")
    env = dict(os.environ, MXNET_ENGINE_TYPE="NaiveEngine")
    try:
        out = subprocess.run([str(ref), "-c", code], cwd="/tmp", env=env, capture_output=True,
                             text=True, timeout=1800, check=True)
    except (subprocess.SubprocessError, OSError) as e:
        print(f"reference MXNet failed: {e}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-ref", action="store_true", help="skip the reference MXNet 1.9.1")
    ap.add_argument("--no-torch", action="store_true", help="skip PyTorch")
    ap.add_argument("--layers", default=None, help="comma-separated layer indices")
    args = ap.parse_args()
    layers = LAYERS if args.layers is None else [LAYERS[int(i)] for i in args.layers.split(",")]

    sys.path.insert(0, str(REPO))
    import mxnet as mx

    peak = gemm_peak(args.repeat)
    tor = None if args.no_torch else time_torch_subprocess(layers, args.repeat)
    ref = None if args.no_ref else time_reference(layers, args.repeat)

    rows = []
    for i, layer in enumerate(layers):
        ff, bf = layer_flops(layer)
        peak = max(peak, gemm_peak(args.repeat))  # the machine may be shared: keep the best
        tf, tb = time_mxnet(mx, layer, args.repeat)
        tt = None if tor is None else tor[i][1]
        rows.append((layer, ff + bf, tf, tb, tt, None if ref is None else ref[i][1]))
    peak = max(peak, gemm_peak(args.repeat))
    print(f"np.matmul float32 2048x2048 peak: {peak:.1f} GFLOP/s "
          f"(threads: OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'default')})")
    head = f"{'layer (N,C,H,W)->F k s p':34} {'fwd ms':>7} {'f+b ms':>7} {'GFLOP/s':>8} {'% peak':>7}"
    if tor is not None:
        head += f" {'torch GF/s':>10}"
    if ref is not None:
        head += f" {'1.9.1 GF/s':>10}"
    print(head)
    for layer, flops, tf, tb, tt, tr in rows:
        rate = flops / tb / 1e9
        n, c, h, w, f, k, s, p = layer
        name = f"({n},{c},{h},{w})->{f} {k}x{k} s{s} p{p}"
        line = f"{name:34} {tf * 1e3:7.1f} {tb * 1e3:7.1f} {rate:8.1f} {100 * rate / peak:6.0f}%"
        if tt is not None:
            line += f" {flops / tt / 1e9:10.1f}"
        if tr is not None:
            line += f" {flops / tr / 1e9:10.1f}"
        print(line)


if __name__ == "__main__":
    main()
