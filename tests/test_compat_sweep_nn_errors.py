"""Compatibility sweep: the errors NN operators give for bad shapes, dtypes and attributes.

Each case was run under MXNet 1.9.1: where 1.9.1 refuses, ours must raise MXNetError (or a
subclass) naming the operator and the offending argument; where 1.9.1 computes, the values
below were recorded from 1.9.1.
"""
import numpy as np
import pytest

from mxnet import nd, sym
from mxnet.base import MXNetError


# -- an explicit num_args that disagrees with the inputs given ------------------------------------
# 1.9.1 fills num_args from the inputs only when the caller leaves it out; an explicit value that
# does not match raises "Operator X expects N inputs, but got M instead."
@pytest.mark.parametrize("call", [
    lambda: nd.concat(nd.ones((2, 2)), nd.ones((2, 2)), num_args=3),
    lambda: nd.concat(nd.ones((2, 2)), nd.ones((2, 2)), num_args=1),
    lambda: nd.add_n(nd.ones((2, 2)), nd.ones((2, 2)), num_args=3),
    lambda: nd.ElementWiseSum(nd.ones((2, 2)), nd.ones((2, 2)), num_args=5),
    lambda: nd.stack(nd.ones((2, 2)), nd.ones((2, 2)), num_args=1),
    lambda: nd.UpSampling(nd.ones((1, 3, 2, 2)), scale=2, sample_type="nearest", num_args=2),
    lambda: nd.UpSampling(nd.ones((1, 3, 2, 2)), nd.ones((1, 3, 4, 4)), scale=2,
                          sample_type="nearest", num_args=1),
    lambda: nd.Crop(nd.ones((1, 3, 4, 4)), num_args=2),
    lambda: nd.Crop(nd.ones((1, 3, 4, 4)), nd.ones((1, 3, 2, 2)), num_args=1),
])
def test_explicit_num_args_that_disagrees_with_the_inputs_raises(call):
    with pytest.raises(MXNetError, match="num_args"):
        call()


def test_explicit_num_args_that_matches_keeps_working():
    # recorded from 1.9.1
    a = nd.concat(nd.ones((2, 2)), nd.ones((2, 2)), num_args=2)
    assert a.asnumpy().tolist() == [[1.0] * 4] * 2
    assert nd.add_n(nd.ones((2, 2)), nd.ones((2, 2)), num_args=2).asnumpy().tolist() == \
        [[2.0, 2.0], [2.0, 2.0]]
    # bilinear UpSampling takes (data, weight) whatever num_args says: (1, 3, 4, 4) in 1.9.1
    up = nd.UpSampling(nd.ones((1, 3, 2, 2)), nd.ones((3, 1, 4, 4)), scale=2,
                       sample_type="bilinear", num_filter=3, num_args=1)
    assert up.shape == (1, 3, 4, 4)
    # left out, num_args is counted from the inputs: (1, 6, 4, 4) in 1.9.1
    up = nd.UpSampling(nd.ones((1, 3, 2, 2)), nd.ones((1, 3, 4, 4)), scale=2,
                       sample_type="nearest")
    assert up.shape == (1, 6, 4, 4)


# -- Crop ------------------------------------------------------------------------------------------
def test_crop_with_a_negative_offset_says_so():
    # 1.9.1: "Check failed: ... offset[0] should be larger than 0"
    with pytest.raises(MXNetError, match="negative"):
        nd.Crop(nd.ones((1, 3, 4, 4)), h_w=(2, 2), offset=(-1, 0))


# -- ROIPooling ------------------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [-1.0, 1.5, 2.0])
def test_roipooling_spatial_scale_outside_0_1_raises(scale):
    # 1.9.1: "value -1 for Parameter spatial_scale exceed bound [0,1]"
    with pytest.raises(MXNetError, match="spatial_scale"):
        nd.ROIPooling(nd.ones((1, 3, 8, 8)), nd.array([[0, 0, 0, 4, 4]]), pooled_size=(2, 2),
                      spatial_scale=scale)


@pytest.mark.parametrize("scale", [0.0, 0.5, 1.0])
def test_roipooling_spatial_scale_inside_0_1_computes(scale):
    # recorded from 1.9.1: the 3 x 2 x 2 bins of an all-ones map sum to 12
    out = nd.ROIPooling(nd.ones((1, 3, 8, 8)), nd.array([[0, 0, 0, 4, 4]]), pooled_size=(2, 2),
                        spatial_scale=scale)
    assert out.shape == (1, 3, 2, 2) and float(out.asnumpy().sum()) == 12.0


# -- CTCLoss ---------------------------------------------------------------------------------------
def test_ctc_label_batch_mismatch_names_the_batch_size():
    # 1.9.1: "The batch size for the labels and data arrays must be the same."
    with pytest.raises(MXNetError, match=r"batch_size=2\), got 3 rows"):
        nd.CTCLoss(nd.ones((5, 2, 4)), nd.array([[1, 2], [1, 1], [1, 1]]))


@pytest.mark.parametrize("dshape, lshape, fragment", [
    ((5, 2, 4), (3, 2), "batch_size=2"),           # batch size differs
    ((5, 2, 4), (2, 7), "cannot exceed"),          # labels longer than the sequence
    ((5, 2, 4), (2,), "label must be 2-D"),
    ((5, 2), (2, 2), "data must be 3-D"),
])
def test_ctc_infer_shape_checks_data_and_label(dshape, lshape, fragment):
    # 1.9.1 refuses each of these in infer_shape
    net = sym.CTCLoss(sym.var("d"), sym.var("l"))
    with pytest.raises(MXNetError, match=fragment):
        net.infer_shape(d=dshape, l=lshape)


def test_ctc_infer_shape_of_good_shapes():
    # recorded from 1.9.1
    net = sym.CTCLoss(sym.var("d"), sym.var("l"))
    assert net.infer_shape(d=(5, 2, 4), l=(2, 3)) == ([(5, 2, 4), (2, 3)], [(2,)], [])
    loss = nd.CTCLoss(nd.ones((5, 2, 4)), nd.array([[1, 2], [1, 1]]))
    assert np.round(loss.asnumpy(), 4).tolist() == pytest.approx([3.3761, 4.2234])


# -- GridGenerator ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(2, 3, 3, 3), (2, 2, 3)])
def test_grid_generator_warp_infer_shape_checks_the_flow(shape):
    # 1.9.1: "incorrect data shape[1], should be 2" / "optical flow should be 4D ..."
    net = sym.GridGenerator(sym.var("x"), transform_type="warp")
    with pytest.raises(MXNetError, match=r"optical flow of shape \(batch, 2, h, w\)"):
        net.infer_shape(x=shape)


def test_grid_generator_warp_infer_shape_of_a_good_flow():
    # recorded from 1.9.1
    net = sym.GridGenerator(sym.var("x"), transform_type="warp")
    assert net.infer_shape(x=(2, 2, 3, 3)) == ([(2, 2, 3, 3)], [(2, 2, 3, 3)], [])


# -- Convolution / Deconvolution attributes checked when the operator is created ------------------
@pytest.mark.parametrize("make, fragment", [
    (lambda: sym.Convolution(sym.var("x"), kernel=(3, 3), num_filter=3, stride=(1,)),
     r"stride \(1,\) must have as many entries as kernel"),
    (lambda: sym.Convolution(sym.var("x"), kernel=(3, 3), num_filter=3, pad=(1,)),
     r"pad \(1,\) must have as many entries"),
    (lambda: sym.Convolution(sym.var("x"), kernel=(3, 3), num_filter=3, dilate=(1, 1, 1)),
     "dilate"),
    (lambda: sym.Convolution(sym.var("x"), kernel=(3, 3, 3, 3), num_filter=3), "1, 2 or 3"),
    (lambda: sym.Convolution(sym.var("x"), kernel=(3, 3), num_filter=0), "num_filter"),
    (lambda: sym.Deconvolution(sym.var("x"), kernel=(3, 3), num_filter=3, adj=(1,)), "adj"),
    (lambda: sym.Deconvolution(sym.var("x"), kernel=(3, 3), num_filter=0), "num_filter"),
])
def test_conv_attributes_that_1_9_1_refuses_at_creation(make, fragment):
    # 1.9.1 raises these from the parameter parser, when the symbol is made
    with pytest.raises(MXNetError, match=fragment):
        make()


def test_conv_transpose_output_padding_not_below_strides_fails_in_the_constructor():
    # 1.9.1: "adj(y) must be samller than stride[0]" from Conv2DTranspose's constructor
    from mxnet.gluon import nn
    with pytest.raises(MXNetError, match="must be smaller than the stride"):
        nn.Conv2DTranspose(4, 3, strides=2, output_padding=2)
    # recorded from 1.9.1: output_padding=1 with strides=2 maps 5x5 to 12x12
    layer = nn.Conv2DTranspose(4, 3, strides=2, output_padding=1)
    layer.initialize()
    assert layer(nd.ones((1, 3, 5, 5))).shape == (1, 4, 12, 12)


# -- empty arrays ----------------------------------------------------------------------------------
# 1.9.1 (legacy shape semantics) refuses zero-size inputs outright; ours computes them, and must
# give an empty result rather than leak NumPy's "zero-size array to reduction operation" error.
@pytest.mark.parametrize("call, shape", [
    (lambda x: nd.softmax(x), (2, 0)),
    (lambda x: nd.log_softmax(x), (2, 0)),
    (lambda x: nd.softmin(x, axis=0), (0, 3)),
    (lambda x: nd.SoftmaxOutput(x, nd.array(np.zeros((0,)))), (0, 3)),
    (lambda x: nd.GroupNorm(x, nd.ones((2,)), nd.zeros((2,)), num_groups=2), (0, 4, 3)),
])
def test_empty_inputs_give_empty_outputs(call, shape):
    out = call(nd.array(np.zeros(shape)))
    assert out.shape == shape and out.asnumpy().size == 0


# -- PReLU's gamma must share the data's dtype ----------------------------------------------------
@pytest.mark.parametrize("ddt, gdt", [("float16", "float32"), ("float64", "float32"),
                                      ("float32", "float16")])
def test_prelu_with_a_gamma_of_another_dtype_raises(ddt, gdt):
    # 1.9.1: "Type inconsistent, Provided = float32, inferred type = float16"
    with pytest.raises(MXNetError, match=f"gamma has dtype {gdt} but data has dtype {ddt}"):
        nd.LeakyReLU(nd.ones((2, 3), dtype=ddt), nd.ones((3,), dtype=gdt), act_type="prelu")


def test_gluon_prelu_on_float16_data_without_cast_raises():
    # 1.9.1 refuses a float16 batch through a float32 PReLU, hybridized or not
    from mxnet.gluon import nn
    for hybridize in (False, True):
        layer = nn.PReLU()
        layer.initialize()
        if hybridize:
            layer.hybridize()
        with pytest.raises(MXNetError, match="gamma has dtype float32"):
            layer(nd.ones((2, 3), dtype="float16"))
    # recorded from 1.9.1: matching float16 dtypes compute (0.25 * -1 = -0.25)
    out = nd.LeakyReLU(-nd.ones((2, 3), dtype="float16"), nd.full((3,), 0.25, dtype="float16"),
                       act_type="prelu")
    assert out.dtype == np.float16 and out.asnumpy().tolist() == [[-0.25] * 3] * 2


# -- GridGenerator / SpatialTransformer: the affine matrices' shape in infer_shape -----------------
@pytest.mark.parametrize("make, kwargs, fragment", [
    (lambda: sym.GridGenerator(sym.var("x"), transform_type="affine", target_shape=(3, 3)),
     {"x": (2, 5)}, r"data must be \(batch, 6\) affine matrices; got shape \(2, 5\)"),
    (lambda: sym.GridGenerator(sym.var("x"), transform_type="affine", target_shape=(3, 3)),
     {"x": (2, 6, 1)}, r"got shape \(2, 6, 1\)"),
    (lambda: sym.SpatialTransformer(sym.var("x"), sym.var("loc"), target_shape=(3, 3),
                                    transform_type="affine", sampler_type="bilinear"),
     {"x": (1, 3, 4, 4), "loc": (1, 5)}, r"loc must be \(batch, 6\) affine matrices"),
])
def test_affine_matrices_of_the_wrong_shape_name_the_operator(make, kwargs, fragment):
    # 1.9.1: "incorrect data shape[1], should be 6" / "incorrect locolisation network shape[1]"
    with pytest.raises(MXNetError, match=fragment):
        make().infer_shape(**kwargs)


# -- RNN dropout p ---------------------------------------------------------------------------------
def test_rnn_dropout_p_of_one_is_accepted_and_drops_nothing():
    # recorded from 1.9.1 (CPU): p=1.0 is inside the [0, 1] bound, and a 2-layer tanh RNN with
    # all parameters 0.1 on ones gives 0.43700662 in training as in inference
    from mxnet import autograd
    x, s, w = nd.ones((3, 2, 4)), nd.zeros((2, 2, 5)), nd.ones((115,)) * 0.1
    w.attach_grad()
    with autograd.record():
        y = nd.RNN(x, w, s, state_size=5, num_layers=2, mode="rnn_tanh", p=1.0)
    y.backward()
    assert np.allclose(y.asnumpy()[0, 0, :3], 0.43700662, atol=1e-6)
    assert np.isfinite(w.grad.asnumpy()).all()


@pytest.mark.parametrize("p", [-0.5, 1.5])
def test_rnn_dropout_p_outside_0_1_raises(p):
    # 1.9.1: "value -0.5 for Parameter p exceed bound [0,1]"
    with pytest.raises(MXNetError, match="dropout p"):
        nd.RNN(nd.ones((3, 2, 4)), nd.ones((55,)), nd.zeros((1, 2, 5)), state_size=5,
               num_layers=1, mode="rnn_tanh", p=p)
