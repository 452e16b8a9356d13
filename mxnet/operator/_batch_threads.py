"""Intra-op parallelism for large, memory-bound NumPy kernels: the batch split over threads.

MXNet's CPU kernels run on OpenMP threads; a NumPy kernel runs on one core, but NumPy releases
the GIL inside its loops, so a kernel called on two halves of the batch from two threads runs
on two cores. ``map_batch`` does that for kernels whose work is large enough that handing
half of it to a thread (tens of microseconds) is worth it; small ones run inline.

``run_parts`` is the same for kernels that write their results themselves: it calls
``fn(start, stop)`` on one contiguous range of an index per thread (flat elements for relu,
channels for the convolution's phase copies). A kernel called from inside a part runs
inline.

The thread count follows ``OMP_NUM_THREADS`` (as MXNet's operators do), else the core count;
``MXNET_PY_OP_THREADS`` overrides both (1 turns the splitting off). Results are the same as
one call on the whole batch: every image is computed independently and in the same way.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["in_part", "map_batch", "op_threads", "run_each", "run_parts"]

# below this many input elements a kernel runs in the calling thread. (At 2^19, LeNet's
# (64, 20, 24, 24) layers were split: its training step at two threads took 11.9-12.7 ms
# (median) against 10.1-10.2 unsplit; the pool thread woke while OpenBLAS's workers, just
# used by the FullyConnected GEMMs, still spun on the other core.)
_MIN_ELEMENTS = 1 << 20

_POOL = None
_POOL_SIZE = 0
# set while a thread runs one part of a split kernel: a kernel it calls runs inline (a worker
# waiting for more workers could wait for ever)
_INSIDE = threading.local()


_CORES = os.cpu_count() or 1   # asked once: the call reads sysfs every time


def op_threads():
    """The number of threads a split kernel uses (see the module docstring)."""
    for name in ("MXNET_PY_OP_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(name)
        if value:
            try:
                return max(1, int(value))
            except ValueError:
                pass
    return _CORES


def _pool(workers):
    global _POOL, _POOL_SIZE
    if _POOL is None or _POOL_SIZE < workers:
        if _POOL is not None:   # its threads end; their ids must not be pinned later
            _POOL.shutdown(wait=False)
            _POOL_TIDS.clear()
        _POOL = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mxnet-op",
                                   initializer=_register_pool_thread)
        _POOL_SIZE = workers
        # start every thread now (each waits until all have), so that their ids are known
        # before the first parts are handed out
        started = threading.Barrier(workers + 1, timeout=5)
        for _ in range(workers):
            _POOL.submit(started.wait)
        try:
            started.wait()
        except threading.BrokenBarrierError:   # a thread that could not start in time
            pass
    return _POOL


# Pool threads' native ids and the CPU set each is held to (Linux). Woken by the calling
# thread, a pool thread was often queued on the caller's own CPU, though another was idle,
# and the two took turns (measured on the 2-core VM: in 4 of 10 calls of a convolution's
# kernels both ran on one CPU, 1.3-1.5x slower). So before handing out work the caller keeps
# the pool threads off the CPU it runs on.
_POOL_TIDS = {}
_AFFINITY = {"allowed": None, "getcpu": None}


def _register_pool_thread():
    _POOL_TIDS[threading.get_native_id()] = None


def _after_fork_in_child():
    # a forked child (a DataLoader worker) has none of the parent's threads: start afresh
    # rather than hand work to threads that do not exist, or pin the parent's by their ids
    global _POOL, _POOL_SIZE
    _POOL, _POOL_SIZE = None, 0
    _POOL_TIDS.clear()
    _AFFINITY.update(allowed=None, getcpu=None)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _spread_from_caller():
    if not hasattr(os, "sched_setaffinity") or not _POOL_TIDS:
        return
    if _AFFINITY["getcpu"] is None:
        try:
            import ctypes
            fn = ctypes.CDLL(None).sched_getcpu
            fn.restype = ctypes.c_int
            _AFFINITY["allowed"] = frozenset(os.sched_getaffinity(0))
        except (OSError, AttributeError):
            fn = False
        _AFFINITY["getcpu"] = fn
    getcpu = _AFFINITY["getcpu"]
    if not getcpu:
        return
    others = _AFFINITY["allowed"] - {getcpu()}
    if not others:
        return
    for tid, held in list(_POOL_TIDS.items()):
        if held != others:
            try:
                os.sched_setaffinity(tid, others)
                _POOL_TIDS[tid] = others
            except OSError:
                _POOL_TIDS.pop(tid, None)


def _run_chunks(task, bounds, threads):
    """``task(a, b)`` for every chunk ``[a, b)`` of ``bounds``, the calling thread and
    ``threads - 1`` pool threads taking the next unclaimed chunk until none is left. On a
    machine whose other cores are busy a pool thread may start late or never: the calling
    thread then does its chunks, so an op is never held up by a thread that did not get a
    core (it waits only for chunks already being computed)."""
    chunks = list(zip(bounds[:-1], bounds[1:]))
    lock = threading.Lock()
    done = threading.Event()
    state = {"next": 0, "left": len(chunks), "error": None}

    def claim():
        with lock:
            i = state["next"]
            if i >= len(chunks):
                return None
            state["next"] = i + 1
            return chunks[i]

    def loop():
        busy = getattr(_INSIDE, "busy", False)
        _INSIDE.busy = True
        try:
            while (chunk := claim()) is not None:
                try:
                    task(*chunk)
                except BaseException as e:   # re-raised in the calling thread
                    state["error"] = state["error"] or e
                finally:
                    with lock:
                        state["left"] -= 1
                        if not state["left"]:
                            done.set()
        finally:
            _INSIDE.busy = busy

    pool = _pool(threads - 1)
    _spread_from_caller()
    for _ in range(threads - 1):
        try:
            pool.submit(loop)
        except RuntimeError:   # replaced by a larger pool meanwhile: this thread does it
            break
    loop()
    done.wait()
    if state["error"] is not None:
        raise state["error"]


def map_batch(fn, arrays, out_shape, dtype, size=None, out=None, into=False):
    """``fn(*arrays)`` computed on slices of the batch (axis 0 of every array) in parallel
    and written into one new array of ``out_shape`` and ``dtype``, or into ``out`` when given
    (an array of that shape and dtype); one inline call where the batch or the work is small.
    ``size`` is the work's measure in elements (default: the largest array's). The batch is
    cut into two slices per thread, taken dynamically.

    With ``into``, ``fn`` writes its result itself: it is called as ``fn(*slices, out=o)``
    with ``o`` the matching slice of the result (contiguous when the result is), so nothing
    is copied back; the inline call passes ``out`` as given (None lets ``fn`` make its own
    result). Without it, each thread copies its slice's result into place while it is still
    in its core's cache, and an inline call's result is returned as it is.
    """
    n = arrays[0].shape[0]
    parts = min(op_threads(), n)
    work = max(a.size for a in arrays) if size is None else size
    if parts < 2 or work < _MIN_ELEMENTS or type(arrays[0]) is not np.ndarray or \
            getattr(_INSIDE, "busy", False):
        return fn(*arrays, out=out) if into else fn(*arrays)
    if out is None or tuple(out.shape) != tuple(out_shape) or out.dtype != dtype:
        out = np.empty(out_shape, dtype=dtype)
    pieces = min(n, 2 * parts)

    if into:
        def part(a, b):
            fn(*[x[a:b] for x in arrays], out=out[a:b])
    else:
        def part(a, b):   # kernels split with run_parts inside run inline
            out[a:b] = fn(*[x[a:b] for x in arrays])

    _run_chunks(part, [n * i // pieces for i in range(pieces + 1)], parts)
    return out


def run_parts(fn, n, work=None):
    """``fn(start, stop)`` over ``[0, n)`` cut into contiguous ranges (four per thread) that
    the op threads take dynamically (see ``_run_chunks``); one inline ``fn(0, n)`` where
    ``work`` (default ``n``) is below the threshold, one thread is configured, or the caller
    is itself running a part. ``fn`` writes its results itself, into disjoint ranges.
    """
    parts = min(op_threads(), n)
    if parts < 2 or (n if work is None else work) < _MIN_ELEMENTS or \
            getattr(_INSIDE, "busy", False):
        fn(0, n)
        return
    pieces = min(n, 4 * parts)
    _run_chunks(fn, [n * i // pieces for i in range(pieces + 1)], parts)


def in_part():
    """Whether the calling thread is running one part of a split kernel."""
    return getattr(_INSIDE, "busy", False)


def run_each(fn, n):
    """``fn(k)`` for every k in ``[0, n)`` over up to n threads (the caller and pool
    threads, each taking the next k; see ``_run_chunks``), whatever the work's size."""
    if n < 2 or in_part():
        for k in range(n):
            fn(k)
        return
    _run_chunks(lambda a, b: fn(a), list(range(n + 1)), n)
