"""Compatibility sweep: Gluon layer classes (nn, rnn, contrib) compared with MXNet 1.9.1 by a
differential harness over constructor variants (repr, parameters, outputs, gradients,
hybridized or not, error classes). The expected values below were recorded from 1.9.1."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, nd
from mxnet.gluon import nn


# -- channels-last global pooling: the output survives the backward pass ------------------------
@pytest.mark.parametrize("make, shape, out, grad", [
    # recorded from 1.9.1
    (lambda: nn.GlobalAvgPool2D(layout="NHWC"), (1, 2, 2, 3), [4.5, 5.5, 6.5], [0.25] * 12),
    (lambda: nn.AvgPool2D(2, layout="NHWC"), (1, 2, 2, 3), [4.5, 5.5, 6.5], [0.25] * 12),
    (lambda: nn.GlobalMaxPool1D(layout="NWC"), (1, 4, 2), [6.0, 7.0],
     [0, 0, 0, 0, 0, 0, 1, 1]),
    (lambda: nn.MaxPool1D(2, layout="NWC"), (1, 4, 2), [2.0, 3.0, 6.0, 7.0],
     [0, 0, 1, 1, 0, 0, 1, 1]),
])
def test_channels_last_pool_output_kept_after_backward(make, shape, out, grad):
    blk = make()
    blk.initialize()
    x = nd.array(np.arange(np.prod(shape)).reshape(shape))
    x.attach_grad()
    with autograd.record():
        y = blk(x)
    y.backward()
    # the output used to share the pooling scratch buffer, which the backward overwrote
    assert y.asnumpy().ravel().tolist() == out
    assert x.grad.asnumpy().ravel().tolist() == grad
    y2 = blk(x)
    with autograd.record():
        blk(x * 2).backward()
    assert y2.asnumpy().ravel().tolist() == out


# -- convolution layers check their arguments when built ----------------------------------------
@pytest.mark.parametrize("make", [
    # each raised MXNetError in the constructor in 1.9.1 (shape inference on a partial shape)
    lambda: nn.Conv2D(3, 3, strides=(1, 1, 1)),
    lambda: nn.Conv2D(3, 3, padding=(1, 1, 1)),
    lambda: nn.Conv2D(3, 3, dilation=(1, 1, 1)),
    lambda: nn.Conv2D(3, 3, in_channels=4, groups=3),
    lambda: nn.Conv2D(4, 3, in_channels=3, groups=2),
    lambda: nn.Conv2D(0, 3),
    lambda: nn.Conv2D(3, 0),
    lambda: nn.Conv2D(3, -1),
    lambda: nn.Conv2D(3, 3, strides=0),
    lambda: nn.Conv2D(3, (3, 3), dilation=0),
    lambda: nn.Conv2DTranspose(3, 3, strides=(1, 1, 1)),
    lambda: nn.Conv1D(3, 3, padding=(1, 1)),
    lambda: nn.Conv3D(3, 2, strides=(1, 1)),
])
def test_conv_bad_arguments_fail_at_construction(make):
    with pytest.raises(mx.base.MXNetError):
        make()


def test_conv_valid_arguments_still_build_and_run():
    # deferred in_channels with groups is accepted until the data is seen (as in 1.9.1)
    conv = nn.Conv2D(4, 3, groups=2, padding=1)
    conv.initialize()
    assert conv(nd.ones((1, 4, 3, 3))).shape == (1, 4, 3, 3)
    assert conv.weight.shape == (4, 2, 3, 3)
    conv = nn.Conv2D(4, (3, 2), strides=2, in_channels=2, layout="NHWC")
    assert conv.weight.shape == (4, 3, 2, 2)


# -- PixelShuffle3D builds 1.9.1's graph --------------------------------------------------------
def test_pixelshuffle3d_values_and_graph():
    import json

    from mxnet.gluon.contrib import nn as cnn
    blk = cnn.PixelShuffle3D((1, 2, 3))
    y = blk(nd.arange(24).reshape((1, 6, 1, 2, 2)))
    # recorded from 1.9.1
    assert y.shape == (1, 1, 1, 4, 6)
    assert y.asnumpy().ravel().astype(int).tolist() == [
        0, 4, 8, 1, 5, 9, 12, 16, 20, 13, 17, 21, 2, 6, 10, 3, 7, 11, 14, 18, 22, 15, 19, 23]
    out = blk(mx.sym.var("data"))
    assert out.list_outputs() == [blk.prefix + "reshape5_output"]
    assert [n["op"] for n in json.loads(out.tojson())["nodes"]] == [
        "null", "Reshape", "SwapAxis", "Reshape", "Reshape", "SwapAxis", "Reshape", "Reshape",
        "SwapAxis", "Reshape"]


# -- deferred initialization: any failure while inferring shapes becomes a ValueError ----------
class _Raises(mx.gluon.HybridBlock):
    def __init__(self, exc):
        super().__init__()
        self.exc = exc
        with self.name_scope():
            self.w = self.params.get("w", shape=(0, 3), allow_deferred_init=True)

    def hybrid_forward(self, F, x, w):
        raise self.exc("boom")


@pytest.mark.parametrize("exc", [TypeError, KeyError, IndexError, AssertionError, RuntimeError])
def test_deferred_infer_failure_is_value_error(exc):
    # recorded from 1.9.1: imperatively, ValueError("Deferred initialization failed because
    # shape cannot be inferred. ..."); hybridized, the block's own exception
    blk = _Raises(exc)
    blk.initialize()
    with pytest.raises(ValueError, match="Deferred initialization failed"):
        blk(nd.ones((2, 3)))
    blk = _Raises(exc)
    blk.initialize()
    blk.hybridize()
    with pytest.raises(exc, match="boom"):
        blk(nd.ones((2, 3)))


def test_lstm_cell_missing_state_deferred_is_value_error():
    # recorded from 1.9.1: ValueError (deferred init), "... list index out of range"
    from mxnet.gluon import rnn
    cell = rnn.LSTMCell(3)
    cell.initialize()
    with pytest.raises(ValueError, match="Deferred initialization failed"):
        cell(nd.ones((2, 4)), [nd.zeros((2, 3))])


# -- exported graphs: BatchNorm's moving-stat inputs carry 1.9.1's variable versions -----------
def _bn_versions(tmp_path, make, steps):
    import json
    blk = make()
    blk.initialize()
    for step in steps:
        if step == "hybridize":
            blk.hybridize()
        else:
            blk(nd.ones((2, 3)))
    blk.export(str(tmp_path / "m"))
    nodes = json.loads((tmp_path / "m-symbol.json").read_text())["nodes"]
    return [[v for _, _, v in n["inputs"]] for n in nodes if n["op"] == "BatchNorm"]


@pytest.mark.parametrize("make, steps, versions", [
    # recorded from 1.9.1: each trace of the block composes BatchNorm on the parameters'
    # one kept variable, so the versions count the traces
    (lambda: nn.BatchNorm(), ["hybridize", "call"], [0, 0, 0, 1, 1]),
    (lambda: nn.BatchNorm(in_channels=3), ["call", "hybridize", "call"], [0, 0, 0, 1, 1]),
    (lambda: nn.BatchNorm(), ["call", "hybridize", "call"], [0, 0, 0, 2, 2]),
    (lambda: nn.BatchNorm(), ["hybridize", "call", "hybridize", "call"], [0, 0, 0, 2, 2]),
])
def test_export_batchnorm_versions(tmp_path, make, steps, versions):
    assert _bn_versions(tmp_path, make, steps) == [versions]


def test_export_batchnorm_versions_in_sequential(tmp_path):
    def make():
        net = nn.HybridSequential()
        net.add(nn.Dense(3), nn.BatchNorm())
        return net
    # recorded from 1.9.1
    assert _bn_versions(tmp_path, make, ["hybridize", "call"]) == [[0, 0, 0, 1, 1]]
    assert _bn_versions(tmp_path, make, ["call", "hybridize", "call"]) == [[0, 0, 0, 2, 2]]
