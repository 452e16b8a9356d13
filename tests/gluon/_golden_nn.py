"""Loading the gluon golden fixtures and the case tables of tools/golden/gen_gluon_nn.py."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
GOLDEN_NPZ = REPO / "tests" / "golden" / "gluon_nn.npz"
GOLDEN_JSON = REPO / "tests" / "golden" / "gluon_nn.json"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_gluon_nn.py")


def _load_table():
    return load_script("tools/golden/gen_gluon_nn.py")


TABLE = _load_table()
GOLD = np.load(GOLDEN_NPZ)
META = json.loads(GOLDEN_JSON.read_text())


def close(actual, expected, what, rtol=1e-4, atol=1e-5):
    actual = actual.asnumpy() if hasattr(actual, "asnumpy") else np.asarray(actual)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what,
                               equal_nan=True)
