"""UpSampling, Crop, ROIPooling, GridGenerator, BilinearSampler, SpatialTransformer: 1.9.1 golden
forward/backward, numeric gradients, shape inference, signatures and error messages."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .harness import GradCase, check_grad_case, expect_error, rand
from .test_nn_pool import _TABLE, check_golden, distinct, golden  # noqa: F401  (fixture)

nd = mx.nd

NON_DIFFERENTIABLE = ("_backward_UpSampling", "_backward_Crop", "_backward_ROIPooling",
                      "_backward_GridGenerator", "_backward_BilinearSampler")

_ROIS = np.array([[0, 0, 0, 4, 3], [1, 1.4, 0.6, 5.6, 4.5], [0, 2, 2, 2, 2], [1, -3, -2, 10, 12]])
# generic affine maps: no target point lands on an integer source position (a kink of the
# bilinear interpolation, where 1.9.1's one-sided derivative differs from a central difference)
_LOC = np.array([[0.83, 0.11, 0.07, -0.13, 0.91, 0.053], [0.71, -0.29, 0.17, 0.23, 0.77, -0.11]])


def _grid(*shape, seed=0):
    """Sampling coordinates away from integer source positions (the interpolation's kinks)."""
    g = rand(*shape, low=-1.2, high=1.2, seed=seed)
    return g


GRAD_CASES = [
    GradCase("up_nearest", lambda x: nd.UpSampling(x, scale=2, sample_type="nearest"),
             [rand(2, 2, 2, 3)], ops=("UpSampling",)),
    GradCase("up_nearest_concat", lambda a, b: nd.UpSampling(a, b, scale=2, sample_type="nearest"),
             [rand(1, 2, 2, 2), rand(1, 1, 1, 1, seed=1)], ops=("UpSampling",)),
    GradCase("up_nearest_sum", lambda a, b: nd.UpSampling(a, b, scale=3, sample_type="nearest",
                                                          multi_input_mode="sum"),
             [rand(1, 2, 2, 2), rand(1, 2, 6, 6, seed=1)], ops=("UpSampling",)),
    GradCase("up_bilinear", lambda x, w: nd.UpSampling(x, w, scale=2, sample_type="bilinear",
                                                       num_filter=2),
             [rand(2, 2, 2, 3), rand(2, 1, 4, 4, seed=1)], ops=("UpSampling",)),
    GradCase("up_bilinear_s3", lambda x, w: nd.UpSampling(x, w, scale=3, sample_type="bilinear",
                                                          num_filter=1),
             [rand(1, 1, 2, 2), rand(1, 1, 5, 5, seed=1)], ops=("UpSampling",)),
    GradCase("crop_like", lambda x, y: nd.Crop(x, y, offset=(1, 2)),
             [rand(2, 2, 4, 5), rand(1, 1, 2, 3, seed=1)], ops=("Crop",)),
    GradCase("crop_hw_center", lambda x: nd.Crop(x, h_w=(2, 2), center_crop=True),
             [rand(1, 2, 5, 4)], ops=("Crop",)),
    GradCase("roi_pooling", lambda x, r: nd.ROIPooling(x, r, pooled_size=(2, 2), spatial_scale=1.0),
             [distinct(2, 2, 6, 7), _ROIS], ops=("ROIPooling",), wrt=[0]),
    GradCase("roi_pooling_scaled", lambda x, r: nd.ROIPooling(x, r, pooled_size=(3, 2),
                                                              spatial_scale=0.5),
             [distinct(2, 1, 5, 6, seed=1), _ROIS * 2], ops=("ROIPooling",), wrt=[0]),
    GradCase("grid_affine", lambda t: nd.GridGenerator(t, transform_type="affine",
                                                       target_shape=(3, 4)),
             [rand(2, 6)], ops=("GridGenerator",)),
    GradCase("grid_warp", lambda f: nd.GridGenerator(f, transform_type="warp"),
             [rand(2, 2, 3, 4)], ops=("GridGenerator",)),
    GradCase("bilinear_sampler", lambda d, g: nd.BilinearSampler(d, g),
             [rand(2, 2, 4, 5), _grid(2, 2, 3, 3, seed=1)], ops=("BilinearSampler",)),
    GradCase("bilinear_sampler_single", lambda d, g: nd.BilinearSampler(d, g),
             [rand(1, 3, 3, 3, seed=2), _grid(1, 2, 2, 4, seed=3)], ops=("BilinearSampler",)),
    GradCase("spatial_transformer", lambda d, l: nd.SpatialTransformer(
        d, l, target_shape=(3, 4), transform_type="affine", sampler_type="bilinear"),
             [rand(2, 2, 4, 5), _LOC], ops=("SpatialTransformer",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


@pytest.mark.parametrize("case", [c for c in _TABLE.CASES if c.family == "spatial"],
                         ids=lambda c: c.id)
def test_golden(case, golden):  # noqa: F811
    check_golden(case, golden)


# ---------------------------------------------------------------------------------------------
# UpSampling


def test_upsampling_nearest_values_and_multi_input():
    a = nd.arange(8).reshape((1, 2, 2, 2))
    out = nd.UpSampling(a, scale=2, sample_type="nearest").asnumpy()
    np.testing.assert_array_equal(out[0, 0], [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3],
                                              [2, 2, 3, 3]])
    b = nd.ones((1, 3, 4, 4))
    assert nd.UpSampling(a, b, scale=2, sample_type="nearest").shape == (1, 5, 4, 4)
    assert nd.UpSampling(b, a, scale=2, sample_type="nearest").shape == (1, 5, 8, 8)
    assert nd.UpSampling(nd.ones((1, 2, 3, 3)), a, scale=2,
                         sample_type="nearest").shape == (1, 4, 6, 6)
    assert nd.UpSampling(nd.ones((1, 2, 3, 4)), scale=2, sample_type="nearest").shape == (1, 2, 6, 8)


def test_upsampling_bilinear_is_depthwise_deconvolution():
    x = rand(1, 2, 3, 3, seed=5)
    w = rand(2, 1, 4, 4, seed=6)
    out = nd.UpSampling(nd.array(x, dtype="float64"), nd.array(w, dtype="float64"), scale=2,
                        sample_type="bilinear", num_filter=2).asnumpy()
    full = np.zeros((1, 2, 8, 8))
    for i in range(3):
        for j in range(3):
            full[:, :, 2 * i:2 * i + 4, 2 * j:2 * j + 4] += x[:, :, i:i + 1, j:j + 1] * w[:, 0][None]
    np.testing.assert_allclose(out, full[:, :, 1:7, 1:7], rtol=1e-12)


def test_upsampling_signature_and_inputs():
    assert list(inspect.signature(nd.UpSampling).parameters)[0] == "data"
    op = get_op("UpSampling")
    attrs = op.parse_attrs(dict(scale=2, sample_type="bilinear", num_args=2, num_filter=3))
    assert op.input_names(attrs) == ["data", "weight"]
    assert op.infer_shape(attrs, [(1, 3, 4, 5), None], [None]) == (
        [(1, 3, 4, 5), (3, 1, 4, 4)], [(1, 3, 8, 10)], [])
    attrs = op.parse_attrs(dict(scale=3, sample_type="nearest", num_args=2))
    assert op.input_names(attrs) == ["arg0", "arg1"]
    assert op.infer_shape(attrs, [(1, 2, 2, 2), (1, 1, 3, 3)], [None])[1] == [(1, 3, 6, 6)]
    attrs = op.parse_attrs(dict(scale=3, sample_type="bilinear", num_args=1, num_filter=2))
    assert op.infer_shape(attrs, [(1, 2, 3, 3), None], [None])[0][1] == (2, 1, 5, 5)


def test_upsampling_errors():
    a = nd.ones((1, 2, 2, 2))
    expect_error(nd.UpSampling, a, nd.ones((1, 2, 3, 3)), scale=2, sample_type="nearest",
                 match="(1, 2, 3, 3)")
    expect_error(nd.UpSampling, nd.ones((1, 2, 3)), scale=2, sample_type="nearest", match="4-D")
    expect_error(nd.UpSampling, a, nd.ones((1, 3, 4, 4)), scale=2, sample_type="nearest",
                 multi_input_mode="sum", match="channel")
    expect_error(nd.UpSampling, a, nd.ones((2, 2, 4, 4)), scale=2, sample_type="nearest",
                 match="batch")
    expect_error(nd.UpSampling, a, scale=0, sample_type="nearest", match="scale")
    expect_error(nd.UpSampling, a, scale=2, match="sample_type")
    expect_error(nd.UpSampling, nd.ones((1, 2, 2, 2), dtype="int32"), scale=2,
                 sample_type="nearest", match="int32")
    expect_error(nd.UpSampling, a, nd.ones((1, 2, 4, 4), dtype="float64"), scale=2,
                 sample_type="nearest", match="dtype")
    expect_error(nd.UpSampling, a, scale=2, sample_type="bilinear", num_filter=2, match="weight")
    expect_error(nd.UpSampling, a, nd.ones((2, 1, 3, 3)), scale=2, sample_type="bilinear",
                 num_filter=2, match="(2, 1, 4, 4)")
    expect_error(nd.UpSampling, a, nd.ones((2, 1, 4, 4)), scale=2, sample_type="bilinear",
                 match="num_filter")


# ---------------------------------------------------------------------------------------------
# Crop


def test_crop_windows():
    x = nd.arange(2 * 2 * 5 * 6).reshape((2, 2, 5, 6))
    like = nd.ones((1, 1, 3, 2))
    assert nd.Crop(x, like).asnumpy()[0, 0, 0].tolist() == [0, 1]
    assert nd.Crop(x, like, center_crop=True).asnumpy()[0, 0, 0].tolist() == [8, 9]
    assert nd.Crop(x, nd.ones((1, 1, 2, 3)), center_crop=True).asnumpy()[0, 0, 0].tolist() == [
        7, 8, 9]
    assert nd.Crop(x, h_w=(3, 2), offset=(2, 4)).asnumpy()[0, 0, 0].tolist() == [16, 17]
    assert nd.Crop(x, like, h_w=(4, 4)).shape == (2, 2, 3, 2)
    op = get_op("Crop")
    attrs = op.parse_attrs(dict(num_args=2))
    assert op.input_names(attrs) == ["data", "crop_like"]
    assert op.infer_shape(attrs, [(2, 3, 6, 7), (1, 1, 2, 4)], [None])[1] == [(2, 3, 2, 4)]
    attrs = op.parse_attrs(dict(num_args=1, h_w=(2, 3)))
    assert op.input_names(attrs) == ["data"]
    assert op.infer_shape(attrs, [(2, 3, 6, 7)], [None])[1] == [(2, 3, 2, 3)]


def test_crop_errors():
    x = nd.ones((2, 2, 5, 6))
    expect_error(nd.Crop, x, match="h_w")
    expect_error(nd.Crop, x, h_w=(3, 2), offset=(3, 4), match="offset")
    expect_error(nd.Crop, x, h_w=(3, 2), offset=(2, 5), match="offset")
    expect_error(nd.Crop, x, h_w=(6, 2), match="h_w")
    expect_error(nd.Crop, nd.ones((2, 5, 6)), h_w=(3, 2), match="4-D")
    expect_error(nd.Crop, x, x, x, match="num_args")
    expect_error(nd.Crop, nd.ones((1, 1, 4, 4), dtype="int32"), h_w=(2, 2), match="int32")
    expect_error(nd.Crop, x, nd.ones((1, 3, 2)), match="crop_like")


# ---------------------------------------------------------------------------------------------
# ROIPooling


def test_roi_pooling_values_ties_and_gradient():
    x = nd.array([[[[1, 5, 5, 1], [5, 0, 0, 5], [0, 0, 0, 0], [-1, -2, -1, -3]]]])
    rois = nd.array([[0, 0, 0, 3, 3], [0, 0, 2, 3, 3], [0, 1, 1, 1, 1]])
    x.attach_grad()
    rois.attach_grad()
    with mx.autograd.record():
        y = nd.ROIPooling(x, rois, pooled_size=(2, 2), spatial_scale=1.0)
    y.backward(nd.arange(12).reshape(y.shape) + 1)
    assert y.asnumpy().reshape(3, 4).tolist() == [[5, 5, 0, 0], [0, 0, -1, -1], [0, 0, 0, 0]]
    assert x.grad.asnumpy()[0, 0].tolist() == [[0, 1, 2, 0], [0, 42, 0, 0], [8, 0, 10, 0],
                                               [7, 0, 8, 0]]
    assert np.all(rois.grad.asnumpy() == 0)


def test_roi_pooling_bad_batch_index_gives_zero():
    y = nd.ROIPooling(nd.ones((1, 1, 4, 4)), nd.array([[3, 0, 0, 2, 2], [-1, 0, 0, 2, 2]]),
                      pooled_size=(2, 2), spatial_scale=1.0)
    assert np.all(y.asnumpy() == 0)


def test_roi_pooling_hidden_output_and_shapes():
    y = nd.ROIPooling(nd.ones((2, 3, 5, 5)), nd.array(_ROIS), pooled_size=(2, 3),
                      spatial_scale=1.0)
    assert isinstance(y, mx.nd.NDArray) and y.shape == (4, 3, 2, 3)
    op = get_op("ROIPooling")
    attrs = op.parse_attrs(dict(pooled_size=(2, 3), spatial_scale=0.5))
    assert op.num_outputs(attrs) == 2 and op.num_visible_outputs(attrs) == 1
    assert op.infer_shape(attrs, [(2, 3, 5, 5), (7, 5)], [None, None])[1] == [(7, 3, 2, 3)] * 2
    assert list(inspect.signature(nd.ROIPooling).parameters)[:4] == [
        "data", "rois", "pooled_size", "spatial_scale"]


def test_roi_pooling_errors():
    d, r = nd.ones((1, 1, 4, 4)), nd.array([[0, 0, 0, 2, 2]])
    expect_error(nd.ROIPooling, d, nd.array([[0, 0, 2, 2]]), pooled_size=(2, 2), spatial_scale=1.0,
                 match="(num_rois, 5)")
    expect_error(nd.ROIPooling, d, nd.array([0, 0, 0, 2, 2]), pooled_size=(2, 2),
                 spatial_scale=1.0, match="(num_rois, 5)")
    expect_error(nd.ROIPooling, nd.ones((1, 4, 4)), r, pooled_size=(2, 2), spatial_scale=1.0,
                 match="4-D")
    expect_error(nd.ROIPooling, d, r, pooled_size=(2,), spatial_scale=1.0, match="pooled_size")
    expect_error(nd.ROIPooling, d, r, pooled_size=(0, 2), spatial_scale=1.0, match="pooled_size")
    expect_error(nd.ROIPooling, d, r, pooled_size=(2, 2), match="spatial_scale")
    expect_error(nd.ROIPooling, d.astype("float64"), r, pooled_size=(2, 2), spatial_scale=1.0,
                 match="dtype")
    expect_error(nd.ROIPooling, d.astype("int32"), r.astype("int32"), pooled_size=(2, 2),
                 spatial_scale=1.0, match="int32")


# ---------------------------------------------------------------------------------------------
# GridGenerator, BilinearSampler, SpatialTransformer


def test_grid_generator_values():
    g = nd.GridGenerator(nd.array([[1, 0, 0, 0, 1, 0]]), transform_type="affine",
                         target_shape=(3, 4)).asnumpy()
    np.testing.assert_allclose(g[0, 0, 0], [-1, -1 / 3, 1 / 3, 1], rtol=1e-6)
    np.testing.assert_allclose(g[0, 1, :, 0], [-1, 0, 1], rtol=1e-6)
    flow = np.zeros((1, 2, 3, 5))
    w = nd.GridGenerator(nd.array(flow), transform_type="warp").asnumpy()
    np.testing.assert_allclose(w[0, 0, 0], [-1, -0.5, 0, 0.5, 1], atol=1e-6)
    assert np.isnan(nd.GridGenerator(nd.ones((1, 6)), transform_type="affine",
                                     target_shape=(1, 1)).asnumpy()).all()
    op = get_op("GridGenerator")
    attrs = op.parse_attrs(dict(transform_type="affine", target_shape=(5, 6)))
    assert op.infer_shape(attrs, [(3, 6)], [None])[1] == [(3, 2, 5, 6)]
    attrs = op.parse_attrs(dict(transform_type="warp"))
    assert op.infer_shape(attrs, [(3, 2, 5, 6)], [None])[1] == [(3, 2, 5, 6)]


def test_identity_transform_reproduces_data():
    d = rand(2, 3, 4, 5, seed=8)
    loc = np.tile([1.0, 0, 0, 0, 1.0, 0], (2, 1))
    out = nd.SpatialTransformer(nd.array(d, dtype="float64"), nd.array(loc, dtype="float64"),
                                target_shape=(4, 5), transform_type="affine",
                                sampler_type="bilinear")
    np.testing.assert_allclose(out.asnumpy(), d, atol=1e-12)
    grid = nd.GridGenerator(nd.array(loc, dtype="float64"), transform_type="affine",
                            target_shape=(4, 5))
    np.testing.assert_allclose(nd.BilinearSampler(nd.array(d, dtype="float64"), grid).asnumpy(),
                               d, atol=1e-12)


def test_sampler_outside_reads_zero():
    d = nd.ones((1, 1, 3, 3))
    g = nd.array([[[[3.0, -3.0]], [[0.0, 0.0]]]])
    assert nd.BilinearSampler(d, g).asnumpy().ravel().tolist() == [0, 0]


def test_spatial_signatures_and_shapes():
    assert list(inspect.signature(nd.SpatialTransformer).parameters)[:6] == [
        "data", "loc", "target_shape", "transform_type", "sampler_type", "cudnn_off"]
    assert list(inspect.signature(nd.BilinearSampler).parameters)[:3] == ["data", "grid",
                                                                          "cudnn_off"]
    assert list(inspect.signature(nd.GridGenerator).parameters)[:3] == [
        "data", "transform_type", "target_shape"]
    op = get_op("BilinearSampler")
    assert op.infer_shape(op.parse_attrs({}), [(2, 3, 7, 8), (2, 2, 4, 5)], [None])[1] == [
        (2, 3, 4, 5)]
    op = get_op("SpatialTransformer")
    attrs = op.parse_attrs(dict(target_shape=(4, 5), transform_type="affine",
                                sampler_type="bilinear"))
    assert op.infer_shape(attrs, [(2, 3, 7, 8), None], [None]) == (
        [(2, 3, 7, 8), (2, 6)], [(2, 3, 4, 5)], [])


def test_spatial_errors():
    expect_error(nd.GridGenerator, nd.ones((2, 6)), transform_type="affine", match="target_shape")
    expect_error(nd.GridGenerator, nd.ones((2, 5)), transform_type="affine", target_shape=(2, 2),
                 match="(batch, 6)")
    expect_error(nd.GridGenerator, nd.ones((1, 3, 3, 4)), transform_type="warp", match="flow")
    expect_error(nd.GridGenerator, nd.ones((2, 6)), transform_type="shear", match="transform_type")
    d, g = nd.ones((1, 2, 3, 4)), nd.ones((1, 2, 2, 3))
    expect_error(nd.BilinearSampler, d.astype("float64"), g, match="dtype")
    expect_error(nd.BilinearSampler, d.astype("int32"), g.astype("int32"), match="int32")
    expect_error(nd.BilinearSampler, nd.ones((2, 2, 3, 4)), g, match="batch")
    expect_error(nd.BilinearSampler, d, nd.ones((1, 3, 2, 3)), match="2 channels")
    expect_error(nd.BilinearSampler, nd.ones((2, 3, 4)), g, match="4-D")
    loc = nd.ones((1, 6))
    kw = dict(transform_type="affine", sampler_type="bilinear")
    expect_error(nd.SpatialTransformer, d, loc, match="target_shape", **kw)
    expect_error(nd.SpatialTransformer, d, nd.ones((1, 5)), target_shape=(2, 3),
                 match="(batch, 6)", **kw)
    expect_error(nd.SpatialTransformer, d, nd.ones((2, 6)), target_shape=(2, 3), match="row",
                 **kw)
    expect_error(nd.SpatialTransformer, nd.ones((1, 3, 4)), loc, target_shape=(2, 3), match="4-D",
                 **kw)
    expect_error(nd.SpatialTransformer, d, loc, target_shape=(2, 3), transform_type="warp",
                 sampler_type="bilinear", match="transform_type")


@pytest.mark.parametrize("name", ["bilinear_upsampling", "crop", "roi", "transformer"])
def test_symbolic_graph_matches_autograd(name):
    sym = mx.sym
    rs = np.random.RandomState(0)
    if name == "bilinear_upsampling":
        shapes = {"x": (1, 2, 3, 3), "w": (2, 1, 4, 4)}
        kw = dict(scale=2, sample_type="bilinear", num_filter=2)
        build = (lambda F, x, w: F.UpSampling(x, w, **kw))
    elif name == "crop":
        shapes = {"x": (1, 2, 5, 6), "like": (1, 1, 3, 2)}
        build = (lambda F, x, like: F.Crop(x, like, num_args=2, center_crop=True))
    elif name == "roi":
        shapes = {"x": (1, 2, 5, 6), "rois": (2, 5)}
        build = (lambda F, x, r: F.ROIPooling(x, r, pooled_size=(2, 2), spatial_scale=1.0))
    else:
        shapes = {"x": (2, 2, 4, 5), "loc": (2, 6)}
        build = (lambda F, x, loc: F.SpatialTransformer(x, loc, target_shape=(3, 4),
                                                        transform_type="affine",
                                                        sampler_type="bilinear"))
    data = {k: rs.uniform(-1, 1, size=s) for k, s in shapes.items()}
    if name == "roi":
        data["rois"] = np.array([[0, 0, 0, 3, 3], [0, 1, 1, 4, 3]], dtype=float)
    if name == "transformer":
        data["loc"] = _LOC
    y = build(sym, *[sym.var(k) for k in shapes])
    ex = y.simple_bind(mx.current_context(), **shapes)
    for k, v in data.items():
        ex.arg_dict[k][:] = v
    ex.forward(is_train=True)
    head = nd.array(rs.normal(size=ex.outputs[0].shape))
    ex.backward(head)
    arrays = [nd.array(data[k]) for k in shapes]
    for a in arrays:
        a.attach_grad()
    with mx.autograd.record():
        out = build(nd, *arrays) if name != "crop" else nd.Crop(*arrays, center_crop=True)
    out.backward(head)
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), out.asnumpy(), rtol=1e-5, atol=1e-6)
    for k, a in zip(shapes, arrays):
        np.testing.assert_allclose(ex.grad_dict[k].asnumpy(), a.grad.asnumpy(), rtol=1e-5,
                                   atol=1e-6)
