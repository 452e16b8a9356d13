"""Official NumPy functions called on ``mx.np`` arrays: the ``__array_ufunc__`` (NEP 13) and
``__array_function__`` (NEP 18) protocols of :class:`mxnet.numpy.ndarray`.

As in MXNet 1.9.1:

- a NumPy function or ufunc that ``mx.np`` also provides (the names below) runs ``mx.np``'s
  own function, so the result is an ``mx.np.ndarray`` on the inputs' device, with ``mx.np``'s
  dtypes, and autograd records it. Mixing official NumPy arrays into such a call is refused
  (NumPy answers ``TypeError``).
- any other NumPy function or ufunc runs on the host with official NumPy: ``mx.np`` arguments
  are copied to NumPy, and array results come back as ``mx.np.ndarray`` on the first input's
  device (arrays inside a returned tuple or list come back on ``cpu(0)``, as 1.9.1 gives
  them); scalars come back as NumPy gives them. This cannot be recorded by autograd, so it
  raises ``ValueError`` while recording.
- ufunc methods other than calling (``reduce``, ``outer``, ``at`` ...) are not supported.

Legacy ``mx.nd.NDArray`` does not take part in either protocol.

Internal code must not rely on NumPy functions accepting ``mx.np`` arrays: it converts with
``.asnumpy()`` (or uses ``._data``) first.
"""
from __future__ import annotations

import numpy as _onp

from .._mode import mode as _mode
from ..context import Context
from ..ndarray.ndarray import NDArray

# NumPy functions that 1.9.1 hands to mx.np's function of the same name ("linalg." ones to
# mx.np.linalg). Names that NumPy 2 dropped (product, round_, sometrue) and names that are
# ufuncs in NumPy (isfinite, isinf, isnan: they take the ufunc route) find no entry.
_FUNCTION_NAMES = (
    "all", "amax", "amin", "any", "append", "argmax", "argmin", "argsort", "around",
    "array_split", "atleast_1d", "atleast_2d", "atleast_3d", "bincount", "broadcast_arrays",
    "broadcast_to", "clip", "column_stack", "concatenate", "copy", "cumsum", "delete", "diag",
    "diag_indices_from", "diagflat", "diagonal", "diff", "dot", "dsplit", "dstack", "ediff1d",
    "einsum", "empty_like", "expand_dims", "fix", "flip", "fliplr", "flipud", "full_like",
    "hsplit", "hstack", "inner", "insert", "isfinite", "isinf", "isnan", "isneginf", "isposinf",
    "linalg.cholesky", "linalg.eig", "linalg.eigh", "linalg.eigvals", "linalg.eigvalsh",
    "linalg.inv", "linalg.norm", "linalg.pinv", "linalg.solve", "linalg.tensorinv",
    "linalg.tensorsolve", "max", "may_share_memory", "mean", "meshgrid", "min", "nan_to_num",
    "nonzero", "ones_like", "outer", "pad", "percentile", "polyval", "prod", "product",
    "quantile", "ravel", "repeat", "reshape", "resize", "roll", "round", "round_", "shape",
    "shares_memory", "sometrue", "sort", "split", "squeeze", "stack", "std", "sum", "swapaxes",
    "take", "tensordot", "tile", "trace", "transpose", "tril", "unique", "unravel_index", "var",
    "vdot", "vsplit", "vstack", "where", "zeros_like")

# NumPy ufuncs that 1.9.1 hands to mx.np's function of the same name. 1.9.1 matches the ufunc's
# ``__name__``, so the aliases abs, bitwise_not and mod dispatch (as absolute, invert and
# remainder), while NumPy's divide (``numpy.divide`` and ``numpy.true_divide``, whose name is
# "divide") finds no entry and runs with official NumPy.
_UFUNC_NAMES = (
    "abs", "absolute", "add", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2",
    "arctanh", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "cbrt", "ceil",
    "copysign", "cos", "cosh", "degrees", "equal", "exp", "expm1", "fabs", "floor", "greater",
    "greater_equal", "hypot", "invert", "lcm", "less", "less_equal", "log", "log10", "log2",
    "logical_not", "matmul", "maximum", "minimum", "mod", "multiply", "negative", "not_equal",
    "power", "reciprocal", "remainder", "rint", "sign", "sin", "sinh", "sqrt", "square",
    "subtract", "tan", "tanh", "true_divide", "trunc")

_TABLES: list = []


def _lookup(module, dotted):
    for part in dotted.split("."):
        module = getattr(module, part, None)
        if module is None:
            return None
    return module


def _tables():
    """{NumPy function: mx.np function}, {ufunc name: mx.np function}, built on first use
    (mx.np's namespace is complete only once the package has been imported)."""
    if not _TABLES:
        from .. import numpy as mxnp
        funcs, ufuncs = {}, {}
        for name in _FUNCTION_NAMES:
            src, dst = _lookup(_onp, name), _lookup(mxnp, name)
            if src is not None and dst is not None and not isinstance(src, _onp.ufunc):
                funcs[src] = dst
        for name in _UFUNC_NAMES:
            dst = _lookup(mxnp, name)
            if dst is not None:
                ufuncs[name] = dst
        _TABLES[:] = [funcs, ufuncs]
    return _TABLES


def _check_not_recording(name):
    if _mode.recording:
        raise ValueError(f"numpy.{name}: mx.np has no counterpart of this NumPy function, and its "
                         f"fallback to official NumPy cannot be recorded by autograd; call it "
                         f"outside autograd.record()")


def _to_host(value, ctxs):
    from .multiarray import ndarray
    if isinstance(value, ndarray):
        ctxs.append(value.ctx)
        return value.asnumpy()
    if isinstance(value, (list, tuple)):
        return type(value)(_to_host(v, ctxs) for v in value)
    return value


def _to_mx(value, ctx, name):
    """A NumPy result as 1.9.1 hands it back: arrays become mx.np arrays on ``ctx``."""
    from .multiarray import array
    if isinstance(value, _onp.ndarray):
        if value.dtype.kind == "c":
            raise ValueError(f"numpy.{name}: its result has type {value.dtype}, which mx.np does "
                             f"not support")
        if value.dtype.kind not in "biuf":
            raise TypeError(f"numpy.{name}: its result of type {value.dtype} cannot be converted "
                            f"to mx.np.ndarray")
        return array(value, dtype=value.dtype, ctx=ctx)
    if isinstance(value, (int, float, _onp.generic)):
        return value
    if isinstance(value, (list, tuple)):
        items = [_to_mx(v, Context("cpu", 0), name) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    raise TypeError(f"numpy.{name}: its result of type {type(value).__name__} cannot be "
                    f"converted to mx.np.ndarray")


def array_ufunc(ufunc, method, inputs, kwargs):
    """``ndarray.__array_ufunc__``: run ``ufunc`` on arguments that include mx.np arrays."""
    from .multiarray import ndarray
    if method != "__call__":
        return NotImplemented
    name = ufunc.__name__
    if "out" in kwargs:
        out = kwargs["out"]
        if len(out) != 1:
            raise ValueError(f"numpy.{name}: out= must hold exactly one array, got {len(out)}")
        kwargs["out"] = out[0]
    fn = _tables()[1].get(name)
    if fn is not None:
        for x in inputs:
            if isinstance(x, (_onp.ndarray, NDArray)) and not isinstance(x, ndarray):
                raise TypeError(f"numpy.{name}: runs as mx.np.{fn.__name__}, which takes "
                                f"mxnet.numpy.ndarray or Python scalars, got "
                                f"{type(x).__module__}.{type(x).__name__}")
        return fn(*inputs, **kwargs)
    _check_not_recording(name)
    ctxs = []
    host = [_to_host(x, ctxs) for x in inputs]
    out = kwargs.pop("out", None)
    if out is not None and not isinstance(out, ndarray):
        kwargs["out"] = out
    res = _to_mx(ufunc(*host, **kwargs), ctxs[0] if ctxs else None, name)
    return _write_out(out, res, name) if isinstance(out, ndarray) else res


def _write_out(out, res, name):
    """NumPy's result, computed on the host, written into the mx.np array given as out=."""
    from .multiarray import ndarray
    shape = res.shape if isinstance(res, (ndarray, _onp.generic)) else \
        () if isinstance(res, (int, float)) else None
    if shape != out.shape:
        raise ValueError(f"numpy.{name}: result of shape {shape} does not fit out= of shape "
                         f"{out.shape}")
    out[...] = res
    return out


def array_function(func, types, args, kwargs):
    """``ndarray.__array_function__``: run NumPy's ``func`` on arguments that include mx.np
    arrays."""
    from .multiarray import ndarray
    fn = _tables()[0].get(func)
    name = getattr(func, "__name__", str(func))
    if fn is not None:
        if not all(issubclass(t, ndarray) for t in types):
            return NotImplemented     # NumPy then raises TypeError (mixed NumPy/mx.np arrays)
        return fn(*args, **kwargs)
    _check_not_recording(name)
    ctxs = []
    hargs = _to_host(args, ctxs)
    out = kwargs.get("out")
    hkwargs = {k: _to_host(v, ctxs) for k, v in kwargs.items()
               if not (k == "out" and isinstance(v, ndarray))}
    if any(c != ctxs[0] for c in ctxs):
        raise ValueError(f"numpy.{name}: the mx.np arrays given are on different devices "
                         f"({ctxs[0]} and {next(c for c in ctxs if c != ctxs[0])}); copy them "
                         f"to one device first")
    res = func(*hargs, **hkwargs)
    if func is _onp.count_nonzero and isinstance(res, _onp.integer):
        res = int(res)     # NumPy 1.x (1.9.1's) counted into a Python int
    res = _to_mx(res, ctxs[0] if ctxs else None, name)
    return _write_out(out, res, name) if isinstance(out, ndarray) else res

