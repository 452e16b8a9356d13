"""Executor monitors against what 1.9.1 showed them (tools/golden/gen_monitor.py).

For every graph case the callback must see the same names in the same order, in the same
phase (forward, backward, predict), with the same dtypes and shapes, and values within
float32 tolerance, except where 1.9.1's value is unspecified (the case's ``skip``). The
gradients after backward must be unaffected by the monitor. For Modules, the rows of
``Monitor.toc`` and the lines ``toc_print`` logs must match name for name, values within
tolerance (except for the arrays 1.9.1 leaves unwritten: gradients of the data and the
label, which a Module does not request, oneDNN's workspace and a p=0 Dropout's mask).

Regenerate with::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_monitor.py
"""
from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
import mxnet.io
import mxnet.module
import mxnet.monitor

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
FIX = REPO / "tests" / "golden" / "monitor"


def _load_gen():
    return load_script("tools/golden/gen_monitor.py")


G = _load_gen()
DOC = json.loads((FIX / "cases.json").read_text())
ARRAYS = np.load(FIX / "cases.npz")
GRAPH_KEYS = [(cid, ma) for cid, _, _, opts in G.GRAPHS
              for ma in opts.get("monitor_all", (False, True))]


class _MX:
    """``mx`` with the 1.9.1 aliases the scenarios use (``mx.mod``, ``mx.mon``)."""

    mod = mxnet.module
    mon = mxnet.monitor
    io = mxnet.io

    def __getattr__(self, name):
        return getattr(mx, name)


def _close(got, want, where):
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=where)
    else:
        np.testing.assert_array_equal(got, want, err_msg=where)


@pytest.mark.parametrize("cid,monitor_all", GRAPH_KEYS,
                         ids=[f"{c}-{'all' if m else 'outputs'}" for c, m in GRAPH_KEYS])
def test_graph_monitor(cid, monitor_all):
    code, shapes, opts = next((c, s, o) for i, c, s, o in G.GRAPHS if i == cid)
    key = f"{cid}/{int(monitor_all)}"
    rec = DOC["graphs"][key]
    assert rec["code"] == code, f"case {cid} changed since it was recorded; regenerate"
    seen, grads = G.run_graph(mx, np, code, shapes, opts, monitor_all)
    got = [f"{phase} {name}" for phase, name, _ in seen]
    want = [f"{phase} {name}" for phase, name, _, _ in rec["rows"]]
    assert got == want
    skip = [re.compile(p) for p in opts.get("skip", [])]
    for i, (phase, name, value) in enumerate(seen):
        ref = ARRAYS[f"{key}/{i}"]
        if any(p.match(name) for p in skip):
            assert value.shape == ref.shape, f"{phase} {name}: shape {value.shape} != {ref.shape}"
            continue
        _close(value, ref, f"#{i} {phase} {name}")
    assert sorted(grads) == rec["grads"]
    for n, g in grads.items():
        _close(g, ARRAYS[f"{key}/grad/{n}"], f"gradient of {n}")


# 1.9.1 leaves these unwritten or unspecified in the Module scenarios
_MODULE_UNSPECIFIED = re.compile(r"(fc1|conv1)_backward_output0$|softmax_backward_output1$|"
                                 r".*_workspace$|drop_mask$|drop_backward_input1$|"
                                 r"pool1_backward_input4$")


def _values(text):
    assert text.endswith("\t"), repr(text)
    return [float(v) for v in text.split("\t")[:-1]]


@pytest.mark.parametrize("cid", G.MODULES)
def test_module_monitor_rows(cid):
    code, shapes, opts = next((c, s, o) for i, c, s, o in G.GRAPHS if i == cid)
    ours = G.module_rows(_MX(), np, code, shapes, opts)
    ref = DOC["modules"][cid]
    for key, want in ref.items():
        got = ours[key]
        if key == "log":
            assert len(got) == len(want)
            pat = re.compile(r"^(Batch: +\d+ (\S+) +)(.*)$")
            for g, w in zip(got, want):
                mg, mw = pat.match(g), pat.match(w)
                assert mg and mw, (g, w)
                assert mg.group(1) == mw.group(1)
                if not _MODULE_UNSPECIFIED.match(mw.group(2)):
                    np.testing.assert_allclose(_values(mg.group(3)), _values(mw.group(3)),
                                               rtol=1e-4, atol=1e-6, err_msg=w)
            continue
        assert [r[:2] for r in got] == [r[:2] for r in want], key
        for g, w in zip(got, want):
            if not _MODULE_UNSPECIFIED.match(w[1]):
                np.testing.assert_allclose(_values(g[2]), _values(w[2]), rtol=1e-4, atol=1e-6,
                                           err_msg=f"{key}: {w[1]}")


def test_idle_monitor_skips_backward_report(monkeypatch):
    """Between collections a Monitor is not called at all (1.9.1 calls it and it returns
    at once): the backward report, a second backward pass, is not paid for."""
    net = G.build(mx, G.GRAPHS[0][1])
    ex = net.simple_bind(mx.cpu(), data=(2, 5))
    mon = mx.monitor.Monitor(3)
    mon.install(ex)
    calls = []
    real = mon.stat_func
    mon.stat_func = lambda a: calls.append(1) or real(a)
    from mxnet.executor import monitoring
    reports = []
    orig = monitoring.report_backward
    monkeypatch.setattr(monitoring, "report_backward",
                        lambda *a, **k: reports.append(1) or orig(*a, **k))
    for _ in range(3):
        mon.tic()
        ex.forward(is_train=True)
        ex.backward()
        mon.toc()
    assert len(reports) == 1
    assert calls   # the first step was collected


def test_monitor_on_reshaped_and_rebound_executor():
    """The monitor follows ``reshape`` and works on an executor bound with 'add'."""
    net = G.build(mx, G.GRAPHS[0][1])
    ex = net.simple_bind(mx.cpu(), data=(2, 5), grad_req="add")
    seen = []
    ex.set_monitor_callback(lambda n, a: seen.append(n.decode()))   # 1.9.1 passes bytes
    small = ex.reshape(data=(1, 5), softmax_label=(1,))
    small.forward(is_train=True)
    small.backward()
    assert seen[:4] == ["fc1_output", "relu1_output", "fc2_output", "softmax_output"]
    assert seen[4:] == ["softmax_backward_output0", "softmax_backward_output1",
                        "fc2_backward_output0", "fc2_backward_output1", "fc2_backward_output2",
                        "relu1_backward_output", "fc1_backward_output0", "fc1_backward_output1",
                        "fc1_backward_output2"]
    logging.getLogger(__name__).debug("%d callbacks", len(seen))
