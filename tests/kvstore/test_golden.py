"""Replay the KVStore cases of tools/golden/gen_kvstore.py against 1.9.1's recorded results."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
import mxnet.kvstore as kv

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "golden" / "kvstore.json"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_kvstore.py")


def _load_table():
    return load_script("tools/golden/gen_kvstore.py", "golden_kvstore_cases")


TABLE = _load_table()
GOLDEN = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {}


def _has_optimizer():
    try:
        import mxnet.optimizer as opt
    except ImportError:
        return False
    return hasattr(opt, "create") and hasattr(opt, "get_updater")


def _compare(got, want, where):
    if isinstance(want, dict) and set(want) == {"dtype", "shape", "values"}:
        assert isinstance(got, dict) and set(got) == set(want), f"{where}: got {got!r}"
        assert got["dtype"] == want["dtype"], f"{where}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{where}: shape {got['shape']} != {want['shape']}"
        np.testing.assert_allclose(np.array(got["values"], dtype=np.float64),
                                   np.array(want["values"], dtype=np.float64),
                                   rtol=1e-5, atol=1e-6, err_msg=where)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6), where
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


@pytest.mark.parametrize("case_id,code", TABLE.CASES, ids=[c for c, _ in TABLE.CASES])
def test_matches_1_9_1(case_id, code, tmp_path, monkeypatch):
    if case_id not in GOLDEN:
        pytest.fail(f"no golden entry for {case_id}; regenerate with: {REGENERATE}")
    if case_id.startswith("optimizer.") and "no_updater" not in case_id and not _has_optimizer():
        pytest.skip("mxnet.optimizer (create / get_updater) is not available yet")
    monkeypatch.chdir(tmp_path)
    got = TABLE.run_case(code, mx, np, kv)
    want = GOLDEN[case_id]
    if "error" in want:
        assert got == want, f"{case_id}: expected {want['error']}, got {got}"
    else:
        assert "error" not in got, f"{case_id}: unexpected {got['error']}"
        _compare(got["result"], want["result"], case_id)
