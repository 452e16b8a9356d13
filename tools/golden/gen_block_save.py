"""Record what MXNet 1.9.1's gluon ``Block.save(prefix)`` writes (``<prefix>-model.json`` and
``<prefix>-model.params``) for a few small models, and the outputs those models give, so that
tests can load 1.9.1's files with ``Block.load`` and compare.

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_block_save.py

The tests build the same models with this module's ``build``/``fill`` and their own mxnet.
"""
import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[2] / "tests" / "golden" / "block_save"


def build(mx):
    """name -> (block, inputs, hybridize?), built the same way under either mxnet."""
    nn = mx.gluon.nn

    class Two(nn.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.left = nn.Dense(3, in_units=4)
                self.right = nn.Dense(3, in_units=4, use_bias=False)

        def hybrid_forward(self, F, a, b):
            return self.left(a) + self.right(b), F.relu(a)

    class Plain(mx.gluon.Block):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.body = nn.HybridSequential()
                self.body.add(nn.Dense(5, in_units=3, activation="tanh"),
                              nn.LayerNorm(in_channels=5))
                self.head = nn.Dense(2, in_units=5)

        def forward(self, x):
            return self.head(self.body(x))

    hyb = nn.HybridSequential()
    with hyb.name_scope():
        hyb.add(nn.Dense(4, in_units=6, activation="relu"), nn.BatchNorm(in_channels=4),
                nn.Dense(2, in_units=4))
    x6 = mx.nd.array(np.arange(12).reshape(2, 6) / 10.0)
    a = mx.nd.array(np.linspace(-1, 1, 8).reshape(2, 4))
    b = mx.nd.array(np.cos(np.arange(8)).reshape(2, 4))
    x3 = mx.nd.array(np.sin(np.arange(6)).reshape(2, 3))
    return {"hyb": (hyb, [x6], True), "two": (Two(), [a, b], True),
            "plain": (Plain(), [x3], False)}


def fill(mx, block):
    """Deterministic parameter values, the same under either mxnet."""
    for i, p in enumerate(block.collect_params().values()):
        block_size = int(np.prod(p.shape))
        vals = np.sin(np.arange(block_size) * 0.7 + i).reshape(p.shape) * 0.5
        if p.name.endswith("running_var"):
            vals = np.abs(vals) + 0.5
        p.set_data(mx.nd.array(vals))


def outputs(out):
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [np.round(o.asnumpy().astype(np.float64), 6).tolist() for o in outs]


if __name__ == "__main__":
    import mxnet as mx
    OUT.mkdir(parents=True, exist_ok=True)
    record = {}
    for name, (block, inputs, hyb) in build(mx).items():
        block.initialize()
        fill(mx, block)
        if hyb:
            block.hybridize()
        out = block(*inputs)
        block.save(str(OUT / name))
        record[name] = outputs(out)
    (OUT / "expected.json").write_text(json.dumps(record, indent=1) + "\n")
    print("wrote", sorted(p.name for p in OUT.iterdir()))
