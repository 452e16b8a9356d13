"""``mx.np.ndarray``: an NDArray with NumPy semantics, and the ``mx.np`` functions.

The class adds no state to :class:`~mxnet.ndarray.NDArray`; operators invoked on it return
it again because ``invoke`` gives results the class of their first input. What changes is
the front end: NumPy shapes (zero-dim results), NumPy type promotion, NumPy indexing and
reshape, and a NumPy-style ``repr``.
"""
from __future__ import annotations

import builtins
import numbers

import numpy as _onp

from .._mode import mode as _mode
from ..backend import get_backend
from ..base import DTYPE_TO_CODE, MXNetError, dtype_np
from ..context import Context, current_context
from ..ndarray.ndarray import NDArray, _check_no_recorded_source, _check_not_in_graph, _new, invoke
from ..operator.registry import get_op

__all__ = ["ndarray", "array", "zeros", "ones", "full", "empty", "arange", "linspace", "eye",
           "identity", "zeros_like", "ones_like", "full_like", "empty_like"]

_OPS: dict = {}
_EMPTY: dict = {}


def _op(name):
    op = _OPS.get(name)
    if op is None:
        op = _OPS[name] = get_op(name)
    return op


def _call(name, inputs, **kwargs):
    op = _op(name)
    return invoke(op, inputs, op.parse_attrs(kwargs) if kwargs else op.parse_attrs(_EMPTY),
                  cls=ndarray)


def _is_scalar(v):
    return isinstance(v, (numbers.Number, _onp.generic)) and not isinstance(v, _onp.ndarray)


def _scalar_kw(v, arr=None):
    if arr is not None and arr.dtype.kind in "iub" and isinstance(v, numbers.Real):
        # 1.9.1's imperative calls keep an integer/bool array's integer type with a float
        # scalar (the scalar is cast); the operator with is_int=False would give float64
        return {"scalar": float(v), "is_int": True}
    if isinstance(v, (bool, _onp.bool_)):
        return {"scalar": float(v), "is_int": True}
    if isinstance(v, (numbers.Integral, _onp.integer)):
        return {"scalar": float(v), "is_int": True}
    if isinstance(v, complex):
        raise TypeError("mx.np does not support complex numbers")
    return {"scalar": float(v), "is_int": False}


def _type_error(fname, a, b):
    return TypeError(f"{fname}: operands must be mxnet.numpy.ndarray or Python scalars, got "
                     f"{type(a).__module__}.{type(a).__name__} and "
                     f"{type(b).__module__}.{type(b).__name__}")


def _binary(fname, x1, x2, out=None, reflect=None, pyfn=None):
    """Array-array, array-scalar or scalar-array form of ``_npi_<fname>``."""
    a1, a2 = isinstance(x1, NDArray), isinstance(x2, NDArray)
    if a1 and a2:
        return _with_out(_call(f"_npi_{fname}", [x1, x2]), out)
    if a1 and _is_scalar(x2):
        return _with_out(_call(f"_npi_{fname}_scalar", [x1], **_scalar_kw(x2, x1)), out)
    if a2 and _is_scalar(x1):
        rname = reflect or f"_npi_r{fname}_scalar"
        return _with_out(_call(rname, [x2], **_scalar_kw(x1, x2)), out)
    if _is_scalar(x1) and _is_scalar(x2) and pyfn is not None:
        return pyfn(x1, x2)
    raise _type_error(fname, x1, x2)


def _with_out(res, out):
    if out is None:
        return res
    if not isinstance(out, NDArray):
        raise TypeError(f"out must be an mxnet.numpy.ndarray, got {type(out).__name__}")
    if out.shape != res.shape:
        raise MXNetError(f"out: result of shape {res.shape} does not fit out of shape {out.shape}")
    if out.dtype != res.dtype:   # as 1.9.1: out must already have the result's type
        raise MXNetError(f"out: result of type {res.dtype} cannot be written to out of type "
                         f"{out.dtype}")
    if _mode.recording:
        _check_not_in_graph([out])
    out._assign(res._data)
    return out


def _dtype_out(dt):
    """1.9.1 hands out NumPy dtype objects."""
    return _onp.dtype(dt)


class ndarray(NDArray):  # noqa: N801  (1.9.1's class name)
    """An array with NumPy semantics (``mx.np.ndarray``); a subclass of ``mx.nd.NDArray``."""

    __slots__ = ()
    __hash__ = NDArray.__hash__

    # -- attributes -------------------------------------------------------------------------
    @property
    def dtype(self):
        """The element type as a ``numpy.dtype``."""
        return self._data.dtype

    @property
    def T(self):
        """The array with its axes reversed."""
        return self.transpose()

    # -- conversion -------------------------------------------------------------------------
    def as_nd_ndarray(self):
        """The same data (shared memory) as a legacy ``mx.nd.NDArray``."""
        res = _new(self._data, self._ctx, self._node)
        res._var = self.engine_var
        return res

    def as_np_ndarray(self):
        return self

    def item(self, *args):
        """The element as a Python scalar (one element, or the one at ``args``)."""
        return self.asnumpy().item(*args)

    def tolist(self):
        """The data as nested Python lists."""
        return self.asnumpy().tolist()

    def asscalar(self):
        raise AttributeError("mxnet.numpy.ndarray object has no attribute asscalar; use item()")

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):  # noqa: ARG002
        """A copy cast to ``dtype`` (``self`` when the dtype matches and ``copy=False``)."""
        dt = dtype_np(dtype) if dtype is not None else _onp.dtype(_onp.float32)
        if not copy and self._data.dtype == dt:
            return self
        return _call("Cast", [self], dtype=dt.name)

    def copy(self, order="C"):  # noqa: ARG002
        """A new array with the same data."""
        return _call("_copy", [self])

    # -- python protocol --------------------------------------------------------------------
    def __repr__(self):
        with _onp.printoptions(legacy="1.25"):  # NumPy 1.x's text, as 1.9.1 prints (float16)
            text = repr(self.asnumpy())
        dt = self._data.dtype
        if "dtype=" in text:
            if dt == _onp.float32:
                text = text[:text.rindex(",")] + ")"
        elif dt != _onp.float32 and dt != _onp.bool_:
            text = f"{text[:-1]}, dtype={dt})"
        if self._ctx.device_type != "cpu":
            text = f"{text[:-1]}, ctx={self._ctx})"
        return text

    def __str__(self):
        with _onp.printoptions(legacy="1.25"):
            return str(self.asnumpy())

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:   # as 1.9.1 (and NumPy): only 0-d arrays take a format spec
            raise TypeError(f"ndarray.__format__: format spec {spec!r} applies only to 0-d "
                            f"arrays, got an array of shape {self.shape}")
        return str(self)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for i in range(self.shape[0]):
            yield self[i]

    def __bool__(self):
        if self.size == 1:
            return bool(self.item())
        if self.size == 0:   # 1.9.1 warns and answers False, as NumPy 1.x did
            import warnings
            warnings.warn("bool() of an empty ndarray is ambiguous; it gives False here, "
                          "while NumPy 2 raises an error", DeprecationWarning, stacklevel=2)
            return False
        raise ValueError("The truth value of an ndarray with multiple elements is ambiguous.")

    def __float__(self):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return float(self.item())

    def __int__(self):
        if self.size != 1:
            raise TypeError("only size-1 arrays can be converted to Python scalars")
        return int(self.item())

    def __index__(self):
        if self.ndim != 0 or self._data.dtype.kind not in "iu":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.item())

    def __array__(self, dtype=None, copy=None):
        a = self.asnumpy()
        return a if dtype is None else a.astype(dtype)

    # NumPy's dispatch protocols: official NumPy functions given mx.np arrays run mx.np's
    # function where one exists, else NumPy's on a host copy (see _interop.py)
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from ._interop import array_ufunc
        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from ._interop import array_function
        return array_function(func, types, args, kwargs)

    # -- arithmetic -------------------------------------------------------------------------
    def __add__(self, other):
        return _binary("add", self, other)

    __radd__ = __add__

    def __sub__(self, other):
        return _binary("subtract", self, other)

    def __rsub__(self, other):
        return _binary("subtract", other, self)

    def __mul__(self, other):
        return _binary("multiply", self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return _binary("true_divide", self, other)

    def __rtruediv__(self, other):
        return _binary("true_divide", other, self)

    def __mod__(self, other):
        return _binary("mod", self, other)

    def __rmod__(self, other):
        return _binary("mod", other, self)

    def __pow__(self, other):
        return _binary("power", self, other)

    def __rpow__(self, other):
        return _binary("power", other, self)

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    # bitwise / logical operators (1.9.1 defines no reflected forms: ``1 & a`` raises)
    def __and__(self, other):
        from ._op_more import bitwise_and
        return bitwise_and(self, other)

    def __or__(self, other):
        from ._op_more import bitwise_or
        return bitwise_or(self, other)

    def __xor__(self, other):
        from ._op_more import bitwise_xor
        return bitwise_xor(self, other)

    def __invert__(self):
        from ._op_more import bitwise_not
        return bitwise_not(self)

    def __iand__(self, other):
        return self._inplace_res(self.__and__(other))

    def __ior__(self, other):
        return self._inplace_res(self.__or__(other))

    def __ixor__(self, other):
        return self._inplace_res(self.__xor__(other))

    def _inplace_res(self, res):
        if _mode.recording:
            _check_not_in_graph([self])
        if res.shape != self.shape:
            raise MXNetError(f"bitwise: non-broadcastable output operand with shape "
                             f"{self.shape} doesn't match the broadcast shape {res.shape}")
        self._assign(res._data.astype(self.dtype, copy=False))
        return self

    def __neg__(self):
        if self.dtype == _onp.bool_:   # 1.9.1: -x of a bool array is x * -1 in int64
            return _call("_npi_multiply_scalar", [self], scalar=-1.0, is_int=True)
        return _call("_npi_negative", [self])

    def __abs__(self):
        return _call("_npi_abs", [self])

    def __pos__(self):
        return self

    def __eq__(self, other):
        if other is None:
            return False
        return _binary("equal", self, other, reflect="_npi_equal_scalar")

    def __ne__(self, other):
        if other is None:
            return True
        return _binary("not_equal", self, other, reflect="_npi_not_equal_scalar")

    def __gt__(self, other):
        return _binary("greater", self, other, reflect="_npi_less_scalar")

    def __ge__(self, other):
        return _binary("greater_equal", self, other, reflect="_npi_less_equal_scalar")

    def __lt__(self, other):
        return _binary("less", self, other, reflect="_npi_greater_scalar")

    def __le__(self, other):
        return _binary("less_equal", self, other, reflect="_npi_greater_equal_scalar")

    def _inplace(self, fname, other):
        if _mode.recording:
            _check_not_in_graph([self])
            _check_no_recorded_source(fname, [other])
        res = _binary(fname, self, other)
        if res.shape != self.shape:
            raise MXNetError(f"{fname}: non-broadcastable output operand with shape {self.shape} "
                             f"doesn't match the broadcast shape {res.shape}")
        # as 1.9.1: an array operand whose promoted type differs from this array's, or true
        # division of an integer array, cannot be written back in place (scalars are cast)
        if res.dtype != self.dtype and (isinstance(other, NDArray) or fname == "true_divide"):
            raise MXNetError(f"{fname}: in-place result of type {res.dtype} cannot be stored in "
                             f"this array of type {self.dtype}")
        self._assign(res._data)
        return self

    def __iadd__(self, other):
        return self._inplace("add", other)

    def __isub__(self, other):
        return self._inplace("subtract", other)

    def __imul__(self, other):
        return self._inplace("multiply", other)

    def __itruediv__(self, other):
        return self._inplace("true_divide", other)

    def __imod__(self, other):
        return self._inplace("mod", other)

    # -- indexing ---------------------------------------------------------------------------
    def __getitem__(self, key):
        from .indexing import getitem
        return getitem(self, key)

    def __setitem__(self, key, value):
        from .indexing import setitem
        setitem(self, key, value)

    # -- shape ------------------------------------------------------------------------------
    def reshape(self, *args, order="C", **kwargs):
        """NumPy reshape (one -1 infers a dimension); shares memory outside autograd recording."""
        if "newshape" in kwargs or "shape" in kwargs:
            args = (kwargs.pop("newshape", None) or kwargs.pop("shape"),)
        if kwargs:
            raise TypeError(f"reshape: unexpected keyword arguments {sorted(kwargs)}")
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        shape = tuple(int(s) for s in args)
        return reshape(self, shape, order=order)

    def reshape_view(self, *shape, **kwargs):
        """A view of the same memory in ``shape`` (one -1 is inferred): writes to either
        show in the other, as 1.9.1's."""
        return NDArray.reshape(self, *shape, **kwargs).as_np_ndarray()

    def transpose(self, *axes):
        """The array with permuted axes (reversed when none are given)."""
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = tuple(axes[0])
        elif len(axes) == 1 and axes[0] is None:
            axes = ()
        return transpose(self, axes or None)

    def swapaxes(self, axis1, axis2):
        return swapaxes(self, axis1, axis2)

    def flatten(self, order="C"):  # noqa: ARG002
        """A 1-D copy of the array."""
        return reshape(self, (-1,)).copy()

    def squeeze(self, axis=None):
        return squeeze(self, axis)

    def expand_dims(self, axis):
        return expand_dims(self, axis)

    def repeat(self, repeats, axis=None):
        return repeat(self, repeats, axis)

    def tile(self, reps):
        return tile(self, reps)

    def broadcast_to(self, shape):
        return broadcast_to(self, shape)

    def clip(self, min=None, max=None, out=None):  # noqa: A002
        return clip(self, min, max, out=out)

    def dot(self, b, out=None):
        return dot(self, b, out=out)

    # -- reductions -------------------------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return max(self, axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return min(self, axis=axis, out=out, keepdims=keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def nonzero(self):
        from ._op_more import nonzero
        return nonzero(self)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)

    def argmax(self, axis=None, out=None):
        return argmax(self, axis, out=out)

    def argmin(self, axis=None, out=None):
        return argmin(self, axis, out=out)

    def any(self, axis=None, out=None, keepdims=False):
        return any(self, axis=axis, out=out, keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        return all(self, axis=axis, out=out, keepdims=keepdims)

    def sort(self, axis=-1, kind=None, order=None):  # noqa: ARG002  (kind: the sort is stable)
        """Sort in place along ``axis``."""
        if order is not None:
            raise NotImplementedError("order not supported here")
        self._assign(sort(self, axis)._data)

    def argsort(self, axis=-1, kind=None, order=None):  # noqa: ARG002
        if order is not None:
            raise NotImplementedError("order not supported here")
        return argsort(self, axis)

    def round(self, decimals=0, out=None):
        return around(self, decimals, out)

    def take(self, indices, axis=None, mode="raise"):
        """Elements at ``indices`` (along ``axis``; of the flattened array when None)."""
        from ._op_more import take
        return take(self, indices, axis=axis, mode=mode)

    # Python's round()/math.floor()/math.ceil()/math.trunc() give arrays, as in 1.9.1
    def __round__(self, ndigits=None):
        return around(self, 0 if ndigits is None else ndigits)

    def __floor__(self):
        return _call("_npi_floor", [self])

    def __ceil__(self):
        return _call("_npi_ceil", [self])

    def __trunc__(self):
        return _call("_npi_trunc", [self])

    def as_in_ctx(self, ctx):
        return self.as_in_context(ctx)

    def cumsum(self, axis=None, dtype=None, out=None):
        return cumsum(self, axis, dtype, out)

    def exp(self):
        return exp(self)

    def log(self):
        return log(self)

    def sqrt(self):
        return sqrt(self)

    def abs(self):
        return abs(self)

    def sign(self):
        return sign(self)


ndarray.__module__ = "mxnet.numpy"   # where users find it (1.9.1 prints mxnet.numpy.ndarray)


# legacy NDArray methods that have no NumPy counterpart or NumPy-incompatible semantics:
# blocked here so that no mx.np array silently computes with mx.nd rules
_LEGACY_ONLY = ("asscalar", "broadcast_axes", "broadcast_like", "reshape_like", "slice_axis",
                "slice_like", "pick", "one_hot", "argmax_channel", "topk", "split_v2", "pad",
                "softmax", "log_softmax", "softmin", "relu", "sigmoid", "nansum",
                "nanprod", "flip", "diag", "depth_to_space", "space_to_depth", "shape_array",
                "size_array", "split", "slice", "where", "zeros_like", "ones_like")


def _blocked(name):
    def method(self, *args, **kwargs):
        raise AttributeError(f"mxnet.numpy.ndarray has no method {name!r}; use the mx.np or "
                             f"mx.npx function, or as_nd_ndarray() for the legacy method")
    method.__name__ = name
    return method


for _name in _LEGACY_ONLY:
    if _name != "asscalar":
        setattr(ndarray, _name, _blocked(_name))


# ---------------------------------------------------------------------------------------------
# creation

def _ctx(ctx):
    if ctx is None:
        return current_context()
    return ctx if isinstance(ctx, Context) else Context(ctx)


def _dt(dtype, default=_onp.float32):
    dt = dtype_np(default if dtype is None else dtype)
    if dt not in DTYPE_TO_CODE:   # complex, strings ...: as 1.9.1's creation operators
        raise MXNetError(f"unsupported dtype {dt} (mx.np arrays hold bool, integer and float "
                         "data)")
    return dt


def _shape(shape, fname):
    if isinstance(shape, (int, _onp.integer)):
        shape = (int(shape),)
    try:
        shape = tuple(int(s) for s in shape)
    except TypeError:
        raise TypeError(f"{fname}: shape must be an int or a tuple of ints, got {shape!r}") from None
    if builtins.any(s < 0 for s in shape):
        raise MXNetError(f"{fname}: negative dimensions are not allowed (shape {shape})")
    return shape


def _create(name, ctx, **kwargs):
    ctx = _ctx(ctx)
    op = _op(name)
    return invoke(op, [], op.parse_attrs(kwargs), ctx=ctx, cls=ndarray)


def array(object, dtype=None, ctx=None):  # noqa: A002  (NumPy's argument name)
    """An ``mx.np.ndarray`` from a list, a NumPy array or another array (always a copy).

    Python lists and scalars become float32 unless they hold booleans only; NumPy arrays and
    NDArrays keep their dtype, as in 1.9.1.
    """
    ctx = _ctx(ctx)
    if isinstance(object, NDArray):
        src = object.asnumpy()
    elif isinstance(object, _onp.ndarray):
        src = object
    elif isinstance(object, _onp.generic):   # a NumPy scalar keeps its dtype, as in 1.9.1
        src = _onp.asarray(object)
    else:
        try:
            src = _onp.array(object)
        except ValueError as e:
            raise TypeError(f"array: cannot build an array from {type(object).__name__}: "
                            f"{e}") from None
        if dtype is None:
            src = src.astype(_onp.float32)
    if src.dtype.kind in "OUSVc":
        raise TypeError(f"array: unsupported element type {src.dtype} (numeric data expected)")
    dt = dtype_np(dtype) if dtype is not None else src.dtype
    data = get_backend(ctx).asarray(src, dtype=dt)
    if isinstance(src, _onp.ndarray) and isinstance(data, _onp.ndarray) and \
            _onp.shares_memory(data, src):
        data = data.copy()
    return _new(data, ctx, cls=ndarray)


def zeros(shape, dtype=None, order="C", ctx=None):  # noqa: ARG001
    """An array of zeros (float32 unless ``dtype`` is given)."""
    return _create("_npi_zeros", ctx, shape=_shape(shape, "zeros"), dtype=_dt(dtype).name)


def ones(shape, dtype=None, order="C", ctx=None):  # noqa: ARG001
    """An array of ones (float32 unless ``dtype`` is given)."""
    return _create("_npi_ones", ctx, shape=_shape(shape, "ones"), dtype=_dt(dtype).name)


def empty(shape, dtype=None, order="C", ctx=None):  # noqa: ARG001
    """An uninitialised array (zero-filled here)."""
    return zeros(shape, dtype, ctx=ctx)


def full(shape, fill_value, dtype=None, order="C", ctx=None, out=None):  # noqa: ARG001
    """An array filled with ``fill_value`` (float32 by default, bool for a bool value)."""
    if isinstance(fill_value, NDArray):
        if fill_value.size != 1:   # an array value is broadcast to ``shape`` (as 1.9.1)
            fill = fill_value if dtype is None else fill_value.astype(_dt(dtype), copy=False)
            return _with_out(_call("_np_broadcast_to", [fill], shape=_shape(shape, "full")
                                   ).copy(), out)
        fill_value = fill_value.item()
    if dtype is None and isinstance(fill_value, (bool, _onp.bool_)):
        dtype = _onp.bool_
    res = _create("_npi_full", ctx, shape=_shape(shape, "full"), value=float(fill_value),
                  dtype=_dt(dtype).name)
    return _with_out(res, out)


def _like(a, fname):
    if not isinstance(a, NDArray):
        raise TypeError(f"{fname}: expected an mxnet.numpy.ndarray, got {type(a).__name__}")
    return a


def zeros_like(a, dtype=None, order="C", ctx=None, out=None):  # noqa: ARG001
    """Zeros with the shape (and dtype, unless given) of ``a``."""
    _like(a, "zeros_like")
    return _with_out(zeros(a.shape, dtype or a.dtype, ctx=ctx or a.ctx), out)


def ones_like(a, dtype=None, order="C", ctx=None, out=None):  # noqa: ARG001
    """Ones with the shape (and dtype, unless given) of ``a``."""
    _like(a, "ones_like")
    return _with_out(ones(a.shape, dtype or a.dtype, ctx=ctx or a.ctx), out)


def full_like(a, fill_value, dtype=None, order="C", ctx=None, out=None):  # noqa: ARG001
    """``fill_value`` with the shape (and dtype, unless given) of ``a``."""
    _like(a, "full_like")
    return full(a.shape, fill_value, dtype or a.dtype, ctx=ctx or a.ctx, out=out)


def empty_like(prototype, dtype=None, order="C", subok=False, shape=None):  # noqa: ARG001
    """An array with the shape and dtype of ``prototype`` (zero-filled here)."""
    _like(prototype, "empty_like")
    return zeros(shape or prototype.shape, dtype or prototype.dtype, ctx=prototype.ctx)


def arange(start, stop=None, step=1, dtype=None, ctx=None):
    """Evenly spaced values in [start, stop) (float32 unless ``dtype`` is given)."""
    if stop is None and start is None:
        raise ValueError("arange: start must not be None")
    if step == 0:   # as 1.9.1, a Python-level ZeroDivisionError
        raise ZeroDivisionError("arange: step cannot be 0")
    return _create("_npi_arange", ctx, start=float(start),
                   stop=None if stop is None else float(stop), step=float(step),
                   dtype=_dt(dtype).name)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, ctx=None):
    """``num`` evenly spaced samples from ``start`` to ``stop``."""
    if axis != 0:
        raise MXNetError("linspace: only axis=0 is supported")
    if num < 0:
        raise ValueError(f"linspace: number of samples, {num}, must be non-negative")
    res = _create("_npi_linspace", ctx, start=float(start), stop=float(stop), num=int(num),
                  endpoint=bool(endpoint), dtype=_dt(dtype).name)
    if retstep:
        div = (num - 1) if endpoint else num
        return res, (float(stop) - float(start)) / div if div > 0 else float("nan")
    return res


def eye(N, M=None, k=0, dtype=None, ctx=None, **kwargs):
    """A 2-D array with ones on the k-th diagonal (``device=`` is accepted for ``ctx=``, as
    1.9.1 does here)."""
    if "device" in kwargs:
        dev = kwargs.pop("device")
        ctx = ctx if dev is None else dev
    if kwargs:
        raise TypeError(f"eye: unexpected keyword arguments {sorted(kwargs)}")
    return _create("_npi_eye", ctx, N=int(N), M=None if M is None else int(M), k=int(k),
                   dtype=_dt(dtype).name)


def identity(n, dtype=None, ctx=None):
    """The n x n identity matrix."""
    return eye(n, dtype=dtype, ctx=ctx)


# ---------------------------------------------------------------------------------------------
# function front ends used by the methods above (the rest live in _op.py)

from ._op import (  # noqa: E402,A004
    abs, all, any, argmax, argmin, argsort, around, broadcast_to, clip, cumsum, dot, exp,
    expand_dims, log, matmul, max, mean, min, prod, repeat, reshape, sign, sort, sqrt, squeeze,
    std, sum, swapaxes, tile, transpose, var)
