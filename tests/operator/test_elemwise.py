"""Elementwise and reduction operators: gradients against central differences, errors."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.elemwise import _UNARY

from .harness import GradCase, check_grad_case, expect_error, positive, rand

nd = mx.nd

_DOMAIN = {"arcsin": (-0.9, 0.9), "arccos": (-0.9, 0.9), "arctanh": (-0.9, 0.9),
           "arccosh": (1.2, 3.0), "log": (0.5, 2.0), "log10": (0.5, 2.0), "log2": (0.5, 2.0),
           "sqrt": (0.5, 2.0), "rsqrt": (0.5, 2.0), "cbrt": (0.5, 2.0), "rcbrt": (0.5, 2.0),
           "reciprocal": (0.5, 2.0), "log1p": (0.0, 2.0), "tan": (-1.0, 1.0)}
_NONDIFF = {"sign", "round", "rint", "ceil", "floor", "trunc", "fix"}

GRAD_CASES = []
for _name, _k, _r in _UNARY:
    lo, hi = _DOMAIN.get(_name, (-2.0, 2.0))
    x = np.random.RandomState(1).uniform(lo, hi, size=(3, 4))
    if _name in ("relu", "abs"):
        x[np.abs(x) < 0.1] = 0.5
    GRAD_CASES.append(GradCase(_name, (lambda f: (lambda a: f(a)))(getattr(nd, _name)), [x],
                               ops=(_name,)))

_BIN = ["add", "sub", "mul", "div", "mod", "power", "maximum", "minimum", "hypot"]
for _b in _BIN:
    a, b = positive(2, 3, seed=2), positive(1, 3, seed=3) + 0.3
    if _b in ("maximum", "minimum"):
        b = b + 0.05
    if _b == "mod":
        a = a + 1.7
    GRAD_CASES.append(GradCase(f"broadcast_{_b}", (lambda f: (lambda p, q: f(p, q)))(
        getattr(nd, f"broadcast_{_b}")), [a, b], ops=(f"broadcast_{_b}",)))
    en = {"add": "elemwise_add", "sub": "elemwise_sub", "mul": "elemwise_mul",
          "div": "elemwise_div"}.get(_b, f"_{_b}")
    GRAD_CASES.append(GradCase(en, (lambda f: (lambda p, q: f(p, q)))(getattr(nd.op, en)),
                               [a, np.broadcast_to(b, a.shape).copy()], ops=(en,)))

for _s in ["_plus_scalar", "_minus_scalar", "_rminus_scalar", "_mul_scalar", "_div_scalar",
           "_rdiv_scalar", "_power_scalar", "_rpower_scalar", "_maximum_scalar",
           "_minimum_scalar", "_hypot_scalar", "_mod_scalar", "_rmod_scalar"]:
    GRAD_CASES.append(GradCase(_s, (lambda f: (lambda p: f(p, scalar=1.3)))(getattr(nd.op, _s)),
                               [positive(2, 3, seed=4) + 0.2], ops=(_s,)))

for _red in ["sum", "mean", "prod", "max", "min", "nansum", "nanprod"]:
    GRAD_CASES.append(GradCase(f"{_red}_axis1", (lambda f: (lambda p: f(p, axis=1)))(
        getattr(nd, _red)), [positive(3, 4, seed=5)], ops=(_red,)))
    GRAD_CASES.append(GradCase(f"{_red}_all_keep", (lambda f: (lambda p: f(p, axis=(0, 2),
                                                                             keepdims=True)))(
        getattr(nd, _red)), [positive(2, 3, 2, seed=6)], ops=(_red,)))
GRAD_CASES += [
    GradCase("norm2", lambda p: nd.norm(p, axis=1), [rand(3, 4)], ops=("norm",)),
    GradCase("_square_sum", lambda p: nd._internal._square_sum(p, axis=1, keepdims=True),
             [rand(3, 4)], ops=("_square_sum",)),
    GradCase("norm1", lambda p: nd.norm(p, ord=1), [rand(3, 4) + 2], ops=("norm",)),
    GradCase("add_n", lambda p, q, r: nd.add_n(p, q, r), [rand(2, 2), rand(2, 2, seed=1),
                                                        rand(2, 2, seed=2)], ops=("add_n",)),
    GradCase("reshape", lambda p: nd.reshape(p, shape=(0, -1)), [rand(2, 3, 2)], ops=("Reshape",)),
    GradCase("flatten", lambda p: nd.flatten(p), [rand(2, 3, 2)], ops=("Flatten",)),
    GradCase("broadcast_to", lambda p: nd.broadcast_to(p, shape=(3, 4)), [rand(1, 4)],
             ops=("broadcast_to",)),
    GradCase("broadcast_axis", lambda p: nd.broadcast_axis(p, axis=0, size=3), [rand(1, 4)],
             ops=("broadcast_axis",)),
    GradCase("broadcast_like", lambda p, q: nd.broadcast_like(p, q), [rand(1, 4), rand(3, 4)],
             ops=("broadcast_like",), wrt=[0]),
    GradCase("reshape_like", lambda p, q: nd.reshape_like(p, q), [rand(6), rand(2, 3)],
             ops=("reshape_like",), wrt=[0]),
    GradCase("cast", lambda p: nd.cast(p, dtype="float64"), [rand(3)], ops=("Cast",)),
    GradCase("copy", lambda p: nd.op._copy(p), [rand(3)], ops=("_copy",)),
    GradCase("index", lambda p: p[1:, ::2] * 2, [rand(3, 4)], ops=("_index",)),
    GradCase("index_adv", lambda p: p[[0, 2, 0]], [rand(3, 4)], ops=("_index",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def test_issue_example():
    x = nd.array([[1, 2], [3, 4]])
    x.attach_grad()
    with mx.autograd.record():
        y = (x * x + nd.exp(x)).sum()
    y.backward()
    xv = np.array([[1, 2], [3, 4]], dtype=np.float64)
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * xv + np.exp(xv), rtol=1e-6)


def test_binary_dtype_mismatch_raises():
    e = expect_error(lambda: nd.array([1, 2]) + nd.array([1, 2], dtype="int32"), match="broadcast_add")
    assert "int32" in str(e) and "float32" in str(e)


def test_elemwise_shape_mismatch_raises():
    expect_error(nd.elemwise_add, nd.ones((2, 3)), nd.ones((3, 2)), match="elemwise_add")


def test_scalar_is_cast_to_array_dtype():
    x = nd.array([1, 2, 3], dtype="int32")
    assert (x * 1.5).asnumpy().tolist() == [1, 2, 3]
    assert (x / 2).asnumpy().tolist() == [0, 1, 1]
    assert (x > 1.5).dtype == np.int32
    y = nd.array([1, 2, 3], dtype="uint8")
    assert (y - 5).asnumpy().tolist() == [252, 253, 254]


def test_int_division_truncates():
    a = nd.array([-7, 7, -7], dtype="int32")
    b = nd.array([2, -2, -2], dtype="int32")
    assert (a / b).asnumpy().tolist() == [-3, -3, 3]


def test_bad_param_raises():
    expect_error(nd.sum, nd.ones((2, 2)), axis=5, match="axis")
    expect_error(lambda: nd.sum(nd.ones((2, 2)), bogus=1), match="bogus")


# piecewise-constant ops: the analytic gradient is zero, and so is the difference quotient
# away from ties (inputs are drawn so no element sits on a boundary)
_CMP = ["equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal",
        "logical_and", "logical_or", "logical_xor"]
for _c in _CMP:
    GRAD_CASES.append(GradCase(f"broadcast_{_c}", (lambda f: (lambda p, q: f(p, q)))(
        getattr(nd, f"broadcast_{_c}")), [rand(2, 3), rand(1, 3, seed=9)], ops=(f"broadcast_{_c}",)))
    GRAD_CASES.append(GradCase(f"_{_c}", (lambda f: (lambda p, q: f(p, q)))(getattr(nd.op, f"_{_c}")),
                               [rand(2, 3), rand(2, 3, seed=9)], ops=(f"_{_c}",)))
    GRAD_CASES.append(GradCase(f"_{_c}_scalar", (lambda f: (lambda p: f(p, scalar=0.25)))(
        getattr(nd.op, f"_{_c}_scalar")), [rand(2, 3)], ops=(f"_{_c}_scalar",)))
GRAD_CASES += [
    GradCase("logical_not", lambda p: nd.logical_not(p), [rand(2, 3)], ops=("logical_not",)),
    GradCase("argmax", lambda p: nd.argmax(p, axis=1), [rand(3, 4)], ops=("argmax",)),
    GradCase("argmin", lambda p: nd.argmin(p, axis=0), [rand(3, 4)], ops=("argmin",)),
    GradCase("argmax_channel", lambda p: nd.argmax_channel(p), [rand(3, 4)], ops=("argmax_channel",)),
    GradCase("zeros_like", lambda p: nd.zeros_like(p) + p * 0, [rand(2, 2)], ops=("zeros_like",)),
    GradCase("ones_like", lambda p: nd.ones_like(p) * p, [rand(2, 2)], ops=("ones_like",)),
    GradCase("full_like", lambda p: nd.full_like(p, fill_value=3.0) * p, [rand(2, 2)], ops=("full_like",)),
    GradCase("copyto_cpu1", lambda p: (p.copyto(mx.cpu(1)) * 2).copyto(mx.cpu(0)), [rand(2, 2)],
             ops=("_copyto",)),
    GradCase("reduce_to_shape_of", lambda p, q: nd.op._reduce_to_shape_of(p, q), [rand(3, 4), rand(1, 4)],
             ops=("_reduce_to_shape_of",), wrt=[0]),
]

NON_DIFFERENTIABLE = ("BlockGrad",)


def test_blockgrad_stops_gradient():
    x = nd.array([1.0, 2.0])
    x.attach_grad()
    with mx.autograd.record():
        y = (nd.BlockGrad(x * 2) + x).sum()
    y.backward()
    assert x.grad.asnumpy().tolist() == [1.0, 1.0]
