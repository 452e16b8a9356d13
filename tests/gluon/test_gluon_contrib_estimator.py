"""gluon.contrib.estimator against 1.9.1: the scenarios of tools/golden/gen_gluon_contrib.py
(a small MLP starting from the recorded .params file, trained with several handler set-ups)
give the same metric values per epoch, final parameters, log lines (timings aside),
checkpoint files, warnings and errors; plus behaviour checked without fixtures (atomic
checkpoint writes, default handler selection, batch processors, batch_axis, contexts).

Fixtures: tests/golden/gluon_contrib.npz, tests/golden/gluon_contrib_est_init.params.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon
from mxnet.gluon.contrib import estimator as E

from .._scripts import load_script

TABLE = load_script("tools/golden/gen_gluon_contrib.py")
GOLD = np.load(TABLE.OUT_NPZ)
META = json.loads(str(GOLD["__meta__"]))["estimator"]
RTOL = 1e-5


def _run(name):
    with contextlib.redirect_stdout(io.StringIO()):   # the estimator also logs to stdout
        return TABLE.ESTIMATOR_SCENARIOS[name](mx)


def _close_metrics(got, want, what):
    assert len(got) == len(want), what
    for g, w in zip(got, want):
        if isinstance(w, list) and w and isinstance(w[0], list):
            _close_metrics(g, w, what)
        else:
            assert g[0] == w[0], f"{what}: metric name {g[0]!r} != {w[0]!r}"
            np.testing.assert_allclose(g[1], w[1], rtol=RTOL, err_msg=f"{what}: {w[0]}")


def _close_arrays(res, name):
    keys = sorted(k.split("/", 1)[1] for k in GOLD.files if k.startswith(f"est_{name}/"))
    assert sorted(res["arrays"]) == keys
    for k in keys:
        want = GOLD[f"est_{name}/{k}"]
        # several SGD-momentum / Adam steps in float32: rounding differences of 1e-7
        # grow to a few 1e-6, hence the absolute floor for small entries
        np.testing.assert_allclose(res["arrays"][k], want, rtol=RTOL, atol=1e-5,
                                   err_msg=f"{name}: {k}")


@pytest.fixture(scope="module")
def results():
    return {name: _run(name) for name in ("fit", "batches", "checkpoint", "early")}


def test_fit_metrics_params_and_log(results):
    res, want = results["fit"], META["fit"]
    _close_metrics(res["metrics"], want["metrics"], "fit")
    _close_arrays(res, "fit")
    assert res["warnings"] == want["warnings"]
    # same lines; the metric values are compared above at full precision
    assert res["log"] == want["log"]
    assert any(line.startswith("[Epoch 2][Batch 4][Samples 120] time/interval") for line in
               res["log"])


def test_batches_evaluate_and_default_metrics(results):
    res, want = results["batches"], META["batches"]
    _close_metrics(res["metrics"], want["metrics"], "batches")
    _close_arrays(res, "batches")
    assert res["log"] == want["log"]
    assert res["warnings"] == want["warnings"]
    assert res["names"] == want["names"] == [["training l2loss"], ["validation l2loss"]]


def test_checkpoints(results):
    res, want = results["checkpoint"], META["checkpoint"]
    assert res["listing"] == want["listing"]
    assert res["log"] == want["log"]
    assert res["warnings"] == want["warnings"]
    _close_arrays(res, "checkpoint")
    assert "m-symbol.json" in res["listing"][0]


def test_early_stopping(results):
    res, want = results["early"], META["early"]
    assert res["log"] == want["log"]
    assert res["warnings"] == want["warnings"]
    _close_metrics(res["metrics"], want["metrics"], "early")
    assert [len(m) for m in res["metrics"]] == [len(m) for m in want["metrics"]]


def test_errors():
    got = _run("errors")["errors"]
    want = META["errors"]["errors"]

    def norm(e):
        return None if e is None else [e[0], re.sub(r"0x[0-9a-f]+", "0x", e[1])]
    assert set(got) == set(want)
    for k in want:
        assert norm(got[k]) == norm(want[k]), k


# -- behaviour without fixtures ------------------------------------------------------------------
def _est(**kw):
    net = TABLE.loaded_net(mx)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = E.Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(),
                          trainer=TABLE._trainer(mx, net), **kw)
    est.logger.handlers[:] = []
    return est


def test_checkpoint_written_through_temp_file(tmp_path, monkeypatch):
    renames = []
    real = os.replace

    def spy(src, dst):
        renames.append((os.path.basename(src), os.path.basename(dst)))
        return real(src, dst)
    monkeypatch.setattr(os, "replace", spy)
    est = _est()
    ck = E.CheckpointHandler(str(tmp_path), model_prefix="t", max_checkpoints=1)
    est.fit(TABLE._data(mx, 16, 1, 8), epochs=2, event_handlers=[ck])
    targets = [dst for src, dst in renames if src.startswith(".") and src.endswith(".tmp")]
    assert "t-epoch0batch2.params" in targets and "t-epoch1batch4.states" in targets
    # max_checkpoints=1: only the last pair is left, and no temporary file
    assert sorted(os.listdir(tmp_path)) == ["t-epoch1batch4.params", "t-epoch1batch4.states"]
    # only the named checkpoint's own files are removed
    (tmp_path / "t-epoch1batch40.params").write_bytes(b"x")
    ck2 = E.CheckpointHandler(str(tmp_path), model_prefix="t", max_checkpoints=0)
    ck2.saved_checkpoints = ["t-epoch1batch4"]
    ck2._save_params_and_trainer(est, "t-best")
    assert "t-epoch1batch40.params" in os.listdir(tmp_path)
    assert "t-epoch1batch4.params" not in os.listdir(tmp_path)


def test_default_handlers_and_order():
    est = _est()
    est.max_epoch, est.max_batch = 1, None
    loader = TABLE._data(mx, 8, 1, 4)
    kinds = [type(h).__name__ for h in est._prepare_default_handlers(loader, None)]
    assert kinds == ["GradientUpdateHandler", "MetricHandler", "ValidationHandler",
                     "StoppingHandler", "LoggingHandler"]
    mine = E.GradientUpdateHandler(priority=5)
    kinds = [type(h).__name__ for h in est._prepare_default_handlers(None, [mine])]
    assert kinds == ["MetricHandler", "StoppingHandler", "GradientUpdateHandler",
                     "LoggingHandler"]
    kinds = [type(h).__name__ for h in est._prepare_default_validation_handlers(None)]
    assert kinds == ["MetricHandler", "LoggingHandler"]


def test_batch_processor_and_batch_axis():
    seen = []

    class Proc(E.BatchProcessor):
        def fit_batch(self, estimator, batch, batch_axis=0):
            seen.append(("fit", batch_axis))
            return super().fit_batch(estimator, batch, batch_axis)

        def evaluate_batch(self, estimator, batch, batch_axis=0):
            seen.append(("eval", batch_axis))
            return super().evaluate_batch(estimator, batch, batch_axis)
    est = _est(batch_processor=Proc())
    est.fit(TABLE._data(mx, 8, 1, 8), val_data=TABLE._data(mx, 8, 2, 8), batches=1)
    assert seen == [("fit", 0), ("eval", 0)]
    with pytest.raises(ValueError, match="fit_batch"):
        _est(batch_processor=object())


def test_two_contexts_match_one():
    one = _est()
    one.fit(TABLE._data(mx, 16, 1, 8), epochs=1)
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = TABLE.make_net(mx)
    net.load_parameters(str(TABLE.INIT_PARAMS), ctx=ctxs)
    two = E.Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), context=ctxs,
                      trainer=TABLE._trainer(mx, net))
    two.logger.handlers[:] = []
    two.fit(TABLE._data(mx, 16, 1, 8), epochs=1)
    for (k, a), b in zip(one.net.collect_params().items(), two.net.collect_params().values()):
        np.testing.assert_allclose(b.data(mx.cpu(1)).asnumpy(), a.data().asnumpy(),
                                   rtol=1e-5, atol=1e-6, err_msg=k)
    assert [m.get()[1] for m in two.train_metrics] == pytest.approx(
        [m.get()[1] for m in one.train_metrics], rel=1e-5)


def test_unavailable_gpu_context_asserts():
    if mx.context.num_gpus() > 0:
        pytest.skip("a GPU is visible")
    with pytest.raises(AssertionError, match="is not available"):
        _est(context=mx.gpu(0))
