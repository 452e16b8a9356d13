"""Regression tests from the differential sweep of ``mx.np`` / ``mx.npx`` against MXNet 1.9.1.

Every expected value below was recorded from MXNet 1.9.1 (CPU) running the same call; none of
these tests needs the reference installation.
"""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np, npx
from mxnet.base import MXNetError


# every test runs under NumPy semantics (the np_mode fixture of tests/conftest.py)
pytestmark = pytest.mark.usefixtures("np_mode")


def _check(res, values, dtype, shape=None):
    a = res.asnumpy()
    assert str(a.dtype) == dtype
    if shape is not None:
        assert a.shape == shape
    onp.testing.assert_allclose(a, onp.asarray(values, dtype=a.dtype), rtol=1e-6, atol=1e-6)


def _xi():
    return np.array([[2, 3, 2], [3, 1, 4]], dtype="int32")


def _xf():
    return np.array([[1.5, -2.0, 0.25], [3.0, -0.5, 2.0]], dtype="float32")


def _xu():
    return np.array([250, 3, 0], dtype="uint8")


# --- a Python scalar on the left of a commutative function --------------------------------

def test_scalar_first_add_multiply():
    # np.add(2, x) / np.multiply(2, x) failed with "Cannot find operator _npi_radd_scalar"
    _check(np.add(2, _xi()), [[4, 5, 4], [5, 3, 6]], "int32", (2, 3))
    _check(np.multiply(2.5, _xf()), [[3.75, -5.0, 0.625], [7.5, -1.25, 5.0]], "float32")
    _check(np.multiply(-1, _xu()), [6, 253, 0], "uint8")
    x = np.array([[0.5, 1.0], [2.0, 3.0]])
    x.attach_grad()
    with autograd.record():
        z = (np.add(2, x) * np.multiply(3, x)).sum()
    z.backward()
    _check(x.grad, [[9.0, 12.0], [18.0, 24.0]], "float32")


# --- scalars are cast to the array's dtype (C-style) -----------------------------------------

def test_comparison_casts_scalar_to_array_dtype():
    xi, xu = _xi(), _xu()
    _check(xi == 2.5, [[True, False, True], [False, False, False]], "bool")
    _check(np.not_equal(xi, 2.5), [[False, True, False], [True, True, True]], "bool")
    _check(2.5 > xi, [[False, False, False], [False, True, False]], "bool")
    _check(xu > -1, [False, False, False], "bool")            # -1 becomes 255
    _check(np.less_equal(-1, xu), [False, False, False], "bool")
    _check(np.array([0.1, 1 / 3], dtype="float16") == 0.1, [True, False], "bool")


def test_unsigned_arithmetic_with_negative_scalar_wraps():
    xu = _xu()
    _check(xu + -1, [249, 2, 255], "uint8")
    _check(xu - (-1), [251, 4, 1], "uint8")
    _check(-1 - xu, [5, 252, 255], "uint8")
    _check(np.maximum(xu, -1), [255, 255, 255], "uint8")


def test_integer_to_negative_power_truncates():
    _check(_xi() ** -1, [[0, 0, 0], [0, 1, 0]], "int32")
    _check(np.power(np.array([-2, 1, 2, 0], dtype="int64"), -2),
           [0, 1, 0, -9223372036854775808], "int64")
    xi = np.array([[2, 3, 2], [-1, -3, 0]], dtype="int32")
    _check(2 ** xi, [[4, 8, 4], [0, 0, 1]], "int32")
    _check(np.power(2, xi), [[4, 8, 4], [0, 0, 1]], "int32")
    _check((-2) ** xi, [[4, -8, 4], [0, 0, 1]], "int32")
    _check(np.power(xi, np.array([1, -1, 2], dtype="int32")), [[2, 0, 4], [-1, 0, 0]], "int32")
    _check(xi ** -1, [[0, 0, 0], [-1, 0, -2147483648]], "int32")
    _check(np.power(np.array([2, 4], dtype="int64"), np.array([-1, -2], dtype="int64")), [0, 0],
           "int64")


# --- reductions --------------------------------------------------------------------------------

def _xv():
    return np.array([[2, -3, 4, 1], [7, 1, 0, -2], [-1, -4, 5, 3]], dtype="int32")


def test_integer_var_std():
    xv = _xv()
    _check(np.var(xv), 10, "int32", ())
    _check(np.var(xv, axis=1), [6, 11, 12], "int32")
    _check(np.std(xv, axis=0), [3, 2, 2, 2], "int32")
    _check(np.var(xv, ddof=1), 11, "int32", ())
    _check(np.std(xv.astype("int8"), axis=1, keepdims=True), [[2], [3], [3]], "int8", (3, 1))


def test_integer_average_truncates():
    xv = _xv()
    _check(np.average(xv), 1, "int32", ())
    _check(np.average(xv, axis=0), [2, -2, 3, 0], "int32")
    _check(np.average(xv.astype("int8"), axis=1), [1, 1, 0], "int8")
    _check(np.average(xv, axis=1, weights=np.array([1, 1, 1, 2], dtype="int32")),
           [1, 0, 1], "int32")


def test_argmax_over_nonempty_axis_of_empty_array():
    _check(np.argmax(np.zeros((0, 3)), axis=1), onp.zeros((0,)), "int64", (0,))
    _check(np.argmin(np.zeros((2, 0, 3)), axis=2), onp.zeros((2, 0)), "int64", (2, 0))
    with pytest.raises(MXNetError):
        np.argmax(np.zeros((0, 3)), axis=0)


# --- elementwise -------------------------------------------------------------------------------

def test_fabs_keeps_integer_dtype():
    _check(np.fabs(np.array([-3, 2], dtype="int32")), [3, 2], "int32")
    _check(np.fabs(np.array([-3, 2], dtype="int8")), [3, 2], "int8")


def test_clip_with_min_above_max():
    _check(np.clip(np.array([0.0, 1.5, 3.0]), 2, 1), [2.0, 1.0, 1.0], "float32")


def test_mod_by_zero_gives_zero():
    _check(np.array([1.5, -1.5]) % 0, [0.0, 0.0], "float32")
    _check(np.mod(np.array([1.5, -1.5, 2.0]), np.array([0.0, 0.0, 1.5])), [0.0, 0.0, 0.5],
           "float32")
    _check(2.5 % np.array([0.0, 2.0]), [0.0, 0.5], "float32")


def test_python_scalar_inputs_follow_numpy():
    assert np.isposinf(2.5) == False and np.isneginf(2.5) == False  # noqa: E712
    assert np.fabs(2.5) == 2.5 and np.fabs(-2) == 2
    assert np.nan_to_num(2.5) == 2.5
    assert np.around(2.5) == 2.0 and np.round(2.5) == 2.0
    assert np.invert(2) == -3 and np.bitwise_not(5) == -6
    r = np.ravel(2.5)
    assert isinstance(r, onp.ndarray) and r.tolist() == [2.5]
    assert np.ndim(3) == 0 and np.ndim([[1, 2]]) == 2


# --- creation and shape functions -------------------------------------------------------------

def test_full_with_array_value_broadcasts():
    _check(np.full((2, 3), np.array([1.0, 2.0, 3.0])), [[1, 2, 3], [1, 2, 3]], "float32")
    _check(np.full((2, 2), np.array([1.5, 2.5]), dtype="int32"), [[1, 2], [1, 2]], "int32")


def test_moveaxis_with_sequences():
    y = np.arange(24).reshape(2, 3, 4)
    assert np.moveaxis(y, (0, 1), (2, 0)).shape == (3, 4, 2)
    assert np.moveaxis(y, [0, 2], [-1, 0]).shape == (4, 3, 2)
    _check(np.moveaxis(y, (0, 1), (2, 0))[1], [[4, 16], [5, 17], [6, 18], [7, 19]], "float32")


def test_hstack_of_zero_dim_arrays():
    _check(np.hstack([np.array(1.5), np.array(2.5)]), [1.5, 2.5], "float32", (2,))


def test_sort_argsort_accept_kind():
    _check(np.sort(_xi(), kind="stable"), [[2, 2, 3], [1, 3, 4]], "int32")
    _check(np.argsort(_xf(), kind="stable"), [[1, 2, 0], [1, 2, 0]], "int64")


def test_nonzero_of_zero_dim_array():
    (i,) = np.nonzero(np.array(3.0))
    _check(i, [0], "int64", (1,))
    (j,) = np.nonzero(np.array(0.0))
    _check(j, onp.zeros((0,)), "int64", (0,))


# --- arctan2 / hypot / copysign / ldexp keep integer dtypes ------------------------------------

def test_float_binary_functions_with_integer_arrays():
    xi = _xi()
    xb = np.array([[False, True, False], [True, True, False]], dtype="bool")
    _check(np.arctan2(xi, 2.5), [[0, 0, 0], [0, 0, 1]], "int32")
    _check(np.arctan2(2, xi), [[0, 0, 0], [0, 1, 0]], "int32")
    _check(np.hypot(xi, 2), [[2, 3, 2], [3, 2, 4]], "int32")
    _check(np.hypot(xb, 2), [[2, 2, 2], [2, 2, 2]], "int64")
    _check(np.copysign(xi, -1), [[-2, -3, -2], [-3, -1, -4]], "int32")
    _check(np.ldexp(xi, 2), [[8, 12, 8], [12, 4, 16]], "int32")
    _check(np.ldexp(2, xi), [[8, 16, 8], [16, 4, 32]], "int32")
    _check(np.ldexp(xb, -1), [[0, 0, 0], [0, 0, 0]], "int64")
    _check(np.arctan2(xb, -1), [[3, 2, 3], [2, 2, 3]], "int64")
    yi = np.array([[1, -2, 3], [0, 2, -1]], dtype="int32")
    _check(np.copysign(xi, yi), [[2, -3, 2], [3, 1, -4]], "int32")
    _check(np.ldexp(xi, yi), [[4, 0, 16], [3, 4, 2]], "int32")
    _check(np.ldexp(xi.astype("int64"), yi.astype("int64")), [[4, 0, 16], [3, 4, 2]], "int64")


# --- statistics, histogram and average return types -------------------------------------------

def test_percentile_of_integers_is_float32():
    a = np.array([1, 2, 3, 4], dtype="int32")
    _check(np.percentile(a, 50), 2.5, "float32", ())
    _check(np.quantile(a.astype("uint8"), 0.3, axis=0), 1.9, "float32", ())
    _check(np.percentile(a.astype("int64"), 20), 1.6, "float32", ())


def test_histogram_and_average_return_lists():
    h = np.histogram(np.array([1.0, 2, 3]), bins=2, range=(0, 3))
    assert isinstance(h, list) and len(h) == 2
    _check(h[0], [1, 2], "int64")
    _check(h[1], [0.0, 1.5, 3.0], "float32")
    r = np.average(np.array([[1.0, 2], [3, 4]]), axis=0, returned=True)
    assert isinstance(r, list)
    _check(r[0], [2.0, 3.0], "float32")
    _check(r[1], 2.0, "float32", ())


# --- ndarray methods -----------------------------------------------------------------------------

def test_ndarray_take_method():
    xf = np.array([[1.5, -2.0, 0.25], [3.0, -0.5, 2.7]], dtype="float32")
    _check(xf.take(np.array([0, 4])), [1.5, -0.5], "float32")
    _check(xf.take(np.array([2, 0]), axis=1), [[0.25, 1.5], [2.7, 3.0]], "float32")
    _check(xf.take(np.array([1, 9]), axis=1, mode="clip"), [[-2.0, 0.25], [-0.5, 2.7]],
           "float32")


def test_python_rounding_builtins_give_arrays():
    import math
    xf = np.array([[1.5, -2.0, 0.25], [3.0, -0.5, 2.7]], dtype="float32")
    _check(round(xf), [[2.0, -2.0, 0.0], [3.0, 0.0, 3.0]], "float32")
    _check(math.floor(xf), [[1.0, -2.0, 0.0], [3.0, -1.0, 2.0]], "float32")
    _check(math.ceil(xf), [[2.0, -2.0, 1.0], [3.0, -0.0, 3.0]], "float32")
    _check(math.trunc(xf), [[1.0, -2.0, 0.0], [3.0, -0.0, 2.0]], "float32")
    _check(round(np.array(2.5)), 2.0, "float32", ())
    _check(round(_xi()), [[2, 3, 2], [3, 1, 4]], "int32")


def test_zero_dim_reduction_accepts_axis_0_or_minus_1():
    z = np.array(2.5)
    _check(np.sum(z, axis=0), 2.5, "float32", ())
    _check(np.mean(z, axis=-1), 2.5, "float32", ())
    _check(np.max(z, axis=-1), 2.5, "float32", ())
    _check(np.var(z, axis=0), 0.0, "float32", ())
    _check(np.any(z, axis=0), True, "bool", ())
    _check(np.sum(z, axis=0, keepdims=True), 2.5, "float32", ())
    _check(np.argmax(z, axis=-1), 0, "int64", ())
    _check(np.argmin(z, axis=0), 0, "int64", ())
    with pytest.raises(MXNetError):
        np.sum(z, axis=1)


# --- gradients where 1.9.1 itself is wrong: checked against closed forms ------------------------

def _grad(f, x):
    x = np.array(x)
    x.attach_grad()
    with autograd.record():
        y = f(x)
    y.backward()
    return x.grad.asnumpy()


def test_var_std_gradients_closed_form():
    # 1.9.1 returns zero gradients for np.var / np.std (a 1.9.1 bug, not reproduced)
    v = onp.array([[0.2, 0.5, 0.9], [0.3, 0.1, 0.7]], dtype="float32")
    g = _grad(lambda x: np.var(x), v)
    onp.testing.assert_allclose(g, 2 * (v - v.mean()) / v.size, rtol=1e-5, atol=1e-6)
    g = _grad(lambda x: np.std(x, axis=1, ddof=1).sum(), v)
    m = v.mean(axis=1, keepdims=True)
    s = v.std(axis=1, ddof=1, keepdims=True)
    onp.testing.assert_allclose(g, (v - m) / ((v.shape[1] - 1) * s), rtol=1e-4, atol=1e-6)


def test_gradients_where_reference_is_wrong():
    v = onp.array([[0.2, 0.7], [0.9, 0.1]], dtype="float32")
    w = onp.array([[1.0, 2.0], [3.0, 4.0]], dtype="float32")
    # d/dx atan2(1.5, x) = -1.5 / (x**2 + 2.25)
    g = _grad(lambda x: np.arctan2(1.5, x).sum(), v)
    onp.testing.assert_allclose(g, -1.5 / (v ** 2 + 2.25), rtol=1e-5)
    # where with a scalar branch: the gradient flows only where the condition holds
    g = _grad(lambda x: (np.where(x > 0.5, x, 0.0) * np.array(w)).sum(), v)
    onp.testing.assert_allclose(g, onp.where(v > 0.5, w, 0.0))
    # rot90: the gradient is the weight rotated back
    g = _grad(lambda x: (np.rot90(x) * np.array(w)).sum(), v)
    onp.testing.assert_allclose(g, onp.rot90(w, -1))


# --- views: what 1.9.1 shares and what it copies ------------------------------------------------

def _after(f, shape=(2, 3)):
    x = np.arange(6).reshape(shape) if len(shape) > 1 else np.arange(shape[0])
    f(x)
    return x.asnumpy().ravel().tolist()


def _fill(y):
    y[...] = -1


def _iadd(y):
    y += 10


def test_contiguous_basic_keys_are_views():
    # recorded from 1.9.1: writing into these results writes into x
    assert _after(lambda x: _iadd(x[1:3]), (4,)) == [0, 11, 12, 3]
    assert _after(lambda x: _iadd(x[1]), (4,)) == [0, 11, 2, 3]
    assert _after(lambda x: _fill(x[1, 1:3])) == [0, 1, 2, 3, -1, -1]
    assert _after(lambda x: _fill(x[...])) == [-1] * 6
    assert _after(lambda x: _fill(x[None])) == [-1] * 6
    assert _after(lambda x: _fill(x[None, 0])) == [-1, -1, -1, 3, 4, 5]
    assert _after(lambda x: _fill(x[0:1, 1])) == [0, -1, 2, 3, 4, 5]
    assert _after(lambda x: _fill(x[1, ...])) == [0, 1, 2, -1, -1, -1]
    assert _after(lambda x: _fill(x[0:2, 0:3])) == [-1] * 6


def test_non_contiguous_keys_and_operators_copy():
    # recorded from 1.9.1: x is left unchanged by each of these
    same = [0, 1, 2, 3, 4, 5]
    assert _after(lambda x: _fill(x[:, 1])) == same
    assert _after(lambda x: _fill(x[0:2, 1:2])) == same
    assert _after(lambda x: _fill(x[::-1])) == same
    assert _after(lambda x: _iadd(x[::2]), (4,)) == [0, 1, 2, 3]
    assert _after(lambda x: _iadd(x.reshape(6))) == same
    assert _after(lambda x: _fill(np.reshape(x, (3, 2)))) == same
    assert _after(lambda x: _fill(x.T)) == same
    assert _after(lambda x: _fill(np.ravel(x))) == same
    assert _after(lambda x: _fill(np.expand_dims(x, 0))) == same
    assert _after(lambda x: _fill(np.squeeze(x[0:1]))) == [0, 1, 2, 3, 4, 5]
    assert _after(lambda x: _fill(np.swapaxes(x, 0, 1))) == same
    assert _after(lambda x: _fill(x.flatten())) == same
    assert _after(lambda x: _fill(np.atleast_2d(x))) == same
    assert _after(lambda x: _fill(np.atleast_1d(x))) == same
    assert _after(lambda x: _fill(np.atleast_3d(x))) == same
    x = np.arange(6).reshape(2, 3)
    assert not np.shares_memory(x, x.reshape(6))
    assert np.shares_memory(x, x[1:])


def test_npx_topk_axis_none_flattens():
    x = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    _check(npx.topk(x, axis=None, k=2), [5.0, 1.0], "float32", (2,))
    _check(npx.topk(x, axis=None, k=2, ret_typ="value"), [6.0, 5.0], "float32", (2,))
    _check(npx.topk(x, axis=None, k=2, ret_typ="mask"), [[0, 1, 0], [0, 0, 1]], "float32")
    _check(npx.topk(x, axis=None, k=1, is_ascend=True), [0.0], "float32", (1,))


def test_unique_passes_a_zero_gradient():
    x = np.array([[0.3, 0.1], [0.3, 0.2]])
    x.attach_grad()
    with autograd.record():
        y = np.unique(x)
        z = (y * np.arange(y.size).astype("float32")).sum()
    z.backward()
    _check(y, [0.1, 0.2, 0.3], "float32")
    _check(x.grad, [[0, 0], [0, 0]], "float32")


def test_nuclear_norm_gradient():
    # values recorded from 1.9.1 (the gradient is U @ V^T of the SVD)
    w = [[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]]
    x = np.array(w)
    x.attach_grad()
    with autograd.record():
        y = np.linalg.norm(x, "nuc")
    y.backward()
    _check(y, 6.441813, "float32", ())
    _check(x.grad, [[-0.01140832, 0.61346084, 0.78964263], [0.62477684, 0.6209432, -0.47337452]],
           "float32")
    x3 = np.array([[[1.0, 2.0], [3.0, 4.0]], [[0.5, 1.0], [2.0, -1.0]]])
    x3.attach_grad()
    with autograd.record():
        z = (np.linalg.norm(x3, "nuc", axis=(1, 2)) * np.array([1.0, 2.0])).sum()
    z.backward()
    _check(x3.grad, [[[-0.51449573, 0.8574929], [0.8574929, 0.51449573]],
                     [[0.89442706, 1.7888544], [1.7888544, -0.8944272]]], "float32")
    # a tall matrix: the same gradient, transposed
    t = np.array(onp.array(w, dtype="float32").T)
    t.attach_grad()
    with autograd.record():
        y = np.linalg.norm(t, "nuc")
    y.backward()
    onp.testing.assert_allclose(t.grad.asnumpy(), x.grad.asnumpy().T, rtol=1e-5, atol=1e-6)


def test_eye_accepts_device():
    y = np.eye(2, k=1, device=mx.cpu(1))
    assert str(y.ctx) == "cpu(1)"
    _check(y, [[0, 1], [0, 0]], "float32")


# --- einsum gradients with '...' and repeated indices ----------------------------------------------

def _einsum_grads(sub, *ops):
    xs = [np.array(o) for o in ops]
    for x in xs:
        x.attach_grad()
    with autograd.record():
        y = np.einsum(sub, *xs)
        z = (y * (np.arange(y.size).reshape(y.shape) + 1)).sum()
    z.backward()
    return [x.grad.asnumpy() for x in xs]


def test_einsum_gradients_ellipsis_and_repeated_indices():
    a = onp.arange(12, dtype="float32").reshape(2, 2, 3) / 10
    b = onp.arange(12, dtype="float32").reshape(2, 3, 2) / 7
    # recorded from 1.9.1 (rounded to 4 places there)
    ga, gb = _einsum_grads("...ij,...jk->...ik", a, b)
    onp.testing.assert_allclose(ga, [[[0.2857, 1.1429, 2.0], [0.5714, 2.5714, 4.5714]],
                                     [[10.2857, 13.4286, 16.5714], [14.0, 18.2857, 22.5714]]],
                                rtol=1e-4, atol=1e-4)
    onp.testing.assert_allclose(gb, [[[0.9, 1.2], [1.3, 1.8], [1.7, 2.4]],
                                     [[9.3, 10.8], [10.5, 12.2], [11.7, 13.6]]], rtol=1e-4)
    ga2, gb2 = _einsum_grads("...ij,...jk", a, b)
    onp.testing.assert_allclose(ga2, ga, rtol=1e-6)
    gx, gy = _einsum_grads("ij...,jk->ik...", a.transpose(1, 2, 0), b[0])
    onp.testing.assert_allclose(gy, [[8.1, 11.7], [9.5, 13.9], [10.9, 16.1]], rtol=1e-4)
    onp.testing.assert_allclose(gx[:, :, 0], [[0.4286, 1.5714, 2.7143], [1.0, 4.4286, 7.8571]],
                                rtol=1e-4, atol=1e-4)
    (g,) = _einsum_grads("ii", a[0, :, :2])
    onp.testing.assert_allclose(g, [[1.0, 0.0], [0.0, 1.0]])
    (g,) = _einsum_grads("iij->j", onp.ones((2, 2, 3), dtype="float32"))
    onp.testing.assert_allclose(g, [[[1, 2, 3], [0, 0, 0]], [[0, 0, 0], [1, 2, 3]]])
    (g,) = _einsum_grads("bii->b", onp.arange(18, dtype="float32").reshape(2, 3, 3))
    onp.testing.assert_allclose(g, [onp.eye(3), 2 * onp.eye(3)])


def test_einsum_gradient_broadcast_ellipsis_closed_form():
    # a batch of size 1 broadcast against 4: the gradient sums over the batch (1.9.1 gets
    # this one wrong, so the expected value is the closed form)
    a = onp.arange(6, dtype="float32").reshape(1, 2, 3) / 10
    b = onp.arange(24, dtype="float32").reshape(4, 3, 2) / 7
    ga, gb = _einsum_grads("...ij,...jk->...ik", a, b)
    w = (onp.arange(16, dtype="float32") + 1).reshape(4, 2, 2)
    onp.testing.assert_allclose(ga, (w @ b.transpose(0, 2, 1)).sum(0, keepdims=True), rtol=1e-5)
    onp.testing.assert_allclose(gb, onp.broadcast_to(a, (4, 2, 3)).transpose(0, 2, 1) @ w,
                                rtol=1e-5)


def test_non_finite_scalar_with_integer_array():
    # recorded from 1.9.1: a non-finite or out-of-range float becomes the type's most negative
    # value when cast to a signed integer type
    a = np.array([1, -2147483648, 0], dtype="int32")
    _check(a == np.nan, [False, True, False], "bool")
    _check(a < np.inf, [False, False, False], "bool")
    _check(a > -np.inf, [True, False, True], "bool")
    _check(a + np.inf, [-2147483647, 0, -2147483648], "int32")
    _check(a * np.nan, [-2147483648, 0, 0], "int32")
    _check(a == 1e12, [False, True, False], "bool")
    _check(np.array([1, 2], dtype="uint8") == 256, [False, False], "bool")


def test_reduction_without_dtype_argument_raises_mxnet_error():
    # 1.9.1 raises MXNetError ("Cannot find argument 'dtype'"); ours is also a TypeError
    with pytest.raises(MXNetError):
        np.max(_xi(), dtype="float64")
    with pytest.raises(TypeError):
        np.min(_xi(), dtype="float64")
    with pytest.raises(MXNetError):
        np.sum(_xi(), ddof=1)
