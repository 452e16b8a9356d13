"""The ``mx.np`` functions: thin front ends over the ``_npi_*`` / ``_np_*`` operators."""
from __future__ import annotations

import builtins
import inspect

import numpy as _onp

from .._mode import mode as _mode
from ..base import MXNetAssertionError, MXNetError, MXNetTypeError, MXNetValueError
from ..ndarray.ndarray import NDArray
from .multiarray import _binary, _call, _with_out, ndarray

__all__ = ["add", "subtract", "multiply", "divide", "true_divide", "mod", "remainder", "power",
           "maximum", "minimum", "equal", "not_equal", "greater", "greater_equal", "less",
           "less_equal", "negative", "abs", "absolute", "sign", "square", "sqrt", "cbrt", "exp",
           "expm1", "log", "log2", "log10", "log1p", "reciprocal", "sin", "cos", "tan",
           "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
           "arctanh", "floor", "ceil", "trunc", "rint", "fix", "degrees", "radians", "clip",
           "sum", "mean", "prod", "max", "min", "amax", "amin", "std", "var", "argmax",
           "argmin", "dot", "matmul", "tensordot", "reshape", "transpose", "swapaxes",
           "expand_dims", "squeeze", "concatenate", "stack", "split", "broadcast_to", "tile",
           "repeat", "where", "ravel", "shape", "size", "ndim", "cumsum", "any", "all",
           "isnan", "isinf", "isfinite", "logical_not", "around", "round", "round_", "flip",
           "sort", "argsort", "hstack", "vstack", "outer", "moveaxis", "meshgrid"]


def _arr(x, fname):
    if isinstance(x, NDArray):
        return x
    raise TypeError(f"{fname}: expected an mxnet.numpy.ndarray, got "
                    f"{type(x).__module__}.{type(x).__name__}")


# --- binary ---------------------------------------------------------------------------------

# NumPy ufunc keywords that 1.9.1's arithmetic functions accept at their default values
_UFUNC_DEFAULTS = {"where": True, "casting": "same_kind", "order": "K", "dtype": None,
                   "subok": True}


def _check_ufunc_kwargs(public, kwargs, unary=False):
    """As 1.9.1: a NumPy ufunc keyword at its default value is accepted (and ignored), any
    other value raises NotImplementedError, and an unknown keyword raises TypeError."""
    for k, v in kwargs.items():
        if k not in _UFUNC_DEFAULTS:
            raise TypeError(f"{k} is an invalid keyword to function '{public}'")
        default = _UFUNC_DEFAULTS[k]
        if not (v is default or (isinstance(v, (str, bool)) and v == default)):
            where = f" for operator {public}" if unary else ""
            raise NotImplementedError(f"{k}={v} is not implemented yet{where}")


def _make_binary(public, kind, pyfn, reflect=None, doc=""):
    cmp = kind in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal")

    def fn(x1, x2, out=None, **kwargs):
        if kwargs:
            if cmp:   # 1.9.1's comparisons take no ufunc keywords at all
                raise TypeError(f"{public}() got an unexpected keyword argument "
                                f"'{next(iter(kwargs))}'")
            _check_ufunc_kwargs(public, kwargs)
        return _binary(kind, x1, x2, out=out, reflect=reflect, pyfn=pyfn)
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = doc or (f"Elementwise ``{public}`` with broadcasting; arrays of different "
                         f"dtypes promote as in 1.9.1 (a float operand wins over an integer one).")
    return fn


add = _make_binary("add", "add", _onp.add, reflect="_npi_add_scalar")
subtract = _make_binary("subtract", "subtract", _onp.subtract)
multiply = _make_binary("multiply", "multiply", _onp.multiply, reflect="_npi_multiply_scalar")
true_divide = _make_binary("true_divide", "true_divide", _onp.true_divide,
                           doc="Elementwise true division; integer inputs give float32.")
divide = true_divide
mod = _make_binary("mod", "mod", _onp.mod)
remainder = mod
power = _make_binary("power", "power", _onp.power)
maximum = _make_binary("maximum", "maximum", _onp.maximum, reflect="_npi_maximum_scalar")
minimum = _make_binary("minimum", "minimum", _onp.minimum, reflect="_npi_minimum_scalar")
equal = _make_binary("equal", "equal", _onp.equal, reflect="_npi_equal_scalar",
                     doc="Elementwise ``==``, a bool array.")
not_equal = _make_binary("not_equal", "not_equal", _onp.not_equal,
                         reflect="_npi_not_equal_scalar", doc="Elementwise ``!=``, a bool array.")
greater = _make_binary("greater", "greater", _onp.greater, reflect="_npi_less_scalar",
                       doc="Elementwise ``>``, a bool array.")
greater_equal = _make_binary("greater_equal", "greater_equal", _onp.greater_equal,
                             reflect="_npi_less_equal_scalar", doc="Elementwise ``>=``, a bool array.")
less = _make_binary("less", "less", _onp.less, reflect="_npi_greater_scalar",
                    doc="Elementwise ``<``, a bool array.")
less_equal = _make_binary("less_equal", "less_equal", _onp.less_equal,
                          reflect="_npi_greater_equal_scalar", doc="Elementwise ``<=``, a bool array.")


# --- unary ----------------------------------------------------------------------------------

def _make_unary(public, opname):
    def fn(x, out=None, **kwargs):
        if kwargs:
            _check_ufunc_kwargs(public, kwargs, unary=True)
        if not isinstance(x, NDArray):
            if isinstance(x, (int, float, _onp.generic)) and not isinstance(x, bool):
                return getattr(_onp, public if public != "fix" else "fix")(x)
            raise TypeError(f"{public}: expected an mxnet.numpy.ndarray or a scalar, got "
                            f"{type(x).__module__}.{type(x).__name__}")
        return _with_out(_call(opname, [x]), out)
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = (f"Elementwise ``{public}``. Integer input keeps its dtype (the value is "
                  f"computed in floating point and cast back), as in 1.9.1.")
    return fn


negative = _make_unary("negative", "_npi_negative")
abs = _make_unary("abs", "_npi_abs")  # noqa: A001
sign = _make_unary("sign", "_npi_sign")
square = _make_unary("square", "_npi_square")
sqrt = _make_unary("sqrt", "_npi_sqrt")
cbrt = _make_unary("cbrt", "_npi_cbrt")
exp = _make_unary("exp", "_npi_exp")
expm1 = _make_unary("expm1", "_npi_expm1")
log = _make_unary("log", "_npi_log")
log2 = _make_unary("log2", "_npi_log2")
log10 = _make_unary("log10", "_npi_log10")
log1p = _make_unary("log1p", "_npi_log1p")
reciprocal = _make_unary("reciprocal", "_npi_reciprocal")
sin = _make_unary("sin", "_npi_sin")
cos = _make_unary("cos", "_npi_cos")
tan = _make_unary("tan", "_npi_tan")
arcsin = _make_unary("arcsin", "_npi_arcsin")
arccos = _make_unary("arccos", "_npi_arccos")
arctan = _make_unary("arctan", "_npi_arctan")
sinh = _make_unary("sinh", "_npi_sinh")
cosh = _make_unary("cosh", "_npi_cosh")
tanh = _make_unary("tanh", "_npi_tanh")
arcsinh = _make_unary("arcsinh", "_npi_arcsinh")
arccosh = _make_unary("arccosh", "_npi_arccosh")
arctanh = _make_unary("arctanh", "_npi_arctanh")
floor = _make_unary("floor", "_npi_floor")
ceil = _make_unary("ceil", "_npi_ceil")
trunc = _make_unary("trunc", "_npi_trunc")
rint = _make_unary("rint", "_npi_rint")
fix = _make_unary("fix", "_npi_fix")
degrees = _make_unary("degrees", "_npi_degrees")
radians = _make_unary("radians", "_npi_radians")
absolute = abs


def clip(a, a_min, a_max, out=None):
    """Values limited to [a_min, a_max] (either bound may be None)."""
    _arr(a, "clip")
    if a_min is None and a_max is None:
        raise ValueError("clip: One of max or min must be given")
    return _with_out(_call("_npi_clip", [a], a_min=None if a_min is None else float(a_min),
                           a_max=None if a_max is None else float(a_max)), out)


# --- reductions -----------------------------------------------------------------------------

def _axis(axis):
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        return tuple(int(a) for a in axis)
    return (int(axis),)


def _make_reduce(public, opname, has_dtype=True, has_ddof=False):
    def fn(a, axis=None, dtype=None, out=None, keepdims=False, ddof=0, **kwargs):
        if kwargs.pop("initial", None) is not None:
            raise MXNetError(f"{public}: the 'initial' argument is not supported yet")
        if kwargs:   # an MXNetError in 1.9.1 (the operator has no such argument)
            raise MXNetTypeError(f"{public}: unsupported keyword arguments {sorted(kwargs)}")
        _arr(a, public)
        kw = {"axis": _axis(axis), "keepdims": bool(keepdims)}
        # an argument the operator lacks: 1.9.1's MXNetError, that is also a TypeError here
        if dtype is not None:
            if not has_dtype:
                raise MXNetTypeError(f"{public}: unexpected argument 'dtype'")
            kw["dtype"] = _onp.dtype(dtype).name
        if has_ddof:
            kw["ddof"] = int(ddof)
        elif ddof:
            raise MXNetTypeError(f"{public}: unexpected argument 'ddof'")
        return _with_out(_call(opname, [a], **kw), out)
    # 1.9.1's positional order differs between the reductions (max: keepdims before out;
    # std/var: ddof before keepdims; sum: keepdims, initial, then out)
    order = _REDUCE_ORDER[public]

    def front(a, *args, **kwargs):
        if len(args) > len(order):
            raise TypeError(f"{public}() takes at most {len(order) + 1} positional arguments "
                            f"({len(args) + 1} given)")
        for name, v in zip(order, args):
            if name in kwargs:
                raise TypeError(f"{public}() got multiple values for argument '{name}'")
            kwargs[name] = v
        return fn(a, **kwargs)
    P = inspect.Parameter
    defaults = {"axis": None, "dtype": None, "out": None, "keepdims": False, "ddof": 0,
                "initial": None}
    front.__signature__ = inspect.Signature(
        [P("a", P.POSITIONAL_OR_KEYWORD)] +
        [P(n, P.POSITIONAL_OR_KEYWORD, default=defaults[n]) for n in order])
    front.__name__ = front.__qualname__ = public
    front.__doc__ = (f"``{public}`` over ``axis`` (an int, a tuple, or None for all axes); a "
                     f"full reduction gives a zero-dim array.")
    return front


_REDUCE_ORDER = {
    "sum": ("axis", "dtype", "keepdims", "initial", "out"),
    "mean": ("axis", "dtype", "out", "keepdims"),
    "prod": ("axis", "dtype", "out", "keepdims"),
    "max": ("axis", "keepdims", "out"),
    "min": ("axis", "keepdims", "out"),
    "std": ("axis", "dtype", "out", "ddof", "keepdims"),
    "var": ("axis", "dtype", "out", "ddof", "keepdims"),
}
sum = _make_reduce("sum", "_npi_sum")  # noqa: A001
mean = _make_reduce("mean", "_npi_mean")
prod = _make_reduce("prod", "_np_prod")
max = _make_reduce("max", "_np_max", has_dtype=False)  # noqa: A001
min = _make_reduce("min", "_np_min", has_dtype=False)  # noqa: A001
amax, amin = max, min
std = _make_reduce("std", "_npi_std", has_ddof=True)
var = _make_reduce("var", "_npi_var", has_ddof=True)


def cumsum(a, axis=None, dtype=None, out=None):
    """Running sums along ``axis`` (over the flattened array when None)."""
    _arr(a, "cumsum")
    kw = {"axis": axis}
    if dtype is not None:
        kw["dtype"] = _onp.dtype(dtype).name
    return _with_out(_call("_np_cumsum", [a], **kw), out)


def argmax(a, axis=None, out=None, keepdims=False):
    """Indices of the maxima (int64), along ``axis`` or over the flattened array."""
    _arr(a, "argmax")
    return _with_out(_call("_npi_argmax", [a], axis=axis, keepdims=keepdims), out)


def argmin(a, axis=None, out=None, keepdims=False):
    """Indices of the minima (int64), along ``axis`` or over the flattened array."""
    _arr(a, "argmin")
    return _with_out(_call("_npi_argmin", [a], axis=axis, keepdims=keepdims), out)


# --- linear algebra -------------------------------------------------------------------------

def tensordot(a, b, axes=2):
    """Sum products over the given axes (an int: the last ``axes`` of a with the first of b)."""
    _arr(a, "tensordot")
    _arr(b, "tensordot")
    if isinstance(axes, (int, _onp.integer)):
        n = int(axes)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise MXNetError(f"tensordot: axes={n} is out of range for shapes {a.shape} and "
                             f"{b.shape}")
        a_ax = tuple(range(a.ndim - n, a.ndim))
        b_ax = tuple(range(n))
    else:
        a_ax, b_ax = axes
        a_ax = (a_ax,) if isinstance(a_ax, int) else tuple(a_ax)
        b_ax = (b_ax,) if isinstance(b_ax, int) else tuple(b_ax)
    return _call("_npi_tensordot", [a, b], a_axes_summed=a_ax, b_axes_summed=b_ax)


def dot(a, b, out=None):
    """NumPy's dot: inner product of vectors, matrix product, or a sum over the last axis of
    ``a`` and the second-to-last of ``b``."""
    for name, v in (("a", a), ("b", b)):
        if not isinstance(v, NDArray):   # 1.9.1 asserts both operands are arrays
            raise MXNetAssertionError(f"dot: argument {name} must be an mxnet.numpy.ndarray, "
                                      f"got {type(v).__name__} {v!r}")
    _arr(a, "dot")
    _arr(b, "dot")
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b, out=out)
    if a.shape[-1] != b.shape[builtins.max(b.ndim - 2, 0)]:
        raise MXNetError(f"dot: shapes {a.shape} and {b.shape} not aligned")
    res = _call("_npi_tensordot", [a, b], a_axes_summed=(a.ndim - 1,),
                b_axes_summed=(builtins.max(b.ndim - 2, 0),))
    return _with_out(res, out)


def _is_num(x):
    return isinstance(x, (int, float, _onp.generic)) and not isinstance(x, _onp.ndarray)


def matmul(a, b, out=None):
    """Matrix product with NumPy's rules: 1-D operands are promoted to matrices and the added
    axis removed afterwards; leading axes broadcast."""
    _arr(a, "matmul")
    _arr(b, "matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    res = _call("_npi_matmul", [a, b])
    return _with_out(res, out)


# --- shape ----------------------------------------------------------------------------------

def reshape(a, newshape, order="C", out=None):
    """The data in a new shape (one -1 is inferred): a new array, as 1.9.1's operator gives."""
    if out is not None:
        return _with_out(reshape(a, newshape, order), out)
    _arr(a, "reshape")
    if order != "C":
        raise NotImplementedError(f"reshape: order={order!r} is not supported; use 'C'")
    if isinstance(newshape, (int, _onp.integer)):
        newshape = (int(newshape),)
    newshape = tuple(int(s) for s in newshape)
    return _call("_np_reshape", [a], newshape=newshape)


def ravel(x, order="C"):
    """The data as a 1-D array."""
    if _is_scalar_num(x):
        return _onp.ravel(x, order)
    return reshape(x, (-1,), order)


def _is_scalar_num(x):
    return isinstance(x, (int, float, _onp.generic)) and not isinstance(x, NDArray)


def transpose(a, axes=None):
    """Permute the axes (reverse them when ``axes`` is None)."""
    _arr(a, "transpose")
    return _call("_np_transpose", [a], axes=None if axes is None else tuple(axes))


def swapaxes(a, axis1, axis2):
    """Interchange two axes."""
    _arr(a, "swapaxes")
    return _call("_npi_swapaxes", [a], dim1=int(axis1), dim2=int(axis2))


def expand_dims(a, axis):
    """Insert a size-1 axis at ``axis``."""
    _arr(a, "expand_dims")
    return _call("_npi_expand_dims", [a], axis=int(axis))


def squeeze(a, axis=None, out=None):
    """Remove size-1 axes (all of them, or those in ``axis``)."""
    _arr(a, "squeeze")
    return _with_out(_call("_np_squeeze", [a], axis=_axis(axis)), out)


def broadcast_to(array, shape):
    """The array broadcast to ``shape``."""
    _arr(array, "broadcast_to")
    shape = (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
    return _call("_np_broadcast_to", [array], shape=shape)


def _seq(arrays, fname):
    arrays = list(arrays)
    for a in arrays:
        _arr(a, fname)
    if not arrays:   # an MXNetError in 1.9.1 (num_args must be at least 1)
        raise MXNetValueError(f"{fname}: need at least one array")
    return arrays


def concatenate(seq, axis=0, out=None):
    """Join arrays along an existing axis (``axis=None`` flattens them first)."""
    arrays = _seq(seq, "concatenate")
    op_kw = {"axis": None if axis is None else int(axis)}
    from ..operator.registry import get_op
    from ..ndarray.ndarray import invoke
    op = get_op("_npi_concatenate")
    res = invoke(op, arrays, op.parse_attrs(dict(op_kw, num_args=len(arrays))), cls=ndarray)
    return _with_out(res, out)


def stack(arrays, axis=0, out=None):
    """Join arrays of one shape along a new axis."""
    arrays = _seq(arrays, "stack")
    from ..operator.registry import get_op
    from ..ndarray.ndarray import invoke
    op = get_op("_npi_stack")
    res = invoke(op, arrays, op.parse_attrs({"axis": int(axis), "num_args": len(arrays)}),
                 cls=ndarray)
    return _with_out(res, out)


def split(ary, indices_or_sections, axis=0):
    """Split into equal sections (an int) or at the given indices; returns a list."""
    _arr(ary, "split")
    if isinstance(indices_or_sections, (int, _onp.integer)):
        if indices_or_sections <= 0:
            raise ValueError("split: number sections must be larger than 0")
        res = _call("_npi_split", [ary], sections=int(indices_or_sections), axis=int(axis))
    elif isinstance(indices_or_sections, (list, tuple)):
        res = _call("_npi_split", [ary], indices=tuple(int(i) for i in indices_or_sections),
                    axis=int(axis))
    else:
        raise ValueError("split: indices_or_sections must be an int or a tuple of ints")
    return list(res) if isinstance(res, list) else [res]


def tile(A, reps):
    """Repeat the whole array ``reps`` times (per axis when a tuple)."""
    _arr(A, "tile")
    reps = (int(reps),) if isinstance(reps, (int, _onp.integer)) else tuple(int(r) for r in reps)
    return _call("_npi_tile", [A], reps=reps)


def repeat(a, repeats, axis=None):
    """Repeat each element ``repeats`` times (along ``axis``, or over the flattened array)."""
    _arr(a, "repeat")
    if not isinstance(repeats, (int, _onp.integer)):
        raise MXNetError("repeat: only an integer number of repeats is supported")
    return _call("_np_repeat", [a], repeats=int(repeats), axis=None if axis is None else int(axis))


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, else of ``y`` (scalars allowed); with the
    condition alone, ``nonzero(condition)``."""
    if x is None and y is None:
        from ._op_more import nonzero
        return nonzero(_arr(condition, "where"))
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    _arr(condition, "where")
    ref = x if isinstance(x, NDArray) else y if isinstance(y, NDArray) else condition
    dt = ref.dtype if isinstance(ref, NDArray) and ref is not condition else _onp.float32
    if not isinstance(x, NDArray):
        x = _full_scalar(x, dt, condition)
    if not isinstance(y, NDArray):
        y = _full_scalar(y, dt, condition)
    return _call("_npi_where", [condition, x, y])


def _full_scalar(v, dt, like):
    from .multiarray import full
    if not _is_num(v):
        raise TypeError(f"where: x and y must be arrays or scalars, got {type(v).__name__}")
    return full((), v, dtype=dt, ctx=like.ctx)


def shape(a):
    """The shape of an array."""
    return _arr(a, "shape").shape


def size(a, axis=None):
    """The number of elements (along ``axis`` when given)."""
    _arr(a, "size")
    return a.size if axis is None else a.shape[axis]


def ndim(a):
    """The number of dimensions."""
    if not isinstance(a, NDArray):
        return _onp.ndim(a)
    return a.ndim


# --- logical, rounding, flip, sorting, joins ----------------------------------------------

def any(a, axis=None, keepdims=False, out=None):  # noqa: A001
    """Whether any element (along ``axis``) is nonzero; a bool array."""
    _arr(a, "any")
    return _with_out(_call("_np_any", [a], axis=_axis(axis), keepdims=bool(keepdims)), out)


def all(a, axis=None, keepdims=False, out=None):  # noqa: A001
    """Whether every element (along ``axis``) is nonzero; a bool array."""
    _arr(a, "all")
    return _with_out(_call("_np_all", [a], axis=_axis(axis), keepdims=bool(keepdims)), out)


isnan = _make_unary("isnan", "_npi_isnan")
isinf = _make_unary("isinf", "_npi_isinf")
isfinite = _make_unary("isfinite", "_npi_isfinite")
logical_not = _make_unary("logical_not", "_npi_logical_not")


def around(x, decimals=0, out=None):
    """Round half to even to ``decimals`` places (the dtype is kept)."""
    if _is_scalar_num(x) and out is None:
        return _onp.around(x, decimals)
    _arr(x, "around")
    return _with_out(_call("_npi_around", [x], decimals=int(decimals)), out)


round = around  # noqa: A001
round_ = around


def flip(m, axis=None, out=None):
    """Reverse the order of elements along ``axis`` (all axes when None)."""
    _arr(m, "flip")
    return _with_out(_call("_npi_flip", [m], axis=_axis(axis)), out)


def sort(a, axis=-1, kind=None, order=None):  # noqa: ARG001  (kind: the sort is stable)
    """A sorted copy along ``axis`` (the flattened array when None)."""
    _arr(a, "sort")
    return _call("_npi_sort", [a], axis=axis)


def argsort(a, axis=-1, kind=None, order=None):  # noqa: ARG001
    """Indices (int64) that sort ``a`` along ``axis`` (stable)."""
    _arr(a, "argsort")
    return _call("_npi_argsort", [a], axis=axis)


def _atleast(a, n):
    while a.ndim < n:
        a = expand_dims(a, 0)
    return a


def hstack(arrays):
    """Join along the second axis (the first for 1-D arrays)."""
    arrays = [_atleast(_arr(a, "hstack"), 1) for a in arrays]
    if arrays and builtins.all(a.ndim == 1 for a in arrays):
        return concatenate(arrays, axis=0)
    return concatenate(arrays, axis=1)


def vstack(arrays, out=None):
    """Join along the first axis, 1-D arrays becoming rows."""
    return _with_out(concatenate([_atleast(_arr(a, "vstack"), 2) for a in arrays], axis=0), out)


def outer(a, b):
    """The outer product of two arrays (flattened first)."""
    _arr(a, "outer")
    _arr(b, "outer")
    return multiply(reshape(a, (-1, 1)) if _mode.recording else a.reshape(-1, 1),
                    reshape(b, (1, -1)))


def moveaxis(a, source, destination):
    """Move one axis to a new position."""
    _arr(a, "moveaxis")
    nd = a.ndim
    src = list(source) if isinstance(source, (list, tuple)) else [source]
    dst = list(destination) if isinstance(destination, (list, tuple)) else [destination]
    if len(src) != len(dst):
        raise ValueError("moveaxis: `source` and `destination` arguments must have the same "
                         "number of elements")
    for ax in src + dst:
        if not -nd <= int(ax) < builtins.max(nd, 1):
            raise MXNetError(f"moveaxis: axis {ax} is out of bounds for array of dimension {nd}")
    src = [int(v) % builtins.max(nd, 1) for v in src]
    dst = [int(v) % builtins.max(nd, 1) for v in dst]
    order = [i for i in range(nd) if i not in src]
    for d, sv in sorted(zip(dst, src)):
        order.insert(d, sv)
    return transpose(a, tuple(order))


def meshgrid(*xi, indexing="xy", sparse=False, copy=True):
    """Coordinate matrices from 1-D coordinate vectors ('xy' or 'ij' indexing); as in 1.9.1,
    only full (``sparse=False``) copies (``copy=True``)."""
    if sparse:
        raise NotImplementedError("meshgrid: sparse=True is not supported")
    if not copy:
        raise NotImplementedError("meshgrid: copy=False is not supported")
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: indexing must be 'xy' or 'ij'")
    xs = [reshape(_arr(x, "meshgrid"), (-1,)) for x in xi]
    n = len(xs)
    shape = [x.shape[0] for x in xs]
    if indexing == "xy" and n > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        pos = i
        if indexing == "xy" and n > 1 and i < 2:
            pos = 1 - i
        view = [1] * n
        view[pos] = x.shape[0]
        out.append(broadcast_to(reshape(x, tuple(view)), tuple(shape)))
    return out
