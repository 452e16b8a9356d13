"""Checkpoints and the parameter-update plumbing shared by the Module API.

- :func:`save_checkpoint` / :func:`load_checkpoint` / :func:`load_params` read and write
  ``prefix-symbol.json`` and ``prefix-%04d.params`` (keys ``arg:NAME`` / ``aux:NAME``),
  the layout 1.9.1 uses, so checkpoints move both ways between the two.
- :func:`_create_kvstore`, :func:`_initialize_kvstore`, :func:`_update_params_on_kvstore`
  and :func:`_update_params` decide where updates happen when training on several
  devices and carry them out, following 1.9.1's rules (see each function).
- :data:`BatchEndParam` is the record handed to batch-end callbacks.
"""
from __future__ import annotations

import logging
import os
from collections import namedtuple

import numpy as np

from . import kvstore as kvs
from . import ndarray as nd
from . import symbol as sym
from .context import cpu

__all__ = ["BatchEndParam", "save_checkpoint", "load_checkpoint", "load_params"]

# 1.9.1 names the tuple type 'BatchEndParams' (its repr shows that name).
BatchEndParam = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])

# Above this many elements in one parameter, a 'local' store leaves updates to the workers.
_BIG_PARAM = 1024 * 1024 * 16


def _create_kvstore(kvstore, num_device, arg_params):
    """The store to train with and whether the optimizer runs inside it.

    Returns ``(kv, update_on_kvstore)``:

    - ``None`` gives no store; a :class:`KVStoreBase` is used as given;
    - a name gives ``None`` on a single device unless it is distributed, otherwise a new
      store of that type;
    - updates run in the store when ``MXNET_UPDATE_ON_KVSTORE`` (default 1) allows, the
      store can run optimizers, and (for ``'local'``) no parameter is huge.
    """
    update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, kvs.KVStoreBase):
        kv = kvstore
    elif isinstance(kvstore, str):
        if num_device == 1 and "dist" not in kvstore:
            kv = None  # one device, one process: nothing to aggregate
        else:
            kv = kvs.create(kvstore)
            if kvstore == "local":
                sizes = [int(np.prod(p.shape)) for p in arg_params.values()]
                if sizes and max(sizes) > _BIG_PARAM:
                    update_on_kvstore = False
    else:
        raise TypeError("kvstore must be KVStore, str or None")
    if kv is None:
        update_on_kvstore = False
    else:
        update_on_kvstore = update_on_kvstore and bool(kv.is_capable(kvs.KVStoreBase.OPTIMIZER))
    return kv, update_on_kvstore


def _initialize_kvstore(kvstore, param_arrays, arg_params, param_names, update_on_kvstore):
    """Register every parameter with the store.

    When the store updates, the parameter is broadcast from ``arg_params`` into each
    device's copy; otherwise the store only keeps it for aggregating gradients.
    """
    for idx, on_devices in enumerate(param_arrays):
        name = param_names[idx]
        value = arg_params[name]
        if not update_on_kvstore or getattr(value, "stype", "default") != "default":
            kvstore.init(name, value)
        else:
            kvstore.broadcast(name, value, out=on_devices)


def _is_dense(arr):
    return getattr(arr, "stype", "default") == "default"


def _push_order(kvstore, n):
    """The parameter indices in the order to push them: the last first when the store
    overlaps communication with backward (the last layers' gradients are final first, and
    an all-reduce store starts its collectives in push order, the same on every worker),
    else ascending."""
    if getattr(kvstore, "_overlap", False):
        return range(n - 1, -1, -1)
    return range(n)


def _update_params_on_kvstore(param_arrays, grad_arrays, kvstore, param_names):
    """Push each parameter's gradients (one per device) and pull the updated weight back
    (the last parameter first when the store overlaps communication with backward)."""
    for index in _push_order(kvstore, len(param_arrays)):
        weights, grads = param_arrays[index], grad_arrays[index]
        if grads[0] is None:
            continue
        name = param_names[index]
        if _is_dense(grads[0]) and _is_dense(weights[0]):
            kvstore.pushpull(name, grads, out=weights, priority=-index)
        else:
            kvstore.push(name, grads, priority=-index)
            kvstore.pull(name, out=weights, priority=-index)


def _update_params_on_kvstore_nccl(param_arrays, grad_arrays, kvstore, param_names):
    """As :func:`_update_params_on_kvstore`, in groups of ``MXNET_UPDATE_AGGREGATION_SIZE``."""
    valid = [i for i, g in enumerate(grad_arrays) if g[0] is not None]
    step = int(os.getenv("MXNET_UPDATE_AGGREGATION_SIZE", "16"))
    for start in range(0, len(valid), step):
        part = valid[start:start + step]
        kvstore.pushpull([param_names[i] for i in part], [grad_arrays[i] for i in part],
                         out=[param_arrays[i] for i in part], priority=-start)


def _update_params(param_arrays, grad_arrays, updater, num_device, kvstore=None,
                   param_names=None):
    """Update each device's weights with ``updater`` (the optimizer runs on the workers).

    With a store, gradients are first summed across devices through it (the last
    parameter first when the store overlaps communication with backward). The updater
    sees index ``i * num_device + k`` for parameter ``i`` on device ``k``, one batched
    call per device.
    """
    if kvstore:
        for index in _push_order(kvstore, len(param_arrays)):
            weights, grads = param_arrays[index], grad_arrays[index]
            if grads[0] is None:
                continue
            name = param_names[index]
            if _is_dense(grads[0]) and _is_dense(weights[0]):
                kvstore.pushpull(name, grads, priority=-index)
            else:
                kvstore.push(name, grads, priority=-index)
                kvstore.pull(name, out=grads, priority=-index)
    per_device = [[] for _ in range(num_device)]
    for index, (weights, grads) in enumerate(zip(param_arrays, grad_arrays)):
        if grads[0] is None:
            continue
        for k, (w, g) in enumerate(zip(weights, grads)):
            per_device[k].append((index * num_device + k, g, w))
    for updates in per_device:
        if updates:
            indices, grads, weights = zip(*updates)
            updater(indices, grads, weights)


def _multiple_callbacks(callbacks, *args, **kwargs):
    """Call one callback or each of a list of them."""
    if isinstance(callbacks, list):
        for cb in callbacks:
            cb(*args, **kwargs)
        return
    if callbacks:
        callbacks(*args, **kwargs)


def save_checkpoint(prefix, epoch, symbol, arg_params, aux_params, remove_amp_cast=True):
    """Write ``prefix-symbol.json`` (when ``symbol`` is given) and ``prefix-%04d.params``.

    Parameters go to the CPU first and are stored under ``arg:NAME`` / ``aux:NAME``.
    """
    if symbol is not None:
        symbol.save(f"{prefix}-symbol.json", remove_amp_cast=remove_amp_cast)
    save_dict = {f"arg:{k}": v.as_in_context(cpu()) for k, v in arg_params.items()}
    save_dict.update({f"aux:{k}": v.as_in_context(cpu()) for k, v in aux_params.items()})
    param_name = "%s-%04d.params" % (prefix, epoch)
    nd.save(param_name, save_dict)
    logging.info('Saved checkpoint to "%s"', param_name)


def _split_params(save_dict, fname):
    arg_params, aux_params = {}, {}
    for key, value in save_dict.items():
        kind, _, name = key.partition(":")
        if kind == "arg":
            arg_params[name] = value
        elif kind == "aux":
            aux_params[name] = value
    return arg_params, aux_params


def load_params(prefix, epoch):
    """``(arg_params, aux_params)`` from ``prefix-%04d.params``."""
    fname = "%s-%04d.params" % (prefix, epoch)
    save_dict = nd.load(fname)
    if not save_dict:
        logging.warning("Params file '%s' is empty", fname)
        return {}, {}
    if not isinstance(save_dict, dict):
        raise ValueError(f"Invalid param file {fname}: expected named arrays")
    return _split_params(save_dict, fname)


def load_checkpoint(prefix, epoch):
    """``(symbol, arg_params, aux_params)`` saved by :func:`save_checkpoint`."""
    symbol = sym.load(f"{prefix}-symbol.json")
    arg_params, aux_params = load_params(prefix, epoch)
    return symbol, arg_params, aux_params
