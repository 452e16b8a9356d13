"""Operators behind further mx.sym.np functions (mxnet/operator/np_sym_extra.py): numeric
gradients, and the values / graphs of the symbol front ends, recorded from 1.9.1."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mxnet as mx

from .harness import GradCase, check_grad_case, rand

op = mx.nd.op


@pytest.fixture(autouse=True)
def _fresh_names():
    # automatic node names (retain0, _plus0 ...) count from 0 in each test
    with mx.name.NameManager():
        yield


def _cat(parts):
    return mx.nd.concat(*[p.reshape((-1,)) * (i + 1) for i, p in enumerate(parts)], dim=0)


GRAD_CASES = [
    GradCase("npi_diff", lambda x: op._npi_diff(x, n=2, axis=0), [rand(4, 3)],
             ops=("_npi_diff",)),
    GradCase("npi_polyval", lambda p, x: op._npi_polyval(p, x), [rand(3), rand(2, 3, seed=1)],
             ops=("_npi_polyval",)),
    GradCase("npi_average", lambda a: op._npi_average(a, axis=(1,), weighted=False),
             [rand(2, 3)], ops=("_npi_average",)),
    GradCase("npi_average_weighted", lambda a, w: op._npi_average(a, w, axis=(0,)),
             [rand(3, 2), rand(3, low=0.5, high=1.5, seed=2)], ops=("_npi_average",)),
    GradCase("npi_ediff1d", lambda a, b: op._npi_ediff1d(a, b, to_begin_arr_given=True,
                                                       to_end_scalar=2.0),
             [rand(2, 3), rand(2, seed=3)], ops=("_npi_ediff1d",)),
    GradCase("npi_hsplit", lambda x: _cat(op._npi_hsplit(x, axis=1, indices=(), sections=3)),
             [rand(2, 5)], ops=("_npi_hsplit",)),
    GradCase("npi_dsplit", lambda x: _cat(op._npi_dsplit(x, axis=2, indices=(0, 1))),
             [rand(2, 2, 3)], ops=("_npi_dsplit",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


A = np.array([[1., 4., 9., 16.], [2., 3., 5., 7.]], dtype=np.float32)


def _run(outs, feeds, grad=False):
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    g = mx.sym.Group([o.as_nd_ndarray() for o in outs]) if len(outs) > 1 else \
        outs[0].as_nd_ndarray()
    ex = g.bind(mx.cpu(), {k: mx.nd.array(v, dtype=np.asarray(v).dtype) for k, v in feeds.items()},
                args_grad={k: mx.nd.zeros(v.shape) for k, v in feeds.items()} if grad else None)
    res = [r.asnumpy() for r in ex.forward(is_train=grad)]
    if grad:
        ex.backward([mx.nd.ones(r.shape) for r in res])
        return g, res, {k: v.asnumpy() for k, v in ex.grad_dict.items()}
    return g, res


def _ops(sym):
    return [(n["op"], n["name"], n.get("attrs")) for n in json.loads(sym.tojson())["nodes"]
            if n["op"] != "null"]


def _v(name):
    return mx.sym.var(name).as_np_ndarray()


S = mx.sym.np


def test_diff_polyval_average_ediff1d():
    # all recorded from 1.9.1
    g, res, grads = _run(S.diff(_v("a")), {"a": A}, True)
    assert _ops(g) == [("_npi_diff", "diff0", {"axis": "-1", "n": "1"})]
    assert res[0].tolist() == [[3, 5, 7], [1, 2, 2]]
    assert grads["a"].tolist() == [[-1, 0, 0, 1], [-1, 0, 0, 1]]
    g, res, grads = _run(S.diff(_v("a"), n=2, axis=0),
                         {"a": np.array([[1., 2.], [4., 8.], [9., 20.]])}, True)
    assert res[0].tolist() == [[2, 6]] and grads["a"].tolist() == [[1, 1], [-2, -2], [1, 1]]
    g, res, grads = _run(S.polyval(_v("b"), _v("a")), {"a": A, "b": np.array([2., 0.5])}, True)
    assert _ops(g) == [("_npi_polyval", "polyval0", None)]
    assert res[0].tolist() == [[2.5, 8.5, 18.5, 32.5], [4.5, 6.5, 10.5, 14.5]]
    assert grads["b"].tolist() == [47, 8] and (grads["a"] == 2).all()
    g, res, grads = _run(S.average(_v("a"), axis=1), {"a": A}, True)
    assert _ops(g) == [("_npi_average", "average0",
                        {"axis": "1", "returned": "False", "weighted": "False"})]
    assert res[0].tolist() == [7.5, 4.25] and (grads["a"] == 0.25).all()
    g, res, grads = _run(S.average(_v("a"), axis=0, weights=_v("b"), returned=True),
                         {"a": A, "b": np.array([2., 0.5])}, True)
    np.testing.assert_allclose(res[0], [1.2, 3.8, 8.2, 14.2], rtol=1e-6)
    assert res[1].shape == () and float(res[1]) == 2.5
    np.testing.assert_allclose(grads["a"], [[0.8] * 4, [0.2] * 4], rtol=1e-6)
    np.testing.assert_allclose(grads["b"], [1.04, -4.16], rtol=1e-5)
    g, res, grads = _run(S.ediff1d(_v("a")), {"a": A}, True)
    assert res[0].tolist() == [3, 5, 7, -14, 1, 2, 2]
    assert grads["a"].tolist() == [[-1, 0, 0, 0], [0, 0, 0, 1]]


def test_splits_indices_memory_histogram():
    # all recorded from 1.9.1
    g, res = _run(S.hsplit(_v("a"), 2), {"a": A})
    assert _ops(g)[0] == ("_npi_hsplit", "hsplit0", {"axis": "1", "indices": "[]",
                                                     "sections": "2", "squeeze_axis": "False"})
    assert [r.tolist() for r in res] == [[[1, 4], [2, 3]], [[9, 16], [5, 7]]]
    g, res = _run(S.hsplit(_v("a"), [1, 3]), {"a": A})
    assert [r.shape for r in res] == [(2, 1), (2, 2), (2, 1)]
    g, res = _run(S.dsplit(_v("a"), 2), {"a": np.ones((2, 2, 4))})
    assert _ops(g)[0][:2] == ("_npi_dsplit", "dsplit0") and res[1].shape == (2, 2, 2)
    g, res = _run(S.diag_indices_from(_v("a")), {"a": np.ones((3, 3))})
    assert res[0].dtype == np.int64 and res[0].tolist() == [[0, 1, 2], [0, 1, 2]]
    a = _v("a")
    _, res = _run(S.shares_memory(a, _v("b")), {"a": A, "b": np.ones(2)})
    assert res[0].dtype == np.bool_ and not res[0]
    _, res = _run(S.may_share_memory(a, a), {"a": A})
    assert bool(res[0])
    g, res = _run(S.histogram(_v("a"), bins=3, range=(0., 16.)), {"a": A})
    assert _ops(g)[0] == ("_histogram", "histogram0", {"bin_cnt": "3", "range": "(0.0, 16.0)"})
    assert res[0].tolist() == [5, 2, 1]
    np.testing.assert_allclose(res[1], [0, 16 / 3, 32 / 3, 16], rtol=1e-6)


def test_python_fallbacks():
    # recorded from 1.9.1: Custom nodes running NumPy on the host
    g, res = _run(S.resize(_v("a"), (3, 3)), {"a": A})
    assert _ops(g)[0] == ("Custom", _ops(g)[0][1], {"new_shape": "(3, 3)",
                                                    "op_type": "resize_fallback"})
    assert res[0].tolist() == [[1, 4, 9], [16, 2, 3], [5, 7, 1]]
    g, res = _run(S.empty_like(_v("a"), dtype="int32"), {"a": A})
    assert _ops(g)[0][2] == {"dtype": "int32", "op_type": "empty_like_fallback", "order": "C",
                             "shape": "None", "subok": "False"}
    assert res[0].dtype == np.int32 and res[0].shape == (2, 4)
    g, res = _run(S.unravel_index(_v("i"), (4, 5)), {"i": np.array([3, 7, 19])})
    assert res[0].tolist() == [[0, 1, 3], [3, 2, 4]]   # NumPy's unravel_index
    with pytest.raises(mx.base.MXNetError, match="only int indices"):
        _run(S.unravel_index(_v("i"), (4, 5)), {"i": np.array([3., 7., 19.])})
