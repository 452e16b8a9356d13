"""mx.nd.add / subtract / maximum / equal / ...: NDArray-or-scalar front ends.

Two NDArrays use the broadcasting operator; an NDArray and a scalar use the scalar
operator (reflected where the scalar comes first); two scalars use Python's operator.
"""
from __future__ import annotations

import operator as _pyop

import numpy as np

from ..base import numeric_types
from ..operator.registry import get_op
from .ndarray import NDArray, _log_sparse_arith, _scalar_attrs, invoke

__all__ = ["add", "subtract", "multiply", "divide", "true_divide", "modulo", "power",
           "maximum", "minimum", "hypot", "equal", "not_equal", "greater", "greater_equal",
           "lesser", "lesser_equal", "logical_and", "logical_or", "logical_xor"]


def _helper(lhs, rhs, bname, sname, rname, pyfn):
    l_nd, r_nd = isinstance(lhs, NDArray), isinstance(rhs, NDArray)
    if l_nd and r_nd:
        return invoke(get_op(bname), [lhs, rhs], {})
    if l_nd and isinstance(rhs, numeric_types):
        return invoke(get_op(sname), [lhs], _scalar_attrs(rhs))
    if r_nd and isinstance(lhs, numeric_types):
        return invoke(get_op(rname), [rhs], _scalar_attrs(lhs))
    if isinstance(lhs, numeric_types) and isinstance(rhs, numeric_types):
        return pyfn(lhs, rhs)
    raise TypeError(f"{bname}: operands must be NDArrays or scalars, got "
                    f"{type(lhs).__name__} and {type(rhs).__name__}")


_SCALAR_NAME = {"add": "_plus_scalar", "sub": "_minus_scalar"}


def _make(public, base, commutative=True, rname=None, pyfn=None):
    sname = _SCALAR_NAME.get(base, f"_{base}_scalar")
    rname = rname or (sname if commutative else f"_r{base}_scalar")

    def fn(lhs, rhs):
        res = _helper(lhs, rhs, f"broadcast_{base}", sname, rname, pyfn)
        if base in ("maximum", "minimum"):   # 1.9.1 warns of the dense fallback on sparse
            if isinstance(lhs, NDArray) and isinstance(rhs, NDArray):
                _log_sparse_arith(f"broadcast_{base}", [lhs, rhs])
            elif isinstance(lhs, NDArray) or isinstance(rhs, NDArray):
                arr, scalar = (lhs, rhs) if isinstance(lhs, NDArray) else (rhs, lhs)
                _log_sparse_arith(sname, [arr], scalar)
        return res
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = (f"Elementwise ``{public}`` of two NDArrays (with broadcasting), of an NDArray "
                  f"and a scalar, or of two scalars.")
    return fn


add = _make("add", "add", pyfn=_pyop.add)
subtract = _make("subtract", "sub", False, rname="_rminus_scalar", pyfn=_pyop.sub)
multiply = _make("multiply", "mul", pyfn=_pyop.mul)
divide = _make("divide", "div", False, rname="_rdiv_scalar", pyfn=_pyop.truediv)
true_divide = divide
modulo = _make("modulo", "mod", False, rname="_rmod_scalar", pyfn=_pyop.mod)
_power = _make("power", "power", False, rname="_rpower_scalar", pyfn=_pyop.pow)


def power(base, exp):
    """Elementwise ``base ** exp`` of two NDArrays (with broadcasting), of an NDArray and a
    scalar, or of two scalars (1.9.1's keyword names)."""
    return _power(base, exp)


maximum = _make("maximum", "maximum", pyfn=max)
minimum = _make("minimum", "minimum", pyfn=min)
hypot = _make("hypot", "hypot", pyfn=np.hypot)
# two scalars compare to 1 or 0 (ints), as in 1.9.1
equal = _make("equal", "equal", pyfn=lambda a, b: int(a == b))
not_equal = _make("not_equal", "not_equal", pyfn=lambda a, b: int(a != b))
greater = _make("greater", "greater", False, rname="_lesser_scalar", pyfn=lambda a, b: int(a > b))
greater_equal = _make("greater_equal", "greater_equal", False, rname="_lesser_equal_scalar",
                      pyfn=lambda a, b: int(a >= b))
lesser = _make("lesser", "lesser", False, rname="_greater_scalar", pyfn=lambda a, b: int(a < b))
lesser_equal = _make("lesser_equal", "lesser_equal", False, rname="_greater_equal_scalar",
                     pyfn=lambda a, b: int(a <= b))
logical_and = _make("logical_and", "logical_and", pyfn=lambda a, b: int(bool(a) and bool(b)))
logical_or = _make("logical_or", "logical_or", pyfn=lambda a, b: int(bool(a) or bool(b)))
logical_xor = _make("logical_xor", "logical_xor", pyfn=lambda a, b: int(bool(a) != bool(b)))
