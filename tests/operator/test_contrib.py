"""mx.nd.contrib operators: 1.9.1 golden forward/backward, numeric gradients, details, errors."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx

from .harness import GradCase, check_grad_case, expect_error, rand
from .test_nn_ctc import _TABLE, check_golden, golden  # noqa: F401  (shared fixture)

nd = mx.nd
C = nd.contrib

_CASES = [c for c in _TABLE.CASES if not c.id.startswith("ctc.")]

# Their gradients are zero by definition (index generators) or deliberately not the derivative
# (straight-through estimators, gradient scaling): checked against closed forms below.
NON_DIFFERENTIABLE = ("_contrib_arange_like", "_contrib_index_array", "_contrib_round_ste",
                      "_contrib_sign_ste", "_contrib_gradientmultiplier")

_IDX = np.array([3.0, 0.0])
_MASK = np.array([1.0, 0.0, 1.0, 1.0])
_H = 2

GRAD_CASES = [
    GradCase("div_sqrt_dim", lambda x: C.div_sqrt_dim(x), [rand(2, 3, 4)],
             ops=("_contrib_div_sqrt_dim",)),
    GradCase("quadratic", lambda x: C.quadratic(x, a=1.5, b=-2.0, c=3.0), [rand(3, 4)],
             ops=("_contrib_quadratic",)),
    GradCase("boolean_mask", lambda x: C.boolean_mask(x, nd.array(_MASK)), [rand(4, 3)],
             ops=("_contrib_boolean_mask",)),
    GradCase("boolean_mask_axis1", lambda x: C.boolean_mask(x, nd.array([0, 1, 1]), axis=1),
             [rand(2, 3, 2)], ops=("_contrib_boolean_mask",)),
    GradCase("index_copy", lambda old, new: C.index_copy(old, nd.array(_IDX), new),
             [rand(5, 3), rand(2, 3, seed=1)], ops=("_contrib_index_copy",)),
    GradCase("adaptive_avg_pool", lambda x: C.AdaptiveAvgPooling2D(x, output_size=(2, 3)),
             [rand(2, 2, 5, 7)], ops=("_contrib_AdaptiveAvgPooling2D",)),
    GradCase("adaptive_avg_pool_up", lambda x: C.AdaptiveAvgPooling2D(x, output_size=4),
             [rand(1, 1, 3, 2)], ops=("_contrib_AdaptiveAvgPooling2D",)),
    GradCase("bilinear_size", lambda x: C.BilinearResize2D(x, height=5, width=2),
             [rand(1, 2, 3, 4)], ops=("_contrib_BilinearResize2D",)),
    GradCase("bilinear_noalign", lambda x: C.BilinearResize2D(x, height=4, width=7,
                                                               align_corners=False),
             [rand(1, 1, 3, 4)], ops=("_contrib_BilinearResize2D",)),
    GradCase("bilinear_like", lambda x, y: C.BilinearResize2D(x, y, mode="like"),
             [rand(1, 1, 3, 4), rand(1, 1, 2, 5, seed=1)], wrt=[0],
             ops=("_contrib_BilinearResize2D",)),
    GradCase("selfatt_qk", lambda x: C.interleaved_matmul_selfatt_qk(x, heads=_H),
             [rand(3, 2, _H * 3 * 2)], ops=("_contrib_interleaved_matmul_selfatt_qk",)),
    GradCase("selfatt_valatt", lambda x, a: C.interleaved_matmul_selfatt_valatt(x, a, heads=_H),
             [rand(3, 2, _H * 3 * 2), rand(2 * _H, 3, 3, seed=1)],
             ops=("_contrib_interleaved_matmul_selfatt_valatt",)),
    GradCase("encdec_qk", lambda q, kv: C.interleaved_matmul_encdec_qk(q, kv, heads=_H),
             [rand(3, 2, _H * 2), rand(4, 2, _H * 2 * 2, seed=1)],
             ops=("_contrib_interleaved_matmul_encdec_qk",)),
    GradCase("encdec_valatt", lambda kv, a: C.interleaved_matmul_encdec_valatt(kv, a, heads=_H),
             [rand(4, 2, _H * 2 * 2), rand(2 * _H, 3, 4, seed=1)],
             ops=("_contrib_interleaved_matmul_encdec_valatt",)),
    # the dedicated backward operators are linear maps with registered gradients too
    GradCase("backward_boolean_mask",
             lambda g, x: nd.op._backward_contrib_boolean_mask(g, x, nd.array(_MASK)),
             [rand(3, 2), rand(4, 2, seed=1)], wrt=[0],
             ops=("_backward_contrib_boolean_mask",)),
    GradCase("backward_adaptive_avg_pool",
             lambda g, x: nd.op._backward_contrib_AdaptiveAvgPooling2D(g, x),
             [rand(1, 1, 2, 3), rand(1, 1, 5, 4, seed=1)], wrt=[0],
             ops=("_backward_contrib_AdaptiveAvgPooling2D",)),
    GradCase("backward_bilinear",
             lambda g, x: nd.op._backward_contrib_BilinearResize2D(g, x, align_corners=False),
             [rand(1, 1, 4, 3), rand(1, 1, 2, 5, seed=1)], wrt=[0],
             ops=("_backward_contrib_BilinearResize2D",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


@pytest.mark.parametrize("case", _CASES, ids=lambda c: c.id)
def test_golden(case, golden):  # noqa: F811
    check_golden(case, golden)


# ---------------------------------------------------------------------------------------------
# gradients that are not derivatives, and second order


def _grad_of(fn, x, head=None):
    x = nd.array(x, dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = fn(x)
    y.backward(head)
    return x.grad.asnumpy()


def test_zero_and_straight_through_gradients():
    x = rand(2, 3)
    head = nd.array(rand(2, 3, seed=1), dtype="float64")
    np.testing.assert_array_equal(_grad_of(lambda v: C.gradientmultiplier(v, scalar=-2.5), x,
                                           head), -2.5 * head.asnumpy())
    np.testing.assert_array_equal(_grad_of(lambda v: C.round_ste(v), x, head), head.asnumpy())
    np.testing.assert_array_equal(_grad_of(lambda v: C.sign_ste(v), x, head), head.asnumpy())
    assert not _grad_of(lambda v: C.arange_like(v), x).any()
    assert not _grad_of(lambda v: C.index_array(v).astype("float64"), x).any()


def test_second_order_through_quadratic():
    x = nd.array([0.5, -1.0, 2.0], dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = C.quadratic(x, a=2.0, b=1.0, c=0.0)
        (gx,) = mx.autograd.grad(nd.sum(y * y), [x], create_graph=True)
        z = nd.sum(gx)
    z.backward()
    xn = x.asnumpy()
    # d/dx of 2 y y' with y = 2x^2 + x: 2 (y'^2 + y y'') = 2 ((4x+1)^2 + 4 (2x^2+x))
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * ((4 * xn + 1) ** 2 + 4 * (2 * xn ** 2 + xn)))


# ---------------------------------------------------------------------------------------------
# forward details


def test_arange_like_and_index_array():
    x = nd.ones((2, 3), dtype="float64")
    assert C.arange_like(x).dtype == np.float64
    np.testing.assert_array_equal(C.arange_like(x, start=1, step=2, repeat=2).asnumpy(),
                                  [[1, 1, 3], [3, 5, 5]])
    np.testing.assert_array_equal(C.arange_like(x, axis=0).asnumpy(), [0, 1])
    ia = C.index_array(nd.ones((2, 3)))
    assert ia.dtype == np.int64 and ia.shape == (2, 3, 2)
    np.testing.assert_array_equal(ia.asnumpy()[1, 2], [1, 2])
    np.testing.assert_array_equal(C.index_array(nd.ones((2, 3)), axes=(-1,)).asnumpy()[..., 0],
                                  [[0, 1, 2], [0, 1, 2]])


def test_integer_inputs_follow_1_9_1_casts():
    # the divisor sqrt(3) becomes int 1 first; quadratic computes in float and truncates
    np.testing.assert_array_equal(C.div_sqrt_dim(nd.array([3, 4, 5], dtype="int32")).asnumpy(),
                                  [3, 4, 5])
    q = C.quadratic(nd.array([1, 2], dtype="int32"), a=1.5, b=2.5, c=0.5)
    assert q.dtype == np.int32
    np.testing.assert_array_equal(q.asnumpy(), [4, 11])


def test_boolean_mask_and_index_copy_details():
    d = nd.array([[1, 2], [3, 4], [5, 6]])
    assert C.boolean_mask(d, nd.array([0, 0, 0])).shape == (0, 2)
    out = C.index_copy(nd.zeros((4,)), nd.array([1, 2]), nd.array([5, 6])).asnumpy()
    np.testing.assert_array_equal(out, [0, 5, 6, 0])


def test_allclose_returns_a_uint8_scalar():
    r = C.allclose(nd.array([1.0, np.nan]), nd.array([1.0, np.nan]))
    assert r.shape == () and r.dtype == np.uint8 and int(r.asnumpy()) == 1
    assert int(C.allclose(nd.array([1.0, np.nan]), nd.array([1.0, np.nan]),
                          equal_nan=False).asnumpy()) == 0


def test_spatial_output_sizes():
    x = nd.ones((1, 1, 3, 4))
    assert C.AdaptiveAvgPooling2D(x).shape == (1, 1, 1, 1)
    assert C.AdaptiveAvgPooling2D(x, output_size=(3,)).shape == (1, 1, 3, 3)
    sizes = {"to_even_down": (2, 4), "to_even_up": (4, 4), "to_odd_down": (3, 3),
             "to_odd_up": (3, 5)}
    for mode, hw in sizes.items():
        assert C.BilinearResize2D(x, mode=mode).shape[2:] == hw, mode
    assert C.BilinearResize2D(x, scale_height=0.7, scale_width=1.3).shape[2:] == (2, 5)
    assert C.BilinearResize2D(x, mode="odd_scale", scale_height=0.5,
                              scale_width=0.5).shape[2:] == (2, 2)
    up = C.BilinearResize2D(nd.arange(12).reshape((1, 1, 3, 4)), height=5, width=7)
    np.testing.assert_allclose(up.asnumpy()[0, 0, ::2, ::2], [[0, 1, 2, 3], [4, 5, 6, 7],
                                                              [8, 9, 10, 11]], atol=1e-6)


def test_attention_ops_match_a_reference():
    L, B, H, D = 3, 2, 2, 4
    qkv = rand(L, B, H * 3 * D)
    x = qkv.reshape(L, B, H, 3, D)
    q, k, v = (x[:, :, :, i].transpose(1, 2, 0, 3).reshape(B * H, L, D) for i in range(3))
    att = C.interleaved_matmul_selfatt_qk(nd.array(qkv, dtype="float64"), heads=H).asnumpy()
    np.testing.assert_allclose(att, q @ k.transpose(0, 2, 1) / np.sqrt(D), rtol=1e-12)
    out = C.interleaved_matmul_selfatt_valatt(nd.array(qkv, dtype="float64"),
                                              nd.array(att, dtype="float64"), heads=H).asnumpy()
    want = (att @ v).reshape(B, H, L, D).transpose(2, 0, 1, 3).reshape(L, B, H * D)
    np.testing.assert_allclose(out, want, rtol=1e-12)


def test_errors_name_the_problem():
    x = nd.ones((1, 1, 3, 4))
    expect_error(C.AdaptiveAvgPooling2D, nd.ones((3, 4)), match="4-D")
    expect_error(C.AdaptiveAvgPooling2D, nd.ones((1, 1, 3, 4), dtype="int32"), match="floating")
    expect_error(C.AdaptiveAvgPooling2D, x, output_size=(1, 2, 3), match="output_size")
    expect_error(C.BilinearResize2D, x, scale_height=0.5, match="scale_width")
    expect_error(C.BilinearResize2D, x, mode="like", match="like")
    expect_error(C.BilinearResize2D, x, mode="sideways", match="mode")
    expect_error(C.BilinearResize2D, nd.ones((1, 1, 3, 4), dtype="int32"), height=2, width=2,
                 match="floating")
    expect_error(C.boolean_mask, nd.ones((3, 2)), nd.ones((2,)), match="length")
    expect_error(C.index_copy, nd.zeros((5, 3)), nd.array([3, 0, 1]), nd.ones((2, 3)),
                 match="new_tensor")
    expect_error(C.index_copy, nd.zeros((5, 3)), nd.array([7, 0]), nd.ones((2, 3)),
                 match="[0, 4]")
    expect_error(C.index_copy, nd.zeros((5, 3)), nd.array([1, 0]),
                 nd.ones((2, 3), dtype="float64"), match="type")
    expect_error(C.arange_like, nd.ones((2, 3)), axis=2, match="axis")
    expect_error(C.interleaved_matmul_selfatt_qk, nd.ones((3, 2, 10)), heads=2, match="heads=2")
    expect_error(C.interleaved_matmul_selfatt_valatt, nd.ones((3, 2, 12)), nd.ones((4, 3, 2)),
                 heads=2, match="attention")
    expect_error(C.allclose, nd.ones((2,)), nd.ones((2, 2)), match="same shape")
