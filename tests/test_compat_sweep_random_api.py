"""Compatibility sweep of the random API (mx.random, mx.nd.random, mx.np.random) against 1.9.1.

Random streams differ from 1.9.1 by design; these tests pin the rest: dtypes, shapes, which
arguments are refused (and with which exception type), how seeding is shared between
contexts, and the closed-form statistics of the samplers fixed here. Outcomes marked
"recorded from 1.9.1" were read off by running MXNet 1.9.1.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

R = mx.nd.random


# --- mx.nd.random: dtype=None, bools, non-NDArray data ---------------------------------------

@pytest.mark.parametrize("call", [
    lambda: R.uniform(0, 1, shape=2, dtype=None),
    lambda: R.normal(0, 1, shape=2, dtype=None),
    lambda: R.randn(2, dtype=None),
    lambda: R.exponential(1, shape=2, dtype=None),
    lambda: R.gamma(1, 1, shape=2, dtype=None),
    lambda: R.poisson(1, shape=2, dtype=None),
    lambda: R.negative_binomial(1, 0.5, shape=2, dtype=None),
    lambda: R.generalized_negative_binomial(1, 0.5, shape=2, dtype=None),
    lambda: R.uniform(mx.nd.array([0]), mx.nd.array([1]), shape=2, dtype=None),
    lambda: R.multinomial(mx.nd.array([[0.5, 0.5]]), dtype=None),
])
def test_dtype_none_reads_as_float64(call):
    # recorded from 1.9.1: dtype=None goes through np.dtype(None), i.e. float64
    assert call().dtype == np.float64


def test_dtype_none_errors():
    # recorded from 1.9.1: randint refuses the float64 that dtype=None becomes, and an out=
    # of another dtype no longer matches
    with pytest.raises(MXNetError):
        R.randint(0, 5, shape=2, dtype=None)
    with pytest.raises(MXNetError):
        R.uniform(0, 1, out=mx.nd.zeros(3, dtype="float16"), dtype=None)
    # left out, dtype still follows out=
    assert R.uniform(0, 1, out=mx.nd.zeros(3, dtype="float16")).dtype == np.float16


def test_bool_parameter_is_refused():
    # recorded from 1.9.1: "Invalid Parameter format for low expect float but value='True'"
    with pytest.raises(MXNetError, match="low"):
        R.uniform(True, 2, shape=2)
    assert R.uniform(1, 2, shape=2).shape == (2,)


@pytest.mark.parametrize("call", [
    lambda: R.multinomial(0.5),
    lambda: R.multinomial([0.5, 0.5]),
    lambda: R.shuffle([1, 2]),
])
def test_data_must_be_ndarray(call):
    # recorded from 1.9.1: AssertionError "Argument data must have NDArray type, but got ..."
    with pytest.raises(AssertionError, match="must have NDArray type"):
        call()


# --- seeding ----------------------------------------------------------------------------------

def _u(ctx):
    return R.uniform(shape=5, ctx=ctx).asnumpy()


def test_cpu_contexts_share_one_generator():
    # recorded from 1.9.1: after seed(42), a draw on cpu(1) equals the first cpu(0) draw and
    # the next cpu(0) draw equals the second; seeding cpu(0), cpu(3) or cpu_pinned(0)
    # reseeds every CPU context
    mx.random.seed(42)
    a, b = _u(mx.cpu(0)), _u(mx.cpu(0))
    mx.random.seed(42)
    np.testing.assert_array_equal(_u(mx.cpu(1)), a)
    np.testing.assert_array_equal(_u(mx.cpu(0)), b)
    for ctx in (mx.cpu(0), mx.cpu(3), mx.cpu_pinned(0)):
        mx.random.seed(42, ctx=ctx)
        np.testing.assert_array_equal(_u(mx.cpu(1)), a)
    mx.random.seed(42, ctx="all")
    np.testing.assert_array_equal(_u(mx.cpu(2)), a)


def test_seed_of_unavailable_gpu_is_accepted():
    # recorded from 1.9.1 (a CPU build): mx.random.seed(1, ctx=mx.gpu()) returns None
    if mx.context.num_gpus() > 0:
        pytest.skip("a GPU is present")
    assert mx.random.seed(1, ctx=mx.gpu(0)) is None
    mx.random.seed(3)
    a = _u(mx.cpu())
    mx.random.seed(3)
    mx.random.seed(99, ctx=mx.gpu(0))  # leaves the CPU stream alone
    np.testing.assert_array_equal(_u(mx.cpu()), a)


@pytest.mark.parametrize("bad", [1.5, "3", None])
def test_seed_must_be_int(bad):
    # recorded from 1.9.1: ValueError "seed_state must be int"
    with pytest.raises(ValueError, match="seed_state must be int"):
        mx.random.seed(bad)


# --- mx.np.random -----------------------------------------------------------------------------

P = mx.np.random


@pytest.mark.parametrize("fn", [
    lambda dt: P.uniform(0, 1, size=2, dtype=dt),
    lambda dt: P.uniform(mx.np.array([0.]), 1, size=2, dtype=dt),
    lambda dt: P.normal(0, 1, size=2, dtype=dt),
    lambda dt: P.gamma(1, 1, size=2, dtype=dt),
    lambda dt: P.chisquare(1, size=2, dtype=dt),
    lambda dt: P.lognormal(0, 1, size=2, dtype=dt),
])
def test_np_float_samplers_dtypes(fn):
    # recorded from 1.9.1: valid values are {'float16', 'float32', 'float64'}
    for dt in ("int32", "int64", "uint8", "bool"):
        with pytest.raises(MXNetError):
            fn(dt)
    for dt, want in ((None, np.float32), ("float16", np.float16), ("float64", np.float64)):
        assert fn(dt).dtype == want


def test_np_randint_dtypes_and_bounds():
    # recorded from 1.9.1: valid values are {'None', 'int32', 'int64'}; float bounds refused
    for dt in ("float16", "float32", "float64", "uint8", "int8", "bool"):
        with pytest.raises(MXNetError):
            P.randint(0, 3, size=2, dtype=dt)
    assert P.randint(0, 3, size=2).dtype == np.int64
    assert P.randint(0, 3, size=2, dtype=np.int32).dtype == np.int32
    with pytest.raises(MXNetError):
        P.randint(2.5, size=2)
    big = P.randint(2 ** 40, size=4)
    assert big.dtype == np.int64 and big.shape == (4,)


@pytest.mark.parametrize("call", [
    lambda: P.pareto(-1, size=2), lambda: P.pareto(0, size=2), lambda: P.power(-1, size=2),
    lambda: P.weibull(0, size=2), lambda: P.gamma(1, 0, size=2), lambda: P.gamma(-1, 1, size=2),
    lambda: P.chisquare(-1, size=2), lambda: P.beta(-1, 1, size=2),
    lambda: P.exponential(-1, size=2), lambda: P.normal(0, -1, size=2),
])
def test_np_invalid_scalar_parameters_raise_value_error(call):
    # recorded from 1.9.1: ValueError ("expect a > 0", "expect scale > 0", ...)
    with pytest.raises(ValueError):
        call()


def test_np_exponential_scale_zero():
    # recorded from 1.9.1: scale >= 0 is checked, so scale=0 gives zeros
    assert P.exponential(0, size=2).asnumpy().tolist() == [0.0, 0.0]


def test_np_choice_on_nd_array_draws_rows():
    # recorded from 1.9.1: shape (3, 2) for size=3; with p=[0, 1] every draw is row 1
    a = mx.np.array([[1., 2.], [3., 4.]])
    assert P.choice(a, size=3).shape == (3, 2)
    out = P.choice(a, size=(2, 2), p=mx.np.array([0., 1.]))
    assert out.asnumpy().tolist() == [[[3.0, 4.0], [3.0, 4.0]], [[3.0, 4.0], [3.0, 4.0]]]
    with pytest.raises(MXNetError):
        P.choice(mx.np.array(3.), size=2)


def test_np_multinomial_pvals_running_sum():
    # recorded from 1.9.1: a running sum of pvals above 1 + 1e-12 is refused, in float32 for
    # an array and in float64 for a list
    for pv in ([0.5, 0.6, 0.1], [0.1, 0.95], [0.8, 0.7], mx.np.array([0.1] * 10)):
        with pytest.raises(MXNetError):
            P.multinomial(3, pv)
    for pv in ([0.1] * 10, mx.np.array([0.2, 0.3, 0.5]), mx.np.array([1 / 3.] * 3),
               [1 / 7.] * 7, mx.np.array([1 / 7.] * 7)):
        out = P.multinomial(3, pv)
        assert out.dtype == np.int64 and int(out.sum()) == 3
    out = P.multinomial(5, [0.3, 0.7], size=(4,))
    assert out.shape == (4, 2) and out.asnumpy().sum(axis=-1).tolist() == [5] * 4


# --- F.npx.random in a hybridized NumPy-mode block --------------------------------------------

def test_sym_npx_random_in_hybridized_block():
    # recorded from 1.9.1 (the same block, hybridized): shapes, dtypes and the sure outcomes
    from mxnet import gluon

    class NpNoise(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            rnd = F.npx.random
            return (rnd.bernoulli(0.5, None, (2,), None, None, None),
                    rnd.bernoulli(x * 0 + 0.3, None, None, None, None, None),
                    rnd.bernoulli(None, x, None, "int32", None, None),
                    rnd.bernoulli(x * 0 + 1, None, (3, 2), None, None, None),
                    rnd.normal_n(0, 1, (2, 3), None, None),
                    rnd.uniform_n(1, 2, 4, None, None),
                    rnd.bernoulli(1.0, None, None, None, None, None))

    mx.npx.set_np()
    try:
        net = NpNoise()
        net.hybridize()
        mx.random.seed(9)
        out = net(mx.np.array([0., 1.]))
        got = [(o.shape, np.dtype(o.dtype).name) for o in out]
        assert got == [((2,), "float32"), ((2,), "float32"), ((2,), "int32"),
                       ((3, 2), "float32"), ((2, 3), "float32"), ((4,), "float32"),
                       ((), "float32")]
        assert out[3].asnumpy().tolist() == [[1.0, 1.0]] * 3
        assert out[6].item() == 1.0
        u = out[5].asnumpy()
        assert ((u >= 1) & (u < 2)).all()
        mx.random.seed(9)
        again = net(mx.np.array([0., 1.]))
        for a, b in zip(out, again):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    finally:
        mx.npx.reset_np()


def test_sym_npx_random_bernoulli_frequencies():
    # closed form: the mean of Bernoulli(p) draws is p (p = sigmoid(logit) for logits);
    # 20,000 draws put the sample mean within 0.02 of p with overwhelming probability
    from mxnet import gluon

    class Draws(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            rnd = F.npx.random
            return (rnd.bernoulli(0.3, None, (20000,), None, None, None),
                    rnd.bernoulli(x * 0 + 0.8, None, None, None, None, None),
                    rnd.bernoulli(None, x * 0 - 1.0, None, None, None, None))

    mx.npx.set_np()
    try:
        net = Draws()
        net.hybridize()
        mx.random.seed(3)
        a, b, c = (o.asnumpy() for o in net(mx.np.zeros((20000,))))
        assert abs(a.mean() - 0.3) < 0.02
        assert abs(b.mean() - 0.8) < 0.02
        assert abs(c.mean() - 1.0 / (1.0 + np.exp(1.0))) < 0.02
    finally:
        mx.npx.reset_np()
