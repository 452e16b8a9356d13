"""dot, batch_dot and mx.nd.linalg: 1.9.1 golden forward/backward, numeric gradients, errors."""
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
la = nd.linalg

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "linalg.npz"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_linalg.py"


def _load_table():
    return load_script("tools/golden/gen_linalg.py")


_TABLE = _load_table()


def _cond(n, seed=0, batch=()):
    return rand(*batch, n, n, seed=seed) + n * np.eye(n)


def _lower(n, seed=0):
    return np.tril(rand(n, n, seed=seed)) + 2 * np.eye(n)


def _T(x):
    return nd.op._matrix_transpose(x)


# ---------------------------------------------------------------------------------------------
# numeric gradients

GRAD_CASES = [
    GradCase("dot", lambda a, b: nd.dot(a, b), [rand(2, 3), rand(3, 4, seed=1)], ops=("dot",)),
    GradCase("dot_tab", lambda a, b: nd.dot(a, b, transpose_a=True, transpose_b=True),
             [rand(3, 2), rand(4, 3, seed=1)], ops=("dot",)),
    GradCase("dot_nd_ta", lambda a, b: nd.dot(a, b, transpose_a=True),
             [rand(2, 3, 2), rand(2, 4, seed=1)], ops=("dot",)),
    GradCase("dot_nd_tb", lambda a, b: nd.dot(a, b, transpose_b=True),
             [rand(2, 3, 2), rand(3, 2, 2, seed=1)], ops=("dot",)),
    GradCase("dot_vec", lambda a, b: nd.dot(a, b), [rand(3), rand(3, seed=1)], ops=("dot",)),
    GradCase("backward_dot", lambda g, a, b: nd.op._backward_dot(g, a, b, transpose_b=True),
             [rand(2, 3, 4, seed=2), rand(2, 3, 2), rand(4, 2, seed=1)], ops=("_backward_dot",)),
    GradCase("backward_dot_ta", lambda g, a, b: nd.op._backward_dot(g, a, b, transpose_a=True),
             [rand(3, 4, seed=2), rand(2, 3), rand(2, 4, seed=1)], ops=("_backward_dot",)),
    GradCase("batch_dot", lambda a, b: nd.batch_dot(a, b), [rand(2, 2, 3), rand(2, 3, 4, seed=1)],
             ops=("batch_dot",)),
    GradCase("batch_dot_tab", lambda a, b: nd.batch_dot(a, b, transpose_a=True, transpose_b=True),
             [rand(2, 3, 2), rand(2, 4, 3, seed=1)], ops=("batch_dot",)),
    GradCase("gemm", lambda a, b, c: la.gemm(a, b, c, alpha=1.5, beta=-0.5),
             [rand(2, 3), rand(3, 4, seed=1), rand(2, 4, seed=2)], ops=("_linalg_gemm",)),
    GradCase("gemm_axis", lambda a, b, c: la.gemm(a, b, c, axis=0, transpose_a=True),
             [rand(3, 2, 4), rand(3, 2, 5, seed=1), rand(4, 2, 5, seed=2)], ops=("_linalg_gemm",)),
    GradCase("gemm2_ta", lambda a, b: la.gemm2(a, b, transpose_a=True, alpha=2.0),
             [rand(2, 3, 2), rand(2, 3, 4, seed=1)], ops=("_linalg_gemm2",)),
    GradCase("gemm2_tb", lambda a, b: la.gemm2(a, b, transpose_b=True),
             [rand(2, 3), rand(4, 3, seed=1)], ops=("_linalg_gemm2",)),
    GradCase("gemm2_axis1", lambda a, b: la.gemm2(a, b, axis=1, transpose_b=True),
             [rand(2, 3, 2, 4), rand(2, 2, 2, 4, seed=1)], ops=("_linalg_gemm2",)),
    GradCase("matrix_transpose", lambda a: _T(a), [rand(2, 3, 4)], ops=("_matrix_transpose",)),
    GradCase("matrix_tril", lambda a: nd.op._matrix_tril(a, offset=1, lower=False), [rand(3, 3)],
             ops=("_matrix_tril",)),
    GradCase("trmm", lambda a, b: la.trmm(a, b, alpha=1.5), [_cond(3), rand(3, 2, seed=1)],
             ops=("_linalg_trmm",)),
    GradCase("trmm_right_upper_t", lambda a, b: la.trmm(a, b, rightside=True, lower=False,
                                                          transpose=True),
             [_cond(3, batch=(2,)), rand(2, 2, 3, seed=1)], ops=("_linalg_trmm",)),
    GradCase("trsm", lambda a, b: la.trsm(a, b, alpha=-2.0), [_cond(3), rand(3, 2, seed=1)],
             ops=("_linalg_trsm",)),
    GradCase("trsm_t", lambda a, b: la.trsm(a, b, transpose=True, lower=False),
             [_cond(3), rand(3, 2, seed=1)], ops=("_linalg_trsm",)),
    GradCase("trsm_right", lambda a, b: la.trsm(a, b, rightside=True, transpose=True),
             [_cond(3, batch=(2,)), rand(2, 1, 3, seed=1)], ops=("_linalg_trsm",)),
    GradCase("syrk", lambda a: la.syrk(a, alpha=0.5), [rand(2, 3)], ops=("_linalg_syrk",)),
    GradCase("syrk_t", lambda a: la.syrk(a, transpose=True), [rand(2, 2, 3)], ops=("_linalg_syrk",)),
    GradCase("potrf", lambda a: la.potrf(la.syrk(a)), [_cond(3)], ops=("_linalg_potrf",)),
    GradCase("potrf_upper_batched", lambda a: la.potrf(la.syrk(a), lower=False),
             [_cond(3, batch=(2,))], ops=("_linalg_potrf",)),
    GradCase("potri", lambda a: la.potri(a), [_lower(3)], ops=("_linalg_potri",)),
    GradCase("potri_upper", lambda a: la.potri(a, lower=False), [_lower(3).T.copy()],
             ops=("_linalg_potri",)),
    GradCase("gelqf", lambda a: la.gelqf(a), [rand(2, 4)], ops=("_linalg_gelqf",)),
    GradCase("gelqf_batched", lambda a: la.gelqf(a), [rand(2, 3, 3) + 2 * np.eye(3)],
             ops=("_linalg_gelqf",)),
    GradCase("syevd", lambda a: la.syevd(a + _T(a)),
             [rand(3, 3) + np.diag([0.0, 1.5, 3.0])], ops=("_linalg_syevd",)),
    GradCase("inverse", lambda a: la.inverse(a), [_cond(3, batch=(2,))], ops=("_linalg_inverse",)),
    GradCase("det", lambda a: la.det(a), [_cond(3)], ops=("_linalg_det",)),
    GradCase("det_batched", lambda a: la.det(a), [-_cond(2, batch=(3,))], ops=("_linalg_det",)),
    GradCase("slogdet", lambda a: la.slogdet(a), [-_cond(3)], ops=("_linalg_slogdet",)),
    GradCase("slogdet_batched", lambda a: la.slogdet(a), [_cond(2, batch=(2,))],
             ops=("_linalg_slogdet",)),
    GradCase("sumlogdiag", lambda a: la.sumlogdiag(a), [_cond(3)], ops=("_linalg_sumlogdiag",)),
    GradCase("sumlogdiag_batched", lambda a: la.sumlogdiag(a), [_cond(3, batch=(2,))],
             ops=("_linalg_sumlogdiag",)),
    GradCase("extractdiag", lambda a: la.extractdiag(a, offset=-1), [rand(2, 3, 3)],
             ops=("_linalg_extractdiag",)),
    GradCase("makediag", lambda a: la.makediag(a, offset=2), [rand(2, 3)], ops=("_linalg_makediag",)),
    GradCase("extracttrian", lambda a: la.extracttrian(a, lower=False), [rand(3, 3)],
             ops=("_linalg_extracttrian",)),
    GradCase("extracttrian_off", lambda a: la.extracttrian(a, offset=1), [rand(2, 4, 4)],
             ops=("_linalg_extracttrian",)),
    GradCase("maketrian", lambda a: la.maketrian(a, offset=-1), [rand(2, 6)],
             ops=("_linalg_maketrian",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def test_second_order_through_dot():
    """dot's gradient is itself differentiable (via _backward_dot)."""
    a = nd.array(rand(2, 3), dtype="float64")
    b = nd.array(rand(3, 2, seed=1), dtype="float64")
    a.attach_grad()
    with mx.autograd.record():
        y = nd.dot(a, b)
        (ga,) = mx.autograd.grad(nd.sum(y * y), [a], create_graph=True)
        z = nd.sum(ga * ga)
    z.backward()
    an, bn = a.asnumpy(), b.asnumpy()
    # z = ||2 (a b) b^T||^2, dz/da = 8 (a b b^T) b b^T
    bbt = bn @ bn.T
    np.testing.assert_allclose(a.grad.asnumpy(), 8 * an @ bbt @ bbt, rtol=1e-10)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward and backward


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(dtype):
    return (1e-4, 1e-5) if dtype == "float32" else (1e-7, 1e-9)


@pytest.mark.parametrize("case", _TABLE.CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    n_out = sum(1 for k in golden if k.startswith(f"{case.id}/out"))
    inputs = [golden[f"{case.id}/in{i}"] for i in range(len(case.inputs))]
    heads = [golden[f"{case.id}/head{j}"] for j in range(n_out)]
    outs, _, grads = _TABLE.run_case(mx, case, inputs=inputs, heads=heads)
    rtol, atol = _tol(case.dtype)
    assert len(outs) == n_out
    for j, o in enumerate(outs):
        want = golden[f"{case.id}/out{j}"]
        assert o.dtype == want.dtype and o.shape == want.shape, (j, o.dtype, o.shape, want.shape)
        np.testing.assert_allclose(o, want, rtol=rtol, atol=atol, err_msg=f"output {j}")
    for i, g in enumerate(grads):
        want = golden[f"{case.id}/grad{i}"]
        assert g.shape == want.shape
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


# ---------------------------------------------------------------------------------------------
# forward details


def test_dot_nd_semantics():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    b = np.arange(24, dtype=np.float32).reshape(4, 3, 2)
    np.testing.assert_array_equal(nd.dot(nd.array(a), nd.array(b)).asnumpy(),
                                  np.tensordot(a, b, axes=(2, 0)))
    r = np.arange(8, dtype=np.float32).reshape(2, 4)
    got = nd.dot(nd.array(a), nd.array(r), transpose_a=True).asnumpy()
    np.testing.assert_array_equal(got, np.tensordot(a, r, axes=(0, 0)))
    assert nd.dot(nd.array([1.0, 2.0]), nd.array([3.0, 4.0])).shape == (1,)


def test_per_matrix_results_of_one_matrix_have_shape_1():
    a = nd.array(_cond(3))
    assert la.det(a).shape == (1,)
    assert [x.shape for x in la.slogdet(a)] == [(1,), (1,)]
    assert la.sumlogdiag(a).shape == (1,)


def test_triangular_inputs_read_one_triangle():
    a = np.array([[1.0, 9.0], [2.0, 3.0]])
    np.testing.assert_array_equal(la.trmm(nd.array(a), nd.array(np.eye(2))).asnumpy(), np.tril(a))
    s = np.array([[4.0, -100.0], [2.0, 3.0]])
    np.testing.assert_allclose(la.potrf(nd.array(s)).asnumpy(),
                               np.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 3.0]])), rtol=1e-6)
    u = la.potrf(nd.array([[4.0, 2.0], [77.0, 3.0]]), lower=False).asnumpy()
    np.testing.assert_allclose(u.T @ u, [[4.0, 2.0], [2.0, 3.0]], rtol=1e-6)


def test_trsm_singular_gives_inf_like_blas():
    out = la.trsm(nd.array([[0.0, 0.0], [1.0, 1.0]]), nd.ones((2, 1))).asnumpy()
    assert np.isinf(out).all()


def test_syevd_sign_convention_and_order():
    x = rand(4, 4, seed=3)
    s = x + x.T
    u, lam = la.syevd(nd.array(s, dtype="float64"))
    u, lam = u.asnumpy(), lam.asnumpy()
    assert np.all(np.diff(lam) >= 0)
    np.testing.assert_allclose(u @ s, lam[:, None] * u, atol=1e-10)
    big = u[np.arange(4), np.abs(u).argmax(axis=1)]
    assert np.all(big > 0)


def test_gelqf_factorizes():
    a = rand(2, 3, 5, seed=4)
    q, lo = la.gelqf(nd.array(a, dtype="float64"))
    q, lo = q.asnumpy(), lo.asnumpy()
    np.testing.assert_allclose(lo @ q, a, atol=1e-12)
    np.testing.assert_allclose(q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(3), (2, 3, 3)),
                               atol=1e-12)
    assert np.all(np.triu(lo, 1) == 0)


def test_packed_triangle_layout():
    a = nd.arange(16).reshape((4, 4))
    assert la.extracttrian(a).asnumpy().tolist() == [0, 4, 5, 8, 9, 10, 12, 13, 14, 15]
    assert la.extracttrian(a, lower=False).asnumpy().tolist() == [0, 1, 5, 2, 6, 10, 3, 7, 11, 15]
    assert la.extracttrian(a, offset=1).asnumpy().tolist() == [1, 2, 6, 3, 7, 11]
    assert la.extracttrian(a, offset=-1, lower=False).asnumpy().tolist() == [4, 8, 9, 12, 13, 14]
    v = nd.arange(1, 7)
    for off, low in [(0, True), (0, False), (1, True), (-1, False)]:
        m = la.maketrian(v, offset=off, lower=low)
        assert la.extracttrian(m, offset=off, lower=low).asnumpy().tolist() == list(range(1, 7))


def test_outputs_keep_dtype():
    for dt in ("float32", "float64"):
        a = nd.array(_cond(3), dtype=dt)
        for out in [nd.dot(a, a), la.gemm2(a, a), la.potrf(la.syrk(a)), la.inverse(a), la.det(a),
                    *la.slogdet(a), *la.gelqf(a), *la.syevd(a), la.extracttrian(a)]:
            assert out.dtype == np.dtype(dt)


def test_public_names_and_signatures():
    for name in ("gemm", "gemm2", "potrf", "potri", "trsm", "trmm", "syrk", "gelqf", "sumlogdiag",
                 "extractdiag", "makediag", "extracttrian", "maketrian", "inverse", "det",
                 "slogdet"):
        assert callable(getattr(nd, f"linalg_{name}"))
        assert callable(getattr(la, name))
    assert callable(la.syevd) and not hasattr(nd, "linalg_syevd")
    params = list(inspect.signature(la.gemm).parameters)
    assert params[:8] == ["A", "B", "C", "transpose_a", "transpose_b", "alpha", "beta", "axis"]
    params = list(inspect.signature(la.trsm).parameters)
    assert params[:6] == ["A", "B", "transpose", "rightside", "lower", "alpha"]
    assert list(inspect.signature(nd.dot).parameters)[:5] == ["lhs", "rhs", "transpose_a",
                                                              "transpose_b", "forward_stype"]
    # positional parameters follow the inputs, as in 1.9.1
    a = nd.array(rand(2, 3))
    np.testing.assert_allclose(la.gemm2(a, a, False, True, 2.0).asnumpy(),
                               2 * a.asnumpy() @ a.asnumpy().T, rtol=1e-6)


def test_dot_forward_stype_is_accepted():
    a = nd.ones((2, 3))
    assert nd.dot(a, a, transpose_b=True, forward_stype="default").shape == (2, 2)
    expect_error(nd.dot, a, a, transpose_b=True, forward_stype="dense")


def test_infer_shape():
    def inf(name, shapes, **kw):
        op = get_op(name)
        attrs = op.parse_attrs(kw)
        return op.infer_shape(attrs, shapes, [None] * op.num_outputs(attrs))[1]

    assert inf("dot", [(2, 3, 4), (4, 5)]) == [(2, 3, 5)]
    assert inf("dot", [(2, 3, 4), (2, 5)], transpose_a=True) == [(3, 4, 5)]
    assert inf("dot", [(3,), (3,)]) == [(1,)]
    assert inf("batch_dot", [(2, 3, 4), (2, 3, 5)], transpose_a=True) == [(2, 4, 5)]
    assert inf("_linalg_gemm2", [(2, 3, 4, 5), (2, 6, 4, 5)], axis=1, transpose_b=True) == [
        (2, 3, 4, 6)]
    assert inf("_linalg_gemm", [(2, 3), (3, 4), None]) == [(2, 4)]
    assert inf("_linalg_syrk", [(2, 3)], transpose=True) == [(3, 3)]
    assert inf("_linalg_gelqf", [(2, 3)]) == [(2, 3), (2, 2)]
    assert inf("_linalg_syevd", [(2, 3, 3)]) == [(2, 3, 3), (2, 3)]
    # with the hidden LU factors and pivots 1.9.1 keeps
    assert inf("_linalg_det", [(3, 3)]) == [(1,), (3, 3), (3,)]
    assert inf("_linalg_slogdet", [(2, 3, 3)]) == [(2,), (2,), (2, 3, 3), (2, 3)]
    assert inf("_linalg_makediag", [(2, 3)], offset=1) == [(2, 4, 4)]
    assert inf("_linalg_maketrian", [(2, 3)], offset=1) == [(2, 3, 3)]
    assert inf("_linalg_extracttrian", [(2, 3, 3)], offset=1) == [(2, 3)]
    assert inf("_linalg_extractdiag", [(3, 3)], offset=-1) == [(2,)]
    assert inf("_linalg_trsm", [(3, 3), (3, 2)]) == [(3, 2)]
    assert inf("_linalg_potrf", [None]) == [None]


# ---------------------------------------------------------------------------------------------
# errors


def test_dot_errors():
    a = nd.ones((2, 3))
    expect_error(nd.dot, a, a, match="dot")
    expect_error(nd.dot, nd.ones((2, 3), dtype="int32"), nd.ones((3, 2), dtype="int32"),
                 match="int32")
    expect_error(nd.dot, a, nd.ones((3, 2), dtype="float64"), match="dtype")
    expect_error(nd.dot, nd.ones((3,)), nd.ones((3,)), transpose_a=True, match="transpose")
    if mx.current_context().device_type != "gpu":  # float16 dot exists on GPUs only
        expect_error(nd.dot, nd.ones((2, 3), dtype="float16"), nd.ones((3, 2), dtype="float16"),
                     match="float16")
    expect_error(nd.dot, nd.ones((2, 3, 4)), nd.ones((3, 4, 2)), transpose_b=True, match="(3, 4, 2)")


def test_batch_dot_errors():
    expect_error(nd.batch_dot, nd.ones((2, 2)), nd.ones((2, 2)), match="N >= 3")
    expect_error(nd.batch_dot, nd.ones((2, 2, 3)), nd.ones((1, 3, 2)), match="batch")
    expect_error(nd.batch_dot, nd.ones((2, 3, 4)), nd.ones((2, 3, 5)), match="(2, 3, 5)")
    expect_error(nd.batch_dot, nd.ones((2, 2, 3, 4)), nd.ones((2, 4, 5)), match="batch_dot")


def test_gemm_errors():
    a, b = nd.ones((2, 3)), nd.ones((3, 4))
    expect_error(la.gemm, a, b, a, match="C")
    expect_error(la.gemm2, a, a, match="incompatible")
    expect_error(la.gemm2, a, b, axis=-1, match="row axis")
    expect_error(la.gemm2, nd.ones((2, 2, 3)), nd.ones((3, 3, 2)), match="same shape")
    expect_error(la.gemm2, nd.ones((3,)), nd.ones((3,)), match="ndim")
    expect_error(la.gemm2, nd.ones((2, 2), dtype="int32"), nd.ones((2, 2), dtype="int32"),
                 match="float32 or float64")
    expect_error(la.gemm, a, b, nd.ones((2, 4), dtype="float64"), match="dtype")


def test_factorization_errors():
    expect_error(la.potrf, nd.array([[1.0, 2.0], [2.0, 1.0]]), match="positive definite")
    expect_error(la.potrf, nd.ones((2, 3)), match="square")
    expect_error(la.potrf, nd.ones((2, 2), dtype="float16"), match="float16")
    expect_error(la.potri, nd.array([[0.0, 0.0], [1.0, 3.0]]), match="_linalg_potri")
    expect_error(la.gelqf, nd.ones((3, 2)), match="rows")
    expect_error(la.syevd, nd.ones((2, 3)), match="square")
    expect_error(la.inverse, nd.array([[1.0, 2.0], [2.0, 4.0]]), match="singular")
    expect_error(la.det, nd.ones((2, 3)), match="square")
    expect_error(la.det, nd.ones((3,)), match="ndim >= 2")
    expect_error(la.sumlogdiag, nd.ones((2, 3)), match="square")


def test_triangular_errors():
    expect_error(la.trsm, nd.ones((2, 3)), nd.ones((3, 2)), match="square")
    expect_error(la.trsm, nd.ones((2, 2)), nd.ones((3, 1)), match="rows")
    expect_error(la.trmm, nd.ones((2, 2)), nd.ones((1, 3)), rightside=True, match="columns")
    expect_error(la.trsm, nd.ones((3, 2, 2)), nd.ones((2, 2, 2)), match="same shape")
    expect_error(la.trmm, nd.ones((2, 2)), nd.ones((2, 2), dtype="float64"), match="dtype")


def test_diag_trian_errors():
    expect_error(la.extractdiag, nd.ones((3, 4)), match="square")
    expect_error(la.extractdiag, nd.ones((3, 3)), offset=3, match="offset")
    expect_error(la.extracttrian, nd.ones((3, 3)), offset=-3, match="offset")
    expect_error(la.maketrian, nd.ones((4,)), match="triangular number")
    expect_error(la.makediag, nd.ones((2,), dtype="int32"), match="int32")


def test_singular_det_gradient_is_zero():
    a = nd.array([[1.0, 2.0], [2.0, 4.0]], dtype="float64")
    a.attach_grad()
    with mx.autograd.record():
        d = la.det(a)
    d.backward()
    assert np.all(a.grad.asnumpy() == 0)
    a.attach_grad()
    with mx.autograd.record():
        s = la.slogdet(a)[1]
    s.backward()
    assert np.all(a.grad.asnumpy() == 0)
