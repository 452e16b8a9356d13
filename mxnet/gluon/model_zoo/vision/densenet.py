"""Densely connected networks (Huang et al., 2016): DenseNet-121/161/169/201."""
from __future__ import annotations

from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ...nn.contrib_layers import HybridConcurrent, Identity
from ..model_store import load_pretrained
from ....base import MXNetKeyError

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201"]


def _make_dense_layer(growth_rate, bn_size, dropout):
    """BN-ReLU-conv1x1 (``bn_size * growth_rate`` channels), BN-ReLU-conv3x3 (``growth_rate``),
    its output concatenated onto its input along the channel axis."""
    new_features = nn.HybridSequential(prefix="")
    new_features.add(nn.BatchNorm())
    new_features.add(nn.Activation("relu"))
    new_features.add(nn.Conv2D(bn_size * growth_rate, kernel_size=1, use_bias=False))
    new_features.add(nn.BatchNorm())
    new_features.add(nn.Activation("relu"))
    new_features.add(nn.Conv2D(growth_rate, kernel_size=3, padding=1, use_bias=False))
    if dropout:
        new_features.add(nn.Dropout(dropout))
    layer = HybridConcurrent(axis=1, prefix="")
    layer.add(Identity())
    layer.add(new_features)
    return layer


def _make_dense_block(num_layers, bn_size, growth_rate, dropout, stage_index):
    block = nn.HybridSequential(prefix=f"stage{stage_index}_")
    with block.name_scope():
        for _ in range(num_layers):
            block.add(_make_dense_layer(growth_rate, bn_size, dropout))
    return block


def _make_transition(num_output_features):
    """BN-ReLU-conv1x1 to ``num_output_features`` channels, then a 2x2 average pool."""
    trans = nn.HybridSequential(prefix="")
    trans.add(nn.BatchNorm())
    trans.add(nn.Activation("relu"))
    trans.add(nn.Conv2D(num_output_features, kernel_size=1, use_bias=False))
    trans.add(nn.AvgPool2D(pool_size=2, strides=2))
    return trans


class DenseNet(HybridBlock):
    """DenseNet: a 7x7/2 conv stem with max pooling, dense blocks of ``block_config[i]`` layers
    (each adding ``growth_rate`` channels) joined by transitions that halve channels and size,
    then BN-ReLU, a 7x7 average pool, Flatten and the ``classes``-way ``output``.

    The final 7x7 pool fixes the input size at 224x224.
    """

    def __init__(self, num_init_features, growth_rate, block_config, bn_size=4, dropout=0,
                 classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            self.features.add(nn.Conv2D(num_init_features, kernel_size=7, strides=2, padding=3,
                                        use_bias=False))
            self.features.add(nn.BatchNorm())
            self.features.add(nn.Activation("relu"))
            self.features.add(nn.MaxPool2D(pool_size=3, strides=2, padding=1))
            num_features = num_init_features
            for i, num_layers in enumerate(block_config):
                self.features.add(_make_dense_block(num_layers, bn_size, growth_rate, dropout,
                                                    i + 1))
                num_features += num_layers * growth_rate
                if i != len(block_config) - 1:
                    num_features //= 2
                    self.features.add(_make_transition(num_features))
            self.features.add(nn.BatchNorm())
            self.features.add(nn.Activation("relu"))
            self.features.add(nn.AvgPool2D(pool_size=7))
            self.features.add(nn.Flatten())
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


# depth -> (initial features, growth rate, layers per dense block)
densenet_spec = {
    121: (64, 32, [6, 12, 24, 16]),
    161: (96, 48, [6, 12, 36, 24]),
    169: (64, 32, [6, 12, 32, 32]),
    201: (64, 32, [6, 12, 48, 32]),
}


def get_densenet(num_layers, pretrained=False, ctx=cpu(), root=None, **kwargs):
    """DenseNet with ``num_layers`` (121, 161, 169 or 201) layers."""
    if num_layers not in densenet_spec:
        raise MXNetKeyError(f"Invalid number of layers: {num_layers}. Options are "
                            f"{sorted(densenet_spec)}")
    num_init_features, growth_rate, block_config = densenet_spec[num_layers]
    net = DenseNet(num_init_features, growth_rate, block_config, **kwargs)
    if pretrained:
        load_pretrained(net, f"densenet{num_layers}", ctx, root)
    return net


def densenet121(**kwargs):
    """DenseNet-121."""
    return get_densenet(121, **kwargs)


def densenet161(**kwargs):
    """DenseNet-161."""
    return get_densenet(161, **kwargs)


def densenet169(**kwargs):
    """DenseNet-169."""
    return get_densenet(169, **kwargs)


def densenet201(**kwargs):
    """DenseNet-201."""
    return get_densenet(201, **kwargs)
