"""gluon.Trainer: applies an optimizer to a set of Parameters, across devices via KVStore."""
from __future__ import annotations

import math
import os

from ..base import MXNetAssertionError, MXNetError, MXNetTypeError, MXNetValueError
from .parameter import Parameter, ParameterDict


def _batch_scalar(batch_size):
    """``batch_size`` as a Python number: d2l passes a one-element array (``valid_len.sum()``),
    which 1.9.1 accepts."""
    if hasattr(batch_size, "asnumpy"):
        return batch_size.asnumpy().item()
    return batch_size

__all__ = ["Trainer"]


class _NoStoreError(MXNetError, AttributeError):
    """update_on_kvstore=True without a store: an AttributeError in 1.9.1."""


def _fresh(arr):
    """Whether backward wrote this parameter copy's gradient since the last step."""
    node = arr._node
    return node is not None and getattr(node[0], "fresh", False)


def _kv_init_param(kv, i, p):
    if p.stype == "default":
        # as 1.9.1: every copy (auxiliary states too) starts from the first device's values
        data = p.list_data()
        kv.broadcast(i, data[0], data)
    else:
        # as 1.9.1, the store holds a row_sparse weight (every row stored), so that its
        # optimizer keeps row_sparse states and updates lazily
        from ..backend import get_backend
        from ..ndarray.sparse import RowSparseNDArray
        data = p._data[0]
        if data.stype == "default" and data.ndim >= 1:
            rows = get_backend(data.context).xp.arange(data.shape[0])
            data = RowSparseNDArray._from_rows(data, rows)
        kv.init(i, data)


def _mark_used(arr):
    node = arr._node
    if node is not None and hasattr(node[0], "fresh"):
        node[0].fresh = False


class Trainer:
    """Update ``params`` with ``optimizer`` after each backward pass.

    With parameters on several devices the gradients are summed through a KVStore
    (``kvstore='device'`` by default); with ``update_on_kvstore`` the store runs the
    optimizer, otherwise each device applies the same update to its copy.
    """

    def __init__(self, params, optimizer, optimizer_params=None, kvstore="device",
                 compression_params=None, update_on_kvstore=None):
        if isinstance(params, (dict, ParameterDict)):
            # by name, as 1.9.1 orders them: optimizer-state indices, KVStore keys and
            # save_states files then agree with its
            params = [params[k] for k in sorted(params.keys())]
        if not isinstance(params, (list, tuple)):
            raise ValueError("First argument must be a list or dict of Parameters, got "
                             f"{type(params)}.")
        self._params = []
        seen = set()
        for p in params:
            if not isinstance(p, Parameter):
                raise ValueError("First argument must be a list or dict of Parameters, got list of "
                                 f"{type(p)}.")
            if id(p) in seen:
                continue
            seen.add(id(p))
            self._params.append(p)
            p._trainer = self
        if not self._params:   # a TypeError in 1.9.1 too
            raise MXNetTypeError("Trainer: params is empty, so there is nothing to train; pass "
                                 "block.collect_params() (block.params leaves out the "
                                 "Parameters of child blocks)")
        self._compression_params = compression_params
        self._kvstore_type = kvstore
        self._update_on_kvstore = update_on_kvstore
        self._update_on_kvstore_arg = update_on_kvstore
        self._kv_initialized = False
        self._kvstore = None
        self._scale = 1.0
        self._amp_loss_scaler = None   # set by mx.contrib.amp.init_trainer
        self._init_optimizer(optimizer, optimizer_params or {})
        # 1.9.1 checks at construction that every Parameter is initialized (or deferred) on
        # one set of contexts; uninitialized ones raise here, not at the first step. The list
        # is kept as _contexts, which user code reads as 1.9.1's attribute.
        self._contexts = self._check_contexts()

    def _init_optimizer(self, optimizer, optimizer_params):
        from .. import optimizer as opt
        param_dict = {i: p for i, p in enumerate(self._params)}
        if isinstance(optimizer, opt.Optimizer):
            if optimizer_params:
                raise MXNetAssertionError("optimizer_params must be None if optimizer is an instance of "
                                          "Optimizer instead of str")
            self._optimizer = optimizer
            self._optimizer.param_dict = param_dict
        else:
            self._optimizer = opt.create(optimizer, param_dict=param_dict, **optimizer_params)
        self._scale = self._optimizer.rescale_grad
        self._updaters = []

    def _check_contexts(self):
        ctxs = None
        for p in self._params:
            c = p.list_ctx()
            if ctxs is None:
                ctxs = c
            elif c != ctxs:
                raise MXNetAssertionError(
                    f"All Parameters must be initialized on the same set of contexts, but "
                    f"Parameter {p.name} is initialized on {c} while previous Parameters are "
                    f"initialized on {ctxs}.")
        return ctxs or []

    def _init_kvstore(self):
        from .. import optimizer as opt
        ctxs = self._check_contexts()
        for p in self._params:
            # as 1.9.1: setting up (at the first step, or save/load_states) needs every
            # parameter's data; a still-deferred one raises DeferredInitializationError
            # and the next call tries again
            if p._data is None:
                p._check_initialized()
        kv_type = self._kvstore_type
        if any(p.stype != "default" for p in self._params):
            # as 1.9.1: sparse weights live in a KVStore, which updates them
            if self._update_on_kvstore is False:
                raise MXNetValueError("Cannot set update_on_kvstore=False when sparse weights "
                                      "are present.")   # 1.9.1's words
            if kv_type is None or kv_type is False:
                raise TypeError(f"Cannot create '{kv_type}' KVStore with row_sparse "
                                "parameters. The type must be KVStore or str.")
        kv = None
        if kv_type is not None and kv_type is not False:
            from .. import kvstore as kvs
            if isinstance(kv_type, kvs.KVStoreBase if hasattr(kvs, "KVStoreBase") else ()):
                kv = kv_type
            elif isinstance(kv_type, str) and (len(ctxs) > 1 or "dist" in kv_type or any(
                    p.stype != "default" for p in self._params)):
                kv = kvs.create(kv_type)   # as 1.9.1: sparse weights always live in one
            elif not isinstance(kv_type, str):   # 1.9.1's check and words
                raise TypeError("kvstore must be KVStore, str or None")
        if kv is not None:
            if self._compression_params:
                kv.set_gradient_compression(self._compression_params)
            update_on_kv = self._update_on_kvstore
            if update_on_kv is None:
                update_on_kv = bool(int(os.environ.get("MXNET_UPDATE_ON_KVSTORE", "1")))
                if (all(p.stype == "default" for p in self._params)
                        and any(p.grad_stype != "default" for p in self._params)):
                    # as 1.9.1: sparse gradients of dense weights are reduced and every
                    # device updates its copy, unless the store is distributed
                    update_on_kv = "dist" in getattr(kv, "type", "")
                elif kv_type == "local" and any(
                        math.prod(max(int(d), 0) for d in p.shape or ()) > (1 << 24)
                        for p in self._params):
                    update_on_kv = False   # as 1.9.1: a 'local' store with a huge parameter
            for i, p in enumerate(self._params):
                _kv_init_param(kv, i, p)
            if update_on_kv:
                kv.set_optimizer(self._optimizer)
            self._update_on_kvstore = update_on_kv
        elif self._update_on_kvstore and all(p.stype == "default" and p.grad_stype == "default"
                                             for p in self._params):
            # 1.9.1 fails here (an AttributeError) at every step: one context without a
            # distributed store, or kvstore=None, gives no store to update on
            raise _NoStoreError(f"Trainer: update_on_kvstore=True needs a KVStore, but "
                                f"kvstore={kv_type!r} with {len(ctxs)} context(s) creates none; "
                                "set update_on_kvstore=False or None")
        else:
            self._update_on_kvstore = None   # as 1.9.1: no store, no answer either way
        self._kvstore = kv
        self._updaters = [opt.get_updater(self._optimizer) for _ in ctxs]
        self._kv_initialized = True

    def _reset_kvstore(self):
        """Forget the store (and the optimizer states it holds), as 1.9.1 does when a
        parameter it updates gets new data: the next step sets a fresh one up."""
        kv = self._kvstore
        if kv is not None and "dist" in getattr(kv, "type", ""):
            raise RuntimeError("Cannot reset distributed KVStore.")
        self._kv_initialized = False
        self._kvstore = None
        self._update_on_kvstore = self._update_on_kvstore_arg

    # -- public API -------------------------------------------------------------------------------
    @property
    def learning_rate(self):
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        return self._optimizer

    def set_learning_rate(self, lr):
        """Set a new learning rate on the optimizer."""
        self._optimizer.set_learning_rate(lr)

    def step(self, batch_size, ignore_stale_grad=False):
        """One update: gradients are scaled by ``1/batch_size``, summed across devices, applied."""
        rescale = self._scale / _batch_scalar(batch_size)
        self._optimizer.rescale_grad = rescale
        if not self._kv_initialized:
            self._init_kvstore()
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """Sum gradients across devices (for use with ``update``)."""
        if not self._kv_initialized:
            self._init_kvstore()
        if self._update_on_kvstore:
            raise MXNetAssertionError("allreduce_grads() when parameters are updated on kvstore is not "
                             "supported. Try setting `update_on_kvstore` to False when creating "
                             "trainer.")
        self._allreduce_grads()

    def _allreduce_grads(self):
        kv = self._kvstore
        if kv is None:
            return
        order = list(enumerate(self._params))
        if getattr(kv, "_overlap", False):
            # Backward finishes the last layers first: pushing them first lets their
            # communication start while the earlier layers' gradients are computed
            # (an all-reduce store starts collectives in push order).
            order.reverse()
        for i, p in order:
            if p.grad_req == "null":
                continue
            grads = p.list_grad()
            kv.push(i, grads, priority=-i)
            if self._update_on_kvstore:
                continue
            if grads[0].stype == "default":
                kv.pull(i, grads, priority=-i)
            else:  # every device gets the union of the devices' rows, summed, as in 1.9.1
                kv.pull(i, grads, priority=-i, ignore_sparse=False)
        if self._update_on_kvstore:
            # as 1.9.1 (a push-pull): the store's updated weights are pulled here, so they
            # change even when _update then stops at a stale gradient
            for i, p in order:
                if p.grad_req != "null" and p.stype == "default":
                    kv.pull(i, list(p._data), priority=-i)

    def update(self, batch_size, ignore_stale_grad=False):
        """Apply the optimizer (after ``allreduce_grads``)."""
        if not self._kv_initialized:
            self._init_kvstore()
        if self._update_on_kvstore:
            raise MXNetAssertionError("update() when parameters are updated on kvstore is not supported. "
                             "Try setting `update_on_kvstore` to False when creating trainer.")
        self._optimizer.rescale_grad = self._scale / _batch_scalar(batch_size)
        self._update(ignore_stale_grad)

    def _update(self, ignore_stale_grad=False):
        scaler = self._amp_loss_scaler
        if scaler is not None and scaler.has_overflow(self._params):
            return   # mixed precision: a step with inf/NaN gradients is skipped
        batches = [[] for _ in self._updaters]
        for i, p in enumerate(self._params):
            if p.grad_req == "null":
                continue
            if p._data is None:
                if ignore_stale_grad:
                    continue
                raise MXNetError(f"Parameter '{p.name}' has not been initialized")
            if not ignore_stale_grad:
                for d in p._data:
                    if not _fresh(d):
                        raise UserWarning(
                            f"Gradient of Parameter `{p.name}` on context {d.context} has not been "
                            "updated by backward since last `step`. This could mean a bug in your "
                            "model that made it only use a subset of the Parameters (Blocks) for "
                            "this iteration. If you are intentionally only using a subset, call step "
                            "with ignore_stale_grad=True to suppress this warning and skip updating "
                            "of Parameters with stale gradient")
            if self._update_on_kvstore:
                if p.stype != "default":   # dense weights were pulled in _allreduce_grads
                    # (the copies are dense here: a pull 1.9.1 does not make, so no
                    # storage-fallback note)
                    from ..ndarray import _fallback_log
                    _fallback_log.QUIET[0] += 1
                    try:
                        self._kvstore.pull(i, list(p._data), priority=-i)
                    finally:
                        _fallback_log.QUIET[0] -= 1
                # as 1.9.1, the gradients stay marked fresh here: with the store updating,
                # a stale gradient is noticed only until the first step
                continue
            for b, arr, grad in zip(batches, p._data, p.list_grad()):
                if not ignore_stale_grad or _fresh(arr):
                    b.append((i, grad, arr))
                    _mark_used(arr)
        for upd, b in zip(self._updaters, batches):
            if b:
                idx, grads, arrs = zip(*b)
                upd(list(idx), list(grads), list(arrs))

    def save_states(self, fname):
        """Save the optimizer (updater) states to ``fname``."""
        if not self._kv_initialized:
            self._init_kvstore()
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname, dump_optimizer=True)
            return
        from ..ndarray.serialization import write_file_atomic
        write_file_atomic(fname, self._updaters[0].get_states(dump_optimizer=True))

    def load_states(self, fname):
        """Load optimizer states written by ``save_states``."""
        if not self._kv_initialized:
            self._init_kvstore()
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
            self._optimizer = self._kvstore._updater.optimizer
        else:
            with open(fname, "rb") as f:
                states = f.read()
            for upd in self._updaters:
                upd.set_states(states)
                upd.optimizer = self._updaters[0].optimizer
            self._optimizer = self._updaters[0].optimizer
        # a pickled optimizer drops its param_dict (as in 1.9.1): re-attach the parameters so
        # that their lr_mult / wd_mult keep applying after the load
        self._optimizer.param_dict = {i: p for i, p in enumerate(self._params)}
