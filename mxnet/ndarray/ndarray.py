"""NDArray: a device array whose operations go through the operator registry.

Imperative calls run inline in the caller when the engine says their inputs are idle
(the common case); otherwise they first wait on the engine for pending writers. While
autograd records, each call leaves a :class:`~mxnet.ndarray.tape.TapeNode`.
"""
from __future__ import annotations

import re
import threading
from time import perf_counter_ns as _perf_ns

import numpy as np

from .. import engine
from .._mode import mode as _mode
from ..backend import get_backend, gpu_out_of_memory, synchronize_gpus
from ..base import (MXNetAssertionError, MXNetError, MXNetKeyError, MXNetTypeError,
                    MXNetValueError, dtype_name, dtype_np, numeric_types)
from ..context import Context, current_context
from ..operator.registry import RunContext, get_op
from .tape import Leaf, TapeNode

__all__ = ["NDArray", "invoke", "array", "empty", "waitall", "from_data", "_new", "from_numpy",
           "from_dlpack"]

_rc_cache: dict = {}
# mxnet.profiler sets this to its recorder while it runs: hook(op, ctx, t0_ns, result)
_prof_hook = None


def _run_context(ctx, training):
    rc = _rc_cache.get((ctx, training))
    if rc is None:
        rc = _rc_cache[(ctx, training)] = RunContext(get_backend(ctx), training)
    ctx._rc[training] = rc
    return rc


def _new(data, ctx, node=None, cls=None):
    """Wrap a raw device array as an NDArray (no copy); ``cls`` picks a subclass
    (``mx.np.ndarray``)."""
    a = object.__new__(NDArray if cls is None else cls)
    a._data = data
    a._ctx = ctx
    a._var = None
    a._node = node
    a._grad = None
    a._grad_req = "null"
    return a


def _host_mix(a, b):
    """Host arrays combine freely, as in 1.9.1: pinned/shared memory with plain CPU arrays, and
    CPU arrays of different device ids (``cpu(0) + cpu(1)`` runs, the result on the first)."""
    return 2 not in {a.device_typeid, b.device_typeid}


# ``held``: the engine vars whose grants an asynchronous op running on this thread holds
# (the background walk of autograd.backward). Waiting on them would wait for that op
# itself, so the wait points below skip them.
_held = threading.local()


def _wait_var(v):
    held = getattr(_held, "vars", None)
    if held is not None and v in held:
        return
    engine.wait_for_var(v)


def _sync(arr):
    """Wait for engine work pending on ``arr`` (raises a failure stored on it)."""
    _wait_var(arr._var)


def _describe(inputs):
    return ", ".join(f"{tuple(a.shape)} {a.dtype}" for a in inputs)


def invoke(op, inputs, attrs, out=None, ctx=None, cls=None):
    """Run one operator imperatively; returns an NDArray or a list of them.

    Results take the class of the first input (so ``mx.np.ndarray`` in gives
    ``mx.np.ndarray`` out), or ``cls`` when given.
    """
    if inputs:
        ctx = inputs[0]._ctx
        if ctx.device_typeid in (3, 5):
            # as in 1.9.1, operators on pinned/shared host memory write plain cpu(id) arrays
            ctx = Context(1, ctx.device_id)
        if cls is None:
            cls = inputs[0].__class__
        for a in inputs:
            v = a._var
            if v is not None and (v.npending or v.exc is not None):
                _sync(a)
            if a._ctx is not ctx and a._ctx != ctx and not _host_mix(a._ctx, ctx):
                raise MXNetError(f"{op.name}: all inputs must be on the same context; "
                                 f"got {ctx} and {a._ctx}")
    elif ctx is None:
        ctx = current_context()
    training = _mode.training
    rc = ctx._rc[training] or _run_context(ctx, training)
    hook = _prof_hook
    if hook is not None:
        t0 = _perf_ns()
    into = None
    if out is not None and op.accepts_out and inputs and out is inputs[0] and \
            not _mode.recording and (0, 0) in op.inplace and not out._is_sparse and \
            op.num_outputs(attrs) == 1:
        # out= the first input, a declared in-place pair (the optimizers' out=weight): the
        # kernel may write its result straight into that buffer
        into = out._data
    try:
        if into is not None:
            res = op.compute(rc, attrs, *[a._data for a in inputs], out=[into])
        elif len(inputs) == 1:
            res = op.compute(rc, attrs, inputs[0]._data)
        elif len(inputs) == 2:
            res = op.compute(rc, attrs, inputs[0]._data, inputs[1]._data)
        else:
            res = op.compute(rc, attrs, *[a._data for a in inputs])
    except (MXNetError, IndexError):
        raise
    except Exception as e:  # a kernel failed on what the user passed
        if type(e).__name__ == "OutOfMemoryError":
            raise gpu_out_of_memory(op.name, ctx, e, _describe(inputs)) from e
        raise MXNetError(f"{op.name}: {type(e).__name__}: {e} "
                         f"(inputs: {_describe(inputs) or 'none'})") from e
    if hook is not None:
        hook(op, ctx, t0, res)
    if type(res) is not tuple and type(res) is not list:
        # single output: the hot path
        if inputs and res is not into and (getattr(res, "base", None) is not None
                                           or len(inputs) == 1 and res is inputs[0]._data):
            res = _unalias(rc, res, inputs)
        node = _record(op, attrs, inputs, (res,), ctx) if _mode.recording else None
        if out is not None:
            return _write_out(out, (res,), node, op.name)
        return _new(res, ctx, None if node is None else (node, 0), cls)
    datas = [_unalias(rc, d, inputs) for d in res] if inputs else res
    node = _record(op, attrs, inputs, datas, ctx) if _mode.recording else None
    if out is not None:
        nout = len(out) if isinstance(out, (list, tuple)) else 1
        if nout != len(datas) and nout != op.num_visible_outputs(attrs):
            raise MXNetError(f"{op.name}: out= has {nout} array(s); the operator writes "
                             f"{op.num_visible_outputs(attrs)} (visible) or {len(datas)} (all)")
        return _write_out(out, datas, node, op.name)
    outs = [_new(d, ctx, None if node is None else (node, i), cls) for i, d in enumerate(datas)]
    nvis = op.num_visible_outputs(attrs)
    return outs[0] if nvis == 1 else outs[:nvis]


def _unalias(rc, res, inputs):
    """``res``, copied when it is (a view of) an input's buffer: as in 1.9.1, an operator's
    result never shares memory with its inputs (so writing into ``x.T`` or
    ``np.expand_dims(x, 0)`` leaves ``x`` alone)."""
    own = getattr(res, "base", None)
    for a in inputs:
        d = a._data
        if res is d or (own is not None and (own is d or own is getattr(d, "base", None))):
            return res.copy()
    if own is None or getattr(getattr(own, "flags", None), "owndata", False):
        return res   # a view of an array that owns its memory and is no input's buffer
    for a in inputs:   # an unusual base (a buffer, a strided wrapper): ask the backend
        if rc.xp.may_share_memory(res, a._data):
            return res.copy()
    return res


def _record(op, attrs, inputs, datas, ctx):
    """A tape node, when some input is part of the graph (as 1.9.1 decides what to tape)."""
    for a in inputs:
        e = a._node
        if e is not None and not e[0].freed:   # live_entry, inlined: this runs per op
            return TapeNode(op, attrs, list(inputs), list(datas), ctx)
    return None


def _write_out(out, datas, node, name="operator"):
    outs = out if isinstance(out, (list, tuple)) else [out]
    if _mode.recording:
        _check_not_in_graph(outs)
    for i, (o, d) in enumerate(zip(outs, datas)):
        try:
            sparse = o._is_sparse
        except AttributeError:
            raise MXNetTypeError(f"{name}: out must be an NDArray (or a list of them), got "
                                 f"{type(o).__name__}") from None
        if not sparse:
            _check_out(name, i, o._data.shape, o._data.dtype, d)
        else:
            _check_out(name, i, tuple(o.shape), np.dtype(o.dtype), d)
        if d is not o._data:   # else the kernel wrote there itself
            o._assign(d)
        if node is not None:
            o._node = (node, i)
    return out


def _check_out(name, i, shape, dtype, d):
    """As 1.9.1's type and shape inference: an ``out=`` array must already have the result's
    dtype and shape (it is written as is, never cast or broadcast)."""
    if shape != d.shape:   # 1.9.1 infers shapes before types
        raise MXNetError(f"{name}: Shape inconsistent at {i}-th output: the out= array has shape "
                         f"{tuple(shape)}, expected {tuple(d.shape)}")
    if dtype != d.dtype and name != "_copyto":   # _copyto casts, as copyto() does
        raise MXNetError(f"{name}: Type inconsistent at {i}-th output: the out= array has dtype "
                         f"{dtype_name(dtype)}, expected {dtype_name(d.dtype)}")


def _check_not_in_graph(arrays):
    for o in arrays:
        if o._node is not None:
            raise MXNetError("Inplace operations (+=, -=, x[:]=, etc) are not supported when "
                             "recording with autograd: the array is part of the recorded graph")


def _check_no_recorded_source(fn, sources):
    """While recording, 1.9.1 refuses an in-place write of a recorded value into an array
    outside the graph: the write could not carry the value's gradient."""
    for a in sources:
        if isinstance(a, NDArray) and a._node is not None and not a._node[0].freed:
            raise MXNetError(f"{fn}: Inplace operations (+=, -=, x[:]=, etc) are not supported "
                             "when recording with autograd: the value written is part of the "
                             "recorded graph but the array written to is not")


def _keep_host_ctx(out, src):
    """copy() and astype() keep pinned/shared host memory, which operators turn into cpu."""
    if src._ctx.device_typeid in (3, 5):
        out._ctx = src._ctx
    return out


def _invoke_name(name, inputs, **kwargs):
    op = get_op(name)
    return invoke(op, inputs, op.parse_attrs(kwargs))


# the dtypes 1.9.1's NDArray front end accepts; others (int16, uint16, complex ...) fail its
# dtype-table lookup with a KeyError
_ND_DTYPES = ("float32", "float64", "float16", "uint8", "int8", "int32", "int64", "bool",
              "bfloat16")


def _check_nd_dtype(dt, fn):
    if dt.name not in _ND_DTYPES:
        raise MXNetKeyError(f"{fn}: dtype {dt.name} is not supported by NDArray; expected one "
                            f"of {list(_ND_DTYPES)}")
    return dt


def _log_sparse_arith(name, inputs, scalar=None):
    """1.9.1's storage fallback warning when an arithmetic operator meets a sparse array."""
    if any(type(a) is not NDArray and getattr(a, "stype", "default") != "default"
           for a in inputs):
        from ._fallback_log import log_arith
        log_arith(name, inputs, scalar)


class NDArray:
    """An n-dimensional array on one device, with MXNet 1.x semantics."""

    __slots__ = ("_data", "_ctx", "_var", "_node", "_grad", "_grad_req", "__weakref__")
    __array_priority__ = 1000.0
    _is_sparse = False   # True on the sparse classes (a cheap test on the arithmetic path)

    def __init__(self, data, ctx=None):
        self._ctx = ctx if ctx is not None else current_context()
        self._data = data
        self._var = None
        self._node = None
        self._grad = None
        self._grad_req = "null"

    # -- engine --------------------------------------------------------------------------------
    @property
    def engine_var(self):
        """This array's dependency-engine variable (created on first use), for
        ``mx.engine.push``'s read and write lists. Not a 1.9.1 name: ``var`` is left to
        ``mx.np.ndarray.var``, the variance."""
        v = self._var
        if v is None:
            v = self._var = engine.Var()
        return v

    def wait_to_read(self):
        """Block until pending writes to this array finish; raise their failure if any."""
        v = self._var
        if v is not None and (v.npending or v.exc is not None):
            _wait_var(v)
        if self._ctx.device_typeid == 2:
            get_backend(self._ctx).synchronize()

    def _assign(self, data):
        """Copy raw data into this array's buffer (broadcasting, casting to its dtype)."""
        v = self._var
        if v is not None and (v.npending or v.exc is not None):
            _sync(self)
        xp = get_backend(self._ctx).xp
        if type(data).__module__.split(".")[0] != xp.__name__:
            data = get_backend(self._ctx).asarray(data)
        try:
            xp.copyto(self._data, data, casting="unsafe")
        except ValueError:
            raise MXNetError(f"cannot assign an array of shape {tuple(np.shape(data))} to an "
                             f"NDArray of shape {self.shape}") from None

    # -- attributes ------------------------------------------------------------------------------
    @property
    def shape(self):
        """The shape, a tuple of ints."""
        return self._data.shape

    @property
    def dtype(self):
        """The NumPy scalar type of the elements (e.g. ``numpy.float32``)."""
        return self._data.dtype.type

    @property
    def size(self):
        return self._data.size

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def context(self) -> Context:
        """The device the array lives on."""
        return self._ctx

    ctx = context

    @property
    def stype(self):
        """Storage type; only dense ('default') arrays exist here."""
        return "default"

    @property
    def grad(self):
        """The gradient buffer made by ``attach_grad`` (None before)."""
        return self._grad

    @property
    def T(self):
        """The array with its axes reversed."""
        if self.ndim < 2:
            return self
        return self.transpose()

    @property
    def handle(self):
        return id(self)

    @property
    def writable(self):
        return True

    # -- conversion --------------------------------------------------------------------------
    def asnumpy(self) -> np.ndarray:
        """A NumPy copy of the data (waits for pending writes)."""
        self.wait_to_read()
        d = self._data
        if self._ctx.device_typeid == 2:
            return d.get()
        return np.array(d, copy=True)

    def asscalar(self):
        """The single element as a NumPy scalar; only for arrays of size 1."""
        if self.size != 1:
            raise ValueError("The current array is not a scalar")
        # 1.9.1 returns the whole NumPy array for other size-1 shapes such as (1, 1), which
        # NumPy 1.x let scripts pass to float(); NumPy 2 refuses that, so the element is
        # returned for every size-1 shape, keeping those scripts working
        return self.asnumpy().reshape(-1)[0]

    def astype(self, dtype, copy=True):
        """A copy cast to ``dtype`` (``self`` itself when the dtype matches and copy=False)."""
        dt = _check_nd_dtype(dtype_np(dtype), "astype")
        if not copy and self._data.dtype == dt:
            return self
        return _keep_host_ctx(_invoke_name("Cast", [self], dtype=dtype_name(dt)), self)

    def copy(self):
        """A new array with the same data on the same context."""
        return _keep_host_ctx(_invoke_name("_copy", [self]), self)

    def copyto(self, other):
        """Copy into another NDArray (returned) or onto a Context (a new array)."""
        if isinstance(other, NDArray):
            if other is self:
                import warnings
                warnings.warn("You are attempting to copy an array to itself", RuntimeWarning,
                              stacklevel=2)
                return False
            if other.shape != self.shape:
                raise MXNetError(f"copyto: shape mismatch, source {self.shape} vs target {other.shape}")
            if _mode.recording:
                _check_not_in_graph([other])
            self.wait_to_read()
            if type(other) is not NDArray and other.stype != "default":
                from ._fallback_log import log_copy   # dense into sparse, as 1.9.1 logs it
                log_copy(self, other)
            other._assign(self._data)
            if _mode.recording and type(other) is NDArray:   # recorded, as 1.9.1's _copyto
                node = _record(get_op("_copyto"), {}, [self], [other._data], other._ctx)
                if node is not None:
                    other._node = (node, 0)
            return other
        if isinstance(other, Context):
            self.wait_to_read()
            data = get_backend(other).asarray(self._data)
            if data is self._data:
                data = data.copy()
            res = _new(data, other, cls=self.__class__)
            if _mode.recording:
                node = TapeNode(get_op("_copyto"), {}, [self], [data], other)
                res._node = (node, 0)
            return res
        raise TypeError(f"copyto does not support type {type(other)}")

    def as_in_context(self, context):
        """This array on ``context``: itself when already there, else a copy."""
        if self._ctx == context:
            return self
        return self.copyto(context)

    def as_nd_ndarray(self):
        return self

    def as_np_ndarray(self):
        """The same data (shared memory) as an ``mx.np.ndarray``."""
        from ..numpy.multiarray import ndarray as np_ndarray
        res = _new(self._data, self._ctx, self._node, np_ndarray)
        res._var = self.engine_var
        return res

    def slice_assign(self, rhs, begin, end, step):
        """Write ``rhs`` into the region ``begin:end:step`` (in place) and return self."""
        self[_region(begin, end, step)] = rhs
        return self

    def slice_assign_scalar(self, value, begin, end, step):
        """Fill the region ``begin:end:step`` with ``value`` (in place) and return self."""
        self[_region(begin, end, step)] = value
        return self

    # -- 1.9.1's underscore helpers that user code and older libraries call -----------------------
    def _slice(self, start, stop):
        """The rows ``start:stop`` of the first axis, as a view."""
        n = self.shape[0] if self.shape else 0
        if not 0 <= start <= stop <= n:
            raise MXNetError(f"NDArray._slice: invalid range [{start}, {stop}) for a first axis "
                             f"of size {n}")
        return self[start:stop]

    def _at(self, idx):
        """Row ``idx`` of the first axis, as a view (shape (1,) for a 1-d array)."""
        n = self.shape[0] if self.shape else 0
        i = idx + n if idx < 0 else idx
        if not 0 <= i < n:
            raise MXNetError(f"NDArray._at: index {idx} is out of range for a first axis of "
                             f"size {n}")
        return self[i:i + 1].reshape(self.shape[1:] or (1,))

    def _sync_copyfrom(self, source_array):
        """Copy an array-like into this array (cast to its dtype; the shapes must match)."""
        src = np.asarray(source_array.asnumpy() if isinstance(source_array, NDArray)
                         else source_array, dtype=self.dtype)
        if src.shape != self.shape:
            raise MXNetValueError(f"NDArray._sync_copyfrom: shape inconsistent: the source has "
                                  f"shape {src.shape}, this array {self.shape}")
        self._assign(src)

    def _full(self, value):
        """Fill this array with ``value``; returns it."""
        self[:] = value
        return self

    @property
    def _fresh_grad(self):
        """1 once backward has written this variable's gradient, until reset (Trainer's check
        for stale gradients)."""
        e = self._node
        return int(bool(getattr(e[0], "fresh", False))) if e is not None else 0

    @_fresh_grad.setter
    def _fresh_grad(self, state):
        e = self._node
        if e is not None and hasattr(e[0], "fresh"):
            e[0].fresh = bool(state)

    def to_dlpack_for_read(self):
        """A DLPack capsule sharing this array's memory (waits for pending writes)."""
        self.wait_to_read()
        return self._data.__dlpack__()

    def to_dlpack_for_write(self):
        """A DLPack capsule sharing this array's memory, for writing into it."""
        self.wait_to_read()
        return self._data.__dlpack__()

    def tostype(self, stype):
        """A copy of this array in storage type ``stype`` ('default', 'csr' or 'row_sparse')."""
        from .sparse import cast_storage
        return cast_storage(self, stype)

    # -- autograd --------------------------------------------------------------------------------
    def attach_grad(self, grad_req="write", stype=None):
        """Allocate a zero gradient buffer and mark this array as an autograd variable.
        With ``stype`` 'row_sparse' or 'csr' the buffer is sparse: backward stores the
        gradient in that storage type. A row_sparse gradient from
        ``Embedding(sparse_grad=True)``, ``contrib.SparseEmbedding`` or ``dot(csr, x)`` keeps
        the rows those operators name (every row looked up, zero or not), as in 1.9.1; any
        other gradient keeps its rows holding a non-zero."""
        if grad_req not in ("write", "add", "null"):
            raise MXNetKeyError(f"attach_grad: grad_req must be 'write', 'add' or 'null', "
                               f"got {grad_req!r}")
        if stype is None and grad_req == "write" and self.stype != "default":
            stype = self.stype   # as 1.9.1 (zeros_like): a sparse array's gradient is sparse
        if stype not in (None, "default") and grad_req != "null":
            if stype not in ("row_sparse", "csr"):
                # 1.9.1 raises a ValueError here
                raise MXNetValueError(f"attach_grad: unknown stype {stype!r}; expected "
                                      "'default', 'row_sparse' or 'csr'")
            if grad_req == "add":
                raise MXNetError(f"attach_grad: grad_req='add' with stype={stype!r} is not "
                                 "supported here; use grad_req='write'")
            from .sparse import zeros as sparse_zeros
            self._grad = sparse_zeros(stype, self.shape, ctx=self._ctx, dtype=self.dtype)
        else:
            self._grad = _new(get_backend(self._ctx).xp.zeros_like(self._data), self._ctx,
                              cls=self.__class__)
        self._grad_req = grad_req
        self._node = None if grad_req == "null" else (Leaf(self), 0)

    def detach(self):
        """The same data, cut off from the recorded graph."""
        return _new(self._data, self._ctx, cls=self.__class__)

    def backward(self, out_grad=None, retain_graph=False, train_mode=True):
        """Back-propagate from this array into the gradients of attached variables."""
        from ..autograd import backward
        backward([self], [out_grad] if out_grad is not None else None,
                 retain_graph=retain_graph, train_mode=train_mode)

    # -- python protocol -------------------------------------------------------------------------
    def __repr__(self):
        shape = "x".join(str(s) for s in self.shape)
        with np.printoptions(legacy="1.25"):  # NumPy 1.x's text, as 1.9.1 prints (float16)
            text = str(self.asnumpy())
        return f"\n{text}\n<NDArray {shape} @{self._ctx}>"

    def __str__(self):
        return self.__repr__()

    def __len__(self):
        return self.shape[0]

    def __iter__(self):
        for i in range(self.shape[0]):
            yield self[i]

    def __bool__(self):
        if self.size == 0:
            return False
        if self.size > 1:
            raise ValueError("The truth value of an NDArray with multiple elements is ambiguous.")
        return bool(self.asnumpy().reshape(-1)[0])

    __nonzero__ = __bool__

    # 1.9.1's NDArray has no float()/int(); these are an extension for size-1 arrays
    def __float__(self):
        self._check_size_one("float")
        return float(self.asscalar())

    def __int__(self):
        self._check_size_one("int")
        return int(self.asscalar())

    def _check_size_one(self, fn):
        # 1.9.1 has no __float__/__int__ and raises TypeError; one-element arrays convert here
        if self.size != 1:
            raise MXNetTypeError(f"{fn}() argument must be a one-element NDArray, got shape "
                                 f"{self.shape}")

    def __hash__(self):
        return id(self)

    def __getstate__(self):
        # 1.9.1's layout: the array serialised as one .params record under 'handle'
        from .serialization import dumps_one
        return {"handle": bytearray(dumps_one(self))}

    def __setstate__(self, state):
        if "handle" in state:
            from .serialization import _load_ctx, loads_one
            data, dev_type, dev_id = loads_one(state["handle"])
            ctx = _load_ctx(dev_type, dev_id)   # as 1.9.1: any CPU array comes back on cpu(0)
        else:
            data, ctx = state["data"], Context(*state["ctx"])
        self._ctx = ctx
        self._data = get_backend(ctx).asarray(data)
        self._var = None
        self._node = None
        self._grad = None
        self._grad_req = "null"

    def __reduce__(self):
        # the same form 1.9.1 pickles, so pickles load in either implementation
        return (self.__class__, (None,), self.__getstate__())

    # -- arithmetic -----------------------------------------------------------------------------
    def _binary(self, other, bname, sname):
        if isinstance(other, NDArray):
            if self._is_sparse or other._is_sparse:
                _log_sparse_arith(bname, [self, other])
            return invoke(_op(bname), [self, other], _EMPTY)
        if isinstance(other, numeric_types):
            if self._is_sparse:
                _log_sparse_arith(sname, [self], other)
            return invoke(_op(sname), [self], _scalar_attrs(other))
        raise TypeError(f"type {type(other).__name__} not supported for NDArray arithmetic")

    def __add__(self, other):
        return self._binary(other, "broadcast_add", "_plus_scalar")

    __radd__ = __add__

    def __sub__(self, other):
        return self._binary(other, "broadcast_sub", "_minus_scalar")

    def __rsub__(self, other):
        return self._rbinary(other, "broadcast_sub", "_rminus_scalar")

    def __mul__(self, other):
        return self._binary(other, "broadcast_mul", "_mul_scalar")

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self._binary(other, "broadcast_div", "_div_scalar")

    def __rtruediv__(self, other):
        return self._rbinary(other, "broadcast_div", "_rdiv_scalar")

    __div__ = __truediv__
    __rdiv__ = __rtruediv__

    def __mod__(self, other):
        return self._binary(other, "broadcast_mod", "_mod_scalar")

    def __rmod__(self, other):
        return self._rbinary(other, "broadcast_mod", "_rmod_scalar")

    def __pow__(self, other):
        return self._binary(other, "broadcast_power", "_power_scalar")

    def __rpow__(self, other):
        return self._rbinary(other, "broadcast_power", "_rpower_scalar")

    def _rbinary(self, other, bname, sname):
        if isinstance(other, NDArray):
            if self._is_sparse or other._is_sparse:
                _log_sparse_arith(bname, [other, self])
            return invoke(_op(bname), [other, self], _EMPTY)
        if isinstance(other, numeric_types):
            if self._is_sparse:
                _log_sparse_arith(sname, [self], other)
            return invoke(_op(sname), [self], _scalar_attrs(other))
        raise TypeError(f"type {type(other).__name__} not supported for NDArray arithmetic")

    def __neg__(self):
        if self.dtype == np.bool_:   # 1.9.1's -x is x * -1.0 (int64); nd.negative rejects bool
            return self._binary(-1.0, "broadcast_mul", "_mul_scalar")
        return invoke(get_op("negative"), [self], _EMPTY)

    def __abs__(self):
        return invoke(get_op("abs"), [self], _EMPTY)

    def __pos__(self):
        return self

    def __eq__(self, other):
        return self._binary(other, "broadcast_equal", "_equal_scalar")

    def __ne__(self, other):
        return self._binary(other, "broadcast_not_equal", "_not_equal_scalar")

    def __gt__(self, other):
        return self._binary(other, "broadcast_greater", "_greater_scalar")

    def __ge__(self, other):
        return self._binary(other, "broadcast_greater_equal", "_greater_equal_scalar")

    def __lt__(self, other):
        return self._binary(other, "broadcast_lesser", "_lesser_scalar")

    def __le__(self, other):
        return self._binary(other, "broadcast_lesser_equal", "_lesser_equal_scalar")

    def _inplace(self, other, bname, sname):
        if _mode.recording:
            _check_not_in_graph([self])
            _check_no_recorded_source(bname, [other])
        if isinstance(other, NDArray):
            if self._is_sparse or other._is_sparse:
                _log_sparse_arith(bname, [self, other])
            return invoke(get_op(bname), [self, other], _EMPTY, out=self)
        if isinstance(other, numeric_types):
            return invoke(get_op(sname), [self], _scalar_attrs(other), out=self)
        raise TypeError(f"type {type(other).__name__} not supported for NDArray arithmetic")

    def __iadd__(self, other):
        return self._inplace(other, "broadcast_add", "_plus_scalar")

    def __isub__(self, other):
        return self._inplace(other, "broadcast_sub", "_minus_scalar")

    def __imul__(self, other):
        return self._inplace(other, "broadcast_mul", "_mul_scalar")

    def __itruediv__(self, other):
        return self._inplace(other, "broadcast_div", "_div_scalar")

    __idiv__ = __itruediv__

    def __imod__(self, other):
        return self._inplace(other, "broadcast_mod", "_mod_scalar")

    # -- indexing -------------------------------------------------------------------------------
    def __getitem__(self, key):
        from .indexing import getitem
        return getitem(self, key)

    def __setitem__(self, key, value):
        from .indexing import setitem
        setitem(self, key, value)

    # -- shape ----------------------------------------------------------------------------------
    def reshape(self, *shape, **kwargs):
        """Reshape with MXNet's special codes (0, -1, -2, -3, -4); ``reverse=True`` reads right to left.

        Outside autograd recording the result shares memory with ``self``.
        """
        from ..operator.shape import infer_reshape
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = tuple(shape[0])
        shape_kw = kwargs.pop("shape", None)
        if not shape and shape_kw is not None:  # as in 1.9.1, a positional shape wins
            shape = tuple(shape_kw)
        reverse = bool(kwargs.pop("reverse", False))
        if kwargs:
            raise TypeError(f"reshape: unexpected keyword arguments {sorted(kwargs)}")
        try:
            new_shape = infer_reshape("reshape", self.shape, shape, reverse)
        except MXNetError as e:
            # 1.9.1 reports reversed-shape failures and targets smaller than the input from
            # Python, as ValueError (an MXNetError while recording); a larger target stays an
            # MXNetError. MXNetValueError is both.
            sizes = re.search(r"\(size (\d+)\) into .*\(size (\d+)\)", str(e))
            if reverse or ("cannot reshape array" in str(e)
                           and not (sizes and int(sizes[2]) > int(sizes[1]))):
                raise MXNetValueError(str(e)) from None
            raise
        if _mode.recording:
            return _invoke_name("Reshape", [self], shape=shape, reverse=reverse)
        view = _new(self._data.reshape(new_shape), self._ctx)
        view._var = self.engine_var
        return view


_EMPTY: dict = {}
_scalar_cache: dict = {}
_op_cache: dict = {}


def _op(name):
    op = _op_cache.get(name)
    if op is None:
        op = _op_cache[name] = get_op(name)
    return op


def _scalar_attrs(value):
    key = (type(value), value)
    attrs = _scalar_cache.get(key)
    if attrs is None:
        # 1.9.1's mx.nd operators leave is_int at its default (True) for every scalar; a
        # float scalar with is_int=False would make an integer array's result float64
        attrs = {"scalar": float(value), "is_int": True}
        if len(_scalar_cache) < 4096:
            _scalar_cache[key] = attrs
    return attrs


def _region(begin, end, step):
    step = step or (None,) * len(begin)
    return tuple(slice(b, e, st) for b, e, st in zip(begin, end, step))


def from_data(data, ctx=None):
    """Wrap a raw array, moving it to ``ctx`` (default: the current context)."""
    ctx = ctx or current_context()
    return _new(get_backend(ctx).asarray(data), ctx)


def array(source_array, ctx=None, dtype=None):
    """Create an NDArray from a list, NumPy array or NDArray.

    As in 1.9.1 the dtype defaults to float32 for Python lists and float64 NumPy input,
    and to the source's dtype for other NumPy arrays and NDArrays.
    """
    ctx = Context(ctx) if ctx is not None else current_context()
    if dtype is not None:
        _check_nd_dtype(dtype_np(dtype), "array")
    if isinstance(source_array, NDArray):
        src = source_array.asnumpy()
        dt = dtype_np(dtype) if dtype is not None else src.dtype
    elif isinstance(source_array, np.ndarray):
        src = source_array
        dt = dtype_np(dtype) if dtype is not None else np.dtype(np.float32)
    else:
        if type(source_array).__module__.startswith("cupy"):
            src = source_array
            dt = dtype_np(dtype) if dtype is not None else source_array.dtype
        else:
            try:
                src = np.array(source_array)
            except ValueError as e:
                raise TypeError(f"array: source_array must be array like, got a ragged or "
                                f"invalid {type(source_array).__name__}: {e}") from None
            dt = dtype_np(dtype) if dtype is not None else np.dtype(np.float32)
            if src.dtype == object and dt.kind == "f":
                # Python ints beyond int64 made an object array; 1.9.1 converts the list
                # straight into the float dtype (nd.array([1, 2**64]) is float32)
                try:
                    src = np.array(source_array, dtype=dt)
                except (TypeError, ValueError, OverflowError):
                    pass
            if dt.kind in "iu" and src.dtype.kind == "f" and src.size and not (
                    np.abs(src) < 2.0 ** 63).all():
                # 1.9.1 converts lists through NumPy into the integer dtype: NaN, inf and
                # values beyond int64 fail there (and it reports a TypeError)
                raise TypeError(f"array: source_array must be array like; it holds NaN, inf or "
                                f"values beyond the int64 range, which cannot become {dt.name}")
            if dt.kind in "iu" and src.dtype.kind == "f":
                src = src.astype(np.int64)  # then wrap into dt, as 1.9.1's NumPy does
            if src.dtype.kind in "US":
                try:  # 1.9.1 converts strings of numbers, and raises TypeError for the rest
                    src = src.astype(dt)
                except (TypeError, ValueError) as e:
                    raise MXNetTypeError(f"array: source_array must be array like object; "
                                         f"cannot convert its strings to {dt.name}: {e}") from None
    if src.dtype == object:
        # a TypeError as in 1.9.1 (an MXNetError too)
        raise MXNetTypeError(f"array: source_array must be array like object, got "
                             f"{type(source_array).__name__} (an object array)")
    data = get_backend(ctx).asarray(src, dtype=dt)
    if data is src or (isinstance(src, np.ndarray) and isinstance(data, np.ndarray)
                       and np.shares_memory(data, src)):
        data = data.copy()
    return _new(data, ctx)


def empty(shape, ctx=None, dtype=None):
    """An uninitialised array (zero-filled here)."""
    if isinstance(shape, int):
        shape = (shape,)
    ctx = Context(ctx) if ctx is not None else current_context()
    dt = _check_nd_dtype(dtype_np(dtype), "empty")
    return _new(get_backend(ctx).xp.zeros(tuple(shape), dtype=dt), ctx)


def from_numpy(ndarray, zero_copy=True, array_cls=NDArray):
    """An NDArray over a NumPy array (sharing memory when it is C-contiguous); ``array_cls``
    (zero-copy only, as in 1.9.1) picks the result's class, e.g. ``mx.np.ndarray``."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, got {type(ndarray).__name__}")
    if ndarray.dtype.name not in _FROM_NUMPY_DTYPES:   # 1.9.1's DLPack type table
        raise MXNetValueError(f"from_numpy: {ndarray.dtype.name} is not supported; expected one "
                              f"of {list(_FROM_NUMPY_DTYPES)}")
    if not zero_copy:
        return _new(np.array(ndarray, copy=True, ndmin=1), Context("cpu", 0))
    if not ndarray.flags.c_contiguous:
        raise MXNetValueError("from_numpy: only C-contiguous arrays are supported for zero-copy; "
                              "pass zero_copy=False or np.ascontiguousarray(x)")
    data = ndarray.reshape(ndarray.shape or (1,))
    if not data.flags.writeable:
        # 1.9.1 writes through even a read-only source; here only where NumPy allocated the
        # memory: a read-only mmap or a bytes object is copied (writing it could crash)
        data = _writable(data) if _numpy_owned(data) else data.copy()
    # as 1.9.1: the NDArray now owns the memory, so the NumPy array is made read-only
    ndarray.flags.writeable = False
    return _new(data, Context("cpu", 0), cls=array_cls)


def _wrap_host(arr):
    """An NDArray over a host NumPy array, for the package's own buffers (data iterators):
    from_numpy's checks and locking are for user arrays."""
    return _new(np.ascontiguousarray(arr), Context("cpu", 0))


_FROM_NUMPY_DTYPES = ("float32", "float64", "float16", "uint8", "int32", "int64", "bool")


def _numpy_owned(arr):
    """Whether ``arr``'s memory was allocated by NumPy itself (not a foreign buffer)."""
    while isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr.base is None and type(arr) is np.ndarray


def _writable(arr):
    """``arr``, or when it is read-only a writeable alias of its memory that keeps it alive:
    arrays 1.9.1 makes over shared memory (from_numpy, from_dlpack) are always writeable."""
    if arr.flags.writeable or not arr.flags.c_contiguous:
        return arr
    if arr.size == 0:
        return arr.copy()
    import ctypes
    buf = (ctypes.c_char * arr.nbytes).from_address(arr.__array_interface__["data"][0])
    buf._owner = arr
    return np.frombuffer(buf, dtype=arr.dtype).reshape(arr.shape)


def from_dlpack(dlpack):
    """An NDArray sharing memory with a DLPack-capable array (NumPy, CuPy, torch, ...)."""
    if type(dlpack).__module__.startswith("cupy"):
        from ..context import gpu
        return _new(dlpack, gpu(dlpack.device.id))
    if not hasattr(dlpack, "__dlpack__"):  # a bare capsule, as to_dlpack_for_read returns
        try:
            data = np.from_dlpack(_Capsule(dlpack))
        except ValueError as e:   # a consumed capsule is renamed "used_dltensor"
            raise MXNetAssertionError("from_dlpack: invalid DLPack capsule; a capsule can be "
                                      f"consumed only once ({e})") from None
        return _new(_writable(data), Context("cpu", 0))
    return _new(np.from_dlpack(dlpack), Context("cpu", 0))


class _Capsule:
    """Adapts a raw DLPack capsule to the ``__dlpack__`` protocol NumPy expects (CPU only)."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)


def waitall():
    """Wait for all pending engine work and every GPU stream in use; raises the first
    failure stored since the last wait."""
    engine.wait_all()
    synchronize_gpus()
