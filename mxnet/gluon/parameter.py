"""Gluon parameters: arrays on one or more devices, with gradients and deferred init."""
from __future__ import annotations

import re
from collections import OrderedDict

import numpy as np

from .. import util as _util
from ..base import MXNetAssertionError, MXNetError, MXNetKeyError, MXNetValueError, dtype_np
from ..context import Context, cpu, current_context

__all__ = ["Parameter", "ParameterDict", "Constant", "DeferredInitializationError"]


class DeferredInitializationError(MXNetError):
    """A parameter's shape is still unknown, so its data cannot be used yet."""


def _ctx_list(ctx):
    if ctx is None:
        return [current_context()]
    if isinstance(ctx, Context):
        return [ctx]
    return list(ctx)


def _shape_known(shape):
    return shape is not None and all(d is not None and d > 0 for d in shape)


def _unique_rows(row_id):
    """The row ids sorted and without repeats, as 1.9.1's row_sparse pull stores them."""
    from ..ndarray import array
    return array(np.unique(row_id.asnumpy().astype(np.int64).reshape(-1)), ctx=row_id.context,
                 dtype="int64")


class Parameter:
    """A trainable array (with per-device copies) and its gradient buffers.

    Shapes may contain 0 for dimensions that are inferred at the first forward pass
    (deferred initialisation).
    """

    def __init__(self, name, grad_req="write", shape=None, dtype=np.float32, lr_mult=1.0,
                 wd_mult=1.0, init=None, allow_deferred_init=False, differentiable=True,
                 stype="default", grad_stype="default"):
        self.name = name
        for kind, value in (("stype", stype), ("grad_stype", grad_stype)):
            if value not in ("default", "row_sparse", "csr"):   # as 1.9.1's assertion
                raise MXNetAssertionError(
                    f"{kind} for Parameter '{name}' must be one of 'default', 'row_sparse', or "
                    f"'csr', but got '{value}'")
        self._shape = None if shape is None else ((shape,) if isinstance(shape, int) else tuple(shape))
        # 1.9.1 keeps the shape object it was given: a list reads back (and exports) as a list
        self._shape_list = isinstance(shape, list)
        self.dtype = dtype   # sets _dtype (the NumPy type, used inside) and the form shown
        self.lr_mult = lr_mult
        self.wd_mult = wd_mult
        self.init = init
        self.allow_deferred_init = allow_deferred_init
        self._var_shape = None
        self._differentiable = differentiable
        self._grad_req = grad_req if differentiable else "null"
        if self._grad_req not in ("write", "add", "null"):
            raise MXNetAssertionError(f"Parameter {name}: grad_req must be write, add or null; "
                                       f"got {grad_req!r}")
        self._data = None          # list of NDArray, one per context
        self._ctx_list = None
        self._deferred_init = ()   # (init, ctx_list, default_init) while the shape is unknown
        self._trainer = None
        self.stype = stype
        self.grad_stype = grad_stype

    def __getstate__(self):
        # arrays pickle without their gradient buffers; carry them so that copies keep them
        state = dict(self.__dict__)
        if self._data is not None and self._grad_req != "null":
            state["_copied_grads"] = [d._grad for d in self._data]
        return state

    def __setstate__(self, state):
        state = dict(state)
        grads = state.pop("_copied_grads", None)
        self.__dict__.update(state)
        if grads is None or self._data is None:
            return
        for arr, g in zip(self._data, grads):
            if arr._grad is not None:   # a shallow copy shares the original's arrays
                continue
            self._attach(arr, self._grad_req)
            if g is not None and g.stype == "default" and arr._grad.stype == "default":
                arr._grad[:] = g

    def __repr__(self):
        return f"Parameter {self.name} (shape={self.shape}, dtype={self.dtype})"

    @property
    def dtype(self):
        """The dtype as it was given: 1.9.1 keeps the value passed to the constructor or to
        cast() (``'float32'`` for a Dense weight, ``np.float32`` by default)."""
        return self._dtype_shown

    @dtype.setter
    def dtype(self, value):
        self._dtype = dtype_np(value).type
        self._dtype_shown = value

    # -- attributes ------------------------------------------------------------------------------
    # 1.9.1 keeps the storage types as _stype/_grad_stype, which user code and libraries read
    @property
    def _stype(self):
        return self.stype

    @_stype.setter
    def _stype(self, value):
        self.stype = value

    @property
    def _grad_stype(self):
        return self.grad_stype

    @_grad_stype.setter
    def _grad_stype(self, value):
        self.grad_stype = value

    @property
    def shape(self):
        if self._shape is not None and _util.is_np_shape():
            # as 1.9.1: under NumPy shape semantics an unknown dimension reads as -1
            return tuple(-1 if d == 0 else d for d in self._shape)
        if self._shape is not None and getattr(self, "_shape_list", False):
            return list(self._shape)
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        is_list = isinstance(new_shape, list)
        new_shape = tuple(new_shape)
        if self._shape is None:
            self._shape, self._shape_list = new_shape, is_list
            return
        if len(self._shape) != len(new_shape) or any(
                a not in (0, None) and a != b for a, b in zip(self._shape, new_shape)):
            raise MXNetAssertionError(f"Parameter {self.name}: expected shape {self._shape} is incompatible "
                             f"with given shape {new_shape}")
        self._shape = tuple(b if a in (0, None) else a for a, b in zip(self._shape, new_shape))
        self._shape_list = is_list

    @property
    def grad_req(self):
        return self._grad_req

    @grad_req.setter
    def grad_req(self, req):
        if req not in ("write", "add", "null"):
            raise MXNetAssertionError(f"Parameter {self.name}: grad_req must be write, add or "
                                       f"null; got {req!r}")
        if not self._differentiable:
            req = "null"
        self._grad_req = req
        if self._data is not None:
            for arr in self._data:
                if req == "null":
                    arr._grad, arr._node, arr._grad_req = None, None, "null"
                else:
                    self._attach(arr, req)

    # -- initialisation ------------------------------------------------------------------------
    def initialize(self, init=None, ctx=None, default_init=None, force_reinit=False):
        """Create the data on ``ctx`` (a context or list), now or at the first forward pass."""
        from .. import initializer as _init
        if default_init is None:
            default_init = _init.Uniform()
        if self._data is not None and not force_reinit:
            import warnings
            warnings.warn(f"Parameter '{self.name}' is already initialized, ignoring. Set "
                          "force_reinit=True to re-initialize.", stacklevel=2)
            return
        self._data = None
        ctxs = _ctx_list(ctx)
        init = init if init is not None else self.init
        # as 1.9.1: without NumPy shape semantics, () is an unknown shape, not a scalar
        scalar = self._shape == () and not _util.is_np_shape()
        unknown = -1 if _util.is_np_shape() else 0
        for d in self._shape or ():
            if d is not None and d < unknown:   # an assertion in 1.9.1
                raise MXNetAssertionError(
                    f"shape dimension size cannot be less than {unknown}, while received {d} "
                    f"(Parameter '{self.name}' of shape {self._shape})")
        if not _shape_known(self._shape) or scalar:
            if self.allow_deferred_init:
                self._deferred_init = (init, ctxs, default_init)
                return
            raise MXNetValueError(f"Cannot initialize Parameter '{self.name}' because it has "
                                   f"invalid shape: {self._shape}.")
        self._deferred_init = (init, ctxs, default_init)
        self._finish_deferred_init()

    def _finish_deferred_init(self):
        if not self._deferred_init:
            return
        init, ctxs, default_init = self._deferred_init
        if not _shape_known(self._shape):
            raise DeferredInitializationError(
                f"Parameter '{self.name}' has unknown shape {self._shape}; run a forward pass (or "
                "infer_shape) before using its data")
        from .. import initializer as _init
        from ..ndarray import zeros
        self._deferred_init = ()
        if isinstance(default_init, (str, type)) or not callable(default_init):
            # as 1.9.1: net.initialize('xavier') names one; create() rejects a non-initializer
            # (such as the class mx.init.Xavier where an instance was meant)
            default_init = _init.create(default_init)
        host = zeros(self._shape, ctx=cpu(), dtype=self._dtype)
        if _util.is_np_array():  # as 1.9.1: a custom Initializer sees an mx.np array
            host = host.as_np_ndarray()
        if init is None and type(default_init).__call__ is _init.Initializer.__call__:
            # as 1.9.1: a parameter without its own init takes the default initializer's
            # weight rule whatever its name (no bias/gamma/beta name patterns)
            init = default_init
        # as 1.9.1, the initializer object itself rides in the descriptor (not its dumps()),
        # so that an unregistered Initializer subclass works
        desc = _init.InitDesc(self.name, {"__init__": init if init is not None else ""})
        chosen = init if init is not None and not isinstance(init, str) else default_init
        if isinstance(init, (str, type)) or (init is not None and not callable(init)):
            chosen = _init.create(init)   # (as 1.9.1, create() rejects a non-initializer)
        if (init is not None and type(default_init).__call__ is _init.Initializer.__call__
                and type(chosen).__call__ is _init.Initializer.__call__):
            # as 1.9.1, the default initializer applies the descriptor's own init, so that its
            # verbosity (initialize(verbose=True)) logs these parameters too
            chosen = default_init
        chosen(desc, host)
        self._init_impl(host, ctxs)

    def _init_impl(self, data, ctxs):
        self._ctx_list = list(ctxs)
        if _util.is_np_array():  # under npx.set_np() parameters are mx.np arrays
            data = data.as_np_ndarray()
        self._data = [data.copyto(c) if c != data.context else data.copy() for c in ctxs]
        if self._grad_req != "null":
            for arr in self._data:
                self._attach(arr, self._grad_req)

    def _attach(self, arr, req):
        """Give ``arr`` a gradient buffer of this parameter's ``grad_stype``."""
        if self.grad_stype not in ("default", "row_sparse", "csr"):
            raise MXNetError(f"Parameter '{self.name}': grad_stype must be 'default', "
                             f"'row_sparse' or 'csr'; got {self.grad_stype!r}")
        arr.attach_grad(req, stype=None if self.grad_stype == "default" else self.grad_stype)

    def _check_initialized(self, ctx=None):
        if self._data is not None:
            return
        if self._deferred_init:
            raise DeferredInitializationError(
                f"Parameter '{self.name}' has not been initialized yet because initialization was "
                "deferred. Actual initialization happens during the first forward pass. Please pass "
                "one batch of data through the network before accessing Parameters. You can "
                "also avoid deferred initialization by specifying in_units, num_features, etc., "
                "for network layers.")
        raise MXNetError(f"Parameter '{self.name}' has not been initialized. Note that you should "
                         "initialize parameters and create Trainer with Block.collect_params() "
                         "instead of Block.params because the later does not include Parameters of "
                         "nested child Blocks")

    # -- access ----------------------------------------------------------------------------------
    def _index(self, ctx):
        if ctx is None:   # as 1.9.1: the only context, else the current one (which must hold it)
            ctx = self._ctx_list[0] if len(self._ctx_list) == 1 else current_context()
        try:
            if getattr(ctx, "device_typeid", 1) in (3, 5):  # pinned/shared: the cpu(id) copy
                return self._ctx_list.index(Context(1, ctx.device_id))
            return self._ctx_list.index(ctx)
        except ValueError:
            raise MXNetError(f"Parameter '{self.name}' was not initialized on context {ctx}. It was "
                             f"only initialized on {self._ctx_list}.") from None

    def data(self, ctx=None):
        """The data on ``ctx`` (the current context, or the only one)."""
        if self.stype != "default":   # a RuntimeError in 1.9.1
            raise RuntimeError(f"Cannot return a copy of Parameter '{self.name}' on ctx {ctx} "
                               f"via data() because its storage type is {self.stype}. Please "
                               "use row_sparse_data() instead.")
        self._check_initialized()
        return self._data[self._index(ctx)]

    def list_data(self):
        if self.stype != "default":   # a RuntimeError in 1.9.1
            raise RuntimeError(f"Cannot return copies of Parameter '{self.name}' on all "
                               "contexts via list_data() because its storage type is "
                               f"{self.stype}. Please use row_sparse_data() instead.")
        self._check_initialized()
        return list(self._data)

    def _averaged(self):
        """The data on the CPU; as in 1.9.1, copies kept on several contexts are averaged
        (``add_n`` then a division, so integer parameters truncate)."""
        copies = [d.copyto(cpu()) for d in self.list_data()]
        if len(copies) == 1:
            return copies[0]
        from ..ndarray import add_n
        return add_n(*copies) / len(copies)

    def _reduce(self):
        """1.9.1's name for the data averaged over its contexts, on the CPU (user code calls
        it); a row_sparse parameter gives its full rows, as ``save`` writes them."""
        return self._saved_data()

    @property
    def _grad(self):
        """The gradient buffers, one per context (None without gradients), as 1.9.1 keeps
        them; user code reads this attribute."""
        if self._data is None or self._grad_req == "null":
            return None
        return [d._grad for d in self._data]

    @_grad.setter
    def _grad(self, grads):
        # libraries that wrap a parameter (GluonNLP's WeightDropParameter) copy 1.9.1's private
        # fields across; here the gradient buffers ride on the data arrays themselves
        if grads is None or self._data is None:
            return
        for arr, g in zip(self._data, grads):
            if g is not None:
                arr._grad = g

    # 1.9.1's private names that such wrappers read and copy
    @property
    def _allow_deferred_init(self):
        return self.allow_deferred_init

    @_allow_deferred_init.setter
    def _allow_deferred_init(self, value):
        self.allow_deferred_init = value

    @property
    def _var(self):
        return self.__dict__.get("_kept_var")

    @_var.setter
    def _var(self, value):
        self.__dict__["_kept_var"] = value

    @property
    def _ctx_map(self):
        """1.9.1's lookup table: per device type, the index of each device id's copy."""
        if self._ctx_list is None:
            return None
        table = [[], []]   # row 0: GPUs, row 1: CPUs (device_typeid & 1)
        for i, ctx in enumerate(self._ctx_list):
            row = table[ctx.device_typeid & 1]
            while len(row) <= ctx.device_id:
                row.append(None)
            row[ctx.device_id] = i
        return table

    @_ctx_map.setter
    def _ctx_map(self, value):
        pass   # derived from _ctx_list here

    def _check_and_get(self, arr_list, ctx):
        """1.9.1's accessor: ``arr_list``'s entry for ``ctx`` (all of it for ``ctx=list``)."""
        self._check_initialized()
        if arr_list is None:   # e.g. the gradients of a grad_req='null' parameter
            raise RuntimeError(f"Cannot get gradient array for Parameter '{self.name}' because "
                               "grad_req='null'")
        if ctx is list:
            return list(arr_list)
        return arr_list[self._index(ctx)]

    def _saved_data(self):
        """The array ``save`` writes: the data averaged over its contexts, on the CPU; a
        row_sparse parameter is written row_sparse and, as in 1.9.1, needs a Trainer."""
        if self.stype == "default":
            return self._averaged()
        if self._trainer is None:
            raise RuntimeError(f"Cannot reduce row_sparse data for Parameter '{self.name}' "
                               "when no Trainer is created with it.")
        self._rsp_source(None)
        return self._data[0].copyto(cpu()).tostype(self.stype)

    def grad(self, ctx=None):
        """The gradient buffer on ``ctx``."""
        self._check_initialized()
        if self._grad_req == "null":
            raise RuntimeError(f"Cannot get gradient array for Parameter '{self.name}' because "
                               "grad_req='null'")
        return self._data[self._index(ctx)]._grad

    def list_grad(self):
        self._check_initialized()
        if self._grad_req == "null":
            raise RuntimeError(f"Cannot get gradient array for Parameter '{self.name}' because "
                               "grad_req='null'")
        return [d._grad for d in self._data]

    def list_ctx(self):
        if self._data is None:
            if self._deferred_init:
                return list(self._deferred_init[1])
            raise MXNetError(f"Parameter '{self.name}' has not been initialized")
        return list(self._ctx_list)

    def zero_grad(self):
        """Set every gradient buffer to 0 (a sparse buffer then stores no rows)."""
        if self._data is None:
            return
        for d in self._data:
            g = d._grad
            if g is None:
                continue
            if g.stype == "default":
                g[:] = 0
            else:  # a sparse buffer keeps its stype and stores no rows, as in 1.9.1
                from ..ndarray.sparse import zeros as sparse_zeros
                sparse_zeros(g.stype, g.shape, ctx=g.context, dtype=g.dtype).copyto(g)

    def set_data(self, data):
        """Copy ``data`` into every device's copy (a deferred parameter is initialized with
        it, on the contexts it was given)."""
        self.shape = data.shape
        if self._data is None:
            if not self._deferred_init:   # as 1.9.1 (an AssertionError there)
                raise MXNetAssertionError(f"Parameter '{self.name}' has not been initialized: "
                                          "call initialize() before set_data()")
            # a deferred parameter keeps the contexts it was initialised for
            ctxs = self._deferred_init[1]
            self._deferred_init = ()
            from ..ndarray import array
            self._init_impl(array(data, dtype=self._dtype) if not hasattr(data, "asnumpy")
                            else data.astype(self._dtype), ctxs)
            return
        if self.stype != "default" and getattr(data, "stype", None) == "default":
            # 1.9.1 copies dense data into its row_sparse arrays (and says so)
            from types import SimpleNamespace

            from ..ndarray._fallback_log import log_copy
            log_copy(data, SimpleNamespace(stype=self.stype, context=data.context))
        for arr in self._data:
            arr[:] = data
        tr = self._trainer
        if tr is not None and tr._kv_initialized and tr._update_on_kvstore:
            tr._reset_kvstore()   # as 1.9.1: the store's copy is stale now

    def _load_init(self, data, ctx, cast_dtype=False, dtype_source="current"):
        """Take an array read from a .params file: the known dims and the dtype must agree with
        this parameter's (or, with ``cast_dtype``, the dtype named by ``dtype_source`` wins)."""
        if cast_dtype and dtype_source not in ("current", "saved"):
            raise MXNetAssertionError(f"load_parameters: dtype_source must be 'current' or "
                                      f"'saved', got {dtype_source!r}")
        if self._shape:
            if any(mine not in (0, -1, None, saved) for mine, saved in zip(self._shape, data.shape)):
                raise MXNetAssertionError(
                    f"Failed loading Parameter '{self.name}' from saved params: shape "
                    f"incompatible expected {self.shape} vs saved {data.shape}")
        if np.dtype(self._dtype) != np.dtype(data.dtype):
            if not cast_dtype:
                raise MXNetAssertionError(
                    f"Failed loading Parameter '{self.name}' from saved params: dtype "
                    f"incompatible expected {self.dtype} vs saved {data.dtype}. "
                    "Set cast_dtype=True to cast the dtype of saved params.")
            if dtype_source == "saved":
                self.cast(data.dtype)
            data = data.astype(self._dtype)
        if self._data is None:
            if ctx is None:  # a deferred parameter keeps the contexts it was initialised for
                ctx = self._deferred_init[1] if self._deferred_init else None
            self.shape = data.shape
            self._deferred_init = ()
            self._init_impl(data.astype(self._dtype, copy=False), _ctx_list(ctx))
        else:
            if ctx is not None and set(_ctx_list(ctx)) != set(self._ctx_list):
                raise MXNetAssertionError(   # as 1.9.1, which does not move the data
                    f"Failed to load Parameter '{self.name}' on {_ctx_list(ctx)}: it is "
                    f"already initialized on {self._ctx_list} (load without ctx, or call "
                    "reset_ctx first)")
            self.set_data(data)

    def reset_ctx(self, ctx):
        """Move the data to other contexts."""
        ctxs = _ctx_list(ctx)
        if self._data is not None:
            host = self._averaged() if self.stype == "default" else self._data[0].copyto(cpu())
            self._init_impl(host, ctxs)
        elif self._deferred_init:
            init, _, default = self._deferred_init
            self._deferred_init = (init, ctxs, default)
        else:
            raise MXNetValueError(f"Cannot reset context for Parameter '{self.name}' because it "
                                  "has not been initialized.")  # a ValueError in 1.9.1

    def row_sparse_data(self, row_id):
        """A RowSparseNDArray copy of the data on ``row_id``'s context holding only the rows
        in ``row_id`` (the others read as zeros), for parameters declared row_sparse."""
        if self.stype != "row_sparse":   # a RuntimeError in 1.9.1
            raise RuntimeError(f"Cannot return a copy of Parameter {self.name} via "
                               f"row_sparse_data() because its storage type is {self.stype}. "
                               "Please use data() instead.")
        from ..ndarray import sparse as _sp
        data = self._rsp_source(row_id.context)
        res = _sp.retain(data.tostype("row_sparse"), _unique_rows(row_id))
        # as in 1.9.1 (where it is the parameter's own array), operators recorded on the
        # result send their gradient to the parameter
        res._node, res._grad, res._grad_req = data._node, data._grad, data._grad_req
        return res

    def list_row_sparse_data(self, row_id):
        """``row_sparse_data`` on every context the parameter lives on."""
        if self.stype != "row_sparse":   # a RuntimeError in 1.9.1
            raise RuntimeError(f"Cannot return copies of Parameter '{self.name}' on all "
                               "contexts via list_row_sparse_data() because its storage type "
                               f"is {self.stype}. Please use data() instead.")
        from ..ndarray import sparse as _sp
        self._rsp_source(None)
        return [_sp.retain(d.tostype("row_sparse"),
                           _unique_rows(row_id).as_in_context(d.context)) for d in self._data]

    def _rsp_source(self, ctx):
        """The data row_sparse_data reads: as in 1.9.1 it needs a Trainer, whose store is set
        up first (so a Trainer that cannot hold the parameter raises here)."""
        if self._trainer is None:
            raise RuntimeError(f"Cannot get row_sparse data for Parameter '{self.name}' when "
                               "no Trainer is created with it.")
        self._check_initialized()
        if not self._trainer._kv_initialized:
            self._trainer._init_kvstore()
        return self._data[self._index(ctx)] if ctx is not None else None

    def cast(self, dtype):
        """Change the dtype of the data and gradients."""
        self.dtype = dtype
        if self._data is None:
            return
        grads = [d._grad for d in self._data]
        self._data = [d.astype(dtype) for d in self._data]
        if self._grad_req != "null":
            for d, g in zip(self._data, grads):
                self._attach(d, self._grad_req)
                if g is not None and g.stype == "default" and d._grad.stype == "default":
                    d._grad[:] = g.astype(dtype)   # as 1.9.1: the gradients are cast, not reset

    def var(self):
        """The Symbol variable of this parameter. As in 1.9.1 it is made once and kept: every
        call (and every call of a block on Symbols) gives the same node, so a graph that uses
        it next to a block's output has one argument of this name."""
        v = self.__dict__.get("_kept_var")
        if v is None:
            v = self._new_var()
            v._outputs[0][0].version = getattr(self, "_var_version", 0)
            self._kept_var = v
        from ..util import is_np_array
        if is_np_array():   # 1.9.1 hands out a NumPy-mode symbol under np semantics
            return v.as_np_ndarray()
        return v

    def _new_var(self):
        """A new Symbol variable for this parameter, with its dtype and multipliers and the
        shape it had at the first call: 1.9.1 makes the variable once and keeps it, so a block
        traced before its shapes were inferred exports them as unknown, ``(5, 0)``. (A
        hybridize trace takes a fresh node, so tracing twice counts mutations once per
        graph.)"""
        from ..symbol import var
        from ..util import is_np_shape
        if self._var_shape is None:
            self._var_shape = self._shape
            if self._var_shape is not None and getattr(self, "_shape_list", False):
                self._var_shape = list(self._var_shape)
        shape = self._var_shape
        if shape is not None and is_np_shape():  # unknown dims read -1 there, as 1.9.1 writes
            shape = type(shape)(-1 if d == 0 else d for d in shape)
        return var(self.name, shape=shape, dtype=self._dtype, lr_mult=self.lr_mult,
                   wd_mult=self.wd_mult, init=self.init, stype=self.stype)


class Constant(Parameter):
    """A parameter that never changes (grad_req='null') with a fixed value."""

    def __init__(self, name, value):
        from ..ndarray import NDArray, array
        if not isinstance(value, NDArray):
            value = array(value)
        self.value = value
        from .. import initializer as _init

        class Init(_init.Initializer):
            # as 1.9.1: the value is served by an initializer registered under a name unique
            # to this Constant, which is what -symbol.json's __init__ attribute records
            def _init_weight(self, _, arr):
                value.copyto(arr)
        init_name = f"Constant_{name}_{id(self)}"
        _init.alias(init_name)(Init)
        super().__init__(name, grad_req="null", shape=value.shape, dtype=value.dtype,
                         init=init_name)

    def __repr__(self):
        return f"Constant {self.name} (shape={self.shape}, dtype={self.dtype})"

    @property
    def grad_req(self):
        return "null"

    @grad_req.setter
    def grad_req(self, req):
        if req != "null":   # as 1.9.1: a warning, and the request is ignored
            import warnings
            warnings.warn(f'Constant parameter "{self.name}" does not support grad_req other '
                          f'than "null", and new value "{req}" is ignored.', stacklevel=2)

    def _finish_deferred_init(self):
        if not self._deferred_init:
            return
        init, ctxs, _ = self._deferred_init
        if init is not None and init is not self.init:
            # as 1.9.1: an init passed to initialize() explicitly overrides the value
            Parameter._finish_deferred_init(self)
            return
        self._deferred_init = ()
        self._init_impl(self.value.copyto(cpu()), ctxs)


class ParameterDict:
    """An ordered name -> Parameter mapping with a prefix, shared between blocks."""

    def __init__(self, prefix="", shared=None):
        self._prefix = prefix
        self._params: OrderedDict = OrderedDict()
        self._shared = shared

    def __repr__(self):
        body = "\n".join(f"  {v}" for v in self._params.values())
        return f"{self._prefix} (\n{body}\n)" if self._prefix else f"(\n{body}\n)"

    def __getitem__(self, key):
        return self._params[key]

    def __iter__(self):
        return iter(self._params)

    def __len__(self):
        return len(self._params)

    def __contains__(self, key):
        return key in self._params

    def items(self):
        return self._params.items()

    def keys(self):
        return self._params.keys()

    def values(self):
        return self._params.values()

    @property
    def prefix(self):
        return self._prefix

    def _get_impl(self, name):
        if name in self._params:
            return self._params[name]
        if self._shared is not None and name in self._shared._params:
            self._params[name] = self._shared._params[name]
            return self._params[name]
        return None

    def get(self, name, **kwargs):
        """The parameter ``prefix + name``, created with ``kwargs`` if it does not exist."""
        name = self._prefix + name
        param = self._get_impl(name)
        if param is None:
            param = Parameter(name, **kwargs)
            self._params[name] = param
        else:
            def mismatch(k, v, existing):
                # 1.9.1's wording for an existing parameter that does not fit the request
                return MXNetAssertionError(
                    f"Cannot retrieve Parameter '{name}' because desired attribute does not "
                    f"match with stored for attribute '{k}': desired '{v}' vs stored "
                    f"'{existing}'.")
            for k, v in kwargs.items():
                if k == "shape" and v is not None:
                    old = param._shape
                    if old is not None and len(old) == len(v):
                        # as 1.9.1: a request with unknown (0) dims for a known dim is a
                        # match (weight tying: Dense(params=embedding.params) asks (V, 0))
                        v = tuple(b if a in (0, None, -1) else a for a, b in zip(v, old))
                    if old is not None and (len(old) != len(v) or any(
                            a not in (0, None, -1) and a != b for a, b in zip(old, v))):
                        raise mismatch(k, kwargs[k], param.shape)
                    param.shape = v
                elif k == "init" and v is not None and param.init is None:
                    param.init = v   # as 1.9.1: an init asked for later fills an unset one
                elif hasattr(param, k) and v is not None and k not in ("init",):
                    existing = getattr(param, k)
                    if k == "dtype":
                        if np.dtype(existing) != np.dtype(v):
                            raise mismatch(k, v, existing)
                    elif (existing is not None and existing != v
                          and k in ("lr_mult", "wd_mult", "grad_req")):
                        # as 1.9.1: an existing parameter is not silently changed
                        raise mismatch(k, v, existing)
                    elif existing != v and k not in ("allow_deferred_init",):
                        setattr(param, k, v)
        return param

    def get_constant(self, name, value=None):
        name = self._prefix + name
        param = self._get_impl(name)
        if param is None:
            if value is None:
                raise MXNetKeyError(f"ParameterDict.get_constant: no constant named '{name}'; "
                                    "pass value to create one")   # a KeyError in 1.9.1
            param = Constant(name, value)
            self._params[name] = param
        return param

    def update(self, other):
        for k, v in other.items():
            if k in self._params and self._params[k] is not v:
                raise MXNetAssertionError(f"Cannot update self with other because they have "
                                          f"different Parameters with the same name '{k}'")
            self._params[k] = v

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        """Initialise every parameter (see Parameter.initialize)."""
        from .. import initializer as _init
        default = init if init is not None else _init.Uniform()
        if verbose:
            default.set_verbosity(verbose=verbose)
        for p in self._params.values():
            p.initialize(None, ctx, default, force_reinit=force_reinit)

    def zero_grad(self):
        for p in self._params.values():
            p.zero_grad()

    def reset_ctx(self, ctx):
        for p in self._params.values():
            p.reset_ctx(ctx)

    def setattr(self, name, value):
        """Set one attribute (e.g. grad_req, lr_mult) on every parameter."""
        for p in self._params.values():
            setattr(p, name, value)

    def list_ctx(self):
        out = []
        for p in self._params.values():
            for c in p.list_ctx():
                if c not in out:
                    out.append(c)
        return out

    def save(self, filename, strip_prefix=""):
        """Save to MXNet's .params format, names without ``strip_prefix``."""
        from ..ndarray import save
        arrays = {}
        for p in self._params.values():
            if not p.name.startswith(strip_prefix):
                raise MXNetValueError(f"Prefix '{strip_prefix}' is to be striped before saving, but "
                                 f"Parameter's name '{p.name}' does not start with it")
            arrays[p.name[len(strip_prefix):]] = p._saved_data()
        if _util.is_np_array():  # mx.np parameters: NumPy-shape records, as 1.9.1 writes them
            from ..numpy_extension import save as _npx_save
            _npx_save(filename, arrays)
            return
        save(filename, arrays)

    def load(self, filename, ctx=None, allow_missing=False, ignore_extra=False, restore_prefix="",
             cast_dtype=False, dtype_source="current"):
        """Load from a .params file (``arg:``/``aux:`` keys are accepted)."""
        from ..ndarray import load
        self.load_dict(load(filename), ctx, allow_missing, ignore_extra, restore_prefix,
                       filename, cast_dtype, dtype_source)

    def load_dict(self, param_dict, ctx=None, allow_missing=False, ignore_extra=False,
                  restore_prefix="", filename=None, cast_dtype=False, dtype_source="current"):
        """Load from a dict of name -> NDArray (``arg:``/``aux:`` keys are accepted);
        ``filename`` only names the source in error messages."""
        source = f"file: {filename}" if filename else "param_dict"   # 1.9.1's wording
        hint = ("Please make sure source and target networks have the same prefix.For more info "
                "on naming, please see https://mxnet.io/api/python/docs/tutorials/packages/gluon/"
                "blocks/naming.html")
        loaded = {re.sub(r"^(arg|aux):", "", k): v for k, v in param_dict.items()}
        loaded = {restore_prefix + k: v for k, v in loaded.items()}
        for name in self._params if restore_prefix else ():
            if not name.startswith(restore_prefix):
                raise MXNetAssertionError(
                    f"ParameterDict.load: restore_prefix is {restore_prefix!r} but the name of "
                    f"Parameter '{name}' does not start with it")
        if not allow_missing:
            from .utils import _brief_print_list   # a long list is shortened, as in 1.9.1
            for name in self._params:
                if name not in loaded:
                    raise MXNetAssertionError(
                        f"Parameter '{name[len(restore_prefix):]}' is missing in {source}, "
                        f"which contains parameters: {_brief_print_list(loaded)}. {hint}")
        for name, arr in loaded.items():
            if name not in self._params:
                if not ignore_extra:
                    from .utils import _brief_print_list
                    raise MXNetAssertionError(
                        f"Parameter '{name[len(restore_prefix):]}' loaded from {source} is not "
                        "present in ParameterDict, choices are: "
                        f"{_brief_print_list(self._params.keys())}. Set ignore_extra to True to "
                        f"ignore. {hint}")
                continue
            self._params[name]._load_init(arr, ctx, cast_dtype, dtype_source)

