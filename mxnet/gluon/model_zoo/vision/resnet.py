"""Residual networks: ResNet V1 (He et al., 2015) and V2 with pre-activation (He et al., 2016)."""
from __future__ import annotations

from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ..model_store import load_pretrained
from ....base import MXNetAssertionError

__all__ = ["ResNetV1", "ResNetV2", "BasicBlockV1", "BasicBlockV2", "BottleneckV1", "BottleneckV2",
           "resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1",
           "resnet18_v2", "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2",
           "get_resnet"]


def _conv3x3(channels, stride, in_channels):
    """A bias-free 3x3 convolution that keeps the spatial size at stride 1."""
    return nn.Conv2D(channels, kernel_size=3, strides=stride, padding=1, use_bias=False,
                     in_channels=in_channels)


def _projection(channels, stride, in_channels, with_bn):
    """The 1x1 strided convolution that matches the shortcut to the block's output."""
    conv = nn.Conv2D(channels, kernel_size=1, strides=stride, use_bias=False,
                     in_channels=in_channels)
    if not with_bn:
        return conv
    seq = nn.HybridSequential(prefix="")
    seq.add(conv)
    seq.add(nn.BatchNorm())
    return seq


class _ResidualV1(HybridBlock):
    """``relu(body(x) + shortcut(x))``, the shortcut being x or ``downsample(x)``."""

    # operand order of the sum, as in 1.9.1's graphs: the basic block adds ``shortcut + body``,
    # the bottleneck ``body + shortcut`` (it fixes the exported JSON's node order)
    _shortcut_first = False

    def hybrid_forward(self, F, x):
        # the body runs before the downsample branch, so forward hooks (summary) list the
        # layers in 1.9.1's order
        body = self.body(x)
        shortcut = self.downsample(x) if self.downsample is not None else x
        if self._shortcut_first:
            return F.Activation(shortcut + body, act_type="relu")
        return F.Activation(body + shortcut, act_type="relu")


class BasicBlockV1(_ResidualV1):
    """Two 3x3 conv-BN layers with a ReLU between them, plus the shortcut, then ReLU.

    ``downsample=True`` adds a 1x1 conv + BN projection on the shortcut (for a change of
    ``stride`` or channel count); ``in_channels`` fixes the input channels (0: inferred).
    """

    _shortcut_first = True

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.body = nn.HybridSequential(prefix="")
        self.body.add(_conv3x3(channels, stride, in_channels))
        self.body.add(nn.BatchNorm())
        self.body.add(nn.Activation("relu"))
        self.body.add(_conv3x3(channels, 1, channels))
        self.body.add(nn.BatchNorm())
        self.downsample = _projection(channels, stride, in_channels, True) if downsample else None


class BottleneckV1(_ResidualV1):
    """1x1 (stride ``stride``) -> 3x3 -> 1x1 convolutions, each followed by BN, squeezing to
    ``channels // 4`` in the middle; plus the shortcut, then ReLU.

    As in 1.9.1, the two 1x1 convolutions of the body keep their bias.
    """

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        mid = channels // 4
        self.body = nn.HybridSequential(prefix="")
        self.body.add(nn.Conv2D(mid, kernel_size=1, strides=stride))
        self.body.add(nn.BatchNorm())
        self.body.add(nn.Activation("relu"))
        self.body.add(_conv3x3(mid, 1, mid))
        self.body.add(nn.BatchNorm())
        self.body.add(nn.Activation("relu"))
        self.body.add(nn.Conv2D(channels, kernel_size=1, strides=1))
        self.body.add(nn.BatchNorm())
        self.downsample = _projection(channels, stride, in_channels, True) if downsample else None


class BasicBlockV2(HybridBlock):
    """Pre-activation basic block: BN-ReLU-conv3x3 twice, plus the shortcut (no final ReLU).

    With ``downsample`` the shortcut is a 1x1 convolution of the first pre-activation.
    """

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.bn1 = nn.BatchNorm()
        self.conv1 = _conv3x3(channels, stride, in_channels)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(channels, 1, channels)
        self.downsample = _projection(channels, stride, in_channels, False) if downsample else None

    def hybrid_forward(self, F, x):
        shortcut = x
        x = F.Activation(self.bn1(x), act_type="relu")
        if self.downsample is not None:
            shortcut = self.downsample(x)
        x = self.conv1(x)
        x = F.Activation(self.bn2(x), act_type="relu")
        return self.conv2(x) + shortcut


class BottleneckV2(HybridBlock):
    """Pre-activation bottleneck: BN-ReLU-conv1x1, BN-ReLU-conv3x3 (stride ``stride``),
    BN-ReLU-conv1x1, all bias-free, plus the shortcut."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        mid = channels // 4
        self.bn1 = nn.BatchNorm()
        self.conv1 = nn.Conv2D(mid, kernel_size=1, strides=1, use_bias=False)
        self.bn2 = nn.BatchNorm()
        self.conv2 = _conv3x3(mid, stride, mid)
        self.bn3 = nn.BatchNorm()
        self.conv3 = nn.Conv2D(channels, kernel_size=1, strides=1, use_bias=False)
        self.downsample = _projection(channels, stride, in_channels, False) if downsample else None

    def hybrid_forward(self, F, x):
        shortcut = x
        x = F.Activation(self.bn1(x), act_type="relu")
        if self.downsample is not None:
            shortcut = self.downsample(x)
        x = self.conv1(x)
        x = self.conv2(F.Activation(self.bn2(x), act_type="relu"))
        x = self.conv3(F.Activation(self.bn3(x), act_type="relu"))
        return x + shortcut


def _make_stage(block, num_blocks, channels, stride, stage_index, in_channels):
    """Stage ``stage_index``: its first block changes stride/channels, the rest keep them."""
    stage = nn.HybridSequential(prefix=f"stage{stage_index}_")
    with stage.name_scope():
        stage.add(block(channels, stride, channels != in_channels, in_channels=in_channels,
                        prefix=""))
        for _ in range(num_blocks - 1):
            stage.add(block(channels, 1, False, in_channels=channels, prefix=""))
    return stage


def _check_spec(layers, channels):
    if len(layers) != len(channels) - 1:
        raise MXNetAssertionError(f"ResNet: channels needs one more entry than layers; got "
                                  f"layers={layers} and channels={channels}")


def _stem(features, channels, thumbnail):
    """The input layers: one 3x3 conv for small (thumbnail) images, else 7x7/2 conv-BN-ReLU and
    a 3x3/2 max pool."""
    if thumbnail:
        features.add(_conv3x3(channels, 1, 0))
        return
    features.add(nn.Conv2D(channels, 7, 2, 3, use_bias=False))
    features.add(nn.BatchNorm())
    features.add(nn.Activation("relu"))
    features.add(nn.MaxPool2D(3, 2, 1))


class ResNetV1(HybridBlock):
    """ResNet V1: stem, ``len(layers)`` stages of ``block`` (``layers[i]`` blocks with
    ``channels[i + 1]`` channels), global average pooling and the ``classes``-way ``output``.

    ``thumbnail=True`` replaces the stem by a single 3x3 convolution, for 32x32 images.
    """

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(**kwargs)
        _check_spec(layers, channels)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            _stem(self.features, channels[0], thumbnail)
            for i, num in enumerate(layers):
                self.features.add(_make_stage(block, num, channels[i + 1], 1 if i == 0 else 2,
                                              i + 1, channels[i]))
            self.features.add(nn.GlobalAvgPool2D())
            self.output = nn.Dense(classes, in_units=channels[-1])

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class ResNetV2(HybridBlock):
    """ResNet V2: a scale-free BatchNorm on the input, the stem, the pre-activation stages, a
    final BN-ReLU, global average pooling, Flatten and the ``classes``-way ``output``."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(**kwargs)
        _check_spec(layers, channels)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.BatchNorm(scale=False, center=False))
            _stem(self.features, channels[0], thumbnail)
            in_channels = channels[0]
            for i, num in enumerate(layers):
                self.features.add(_make_stage(block, num, channels[i + 1], 1 if i == 0 else 2,
                                              i + 1, in_channels))
                in_channels = channels[i + 1]
            self.features.add(nn.BatchNorm())
            self.features.add(nn.Activation("relu"))
            self.features.add(nn.GlobalAvgPool2D())
            self.features.add(nn.Flatten())
            self.output = nn.Dense(classes, in_units=in_channels)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# depth -> (block kind, blocks per stage, channels: stem then each stage)
resnet_spec = {
    18: ("basic_block", [2, 2, 2, 2], [64, 64, 128, 256, 512]),
    34: ("basic_block", [3, 4, 6, 3], [64, 64, 128, 256, 512]),
    50: ("bottle_neck", [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
    101: ("bottle_neck", [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
    152: ("bottle_neck", [3, 8, 36, 3], [64, 256, 512, 1024, 2048]),
}
resnet_net_versions = [ResNetV1, ResNetV2]
resnet_block_versions = [{"basic_block": BasicBlockV1, "bottle_neck": BottleneckV1},
                         {"basic_block": BasicBlockV2, "bottle_neck": BottleneckV2}]


def get_resnet(version, num_layers, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """ResNet ``version`` (1 or 2) with ``num_layers`` (18, 34, 50, 101 or 152) layers.

    ``pretrained=True`` loads ``root/resnet<num_layers>_v<version>-<hash>.params``; other
    keyword arguments (``classes``, ``thumbnail``, ``prefix``) go to the network class.
    """
    if num_layers not in resnet_spec:
        raise MXNetAssertionError(f"Invalid number of layers: {num_layers}. Options are "
                                  f"{str(list(resnet_spec.keys()))}")
    if version not in (1, 2):
        raise MXNetAssertionError(f"Invalid resnet version: {version}. Options are 1 and 2.")
    kind, layers, channels = resnet_spec[num_layers]
    net = resnet_net_versions[version - 1](resnet_block_versions[version - 1][kind], layers,
                                           channels, **kwargs)
    if pretrained:
        load_pretrained(net, f"resnet{num_layers}_v{version}", ctx, root)
    return net


def _named_constructor(version, num_layers):
    """The model-zoo function ``resnet<num_layers>_v<version>(**kwargs)``."""
    def build(**kwargs):
        return get_resnet(version, num_layers, **kwargs)
    build.__name__ = build.__qualname__ = f"resnet{num_layers}_v{version}"
    build.__doc__ = (f"ResNet-{num_layers} V{version}; keyword arguments as for "
                     f":func:`get_resnet`.")
    return build


resnet18_v1 = _named_constructor(1, 18)
resnet34_v1 = _named_constructor(1, 34)
resnet50_v1 = _named_constructor(1, 50)
resnet101_v1 = _named_constructor(1, 101)
resnet152_v1 = _named_constructor(1, 152)
resnet18_v2 = _named_constructor(2, 18)
resnet34_v2 = _named_constructor(2, 34)
resnet50_v2 = _named_constructor(2, 50)
resnet101_v2 = _named_constructor(2, 101)
resnet152_v2 = _named_constructor(2, 152)
