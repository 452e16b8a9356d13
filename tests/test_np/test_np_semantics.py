"""mx.np.ndarray semantics: the class, zero-dim arrays, indexing and assignment, views,
conversions, repr, pickling, save/load, random, the mode switches, and errors."""
import pickle

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np, npx
from mxnet.base import MXNetError


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def test_class_is_an_ndarray_subclass():
    a = np.array([1, 2, 3])
    assert isinstance(a, mx.nd.NDArray) and type(a) is np.ndarray
    assert a.dtype == onp.float32 and isinstance(a.dtype, onp.dtype)
    assert (a.shape, a.size, a.ndim) == ((3,), 3, 1)
    assert a.ctx == mx.context.current_context() and a.context == a.ctx


def test_zero_dim_results():
    a = np.array([[1., 2.], [3., 4.]])
    s = a.sum()
    assert s.shape == () and s.ndim == 0 and s.item() == 10.0 and float(s) == 10.0
    assert a[1, 0].shape == () and a[1, 0].item() == 3.0
    assert np.mean(a).shape == () and a.max().shape == ()
    assert (s + 1).shape == () and (s * a).shape == (2, 2)
    with pytest.raises(TypeError):
        len(s)


def test_views_share_memory_like_reference():
    # a first-axis integer index is a view; a column slice is a copy (as in 1.9.1)
    x = np.arange(6).reshape(2, 3)
    y = x[0]
    y[0] = 100
    assert x[0, 0].item() == 100
    z = x[:, 1]
    z[0] = -5
    assert x[0, 1].item() == 1
    # reshape runs an operator in 1.9.1 and gives a new array: writing into it leaves x alone
    # (1.9.1 prints 0.0 here)
    r = x.reshape(3, 2)
    r[0, 0] = 7
    assert x[0, 0].item() == 100


def test_setitem_forms():
    x = np.zeros((2, 3))
    x[0] = 1
    x[:, 2] = np.array([5., 6.])
    x[x > 5] = -1
    x[1, np.array([0, 1], dtype="int64")] = 2.5
    onp.testing.assert_array_equal(x.asnumpy(), [[1, 1, 5], [2.5, 2.5, -1]])
    i = np.arange(5, dtype="int32")
    i[1] = 2.7   # cast to the array's dtype
    assert i.tolist() == [0, 2, 2, 3, 4]


def test_conversions_share_memory():
    x = np.array([1., 2.])
    legacy = x.as_nd_ndarray()
    assert type(legacy) is mx.nd.NDArray
    legacy[0] = 9
    assert x[0].item() == 9.0
    back = mx.nd.ones((2,)).as_np_ndarray()
    assert type(back) is np.ndarray and back.tolist() == [1.0, 1.0]
    assert x.as_np_ndarray() is x
    assert x.tolist() == [9.0, 2.0] and isinstance(x.tolist()[0], float)
    assert onp.asarray(x).tolist() == [9.0, 2.0]


def test_repr_and_str():
    cpu = mx.cpu()
    assert repr(np.array([1., 2.], ctx=cpu)) == "array([1., 2.])"
    assert repr(np.array([1, 2], dtype="int64", ctx=cpu)) == "array([1, 2], dtype=int64)"
    assert repr(np.array(3.5, ctx=cpu)) == "array(3.5)"
    assert repr(np.zeros((0, 3), ctx=cpu)) == "array([], shape=(0, 3))"
    assert repr(np.ones(2, ctx=mx.cpu(1))) == "array([1., 1.])"
    assert repr(np.ones(2, ctx=mx.cpu_pinned(0))) == "array([1., 1.], ctx=cpu_pinned(0))"
    assert str(np.array([1., 2.])) == "[1. 2.]"


def test_astype_copy_and_transpose():
    a = np.arange(6).reshape(2, 3)
    assert a.astype("int32").dtype == onp.int32
    assert a.astype("float32", copy=False) is a
    c = a.copy()
    c[0, 0] = 50
    assert a[0, 0].item() == 0
    assert a.T.shape == (3, 2) and a.transpose(1, 0).shape == (3, 2)
    assert a.transpose((1, 0)).shape == (3, 2)


def test_pickle_roundtrip():
    a = np.array([[1., 2.], [3., 4.]])
    b = pickle.loads(pickle.dumps(a))
    assert type(b) is np.ndarray and b.tolist() == a.tolist()


# written by 1.9.1's npx.save({'x': np.array([1., 2.]), 's': np.array(3.)}) (V3 records)
_REFERENCE_NPX_FILE = (
    "120100000000000000000000000000000200000000000000cafa93f90000000001000000020000000000"
    "00000100000000000000000000000000803f00000040cafa93f900000000000000000100000000000000"
    "00000000000040400200000000000000010000000000000078010000000000000073")


def test_npx_save_matches_reference_bytes(tmp_path):
    f = str(tmp_path / "a.npx")
    npx.save(f, {"x": np.array([1., 2.]), "s": np.array(3.)})
    with open(f, "rb") as fh:
        assert fh.read().hex() == _REFERENCE_NPX_FILE
    got = npx.load(f)
    assert got["s"].shape == () and got["s"].item() == 3.0
    assert type(got["x"]) is np.ndarray and got["x"].tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match="npx.save"):
        npx.save(f, [mx.nd.ones(2)])


def test_nd_save_rejects_np_arrays(tmp_path):
    with pytest.raises(TypeError, match="mxnet.numpy.ndarray"):
        mx.nd.save(str(tmp_path / "b"), [np.ones(2)])


def test_random_seeded_shapes_dtypes():
    npx.random.seed(7)
    a = np.random.uniform(0, 1, (3, 4))
    mx.random.seed(7)
    b = np.random.uniform(0, 1, (3, 4))
    assert a.tolist() == b.tolist() and a.dtype == onp.float32
    assert 0 <= a.min().item() and a.max().item() < 1
    assert np.random.uniform().shape == ()
    n = np.random.normal(2.0, 0.5, size=(1000,))
    assert abs(n.mean().item() - 2.0) < 0.1 and abs(n.std().item() - 0.5) < 0.1
    r = np.random.randint(0, 5, size=(50,))
    assert r.dtype == onp.int64 and 0 <= r.min().item() and r.max().item() < 5
    c = np.random.choice(5, 3, replace=False)
    assert len(set(c.tolist())) == 3
    w = np.random.choice(np.array([10., 20., 30.]), size=(4,), p=[0., 1., 0.])
    assert w.tolist() == [20.0] * 4
    x = np.arange(10)
    np.random.shuffle(x)
    assert sorted(x.tolist()) == list(range(10))


def test_mode_switches():
    assert npx.is_np_array() and npx.is_np_shape() and mx.util.is_np_array()
    npx.reset_np()
    assert not npx.is_np_array() and not npx.is_np_shape()

    @npx.use_np
    def inside():
        return npx.is_np_array()
    assert inside() and not npx.is_np_array()
    with pytest.raises(ValueError):
        npx.set_np(shape=False, array=True)
    with pytest.raises(TypeError):   # 1.9.1 has no float64-default mode
        npx.set_np(dtype=True)
    npx.set_np()


def test_autograd_through_indexing_and_methods():
    x = np.array([[1., 2.], [3., 4.]])
    x.attach_grad()
    with autograd.record():
        y = (x[x > 1.5] ** 2).sum() + x.mean()
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), [[0.25, 4.25], [6.25, 8.25]])
    assert type(x.grad) is np.ndarray


def test_var_method_and_engine_variable():
    # x.var() is NumPy's variance; the engine variable is engine_var, on both array types
    x = np.array([1., 2., 4.])
    assert abs(x.var().item() - onp.var([1., 2., 4.])) < 1e-6
    assert abs(x.var(ddof=1).item() - onp.var([1., 2., 4.], ddof=1)) < 1e-6
    assert x.engine_var is x.engine_var
    assert x.as_nd_ndarray().engine_var is x.engine_var
    assert not hasattr(mx.nd.ones(2), "var")   # 1.9.1's NDArray has no var either


def test_inplace_operators():
    x = np.ones((2, 2))
    x += 1
    x *= np.array([1., 2.])
    x -= 0.5
    x /= 2
    onp.testing.assert_allclose(x.asnumpy(), [[0.75, 1.75], [0.75, 1.75]])
    with pytest.raises(MXNetError, match="broadcast"):
        x += np.ones((3, 2, 2))


def test_errors_name_function_and_shapes():
    with pytest.raises(MXNetError, match=r"_npi_add.*\(2, 3\).*\(4,\)"):
        np.ones((2, 3)) + np.ones(4)
    with pytest.raises(IndexError, match="out of bounds"):
        np.ones((2, 3))[5]
    with pytest.raises(TypeError, match="add"):
        np.add(onp.ones(2), np.ones(2))
    with pytest.raises(MXNetError, match="reshape"):
        np.ones((2, 3)).reshape(4, 2)
    with pytest.raises(MXNetError, match="concatenate"):
        np.concatenate([np.ones((2, 3)), np.ones((2, 4))])
    with pytest.raises(MXNetError, match="matmul"):
        np.matmul(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(MXNetError, match="split"):
        np.split(np.ones(5), 2)
    with pytest.raises(MXNetError, match="signed and unsigned"):
        np.array([1], dtype="uint8") + np.array([1], dtype="int8")
    with pytest.raises(MXNetError, match="axis"):
        np.sum(np.ones((2, 3)), axis=2)
    with pytest.raises(MXNetError, match="ord"):
        np.linalg.norm(np.ones(2), ord=onp.inf)   # 1.9.1 rejects a vector inf-norm
    with pytest.raises(AttributeError, match="npx"):
        np.ones((2, 3)).softmax()
    with pytest.raises(ValueError, match="ambiguous"):
        bool(np.ones(2))
    with pytest.raises(MXNetError, match="npx.reshape"):
        npx.reshape(np.ones((2, 3)), (-3, -1))


def test_legacy_nd_unchanged_outside_np_mode():
    npx.reset_np()
    a = mx.nd.array([1, 2, 3])
    s = a.sum()
    assert type(s) is mx.nd.NDArray and s.shape == (1,)


def test_npx_devices_and_waitall():
    assert npx.cpu() == mx.cpu() and npx.gpu(1) == mx.gpu(1)
    assert npx.num_gpus() >= 0
    npx.waitall()


def test_multinomial_counts():
    npx.random.seed(3)
    fair = np.ones(6) / 6
    one = np.random.multinomial(1, fair)
    assert one.dtype == onp.int64 and one.shape == (6,) and one.sum().item() == 1
    many = np.random.multinomial(10, fair, size=3)
    assert many.shape == (3, 6) and many.sum(axis=1).tolist() == [10, 10, 10]
    with pytest.raises(MXNetError, match="multinomial"):
        np.random.multinomial(1, [0.9, 0.9, 0.1])
