"""Special functions (gamma, gammaln, erf, erfinv, _digamma): values, gradients, dtypes.

Forward values are compared with MXNet 1.9.1's (``tests/golden/special.npz``, written by
``tools/golden/gen_special.py``); a few high-precision reference values check accuracy where
1.9.1 itself is inaccurate (erfinv close to +-1, digamma).
"""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx

from .harness import GradCase, check_grad_case, rand

nd = mx.nd
REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "special.npz"
_spec = importlib.util.spec_from_file_location("gen_special", REPO / "tools" / "golden" / "gen_special.py")
GEN = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GEN)

EPS64 = float(np.finfo(np.float64).eps)
DBL_MAX = float(np.finfo(np.float64).max)

NON_DIFFERENTIABLE = ("_digamma",)

GRAD_CASES = [
    GradCase("gamma", lambda a: nd.gamma(a), [rand(3, 4, low=0.3, high=4.0, seed=1)], ops=("gamma",)),
    GradCase("gamma_negative", lambda a: nd.gamma(a), [rand(2, 3, low=-2.8, high=-2.2, seed=2)],
             ops=("gamma",)),
    GradCase("gammaln", lambda a: nd.gammaln(a), [rand(3, 4, low=0.3, high=30.0, seed=3)],
             ops=("gammaln",)),
    GradCase("gammaln_negative", lambda a: nd.gammaln(a), [rand(2, 3, low=-3.9, high=-3.1, seed=4)],
             ops=("gammaln",)),
    GradCase("erf", lambda a: nd.erf(a), [rand(3, 4, low=-2.5, high=2.5, seed=5)], ops=("erf",)),
    GradCase("erfinv", lambda a: nd.erfinv(a), [rand(3, 4, low=-0.9, high=0.9, seed=6)],
             ops=("erfinv",)),
    GradCase("gamma_chain", lambda a: nd.gammaln(nd.erf(a) + 2) * nd.gamma(a), [rand(4, low=0.5, high=2.0,
                                                                                        seed=7)],
             ops=("gamma", "gammaln", "erf")),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ------------------------------------------------------------------------------ golden values


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN) as npz:
        return {k: npz[k] for k in npz.files}


def _check_float(op, dtype, x, got, want):
    g, w = got.astype(np.float64), want.astype(np.float64)
    if dtype == "float64":
        rtol, atol = 1e-10, np.full(w.shape, 1e-320)
        if op == "erfinv":
            # 1.9.1 refines erfinv with erf(x) - y in double, so it is only good to about
            # eps / erf'(x); allow that (it matters close to +-1 only).
            with np.errstate(all="ignore"):
                atol = 8 * EPS64 / (2 / math.sqrt(math.pi) * np.exp(-np.square(np.nan_to_num(w))))
    elif dtype == "float32":
        rtol, atol = 1e-5, np.full(w.shape, 1e-37)
    else:
        rtol, atol = 2e-3, np.full(w.shape, 1e-6)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg="nan positions")
    np.testing.assert_array_equal(np.where(np.isinf(w), g, 0), np.where(np.isinf(w), w, 0),
                                  err_msg="infinities")
    fin = np.isfinite(w)
    bad = fin & ~(np.abs(g - w) <= atol + rtol * np.abs(w))
    assert not bad.any(), (f"{op}/{dtype}: x={x[bad][:5]} got={g[bad][:5]} want={w[bad][:5]}")
    zero = fin & (w == 0)
    np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]), err_msg="signed zeros")


GOLDEN_IDS = [(op, dt) for op in GEN.OPS for dt in GEN.dtypes(op)]


@pytest.mark.parametrize("op,dtype", GOLDEN_IDS, ids=[f"{o}-{d}" for o, d in GOLDEN_IDS])
def test_golden_forward(golden, op, dtype):
    x = golden[f"{op}/{dtype}/x"]
    want = golden[f"{op}/{dtype}/y"]
    # the stored inputs are authoritative (libm's pow may differ in the last ulp across NumPys)
    tol = float(np.finfo(dtype).eps) if np.dtype(dtype).kind == "f" else 0.0
    np.testing.assert_allclose(x, GEN.inputs(op, dtype), rtol=tol)
    out = getattr(nd, op)(nd.array(x, dtype=dtype))
    assert out.dtype == np.dtype(dtype) and out.shape == x.shape
    got = out.asnumpy()
    if np.dtype(dtype).kind == "f":
        if mx.current_context().device_type == "gpu":
            # GPU kernels flush subnormal inputs to zero; compare the normal ones only
            keep = ~((x != 0) & (np.abs(x) < np.finfo(dtype).tiny))
            x, got, want = x[keep], got[keep], want[keep]
        _check_float(op, dtype, x, got, want)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", GEN.OPS)
def test_golden_gradient(golden, op):
    """1.9.1's gradients; its digamma (and its 2/sqrt(pi)) is only good to ~1e-7 relative."""
    x = nd.array(golden[f"{op}/grad/x"], dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = getattr(nd, op)(x)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), golden[f"{op}/grad/dx"], rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------------ reference accuracy

# (x, value) pairs computed with 40-digit arithmetic.
_REFERENCE = {
    "gamma": [(1e-08, 99999999.42278434), (0.5, 1.772453850905516), (1.5, 0.886226925452758),
              (5.5, 52.34277778455352), (23.9, 1.885718609500023e+22), (24.1, 3.545657230827081e+22),
              (171.5, 9.4833675668248e+307), (-0.5, -3.544907701811032), (-2.5, -0.9453087204829419),
              (-100.3, -1.0431432495783088e-158), (-170.5, -3.3127395215386074e-308),
              (1 + 2.0 ** -40, 0.999999999999475)],
    "gammaln": [(1 + 1e-8, -5.772156531688512e-09), (1 - 1e-8, 5.772156760265731e-09),
                (2 + 1e-9, 4.2278437040226697e-10), (2 - 1e-9, -4.227843697573328e-10),
                (1.4616321449683622, -0.12148629053584961), (1e-300, 690.7755278982137),
                (0.5, 0.5723649429247001), (100.5, 361.4355404677776), (1e300, 6.897755278982137e+302)],
    "erf": [(1e-300, 1.1283791670955126e-300), (1e-08, 1.1283791670955126e-08), (0.5, 0.5204998778130465),
            (2.49, 0.9995707121322661), (2.51, 0.9996142945182758), (4.0, 0.9999999845827421),
            (5.8, 0.9999999999999998)],
    # 1.9.1 is off here (nan at 1 - 2**-53, ~1e-3 relative a few ulp below 1).
    "erfinv": [(1 - 2.0 ** -53, 5.8635847487551676), (-(1 - 2.0 ** -53), -5.8635847487551676),
               (1 - 2.0 ** -50, 5.686128441310391), (1 - 1e-12, 5.042031898572696),
               (0.999999, 3.458910737275499), (0.5, 0.4769362762044699), (1e-3, 0.0008862271574665521),
               (1e-300, 8.86226925452758e-301)],
    "_digamma": [(1.0, -0.5772156649015329), (0.5, -1.9635100260214235), (1e-08, -100000000.57721564),
                 (10.5, 2.3030010342976865), (1e15, 34.538776394910684), (1e300, 690.7755278982137),
                 (-0.5, 0.03648997397857652), (-2.3, 3.3173231575618227)],
}


@pytest.mark.parametrize("op", sorted(_REFERENCE))
def test_reference_accuracy(op):
    xs, want = map(np.array, zip(*_REFERENCE[op]))
    got = getattr(nd.op, op)(nd.array(xs, dtype="float64")).asnumpy()
    np.testing.assert_allclose(got, want, rtol=2e-14, atol=0)


def test_near_roots_absolute_accuracy():
    # log|Gamma| near its negative root at -2.457..., digamma at its positive root
    lg = nd.gammaln(nd.array([-2.4570247], dtype="float64")).asnumpy()
    assert abs(lg[0] - 5.792758455100296e-08) < 1e-14
    psi = nd.op._digamma(nd.array([1.4616321449683622], dtype="float64")).asnumpy()
    assert abs(psi[0]) < 1e-15


def test_identities():
    n = np.arange(1.0, 24.0)
    fact = np.array([math.factorial(int(k) - 1) for k in n], dtype=np.float64)
    # 1.9.1 (the C library's tgamma) is within 2 ulp of the factorials: 479001599.99999994 at 13
    np.testing.assert_allclose(nd.gamma(nd.array(n, dtype="float64")).asnumpy(), fact, rtol=5e-16)
    x = rand(50, low=0.2, high=20.0, seed=8)
    g = nd.gamma(nd.array(x, dtype="float64")).asnumpy()
    np.testing.assert_allclose(np.log(g), nd.gammaln(nd.array(x, dtype="float64")).asnumpy(),
                               rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(nd.gamma(nd.array(x + 1, dtype="float64")).asnumpy(), x * g, rtol=1e-13)
    t = rand(50, low=-0.99, high=0.99, seed=9)
    back = nd.erf(nd.erfinv(nd.array(t, dtype="float64"))).asnumpy()
    np.testing.assert_allclose(back, t, rtol=1e-14, atol=1e-16)
    h = np.arange(1, 12)
    harmonic = np.cumsum(1.0 / h)                 # psi(n + 1) = H_n - gamma_E
    np.testing.assert_allclose(nd.op._digamma(nd.array(h + 1.0, dtype="float64")).asnumpy(),
                               harmonic - 0.5772156649015329, rtol=1e-14)


# ------------------------------------------------------------------------ special values


def test_special_values():
    inf, nan = np.inf, np.nan
    g = nd.gamma(nd.array([0.0, -0.0, -1.0, -2.0, -inf, inf, nan, 172.0, -200.5, -199.5],
                          dtype="float64")).asnumpy()
    np.testing.assert_array_equal(g, [inf, -inf, nan, nan, nan, inf, nan, inf, 0.0, 0.0])
    assert np.signbit(g[8]) and not np.signbit(g[9])
    lg = nd.gammaln(nd.array([0.0, -0.0, -1.0, -3.0, -1e17, -inf, inf, nan, 1.7e308],
                             dtype="float64")).asnumpy()
    np.testing.assert_array_equal(lg, [inf, inf, inf, inf, inf, inf, inf, nan, inf])
    e = nd.erf(nd.array([-inf, inf, nan, -0.0, 0.0], dtype="float64")).asnumpy()
    np.testing.assert_array_equal(e, [-1, 1, nan, 0, 0])
    assert np.signbit(e[3]) and not np.signbit(e[4])
    ei = nd.erfinv(nd.array([-1.0, 1.0, 1.5, -2.0, inf, nan, -0.0], dtype="float64")).asnumpy()
    np.testing.assert_array_equal(ei, [-inf, inf, nan, nan, nan, nan, 0.0])
    assert np.signbit(ei[6])
    dg = nd.op._digamma(nd.array([0.0, -0.0, -1.0, -4.0, -inf, inf, nan], dtype="float64")).asnumpy()
    np.testing.assert_array_equal(dg, [DBL_MAX] * 5 + [inf, nan])
    dg32 = nd.op._digamma(nd.array([0.0, 2.0], dtype="float32"))
    assert dg32.dtype == np.float32
    np.testing.assert_allclose(dg32.asnumpy(), [np.inf, 1 - 0.5772156649015329], rtol=1e-6)


def test_integer_inputs_follow_a_c_cast():
    i32 = nd.array([-1, 0, 1, 2, 3, 4], dtype="int32")
    np.testing.assert_array_equal(nd.gamma(i32).asnumpy(), [-2 ** 31, -2 ** 31, 1, 1, 2, 6])
    np.testing.assert_array_equal(nd.gammaln(i32).asnumpy(), [-2 ** 31, -2 ** 31, 0, 0, 0, 1])
    np.testing.assert_array_equal(nd.erf(i32).asnumpy(), [0, 0, 0, 0, 0, 0])
    # out of domain gives 0 for integer erfinv, but +-1 give the cast of +-inf
    np.testing.assert_array_equal(nd.erfinv(i32).asnumpy(), [-2 ** 31, 0, -2 ** 31, 0, 0, 0])
    for op in ("gamma", "gammaln", "erf", "erfinv"):
        assert getattr(nd, op)(i32).dtype == np.int32


def test_gradient_special_values():
    """What 1.9.1's autograd gives at the poles and domain edges."""
    def grad(op, vals):
        x = nd.array(vals, dtype="float64")
        x.attach_grad()
        with mx.autograd.record():
            y = getattr(nd, op)(x)
        y.backward()
        return x.grad.asnumpy()

    np.testing.assert_array_equal(grad("gamma", [0.0, -0.0, -1.0, np.inf]), [np.inf, -np.inf, np.nan, np.inf])
    np.testing.assert_array_equal(grad("gammaln", [0.0, -1.0, -np.inf, np.inf]), [DBL_MAX] * 3 + [np.inf])
    np.testing.assert_array_equal(grad("erfinv", [-1.0, 1.0, 2.0]), [np.inf, np.inf, np.nan])
    np.testing.assert_array_equal(grad("erf", [30.0, -30.0]), [0.0, 0.0])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("op", ["gamma", "gammaln", "erf", "erfinv", "_digamma"])
def test_shapes_and_dtypes(op, dtype):
    f = getattr(nd.op, op)
    for shape in [(0,), (2, 0, 3), (), (2, 3, 4)]:
        x = nd.array(np.full(shape, 0.25), dtype=dtype)
        y = f(x)
        assert y.shape == shape and y.dtype == np.dtype(dtype)


def test_registered_names():
    public = ("gamma", "gammaln", "erf", "erfinv")
    for name in public:
        assert callable(getattr(nd, name)) and callable(getattr(nd.op, name))
    assert callable(nd._internal._digamma)
    assert not hasattr(nd, "digamma") and not hasattr(nd, "psi")     # 1.9.1 has neither
