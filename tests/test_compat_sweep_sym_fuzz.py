"""Regressions found by a differential sweep of symbolic operators (argument lists, JSON,
shape and type inference in both directions, partial shapes with unknown dims, errors)
against MXNet 1.9.1.

Every expected literal below was recorded by running the same call under MXNet 1.9.1.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

v = mx.sym.var
a, b, c, d = v("a"), v("b"), v("c"), v("data")


def _types(res):
    return [None if r is None else [np.dtype(t).name for t in r] for r in res]


# ---------------------------------------------------------------------------------------------
# partial shapes (0 = unknown dim)

@pytest.mark.parametrize("known, want", [
    # recorded from 1.9.1: concat(a, b, c, dim=1)
    ({"a": (2, 3, 4)}, ([(2, 3, 4), (2, 0, 4), (2, 0, 4)], [(2, 3, 4)])),
    ({"a": (2, 3, 4), "b": (2, 5, 4)}, ([(2, 3, 4), (2, 5, 4), (2, 0, 4)], [(2, 8, 4)])),
    ({"a": (2, 3, 4), "b": (2, 5, 4), "c": (2, 0, 4)},
     ([(2, 3, 4), (2, 5, 4), (2, 0, 4)], [(2, 0, 4)])),
    ({"b": (2, 5, 4)}, ([(2, 0, 4), (2, 5, 4), (2, 0, 4)], [(2, 5, 4)])),
    ({"a": (0, 3, 4), "b": (2, 0, 4)}, ([(2, 3, 4), (2, 0, 4), (2, 0, 4)], [(2, 0, 4)])),
])
def test_concat_partial_shapes(known, want):
    args, outs, aux = mx.sym.concat(a, b, c, dim=1).infer_shape_partial(**known)
    assert (args, outs, aux) == (want[0], want[1], [])


def test_concat_and_stack_reject_mixed_dtypes():
    # 1.9.1: "Non-uniform data type in Concat" / "Incompatible attr ... at 1-th input"
    for sym in (mx.sym.concat(a, b, dim=1), mx.sym.stack(a, b)):
        with pytest.raises(MXNetError):
            sym.infer_type(a="float32", b="float64")
        assert _types(sym.infer_type(a="float16")) == [["float16", "float16"], ["float16"], []]


def test_stack_merges_shapes_leniently():
    # recorded from 1.9.1: the output comes from the merged input shape; inputs stay as given
    s = mx.sym.stack(a, b)
    assert s.infer_shape_partial(a=(2, 3)) == ([(2, 3), ()], [(2, 2, 3)], [])
    assert s.infer_shape_partial(a=(0, 3), b=(2, 0)) == ([(0, 3), (2, 0)], [(2, 2, 3)], [])
    assert s.infer_shape(a=(2, 3), b=(3, 3)) == ([(2, 3), (3, 3)], [(2, 2, 3)], [])


@pytest.mark.parametrize("make, shape, out", [
    # recorded from 1.9.1
    (lambda: mx.sym.pad(d, mode="constant", pad_width=(0, 0, 0, 0, 1, 1, 1, 1)),
     (0, 3, 4, 5), (0, 3, 6, 7)),
    (lambda: mx.sym.pad(d, mode="constant", pad_width=(0, 0, 0, 0, 1, 1, 1, 1)),
     (2, 3, 0, 5), (2, 3, 1, 7)),
    (lambda: mx.sym.slice(d, begin=(0, 1), end=(2, 3)), (0, 3, 4, 5), (0, 2, 4, 5)),
    (lambda: mx.sym.slice(d, begin=(0, 1), end=(2, 3)), (2, 0, 4, 5), (2, 0, 4, 5)),
    (lambda: mx.sym.slice(d, begin=(0, 1), end=(None, 3)), (0, 3, 4, 5), (0, 2, 4, 5)),
    (lambda: mx.sym.tile(d, reps=(2, 1)), (0, 3, 4, 5), ()),
    (lambda: mx.sym.Flatten(d), (0, 3, 4, 5), ()),
    (lambda: mx.sym.Flatten(d), (2, 0, 4, 5), ()),
    (lambda: mx.sym.max(d), (0, 3, 4, 5), ()),
    (lambda: mx.sym.min(d, axis=1), (0, 3, 4, 5), ()),
    (lambda: mx.sym.max_axis(d, axis=1), (0, 3), ()),
    (lambda: mx.sym.sum(d, axis=1), (0, 3, 4, 5), (0, 4, 5)),
    (lambda: mx.sym.squeeze(d), (0, 1, 4, 5), ()),
    (lambda: mx.sym.one_hot(d, depth=5), (0, 3), ()),
    (lambda: mx.sym.Cast(d, dtype="float16"), (0, 3), (0, 3)),
    (lambda: mx.sym.Pooling(d, kernel=(2, 2)), (0, 3, 8, 8), (0, 3, 7, 7)),
    (lambda: mx.sym.Pooling(d, kernel=(2, 2), layout="NHWC"), (0, 8, 8, 0), (0, 7, 7, 0)),
    (lambda: mx.sym.Pooling(d, kernel=(2, 2), global_pool=True), (0, 3, 8, 8), (0, 3, 1, 1)),
    (lambda: mx.sym.Pooling(d, kernel=(2, 2), pooling_convention="full", stride=(2, 2)),
     (2, 0, 7, 7), (2, 0, 4, 4)),
    (lambda: mx.sym.Reshape(d, shape=(0, -1)), (0, 3, 4, 5), (0, 0)),
    (lambda: mx.sym.Reshape(d, shape=(-1, 0)), (0, 3), (0, 3)),
    (lambda: mx.sym.Reshape(d, shape=(2, -1)), (0, 3), (2, 0)),
    (lambda: mx.sym.Reshape(d, shape=(0, 3, -1)), (0, 3, 4), (0, 3, 0)),
    (lambda: mx.sym.Reshape(d, shape=(-2,)), (0, 3, 4), (0, 3, 4)),
    (lambda: mx.sym.Reshape(d, shape=(-3, 0)), (0, 3, 4), (0, 4)),
    (lambda: mx.sym.Reshape(d, shape=(0, -3)), (0, 3, 4), (0, 12)),
    (lambda: mx.sym.Reshape(d, shape=(0, -4, 1, -1, 0)), (0, 3, 4), (0, 1, 3, 4)),
    (lambda: mx.sym.Reshape(d, shape=(0, 0, 2)), (0, 3, 0), (0, 3, 2)),
    (lambda: mx.sym.Reshape(d, shape=(-1,)), (0, 3), (0,)),
    (lambda: mx.sym.Reshape(d, shape=(0, -1), reverse=True), (0, 3, 4), (3, 0)),
    (lambda: mx.sym.Reshape(d, shape=(-1, 0), reverse=True), (0, 3, 4), (0, 4)),
])
def test_one_input_partial_shapes(make, shape, out):
    assert make().infer_shape_partial(data=shape) == ([shape], [out], [])


def test_reshape_fills_one_unknown_input_dim_from_the_output():
    # recorded from 1.9.1
    s = mx.sym.Reshape(d, shape=(6, 2))
    assert s.infer_shape_partial(data=(0, 3, 4)) == ([(1, 3, 4)], [(6, 2)], [])


@pytest.mark.parametrize("make, known, want", [
    # recorded from 1.9.1
    (lambda: mx.sym.broadcast_add(a, b), {"a": (0, 3), "b": (1, 3)}, ([(0, 3), (1, 3)], [(0, 3)])),
    (lambda: mx.sym.dot(a, b), {"a": (0, 3), "b": (3, 0)}, ([(0, 3), (3, 0)], [(0, 0)])),
    (lambda: mx.sym.dot(a, b, transpose_a=True), {"a": (3, 0), "b": (3, 4)},
     ([(3, 0), (3, 4)], [(0, 4)])),
    (lambda: mx.sym.dot(a, b), {"a": (0, 2, 3), "b": (3, 4)}, ([(0, 2, 3), (3, 4)], [(0, 2, 4)])),
    (lambda: mx.sym.batch_dot(a, b), {"a": (0, 2, 3), "b": (0, 3, 4)},
     ([(0, 2, 3), (0, 3, 4)], [(0, 2, 4)])),
    (lambda: mx.sym.batch_dot(a, b, transpose_b=True), {"a": (5, 2, 0), "b": (5, 4, 3)},
     ([(5, 2, 0), (5, 4, 3)], [()])),
])
def test_two_input_partial_shapes(make, known, want):
    assert make().infer_shape_partial(**known) == (want[0], want[1], [])


def test_batch_dot_unknown_batch_against_known_is_an_error():
    # 1.9.1: "Check failed: lshape[i] == rshape[i] (-1 vs. 5)"
    with pytest.raises(MXNetError):
        mx.sym.batch_dot(a, b).infer_shape_partial(a=(0, 2, 3), b=(5, 3, 4))


def test_rnn_partial_batch_and_sequence():
    # recorded from 1.9.1
    s = mx.sym.RNN(d, state_size=4, num_layers=1, mode="lstm")
    assert s.infer_shape_partial(data=(5, 0, 3)) == (
        [(5, 0, 3), (144,), (1, 0, 4), (1, 0, 4)], [(5, 0, 4)], [])
    s = mx.sym.RNN(d, state_size=4, num_layers=2, mode="gru", bidirectional=True,
                   state_outputs=True)
    assert s.infer_shape_partial(data=(0, 2, 3)) == (
        [(0, 2, 3), (552,), (4, 2, 4)], [(0, 2, 8), (4, 2, 4)], [])


# ---------------------------------------------------------------------------------------------
# type inference

@pytest.mark.parametrize("op", ["Pooling", "GridGenerator", "BilinearSampler",
                                "SpatialTransformer"])
def test_integer_dtypes_pass_type_inference(op):
    # 1.9.1 infers int32 through these operators (the kernels reject it when they run)
    make = {
        "Pooling": lambda: mx.sym.Pooling(d, kernel=(2, 2)),
        "GridGenerator": lambda: mx.sym.GridGenerator(d, transform_type="affine",
                                                      target_shape=(4, 4)),
        "BilinearSampler": lambda: mx.sym.BilinearSampler(d, v("grid")),
        "SpatialTransformer": lambda: mx.sym.SpatialTransformer(
            d, v("loc"), target_shape=(4, 4), transform_type="affine", sampler_type="bilinear"),
    }[op]
    res = _types(make().infer_type(data="int32"))
    n = 1 if op in ("Pooling", "GridGenerator") else 2
    assert res == [["int32"] * n, ["int32"], []]


@pytest.mark.parametrize("op", ["broadcast_like", "reshape_like", "slice_like"])
def test_like_operators_leave_the_second_dtype_free(op):
    # recorded from 1.9.1: the output follows lhs; rhs keeps its own dtype (or stays unknown)
    f = getattr(mx.sym, op)
    assert _types(f(a, b).infer_type(a="float32", b="int32")) == [
        ["float32", "int32"], ["float32"], []]
    with pytest.warns(UserWarning):
        assert f(a, b).infer_type(a="float16") == (None, None, None)


def test_boolean_mask_index_dtype_is_free():
    # recorded from 1.9.1
    s = mx.sym.contrib.boolean_mask(d, b)
    with pytest.warns(UserWarning):
        assert s.infer_type(data="float16") == (None, None, None)
    assert _types(s.infer_type(data="float16", b="int32")) == [
        ["float16", "int32"], ["float16"], []]


@pytest.mark.parametrize("op, dt", [("SequenceMask", "float16"), ("SequenceLast", "float64"),
                                    ("SequenceReverse", "int32")])
def test_sequence_length_takes_the_data_dtype(op, dt):
    # recorded from 1.9.1
    s = getattr(mx.sym, op)(d, b, use_sequence_length=True)
    assert _types(s.infer_type(data=dt)) == [[dt, dt], [dt], []]
    assert _types(s.infer_type(data=dt, b="int32")) == [[dt, "int32"], [dt], []]


def test_bilinear_resize_like_takes_the_data_dtype():
    # recorded from 1.9.1
    s = mx.sym.contrib.BilinearResize2D(d, b, mode="like")
    assert _types(s.infer_type(data="float16")) == [["float16", "float16"], ["float16"], []]


def test_multi_sum_sq_unifies_its_inputs():
    # recorded from 1.9.1: the inputs share one dtype; the output is float32
    s = mx.sym.multi_sum_sq(a, b, num_arrays=2)
    assert _types(s.infer_type(a="float16")) == [["float16", "float16"], ["float32"], []]
    with pytest.raises(MXNetError):
        s.infer_type(a="float16", b="float64")


@pytest.mark.parametrize("dt", ["float64", "int32", "float32", "float16"])
def test_norm_out_dtype_types_the_output(dt):
    # recorded from 1.9.1
    s = mx.sym.norm(d, out_dtype="float64")
    assert _types(s.infer_type(data=dt)) == [[dt], ["float64"], []]
    assert _types(mx.sym.norm(d).infer_type(data=dt)) == [[dt], [dt], []]


@pytest.mark.parametrize("dt", ["int32", "int8", "uint8", "int64"])
def test_batch_norm_rejects_integer_data_in_type_inference(dt):
    # 1.9.1: "This operation only support floating point types, not int32"
    with pytest.raises(MXNetError, match=dt):
        mx.sym.BatchNorm(d).infer_type(data=dt)
    with pytest.raises(MXNetError, match=dt):
        mx.sym.contrib.BatchNormWithReLU(d).infer_type(data=dt)


def test_batch_norm_float_types():
    # recorded from 1.9.1: float16 data keeps float32 parameters and statistics
    assert _types(mx.sym.BatchNorm(d).infer_type(data="float16")) == [
        ["float16", "float32", "float32"], ["float16"], ["float32", "float32"]]
    assert _types(mx.sym.BatchNorm(d).infer_type(data="float64")) == [
        ["float64"] * 3, ["float64"], ["float64"] * 2]


@pytest.mark.parametrize("dt", ["float16", "float64", "int32"])
def test_instance_norm_graph_is_float32_only(dt):
    # 1.9.1: "Unsupported data type" for anything but float32
    with pytest.raises(MXNetError):
        mx.sym.InstanceNorm(d).infer_type(data=dt)
    assert _types(mx.sym.InstanceNorm(d).infer_type(data="float32")) == [
        ["float32"] * 3, ["float32"], []]


# ---------------------------------------------------------------------------------------------
# composition and JSON

def test_variadic_operators_make_the_inputs_not_given():
    # recorded from 1.9.1
    with mx.name.NameManager():
        assert mx.sym.concat(a, b, num_args=3).list_arguments() == ["a", "b", "concat0_arg2"]
    with mx.name.NameManager():
        assert mx.sym.add_n(a, num_args=2).list_arguments() == ["a", "add_n0_arg1"]
    with pytest.raises(MXNetError):
        mx.sym.concat(a, b, num_args=1)


def test_bilinear_upsampling_weight_variable():
    # recorded from 1.9.1 (tojson without whitespace)
    s = mx.sym.UpSampling(a, scale=2, sample_type="bilinear", num_filter=3, name="u")
    assert s.list_arguments() == ["a", "u_weight"]
    assert s.tojson().replace("\n", "").replace(" ", "") == (
        '{"nodes":[{"op":"null","name":"a","inputs":[]},{"op":"null","name":"u_weight",'
        '"attrs":{"__init__":"[\\"bilinear\\",{}]","num_args":"1","num_filter":"3",'
        '"sample_type":"bilinear","scale":"2"},"inputs":[]},{"op":"UpSampling","name":"u",'
        '"attrs":{"num_args":"1","num_filter":"3","sample_type":"bilinear","scale":"2"},'
        '"inputs":[[0,0,0],[1,0,0]]}],"arg_nodes":[0,1],"node_row_ptr":[0,1,2,3],'
        '"heads":[[2,0,0]],"attrs":{"mxnet_version":["int",10901]}}')
    assert s.infer_shape(a=(1, 3, 4, 4)) == ([(1, 3, 4, 4), (3, 1, 4, 4)], [(1, 3, 8, 8)], [])
    # a weight variable given by the caller gets the initializer too
    s = mx.sym.UpSampling(a, b, scale=2, sample_type="bilinear", num_filter=3, name="u")
    assert s.list_arguments() == ["a", "b"]
    assert s.attr_dict()["b"] == {"__init__": '["bilinear", {}]'}


def test_kl_sparse_reg_moving_average_initializer():
    # recorded from 1.9.1: the auxiliary moving_avg variable carries ["zero", {}]
    s = mx.sym.IdentityAttachKLSparseReg(d, name="k")
    assert s.list_auxiliary_states() == ["k_moving_avg"]
    assert s.attr_dict()["k_moving_avg"] == {"__init__": '["zero", {}]'}


@pytest.mark.parametrize("make, want", [
    # recorded from 1.9.1: the names of variadic inputs made for the caller
    (lambda: mx.sym.multi_all_finite(a, num_arrays=2), ["a", "multi_all_finite0_array_1"]),
    (lambda: mx.sym.multi_sum_sq(a, num_arrays=2), ["a", "multi_sum_sq0_array_1"]),
    (lambda: mx.sym.amp_multicast(a, num_outputs=2), ["a", "amp_multicast0_data_1"]),
    (lambda: mx.sym.stack(a, num_args=2), ["a", "stack0_arg1"]),
    (lambda: mx.sym.UpSampling(a, num_args=2, scale=2, sample_type="nearest"),
     ["a", "upsampling0_arg1"]),
])
def test_variadic_input_names(make, want):
    with mx.name.NameManager():
        assert make().list_arguments() == want


# ---------------------------------------------------------------------------------------------
# linalg: square inputs, det/slogdet dtypes

@pytest.mark.parametrize("op", ["det", "slogdet", "inverse", "syevd", "extractdiag",
                                "extracttrian"])
def test_linalg_square_input_checked_in_shape_inference(op):
    # 1.9.1 rejects a non-square A while inferring shapes
    s = getattr(mx.sym.linalg, op)(v("A"))
    with pytest.raises(MXNetError):
        s.infer_shape(A=(2, 3, 4, 5))
    s.infer_shape(A=(2, 3, 4, 4))


def test_linalg_trmm_checks_a_once_b_is_known():
    # recorded from 1.9.1: nothing is inferred (and nothing raised) until B is known
    s = mx.sym.linalg.trmm(v("A"), v("B"))
    assert s.infer_shape_partial(A=(2, 3, 4, 5)) == ([(2, 3, 4, 5), ()], [()], [])
    assert s.infer_shape_partial(B=(2, 3, 4, 5)) == ([(), (2, 3, 4, 5)], [()], [])
    with pytest.raises(MXNetError):
        s.infer_shape(A=(2, 3, 4, 5), B=(2, 3, 4, 5))
    assert s.infer_shape(A=(2, 3, 4, 4), B=(2, 3, 4, 5)) == (
        [(2, 3, 4, 4), (2, 3, 4, 5)], [(2, 3, 4, 5)], [])


@pytest.mark.parametrize("op", ["det", "slogdet"])
def test_linalg_det_types(op):
    # 1.9.1: float32 and float64 only
    s = getattr(mx.sym.linalg, op)(v("A"))
    for dt in ("float16", "int32"):
        with pytest.raises(MXNetError):
            s.infer_type(A=dt)
    n = 1 if op == "det" else 2
    assert _types(s.infer_type(A="float64")) == [["float64"], ["float64"] * n, []]


# ---------------------------------------------------------------------------------------------
# float32-only graphs and mixed dtypes

@pytest.mark.parametrize("make, nin, nout, naux", [
    (lambda: mx.sym.IdentityAttachKLSparseReg(d), 1, 1, 1),
    (lambda: mx.sym.contrib.MultiBoxPrior(d), 1, 1, 0),
    (lambda: mx.sym.contrib.MultiBoxTarget(d, v("label"), v("cls_pred")), 3, 3, 0),
    (lambda: mx.sym.contrib.MultiBoxDetection(d, v("loc_pred"), v("anchor")), 3, 1, 0),
    (lambda: mx.sym.contrib.Proposal(d, v("bbox_pred"), v("im_info")), 3, 1, 0),
    (lambda: mx.sym.contrib.MultiProposal(d, v("bbox_pred"), v("im_info")), 3, 1, 0),
])
def test_legacy_operators_type_float32_only(make, nin, nout, naux):
    # 1.9.1: float16, float64 and int32 data are type errors; float32 fills every input
    s = make()
    for dt in ("float16", "float64", "int32"):
        with pytest.raises(MXNetError):
            s.infer_type(data=dt)
    assert _types(s.infer_type(data="float32")) == [
        ["float32"] * nin, ["float32"] * nout, ["float32"] * naux]


@pytest.mark.parametrize("make", [
    lambda: mx.sym.ROIPooling(d, v("rois"), pooled_size=(2, 2), spatial_scale=0.5),
    lambda: mx.sym.contrib.ROIAlign(d, v("rois"), pooled_size=(2, 2), spatial_scale=0.5),
    lambda: mx.sym.contrib.RROIAlign(d, v("rois"), pooled_size=(2, 2), spatial_scale=0.5),
])
def test_roi_operators_need_both_dtypes(make):
    # recorded from 1.9.1: any one dtype for data and rois together; either alone is an error
    s = make()
    for dt in ("float16", "float64", "float32", "int32"):
        assert _types(s.infer_type(data=dt, rois=dt)) == [[dt, dt], [dt], []]
    for kw in ({"data": "float32"}, {"rois": "float32"}, {"data": "float32", "rois": "float64"}):
        with pytest.raises(MXNetError):
            s.infer_type(**kw)


@pytest.mark.parametrize("make, names", [
    (lambda: mx.sym.khatri_rao(a, b), ("a", "b")),
    (lambda: mx.sym.contrib.box_iou(a, b), ("a", "b")),
    (lambda: mx.sym.contrib.box_decode(a, b), ("a", "b")),
    (lambda: mx.sym.contrib.interleaved_matmul_encdec_qk(a, b, heads=2), ("a", "b")),
    (lambda: mx.sym.contrib.interleaved_matmul_selfatt_valatt(a, b, heads=2), ("a", "b")),
])
def test_mixed_input_dtypes_are_errors(make, names):
    # 1.9.1 rejects inputs of different dtypes; one dtype fills the other input
    s = make()
    with pytest.raises(MXNetError):
        s.infer_type(**{names[0]: "float32", names[1]: "float64"})
    assert _types(s.infer_type(**{names[0]: "float16"}))[0] == ["float16", "float16"]
