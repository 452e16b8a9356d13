"""The asynchronous backward pass used to overlap gradient communication (issue 5).

A distributed store turns it on by registering in ``autograd._overlap_owners``; here a
plain object does, so these run in one process. Every result is compared with the
synchronous pass (the reference semantics) or a closed form.
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.base import MXNetError

TIMEOUT = 10.0


class _Owner:
    # as a store created with MXNET_KVSTORE_OVERLAP=2: imperative graphs run
    # asynchronously too, so every test here goes through the walker
    _overlap = 2


@pytest.fixture
def overlap():
    owner = _Owner()
    autograd._overlap_owners.add(owner)
    yield owner
    autograd._overlap_owners.discard(owner)
    mx.nd.waitall()


def _mlp(hybrid):
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(16, activation="relu", in_units=8),
            gluon.nn.Dense(16, activation="tanh", in_units=16),
            gluon.nn.Dense(3, in_units=16))
    mx.random.seed(3)
    net.initialize(mx.init.Normal(0.3))
    if hybrid:
        net.hybridize()
    return net


def _train(asynchronous, hybrid, between=None, steps=3, update_on_kvstore=None, kvstore=None):
    owner = _Owner()
    if asynchronous:
        autograd._overlap_owners.add(owner)
    try:
        net = _mlp(hybrid)
        tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1, "momentum": 0.9},
                           kvstore=kvstore, update_on_kvstore=update_on_kvstore)
        rng = np.random.default_rng(1)
        for _ in range(steps):
            x = mx.nd.array(rng.normal(size=(4, 8)))
            y = mx.nd.array(rng.normal(size=(4, 3)))
            with autograd.record():
                loss = ((net(x) - y) ** 2).sum()
            loss.backward()
            if between is not None:
                between(net)
            tr.step(4)
        return [p.data().asnumpy() for p in net.collect_params().values()]
    finally:
        autograd._overlap_owners.discard(owner)


def _clip(net):
    gluon.utils.clip_global_norm([p.grad() for p in net.collect_params().values()], 0.5)


def _read_and_scale(net):
    for p in net.collect_params().values():
        g = p.grad()
        assert np.isfinite(g.asnumpy()).all()
        g *= 0.5


@pytest.mark.parametrize("hybrid", [False, True])
@pytest.mark.parametrize("between", [None, _clip, _read_and_scale])
def test_trainer_steps_equal_the_synchronous_pass(hybrid, between):
    want = _train(False, hybrid, between)
    got = _train(True, hybrid, between)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)


def test_trainer_over_a_local_store_equals_the_synchronous_pass():
    # a store object: with one context 1.9.1 creates no store from the name 'local', and
    # update_on_kvstore=True without one raises
    want = _train(False, True, kvstore=mx.kv.create("local"), update_on_kvstore=True)
    got = _train(True, True, kvstore=mx.kv.create("local"), update_on_kvstore=True)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)


def test_gradients_match_closed_form_and_grad_req_add(overlap):
    x = mx.nd.array([[1.0, 2.0], [3.0, -1.0]])
    w = mx.nd.array([[0.5, -2.0], [1.5, 0.25]])
    w.attach_grad(grad_req="add")
    x.attach_grad()
    for _ in range(2):
        with autograd.record():
            y = (mx.nd.dot(x, w) ** 2).sum()
        y.backward()
    xn, wn = x.asnumpy(), w.asnumpy()
    z = xn @ wn
    np.testing.assert_allclose(w.grad.asnumpy(), 2 * (xn.T @ (2 * z)), rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * z @ wn.T, rtol=1e-6)


class _Gate(autograd.Function):
    """Identity whose backward waits for an event: holds the pass at this node."""

    def __init__(self, gate):
        super().__init__()
        self.gate = gate

    def forward(self, x):
        return x * 1

    def backward(self, dy):
        assert self.gate.wait(TIMEOUT)
        return dy


@pytest.mark.parametrize("hybrid", [False, True])
def test_last_layers_gradients_are_final_before_the_pass_ends(overlap, hybrid):
    net = _mlp(hybrid)
    gate = threading.Event()
    x = mx.nd.ones((2, 8))
    x.attach_grad()
    with autograd.record():
        loss = net(_Gate(gate)(x)).sum()
    loss.backward()
    # the pass is stuck in _Gate's backward, below the network: the network's gradients
    # can be read already, the input's cannot
    last = net[2].weight.grad().asnumpy()
    first = net[0].weight.grad().asnumpy()
    assert x.grad._var.npending
    gate.set()
    gx = x.grad.asnumpy()
    # the same numbers as the synchronous pass
    autograd._overlap_owners.discard(overlap)
    x2 = mx.nd.ones((2, 8))
    x2.attach_grad()
    with autograd.record():
        loss = net(x2).sum()
    loss.backward()
    np.testing.assert_array_equal(last, net[2].weight.grad().asnumpy())
    np.testing.assert_array_equal(first, net[0].weight.grad().asnumpy())
    np.testing.assert_array_equal(gx, x2.grad.asnumpy())


def test_a_write_to_a_saved_array_waits_for_the_pass(overlap):
    gate = threading.Event()
    w = mx.nd.array([1.0, 2.0, 3.0])
    w.attach_grad()
    x = mx.nd.array([4.0, 5.0, 6.0])
    with autograd.record():
        y = (_Gate(gate)(w) * x).sum()
    y.backward()
    threading.Timer(0.1, gate.set).start()
    x[:] = 0          # x is read by the pass: this waits for it to end
    np.testing.assert_array_equal(w.grad.asnumpy(), [4.0, 5.0, 6.0])


class _Broken(autograd.Function):
    def forward(self, x):
        return x * 1

    def backward(self, dy):
        raise ValueError("broken rule of _Broken")


def test_failure_in_the_pass_is_raised_at_the_next_wait_point(overlap):
    x = mx.nd.ones((2, 3))
    x.attach_grad()
    with autograd.record():
        y = (_Broken()(x) * 2).sum()
    y.backward()                      # returns: the failure is deferred
    with pytest.raises(MXNetError, match=r"autograd\.backward.*broken rule of _Broken"):
        x.grad.asnumpy()
    x.grad.asnumpy()                  # reported once; the buffer is usable again


def test_kernel_failure_names_the_operator(overlap):
    a = mx.nd.ones((2, 3))
    a.attach_grad()
    with autograd.record():
        b = mx.nd.sum(a * 2)
    # a head gradient of the wrong shape fails inside the pass, in the sum's gradient rule;
    # the error names the pass and the failing operator, "<op>: <what went wrong>"
    b.backward(mx.nd.ones((5, 7)))
    with pytest.raises(MXNetError, match=r"autograd\.backward failed: [A-Za-z_]+: .*\(5, 7\)"):
        a.grad.wait_to_read()


def test_graph_errors_stay_synchronous(overlap):
    x = mx.nd.ones((2,))
    x.attach_grad()
    with pytest.raises(MXNetError, match="not in a computational graph"):
        (x * 2).backward()
    with autograd.record():
        y = (x * 3).sum()
    y.backward()
    with pytest.raises(MXNetError, match="retain_graph"):
        y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), [3.0, 3.0])


def test_gradient_of_a_collected_variable_is_still_written(overlap):
    def make():
        v = mx.nd.array([1.0, 2.0])
        v.attach_grad()
        with autograd.record():
            y = (v * v).sum()
        y.backward()
        return v.grad       # the variable itself is dropped here
    g = make()
    np.testing.assert_array_equal(g.asnumpy(), [2.0, 4.0])


def test_naive_engine_keeps_the_synchronous_pass(overlap):
    prev = mx.engine.set_engine("NaiveEngine")
    try:
        x = mx.nd.array([1.0, -2.0])
        x.attach_grad()
        with autograd.record():
            y = (x ** 3).sum()
        y.backward()
        assert x.grad._var is None or not x.grad._var.npending
        np.testing.assert_array_equal(x.grad.asnumpy(), [3.0, 12.0])
    finally:
        mx.engine.set_engine(prev)


class _Where(autograd.Function):
    """Identity that notes the thread its backward runs on."""

    threads: list = []

    def forward(self, x):
        return x * 1

    def backward(self, dy):
        _Where.threads.append(threading.current_thread())
        return dy


class _LevelOne:
    _overlap = 1   # a store created with MXNET_KVSTORE_OVERLAP=1 (the default)


@pytest.mark.parametrize("hybrid", [False, True])
def test_level_one_overlaps_only_graphs_with_a_hybridized_block(hybrid):
    owner = _LevelOne()
    autograd._overlap_owners.add(owner)
    try:
        net = _mlp(hybrid)
        x = mx.nd.ones((2, 8))
        x.attach_grad()
        _Where.threads = []
        with autograd.record():
            loss = net(_Where()(x)).sum()
        loss.backward()
        gx = x.grad.asnumpy()
        ran_here = _Where.threads == [threading.current_thread()]
        assert ran_here != hybrid
    finally:
        autograd._overlap_owners.discard(owner)
    # the same gradient as without any store
    x2 = mx.nd.ones((2, 8))
    x2.attach_grad()
    with autograd.record():
        loss = net(x2).sum()
    loss.backward()
    np.testing.assert_array_equal(gx, x2.grad.asnumpy())
