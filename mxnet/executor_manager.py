"""Data-parallel training over several devices for the legacy ``FeedForward``-style loop
(``mx.executor_manager``): each device binds the network on its share of every batch;
parameters, gradients and auxiliary states are kept per device.

Newer code uses :class:`mxnet.module.Module`, whose executor group does the same.
"""
from __future__ import annotations

import logging

import numpy as np

from . import ndarray as nd
from .base import mx_real_t
from .context import cpu
from .io import DataDesc
from .module.executor_group import _split_input_slice

__all__ = ["DataParallelExecutorGroup", "DataParallelExecutorManager"]


def _check_arguments(symbol):
    """ValueError if ``symbol`` has two arguments, or two auxiliary states, of one name."""
    arg_names = symbol.list_arguments()
    seen = set()
    for name in arg_names:
        if name in seen:
            raise ValueError(f'Find duplicated argument name "{name}", please make the weight '
                             f'name non-duplicated(using name arguments), arguments are '
                             f'{arg_names}')
        seen.add(name)
    aux_names = symbol.list_auxiliary_states()
    seen = set()
    for name in aux_names:
        if name in seen:
            raise ValueError(f'Find duplicated auxiliary param name "{name}", please make the '
                             f'weight name non-duplicated(using name arguments), arguments '
                             f'are {arg_names}, auxiliary params are {aux_names}')
        seen.add(name)


def _load_general(data, targets):
    """Copy each source array into its targets: one NDArray, or ``(slice, NDArray)`` pairs
    cutting the source along its first axis."""
    for src, dst in zip(data, targets):
        if isinstance(dst, nd.NDArray):
            src.copyto(dst)
            continue
        assert dst[-1][0].stop == src.shape[0], (
            f"Batch size miss match. Expected {dst[-1][0].stop}, got {src.shape[0]}")
        for sl, part in dst:
            src[sl].copyto(part)


def _load_data(batch, targets):
    """Copy a batch's data into the per-device arrays."""
    _load_general(batch.data, targets)


def _load_label(batch, targets):
    """Copy a batch's labels into the per-device arrays."""
    _load_general(batch.label, targets)


def _bind_exec(sym, ctx, input_shapes, param_names, need_grad=False, base_exec=None,
               shared_data_arrays=None, input_types=None, logger=logging):
    """Bind ``sym`` on ``ctx`` for inputs of ``input_shapes``.

    Parameters come from ``base_exec`` when given (shared between buckets), else are new
    zeros; inputs come from ``shared_data_arrays`` when big enough (and are recorded
    there). ``need_grad``: False, True (every non-input) or a set of names.
    """
    arg_shape, _, aux_shape = sym.infer_shape(**input_shapes)
    assert arg_shape is not None
    if input_types is None:
        input_types = dict.fromkeys(input_shapes, mx_real_t)
    arg_types, _, aux_types = sym.infer_type(**input_types)
    assert arg_types is not None

    arg_names = sym.list_arguments()
    grad_arrays = {} if need_grad is not False else None
    if need_grad is False:
        need_grad = set()
    elif need_grad is True:
        need_grad = set(arg_names) - set(input_shapes)
    elif not isinstance(need_grad, set):
        raise AssertionError("need_grad must be boolean or set.")
    grad_req = {name: ("write" if name in need_grad else "null") for name in arg_names}

    arg_arrays = []
    for i, name in enumerate(arg_names):
        shape, dtype = arg_shape[i], arg_types[i]
        if name not in param_names:  # an input (data or label)
            shared = shared_data_arrays.get(name) if shared_data_arrays is not None else None
            if shared is not None and np.prod(shared.shape) >= np.prod(shape):
                assert np.dtype(dtype) == np.dtype(shared.dtype)
                arr = shared.reshape(shape)
            else:
                if shared is not None:
                    logger.warning(
                        f'bucketing: data "{name}" has a shape {shape}, which is larger than '
                        f'already allocated shape {shared.shape}. Need to re-allocate. '
                        f'Consider putting default_bucket_key to be the bucket taking the '
                        f'largest input for better memory sharing.')
                arr = nd.zeros(shape, ctx, dtype=dtype)
                if shared_data_arrays is not None:
                    shared_data_arrays[name] = arr
        elif base_exec is None:
            arr = nd.zeros(shape, ctx, dtype=dtype)
            if name in need_grad:
                grad_arrays[name] = nd.zeros(shape, ctx, dtype=dtype)
        else:
            arr = base_exec.arg_dict[name]
            assert arr.shape == tuple(shape)
            assert np.dtype(arr.dtype) == np.dtype(dtype)
            if name in need_grad:
                grad_arrays[name] = base_exec.grad_dict[name]
        arg_arrays.append(arr)

    if base_exec is None:
        aux_arrays = [nd.zeros(s, ctx, dtype=t) for s, t in zip(aux_shape, aux_types)]
    else:
        for s, t, a in zip(aux_shape, aux_types, base_exec.aux_arrays):
            assert tuple(s) == a.shape
            assert np.dtype(t) == np.dtype(a.dtype)
        aux_arrays = list(base_exec.aux_arrays)

    return sym.bind(ctx=ctx, args=arg_arrays, args_grad=grad_arrays, aux_states=aux_arrays,
                    grad_req=grad_req, shared_exec=base_exec)


class DataParallelExecutorGroup:
    """One executor per device in ``ctx``, device ``i`` running rows ``slices[i]`` of each
    batch.

    ``sym``: the network; ``arg_names``: ``sym.list_arguments()``; ``param_names``: the
    trainable ones; ``train_data``: anything with ``provide_data``/``provide_label``;
    ``shared_group``: a group to share parameters and input memory with (bucketing).
    """

    def __init__(self, sym, arg_names, param_names, ctx, slices, train_data,
                 shared_group=None):
        _check_arguments(sym)
        if shared_group is None:
            self.shared_data_arrays = [{} for _ in ctx]
        else:
            self.shared_data_arrays = shared_group.shared_data_arrays

        self.data_names = [x[0] for x in train_data.provide_data]
        self.label_names = [x[0] for x in train_data.provide_label]
        self.aux_names = sym.list_auxiliary_states()
        self.param_idx = [i for i, n in enumerate(arg_names) if n in param_names]
        self.param_names = [arg_names[i] for i in self.param_idx]

        self.train_execs = []
        for i, dev in enumerate(ctx):
            shapes, types = {}, {}
            for desc in list(train_data.provide_data) + list(train_data.provide_label):
                shapes[desc[0]] = (slices[i].stop - slices[i].start,) + tuple(desc[1][1:])
                types[desc[0]] = desc.dtype if isinstance(desc, DataDesc) else mx_real_t
            shared_exec = None if shared_group is None else shared_group.train_execs[i]
            self.train_execs.append(_bind_exec(
                sym, dev, shapes, self.param_names, need_grad=True, base_exec=shared_exec,
                shared_data_arrays=self.shared_data_arrays[i], input_types=types))

        execs = self.train_execs
        self.data_arrays = [[(slices[i], e.arg_dict[n]) for i, e in enumerate(execs)]
                            for n in self.data_names]
        self.label_arrays = [[(slices[i], e.arg_dict[n]) for i, e in enumerate(execs)]
                             for n in self.label_names]
        self.param_arrays = [[e.arg_arrays[i] for e in execs] for i in self.param_idx]
        self.grad_arrays = [[e.grad_arrays[i] for e in execs] for i in self.param_idx]
        self.aux_arrays = [[e.aux_arrays[i] for e in execs] for i in range(len(self.aux_names))]
        self.slices = slices

    def load_data_batch(self, data_batch):
        """Copy a batch's data and labels onto the devices."""
        _load_data(data_batch, self.data_arrays)
        _load_label(data_batch, self.label_arrays)

    def forward(self, is_train=False):
        """Forward on every device."""
        for ex in self.train_execs:
            ex.forward(is_train=is_train)

    def backward(self):
        """Backward on every device."""
        for ex in self.train_execs:
            ex.backward()

    def update_metric(self, metric, labels, pre_sliced=False):
        """Update ``metric`` with each device's outputs and its part of ``labels``
        (``pre_sliced``: ``labels[i]`` already holds device ``i``'s labels)."""
        for i, (ex, sl) in enumerate(zip(self.train_execs, self.slices)):
            part = labels[i] if pre_sliced else [label[sl] for label in labels]
            metric.update(part, ex.outputs)


class DataParallelExecutorManager:
    """Runs ``symbol`` data-parallel on the devices ``ctx``.

    The batch is split in proportion to ``work_load_list`` (equal shares by default).
    ``sym_gen(bucket_key)`` makes the network for each bucket of a bucketing iterator;
    buckets share parameters with the default bucket's group.
    """

    def __init__(self, symbol, ctx, train_data, arg_names, param_names, aux_names,
                 work_load_list=None, logger=None, sym_gen=None):
        if logger is None:
            logger = logging
        logger.info("Start training with %s", str(ctx))
        if work_load_list is None:
            work_load_list = [1] * len(ctx)
        assert isinstance(work_load_list, list) and len(work_load_list) == len(ctx), \
            "Invalid settings for work load. "
        self.slices = _split_input_slice(train_data.batch_size, work_load_list)
        self.arg_names = arg_names
        self.param_names = param_names
        self.aux_names = aux_names
        self.ctx = ctx
        self.execgrp = DataParallelExecutorGroup(symbol, arg_names, param_names, ctx,
                                                 self.slices, train_data)
        self.symbol = symbol
        self.sym_gen = sym_gen
        self.curr_execgrp = None  # chosen by load_data_batch
        if sym_gen is not None:
            self.execgrp_bucket = {train_data.default_bucket_key: self.execgrp}

    def install_monitor(self, monitor):
        """Install ``monitor`` on every executor (not supported with bucketing)."""
        if self.sym_gen is not None:
            raise NotImplementedError("Monitoring is not implemented for bucketing")
        for ex in self.execgrp.train_execs:
            monitor.install(ex)

    def set_params(self, arg_params, aux_params):
        """Copy the given parameters (dicts of NDArrays) onto every device."""
        for ex in self.execgrp.train_execs:
            ex.copy_params_from(arg_params, aux_params)

    def copy_to(self, arg_params, aux_params):
        """Write the average over the devices of each parameter and auxiliary state into
        the NDArrays of ``arg_params`` / ``aux_params`` (in place, in their dtype)."""
        for names, blocks, target in ((self.param_names, self.param_arrays, arg_params),
                                      (self.aux_names, self.aux_arrays, aux_params)):
            for name, block in zip(names, blocks):
                mean = sum(w.copyto(cpu()) for w in block) / len(block)
                mean.astype(target[name].dtype).copyto(target[name])

    @property
    def param_arrays(self):
        """Per-parameter lists of the device copies (shared by all buckets)."""
        return self.execgrp.param_arrays

    @property
    def grad_arrays(self):
        """Per-parameter lists of the device gradients (shared by all buckets)."""
        return self.execgrp.grad_arrays

    @property
    def aux_arrays(self):
        """Per-state lists of the device auxiliary states (shared by all buckets)."""
        return self.execgrp.aux_arrays

    def load_data_batch(self, data_batch):
        """Pick the group for the batch's bucket (making it on first sight) and copy the
        batch onto the devices."""
        if self.sym_gen is not None:
            key = data_batch.bucket_key
            if key not in self.execgrp_bucket:
                self.execgrp_bucket[key] = DataParallelExecutorGroup(
                    self.sym_gen(key), self.arg_names, self.param_names, self.ctx,
                    self.slices, data_batch, shared_group=self.execgrp)
            self.curr_execgrp = self.execgrp_bucket[key]
        else:
            self.curr_execgrp = self.execgrp
        self.curr_execgrp.load_data_batch(data_batch)

    def forward(self, is_train=False):
        """Forward on the current group."""
        self.curr_execgrp.forward(is_train=is_train)

    def backward(self):
        """Backward on the current group."""
        self.curr_execgrp.backward()

    def update_metric(self, metric, labels, pre_sliced=False):
        """Update ``metric`` from the current group."""
        self.curr_execgrp.update_metric(metric, labels, pre_sliced)
