"""Shared access to the 1.9.1 fixtures of tools/golden/gen_optimizer.py."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "optimizer"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_optimizer.py")


def _load_table():
    return load_script("tools/golden/gen_optimizer.py")


TABLE = _load_table()


def load_npz(name):
    with np.load(GOLDEN / name) as f:
        return {k: f[k] for k in f.files}


def tolerance(dtype):
    """(rtol, atol) for comparing against 1.9.1: float32 kernels match bit for bit on NumPy;
    the slack covers other backends (CuPy) and a few documented ulp-level differences."""
    dt = np.dtype(dtype)
    if dt == np.float16:
        return 2e-3, 2e-3
    if dt == np.float64:
        return 1e-12, 1e-14
    return 1e-5, 1e-6


def assert_close(actual, expected, what, rtol=None, atol=None):
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    r, a = tolerance(expected.dtype)
    np.testing.assert_allclose(actual, expected, rtol=r if rtol is None else rtol,
                               atol=a if atol is None else atol, err_msg=what)
