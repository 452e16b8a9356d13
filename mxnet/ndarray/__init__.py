"""``mx.nd``: imperative NDArray and one function per registered operator."""
from __future__ import annotations

import functools
import sys
import types

import numpy as _numpy

from .. import operator as _operator  # noqa: F401  (registers every operator)
from ..base import MXNetTypeError, dtype_np
from ..context import Context, current_context
from ..operator.init_ops import arange_values
from ..operator.registry import get_op
from . import indexing as _indexing  # noqa: F401  (registers the indexing ops)
from .ndarray import NDArray, _new, array, empty, from_dlpack, from_numpy, invoke, waitall  # noqa: F401
from .ndarray import _check_nd_dtype
from .register import build_namespaces

op, _public, _internal_fns, _subs = build_namespaces()
globals().update(_public)

_internal = types.ModuleType("mxnet.ndarray._internal", "Internal (underscore) operators.")
for _k, _v in _internal_fns.items():
    setattr(_internal, _k, _v)
sys.modules[_internal.__name__] = _internal
sys.modules[op.__name__] = op



def _late_op(name):
    """``mx.nd.op.X`` / ``mx.nd._internal.X`` for an operator registered after import (the
    lazily loaded NumPy-interface operators)."""
    from ..base import MXNetError
    from .register import make_function
    if not name.startswith("_np"):
        raise AttributeError(f"module 'mxnet.ndarray.op' has no attribute {name!r}")
    try:
        fn = make_function(get_op(name), name)
    except MXNetError:
        raise AttributeError(f"module 'mxnet.ndarray.op' has no attribute {name!r}") from None
    setattr(op, name, fn)
    setattr(_internal, name, fn)
    return fn


op.__getattr__ = _late_op
_internal.__getattr__ = _late_op

for _sub, _fns in _subs.items():
    if _sub in ("random", "sparse"):
        continue
    _m = types.ModuleType(f"mxnet.ndarray.{_sub}", f"mx.nd.{_sub} operators.")
    for _k, _v in _fns.items():
        setattr(_m, _k, _v)
    sys.modules[_m.__name__] = _m
    globals()[_sub] = _m


from .ufuncs import (  # noqa: E402,F401  (front ends that accept scalars too)
    add, divide, equal, greater, greater_equal, hypot, lesser, lesser_equal, logical_and,
    logical_or, logical_xor, maximum, minimum, modulo, multiply, not_equal, power, subtract,
    true_divide)


def _ctx(ctx):
    if isinstance(ctx, str) and ctx.endswith(")"):   # 'cpu(1)', as 1.9.1's creators accept
        kind, _, dev_id = ctx[:-1].partition("(")
        return Context(kind, int(dev_id or 0))
    return Context(ctx) if ctx is not None else current_context()


def _shape(shape, fn="zeros"):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    from ..util import is_np_shape
    if 0 in shape and not is_np_shape():  # legacy shapes read 0 as "unknown": creation fails
        from ..base import MXNetError
        raise MXNetError(f"{fn}: shape {shape} has a zero dimension, which MXNet 1.x reads as "
                         "unknown; create empty arrays with mx.nd.array(np.zeros(shape))")
    return shape


def zeros(shape, ctx=None, dtype=None, **kwargs):
    """An array of zeros (float32 unless ``dtype`` is given)."""
    dt = _check_nd_dtype(dtype_np(dtype), "zeros")
    return invoke(get_op("_zeros"), [], {"shape": _shape(shape), "ctx": "",
                                         "dtype": dt.name}, ctx=_ctx(ctx),
                  out=kwargs.get("out"))


def ones(shape, ctx=None, dtype=None, **kwargs):
    """An array of ones (float32 unless ``dtype`` is given)."""
    for key in kwargs:
        if key not in ("out", "name") and not key.startswith("__"):
            # 1.9.1's _ones has no other argument (no ``stype``); dunder attributes pass
            from ..base import MXNetError
            raise MXNetError(f"ones: Cannot find argument '{key}'; expected shape, ctx, dtype "
                             "or out")
    dt = _check_nd_dtype(dtype_np(dtype), "ones")
    return invoke(get_op("_ones"), [], {"shape": _shape(shape, "ones"), "ctx": "",
                                        "dtype": dt.name}, ctx=_ctx(ctx),
                  out=kwargs.get("out"))


def full(shape, val, ctx=None, dtype=_numpy.float32, out=None):
    """An array filled with ``val``."""
    if isinstance(val, (str, bytes)):
        raise MXNetTypeError(f"full: val must be a number, got {type(val).__name__} {val!r}")
    dt = _check_nd_dtype(dtype_np(dtype), "full")
    if out is not None:   # as 1.9.1: fill the given array whatever its shape and dtype
        out[:] = val
        return out
    if 0 in ((shape,) if isinstance(shape, int) else tuple(shape)):   # 1.9.1 allows these
        return empty(shape, ctx=ctx, dtype=dt)
    return invoke(get_op("_full"), [], {"shape": _shape(shape, "full"), "ctx": "",
                                        "value": float(val),
                                        "dtype": dt.name}, ctx=_ctx(ctx), out=out)


def arange(start, stop=None, step=1.0, repeat=1, infer_range=None, ctx=None,
           dtype=_numpy.float32):
    """Evenly spaced values in [start, stop), each repeated ``repeat`` times."""
    ctx = _ctx(ctx)
    dtype = "float64" if dtype is None else dtype  # as 1.9.1's np.dtype(None)
    from ..backend import get_backend
    vals = arange_values(float(start), None if stop is None else float(stop), float(step),
                         int(repeat), dtype_np(dtype), get_backend(ctx).xp)
    if vals.size == 0:
        from ..base import MXNetError
        raise MXNetError(f"arange: the range start={start}, stop={stop}, step={step} is empty")
    return _new(vals, ctx)


def eye(N, M=0, k=0, ctx=None, dtype=None, **kwargs):
    """A 2-D array with ones on the k-th diagonal."""
    return invoke(get_op("_eye"), [], {"N": int(N), "M": int(M), "k": int(k), "ctx": "",
                                       "dtype": dtype_np(dtype).name}, ctx=_ctx(ctx))


def linspace(start, stop, num, endpoint=True, ctx=None, dtype=_numpy.float32):
    """``num`` evenly spaced values from start to stop."""
    dtype = "float64" if dtype is None else dtype  # as 1.9.1's np.dtype(None)
    return invoke(get_op("_linspace"), [], {"start": float(start), "stop": float(stop),
                                            "num": int(num), "endpoint": bool(endpoint), "ctx": "",
                                            "dtype": dtype_np(dtype).name}, ctx=_ctx(ctx))


def concatenate(arrays, axis=0, always_copy=True):
    """Join arrays along an existing axis."""
    return globals()["concat"](*arrays, dim=axis)


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    """Split an array into pieces at the given indices, or into equal sections."""
    size = ary.shape[axis]
    if isinstance(indices_or_sections, int):
        if size % indices_or_sections:
            raise ValueError(f"split_v2: array split does not result in an equal division "
                             f"({size} into {indices_or_sections})")
        indices = [i * (size // indices_or_sections) for i in range(indices_or_sections)]
    elif isinstance(indices_or_sections, (list, tuple)):
        indices = [0] + list(indices_or_sections)
    else:
        raise ValueError("split_v2: indices_or_sections must be an int or a tuple of ints")
    return _internal._split_v2(ary, indices=tuple(indices), axis=axis, squeeze_axis=squeeze_axis)


def histogram(a, bins=10, range=None):  # noqa: A002  (1.9.1's argument name)
    """Histogram of ``a``: ``bins`` is a bin count (with ``range``) or an NDArray of edges.

    Returns (counts, bin_edges) as NDArrays.
    """
    import warnings

    import numpy as _np
    if isinstance(bins, NDArray):
        return _internal._histogram(a, bins)
    if isinstance(bins, int):
        if range is None:
            # reported from here (once, as 1.9.1's warning is), not from the caller's line
            warnings.warn("range is not specified, using numpy's result to ensure consistency "
                          "with numpy", stacklevel=1)
            data = a.asnumpy()
            if data.dtype.kind == "f":   # float64 edges (then float32), as 1.9.1's NumPy gave
                data = data.astype(_np.float64)
            counts, edges = _np.histogram(data, bins=bins)
            return array(counts), array(edges)
        return _internal._histogram(a, bin_cnt=bins, range=range)
    raise ValueError("bins argument should be either an integer or an NDArray")


def onehot_encode(indices, out):
    """Write the one-hot encoding of ``indices`` into ``out`` (legacy API) and return it."""
    return _internal._onehot_encode(indices, out, out=out)


def to_dlpack_for_read(data):
    """A DLPack capsule over ``data`` for reading."""
    return data.to_dlpack_for_read()


def to_dlpack_for_write(data):
    """A DLPack capsule over ``data`` for writing."""
    return data.to_dlpack_for_write()


def _finite_test(kind):
    def fn(data):
        with_nan = data == data
        if kind == "isnan":
            return 1 - with_nan
        finite_mag = abs(data) != float("inf")
        if kind == "isinf":
            return with_nan * (1 - finite_mag)
        return with_nan * finite_mag
    fn.__name__ = kind
    fn.__doc__ = f"Elementwise {kind} as 0/1 in the input's dtype."
    return fn


if "contrib" in globals():
    for _k in ("isfinite", "isinf", "isnan"):
        setattr(globals()["contrib"], _k, _finite_test(_k))


def moveaxis(tensor, source, destination):
    """Move one axis of ``tensor`` to a new position."""
    axes = list(range(tensor.ndim))
    src = source % tensor.ndim
    dst = destination % tensor.ndim
    axes.pop(src)
    axes.insert(dst, src)
    return globals()["transpose"](tensor, axes=tuple(axes))


# fluent methods: x.sum(...) == mx.nd.sum(x, ...)
_FLUENT = """abs sign round rint fix floor ceil trunc sin cos tan arcsin arccos arctan degrees radians
sinh cosh tanh arcsinh arccosh arctanh exp expm1 log log10 log2 log1p sqrt rsqrt cbrt rcbrt square
reciprocal relu sigmoid softmax log_softmax softmin sum nansum prod nanprod mean max min norm argmax
argmin argmax_channel topk sort argsort clip flatten expand_dims squeeze transpose swapaxes flip tile
repeat pad split slice slice_axis slice_like take pick one_hot broadcast_to broadcast_like
broadcast_axes reshape_like zeros_like ones_like diag depth_to_space space_to_depth shape_array
size_array split_v2 where""".split()


def _make_fluent(fn):
    reg_op = getattr(fn, "_op", None)

    def method(self, *args, **kwargs):
        # a sparse array goes through the function, which keeps its storage type where
        # 1.9.1 does (r.sqrt() is row_sparse)
        if reg_op is not None and not args and not kwargs and (
                type(self) is NDArray or self.stype == "default"):
            return invoke(reg_op, [self], reg_op.parse_attrs({}))
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = f"Fluent form of :func:`mxnet.ndarray.{fn.__name__}`."
    return method


def _broadcast_to_method(self, shape):
    """Fluent broadcast_to; like 1.9.1 it checks NumPy-style (a 0 in ``shape`` is an error)."""
    shape = tuple(shape)
    cur = (1,) * (len(shape) - self.ndim) + tuple(self.shape)
    if len(cur) != len(shape) or any(c != t and c != 1 for c, t in zip(cur, shape)):
        raise ValueError(f"NDArray.broadcast_to: operands could not be broadcast together with "
                         f"remapped shapes[original->remapped]: {tuple(self.shape)} and requested "
                         f"shape {shape}")
    src = self if cur == tuple(self.shape) else self.reshape(cur)
    return _public["broadcast_to"](src, shape=shape)


NDArray.broadcast_to = _broadcast_to_method


# fluent methods whose 1.9.1 signatures differ from their operator's: ``inplace=True`` gives a
# reshaped view (sharing the memory), and broadcast_like names its argument ``other``
def _expand_dims_method(self, axis, inplace=False):
    """Fluent expand_dims; with ``inplace`` a view of the same memory."""
    if not inplace:
        return _public["expand_dims"](self, axis=axis)
    ax = axis + self.ndim + 1 if axis < 0 else axis
    shape = list(self.shape)
    shape.insert(ax, 1)
    return self.reshape(shape)


def _squeeze_method(self, axis=None, inplace=False):
    """Fluent squeeze; with ``inplace`` a view of the same memory."""
    if not inplace:
        return _public["squeeze"](self, axis=axis)
    if axis is None:
        drop = {i for i, d in enumerate(self.shape) if d == 1}
    else:
        drop = {a % self.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
        if any(self.shape[a] != 1 for a in drop):
            from ..base import MXNetError
            raise MXNetError(f"squeeze: cannot select an axis to squeeze out which has size "
                             f"not equal to one (axis={axis}, shape={tuple(self.shape)})")
    return self.reshape([d for i, d in enumerate(self.shape) if i not in drop] or [1])


def _flatten_method(self, inplace=False):
    """Fluent flatten; with ``inplace`` a view of the same memory."""
    if not inplace:
        return _public["flatten"](self)
    return self.reshape((self.shape[0], -1) if self.ndim else (1, 1))


def _broadcast_like_method(self, other):
    """Fluent broadcast_like: ``self`` broadcast to the shape of ``other``."""
    return _public["broadcast_like"](self, other)


for _name, _method in (("expand_dims", _expand_dims_method), ("squeeze", _squeeze_method),
                       ("flatten", _flatten_method), ("broadcast_like", _broadcast_like_method)):
    _method.__name__, _method.__qualname__ = _name, f"NDArray.{_name}"
    setattr(NDArray, _name, _method)

for _name in _FLUENT:
    _fn = _public.get(_name) or globals().get(_name)
    if _fn is not None and not hasattr(NDArray, _name):
        setattr(NDArray, _name, _make_fluent(_fn))

_optional = {}
for _modname in ("serialization", "random", "utils"):
    try:
        _optional[_modname] = __import__(f"{__name__}.{_modname}", fromlist=["*"])
    except ModuleNotFoundError as _e:
        if _e.name != f"{__name__}.{_modname}":
            raise
globals().update(_optional)
if "serialization" in _optional:
    from .serialization import load, load_frombuffer, save  # noqa: F401
if "utils" in _optional:   # as in 1.9.1, the creators pick sparse storage from ``stype``
    _dense_zeros = zeros
    from .utils import array, empty, zeros  # noqa: F811


def _fill_contrib():
    """1.9.1's Python-level mx.nd.contrib names: control flow, rand_zipfian, the optimizer
    front ends, and the module-level imports its contrib module exposes."""
    import math as _math

    import numpy as _np

    from . import contrib_front
    m = globals()["contrib"]
    for name in contrib_front.__all__:
        setattr(m, name, getattr(contrib_front, name))
    m.current_context = current_context
    m.math, m.np, m.ndarray = _math, _np, sys.modules[__name__]
    m.mx = sys.modules[__name__.rpartition(".")[0]]
    if "random" in _optional:
        m.uniform = _optional["random"].uniform


if "contrib" in globals():
    _fill_contrib()


def _like(fn_name):
    def f(data, **kwargs):
        return _public[fn_name](data, **kwargs)
    return f


__all__ = ["NDArray", "array", "empty", "zeros", "ones", "full", "arange", "eye", "linspace",
           "waitall", "invoke", "op", "concatenate", "moveaxis"] + sorted(_public)

from .legacy_image import imdecode  # noqa: E402,F401  (1.9.1's deprecated decoder)
from . import legacy_image as _legacy_image  # noqa: E402

for _k in ("_cvimdecode", "_cvimread", "_cvimresize", "_cvcopyMakeBorder"):
    setattr(_internal, _k, getattr(_legacy_image, _k))
from . import index_helpers as _index_helpers  # noqa: E402
from .index_helpers import (  # noqa: E402,F401  (1.9.1's helpers in mxnet.ndarray.ndarray)
    get_indexing_dispatch_code, get_oshape_of_gather_nd_op, indexing_key_expand_implicit_axes)

for _k in ("get_indexing_dispatch_code", "get_oshape_of_gather_nd_op",
           "indexing_key_expand_implicit_axes"):
    setattr(sys.modules[f"{__name__}.ndarray"], _k, getattr(_index_helpers, _k))
_GEN_MODULES = ("gen_op", "gen__internal", "gen_contrib", "gen_image", "gen_linalg", "gen_sparse",
                "gen_random")


def _to_stype(dense_front):
    """``mx.nd.cast_storage``: the storage conversions of mx.nd.sparse (loaded on use)."""
    @functools.wraps(dense_front)
    def cast_storage(*args, **kwargs):
        from .sparse import cast_storage as convert
        return convert(*args, **kwargs)
    return cast_storage


cast_storage = _to_stype(cast_storage)  # noqa: F821  (made from the registry above)

# 1.9.1 defines these front ends in mxnet.ndarray.ndarray itself (from ... import works too)
_nd_module = sys.modules[f"{__name__}.ndarray"]
for _n in ("add", "arange", "concatenate", "divide", "equal", "eye", "full", "greater",
           "greater_equal", "histogram", "imdecode", "lesser", "lesser_equal", "linspace",
           "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "modulo", "moveaxis",
           "multiply", "not_equal", "onehot_encode", "ones", "power", "split_v2", "subtract",
           "to_dlpack_for_read", "to_dlpack_for_write", "true_divide", "zeros"):
    if _n in globals() and not hasattr(_nd_module, _n):
        setattr(_nd_module, _n, globals()[_n])


def __getattr__(name):
    # CachedOp runs symbols through the executor, a layer above this one: loaded on use
    if name == "CachedOp":
        from ..executor.cached_op import CachedOp
        return CachedOp
    if name in _GEN_MODULES:  # 1.9.1's generated operator modules (built on first use)
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    if name == "sparse":   # mx.nd.sparse: loaded on first use, keeping ``import mxnet`` fast
        import importlib
        return importlib.import_module(f"{__name__}.sparse")
    if name in ("np", "numpy", "npx", "numpy_extension"):
        # 1.9.1's mx.nd.np / mx.nd.npx: the mx.np / mx.npx functions (loaded on use)
        import importlib
        mod = importlib.import_module("mxnet." + ("numpy" if name in ("np", "numpy")
                                                  else "numpy_extension"))
        globals()[name] = mod
        return mod
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
