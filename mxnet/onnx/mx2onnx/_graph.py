"""Walks an MXNet Symbol and builds the ONNX graph, one converter per node."""
import logging

import numpy as np

from ...base import MXNetError
from .._deps import require_onnx

# The opset the converters are written against unless the caller asks for another. 1.9.1
# tested its exporter on opsets 12 and 13; 13 is also what most runtimes support best.
DEFAULT_OPSET = 13
MIN_OPSET = 12

# Loss layers whose label input is a training-only graph input: it is dropped on export.
_LOSS_LABEL_OPS = ("SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
                   "MAERegressionOutput", "SVMOutput")


class NoConverterError(MXNetError, AttributeError):
    """An operator without an ONNX converter. An AttributeError as in 1.9.1, and an
    MXNetError like every other error a user can cause."""


class NodeView:
    """What a converter sees of one MXNet node."""

    def __init__(self, builder, node, inputs, outputs, in_info, out_info):
        self._g = builder
        self.node = node
        self.name = outputs[0]
        self.op = node.op.name
        self.p = node.parsed           # parameters, typed, with 1.9.1's defaults filled
        self.inputs = inputs           # ONNX tensor names of the inputs
        self.outputs = outputs         # ONNX tensor names the converter must produce
        self._in = in_info             # [(shape, dtype)] per input
        self._out = out_info           # [(shape, dtype)] per visible output

    @property
    def out(self):
        return self.outputs[0]

    def dtype(self, i=0):
        """NumPy dtype of input ``i``."""
        return np.dtype(self._in[i][1])

    def out_dtype(self, i=0):
        return np.dtype(self._out[i][1])

    def rank(self, i=0):
        """Number of dimensions of input ``i`` (known even for dynamic exports)."""
        return len(self._in[i][0])

    def shape(self, i=0):
        """Static shape of input ``i``; refuses when the export has dynamic shapes."""
        self._g.need_static(self)
        return tuple(self._in[i][0])

    def param_shape(self, i):
        """Shape of input ``i`` when it is a parameter (always static)."""
        return tuple(self._in[i][0])

    def out_shape(self, i=0):
        self._g.need_static(self)
        return tuple(self._out[i][0])

    def fail(self, what):
        """Raise MXNetError for a parameter setting the converter cannot express."""
        raise MXNetError(f"ONNX export of operator {self.op} (node '{self.node.name}'): {what}")


class OnnxBuilder:
    """Collects ONNX nodes and initializers; offers opset-aware helpers to converters."""

    def __init__(self, opset, dynamic):
        self.onnx = require_onnx()
        from onnx import helper, numpy_helper
        self.helper = helper
        self.numpy_helper = numpy_helper
        self.opset = opset
        self.dynamic = dynamic
        self.nodes = []
        self.initializers = []
        self._used = set()
        self._node_names = set()

    # -- names and constants ---------------------------------------------------------------
    def reserve(self, name):
        self._used.add(name)
        return name

    def fresh(self, hint):
        """A tensor name not used yet, built from ``hint``."""
        name, k = hint, 0
        while name in self._used:
            k += 1
            name = f"{hint}_{k}"
        return self.reserve(name)

    def const(self, value, hint, dtype=None):
        """Add ``value`` as an initializer; return its name."""
        arr = np.asarray(value, dtype=dtype)
        name = self.fresh(hint)
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    def ints(self, values, hint):
        return self.const(np.asarray(values, dtype=np.int64).reshape(-1), hint)

    def scalar(self, value, dtype, hint):
        return self.const(np.asarray(value, dtype=dtype), hint)

    def need_static(self, n):
        if self.dynamic:
            raise MXNetError(f"ONNX export of operator {n.op} (node '{n.node.name}') needs static "
                             "input shapes with these parameters; export with dynamic=False")

    # -- nodes -----------------------------------------------------------------------------
    def add(self, op_type, inputs, outputs=None, hint=None, **attrs):
        """Append an ONNX node; ``outputs`` defaults to one fresh name. Returns the outputs."""
        if outputs is None:
            outputs = [self.fresh(f"{hint or op_type}_out")]
        elif isinstance(outputs, str):
            outputs = [outputs]
        name, k = hint or outputs[0], 0
        while name in self._node_names:
            k += 1
            name = f"{hint or outputs[0]}_{k}"
        self._node_names.add(name)
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(self.helper.make_node(op_type, list(inputs), list(outputs), name=name,
                                                **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def unsqueeze(self, x, axes, out=None, hint=None):
        axes = [int(a) for a in axes]
        if self.opset >= 13:
            return self.add("Unsqueeze", [x, self.ints(axes, f"{hint or x}_axes")], out, hint)
        return self.add("Unsqueeze", [x], out, hint, axes=axes)

    def squeeze(self, x, axes=None, out=None, hint=None):
        if axes is None:
            return self.add("Squeeze", [x], out, hint)
        axes = [int(a) for a in axes]
        if self.opset >= 13:
            return self.add("Squeeze", [x, self.ints(axes, f"{hint or x}_axes")], out, hint)
        return self.add("Squeeze", [x], out, hint, axes=axes)

    def reduce(self, op_type, x, axes=None, keepdims=True, out=None, hint=None):
        """ReduceX over ``axes`` (None: all); axes move from attribute to input by opset."""
        keep = 1 if keepdims else 0
        axes_as_input = self.opset >= (13 if op_type == "ReduceSum" else 18)
        if axes is None:
            return self.add(op_type, [x], out, hint, keepdims=keep)
        axes = [int(a) for a in axes]
        if axes_as_input:
            return self.add(op_type, [x, self.ints(axes, f"{hint or x}_axes")], out, hint,
                            keepdims=keep)
        return self.add(op_type, [x], out, hint, axes=axes, keepdims=keep)

    def slice(self, x, starts, ends, axes, steps=None, out=None, hint=None):
        h = hint or x
        ins = [x, self.ints(starts, f"{h}_starts"), self.ints(ends, f"{h}_ends"),
               self.ints(axes, f"{h}_axes")]
        if steps is not None:
            ins.append(self.ints(steps, f"{h}_steps"))
        return self.add("Slice", ins, out, hint)

    def softmax(self, op_type, x, axis, rank, out=None, hint=None):
        """Softmax/LogSoftmax along one axis, whatever the opset's coercion rules."""
        axis = axis % rank if rank else 0
        if self.opset >= 13 or axis == rank - 1:
            return self.add(op_type, [x], out, hint, axis=axis)
        # before opset 13 Softmax flattens the trailing dims: move the axis last and back
        perm = [i for i in range(rank) if i != axis] + [axis]
        back = [perm.index(i) for i in range(rank)]
        t = self.add("Transpose", [x], None, hint, perm=perm)
        s = self.add(op_type, [t], None, hint, axis=rank - 1)
        return self.add("Transpose", [s], out, hint, perm=back)


def _input_names(sym, params):
    """Graph inputs the caller gives shapes for, in list_inputs() order (1.9.1's rule)."""
    from ...symbol.graph import topo_order
    labels = set()
    for node in topo_order(sym._outputs):
        if node.op is not None and node.op.name in _LOSS_LABEL_OPS and len(node.inputs) > 1:
            src = node.inputs[1][0]
            if src.op is None and src.name not in params:
                labels.add(src.name)
    return [n for n in sym.list_inputs() if n not in params and n not in labels]


def _never(_params):
    return False


def _normalise_params(params):
    """A dict name -> NumPy array, ``arg:``/``aux:`` prefixes dropped."""
    out = {}
    for k, v in params.items():
        if k.startswith(("arg:", "aux:")):
            k = k[4:]
        out[k] = v.asnumpy() if hasattr(v, "asnumpy") else np.asarray(v)
    return out


def build_graph(sym, params, in_shapes, in_dtypes, opset, dynamic=False,
                dynamic_input_shapes=None, verbose=False):
    """Convert ``sym`` (with ``params`` as initializers) to an onnx GraphProto."""
    from ...symbol.graph import topo_order
    from ...symbol.symbol import Symbol
    from ._registry import NUMBERED_OUTPUTS, load_converters
    converters = load_converters()
    g = OnnxBuilder(opset, dynamic)
    helper = g.helper
    params = _normalise_params(params)

    data_names = _input_names(sym, params)
    in_shapes = [tuple(s) for s in in_shapes]
    if len(in_shapes) != len(data_names):
        raise MXNetError(f"export_model: the model has {len(data_names)} data input(s) "
                         f"{data_names} but in_shapes has {len(in_shapes)} shape(s) {in_shapes}")
    if len(in_dtypes) != len(in_shapes):
        raise MXNetError(f"export_model: in_types has {len(in_dtypes)} entries, in_shapes "
                         f"{len(in_shapes)}; give one type per input shape")
    if dynamic_input_shapes is not None:
        if not dynamic:
            raise MXNetError("export_model: dynamic_input_shapes is given but dynamic=False; "
                             "pass dynamic=True to export dynamic input shapes")
        if len(dynamic_input_shapes) != len(in_shapes) or any(
                len(a) != len(b) for a, b in zip(dynamic_input_shapes, in_shapes)):
            raise MXNetError(f"export_model: dynamic_input_shapes {dynamic_input_shapes} must "
                             f"have the same number and ranks of shapes as in_shapes {in_shapes}")

    order = topo_order(sym._outputs)
    internals = Symbol([(node, i) for node in order for i in range(node.num_visible_outputs())])
    known_shapes = dict(zip(data_names, in_shapes))
    known_types = dict(zip(data_names, in_dtypes))
    used_vars = {n.name for n in order if n.op is None}
    for k, v in params.items():
        if k in used_vars:
            known_shapes[k] = v.shape
            known_types[k] = v.dtype
    try:
        _, out_shapes, _ = internals.infer_shape(**known_shapes)
        _, out_types, _ = internals.infer_type(**known_types)
    except MXNetError as err:
        raise MXNetError(f"export_model: cannot infer the model's shapes from in_shapes "
                         f"{dict(zip(data_names, in_shapes))}: {err}") from err
    info = {}
    k = 0
    for node in order:
        for i in range(node.num_visible_outputs()):
            info[(id(node), i)] = (out_shapes[k], out_types[k])
            k += 1

    # names: a node's first output is its name, output i is name + str(i) (as in 1.9.1);
    # the ops 1.9.1 numbers from 0 (split, topk, box_nms) are named name0, name1, ...
    names = {}
    seen = set()
    for idx, node in enumerate(order):
        base = node.name if node.name not in seen else f"idx_{idx}_{node.name}"
        seen.add(node.name)
        numbered = node.op is not None and NUMBERED_OUTPUTS.get(node.op.name, _never)(node.parsed)
        for i in range(node.num_outputs()):
            names[(id(node), i)] = g.reserve(
                f"{base}{i}" if numbered else base if i == 0 else f"{base}{i}")

    graph_inputs = []
    data_set = set(data_names)
    dyn = dict(zip(data_names, dynamic_input_shapes or [None] * len(data_names)))
    for idx, node in enumerate(order):
        out_name = names[(id(node), 0)]
        if node.op is None:
            if node.name in data_set:
                shape, dtype = info[(id(node), 0)]
                if dynamic:
                    shape = dyn[node.name] or tuple(None for _ in shape)
                graph_inputs.append(helper.make_tensor_value_info(
                    out_name, helper.np_dtype_to_tensor_dtype(np.dtype(dtype)), shape))
            elif node.name in params:
                g.initializers.append(g.numpy_helper.from_array(
                    np.ascontiguousarray(params[node.name]), out_name))
            # else: a loss label, not part of the inference graph
            continue
        conv = converters.get(node.op.name)
        if conv is None:
            raise NoConverterError(
                f"No conversion function registered for op type {node.op.name} yet.")
        if verbose:
            logging.info("Converting idx: %d, op: %s, name: %s", idx, node.op.name, node.name)
        ins = [names[(id(s), j)] for s, j in node.inputs]
        in_info = [info.get((id(s), j), ((), np.float32)) for s, j in node.inputs]
        outs = [names[(id(node), i)] for i in range(node.num_visible_outputs())]
        out_info = [info[(id(node), i)] for i in range(node.num_visible_outputs())]
        conv(g, NodeView(g, node, ins, outs, in_info, out_info))

    graph_outputs = []
    emitted = set()
    for node, i in sym._outputs:
        name = names[(id(node), i)]
        shape, dtype = info[(id(node), i)]
        if name in emitted:  # the same tensor twice among the heads: ONNX needs two names
            name = g.add("Identity", [name], hint=f"{name}_dup")
        emitted.add(name)
        if dynamic:
            shape = tuple(None for _ in shape)
        graph_outputs.append(helper.make_tensor_value_info(
            name, helper.np_dtype_to_tensor_dtype(np.dtype(dtype)), shape))

    # drop constants no node reads (e.g. the gamma that fix_gamma=True replaces)
    read = {t for nd in g.nodes for t in nd.input} | {o.name for o in graph_outputs}
    g.initializers = [t for t in g.initializers if t.name in read]
    graph = helper.make_graph(g.nodes, "mxnet_converted_model", graph_inputs, graph_outputs,
                              initializer=g.initializers)
    return graph
