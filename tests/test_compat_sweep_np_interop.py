"""Official NumPy functions and ufuncs called on ``mx.np`` arrays (``__array_function__`` /
``__array_ufunc__``).

Every expected value, type, dtype and context below was recorded from MXNet 1.9.1 (NumPy 1.23),
except where a comment says the check is a closed form (gradients) or describes where we
deliberately raise a clearer error than 1.9.1's own bug.
"""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np


def _a():
    return np.array([[1., 2.], [3., 4.]])


def _b():
    return np.array([[5., 6.], [7., 8.]])


def _is_mx(x, dtype, ctx=None):
    assert isinstance(x, np.ndarray), type(x)
    assert x.dtype == onp.dtype(dtype)
    assert x.ctx == (ctx or mx.cpu(0))


# -- functions that run mx.np's own implementation (recorded from 1.9.1) -----------------------

def test_dispatched_functions_return_mx_arrays():
    a, b = _a(), _b()
    r = onp.concatenate([a, b])
    _is_mx(r, "float32")
    assert r.asnumpy().tolist() == [[1, 2], [3, 4], [5, 6], [7, 8]]
    r = onp.mean(a)
    _is_mx(r, "float32")
    assert r.shape == () and r.item() == 2.5
    # mx.np's rules, not NumPy's: the mean of int32 is float32 and the sum of int32 stays int32
    i = np.array([1, 2, 3], dtype="int32")
    r = onp.mean(i)
    _is_mx(r, "float32")
    assert r.item() == 2.0
    r = onp.sum(i)
    _is_mx(r, "int32")
    assert r.item() == 6
    r = onp.sum(a, axis=1, dtype="float64")
    _is_mx(r, "float64")
    assert r.asnumpy().tolist() == [3., 7.]
    r = onp.where(a > 2, a, b)
    _is_mx(r, "float32")
    assert r.asnumpy().tolist() == [[5, 6], [3, 4]]
    rows, cols = onp.where(a > 2)
    _is_mx(rows, "int64")
    assert rows.asnumpy().tolist() == [1, 1] and cols.asnumpy().tolist() == [0, 1]
    r = onp.max(a, axis=1, keepdims=True)
    _is_mx(r, "float32")
    assert r.asnumpy().tolist() == [[2.], [4.]]
    r = onp.linalg.norm(a)
    _is_mx(r, "float32")
    assert abs(r.item() - 5.4772257804870605) < 1e-6
    parts = onp.split(a, 2)
    assert isinstance(parts, list) and len(parts) == 2
    _is_mx(parts[1], "float32")
    vals, counts = onp.unique(np.array([1., 1., 2.]), return_counts=True)
    _is_mx(counts, "int64")
    assert counts.asnumpy().tolist() == [2, 1]
    assert onp.shape(a) == (2, 2) and isinstance(onp.shape(a)[0], int)
    r = onp.argmax(a)
    _is_mx(r, "int64")
    assert r.item() == 3


def test_dispatched_function_keeps_context():
    a1, b1 = _a().as_in_ctx(mx.cpu(1)), _b().as_in_ctx(mx.cpu(1))
    _is_mx(onp.concatenate([a1, b1]), "float32", mx.cpu(1))
    _is_mx(onp.exp(a1), "float32", mx.cpu(1))


# -- ufuncs ----------------------------------------------------------------------------------

def test_dispatched_ufuncs_follow_mx_np_rules():
    i = np.array([1, 2, 3], dtype="int32")
    # 1.9.1: int32 + 1.5 stays int32 and exp of int32 stays int32 (NumPy would give float64)
    r = onp.add(i, 1.5)
    _is_mx(r, "int32")
    assert r.asnumpy().tolist() == [2, 3, 4]
    r = onp.exp(i)
    _is_mx(r, "int32")
    assert r.asnumpy().tolist() == [2, 7, 20]
    a = _a()
    r = onp.greater(2, a)
    _is_mx(r, "bool")
    assert r.asnumpy().tolist() == [[True, False], [False, False]]
    r = onp.lcm(i, 4)
    _is_mx(r, "int32")
    assert r.asnumpy().tolist() == [4, 4, 12]
    # NumPy scalars on the left go through the ufunc protocol too
    r = onp.float32(2) * a
    _is_mx(r, "float32")
    assert r.asnumpy().tolist() == [[2, 4], [6, 8]]
    _is_mx(onp.float64(2) + a, "float32")
    # aliases: abs/absolute, mod/remainder
    _is_mx(onp.abs(np.array([-1, 2], dtype="int8")), "int8")
    r = onp.mod(np.array([-3., 4.]), 3)
    assert r.asnumpy().tolist() == [0., 1.]


def test_numpy_divide_falls_back_to_numpy():
    # NumPy's divide (and true_divide, the same ufunc named "divide") is not in 1.9.1's table:
    # it runs on the host with NumPy's promotion (int32 / 2 is float64)
    r = onp.divide(np.array([1, 2], dtype="int32"), 2)
    _is_mx(r, "float64")
    assert r.asnumpy().tolist() == [0.5, 1.0]
    r = onp.true_divide(np.array([1, 2], dtype="int32"), 2)
    _is_mx(r, "float64")
    _is_mx(onp.divide(_a(), 2), "float32")


def test_ufunc_out():
    a, b = _a(), _b()
    c = np.zeros((2, 2))
    r = onp.add(a, b, out=c)
    assert r is c
    assert c.asnumpy().tolist() == [[6, 8], [10, 12]]
    c3 = np.zeros((2,))
    r = onp.sum(a, axis=0, out=c3)
    assert r is c3 and c3.asnumpy().tolist() == [4., 6.]
    with pytest.raises(TypeError):
        onp.add(a, b, out=onp.zeros((2, 2), dtype="float32"))


def test_ufunc_methods_other_than_call_are_refused():
    a, b = _a(), _b()
    with pytest.raises(TypeError):
        onp.add.reduce(a)
    with pytest.raises(TypeError):
        onp.add.outer(a, b)


# -- fallback to official NumPy ----------------------------------------------------------------

def test_fallback_functions():
    a = _a()
    r = onp.cumprod(a)
    _is_mx(r, "float32")
    assert r.asnumpy().tolist() == [1., 2., 6., 24.]
    r = onp.argwhere(a > 2)
    _is_mx(r, "int64")
    assert r.asnumpy().tolist() == [[1, 0], [1, 1]]
    # scalars come back as NumPy gives them
    r = onp.median(a)
    assert type(r) is onp.float32 and r == 2.5
    r = onp.allclose(a, _b())
    assert r is False
    r = onp.count_nonzero(a)
    assert type(r) is int and r == 4
    r = onp.searchsorted(np.array([1., 2., 3.]), 2.5)
    assert isinstance(r, onp.integer) and r == 2
    r = onp.searchsorted(np.array([1., 2., 3.]), np.array([2.5, 0.]))
    _is_mx(r, "int64")
    assert r.asnumpy().tolist() == [2, 0]


def test_fallback_contexts():
    a1 = _a().as_in_ctx(mx.cpu(1))
    _is_mx(onp.cumprod(a1), "float32", mx.cpu(1))
    _is_mx(onp.isnan(a1), "bool", mx.cpu(1))
    # arrays inside a returned tuple come back on cpu(0), as in 1.9.1
    hist, edges = onp.histogram(a1, bins=2)
    _is_mx(hist, "int64", mx.cpu(0))
    _is_mx(edges, "float32", mx.cpu(0))
    assert hist.asnumpy().tolist() == [2, 2] and edges.asnumpy().tolist() == [1., 2.5, 4.]
    # 1.9.1 fails here with a broken message (TypeError); the intended error is a ValueError
    with pytest.raises(ValueError):
        onp.polyfit(_a()[0], a1[1], 1)


def test_fallback_ufuncs():
    a, b = _a(), _b()
    r = onp.isnan(a)
    _is_mx(r, "bool")
    assert not r.asnumpy().any()
    r = onp.logaddexp(a, b)
    _is_mx(r, "float32")
    onp.testing.assert_allclose(r.asnumpy(), [[5.01815, 6.01815], [7.01815, 8.01815]],
                                rtol=1e-5)
    # a fallback ufunc accepts NumPy arrays next to mx ones
    r = onp.logaddexp(a, onp.array([[1., 2.], [3., 4.]], dtype="float32"))
    _is_mx(r, "float32")
    onp.testing.assert_allclose(r.asnumpy()[0], [1.6931472, 2.6931472], rtol=1e-6)
    q, rem = onp.divmod(a, 2)
    _is_mx(q, "float32")
    assert q.asnumpy().tolist() == [[0, 1], [1, 2]] and rem.asnumpy().tolist() == [[1, 0], [1, 0]]
    r = onp.floor_divide(np.array([7, -8], dtype="int32"), 3)
    _is_mx(r, "int32")
    assert r.asnumpy().tolist() == [2, -3]


def test_fallback_out_is_written():
    # 1.9.1 leaves an mx out= of a fallback function unwritten and recurses without end for a
    # fallback ufunc; here the host result is written into out= and out is returned
    a = _a()
    c = np.zeros((4,))
    assert onp.cumprod(a, out=c) is c
    assert c.asnumpy().tolist() == [1., 2., 6., 24.]   # closed form
    m = np.ones((2, 2))
    assert onp.isnan(a, out=m) is m
    assert m.asnumpy().tolist() == [[0., 0.], [0., 0.]]
    with pytest.raises(ValueError):
        onp.cumprod(a, out=np.zeros((3,)))


def test_fallback_results_that_cannot_be_mx_arrays():
    a = _a()
    with pytest.raises(ValueError):       # complex results
        onp.fft.fft(a)
    with pytest.raises(TypeError):        # a string
        onp.array2string(a)
    with pytest.raises(TypeError):        # None
        onp.copyto(a, _b())


# -- mixing NumPy arrays and legacy NDArrays -----------------------------------------------------

def test_mixed_numpy_arrays_are_refused_where_mx_np_runs():
    a = _a()
    o = onp.array([[1., 2.], [3., 4.]], dtype="float32")
    for fn in (lambda: onp.concatenate([a, o]), lambda: onp.concatenate([o, a]),
               lambda: onp.where(o > 2, a, a), lambda: onp.dot(a, o),
               lambda: onp.linalg.solve(a, o), lambda: onp.add(a, o), lambda: onp.add(o, a),
               lambda: onp.maximum(o, a), lambda: onp.arctan2(a, o), lambda: o + a):
        with pytest.raises(TypeError):
            fn()


def test_legacy_ndarray_in_dispatched_ufunc_is_refused():
    a, n = _a(), mx.nd.array([[1., 2.], [3., 4.]])
    with pytest.raises(TypeError):
        onp.add(a, n)
    with pytest.raises(TypeError):
        onp.add(n, a)


# -- autograd -------------------------------------------------------------------------------------

def _grad(f):
    x = np.array([[1., 2.], [3., 4.]])
    x.attach_grad()
    with autograd.record():
        y = f(x)
    y.backward()
    return x.grad.asnumpy()


def test_autograd_records_dispatched_calls():
    xs = onp.array([[1., 2.], [3., 4.]], dtype="float32")
    # closed forms
    onp.testing.assert_allclose(_grad(lambda x: onp.exp(x).sum()), onp.exp(xs), rtol=1e-6)
    onp.testing.assert_allclose(_grad(lambda x: onp.sum(x * x)), 2 * xs)
    onp.testing.assert_allclose(_grad(lambda x: onp.mean(onp.concatenate([x, x]))),
                                onp.full((2, 2), 0.25))
    onp.testing.assert_allclose(_grad(lambda x: onp.where(x > 2, x, 0 * x).sum()),
                                [[0, 0], [1, 1]])
    onp.testing.assert_allclose(_grad(lambda x: onp.maximum(x, 2.5).sum()), [[0, 0], [1, 1]])


@pytest.mark.parametrize("fn", [lambda x: onp.cumprod(x), lambda x: onp.logaddexp(x, x),
                                lambda x: onp.divide(x, 2), lambda x: onp.isnan(x)],
                         ids=["cumprod", "logaddexp", "divide", "isnan"])
def test_fallback_refused_while_recording(fn):
    # 1.9.1 means to raise ValueError here, but its message formatting is broken and it ends in
    # AttributeError; we raise the intended ValueError
    x = _a()
    x.attach_grad()
    with autograd.record():
        with pytest.raises(ValueError, match="autograd"):
            fn(x)
