"""MXNet's structured errors.

:class:`mxnet.base.MXNetError` stays the base of every MXNet error. :func:`register_error`
records an error class under a name so that a message of the form ``"Name: detail"``
(how 1.9.1's native library reports a typed error) can be turned back into that class by
:func:`_error_from_message`; ``ValueError``, ``TypeError``, ``AttributeError``,
``IndexError`` and ``NotImplementedError`` are registered as Python's own classes.
"""
from .base import MXNetError

__all__ = ["MXNetError", "register"]

# registered name -> error class
error_types: dict = {}


def register_error(func_name=None, cls=None):
    """Register an error class under a name.

    ``@register_error`` on a class registers it under its own name;
    ``register_error("Name")`` returns a decorator that registers under ``"Name"``;
    ``register_error("Name", cls)`` registers ``cls`` at once. Returns the class (or the
    decorator).
    """
    if callable(func_name):
        cls = func_name
        func_name = cls.__name__

    def _register(err_cls):
        key = func_name if isinstance(func_name, str) else err_cls.__name__
        error_types[key] = err_cls
        return err_cls

    return _register if cls is None else _register(cls)


register = register_error


def _error_from_message(message):
    """The registered error for ``"Name: detail"`` (``"mxnet.error.Name: ..."`` too), made
    with the whole message; an :class:`MXNetError` when no registered name leads it."""
    first = message.split("\n", 1)[0]
    head, sep, _ = first.partition(":")
    name = head if sep and head and all(c.isalnum() or c in "_." for c in head) else None
    if name is not None and name.startswith("mxnet.error."):
        name = name[len("mxnet.error."):]
    return error_types.get(name, MXNetError)(message)


@register_error
class InternalError(MXNetError):
    """A bug inside MXNet rather than a mistake of the caller; the message gets a hint to
    report it."""

    def __init__(self, msg):
        if "MXNet hint:" not in msg:
            msg += ("\nMXNet hint: You hit an internal error. Please open an issue in "
                    "https://github.com/apache/incubator-mxnet/issues/new/choose"
                    " to report it.")
        super().__init__(msg)


for _cls in (ValueError, TypeError, AttributeError, IndexError, NotImplementedError):
    register_error(_cls.__name__, _cls)
del _cls


def _register_symbol_error():
    from .symbol.symbol import NotImplementedForSymbol
    register_error(NotImplementedForSymbol)


_register_symbol_error()
