"""The mx.np gaps closed against MXNet 1.9.1: gradients of np.linalg (svd, cholesky,
tensorinv, tensorsolve; zero gradients for eigh/eigvalsh/eig/eigvals/pinv), ``matmul`` with
1-d operands (nd and symbolic), and np.random samplers with array-valued parameters.

Reference values come from tests/golden/numpy_gaps.{npz,json} (tools/golden/gen_numpy_gaps.py).
"""
import json
import os

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, np, npx

HERE = os.path.join(os.path.dirname(__file__), "..", "golden")
REGEN = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
         "/work/main/tools/golden/gen_numpy_gaps.py")


def _load():
    npz, js = os.path.join(HERE, "numpy_gaps.npz"), os.path.join(HERE, "numpy_gaps.json")
    if not (os.path.exists(npz) and os.path.exists(js)):
        pytest.fail(f"golden fixture missing; regenerate with: {REGEN}")
    with open(js) as f:
        return dict(onp.load(npz)), json.load(f)


G, META = _load()
LINALG = {"svd": np.linalg.svd, "cholesky": np.linalg.cholesky,
          "tensorinv": np.linalg.tensorinv, "tensorsolve": np.linalg.tensorsolve,
          "eigh": np.linalg.eigh, "eigvalsh": np.linalg.eigvalsh, "eig": np.linalg.eig,
          "eigvals": np.linalg.eigvals, "pinv": np.linalg.pinv, "matmul": np.matmul}


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _close(got, want, rel=1e-5):
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype,
                                                                 want.shape, want.dtype)
    scale = max(float(onp.abs(want).max(initial=0.0)), 1e-30)
    err = float(onp.abs(got.astype(onp.float64) - want).max(initial=0.0))
    assert err <= rel * scale, f"max error {err:.3g} vs scale {scale:.3g}"


def _run_golden(key, fn, n_in, n_out, kw):
    xs = [np.array(G[f"{key}/in{i}"]) for i in range(n_in)]
    for x in xs:
        x.attach_grad()
    with autograd.record():
        outs = fn(*xs, **kw)
        outs = list(outs) if isinstance(outs, tuple) else [outs]
        assert len(outs) == n_out
        total = sum((o * np.array(G[f"{key}/head{i}"])).sum() for i, o in enumerate(outs))
    total.backward()
    for i, o in enumerate(outs):
        _close(o.asnumpy(), G[f"{key}/out{i}"])
    for i, x in enumerate(xs):
        _close(x.grad.asnumpy(), G[f"{key}/grad{i}"])


@pytest.mark.parametrize("case", META["linalg"], ids=[c["key"] for c in META["linalg"]])
def test_linalg_values_and_gradients_match_reference(case):
    kw = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kw"].items()}
    _run_golden(case["key"], LINALG[case["fn"]], case["n_in"], case["n_out"], kw)


def test_zero_gradient_decompositions_are_recorded():
    # 1.9.1 registers zero gradients for these: backward runs and gives exact zeros
    a = np.array([[4., 1.], [1., 3.]])
    a.attach_grad()
    with autograd.record():
        w, v = np.linalg.eigh(a)
        y = (w * 2).sum() + (v * 3).sum() + np.linalg.pinv(a).sum()
    y.backward()
    assert (a.grad.asnumpy() == 0).all()


def _numeric_grad(f, x, eps=1e-6):
    g = onp.zeros_like(x)
    for idx in onp.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[idx] += eps
        xm[idx] -= eps
        g[idx] = (f(xp) - f(xm)) / (2 * eps)
    return g


def _check_numeric(build, x, head_seed=0, rel=1e-5):
    """Compare autograd's gradient of sum(head * build(x)) with central differences."""
    rs = onp.random.RandomState(head_seed)
    outs = build(np.array(x))
    outs = list(outs) if isinstance(outs, tuple) else [outs]
    heads = [rs.randn(*o.shape) for o in outs]

    def scalar(v):
        res = build(np.array(v))
        res = list(res) if isinstance(res, tuple) else [res]
        return sum(float((r.asnumpy() * h).sum()) for r, h in zip(res, heads))

    xa = np.array(x)
    xa.attach_grad()
    with autograd.record():
        res = build(xa)
        res = list(res) if isinstance(res, tuple) else [res]
        total = sum((r * np.array(h)).sum() for r, h in zip(res, heads))
    total.backward()
    num = _numeric_grad(scalar, x)
    got = xa.grad.asnumpy()
    assert onp.abs(got - num).max() <= rel * max(onp.abs(num).max(), 1.0), (got, num)


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (2, 2, 4), (1, 4)])
def test_svd_gradient_numeric(shape):
    x = onp.random.RandomState(1).randn(*shape)
    _check_numeric(np.linalg.svd, x)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_gradient_numeric(upper):
    m = onp.random.RandomState(2).randn(2, 3, 3)
    x = m @ m.transpose(0, 2, 1) + 3 * onp.eye(3)
    # differentiate through a symmetrising map: the gradient 1.9.1 gives is symmetric
    _check_numeric(lambda a: np.linalg.cholesky((a + np.swapaxes(a, -1, -2)) / 2, upper=upper)
                   if upper else np.linalg.cholesky((a + np.swapaxes(a, -1, -2)) / 2), x)


def test_cholesky_gradient_is_symmetric():
    a = np.array([[4., 2.], [2., 3.]])
    a.attach_grad()
    with autograd.record():
        y = (np.linalg.cholesky(a) * np.array([[1., 0.], [5., 2.]])).sum()
    y.backward()
    g = a.grad.asnumpy()
    assert onp.allclose(g, g.T) and onp.abs(g).max() > 0


@pytest.mark.parametrize("shape,ind", [((4, 2, 2), 1), ((2, 3, 6), 2)])
def test_tensorinv_gradient_numeric(shape, ind):
    rs = onp.random.RandomState(3)
    n = int(onp.prod(shape[:ind]))
    x = rs.randn(*shape) + 3 * onp.eye(n).reshape(shape)
    _check_numeric(lambda a: np.linalg.tensorinv(a, ind=ind), x)


@pytest.mark.parametrize("axes", [None, (0,)])
def test_tensorsolve_gradient_numeric(axes):
    rs = onp.random.RandomState(4)
    if axes is None:
        a = rs.randn(2, 3, 6) + 3 * onp.eye(6).reshape(2, 3, 6)
    else:
        a = rs.randn(6, 2, 3) + 3 * onp.eye(6).reshape(6, 2, 3)
    b = rs.randn(2, 3)
    _check_numeric(lambda t: np.linalg.tensorsolve(t, np.array(b), axes=axes), a)
    _check_numeric(lambda t: np.linalg.tensorsolve(np.array(a), t, axes=axes), b)


def test_svd_conventions():
    # reduced (ut, l, v) with M <= N; each row of v has its largest-magnitude entry positive
    a = np.array(onp.random.RandomState(5).randn(3, 5).astype("float32"))
    ut, l, v = np.linalg.svd(a)
    assert (ut.shape, l.shape, v.shape) == ((3, 3), (3,), (3, 5))
    vn = v.asnumpy()
    assert (vn[onp.arange(3), onp.abs(vn).argmax(axis=1)] > 0).all()
    onp.testing.assert_allclose((ut.asnumpy() * l.asnumpy()) @ vn, a.asnumpy(), atol=1e-5)
    with pytest.raises(mx.MXNetError, match="svd"):
        np.linalg.svd(np.ones((4, 2)))
    assert np.linalg.svd(np.array([[1, 2], [3, 4]]))[1].dtype == onp.float32


SYM_JSON = sorted(META["sym_linalg_json"].items())


@pytest.mark.parametrize("expr,want", SYM_JSON, ids=[e for e, _ in SYM_JSON])
def test_symbolic_linalg_json_matches_reference(expr, want):
    env = {"L": mx.sym.np.linalg, "mx": mx, "a": mx.sym.var("a").as_np_ndarray(),
           "b": mx.sym.var("b").as_np_ndarray()}
    with mx.name.NameManager():
        assert eval(expr, env).tojson() == want


def test_symbolic_linalg_gradients_match_imperative():
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x, w):
            u, s, v = F.np.linalg.svd(x)
            low = F.np.linalg.cholesky(F.np.matmul(x, F.np.swapaxes(x, 0, 1)) + F.np.eye(2))
            return (F.np.matmul(s, w) + low.sum() + (u * v[:, :2]).sum()
                    + F.np.linalg.tensorinv(x[:, :2], ind=1).sum())

    x0 = onp.random.RandomState(0).randn(2, 3)
    res = []
    for hybrid in (False, True):
        net = Net()
        if hybrid:
            net.hybridize()
        x, w = np.array(x0), np.array([1., 2.])
        x.attach_grad()
        w.attach_grad()
        with autograd.record():
            y = net(x, w)
        y.backward()
        res.append((y.asnumpy(), x.grad.asnumpy(), w.grad.asnumpy()))
    for got, want in zip(res[1], res[0]):
        onp.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


# --- matmul with 1-d operands ----------------------------------------------------------------

@pytest.mark.parametrize("case", META["matmul"], ids=[c["key"] for c in META["matmul"]])
def test_matmul_1d_nd_and_symbolic(case):
    _run_golden(case["key"], np.matmul, 2, 1, {})
    a, b = mx.sym.var("a").as_np_ndarray(), mx.sym.var("b").as_np_ndarray()
    s = mx.sym.np.matmul(a, b)
    assert list(s.infer_shape(a=tuple(case["a"]), b=tuple(case["b"]))[1][0]) == case["sym_shape"]
    x, y = G[f"{case['key']}/in0"], G[f"{case['key']}/in1"]
    ex = s._bind(mx.cpu(), {"a": mx.nd.array(x), "b": mx.nd.array(y)}) if hasattr(
        s, "_bind") else s.bind(mx.cpu(), {"a": mx.nd.array(x), "b": mx.nd.array(y)})
    _close(ex.forward()[0].asnumpy(), G[f"{case['key']}/out0"])


def test_matmul_1d_errors():
    a, b = mx.sym.var("a").as_np_ndarray(), mx.sym.var("b").as_np_ndarray()
    assert META["matmul_mismatch"] == "MXNetError"
    with pytest.raises(mx.MXNetError):
        mx.sym.np.matmul(a, b).infer_shape(a=(3,), b=(4,))
    with pytest.raises(mx.MXNetError):
        np.matmul(np.ones(3), np.ones(4))
    with pytest.raises(ValueError):
        np.matmul(np.ones(3), np.array(2.))


def test_matmul_1d_hybridized_block():
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x, w):
            return F.np.matmul(x, w)

    net = Net()
    net.hybridize()
    x, w = np.array([1., 2., 3.]), np.array([[1., 0.], [0., 1.], [1., 1.]])
    out = net(x, w)
    onp.testing.assert_allclose(out.asnumpy(), [4., 5.])


# --- random samplers with array-valued parameters ----------------------------------------

RANDOM = sorted(META["random"].items())


@pytest.mark.parametrize("expr,want", RANDOM, ids=[e for e, _ in RANDOM])
def test_random_array_params_shapes_dtypes_errors(expr, want):
    env = {"np": np}
    if want.get("error"):
        exc = {"ValueError": ValueError, "MXNetError": mx.MXNetError}[want["error"]]
        with pytest.raises(exc):
            eval(expr, env)
        return
    out = eval(expr, env)
    assert isinstance(out, np.ndarray)
    assert (list(out.shape), str(out.dtype)) == (want["shape"], want["dtype"])


GRADS = sorted(META["random_grads"].items())


@pytest.mark.parametrize("name,want", GRADS, ids=[n for n, _ in GRADS])
def test_random_array_params_which_gradients(name, want):
    a, b = np.array([[1.], [2.]]), np.array([0.5, 1.0, 2.0])
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = eval(want["expr"], {"np": np, "a": a, "b": b})
    y.backward()
    assert bool((a.grad == 0).all()) == want["a_zero"]
    assert bool((b.grad == 0).all()) == want["b_zero"]


# pathwise gradients (checked on 1.9.1's own samples when the fixture was made): d y / d param
PATHWISE = {
    "normal": (lambda a, b: np.random.normal(a, b), lambda y, a, b: (y - a) / b),
    "logistic": (lambda a, b: np.random.logistic(a, b), lambda y, a, b: (y - a) / b),
    "gumbel": (lambda a, b: np.random.gumbel(a, b), lambda y, a, b: (y - a) / b),
    "exponential": (lambda a, b: np.random.exponential(b), lambda y, a, b: y / b),
    "rayleigh": (lambda a, b: np.random.rayleigh(b), lambda y, a, b: y / b),
    "weibull": (lambda a, b: np.random.weibull(b), lambda y, a, b: -y * onp.log(y) / b),
    "pareto": (lambda a, b: np.random.pareto(b),
               lambda y, a, b: -(y + 1) * onp.log(y + 1) / b),
}


@pytest.mark.parametrize("name", sorted(PATHWISE))
def test_random_pathwise_gradient_values(name):
    draw, dydb = PATHWISE[name]
    mx.random.seed(11)
    a, b = np.array([[1.], [2.]]), np.array([0.5, 1.0, 2.0])
    b.attach_grad()
    with autograd.record():
        y = draw(a, b)
    y.backward()
    yv = y.asnumpy().astype(onp.float64)
    want = dydb(yv, a.asnumpy(), b.asnumpy()).reshape(-1, 3).sum(axis=0)
    onp.testing.assert_allclose(b.grad.asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_random_array_params_distributions():
    mx.random.seed(3)
    loc, scale = np.array([-2., 0., 5.]), np.array([0.5, 1., 2.])
    y = np.random.normal(loc, scale, size=(20000, 3)).asnumpy()
    onp.testing.assert_allclose(y.mean(0), [-2., 0., 5.], atol=0.05)
    onp.testing.assert_allclose(y.std(0), [0.5, 1., 2.], rtol=0.03)
    u = np.random.uniform(np.array([0., 10.]), np.array([1., 12.]), size=(20000, 2)).asnumpy()
    assert (u[:, 0] >= 0).all() and (u[:, 0] < 1).all() and (u[:, 1] >= 10).all()
    onp.testing.assert_allclose(u.mean(0), [0.5, 11.], atol=0.03)
    g = np.random.gamma(np.array([2., 5.]), np.array([1., 0.5]), size=(20000, 2)).asnumpy()
    onp.testing.assert_allclose(g.mean(0), [2., 2.5], rtol=0.05)
    e = np.random.exponential(np.array([1., 3.]), size=(20000, 2)).asnumpy()
    onp.testing.assert_allclose(e.mean(0), [1., 3.], rtol=0.05)
    bt = np.random.beta(np.array([2.]), np.array([6.]), size=(20000, 1)).asnumpy()
    onp.testing.assert_allclose(bt.mean(), 0.25, atol=0.01)


def test_random_array_params_out_and_size_mismatch():
    out = np.zeros((2, 3))
    res = np.random.normal(np.array([[1.], [2.]]), np.array([0.5, 1., 2.]), out=out)
    assert res is out and (out.asnumpy() != 0).all()
    with pytest.raises(mx.MXNetError, match="normal"):
        np.random.normal(np.array([[1.], [2.]]), np.array([0.5, 1., 2.]), size=(5, 7))


def test_creation_defaults_stay_float32():
    # 1.9.1 has no float64-default switch (set_np takes only shape and array, npx has no
    # is_np_default_dtype): creation functions and samplers give 1.9.1's dtypes
    assert META["set_np_params"] == ["shape", "array"]
    assert META["has_is_np_default_dtype"] is False
    for expr, dtype in META["creation_dtypes"].items():
        assert str(eval(expr, {"np": np}).dtype) == dtype, expr
