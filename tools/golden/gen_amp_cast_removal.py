"""Record how MXNet 1.9.1 writes a graph holding amp_cast / amp_multicast nodes: with
``tojson()`` (casts removed, the default) and ``tojson(remove_amp_cast=False)``.

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_amp_cast_removal.py

``tests/symbol/test_amp_cast_removal.py`` rebuilds the same graphs with this repository's
mxnet through ``build`` below and compares the text.
"""
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "golden" / "amp_cast_removal.json"


def build(mx):
    """name -> Symbol, built the same way under either mxnet."""
    x = mx.sym.var("data")
    c = mx.sym.amp_cast(x, dtype="float16", name="c1")
    fc = mx.sym.FullyConnected(c, num_hidden=3, no_bias=True, name="fc")
    m = mx.sym.amp_multicast(fc, x, num_outputs=2, name="mc")
    chained = mx.sym.amp_cast(mx.sym.amp_cast(x, dtype="float16", name="c2"),
                              dtype="float32", name="c3")
    return {
        "cast_and_multicast": mx.sym.elemwise_add(m[0], m[1], name="sum"),
        "head_is_a_cast": mx.sym.amp_cast(fc, dtype="float32", name="c4"),
        "chained_casts": mx.sym.relu(chained, name="r"),
        "no_casts": mx.sym.relu(mx.sym.FullyConnected(x, num_hidden=2, name="fc2"), name="r2"),
    }


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__}")
    out = {name: {"removed": s.tojson(), "kept": s.tojson(remove_amp_cast=False)}
           for name, s in build(mx).items()}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
