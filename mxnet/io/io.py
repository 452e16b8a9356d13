"""Data iterators: the DataIter protocol, NDArrayIter, ResizeIter, PrefetchingIter, and the
base class of the iterators that 1.9.1 implements in C++ (:class:`MXDataIter`).

A DataIter hands out :class:`DataBatch` objects (``next()``, or ``for batch in it``) until it
raises StopIteration; ``reset()`` starts the next epoch. ``provide_data`` and ``provide_label``
describe the arrays of a batch as :class:`DataDesc` entries.
"""
from __future__ import annotations

import logging
import warnings
from collections import namedtuple

import numpy as np

from ..ndarray import NDArray, array, concat, tile
from ..ndarray.ndarray import _wrap_host
from ._native import Producer
from .utils import _getdata_by_idx, _init_data, _slice_along_batch_axis

__all__ = ["DataDesc", "DataBatch", "DataIter", "ResizeIter", "PrefetchingIter", "NDArrayIter",
           "MXDataIter"]

_DEFAULT_DTYPE = np.float32


class DataDesc(namedtuple("DataDesc", ["name", "shape"])):
    """The name and shape of one input or label, with its dtype and layout.

    ``layout`` says what each axis of ``shape`` means; ``N`` marks the batch axis (``NCHW`` for
    images, ``NTC`` for sequences).

    >>> DataDesc("data", (32, 3, 8, 8))
    DataDesc[data,(32, 3, 8, 8),<class 'numpy.float32'>,NCHW]
    """

    def __new__(cls, name, shape, dtype=_DEFAULT_DTYPE, layout="NCHW"):
        desc = super().__new__(cls, name, shape)
        desc.dtype = dtype
        desc.layout = layout
        return desc

    def __repr__(self):
        return f"DataDesc[{self.name},{self.shape},{self.dtype},{self.layout}]"

    @staticmethod
    def get_batch_axis(layout):
        """The batch axis of ``layout``: the position of ``N`` (-1 if absent), 0 for None."""
        if layout is None:
            return 0
        return layout.find("N")

    @staticmethod
    def get_list(shapes, types):
        """DataDesc entries from ``[(name, shape)]`` and, optionally, ``[(name, dtype)]``."""
        if types is not None:
            type_dict = dict(types)
            return [DataDesc(name, shape, type_dict[name]) for name, shape in shapes]
        return [DataDesc(name, shape) for name, shape in shapes]


class DataBatch:
    """One batch: lists of data and label arrays, the pad count and optional extras.

    ``pad`` is how many examples at the end of the batch are filler (repeated from the start of
    the data), which prediction should drop.
    """

    def __init__(self, data, label=None, pad=None, index=None, bucket_key=None,
                 provide_data=None, provide_label=None):
        if data is not None:
            assert isinstance(data, (list, tuple)), "Data must be list of NDArrays"
        if label is not None:
            assert isinstance(label, (list, tuple)), "Label must be list of NDArrays"
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self):
        data_shapes = [d.shape for d in self.data]
        label_shapes = [lab.shape for lab in self.label] if self.label else None
        return f"{type(self).__name__}: data shapes: {data_shapes} label shapes: {label_shapes}"


class DataIter:
    """Base class of the data iterators.

    Subclasses implement ``iter_next`` (advance; False at the end), ``getdata``, ``getlabel``,
    ``getpad`` and optionally ``getindex``; or override ``next`` directly.
    """

    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        """Go back to the start of the data."""

    def next(self):
        """The next DataBatch; raises StopIteration at the end of the epoch."""
        if self.iter_next():
            return DataBatch(data=self.getdata(), label=self.getlabel(), pad=self.getpad(),
                             index=self.getindex())
        raise StopIteration

    def __next__(self):
        return self.next()

    def iter_next(self):
        """Move to the next batch; whether there was one."""

    def getdata(self):
        """The data arrays of the current batch."""

    def getlabel(self):
        """The label arrays of the current batch."""

    def getindex(self):
        """The example indices of the current batch (None when unknown)."""
        return None

    def getpad(self):
        """How many examples of the current batch are padding."""


class _BatchHeldIter(DataIter):
    """An iterator whose ``iter_next`` stores the batch in ``current_batch``; the
    ``get*`` accessors read it from there."""

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class ResizeIter(_BatchHeldIter):
    """Make an epoch of ``data_iter`` exactly ``size`` batches long.

    A shorter iterator is reset and read again when it runs out; a longer one is cut off (and
    continues where it stopped unless ``reset_internal``).

    >>> import mxnet as mx
    >>> it = ResizeIter(mx.io.NDArrayIter(mx.nd.ones((10, 2)), batch_size=5), 3)
    >>> len([b for b in it])
    3
    """

    def __init__(self, data_iter, size, reset_internal=True):
        super().__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.current_batch = None
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, "default_bucket_key"):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self):
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self):
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True


class PrefetchingIter(_BatchHeldIter):
    """Read one or more iterators ahead on background threads and join their batches.

    Each iterator gets a thread that fetches its next batch while the current one is in use.
    The batches of all iterators are concatenated (data after data, label after label); they
    must agree on the number of batches and on the pad. ``rename_data`` / ``rename_label`` hold
    one ``{old_name: new_name}`` dict per iterator.

    An exception raised by an iterator on its thread is raised again by ``next()`` (or by
    ``reset()`` when it happened ahead of the consumer). ``close()`` ends the threads; they are
    daemons and also end when the iterator is collected or the interpreter exits.
    """

    def __init__(self, iters, rename_data=None, rename_label=None):
        super().__init__()
        if not isinstance(iters, list):
            iters = [iters]
        self.n_iter = len(iters)
        assert self.n_iter > 0
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.current_batch = None
        self._producers = []
        self._start()

    def _start(self):
        self._producers = [Producer(_BoundFetch(it), capacity=1, name="mxnet-PrefetchingIter")
                           for it in self.iters]

    def _stop(self):
        pending = None
        for p in self._producers:
            err = p.stop()
            pending = pending or err
        self._producers = []
        return pending

    def close(self):
        """Stop the prefetching threads."""
        self._stop()

    def __del__(self):
        try:
            for p in self._producers:
                p.__del__()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    @staticmethod
    def _renamed(descs, renames):
        if renames is None:
            return sum(descs, [])
        return sum([[DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, DataDesc) else
                     DataDesc(*x) for x in d] for r, d in zip(renames, descs)], [])

    @property
    def provide_data(self):
        return self._renamed([i.provide_data for i in self.iters], self.rename_data)

    @property
    def provide_label(self):
        return self._renamed([i.provide_label for i in self.iters], self.rename_label)

    def reset(self):
        pending = self._stop()
        for it in self.iters:
            it.reset()
        self._start()
        if pending is not None:
            raise pending

    def iter_next(self):
        if not self._producers:
            raise RuntimeError("PrefetchingIter is closed")
        results = []
        error = None
        for p in self._producers:
            try:
                results.append(p.get())
            except Exception as e:  # noqa: BLE001 - raised after the others are collected
                error = error or e
                results.append(None)
        if error is not None:
            raise error
        batches = results
        if batches[0] is None:
            for b in batches:
                assert b is None, "Number of entry mismatches between iterators"
            return False
        for b in batches:
            assert b is not None and b.pad == batches[0].pad, \
                "Number of entry mismatches between iterators"
        self.current_batch = DataBatch(sum([b.data for b in batches], []),
                                       sum([b.label for b in batches], []),
                                       batches[0].pad, batches[0].index,
                                       provide_data=self.provide_data,
                                       provide_label=self.provide_label)
        return True

    def next(self):
        # the batch iter_next built, with its provide_data / provide_label (as 1.9.1)
        if self.iter_next():
            return self.current_batch
        raise StopIteration


class _BoundFetch:
    """``fn()`` for a Producer: one ``next()`` of ``data_iter``, None at its end."""

    def __init__(self, data_iter):
        self.data_iter = data_iter

    def __call__(self):
        try:
            return self.data_iter.next()
        except StopIteration:
            return None


class NDArrayIter(DataIter):
    """Batches from in-memory arrays.

    ``data`` and ``label`` are an array, a list of arrays (named ``_<i>_data`` ...) or a dict of
    them (sorted by name). ``last_batch_handle`` says what happens to a short last batch:

    * ``'pad'`` fills it with examples from the start of the data and reports the count as
      ``pad``;
    * ``'discard'`` drops it;
    * ``'roll_over'`` keeps it and puts it in front of the first batch of the next epoch (after
      ``reset()``), whose ``pad`` then counts those carried examples.

    >>> import numpy as np
    >>> it = NDArrayIter(np.arange(10).reshape(5, 2), np.arange(5), batch_size=2)
    >>> [b.pad for b in it]
    [0, 0, 1]
    """

    def __init__(self, data, label=None, batch_size=1, shuffle=False, last_batch_handle="pad",
                 data_name="data", label_name="softmax_label", layout="NCHW"):
        super().__init__(batch_size)
        self.data = _init_data(data, allow_empty=False, default_name=data_name)
        self.label = _init_data(label, allow_empty=True, default_name=label_name)
        if last_batch_handle != "discard" and any(
                getattr(v, "stype", "default") == "csr" for _, v in self.data + self.label):
            # 1.9.1 refuses CSR sources unless short batches are dropped
            raise NotImplementedError(f"NDArrayIter: CSRNDArray data or labels need "
                                      f"last_batch_handle='discard', got {last_batch_handle!r}")
        if last_batch_handle not in ("pad", "discard", "roll_over"):
            # 1.9.1 accepts any value and then drops the short last batch, as 'discard' does
            # (scripts pass DataLoader's spelling 'rollover'): keep running, but say so
            warnings.warn(f"NDArrayIter: unknown last_batch_handle {last_batch_handle!r}; "
                          f"expected 'pad', 'discard' or 'roll_over'. The short last batch is "
                          f"dropped, as with 'discard'", stacklevel=2)
        self.idx = np.arange(self.data[0][1].shape[0])
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        self.batch_size = batch_size
        self.cursor = -self.batch_size
        self.num_data = self.idx.shape[0]
        self.layout = layout
        self.reset()
        self.data_list = [x[1] for x in self.data] + [x[1] for x in self.label]
        self.num_source = len(self.data_list)
        self._cache_data = None   # the short last batch, carried over by 'roll_over'
        self._cache_label = None

    def _descs(self, sources):
        axis = self.layout.find("N")
        return [DataDesc(k, tuple(list(v.shape[:axis]) + [self.batch_size] + list(v.shape[axis + 1:])),
                         v.dtype, layout=self.layout) for k, v in sources]

    @property
    def provide_data(self):
        """DataDesc of each data array of a batch."""
        return self._descs(self.data)

    @property
    def provide_label(self):
        """DataDesc of each label array of a batch."""
        return self._descs(self.label)

    def hard_reset(self):
        """Start again from the first example, dropping anything carried over."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = None
        self._cache_label = None

    def reset(self):
        """Start the next epoch (reshuffling when ``shuffle``)."""
        if self.shuffle:
            self._shuffle_data()
        if self.last_batch_handle == "roll_over" and \
                self.num_data - self.batch_size < self.cursor < self.num_data:
            # a short last batch was cut off: the next epoch starts that many examples early
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self):
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        if not self.iter_next():
            raise StopIteration
        data = self.getdata()
        label = self.getlabel()
        if data[0].shape[self.layout.find("N")] != self.batch_size:
            # a short last batch ('discard', 'roll_over'): keep it for the next epoch
            self._cache_data = data
            self._cache_label = label
            raise StopIteration
        return DataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def _getdata(self, data_source, start=None, end=None):
        assert start is not None or end is not None, "should at least specify start or end"
        start = start if start is not None else 0
        if end is None:
            end = data_source[0][1].shape[0] if data_source else 0
        s = slice(start, end)
        axis = self.layout.find("N")
        out = []
        for _, src in data_source:
            if isinstance(src, (np.ndarray, NDArray)):
                out.append(_slice_along_batch_axis(src, s, axis))
            else:  # h5py: read with increasing indices, then restore the order
                rows = list(self.idx[s])
                ordered = sorted(rows)
                out.append(array(src[ordered][[ordered.index(i) for i in rows]]))
        return out

    def _concat(self, first, second):
        if not first or not second:
            return first if first else second
        assert len(first) == len(second), "data source should contain the same size"
        axis = self.layout.find("N")
        return [concat(a, b, dim=axis) for a, b in zip(first, second)]

    @staticmethod
    def _tile(data, repeats):
        out = []
        for d in data:
            reps = [1] * len(d.shape)
            reps[0] = repeats
            out.append(tile(d, reps=tuple(reps)))
        return out

    def _batchify(self, data_source):
        assert self.cursor < self.num_data, "DataIter needs reset."
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            # first batch after a roll-over: the carried examples, then the start of the data
            assert self._cache_data is not None or self._cache_label is not None, \
                "next epoch should have cached data"
            cache = self._cache_data if self._cache_data is not None else self._cache_label
            second = self._getdata(data_source, end=self.cursor + self.batch_size)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cache, second)
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            pad = self.batch_size - self.num_data + self.cursor
            first = self._getdata(data_source, start=self.cursor)
            if pad > self.num_data:
                second = self._tile(self._getdata(data_source, end=self.num_data),
                                    pad // self.num_data)
                if pad % self.num_data:
                    second = self._concat(second, self._getdata(data_source, end=pad % self.num_data))
            else:
                second = self._getdata(data_source, end=pad)
            return self._concat(first, second)
        end = min(self.cursor + self.batch_size, self.num_data)
        return self._getdata(data_source, self.cursor, end)

    def getdata(self):
        return self._batchify(self.data)

    def getlabel(self):
        return self._batchify(self.label)

    def getpad(self):
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self):
        np.random.shuffle(self.idx)
        self.data = _getdata_by_idx(self.data, self.idx)
        self.label = _getdata_by_idx(self.label, self.idx)


class MXDataIter(DataIter):
    """Base of the iterators that 1.9.1 implements in C++ (CSVIter, MNISTIter, ImageRecordIter...).

    ``loader`` produces raw batches: ``loader.next()`` returns a
    :class:`~mxnet.io._native.RawBatch` of NumPy arrays or None at the end of the epoch, and
    ``loader.before_first()`` starts the next epoch. With ``prefetch_buffer`` > 0 the loader
    runs on a background thread up to that many batches ahead; its exceptions are raised by
    ``next()`` (or by ``reset()`` when they happened ahead of the consumer).

    As in 1.9.1 the first batch is read by the constructor (so bad parameters and unreadable
    files fail there) and ``getdata()`` / ``getlabel()`` return single arrays.
    """

    def __init__(self, loader, data_name="data", label_name="softmax_label", prefetch_buffer=0, **_):
        super().__init__()
        self._loader = loader
        self._prefetch = int(prefetch_buffer)
        self._producer = None
        self._debug_skip_load = False
        self._debug_at_begin = True
        self._current = None
        self._start()
        self.first_batch = None
        try:
            self.first_batch = self.next()
        except BaseException:
            self.close()
            raise
        data = self.first_batch.data[0]
        label = self.first_batch.label[0]
        self.provide_data = [DataDesc(data_name, data.shape, data.dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, label.dtype)]
        self.batch_size = data.shape[0]

    def __repr__(self):
        # 1.9.1 builds every native iterator as a plain MXDataIter, so that is what users see
        return f"<mxnet.io.io.MXDataIter object at {id(self):#x}>"

    # -- the loader thread ------------------------------------------------------------------------
    def _start(self):
        if self._prefetch > 0:
            self._producer = Producer(self._loader.next, capacity=self._prefetch,
                                      name=f"mxnet-{type(self).__name__}")

    def _stop(self):
        if self._producer is None:
            return None
        pending = self._producer.stop()
        self._producer = None
        return pending

    def _next_raw(self):
        if self._producer is not None:
            return self._producer.get()
        if self._prefetch > 0:  # stopped by close()
            raise RuntimeError(f"{type(self).__name__} is closed")
        return self._loader.next()

    def close(self):
        """Stop the background thread (the iterator cannot be used afterwards)."""
        self._stop()
        closer = getattr(self._loader, "close", None)
        if closer is not None:
            closer()

    def __del__(self):
        try:
            if self._producer is not None:
                self._producer.__del__()
            closer = getattr(self._loader, "close", None)
            if closer is not None:
                closer()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    # -- the DataIter protocol ------------------------------------------------------------------
    def debug_skip_load(self):
        """From now on return the first batch over and over (to time a model without I/O)."""
        self._debug_skip_load = True
        logging.info("Set debug_skip_load to be true, will simply return first batch")

    def reset(self):
        self._debug_at_begin = True
        self.first_batch = None
        pending = self._stop()
        self._loader.before_first()
        self._start()
        if pending is not None:
            raise pending

    def _as_batch(self, raw):
        self._current = raw
        return DataBatch(data=[self.getdata()], label=[self.getlabel()], pad=self.getpad(),
                         index=self.getindex())

    def next(self):
        if self._debug_skip_load and not self._debug_at_begin:
            return DataBatch(data=[self.getdata()], label=[self.getlabel()], pad=self.getpad(),
                             index=self.getindex())
        if self.first_batch is not None:
            batch = self.first_batch
            self.first_batch = None
            return batch
        self._debug_at_begin = False
        raw = self._next_raw()
        if raw is None:
            raise StopIteration
        return self._as_batch(raw)

    def iter_next(self):
        if self.first_batch is not None:
            return True
        raw = self._next_raw()
        if raw is None:
            return 0  # 1.9.1 hands back the C API's int flag here
        self._current = raw
        return 1

    def getdata(self):
        return _wrap_host(self._current.data)

    def getlabel(self):
        return _wrap_host(self._current.label)

    def getindex(self):
        index = self._current.index
        return None if index is None or len(index) == 0 else np.array(index, np.uint64)

    def getpad(self):
        return int(self._current.pad)
