"""Intra-op parallelism for large, memory-bound NumPy kernels: the batch split over threads.

MXNet's CPU kernels run on OpenMP threads; a NumPy kernel runs on one core, but NumPy releases
the GIL inside its loops, so a kernel called on two halves of the batch from two threads runs
on two cores. ``map_batch`` does that for kernels whose work is large enough that handing
half of it to a thread (tens of microseconds) is worth it; small ones run inline.

The thread count follows ``OMP_NUM_THREADS`` (as MXNet's operators do), else the core count;
``MXNET_PY_OP_THREADS`` overrides both (1 turns the splitting off). Results are the same as
one call on the whole batch: every image is computed independently and in the same way.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["map_batch", "op_threads"]

# below this many input elements a kernel runs in the calling thread
_MIN_ELEMENTS = 1 << 19

_POOL = None
_POOL_SIZE = 0


def op_threads():
    for name in ("MXNET_PY_OP_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(name)
        if value:
            try:
                return max(1, int(value))
            except ValueError:
                pass
    return os.cpu_count() or 1


def _pool(workers):
    global _POOL, _POOL_SIZE
    if _POOL is None or _POOL_SIZE < workers:
        _POOL = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mxnet-op")
        _POOL_SIZE = workers
    return _POOL


def map_batch(fn, arrays, out_shape, dtype, size=None):
    """``fn(*arrays)`` computed on slices of the batch (axis 0 of every array) in parallel
    and written into one new array of ``out_shape`` and ``dtype`` (each thread copies its own
    slice in, while it is still in its core's cache); one inline call where the batch or the
    work is small. ``size`` is the work's measure in elements (default: the first array's).
    """
    n = arrays[0].shape[0]
    parts = min(op_threads(), n)
    work = arrays[0].size if size is None else size
    if parts < 2 or work < _MIN_ELEMENTS or type(arrays[0]) is not np.ndarray:
        return fn(*arrays)
    out = np.empty(out_shape, dtype=dtype)
    bounds = [n * i // parts for i in range(parts + 1)]
    slices = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:])]

    def part(sl):
        out[sl] = fn(*[a[sl] for a in arrays])

    pool = _pool(parts - 1)
    futures = [pool.submit(part, sl) for sl in slices[1:]]
    try:
        part(slices[0])
    finally:
        for f in futures:
            f.result()
    return out
