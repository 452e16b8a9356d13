"""Regressions found by a compatibility sweep of d2l.ai-style code (MXNet edition: attention,
NLP, recommender systems, optimization) against MXNet 1.9.1.

Literal expected values were recorded from MXNet 1.9.1 unless a comment says otherwise.
"""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import gluon, npx




_PRED = [[-2.0, 0.5, 3.0], [1.0, -1.0, 0.0]]
_LABEL = [[0, 1, 1], [1, 0, 0.5]]


@pytest.mark.parametrize("hybridize", [False, True])
def test_np_mode_losses_average_after_first_axis_whatever_batch_axis(np_mode, hybridize):
    # 1.9.1 in np mode: L2/L1/SigmoidBCE/SoftmaxCE average every axis but the first, even
    # with batch_axis=1 (legacy mode honours batch_axis; see the next test)
    np = np_mode
    pred, label = np.array(_PRED), np.array(_LABEL)
    cases = [(gluon.loss.L2Loss(batch_axis=1), [1.375, 0.20833]),
             (gluon.loss.L1Loss(batch_axis=1), [1.5, 0.5]),
             (gluon.loss.SigmoidBCELoss(batch_axis=1), [0.21653, 0.43989])]
    for loss, want in cases:
        if hybridize:
            loss.hybridize()
        out = loss(pred, label)
        assert out.shape == (2,)
        onp.testing.assert_allclose(out.asnumpy(), want, rtol=1e-4)
    sce = gluon.loss.SoftmaxCELoss(axis=1, batch_axis=2)
    if hybridize:
        sce.hybridize()
    p3 = np.arange(24, dtype="float32").reshape(2, 3, 4) / 10
    out = sce(p3, np.array([[0, 1, 2, 0], [2, 1, 0, 1]]))
    assert out.shape == (2,)
    onp.testing.assert_allclose(out.asnumpy(), [1.25125, 1.15125], rtol=1e-4)


def test_legacy_mode_losses_honour_batch_axis():
    pred, label = mx.nd.array(_PRED), mx.nd.array(_LABEL)
    out = gluon.loss.L2Loss(batch_axis=1)(pred, label)
    assert out.shape == (3,)
    onp.testing.assert_allclose(out.asnumpy(), [1.0, 0.3125, 1.0625], rtol=1e-5)
    out = gluon.loss.SigmoidBCELoss(batch_axis=1)(pred, label)
    onp.testing.assert_allclose(out.asnumpy(), [0.22009, 0.39367, 0.37087], rtol=1e-4)


def test_np_round_scales_step_by_step_in_the_dtype(np_mode):
    # 1.9.1 multiplies (or divides) by 10 once per decimal in the array's dtype, rounds half
    # to even and scales back the same way; the last bits differ from NumPy's around
    np = np_mode
    x = np.array([0.81, -1.234, 3.14159, -3.14159, 0.125, 2.675, 123.456, 2.5e-3], dtype="float32")
    got = np.round(x, 2).asnumpy()
    want = onp.array([0.8100000619888306, -1.2300000190734863, 3.1399998664855957,
                      -3.1399998664855957, 0.12000000476837158, 2.679999828338623,
                      123.45999908447266, 0.0], dtype="float32")
    assert got.tobytes() == want.tobytes()
    got = np.round(x, 3).asnumpy()
    assert got[[0, 2, 6, 7]].tolist() == [0.8100000619888306, 3.142000198364258,
                                          123.45599365234375, 0.001999999862164259]
    assert np.round(x, -1).asnumpy().tolist() == [0.0, -0.0, 0.0, -0.0, 0.0, 0.0, 120.0, 0.0]
    x64 = np.array([0.81, 3.14159, -0.12], dtype="float64")
    assert np.round(x64, 2).asnumpy().tolist() == [0.8099999999999999, 3.1399999999999997, -0.12]
    # the beta ** t table of d2l's momentum chapter
    assert (np.round(0.9 ** np.arange(3), 5).asnumpy().tolist()
            == [1.0, 0.8999999761581421, 0.8100000619888306])


def test_np_round_of_integers_with_negative_decimals_truncates(np_mode):
    np = np_mode
    xi = np.array([-17, -15, -25, 17, 15, 25, 5, -5, 0, 2147483647, 123456789], dtype="int32")
    r = np.round(xi, -1)
    assert r.dtype == onp.int32
    assert r.asnumpy().tolist() == [-10, -10, -20, 10, 10, 20, 0, 0, 0, 2147483640, 123456780]
    assert np.round(xi, -2).asnumpy().tolist()[-2:] == [2147483600, 123456700]
    assert np.round(xi, 3).asnumpy().tolist() == xi.asnumpy().tolist()
    assert np.round(np.array([17, 250, 99], dtype="uint8"), -1).asnumpy().tolist() == [10, 250, 90]
    assert np.round(np.array([-17, 120, 99], dtype="int8"), -1).asnumpy().tolist() == [-10, 120, 90]
    assert np.round(np.arange(5, dtype="int32") * 17, -1).asnumpy().tolist() == [0, 10, 30, 50, 60]


def test_np_mod_zero_remainder_signs(np_mode):
    # the sign of an exact zero remainder, recorded from 1.9.1 (NumPy gives the divisor's)
    np = np_mode
    a = np.array([-4.0, 4.0, -3.0, 3.0, -0.0, 0.0, 2.5, -2.5])

    def signs(x):
        return [repr(float(v)) for v in x.asnumpy()]

    assert signs(a % 2.0) == ["0.0", "0.0", "1.0", "1.0", "-0.0", "0.0", "0.5", "1.5"]
    assert signs(np.mod(a, np.full(a.shape, -2.0))) == \
        ["-0.0", "0.0", "-1.0", "-1.0", "0.0", "0.0", "-1.5", "-0.5"]
    assert signs(a % -1.5) == ["-1.0", "-0.5", "-0.0", "0.0", "0.0", "0.0", "-0.5", "-1.0"]
    assert signs(0.0 % a) == ["0.0"] * 8
    assert signs(np.mod(a.astype("float64"), -2.0)) == \
        ["-0.0", "0.0", "-1.0", "-1.0", "0.0", "0.0", "-1.5", "-0.5"]
    assert signs(a % 0.0) == ["0.0"] * 8


def _graph_ops(block, x, tmp_path):
    import json
    block.hybridize()
    block(x)
    block.export(str(tmp_path / "net"))
    nodes = json.loads((tmp_path / "net-symbol.json").read_text())["nodes"]
    return [(n["op"], n["name"]) for n in nodes]


def test_np_mode_dropout_without_rate_exports_np_copy(np_mode, tmp_path):
    # 1.9.1 writes a rate-0 Dropout under np semantics as ``_np_copy`` (legacy: ``_copy``)
    drop = gluon.nn.Dropout(0.0, prefix="drop_")
    assert _graph_ops(drop, np_mode.ones((2, 2)), tmp_path) == [("null", "data"),
                                                               ("_np_copy", "drop_copy0")]
    out = gluon.nn.Dropout(0.0)(np_mode.ones((2, 2)))
    assert isinstance(out, np_mode.ndarray) and out.asnumpy().tolist() == [[1, 1], [1, 1]]


def test_legacy_dropout_without_rate_exports_copy(tmp_path):
    drop = gluon.nn.Dropout(0.0, prefix="drop_")
    assert _graph_ops(drop, mx.nd.ones((2, 2)), tmp_path) == [("null", "data"),
                                                              ("_copy", "drop_identity0")]


@pytest.mark.parametrize("make, shape, want", [
    (lambda: gluon.nn.Flatten(prefix="f_"), (2, 3, 4), [("Flatten", "f_batch_flatten0")]),
    (lambda: gluon.nn.LayerNorm(prefix="ln_"), (2, 3, 4), [("LayerNorm", "ln_layer_norm0")]),
    (lambda: gluon.nn.ELU(prefix="elu_"), (2, 3), [("LeakyReLU", "elu_leaky_relu0")]),
    (lambda: gluon.nn.Swish(prefix="sw_"), (2, 3), [("_npi_multiply_scalar", "sw_multiply_scalar0"),
                                                    ("_npx_sigmoid", "sw_sigmoid0"),
                                                    ("_npi_multiply", "sw_multiply0")]),
])
def test_np_mode_layer_node_names_follow_1_9_1(np_mode, tmp_path, make, shape, want):
    # node names of graphs exported under np semantics, recorded from 1.9.1
    blk = make()
    blk.initialize()
    ops = [o for o in _graph_ops(blk, np_mode.ones(shape), tmp_path) if o[0] != "null"]
    assert ops == want


def test_np_mode_rnn_layer_names_its_param_concat(np_mode, tmp_path):
    lstm = gluon.rnn.LSTM(4, prefix="lstm_")
    lstm.initialize()
    ops = [o for o in _graph_ops(lstm, np_mode.ones((2, 3, 8)), tmp_path) if o[0] != "null"]
    assert ops[-2:] == [("_rnn_param_concat", "lstm_rnn_param_concat0"), ("RNN", "lstm_rnn0")]
    # legacy mode keeps the leading underscore, as 1.9.1 does
    npx.reset_np()
    lstm = gluon.rnn.LSTM(4, prefix="lstm_")
    lstm.initialize()
    ops = [o for o in _graph_ops(lstm, mx.nd.ones((2, 3, 8)), tmp_path) if o[0] != "null"]
    assert ops[-2:] == [("_rnn_param_concat", "lstm__rnn_param_concat0"), ("RNN", "lstm_rnn0")]


@pytest.mark.parametrize("hybridize", [False, True])
def test_np_mode_float16_losses_average_with_numpy_mean(np_mode, hybridize):
    # 1.9.1's np-mode losses average with np.mean, whose float16 result differs from the
    # legacy mean's (0.86474609375 here, where mx.nd.mean gives 0.865234375)
    rs = onp.random.RandomState(0)
    pred = np_mode.array(rs.normal(size=(3, 4)).astype("float16"), dtype="float16")
    label = np_mode.array((rs.rand(3, 4) > 0.5).astype("float16"), dtype="float16")
    loss = gluon.loss.L2Loss()
    if hybridize:
        loss.hybridize()
    out = loss(pred, label)
    assert out.dtype == onp.float16
    assert out.asnumpy().tolist() == [0.86474609375, 1.08984375, 0.2239990234375]
    z = np_mode.array(rs.normal(size=(4, 300)), dtype="float16")
    assert loss(z, z * 0.5).asnumpy().tolist() == [0.122314453125, 0.128173828125,
                                                   0.11907958984375, 0.10748291015625]


def test_np_mode_dense_label_softmax_ce_sums_with_numpy_sum(np_mode):
    rs = onp.random.RandomState(0)
    pred = rs.normal(size=(3, 400)).astype("float16")
    label = onp.abs(rs.normal(size=(3, 400))).astype("float16")
    loss = gluon.loss.SoftmaxCELoss(sparse_label=False, from_logits=True)
    out = loss(np_mode.array(pred, dtype="float16"), np_mode.array(label, dtype="float16"))
    assert out.asnumpy().tolist() == [2.404296875, 28.1875, -40.5625]
    npx.reset_np()   # the legacy sum rounds the first row differently
    out = loss(mx.nd.array(pred, dtype="float16"), mx.nd.array(label, dtype="float16"))
    assert out.asnumpy().tolist() == [2.40625, 28.1875, -40.5625]


def test_legacy_mod_zero_remainder_signs():
    a = mx.nd.array([-4.0, 4.0, -3.0, 3.0, -0.0, 0.0, 2.5, -2.5])

    def signs(x):
        return [repr(float(v)) for v in x.asnumpy()]

    # recorded from 1.9.1
    assert signs(mx.nd.broadcast_mod(a, mx.nd.array([2.0]))) == \
        ["0.0", "0.0", "1.0", "1.0", "-0.0", "0.0", "0.5", "1.5"]
    assert signs(a % -2.0) == ["-0.0", "0.0", "-1.0", "-1.0", "0.0", "0.0", "-1.5", "-0.5"]
    assert signs(mx.nd.modulo(a, mx.nd.full((8,), -2.0))) == \
        ["-0.0", "0.0", "-1.0", "-1.0", "0.0", "0.0", "-1.5", "-0.5"]
