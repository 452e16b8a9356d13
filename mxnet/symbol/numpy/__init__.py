"""``mx.sym.np``: the ``mx.np`` functions on Symbols (what ``F.np`` is while a NumPy-mode
HybridBlock is traced).

Each function builds the operator node 1.9.1's ``mx.sym.np`` builds, with the same name and
attributes, so exported graphs match 1.9.1's. Functions that only make sense on concrete
arrays (``shape``, ``meshgrid`` ...) are not here, as in 1.9.1.
"""
from __future__ import annotations

import inspect

import numpy as _onp

from ...base import MXNetError
from ..symbol import Symbol
from ._symbol import UNSET, _Symbol, as_np, binary, given, is_scalar, node
from . import linalg, random  # noqa: F401

__all__ = ["_Symbol"]


def _ctx_str(ctx):
    from ...context import current_context
    return str(current_context() if ctx is None else ctx)


def _dt(dtype, default="float32"):
    return _onp.dtype(default if dtype is None else dtype).name


def _export(fn, name=None):
    name = name or fn.__name__
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    globals()[name] = fn
    __all__.append(name)
    return fn


# --- elementwise binary -------------------------------------------------------------------

def _binary_fn(fname, public, reflect=None, reflected_int=False, legacy=None):
    def fn(x1, x2, out=None):  # noqa: ARG001
        return binary(fname, x1, x2, reflect=reflect, reflected_int=reflected_int, legacy=legacy)
    fn.__doc__ = f"Symbolic ``{public}`` of two symbols or a symbol and a scalar."
    return _export(fn, public)


_binary_fn("add", "add", reflect="add", reflected_int=True)
_binary_fn("subtract", "subtract")
_binary_fn("multiply", "multiply", reflect="multiply", reflected_int=True)
_binary_fn("true_divide", "true_divide")
_binary_fn("true_divide", "divide")
_binary_fn("mod", "mod")
_binary_fn("mod", "remainder")
_binary_fn("power", "power")
_binary_fn("maximum", "maximum", legacy=("broadcast_maximum", "_maximum_scalar"))
_binary_fn("minimum", "minimum", legacy=("broadcast_minimum", "_minimum_scalar"))

_REFLECTED_CMP = {"equal": "equal", "not_equal": "not_equal", "greater": "less",
                  "greater_equal": "less_equal", "less": "greater", "less_equal": "greater_equal"}


def _cmp_fn(fname):
    def fn(x1, x2, out=None):  # noqa: ARG001
        if isinstance(x1, _Symbol):
            return x1._cmp(x2, fname, fname)
        if is_scalar(x1) and isinstance(x2, _Symbol):
            return x2._cmp(x1, _REFLECTED_CMP[fname], _REFLECTED_CMP[fname])
        raise TypeError(f"{fname}: operands must be Symbols or numbers")
    fn.__doc__ = f"Symbolic ``{fname}`` (a bool result)."
    return _export(fn, fname)


for _c in _REFLECTED_CMP:
    _cmp_fn(_c)


# --- elementwise unary --------------------------------------------------------------------

_UNARY = ("negative", "sign", "square", "sqrt", "cbrt", "exp", "expm1", "log", "log2", "log10",
          "log1p", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh",
          "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc", "rint",
          "fix", "degrees", "radians", "isnan", "isinf", "isfinite", "logical_not")


def _unary_fn(public, opname):
    def fn(x, out=None, **kwargs):  # noqa: ARG001
        if kwargs:
            raise TypeError(f"{public}: unsupported keyword arguments {sorted(kwargs)}")
        return node(opname, [x], hint=public)
    fn.__doc__ = f"Symbolic elementwise ``{public}``."
    return _export(fn, public)


for _u in _UNARY:
    _unary_fn(_u, f"_npi_{_u}")
_unary_fn("abs", "_npi_absolute")
_unary_fn("absolute", "_npi_absolute")


def clip(a, a_min, a_max, out=None):  # noqa: ARG001
    """Values limited to [a_min, a_max] (the legacy clip operator, as 1.9.1 builds it)."""
    if a_min is None and a_max is None:
        raise ValueError("clip: One of max or min must be given")
    return node("clip", [a], {"a_max": float("inf") if a_max is None else a_max,
                              "a_min": float("-inf") if a_min is None else a_min}, hint="clip")


_export(clip)


# --- reductions ---------------------------------------------------------------------------

# 1.9.1's positional order after the array, per reduction
_REDUCE_ORDER = {"sum": ("axis", "dtype", "keepdims", "initial"),
                 "prod": ("axis", "dtype", "keepdims", "initial"),
                 "product": ("axis", "dtype", "keepdims", "initial"),
                 "max": ("axis", "keepdims", "initial"), "amax": ("axis", "keepdims", "initial"),
                 "min": ("axis", "keepdims", "initial"), "amin": ("axis", "keepdims", "initial"),
                 "any": ("axis", "keepdims"), "all": ("axis", "keepdims"),
                 "sometrue": ("axis", "keepdims")}


def _generated(public, opname, doc):
    """A front end that writes only the parameters it is given (1.9.1's generated ones)."""
    order = _REDUCE_ORDER[public]

    def fn(a, *args, out=None, **kwargs):  # noqa: ARG001
        if len(args) > len(order):
            raise TypeError(f"{public}() takes at most {len(order) + 1} positional arguments")
        for k, v in zip(order, args):
            if k in kwargs:
                raise TypeError(f"{public}() got multiple values for argument '{k}'")
            kwargs[k] = v
        dtype = kwargs.pop("dtype", UNSET)
        params = given(**kwargs)
        if dtype is not UNSET and dtype is not None:
            params["dtype"] = _onp.dtype(dtype).name
        return node(opname, [a], params, hint=public)
    P = inspect.Parameter
    fn.__signature__ = inspect.Signature(
        [P("a", P.POSITIONAL_OR_KEYWORD)]
        + [P(k, P.POSITIONAL_OR_KEYWORD, default=None) for k in order]
        + [P("out", P.KEYWORD_ONLY, default=None)])
    fn.__doc__ = doc
    return _export(fn, public)


_generated("sum", "_np_sum", "Symbolic sum over ``axis`` (all axes by default).")
_generated("prod", "_np_prod", "Symbolic product over ``axis``.")
for _n, _o in (("max", "_np_max"), ("amax", "_np_max"), ("min", "_np_min"), ("amin", "_np_min"),
               ("any", "_np_any"), ("all", "_np_all")):
    _generated(_n, _o, f"Symbolic ``{_n}`` over ``axis``.")


def mean(a, axis=None, dtype=None, out=None, keepdims=False):  # noqa: ARG001
    """Symbolic mean over ``axis``."""
    return a._reduce("_npi_mean", "mean", axis, keepdims, dtype) if isinstance(a, _Symbol) else \
        as_np(a)._reduce("_npi_mean", "mean", axis, keepdims, dtype)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):  # noqa: ARG001
    """Symbolic standard deviation over ``axis``."""
    return as_np(a)._reduce("_npi_std", "std", axis, keepdims, dtype, ddof=ddof)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):  # noqa: ARG001
    """Symbolic variance over ``axis``."""
    return as_np(a)._reduce("_npi_var", "var", axis, keepdims, dtype, ddof=ddof)


def argmax(a, axis=None, out=None):  # noqa: ARG001
    """Symbolic indices of the maxima."""
    return node("_npi_argmax", [a], {"axis": axis, "keepdims": False}, hint="argmax")


def argmin(a, axis=None, out=None):  # noqa: ARG001
    """Symbolic indices of the minima."""
    return node("_npi_argmin", [a], {"axis": axis, "keepdims": False}, hint="argmin")


def cumsum(a, axis=None, dtype=None, out=None):  # noqa: ARG001
    """Symbolic running sums."""
    params = given(axis=axis)
    if dtype is not None:
        params["dtype"] = _onp.dtype(dtype).name
    return node("_np_cumsum", [a], params, hint="cumsum")


for _f in (mean, std, var, argmax, argmin, cumsum):
    _export(_f)


# --- linear algebra -------------------------------------------------------------------------

def dot(a, b, out=None):  # noqa: ARG001
    """Symbolic NumPy dot."""
    return node("_np_dot", [a, b], hint="dot")


def matmul(a, b, out=None):  # noqa: ARG001
    """Symbolic matrix product of two (at least 2-d) symbols."""
    return node("_npi_matmul", [a, b], hint="matmul")


def tensordot(a, b, axes=2):
    """Symbolic tensordot: an int counts axes, a pair of sequences names them."""
    if isinstance(axes, (int, _onp.integer)):
        return node("_npi_tensordot_int_axes", [a, b], {"axes": int(axes)},
                    hint="tensordot_int_axes")
    a_ax, b_ax = axes  # written as given: ([1], [1]) stays "[1]"
    return node("_npi_tensordot", [a, b], {"a_axes_summed": a_ax, "b_axes_summed": b_ax},
                hint="tensordot")


def outer(a, b):
    """Symbolic outer product (both operands flattened first)."""
    return tensordot(as_np(a).flatten(), as_np(b).flatten(), 0)


for _f in (dot, matmul, tensordot, outer):
    _export(_f)


# --- shape ------------------------------------------------------------------------------------

def reshape(a, newshape, order=UNSET):
    """Symbolic NumPy reshape."""
    return node("_np_reshape", [a], {"newshape": newshape, **given(order=order)}, hint="reshape")


def transpose(a, axes=UNSET):
    """Symbolic transpose (axes reversed unless given)."""
    return node("_np_transpose", [a], given(axes=axes), hint="transpose")


def swapaxes(a, axis1, axis2):
    """Symbolic swap of two axes."""
    return node("SwapAxis", [a], {"dim1": axis1, "dim2": axis2}, hint="swapaxes")


def expand_dims(a, axis):
    """Symbolic insertion of a size-1 axis."""
    return node("expand_dims", [a], {"axis": axis}, hint="expand_dims")


def squeeze(a, axis=UNSET):
    """Symbolic removal of size-1 axes."""
    return node("_np_squeeze", [a], given(axis=axis), hint="squeeze")


def broadcast_to(array, shape):
    """Symbolic broadcast to ``shape``."""
    return node("_npi_broadcast_to", [array], {"shape": shape}, hint="broadcast_to")


def tile(A, reps):
    """Symbolic tile."""
    return node("tile", [A], {"reps": reps}, hint="tile")


def repeat(a, repeats, axis=None):
    """Symbolic repeat of each element."""
    return node("repeat", [a], {"repeats": repeats, **given(axis=axis)}, hint="repeat")


def ravel(x, order="C"):  # noqa: ARG001
    """Symbolic flatten to 1-d."""
    return node("_npx_reshape", [x], {"newshape": -1}, hint="reshape")


def moveaxis(a, source, destination):
    """Symbolic move of axes to new positions."""
    return node("_np_moveaxis", [a], {"destination": destination, "source": source},
                hint="moveaxis")


def flip(m, axis=None, out=None):  # noqa: ARG001
    """Symbolic reversal along ``axis``."""
    return node("_npi_flip", [m], {"axis": axis}, hint="flip")


def around(x, decimals=0, out=None):  # noqa: ARG001
    """Symbolic round half to even."""
    return node("_npi_around", [x], {"decimals": decimals}, hint="around")


def sort(a, axis=-1, kind=None, order=None):  # noqa: ARG001  (kind: the sort is stable)
    """Symbolic sort (the legacy sort operator, as 1.9.1 builds it)."""
    if order is not None:
        raise NotImplementedError("order not supported here")
    return node("sort", [a], {"axis": axis, "is_ascend": True}, hint="sort")


def argsort(a, axis=-1, kind=None, order=None):  # noqa: ARG001
    """Symbolic argsort (int64 indices)."""
    if order is not None:
        raise NotImplementedError("order not supported here")
    return node("argsort", [a], {"axis": axis, "dtype": "int64", "is_ascend": True},
                hint="argsort")


def _seq(arrays, fname):
    arrays = list(arrays)
    if not arrays:
        raise ValueError(f"{fname}: need at least one array")
    return arrays


def concatenate(seq, axis=0, out=None):  # noqa: ARG001
    """Symbolic join along an existing axis."""
    seq = _seq(seq, "concatenate")
    return node("_npi_concatenate", seq, {"axis": axis, "num_args": len(seq)},
                hint="concatenate")


def stack(arrays, axis=0, out=None):  # noqa: ARG001
    """Symbolic join along a new axis."""
    arrays = _seq(arrays, "stack")
    return node("_npi_stack", arrays, {"axis": axis, "num_args": len(arrays)}, hint="stack")


def hstack(arrays):
    """Symbolic join along the second axis (the first for 1-d inputs)."""
    arrays = _seq(arrays, "hstack")
    return node("_npi_hstack", arrays, {"num_args": len(arrays)}, hint="hstack")


def vstack(arrays, out=None):  # noqa: ARG001
    """Symbolic join along the first axis (1-d inputs become rows)."""
    arrays = _seq(arrays, "vstack")
    return node("_npi_vstack", arrays, {"num_args": len(arrays)}, hint="vstack")


def split(ary, indices_or_sections, axis=0):
    """Symbolic split; returns a list of symbols."""
    return _split_like("_split_v2", "split", ary, indices_or_sections, axis)


def where(condition, x=None, y=None):
    """Symbolic choice between ``x`` and ``y`` (symbols or scalars) by ``condition``."""
    if x is None or y is None:
        raise MXNetError("where: the one-argument form is not supported on symbols")
    xs, ys = isinstance(x, Symbol), isinstance(y, Symbol)
    if xs and ys:
        return node("_npi_where", [condition, x, y], hint="where")
    if ys:
        return node("_npi_where_lscalar", [condition, y], {"scalar": float(x)},
                    hint="where_lscalar")
    if xs:
        return node("_npi_where_rscalar", [condition, x], {"scalar": float(y)},
                    hint="where_rscalar")
    return node("_npi_where_scalar2", [condition], {"x": float(x), "y": float(y)},
                hint="where_scalar2")


for _f in (reshape, transpose, swapaxes, expand_dims, squeeze, broadcast_to, tile, repeat,
           ravel, moveaxis, flip, around, sort, argsort, concatenate, stack, hstack, vstack,
           split, where):
    _export(_f)
_export(around, "round")
_export(around, "round_")


# --- creation ---------------------------------------------------------------------------------

def zeros(shape, dtype=None, order="C", ctx=None):  # noqa: ARG001
    """A symbol of zeros."""
    return node("_npi_zeros", [], {"ctx": _ctx_str(ctx), "dtype": _dt(dtype), "shape": shape},
                hint="zeros")


def ones(shape, dtype=None, order="C", ctx=None):  # noqa: ARG001
    """A symbol of ones."""
    return node("_npi_ones", [], {"ctx": _ctx_str(ctx), "dtype": _dt(dtype), "shape": shape},
                hint="ones")


def full(shape, fill_value, dtype=None, order="C", ctx=None, out=None):  # noqa: ARG001
    """A symbol filled with ``fill_value``."""
    return node("_full", [], {"ctx": _ctx_str(ctx), "dtype": _dt(dtype), "shape": shape,
                              "value": float(fill_value)}, hint="full")


def empty(shape, dtype=None, order="C", ctx=None):
    """A symbol of the given shape (zero-filled)."""
    return zeros(shape, dtype, order, ctx)


def arange(start, stop=None, step=1, dtype=None, ctx=None):
    """Evenly spaced values in [start, stop)."""
    if stop is None:
        start, stop = 0, start
    return node("_npi_arange", [], {"ctx": _ctx_str(ctx), "dtype": _dt(dtype), "start": start,
                                    "step": step, "stop": stop}, hint="arange")


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0,  # noqa: ARG001
             ctx=None):
    """``num`` evenly spaced values (the legacy _linspace operator, as 1.9.1 builds it)."""
    params = {"ctx": _ctx_str(ctx), "endpoint": endpoint, "num": num, "start": start,
              "stop": stop}
    if dtype is not None:
        params["dtype"] = _dt(dtype)
    return node("_linspace", [], params, hint="linspace")


def eye(N, M=None, k=0, dtype=_onp.float32, ctx=None):
    """A 2-d symbol with ones on the k-th diagonal."""
    params = {"M": M, "N": N, "ctx": _ctx_str(ctx), "k": k}
    if dtype is not None:   # 1.9.1 leaves a None dtype out (the operator's float32)
        params["dtype"] = _dt(dtype)
    return node("_npi_eye", [], params, hint="eye")


def identity(n, dtype=None, ctx=None):
    """The n x n identity matrix."""
    return node("_npi_identity", [], {"ctx": _ctx_str(ctx), "dtype": _dt(dtype),
                                      "shape": (n, n)}, hint="identity")


def _like(fill):
    def fn(a, dtype=None, order="C", ctx=None, out=None):  # noqa: ARG001
        params = {"ctx": _ctx_str(ctx), "fill_value": fill}
        if dtype is not None:
            params["dtype"] = _dt(dtype)
        return node("_npi_full_like", [a], params, hint="full_like")
    return fn


_export(_like(0), "zeros_like")
_export(_like(1), "ones_like")


def full_like(a, fill_value, dtype=None, order="C", ctx=None, out=None):  # noqa: ARG001
    """A symbol of ``fill_value`` with the shape of ``a``."""
    return _like(fill_value)(a, dtype=dtype, ctx=ctx)


for _f in (zeros, ones, full, empty, arange, linspace, eye, identity, full_like):
    _export(_f)



# --- the second slice: indexing, einsum, triangles, joins, elementwise --------------------------

def take(a, indices, axis=None, mode="raise", out=None):  # noqa: ARG001
    """Symbolic take (the legacy take operator; the flattened array when ``axis`` is None)."""
    if axis is None:
        a = node("_npx_reshape", [a], {"newshape": -1}, hint="reshape")
        axis = 0
    return node("take", [a, indices], {"axis": axis, "mode": mode}, hint="take")


def einsum(*operands, optimize=False, out=None):  # noqa: ARG001
    """Symbolic Einstein summation: ``einsum('ij,jk->ik', a, b)``."""
    subscripts, arrays = operands[0], list(operands[1:])
    return node("_npi_einsum", arrays, {"num_args": len(arrays), "optimize": int(bool(optimize)),
                                        "subscripts": subscripts}, hint="einsum")


def tril(m, k=0):
    """Symbolic lower triangle."""
    return node("_npi_tril", [m], {"k": k}, hint="tril")


def diag(v, k=UNSET):
    """Symbolic diagonal / diagonal matrix."""
    return node("_np_diag", [v], given(k=k), hint="diag")


def diagonal(a, offset=UNSET, axis1=UNSET, axis2=UNSET):
    """Symbolic diagonal over two axes."""
    return node("_np_diagonal", [a], given(offset=offset, axis1=axis1, axis2=axis2),
                hint="diagonal")


def trace(a, offset=UNSET, axis1=UNSET, axis2=UNSET, out=None):  # noqa: ARG001
    """Symbolic sum along a diagonal."""
    return node("_np_trace", [a], given(offset=offset, axis1=axis1, axis2=axis2), hint="trace")


def roll(a, shift, axis=UNSET):
    """Symbolic roll."""
    return node("_np_roll", [a], {"shift": shift, **given(axis=axis)}, hint="roll")


def rot90(m, k=1, axes=(0, 1)):
    """Symbolic rotation by 90 degrees ``k`` times."""
    return node("_npi_rot90", [m], {"axes": tuple(axes), "k": k}, hint="rot90")


def pad(x, pad_width, mode="constant", constant_values=0, **kwargs):
    """Symbolic pad (``pad_width`` one (before, after) pair per axis)."""
    if kwargs:
        raise TypeError(f"pad: unsupported keyword arguments {sorted(kwargs)}")
    from ...name import NameManager
    NameManager.current().get(None, "pad")  # 1.9.1's front end uses up one automatic name
    return node("_npi_pad", [x], {"constant_value": constant_values, "mode": mode,
                                  "pad_width": pad_width}, hint="pad")


def column_stack(tup):
    """Symbolic column stack."""
    tup = _seq(tup, "column_stack")
    return node("_npi_column_stack", tup, {"num_args": len(tup)}, hint="column_stack")


def dstack(arrays):
    """Symbolic join along the third axis."""
    arrays = _seq(arrays, "dstack")
    return node("_npi_dstack", arrays, {"num_args": len(arrays)}, hint="dstack")


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """Symbolic replacement of NaN and infinities."""
    return node("_npi_nan_to_num", [x], {"copy": copy, "nan": nan, "neginf": neginf,
                                         "posinf": posinf}, hint="nan_to_num")


def inner(a, b):
    """Symbolic inner product over the last axes."""
    return node("_npi_tensordot", [a, b], {"a_axes_summed": (-1,), "b_axes_summed": (-1,)},
                hint="tensordot")


def vdot(a, b):
    """Symbolic dot product of the flattened inputs."""
    return tensordot(as_np(a).flatten(), as_np(b).flatten(), 1)


def fliplr(m):
    """Symbolic reversal of the second axis."""
    return flip(m, 1)


def flipud(m):
    """Symbolic reversal of the first axis."""
    return flip(m, 0)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):  # noqa: ARG001
    """Symbolic samples evenly spaced on a log scale."""
    params = {"base": base, "ctx": _ctx_str(ctx), "endpoint": endpoint, "num": num,
              "start": start, "stop": stop}
    if dtype is not None:
        params["dtype"] = _dt(dtype)
    return node("_npi_logspace", [], params, hint="logspace")


def _atleast(n):
    def fn(*arys):
        res = node(f"_np_atleast_{n}d", list(arys), {"num_args": len(arys)},
                   hint=f"atleast_{n}d")
        return res if len(arys) == 1 else [res[i] for i in range(len(arys))]
    fn.__doc__ = f"Symbolic atleast_{n}d (a list for several inputs)."
    return fn


for _n in (1, 2, 3):
    _export(_atleast(_n), f"atleast_{_n}d")


def copy(a):
    """Symbolic copy."""
    return node("_np_copy", [a], hint="copy")


def diagflat(v, k=UNSET):
    """Symbolic 2-d array with the flattened input on its k-th diagonal."""
    return node("_np_diagflat", [v], given(k=k), hint="diagflat")


def fabs(x, out=None):  # noqa: ARG001
    """Symbolic absolute value."""
    return node("_npi_absolute", [x], hint="abs")


def row_stack(arrays):
    """Symbolic join along the first axis (as vstack)."""
    return vstack(arrays)


def vsplit(ary, indices_or_sections):
    """Symbolic split along the first axis."""
    return split(ary, indices_or_sections, axis=0)


def array_split(ary, indices_or_sections, axis=0):
    """Symbolic split (equal sections, or at the given indices)."""
    return split(ary, indices_or_sections, axis=axis)


def append(arr, values, axis=None):
    """Symbolic append (both flattened when ``axis`` is None)."""
    return concatenate([arr, values], axis=axis)


def bitwise_not(x, out=None):  # noqa: ARG001
    """Symbolic bitwise NOT of integer (or bool) inputs."""
    return node("_npi_bitwise_not", [x], hint="bitwise_not")


def indices(dimensions, dtype="int32", ctx=None):
    """A symbolic grid of index arrays."""
    attrs = {"ctx": _ctx_str(ctx), "dimensions": tuple(dimensions)}
    if dtype is not None:  # 1.9.1 leaves a None dtype out (the op's default, int32)
        attrs["dtype"] = _dt(dtype)
    return node("_npi_indices", [], attrs, hint="indices")


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """Symbolic sorted unique elements (more outputs with the return_* flags)."""
    res = node("_npi_unique", [ar], {"axis": axis, "return_counts": return_counts,
                                     "return_index": return_index,
                                     "return_inverse": return_inverse}, hint="unique")
    n = 1 + int(return_index) + int(return_inverse) + int(return_counts)
    return res if n == 1 else [res[i] for i in range(n)]


def bincount(x, weights=None, minlength=0):
    """Symbolic counts of non-negative integers (or summed weights)."""
    inputs = [x] if weights is None else [x, weights]
    return node("_npi_bincount", inputs, {"has_weights": weights is not None,
                                          "minlength": minlength}, hint="bincount")


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear",  # noqa: ARG001
               keepdims=False):
    """Symbolic q-th percentile (a scalar ``q``)."""
    if not is_scalar(q):
        raise MXNetError("percentile: only a scalar q is supported on symbols")
    return node("_npi_percentile", [a], {"axis": axis, "interpolation": interpolation,
                                         "keepdims": keepdims, "q_scalar": q},
                hint="percentile")


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear",
             keepdims=False):
    """Symbolic q-th quantile (a scalar ``q`` in [0, 1])."""
    if not is_scalar(q):
        raise MXNetError("quantile: only a scalar q is supported on symbols")
    return percentile(a, q * 100, axis, out, overwrite_input, interpolation, keepdims)


def _window(name):
    def fn(M, dtype=_onp.float32, ctx=None):
        params = {"M": M, "ctx": _ctx_str(ctx)}
        if dtype is not None:   # 1.9.1 leaves a None dtype out (the operator's float32)
            params["dtype"] = _dt(dtype)
        return node(f"_npi_{name}", [], params, hint=name)
    fn.__doc__ = f"The symbolic {name} window of M points."
    return fn


for _w in ("blackman", "hamming", "hanning"):
    _export(_window(_w), _w)
_export(lambda x, out=None: bitwise_not(x), "invert")
_generated("sometrue", "_np_any", "Symbolic ``any`` (1.9.1's alias).")
_generated("product", "_np_prod", "Symbolic ``prod`` (1.9.1's alias).")

for _f in (take, einsum, tril, diag, diagonal, trace, roll, rot90, pad, column_stack, dstack,
           nan_to_num, inner, vdot, fliplr, flipud, logspace, copy, diagflat, fabs, row_stack,
           vsplit, array_split, append, bitwise_not, indices, unique, bincount, percentile,
           quantile):
    _export(_f)
for _b in ("hypot", "arctan2", "copysign", "ldexp", "lcm", "bitwise_and", "bitwise_or",
           "bitwise_xor"):
    _export((lambda nm: lambda x1, x2, out=None: node(f"_npi_{nm}", [x1, x2], hint=nm))(_b), _b)
for _u in ("isposinf", "isneginf"):
    _unary_fn(_u, f"_npi_{_u}")


# --- functions whose 1.9.1 graphs name operators of their own (mxnet/operator/np_sym_extra.py)

def diff(a, n=1, axis=-1, prepend=None, append=None):
    """Symbolic n-th discrete difference along ``axis`` (no prepend/append on symbols)."""
    if prepend is not None or append is not None:
        raise NotImplementedError("prepend and append options are not supported yet")
    return node("_npi_diff", [a], {"axis": axis, "n": n}, hint="diff")


def ediff1d(ary, to_end=None, to_begin=None):
    """Symbolic differences of consecutive elements of the flattened array."""
    inputs = [ary]
    params = {"to_begin_arr_given": isinstance(to_begin, Symbol),
              "to_end_arr_given": isinstance(to_end, Symbol),
              "to_begin_scalar": None if isinstance(to_begin, Symbol) else to_begin,
              "to_end_scalar": None if isinstance(to_end, Symbol) else to_end}
    inputs += [v for v in (to_begin, to_end) if isinstance(v, Symbol)]
    return node("_npi_ediff1d", inputs, params, hint="ediff1d")


def polyval(p, x):
    """Symbolic polynomial with coefficients ``p`` (highest power first) at ``x``."""
    return node("_npi_polyval", [p, x], hint="polyval")


def average(a, axis=None, weights=None, returned=False, out=None):  # noqa: ARG001
    """Symbolic (weighted) average along ``axis``; with ``returned`` also the weights' sum."""
    if weights is None:
        res = node("_npi_average", [a], {"axis": axis, "returned": returned, "weighted": False},
                   hint="average")
    else:
        res = node("_npi_average", [a, weights], {"axis": axis, "returned": returned},
                   hint="average")
    return [res[0], res[1]] if returned else res


def _split_like(opname, hint, ary, indices_or_sections, axis):
    if isinstance(indices_or_sections, (int, _onp.integer)):
        params = {"axis": axis, "indices": [], "sections": int(indices_or_sections),
                  "squeeze_axis": False}
        n = int(indices_or_sections)
    elif isinstance(indices_or_sections, (list, tuple)):
        params = {"axis": axis, "indices": [0] + list(indices_or_sections), "sections": 0,
                  "squeeze_axis": False}
        n = len(indices_or_sections) + 1
    else:
        raise ValueError(f"{hint}: indices_or_sections must be an int or a tuple of ints")
    res = node(opname, [ary], params, hint=hint)
    return [res[i] for i in range(n)] if n > 1 else [res]


def hsplit(ary, indices_or_sections):
    """Symbolic split along the second axis."""
    return _split_like("_npi_hsplit", "hsplit", ary, indices_or_sections, 1)


def dsplit(ary, indices_or_sections):
    """Symbolic split along the third axis."""
    return _split_like("_npi_dsplit", "dsplit", ary, indices_or_sections, 2)


def diag_indices_from(arr):
    """Symbolic (ndim, n) int64 index rows of a square array's diagonal."""
    return node("_npi_diag_indices_from", [arr], hint="diag_indices_from")


def shares_memory(a, b, max_work=None):  # noqa: ARG001
    """Symbolic: whether the two bound arrays share memory (a bool scalar)."""
    return node("_npi_share_memory", [a, b], hint="share_memory")


def may_share_memory(a, b, max_work=None):  # noqa: ARG001
    """Symbolic: whether the two bound arrays may share memory (a bool scalar)."""
    return node("_npi_share_memory", [a, b], hint="share_memory")


def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # noqa: A002
    """Symbolic histogram: (counts, bin edges), 1.9.1's ``_histogram`` operator."""
    if normed is not None or weights is not None or density is not None:
        raise NotImplementedError("histogram: normed, weights and density are not supported "
                                  "on symbols")
    if isinstance(bins, Symbol):
        res = node("_histogram", [a, bins], {}, hint="histogram")
    else:
        if range is None:
            raise ValueError("histogram: range must be given when bins is an integer")
        res = node("_histogram", [a], {"bin_cnt": bins, "range": range}, hint="histogram")
    return [res[0], res[1]]


def _fallback(op_type, inputs, params):
    from ...operator import registry as _registry
    _registry._load_np_ops()   # registers the Python operators with the NumPy-interface ones
    return node("Custom", inputs, dict(params, op_type=op_type), hint="custom")


def resize(a, new_shape):
    """Symbolic resize (repeating the data to fill ``new_shape``): 1.9.1's Python operator."""
    return _fallback("resize_fallback", [a], {"new_shape": new_shape})


def unravel_index(indices, shape, order="C"):  # noqa: ARG001
    """Symbolic unravel_index of integer flat indices: 1.9.1's Python operator."""
    return _fallback("unravel_index_fallback", [indices], {"shape": shape})


def empty_like(prototype, dtype=None, order="C", subok=False, shape=None):
    """Symbolic array shaped like ``prototype`` (zeros here; uninitialised in 1.9.1)."""
    return _fallback("empty_like_fallback", [prototype],
                     {"dtype": dtype, "order": order, "subok": subok, "shape": shape})


for _f in (diff, ediff1d, polyval, average, hsplit, dsplit, diag_indices_from, shares_memory,
           may_share_memory, histogram, resize, unravel_index, empty_like):
    _export(_f)

__all__ += ["linalg", "random"]
