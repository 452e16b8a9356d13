"""ImageIter: batches of augmented images from a RecordIO file, an image list, or both.

The reading order, the padding of the last batch and the labels follow 1.9.1's ImageIter, so
the same files and seeds give the same batches. The batch is assembled in NumPy buffers and
wrapped into NDArrays once per batch.
"""
from __future__ import annotations

import logging
import os
import random

import numpy as np

from .. import ndarray as nd
from .. import recordio
from ..base import MXNetError, MXNetValueError, numeric_types
from ..io import DataBatch, DataIter
from .augmenters import CreateAugmenter, _ImageArgError
from .image import imdecode

__all__ = ["ImageIter"]

_LABEL_DTYPES = ("int32", "float32", "int64", "float64")
_LAST_BATCH = ("pad", "discard", "roll_over")


def _host(x):
    return x.asnumpy() if isinstance(x, nd.NDArray) else np.asarray(x)


class ImageIter(DataIter):
    """Iterate over images with labels, decoding and augmenting each one.

    Sources (at least one): ``path_imgrec`` (a ``.rec`` file, with ``path_imgidx`` its index,
    needed for ``shuffle`` and ``num_parts``), ``path_imglist`` (a ``.lst`` file with lines
    ``index<TAB>label(s)<TAB>path``, paths relative to ``path_root``), or ``imglist`` (a list of
    ``[label(s)..., path]``). With both a record file and a list, the images come from the
    record file and the labels from the list.

    ``aug_list`` is the list of augmenters; without it, ``CreateAugmenter(data_shape, **kwargs)``
    makes one. Batches hold ``data`` of shape ``(batch_size,) + data_shape`` (float32, C, H, W)
    and ``label`` of shape ``(batch_size,)`` or ``(batch_size, label_width)``.

    ``last_batch_handle``: ``'pad'`` fills the last batch with images from the start again
    (``batch.pad`` says how many), ``'discard'`` drops it, ``'roll_over'`` keeps its images and
    completes the batch at the start of the next epoch.
    """

    def __init__(self, batch_size, data_shape, label_width=1, path_imgrec=None, path_imglist=None,
                 path_root=None, path_imgidx=None, shuffle=False, part_index=0, num_parts=1,
                 aug_list=None, imglist=None, data_name="data", label_name="softmax_label",
                 dtype="float32", last_batch_handle="pad", **kwargs):
        DataIter.__init__(self, batch_size)
        if not (path_imgrec or path_imglist or isinstance(imglist, list)):
            raise _ImageArgError("ImageIter needs path_imgrec, path_imglist or an imglist list")
        if dtype not in _LABEL_DTYPES:
            raise _ImageArgError(f"ImageIter: label dtype {dtype!r} is not supported; use one of "
                             f"{', '.join(_LABEL_DTYPES)}")
        if last_batch_handle not in _LAST_BATCH:
            raise ValueError(f"ImageIter: last_batch_handle must be one of {_LAST_BATCH}, "
                             f"got {last_batch_handle!r}")
        name = type(self).__name__
        logging.info("Using %s threads for decoding...",
                     os.environ.get("MXNET_CPU_WORKER_NTHREADS", 1))
        logging.info("Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number "
                     "to use more threads.")
        if path_imgrec:
            logging.info("%s: loading recordio %s...", name, path_imgrec)
            if path_imgidx:
                self.imgrec = recordio.MXIndexedRecordIO(path_imgidx, path_imgrec, "r")
                self.imgidx = list(self.imgrec.keys)
            else:
                self.imgrec = recordio.MXRecordIO(path_imgrec, "r")
                self.imgidx = None
        else:
            self.imgrec = None

        imgkeys = None
        if path_imglist:
            logging.info("%s: loading image list %s...", name, path_imglist)
            self.imglist, imgkeys = self._read_list_file(path_imglist, dtype)
        elif isinstance(imglist, list):
            logging.info("%s: loading image list...", name)
            self.imglist, imgkeys = {}, []
            for n, item in enumerate(imglist, 1):
                key = str(n)
                if len(item) > 2:
                    label = np.asarray(item[:-1], dtype=dtype)
                elif isinstance(item[0], numeric_types):
                    label = np.asarray([item[0]], dtype=dtype)
                else:
                    label = np.asarray(_host(item[0]), dtype=dtype).reshape(-1)
                self.imglist[key] = (nd.array(label, dtype=dtype), item[-1])  # 1.9.1 keeps NDArrays
                imgkeys.append(key)
        else:
            self.imglist = None
        self.path_root = path_root

        self.check_data_shape(data_shape)
        data_shape = tuple(data_shape)
        self.provide_data = [(data_name, (batch_size,) + data_shape)]
        if label_width > 1:
            self.provide_label = [(label_name, (batch_size, label_width))]
        else:
            self.provide_label = [(label_name, (batch_size,))]
        self.batch_size = batch_size
        self.data_shape = data_shape
        self.label_width = label_width
        self.shuffle = shuffle
        if self.imgrec is None:
            self.seq = imgkeys
        elif shuffle or num_parts > 1 or path_imgidx:
            if self.imgidx is None:
                raise _ImageArgError("ImageIter: shuffle and num_parts > 1 need the index file "
                                     "path_imgidx of the record file")
            self.seq = self.imgidx
        else:
            self.seq = None
        if num_parts > 1:
            if not 0 <= part_index < num_parts:
                raise _ImageArgError(f"ImageIter: part_index {part_index} is not in [0, {num_parts})")
            per_part = len(self.seq) // num_parts
            self.seq = self.seq[part_index * per_part:(part_index + 1) * per_part]
        self.auglist = CreateAugmenter(data_shape, **kwargs) if aug_list is None else aug_list
        self.cur = 0
        self._allow_read = True
        self.last_batch_handle = last_batch_handle
        self.num_image = len(self.seq) if self.seq is not None else None
        self._cache_data = None
        self._cache_label = None
        self._cache_idx = None
        self.reset()

    @staticmethod
    def _read_list_file(path, dtype):
        table, keys = {}, []
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                fields = line.strip().split("\t")
                if fields == [""]:
                    continue
                try:
                    if len(fields) < 2:
                        raise ValueError("expected 'index<TAB>label(s)<TAB>path'")
                    key = int(fields[0])
                    label = np.asarray([float(v) for v in fields[1:-1]], dtype=dtype)
                except ValueError as e:
                    raise MXNetError(f"ImageIter: bad line {lineno} of {path!r}: "
                                     f"{line.rstrip()!r} ({e})") from None
                table[key] = (nd.array(label, dtype=dtype), fields[-1])  # 1.9.1 keeps NDArrays
                keys.append(key)
        return table, keys

    # -- epochs -------------------------------------------------------------------------------------
    def reset(self):
        """Start a new epoch (shuffled when ``shuffle``); with ``'roll_over'`` and images
        held over, reading continues where it stopped."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.last_batch_handle != "roll_over" or self._cache_data is None:
            if self.imgrec is not None:
                self.imgrec.reset()
            self.cur = 0
            self._allow_read = True

    def hard_reset(self):
        """Start a new epoch from the first image, dropping any held-over images."""
        if self.seq is not None and self.shuffle:
            random.shuffle(self.seq)
        if self.imgrec is not None:
            self.imgrec.reset()
        self.cur = 0
        self._allow_read = True
        self._cache_data = None
        self._cache_label = None
        self._cache_idx = None

    # -- samples ------------------------------------------------------------------------------------
    def next_sample(self):
        """The next ``(label, encoded image bytes)``; StopIteration at the end of the epoch."""
        if not self._allow_read:
            raise StopIteration
        if self.seq is None:
            s = self.imgrec.read()
            if s is None:
                if self.last_batch_handle != "discard":
                    self.imgrec.reset()
                raise StopIteration
            header, img = recordio.unpack(s)
            return header.label, img
        if self.cur >= self.num_image:
            if self.last_batch_handle != "discard":
                self.cur = 0
            raise StopIteration
        idx = self.seq[self.cur]
        self.cur += 1
        if self.imgrec is not None:
            header, img = recordio.unpack(self.imgrec.read_idx(idx))
            if self.imglist is None:
                return header.label, img
            return self.imglist[idx][0], img
        label, fname = self.imglist[idx]
        return label, self.read_image(fname)

    def _store_label(self, batch_label, i, label):
        value = np.asarray(_host(label), dtype=np.float32).reshape(-1)
        slot = batch_label[i]
        if value.size == 1:
            batch_label[i] = value[0]
        elif value.size == slot.size:
            batch_label[i] = value.reshape(slot.shape)
        else:
            # a ValueError in 1.9.1 (its NumPy copy cannot broadcast)
            raise MXNetValueError(f"ImageIter: an image has {value.size} label values but "
                                  f"label_width is {self.label_width}")

    def _batchify(self, batch_data, batch_label, start=0):
        """Fill the buffers from position ``start``; returns how many slots are filled."""
        i = start
        try:
            while i < self.batch_size:
                label, s = self.next_sample()
                data = self.imdecode(s)
                try:
                    self.check_valid_image(data)
                except RuntimeError as e:
                    logging.debug("Invalid image, skipping:  %s", e)
                    continue
                data = self.augmentation_transform(data)
                batch_data[i] = _host(self.postprocess_data(data))
                self._store_label(batch_label, i, label)
                i += 1
        except StopIteration:
            if not i:
                raise
        return i

    def next(self):
        """The next DataBatch; StopIteration at the end of the epoch."""
        if self._cache_data is not None:
            batch_data, batch_label, i = self._cache_data, self._cache_label, self._cache_idx
        else:
            batch_data = np.zeros((self.batch_size,) + tuple(self.data_shape), np.float32)
            batch_label = self._new_label()
            i = self._batchify(batch_data, batch_label)
        pad = self.batch_size - i
        if pad:
            if self.last_batch_handle == "discard":
                raise StopIteration
            if self.last_batch_handle == "roll_over" and self._cache_data is None:
                self._cache_data, self._cache_label, self._cache_idx = batch_data, batch_label, i
                raise StopIteration
            self._batchify(batch_data, batch_label, i)
            if self.last_batch_handle == "pad":
                self._allow_read = False
            else:
                self._cache_data = self._cache_label = self._cache_idx = None
        from ..util import is_np_array
        if is_np_array():
            from .. import numpy as mx_np
            return DataBatch([mx_np.array(batch_data)], [mx_np.array(batch_label)], pad=pad)
        return DataBatch([nd.array(batch_data)], [nd.array(batch_label)], pad=pad)

    def _new_label(self):
        """A batch's label array before the samples are written into it."""
        return np.zeros(self.provide_label[0][1], np.float32)

    # -- hooks --------------------------------------------------------------------------------------
    def check_data_shape(self, data_shape):
        """``data_shape`` must be (3, H, W)."""
        if len(data_shape) != 3:
            raise ValueError("data_shape should have length 3, with dimensions CxHxW")
        if data_shape[0] != 3:
            raise ValueError("This iterator expects inputs to have 3 channels.")

    def check_valid_image(self, data):
        """Raise RuntimeError for an image to skip."""
        if len(data[0].shape) == 0:
            raise RuntimeError("Data shape is wrong")

    def _locate(self):
        if self.seq is not None:
            idx = self.seq[(self.cur % self.num_image) - 1]
        else:
            idx = self.cur - 1
        if self.imglist is not None:
            return f"Broken image filename: {self.imglist[idx][1]}"
        return f"Broken image index: {idx}"

    def imdecode(self, s):
        """Decode one image (RGB, uint8 NDArray); RuntimeError naming the image on failure."""
        try:
            return imdecode(s)
        except ImportError:  # no decoder installed (Pillow): not a broken image
            raise
        except Exception as e:  # noqa: BLE001 - reported with the image's name
            raise RuntimeError(f"{self._locate()}, {e}") from e

    def read_image(self, fname):
        """The bytes of the image file ``fname`` (relative to ``path_root``)."""
        with open(os.path.join(self.path_root or "", fname), "rb") as f:
            return f.read()

    def augmentation_transform(self, data):
        """Apply the augmenters in order."""
        for aug in self.auglist:
            data = aug(data)
        return data

    def postprocess_data(self, datum):
        """(H, W, C) -> (C, H, W)."""
        return nd.transpose(datum, axes=(2, 0, 1))
