"""INT8 post-training quantization of FP32 models (``mx.contrib.quantization``), the flow
of MXNet 1.9.1: rewrite a float graph into one that runs the ``_contrib_quantized_*``
layers, quantize its weights offline, and (optionally) calibrate the ranges that the
graph requantizes to from the float model's layer outputs on sample data.

The graph rewrite is MXNet's ``QuantizeGraph`` pass, done here in Python on our graph
nodes. It reproduces what 1.9.1 emits with its graph fusion turned off
(``MXNET_SUBGRAPH_BACKEND=NONE``, no ``MKLDNN_QUANTIZE`` backend): the plain
``_contrib_quantize_v2`` / ``_contrib_quantized_*`` / ``_contrib_requantize`` /
``_contrib_dequantize`` graph, with the same node names, attributes, node order and
calibration keys. There is no oneDNN fusion here, so ``quantize_model_mkldnn`` and
``quantize_net`` produce that same unfused graph (1.9.1's fused ``_sg_mkldnn_*`` nodes
do not exist in this implementation). See docs/quantization.md.

What becomes quantized:

- *must* layers: Convolution and FullyConnected (followed by a requantize to 8 bits);
- *support* layers: Activation(relu), Pooling (max / avg), Flatten, Concat (dim > 0),
  elemwise_add / elemwise_mul (followed by a requantize), BatchNorm, Embedding.

With ``quantize_mode='full'`` every such layer is quantized; with ``'smart'`` a support
layer only when it sits between quantized must layers (a must layer reaches it through
support layers, and it reaches a must layer through support layers).
"""
from __future__ import annotations

import logging
import os
import shutil
import tempfile
import warnings

import numpy as np

from .. import ndarray
from ..base import (MXNetAssertionError, MXNetError, MXNetTypeError,
                    MXNetValueError)
from ..context import Context, cpu
from ..executor.monitoring import output_names as monitor_output_names
from ..io import DataBatch, DataDesc, DataIter
from ..ndarray import load as nd_load
from ..ndarray import save as nd_save
from ..operator.registry import get_op
from ..symbol import Symbol
from ..symbol import load as sym_load
from ..symbol.graph import Node, topo_order
from ..symbol.symbol import _parse_node_attrs

__all__ = ["quantize_model", "quantize_model_mkldnn", "quantize_graph", "calib_graph",
           "quantize_net", "quantize_net_v2", "combine_histogram"]

_QUANTIZE = "_contrib_quantize_v2"
_QUANTIZE_ASYM = "_contrib_quantize_asym"
_REQUANTIZE = "_contrib_requantize"
_DEQUANTIZE = "_contrib_dequantize"
# nodes calibrated on their (float model's) output rather than on their input
_CALIB_OUTPUT = (_REQUANTIZE, "_contrib_quantized_batch_norm")

# op -> (kind, quantized op, predicate on the parsed params or None, float inputs the
# quantized op takes as they are, whether its int32 output is requantized)
_RULES = {
    "Convolution": ("must", "_contrib_quantized_conv", None, (), True),
    "FullyConnected": ("must", "_contrib_quantized_fully_connected", None, (), True),
    "Activation": ("support", "_contrib_quantized_act",
                   lambda p: p.get("act_type") == "relu", (), False),
    "Pooling": ("support", "_contrib_quantized_pooling",
                lambda p: p.get("pool_type") in ("max", "avg"), (), False),
    "Flatten": ("support", "_contrib_quantized_flatten", None, (), False),
    "Concat": ("support", "_contrib_quantized_concat", lambda p: int(p.get("dim", 1)) > 0,
               (), False),
    "elemwise_add": ("support", "_contrib_quantized_elemwise_add", None, (), True),
    "elemwise_mul": ("support", "_contrib_quantized_elemwise_mul", None, (), True),
    "BatchNorm": ("support", "_contrib_quantized_batch_norm", None, (1, 2, 3, 4), False),
    "Embedding": ("support", "_contrib_quantized_embedding", None, (0,), False),
    "RNN": ("must", "_contrib_quantized_rnn",
            lambda p: p.get("mode") == "lstm" and p.get("projection_size") is None
            and not p.get("use_sequence_length"), (1, 2, 3), False),
}
# quantized layers whose data inputs are quantized asymmetrically (quantize_asym: uint8 with
# a scale and a shift) and whose outputs are float32 (no dequantize after them)
_ASYM_INPUTS = {"RNN": (0,)}
_FLOAT_OUTPUT = frozenset(("RNN",))
# attributes the pass adds to a quantized layer
_EXTRA_ATTRS = {"RNN": {"quantized": "true"}}

# operators that 1.9.1 gives output names (FListOutputNames): a quantize node after one of
# them is called "<node>_<output name>_quantize", after any other "<node>_<index>_quantize"
_NAMED_OUTPUTS = frozenset((
    "Activation", "LeakyReLU", "elemwise_add", "Concat", "softmax", "Dropout", "BatchNorm",
    "SliceChannel", "Deconvolution", "Convolution", "FullyConnected", "Pooling",
    "SoftmaxActivation", "LRN", "LayerNorm", "InstanceNorm", "L2Normalization", "UpSampling",
    "Pad", "MakeLoss", "make_loss", "SwapAxis", "Crop", "SequenceMask", "GroupNorm",
    "SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
    "MAERegressionOutput", "SVMOutput", "ROIPooling", "BatchNorm_v1", "Pooling_v1",
    "Convolution_v1", "RNN", "SequenceLast", "SequenceReverse", "Correlation",
    "SpatialTransformer", "BilinearSampler", "GridGenerator", "IdentityAttachKLSparseReg",
    "_contrib_SyncBatchNorm"))


def _entry_name(node, index):
    """The name 1.9.1's executor (and so its monitor) gives output ``index`` of ``node``;
    a variable's is its own name."""
    if node.op is None:
        return node.name
    names = monitor_output_names(node)
    if index < len(names):
        return names[index]
    return f"{node.name}_output{index}"


def _quantize_node_name(node, index):
    """1.9.1's name for the quantize node it puts after output ``index`` of ``node``."""
    if node.op is None:
        return f"{node.name}_quantize"
    if node.op.name in _NAMED_OUTPUTS:
        return f"{_entry_name(node, index)}_quantize"
    return f"{node.name}_{index}_quantize"


def _new_node(op_name, name, attrs, inputs):
    op = get_op(op_name)
    return Node(op, name, attrs, _parse_node_attrs(op, attrs, name), inputs)


def _rule(node, excluded_names, excluded_ops):
    if node.op is None or node.name in excluded_names or node.op.name in excluded_ops:
        return None
    rule = _RULES.get(node.op.name)
    if rule is None or (rule[2] is not None and not rule[2](node.parsed)):
        return None
    return rule


def _mark_quantized(order, excluded_names, excluded_ops, mode):
    """ids of the float nodes to quantize, with their rule."""
    rules = {id(n): r for n in order
             if (r := _rule(n, excluded_names, excluded_ops)) is not None}
    if mode == "full":
        return rules
    must = [n for n in order if id(n) in rules and rules[id(n)][0] == "must"]
    support = {id(n) for n in order if id(n) in rules and rules[id(n)][0] == "support"}
    consumers = {}
    for n in order:
        for src, _ in n.inputs:
            consumers.setdefault(id(src), []).append(n)

    def reach(step):
        seen, todo = set(), list(must)
        while todo:
            for nxt in step(todo.pop()):
                if id(nxt) in support and id(nxt) not in seen:
                    seen.add(id(nxt))
                    todo.append(nxt)
        return seen

    upstream = reach(lambda n: [s for s, _ in n.inputs])
    downstream = reach(lambda n: consumers.get(id(n), []))
    keep = {id(n) for n in must} | (upstream & downstream)
    return {k: v for k, v in rules.items() if k in keep}


def _quantize_graph(sym, excluded_names, excluded_ops, offline_params, quantized_dtype,
                    quantize_mode):
    """The quantized symbol and the names of the float outputs to calibrate."""
    heads = sym._outputs
    order = topo_order(heads)
    marked = _mark_quantized(order, set(excluded_names), set(excluded_ops), quantize_mode)
    mirror = {}            # id(float node) -> node standing for it in the new graph
    reverse = {}           # id(new node) -> float node it mirrors
    quantized_entry = {}   # (id(float node), index) -> the quantize node made for it

    def float_out(node):
        return node.op is not None and node.op.name in _FLOAT_OUTPUT

    def minmax_source(node):
        m = mirror[id(node)]
        if m.op is not None and m.op.name == _DEQUANTIZE:
            m = m.inputs[0][0]
        return m

    def float_entry(src, idx, ver):
        """The entry giving ``src``'s float output ``idx`` in the new graph (a dequantize
        after a quantized layer with integer outputs, made once)."""
        m = mirror[id(src)]
        if id(src) in marked and not float_out(src) and \
                not (m.op is not None and m.op.name == _DEQUANTIZE):
            base = m.num_outputs() - 2 + 2 * idx
            deq = _new_node(_DEQUANTIZE, f"{src.name}_dequantize", {},
                            [(m, idx), (m, base), (m, base + 1)])
            deq.versions = [ver, 0, 0]
            mirror[id(src)] = deq
            reverse[id(deq)] = src
            return deq, 0
        return m, idx

    for node in order:
        rule = marked.get(id(node))
        if rule is not None:
            _, qop, _, keep_float, requant = rule
            new = _new_node(qop, f"quantized_{node.name}",
                            dict(node.attrs, **_EXTRA_ATTRS.get(node.op.name, {})), [])
            asym = _ASYM_INPUTS.get(node.op.name, ())
            data_in, range_in, data_ver = [], [], []
            for i, (src, idx) in enumerate(node.inputs):
                m = mirror[id(src)]
                data_ver.append(node.versions[i])
                if i in keep_float:
                    data_in.append((m, idx))
                    continue
                if id(src) not in marked or float_out(src) or i in asym:
                    if i in asym and id(src) in marked and not float_out(src):
                        m, idx = float_entry(src, idx, node.versions[i])
                    key = (id(src), idx, i in asym)
                    if key not in quantized_entry:
                        qname = _quantize_node_name(src, idx)
                        quantized_entry[key] = (
                            _new_node(_QUANTIZE_ASYM, qname, {}, [(m, idx)]) if i in asym
                            else _new_node(_QUANTIZE, qname, {"out_type": quantized_dtype},
                                           [(m, idx)]))
                        quantized_entry[key].versions = [node.versions[i]]
                    qn = quantized_entry[key]
                    data_in.append((qn, 0))
                    data_ver[-1] = 0
                    range_in += [(qn, 1), (qn, 2)]
                else:
                    m = minmax_source(src)
                    data_in.append((m, idx))
                    base = m.num_outputs() - 2 + 2 * idx
                    range_in += [(m, base), (m, base + 1)]
            new.inputs = data_in + range_in
            new.versions = data_ver + [0] * len(range_in)
            if requant:
                new = _new_node(_REQUANTIZE, f"requantize_{node.name}",
                                {"out_type": quantized_dtype}, [(new, 0), (new, 1), (new, 2)])
        else:
            new = Node(node.op, node.name, node.attrs, node.parsed, [], node.versions)
            new.version = node.version
            for (src, idx), ver in zip(node.inputs, node.versions):
                new.inputs.append(float_entry(src, idx, ver))
        mirror[id(node)] = new
        reverse[id(new)] = node

    out_heads = []
    for node, idx in heads:
        m = mirror[id(node)]
        if id(node) in marked and not float_out(node):
            base = node.num_visible_outputs() + 2 * idx
            deq = _new_node(_DEQUANTIZE, f"{node.name}_dequantize", {},
                            [(m, idx), (m, base), (m, base + 1)])
            out_heads.append((deq, 0))
        else:
            out_heads.append((m, idx))

    # weights quantized offline: their quantize nodes become variables
    offline = set(offline_params)
    replaced = {}
    for node in topo_order(out_heads):
        for k, (src, idx) in enumerate(node.inputs):
            if src.op is not None and src.op.name == _QUANTIZE and src.inputs[0][0].op is None \
                    and src.inputs[0][0].name in offline:
                key = (id(src), idx)
                if key not in replaced:
                    replaced[key] = Node(None, src.name + ("", "_min", "_max")[idx])
                node.inputs[k] = (replaced[key], 0)

    calib = []
    for node in topo_order(out_heads):
        if node.op is None:
            continue
        if node.op.name in (_QUANTIZE, _QUANTIZE_ASYM):
            src, idx = node.inputs[0]
            calib.append(src.name if src.op is None else _entry_name(reverse[id(src)], idx))
        elif node.op.name in _CALIB_OUTPUT:
            calib.append(_entry_name(reverse[id(node)], 0))
    return Symbol(out_heads), calib


def _quantize_symbol(sym, ctx, excluded_symbols=None, excluded_operators=None,
                     offline_params=None, quantized_dtype="int8", quantize_mode="smart",
                     quantize_granularity="tensor-wise"):
    """Rewrite float ``sym`` into its quantized graph; returns (qsym, calibration names).

    ``quantize_granularity`` only matters for 1.9.1's fused oneDNN layers, which do not
    exist here; the unfused graph is the same for both granularities (as in 1.9.1).
    """
    if excluded_symbols is not None and not isinstance(excluded_symbols, list):
        raise MXNetAssertionError("quantize: excluded_symbols must be a list of symbol names; got "
                                  f"{type(excluded_symbols).__name__}")
    if excluded_operators is not None and not isinstance(excluded_operators, list):
        raise MXNetAssertionError("quantize: excluded_operators must be a list of operator names; got "
                                  f"{type(excluded_operators).__name__}")
    if quantize_mode not in ("full", "smart"):
        raise MXNetError(f"quantize: unknown quantize_mode {quantize_mode!r}; expected 'full' "
                         "or 'smart'")
    if isinstance(ctx, Context) and ctx.device_type == "gpu" and \
            quantize_granularity == "channel-wise":
        raise MXNetError("quantize: channel-wise quantization is not supported on GPU; use "
                         "quantize_granularity='tensor-wise'")
    return _quantize_graph(sym, excluded_symbols or [], excluded_operators or [],
                           offline_params or [], quantized_dtype, quantize_mode)


def _range_str(v):
    """A calibrated bound as 1.9.1 stores it: the float32 value printed with %f."""
    return "%f" % float(np.float32(np.asarray(v, dtype=np.float64).reshape(-1)[0]))


def _calibrate_quantized_sym(qsym, th_dict):
    """Write calibrated (min, max) ranges into the quantize/requantize nodes of ``qsym``
    (a new symbol; ``qsym`` is left alone)."""
    if not th_dict:
        return qsym
    out = qsym.__copy__()
    for node in topo_order(out._outputs):
        if node.op is None:
            continue
        key = None
        if node.op.name in (_QUANTIZE, _QUANTIZE_ASYM):
            src, idx = node.inputs[0]
            key = _entry_name(src, idx)
        elif node.op.name in _CALIB_OUTPUT:
            src = node.inputs[0][0] if node.op.name == _REQUANTIZE else node
            if not src.name.startswith("quantized_"):
                raise MXNetError(f"calibrate: {node.name} does not follow a quantized layer "
                                 f"(its input is {src.name})")
            # every 1.9.1 quantized layer calls its first output "output"
            key = f"{src.name[len('quantized_'):]}_output"
        if key is not None and key in th_dict:
            lo, hi = th_dict[key]
            node.attrs["min_calib_range"] = _range_str(lo)
            node.attrs["max_calib_range"] = _range_str(hi)
            node.parsed = _parse_node_attrs(node.op, node.attrs, node.name)
    return out


def _quantize_params(qsym, params, th_dict):
    """The arguments of ``qsym`` from float ``params``: ``*weight_quantize`` /
    ``*bias_quantize`` become int8 (symmetric, range max|min|, |max|) with their
    ``_min`` / ``_max``; other known arguments pass through unchanged."""
    quantized = {}
    for name in qsym.list_arguments():
        if name.endswith(("weight_quantize", "bias_quantize")):
            param = params[name[:-len("_quantize")]]
            val, vmin, vmax = ndarray.contrib.quantize(
                data=param, min_range=ndarray.min(param), max_range=ndarray.max(param),
                out_type="int8")
            quantized[name] = val
            quantized[name + "_min"] = vmin
            quantized[name + "_max"] = vmax
        elif name in params:
            quantized[name] = params[name]
        elif name.endswith(("_min", "_max")):
            layer = name[:-4]
            if layer in th_dict:
                quantized[name] = ndarray.array([th_dict[layer][0 if name.endswith("_min")
                                                                else 1]])
    return quantized


# ---------------------------------------------------------------------------------------
# collecting statistics

def _name_str(name):
    return name.decode() if isinstance(name, bytes) else str(name)


def combine_histogram(old_hist, arr, new_min, new_max, new_th):
    """Add the values of ``arr`` to a histogram tuple ``(hist, edges, min, max, th)``;
    when ``arr`` reaches past the old threshold the histogram widens by whole bins on
    both sides (the old counts keep their bins)."""
    hist, edges, old_min, old_max, old_th = old_hist
    if new_th <= old_th:
        counts, _ = np.histogram(arr, bins=len(hist), range=(-old_th, old_th))
        return (hist + counts, edges, min(old_min, new_min), max(old_max, new_max), old_th)
    step = 2 * old_th / len(hist)
    extra = int((new_th - old_th) // step + 1)
    nbins = len(hist) + 2 * extra
    th = extra * step + old_th
    counts, new_edges = np.histogram(arr, bins=nbins, range=(-th, th))
    counts[extra:nbins - extra] += hist
    return (counts, new_edges, min(old_min, new_min), max(old_max, new_max), th)


class _LayerHistogramCollector:
    """Monitor callback that builds a symmetric histogram of each selected layer output
    (``hist_dict[name] = (hist, edges, min, max, threshold)``), for entropy calibration."""

    def __init__(self, num_bins=8001, include_layer=None, logger=None):
        self.hist_dict = {}
        self.num_bins = num_bins
        self.include_layer = include_layer
        self.logger = logger

    def collect(self, name, arr):
        """Add ``arr`` (the output called ``name``) to its layer's histogram."""
        name = _name_str(name)
        if self.include_layer is not None and name not in self.include_layer:
            return
        arr = arr.copyto(cpu()).asnumpy()
        if self.logger:
            self.logger.debug(f"Collecting layer {name} histogram of shape {arr.shape}")
        lo, hi = np.min(arr), np.max(arr)
        th = max(abs(lo), abs(hi))
        if name in self.hist_dict:
            self.hist_dict[name] = combine_histogram(self.hist_dict[name], arr, lo, hi, th)
        else:
            hist, edges = np.histogram(arr, bins=self.num_bins, range=(-th, th))
            self.hist_dict[name] = (hist, edges, lo, hi, th)


LayerHistogramCollector = _LayerHistogramCollector


class _LayerOutputMinMaxCollector:
    """Monitor callback that keeps the running (min, max) of each selected layer output
    (``min_max_dict``), for naive calibration."""

    def __init__(self, quantized_dtype, include_layer=None, logger=None):
        self.min_max_dict = {}
        self.quantized_dtype = quantized_dtype
        self.include_layer = include_layer
        self.logger = logger

    def collect(self, name, arr):
        """Fold the minimum and maximum of ``arr`` into its layer's range."""
        name = _name_str(name)
        if self.include_layer is not None and name not in self.include_layer:
            return
        lo = ndarray.min(arr).asscalar()
        hi = ndarray.max(arr).asscalar()
        if name in self.min_max_dict:
            old_lo, old_hi = self.min_max_dict[name]
            self.min_max_dict[name] = (min(old_lo, lo), max(old_hi, hi))
        else:
            self.min_max_dict[name] = (lo, hi)
        if self.logger:
            self.logger.debug(f"Collecting layer {name} min_range={lo:f}, max_range={hi:f}")


class _LayerOutputCollector:
    """Monitor callback that keeps copies of every selected layer output
    (``nd_dict[name]`` is a list of NDArrays), the form older MXNet versions calibrated
    from."""

    def __init__(self, include_layer=None, logger=None):
        self.nd_dict = {}
        self.include_layer = include_layer
        self.logger = logger

    def collect(self, name, arr):
        """Store a CPU copy of ``arr`` under ``name``."""
        name = _name_str(name)
        if self.include_layer is not None and name not in self.include_layer:
            return
        self.nd_dict.setdefault(name, []).append(arr.copyto(cpu()))
        if self.logger:
            self.logger.debug(f"Collecting layer {name} output of shape {arr.shape}")


def _collect_layer_statistics(mod, data, collector, max_num_examples=None, logger=None):
    if not isinstance(data, DataIter):
        raise MXNetValueError("quantization: calibration data must be a DataIter; got "
                              f"{type(data).__name__}")
    mod._exec_group.execs[0].set_monitor_callback(collector.collect, monitor_all=True)
    num_batches = num_examples = 0
    for batch in data:
        mod.forward(data_batch=batch, is_train=False)
        num_batches += 1
        num_examples += data.batch_size
        if max_num_examples is not None and num_examples >= max_num_examples:
            break
    if logger is not None:
        logger.info(f"Collected statistics from {num_batches} batches with "
                    f"batch_size={data.batch_size}")
    return num_examples


def _collect_layer_output_min_max(mod, data, quantized_dtype, include_layer=None,
                                  max_num_examples=None, logger=None):
    """(min, max) of each layer output named in ``include_layer`` over ``data``."""
    collector = _LayerOutputMinMaxCollector(quantized_dtype, include_layer, logger)
    n = _collect_layer_statistics(mod, data, collector, max_num_examples, logger)
    return collector.min_max_dict, n


def _collect_layer_histogram(mod, data, include_layer=None, max_num_examples=None,
                             logger=None):
    """Histograms of each layer output named in ``include_layer`` over ``data``."""
    collector = _LayerHistogramCollector(include_layer=include_layer, logger=logger)
    n = _collect_layer_statistics(mod, data, collector, max_num_examples, logger)
    return collector.hist_dict, n


def _smooth_distribution(p, eps=0.0001):
    """Move a little mass (``eps`` per empty bin) from the non-empty bins of histogram
    ``p`` to its empty ones, so that KL divergences against it stay finite."""
    zero = (p == 0).astype(np.float32)
    nonzero = (p != 0).astype(np.float32)
    n_zero = zero.sum()
    n_nonzero = p.size - n_zero
    if not n_nonzero:
        raise MXNetValueError("_smooth_distribution: every bin of the distribution is 0")
    eps1 = eps * float(n_zero) / float(n_nonzero)
    if eps1 >= 1.0:
        raise MXNetAssertionError(f"_smooth_distribution: too few non-empty bins (n_zeros={n_zero:.0f}, "
                                  f"n_nonzeros={n_nonzero:.0f}, eps1={eps1:f})")
    out = p.astype(np.float32)
    out += eps * zero + (-eps1) * nonzero
    if (out <= 0).sum():
        raise MXNetAssertionError("_smooth_distribution: smoothing left non-positive bins")
    return out


def _get_optimal_threshold(hist_data, quantized_dtype, num_quantized_bins=255):
    """(min, max, threshold, divergence) of one histogram tuple: the clipping threshold
    whose quantized distribution is closest (KL) to the float one. A non-negative layer
    quantized to uint8 ('auto'/'uint8') gets twice the bins."""
    hist, edges, min_val, max_val, _ = hist_data
    if len(hist) % 2 != 1:
        raise MXNetAssertionError(f"_get_optimal_threshold: the histogram needs an odd number of bins; "
                                  f"got {len(hist)}")
    if min_val >= 0 and quantized_dtype in ("auto", "uint8"):
        num_quantized_bins = num_quantized_bins * 2 + 1
    th, div = ndarray.contrib.calibrate_entropy(
        hist=ndarray.array(hist, ctx=cpu()), hist_edges=ndarray.array(edges, ctx=cpu()),
        num_quantized_bins=num_quantized_bins)
    return min_val, max_val, th.asnumpy(), div.asnumpy()


def _get_optimal_thresholds(hist_dict, quantized_dtype, num_quantized_bins=255, logger=None):
    """Entropy thresholds of every histogram in ``hist_dict`` (consumed as it goes):
    ``{name: (-th, th)}``, or ``(0, th)`` for non-negative layers quantized to uint8."""
    if not isinstance(hist_dict, dict):
        raise MXNetAssertionError("_get_optimal_thresholds: hist_dict must be a dict; got "
                                  f"{type(hist_dict).__name__}")
    if logger is not None:
        logger.info("Calculating optimal thresholds for quantization using KL divergence "
                    f"with num_quantized_bins={num_quantized_bins}")
    th_dict = {}
    for name in list(hist_dict):
        lo, hi, th, div = _get_optimal_threshold(hist_dict[name], quantized_dtype,
                                                 num_quantized_bins)
        th_dict[name] = (0, th) if lo >= 0 and quantized_dtype in ("auto", "uint8") \
            else (-th, th)
        del hist_dict[name]
        if logger:
            logger.debug(f"layer={name}, min_val={lo:f}, max_val={hi:f}, "
                         f"th={float(np.ravel(th)[0]):f}, divergence={float(np.ravel(div)[0]):f}")
    return th_dict


# ---------------------------------------------------------------------------------------
# loading helpers and data wrappers

def _load_sym(sym, logger=None):
    """A Symbol, or one read from a -symbol.json path."""
    if isinstance(sym, str):
        if logger:
            logger.info(f"Loading symbol from file {sym}")
        return sym_load(sym)
    if isinstance(sym, Symbol):
        return sym
    raise MXNetValueError(f"_load_sym: expected a Symbol or a path to a symbol file; got "
                          f"{type(sym).__name__}")


def _load_params(params, logger=None):
    """(arg_params, aux_params) from a .params path or an (arg, aux) pair."""
    if isinstance(params, str):
        if logger:
            logger.info(f"Loading params from file {params}")
        arg_params, aux_params = {}, {}
        for k, v in nd_load(params).items():
            kind, name = k.split(":", 1)
            if kind == "arg":
                arg_params[name] = v
            elif kind == "aux":
                aux_params[name] = v
        return arg_params, aux_params
    if isinstance(params, (tuple, list)) and len(params) == 2:
        return params[0], params[1]
    raise MXNetValueError("_load_params: expected a path to a .params file or a pair of "
                          f"(arg_params, aux_params) dicts; got {type(params).__name__}")


class _DataIterWrapper(DataIter):
    """A DataIter over any iterable of batches (a Gluon DataLoader): the first element
    is ``data``, the others ``data0``, ``data1``... (with three or more elements, all are
    named ``data0``...). 5-D/6-D data has its first two axes merged."""

    def __init__(self, calib_data):  # pylint: disable=super-init-not-called
        self._data = calib_data
        try:
            first = next(iter(calib_data))
        except TypeError as e:
            raise MXNetTypeError(f"quantization: calib_data is not iterable: {e}") from None
        first = list(first) if isinstance(first, (list, tuple)) else [first]
        if not first:
            raise MXNetAssertionError("quantization: calib_data yields empty batches")
        if len(first[0].shape) > 4:
            first[0] = first[0].reshape((-1,) + first[0].shape[2:])
        if len(first) >= 3:
            self.provide_data = [DataDesc(f"data{i}", x.shape) for i, x in enumerate(first)]
        else:
            self.provide_data = [DataDesc("data", first[0].shape)] + \
                [DataDesc(f"data{i}", x.shape) for i, x in enumerate(first[1:])]
        self.provide_label = []
        self.batch_size = first[0].shape[0]
        self.reset()

    def reset(self):
        self._iter = iter(self._data)

    def next(self):
        batch = next(self._iter)
        batch = list(batch) if isinstance(batch, (list, tuple)) else [batch]
        if len(batch[0].shape) > 4:
            batch[0] = batch[0].reshape((-1,) + batch[0].shape[2:])
        return DataBatch(data=batch[:len(self.provide_data)])


def _as_data_iter(calib_data):
    """(DataIter, provide_data) for a DataIter or any iterable of batches."""
    if isinstance(calib_data, DataIter):
        return calib_data, calib_data.provide_data
    calib_data = _DataIterWrapper(calib_data)
    return calib_data, calib_data.provide_data


# ---------------------------------------------------------------------------------------
# the user-level API

def _check_common(excluded_sym_names, excluded_op_names, quantized_dtype,
                  quantize_granularity, where):
    excluded_sym_names = [] if excluded_sym_names is None else excluded_sym_names
    excluded_op_names = [] if excluded_op_names is None else excluded_op_names
    if not isinstance(excluded_sym_names, list):
        raise MXNetValueError(f"{where}: excluded_sym_names must be a list of symbol names; got "
                              f"{type(excluded_sym_names).__name__}")
    if not isinstance(excluded_op_names, list):
        raise MXNetValueError(f"{where}: excluded_op_names must be a list of operator names; got "
                              f"{type(excluded_op_names).__name__}")
    if quantized_dtype not in ("int8", "uint8", "auto"):
        raise MXNetValueError(f"{where}: unknown quantized_dtype {quantized_dtype!r}; expected "
                              "'int8', 'uint8' or 'auto'")
    if quantize_granularity not in ("tensor-wise", "channel-wise"):
        raise MXNetValueError(f"{where}: unknown quantize_granularity {quantize_granularity!r}; "
                              "expected 'tensor-wise' or 'channel-wise'")
    return excluded_sym_names, excluded_op_names


def _log_marking(logger, qsym):
    if logger:
        for node in topo_order(qsym._outputs):
            if node.op is not None and node.name.startswith("quantized_"):
                logger.info(f"{node.name[len('quantized_'):]} is quantized.")


def quantize_model(sym, arg_params, aux_params, data_names=("data",),
                   label_names=("softmax_label",), ctx=cpu(), excluded_sym_names=None,
                   excluded_op_names=None, calib_mode="entropy", calib_data=None,
                   num_calib_examples=None, quantized_dtype="int8", quantize_mode="smart",
                   quantize_granularity="tensor-wise", logger=None):
    """Quantize a float model to INT8, with or without calibration.

    Returns ``(qsym, qarg_params, aux_params)``: the rewritten symbol (quantize /
    quantized layers / requantize / dequantize nodes; weights and biases of quantized
    layers become int8 arguments ``<name>_quantize`` with ``_min`` / ``_max``), its
    arguments, and the unchanged auxiliary states.

    - ``calib_mode='none'``: no calibration; every requantize finds its range from the
      data at run time.
    - ``'naive'``: the min/max of each layer's float output over ``calib_data``.
    - ``'entropy'``: thresholds that minimise the KL divergence between each layer's
      float output distribution and its quantized one.

    ``calib_data`` is a DataIter (read for up to ``num_calib_examples`` examples; not
    reset first). ``quantized_dtype`` is the 8-bit type of the quantized activations:
    'int8', 'uint8' or 'auto' (uint8 where the calibrated minimum is not negative).
    ``excluded_sym_names`` / ``excluded_op_names`` keep layers (by node name / operator
    name) in float. ``quantize_mode`` is 'smart' or 'full' (see the module docs).
    """
    excluded_sym_names, excluded_op_names = _check_common(
        excluded_sym_names, excluded_op_names, quantized_dtype, quantize_granularity,
        "quantize_model")
    if logger:
        logger.info("Quantizing symbol")
    qsym, calib_layer = _quantize_symbol(
        sym, ctx, excluded_symbols=excluded_sym_names, excluded_operators=excluded_op_names,
        offline_params=list(arg_params.keys()), quantized_dtype=quantized_dtype,
        quantize_mode=quantize_mode, quantize_granularity=quantize_granularity)
    _log_marking(logger, qsym)
    th_dict = {}
    if calib_mode is not None and calib_mode != "none":
        if not isinstance(ctx, Context):
            raise MXNetValueError(f"quantize_model: ctx must be a single Context; got {ctx!r}")
        if calib_data is None:
            raise MXNetValueError(f"quantize_model: calib_data must be given when "
                                  f"calib_mode={calib_mode!r}")
        if not isinstance(calib_data, DataIter):
            raise MXNetValueError(f"quantize_model: calib_data must be a DataIter when "
                                  f"calib_mode={calib_mode!r}; got {type(calib_data).__name__}")
        if calib_mode not in ("naive", "entropy"):
            raise MXNetValueError(f"quantize_model: unknown calib_mode {calib_mode!r}; expected "
                                  "'none', 'naive' or 'entropy'")
        from ..module import Module
        mod = Module(symbol=sym, data_names=data_names, label_names=label_names, context=ctx)
        if len(calib_data.provide_label) > 0:
            mod.bind(for_training=False, data_shapes=calib_data.provide_data,
                     label_shapes=calib_data.provide_label)
        else:
            mod.bind(for_training=False, data_shapes=calib_data.provide_data)
        mod.set_params(arg_params, aux_params)
        if calib_mode == "entropy":
            hist_dict, n = _collect_layer_histogram(mod, calib_data, calib_layer,
                                                    num_calib_examples, logger)
            if logger:
                logger.info(f"Collected layer outputs from FP32 model using {n} examples")
                logger.info("Calculating optimal thresholds for quantization")
            th_dict = _get_optimal_thresholds(hist_dict, quantized_dtype, logger=logger)
        else:
            th_dict, n = _collect_layer_output_min_max(mod, calib_data, quantized_dtype,
                                                       calib_layer, num_calib_examples,
                                                       logger)
            if logger:
                logger.info(f"Collected layer output min/max values from FP32 model using "
                            f"{n} examples")
        qsym = _calibrate_quantized_sym(qsym, th_dict)
    if logger:
        logger.info("Quantizing parameters")
    return qsym, _quantize_params(qsym, arg_params, th_dict), aux_params


def quantize_model_mkldnn(sym, arg_params, aux_params, data_names=("data",),
                          label_names=("softmax_label",), ctx=cpu(), excluded_sym_names=None,
                          excluded_op_names=None, calib_mode="entropy", calib_data=None,
                          num_calib_examples=None, quantized_dtype="int8",
                          quantize_mode="smart", quantize_granularity="tensor-wise",
                          logger=None):
    """:func:`quantize_model` for CPU. In 1.9.1 this first fuses layers for oneDNN; there
    is no such fusion here, so the result is :func:`quantize_model`'s unfused graph."""
    if not isinstance(ctx, Context):
        raise MXNetValueError(f"quantize_model_mkldnn: ctx must be a single Context; got {ctx!r}")
    if ctx.device_type != "cpu":
        raise MXNetValueError("quantize_model_mkldnn: only CPU contexts are supported; got "
                              f"{ctx}")
    sym = sym.get_backend_symbol("MKLDNN_QUANTIZE")
    qsym, qarg_params, aux_params = quantize_model(
        sym=sym, arg_params=arg_params, aux_params=aux_params, data_names=data_names,
        label_names=label_names, ctx=ctx, excluded_sym_names=excluded_sym_names,
        excluded_op_names=excluded_op_names, calib_mode=calib_mode, calib_data=calib_data,
        num_calib_examples=num_calib_examples, quantized_dtype=quantized_dtype,
        quantize_mode=quantize_mode, quantize_granularity=quantize_granularity, logger=logger)
    return qsym.get_backend_symbol("MKLDNN_QUANTIZE"), qarg_params, aux_params


def quantize_graph(sym, arg_params, aux_params, ctx=cpu(), excluded_sym_names=None,
                   excluded_op_names=None, calib_mode="entropy", quantized_dtype="int8",
                   quantize_mode="full", quantize_granularity="tensor-wise",
                   LayerOutputCollector=None, logger=None):
    """The first half of :func:`quantize_model`: the uncalibrated quantized graph and an
    empty collector to fill (install ``collector.collect`` as a monitor callback on the
    float model, run calibration data, then call :func:`calib_graph`).

    Returns ``(qsym, qarg_params, aux_params, collector)``; the collector is None for
    ``calib_mode='none'`` and ``LayerOutputCollector`` itself for ``'customize'``.
    """
    excluded_sym_names, excluded_op_names = _check_common(
        excluded_sym_names, excluded_op_names, quantized_dtype, quantize_granularity,
        "quantize_graph")
    if not isinstance(ctx, Context):
        raise MXNetValueError(f"quantize_graph: ctx must be a single Context; got {ctx!r}")
    if logger:
        logger.info("Quantizing graph")
    qsym, calib_layer = _quantize_symbol(
        sym, ctx, excluded_symbols=excluded_sym_names, excluded_operators=excluded_op_names,
        offline_params=list(arg_params.keys()), quantized_dtype=quantized_dtype,
        quantize_mode=quantize_mode, quantize_granularity=quantize_granularity)
    _log_marking(logger, qsym)
    collector = None
    if calib_mode is not None and calib_mode != "none":
        if calib_mode == "entropy":
            collector = _LayerHistogramCollector(include_layer=calib_layer, logger=logger)
        elif calib_mode == "naive":
            collector = _LayerOutputMinMaxCollector(quantized_dtype=quantized_dtype,
                                                    include_layer=calib_layer, logger=logger)
        elif calib_mode == "customize" and LayerOutputCollector is not None:
            collector = LayerOutputCollector
        else:
            raise MXNetValueError(f"quantize_graph: unknown calib_mode {calib_mode!r}; expected "
                                  "'none', 'naive', 'entropy' or 'customize' (with a "
                                  "LayerOutputCollector)")
        if logger:
            logger.info("Collector created, please use set_monitor_callback to collect "
                        "calibration information.")
    if logger:
        logger.info("Quantizing parameters")
    return qsym, _quantize_params(qsym, arg_params, {}), aux_params, collector


def calib_graph(qsym, arg_params, aux_params, collector, calib_mode="entropy",
                quantized_dtype="int8", logger=logging):
    """The second half of :func:`quantize_model`: write the ranges a filled ``collector``
    gathered into ``qsym``. Returns ``(qsym, qarg_params, aux_params)``."""
    if calib_mode == "entropy":
        if logger:
            logger.info("Calculating optimal thresholds for quantization")
        th_dict = _get_optimal_thresholds(collector.hist_dict, quantized_dtype, logger=logger)
    elif calib_mode in ("naive", "customize"):
        th_dict = collector.min_max_dict
    elif calib_mode is None or calib_mode == "none":
        raise MXNetValueError("calib_graph: calib_mode must be 'naive', 'entropy' or 'customize'; "
                              f"got {calib_mode!r}")
    else:
        raise MXNetValueError(f"calib_graph: unknown calib_mode {calib_mode!r}; expected 'naive', "
                              "'entropy' or 'customize'")
    qsym = _calibrate_quantized_sym(qsym, th_dict)
    if logger:
        logger.info("Quantizing parameters")
    return qsym, _quantize_params(qsym, arg_params, th_dict), aux_params


def quantize_net_v2(network, quantized_dtype="auto", quantize_mode="full",
                    quantize_granularity="tensor-wise", exclude_layers=None,
                    exclude_layers_match=None, exclude_operators=None, calib_data=None,
                    data_shapes=None, calib_mode="none", num_calib_examples=None, ctx=cpu(),
                    LayerOutputCollector=None, logger=None):
    """Quantize a Gluon HybridBlock; returns a SymbolBlock running the INT8 graph.

    The block is hybridized, run once on zeros shaped like ``data_shapes`` (a list of
    DataDesc; taken from ``calib_data`` when not given), exported, and quantized as in
    :func:`quantize_graph`. ``exclude_layers`` names nodes to keep in float,
    ``exclude_layers_match`` substrings of such names, ``exclude_operators`` operator
    names. With calibration, ``calib_data`` is a DataIter or any iterable of batches (a
    Gluon DataLoader; the first element of each batch is the data).
    """
    from ..gluon import SymbolBlock
    from ..model import load_checkpoint
    from ..module import Module
    from ..symbol import var

    if logger:
        logger.info("Export HybridBlock")
    network.hybridize()
    if calib_data is not None:
        if isinstance(calib_data, DataIter):
            dshapes = calib_data.provide_data
        else:
            calib_data, dshapes = _as_data_iter(calib_data)
        if not data_shapes:
            data_shapes = dshapes
    if not data_shapes:
        raise MXNetValueError("quantize_net: data_shapes is required when calib_data is not given")
    data_nd = [ndarray.zeros(s.shape) for s in data_shapes]
    while True:
        try:
            network(*data_nd)
        except TypeError:
            # the block takes fewer inputs than the batches hold (e.g. a label): drop one
            if len(data_nd) <= 1:
                raise
            del data_nd[-1]
            if calib_data is not None:
                del calib_data.provide_data[-1]
            if len(data_shapes) > len(data_nd):
                data_shapes = list(data_shapes)[:len(data_nd)]
            continue
        break

    tmpdir = tempfile.mkdtemp()
    try:
        prefix = os.path.join(tmpdir, "tmp")
        network.export(prefix, epoch=0)
        symnet, args, auxs = load_checkpoint(prefix, 0)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    exclude_layers = list(exclude_layers or [])
    exclude_operators = list(exclude_operators or [])
    for pattern in exclude_layers_match or []:
        for layer in list(symnet.get_internals()):
            if pattern in layer.name:
                exclude_layers.append(layer.name)
    if logger:
        logger.info(f"These layers have been excluded {exclude_layers}")
    if ctx == cpu():
        symnet = symnet.get_backend_symbol("MKLDNN_QUANTIZE")

    qsym, qarg_params, aux_params, collector = quantize_graph(
        sym=symnet, arg_params=args, aux_params=auxs, ctx=ctx,
        excluded_sym_names=exclude_layers, excluded_op_names=exclude_operators,
        calib_mode=calib_mode, quantized_dtype=quantized_dtype, quantize_mode=quantize_mode,
        quantize_granularity=quantize_granularity, LayerOutputCollector=LayerOutputCollector,
        logger=logger)

    if calib_mode is not None and calib_mode != "none":
        if not isinstance(ctx, Context):
            raise MXNetValueError(f"quantize_net: ctx must be a single Context; got {ctx!r}")
        if calib_data is None:
            raise MXNetValueError(f"quantize_net: calib_data must be given when "
                                  f"calib_mode={calib_mode!r}")
        data_names = [d[0] for d in calib_data.provide_data]
        mod = Module(symbol=symnet, context=ctx, data_names=data_names, label_names=None)
        mod.bind(for_training=False, data_shapes=data_shapes)
        mod.set_params(args, auxs, allow_missing=False, force_init=True)
        n = _collect_layer_statistics(mod, calib_data, collector, num_calib_examples, logger)
        if logger:
            logger.info(f"Collected layer output values from FP32 model using {n} examples")
        qsym, qarg_params, aux_params = calib_graph(
            qsym=qsym, arg_params=args, aux_params=auxs, collector=collector,
            calib_mode=calib_mode, quantized_dtype=quantized_dtype, logger=logger)
    else:
        data_names = [d[0] for d in data_shapes]
    if ctx == cpu():
        qsym = qsym.get_backend_symbol("MKLDNN_QUANTIZE")

    net = SymbolBlock(qsym, [var(name) for name in data_names])
    tmpdir = tempfile.mkdtemp()
    try:
        fname = os.path.join(tmpdir, "tmpnet-quantized-0000.params")
        save = {f"arg:{k}": v.as_in_context(cpu()) for k, v in qarg_params.items()}
        save.update({f"aux:{k}": v.as_in_context(cpu()) for k, v in aux_params.items()})
        nd_save(fname, save)
        net.collect_params().load(fname, cast_dtype=True, dtype_source="saved")
        net.collect_params().reset_ctx(ctx)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return net


def quantize_net(network, quantized_dtype="auto", quantize_mode="full", exclude_layers=None,
                 exclude_layers_match=None, exclude_operators=None, calib_data=None,
                 data_shapes=None, calib_mode="none", num_calib_examples=None, ctx=cpu(),
                 logger=None):
    """:func:`quantize_net_v2` with tensor-wise granularity (1.9.1 marks it as to be
    deprecated and warns)."""
    warnings.warn("WARNING: This will be deprecated after MXNet 2.0, please use "
                  "quantize_net_v2.", stacklevel=2)
    return quantize_net_v2(network=network, quantized_dtype=quantized_dtype,
                           quantize_mode=quantize_mode, quantize_granularity="tensor-wise",
                           exclude_layers=exclude_layers,
                           exclude_layers_match=exclude_layers_match,
                           exclude_operators=exclude_operators, calib_data=calib_data,
                           data_shapes=data_shapes, calib_mode=calib_mode,
                           num_calib_examples=num_calib_examples, ctx=ctx,
                           LayerOutputCollector=None, logger=logger)

