"""``mx.init``: fill parameter arrays with their starting values.

An initializer is called as ``init(desc, arr)``: ``desc`` names the parameter and ``arr`` is
the NDArray to fill, in place. The base class picks what to do from the end of the name
(``..._weight`` gets the initializer's own rule, ``..._bias`` zeros, ``..._gamma`` ones ...),
and a variable that carries its own ``__init__`` attribute (the JSON string that
:meth:`Initializer.dumps` writes) is filled by that initializer instead.

>>> import mxnet as mx
>>> w = mx.nd.zeros((2, 3))
>>> mx.init.Constant(0.5)(mx.init.InitDesc('fc_weight'), w)
>>> w.asnumpy().tolist()
[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]
>>> mx.init.Xavier().dumps()
'["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 3}]'
"""
from __future__ import annotations

import json
import logging
import re
import warnings

import numpy as np

from . import ndarray as nd
from . import registry as _reg
from .base import MXNetError
from .ndarray import NDArray

__all__ = ["InitDesc", "Initializer", "register", "alias", "create", "Load", "Mixed", "Zero",
           "One", "Constant", "Uniform", "Normal", "Orthogonal", "Xavier", "MSRAPrelu",
           "Bilinear", "LSTMBias", "FusedRNN"]


class InitDesc(str):
    """A parameter name that also carries the variable's attributes and the global initializer.

    ``attrs`` holds the variable's attributes (``__init__`` among them when the variable
    asked for its own initializer); ``global_init`` is the initializer that was called for
    the whole model, which composite initializers such as :class:`FusedRNN` fall back on.
    """

    def __new__(cls, name, attrs=None, global_init=None):
        desc = super().__new__(cls, name)
        desc.attrs = attrs or {}
        desc.global_init = global_init
        return desc


# --------------------------------------------------------------------------------------------
# registry: lower-cased class names (and aliases) -> classes
# --------------------------------------------------------------------------------------------
_REG = _reg.Registry(object, "initializer")  # base class set once Initializer exists


def register(klass, name=None):
    """Register a :class:`Initializer` subclass under its lower-cased class name (usable as a
    class decorator)."""
    return _REG.register(klass, name)


def alias(*aliases):
    """A class decorator registering the class under extra names as well."""
    return _REG.alias(*aliases)


def create(*args, **kwargs):
    """Make an initializer from a registered name and arguments, from the JSON string that
    :meth:`Initializer.dumps` writes, or from a dict; an initializer is returned as it is.

    >>> create('xavier', magnitude=2).dumps()
    '["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 2}]'
    >>> create('["constant", {"value": 1.5}]').value
    1.5
    """
    return _REG.create(*args, **kwargs)


# --------------------------------------------------------------------------------------------
# the base class
# --------------------------------------------------------------------------------------------
# InitDesc names: the first matching suffix picks the method (the label goes to the log)
_DESC_SUFFIXES = (
    ("weight", "_init_weight"),
    ("bias", "_init_bias"),
    ("gamma", "_init_gamma"),
    ("beta", "_init_beta"),
    ("min", "_init_zero"),
    ("max", "_init_one"),
    ("weight_quantize", "_init_quantized_weight"),
    ("bias_quantize", "_init_quantized_bias"),
)

# plain-string names (the deprecated call form): the first matching rule wins
_LEGACY_RULES = (
    (lambda n: n.startswith("upsampling"), "_init_bilinear"),
    (lambda n: n.startswith("stn_loc") and n.endswith("weight"), "_init_zero"),
    (lambda n: n.startswith("stn_loc") and n.endswith("bias"), "_init_loc_bias"),
    (lambda n: n.endswith("bias"), "_init_bias"),
    (lambda n: n.endswith("gamma"), "_init_gamma"),
    (lambda n: n.endswith("beta"), "_init_beta"),
    (lambda n: n.endswith("weight"), "_init_weight"),
    (lambda n: n.endswith("moving_mean"), "_init_zero"),
    (lambda n: n.endswith("moving_var"), "_init_one"),
    (lambda n: n.endswith("moving_inv_var"), "_init_zero"),
    (lambda n: n.endswith("moving_avg"), "_init_zero"),
    (lambda n: n.endswith("min"), "_init_zero"),
    (lambda n: n.endswith("max"), "_init_one"),
)


class _BilinearShapeError(MXNetError, IndexError):
    """A weight too small for a bilinear kernel (1.9.1 fails there with an IndexError)."""


def _bilinear_weights(shape):
    """The bilinear-upsampling kernel for a (num_filter, channels, H, W) weight, as float32.

    Like 1.9.1, the kernel is laid over the flattened array with period ``shape[3]`` along x
    and ``shape[2]`` along y, which for 4-d weights is the (H, W) kernel in every channel."""
    shape = tuple(shape)
    if len(shape) < 4:
        raise _BilinearShapeError(f"Bilinear: the weight has shape {shape}; expected a 4-d "
                                  "(num_filter, channels, height, width) weight")
    f = np.ceil(shape[3] / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    x = (i % shape[3]).astype(np.float64)
    y = ((i // shape[3]) % shape[2]).astype(np.float64)
    kernel = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
    return kernel.astype(np.float32).reshape(shape)


def _norm_stat(arr):
    """Default verbose statistic: the root mean square of the array, as a string."""
    return str((nd.norm(arr) / np.sqrt(arr.size)).asscalar())


class Initializer:
    """Base class of the initializers: dispatches on the parameter name.

    Subclasses implement :meth:`_init_weight`; the keyword arguments given to ``__init__``
    are what :meth:`dumps` records (and what makes two initializers equal).
    """

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        """Log every initialized parameter with ``print_func(arr)`` (by default the root mean
        square of its values). Returns ``self``."""
        self._verbose = verbose
        self._print_func = print_func if print_func is not None else _norm_stat
        return self

    def _verbose_print(self, desc, init, arr):
        if self._verbose and self._print_func:
            logging.info("Initialized %s as %s: %s", desc, init, self._print_func(arr))

    def dumps(self):
        """The initializer as a JSON string ``["<lower-cased class name>", {kwargs}]``, the
        form that variables carry in their ``__init__`` attribute."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, desc, arr):
        """Fill ``arr`` (an NDArray, in place) for the parameter described by ``desc``."""
        if not isinstance(desc, InitDesc):
            self._legacy_init(desc, arr)
            return
        if desc.global_init is None:
            desc.global_init = self
        init = desc.attrs.get("__init__", "")
        if init:
            create(init)._init_weight(desc, arr)
            self._verbose_print(desc, init, arr)
            return
        for suffix, method in _DESC_SUFFIXES:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                self._verbose_print(desc, suffix, arr)
                return
        self._init_default(desc, arr)

    def _legacy_init(self, name, arr):
        """The deprecated ``init(name_string, arr)`` form, with its wider set of name rules."""
        warnings.warn("Calling initializer with init(str, NDArray) has been deprecated. "
                      "please use init(mx.init.InitDesc(...), NDArray) instead.",
                      DeprecationWarning, stacklevel=3)
        if not isinstance(name, str):
            raise TypeError("name must be string")
        if not isinstance(arr, NDArray):
            raise TypeError("arr must be NDArray")
        for matches, method in _LEGACY_RULES:
            if matches(name):
                getattr(self, method)(name, arr)
                return
        self._init_default(name, arr)

    # -- the fixed rules ---------------------------------------------------------------------
    def _init_bilinear(self, _, arr):
        arr[:] = _bilinear_weights(arr.shape)

    def _init_loc_bias(self, _, arr):
        if arr.shape[0] != 6:
            raise AssertionError(f"the stn_loc bias must have 6 elements, got shape {arr.shape}")
        arr[:] = np.array([1.0, 0, 0, 0, 1.0, 0])

    def _init_zero(self, _, arr):
        arr[:] = 0.0

    def _init_one(self, _, arr):
        arr[:] = 1.0

    def _init_bias(self, _, arr):
        arr[:] = 0.0

    def _init_quantized_bias(self, _, arr):
        arr[:] = 0

    def _init_gamma(self, _, arr):
        arr[:] = 1.0

    def _init_beta(self, _, arr):
        arr[:] = 0.0

    def _init_quantized_weight(self, _, arr):
        # as in 1.9.1: ONE random int8 value in [-127, 127) fills the whole array
        value = nd.random.randint(-127, 127, shape=(1,), dtype="int32").asnumpy()[0]
        arr[:] = np.int8(value)

    def _init_weight(self, name, arr):
        """Fill a weight; every concrete initializer defines this."""
        raise NotImplementedError("Must override it")

    def _init_default(self, name, _):
        raise ValueError(
            f"Unknown initialization pattern for {name}. Default initialization is now limited "
            'to "weight", "bias", "gamma" (1.0), and "beta" (0.0).Please use '
            "mx.sym.Variable(init=mx.init.*) to set initialization pattern")

    def __eq__(self, other):
        if not isinstance(other, Initializer):
            return NotImplemented
        return type(self) is type(other) and self._kwargs == other._kwargs

    __hash__ = None  # equal by value and mutable, so unhashable (as in 1.9.1)

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._kwargs.items())})"


# --------------------------------------------------------------------------------------------
# composite helpers (not registered: they are not serialisable)
# --------------------------------------------------------------------------------------------

_REG.base = Initializer

class Load:
    """Fill parameters from saved arrays (a dict of NDArrays or a ``.params`` file name).

    ``arg:`` / ``aux:`` prefixes of the saved names are dropped. Parameters not found are
    given to ``default_init``.
    """

    def __init__(self, param, default_init=None, verbose=False):
        if isinstance(param, str):
            param = nd.load(param)
        if not isinstance(param, dict):
            raise AssertionError("Load needs a dict of name -> NDArray (or a file of one)")
        self.param = {}
        for name, arr in param.items():
            key = name[4:] if name.startswith(("arg:", "aux:")) else name
            self.param[key] = arr
        self.default_init = default_init
        self.verbose = verbose

    def __call__(self, name, arr):
        if name in self.param:
            src = self.param[name]
            if tuple(arr.shape) != tuple(src.shape):
                raise AssertionError(
                    f"Parameter {name} cannot be initialized from loading. Shape mismatch, "
                    f"target {arr.shape} vs loaded {src.shape}")
            arr[:] = src
            if self.verbose:
                logging.info("Initialized %s by loading", name)
            return
        if self.default_init is None:
            raise AssertionError(f"Cannot Initialize {name}. Not found in loaded param and no "
                                 "default Initializer is provided.")
        self.default_init(name, arr)
        if self.verbose:
            logging.info("Initialized %s by default", name)


class Mixed:
    """Pick the initializer by the first regular expression that matches the start of the
    parameter name (``re.match``); end the list with ``'.*'`` for a default."""

    def __init__(self, patterns, initializers):
        if len(patterns) != len(initializers):
            raise AssertionError("Mixed needs as many patterns as initializers")
        self.map = list(zip([re.compile(p) for p in patterns], initializers))

    def __call__(self, name, arr):
        for prog, init in self.map:
            if prog.match(name):
                init(name, arr)
                return
        raise ValueError(f"Parameter name {name} did not match any pattern. Consider adding a "
                         '".*" pattern at the end with a default Initializer.')


# --------------------------------------------------------------------------------------------
# the initializers
# --------------------------------------------------------------------------------------------
@register
@alias("zeros")
class Zero(Initializer):
    """Weights are 0."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        arr[:] = 0


@register
@alias("ones")
class One(Initializer):
    """Weights are 1."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        arr[:] = 1


@register
class Constant(Initializer):
    """Weights are ``value``: a number, or an array broadcast to the weight's shape."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _init_weight(self, _, arr):
        arr[:] = self.value

    def dumps(self):
        val = self._kwargs["value"]
        # a list is what an earlier call left (a Parameter's var() may dump its init again)
        if not np.isscalar(val) and not isinstance(val, list):
            val = val.tolist() if isinstance(val, np.ndarray) else val.asnumpy().tolist()
            self._kwargs["value"] = val
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])


def _random_fill(kind, a, b, arr):
    """Fill ``arr`` from U[a, b) or N(a, b²). As in 1.9.1, numpy mode (``npx.set_np``) draws
    with ``mx.np.random`` (its single-engine generator), otherwise with ``mx.nd.random``."""
    from .util import is_np_array
    if is_np_array():
        from .numpy import random as npr
        fn = npr.uniform if kind == "uniform" else npr.normal
        dt = np.dtype(arr.dtype)
        arr[:] = fn(a, b, size=arr.shape, dtype=dt if dt.kind == "f" else None, ctx=arr.context)
        return
    fn = nd.random.uniform if kind == "uniform" else nd.random.normal
    fn(a, b, arr.shape, out=arr)


@register
class Uniform(Initializer):
    """Weights drawn uniformly from ``[-scale, scale)``."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _, arr):
        _random_fill("uniform", -self.scale, self.scale, arr)


@register
class Normal(Initializer):
    """Weights drawn from N(0, sigma²)."""

    def __init__(self, sigma=0.01):
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _, arr):
        _random_fill("normal", 0, self.sigma, arr)


@register
class Orthogonal(Initializer):
    """A random orthogonal matrix (rows or columns orthonormal) times ``scale``; the weight is
    seen as (shape[0], prod(shape[1:])), and the random matrix that is orthogonalised is
    uniform on [-1, 1) or standard normal (``rand_type``)."""

    def __init__(self, scale=1.414, rand_type="uniform"):
        super().__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, _, arr):
        nout = arr.shape[0]
        nin = int(np.prod(arr.shape[1:]))
        if self.rand_type == "uniform":
            tmp = nd.random.uniform(-1.0, 1.0, shape=(nout, nin)).asnumpy()
        elif self.rand_type == "normal":
            tmp = nd.random.normal(0.0, 1.0, shape=(nout, nin)).asnumpy()
        else:
            raise ValueError(f"Orthogonal: unknown rand_type {self.rand_type!r}")
        u, _, v = np.linalg.svd(tmp, full_matrices=False)
        res = u if u.shape == tmp.shape else v
        arr[:] = self.scale * res.reshape(arr.shape)


@register
class Xavier(Initializer):
    """Random weights scaled by the fan: ``scale = sqrt(magnitude / factor)`` where factor is
    the fan in, the fan out or their mean (``factor_type`` 'in', 'out', 'avg'), fans counting
    the kernel's spatial size. ``rnd_type`` 'uniform' draws from [-scale, scale), 'gaussian'
    from N(0, scale²)."""

    def __init__(self, rnd_type="uniform", factor_type="avg", magnitude=3):
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _scale(self, name, shape):
        if len(shape) < 2:
            raise ValueError(f"Xavier initializer cannot be applied to vector {name}. It requires "
                             "at least 2D.")
        hw_scale = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
        fan_in, fan_out = shape[1] * hw_scale, shape[0] * hw_scale
        factors = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}
        if self.factor_type not in factors:
            raise ValueError("Incorrect factor type")
        return float(np.sqrt(self.magnitude / factors[self.factor_type]))

    def _init_weight(self, name, arr):
        scale = self._scale(name, arr.shape)
        if self.rnd_type == "uniform":
            _random_fill("uniform", -scale, scale, arr)
        elif self.rnd_type == "gaussian":
            _random_fill("normal", 0, scale, arr)
        else:
            raise ValueError("Unknown random type")


@register
class MSRAPrelu(Xavier):
    """He (MSRA) initialization for PReLU nets: gaussian Xavier with magnitude
    ``2 / (1 + slope²)``."""

    def __init__(self, factor_type="avg", slope=0.25):
        super().__init__("gaussian", factor_type, 2.0 / (1 + slope ** 2))
        self._kwargs = {"factor_type": factor_type, "slope": slope}


@register
class Bilinear(Initializer):
    """Bilinear-interpolation kernels (for the weights of upsampling deconvolutions)."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        arr[:] = _bilinear_weights(arr.shape)


@register
class LSTMBias(Initializer):
    """An LSTM's packed (4 * hidden) bias: zeros, except the forget gate (the second quarter,
    gate order i, f, c, o) which gets ``forget_bias``."""

    def __init__(self, forget_bias=1.0):
        super().__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name, arr):
        num_hidden = int(arr.shape[0] / 4)
        values = np.zeros(arr.shape, dtype=np.float64)
        values[num_hidden:2 * num_hidden] = self.forget_bias
        arr[:] = values


_RNN_GATES = {"rnn_relu": [""], "rnn_tanh": [""], "lstm": ["_i", "_f", "_c", "_o"],
              "gru": ["_r", "_z", "_o"]}


def _fused_rnn_layout(size, num_hidden, num_layers, mode, bidirectional):
    """The pieces of a fused RNN's flat parameter vector: [(name, offset, shape)].

    All weights come first -- per layer, per direction ('l', then 'r'), the i2h weight of
    every gate and then the h2h weight of every gate -- followed by all biases in the same
    order. Layer 0's i2h weights are (hidden, input); deeper layers read the concatenated
    directions, (hidden, directions * hidden).
    """
    gates = _RNN_GATES[mode]
    dirs = ["l", "r"] if bidirectional else ["l"]
    b, m, h = len(dirs), len(gates), num_hidden
    num_input = size // b // h // m - (num_layers - 1) * (h + b * h + 2) - h - 2
    pieces = []
    pos = 0
    for kind in ("weight", "bias"):
        for layer in range(num_layers):
            for d in dirs:
                for conn in ("i2h", "h2h"):
                    if kind == "bias":
                        shape = (h,)
                    elif conn == "h2h":
                        shape = (h, h)
                    else:
                        shape = (h, num_input if layer == 0 else b * h)
                    for g in gates:
                        pieces.append((f"{d}{layer}_{conn}{g}_{kind}", pos, shape))
                        pos += int(np.prod(shape))
    if pos != size or num_input <= 0:
        raise AssertionError("Invalid parameters size for FusedRNNCell")
    return pieces


@register
class FusedRNN(Initializer):
    """Initialize the flat parameter vector of a fused RNN layer piece by piece.

    Every per-gate weight and bias gets ``init`` (an initializer or its JSON string), or the
    global initializer when ``init`` is None, under names such as ``l0_i2h_i_weight``, so the
    name rules apply (biases become 0). With ``mode='lstm'`` both forget-gate biases
    (``_f_bias``) get ``forget_bias``.
    """

    def __init__(self, init, num_hidden, num_layers, mode, bidirectional=False,
                 forget_bias=1.0):
        if isinstance(init, str):
            # 1.9.1 looked the class up in the wrong table here (a KeyError); create() works
            init = create(init)
        super().__init__(init=init.dumps() if init is not None else None,
                         num_hidden=num_hidden, num_layers=num_layers, mode=mode,
                         bidirectional=bidirectional, forget_bias=forget_bias)
        self._init = init
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._forget_bias = forget_bias

    def _init_weight(self, desc, arr):
        pieces = _fused_rnn_layout(arr.size, self._num_hidden, self._num_layers, self._mode,
                                   self._bidirectional)
        flat = arr.asnumpy().reshape(-1)
        packed = np.zeros(flat.shape, dtype=flat.dtype)
        for name, pos, shape in pieces:
            n = int(np.prod(shape))
            piece = nd.array(flat[pos:pos + n].reshape(shape), ctx=arr.context, dtype=flat.dtype)
            piece_desc = InitDesc(name, global_init=desc.global_init)
            if self._mode == "lstm" and name.endswith("_f_bias"):
                piece[:] = self._forget_bias
            elif self._init is None:
                desc.global_init(piece_desc, piece)
            else:
                self._init(piece_desc, piece)
            packed[pos:pos + n] = piece.asnumpy().reshape(-1)
        arr[:] = packed.reshape(arr.shape)
