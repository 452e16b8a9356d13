"""The converters added after the first exporter: RNN, sequence ops, sorting, indexing,
creation ops, samplers, detection and attention ops. Each exports a small Symbol, runs it
in onnxruntime and compares with mxnet-py's executor; a few graphs are also compared with
what 1.9.1's exporter writes and with 1.9.1's outputs (REF_1_9_1 below, recorded by
tools/golden/gen_onnx_more.py under 1.9.1 with onnx 1.13.1)."""
import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import onnx  # noqa: E402

import mxnet as mx  # noqa: E402
from mxnet.base import MXNetError  # noqa: E402

from ._harness import assert_close, random_params, run_mxnet, run_onnx  # noqa: E402

S = mx.sym
D = S.var("data")
A, B = S.var("a"), S.var("b")
RNG = np.random.default_rng(7)


def rnd(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def distinct(*shape):
    """Values without ties (sorting ops)."""
    return (RNG.permutation(int(np.prod(shape))).reshape(shape) * 0.5 - 3).astype(np.float32)


def case(cid, sym, feeds, opsets=(13, 18), tol=1e-4):
    return pytest.param(sym, feeds, opsets, tol, id=cid)


def rnn_sym(mode, layers=1, bidir=False, states=True, size=4):
    state = S.var("state")
    args = dict(state_size=size, num_layers=layers, bidirectional=bidir, mode=mode,
                state_outputs=states, name="rnn")
    if mode == "lstm":
        return S.RNN(D, S.var("params"), state, S.var("cell"), **args)
    return S.RNN(D, S.var("params"), state, **args)


def rnn_feeds(mode, layers=1, bidir=False, size=4, T=5, N=2, In=3):
    d = 2 if bidir else 1
    f = {"data": rnd(T, N, In), "state": rnd(layers * d, N, size)}
    if mode == "lstm":
        f["cell"] = rnd(layers * d, N, size)
    return f


RNN_CASES = [
    case(f"rnn_{mode}_l{layers}{'_bi' if bidir else ''}",
         rnn_sym(mode, layers, bidir), rnn_feeds(mode, layers, bidir), opsets=(12, 13))
    for mode, layers, bidir in [("lstm", 1, False), ("lstm", 2, False), ("lstm", 1, True),
                                ("lstm", 2, True), ("gru", 1, False), ("gru", 2, True),
                                ("rnn_tanh", 1, False), ("rnn_relu", 3, True)]
] + [case("rnn_no_state_outputs", rnn_sym("gru", 2, states=False), rnn_feeds("gru", 2))]

SEQ = {"data": rnd(4, 3, 2), "len": np.array([2, 4, 1], np.float32)}
SEQ1 = {"data": rnd(3, 4, 2), "len": np.array([2, 4, 1], np.float32)}
L = S.var("len")
SORT = {"data": distinct(3, 5)}

CASES = RNN_CASES + [
    # sequence ops
    case("seqmask_off", S.SequenceMask(D), SEQ),
    case("seqmask", S.SequenceMask(D, L, use_sequence_length=True, value=-2.0), SEQ),
    case("seqmask_axis1", S.SequenceMask(D, L, use_sequence_length=True, axis=1), SEQ1),
    case("seqreverse", S.SequenceReverse(D), SEQ),
    case("seqreverse_len", S.SequenceReverse(D, L, use_sequence_length=True), SEQ),
    case("seqlast", S.SequenceLast(D), SEQ),
    case("seqlast_len", S.SequenceLast(D, L, use_sequence_length=True), SEQ),
    case("seqlast_len_axis1", S.SequenceLast(D, L, use_sequence_length=True, axis=1), SEQ1),
    # sorting
    case("topk_indices", S.topk(D, k=2), SORT, opsets=(12, 13)),
    case("topk_value_axis0_asc", S.topk(D, k=2, axis=0, ret_typ="value", is_ascend=True), SORT),
    case("topk_both", S.topk(D, k=3, ret_typ="both", dtype="int32"), SORT),
    case("topk_mask", S.topk(D, k=2, ret_typ="mask"), SORT),
    case("topk_flat_all", S.topk(D, k=0, axis=None, ret_typ="value"), SORT),
    case("argsort", S.argsort(D), SORT),
    case("argsort_desc_axis0", S.argsort(D, axis=0, is_ascend=False, dtype="int64"), SORT),
    case("sort", S.sort(D), SORT),
    # ties: lower index first in both directions, as 1.9.1 (recorded there: argsort descending
    # [[1, 3, 5, 0, 2, 4]], ascending [[4, 0, 2, 1, 3, 5]])
    case("argsort_ties", S.Group([S.argsort(D, is_ascend=False), S.argsort(D),
                                  S.topk(D, k=4), S.topk(D, k=4, is_ascend=True)]),
         {"data": np.array([[1, 2, 1, 2, 0, 2]], np.float32)}),
    case("sort_desc_flat", S.sort(D, axis=None, is_ascend=False), SORT),
    # indexing
    case("pick", S.pick(A, B, axis=1), {"a": rnd(3, 4), "b": np.array([0, 3, 5], np.float32)}),
    case("pick_wrap_keep", S.pick(A, B, axis=0, mode="wrap", keepdims=True),
         {"a": rnd(3, 4), "b": np.array([-1, 2, 4, 0], np.float32)}),
    case("gather_nd", S.gather_nd(A, B),
         {"a": rnd(3, 4, 2), "b": np.array([[0, 2, 1], [3, 0, 1]], np.float32)}),
    case("gather_nd_1d", S.gather_nd(A, B), {"a": rnd(5, 2), "b": np.array([[4, 0]], np.float32)}),
    case("take_clip", S.take(A, B, axis=1),
         {"a": rnd(2, 4, 3), "b": np.array([[5, -2], [1, 3]], np.float32)}),
    case("take_wrap", S.take(A, B, axis=-1, mode="wrap"),
         {"a": rnd(2, 4), "b": np.array([5, -1, 2], np.float32)}),
    case("one_hot", S.one_hot(D, depth=4, on_value=2.0, off_value=-1.0),
         {"data": np.array([0, -1, 3, 5, 2], np.float32)}),
    case("one_hot_int", S.one_hot(D, depth=3, dtype="int32"),
         {"data": np.array([[0, 1], [2, 2]], np.float32)}),
    case("broadcast_axis", S.broadcast_axis(D, axis=(0, 2), size=(3, 4)),
         {"data": rnd(1, 2, 1)}),
    case("reverse", S.reverse(D, axis=1), {"data": rnd(2, 3, 4)}),
    case("reverse_2axes", S.reverse(D, axis=(0, 2)), {"data": rnd(2, 3, 4)}),
    case("slice_like", S.slice_like(A, B), {"a": rnd(4, 5), "b": rnd(2, 3)}),
    case("slice_like_axes", S.slice_like(A, B, axes=(-1,)), {"a": rnd(4, 5), "b": rnd(2, 3)}),
    case("reshape_like", S.reshape_like(A, B), {"a": rnd(2, 6), "b": rnd(3, 4)}),
    case("reshape_like_part", S.reshape_like(A, B, lhs_begin=1, lhs_end=2, rhs_begin=0,
                                             rhs_end=2), {"a": rnd(2, 6, 5), "b": rnd(3, 2)}),
    case("repeat", S.repeat(D, repeats=2, axis=1), {"data": rnd(2, 3, 2)}, opsets=(12, 13)),
    case("repeat_flat", S.repeat(D, repeats=3), {"data": rnd(2, 2)}),
    case("split_v2_sections", S.split_v2(D, 2, axis=1), {"data": rnd(2, 4, 3)},
         opsets=(12, 13, 18)),
    case("split_v2_indices", S.split_v2(D, (1, 3), axis=-1, squeeze_axis=False),
         {"data": rnd(2, 5)}, opsets=(12, 13)),
    case("split_v2_squeeze", S.split_v2(D, 3, axis=0, squeeze_axis=True), {"data": rnd(3, 2)}),
    case("depth_to_space", S.depth_to_space(D, block_size=2), {"data": rnd(1, 8, 2, 3)}),
    case("space_to_depth", S.space_to_depth(D, block_size=2), {"data": rnd(1, 2, 4, 6)}),
    case("shape_array", S.shape_array(D), {"data": rnd(2, 3, 4)}),
    case("size_array", S.size_array(D), {"data": rnd(2, 3, 4)}),
    case("crop", S.Crop(D, h_w=(3, 2), offset=(1, 2), num_args=1), {"data": rnd(1, 2, 5, 6)}),
    case("crop_like_center", S.Crop(A, B, num_args=2, center_crop=True),
         {"a": rnd(1, 2, 5, 6), "b": rnd(1, 1, 2, 3)}),
    # logic and arithmetic
    *[case(f"logical_{k}", getattr(S, f"broadcast_logical_{k}")(A, B),
           {"a": np.array([[0, 1, 2], [0, 0, 3]], np.float32),
            "b": np.array([[0, 0, 1]], np.float32)}) for k in ("and", "or", "xor")],
    case("logical_not", S.logical_not(D), {"data": np.array([0, 1, -2], np.float32)}),
    case("broadcast_mod", S.broadcast_mod(A, B),
         {"a": np.array([-5, 5, -5.5, 7, 4.5], np.float32),
          "b": np.array([3, -3, 2, 7, -1.5], np.float32)}),
    case("logistic_regression_output", S.LogisticRegressionOutput(D, S.var("label")),
         {"data": rnd(3, 2)}),
    # creation
    case("zeros_plus", S.broadcast_add(D, S.zeros((2, 1))), {"data": rnd(2, 3)}),
    case("ones_int", S.ones((2, 3), dtype="int32"), {}),
    case("arange", S.arange(0.1, 1.0, 0.3, name="r"), {}),
    case("arange_repeat_int", S.arange(5, repeat=2, dtype="int32"), {}),
    case("arange_like", S.contrib.arange_like(D, start=0.1, step=0.1), {"data": rnd(2, 3)}),
    case("arange_like_axis", S.contrib.arange_like(D, start=2, step=-0.5, axis=1),
         {"data": rnd(2, 3)}),
    # attention (BERT)
    case("div_sqrt_dim", S.contrib.div_sqrt_dim(D), {"data": rnd(2, 3, 4)}),
    case("selfatt_qk", S.contrib.interleaved_matmul_selfatt_qk(D, heads=2),
         {"data": rnd(4, 3, 2 * 3 * 5)}),
    case("selfatt_valatt", S.contrib.interleaved_matmul_selfatt_valatt(A, B, heads=2),
         {"a": rnd(4, 3, 2 * 3 * 5), "b": rnd(3 * 2, 4, 4)}),
    case("encdec_qk", S.contrib.interleaved_matmul_encdec_qk(A, B, heads=2),
         {"a": rnd(4, 3, 2 * 5), "b": rnd(6, 3, 2 * 2 * 5)}),
    case("encdec_valatt", S.contrib.interleaved_matmul_encdec_valatt(A, B, heads=2),
         {"a": rnd(6, 3, 2 * 2 * 5), "b": rnd(3 * 2, 4, 6)}),
    # detection
    case("box_decode_center", S.contrib.box_decode(A, B, std0=0.1, std1=0.1, std2=0.2, std3=0.2,
                                                   format="center"),
         {"a": rnd(2, 3, 4) * 0.3, "b": np.abs(rnd(1, 3, 4)) + 0.5}),
    case("box_decode_corner_clip", S.contrib.box_decode(A, B, clip=0.2, format="corner"),
         {"a": rnd(2, 3, 4) * 0.3,
          "b": np.array([[[0, 0, 2, 3], [1, 1, 4, 2], [2, 0, 3, 5]]], np.float32)}),
    case("roi_align", S.contrib.ROIAlign(A, B, pooled_size=(2, 3), spatial_scale=0.5,
                                         sample_ratio=2),
         {"a": rnd(2, 3, 8, 8), "b": np.array([[0, 1, 1, 9, 12], [1, 0, 2, 6, 6]], np.float32)},
         opsets=(13, 16)),
    case("roi_align_aligned", S.contrib.ROIAlign(A, B, pooled_size=(2, 2), spatial_scale=1.0,
                                                 sample_ratio=2, aligned=True),
         {"a": rnd(1, 2, 6, 6), "b": np.array([[0, 0.5, 1, 4, 5.5]], np.float32)},
         opsets=(16,)),
    case("roi_pooling", S.ROIPooling(A, B, pooled_size=(2, 2), spatial_scale=0.5),
         {"a": rnd(2, 3, 8, 8), "b": np.array([[0, 1, 1, 9, 12], [1, 0, 2, 6, 6]], np.float32)}),
    case("adaptive_avg_pool_1", S.contrib.AdaptiveAvgPooling2D(D, output_size=1),
         {"data": rnd(2, 3, 4, 6)}),
    case("adaptive_avg_pool_2x3", S.contrib.AdaptiveAvgPooling2D(D, output_size=(2, 3)),
         {"data": rnd(2, 3, 4, 6)}),
    case("bilinear_resize", S.contrib.BilinearResize2D(D, height=5, width=7),
         {"data": rnd(1, 2, 3, 4)}),
    case("bilinear_resize_half_pixel", S.contrib.BilinearResize2D(D, height=6, width=3,
                                                                  align_corners=False),
         {"data": rnd(1, 2, 3, 4)}),
]


def _nms_data():
    # (batch, boxes, [id, score, x0, y0, x1, y1]); distinct scores, some overlaps and classes
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [21, 19, 31, 29],
                      [0, 0, 9, 10], [50, 50, 60, 60]], np.float32)
    scores = np.array([0.9, 0.8, 0.7, 0.85, 0.3, 0.05], np.float32)
    ids = np.array([0, 1, 0, 0, 1, 1], np.float32)
    one = np.concatenate([ids[:, None], scores[:, None], boxes], axis=1)
    two = one[::-1].copy()
    two[:, 1] = two[:, 1][::-1]
    return np.stack([one, two])


NMS = {"data": _nms_data()}
CASES += [
    case("box_nms", S.contrib.box_nms(D, overlap_thresh=0.5, valid_thresh=0.1, coord_start=2,
                                      score_index=1, id_index=0, force_suppress=True), NMS),
    case("box_nms_per_class", S.contrib.box_nms(D, overlap_thresh=0.5, coord_start=2,
                                                score_index=1, id_index=0), NMS),
    case("box_nms_topk", S.contrib.box_nms(D, overlap_thresh=0.5, topk=3, coord_start=2,
                                           score_index=1), NMS),
    case("box_nms_background_2d", S.contrib.box_nms(D, overlap_thresh=0.3, coord_start=2,
                                                    score_index=1, id_index=0,
                                                    background_id=1), {"data": NMS["data"][0]}),
]


@pytest.mark.parametrize("sym, feeds, opsets, tol", CASES)
def test_export_matches_onnxruntime(tmp_path, sym, feeds, opsets, tol):
    feeds = {k: v for k, v in feeds.items() if k in sym.list_inputs()}
    shapes = {k: v.shape for k, v in feeds.items()}
    params = {}
    if "params" in sym.list_inputs():  # the RNN's packed weights
        shapes_all = dict(shapes)
        arg_shapes, _, _ = sym.infer_shape(**shapes_all)
        size = dict(zip(sym.list_arguments(), arg_shapes))["params"]
        params["params"] = mx.nd.array(rnd(*size) * 0.5)
    params.update({k: v for k, v in random_params(sym, shapes).items()
                   if k not in params and k != "label"})
    data_names = [n for n in sym.list_inputs() if n not in params and n != "label"]
    all_feeds = dict(feeds)
    if "label" in sym.list_inputs():
        all_feeds["label"] = np.zeros(shapes["data"], np.float32)
    want = run_mxnet(sym, all_feeds, params)
    for opset in opsets:
        path = str(tmp_path / f"model{opset}.onnx")
        mx.onnx.export_model(sym, params, [shapes[n] for n in data_names],
                             [feeds[n].dtype for n in data_names], path, opset_version=opset)
        got = run_onnx(path, {n: feeds[n] for n in data_names})
        assert len(got) == len(want), f"opset {opset}"
        for g, w in zip(got, want):
            assert g.dtype == w.dtype, f"opset {opset}: dtype {g.dtype} != {w.dtype}"
            assert_close(g, w, rtol=tol, atol=tol / 10, what=f"onnxruntime, opset {opset}")


@pytest.mark.parametrize("kind, layers, bidir", [("LSTM", 2, True), ("GRU", 1, False),
                                                 ("RNN", 2, False)])
def test_gluon_rnn_export(tmp_path, kind, layers, bidir):
    # a hybridized Gluon layer exported with HybridBlock.export: the packed weights are
    # built in the graph (Reshape + _rnn_param_concat) and the begin states are inputs
    mx.random.seed(3)
    net = getattr(mx.gluon.rnn, kind)(5, num_layers=layers, bidirectional=bidir, input_size=3)
    net.initialize(mx.init.Uniform(0.5))
    net.hybridize()
    x = rnd(4, 2, 3)
    d = 2 if bidir else 1
    states = [rnd(layers * d, 2, 5) for _ in range(2 if kind == "LSTM" else 1)]
    want = net(mx.nd.array(x), [mx.nd.array(s) for s in states])
    want = [w.asnumpy() for w in [want[0]] + list(want[1])]
    prefix = str(tmp_path / "net")
    net.export(prefix)
    path = mx.onnx.export_model(prefix + "-symbol.json", prefix + "-0000.params",
                                [x.shape] + [s.shape for s in states], np.float32,
                                str(tmp_path / "net.onnx"))
    feeds = dict(zip(["data0", "data1", "data2"], [x] + states))
    got = run_onnx(path, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_close(g, w, what=kind)


def test_dynamic_lstm_topk(tmp_path):
    # shapes left open: another sequence length and batch size run through the same file
    state, cell = S.var("state"), S.var("cell")
    r = S.RNN(D, S.var("params"), state, cell, state_size=4, num_layers=2, mode="lstm",
              state_outputs=True, name="rnn")
    sym = S.Group([S.topk(r[0], k=2, axis=-1, ret_typ="value"), r[1]])
    size = dict(zip(sym.list_arguments(),
                    sym.infer_shape(data=(5, 2, 3), state=(2, 2, 4), cell=(2, 2, 4))[0]))
    params = {"params": mx.nd.array(rnd(*size["params"]) * 0.5)}
    path = mx.onnx.export_model(sym, params, [(5, 2, 3), (2, 2, 4), (2, 2, 4)], np.float32,
                                str(tmp_path / "dyn.onnx"), dynamic=True,
                                dynamic_input_shapes=[(None, None, 3), (2, None, 4),
                                                      (2, None, 4)])
    feeds = {"data": rnd(7, 3, 3), "state": rnd(2, 3, 4), "cell": rnd(2, 3, 4)}
    want = run_mxnet(sym, feeds, params)
    got = run_onnx(path, feeds)
    for g, w in zip(got, want):
        assert_close(g, w, what="dynamic")


@pytest.mark.parametrize("sym, shapes, what", [
    (S.RNN(D, S.var("params"), S.var("state"), S.var("cell"), state_size=4, num_layers=1,
           mode="lstm", projection_size=2),
     {"data": (3, 2, 2), "state": (1, 2, 2), "cell": (1, 2, 4)}, "projection_size"),
    (S.RNN(D, S.var("params"), S.var("state"), L, state_size=4, num_layers=1, mode="gru",
           use_sequence_length=True), {"data": (3, 2, 2), "state": (1, 2, 4), "len": (2,)},
     "use_sequence_length"),
    (S.contrib.box_nms(D, in_format="corner", out_format="center"), {"data": (1, 4, 6)},
     "out_format"),
    (S.contrib.ROIAlign(A, B, pooled_size=(2, 2), spatial_scale=1.0, position_sensitive=True),
     {"a": (1, 4, 4, 4), "b": (1, 5)}, "position_sensitive"),
    (S.contrib.arange_like(D, repeat=2), {"data": (2, 3)}, "repeat"),
    (S.random.multinomial(D, shape=(2, 2)), {"data": (2, 3)}, "shape"),
    (S.topk(D, axis=None, ret_typ="mask"), {"data": (2, 3)}, "ret_typ"),
])
def test_unsupported_settings_raise(tmp_path, sym, shapes, what):
    names = [n for n in sym.list_inputs() if n != "params"]
    params = {}
    if "params" in sym.list_inputs():
        size = dict(zip(sym.list_arguments(), sym.infer_shape(**shapes)[0]))["params"]
        params = {"params": mx.nd.zeros(size)}
    with pytest.raises(MXNetError, match=what):
        mx.onnx.export_model(sym, params, [shapes[n] for n in names], np.float32,
                             str(tmp_path / "x.onnx"))


def test_samplers(tmp_path):
    # random nodes: shapes, types and ranges (the draws themselves differ from MXNet's)
    sym = S.Group([S.random.uniform(-2, -1, shape=(50, 4)), S.random.normal(3, 0.1, shape=(400,)),
                   S.random.uniform_like(D, low=5, high=6),
                   S.random.multinomial(S.softmax(D), shape=3, get_prob=False),
                   S.random.multinomial(S.softmax(D), get_prob=True)])
    path = mx.onnx.export_model(sym, {}, [(2, 4)], np.float32, str(tmp_path / "r.onnx"))
    types = [nd.op_type for nd in onnx.load(path).graph.node]
    assert {"RandomUniform", "RandomNormal", "RandomUniformLike", "Multinomial"} <= set(types)
    data = np.array([[0, 0, 9, 0], [9, 0, 0, 0]], np.float32)
    u, nrm, ul, m, m1, lp = run_onnx(path, {"data": data})
    assert u.shape == (50, 4) and u.min() >= -2 and u.max() <= -1
    assert nrm.shape == (400,) and abs(nrm.mean() - 3) < 0.05
    assert ul.shape == (2, 4) and ul.min() >= 5 and ul.max() <= 6
    assert m.dtype == np.int32 and m.shape == (2, 3)
    assert (m[0] == 2).mean() > 0.5 and (m[1] == 0).mean() > 0.5  # p ~ 0.9996 for that class
    # get_prob: the log-probability of the drawn class, as MXNet's second output
    assert m1.shape == (2,) and lp.shape == (2,) and lp.dtype == np.float32
    logp = np.log(mx.nd.softmax(mx.nd.array(data)).asnumpy())
    assert_close(lp, logp[[0, 1], m1])


# Recorded from MXNet 1.9.1 with onnx 1.13.1 by tools/golden/gen_onnx_more.py: the graph
# outputs, the key nodes 1.9.1's exporter writes and 1.9.1's own outputs of each model.
REF_1_9_1 = {'attention': {'key_nodes': [('Gemm', {'alpha': 1.0, 'beta': 1.0, 'transA': 0, 'transB': 1}),
                                 ('MatMul', {}), ('Softmax', {'axis': -1}), ('MatMul', {}),
                                 ('Gemm', {'alpha': 1.0, 'beta': 1.0, 'transA': 0, 'transB': 1})],
                   'mxnet_outputs': [[[[-0.4662500023841858, -0.3057520091533661, -0.15749900043010712,
                                        0.018748000264167786],
                                       [-0.06915999948978424, 0.12098900228738785, 0.24233900010585785,
                                        -0.2885169982910156]],
                                      [[-0.36625000834465027, -0.20575299859046936, -0.057498998939991,
                                        0.1187480017542839],
                                       [0.03083300031721592, 0.22099700570106506, -0.3576650023460388,
                                        -0.18851099908351898]],
                                      [[-0.26625001430511475, -0.10575400292873383,
                                        0.042500998824834824, 0.21874700486660004],
                                       [0.13082799315452576, -0.3790009915828705, -0.25766798853874207,
                                        -0.08850300312042236]]]],
                   'outputs': ['residual']},
     'lstm': {'key_nodes': [('LSTM', {'hidden_size': 3}), ('LSTM', {'hidden_size': 3})],
              'mxnet_outputs': [[[[0.08197800070047379, -0.12886500358581543, -0.08377700299024582],
                                  [-0.01419300027191639, -0.05200599879026413, -0.001474000047892332]],
                                 [[0.05225000157952309, -0.11883500218391418, -0.07117599993944168],
                                  [0.0024399999529123306, -0.07716099917888641,
                                   -0.030198000371456146]],
                                 [[0.0359559990465641, -0.11261200159788132, -0.06490500271320343],
                                  [0.01030299998819828, -0.09068000316619873, -0.04458500072360039]]],
                                [[[0.027490999549627304, 0.06984400004148483, -0.024940000846982002],
                                  [0.042433001101017, 0.07644899934530258, -0.015670999884605408]],
                                 [[0.0359559990465641, -0.11261200159788132, -0.06490500271320343],
                                  [0.01030299998819828, -0.09068000316619873, -0.04458500072360039]]],
                                [[[0.05429600179195404, 0.1566070020198822, -0.05198799818754196],
                                  [0.08264999836683273, 0.17145699262619019, -0.03320999816060066]],
                                 [[0.0727280005812645, -0.2174910008907318, -0.11944899708032608],
                                  [0.02071000076830387, -0.17403000593185425, -0.08162800222635269]]]],
              'outputs': ['lstm', 'lstm1', 'lstm2']},
     'topk': {'key_nodes': [('TopK', {'axis': 1, 'largest': 1, 'sorted': 1})],
              'mxnet_outputs': [[[0.10000000149011612, 0.0],
                                 [0.30000001192092896, 0.20000000298023224]],
                                [[4.0, 3.0], [1.0, 0.0]]],
              'outputs': ['topk0', 'topk1']}}


def _values(shape, scale=0.1):
    """The deterministic inputs and parameters of tools/golden/gen_onnx_more.py."""
    n = int(np.prod(shape))
    return ((np.arange(n) % 7 - 3) * scale).astype(np.float32).reshape(shape)


def _ref_models():
    x = D
    lstm = S.RNN(x, S.var("params"), S.var("state"), S.var("cell"), state_size=3, num_layers=2,
                 mode="lstm", state_outputs=True, name="lstm")
    topk = S.topk(x, k=2, axis=1, ret_typ="both", name="topk")
    qkv = S.FullyConnected(x, num_hidden=12, flatten=False, name="qkv")
    att = S.softmax(S.contrib.interleaved_matmul_selfatt_qk(qkv, heads=2, name="qk"), axis=-1,
                    name="att")
    ctx = S.contrib.interleaved_matmul_selfatt_valatt(qkv, att, heads=2, name="valatt")
    block = S.elemwise_add(S.FullyConnected(ctx, num_hidden=4, flatten=False, name="proj"), x,
                           name="residual")
    return {"lstm": (lstm, {"data": (3, 2, 2), "state": (2, 2, 3), "cell": (2, 2, 3)},
                     ["params"]),
            "topk": (topk, {"data": (2, 5)}, []),
            "attention": (block, {"data": (3, 2, 4)}, ["qkv_weight", "qkv_bias", "proj_weight",
                                                        "proj_bias"])}


def _attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


@pytest.mark.parametrize("name", ["lstm", "topk", "attention"])
def test_matches_1_9_1_exporter(tmp_path, name):
    sym, shapes, param_names = _ref_models()[name]
    ref = REF_1_9_1[name]
    arg_shapes = dict(zip(sym.list_arguments(), sym.infer_shape(**shapes)[0]))
    params = {k: mx.nd.array(_values(arg_shapes[k], 0.05)) for k in param_names}
    path = mx.onnx.export_model(sym, params, list(shapes.values()), np.float32,
                                str(tmp_path / f"{name}.onnx"))
    graph = onnx.load(path).graph
    assert [o.name for o in graph.output] == ref["outputs"]
    kinds = {"lstm": ("LSTM",), "topk": ("TopK",), "attention": ("Softmax",)}[name]
    ours = [(nd.op_type, _attrs(nd)) for nd in graph.node if nd.op_type in kinds]
    want = [(t, a) for t, a in ref["key_nodes"] if t in kinds]
    if name == "attention":  # 1.9.1 writes axis=-1, ours the same axis counted from 0
        want = [(t, {"axis": a["axis"] % 3}) for t, a in want]
    assert ours == want
    got = run_onnx(path, {k: _values(s) for k, s in shapes.items()})
    assert len(got) == len(ref["mxnet_outputs"])
    for g, w in zip(got, ref["mxnet_outputs"]):
        assert_close(g, np.array(w, g.dtype), rtol=1e-4, atol=2e-6, what=name)
