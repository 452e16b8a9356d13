"""mx.nd.contrib's Python-level functions (control flow, optimizer front ends) and their
mx.sym.contrib counterparts; 1.9.1 goldens for them are replayed in
tests/operator/test_contrib_ops.py."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx

nd = mx.nd
C = nd.contrib


def _grads(fn, *arrays):
    xs = [nd.array(a, dtype="float64") for a in arrays]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = fn(*xs)
    y.backward()
    return [x.grad.asnumpy() for x in xs]


def test_foreach_gradient_matches_the_unrolled_loop():
    x = np.random.RandomState(0).uniform(-1, 1, (4, 3))
    h0 = np.random.RandomState(1).uniform(-1, 1, (3,))

    def step(xt, states):
        h = nd.tanh(xt + states[0] * 0.5)
        return h, [h]

    def looped(x, h):
        outs, states = C.foreach(step, x, [h])
        return (outs * outs).sum() + states[0].sum()

    def unrolled(x, h):
        total, outs = 0, []
        for t in range(4):
            h = nd.tanh(x[t] + h * 0.5)
            outs.append(h)
        return (nd.stack(*outs) ** 2).sum() + h.sum() + total

    for a, b in zip(_grads(looped, x, h0), _grads(unrolled, x, h0)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_foreach_structures():
    a, b = nd.arange(6).reshape((3, 2)), nd.ones((3, 2))
    outs, states = C.foreach(lambda xs, s: ([xs[0] + xs[1], [xs[0]]], s), [a, b], nd.zeros(2))
    assert outs[0].shape == (3, 2) and outs[1][0].shape == (3, 2)
    assert isinstance(states, nd.NDArray)
    with pytest.raises(TypeError):
        C.foreach(lambda x, s: (x, s), [a, 3], [nd.zeros(2)])


def test_while_loop_padding_and_results():
    outs, vars_ = C.while_loop(lambda i, s: i < 3, lambda i, s: ([i, s * 2], [i + 1, s + i]),
                               [nd.array([0]), nd.array([1])], max_iterations=5)
    np.testing.assert_array_equal(outs[0].asnumpy().ravel(), [0, 1, 2, 0, 0])
    np.testing.assert_array_equal(outs[1].asnumpy().ravel(), [2, 2, 4, 0, 0])
    assert [v.asscalar() for v in vars_] == [3.0, 4.0]
    # a single NDArray in and out, and no step at all
    outs, v = C.while_loop(lambda i: i < 0, lambda i: (i, i + 1), nd.array([5]),
                           max_iterations=2)
    assert outs == [] and isinstance(v, nd.NDArray) and v.asscalar() == 5


def test_while_loop_errors():
    with pytest.raises(ValueError, match="max_iterations"):
        C.while_loop(lambda i: i < 3, lambda i: (None, [i + 1]), [nd.zeros(1)])
    with pytest.raises(ValueError, match="consistent"):
        C.while_loop(lambda i: i < 3, lambda i: (None, [i + 1, i]), [nd.zeros(1)],
                     max_iterations=3)


def test_cond_picks_a_branch_and_passes_gradients():
    def fn(x):
        return C.cond(x.sum() > 0, lambda: x * 3, lambda: x * x)
    np.testing.assert_array_equal(_grads(fn, [1.0, 2.0])[0], [3, 3])
    np.testing.assert_array_equal(_grads(fn, [-1.0, -2.0])[0], [-2, -4])
    assert C.cond(0, lambda: 1, lambda: 2) == 2


def test_optimizer_front_ends_update_states_in_place():
    w, g = nd.array([[1.0, 2.0]]), nd.array([[0.5, -0.5]])
    m, v = nd.zeros((1, 2)), nd.zeros((1, 2))
    new = C.adamw_update(w, g, m, v, rescale_grad=2.0, lr=0.1, eta=1.0)
    np.testing.assert_allclose(m.asnumpy(), [[0.1, -0.1]], rtol=1e-6)
    step = 0.1 * 0.1 / (np.sqrt(0.001) + 1e-8)       # lr * m / (sqrt(v) + eps)
    np.testing.assert_allclose(new.asnumpy(), [[1 - step, 2 + step]], rtol=1e-5)
    np.testing.assert_allclose(g.asnumpy(), [[1.0, -1.0]])   # the rescaled grad stays there
    ws = [nd.ones((2,)), nd.ones((3,))]
    C.multi_lamb_update(ws, [nd.ones((2,)), nd.ones((3,))], [nd.zeros(2), nd.zeros(3)],
                        [nd.zeros(2), nd.zeros(3)], step_count=[1, 1], lrs=[0.1, 0.1],
                        wds=[0.0, 0.0], out=ws)
    assert (ws[0].asnumpy() < 1).all() and (ws[1].asnumpy() < 1).all()
    h = nd.zeros((2, 1))
    out = C.group_adagrad_update(nd.ones((2, 3)), nd.ones((2, 3)), h, lr=0.1, epsilon=0.0)
    np.testing.assert_allclose(h.asnumpy(), [[1], [1]])
    np.testing.assert_allclose(out.asnumpy(), np.full((2, 3), 0.9), rtol=1e-6)


def test_explicit_backward_operators():
    og = nd.array([[1, 2], [3, 4], [5, 6]])
    np.testing.assert_array_equal(
        C.backward_quadratic(og, nd.array([[1, 1], [2, 2], [3, 3]]), a=1, b=2).asnumpy(),
        [[4, 8], [18, 24], [40, 48]])
    np.testing.assert_array_equal(C.backward_gradientmultiplier(og, scalar=3).asnumpy(),
                                  3 * og.asnumpy())
    g_old, g_idx, g_new = C.backward_index_copy(og, nd.zeros((3, 2)), nd.array([2, 0, 2]),
                                                nd.ones((3, 2)))
    np.testing.assert_array_equal(g_old.asnumpy(), [[0, 0], [3, 4], [0, 0]])
    np.testing.assert_array_equal(g_new.asnumpy(), [[5, 6], [1, 2], [0, 0]])
    assert not g_idx.asnumpy().any()


def test_module_level_names():
    assert C.current_context() == mx.current_context()
    assert C.np is np and C.mx is mx and C.ndarray is nd
    assert C.uniform(0, 1, shape=(2,)).shape == (2,)


def test_symbol_front_ends():
    s, et, es = mx.sym.contrib.rand_zipfian(mx.sym.var("t"), 6, 10)
    outs = mx.sym.Group([s, et, es]).bind(mx.cpu(), {"t": nd.array([1, 2])}).forward()
    assert outs[0].dtype == np.int64 and outs[0].shape == (6,)
    np.testing.assert_allclose(outs[1].asnumpy(), np.log([1.5, 4 / 3]) / np.log(11) * 6)
    args = {k: nd.array(np.full((2, 2), i, dtype=np.float32)) for i, k in enumerate("wgmv", 1)}
    sym = mx.sym.contrib.adamw_update(*[mx.sym.var(k) for k in "wgmv"], 0.5, lr=0.1, eta=1.0)
    want = C.adamw_update(*[a.copy() for a in args.values()], 0.5, lr=0.1, eta=1.0)
    np.testing.assert_allclose(sym.bind(mx.cpu(), args).forward()[0].asnumpy(),
                               want.asnumpy())
