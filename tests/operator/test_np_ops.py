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
    "_npi_ceil", "_npi_trunc", "_npi_rint", "_npi_fix")

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
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)
