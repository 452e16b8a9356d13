"""Samplers for gluon.contrib.data."""
from ....base import MXNetAssertionError
from ...data import sampler

__all__ = ['IntervalSampler']


class IntervalSampler(sampler.Sampler):
    """Visits ``0 .. length-1`` in strides of ``interval``.

    With ``rollover`` (the default) it then starts again from 1, 2, ... until every index has
    been produced once; without it, only ``0, interval, 2*interval, ...`` are produced.
    ``len()`` is ``length`` in both cases (as in 1.9.1).

    >>> list(IntervalSampler(7, interval=3))
    [0, 3, 6, 1, 4, 2, 5]
    >>> list(IntervalSampler(7, interval=3, rollover=False))
    [0, 3, 6]
    """

    def __init__(self, length, interval, rollover=True):
        if not interval <= length:
            # 1.9.1 asserts; an AssertionError subclass keeps `except AssertionError` working
            raise MXNetAssertionError(
                f"IntervalSampler: interval {interval} must be smaller than or equal to length {length}"
                )
        self._length = length
        self._interval = interval
        self._rollover = rollover

    def __iter__(self):
        starts = range(self._interval) if self._rollover else range(1)
        for start in starts:
            yield from range(start, self._length, self._interval)

    def __len__(self):
        return self._length
