"""Regressions from the d2l.ai (MXNet edition, part 1) compatibility sweep: each case is a
difference found between mxnet-py and MXNet 1.9.1 running the same book-style script under
``npx.set_np()``. Expected values were recorded from 1.9.1 (comments say so) or are closed-form."""
import numpy as onp
import pytest

from mxnet import gluon, init, np, npx
from mxnet.gluon import nn


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def test_custom_initializer_sees_np_array_and_masks_with_bool():
    # d2l "custom initialization": data *= np.abs(data) >= 5 inside _init_weight
    seen = []

    class MyInit(init.Initializer):
        def _init_weight(self, name, data):
            seen.append((name, type(data).__name__, str(data.dtype)))
            data[:] = np.array(onp.arange(-6, 6, dtype="float32").reshape(data.shape))
            data *= np.abs(data) >= 5

    d = nn.Dense(3, in_units=4, prefix="dense_")
    d.initialize(MyInit())
    # recorded from 1.9.1: the initializer receives an mx.np ndarray of float32
    assert seen == [("dense_weight", "ndarray", "float32")]
    w = d.weight.data()
    assert type(w).__name__ == "ndarray"
    assert w.asnumpy().ravel().tolist() == [-6, -5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]


def test_unknown_dims_read_as_minus_one_under_np_shape():
    # recorded from 1.9.1 (d2l "deferred initialization" prints shape=(256, -1))
    d = nn.Dense(4, prefix="dense0_")
    assert d.weight.shape == (4, -1)
    assert repr(d.weight) == "Parameter dense0_weight (shape=(4, -1), dtype=float32)"
    assert repr(d) == "Dense(-1 -> 4, linear)"
    c = nn.Conv2D(3, 3)
    assert c.weight.shape == (3, -1, 3, 3)
    assert repr(c) == "Conv2D(-1 -> 3, kernel_size=(3, 3), stride=(1, 1))"
    b = nn.BatchNorm()
    assert b.running_mean.shape == (-1,)
    assert repr(b).endswith("in_channels=-1)")
    assert repr(nn.LayerNorm()).endswith("in_channels=-1)")
    assert gluon.Parameter("p", shape=(0, 3)).shape == (-1, 3)
    d.initialize()
    assert d.weight.shape == (4, -1)
    d(np.ones((2, 5)))
    assert d.weight.shape == (4, 5)
    assert repr(d) == "Dense(5 -> 4, linear)"


def test_unknown_dims_stay_zero_in_legacy_mode():
    npx.reset_np()
    # recorded from 1.9.1: outside NumPy shape semantics the unknown dim reads as 0
    d = nn.Dense(4, prefix="dense1_")
    assert d.weight.shape == (4, 0)
    assert repr(d) == "Dense(None -> 4, linear)"


def test_load_shape_mismatch_message_uses_np_unknown_dim(tmp_path):
    src = nn.HybridSequential()
    src.add(nn.Dense(8, in_units=5))
    src.initialize()
    f = str(tmp_path / "h.params")
    src.save_parameters(f)
    dst = nn.HybridSequential()
    dst.add(nn.Dense(4))
    # recorded from 1.9.1: an AssertionError naming the shape with -1 for the unknown dim
    with pytest.raises(AssertionError, match=r"shape incompatible expected \(4, -1\) vs saved "
                                             r"\(8, 5\)"):
        dst.load_parameters(f)


def test_to_tensor_of_host_image_gives_np_array_under_np():
    t = gluon.data.vision.transforms.ToTensor()
    img = onp.arange(8, dtype="uint8").reshape(2, 2, 2)
    out = t(np.array(img))
    assert type(out).__name__ == "ndarray" and out.shape == (2, 2, 2) and out.dtype == onp.float32
    # mxnet-py also takes a host NumPy image (1.9.1 raises); the result type follows np mode
    out2 = t(img)
    assert type(out2).__name__ == "ndarray"
    assert onp.allclose(out2.asnumpy(), out.asnumpy())
    assert onp.allclose(out.asnumpy()[1], onp.array([[1, 3], [5, 7]]) / 255.0)


def test_set_np_logs_activation_once_per_process(monkeypatch, caplog):
    import logging

    from mxnet import util
    npx.reset_np()
    monkeypatch.setattr(util, "_logged_activation", set())
    with caplog.at_level(logging.INFO):
        npx.set_np()
        npx.reset_np()
        npx.set_np()
    msgs = [r.getMessage() for r in caplog.records if r.name == "root"]
    # recorded from 1.9.1: the array message then the shape message, each only the first time
    assert len(msgs) == 2
    assert msgs[0].startswith("NumPy array semantics has been activated in your code.")
    assert msgs[1].startswith("NumPy-shape semantics has been activated in your code.")


def test_np_shape_scope_logs_shape_activation(monkeypatch, caplog):
    import logging

    from mxnet import util
    npx.reset_np()
    monkeypatch.setattr(util, "_logged_activation", set())
    with caplog.at_level(logging.INFO):
        with util.np_array(True):
            pass
        with util.np_shape(True):
            pass
    msgs = [r.getMessage() for r in caplog.records if r.name == "root"]
    # recorded from 1.9.1: only the shape scope logs
    assert len(msgs) == 1 and msgs[0].startswith("NumPy-shape semantics")


def test_npx_save_rejects_legacy_ndarray_with_value_error(tmp_path):
    import mxnet as mx
    f = str(tmp_path / "x")
    # recorded from 1.9.1: a legacy NDArray is not a valid top-level value (ValueError);
    # a list holding a non-ndarray is a TypeError
    with pytest.raises(ValueError, match="npx.save"):
        npx.save(f, mx.nd.ones(2))
    with pytest.raises(TypeError):
        npx.save(f, [1, 2])
    npx.save(f, np.arange(3))
    out = npx.load(f)
    assert len(out) == 1 and out[0].tolist() == [0.0, 1.0, 2.0]


def test_prelu_on_1d_data():
    from mxnet import autograd
    a = nn.PReLU()
    a.initialize()
    x = np.array([-1., 2., -3.])
    x.attach_grad()
    with autograd.record():
        y = a(x)
    y.backward()
    # recorded from 1.9.1
    assert y.tolist() == [-0.25, 2.0, -0.75]
    assert x.grad.tolist() == [0.25, 1.0, 0.25]
    assert a.alpha.grad().tolist() == [-4.0]
    import mxnet as mx
    g3 = mx.nd.LeakyReLU(mx.nd.array([-1., 2., -3.]), gamma=mx.nd.array([0.1, 0.2, 0.3]),
                         act_type="prelu")
    assert onp.allclose(g3.asnumpy(), [-0.1, 2.0, -0.9])
    with pytest.raises(mx.base.MXNetError):
        mx.nd.LeakyReLU(mx.nd.array([-1., 2., -3.]), gamma=mx.nd.array([0.1, 0.2]),
                        act_type="prelu")


def test_random_argument_errors():
    from mxnet.base import MXNetError
    # recorded from 1.9.1: a negative scale is a ValueError; a float n is rejected
    with pytest.raises(ValueError, match="scale"):
        np.random.normal(0, -1, size=2)
    with pytest.raises(MXNetError, match="n"):
        np.random.multinomial(3.5, [0.5, 0.5])
    c = np.random.multinomial(10, [0.2, 0.8], size=3)
    assert c.shape == (3, 2) and str(c.dtype) == "int64" and c.sum(axis=1).tolist() == [10] * 3


def test_inplace_ops_refuse_type_changes_like_1_9_1():
    from mxnet.base import MXNetError
    # recorded from 1.9.1: these raise (the promoted type differs from the target's) ...
    for dt, op, other in [("float32", "__iadd__", np.ones(3, dtype="float64")),
                          ("float16", "__iadd__", np.ones(3, dtype="float32")),
                          ("int32", "__itruediv__", 2),
                          ("int32", "__iadd__", np.ones(3, dtype="int64")),
                          ("int32", "__iadd__", np.ones(3, dtype="float32"))]:
        with pytest.raises(MXNetError):
            getattr(np.ones(3, dtype=dt), op)(other)
    # ... while these keep the target's type
    for dt, op, other, want in [("float32", "__iadd__", np.ones(3, dtype="int32"), 2.0),
                                ("float32", "__imul__", np.ones(3, dtype="bool"), 1.0),
                                ("int32", "__iadd__", 1.5, 2),
                                ("int64", "__iadd__", np.ones(3, dtype="int32"), 2),
                                ("float64", "__isub__", np.ones(3, dtype="float32"), 0.0),
                                ("float16", "__imul__", 2.5, 2.5)]:
        x = np.ones(3, dtype=dt)
        getattr(x, op)(other)
        assert str(x.dtype) == dt and x.tolist() == [want] * 3


def test_reduction_with_wider_dtype_accumulates_in_it():
    x = np.array([[3., -1., 2.], [0., 5., -4.]]) / 3
    # recorded from 1.9.1: the float32 input is cast to float64 before reducing
    assert x.mean(dtype="float64").item() == 0.2777777661879857
    assert x.sum(dtype="float64").item() == 1.6666665971279144
    assert x.mean(axis=0, dtype="float64").tolist() == [0.5, 0.666666641831398,
                                                        -0.3333333432674408]
    h = np.array([0.1, 0.2, 0.3], dtype="float16")
    assert h.mean(dtype="float32").item() == 0.1999918669462204
    assert h.sum(dtype="float32").item() == 0.5999755859375


def test_ndarray_nonzero_method():
    x = np.array([[3., -1., 2.], [0., 5., -4.]])
    rows, cols = x.nonzero()
    # recorded from 1.9.1
    assert rows.tolist() == [0, 0, 0, 1, 1] and str(rows.dtype) == "int64"
    assert cols.tolist() == [0, 1, 2, 1, 2]


def test_arange_float32_values_and_zero_step():
    import mxnet as mx
    # recorded from 1.9.1: the d2l activation-plot grid ends at 7.90000057220459 (float32
    # start + i * step), not at the float32 nearest to 7.9
    x = np.arange(-8.0, 8.0, 0.1)
    assert x.shape == (160,) and x.tolist()[-2:] == [7.800000190734863, 7.90000057220459]
    n = 654
    i = onp.arange(n, dtype="float32")
    want = onp.float32(-3.3) + i * onp.float32(0.77)
    assert onp.array_equal(np.arange(-3.3, 500.2, 0.77).asnumpy(), want)
    assert onp.array_equal(mx.nd.arange(-3.3, 500.2, 0.77).asnumpy(), want)
    assert np.arange(0, 1, 0.3, dtype="float64").tolist() == [0.0, 0.3, 0.6, 0.8999999999999999]
    with pytest.raises(ZeroDivisionError):
        np.arange(0, 10, 0)


def test_empty_mean_is_nan_without_numpy_warnings():
    import warnings
    # 1.9.1 gives 0.0 (full reduction) or fails (axis reduction) here; we follow NumPy's NaN
    # but, like 1.9.1, print no NumPy RuntimeWarning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = np.zeros((0,)).mean()
        v = np.ones((0, 3)).var(axis=0)
    assert onp.isnan(m.item()) and v.shape == (3,) and onp.isnan(v.asnumpy()).all()


def test_out_argument_must_match_result_type():
    from mxnet.base import MXNetError
    X = np.arange(6.).reshape(2, 3)
    Y = np.ones((2, 3))
    Z = np.zeros((2, 3))
    # recorded from 1.9.1: the d2l "saving memory" form returns out itself ...
    assert np.add(X, Y, out=Z) is Z and Z.tolist() == [[1., 2., 3.], [4., 5., 6.]]
    # ... and an out of another type is an error, not a silent cast
    for dt in ("int32", "float64"):
        with pytest.raises(MXNetError):
            np.add(X, Y, out=np.zeros((2, 3), dtype=dt))
