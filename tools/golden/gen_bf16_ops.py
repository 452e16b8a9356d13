"""Record 1.9.1's bfloat16 operators on the CPU (oneDNN) for tests/test_amp_bf16.py.

Run with the reference interpreter, from outside the repository::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /path/to/repo/.ref/bin/python \
        /path/to/repo/tools/golden/gen_bf16_ops.py

Each case of ``CASES`` calls one ``mx.nd`` operator on bfloat16 inputs (parameters that
1.9.1 keeps in float32, such as BatchNorm's gamma/beta/moving statistics, stay float32),
forward and, when asked, backward with a bfloat16 head gradient. Inputs are random float32
values rounded to bfloat16 by 1.9.1's ``amp_cast``; every bfloat16 array is stored widened to
float32 (exact), so the test can compare bit for bit. The last entry runs the AMP training
script of docs/contrib.md (``amp.init(target_dtype='bfloat16')``, a hybridized two-layer MLP,
one SGD step with dynamic loss scaling).

Output: ``tests/golden/bf16_ops.npz`` with ``<case>/in/<name>``, ``<case>/out``,
``<case>/grad/<name>``, ``amp/...`` and the case table as JSON in ``__cases__``.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "golden" / "bf16_ops.npz"

# name, operator, attrs, inputs [(name, shape, 'bf16' | 'f32')], training mode, backward
CASES = [
    ("fc_bias", "FullyConnected", {"num_hidden": 6},
     [("data", (5, 7), "bf16"), ("weight", (6, 7), "bf16"), ("bias", (6,), "bf16")], True, True),
    ("fc_nobias", "FullyConnected", {"num_hidden": 5, "no_bias": True},
     [("data", (4, 9), "bf16"), ("weight", (5, 9), "bf16")], True, True),
    ("fc_flatten", "FullyConnected", {"num_hidden": 3},
     [("data", (3, 2, 4), "bf16"), ("weight", (3, 8), "bf16"), ("bias", (3,), "bf16")],
     True, True),
    ("fc_noflatten", "FullyConnected", {"num_hidden": 3, "flatten": False},
     [("data", (3, 2, 4), "bf16"), ("weight", (3, 4), "bf16"), ("bias", (3,), "bf16")],
     True, True),
    ("fc_long", "FullyConnected", {"num_hidden": 8},
     [("data", (6, 200), "bf16"), ("weight", (8, 200), "bf16"), ("bias", (8,), "bf16")],
     True, True),
    ("conv_s2p1", "Convolution",
     {"kernel": (3, 3), "num_filter": 4, "stride": (2, 2), "pad": (1, 1)},
     [("data", (2, 3, 7, 7), "bf16"), ("weight", (4, 3, 3, 3), "bf16"), ("bias", (4,), "bf16")],
     True, True),
    ("conv_nobias", "Convolution", {"kernel": (2, 3), "num_filter": 3, "no_bias": True},
     [("data", (2, 2, 5, 6), "bf16"), ("weight", (3, 2, 2, 3), "bf16")], True, True),
    ("relu", "relu", {}, [("data", (3, 4, 5), "bf16")], True, True),
    ("act_relu", "Activation", {"act_type": "relu"}, [("data", (2, 3, 4, 4), "bf16")],
     True, True),
    ("pool_max", "Pooling", {"kernel": (2, 2), "stride": (2, 2), "pool_type": "max"},
     [("data", (2, 3, 6, 6), "bf16")], True, True),
    ("pool_avg", "Pooling",
     {"kernel": (3, 3), "stride": (1, 1), "pad": (1, 1), "pool_type": "avg"},
     [("data", (2, 3, 5, 5), "bf16")], True, True),
    ("pool_avg_global", "Pooling", {"kernel": (1, 1), "pool_type": "avg", "global_pool": True},
     [("data", (2, 3, 5, 5), "bf16")], True, True),
    ("bn_infer", "BatchNorm", {"fix_gamma": False},
     [("data", (2, 3, 4, 4), "bf16"), ("gamma", (3,), "f32"), ("beta", (3,), "f32"),
      ("moving_mean", (3,), "f32"), ("moving_var", (3,), "var")], False, False),
    ("bn_train", "BatchNorm", {"fix_gamma": False},
     [("data", (2, 3, 4, 4), "bf16"), ("gamma", (3,), "f32"), ("beta", (3,), "f32"),
      ("moving_mean", (3,), "f32"), ("moving_var", (3,), "var")], True, True),
    ("elemwise_add", "elemwise_add", {},
     [("lhs", (3, 5), "bf16"), ("rhs", (3, 5), "bf16")], True, True),
    ("concat", "Concat", {"dim": 1},
     [("a", (2, 3, 2), "bf16"), ("b", (2, 1, 2), "bf16")], True, True),
    # mshadow (not oneDNN) kernels: float32 results truncated to bfloat16; forward only
    ("tanh", "tanh", {}, [("data", (4, 30), "bf16")], False, False),
    ("square", "square", {}, [("data", (4, 30), "bf16")], False, False),
    ("sqrt_abs", "sqrt", {}, [("data", (4, 30), "absbf16")], False, False),
]
# parameters 1.9.1 keeps in float32 and whose gradient the test checks
F32_GRADS = ("gamma", "beta")


def forward(nd, autograd, op, args, attrs, train):
    """``nd.<op>(*args, **attrs)``, under a training-mode recording when ``train``."""
    f = getattr(nd, op)
    if train:
        with autograd.record(train_mode=True):
            return f(*args, **attrs)
    return f(*args, **attrs)


def build_cnn():
    """The small CNN of the conversion case (the test builds the same one)."""
    from mxnet.gluon import nn
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3, padding=1, in_channels=2), nn.BatchNorm(in_channels=4),
            nn.Activation("relu"), nn.MaxPool2D(2), nn.Conv2D(3, 3, in_channels=4),
            nn.AvgPool2D(1), nn.Flatten(), nn.Dense(5, in_units=12))
    net.initialize()
    return net


def _bf16():
    return np.dtype([("bfloat16", np.uint16)])


def main():
    import mxnet as mx
    from mxnet import autograd, nd

    bf = _bf16()
    rng = np.random.RandomState(1234)
    store = {}

    def to_bf16(a):
        return nd.amp_cast(nd.array(a, dtype="float32"), dtype=bf)

    def widen(a):
        return (nd.amp_cast(a, dtype="float32") if a.dtype == bf else a).asnumpy()

    for name, op, attrs, inputs, train, backward in CASES:
        args = []
        for iname, shape, kind in inputs:
            v = rng.randn(*shape).astype(np.float32)
            if kind == "var":
                v = (np.abs(v) + 0.5).astype(np.float32)
            if kind == "absbf16":
                v, kind = np.abs(v), "bf16"
            a = to_bf16(v) if kind == "bf16" else nd.array(v, dtype="float32")
            store[f"{name}/in/{iname}"] = widen(a)
            if backward and iname not in ("moving_mean", "moving_var"):
                a.attach_grad()
            args.append(a)
        y = forward(nd, autograd, op, args, attrs, train)
        store[f"{name}/out"] = widen(y)
        if backward:
            og = to_bf16(rng.randn(*y.shape).astype(np.float32))
            store[f"{name}/ograd"] = widen(og)
            y.backward(og)
            for (iname, _, kind), a in zip(inputs, args):
                if kind == "bf16" or iname in F32_GRADS:
                    store[f"{name}/grad/{iname}"] = widen(a.grad)
        if op == "BatchNorm" and train:
            store[f"{name}/moving_mean_after"] = args[3].asnumpy()
            store[f"{name}/moving_var_after"] = args[4].asnumpy()
        print(name, "ok", y.dtype)

    # a float32 CNN converted to bfloat16 for inference (Convolution, BatchNorm, relu, max and
    # avg Pooling, Flatten, FullyConnected), with parameters drawn here
    cnn = build_cnn()
    params = list(cnn.collect_params().values())
    for k, prm in enumerate(params):
        v = (rng.randn(*prm.shape) * 0.5).astype(np.float32)
        if prm.name.endswith("var"):
            v = np.abs(v) + 0.5
        prm.set_data(nd.array(v))
        store[f"cnn/param/{k}"] = v
    cnn.hybridize()
    x = nd.array(rng.randn(2, 2, 8, 8).astype(np.float32))
    store["cnn/x"] = x.asnumpy()
    cnn(x)
    from mxnet.contrib import amp
    bcnn = amp.convert_hybrid_block(cnn, target_dtype="bfloat16", ctx=mx.cpu())
    y = bcnn(x)
    store["cnn/out"] = widen(y)
    store["cnn/out_dtype"] = np.array("bfloat16" if y.dtype == bf else str(np.dtype(y.dtype)))

    # the AMP training script of docs/contrib.md
    from mxnet import gluon
    from mxnet.gluon import nn
    amp.init(target_dtype="bfloat16")
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3), nn.Activation("relu"), nn.Dense(2, in_units=4))
    net.initialize(mx.init.Constant(0.1))
    net.hybridize()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    amp.init_trainer(tr)
    x = nd.arange(6).reshape((2, 3))
    with autograd.record():
        out = net(x)
        loss = gluon.loss.L2Loss()(out, nd.zeros((2, 2)))
        with amp.scale_loss(loss, tr) as sl:
            autograd.backward(sl)
    tr.step(2)
    store["amp/out"] = widen(out)
    store["amp/out_is_bf16"] = np.array(out.dtype == bf)
    store["amp/loss"] = loss.asnumpy()
    store["amp/loss_dtype"] = np.array(str(np.dtype(loss.dtype)))
    store["amp/loss_scale"] = np.array(tr._amp_loss_scaler.loss_scale)
    for i in (0, 2):
        for p in ("weight", "bias"):
            prm = getattr(net[i], p)
            store[f"amp/{i}/{p}"] = prm.data().asnumpy()
            store[f"amp/{i}/{p}_grad"] = prm.grad().asnumpy()
            store[f"amp/{i}/{p}_dtype"] = np.array(str(np.dtype(prm.data().dtype)))

    # NDArray arithmetic under AMP: the casts of broadcast_*/_*_scalar apply to it too
    a, f = to_bf16(np.array([1.5, 2.0], np.float32)), nd.array([1.0, 3.0])
    arith = {k: ("bfloat16" if r.dtype == bf else str(np.dtype(r.dtype))) for k, r in [
        ("a*2", a * 2), ("a-f", a - f), ("f-a", f - a), ("a+a", a + a), ("a**2", a ** 2),
        ("2-a", 2 - a), ("a>f", a > f), ("a/a", a / a)]}
    store["amp/arith"] = np.array(json.dumps(arith))

    store["__cases__"] = np.array(json.dumps(CASES))
    np.savez_compressed(OUT, **store)
    print("wrote", OUT, len(store), "arrays")


if __name__ == "__main__":
    main()
