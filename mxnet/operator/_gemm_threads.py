"""GEMMs shared out over the op threads, with OpenBLAS kept on one thread.

OpenBLAS's worker threads spin for about 0.1 s after each GEMM they help with (its
``OPENBLAS_THREAD_TIMEOUT``), and a spinning worker holds its core against the op threads of
the kernels that follow: the convolutions' image parts (``conv_kernels``) and the pooling,
normalisation and activation splits (``_batch_threads``). Measured on the 2-core VM: an op
thread woken while a worker spun started up to 4 ms late, or ran at a third of its speed,
sharing the core in time slices. So the convolution kernels run their GEMMs through
``matmul``: OpenBLAS on one thread (``blas_threads.single_threaded``), and large products
that are not thin split by rows or columns over the op threads here. A network of
convolutions then never wakes OpenBLAS's threads (a CIFAR ResNet-18 training step at two
threads, with the image parts: 607-673 ms before, 440-477 after while the VM's vCPUs shared no
cache; 462-489 against 422-438 while they did).

FullyConnected keeps OpenBLAS's threads: for its smaller GEMMs a worker that is already
spinning takes work faster than a pool thread wakes (LeNet's fc1 forward + backward: 0.48 ms
with OpenBLAS's threads, 0.60 on one thread, 0.80 split here).
"""
from __future__ import annotations

import math

import numpy as np

from ..backend import blas_threads
from ._batch_threads import in_part, op_threads, run_each

__all__ = ["matmul"]

# OpenBLAS runs GEMMs of fewer multiply-adds than this on the calling thread anyway
# (SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD in its interface/gemm.c)
_OPENBLAS_SERIAL_MACS = 1 << 18
# from this many multiply-adds on, a GEMM is split over the op threads (waking a pool thread
# costs ~50 us)
_SPLIT_MACS = 1 << 23
# ... when rows, columns and sums all have at least this many elements: a thin product (a
# 3-channel stem's) is bound by memory traffic, and measured faster on one thread than split
_SPLIT_MIN_DIM = 64
# split boundaries fall on multiples of this many rows or columns
_ALIGN = 16


def matmul(xp, a, b, out=None):
    """``xp.matmul(a, b, out=out)``, computed as the module docstring says on NumPy (on
    other backends as it is)."""
    if xp is not np:
        return xp.matmul(a, b, out=out)
    vector = a.ndim < 2 or b.ndim < 2
    m, k = (1,) + a.shape if a.ndim < 2 else a.shape[-2:]
    n = 1 if b.ndim < 2 else b.shape[-1]
    stack = 1 if vector else math.prod(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    macs = stack * m * n * k
    blas = blas_threads.threads()
    if macs < _OPENBLAS_SERIAL_MACS or not blas:
        return np.matmul(a, b, out=out)
    with blas_threads.single_threaded():
        workers = min(op_threads(), blas, -(-max(m, n) // _ALIGN))
        if (macs < _SPLIT_MACS or min(m, n, k) < _SPLIT_MIN_DIM or workers < 2 or vector
                or in_part()):
            return np.matmul(a, b, out=out)
        if out is None:
            shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (m, n)
            out = np.empty(shape, np.result_type(a.dtype, b.dtype))
        along_n = n >= m
        size = n if along_n else m
        step = -(-size // (workers * _ALIGN)) * _ALIGN
        bounds = list(range(0, size, step)) + [size]

        def part(i):
            sl = slice(bounds[i], bounds[i + 1])
            if along_n:
                np.matmul(a, b[..., sl], out=out[..., sl])
            else:
                np.matmul(a[..., sl, :], b, out=out[..., sl, :])
        run_each(part, len(bounds) - 1)
        return out
