"""Record the batches MXNet 1.9.1's ``mx.io.LibSVMIter`` yields on small LibSVM files: the
data batch's class, storage type and CSR components (``indptr``, ``indices``, ``data``),
the label's class, storage type and values, and the pad, for a few settings (with and
without a ``label_libsvm`` file; a last batch completed from the start; explicit zero
features).

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_libsvm_csr.py

Writes ``tests/golden/libsvm_csr.npz``. ``tests/test_sparse/test_libsvm_csr.py`` imports this
module (importable without mxnet) for :data:`DATA`, :data:`LABELS`, :data:`CASES` and
:func:`collect`.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent.parent / "tests" / "golden"

DATA = """1 0:1.5 3:-2 5:0.25
0 2:4
2 1:1 2:0 4:3.5 5:-1
1
3 0:2 5:7
0 3:1.25 4:-0.5
"""
LABELS = """0 0:1 2:0.5
0 1:2
0 0:-1 1:1 2:3
0
0 2:4
0 0:0.25
"""

# case name -> LibSVMIter keyword arguments (paths are filled in)
CASES = {
    "b2": {"data_shape": (6,), "batch_size": 2},
    "b4_round": {"data_shape": (6,), "batch_size": 4},
    "b4_label_file": {"data_shape": (6,), "batch_size": 4, "label_shape": (3,),
                      "with_labels": True},
}


def write_files(folder):
    data = os.path.join(folder, "data.libsvm")
    label = os.path.join(folder, "label.libsvm")
    with open(data, "w") as f:
        f.write(DATA)
    with open(label, "w") as f:
        f.write(LABELS)
    return data, label


def collect(mx, name, folder):
    """The batches of case ``name`` (two epochs' worth for the first) as {key: array}."""
    data, label = write_files(folder)
    kwargs = dict(CASES[name])
    with_labels = kwargs.pop("with_labels", False)
    kwargs["data_libsvm"] = data
    if with_labels:
        kwargs["label_libsvm"] = label
    it = mx.io.LibSVMIter(**kwargs)
    out = {}
    for i, batch in enumerate(it):
        d = batch.data[0]
        lab = batch.label[0]
        p = f"{name}/{i}/"
        out[p + "data_is_csr"] = np.array(isinstance(d, mx.nd.sparse.CSRNDArray))
        out[p + "data_stype"] = np.array(d.stype)
        out[p + "indptr"] = d.indptr.asnumpy()
        out[p + "indices"] = d.indices.asnumpy()
        out[p + "values"] = d.data.asnumpy()
        out[p + "dense"] = d.asnumpy()
        out[p + "label_stype"] = np.array(lab.stype)
        out[p + "label_dense"] = lab.asnumpy()
        if lab.stype == "csr":
            out[p + "label_indptr"] = lab.indptr.asnumpy()
            out[p + "label_indices"] = lab.indices.asnumpy()
            out[p + "label_values"] = lab.data.asnumpy()
        out[p + "pad"] = np.array(batch.pad)
        out[p + "index"] = np.array(batch.index if batch.index is not None else [])
    out[f"{name}/nbatches"] = np.array(i + 1)
    return out


def main():
    import mxnet as mx
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in CASES:
            out.update(collect(mx, name, folder))
    np.savez(GOLDEN / "libsvm_csr.npz", **out)
    print(f"wrote {len(out)} arrays")


if __name__ == "__main__":
    main()
