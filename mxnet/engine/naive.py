"""The synchronous engine: every op runs inside ``push``, in the calling thread.

Useful for debugging (a failing op is easy to find in a profiler or debugger) and
as the reference the threaded engine is tested against. Failures still follow the
deferred contract: they are stored on the written vars and raised at a wait point.
"""
from __future__ import annotations

import threading

from .failures import FailureBook, run_checked
from .var import FnProperty, split_vars

__all__ = ["NaiveEngine"]


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
