"""The fused update operators (sgd_update, adam_update, the multi_* family ...): 1.9.1
golden steps, in-place state semantics, shape/type inference and errors."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.operator.registry import get_op

from .golden import REGENERATE, TABLE, assert_close, load_npz

nd = mx.nd
GOLD = load_npz("ops.npz")

# Known differences from 1.9.1 (see the report in mxnet/operator/optimizer_ops.py):
# 1.9.1's multi-tensor AdamW kernel rounds its moment updates in a way not reproduced here.
LOOSE = {"multi_adamw": 2e-3, "multi_mp_adamw": 2e-3}

# None of these operators has a gradient (they are registered with gradient=None).
UPDATE_OPS = sorted({c.op for c in TABLE.OP_CASES})


@pytest.mark.parametrize("case", TABLE.OP_CASES, ids=lambda c: c.id)
def test_matches_1_9_1(case):
    got = TABLE.run_op_case(mx, case)
    expected = {k[len(case.id) + 1:]: v for k, v in GOLD.items() if k.startswith(case.id + "/")}
    assert expected, f"no fixture for {case.id}; regenerate with: {REGENERATE}"
    assert set(got) == set(expected)
    rtol = LOOSE.get(case.id)
    for key, want in expected.items():
        assert_close(got[key], want, f"{case.id} {key}", rtol=rtol,
                     atol=None if rtol is None else 1e-6)


def test_update_ops_have_no_gradient():
    for name in UPDATE_OPS:
        assert get_op(name).gradient is None, name


def _wg(shape=(2, 3), dtype="float32"):
    w = nd.array(np.arange(6).reshape(shape) / 10.0, dtype=dtype)
    g = nd.array(np.linspace(-1, 1, 6).reshape(shape), dtype=dtype)
    return w, g


def test_weight_changes_only_through_out():
    w, g = _wg()
    before = w.asnumpy()
    new = nd.sgd_update(w, g, lr=0.1)
    np.testing.assert_array_equal(w.asnumpy(), before)
    np.testing.assert_allclose(new.asnumpy(), before - 0.1 * g.asnumpy(), rtol=1e-6)
    res = nd.sgd_update(w, g, lr=0.1, out=w)
    assert res is w
    np.testing.assert_allclose(w.asnumpy(), new.asnumpy())


def test_states_update_in_place():
    w, g = _wg()
    mom = nd.zeros(w.shape)
    nd.sgd_mom_update(w, g, mom, lr=0.1, momentum=0.9)
    np.testing.assert_allclose(mom.asnumpy(), -0.1 * g.asnumpy(), rtol=1e-6)
    mean, var = nd.zeros(w.shape), nd.zeros(w.shape)
    nd.adam_update(w, g, mean, var, lr=0.01)
    assert np.abs(mean.asnumpy()).sum() > 0 and var.asnumpy().min() >= 0


def test_mixed_precision_master_copy():
    w16, g16 = _wg(dtype="float16")
    w32 = w16.astype("float32")
    out = nd.mp_sgd_update(w16, g16, w32, lr=0.1)
    assert out.dtype == np.float16
    expected = w16.asnumpy().astype(np.float32) - np.float32(0.1) * g16.asnumpy().astype(np.float32)
    np.testing.assert_allclose(w32.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(out.asnumpy(), w32.asnumpy().astype(np.float16))


def test_multi_ops_return_each_weight():
    w0, g0 = _wg()
    w1, g1 = nd.ones((4,)), nd.ones((4,))
    res = nd.multi_sgd_update(w0, g0, w1, g1, lrs=(0.1, 0.5), wds=(0.0, 0.0), num_weights=2)
    assert isinstance(res, list) and len(res) == 2
    np.testing.assert_allclose(res[1].asnumpy(), 0.5 * np.ones(4), rtol=1e-6)
    out = nd.multi_sgd_update(w0, g0, w1, g1, lrs=(0.1, 0.5), wds=(0.0, 0.0), num_weights=2,
                              out=[w0, w1])
    assert out[1] is w1
    np.testing.assert_allclose(w1.asnumpy(), 0.5 * np.ones(4), rtol=1e-6)


def test_lamb_phases_compose():
    w, g = _wg()
    mean, var = nd.zeros(w.shape), nd.zeros(w.shape)
    d = nd.lamb_update_phase1(w, g, mean, var, t=1, wd=0.0)
    new = nd.lamb_update_phase2(w, d, w.norm(), d.norm(), lr=0.1)
    ratio = np.linalg.norm(w.asnumpy()) / np.linalg.norm(d.asnumpy())
    np.testing.assert_allclose(new.asnumpy(), w.asnumpy() - 0.1 * ratio * d.asnumpy(), rtol=1e-5)


def test_signsgd_ignores_rescale_and_clip():
    w, g = _wg()
    a = nd.signsgd_update(w, g, lr=0.1)
    b = nd.signsgd_update(w, g, lr=0.1, rescale_grad=-3.0, clip_gradient=0.0)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_param_defaults_follow_1_9_1():
    assert get_op("sgd_update").params["clip_gradient"].default == -1.0
    assert get_op("rmsprop_update").params["gamma1"].default == 0.95
    assert get_op("ftml_update").params["beta1"].default == 0.6
    assert get_op("lamb_update_phase1").params["epsilon"].default == 1e-6
    assert get_op("adam_update").params["lazy_update"].default is True
    assert "lazy_update" not in get_op("nag_mom_update").params


def test_errors():
    w, g = _wg()
    with pytest.raises(MXNetError, match="lr"):
        nd.sgd_update(w, g)
    with pytest.raises(MXNetError, match="shape"):
        nd.sgd_update(w, nd.ones((3, 2)), lr=0.1)
    with pytest.raises(MXNetError, match="dtype"):
        nd.sgd_mom_update(w, g, nd.zeros(w.shape, dtype="float64"), lr=0.1)
    with pytest.raises(MXNetError, match="weight32"):
        nd.mp_sgd_update(w.astype("float16"), g.astype("float16"), w.astype("float16"), lr=0.1)
    with pytest.raises(MXNetError, match="grad_1"):
        nd.multi_sgd_update(w, g, w, lrs=(0.1,), wds=(0.0,), num_weights=2)
    with pytest.raises(MXNetError, match="num_weights"):
        nd.multi_sgd_update(w, g, w, g, lrs=(0.1,), wds=(0.0,), num_weights=2)
    with pytest.raises(MXNetError, match="r1"):
        nd.lamb_update_phase2(w, g, nd.ones((2,)), nd.ones((1,)), lr=0.1)


def test_symbolic_inference():
    w, g, m, w32 = (mx.sym.var(n) for n in ("w", "g", "m", "w32"))
    s = mx.sym.sgd_mom_update(w, g, m, lr=0.1, momentum=0.9)
    args, outs, _ = s.infer_shape(w=(3, 4))
    assert args == [(3, 4)] * 3 and outs == [(3, 4)]
    s = mx.sym.mp_sgd_mom_update(w, g, m, w32, lr=0.1)
    args, outs, _ = s.infer_type(w="float16")
    assert args == [np.float16, np.float16, np.float32, np.float32] and outs == [np.float16]
    s = mx.sym.multi_sgd_update(w, g, m, w32, lrs=(0.1, 0.2), wds=(0.0, 0.0), num_weights=2)
    _, outs, _ = s.infer_shape(w=(3, 4), m=(5,))
    assert outs == [(3, 4), (5,)]
