"""The synchronous engine: every op runs inside ``push``, in the calling thread.

Useful for debugging (a failing op is easy to find in a profiler or debugger) and
as the reference the threaded engine is tested against. Failures still follow the
deferred contract: they are stored on the written vars and raised at a wait point.
"""
from __future__ import annotations

import threading

from ..base import MXNetError
from .failures import FailureBook, is_live, op_label, run_checked, wrap_error
from .var import FnProperty, split_vars

__all__ = ["NaiveEngine"]


class _NaiveCompletion:
    """The completion of an asynchronous op on the naive engine (see
    :class:`~mxnet.engine.threaded.AsyncCompletion`); ``push_async`` blocks on it."""

    __slots__ = ("_fn", "_name", "_event", "exc", "early", "done")

    def __init__(self, fn, name):
        self._fn, self._name = fn, name
        self._event = threading.Event()
        self.exc = None
        self.early = []   # (var, error) given back early with a failure
        self.done = False

    def __call__(self, exc=None):
        if self.done:
            raise MXNetError(f"asynchronous operator {op_label(self._fn, self._name)}: its "
                             f"completion was called more than once")
        self.done = True
        self.exc = None if exc is None else wrap_error(exc, self._fn, self._name)
        self._event.set()

    def release(self, var, exc=None):
        if exc is not None and not self.done:
            self.early.append((var, wrap_error(exc, self._fn, self._name)))


class NaiveEngine(FailureBook):
    """Engine that runs each op immediately, in push order."""

    name = "NaiveEngine"

    def __init__(self, name="NaiveEngine"):
        super().__init__()
        self.name = name
        self._lock = threading.Lock()

    def push(self, fn, const_vars=(), mutable_vars=(), priority=0, name=None,
             prop=FnProperty.NORMAL):
        """Run ``fn`` now; record its failure on the vars it writes."""
        rvars, wvars = split_vars(const_vars, mutable_vars)
        exc, new = run_checked(fn, rvars, wvars, name)
        if exc is not None:
            with self._lock:
                self._record(exc, wvars, new)

    def push_async(self, fn, const_vars=(), mutable_vars=(), priority=0, name=None,
                   on_skip=None):
        """Call ``fn(completion)`` now and block until ``completion`` is called (from any
        thread); a failure is recorded on the written vars, as for :meth:`push`."""
        rvars, wvars = split_vars(const_vars, mutable_vars)
        for v in rvars + wvars:
            e = v.exc
            if e is not None and is_live(e):
                try:
                    if on_skip is not None:
                        on_skip(e)
                finally:
                    with self._lock:
                        self._record(e, wvars, False)
                return
        done = _NaiveCompletion(fn, name)
        try:
            fn(done)
        except Exception as err:  # noqa: BLE001 - deferred like any op failure
            if not done.done:
                done(err)
        done._event.wait()
        with self._lock:
            for var, err in done.early:
                self._record(err, (var,), True)
            if done.exc is not None:
                self._record(done.exc, wvars, True)

    def wait_for_var(self, var):
        """Nothing is ever pending; raise and clear ``var``'s failure if it has one."""
        if var.exc is None:
            return
        with self._lock:
            exc = self._take_var_error(var)
        if exc is not None:
            raise exc

    def wait_all(self):
        """Raise (and clear) the first failure recorded since the last wait point."""
        if not self._holders:
            return
        with self._lock:
            exc = self._take_all_errors()
        if exc is not None:
            raise exc
