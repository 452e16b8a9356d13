"""Checkpoints and the parameter-update plumbing shared by the Module API.

- :func:`save_checkpoint` / :func:`load_checkpoint` / :func:`load_params` read and write
  ``prefix-symbol.json`` and ``prefix-%04d.params`` (keys ``arg:NAME`` / ``aux:NAME``),
  the layout 1.9.1 uses, so checkpoints move both ways between the two.
- :func:`_create_kvstore`, :func:`_initialize_kvstore`, :func:`_update_params_on_kvstore`
  and :func:`_update_params` decide where updates happen when training on several
  devices and carry them out, following 1.9.1's rules (see each function).
- :data:`BatchEndParam` is the record handed to batch-end callbacks.
- :class:`FeedForward` is 1.9.1's deprecated estimator-style training API (``fit`` /
  ``predict`` / ``score`` / ``save`` / ``load``), trained by :func:`_train_multi_device`
  on a :class:`~mxnet.executor_manager.DataParallelExecutorManager`.
"""
from __future__ import annotations

import logging
import os
import time
import warnings
from collections import namedtuple

import numpy as np

from . import io
from . import kvstore as kvs
from . import metric
from . import ndarray as nd
from . import optimizer as opt
from . import symbol as sym
from .base import mx_real_t
from .context import Context, cpu
from .initializer import Uniform
from .io import DataDesc
from .optimizer import get_updater

__all__ = ["BatchEndParam", "save_checkpoint", "load_checkpoint", "load_params", "FeedForward"]  # noqa: F822 (made on first use)

# FeedForward derives from scikit-learn's BaseEstimator when that is importable (as in
# 1.9.1), so get_params/set_params and sklearn's cloning work on it. Importing scikit-learn
# (and scipy with it) takes seconds, so it happens on first use of FeedForward,
# BASE_ESTIMATOR or SKLEARN_INSTALLED rather than at ``import mxnet`` (see __getattr__).
_LAZY_ESTIMATOR_NAMES = ("FeedForward", "BASE_ESTIMATOR", "SKLEARN_INSTALLED")

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
        kind, sep, name = key.partition(":")
        if not sep:
            # 1.9.1 fails here too (ValueError); dropping the key would hide the mistake
            raise ValueError(f"load_params: key '{key}' in {fname} has no 'arg:' or 'aux:' "
                             "prefix; expected a checkpoint saved by save_checkpoint (a Gluon "
                             "file is read with Block.load_parameters)")
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


def _create_sparse_kvstore(kvstore):
    """A store for training with row_sparse weights: updates always run inside it.

    Returns ``(kv, True)``; ``kvstore`` is a store or the name of a type to create.
    """
    if isinstance(kvstore, kvs.KVStoreBase):
        kv = kvstore
    elif isinstance(kvstore, str):
        kv = kvs.create(kvstore)
    else:
        raise TypeError("Cannot create '%s' KVStore with row_sparse parameters. "
                        "The type must be KVStore or str." % kvstore)
    assert kv.is_capable(kvs.KVStoreBase.OPTIMIZER), (
        "KVStore with sparse weight requires optimizer support. However, type(kv) does "
        "not support optimizer. Please consider other kvstore backends (e.g. dist_device) "
        "instead.")
    return kv, True


def _run_epoch_batches(manager, train_data, epoch, epoch_size, step, eval_metric,
                       batch_end_callback, logger, monitor):
    """Train on batches of ``train_data`` for one epoch; ``step()`` applies the update.

    Without ``epoch_size`` an epoch is one pass over the data (then the iterator is
    reset). With it, an epoch is exactly ``epoch_size`` batches, wrapping around (and
    resetting) the iterator as often as needed and continuing where the last epoch
    stopped.
    """
    nbatch = 0
    while True:
        exhausted = True
        for data_batch in train_data:
            manager.load_data_batch(data_batch)
            if monitor is not None:
                monitor.tic()
            manager.forward(is_train=True)
            manager.backward()
            step()
            if monitor is not None:
                monitor.toc_print()
            # the metric reads the outputs after the update was queued, as in 1.9.1
            manager.update_metric(eval_metric, data_batch.label)
            nbatch += 1
            if batch_end_callback is not None:
                _multiple_callbacks(batch_end_callback,
                                    BatchEndParam(epoch=epoch, nbatch=nbatch,
                                                  eval_metric=eval_metric, locals=locals()))
            if epoch_size is not None and nbatch >= epoch_size:
                exhausted = False
                break
        if exhausted:
            logger.info("Epoch[%d] Resetting Data Iterator", epoch)
            train_data.reset()
        if epoch_size is None or nbatch >= epoch_size:
            return nbatch


def _evaluate(manager, eval_data, epoch, eval_metric, eval_end_callback,
              eval_batch_end_callback):
    """Run ``eval_data`` through the network (inference mode) into ``eval_metric``."""
    eval_metric.reset()
    eval_data.reset()
    count = 0
    for i, eval_batch in enumerate(eval_data):
        manager.load_data_batch(eval_batch)
        manager.forward(is_train=False)
        manager.update_metric(eval_metric, eval_batch.label)
        if eval_batch_end_callback is not None:
            _multiple_callbacks(eval_batch_end_callback,
                                BatchEndParam(epoch=epoch, nbatch=i, eval_metric=eval_metric,
                                              locals=locals()))
        count += 1
    if eval_end_callback is not None:
        _multiple_callbacks(eval_end_callback,
                            BatchEndParam(epoch=epoch, nbatch=count, eval_metric=eval_metric,
                                          locals=locals()))
    eval_data.reset()


def _train_multi_device(symbol, ctx, arg_names, param_names, aux_names, arg_params,
                        aux_params, begin_epoch, end_epoch, epoch_size, optimizer, kvstore,
                        update_on_kvstore, train_data, eval_data=None, eval_metric=None,
                        epoch_end_callback=None, batch_end_callback=None, logger=None,
                        work_load_list=None, monitor=None, eval_end_callback=None,
                        eval_batch_end_callback=None, sym_gen=None):
    """Train ``symbol`` data-parallel on the devices ``ctx`` for epochs
    ``begin_epoch .. end_epoch - 1`` (the engine behind :meth:`FeedForward.fit`).

    The weights are updated in the store when ``update_on_kvstore``, else by an updater
    made from ``optimizer`` on each device. After each epoch the device weights are
    copied back into ``arg_params`` / ``aux_params`` (in place) when there is an
    ``epoch_end_callback`` or it is the last epoch; the callbacks then run, followed by
    an evaluation pass over ``eval_data`` when one is given.
    """
    if logger is None:
        logger = logging
    manager = _em().DataParallelExecutorManager(symbol=symbol, sym_gen=sym_gen, ctx=ctx,
                                          train_data=train_data, param_names=param_names,
                                          arg_names=arg_names, aux_names=aux_names,
                                          work_load_list=work_load_list, logger=logger)
    if monitor:
        manager.install_monitor(monitor)
    manager.set_params(arg_params, aux_params)

    updater = None
    if update_on_kvstore:
        kvstore.set_optimizer(optimizer)
    else:
        updater = get_updater(optimizer)
    if kvstore:
        _initialize_kvstore(kvstore=kvstore, param_arrays=manager.param_arrays,
                            arg_params=arg_params, param_names=manager.param_names,
                            update_on_kvstore=update_on_kvstore)

    def step():
        if not update_on_kvstore:
            _update_params(manager.param_arrays, manager.grad_arrays, updater=updater,
                           num_device=len(ctx), kvstore=kvstore,
                           param_names=manager.param_names)
        elif "nccl" in kvstore.type:
            _update_params_on_kvstore_nccl(manager.param_arrays, manager.grad_arrays,
                                           kvstore, manager.param_names)
        else:
            _update_params_on_kvstore(manager.param_arrays, manager.grad_arrays, kvstore,
                                      manager.param_names)

    train_data.reset()
    for epoch in range(begin_epoch, end_epoch):
        start = time.time()
        eval_metric.reset()
        _run_epoch_batches(manager, train_data, epoch, epoch_size, step, eval_metric,
                           batch_end_callback, logger, monitor)
        logger.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - start)
        if epoch_end_callback or epoch + 1 == end_epoch:
            manager.copy_to(arg_params, aux_params)
        _multiple_callbacks(epoch_end_callback, epoch, symbol, arg_params, aux_params)
        if eval_data:
            _evaluate(manager, eval_data, epoch, eval_metric, eval_end_callback,
                      eval_batch_end_callback)


def _em():
    """mxnet.executor_manager (imported on first use: it imports the Module package,
    which imports this module)."""
    from . import executor_manager
    return executor_manager


def _type_dict_for(arg_params, provide_data):
    """dtypes to bind a predictor with: the parameters' own, and each input's (float32
    for inputs described by plain ``(name, shape)`` tuples)."""
    types = {k: v.dtype for k, v in arg_params.items()}
    for desc in provide_data:
        if isinstance(desc, DataDesc):
            types[desc.name] = desc.dtype
        else:
            types[desc[0]] = mx_real_t
    return types


# callback imports save_checkpoint from this module, defined above.
from .callback import LogValidationMetricsCallback  # noqa: E402


class _FeedForwardImpl:
    """1.9.1's deprecated estimator for a network with one data input and one output
    (use :class:`mxnet.mod.Module` in new code).

    ``symbol`` is the network, or a function of a bucket key returning it (for bucketing
    iterators). ``ctx`` is one context or a list (data-parallel training; prediction
    uses the first). ``num_epoch`` is the epoch to stop before and ``begin_epoch`` the
    first one; ``epoch_size`` fixes the number of batches per epoch (default: one pass).
    ``optimizer`` is an :class:`~mxnet.optimizer.Optimizer` or the name of one, created
    at ``fit`` time from the extra keyword arguments with ``rescale_grad = 1 /
    batch_size``. ``initializer`` fills every parameter not given in ``arg_params`` /
    ``aux_params``. Numpy or NDArray inputs are wrapped in an
    :class:`~mxnet.io.NDArrayIter` with batches of ``numpy_batch_size`` (shuffled with
    ``last_batch_handle='roll_over'`` for training). ``allow_extra_params`` drops
    entries of ``arg_params`` / ``aux_params`` that the network does not use instead of
    failing.
    """

    def __init__(self, symbol, ctx=None, num_epoch=None, epoch_size=None, optimizer="sgd",
                 initializer=Uniform(0.01), numpy_batch_size=128, arg_params=None,
                 aux_params=None, allow_extra_params=False, begin_epoch=0, **kwargs):
        warnings.warn("\033[91mmxnet.model.FeedForward has been deprecated. "
                      "Please use mxnet.mod.Module instead.\033[0m",
                      DeprecationWarning, stacklevel=2)
        if isinstance(symbol, sym.Symbol):
            self.symbol, self.sym_gen = symbol, None
        else:
            assert callable(symbol), "symbol must be a Symbol or a function of a bucket key"
            self.symbol, self.sym_gen = None, symbol
        self.arg_params = arg_params
        self.aux_params = aux_params
        self.allow_extra_params = allow_extra_params
        self.argument_checked = False
        if self.sym_gen is None:
            self._check_arguments()
        if ctx is None:
            ctx = [cpu()]
        elif isinstance(ctx, Context):
            ctx = [ctx]
        self.ctx = ctx
        self.num_epoch = num_epoch
        self.epoch_size = epoch_size
        self.kwargs = kwargs.copy()
        self.optimizer = optimizer
        self.initializer = initializer
        self.numpy_batch_size = numpy_batch_size
        self._pred_exec = None
        self.begin_epoch = begin_epoch

    # -- setup -----------------------------------------------------------------------
    def _check_arguments(self):
        """Check the network's names once; with ``allow_extra_params`` keep only the
        given parameters the network uses."""
        if self.argument_checked:
            return
        assert self.symbol is not None
        self.argument_checked = True
        _em()._check_arguments(self.symbol)
        if not self.allow_extra_params:
            return
        if self.arg_params:
            keep = set(self.symbol.list_arguments())
            self.arg_params = {k: v for k, v in self.arg_params.items() if k in keep}
        if self.aux_params:
            keep = set(self.symbol.list_auxiliary_states())
            self.aux_params = {k: v for k, v in self.aux_params.items() if k in keep}

    @staticmethod
    def _is_data_arg(name):
        """Whether ``name`` looks like an input (ends with 'data' or 'label')."""
        return name.endswith("data") or name.endswith("label")

    def _init_params(self, inputs, overwrite=False):
        """Make fresh parameter / auxiliary arrays for the shapes implied by ``inputs``,
        copying values given at construction (unless ``overwrite``) and initializing the
        rest. Returns ``(arg_names, param_names, aux_names)``."""
        inputs = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in inputs]
        arg_shapes, _, aux_shapes = self.symbol.infer_shape(**{d.name: d.shape for d in inputs})
        assert arg_shapes is not None
        arg_types, _, aux_types = self.symbol.infer_type(**{d.name: d.dtype for d in inputs})
        assert arg_types is not None
        arg_names = self.symbol.list_arguments()
        aux_names = self.symbol.list_auxiliary_states()
        input_names = {d.name for d in inputs}
        param_names = [n for n in arg_names if n not in input_names]
        new_args = {n: nd.zeros(shape=s, dtype=t)
                    for n, s, t in zip(arg_names, arg_shapes, arg_types) if n in param_names}
        new_aux = {n: nd.zeros(shape=s, dtype=t)
                   for n, s, t in zip(aux_names, aux_shapes, aux_types)}
        for given, fresh in ((self.arg_params, new_args), (self.aux_params, new_aux)):
            for name, arr in fresh.items():
                if given and name in given and not overwrite:
                    arr[:] = given[name][:]
                else:
                    self.initializer(name, arr)
        self.arg_params = new_args
        self.aux_params = new_aux
        return arg_names, list(param_names), aux_names

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_pred_exec"] = None  # executors are not picklable; rebuilt on demand
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    def _init_predictor(self, input_shapes, type_dict=None):
        """Bind (or reuse, when the shapes still fit) the inference executor on the first
        context and load the current parameters into it."""
        shapes = {name: arr.shape for name, arr in self.arg_params.items()}
        shapes.update(dict(input_shapes))
        if self._pred_exec is not None:
            arg_shapes, _, _ = self.symbol.infer_shape(**shapes)
            assert arg_shapes is not None, "Incomplete input shapes"
            if arg_shapes == [x.shape for x in self._pred_exec.arg_arrays]:
                return
        executor = self.symbol.simple_bind(self.ctx[0], grad_req="null", type_dict=type_dict,
                                           **shapes)
        executor.copy_params_from(self.arg_params, self.aux_params)
        _em()._check_arguments(self.symbol)
        self._pred_exec = executor

    def _init_iter(self, X, y, is_train):
        """``X`` as a data iterator: iterators pass through, arrays are wrapped."""
        if isinstance(X, (np.ndarray, nd.NDArray)):
            if y is None:
                if is_train:
                    raise ValueError("y must be specified when X is numpy.ndarray")
                y = np.zeros(X.shape[0])
            if not isinstance(y, (np.ndarray, nd.NDArray)):
                raise TypeError("y must be ndarray when X is numpy.ndarray")
            if X.shape[0] != y.shape[0]:
                raise ValueError("The numbers of data points and labels not equal")
            if y.ndim == 2 and y.shape[1] == 1:
                y = y.flatten()
            if y.ndim != 1:
                raise ValueError("Label must be 1D or 2D (with 2nd dimension being 1)")
            batch_size = min(X.shape[0], self.numpy_batch_size)
            if is_train:
                return io.NDArrayIter(X, y, batch_size, shuffle=True,
                                      last_batch_handle="roll_over")
            return io.NDArrayIter(X, y, batch_size, shuffle=False)
        if not isinstance(X, io.DataIter):
            raise TypeError("X must be DataIter, NDArray or numpy.ndarray")
        return X

    def _init_eval_iter(self, eval_data):
        """``eval_data`` as an iterator: an iterator, or a ``(data, label)`` pair."""
        if eval_data is None:
            return None
        if isinstance(eval_data, (tuple, list)) and len(eval_data) == 2:
            data, label = eval_data
            if data is None:
                raise ValueError("Eval data is NONE")
            if label is None and isinstance(data, io.DataIter):
                return data
            data = np.array(data) if isinstance(data, list) else data
            label = np.array(label) if isinstance(label, list) else label
            return self._init_iter(data, label, is_train=True)
        if not isinstance(eval_data, io.DataIter):
            raise TypeError("Eval data must be DataIter, or NDArray/numpy.ndarray/list pair "
                            "(i.e. tuple/list of length 2)")
        return eval_data

    def _prepare_inference(self, X, reset):
        X = self._init_iter(X, None, is_train=False)
        if reset:
            X.reset()
        self._init_predictor(X.provide_data, _type_dict_for(self.arg_params, X.provide_data))
        data_arrays = [self._pred_exec.arg_dict[d[0]] for d in X.provide_data]
        return X, data_arrays

    # -- inference -------------------------------------------------------------------
    def predict(self, X, num_batch=None, return_data=False, reset=True):
        """Outputs for ``X`` (an iterator or an array) on the first context, padding
        removed: one numpy array, or a list with one per network output. With
        ``return_data`` returns ``(outputs, data, label)``. ``num_batch`` stops early."""
        X, data_arrays = self._prepare_inference(X, reset)
        executor = self._pred_exec
        outs = [[] for _ in executor.outputs]
        datas = [[] for _ in X.provide_data]
        labels = [[] for _ in X.provide_label]
        for i, batch in enumerate(X):
            _em()._load_data(batch, data_arrays)
            executor.forward(is_train=False)
            real = X.batch_size - batch.pad
            for store, out in zip(outs, executor.outputs):
                store.append(out[0:real].asnumpy())
            if return_data:
                for store, arr in zip(datas, batch.data):
                    store.append(arr[0:real].asnumpy())
                for store, arr in zip(labels, batch.label):
                    store.append(arr[0:real].asnumpy())
            if num_batch is not None and i + 1 == num_batch:
                break

        def joined(parts):
            arrays = [np.concatenate(p) for p in parts]
            return arrays[0] if len(arrays) == 1 else arrays

        if return_data:
            return joined(outs), joined(datas), joined(labels)
        return joined(outs)

    def score(self, X, eval_metric="acc", num_batch=None, batch_end_callback=None,
              reset=True):
        """The value of ``eval_metric`` (a metric or its name) over ``X`` (at most
        ``num_batch`` batches)."""
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        X, data_arrays = self._prepare_inference(X, reset)
        for i, batch in enumerate(X):
            if num_batch is not None and i == num_batch:
                break
            _em()._load_data(batch, data_arrays)
            self._pred_exec.forward(is_train=False)
            eval_metric.update(batch.label, self._pred_exec.outputs)
            if batch_end_callback is not None:
                _multiple_callbacks(batch_end_callback,
                                    BatchEndParam(epoch=0, nbatch=i, eval_metric=eval_metric,
                                                  locals=locals()))
        return eval_metric.get()[1]

    # -- training --------------------------------------------------------------------
    def fit(self, X, y=None, eval_data=None, eval_metric="acc", epoch_end_callback=None,
            batch_end_callback=None, kvstore="local", logger=None, work_load_list=None,
            monitor=None, eval_end_callback=LogValidationMetricsCallback(),
            eval_batch_end_callback=None):
        """Train on ``X`` (an iterator, or an array with labels ``y``) from
        ``begin_epoch`` to ``num_epoch``, evaluating on ``eval_data`` (an iterator or a
        ``(data, label)`` pair) after each epoch.

        ``eval_end_callback`` defaults to logging each validation metric
        (``Epoch[%d] Validation-NAME=VALUE``); ``kvstore`` is a store or its type
        ('local' uses no store on a single device).
        """
        data = self._init_iter(X, y, is_train=True)
        eval_data = self._init_eval_iter(eval_data)
        if self.sym_gen:
            self.symbol = self.sym_gen(data.default_bucket_key)
            self._check_arguments()
        self.kwargs["sym"] = self.symbol
        arg_names, param_names, aux_names = self._init_params(
            data.provide_data + data.provide_label)
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)

        kvstore, update_on_kvstore = _create_kvstore(kvstore, len(self.ctx), self.arg_params)
        ndev = len(self.ctx)
        if update_on_kvstore:
            idx2name = dict(enumerate(param_names))
        else:
            idx2name = {i * ndev + k: n for i, n in enumerate(param_names) for k in range(ndev)}
        self.kwargs["param_idx2name"] = idx2name

        optimizer = self.optimizer
        if isinstance(optimizer, str):
            batch_size = data.batch_size
            if kvstore and "dist" in kvstore.type and "_async" not in kvstore.type:
                batch_size *= kvstore.num_workers
            optimizer = opt.create(optimizer, rescale_grad=1.0 / batch_size, **self.kwargs)
        elif isinstance(optimizer, opt.Optimizer) and not optimizer.idx2name:
            optimizer.idx2name = idx2name.copy()

        _train_multi_device(self.symbol, self.ctx, arg_names, param_names, aux_names,
                            self.arg_params, self.aux_params, begin_epoch=self.begin_epoch,
                            end_epoch=self.num_epoch, epoch_size=self.epoch_size,
                            optimizer=optimizer, train_data=data, eval_data=eval_data,
                            eval_metric=eval_metric, epoch_end_callback=epoch_end_callback,
                            batch_end_callback=batch_end_callback, kvstore=kvstore,
                            update_on_kvstore=update_on_kvstore, logger=logger,
                            work_load_list=work_load_list, monitor=monitor,
                            eval_end_callback=eval_end_callback,
                            eval_batch_end_callback=eval_batch_end_callback,
                            sym_gen=self.sym_gen)

    # -- persistence -----------------------------------------------------------------
    def save(self, prefix, epoch=None, remove_amp_cast=True):
        """Write ``prefix-symbol.json`` and ``prefix-%04d.params`` (``epoch`` defaults to
        ``num_epoch``) through :func:`save_checkpoint`; each file is written to a
        temporary file first and then renamed into place."""
        if epoch is None:
            epoch = self.num_epoch
        assert epoch is not None
        save_checkpoint(prefix, epoch, self.symbol, self.arg_params, self.aux_params,
                        remove_amp_cast=remove_amp_cast)

    @staticmethod
    def load(prefix, epoch, ctx=None, **kwargs):
        """A model from a checkpoint written by :meth:`save`, starting at ``epoch``;
        ``kwargs`` go to the constructor (``num_epoch``, optimizer settings, ...)."""
        symbol, arg_params, aux_params = load_checkpoint(prefix, epoch)
        return _feedforward_class()(symbol, ctx=ctx, arg_params=arg_params,
                                    aux_params=aux_params,
                           begin_epoch=epoch, **kwargs)

    @staticmethod
    def create(symbol, X, y=None, ctx=None, num_epoch=None, epoch_size=None, optimizer="sgd",
               initializer=Uniform(0.01), eval_data=None, eval_metric="acc",
               epoch_end_callback=None, batch_end_callback=None, kvstore="local",
               logger=None, work_load_list=None,
               eval_end_callback=LogValidationMetricsCallback(),
               eval_batch_end_callback=None, **kwargs):
        """Construct a model and ``fit`` it in one call; returns the trained model."""
        model = _feedforward_class()(symbol, ctx=ctx, num_epoch=num_epoch,
                                     epoch_size=epoch_size,
                            optimizer=optimizer, initializer=initializer, **kwargs)
        model.fit(X, y, eval_data=eval_data, eval_metric=eval_metric,
                  epoch_end_callback=epoch_end_callback,
                  batch_end_callback=batch_end_callback, kvstore=kvstore, logger=logger,
                  work_load_list=work_load_list, eval_end_callback=eval_end_callback,
                  eval_batch_end_callback=eval_batch_end_callback)
        return model



# mxnet.executor_manager imports the Module package, which imports this module: its names
# are looked up on first use (PEP 562) rather than imported here.
_EXECUTOR_MANAGER_NAMES = ("DataParallelExecutorManager", "_check_arguments", "_load_data")


def _feedforward_class():
    """``FeedForward``: :class:`_FeedForwardImpl` on scikit-learn's ``BaseEstimator``
    when that is installed (else on ``object``), made once on first use."""
    cls = globals().get("FeedForward")
    if cls is None:
        try:
            from sklearn.base import BaseEstimator as base
            installed = True
        except ImportError:
            base, installed = object, False
        bases = (_FeedForwardImpl,) if base is object else (_FeedForwardImpl, base)
        cls = type("FeedForward", bases, {"__doc__": _FeedForwardImpl.__doc__,
                                          "__module__": __name__,
                                          "__qualname__": "FeedForward"})
        globals().update(FeedForward=cls, BASE_ESTIMATOR=base, SKLEARN_INSTALLED=installed)
    return cls


def __getattr__(name):
    if name in _EXECUTOR_MANAGER_NAMES:
        return getattr(_em(), name)
    if name in _LAZY_ESTIMATOR_NAMES:
        _feedforward_class()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"DataParallelExecutorManager"}
                  | set(_LAZY_ESTIMATOR_NAMES))
