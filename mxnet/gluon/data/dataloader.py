"""DataLoader: mini-batches from a Dataset, optionally prepared by worker processes or threads.

With ``num_workers > 0`` a pool of worker processes (or threads, ``thread_pool=True``) is
started when the loader is made and reused for every epoch, as in 1.9.1. Each worker holds
the dataset (inherited by fork, or pickled under spawn/forkserver), builds whole batches
with ``batchify_fn`` and sends them back pickled, NDArrays as NumPy data; the loader hands
them out in sampler order, so the batches equal those of ``num_workers=0``.

The pool ends with :meth:`DataLoader.close`, a ``with`` block, garbage collection of the
loader, or interpreter exit. Workers also exit by themselves if the main process dies.

Differences from 1.9.1, on purpose: batches made by workers arrive on ``cpu(0)`` rather than
``cpu_shared(0)`` (there is no separate shared-memory device here); a timeout raises
``multiprocessing.TimeoutError`` carrying the explanation instead of printing it; worker
processes get distinct random seeds (derived from ``np.random``'s state when the loader is
made), so random transforms do not repeat across workers; the batchify function is handed to the
workers once, so it may be a lambda.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
from multiprocessing.reduction import ForkingPickler  # noqa: F401  (1.9.1 exposes it here; GluonNLP imports it)
import random
import signal
import sys
import threading
import weakref

import numpy as np

from ... import context
from ... import ndarray as nd
from ... import util as _util
from ...base import MXNetKeyError
from . import sampler as _sampler

__all__ = ["DataLoader", "default_batchify_fn", "default_mp_batchify_fn"]


class _BatchifyError(MXNetKeyError, ValueError):
    """Samples that cannot form one numeric batch: 1.9.1 fails with a KeyError (its dtype table
    has no entry for the object or string array it builds); a ValueError here as well."""


def _stack_samples(data):
    try:
        arr = np.asarray(data)
    except ValueError as e:
        raise _BatchifyError(f"default_batchify_fn: the samples of a batch cannot be stacked "
                             f"into one array ({e}); they must all have the same shape") from None
    if arr.dtype.kind not in "biuf":
        raise _BatchifyError(f"default_batchify_fn: cannot batch samples of type "
                             f"{type(data[0]).__name__} (dtype {arr.dtype}); samples must be "
                             f"numbers, NumPy arrays or NDArrays. Pass a batchify_fn for others")
    return arr


def default_batchify_fn(data):
    """Collate a list of samples into a batch.

    NDArrays are stacked; tuples are split field by field, giving a list of batches;
    anything else goes through ``np.asarray`` and becomes an NDArray of that dtype
    (Python ints give int64, floats float64).
    """
    first = data[0]
    if isinstance(first, nd.NDArray):
        return nd.stack(*data)
    if isinstance(first, tuple):
        return [default_batchify_fn(field) for field in zip(*data)]
    arr = _stack_samples(data)
    return nd.array(arr, dtype=arr.dtype)


def default_mp_batchify_fn(data):
    """The batchify function of worker processes: the batches of :func:`default_batchify_fn`,
    always built in host memory (a worker never touches a GPU)."""
    first = data[0]
    if isinstance(first, nd.NDArray):
        return nd.stack(*[d.as_in_context(context.cpu()) for d in data])
    if isinstance(first, tuple):
        return [default_mp_batchify_fn(field) for field in zip(*data)]
    arr = _stack_samples(data)
    return nd.array(arr, dtype=arr.dtype, ctx=context.cpu())


def _as_np(data):
    if isinstance(data, nd.NDArray):
        return data.as_np_ndarray()
    if isinstance(data, (list, tuple)):
        return [_as_np(d) for d in data]
    return data


def _as_in_context(data, ctx):
    if isinstance(data, nd.NDArray):
        return data.as_in_context(ctx)
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data


# -- worker side -----------------------------------------------------------------------------------
_worker_dataset = None
_worker_batchify_fn = None


def _watch_parent(parent_pid):
    import time
    while True:
        time.sleep(1.0)
        if os.getppid() != parent_pid:
            os._exit(0)


def _worker_context():
    """The multiprocessing context of the worker processes: the start method the program set,
    else fork on Linux, which 1.9.1's workers use (Python 3.14 makes forkserver the default
    there, which would need every dataset and transform to be picklable)."""
    if multiprocessing.get_start_method(allow_none=True) is None and \
            sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _worker_initializer(dataset, batchify_fn, parent_pid, base_seed, counter):
    """Runs once in each worker process: keep the dataset and batchify function (so neither is
    pickled per batch, and lambdas work under fork), give the worker its own random streams,
    ignore Ctrl-C, watch the parent."""
    global _worker_dataset, _worker_batchify_fn
    _worker_dataset = dataset
    _worker_batchify_fn = batchify_fn
    with counter.get_lock():
        worker_id = counter.value
        counter.value += 1
    seed = (base_seed + worker_id) % (1 << 32)
    np.random.seed(seed)
    random.seed(seed)
    from ...backend import seed_all
    seed_all(seed, host_only=True)  # forked after CUDA was used: stay off the GPU
    if context.current_context().device_type == "gpu":
        # a forked process cannot use the parent's CUDA context: build batches on the host
        context.default_context_override(context.cpu())
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True,
                     name="mxnet-dataloader-watchdog").start()


def _worker_fn(samples, batchify_fn=None, dataset=None):
    """Build one batch in a worker process; the pool pickles it back (NDArrays as NumPy data)."""
    fn = _worker_batchify_fn if batchify_fn is None else batchify_fn
    return fn([_worker_dataset[i] for i in samples])


def _thread_worker_fn(samples, batchify_fn, dataset):
    return batchify_fn([dataset[i] for i in samples])


def _timeout_error(seconds, threads):
    msg = (f"DataLoader: a worker did not deliver its batch within timeout={seconds} seconds. "
           "The transform may be slow (raise `timeout`) or a worker may be stuck")
    if not threads:
        msg += " or short of shared memory (lower `num_workers`)"
    return multiprocessing.TimeoutError(msg + ".")


class _MultiWorkerIter:
    """One pass over the batch sampler, with up to ``prefetch`` batches in flight."""

    def __init__(self, worker_pool, batchify_fn, batch_sampler, pin_memory=False, pin_device_id=0,
                 worker_fn=_worker_fn, prefetch=0, dataset=None, data_loader=None, timeout=120):
        self._worker_pool = worker_pool
        self._batchify_fn = batchify_fn
        self._batch_sampler = batch_sampler
        self._data_buffer = {}
        self._rcvd_idx = 0
        self._sent_idx = 0
        self._iter = iter(batch_sampler)
        self._worker_fn = worker_fn
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._dataset = dataset
        self._data_loader = data_loader  # keeps the pool alive while this pass runs
        self._timeout = timeout
        for _ in range(prefetch):
            self._push_next()

    def __len__(self):
        return len(self._batch_sampler)

    def _push_next(self):
        indices = next(self._iter, None)
        if indices is None:
            return
        # process workers already hold the batchify function and the dataset
        args = (indices,) if self._dataset is None else (indices, self._batchify_fn, self._dataset)
        result = self._worker_pool.apply_async(self._worker_fn, args)
        self._data_buffer[self._sent_idx] = result
        self._sent_idx += 1

    def __next__(self):
        self._push_next()
        if self._rcvd_idx == self._sent_idx:
            assert not self._data_buffer, "Data buffer should be empty at this moment"
            raise StopIteration
        result = self._data_buffer.pop(self._rcvd_idx)
        try:
            batch = result.get(self._timeout)
        except multiprocessing.TimeoutError:
            raise _timeout_error(self._timeout, self._dataset is not None) from None
        self._rcvd_idx += 1
        if self._pin_memory:
            batch = _as_in_context(batch, context.cpu_pinned(self._pin_device_id))
        return batch

    next = __next__

    def __iter__(self):
        return self


def _close_pool(pool):
    if pool is None:
        return
    try:
        pool.terminate()
        pool.join()
    except Exception:  # noqa: BLE001 - interpreter shutdown may have torn parts down
        pass


class DataLoader:
    """Load a dataset in mini-batches.

    Parameters
    ----------
    dataset : Dataset
        Anything with ``len()`` and ``[]``; NumPy arrays and NDArrays work directly.
    batch_size : int
        Samples per batch (unless ``batch_sampler`` is given).
    shuffle : bool
        Visit the samples in a new random order every epoch.
    sampler : Sampler
        The order of the samples; not together with ``shuffle``.
    last_batch : {'keep', 'discard', 'rollover'}
        What to do with a final incomplete batch (default 'keep'), see :class:`BatchSampler`.
    batch_sampler : Sampler
        Yields lists of indices; replaces batch_size, shuffle, sampler and last_batch.
    batchify_fn : callable
        Turns a list of samples into a batch (default :func:`default_batchify_fn`).
    num_workers : int
        Worker processes (or threads) preparing batches; 0 prepares them in the caller.
    pin_memory : bool
        Return batches in ``cpu_pinned(pin_device_id)`` memory.
    pin_device_id : int
        The device id of the pinned memory.
    prefetch : int
        Batches requested ahead from the workers (default ``2 * num_workers``).
    thread_pool : bool
        Use threads instead of processes.
    timeout : float
        Seconds to wait for one batch from the workers before raising
        ``multiprocessing.TimeoutError``.
    auto_reload : bool
        Start fetching the next epoch as soon as one ends (and when the loader is made).
    """

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None,
                 batch_sampler=None, batchify_fn=None, num_workers=0, pin_memory=False,
                 pin_device_id=0, prefetch=None, thread_pool=False, timeout=120, auto_reload=False):
        self._worker_pool = None
        self._finalizer = None
        self._iter = None
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._thread_pool = thread_pool
        self._timeout = timeout
        assert timeout > 0, f"timeout must be positive, given {timeout}"

        if batch_sampler is None:
            if batch_size is None:
                raise ValueError("batch_size must be specified unless batch_sampler is specified")
            if sampler is None:
                if shuffle:
                    sampler = _sampler.RandomSampler(len(dataset))
                else:
                    sampler = _sampler.SequentialSampler(len(dataset))
            elif shuffle:
                raise ValueError("shuffle must not be specified if sampler is specified")
            batch_sampler = _sampler.BatchSampler(sampler, batch_size,
                                                  last_batch if last_batch else "keep")
        elif batch_size is not None or shuffle or sampler is not None or last_batch is not None:
            raise ValueError("batch_size, shuffle, sampler and last_batch must not be specified "
                             "if batch_sampler is specified.")

        self._batch_sampler = batch_sampler
        self._num_workers = num_workers if num_workers >= 0 else 0
        self._prefetch = max(0, int(prefetch) if prefetch is not None else 2 * self._num_workers)
        if batchify_fn is None:
            batchify_fn = default_mp_batchify_fn if self._num_workers > 0 else default_batchify_fn
        self._batchify_fn = batchify_fn
        if self._num_workers > 0:
            if self._thread_pool:
                self._worker_pool = multiprocessing.pool.ThreadPool(self._num_workers)
            else:
                nd.waitall()  # no engine work in flight while the workers fork
                previous = signal.signal(signal.SIGINT, signal.SIG_IGN) \
                    if threading.current_thread() is threading.main_thread() else None
                mp_ctx = _worker_context()
                # each worker seeds np.random, random and mx.random with base_seed + its number
                # (forked workers would otherwise repeat one another's random augmentations);
                # base_seed is read off np.random's state without drawing from it, so the
                # parent's shuffles stay those of 1.9.1
                _, keys, pos = np.random.get_state()[:3]
                base_seed = (int(keys[pos % len(keys)]) * 2654435761 + int(pos)) % (1 << 31)
                try:
                    self._worker_pool = mp_ctx.Pool(
                        self._num_workers, initializer=_worker_initializer,
                        initargs=(self._dataset, self._batchify_fn, os.getpid(), base_seed,
                                  mp_ctx.Value("i", 0)))
                finally:
                    if previous is not None:
                        signal.signal(signal.SIGINT, previous)
            self._finalizer = weakref.finalize(self, _close_pool, self._worker_pool)
        self.auto_reload = auto_reload
        if self.auto_reload:
            self.refresh()
        else:
            self.clean()

    def __iter__(self):
        if self._iter is None:
            self.refresh()
        it, self._iter = self._iter, None  # a prefetched pass is used once
        if _util.is_np_array():  # npx.set_np(): batches are mx.np arrays, as in 1.9.1
            it = (_as_np(b) for b in it)
        yield from it
        if self._iter is None and self.auto_reload:
            self.refresh()

    def _prefetch_iter(self):
        if self._num_workers == 0:
            return self._same_process_iter()
        if self._worker_pool is None:
            raise RuntimeError("DataLoader: the worker pool was closed; create a new DataLoader")
        return _MultiWorkerIter(
            self._worker_pool, self._batchify_fn, self._batch_sampler,
            pin_memory=self._pin_memory, pin_device_id=self._pin_device_id,
            worker_fn=_thread_worker_fn if self._thread_pool else _worker_fn,
            prefetch=self._prefetch, dataset=self._dataset if self._thread_pool else None,
            data_loader=self, timeout=self._timeout)

    def _same_process_iter(self):
        for indices in self._batch_sampler:
            batch = self._batchify_fn([self._dataset[i] for i in indices])
            if self._pin_memory:
                batch = _as_in_context(batch, context.cpu_pinned(self._pin_device_id))
            yield batch

    def __len__(self):
        return len(self._batch_sampler)

    def refresh(self):
        """Start a new pass now (workers begin prefetching it)."""
        self._iter = self._prefetch_iter()

    def clean(self):
        """Drop the prefetched pass; the next ``iter()`` starts a fresh one."""
        self._iter = None

    def close(self):
        """Stop the worker processes or threads now. The loader cannot be iterated afterwards
        when it had workers."""
        self._iter = None
        if self._finalizer is not None:
            self._finalizer()
        self._worker_pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        finalizer = getattr(self, "_finalizer", None)
        if finalizer is not None:
            finalizer()


class DataLoaderV1(DataLoader):
    """1.9.1's earlier loader (``mxnet.gluon.data.dataloader.DataLoaderV1``): the same batches
    as :class:`DataLoader`, without its prefetch, thread-pool and timeout options."""

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None,
                 batch_sampler=None, batchify_fn=None, num_workers=0, pin_memory=False,
                 pin_device_id=0):
        super().__init__(dataset, batch_size=batch_size, shuffle=shuffle, sampler=sampler,
                         last_batch=last_batch, batch_sampler=batch_sampler,
                         batchify_fn=batchify_fn, num_workers=num_workers,
                         pin_memory=pin_memory, pin_device_id=pin_device_id)
