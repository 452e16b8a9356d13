"""mx.init: 1.9.1 golden fills for the deterministic initializers, name dispatch, ``__init__``
attributes, dumps/create, Load and Mixed; random initializers by bounds and moments."""
from __future__ import annotations

import json
import logging
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet import initializer

from ._scripts import load_script

init = initializer
REPO = Path(__file__).resolve().parents[1]
GOLDEN_JSON = REPO / "tests" / "golden" / "init_metric.json"
GOLDEN_NPZ = REPO / "tests" / "golden" / "init_metric.npz"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_init_metric.py"


def _load_table():
    return load_script("tools/golden/gen_init_metric.py")


TABLE = _load_table()
RECORD = json.loads(GOLDEN_JSON.read_text())
ARRAYS = np.load(GOLDEN_NPZ)
# the builders take an ``mx``-like namespace (mxnet/__init__ may not import mx.init yet)
MX = types.SimpleNamespace(init=initializer, nd=mx.nd)


def _desc(name, **attrs):
    return init.InitDesc(name, attrs=attrs or None)


# --------------------------------------------------------------------------------------------
# golden


@pytest.mark.parametrize("case", TABLE.INIT_CASES, ids=lambda c: c["id"])
def test_golden_fill(case):
    arr, err = TABLE.run_init_case(MX, case)
    want = RECORD["init"][case["id"]]
    assert err == want["error"], f"regenerate with: {REGENERATE}"
    if err is None:
        expected = ARRAYS[f"init/{case['id']}"]
        assert arr.dtype == expected.dtype and arr.shape == expected.shape
        np.testing.assert_array_equal(arr, expected)


def test_golden_dumps():
    got = [TABLE.build_init(MX, spec).dumps() for spec in TABLE.DUMPS_CASES]
    assert got == RECORD["dumps"]


# --------------------------------------------------------------------------------------------
# dispatch, descriptors, registry


def test_initdesc_is_a_string_with_attrs():
    d = init.InitDesc("fc_weight", attrs={"lr_mult": "2"})
    assert isinstance(d, str) and d == "fc_weight" and d.endswith("weight")
    assert d.attrs == {"lr_mult": "2"} and d.global_init is None
    assert init.InitDesc("x").attrs == {}


def test_call_sets_global_init_once():
    d = init.InitDesc("fc_weight")
    first = init.Constant(1.0)
    first(d, mx.nd.zeros((2,)))
    assert d.global_init is first
    init.Zero()(d, mx.nd.zeros((2,)))
    assert d.global_init is first


def test_attr_init_uses_weight_rule_even_for_bias():
    arr = mx.nd.zeros((3,))
    init.Zero()(_desc("fc_bias", __init__=init.Constant(4.0).dumps()), arr)
    assert arr.asnumpy().tolist() == [4.0] * 3


def test_legacy_call_warns_and_checks_types():
    with pytest.warns(DeprecationWarning):
        init.One()("fc_weight", mx.nd.zeros((2,)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(TypeError):
            init.One()(5, mx.nd.zeros((2,)))
        with pytest.raises(TypeError):
            init.One()("fc_weight", np.zeros(2))


def test_quantized_weight_is_one_repeated_int8():
    arr = mx.nd.zeros((4, 5), dtype="int8")
    init.Xavier()(_desc("conv_weight_quantize"), arr)
    values = np.unique(arr.asnumpy())
    assert len(values) == 1 and -127 <= values[0] < 127


def test_create_forms():
    assert isinstance(init.create("xavier"), init.Xavier)
    assert isinstance(init.create("ZEROS"), init.Zero)
    assert init.create("uniform", 0.5).scale == 0.5
    assert init.create(initializer="normal", sigma=2).sigma == 2
    assert init.create('["constant", {"value": 3}]').value == 3
    assert init.create({"initializer": "one"}) == init.One()
    x = init.Xavier(magnitude=2)
    assert init.create(x) is x
    with pytest.raises(AssertionError):
        init.create(x, 1)
    with pytest.raises(AssertionError):
        init.create("no_such_initializer")
    restored = init.create(init.MSRAPrelu(slope=0.1).dumps())
    assert isinstance(restored, init.MSRAPrelu) and restored.magnitude == 2.0 / 1.01


def test_register_custom_initializer_and_attr_lookup():
    @init.register
    class HalfTest(init.Initializer):
        def _init_weight(self, _, arr):
            arr[:] = 0.5

    try:
        assert isinstance(init.create("halftest"), HalfTest)
        arr = mx.nd.zeros((2,))
        init.Zero()(_desc("anything", __init__=HalfTest().dumps()), arr)
        assert arr.asnumpy().tolist() == [0.5, 0.5]
        with pytest.warns(UserWarning):
            init.register(init.Zero, "halftest")
    finally:
        init._REG.table.pop("halftest", None)
    with pytest.raises(AssertionError):
        init.register(int)


def test_equality_and_hash():
    assert init.Uniform() == init.Uniform(0.07)
    assert init.Uniform() != init.Uniform(0.1)
    assert init.Uniform() != init.Normal()
    with pytest.raises(TypeError):
        hash(init.Uniform())


def test_constant_array_value_and_dumps():
    c = init.Constant(mx.nd.array([1.0, 2.0]))
    arr = mx.nd.zeros((3, 2))
    c(_desc("w_weight"), arr)
    assert arr.asnumpy().tolist() == [[1.0, 2.0]] * 3
    assert c.dumps() == '["constant", {"value": [1.0, 2.0]}]'
    assert init.Constant(np.array([3, 4])).dumps() == '["constant", {"value": [3, 4]}]'


def test_set_verbosity_logs(caplog):
    with caplog.at_level(logging.INFO):
        init.Constant(2.0).set_verbosity(True)(_desc("fc_weight"), mx.nd.zeros((4,)))
    assert "Initialized fc_weight as weight: 2.0" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.INFO):
        init.One().set_verbosity(True, print_func=lambda a: "stat")(_desc("b_bias"),
                                                                    mx.nd.zeros((1,)))
    assert "Initialized b_bias as bias: stat" in caplog.text


# --------------------------------------------------------------------------------------------
# FusedRNN, Load, Mixed


def test_fused_rnn_string_init_and_lstm_forget_bias_layout():
    # 1.9.1 raised KeyError for a JSON string here; the string form now works
    h, i = 2, 3
    fused = init.FusedRNN(init.Constant(0.5).dumps(), num_hidden=h, num_layers=1, mode="lstm",
                          forget_bias=2.0)
    size = TABLE.fused_size(h, 1, "lstm", num_input=i)
    arr = mx.nd.zeros((size,))
    fused(_desc("rnn_weight"), arr)
    flat = arr.asnumpy()
    n_weights = 4 * h * i + 4 * h * h
    assert (flat[:n_weights] == 0.5).all()
    biases = flat[n_weights:].reshape(2, 4, h)  # (i2h, h2h) x gates (i, f, c, o) x hidden
    expected = np.zeros((2, 4, h))
    expected[:, 1] = 2.0
    np.testing.assert_array_equal(biases, expected)


def test_fused_rnn_uses_global_init_when_none():
    fused = init.FusedRNN(None, num_hidden=2, num_layers=1, mode="gru")
    arr = mx.nd.zeros((TABLE.fused_size(2, 1, "gru"),))
    init.Constant(3.0)(_desc("rnn_parameters", __init__=fused.dumps()), arr)
    flat = arr.asnumpy()
    n_weights = 3 * 2 * 3 + 3 * 2 * 2
    assert (flat[:n_weights] == 3.0).all() and (flat[n_weights:] == 0.0).all()


def test_load_from_file_and_verbose(tmp_path, caplog):
    fname = str(tmp_path / "p.params")
    mx.nd.save(fname, {"arg:w": mx.nd.array([[1, 2]]), "aux:m": mx.nd.array([7])})
    loader = init.Load(fname, default_init=init.Zero(), verbose=True)
    w, m, other = mx.nd.zeros((1, 2)), mx.nd.zeros((1,)), mx.nd.ones((2,))
    with caplog.at_level(logging.INFO):
        loader("w", w)
        loader("m", m)
        loader(_desc("b_bias"), other)
    assert w.asnumpy().tolist() == [[1, 2]] and m.asnumpy().tolist() == [7]
    assert other.asnumpy().tolist() == [0, 0]
    assert "Initialized w by loading" in caplog.text
    assert "Initialized b_bias by default" in caplog.text
    with pytest.raises(AssertionError):
        init.Load([1, 2])


def test_mixed_matches_from_the_start():
    mixed = init.Mixed(["conv", ".*"], [init.One(), init.Zero()])
    a, b = mx.nd.full((2,), 5), mx.nd.full((2,), 5)
    mixed(_desc("conv1_weight"), a)
    mixed(_desc("myconv_weight"), b)  # re.match: 'conv' must start the name
    assert a.asnumpy().tolist() == [1, 1] and b.asnumpy().tolist() == [0, 0]
    with pytest.raises(AssertionError):
        init.Mixed(["a", "b"], [init.One()])


# --------------------------------------------------------------------------------------------
# random initializers: bounds and moments


@pytest.fixture(autouse=True)
def _seed():
    mx.random.seed(11)


def test_uniform_bounds_and_moments():
    arr = mx.nd.zeros((200, 100))
    init.Uniform(0.5)(_desc("fc_weight"), arr)
    x = arr.asnumpy()
    assert x.min() >= -0.5 and x.max() < 0.5
    assert abs(x.mean()) < 0.01 and abs(x.var() - 0.25 / 3) < 0.003


def test_normal_moments_and_dtype():
    arr = mx.nd.zeros((200, 100), dtype="float64")
    init.Normal(2.0)(_desc("fc_weight"), arr)
    x = arr.asnumpy()
    assert x.dtype == np.float64
    assert abs(x.mean()) < 0.05 and abs(x.std() - 2.0) < 0.05


@pytest.mark.parametrize("shape,factor_type,fan", [
    ((64, 32), "avg", (32 + 64) / 2), ((64, 32), "in", 32), ((64, 32), "out", 64),
    ((16, 8, 3, 3), "avg", (8 * 9 + 16 * 9) / 2), ((16, 8, 3, 3), "in", 72),
])
def test_xavier_scale(shape, factor_type, fan):
    scale = np.sqrt(3 / fan)
    arr = mx.nd.zeros(shape)
    init.Xavier(factor_type=factor_type)(_desc("w_weight"), arr)
    x = arr.asnumpy()
    assert np.abs(x).max() <= scale and np.abs(x).max() > 0.9 * scale
    arr = mx.nd.zeros((200,) + shape[1:])
    init.Xavier("gaussian", factor_type, magnitude=2)(_desc("w_weight"), arr)
    fan_g = {"avg": (shape[1] + 200) / 2, "in": shape[1], "out": 200}[factor_type]
    fan_g *= int(np.prod(shape[2:]))
    assert abs(arr.asnumpy().std() / np.sqrt(2 / fan_g) - 1) < 0.1


def test_xavier_errors():
    with pytest.raises(ValueError):
        init.Xavier()(_desc("w_weight"), mx.nd.zeros((5,)))
    with pytest.raises(ValueError):
        init.Xavier(factor_type="sideways")(_desc("w_weight"), mx.nd.zeros((5, 5)))
    with pytest.raises(ValueError):
        init.Xavier(rnd_type="cauchy")(_desc("w_weight"), mx.nd.zeros((5, 5)))


def test_msraprelu_std():
    arr = mx.nd.zeros((300, 100))
    init.MSRAPrelu(factor_type="in", slope=0.0)(_desc("w_weight"), arr)
    assert abs(arr.asnumpy().std() / np.sqrt(2 / 100) - 1) < 0.05
    assert init.MSRAPrelu()._kwargs == {"factor_type": "avg", "slope": 0.25}


@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (3, 2, 2), (5, 5)])
@pytest.mark.parametrize("rand_type", ["uniform", "normal"])
def test_orthogonal(shape, rand_type):
    arr = mx.nd.zeros(shape)
    init.Orthogonal(scale=2.0, rand_type=rand_type)(_desc("w_weight"), arr)
    m = arr.asnumpy().reshape(shape[0], -1) / 2.0
    gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    np.testing.assert_allclose(gram, np.eye(gram.shape[0]), atol=1e-5)
