"""Indexing operators: gradients against central differences, 1.9.1 golden forwards, errors."""
from __future__ import annotations

import builtins
import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.operator.registry import get_op

from .harness import GradCase, check_grad_case, expect_error, rand

nd = mx.nd

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "indexing_ops.json"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_indexing_ops.py"
SORT_PREFIXES = ("topk.", "sort.", "argsort.", "grad.topk", "grad.sort", "grad.argsort")


def golden_ids(sort_family):
    """Case ids of tests/golden/indexing_ops.json for one test module."""
    if not GOLDEN.exists():
        return []
    cases = json.loads(GOLDEN.read_text())["cases"]
    return [k for k in cases if k.startswith(SORT_PREFIXES) == sort_family]


_CACHE: dict = {}


def _golden():
    if "cases" not in _CACHE:
        if not GOLDEN.exists():
            pytest.fail(f"golden fixture missing; regenerate with: {REGENERATE}")
        _CACHE["cases"] = json.loads(GOLDEN.read_text())["cases"]
    return _CACHE["cases"]


def _compare(expected, got, where):
    if expected["kind"] == "list":
        assert isinstance(got, (list, tuple)), f"{where}: expected a list, got {type(got).__name__}"
        assert len(got) == len(expected["items"]), f"{where}: length differs"
        for i, (e, g) in enumerate(zip(expected["items"], got)):
            _compare(e, g, f"{where}[{i}]")
        return
    assert isinstance(got, nd.NDArray), f"{where}: expected an NDArray, got {type(got).__name__}"
    assert np.dtype(got.dtype).name == expected["dtype"], f"{where}: dtype {np.dtype(got.dtype)}"
    assert list(got.shape) == expected["shape"], f"{where}: shape {got.shape} != {expected['shape']}"
    want = np.array([np.nan if v is None else v for v in expected["values"]],
                    dtype=np.float64).reshape(expected["shape"])
    have = got.asnumpy().astype(np.float64)
    if expected["dtype"].startswith(("int", "uint", "bool")):
        np.testing.assert_array_equal(have, want, err_msg=where)
    else:
        tol = 1e-3 if expected["dtype"] == "float16" else 1e-6
        np.testing.assert_allclose(have, want, rtol=tol, atol=tol, equal_nan=True, err_msg=where)


def check_golden(case_id):
    """Replay one recorded 1.9.1 case against this repository's mxnet."""
    case = _golden()[case_id]
    ns = {"mx": mx, "np": np}
    if case["outcome"] == "error":
        want = MXNetError if case["error"] == "MXNetError" else getattr(builtins, case["builtin"])
        with pytest.raises(want):
            exec(compile(case["code"], f"<{case_id}>", "exec"), ns)  # noqa: S102
            res = ns["result"]
            for r in res if isinstance(res, (list, tuple)) else [res]:
                r.asnumpy()
        return
    exec(compile(case["code"], f"<{case_id}>", "exec"), ns)  # noqa: S102
    _compare(case["value"], ns["result"], case_id)


@pytest.mark.parametrize("case_id", golden_ids(sort_family=False))
def test_golden(case_id):
    check_golden(case_id)


# ---------------------------------------------------------------------------------------------
# gradients

def _distinct(*shape, seed=0):
    """Values far apart (so sorting/clip boundaries do not move under a finite difference)."""
    n = int(np.prod(shape))
    return np.random.RandomState(seed).permutation(n).reshape(shape) * 0.1 - n * 0.05


_I = np.array([[0, 2], [1, 1]], dtype=np.float64)
_SEQ_L = np.array([1.0, 3.0, 2.0])

GRAD_CASES = [
    GradCase("take_axis0", lambda a, i: nd.take(a, i), [rand(3, 4), _I], ops=("take",), wrt=[0]),
    GradCase("take_axis1_wrap", lambda a, i: nd.take(a, i, axis=1, mode="wrap"),
             [rand(2, 3, 2), np.array([4.0, -1.0, 0.0])], ops=("take",), wrt=[0]),
    GradCase("take_clip_neg_axis", lambda a, i: nd.take(a, i, axis=-1),
             [rand(2, 3), np.array([[7.0, -3.0], [1.0, 1.0]])], ops=("take",), wrt=[0]),
    GradCase("batch_take", lambda a, i: nd.batch_take(a, i.astype("int32")),
             [rand(3, 4), np.array([3.0, 0.0, 1.0])], ops=("batch_take",), wrt=[0]),
    GradCase("pick_axis1", lambda a, i: nd.pick(a, i, axis=1), [rand(3, 4), np.array([0.0, 3.0, 1.0])],
             ops=("pick",), wrt=[0]),
    GradCase("pick_axis0_keep_wrap", lambda a, i: nd.pick(a, i, axis=0, keepdims=True, mode="wrap"),
             [rand(3, 2, 2), np.array([[4.0, -1.0], [0.0, 2.0]])], ops=("pick",), wrt=[0]),
    GradCase("where_same", lambda c, x, y: nd.where(c, x, y),
             [np.array([[1.0, 0.0], [0.0, 2.0]]), rand(2, 2), rand(2, 2, seed=1)], ops=("where",),
             wrt=[1, 2]),
    GradCase("where_rows", lambda c, x, y: nd.where(c, x, y),
             [np.array([0.0, 1.0, 1.0]), rand(3, 2), rand(3, 2, seed=1)], ops=("where",), wrt=[1, 2]),
    GradCase("clip", lambda x: nd.clip(x, -0.3, 0.45), [_distinct(3, 4) * 0.7 + 0.013], ops=("clip",)),
    GradCase("gather_nd", lambda d, i: nd.gather_nd(d, i),
             [rand(3, 4, 2), np.array([[0, 2, 2, -1], [1, 3, 3, 0]], dtype=np.float64)],
             ops=("gather_nd",), wrt=[0]),
    GradCase("scatter_nd", lambda d, i: nd.scatter_nd(d, i, shape=(3, 2)),
             [rand(2, 2), np.array([[2.0, 0.0]])], ops=("scatter_nd",), wrt=[0]),
    GradCase("scatter_set_nd", lambda lhs, r, i: nd.op._scatter_set_nd(lhs, r, i, shape=(3, 2)),
             [rand(3, 2), rand(2, seed=1), np.array([[2.0, 0.0], [1.0, 0.0]])],
             ops=("_scatter_set_nd",), wrt=[0, 1]),
    GradCase("sequence_mask", lambda d, n: nd.SequenceMask(d, n, use_sequence_length=True, value=0.5),
             [rand(4, 3, 2), _SEQ_L], ops=("SequenceMask",), wrt=[0]),
    GradCase("sequence_mask_axis1", lambda d, n: nd.SequenceMask(d, n, use_sequence_length=True, axis=1),
             [rand(3, 4, 2), _SEQ_L], ops=("SequenceMask",), wrt=[0]),
    GradCase("sequence_mask_nolen", lambda d: nd.SequenceMask(d), [rand(2, 3)], ops=("SequenceMask",)),
    GradCase("sequence_last", lambda d, n: nd.SequenceLast(d, n, use_sequence_length=True),
             [rand(4, 3, 2), _SEQ_L], ops=("SequenceLast",), wrt=[0]),
    GradCase("sequence_last_axis1", lambda d, n: nd.SequenceLast(d, n, use_sequence_length=True, axis=1),
             [rand(3, 4), _SEQ_L], ops=("SequenceLast",), wrt=[0]),
    GradCase("sequence_last_nolen", lambda d: nd.SequenceLast(d), [rand(3, 2, 2)], ops=("SequenceLast",)),
    GradCase("sequence_reverse", lambda d, n: nd.SequenceReverse(d, n, use_sequence_length=True),
             [rand(4, 3, 2), _SEQ_L], ops=("SequenceReverse",), wrt=[0]),
    GradCase("sequence_reverse_nolen", lambda d: nd.SequenceReverse(d), [rand(3, 2)],
             ops=("SequenceReverse",)),
]

# one_hot's only input is an index array: no gradient flows.
NON_DIFFERENTIABLE = ("one_hot",)


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def _grad(fn, x, *rest):
    x = x.copy()
    x.attach_grad()
    with mx.autograd.record():
        y = fn(x, *rest)
    y.backward()
    return x.grad.asnumpy()


def test_second_order_take_and_sequence_last():
    x = nd.array(rand(3, 2))
    x.attach_grad()
    idx = nd.array([0, 0, 2])
    with mx.autograd.record():
        g = mx.autograd.grad((nd.take(x, idx) ** 2).sum(), x, create_graph=True)[0]
        s = g.sum()
    s.backward()
    # d/dx sum(2 * x * count) = 2 * count
    np.testing.assert_allclose(x.grad.asnumpy(), [[4, 4], [0, 0], [2, 2]])
    d = nd.array(rand(3, 2))
    d.attach_grad()
    with mx.autograd.record():
        g = mx.autograd.grad((nd.SequenceLast(d) ** 2).sum(), d, create_graph=True)[0]
        s = g.sum()
    s.backward()
    np.testing.assert_allclose(d.grad.asnumpy(), [[0, 0], [0, 0], [2, 2]])


def test_index_inputs_get_no_gradient():
    x = nd.array(rand(3, 2))
    i = nd.array([2, 0])
    i.attach_grad()
    with mx.autograd.record():
        y = nd.take(x, i) + nd.pick(x, nd.array([0, 1, 0]))[0]
    y.backward()
    np.testing.assert_array_equal(i.grad.asnumpy(), [0, 0])


def test_gather_nd_negative_indices_gradient_wraps():
    x = nd.array(np.arange(4.0).reshape(2, 2))
    g = _grad(lambda a: nd.gather_nd(a, nd.array([[-1, 1], [0, -1]])), x)
    np.testing.assert_array_equal(g, [[0, 0], [1, 1]])


def test_backward_gather_nd_adds_duplicates():
    out = nd.op._backward_gather_nd(nd.array([1, 2, 3]), nd.array([[0, 0, 0], [1, 1, 1]]), shape=(2, 2))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 6], [0, 0]])


def test_scatter_set_nd_returns_fresh_array():
    x = nd.ones((3,))
    y = nd.op._scatter_set_nd(x, nd.array([5, 6]), nd.array([[2, 0]]), shape=(3,))
    np.testing.assert_array_equal(y.asnumpy(), [6, 1, 5])
    np.testing.assert_array_equal(x.asnumpy(), [1, 1, 1])


# ---------------------------------------------------------------------------------------------
# forward behaviour not covered by the fixtures

def test_sequence_ops_clip_out_of_range_lengths():
    x = nd.array(np.arange(12.0).reshape(3, 2, 2))
    last = nd.SequenceLast(x, nd.array([0, 7]), use_sequence_length=True).asnumpy()
    np.testing.assert_array_equal(last, [[0, 1], [10, 11]])
    rev = nd.SequenceReverse(x, nd.array([7, 2]), use_sequence_length=True).asnumpy()
    np.testing.assert_array_equal(rev[:, 0], x.asnumpy()[::-1, 0])
    np.testing.assert_array_equal(rev[:, 1], x.asnumpy()[[1, 0, 2], 1])


def test_scatter_nd_negative_indices_count_from_end():
    out = nd.scatter_nd(nd.array([1, 2]), nd.array([[-1, 0]]), shape=(3,))
    np.testing.assert_array_equal(out.asnumpy(), [2, 0, 1])


def test_sequence_inputs_follow_use_sequence_length():
    op = get_op("SequenceMask")
    assert op.input_names(op.parse_attrs({})) == ["data"]
    assert op.input_names(op.parse_attrs({"use_sequence_length": True})) == ["data", "sequence_length"]


def test_fluent_methods():
    a = nd.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(a.take(nd.array([1])).asnumpy(), [[3, 4]])
    np.testing.assert_array_equal(a.pick(nd.array([1, 0])).asnumpy(), [2, 3])
    np.testing.assert_array_equal(a.clip(2, 3).asnumpy(), [[2, 2], [3, 3]])
    np.testing.assert_array_equal(nd.array([1, 0]).one_hot(2).asnumpy(), [[0, 1], [1, 0]])


def test_infer_shape_and_type():
    take = get_op("take")
    at = take.parse_attrs({"axis": 1})
    assert take.infer_shape(at, [(2, 5, 3), (4, 1)], [None])[1] == [(2, 4, 1, 3)]
    pick = get_op("pick")
    assert pick.infer_shape(pick.parse_attrs({"axis": 1}), [(2, 5, 3), None], [None])[1] == [(2, 3)]
    assert pick.infer_shape(pick.parse_attrs({"axis": 1, "keepdims": True}), [(2, 5), None], [None])[1] \
        == [(2, 1)]
    oh = get_op("one_hot")
    at = oh.parse_attrs({"depth": 4, "dtype": "int32"})
    assert oh.infer_shape(at, [(2, 3)], [None])[1] == [(2, 3, 4)]
    assert oh.infer_type(at, [np.dtype(np.float32)], [None])[1] == [np.dtype(np.int32)]
    g = get_op("gather_nd")
    assert g.infer_shape({}, [(2, 3, 4), (2, 5)], [None])[1] == [(5, 4)]
    s = get_op("scatter_nd")
    at = s.parse_attrs({"shape": (2, 3, 4)})
    assert s.infer_shape(at, [None, (2, 5)], [None]) == ([(5, 4), (2, 5)], [(2, 3, 4)], [])
    sl = get_op("SequenceLast")
    at = sl.parse_attrs({"use_sequence_length": True, "axis": 1})
    assert sl.infer_shape(at, [(4, 6, 3), None], [None]) == ([(4, 6, 3), (4,)], [(4, 3)], [])
    w = get_op("where")
    assert w.infer_shape({}, [None, (3, 2), None], [None])[1] == [(3, 2)]
    bt = get_op("batch_take")
    assert bt.infer_type({}, [np.dtype(np.float32), None], [None])[0][1] == np.dtype(np.int32)


# ---------------------------------------------------------------------------------------------
# errors

def test_errors_name_the_problem():
    a = nd.array([[1, 2, 3], [4, 5, 6]])
    expect_error(nd.take, a, nd.array([0, 3]), mode="raise", match="out of bounds")
    expect_error(nd.take, a, nd.array([0]), axis=2, match="axis 2")
    expect_error(nd.take, a, nd.array([0]), mode="nope", match="mode")
    expect_error(nd.pick, a, nd.array([0, 1, 2]), axis=1, match="index shape")
    expect_error(nd.pick, a, nd.array([0, 1]), axis=None, match="axis=None")
    expect_error(nd.one_hot, nd.array([1]), -2, match="depth")
    expect_error(nd.where, nd.array([1, 0, 1]), a, a, match="condition")
    expect_error(nd.where, nd.array([1, 0]), a, a.astype("int32"), match="dtype")
    expect_error(nd.where, nd.array([1, 0]), a, nd.array([1, 2]), match="shape")
    expect_error(nd.clip, a, 1, match="a_max")
    expect_error(nd.gather_nd, a, nd.array([1, 0]), match="at least 2 dimensions")
    expect_error(nd.gather_nd, a, nd.array([[0], [0], [0]]), match="exceeds")
    err = expect_error(nd.gather_nd, a, nd.array([[2], [0]]), match="index 2 is out of bounds")
    assert isinstance(err, IndexError)
    expect_error(nd.scatter_nd, nd.array([1, 2]), nd.array([[1], [0]]), shape=(2, 2), match="combination")
    expect_error(nd.scatter_nd, nd.array([1]), nd.array([[5]]), shape=(2,), match="out of bounds")
    expect_error(nd.batch_take, a, nd.array([1, 0]), match="int32")
    expect_error(nd.batch_take, a, nd.array([1, 0, 1], dtype="int32"), match="one entry per row")
    x = nd.array(np.zeros((3, 2, 2)))
    expect_error(nd.SequenceMask, x, nd.array([1, 2, 3]), use_sequence_length=True, match="(2,)")
    expect_error(nd.SequenceMask, x, axis=2, match="axis")
    expect_error(nd.SequenceLast, nd.array([1, 2]), match="rank 2")
    expect_error(nd.SequenceReverse, x, axis=1, match="axis must be 0")
    expect_error(nd.SequenceMask, x, sequence_length=nd.array([1, 2]), match="sequence_length")
