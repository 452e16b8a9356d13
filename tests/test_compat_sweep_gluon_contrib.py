"""gluon.contrib / mx.contrib front ends against values recorded from MXNet 1.9.1.

Covers what the earlier contrib tests (tests/gluon/test_gluon_contrib_*.py,
tests/contrib/test_text.py) leave out: DeformableConvolution's list-shaped weight (its
Parameter shape, repr and the exported ``__shape__``), Parameter keeping a list shape, the
text embeddings' default root in their signatures, SyncBatchNorm's CPU arithmetic bit for bit
(training and inference outputs, batch statistics, moving statistics, gamma/beta gradients),
and an Estimator run with ValidationHandler + CheckpointHandler(save_best) + LoggingHandler
on a hybridized net (log lines, checkpoint file names, metrics).

Float32 arrays are written as the hex of their bits, 8 digits per value.
"""
from __future__ import annotations

import inspect
import io
import json
import logging
import os
import re

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon.contrib import cnn as ccnn
from mxnet.gluon.contrib import nn as cnn


def _bits(a):
    a = a.asnumpy() if hasattr(a, "asnumpy") else np.asarray(a)
    return "".join("%08x" % v for v in np.ascontiguousarray(a, np.float32).view(np.uint32).ravel())


# ---------------------------------------------------------------------------------------------
# DeformableConvolution's weight and Parameter list shapes

def test_deformable_weight_shape_is_a_list_until_inferred(tmp_path):
    with mx.name.NameManager():   # fresh name counters: deformable_conv0
        net = ccnn.DeformableConvolution(4, kernel_size=(3, 3), in_channels=4, groups=2)
    w = net.deformable_conv_weight
    # 1.9.1 builds the weight shape as a list and ignores in_channels for it
    assert w.shape == [4, 0, 3, 3] and isinstance(w.shape, list)
    assert repr(w) == ("Parameter deformable_conv0_deformable_conv_weight (shape=[4, 0, 3, 3], "
                       "dtype=<class 'numpy.float32'>)")
    assert net.offset_weight.shape == (18, 2, 3, 3)
    net.initialize()
    assert w.shape == [4, 0, 3, 3]
    net.hybridize()
    net(nd.ones((1, 4, 5, 5)))
    assert w.shape == (4, 2, 3, 3) and isinstance(w.shape, tuple)
    net.export(str(tmp_path / "m"))
    nodes = json.loads((tmp_path / "m-symbol.json").read_text())["nodes"]
    shapes = [n.get("attrs", {}).get("__shape__") for n in nodes if n["op"] == "null"]
    assert shapes == [None, "(18, 2, 3, 3)", "(18,)", "[4, 0, 3, 3]", "(4,)"]


def test_modulated_deformable_symbol_keeps_list_shape():
    with mx.name.NameManager():
        net = ccnn.ModulatedDeformableConvolution(4, kernel_size=(3, 3))
    assert [(p.name, p.shape) for p in net.collect_params().values()] == [
        ("modulated_deformable_conv0_deformable_conv_weight", [4, 0, 3, 3]),
        ("modulated_deformable_conv0_deformable_conv_bias", (4,)),
        ("modulated_deformable_conv0_offset_weight", (27, 0, 3, 3)),
        ("modulated_deformable_conv0_offset_bias", (27,))]
    nodes = json.loads(net(mx.sym.var("data")).tojson())["nodes"]
    got = [(n["op"], n["name"], n.get("attrs", {}).get("__shape__")) for n in nodes]
    assert got == [
        ("null", "data", None),
        ("null", "modulated_deformable_conv0_offset_weight", "(27, 0, 3, 3)"),
        ("null", "modulated_deformable_conv0_offset_bias", "(27,)"),
        ("Convolution", "modulated_deformable_conv0_convolution0", None),
        ("slice_axis", "modulated_deformable_conv0_slice_axis0", None),
        ("slice_axis", "modulated_deformable_conv0_slice_axis1", None),
        ("sigmoid", "modulated_deformable_conv0_sigmoid0", None),
        ("_mul_scalar", "modulated_deformable_conv0__mulscalar0", None),
        ("null", "modulated_deformable_conv0_deformable_conv_weight", "[4, 0, 3, 3]"),
        ("null", "modulated_deformable_conv0_deformable_conv_bias", "(4,)"),
        ("_contrib_ModulatedDeformableConvolution", "modulated_deformable_conv0_fwd", None)]


def test_deformable_inferred_shape_then_list_setter():
    with mx.name.NameManager():
        net = ccnn.DeformableConvolution(4, kernel_size=(3, 3))
    net.initialize()
    w = net.deformable_conv_weight
    net(nd.ones((1, 2, 5, 5)))
    assert w.shape == (4, 2, 3, 3)
    assert repr(w) == ("Parameter deformable_conv0_deformable_conv_weight (shape=(4, 2, 3, 3), "
                       "dtype=<class 'numpy.float32'>)")
    w.shape = [4, 2, 3, 3]   # 1.9.1 keeps what it is given
    assert w.shape == [4, 2, 3, 3] and isinstance(w.shape, list)


def test_parameter_list_shape():
    p = gluon.Parameter("x", shape=[2, 3])
    assert p.shape == [2, 3] and isinstance(p.shape, list)
    assert repr(p) == "Parameter x (shape=[2, 3], dtype=<class 'numpy.float32'>)"
    p.initialize()
    assert p.shape == [2, 3] and p.data().shape == (2, 3)
    q = gluon.Parameter("y", shape=[2, 0])
    q.shape = (2, 5)
    assert q.shape == (2, 5) and isinstance(q.shape, tuple)
    assert gluon.Parameter("z", shape=(2, 3)).shape == (2, 3)
    assert mx.sym.var("v", shape=[2, 3]).attr("__shape__") == "[2, 3]"


# ---------------------------------------------------------------------------------------------
# mx.contrib.text

def test_pretrained_embedding_root_default():
    from mxnet.contrib.text import embedding
    want = os.path.join(mx.base.data_dir(), "embeddings")   # fixed when the module loads
    for cls in (embedding.GloVe, embedding.FastText):
        assert inspect.signature(cls).parameters["embedding_root"].default == want


# ---------------------------------------------------------------------------------------------
# SyncBatchNorm (1.9.1's own CPU kernel, not oneDNN's BatchNorm)

_X = (np.sin(np.arange(24) * 1.7) * 0.6).reshape(2, 3, 2, 2)
_OG = (np.cos(np.arange(24) * 0.9) * 0.5).reshape(2, 3, 2, 2)
_GAMMA, _BETA = [0.7, 1.2, 0.9], [0.1, -0.2, 0.3]
_MM, _MV = [0.05, -0.1, 0.2], [0.8, 1.3, 0.4]

_TRAIN_Y = (
    "3db6492c3f89360dbe283ba4bf5424283f12cc613f8ba154bfba68e8bfa89fb73fa9628a3f3bc184bf7fc633"
    "3d1885583f8a3e0ebc98fdd4bf5fcf473ee3cb733f9d3581bfa18d50bfc09bb93f8627d43f66f9a6bf6ee161"
    "be1829043fbe07d2")
_INFER_Y = (
    "3d8097a73f0c3151bd7e8f24bec79af23e6442b03ed9139ebf10da35bf0307923f4941ba3ec28b94bf50215e"
    "bdcb93ec3f0d35c13c1e8568bed31db63e740ece3ef4667cbefb1124bf15ab713ed091343efe1080bf447f6a"
    "be68d15c3f65b056")


def test_sync_batch_norm_bits():
    x, og = nd.array(_X), nd.array(_OG)
    gamma, beta = nd.array(_GAMMA), nd.array(_BETA)
    mm, mv = nd.array(_MM), nd.array(_MV)
    for t in (x, gamma, beta):
        t.attach_grad()
    with autograd.record():
        y, mean, var = nd.contrib.SyncBatchNorm(x, gamma, beta, mm, mv, fix_gamma=False,
                                                eps=1e-5, key="s", output_mean_var=True)
    y.backward(og)
    assert _bits(y) == _TRAIN_Y
    assert _bits(mean) == "3bda0d1c3cc06cc03d0c098a"
    assert _bits(var) == "3e37d6ac3e37ad0f3e377a73"
    assert _bits(gamma.grad) == "3ea72302bf0fd2e43e91d29c"
    assert _bits(beta.grad) == "3fa26de5bf5adf103e8761be"
    assert _bits(mm) == "3d3b0bafbdb382663e3bd228"
    assert _bits(mv) == "3f3cea7c3f980e523ec17e71"
    # inference with the updated moving statistics
    yi = nd.contrib.SyncBatchNorm(x, gamma, beta, mm, mv, fix_gamma=False, eps=1e-5, key="s")
    assert _bits(yi) == _INFER_Y
    # dx agrees to rounding (1.9.1's order there is not reproduced)
    n = 8
    xc = _X - _X.mean(axis=(0, 2, 3), keepdims=True)
    v = (xc ** 2).mean(axis=(0, 2, 3), keepdims=True)
    g = np.array(_GAMMA).reshape(1, 3, 1, 1)
    want = g / np.sqrt(v + 1e-5) * (_OG - _OG.mean(axis=(0, 2, 3), keepdims=True)
                                    - xc * (_OG * xc).sum(axis=(0, 2, 3), keepdims=True)
                                    / n / (v + 1e-5))
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5, atol=1e-6)


_GLOBAL_Y = (
    "3d7951d53f06ca70bd722dcfbebf6b7e3e5e7bc23ed1a6acbf0965d2bef85e483f3fbb7e3eb5517fbf4e31c2"
    "bde500863f07c4913c217cdcbeca79ae3e6afadb3eebc542beeddc4cbf0e00b43ec984433eef2be1bf42e32a"
    "be71dca83f5b5e58")
_GLOBAL_DX = (
    "3ec859b63e791465bdb61485beb5219abef19d5dbde32e0d3eab018d3f06b2523edd9dbfbe3170fabf25f52f"
    "bf21f62ebd9bbc7f3e81bf073ec83cb63e6e629ebe0c017dbef751b7beed7822bdbfa1173ef08bf13f35e9c9"
    "3ed3c507be4919b6")
_GLOBAL_DX_FIXED = (
    "3f0f1b823eb1e9ffbe020ea8bf016125bec95878bdbd510a3e8e814b3ee07e883ef63d7ebe452832bf3865c2"
    "bf33f517bdde7aff3eb95a0b3f0f06cb3eaa4670bde957d0bece196ebec5e41cbd9fb0e83f05a3153f4a2035"
    "3eeb4cb2be5f71e8")


def test_sync_batch_norm_global_stats_bits():
    for fix_gamma, want_dx, want_dg in ((False, _GLOBAL_DX, "3dbec448be9a42ca3df86c98"),
                                        (True, _GLOBAL_DX_FIXED, "0" * 24)):
        x, gamma, beta = nd.array(_X), nd.array(_GAMMA), nd.array(_BETA)
        mm, mv = nd.array(_MM), nd.array(_MV)
        for t in (x, gamma, beta):
            t.attach_grad()
        with autograd.record():
            y = nd.contrib.SyncBatchNorm(x, gamma, beta, mm, mv, fix_gamma=fix_gamma,
                                         use_global_stats=True, eps=1e-5, key="s")
        y.backward(nd.array(_OG))
        if not fix_gamma:
            assert _bits(y) == _GLOBAL_Y
        assert _bits(x.grad) == want_dx
        assert _bits(gamma.grad) == want_dg
        assert _bits(beta.grad) == "3fa26de5bf5adf103e8761be"
        assert _bits(mm) == "3d4ccccdbdcccccd3e4ccccd"   # the moving statistics stay
        assert _bits(mv) == "3f4ccccd3fa666663ecccccd"


def test_sync_batch_norm_layer_hybridized_matches_kernel():
    net = cnn.SyncBatchNorm(in_channels=3, num_devices=1, epsilon=1e-5)
    net.initialize()
    net.gamma.set_data(nd.array(_GAMMA))
    net.beta.set_data(nd.array(_BETA))
    net.hybridize()
    with autograd.record():
        y = net(nd.array(_X))
    assert _bits(y) == _TRAIN_Y


def test_sync_seq_sum_adds_in_order():
    from mxnet.operator.nn_norm import _sync_seq_sum
    rs = np.random.RandomState(1)
    for shape in [(2, 8, 12), (100, 1, 7), (1, 1, 500), (64, 10, 1), (5, 2, 50), (1, 3, 9)]:
        a = (rs.randn(*shape) * rs.rand(*shape) * 100).astype(np.float32)
        want = np.zeros(shape[1], np.float32)
        for n in range(shape[0]):
            row = np.zeros(shape[1], np.float32)
            for s in range(shape[2]):
                row += a[n, :, s]
            want += row
        got = _sync_seq_sum(a)
        assert got.shape == (shape[1],) and _bits(got) == _bits(want), shape


# ---------------------------------------------------------------------------------------------
# _contrib_DeformableConvolution (the op under gluon.contrib.cnn): output, weight and bias
# gradients bit for bit; data gradient to rounding (1.9.1's scatter order is not reproduced)

_DC_Y = (
    "bd9e1e003dfe1f783ebdfdac3f1778cc3dbfb3383ec681523e59eafebec3ea0abdbded243e07d2263e847d58"
    "bd4726b03ece993b3f2422be3f98a3ae3ec5b37fbeb9aa883e0cad823db0a340be0cfe89be16ef84bee348aa"
    "bf1d83e2be08cfc93e66b3663ddefdba3ea5762e3e310e88bdb27e8ebedd838abec4c19cbee3c4353e3d9cf4"
    "3e8d8afb3dc098ecbc4d03a03ce0cb683d92b6e63dc4915c3f376a1e3e3368f53f00cb863df3364ebdf998dc"
    "bda577503e8167a83f141c263f0bdcbebe05af54beae834abeb5a2043ec10598bd049ee43eaafeff3e927d75"
    "3ec06ef8bdbbdb4fbe885840bf821acabef9dab5bc28dd883ec596743eaeda57bf0030e6")
_DC_DW = (
    "3d933bc43fbb4cc43fc3049ebcaae9e8bf92dcfebfe6cd52bf28e4ff3fa5b2563e234820bed9df4abf724c97"
    "3e8d22993fa48cf43fd3a7b0bf099f8f3e7b5c8a3e04da8cbf3e4b02bf0d259abfa217323ea019ba3f83c287"
    "402786543f90244c3df9e48ec0155ba2bd20b9603e780116bf7c0db4bfa3fd0abf0a456cbfc764623f30be98"
    "beb8a611bfb4d667bdd42506")
_DC_DX = (
    "be39752a3e79734a3ef2b01c3d28035ebe428a21be65df20be9b76d9be33ce973e2d30883d3e75533ec773a0"
    "3ee1c49e3e6804663bc47e603e2ecb90bf2d84eebdde42683f3284583ee1dd5f3da73d1bbeaa5c93bf0ecda4"
    "bf106622bf56b82abe958370be0543e43f2c4e713f4d14b53de524d13e5c26e63e4e92babf0922a4bd6ca718"
    "3cb9a6c43f108efa3e4f75883e326b893d7b9834bef38735bf78af90bcd7d298bd7562d13d6751e43eaed0df"
    "be585d323e533bce3ebef84ebe9c93843dd410dd3e0a59593e921dc0bde021fe3f192f3d3dfd9a14bd9cfa0c"
    "bf18b1393e4182e1bc46a271bd03577abcb86135bf06211dbd72deb8be01c32abdf2879b")
_DC_DB = "4064120bbfe1ecd6"


def test_deformable_convolution_op_bits():
    def wave(n, step, scale, f=np.sin):
        return f(np.arange(n) * step) * scale
    x = nd.array(wave(64, 0.7, 0.8).reshape(2, 2, 4, 4))
    off = nd.array(wave(576, 0.31, 1.3, np.cos).reshape(2, 18, 4, 4))
    w = nd.array(wave(36, 1.3, 0.4).reshape(2, 2, 3, 3))
    b = nd.array([0.25, -0.125])
    og = nd.array(wave(64, 0.53, 0.9, np.cos).reshape(2, 2, 4, 4))
    for t in (x, off, w, b):
        t.attach_grad()
    with autograd.record():
        y = nd.contrib.DeformableConvolution(x, off, w, b, kernel=(3, 3), pad=(1, 1),
                                             num_filter=2)
    y.backward(og)
    assert _bits(y) == _DC_Y
    assert _bits(w.grad) == _DC_DW
    assert _bits(b.grad) == _DC_DB
    want = np.frombuffer(bytes.fromhex(_DC_DX), ">u4").astype(np.uint32).view(np.float32)
    np.testing.assert_allclose(x.grad.asnumpy().ravel(), want, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# Estimator: validation every 2 batches, best-model checkpoints, per-batch logging

_LOG = [
    "Training begin: using optimizer Adam with current learning rate 0.0500 ",
    "Train for 2 epochs.",
    "Validation Begin",
    "[Epoch 0][Batch 0][Samples 8] time/interval: Ts",
    "Validation Begin",
    "[Epoch 0] Finished in Ts, validation accuracy: 0.4375",
    "[Epoch 0][Batch 1][Samples 16] time/interval: Ts",
    "[Epoch 0][Batch 2][Samples 24] time/interval: Ts",
    "Validation Begin",
    "[Epoch 0] Finished in Ts, validation accuracy: 0.9375",
    "[Epoch 0] CheckpointHandler: trained total 4 batches, saving model at DIR with prefix: "
    "best-epoch0batch3",
    "[Epoch 0] CheckpointHandler: validation accuracy improved from 0.93750 to 0.93750, "
    "updating best model at DIR with prefix: best-best",
    "[Epoch 0] Finished in Ts",
    "Validation Begin",
    "Validation Begin",
    "[Epoch 0] Finished in Ts, validation accuracy: 0.9375",
    "[Epoch 1][Batch 0][Samples 32] time/interval: Ts",
    "[Epoch 1][Batch 1][Samples 40] time/interval: Ts",
    "Validation Begin",
    "[Epoch 0] Finished in Ts, validation accuracy: 0.9375",
    "[Epoch 1][Batch 2][Samples 48] time/interval: Ts",
    "Validation Begin",
    "[Epoch 0] Finished in Ts, validation accuracy: 0.9375",
    "[Epoch 1] CheckpointHandler: trained total 7 batches, saving model at DIR with prefix: "
    "best-epoch1batch6",
    "[Epoch 6] CheckpointHandler: validation accuracy did not improve from 0.93750, skipping "
    "updating best model",
    "[Epoch 1] Finished in Ts",
    "Train finished using total 0s with 2 epochs.",
]


def test_estimator_validation_checkpoint_logging(tmp_path):
    from mxnet.gluon.contrib.estimator import (CheckpointHandler, Estimator, LoggingHandler,
                                               ValidationHandler)
    X = (np.sin(np.arange(120) * 0.37) * 0.9).astype("float32").reshape(24, 5)
    Y = (X.sum(1) > 0).astype("float32")
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(X, Y), batch_size=8)
    val = gluon.data.DataLoader(gluon.data.ArrayDataset(X[:16], Y[:16]), batch_size=8)
    net = gluon.nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(gluon.nn.Dense(4, activation="relu", in_units=5), gluon.nn.Dense(2, in_units=4))
    net.initialize()
    for i, (_, p) in enumerate(sorted(net.collect_params().items())):
        p.set_data(nd.array((np.cos(np.arange(int(np.prod(p.shape))) * (0.3 + i)) * 0.5)
                            .reshape(p.shape)))
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.05})
    est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), train_metrics=mx.metric.Accuracy(),
                    val_metrics=mx.metric.Accuracy(), trainer=trainer, context=mx.cpu())
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    est.logger.addHandler(handler)
    d = str(tmp_path)
    try:
        est.fit(train, epochs=2, event_handlers=[
            ValidationHandler(val, est.evaluate, epoch_period=1, batch_period=2),
            CheckpointHandler(d, model_prefix="best", monitor=est.val_metrics[0], save_best=True,
                              mode="max", verbose=1),
            LoggingHandler(log_interval=1)])
    finally:
        est.logger.removeHandler(handler)
    log = re.sub(r"\d+\.\d+s", "Ts", buf.getvalue()).replace(d, "DIR")
    assert log.splitlines() == _LOG
    assert sorted(os.listdir(d)) == [
        "best-best.params", "best-best.states", "best-epoch0batch3.params",
        "best-epoch0batch3.states", "best-epoch1batch6.params", "best-epoch1batch6.states",
        "best-symbol.json"]
    nodes = json.loads((tmp_path / "best-symbol.json").read_text())["nodes"]
    assert [(n["op"], n["name"]) for n in nodes] == [
        ("null", "data"), ("null", "net_dense0_weight"), ("null", "net_dense0_bias"),
        ("FullyConnected", "net_dense0_fwd"), ("Activation", "net_dense0_relu_fwd"),
        ("null", "net_dense1_weight"), ("null", "net_dense1_bias"),
        ("FullyConnected", "net_dense1_fwd")]
    assert [m.get() for m in est.train_metrics + est.val_metrics] == [
        ("training accuracy", 0.9166666666666666), ("validation accuracy", 0.9375)]
