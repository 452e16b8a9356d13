"""mx.metric: every metric replayed on fixed batches against 1.9.1 (values after each update,
local and global, names, configs, errors), plus create/register, composite and custom."""
from __future__ import annotations

import json
import math
import types
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet import metric

from ._scripts import load_script

REPO = Path(__file__).resolve().parents[1]
GOLDEN_JSON = REPO / "tests" / "golden" / "init_metric.json"
GOLDEN_NPZ = REPO / "tests" / "golden" / "init_metric.npz"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_init_metric.py"


def _load_table():
    return load_script("tools/golden/gen_init_metric.py")


TABLE = _load_table()
RECORD = json.loads(GOLDEN_JSON.read_text())
BATCHES = TABLE.load_metric_inputs(np.load(GOLDEN_NPZ), RECORD["bare"])
MX = types.SimpleNamespace(metric=metric, nd=mx.nd)

# 1.9.1 sums with mx.nd.sum, a sequential Kahan sum in float32; we add in float64 and round
# once, which can land one float32 ulp away
RTOL = {"loss": 2e-7, "torch": 2e-7, "caffe": 2e-7}


def _same(got, want, rtol, path):
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), path
        for k in want:
            _same(got[k], want[k], rtol, f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, rtol, f"{path}[{i}]")
    elif isinstance(want, float):
        assert isinstance(got, (int, float)), (path, got)
        if math.isnan(want):
            assert math.isnan(got), (path, got)
        elif rtol:
            assert got == pytest.approx(want, rel=rtol, abs=0), path
        else:
            assert got == want, (path, got, want)
    elif isinstance(want, str) and want.startswith("EvalMetric:") and rtol:
        assert got.split(":")[0] == want.split(":")[0]
    else:
        assert got == want, (path, got, want)


@pytest.mark.parametrize("case", TABLE.METRIC_CASES, ids=lambda c: c["id"])
def test_golden_metric(case):
    got = TABLE.run_metric_case(MX, case, BATCHES)
    want = RECORD["metric"][case["id"]]
    _same(got, want, RTOL.get(case["id"], 0), case["id"])


def test_values_are_python_numbers():
    m = metric.create("acc")
    m.update([mx.nd.array([0, 1])], [mx.nd.array([[0.2, 0.8], [0.1, 0.9]])])
    assert type(m.get()[1]) is float
    assert str(m) == "EvalMetric: {'accuracy': 0.5}"
    m = metric.create("mse")
    m.update([mx.nd.array([0, 1])], [mx.nd.array([0.5, 1])])
    assert type(m.get()[1]) is float and m.get()[1] == 0.125


# --------------------------------------------------------------------------------------------
# names, create, register


@pytest.mark.parametrize("name,cls,metric_name", [
    ("acc", metric.Accuracy, "accuracy"), ("accuracy", metric.Accuracy, "accuracy"),
    ("f1", metric.F1, "f1"), ("mcc", metric.MCC, "mcc"), ("mae", metric.MAE, "mae"),
    ("mse", metric.MSE, "mse"), ("rmse", metric.RMSE, "rmse"),
    ("ce", metric.CrossEntropy, "cross-entropy"),
    ("crossentropy", metric.CrossEntropy, "cross-entropy"),
    ("nll_loss", metric.NegativeLogLikelihood, "nll-loss"),
    ("negativeloglikelihood", metric.NegativeLogLikelihood, "nll-loss"),
    ("pearsonr", metric.PearsonCorrelation, "pearsonr"),
    ("pearsoncorrelation", metric.PearsonCorrelation, "pearsonr"), ("pcc", metric.PCC, "pcc"),
    ("loss", metric.Loss, "loss"), ("torch", metric.Torch, "torch"),
    ("caffe", metric.Caffe, "caffe"), ("composite", metric.CompositeEvalMetric, "composite"),
    ("compositeevalmetric", metric.CompositeEvalMetric, "composite"),
])
def test_create_by_name(name, cls, metric_name):
    m = metric.create(name)
    assert type(m) is cls and m.name == metric_name


def test_create_topk_and_perplexity_names():
    assert metric.create("top_k_accuracy", top_k=5).name == "top_k_accuracy_5"
    assert metric.create("top_k_acc", 2).name == "top_k_accuracy_2"
    assert metric.create("topkaccuracy", top_k=3).name == "top_k_accuracy_3"
    assert metric.create("perplexity", ignore_label=None).name == "perplexity"
    with pytest.raises(AssertionError):
        metric.create("top_k_accuracy")  # top_k=1: use Accuracy
    with pytest.raises(AssertionError):
        metric.create("no_such_metric")


def test_create_other_forms():
    acc = metric.Accuracy()
    assert metric.create(acc) is acc
    comp = metric.create(["acc", metric.MSE(), lambda l, p: 1.0])
    assert isinstance(comp, metric.CompositeEvalMetric)
    assert comp.get()[0] == ["accuracy", "mse", "custom(<lambda>)"]
    custom = metric.create(lambda l, p: 0.0, name="zero")
    assert isinstance(custom, metric.CustomMetric) and custom.name == "zero"
    again = metric.create(metric.create("ce", eps=0.5).get_config())
    assert type(again) is metric.CrossEntropy and again.eps == 0.5
    assert metric.create('{"metric": "mae", "name": "m"}').name == "m"


def test_register_custom_metric():
    @metric.register
    @metric.alias("always_one_alias")
    class AlwaysOne(metric.EvalMetric):
        def __init__(self, name="one"):
            super().__init__(name)

        def update(self, labels, preds):
            self.sum_metric += len(preds)
            self.num_inst += len(preds)

    try:
        m = metric.create("always_one_alias")
        m.update([1, 2], [3, 4])
        assert m.get() == ("one", 1.0)
        # without global statistics the global getters report the local ones
        assert m.get_global() == ("one", 1.0)
        assert m.get_global_name_value() == [("one", 1.0)]
    finally:
        metric._REG.table.pop("alwaysone", None)
        metric._REG.table.pop("always_one_alias", None)


# --------------------------------------------------------------------------------------------
# errors and edge cases


def test_check_label_shapes():
    a, b = mx.nd.zeros((2, 3)), mx.nd.zeros((2, 4))
    with pytest.raises(ValueError, match="does not match"):
        metric.check_label_shapes([a], [a, b])
    with pytest.raises(ValueError):
        metric.check_label_shapes(a, b, shape=True)
    labels, preds = metric.check_label_shapes(a, b, wrap=True)
    assert labels == [a] and preds == [b]


def test_base_update_not_implemented_and_custom_config():
    with pytest.raises(NotImplementedError):
        metric.EvalMetric("x").update([], [])
    with pytest.raises(NotImplementedError):
        metric.np(lambda l, p: 0.0).get_config()


def test_composite_get_metric_and_reset():
    comp = metric.CompositeEvalMetric(["acc", "mse"])
    assert isinstance(comp.get_metric(1), metric.MSE)
    assert isinstance(comp.get_metric(5), ValueError)  # returned, not raised, as in 1.9.1
    comp.update([mx.nd.array([1])], [mx.nd.array([[0.1, 0.9]])])
    comp.reset_local()
    assert comp.get()[1][0] != comp.get()[1][0]  # NaN
    assert comp.get_global()[1][0] == 1.0
    comp.reset()
    assert math.isnan(comp.get_global()[1][0])


def test_f1_rejects_more_than_two_classes():
    with pytest.raises(ValueError, match="binary"):
        metric.F1().update([mx.nd.array([0, 1, 2])], [mx.nd.ones((3, 2))])


def test_custom_metric_tuple_and_numpy_scalars():
    m = metric.np(lambda label, pred: (np.float32(1.5), np.int64(3)), name="t")
    m.update([mx.nd.zeros(2)], [mx.nd.zeros(2)])
    m.update([mx.nd.zeros(2)], [mx.nd.zeros(2)])
    assert m.get() == ("t", 0.5) and type(m.sum_metric) is float
