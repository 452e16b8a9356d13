"""The NumPy-semantics operators (mxnet/operator/np_ops.py): gradients against central
differences. Values and dtypes against 1.9.1 are in tests/test_np/."""
import numpy as np
import pytest

import mxnet as mx
import mxnet.numpy  # noqa: F401  (registers the NumPy-interface operators)
from mxnet.operator.np_ops import COMPARISONS, LOGICAL, SCALAR_OPS, UNARY

from .harness import GradCase, check_grad_case, positive, rand

F = mx.nd.op

NON_DIFFERENTIABLE = tuple(COMPARISONS) + tuple(LOGICAL) + ("_npi_around", "_npi_argsort",
    "_npi_argmax", "_npi_argmin", "_npi_ones_like", "_npi_zeros_like", "_npi_sign", "_npi_floor",
    "_npi_ceil", "_npi_trunc", "_npi_rint", "_npi_fix", "_npi_full_like", "_npi_where_scalar2",
    "_npi_lcm", "_npi_gcd", "_npi_bitwise_and", "_npi_bitwise_or", "_npi_bitwise_xor",
    "_npi_bitwise_not", "_npi_isposinf", "_npi_isneginf", "_npi_percentile",
    # 1.9.1 gives these zero gradients
    "_npi_eigh", "_npi_eigvalsh", "_npi_eig", "_npi_eigvals", "_npi_pinv_scalar_rcond",
    "_npi_unique")

_DOMAIN = {"arcsin": (-0.9, 0.9), "arccos": (-0.9, 0.9), "arctanh": (-0.9, 0.9),
           "arccosh": (1.2, 3.0), "log": (0.5, 2.0), "log10": (0.5, 2.0), "log2": (0.5, 2.0),
           "sqrt": (0.5, 2.0), "cbrt": (0.5, 2.0), "reciprocal": (0.5, 2.0), "log1p": (0.0, 2.0),
           "tan": (-1.0, 1.0)}


def _unary_cases():
    cases = []
    for name in UNARY:
        if f"_npi_{name}" in NON_DIFFERENTIABLE:
            continue
        lo, hi = _DOMAIN.get(name, (-2.0, 2.0))
        x = np.random.RandomState(1).uniform(lo, hi, size=(3, 4))
        if name in ("relu", "abs"):
            x[np.abs(x) < 0.1] = 0.5
        op = getattr(F, f"_npi_{name}")
        cases.append(GradCase(f"_npi_{name}", (lambda f: (lambda a: f(a)))(op), [x],
                              ops=(f"_npi_{name}",)))
    return cases


def _binary_cases():
    cases = []
    for kind in ("add", "subtract", "multiply", "true_divide", "mod", "power", "maximum",
                 "minimum"):
        a, b = positive(2, 3, seed=2), positive(1, 3, seed=3) + 0.3
        if kind in ("maximum", "minimum"):
            b = b + 0.05
        if kind == "mod":
            a = a + 1.7
        cases.append(GradCase(f"_npi_{kind}", (lambda f: (lambda p, q: f(p, q)))(
            getattr(F, f"_npi_{kind}")), [a, b], ops=(f"_npi_{kind}",)))
    for name in SCALAR_OPS:
        x = positive(2, 3, seed=4) + 0.2
        s = 0.7 if "mod" in name else 1.3
        cases.append(GradCase(name, (lambda f, s: (lambda p: f(p, scalar=s, is_int=False)))(
            getattr(F, name), s), [x], ops=(name,)))
    return cases


def _red(name, **kw):
    return GradCase(f"{name}_{kw}", (lambda f: (lambda p: f(p, **kw)))(getattr(F, name)),
                    [positive(3, 4, seed=5)], ops=(name,))


def _sym(p):
    """The symmetric part of p (a positive definite input for cholesky)."""
    return F._npi_multiply_scalar(F._npi_add(p, F._npi_swapaxes(p, dim1=-1, dim2=-2)), scalar=0.5)


GRAD_CASES = _unary_cases() + _binary_cases() + [
    _red("_npi_sum"), _red("_npi_sum", axis=(1,)), _red("_npi_mean", axis=(0,), keepdims=True),
    _red("_np_prod", axis=(1,)), _red("_np_max", axis=(1,)), _red("_np_min"),
    _red("_npi_std", axis=(1,)), _red("_npi_var"), _red("_npi_var", axis=(0,), ddof=1),
    _red("_npi_std", ddof=1),
    GradCase("sum_to_like", lambda g, x: F._np_sum_to_like(g, x), [rand(2, 3), rand(1, 3)],
             ops=("_np_sum_to_like",), wrt=[0]),
    GradCase("reshape", lambda p: F._np_reshape(p, newshape=(3, -1)), [rand(2, 3, 2)],
             ops=("_np_reshape",)),
    GradCase("npx_reshape", lambda p: F._npx_reshape(p, newshape=(-2, -1)), [rand(2, 3, 2)],
             ops=("_npx_reshape",)),
    GradCase("transpose", lambda p: F._np_transpose(p, axes=(1, 2, 0)), [rand(2, 3, 2)],
             ops=("_np_transpose",)),
    GradCase("swapaxes", lambda p: F._npi_swapaxes(p, dim1=0, dim2=2), [rand(2, 3, 2)],
             ops=("_npi_swapaxes",)),
    GradCase("expand_dims", lambda p: F._npi_expand_dims(p, axis=1), [rand(2, 3)],
             ops=("_npi_expand_dims",)),
    GradCase("squeeze", lambda p: F._np_squeeze(p), [rand(2, 1, 3)], ops=("_np_squeeze",)),
    GradCase("broadcast_to", lambda p: F._np_broadcast_to(p, shape=(4, 2, 3)), [rand(2, 1)],
             ops=("_np_broadcast_to",)),
    GradCase("concatenate", lambda p, q: F._npi_concatenate(p, q, axis=1),
             [rand(2, 3), rand(2, 2, seed=1)], ops=("_npi_concatenate",)),
    GradCase("concatenate_flat", lambda p, q: F._npi_concatenate(p, q, axis=None),
             [rand(2, 3), rand(2, 2, seed=1)], ops=("_npi_concatenate",)),
    GradCase("stack", lambda p, q: F._npi_stack(p, q, axis=1), [rand(2, 3), rand(2, 3, seed=1)],
             ops=("_npi_stack",)),
    GradCase("split", lambda p: F._npi_split(p, sections=3, axis=1), [rand(2, 6)],
             ops=("_npi_split",)),
    GradCase("split_idx", lambda p: F._npi_split(p, indices=(1, 4), axis=1)[1], [rand(2, 6)],
             ops=("_npi_split",)),
    GradCase("tile", lambda p: F._npi_tile(p, reps=(2, 1, 3)), [rand(2, 3)], ops=("_npi_tile",)),
    GradCase("repeat", lambda p: F._np_repeat(p, repeats=2, axis=1), [rand(2, 3)],
             ops=("_np_repeat",)),
    GradCase("repeat_flat", lambda p: F._np_repeat(p, repeats=3), [rand(2, 3)],
             ops=("_np_repeat",)),
    GradCase("where", lambda c, p, q: F._npi_where(c, p, q),
             [np.array([[1.0, 0.0, 1.0]]), rand(2, 3), rand(1, 3, seed=1)], ops=("_npi_where",),
             wrt=[1, 2]),
    GradCase("clip", lambda p: F._npi_clip(p, a_min=-0.5, a_max=0.4), [rand(3, 4)],
             ops=("_npi_clip",)),
    GradCase("tensordot", lambda p, q: F._npi_tensordot(p, q, a_axes_summed=(0, 2),
                                                        b_axes_summed=(2, 0)),
             [rand(2, 3, 4), rand(4, 5, 2, seed=1)], ops=("_npi_tensordot",)),
    GradCase("matmul", lambda p, q: F._npi_matmul(p, q), [rand(2, 1, 3, 4), rand(3, 4, 2, seed=1)],
             ops=("_npi_matmul",)),
    GradCase("norm2", lambda p: F._npi_norm(p, axis=(1,)), [rand(3, 4)], ops=("_npi_norm",)),
    GradCase("norm_fro", lambda p: F._npi_norm(p), [rand(3, 4)], ops=("_npi_norm",)),
    GradCase("norm1", lambda p: F._npi_norm(p, ord=1, axis=(0,)), [rand(3, 4) + 2],
             ops=("_npi_norm",)),
    GradCase("getitem", lambda p: F._np_getitem(p, key=(slice(None), np.array([2, 0, 2]))),
             [rand(3, 4)], ops=("_np_getitem",)),
    GradCase("flip", lambda p: F._npi_flip(p, axis=(1,)), [rand(2, 3)], ops=("_npi_flip",)),
    GradCase("sort", lambda p: F._npi_sort(p, axis=0), [rand(4, 3)], ops=("_npi_sort",)),
    GradCase("sort_flat", lambda p: F._npi_sort(p, axis=None), [rand(2, 3)], ops=("_npi_sort",)),
    GradCase("take_along", lambda p: F._np_take_along(p, mx.nd.array([[2, 0, 1], [1, 2, 0]],
                                                                      dtype="int64"), axis=1),
             [rand(2, 3)], ops=("_np_take_along",)),
    GradCase("getitem_mask", lambda p: F._np_getitem(p, key=np.array([True, False, True])),
             [rand(3, 4)], ops=("_np_getitem",)),
    # 1.9.1's graph names (mx.sym.np front ends) and the further mx.np operators
    GradCase("absolute", lambda p: F._npi_absolute(p), [positive(2, 3) - 1.25],
             ops=("_npi_absolute",)),
    GradCase("npx_relu", lambda p: F._npx_relu(p), [positive(2, 3) - 1.25], ops=("_npx_relu",)),
    GradCase("npx_sigmoid", lambda p: F._npx_sigmoid(p), [rand(2, 3)], ops=("_npx_sigmoid",)),
    GradCase("npi_broadcast_to", lambda p: F._npi_broadcast_to(p, shape=(3, 2, 4)),
             [rand(2, 1)], ops=("_npi_broadcast_to",)),
    GradCase("np_sum", lambda p: F._np_sum(p, axis=(0,), initial=2.0), [rand(3, 4)],
             ops=("_np_sum",)),
    GradCase("np_dot", lambda p, q: F._np_dot(p, q), [rand(2, 3, 4), rand(5, 4, 2, seed=1)],
             ops=("_np_dot",)),
    GradCase("np_dot_vec", lambda p, q: F._np_dot(p, q), [rand(4), rand(4, 3, seed=1)],
             ops=("_np_dot",)),
    GradCase("np_dot_scalar", lambda p, q: F._np_dot(p, q), [rand(2, 3), rand(seed=1)],
             ops=("_np_dot",)),
    GradCase("tensordot_int", lambda p, q: F._npi_tensordot_int_axes(p, q, axes=2),
             [rand(2, 3, 4), rand(3, 4, 2, seed=1)], ops=("_npi_tensordot_int_axes",)),
    GradCase("hstack", lambda p, q: F._npi_hstack(p, q), [rand(2, 3), rand(2, 1, seed=1)],
             ops=("_npi_hstack",)),
    GradCase("vstack", lambda p, q: F._npi_vstack(p, q), [rand(3), rand(2, 3, seed=1)],
             ops=("_npi_vstack",)),
    GradCase("column_stack", lambda p, q: F._npi_column_stack(p, q), [rand(3), rand(3, 2, seed=1)],
             ops=("_npi_column_stack",)),
    GradCase("dstack", lambda p, q: F._npi_dstack(p, q), [rand(2, 3), rand(2, 3, 2, seed=1)],
             ops=("_npi_dstack",)),
    GradCase("moveaxis", lambda p: F._np_moveaxis(p, source=(0, 1), destination=(2, 0)),
             [rand(2, 3, 4)], ops=("_np_moveaxis",)),
    GradCase("where_lscalar", lambda c, p: F._npi_where_lscalar(c, p, scalar=2.0),
             [np.array([[1.0, 0.0, 1.0]]), rand(2, 3)], ops=("_npi_where_lscalar",), wrt=[1]),
    GradCase("where_rscalar", lambda c, p: F._npi_where_rscalar(c, p, scalar=2.0),
             [np.array([[1.0, 0.0, 1.0]]), rand(2, 3)], ops=("_npi_where_rscalar",), wrt=[1]),
    GradCase("take", lambda p: F._npi_take(p, mx.nd.array([2, 0, 2], dtype="int64"), axis=1),
             [rand(2, 3)], ops=("_npi_take",)),
    GradCase("take_flat_clip", lambda p: F._npi_take(p, mx.nd.array([7, 0, 5], dtype="int64"),
                                                     mode="clip"), [rand(2, 3)], ops=("_npi_take",)),
    GradCase("tril", lambda p: F._npi_tril(p, k=-1), [rand(3, 4)], ops=("_npi_tril",)),
    GradCase("triu", lambda p: F._npi_tril(p, k=1, lower=False), [rand(2, 3, 4)],
             ops=("_npi_tril",)),
    GradCase("diagonal", lambda p: F._np_diagonal(p, offset=1, axis1=1, axis2=2), [rand(2, 3, 4)],
             ops=("_np_diagonal",)),
    GradCase("trace", lambda p: F._np_trace(p, offset=-1), [rand(3, 4, 2)], ops=("_np_trace",)),
    GradCase("diag_2d", lambda p: F._np_diag(p, k=1), [rand(3, 4)], ops=("_np_diag",)),
    GradCase("diag_1d", lambda p: F._np_diag(p, k=-1), [rand(3)], ops=("_np_diag",)),
    GradCase("roll", lambda p: F._np_roll(p, shift=(1, -2), axis=(0, 1)), [rand(2, 3)],
             ops=("_np_roll",)),
    GradCase("roll_flat", lambda p: F._np_roll(p, shift=(4,)), [rand(2, 3)], ops=("_np_roll",)),
    GradCase("rot90", lambda p: F._npi_rot90(p, k=1, axes=(0, 1)), [rand(2, 3)],
             ops=("_npi_rot90",)),
    GradCase("rot90_3", lambda p: F._npi_rot90(p, k=3, axes=(1, 2)), [rand(2, 3, 4)],
             ops=("_npi_rot90",)),
    GradCase("pad", lambda p: F._npi_pad(p, pad_width=((1, 0), (2, 1))), [rand(2, 3)],
             ops=("_npi_pad",)),
    GradCase("hypot", lambda p, q: F._npi_hypot(p, q), [positive(2, 3), positive(1, 3, seed=1)],
             ops=("_npi_hypot",)),
    GradCase("arctan2", lambda p, q: F._npi_arctan2(p, q), [rand(2, 3), positive(2, 3, seed=1)],
             ops=("_npi_arctan2",)),
    GradCase("copysign", lambda p, q: F._npi_copysign(p, q), [positive(2, 3), rand(2, 3, seed=1)],
             ops=("_npi_copysign",), wrt=[0]),
    GradCase("ldexp", lambda p, q: F._npi_ldexp(p, q), [rand(2, 3), rand(1, 3, seed=1)],
             ops=("_npi_ldexp",)),
    GradCase("nan_to_num", lambda p: F._npi_nan_to_num(p), [rand(2, 3)], ops=("_npi_nan_to_num",)),
    GradCase("einsum_mm", lambda p, q: F._npi_einsum(p, q, subscripts="ij,kj->ik", num_args=2),
             [rand(2, 3), rand(4, 3, seed=1)], ops=("_npi_einsum",)),
    GradCase("einsum_sum", lambda p, q: F._npi_einsum(p, q, subscripts="ijk,k->j", num_args=2),
             [rand(2, 3, 4), rand(4, seed=1)], ops=("_npi_einsum",)),
    GradCase("inv", lambda p: F._npi_inv(p), [rand(2, 3, 3) + 3 * np.eye(3)], ops=("_npi_inv",)),
    GradCase("det", lambda p: F._npi_det(p), [rand(2, 3, 3) + 2 * np.eye(3)], ops=("_npi_det",)),
    GradCase("svd_l", lambda p: F._npi_svd(p)[1], [rand(2, 3, 4)], ops=("_npi_svd",)),
    GradCase("svd_v", lambda p: F._npi_svd(p)[2], [rand(3, 4)], ops=("_npi_svd",)),
    GradCase("cholesky", lambda p: F._npi_cholesky(_sym(p)), [rand(2, 3, 3) + 3 * np.eye(3)],
             ops=("_npi_cholesky",)),
    GradCase("tensorinv", lambda p: F._npi_tensorinv(p, ind=1),
             [rand(4, 2, 2) + 3 * np.eye(4).reshape(4, 2, 2)], ops=("_npi_tensorinv",)),
    GradCase("tensorsolve", lambda p, q: F._npi_tensorsolve(p, q, a_axes=(0,)),
             [rand(6, 2, 3) + 3 * np.eye(6).reshape(6, 2, 3), rand(2, 3, seed=1)],
             ops=("_npi_tensorsolve",)),
    GradCase("slogdet", lambda p: F._npi_slogdet(p)[1], [rand(3, 3) + 2 * np.eye(3)],
             ops=("_npi_slogdet",)),
    GradCase("solve_vec", lambda p, q: F._npi_solve(p, q), [rand(3, 3) + 3 * np.eye(3),
                                                           rand(3, seed=1)], ops=("_npi_solve",)),
    GradCase("solve_mat", lambda p, q: F._npi_solve(p, q), [rand(2, 3, 3) + 3 * np.eye(3),
                                                           rand(2, 3, 2, seed=1)],
             ops=("_npi_solve",)),
    GradCase("np_copy", lambda p: F._np_copy(p), [rand(2, 3)], ops=("_np_copy",)),
    GradCase("diagflat", lambda p: F._np_diagflat(p, k=1), [rand(2, 2)], ops=("_np_diagflat",)),
    GradCase("atleast_1d", lambda p: F._np_atleast_1d(p), [rand()], ops=("_np_atleast_1d",)),
    GradCase("atleast_2d", lambda p, q: F._np_atleast_2d(p, q)[1], [rand(3), rand(2, 3, seed=1)],
             ops=("_np_atleast_2d",)),
    GradCase("atleast_3d", lambda p: F._np_atleast_3d(p), [rand(3, 2)], ops=("_np_atleast_3d",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)
