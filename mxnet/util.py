"""NumPy-semantics switches (``mx.util``): whether arrays are ``mx.np.ndarray`` and shapes
follow NumPy (zero-dim and zero-size arrays allowed).

``npx.set_np()`` turns both on; Gluon reads :func:`is_np_array` to decide which array
class its parameters and data loaders hand out. The switches are process-wide here.
"""
from __future__ import annotations

import functools
import inspect

__all__ = ["is_np_array", "is_np_shape", "set_np", "reset_np", "set_np_shape", "set_np_array",
           "use_np", "use_np_array", "use_np_shape", "np_array", "np_shape"]


class _State:
    array = False
    shape = False


_state = _State()


def is_np_array() -> bool:
    """True while NumPy array semantics are on (``npx.set_np()``)."""
    return _state.array


def is_np_shape() -> bool:
    """True while NumPy shape semantics are on."""
    return _state.shape


# as 1.9.1: the first activation of each semantics in a process is logged (root logger, INFO)
_ACTIVATION_LOG = {
    "array": "NumPy array semantics has been activated in your code. This allows you to use "
             "operators from MXNet NumPy and NumPy Extension modules as well as MXNet NumPy "
             "`ndarray`s.",
    "shape": "NumPy-shape semantics has been activated in your code. This is required for "
             "creating and manipulating scalar and zero-size tensors, which were not supported "
             "in MXNet before, as in the official NumPy library. Please DO NOT manually "
             "deactivate this semantics while using `mxnet.numpy` and `mxnet.numpy_extension` "
             "modules.",
}
_logged_activation = set()


def _log_activation(kind):
    if kind not in _logged_activation:
        _logged_activation.add(kind)
        import logging
        logging.info(_ACTIVATION_LOG[kind])


def set_np_shape(active):
    """Switch NumPy shape semantics; returns the previous setting."""
    if active:
        _log_activation("shape")
    prev, _state.shape = _state.shape, bool(active)
    return prev


def set_np_array(active):
    """Switch NumPy array semantics; returns the previous setting."""
    if active:
        _log_activation("array")
    prev, _state.array = _state.array, bool(active)
    return prev


def set_np(shape=True, array=True):
    """Turn on NumPy semantics: ``shape`` for NumPy shapes, ``array`` for ``mx.np.ndarray``.

    ``array=True`` needs ``shape=True``, as in 1.9.1.
    """
    if not shape and array:
        raise ValueError("NumPy Shape semantics is required in using NumPy array semantics.")
    set_np_array(array)
    set_np_shape(shape)


def reset_np():
    """Turn NumPy semantics off again (the legacy ``mx.nd`` behaviour)."""
    set_np(shape=False, array=False)


class _Scope:
    def __init__(self, shape, array):
        self._shape, self._array = shape, array
        self._prev = None

    def __enter__(self):
        self._prev = (_state.shape, _state.array)
        if self._shape is not None:
            if self._shape:
                _log_activation("shape")   # as 1.9.1 (a scope turning arrays on logs nothing)
            _state.shape = self._shape
        if self._array is not None:
            _state.array = self._array
        return self

    def __exit__(self, *exc):
        _state.shape, _state.array = self._prev


def np_shape(active=True):
    """A ``with`` scope with NumPy shape semantics on (or off)."""
    return _Scope(bool(active), None)


def np_array(active=True):
    """A ``with`` scope with NumPy array semantics on (or off)."""
    return _Scope(None, bool(active))


def _wrap(obj, shape, array):
    if isinstance(obj, type):
        for name, attr in list(vars(obj).items()):
            if inspect.isfunction(attr):
                setattr(obj, name, _wrap(attr, shape, array))
        return obj
    if not callable(obj):
        raise TypeError(f"use_np: expected a function or a class, got {type(obj).__name__}")

    @functools.wraps(obj)
    def wrapper(*args, **kwargs):
        with _Scope(shape, array):
            return obj(*args, **kwargs)
    return wrapper


def use_np_shape(func):
    """Decorator: run a function (or every method of a class) with NumPy shapes on."""
    return _wrap(func, True, None)


def use_np_array(func):
    """Decorator: run a function (or every method of a class) with NumPy arrays on."""
    return _wrap(func, None, True)


def use_np(func):
    """Decorator: run a function (or every method of a class) with NumPy semantics on."""
    return _wrap(func, True, True)


def getenv(name):
    """Return the value of environment variable ``name``, or None when it is unset."""
    import os
    return os.environ.get(name)


def setenv(name, value):
    """Set environment variable ``name`` to ``value`` (None unsets it); returns None.

    1.9.1 sets it in the C library only; here the runtime reads ``os.environ``, so it is
    set there (and so also seen by ``os.environ``).
    """
    import os
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = str(value)


def get_gpu_count():
    """The number of visible GPUs (``mx.context.num_gpus()``)."""
    from .context import num_gpus
    return num_gpus()


def get_gpu_memory(gpu_dev_id):
    """``(free, total)`` bytes of GPU ``gpu_dev_id`` (``mx.context.gpu_memory_info``)."""
    from .context import gpu_memory_info
    return gpu_memory_info(gpu_dev_id)


def set_module(module):
    """A decorator that sets a function's or class's ``__module__`` to ``module``."""
    def deco(obj):
        if module is not None:
            obj.__module__ = module
        return obj
    return deco


def get_cuda_compute_capability(ctx):
    """The CUDA compute capability of GPU context ``ctx`` as an int (e.g. 70 for 7.0)."""
    if getattr(ctx, "device_type", None) != "gpu":
        raise ValueError("Expecting a gpu context to get cuda compute capability, while "
                         f"received ctx {ctx}")
    from .backend import get_backend
    dev = get_backend(ctx).xp.cuda.Device(ctx.device_id)
    major, minor = dev.compute_capability[:-1], dev.compute_capability[-1]
    return int(major) * 10 + int(minor)


_UFUNC_CASTING = ("no", "equiv", "safe", "same_kind", "unsafe")
_UFUNC_DTYPES = ("int8", "uint8", "int32", "int64", "float16", "float32", "float64", "bool")


def np_ufunc_legal_option(key, value):
    """Whether ``value`` is a value NumPy's ufuncs accept for the keyword ``key`` (where,
    casting, order, dtype or subok); False for any other keyword."""
    if key == "where":
        return True
    if key == "casting":
        return value in _UFUNC_CASTING
    if key == "order":
        return isinstance(value, str)
    if key == "dtype":
        import numpy as _np
        if value is None or value is int or value is float or value is bool:
            return False
        try:
            return _np.dtype(value).name in _UFUNC_DTYPES
        except TypeError:
            return False
    if key == "subok":
        return isinstance(value, bool)
    return False


# the ufunc keywords mx.np's functions take, with the only value they support
_UFUNC_DEFAULTS = {"where": True, "casting": "same_kind", "order": "K", "dtype": None,
                   "subok": True}


def _check_ufunc_kwargs(func, kwargs, name_op):
    for key, value in kwargs.items():
        if key not in _UFUNC_DEFAULTS:
            raise TypeError(f"{key} is an invalid keyword to function '{func.__name__}'")
        if value != _UFUNC_DEFAULTS[key] or (key == "dtype" and value is not None):
            where = f" for operator {func.__name__}" if name_op else ""
            raise NotImplementedError(f"{key}={value} is not implemented yet{where}")


def wrap_np_unary_func(func):
    """A decorator for a one-argument ``mx.np`` function: it accepts NumPy's ufunc keywords
    (where, casting, order, dtype, subok) at their defaults only, raising
    NotImplementedError for other values and TypeError for unknown keywords."""
    @functools.wraps(func)
    def wrapper(x, out=None, **kwargs):
        _check_ufunc_kwargs(func, kwargs, True)
        return func(x, out=out)
    return wrapper


def wrap_np_binary_func(func):
    """As :func:`wrap_np_unary_func`, for a two-argument ``mx.np`` function."""
    @functools.wraps(func)
    def wrapper(x1, x2, out=None, **kwargs):
        _check_ufunc_kwargs(func, kwargs, False)
        return func(x1, x2, out=out)
    return wrapper
