"""SequentialModule: modules chained so that each one's outputs feed the next one's data.

``add(module, take_labels=True)`` gives that module the batch's labels (typically the
last, loss-computing one); ``auto_wiring=True`` renames the previous module's outputs
to this module's data names when binding. Backward runs the chain in reverse, passing
each module's input gradients as the previous module's output gradients.
"""
from __future__ import annotations

import copy
import logging

from ..initializer import Uniform
from .base_module import BaseModule

__all__ = ["SequentialModule"]


class SequentialModule(BaseModule):
    """A container running its modules one after another."""

    META_TAKE_LABELS = "take_labels"
    META_AUTO_WIRING = "auto_wiring"

    def __init__(self, logger=logging):
        super().__init__(logger=logger)
        self._modules = []
        self._metas = []
        self._label_shapes = None
        self._data_shapes = None
        self._meta_keys = {getattr(SequentialModule, x) for x in dir(SequentialModule)
                           if x.startswith("META_")}

    def add(self, module, **kwargs):
        """Append ``module`` (options: ``take_labels``, ``auto_wiring``); returns self.

        Adding resets the bound / initialised state: bind and initialise again after.
        """
        self._modules.append(module)
        for key in kwargs:
            assert key in self._meta_keys, 'Unknown meta "%s", a typo?' % key
        self._metas.append(kwargs)
        self.binded = False
        self.params_initialized = False
        self.optimizer_initialized = False
        return self

    def _takes_labels(self, i):
        return bool(self._metas[i].get(SequentialModule.META_TAKE_LABELS, False))

    # -- description -----------------------------------------------------------------------------
    @property
    def data_names(self):
        return self._modules[0].data_names if self._modules else []

    @property
    def output_names(self):
        return self._modules[-1].output_names if self._modules else []

    @property
    def data_shapes(self):
        assert self.binded
        return self._modules[0].data_shapes

    @property
    def label_shapes(self):
        assert self.binded
        return self._label_shapes

    @property
    def output_shapes(self):
        assert self.binded
        return self._modules[-1].output_shapes

    # -- parameters ------------------------------------------------------------------------------
    def get_params(self):
        """The union of every module's parameters."""
        assert self.binded and self.params_initialized
        arg_params, aux_params = {}, {}
        for module in self._modules:
            arg, aux = module.get_params()
            arg_params.update(arg)
            aux_params.update(aux)
        return arg_params, aux_params

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        """Initialise every module, then check no parameter name is used twice."""
        if self.params_initialized and not force_init:
            return
        assert self.binded, "call bind before initializing the parameters"
        for module in self._modules:
            module.init_params(initializer=initializer, arg_params=arg_params,
                               aux_params=aux_params, allow_missing=allow_missing,
                               force_init=force_init, allow_extra=allow_extra)

        def check(known, names, layer):
            for name in names:
                assert name not in known, (
                    'Duplicated parameter names: name "%s" in layer %d (%s) is already used in '
                    "layer %d (%s)." % (name, layer, type(self._modules[layer]), known[name],
                                        type(self._modules[known[name]])))
                known[name] = layer

        arg_names, aux_names = {}, {}
        for layer, module in enumerate(self._modules):
            arg, aux = module.get_params()
            check(arg_names, arg.keys(), layer)
            check(aux_names, aux.keys(), layer)
        self.params_initialized = True

    # -- binding ---------------------------------------------------------------------------------
    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        """Bind each module in turn on the previous one's output shapes. Every module
        after the first needs input gradients when training."""
        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if inputs_need_grad:
            assert for_training is True
        assert shared_module is None, "Shared module is not supported"
        assert len(self._modules) > 0, "Attempting to bind an empty SequentialModule"

        self.binded = True
        self._label_shapes = label_shapes
        my_data_shapes = data_shapes
        anybody_needs_labels = False
        for layer, module in enumerate(self._modules):
            if self._takes_labels(layer):
                my_label_shapes = label_shapes
                anybody_needs_labels = True
            else:
                my_label_shapes = None
            my_inputs_need_grad = bool(inputs_need_grad or (for_training and layer > 0))
            if self._metas[layer].get(SequentialModule.META_AUTO_WIRING, False):
                names = module.data_names
                assert len(names) == len(my_data_shapes)
                my_data_shapes = [(new, shape) for new, (_, shape) in zip(names, my_data_shapes)]
            module.bind(data_shapes=my_data_shapes, label_shapes=my_label_shapes,
                        for_training=for_training, inputs_need_grad=my_inputs_need_grad,
                        force_rebind=force_rebind, shared_module=None, grad_req=grad_req)
            my_data_shapes = module.output_shapes
        if not anybody_needs_labels:
            self._label_shapes = None

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        """Set up the same optimizer settings in every module."""
        assert self.binded and self.params_initialized
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring.")
            return
        for module in self._modules:
            module.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                                  optimizer_params=optimizer_params, force_init=force_init)
        self.optimizer_initialized = True

    # -- computation -----------------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        """Run the chain; each module's outputs become the next one's data."""
        assert self.binded and self.params_initialized
        data_batch = copy.copy(data_batch)
        last = len(self._modules) - 1
        for layer, module in enumerate(self._modules):
            module.forward(data_batch, is_train=is_train)
            if layer == last:
                break
            data_batch.data = module.get_outputs()
            if hasattr(data_batch, "provide_data"):
                names = [x[0] for x in module.output_shapes]
                assert len(names) == len(data_batch.data)
                data_batch.provide_data = [(name, x.shape)
                                           for name, x in zip(names, data_batch.data)]

    def backward(self, out_grads=None):
        """Back-propagate from the last module to the first."""
        assert self.binded and self.params_initialized
        for layer in range(len(self._modules) - 1, -1, -1):
            module = self._modules[layer]
            module.backward(out_grads=out_grads)
            if layer == 0:
                break
            out_grads = module.get_input_grads()

    def update(self):
        assert self.binded and self.params_initialized and self.optimizer_initialized
        for module in self._modules:
            module.update()

    def get_outputs(self, merge_multi_context=True):
        assert self.binded and self.params_initialized
        return self._modules[-1].get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        assert self.binded and self.params_initialized and self.inputs_need_grad
        return self._modules[0].get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Update the metric from the modules that take labels."""
        assert self.binded and self.params_initialized
        for layer, module in enumerate(self._modules):
            if self._takes_labels(layer):
                module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon):
        assert self.binded
        for module in self._modules:
            module.install_monitor(mon)
