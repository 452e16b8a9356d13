"""LibSVMIter's CSR batches against MXNet 1.9.1 (tests/golden/libsvm_csr.npz, written by
tools/golden/gen_libsvm_csr.py): storage types, CSR components (written zeros stored),
labels (dense from the first column, CSR from a label file), pads and indices."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "golden"))
import gen_libsvm_csr as gen  # noqa: E402

GOLD = np.load(ROOT / "tests" / "golden" / "libsvm_csr.npz")


@pytest.mark.parametrize("case", list(gen.CASES))
def test_batches_match_reference(case, tmp_path):
    got = gen.collect(mx, case, str(tmp_path))
    want = {k: v for k, v in GOLD.items() if k.startswith(case + "/")}
    assert sorted(got) == sorted(want)
    for k, v in want.items():
        if v.dtype.kind in "US" or v.dtype == bool:
            assert got[k].tolist() == v.tolist(), k
        else:
            assert got[k].shape == v.shape, k
            np.testing.assert_array_equal(got[k], v, err_msg=k)


def test_batch_classes(tmp_path):
    data, label = gen.write_files(str(tmp_path))
    it = mx.io.LibSVMIter(data_libsvm=data, data_shape=(6,), batch_size=3,
                          label_libsvm=label, label_shape=(3,))
    batch = next(iter(it))
    assert isinstance(batch.data[0], mx.nd.sparse.CSRNDArray)
    assert isinstance(batch.label[0], mx.nd.sparse.CSRNDArray)
    assert batch.data[0].indices.dtype == np.int64
    it = mx.io.LibSVMIter(data_libsvm=data, data_shape=(6,), batch_size=3)
    batch = next(iter(it))
    assert batch.label[0].stype == "default" and batch.label[0].shape == (3,)
    # a dense model input: the CSR batch converts back to the dense rows
    np.testing.assert_array_equal(batch.data[0].tostype("default").asnumpy()[0],
                                  [1.5, 0, 0, -2, 0, 0.25])
