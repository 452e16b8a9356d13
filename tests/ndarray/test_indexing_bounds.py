"""The bounds check that GPU (CuPy) indexing relies on agrees with NumPy's own."""
import numpy as np
import pytest

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
