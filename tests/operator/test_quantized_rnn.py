"""``_contrib_quantized_rnn`` and the quantization flow around ``RNN`` against 1.9.1
(fixtures from tools/golden/gen_quantized_rnn.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
NPZ = np.load(GOLDEN / "quantized_rnn.npz")
FLOW = json.loads((GOLDEN / "quantized_rnn_flow.json").read_text())
CASES = sorted({k.split(".")[0] for k in NPZ.files if not k.startswith("flow.")})


def _case(cid):
    ins = [NPZ[f"{cid}.in{i}"] for i in range(6)]
    outs = [NPZ[f"{cid}.out{j}"] for j in range(3) if f"{cid}.out{j}" in NPZ.files]
    return ins, outs, json.loads(str(NPZ[f"{cid}.attrs"]))


def _nd(a):
    return mx.nd.array(a, dtype=a.dtype)


@pytest.mark.parametrize("cid", CASES)
def test_matches_191(cid):
    ins, want, attrs = _case(cid)
    res = mx.nd.contrib.quantized_rnn(*[_nd(a) for a in ins], **attrs)
    res = res if isinstance(res, (list, tuple)) else [res]
    assert len(res) == len(want)
    for j, (r, w) in enumerate(zip(res, want)):
        got = r.asnumpy()
        assert got.dtype == np.float32 and got.shape == w.shape
        if j < 2:
            # the sequence and the hidden state are dequantized uint8 values: exact
            np.testing.assert_array_equal(got, w, err_msg=f"{cid} output {j}")
        else:
            # the float32 cell state: oneDNN's own exp/tanh differ from NumPy's by ulps
            np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-5, err_msg=f"{cid} cell")


def test_nd_keywords_as_1_9_1():
    # 1.9.1's mx.nd front end takes the range inputs as data_scale / data_shift keywords
    ins, want, attrs = _case(CASES[0])
    x, p, h, c, scale, shift = [_nd(a) for a in ins]
    res = mx.nd.contrib.quantized_rnn(x, p, h, c, data_scale=scale, data_shift=shift, **attrs)
    res = res if isinstance(res, (list, tuple)) else [res]
    np.testing.assert_array_equal(res[0].asnumpy(), want[0])


def test_int16_pair_saturation_matters():
    """The recorded outputs need oneDNN's int16 saturation of product pairs: an exact int32
    GEMM gives other values on the big-weight case."""
    from mxnet.operator import contrib_quantized_rnn as mod
    ins, want, attrs = _case("wide_big")
    orig = mod._sat_gemm
    try:
        mod._sat_gemm = lambda xp, a, w: a.astype(np.int64) @ w.astype(np.int64).T
        res = mx.nd.contrib.quantized_rnn(*[_nd(a) for a in ins], **attrs)
    finally:
        mod._sat_gemm = orig
    assert not np.array_equal(res[0].asnumpy(), want[0])


def test_output_grid_and_float_closeness():
    """Every hidden output lies on the data's uint8 grid, and the int8 LSTM stays close to
    the float32 RNN on dequantized data."""
    ins, _, attrs = _case("uni_l2")
    res = mx.nd.contrib.quantized_rnn(*[_nd(a) for a in ins], **attrs)
    scale, shift = float(ins[4][0]), float(ins[5][0])
    u = res[0].asnumpy() * scale + shift
    np.testing.assert_allclose(u, np.rint(u), atol=1e-3)
    x = (ins[0].astype(np.float32) - shift) / scale
    ref = mx.nd.RNN(mx.nd.array(x), mx.nd.array(ins[1]), mx.nd.array(ins[2]),
                    mx.nd.array(ins[3]), **attrs)
    assert np.abs(ref[0].asnumpy() - res[0].asnumpy()).max() < 0.1


def test_symbol_names_shapes_types():
    s = mx.sym.contrib.quantized_rnn(state_size=5, num_layers=2, bidirectional=True,
                                     mode="lstm", state_outputs=True, name="q")
    assert s.list_arguments() == ["q_data", "q_parameters", "q_state", "q_state_cell",
                                  "q_min_data", "q_max_data"]
    assert s.list_outputs() == ["q_output", "q_state_output", "q_statecell_ouput"]
    arg, out, _ = s.infer_shape(q_data=(3, 2, 4))
    # 2 directions x 4 gates x 5: layer 0 (4 + 5), layer 1 (10 + 5), two biases each
    assert arg == [(3, 2, 4), (2 * 20 * 9 + 2 * 20 * 15 + 4 * 40,), (4, 2, 5), (4, 2, 5),
                   (1,), (1,)]
    assert out == [(3, 2, 10), (4, 2, 5), (4, 2, 5)]
    at, ot, _ = s.infer_type(q_data="uint8")
    assert [np.dtype(t) for t in at] == [np.uint8] + [np.float32] * 5
    assert [np.dtype(t) for t in ot] == [np.float32] * 3
    with pytest.raises(MXNetError, match="_contrib_quantized_rnn: data must be uint8"):
        s.infer_type(q_data="float32")


def test_executor_matches_nd():
    ins, want, attrs = _case("bi_l1")
    s = mx.sym.contrib.quantized_rnn(name="q", **attrs)
    names = s.list_arguments()
    ex = s.bind(mx.cpu(), {n: _nd(a) for n, a in zip(names, ins)})
    outs = ex.forward()
    np.testing.assert_array_equal(outs[0].asnumpy(), want[0])


@pytest.mark.parametrize("kwargs, match", [
    ({"mode": "gru"}, "only mode='lstm'"),
    ({"projection_size": 2}, "projection_size"),
    ({"use_sequence_length": True}, "use_sequence_length"),
])
def test_bad_attrs(kwargs, match):
    ins, _, attrs = _case("uni_l1")
    attrs = dict(attrs, **kwargs)
    with pytest.raises(MXNetError, match=f"_contrib_quantized_rnn: .*{match}"):
        mx.nd.contrib.quantized_rnn(*[_nd(a) for a in ins], **attrs)


@pytest.mark.parametrize("pos, arr, match", [
    (0, lambda a: a.astype(np.float32), "data must be uint8"),
    (0, lambda a: a.astype(np.int8), "data must be uint8"),
    (1, lambda a: a.astype(np.int8), "parameters must be float32"),
    (1, lambda a: a[:-1], r"parameters must have shape \(220,\)"),
    (2, lambda a: np.zeros((2,) + a.shape[1:], np.float32), r"state must have shape"),
    (3, lambda a: a[:, :1], r"state_cell must have shape"),
    (4, lambda a: np.zeros((2,), np.float32), r"data_scale \(min_data\) must have shape"),
])
def test_bad_inputs(pos, arr, match):
    ins, _, attrs = _case("uni_l1")
    ins = list(ins)
    ins[pos] = arr(ins[pos])
    with pytest.raises(MXNetError, match=f"_contrib_quantized_rnn: {match}"):
        mx.nd.contrib.quantized_rnn(*[_nd(a) for a in ins], **attrs)


# ------------------------------------------------------------------------ quantization flow

def _rnn_syms():
    data = mx.sym.var("data")
    rnn = mx.sym.RNN(data, mx.sym.var("rnn_parameters"), mx.sym.var("rnn_state"),
                     mx.sym.var("rnn_state_cell"), state_size=5, num_layers=1, mode="lstm",
                     name="rnn")
    return {"rnn": rnn,
            "rnn_fc": mx.sym.FullyConnected(rnn, num_hidden=3, name="fc", flatten=False),
            "rnn_relu": mx.sym.relu(rnn, name="act")}


def _nodes(qsym):
    return [[n["op"], n["name"], n.get("attrs", {})] for n in json.loads(qsym.tojson())["nodes"]]


@pytest.mark.parametrize("name", ["rnn", "rnn_fc", "rnn_relu"])
def test_flow_graph_matches_191(name):
    from mxnet.contrib import quantization as q
    qsym, calib = q._quantize_symbol(_rnn_syms()[name], mx.cpu(), quantized_dtype="auto",
                                     quantize_mode="full")
    assert list(calib) == FLOW[name]["calib"]
    assert _nodes(qsym) == FLOW[name]["nodes"]


def test_flow_rnn_fc_wires_quantize_ranges():
    """1.9.1 wires the FC's data range to nonexistent outputs of the RNN node (its graph
    does not bind); here the range comes from the quantize node after the RNN."""
    from mxnet.contrib import quantization as q
    qsym, _ = q._quantize_symbol(_rnn_syms()["rnn_fc"], mx.cpu(), quantized_dtype="auto",
                                 quantize_mode="full")
    nodes = json.loads(qsym.tojson())["nodes"]
    idx = {n["name"]: i for i, n in enumerate(nodes)}
    fc = nodes[idx["quantized_fc"]]
    qn = idx["rnn_output_quantize"]
    assert fc["inputs"][0][:2] == [qn, 0]
    assert fc["inputs"][3][:2] == [qn, 1] and fc["inputs"][4][:2] == [qn, 2]


def test_flow_naive_calibration_end_to_end():
    from mxnet.contrib import quantization as q
    args = {k[len("flow.args."):]: mx.nd.array(NPZ[k]) for k in NPZ.files
            if k.startswith("flow.args.")}
    it = mx.io.NDArrayIter(data=NPZ["flow.calib_x"], batch_size=3)
    qsym, qarg, _ = q.quantize_model(_rnn_syms()["rnn"], args, {}, calib_mode="naive",
                                     calib_data=it, quantized_dtype="auto",
                                     quantize_mode="full", label_names=())
    assert _nodes(qsym) == FLOW["rnn_naive"]["nodes"]
    ex = qsym.bind(mx.cpu(), dict(qarg, data=mx.nd.array(NPZ["flow.x"])))
    np.testing.assert_array_equal(ex.forward()[0].asnumpy(), NPZ["flow.out"])


def test_flow_leaves_gru_float():
    from mxnet.contrib import quantization as q
    g = mx.sym.RNN(mx.sym.var("data"), mx.sym.var("p"), mx.sym.var("s"), state_size=4,
                   num_layers=1, mode="gru", name="g")
    qsym, calib = q._quantize_symbol(g, mx.cpu(), quantized_dtype="auto", quantize_mode="full")
    assert [n[0] for n in _nodes(qsym) if n[0] != "null"] == ["RNN"]
    assert calib == []
