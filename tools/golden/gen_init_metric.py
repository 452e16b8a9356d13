"""Record deterministic initializer outputs and metric values under 1.9.1.

Run with the reference interpreter (never with this repository's mxnet), from the repo root::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_init_metric.py

This module must stay importable without mxnet: ``tests/test_initializer.py`` and
``tests/test_metric.py`` import it and replay every case against this repository's mxnet with
the same builder functions (each takes the ``mx`` module to use).

``tests/golden/init_metric.npz`` holds
  * ``init/<id>``                -- the filled array of initializer case <id>,
  * ``metric/<id>/<batch>/label<i>`` and ``.../pred<i>`` -- the metric inputs;
``tests/golden/init_metric.json`` holds
  * ``init``:   {<id>: {"error": <exception class name or null>, "dumps": <str or null>}},
  * ``metric``: {<id>: {"config": ..., "steps": [record after each step], "str": ...}}.

Initializer cases start from an array filled with -9 so that every written value shows.
Random initializers (Uniform, Normal, Xavier, MSRAPrelu, Orthogonal) are not recorded: our
random streams differ from 1.9.1's, so the tests check them by bounds and moments.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "init_metric.npz"
OUT_JSON = REPO / "tests" / "golden" / "init_metric.json"


# ============================================================================================
# initializers
# ============================================================================================
def _name_code(name):
    return sum((i + 1) * ord(c) for i, c in enumerate(name)) % 101


def name_fill_class(mx):
    """An initializer whose values identify the parameter name (to check packed layouts)."""

    class NameFill(mx.init.Initializer):
        def _init_weight(self, name, arr):
            arr[:] = _name_code(name) + 0.01 * np.arange(arr.size).reshape(arr.shape)

        def _init_bias(self, name, arr):
            arr[:] = -_name_code(name) - 0.01 * np.arange(arr.size).reshape(arr.shape)

    return NameFill


def build_init(mx, spec):
    """Make an initializer from a JSON-able spec."""
    kind = spec[0]
    if kind == "create":
        return mx.init.create(spec[1])
    if kind == "new":  # class name, kwargs
        return getattr(mx.init, spec[1])(**spec[2])
    if kind == "namefill":
        return name_fill_class(mx)()
    if kind == "constant_arr":
        return mx.init.Constant(mx.nd.array(spec[1]))
    if kind == "fused":
        inner = None if spec[1] is None else build_init(mx, spec[1])
        return mx.init.FusedRNN(inner, **spec[2])
    if kind == "mixed":
        return mx.init.Mixed(spec[1], [build_init(mx, s) for s in spec[2]])
    if kind == "load":
        params = {k: mx.nd.array(v) for k, v in spec[1].items()}
        default = None if spec[2] is None else build_init(mx, spec[2])
        return mx.init.Load(params, default_init=default)
    raise ValueError(kind)


def fused_size(num_hidden, num_layers, mode, bidirectional=False, num_input=3, **_):
    m = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}[mode]
    b = 2 if bidirectional else 1
    h = num_hidden
    return (num_input + h + 2) * h * m * b + (num_layers - 1) * m * h * (h + b * h + 2) * b


def _c(value):
    return ["create", json.dumps(["constant", {"value": value}])]


# each case: id, init spec, parameter name, attrs (None: call with a plain string, the
# deprecated form), shape, dtype
INIT_CASES = []


def _ic(cid, init, name, shape, attrs=None, legacy=False, dtype="float32"):
    INIT_CASES.append(dict(id=cid, init=init, name=name, attrs=attrs, legacy=legacy,
                           shape=list(shape), dtype=dtype))


_ic("zero_weight", ["create", "zeros"], "fc_weight", (3, 4))
_ic("one_weight", ["new", "One", {}], "fc_weight", (3, 4))
_ic("ones_alias_weight", ["create", "ones"], "fc_weight", (2, 2), dtype="float64")
_ic("constant_weight_f64", _c(0.3), "fc_weight", (2, 5), dtype="float64")
_ic("constant_weight_f16", _c(0.3), "fc_weight", (4,), dtype="float16")
_ic("constant_weight_int32", _c(3), "fc_weight", (2, 3), dtype="int32")
_ic("constant_array_value", ["constant_arr", [[1.0, 2.0, 3.0]]], "fc_weight", (2, 3))
for _suffix in ("weight", "bias", "gamma", "beta", "min", "max", "bias_quantize",
                "moving_mean", "moving_var", "running_mean", "data"):
    _ic(f"dispatch_{_suffix}", _c(7.0), f"layer0_{_suffix}", (2, 3),
        dtype="int8" if "quantize" in _suffix else "float32")
for _name, _shape in (("upsampling0_weight", (1, 1, 4, 4)), ("upsampling_w", (2, 3, 5, 6)),
                      ("stn_loc_weight", (6, 4)), ("stn_loc_bias", (6,)), ("stn_loc_bias", (5,)),
                      ("fc_bias", (3,)), ("bn_gamma", (3,)), ("bn_beta", (3,)),
                      ("fc_weight", (2, 3)), ("bn_moving_mean", (3,)), ("bn_moving_var", (3,)),
                      ("bn_moving_inv_var", (3,)), ("bn_moving_avg", (3,)), ("q_min", (1,)),
                      ("q_max", (1,)), ("something", (2,))):
    _ic(f"legacy_{_name}_{len(_shape)}d{_shape[0]}", _c(7.0), _name, _shape, legacy=True)
for _shape in ((2, 3, 4, 4), (1, 1, 3, 5), (1, 2, 7, 7), (1, 1, 1, 1)):
    _ic("bilinear_" + "x".join(map(str, _shape)), ["new", "Bilinear", {}], "up_weight", _shape)
_ic("lstmbias_default", ["new", "LSTMBias", {}], "lstm_i2h_weight", (8,))
_ic("lstmbias_2_5", ["create", '["lstmbias", {"forget_bias": 2.5}]'], "lstm_weight", (12,))
_ic("lstmbias_bias_name", ["new", "LSTMBias", {}], "lstm_i2h_bias", (8,))  # bias rule wins
_ic("attr_init_bias", ["create", "zero"], "fc_bias", (3,),
    attrs={"__init__": json.dumps(["constant", {"value": 2.5}])})
_ic("attr_init_nosuffix", ["create", "zero"], "stuff", (2, 2),
    attrs={"__init__": json.dumps(["one", {}])})
_ic("attr_init_lstmbias", ["create", "zero"], "h2h_bias", (8,),
    attrs={"__init__": json.dumps(["lstmbias", {"forget_bias": 3.0}])})
_ic("attr_init_bilinear", ["create", "one"], "x_weight", (1, 1, 4, 4),
    attrs={"__init__": json.dumps(["bilinear", {}])})
_ic("attr_empty", _c(4.0), "fc_weight", (2,), attrs={"__init__": ""})
_ic("attr_other_keys", _c(4.0), "fc_weight", (2,), attrs={"lr_mult": "2"})
for _mode in ("lstm", "gru", "rnn_tanh", "rnn_relu"):
    for _layers, _bi in ((1, False), (2, True)):
        _kw = dict(num_hidden=2, num_layers=_layers, mode=_mode, bidirectional=_bi,
                   forget_bias=0.7)
        _ic(f"fused_{_mode}_{_layers}{'bi' if _bi else ''}", ["fused", ["namefill"], _kw],
            "rnn_weight", (fused_size(**_kw),))
_ic("fused_parameters_name", ["fused", _c(0.25), dict(num_hidden=2, num_layers=1, mode="gru")],
    "rnn_parameters", (fused_size(2, 1, "gru"),))  # not a weight name: the default rule fails
_kw = dict(num_hidden=3, num_layers=2, mode="lstm", bidirectional=False)
_ic("fused_lstm_via_attr_global", ["namefill"], "rnn_parameters", (fused_size(**_kw),),
    attrs={"__init__": json.dumps(["fusedrnn", dict(init=None, forget_bias=1.0, **_kw)])})
_ic("fused_constant_inner", ["fused", _c(0.25), dict(num_hidden=2, num_layers=1, mode="gru")],
    "rnn_weight", (fused_size(2, 1, "gru"),))
_ic("fused_bad_size", ["fused", _c(0.25), dict(num_hidden=2, num_layers=1, mode="gru")],
    "rnn_weight", (fused_size(2, 1, "gru") + 1,))
_ic("mixed", ["mixed", ["fc.*", "conv", ".*"], [_c(1.0), _c(2.0), ["create", "zeros"]]],
    "conv1_weight", (2, 2))
_ic("mixed_fallback", ["mixed", ["fc.*", "conv", ".*"], [_c(1.0), _c(2.0), _c(3.0)]],
    "bn_gamma", (2,))
_ic("mixed_nomatch", ["mixed", ["fc.*"], [_c(1.0)]], "bn_gamma", (2,))
_ic("load_found", ["load", {"arg:fc_weight": [[1, 2], [3, 4]], "aux:bn_moving_mean": [5, 6]},
                   None], "fc_weight", (2, 2))
_ic("load_aux", ["load", {"arg:fc_weight": [[1, 2], [3, 4]], "aux:bn_moving_mean": [5, 6]},
                 None], "bn_moving_mean", (2,))
_ic("load_default", ["load", {"fc_weight": [[1, 2], [3, 4]]}, _c(8.0)], "fc2_weight", (2, 2))
_ic("load_missing", ["load", {"fc_weight": [[1, 2], [3, 4]]}, None], "fc2_weight", (2, 2))
_ic("load_shape_mismatch", ["load", {"fc_weight": [[1, 2], [3, 4]]}, None], "fc_weight", (4,))

# dumps() of every registered initializer
DUMPS_CASES = [
    ["new", "Zero", {}], ["new", "One", {}], ["new", "Constant", {"value": 2}],
    ["constant_arr", [[1.0, 2.0], [3.0, 4.0]]], ["new", "Uniform", {}],
    ["new", "Uniform", {"scale": 0.5}], ["new", "Normal", {"sigma": 2}],
    ["new", "Orthogonal", {}], ["new", "Orthogonal", {"scale": 2.0, "rand_type": "normal"}],
    ["new", "Xavier", {"rnd_type": "gaussian", "factor_type": "in", "magnitude": 2}],
    ["new", "MSRAPrelu", {}], ["new", "MSRAPrelu", {"factor_type": "out", "slope": 0.1}],
    ["new", "Bilinear", {}], ["new", "LSTMBias", {"forget_bias": 2.0}],
    ["fused", ["new", "Xavier", {}], dict(num_hidden=4, num_layers=2, mode="gru")],
    ["fused", None, dict(num_hidden=4, num_layers=1, mode="lstm", bidirectional=True)],
]


def run_init_case(mx, case):
    """Apply the case's initializer; returns (array or None, error class name or None)."""
    init = build_init(mx, case["init"])
    arr = mx.nd.array(np.full(case["shape"], -9), dtype=case["dtype"])
    name = case["name"]
    if not case["legacy"]:
        name = mx.init.InitDesc(name, attrs=case["attrs"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            init(name, arr)
    except Exception as e:  # noqa: BLE001  (the class is what is recorded)
        return None, type(e).__name__
    return arr.asnumpy(), None


# ============================================================================================
# metrics
# ============================================================================================
def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def make_metric_inputs():
    """{batch key: (labels, preds, bare)} -- lists of NumPy arrays; ``bare`` passes the single
    label / pred as an NDArray rather than a list."""
    rs = np.random.RandomState(1234)
    f32 = np.float32
    B = {}

    def cls(n, c, seed_shift=0):
        pred = _softmax(rs.randn(n, c) * 2).astype(f32)
        label = rs.randint(0, c, size=n).astype(f32)
        return label, pred

    for i in range(3):
        lab, pr = cls(8, 5)
        B[f"cls5_{i}"] = ([lab], [pr], False)
    l1, p1 = cls(6, 5)
    l2, p2 = cls(4, 5)
    B["cls5_two"] = ([l1, l2], [p1, p2], False)
    l1, p1 = cls(8, 5)
    B["cls5_bare"] = (l1, p1, True)
    B["cls5_col"] = ([l1.reshape(8, 1)], [p1], False)
    B["cls5_len_mismatch"] = ([l1[:7]], [p1], False)
    B["cls5_list_mismatch"] = ([l1, l1], [p1], False)
    B["ids"] = ([np.array([0, 1, 2, 3, 2], f32)], [np.array([0, 1.7, 2.2, 1, -0.5], f32)], False)
    B["acc_axis"] = ([rs.randint(0, 4, (2, 3)).astype(f32)], [rs.rand(2, 3, 4).astype(f32)], False)
    B["acc_axis0"] = ([rs.randint(0, 3, (4,)).astype(f32)], [rs.rand(3, 4).astype(f32)], False)
    for i in range(2):
        lab, pr = cls(8, 10)
        B[f"cls10_{i}"] = ([lab], [pr], False)
    B["topk_1d"] = ([np.array([3, 0, 1, 2], f32)], [np.array([0.1, 0.5, 0.3, 0.2], f32)], False)
    B["topk_3d"] = ([np.zeros(2, f32)], [rs.rand(2, 3, 4).astype(f32)], False)
    for i in range(3):
        lab = rs.randint(0, 2, 10).astype(f32)
        pr = _softmax(rs.randn(10, 2)).astype(f32)
        B[f"bin_{i}"] = ([lab], [pr], False)
    B["bin_allneg"] = ([np.zeros(4, f32)], [np.array([[0.9, 0.1]] * 4, f32)], False)
    B["bin_allpos_right"] = ([np.ones(3, f32)], [np.array([[0.2, 0.8]] * 3, f32)], False)
    B["bin_two"] = ([rs.randint(0, 2, 5).astype(f32), rs.randint(0, 2, 3).astype(f32)],
                    [_softmax(rs.randn(5, 2)).astype(f32), _softmax(rs.randn(3, 2)).astype(f32)],
                    False)
    B["bin_three_classes"] = ([np.array([0, 1, 2], f32)], [_softmax(rs.randn(3, 2)).astype(f32)],
                              False)
    for i in range(3):
        B[f"reg1d_{i}"] = ([rs.randn(6).astype(f32)], [rs.randn(6).astype(f32)], False)
    B["reg2d"] = ([rs.randn(4, 3).astype(f32)], [rs.randn(4, 3).astype(f32)], False)
    B["reg_two"] = ([rs.randn(5).astype(f32), rs.randn(2, 2).astype(f32)],
                    [rs.randn(5).astype(f32), rs.randn(2, 2).astype(f32)], False)
    B["reg_f64"] = ([rs.randn(7)], [rs.randn(7)], False)
    B["reg_bcast"] = ([rs.randn(4).astype(f32)], [rs.randn(4, 2).astype(f32)], False)
    B["reg_mismatch"] = ([rs.randn(4).astype(f32)], [rs.randn(3).astype(f32)], False)
    B["ce_rows_mismatch"] = ([rs.randint(0, 5, 8).astype(f32)], [_softmax(rs.randn(7, 5)).astype(f32)],
                             False)
    lab, pr = cls(6, 4)
    lab[[1, 4]] = 2
    B["perp_ign2"] = ([lab], [pr], False)
    lab, pr = cls(6, 4)
    lab[[0, 3]] = -1
    B["perp_ignm1"] = ([lab], [pr], False)
    B["perp_3d"] = ([rs.randint(0, 4, (2, 3)).astype(f32)], [_softmax(rs.randn(2, 3, 4)).astype(f32)],
                    False)
    B["perp_square_axis0"] = ([rs.randint(0, 3, 3).astype(f32)], [_softmax(rs.randn(3, 3)).astype(f32)],
                              False)
    B["perp_tiny"] = ([np.array([0, 1], f32)], [np.array([[0.0, 1.0], [1.0, 0.0]], f32)], False)
    for i in range(3):
        lab = rs.randn(8).astype(f32)
        B[f"corr_{i}"] = ([lab], [(lab + rs.randn(8) * 0.7).astype(f32)], False)
    B["corr_2d"] = ([rs.randn(3, 2).astype(f32)], [rs.randn(3, 2).astype(f32)], False)
    B["corr_shape_mismatch"] = ([rs.randn(6).astype(f32)], [rs.randn(3, 2).astype(f32)], False)
    for i in range(2):
        lab = rs.randint(0, 3, 9).astype(f32)
        B[f"pcc_{i}"] = ([lab], [_softmax(rs.randn(9, 3)).astype(f32)], False)
    B["pcc_grow"] = ([np.array([0, 4, 2, 1, 4], f32)], [_softmax(rs.randn(5, 5)).astype(f32)], False)
    B["pcc_ids"] = ([np.array([0, 1, 2, 2], f32)], [np.array([0, 2, 2, 1], f32)], False)
    B["pcc_const"] = ([np.zeros(4, f32)], [np.array([[1, 0]] * 4, f32)], False)
    B["loss_1"] = ([], [rs.rand(4).astype(f32)], False)
    B["loss_2"] = ([], [rs.rand(2, 3).astype(f32), rs.rand(5).astype(f32)], False)
    B["loss_bare"] = ([], rs.rand(3, 3).astype(f32), True)
    return B


def _mean_abs(label, pred):
    return float(np.abs(label - pred).mean())


def _sum_count(label, pred):
    return float(np.abs(label - pred).sum()), label.size


def _argmax_hits(label, pred):
    return float((pred.argmax(axis=1) == label).sum()), len(label)


FEVALS = {"mean_abs": _mean_abs, "sum_count": _sum_count, "argmax_hits": _argmax_hits,
          "lambda": lambda label, pred: 0.5}


def build_metric(mx, spec):
    """Make a metric from a JSON-able spec."""
    kind = spec[0]
    if kind == "create":  # name (or list of names), kwargs
        return mx.metric.create(spec[1], **spec[2])
    if kind == "new":
        return getattr(mx.metric, spec[1])(**spec[2])
    if kind == "custom":
        return mx.metric.create(FEVALS[spec[1]], **spec[2])
    if kind == "np":
        return mx.metric.np(FEVALS[spec[1]], **spec[2])
    if kind == "composite":
        return mx.metric.CompositeEvalMetric([build_metric(mx, s) for s in spec[1]], **spec[2])
    if kind == "config":  # round trip through get_config
        return mx.metric.create(build_metric(mx, spec[1]).get_config())
    raise ValueError(kind)


def _u(*batches):
    return [["update", b] for b in batches]


R, RL = ["reset"], ["reset_local"]
CLS3 = _u("cls5_0", "cls5_1") + [RL] + _u("cls5_2", "cls5_two")
BIN = _u("bin_0", "bin_1") + [RL] + _u("bin_2", "bin_allneg", "bin_two", "bin_allpos_right") + [R] \
    + _u("bin_0", "bin_three_classes")
REG = _u("reg1d_0", "reg1d_1") + [RL] + _u("reg1d_2", "reg2d", "reg_two", "reg_f64", "reg_bcast",
                                           "reg_mismatch", "cls5_list_mismatch")
CE = _u("cls5_0", "cls5_1") + [RL] + _u("cls5_col", "cls5_two", "ce_rows_mismatch",
                                        "cls5_list_mismatch")

METRIC_CASES = [
    dict(id="acc", metric=["create", "acc", {}],
         steps=CLS3 + _u("cls5_bare", "cls5_col", "ids", "cls5_len_mismatch", "cls5_list_mismatch")
         + [R] + _u("cls5_0")),
    dict(id="accuracy_axis_last", metric=["create", "accuracy", {"axis": -1}], steps=_u("acc_axis")),
    dict(id="accuracy_axis0", metric=["new", "Accuracy", {"axis": 0, "name": "acc0"}],
         steps=_u("acc_axis0")),
    dict(id="topk3", metric=["create", "top_k_accuracy", {"top_k": 3}],
         steps=_u("cls10_0") + [RL] + _u("cls10_1", "cls5_0", "topk_1d", "topk_3d")),
    dict(id="topk2_1d", metric=["create", "top_k_acc", {"top_k": 2}], steps=_u("topk_1d", "topk_1d")),
    dict(id="topk6_small", metric=["new", "TopKAccuracy", {"top_k": 6}], steps=_u("cls5_0")),
    dict(id="topk1", metric=["new", "TopKAccuracy", {"top_k": 1}], steps=[]),
    dict(id="f1_macro", metric=["create", "f1", {}], steps=BIN),
    dict(id="f1_micro", metric=["new", "F1", {"average": "micro", "name": "f1m"}], steps=BIN),
    dict(id="mcc_macro", metric=["create", "mcc", {}], steps=BIN),
    dict(id="mcc_micro", metric=["new", "MCC", {"average": "micro"}], steps=BIN),
    dict(id="mae", metric=["create", "mae", {}], steps=REG),
    dict(id="mse", metric=["create", "MSE", {}], steps=REG),
    dict(id="rmse", metric=["create", "rmse", {"name": "r"}], steps=REG),
    dict(id="ce", metric=["create", "ce", {}], steps=CE),
    dict(id="ce_eps", metric=["new", "CrossEntropy", {"eps": 0.1}], steps=CE),
    dict(id="nll", metric=["create", "nll_loss", {}], steps=CE),
    dict(id="perp_none", metric=["create", "perplexity", {"ignore_label": None}],
         steps=CE[:3] + _u("perp_tiny", "cls5_col", "cls5_two", "perp_3d")),
    dict(id="perp_ign2", metric=["new", "Perplexity", {"ignore_label": 2}],
         steps=_u("perp_ign2", "cls5_0") + [RL] + _u("perp_ign2")),
    dict(id="perp_ignm1", metric=["new", "Perplexity", {"ignore_label": -1}],
         steps=_u("perp_ignm1")),
    dict(id="perp_axis0", metric=["new", "Perplexity", {"ignore_label": None, "axis": 0}],
         steps=_u("perp_square_axis0")),
    dict(id="pearson_macro", metric=["create", "pearsonr", {}],
         steps=_u("corr_0", "corr_1") + [RL] + _u("corr_2", "corr_2d", "corr_shape_mismatch")),
    dict(id="pearson_micro", metric=["new", "PearsonCorrelation", {"average": "micro"}],
         steps=_u("corr_0", "corr_1") + [RL] + _u("corr_2", "corr_2d") + [R] + _u("corr_1")),
    dict(id="pcc", metric=["create", "pcc", {}],
         steps=_u("pcc_0", "pcc_1") + [RL] + _u("pcc_grow", "pcc_ids") + [R] + _u("pcc_0")),
    dict(id="pcc_const", metric=["create", "pcc", {}], steps=_u("pcc_const")),
    dict(id="pcc_local_only", metric=["new", "PCC", {"has_global_stats": False}],
         steps=_u("pcc_0") + [RL] + _u("pcc_1")),
    dict(id="loss", metric=["create", "loss", {}],
         steps=_u("loss_1", "loss_2") + [RL] + _u("loss_bare")),
    dict(id="torch", metric=["create", "torch", {}], steps=_u("loss_1")),
    dict(id="caffe", metric=["new", "Caffe", {}], steps=_u("loss_2")),
    dict(id="composite_list", metric=["create", ["acc", "ce", "f1"], {}],
         steps=_u("bin_0", "bin_1") + [RL] + _u("bin_2") + [R] + _u("bin_0")),
    dict(id="composite_nested", metric=["composite", [["create", "acc", {}],
                                                      ["create", ["mse", "mae"], {}]],
                                        {"name": "outer"}],
         steps=_u("cls5_0", "ids")),
    dict(id="composite_dict",
         metric=["composite", [["create", "acc", {"label_names": ["lab_a"]}],
                               ["create", "ce", {"output_names": ["out_b"],
                                                 "label_names": ["lab_b"]}]],
                 {"output_names": ["out_a", "out_b"]}],
         steps=[["update_dict", "cls5_two", ["lab_a", "lab_b"], ["out_a", "out_b"]]]),
    dict(id="composite_dict_ok",
         metric=["composite", [["create", "acc", {"label_names": ["lab_a"], "output_names": ["out_a"]}],
                               ["create", "ce", {"output_names": ["out_b"],
                                                 "label_names": ["lab_b"]}]],
                 {"output_names": ["out_a", "out_b"], "label_names": ["lab_a", "lab_b"]}],
         steps=[["update_dict", "cls5_two", ["lab_a", "lab_b"], ["out_a", "out_b"]]]),
    dict(id="dict_names", metric=["create", "acc", {"output_names": ["o2"], "label_names": ["l2"]}],
         steps=[["update_dict", "cls5_two", ["l1", "l2"], ["o1", "o2"]]]),
    dict(id="dict_all", metric=["create", "mse", {}],
         steps=[["update_dict", "reg_two", ["l1", "l2"], ["o1", "o2"]]]),
    dict(id="custom_mean_abs", metric=["custom", "mean_abs", {}],
         steps=_u("reg1d_0", "reg_two") + [RL] + _u("reg1d_1", "reg_mismatch")),
    dict(id="custom_sum_count", metric=["custom", "sum_count", {"name": "sc"}],
         steps=_u("reg1d_0", "reg_two")),
    dict(id="custom_lambda", metric=["custom", "lambda", {}], steps=_u("reg1d_0")),
    dict(id="custom_extra", metric=["custom", "argmax_hits", {"allow_extra_outputs": True}],
         steps=_u("cls5_0", "cls5_list_mismatch")),
    dict(id="np_wrapper", metric=["np", "argmax_hits", {}], steps=_u("cls5_0", "cls5_two")),
    dict(id="np_named", metric=["np", "mean_abs", {"name": "mabs"}], steps=_u("reg1d_0")),
    dict(id="config_roundtrip_topk", metric=["config", ["create", "top_k_accuracy", {"top_k": 2}]],
         steps=_u("cls5_0")),
    dict(id="config_roundtrip_ce", metric=["config", ["create", "ce", {"eps": 0.01, "name": "x"}]],
         steps=_u("cls5_0")),
    dict(id="create_json", metric=["create", '["acc", {"axis": 1, "name": "jacc"}]', {}],
         steps=_u("cls5_0")),
]


def load_metric_inputs(npz, bare_map):
    """The batches of :func:`make_metric_inputs`, read back from the stored arrays."""
    out = {}
    for key, bare in bare_map.items():
        labels, preds = [], []
        while f"metric/{key}/label{len(labels)}" in npz:
            labels.append(npz[f"metric/{key}/label{len(labels)}"])
        while f"metric/{key}/pred{len(preds)}" in npz:
            preds.append(npz[f"metric/{key}/pred{len(preds)}"])
        out[key] = (labels[0], preds[0], True) if bare else (labels, preds, False)
    return out


def _to_nd(mx, arrs, bare):
    if bare and isinstance(arrs, np.ndarray):
        return mx.nd.array(arrs, dtype=arrs.dtype)
    return [mx.nd.array(a, dtype=a.dtype) for a in arrs]


def _plain(x):
    """JSON-able copy of metric outputs (NumPy scalars to Python numbers)."""
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (np.generic,)):
        return x.item()
    return x


def _num(m, attr):
    v = getattr(m, attr, None)
    return None if v is None else float(v)


def snapshot(m):
    rec = {"get": _plain(m.get()), "get_global": _plain(m.get_global()),
           "get_name_value": _plain(m.get_name_value()),
           "get_global_name_value": _plain(m.get_global_name_value())}
    for attr in ("num_inst", "global_num_inst", "sum_metric", "global_sum_metric"):
        rec[attr] = _num(m, attr)
    return rec


def run_metric_case(mx, case, batches):
    """Run the case; returns {'config', 'steps': [snapshot or {'error'}], 'str'}."""
    try:
        m = build_metric(mx, case["metric"])
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}
    try:
        config = m.get_config()
    except Exception as e:  # noqa: BLE001
        config = {"error": type(e).__name__}
    out = {"config": config, "steps": [], "error": None}
    for step in case["steps"]:
        rec = None
        try:
            if step[0] == "update":
                labels, preds, bare = batches[step[1]]
                m.update(_to_nd(mx, labels, bare), _to_nd(mx, preds, bare))
            elif step[0] == "update_dict":
                labels, preds, _ = batches[step[1]]
                m.update_dict(dict(zip(step[2], _to_nd(mx, labels, False))),
                              dict(zip(step[3], _to_nd(mx, preds, False))))
            else:
                getattr(m, step[0])()
        except Exception as e:  # noqa: BLE001
            rec = {"error": type(e).__name__}
        out["steps"].append(rec or snapshot(m))
    out["str"] = str(m)
    return out


def main():
    import mxnet as mx

    arrays = {}
    record = {"init": {}, "dumps": [], "metric": {}, "bare": {}}
    for case in INIT_CASES:
        arr, err = run_init_case(mx, case)
        if arr is not None:
            arrays[f"init/{case['id']}"] = arr
        record["init"][case["id"]] = {"error": err}
    for spec in DUMPS_CASES:
        record["dumps"].append(build_init(mx, spec).dumps())
    batches = make_metric_inputs()
    for key, (labels, preds, bare) in batches.items():
        record["bare"][key] = bare
        if bare:
            labels, preds = [labels], [preds]
        for i, a in enumerate(labels):
            arrays[f"metric/{key}/label{i}"] = a
        for i, a in enumerate(preds):
            arrays[f"metric/{key}/pred{i}"] = a
    for case in METRIC_CASES:
        record["metric"][case["id"]] = run_metric_case(mx, case, batches)
    np.savez_compressed(OUT_NPZ, **arrays)
    OUT_JSON.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(arrays)} arrays to {OUT_NPZ} and {OUT_JSON}")


if __name__ == "__main__":
    main()
