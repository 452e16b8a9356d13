"""Vision datasets: MNIST, FashionMNIST, CIFAR10/100 from their standard files, image folders
and image RecordIO files.

The file datasets read from ``root`` (default ``$MXNET_HOME/datasets/<name>``, with
``MXNET_HOME`` defaulting to ``~/.mxnet``). Files already in ``root`` are used as they are.
A missing file is fetched once with :func:`mxnet.gluon.utils.download`; when that fails (for
example offline) the error names the files to place in ``root``.
"""
from __future__ import annotations

import gzip
import os
import struct
import tarfile
import warnings

import numpy as np

from .... import context as _context
from .... import ndarray as nd
from .... import util as _util
from ....base import MXNetError
from ... import utils as _gutils
from .. import dataset as _dataset
from .._recordio import unpack as _unpack_record
from . import _image

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageRecordDataset",
           "ImageFolderDataset"]


def _data_dir():
    return os.getenv("MXNET_HOME", os.path.join(os.path.expanduser("~"), ".mxnet"))


def _repo_file_url(namespace, filename):
    base = os.environ.get("MXNET_GLUON_REPO",
                          "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/")
    if not base.endswith("/"):
        base += "/"
    return f"{base}{namespace}/{filename}"


def _missing_error(name, root, files, url, reason):
    listing = ", ".join(files)
    return MXNetError(
        f"{name}: the data files are not in {root} and downloading them failed ({reason}). "
        f"Place these files in {root} (or pass root= pointing to a folder holding them): {listing}. "
        f"They are available from {url}")


class MNIST(_dataset._DownloadedDataset):
    """MNIST handwritten digits: samples ``(image, label)``, image a uint8 NDArray (28, 28, 1),
    label an int32.

    Parameters
    ----------
    root : str, default ``$MXNET_HOME/datasets/mnist``
        Folder with ``train-images-idx3-ubyte.gz``, ``train-labels-idx1-ubyte.gz``,
        ``t10k-images-idx3-ubyte.gz``, ``t10k-labels-idx1-ubyte.gz`` (or the same names
        without ``.gz``).
    train : bool, default True
        The training set (60000 images) or the test set (10000).
    transform : callable, default None
        Called as ``transform(image, label)`` for every sample read.
    """

    _name = "MNIST"

    def __init__(self, root=os.path.join(_data_dir(), "datasets", "mnist"), train=True,
                 transform=None):
        self._train = train
        self._train_data = ("train-images-idx3-ubyte.gz", "6c95f4b05d2bf285e1bfb0e7960c31bd3b3f8a7d")
        self._train_label = ("train-labels-idx1-ubyte.gz", "2a80914081dc54586dbdf242f9805a6b8d2a15fc")
        self._test_data = ("t10k-images-idx3-ubyte.gz", "c3a25af1f52dad7f726cce8cacb138654b760d48")
        self._test_label = ("t10k-labels-idx1-ubyte.gz", "763e7fa3757d93b0cdec073cef058b2004252c17")
        self._namespace = "mnist"
        super().__init__(root, transform)

    def _local(self, filename):
        for candidate in (filename, filename[:-3] if filename.endswith(".gz") else None):
            if candidate and os.path.isfile(os.path.join(self._root, candidate)):
                return os.path.join(self._root, candidate)
        return None

    def _fetch(self, files):
        """Local paths of ``files`` ((name, sha1) pairs), downloading the missing ones once."""
        paths = [self._local(name) for name, _ in files]
        missing = [f for f, p in zip(files, paths) if p is None]
        if missing:
            namespace = "gluon/dataset/" + self._namespace
            url = _repo_file_url(namespace, missing[0][0])
            try:
                for name, sha1 in missing:
                    url = _repo_file_url(namespace, name)
                    _gutils.download(url, path=self._root, sha1_hash=sha1)
            except Exception as e:  # noqa: BLE001 - any failure means: tell the user what to do
                raise _missing_error(self._name, self._root, [n for n, _ in missing], url,
                                     f"{type(e).__name__}: {e}") from None
            paths = [self._local(name) for name, _ in files]
        return paths

    def _get_data(self):
        if self._train:
            data, label = self._train_data, self._train_label
        else:
            data, label = self._test_data, self._test_label
        data_file, label_file = self._fetch([data, label])
        labels = _read_idx_file(label_file, 2049)
        images = _read_idx_file(data_file, 2051)
        if len(images) != len(labels):
            raise MXNetError(f"{self._name}: {data_file} holds {len(images)} images but "
                             f"{label_file} holds {len(labels)} labels")
        self._data = nd.array(images[..., None], dtype=np.uint8, ctx=_context.cpu())
        self._label = labels.astype(np.int32)


def _read_idx_file(path, magic):
    """An IDX file (big-endian magic, dims, then uint8 data), gzipped or not, as a NumPy array."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    found, = struct.unpack(">I", raw[:4])
    if found != magic:
        raise MXNetError(f"{path}: not an IDX file of the expected kind (magic {found}, "
                         f"expected {magic})")
    ndim = magic & 0xFF
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    body = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim)
    count = int(np.prod(dims))
    if body.size < count:
        raise MXNetError(f"{path}: truncated, expected {count} values, found {body.size}")
    return body[:count].reshape(dims)


class FashionMNIST(MNIST):
    """Zalando's Fashion-MNIST, a drop-in replacement of MNIST with the same file names and
    layout (default root ``$MXNET_HOME/datasets/fashion-mnist``)."""

    _name = "FashionMNIST"

    def __init__(self, root=os.path.join(_data_dir(), "datasets", "fashion-mnist"), train=True,
                 transform=None):
        self._train = train
        self._train_data = ("train-images-idx3-ubyte.gz", "0cf37b0d40ed5169c6b3aba31069a9770ac9043d")
        self._train_label = ("train-labels-idx1-ubyte.gz", "236021d52f1e40852b06a4c3008d8de8aef1e40b")
        self._test_data = ("t10k-images-idx3-ubyte.gz", "626ed6a7c06dd17c0eec72fa3be1740f146a2863")
        self._test_label = ("t10k-labels-idx1-ubyte.gz", "17f9ab60e7257a1620f4ad76bbbaf857c3920701")
        self._namespace = "fashion-mnist"
        _dataset._DownloadedDataset.__init__(self, root, transform)


class CIFAR10(_dataset._DownloadedDataset):
    """CIFAR-10: samples ``(image, label)``, image a uint8 NDArray (32, 32, 3), label an int32.

    Parameters
    ----------
    root : str, default ``$MXNET_HOME/datasets/cifar10``
        Folder with the binary batches ``data_batch_1.bin`` ... ``data_batch_5.bin`` and
        ``test_batch.bin`` (directly, or in ``cifar-10-batches-bin/``); each record is one
        label byte and 3072 pixel bytes (channel-major 3 x 32 x 32).
    train : bool, default True
        The training batches or the test batch.
    transform : callable, default None
        Called as ``transform(image, label)`` for every sample read.
    """

    _name = "CIFAR10"
    _subdir = "cifar-10-batches-bin"
    _label_bytes = 1

    def __init__(self, root=os.path.join(_data_dir(), "datasets", "cifar10"), train=True,
                 transform=None):
        self._train = train
        self._archive_file = ("cifar-10-binary.tar.gz", "fab780a1e191a7eda0f345501ccd62d20f7ed891")
        self._train_data = [("data_batch_1.bin", "aadd24acce27caa71bf4b10992e9e7b2d74c2540"),
                            ("data_batch_2.bin", "c0ba65cce70568cd57b4e03e9ac8d2a5367c1795"),
                            ("data_batch_3.bin", "1dd00a74ab1d17a6e7d73e185b69dbf31242f295"),
                            ("data_batch_4.bin", "aab85764eb3584312d3c7f65fd2fd016e36a258e"),
                            ("data_batch_5.bin", "26e2849e66a845b7f1e4614ae70f4889ae604628")]
        self._test_data = [("test_batch.bin", "67eb016db431130d61cd03c7ad570b013799c88c")]
        self._namespace = "cifar10"
        super().__init__(root, transform)

    def _local(self, name):
        for folder in (self._root, os.path.join(self._root, self._subdir)):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                return path
        return None

    def _read_batch(self, filename):
        with open(filename, "rb") as fin:
            raw = np.frombuffer(fin.read(), dtype=np.uint8)
        record = 3072 + self._label_bytes
        if raw.size % record:
            raise MXNetError(f"{self._name}: {filename} is not a CIFAR binary batch (its size "
                             f"{raw.size} is not a multiple of {record} bytes)")
        raw = raw.reshape(-1, record)
        images = raw[:, self._label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        return images, raw[:, self._label_column()].astype(np.int32)

    def _label_column(self):
        return 0

    def _get_data(self):
        names = [n for n, _ in self._train_data + self._test_data]
        if any(self._local(n) is None for n in names):
            archive, sha1 = self._archive_file
            url = _repo_file_url("gluon/dataset/" + self._namespace, archive)
            try:
                path = _gutils.download(url, path=self._root, sha1_hash=sha1)
                with tarfile.open(path) as tar:
                    try:
                        tar.extractall(self._root, filter="data")
                    except TypeError:  # Pythons without extraction filters
                        tar.extractall(self._root)
            except Exception as e:  # noqa: BLE001 - any failure means: tell the user what to do
                missing = [n for n in names if self._local(n) is None]
                raise _missing_error(self._name, self._root, missing, url,
                                     f"{type(e).__name__}: {e}") from None
        files = self._train_data if self._train else self._test_data
        parts = [self._read_batch(self._local(name)) for name, _ in files]
        data = np.concatenate([p[0] for p in parts])
        label = np.concatenate([p[1] for p in parts])
        self._data = nd.array(data, dtype=data.dtype, ctx=_context.cpu())
        self._label = label


class CIFAR100(CIFAR10):
    """CIFAR-100 (``train.bin`` / ``test.bin``; default root ``$MXNET_HOME/datasets/cifar100``).

    Each record holds a coarse label byte, a fine label byte and 3072 pixel bytes;
    ``fine_label=True`` gives the 100 fine classes, otherwise the 20 coarse ones.
    """

    _name = "CIFAR100"
    _subdir = "cifar-100-binary"
    _label_bytes = 2

    def __init__(self, root=os.path.join(_data_dir(), "datasets", "cifar100"), fine_label=False,
                 train=True, transform=None):
        self._train = train
        self._archive_file = ("cifar-100-binary.tar.gz", "a0bb982c76b83111308126cc779a992fa506b90b")
        self._train_data = [("train.bin", "e207cd2e05b73b1393c74c7f5e7bea451d63e08e")]
        self._test_data = [("test.bin", "8fb6623e830365ff53cf14adec797474f5478006")]
        self._fine_label = fine_label
        self._namespace = "cifar100"
        _dataset._DownloadedDataset.__init__(self, root, transform)

    def _label_column(self):
        return 1 if self._fine_label else 0


class ImageRecordDataset(_dataset.RecordFileDataset):
    """Images with labels in a RecordIO file (as written by im2rec / ``recordio.pack_img``).

    Samples are ``(image, label)``: a uint8 NDArray (H, W, 3) for ``flag=1`` or (H, W, 1)
    for ``flag=0``, and the header's label (a float, or a float32 array for multi-labels).
    ``transform(image, label)`` is applied when given.
    """

    def __init__(self, filename, flag=1, transform=None):
        super().__init__(filename)
        self._flag = flag
        self._transform = transform

    def __getitem__(self, idx):
        header, payload = _unpack_record(super().__getitem__(idx))
        img = nd.array(_image.imdecode(payload, self._flag), dtype=np.uint8, ctx=_context.cpu())
        if _util.is_np_array():   # mx.np images under npx.set_np(), as in 1.9.1
            img = img.as_np_ndarray()
        if self._transform is not None:
            return self._transform(img, header.label)
        return img, header.label


class ImageFolderDataset(_dataset.Dataset):
    """Images stored as ``root/<class name>/<file>``; classes are numbered in sorted order.

    Only ``.jpg``, ``.jpeg`` and ``.png`` files are used (others are skipped with a
    warning). Samples are ``(image, label)`` with the image a uint8 NDArray (H, W, 3), or
    (H, W, 1) for ``flag=0``, and the label an int.

    Attributes
    ----------
    synsets : list of str
        The class names; ``synsets[i]`` is the name of label ``i``.
    items : list of (str, int)
        Every image path with its label.
    """

    def __init__(self, root, flag=1, transform=None):
        self._root = os.path.expanduser(root)
        self._flag = flag
        self._transform = transform
        self._exts = [".jpg", ".jpeg", ".png"]
        self._list_images(self._root)

    def _list_images(self, root):
        self.synsets = []
        self.items = []
        for folder in sorted(os.listdir(root)):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                warnings.warn(f"Ignoring {path}, which is not a directory.", stacklevel=1)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for filename in sorted(os.listdir(path)):
                filename = os.path.join(path, filename)
                ext = os.path.splitext(filename)[1]
                if ext.lower() not in self._exts:
                    warnings.warn(f"Ignoring {filename} of type {ext}. Only support "
                                  f"{', '.join(self._exts)}", stacklevel=1)
                    continue
                self.items.append((filename, label))

    def __getitem__(self, idx):
        path, label = self.items[idx]
        img = nd.array(_image.imread(path, self._flag), dtype=np.uint8, ctx=_context.cpu())
        if _util.is_np_array():   # mx.np images under npx.set_np(), as in 1.9.1
            img = img.as_np_ndarray()
        if self._transform is not None:
            return self._transform(img, label)
        return img, label

    def __len__(self):
        return len(self.items)
