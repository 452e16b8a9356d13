"""The operator registry: one :class:`OpDef` per operator, serving mx.nd, mx.sym,
autograd and the executor alike.

An operator declares
- ``params``: a typed schema (:class:`Param`) that parses Python values and the
  string forms found in JSON attributes;
- ``inputs`` / ``aux``: input names (a list, or a function of the parsed attrs);
- ``num_outputs`` and ``num_visible_outputs``;
- ``infer_shape`` / ``infer_type``: fill unknown shapes/dtypes in both directions;
- ``compute(rc, attrs, *arrays)``: array code on ``rc.xp`` (NumPy or CuPy);
- ``gradient(F, attrs, inputs, outputs, out_grads)``: written with registered
  operators through ``F`` (the nd or sym namespace), so one rule serves autograd,
  symbolic gradients and higher-order gradients;
- ``inplace``: pairs (input index, output index) whose buffers may be shared, with an
  optional third item True when the output is the input's bytes reshaped;
- ``ignored_inputs``: which inputs are read only for their shape and dtype;
- ``accepts_out``: the kernel also takes ``out=``, a list with one array (or None) per
  output. It may write its results there and return those arrays; returning other arrays
  is allowed too (callers copy or keep them). An output sharing an input's buffer is only
  ever passed for the op's declared ``inplace`` pairs, which the kernel must then handle.
  Besides the executor, ``mx.nd`` passes it for ``op(x, ..., out=x)`` with (0, 0) declared
  (one output, autograd not recording): the optimizers' ``out=weight`` and in-place
  elementwise calls then write x's buffer with no copy after.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

import numpy as np

from .._mode import mode as _mode
from ..base import MXNetError, MXNetTypeError, attr_str, dtype_np, parse_attr

__all__ = ["Param", "OpDef", "register", "get_op", "all_ops", "REQUIRED", "RunContext"]


class _Required:
    def __repr__(self):
        return "REQUIRED"


REQUIRED = _Required()


def _to_bool(v):
    if isinstance(v, str):
        v = parse_attr(v)
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)) and v in (0, 1):  # 1.9.1 rejects other integers
        return bool(v)
    raise ValueError(f"expected a boolean, got {v!r}")


def _to_int(v):
    if isinstance(v, str):
        v = parse_attr(v)
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    raise ValueError(f"expected an integer, got {v!r}")


def _to_float(v):
    if isinstance(v, str):
        v = parse_attr(v)
    if isinstance(v, str):
        low = v.lower()
        if low in ("inf", "+inf", "infinity"):
            return float("inf")
        if low in ("-inf", "-infinity"):
            return float("-inf")
        if low == "nan":
            return float("nan")
    return float(v)


def _to_shape(v):
    if isinstance(v, str):
        v = parse_attr(v)
    if isinstance(v, (int, np.integer)):
        return (int(v),)
    if isinstance(v, (list, tuple)):
        return tuple(None if x is None else int(x) for x in v)
    raise ValueError(f"expected a shape tuple, got {v!r}")


def _to_float_tuple(v):
    if isinstance(v, str):
        v = parse_attr(v)
    if isinstance(v, (int, float, np.number)):
        return (float(v),)
    return tuple(float(x) for x in v)


def _to_str(v):
    return v if isinstance(v, str) else attr_str(v)


def _to_dtype(v):
    if isinstance(v, str) and v in ("None", ""):
        return None
    return dtype_np(v).name if dtype_np(v).name != "void" else "bfloat16"


def _to_any(v):
    return parse_attr(v) if isinstance(v, str) else v


_PARSERS: dict[str, Callable] = {
    "bool": _to_bool, "int": _to_int, "float": _to_float, "shape": _to_shape,
    "tuple_float": _to_float_tuple, "str": _to_str, "dtype": _to_dtype, "any": _to_any,
}


class Param:
    """One operator attribute: its name, type, default and allowed values.

    ``kind`` is one of bool, int, float, shape, tuple_float, str, dtype, any.
    ``optional=True`` allows ``None``; ``choices`` restricts string values.
    """

    __slots__ = ("name", "kind", "default", "optional", "choices", "doc", "_parse")

    def __init__(self, name, kind, default=REQUIRED, optional=False, choices=None, doc=""):
        self.name, self.kind, self.default = name, kind, default
        self.optional = optional or default is None
        self.choices = tuple(choices) if choices else None
        self.doc = doc
        self._parse = _PARSERS[kind]

    def parse(self, value, opname):
        """Convert a user value (or its string form) to this param's Python type."""
        if value is None or (self.optional and isinstance(value, str) and value in ("None", "")):
            if self.optional:
                return None
            raise MXNetError(f"{opname}: parameter '{self.name}' may not be None "
                             f"(expected {self.kind})")
        try:
            out = self._parse(value)
        except (ValueError, TypeError, SyntaxError, MXNetError):
            # 1.9.1's front end turns dtype params into NumPy dtypes first: a TypeError
            err = MXNetTypeError if self.kind == "dtype" else MXNetError
            raise err(f"{opname}: invalid value {value!r} for parameter '{self.name}'; "
                      f"expected {self.kind}") from None
        if self.choices is not None and out not in self.choices:
            raise MXNetError(f"{opname}: invalid value {value!r} for parameter '{self.name}'; "
                             f"expected one of {list(self.choices)}")
        return out


class RunContext:
    """What a kernel needs besides its inputs: the array module, the device and the mode."""

    __slots__ = ("xp", "ctx", "backend", "is_train", "states")

    def __init__(self, backend, is_train, states=None):
        self.backend = backend
        self.xp = backend.xp
        self.ctx = backend.ctx
        self.is_train = is_train
        # per-node operator state of a bound graph (an executor's Custom operators), keyed
        # by id(node attrs); None outside such a graph: stateful kernels start afresh
        self.states = states

    @property
    def rng(self):
        """The device's random generator (NumPy/CuPy Generator)."""
        return self.backend.rng


class OpDef:
    """Everything the system knows about one operator (see the module docstring)."""

    def __init__(self, name, compute, *, params=(), inputs=("data",), aux=(), num_outputs=1,
                 num_visible_outputs=None, output_names=None, infer_shape=None, infer_type=None,
                 gradient=None, inplace=(), variadic=None, aliases=(), doc="", needs_rng=False,
                 key_var_num_args=None, attr_check=None, nd_hidden=False, ignored_inputs=None,
                 accepts_out=False, grad_rows=None, nd_input_aliases=None):
        self.name = name
        self.compute = compute
        self.params: dict[str, Param] = {p.name: p for p in params}
        self._inputs = inputs
        self._aux = aux
        self._num_outputs = num_outputs
        self._num_visible = num_visible_outputs
        self.output_names = output_names
        self.infer_shape = infer_shape
        self.infer_type = infer_type
        self.gradient = gradient
        # (input, output) pairs that may share a buffer; a third item True marks an
        # identity (the output is the input's bytes under another shape)
        self.inplace = tuple(inplace)
        # attrs -> input positions whose values the op never reads (only shape/dtype)
        self.ignored_inputs = ignored_inputs
        # the kernel takes out=[array or None per output] (see the module docstring)
        self.accepts_out = accepts_out
        # (xp, attrs, input position, input NDArrays) -> the sorted rows a row_sparse
        # gradient of that input stores (1.9.1 keeps them even when their values are all
        # zero), or None for an ordinary dense gradient; autograd reads it (see
        # autograd._rsp_gradients)
        self.grad_rows = grad_rows
        self.variadic = variadic          # name of the count param for list inputs (e.g. num_args)
        self.key_var_num_args = key_var_num_args or variadic
        self.aliases = tuple(aliases)
        self.doc = doc
        self.needs_rng = needs_rng
        self.attr_check = attr_check
        self.nd_hidden = nd_hidden
        # keyword names mx.nd accepts for inputs whose symbol names differ (1.9.1's
        # generated front ends sometimes name them differently): {nd name: input name}
        self.nd_input_aliases = dict(nd_input_aliases or {})
        self._defaults = {k: p.default for k, p in self.params.items() if p.default is not REQUIRED}
        self._attr_cache: dict = {}

    # -- attributes --------------------------------------------------------------------------
    def parse_attrs(self, kwargs: dict) -> dict:
        """Fill defaults and convert every attribute; unknown or missing ones raise."""
        if not kwargs:
            cached = self._attr_cache.get(())
            if cached is not None:
                return cached
        attrs = dict(self._defaults)
        params = self.params
        for k, v in kwargs.items():
            p = params.get(k)
            if p is None:
                # 1.9.1 keeps and ignores any attribute of an operator that has no parameters
                if k.startswith("__") or k in ("name", "attr", "ctx") or not params:
                    continue
                raise MXNetError(f"{self.name}: unknown parameter '{k}'; "
                                 f"accepted parameters are {sorted(params)}")
            attrs[k] = p.parse(v, self.name)
        if len(attrs) != len(params):
            missing = [k for k in params if k not in attrs]
            raise MXNetError(f"{self.name}: required parameter(s) {missing} missing")
        if self.attr_check is not None:
            self.attr_check(self.name, attrs)
        if not kwargs:
            self._attr_cache[()] = attrs
        return attrs

    def attrs_to_strings(self, attrs: dict) -> dict:
        """The attribute dict as MXNet writes it into JSON (all values as strings)."""
        return {k: attr_str(v) for k, v in attrs.items()}

    # -- arity -------------------------------------------------------------------------------
    def input_names(self, attrs) -> list[str]:
        ins = self._inputs
        if callable(ins):
            return list(ins(attrs))
        if self.variadic:
            n = attrs.get(self.variadic, 1)
            return [f"arg{i}" for i in range(n)]
        return list(ins)

    def aux_names(self, attrs) -> list[str]:
        a = self._aux
        return list(a(attrs)) if callable(a) else list(a)

    def num_outputs(self, attrs) -> int:
        n = self._num_outputs
        return n(attrs) if callable(n) else n

    def num_visible_outputs(self, attrs) -> int:
        n = self._num_visible
        if n is None:
            return self.num_outputs(attrs)
        return n(attrs) if callable(n) else n

    def list_output_names(self, attrs) -> list[str]:
        names = self.output_names
        if names is None:
            n = self.num_visible_outputs(attrs)
            return ["output"] if n == 1 else [f"output{i}" for i in range(n)]
        return list(names(attrs) if callable(names) else names)

    def apply_gradient(self, F, attrs, inputs, outputs, ograds, need):
        """This operator's gradient rule on its inputs, outputs and output gradients.

        ``need`` flags the inputs whose gradient is wanted (rules may skip the others,
        e.g. a convolution's data gradient); MXNetError when the op has no rule.
        """
        rule = self.gradient
        if rule is None:
            raise MXNetError(f"Operator {self.name} is non-differentiable because it "
                             "didn't register a gradient function")
        prev = _mode.need_grad
        _mode.need_grad = need
        try:
            return rule(F, attrs, inputs, outputs, ograds)
        finally:
            _mode.need_grad = prev

    def __repr__(self):
        return f"<OpDef {self.name}>"


_REGISTRY: dict[str, OpDef] = {}


def register(name, compute=None, **kw) -> Any:
    """Register an operator. Usable directly or as a decorator on the compute function."""
    def deco(fn):
        op = OpDef(name, fn, **kw)
        if name in _REGISTRY:
            raise MXNetError(f"operator {name} registered twice")
        _REGISTRY[name] = op
        for alias in op.aliases:
            _REGISTRY[alias] = op
        return fn
    if compute is not None:
        deco(compute)
        return _REGISTRY[name]
    return deco


def get_op(name) -> OpDef:
    """The OpDef of a registered operator name (or alias)."""
    try:
        return _REGISTRY[name]
    except KeyError:
        if name.startswith("_np") and _load_np_ops():
            return get_op(name)
        raise MXNetError(f"Cannot find operator {name}") from None


def _load_np_ops():
    """Register the NumPy-interface operators (np_ops) on first use; True when it loaded them
    now. They are not imported with mxnet, to keep ``import mxnet`` fast."""
    import sys
    if "mxnet.operator.np_ops" in sys.modules:
        return False
    import importlib
    importlib.import_module("mxnet.operator.np_ops")
    return True


def all_ops() -> dict[str, OpDef]:
    """Every registered name (aliases included) mapped to its OpDef."""
    return _REGISTRY
