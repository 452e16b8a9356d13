"""Sorting operators (topk, sort, argsort): gradients, 1.9.1 golden forwards, errors."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .harness import GradCase, check_grad_case, expect_error
from .test_indexing_ops import check_golden, golden_ids

nd = mx.nd


@pytest.mark.parametrize("case_id", golden_ids(sort_family=True))
def test_golden(case_id):
    check_golden(case_id)


def _distinct(*shape, seed=0):
    n = int(np.prod(shape))
    return np.random.RandomState(seed).permutation(n).reshape(shape) * 0.1 - n * 0.05


GRAD_CASES = [
    GradCase("topk_value", lambda x: nd.topk(x, k=2, ret_typ="value"), [_distinct(3, 4)], ops=("topk",)),
    GradCase("topk_value_axis0_asc", lambda x: nd.topk(x, axis=0, k=2, ret_typ="value", is_ascend=True),
             [_distinct(3, 2, 2, seed=1)], ops=("topk",)),
    GradCase("topk_both_axis_none", lambda x: nd.topk(x, axis=None, k=3, ret_typ="both")[0],
             [_distinct(2, 3, seed=2)], ops=("topk",)),
    GradCase("sort", lambda x: nd.sort(x), [_distinct(3, 4, seed=3)], ops=("sort",)),
    GradCase("sort_desc_axis0", lambda x: nd.sort(x, axis=0, is_ascend=False), [_distinct(4, 3, seed=4)],
             ops=("sort",)),
    GradCase("sort_axis_none", lambda x: nd.sort(x, axis=None), [_distinct(2, 3, seed=5)], ops=("sort",)),
    # piecewise constant: the gradient is zero, as 1.9.1's
    GradCase("argsort", lambda x: nd.argsort(x), [_distinct(2, 3, seed=6)], ops=("argsort",)),
    GradCase("topk_indices", lambda x: nd.topk(x, k=2), [_distinct(2, 3, seed=7)], ops=("topk",)),
    GradCase("topk_mask", lambda x: nd.topk(x, k=2, ret_typ="mask") * x, [_distinct(2, 3, seed=8)],
             ops=("topk",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def test_ties_on_long_rows_in_1_9_1_order():
    # 1.9.1's CPU std::sort is not stable past 16 elements; values recorded from 1.9.1
    x = nd.array(np.arange(40) % 3, ctx=mx.cpu())   # (1.9.1's GPU sort orders ties otherwise)
    got = nd.argsort(x).asnumpy()
    np.testing.assert_array_equal(got, [
        0, 21, 18, 24, 15, 27, 12, 30, 9, 33, 6, 36, 3, 39, 31, 34, 28, 37, 25, 22,
        1, 19, 16, 4, 13, 7, 10, 2, 20, 38, 5, 35, 8, 32, 11, 29, 14, 26, 17, 23])
    got = nd.argsort(x, is_ascend=False).asnumpy()
    np.testing.assert_array_equal(got, [
        29, 20, 17, 23, 14, 26, 11, 8, 32, 5, 35, 2, 38, 31, 1, 34, 28, 25, 37, 22,
        16, 13, 4, 10, 19, 7, 30, 39, 0, 3, 36, 6, 33, 9, 12, 27, 15, 24, 18, 21])


def test_nan_sorts_last_ascending_first_descending():
    x = nd.array([1, np.nan, -np.inf, 3])
    np.testing.assert_array_equal(nd.argsort(x).asnumpy(), [2, 0, 3, 1])
    np.testing.assert_array_equal(nd.argsort(x, is_ascend=False).asnumpy(), [1, 3, 0, 2])


def test_hidden_outputs_and_names():
    topk = get_op("topk")
    for ret, nout, vis, names in [("value", 2, 1, ["output0"]), ("both", 2, 2, ["output0", "output1"]),
                                  ("indices", 1, 1, ["output"]), ("mask", 1, 1, ["output"])]:
        attrs = topk.parse_attrs({"ret_typ": ret})
        assert (topk.num_outputs(attrs), topk.num_visible_outputs(attrs)) == (nout, vis)
        assert topk.list_output_names(attrs) == names
    sort = get_op("sort")
    assert sort.list_output_names(sort.parse_attrs({})) == ["output0"]
    assert isinstance(nd.topk(nd.array([1, 2]), ret_typ="value"), nd.NDArray)
    assert isinstance(nd.sort(nd.array([1, 2])), nd.NDArray)


def test_infer_shape_and_type():
    topk = get_op("topk")
    at = topk.parse_attrs({"k": 2, "ret_typ": "both", "dtype": "int32"})
    assert topk.infer_shape(at, [(3, 5)], [None, None])[1] == [(3, 2), (3, 2)]
    assert topk.infer_type(at, [np.dtype(np.float16)], [None, None])[1] == [np.dtype(np.float16),
                                                                            np.dtype(np.int32)]
    at = topk.parse_attrs({"k": 0, "axis": None})
    assert topk.infer_shape(at, [(3, 5)], [None])[1] == [(15,)]
    at = topk.parse_attrs({"ret_typ": "mask", "axis": None})
    assert topk.infer_shape(at, [(3, 5)], [None])[1] == [(3, 5)]
    argsort = get_op("argsort")
    at = argsort.parse_attrs({"axis": None, "dtype": "int64"})
    assert argsort.infer_shape(at, [(3, 5)], [None])[1] == [(15,)]
    assert argsort.infer_type(at, [np.dtype(np.float32)], [None])[1] == [np.dtype(np.int64)]


def test_errors():
    x = nd.array([[3, 1, 4], [1, 5, 9]])
    expect_error(nd.topk, x, k=4, match="k=4")
    expect_error(nd.topk, x, axis=2, match="axis 2")
    expect_error(nd.topk, x, ret_typ="foo", match="ret_typ")
    expect_error(nd.sort, x, axis=-3, match="axis -3")
    expect_error(nd.argsort, x, dtype="int8", match="dtype")
    expect_error(nd.argsort, x.astype("float16"), match="float16")
