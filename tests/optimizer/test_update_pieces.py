"""Large optimizer updates run piece by piece in place (``optimizer_ops._by_pieces``); these
tests hold them to the whole-array expressions, whose bits the golden tests check against
1.9.1 on small arrays: same new weight and same states, bit for bit, with and without
clipping, for float32 and float16, and through the ``mp_`` variants."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.operator import optimizer_ops as oo

SIZE = oo._PIECE * 2 + 123   # three pieces, the last one short
_PIECEWISE = oo._piecewise


def _inputs(dtype, names, seed):
    rng = np.random.default_rng(seed)
    arrays = {"weight": rng.standard_normal(SIZE), "grad": rng.standard_normal(SIZE) * 3}
    for n in names:
        arrays[n] = np.abs(rng.standard_normal(SIZE)) * 0.01 if n in ("var", "n") \
            else rng.standard_normal(SIZE) * 0.1
    return {k: v.astype(dtype) for k, v in arrays.items()}


CASES = [
    ("sgd_update", (), dict(lr=0.1, wd=0.01, rescale_grad=0.5)),
    ("sgd_mom_update", ("mom",), dict(lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5)),
    ("adam_update", ("mean", "var"), dict(lr=0.01, wd=0.001, rescale_grad=1 / 32)),
    ("rmsprop_update", ("n",), dict(lr=0.01, wd=0.001, rescale_grad=0.25, gamma1=0.9)),
    ("nag_mom_update", ("mom",), dict(lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5)),
]


def _run(op, names, kw, arrays, monkeypatch, pieces):
    monkeypatch.setattr(oo, "_piecewise", _PIECEWISE if pieces else lambda *a: False)
    nd = {k: mx.nd.array(v, dtype=v.dtype) for k, v in arrays.items()}
    out = getattr(mx.nd, op)(nd["weight"], nd["grad"], *[nd[n] for n in names], **kw)
    return [out.asnumpy()] + [nd[n].asnumpy() for n in names]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("clip", [-1.0, 0.7])
@pytest.mark.parametrize("op,names,kw", CASES)
def test_pieces_equal_expressions(op, names, kw, clip, dtype, monkeypatch):
    kw = dict(kw, clip_gradient=clip)
    if op == "rmsprop_update":
        kw["clip_weights"] = 1.5
    arrays = _inputs(dtype, names, 7)
    assert oo._piecewise(np, arrays["weight"], *[arrays[n] for n in ("grad",) + names])
    want = _run(op, names, kw, arrays, monkeypatch, pieces=False)
    got = _run(op, names, kw, arrays, monkeypatch, pieces=True)
    for a, b in zip(want, got):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_mp_sgd_mom_pieces(monkeypatch):
    arrays = _inputs(np.float32, ("mom",), 3)
    w16 = arrays["weight"].astype(np.float16)
    kw = dict(lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5)
    res = []
    for pieces in (False, True):
        monkeypatch.setattr(oo, "_piecewise", _PIECEWISE if pieces else lambda *a: False)
        w32, mom = mx.nd.array(arrays["weight"]), mx.nd.array(arrays["mom"])
        out = mx.nd.mp_sgd_mom_update(mx.nd.array(w16, dtype=np.float16),
                                      mx.nd.array(arrays["grad"].astype(np.float16),
                                                  dtype=np.float16), mom, w32, **kw)
        res.append([out.asnumpy(), mom.asnumpy(), w32.asnumpy()])
    for a, b in zip(*res):
        assert a.tobytes() == b.tobytes()


def test_adam_pieces_closed_form():
    """One step from zero moments, no weight decay: mean = (1 - beta1) g, var = (1 - beta2) g^2
    and the new weight w - lr mean / (sqrt(var) + eps), the betas being C floats."""
    rng = np.random.default_rng(1)
    w = rng.standard_normal(SIZE).astype(np.float32)
    g = rng.standard_normal(SIZE).astype(np.float32)
    mean, var = mx.nd.zeros(SIZE), mx.nd.zeros(SIZE)
    out = mx.nd.adam_update(mx.nd.array(w), mx.nd.array(g), mean, var, lr=0.01).asnumpy()
    g64 = g.astype(np.float64)
    a, b = 1 - np.float64(np.float32(0.9)), 1 - np.float64(np.float32(0.999))
    np.testing.assert_allclose(mean.asnumpy(), a * g64, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), b * g64 * g64, rtol=1e-6)
    np.testing.assert_allclose(out, w - 0.01 * a * g64 / (np.sqrt(b) * np.abs(g64) + 1e-8),
                               rtol=1e-5, atol=1e-7)


def test_shared_buffers_take_expressions():
    """A state that shares memory with another input is not run in pieces."""
    w = np.ones(SIZE, np.float32)
    assert not oo._piecewise(np, w, w[::-1].copy(), w)
    assert not oo._piecewise(np, w[:oo._PIECE - 1], w[:oo._PIECE - 1].copy())


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("clip", [-1.0, 0.7])
@pytest.mark.parametrize("wd", [0.0, 0.01])
@pytest.mark.parametrize("op,names", [("multi_sgd_update", ()),
                                      ("multi_sgd_mom_update", ("mom",))])
def test_multi_sgd_pieces_equal_expressions(op, names, wd, clip, dtype, monkeypatch):
    kw = dict(lrs=[0.1], wds=[wd], rescale_grad=0.5, clip_gradient=clip, num_weights=1)
    if names:
        kw["momentum"] = 0.9
    arrays = _inputs(dtype, names, 11)
    arrays["weight"][:5] = [0.0, -0.0, np.inf, -np.inf, np.nan]
    want = _run(op, names, kw, arrays, monkeypatch, pieces=False)
    got = _run(op, names, kw, arrays, monkeypatch, pieces=True)
    for a, b in zip(want, got):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
