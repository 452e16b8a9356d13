"""Record the -symbol.json MXNet 1.9.1 exports for hybridized blocks whose parameter shapes
were inferred at the first call (deferred initialisation): the variables keep the shape
they had when the block was traced, with 0 for the unknown sizes.

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_deferred_export.py
"""
import json
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "golden" / "deferred_export.json"


def build(mx):
    """name -> (block, input shape), built the same way under either mxnet."""
    nn = mx.gluon.nn
    mlp = nn.HybridSequential(prefix="mlp_")
    with mlp.name_scope():
        mlp.add(nn.Dense(5, activation="relu"), nn.Dense(3, in_units=5))
    cnn = nn.HybridSequential(prefix="cnn_")
    with cnn.name_scope():
        cnn.add(nn.Conv2D(4, 3), nn.BatchNorm(), nn.Dense(2))
    return {"mlp": (mlp, (2, 6)), "cnn": (cnn, (1, 3, 6, 6))}


def export(mx, block, shape, path):
    block.initialize()
    block.hybridize()
    block(mx.nd.ones(shape))
    block.export(path)
    return Path(f"{path}-symbol.json").read_text()


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        out = {name: export(mx, b, s, f"{tmp}/{name}") for name, (b, s) in build(mx).items()}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} graphs to {OUT}")


if __name__ == "__main__":
    main()
