"""``mx.nd.CachedOp``: a Symbol compiled once and called like a function on NDArrays.

1.9.1's Gluon runs hybridized blocks through this object; scripts also build one directly
from a Symbol. Here a call runs the graph as a :class:`~mxnet.executor.program.GraphProgram`
(one per input signature and context, kept), recorded on the autograd tape as one node, as
a hybridized block's call is.
"""
from __future__ import annotations

from ..base import MXNetError
from ..symbol.graph import topo_order
from .program import GraphProgram, run

__all__ = ["CachedOp"]

_MAX_PROGRAMS = 16


def _flag(flags, name):
    v = flags.get(name, False)
    return v.lower() in ("true", "1") if isinstance(v, str) else bool(v)


class CachedOp:
    """Call ``sym`` on NDArrays: ``op(*inputs)`` with the inputs in ``sym.list_inputs()``
    order (arguments and auxiliary states, as the symbol lists them); returns the output,
    or the list of outputs when the symbol has several. ``flags`` (1.9.1's static_alloc,
    static_shape, ...) change nothing but this: the program plans its memory once per input
    signature anyway; with both static_alloc and static_shape, a Custom operator's
    CustomOp is created at the first call of a signature and kept, as in 1.9.1 (else each
    call creates one). A graph creating arrays with legacy 0 (unknown) dimensions
    (``mx.sym.zeros(shape=(0, 8))`` added to a data-dependent array) has them inferred
    from the input shapes at the first call of each signature, as 1.9.1 does."""

    def __init__(self, sym, flags=(), thread_safe=False):
        from ..symbol import Symbol
        if not isinstance(sym, Symbol):
            raise MXNetError(f"CachedOp: sym must be a Symbol, got {type(sym).__name__}")
        self._sym = sym
        self._heads = list(sym._outputs)
        self._order = topo_order(self._heads)
        self._inputs = sym.list_inputs()
        pos = {name: i for i, name in enumerate(self._inputs)}
        self._var_pos = {id(n): pos[n.name] for n in self._order if n.op is None}
        self._flags = dict(flags)
        self._programs = {}
        self._hook = None

    def _register_op_hook(self, callback, monitor_all=False):
        """Call ``callback(name, op_name, array)`` on every operator output of each call
        (and, with ``monitor_all``, first on its inputs), named as 1.9.1 names them, the
        names as ``bytes`` (see ``monitoring.OpHook``). 1.9.1 hands the callback
        a raw NDArray handle; here it gets the NDArray itself. ``None`` removes the hook."""
        self._hook = None if callback is None else (callback, bool(monitor_all))

    def _monitor(self, ctx):
        """The ``hook`` argument of ``program.run`` for a call on ``ctx`` (None: no hook)."""
        if self._hook is None:
            return None
        from .monitoring import OpHook
        callback, every = self._hook
        return OpHook(self._order, self._heads, self._var_pos, callback, every, ctx,
                      _flag(self._flags, "static_alloc"))

    def __call__(self, *args, out=None, default_ctx=None):
        if len(args) != len(self._inputs):
            raise MXNetError(f"CachedOp: the symbol takes {len(self._inputs)} inputs "
                             f"{self._inputs}, got {len(args)}")
        if not args:
            raise MXNetError("CachedOp: a symbol without inputs cannot be called")
        ctx = args[0]._ctx
        key = (ctx,) + tuple((a._data.shape, a._data.dtype) for a in args)
        prog = self._programs.get(key)
        if prog is None:
            if len(self._programs) >= _MAX_PROGRAMS:
                self._programs.pop(next(iter(self._programs)))
            prog = self._programs[key] = GraphProgram(self._order, self._heads,
                                                      self._var_pos, ctx)
            if _flag(self._flags, "static_alloc") and _flag(self._flags, "static_shape"):
                prog.states = {}   # as 1.9.1: a Custom op's CustomOp lives as long as this
        outs = run(prog, list(args), ctx, self._monitor(ctx))
        if out is not None:
            dsts = out if isinstance(out, (list, tuple)) else [out]
            if len(dsts) != len(outs):
                raise MXNetError(f"CachedOp: out has {len(dsts)} arrays for "
                                 f"{len(outs)} outputs")
            for d, o in zip(dsts, outs):
                o.copyto(d)
            return out
        return outs[0] if len(outs) == 1 else outs
