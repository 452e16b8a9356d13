"""Storage-type inference in executors and Modules (sparse symbolic training).

Expected storage types and values were recorded from MXNet 1.9.1 (NaiveEngine) running
the same snippets, unless a comment says they are a closed form.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.executor import stype as _stype

R, C, D = "row_sparse", "csr", "default"


def _x_csr():
    return mx.nd.array([[0, 1, 0, 0, 2], [0, 0, 0, 0, 0], [3, 0, 0, 0, 0],
                        [0, 0, 0, 4, 0]]).tostype("csr")


def _types(d):
    return {k: (None if v is None else v.stype) for k, v in d.items()}


def test_simple_bind_declared_stypes():
    x = mx.sym.Variable("x", stype="csr")
    w = mx.sym.Variable("w", stype="row_sparse")
    b = mx.sym.Variable("b")
    y = mx.sym.sparse.dot(x, w)
    out = mx.sym.make_loss(mx.sym.sum(mx.sym.broadcast_add(y, b) ** 2))
    ex = out.simple_bind(mx.cpu(), x=(4, 5), w=(5, 2), b=(1, 2))
    # recorded from 1.9.1
    assert _types(ex.arg_dict) == {"x": C, "w": R, "b": D}
    assert _types(ex.grad_dict) == {"x": D, "w": R, "b": D}
    assert [o.stype for o in ex.outputs] == [D]
    # stype_dict overrides the variable's stype; the weight gradient of dot(csr, w) is
    # row_sparse whatever w's storage
    ex3 = y.simple_bind(mx.cpu(), x=(4, 5), w=(5, 2), stype_dict={"w": "default"})
    assert _types(ex3.arg_dict) == {"x": C, "w": D}
    assert _types(ex3.grad_dict) == {"x": D, "w": R}
    # dot(csr.T, w): a row_sparse output and dense gradients
    y4 = mx.sym.sparse.dot(mx.sym.Variable("x"), w, transpose_a=True)
    ex4 = y4.simple_bind(mx.cpu(), x=(5, 4), w=(5, 2), stype_dict={"x": "csr"})
    assert _types(ex4.arg_dict) == {"x": C, "w": R}
    assert _types(ex4.grad_dict) == {"x": D, "w": D}
    assert ex4.outputs[0].stype == R


def test_dot_csr_forward_backward_values():
    x, w = mx.sym.Variable("x", stype="csr"), mx.sym.Variable("w", stype="row_sparse")
    ex = mx.sym.sparse.dot(x, w).simple_bind(mx.cpu(), x=(4, 5), w=(5, 2))
    _x_csr().copyto(ex.arg_dict["x"])
    mx.nd.array(np.arange(10).reshape(5, 2)).tostype("row_sparse").copyto(ex.arg_dict["w"])
    assert isinstance(ex.arg_dict["x"], mx.nd.sparse.CSRNDArray)
    o = ex.forward(is_train=True)[0]
    assert o.stype == D
    np.testing.assert_allclose(o.asnumpy(), [[18, 21], [0, 0], [0, 3], [24, 28]])
    ex.backward(mx.nd.ones((4, 2)))
    g = ex.grad_dict["w"]
    assert g.stype == R
    # 1.9.1 stores one row per column the csr holds (0, 1, 3, 4); row 2 is not stored
    assert g.indices.asnumpy().tolist() == [0, 1, 3, 4]
    np.testing.assert_allclose(g.asnumpy(), [[3, 3], [1, 1], [0, 0], [4, 4], [2, 2]])


@pytest.mark.parametrize("name,build,stypes,out,grads", [
    ("add rr", lambda a, b: mx.sym.elemwise_add(a, b), {"a": R, "b": R}, R, (R, R)),
    ("add cc", lambda a, b: mx.sym.elemwise_add(a, b), {"a": C, "b": C}, C, (C, C)),
    ("add rd", lambda a, b: mx.sym.elemwise_add(a, b), {"a": R}, D, (D, D)),
    ("sub rr", lambda a, b: mx.sym.elemwise_sub(a, b), {"a": R, "b": R}, R, (R, R)),
    ("mul rr", lambda a, b: mx.sym.elemwise_mul(a, b), {"a": R, "b": R}, R, (D, D)),
    ("mul rd", lambda a, b: mx.sym.elemwise_mul(a, b), {"a": R}, R, (D, D)),
    ("mul cd", lambda a, b: mx.sym.elemwise_mul(a, b), {"a": C}, C, (D, D)),
    ("div rr", lambda a, b: mx.sym.elemwise_div(a, b), {"a": R, "b": R}, D, (D, D)),
    ("add_n rr", lambda a, b: mx.sym.add_n(a, b), {"a": R, "b": R}, R, (R, R)),
    ("add_n rd", lambda a, b: mx.sym.add_n(a, b), {"a": R}, D, (D, D)),
    ("mul scalar", lambda a: a * 2, {"a": C}, C, (C,)),
    ("plus scalar", lambda a: a + 2, {"a": R}, D, (D,)),
    ("square", lambda a: mx.sym.square(a), {"a": R}, R, (R,)),
    ("relu", lambda a: mx.sym.relu(a), {"a": R}, R, (R,)),
    ("tanh", lambda a: mx.sym.tanh(a), {"a": R}, R, (D,)),
    ("exp", lambda a: mx.sym.exp(a), {"a": R}, D, (D,)),
    ("sum", lambda a: mx.sym.sum(a, axis=1), {"a": C}, D, (D,)),
    ("square_sum keepdims", lambda a: mx.sym._internal._square_sum(a, axis=1, keepdims=True),
     {"a": R}, R, (R,)),
    ("square_sum", lambda a: mx.sym._internal._square_sum(a, axis=1), {"a": R}, D, (R,)),
    ("cast_storage", lambda a: mx.sym.cast_storage(a, stype="row_sparse"), {}, R, (R,)),
    ("cast to dense", lambda a: mx.sym.cast_storage(a, stype="default"), {"a": R}, D, (D,)),
    ("zeros_like", lambda a: mx.sym.zeros_like(a), {"a": R}, R, (R,)),
    ("dot dense csr", lambda a, b: mx.sym.sparse.dot(a, b), {"b": C}, C, (D, D)),
    ("dot csr rsp", lambda a, b: mx.sym.sparse.dot(a, b), {"a": C, "b": R}, D, (D, R)),
    ("dot csr.T rsp", lambda a, b: mx.sym.sparse.dot(a, b, transpose_a=True),
     {"a": C, "b": R}, R, (D, D)),
    ("dot rsp dense", lambda a, b: mx.sym.sparse.dot(a, b), {"a": R}, D, (D, D)),
])
def test_storage_inference_table(name, build, stypes, out, grads):
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    sym = build(a, b) if build.__code__.co_argcount == 2 else build(a)
    shapes = {n: (4, 4) for n in sym.list_arguments()}
    full = dict({n: "default" for n in shapes}, **stypes)
    ex = sym.simple_bind(mx.cpu(), stype_dict=full, **shapes)
    assert [o.stype for o in ex.outputs] == [out]                      # recorded from 1.9.1
    assert tuple(ex.grad_dict[n].stype for n in sym.list_arguments()) == grads


def test_bind_keeps_given_sparse_arrays():
    a, w = mx.sym.Variable("a"), mx.sym.Variable("w")
    gw = mx.nd.sparse.zeros("row_sparse", (5, 2))
    ex = mx.sym.sparse.dot(a, w).bind(
        mx.cpu(), {"a": _x_csr(), "w": mx.nd.array(np.arange(10).reshape(5, 2) * 0.5)
                   .tostype("row_sparse")},
        args_grad={"w": gw}, grad_req={"a": "null", "w": "write"})
    assert [v.stype for v in ex.arg_arrays] == [C, R]
    o = ex.forward(is_train=True)[0]
    np.testing.assert_allclose(o.asnumpy(), [[9, 10.5], [0, 0], [0, 1.5], [12, 14]])
    ex.backward(mx.nd.ones((4, 2)))
    assert ex.grad_dict["w"] is gw and gw.stype == R
    assert gw.indices.asnumpy().tolist() == [0, 1, 3, 4]
    # forward(**kwargs) copies a new csr batch into the bound csr argument
    x2 = mx.nd.array([[0, 0, 1, 0, 0], [0] * 5, [0] * 5, [1, 0, 0, 0, 0]]).tostype("csr")
    np.testing.assert_allclose(ex.forward(a=x2)[0].asnumpy(),
                               [[2, 2.5], [0, 0], [0, 0], [0, 0.5]])
    assert ex.arg_dict["a"].stype == C


def test_row_sparse_gradient_needs_write():
    a, w = mx.sym.Variable("a", stype="csr"), mx.sym.Variable("w", stype="row_sparse")
    ex = mx.sym.sparse.dot(a, w).simple_bind(mx.cpu(), a=(4, 5), w=(5, 2),
                                             grad_req={"a": "null", "w": "add"})
    _x_csr().copyto(ex.arg_dict["a"])
    ex.forward(is_train=True)
    with pytest.raises(MXNetError, match="grad_req 'write'"):   # 1.9.1 fails a check too
        ex.backward(mx.nd.ones((4, 2)))


def test_transpose_a_row_sparse_output():
    a, w = mx.sym.Variable("a"), mx.sym.Variable("w")
    ex = mx.sym.sparse.dot(a, w, transpose_a=True).bind(
        mx.cpu(), {"a": _x_csr(), "w": mx.nd.array(np.arange(8).reshape(4, 2))},
        args_grad={"w": mx.nd.zeros((4, 2))})
    o = ex.forward(is_train=True)[0]
    assert o.stype == R and o.indices.asnumpy().tolist() == [0, 1, 3, 4]
    np.testing.assert_allclose(o.asnumpy(), [[12, 15], [0, 1], [0, 0], [24, 28], [0, 2]])
    ex.backward(mx.nd.ones((5, 2)))
    assert ex.grad_dict["w"].stype == D
    np.testing.assert_allclose(ex.grad_dict["w"].asnumpy(), [[3, 3], [0, 0], [3, 3], [4, 4]])
    o = ex.forward()[0]   # the inference path stores the output sparse too
    assert o.stype == R and o.indices.asnumpy().tolist() == [0, 1, 3, 4]


def test_add_square_sum_row_sparse():
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    z = mx.sym._internal._square_sum(mx.sym.elemwise_add(a, b), axis=1, keepdims=True)
    ex = z.simple_bind(mx.cpu(), a=(4, 3), b=(4, 3), stype_dict={"a": R, "b": R})
    mx.nd.array([[1, 2, 3], [0, 0, 0], [1, 0, 0], [0, 0, 0]]).tostype(R).copyto(ex.arg_dict["a"])
    mx.nd.array([[0, 0, 0], [0, 0, 0], [1, 1, 0], [0, 0, 0]]).tostype(R).copyto(ex.arg_dict["b"])
    o = ex.forward(is_train=True)[0]
    assert o.stype == R
    np.testing.assert_allclose(o.asnumpy(), [[14], [0], [5], [0]])
    ex.backward(mx.nd.array([[1], [0], [1], [0]]).tostype(R))
    expect = [[2, 4, 6], [0, 0, 0], [4, 2, 0], [0, 0, 0]]   # 2 * (a + b) on rows 0 and 2
    for n in ("a", "b"):
        assert ex.grad_dict[n].stype == R
        np.testing.assert_allclose(ex.grad_dict[n].asnumpy(), expect)


def test_embedding_sparse_grad_symbol():
    d, ew = mx.sym.Variable("d"), mx.sym.Variable("ew", stype="row_sparse")
    e = mx.sym.make_loss(mx.sym.sum(mx.sym.Embedding(d, ew, input_dim=6, output_dim=2,
                                                     sparse_grad=True)))
    ex = e.simple_bind(mx.cpu(), d=(3,), grad_req={"d": "null", "ew": "write"})
    assert _types(ex.arg_dict) == {"d": D, "ew": R}
    assert _types(ex.grad_dict) == {"d": None, "ew": R}
    ex.arg_dict["d"][:] = mx.nd.array([4, 1, 4])
    mx.nd.array(np.arange(12).reshape(6, 2)).tostype(R).copyto(ex.arg_dict["ew"])
    np.testing.assert_allclose(ex.forward(is_train=True)[0].asnumpy(), [39])
    ex.backward()
    g = ex.grad_dict["ew"]
    assert g.stype == R and g.indices.asnumpy().tolist() == [1, 4]
    np.testing.assert_allclose(g.data.asnumpy(), [[1, 1], [2, 2]])
    # 1.9.1's sparse Embedding backward refuses a gradient of the indices
    ex2 = e.simple_bind(mx.cpu(), d=(3,))
    ex2.forward(is_train=True)
    with pytest.raises(MXNetError, match="sparse_grad"):
        ex2.backward()


def test_cast_storage_in_graph():
    a = mx.sym.Variable("a")
    c = mx.sym.cast_storage(a, stype="row_sparse")
    ex = mx.sym.make_loss(mx.sym.sum(c * 2)).simple_bind(mx.cpu(), a=(3, 2))
    ex.arg_dict["a"][:] = mx.nd.array([[1, 0], [0, 0], [0, 3]])
    np.testing.assert_allclose(ex.forward(is_train=True)[0].asnumpy(), [8])
    ex.backward()
    assert ex.grad_dict["a"].stype == D
    np.testing.assert_allclose(ex.grad_dict["a"].asnumpy(), np.full((3, 2), 2.0))
    ex7 = c.simple_bind(mx.cpu(), a=(3, 2))
    ex7.arg_dict["a"][:] = mx.nd.array([[1, 0], [0, 0], [0, 3]])
    o = ex7.forward()[0]
    assert o.stype == R and o.indices.asnumpy().tolist() == [0, 2]


def test_dense_graph_skips_the_pass():
    x = mx.sym.Variable("x")
    net = mx.sym.FullyConnected(mx.sym.relu(x), num_hidden=3)
    from mxnet.symbol.graph import topo_order
    order = topo_order(net._outputs)
    assert _stype.infer(order, net._outputs, lambda n: None) is None
    ex = net.simple_bind(mx.cpu(), x=(2, 4))
    assert not ex._sparse_grads
    assert all(v.stype == D for v in ex.grad_dict.values())


def test_fallback_warning_inside_graph(capfd):
    from mxnet.ndarray import _fallback_log
    _fallback_log._seen.clear()
    a = mx.sym.Variable("a", stype="csr")
    mx.sym.sparse.dot(a, mx.sym.Variable("w")).simple_bind(mx.cpu(), a=(4, 4), w=(4, 2))
    assert "fallback" not in capfd.readouterr().err      # dot(csr, dense) is native
    mx.sym.FullyConnected(a, num_hidden=3, no_bias=True).simple_bind(mx.cpu(), a=(4, 4))
    err = capfd.readouterr().err
    # the message 1.9.1 prints at bind time
    assert "operator = FullyConnected\ninput storage types = [csr, default, ]\n" in err
    assert 'params = {"no_bias" : True, "num_hidden" : 3, }' in err
    # gradient operators too, only when gradients are requested
    r, d = mx.sym.Variable("r", stype="row_sparse"), mx.sym.Variable("d")
    prod = mx.sym.elemwise_mul(r, d)
    prod.simple_bind(mx.cpu(), r=(4, 4), d=(4, 4), grad_req="null")
    assert "fallback" not in capfd.readouterr().err
    prod.simple_bind(mx.cpu(), r=(4, 4), d=(4, 4))
    err = capfd.readouterr().err
    assert ("operator = _backward_mul\ninput storage types = [row_sparse, row_sparse, default, ]"
            "\noutput storage types = [default, default, ]\n") in err
    # dense x csr.T falls back to a csr result
    mx.sym.sparse.dot(mx.sym.Variable("m"), a, transpose_b=True).simple_bind(
        mx.cpu(), m=(4, 4), a=(4, 4), grad_req="null")
    err = capfd.readouterr().err
    assert ("operator = dot\ninput storage types = [default, csr, ]\n"
            "output storage types = [csr, ]\nparams = {\"transpose_b\" : True, }") in err


def test_copy_between_storage_types(capfd):
    from mxnet.ndarray import _fallback_log
    _fallback_log._seen.clear()
    c = mx.nd.sparse.zeros("csr", (2, 3))
    mx.nd.ones((2, 3)).copyto(c)
    err = capfd.readouterr().err
    assert "Copy from default storage type on cpu to csr storage type on cpu." in err
    np.testing.assert_allclose(c.asnumpy(), np.ones((2, 3)))
    with pytest.raises(TypeError, match="row_sparse"):   # 1.9.1 raises TypeError too
        c.copyto(mx.nd.sparse.zeros("row_sparse", (2, 3)))


def test_lazy_update_on_row_sparse_weight():
    # closed form: only the gradient's rows change, w -= lr * (rescale * g + wd * w)
    w = mx.nd.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).tostype(R)
    g = mx.nd.array([[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]]).tostype(R)
    mx.nd.sgd_update(w, g, lr=0.1, wd=0.5, rescale_grad=2.0, out=w)
    assert w.stype == R
    expect = [[1, 2], [3 - 0.1 * (2 + 1.5), 4 - 0.1 * (2 + 2)], [5, 6]]
    np.testing.assert_allclose(w.asnumpy(), expect, rtol=1e-6)


# -- Module: 1.9.1's example/sparse/linear_classification, small --------------------------------

_LIBSVM = ["1 0:0.5 3:1.0 7:0.25", "0 1:0.75 4:0.5", "1 2:1.0 9:0.5 11:0.25", "0 0:0.25 5:1.0",
           "1 3:0.5 6:0.75 10:1.0", "0 8:0.5 11:0.5", "1 1:1.0 2:0.25 7:0.5", "0 4:0.25 9:1.0"]


class _WeightedCE(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], mx.nd.SoftmaxOutput(in_data[0], in_data[1]))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        label, pred = in_data[1], out_data[0]
        scale = ((1 + label * 2.0) / 2.0).reshape((pred.shape[0], 1))
        self.assign(in_grad[0], req[0], scale * (pred - mx.nd.one_hot(label, 2)))


@mx.operator.register("s8_weighted_ce")
class _WeightedCEProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(False)

    def list_arguments(self):
        return ["data", "label"]

    def list_outputs(self):
        return ["output"]

    def infer_shape(self, in_shape):
        return in_shape, (in_shape[0],), ()

    def create_operator(self, ctx, shapes, dtypes):
        return _WeightedCE()


# recorded from 1.9.1: per-epoch nll-loss, final weight and bias
_LC_EXPECT = {
    "sgd": ([0.7451270818710327, 0.7259401977062225],
            [[-0.216161, -0.083839], [-0.032671, 0.132671], [0.144003, -0.144003],
             [-0.155353, 0.055353], [0.109465, 0.190535], [-0.187625, -0.112375],
             [-0.025267, 0.125267], [0.169363, -0.169363], [-0.093677, -0.006323],
             [0.090182, 0.209818], [-0.233689, -0.066311], [-0.00505, 0.10505]],
            [-0.009295, 0.009295]),
    "adam": ([0.7601638734340668, 0.6514739394187927],
             [[-0.37923, 0.07923], [-0.040582, 0.140582], [-0.146786, 0.146786],
              [-0.464394, 0.364394], [0.489664, -0.189664], [-0.014039, -0.285961],
              [-0.148753, 0.248753], [-0.17414, 0.17414], [0.052594, -0.152594],
              [-0.06638, 0.36638], [-0.348753, 0.048753], [-0.17069, 0.27069]],
             [-0.273271, 0.273271]),
}


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_module_linear_classification(tmp_path, optimizer):
    path = tmp_path / "small.libsvm"
    path.write_text("\n".join(_LIBSVM) + "\n")
    nfeat = 12
    x = mx.sym.Variable("data", stype="csr")
    w = mx.sym.Variable("weight", shape=(nfeat, 2), stype="row_sparse")
    b = mx.sym.Variable("bias", shape=(2,))
    net = mx.sym.Custom(data=mx.sym.broadcast_add(mx.sym.sparse.dot(x, w), b),
                        label=mx.sym.Variable("softmax_label"), op_type="s8_weighted_ce")
    it = mx.io.LibSVMIter(data_libsvm=str(path), data_shape=(nfeat,), batch_size=4)
    mod = mx.mod.Module(net, data_names=["data"], label_names=["softmax_label"])
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    w0 = (np.arange(nfeat * 2).reshape(nfeat, 2) % 5 - 2).astype("float32") * 0.1
    mod.init_params(arg_params={"weight": mx.nd.array(w0).tostype(R),
                                "bias": mx.nd.array([0.1, -0.1])})
    ex = mod._exec_group.execs[0]
    assert _types(ex.arg_dict) == {"data": C, "weight": R, "bias": D, "softmax_label": D}
    assert _types(ex.grad_dict) == {"data": None, "weight": R, "bias": D,
                                    "softmax_label": None}
    kv = mx.kv.create("local")
    mod.init_optimizer(kvstore=kv, optimizer=optimizer,
                       optimizer_params={"learning_rate": 0.1, "wd": 0.01, "rescale_grad": 0.25})
    wi = mod._exec_group.param_names.index("weight")
    wp = mod._exec_group.param_arrays[wi]
    metric = mx.metric.create("nll_loss")
    losses = []
    for _ in range(2):
        it.reset()
        metric.reset()
        for batch in it:
            kv.row_sparse_pull("weight", wp, row_ids=[batch.data[0].indices], priority=-wi)
            mod.forward_backward(batch)
            mod.update()
            mod.update_metric(metric, batch.label)
        losses.append(metric.get()[1])
    kv.row_sparse_pull("weight", wp, row_ids=[mx.nd.arange(0, nfeat, dtype="int64")])
    args, _ = mod.get_params()
    exp_loss, exp_w, exp_b = _LC_EXPECT[optimizer]
    np.testing.assert_allclose(losses, exp_loss, rtol=1e-6)
    assert args["weight"].stype == R
    np.testing.assert_allclose(args["weight"].asnumpy(), exp_w, atol=2e-6)
    np.testing.assert_allclose(args["bias"].asnumpy(), exp_b, atol=2e-6)


def test_module_matrix_factorization():
    rs = np.random.RandomState(0)
    nu, ni, n = 12, 9, 48
    users = rs.randint(0, nu, n).astype("float32")
    items = rs.randint(0, ni, n).astype("float32")
    scores = rs.rand(n).astype("float32") * 5
    uw = mx.sym.Variable("user_weight", stype="row_sparse")
    iw = mx.sym.Variable("item_weight", stype="row_sparse")
    ue = mx.sym.Embedding(mx.sym.Variable("user"), uw, sparse_grad=True, input_dim=nu,
                          output_dim=4)
    ie = mx.sym.Embedding(mx.sym.Variable("item"), iw, sparse_grad=True, input_dim=ni,
                          output_dim=4)
    ua = mx.sym.FullyConnected(mx.sym.Activation(ue, act_type="relu"), num_hidden=3, name="ufc")
    ia = mx.sym.FullyConnected(mx.sym.Activation(ie, act_type="relu"), num_hidden=3, name="ifc")
    net = mx.sym.LinearRegressionOutput(mx.sym.Flatten(mx.sym.sum(ua * ia, axis=1)),
                                        label=mx.sym.Variable("score"))
    it = mx.io.NDArrayIter({"user": users, "item": items}, {"score": scores}, batch_size=8)
    mod = mx.mod.Module(net, data_names=["item", "user"], label_names=["score"])
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    r2 = np.random.RandomState(5)
    shapes = net.infer_shape(user=(8,), item=(8,))[0]
    params = {k: mx.nd.array(r2.uniform(-0.5, 0.5, s))
              for k, s in zip(net.list_arguments(), shapes) if k not in ("user", "item", "score")}
    for k in ("user_weight", "item_weight"):
        params[k] = params[k].tostype(R)
    mod.init_params(arg_params=params)
    ex = mod._exec_group.execs[0]
    assert ex.arg_dict["user_weight"].stype == R and ex.grad_dict["item_weight"].stype == R
    mod.init_optimizer(kvstore="local", optimizer="sgd",
                       optimizer_params={"learning_rate": 0.05, "wd": 0.01, "rescale_grad": 1 / 8})
    metric = mx.metric.create("MSE")
    mses = []
    for epoch in range(3):
        metric.reset()
        it.reset()
        for j, batch in enumerate(it):
            mod.forward_backward(batch)
            if epoch == 0 and j == 0:
                g = ex.grad_dict["user_weight"]
                assert g.stype == R and g.indices.asnumpy().tolist() == [0, 3, 5, 7, 9, 11]
            mod.update()
            mod.update_metric(metric, batch.label)
        mses.append(metric.get()[1])
    # recorded from 1.9.1
    np.testing.assert_allclose(mses, [9.092392126719156, 5.419058084487915, 2.618504206339518],
                               rtol=1e-6)
    args, _ = mod.get_params()
    assert args["user_weight"].stype == R
    np.testing.assert_allclose(
        args["user_weight"].asnumpy()[:3],
        [[-0.27676, 0.38656, -0.29196, 0.42902], [-0.01154, 0.12918, 0.3123, 0.03252],
         [-0.20259, -0.31134, -0.418, 0.24657]], atol=1e-5)


def test_lazy_update_note_once(capfd):
    from mxnet.ndarray import sparse_ops
    sparse_ops._LAZY_LOGGED.clear()
    w = mx.nd.ones((3, 2))
    g = mx.nd.array([[1, 1], [0, 0], [0, 0]]).tostype(R)
    mx.nd.sgd_update(w, g, lr=0.1, out=w)          # plain sgd without wd: no note
    assert "lazy_update" not in capfd.readouterr().err
    mx.nd.sgd_update(w, g, lr=0.1, wd=0.1, out=w)
    err = capfd.readouterr().err
    assert "utils.h:472: Optimizer with lazy_update = True detected." in err
    mx.nd.adam_update(w, g, mx.nd.zeros((3, 2)), mx.nd.zeros((3, 2)), lr=0.1, out=w)
    assert "lazy_update" not in capfd.readouterr().err   # once per process, as in 1.9.1


def test_kvstore_pull_into_row_sparse_is_ignored(capfd):
    kv = mx.kv.create("local")
    kv.init("a", mx.nd.ones((3, 2)).tostype(R))
    kv.init("b", mx.nd.ones((3, 2)).tostype(R))
    out = mx.nd.sparse.zeros(R, (3, 2))
    for key in ("a", "a", "b"):
        kv.pull(key, out=out)
    mx.nd.waitall()
    err = capfd.readouterr().err
    # 1.9.1 leaves the output alone and warns once per key
    assert err.count("non-default weights detected during kvstore pull") == 2
    assert out.asnumpy().sum() == 0


def test_bucketing_module_shares_row_sparse_weight():
    def gen(key):
        x = mx.sym.Variable("data", stype="csr")
        w = mx.sym.Variable("w_weight", shape=(6, 2), stype="row_sparse")
        y = mx.sym.LinearRegressionOutput(mx.sym.sum(mx.sym.sparse.dot(x, w), axis=1),
                                          mx.sym.Variable("softmax_label"))
        return y, ["data"], ["softmax_label"]
    mod = mx.mod.BucketingModule(gen, default_bucket_key=4)
    mod.bind(data_shapes=[("data", (4, 6))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(initializer=mx.init.Constant(0.5))
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1})
    outs = []
    for key in (4, 3, 4):
        batch = mx.io.DataBatch([mx.nd.array(np.eye(key, 6)).tostype("csr")],
                                [mx.nd.zeros((key,))], bucket_key=key,
                                provide_data=[("data", (key, 6))],
                                provide_label=[("softmax_label", (key,))])
        mod.forward_backward(batch)
        mod.update()
        outs.append(mod.get_outputs()[0].asnumpy().tolist())
    # recorded from 1.9.1
    np.testing.assert_allclose(outs[1], [0.95] * 3, rtol=1e-6)
    np.testing.assert_allclose(outs[2], [0.9025, 0.9025, 0.9025, 0.95], rtol=1e-6)
    args, _ = mod.get_params()
    assert args["w_weight"].stype == R
    np.testing.assert_allclose(args["w_weight"].asnumpy()[:, 0],
                               [0.4286875, 0.4286875, 0.4286875, 0.45125, 0.5, 0.5], rtol=1e-6)


def test_row_sparse_weight_update_needs_all_rows():
    w = mx.nd.array([[1, 1], [0, 0], [2, 2]]).tostype(R)   # row 1 not stored
    g = mx.nd.array([[1, 1], [0, 0], [0, 0]]).tostype(R)
    # 1.9.1's kernel check (message recorded from 1.9.1)
    with pytest.raises(MXNetError, match=r"SGDUpdate for RowSparse weights is only implemented "
                                         r"for RowSparse weights with all rows"):
        mx.nd.sgd_update(w, g, lr=0.1, out=w)
    # a full row_sparse weight stays full, even where a row becomes zero
    w = mx.nd.array([[1, 1], [3, 3], [2, 2]]).tostype(R)
    mx.nd.sgd_update(w, mx.nd.array([[10, 10], [0, 0], [0, 0]]).tostype(R), lr=0.1, out=w)
    assert w.indices.asnumpy().tolist() == [0, 1, 2]
    np.testing.assert_allclose(w.asnumpy(), [[0, 0], [3, 3], [2, 2]])   # closed form
