"""GPU-only behaviour (issue 8): device copies, memory queries, out-of-memory errors,
stream synchronisation, check_consistency between CPU and GPU, and data parallelism over
GPU contexts. Every test here is skipped on a machine without a GPU (CI); the rest of the
suite covers the GPU too when run with ``MXNET_TEST_DEVICE=gpu(0)``."""
import subprocess
import sys

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.base import MXNetError
from mxnet.test_utils import assert_almost_equal, check_consistency

NGPU = mx.context.num_gpus()
needs_gpu = pytest.mark.skipif(NGPU < 1, reason="no GPU visible to CuPy")
needs_two = pytest.mark.skipif(NGPU < 2, reason="fewer than two GPUs")


def test_import_does_not_load_cupy():
    code = "import sys, mxnet; print('cupy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"


@needs_gpu
def test_gpu_arrays_are_cupy_on_the_device():
    a = mx.nd.arange(6, ctx=mx.gpu(0)).reshape((2, 3))
    assert type(a._data).__module__.startswith("cupy")
    assert a.context == mx.gpu(0)
    assert_almost_equal((a * 2 + 1).asnumpy(), np.arange(6).reshape(2, 3) * 2 + 1)


@needs_gpu
def test_copies_between_cpu_pinned_and_gpu():
    x = np.random.RandomState(0).randn(4, 5).astype(np.float32)
    c = mx.nd.array(x, ctx=mx.cpu())
    g = c.as_in_context(mx.gpu(0))
    assert g.context == mx.gpu(0)
    p = g.copyto(mx.cpu_pinned(0))
    assert_almost_equal(p.asnumpy(), x)
    g2 = mx.nd.zeros((4, 5), ctx=mx.gpu(0))
    g.copyto(g2)
    assert_almost_equal(g2.asnumpy(), x)
    back = mx.nd.zeros((4, 5))
    g2.copyto(back)
    assert_almost_equal(back.asnumpy(), x)


@needs_gpu
def test_memory_info_and_empty_cache():
    free, total = mx.context.gpu_memory_info(0)
    assert 0 < free <= total
    a = mx.nd.ones((1024, 1024), ctx=mx.gpu(0))
    del a
    mx.gpu(0).empty_cache()
    free2, total2 = mx.context.gpu_memory_info(0)
    assert total2 == total and free2 > 0


@needs_gpu
def test_out_of_memory_is_an_mxnet_error_and_the_process_goes_on():
    _, total = mx.context.gpu_memory_info(0)
    n = int(total) // 2  # float32 elements: twice the device's memory
    with pytest.raises(MXNetError, match="out of memory") as info:
        mx.nd.zeros((n,), ctx=mx.gpu(0)).wait_to_read()
    assert "_zeros" in str(info.value) or "zeros" in str(info.value)
    b = mx.nd.ones((8,), ctx=mx.gpu(0))
    assert float(b.sum().asscalar()) == 8.0


@needs_gpu
def test_waitall_synchronises_the_device():
    a = mx.nd.random.uniform(shape=(2048, 2048), ctx=mx.gpu(0))
    b = mx.nd.dot(a, a)
    mx.nd.waitall()
    import cupy
    assert cupy.cuda.Stream.null.done
    assert b.shape == (2048, 2048)


def _conv_net():
    data = mx.sym.var("data")
    net = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), pad=(1, 1), name="conv")
    net = mx.sym.BatchNorm(net, name="bn")
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max")
    net = mx.sym.FullyConnected(net, num_hidden=5, name="fc")
    return mx.sym.softmax(net)


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_check_consistency_cpu_gpu(dtype):
    shape = (2, 3, 8, 8)
    ctx_list = [{"ctx": mx.cpu(0), "data": shape, "type_dict": {"data": np.float64}},
                {"ctx": mx.gpu(0), "data": shape, "type_dict": {"data": dtype}}]
    # float64 gradients near zero (the conv bias before BatchNorm) differ by rounding only
    gt = check_consistency(_conv_net(), ctx_list, atol={np.dtype(np.float64): 1e-12})
    assert "conv_weight" in gt and gt["conv_weight"].dtype == np.float64


def test_check_consistency_finds_a_disagreement():
    # two symbols that differ must be reported (CPU only, so CI checks the checker)
    a = mx.sym.var("x") * 2
    b = mx.sym.var("x") * 2.5
    ctx_list = [{"ctx": mx.cpu(0), "x": (3,), "type_dict": {"x": np.float64}},
                {"ctx": mx.cpu(0), "x": (3,), "type_dict": {"x": np.float32}}]
    with pytest.raises(AssertionError, match="check_consistency"):
        check_consistency([a, b], ctx_list)
    check_consistency([a, a], ctx_list)


@needs_gpu
def test_kvstore_device_reduces_on_gpu():
    kv = mx.kv.create("device")
    ctxs = [mx.gpu(i) for i in range(NGPU)] * (2 if NGPU == 1 else 1)
    kv.init(3, mx.nd.zeros((4, 4), ctx=ctxs[0]))
    kv.push(3, [mx.nd.ones((4, 4), ctx=c) * (i + 1) for i, c in enumerate(ctxs)])
    outs = [mx.nd.zeros((4, 4), ctx=c) for c in ctxs]
    kv.pull(3, out=outs)
    want = sum(range(1, len(ctxs) + 1))
    for o in outs:
        assert_almost_equal(o.asnumpy(), np.full((4, 4), want, np.float32))


def _train(ctxs, steps=3):
    mx.random.seed(1)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(16, activation="relu"), gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier(), ctx=ctxs)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1},
                            kvstore="device")
    rs = np.random.RandomState(0)
    x = rs.randn(8, 5).astype(np.float32)
    y = rs.randint(0, 3, 8).astype(np.float32)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    for _ in range(steps):
        xs = gluon.utils.split_and_load(mx.nd.array(x), ctxs)
        ys = gluon.utils.split_and_load(mx.nd.array(y), ctxs)
        with autograd.record():
            losses = [loss_fn(net(a), b) for a, b in zip(xs, ys)]
        autograd.backward(losses)
        trainer.step(8)
    return [v.data(ctxs[0]).asnumpy() for v in net.collect_params().values()]


@needs_gpu
def test_trainer_on_gpu_matches_cpu():
    cpu = _train([mx.cpu(0)])
    gpu = _train([mx.gpu(0)])
    assert len(cpu) == len(gpu) == 4
    for a, b in zip(gpu, cpu):
        assert_almost_equal(a, b, rtol=1e-4, atol=1e-5)


@needs_two
def test_trainer_data_parallel_over_gpus_matches_one_device():
    one = _train([mx.gpu(0)])
    many = _train([mx.gpu(i) for i in range(NGPU)])
    for a, b in zip(many, one):
        assert_almost_equal(a, b, rtol=1e-4, atol=1e-5)


@needs_gpu
def test_module_on_gpu_matches_cpu():
    rs = np.random.RandomState(0)
    x = rs.randn(16, 6).astype(np.float32)
    y = rs.randint(0, 3, 16).astype(np.float32)
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    results = []
    for ctx in (mx.cpu(0), [mx.gpu(i) for i in range(NGPU)]):
        it = mx.io.NDArrayIter(x, y, batch_size=8)
        mod = mx.mod.Module(net, context=ctx)
        mod.bind(it.provide_data, it.provide_label)
        mod.init_params(mx.init.Constant(0.1))
        mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5})
        for batch in it:
            mod.forward_backward(batch)
            mod.update()
        results.append(mod.get_params()[0]["fc_weight"].asnumpy())
    assert_almost_equal(results[1], results[0], rtol=1e-4, atol=1e-5)
