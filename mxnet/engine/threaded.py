"""The threaded dependency engine.

Per var it keeps what MXNet's ThreadedVar keeps: how many granted reads are still
running, whether a write holds the var, and a FIFO of ops blocked on it. An op waits
for one grant per var it touches; ops sharing a var, one of them writing it, are
granted in push order, while consecutive reads are granted together.

When every grant is available at push time and the op is an ordinary compute op,
it runs inline in the pushing thread: under the GIL a thread hand-off costs more
than a small op. Ops that must wait, and ASYNC / copy ops, run on a small pool of
daemon worker threads (started on first need), higher priority first. A thread
blocked in a wait point helps by running ready ordinary ops itself.

Asynchronous ops (:meth:`ThreadedEngine.push_async`) are granted the same way, but
their callable only starts the work: it gets an :class:`AsyncCompletion` and the op's
grants stay held until that is called, from any thread. ``completion.release(var)``
gives one grant back early (a gradient that is final while the rest is still running).

One lock guards all bookkeeping; the callables themselves run without it.
"""
from __future__ import annotations

import heapq
import itertools
import os
import threading
import weakref
from collections import deque

from ..base import MXNetError
from .failures import FailureBook, is_live, op_label, run_checked, wrap_error
from .var import FnProperty, split_vars

__all__ = ["ThreadedEngine", "AsyncCompletion"]

_NORMAL = FnProperty.NORMAL
# the internal property of ops pushed with push_async (never a public FnProperty value)
_CALLBACK = -1


class _Op:
    """A pushed op that could not run inline."""

    __slots__ = ("fn", "rvars", "wvars", "priority", "name", "prop", "nwait", "on_skip")

    def __init__(self, fn, rvars, wvars, priority, name, prop):
        self.fn = fn
        self.rvars = rvars
        self.wvars = wvars
        self.priority = priority
        self.name = name
        self.prop = prop
        self.nwait = 0
        self.on_skip = None


class AsyncCompletion:
    """Handed to the callable of an asynchronous op: call it once the work is done.

    ``completion()`` reports success, ``completion(exc)`` a failure (stored on the
    vars the op still writes and raised at the next wait point, like any op failure).
    It may be called from any thread, exactly once. ``completion.release(var)`` gives
    back the grant on one of the op's vars before the op ends.
    """

    __slots__ = ("_engine", "_op", "_done", "_lock")

    def __init__(self, eng, op):
        self._engine = eng
        self._op = op
        self._done = False
        self._lock = threading.Lock()

    @property
    def done(self):
        """Whether the op has been completed."""
        return self._done

    def __call__(self, exc=None):
        op = self._op
        with self._lock:
            if self._done:
                raise MXNetError(f"asynchronous operator {op_label(op.fn, op.name)}: its "
                                 f"completion was called more than once")
            self._done = True
        err = None if exc is None else wrap_error(exc, op.fn, op.name)
        self._engine._complete(op, err)

    def release(self, var, exc=None):
        """Give back the op's grant on ``var`` now; ``exc`` (optional) is stored on it when
        the op writes it. Releasing a var the op does not hold (any more) does nothing."""
        op = self._op
        with self._lock:
            if self._done:
                return
            if any(v is var for v in op.wvars):
                op.wvars = tuple(v for v in op.wvars if v is not var)
                write = True
            elif any(v is var for v in op.rvars):
                op.rvars = tuple(v for v in op.rvars if v is not var)
                write = False
            else:
                return
        err = None if exc is None else wrap_error(exc, op.fn, op.name)
        self._engine._release_one(var, write, err)


def _worker_count():
    raw = os.environ.get("MXNET_CPU_WORKER_NTHREADS", "")
    if not raw.strip():
        return 2
    try:
        n = int(raw)
    except ValueError:
        raise MXNetError(f"MXNET_CPU_WORKER_NTHREADS must be an integer, got {raw!r}") from None
    return max(1, n)


def _grant_queued(v, ready):
    """Hand ``v`` to the ops at the head of its queue (called when it is not written)."""
    q = v._queue
    while q:
        op, is_write = q[0]
        if is_write:
            if v._nreads == 0:
                q.popleft()
                v._writing = True
                op.nwait -= 1
                if not op.nwait:
                    ready.append(op)
            return
        q.popleft()
        v._nreads += 1
        op.nwait -= 1
        if not op.nwait:
            ready.append(op)


_ENGINES = weakref.WeakSet()


class ThreadedEngine(FailureBook):
    """Dependency engine with inline fast path and a worker pool for the rest."""

    def __init__(self, name="ThreadedEnginePerDevice", num_workers=None):
        super().__init__()
        self.name = name
        self._nworkers = _worker_count() if num_workers is None else max(1, int(num_workers))
        self._seq = itertools.count()
        self._ready = []  # heap of (-priority, seq, op)
        self._npending = 0
        self._nwaiters = 0
        self._threads = []
        self._generation = 0
        self._init_sync()
        _ENGINES.add(self)

    def _init_sync(self):
        self._lock = threading.Lock()
        self._work_cv = threading.Condition(self._lock)
        self._done_cv = threading.Condition(self._lock)

    # -- pushing ---------------------------------------------------------------
    def push(self, fn, const_vars=(), mutable_vars=(), priority=0, name=None,
             prop=_NORMAL):
        """Schedule ``fn`` after earlier ops on the same vars; run it inline if it can.

        ``const_vars`` and ``mutable_vars`` are sequences of :class:`Var`.
        """
        rvars, wvars = const_vars, mutable_vars
        nr = len(rvars)
        nw = len(wvars)
        if nr + nw > 1:
            # Skip the general de-duplication for the usual unary and binary shapes.
            if nw == 1 and nr == 1:
                dup = rvars[0] is wvars[0]
            elif nw == 1 and nr == 2:
                a, b = rvars
                w = wvars[0]
                dup = a is b or a is w or b is w
            else:
                dup = True
            if dup:
                rvars, wvars = split_vars(rvars, wvars)
        op = None
        nwait = 0
        held = None  # a failure seen on a var while taking its grant
        with self._lock:
            self._npending += 1
            for v in rvars:
                v.npending += 1
                if v._writing or v._queue:
                    if op is None:
                        op = _Op(fn, rvars, wvars, priority, name, prop)
                    if v._queue is None:
                        v._queue = deque()
                    v._queue.append((op, False))
                    nwait += 1
                else:
                    v._nreads += 1
                    if v.exc is not None:
                        held = v.exc
            for v in wvars:
                v.npending += 1
                if v._writing or v._nreads or v._queue:
                    if op is None:
                        op = _Op(fn, rvars, wvars, priority, name, prop)
                    if v._queue is None:
                        v._queue = deque()
                    v._queue.append((op, True))
                    nwait += 1
                else:
                    v._writing = True
                    if v.exc is not None:
                        held = v.exc
            if nwait:
                op.nwait = nwait
                return
            if prop != _NORMAL:
                self._schedule((_Op(fn, rvars, wvars, priority, name, prop),))
                return
        # Hot path: every grant is held, so run here, without the lock.
        if held is not None:
            self._run(fn, rvars, wvars, name)  # the slow path decides whether to skip
            return
        try:
            fn()
        except Exception as err:  # noqa: BLE001 - deferred to the next wait point
            self._finish(rvars, wvars, wrap_error(err, fn, name), True)
            return
        except BaseException as err:  # KeyboardInterrupt etc.: release, then re-raise
            self._finish(rvars, wvars, wrap_error(err, fn, name), True)
            raise
        self._finish(rvars, wvars, None, False)

    def push_async(self, fn, const_vars=(), mutable_vars=(), priority=0, name=None,
                   on_skip=None):
        """Schedule an asynchronous op: once its grants are held, ``fn(completion)`` is
        called (inline when they are free now, else on a worker) and must return soon;
        the grants are held until ``completion`` (an :class:`AsyncCompletion`) is called.

        When a var it touches holds a failure, ``fn`` is not called (``on_skip(exc)`` is,
        when given) and the failure passes on to the vars it writes, as for :meth:`push`.
        """
        rvars, wvars = split_vars(const_vars, mutable_vars)
        op = _Op(fn, rvars, wvars, priority, name, _CALLBACK)
        op.on_skip = on_skip
        nwait = 0
        with self._lock:
            self._npending += 1
            for v in rvars:
                v.npending += 1
                if v._writing or v._queue:
                    if v._queue is None:
                        v._queue = deque()
                    v._queue.append((op, False))
                    nwait += 1
                else:
                    v._nreads += 1
            for v in wvars:
                v.npending += 1
                if v._writing or v._nreads or v._queue:
                    if v._queue is None:
                        v._queue = deque()
                    v._queue.append((op, True))
                    nwait += 1
                else:
                    v._writing = True
            if nwait:
                op.nwait = nwait
                return
        self._start_async(op)

    def _start_async(self, op):
        """Call an asynchronous op's callable (its grants are held)."""
        for v in op.rvars + op.wvars:
            e = v.exc
            if e is not None and is_live(e):
                try:
                    if op.on_skip is not None:
                        op.on_skip(e)
                finally:
                    self._finish(op.rvars, op.wvars, e, False)
                return
        done = AsyncCompletion(self, op)
        try:
            op.fn(done)
        except BaseException as err:  # noqa: BLE001 - a failure to start is the op's failure
            if not done.done:
                done(err)
            else:
                with self._lock:
                    self._record(wrap_error(err, op.fn, op.name), (), True)
            if not isinstance(err, Exception):
                raise

    def _complete(self, op, err):
        rvars, wvars = op.rvars, op.wvars
        op.rvars = op.wvars = ()
        self._finish(rvars, wvars, err, err is not None)

    def _release_one(self, var, write, err):
        """Give back one grant of a still-running asynchronous op."""
        ready = []
        with self._lock:
            if err is not None and write:
                self._record(err, (var,), True)
            var.npending -= 1
            if write:
                var._writing = False
                if var._queue:
                    _grant_queued(var, ready)
            else:
                var._nreads -= 1
                if not var._nreads and var._queue:
                    _grant_queued(var, ready)
            if ready:
                self._schedule(ready)
            if self._nwaiters:
                self._done_cv.notify_all()

    # -- running -----------------------------------------------------------------
    def _schedule(self, ops):
        """Put ready ops on the worker heap (lock held)."""
        for op in ops:
            heapq.heappush(self._ready, (-op.priority, next(self._seq), op))
        if len(self._threads) < self._nworkers:
            self._start_workers()
        self._work_cv.notify(len(ops))

    def _start_workers(self):
        gen = self._generation
        while len(self._threads) < self._nworkers:
            t = threading.Thread(target=self._worker_loop, args=(gen,),
                                 name=f"mxnet-engine-worker-{len(self._threads)}",
                                 daemon=True)
            self._threads.append(t)
            t.start()

    def _worker_loop(self, gen):
        lock = self._lock
        while True:
            with lock:
                while not self._ready:
                    if gen != self._generation:
                        return
                    self._work_cv.wait()
                if gen != self._generation:
                    return
                op = heapq.heappop(self._ready)[2]
            try:
                self._execute(op)
            except BaseException:  # noqa: BLE001 - already recorded on the op's vars
                pass

    def _execute(self, op):
        if op.prop == _CALLBACK:
            self._start_async(op)
            return
        self._run(op.fn, op.rvars, op.wvars, op.name)

    def _run(self, fn, rvars, wvars, name):
        """Run an op whose grants are held, then release them."""
        try:
            exc, new = run_checked(fn, rvars, wvars, name)
        except BaseException as err:  # KeyboardInterrupt, SystemExit: record, release, re-raise
            self._finish(rvars, wvars, wrap_error(err, fn, name), True)
            raise
        self._finish(rvars, wvars, exc, new)

    def _finish(self, rvars, wvars, exc, new):
        """Release an op's grants, store its failure and wake what it unblocks."""
        ready = []
        with self._lock:
            if exc is not None:
                self._record(exc, wvars, new)
            for v in rvars:
                v.npending -= 1
                v._nreads -= 1
                if not v._nreads and v._queue:
                    _grant_queued(v, ready)
            for v in wvars:
                v.npending -= 1
                v._writing = False
                if v._queue:
                    _grant_queued(v, ready)
            self._npending -= 1
            if ready:
                self._schedule(ready)
            if self._nwaiters:
                self._done_cv.notify_all()

    def _wait_until(self, done):
        """Block (lock held) until ``done()``, running ready ordinary ops meanwhile."""
        self._nwaiters += 1
        try:
            while not done():
                heap = self._ready
                if heap and heap[0][2].prop in (_NORMAL, _CALLBACK):
                    op = heapq.heappop(heap)[2]
                    self._lock.release()
                    try:
                        self._execute(op)
                    finally:
                        self._lock.acquire()
                else:
                    self._done_cv.wait()
        finally:
            self._nwaiters -= 1

    # -- wait points -------------------------------------------------------------
    def wait_for_var(self, var):
        """Block until no pushed op touches ``var``; then raise its failure, if any."""
        if not var.npending and var.exc is None:
            return
        with self._lock:
            if var.npending:
                self._wait_until(lambda: not var.npending)
            exc = self._take_var_error(var)
        if exc is not None:
            raise exc

    def wait_all(self):
        """Block until every pushed op has finished; raise the first new failure."""
        with self._lock:
            if self._npending:
                self._wait_until(lambda: not self._npending)
            exc = self._take_all_errors() if self._holders else None
        if exc is not None:
            raise exc

    # -- lifecycle -----------------------------------------------------------------
    def _stop_workers(self):
        """Let the current worker threads exit once idle; new work starts fresh ones."""
        with self._lock:
            self._generation += 1
            threads, self._threads = self._threads, []
            self._work_cv.notify_all()
            if self._ready:
                self._start_workers()
        return threads

    def _after_fork_in_child(self):
        # Threads do not survive fork; the lock may have been held by one of them.
        self._init_sync()
        self._generation += 1
        self._threads = []
        self._nwaiters = 0
        if self._ready:
            with self._lock:
                self._start_workers()


def _reinit_after_fork():
    for engine in list(_ENGINES):
        engine._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reinit_after_fork)
