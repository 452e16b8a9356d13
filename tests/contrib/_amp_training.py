"""Runs in a subprocess from test_amp.py: ``amp.init`` rewraps mx.nd / mx.sym for the
whole process, so it must not run inside the test session. Prints one JSON line."""
import json

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.contrib import amp


def skip_on_inf():
    """A step with an inf gradient is skipped and halves the scale; the next one applies."""
    w = gluon.Parameter("w", shape=(2,))
    w.initialize(mx.init.Constant(1.0))
    trainer = gluon.Trainer([w], "sgd", {"learning_rate": 0.5})
    amp.init_trainer(trainer)
    scaler = trainer._amp_loss_scaler
    c = mx.nd.array([0.25, -0.5])
    out = {}
    for step in range(3):
        with autograd.record():
            loss = (w.data() * c).sum()
            with amp.scale_loss(loss, trainer) as scaled:
                out[f"scaled{step}"] = float(scaled.asscalar())
                scaled.backward()
        if step == 0:
            w.grad()[:] = mx.nd.array([np.inf, 1.0])
        out[f"grad{step}"] = w.grad().asnumpy().tolist()
        out[f"rescale{step}"] = trainer._scale
        trainer.step(1)
        out[f"w{step}"] = w.data().asnumpy().tolist()
        out[f"scale{step}"] = [scaler.loss_scale, scaler._next_loss_scale]
    # unscale: gradients divided by the loss scale by hand
    with autograd.record():
        loss = (w.data() * c).sum()
        with amp.scale_loss(loss, trainer) as scaled:
            scaled.backward()
    amp.unscale(trainer)
    out["unscaled_grad"] = w.grad().asnumpy().tolist()
    out["scale_after_unscale"] = trainer._scale
    return out


def train_mlp():
    rng = np.random.RandomState(0)
    x = rng.randn(256, 10).astype("float32")
    y = (x @ rng.randn(10, 3).astype("float32")).argmax(1).astype("float32")
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(32, activation="relu"), gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    amp.init_trainer(trainer)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    X, Y = mx.nd.array(x), mx.nd.array(y)
    first = float(loss_fn(net(X), Y).mean().asscalar())
    skipped = 0
    for _ in range(20):
        for i in range(0, 256, 32):
            with autograd.record():
                out = net(X[i:i + 32])
                loss = loss_fn(out, Y[i:i + 32])
                with amp.scale_loss(loss, trainer) as scaled:
                    autograd.backward(scaled)
            before = trainer._amp_loss_scaler._next_loss_scale
            trainer.step(32)
            skipped += trainer._amp_loss_scaler._next_loss_scale < before
    pred = net(X)
    return {"first": first, "last": float(loss_fn(pred, Y).mean().asscalar()),
            "acc": float((pred.asnumpy().argmax(1) == y).mean()), "skipped": int(skipped),
            "out_dtype": np.dtype(out.dtype).name,
            "param_dtype": np.dtype(net[0].weight.data().dtype).name}


def wrapped_symbol():
    """After init, mx.sym.FullyConnected casts its inputs to float16."""
    s = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    ops = [n["op"] for n in json.loads(s.tojson(remove_amp_cast=False))["nodes"]]
    _, out_types, _ = s.infer_type(data="float32", fc_weight="float32", fc_bias="float32")
    return {"ops": ops, "out_type": np.dtype(out_types[0]).name}


if __name__ == "__main__":
    amp.init()
    amp.init()  # a second call does nothing
    print(json.dumps({"skip": skip_on_inf(), "mlp": train_mlp(), "sym": wrapped_symbol()}))
