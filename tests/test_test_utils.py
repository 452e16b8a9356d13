"""mx.test_utils: tolerances, comparisons, random inputs and the numeric gradient check."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import test_utils as tu


def test_default_tolerances_per_dtype():
    assert tu.almost_equal(np.float32(1.0), np.float32(1.0 + 5e-5))
    assert not tu.almost_equal(np.array([1.0], np.float64), np.array([1.0 + 1e-4], np.float64))
    assert tu.almost_equal(np.array([1.0], np.float16), np.array([1.005], np.float16))


def test_assert_almost_equal_reports_location():
    with pytest.raises(AssertionError, match=r"Location of maximum error: \(1,\)"):
        tu.assert_almost_equal(np.array([1.0, 2.0], np.float32), np.array([1.0, 3.0], np.float32))
    tu.assert_almost_equal(mx.nd.ones((2,)), np.ones(2, np.float32))


def test_same_and_shapes():
    assert tu.same(mx.nd.array([1, 2]), np.array([1, 2], np.float32))
    assert len(tu.rand_shape_2d()) == 2 and len(tu.rand_shape_3d()) == 3
    assert len(tu.rand_shape_nd(4)) == 4
    a = tu.rand_ndarray((3, 4), dtype=np.float64)
    assert a.shape == (3, 4) and a.dtype == np.float64


def test_default_context_switch():
    old = tu.default_context()
    try:
        tu.set_default_context(mx.cpu(1))
        assert mx.nd.zeros((1,)).context == mx.cpu(1)
    finally:
        tu.set_default_context(old)


def test_numeric_gradient_check_catches_a_wrong_gradient():
    class Wrong(mx.autograd.Function):
        def forward(self, x):
            return x * x

        def backward(self, dy):
            return dy  # should be 2*x*dy

    tu.check_numeric_gradient(lambda x: x * x, [np.array([1.0, 2.0])])
    with pytest.raises(AssertionError):
        tu.check_numeric_gradient(lambda x: Wrong()(x), [np.array([1.0, 2.0])])
