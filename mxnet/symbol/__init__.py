"""``mx.sym``: declarative Symbol graphs made from the same operator registry as ``mx.nd``."""
from __future__ import annotations

import inspect
import sys
import types

from ..base import MXNetError
from ..ndarray.register import PREFIXES
from ..operator.registry import REQUIRED, all_ops
from .json_io import load, load_json
from .symbol import Group, Symbol, Variable, _make, var

__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json"]


def _make_sym_function(op, public_name):
    param_order = [p for p in op.params if p != op.variadic]

    def fn(*args, name=None, attr=None, **kwargs):
        inputs = []
        rest = []
        for a in args:
            if isinstance(a, Symbol) and not rest:
                inputs.append(a)
            elif op.variadic and isinstance(a, (list, tuple)) and all(isinstance(s, Symbol) for s in a):
                inputs.extend(a)
            else:
                rest.append(a)
        if len(rest) > len(param_order):
            raise TypeError(f"{public_name}: too many positional arguments")
        params = dict(zip(param_order, rest))
        sym_kw = {}
        for k, v in kwargs.items():
            if isinstance(v, Symbol):
                sym_kw[k] = v
            elif k in params:
                raise TypeError(f"{public_name}: got multiple values for argument {k!r}")
            else:
                params[k] = v
        if op.variadic:
            params[op.variadic] = len(inputs)
        parsed = op.parse_attrs({k: v for k, v in params.items() if v is not None})
        names = op.input_names(parsed) + op.aux_names(parsed)
        if sym_kw:
            full = list(inputs) + [None] * (len(names) - len(inputs))
            for k, v in sym_kw.items():
                if k not in names:
                    raise MXNetError(f"{public_name}: unknown input {k!r}; inputs are {names}")
                full[names.index(k)] = v
            inputs = full
        return _make(op.name, inputs, params, name=name, attr=attr, hint=public_name.lower())

    fn.__name__ = public_name
    fn.__qualname__ = public_name
    fn.__module__ = "mxnet.symbol"
    P = inspect.Parameter
    sig = [P("args", P.VAR_POSITIONAL)] + [
        P(p.name, P.KEYWORD_ONLY, default=None if p.default is REQUIRED else p.default)
        for p in op.params.values() if p.name != op.variadic] + [
        P("name", P.KEYWORD_ONLY, default=None), P("attr", P.KEYWORD_ONLY, default=None),
        P("kwargs", P.VAR_KEYWORD)]
    fn.__signature__ = inspect.Signature(sig)
    fn.__doc__ = f"Symbolic form of the {op.name} operator (see mxnet.ndarray.{public_name})."
    return fn


def _build():
    mod_all = types.ModuleType("mxnet.symbol.op", "Every registered operator as a symbol function.")
    public, internal = {}, {}
    subs = {v: {} for v in PREFIXES.values()}
    for name, op in all_ops().items():
        fn = _make_sym_function(op, name)
        setattr(mod_all, name, fn)
        for prefix, sub in PREFIXES.items():
            if name.startswith(prefix):
                subs[sub][name[len(prefix):]] = fn
                break
        if name.startswith("_"):
            internal[name] = fn
        elif not op.nd_hidden:
            public[name] = fn
    return mod_all, public, internal, subs


op, _public, _internal_fns, _subs = _build()
for _k, _v in _public.items():
    if _k not in globals():
        globals()[_k] = _v
_internal = types.ModuleType("mxnet.symbol._internal", "Internal (underscore) symbol operators.")
for _k, _v in _internal_fns.items():
    setattr(_internal, _k, _v)
sys.modules[_internal.__name__] = _internal
sys.modules[op.__name__] = op
for _sub, _fns in _subs.items():
    _m = types.ModuleType(f"mxnet.symbol.{_sub}", f"mx.sym.{_sub} operators.")
    for _k, _v in _fns.items():
        setattr(_m, _k, _v)
    sys.modules[_m.__name__] = _m
    globals()[_sub] = _m


def _fluent(name):
    f = _public.get(name)

    def method(self, *args, **kwargs):
        return f(self, *args, **kwargs)
    method.__name__ = name
    method.__doc__ = f"Fluent form of :func:`mxnet.symbol.{name}`."
    return method


from ..ndarray import _FLUENT  # noqa: E402  (same fluent method names as NDArray)

for _name in _FLUENT + ["reshape", "astype"]:
    target = "Cast" if _name == "astype" else _name
    if target in _public and not hasattr(Symbol, _name):
        setattr(Symbol, _name, _fluent(target))


def _reshape_method(self, *shape, **kwargs):
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    if shape:
        kwargs["shape"] = shape
    return _public["Reshape"](self, **kwargs)


Symbol.reshape = _reshape_method
_ = MXNetError
