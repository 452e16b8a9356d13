"""A hybridized block under autograd.record() is one tape node whose backward runs a
prebuilt plan (mxnet.executor.program); its outputs and gradients must equal the
imperative path's, whatever the gradient requests, sharing and call pattern."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn, rnn
from mxnet.ndarray.tape import FusedNode


def _mlp():
    net = nn.HybridSequential(prefix="mlp_")
    with net.name_scope():
        net.add(nn.Dense(16, activation="relu"), nn.Dense(12, activation="tanh"), nn.Dense(5))
    return net


def _convbn():
    net = nn.HybridSequential(prefix="cbn_")
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1, use_bias=False), nn.BatchNorm(),
                nn.Activation("relu"), nn.Conv2D(3, 3), nn.BatchNorm(scale=False),
                nn.Activation("sigmoid"), nn.Flatten(), nn.Dense(4))
    return net


class _LM(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.emb = nn.Embedding(11, 6)
            self.rnn = rnn.LSTM(7, num_layers=2, input_size=6)
            self.dec = nn.Dense(11, flatten=False, in_units=7)

    def hybrid_forward(self, F, x):
        return self.dec(self.rnn(self.emb(x)))


_NETS = {
    "mlp": (_mlp, lambda rs: rs.uniform(-1, 1, (6, 9)), lambda rs: rs.randint(0, 5, (6,))),
    "convbn": (_convbn, lambda rs: rs.uniform(-1, 1, (3, 2, 6, 6)),
               lambda rs: rs.randint(0, 4, (3,))),
    "lstm": (lambda: _LM(prefix="lm_"), lambda rs: rs.randint(0, 11, (5, 3)),
             lambda rs: rs.randint(0, 11, (5, 3))),
}


def _build(kind, hybrid, grad_req="write"):
    make, xs, ys = _NETS[kind]
    mx.random.seed(7)
    net = make()
    net.initialize(mx.init.Xavier())
    rs = np.random.RandomState(3)
    x, y = mx.nd.array(xs(rs)), mx.nd.array(ys(rs))
    net(x)   # finish deferred initialisation
    # the same starting values for both paths
    rs = np.random.RandomState(11)
    for p in net.collect_params().values():
        if p.name.endswith("running_var") or p.name.endswith("moving_var"):
            p.set_data(mx.nd.array(rs.uniform(0.5, 1.5, p.shape)))
        else:
            p.set_data(mx.nd.array(rs.uniform(-0.5, 0.5, p.shape)))
    if grad_req != "write":
        net.collect_params().setattr("grad_req", grad_req)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    if hybrid:
        net.hybridize(static_alloc=True, static_shape=True)
        loss.hybridize()
    return net, loss, x, y


def _state(net):
    params = net.collect_params()
    grads = {n: p.grad().asnumpy().copy() for n, p in params.items() if p.grad_req != "null"}
    datas = {n: p.data().asnumpy().copy() for n, p in params.items()}
    return grads, datas


def _close(a, b, what):
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=what)


def _compare(kind, step, grad_req="write", steps=3):
    results = []
    for hybrid in (False, True):
        net, loss, x, y = _build(kind, hybrid, grad_req)
        outs = [step(net, loss, x, y).asnumpy() for _ in range(steps)]
        results.append((outs, _state(net)))
    (o0, (g0, d0)), (o1, (g1, d1)) = results
    for a, b in zip(o0, o1):
        _close(b, a, f"{kind}: output")
    assert g0.keys() == g1.keys()
    for n in g0:
        _close(g1[n], g0[n], f"{kind}: gradient of {n}")
    for n in d0:   # includes BatchNorm's moving statistics, updated in training mode
        _close(d1[n], d0[n], f"{kind}: value of {n}")


def _loss_step(net, loss, x, y):
    with autograd.record():
        out = net(x)
        lv = loss(out, y)
    lv.backward()
    return out


@pytest.mark.parametrize("kind", sorted(_NETS))
@pytest.mark.parametrize("grad_req", ["write", "add"])
def test_single_node_gradients_equal_imperative(kind, grad_req):
    _compare(kind, _loss_step, grad_req)


@pytest.mark.parametrize("kind", sorted(_NETS))
def test_output_used_twice_in_the_loss(kind):
    def step(net, loss, x, y):
        with autograd.record():
            out = net(x)
            lv = loss(out, y) + (out * out).mean() + out.sum() * 0.1
        lv.backward()
        return out
    _compare(kind, step)


def test_hybridized_call_is_one_tape_node():
    net, loss, x, y = _build("mlp", True)
    with autograd.record():
        out = net(x)
        lv = loss(out, y)
    assert isinstance(out._node[0], FusedNode)
    assert isinstance(lv._node[0], FusedNode)
    lv.backward()
    # the loop reuses the same buffers from the second step on
    prog = next(iter(net._programs.values()))
    for _ in range(3):
        _loss_step(net, loss, x, y)
    assert len(prog._free) == 1
    arena = prog._free[0]
    bufs = [id(b) for b in arena.fbuf if b is not None]
    _loss_step(net, loss, x, y)
    assert prog._free[0] is arena and [id(b) for b in arena.fbuf if b is not None] == bufs


def test_two_recorded_calls_before_one_backward():
    res = []
    for hybrid in (False, True):
        net, _, x, _ = _build("mlp", hybrid)
        x2 = x * 2 - 0.3
        with autograd.record():
            a = net(x)
            b = net(x2)
            z = (a * b).sum() + a.sum()
        z.backward()
        res.append(_state(net)[0])
    for n in res[0]:
        _close(res[1][n], res[0][n], f"gradient of {n}")


def test_input_gradient_and_autograd_grad_are_fresh_arrays():
    res = []
    for hybrid in (False, True):
        net, _, x, _ = _build("mlp", hybrid)
        x.attach_grad()
        with autograd.record():
            z = (net(x) ** 2).sum()
        z.backward()
        gx = x.grad.asnumpy().copy()
        w = net[0].weight.data()
        with autograd.record():
            z = (net(x) ** 2).sum()
        g1 = autograd.grad(z, [w, x])
        first = [g.asnumpy().copy() for g in g1]
        with autograd.record():     # a second call must not overwrite what grad returned
            z = (net(x * 3) ** 2).sum()
        autograd.grad(z, [w, x])
        for g, f in zip(g1, first):
            np.testing.assert_array_equal(g.asnumpy(), f)
        res.append([gx] + first)
    for a, b in zip(*res):
        _close(b, a, "input / autograd.grad gradient")


def test_retain_graph_backward_twice():
    res = []
    for hybrid in (False, True):
        net, _, x, _ = _build("convbn", hybrid, grad_req="add")
        with autograd.record():
            z = (net(x) ** 2).sum()
        z.backward(retain_graph=True)
        z.backward()
        res.append(_state(net))
    for n in res[0][0]:
        _close(res[1][0][n], res[0][0][n], f"gradient of {n}")
    for n in res[0][1]:
        _close(res[1][1][n], res[0][1][n], f"value of {n}")


class _Sin(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.sin(x) * x


def test_create_graph_falls_back_to_the_per_operator_rules():
    res = []
    for hybrid in (False, True):
        mx.random.seed(1)
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Dense(4), _Sin(), nn.Dense(1))
        net.initialize(mx.init.Xavier())
        if hybrid:
            net.hybridize()
        x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (3, 2)))
        x.attach_grad()
        with autograd.record():
            y = net(x).sum()
            gx = autograd.grad(y, [x], create_graph=True)[0]
            z = (gx * gx).sum()
        z.backward()
        res.append((gx.asnumpy(), x.grad.asnumpy(), net[0].weight.grad().asnumpy()))
    for a, b in zip(*res):
        _close(b, a, "second-order gradient")


def test_dropout_in_training_matches():
    res = []
    for hybrid in (False, True):
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Dense(8, activation="relu"), nn.Dropout(0.5), nn.Dense(3))
        net.initialize(mx.init.Constant(0.1))
        if hybrid:
            net.hybridize()
        x = mx.nd.ones((4, 5))
        mx.random.seed(42)
        with autograd.record():
            out = net(x)
            z = (out * out).sum()
        z.backward()
        res.append((out.asnumpy(), net[0].weight.grad().asnumpy()))
    for a, b in zip(*res):
        _close(b, a, "dropout")


def test_new_shapes_after_hybridize_and_nested_blocks():
    res = []
    for hybrid in (False, True):
        net, loss, x, y = _build("mlp", hybrid)
        outs = []
        for n in (6, 2, 6):
            xi = x[:n]
            with autograd.record():
                lv = loss(net(xi), y[:n])
            lv.backward()
            outs.append(lv.asnumpy())
            outs.append(net[1].weight.grad().asnumpy().copy())
        res.append(outs)
    for a, b in zip(*res):
        _close(b, a, "new shapes")


def test_outputs_held_by_the_user_are_never_overwritten():
    net, _, x, _ = _build("mlp", True)
    with autograd.predict_mode():
        first = net(x)
        keep = first.asnumpy().copy()
        net(x * 2)
        net(x * 3)
    np.testing.assert_array_equal(first.asnumpy(), keep)
    view = first[1:3]
    del first
    net(x * 4)
    np.testing.assert_array_equal(view.asnumpy(), keep[1:3])
