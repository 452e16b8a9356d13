"""How engines record an op's failure and report it at the next wait point.

An op that raises gets its exception wrapped in an MXNetError naming the op. That
error object is put on every var the op writes; ops that later touch such a var are
skipped and pass the same object on to the vars they write. A wait point raises it
once: it is then *retired*, which clears it from every var the engine gave it to and
marks the object so that copies made by other layers are ignored as well.
"""
from __future__ import annotations

from ..base import MXNetError

__all__ = ["FailureBook", "op_label", "wrap_error", "is_live", "run_checked"]

_RETIRED = "_mxnet_engine_retired"


def op_label(fn, name):
    """A readable name for an op: its given name, else the callable's name."""
    if name:
        return str(name)
    label = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    return label or repr(fn)


def wrap_error(err, fn, name):
    """Turn an exception raised by an op into an MXNetError that names the op."""
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - a broken __str__ must not hide the failure
        text = repr(err)
    detail = text if isinstance(err, MXNetError) else f"{type(err).__name__}: {text}"
    wrapped = MXNetError(f"operator {op_label(fn, name)} failed: {detail}")
    wrapped.__cause__ = err
    return wrapped


def is_live(exc):
    """True when ``exc`` is a failure that has not been reported yet."""
    return exc is not None and not getattr(exc, _RETIRED, False)


def run_checked(fn, rvars, wvars, name):
    """Run one op whose dependencies are satisfied.

    Returns ``(exc, new)``: ``exc`` is None on success; otherwise it is the error to
    store on the op's written vars, and ``new`` tells whether the op itself failed
    (True) or was skipped because an input already held a failure (False).
    """
    for v in rvars:
        e = v.exc
        if e is not None and is_live(e):
            return e, False
    for v in wvars:
        e = v.exc
        if e is not None and is_live(e):
            return e, False
    try:
        fn()
    except Exception as err:  # noqa: BLE001 - every op failure is deferred
        return wrap_error(err, fn, name), True
    return None, False


class FailureBook:
    """Bookkeeping of unreported failures shared by both engines.

    ``_holders`` maps each unreported error (in the order they were recorded) to
    the vars the engine stored it on. Callers hold the engine's lock.
    """

    def __init__(self):
        self._holders = {}

    def _record(self, exc, wvars, new):
        """Store ``exc`` on ``wvars`` and remember where it went."""
        holders = self._holders.get(exc)
        if holders is None:
            if not wvars and not new:
                return
            holders = self._holders[exc] = []
        for v in wvars:
            v.exc = exc
            holders.append(v)

    def _retire(self, exc):
        """Mark ``exc`` reported and clear it from the vars it was stored on."""
        try:
            setattr(exc, _RETIRED, True)
        except AttributeError:  # pragma: no cover - exotic exception types
            pass
        for v in self._holders.pop(exc, ()):
            if v.exc is exc:
                v.exc = None

    def _take_var_error(self, var):
        """Clear and return the live failure on ``var`` (None if there is none)."""
        exc = var.exc
        if exc is None:
            return None
        var.exc = None
        live = is_live(exc)
        self._retire(exc)
        if not live:
            return None
        if not isinstance(exc, MXNetError):
            exc = wrap_error(exc, None, "unknown")
        return exc

    def _take_all_errors(self):
        """Retire every recorded failure; return the first live one, or None."""
        first = None
        for exc in list(self._holders):
            if first is None and is_live(exc):
                first = exc
            self._retire(exc)
        if first is not None and not isinstance(first, MXNetError):
            first = wrap_error(first, None, "unknown")
        return first
