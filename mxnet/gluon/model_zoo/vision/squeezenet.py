"""SqueezeNet 1.0 and 1.1 (Iandola et al., 2016): AlexNet accuracy with ~1.2M parameters."""
from __future__ import annotations

from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ...nn.contrib_layers import HybridConcurrent
from ..model_store import load_pretrained
from ....base import MXNetAssertionError

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]


def _make_fire_conv(channels, kernel_size, padding=0):
    conv = nn.HybridSequential(prefix="")
    conv.add(nn.Conv2D(channels, kernel_size, padding=padding))
    conv.add(nn.Activation("relu"))
    return conv


def _make_fire(squeeze_channels, expand1x1_channels, expand3x3_channels):
    """A fire module: a 1x1 squeeze, then 1x1 and 3x3 expands concatenated on channels."""
    fire = nn.HybridSequential(prefix="")
    fire.add(_make_fire_conv(squeeze_channels, 1))
    expand = HybridConcurrent(axis=1, prefix="")
    expand.add(_make_fire_conv(expand1x1_channels, 1))
    expand.add(_make_fire_conv(expand3x3_channels, 3, 1))
    fire.add(expand)
    return fire


def _pool():
    return nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True)


# version -> (stem channels, stem kernel, fire squeeze widths with "pool" marking max pools)
_squeezenet_spec = {
    "1.0": (96, 7, [16, 16, 32, "pool", 32, 48, 48, 64, "pool", 64]),
    "1.1": (64, 3, [16, 16, "pool", 32, 32, "pool", 48, 48, 64, 64]),
}


class SqueezeNet(HybridBlock):
    """SqueezeNet ``version`` '1.0' or '1.1': a strided stem, fire modules with max pools,
    dropout, then a 1x1 convolution to ``classes`` channels, ReLU, a 13x13 average pool and
    Flatten (``output``). Expects 224x224 inputs."""

    def __init__(self, version, classes=1000, **kwargs):
        super().__init__(**kwargs)
        if version not in _squeezenet_spec:
            raise MXNetAssertionError(f"Unsupported SqueezeNet version {version}: 1.0 or 1.1 "
                                      "expected")
        stem_channels, stem_kernel, fires = _squeezenet_spec[version]
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.Conv2D(stem_channels, kernel_size=stem_kernel, strides=2))
            self.features.add(nn.Activation("relu"))
            self.features.add(_pool())
            for squeeze in fires:
                if squeeze == "pool":
                    self.features.add(_pool())
                else:
                    self.features.add(_make_fire(squeeze, squeeze * 4, squeeze * 4))
            self.features.add(nn.Dropout(0.5))

            self.output = nn.HybridSequential(prefix="")
            self.output.add(nn.Conv2D(classes, kernel_size=1))
            self.output.add(nn.Activation("relu"))
            self.output.add(nn.AvgPool2D(13))
            self.output.add(nn.Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def get_squeezenet(version, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """SqueezeNet of ``version`` '1.0' or '1.1'."""
    net = SqueezeNet(version, **kwargs)
    if pretrained:
        load_pretrained(net, f"squeezenet{version}", ctx, root)
    return net


def squeezenet1_0(**kwargs):
    """SqueezeNet 1.0."""
    return get_squeezenet("1.0", **kwargs)


def squeezenet1_1(**kwargs):
    """SqueezeNet 1.1 (2.4x less computation than 1.0)."""
    return get_squeezenet("1.1", **kwargs)
