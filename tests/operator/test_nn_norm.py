"""BatchNorm, SyncBatchNorm, LayerNorm, GroupNorm, InstanceNorm, L2Normalization and LRN:
1.9.1 golden forward/backward/moving statistics, numeric gradients, inference, errors."""
from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .._scripts import load_script
from .harness import GradCase, check_grad_case, expect_error, load_golden_npz, rand

nd = mx.nd
F64 = "float64"

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "nn_norm_misc.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_nn_norm_misc.py")


def _load_table():
    return load_script("tools/golden/gen_nn_norm_misc.py")


_TABLE = _load_table()
_OPS = {"BatchNorm", "contrib.SyncBatchNorm", "contrib.BatchNormWithReLU", "LayerNorm",
        "GroupNorm", "InstanceNorm", "L2Normalization", "LRN"}
CASES = [c for c in _TABLE.CASES if c.op in _OPS]


def _a(x, dtype=F64):
    return nd.array(x, dtype=dtype)


def _stats(c, dtype=F64):
    """Moving mean and variance for ``c`` channels (fresh arrays: they are updated in place)."""
    return _a(np.linspace(0.1, 0.3, c), dtype), _a(np.linspace(0.5, 1.5, c), dtype)


def _bn(**kw):
    def fn(x, g, b):
        c = g.shape[0]
        return nd.BatchNorm(x, g, b, *_stats(c), **kw)
    return fn


def _sync_bn(**kw):
    def fn(x, g, b):
        return nd.contrib.SyncBatchNorm(x, g, b, *_stats(g.shape[0]), key="grad", **kw)
    return fn


def _gamma(c, seed=1):
    return rand(c, low=0.5, high=1.5, seed=seed)


# ---------------------------------------------------------------------------------------------
# numeric gradients (train mode: BatchNorm normalises with the batch statistics)

GRAD_CASES = [
    GradCase("bn", _bn(fix_gamma=False), [rand(4, 3, 2), _gamma(3), rand(3, seed=2)],
             ops=("BatchNorm",)),
    GradCase("bn_4d_eps", _bn(fix_gamma=False, eps=0.1), [rand(2, 2, 2, 3), _gamma(2),
                                                          rand(2, seed=2)], ops=("BatchNorm",)),
    GradCase("bn_fix_gamma", _bn(), [rand(3, 2, 2), _gamma(2), rand(2, seed=2)],
             ops=("BatchNorm",)),
    GradCase("bn_axis_last", _bn(fix_gamma=False, axis=-1), [rand(3, 2, 4), _gamma(4),
                                                             rand(4, seed=2)], ops=("BatchNorm",)),
    GradCase("bn_global_stats", _bn(fix_gamma=False, use_global_stats=True),
             [rand(3, 2, 2), _gamma(2), rand(2, seed=2)], ops=("BatchNorm",)),
    GradCase("sync_bn", _sync_bn(fix_gamma=False), [rand(3, 2, 2), _gamma(2), rand(2, seed=2)],
             ops=("_contrib_SyncBatchNorm",)),
    GradCase("bn_relu", lambda x, g, b: nd.contrib.BatchNormWithReLU(x, g, b, *_stats(3),
                                                                      fix_gamma=False),
             [rand(4, 3, 2), _gamma(3), rand(3, seed=2)], ops=("_contrib_BatchNormWithReLU",)),
    GradCase("ln", lambda x, g, b: nd.LayerNorm(x, g, b), [rand(2, 3, 4), _gamma(4), rand(4, seed=2)],
             ops=("LayerNorm",)),
    GradCase("ln_axis1", lambda x, g, b: nd.LayerNorm(x, g, b, axis=1, eps=1e-2),
             [rand(2, 3, 2), _gamma(3), rand(3, seed=2)], ops=("LayerNorm",)),
    GradCase("gn", lambda x, g, b: nd.GroupNorm(x, g, b, num_groups=2),
             [rand(2, 4, 3), _gamma(2), rand(2, seed=2)], ops=("GroupNorm",)),
    GradCase("gn_4d", lambda x, g, b: nd.GroupNorm(x, g, b, num_groups=3, eps=1e-2),
             [rand(2, 3, 2, 2), _gamma(3), rand(3, seed=2)], ops=("GroupNorm",)),
    GradCase("in", lambda x, g, b: nd.InstanceNorm(x, g, b), [rand(2, 3, 4), _gamma(3),
                                                              rand(3, seed=2)],
             ops=("InstanceNorm",)),
    GradCase("in_4d", lambda x, g, b: nd.InstanceNorm(x, g, b, eps=0.1),
             [rand(2, 2, 2, 3), _gamma(2), rand(2, seed=2)], ops=("InstanceNorm",)),
    GradCase("l2_instance", lambda x: nd.L2Normalization(x), [rand(2, 3, 2)],
             ops=("L2Normalization",)),
    GradCase("l2_channel", lambda x: nd.L2Normalization(x, mode="channel"), [rand(2, 3, 2, 2)],
             ops=("L2Normalization",)),
    GradCase("l2_spatial", lambda x: nd.L2Normalization(x, mode="spatial", eps=0.1),
             [rand(2, 2, 3)], ops=("L2Normalization",)),
    GradCase("lrn", lambda x: nd.LRN(x, nsize=3, alpha=0.5, beta=0.8, knorm=1.2),
             [rand(2, 4, 2, 2)], ops=("LRN",)),
    GradCase("lrn_even", lambda x: nd.LRN(x, nsize=4, alpha=1.0, beta=1.5, knorm=1.0),
             [rand(1, 5, 2, 1)], ops=("LRN",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward, backward and updated moving statistics


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(dtype):
    return {"float16": (1e-2, 1e-2), "float32": (2e-4, 2e-5)}.get(np.dtype(dtype).name,
                                                                   (1e-7, 1e-9))


def replay(case, golden):
    """Run a golden case here and compare every stored array."""
    n_out = sum(1 for k in golden if k.startswith(f"{case.id}/out"))
    inputs = [golden[f"{case.id}/in{i}"] for i in range(len(case.inputs))]
    heads = [golden[f"{case.id}/head{j}"] for j in range(n_out)]
    outs, _, grads, post = _TABLE.run_case(mx, case, inputs=inputs, heads=heads)
    assert len(outs) == n_out
    got = {f"out{j}": o for j, o in enumerate(outs)}
    got.update({f"grad{i}": g for i, g in grads.items()})
    got.update({f"post{i}": p for i, p in enumerate(post)})
    for key, have in got.items():
        want = golden[f"{case.id}/{key}"]
        assert have.dtype == want.dtype and have.shape == want.shape, (key, have.dtype, have.shape,
                                                                       want.dtype, want.shape)
        half = "float16" in case.input_dtypes()
        rtol, atol = _tol("float16" if half else want.dtype)
        np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, err_msg=f"{case.id} {key}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    replay(case, golden)


# ---------------------------------------------------------------------------------------------
# BatchNorm details


def _bn_args(shape=(4, 3, 2), dtype=F64, axis=1):
    c = shape[axis]
    return (_a(rand(*shape), dtype), _a(np.linspace(0.5, 2, c), dtype),
            _a(np.linspace(-0.2, 0.3, c), dtype)) + _stats(c, dtype)


def test_bn_signature_and_outputs():
    names = list(inspect.signature(nd.BatchNorm).parameters)
    assert names[:14] == ["data", "gamma", "beta", "moving_mean", "moving_var", "eps", "momentum",
                          "fix_gamma", "use_global_stats", "output_mean_var", "axis", "cudnn_off",
                          "min_calib_range", "max_calib_range"]
    op = get_op("BatchNorm")
    attrs = op.parse_attrs({})
    assert attrs["fix_gamma"] is True and attrs["eps"] == pytest.approx(1e-3)
    assert op.aux_names(attrs) == ["moving_mean", "moving_var"]
    assert op.num_outputs(attrs) == 3 and op.num_visible_outputs(attrs) == 1
    assert isinstance(nd.BatchNorm(*_bn_args()), nd.NDArray)
    assert len(nd.BatchNorm(*_bn_args(), output_mean_var=True)) == 3


def test_bn_fix_gamma_overwrites_gamma_and_forward_leaves_stats():
    x, g, b, mm, mv = _bn_args()
    mm0, mv0 = mm.asnumpy().copy(), mv.asnumpy().copy()
    nd.BatchNorm(x, g, b, mm, mv)
    np.testing.assert_array_equal(g.asnumpy(), 1)
    with mx.autograd.record():
        nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False)
    # 1.9.1 updates the moving statistics in the backward pass only
    np.testing.assert_array_equal(mm.asnumpy(), mm0)
    np.testing.assert_array_equal(mv.asnumpy(), mv0)


def test_bn_moving_update_after_backward_uses_biased_variance():
    x, g, b, mm, mv = _bn_args()
    mm0, mv0 = mm.asnumpy().copy(), mv.asnumpy().copy()
    x.attach_grad()
    with mx.autograd.record():
        y = nd.BatchNorm(x, g, b, mm, mv, momentum=0.75)
    y.backward()
    xn = x.asnumpy()
    np.testing.assert_allclose(mm.asnumpy(), 0.75 * mm0 + 0.25 * xn.mean(axis=(0, 2)), rtol=1e-10)
    np.testing.assert_allclose(mv.asnumpy(), 0.75 * mv0 + 0.25 * xn.var(axis=(0, 2)), rtol=1e-10)


def test_bn_inference_uses_moving_stats():
    x, g, b, mm, mv = _bn_args()
    out, mean, invstd = nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, output_mean_var=True)
    c = (1, 3, 1)
    want = ((x.asnumpy() - mm.asnumpy().reshape(c)) / np.sqrt(mv.asnumpy().reshape(c) + 1e-3)
            * g.asnumpy().reshape(c) + b.asnumpy().reshape(c))
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-10)
    np.testing.assert_allclose(mean.asnumpy(), mm.asnumpy())
    np.testing.assert_allclose(invstd.asnumpy(), 1 / np.sqrt(mv.asnumpy() + 1e-3), rtol=1e-10)


def test_bn_float16_keeps_float32_parameters():
    x = _a(rand(4, 3, 2), "float16")
    g, b = _a(np.ones(3), "float32"), _a(np.zeros(3), "float32")
    mm, mv = _stats(3, "float32")
    with mx.autograd.record():
        out, mean, var = nd.BatchNorm(x, g, b, mm, mv, output_mean_var=True)
    assert out.dtype == np.float16 and mean.dtype == np.float32 and var.dtype == np.float32
    expect_error(nd.BatchNorm, x, _a(np.ones(3), "float16"), _a(np.zeros(3), "float16"),
                 *_stats(3, "float16"), match="float32")


def test_bn_and_sync_bn_infer_shape_and_type():
    op = get_op("BatchNorm")
    attrs = op.parse_attrs({"axis": -1})
    ins, outs, aux = op.infer_shape(attrs, [(2, 3, 5), None, None], [None, None, None])
    assert ins == [(2, 3, 5), (5,), (5,)] and outs == [(2, 3, 5), (5,), (5,)]
    assert aux == [(5,), (5,)]
    ins, outs, aux = op.infer_type(attrs, [np.dtype("float16"), None, None], [None] * 3)
    assert ins[1] == np.float32 and aux == [np.float32, np.float32] and outs[0] == np.float16
    sync = get_op("_contrib_SyncBatchNorm")
    _, _, aux = sync.infer_shape(sync.parse_attrs({"key": "k"}), [(2, 4, 3), None, None],
                                 [None] * 3)
    assert aux == [(4,), (4,)]


def test_sync_bn_matches_batch_norm_on_one_device():
    x, g, b, mm, mv = _bn_args(dtype="float32")
    with mx.autograd.record():
        want = nd.BatchNorm(x, g, b, *_stats(3, "float32"), fix_gamma=False).asnumpy()
        got = nd.contrib.SyncBatchNorm(x, g, b, mm, mv, key="k", fix_gamma=False).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_bn_errors():
    x, g, b, mm, mv = _bn_args()
    expect_error(nd.BatchNorm, x, g, b, mm, mv, axis=3, match="axis")
    expect_error(nd.BatchNorm, x, _a(np.ones(4)), b, mm, mv, match="gamma")
    expect_error(nd.BatchNorm, x, g, b, _a(np.ones(2)), mv, match="moving_mean")
    expect_error(nd.BatchNorm, x, *(_a(a.asnumpy(), "float32") for a in (g, b, mm, mv)),
                 match="float64")
    ints = [nd.array(np.ones(s), dtype="int32") for s in ((2, 3), 3, 3, 3, 3)]
    expect_error(nd.BatchNorm, *ints, match="floating point")
    expect_error(nd.BatchNorm, x, g, b, mm, match="moving_var")
    expect_error(nd.BatchNorm, x, g, b, mm, mv, momentum="fast", match="momentum")


# ---------------------------------------------------------------------------------------------
# LayerNorm, GroupNorm, InstanceNorm


def test_layer_norm_forward_and_outputs():
    x = rand(2, 3, 4)
    out, mean, std = nd.LayerNorm(_a(x), _a(np.ones(3)), _a(np.zeros(3)), axis=1,
                                  output_mean_var=True)
    m, v = x.mean(1, keepdims=True), x.var(1, keepdims=True)
    np.testing.assert_allclose(out.asnumpy(), (x - m) / np.sqrt(v + 1e-5), rtol=1e-6)
    assert mean.shape == (2, 1, 4) and std.shape == (2, 1, 4)
    np.testing.assert_allclose(std.asnumpy(), np.sqrt(v + 1e-5), rtol=1e-6)


def test_group_norm_parameters_are_per_group():
    op = get_op("GroupNorm")
    ins, outs, _ = op.infer_shape(op.parse_attrs({"num_groups": 2}), [(3, 4, 5), None, None],
                                  [None] * 3)
    assert ins[1:] == [(2,), (2,)] and outs[1:] == [(3, 2), (3, 2)]


def test_instance_norm_matches_group_norm_with_channel_groups():
    x = rand(2, 3, 4)
    inorm = nd.InstanceNorm(_a(x), _a(np.ones(3)), _a(np.zeros(3)), eps=1e-5)
    gnorm = nd.GroupNorm(_a(x), _a(np.ones(3)), _a(np.zeros(3)), num_groups=3, eps=1e-5)
    np.testing.assert_allclose(inorm.asnumpy(), gnorm.asnumpy(), rtol=1e-10)
    assert get_op("InstanceNorm").num_visible_outputs({"eps": 1e-3}) == 1


def test_norm_errors():
    x = _a(rand(2, 3))
    expect_error(nd.LayerNorm, x, _a(np.ones(3)), _a(np.ones(3)), axis=2, match="axis")
    expect_error(nd.LayerNorm, x, _a(np.ones(2)), _a(np.ones(2)), match="gamma")
    expect_error(nd.LayerNorm, _a(rand(2, 3), "float16"), _a(np.ones(3), "float32"),
                 _a(np.ones(3), "float32"), match="float16")
    x3 = _a(rand(2, 3, 2))
    expect_error(nd.GroupNorm, x3, _a(np.ones(2)), _a(np.ones(2)), num_groups=2, match="groups")
    expect_error(nd.GroupNorm, x, _a(np.ones(1)), _a(np.ones(1)), match="3 dimensions")
    expect_error(nd.GroupNorm, _a(rand(2, 4, 2)), _a(np.ones(4)), _a(np.ones(4)), num_groups=2,
                 match="gamma")
    expect_error(nd.InstanceNorm, x, _a(np.ones(3)), _a(np.ones(3)), match="3 dimensions")
    ints = [nd.array(np.ones(s), dtype="int32") for s in ((2, 3), 3, 3)]
    expect_error(nd.LayerNorm, *ints, match="floating point")


# ---------------------------------------------------------------------------------------------
# L2Normalization, LRN


def test_l2_normalization_modes():
    x = rand(2, 3, 2, 2)
    for mode, axes in (("instance", (1, 2, 3)), ("channel", (1,)), ("spatial", (2, 3))):
        got = nd.L2Normalization(_a(x), mode=mode, eps=0.5).asnumpy()
        np.testing.assert_allclose(got, x / np.sqrt((x * x).sum(axis=axes, keepdims=True) + 0.5),
                                   rtol=1e-10)
    expect_error(nd.L2Normalization, _a(rand(2, 3)), mode="channel", match="3 dimensions")
    expect_error(nd.L2Normalization, _a(rand(2, 3)), mode="bogus", match="mode")


def test_lrn_window_and_errors():
    x = np.arange(1.0, 6.0).reshape(1, 5, 1, 1)
    for nsize, window in ((2, [1, 4, 9, 16, 25]), (4, [5, 14, 29, 50, 41])):
        y = nd.LRN(_a(x), nsize=nsize, alpha=1.0, beta=1.0, knorm=0.0).asnumpy()
        np.testing.assert_allclose(x.ravel() / y.ravel() * nsize, window, rtol=1e-6)
    expect_error(nd.LRN, _a(rand(2, 3, 4)), nsize=3, match="4 dimensions")
    expect_error(nd.LRN, _a(rand(2, 3, 4, 4)), match="nsize")


def test_normalisation_keeps_float_dtypes():
    for dt in ("float16", "float32"):
        x = _a(rand(2, 4, 3), dt)
        outs = [nd.L2Normalization(x),
                nd.LayerNorm(x, _a(np.ones(3), dt), _a(np.zeros(3), dt)),
                nd.GroupNorm(x, _a(np.ones(2), dt), _a(np.zeros(2), dt), num_groups=2)]
        if dt == "float32":   # 1.9.1's CPU InstanceNorm and LRN reject float16
            outs.append(nd.InstanceNorm(x, _a(np.ones(4), dt), _a(np.zeros(4), dt)))
            outs.append(nd.LRN(_a(rand(2, 4, 3, 1), dt), nsize=3))
        assert all(np.dtype(o.dtype) == dt for o in outs)


def test_bn_gradients_ignore_the_mean_and_var_outputs():
    x, g, b, mm, mv = _bn_args()
    x.attach_grad()
    with mx.autograd.record():
        out, mean, var = nd.BatchNorm(x, g, b, mm, mv, output_mean_var=True)
    mx.autograd.backward([mean, var], [nd.ones_like(mean), nd.ones_like(var)])
    np.testing.assert_array_equal(x.grad.asnumpy(), 0)


# ---------------------------------------------------------------------------------------------
# the threaded kernels of large float32/float64 BatchNorm (past the exact range)


def _bn_reference(x, gamma, beta, g, eps, fix_gamma):
    """BatchNorm's training forward and gradients in float64, straight from the formulas."""
    x, g = x.astype(np.float64), g.astype(np.float64)
    w = np.ones_like(gamma, np.float64) if fix_gamma else gamma.astype(np.float64)
    axes = (0, 2, 3)
    mean = x.mean(axis=axes)
    var = ((x - mean[:, None, None]) ** 2).mean(axis=axes)
    inv = 1 / np.sqrt(var + eps)
    xhat = (x - mean[:, None, None]) * inv[:, None, None]
    y = xhat * w[:, None, None] + beta[:, None, None]
    n = x.size / x.shape[1]
    dbeta = g.sum(axis=axes)
    dgamma = (g * xhat).sum(axis=axes)
    dx = (w * inv)[:, None, None] * (g - dbeta[:, None, None] / n
                                     - xhat * dgamma[:, None, None] / n)
    return y, mean, var, inv, dx, dgamma, dbeta


@pytest.mark.parametrize("shape, offset", [((8, 16, 32, 36), 0.0), ((6, 3, 70, 80), 1000.0),
                                           ((40, 40, 9, 9), -3.0)])
@pytest.mark.parametrize("fix_gamma", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bn_threaded_kernels_match_float64_formulas(monkeypatch, shape, offset, fix_gamma,
                                                    dtype):
    """Training forward, moving statistics and gradients of inputs past the exact range
    (shifted sums: a mean of 1000 with unit spread keeps its variance), split over 1 to 3
    op threads with the same bits."""
    from mxnet.operator import _batch_threads, nn_norm
    monkeypatch.setattr(nn_norm, "_BN_THREADS_MIN", 1)
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    rng = np.random.default_rng(7)
    c = shape[1]
    x = (rng.standard_normal(shape) * 2 + offset).astype(dtype)
    gy = rng.standard_normal(shape).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, c).astype(dtype)
    beta = rng.uniform(-1, 1, c).astype(dtype)
    eps, momentum = 1e-3, 0.9
    assert x.size > nn_norm._BN_TRAIN_EXACT_MAX
    got = []
    for threads in (1, 2, 3):
        monkeypatch.setenv("MXNET_PY_OP_THREADS", str(threads))
        xs, gs, bs = _a(x, dtype), _a(gamma, dtype), _a(beta, dtype)
        mm, mv = nd.zeros((c,), dtype=dtype), nd.ones((c,), dtype=dtype)
        for a in (xs, gs, bs):
            a.attach_grad()
        with mx.autograd.record():
            y, mean, inv = nd.BatchNorm(xs, gs, bs, mm, mv, eps=eps, momentum=momentum,
                                        fix_gamma=fix_gamma, output_mean_var=True)
        y.backward(_a(gy, dtype))
        got.append([a.asnumpy() for a in (y, mean, inv, xs.grad, gs.grad, bs.grad, mm, mv)])
    for other in got[1:]:
        for a, b in zip(got[0], other):
            assert np.array_equal(a, b)
    y, mean, inv, dx, dgamma, dbeta, mm, mv = got[0]
    ry, rmean, rvar, rinv, rdx, rdgamma, rdbeta = _bn_reference(x, gamma, beta, gy, eps,
                                                                fix_gamma)
    tol = dict(rtol=2e-4, atol=2e-4) if dtype == "float32" else dict(rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(y, ry, **tol)
    np.testing.assert_allclose(mean, rmean, **tol)
    np.testing.assert_allclose(inv, rinv, **tol)
    np.testing.assert_allclose(dx, rdx, **tol)
    np.testing.assert_allclose(dgamma, 0 if fix_gamma else rdgamma,
                               rtol=tol["rtol"], atol=tol["atol"] * x.size / c)
    np.testing.assert_allclose(dbeta, rdbeta, rtol=tol["rtol"], atol=tol["atol"] * x.size / c)
    m = float(np.float32(momentum))   # a float parameter, as 1.9.1 reads it
    np.testing.assert_allclose(mm, (1 - m) * rmean, **tol)
    np.testing.assert_allclose(mv, m + (1 - m) * rvar, **tol)


def test_bn_threaded_inference_and_global_stats(monkeypatch):
    """Large inputs in inference mode, and with use_global_stats while training: the moving
    statistics normalise, x * scale + (beta - mean * scale)."""
    from mxnet.operator import _batch_threads, nn_norm
    monkeypatch.setattr(nn_norm, "_BN_THREADS_MIN", 1)
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    rng = np.random.default_rng(3)
    shape = (10, 12, 30, 30)
    x = rng.standard_normal(shape).astype(np.float32)
    gamma, beta = rng.uniform(0.5, 1.5, 12), rng.uniform(-1, 1, 12)
    mmv, mvv = rng.uniform(-1, 1, 12), rng.uniform(0.5, 2, 12)
    want = ((x - mmv[:, None, None]) / np.sqrt(mvv + 1e-3)[:, None, None]
            * gamma[:, None, None] + beta[:, None, None])
    args = [_a(v, "float32") for v in (x, gamma, beta, mmv, mvv)]
    y = nd.BatchNorm(*args, fix_gamma=False)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-5)
    with mx.autograd.record():
        y = nd.BatchNorm(*args, fix_gamma=False, use_global_stats=True)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_bn_threaded_channel_last_keeps_precision():
    """Channel-last data (axis=-1) makes thousands of one-pixel 'images': their partial sums
    are added pairwise, so the output stays within a few float32 ulps of the float64
    formulas (a running sum over the images was ~10x further off)."""
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((4, 30, 30, 80)) * 2 + 1).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, 80).astype(np.float32)
    beta = rng.uniform(-1, 1, 80).astype(np.float32)
    xs = _a(x, "float32")
    with mx.autograd.record():
        y = nd.BatchNorm(xs, _a(gamma, "float32"), _a(beta, "float32"), nd.zeros(80),
                         nd.ones(80), axis=-1, fix_gamma=False, eps=1e-3)
    xd = x.astype(np.float64)
    mean, var = xd.mean(axis=(0, 1, 2)), xd.var(axis=(0, 1, 2))
    want = (xd - mean) / np.sqrt(var + 1e-3) * gamma + beta
    assert np.abs(y.asnumpy() - want).max() < 1e-5
