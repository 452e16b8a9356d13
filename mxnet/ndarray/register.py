"""Build ``mx.nd.X`` functions from the operator registry.

Each function is a real closure with an ``inspect.Signature`` and a docstring generated
from the operator's parameter schema (no ``exec``), so tracebacks and IDEs see it.
"""
from __future__ import annotations

import inspect
import types

from ..base import MXNetAssertionError, MXNetError
from ..context import Context
from ..operator.registry import REQUIRED, OpDef, all_ops
from ._fallback_log import log_fallback
from .ndarray import NDArray, invoke

__all__ = ["make_function", "build_namespaces", "PREFIXES"]

# public name -> front end used when an argument is a sparse NDArray (filled by
# mxnet/ndarray/sparse.py); consulted only for arguments that are not plain NDArrays
SPARSE_FRONTS: dict = {}

# registry-name prefix -> submodule of mx.nd
PREFIXES = {"_contrib_": "contrib", "_linalg_": "linalg", "_random_": "random",
            "_sample_": "random", "_image_": "image", "_sparse_": "sparse"}


def _signature(op: OpDef):
    P = inspect.Parameter
    params = []
    if op.variadic:
        params.append(P("data", P.VAR_POSITIONAL))
    elif not callable(op._inputs):
        for name in list(op._inputs) + ([] if callable(op._aux) else list(op._aux)):
            params.append(P(name, P.POSITIONAL_OR_KEYWORD, default=None))
    else:
        params.append(P("data", P.POSITIONAL_OR_KEYWORD, default=None))
    kind = P.KEYWORD_ONLY if op.variadic else P.POSITIONAL_OR_KEYWORD
    for p in op.params.values():
        if op.variadic and p.name == op.variadic:
            continue
        default = P.empty if p.default is REQUIRED else p.default
        if kind is P.POSITIONAL_OR_KEYWORD and default is P.empty and any(
                q.default is not P.empty for q in params):
            default = None
        params.append(P(p.name, kind, default=default))
    params.append(P("out", P.KEYWORD_ONLY, default=None))
    params.append(P("name", P.KEYWORD_ONLY, default=None))
    params.append(P("kwargs", P.VAR_KEYWORD))
    return inspect.Signature(params)


def _docstring(op: OpDef, public_name):
    lines = [op.doc.strip() or f"The {op.name} operator.", "", "Parameters", "----------"]
    if op.variadic:
        lines.append("*data : NDArray\n    The input arrays.")
    elif not callable(op._inputs):
        for n in op._inputs:
            lines.append(f"{n} : NDArray\n    Input ``{n}``.")
    for p in op.params.values():
        d = "required" if p.default is REQUIRED else f"default={p.default!r}"
        extra = f", one of {list(p.choices)}" if p.choices else ""
        lines.append(f"{p.name} : {p.kind}, {d}{extra}\n    {p.doc}".rstrip())
    lines += ["out : NDArray, optional\n    Write the result into this array.", "",
              "Returns", "-------", "NDArray or list of NDArray"]
    return "\n".join(lines)


def _parse_ctx(text):
    """'cpu(1)' -> Context('cpu', 1)."""
    kind, _, rest = text.partition("(")
    return Context(kind, int(rest.rstrip(")") or 0))


def _input_slots(op: OpDef, kwargs):
    """The input (and auxiliary) names of an operator whose inputs depend on its attributes,
    for the attributes given as keywords; None when they cannot be parsed."""
    try:
        attrs = op.parse_attrs({k: v for k, v in kwargs.items() if k in op.params})
        return op.input_names(attrs) + op.aux_names(attrs)
    except Exception:  # noqa: BLE001 - the call itself reports bad attributes later
        return None


# the most keyword combinations whose parsed attributes one mx.nd function keeps
_ATTR_CACHE_SIZE = 256


def _attr_key(kwargs):
    """A key for keyword attributes of plain types (their types in it: 1, 1.0 and True parse
    alike only for some parameters), or None."""
    key = []
    for k, v in kwargs.items():
        t = type(v)
        if t is tuple:
            if not all(type(e) is int for e in v):
                return None
        elif t is not str and t is not int and t is not float and t is not bool and \
                v is not None:
            return None
        key.append((k, t, v))
    return tuple(key)


def make_function(op: OpDef, public_name: str):
    """The ``mx.nd`` function for one operator."""
    param_order = [p for p in op.params if p != op.variadic]
    # auxiliary states (BatchNorm's moving statistics) are passed after the inputs
    static_inputs = None if (op.variadic or callable(op._inputs) or callable(op._aux)) else (
        list(op._inputs) + list(op._aux))
    n_static = len(static_inputs) if static_inputs is not None else 0
    sampler = op.name.startswith(("_random_", "_sample_")) and "dtype" in op.params
    # 1.9.1's generated functions turn a given ``dtype`` into ``np.dtype(dtype).name``, so an
    # explicit None means float64; its NumPy-interface ones (``_np*``) pass None on as unset
    none_dtype = None if public_name.startswith("_np") or "dtype" not in op.params else "float64"
    attr_cache: dict = {}

    def fn(*args, out=None, name=None, **kwargs):
        if (not kwargs and static_inputs is not None and len(args) == n_static
                and (out is None or n_static and not sampler)):
            sparse_in = False
            for a in args:
                if type(a) is not NDArray:
                    if not isinstance(a, NDArray):
                        break
                    if a.stype != "default":
                        if public_name in SPARSE_FRONTS:
                            return SPARSE_FRONTS[public_name](*args, out=out)
                        sparse_in = True
            else:
                attrs = op.parse_attrs({})
                if sparse_in:  # logged once the op ran (1.9.1 checks shapes first)
                    res = invoke(op, list(args), attrs, out=out)
                    log_fallback(op.name, args, None, op.num_outputs(attrs))
                    return res
                return invoke(op, list(args), attrs, out=out)
        elif (args and not op.variadic and (out is None or not sampler)
              and all(type(a) is NDArray for a in args)):
            # dense inputs and attributes as plain keywords (a gradient rule's calls,
            # Activation(x, act_type=...)): their parsed form is kept per operator
            key = _attr_key(kwargs)
            attrs = None if key is None else attr_cache.get(key)
            # (an unset dtype that mx.nd reads as float64 takes the general path)
            if attrs is None and key is not None and all(
                    k in op.params and not (k == "dtype" and v is None and none_dtype)
                    for k, v in kwargs.items()):
                attrs = op.parse_attrs(kwargs)
                if len(attr_cache) >= _ATTR_CACHE_SIZE:
                    attr_cache.clear()
                attr_cache[key] = attrs
            if attrs is not None and len(args) == (
                    n_static if static_inputs is not None else
                    len(op.input_names(attrs)) + len(op.aux_names(attrs))):
                return invoke(op, list(args), attrs, out=out)
        nd_pos = []
        i = 0
        if op.variadic:
            for a in args:
                if isinstance(a, (list, tuple)) and all(isinstance(x, NDArray) for x in a):
                    nd_pos.extend(a)
                elif isinstance(a, NDArray):
                    nd_pos.append(a)
                else:  # 1.9.1 asserts this in its generated front end
                    raise MXNetAssertionError(f"{public_name}: positional arguments must be "
                                              f"NDArrays, got {type(a).__name__} {a!r}")
            i = len(args)
        else:
            limit = n_static if static_inputs is not None else len(args)
            while i < len(args) and i < max(limit, 1) and (isinstance(args[i], NDArray) or
                                                             args[i] is None):
                nd_pos.append(args[i])
                i += 1
            slots = static_inputs if static_inputs is not None else (
                _input_slots(op, kwargs) if i < len(args) else None)
            if slots is not None and i < min(len(args), len(slots)):
                # as 1.9.1: a positional argument in an input's place must be an NDArray
                raise MXNetAssertionError(f"Argument {slots[i]} must have NDArray type, "
                                          f"but got {args[i]}")
        kw_inputs = {}
        attrs_kw = {}
        for k, v in kwargs.items():
            if isinstance(v, NDArray):
                kw_inputs[k] = v
            elif v is None and k not in op.params:
                continue
            else:
                attrs_kw[k] = v
        rest = args[i:]
        if len(rest) > len(param_order) and not op.variadic:
            # 1.9.1's generated signatures end with (..., out=None, name=None)
            extra, rest = rest[len(param_order):], rest[:len(param_order)]
            if len(extra) > 2 or (out is not None and extra) or (name is not None
                                                                 and len(extra) > 1):
                raise TypeError(f"{public_name}: too many positional arguments ({len(args)})")
            out = extra[0]
            if not (isinstance(out, NDArray) or (isinstance(out, (list, tuple)) and all(
                    isinstance(o, NDArray) for o in out))):
                raise TypeError(f"{public_name}: the positional argument after the parameters "
                                f"is 'out' and must be an NDArray, got {type(out).__name__}")
        if len(rest) > len(param_order):
            raise TypeError(f"{public_name}: too many positional arguments ({len(args)})")
        for pname, v in zip(param_order, rest):
            if pname in attrs_kw:
                raise MXNetError(f"{public_name}: got multiple values for argument '{pname}'")
            attrs_kw[pname] = v
        # 1.9.1 fills the count from the inputs only when the caller left it out
        explicit_n = bool(op.variadic) and attrs_kw.get(op.variadic) is not None
        if op.variadic and not explicit_n:
            attrs_kw[op.variadic] = len(nd_pos)
        nd_pos = [a for a in nd_pos if a is not None]  # None marks a skipped optional input
        no_inputs = not nd_pos and not kw_inputs
        if no_inputs and out is not None and "shape" in op.params and attrs_kw.get("shape") is None:
            attrs_kw["shape"] = out.shape
        if none_dtype and "dtype" in attrs_kw and attrs_kw["dtype"] is None:
            attrs_kw["dtype"] = none_dtype
        if sampler and out is not None and attrs_kw.get("dtype") is None and isinstance(
                out, NDArray):
            # a sampler's unset dtype is inferred from out=, as 1.9.1's type inference does
            attrs_kw["dtype"] = out.dtype.__name__ if isinstance(out.dtype, type) else str(
                out.dtype)
        attrs = op.parse_attrs(attrs_kw)
        names = op.input_names(attrs) + op.aux_names(attrs)
        if explicit_n and len(nd_pos) + len(kw_inputs) != len(names):
            raise MXNetError(f"{public_name}: {op.variadic}={attrs[op.variadic]} asks for "
                             f"{len(names)} input(s), but {len(nd_pos) + len(kw_inputs)} "
                             f"were given")
        inputs = list(nd_pos)
        if kw_inputs or len(inputs) < len(names):
            inputs += [None] * (len(names) - len(inputs))
            for k, v in kw_inputs.items():
                k = op.nd_input_aliases.get(k, k)
                if k not in names:
                    raise MXNetError(f"{public_name}: unknown input '{k}'; inputs are {names}")
                inputs[names.index(k)] = v
        while len(inputs) > len(names) and inputs[-1] is None:
            inputs.pop()  # a None placeholder for an optional input that attrs switched off
        missing = [names[j] for j, a in enumerate(inputs[:len(names)]) if a is None]
        if missing:
            raise MXNetError(f"{public_name}: required input(s) {missing} not given")
        if len(inputs) > len(names):
            raise MXNetError(f"{public_name}: expected {len(names)} input(s) {names}, "
                             f"got {len(inputs)}")
        if public_name in SPARSE_FRONTS:
            for a in inputs:
                if type(a) is not NDArray and a is not None and a.stype != "default":
                    return SPARSE_FRONTS[public_name](*args, out=out, **kwargs)
        ctx = None
        given = attrs_kw.get("ctx") if not inputs else None
        if given:
            ctx = _parse_ctx(given) if isinstance(given, str) else Context(given)
        res = invoke(op, inputs, attrs, out=out, ctx=ctx)
        for a in inputs:
            if type(a) is not NDArray and getattr(a, "stype", "default") != "default":
                # a dense op ran on a sparse input (logged after it ran: 1.9.1 checks first);
                # an ``out`` given by the caller (an optimizer's sparse weight) shows its stype;
                # 1.9.1's front ends of list-input ops (``*data``) keep the keywords' order
                outs = out if isinstance(out, (list, tuple)) else [out] if out is not None else []
                log_fallback(op.name, inputs, attrs_kw, op.num_outputs(attrs),
                             () if op.key_var_num_args else op.params,
                             [getattr(o, "stype", "default") for o in outs] or None)
                break
        return res

    fn._op = op
    fn.__name__ = public_name
    fn.__qualname__ = public_name
    fn.__module__ = "mxnet.ndarray"
    fn.__signature__ = _signature(op)
    fn.__doc__ = _docstring(op, public_name)
    return fn


def build_namespaces():
    """All generated functions: (every-name module, public dict, internal dict, submodule dicts)."""
    op_mod = types.ModuleType("mxnet.ndarray.op", "Every registered operator as an nd function.")
    public, internal = {}, {}
    subs: dict[str, dict] = {v: {} for v in PREFIXES.values()}
    made = {}
    for name, op in all_ops().items():
        key = (id(op), name)
        fn = made.get(key) or make_function(op, name)
        made[key] = fn
        setattr(op_mod, name, fn)
        for prefix, sub in PREFIXES.items():
            if name.startswith(prefix):
                subs[sub][name[len(prefix):]] = fn
                break
        if name.startswith("_"):
            internal[name] = fn
        elif not op.nd_hidden:
            public[name] = fn
    return op_mod, public, internal, subs
