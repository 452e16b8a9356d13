"""More ``mx.np`` functions: indexing (``take``, ``nonzero``), ``einsum``, triangles and
diagonals, joins and splits, integer and bitwise arithmetic, statistics, polynomials.

Each either runs one registered operator (with its gradient) or is composed from other
``mx.np`` functions, so autograd works through it; the few with data-dependent output
shapes (``unique``, ``nonzero``, ``bincount``, ``histogram``) compute values only.
"""
from __future__ import annotations

import builtins

import numpy as _onp

from ..base import MXNetError
from ..ndarray.ndarray import NDArray, invoke
from ..operator.registry import get_op
from .multiarray import _call, _ctx, _dt, _with_out, array, full, ndarray
from ._op import (_arr, _is_num, concatenate, expand_dims, flip, multiply, reshape, split,
                  subtract, sum, tensordot, transpose)

__all__ = ["take", "einsum", "unique", "pad", "tril", "triu", "diag", "diagonal", "diagflat",
           "trace", "nonzero", "argwhere", "flatnonzero", "floor_divide", "fmod", "logspace",
           "histogram", "bincount", "inner", "vdot", "atleast_1d", "atleast_2d", "atleast_3d",
           "column_stack", "dstack", "row_stack", "hsplit", "vsplit", "dsplit", "array_split",
           "roll", "rot90", "append", "insert", "delete", "resize", "percentile", "quantile",
           "average", "isposinf", "isneginf", "copysign", "hypot", "arctan2", "lcm", "gcd",
           "ldexp", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "invert",
           "polyval", "diag_indices_from", "indices", "may_share_memory", "shares_memory",
           "fabs", "deg2rad", "rad2deg", "fliplr", "flipud", "diff", "ediff1d", "copy",
           "nan_to_num", "sometrue", "product", "broadcast_arrays", "blackman", "hamming",
           "hanning", "unravel_index"]


def _np_arr(x, fname, like=None):
    """``x`` as an mx.np array (numbers become 0-d arrays of ``like``'s dtype)."""
    if isinstance(x, NDArray):
        return x
    if _is_num(x):
        dt = like.dtype if isinstance(like, NDArray) else (
            _onp.bool_ if isinstance(x, bool) else _onp.int64 if isinstance(x, int)
            else _onp.float32)
        return full((), x, dtype=dt, ctx=like.ctx if isinstance(like, NDArray) else None)
    raise TypeError(f"{fname}: expected an mxnet.numpy.ndarray or a number, got "
                    f"{type(x).__module__}.{type(x).__name__}")


def _invoke(name, inputs, **kwargs):
    op = get_op(name)
    return invoke(op, inputs, op.parse_attrs(kwargs), cls=ndarray)


# --- indexing ---------------------------------------------------------------------------------

def take(a, indices, axis=None, mode="raise", out=None):
    """Elements of ``a`` at ``indices`` (along ``axis``, or of the flattened array);
    ``mode`` 'raise', 'wrap' or 'clip' handles indices out of range. Differentiable in
    ``a``."""
    _arr(a, "take")
    if not isinstance(indices, NDArray):
        indices = array(_onp.asarray(indices, dtype=_onp.int64), dtype=_onp.int64, ctx=a.ctx)
    return _with_out(_call("_npi_take", [a, indices], axis=axis, mode=mode), out)


def nonzero(a):
    """A tuple with one int64 index array per axis, of the nonzero elements."""
    _arr(a, "nonzero")
    if a.ndim == 0:   # as 1.9.1: a 0-d array counts as one element
        return nonzero(reshape(a, (1,)))
    idx = _call("_npi_nonzero", [a])
    return tuple(reshape(t, (-1,)) for t in split(transpose(idx), a.ndim, axis=0))


def argwhere(a):
    """The indices of the nonzero elements, one row each (int64, shape (N, a.ndim))."""
    _arr(a, "argwhere")
    idx = _call("_npi_nonzero", [a])
    return idx if a.ndim else reshape(idx, (idx.shape[0], 0))


def flatnonzero(a):
    """Indices of the nonzero elements of the flattened array."""
    return reshape(_call("_npi_nonzero", [reshape(_arr(a, "flatnonzero"), (-1,))]), (-1,))


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    """The sorted unique elements, optionally with first indices, the inverse and counts."""
    _arr(ar, "unique")
    res = _call("_npi_unique", [ar], return_index=return_index, return_inverse=return_inverse,
                return_counts=return_counts, axis=axis)
    return tuple(res) if isinstance(res, list) else res


def einsum(*operands, **kwargs):
    """Einstein summation: ``einsum('ij,jk->ik', a, b)``. Differentiable when no operand
    repeats an index or uses '...'."""
    optimize = kwargs.pop("optimize", False)
    out = kwargs.pop("out", None)
    if kwargs:
        raise TypeError(f"einsum: unexpected keyword arguments {sorted(kwargs)}")
    if not operands or not isinstance(operands[0], str):
        raise MXNetError("einsum: the first argument must be the subscripts string")
    subscripts, arrays = operands[0], [_arr(a, "einsum") for a in operands[1:]]
    res = _invoke("_npi_einsum", arrays, subscripts=subscripts, num_args=len(arrays),
                  optimize=int(bool(optimize)))
    return _with_out(res, out)


# --- triangles, diagonals -----------------------------------------------------------------

def tril(m, k=0):
    """The lower triangle (elements above the k-th diagonal zeroed)."""
    return _call("_npi_tril", [_arr(m, "tril")], k=int(k), lower=True)


def triu(m, k=0):
    """The upper triangle (elements below the k-th diagonal zeroed)."""
    return _call("_npi_tril", [_arr(m, "triu")], k=int(k), lower=False)


def diag(array, k=0):
    """The k-th diagonal of a 2-d array, or a 2-d array with ``array`` on its k-th diagonal."""
    return _call("_np_diag", [_arr(array, "diag")], k=int(k))


def diagflat(array, k=0):
    """A 2-d array with the flattened ``array`` on its k-th diagonal."""
    return diag(reshape(_arr(array, "diagflat"), (-1,)), k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal over ``axis1`` and ``axis2``, moved to the last axis."""
    return _call("_np_diagonal", [_arr(a, "diagonal")], offset=int(offset), axis1=int(axis1),
                 axis2=int(axis2))


def trace(a, offset=0, axis1=0, axis2=1, out=None):
    """The sum along a diagonal."""
    return _with_out(_call("_np_trace", [_arr(a, "trace")], offset=int(offset),
                           axis1=int(axis1), axis2=int(axis2)), out)


def diag_indices_from(arr):
    """Index arrays (int64) reaching the main diagonal of a square n-d array."""
    _arr(arr, "diag_indices_from")
    if arr.ndim < 2 or len(set(arr.shape)) != 1:
        raise ValueError("diag_indices_from: input must be at least 2-d with equal dimensions")
    idx = array(_onp.arange(arr.shape[0]), dtype=_onp.int64, ctx=arr.ctx)
    return tuple(idx for _ in range(arr.ndim))


def indices(dimensions, dtype=_onp.int32, ctx=None):
    """A grid of index arrays, shape (len(dimensions), *dimensions)."""
    dims = tuple(int(d) for d in dimensions)
    op = get_op("_npi_indices")
    dtype = _onp.int32 if dtype is None else dtype  # 1.9.1 leaves a None dtype to the op's
    return invoke(op, [], op.parse_attrs({"dimensions": dims, "dtype": _onp.dtype(dtype).name}),
                  ctx=_ctx(ctx), cls=ndarray)


# --- joins and splits -----------------------------------------------------------------------

def atleast_1d(*arys):
    """Each input with at least one axis (a list for several inputs); always new arrays, as
    1.9.1's operator gives."""
    res = [reshape(_arr(a, "atleast_1d"), (1,) if a.ndim == 0 else a.shape) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys):
    """Each input with at least two axes (new axes in front)."""
    res = [reshape(_arr(a, "atleast_2d"), (1,) * builtins.max(2 - a.ndim, 0) + a.shape)
           for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys):
    """Each input with at least three axes (1-d: (1, n, 1); 2-d: (m, n, 1))."""
    res = []
    for a in arys:
        _arr(a, "atleast_3d")
        shape = {0: (1, 1, 1), 1: (1,) + a.shape + (1,), 2: a.shape + (1,)}.get(a.ndim, a.shape)
        res.append(reshape(a, shape))
    return res[0] if len(res) == 1 else res


def _stacked(name, tup):
    arrays = [_arr(a, name) for a in tup]
    if not arrays:
        raise ValueError(f"{name}: need at least one array")
    return _invoke(f"_npi_{name}", arrays, num_args=len(arrays))


def column_stack(tup):
    """Stack 1-d arrays as columns (2-d arrays as they are) into a 2-d array."""
    return _stacked("column_stack", tup)


def dstack(arrays):
    """Join along the third axis (inputs made at least 3-d)."""
    return _stacked("dstack", arrays)


def row_stack(arrays):
    """Join along the first axis (as vstack)."""
    from ._op import vstack
    return vstack(arrays)


def array_split(ary, indices_or_sections, axis=0):
    """Split into sections that may differ in size by one (or at the given indices)."""
    _arr(ary, "array_split")
    if isinstance(indices_or_sections, (int, _onp.integer)):
        n = int(indices_or_sections)
        if n <= 0:
            raise ValueError("array_split: number sections must be larger than 0")
        length = ary.shape[axis]
        each, extra = divmod(length, n)
        sizes = [each + 1] * extra + [each] * (n - extra)
        points = list(_onp.cumsum(sizes)[:-1])
        return split(ary, [int(p) for p in points], axis=axis) if n > 1 else [ary.copy()]
    return split(ary, list(indices_or_sections), axis=axis)


def hsplit(ary, indices_or_sections):
    """Split along the second axis (the first for 1-d arrays)."""
    _arr(ary, "hsplit")
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    axis = 1 if ary.ndim > 1 else 0
    if isinstance(indices_or_sections, (int, _onp.integer)):
        # 1.9.1's hsplit allows sections that do not divide the axis, as array_split does
        return array_split(ary, indices_or_sections, axis=axis)
    return split(ary, indices_or_sections, axis=axis)


def vsplit(ary, indices_or_sections):
    """Split along the first axis (inputs at least 2-d)."""
    if _arr(ary, "vsplit").ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    """Split along the third axis (inputs at least 3-d)."""
    if _arr(ary, "dsplit").ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, axis=2)


def roll(a, shift, axis=None):
    """Shift elements along ``axis`` (of the flattened array when None), wrapping around."""
    _arr(a, "roll")
    shift = (int(shift),) if isinstance(shift, (int, _onp.integer)) else tuple(shift)
    axis = None if axis is None else (int(axis),) if isinstance(axis, (int, _onp.integer)) \
        else tuple(axis)
    return _call("_np_roll", [a], shift=shift, axis=axis)


def rot90(m, k=1, axes=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    return _call("_npi_rot90", [_arr(m, "rot90")], k=int(k), axes=tuple(axes))


def fliplr(m):
    """Reverse the second axis."""
    if _arr(m, "fliplr").ndim < 2:
        raise ValueError("fliplr: Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    """Reverse the first axis."""
    if _arr(m, "flipud").ndim < 1:
        raise ValueError("flipud: Input must be >= 1-d.")
    return flip(m, 0)


def pad(x, pad_width, mode="constant", **kwargs):
    """Pad each axis by (before, after) elements; ``mode`` as NumPy's (the gradient needs
    'constant')."""
    _arr(x, "pad")
    cv = kwargs.pop("constant_values", 0)
    if kwargs:
        raise TypeError(f"pad: unsupported keyword arguments {sorted(kwargs)}")
    try:
        pw = _onp.broadcast_to(_onp.asarray(pad_width, dtype=_onp.int64), (x.ndim, 2))
    except ValueError:
        raise MXNetError(f"pad: pad_width {pad_width} does not fit an array of shape "
                         f"{x.shape} (one (before, after) pair per axis)") from None
    return _call("_npi_pad", [x], pad_width=tuple(tuple(int(v) for v in r) for r in pw),
                 mode=mode, constant_value=float(cv))


def append(arr, values, axis=None):
    """``values`` joined to the end of ``arr`` (both flattened when ``axis`` is None)."""
    _arr(arr, "append")
    values = _np_arr(values, "append", arr)
    if axis is None:
        return concatenate([reshape(arr, (-1,)), reshape(values, (-1,))], axis=0)
    return concatenate([arr, values], axis=axis)


def _positions(obj, n):
    if isinstance(obj, slice):
        return _onp.arange(n)[obj]
    if isinstance(obj, NDArray):
        obj = obj.asnumpy()
    return _onp.asarray(obj, dtype=_onp.int64)


def delete(arr, obj, axis=None):
    """A copy without the entries at ``obj`` (an int, slice or indices) along ``axis``."""
    _arr(arr, "delete")
    src = reshape(arr, (-1,)) if axis is None else arr
    ax = 0 if axis is None else int(axis) % builtins.max(arr.ndim, 1)
    n = src.shape[ax]
    drop = _positions(obj, n)
    if drop.size and (drop.min() < -n or drop.max() >= n):
        raise IndexError(f"delete: index {drop.tolist()} is out of bounds for axis {ax} with "
                         f"size {n}")
    keep = _onp.setdiff1d(_onp.arange(n), drop % builtins.max(n, 1))
    return take(src, array(keep, dtype=_onp.int64, ctx=arr.ctx), axis=ax)


def insert(arr, obj, values, axis=None):
    """A copy with ``values`` inserted before position ``obj`` (an int, or one position per
    value) along ``axis``."""
    _arr(arr, "insert")
    src = reshape(arr, (-1,)) if axis is None else arr
    ax = 0 if axis is None else int(axis) % builtins.max(arr.ndim, 1)
    n = src.shape[ax]
    values = _np_arr(values, "insert", arr).astype(arr.dtype, copy=False)
    pos = _positions(obj, n + 1)
    if pos.ndim == 0:
        p = int(pos) % (n + 1) if int(pos) < 0 else int(pos)
        if p > n:
            raise IndexError(f"insert: index {int(pos)} is out of bounds for axis {ax} with "
                             f"size {n}")
        vshape = list(src.shape)
        if values.ndim == src.ndim and values.shape[ax] != 1:
            vshape[ax] = values.shape[ax]
        else:
            vshape[ax] = 1
            if values.ndim == src.ndim - 1 or values.ndim == 0 or values.size == 1:
                values = expand_dims(values, ax) if values.ndim == src.ndim - 1 else values
        from ._op import broadcast_to
        vals = broadcast_to(values, tuple(vshape))
        head = take(src, array(_onp.arange(p), dtype=_onp.int64, ctx=arr.ctx), axis=ax)
        tail = take(src, array(_onp.arange(p, n), dtype=_onp.int64, ctx=arr.ctx), axis=ax)
        return concatenate([head, vals, tail], axis=ax)
    # several positions: each value goes before its own position (NumPy's order)
    pos = _onp.where(pos < 0, pos + n, pos)
    k = pos.size
    order = _onp.argsort(pos, kind="stable")
    new_pos = _onp.empty(k, dtype=_onp.int64)
    new_pos[order] = pos[order] + _onp.arange(k)
    old_pos = _onp.setdiff1d(_onp.arange(n + k), new_pos)
    vals = values
    if vals.ndim == 0 or vals.size == 1:
        vshape = list(src.shape)
        vshape[ax] = k
        from ._op import broadcast_to
        vals = broadcast_to(reshape(vals, (1,) * src.ndim) if vals.ndim else vals, tuple(vshape))
    joined = concatenate([src, vals], axis=ax)
    perm = _onp.empty(n + k, dtype=_onp.int64)
    perm[old_pos] = _onp.arange(n)
    perm[new_pos] = n + _onp.arange(k)
    return take(joined, array(perm, dtype=_onp.int64, ctx=arr.ctx), axis=ax)


def resize(a, new_shape):
    """An array of ``new_shape`` filled by repeating the (flattened) data of ``a``."""
    _arr(a, "resize")
    new_shape = (int(new_shape),) if isinstance(new_shape, (int, _onp.integer)) \
        else tuple(int(s) for s in new_shape)
    total = int(_onp.prod(new_shape)) if new_shape else 1
    if a.size == 0 or total == 0:
        return full(new_shape, 0, dtype=a.dtype, ctx=a.ctx)
    idx = array(_onp.arange(total) % a.size, dtype=_onp.int64, ctx=a.ctx)
    return reshape(take(reshape(a, (-1,)), idx), new_shape)


def broadcast_arrays(*args):
    """The inputs broadcast against each other (a list)."""
    from ._op import broadcast_to
    arrays = [_arr(a, "broadcast_arrays") for a in args]
    shape = _onp.broadcast_shapes(*[a.shape for a in arrays])
    return [broadcast_to(a, shape) for a in arrays]


def copy(a, out=None):
    """A copy of ``a`` (written into ``out`` when given)."""
    return _with_out(_arr(a, "copy").copy(), out)


# --- arithmetic ---------------------------------------------------------------------------

def _binary_op(name, opname):
    def fn(x1, x2, out=None):
        if _is_num(x1) and _is_num(x2):
            return getattr(_onp, name)(x1, x2)
        ref = x1 if isinstance(x1, NDArray) else x2
        if (name in _SCALAR_KEEPS_INT and isinstance(ref, NDArray) and ref.dtype.kind in "iub"
                and (_is_num(x1) or _is_num(x2))):
            # 1.9.1: an integer (bool: int64) array with a number keeps the array's dtype; the
            # number is cast to it first (arctan2(int_array, 2.5) uses 2) and the result
            # truncated
            dt = _onp.int64 if ref.dtype.kind == "b" else ref.dtype
            a, b = (v.astype(dt, copy=False) if isinstance(v, NDArray) else
                    full((), v, dtype=dt, ctx=ref.ctx) for v in (x1, x2))
            return _with_out(_call(opname, [a.astype(_onp.float64), b.astype(_onp.float64)]
                                   ).astype(dt), out)
        a, b = _np_arr(x1, name, ref), _np_arr(x2, name, ref)
        return _with_out(_call(opname, [a, b]), out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}`` with broadcasting (numbers take the array's dtype)."
    return fn


_SCALAR_KEEPS_INT = ("hypot", "arctan2", "copysign", "ldexp")
hypot = _binary_op("hypot", "_npi_hypot")
arctan2 = _binary_op("arctan2", "_npi_arctan2")
copysign = _binary_op("copysign", "_npi_copysign")
ldexp = _binary_op("ldexp", "_npi_ldexp")
lcm = _binary_op("lcm", "_npi_lcm")
gcd = _binary_op("gcd", "_npi_gcd")
bitwise_and = _binary_op("bitwise_and", "_npi_bitwise_and")
bitwise_or = _binary_op("bitwise_or", "_npi_bitwise_or")
bitwise_xor = _binary_op("bitwise_xor", "_npi_bitwise_xor")


def floor_divide(x1, x2, out=None):
    """Elementwise floor(x1 / x2) (the quotient's dtype follows the inputs, as NumPy's)."""
    from ._op import floor, true_divide
    if _is_num(x1) and _is_num(x2):
        return _onp.floor_divide(x1, x2)
    ref = x1 if isinstance(x1, NDArray) else x2
    res = floor(true_divide(x1, x2))
    dt = ref.dtype if not isinstance(x1, NDArray) or not isinstance(x2, NDArray) else \
        _onp.result_type(x1.dtype, x2.dtype)
    return _with_out(res.astype(dt, copy=False), out)


def fmod(x1, x2, out=None):
    """Elementwise remainder with the sign of the dividend (C's fmod)."""
    from ._op import abs as _abs
    from ._op import mod, sign
    return _with_out(multiply(sign(_np_arr(x1, "fmod", x2)), mod(_abs(x1), _abs(x2))), out)


def _unary_op(name, opname):
    def fn(x, out=None):
        if _is_num(x) and out is None:   # a Python scalar: NumPy's answer, as 1.9.1
            return getattr(_onp, name)(x)
        return _with_out(_call(opname, [_arr(x, name)]), out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise ``{name}``."
    return fn


isposinf = _unary_op("isposinf", "_npi_isposinf")
isneginf = _unary_op("isneginf", "_npi_isneginf")
bitwise_not = _unary_op("bitwise_not", "_npi_bitwise_not")
invert = bitwise_not


def fabs(x, out=None):
    """Elementwise absolute value; as in 1.9.1, integer input keeps its dtype and boolean
    input gives float32."""
    from ._op import abs as _abs
    if _is_num(x) and out is None:
        return _onp.fabs(x) if isinstance(x, float) else _onp.abs(x)
    _arr(x, "fabs")
    return _with_out(_abs(x if x.dtype.kind in "fiu" else x.astype(_onp.float32)), out)


def deg2rad(x, out=None):
    """Degrees to radians."""
    from ._op import radians
    return radians(x, out=out)


def rad2deg(x, out=None):
    """Radians to degrees."""
    from ._op import degrees
    return degrees(x, out=out)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN replaced by ``nan``, +-inf by the dtype's extremes (or the given values)."""
    if _is_num(x):
        return _onp.nan_to_num(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf)
    _arr(x, "nan_to_num")
    res = _call("_npi_nan_to_num", [x], nan=float(nan),
                posinf=None if posinf is None else float(posinf),
                neginf=None if neginf is None else float(neginf))
    if not copy:
        x._assign(res._data)
        return x
    return res


def sometrue(a, axis=None, keepdims=False, out=None):
    """Whether any element is true (as ``any``)."""
    from ._op import any as _any
    return _any(a, axis=axis, out=out, keepdims=keepdims)


def product(a, axis=None, dtype=None, out=None, keepdims=False):
    """The product of the elements (as ``prod``)."""
    from ._op import prod
    return prod(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims)


# --- products, statistics, polynomials ------------------------------------------------------

def inner(a, b):
    """Sum of products over the last axes of ``a`` and ``b``."""
    _arr(a, "inner")
    _arr(b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def vdot(a, b):
    """The dot product of the two arrays flattened."""
    return tensordot(reshape(_arr(a, "vdot"), (-1,)), reshape(_arr(b, "vdot"), (-1,)), axes=1)


def average(a, axis=None, weights=None, returned=False, out=None):
    """The (weighted) mean along ``axis``; with ``returned=True`` also the sum of weights."""
    from ._op import broadcast_to, mean
    _arr(a, "average")
    if weights is None:
        # integers: 1.9.1 sums in a's dtype (wrapping) and divides rounding toward zero
        avg = mean(a, axis=axis, dtype=a.dtype if a.dtype.kind in "iu" else None)
        # 1.9.1 gives the count as a zero-dim array, whatever the shape of the average
        wsum = full((), a.size / builtins.max(avg.size, 1), dtype=avg.dtype, ctx=a.ctx)
    else:
        w = _arr(weights, "average")
        if w.shape != a.shape:
            if axis is None or w.ndim != 1 or w.shape[0] != a.shape[axis]:
                raise MXNetError(f"average: weights of shape {w.shape} do not fit a of shape "
                                 f"{a.shape} along axis {axis}")
            shape = [1] * a.ndim
            shape[axis] = w.shape[0]
            wsum = sum(w)  # 1.9.1 returns the plain sum of 1-d weights (not broadcast)
            w = broadcast_to(reshape(w, tuple(shape)), a.shape)
        else:
            wsum = None
        from ._op import true_divide
        den = sum(w, axis=axis)
        avg = true_divide(sum(multiply(a, w), axis=axis), den)
        wsum = den if wsum is None else wsum
    if a.dtype.kind in "iu" and (weights is None or w.dtype.kind in "iu"):
        avg = avg.astype(a.dtype)   # 1.9.1 truncates the average of integers to their dtype
    avg = _with_out(avg, out)
    return [avg, wsum] if returned else avg   # 1.9.1 returns a list


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear",  # noqa: ARG001
               keepdims=False):
    """The q-th percentiles (q in [0, 100]) along ``axis`` (values only)."""
    _arr(a, "percentile")
    if isinstance(q, NDArray):
        q = q.asnumpy()
    # 1.9.1 finds the position of a float32 array of q in float32 arithmetic
    q_f32 = isinstance(q, _onp.ndarray) and q.dtype == _onp.float32
    qa = _onp.asarray(q, dtype=_onp.float64)
    axis = None if axis is None else (int(axis),) if isinstance(axis, (int, _onp.integer)) \
        else tuple(axis)
    res = _call("_npi_percentile", [a], q=tuple(qa.reshape(-1).tolist()), q_is_seq=qa.ndim > 0,
                axis=axis, interpolation=interpolation, keepdims=bool(keepdims),
                **({"q_f32": True} if q_f32 else {}))
    if qa.ndim > 1:
        res = reshape(res, qa.shape + res.shape[1:])
    return _with_out(res, out)


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation="linear",
             keepdims=False):
    """The q-th quantiles (q in [0, 1]) along ``axis`` (values only)."""
    if isinstance(q, NDArray):
        q = q.asnumpy()
    qa = _onp.asarray(q, dtype=_onp.float32 if isinstance(q, _onp.ndarray) and
                      q.dtype == _onp.float32 else _onp.float64)
    if qa.size and (qa.min() < 0 or qa.max() > 1):
        raise MXNetError(f"quantile: quantiles must be in the range [0, 1], got {qa.tolist()}")
    return percentile(a, qa * qa.dtype.type(100), axis=axis, out=out, overwrite_input=overwrite_input,
                      interpolation=interpolation, keepdims=keepdims)


def polyval(p, x):
    """The polynomial with coefficients ``p`` (highest power first) at ``x`` (Horner)."""
    _arr(p, "polyval")
    if p.ndim != 1:
        raise MXNetError(f"polyval: p must be 1-d, got shape {p.shape}")
    x = _np_arr(x, "polyval", p)
    res = multiply(x, 0) + p[0] if p.shape[0] else multiply(x, 0)
    for i in range(1, p.shape[0]):
        res = res * x + p[i]
    return res


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along ``axis``."""
    _arr(a, "diff")
    if n < 0:
        raise ValueError(f"diff: order must be non-negative but got {n}")
    ax = int(axis) % builtins.max(a.ndim, 1)
    parts = [v for v in (prepend, a, append) if v is not None]
    if len(parts) > 1:
        from ._op import broadcast_to
        fixed = []
        for v in parts:
            v = _np_arr(v, "diff", a)
            if v.ndim == 0:
                shape = list(a.shape)
                shape[ax] = 1
                v = broadcast_to(v, tuple(shape))
            fixed.append(v)
        a = concatenate(fixed, axis=ax)
    for _ in range(n):
        k = a.shape[ax]
        lo = take(a, array(_onp.arange(0, k - 1), dtype=_onp.int64, ctx=a.ctx), axis=ax)
        hi = take(a, array(_onp.arange(1, k), dtype=_onp.int64, ctx=a.ctx), axis=ax)
        a = subtract(hi, lo)
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened array, with optional ends."""
    flat = reshape(_arr(ary, "ediff1d"), (-1,))
    parts = [diff(flat)]
    if to_begin is not None:
        parts.insert(0, reshape(_np_arr(to_begin, "ediff1d", flat), (-1,)).astype(flat.dtype))
    if to_end is not None:
        parts.append(reshape(_np_arr(to_end, "ediff1d", flat), (-1,)).astype(flat.dtype))
    return concatenate(parts) if len(parts) > 1 else parts[0]


# --- data-dependent shapes --------------------------------------------------------------------

def bincount(x, weights=None, minlength=0):
    """Occurrences of each non-negative integer in ``x`` (or the summed ``weights``)."""
    _arr(x, "bincount")
    inputs = [x] if weights is None else [x, _arr(weights, "bincount")]
    return _invoke("_npi_bincount", inputs, minlength=int(minlength),
                   has_weights=weights is not None)


def histogram(a, bins=10, range=None, normed=None, weights=None, density=None):  # noqa: A002
    """(counts, bin_edges) of ``a`` over ``bins`` equal bins in ``range`` (or given edges)."""
    _arr(a, "histogram")
    if weights is not None or density or normed:
        raise MXNetError("histogram: weights, density and normed are not supported yet")
    if isinstance(bins, NDArray):
        cnt, edges = _invoke("_npi_histogram", [a, bins], bin_cnt=None)
    else:
        cnt, edges = _invoke("_npi_histogram", [a], bin_cnt=int(bins),
                             range=None if range is None else tuple(float(v) for v in range))
    return [cnt, edges]   # 1.9.1 returns a list


# --- creation and memory ------------------------------------------------------------------

def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, ctx=None):
    """``num`` samples evenly spaced on a log scale from base**start to base**stop."""
    if axis != 0:
        raise MXNetError("logspace: only axis=0 is supported")
    op = get_op("_npi_logspace")
    return invoke(op, [], op.parse_attrs({"start": float(start), "stop": float(stop),
                                          "num": int(num), "endpoint": bool(endpoint),
                                          "base": float(base), "dtype": _dt(dtype).name}),
                  ctx=_ctx(ctx), cls=ndarray)


def _window(name):
    def fn(M, dtype=None, ctx=None):
        op = get_op(f"_npi_{name}")
        return invoke(op, [], op.parse_attrs({"M": int(M), "dtype": _dt(dtype).name}),
                      ctx=_ctx(ctx), cls=ndarray)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The {name} window of ``M`` points (float32 unless ``dtype`` is given)."
    return fn


blackman = _window("blackman")
hamming = _window("hamming")
hanning = _window("hanning")


def _buffer(a):
    base = a._data
    while getattr(base, "base", None) is not None:
        base = base.base
    return base


def may_share_memory(a, b, max_work=None):  # noqa: ARG001
    """Whether the two arrays' memory may overlap."""
    return bool(_onp.may_share_memory(_arr(a, "may_share_memory")._data,
                                      _arr(b, "may_share_memory")._data))


def shares_memory(a, b, max_work=None):  # noqa: ARG001
    """Whether the two arrays share memory."""
    return bool(_onp.shares_memory(_arr(a, "shares_memory")._data,
                                   _arr(b, "shares_memory")._data))



def unravel_index(indices, shape, order="C"):
    """The coordinate arrays (int64) of flat ``indices`` in an array of ``shape``."""
    idx = indices.asnumpy() if isinstance(indices, NDArray) else _onp.asarray(indices)
    if idx.dtype.kind not in "iu":
        if idx.size and not _onp.all(_onp.mod(idx, 1) == 0):
            raise TypeError("unravel_index: only int indices permitted")
        idx = idx.astype(_onp.int64)
    res = _onp.unravel_index(idx, tuple(int(s) for s in shape), order=order)
    ctx = indices.ctx if isinstance(indices, NDArray) else None
    if idx.ndim == 0 and not isinstance(indices, NDArray):
        return tuple(int(r) for r in res)
    return tuple(array(_onp.asarray(r), dtype=_onp.int64, ctx=ctx) for r in res)
