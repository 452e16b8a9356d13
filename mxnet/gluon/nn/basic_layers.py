"""Basic layers: containers, Dense, Dropout, normalisation, Embedding, Flatten, lambdas."""
from __future__ import annotations

import warnings

import numpy as np

from ... import ndarray as _nd
from ... import symbol as _sym
from ... import util as _util
from ..block import Block, HybridBlock
from ._common import children_repr
from .activations import Activation

__all__ = ["Sequential", "HybridSequential", "Dense", "Dropout", "Embedding", "BatchNorm",
           "BatchNormReLU", "InstanceNorm", "LayerNorm", "GroupNorm", "Flatten", "Lambda",
           "HybridLambda"]


class _SequenceMixin:
    """``add``, indexing (a slice gives a new container sharing the blocks), ``len`` and repr."""

    def add(self, *blocks):
        """Append blocks; they run in the order added."""
        for block in blocks:
            self.register_child(block)

    def __getitem__(self, key):
        layers = list(self._children.values())[key]
        if not isinstance(layers, list):
            return layers
        net = type(self)(prefix=self._prefix)
        with net.name_scope():
            net.add(*layers)
        return net

    def __len__(self):
        return len(self._children)

    def __repr__(self):
        return children_repr(self, self._children.items())


class Sequential(_SequenceMixin, Block):
    """Run child blocks one after another (imperatively)."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def forward(self, x):
        for block in self._children.values():
            x = block(x)
        return x

    def hybridize(self, active=True, **kwargs):
        if self._children and all(isinstance(c, HybridBlock) for c in self._children.values()):
            warnings.warn(f"All children of this Sequential layer '{self.prefix}' are HybridBlocks. "
                          "Consider using HybridSequential for the best performance.", stacklevel=2)
        super().hybridize(active, **kwargs)


class HybridSequential(_SequenceMixin, HybridBlock):
    """Run hybridizable child blocks one after another; the chain traces to one graph."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x):
        for block in self._children.values():
            x = block(x)
        return x


class Dense(HybridBlock):
    """A fully connected layer: ``activation(dot(x, weight.T) + bias)``.

    ``weight`` has shape ``(units, in_units)``; ``in_units=0`` is inferred at the first forward.
    With ``flatten=True`` the input is flattened to 2-D first, else the layer acts on the last
    axis.
    """

    def __init__(self, units, activation=None, use_bias=True, flatten=True, dtype="float32",
                 weight_initializer=None, bias_initializer="zeros", in_units=0, **kwargs):
        super().__init__(**kwargs)
        self._flatten = flatten
        with self.name_scope():
            self._units = units
            self._in_units = in_units
            self.weight = self.params.get("weight", shape=(units, in_units), init=weight_initializer,
                                          dtype=dtype, allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get("bias", shape=(units,), init=bias_initializer,
                                            dtype=dtype, allow_deferred_init=True)
            else:
                self.bias = None
            self.act = Activation(activation, prefix=activation + "_") if activation is not None \
                else None

    def hybrid_forward(self, F, x, weight, bias=None):
        out = F.FullyConnected(x, weight, bias, no_bias=bias is None, num_hidden=self._units,
                               flatten=self._flatten, name="fwd")
        if self.act is not None:
            out = self.act(out)
        return out

    def __repr__(self):
        shape = self.weight.shape
        act = self.act if self.act is not None else "linear"
        return f"{self.__class__.__name__}({shape[1] if shape[1] else None} -> {shape[0]}, {act})"


class Dropout(HybridBlock):
    """Zero each element with probability ``rate`` while training (scaling the rest by
    ``1 / (1 - rate)``); ``axes`` share one mask along those axes."""

    def __init__(self, rate, axes=(), **kwargs):
        super().__init__(**kwargs)
        self._rate = rate
        self._axes = axes

    def hybrid_forward(self, F, x):
        if self._rate > 0:
            return F.Dropout(x, p=self._rate, axes=self._axes, name="fwd", cudnn_off=False)
        if _util.is_np_array():   # 1.9.1 copies with np.copy here (``_np_copy`` in a graph)
            return F.np.copy(x)
        return F.identity(x)

    def __repr__(self):
        return f"{self.__class__.__name__}(p = {self._rate}, axes={self._axes})"


class _BatchNorm(HybridBlock):
    """Batch normalisation over all axes but ``axis``, with running statistics as
    parameters (``running_mean``/``running_var``, grad_req ``null``) updated while training."""

    fuse_relu = False   # BatchNormReLU applies ReLU to the normalised output

    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True,
                 use_global_stats=False, beta_initializer="zeros", gamma_initializer="ones",
                 running_mean_initializer="zeros", running_variance_initializer="ones",
                 in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"axis": axis, "eps": epsilon, "momentum": momentum,
                        "fix_gamma": not scale, "use_global_stats": use_global_stats}
        if in_channels != 0:
            self.in_channels = in_channels
        shape = (in_channels,)
        self.gamma = self.params.get("gamma", grad_req="write" if scale else "null", shape=shape,
                                     init=gamma_initializer, allow_deferred_init=True,
                                     differentiable=scale)
        self.beta = self.params.get("beta", grad_req="write" if center else "null", shape=shape,
                                    init=beta_initializer, allow_deferred_init=True,
                                    differentiable=center)
        self.running_mean = self.params.get("running_mean", grad_req="null", shape=shape,
                                            init=running_mean_initializer,
                                            allow_deferred_init=True, differentiable=False)
        self.running_var = self.params.get("running_var", grad_req="null", shape=shape,
                                           init=running_variance_initializer,
                                           allow_deferred_init=True, differentiable=False)

    def cast(self, dtype):
        # the statistics of a half-precision network stay in float32
        if np.dtype(dtype).name == "float16":
            dtype = "float32"
        super().cast(dtype)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        op = F.contrib.BatchNormWithReLU if self.fuse_relu else F.BatchNorm
        return op(x, gamma, beta, running_mean, running_var, name="fwd", **self._kwargs)

    def __repr__(self):
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        in_channels = self.gamma.shape[0]
        return f"{self.__class__.__name__}({content}, in_channels={in_channels or None})"


class BatchNorm(_BatchNorm):
    """Batch normalisation (see ``_BatchNorm``); ``scale=False`` fixes gamma at 1."""


class BatchNormReLU(_BatchNorm):
    """Batch normalisation followed by ReLU."""

    fuse_relu = True


class Embedding(HybridBlock):
    """Map integer indices to rows of a ``(input_dim, output_dim)`` weight."""

    def __init__(self, input_dim, output_dim, dtype="float32", weight_initializer=None,
                 sparse_grad=False, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype,
                        "sparse_grad": sparse_grad}
        self.weight = self.params.get("weight", shape=(input_dim, output_dim),
                                      init=weight_initializer, dtype=dtype,
                                      allow_deferred_init=True,
                                      grad_stype="row_sparse" if sparse_grad else "default")

    def hybrid_forward(self, F, x, weight):
        return F.Embedding(x, weight, name="fwd", **self._kwargs)

    def __repr__(self):
        k = self._kwargs
        return f"{self.__class__.__name__}({k['input_dim']} -> {k['output_dim']}, {k['dtype']})"


class Flatten(HybridBlock):
    """Reshape ``(N, d1, d2, ...)`` to ``(N, d1 * d2 * ...)``."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def hybrid_forward(self, F, x):
        if _util.is_np_array():   # the node is named batch_flatten<N>, as in 1.9.1
            return F.npx.batch_flatten(x)
        return F.flatten(x)

    def __repr__(self):
        return self.__class__.__name__


def _norm_repr(block):
    content = ", ".join(f"{k}={v!r}" for k, v in block._kwargs.items())
    return f"{block.__class__.__name__}({content}, in_channels={block.gamma.shape[0]})"


def _scale_shift_params(block, size, center, scale, beta_initializer, gamma_initializer):
    """The gamma and beta parameters (``size`` entries; deferred while 0) of a normalisation
    block, trained only when ``scale`` / ``center`` are on."""
    block.gamma = block.params.get("gamma", grad_req="write" if scale else "null",
                                   shape=(size,), init=gamma_initializer,
                                   allow_deferred_init=True)
    block.beta = block.params.get("beta", grad_req="write" if center else "null",
                                  shape=(size,), init=beta_initializer, allow_deferred_init=True)


class InstanceNorm(HybridBlock):
    """Normalise each sample and channel over the remaining axes (``scale`` is off by
    default, so gamma stays 1 and is not trained)."""

    def __init__(self, axis=1, epsilon=1e-5, center=True, scale=False, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        _scale_shift_params(self, in_channels, center, scale, beta_initializer, gamma_initializer)

    def hybrid_forward(self, F, x, gamma, beta):
        if self._axis == 1:
            return F.InstanceNorm(x, gamma, beta, name="fwd", eps=self._epsilon)
        x = F.swapaxes(x, 1, self._axis)
        out = F.InstanceNorm(x, gamma, beta, name="fwd", eps=self._epsilon)
        return F.swapaxes(out, 1, self._axis)

    def __repr__(self):
        return _norm_repr(self)


class LayerNorm(HybridBlock):
    """Normalise over ``axis`` (the last by default), then scale by gamma and shift by beta."""

    def __init__(self, axis=-1, epsilon=1e-5, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", in_channels=0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        self._center = center
        self._scale = scale
        _scale_shift_params(self, in_channels, center, scale, beta_initializer, gamma_initializer)

    def hybrid_forward(self, F, data, gamma, beta):
        layer_norm = F.npx.layer_norm if _util.is_np_array() else F.LayerNorm  # node names
        return layer_norm(data, gamma=gamma, beta=beta, axis=self._axis, eps=self._epsilon)

    def __repr__(self):
        return _norm_repr(self)


class GroupNorm(HybridBlock):
    """Split the channels (axis 1) into ``num_groups`` groups and normalise each group of each
    sample; gamma and beta have one entry per group."""

    def __init__(self, num_groups=1, epsilon=1e-5, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._kwargs = {"eps": epsilon, "num_groups": num_groups, "center": center,
                        "scale": scale}
        self._num_groups = num_groups
        self._epsilon = epsilon
        self._center = center
        self._scale = scale
        _scale_shift_params(self, num_groups, center, scale, beta_initializer, gamma_initializer)

    def hybrid_forward(self, F, data, gamma, beta):
        return F.GroupNorm(data, gamma=gamma, beta=beta, num_groups=self._num_groups,
                           eps=self._epsilon)

    def __repr__(self):
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{self.__class__.__name__}({content})"


class Lambda(Block):
    """Wrap a function (or the name of an ``mx.nd`` function) as a block."""

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        if isinstance(function, str):
            if not hasattr(_nd, function):
                raise AssertionError(f"Function name {function} is not found in ndarray.")
            self._func_impl = getattr(_nd, function)
        elif callable(function):
            self._func_impl = function
        else:
            raise ValueError(f"Unrecognized function in lambda: {function} of type "
                             f"{type(function)}")

    def forward(self, *args):
        return self._func_impl(*args)

    def __repr__(self):
        return f"{self.__class__.__name__}({self._func_impl.__name__})"


class HybridLambda(HybridBlock):
    """Wrap ``function(F, x, *args)`` (or the name of a function in both ``mx.nd`` and
    ``mx.sym``) as a hybridizable block."""

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        if isinstance(function, str):
            if not (hasattr(_nd, function) and hasattr(_sym, function)):
                raise AssertionError(f"Function name {function} is not found in symbol/ndarray.")
            impls = {_sym: getattr(_sym, function), _nd: getattr(_nd, function)}
            self._func = lambda F, *args: impls[F](*args)
            self._func_name = function
        elif callable(function):
            self._func = function
            self._func_name = function.__name__
        else:
            raise ValueError(f"Unrecognized function in lambda: {function} of type "
                             f"{type(function)}")

    def hybrid_forward(self, F, x, *args):
        return self._func(F, x, *args)

    def __repr__(self):
        return f"{self.__class__.__name__}({self._func_name})"
