"""AlexNet (Krizhevsky et al., 2012), in the single-tower form used by 1.9.1's model zoo."""
from __future__ import annotations

from ....context import cpu
from ...block import HybridBlock
from ... import nn
from ..model_store import load_pretrained

__all__ = ["AlexNet", "alexnet"]


class AlexNet(HybridBlock):
    """Five convolutions (with three max pools) then two 4096-wide dense layers with dropout.

    ``features`` holds everything up to the last dropout; ``output`` is the ``classes``-way
    classifier. Expects 224x224 inputs.
    """

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = nn.HybridSequential(prefix="")
            with self.features.name_scope():
                conv_specs = [(64, 11, 4, 2, True), (192, 5, 1, 2, True), (384, 3, 1, 1, False),
                              (256, 3, 1, 1, False), (256, 3, 1, 1, True)]
                for channels, kernel, stride, pad, pool in conv_specs:
                    self.features.add(nn.Conv2D(channels, kernel_size=kernel, strides=stride,
                                                padding=pad, activation="relu"))
                    if pool:
                        self.features.add(nn.MaxPool2D(pool_size=3, strides=2))
                self.features.add(nn.Flatten())
                for _ in range(2):
                    self.features.add(nn.Dense(4096, activation="relu"))
                    self.features.add(nn.Dropout(0.5))
            self.output = nn.Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def alexnet(pretrained=False, ctx=cpu(), root=None, **kwargs):
    """AlexNet; ``pretrained=True`` loads ``root/alexnet-<hash>.params``."""
    net = AlexNet(**kwargs)
    if pretrained:
        load_pretrained(net, "alexnet", ctx, root)
    return net
