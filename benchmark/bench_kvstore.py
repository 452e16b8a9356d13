"""KVStore push + pull throughput over 1, 2 and 4 CPU devices.

One round pushes one float32 array per device to key 0 (the store sums them) and
pulls the sum back into one array per device, then waits for the pulls. Throughput is
the array's size divided by the time of one round (MB/s of gradient all-reduced), the
best of ``--repeat`` measurements of ``--rounds`` rounds each. Rows:

- ``mxnet-py <kind>``: this repository's store (``device`` by default);
- ``numpy sum+copy``: the same data movement written directly in NumPy, one thread
  (sum the arrays into a buffer, copy the buffer into each output);
- ``mxnet 1.9.1 <kind>``: the reference store, in a child process
  (``.ref/bin/python`` run from /tmp), when it is installed.

    python benchmark/bench_kvstore.py [--sizes 4,64] [--devs 1,2,4] [--kinds device]
                                      [--ref-kinds local] [--repeat 3] [--rounds 5] [--no-ref]
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
REF_PYTHON = REPO / ".ref" / "bin" / "python"

# Run by the reference interpreter; prints one JSON line {"size,ndev": seconds per round}.
REF_SCRIPT = r"""
import json, math, sys, time
import mxnet as mx
kind, sizes, devs, repeat, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
res = {}
for mb in [int(s) for s in sizes.split(",")]:
    n = mb * (1 << 20) // 4
    for ndev in [int(d) for d in devs.split(",")]:
        kv = mx.kv.create(kind)
        kv.init(0, mx.nd.zeros((n,)))
        grads = [mx.nd.ones((n,), ctx=mx.cpu(i)) for i in range(ndev)]
        outs = [mx.nd.zeros((n,), ctx=mx.cpu(i)) for i in range(ndev)]
        def one():
            kv.push(0, grads)
            kv.pull(0, out=outs)
            for o in outs:
                o.wait_to_read()
        one()
        best = math.inf
        for _ in range(repeat):
            t = time.perf_counter()
            for _ in range(rounds):
                one()
            best = min(best, (time.perf_counter() - t) / rounds)
        assert outs[-1][:1].asscalar() == ndev
        res[f"{mb},{ndev}"] = best
print(json.dumps(res))
"""


def best_round(fn, repeat, rounds):
    fn()
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(rounds):
            fn()
        best = min(best, (time.perf_counter() - t) / rounds)
    return best


def bench_ours(kind, mb, ndev, repeat, rounds):
    sys.path.insert(0, str(REPO))
    import mxnet as mx
    import mxnet.kvstore as kv

    n = mb * (1 << 20) // 4
    store = kv.create(kind)
    store.init(0, mx.nd.zeros((n,)))
    grads = [mx.nd.ones((n,), ctx=mx.cpu(i)) for i in range(ndev)]
    outs = [mx.nd.zeros((n,), ctx=mx.cpu(i)) for i in range(ndev)]

    def one():
        store.push(0, grads)
        store.pull(0, out=outs)
        for o in outs:
            o.wait_to_read()

    t = best_round(one, repeat, rounds)
    assert outs[-1].asnumpy()[0] == ndev
    return t


def bench_numpy(mb, ndev, repeat, rounds):
    n = mb * (1 << 20) // 4
    grads = [np.ones(n, np.float32) for _ in range(ndev)]
    outs = [np.zeros(n, np.float32) for _ in range(ndev)]
    buf = np.zeros(n, np.float32)

    def one():
        if ndev == 1:
            np.copyto(buf, grads[0])
        else:
            np.add(grads[0], grads[1], out=buf)
            for g in grads[2:]:
                np.add(buf, g, out=buf)
        for o in outs:
            np.copyto(o, buf)

    return best_round(one, repeat, rounds)


def bench_ref(kind, sizes, devs, repeat, rounds):
    if not REF_PYTHON.exists():
        return None
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    try:
        proc = subprocess.run([str(REF_PYTHON), "-c", REF_SCRIPT, kind, sizes, devs,
                               str(repeat), str(rounds)],
                              cwd="/tmp", env=env, capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"# reference run failed: {e}", file=sys.stderr)
        return None
    if proc.returncode != 0:
        print(f"# reference run failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="4,64", help="array sizes in MB (float32)")
    ap.add_argument("--devs", default="1,2,4", help="numbers of CPU devices")
    ap.add_argument("--kinds", default="device", help="mxnet-py store types to time")
    ap.add_argument("--ref-kinds", default="local", help="1.9.1 store types to time")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-ref", action="store_true", help="skip MXNet 1.9.1")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    devs = [int(d) for d in args.devs.split(",")]

    rows = {}
    for kind in args.kinds.split(","):
        rows[f"mxnet-py {kind}"] = {(mb, nd): bench_ours(kind, mb, nd, args.repeat, args.rounds)
                                    for mb in sizes for nd in devs}
    rows["numpy sum+copy"] = {(mb, nd): bench_numpy(mb, nd, args.repeat, args.rounds)
                              for mb in sizes for nd in devs}
    if not args.no_ref:
        for kind in args.ref_kinds.split(","):
            res = bench_ref(kind, args.sizes, args.devs, args.repeat, args.rounds)
            if res is not None:
                rows[f"mxnet 1.9.1 {kind}"] = {tuple(int(x) for x in k.split(",")): v
                                               for k, v in res.items()}

    from mxnet import engine
    print(f"# push+pull of one key, MB/s (array MB / seconds per round); "
          f"engine {engine.get_engine().name}, best of {args.repeat}x{args.rounds} rounds")
    cols = [(mb, nd) for mb in sizes for nd in devs]
    header = f"{'':24s}" + "".join(f"{f'{mb}MB x{nd}':>12s}" for mb, nd in cols)
    print(header)
    for name, res in rows.items():
        cells = "".join(f"{mb / res[(mb, nd)]:12.0f}" for mb, nd in cols)
        print(f"{name:24s}{cells}")


if __name__ == "__main__":
    main()
