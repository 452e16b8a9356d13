"""NDArray behaviour not covered by the golden snippet table."""
import pickle

import numpy as np
import pytest

import mxnet as mx

nd = mx.nd


def test_repr_matches_mxnet():
    ctx = mx.test_utils.default_context()
    assert repr(nd.array([[1, 2], [3, 4]])) == f"\n[[1. 2.]\n [3. 4.]]\n<NDArray 2x2 @{ctx}>"


def test_pickle_round_trip():
    a = nd.array([[1, 2], [3, 4]], ctx=mx.cpu(1), dtype="int32")
    b = pickle.loads(pickle.dumps(a))
    # 1.9.1 (recorded): an unpickled CPU array is on cpu(0), whatever cpu(k) it was saved from
    assert b.context == mx.cpu(0) and b.dtype == np.int32
    assert b.asnumpy().tolist() == [[1, 2], [3, 4]]


def test_first_axis_slice_is_a_view():
    a = nd.zeros((3, 2))
    v = a[1:3]
    v[:] = 7
    assert a.asnumpy()[1:].tolist() == [[7, 7], [7, 7]]
    r = a.reshape((6,))
    r[0] = 1
    assert a.asnumpy()[0, 0] == 1


def test_inplace_ops_keep_identity():
    a = nd.ones((2,))
    b = a
    a += 2
    a *= 3
    assert b is a and a.asnumpy().tolist() == [9.0, 9.0]


def test_out_argument_writes_in_place():
    a = nd.array([1.0, 2.0])
    out = nd.zeros((2,))
    res = nd.exp(a, out=out)
    assert res is out
    np.testing.assert_allclose(out.asnumpy(), np.exp([1.0, 2.0]), rtol=1e-6)


def test_astype_copy_false_returns_self():
    a = nd.ones((2,))
    assert a.astype("float32", copy=False) is a
    assert a.astype("float64").dtype == np.float64


def test_wait_to_read_and_waitall():
    a = nd.ones((2, 2)) * 3
    a.wait_to_read()
    nd.waitall()
    assert a.sum().asscalar() == 12


def test_asscalar_requires_size_one():
    with pytest.raises(ValueError):
        nd.ones((2,)).asscalar()


def test_generated_function_signature_and_doc():
    import inspect
    sig = inspect.signature(nd.sum)
    assert list(sig.parameters)[:3] == ["data", "axis", "keepdims"]
    assert "axis" in nd.sum.__doc__
