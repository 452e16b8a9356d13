"""gluon.nn against 1.9.1: parameter names/shapes (before and after deferred init), reprs,
outputs and gradients with set weights, imperative and hybridized; plus container and layer
behaviour that needs no fixture."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.gluon import nn
from mxnet.gluon.contrib import nn as cnn

from ._golden_nn import GOLD, META, TABLE, close

NS = TABLE.namespace(mx)


def _params_info(net):
    return [[name, list(p.shape) if p.shape is not None else None, p.grad_req]
            for name, p in net.collect_params().items()]


def _build(expr):
    with mx.name.NameManager():
        return eval(expr, NS)  # noqa: S307 - expressions from the golden table


# ---------------------------------------------------------------------------------------------
# golden layers

@pytest.mark.parametrize("case", TABLE.LAYERS, ids=lambda c: c.id)
def test_layer_matches_reference(case):
    meta = META["layers"][case.id]
    key = case.id
    net = _build(case.expr)
    assert net.prefix == meta["prefix"]
    assert _params_info(net) == meta["params_before"]
    assert repr(net) == meta["repr_before"]

    x = GOLD[f"{key}/x"]
    net.initialize()
    net(mx.nd.array(x, dtype=case.dtype))      # finishes deferred initialisation
    assert _params_info(net) == meta["params_after"]
    assert repr(net) == meta["repr_after"]

    params = list(net.collect_params().values())
    dy = GOLD[f"{key}/dy"]
    for mode in ("imperative", "hybrid") if case.hybrid else ("imperative",):
        if mode == "hybrid":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                net.hybridize()
        for j, p in enumerate(params):
            p.set_data(mx.nd.array(GOLD[f"{key}/p{j}"], dtype=p.dtype))
        net.collect_params().zero_grad()
        xa = mx.nd.array(x, dtype=case.dtype)
        if case.x_grad:
            xa.attach_grad()
        with autograd.record(train_mode=case.train):
            y = net(xa)
        y.backward(mx.nd.array(dy, dtype=y.dtype), train_mode=case.train)
        tag = f"{key} ({mode})"
        close(y, GOLD[f"{key}/{'y' if mode == 'imperative' else 'hy'}"], f"{tag} output")
        if case.x_grad:
            close(xa.grad, GOLD[f"{key}/dx"], f"{tag} input gradient")
        for j, p in enumerate(params):
            if p.grad_req != "null":
                close(p.grad(), GOLD[f"{key}/g{j}"], f"{tag} gradient of {p.name}")
            close(p.data(), GOLD[f"{key}/post{j}"], f"{tag} {p.name} after the step")


@pytest.mark.parametrize("expr", sorted(META["reprs"]))
def test_constructed_block_names_and_repr(expr):
    meta = META["reprs"][expr]
    block = _build(expr)
    assert block.prefix == meta["prefix"]
    assert _params_info(block) == meta["params"]
    assert repr(block) == meta["repr"]


def _op_nodes(nodes):
    """Operator nodes as (op, name, attrs, inputs); variables as (name,) only (their recorded
    shapes depend on when the graph was traced)."""
    return [(n["name"],) if n["op"] == "null" else (n["op"], n["name"], n.get("attrs", {}),
                                                     n["inputs"]) for n in nodes]


@pytest.mark.parametrize("expr", sorted(META["exports"]))
def test_exported_graph_matches_reference(expr, tmp_path):
    meta = META["exports"][expr]
    shape = dict(TABLE.EXPORTS)[expr]
    block = _build(expr)
    block.initialize()
    block.hybridize()
    block(mx.nd.ones(shape))
    block.export(str(tmp_path / "net"))
    graph = json.loads((tmp_path / "net-symbol.json").read_text())
    assert _op_nodes(graph["nodes"]) == _op_nodes(meta["nodes"])
    assert graph["heads"] == meta["heads"]


# ---------------------------------------------------------------------------------------------
# containers

def test_sequential_add_len_getitem_and_slices():
    net = nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(nn.Dense(3), nn.Activation("relu"))
        net.add(nn.Dense(2))
    assert len(net) == 3
    assert isinstance(net[0], nn.Dense) and isinstance(net[-1], nn.Dense)
    head = net[:2]
    assert isinstance(head, nn.HybridSequential) and len(head) == 2
    assert head.prefix == "net_"
    assert head[0] is net[0]
    net.initialize()
    x = mx.nd.array(np.random.default_rng(0).standard_normal((2, 4)))
    y = net(x)
    np.testing.assert_allclose(net[2](head(x)).asnumpy(), y.asnumpy(), rtol=1e-6)
    seq = nn.Sequential()
    seq.add(nn.Dense(2), nn.Dense(1))
    assert isinstance(seq[1:], nn.Sequential) and len(seq[1:]) == 1


def test_sequential_hybridize_warns_when_all_children_hybrid():
    seq = nn.Sequential()
    seq.add(nn.Dense(2))
    with pytest.warns(UserWarning, match="HybridSequential"):
        seq.hybridize()


def test_hybrid_sequential_rejects_plain_blocks():
    net = nn.HybridSequential()
    with pytest.raises(ValueError):
        net.add(nn.Lambda("tanh"))


def test_nested_names_follow_name_scope():
    net = _build("nested()")
    names = list(net.collect_params())
    assert names[0] == "hybridsequential0_conv0_weight"
    assert "hybridsequential0_batchnorm0_running_var" in names
    assert names[-1] == "hybridsequential0_dense0_bias"


def test_dense_activation_child_prefix():
    with mx.name.NameManager():
        net = nn.Dense(3, activation="relu")
    assert net.act.prefix == "dense0_relu_"


def test_concurrent_and_identity():
    net = cnn.HybridConcurrent(axis=1)
    net.add(cnn.Identity(), nn.Activation("tanh"))
    x = mx.nd.array([[0.5, -1.0]])
    out = net(x).asnumpy()
    np.testing.assert_allclose(out, [[0.5, -1.0, np.tanh(0.5), np.tanh(-1.0)]], rtol=1e-6)
    net.hybridize()
    np.testing.assert_allclose(net(x).asnumpy(), out, rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# layers with randomness or no fixture

def test_dropout_training_mask_and_scale():
    x = mx.nd.ones((200, 50))
    layer = nn.Dropout(0.4)
    with autograd.record():
        y = layer(x).asnumpy()
    kept = y != 0
    assert 0.5 < kept.mean() < 0.7
    np.testing.assert_allclose(y[kept], 1 / 0.6, rtol=1e-5)
    np.testing.assert_array_equal(layer(x).asnumpy(), x.asnumpy())  # predict mode: identity
    layer.hybridize()
    with autograd.record():
        y = layer(x).asnumpy()
    assert 0.5 < (y != 0).mean() < 0.7
    np.testing.assert_array_equal(layer(x).asnumpy(), x.asnumpy())


def test_dropout_axes_share_the_mask():
    layer = nn.Dropout(0.5, axes=(1,))
    with autograd.record():
        y = layer(mx.nd.ones((30, 8))).asnumpy()
    assert all(len(set(row)) == 1 for row in y)


def test_batchnorm_relu_is_relu_of_batchnorm():
    rng = np.random.default_rng(1)
    x = mx.nd.array(rng.standard_normal((4, 3, 2)))
    a, b = nn.BatchNorm(), nn.BatchNormReLU()
    for blk in (a, b):
        blk.initialize()
        blk(x)
        blk.gamma.set_data(mx.nd.array([0.5, 1.0, 2.0]))
        blk.beta.set_data(mx.nd.array([0.1, -0.2, 0.3]))
    with autograd.record():
        ya, yb = a(x), b(x)
    np.testing.assert_allclose(yb.asnumpy(), np.maximum(ya.asnumpy(), 0), rtol=1e-6)
    np.testing.assert_allclose(b.running_mean.data().asnumpy(), a.running_mean.data().asnumpy())


def test_batchnorm_cast_keeps_float32_statistics():
    bn = nn.BatchNorm(in_channels=2)
    bn.cast("float16")
    # 1.9.1 keeps the dtype as cast() was given it: the string 'float32' here
    assert all(np.dtype(p.dtype) == np.float32 for p in bn.collect_params().values())
    assert [p.dtype for p in bn.collect_params().values()] == ["float32"] * 4
    bn.cast("float64")
    assert np.dtype(bn.gamma.dtype) == np.float64


def test_lambda_errors_and_callables():
    with pytest.raises(AssertionError):
        nn.Lambda("no_such_function")
    with pytest.raises(ValueError):
        nn.HybridLambda(3)
    layer = nn.Lambda(lambda x: x * 3)
    np.testing.assert_allclose(layer(mx.nd.array([1.0, 2.0])).asnumpy(), [3.0, 6.0])


def test_bad_arguments_are_rejected():
    with pytest.raises(AssertionError):
        nn.Conv1D(2, 3, layout="NWC")
    with pytest.raises(AssertionError):
        nn.Conv2D(2, (3, 3, 3))
    with pytest.raises(AssertionError):
        nn.MaxPool2D(layout="NCW")
    with pytest.raises(AssertionError):
        nn.LeakyReLU(-0.1)


def test_conv_weight_shapes_for_layouts():
    cases = {
        "nn.Conv2D(4, 3, layout='NHWC', in_channels=6, groups=2)": (4, 3, 3, 3),
        "nn.Conv2DTranspose(4, 3, in_channels=6, groups=2)": (6, 2, 3, 3),
        "nn.Conv3DTranspose(4, 3, layout='NDHWC')": (0, 3, 3, 3, 4),
        "nn.Conv1D(5, 2)": (5, 0, 2),
    }
    for expr, shape in cases.items():
        assert _build(expr).weight.shape == shape, expr


def test_syncbatchnorm_matches_batchnorm_on_one_device():
    rng = np.random.default_rng(2)
    x = mx.nd.array(rng.standard_normal((4, 3, 5)))
    a, b = nn.BatchNorm(), cnn.SyncBatchNorm(num_devices=1)
    for blk in (a, b):
        blk.initialize()
    with autograd.record():
        ya, yb = a(x), b(x)
    np.testing.assert_allclose(yb.asnumpy(), ya.asnumpy(), rtol=1e-5, atol=1e-6)


def test_syncbatchnorm_several_devices_warns_and_uses_each_batch():
    # the devices' statistics are not shared here (documented): each device's output is
    # normalised with its own batch's mean and variance, and the first training call says so
    rng = np.random.default_rng(5)
    ctxs = [mx.cpu(0), mx.cpu(1)]
    xs = [mx.nd.array(rng.standard_normal((4, 3, 5)) * (i + 1) + i, ctx=c)
          for i, c in enumerate(ctxs)]
    blk = cnn.SyncBatchNorm(num_devices=2, prefix="sbn_warn_")
    blk.initialize(ctx=ctxs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with autograd.record():
            ys = [blk(x) for x in xs]
        with autograd.record():
            blk(xs[0])
    said = [w for w in caught if "not synchronised" in str(w.message)]
    assert len(said) == 1 and "ndev=2" in str(said[0].message)
    for x, y in zip(xs, ys):
        a = x.asnumpy()
        mean = a.mean(axis=(0, 2), keepdims=True)
        var = a.var(axis=(0, 2), keepdims=True)
        np.testing.assert_allclose(y.asnumpy(), (a - mean) / np.sqrt(var + 1e-5),
                                   rtol=1e-4, atol=1e-5)


def test_export_and_symbolblock_roundtrip(tmp_path):
    net = _build("nested()")
    net.initialize()
    x = mx.nd.array(np.random.default_rng(3).standard_normal((2, 2, 4, 4)))
    net.hybridize()
    y = net(x)
    net.export(str(tmp_path / "net"))
    back = mx.gluon.SymbolBlock.imports(str(tmp_path / "net-symbol.json"), ["data"],
                                        str(tmp_path / "net-0000.params"))
    np.testing.assert_allclose(back(x).asnumpy(), y.asnumpy(), rtol=1e-5, atol=1e-6)
