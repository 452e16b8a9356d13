"""Helpers that make GPU (CuPy) results equal the CPU's, checked with NumPy on the CPU:
each must reproduce what NumPy itself gives."""
import numpy as np
import pytest

from mxnet.operator.indexing_ops import _last_writes
from mxnet.operator.special import _x86_cast


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64])
def test_x86_cast_matches_numpy_astype(dtype):
    v = np.array([np.inf, -np.inf, np.nan, 300.0, -5.5, 3e9, 1e19, 2.0 ** 31 - 0.5, -129.0, 0.0])
    with np.errstate(all="ignore"):
        want = v.astype(dtype)
    np.testing.assert_array_equal(_x86_cast(np, v, np.dtype(dtype)), want)


def test_last_writes_gives_numpy_scatter_result():
    rs = np.random.RandomState(0)
    shape = (4, 3, 2)
    idx = tuple(rs.randint(0, n, (5, 6)) for n in shape[:2])  # many repeats
    data = rs.randn(5, 6, 2)
    want = np.zeros(shape)
    want[idx] = data
    got = np.zeros(shape)
    i2, d2 = _last_writes(np, idx, data, shape)
    assert len(set(zip(*(i.tolist() for i in i2)))) == len(i2[0])  # no repeats left
    got[i2] = d2
    np.testing.assert_array_equal(got, want)
