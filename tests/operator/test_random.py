"""Random samplers: seeding, shapes and dtypes, statistics, errors, shuffle, multinomial."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.test_utils import default_context

from .harness import GradCase, check_grad_case, expect_error

nd = mx.nd
N = 100_000

# (front-end name, scalar params, NDArray params for the _sample_ form (two elements each),
#  mean(params), var(params)); the front end takes exponential's *scale*.
DISTS = [
    ("uniform", (-1.0, 3.0), ([0.0, -2.0], [1.0, 2.0]),
     lambda lo, hi: (lo + hi) / 2, lambda lo, hi: (hi - lo) ** 2 / 12),
    ("normal", (2.0, 3.0), ([0.0, 5.0], [1.0, 2.0]),
     lambda m, s: m, lambda m, s: s * s),
    ("gamma", (2.0, 3.0), ([1.5, 4.0], [2.0, 0.5]),
     lambda a, b: a * b, lambda a, b: a * b * b),
    ("exponential", (2.0,), ([0.5, 3.0],),
     lambda s: s, lambda s: s * s),
    ("poisson", (4.0,), ([1.0, 7.5],),
     lambda lam: lam, lambda lam: lam),
    ("negative_binomial", (3, 0.4), ([2.0, 5.0], [0.3, 0.6]),
     lambda k, p: k * (1 - p) / p, lambda k, p: k * (1 - p) / p ** 2),
    ("generalized_negative_binomial", (3.0, 0.5), ([2.0, 6.0], [0.0, 0.25]),
     lambda mu, a: mu, lambda mu, a: mu + a * mu * mu),
]
DIST_IDS = [d[0] for d in DISTS]

# 1.9.1's operator names for every sampler; all draw without a gradient except
# _sample_multinomial (REINFORCE through its log-probability output) and the _like ops,
# whose zero gradient is checked numerically below.
NON_DIFFERENTIABLE = tuple(
    [f"_random_{d}" for d in DIST_IDS] + [f"_sample_{d}" for d in DIST_IDS]
    + ["_random_randint", "_shuffle"]
    # mx.np samplers: their pathwise (or zero) gradients, and pinv's zero ones with an array
    # rcond, are checked against closed forms in tests/test_compat_sweep_np_sym.py
    + [f"_npi_{d}" for d in ("normal", "uniform", "gamma", "exponential", "gumbel", "logistic",
                             "pareto", "powerd", "rayleigh", "weibull", "pinv")])


def _sample_params(dist):
    """The NDArray parameters of the _sample_ form; exponential's front end takes the scale."""
    return [nd.array(p) for p in dist[2]]


def _lam_of(dist_name, params):
    return [1.0 / params[0]] if dist_name == "exponential" else list(params)


# ---------------------------------------------------------------------------------------------
# gradients (the numeric check needs the same draws on every call: the function reseeds)

def _reseeded(fn, seed=11):
    def run(*xs):
        mx.random.seed(seed)
        return fn(*xs)
    return run


_PROBS = np.array([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.4, 0.1]])
GRAD_CASES = [
    GradCase("multinomial_logprob",
             _reseeded(lambda p: nd.random.multinomial(p, shape=6, get_prob=True)[1]),
             [_PROBS], ops=("_sample_multinomial",), eps=1e-6),
] + [
    GradCase(f"{d}_like", _reseeded((lambda f: lambda x: f(x) * 1.0)(
        getattr(nd.random, f"{d}_like"))), [np.ones((2, 3))], ops=(f"_random_{d}_like",))
    for d in DIST_IDS
]


# densities: every input of the continuous ones, the parameters of the discrete ones
_S = np.array([[0.5, 1.0, 2.0], [0.2, 0.3, 3.0]])
_K = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
_PDF_CASES = [
    ("normal", _S, [[0.0, 1.0], [1.0, 2.0]], None),
    ("uniform", _S, [[0.0, 0.25], [1.5, 2.0]], [1, 2]),
    ("gamma", _S, [[2.0, 1.5], [1.0, 2.0]], None),
    ("exponential", _S, [[2.0, 1.5]], None),
    ("poisson", _K, [[2.0, 1.5]], [1]),
    ("negative_binomial", _K, [[2.0, 3.0], [0.4, 0.6]], [1, 2]),
    ("generalized_negative_binomial", _K, [[2.0, 3.0], [0.4, 0.6]], [1, 2]),
    ("dirichlet", np.array([[[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], [[0.3, 0.3, 0.4], [0.6, 0.2, 0.2]]]),
     [[[1.0, 2.0, 3.0], [0.5, 0.5, 2.0]]], None),
]
for _d, _x, _ps, _wrt in _PDF_CASES:
    for _log in (False, True):
        GRAD_CASES.append(GradCase(
            f"pdf_{_d}{'_log' if _log else ''}",
            (lambda f, lg: lambda *a: f(*a, is_log=lg))(getattr(nd, f"random_pdf_{_d}"), _log),
            [_x] + [np.array(p) for p in _ps], ops=(f"_random_pdf_{_d}",), wrt=_wrt,
            eps=1e-6, rtol=1e-4))


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def test_multinomial_gradient_is_ograd_over_prob_at_each_draw():
    p = nd.array(_PROBS)
    p.attach_grad()
    head = np.arange(1, 13, dtype=np.float32).reshape(2, 6)
    with mx.autograd.record():
        s, logp = nd.random.multinomial(p, shape=6, get_prob=True)
    logp.backward(nd.array(head))
    s = s.asnumpy()
    want = np.zeros_like(_PROBS)
    for r in range(2):
        for j in range(6):
            want[r, s[r, j]] += head[r, j] / _PROBS[r, s[r, j]]
    np.testing.assert_allclose(p.grad.asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(logp.asnumpy(), np.log(np.take_along_axis(_PROBS, s, 1)),
                               rtol=1e-6)
    # without get_prob the gradient is zero, as in 1.9.1
    with mx.autograd.record():
        s = nd.random.multinomial(p, shape=3)
        z = s.astype("float32").sum()
    z.backward()
    assert not p.grad.asnumpy().any()


@pytest.mark.parametrize("dist", DISTS, ids=DIST_IDS)
def test_sample_ops_pass_zero_gradients(dist):
    params = _sample_params(dist)
    for p in params:
        p.attach_grad()
    with mx.autograd.record():
        y = getattr(nd.random, dist[0])(*params, shape=3)
    y.backward()
    for p in params:
        assert p.grad.shape == p.shape and not p.grad.asnumpy().any()


def test_shuffle_has_no_gradient():
    x = nd.arange(4)
    x.attach_grad()
    with mx.autograd.record():
        y = nd.random.shuffle(x)
    expect_error(y.backward, match="_shuffle")


# ---------------------------------------------------------------------------------------------
# seeding


def _draw_everything(ctx=None):
    outs = []
    for dist in DISTS:
        outs.append(getattr(nd.random, dist[0])(*dist[1], shape=(7,), ctx=ctx))
        outs.append(getattr(nd.random, dist[0])(*_sample_params(dist), shape=3))
    outs.append(nd.random.randint(-5, 50, shape=(9,), ctx=ctx))
    outs.append(nd.random.multinomial(nd.array(_PROBS), shape=5))
    outs.append(nd.random.shuffle(nd.arange(20)))
    outs.append(nd.random.randn(2, 3))
    return [o.asnumpy() for o in outs]


def test_same_seed_same_numbers():
    mx.random.seed(1234)
    a = _draw_everything()
    mx.random.seed(1234)
    b = _draw_everything()
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    mx.random.seed(4321)
    c = _draw_everything()
    assert not np.array_equal(a[0], c[0]) and not np.array_equal(a[2], c[2])


def test_draws_advance_the_stream():
    mx.random.seed(5)
    a = nd.random.uniform(shape=50).asnumpy()
    b = nd.random.uniform(shape=50).asnumpy()
    assert not np.array_equal(a, b)


def test_per_context_seeding():
    # 1.9.1 (checked by running it): all CPU contexts draw from one shared generator, so
    # seeding any CPU context reseeds every one and cpu(1) continues cpu(0)'s stream
    c0, c1 = mx.cpu(0), mx.cpu(1)
    mx.random.seed(7)
    a0 = nd.random.uniform(shape=8, ctx=c0).asnumpy()
    b0 = nd.random.uniform(shape=8, ctx=c0).asnumpy()
    mx.random.seed(7)
    np.testing.assert_array_equal(nd.random.uniform(shape=8, ctx=c1).asnumpy(), a0)
    np.testing.assert_array_equal(nd.random.uniform(shape=8, ctx=c0).asnumpy(), b0)
    mx.random.seed(7, ctx=c1)
    np.testing.assert_array_equal(nd.random.uniform(shape=8, ctx=c0).asnumpy(), a0)
    mx.random.seed(7, ctx=c0)
    np.testing.assert_array_equal(nd.random.uniform(shape=8, ctx=c1).asnumpy(), a0)


def test_mx_random_forwards_to_nd_random():
    mx.random.seed(3)
    a = mx.random.normal(0, 1, shape=(4,)).asnumpy()
    mx.random.seed(3)
    np.testing.assert_array_equal(nd.random.normal(0, 1, shape=(4,)).asnumpy(), a)
    assert mx.random.multinomial is nd.random.multinomial


# ---------------------------------------------------------------------------------------------
# shapes, dtypes, contexts, aliases


@pytest.mark.parametrize("dist", DISTS, ids=DIST_IDS)
def test_scalar_form_shapes_and_dtypes(dist):
    f = getattr(nd.random, dist[0])
    x = f(*dist[1])
    assert x.shape == (1,) and x.dtype == np.float32 and x.context == default_context()
    assert f(*dist[1], shape=3).shape == (3,)
    assert f(*dist[1], shape=[2, 3]).shape == (2, 3)
    for dt in ("float16", "float32", "float64"):
        y = f(*dist[1], shape=(2, 2), dtype=dt)
        assert y.dtype == np.dtype(dt).type and y.shape == (2, 2)
    z = f(*dist[1], shape=(2,), ctx=mx.cpu(1))
    assert z.context == mx.cpu(1)


@pytest.mark.parametrize("dist", DISTS, ids=DIST_IDS)
def test_sample_form_shapes_and_dtypes(dist):
    f = getattr(nd.random, dist[0])
    params = _sample_params(dist)
    assert f(*params).shape == (2,)
    assert f(*params, shape=4).shape == (2, 4)
    assert f(*params, shape=(3, 4)).shape == (2, 3, 4)
    y = f(*[p.astype("float64") for p in params], shape=2)
    assert y.dtype == np.float32  # 1.9.1: the parameters' dtype does not carry over
    assert f(*params, shape=2, dtype="float64").dtype == np.float64
    assert f(*params, shape=2, dtype="float16").dtype == np.float16
    two_d = [p.reshape((1, 2)) for p in params]
    assert f(*two_d, shape=5).shape == (1, 2, 5)


@pytest.mark.parametrize("dist", DISTS, ids=DIST_IDS)
def test_operator_aliases(dist):
    name = dist[0]
    lam = _lam_of(name, dist[1])
    pnames = list(mx.operator.get_op(f"_random_{name}").params)[:len(lam)]
    kw = dict(zip(pnames, lam))
    for fn in (getattr(nd, f"random_{name}"), getattr(nd.op, f"_random_{name}")):
        x = fn(shape=(2, 3), **kw)
        assert x.shape == (2, 3) and x.dtype == np.float32
    assert getattr(nd, f"random_{name}")(shape=2, dtype="float64", **kw).dtype == np.float64
    params = [nd.array(p) for p in _lam_of(name, [np.array(v) for v in dist[2]])]
    for fn in (getattr(nd, f"sample_{name}"), getattr(nd.op, f"_sample_{name}")):
        y = fn(*params, shape=(4,))
        assert y.shape == (2, 4) and y.dtype == np.float32
    like = getattr(nd.random, f"{name}_like")(nd.zeros((3, 2), dtype="float64"), **kw)
    assert like.shape == (3, 2) and like.dtype == np.float64


def test_other_aliases():
    assert nd.uniform(shape=(2,)).shape == (2,)
    assert nd.normal(loc=1, scale=2, shape=(2, 2)).shape == (2, 2)
    x = nd.random_randint(low=0, high=4, shape=(3,))
    assert x.dtype == np.int32 and x.shape == (3,)
    s = nd.sample_multinomial(nd.array([[0.5, 0.5]]), shape=2)
    assert s.shape == (1, 2) and s.dtype == np.int32
    assert nd.shuffle(nd.arange(5)).shape == (5,)
    assert mx.operator.get_op("uniform") is mx.operator.get_op("_random_uniform")


def test_randint_shapes_and_dtypes():
    x = nd.random.randint(-3, 7, shape=(4, 5))
    assert x.dtype == np.int32 and x.shape == (4, 5)
    v = x.asnumpy()
    assert v.min() >= -3 and v.max() < 7
    y = nd.random.randint(0, 2 ** 40, shape=(100,), dtype="int64")
    assert y.dtype == np.int64 and y.asnumpy().max() > 2 ** 32
    assert nd.random.randint(0, 3).shape == (1,)
    assert nd.random.randint(0, 3, shape=2, ctx=mx.cpu(1)).context == mx.cpu(1)


def test_randn():
    assert nd.random.randn(2, 3).shape == (2, 3)
    x = nd.random.randn(4, loc=nd.array([0.0, 100.0]), scale=nd.array([1.0, 1.0]))
    assert x.shape == (2, 4) and x.asnumpy()[1].min() > 80
    assert nd.random.randn(3, dtype="float64").dtype == np.float64


def test_out_writes_in_place():
    out = nd.zeros((2, 3))
    r = nd.random.uniform(2, 3, out=out)
    assert r is out
    v = out.asnumpy()
    assert v.min() >= 2 and v.max() < 3
    o64 = nd.zeros((3,), dtype="float64")
    nd.random.normal(0, 1, out=o64)
    assert o64.dtype == np.float64 and o64.asnumpy().std() > 0
    o = nd.zeros((2, 4))
    nd.random.uniform(nd.array([0.0, 10.0]), nd.array([1.0, 11.0]), shape=4, out=o)
    assert o.asnumpy()[1].min() >= 10
    oi = nd.zeros((5,), dtype="int64")
    nd.random.randint(5, 9, out=oi)
    assert oi.asnumpy().min() >= 5
    samples, logp = nd.zeros((2, 3), dtype="int32"), nd.zeros((2, 3))
    nd.random.multinomial(nd.array([[0.0, 1.0], [1.0, 0.0]]), shape=3, get_prob=True,
                          out=[samples, logp])
    np.testing.assert_array_equal(samples.asnumpy(), [[1] * 3, [0] * 3])
    np.testing.assert_array_equal(logp.asnumpy(), np.zeros((2, 3)))
    so = nd.zeros((4, 2))
    nd.random.shuffle(nd.ones((4, 2)), out=so)
    assert so.asnumpy().sum() == 8


def test_multinomial_shapes_and_dtypes():
    p1 = nd.array([0.1, 0.2, 0.7])
    assert nd.random.multinomial(p1).shape == (1,)
    assert nd.random.multinomial(p1, shape=2).shape == (2,)
    p2 = nd.array([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
    assert nd.random.multinomial(p2).shape == (2,)
    assert nd.random.multinomial(p2, shape=(2, 3)).shape == (2, 2, 3)
    s, lp = nd.random.multinomial(p2.astype("float64"), shape=2, get_prob=True)
    assert s.dtype == np.int32 and lp.dtype == np.float64 and lp.shape == (2, 2)
    for dt in ("float16", "float32", "float64", "int32", "uint8"):
        assert nd.random.multinomial(p2, dtype=dt).dtype == np.dtype(dt).type


def test_multinomial_unnormalised_rows_follow_1_9_1():
    # the first class whose running sum exceeds u; k when the row sums to less than u
    x = nd.random.multinomial(nd.array([[0.0, 0.0, 0.0], [-1.1, 2.2, 0.2]]), shape=50).asnumpy()
    assert (x[0] == 3).all() and (x[1] == 1).all()


# ---------------------------------------------------------------------------------------------
# statistics


def _check_moments(x, mean, var, name):
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    sd = np.sqrt(var)
    assert abs(x.mean() - mean) < 6 * sd / np.sqrt(n) + 1e-6, (name, x.mean(), mean)
    assert abs(x.var() - var) < 0.05 * var + 1e-6, (name, x.var(), var)


@pytest.mark.parametrize("dist", DISTS, ids=DIST_IDS)
def test_scalar_form_statistics(dist):
    mx.random.seed(17)
    name, params, _, mean, var = dist
    x = getattr(nd.random, name)(*params, shape=(N,)).asnumpy()
    _check_moments(x, mean(*params), var(*params), name)
    if name == "uniform":
        assert x.min() >= params[0] and x.max() < params[1]
    if name in ("poisson", "negative_binomial", "generalized_negative_binomial"):
        assert (x == np.round(x)).all() and x.min() >= 0


@pytest.mark.parametrize("dist", DISTS, ids=DIST_IDS)
def test_sample_form_statistics(dist):
    mx.random.seed(18)
    name, _, arrs, mean, var = dist
    x = getattr(nd.random, name)(*_sample_params(dist), shape=(N // 2,)).asnumpy()
    for i in range(2):
        p = [a[i] for a in arrs]
        _check_moments(x[i], mean(*p), var(*p), f"{name}[{i}]")


def test_randint_statistics():
    mx.random.seed(19)
    x = nd.random.randint(0, 10, shape=(N,)).asnumpy()
    _check_moments(x, 4.5, 99 / 12, "randint")
    assert set(np.unique(x)) == set(range(10))


def test_multinomial_frequencies():
    mx.random.seed(20)
    probs = np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.0, 0.0, 0.3]])
    x = nd.random.multinomial(nd.array(probs), shape=N // 2).asnumpy()
    for r in range(2):
        freq = np.bincount(x[r], minlength=4) / x.shape[1]
        np.testing.assert_allclose(freq, probs[r], atol=0.01)
    assert not (x[1] == 1).any() and not (x[1] == 2).any()


def test_normal_like_statistics():
    mx.random.seed(21)
    x = nd.random.normal_like(nd.zeros((N,)), loc=1.0, scale=0.5).asnumpy()
    _check_moments(x, 1.0, 0.25, "normal_like")


# ---------------------------------------------------------------------------------------------
# shuffle


def test_shuffle_permutes_first_axis():
    mx.random.seed(22)
    data = np.arange(40, dtype=np.int32).reshape(20, 2)
    x = nd.array(data, dtype="int32")
    y = nd.random.shuffle(x)
    v = y.asnumpy()
    assert y.dtype == np.int32 and v.shape == (20, 2)
    assert not np.array_equal(v, data)                       # moved
    np.testing.assert_array_equal(v[:, 1] - v[:, 0], 1)       # rows kept whole
    np.testing.assert_array_equal(np.sort(v[:, 0]), data[:, 0])  # a permutation
    np.testing.assert_array_equal(x.asnumpy(), data)          # input untouched
    seen = {tuple(nd.random.shuffle(nd.arange(3)).asnumpy()) for _ in range(60)}
    assert len(seen) == 6


# ---------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize("call, op", [
    (lambda: nd.random.uniform(2, 1, shape=2), "_random_uniform"),
    (lambda: nd.random.normal(0, -1, shape=2), "_random_normal"),
    (lambda: nd.random.normal(0, 0, shape=2), "_random_normal"),
    (lambda: nd.random.gamma(-1, 1, shape=2), "_random_gamma"),
    (lambda: nd.random.gamma(1, 0, shape=2), "_random_gamma"),
    (lambda: nd.random.exponential(-1, shape=2), "_random_exponential"),
    (lambda: nd.random.poisson(-1, shape=2), "_random_poisson"),
    (lambda: nd.random.negative_binomial(-1, 0.5, shape=2), "_random_negative_binomial"),
    (lambda: nd.random.negative_binomial(2.5, 0.5, shape=2), "_random_negative_binomial"),
    (lambda: nd.random.generalized_negative_binomial(-2, 1, shape=2),
     "_random_generalized_negative_binomial"),
    (lambda: nd.random.generalized_negative_binomial(2, -1, shape=2),
     "_random_generalized_negative_binomial"),
    (lambda: nd.random.randint(5, 4, shape=2), "_random_randint"),
    (lambda: nd.random.randint(5, 5, shape=2), "_random_randint"),
    (lambda: nd.random.randint(0.5, 3, shape=2), "_random_randint"),
    (lambda: nd.random.randint(0, 3, shape=2, dtype="float32"), "_random_randint"),
    (lambda: nd.random.uniform(shape=2, dtype="int32"), "_random_uniform"),
    (lambda: nd.random.normal(shape=()), "_random_normal"),
    (lambda: nd.random.normal(shape=(2, 0)), "_random_normal"),
    (lambda: nd.random.normal(shape=(2, -1)), "_random_normal"),
    (lambda: nd.random.randn(), "_random_normal"),
    (lambda: nd.random.uniform(0, 1, nonsense=3), "_random_uniform"),
    (lambda: nd.random.uniform(0, 1, shape=(2, 2), out=nd.zeros((2, 3))), "_random_uniform"),
    (lambda: nd.random.uniform(0, 1, out=nd.zeros((2,), dtype="int32")), "_random_uniform"),
    (lambda: nd.random.uniform(0, 1, dtype="float32", out=nd.zeros((2,), dtype="float64")),
     "_random_uniform"),
    (lambda: nd.random.uniform(nd.array([0, 1]), nd.array([1, 2, 3])), "_sample_uniform"),
    (lambda: nd.random.uniform(nd.array([0, 1]), nd.array([[1, 2]])), "_sample_uniform"),
    (lambda: nd.random.uniform(nd.array([0, 1]), nd.array([1, 2], dtype="float64")),
     "_sample_uniform"),
    (lambda: nd.random.uniform(nd.array([0, 1]), nd.array([1, 2]), out=nd.zeros((2, 3))),
     "_sample_uniform"),
    (lambda: nd.random.gamma(nd.array([-1.0, 1.0]), nd.array([1.0, 1.0])), "_sample_gamma"),
    (lambda: nd.random.negative_binomial(nd.array([-1.0]), nd.array([0.5])),
     "_sample_negative_binomial"),
    (lambda: nd.random.normal(nd.array([0.0]), nd.array([1.0]), dtype="int32"),
     "_sample_normal"),
    (lambda: nd.random.multinomial(nd.array([1, 0], dtype="int32")), "_sample_multinomial"),
    (lambda: nd.random.multinomial(nd.array([0.5, 0.5]), dtype="int64"), "_sample_multinomial"),
    (lambda: nd.random.multinomial(nd.array(0.5).reshape(())), "_sample_multinomial"),
    (lambda: nd.random.shuffle(nd.array(3.0).reshape(())), "_shuffle"),
    (lambda: nd.random.normal_like(nd.zeros((2,), dtype="int32")), "_random_normal_like"),
    (lambda: nd.random.normal_like(nd.zeros((2,)), scale=-1), "_random_normal_like"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_errors_name_the_operator(call, op):
    expect_error(call, match=op)


def test_front_end_argument_errors():
    with pytest.raises(AssertionError):
        nd.random.uniform(0, nd.array([1.0, 2.0]))
    with pytest.raises(ValueError):
        nd.random.uniform("0", 1)
    with pytest.raises(TypeError):
        nd.random.randint(nd.array([0]), nd.array([3]))


# ---------------------------------------------------------------------------------------------
# densities


# first row of each density at the _PDF_CASES inputs, and of its log, as 1.9.1 computes them
_PDF_FIRST_ROW = {
    "normal": ([0.352065, 0.241971, 0.053991], [-1.043939, -1.418939, -2.918939]),
    "uniform": ([0.666667] * 3, [-0.405465] * 3),
    "gamma": ([0.303265, 0.367879, 0.270671], [-1.193147, -1.0, -1.306853]),
    "exponential": ([0.735759, 0.270671, 0.036631], [-0.306853, -1.306853, -3.306853]),
    "poisson": ([0.135335, 0.270671, 0.270671], [-2.0, -1.306853, -1.306853]),
    "negative_binomial": ([0.16, 0.192, 0.1728], [-1.832581, -1.65026, -1.75562]),
    "generalized_negative_binomial": ([0.230048, 0.255609, 0.198807],
                                      [-1.469467, -1.364106, -1.615421]),
    "dirichlet": ([4.5, 3.84], [1.504077, 1.345472]),
}


@pytest.mark.parametrize("case", _PDF_CASES, ids=[c[0] for c in _PDF_CASES])
def test_pdf_values_shapes_dtypes(case):
    name, x, ps, _ = case
    f = getattr(nd, f"random_pdf_{name}")
    assert mx.operator.get_op(f"random_pdf_{name}") is mx.operator.get_op(f"_random_pdf_{name}")
    args = [nd.array(x)] + [nd.array(p) for p in ps]
    dens, logd = f(*args), f(*args, is_log=True)
    assert dens.dtype == np.float32 and dens.shape == (x.shape[:-1] if name == "dirichlet"
                                                      else x.shape)
    want, want_log = _PDF_FIRST_ROW[name]
    np.testing.assert_allclose(dens.asnumpy()[0], want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(logd.asnumpy()[0], want_log, rtol=1e-5, atol=1e-6)
    d64 = f(*[a.astype("float64") for a in args])
    assert d64.dtype == np.float64


def test_pdf_shape_errors():
    f = nd.random_pdf_normal
    expect_error(f, nd.zeros((2, 3)), nd.zeros((2,)), nd.ones((3,)), match="_random_pdf_normal")
    expect_error(f, nd.zeros((1, 2)), nd.zeros((2,)), nd.ones((2,)), match="_random_pdf_normal")
    expect_error(nd.random_pdf_dirichlet, nd.zeros((2, 3)), nd.ones((2, 4)),
                 match="_random_pdf_dirichlet")
