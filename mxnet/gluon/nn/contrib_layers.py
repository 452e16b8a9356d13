"""Layers 1.9.1 keeps in ``gluon.contrib.nn``: Concurrent, HybridConcurrent, Identity,
SparseEmbedding, SyncBatchNorm and PixelShuffle1D/2D/3D. They are exposed there
(``mxnet/gluon/contrib/nn.py``); ``gluon.nn`` itself does not export them, as in 1.9.1."""
from __future__ import annotations

import warnings

from ... import ndarray as _nd
from ..block import Block, HybridBlock
from ._common import children_repr
from .basic_layers import BatchNorm, HybridSequential, Sequential

__all__ = ["Concurrent", "HybridConcurrent", "Identity", "SparseEmbedding", "SyncBatchNorm",
           "PixelShuffle1D", "PixelShuffle2D", "PixelShuffle3D"]


class Concurrent(Sequential):
    """Feed the same input to every child and concatenate their outputs along ``axis``."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def forward(self, x):
        return _nd.concat(*[block(x) for block in self._children.values()], dim=self.axis)


class HybridConcurrent(HybridSequential):
    """The hybridizable Concurrent."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        return F.concat(*[block(x) for block in self._children.values()], dim=self.axis)


class Identity(HybridBlock):
    """Return the input unchanged (handy as a branch of HybridConcurrent)."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x):
        return x

    def __repr__(self):
        return children_repr(self)


def _num_gpus():
    from ... import context
    count = getattr(context, "num_gpus", None)
    return count() if count is not None else 0


class SparseEmbedding(Block):
    """An embedding whose weight is declared row_sparse and whose gradient is a
    RowSparseNDArray holding only the looked-up rows, so that a Trainer updates just those
    rows. Not hybridizable (a plain Block), as in 1.9.1. The weight is held densely here;
    its gradient and the lazy optimizer updates are row-sparse."""

    def __init__(self, input_dim, output_dim, dtype="float32", weight_initializer=None, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype,
                        "sparse_grad": True}
        self.weight = self.params.get("weight", shape=(input_dim, output_dim),
                                      init=weight_initializer, dtype=dtype,
                                      grad_stype="row_sparse", stype="row_sparse")

    def forward(self, x):
        return _nd.Embedding(x, self.weight.row_sparse_data(x), name="fwd", **self._kwargs)

    def __repr__(self):
        k = self._kwargs
        return f"{self.__class__.__name__}({k['input_dim']} -> {k['output_dim']}, {k['dtype']})"


class SyncBatchNorm(BatchNorm):
    """Batch normalisation whose statistics are meant to be shared by ``num_devices`` devices.

    On one machine without cross-device synchronisation it computes the statistics of the
    batch it receives (what 1.9.1 does with ``num_devices=1``). Only NCHW-style input
    (channel axis 1) is supported.
    """

    def __init__(self, in_channels=0, num_devices=None, momentum=0.9, epsilon=1e-5, center=True,
                 scale=True, use_global_stats=False, beta_initializer="zeros",
                 gamma_initializer="ones", running_mean_initializer="zeros",
                 running_variance_initializer="ones", **kwargs):
        super().__init__(axis=1, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                         use_global_stats=use_global_stats, beta_initializer=beta_initializer,
                         gamma_initializer=gamma_initializer,
                         running_mean_initializer=running_mean_initializer,
                         running_variance_initializer=running_variance_initializer,
                         in_channels=in_channels, **kwargs)
        if num_devices is None:
            num_devices = self._get_num_devices()
        self._kwargs = {"eps": epsilon, "momentum": momentum, "fix_gamma": not scale,
                        "use_global_stats": use_global_stats, "ndev": num_devices,
                        "key": self.prefix}

    def _get_num_devices(self):
        warnings.warn("Caution using SyncBatchNorm: if not using all the GPUs, please mannually "
                      "set num_devices", UserWarning, stacklevel=1)
        return max(_num_gpus(), 1)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.contrib.SyncBatchNorm(x, gamma, beta, running_mean, running_var, name="fwd",
                                       **self._kwargs)


class PixelShuffle1D(HybridBlock):
    """Move channel blocks into the width: ``(N, f*C, W)`` -> ``(N, C, W*f)``."""

    def __init__(self, factor):
        super().__init__()
        self._factor = int(factor)

    def hybrid_forward(self, F, x):
        f = self._factor
        x = F.reshape(x, (0, -4, -1, f, 0))       # (N, C, f, W)
        x = F.transpose(x, (0, 1, 3, 2))          # (N, C, W, f)
        return F.reshape(x, (0, 0, -3))           # (N, C, W*f)

    def __repr__(self):
        return f"{self.__class__.__name__}({self._factor})"


def _factors(factor, n):
    try:
        return (int(factor),) * n
    except TypeError:
        factors = tuple(int(f) for f in factor)
        if len(factors) != n:
            raise AssertionError(f"wrong length {len(factors)}") from None
        return factors


class PixelShuffle2D(HybridBlock):
    """``(N, f1*f2*C, H, W)`` -> ``(N, C, H*f1, W*f2)``."""

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 2)

    def hybrid_forward(self, F, x):
        f1, f2 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2, 0, 0))   # (N, C, f1*f2, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2, 0, 0))     # (N, C, f1, f2, H, W)
        x = F.transpose(x, (0, 1, 4, 2, 5, 3))         # (N, C, H, f1, W, f2)
        return F.reshape(x, (0, 0, -3, -3))            # (N, C, H*f1, W*f2)

    def __repr__(self):
        return f"{self.__class__.__name__}({self._factors})"


class PixelShuffle3D(HybridBlock):
    """``(N, f1*f2*f3*C, D, H, W)`` -> ``(N, C, D*f1, H*f2, W*f3)``."""

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 3)

    def hybrid_forward(self, F, x):
        # one factor at a time, with axis swaps: the node sequence (and so the exported
        # graph and its node names) of 1.9.1
        f1, f2, f3 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2 * f3, 0, 0, 0))   # (N, C, f1*f2*f3, D, H, W)
        x = F.swapaxes(x, 2, 3)                                # (N, C, D, f1*f2*f3, H, W)
        x = F.reshape(x, (0, 0, 0, -4, f1, f2 * f3, 0, 0))     # (N, C, D, f1, f2*f3, H, W)
        x = F.reshape(x, (0, 0, -3, 0, 0, 0))                  # (N, C, D*f1, f2*f3, H, W)
        x = F.swapaxes(x, 3, 4)                                # (N, C, D*f1, H, f2*f3, W)
        x = F.reshape(x, (0, 0, 0, 0, -4, f2, f3, 0))          # (N, C, D*f1, H, f2, f3, W)
        x = F.reshape(x, (0, 0, 0, -3, 0, 0))                  # (N, C, D*f1, H*f2, f3, W)
        x = F.swapaxes(x, 4, 5)                                # (N, C, D*f1, H*f2, W, f3)
        return F.reshape(x, (0, 0, 0, 0, -3))                  # (N, C, D*f1, H*f2, W*f3)

    def __repr__(self):
        return f"{self.__class__.__name__}({self._factors})"
