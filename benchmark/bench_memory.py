"""Memory the graph executor would allocate for four ImageNet networks, planned from shapes only.

AlexNet, VGG-16 and ResNet-50 v1 at 224x224 and Inception-v3 at 299x299, batch 64, float32,
each with a SoftmaxOutput head, written below with ``mx.sym`` after the layer lists of
1.9.1's Gluon model zoo. For inference (``grad_req='null'``) and training
(``grad_req='write'``) the table gives ``Total N MB allocated`` (the number 1.9.1's
``Executor.debug_str()`` ends with) under the four plans (no reuse, in-place only,
co-sharing only, both) and the lower bound (the peak of live bytes over the schedule),
beside the figures 1.9.1 reports for the same networks. Nothing big is allocated: only
shapes are inferred and planned.

    python benchmark/bench_memory.py [--batch 64] [--nets alexnet,vgg16,...] [--markdown]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import mxnet as mx  # noqa: E402
from mxnet.executor.plan import MODES, memory_report  # noqa: E402

# 1.9.1 (CPU build, default subgraph backend), batch 64: MB with both strategies / with none
REFERENCE = {
    "alexnet": {"inference": (72, 165), "training": (216, 329)},
    "vgg16": {"inference": (1820, 4058), "training": (4855, 8115)},
    "resnet50_v1": {"inference": (600, 5268), "training": (5544, 10561)},
    "inception_v3": {"inference": (861, 5866), "training": (6352, 13503)},
}

S = mx.sym


# -- layers as Gluon's nn blocks emit them -------------------------------------------------------

class _Names:
    def __init__(self):
        self.n = {}

    def __call__(self, kind):
        i = self.n.get(kind, 0)
        self.n[kind] = i + 1
        return f"{kind}{i}"


def _conv(x, nm, channels, kernel, stride=1, pad=0, bias=True, act=None):
    k = kernel if isinstance(kernel, tuple) else (kernel, kernel)
    s = stride if isinstance(stride, tuple) else (stride, stride)
    p = pad if isinstance(pad, tuple) else (pad, pad)
    x = S.Convolution(x, num_filter=channels, kernel=k, stride=s, pad=p, no_bias=not bias,
                      name=nm("conv"))
    if act:
        x = S.Activation(x, act_type=act, name=nm("relu"))
    return x


def _bn(x, nm, eps=1e-5):
    return S.BatchNorm(x, eps=eps, momentum=0.9, fix_gamma=False, name=nm("batchnorm"))


def _pool(x, nm, kernel, stride, pad=0, kind="max", global_pool=False):
    return S.Pooling(x, kernel=(kernel, kernel), stride=(stride, stride), pad=(pad, pad),
                     pool_type=kind, global_pool=global_pool, name=nm("pool"))


def _dense(x, nm, units, act=None):
    x = S.FullyConnected(x, num_hidden=units, name=nm("dense"))
    if act:
        x = S.Activation(x, act_type=act, name=nm("relu"))
    return x


def _head(x, nm, classes=1000):
    return S.SoftmaxOutput(_dense(x, nm, classes), name="softmax")


# -- the networks ---------------------------------------------------------------------------------

def alexnet():
    nm = _Names()
    x = S.var("data")
    x = _conv(x, nm, 64, 11, 4, 2, act="relu")
    x = _pool(x, nm, 3, 2)
    x = _conv(x, nm, 192, 5, pad=2, act="relu")
    x = _pool(x, nm, 3, 2)
    x = _conv(x, nm, 384, 3, pad=1, act="relu")
    x = _conv(x, nm, 256, 3, pad=1, act="relu")
    x = _conv(x, nm, 256, 3, pad=1, act="relu")
    x = _pool(x, nm, 3, 2)
    x = S.Flatten(x, name=nm("flatten"))
    for _ in range(2):
        x = _dense(x, nm, 4096, act="relu")
        x = S.Dropout(x, p=0.5, name=nm("dropout"))
    return _head(x, nm)


def vgg16():
    nm = _Names()
    x = S.var("data")
    for n, ch in zip([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]):
        for _ in range(n):
            x = _conv(x, nm, ch, 3, pad=1, act="relu")
        x = _pool(x, nm, 2, 2)
    for _ in range(2):
        x = _dense(x, nm, 4096, act="relu")
        x = S.Dropout(x, p=0.5, name=nm("dropout"))
    return _head(x, nm)


def _bottleneck_v1(x, nm, channels, stride, downsample):
    r = x
    y = _conv(x, nm, channels // 4, 1, stride)
    y = S.Activation(_bn(y, nm), act_type="relu", name=nm("relu"))
    y = _conv(y, nm, channels // 4, 3, 1, 1, bias=False)
    y = S.Activation(_bn(y, nm), act_type="relu", name=nm("relu"))
    y = _bn(_conv(y, nm, channels, 1, 1), nm)
    if downsample:
        r = _bn(_conv(x, nm, channels, 1, stride, bias=False), nm)
    return S.Activation(y + r, act_type="relu", name=nm("relu"))


def resnet50_v1():
    nm = _Names()
    x = S.var("data")
    x = _conv(x, nm, 64, 7, 2, 3, bias=False)
    x = S.Activation(_bn(x, nm), act_type="relu", name=nm("relu"))
    x = _pool(x, nm, 3, 2, 1)
    in_ch = 64
    for i, (n, ch) in enumerate(zip([3, 4, 6, 3], [256, 512, 1024, 2048])):
        for j in range(n):
            stride = (1 if i == 0 else 2) if j == 0 else 1
            x = _bottleneck_v1(x, nm, ch, stride, j == 0 and ch != in_ch)
            in_ch = ch
    x = _pool(x, nm, 1, 1, kind="avg", global_pool=True)
    return _head(x, nm)


def _basic_conv(x, nm, channels, kernel, stride=1, pad=0):
    x = _conv(x, nm, channels, kernel, stride, pad, bias=False)
    return S.Activation(_bn(x, nm, eps=1e-3), act_type="relu", name=nm("relu"))


def _branch(x, nm, pool, *convs):
    if pool == "avg":
        x = _pool(x, nm, 3, 1, 1, kind="avg")
    elif pool == "max":
        x = _pool(x, nm, 3, 2)
    for ch, k, s, p in convs:
        x = _basic_conv(x, nm, ch, k, s or 1, p or 0)
    return x


def _concat(xs, nm):
    return S.Concat(*xs, dim=1, name=nm("concat"))


def _inception_a(x, nm, pool_features):
    return _concat([_branch(x, nm, None, (64, 1, None, None)),
                    _branch(x, nm, None, (48, 1, None, None), (64, 5, None, 2)),
                    _branch(x, nm, None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
                    _branch(x, nm, "avg", (pool_features, 1, None, None))], nm)


def _inception_b(x, nm):
    return _concat([_branch(x, nm, None, (384, 3, 2, None)),
                    _branch(x, nm, None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
                    _branch(x, nm, "max")], nm)


def _inception_c(x, nm, c7):
    return _concat([
        _branch(x, nm, None, (192, 1, None, None)),
        _branch(x, nm, None, (c7, 1, None, None), (c7, (1, 7), None, (0, 3)),
                (192, (7, 1), None, (3, 0))),
        _branch(x, nm, None, (c7, 1, None, None), (c7, (7, 1), None, (3, 0)),
                (c7, (1, 7), None, (0, 3)), (c7, (7, 1), None, (3, 0)),
                (192, (1, 7), None, (0, 3))),
        _branch(x, nm, "avg", (192, 1, None, None))], nm)


def _inception_d(x, nm):
    return _concat([
        _branch(x, nm, None, (192, 1, None, None), (320, 3, 2, None)),
        _branch(x, nm, None, (192, 1, None, None), (192, (1, 7), None, (0, 3)),
                (192, (7, 1), None, (3, 0)), (192, 3, 2, None)),
        _branch(x, nm, "max")], nm)


def _inception_e(x, nm):
    b1 = _branch(x, nm, None, (320, 1, None, None))
    t = _branch(x, nm, None, (384, 1, None, None))
    b2 = _concat([_branch(t, nm, None, (384, (1, 3), None, (0, 1))),
                  _branch(t, nm, None, (384, (3, 1), None, (1, 0)))], nm)
    t = _branch(x, nm, None, (448, 1, None, None), (384, 3, None, 1))
    b3 = _concat([_branch(t, nm, None, (384, (1, 3), None, (0, 1))),
                  _branch(t, nm, None, (384, (3, 1), None, (1, 0)))], nm)
    b4 = _branch(x, nm, "avg", (192, 1, None, None))
    return _concat([b1, b2, b3, b4], nm)


def inception_v3():
    nm = _Names()
    x = S.var("data")
    x = _basic_conv(x, nm, 32, 3, 2)
    x = _basic_conv(x, nm, 32, 3)
    x = _basic_conv(x, nm, 64, 3, pad=1)
    x = _pool(x, nm, 3, 2)
    x = _basic_conv(x, nm, 80, 1)
    x = _basic_conv(x, nm, 192, 3)
    x = _pool(x, nm, 3, 2)
    for pf in (32, 64, 64):
        x = _inception_a(x, nm, pf)
    x = _inception_b(x, nm)
    for c7 in (128, 160, 160, 192):
        x = _inception_c(x, nm, c7)
    x = _inception_d(x, nm)
    x = _inception_e(x, nm)
    x = _inception_e(x, nm)
    x = _pool(x, nm, 8, 8, kind="avg")
    x = S.Dropout(x, p=0.5, name=nm("dropout"))
    return _head(x, nm)


NETS = {"alexnet": (alexnet, 224), "vgg16": (vgg16, 224), "resnet50_v1": (resnet50_v1, 224),
        "inception_v3": (inception_v3, 299)}
COLUMNS = [m[0] for m in MODES] + ["lower_bound"]


def measure(name, batch=64):
    """{"inference": {mode: MB}, "training": {mode: MB}} for one network."""
    build, size = NETS[name]
    sym = build()
    shapes = {"data": (batch, 3, size, size)}
    out = {}
    for phase, req in (("inference", "null"), ("training", "write")):
        rep = memory_report(sym, shapes, grad_req=req)
        out[phase] = {k: v >> 20 for k, v in rep.items()}
    return out


def table(results, batch):
    lines = [f"Batch {batch}, float32, MB (``Total N MB allocated``); 1.9.1 columns are its "
             "figures with both strategies / with none.", "",
             "| network | mode | none | in-place | co-share | both | lower bound | "
             "1.9.1 both | 1.9.1 none |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, res in results.items():
        for phase in ("inference", "training"):
            r = res[phase]
            ref = REFERENCE.get(name, {}).get(phase, ("", "")) if batch == 64 else ("", "")
            lines.append(f"| {name} | {phase} | {r['none']} | {r['inplace']} | {r['share']} | "
                         f"{r['both']} | {r['lower_bound']} | {ref[0]} | {ref[1]} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--nets", default=",".join(NETS))
    args = ap.parse_args(argv)
    results = {}
    for name in args.nets.split(","):
        t = time.perf_counter()
        results[name] = measure(name, args.batch)
        print(f"# {name}: planned in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    print(table(results, args.batch))
    worse = [(n, p) for n, r in results.items() for p in ("inference", "training")
             if args.batch == 64 and n in REFERENCE and r[p]["both"] > REFERENCE[n][p][0]]
    if worse:
        print("\nabove 1.9.1 with both strategies: " +
              ", ".join(f"{n} {p}" for n, p in worse))
    return results


if __name__ == "__main__":
    main()
