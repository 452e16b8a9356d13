"""Regressions found by a differential sweep of core ``mx.nd`` operator calls (values,
dtypes, shapes, exceptions and gradients) against MXNet 1.9.1.

Every expected literal below was recorded by running the same call under MXNet 1.9.1.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, nd


def test_integer_mean_wraps_and_truncates_toward_zero():
    # recorded from 1.9.1: the sum wraps in the input dtype, the element count is cast to
    # that dtype too, and the division rounds toward zero
    def m(v, dt, **kw):
        return nd.mean(nd.array(v, dtype=dt), **kw).asnumpy().tolist()
    assert m([-1, 0, 0], "int32") == [0]
    assert m([-2, 0, 0], "int32") == [0]
    assert m([5, 0, 0], "int32") == [1]
    assert m([-5, 0, 0], "int32") == [-1]
    assert m([200, 200, 200], "uint8") == [29]
    assert m([200] * 10, "uint8") == [20]
    assert m([200] * 300, "uint8") == [2]
    assert m([100, 100], "int8") == [-28]
    assert m([[-5, 0, 0]], "int8", axis=1) == [-1]
    assert m([[-1, 0, 0]], "int32", axis=1, exclude=True) == [-1, 0, 0]
    assert m([[100, 100, 100]], "int8", axis=1, keepdims=True) == [[14]]
    out = nd.mean(nd.array([[-1, 0, 0]], dtype="int64"), axis=1)
    assert out.dtype == np.int64 and out.asnumpy().tolist() == [0]


def test_integer_l2_norm_matches_scaled_integer_kernel():
    # recorded from 1.9.1 (its scaled L2 kernel evaluated in integer arithmetic)
    cases = [[3, 4], [1, 1], [1, 2], [2, 2], [1, 1, 1, 1], [5, 5, 5], [-3, 4], [100, 100],
             [1, 2, 2], [0, 0]]
    want = {"int32": [4, 1, 2, 2, 2, 8, 4, 141, 2, 0],
            "int64": [4, 1, 2, 2, 2, 8, 4, 141, 2, 0],
            "uint8": [4, 1, 2, 2, 2, 8, 253, 141, 2, 0],
            "int8": [4, 1, 2, 2, 2, 8, 4, -115, 2, 0]}
    for dt, exp in want.items():
        got = [nd.norm(nd.array(v, dtype=dt)).asnumpy().tolist()[0] for v in cases]
        assert got == exp, dt
    x = nd.array([[3, 4, 4], [0, 0, 0]], dtype="int32")
    assert nd.norm(x, axis=1).asnumpy().tolist() == [5, 0]
    assert nd.norm(x, axis=1, keepdims=True).asnumpy().tolist() == [[5], [0]]
    y = nd.array([[3, 4, 4], [1, -1, 0]], dtype="int32")
    assert nd.norm(y, axis=0).asnumpy().tolist() == [3, 4, 4]
    assert nd.norm(y, ord=1, axis=0).asnumpy().tolist() == [4, 5, 4]
    assert nd.norm(y).dtype == np.int32


def test_norm_out_dtype_must_equal_input_dtype():
    # 1.9.1: out_dtype equal to the input dtype works; any other value fails in the kernel,
    # and uint8 is not an accepted value at all
    x = nd.array([[0.3, 1.7, -2.2], [1, 2, 3]])
    out = nd.norm(x, out_dtype="float32")
    assert out.dtype == np.float32
    assert out.asnumpy().tolist() == pytest.approx([4.671187877655029], rel=1e-6)
    for bad in ("float64", "float16", "int32"):
        with pytest.raises(mx.base.MXNetError, match="norm"):
            nd.norm(x, out_dtype=bad)
    with pytest.raises(mx.base.MXNetError, match="out_dtype"):
        nd.norm(x, out_dtype="uint8")


def test_argmax_keepdims_without_axis_keeps_every_dim():
    # recorded from 1.9.1: (1, 1, 1) and (1, 1)
    assert nd.argmax(nd.ones((2, 3, 4)), keepdims=True).shape == (1, 1, 1)
    assert nd.argmin(nd.ones((2, 3)), axis=None, keepdims=True).shape == (1, 1)
    assert nd.argmax(nd.ones((2, 3, 4))).shape == (1,)


def test_argmax_channel_needs_a_channel_axis():
    # 1.9.1: "axis 1 exceeds the input dimension of 1"
    with pytest.raises(mx.base.MXNetError, match="argmax_channel"):
        nd.argmax_channel(nd.array([1.0, 3.0, 2.0]))
    assert nd.argmax_channel(nd.array([[1, 3, 2], [4, 0, 1]])).asnumpy().tolist() == [1.0, 0.0]


def test_sort_rejects_float16_like_argsort():
    # 1.9.1: "This operation does not support float16" for sort and argsort; topk works
    x = nd.array([[3, 1, 2]], dtype="float16")
    with pytest.raises(mx.base.MXNetError, match="sort"):
        nd.sort(x)
    with pytest.raises(mx.base.MXNetError, match="argsort"):
        nd.argsort(x)
    assert nd.topk(x, k=1, ret_typ="value").asnumpy().tolist() == [[3.0]]


def test_unknown_dtype_parameter_raises_type_error():
    # 1.9.1 raises TypeError ("data type 'foo' not understood") for a bad dtype parameter
    x = nd.ones((2, 3))
    for call in (lambda: nd.cast(x, dtype="foo"), lambda: nd.argsort(x, dtype="foo"),
                 lambda: nd.one_hot(nd.array([1]), 3, dtype="foo"),
                 lambda: nd.topk(x, dtype="foo")):
        with pytest.raises(TypeError, match="dtype"):
            call()


def test_positional_argument_after_parameters_is_out():
    # 1.9.1's generated functions end with (..., out=None, name=None): a trailing positional
    # NDArray is the output
    x = nd.array([[-1.0, 2.0, -3.0]])
    y = nd.zeros((1, 3))
    assert nd.relu(x, y) is y
    assert y.asnumpy().tolist() == [[0.0, 2.0, 0.0]]
    assert nd.elemwise_add(x, x, y) is y
    assert y.asnumpy().tolist() == [[-2.0, 4.0, -6.0]]
    z = nd.zeros((1,))
    nd.sum(x, 1, False, False, z)
    assert z.asnumpy().tolist() == [-2.0]
    # a non-NDArray in out's place is a TypeError (1.9.1: len() of an int)
    with pytest.raises(TypeError):
        nd.relu(x, 5)
    with pytest.raises(TypeError):
        nd.ones((2, 3, 4)).transpose(2, 0, 1)


def test_variadic_ops_assert_on_non_ndarray_positionals():
    # 1.9.1: AssertionError("Positional arguments must have NDArray type, but got 0")
    x = nd.ones((2, 3))
    with pytest.raises(AssertionError):
        nd.concat(x, x, 0)
    with pytest.raises(AssertionError):
        nd.stack(x, x, 1)
    assert nd.concat(x, x, dim=0).shape == (4, 3)


def test_grad_add_accumulates_for_core_ops():
    # closed form: two backward passes with grad_req='add' double the gradient
    x = nd.array([[1.0, -2.0, 3.0]])
    x.attach_grad(grad_req="add")
    for _ in range(2):
        with autograd.record():
            y = nd.mean(x * x, axis=1)
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [[4 / 3, -8 / 3, 4.0]], rtol=1e-6)


def test_reduce_with_exclude_and_no_axis_reduces_everything():
    # recorded from 1.9.1: axis=None or () with exclude=True still reduces every axis
    x = nd.arange(6).reshape((2, 3))
    assert nd.sum(x, exclude=True).asnumpy().tolist() == [15.0]
    assert nd.max(x, axis=(), exclude=True).asnumpy().tolist() == [5.0]
    assert nd.mean(x, axis=None, exclude=True, keepdims=True).asnumpy().tolist() == [[2.5]]
    # naming every axis with exclude=True reduces nothing
    assert nd.sum(x, axis=(0, 1), exclude=True).shape == (2, 3)
    x.attach_grad()
    with autograd.record():
        y = nd.mean(x, exclude=True)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), np.full((2, 3), 1 / 6), rtol=1e-6)


def test_split_squeeze_of_1d_input_backpropagates():
    # closed form: d(2 * r0 + r1)/dx = [2, 1]
    x = nd.arange(2)
    x.attach_grad()
    with autograd.record():
        r = nd.split(x, axis=0, num_outputs=2, squeeze_axis=True)
        z = r[0] * 2 + r[1]
    z.backward()
    assert x.grad.asnumpy().tolist() == [2.0, 1.0]
    with autograd.record():
        r = nd.split_v2(x, 2, squeeze_axis=True)
        z = r[0] * 3 + r[1]
    z.backward()
    assert x.grad.asnumpy().tolist() == [3.0, 1.0]


def test_array_from_list_into_integer_dtype():
    # recorded from 1.9.1 (it converts lists with NumPy straight into the dtype)
    for bad in ([float("nan")], [float("inf")], [1e20]):
        with pytest.raises(TypeError, match="source_array must be array like"):
            nd.array(bad, dtype="int32")
    assert nd.array([1e10, 3e9, -1.0, 300.5], dtype="int32").asnumpy().tolist() == [
        1410065408, -1294967296, -1, 300]
    assert nd.array([300.0, -1.0], dtype="uint8").asnumpy().tolist() == [44, 255]
    assert nd.array([-1, 300], dtype="uint8").asnumpy().tolist() == [255, 44]
    assert nd.array([0.5, -1.7], dtype="int32").asnumpy().tolist() == [0, -1]
    assert np.isnan(nd.array([float("nan")], dtype="float16").asnumpy()[0])
