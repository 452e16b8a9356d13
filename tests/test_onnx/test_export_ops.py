"""Each converter: build a small Symbol, export it, run the file with onnxruntime and compare
with mxnet-py's executor; then import the file back and compare again."""
import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import mxnet as mx  # noqa: E402

from ._harness import assert_close, random_params, run_mxnet, run_onnx  # noqa: E402

S = mx.sym
D = S.var("data")
A, B = S.var("a"), S.var("b")
X4 = {"data": (2, 3, 6, 6)}
X2 = {"data": (3, 5)}
X3 = {"data": (2, 3, 4)}
AB4 = {"a": (2, 3, 4, 5), "b": (2, 3, 4, 5)}


def case(cid, sym, shapes, positive=False, ints=None, opsets=(13,), tol=1e-4):
    return pytest.param(sym, shapes, positive, ints, opsets, tol, id=cid)


CASES = [
    # dense and convolution
    case("fc", S.FullyConnected(D, num_hidden=4, name="fc"), X2, opsets=(12, 13)),
    case("fc_4d_flatten", S.FullyConnected(D, num_hidden=4, name="fc"), X4),
    case("fc_no_bias", S.FullyConnected(D, num_hidden=4, no_bias=True, name="fc"), X2),
    case("fc_no_flatten", S.FullyConnected(D, num_hidden=4, flatten=False, name="fc"), X3),
    case("conv", S.Convolution(D, kernel=(3, 3), num_filter=4, name="c"), X4),
    case("conv_pad_stride_dilate", S.Convolution(D, kernel=(3, 3), num_filter=4, pad=(2, 1),
                                                 stride=(2, 1), dilate=(2, 1), name="c"), X4),
    case("conv_groups_no_bias", S.Convolution(D, kernel=(1, 1), num_filter=6, num_group=3,
                                              no_bias=True, name="c"), X4),
    case("conv1d", S.Convolution(D, kernel=(3,), num_filter=2, pad=(1,), name="c"), X3),
    case("deconv", S.Deconvolution(D, kernel=(3, 3), num_filter=2, stride=(2, 2), pad=(1, 1),
                                   adj=(1, 1), no_bias=False, name="d"), X4),
    case("deconv_groups", S.Deconvolution(D, kernel=(2, 2), num_filter=6, num_group=3,
                                          name="d"), X4),
    # pooling
    case("maxpool", S.Pooling(D, kernel=(2, 2), stride=(2, 2), pool_type="max"), X4),
    case("maxpool_pad_full", S.Pooling(D, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                       pool_type="max", pooling_convention="full"),
         {"data": (1, 2, 7, 7)}),
    case("avgpool_include_pad", S.Pooling(D, kernel=(3, 3), stride=(1, 1), pad=(1, 1),
                                          pool_type="avg"), X4),
    case("avgpool_exclude_pad", S.Pooling(D, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                          pool_type="avg", count_include_pad=False), X4),
    case("avgpool_full", S.Pooling(D, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
                                   pooling_convention="full"), {"data": (1, 2, 8, 8)}),
    case("avgpool_full_exclude", S.Pooling(D, kernel=(3, 3), stride=(2, 2), pool_type="avg",
                                           pooling_convention="full", count_include_pad=False),
         {"data": (1, 2, 8, 8)}),
    case("maxpool_same_1d", S.Pooling(D, kernel=(3,), stride=(2,), pool_type="max",
                                      pooling_convention="same", pad=(0, 0, 0)),
         {"data": (1, 2, 7)}),
    case("avgpool_same_1d", S.Pooling(D, kernel=(3,), stride=(2,), pool_type="avg",
                                      pooling_convention="same", pad=(0, 0, 0)),
         {"data": (1, 2, 7)}),
    case("maxpool_1d", S.Pooling(D, kernel=(2,), stride=(2,), pool_type="max"), X3),
    case("conv3d", S.Convolution(D, kernel=(2, 2, 2), num_filter=2, pad=(1, 0, 1), name="c"),
         {"data": (1, 2, 3, 4, 5)}),
    case("lppool", S.Pooling(D, kernel=(2, 2), stride=(2, 2), pool_type="lp", p_value=2), X4),
    case("global_max", S.Pooling(D, kernel=(1, 1), global_pool=True, pool_type="max"), X4),
    case("global_avg", S.Pooling(D, kernel=(1, 1), global_pool=True, pool_type="avg"), X4),
    case("sumpool", S.Pooling(D, kernel=(2, 2), stride=(2, 2), pool_type="sum"), X4),
    # activations
    *[case(f"act_{a}", S.Activation(D, act_type=a), X4)
      for a in ("relu", "sigmoid", "tanh", "softrelu", "softsign")],
    case("leaky", S.LeakyReLU(D, act_type="leaky", slope=0.2), X4),
    case("prelu", S.LeakyReLU(D, act_type="prelu", name="pr"), X4),
    case("elu", S.LeakyReLU(D, act_type="elu", slope=0.7), X4),
    case("selu", S.LeakyReLU(D, act_type="selu"), X4),
    case("gelu", S.LeakyReLU(D, act_type="gelu"), X4),
    case("relu_op", S.relu(D), X2),
    case("sigmoid_op", S.sigmoid(D), X2),
    # normalisation
    case("batchnorm", S.BatchNorm(D, fix_gamma=False, eps=1e-3, name="bn"), X4),
    case("batchnorm_fix_gamma", S.BatchNorm(D, fix_gamma=True, name="bn"), X4),
    case("batchnorm_global_stats", S.BatchNorm(D, use_global_stats=True, fix_gamma=False,
                                               name="bn"), X4),
    case("batchnorm_axis_last", S.BatchNorm(D, axis=-1, fix_gamma=False, name="bn"), X3),
    case("instancenorm", S.InstanceNorm(D, eps=1e-3, name="inorm"), X4),
    case("layernorm", S.LayerNorm(D, name="ln"), X3, opsets=(13, 17)),
    case("layernorm_axis1", S.LayerNorm(D, axis=1, name="ln"), X3),
    case("lrn", S.LRN(D, nsize=3, alpha=1e-3, beta=0.75, knorm=2.0), X4),
    case("l2norm", S.L2Normalization(D, mode="instance"), X4),
    case("dropout", S.Dropout(D, p=0.5), X2),
    # softmax family
    case("softmax", S.softmax(D), X2),
    case("softmax_axis1_4d", S.softmax(D, axis=1), X4, opsets=(12, 13)),
    case("softmax_temperature", S.softmax(D, temperature=2.0), X2),
    case("log_softmax", S.log_softmax(D, axis=1), X3, opsets=(12, 13)),
    case("softmax_output", S.SoftmaxOutput(D, name="softmax"), X2),
    case("softmax_output_4d", S.SoftmaxOutput(D, name="softmax"), X4),
    case("softmax_output_multi", S.SoftmaxOutput(D, multi_output=True, name="softmax"), X4),
    case("softmax_activation", S.SoftmaxActivation(D), X2),
    case("softmax_activation_channel", S.SoftmaxActivation(D, mode="channel"), X4),
    # shapes
    case("flatten", S.Flatten(D), X4),
    case("reshape", S.Reshape(D, shape=(0, -1)), X4),
    case("reshape_codes", S.Reshape(D, shape=(-3, -2)), X4),
    case("reshape_reverse", S.Reshape(D, shape=(-1, 0), reverse=True), X4),
    case("reshape_split", S.Reshape(D, shape=(-4, 1, 2, -2)), X4),
    case("concat", S.Concat(A, B, dim=1), AB4),
    case("concat_last", S.Concat(A, B, dim=3), AB4),
    case("transpose", S.transpose(D, axes=(0, 2, 3, 1)), X4),
    case("transpose_default", S.transpose(D), X3),
    case("swapaxis", S.SwapAxis(D, dim1=1, dim2=2), X3),
    case("expand_dims", S.expand_dims(D, axis=1), X2, opsets=(12, 13)),
    case("squeeze", S.squeeze(S.expand_dims(D, axis=2), axis=2), X2, opsets=(12, 13)),
    case("squeeze_all", S.squeeze(S.Reshape(D, shape=(1, 3, 1, 5))), X2),
    case("slice", S.slice(D, begin=(None, 1, 0), end=(None, 3, -1)), X3),
    case("slice_step", S.slice(D, begin=(0, None), end=(2, None), step=(1, -2)), X3),
    case("slice_axis", S.slice_axis(D, axis=2, begin=1, end=None), X3),
    case("slice_axis_neg", S.slice_axis(D, axis=-1, begin=-3, end=-1), X3),
    case("pad_constant", S.Pad(D, mode="constant", pad_width=(0, 0, 0, 0, 1, 2, 2, 1),
                               constant_value=0.5), X4),
    case("pad_edge", S.Pad(D, mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 1, 1)), X4),
    case("pad_reflect", S.Pad(D, mode="reflect", pad_width=(0, 0, 0, 0, 2, 1, 1, 2)), X4),
    case("upsampling", S.UpSampling(D, scale=2, sample_type="nearest"), X4),
    case("tile", S.tile(D, reps=(2, 1, 3)), X3),
    case("broadcast_to", S.broadcast_to(S.Reshape(D, shape=(3, 1, 5)), shape=(3, 4, 5)), X2),
    case("stack", S.stack(A, B, axis=1), AB4),
    case("split", S.split(D, num_outputs=3, axis=1), X4),
    case("split_squeeze", S.split(D, num_outputs=3, axis=1, squeeze_axis=True), X4),
    # element-wise
    *[case(op, getattr(S, op)(A, B), AB4)
      for op in ("elemwise_add", "elemwise_sub", "elemwise_mul", "elemwise_div")],
    case("broadcast_add", S.broadcast_add(A, S.var("b")), {"a": (2, 3, 4), "b": (1, 3, 1)}),
    case("broadcast_sub", S.broadcast_sub(A, B), {"a": (2, 3, 4), "b": (2, 1, 4)}),
    case("broadcast_mul", S.broadcast_mul(A, B), {"a": (2, 3, 4), "b": (1, 1, 4)}),
    case("broadcast_div", S.broadcast_div(A, B), {"a": (2, 3, 4), "b": (2, 3, 1)}),
    case("broadcast_maximum", S.broadcast_maximum(A, B), {"a": (2, 3), "b": (1, 3)}),
    case("operators", (A + B) * A - B / 3.0, AB4),
    *[case(f"scalar_{name}", fn(D), X2, positive=True) for name, fn in [
        ("plus", lambda x: x + 1.5), ("minus", lambda x: x - 1.5), ("rminus", lambda x: 1.5 - x),
        ("mul", lambda x: x * 1.5), ("div", lambda x: x / 1.5), ("rdiv", lambda x: 1.5 / x),
        ("power", lambda x: x ** 2.0), ("rpower", lambda x: 2.0 ** x),
        ("maximum", lambda x: S.maximum(x, 1.0)), ("minimum", lambda x: S.minimum(x, 1.0))]],
    case("clip", S.clip(D, -0.5, 0.5), X2),
    *[case(f"unary_{op}", getattr(S, op)(D), X2, positive=True)
      for op in ("exp", "log", "sqrt", "abs", "negative", "reciprocal", "floor", "ceil", "sin",
                 "cos", "erf", "square", "rsqrt", "sign")],
    *[case(f"unary_{op}", getattr(S, op)(D), X2, positive=True)
      for op in ("log1p", "expm1", "log2", "log10", "sinh", "cosh", "tan", "arctan")],
    case("round", S.round(D * 2.0), X2),
    case("trunc_fix_rint", S.trunc(D * 2.0) + S.fix(D * 3.0) + S.rint(D * 2.0), X2),
    case("hard_sigmoid", S.hard_sigmoid(D, alpha=0.3, beta=0.4), X2),
    case("where", S.where(S.broadcast_greater(A, B), A, B), AB4),
    case("broadcast_like", S.broadcast_like(S.sum(A, axis=1, keepdims=True), B),
         {"a": (2, 3, 4), "b": (2, 3, 4)}),
    case("compare_scalar", S._internal._greater_scalar(D, scalar=0.1) +
         S._internal._lesser_equal_scalar(D, scalar=0.3), X2),
    case("compare_all", S.broadcast_equal(A, A) + S.broadcast_not_equal(A, B) +
         S.broadcast_lesser(A, B) + S.broadcast_greater_equal(A, B), AB4),
    case("argmin_keepdims", S.argmin(D, axis=2, keepdims=True), X3),
    case("compare", S.broadcast_greater(A, B), AB4),
    case("copy_blockgrad", S.BlockGrad(S.identity(D)) + S.stop_gradient(D), X2),
    case("zeros_ones_like", S.zeros_like(D) + S.ones_like(D) * D, X2),
    case("add_n", S.add_n(A, B, A), AB4),
    case("cast", S.Cast(D, dtype="float64"), X2),
    # reductions
    case("sum_axis", S.sum(D, axis=1), X3, opsets=(12, 13)),
    case("sum_all", S.sum(D), X3),
    case("mean_keepdims", S.mean(D, axis=(1, 2), keepdims=True), X3, opsets=(12, 13, 18)),
    case("max_exclude", S.max(D, axis=1, exclude=True), X3),
    case("min", S.min(D, axis=-1), X3),
    case("prod", S.prod(D, axis=0), X3),
    case("norm", S.norm(D, axis=1), X3),
    case("argmax", S.argmax(D, axis=1), X3),
    # products
    case("dot", S.dot(A, B), {"a": (3, 4), "b": (4, 5)}),
    case("dot_transpose", S.dot(A, B, transpose_a=True, transpose_b=True),
         {"a": (4, 3), "b": (5, 4)}),
    case("dot_3d_2d", S.dot(A, B), {"a": (2, 3, 4), "b": (4, 5)}),
    case("batch_dot", S.batch_dot(A, B, transpose_b=True), {"a": (2, 3, 4), "b": (2, 5, 4)}),
    case("linalg_gemm2", S.linalg_gemm2(A, B, alpha=0.5), {"a": (2, 3, 4), "b": (2, 4, 5)}),
    # lookups
    case("embedding", S.Embedding(D, input_dim=10, output_dim=4, name="emb"), {"data": (2, 5)},
         ints=10),
    case("take", S.take(A, B), {"a": (6, 3), "b": (4,)}, ints=6),
]


def _feeds(sym, shapes, params, positive, ints, seed=1):
    rng = np.random.default_rng(seed)
    feeds = {}
    for name, shape in shapes.items():
        if ints and (name == "data" or name == "b"):
            feeds[name] = rng.integers(0, ints, shape).astype(np.float32)
        elif positive:
            feeds[name] = rng.uniform(0.2, 2.0, shape).astype(np.float32)
        else:
            feeds[name] = rng.standard_normal(shape).astype(np.float32)
    return feeds


@pytest.mark.parametrize("sym, shapes, positive, ints, opsets, tol", CASES)
def test_export_matches_onnxruntime(tmp_path, sym, shapes, positive, ints, opsets, tol):
    params = random_params(sym, {k: v for k, v in shapes.items()})
    feeds = _feeds(sym, shapes, params, positive, ints)
    want = run_mxnet(sym, feeds, params)
    data_names = [n for n in sym.list_inputs() if n not in params]
    for opset in opsets:
        path = str(tmp_path / f"model{opset}.onnx")
        out = mx.onnx.export_model(sym, params, [shapes[n] for n in data_names],
                                   onnx_file_path=path, opset_version=opset)
        assert out == path
        got = run_onnx(path, {n: feeds[n] for n in data_names})
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_close(g, w, rtol=tol, atol=tol / 10, what=f"onnxruntime, opset {opset}")
        # the file read back (import_model) gives the same outputs too
        sym2, args, auxs = mx.contrib.onnx.import_model(path)
        got = run_mxnet(sym2, {n: feeds[n] for n in data_names}, {**args, **auxs})
        for g, w in zip(got, want):
            assert_close(g, w, rtol=tol, atol=tol / 10, what=f"imported, opset {opset}")
