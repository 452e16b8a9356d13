"""What a monitor callback sees, named and ordered as 1.9.1's graph executor shows it.

1.9.1 runs a bound graph as one list of nodes, forward then backward, and after each node
calls the monitor with the node's outputs (every output, hidden ones too) and, with
``monitor_all``, first with its inputs. This module reproduces those names and that order
for our executor, whose backward is compiled differently (:mod:`.program`).

**Forward.** Each operator node reports, with ``monitor_all``, every input as
``<node>_<input name>``, preceded by the variable's own name when the input is a variable;
1.9.1 names inputs only for the operators that declare input names (the layers, the
binary operators ...) and says ``input<i>`` for the rest. Then it reports its outputs by
the names ``list_outputs`` uses, hidden outputs included (BatchNorm's ``mean`` and ``var``,
Dropout's ``mask``, oneDNN max pooling's ``workspace``).

**Backward.** 1.9.1 builds a gradient graph out of nodes named ``<node>_backward`` with
their own input lists (the output gradients, forward inputs and outputs each operator's
gradient reads), plus:

- ``_head_grad_<i>`` variables holding the head gradients, read through
  ``_head_grad_<i>_id`` nodes;
- ``zeros_without_dtype`` for an output gradient that nothing produced;
- ``sum_grad`` (an ElementWiseSum) where an entry has several gradients, in the order
  the head gradients and then the consumers (last consumer first) produced them;
- ``<entry node>_<i>_copy`` when two requested gradients are the same entry.

It runs the nodes reachable from the requested gradients in depth-first post-order (the
arguments in order, each node's inputs in order). :func:`backward_plan` builds that node
list from a per-operator description of 1.9.1's gradient nodes (:data:`_BACKWARD`, with a
generic rule for the rest), and :func:`report_backward` evaluates it: the gradient nodes'
outputs are the input gradients of our registry's rules, run once more on NDArrays from the
values the compiled backward kept. That costs a second backward pass, paid only while a
monitor is installed and active; the compiled program is untouched.

Where 1.9.1 writes a requested gradient straight into its bound array, the monitor is
shown that array (with ``grad_req='add'``, the sum with what it held before); where 1.9.1
would leave a buffer unwritten (a gradient nobody requested) we show the computed value.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..ndarray import ndarray as _ndm
from ..symbol.json_io import mxnet_num_outputs

__all__ = ["forward_labels", "backward_plan", "report_backward"]


# ------------------------------------------------------------------------------------------
# forward names

# operators whose 1.9.1 kernels name their inputs (FListInputNames); the others, and every
# binary operator on (lhs, rhs) below, are checked in forward_labels
_NAMED_INPUTS = frozenset((
    "FullyConnected", "Convolution", "Convolution_v1", "Deconvolution", "LeakyReLU", "Pooling",
    "Pooling_v1", "Dropout", "BatchNorm", "BatchNorm_v1", "_contrib_SyncBatchNorm", "LayerNorm",
    "GroupNorm", "InstanceNorm", "L2Normalization", "LRN", "SoftmaxOutput",
    "LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput", "SVMOutput",
    "MakeLoss", "softmax", "log_softmax", "Embedding", "take", "batch_take", "pick", "one_hot",
    "where", "RNN", "SliceChannel", "SwapAxis", "SequenceMask", "SequenceLast",
    "SequenceReverse", "ROIPooling", "Correlation", "SpatialTransformer", "BilinearSampler",
    "GridGenerator", "CTCLoss", "IdentityAttachKLSparseReg", "Pad", "tile", "repeat",
    "squeeze", "space_to_depth", "depth_to_space", "moments", "softmax_cross_entropy", "diag",
    "gather_nd", "slice_like", "all_finite", "_contrib_allclose", "_contrib_index_array",
    "_contrib_quadratic", "dot", "batch_dot", "reverse", "Custom", "_split_v2",
    "_contrib_BatchNormWithReLU", "_contrib_DeformablePSROIPooling"))

# operators whose inputs 1.9.1 calls arg0, arg1, ...
_ARG_INPUTS = frozenset(("Concat", "add_n", "stack", "Crop", "khatri_rao"))

# every output of an operator with hidden outputs, as 1.9.1 names them
_OUTPUT_NAMES = {
    "BatchNorm": ("output", "mean", "var"), "BatchNorm_v1": ("output", "mean", "var"),
    "_contrib_SyncBatchNorm": ("output", "mean", "var"), "Dropout": ("output", "mask"),
    "LRN": ("output", "tmp_norm"), "Pooling": ("output", "workspace"),
    "LayerNorm": ("output", "mean", "std"), "GroupNorm": ("output", "mean", "std"),
    "InstanceNorm": ("output", "mean", "var"), "L2Normalization": ("output", "norm"),
    "ROIPooling": ("output", "maxidx"), "GridGenerator": ("output", "grid_dst"),
    "BilinearSampler": ("output", "tmp"), "SpatialTransformer": ("output", "grid_dst", "grid_src"),
    "Correlation": ("output", "tmp1", "tmp2"), "make_loss": ("loss",),
    "_contrib_BatchNormWithReLU": ("output", "mean", "var", "workspace"),
    "_contrib_DeformablePSROIPooling": ("output", "top_count"),
}


def _input_names(node):
    op = node.op
    n = len(node.inputs)
    name = op.name
    if name in _ARG_INPUTS or (name == "UpSampling" and node.parsed.get("sample_type") != "bilinear"):
        return [f"arg{i}" for i in range(n)]
    own = node.input_names()
    if name in _NAMED_INPUTS or name.startswith("_linalg_") or own[:2] == ["lhs", "rhs"] or \
            name == "UpSampling":
        if len(own) == n:
            return own
    return [f"input{i}" for i in range(n)]


def output_names(node):
    """The 1.9.1 names of every output it keeps for ``node`` (hidden ones included)."""
    n = mxnet_num_outputs(node)
    table = _OUTPUT_NAMES.get(node.op.name)
    if table is not None and len(table) >= n:
        return [f"{node.name}_{o}" for o in table[:n]]
    if n == 1:
        return [f"{node.name}_output"]
    visible = node.output_names()
    if len(visible) == n:
        return visible
    return [f"{node.name}_output{i}" for i in range(n)]


def forward_labels(node):
    """(per input: (variable name or None, label), output labels) of an operator node."""
    ins = [(src.name if src.op is None else None, f"{node.name}_{nm}")
           for (src, _), nm in zip(node.inputs, _input_names(node))]
    return ins, output_names(node)


def phantom(node, index, outs):
    """The value 1.9.1 shows for an output our operator lacks: zeros shaped like the first
    output (oneDNN's max-pooling workspace, whose content 1.9.1 leaves unspecified, is
    int32)."""
    first = outs[0] if outs else None
    if first is None:
        return None
    dtype = np.int32 if node.op.name == "Pooling" else first.dtype
    return _xp_of(first).zeros(first.shape, dtype=dtype)


def _xp_of(a):
    mod = type(a).__module__
    if mod.startswith("cupy"):
        import cupy
        return cupy
    return np


# ------------------------------------------------------------------------------------------
# 1.9.1's gradient nodes, per operator
#
# A description is a list of node specs (suffix, inputs, input names, gradient of which
# forward input each output is, output names). Inputs are ("og", j) (the gradient of
# output j), ("in", j) (forward input j) or ("out", j) (forward output j). Input names
# None mean input0, input1 ...; output names None mean output / output0, output1 ...
# "clone" passes the output gradient to every input (no node); "zero" makes zeros_like
# nodes (operators without a gradient).

def _args(node):
    return node.num_args()


def _og0_args(node):
    n = _args(node)
    return [("_backward", [("og", 0)] + [("in", i) for i in range(n)], None, list(range(n)),
             None)]


def _fc(node):
    n = _args(node)
    return [("_backward", [("og", 0), ("in", 0), ("in", 1)], None, list(range(n)), None)]


def _activation(node):
    refs = [("og", 0), ("out", 0)]
    if node.parsed.get("act_type") != "relu":
        refs.append(("in", 0))
    return [("_backward", refs, None, [0], None)]


def _leaky(node):
    kind = node.parsed.get("act_type")
    if kind == "prelu":
        refs = [("og", 0), ("in", 0), ("in", 1), ("out", 0)]
    elif kind == "rrelu":   # its mask is a visible output, with a head gradient of its own
        refs = [("og", 0), ("og", 1), ("in", 0), ("out", 0), ("out", 1)]
    else:
        refs = [("og", 0), ("in", 0), ("out", 0)]
    return [("_backward", refs, None, list(range(_args(node))), None)]


def _pooling(node):
    if mxnet_num_outputs(node) == 2:
        refs = [("og", 0), ("og", 1), ("in", 0), ("out", 0), ("out", 1)]
    else:
        refs = [("og", 0), ("in", 0), ("out", 0)]
    return [("_backward", refs, None, [0], None)]


def _refs(*refs, nout=None, in_names=None, out_names=None):
    def make(node):
        n = _args(node) if nout is None else nout
        return [("_backward", list(refs), in_names, list(range(n)), out_names)]
    return make


def _legacy(*refs):
    """Operators 1.9.1 still runs through the legacy interface: the gradient node names its
    outputs after the forward arguments."""
    def make(node):
        n = _args(node)
        names = node.input_names()[:n]
        return [("_backward", list(refs) if refs else [("og", 0)], None, list(range(n)), names)]
    return make


def _make_loss(node):
    # 1.9.1's legacy MakeLoss declares the data a backward dependency only for 'valid'
    # normalization (it counts the valid entries); otherwise its gradient node reads nothing
    refs = [("in", 0)] if node.parsed.get("normalization") == "valid" else []
    n = _args(node)
    return [("_backward", refs, None, list(range(n)), node.input_names()[:n])]


def _crop(node):
    # legacy, with its inputs called arg0, arg1, ...
    n = _args(node)
    return [("_backward", [("og", 0)], None, list(range(n)), [f"arg{i}" for i in range(n)])]


def _concat(node):
    n = len(node.inputs)
    return [("_backward", [("og", 0)] + [("in", i) for i in range(n)], None, list(range(n)),
             None)]


def _slice_channel(node):
    n = len(node.output_names())
    return [("_backward", [("og", j) for j in range(n)], None, [0], ["data"])]


def _add_n(node):
    # 1.9.1 passes the gradient on through one unnamed copy per input
    return [(None, [("og", 0)], None, [i], ["output"]) for i in range(len(node.inputs))]


def _batch_dot(node):
    return [("_backward_lhs", [("og", 0), ("in", 1)], ["lhs", "rhs"], [0], None),
            ("_backward_rhs", [("in", 0), ("og", 0)], ["lhs", "rhs"], [1], None)]


def _where(node):
    return [("_backward", [("og", 0), ("in", 0)], None, [1, 2], None)]


def _rnn(node):
    so = node.parsed.get("state_outputs")
    refs = [("in", 0), ("in", 1), ("in", 2), ("out", 0), ("og", 0)]
    if so:
        refs += [("out", 1), ("og", 1)]
    if node.parsed.get("mode") == "lstm":
        refs.append(("in", 3))
        if so:
            refs += [("out", 2), ("og", 2)]
    return [("_backward", refs, None, list(range(_args(node))), None)]


_LR = ["lhs", "rhs"]
_UNARY_OUT = _refs(("og", 0), ("out", 0), nout=1, in_names=_LR)
_UNARY_IN = _refs(("og", 0), ("in", 0), nout=1, in_names=_LR)
_OG_ONLY = _refs(("og", 0), nout=1)

_BACKWARD = {
    "FullyConnected": _fc, "Convolution": _og0_args, "Deconvolution": _og0_args,
    "Activation": _activation, "LeakyReLU": _leaky, "Pooling": _pooling,
    "Dropout": _refs(("og", 0), ("out", 1), nout=1),
    "LRN": _refs(("og", 0), ("in", 0), ("out", 1), nout=1),
    "LayerNorm": _refs(("og", 0), ("in", 0), ("in", 1), ("out", 1), ("out", 2), nout=3),
    "GroupNorm": _refs(("og", 0), ("in", 0), ("in", 1), ("out", 1), ("out", 2), nout=3),
    "InstanceNorm": _legacy(("og", 0), ("out", 1), ("out", 2), ("in", 0), ("in", 1)),
    "L2Normalization": _legacy(("og", 0), ("out", 0), ("out", 1)),
    "SVMOutput": _legacy(("in", 1), ("out", 0)), "Pad": _legacy(), "Crop": _crop,
    "GridGenerator": _legacy(("og", 0), ("out", 1)),
    "Correlation": _legacy(("og", 0), ("out", 1), ("out", 2)),
    "IdentityAttachKLSparseReg": _legacy(("og", 0), ("in", 0), ("in", 1)),
    "MakeLoss": _make_loss, "SwapAxis": _legacy(), "SequenceMask": _legacy(),
    "SequenceLast": _legacy(), "SequenceReverse": _legacy(), "SliceChannel": _slice_channel,
    "SoftmaxOutput": _refs(("out", 0), ("in", 1), nout=2),
    "LinearRegressionOutput": _refs(("in", 1), ("out", 0), nout=2),
    "LogisticRegressionOutput": _refs(("in", 1), ("out", 0), nout=2),
    "MAERegressionOutput": _refs(("in", 1), ("out", 0), nout=2),
    "softmax": _refs(("og", 0), ("out", 0), nout=1, in_names=["ograd", "output"]),
    "log_softmax": _refs(("og", 0), ("out", 0), nout=1, in_names=["ograd", "output"]),
    "softmin": _refs(("og", 0), ("out", 0), nout=1, in_names=["ograd", "output"]),
    "SoftmaxActivation": _refs(("og", 0), ("out", 0), nout=1),
    "Embedding": _refs(("og", 0), ("in", 0), nout=2),
    "take": _refs(("og", 0), ("in", 1), nout=2),
    "Concat": _concat, "add_n": _add_n, "batch_dot": _batch_dot, "where": _where, "RNN": _rnn,
    "elemwise_add": "clone",
    "elemwise_sub": _refs(("og", 0), nout=2), "broadcast_add": _refs(("og", 0), nout=2),
    "broadcast_sub": _refs(("og", 0), nout=2),
    "max": _refs(("og", 0), ("in", 0), ("out", 0), nout=1),
    "min": _refs(("og", 0), ("in", 0), ("out", 0), nout=1),
    "clip": _refs(("og", 0), ("in", 0), nout=1),
}
# the legacy BatchNorm_v1 does not read beta
_BACKWARD["BatchNorm_v1"] = _legacy(("og", 0), ("out", 1), ("out", 2), ("in", 0), ("in", 1),
                                   ("in", 3), ("in", 4))
for _name in ("BatchNorm", "_contrib_SyncBatchNorm"):
    _BACKWARD[_name] = _refs(("og", 0), ("out", 1), ("out", 2), ("in", 0), ("in", 1), ("in", 2),
                             ("in", 3), ("in", 4), nout=3)
for _name in ("elemwise_mul", "elemwise_div", "broadcast_mul", "broadcast_div", "dot",
              "_maximum", "_minimum", "_power", "_hypot", "_mod", "broadcast_maximum",
              "broadcast_minimum", "broadcast_power", "broadcast_hypot", "broadcast_mod"):
    _BACKWARD[_name] = _refs(("og", 0), ("in", 0), ("in", 1), nout=2)
for _name in ("Flatten", "Reshape", "expand_dims", "transpose", "slice_axis", "slice", "sum",
              "mean", "nansum", "negative", "_rminus_scalar", "_mul_scalar", "_div_scalar",
              "_plus_scalar", "_minus_scalar", "_copy", "Cast", "amp_cast", "broadcast_to",
              "broadcast_axis", "broadcast_like", "tile", "repeat", "squeeze", "reverse",
              "space_to_depth", "depth_to_space", "UpSampling", "reshape_like"):
    _BACKWARD[_name] = _OG_ONLY
for _name in ("relu", "sigmoid", "tanh", "exp", "sqrt", "cbrt", "tan", "_rpower_scalar"):
    _BACKWARD[_name] = _UNARY_OUT
for _name in ("log", "log10", "log2", "log1p", "expm1", "square", "abs", "sin", "cos", "arcsin",
              "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh", "reciprocal",
              "rsqrt", "rcbrt", "gamma", "gammaln", "erf", "erfinv", "softsign", "_rdiv_scalar",
              "_power_scalar", "_hypot_scalar", "_maximum_scalar", "_minimum_scalar",
              "smooth_l1", "_mod_scalar", "_rmod_scalar", "degrees", "radians"):
    _BACKWARD[_name] = _UNARY_IN
for _name in ("BlockGrad", "zeros_like", "ones_like", "argmax", "argmin", "argmax_channel",
              "round", "rint", "ceil", "floor", "fix", "trunc", "sign", "shape_array",
              "size_array", "argsort", "logical_not", "one_hot", "_equal", "_not_equal",
              "_greater", "_greater_equal", "_lesser", "_lesser_equal", "_logical_and",
              "_logical_or", "_logical_xor", "broadcast_equal", "broadcast_not_equal",
              "broadcast_greater", "broadcast_greater_equal", "broadcast_lesser",
              "broadcast_lesser_equal", "broadcast_logical_and", "broadcast_logical_or",
              "broadcast_logical_xor", "_equal_scalar", "_not_equal_scalar", "_greater_scalar",
              "_greater_equal_scalar", "_lesser_scalar", "_lesser_equal_scalar",
              "_logical_and_scalar", "_logical_or_scalar", "_logical_xor_scalar"):
    _BACKWARD[_name] = "zero"

# reductions whose gradient reads the data and the result
for _name in ("prod", "nansum", "nanprod", "norm"):
    _BACKWARD[_name] = _refs(("og", 0), ("in", 0), ("out", 0), nout=1)
# index operators: the output gradient and the indices
for _name in ("pick", "gather_nd"):   # one gradient: the indices get none
    _BACKWARD[_name] = _refs(("og", 0), ("in", 1), nout=1)
_BACKWARD["diag"] = _OG_ONLY
_BACKWARD["stack"] = _refs(("og", 0))
_BACKWARD["moments"] = _refs(("og", 0), ("og", 1), ("in", 0), ("out", 0), ("out", 1), nout=1)
_BACKWARD["make_loss"] = _refs(("in", 0), nout=1)   # a gradient of ones, no head gradient


def _topk(node):
    # value and both: the output gradient and every output (indices included); else none
    if node.parsed.get("ret_typ") not in ("value", "both"):
        return "zero"
    outs = [("out", j) for j in range(mxnet_num_outputs(node))]
    return [("_backward", [("og", 0)] + outs, None, [0], None)]


_BACKWARD["topk"] = _topk


def _seq_len_op(node):
    # legacy: the output gradient, and the lengths when they are used
    refs = [("og", 0)] + ([("in", 1)] if node.parsed.get("use_sequence_length") else [])
    n = _args(node)
    return [("_backward", refs, None, list(range(n)), node.input_names()[:n])]


for _name in ("SequenceMask", "SequenceLast"):
    _BACKWARD[_name] = _seq_len_op
_BACKWARD["ROIPooling"] = _legacy(("og", 0), ("in", 1), ("out", 1))
_BACKWARD["BilinearSampler"] = _legacy(("og", 0), ("in", 0), ("out", 1), ("in", 1))
_BACKWARD["SpatialTransformer"] = _legacy(("og", 0), ("out", 1), ("out", 2), ("in", 0))


def _upsampling(node):
    # bilinear runs as a deconvolution: it reads the data and the weight as well
    refs = [("og", 0)]
    if node.parsed.get("sample_type") == "bilinear":
        refs += [("in", i) for i in range(_args(node))]
    return [("_backward", refs, None, list(range(_args(node))), None)]


_BACKWARD["UpSampling"] = _upsampling
for _name in ("slice_like", "_contrib_AdaptiveAvgPooling2D",
              "_contrib_BilinearResize2D", "_contrib_div_sqrt_dim"):
    _BACKWARD[_name] = _refs(("og", 0))   # a gradient per input, from the output gradient
_BACKWARD["_linalg_potrf"] = _refs(("og", 0), ("out", 0), nout=1)
_BACKWARD["_linalg_trsm"] = _refs(("og", 0), ("in", 0), ("in", 1), ("out", 0), nout=2)
_BACKWARD["CTCLoss"] = _refs(("og", 0), ("og", 1), ("out", 0), ("out", 1))
_BACKWARD["_contrib_arange_like"] = "zero"


def _custom(node):
    # one node named as the forward node, reading what the prop declares it depends on
    from ..operator.custom import _prop
    prop = _prop(node.parsed)
    n_in, n_out = len(prop.list_arguments()), len(prop.list_outputs())
    deps = prop.declare_backward_dependency(list(range(n_out)),
                                            list(range(n_out, n_out + n_in)),
                                            list(range(n_out + n_in, 2 * n_out + n_in)))
    refs = [("og", d) if d < n_out else ("in", d - n_out) if d < n_out + n_in
            else ("out", d - n_out - n_in) for d in (int(d) for d in deps)]
    return [("", refs, None, list(range(n_in)), None)]


_BACKWARD["Custom"] = _custom


def _generic(node):
    """Operators not described above: one node reading every visible output gradient and
    every argument, writing a gradient per argument."""
    n = _args(node)
    refs = [("og", j) for j in range(node.num_visible_outputs())] + [("in", i) for i in range(n)]
    return [("_backward", refs, None, list(range(n)), None)]


def _description(node):
    rule = _BACKWARD.get(node.op.name)
    if rule is None:
        return "zero" if node.op.gradient is None else _generic(node)
    return rule if isinstance(rule, str) else rule(node)


# ------------------------------------------------------------------------------------------
# the emulated gradient graph

class MonNode:
    """One node of the emulated gradient graph.

    ``kind``: "head" (``_head_grad_i_id``), "zeros", "zeros_like", "sum", "add", "identity",
    "copy" or "grad" (an operator's gradient node); ``inputs``: references (below);
    ``labels``: the input labels and ``outputs`` the output labels shown to the monitor;
    ``info``: what the kind needs to compute its value.
    """

    __slots__ = ("name", "kind", "inputs", "labels", "outputs", "info", "deps")

    def __init__(self, name, kind, inputs, in_names, out_names, info=None):
        self.name = name
        self.kind = kind
        self.inputs = list(inputs)
        if in_names is None:
            in_names = [f"input{i}" for i in range(len(self.inputs))]
        self.labels = [f"{name}_{nm}" for nm in in_names]
        self.outputs = list(out_names)
        self.info = info
        self.deps = ()   # references needed for the values only (not inputs in 1.9.1)


def _out_labels(name, n, names=None, bare=False):
    if names is not None:
        return list(names) if bare else [f"{name}_{o}" for o in names]
    return [f"{name}_output"] if n == 1 else [f"{name}_output{k}" for k in range(n)]


# References: ("fwd", node, k) a forward entry (k may exceed our outputs: a phantom),
# ("head", i) the head gradient variable i, ("mon", MonNode, k) an emulated node's output.

class BackwardPlan:
    """The emulated gradient graph of one bound graph and set of requested gradients.

    ``order``: the nodes 1.9.1 runs, in its order; ``compute``: every node whose value the
    report needs (``order`` plus the hidden dependencies), in an order that computes inputs
    first; ``roots``: per requested argument, (argument index, reference).
    """

    def __init__(self, order, compute, roots, grad_nodes):
        self.order = order
        self.compute = compute
        self.roots = roots
        self.grad_nodes = grad_nodes   # id(forward node) -> (forward node, its og refs)


def _is_zero_ref(ref):
    return ref[0] == "mon" and ref[1].kind == "zeros_like"


def backward_plan(order, heads, requested):
    """The plan for the graph in topological ``order`` with outputs ``heads`` ((node, index)
    pairs) when ``requested`` lists (argument index, variable node) in argument order."""
    contrib: dict = {}
    for i, (h, k) in enumerate(heads):
        hid = MonNode(f"_head_grad_{i}_id", "head", [("head", i), ("fwd", h, k)],
                      ["lhs", "rhs"], [f"_head_grad_{i}_id_output"], info=i)
        # an entry listed twice among the outputs: its last head gradient replaces the others
        contrib[(id(h), k)] = [("mon", hid, 0)]
    aggregated: dict = {}

    def aggregate(node, k):
        key = (id(node), k)
        if key in aggregated:
            return aggregated[key]
        got = contrib.get(key, [])
        if not got:
            z = MonNode("zeros_without_dtype", "zeros", [], [], ["zeros_without_dtype_output"],
                        info=(node, k))
            ref = ("mon", z, 0)
        else:
            kept = [r for r in got if not _is_zero_ref(r)] or got[:1]
            if len(kept) == 1:
                ref = kept[0]
            elif len(kept) < 8:   # MXNET_EXEC_INPLACE_GRAD_SUM_CAP
                s = MonNode("sum_grad", "sum", kept, [f"arg{i}" for i in range(len(kept))],
                            ["sum_grad_output"])
                ref = ("mon", s, 0)
            else:   # a chain of pairwise sums, then an identity; 1.9.1 runs the sums as
                # additions into the buffer of each next gradient (which then shows the
                # running sum) and so never shows the sums themselves
                ref = kept[0]
                for i in range(1, len(kept)):
                    s = MonNode(f"sum_grad_{i}", "add", [ref, kept[i]], ["lhs", "rhs"],
                                [f"sum_grad_{i}_output"])
                    ref = ("mon", s, 0)
                s = MonNode("sum_grad_final", "identity", [ref], None, ["sum_grad_final_output"])
                ref = ("mon", s, 0)
        aggregated[key] = ref
        return ref

    grad_nodes = {}
    for node in reversed(order):
        if node.op is None:
            continue
        nargs = node.num_args()
        desc = _description(node)
        ogs = {}

        def og(j, node=node, ogs=ogs):
            if j not in ogs:
                ogs[j] = aggregate(node, j)
            return ogs[j]

        if desc != "zero" and desc != "clone":
            present = [aggregate(node, j) for j in range(mxnet_num_outputs(node))
                       if (id(node), j) in contrib]
            if present and len(present) == mxnet_num_outputs(node) and \
                    all(_is_zero_ref(r) for r in present):
                desc = "zero"   # every output gradient is zero: so are the input gradients
        if desc == "clone":
            for i in range(nargs):
                src, k = node.inputs[i]
                contrib.setdefault((id(src), k), []).append(og(0))
            continue
        if desc == "zero":
            for i in range(nargs):
                name = f"{node.name}_backward" if len(node.inputs) == 1 else \
                    f"{node.name}_in{i}_backward"
                src, k = node.inputs[i]
                z = MonNode(name, "zeros_like", [("fwd", src, k)], None, [f"{name}_output"],
                            info=node)   # the forward node: its control dependency
                contrib.setdefault((id(src), k), []).append(("mon", z, 0))
            continue
        deps = [og(j) for j in range(node.num_outputs()) if (id(node), j) in contrib]
        grad_nodes[id(node)] = (node, ogs)
        for suffix, refs, in_names, mapping, out_names in desc:
            name = "" if suffix is None else node.name + suffix
            inputs = []
            for kind, j in refs:
                if kind == "og":
                    inputs.append(og(j))
                elif kind == "in":
                    src, k = node.inputs[j]
                    inputs.append(("fwd", src, k))
                else:
                    inputs.append(("fwd", node, j))
            labels = _out_labels(name, len(mapping), out_names, bare=(suffix is None))
            g = MonNode(name, "grad", inputs, in_names, labels, info=(node, mapping))
            g.deps = tuple(deps)
            for out_k, i in enumerate(mapping):
                if i < nargs:
                    src, k = node.inputs[i]
                    contrib.setdefault((id(src), k), []).append(("mon", g, out_k))
    roots = []
    seen_refs = []
    for pos, (idx, var) in enumerate(requested):
        ref = aggregate(var, 0)
        if any(r == ref for r in seen_refs) and ref[0] == "mon":
            src = ref[1]
            name = f"{src.name}_{pos}_copy"
            c = MonNode(name, "copy", [ref], None, [f"{name}_output"])
            ref = ("mon", c, 0)
        seen_refs.append(ref)
        roots.append((idx, ref))
    run = [n for n in _post_order([r for _, r in roots], with_deps=False) if n.kind != "add"]
    compute = _post_order([r for _, r in roots], with_deps=True)
    return BackwardPlan(run, compute, roots, grad_nodes)


def _post_order(refs, with_deps):
    """Emulated nodes reachable from ``refs``, inputs first (depth-first, inputs in order)."""
    out, seen = [], set()
    for root in refs:
        if root[0] != "mon" or id(root[1]) in seen:
            continue
        seen.add(id(root[1]))
        stack = [(root[1], 0)]
        while stack:
            node, i = stack[-1]
            children = node.inputs + list(node.deps) if with_deps else node.inputs
            if i < len(children):
                stack[-1] = (node, i + 1)
                ref = children[i]
                if ref[0] == "mon" and id(ref[1]) not in seen:
                    seen.add(id(ref[1]))
                    stack.append((ref[1], 0))
            else:
                stack.pop()
                out.append(node)
    return out


# ------------------------------------------------------------------------------------------
# values and the report

def report_backward(plan, callback, monitor_all, fwd_value, head_grads, grad_arrays, ctx):
    """Call ``callback(label, NDArray)`` for the plan's nodes in 1.9.1's order.

    ``fwd_value(node, k)``: the raw value of forward entry ``(node, k)`` (None for an output
    our operator lacks); ``head_grads``: raw head gradients; ``grad_arrays``: per argument
    index, the bound gradient NDArray (shown for the requested gradients themselves).
    """
    from ..ndarray import op as _F
    values: dict = {}
    node_grads: dict = {}

    def raw_fwd(node, k):
        v = fwd_value(node, k)
        if v is None:   # an output 1.9.1 has and we lack
            v = phantom(node, k, [fwd_value(node, 0)])
        return v

    def value(ref):
        kind = ref[0]
        if kind == "fwd":
            return _ndm._new(raw_fwd(ref[1], ref[2]), ctx)
        if kind == "head":
            return _ndm._new(head_grads[ref[1]], ctx)
        return values[id(ref[1])][ref[2]]

    def zeros_of(raw):
        return _ndm._new(_xp_of(raw).zeros(raw.shape, dtype=raw.dtype), ctx)

    def rule_grads(node, ogs):
        key = id(node)
        if key in node_grads:
            return node_grads[key]
        nargs = node.num_args()
        # auxiliary states go in as copies: a rule may update them (BatchNorm's moving
        # statistics), which the compiled backward has done already
        ins = [_ndm._new(raw_fwd(s, k) if i < nargs else raw_fwd(s, k).copy(), ctx)
               for i, (s, k) in enumerate(node.inputs)]
        outs = [_ndm._new(raw_fwd(node, k), ctx) for k in range(node.num_outputs())]
        grads = [value(ogs[j]) if j in ogs and not (ogs[j][0] == "mon" and
                                                     ogs[j][1].kind == "zeros")
                 else zeros_of(o._data) for j, o in enumerate(outs)]
        try:
            res = node.op.apply_gradient(_F, node.parsed, ins, outs, grads,
                                         [i < nargs for i in range(len(ins))])
            res = list(res) if isinstance(res, (list, tuple)) else [res]
        except Exception as e:  # noqa: BLE001 - a monitor must not break training
            warnings.warn(f"monitor: the gradient of {node.name} ({node.op.name}) could not be "
                          f"evaluated for display ({type(e).__name__}: {e}); showing zeros",
                          stacklevel=4)
            res = []
        res = (res + [None] * len(ins))[:len(ins)]
        res = [zeros_of(a._data) if g is None else g for a, g in zip(ins, res)]
        node_grads[key] = res
        return res

    for mn in plan.compute:
        kind = mn.kind
        if kind == "head":
            out = [_ndm._new(head_grads[mn.info], ctx)]
        elif kind == "zeros":
            node, k = mn.info
            raw = raw_fwd(node, k)
            out = [zeros_of(raw)]
        elif kind == "zeros_like":
            out = [zeros_of(value(mn.inputs[0])._data)]
        elif kind in ("sum", "add"):
            acc = value(mn.inputs[0])
            for r in mn.inputs[1:]:
                acc = acc + value(r)
            out = [acc]
        elif kind in ("identity", "copy"):
            out = [value(mn.inputs[0])]
        else:
            node, mapping = mn.info
            _, ogs = plan.grad_nodes[id(node)]
            grads = rule_grads(node, ogs)
            out = [grads[i] for i in mapping]
        values[id(mn)] = out
    shown = {}
    for mn in plan.compute:   # a gradient summed into in place shows the running sum
        if mn.kind == "add" and mn.inputs[1][0] == "mon":
            shown[(id(mn.inputs[1][1]), mn.inputs[1][2])] = values[id(mn)][0]
    for idx, ref in plan.roots:
        g = grad_arrays[idx] if idx < len(grad_arrays) else None
        if g is not None and ref[0] == "mon":
            shown[(id(ref[1]), ref[2])] = g
    for mn in plan.order:
        if monitor_all:
            for ref, label in zip(mn.inputs, mn.labels):
                if ref[0] == "head":
                    callback(f"_head_grad_{ref[1]}", value(ref))
                elif ref[0] == "fwd" and ref[1].op is None:
                    callback(ref[1].name, value(ref))
                v = shown.get((id(ref[1]), ref[2])) if ref[0] == "mon" else None
                callback(label, value(ref) if v is None else v)
        for k, label in enumerate(mn.outputs):
            v = shown.get((id(mn), k))
            callback(label, values[id(mn)][k] if v is None else v)


# ------------------------------------------------------------------------------------------
# the op hook of a hybridized block (1.9.1's CachedOp)
#
# 1.9.1's CachedOp names what its op hook sees differently from the graph executor: an
# input is ``<node>_<input name>`` alone (no entry for the variable), and an output is
# ``<node>_<output name>`` only for the operators that declare output names; the others'
# outputs are numbered, ``<node>_0``, ``<node>_1`` ... Hidden outputs (BatchNorm's mean and
# var, Dropout's mask ...) are shown only in a call recorded for backward.

_HOOK_NAMED_OUTPUTS = frozenset((
    "Activation", "softmax", "softmin", "SoftmaxActivation", "elemwise_add", "Pooling",
    "Pooling_v1", "Convolution", "Convolution_v1", "Deconvolution", "FullyConnected",
    "LeakyReLU", "LayerNorm", "GroupNorm", "InstanceNorm", "BatchNorm", "BatchNorm_v1",
    "_contrib_SyncBatchNorm", "L2Normalization", "LRN", "Dropout", "Concat", "SliceChannel",
    "SoftmaxOutput", "SVMOutput", "MakeLoss", "make_loss", "SequenceMask", "SequenceLast",
    "SequenceReverse", "UpSampling", "Pad", "SwapAxis", "Crop", "GridGenerator",
    "BilinearSampler", "SpatialTransformer", "ROIPooling", "Correlation",
    "IdentityAttachKLSparseReg", "RNN", "Custom"))


def hook_labels(node, hidden):
    """(input labels, output labels) of an operator node as 1.9.1's op hook names them;
    ``hidden``: whether the hidden outputs are shown (a call recorded for backward)."""
    ins = [f"{node.name}_{nm}" for nm in _input_names(node)]
    n = mxnet_num_outputs(node) if hidden else node.num_visible_outputs()
    if node.op.name in _HOOK_NAMED_OUTPUTS:
        outs = output_names(node)[:n]
    else:
        outs = [f"{node.name}_{i}" for i in range(n)]
    return ins, outs


class OpHook:
    """An op hook installed on a hybridized graph: ``callback(name, op_name, NDArray)``, the
    names as ``bytes``, named and ordered as 1.9.1's CachedOp shows them.

    ``order``: the graph's nodes in topological order; ``heads``: its (node, index)
    outputs; ``var_pos``: id(variable node) -> position of its array among the inputs.
    ``static_alloc``: the graph was hybridized with ``static_alloc=True``; 1.9.1 then shows
    the hidden outputs of every call, and every output of the gradient nodes, read or not.
    (With ``static_shape=True`` as well, 1.9.1 runs most nodes in bulk and skips them in
    the hook, as its warning says; that is not reproduced: they are all shown.)
    """

    def __init__(self, order, heads, var_pos, callback, monitor_all, ctx, static_alloc=False):
        self.order, self.heads, self.var_pos = order, list(heads), var_pos
        self.callback, self.monitor_all, self.ctx = callback, bool(monitor_all), ctx
        self.static = bool(static_alloc)

    def forward_monitor(self, recorded):
        """The forward monitor of one call (hidden outputs shown when it is recorded)."""
        return op_hook_monitor(self.order, self.callback, self.monitor_all,
                               recorded or self.static, self.ctx)

    def report_backward(self, vals, ograds, mask):
        """Show the gradient nodes 1.9.1 runs for a recorded call: ``vals`` are the
        call's kept values (one per graph entry, in ``order``), ``ograds`` the raw head
        gradients, ``mask`` per input whether it wants a gradient. 1.9.1 shows neither the
        gradient nodes' inputs nor the outputs that no one reads (a gradient not asked
        for)."""
        from .executor import _GRAD_OP, _KIND_OP
        slot_of, n = {}, 0
        for node in self.order:
            for i in range(1 if node.op is None else node.num_outputs()):
                slot_of[(id(node), i)] = n
                n += 1
        requested, seen = [], set()
        for node in self.order:
            if node.op is None:
                pos = self.var_pos[id(node)]
                if pos < len(mask) and mask[pos] and pos not in seen:
                    seen.add(pos)
                    requested.append((pos, node))
        if not requested:
            return
        requested.sort(key=lambda p: p[0])
        plan = backward_plan(self.order, self.heads, requested)
        read = {(id(r[1]), r[2]) for mn in plan.order for r in mn.inputs if r[0] == "mon"}
        read.update((id(r[1]), r[2]) for _, r in plan.roots if r[0] == "mon")
        # with static_alloc and monitor_all, 1.9.1 shows the gradient nodes' inputs too
        inputs = self.static and self.monitor_all
        shown = []   # per callback report_backward makes, in its order: (label, op) or None
        for mn in plan.order:
            if mn.kind == "grad":
                name = mn.info[0].op.name
                op = _GRAD_OP.get(name, "_backward" + (name if name.startswith("_")
                                                       else "_" + name))
            else:
                op = _KIND_OP[mn.kind]
            if inputs:
                for ref, label in zip(mn.inputs, mn.labels):
                    if ref[0] == "head" or (ref[0] == "fwd" and ref[1].op is None):
                        shown.append(None)   # the variable's own entry: not in 1.9.1's
                    shown.append(None if mn.kind == "head" or not mn.name
                                 else (label.encode(), op.encode()))
            for k, label in enumerate(mn.outputs):
                if mn.kind == "head" or not mn.name or \
                        ((id(mn), k) not in read and not self.static):
                    shown.append(None)
                    continue
                if label == f"{mn.name}_output" or label == f"{mn.name}_output{k}":
                    label = f"{mn.name}_{k}"
                shown.append((label.encode(), op.encode()))
        it = iter(shown)
        callback = self.callback

        def each(_label, arr):
            got = next(it, None)
            if got is not None:
                callback(got[0], got[1], arr)

        def fwd_value(node, k):
            s = slot_of.get((id(node), k))
            return None if s is None else vals[s]

        report_backward(plan, each, inputs, fwd_value, list(ograds), [], self.ctx)


def op_hook_monitor(order, callback, monitor_all, hidden, ctx):
    """A forward monitor (``monitor(k, ins, outs)``, see ``GraphProgram.forward``) calling
    ``callback(name, op_name, NDArray)`` as 1.9.1's op hook does, names as ``bytes``."""
    nodes = [n for n in order if n.op is not None]
    cache: dict = {}

    def labels(k):
        got = cache.get(k)
        if got is None:
            node = nodes[k]
            ins, outs = hook_labels(node, hidden)
            got = cache[k] = ([s.encode() for s in ins], [s.encode() for s in outs],
                              node.op.name.encode())
        return got

    def monitor(k, ins, outs):
        in_labels, out_labels, op = labels(k)
        if ins is not None:
            if monitor_all:
                for label, d in zip(in_labels, ins):
                    callback(label, op, _ndm._new(d, ctx))
            return
        for j, label in enumerate(out_labels):
            d = outs[j] if j < len(outs) else phantom(nodes[k], j, outs)
            if d is not None:
                callback(label, op, _ndm._new(d, ctx))

    return monitor
