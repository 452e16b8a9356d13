"""The Executor: a Symbol bound to arrays, run forward and backward.

Forward walks the graph's topological order and runs each node's registered compute
through the NDArray layer. When gradients are wanted the walk is recorded on the
autograd tape, and backward runs the registry's gradient rules over it, writing into
the bound gradient arrays according to each argument's grad_req.
"""
from __future__ import annotations

import numpy as np

from .. import autograd
from ..base import MXNetError
from ..context import Context
from ..ndarray import NDArray, zeros
from ..ndarray import array as nd_array
from ..ndarray.ndarray import invoke
from ..symbol.graph import topo_order

__all__ = ["Executor", "simple_bind"]


def _as_list(name, values, names, allow_none=False):
    if values is None:
        return [None] * len(names)
    if isinstance(values, dict):
        unknown = set(values) - set(names)
        if unknown and name != "args_grad":
            raise MXNetError(f"bind: {name} has unknown names {sorted(unknown)}; expected {names}")
        out = [values.get(n) for n in names]
        if not allow_none:
            missing = [n for n, v in zip(names, out) if v is None]
            if missing:
                raise MXNetError(f"bind: {name} is missing arrays for {missing}")
        return out
    values = list(values)
    if len(values) != len(names):
        raise MXNetError(f"bind: {name} has {len(values)} arrays but the symbol needs "
                         f"{len(names)} ({names})")
    return values


class Executor:
    """Runs a bound Symbol. Use ``forward``/``backward``, read ``outputs`` and ``grad_dict``."""

    def __init__(self, sym, ctx, args, args_grad=None, grad_req="write", aux_states=None,
                 group2ctx=None, shared_exec=None):
        self._symbol = sym
        self._ctx = Context(ctx) if not isinstance(ctx, Context) else ctx
        self._arg_names = sym.list_arguments()
        self._aux_names = sym.list_auxiliary_states()
        self.arg_arrays = _as_list("args", args, self._arg_names)
        for n, a in zip(self._arg_names, self.arg_arrays):
            if not isinstance(a, NDArray):
                raise MXNetError(f"bind: argument {n!r} must be an NDArray, got {type(a).__name__}")
        self.grad_arrays = _as_list("args_grad", args_grad, self._arg_names, allow_none=True)
        self.aux_arrays = _as_list("aux_states", aux_states, self._aux_names) if self._aux_names \
            else []
        if isinstance(grad_req, str):
            reqs = [grad_req] * len(self._arg_names)
        elif isinstance(grad_req, dict):
            reqs = [grad_req.get(n, "null") for n in self._arg_names]
        else:
            reqs = list(grad_req)
        for r in reqs:
            if r not in ("write", "add", "null", "inplace"):
                raise MXNetError(f"bind: grad_req must be write, add or null; got {r!r}")
        self._grad_req = ["write" if r == "inplace" else r for r in reqs]
        for i, g in enumerate(self.grad_arrays):
            if g is None:
                self._grad_req[i] = "null"
        self._order = topo_order(sym._outputs)
        self.outputs: list = []
        self._monitor = None
        self._recorded = False

    # -- dictionaries -----------------------------------------------------------------------------
    @property
    def arg_dict(self):
        return dict(zip(self._arg_names, self.arg_arrays))

    @property
    def grad_dict(self):
        return {n: g for n, g in zip(self._arg_names, self.grad_arrays) if g is not None}

    @property
    def aux_dict(self):
        return dict(zip(self._aux_names, self.aux_arrays))

    @property
    def output_dict(self):
        return dict(zip(self._symbol.list_outputs(), self.outputs))

    # -- running ------------------------------------------------------------------------------------
    def forward(self, is_train=False, **kwargs):
        """Run the graph; keyword arrays are first copied into the bound arguments."""
        arg_dict = self.arg_dict
        for k, v in kwargs.items():
            if k not in arg_dict:
                raise MXNetError(f"forward: unknown argument {k!r}; arguments are {self._arg_names}")
            if isinstance(v, NDArray):
                v.copyto(arg_dict[k])
            else:
                arg_dict[k][:] = np.asarray(v)
        need_grad = is_train and any(r != "null" for r in self._grad_req)
        values = {}
        names = dict(zip(self._arg_names, self.arg_arrays))
        names.update(zip(self._aux_names, self.aux_arrays))
        scope = autograd.record(train_mode=True) if need_grad else autograd.pause(train_mode=is_train)
        with scope:
            if need_grad:
                for a, g, r in zip(self.arg_arrays, self.grad_arrays, self._grad_req):
                    if r != "null":
                        autograd.mark_variables([a], [g], r)
                    else:
                        a._node = None
            for node in self._order:
                if node.op is None:
                    values[(id(node), 0)] = names[node.name]
                    continue
                ins = [values[(id(s), i)] for s, i in node.inputs]
                res = invoke(node.op, ins, node.parsed)
                res = res if isinstance(res, list) else [res]
                for i, r in enumerate(res):
                    values[(id(node), i)] = r
                if self._monitor is not None:
                    for i, r in enumerate(res):
                        self._monitor(node.output_names()[i], r)
        self.outputs = [values[(id(n), i)] for n, i in self._symbol._outputs]
        self._recorded = need_grad
        return self.outputs

    def backward(self, out_grads=None, is_train=True):
        """Back-propagate from the outputs into the bound gradient arrays."""
        if not self._recorded:
            raise MXNetError("backward: call forward(is_train=True) first (with a grad_req other "
                             "than 'null')")
        if out_grads is not None and isinstance(out_grads, NDArray):
            out_grads = [out_grads]
        autograd.backward(self.outputs, out_grads, train_mode=is_train)
        self._recorded = False

    def set_monitor_callback(self, callback, monitor_all=False):
        """Call ``callback(name, array)`` on every node output during forward."""
        self._monitor = callback

    def copy_params_from(self, arg_params, aux_params=None, allow_extra_params=False):
        """Copy parameter arrays (by name) into the bound arguments and auxiliary states."""
        for name, arr in (arg_params or {}).items():
            if name in self.arg_dict:
                arr.copyto(self.arg_dict[name])
            elif not allow_extra_params:
                raise MXNetError(f"copy_params_from: {name!r} is not an argument of the symbol")
        for name, arr in (aux_params or {}).items():
            if name in self.aux_dict:
                arr.copyto(self.aux_dict[name])
            elif not allow_extra_params:
                raise MXNetError(f"copy_params_from: {name!r} is not an auxiliary state")

    def reshape(self, partial_shaping=False, allow_up_sizing=False, **kwargs):
        """A new executor for new input shapes, sharing parameter arrays of unchanged shape."""
        arg_shapes, _, aux_shapes = self._symbol.infer_shape(**kwargs)
        if arg_shapes is None:
            raise MXNetError(f"reshape: cannot infer shapes from {kwargs}")
        args = []
        grads = []
        for a, g, s in zip(self.arg_arrays, self.grad_arrays, arg_shapes):
            if a.shape == tuple(s):
                args.append(a)
                grads.append(g)
            else:
                args.append(zeros(s, ctx=self._ctx, dtype=a.dtype))
                grads.append(None if g is None else zeros(s, ctx=self._ctx, dtype=a.dtype))
        return Executor(self._symbol, self._ctx, args, grads, self._grad_req, self.aux_arrays)

    @property
    def symbol(self):
        return self._symbol


def simple_bind(sym, ctx, grad_req="write", type_dict=None, group2ctx=None, shared_exec=None,
                shapes=None):
    """Infer every shape/dtype from the given input shapes, allocate arrays and bind."""
    shapes = shapes or {}
    arg_shapes, _, aux_shapes = sym.infer_shape(**shapes)
    if arg_shapes is None:
        a, _, _ = sym.infer_shape_partial(**shapes)
        unknown = [n for n, s in zip(sym.list_arguments(), a) if not s or 0 in s]
        raise MXNetError(f"simple_bind: cannot infer the shapes of {unknown} from {shapes}")
    types = dict(type_dict or {})
    arg_types, _, aux_types = sym.infer_type(**types) if types else (None, None, None)
    if arg_types is None:
        arg_types = [np.float32] * len(arg_shapes)
        aux_types = [np.float32] * len(aux_shapes)
    names = sym.list_arguments()
    if isinstance(grad_req, str):
        reqs = {n: grad_req for n in names}
    elif isinstance(grad_req, dict):
        reqs = {n: grad_req.get(n, "null") for n in names}
    else:
        reqs = dict(zip(names, grad_req))
    args = [zeros(s, ctx=ctx, dtype=t) for s, t in zip(arg_shapes, arg_types)]
    grads = [None if reqs[n] == "null" else zeros(s, ctx=ctx, dtype=t)
             for n, s, t in zip(names, arg_shapes, arg_types)]
    aux = [zeros(s, ctx=ctx, dtype=t) for s, t in zip(aux_shapes, aux_types)]
    return Executor(sym, ctx, args, grads, [reqs[n] for n in names], aux)


_ = nd_array
