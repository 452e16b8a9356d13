"""Automatic mixed precision: training with loss scaling, and model conversion.

Training: ``init()`` rewraps the operator functions of ``mx.nd`` and ``mx.sym`` so that the
operators on 1.9.1's low-precision list cast their inputs to the target type, those on its
float32 list cast them to float32, and the widest-type operators bring their inputs to one
type. ``init_trainer`` attaches a :class:`LossScaler` to a Gluon Trainer; ``scale_loss``
multiplies the loss by the current scale and makes the Trainer divide the gradients by it;
the Trainer skips steps whose gradients overflowed.

Inference: ``convert_symbol`` rewrites a float32 graph with ``amp_cast`` / ``amp_multicast``
nodes (see ``_reduce_precision``), node for node as 1.9.1 does.
"""
import contextlib
import logging

import numpy as np

from ...base import MXNetAssertionError, MXNetError, MXNetValueError, dtype_code, dtype_np
from . import lists
from ._reduce_precision import reduce_precision
from .loss_scaler import LossScaler

__all__ = ["init", "init_trainer", "scale_loss", "unscale", "convert_model",
           "convert_hybrid_block", "list_lp16_ops", "list_fp32_ops", "list_lp16_fp32_ops",
           "list_conditional_fp32_ops", "list_widest_type_cast", "list_loss_output_functions",
           "list_lp16_use_fp32_params", "convert_symbol", "convert_bucketing_module"]

try:
    from ml_dtypes import bfloat16 as _bf16_type
    bfloat16 = np.dtype(_bf16_type)
except ImportError:  # ml_dtypes is optional (the onnx extra brings it)
    bfloat16 = None

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
# registry-name prefixes that put an operator in a submodule (mx.nd.contrib, ...)
_PREFIXES = ("_contrib_", "_linalg_", "_sparse_", "_image_", "_random_")


# ---------------------------------------------------------------------------------------------
# the op lists

def _which(target_dtype, fn):
    """Validate ``target_dtype`` and return 'fp16' or 'bf16'."""
    if isinstance(target_dtype, str) and target_dtype in ("float16", "bfloat16"):
        kind = "fp16" if target_dtype == "float16" else "bf16"
    else:
        try:
            dt = np.dtype(target_dtype)
        except TypeError:
            dt = None
        if dt == _F16:
            kind = "fp16"
        elif bfloat16 is not None and dt == bfloat16:
            kind = "bf16"
        else:
            raise MXNetAssertionError(f"amp.{fn}: target_dtype={target_dtype!r} is not supported; "
                                      "expected 'float16' or 'bfloat16'")
    return kind


def _bf16(fn):
    """The bfloat16 dtype, which only the ml_dtypes package provides to NumPy."""
    if bfloat16 is None:
        raise MXNetError(f"amp.{fn}: target_dtype='bfloat16' needs the ml_dtypes package "
                         "(pip install ml_dtypes, or mxnet-py's onnx extra)")
    return bfloat16


def list_lp16_ops(target_dtype):
    """Operators that run in the low-precision type (1.9.1's list)."""
    k = _which(target_dtype, "list_lp16_ops")
    return lists.symbol_fp16.FP16_FUNCS if k == "fp16" else lists.symbol_bf16.BF16_FUNCS


def list_fp32_ops(target_dtype):
    """Operators that always run in float32."""
    k = _which(target_dtype, "list_fp32_ops")
    return lists.symbol_fp16.FP32_FUNCS if k == "fp16" else lists.symbol_bf16.FP32_FUNCS


def list_lp16_fp32_ops(target_dtype):
    """Operators that run in whichever precision their inputs have."""
    k = _which(target_dtype, "list_lp16_fp32_ops")
    return lists.symbol_fp16.FP16_FP32_FUNCS if k == "fp16" else lists.symbol_bf16.BF16_FP32_FUNCS


def list_conditional_fp32_ops(target_dtype):
    """(op, parameter, values) triples: the op runs in float32 for those parameter values."""
    k = _which(target_dtype, "list_conditional_fp32_ops")
    mod = lists.symbol_fp16 if k == "fp16" else lists.symbol_bf16
    return mod.CONDITIONAL_FP32_FUNCS


def list_widest_type_cast(target_dtype):
    """Operators whose inputs are brought to the widest type among them."""
    k = _which(target_dtype, "list_widest_type_cast")
    mod = lists.symbol_fp16 if k == "fp16" else lists.symbol_bf16
    return mod.WIDEST_TYPE_CASTS


def list_loss_output_functions(target_dtype):
    """Loss-output operators whose ``grad_scale`` follows the loss scale."""
    k = _which(target_dtype, "list_loss_output_functions")
    mod = lists.symbol_fp16 if k == "fp16" else lists.symbol_bf16
    return mod.LOSS_OUTPUT_FUNCTIONS


def list_lp16_use_fp32_params(target_dtype):
    """For bfloat16: per operator, which inputs stay float32 (None for float16)."""
    k = _which(target_dtype, "list_lp16_use_fp32_params")
    return None if k == "fp16" else lists.symbol_bf16.BF16_USE_FP32_PARAMS


# ---------------------------------------------------------------------------------------------
# init: wrapping mx.nd / mx.sym functions

def _cast_input(x, dtype):
    """Cast an input for a wrapped operator (1.9.1's rules, which differ per device)."""
    from ...ndarray import NDArray
    from ...symbol import Symbol
    from ... import ndarray as nd
    from ... import symbol as sym
    if isinstance(x, Symbol):
        return sym.amp_cast(x, dtype=dtype)
    if isinstance(x, NDArray):
        dt = np.dtype(x.dtype)
        if dt == np.dtype(dtype):
            return x
        # on the CPU only float32 / bfloat16 inputs are cast; elsewhere float16 / float32
        castable = (_F32, bfloat16) if x.context.device_type == "cpu" else (_F16, _F32)
        if dt in castable:
            return nd.amp_cast(x, dtype=dtype)
    return x


def _copy_meta(new, f):
    new.__name__ = getattr(f, "__name__", "op")
    new.__module__ = getattr(f, "__module__", None)
    new.__doc__ = getattr(f, "__doc__", None)
    new.__wrapped__ = f
    return new


def _condition_holds(cond_arg, kwargs):
    return cond_arg is None or (cond_arg[0] in kwargs and kwargs[cond_arg[0]] in cond_arg[1])


def _nd_wrapper(f, dtype, fp32_param=None, cond_arg=None):
    def wrapped(*args, **kwargs):
        if not _condition_holds(cond_arg, kwargs):
            return f(*args, **kwargs)
        if fp32_param:
            args = tuple(x if i < len(fp32_param) and fp32_param[i] else _cast_input(x, dtype)
                         for i, x in enumerate(args))
            kwargs = {k: v if k in fp32_param else _cast_input(v, dtype)
                      for k, v in kwargs.items()}
        else:
            args = tuple(_cast_input(x, dtype) for x in args)
            kwargs = {k: _cast_input(v, dtype) for k, v in kwargs.items()}
        return f(*args, **kwargs)
    return _copy_meta(wrapped, f)


def _sym_wrapper(f, dtype, fp32_param=None, cond_arg=None):
    def wrapped(*args, **kwargs):
        if not _condition_holds(cond_arg, kwargs):
            return f(*args, **kwargs)
        out = f(*args, **kwargs)
        node = out._single_node()
        if node is None or node.op is None:
            return out
        nargs = node.num_args()
        for i, (src, idx) in enumerate(list(node.inputs)):
            if i >= nargs:
                continue  # auxiliary states stay as they are
            if fp32_param and i < len(fp32_param) and fp32_param[i]:
                continue
            from ...symbol import Symbol
            cast = _cast_input(Symbol([(src, idx)]), dtype)
            node.inputs[i] = cast._outputs[0]
            node.versions[i] = 0
        return out
    return _copy_meta(wrapped, f)


def _widest_wrapper(f, target_dtype):
    def wrapped(*args, **kwargs):
        from ...ndarray import NDArray
        from ...symbol import Symbol
        from ... import symbol as sym
        args = list(args)
        found = [(args, i, a) for i, a in enumerate(args) if isinstance(a, (Symbol, NDArray))]
        found += [(kwargs, k, a) for k, a in kwargs.items() if isinstance(a, (Symbol, NDArray))]
        if any(isinstance(a, Symbol) for _, _, a in found):
            casted = sym.amp_multicast(*[a for _, _, a in found], num_outputs=len(found))
            for (holder, key, _), c in zip(found, casted):
                holder[key] = c
        else:
            for (holder, key, _), c in zip(found, _widest_nd([a for _, _, a in found],
                                                             target_dtype)):
                holder[key] = c
        return f(*args, **kwargs)
    return _copy_meta(wrapped, f)


def _widest_nd(arrays, target_dtype):
    """NDArrays in the target type cast to float32 when any of ``arrays`` is float32."""
    from ... import ndarray as nd
    widest = _F32 if any(np.dtype(a.dtype) == _F32 for a in arrays) else np.dtype(target_dtype)
    return [nd.amp_cast(a, dtype=widest)
            if np.dtype(a.dtype) != widest and np.dtype(a.dtype) == np.dtype(target_dtype) else a
            for a in arrays]


# NDArray arithmetic (a - b, a * 2, a ** b): 1.9.1 implements it by calling the mx.nd
# functions by name (broadcast_sub, _minus_scalar, ...), so AMP's casts apply to it as well.
# Here NDArray calls the registry directly; init() routes it through the same casting rules.
_arith = None   # (target dtype, names cast to it, names cast to float32, widest-type names)


def _arith_cast(a, b, name):
    target, lp16, fp32, widest = _arith
    from ...ndarray import NDArray
    if name in widest:
        if isinstance(b, NDArray):
            a, b = _widest_nd([a, b], target)
        return a, b
    dtype = _F32 if name in fp32 else target if name in lp16 else None
    if dtype is None:
        return a, b
    return _cast_input(a, dtype), (_cast_input(b, dtype) if isinstance(b, NDArray) else b)


def _route_arithmetic():
    from ...ndarray import NDArray
    if getattr(NDArray._binary, "_amp_routed", False):
        return
    plain, rplain = NDArray._binary, NDArray._rbinary

    def _binary(self, other, bname, sname):
        if _arith is not None:
            self, other = _arith_cast(self, other, bname if isinstance(other, NDArray) else sname)
        return plain(self, other, bname, sname)

    def _rbinary(self, other, bname, sname):
        if _arith is not None:
            self, other = _arith_cast(self, other, bname if isinstance(other, NDArray) else sname)
        return rplain(self, other, bname, sname)

    _binary._amp_routed = _rbinary._amp_routed = True
    NDArray._binary, NDArray._rbinary = _binary, _rbinary


def _locate(name, module):
    """(function name, namespace) of registry op ``name`` in mx.nd or mx.sym."""
    for prefix in _PREFIXES:
        if name.startswith(prefix):
            if prefix != "_random_" or name.endswith("_like"):
                return name[len(prefix):], getattr(module, prefix[1:-1], None)
            return name, getattr(module, "_internal", None)
    if name.startswith("_"):
        return name, getattr(module, "_internal", None)
    return name, module


def _wrap_one(module, name, make):
    fname, ns = _locate(name, module)
    f = getattr(ns, fname, None) if ns is not None else None
    if f is None:
        logging.debug("AMP: %s has no function %s; not wrapped", module.__name__, name)
        return
    new = make(f)
    setattr(ns, fname, new)
    if ns is module and hasattr(module, "op"):
        setattr(module.op, fname, new)


def _wrap_module(module, target_dtype, target_precision_ops, conditional_fp32_ops, fp32_ops,
                 is_symbol):
    wrapper = _sym_wrapper if is_symbol else _nd_wrapper
    fp32_params = list_lp16_use_fp32_params(target_dtype)
    for name in (target_precision_ops if target_precision_ops is not None
                 else list_lp16_ops(target_dtype)):
        fp32_param = fp32_params.get(name) if fp32_params else None
        _wrap_one(module, name, lambda f, p=fp32_param: wrapper(f, target_dtype, fp32_param=p))
    for name in fp32_ops if fp32_ops is not None else list_fp32_ops(target_dtype):
        _wrap_one(module, name, lambda f: wrapper(f, _F32))
    conds = conditional_fp32_ops if conditional_fp32_ops is not None \
        else list_conditional_fp32_ops(target_dtype)
    for name, arg, values in conds:
        _wrap_one(module, name, lambda f, c=(arg, values): wrapper(f, _F32, cond_arg=c))
    for name in list_widest_type_cast(target_dtype):
        _wrap_one(module, name, lambda f: _widest_wrapper(f, target_dtype))


def _wrap_loss_outputs(module, scaler, target_dtype, is_symbol):
    for name in list_loss_output_functions(target_dtype):
        f = getattr(module, name, None)
        if f is None:
            continue
        if is_symbol:
            def wrapped(*args, _f=f, **kwargs):
                logging.warning("%s does not support dynamic loss scaling in symbolic and "
                                "hybridized execution.", _f.__name__)
                return _f(*args, **kwargs)
        else:
            def wrapped(*args, _f=f, **kwargs):
                kwargs["grad_scale"] = kwargs.get("grad_scale", 1.0) * scaler.loss_scale
                return _f(*args, **kwargs)
        setattr(module, name, _copy_meta(wrapped, f))


_amp_initialized = False
_amp_loss_scale_initialized = False
_loss_scaler = None


def init(target_dtype="float16", target_precision_ops=None, conditional_fp32_ops=None,
         fp32_ops=None):
    """Turn on AMP for models built afterwards (call it before creating the model).

    ``target_dtype`` is 'float16' or 'bfloat16'. The three lists override 1.9.1's defaults:
    operators cast to the target type, (op, parameter, values) triples cast to float32 for
    those values, and operators always cast to float32. A second call does nothing.
    """
    global _amp_initialized, _loss_scaler
    if _amp_initialized:
        return
    kind = _which(target_dtype, "init")
    target = _F16 if kind == "fp16" else _bf16("init")
    from ... import ndarray, symbol
    _amp_initialized = True
    logging.info("Using AMP")
    _wrap_module(symbol, target, target_precision_ops, conditional_fp32_ops, fp32_ops, True)
    _wrap_module(ndarray, target, target_precision_ops, conditional_fp32_ops, fp32_ops, False)
    global _arith
    _arith = (target,
              frozenset(target_precision_ops if target_precision_ops is not None
                        else list_lp16_ops(target_dtype)),
              frozenset(fp32_ops if fp32_ops is not None else list_fp32_ops(target_dtype)),
              frozenset(list_widest_type_cast(target_dtype)))
    _route_arithmetic()
    _loss_scaler = LossScaler()
    _wrap_loss_outputs(ndarray, _loss_scaler, target, False)
    _wrap_loss_outputs(symbol, _loss_scaler, target, True)


def _check_trainer(obj, fn):
    from ...gluon.trainer import Trainer
    from ...optimizer import Optimizer
    if isinstance(obj, Trainer):
        return obj
    if isinstance(obj, Optimizer):
        raise TypeError("AMP is currently only compatible with Gluon Trainer")
    raise TypeError(f"amp.{fn}: optimizer_or_trainer should be a Gluon Trainer or an optimizer, "
                    f"instead is {type(obj)}")


def init_trainer(optimizer_or_trainer):
    """Attach a dynamic loss scaler to a Gluon Trainer (after ``init``).

    The Trainer then skips every step whose gradients contain inf or NaN.
    """
    global _amp_loss_scale_initialized
    if not _amp_initialized:
        raise MXNetAssertionError("amp.init_trainer: AMP not initialized, did you forget to call "
                                  "amp.init()?")
    trainer = _check_trainer(optimizer_or_trainer, "init_trainer")
    if not _amp_loss_scale_initialized:
        _amp_loss_scale_initialized = True
        scaler = _loss_scaler
    else:
        scaler = LossScaler()
    trainer._amp_loss_scaler = scaler
    trainer._amp_original_scale = trainer._scale


@contextlib.contextmanager
def scale_loss(loss, optimizer_or_trainer):
    """Yield the loss (or list of losses) multiplied by the current loss scale.

    Call ``backward`` on what it yields; the Trainer divides the gradients by the same scale.
    """
    scaler = getattr(optimizer_or_trainer, "_amp_loss_scaler", None)
    if scaler is None:
        raise MXNetAssertionError("amp.scale_loss: loss scaler is not initialized, did you forget to call "
                                  "amp.init_trainer()?")
    optimizer_or_trainer._scale = optimizer_or_trainer._amp_original_scale / scaler.loss_scale
    if isinstance(loss, (list, tuple)):
        yield [item * scaler.loss_scale for item in loss]
    else:
        yield scaler.loss_scale * loss


def unscale(optimizer_or_trainer):
    """Divide the gradients by the loss scale now (e.g. before clipping them)."""
    trainer = _check_trainer(optimizer_or_trainer, "unscale")
    for p in trainer._params:
        if p.grad_req == "null" or p._data is None:
            continue
        for g in p.list_grad():
            g[:] *= trainer._scale
    trainer._scale = 1.0


# ---------------------------------------------------------------------------------------------
# conversion for inference

def _check_list(value, what, fn):
    if value is not None and not isinstance(value, list):
        raise MXNetAssertionError(f"amp.{fn}: {what} should be a list, got {type(value).__name__}")


def convert_symbol(sym, target_dtype="float16", target_dtype_ops=None, fp32_ops=None,
                   conditional_fp32_ops=None, excluded_sym_names=None, data_names=None,
                   cast_optional_params=False):
    """A copy of float32 graph ``sym`` with amp_cast / amp_multicast nodes for mixed precision.

    The op lists default to 1.9.1's for ``target_dtype`` ('float16' or 'bfloat16');
    ``excluded_sym_names`` name nodes kept in float32. ``data_names`` are the inputs that
    receive data (default: the inputs without a ``__dtype__`` attribute); when given, the
    other inputs (the parameters) get a ``__dtype__`` attribute with their type in the new
    graph. With ``cast_optional_params`` parameters feeding low-precision operators are not
    cast in the graph: the caller stores them in the low-precision type instead.
    """
    from ...symbol import Symbol
    if not isinstance(sym, Symbol):
        raise MXNetAssertionError(f"amp.convert_symbol: first argument should be a Symbol, got "
                                  f"{type(sym).__name__}")
    if target_dtype not in ("float16", "bfloat16"):
        raise MXNetAssertionError(f"amp.convert_symbol: target_dtype={target_dtype!r}; only 'float16' and "
                                  "'bfloat16' are supported")
    target = _F16 if target_dtype == "float16" else _bf16("convert_symbol")
    _check_list(target_dtype_ops, "target_dtype_ops", "convert_symbol")
    _check_list(fp32_ops, "fp32_ops", "convert_symbol")
    _check_list(conditional_fp32_ops, "conditional_fp32_ops", "convert_symbol")
    _check_list(excluded_sym_names, "excluded_sym_names", "convert_symbol")
    target_dtype_ops = list_lp16_ops(target) if target_dtype_ops is None else target_dtype_ops
    fp32_ops = list_fp32_ops(target) if fp32_ops is None else fp32_ops
    if conditional_fp32_ops is None:
        conditional_fp32_ops = list_conditional_fp32_ops(target)
    excluded_sym_names = excluded_sym_names or []
    conditional = {}
    for item in conditional_fp32_ops:
        if not (len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], str)
                and isinstance(item[2], list)):
            raise MXNetAssertionError("amp.convert_symbol: conditional_fp32_ops should be a list of "
                                      f"(str, str, list of str), got item {item!r}")
        conditional.setdefault(item[0], {})[item[1]] = list(item[2])
    cond_names = [c[0] for c in conditional_fp32_ops]
    for (a, an), (b, bn) in (((target_dtype_ops, "target_dtype_ops"), (fp32_ops, "fp32_ops")),
                             ((target_dtype_ops, "target_dtype_ops"),
                              (cond_names, "conditional_fp32_ops")),
                             ((cond_names, "conditional_fp32_ops"), (fp32_ops, "fp32_ops"))):
        common = set(a) & set(b)
        if common:
            raise MXNetAssertionError(f"amp.convert_symbol: ops cannot be in two or more lists; common ops "
                                      f"in {an} and {bn}: {sorted(common)}")
    known = set(list_lp16_ops(target)) | set(list_fp32_ops(target)) | \
        set(list_lp16_fp32_ops(target)) | {c[0] for c in list_conditional_fp32_ops(target)}
    illegal = (set(target_dtype_ops) | set(fp32_ops) | set(cond_names)) - known
    if illegal:
        raise MXNetAssertionError(f"amp.convert_symbol: ops {sorted(illegal)} are in none of "
                                  "amp.list_lp16_ops, list_fp32_ops, list_lp16_fp32_ops and "
                                  "list_conditional_fp32_ops; only ops from those lists can be chosen")
    attr_dict = sym.attr_dict()
    inputs = sym.list_inputs()
    if data_names is None:
        data_names = [n for n in inputs if "__dtype__" not in attr_dict.get(n, {})]
    model_params = set(inputs) - set(data_names)
    heads = reduce_precision(sym._outputs, target, target_dtype_ops, fp32_ops,
                             list_widest_type_cast(target), conditional, excluded_sym_names,
                             data_names, cast_optional_params)
    out = Symbol(heads)
    if model_params:
        _annotate_param_dtypes(out, data_names, model_params)
    return out


def _annotate_param_dtypes(sym, data_names, model_params):
    """Set ``__dtype__`` on the parameter variables to their type in the converted graph."""
    from ...executor.infer import infer_graph
    from ...symbol.graph import topo_order
    params = [n for n in topo_order(sym._outputs) if n.op is None and n.name in model_params]
    for node in params:  # the old hint (float32) is what is being recomputed
        node.attrs.pop("__dtype__", None)
    values, _ = infer_graph(sym, "type", {n: _F32 for n in data_names})
    for node in params:
        t = values.get((id(node), 0))
        node.attrs["__dtype__"] = str(dtype_code(_F32 if t is None else t))


def _cast_params(sym, params, names):
    """Cast the arrays in ``params`` to the ``__dtype__`` their variables carry in ``sym``."""
    attr_dict = sym.attr_dict()
    for name in names:
        code = attr_dict.get(name, {}).get("__dtype__")
        if name in params and code is not None and code != "-1":
            dt = dtype_np(int(code))
            if np.dtype(params[name].dtype) != dt:
                params[name] = params[name].astype(dt)


def convert_model(sym, arg_params, aux_params, target_dtype="float16", target_dtype_ops=None,
                  fp32_ops=None, conditional_fp32_ops=None, excluded_sym_names=None,
                  cast_optional_params=False):
    """``convert_symbol`` for a model plus its parameters; returns (sym, arg_params, aux_params).

    Parameters are cast to the type their variables have in the converted graph.
    """
    from ...symbol import Symbol
    if excluded_sym_names is not None and not isinstance(excluded_sym_names, list):
        raise MXNetValueError("amp.convert_model: excluded_sym_names must be a list of strings naming "
                              f"the symbols to keep in float32, got {type(excluded_sym_names)}")
    if not isinstance(sym, Symbol):
        raise MXNetAssertionError("amp.convert_model: first argument should be a Symbol, got "
                                  f"{type(sym).__name__}")
    if not isinstance(arg_params, dict) or not isinstance(aux_params, dict):
        raise MXNetAssertionError("amp.convert_model: arg_params and aux_params should be dicts of name to "
                                  "NDArray")
    param_names = list(arg_params) + list(aux_params)
    data_names = [n for n in sym.list_inputs() if n not in set(param_names)]
    out = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops, conditional_fp32_ops,
                         excluded_sym_names or [], data_names, cast_optional_params)
    _cast_params(out, arg_params, out.list_arguments())
    _cast_params(out, aux_params, out.list_auxiliary_states())
    return out, arg_params, aux_params


def convert_hybrid_block(block, target_dtype="float16", target_dtype_ops=None, fp32_ops=None,
                         conditional_fp32_ops=None, excluded_sym_names=None, ctx=None,
                         cast_optional_params=False):
    """A SymbolBlock running hybridized ``block`` in mixed precision (for inference).

    ``block`` must have been hybridized and run once. Parameters are copied, cast to the type
    the converted graph gives them, onto ``ctx`` (default: the current context; 1.9.1's
    default was gpu(0)).
    """
    from ...context import current_context
    from ...gluon import HybridBlock, SymbolBlock
    from ...symbol import Symbol, var
    if not isinstance(block, HybridBlock):
        raise MXNetAssertionError("amp.convert_hybrid_block: block should be a HybridBlock, got "
                                  f"{type(block).__name__}")
    cached = getattr(block, "_cached", None)
    if not cached:
        raise RuntimeError("Please first call block.hybridize() and then run forward with this "
                           "block at least once before calling convert_hybrid_block.")
    _, heads, input_names, _, _ = cached
    sym = Symbol(list(heads))
    converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops,
                               conditional_fp32_ops, excluded_sym_names, data_names=input_names,
                               cast_optional_params=cast_optional_params)
    ctx = current_context() if ctx is None else ctx
    values = {name: p.data() for name, p in block.collect_params().items()}
    names = converted.list_arguments() + converted.list_auxiliary_states()
    _cast_params(converted, values, names)
    ret = SymbolBlock(converted, [var(n) for n in input_names])
    for name, p in ret.collect_params().items():
        if name in values:
            arr = values[name]
            p.dtype = np.dtype(arr.dtype).type
            # the new block's parameters are not initialized: load (not set_data) the values
            p._load_init(arr.as_in_context(ctx) if hasattr(arr, "as_in_context") else arr, ctx)
    return ret


def convert_bucketing_module(bucketing_mod, target_dtype="float16", target_dtype_ops=None,
                             fp32_ops=None, conditional_fp32_ops=None, excluded_sym_names=None,
                             cast_optional_params=False):
    """A BucketingModule whose bucket symbols (and parameters) are converted by ``convert_model``."""
    from ...module import BucketingModule
    if not isinstance(bucketing_mod, BucketingModule):
        raise MXNetAssertionError("amp.convert_bucketing_module: module should be a BucketingModule")
    if not bucketing_mod._buckets:
        raise MXNetAssertionError("amp.convert_bucketing_module: the BucketingModule has no buckets")
    if not bucketing_mod.params_initialized:
        raise MXNetAssertionError("amp.convert_bucketing_module: parameters should be initialized for "
                                  "mixed precision conversion")
    arg_params = bucketing_mod._curr_module._arg_params
    aux_params = bucketing_mod._curr_module._aux_params
    sym_dict = {}
    for key, mod in bucketing_mod._buckets.items():
        sym_dict[key], arg_params, aux_params = convert_model(
            mod._symbol, arg_params, aux_params, target_dtype=target_dtype,
            target_dtype_ops=target_dtype_ops, fp32_ops=fp32_ops,
            conditional_fp32_ops=conditional_fp32_ops, excluded_sym_names=excluded_sym_names,
            cast_optional_params=cast_optional_params)
    return BucketingModule.load_dict(
        sym_dict, sym_gen=bucketing_mod._sym_gen, arg_params=arg_params, aux_params=aux_params,
        default_bucket_key=bucketing_mod._default_bucket_key, logger=bucketing_mod.logger,
        context=bucketing_mod._context, work_load_list=bucketing_mod._work_load_list,
        fixed_param_names=bucketing_mod._fixed_param_names,
        state_names=bucketing_mod._state_names, group2ctxs=bucketing_mod._group2ctxs,
        compression_params=bucketing_mod._compression_params)
