"""Regressions from the NDArray-semantics / autograd-edge compatibility sweep.

Expected values were recorded from MXNet 1.9.1 (the .ref oracle) and are written here as
literals; each test says which behaviour of 1.9.1 it pins.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.base import MXNetError

# (key, number of elements of np.arange(24).reshape(2, 3, 4) that ``x[key][:] = -1``
# overwrites in the source): recorded from 1.9.1. A count equal to the result's size means
# the result is a view; 0 means a copy.
_VIEW_CASES = [
    ((slice(0, 1), slice(0, 2)), (1, 2, 4), 8),
    ((0, slice(0, 2)), (2, 4), 8),
    ((1, slice(1, 3)), (2, 4), 8),
    ((slice(0, 2), slice(None)), (2, 3, 4), 24),
    ((slice(None), 1), (2, 4), 0),
    ((slice(0, 1), 1), (1, 4), 4),
    ((1, 2), (4,), 4),
    ((slice(1, 2), slice(0, 3), slice(None)), (1, 3, 4), 12),
    ((0, 1, slice(0, 2)), (2,), 2),
    ((slice(0, 1), slice(0, 1), slice(1, 3)), (1, 1, 2), 2),
    ((slice(0, 2), 0), (2, 4), 0),
    ((Ellipsis, slice(0, 2)), (2, 3, 2), 0),
    ((0, Ellipsis), (3, 4), 12),
    ((slice(0, 1), None), (1, 1, 3, 4), 12),
    ((None, 0), (1, 3, 4), 12),
    ((slice(0, 1), slice(0, 3, 2)), (1, 2, 4), 0),
    ((slice(None), slice(None), 0), (2, 3), 0),
]


@pytest.mark.parametrize("key,shape,written", _VIEW_CASES)
def test_contiguous_multi_axis_basic_keys_are_views(key, shape, written):
    x = mx.nd.array(np.arange(24).reshape(2, 3, 4))
    y = x[key]
    assert y.shape == shape
    y[:] = -1
    assert int((x.asnumpy() == -1).sum()) == written
    # the values read are NumPy's either way
    assert np.array_equal(mx.nd.array(np.arange(24).reshape(2, 3, 4))[key].asnumpy(),
                          np.arange(24, dtype=np.float32).reshape(2, 3, 4)[key].reshape(shape))


def test_2d_element_and_block_views_write_through():
    # 1.9.1: x[0, 1] of a 2-D array is a (1,) view; x[0:1, 0:2] += 1 updates x
    x = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    e = x[0, 1]
    assert e.shape == (1,)
    e[:] = 50
    h = x[0:1, 0:2]
    h += 1
    assert x.asnumpy().tolist() == [[2.0, 51.0, 3.0], [4.0, 5.0, 6.0]]
    # a later write to the source shows through the view too
    x[0, 0] = 7
    assert h.asnumpy().tolist() == [[7.0, 51.0]]


def test_slice_under_record_still_differentiates():
    x = mx.nd.array([[1., 2., 3.], [4., 5., 6.]])
    x.attach_grad()
    with autograd.record():
        y = (x[0, 1:3] * mx.nd.array([3., 4.])).sum()
    y.backward()
    assert x.grad.asnumpy().tolist() == [[0.0, 3.0, 4.0], [0.0, 0.0, 0.0]]


def test_asscalar_by_shape():
    # 1.9.1: (1,) -> element, () -> NumPy scalar; for (1, 1) 1.9.1 returns the (1, 1) NumPy
    # array, which NumPy 2 cannot turn into a float: the element is returned (documented)
    v = mx.nd.array([3.5]).asscalar()
    assert isinstance(v, np.float32) and v == 3.5
    v = mx.nd.array(2.0).asscalar()
    assert isinstance(v, np.float32) and v == 2.0
    v = mx.nd.array([[3]], dtype="int32").asscalar()
    assert isinstance(v, np.int32) and v == 3 and float(v) == 3.0
    with pytest.raises(ValueError, match="not a scalar"):
        mx.nd.array([1, 2]).asscalar()
    # float()/int() (an mxnet-py extension) read any size-1 array
    assert float(mx.nd.array([[2.5]])) == 2.5 and int(mx.nd.array([[3.7]])) == 3


def test_head_gradient_count_mismatch_is_an_assertion_error():
    # 1.9.1 raises AssertionError for heads/head_grads of different lengths
    x = mx.nd.array([1., 2.])
    x.attach_grad()
    with autograd.record():
        y = x * x
    with pytest.raises(AssertionError, match="2 head gradients"):
        autograd.grad(y, [x], head_grads=[mx.nd.ones(2), mx.nd.ones(2)])
    with pytest.raises(MXNetError, match="heads"):
        autograd.backward([y], head_grads=[mx.nd.ones(2), mx.nd.ones(2)])
    # a one-element list for one head is fine
    autograd.backward(y, head_grads=[mx.nd.array([1., 1.])])
    assert x.grad.asnumpy().tolist() == [2.0, 4.0]


def test_unknown_grad_req_is_a_key_error():
    # 1.9.1 looks grad_req up in a name table and raises KeyError
    x = mx.nd.array([1., 2.])
    with pytest.raises(KeyError, match="bogus"):
        x.attach_grad(grad_req="bogus")
    with pytest.raises(MXNetError, match="grad_req"):
        autograd.mark_variables([x], [mx.nd.zeros(2)], grad_reqs="bogus")


def test_mark_variables_checks_lengths_and_accumulates():
    x = mx.nd.array([1., 2., 3.])
    a = mx.nd.array([[1., 2.]])
    with pytest.raises(MXNetError, match="mark_variables"):
        # 1.9.1 crashes the process here; mxnet-py raises instead
        autograd.mark_variables([x, a], [mx.nd.zeros(3)])
    ga = mx.nd.ones((1, 2))
    autograd.mark_variables(a, ga, grad_reqs="add")
    for _ in range(2):
        with autograd.record():
            b = mx.nd.exp(a).sum()
        b.backward()
    # recorded from 1.9.1: 1 + 2 * exp([1, 2])
    np.testing.assert_allclose(ga.asnumpy().ravel(), [6.43656, 15.7781], rtol=1e-5)
