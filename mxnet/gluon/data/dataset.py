"""Datasets: indexable collections of samples, and the lazy views built on them."""
from __future__ import annotations

import itertools
import os

from ... import ndarray as _nd
from . import _recordio

__all__ = ["Dataset", "SimpleDataset", "ArrayDataset", "RecordFileDataset"]


class Dataset:
    """Base class of datasets: subclasses define ``__getitem__(idx)`` and ``__len__``.

    NumPy arrays, NDArrays and lists can be used as datasets directly; wrap them in
    :class:`SimpleDataset` to get the methods below.
    """

    def __getitem__(self, idx):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def __iter__(self):
        # Python's sequence protocol, as 1.9.1's Dataset (which has no __iter__) is iterated:
        # read items 0, 1, ... until one raises IndexError, whatever len() says (a dataset
        # sampled by IntervalSampler(rollover=False) has fewer items than its len()).
        get = self.__getitem__
        for i in itertools.count():
            try:
                item = get(i)
            except IndexError:
                return
            yield item

    def filter(self, fn):
        """A view with only the samples for which ``fn(sample)`` is true.

        The predicate runs once over every sample now; a lazily transformed dataset is
        transformed again when a filtered sample is read.
        """
        from .sampler import FilterSampler
        return _SampledDataset(self, FilterSampler(fn, self))

    def shard(self, num_shards, index):
        """The ``index``-th of ``num_shards`` contiguous parts; the first ``len % num_shards``
        parts hold one extra sample. Shard before shuffling so workers see disjoint data."""
        assert index < num_shards, "Shard index of out bound: %d out of %d" % (index, num_shards)
        assert num_shards > 0, "Number of shards must be greater than 0"
        assert index >= 0, "Index must be non-negative"
        size, rest = divmod(len(self), num_shards)
        start = size * index + min(index, rest)
        stop = start + size + (index < rest)
        from .sampler import SequentialSampler
        return _SampledDataset(self, SequentialSampler(stop - start, start))

    def take(self, count):
        """A view of the first ``count`` samples (all of them when ``count`` is None or larger)."""
        if count is None or count > len(self):
            count = len(self)
        from .sampler import SequentialSampler
        return _SampledDataset(self, SequentialSampler(count))

    def sample(self, sampler):
        """A view of the samples at the indices ``sampler`` yields (drawn once, now)."""
        from .sampler import Sampler
        if not isinstance(sampler, Sampler):
            raise TypeError(f"Invalid sampler type: {type(sampler)}. Expected gluon.data.Sampler instead.")
        return _SampledDataset(self, sampler)

    def transform(self, fn, lazy=True):
        """Apply ``fn`` to every sample (a tuple sample is passed as separate arguments).

        With ``lazy=True`` the function runs each time a sample is read, so random
        augmentations differ between epochs; ``lazy=False`` transforms everything now
        and returns a :class:`SimpleDataset`.
        """
        view = _LazyTransformDataset(self, fn)
        if lazy:
            return view
        return SimpleDataset([view[i] for i in range(len(view))])

    def transform_first(self, fn, lazy=True):
        """Like :meth:`transform`, but only the first element of each sample goes through ``fn``."""
        return self.transform(_TransformFirstClosure(fn), lazy)


class SimpleDataset(Dataset):
    """A dataset over any object with ``len()`` and ``[]`` (a list, an array ...)."""

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        return self._data[idx]


class _LazyTransformDataset(Dataset):
    def __init__(self, data, fn):
        self._data = data
        self._fn = fn

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        item = self._data[idx]
        if isinstance(item, tuple):
            return self._fn(*item)
        return self._fn(item)


class _TransformFirstClosure:
    """A class rather than a closure so that it pickles (worker processes need that)."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, x, *args):
        if args:
            return (self._fn(x),) + args
        return self._fn(x)


class _SampledDataset(Dataset):
    def __init__(self, dataset, sampler):
        self._dataset = dataset
        self._sampler = sampler
        self._indices = list(iter(sampler))

    def __len__(self):
        return len(self._sampler)

    def __getitem__(self, idx):
        return self._dataset[self._indices[idx]]


class ArrayDataset(Dataset):
    """Zip several dataset-like objects of one length: sample ``i`` is ``(a[i], b[i], ...)``.

    With a single argument the sample is ``a[i]`` itself. One-dimensional NDArrays are
    turned into NumPy arrays first, so their samples are NumPy scalars, as in 1.9.1.
    """

    def __init__(self, *args):
        assert len(args) > 0, "Needs at least 1 arrays"
        self._length = len(args[0])
        self._data = []
        for i, data in enumerate(args):
            assert len(data) == self._length, (
                "All arrays must have the same length; array[0] has length %d while array[%d] has %d."
                % (self._length, i + 1, len(data)))
            if isinstance(data, _nd.NDArray) and data.ndim == 1:
                data = data.asnumpy()
            self._data.append(data)

    def __getitem__(self, idx):
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(data[idx] for data in self._data)

    def __len__(self):
        return self._length


class RecordFileDataset(Dataset):
    """The raw records (bytes) of a RecordIO file; the index is ``filename`` with ``.idx``."""

    def __init__(self, filename):
        self.idx_file = os.path.splitext(filename)[0] + ".idx"
        self.filename = filename
        self._record = _recordio.RecordReader(self.idx_file, self.filename)

    def __getitem__(self, idx):
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self):
        return len(self._record.keys)


class _DownloadedDataset(Dataset):
    """Base of the datasets that live as files under ``root`` (MNIST, CIFAR ...)."""

    def __init__(self, root, transform):
        super().__init__()
        self._transform = transform
        self._data = None
        self._label = None
        root = os.path.expanduser(root)
        self._root = root
        if not os.path.isdir(root):
            os.makedirs(root)
        self._get_data()

    def __getitem__(self, idx):
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)

    def _get_data(self):
        raise NotImplementedError
