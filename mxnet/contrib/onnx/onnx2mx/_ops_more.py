"""More ONNX converters: recurrent layers, sorting, indexing, logic, sequence and detection
ops, extra reductions and samplers (what 1.9.1's importer reads, plus what our exporter
writes)."""
import numpy as np

from ._ops import (_aligned, _const_input, _item, _reduction, _sym_inputs, converter,
                   folder)

# -- more folders (constant subgraphs exporters write, e.g. PyTorch's pads arithmetic) ------


@folder("Transpose")
def fold_transpose(imp, node, attrs, values):
    perm = attrs.get("perm")
    return [np.transpose(values[0], perm if perm else None)]


_NP_MORE = {"Neg": np.negative, "Abs": np.abs, "Floor": np.floor, "Ceil": np.ceil,
            "Sqrt": np.sqrt, "Not": np.logical_not, "Sign": np.sign}


@folder(*_NP_MORE)
def fold_unary(imp, node, attrs, values):
    return [_NP_MORE[node.op_type](values[0])]


@folder("Max", "Min")
def fold_extreme(imp, node, attrs, values):
    fn = np.maximum if node.op_type == "Max" else np.minimum
    y = values[0]
    for v in values[1:]:
        y = fn(y, v)
    return [y]


@folder("Expand")
def fold_expand(imp, node, attrs, values):
    x, shape = values
    return [x * np.ones(tuple(int(d) for d in shape), x.dtype)]


@folder("Tile")
def fold_tile(imp, node, attrs, values):
    return [np.tile(values[0], [int(r) for r in values[1]])]


@folder("Where")
def fold_where(imp, node, attrs, values):
    return [np.where(values[0], values[1], values[2])]


@folder("Mod")
def fold_mod(imp, node, attrs, values):
    fn = np.fmod if attrs.get("fmod", 0) else np.mod
    return [fn(values[0], values[1])]


@folder("Size")
def fold_size(imp, node, attrs, values):
    return [np.asarray(values[0].size, np.int64)]

# -- recurrent layers ------------------------------------------------------------------------

# ONNX's gate blocks -> MXNet's: LSTM (i, o, f, c) -> (i, f, c, o); GRU (z, r, h) -> (r, z, n)
_RNN_KINDS = {"LSTM": (4, [0, 2, 3, 1]), "GRU": (3, [1, 0, 2]), "RNN": (1, [0])}
_DEFAULT_ACTS = {"LSTM": ["sigmoid", "tanh", "tanh"], "GRU": ["sigmoid", "tanh"]}


def _rnn_mode(imp, node, attrs, ndir):
    acts = [a.lower() for a in attrs.get("activations", [])]
    if node.op_type == "RNN":
        acts = acts or ["tanh"] * ndir
        if len(set(acts)) != 1 or acts[0] not in ("tanh", "relu"):
            imp.fail(node, f"activations={attrs['activations']} are not supported; expected "
                     "Tanh or Relu in every direction")
        return "rnn_" + acts[0]
    default = _DEFAULT_ACTS[node.op_type]
    if acts and acts != default * ndir:
        imp.fail(node, f"activations={attrs['activations']} are not supported; expected the "
                 "defaults")
    if node.op_type == "GRU" and not attrs.get("linear_before_reset", 0):
        imp.fail(node, "linear_before_reset=0 is not supported; MXNet's GRU applies the reset "
                 "gate after the recurrent linear map (linear_before_reset=1)")
    return node.op_type.lower()


@converter("LSTM", "GRU", "RNN")
def rnn(imp, node, attrs):
    S = imp.S
    gates, order = _RNN_KINDS[node.op_type]
    direction = attrs.get("direction", "forward")
    if direction not in ("forward", "bidirectional"):
        imp.fail(node, f"direction={direction!r} is not supported")
    ndir = 2 if direction == "bidirectional" else 1
    mode = _rnn_mode(imp, node, attrs, ndir)
    for key in ("clip", "input_forget"):
        if attrs.get(key):
            imp.fail(node, f"{key}={attrs[key]} is not supported")
    hidden = int(attrs["hidden_size"])
    w = _const_input(imp, node, 1, "W")
    r = _const_input(imp, node, 2, "R")
    b = _const_input(imp, node, 3, "B")
    lens = _const_input(imp, node, 4, "sequence_lens")
    if len(node.input) > 7 and node.input[7]:
        p = _const_input(imp, node, 7, "P")
        if np.any(p):
            imp.fail(node, "peephole weights (input P) are not supported")
    if b is None:
        b = np.zeros((ndir, 2 * gates * hidden), w.dtype)

    def blocks(m):  # (G*H, ...) in ONNX's gate order -> flat, in MXNet's
        return m.reshape((gates, hidden) + m.shape[1:])[order].reshape(-1)
    weights = []
    for d in range(ndir):
        weights += [blocks(w[d]), blocks(r[d])]
    for d in range(ndir):
        weights += [blocks(b[d][:gates * hidden]), blocks(b[d][gates * hidden:])]
    name = imp.node_name(node)
    params = imp.param(f"{name}_parameters", np.concatenate(weights).astype(w.dtype))
    layout = int(attrs.get("layout", 0))
    x = imp.sym(node.input[0])
    if layout:
        x = S.swapaxes(x, dim1=0, dim2=1)
    if lens is not None:
        tshape = imp.shape(node.input[0])
        steps = tshape[1 if layout else 0] if tshape is not None else None
        if steps is None or np.any(np.asarray(lens) != steps):
            imp.fail(node, "sequence_lens shorter than the sequence are not supported")

    def state(index):
        if len(node.input) > index and node.input[index]:
            s = imp.sym(node.input[index])
            return S.swapaxes(s, dim1=0, dim2=1) if layout else s
        # zeros of shape (directions, batch, hidden), the batch read off the input
        first = S.slice_axis(x, axis=0, begin=0, end=1)
        z = S.zeros_like(S.sum(first, axis=2, keepdims=True))
        return S.broadcast_to(z, shape=(ndir, 0, hidden))
    ins = [x, params, state(5)]
    if mode == "lstm":
        ins.append(state(6))
    out = S.RNN(*ins, state_size=hidden, num_layers=1, bidirectional=ndir == 2, mode=mode,
                state_outputs=True, name=name)
    # MXNet's (seq, batch, directions * H) -> ONNX's Y (seq, directions, batch, H)
    y = S.transpose(S.Reshape(out[0], shape=(0, 0, -4, ndir, hidden)),
                    axes=(1, 0, 2, 3) if layout else (0, 2, 1, 3))
    outs = [y] + [out[i] for i in range(1, 3 if mode == "lstm" else 2)]
    if layout:
        outs = outs[:1] + [S.swapaxes(s, dim1=0, dim2=1) for s in outs[1:]]
    return outs


# -- sorting and selection ---------------------------------------------------------------------

@converter("TopK")
def topk(imp, node, attrs):
    k = _const_input(imp, node, 1, "K")
    k = int(attrs["k"]) if k is None else int(_item(k))
    axis = int(attrs.get("axis", -1))
    vals, idx = imp.S.topk(imp.sym(node.input[0]), axis=axis, k=k, ret_typ="both",
                           is_ascend=not attrs.get("largest", 1), dtype="int64",
                           name=imp.node_name(node))
    return [vals, idx]


@converter("Hardmax")
def hardmax(imp, node, attrs):
    shape = imp.shape(node.input[0])
    if shape is None:
        imp.fail(node, "needs the input's static shape")
    rank = len(shape)
    x = imp.sym(node.input[0])
    name = imp.node_name(node)
    if imp.opset >= 13:
        axis = int(attrs.get("axis", -1)) % rank
        y = imp.S.one_hot(imp.S.argmax(x, axis=axis), depth=shape[axis])
        if axis != rank - 1:
            perm = list(range(axis)) + [rank - 1] + list(range(axis, rank - 1))
            y = imp.S.transpose(y, axes=tuple(perm))
        return imp.S.identity(y, name=name)
    # before opset 13: over the dims from ``axis`` on, flattened together
    axis = int(attrs.get("axis", 1)) % rank
    depth = int(np.prod(shape[axis:]))
    flat = imp.S.Reshape(x, shape=(int(np.prod(shape[:axis])), depth))
    y = imp.S.one_hot(imp.S.argmax(flat, axis=1), depth=depth)
    return imp.S.Reshape(y, shape=shape, name=name)


# -- logic and arithmetic -------------------------------------------------------------------

_LOGICAL = {"And": "broadcast_logical_and", "Or": "broadcast_logical_or",
            "Xor": "broadcast_logical_xor"}


def _ranked_pair(imp, node):
    ra, rb = imp.rank(node.input[0]), imp.rank(node.input[1])
    rank = max(ra, rb) if ra is not None and rb is not None else None
    return _aligned(imp, node, 0, rank), _aligned(imp, node, 1, rank)


@converter(*_LOGICAL)
def logical(imp, node, attrs):
    # MXNet's logical operators take numbers, not booleans: 0/1 in float32 come back
    a, b = (imp.S.Cast(s, dtype="float32") for s in _ranked_pair(imp, node))
    return getattr(imp.S, _LOGICAL[node.op_type])(a, b, name=imp.node_name(node))


@converter("Mod")
def mod(imp, node, attrs):
    S = imp.S
    a, b = _ranked_pair(imp, node)
    name = imp.node_name(node)
    if not attrs.get("fmod", 0):  # the divisor's sign, as MXNet's own remainder
        return S.broadcast_mod(a, b, name=name)
    # C's fmod takes the dividend's sign: undo MXNet's shift by the divisor where they differ
    r = S.broadcast_mod(a, b)
    zero = S.zeros_like(r)
    differ = S.broadcast_not_equal(S.broadcast_lesser(r, zero),
                                   S.broadcast_lesser(S.broadcast_add(a, zero), zero))
    shift = S.broadcast_logical_and(differ, S.broadcast_not_equal(r, zero))
    return S.where(shift, S.broadcast_sub(r, S.broadcast_add(b, zero)), r, name=name)


# -- shapes -----------------------------------------------------------------------------------

@converter("Shape")
def shape(imp, node, attrs):
    y = imp.S.shape_array(imp.sym(node.input[0]))
    start, end = attrs.get("start"), attrs.get("end")
    if start is None and end is None:
        return imp.S.identity(y, name=imp.node_name(node))
    return imp.S.slice_axis(y, axis=0, begin=int(start or 0),
                            end=None if end is None else int(end), name=imp.node_name(node))


@converter("Size")
def size(imp, node, attrs):
    # a (1,) array: MXNet's symbols have no 0-d arrays
    return imp.S.size_array(imp.sym(node.input[0]), name=imp.node_name(node))


@converter("DepthToSpace")
def depth_to_space(imp, node, attrs):
    S = imp.S
    block = int(attrs["blocksize"])
    x = imp.sym(node.input[0])
    name = imp.node_name(node)
    if attrs.get("mode", "DCR") == "DCR":
        return S.depth_to_space(x, block_size=block, name=name)
    # CRD: channels split as (C', b, b)
    y = S.Reshape(x, shape=(0, -4, -1, block * block, -2))
    y = S.Reshape(y, shape=(0, 0, -4, block, block, -2))
    y = S.transpose(y, axes=(0, 1, 4, 2, 5, 3))
    return S.Reshape(y, shape=(0, 0, -3, -3), name=name)


@converter("SpaceToDepth")
def space_to_depth(imp, node, attrs):
    return imp.S.space_to_depth(imp.sym(node.input[0]), block_size=int(attrs["blocksize"]),
                                name=imp.node_name(node))


def filled(imp, node, value, dtype, fill=0.0):
    """A Symbol of shape ``value`` (a run-time shape: ints and ``(tensor, axis)`` dims) filled
    with ``fill``: constant dims from a constant, each run-time dim broadcast in from its
    tensor."""
    rank = len(value)
    base = np.full(tuple(e if isinstance(e, int) else 1 for e in value), fill, np.float32)
    y = imp.param(f"{node.name or node.output[0]}_fill", base)
    for p, e in enumerate(value):
        if isinstance(e, tuple):
            src, axis = e
            dim = imp.S.Reshape(imp.S.contrib.arange_like(imp.sym(src), axis=axis),
                                shape=(1,) * p + (-1,) + (1,) * (rank - p - 1))
            y = imp.S.broadcast_add(y, imp.S.zeros_like(dim))
    return imp.S.Cast(y, dtype=dtype)


@converter("ConstantOfShape")
def constant_of_shape(imp, node, attrs):
    from onnx import numpy_helper
    value = numpy_helper.to_array(attrs["value"]) if "value" in attrs else np.zeros(1, np.float32)
    shape = imp.shape_values.get(node.input[0])
    if shape is None:
        imp.fail(node, "a shape known only at run time is supported only when it is built from "
                 "constants and tensors' dims (Shape/Gather/Slice/Concat)")
    y = filled(imp, node, shape, value.dtype.name, float(value.reshape(-1)[0]))
    return imp.S.identity(y, name=imp.node_name(node))


@converter("Range")
def range_(imp, node, attrs):
    # torch.arange(x.size(i)): 0, 1, ..., a run-time dim - 1
    start, delta = imp.const(node.input[0]), imp.const(node.input[2])
    limit = imp.shape_values.get(node.input[1])
    if start is None or delta is None or _item(start) != 0 or _item(delta) != 1 or \
            limit is None or len(limit) != 1 or isinstance(limit[0], int):
        imp.fail(node, "bounds known only at run time are supported only as Range(0, a "
                 "tensor's dim, 1)")
    src, axis = limit[0]
    y = imp.S.contrib.arange_like(imp.sym(src), axis=axis)
    return imp.S.Cast(y, dtype=np.asarray(start).dtype.name, name=imp.node_name(node))


# -- indexing -----------------------------------------------------------------------------------

def _wrap(imp, node, idx, dim):
    """ONNX's negative indices count from the end: idx + (idx < 0) * dim (``dim`` an int or
    a (1,) int64 Symbol)."""
    neg = imp.S.Cast(imp.S._internal._lesser_scalar(idx, scalar=0), dtype="int64")
    if isinstance(dim, int):
        return imp.S.Cast(idx, dtype="int64") + neg * dim
    return imp.S.broadcast_add(imp.S.Cast(idx, dtype="int64"), imp.S.broadcast_mul(neg, dim))


def _coords(imp, node, idx, rank, axis):
    """Full coordinates (rank, *idx.shape) for an element-wise gather/scatter along ``axis``:
    ``idx`` itself on that axis, each element's own position on the others."""
    S = imp.S
    parts = []
    for j in range(rank):
        if j == axis:
            parts.append(S.expand_dims(idx, axis=0))
            continue
        pos = S.Reshape(S.contrib.arange_like(idx, axis=j),
                        shape=(1,) * j + (-1,) + (1,) * (rank - j - 1))
        parts.append(S.expand_dims(S.Cast(S.broadcast_like(pos, idx), dtype="int64"), axis=0))
    return S.Concat(*parts, dim=0, num_args=rank)


def _dim_of(imp, node, index, axis):
    """Dim ``axis`` of input ``index``: an int when static, else a (1,) int64 Symbol."""
    shape = imp.shape(node.input[index])
    if shape is not None:
        return int(shape[axis])
    dims = imp.S.shape_array(imp.sym(node.input[index]))
    return imp.S.Cast(imp.S.slice_axis(dims, axis=0, begin=axis, end=axis + 1), dtype="int64")


@converter("GatherElements")
def gather_elements(imp, node, attrs):
    rank = imp.rank(node.input[0], node)
    axis = int(attrs.get("axis", 0)) % rank
    idx = _wrap(imp, node, imp.sym(node.input[1]), _dim_of(imp, node, 0, axis))
    return imp.S.gather_nd(imp.sym(node.input[0]), _coords(imp, node, idx, rank, axis),
                           name=imp.node_name(node))


@converter("ScatterElements", "Scatter")
def scatter_elements(imp, node, attrs):
    S = imp.S
    if attrs.get("reduction", "none") != "none":
        imp.fail(node, f"reduction={attrs['reduction']!r} is not supported")
    dshape = imp.shape(node.input[0])
    if dshape is None:
        imp.fail(node, "needs the data's static shape")
    axis = int(attrs.get("axis", 0)) % len(dshape)
    idx = _wrap(imp, node, imp.sym(node.input[1]), int(dshape[axis]))
    coords = _coords(imp, node, idx, len(dshape), axis)
    data, upd = imp.sym(node.input[0]), imp.sym(node.input[2])
    hit = S.scatter_nd(S.ones_like(upd), coords, shape=tuple(dshape))
    new = S.scatter_nd(upd, coords, shape=tuple(dshape))
    return S.where(hit, new, data, name=imp.node_name(node))


@converter("GatherND")
def gather_nd(imp, node, attrs):
    S = imp.S
    r = imp.rank(node.input[1], node)
    idx = S.Cast(imp.sym(node.input[1]), dtype="int64")
    batch = int(attrs.get("batch_dims", 0))
    if batch > 1:
        imp.fail(node, f"batch_dims={batch} is not supported; expected 0 or 1")
    if batch == 1:
        # prepend each row's batch number to its coordinates
        rows = S.Cast(S.contrib.arange_like(idx, axis=0), dtype="int64")
        rows = S.Reshape(rows, shape=(-1,) + (1,) * (r - 1))
        rows = S.broadcast_like(rows, S.slice_axis(idx, axis=-1, begin=0, end=1))
        idx = S.Concat(rows, idx, dim=r - 1, num_args=2)
    # ONNX's coordinates sit on the indices' last axis, MXNet's on the first
    idx = S.transpose(idx, axes=(r - 1,) + tuple(range(r - 1)))
    return S.gather_nd(imp.sym(node.input[0]), idx, name=imp.node_name(node))


@converter("OneHot")
def one_hot(imp, node, attrs):
    S = imp.S
    depth = int(_item(_const_input(imp, node, 1, "depth")))
    values = _const_input(imp, node, 2, "values")
    axis = int(attrs.get("axis", -1))
    idx = _wrap(imp, node, imp.sym(node.input[0]), depth)
    y = S.one_hot(idx, depth=depth, off_value=float(values[0]), on_value=float(values[1]),
                  dtype=np.dtype(values.dtype).name)
    rank = imp.rank(node.input[0], node) + 1
    axis %= rank
    name = imp.node_name(node)
    if axis == rank - 1:
        return S.identity(y, name=name)
    perm = list(range(axis)) + [rank - 1] + list(range(axis, rank - 1))
    return S.transpose(y, axes=tuple(perm), name=name)


@converter("ReverseSequence")
def reverse_sequence(imp, node, attrs):
    S = imp.S
    t, b = int(attrs.get("time_axis", 0)), int(attrs.get("batch_axis", 1))
    x = imp.sym(node.input[0])
    if (t, b) == (1, 0):
        x = S.swapaxes(x, dim1=0, dim2=1)
    elif (t, b) != (0, 1):
        imp.fail(node, f"time_axis={t}, batch_axis={b} are not supported")
    y = S.SequenceReverse(x, imp.sym(node.input[1]), use_sequence_length=True,
                          name=imp.node_name(node) if t == 0 else None)
    return y if t == 0 else S.swapaxes(y, dim1=0, dim2=1, name=imp.node_name(node))


# -- reductions and normalisation -------------------------------------------------------------

@converter("ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")
def reduce_more(imp, node, attrs):
    S = imp.S
    x, name, axis, keep, noop = _reduction(imp, node, attrs)
    if noop:
        return S.identity(x, name=name)
    if node.op_type == "ReduceSumSquare":
        return S.sum(S.square(x), axis=axis, keepdims=keep, name=name)
    if node.op_type == "ReduceLogSum":
        return S.log(S.sum(x, axis=axis, keepdims=keep), name=name)
    # log(sum(exp(x))) with the maximum taken out, so large inputs do not overflow
    m = S.max(x, axis=axis, keepdims=True)
    y = S.log(S.sum(S.exp(S.broadcast_sub(x, m)), axis=axis, keepdims=True)) + m
    return S.identity(y, name=name) if keep else S.squeeze(y, axis=axis, name=name)


@converter("LpNormalization")
def lp_normalization(imp, node, attrs):
    p = int(attrs.get("p", 2))
    if p not in (1, 2):
        imp.fail(node, f"p={p} is not supported; expected 1 or 2")
    x = imp.sym(node.input[0])
    norm = imp.S.norm(x, ord=p, axis=int(attrs.get("axis", -1)), keepdims=True)
    return imp.S.broadcast_div(x, norm, name=imp.node_name(node))


@converter("FC")
def fully_connected(imp, node, attrs):
    wshape = imp.shape(node.input[1])
    if wshape is None:
        imp.fail(node, "needs the weight's shape")
    ins = _sym_inputs(imp, node)
    return imp.S.FullyConnected(*ins, num_hidden=int(wshape[0]), no_bias=len(ins) < 3,
                                name=imp.node_name(node))


# -- detection and resizing --------------------------------------------------------------------

@converter("MaxRoiPool")
def max_roi_pool(imp, node, attrs):
    return imp.S.ROIPooling(*_sym_inputs(imp, node), pooled_size=tuple(attrs["pooled_shape"]),
                            spatial_scale=float(attrs.get("spatial_scale", 1.0)),
                            name=imp.node_name(node))


@converter("RoiAlign")
def roi_align(imp, node, attrs):
    S = imp.S
    if attrs.get("mode", "avg") != "avg":
        imp.fail(node, f"mode={attrs['mode']!r} is not supported; expected 'avg'")
    default = "half_pixel" if imp.opset >= 16 else "output_half_pixel"
    ctm = attrs.get("coordinate_transformation_mode", default)
    x, rois, batch = _sym_inputs(imp, node)
    rois5 = S.Concat(S.expand_dims(S.Cast(batch, dtype="float32"), axis=1),
                     S.Cast(rois, dtype="float32"), dim=1, num_args=2)
    return S.contrib.ROIAlign(x, rois5, pooled_size=(int(attrs.get("output_height", 1)),
                                                     int(attrs.get("output_width", 1))),
                              spatial_scale=float(attrs.get("spatial_scale", 1.0)),
                              sample_ratio=int(attrs.get("sampling_ratio", 0)) or -1,
                              aligned=ctm == "half_pixel", name=imp.node_name(node))


def resize_linear(imp, node, attrs, scales, sizes):
    """Resize with mode='linear' on the last two dims of a 4-D input -> BilinearResize2D."""
    shape = imp.dims(node.input[0])
    if shape is None or len(shape) != 4:
        imp.fail(node, "mode='linear' needs a 4-D input")
    if sizes is not None and len(sizes):
        out = list(sizes)  # ints, or "same" for the input's own dim
    else:
        sc = [float(s) for s in np.asarray(scales).reshape(-1)]
        if sc[:2] != [1.0, 1.0] or None in shape[2:]:
            imp.fail(node, f"scales {sc} need the input's static height and width and must "
                     "keep the first two dims")
        out = ["same", "same"] + [int(np.floor(d * s)) for d, s in zip(shape[2:], sc[2:])]
    out = [d if s == "same" else s for s, d in zip(out, shape)]
    if out[:2] != list(shape[:2]) or None in out[2:]:
        imp.fail(node, "only the last two dims can be resized, to static sizes")
    ctm = attrs.get("coordinate_transformation_mode", "half_pixel")
    if ctm not in ("align_corners", "half_pixel", "pytorch_half_pixel"):
        imp.fail(node, f"coordinate_transformation_mode={ctm!r} is not supported")
    return imp.S.contrib.BilinearResize2D(imp.sym(node.input[0]), height=out[2], width=out[3],
                                          align_corners=ctm == "align_corners",
                                          name=imp.node_name(node))


# -- samplers -----------------------------------------------------------------------------------

def _onnx_dtype(attrs, default=1):
    from onnx import helper
    return np.dtype(helper.tensor_dtype_to_np_dtype(int(attrs.get("dtype", default)))).name


@converter("RandomUniform", "RandomNormal")
def random_sample(imp, node, attrs):
    shape = tuple(int(s) for s in attrs["shape"])
    dtype = _onnx_dtype(attrs)
    name = imp.node_name(node)
    if node.op_type == "RandomUniform":
        return imp.S.random.uniform(low=float(attrs.get("low", 0.0)),
                                    high=float(attrs.get("high", 1.0)), shape=shape,
                                    dtype=dtype, name=name)
    return imp.S.random.normal(loc=float(attrs.get("mean", 0.0)),
                               scale=float(attrs.get("scale", 1.0)), shape=shape, dtype=dtype,
                               name=name)


@converter("RandomUniformLike", "RandomNormalLike")
def random_like(imp, node, attrs):
    x = imp.sym(node.input[0])
    if "dtype" in attrs:
        x = imp.S.Cast(x, dtype=_onnx_dtype(attrs))
    name = imp.node_name(node)
    if node.op_type == "RandomUniformLike":
        return imp.S.random.uniform_like(x, low=float(attrs.get("low", 0.0)),
                                         high=float(attrs.get("high", 1.0)), name=name)
    return imp.S.random.normal_like(x, loc=float(attrs.get("mean", 0.0)),
                                    scale=float(attrs.get("scale", 1.0)), name=name)


@converter("Multinomial")
def multinomial(imp, node, attrs):
    # ONNX's input holds unnormalised log-probabilities
    probs = imp.S.softmax(imp.sym(node.input[0]), axis=-1)
    dtype = _onnx_dtype(attrs, 6)
    name = imp.node_name(node)
    y = imp.S.sample_multinomial(probs, shape=(int(attrs.get("sample_size", 1)),), dtype="int32",
                                 name=name if dtype == "int32" else None)
    return y if dtype == "int32" else imp.S.Cast(y, dtype=dtype, name=name)


# -- more element-wise operators ---------------------------------------------------------------

_MORE_UNARY = {"Asinh": "arcsinh", "Acosh": "arccosh", "Atanh": "arctanh"}


@converter(*_MORE_UNARY)
def unary_more(imp, node, attrs):
    return getattr(imp.S, _MORE_UNARY[node.op_type])(imp.sym(node.input[0]),
                                                     name=imp.node_name(node))


@converter("HardSwish")
def hard_swish(imp, node, attrs):
    x = imp.sym(node.input[0])
    return imp.S.elemwise_mul(x, imp.S.hard_sigmoid(x, alpha=1.0 / 6, beta=0.5),
                              name=imp.node_name(node))


@converter("Mish")
def mish(imp, node, attrs):
    x = imp.sym(node.input[0])
    return imp.S.elemwise_mul(x, imp.S.tanh(imp.S.Activation(x, act_type="softrelu")),
                              name=imp.node_name(node))


@converter("Celu")
def celu(imp, node, attrs):
    S = imp.S
    alpha = float(attrs.get("alpha", 1.0))
    x = imp.sym(node.input[0])
    neg = S.expm1(S.minimum(x, 0.0) / alpha) * alpha
    return S.elemwise_add(S.relu(x), neg, name=imp.node_name(node))


@converter("ThresholdedRelu")
def thresholded_relu(imp, node, attrs):
    x = imp.sym(node.input[0])
    keep = imp.S._internal._greater_scalar(x, scalar=float(attrs.get("alpha", 1.0)))
    return imp.S.elemwise_mul(x, keep, name=imp.node_name(node))


@converter("Shrink")
def shrink(imp, node, attrs):
    S = imp.S
    lambd, bias = float(attrs.get("lambd", 0.5)), float(attrs.get("bias", 0.0))
    x = imp.sym(node.input[0])
    low = S._internal._lesser_scalar(x, scalar=-lambd)
    high = S._internal._greater_scalar(x, scalar=lambd)
    return S.elemwise_add(S.elemwise_mul(low, x + bias), S.elemwise_mul(high, x - bias),
                          name=imp.node_name(node))


@converter("IsNaN")
def is_nan(imp, node, attrs):
    x = imp.sym(node.input[0])
    return imp.S.broadcast_not_equal(x, x, name=imp.node_name(node))


@converter("IsInf")
def is_inf(imp, node, attrs):
    S = imp.S
    x = imp.sym(node.input[0])
    pos, neg = attrs.get("detect_positive", 1), attrs.get("detect_negative", 1)
    name = imp.node_name(node)
    if pos and neg:
        return S._internal._equal_scalar(S.abs(x), scalar=float("inf"), name=name)
    if not pos and not neg:
        return S.zeros_like(x, name=name)
    return S._internal._equal_scalar(x, scalar=float("inf") if pos else float("-inf"), name=name)


@converter("CumSum")
def cum_sum(imp, node, attrs):
    S = imp.S
    axis = int(_item(_const_input(imp, node, 1, "axis")))
    x = imp.sym(node.input[0])
    if attrs.get("reverse", 0):
        x = S.reverse(x, axis=axis)
    y = S.cumsum(x, axis=axis)
    if attrs.get("exclusive", 0):
        y = y - x
    if attrs.get("reverse", 0):
        y = S.reverse(y, axis=axis)
    return S.identity(y, name=imp.node_name(node))


@converter("MeanVarianceNormalization")
def mean_variance_normalization(imp, node, attrs):
    S = imp.S
    axes = tuple(int(a) for a in attrs.get("axes", [0, 2, 3]))
    x = imp.sym(node.input[0])
    centred = S.broadcast_sub(x, S.mean(x, axis=axes, keepdims=True))
    std = S.sqrt(S.mean(S.square(centred), axis=axes, keepdims=True) + 1e-9)
    return S.broadcast_div(centred, std, name=imp.node_name(node))


@converter("Trilu")
def trilu(imp, node, attrs):
    shape = imp.shape(node.input[0])
    if shape is None or len(shape) < 2:
        imp.fail(node, "needs the input's static shape (2-D or more)")
    k = _const_input(imp, node, 1, "k")
    k = 0 if k is None else int(_item(k))
    rows, cols = shape[-2:]
    keep = np.tri(rows, cols, k) if not attrs.get("upper", 1) else 1 - np.tri(rows, cols, k - 1)
    x = imp.sym(node.input[0])
    mask = imp.param(f"{node.name or node.output[0]}_mask",
                     np.ascontiguousarray(np.broadcast_to(keep, shape), np.float32))
    return imp.S.where(mask, x, imp.S.zeros_like(x), name=imp.node_name(node))


@converter("ScatterND")
def scatter_nd(imp, node, attrs):
    S = imp.S
    if attrs.get("reduction", "none") != "none":
        imp.fail(node, f"reduction={attrs['reduction']!r} is not supported")
    dshape = imp.shape(node.input[0])
    r = imp.rank(node.input[1], node)
    if dshape is None:
        imp.fail(node, "needs the data's static shape")
    idx = S.Cast(imp.sym(node.input[1]), dtype="int64")
    idx = S.transpose(idx, axes=(r - 1,) + tuple(range(r - 1)))
    data, upd = imp.sym(node.input[0]), imp.sym(node.input[2])
    hit = S.scatter_nd(S.ones_like(upd), idx, shape=tuple(dshape))
    new = S.scatter_nd(upd, idx, shape=tuple(dshape))
    return S.where(hit, new, data, name=imp.node_name(node))
