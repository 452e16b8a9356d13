"""``mx.nd.<op>(x, ..., out=x)`` for operators whose first input and output are a declared
in-place pair: the kernel writes into x's own buffer (no result array copied in after), and
the values are those of the call without ``out``."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.operator import optimizer_ops as oo


def _same_buffer_result(call, x_np, monkeypatch, strict=True):
    x = mx.nd.array(x_np, dtype=x_np.dtype)
    buf = x._data
    with monkeypatch.context() as m:   # strict: no result may be copied into x afterwards
        if strict:
            m.setattr(mx.nd.NDArray, "_assign", lambda *a: pytest.fail("copied into out"))
        ret = call(x, out=x)
    assert ret is x and x._data is buf
    return x.asnumpy()


@pytest.mark.parametrize("call", [
    lambda x, **o: mx.nd.exp(x, **o),
    lambda x, **o: mx.nd.relu(x, **o),
    lambda x, **o: mx.nd.clip(x, -0.5, 0.5, **o),
    lambda x, **o: mx.nd.Activation(x, act_type="tanh", **o),
    lambda x, **o: mx.nd.elemwise_mul(x, mx.nd.full(x.shape, 3.0), **o),
])
def test_elementwise_in_place_equals_new_result(call, monkeypatch):
    x_np = np.random.default_rng(0).standard_normal((300, 257)).astype(np.float32)
    want = call(mx.nd.array(x_np)).asnumpy()
    got = _same_buffer_result(call, x_np, monkeypatch)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("size", [1000, 200_000])   # expressions (copied) / pieces
def test_optimizer_updates_write_the_weight_buffer(size, monkeypatch):
    strict = size >= oo._PIECE
    rng = np.random.default_rng(1)
    w_np = rng.standard_normal(size).astype(np.float32)
    g_np = rng.standard_normal(size).astype(np.float32)
    kw = dict(lr=0.1, wd=0.01, rescale_grad=0.5)
    want = w_np * (np.float32(1) - np.float32(0.1) * np.float32(0.01)) - \
        (np.float32(0.1) * np.float32(0.5)) * g_np
    g = mx.nd.array(g_np)
    got = _same_buffer_result(lambda w, **o: mx.nd.sgd_update(w, g, **kw, **o), w_np, monkeypatch, strict)
    assert got.tobytes() == want.tobytes()
    mom = mx.nd.zeros(size)
    got = _same_buffer_result(lambda w, **o: mx.nd.sgd_mom_update(w, g, mom, momentum=0.9,
                                                                  **kw, **o), w_np, monkeypatch, strict)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(mom.asnumpy(), want - w_np, rtol=1e-5, atol=1e-6)


def test_out_other_than_the_input_still_copies():
    x = mx.nd.array([1.0, -2.0, 3.0])
    o = mx.nd.zeros(3)
    buf = o._data
    mx.nd.relu(x, out=o)
    assert o._data is buf and o.asnumpy().tolist() == [1.0, 0.0, 3.0]
    assert x.asnumpy().tolist() == [1.0, -2.0, 3.0]


def test_wrong_dtype_out_is_refused():
    x = mx.nd.array([1.0, 2.0])
    with pytest.raises(mx.base.MXNetError):
        mx.nd.elemwise_add(x, x, out=mx.nd.zeros(2, dtype="int32"))
