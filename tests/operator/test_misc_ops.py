"""Miscellaneous operators (mxnet/operator/misc_ops.py): 1.9.1 golden forward/backward and
state, numeric gradients, symbol inference and errors."""
from __future__ import annotations

import inspect
import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .._scripts import load_script
from .harness import (GradCase, check_grad_case, expect_error, golden_case_results,
                      load_golden_npz, positive, rand)

nd = mx.nd
F32, F64 = "float32", "float64"

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "misc_ops.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_misc_ops.py")


def _load_table():
    return load_script("tools/golden/gen_misc_ops.py")


_TABLE = _load_table()


def _a(x, dtype=F32):
    return nd.array(np.asarray(x), dtype=dtype)


# ---------------------------------------------------------------------------------------------
# numeric gradients


def _bn_v1(**kw):
    def fn(x, g, b):
        c = g.shape[0]
        mm, mv = _a(np.linspace(0.1, 0.3, c), F64), _a(np.linspace(0.5, 1.5, c), F64)
        return nd.BatchNorm_v1(x, g, b, mm, mv, **kw)
    return fn


def _moments_sum(x):
    mean, var = nd.moments(x, axes=(0, 2))
    return [mean, var]


_HS_X = np.array([[-4.0, -1.3, 0.2], [0.9, 2.1, 3.7]])  # both saturated sides and the slope

GRAD_CASES = [
    GradCase("hard_sigmoid", lambda x: nd.hard_sigmoid(x, alpha=0.3, beta=0.4), [_HS_X],
             ops=("hard_sigmoid",)),
    GradCase("cumsum_flat", lambda x: nd.cumsum(x), [rand(2, 3, 2)], ops=("_np_cumsum",)),
    GradCase("cumsum_axis", lambda x: nd.cumsum(x, axis=1, dtype=F64), [rand(3, 4)],
             ops=("_np_cumsum",)),
    GradCase("moments", _moments_sum, [rand(2, 3, 2)], ops=("moments",)),
    GradCase("moments_keepdims", lambda x: nd.moments(x, axes=(1,), keepdims=True),
             [rand(3, 4, seed=1)], ops=("moments",)),
    GradCase("cast_storage", lambda x: nd.cast_storage(x, stype="default"), [rand(2, 3)],
             ops=("cast_storage",)),
    GradCase("amp_cast", lambda x: nd.amp_cast(x, dtype="float16"), [rand(2, 3)],
             ops=("amp_cast",)),
    GradCase("amp_multicast", lambda x, y: nd.amp_multicast(x, y, num_outputs=2),
             [rand(2, 3), rand(3, seed=1)], ops=("amp_multicast",)),
    GradCase("im2col", lambda x: nd.im2col(x, kernel=(2, 3), stride=(2, 1), dilate=(1, 2),
                                           pad=(1, 0)), [rand(1, 2, 5, 6)], ops=("im2col",)),
    GradCase("im2col_1d", lambda x: nd.im2col(x, kernel=(3,), pad=(1,)), [rand(2, 2, 5)],
             ops=("im2col",)),
    GradCase("col2im", lambda x: nd.col2im(x, output_size=(4, 4), kernel=(2, 2)),
             [rand(1, 8, 9)], ops=("col2im",)),
    GradCase("correlation", lambda a, b: nd.Correlation(a, b, kernel_size=3, max_displacement=1,
                                                        pad_size=1),
             [rand(1, 2, 4, 5), rand(1, 2, 4, 5, seed=1)], ops=("Correlation",)),
    GradCase("correlation_sub", lambda a, b: nd.Correlation(a, b, max_displacement=2, stride2=2,
                                                            is_multiply=False),
             [rand(1, 2, 5, 5), rand(1, 2, 5, 5, seed=1)], ops=("Correlation",)),
    GradCase("batchnorm_v1", _bn_v1(fix_gamma=False), [rand(4, 3, 2, 1), positive(3),
                                                       rand(3, seed=2)], ops=("BatchNorm_v1",)),
    GradCase("batchnorm_v1_fix_gamma", _bn_v1(eps=0.1), [rand(3, 2, 2, 2), positive(2),
                                                         rand(2, seed=2)], wrt=[0, 2],
             ops=("BatchNorm_v1",)),
    GradCase("convolution_v1", lambda x, w, b: nd.Convolution_v1(x, w, b, kernel=(2, 2),
                                                                 num_filter=2, pad=(1, 0)),
             [rand(2, 2, 3, 3), rand(2, 2, 2, 2, seed=1), rand(2, seed=2)],
             ops=("Convolution_v1",)),
    GradCase("pooling_v1_max", lambda x: nd.Pooling_v1(x, kernel=(2, 2), stride=(2, 2),
                                                       pad=(1, 1), pooling_convention="full"),
             [rand(1, 2, 5, 4)], ops=("Pooling_v1",)),
    GradCase("pooling_v1_avg", lambda x: nd.Pooling_v1(x, kernel=(2, 3), pool_type="avg",
                                                       stride=(3, 2), pooling_convention="full"),
             [rand(1, 2, 5, 6)], ops=("Pooling_v1",)),
]

# khatri_rao ... multi_all_finite have no gradient in 1.9.1 (backward raises); ravel/unravel
# have a zero gradient; IdentityAttachKLSparseReg's gradient adds a penalty on purpose (it is
# not the derivative of its identity forward), so it is checked against 1.9.1 goldens.
NON_DIFFERENTIABLE = ("khatri_rao", "_histogram", "fill_element_0index", "_onehot_encode",
                      "reset_arrays", "all_finite", "multi_all_finite", "_ravel_multi_index",
                      "_unravel_index", "IdentityAttachKLSparseReg")


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward, backward and state after the call


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(dtype):
    return {"float16": (1e-2, 1e-2), "float32": (2e-5, 2e-6)}.get(np.dtype(dtype).name,
                                                                  (1e-9, 1e-12))


@pytest.mark.parametrize("case", _TABLE.CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    half = "float16" in case.input_dtypes()
    for key, have, want in golden_case_results(_TABLE, case, golden):
        if want.dtype.kind in "biu":
            np.testing.assert_array_equal(have, want, err_msg=f"{case.id} {key}")
            continue
        rtol, atol = _tol("float16" if half else want.dtype)
        if case.op == "Correlation" or case.op.startswith("BatchNorm"):
            rtol, atol = rtol * 10, atol * 10  # long float32 sums in a different order
        np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, err_msg=f"{case.id} {key}")


# ---------------------------------------------------------------------------------------------
# names, signatures, symbols

_NAMES = ("BatchNorm_v1", "Convolution_v1", "Correlation", "IdentityAttachKLSparseReg",
          "Pooling_v1", "all_finite", "amp_cast", "amp_multicast", "cast_storage",
          "choose_element_0index", "col2im", "cumsum", "fill_element_0index", "hard_sigmoid",
          "im2col", "khatri_rao", "moments", "multi_all_finite", "ravel_multi_index",
          "reset_arrays", "unravel_index")


def test_public_names():
    for name in _NAMES:
        assert callable(getattr(nd, name)), name
        assert callable(getattr(mx.sym, name)), name
    assert callable(nd._internal._histogram) and callable(nd._internal._onehot_encode)


def test_signatures():
    assert list(inspect.signature(nd.cumsum).parameters)[:3] == ["a", "axis", "dtype"]
    assert list(inspect.signature(nd.hard_sigmoid).parameters)[:3] == ["data", "alpha", "beta"]
    assert list(inspect.signature(nd.Correlation).parameters)[:8] == [
        "data1", "data2", "kernel_size", "max_displacement", "stride1", "stride2", "pad_size",
        "is_multiply"]
    attrs = get_op("IdentityAttachKLSparseReg").parse_attrs({})
    assert attrs == {"sparseness_target": 0.1, "penalty": 0.001, "momentum": 0.9}
    assert get_op("hard_sigmoid").parse_attrs({}) == {"alpha": 0.2, "beta": 0.5}


def test_registered_names_in_json():
    """1.9.1 writes the registered names: _np_cumsum, pick, _ravel_multi_index."""
    a = mx.sym.var("a")
    for sym, op in ((mx.sym.cumsum(a, axis=1), "_np_cumsum"),
                    (mx.sym.choose_element_0index(a, mx.sym.var("i")), "pick"),
                    (mx.sym.ravel_multi_index(a, shape=(2, 3)), "_ravel_multi_index"),
                    (mx.sym.unravel_index(a, shape=(2, 3)), "_unravel_index")):
        assert json.loads(sym.tojson())["nodes"][-1]["op"] == op


def test_symbol_outputs_and_inference():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    corr = mx.sym.Correlation(a, b, kernel_size=3, max_displacement=2, stride2=2, pad_size=1)
    assert len(corr.list_outputs()) == 1
    assert json.loads(corr.tojson())["node_row_ptr"] == [0, 1, 2, 5]  # 3 outputs, 1 visible
    assert corr.infer_shape(a=(2, 3, 6, 7), b=(2, 3, 6, 7))[1] == [(2, 9, 2, 3)]
    mom = mx.sym.moments(a, axes=(1,))
    assert [n.split("_")[-1] for n in mom.list_outputs()] == ["output0", "output1"]
    assert mom.infer_shape(a=(2, 3))[1] == [(2,), (2,)]
    assert mom.infer_type(a=F64)[1] == [np.float64, np.float64]
    assert mx.sym.im2col(a, kernel=(2, 3), stride=(2, 1), dilate=(1, 2), pad=(1, 0)).infer_shape(
        a=(2, 3, 5, 6))[1] == [(2, 18, 6)]
    assert mx.sym.col2im(a, output_size=(5, 6), kernel=(2, 3), stride=(2, 1), dilate=(1, 2),
                         pad=(1, 0)).infer_shape(a=(2, 18, 6))[1] == [(2, 3, 5, 6)]
    kl = mx.sym.IdentityAttachKLSparseReg(a)
    assert kl.infer_shape(a=(4, 3)) == ([(4, 3)], [(4, 3)], [(3,)])
    bn = mx.sym.BatchNorm_v1(a, output_mean_var=True)
    assert len(bn.list_outputs()) == 3 and len(bn.list_auxiliary_states()) == 2
    assert bn.infer_shape(a=(4, 3, 2, 2))[2] == [(3,), (3,)]
    assert mx.sym.Pooling_v1(a, kernel=(2, 2), stride=(3, 3), pad=(1, 1),
                             pooling_convention="full").infer_shape(a=(2, 3, 7, 6))[1] == [
        (2, 3, 4, 3)]
    conv = mx.sym.Convolution_v1(a, kernel=(3, 3), num_filter=2)
    assert conv.infer_shape(a=(1, 3, 5, 5))[0] == [(1, 3, 5, 5), (2, 3, 3, 3), (2,)]
    assert mx.sym.cumsum(a).infer_shape(a=(2, 3))[1] == [(6,)]
    assert mx.sym.cumsum(a, dtype="int64").infer_type(a=F32)[1] == [np.int64]
    assert mx.sym.amp_multicast(a, b, num_outputs=2).infer_type(a="float16", b=F32)[1] == [
        np.float32, np.float32]
    assert mx.sym.all_finite(a).infer_type(a=F64)[1] == [np.float32]


# ---------------------------------------------------------------------------------------------
# semantics the goldens do not pin down


def test_cumsum_negative_axis_and_dtypes():
    x = rand(2, 3, 4)
    np.testing.assert_allclose(nd.cumsum(_a(x), axis=-1).asnumpy(), np.cumsum(x, -1), rtol=1e-6)
    assert nd.cumsum(_a([1, 2], "uint8")).dtype == np.uint8
    assert nd.cumsum(_a([[1, 2]], "int32"), dtype="int64").dtype == np.int64


def test_choose_element_0index_is_pick():
    assert get_op("choose_element_0index") is get_op("pick")


def test_reset_arrays_zeroes_in_place_and_returns_nothing():
    a, b = _a(rand(2, 3)), _a(rand(4), F64)
    assert nd.reset_arrays(a, b, num_arrays=2) == []
    assert not a.asnumpy().any() and not b.asnumpy().any()


def test_all_finite_outputs():
    assert nd.all_finite(_a([1, 2]), init_output=False).asnumpy().tolist() == [1.0]
    out = nd.zeros((1,))
    nd.multi_all_finite(_a([1.0]), _a([np.nan]), num_arrays=2, out=out)
    assert out.asnumpy().tolist() == [0.0] and out.dtype == np.float32


def test_amp_multicast_gradient_dtypes():
    x, y = _a([1.5, 2.5], "float16"), _a([1.0, 2.0])
    x.attach_grad()
    y.attach_grad()
    with mx.autograd.record():
        p, q = nd.amp_multicast(x, y, num_outputs=2)
    assert p.dtype == q.dtype == np.float32
    mx.autograd.backward([p, q])
    assert x.grad.dtype == np.float16 and y.grad.dtype == np.float32


def test_im2col_col2im_adjoint():
    """<im2col(x), c> == <x, col2im(c)> for every geometry."""
    kw = {"kernel": (2, 3), "stride": (2, 1), "dilate": (1, 2), "pad": (1, 1)}
    x, c = rand(2, 3, 5, 6), rand(2, 18, 12, seed=1)
    lhs = (nd.im2col(_a(x, F64), **kw).asnumpy() * c).sum()
    rhs = (x * nd.col2im(_a(c, F64), output_size=(5, 6), **kw).asnumpy()).sum()
    np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


def test_convolution_v1_matches_convolution():
    x, w, b = _a(rand(2, 3, 5, 5)), _a(rand(4, 3, 3, 2, seed=1)), _a(rand(4, seed=2))
    kw = {"kernel": (3, 2), "num_filter": 4, "stride": (2, 1), "pad": (1, 0)}
    np.testing.assert_array_equal(nd.Convolution_v1(x, w, b, **kw).asnumpy(),
                                  nd.Convolution(x, w, b, **kw).asnumpy())


def test_pooling_v1_max_sees_zero_padding():
    x = _a(-np.ones((1, 1, 2, 2)))
    out = nd.Pooling_v1(x, kernel=(2, 2), stride=(2, 2), pad=(1, 1))
    assert out.asnumpy().ravel().tolist() == [0.0, 0.0, 0.0, 0.0]
    assert nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pad=(1, 1)).asnumpy().max() == -1.0


def test_batchnorm_v1_third_output_is_variance():
    x = rand(4, 3, 2, 2)
    g, b = _a(np.ones(3)), _a(np.zeros(3))
    mm, mv = _a(np.zeros(3)), _a(np.ones(3))
    with mx.autograd.record():
        _, mean, var = nd.BatchNorm_v1(_a(x), g, b, mm, mv, output_mean_var=True)
    np.testing.assert_allclose(mean.asnumpy(), x.mean(axis=(0, 2, 3)), rtol=1e-5)
    np.testing.assert_allclose(var.asnumpy(), x.var(axis=(0, 2, 3)), rtol=1e-4)


def test_non_differentiable_ops_raise_in_backward():
    a = _a(rand(3, 2))
    a.attach_grad()
    with mx.autograd.record():
        y = nd.khatri_rao(a, a)
    expect_error(y.backward, match="non-differentiable")


# ---------------------------------------------------------------------------------------------
# errors


def test_errors_elementwise_and_statistics():
    expect_error(nd.hard_sigmoid, _a([1, 2], "int32"), match="floating")
    expect_error(nd.moments, _a(rand(2, 3)), match="axes")
    expect_error(nd.moments, _a(rand(2, 3)), axes=(2,), match="out of range")
    expect_error(nd.cumsum, _a(rand(2, 3)), axis=2, match="out of range")
    expect_error(nd.all_finite, _a([1, 2], "int32"), match="floating")
    expect_error(nd.multi_all_finite, _a([1.0]), _a([1.0], F64), num_arrays=2, match="dtype")
    expect_error(nd.reset_arrays, _a([1, 2], "int32"), num_arrays=1, match="floating")


def test_errors_index_ops():
    expect_error(nd.khatri_rao, _a(rand(3, 2)), _a(rand(2, 3)), match="columns")
    expect_error(nd.khatri_rao, _a(rand(3)), match="matri")
    expect_error(nd.khatri_rao, _a(rand(3, 2)), _a(rand(2, 2), F64), match="dtype")
    expect_error(nd.ravel_multi_index, _a([[1, 2]]), shape=(7, 6), match="(2, N)")
    expect_error(nd.ravel_multi_index, _a([[1, 2], [3, 4]]), match="shape")
    expect_error(nd.unravel_index, _a([[1, 2]]), shape=(7, 6), match="1-D")
    expect_error(nd.unravel_index, _a([1, 2]), shape=(7, 0), match="zero")
    expect_error(nd.fill_element_0index, _a(rand(3, 4)), _a([1, 2]), _a([0, 1, 2]),
                 match="length")
    expect_error(nd.fill_element_0index, _a(rand(3, 4, 1)), _a([1, 2, 3]), _a([0, 1, 2]),
                 match="matrix")
    expect_error(nd._internal._onehot_encode, _a([1, 2]), _a(np.zeros((3, 4))), match="rows")


def test_errors_histogram():
    h = nd._internal._histogram
    x = _a(rand(10))
    expect_error(h, x, bin_cnt=4, match="together")
    expect_error(h, x, bin_cnt=4, range=(3, 0), match="low <= high")
    expect_error(h, x, _a([0, 1, 2], F64), match="dtype")
    expect_error(h, x, bin_cnt=0, range=(0, 1), match="positive")


def test_errors_casts():
    expect_error(nd.cast_storage, _a(rand(2, 2)), stype="bogus", match="bogus")
    expect_error(nd.amp_cast, _a(rand(2)), dtype="int16", match="dtype")


def test_errors_blocks_and_correlation():
    x = _a(rand(1, 2, 4, 4))
    expect_error(nd.im2col, x, kernel=(5, 2), match="exceeds")
    expect_error(nd.im2col, x, kernel=(2,), match="3-D")
    expect_error(nd.im2col, x, kernel=(2, 2), stride=(0, 1), match=">= 1")
    expect_error(nd.col2im, _a(rand(1, 8, 9)), output_size=(4, 5), kernel=(2, 2),
                 match="blocks")
    expect_error(nd.col2im, _a(rand(1, 7, 9)), output_size=(4, 4), kernel=(2, 2),
                 match="multiple")
    expect_error(nd.col2im, _a(rand(1, 8, 9)), output_size=(4,), kernel=(2, 2),
                 match="output_size")
    expect_error(nd.Correlation, x, x, kernel_size=2, match="odd")
    expect_error(nd.Correlation, x, x, max_displacement=3, match="do not fit")
    expect_error(nd.Correlation, x, _a(rand(1, 3, 4, 4)), match="same shape")


def test_errors_legacy_layers():
    expect_error(nd.Pooling_v1, _a(rand(1, 1, 3, 3)), kernel=(4, 4), match="exceeds")
    expect_error(nd.Pooling_v1, _a(rand(1, 1, 3, 3)), kernel=(2,), match="kernel")
    expect_error(nd.BatchNorm_v1, _a(rand(2, 3, 2)), _a(np.ones(2)), _a(np.zeros(3)),
                 _a(np.zeros(3)), _a(np.ones(3)), match="gamma")
    a = _a(rand(2, 3, 2))
    ma = _a(np.full(3, 0.5))
    a.attach_grad()
    with mx.autograd.record():
        y = nd.IdentityAttachKLSparseReg(a, ma)
    expect_error(y.backward, match="2-D")
