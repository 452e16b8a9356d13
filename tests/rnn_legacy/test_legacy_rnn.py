"""mx.rnn (the legacy symbolic RNN API) against 1.9.1: unrolled graphs (argument and output
names, JSON), forward/backward numbers, pack/unpack_weights, BucketSentenceIter batches,
RNN checkpoints and a tiny bucketing language model; plus behaviour checked without fixtures.

Fixtures: tests/golden/legacy_rnn.npz, written by tools/golden/gen_legacy_rnn.py, whose
routines this module runs against this repository's mxnet.
"""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

from .._scripts import load_script

GEN = load_script("tools/golden/gen_legacy_rnn.py")
META, ARR = GEN.load_golden()
CASES = {c.id: c for c in GEN.CASES}


def close(actual, expected, what, rtol=1e-5, atol=1e-6):
    actual = np.asarray(actual)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)


# ---------------------------------------------------------------------------------------------
# unrolled cells


@pytest.fixture(scope="module")
def case_results():
    cache = {}

    def get(case_id):
        if case_id not in cache:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cache[case_id] = GEN.run_case(mx, CASES[case_id])
        return cache[case_id]
    return get


@pytest.mark.parametrize("case_id", list(CASES))
def test_symbol_matches_reference(case_id, case_results):
    meta, _ = case_results(case_id)
    ref = META["cases"][case_id]
    for key in ("state_info", "arguments", "outputs", "aux", "n_out", "arg_shapes",
                "out_shapes"):
        assert json.loads(json.dumps(meta[key])) == ref[key], key
    assert json.loads(meta["json"]) == json.loads(ref["json"])
    assert meta["json"] == ref["json"]


@pytest.mark.parametrize("case_id", list(CASES))
def test_numbers_match_reference(case_id, case_results):
    _, arrays = case_results(case_id)
    prefix = case_id + "/"
    expected = {k[len(prefix):]: v for k, v in ARR.items() if k.startswith(prefix)}
    assert sorted(arrays) == sorted(expected)
    for key, want in expected.items():
        close(arrays[key], want, f"{case_id}/{key}")


@pytest.mark.parametrize("case_id", list(CASES))
def test_pack_unpack_matches_reference(case_id, case_results):
    meta, _ = case_results(case_id)
    ref = META["cases"][case_id]
    for key in ("unpack_error", "unpacked", "repack_keys_equal", "repack_equal"):
        assert meta.get(key) == ref.get(key), key


# ---------------------------------------------------------------------------------------------
# iterator, checkpoints, language model


def test_iterator_matches_reference(capsys):
    meta, arrays = GEN.iterator_run(mx)
    ref = META["iterator"]
    assert json.loads(json.dumps(meta)) == ref
    expected = {k: v for k, v in ARR.items() if k.startswith("iter/")}
    assert sorted(arrays) == sorted(expected)
    for key, want in expected.items():
        np.testing.assert_array_equal(arrays[key], want, err_msg=key)
    assert "WARNING: discarded 11 sentences longer than the largest bucket." in \
        capsys.readouterr().out


def test_checkpoint_matches_reference(tmp_path):
    meta, arrays = GEN.checkpoint_run(mx, str(tmp_path))
    assert meta == META["checkpoint"]
    expected = {k: v for k, v in ARR.items() if k.startswith("ck/")}
    assert sorted(arrays) == sorted(expected)
    for key, want in expected.items():
        np.testing.assert_array_equal(arrays[key], want, err_msg=key)


@pytest.mark.parametrize("fused", [False, True], ids=["lstm_cells", "fused"])
def test_bucketing_language_model_matches_reference(fused):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = GEN.train_lm(mx, fused=fused)
    ref = META["lm_fused" if fused else "lm"]
    assert got["arg_names"] == ref["arg_names"]
    close(got["trace"], np.array(ref["trace"]), "training perplexity per batch", rtol=1e-5)
    assert [n for n, _ in got["val"]] == [n for n, _ in ref["val"]]
    close([v for _, v in got["val"]], np.array([v for _, v in ref["val"]]),
          "validation perplexity", rtol=1e-5)


# ---------------------------------------------------------------------------------------------
# behaviour without fixtures


def _forward(sym, values, shapes):
    exe = sym.simple_bind(mx.cpu(), grad_req="null", **shapes)
    for k, v in values.items():
        exe.arg_dict[k][:] = v
    return [o.asnumpy() for o in exe.forward(is_train=False)]


@pytest.mark.parametrize("mode,bi,layers", [("lstm", True, 2), ("gru", False, 2),
                                            ("rnn_tanh", True, 1), ("rnn_relu", False, 1)])
def test_fused_equals_unfused(mode, bi, layers):
    fused = mx.rnn.FusedRNNCell(3, num_layers=layers, mode=mode, bidirectional=bi,
                                prefix="f_")
    data = mx.sym.Variable("data")
    out_f, _ = fused.unroll(3, data, layout="TNC", merge_outputs=True)
    out_u, _ = fused.unfuse().unroll(3, data, layout="TNC", merge_outputs=True)
    shapes = {"data": (3, 2, 4)}
    arg_shapes = dict(zip(out_f.list_arguments(), out_f.infer_shape(**shapes)[0]))
    rng = np.random.RandomState(0)
    flat = rng.uniform(-1, 1, arg_shapes["f_parameters"]).astype(np.float32)
    x = rng.uniform(-1, 1, shapes["data"]).astype(np.float32)
    y_f = _forward(out_f, {"data": x, "f_parameters": flat}, shapes)[0]
    unpacked = fused.unpack_weights({"f_parameters": mx.nd.array(flat)})
    unfused_args = fused.unfuse().pack_weights(unpacked)
    vals = {k: v.asnumpy() for k, v in unfused_args.items()}
    vals["data"] = x
    y_u = _forward(out_u, vals, shapes)[0]
    close(y_u, y_f, "unfused output", rtol=1e-4, atol=1e-5)
    repacked = fused.pack_weights(unpacked)
    np.testing.assert_array_equal(repacked["f_parameters"].asnumpy(), flat)


def test_mx_rnn_namespace():
    for name in ("RNNParams", "BaseRNNCell", "RNNCell", "LSTMCell", "GRUCell", "FusedRNNCell",
                 "SequentialRNNCell", "BidirectionalCell", "DropoutCell", "ModifierCell",
                 "ZoneoutCell", "ResidualCell", "ConvRNNCell", "ConvLSTMCell", "ConvGRUCell",
                 "BaseConvRNNCell", "encode_sentences", "BucketSentenceIter",
                 "save_rnn_checkpoint", "load_rnn_checkpoint", "do_rnn_checkpoint",
                 "rnn_unroll"):
        assert hasattr(mx.rnn, name), name
    assert mx.rnn.rnn_cell.LSTMCell is mx.rnn.LSTMCell
    assert mx.rnn.io.BucketSentenceIter is mx.rnn.BucketSentenceIter


def test_errors_and_rules():
    fused = mx.rnn.FusedRNNCell(2)
    with pytest.raises(NotImplementedError):
        fused(mx.sym.Variable("x"), fused.begin_state())
    with pytest.raises(MXNetError, match="mode"):
        mx.rnn.FusedRNNCell(2, mode="lstmx")
    with pytest.raises(MXNetError, match="num_hidden"):
        mx.rnn.LSTMCell(0)
    with pytest.raises(AssertionError):
        mx.rnn.ZoneoutCell(fused)
    bi = mx.rnn.BidirectionalCell(mx.rnn.RNNCell(2, prefix="a_"), mx.rnn.RNNCell(2, prefix="b_"))
    with pytest.raises(AssertionError):
        mx.rnn.ZoneoutCell(bi)
    with pytest.raises(NotImplementedError):
        bi(mx.sym.Variable("x"), [])
    base = mx.rnn.LSTMCell(2)
    mod = mx.rnn.ResidualCell(base)
    with pytest.raises(AssertionError):
        base.begin_state()
    assert [s.name for s in mod.begin_state()] == ["lstm_begin_state_0", "lstm_begin_state_1"]
    with pytest.raises(AssertionError):
        mx.rnn.DropoutCell("0.5")
    with pytest.raises(AssertionError):
        mx.rnn.LSTMCell(2).unroll(2, None)
    with pytest.raises(AssertionError):
        mx.rnn.LSTMCell(2).unroll(3, [mx.sym.Variable("a")])
    shared = mx.rnn.RNNParams("s_")
    stack = mx.rnn.SequentialRNNCell(params=shared)
    with pytest.raises(AssertionError):
        stack.add(mx.rnn.LSTMCell(2, params=mx.rnn.RNNParams("x_")))
    with pytest.raises(ValueError):
        mx.rnn.BucketSentenceIter([[1, 2], [3, 4]], 1, layout="XY")
    with pytest.raises(AssertionError):
        mx.rnn.encode_sentences([["new"]], vocab={"a": 1})
    with pytest.raises(MXNetError):
        fused.unpack_weights({"lstm_parameters": mx.nd.zeros((7,))})


def test_params_sharing_and_state_shape():
    params = mx.rnn.RNNParams("w_")
    a = mx.rnn.GRUCell(3, prefix="a_", params=params)
    b = mx.rnn.GRUCell(3, prefix="b_", params=params)
    assert a._iW is b._iW and a.params is params
    assert a.state_shape == [(0, 3)]
    fused = mx.rnn.FusedRNNCell(4, num_layers=3, bidirectional=True)
    assert fused.state_shape == [(6, 0, 4), (6, 0, 4)]
    assert fused.begin_state(func=mx.sym.Variable)[1].name == "lstm_begin_state_1"
    with pytest.warns(UserWarning, match="NTC layout"):
        fused.unroll(2, mx.sym.Variable("d"), layout="NTC")


def test_rnn_unroll_deprecated():
    cell = mx.rnn.RNNCell(2)
    with pytest.warns(UserWarning, match="deprecated"):
        out, states = mx.rnn.rnn_unroll(cell, 2, inputs=mx.sym.Variable("data"))
    assert len(out) == 2 and len(states) == 1


def test_zoneout_on_sequential_stack():
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.RNNCell(2, prefix="a_"))
    cell = mx.rnn.ZoneoutCell(stack, zoneout_states=0.5)
    out, states = cell.unroll(2, mx.sym.Variable("data"), merge_outputs=False)
    assert len(out) == 2 and len(states) == 1


def test_begin_state_zeros_take_the_batch_from_inference():
    # legacy shapes: the 0 in zeros((0, 3)) is an unknown dimension (as in 1.9.1), filled in
    # from the other operand whichever side of the graph it is on
    zeros = mx.sym.zeros((0, 3))
    assert zeros.infer_shape_partial() == ([], [(0, 3)], [])
    for sym in (zeros + mx.sym.Variable("x"), mx.sym.Variable("x") + zeros):
        assert sym.infer_shape(x=(2, 3))[1] == [(2, 3)]
        exe = sym.simple_bind(mx.cpu(), x=(2, 3))
        exe.arg_dict["x"][:] = 1
        np.testing.assert_array_equal(exe.forward(is_train=True)[0].asnumpy(), np.ones((2, 3)))
