"""What the two distributed worker stores (parameter-server and allreduce) share:
identity properties, key normalisation and the per-key grouping of pushed arrays."""
from __future__ import annotations

import os

from ..base import MXNetError
from .base import KVStoreBase, UpdaterStatesMixin, _key_value_pairs, _raise_mixed

__all__ = ["DistWorkerCommon", "overlap_enabled", "overlap_level"]


def overlap_level():
    """``MXNET_KVSTORE_OVERLAP``: how distributed stores overlap gradient communication with
    the backward pass. 0: not at all; 1 (the default): the backward of compiled graphs
    (hybridized blocks, Module's executors); 2: of imperative graphs too."""
    raw = os.environ.get("MXNET_KVSTORE_OVERLAP", "1").strip()
    if raw == "":
        return 1
    if raw in ("0", "1", "2"):
        return int(raw)
    raise MXNetError(f"MXNET_KVSTORE_OVERLAP must be 0, 1 or 2, got {raw!r}")


def overlap_enabled():
    """Whether ``MXNET_KVSTORE_OVERLAP`` asks for any overlap (see :func:`overlap_level`)."""
    return overlap_level() > 0


class DistWorkerCommon(UpdaterStatesMixin, KVStoreBase):
    """Base of the distributed worker stores. Subclasses set ``_type``, ``_layout``,
    ``_key_str`` and keep their per-key records (with a ``shape``) in ``_key_table()``."""

    @property
    def type(self):
        return self._type

    @property
    def rank(self):
        return self._layout.worker_index

    @property
    def num_workers(self):
        return self._layout.num_workers

    def is_capable(self, capability):
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return True
        raise ValueError(f"Unknown capability: {capability}")

    def _key_table(self):
        raise NotImplementedError

    def _setup_overlap(self):
        """Read ``MXNET_KVSTORE_OVERLAP`` (see :func:`overlap_level`); when on, backward
        passes run asynchronously while this store is alive, and Trainer and Module push
        the last layers first. ``_overlap`` keeps the level (true when on)."""
        self._overlap = overlap_level()
        if self._overlap:
            from .. import autograd
            autograd._overlap_owners.add(self)

    def _pairs(self, keys, vals):
        pairs, use_str = _key_value_pairs(keys, vals)
        if use_str is not None:
            if self._key_str is None:
                self._key_str = use_str
            elif use_str != self._key_str:
                _raise_mixed(self._key_str, pairs[0][0] if pairs else keys)
        return pairs

    def _grouped(self, pairs, what):
        """``[(record, [arrays])]`` per key in first-seen order, shapes checked."""
        table = self._key_table()
        groups = {}
        for k, arr in pairs:
            rec = table.get(k)
            if rec is None:
                raise MXNetError(f"{what}: key {k!r} has not been initialised; call kv.init "
                                 f"(or kv.broadcast) for it on every worker first")
            if tuple(arr.shape) != rec.shape:
                raise MXNetError(f"{what}: shape mismatch for key {k!r}: the stored value has "
                                 f"shape {rec.shape}, the array has shape {tuple(arr.shape)}")
            groups.setdefault(k, (rec, []))[1].append(arr)
        return list(groups.values())

    def pushpull(self, key, value, out=None, priority=0):
        """Push ``value``, then pull into ``out`` (into ``value`` when ``out`` is None)."""
        self.push(key, value, priority)
        self.pull(key, value if out is None else out, priority)

    def broadcast(self, key, value, out, priority=0):
        """Initialise ``key`` from worker 0's ``value``, then pull it into ``out``."""
        self.init(key, value)
        self.pull(key, out, priority)
