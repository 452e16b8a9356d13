"""``Executor.debug_str()`` of executors bound with and without gradients against the
listings MXNet 1.9.1 printed for the same graphs (``tools/golden/gen_debug_str.py``): the
same output entries, variables, operator and gradient nodes, inputs, attributes and
control dependencies. The megabyte figure is this executor's own (see
``test_memory_experiment.py``) and is compared for form only."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

import mxnet as mx

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("gen_debug_str",
                                               REPO / "tools" / "golden" / "gen_debug_str.py")
GEN = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GEN)
GOLDEN = json.loads((REPO / "tests" / "golden" / "debug_str" / "cases.json").read_text())
_MB = re.compile(r"^Total \d+ MB allocated$")


def _split(text):
    lines = text.rstrip("\n").split("\n")
    assert _MB.match(lines[-2]), lines[-2]
    assert lines[-1] == "Total 11 TempSpace resource requested"
    return lines[:-2]


@pytest.mark.parametrize("case", GEN.CASES, ids=[c[0] for c in GEN.CASES])
def test_debug_str_matches_1_9_1(case):
    cid, code, shapes, req = case
    got = _split(GEN.listing(mx, code, shapes, req))
    want = _split(GOLDEN[cid])
    assert got == want


def test_training_listing_names_every_requested_gradient():
    cid, code, shapes, req = next(c for c in GEN.CASES if c[0] == "lenet")
    lines = _split(GEN.listing(mx, code, shapes, req))
    outs = [ln for ln in lines if ln.startswith("\toutput[")]
    # the graph's output, then weight and bias gradients of two convolutions and two dense
    # layers (data and label need none)
    assert len(outs) == 1 + 8
    ops = [ln[3:].split(",")[0] for ln in lines if ln.startswith("Op:")]
    assert ops.count("_backward_Convolution") == 2 and ops.count("_backward_Pooling") == 2
