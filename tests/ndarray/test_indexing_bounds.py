"""The bounds check that GPU (CuPy) indexing relies on agrees with NumPy's own."""
import numpy as np
import pytest

import mxnet as mx

from mxnet.ndarray.indexing import _check_bounds

SHAPE = (3, 4, 5)
KEYS = [
    np.array([0, 2]), np.array([0, 3]), np.array([-3]), np.array([-4]),
    (slice(None), np.array([3])), (slice(None), np.array([4])),
    (Ellipsis, np.array([4])), (Ellipsis, np.array([5])), (Ellipsis, np.array([-6])),
    (None, np.array([2])), (None, np.array([3])),
    (np.array([2]), np.array([3])), (np.array([2]), np.array([4])),
    (1, slice(None), np.array([1, 5])), (np.array([1]), Ellipsis, np.array([-5])),
]


@pytest.mark.parametrize("key", KEYS, ids=[str(i) for i in range(len(KEYS))])
def test_bounds_check_matches_numpy(key):
    x = np.zeros(SHAPE)
    try:
        x[key]
        numpy_raises = False
    except IndexError:
        numpy_raises = True
    try:
        _check_bounds(key, SHAPE)
        ours = False
    except IndexError:
        ours = True
    assert ours == numpy_raises


def test_first_axis_views_of_1d_arrays_write_through():
    # 1.9.1: a step-1 slice and an element of a 1-D array share its memory (an element
    # is a (1,) array); a strided slice is a copy
    a = mx.nd.arange(12)
    v = a[2:6].reshape((2, 2))
    v[:] = 7
    e = a[-1]
    assert e.shape == (1,)
    e[:] = -1
    c = a[0:8:2]
    c[:] = 100
    want = np.arange(12, dtype=np.float32)
    want[2:6] = 7
    want[-1] = -1
    np.testing.assert_array_equal(a.asnumpy(), want)
    a[:] = 0
    assert v.asnumpy().sum() == 0 and e.asnumpy()[0] == 0


def test_element_of_1d_array_out_of_bounds():
    with pytest.raises(IndexError, match="out of bounds"):
        mx.nd.arange(3)[3]
