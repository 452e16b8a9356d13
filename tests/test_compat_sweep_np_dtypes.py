"""Regression tests from the dtype sweep of ``mx.np`` / ``mx.npx`` (integer, bool, float16 and
float64 arrays, Python and NumPy scalars) against MXNet 1.9.1.

Every expected value below was recorded from MXNet 1.9.1 (CPU) running the same call; none of
these tests needs the reference installation.
"""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import np


# every test runs under NumPy semantics (the np_mode fixture of tests/conftest.py)
pytestmark = pytest.mark.usefixtures("np_mode")


def _check(res, values, dtype, shape=None):
    a = res.asnumpy()
    assert str(a.dtype) == dtype
    if shape is not None:
        assert a.shape == shape
    onp.testing.assert_allclose(a, onp.asarray(values, dtype=a.dtype), rtol=1e-4, atol=1e-4)


def _x8(dtype="int8"):
    return np.array([[100, 27, 3, 1], [120, 5, 9, 2], [-7, 3, 8, 2]], dtype="int8").astype(dtype)


# --- var / std / mean / average of small integer types wrap as 1.9.1's kernels do -------------

def test_int8_var_std_wrap_in_input_dtype():
    # recorded from 1.9.1: the mean, deviations and squares are int8 (wrapping); the squares
    # are summed in the result dtype and divided there
    x = _x8()
    _check(np.var(x, axis=0), [8, 33, 7, 0], "int8", (4,))
    _check(np.std(x, axis=0), [2, 5, 2, 0], "int8")
    _check(np.var(x, axis=0, ddof=1), [12, 50, 11, 1], "int8")
    _check(np.std(x, axis=0, ddof=1), [3, 7, 3, 1], "int8")
    _check(np.var(x), 0, "int8", ())
    _check(np.var(x, axis=0, dtype="float32"), [8.3333, 33.3333, 7.3333, 0.6667], "float32")
    _check(np.var(x, axis=0, ddof=1, dtype="float32"), [12.5, 50.0, 11.0, 1.0], "float32")
    _check(np.var(x, axis=1, dtype="int64"), [-19, -24, 29], "int64")
    _check(np.var(x, axis=1, ddof=1, dtype="int64"), [-26, -32, 39], "int64")
    s = np.std(x, axis=1, dtype="float64").asnumpy()
    assert s.dtype == onp.float64 and onp.isnan(s[:2]).all()
    onp.testing.assert_allclose(s[2], 5.4314, rtol=1e-4)


def test_uint8_var_std_wrap_in_input_dtype():
    x = _x8("uint8")
    _check(np.var(x, axis=0), [36, 33, 7, 0], "uint8")
    _check(np.std(x, axis=0), [6, 5, 2, 0], "uint8")
    _check(np.var(x, axis=0, ddof=1), [55, 50, 11, 1], "uint8")
    _check(np.var(x, axis=0, dtype="float32"), [122.0, 33.3333, 7.3333, 0.6667], "float32")
    _check(np.std(x, axis=1, dtype="float64"), [8.7607, 10.1735, 5.4314], "float64")
    _check(np.var(x, axis=1, ddof=1, dtype="int64"), [102, 138, 39], "int64")
    u = np.array([200, 100, 250], dtype="uint8")
    _check(np.var(u), 49, "uint8", ())
    _check(np.std(u), 7, "uint8", ())


def test_int32_var_and_mean_wrap_on_overflow():
    z = np.array([2000000000, 2000000000, 1], dtype="int32")
    _check(np.var(z), -301453311, "int32", ())
    _check(np.mean(z, dtype="int32"), -98322431, "int32", ())
    _check(np.mean(z), 1333333376.0, "float32", ())


def test_mean_with_integer_dtype_sums_in_that_dtype():
    for dt in ("int8", "uint8", "int32", "int64"):
        _check(np.mean(_x8(dt), axis=1, dtype="int8"), [-31, -30, 1], "int8")
    _check(np.mean(_x8(), axis=0, dtype="int8"), [-14, 11, 6, 1], "int8")
    x = np.array([[100, 27, 3], [120, 5, 9]], dtype="int8")
    _check(np.mean(x, axis=0, dtype="int8"), [-18, 16, 6], "int8")
    _check(np.mean(x, axis=0, dtype="int32"), [110, 16, 6], "int32")
    _check(np.mean(x, axis=0), [110.0, 16.0, 6.0], "float32")
    _check(np.mean(np.ones((200,), dtype="int8"), dtype="int8"), 1, "int8", ())


def test_average_of_small_integers_wraps():
    _check(np.average(_x8(), axis=0), [-14, 11, 6, 1], "int8")
    _check(np.average(_x8()), 1, "int8", ())
    _check(np.average(_x8("uint8"), axis=0), [71, 11, 6, 1], "uint8")
    _check(np.average(np.array([200, 100, 250], dtype="uint8")), 12, "uint8", ())


# --- clip with bounds outside an integer dtype's range ---------------------------------------

def test_clip_bounds_outside_integer_range():
    # ours raised OverflowError (NumPy 2 refuses to cast -1 to uint8)
    _check(np.clip(np.array([4, 1, 0, 9], dtype="uint8"), -1, 3), [3, 1, 0, 3], "uint8")
    _check(np.clip(np.array([0, 5, 200, 100], dtype="uint8"), -300, 150.5), [0, 5, 150, 100],
           "uint8")
    _check(np.clip(np.array([0, 5, 200, 100], dtype="int8"), -300, 150.5), [0, 5, -56, 100],
           "int8")
    _check(np.clip(np.array([0, 5, 100, 3], dtype="int32"), 10, 4), [10, 4, 4, 10], "int32")
    _check(np.clip(np.array([0, 5, 100, 3], dtype="uint8"), 2.7, 50.9), [2, 5, 50, 3], "uint8")


# --- bincount keeps the input's integer dtype -------------------------------------------------

def test_bincount_dtype_follows_input():
    x = np.array([0, 2, 2, 5], dtype="int32")
    _check(np.bincount(x), [1, 0, 2, 0, 0, 1], "int32", (6,))
    _check(np.bincount(x.astype("int8"), minlength=8), [1, 0, 2, 0, 0, 1, 0, 0], "int8")
    _check(np.bincount(np.array([], dtype="uint8"), minlength=3), [0, 0, 0], "uint8")
    _check(np.bincount(np.array([1] * 300, dtype="uint8")), [0, 44], "uint8")
    _check(np.bincount(x.astype("int64")), [1, 0, 2, 0, 0, 1], "int64")
    _check(np.bincount(x, weights=np.array([0.5, 1, 1, 2])), [0.5, 0, 2, 0, 0, 2], "float32")


# --- scalars converted to an integer dtype as 1.9.1's C cast of a double ------------------------

def test_out_of_range_scalars_with_integer_arrays():
    i8 = np.array([0, 1], dtype="int8")
    _check(i8 + (-2 ** 31 - 1), [0, 1], "int8")      # outside int32: low byte of -2**31
    _check(i8 + (2 ** 40 + 7), [0, 1], "int8")
    _check(i8 + 3e9, [0, 1], "int8")
    _check(i8 + 1e10, [0, 1], "int8")
    _check(i8 + 255.7, [-1, 0], "int8")               # in int32 range: wraps
    _check(i8 + float("inf"), [0, 1], "int8")
    _check(np.equal(i8, 1e19), [True, False], "bool")
    _check(np.array([4, 1, 0, 9], dtype="int8") > 1e10, [True, True, False, True], "bool")
    _check(np.array([0, 1], dtype="uint8") + (2 ** 32 + 5), [0, 1], "uint8")
    i32 = np.array([0, 1], dtype="int32")
    _check(i32 + 2 ** 40, [-2147483648, -2147483647], "int32")
    _check(i32 + (-2 ** 31 - 1), [-2147483648, -2147483647], "int32")
    _check(np.equal(i32, 2 ** 63), [False, False], "bool")
    i64 = np.array([0, 1], dtype="int64")
    _check(i64 + 2 ** 63, [-2 ** 63, -2 ** 63 + 1], "int64")
    _check(np.array([0, 1], dtype="bool") + 2 ** 63, [-2 ** 63, -2 ** 63 + 1], "int64")


def test_integer_to_negative_power_of_zero():
    # 0 ** -1 is inf in floating point; as int8 1.9.1 gives 0 (not -128)
    _check(np.power(np.array([4, 1, 0, 9], dtype="int8"), -1), [0, 1, 0, 0], "int8")
    _check(np.array([4, 1, 0, 9], dtype="int8") ** 1e10, [1, 1, 1, 1], "int8")


# --- np.linalg.norm's float16 log line -------------------------------------------------------

def test_float16_norm_logs_only_along_axes(monkeypatch, capfd):
    from mxnet.operator import _safe_acc
    monkeypatch.setattr(_safe_acc, "_warned", set())
    monkeypatch.delenv("MXNET_SAFE_ACCUMULATION", raising=False)
    z = np.array([[1, -2, 3], [4, 0, -4]], dtype="float16")
    capfd.readouterr()
    _check(np.linalg.norm(z), 6.78, "float16", ())     # recorded from 1.9.1: no log line
    assert capfd.readouterr().err == ""
    _check(np.linalg.norm(z, axis=1), [3.742, 5.656], "float16")
    _check(np.linalg.norm(z, ord=1, axis=1), [6.0, 8.0], "float16")
    err = capfd.readouterr().err
    # recorded from 1.9.1: once, naming the numpy linalg source
    assert err.count("\n") == 1 and err.endswith(
        "../src/operator/numpy/linalg/./../../tensor/../../common/utils.h:472: "
        "MXNET_SAFE_ACCUMULATION=1 is recommended for LpNorm with float16 inputs. See "
        "https://mxnet.apache.org/api/faq/env_var for more details.\n")


# --- percentile / quantile result dtype ---------------------------------------------------------

def test_percentile_of_float16_is_float32():
    z = np.array([[1, 5, 3], [4, 0, 127]], dtype="float16")
    _check(np.percentile(z, 50), 3.5, "float32", ())
    _check(np.quantile(z, 0.25, axis=1), [2.0, 2.0], "float32")
    _check(np.percentile(z.astype("float64"), 50), 3.5, "float64", ())
    _check(np.quantile(z.astype("int8"), 0.25, axis=1), [2.0, 2.0], "float32")


# --- negating a bool array ----------------------------------------------------------------------

def test_negating_bool_array_gives_int64():
    # ours raised (NumPy refuses '-' on bools); recorded from 1.9.1
    _check(-np.array([True, False, True, True], dtype="bool"), [-1, 0, -1, -1], "int64")


# --- an integer array with a float scalar: imperative keeps the dtype, graphs give float64 ------

class _ScalarOps(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return x + 1.5, x * 2.5, x - 1e10, x / 2, x ** 2, x > 1.5, -x


def test_float_scalar_with_integer_array_hybridized():
    x = np.array([[1, 2, 0], [3, 0, 1]], dtype="int32")
    net = _ScalarOps()
    net.initialize()
    imp = net(x)   # recorded from 1.9.1: the scalar is cast to the array's dtype
    _check(imp[0], [[2, 3, 1], [4, 1, 2]], "int32")
    _check(imp[1], [[2, 4, 0], [6, 0, 2]], "int32")
    _check(imp[5], [[False, True, False], [True, False, False]], "bool")
    _check(imp[6], [[-1, -2, 0], [-3, 0, -1]], "int32")
    net.hybridize()
    hyb = net(x)   # recorded from 1.9.1: the graph's scalar operators give float64
    _check(hyb[0], [[2.5, 3.5, 1.5], [4.5, 1.5, 2.5]], "float64")
    _check(hyb[1], [[2.5, 5.0, 0.0], [7.5, 0.0, 2.5]], "float64")
    _check(hyb[2], [[-1e10 + 1, -1e10 + 2, -1e10], [-1e10 + 3, -1e10, -1e10 + 1]], "float64")
    _check(hyb[3], [[0.5, 1.0, 0.0], [1.5, 0.0, 0.5]], "float32")
    _check(hyb[4], [[1, 4, 0], [9, 0, 1]], "int32")
    _check(hyb[5], [[False, True, False], [True, False, False]], "bool")
    _check(hyb[6], [[-1, -2, 0], [-3, 0, -1]], "float64")
    b = np.array([True, False], dtype="bool")
    _check(b * 2.5, [2, 0], "int64")   # imperative, recorded from 1.9.1


def test_symbol_infer_type_of_scalar_ops_on_integers():
    x = mx.sym.var("x").as_np_ndarray()
    # recorded from 1.9.1's infer_type
    for sym, want in [(x + 1.5, "float64"), (x * 2, "int32"), (x / 2, "float32"),
                      (1.5 - x, "float64"),
                      (x == 1.5, "bool"), (-x, "float64")]:
        assert onp.dtype(sym.infer_type(x="int32")[1][0]).name == want
    assert onp.dtype((x + 1.5).infer_type(x="bool")[1][0]).name == "float64"
    assert onp.dtype((x * 2).infer_type(x="bool")[1][0]).name == "int64"



def test_empty_mean_with_integer_dtype_is_zero():
    # recorded from 1.9.1 (ours gave -2**31, a NaN cast to int32)
    _check(np.zeros((0, 3), dtype="int8").mean(axis=0, dtype="int32"), [0, 0, 0], "int32")


# --- NumPy ufunc keywords -----------------------------------------------------------------------

def test_ufunc_keywords_at_default_values_are_accepted():
    a = np.array([1, 2, 3], dtype="int32")
    # recorded from 1.9.1: default values pass, others raise NotImplementedError
    _check(np.add(a, a, casting="same_kind", order="K", dtype=None, subok=True, where=True),
           [2, 4, 6], "int32")
    _check(np.sqrt(a, casting="same_kind"), [1, 1, 1], "int32")
    _check(np.maximum(a, a, order="K"), [1, 2, 3], "int32")
    with pytest.raises(NotImplementedError, match="casting=unsafe is not implemented yet"):
        np.add(a, a, casting="unsafe")
    with pytest.raises(NotImplementedError, match="order=C is not implemented yet for operator"):
        np.sqrt(a, order="C")
    with pytest.raises(TypeError, match="foo is an invalid keyword to function 'add'"):
        np.add(a, a, foo=1)
    with pytest.raises(TypeError):
        np.equal(a, a, casting="same_kind")   # comparisons take none


def test_legacy_scalar_ops_with_is_int_false():
    # recorded from 1.9.1: mx.np graphs write maximum/minimum with a scalar as the legacy
    # _maximum_scalar/_minimum_scalar with is_int from the scalar (False when reflected); with
    # is_int=False an integer or bool input computes in float64
    x = mx.nd.array([1, 2], dtype="int32")
    b = mx.nd.array([1, 0], dtype="bool")
    r = mx.nd._internal._maximum_scalar(x, scalar=1.5, is_int=False)
    assert r.dtype == onp.float64 and r.asnumpy().tolist() == [1.5, 2.0]
    r = mx.nd._internal._plus_scalar(b, scalar=1.5, is_int=False)
    assert r.dtype == onp.float64 and r.asnumpy().tolist() == [2.5, 1.5]
    r = mx.nd._internal._greater_scalar(x, scalar=1.5, is_int=False)
    assert r.dtype == onp.float64 and r.asnumpy().tolist() == [0.0, 1.0]
    # mx.nd's own operators keep the integer dtype (the scalar is cast)
    assert (x + 1.5).dtype == onp.int32 and mx.nd.maximum(x, 1.5).dtype == onp.int32
    assert (x * 2.5).asnumpy().tolist() == [2, 4]
    s = mx.sym.var("x").as_np_ndarray()
    assert onp.dtype(mx.sym.np.maximum(s, 1.5).infer_type(x="int32")[1][0]).name == "float64"
    assert onp.dtype(mx.sym.np.maximum(s, 2).infer_type(x="int32")[1][0]).name == "int32"
    assert onp.dtype(mx.sym.np.minimum(2, s).infer_type(x="int32")[1][0]).name == "float64"
    assert '"is_int": "True"' in mx.sym.np.maximum(s, 2).tojson()


class _MaxBlock(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.np.maximum(x, 1.5), F.np.minimum(x, 2)


def test_hybridized_maximum_with_float_scalar_on_integers():
    net = _MaxBlock()
    net.initialize()
    x = np.array([[1, 2, 0], [3, 0, 1]], dtype="int32")
    _check(net(x)[0], [[1, 2, 1], [3, 1, 1]], "int32")   # imperative: 1.5 cast to 1
    net.hybridize()
    out = net(x)   # recorded from 1.9.1
    _check(out[0], [[1.5, 2.0, 1.5], [3.0, 1.5, 1.5]], "float64")
    _check(out[1], [[1, 2, 0], [2, 0, 1]], "int32")


def test_lcm_of_bool_arrays():
    b = np.array([True, False, True, False], dtype="bool")
    _check(np.lcm(b, b), [True, False, True, False], "bool")   # recorded from 1.9.1


def test_var_std_with_wider_float_dtype_square_in_input_dtype():
    # recorded from 1.9.1: the deviations are squared in the input dtype, then summed in dt
    x = np.array([[1, 0, 3], [4, 5, 0]], dtype="float16")
    onp.testing.assert_allclose(x.var(dtype="float64").item(), 3.8053385416666665, rtol=1e-12)
    onp.testing.assert_allclose(x.std(dtype="float64").item(), 1.950727695416935, rtol=1e-12)
    _check(x.var(axis=0, dtype="float64"), [2.25, 6.25, 2.25], "float64")
    y = x.astype("float32")
    onp.testing.assert_allclose(y.var(dtype="float64").item(), 3.805555582046509, rtol=1e-12)


def test_float16_einsum_accumulates_in_float32():
    # recorded from 1.9.1 (float16 accumulation would give [97.125, 100.875, 102.75, 109.1875])
    m = onp.random.RandomState(0).uniform(-1, 1, (300, 4)).astype("float16")
    got = np.einsum("ij,ij->j", np.array(m, dtype="float16"), np.array(m, dtype="float16"))
    _check(got, [97.25, 101.25, 102.9375, 109.3125], "float16", (4,))
    r = np.einsum("i,i->", np.array([0.1] * 3000, dtype="float16"),
                  np.ones((3000,), dtype="float16"))
    _check(r, 300.0, "float16", ())
