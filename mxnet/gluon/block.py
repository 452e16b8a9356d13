"""Gluon blocks: Block (imperative), HybridBlock (traceable to a Symbol) and SymbolBlock."""
from __future__ import annotations

import contextlib
import io
import os
import re
import threading
import warnings
from collections import OrderedDict

from .. import ndarray as _nd
from .. import symbol as _sym
from ..base import (MXNetAssertionError, MXNetError, MXNetKeyError, MXNetTypeError,
                    MXNetValueError, mx_real_t)
from ..context import cpu
from ..name import NameManager, Prefix
from .. import util as _util
from ..ndarray import NDArray
from ..symbol import Symbol
from ..symbol.graph import topo_order
from ..symbol import control_flow as _control_flow
from ..symbol.symbol import _print_infer_arguments
from ..executor.program import GraphProgram, run as run_program
from .parameter import (Constant, DeferredInitializationError, Parameter, ParameterDict,
                        _shape_known)

__all__ = ["Block", "HybridBlock", "SymbolBlock"]

# compiled programs kept per hybridized block (one per input signature)
_MAX_PROGRAMS = 16


class _BlockScope:
    """The naming scope of a block: children get ``parent_prefix + hint + count + '_'``."""

    _local = threading.local()

    def __init__(self, block):
        self._block = block
        self._counter: dict = {}
        self._old_scope = None
        self._name_scope = None

    @staticmethod
    def create(prefix, params, hint):
        current = getattr(_BlockScope._local, "value", None)
        if current is None:
            if prefix is None:
                prefix = NameManager.current().get(None, hint) + "_"
            if params is None:
                params = ParameterDict(prefix)
            else:
                params = ParameterDict(params.prefix, params)
            return prefix, params
        if prefix is None:
            count = current._counter.get(hint, 0)
            prefix = f"{hint}{count}_"
            current._counter[hint] = count + 1
        if params is None:
            parent = current._block.params
            params = ParameterDict(parent.prefix + prefix, parent._shared)
        else:
            params = ParameterDict(params.prefix, params)
        return current._block.prefix + prefix, params

    def __enter__(self):
        if self._block._empty_prefix:
            return self
        self._old_scope = getattr(_BlockScope._local, "value", None)
        _BlockScope._local.value = self
        self._name_scope = Prefix(self._block.prefix)
        self._name_scope.__enter__()
        return self

    def __exit__(self, *exc):
        if self._block._empty_prefix:
            return
        self._name_scope.__exit__(*exc)
        self._name_scope = None
        _BlockScope._local.value = self._old_scope


def _array_kinds(args, found=None):
    """The set of {NDArray, Symbol} whose instances occur in ``args`` (lists and tuples
    searched)."""
    found = set() if found is None else found
    for a in args:
        if isinstance(a, NDArray):
            found.add(NDArray)
        elif isinstance(a, Symbol):
            found.add(Symbol)
        elif isinstance(a, (list, tuple)):
            _array_kinds(a, found)
    return found


class _UnnamedParamsFile(MXNetError, AttributeError):
    """A .params file of unnamed arrays given to load_parameters (1.9.1: an AttributeError)."""


def _flatten(args):
    if args is None or isinstance(args, (NDArray, Symbol)):
        return [args], 0
    if not isinstance(args, (list, tuple)):  # ValueError as in 1.9.1, not a TypeError from iter
        raise MXNetValueError(f"When hybridized, the inputs and outputs of a HybridBlock must be "
                              f"(nested) lists of Symbol or NDArray, but got {args!r} of type "
                              f"{type(args)}")
    flat, fmts = [], []
    for a in args:
        f, fmt = _flatten(a)
        flat.extend(f)
        fmts.append(fmt)
    return flat, fmts


def _structure(args):
    """The nesting of call inputs as a tuple tree: 0 for an array, None for None. Trailing
    top-level Nones (defaults left out) are dropped, so f(x) and f(x, None) match, as in
    1.9.1."""
    def walk(a):
        if a is None or isinstance(a, (NDArray, Symbol)):
            return None if a is None else 0
        return tuple(walk(b) for b in a)
    sig = walk(args)
    while sig and sig[-1] is None:
        sig = sig[:-1]
    return sig


def _regroup(flat, fmt):
    if fmt == 0:
        return flat[0], flat[1:]
    out = []
    for f in fmt:
        res, flat = _regroup(flat, f)
        out.append(res)
    return out, flat


class Block:
    """The base of all layers and models: holds child blocks and parameters.

    Subclasses implement ``forward``. Create children inside ``with self.name_scope():``
    so their parameter names carry this block's prefix.
    """

    def __init__(self, prefix=None, params=None):
        self._empty_prefix = prefix == ""
        self._prefix, self._params = _BlockScope.create(prefix, params, self._alias())
        self._name = self._prefix[:-1] if self._prefix.endswith("_") else self._prefix
        self._scope = _BlockScope(self)
        self._children: OrderedDict = OrderedDict()
        self._reg_params: OrderedDict = OrderedDict()
        self._forward_hooks: OrderedDict = OrderedDict()
        self._forward_pre_hooks: OrderedDict = OrderedDict()

    def _alias(self):
        return self.__class__.__name__.lower()

    def __repr__(self):
        body = "\n".join(f"  ({key}): " + repr(block).replace("\n", "\n  ")
                         for key, block in self.__dict__.items() if isinstance(block, Block))
        return f"{self.__class__.__name__}(\n{body}\n)"

    def __setattr__(self, name, value):
        if hasattr(self, "_children"):
            existing = self.__dict__.get(name)
            if isinstance(existing, (Parameter, Block)) and not isinstance(value, type(existing)):
                raise TypeError(f"Changing attribute type for {name} from {type(existing)} to "
                                f"{type(value)} is not allowed.")
            if isinstance(value, Block):
                self.register_child(value, name)
            elif isinstance(value, Parameter):
                if name in self._reg_params:   # as 1.9.1: sharing goes through params=
                    raise MXNetAssertionError(
                        f"Overriding Parameter attribute {name} is not allowed. To share "
                        "parameters between blocks, pass 'params' when constructing the block.")
                self._reg_params[name] = value
        elif isinstance(value, (Block, Parameter)):
            # as 1.9.1: without Block.__init__ (super().__init__() not called) there is no
            # registry to put a child block or a parameter in
            missing = "_children" if isinstance(value, Block) else "_reg_params"
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{missing}' "
                                 f"(did {type(self).__name__}.__init__ call "
                                 "super().__init__()?)")
        super().__setattr__(name, value)

    @property
    def prefix(self):
        return self._prefix

    @property
    def name(self):
        return self._name

    @property
    def params(self):
        """This block's own ParameterDict (children's parameters are not included)."""
        return self._params

    def name_scope(self):
        """A ``with`` block under which children and parameters get this block's prefix."""
        return self._scope

    def register_child(self, block, name=None):
        self._children[name if name is not None else str(len(self._children))] = block

    def register_forward_pre_hook(self, hook):
        handle = HookHandle()
        handle.attach(self._forward_pre_hooks, hook)
        return handle

    def register_forward_hook(self, hook):
        handle = HookHandle()
        handle.attach(self._forward_hooks, hook)
        return handle

    def collect_params(self, select=None):
        """Every parameter of this block and its children (optionally filtered by regex)."""
        self._warn_block_containers()
        ret = ParameterDict(self._params.prefix)
        pattern = re.compile(select) if select else None
        if pattern is None:
            ret.update(self.params)
        else:
            ret.update({n: p for n, p in self.params.items() if pattern.match(n)})
        for child in self._children.values():
            ret.update(child.collect_params(select=select))
        return ret

    def _warn_block_containers(self):
        """Warn about attributes that are plain lists/tuples/dicts holding Blocks: their
        parameters are not collected, as in 1.9.1, which warns the same way."""
        children = {id(c) for c in self._children.values()}

        def holds_block(value):
            if isinstance(value, (list, tuple)):
                return any(holds_block(v) for v in value)
            if isinstance(value, dict):
                return any(holds_block(v) for v in value.values())
            return isinstance(value, Block) and id(value) not in children
        for attr, value in vars(self).items():
            if isinstance(value, (list, tuple, dict)) and not attr.startswith("_") \
                    and holds_block(value):
                warnings.warn(f'"{type(self).__name__}.{attr}" is an unregistered container with '
                              "Blocks: Blocks kept in a plain list, tuple or dict are not "
                              "registered as children, so their parameters are not collected. "
                              "Register them with register_child() or use "
                              "nn.Sequential/nn.HybridSequential.", stacklevel=3)

    def _collect_params_with_prefix(self, prefix=""):
        if prefix:
            prefix += "."
        ret = {prefix + k: v for k, v in self._reg_params.items()}
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def save(self, prefix):
        """Write ``<prefix>-model.json`` (the block tree: names, child keys and any traced
        graphs) and ``<prefix>-model.params`` (``save_parameters``), as 1.9.1 does.

        Blocks are keyed by class name plus a depth-first counter, so ``load`` needs a
        model built the same way, in the same order."""
        import json
        from ..ndarray.serialization import write_file_atomic
        tree = {}
        counter = [0]

        def describe(blk, parent):
            entry = {"orig_name": blk.name}
            parent[type(blk).__name__.lower() + str(counter[0])] = entry
            if isinstance(blk, HybridBlock):
                entry.update(blk._graph_record())
            entry["children"] = {}
            for key, child in blk._children.items():
                counter[0] += 1
                entry["children"][child.name] = key
                describe(child, entry)
        describe(self, tree)
        write_file_atomic(prefix + "-model.json", json.dumps(tree).encode("utf-8"))
        self.save_parameters(prefix + "-model.params")

    def load(self, prefix):
        """Load a model written by ``save`` (here or by 1.9.1) into this block, which must
        have been built with the same classes in the same order: blocks and their
        parameter-dict keys take back their saved names, child keys are restored, traced
        graphs are reinstated (the block is hybridized again), then the parameters load."""
        import json
        with open(prefix + "-model.json") as f:
            tree = json.load(f)
        counter = [0]

        def restore(blk, parent):
            key = type(blk).__name__.lower() + str(counter[0])
            if key not in parent:
                raise MXNetKeyError(f"Block.load: the model file '{prefix}-model.json' has no "
                                    f"entry '{key}' for block {blk.name!r}; the block must be "
                                    f"built with the same structure as the saved one")
            entry = parent[key]
            blk._name = entry["orig_name"]
            if isinstance(blk, HybridBlock) and entry.get("hybridized"):
                blk._restore_graph(entry)
            pd = blk.params
            # keys become <saved block name>_<suffix>; the suffix comes from the parameter's
            # own name, so loading twice into one block gives the same keys again
            renamed = OrderedDict(
                (blk.name + "_" + (v.name if v.name.startswith(pd.prefix) else k)
                 [len(pd.prefix):], v) for k, v in pd._params.items())
            pd._params.clear()
            pd._params.update(renamed)
            for child in blk._children.values():
                counter[0] += 1
                restore(child, entry)
            saved_keys = entry.get("children", {})
            items = list(blk._children.values())
            missing = [c.name for c in items if c.name not in saved_keys]
            if missing:
                raise MXNetKeyError(f"Block.load: children {missing} of block {blk.name!r} "
                                    f"are not in the model file '{prefix}-model.json'")
            blk._children.clear()
            for child in items:
                blk._children[saved_keys[child.name]] = child
        restore(self, tree)
        self.load_parameters(prefix + "-model.params")
        pending = [self]
        while pending:  # graphs are matched to parameters once every name is restored
            blk = pending.pop()
            pending.extend(blk._children.values())
            if "_pending_graph" in blk.__dict__:
                blk._finish_restored_graph()

    def save_parameters(self, filename, deduplicate=False):
        """Save parameters with structural names (``features.0.weight``) in .params format."""
        params = self._collect_params_with_prefix()
        if deduplicate:  # a shared parameter is saved once, under the last name it has
            last = {id(p): k for k, p in params.items()}
            params = {last[id(p)]: p for p in params.values()}
        arrays = {k: p._saved_data() for k, p in params.items()}
        if _util.is_np_array():  # mx.np parameters: NumPy-shape records, as 1.9.1 writes them
            from ..numpy_extension import save as _npx_save
            _npx_save(filename, arrays)
            return
        _nd.save(filename, arrays)

    def load_parameters(self, filename, ctx=None, allow_missing=False, ignore_extra=False,
                        cast_dtype=False, dtype_source="current"):
        """Load parameters saved by ``save_parameters`` (or by 1.9.1's)."""
        loaded = _nd.load(filename)
        params = self._collect_params_with_prefix()
        if not loaded and not params:
            return
        if isinstance(loaded, list):
            # 1.9.1 fails on a list file with an AttributeError ('list' object has no 'keys')
            raise _UnnamedParamsFile(f"load_parameters: '{filename}' holds {len(loaded)} arrays "
                                     f"without names (saved from a list); save a dict of "
                                     f"name -> NDArray, as save_parameters does")
        names = self.collect_params()
        if not any("." in k for k in loaded) and (any(
                k.startswith(("arg:", "aux:")) or k in names or self.prefix + k in names
                for k in loaded) or not set(loaded) & set(params)):
            # a file saved with full parameter names (ParameterDict.save / export), possibly
            # without this block's prefix (ParameterDict.save(strip_prefix=...)): 1.9.1 loads
            # both through ParameterDict.load with restore_prefix=self.prefix (so does a file
            # none of whose names fit: 1.9.1's error then comes from ParameterDict.load)
            self.collect_params().load(filename, ctx, allow_missing, ignore_extra,
                                       self.prefix, cast_dtype=cast_dtype,
                                       dtype_source=dtype_source)
            return
        if not allow_missing:
            aliases = {}  # a shared parameter is present when any of its names is in the file
            for name, p in params.items():
                aliases.setdefault(id(p), []).append(name)
            for name, p in params.items():
                if not any(a in loaded for a in aliases[id(p)]):
                    from .utils import _brief_print_list
                    raise MXNetAssertionError(f"Parameter '{name}' is missing in file '{filename}', which "
                                     f"contains parameters: {_brief_print_list(loaded)}. Set "
                                     "allow_missing=True to ignore missing parameters.")
        for name, arr in loaded.items():
            if name not in params:
                if not ignore_extra:
                    # 1.9.1 lists only this block's own ParameterDict (often empty), not its children
                    from .utils import _brief_print_list
                    raise MXNetValueError(f"Parameter '{name}' loaded from file '{filename}' is not "
                                          "present in ParameterDict, which contains parameters "
                                          f"{_brief_print_list(self._params.keys())}. Set "
                                          "ignore_extra=True to ignore. ")
                continue
            p = params[name]
            p._load_init(arr, ctx if ctx is not None or p._deferred_init or p._data is not None
                         else cpu(), cast_dtype, dtype_source)

    def save_params(self, filename):
        """Deprecated (as in 1.9.1): the ParameterDict names without this block's prefix."""
        warnings.warn("save_params is deprecated. Please use save_parameters. Note that if you "
                      "want load from SymbolBlock later, please use export instead. For details, "
                      "see https://mxnet.apache.org/tutorials/gluon/save_load_params.html",
                      stacklevel=2)
        try:
            self.collect_params().save(filename, strip_prefix=self.prefix)
        except ValueError as err:
            raise MXNetValueError(f"{err}\nsave_params is deprecated; save_parameters does not "
                                  "need the parameter names to start with the block's "
                                  "prefix.") from None

    def load_params(self, filename, ctx=None, allow_missing=False, ignore_extra=False):
        """Deprecated (as in 1.9.1): ``load_parameters``."""
        warnings.warn("load_params is deprecated. Please use load_parameters.", stacklevel=2)
        self.load_parameters(filename, ctx, allow_missing, ignore_extra)

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        """Initialise every parameter (deferred until the first forward when shapes are unknown)."""
        self.collect_params().initialize(init, ctx, verbose, force_reinit)

    def hybridize(self, active=True, **kwargs):
        for child in self._children.values():
            child.hybridize(active, **kwargs)

    def register_op_hook(self, callback, monitor_all=False):
        """Install ``callback(name, op_name, array)`` on every child (recursively): a
        hybridized block calls it on each operator of its graph (see HybridBlock's)."""
        for child in self._children.values():
            child.register_op_hook(callback, monitor_all)

    def cast(self, dtype):
        for child in self._children.values():
            child.cast(dtype)
        for p in self._reg_params.values():
            p.cast(dtype)

    def apply(self, fn):
        """Call ``fn(block)`` on every child recursively, then on self."""
        for child in self._children.values():
            child.apply(fn)
        fn(self)
        return self

    def zero_grad(self):
        self.collect_params().zero_grad()

    def reset_ctx(self, ctx):
        self.collect_params().reset_ctx(ctx)

    def __call__(self, *args):
        for hook in self._forward_pre_hooks.values():
            hook(self, args)
        out = self.forward(*args)
        for hook in self._forward_hooks.values():
            hook(self, args, out)
        return out

    def forward(self, *args):
        raise NotImplementedError

    def summary(self, *inputs):
        """Run ``inputs`` through the block and print, in 1.9.1's layout, one row per leaf
        or custom block (containers ``Sequential``/``HybridSequential`` are skipped) with its
        output shape and parameter count, then totals: parameters counted once per use,
        trainable and non-trainable ones, and how many are repeats of a shared parameter.
        The block must not be hybridized (AssertionError, as 1.9.1)."""
        from .nn import HybridSequential, Sequential
        rows = [("Input", _shape_str(inputs), 0)]
        seen = set()
        counts = {"total": 0, "trainable": 0, "shared": 0}

        def hook(block, _args, out):
            n = 0
            for p in block._reg_params.values():
                size = int(_prod(p.shape)) if p.shape else 0
                n += size
                counts["total"] += size
                if p.grad_req != "null":
                    counts["trainable"] += size
                if id(p) in seen:
                    counts["shared"] += size
                seen.add(id(p))
            rows.append((f"{block.__class__.__name__}-{len(rows)}", _shape_str(out), n))

        handles = []

        def register(block):
            if isinstance(block, HybridBlock) and block._active:
                raise AssertionError(f'"{block.name}" must not be hybridized to print summary.')
            if not isinstance(block, (Sequential, HybridSequential)):
                # a fresh function per visit: hooks are kept by id, and a block reached twice
                # (one layer added twice) reports twice, as in 1.9.1
                handles.append(block.register_forward_hook(lambda b, a, o: hook(b, a, o)))
        try:
            self.apply(register)
            self(*inputs)
        finally:
            for h in handles:
                h.detach()
        fmt = "{:>20}  {:>42} {:>15}"
        print("-" * 80)
        print(fmt.format("Layer (type)", "Output Shape", "Param #"))
        print("=" * 80)
        for name, shape, n in rows:
            print(fmt.format(name, shape, n))
        print("=" * 80)
        print("Parameters in forward computation graph, duplicate included")
        print(f"   Total params: {counts['total']}")
        print(f"   Trainable params: {counts['trainable']}")
        print(f"   Non-trainable params: {counts['total'] - counts['trainable']}")
        print(f"Shared params in forward computation graph: {counts['shared']}")
        print(f"Unique parameters in model: {counts['total'] - counts['shared']}")
        print("-" * 80)


def _shape_str(value):
    """Shapes of a (nested) output for :meth:`Block.summary`: arrays become their shape
    tuples, nested lists/tuples become lists, and the outermost brackets are dropped."""
    def shapes(v):
        if isinstance(v, (list, tuple)):
            return [shapes(x) for x in v]
        return v.shape if hasattr(v, "shape") else v
    res = shapes(value)
    return str(res)[1:-1] if isinstance(res, list) else str(res)


def _prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class HookHandle:
    """What ``register_forward_hook`` / ``register_forward_pre_hook`` return: ``detach()``
    (or leaving a ``with`` block) unregisters the hook. As in 1.9.1, hooks are kept by
    ``id(hook)``: registering one function twice on a block keeps it once."""

    def __init__(self):
        self._table, self._id = None, None

    def attach(self, hooks_dict, hook):
        if self._table is not None:
            raise MXNetAssertionError("HookHandle.attach: this handle is already attached; "
                                      "a handle attaches one hook once")
        self._table, self._id = hooks_dict, id(hook)
        hooks_dict[self._id] = hook

    def detach(self):
        if self._table is not None:
            self._table.pop(self._id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.detach()


_TRACE = threading.local()   # .vars: {id(parameter): (parameter, variable)} of a trace


class _one_var_per_param:
    """While a block is traced into a Symbol, a parameter used several times (a cell
    unrolled over steps) is one variable node, as in 1.9.1, whose ``Parameter.var()``
    hands out one kept variable: the exported graph has one node per parameter. Nested
    symbolic calls share the outermost trace's variables."""

    def __init__(self, kept=False):
        # kept: a block called directly on Symbols (not a hybridize trace) uses each
        # parameter's kept variable, so calls made one after another (a shared layer, a cell
        # stepped by unroll) refer to one node, as 1.9.1's Parameter.var() does
        self.kept = kept

    def __enter__(self):
        self.outer = getattr(_TRACE, "vars", None) is not None
        if not self.outer:
            _TRACE.vars = {}
            _TRACE.kept = self.kept

    def __exit__(self, *exc):
        if not self.outer:
            # 1.9.1 keeps one variable per parameter for good, so the version counts of
            # mutated inputs (BatchNorm's moving stats) add up over traces; carry them over
            for p, v in _TRACE.vars.values():
                p._var_version = v._outputs[0][0].version
            _TRACE.vars = None


class HybridBlock(Block):
    """A block whose ``hybrid_forward(F, x, ...)`` works with both mx.nd and mx.sym.

    After ``hybridize()`` calls trace the block once into a Symbol and run that graph
    (like MXNet's CachedOp), instead of re-running Python layer code: one compiled
    :class:`~mxnet.executor.program.GraphProgram` per input signature runs the operators
    over buffers it keeps from call to call. Under ``autograd.record()`` the whole call is
    one tape node whose backward runs the gradient graph built once from the registry's
    rules (higher-order gradients fall back to the per-operator rules).
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix, params)
        self._active = False
        self._flags = {}
        self._cached = None
        self._callback = None
        self._monitor_all = False

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if isinstance(value, Block):
            if getattr(self, "_cached", None) is not None:
                self._cached = None
            self.__dict__.pop("_traced", None)
        elif name == "_cached" and value is None:
            # the traced Symbol graph goes with the cached one (hybridize, cast, children)
            self.__dict__.pop("_traced", None)

    def register_child(self, block, name=None):
        if not isinstance(block, HybridBlock):
            raise ValueError(f"Children of HybridBlock must also be HybridBlock, but {block} has "
                             f"type {type(block)}. If you are using Sequential, please try "
                             "HybridSequential instead.")
        super().register_child(block, name)
        self._cached = None

    def hybridize(self, active=True, static_alloc=False, static_shape=False, **kwargs):
        """Trace to a Symbol at the next call and run the graph from then on."""
        if active and (self._forward_hooks or self._forward_pre_hooks):
            warnings.warn(f'"{self}" is hybridized with forward hooks or pre-hooks registered; '
                          "when it runs inside a hybridized parent HybridBlock, its hooks are "
                          "not called.", stacklevel=2)
        self._active = active
        self._flags = {"static_alloc": static_alloc, "static_shape": static_shape, **kwargs}
        self._cached = None
        super().hybridize(active, static_alloc=static_alloc, static_shape=static_shape, **kwargs)

    def register_op_hook(self, callback, monitor_all=False):
        """Have every call of the hybridized graph call ``callback(name, op_name, array)``
        on each operator's outputs, and with ``monitor_all`` first on its inputs, named as
        1.9.1 names them (``monitoring.hook_labels``; names and op names as ``bytes``; the
        array is an NDArray where 1.9.1 passes a raw handle). As in 1.9.1, this block and
        its direct children get the hook, and a block that is not hybridized calls
        nothing."""
        self._callback = callback
        self._monitor_all = monitor_all
        for child in self._children.values():
            child._callback = callback
            child._monitor_all = monitor_all

    def optimize_for(self, x, *args, backend=None, clear=False, static_alloc=False,
                     static_shape=False, inline_limit=2, forward_bulk_size=None,
                     backward_bulk_size=None, **kwargs):
        """Hybridize and run one forward pass for a graph-partitioning ``backend``. This
        implementation has no partitioning backends: the graph runs unpartitioned (1.9.1
        also runs it unchanged, after logging an error, when the backend is unknown)."""
        if backend is None:
            raise MXNetValueError('optimize_for: Must specify "backend" to optimize_for')
        if backend not in ("MKLDNN", "MKLDNN_QUANTIZE"):
            warnings.warn(f"optimize_for: backend {backend!r} cannot be found; the graph runs "
                          "unpartitioned", stacklevel=2)
        self.hybridize(True, static_alloc=static_alloc, static_shape=static_shape)
        self(x, *args)

    def cast(self, dtype):
        self._cached = None
        super().cast(dtype)

    # a block whose traced graph depends on parameter shapes (the RNN layers) sets this: a
    # graph traced while some shape was unknown is traced once more when all are known
    _retrace_with_known_shapes = False

    def _retrace_wanted(self):
        """Whether this block or a descendant wants the retrace above; 1.9.1 traces once, so
        other blocks are not traced again (a print in hybrid_forward shows once)."""
        stack = [self]
        while stack:
            blk = stack.pop()
            if getattr(blk, "_retrace_with_known_shapes", False):
                return True
            stack.extend(blk._children.values())
        return False

    def _clear_cached_op(self):
        """Drop the traced graph so the next call traces again (1.9.1's private method, which
        libraries call after changing what ``hybrid_forward`` reads)."""
        self._cached = None

    # -- tracing -------------------------------------------------------------------------------
    def _get_graph(self, *args):
        """Trace ``hybrid_forward`` on Symbols. As 1.9.1, the graph is traced once and kept
        (infer_shape, infer_type and the hybridized call share it) until hybridize(),
        cast() or a new child drops it; a call of another structure traces anew."""
        flat, fmt = _flatten(args)
        key = (repr(fmt), tuple(a is None for a in flat), _util.is_np_array())
        memo = self.__dict__.get("_traced")
        if memo is not None and memo[0] == key:
            return memo[1]
        params = list(self.collect_params().values())
        versions = [(p, getattr(p, "_var_version", 0)) for p in params]
        counts = dict(_control_flow._subgraph_counts)
        res = self._trace_graph(flat, fmt)
        # traced while some parameter shape was unknown (see _call_cached_op)
        blind = not all(_shape_known(p.shape) for p in params)
        # versions: the parameters' variable versions before this trace (see __exit__ of
        # _one_var_per_param), for a retrace that replaces it
        # counts: the control-flow subgraph name counters before it, for the same reason
        self.__dict__["_traced"] = (key, res, blind, versions, counts)
        return res

    def _trace_graph(self, flat, fmt):
        # as 1.9.1: None arguments get no variable and no number; one real argument is "data"
        real = [a is not None for a in flat]
        if sum(real) <= 1:
            inputs = [_sym.var("data") if r else None for r in real]
        else:
            names = iter(range(len(flat)))
            inputs = [_sym.var(f"data{next(names)}") if r else None for r in real]
        if _util.is_np_array():  # NumPy-mode blocks trace with mx.sym.np symbols
            inputs = [None if i is None else i.as_np_ndarray() for i in inputs]
        grouped, _ = _regroup(list(inputs), fmt)
        inputs = [i for i in inputs if i is not None]
        with _one_var_per_param():
            params = self._sym_params()
            with self.name_scope():
                out = self.hybrid_forward(_sym, *grouped, **params)
        out_flat, out_fmt = _flatten(out)
        if any(o is None for o in out_flat):  # a TypeError in 1.9.1 (from Group)
            raise MXNetTypeError(f"{type(self).__name__} {self.name!r}: hybrid_forward returned "
                                 f"{out!r}; expected a list of symbols (a Symbol or NDArray, or a "
                                 f"(nested) list of them)")
        return inputs, _sym.Group(out_flat) if len(out_flat) > 1 else out_flat[0], out_fmt

    def _sym_params(self):
        cache = getattr(_TRACE, "vars", None)
        if cache is None:
            params = {name: p._new_var() for name, p in self._reg_params.items()}
        else:   # one variable node per parameter within a trace (see _one_var_per_param)
            params = {}
            for name, p in self._reg_params.items():
                hit = cache.get(id(p))
                if hit is None:
                    if getattr(_TRACE, "kept", False):
                        v = p.var()   # the parameter's kept variable (made once)
                    else:
                        v = p._new_var()
                        v._outputs[0][0].version = getattr(p, "_var_version", 0)
                    hit = cache[id(p)] = (p, v)
                params[name] = hit[1]
        if _util.is_np_array():
            params = {name: v.as_np_ndarray() for name, v in params.items()}
        return params

    def _infer_attrs(self, infer_fn, attr, *args):
        inputs, out, _ = self._get_graph(*args)
        flat, _ = _flatten(args)
        flat = [a for a in flat if a is not None]
        known = {i.name: getattr(a, attr) for i, a in zip(inputs, flat)}
        given = dict(known)
        if attr == "shape":
            # parameters whose shapes are already known (an earlier infer_shape) tell them,
            # as a variable traced earlier may still carry its unknown dimensions
            names = set(out.list_inputs())
            known.update((p.name, p.shape) for p in self.collect_params().values()
                         if p.name in names and p.name not in known and _shape_known(p.shape))
        with warnings.catch_warnings(record=True) as caught:  # the reason goes in the error
            warnings.simplefilter("always")
            if len(known) == len(given):
                arg_vals, _, aux_vals = getattr(out, infer_fn)(**known)
            else:
                # a failure prints the arguments, as 1.9.1 does: only the block's inputs
                printed = io.StringIO()
                try:
                    with contextlib.redirect_stdout(printed):
                        arg_vals, _, aux_vals = getattr(out, infer_fn)(**known)
                except MXNetError:
                    _print_infer_arguments(infer_fn, (), given)
                    raise
                finally:
                    if "error. Arguments:" not in printed.getvalue():
                        print(printed.getvalue(), end="")
        if arg_vals is None:
            why = f" {caught[0].message}" if caught else ""
            raise MXNetError(f"{self.name}: cannot infer {attr}s of the parameters from inputs "
                             f"{known}.{why}")
        for w in caught:  # anything else is re-issued
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        names = dict(zip(out.list_arguments(), arg_vals))
        names.update(zip(out.list_auxiliary_states(), aux_vals))
        for p in self.collect_params().values():
            if p.name in names:
                if attr == "shape":
                    p.shape = names[p.name]
                else:
                    p.dtype = names[p.name]

    def infer_shape(self, *args):
        """Infer and set the shapes of every parameter from input arrays."""
        self._infer_attrs("infer_shape", "shape", *args)

    def infer_type(self, *args):
        self._infer_attrs("infer_type", "dtype", *args)

    def _deferred_infer_shape(self, *args):
        try:
            self.infer_shape(*args)
        except Exception as e:  # noqa: BLE001 - 1.9.1 turns any failure here into a ValueError
            raise MXNetValueError(f"Deferred initialization failed because shape cannot be inferred: "
                             f"{e}") from None

    def _finish_params(self, *args):
        params = self.collect_params().values()
        if any(p._data is None and p._deferred_init for p in params):
            self._deferred_infer_shape(*args)
            pending = [p for p in params if p._data is None and p._deferred_init]
            unknown = [p.name for p in pending
                       if not isinstance(p, Constant) and not _shape_known(p.shape)]
            if unknown:
                # a parameter the graph never uses keeps its unknown shape: a ValueError
                # before any parameter is initialized, as 1.9.1 raises
                raise MXNetValueError("Deferred initialization failed because shape cannot be "
                                      f"inferred: the shapes of {unknown} stay unknown (are "
                                      "they used by the traced graph?)")
            for p in pending:
                p._finish_deferred_init()

    # -- running ---------------------------------------------------------------------------------
    def forward(self, x, *args):
        # one array input (the common call) needs no scan
        kinds = _array_kinds((x,) + args) if args or type(x) is not NDArray else (NDArray,)
        if len(kinds) == 2:
            raise MXNetValueError(f"HybridBlock {self.name}: the inputs mix NDArrays and Symbols; "
                                  "pass only NDArrays (to compute) or only Symbols (to trace)")
        if not kinds:
            raise MXNetValueError("In HybridBlock, there must be one NDArray or one Symbol in the "
                                  "input. Please check the type of the args.")
        if isinstance(x, Symbol):
            with _one_var_per_param(kept=True):
                params = self._sym_params()
                with self.name_scope():
                    return self.hybrid_forward(_sym, x, *args, **params)
        if self._active:
            return self._call_cached_op(x, *args)
        ctx = x.context if isinstance(x, NDArray) else None
        try:
            params = {name: p.data(ctx) for name, p in self._reg_params.items()}
        except DeferredInitializationError:
            self._finish_params(x, *args)
            params = {name: p.data(ctx) for name, p in self._reg_params.items()}
        return self.hybrid_forward(_nd, x, *args, **params)

    def _build_cache(self, *args):
        inputs, out, out_fmt = self._get_graph(*args)
        order = topo_order(out._outputs)
        all_params = {p.name: p for p in self.collect_params().values()}
        input_names = [i.name for i in inputs]
        missing = [n.name for n in order if n.op is None and n.name not in all_params
                   and n.name not in input_names]
        if missing:
            # an AssertionError too, as 1.9.1 raises
            raise MXNetAssertionError(f"{self.name}: the traced graph uses variables {missing} "
                                      "that are neither inputs nor parameters of the block")
        used = {n.name for n in order if n.op is None}
        # as 1.9.1: one warning listing the unused inputs by their index among the
        # (flattened, non-None) inputs, then one listing the unused parameters
        idle = [f"{i}-th" for i, n in enumerate(input_names) if n not in used]
        if idle:
            warnings.warn(f"The {', '.join(idle)} input to HybridBlock is not used by any "
                          "computation. Is this intended?", stacklevel=5)
        idle = [name for name in all_params if name not in used]
        if idle:   # often a layer left out of hybrid_forward; one warning, as 1.9.1
            warnings.warn(f"Parameter {', '.join(idle)} is not used by any computation. "
                          "Is this intended?", stacklevel=5)
        self._cached = (order, out._outputs, input_names, all_params, out_fmt)
        self._in_format = _flatten(args)[1]
        self._in_sig = (self._cached, _structure(args))

    def _call_plan(self):
        """What every call of the cached graph needs, derived once from the cache: the
        parameters in input order and the compiled programs (one per input signature)."""
        cp = self.__dict__.get("_cached_call")
        if cp is None or cp[0] is not self._cached:
            order, heads, input_names, params, out_fmt = self._cached
            # a parameter used at several places is one input (its variable nodes repeat)
            pnames = list(dict.fromkeys(n.name for n in order
                                        if n.op is None and n.name not in input_names))
            pos = {n: i for i, n in enumerate(input_names)}
            pos.update((n, len(input_names) + i) for i, n in enumerate(pnames))
            var_pos = {id(node): pos[node.name] for node in order if node.op is None}
            self._programs = {}
            cp = self._cached_call = (self._cached, [params[n] for n in pnames], var_pos,
                                      self._programs)
        return cp

    def _call_cached_op(self, *args):
        if self._cached is None:
            # as 1.9.1: trace (and warn about unused inputs/parameters) first; deferred
            # parameters are initialized below, when a parameter the graph uses needs it
            self._build_cache(*args)
        cached, plist, var_pos, programs = self._call_plan()
        order, heads, input_names, _, out_fmt = cached
        flat_call = all(type(a) is NDArray for a in args)
        if flat_call:
            flat = list(args)
        else:
            flat, _ = _flatten(args)
            flat = [a for a in flat if a is not None]
        in_sig = self.__dict__.get("_in_sig")
        if in_sig is not None and in_sig[0] is cached and in_sig[1] != (
                (0,) * len(args) if flat_call else _structure(args)):
            # 1.9.1 also refuses a call whose nesting differs from the traced one
            raise MXNetValueError(f"{type(self).__name__} {self.name!r}: the argument structure "
                                  f"{_structure(args)} (0: array) does not match the one the "
                                  f"graph was traced with, {in_sig[1]}")
        if len(flat) != len(input_names):
            raise MXNetValueError(f"{type(self).__name__} {self.name!r}: the argument structure "
                                  f"does not match the cached graph, which takes "
                                  f"{len(input_names)} inputs {input_names}; got {len(flat)}")
        ctx = flat[0]._ctx
        try:
            arrays = flat + [p.data(ctx) for p in plist]
        except DeferredInitializationError:
            memo = self.__dict__.get("_traced")
            traced_unknown = memo is not None and memo[2]
            try:
                self._finish_params(*args)
            except MXNetError:
                self._cached = None   # the next call traces again (and warns again), as 1.9.1
                raise
            if traced_unknown and self._retrace_wanted():
                # with every shape known, trace once more (quietly: the warnings came with
                # the first trace): the RNN layers build 1.9.1's graph (flattened pieces)
                # only then; 1.9.1 traced once, so the variable versions restart
                for p, v in memo[3]:
                    p._var_version = v
                _control_flow._subgraph_counts.clear()
                _control_flow._subgraph_counts.update(memo[4])
                self._cached = None
                # (and silently: what hybrid_forward prints showed with the first trace)
                with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                    warnings.simplefilter("ignore")
                    self._build_cache(*args)
                cached, plist, var_pos, programs = self._call_plan()
                order, heads, input_names, _, out_fmt = cached
            arrays = flat + [p.data(ctx) for p in plist]
        key = (ctx,) + tuple((a._data.shape, a._data.dtype) for a in flat)
        prog = programs.get(key)
        if prog is None:
            if len(programs) >= _MAX_PROGRAMS:
                programs.pop(next(iter(programs)))
            prog = programs[key] = GraphProgram(order, heads, var_pos, ctx)
            if self._flags.get("static_alloc") and self._flags.get("static_shape"):
                prog.states = {}   # 1.9.1 keeps a Custom op's CustomOp across static calls
        hook = None
        callback = getattr(self, "_callback", None)
        if callback:
            if len(self._flags) >= 2:   # 1.9.1 warns whenever hybridize() set the flags
                warnings.warn("register_op_hook: the hook of a hybridized block is "
                              "experimental with static_alloc / static_shape and may miss "
                              "operators", stacklevel=3)
            from ..executor.monitoring import OpHook
            hook = OpHook(order, heads, var_pos, callback, self._monitor_all, ctx,
                          bool(self._flags.get("static_alloc")))
        outs = run_program(prog, arrays, ctx, hook)
        cls = flat[0].__class__
        # mx.np inputs give mx.np outputs (same layout: retag); a sparse input's are dense
        if cls is not NDArray and flat[0].stype == "default":
            for o in outs:
                o.__class__ = cls
        if out_fmt == 0:
            return outs[0]
        result, _ = _regroup(outs, out_fmt)
        return result

    def _graph_record(self):
        """The traced graph as ``Block.save`` writes it (1.9.1's keys and order)."""
        if self._cached is None:
            return {"hybridized": False}
        _, heads, input_names, _, out_fmt = self._cached
        return {"in_format": getattr(self, "_in_format", [0] * len(input_names)),
                "out_format": out_fmt,
                "inputs": [_sym.var(n).tojson() for n in input_names],
                "symbol": Symbol(heads).tojson(), "hybridized": True}

    def _restore_graph(self, entry):
        """Reinstate a graph read by ``Block.load``; its variables are matched to the
        parameters by their (restored) keys once the whole tree is renamed."""
        self._in_format = entry["in_format"]
        out = _sym.load_json(entry["symbol"])
        names = [_sym.load_json(j).name for j in entry["inputs"]]
        self._active = True
        self._pending_graph = (out, names, entry["out_format"])

    def _finish_restored_graph(self):
        out, input_names, out_fmt = self.__dict__.pop("_pending_graph")
        order = topo_order(out._outputs)
        collected = self.collect_params()
        keyed = {p.name: p for p in collected.values()}  # a graph traced after a load
        keyed.update(collected.items())
        params = {}
        for n in order:
            if n.op is None and n.name not in input_names:
                if n.name not in keyed:
                    raise MXNetKeyError(f"Block.load: the saved graph of {self.name!r} uses "
                                        f"variable {n.name!r}, which is neither an input nor a "
                                        "parameter of the block")
                params[n.name] = keyed[n.name]
        self._cached = (order, out._outputs, input_names, params, out_fmt)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError

    def export(self, path, epoch=0, remove_amp_cast=True):
        """Write ``path-symbol.json`` and ``path-%04d.params`` (``arg:``/``aux:`` keys)."""
        if self._cached is None:
            raise MXNetError("Please first call block.hybridize() and then run forward with this "
                             "block at least once before calling export.")
        order, heads, input_names, params, _ = self._cached
        sym = Symbol(heads)
        sym.save(f"{path}-symbol.json", remove_amp_cast=remove_amp_cast)
        arg_names = set(sym.list_arguments())
        aux_names = set(sym.list_auxiliary_states())
        arrays = {}
        # records in the graph's input order (1.9.1 writes its cached op's parameter order)
        ordered = [n for n in sym.list_inputs() if n in params]
        seen = set(ordered)
        ordered += [n for n in params if n not in seen]
        for name in ordered:
            p = params[name]
            if name in arg_names:
                arrays[f"arg:{name}"] = p._saved_data()
            elif name in aux_names:
                arrays[f"aux:{name}"] = p._saved_data()
        fname = "%s-%04d.params" % (path, epoch)   # %d as 1.9.1: a float epoch is truncated
        if _util.is_np_array():  # NumPy-shape records, as 1.9.1 writes them
            from ..numpy_extension import save as _npx_save
            _npx_save(fname, arrays)
        else:
            _nd.save(fname, arrays)


def _infer_param_dtypes(inputs, outputs):
    """The dtypes of a graph's arguments and auxiliary states, from its input variables' dtype
    attributes. As 1.9.1, each input is asked in turn (a bare variable warns "Cannot decide
    type ..."), and nothing is inferred (float32 for all) unless every input's dtype is known."""
    known = {}
    for i in inputs:
        t = i.infer_type()[0]
        if not t:
            return {}
        known[i.name] = t[0]
    try:
        arg_types, _, aux_types = outputs.infer_type(**known)
    except Exception:   # noqa: BLE001 -- a graph whose types cannot be inferred keeps float32
        return {}
    if arg_types is None:
        return {}
    names = outputs.list_arguments() + outputs.list_auxiliary_states()
    return {n: t for n, t in zip(names, list(arg_types) + list(aux_types)) if t is not None}


class SymbolBlock(HybridBlock):
    """A block made from a Symbol: its non-input arguments become parameters."""

    def __init__(self, outputs, inputs, params=None):
        super().__init__(prefix="", params=None)
        # as 1.9.1: named from the block counter ("symbolblock0"), yet with an empty prefix
        self._name = _BlockScope.create(None, None, self._alias())[0][:-1]
        self._prefix = ""
        self._params = ParameterDict("")
        if isinstance(inputs, Symbol):
            inputs = [inputs] if len(inputs) == 1 else list(inputs)
        elif not isinstance(inputs, (list, tuple)):
            inputs = [inputs]
        if isinstance(outputs, (list, tuple)):
            outputs = _sym.Group(list(outputs))
        for i in inputs:  # as 1.9.1: inputs are plain variables (an assertion there)
            if not isinstance(i, Symbol):   # a ValueError in 1.9.1, e.g. for a name string
                raise MXNetValueError(f"SymbolBlock: inputs must be (a list of) Symbol "
                                      f"variables, but got {i} of type {type(i)}")
            if len(i) != 1 or i._outputs[0][0].op is not None:
                raise MXNetAssertionError(f"SymbolBlock: input symbols must be variables, but {i} "
                                           "is an output of operators")
        self._sym_inputs = [i.name for i in inputs]
        self._sym_outputs = outputs
        input_set = set(self._sym_inputs)
        aux = set(outputs.list_auxiliary_states())
        # the structural names (save_parameters) drop the characters every parameter name
        # shares, as 1.9.1 does: fc_weight, fc_bias -> weight, bias
        strip = len(os.path.commonprefix([n for n in outputs.list_inputs()
                                          if n not in input_set]))
        dtypes = _infer_param_dtypes(inputs, outputs)
        # as 1.9.1: the arguments first, then the auxiliary states (collect_params order)
        for name in outputs.list_arguments() + outputs.list_auxiliary_states():
            if name in input_set:
                continue
            if params is not None and name in params:
                p = params[name]
            else:
                p = Parameter(name, allow_deferred_init=True, dtype=dtypes.get(name, mx_real_t),
                              grad_req="null" if name in aux else "write")
            self._params._params[name] = p
            self._reg_params[name[strip:]] = p

    def __repr__(self):
        out = self._sym_outputs
        return (f"{self.__class__.__name__}(\n{out!r} : {len(self._sym_inputs)} -> "
                f"{len(out.list_outputs())}\n)")

    def _get_graph(self, *args):
        inputs = [_sym.var(n) for n in self._sym_inputs]
        out = self._sym_outputs
        return inputs, out, (0 if len(out) == 1 else [0] * len(out))

    def forward(self, x, *args):
        if isinstance(x, Symbol):
            return self._sym_outputs(**dict(zip(self._sym_inputs, [x, *args])))
        return self._call_cached_op(x, *args)

    def hybridize(self, active=True, **kwargs):
        # the graph runs either way; as in 1.9.1 hybridize() marks the block hybridized
        # (summary() then refuses it), warns about hooks and rebuilds the graph next call
        super().hybridize(active, **kwargs)

    @staticmethod
    def imports(symbol_file, input_names, param_file=None, ctx=None, allow_missing=False,
                ignore_extra=False):
        """Load a block from ``-symbol.json`` and (optionally) a ``.params`` file."""
        sym = _sym.load(symbol_file)
        if isinstance(input_names, str):
            input_names = [input_names]
        # as 1.9.1: without a parameter file the inputs are typed float32 so that the
        # parameters' dtypes can be inferred; with one, the saved dtypes win
        inputs = [_sym.var(n) if param_file is not None else _sym.var(n, dtype=mx_real_t)
                  for n in input_names]
        block = SymbolBlock(sym, inputs)
        if param_file is not None and len(block.collect_params()):
            block.collect_params().load(param_file, ctx=ctx, allow_missing=allow_missing,
                                        ignore_extra=ignore_extra, cast_dtype=True,
                                        dtype_source="saved")
        return block

