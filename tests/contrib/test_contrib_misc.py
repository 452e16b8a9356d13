"""mx.contrib.io, mx.contrib.autograd and mx.contrib.tensorboard."""
import importlib.util

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.contrib import autograd as cag


def test_dataloader_iter_pads_last_batch():
    x = np.arange(20, dtype="float32").reshape(10, 2)
    y = np.arange(10, dtype="float32")
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(x, y), batch_size=4)
    it = mx.contrib.io.DataLoaderIter(loader, data_name="d", label_name="l", dtype="float16")
    assert it.batch_size == 4
    assert [(d.name, d.shape, d.dtype) for d in it.provide_data] == [("d", (4, 2), "float16")]
    assert [(d.name, d.shape) for d in it.provide_label] == [("l", (4,))]
    for _ in range(2):
        batches = list(it)
        assert [b.pad for b in batches] == [0, 0, 2]
        assert all(b.data[0].shape == (4, 2) and b.data[0].dtype == np.float16
                   for b in batches)
        np.testing.assert_array_equal(batches[2].data[0].asnumpy()[:2], x[8:])
        np.testing.assert_array_equal(batches[1].label[0].asnumpy(), y[4:8])
        it.reset()
    assert it.getindex() is None


def test_module_fits_from_dataloader_iter():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (64, 3)).astype("float32")
    y = x @ np.array([1.0, -2.0, 0.5], dtype="float32")
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(x, y), batch_size=16)
    it = mx.contrib.io.DataLoaderIter(loader, label_name="lin_label")
    net = mx.sym.LinearRegressionOutput(
        mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=1, name="fc"),
        mx.sym.var("lin_label"), name="lro")
    mod = mx.mod.Module(net, label_names=["lin_label"])
    mod.fit(it, num_epoch=40, optimizer_params={"learning_rate": 0.1},
            initializer=mx.init.Zero())
    np.testing.assert_allclose(mod.get_params()[0]["fc_weight"].asnumpy()[0],
                               [1.0, -2.0, 0.5], atol=0.05)


def test_contrib_autograd_sections_and_grad():
    x = mx.nd.array([1.0, 2.0, -3.0])
    g = mx.nd.zeros_like(x)
    cag.mark_variables([x], [g])
    assert not mx.autograd.is_recording()
    with cag.train_section():
        assert mx.autograd.is_recording() and mx.autograd.is_training()
        y = x * x * x
        with cag.test_section():
            assert not mx.autograd.is_recording() and not mx.autograd.is_training()
    assert not mx.autograd.is_recording()
    cag.backward([y])
    np.testing.assert_allclose(g.asnumpy(), 3 * x.asnumpy() ** 2)
    # the loss-and-gradient helpers: d/dx sum(x*exp(x)) = (1 + x) exp(x)
    grads, loss = cag.grad_and_loss(lambda a: (a * mx.nd.exp(a)).sum())(x)
    np.testing.assert_allclose(grads[0].asnumpy(), (1 + x.asnumpy()) * np.exp(x.asnumpy()),
                               rtol=1e-5)
    np.testing.assert_allclose(loss.asscalar(), (x.asnumpy() * np.exp(x.asnumpy())).sum(),
                               rtol=1e-5)
    b = mx.nd.array([4.0, 5.0, 6.0])
    gb = cag.grad(lambda p, q: p * q, argnum=1)(mx.nd.array([7.0, 8.0, 9.0]), b)
    np.testing.assert_allclose(gb[0].asnumpy(), [7.0, 8.0, 9.0])
    assert cag.set_is_training(False) is False


def test_contrib_autograd_errors():
    with pytest.raises(MXNetError, match="list or tuple"):
        cag.backward(mx.nd.ones(2))
    with pytest.raises(MXNetError, match="same length"):
        cag.backward([mx.nd.ones(2)], [mx.nd.ones(2), mx.nd.ones(2)])
    with pytest.raises(MXNetError, match="NDArray"):
        cag.grad(lambda a: a)(3.0)


@pytest.mark.skipif(importlib.util.find_spec("mxboard") is not None,
                    reason="mxboard is installed")
def test_tensorboard_callback_needs_mxboard(tmp_path, caplog):
    # as 1.9.1: the constructor only logs an error; writing metrics then fails
    cb = mx.contrib.tensorboard.LogMetricsCallback(str(tmp_path), prefix="p")
    assert "pip install mxboard" in caplog.text
    assert cb.prefix == "p"
    assert cb(mx.model.BatchEndParam(epoch=0, nbatch=1, eval_metric=None, locals=None)) is None
    metric = mx.metric.Accuracy()
    with pytest.raises(ImportError, match="mxboard"):
        cb(mx.model.BatchEndParam(epoch=0, nbatch=1, eval_metric=metric, locals=None))
