"""Forward and forward+backward time of the fused RNN op: a 2-layer LSTM, batch 20, 35 steps,
200 hidden units, 200 input features, float32 (the PTB "small" language-model layer).

Runs under this project's mxnet, the reference MXNet 1.9.1 (``.ref`` venv, in a subprocess
from /tmp so that ``import mxnet`` finds the real one) and PyTorch CPU (when installed),
each on one thread, and prints milliseconds per iteration (best of several) and ratios.

    python benchmark/bench_rnn.py [--ref .ref/bin/python] [--iters 10] [--mode lstm]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_KERNEL = r'''
import json, sys, time
impl, iters, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
import numpy as np
T, N, I, H, L = 35, 20, 200, 200, 2
G = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}[mode]
rs = np.random.RandomState(0)
x_np = rs.uniform(-1, 1, (T, N, I)).astype(np.float32)
res = {}

def best(fn, n):
    fn()
    b = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        fn()
        b = min(b, time.perf_counter() - t)
    return b * 1e3

if impl == "torch":
    import torch
    torch.set_num_threads(1)
    cls = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU, "rnn_tanh": torch.nn.RNN,
           "rnn_relu": lambda *a, **k: torch.nn.RNN(*a, nonlinearity="relu", **k)}[mode]
    net = cls(I, H, L)
    x = torch.from_numpy(x_np).requires_grad_()
    def fwd():
        with torch.no_grad():
            net(x)
    def train():
        y, _ = net(x)
        y.sum().backward()
    res["forward"] = best(fwd, iters)
    res["forward+backward"] = best(train, iters)
else:
    import mxnet as mx
    nd = mx.nd
    size = sum(G * H * ((I if l == 0 else H) + H + 2) for l in range(L))
    x = nd.array(x_np)
    params = nd.array(rs.uniform(-0.1, 0.1, (size,)).astype(np.float32))
    states = [nd.zeros((L, N, H)) for _ in range(2 if mode == "lstm" else 1)]
    kw = dict(state_size=H, num_layers=L, mode=mode, state_outputs=True)
    def fwd():
        nd.RNN(x, params, *states, **kw)[0].wait_to_read()
    x.attach_grad(); params.attach_grad()
    def train():
        with mx.autograd.record():
            y = nd.RNN(x, params, *states, **kw)[0]
        y.backward()
        params.grad.wait_to_read(); x.grad.wait_to_read()
    res["forward"] = best(fwd, iters)
    res["forward+backward"] = best(train, iters)
print(json.dumps(res))
'''


def run(python, impl, args, env, cwd=None):
    out = subprocess.run([python, "-c", _KERNEL, impl, str(args.iters), args.mode],
                         capture_output=True, text=True, env=env, check=False, cwd=cwd)
    if out.returncode != 0:
        print(f"[{impl}] failed: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ref", default=os.path.join(os.path.dirname(__file__), "..", ".ref", "bin",
                                                  "python"))
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--mode", default="lstm", choices=("lstm", "gru", "rnn_tanh", "rnn_relu"))
    args = ap.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    one = dict(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env = dict(os.environ, PYTHONPATH=root, **one)
    results = {"mxnet-py": run(sys.executable, "mxnet", args, env)}
    ref = os.path.abspath(args.ref)
    if os.path.exists(ref):
        ref_env = dict(os.environ, MXNET_ENGINE_TYPE="NaiveEngine", **one)
        ref_env.pop("PYTHONPATH", None)
        results["mxnet-1.9.1"] = run(ref, "mxnet", args, ref_env, cwd="/tmp")
    results["torch"] = run(sys.executable, "torch", args, env)
    cols = [k for k, v in results.items() if v]
    print(f"2-layer {args.mode}, T=35 N=20 I=H=200 float32, 1 thread, ms/iter")
    print(f"{'':20s}" + "".join(f"{c:>14s}" for c in cols) + f"{'vs 1.9.1':>10s}{'vs torch':>10s}")
    for row in ("forward", "forward+backward"):
        line = f"{row:20s}" + "".join(f"{results[c][row]:14.2f}" for c in cols)
        ours = (results.get("mxnet-py") or {}).get(row)
        for other in ("mxnet-1.9.1", "torch"):
            ov = (results.get(other) or {}).get(row)
            line += f"{ours / ov:10.2f}" if ours and ov else f"{'-':>10s}"
        print(line)
    print("(ratios: mxnet-py time / other time; < 1 means mxnet-py is faster)")


if __name__ == "__main__":
    main()
