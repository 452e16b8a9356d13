"""``_Symbol``: a Symbol with NumPy semantics, and the node builder the ``mx.sym.np`` front
ends share.

Arithmetic on a ``_Symbol`` builds the ``_npi_*`` operators (``x + 1`` is
``_npi_add_scalar``), and ``x[...]`` slices instead of selecting an output. Each front end
writes the same operator name and the same attribute set that 1.9.1's writes, so a traced
NumPy-mode block exports the -symbol.json 1.9.1 would.
"""
from __future__ import annotations

import numbers

import numpy as _onp

from ...base import MXNetError, MXNetIndexError
from ..symbol import Symbol, create_node


class _Unset:
    """Marks an argument the caller did not pass (1.9.1's generated front ends only write
    the attributes they are given)."""

    __slots__ = ()

    def __repr__(self):
        return "<unset>"


UNSET = _Unset()


def given(**kwargs):
    """The keyword arguments that were passed (neither UNSET nor None)."""
    return {k: v for k, v in kwargs.items() if v is not UNSET and v is not None}


def node(op_name, inputs, params=None, hint=None, name=None, attr=None):
    """Create one operator node over ``inputs`` and return it as a ``_Symbol``."""
    for i, s in enumerate(inputs):
        if not isinstance(s, Symbol):
            raise TypeError(f"{hint or op_name}: input {i} must be a Symbol, got "
                            f"{type(s).__module__}.{type(s).__name__}")
    res = create_node(op_name, list(inputs), {}, params or {}, name=name, attr=attr,
                      hint=hint or op_name)
    return as_np(res)


def as_np(sym):
    """The same graph outputs viewed as a ``_Symbol``."""
    if isinstance(sym, _Symbol):
        return sym
    return _Symbol(sym._outputs)


def is_scalar(v):
    return isinstance(v, (numbers.Number, _onp.generic)) and not isinstance(v, _onp.ndarray)


def _is_int(v):
    return isinstance(v, (numbers.Integral, _onp.integer, bool, _onp.bool_))


def binary(fname, lhs, rhs, reflect=None, reflected_int=False, legacy=None):
    """``fname`` of two symbols, a symbol and a scalar, or a scalar and a symbol.

    ``reflect`` names the op used for scalar-op-symbol (default ``_npi_r<fname>_scalar``;
    commutative ops pass ``fname`` itself). 1.9.1 writes ``is_int`` from the scalar's type
    except for the reflected forms, which always say False. ``legacy`` = (op, scalar op) for
    the functions 1.9.1 builds from legacy operators (maximum, minimum).
    """
    ls, rs = isinstance(lhs, Symbol), isinstance(rhs, Symbol)
    if ls and rs:
        opname = legacy[0] if legacy else f"_npi_{fname}"
        return node(opname, [lhs, rhs], hint=fname)
    if ls and is_scalar(rhs):
        if legacy:
            return node(legacy[1], [lhs], {"is_int": _is_int(rhs), "scalar": float(rhs)},
                        hint=f"{fname}_scalar")
        return node(f"_npi_{fname}_scalar", [lhs], {"is_int": _is_int(rhs),
                                                     "scalar": float(rhs)},
                    hint=f"{fname}_scalar")
    if rs and is_scalar(lhs):
        if legacy:
            return node(legacy[1], [rhs], {"is_int": False, "scalar": float(lhs)},
                        hint=f"{fname}_scalar")
        rname = reflect or f"r{fname}"
        is_int = _is_int(lhs) if reflected_int else False
        return node(f"_npi_{rname}_scalar", [rhs], {"is_int": is_int, "scalar": float(lhs)},
                    hint=f"{rname}_scalar")
    if is_scalar(lhs) and is_scalar(rhs):
        return getattr(_onp, {"true_divide": "true_divide", "mod": "mod"}.get(fname, fname))(
            lhs, rhs)
    raise TypeError(f"{fname}: operands must be Symbols or numbers, got "
                    f"{type(lhs).__name__} and {type(rhs).__name__}")


class _Symbol(Symbol):
    """A Symbol with NumPy semantics (``mx.sym.np._Symbol``)."""

    __slots__ = ()
    __hash__ = Symbol.__hash__
    _np_symbol = True  # create_node gives results of operators on a _Symbol this class

    # -- conversion -------------------------------------------------------------------------
    def as_np_ndarray(self):
        return self

    def as_nd_ndarray(self):
        """The same outputs as a legacy Symbol."""
        return Symbol(self._outputs)

    # -- arithmetic -------------------------------------------------------------------------
    def __add__(self, o):
        return binary("add", self, o, reflect="add", reflected_int=True)

    def __radd__(self, o):
        return binary("add", o, self, reflect="add", reflected_int=True)

    def __sub__(self, o):
        return binary("subtract", self, o)

    def __rsub__(self, o):
        return binary("subtract", o, self)

    def __mul__(self, o):
        return binary("multiply", self, o, reflect="multiply", reflected_int=True)

    def __rmul__(self, o):
        return binary("multiply", o, self, reflect="multiply", reflected_int=True)

    def __truediv__(self, o):
        return binary("true_divide", self, o)

    def __rtruediv__(self, o):
        return binary("true_divide", o, self)

    def __mod__(self, o):
        return binary("mod", self, o)

    def __rmod__(self, o):
        return binary("mod", o, self)

    def __pow__(self, o):
        return binary("power", self, o)

    def __rpow__(self, o):
        return binary("power", o, self)

    def __matmul__(self, o):
        return node("_npi_matmul", [self, o], hint="matmul")

    def __neg__(self):
        return node("_npi_multiply_scalar", [self], {"is_int": False, "scalar": -1.0},
                    hint="multiply_scalar")

    def __abs__(self):
        return node("_npi_absolute", [self], hint="abs")

    def _cmp(self, o, fname, reflected):
        if isinstance(o, Symbol):
            return node(f"_npi_{fname}", [self, o], hint=fname)
        if is_scalar(o):
            return node(f"_npi_{reflected}_scalar", [self], {"is_int": _is_int(o),
                                                            "scalar": float(o)},
                        hint=f"{reflected}_scalar")
        raise TypeError(f"{fname}: cannot compare a Symbol with {type(o).__name__}")

    def __eq__(self, o):
        return self._cmp(o, "equal", "equal")

    def __ne__(self, o):
        return self._cmp(o, "not_equal", "not_equal")

    def __gt__(self, o):
        return self._cmp(o, "greater", "greater")

    def __ge__(self, o):
        return self._cmp(o, "greater_equal", "greater_equal")

    def __lt__(self, o):
        return self._cmp(o, "less", "less")

    def __le__(self, o):
        return self._cmp(o, "less_equal", "less_equal")

    # -- indexing ---------------------------------------------------------------------------
    def __getitem__(self, key):
        if len(self._outputs) > 1:
            return as_np(Symbol.__getitem__(self, key))
        return _slice(self, key)

    # -- methods ------------------------------------------------------------------------------
    @property
    def T(self):
        """The symbol with its axes reversed."""
        return self.transpose()

    def reshape(self, *args, order="C", **kwargs):
        """NumPy reshape (``_np_reshape``)."""
        if "newshape" in kwargs or "shape" in kwargs:
            args = (kwargs.pop("newshape", None) or kwargs.pop("shape"),)
        if kwargs:
            raise TypeError(f"reshape: unexpected keyword arguments {sorted(kwargs)}")
        shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else \
            tuple(args)
        return node("_np_reshape", [self], {"newshape": shape, "order": order}, hint="reshape")

    def transpose(self, *axes):
        """Permute the axes (reverse them when none are given)."""
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = tuple(axes[0])
        elif len(axes) == 1 and axes[0] is None:
            axes = ()
        return node("_np_transpose", [self], {"axes": tuple(axes) if axes else None},
                    hint="transpose")

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):  # noqa: ARG002
        """Cast to ``dtype`` (the legacy Cast operator, as 1.9.1 builds it)."""
        if dtype is None:   # as 1.9.1: the Cast node is left without its required dtype
            raise MXNetError('Required parameter dtype of int is not presented, in operator '
                             'Cast(name="")')
        return node("Cast", [self], {"dtype": _onp.dtype(dtype).name}, hint="cast")

    def flatten(self, order="C"):
        return node("_np_reshape", [self], {"newshape": (-1,), "order": order}, hint="reshape")

    def squeeze(self, axis=None):
        return node("_np_squeeze", [self], {"axis": axis}, hint="squeeze")

    def swapaxes(self, axis1, axis2):
        return node("SwapAxis", [self], {"dim1": axis1, "dim2": axis2}, hint="swapaxes")

    def dot(self, b):
        return node("_np_dot", [self, b], hint="dot")

    def clip(self, min=None, max=None):  # noqa: A002
        from . import clip
        return clip(self, min, max)

    def _reduce(self, opname, hint, axis, keepdims, dtype=None, **extra):
        params = {"axis": axis, "keepdims": keepdims, **extra}
        if dtype is not None:
            params["dtype"] = _onp.dtype(dtype).name
        return node(opname, [self], params, hint=hint)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):  # noqa: ARG002
        return self._reduce("_np_sum", "sum", axis, keepdims, dtype)

    def cumsum(self, axis=None, dtype=None, out=None):
        """Symbolic running sums (see :func:`mxnet.symbol.numpy.cumsum`)."""
        from . import cumsum
        return cumsum(self, axis=axis, dtype=dtype, out=out)

    @property
    def num_outputs(self):
        """The number of outputs of this symbol."""
        return len(self._outputs)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):  # noqa: ARG002
        return self._reduce("_npi_mean", "mean", axis, keepdims, dtype)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):  # noqa: ARG002
        return self._reduce("_np_prod", "prod", axis, keepdims, dtype)

    def max(self, axis=None, out=None, keepdims=False):  # noqa: ARG002
        return self._reduce("_np_max", "max", axis, keepdims)

    def min(self, axis=None, out=None, keepdims=False):  # noqa: ARG002
        return self._reduce("_np_min", "min", axis, keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):  # noqa: ARG002
        return self._reduce("_npi_std", "std", axis, keepdims, dtype, ddof=ddof)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):  # noqa: ARG002
        return self._reduce("_npi_var", "var", axis, keepdims, dtype, ddof=ddof)

    def argmax(self, axis=None, out=None):  # noqa: ARG002
        return node("_npi_argmax", [self], {"axis": axis, "keepdims": False}, hint="argmax")

    def argmin(self, axis=None, out=None):  # noqa: ARG002
        return node("_npi_argmin", [self], {"axis": axis, "keepdims": False}, hint="argmin")

    # NumPy forms of two legacy fluent methods (the legacy ``round`` has no decimals and the
    # legacy ``argsort`` returns float32 indices)
    def argsort(self, axis=-1, kind=None, order=None):
        """Symbolic argsort with int64 indices (see :func:`mxnet.symbol.numpy.argsort`)."""
        from . import argsort
        return argsort(self, axis=axis, kind=kind, order=order)

    def round(self, decimals=0, out=None):
        """Symbolic round half to even (see :func:`mxnet.symbol.numpy.around`)."""
        from . import around
        return around(self, decimals=decimals, out=out)


def _slice(sym, key):
    """Basic NumPy indexing (integers and slices) as 1.9.1 builds it: one ``slice`` node,
    then an ``_npx_reshape`` dropping the integer-indexed axes."""
    if isinstance(key, slice):
        if key.start is None and key.stop is None and key.step is None:
            return sym
        return node("slice", [sym], {"begin": key.start if key.start is not None else [None],
                                     "end": key.stop if key.stop is not None else [None],
                                     "step": key.step}, hint="slice")
    if _is_int(key) and not isinstance(key, (bool, _onp.bool_)):
        k = int(key)
        end = [k + 1] if k != -1 else [None]
        res = node("slice", [sym], {"begin": [k], "end": end}, hint="slice")
        return node("_npx_reshape", [res], {"newshape": (-3, -4)}, hint="reshape")
    if isinstance(key, tuple) and key and all(
            isinstance(k, slice) or (_is_int(k) and not isinstance(k, (bool, _onp.bool_)))
            for k in key):
        begin, end, step, codes = [], [], [], []
        for k in key:
            if isinstance(k, slice):
                begin.append(k.start)
                end.append(k.stop)
                step.append(k.step)
                codes.append(-2)
            else:
                # 1.9.1 walks a negative index backwards (k to k - 1, step -1), so -1 needs
                # no special end
                k = int(k)
                begin.append(k)
                end.append(k + 1 if k >= 0 else k - 1)
                step.append(1 if k >= 0 else -1)
                codes.append(-3)
        res = node("slice", [sym], {"begin": begin, "end": end, "step": step}, hint="slice")
        return node("_npx_reshape", [res], {"newshape": tuple(codes) + (-4,)}, hint="reshape")
    # 1.9.1 raises the builtin IndexError here
    raise MXNetIndexError(f"Symbol indexing: only integers, slices and tuples of them are "
                          f"supported on a NumPy-mode symbol, got key={key!r}")
