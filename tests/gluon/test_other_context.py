"""Gluon blocks on a context other than the default one.

``cpu(1)`` is a device of its own here (arrays of cpu(0) and cpu(1) do not mix), so these
tests catch arrays created on the default context inside a block, the bug that breaks
a GPU run, without a GPU."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

OTHER = mx.cpu(1)


class LM(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.emb = nn.Embedding(30, 6)
            self.rnn = gluon.rnn.LSTM(8, num_layers=2, input_size=6)
            self.dec = nn.Dense(30, flatten=False, in_units=8)

    def hybrid_forward(self, F, x):
        return self.dec(self.rnn(self.emb(x)))


def _convnet():
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"),
            nn.MaxPool2D(2), nn.Dropout(0.0), nn.Dense(5))
    return net


def _run(make, x_np, ctx, hybridize):
    mx.random.seed(3)
    net = make()
    net.initialize(mx.init.Xavier(), ctx=ctx)
    if hybridize:
        net.hybridize(static_alloc=True, static_shape=True)
    x = mx.nd.array(x_np, ctx=ctx)
    with autograd.record():
        y = net(x)
        loss = (y * y).sum()
    loss.backward()
    assert y.context == ctx
    grads = [p.grad(ctx).asnumpy() for p in net.collect_params().values()
             if p.grad_req != "null"]
    return y.asnumpy(), grads


@pytest.mark.parametrize("hybridize", [False, True])
@pytest.mark.parametrize("make,x_np", [
    (LM, np.random.RandomState(0).randint(0, 30, (5, 3)).astype(np.float32)),
    (_convnet, np.random.RandomState(1).randn(2, 3, 6, 6).astype(np.float32)),
], ids=["lstm_lm", "convnet"])
def test_block_on_another_context_matches_default(make, x_np, hybridize):
    y0, g0 = _run(make, x_np, mx.cpu(0), hybridize)
    y1, g1 = _run(make, x_np, OTHER, hybridize)
    np.testing.assert_allclose(y1, y0, rtol=1e-5, atol=1e-6)
    assert len(g0) == len(g1) > 0
    for a, b in zip(g1, g0):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
