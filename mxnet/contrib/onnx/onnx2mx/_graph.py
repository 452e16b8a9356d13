"""Reads an ONNX graph and rebuilds it as an MXNet Symbol plus parameters."""
import numpy as np

from ....base import MXNetError
from ....onnx._deps import require_onnx


class Importer:
    """State of one import: the Symbols made so far and the constants known at import time.

    Converters (``_ops.CONVERTERS``) are called as ``fn(imp, node, attrs)`` and return
    the Symbols of the node's outputs (one Symbol or a list).
    """

    def __init__(self, graph, opset):
        self.onnx = require_onnx()
        from .... import symbol as sym
        self.S = sym
        self.opset = opset
        self.graph = graph
        self.consts = {}        # tensor name -> NumPy value known at import time
        self.syms = {}          # tensor name -> Symbol
        self.params = {}        # variable name -> NumPy value (weights the symbol reads)
        self.shapes = {}        # tensor name -> static shape from ONNX shape inference
        self._scalars = set()   # shape values that are 0-d
        self.shape_values = {}  # 1-D int tensor -> [int or (tensor, axis) known at run time]
        self.partial = {}       # tensor name -> dims from ONNX shape inference, None if open
        self.elem_types = {}    # tensor name -> ONNX element type
        self.ranks = {}         # tensor name -> rank from ONNX shape inference (dims may be open)
        self._names = set()
        self.input_names = set()  # the graph's data inputs
        self._inferred = set()    # tensors MXNet's shape inference was asked about

    # -- tensors -----------------------------------------------------------------------------
    def const(self, name):
        """The NumPy value of tensor ``name`` if it is known at import time, else None."""
        if not name:
            return None
        return self.consts.get(name)

    def is_const(self, name):
        return bool(name) and name in self.consts and name not in self.syms

    def sym(self, name):
        """The Symbol of tensor ``name``; a constant becomes a parameter variable."""
        s = self.syms.get(name)
        if s is not None:
            return s
        if name in self.consts:
            return self.param(name, self.consts[name])
        raise MXNetError(f"import_model: tensor '{name}' is used before any node produces it")

    def param(self, name, value):
        """A variable holding ``value`` as a parameter, named ``name`` (made unique)."""
        value = np.asarray(value)
        if value.ndim == 0:
            value = value.reshape(1)
        vname = self.unique(name)
        self.params[vname] = value
        s = self.S.var(vname, shape=value.shape, dtype=value.dtype)
        if vname == name:
            self.syms[name] = s
        return s

    def shape(self, name):
        """Static shape of tensor ``name`` (None when unknown or partly symbolic)."""
        c = self.consts.get(name)
        if c is not None:
            return tuple(c.shape)
        if name not in self.shapes and name in self.syms and name not in self._inferred:
            self._inferred.add(name)  # tried once, found or not
            found = self._infer_with_mxnet(name)
            if found is not None:
                self.shapes[name] = found
        return self.shapes.get(name)

    def _infer_with_mxnet(self, name):
        """The static shape of a tensor ONNX's inference left open, from MXNet's own shape
        inference over the Symbol built so far (when the graph's inputs have static shapes)."""
        s = self.syms[name]
        feed = {}
        for k in s.list_inputs():
            if k in self.input_names:
                if k not in self.shapes:
                    return None
                feed[k] = self.shapes[k]
        try:
            _, out, _ = s.infer_shape(**feed)
        except Exception:  # shapes MXNet cannot infer stay unknown
            return None
        if not out or out[0] is None or any(int(d) <= 0 for d in out[0]):
            return None
        return tuple(int(d) for d in out[0])

    def dims(self, name):
        """The dims of tensor ``name`` that are known (None for open ones), or None."""
        shape = self.shape(name)
        return shape if shape is not None else self.partial.get(name)

    def dtype(self, name):
        """The NumPy dtype name of tensor ``name``, or None when unknown."""
        c = self.consts.get(name)
        if c is not None:
            return c.dtype.name
        t = self.elem_types.get(name)
        if t is None:
            return None
        return np.dtype(self.onnx.helper.tensor_dtype_to_np_dtype(t)).name

    def rank(self, name, node=None):
        shape = self.shape(name)
        if shape is None and name in self.ranks:
            return self.ranks[name]
        if shape is None:
            if node is not None:
                self.fail(node, f"needs the rank of input '{name}', which ONNX shape inference "
                                "did not find")
            return None
        return len(shape)

    def unique(self, name):
        base, k = name, 0
        while name in self._names:
            k += 1
            name = f"{base}_{k}"
        self._names.add(name)
        return name

    @staticmethod
    def fail(node, what):
        raise MXNetError(f"import_model: ONNX operator {node.op_type} (node '{node.name}'): {what}")

    # -- the walk ----------------------------------------------------------------------------
    def _collect_shapes(self, model):
        try:
            inferred = self.onnx.shape_inference.infer_shapes(model).graph
        except Exception:  # ONNX's inference has gaps; converters then ask for what they need
            inferred = model.graph
        for vi in list(inferred.value_info) + list(inferred.input) + list(inferred.output):
            tt = vi.type.tensor_type
            if tt.elem_type:
                self.elem_types[vi.name] = tt.elem_type
            if not tt.HasField("shape"):
                continue
            dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
            self.ranks[vi.name] = len(dims)
            self.partial[vi.name] = tuple(dims)
            if all(d is not None for d in dims):
                self.shapes[vi.name] = tuple(dims)

    def run(self, model):
        from .... import ndarray as nd
        from ._ops import CONVERTERS, FOLDERS
        from onnx import numpy_helper
        graph = model.graph
        self._collect_shapes(model)
        for t in graph.initializer:
            if not t.name.strip():
                raise MXNetError("import_model: an initializer has no name")
            self.consts[t.name] = numpy_helper.to_array(t)
        for i in graph.input:
            if i.name not in self.consts:
                self._names.add(i.name)
                self.input_names.add(i.name)
                self.syms[i.name] = self.S.var(i.name)
        for node in graph.node:
            attrs = {a.name: self.onnx.helper.get_attribute_value(a) for a in node.attribute}
            attrs = {k: (v.decode() if isinstance(v, bytes) else
                         [e.decode() for e in v] if isinstance(v, list) and v
                         and isinstance(v[0], bytes) else v) for k, v in attrs.items()}
            if node.op_type in ("Shape", "Size") and self.shape(node.input[0]) is not None:
                # shapes ONNX inference pinned down become constants (sizes get baked in)
                full = self.shape(node.input[0])
                self.consts[node.output[0]] = np.asarray(
                    full[attrs.get("start", 0):attrs.get("end")], np.int64) \
                    if node.op_type == "Shape" else np.asarray(np.prod(full), np.int64)
                continue
            fold = FOLDERS.get(node.op_type)
            if fold is not None and all(not i or self.is_const(i) for i in node.input):
                values = fold(self, node, attrs, [self.const(i) for i in node.input])
                if values is not None:
                    for name, v in zip(node.output, values):
                        self.consts[name] = np.asarray(v)
                    continue
            conv = CONVERTERS.get(node.op_type)
            if conv is None:
                raise MXNetError(f"import_model: ONNX operator {node.op_type} (node "
                                 f"'{node.name}') is not supported")
            outs = conv(self, node, attrs)
            if not isinstance(outs, (list, tuple)):
                outs = [outs]
            for name, s in zip(node.output, outs):
                if name:
                    self.syms[name] = s
            self._track_shape_value(node, attrs)

        heads = [self.sym(o.name) for o in graph.output]
        out = heads[0] if len(heads) == 1 else self.S.Group(heads)
        args, auxs = set(out.list_arguments()), set(out.list_auxiliary_states())
        arg_params = {k: nd.array(v, dtype=v.dtype) for k, v in self.params.items() if k in args}
        aux_params = {k: nd.array(v, dtype=v.dtype) for k, v in self.params.items() if k in auxs}
        return out, arg_params, aux_params

    def _shape_value(self, name):
        """A 1-D integer tensor as a list of ints and ``(tensor, axis)`` run-time dims."""
        if name in self.shape_values:
            return self.shape_values[name]
        c = self.consts.get(name)
        if c is not None and c.ndim <= 1 and np.issubdtype(c.dtype, np.integer):
            return [int(v) for v in c.reshape(-1)]
        return None

    def _track_shape_value(self, node, attrs):
        """Follow run-time shapes through the small integer ops exporters build new shapes
        with (``x.view(x.size(0), -1)`` with a symbolic batch), so Reshape can still use them."""
        op, ins = node.op_type, node.input
        value = None
        scalar = False
        if op == "Shape":
            dims = self.dims(ins[0])
            if dims is not None:  # dims ONNX inference knows are plain numbers
                value = [(ins[0], i) if d is None else int(d) for i, d in enumerate(dims)]
                value = value[attrs.get("start", 0):attrs.get("end")]
        elif op in ("Unsqueeze", "Squeeze", "Identity", "Cast"):
            value = self._shape_value(ins[0])
            scalar = len(value or ()) == 1 if op == "Squeeze" else \
                op != "Unsqueeze" and self._is_scalar(ins[0])
        elif op == "Gather" and not attrs.get("axis", 0):
            v, idx = self._shape_value(ins[0]), self.consts.get(ins[1])
            if v is not None and idx is not None:
                value = [v[int(i)] for i in idx.reshape(-1)]
                scalar = idx.ndim == 0
        elif op == "Concat":
            parts = [self._shape_value(i) for i in ins]
            if all(p is not None for p in parts):
                value = [e for p in parts for e in p]
        elif op == "Slice" and len(ins) >= 3:
            v = self._shape_value(ins[0])
            bounds = [self.consts.get(i) if i else None for i in ins[1:5]]
            if v is not None and bounds[0] is not None and bounds[1] is not None and \
                    (len(bounds) < 3 or bounds[2] is None or int(bounds[2][0]) == 0):
                step = int(bounds[3][0]) if len(bounds) > 3 and bounds[3] is not None else 1
                value = v[int(bounds[0][0]):int(bounds[1][0]):step]
        out = node.output[0]
        if value is None or out in self.consts:
            return
        if all(isinstance(e, int) for e in value):
            # every dim known after all: a constant again, for the folders downstream
            dtype = self.onnx.helper.tensor_dtype_to_np_dtype(attrs["to"]) if op == "Cast" \
                else np.int64
            self.consts[out] = np.asarray(value, dtype).reshape(() if scalar else (-1,))
            self.syms.pop(out, None)
            return
        self.shape_values[out] = value
        if scalar:
            self._scalars.add(out)

    def _is_scalar(self, name):
        c = self.consts.get(name)
        return c.ndim == 0 if c is not None else name in self._scalars

    def node_name(self, node):
        """A unique MXNet name for the main Symbol of ``node``."""
        return self.unique(node.name.strip() or node.output[0])


def metadata(graph):
    """1.9.1's metadata dict: data inputs as (name, shape, elem_type), outputs as (name, shape)."""
    params = {t.name for t in graph.initializer}

    def dims(vi):
        return tuple(d.dim_value for d in vi.type.tensor_type.shape.dim)
    inputs = [(i.name, dims(i), i.type.tensor_type.elem_type) for i in graph.input
              if i.name not in params]
    outputs = [(o.name, dims(o)) for o in graph.output]
    return {"input_tensor_data": inputs, "output_tensor_data": outputs}


def opset_of(model):
    versions = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
    return max(versions) if versions else 1
