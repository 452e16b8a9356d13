"""Samplers: which dataset indices to visit, and how to group them into mini-batches."""
from __future__ import annotations

import numpy as np

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "FilterSampler", "BatchSampler"]

_LAST_BATCH = ("keep", "discard", "rollover")


def _bad_last_batch(value):
    return ValueError(f"last_batch must be one of 'keep', 'discard', or 'rollover', but got {value}")


class Sampler:
    """Base class of samplers: subclasses define ``__iter__`` (the indices) and ``__len__``."""

    def __iter__(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """The indices ``start, start + 1, ..., start + length - 1`` in order."""

    def __init__(self, length, start=0):
        self._length = length
        self._start = start

    def __iter__(self):
        return iter(range(self._start, self._start + self._length))

    def __len__(self):
        return self._length


class RandomSampler(Sampler):
    """A fresh random permutation of ``range(length)`` on every pass (drawn with ``np.random``)."""

    def __init__(self, length):
        self._length = length

    def __iter__(self):
        order = np.arange(self._length)
        np.random.shuffle(order)
        # Python ints: printed as 1.9.1 (on NumPy 1.x) printed its indices, [3, 5, ...]
        return iter(order.tolist())

    def __len__(self):
        return self._length


class FilterSampler(Sampler):
    """The indices of the samples of ``dataset`` for which ``fn(sample)`` is true."""

    def __init__(self, fn, dataset):
        self._fn = fn
        self._dataset = dataset
        self._indices = [i for i, sample in enumerate(dataset) if fn(sample)]

    def __iter__(self):
        return iter(self._indices)

    def __len__(self):
        return len(self._indices)


class BatchSampler(Sampler):
    """Group the indices of another sampler into lists of ``batch_size``.

    ``last_batch`` says what happens to a final, incomplete group: ``'keep'`` yields it,
    ``'discard'`` drops it, ``'rollover'`` carries it to the front of the next pass.

    >>> list(BatchSampler(SequentialSampler(7), 3, 'keep'))
    [[0, 1, 2], [3, 4, 5], [6]]
    """

    def __init__(self, sampler, batch_size, last_batch="keep"):
        self._sampler = sampler
        self._batch_size = batch_size
        self._last_batch = last_batch
        self._prev = []

    def __iter__(self):
        batch, self._prev = self._prev, []
        for i in self._sampler:
            batch.append(i)
            if len(batch) == self._batch_size:
                yield batch
                batch = []
        if batch:
            if self._last_batch == "keep":
                yield batch
            elif self._last_batch == "rollover":
                self._prev = batch
            elif self._last_batch != "discard":
                raise _bad_last_batch(self._last_batch)

    def __len__(self):
        n, size = len(self._sampler), self._batch_size
        if self._last_batch == "keep":
            return (n + size - 1) // size
        if self._last_batch == "discard":
            return n // size
        if self._last_batch == "rollover":
            return (len(self._prev) + n) // size
        raise _bad_last_batch(self._last_batch)
