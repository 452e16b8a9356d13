"""MNISTIter: batches from MNIST's idx files (images and labels).

The images are scaled by 1/256 as in 1.9.1. ``shuffle`` (on by default) permutes the examples
once, at construction, in the same order as 1.9.1: ``std::shuffle`` of libstdc++ (one swap per
element) driven by ``std::mt19937(seed)``, drawing each index with the division-based
``uniform_int_distribution``.
"""
from __future__ import annotations

import struct

import numpy as np

from ..base import MXNetError, native_log
from ._native import RawBatch, parse_bool, parse_int, parse_str
from .io import MXDataIter

__all__ = ["MNISTIter"]


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise MXNetError(f'LocalFileSystem: Check failed: allow_null: :Open "{path}": No such file '
                         "or directory") from None


def _mt19937_words(seed):
    """An endless stream of std::mt19937(seed) outputs (32-bit), via NumPy's MT19937."""
    state = np.random.RandomState(seed & 0xFFFFFFFF).get_state()
    bitgen = np.random.MT19937()
    bitgen.state = {"bit_generator": "MT19937", "state": {"key": state[1], "pos": state[2]}}
    while True:
        yield from bitgen.random_raw(1024).tolist()


def std_shuffle_order(n, seed):
    """The order std::shuffle(v.begin(), v.end(), std::mt19937(seed)) leaves 0..n-1 in."""
    words = _mt19937_words(seed)
    order = list(range(n))
    for i in range(1, n):
        # uniform_int_distribution(0, i): reject the top partial bucket, then divide
        scaling = 0xFFFFFFFF // (i + 1)
        past = (i + 1) * scaling
        r = next(words)
        while r >= past:
            r = next(words)
        j = r // scaling
        order[i], order[j] = order[j], order[i]
    return np.array(order, np.int64)


class _MNISTLoader:
    def __init__(self, images, labels, batch_size, flat):
        self.images = images
        self.labels = labels
        self.batch_size = batch_size
        self.flat = flat
        self.loc = 0

    def before_first(self):
        self.loc = 0

    def next(self):
        b = self.batch_size
        if self.loc + b > len(self.images):
            return None
        data = self.images[self.loc:self.loc + b]
        data = data.reshape(b, -1) if self.flat else data[:, None]
        label = self.labels[self.loc:self.loc + b]
        self.loc += b
        return RawBatch(np.array(data), np.array(label), 0, np.zeros(b, np.uint64))


class MNISTIter(MXDataIter):
    """Batches of MNIST images (float32 in [0, 1), shape (batch, 1, rows, cols), or
    (batch, rows * cols) with ``flat``) and labels (batch,).

    Only whole batches are returned; the examples left over at the end of an epoch are skipped.
    ``num_parts`` / ``part_index`` select a contiguous share of the file. All arguments are
    keywords.
    """

    def __init__(self, *args, **kwargs):
        if args:
            raise TypeError("MNISTIter can only accept keyword arguments")
        image = parse_str(kwargs.get("image", "./train-images-idx3-ubyte"), "image")
        label = parse_str(kwargs.get("label", "./train-labels-idx1-ubyte"), "label")
        batch_size = parse_int(kwargs.get("batch_size", 128), "batch_size")
        shuffle = parse_bool(kwargs.get("shuffle", True), "shuffle")
        flat = parse_bool(kwargs.get("flat", False), "flat")
        seed = parse_int(kwargs.get("seed", 0), "seed")
        silent = parse_bool(kwargs.get("silent", False), "silent")
        num_parts = parse_int(kwargs.get("num_parts", 1), "num_parts")
        part_index = parse_int(kwargs.get("part_index", 0), "part_index")
        if batch_size <= 0:
            raise MXNetError(f"MNISTIter: batch_size must be positive, got {batch_size}")
        if num_parts <= 0 or not 0 <= part_index < num_parts:
            raise MXNetError(f"MNISTIter: invalid part_index {part_index} of num_parts {num_parts}")
        dtype = kwargs.get("dtype", None)
        if dtype not in (None, "None", "float32", np.float32):
            # 1.9.1 accepts the option but fails reading the first batch into any other type
            raise MXNetError(f"MNISTIter: dtype must be float32, got {dtype}")

        raw = _read(image)
        if len(raw) < 16:
            raise MXNetError(f"MNISTIter: {image} is not an idx image file")
        count, rows, cols = struct.unpack(">III", raw[4:16])
        if len(raw) < 16 + count * rows * cols:
            raise MXNetError(f"MNISTIter: {image} is truncated")
        pixels = np.frombuffer(raw, np.uint8, count * rows * cols, 16).reshape(count, rows, cols)
        raw = _read(label)
        if len(raw) < 8:
            raise MXNetError(f"MNISTIter: {label} is not an idx label file")
        n_labels = struct.unpack(">I", raw[4:8])[0]
        if n_labels < count or len(raw) < 8 + count:
            raise MXNetError(f"MNISTIter: {label} holds fewer labels than {image} holds images")
        labels = np.frombuffer(raw, np.uint8, count, 8).astype(np.float32)
        start = count * part_index // num_parts
        end = count * (part_index + 1) // num_parts
        order = np.arange(start, end)
        if shuffle:
            order = order[std_shuffle_order(end - start, seed)]
        images = pixels[order].astype(np.float32) * np.float32(1.0 / 256.0)
        labels = labels[order]
        if not silent:
            # 1.9.1 logs the flat shape as a tuple and the 4-d one as a list, from two lines
            if flat:
                source, shape = "../src/io/iter_mnist.cc:109", f"({batch_size},{rows * cols})"
            else:
                source, shape = "../src/io/iter_mnist.cc:112", f"[{batch_size},1,{rows},{cols}]"
            native_log(source, f"MNISTIter: load {end - start} images, "
                       f"shuffle={int(shuffle)}, shape={shape}")
        loader = _MNISTLoader(images, labels, batch_size, flat)
        super().__init__(loader, data_name=kwargs.get("data_name", "data"),
                         label_name=kwargs.get("label_name", "softmax_label"), prefetch_buffer=0)
