"""Inception V3 (Szegedy et al., 2015), for 299x299 inputs."""
from __future__ import annotations

from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ...nn.contrib_layers import HybridConcurrent
from ..model_store import load_pretrained

__all__ = ["Inception3", "inception_v3"]


def _make_basic_conv(**kwargs):
    """A bias-free convolution, BatchNorm (epsilon 0.001) and ReLU."""
    unit = nn.HybridSequential(prefix="")
    unit.add(nn.Conv2D(use_bias=False, **kwargs))
    unit.add(nn.BatchNorm(epsilon=0.001))
    unit.add(nn.Activation("relu"))
    return unit


_SETTING_NAMES = ("channels", "kernel_size", "strides", "padding")


def _make_branch(use_pool, *conv_settings):
    """An optional pool ('avg': 3x3/1 padded, 'max': 3x3/2) followed by basic convolutions.

    Each setting is ``(channels, kernel_size, strides, padding)``; None keeps the default.
    """
    branch = nn.HybridSequential(prefix="")
    if use_pool == "avg":
        branch.add(nn.AvgPool2D(pool_size=3, strides=1, padding=1))
    elif use_pool == "max":
        branch.add(nn.MaxPool2D(pool_size=3, strides=2))
    for setting in conv_settings:
        kwargs = {k: v for k, v in zip(_SETTING_NAMES, setting) if v is not None}
        branch.add(_make_basic_conv(**kwargs))
    return branch


def _concurrent(prefix, *branches):
    """Branches run on the same input, concatenated along channels, named under ``prefix``."""
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        for make in branches:
            out.add(make())
    return out


def _make_A(pool_features, prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (64, 1, None, None)),
        lambda: _make_branch(None, (48, 1, None, None), (64, 5, None, 2)),
        lambda: _make_branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
        lambda: _make_branch("avg", (pool_features, 1, None, None)))


def _make_B(prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (384, 3, 2, None)),
        lambda: _make_branch(None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
        lambda: _make_branch("max"))


def _make_C(channels_7x7, prefix):
    c7 = channels_7x7
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (192, 1, None, None)),
        lambda: _make_branch(None, (c7, 1, None, None), (c7, (1, 7), None, (0, 3)),
                             (192, (7, 1), None, (3, 0))),
        lambda: _make_branch(None, (c7, 1, None, None), (c7, (7, 1), None, (3, 0)),
                             (c7, (1, 7), None, (0, 3)), (c7, (7, 1), None, (3, 0)),
                             (192, (1, 7), None, (0, 3))),
        lambda: _make_branch("avg", (192, 1, None, None)))


def _make_D(prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (192, 1, None, None), (320, 3, 2, None)),
        lambda: _make_branch(None, (192, 1, None, None), (192, (1, 7), None, (0, 3)),
                             (192, (7, 1), None, (3, 0)), (192, 3, 2, None)),
        lambda: _make_branch("max"))


def _split_3x3(lead):
    """``lead`` followed by parallel 1x3 and 3x1 convolutions (384 channels each)."""
    seq = nn.HybridSequential(prefix="")
    seq.add(lead)
    split = HybridConcurrent(axis=1, prefix="")
    split.add(_make_branch(None, (384, (1, 3), None, (0, 1))))
    split.add(_make_branch(None, (384, (3, 1), None, (1, 0))))
    seq.add(split)
    return seq


def _make_E(prefix):
    return _concurrent(
        prefix,
        lambda: _make_branch(None, (320, 1, None, None)),
        lambda: _split_3x3(_make_branch(None, (384, 1, None, None))),
        lambda: _split_3x3(_make_branch(None, (448, 1, None, None), (384, 3, None, 1))),
        lambda: _make_branch("avg", (192, 1, None, None)))


class Inception3(HybridBlock):
    """Inception V3: a convolutional stem, three A, one B, four C, one D and two E modules,
    an 8x8 average pool, dropout and the ``classes``-way ``output``. Expects 299x299 inputs."""

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            add = self.features.add
            add(_make_basic_conv(channels=32, kernel_size=3, strides=2))
            add(_make_basic_conv(channels=32, kernel_size=3))
            add(_make_basic_conv(channels=64, kernel_size=3, padding=1))
            add(nn.MaxPool2D(pool_size=3, strides=2))
            add(_make_basic_conv(channels=80, kernel_size=1))
            add(_make_basic_conv(channels=192, kernel_size=3))
            add(nn.MaxPool2D(pool_size=3, strides=2))
            add(_make_A(32, "A1_"))
            add(_make_A(64, "A2_"))
            add(_make_A(64, "A3_"))
            add(_make_B("B_"))
            add(_make_C(128, "C1_"))
            add(_make_C(160, "C2_"))
            add(_make_C(160, "C3_"))
            add(_make_C(192, "C4_"))
            add(_make_D("D_"))
            add(_make_E("E1_"))
            add(_make_E("E2_"))
            add(nn.AvgPool2D(pool_size=8))
            add(nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def inception_v3(pretrained=False, ctx=cpu(), root=None, **kwargs):
    """Inception V3; ``pretrained=True`` loads ``root/inceptionv3-<hash>.params``."""
    net = Inception3(**kwargs)
    if pretrained:
        load_pretrained(net, "inceptionv3", ctx, root)
    return net
