"""Golden outputs of real (model-zoo sized) networks, recorded under MXNet 1.9.1.

Run with the reference interpreter, from outside the repository root so that
``import mxnet`` finds the reference::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_real_models.py

For each model in :data:`MODELS` the reference builds the network (1.9.1's gluon model
zoo, ``classes=10``, or the small Inception-style net below), sets every parameter and
auxiliary state from :func:`param_value` (a NumPy ``RandomState`` seeded by a stable
hash of the parameter's name, so nothing but the graph has to be stored), hybridizes,
runs one inference forward on :func:`model_input` and ``export``-s the graph.

Outputs (under ``tests/golden/real_models/``):

* ``<model>-symbol.json``: the graph written by 1.9.1's ``HybridBlock.export``
  (no ``.params``: the weights are regenerated from :func:`param_value` on both sides);
* ``outputs.npz``: ``<model>`` the inference forward output; ``<model>__train`` the
  training-mode output (BatchNorm on batch statistics), ``<model>__data_grad`` the
  gradient w.r.t. the input for the head gradient :func:`head_grad`; for the models in
  :data:`FULL_GRADS` also ``<model>__grad__<param>`` for every parameter and
  ``<model>__aux__<name>`` for every auxiliary state after that training forward;
* ``meta.json``: per model the input shape, the argument / auxiliary names and the
  output shape (for information and for sanity checks in the test).

``tests/symbol/test_real_models.py`` imports this module (without running :func:`main`)
for :func:`param_value`, :func:`model_input` and :data:`MODELS`; it must therefore import
nothing from mxnet at module level.
"""
from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "tests" / "golden" / "real_models"

# name -> input shape (NCHW)
MODELS = {
    "resnet18_v1": (1, 3, 64, 64),
    "mobilenet1.0": (1, 3, 64, 64),
    "mini_inception": (2, 3, 32, 32),
}


# training-mode input shapes: BatchNorm on batch statistics over a 1x2x2 map (the last
# stage of the zoo nets at 64x64) is ill-conditioned (a one-ulp change of the input moves
# 1.9.1's own outputs by more than the tolerance), so the training checks use 4 samples
TRAIN_MODELS = {
    "resnet18_v1": (4, 3, 64, 64),
    "mobilenet1.0": (4, 3, 64, 64),
    "mini_inception": (2, 3, 32, 32),
}


def _seed(name):
    return zlib.crc32(name.encode("utf-8")) & 0x7FFFFFFF


def param_value(name, shape):
    """Deterministic float32 value of the parameter ``name`` with ``shape``.

    Weights are scaled by ``1/sqrt(fan_in)`` so activations stay of order one through
    deep stacks; BatchNorm statistics are drawn around their usual values.
    """
    rs = np.random.RandomState(_seed(name))
    shape = tuple(int(s) for s in shape)
    if name.endswith("running_var") or name.endswith("moving_var"):
        v = rs.uniform(0.5, 1.5, shape)
    elif name.endswith("running_mean") or name.endswith("moving_mean"):
        v = rs.normal(0.0, 0.1, shape)
    elif name.endswith("gamma"):
        v = rs.uniform(0.8, 1.2, shape)
    elif name.endswith("beta") or name.endswith("bias"):
        v = rs.normal(0.0, 0.05, shape)
    else:  # weights
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        v = rs.normal(0.0, 1.0 / np.sqrt(max(fan_in, 1)), shape)
    return v.astype(np.float32)


# models whose every parameter gradient and updated auxiliary state is recorded
FULL_GRADS = ("mini_inception",)


def head_grad(name, shape):
    rs = np.random.RandomState(_seed("head:" + name))
    return rs.uniform(-1.0, 1.0, tuple(shape)).astype(np.float32)


def model_input(name, train=False):
    shape = (TRAIN_MODELS if train else MODELS)[name]
    rs = np.random.RandomState(_seed(("train_input:" if train else "input:") + name))
    return rs.uniform(-1.0, 1.0, shape).astype(np.float32)


def build_mini_inception(mx):
    """A small Inception-style net: 4-branch blocks (1x1, 1x1-3x3, 1x1-5x5, pool-1x1)
    concatenated on channels, BatchNorm + ReLU after every convolution."""
    from mxnet.gluon import nn

    def conv_bn(cout, k, p=0, s=1):
        out = nn.HybridSequential(prefix="")
        out.add(nn.Conv2D(cout, k, s, p, use_bias=False), nn.BatchNorm(epsilon=0.001),
                nn.Activation("relu"))
        return out

    class Mixed(nn.HybridBlock):
        def __init__(self, c1, c3r, c3, c5r, c5, cp, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.b1 = conv_bn(c1, 1)
                self.b3 = nn.HybridSequential(prefix="")
                self.b3.add(conv_bn(c3r, 1), conv_bn(c3, 3, 1))
                self.b5 = nn.HybridSequential(prefix="")
                self.b5.add(conv_bn(c5r, 1), conv_bn(c5, 5, 2))
                self.bp = nn.HybridSequential(prefix="")
                self.bp.add(nn.AvgPool2D(3, 1, 1), conv_bn(cp, 1))

        def hybrid_forward(self, F, x):
            return F.concat(self.b1(x), self.b3(x), self.b5(x), self.bp(x), dim=1)

    net = nn.HybridSequential(prefix="miniinception_")
    with net.name_scope():
        net.add(conv_bn(16, 3, 1, 2))
        net.add(Mixed(8, 8, 12, 4, 6, 6, prefix="mixed0_"))
        net.add(nn.MaxPool2D(3, 2, 1))
        net.add(Mixed(12, 8, 16, 4, 8, 8, prefix="mixed1_"))
        net.add(nn.GlobalAvgPool2D(), nn.Flatten(), nn.Dense(10))
    return net


def build(mx, name):
    if name == "mini_inception":
        return build_mini_inception(mx)
    from mxnet.gluon.model_zoo import vision
    return vision.get_model(name, classes=10, pretrained=False)


def main():
    import mxnet as mx

    FIXTURES.mkdir(parents=True, exist_ok=True)
    outputs, meta = {}, {}
    for name, shape in MODELS.items():
        net = build(mx, name)
        net.initialize(mx.init.Zero())
        net.hybridize()
        x = mx.nd.array(model_input(name))
        net(x)  # materialise deferred shapes
        for pname, p in net.collect_params().items():
            p.set_data(mx.nd.array(param_value(pname, p.shape)))
        out = net(x).asnumpy()
        # one training-mode forward/backward: BatchNorm on batch statistics, gradients
        # w.r.t. the input (and, for the small net, every parameter), updated running stats
        x = mx.nd.array(model_input(name, train=True))
        x.attach_grad()
        with mx.autograd.record(train_mode=True):
            y = net(x)
        y.backward(mx.nd.array(head_grad(name, y.shape)))
        outputs[name + "__train"] = y.asnumpy()
        outputs[name + "__data_grad"] = x.grad.asnumpy()
        if name in FULL_GRADS:
            for pname, p in net.collect_params().items():
                if p.grad_req != "null":
                    outputs[name + "__grad__" + pname] = p.grad().asnumpy()
                else:
                    outputs[name + "__aux__" + pname] = p.data().asnumpy()
        prefix = str(FIXTURES / name)
        net.export(prefix, 0)
        Path(prefix + "-0000.params").unlink()
        sym = mx.sym.load(prefix + "-symbol.json")
        outputs[name] = out
        meta[name] = {
            "input_shape": list(shape),
            "train_input_shape": list(TRAIN_MODELS[name]),
            "arguments": sym.list_arguments(),
            "aux": sym.list_auxiliary_states(),
            "output_shape": list(out.shape),
            "output_abs_mean": float(np.abs(out).mean()),
        }
        print(name, out.shape, float(np.abs(out).mean()))
    np.savez_compressed(FIXTURES / "outputs.npz", **outputs)
    (FIXTURES / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
