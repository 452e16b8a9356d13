"""mx.model.FeedForward (1.9.1's deprecated training API): replay
tools/golden/gen_feedforward.py's scenarios and compare with what 1.9.1 recorded."""
from __future__ import annotations

import json
import logging
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
GEN = load_script("tools/golden/gen_feedforward.py")
ARRAYS = np.load(REPO / "tests" / "golden" / "feedforward.npz")
EXTRAS = json.loads((REPO / "tests" / "golden" / "feedforward.json").read_text())

# FeedForward and the initializer's init(name, array) form both warn (as in 1.9.1).
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _close(a, b, key):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, key
    if a.dtype.kind in "fc":
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=key)
    else:
        np.testing.assert_array_equal(a, b, err_msg=key)


def _json_close(got, want, path="info"):
    if isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6), path
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            _json_close(g, w, f"{path}[{i}]")
    elif isinstance(want, dict):
        assert sorted(got) == sorted(want), path
        for k in want:
            _json_close(got[k], want[k], f"{path}.{k}")
    else:
        assert got == want, path


def _log_close(got, want):
    """Log lines equal, numbers (formatted %f) within rounding."""
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        gh, _, gv = g.rpartition("=")
        wh, _, wv = w.rpartition("=")
        assert gh == wh, (g, w)
        try:
            assert float(gv) == pytest.approx(float(wv), abs=2e-6), (g, w)
        except ValueError:
            assert g == w


@pytest.mark.parametrize("name", list(GEN.SCENARIOS))
def test_scenario_matches_1_9_1(name, tmp_path):
    arrays, extras = GEN.split(GEN.SCENARIOS[name](mx, tmp_path))
    want_keys = sorted(k.split("/", 1)[1] for k in ARRAYS.files if k.startswith(name + "/"))
    assert sorted(arrays) == want_keys
    for key, value in arrays.items():
        _close(value, ARRAYS[f"{name}/{key}"], f"{name}/{key}")
    want = EXTRAS.get(name, {})
    if "log" in want:
        _log_close(extras["log"], want["log"])
    if "info" in want:
        _json_close(extras["info"], want["info"])


def _small_model(**kwargs):
    args = GEN.initial(mx, ["fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return mx.model.FeedForward(GEN.mlp(mx), arg_params=args, **kwargs)


def test_deprecation_warning_and_defaults():
    with pytest.warns(DeprecationWarning, match="mxnet.model.FeedForward has been deprecated"):
        model = mx.model.FeedForward(GEN.mlp(mx))
    assert model.ctx == [mx.cpu()] and model.numpy_batch_size == 128
    assert model.begin_epoch == 0 and model.optimizer == "sgd"
    assert isinstance(model.initializer, mx.init.Uniform)
    assert "FeedForward" in dir(mx.model) and "DataParallelExecutorManager" in dir(mx.model)
    assert mx.model.DataParallelExecutorManager is mx.executor_manager.DataParallelExecutorManager


def test_input_validation():
    model = _small_model(num_epoch=1)
    x, y = GEN.dataset(10, 0)
    with pytest.raises(ValueError, match="y must be specified"):
        model.fit(x)
    with pytest.raises(ValueError, match="not equal"):
        model.fit(x, y[:5])
    with pytest.raises(ValueError, match="Label must be 1D"):
        model.fit(x, np.zeros((10, 2)))
    with pytest.raises(TypeError, match="y must be ndarray"):
        model.fit(x, list(y))
    with pytest.raises(TypeError, match="X must be DataIter"):
        model.fit([1, 2, 3], y)
    with pytest.raises(ValueError, match="Eval data is NONE"):
        model.fit(x, y, eval_data=(None, None))
    with pytest.raises(TypeError, match="Eval data must be DataIter"):
        model.fit(x, y, eval_data=5)


def test_allow_extra_params_drops_unused():
    args = GEN.initial(mx, ["fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"])
    args["unused_weight"] = mx.nd.ones((2,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        model = mx.model.FeedForward(GEN.mlp(mx), arg_params=args, allow_extra_params=True,
                                     aux_params={"nothing": mx.nd.ones((1,))})
    assert "unused_weight" not in model.arg_params and model.aux_params == {}


def test_time_cost_logged_and_pickle(tmp_path, caplog):
    x, y = GEN.dataset(16, 0)
    model = _small_model(num_epoch=1, numpy_batch_size=8, learning_rate=0.1)
    with caplog.at_level(logging.INFO):
        model.fit(x, y)
    assert any(r.getMessage().startswith("Epoch[0] Time cost=") for r in caplog.records)
    before = model.predict(x)
    assert model._pred_exec is not None
    clone = pickle.loads(pickle.dumps(model))
    assert clone._pred_exec is None
    np.testing.assert_allclose(clone.predict(x), before, rtol=1e-6)


def test_save_is_atomic_and_defaults_to_num_epoch(tmp_path):
    model = _small_model(num_epoch=2)
    prefix = str(tmp_path / "m")
    x, y = GEN.dataset(8, 0)
    model.fit(x, y)
    model.save(prefix)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["m-0002.params", "m-symbol.json"]  # no temporary file left behind
    _, args, _ = mx.model.load_checkpoint(prefix, 2)
    for k, v in model.arg_params.items():
        np.testing.assert_array_equal(args[k].asnumpy(), v.asnumpy())
