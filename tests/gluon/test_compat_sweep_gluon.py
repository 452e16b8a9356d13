"""Regression tests from the advanced-Gluon compatibility sweep: user scripts run under MXNet
1.9.1 and mxnet-py, differences fixed here. Expected values, messages and exception types
were recorded from MXNet 1.9.1 (the reference) and are written as literals."""
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.base import MXNetError
from mxnet.gluon import nn
from mxnet.gluon.contrib import nn as cnn


def test_parameter_repr_dtype_as_given():
    # 1.9.1: Dense passes dtype='float32', so its parameters print 'float32'; a bare Parameter
    # keeps numpy's class; cast() shows the dtype as passed; Constants print as 'Constant'
    d = nn.Dense(3, in_units=4, prefix="d_")
    assert repr(d.weight) == "Parameter d_weight (shape=(3, 4), dtype=float32)"
    p = gluon.Parameter("w", shape=(2,))
    assert repr(p) == "Parameter w (shape=(2,), dtype=<class 'numpy.float32'>)"
    d.cast("float16")
    assert repr(d.weight) == "Parameter d_weight (shape=(3, 4), dtype=float16)"
    pd = gluon.ParameterDict("pre_")
    c = pd.get_constant("cst", [[1, 2]])
    assert repr(c) == "Constant pre_cst (shape=(1, 2), dtype=<class 'numpy.float32'>)"


def test_gluon_errors_are_the_python_types_1_9_1_raises():
    net = nn.Dense(2, in_units=3)
    net.initialize()
    with pytest.raises(AssertionError, match="incompatible"):
        net.weight.set_data(nd.ones((3, 3)))
    with pytest.raises(AssertionError, match="grad_req"):
        net.weight.grad_req = "sometimes"
    with pytest.raises(ValueError, match="invalid shape"):
        gluon.Parameter("q2", shape=(0, 3)).initialize()
    pd = gluon.ParameterDict("pre_")
    pd.get("a", shape=(2,))
    with pytest.raises(AssertionError):
        pd.get("a", shape=(3,))
    with pytest.raises(ValueError, match="striped"):
        net.collect_params().save("unused.params", strip_prefix="zz")
    # all of them stay MXNetErrors too
    with pytest.raises(MXNetError):
        net.weight.grad_req = "sometimes"
    x = mx.sym.var("data")
    with pytest.raises(AssertionError, match="output of operators"):
        nn.SymbolBlock(outputs=mx.sym.relu(x), inputs=x + 1)


def test_deferred_message_names_the_way_out():
    net = nn.Dense(3)
    net.initialize()
    with pytest.raises(MXNetError) as e:
        net.weight.data()
    # 1.9.1's message ends with this sentence
    assert str(e.value).endswith("You can also avoid deferred initialization by specifying "
                                 "in_units, num_features, etc., for network layers.")


def _mk(extra=False):
    n = nn.HybridSequential()
    with n.name_scope():
        n.add(nn.Dense(3, in_units=2), nn.Dense(1, in_units=3))
        if extra:
            n.add(nn.Dense(2, in_units=1))
    return n


def test_load_parameters_missing_and_extra(tmp_path):
    a = _mk()
    a.initialize(mx.init.Constant(0.7))
    f = str(tmp_path / "a.params")
    a.save_parameters(f)
    b = _mk(True)
    b.initialize()
    with pytest.raises(AssertionError) as e:
        b.load_parameters(f)
    # 1.9.1 lists the file's names quoted, in file order
    assert ("which contains parameters: '0.weight', '0.bias', '1.weight', '1.bias'. Set "
            "allow_missing=True to ignore missing parameters.") in str(e.value)
    fb = str(tmp_path / "b.params")
    b.save_parameters(fb)
    with pytest.raises(ValueError, match="ignore_extra"):
        _mk().load_parameters(fb)


def test_export_returns_none_and_names_files(tmp_path):
    net = _mk()
    net.initialize(mx.init.Constant(0.3))
    net.hybridize(static_alloc=True, static_shape=True)
    net(nd.ones((2, 2)))
    assert net.export(str(tmp_path / "model"), epoch=3) is None  # as 1.9.1
    assert sorted(os.listdir(tmp_path)) == ["model-0003.params", "model-symbol.json"]


def test_trainer_update_on_kvstore_asserts():
    ctx = [mx.cpu(0), mx.cpu(1)]
    net = nn.Dense(1, in_units=3)
    net.initialize(mx.init.Constant(0.2), ctx=ctx)
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, kvstore="device",
                       update_on_kvstore=True)
    with autograd.record():
        ls = [net(nd.ones((2, 3), ctx=c)).sum() for c in ctx]
    autograd.backward(ls)
    tr.step(1)
    with pytest.raises(AssertionError):
        tr.allreduce_grads()
    with pytest.raises(AssertionError):
        tr.update(1)


def test_sparse_embedding_matches_1_9_1():
    se = cnn.SparseEmbedding(10, 3)
    assert repr(se) == "SparseEmbedding(10 -> 3, float32)"
    se.initialize(mx.init.Constant(0.2))
    tr = gluon.Trainer(se.collect_params(), "sgd", {"learning_rate": 0.5})
    with autograd.record():
        y = se(nd.array([1, 3, 3]))
    y.backward()
    g = se.weight.grad()
    assert g.stype == "row_sparse"
    assert g.indices.asnumpy().tolist() == [1, 3]
    np.testing.assert_array_equal(g.data.asnumpy(), [[1, 1, 1], [2, 2, 2]])
    np.testing.assert_allclose(y.asnumpy(), np.full((3, 3), 0.2), rtol=1e-7)
    tr.step(1)
    rs = se.weight.row_sparse_data(nd.array([0, 1, 3]))
    assert rs.stype == "row_sparse"
    want = np.zeros((10, 3), np.float32)  # recorded from 1.9.1
    want[0], want[1], want[3] = 0.2, -0.3, -0.8
    np.testing.assert_allclose(rs.asnumpy(), want, rtol=1e-6)
    with pytest.raises(RuntimeError, match="row_sparse_data"):   # a RuntimeError in 1.9.1
        nn.Dense(2, in_units=2).weight.row_sparse_data(nd.array([0]))


def test_resnet_v1_sum_operand_order():
    # recorded from 1.9.1's traced graphs: BasicBlockV1 adds shortcut + body,
    # BottleneckV1 body + shortcut (print_summary and the exported JSON follow this order)
    from mxnet.gluon.model_zoo import vision
    import json
    for name, want in [("resnet18_v1", ["resnetv10_pool0_fwd", "resnetv10_stage1_batchnorm1_fwd"]),
                       ("resnet50_v1", ["resnetv11_stage1_batchnorm2_fwd",
                                        "resnetv11_stage1_batchnorm3_fwd"])]:
        s = vision.get_model(name, classes=10, prefix=name.replace("resnet", "resnetv").replace(
            "18_v1", "10_").replace("50_v1", "11_"))(mx.sym.var("data"))
        nodes = json.loads(s.tojson())["nodes"]
        add = next(n for n in nodes if n["op"] == "elemwise_add")
        assert [nodes[i[0]]["name"] for i in add["inputs"]] == want


def test_symbol_block_repr_as_1_9_1():
    # recorded from 1.9.1
    d = mx.sym.var("data")
    fc = mx.sym.FullyConnected(d, num_hidden=2, name="fc")
    sm = mx.sym.softmax(fc, name="sm")
    assert repr(gluon.SymbolBlock(sm, d)) == "SymbolBlock(\n<Symbol sm> : 1 -> 1\n)"
    assert repr(gluon.SymbolBlock(mx.sym.Group([fc, sm]), d)) == \
        "SymbolBlock(\n<Symbol group [fc, sm]> : 1 -> 2\n)"
