"""BaseModule: the interface every module offers, and the loops built on it.

A module goes through four states, each a flag: ``binded`` (memory for a given input
shape is allocated), ``params_initialized``, ``optimizer_initialized``, and the
computation flags ``for_training`` / ``inputs_need_grad``. Subclasses implement the
primitive steps (bind, init_params, forward, backward, update, ...); this class builds
the training and evaluation loops (:meth:`fit`, :meth:`score`, :meth:`predict`,
:meth:`iter_predict`) from them.
"""
from __future__ import annotations

import logging
import time
import warnings

import numpy as np

from .. import metric
from .. import ndarray
from ..context import cpu
from ..initializer import Uniform
from ..io import DataBatch, DataDesc, DataIter
from ..model import BatchEndParam

__all__ = ["BaseModule"]


def _as_list(obj):
    """``obj`` if it is a list (or tuple), else ``[obj]``."""
    if isinstance(obj, (list, tuple)):
        return obj
    return [obj]


def _batch_axis(layout):
    """The batch axis of a layout string (``'N'``'s position; 0 when no layout)."""
    if layout is None:
        return 0
    return layout.find("N")


def _check_input_names(symbol, names, typename, throw):
    """Check that each name in ``names`` is an argument of ``symbol``."""
    args = symbol.list_arguments()
    for name in names:
        if name in args:
            continue
        candidates = [a for a in args if not a.endswith(("_weight", "_bias", "_gamma", "_beta"))]
        msg = ("\033[91mYou created Module with Module(..., %s_names=%s) but input with name "
               "'%s' is not found in symbol.list_arguments(). Did you mean one of:\n\t%s\033[0m"
               % (typename, str(names), name, "\n\t".join(candidates)))
        if throw:
            raise ValueError(msg)
        warnings.warn(msg, stacklevel=3)


def _check_names_match(data_names, data_shapes, name, throw):
    """Check that ``data_shapes`` describes exactly ``data_names``."""
    actual = [x[0] for x in data_shapes]
    if sorted(data_names) != sorted(actual):
        msg = "Data provided by %s_shapes don't match names specified by %s_names (%s vs. %s)" % (
            name, name, str(data_shapes), str(data_names))
        if throw:
            raise ValueError(msg)
        # attributed to this line, as in 1.9.1: Python's default filter then shows it once,
        # not again on every reshape
        warnings.warn(msg, stacklevel=1)


def _to_desc(x):
    return x if isinstance(x, DataDesc) else DataDesc(*x)


def _parse_data_desc(data_names, label_names, data_shapes, label_shapes):
    """Normalise ``(name, shape)`` pairs into DataDesc lists and check their names."""
    data_shapes = [_to_desc(x) for x in data_shapes]
    _check_names_match(data_names, data_shapes, "data", True)
    if label_shapes is not None:
        label_shapes = [_to_desc(x) for x in label_shapes]
        _check_names_match(label_names, label_shapes, "label", False)
    else:
        _check_names_match(label_names, [], "label", False)
    return data_shapes, label_shapes


def _call_each(callbacks, *args):
    for cb in _as_list(callbacks):
        cb(*args)


class BaseModule:
    """The common interface of modules (see the module docstring for the states).

    Subclasses provide: the ``data_names`` / ``output_names`` / ``data_shapes`` /
    ``label_shapes`` / ``output_shapes`` properties, ``get_params`` / ``init_params``,
    ``bind``, ``init_optimizer``, ``forward`` / ``backward`` / ``update``,
    ``get_outputs`` / ``get_input_grads``, ``update_metric`` and ``install_monitor``.
    """

    def __init__(self, logger=logging):
        self.logger = logger
        self.binded = False
        self.for_training = False
        self.inputs_need_grad = False
        self.params_initialized = False
        self.optimizer_initialized = False
        self._symbol = None
        self._total_exec_bytes = 0

    # -- high-level loops --------------------------------------------------------------------
    def forward_backward(self, data_batch):
        """A training forward pass followed by backward."""
        self.forward(data_batch, is_train=True)
        self.backward()

    def _update_metric_from(self, eval_metric, batch):
        if isinstance(batch, list):
            self.update_metric(eval_metric, [b.label for b in batch], pre_sliced=True)
        else:
            self.update_metric(eval_metric, batch.label)

    def score(self, eval_data, eval_metric, num_batch=None, batch_end_callback=None,
              score_end_callback=None, reset=True, epoch=0, sparse_row_id_fn=None):
        """Evaluate ``eval_metric`` over ``eval_data`` (at most ``num_batch`` batches) and
        return its ``[(name, value)]``."""
        assert self.binded and self.params_initialized
        if reset:
            eval_data.reset()
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        eval_metric.reset()
        seen = 0
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            self._update_metric_from(eval_metric, eval_batch)
            if batch_end_callback is not None:
                params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric,
                                       locals=locals())
                _call_each(batch_end_callback, params)
            seen += 1
        if score_end_callback:
            params = BatchEndParam(epoch=epoch, nbatch=seen, eval_metric=eval_metric,
                                   locals=locals())
            _call_each(score_end_callback, params)
        return eval_metric.get_name_value()

    def _unpadded_outputs(self, batch, copy):
        pad = batch.pad or 0
        outs = [out[0:out.shape[0] - pad] for out in self.get_outputs()]
        return [o.copy() for o in outs] if copy else outs

    def iter_predict(self, eval_data, num_batch=None, reset=True, sparse_row_id_fn=None):
        """Yield ``(outputs, nbatch, batch)`` for each batch, padding removed."""
        assert self.binded and self.params_initialized
        if reset:
            eval_data.reset()
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            yield self._unpadded_outputs(eval_batch, copy=False), nbatch, eval_batch

    def predict(self, eval_data, num_batch=None, merge_batches=True, reset=True,
                always_output_list=False, sparse_row_id_fn=None):
        """Run inference over ``eval_data`` (a DataIter, or one NDArray / NumPy batch).

        With ``merge_batches`` the outputs of all batches are concatenated: a single
        NDArray when the network has one output (unless ``always_output_list``), else a
        list with one array per output. Without it, a list of per-batch output lists.
        Padding at the end of the last batch is removed.
        """
        assert self.binded and self.params_initialized
        if isinstance(eval_data, (ndarray.NDArray, np.ndarray)):
            if isinstance(eval_data, np.ndarray):
                eval_data = ndarray.array(eval_data)
            self.forward(DataBatch([eval_data]))
            return self.get_outputs()[0]
        if not isinstance(eval_data, DataIter):
            raise ValueError("eval_data must be of type NDArray or DataIter")
        if reset:
            eval_data.reset()
        output_list = []
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            output_list.append(self._unpadded_outputs(eval_batch, copy=True))
        if not output_list:
            return output_list
        if not merge_batches:
            return output_list
        num_outputs = len(output_list[0])
        for outs in output_list:
            assert len(outs) == num_outputs, (
                "Cannot merge batches, as num of outputs is not the same in mini-batches. "
                "Maybe bucketing is used?")
        merged = [ndarray.concatenate([outs[i] for outs in output_list])
                  for i in range(num_outputs)]
        if num_outputs == 1 and not always_output_list:
            return merged[0]
        return merged

    def _prepare_fit(self, train_data, eval_metric, validation_metric, kvstore, optimizer,
                     optimizer_params, initializer, arg_params, aux_params, allow_missing,
                     force_rebind, force_init, monitor):
        """What ``fit`` does before its first epoch: bind for training, install the monitor,
        initialise parameters and the optimizer; returns (eval metric object, validation
        metric)."""
        self.bind(data_shapes=train_data.provide_data, label_shapes=train_data.provide_label,
                  for_training=True, force_rebind=force_rebind)
        if monitor is not None:
            self.install_monitor(monitor)
        self.init_params(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                         allow_missing=allow_missing, force_init=force_init)
        self.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                            optimizer_params=optimizer_params)
        if validation_metric is None:
            validation_metric = eval_metric
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        return eval_metric, validation_metric

    def fit(self, train_data, eval_data=None, eval_metric="acc", epoch_end_callback=None,
            batch_end_callback=None, kvstore="local", optimizer="sgd",
            optimizer_params=(("learning_rate", 0.01),), eval_end_callback=None,
            eval_batch_end_callback=None, initializer=Uniform(0.01), arg_params=None,
            aux_params=None, allow_missing=False, force_rebind=False, force_init=False,
            begin_epoch=0, num_epoch=None, validation_metric=None, monitor=None,
            sparse_row_id_fn=None):
        """Train for epochs ``begin_epoch .. num_epoch - 1``.

        Binds, initialises parameters and the optimizer, then per epoch: runs every
        batch (forward, backward, update, metric, ``batch_end_callback``), logs
        ``Epoch[E] Train-name=value`` and ``Epoch[E] Time cost=T``, syncs parameters,
        calls ``epoch_end_callback(epoch, symbol, arg_params, aux_params)``, and, with
        ``eval_data``, scores it and logs ``Epoch[E] Validation-name=value``.
        """
        assert num_epoch is not None, "please specify number of epochs"
        eval_metric, validation_metric = self._prepare_fit(
            train_data, eval_metric, validation_metric, kvstore, optimizer, optimizer_params,
            initializer, arg_params, aux_params, allow_missing, force_rebind, force_init,
            monitor)

        for epoch in range(begin_epoch, num_epoch):
            tic = time.time()
            eval_metric.reset()
            nbatch = 0
            data_iter = iter(train_data)
            end_of_batch = False
            next_data_batch = next(data_iter)
            while not end_of_batch:
                data_batch = next_data_batch
                if monitor is not None:
                    monitor.tic()
                self.forward_backward(data_batch)
                self.update()
                self._update_metric_from(eval_metric, data_batch)
                try:
                    # fetch (and prepare for) the next batch while this one finishes
                    next_data_batch = next(data_iter)
                    self.prepare(next_data_batch, sparse_row_id_fn=sparse_row_id_fn)
                except StopIteration:
                    end_of_batch = True
                if monitor is not None:
                    monitor.toc_print()
                if end_of_batch:
                    eval_name_vals = eval_metric.get_global_name_value()
                if batch_end_callback is not None:
                    # named as 1.9.1 names it: callbacks can see it in ``locals``
                    batch_end_params = BatchEndParam(epoch=epoch, nbatch=nbatch,
                                                     eval_metric=eval_metric, locals=locals())
                    _call_each(batch_end_callback, batch_end_params)
                nbatch += 1

            for name, val in eval_name_vals:
                self.logger.info("Epoch[%d] Train-%s=%f", epoch, name, val)
            toc = time.time()
            self.logger.info("Epoch[%d] Time cost=%.3f", epoch, (toc - tic))

            # make the devices' parameters agree before handing them out
            arg_params, aux_params = self.get_params()
            self.set_params(arg_params, aux_params)
            if epoch_end_callback is not None:
                _call_each(epoch_end_callback, epoch, self.symbol, arg_params, aux_params)

            if eval_data is not None:
                res = self.score(eval_data, validation_metric,
                                 score_end_callback=eval_end_callback,
                                 batch_end_callback=eval_batch_end_callback, epoch=epoch)
                for name, val in res:
                    self.logger.info("Epoch[%d] Validation-%s=%f", epoch, name, val)
            train_data.reset()

    # -- what subclasses describe ------------------------------------------------------------
    @property
    def data_names(self):
        """Names of the data inputs."""
        raise NotImplementedError()

    @property
    def output_names(self):
        """Names of the outputs."""
        raise NotImplementedError()

    @property
    def data_shapes(self):
        """DataDesc of each data input (after bind)."""
        raise NotImplementedError()

    @property
    def label_shapes(self):
        """DataDesc of each label input (after bind), or None."""
        raise NotImplementedError()

    @property
    def output_shapes(self):
        """``[(name, shape)]`` of the outputs (after bind)."""
        raise NotImplementedError()

    @property
    def symbol(self):
        """The symbol this module computes."""
        return self._symbol

    # -- parameters ----------------------------------------------------------------------------
    def get_params(self):
        """``(arg_params, aux_params)``: name -> NDArray, on the CPU."""
        raise NotImplementedError()

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        """Initialise parameters, taking given values from ``arg_params`` / ``aux_params``."""
        raise NotImplementedError()

    def set_params(self, arg_params, aux_params, allow_missing=False, force_init=True,
                   allow_extra=False):
        """Assign parameter values (an :meth:`init_params` with no initializer)."""
        self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                         allow_missing=allow_missing, force_init=force_init,
                         allow_extra=allow_extra)

    def save_params(self, fname):
        """Write the parameters to ``fname`` with keys ``arg:NAME`` / ``aux:NAME``."""
        arg_params, aux_params = self.get_params()
        save_dict = {f"arg:{k}": v.as_in_context(cpu()) for k, v in arg_params.items()}
        save_dict.update({f"aux:{k}": v.as_in_context(cpu()) for k, v in aux_params.items()})
        ndarray.save(fname, save_dict)

    def load_params(self, fname):
        """Read parameters written by :meth:`save_params` and assign them."""
        save_dict = ndarray.load(fname)
        arg_params, aux_params = {}, {}
        for key, value in save_dict.items():
            kind, _, name = key.partition(":")
            if kind == "arg":
                arg_params[name] = value
            elif kind == "aux":
                aux_params[name] = value
            else:
                raise ValueError("Invalid param file " + fname)
        self.set_params(arg_params, aux_params)

    def get_states(self, merge_multi_context=True):
        """The recurrent states (none for a plain module)."""
        assert self.binded and self.params_initialized
        assert not merge_multi_context
        return []

    def set_states(self, states=None, value=None):
        """Set the recurrent states (none for a plain module)."""
        assert self.binded and self.params_initialized
        assert not states and not value

    def install_monitor(self, mon):
        """Attach a :class:`mxnet.monitor.Monitor` to the executors."""
        raise NotImplementedError()

    # -- computation -----------------------------------------------------------------------------
    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Get ready for ``data_batch`` (switch bucket, pull sparse rows ...)."""
        if sparse_row_id_fn is not None:
            warnings.warn(UserWarning("sparse_row_id_fn is not invoked for BaseModule."),
                          stacklevel=2)

    def forward(self, data_batch, is_train=None):
        """Compute the outputs for ``data_batch``."""
        raise NotImplementedError()

    def backward(self, out_grads=None):
        """Compute gradients (``out_grads`` for outputs that are not losses)."""
        raise NotImplementedError()

    def get_outputs(self, merge_multi_context=True):
        """The outputs of the last forward."""
        raise NotImplementedError()

    def get_input_grads(self, merge_multi_context=True):
        """Gradients of the data inputs (needs ``inputs_need_grad``)."""
        raise NotImplementedError()

    def update(self):
        """Apply one optimizer step from the gradients of the last backward."""
        raise NotImplementedError()

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Accumulate ``eval_metric`` from ``labels`` and the last outputs."""
        raise NotImplementedError()

    # -- setup -------------------------------------------------------------------------------------
    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        """Allocate executors for the given input shapes."""
        raise NotImplementedError()

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        """Set up the optimizer (and the KVStore that may run it)."""
        raise NotImplementedError()
