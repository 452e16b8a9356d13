"""``mx.sym``: declarative Symbol graphs made from the same operator registry as ``mx.nd``.

Every registered operator becomes a function here (``mx.sym.FullyConnected``,
``mx.sym.relu``, ``mx.sym.contrib.X``, ...). Like 1.9.1's generated functions they take
input symbols first (positionally or by input name), then the operator's parameters
positionally in schema order or by keyword, and ``name=`` / ``attr=``. Automatic node
names come from the function's own name in lower case (``concat0`` for both
``Concat`` and ``concat``).
"""
from __future__ import annotations

import inspect as _inspect
import sys as _sys
import types as _types

import numpy as _np

from .._lazy import lazy_submodules as _lazy_submodules
from ..base import MXNetAssertionError as _MXNetAssertionError
from ..base import MXNetError as _MXNetError
from ..ndarray.register import PREFIXES as _PREFIXES
from ..operator.registry import REQUIRED as _REQUIRED
from ..operator.registry import all_ops as _all_ops
from .json_io import load, load_json
from .symbol import Group, NotImplementedForSymbol, Symbol, Variable, var
from .symbol import create_node as _create_node

__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json", "zeros", "ones", "full",
           "arange", "eye", "linspace", "pow", "power", "maximum", "minimum", "hypot",
           "split_v2", "NotImplementedForSymbol"]


def _input_slots(op):
    """How many leading positional arguments are input symbols (None: decide by type)."""
    if op.variadic:
        return None
    try:
        attrs = op.parse_attrs({})
    except _MXNetError:
        return None
    try:
        return len(op.input_names(attrs)) + len(op.aux_names(attrs))
    except (KeyError, TypeError, ValueError):
        return None


def _check_input_slot(op, inputs, value, kwargs):
    """As 1.9.1: a positional argument in an input's place must be a Symbol (the input
    names come from the keyword parameters given, when they are enough to tell)."""
    given = {k: v for k, v in kwargs.items() if k in op.params and not isinstance(v, Symbol)}
    try:
        attrs = op.parse_attrs(given)
        names = op.input_names(attrs) + op.aux_names(attrs)
    except (_MXNetError, KeyError, TypeError, ValueError):
        return
    if len(inputs) < len(names):
        raise _MXNetAssertionError(f"Argument {names[len(inputs)]} must be Symbol instances, "
                                   f"but got {value}")


def _check_input_twice(op, public_name, inputs, sym_kwargs, params):
    """As Python (1.9.1's functions have named parameters): an input given positionally and
    by keyword is an error."""
    try:
        attrs = op.parse_attrs({k: v for k, v in params.items() if k in op.params})
        names = op.input_names(attrs) + op.aux_names(attrs)
    except (_MXNetError, KeyError, TypeError, ValueError):
        return
    for nm, given in zip(names, inputs):
        if given is not None and nm in sym_kwargs:
            raise TypeError(f"{public_name}() got multiple values for argument '{nm}'")


def _make_sym_function(op, public_name):
    hint = public_name.lower()
    param_order = [p for p in op.params if p != op.variadic]
    slots = _input_slots(op)

    def fn(*args, name=None, attr=None, out=None, **kwargs):
        inputs, rest = [], list(args)
        if op.variadic:
            for i, a in enumerate(args):
                if not isinstance(a, Symbol):
                    raise TypeError(f"{public_name}: positional arguments must be Symbol "
                                    f"instances, but argument {i} is {type(a).__name__}")
            inputs, rest = list(args), []
        else:
            # a Symbol is always an input (optional inputs such as SequenceMask's
            # sequence_length lie beyond the default-attrs slot count); None fills a slot
            while rest and (isinstance(rest[0], Symbol) or (rest[0] is None and (
                    slots is None or len(inputs) < slots))):
                inputs.append(rest.pop(0))
            if rest and rest[0] is not None:
                _check_input_slot(op, inputs, rest[0], kwargs)
        if len(rest) > len(param_order):
            raise TypeError(f"{public_name}: too many positional arguments ({len(args)})")
        params = dict(zip(param_order, rest))
        sym_kwargs = {}
        for k, v in kwargs.items():
            if isinstance(v, Symbol):
                sym_kwargs[k] = v
            elif v is None and k not in op.params:
                continue  # an input left to be created as a variable
            elif k in params:
                raise TypeError(f"{public_name}: got multiple values for argument {k!r}")
            else:
                params[k] = v
        if op.variadic and op.variadic not in params:
            params[op.variadic] = len(inputs) + len(sym_kwargs)
        if inputs and sym_kwargs and not op.variadic:
            _check_input_twice(op, public_name, inputs, sym_kwargs, params)
        # positional Nones (inputs left out) are filled by name after the given ones
        if any(s is None for s in inputs):
            attrs = op.parse_attrs({k: v for k, v in params.items() if k in op.params})
            names = op.input_names(attrs) + op.aux_names(attrs)
            for nm, s in zip(names, inputs):
                if s is not None:
                    sym_kwargs.setdefault(nm, s)
            inputs = []
        return _create_node(op.name, inputs, sym_kwargs, params, name=name, attr=attr, hint=hint)

    fn.__name__ = public_name
    fn.__qualname__ = public_name
    fn.__module__ = "mxnet.symbol"
    P = _inspect.Parameter
    sig = [P("args", P.VAR_POSITIONAL)] + [
        P(p.name, P.KEYWORD_ONLY, default=None if p.default is _REQUIRED else p.default)
        for p in op.params.values() if p.name != op.variadic] + [
        P("name", P.KEYWORD_ONLY, default=None), P("attr", P.KEYWORD_ONLY, default=None),
        P("out", P.KEYWORD_ONLY, default=None), P("kwargs", P.VAR_KEYWORD)]
    fn.__signature__ = _inspect.Signature(sig)
    fn.__doc__ = (f"Symbolic form of the {op.name} operator (see mxnet.ndarray.{public_name}).\n\n"
                  f"{op.doc}".rstrip())
    fn._op = op
    return fn


def _build():
    mod_all = _types.ModuleType("mxnet.symbol.op", "Every registered operator as a symbol function.")
    public, internal = {}, {}
    subs = {v: {} for v in _PREFIXES.values()}
    for opname, op in _all_ops().items():
        fn = _make_sym_function(op, opname)
        setattr(mod_all, opname, fn)
        for prefix, sub in _PREFIXES.items():
            if opname.startswith(prefix):
                short = opname[len(prefix):]
                # 1.9.1 names a submodule's function (and so its automatic node names)
                # without the prefix: mx.sym.linalg.gemm2 makes gemm20
                subs[sub][short] = fn if prefix == "_sample_" else _make_sym_function(op, short)
                break
        if opname.startswith("_"):
            internal[opname] = fn
        elif not op.nd_hidden:
            public[opname] = fn
    return mod_all, public, internal, subs


op, _public, _internal_fns, _subs = _build()
for _k, _v in _public.items():
    if _k not in globals():
        globals()[_k] = _v
_internal = _types.ModuleType("mxnet.symbol._internal", "Internal (underscore) symbol operators.")
for _k, _v in _internal_fns.items():
    setattr(_internal, _k, _v)
_sys.modules[_internal.__name__] = _internal
_sys.modules[op.__name__] = op
for _sub, _fns in _subs.items():
    _m = _types.ModuleType(f"mxnet.symbol.{_sub}", f"mx.sym.{_sub} operators.")
    for _k, _v in _fns.items():
        setattr(_m, _k, _v)
    _sys.modules[_m.__name__] = _m
    globals()[_sub] = _m


def _fill_random():
    from . import random_front
    for name in random_front.__all__:
        setattr(globals()["random"], name, getattr(random_front, name))


if "random" in globals():
    _fill_random()


def _fill_contrib():
    from . import contrib_front
    for name in contrib_front.__all__:
        setattr(globals()["contrib"], name, getattr(contrib_front, name))


if "contrib" in globals():
    _fill_contrib()


# 1.9.1's mx.sym.sparse names: each is the operator of that name (executors infer the storage
# types of its results, see mxnet/executor/stype.py; the kernels compute densely).
_SPARSE_NAMES = """ElementWiseSum Embedding FullyConnected LinearRegressionOutput
LogisticRegressionOutput MAERegressionOutput abs adam_update add_n arccos arccosh arcsin arcsinh
arctan arctanh broadcast_add broadcast_div broadcast_minus broadcast_mul broadcast_plus
broadcast_sub cast_storage cbrt ceil clip concat cos cosh degrees dot elemwise_add elemwise_div
elemwise_mul elemwise_sub exp expm1 fix floor ftrl_update gamma gammaln log log10 log1p log2
make_loss mean negative norm radians relu rint round rsqrt sgd_mom_update sgd_update sigmoid
sign sin sinh slice sqrt square stop_gradient sum tan tanh trunc where zeros_like""".split()


def _sparse_adagrad_update(weight=None, grad=None, history=None, lr=None, epsilon=None, wd=None,
                           rescale_grad=None, clip_gradient=None, name=None, attr=None,
                           out=None, **kwargs):
    """``mx.sym.sparse.adagrad_update``: 1.9.1 lists it but cannot compose it (its operator
    takes the history as a state the symbol API cannot pass), so it always raises here too;
    use ``mx.nd.sparse.adagrad_update`` or the AdaGrad optimizer."""
    raise _MXNetError("Not enough argument to call operator _sparse_adagrad_update "
                      "(mx.sym.sparse.adagrad_update cannot be composed in 1.9.1 either; use "
                      "mx.nd.sparse.adagrad_update)")


_sparse_adagrad_update.__name__ = _sparse_adagrad_update.__qualname__ = "adagrad_update"


def _fill_sparse():
    mod = globals()["sparse"]
    for name in _SPARSE_NAMES:
        if not hasattr(mod, name) and hasattr(op, name):
            setattr(mod, name, getattr(op, name))
    if not hasattr(mod, "adagrad_update"):
        mod.adagrad_update = _sparse_adagrad_update


if "sparse" in globals():
    _fill_sparse()


def _op_fn(opname):
    fn = getattr(op, opname, None)
    if fn is None:
        raise _MXNetError(f"operator {opname} is not registered")
    return fn


# ------------------------------------------------------------------------------------------
# front ends written in Python in 1.9.1

def _dtype_or_default(dtype):
    return _np.float32 if dtype is None else dtype


def zeros(shape, dtype=None, **kwargs):
    """A symbol of the given shape filled with zeros (float32 unless ``dtype`` is given)."""
    return _create_node("_zeros", [], {}, {"shape": shape, "dtype": _dtype_or_default(dtype),
                                          **_params(kwargs)}, hint="_zeros", **_naming(kwargs))


def ones(shape, dtype=None, **kwargs):
    """A symbol of the given shape filled with ones (float32 unless ``dtype`` is given)."""
    return _create_node("_ones", [], {}, {"shape": shape, "dtype": _dtype_or_default(dtype),
                                         **_params(kwargs)}, hint="_ones", **_naming(kwargs))


def full(shape, val, dtype=None, **kwargs):
    """A symbol of the given shape filled with ``val``."""
    return _create_node("_full", [], {}, {"shape": shape, "dtype": _dtype_or_default(dtype),
                                         "value": float(val), **_params(kwargs)},
                       hint="_full", **_naming(kwargs))


def arange(start, stop=None, step=1.0, repeat=1, infer_range=False, name=None, dtype=None):
    """Evenly spaced values in [start, stop), each repeated ``repeat`` times."""
    return _create_node("_arange", [], {}, {"start": start, "stop": stop, "step": step,
                                           "repeat": repeat, "infer_range": infer_range,
                                           "dtype": _dtype_or_default(dtype)},
                       name=name, hint="_arange")


def linspace(start, stop, num, endpoint=True, name=None, dtype=None):
    """``num`` evenly spaced values from ``start`` to ``stop``."""
    return _create_node("_linspace", [], {}, {"start": start, "stop": stop, "num": num,
                                             "endpoint": endpoint,
                                             "dtype": _dtype_or_default(dtype)},
                       name=name, hint="_linspace")


def eye(N, M=0, k=0, dtype=None, **kwargs):
    """A 2-D symbol with ones on the k-th diagonal."""
    return _create_node("_eye", [], {}, {"N": N, "M": M, "k": k, "dtype": _dtype_or_default(dtype),
                                        **_params(kwargs)}, hint="_eye", **_naming(kwargs))


def _naming(kwargs):
    return {"name": kwargs.get("name"), "attr": kwargs.get("attr")}


def _params(kwargs):
    return {k: v for k, v in kwargs.items() if k not in ("name", "attr", "out", "ctx")}


def _binary_front(left, right, op_name, hint, scalar_name, scalar_hint, py_fn, what):
    if isinstance(left, Symbol) and isinstance(right, Symbol):
        return _create_node(op_name, [left, right], {}, hint=hint)
    if isinstance(left, Symbol) and isinstance(right, (int, float, _np.generic)):
        return _create_node(scalar_name, [left], {}, {"scalar": right}, hint=scalar_hint)
    if isinstance(left, (int, float, _np.generic)) and isinstance(right, Symbol):
        return _create_node(scalar_name, [right], {}, {"scalar": left}, hint=scalar_hint)
    if isinstance(left, (int, float, _np.generic)) and isinstance(right, (int, float, _np.generic)):
        return py_fn(left, right)
    raise TypeError(f"types ({type(left)}, {type(right)}) not supported by {what}")


def histogram(a, bins=10, range=None, **kwargs):  # noqa: A002  (1.9.1's argument name)
    """Symbolic histogram of ``a``: ``bins`` a Symbol of bin edges, or a bin count with
    ``range``; outputs (counts, bin edges)."""
    if isinstance(bins, Symbol):
        return _op_fn("_histogram")(a, bins, **kwargs)
    if isinstance(bins, int):
        if range is None:
            raise ValueError("null range is not supported in symbol mode")
        return _op_fn("_histogram")(a, bin_cnt=bins, range=range, **kwargs)
    raise ValueError("bins argument should be either an integer or an NDArray")


def pow(base, exp):  # noqa: A001  (1.9.1's name)
    """``base ** exp`` with either side a Symbol or a number."""
    if isinstance(base, (int, float, _np.generic)) and isinstance(exp, Symbol):
        return _create_node("_rpower_scalar", [exp], {}, {"scalar": base}, hint="_rpowerscalar")
    return _binary_front(base, exp, "_power", "_power", "_power_scalar", "_powerscalar",
                         lambda a, b: a ** b, "pow")


power = pow


def maximum(left, right):
    """Element-wise maximum of symbols and/or numbers."""
    return _binary_front(left, right, "_maximum", "_maximum", "_maximum_scalar",
                         "_maximumscalar", lambda a, b: a if a > b else b, "maximum")


def minimum(left, right):
    """Element-wise minimum of symbols and/or numbers."""
    return _binary_front(left, right, "_minimum", "_minimum", "_minimum_scalar",
                         "_minimumscalar", lambda a, b: a if a < b else b, "minimum")


def hypot(left, right):
    """Element-wise ``sqrt(left**2 + right**2)`` of symbols and/or numbers."""
    return _binary_front(left, right, "_hypot", "_hypot", "_hypot_scalar", "_hypotscalar",
                         lambda a, b: _np.hypot(a, b), "hypot")


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    """Split into equal sections (an int) or at the given indices (a tuple)."""
    indices, sections = [], 0
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
    elif isinstance(indices_or_sections, tuple):
        indices = [0] + list(indices_or_sections)
    else:
        raise ValueError("indices_or_sections must either int or tuple of ints")
    return _op_fn("_split_v2")(ary, indices=tuple(indices), axis=axis, squeeze_axis=squeeze_axis,
                               sections=sections)


# ------------------------------------------------------------------------------------------
# fluent methods (the same list as 1.9.1's Symbol)

_FLUENT = """reshape_like zeros_like ones_like broadcast_axes repeat pad swapaxes split slice
slice_axis slice_like take one_hot pick sort topk argsort argmax argmax_channel argmin clip abs
sign shape_array size_array broadcast_to broadcast_like tile transpose flip depth_to_space
space_to_depth sum nansum prod nanprod mean max min norm round rint fix floor ceil trunc sin cos
tan arcsin arccos arctan degrees radians sinh cosh tanh arcsinh arccosh arctanh exp expm1 log
log10 log2 log1p sqrt rsqrt cbrt rcbrt square reciprocal relu sigmoid softmax log_softmax
softmin""".split()


def _fluent(opname):
    def method(self, *args, **kwargs):
        return _op_fn(opname)(self, *args, **kwargs)
    method.__name__ = opname
    method.__doc__ = f"Fluent form of :func:`mxnet.symbol.{opname}` with this symbol as data."
    return method


for _name in _FLUENT:
    if not hasattr(Symbol, _name) and hasattr(op, _name):
        setattr(Symbol, _name, _fluent(_name))


def _reshape(self, *args, **kwargs):
    """Fluent :func:`mxnet.symbol.reshape`."""
    return _op_fn("reshape")(self, *args, **kwargs)


def _astype(self, *args, **kwargs):
    """Fluent :func:`mxnet.symbol.cast`."""
    if args and args[0] is None:  # a positional None is the dtype (float64, as np.dtype(None))
        args, kwargs = args[1:], dict(kwargs, dtype=None)
    return _op_fn("cast")(self, *args, **kwargs)


def _flatten(self, inplace=False, **kwargs):
    """Fluent :func:`mxnet.symbol.flatten`."""
    return _op_fn("flatten")(self, **kwargs)


def _expand_dims(self, axis, inplace=False, **kwargs):
    """Fluent :func:`mxnet.symbol.expand_dims`."""
    return _op_fn("expand_dims")(self, axis=axis, **kwargs)


def _squeeze(self, axis=None, inplace=False, **kwargs):
    """Fluent :func:`mxnet.symbol.squeeze`."""
    return _op_fn("squeeze")(self, axis=axis, **kwargs)


def _diag(self, k=0, **kwargs):
    """Fluent :func:`mxnet.symbol.diag`."""
    return _op_fn("diag")(self, k=k, **kwargs)


def _split_v2_method(self, *args, **kwargs):
    """Fluent :func:`mxnet.symbol.split_v2`."""
    return split_v2(self, *args, **kwargs)


Symbol.reshape = _reshape
Symbol.astype = _astype
Symbol.flatten = _flatten
Symbol.expand_dims = _expand_dims
Symbol.squeeze = _squeeze
Symbol.diag = _diag
Symbol.split_v2 = _split_v2_method

del _k, _v, _sub, _fns, _m, _name

# 1.9.1 defines these front ends in mxnet.symbol.symbol itself (from ... import works too)
_sym_module = _sys.modules[f"{__name__}.symbol"]
for _n in ("arange", "eye", "full", "histogram", "hypot", "linspace", "load", "load_json",
           "maximum", "minimum", "ones", "pow", "power", "split_v2", "zeros"):
    if _n in globals() and not hasattr(_sym_module, _n):
        setattr(_sym_module, _n, globals()[_n])

_NP_SUBMODULES = {"np": "numpy", "numpy": "numpy", "npx": "numpy_extension",
                  "numpy_extension": "numpy_extension"}
# 1.9.1's generated operator modules, built on first use
_NP_SUBMODULES.update((f"gen_{k}", f"gen_{k}")
                      for k in ("op", "_internal", "contrib", "image", "linalg", "sparse",
                                "random"))


# mx.sym.np / mx.sym.npx / mx.sym.gen_* load on first use, keeping ``import mxnet`` light
__getattr__ = _lazy_submodules(__name__, _NP_SUBMODULES)
