"""The dependency engine: ops are pushed with the vars they read and write, and run
in an order that respects those dependencies.

Choose the engine with ``MXNET_ENGINE_TYPE`` (read at import): ``NaiveEngine`` runs
every op synchronously; ``ThreadedEngine`` and ``ThreadedEnginePerDevice`` (the
default) run ready ops inline and the rest on worker threads. The module-level
functions always act on the current engine, which :func:`set_engine` can swap.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import threading

from ..base import MXNetError, native_log
from .naive import NaiveEngine
from .threaded import ThreadedEngine
from .var import FnProperty, Var, new_var

__all__ = [
    "Var", "new_var", "FnProperty", "push", "push_async", "wait_for_var", "wait_all",
    "get_engine", "set_engine", "set_bulk_size", "get_bulk_size", "bulk",
    "NaiveEngine", "ThreadedEngine", "ENGINE_TYPES",
]

ENGINE_TYPES = ("NaiveEngine", "ThreadedEngine", "ThreadedEnginePerDevice")
_DEFAULT_TYPE = "ThreadedEnginePerDevice"


def _create_engine(kind, source):
    """Build the engine called ``kind``; ``source`` says where the name came from."""
    if kind == "NaiveEngine":
        return NaiveEngine(kind)
    if kind in ("ThreadedEngine", "ThreadedEnginePerDevice"):
        return ThreadedEngine(kind)
    raise MXNetError(f"{source}: Cannot find Engine {kind} (unknown engine type); "
                     f"accepted values are {', '.join(ENGINE_TYPES)}")


_engine = _create_engine(os.environ.get("MXNET_ENGINE_TYPE") or _DEFAULT_TYPE,
                         "MXNET_ENGINE_TYPE")
if os.environ.get("MXNET_ENGINE_TYPE"):
    # 1.9.1 logs the engine it starts (in its C++ log format, on stderr) when the variable
    # names one; it does so on the engine's first use, this at import
    native_log("../src/engine/engine.cc:54", f"MXNet start using engine: {_engine.name}")


@atexit.register
def _drain_at_exit():
    # Worker threads are daemons; let queued work (saves, copies) finish first.
    # Failures nobody waited for are dropped here, as the program is ending.
    try:
        _engine.wait_all()
    except MXNetError:
        pass


def get_engine():
    """Return the engine that the module-level functions currently use."""
    return _engine


def set_engine(kind):
    """Make a new engine of type ``kind`` current and return the previous type's name.

    The previous engine is drained first. If one of its ops had failed, the swap
    still happens and that failure is then raised.
    """
    global _engine
    new = _create_engine(kind, "set_engine")
    old = _engine
    try:
        old.wait_all()
    finally:
        _engine = new
        stop = getattr(old, "_stop_workers", None)
        if stop is not None:
            stop()
    return old.name


def push(fn, const_vars=(), mutable_vars=(), priority=0, name=None, prop=FnProperty.NORMAL):
    """Schedule ``fn()`` after earlier ops that conflict with it.

    ``fn`` reads the Vars in ``const_vars`` and writes those in ``mutable_vars``.
    Ops sharing a var, one of them writing it, run in push order. A failure of
    ``fn`` is never raised here; it is raised at the next wait point.
    """
    _engine.push(fn, const_vars, mutable_vars, priority, name, prop)


def push_async(fn, const_vars=(), mutable_vars=(), priority=0, name=None, on_skip=None):
    """Schedule an asynchronous op, MXNet's ``PushAsync``.

    Once the op may read ``const_vars`` and write ``mutable_vars`` (after earlier
    conflicting ops), ``fn(on_complete)`` is called, inline or on a worker thread. It
    should only start the work and return; the op keeps its vars until
    ``on_complete()`` (success) or ``on_complete(exc)`` (failure, raised at the next
    wait point) is called, exactly once, from any thread. ``on_complete.release(var)``
    hands one var back before the op ends. When a var the op touches holds a failure,
    ``fn`` is skipped (and ``on_skip(exc)`` called, when given) as :func:`push` skips
    ops. The naive engine blocks here until the op completes.
    """
    _engine.push_async(fn, const_vars, mutable_vars, priority, name, on_skip)


def wait_for_var(var):
    """Block until all pushed ops touching ``var`` are done; raise its failure, if any."""
    _engine.wait_for_var(var)


def wait_all():
    """Block until all pushed ops are done; raise the first failure since the last wait."""
    _engine.wait_all()


# Bulk execution is a scheduling hint in MXNet. It is kept (per thread, as MXNet
# keeps it) so callers work unchanged, but ops are not batched.
_bulk = threading.local()


def get_bulk_size():
    """Return this thread's bulk size (0 when never set)."""
    return getattr(_bulk, "size", 0)


def set_bulk_size(size):
    """Set this thread's bulk size and return the previous value."""
    size = int(size)
    if size < 0:
        raise MXNetError(f"bulk size must be non-negative, got {size}")
    prev = get_bulk_size()
    _bulk.size = size
    return prev


@contextlib.contextmanager
def bulk(size):
    """Context manager: use bulk size ``size`` inside the block, then restore it."""
    prev = set_bulk_size(size)
    try:
        yield
    finally:
        set_bulk_size(prev)
