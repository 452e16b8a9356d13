"""Compatibility sweep H: the lifetime of a Custom operator's CustomOp in executors, and
model-parallel placement (``ctx_group`` / ``group2ctx``). Expected values and contexts were
recorded from MXNet 1.9.1 (NaiveEngine, CPU)."""
import numpy as np
import pytest

import mxnet as mx

# ---------------------------------------------------------------------------------------------
# Custom operator lifetime

_LOG = []


class _CountOp(mx.operator.CustomOp):
    """Keeps a counter on the instance: forward multiplies by it, backward by it + 10."""

    def __init__(self):
        super().__init__()
        self.n = 0

    def forward(self, is_train, req, in_data, out_data, aux):
        self.n += 1
        _LOG.append(("fwd", self.n, int(is_train)))
        self.assign(out_data[0], req[0], in_data[0] * self.n)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.n += 10
        _LOG.append(("bwd", self.n))
        self.assign(in_grad[0], req[0], out_grad[0] * self.n)


@mx.operator.register("sweepH_count")
class _CountProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def create_operator(self, ctx, shapes, dtypes):
        _LOG.append(("create", str(ctx), shapes))
        return _CountOp()


def _take():
    out = list(_LOG)
    del _LOG[:]
    return out


@pytest.fixture(autouse=True)
def _clear_log():
    del _LOG[:]
    yield
    del _LOG[:]


def test_custom_op_created_once_per_executor_node():
    x = mx.sym.Variable("x")
    y = mx.sym.Custom(x, op_type="sweepH_count", name="c")
    assert _take() == []
    ex = y.simple_bind(mx.cpu(), x=(2, 3))
    # 1.9.1: create_operator runs at bind time, once
    assert _take() == [("create", "cpu(0)", [[2, 3]])]
    ex.arg_dict["x"][:] = 1
    outs, grads = [], []
    for _ in range(3):
        o = ex.forward(is_train=True)
        ex.backward(mx.nd.ones((2, 3)))
        outs.append(o[0].asnumpy()[0, 0])
        grads.append(ex.grad_dict["x"].asnumpy()[0, 0])
    # recorded from 1.9.1: the same instance serves every forward and backward
    assert outs == [1.0, 12.0, 23.0]
    assert grads == [11.0, 22.0, 33.0]
    assert [e[0] for e in _take()] == ["fwd", "bwd"] * 3
    assert ex.forward()[0].asnumpy()[0, 0] == 34.0
    assert ex.forward()[0].asnumpy()[0, 0] == 35.0
    assert _take() == [("fwd", 34, 0), ("fwd", 35, 0)]
    # reshape binds a new executor: a new CustomOp, created at reshape time
    ex2 = ex.reshape(allow_up_sizing=True, x=(4, 3))
    assert _take() == [("create", "cpu(0)", [[4, 3]])]
    ex2.arg_dict["x"][:] = 1
    assert ex2.forward()[0].asnumpy()[0, 0] == 1.0
    assert ex.forward()[0].asnumpy()[0, 0] == 36.0
    ex.reshape(x=(1, 3))
    assert _take() == [("fwd", 1, 0), ("fwd", 36, 0), ("create", "cpu(0)", [[1, 3]])]


def test_custom_op_bind_two_nodes():
    x = mx.sym.Variable("x")
    y = mx.sym.Custom(x, op_type="sweepH_count", name="a")
    y = mx.sym.Custom(y, op_type="sweepH_count", name="b")
    ex = y.bind(mx.cpu(), {"x": mx.nd.ones((1, 2))})
    assert _take() == [("create", "cpu(0)", [[1, 2]])] * 2
    assert ex.forward()[0].asnumpy().tolist() == [[1.0, 1.0]]
    assert ex.forward()[0].asnumpy().tolist() == [[4.0, 4.0]]
    assert [e[0] for e in _take()] == ["fwd"] * 4


def test_custom_op_imperative_creates_per_call():
    a = mx.nd.ones((2,))
    for _ in range(2):
        assert mx.nd.Custom(a, op_type="sweepH_count").asnumpy().tolist() == [1.0, 1.0]
    a.attach_grad()
    with mx.autograd.record():
        b = mx.nd.Custom(a, op_type="sweepH_count")
    b.backward()
    assert a.grad.asnumpy().tolist() == [11.0, 11.0]
    assert [e[0] for e in _take()] == ["create", "fwd", "create", "fwd", "create", "fwd", "bwd"]


class _Net(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.Custom(x, op_type="sweepH_count")


def test_custom_op_in_hybridized_block():
    x = mx.nd.ones((2,))
    net = _Net()
    net.hybridize()
    for _ in range(2):   # 1.9.1: a default hybridized block creates one per call
        assert net(x).asnumpy().tolist() == [1.0, 1.0]
    assert [e[0] for e in _take()] == ["create", "fwd"] * 2
    net2 = _Net()
    net2.hybridize(static_alloc=True, static_shape=True)
    # with static_alloc and static_shape, 1.9.1 keeps the one created at the first call
    assert net2(x).asnumpy().tolist() == [1.0, 1.0]
    assert net2(x).asnumpy().tolist() == [2.0, 2.0]
    assert _take() == [("create", "cpu(0)", [[2]]), ("fwd", 1, 0), ("fwd", 2, 0)]


def test_custom_op_in_cached_op():
    y = mx.sym.Custom(mx.sym.Variable("x"), op_type="sweepH_count")
    # recorded from 1.9.1: only static_alloc with static_shape keeps the instance
    for flags, second in (((), 1.0), ([("static_alloc", True), ("static_shape", True)], 2.0),
                          ([("static_alloc", "true"), ("static_shape", "true")], 2.0),
                          ([("static_alloc", True)], 1.0)):
        op = mx.nd.CachedOp(y, flags=flags)
        assert op(mx.nd.ones(2)).asnumpy().tolist() == [1.0, 1.0]
        assert op(mx.nd.ones(2)).asnumpy().tolist() == [second] * 2
        creates = [e for e in _take() if e[0] == "create"]
        assert len(creates) == (1 if second == 2.0 else 2)


def test_custom_op_in_module():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    out = mx.sym.MakeLoss(mx.sym.sum(mx.sym.Custom(fc, op_type="sweepH_count", name="c")))
    mod = mx.mod.Module(out, data_names=["data"], label_names=None)
    mod.bind(data_shapes=[("data", (3, 4))])
    assert _take() == [("create", "cpu(0)", [[3, 2]])]
    mod.init_params(mx.init.One())
    mod.init_optimizer(optimizer_params={"learning_rate": 0.0})
    batch = mx.io.DataBatch([mx.nd.ones((3, 4))])
    got = []
    for _ in range(2):
        mod.forward(batch, is_train=True)
        mod.backward()
        mod.update()
        got.append(mod.get_outputs()[0].asnumpy().tolist())
    assert got == [[24.0], [288.0]]   # recorded from 1.9.1
    assert [e[0] for e in _take()] == ["fwd", "bwd", "fwd", "bwd"]
    mod2 = mx.mod.Module(out, data_names=["data"], label_names=None,
                         context=[mx.cpu(0), mx.cpu(1)])
    mod2.bind(data_shapes=[("data", (4, 4))])
    assert _take() == [("create", "cpu(0)", [[2, 2]]), ("create", "cpu(1)", [[2, 2]])]


# ---------------------------------------------------------------------------------------------
# ctx_group / group2ctx placement

_G2C = {"dev1": mx.cpu(1), "dev2": mx.cpu(2)}


def _ctxs(d):
    return {k: (None if v is None else str(v.context)) for k, v in d.items()}


def _mlp():
    with mx.AttrScope(ctx_group="dev1"):
        x = mx.sym.Variable("x")
        h = mx.sym.FullyConnected(x, num_hidden=4, name="fc1")
        h = mx.sym.BatchNorm(h, name="bn1")
    with mx.AttrScope(ctx_group="dev2"):
        h2 = mx.sym.FullyConnected(h, num_hidden=3, name="fc2")
        return mx.sym.SoftmaxOutput(h2, name="sm")


_MLP_ARGS = {"bn1_beta": "cpu(1)", "bn1_gamma": "cpu(1)", "fc1_bias": "cpu(1)",
             "fc1_weight": "cpu(1)", "fc2_bias": "cpu(2)", "fc2_weight": "cpu(2)",
             "sm_label": "cpu(2)", "x": "cpu(1)"}


def test_group2ctx_simple_bind_places_arrays():
    ex = _mlp().simple_bind(mx.cpu(0), group2ctx=_G2C, x=(4, 5))
    assert _ctxs(ex.arg_dict) == _MLP_ARGS
    assert _ctxs(ex.grad_dict) == _MLP_ARGS
    assert _ctxs(ex.aux_dict) == {"bn1_moving_mean": "cpu(1)", "bn1_moving_var": "cpu(1)"}
    assert [str(o.context) for o in ex.outputs] == ["cpu(2)"]
    for ex2 in (ex.reshape(x=(2, 5), sm_label=(2,)),
                ex.reshape(allow_up_sizing=True, x=(6, 5), sm_label=(6,)),
                _mlp().simple_bind(mx.cpu(0), group2ctx=_G2C, x=(2, 5), shared_exec=ex,
                                   shared_arg_names=["fc1_weight", "fc1_bias"],
                                   shared_buffer={})):
        assert _ctxs(ex2.arg_dict) == _MLP_ARGS
        assert _ctxs(ex2.grad_dict) == _MLP_ARGS
        assert [str(o.context) for o in ex2.outputs] == ["cpu(2)"]
    ex3 = ex.reshape(allow_up_sizing=True, x=(6, 5), sm_label=(6,))
    for v in ex3.arg_dict.values():
        v[:] = np.linspace(-1, 1, v.size).reshape(v.shape)
    ex3.arg_dict["sm_label"][:] = np.array([0, 1, 2, 0, 1, 2])
    o = ex3.forward(is_train=True)
    ex3.backward()
    # recorded from 1.9.1
    np.testing.assert_allclose(o[0].asnumpy()[0], [0.09003, 0.24473, 0.66524], atol=1e-5)
    g = {k: v.asnumpy().ravel()[:3] for k, v in ex3.grad_dict.items()}
    np.testing.assert_allclose(g["fc2_bias"], [-1.45982, -0.53163, 1.99145], atol=1e-4)
    np.testing.assert_allclose(g["fc2_weight"], [0.28884, -0.6835, 0.6835], atol=1e-4)
    np.testing.assert_allclose(g["x"], [-0.22606, -0.11303, 0.0], atol=1e-4)
    np.testing.assert_allclose(g["bn1_beta"], [2.51001] * 3, atol=1e-4)
    np.testing.assert_allclose(ex3.aux_dict["bn1_moving_mean"].asnumpy()[:3],
                               [-0.09274, -0.02607, 0.04059], atol=1e-5)
    o = ex3.forward(is_train=False)
    assert str(o[0].context) == "cpu(2)"
    np.testing.assert_allclose(o[0].asnumpy()[0], [0.03818, 0.17349, 0.78833], atol=1e-5)


def test_group2ctx_outputs_follow_their_node():
    with mx.AttrScope(ctx_group="dev1"):
        y = mx.sym.Variable("y")
        y1 = mx.sym.exp(y)
    y2 = mx.sym.sin(y1)   # no group: takes its input's
    with mx.AttrScope(ctx_group="dev2"):
        y3 = mx.sym.cos(y2)
    ex = mx.sym.Group([y2, y3]).simple_bind(mx.cpu(0), group2ctx=_G2C, y=(3,))
    assert _ctxs(ex.arg_dict) == {"y": "cpu(1)"} and _ctxs(ex.grad_dict) == {"y": "cpu(1)"}
    assert [str(o.context) for o in ex.outputs] == ["cpu(1)", "cpu(2)"]
    ex.arg_dict["y"][:] = 0.5
    o = ex.forward(is_train=True)
    ex.backward([mx.nd.ones((3,)), mx.nd.ones((3,))])
    np.testing.assert_allclose(o[0].asnumpy(), [0.99697] * 3, atol=1e-5)
    np.testing.assert_allclose(o[1].asnumpy(), [0.54285] * 3, atol=1e-5)
    np.testing.assert_allclose(ex.grad_dict["y"].asnumpy(), [-0.02056] * 3, atol=1e-5)
    # an ungrouped scalar op after a group stays with it
    with mx.AttrScope(ctx_group="dev1"):
        a = mx.sym.Variable("a")
        c = a * 2
    with mx.AttrScope(ctx_group="dev2"):
        d = mx.sym.Variable("d")
        e = c * d
    ex = (e + 1).simple_bind(mx.cpu(0), group2ctx=_G2C, grad_req="null", a=(2,), d=(2,))
    assert _ctxs(ex.arg_dict) == {"a": "cpu(1)", "d": "cpu(2)"}
    assert [str(o.context) for o in ex.outputs] == ["cpu(2)"]


def test_group2ctx_module():
    with mx.AttrScope(ctx_group="dev1"):
        data = mx.sym.Variable("data")
        f1 = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    with mx.AttrScope(ctx_group="dev2"):
        f2 = mx.sym.FullyConnected(f1, num_hidden=2, name="fc2")
        net = mx.sym.SoftmaxOutput(f2, name="softmax")
    mod = mx.mod.Module(net, context=mx.cpu(0), group2ctxs=_G2C)
    mod.bind(data_shapes=[("data", (4, 3))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(mx.init.Constant(0.1))
    mod.init_optimizer(optimizer_params={"learning_rate": 0.5})
    ex = mod._exec_group.execs[0]
    assert _ctxs(ex.arg_dict) == {"data": "cpu(1)", "fc1_bias": "cpu(1)",
                                  "fc1_weight": "cpu(1)", "fc2_bias": "cpu(2)",
                                  "fc2_weight": "cpu(2)", "softmax_label": "cpu(2)"}
    b = mx.io.DataBatch([mx.nd.array(np.arange(12).reshape(4, 3) * 0.1)],
                        [mx.nd.array([0, 1, 0, 1])])
    for _ in range(2):
        mod.forward(b, is_train=True)
        mod.backward()
        mod.update()
    out = mod.get_outputs()[0]
    assert str(out.context) == "cpu(2)"
    # recorded from 1.9.1
    np.testing.assert_allclose(out.asnumpy()[:, 0], [0.49932, 0.4973, 0.49528, 0.49325],
                               atol=2e-5)
    args, _ = mod.get_params()
    np.testing.assert_allclose(args["fc2_bias"].asnumpy(), [0.00186, -0.00186], atol=1e-5)
    np.testing.assert_allclose(args["fc1_weight"].asnumpy().ravel()[:2], [0.10082, 0.10081],
                               atol=1e-5)
    mod2 = mx.mod.Module(net, context=[mx.cpu(0), mx.cpu(3)],
                         group2ctxs=[_G2C, {"dev1": mx.cpu(4), "dev2": mx.cpu(5)}])
    mod2.bind(data_shapes=[("data", (4, 3))], label_shapes=[("softmax_label", (4,))])
    e0, e1 = mod2._exec_group.execs
    assert str(e0.arg_dict["fc1_weight"].context) == "cpu(1)"
    assert str(e1.arg_dict["fc1_weight"].context) == "cpu(4)"
    assert str(e1.grad_dict["fc2_weight"].context) == "cpu(5)"
    assert [str(o.context) for o in e1.outputs] == ["cpu(5)"]
