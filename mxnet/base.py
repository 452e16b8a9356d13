"""Ground-floor definitions shared by every layer: the error type, MXNet's dtype
table and the string forms MXNet uses for operator attributes."""
from __future__ import annotations

import ast

import numpy as np

__all__ = [
    "MXNetError", "MXNetAssertionError", "MXNetValueError", "MXNetKeyError", "MXNetTypeError",
    "MXNetIndexError",
    "DTYPE_TO_CODE",
    "CODE_TO_DTYPE", "dtype_np", "dtype_name",
    "dtype_code", "parse_attr", "attr_str", "string_types", "numeric_types",
    "integer_types", "mx_real_t",
]


class MXNetError(RuntimeError):
    """The error MXNet raises for anything a user can get wrong."""


# Where 1.9.1 raises a builtin exception (an ``assert``, a ValueError, a KeyError from a name
# table), mxnet-py raises one of these: scripts catching either type keep working.
class MXNetAssertionError(MXNetError, AssertionError):
    """An MXNetError that is also the AssertionError 1.9.1 raises."""


class MXNetValueError(MXNetError, ValueError):
    """An MXNetError that is also the ValueError 1.9.1 raises."""


class MXNetKeyError(MXNetError, KeyError):
    """An MXNetError that is also the KeyError 1.9.1 raises (its message unquoted)."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


class MXNetTypeError(MXNetError, TypeError):
    """An MXNetError that is also the TypeError 1.9.1 raises (e.g. NumPy's, for a bad dtype)."""


class MXNetIndexError(MXNetError, IndexError):
    """An MXNetError that is also the IndexError 1.9.1 raises (e.g. for an unsupported index)."""


class NotImplementedForSymbol(MXNetError):
    """An NDArray-only method was called on a Symbol."""

    def __init__(self, function, alias=None, *args):
        super().__init__()
        self.function = function if isinstance(function, str) else function.__name__
        self.alias = alias
        self.args = [str(type(a)) for a in args]

    def __str__(self):
        msg = f"Function {self.function}"
        if self.alias:
            msg += f' (namely operator "{self.alias}")'
        if self.args:
            msg += f" with arguments ({', '.join(self.args)})"
        return msg + " is not implemented for Symbol and only available in NDArray."


class NotSupportedForSparseNDArray(MXNetError):
    """An NDArray method that a sparse array does not offer (1.9.1's class of that name)."""

    def __init__(self, function, alias=None, *args):
        name = getattr(function, "__name__", str(function))
        super().__init__(f"Function {name} is not supported for SparseNDArray and only "
                         "available in NDArray." if not args else
                         f"Function {name} with arguments ({', '.join(str(type(a)) for a in args)})"
                         " is not supported for SparseNDArray and only available in NDArray.")


string_types = (str,)
numeric_types = (float, int, np.generic)
integer_types = (int, np.integer)
mx_real_t = np.float32

try:  # bfloat16 has no NumPy dtype; ml_dtypes provides one when installed
    from ml_dtypes import bfloat16 as _bfloat16  # type: ignore
    _BF16 = np.dtype(_bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    _BF16 = None

# MXNet's type codes (mshadow's TypeFlag), as written in .params files.
CODE_TO_DTYPE: dict[int, np.dtype] = {
    0: np.dtype(np.float32), 1: np.dtype(np.float64), 2: np.dtype(np.float16),
    3: np.dtype(np.uint8), 4: np.dtype(np.int32), 5: np.dtype(np.int8),
    6: np.dtype(np.int64), 7: np.dtype(np.bool_), 8: np.dtype(np.int16),
    9: np.dtype(np.uint16), 10: np.dtype(np.uint32), 11: np.dtype(np.uint64),
}
if _BF16 is not None:
    CODE_TO_DTYPE[12] = _BF16
DTYPE_TO_CODE: dict[np.dtype, int] = {v: k for k, v in CODE_TO_DTYPE.items()}

_NAME_ALIASES = {"bfloat16": 12, "bool": 7}


def dtype_np(dtype) -> np.dtype:
    """Turn any dtype spelling (string, NumPy type, type code) into a NumPy dtype."""
    if dtype is None:
        return np.dtype(np.float32)
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, int) and not isinstance(dtype, bool):
        try:
            return CODE_TO_DTYPE[dtype]
        except KeyError:
            raise MXNetError(f"unknown MXNet type code {dtype}") from None
    if isinstance(dtype, str) and dtype == "bfloat16":
        if _BF16 is None:
            raise MXNetError("bfloat16 needs the ml_dtypes package")
        return _BF16
    try:
        return np.dtype(dtype)
    except TypeError:
        raise MXNetTypeError(f"unknown dtype {dtype!r}: data type not understood") from None


def dtype_code(dtype) -> int:
    """MXNet's integer type code of a dtype."""
    dt = dtype_np(dtype)
    try:
        return DTYPE_TO_CODE[dt]
    except KeyError:
        raise MXNetError(f"dtype {dt} has no MXNet type code") from None


def dtype_name(dtype) -> str:
    """The name MXNet prints for a dtype ('float32', 'bool', ...)."""
    dt = dtype_np(dtype)
    return "bfloat16" if _BF16 is not None and dt == _BF16 else dt.name


def parse_attr(value: str):
    """Parse one attribute string as MXNet writes it into a Python value.

    ``"(3, 3)"`` gives a tuple, ``"True"`` a bool, ``"None"`` None, ``"[1, 2]"`` a
    list, numbers give numbers; anything else is returned unchanged.
    """
    if not isinstance(value, str):
        return value
    s = value.strip()
    if s in ("True", "true"):
        return True
    if s in ("False", "false"):
        return False
    if s in ("None", ""):
        return None
    try:
        return ast.literal_eval(s)
    except (ValueError, SyntaxError):
        return value


def attr_str(value) -> str:
    """Print a Python value the way MXNet writes attribute strings."""
    if isinstance(value, str):
        return value
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (tuple, list)):
        items = ", ".join(attr_str(v) for v in value)
        if isinstance(value, tuple):
            return f"({items},)" if len(value) == 1 else f"({items})"
        return f"[{items}]"
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return dtype_name(value)
    if isinstance(value, (np.integer,)):
        return str(int(value))
    if isinstance(value, (np.floating,)):
        return repr(float(value))
    return str(value)


def data_dir_default():
    """Where MXNet keeps downloaded data when ``MXNET_HOME`` is unset: ``~/.mxnet``
    (``%APPDATA%\\mxnet`` on Windows)."""
    import os
    import platform
    if platform.system() == "Windows":
        return os.path.join(os.environ.get("APPDATA", ""), "mxnet")
    return os.path.join(os.path.expanduser("~"), ".mxnet")


def data_dir():
    """``MXNET_HOME``, or :func:`data_dir_default` when it is unset."""
    import os
    return os.getenv("MXNET_HOME", data_dir_default())


def native_log(source, message):
    """Write ``message`` to stderr as 1.9.1's C++ core logs it: ``[HH:MM:SS] source: message``
    (``source`` is the file:line that 1.9.1 names)."""
    import sys
    import time
    sys.stderr.write(f"[{time.strftime('%H:%M:%S')}] {source}: {message}\n")


# -- small helpers 1.9.1's mxnet.base also offers ---------------------------------------------

def py_str(x):
    """Bytes from the native library as a str (UTF-8)."""
    return x.decode("utf-8") if isinstance(x, (bytes, bytearray)) else str(x)


def c_str(string):
    """``string`` as a ``ctypes.c_char_p`` (UTF-8)."""
    import ctypes
    return ctypes.c_char_p(string.encode("utf-8"))


def c_str_array(strings):
    """A ctypes array of ``c_char_p`` holding ``strings`` (UTF-8)."""
    import ctypes
    arr = (ctypes.c_char_p * len(strings))()
    arr[:] = [s.encode("utf-8") for s in strings]
    return arr


class classproperty:  # noqa: N801  (1.9.1's name)
    """A read-only property of the class (also seen through its instances)."""

    def __init__(self, func):
        self.func = func

    def __get__(self, obj, owner=None):
        return self.func(owner if owner is not None else type(obj))


def with_metaclass(meta, *bases):
    """A base class made with ``meta``: ``class C(with_metaclass(Meta, Base))``."""
    class _Temporary(meta):
        def __new__(cls, name, this_bases, d):
            return meta(name, bases, d)
    return type.__new__(_Temporary, "temporary_class", (), {})


def build_param_doc(arg_names, arg_types, arg_descs, remove_dup=True):
    """The numpydoc "Parameters" section for the given names, type strings and descriptions
    (a repeated name is listed once unless ``remove_dup`` is False)."""
    seen, lines = set(), []
    for name, typ, desc in zip(arg_names, arg_types, arg_descs):
        if remove_dup and name in seen:
            continue
        seen.add(name)
        entry = f"{name} : {typ}"
        if desc:
            entry += "\n    " + desc
        lines.append(entry)
    return "Parameters\n----------\n" + "\n".join(lines) + "\n"


def add_fileline_to_docstring(module, incursive=True):
    """Append "From:file:line" to the docstrings of ``module``'s functions and classes (and of
    its submodules with ``incursive``), as 1.9.1 does for its generated docs."""
    import inspect
    import sys

    def _add(obj):
        try:
            fname = inspect.getsourcefile(obj)
            line = inspect.getsourcelines(obj)[-1]
        except (TypeError, OSError):
            return
        if obj.__doc__ is not None and "From:" not in obj.__doc__:
            try:
                obj.__doc__ += f"\n\nFrom:{fname}:{line}"
            except (AttributeError, TypeError):
                pass

    if isinstance(module, str):
        module = sys.modules[module]
    for _, obj in inspect.getmembers(module):
        if inspect.isbuiltin(obj):
            continue
        if inspect.isfunction(obj) or inspect.isclass(obj):
            _add(obj)
        elif inspect.ismodule(obj) and incursive and obj.__name__.startswith(
                module.__name__ + "."):
            add_fileline_to_docstring(obj, False)


def __getattr__(name):
    # mxnet.error builds on this module: its registry is reached lazily
    if name in ("register_error", "error_types"):
        from . import error
        return getattr(error, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
