"""SVRGModule: a Module trained with stochastic variance reduced gradients."""
import logging
import time

from ... import initializer as init_mod
from ... import ndarray as nd
from ... import optimizer as opt
from ...base import MXNetError
from ...context import cpu
from ...model import BatchEndParam, _create_kvstore
from ...module import Module
from .svrg_optimizer import _SVRGOptimizer

__all__ = ["SVRGModule"]


def _as_list(obj):
    return obj if isinstance(obj, list) else [obj]


class SVRGModule(Module):
    """A Module whose updates use SVRG.

    Besides the Module arguments it takes ``update_freq``, a positive int: the full gradient
    (over all training data, at a snapshot of the weights) is recomputed at the start of
    every ``update_freq``-th epoch. A second, internal module holds the snapshot weights and
    computes their gradient on each batch; the step direction is
    ``grad(w, batch) - grad(w_snapshot, batch) + full_grad(w_snapshot)``.

    >>> # mod = SVRGModule(sym, data_names=['data'], label_names=['lin_reg_label'],
    >>> #                  update_freq=2)
    >>> # mod.fit(train_iter, eval_metric='mse', optimizer='sgd', num_epoch=10)
    """

    def __init__(self, symbol, data_names=("data",), label_names=("softmax_label",),
                 logger=logging, context=None, work_load_list=None, fixed_param_names=None,
                 state_names=None, group2ctxs=None, compression_params=None, update_freq=None):
        context = cpu() if context is None else context
        super().__init__(symbol, data_names=data_names, label_names=label_names, logger=logger,
                         context=context, work_load_list=work_load_list,
                         fixed_param_names=fixed_param_names, state_names=state_names,
                         group2ctxs=group2ctxs, compression_params=compression_params)
        if not isinstance(update_freq, int) or isinstance(update_freq, bool):
            raise TypeError("update_freq in SVRGModule must be an integer to represent the "
                            f"frequency for calculating full gradients, got {update_freq!r}")
        if update_freq <= 0:
            raise ValueError("update_freq in SVRGModule must be a positive integer to represent "
                             f"the frequency for calculating full gradients, got {update_freq}")
        self.update_freq = update_freq
        self._mod_aux = Module(symbol, data_names, label_names, logger, context, work_load_list,
                               fixed_param_names, state_names, group2ctxs, compression_params)
        self._param_dict = None
        self._ctx_len = len(self._context)

    def _reset_bind(self):
        super()._reset_bind()
        self._mod_aux._reset_bind()

    def reshape(self, data_shapes, label_shapes=None):
        """Reshape both modules."""
        super().reshape(data_shapes, label_shapes=label_shapes)
        self._mod_aux.reshape(data_shapes, label_shapes=label_shapes)

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        """Install an _SVRGOptimizer wrapping ``optimizer``; with a KVStore, also the
        ``<name>_full`` keys that gather full gradients across devices and workers."""
        self._param_dict = [{k: nd.zeros(v.shape, ctx=self._context[i])
                             for k, v in self.get_params()[0].items()}
                            for i in range(self._ctx_len)]
        svrg = self._create_optimizer(_SVRGOptimizer.__name__, default_opt=optimizer,
                                      kvstore=kvstore, optimizer_params=optimizer_params)
        super().init_optimizer(kvstore=kvstore, optimizer=svrg,
                               optimizer_params=optimizer_params, force_init=force_init)
        if self._kvstore:
            for idx, on_devs in enumerate(self._exec_group.param_arrays):
                name = self._exec_group.param_names[idx]
                self._kvstore.init(name + "_full", nd.zeros(self._arg_params[name].shape))
                if self._update_on_kvstore:
                    self._kvstore.pull(name + "_full", on_devs, priority=-idx)

    def _create_optimizer(self, optimizer, default_opt, kvstore, optimizer_params):
        batch_size = self._exec_group.batch_size
        kv, update_on_kvstore = _create_kvstore(kvstore, self._ctx_len, self._arg_params)
        if kv and "dist" in kv.type and "_sync" in kv.type:
            batch_size *= kv.num_workers
        idx2name = {}
        if update_on_kvstore:
            idx2name.update(enumerate(self._exec_group.param_names))
        else:
            for k in range(self._ctx_len):
                idx2name.update({i * self._ctx_len + k: n
                                 for i, n in enumerate(self._exec_group.param_names)})
        for key in self._param_dict[0]:
            idx2name[max(idx2name) + 1] = key + "_full"
        params = dict(optimizer_params)
        params.setdefault("rescale_grad", 1.0 / batch_size)
        params["default_optimizer"] = default_opt
        params["param_idx2name"] = idx2name
        return opt.create(optimizer, **params)

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        """Bind both modules (the snapshot module only for training)."""
        super().bind(data_shapes, label_shapes, for_training, inputs_need_grad, force_rebind,
                     shared_module, grad_req)
        if for_training:
            self._mod_aux.bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                               force_rebind, shared_module, grad_req)

    def forward(self, data_batch, is_train=None):
        """Forward; in training also through the snapshot module."""
        super().forward(data_batch, is_train)
        if is_train:
            self._mod_aux.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        super().backward(out_grads)
        if self._mod_aux.binded:
            self._mod_aux.backward(out_grads)

    def update(self):
        """Replace the gradients by the SVRG direction, then take the optimizer step."""
        self._update_svrg_gradients()
        super().update()

    def update_full_grads(self, train_data):
        """Snapshot the weights and average their gradient over all batches of
        ``train_data`` (a padded last batch counts as the fraction it fills)."""
        names = self._exec_group.param_names
        arg, aux = self.get_params()
        self._mod_aux.set_params(arg_params=arg, aux_params=aux)
        train_data.reset()
        nbatch, padding = 0, 0
        for batch in train_data:
            self._mod_aux.forward(batch, is_train=True)
            self._mod_aux.backward()
            nbatch += 1
            for ctx in range(self._ctx_len):
                for index, name in enumerate(names):
                    grads = self._mod_aux._exec_group.grad_arrays[index][ctx]
                    self._param_dict[ctx][name] = nd.broadcast_add(
                        self._param_dict[ctx][name], grads)
            padding = batch.pad
        true_num_batch = nbatch - padding / train_data.batch_size
        for name in names:
            grad_list = []
            for i in range(self._ctx_len):
                self._param_dict[i][name] /= true_num_batch
                grad_list.append(self._param_dict[i][name])
            if self._kvstore:
                self._accumulate_kvstore(name, grad_list)

    def _accumulate_kvstore(self, key, value):
        self._kvstore.push(key + "_full", value)
        self._kvstore._barrier()
        self._kvstore.pull(key + "_full", value)
        self._allocate_gradients(key, value)

    def _allocate_gradients(self, key, value):
        for i in range(self._ctx_len):
            self._param_dict[i][key] = value[i] / self._ctx_len

    @staticmethod
    def _svrg_grads_update_rule(g_curr_batch_curr_weight, g_curr_batch_special_weight,
                                g_special_weight_all_batch):
        """In place: g_curr - g_snapshot + full_grad; returns the first argument."""
        g = g_curr_batch_curr_weight
        g[:] = g - g_curr_batch_special_weight + g_special_weight_all_batch
        return g

    def _update_svrg_gradients(self):
        names = self._exec_group.param_names
        for ctx in range(self._ctx_len):
            for index, name in enumerate(names):
                self._svrg_grads_update_rule(self._exec_group.grad_arrays[index][ctx],
                                             self._mod_aux._exec_group.grad_arrays[index][ctx],
                                             self._param_dict[ctx][name])

    def fit(self, train_data, eval_data=None, eval_metric="acc", epoch_end_callback=None,
            batch_end_callback=None, kvstore="local", optimizer="sgd",
            optimizer_params=(("learning_rate", 0.01),), eval_end_callback=None,
            eval_batch_end_callback=None, initializer=None, arg_params=None, aux_params=None,
            allow_missing=False, force_rebind=False, force_init=False, begin_epoch=0,
            num_epoch=None, validation_metric=None, monitor=None, sparse_row_id_fn=None):
        """Train as ``Module.fit`` does, recomputing the full gradient every
        ``update_freq`` epochs (``initializer`` defaults to Uniform(0.01))."""
        if num_epoch is None:
            raise MXNetError("SVRGModule.fit: please specify number of epochs (num_epoch)")
        initializer = init_mod.Uniform(0.01) if initializer is None else initializer
        eval_metric, validation_metric = self._prepare_fit(
            train_data, eval_metric, validation_metric, kvstore, optimizer, optimizer_params,
            initializer, arg_params, aux_params, allow_missing, force_rebind, force_init,
            monitor)
        for epoch in range(begin_epoch, num_epoch):
            eval_metric.reset()
            tic = time.time()
            if epoch % self.update_freq == 0:
                self.update_full_grads(train_data)
            train_data.reset()
            data_iter = iter(train_data)
            end_of_batch, nbatch = False, 0
            next_batch = next(data_iter)
            name_values = []
            while not end_of_batch:
                batch = next_batch
                if monitor is not None:
                    monitor.tic()
                self.forward_backward(batch)
                self.update()
                if isinstance(batch, list):
                    self.update_metric(eval_metric, [b.label for b in batch], pre_sliced=True)
                else:
                    self.update_metric(eval_metric, batch.label)
                try:
                    next_batch = next(data_iter)
                    self.prepare(next_batch, sparse_row_id_fn=sparse_row_id_fn)
                except StopIteration:
                    end_of_batch = True
                if monitor is not None:
                    monitor.toc_print()
                if end_of_batch:
                    name_values = eval_metric.get_name_value()
                if batch_end_callback is not None:
                    params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric,
                                           locals=locals())
                    for cb in _as_list(batch_end_callback):
                        cb(params)
                nbatch += 1
            for name, val in name_values:
                self.logger.info("Epoch[%d] Train-%s=%f", epoch, name, val)
            self.logger.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - tic)
            arg, aux = self.get_params()
            self.set_params(arg, aux)
            if epoch_end_callback is not None:
                for cb in _as_list(epoch_end_callback):
                    cb(epoch, self.symbol, arg, aux)
            if eval_data:
                res = self.score(eval_data, validation_metric,
                                 score_end_callback=eval_end_callback,
                                 batch_end_callback=eval_batch_end_callback, epoch=epoch)
                for name, val in res:
                    self.logger.info("Epoch[%d] Validation-%s=%f", epoch, name, val)

    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Prepare both modules for ``data_batch``."""
        super().prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        self._mod_aux.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
