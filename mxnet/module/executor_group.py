"""DataParallelExecutorGroup: one executor per device, each on its share of the batch.

The batch is cut along its batch axis (``'N'`` in the layout, axis 0 by default) into
contiguous slices sized by ``workload`` (:func:`_split_input_slice`). Each device binds
the symbol for its slice's shapes; parameters are separate arrays per device, kept
equal by the update step (see :mod:`mxnet.model`). Outputs and input gradients are
concatenated back along the batch axis when asked to merge.
"""
from __future__ import annotations

import logging
from collections import OrderedDict

from .. import context as ctx
from .. import ndarray as nd
from ..base import CODE_TO_DTYPE
from ..io import DataDesc
from .base_module import _batch_axis

__all__ = ["DataParallelExecutorGroup"]


def _split_input_slice(batch_size, work_load_list):
    """Cut ``range(batch_size)`` into one contiguous slice per device, sized in
    proportion to ``work_load_list`` (rounded; the last device takes any shortfall)."""
    total = sum(work_load_list)
    counts = [round(w * batch_size / total) for w in work_load_list]
    short = batch_size - sum(counts)
    if short > 0:
        counts[-1] += short
    slices = []
    end = 0
    for n in counts:
        begin = int(min(end, batch_size))
        end = int(min(begin + n, batch_size))
        if begin >= end:
            raise ValueError("Too many slices. Some splits are empty.")
        slices.append(slice(begin, end))
    return slices


def _copy_part(src, dst, sl, axis):
    """Copy the part ``sl`` of ``src`` along ``axis`` into ``dst`` (all of it when the
    slice covers the whole axis or there is no batch axis)."""
    if axis < 0 or (sl.start == 0 and src.shape[axis] == sl.stop):
        src.copyto(dst)
    elif axis == 0:
        src[sl.start:sl.stop].copyto(dst)
    else:
        nd.slice_axis(src, axis=axis, begin=sl.start, end=sl.stop).copyto(dst)


def _load_general(data, targets, major_axis):
    """Copy each source array into its per-device targets.

    A target is one NDArray (copied whole), a list of NDArrays matching a list of
    sources (pre-sliced batches), or a list of ``(slice, NDArray)`` to cut from one
    source.
    """
    for src, dsts, axis in zip(data, targets, major_axis):
        if isinstance(dsts, nd.NDArray):
            src.copyto(dsts)
        elif isinstance(src, (list, tuple)):
            for s, d in zip(src, dsts):
                s.copyto(d)
        else:
            for sl, d in dsts:
                _copy_part(src, d, sl, axis)


def _load_field(batch, targets, major_axis, field):
    if isinstance(batch, list):  # one pre-sliced batch per device
        sources = [[getattr(b, field)[i] for b in batch] for i in range(len(targets))]
        flat_targets = [[d for _, d in t] for t in targets]
        _load_general(sources, flat_targets, major_axis)
    else:
        _load_general(getattr(batch, field), targets, major_axis)


def _load_data(batch, targets, major_axis):
    _load_field(batch, targets, major_axis, "data")


def _load_label(batch, targets, major_axis):
    _load_field(batch, targets, major_axis, "label")


def _merge_multi_context(outputs, major_axis):
    """Concatenate each output's per-device parts along its batch axis (on the first
    device); outputs without a batch axis come from the first device."""
    merged = []
    for parts, axis in zip(outputs, major_axis):
        if axis >= 0 and len(parts) > 1:
            home = parts[0].context
            merged.append(nd.concat(*[p.as_in_context(home) for p in parts], dim=axis))
        else:
            merged.append(parts[0])
    return merged


def _prepare_group2ctxs(group2ctxs, ctx_len):
    """One ``{group: context}`` per device from the forms Module accepts."""
    if group2ctxs is None:
        return [None] * ctx_len
    if isinstance(group2ctxs, list):
        assert len(group2ctxs) == ctx_len, "length of group2ctxs should be %d" % ctx_len
        return group2ctxs
    if isinstance(group2ctxs, dict):
        per_device = [{} for _ in range(ctx_len)]
        for group, where in group2ctxs.items():
            if isinstance(where, ctx.Context):
                where = [where] * ctx_len
            elif len(where) == 1:
                where = list(where) * ctx_len
            else:
                assert len(where) == ctx_len, \
                    "length of group2ctxs[%s] should be %d or 1" % (group, ctx_len)
            for i in range(ctx_len):
                per_device[i][group] = where[i]
        return per_device
    raise AssertionError("group2ctxs should be list of dict of str to context, "
                         "or dict of str to context or list of context")


class DataParallelExecutorGroup:
    """Executors for one symbol on several devices, splitting each batch among them.

    Parameters
    ----------
    symbol : Symbol
    contexts : list of Context
    workload : list of numbers
        Relative share of the batch for each device.
    data_shapes, label_shapes : list of DataDesc or (name, shape)
    param_names : list of str
        The arguments that are parameters (everything but data, labels and states).
    for_training, inputs_need_grad : bool
    shared_group : DataParallelExecutorGroup, optional
        Share parameters and memory with this group (bucketing).
    fixed_param_names : list of str
        Parameters that get no gradient.
    grad_req : str, list or dict
    state_names : list of str
    group2ctxs : list or dict, optional
        Device placement of ``ctx_group`` attributes, per device.

    After binding, ``param_arrays`` / ``grad_arrays`` / ``aux_arrays`` hold one list per
    parameter with its array on each device; ``data_arrays`` / ``label_arrays`` hold
    ``(slice, array)`` per device.
    """

    def __init__(self, symbol, contexts, workload, data_shapes, label_shapes, param_names,
                 for_training, inputs_need_grad, shared_group=None, logger=logging,
                 fixed_param_names=None, grad_req="write", state_names=None, group2ctxs=None):
        self.param_names = param_names
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.symbol = symbol
        self.contexts = contexts
        self.workload = workload
        self.group2ctxs = _prepare_group2ctxs(group2ctxs, len(contexts))
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.logger = logger
        self._total_exec_bytes = 0
        self.fixed_param_names = list(fixed_param_names or [])
        self.state_names = list(state_names or [])

        if not for_training:
            grad_req = "null"
        data_shapes = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in data_shapes]
        if label_shapes is not None:
            label_shapes = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in label_shapes]
        self.grad_req = self._grad_req_dict(grad_req, [x.name for x in data_shapes])

        if shared_group is not None:
            self.shared_data_arrays = shared_group.shared_data_arrays
        else:
            self.shared_data_arrays = [{} for _ in contexts]

        self.batch_size = None
        self.slices = None
        self.execs = []
        self._default_execs = None
        self.data_arrays = None
        self.label_arrays = None
        self.param_arrays = None
        self.state_arrays = None
        self.grad_arrays = None
        self.aux_arrays = None
        self.input_grad_arrays = None
        self.data_shapes = None
        self.label_shapes = None
        self.data_names = None
        self.label_names = None
        self.data_layouts = None
        self.label_layouts = None
        self.output_names = self.symbol.list_outputs()
        self.num_outputs = len(self.output_names)
        self.output_layouts = [_batch_axis(self.symbol[i].attr("__layout__"))
                               for i in range(self.num_outputs)]
        self.bind_exec(data_shapes, label_shapes, shared_group)

    def _grad_req_dict(self, grad_req, data_names):
        """The request for every argument: parameters (unless fixed) get ``grad_req``,
        data inputs only with ``inputs_need_grad``, labels and states none."""
        def default(name, req):
            if name in self.param_names:
                return "null" if name in self.fixed_param_names else req
            if name in data_names:
                return req if self.inputs_need_grad else "null"
            return "null"

        if isinstance(grad_req, str):
            return {k: default(k, grad_req) for k in self.arg_names}
        if isinstance(grad_req, (list, tuple)):
            assert len(grad_req) == len(self.arg_names)
            return dict(zip(self.arg_names, grad_req))
        if isinstance(grad_req, dict):
            reqs = {k: default(k, "write") for k in self.arg_names}
            reqs.update(grad_req)
            return reqs
        raise ValueError("grad_req must be one of str, list, tuple, or dict.")

    # -- slicing --------------------------------------------------------------------------------
    def decide_slices(self, data_shapes):
        """Fix the batch size and the per-device slices; return each input's batch axis."""
        assert len(data_shapes) > 0
        major_axis = [_batch_axis(x.layout) for x in data_shapes]
        for (name, shape), axis in zip(data_shapes, major_axis):
            if axis == -1:
                continue
            batch_size = shape[axis]
            if self.batch_size is not None:
                assert batch_size == self.batch_size, (
                    "all data must have the same batch size: batch_size = %d, but %s has "
                    "shape %s" % (self.batch_size, name, shape))
            else:
                self.batch_size = batch_size
                self.slices = _split_input_slice(self.batch_size, self.workload)
        return major_axis

    def _sliced_shape(self, shapes, i, major_axis):
        """The DataDescs device ``i`` binds with (its slice of the batch axis)."""
        out = []
        for desc, axis in zip(shapes, major_axis):
            shape = list(desc.shape)
            if axis >= 0:
                shape[axis] = self.slices[i].stop - self.slices[i].start
            out.append(DataDesc(desc.name, tuple(shape), desc.dtype, desc.layout))
        return out

    def _collect_arrays(self):
        """Gather the executors' arrays into the per-name, per-device lists."""
        execs = self.execs
        if self.slices:
            self.data_arrays = [[(self.slices[i], e.arg_dict[name]) for i, e in enumerate(execs)]
                                for name, _ in self.data_shapes]
        else:
            self.data_arrays = [[(slice(i, i + 1), e.arg_dict[name])
                                 for i, e in enumerate(execs)]
                                for name, _ in self.data_shapes]
        self.state_arrays = [[e.arg_dict[name] for e in execs] for name in self.state_names]
        if self.label_shapes is not None:
            self.label_arrays = [[(self.slices[i], e.arg_dict[name])
                                  for i, e in enumerate(execs)]
                                 for name, _ in self.label_shapes]
        else:
            self.label_arrays = None
        param_idx = [i for i, name in enumerate(self.arg_names) if name in self.param_names]
        self.param_arrays = [[e.arg_arrays[i] for e in execs] for i in param_idx]
        if self.for_training:
            self.grad_arrays = [[e.grad_arrays[i] for e in execs] for i in param_idx]
        else:
            self.grad_arrays = None
        if self.inputs_need_grad:
            self.input_grad_arrays = [[e.grad_arrays[self.arg_names.index(name)] for e in execs]
                                      for name, _ in self.data_shapes if name in self.arg_names]
        else:
            self.input_grad_arrays = None
        self.aux_arrays = [[e.aux_arrays[i] for e in execs] for i in range(len(self.aux_names))]

    # -- binding ------------------------------------------------------------------------------------
    def bind_exec(self, data_shapes, label_shapes, shared_group=None, reshape=False):
        """Bind one executor per device (or, with ``reshape``, reshape the first-bound ones)."""
        assert reshape or not self.execs
        self.batch_size = None
        self.data_layouts = self.decide_slices(data_shapes)
        if label_shapes is not None:
            self.label_layouts = self.decide_slices(label_shapes)
        for i in range(len(self.contexts)):
            data_i = self._sliced_shape(data_shapes, i, self.data_layouts)
            label_i = ([] if label_shapes is None
                       else self._sliced_shape(label_shapes, i, self.label_layouts))
            if reshape:
                shapes = {d.name: tuple(d.shape) for d in data_i + label_i}
                self.execs[i] = self._default_execs[i].reshape(allow_up_sizing=True, **shapes)
            else:
                self.execs.append(self._bind_ith_exec(i, data_i, label_i, shared_group))
        self.data_shapes = data_shapes
        self.label_shapes = label_shapes
        self.data_names = [d.name for d in data_shapes]
        if label_shapes is not None:
            self.label_names = [d.name for d in label_shapes]
        self._collect_arrays()

    def reshape(self, data_shapes, label_shapes):
        """Rebind for new input shapes, sharing memory with the first binding."""
        if data_shapes == self.data_shapes and label_shapes == self.label_shapes:
            return
        if self._default_execs is None:
            self._default_execs = list(self.execs)
        self.bind_exec(data_shapes, label_shapes, reshape=True)

    def _bind_ith_exec(self, i, data_shapes, label_shapes, shared_group):
        """simple_bind the symbol on device ``i`` for its slice's shapes."""
        shared_exec = None if shared_group is None else shared_group.execs[i]
        input_shapes = {d.name: tuple(d.shape) for d in data_shapes}
        if label_shapes is not None:
            input_shapes.update({d.name: tuple(d.shape) for d in label_shapes})
        input_types = {d.name: d.dtype for d in data_shapes}
        attrs = self.symbol.attr_dict()
        for name in self.symbol.list_inputs():
            dt = attrs.get(name, {}).get("__dtype__")
            if name in input_types and dt is not None and dt != "-1":
                input_types[name] = CODE_TO_DTYPE[int(dt)]
        if label_shapes is not None:
            input_types.update({d.name: d.dtype for d in label_shapes})
        executor = self.symbol.simple_bind(
            ctx=self.contexts[i], grad_req=self.grad_req, type_dict=input_types,
            shared_arg_names=self.param_names, shared_exec=shared_exec,
            group2ctx=self.group2ctxs[i], shared_buffer=self.shared_data_arrays[i],
            **input_shapes)
        self._total_exec_bytes += int(getattr(executor, "allocated_bytes", 0) or 0)
        return executor

    # -- parameters -----------------------------------------------------------------------------------
    def set_params(self, arg_params, aux_params, allow_extra=False):
        """Copy the given parameters into every device's executor."""
        for exe in self.execs:
            exe.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra)

    def get_params(self, arg_params, aux_params):
        """Write the devices' average of each parameter into ``arg_params`` /
        ``aux_params`` (arrays that already exist, on the CPU)."""
        for names, blocks, dst in ((self.param_names, self.param_arrays, arg_params),
                                   (self.aux_names, self.aux_arrays, aux_params)):
            for name, block in zip(names, blocks):
                total = block[0].copyto(ctx.cpu())   # sparse parameters stay sparse
                for w in block[1:]:
                    total = total + w.copyto(ctx.cpu())
                mean = total / len(block)
                mean.astype(dst[name].dtype).copyto(dst[name])

    # -- running ---------------------------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        """Load ``data_batch`` (data, and labels when present) and run every executor."""
        _load_data(data_batch, self.data_arrays, self.data_layouts)
        if is_train is None:
            is_train = self.for_training
        if self.label_arrays is not None:
            first = data_batch[0] if isinstance(data_batch, list) else data_batch
            if first is not None and first.label:
                _load_label(data_batch, self.label_arrays, self.label_layouts)
        for exe in self.execs:
            exe.forward(is_train=is_train)

    def get_output_shapes(self):
        """``[(name, shape)]`` of the merged outputs."""
        shapes = []
        for name, out, axis in zip(self.output_names, self.execs[0].outputs,
                                   self.output_layouts):
            shape = list(out.shape)
            if axis >= 0:
                shape[axis] = self.batch_size
            shapes.append((name, tuple(shape)))
        return shapes

    def get_outputs(self, merge_multi_context=True, begin=0, end=None):
        """Outputs ``begin..end``: merged arrays, or per output a list over devices."""
        if end is None:
            end = self.num_outputs
        outputs = [[e.outputs[i] for e in self.execs] for i in range(begin, end)]
        if merge_multi_context:
            outputs = _merge_multi_context(outputs, self.output_layouts[begin:end])
        return outputs

    def get_states(self, merge_multi_context=True):
        """The state arrays, per state a list over devices."""
        assert not merge_multi_context, \
            "merge_multi_context=True is not supported for get_states yet."
        return self.state_arrays

    def set_states(self, states=None, value=None):
        """Set states from arrays (per state a list over devices) or to a scalar."""
        if states is not None:
            assert value is None, "Only one of states & value can be specified."
            _load_general(states, self.state_arrays, (0,) * len(states))
        else:
            assert value is not None, "At least one of states & value must be specified."
            for per_device in self.state_arrays:
                for dst in per_device:
                    dst[:] = value

    def get_input_grads(self, merge_multi_context=True):
        """Gradients of the data inputs (merged, or per input a list over devices)."""
        assert self.inputs_need_grad
        if merge_multi_context:
            return _merge_multi_context(self.input_grad_arrays, self.data_layouts)
        return self.input_grad_arrays

    def backward(self, out_grads=None):
        """Back-propagate on every device, each from its slice of ``out_grads``."""
        assert self.for_training, "re-bind with for_training=True to run backward"
        if out_grads is None:
            out_grads = []
        for i, (exe, sl) in enumerate(zip(self.execs, self.slices)):
            mine = []
            for grad, axis in zip(out_grads, self.output_layouts):
                if axis >= 0:
                    part = nd.slice_axis(grad, axis=axis, begin=sl.start, end=sl.stop)
                    mine.append(part.as_in_context(self.contexts[i]))
                else:
                    mine.append(grad.copyto(self.contexts[i]))
            exe.backward(out_grads=mine)

    def update_metric(self, eval_metric, labels, pre_sliced):
        """Accumulate ``eval_metric`` from each device's outputs and its labels."""
        for k, (exe, sl) in enumerate(zip(self.execs, self.slices)):
            if pre_sliced:
                mine = labels[k]
            else:
                mine = []
                for label, axis in zip(labels, self.label_layouts):
                    if axis == 0:
                        mine.append(label[sl])
                    elif axis > 0:
                        part = nd.slice_axis(label, axis=axis, begin=sl.start, end=sl.stop)
                        mine.append(part.as_in_context(label.context))
                    else:
                        mine.append(label)
            eval_metric.update_dict(OrderedDict(zip(self.label_names or [], mine)),
                                    OrderedDict(zip(self.output_names, exe.outputs)))

    def install_monitor(self, mon):
        """Attach ``mon`` to every executor."""
        for exe in self.execs:
            mon.install(exe)

