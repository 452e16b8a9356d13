"""Text helpers of the legacy ``mx.rnn`` API: sentence encoding and a bucketing iterator for
language models (the label of each step is the next token)."""
from __future__ import annotations

import bisect
import random

import numpy as np

from .. import ndarray
from ..base import MXNetValueError
from ..io import DataBatch, DataDesc, DataIter

__all__ = ["encode_sentences", "BucketSentenceIter"]


def encode_sentences(sentences, vocab=None, invalid_label=-1, invalid_key="\n", start_label=0,
                     unknown_token=None):
    """Map token sentences to integer sentences.

    Parameters
    ----------
    sentences : list of list of str
    vocab : dict of str -> int, optional
        Existing vocabulary. When None a new one ``{invalid_key: invalid_label}`` is built and
        every new token gets the next free index from ``start_label`` on (skipping
        ``invalid_label``).
    invalid_label : int, default -1
    invalid_key : str, default '\\n'
    start_label : int, default 0
    unknown_token : str, optional
        With a given ``vocab``, tokens missing from it map to this token (added on first use);
        without it a missing token is an error.

    Returns
    -------
    (list of list of int, dict of str -> int)
        The encoded sentences and the (possibly extended) vocabulary.
    """
    fresh = vocab is None
    if fresh:
        vocab = {invalid_key: invalid_label}
    nxt = start_label
    encoded = []
    for sent in sentences:
        codes = []
        for word in sent:
            if word not in vocab:
                if not (fresh or unknown_token):
                    raise AssertionError(f"Unknown token {word}")
                if nxt == invalid_label:
                    nxt += 1
                if unknown_token:
                    word = unknown_token
                vocab[word] = nxt
                nxt += 1
            codes.append(vocab[word])
        encoded.append(codes)
    return encoded, vocab


class BucketSentenceIter(DataIter):
    """Batches of equal-length (padded) sentences for bucketing language models.

    Each sentence goes to the smallest bucket at least as long (longer ones are dropped) and is
    padded with ``invalid_label``; the label is the sentence shifted left by one step, ending
    in ``invalid_label``. Every batch comes from one bucket and carries it as ``bucket_key``.
    ``reset`` reshuffles the batch order with Python's ``random`` module and the sentences
    within each bucket with NumPy's global RNG, as 1.9.1 does.

    Parameters
    ----------
    sentences : list of list of int
    batch_size : int
    buckets : list of int, optional
        Bucket lengths; by default every length shared by at least ``batch_size`` sentences.
    invalid_label : int, default -1
    data_name : str, default 'data'
    label_name : str, default 'softmax_label'
    dtype : str, default 'float32'
    layout : {'NT', 'TN'}, default 'NT'
        Batch-major ``(batch, length)`` or time-major ``(length, batch)`` batches.
    """

    def __init__(self, sentences, batch_size, buckets=None, invalid_label=-1, data_name="data",
                 label_name="softmax_label", dtype="float32", layout="NT"):
        super().__init__()
        if not buckets:
            counts = np.bincount(np.asarray([len(s) for s in sentences], dtype=np.int64))
            buckets = [int(n) for n in np.flatnonzero(counts >= batch_size)]
        buckets.sort()

        per_bucket = [[] for _ in buckets]
        dropped = 0
        for sent in sentences:
            b = bisect.bisect_left(buckets, len(sent))
            if b == len(buckets):
                dropped += 1
                continue
            row = np.full((buckets[b],), invalid_label, dtype=dtype)
            row[:len(sent)] = sent
            per_bucket[b].append(row)
        used = [k for k, rows in enumerate(per_bucket) if rows]
        buckets = [buckets[k] for k in used]
        self.data = [np.asarray(per_bucket[k], dtype=dtype) for k in used]

        print("WARNING: discarded %d sentences longer than the largest bucket." % dropped)

        self.batch_size = batch_size
        self.buckets = buckets
        self.data_name = data_name
        self.label_name = label_name
        self.dtype = dtype
        self.invalid_label = invalid_label
        self.nddata = []
        self.ndlabel = []
        self.major_axis = layout.find("N")
        self.layout = layout
        if not buckets:  # 1.9.1 prints the warning above, then fails with a ValueError
            raise MXNetValueError(
                "BucketSentenceIter: no sentence fits a bucket (buckets=%s; with buckets=None a "
                "bucket is made for each length occurring at least batch_size=%d times); pass "
                "longer buckets" % (self.buckets, batch_size))
        self.default_bucket_key = max(buckets)

        if self.major_axis == 0:
            full = (batch_size, self.default_bucket_key)
        elif self.major_axis == 1:
            full = (self.default_bucket_key, batch_size)
        else:
            raise ValueError(f"Invalid layout {layout}: Must by NT (batch major) or TN "
                             "(time major)")
        self.provide_data = [DataDesc(name=data_name, shape=full, layout=layout)]
        self.provide_label = [DataDesc(name=label_name, shape=full, layout=layout)]

        self.idx = []
        for i, rows in enumerate(self.data):
            self.idx.extend((i, j) for j in range(0, len(rows) - batch_size + 1, batch_size))
        self.curr_idx = 0
        self.reset()

    def reset(self):
        """Reshuffle and start a new epoch."""
        self.curr_idx = 0
        random.shuffle(self.idx)
        for rows in self.data:
            np.random.shuffle(rows)
        self.nddata = []
        self.ndlabel = []
        for rows in self.data:
            label = np.empty_like(rows)
            label[:, :-1] = rows[:, 1:]
            label[:, -1] = self.invalid_label
            self.nddata.append(ndarray.array(rows, dtype=self.dtype))
            self.ndlabel.append(ndarray.array(label, dtype=self.dtype))

    def next(self):
        """The next batch (a DataBatch with ``bucket_key``); StopIteration at the end."""
        if self.curr_idx == len(self.idx):
            raise StopIteration
        i, j = self.idx[self.curr_idx]
        self.curr_idx += 1
        data = self.nddata[i][j:j + self.batch_size]
        label = self.ndlabel[i][j:j + self.batch_size]
        if self.major_axis == 1:
            data, label = data.T, label.T
        return DataBatch([data], [label], pad=0, bucket_key=self.buckets[i],
                         provide_data=[DataDesc(name=self.data_name, shape=data.shape,
                                                layout=self.layout)],
                         provide_label=[DataDesc(name=self.label_name, shape=label.shape,
                                                 layout=self.layout)])
