"""Converters for the fused RNN layer, sequence ops, sorting, indexing, creation ops,
random samplers and the remaining tensor ops of 1.9.1's exporter."""
import numpy as np

from ._registry import numbered_outputs, register

# 1.9.1 names these outputs name0, name1, ...
numbered_outputs("SliceChannel", "_split_v2", "_contrib_box_nms")
numbered_outputs("topk", when=lambda params: params["ret_typ"] in ("value", "both"))

INT_MAX = 2 ** 63 - 1
INT_MIN = -(2 ** 63)


def _tensor_type(g, dtype):
    return g.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def _cast(g, x, dtype, out=None, hint=None):
    return g.add("Cast", [x], out, hint=hint, to=_tensor_type(g, dtype))


def _scalar(g, value, dtype, hint):
    """A rank-0 constant (``g.scalar`` gives shape (1,), which Range and Gather refuse)."""
    name = g.fresh(hint)
    g.initializers.append(g.numpy_helper.from_array(np.array(value, dtype=dtype), name))
    return name


def _dim(g, x, axis, hint):
    """The size of ``x`` along ``axis`` as a 1-element int64 tensor (shape-independent)."""
    shape = g.add("Shape", [x], hint=f"{hint}_shape")
    return g.add("Gather", [shape, g.ints([axis], f"{hint}_axis")], hint=f"{hint}_dim", axis=0)


def _shape_part(g, shape, start, end, hint):
    """``shape[start:end]`` of a 1-D shape tensor (``end`` None: to the end)."""
    return g.slice(shape, [start], [INT_MAX if end is None else end], [0], hint=hint)


def _static_dim(n, i, axis):
    """Static size of input ``i`` along ``axis``: known even for dynamic exports when the
    dimension is a feature/parameter dimension."""
    return int(n._in[i][0][axis])


# -- the fused RNN layer -------------------------------------------------------------------

_RNN_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}
# MXNet's gate blocks -> ONNX's: lstm (i, f, c, o) -> (i, o, f, c); gru (r, z, n) -> (z, r, h)
_RNN_ORDER = {"lstm": [0, 3, 1, 2], "gru": [1, 0, 2], "rnn_relu": [0], "rnn_tanh": [0]}
_RNN_ONNX = {"lstm": "LSTM", "gru": "GRU", "rnn_relu": "RNN", "rnn_tanh": "RNN"}


@register("RNN")
def rnn(g, n):
    p = n.p
    mode = p["mode"]
    if p["use_sequence_length"]:
        n.fail("use_sequence_length=True is not supported")
    if p["projection_size"] is not None:
        n.fail(f"projection_size={p['projection_size']} is not supported (ONNX's LSTM has no "
               "projection)")
    if p["lstm_state_clip_min"] is not None or p["lstm_state_clip_max"] is not None:
        n.fail("lstm_state_clip_min/max are not supported (ONNX's LSTM clips gate inputs, "
               "not the cell state)")
    G, H, L = _RNN_GATES[mode], int(p["state_size"]), int(p["num_layers"])
    D = 2 if p["bidirectional"] else 1
    in_size = _static_dim(n, 0, 2)
    flat = n.inputs[1]
    order = g.ints(_RNN_ORDER[mode], f"{n.name}_gate_order")

    def piece(off, size, shape, tag):
        # a block of the flat parameter vector, its gates reordered to ONNX's order
        part = g.slice(flat, [off], [off + size], [0], hint=f"{n.name}_{tag}")
        part = g.add("Reshape", [part, g.ints([G, -1], f"{n.name}_gates")], hint=f"{n.name}_{tag}")
        part = g.add("Gather", [part, order], hint=f"{n.name}_{tag}_reorder", axis=0)
        return g.add("Reshape", [part, g.ints(shape, f"{n.name}_{tag}_shape")],
                     hint=f"{n.name}_{tag}_shaped")

    # offsets of the packed vector: all weights (layer, direction: i2h, h2h), then all biases
    off = 0
    weights = []
    for layer in range(L):
        size_in = in_size if layer == 0 else D * H
        row = []
        for d in range(D):
            wx = piece(off, G * H * size_in, [1, G * H, size_in], f"l{layer}d{d}_wx")
            off += G * H * size_in
            wh = piece(off, G * H * H, [1, G * H, H], f"l{layer}d{d}_wh")
            off += G * H * H
            row.append((wx, wh))
        weights.append(row)
    biases = []
    for layer in range(L):
        row = []
        for d in range(D):
            bx = piece(off, G * H, [1, G * H], f"l{layer}d{d}_bx")
            bh = piece(off + G * H, G * H, [1, G * H], f"l{layer}d{d}_bh")
            off += 2 * G * H
            row.append(g.add("Concat", [bx, bh], hint=f"{n.name}_l{layer}d{d}_b", axis=1))
        biases.append(row)

    def per_layer(items, tag):
        return items[0] if D == 1 else g.add("Concat", items, hint=f"{n.name}_{tag}", axis=0)

    def state_rows(state, layer, tag):
        if L == 1:
            return state
        return g.slice(state, [layer * D], [(layer + 1) * D], [0], hint=f"{n.name}_{tag}{layer}")

    attrs = {"hidden_size": H}
    if D == 2:
        attrs["direction"] = "bidirectional"
    if mode == "gru":
        attrs["linear_before_reset"] = 1
    elif mode != "lstm":
        attrs["activations"] = ["Relu" if mode == "rnn_relu" else "Tanh"] * D
    x = n.inputs[0]
    hs, cs = [], []
    for layer in range(L):
        w = per_layer([wx for wx, _ in weights[layer]], f"l{layer}_W")
        r = per_layer([wh for _, wh in weights[layer]], f"l{layer}_R")
        b = per_layer(biases[layer], f"l{layer}_B")
        ins = [x, w, r, b, "", state_rows(n.inputs[2], layer, "h")]
        outs = [g.fresh(f"{n.name}_l{layer}_{t}") for t in ("Y", "Y_h")]
        if mode == "lstm":
            ins.append(state_rows(n.inputs[3], layer, "c"))
            outs.append(g.fresh(f"{n.name}_l{layer}_Y_c"))
        res = g.add(_RNN_ONNX[mode], ins, outs, hint=f"{n.name}_l{layer}", **attrs)
        # ONNX's Y is (seq, directions, batch, H); MXNet's (seq, batch, directions * H)
        last = layer == L - 1
        if D == 1:
            x = g.squeeze(res[0], [1], n.out if last else None, hint=f"{n.name}_l{layer}_out")
        else:
            t = g.add("Transpose", [res[0]], hint=f"{n.name}_l{layer}_t", perm=[0, 2, 1, 3])
            x = g.add("Reshape", [t, g.ints([0, 0, -1], f"{n.name}_merge")],
                      n.out if last else None, hint=f"{n.name}_l{layer}_out")
        hs.append(res[1])
        if mode == "lstm":
            cs.append(res[2])
    for k, states in ((1, hs), (2, cs)):
        if len(n.outputs) > k:
            g.add("Concat", states, n.outputs[k], hint=f"{n.name}_states{k}", axis=0)


@register("_rnn_param_concat")
def rnn_param_concat(g, n):
    g.add("Concat", n.inputs, n.out, hint=n.name, axis=int(n.p["dim"]))


# -- sequence ops ----------------------------------------------------------------------------

def _seq_axis(n):
    axis = int(n.p.get("axis", 0))
    if axis not in (0, 1):
        n.fail(f"axis={axis} is not supported; expected 0 or 1")
    return axis


@register("SequenceMask")
def sequence_mask(g, n):
    p = n.p
    axis = _seq_axis(n)
    x = n.inputs[0]
    if not p["use_sequence_length"]:
        g.add("Identity", [x], n.out, hint=n.name)
        return
    steps = g.add("Range", [_scalar(g, 0, np.int64, f"{n.name}_zero"),
                            g.squeeze(_dim(g, x, axis, n.name), [0]),
                            _scalar(g, 1, np.int64, f"{n.name}_one")], hint=f"{n.name}_steps")
    lens = _cast(g, n.inputs[1], np.int64, hint=f"{n.name}_lens")
    # (T, B) for axis 0, (B, T) for axis 1: step t of sample b is kept while t < length[b]
    if axis == 0:
        keep = g.add("Less", [g.unsqueeze(steps, [1]), g.unsqueeze(lens, [0])])
    else:
        keep = g.add("Less", [g.unsqueeze(steps, [0]), g.unsqueeze(lens, [1])])
    rank = n.rank(0)
    if rank > 2:
        keep = g.unsqueeze(keep, list(range(2, rank)), hint=f"{n.name}_keep")
    value = g.scalar(float(p["value"]), n.dtype(0), f"{n.name}_value")
    g.add("Where", [keep, x, value], n.out, hint=n.name)


@register("SequenceReverse")
def sequence_reverse(g, n):
    if _seq_axis(n) != 0:
        n.fail("axis=1 is not supported; expected 0")
    x = n.inputs[0]
    if n.p["use_sequence_length"]:
        lens = _cast(g, n.inputs[1], np.int64, hint=f"{n.name}_lens")
    else:
        lens = g.add("Expand", [_dim(g, x, 0, f"{n.name}_T"), _dim(g, x, 1, f"{n.name}_B")],
                     hint=f"{n.name}_lens")
    g.add("ReverseSequence", [x, lens], n.out, hint=n.name, batch_axis=1, time_axis=0)


@register("SequenceLast")
def sequence_last(g, n):
    axis = _seq_axis(n)
    x = n.inputs[0]
    if not n.p["use_sequence_length"]:
        g.add("Gather", [x, _scalar(g, -1, np.int64, f"{n.name}_last")], n.out, hint=n.name, axis=axis)
        return
    if axis == 0:  # batch first for GatherND's batch_dims
        perm = [1, 0] + list(range(2, n.rank(0)))
        x = g.add("Transpose", [x], hint=f"{n.name}_batch_first", perm=perm)
    lens = _cast(g, n.inputs[1], np.int64, hint=f"{n.name}_lens")
    idx = g.add("Sub", [lens, g.ints(1, f"{n.name}_one")], hint=f"{n.name}_idx")
    idx = g.unsqueeze(idx, [1], hint=f"{n.name}_idx2")
    g.add("GatherND", [x, idx], n.out, hint=n.name, batch_dims=1)


# -- sorting ---------------------------------------------------------------------------------

def _flat_or_axis(g, n, axis):
    x = n.inputs[0]
    if axis is None:
        return g.add("Reshape", [x, g.ints([-1], f"{n.name}_flat")], hint=f"{n.name}_flat"), 0
    return x, int(axis) % n.rank(0)


def _topk_node(g, n, x, axis, k, largest):
    if k is None or k < 1:  # the whole axis
        kt = _dim(g, x, axis, f"{n.name}_k")
    else:
        kt = g.ints([k], f"{n.name}_k")
    outs = [g.fresh(f"{n.name}_values"), g.fresh(f"{n.name}_indices")]
    return g.add("TopK", [x, kt], outs, hint=f"{n.name}_topk", axis=axis,
                 largest=int(largest), sorted=1)


@register("topk")
def topk(g, n):
    p = n.p
    x, axis = _flat_or_axis(g, n, p["axis"])
    values, indices = _topk_node(g, n, x, axis, int(p["k"]), not p["is_ascend"])
    ret = p["ret_typ"]
    dtype = np.dtype(p["dtype"])
    if ret == "value":
        g.add("Identity", [values], n.out, hint=n.name)
    elif ret == "indices":
        _cast(g, indices, dtype, n.out, hint=n.name)
    elif ret == "both":
        g.add("Identity", [values], n.outputs[0], hint=n.name)
        _cast(g, indices, dtype, n.outputs[1], hint=f"{n.name}_idx")
    else:  # mask: ones where the selected elements are
        if p["axis"] is None:
            n.fail("ret_typ='mask' needs an axis")
        dt = n.dtype(0)
        zeros = g.add("ConstantOfShape", [g.add("Shape", [x])], hint=f"{n.name}_zeros",
                      value=g.numpy_helper.from_array(np.zeros(1, dt), "value"))
        ones = g.add("ConstantOfShape", [g.add("Shape", [indices])], hint=f"{n.name}_ones",
                     value=g.numpy_helper.from_array(np.ones(1, dt), "value"))
        g.add("ScatterElements", [zeros, indices, ones], n.out, hint=n.name, axis=axis)


@register("argsort")
def argsort(g, n):
    p = n.p
    x, axis = _flat_or_axis(g, n, p["axis"])
    _, indices = _topk_node(g, n, x, axis, None, not p["is_ascend"])
    _cast(g, indices, p["dtype"], n.out, hint=n.name)


@register("sort")
def sort(g, n):
    p = n.p
    x, axis = _flat_or_axis(g, n, p["axis"])
    values, _ = _topk_node(g, n, x, axis, None, not p["is_ascend"])
    g.add("Identity", [values], n.out, hint=n.name)


# -- indexing --------------------------------------------------------------------------------

@register("pick")
def pick(g, n):
    p = n.p
    if p["axis"] is None:
        n.fail("axis=None is not supported; give an axis")
    x = n.inputs[0]
    rank = n.rank(0)
    axis = int(p["axis"]) % rank
    idx = _cast(g, n.inputs[1], np.int64, hint=f"{n.name}_idx")
    dim = _dim(g, x, axis, n.name)
    if p["mode"] == "wrap":
        idx = g.add("Mod", [idx, dim], hint=f"{n.name}_wrap")
    else:
        top = g.add("Sub", [dim, g.ints([1], f"{n.name}_one")])
        idx = g.add("Max", [g.add("Min", [idx, top]), g.ints([0], f"{n.name}_zero")],
                    hint=f"{n.name}_clip")
    if n.rank(1) < rank:
        idx = g.unsqueeze(idx, [axis], hint=f"{n.name}_idx_axis")
    if p["keepdims"]:
        g.add("GatherElements", [x, idx], n.out, hint=n.name, axis=axis)
    else:
        y = g.add("GatherElements", [x, idx], hint=f"{n.name}_gather", axis=axis)
        g.squeeze(y, [axis], n.out, hint=n.name)


@register("gather_nd")
def gather_nd(g, n):
    # MXNet's indices carry the coordinates on their first axis, ONNX's on their last
    r = n.rank(1)
    idx = _cast(g, n.inputs[1], np.int64, hint=f"{n.name}_idx")
    if r > 1:
        idx = g.add("Transpose", [idx], hint=f"{n.name}_idx_t", perm=list(range(1, r)) + [0])
    else:
        idx = g.unsqueeze(idx, [0], hint=f"{n.name}_idx_t")
    g.add("GatherND", [n.inputs[0], idx], n.out, hint=n.name)


@register("one_hot")
def one_hot(g, n):
    p = n.p
    depth = int(p["depth"])
    dtype = np.dtype(p["dtype"])
    idx = _cast(g, n.inputs[0], np.int64, hint=f"{n.name}_idx")
    # MXNet gives negative indices an all-off row; ONNX would count them from the end
    depth_t = g.ints([depth], f"{n.name}_depth")
    idx = g.add("Where", [g.add("Less", [idx, g.ints(0, f"{n.name}_zero")]), depth_t, idx],
                hint=f"{n.name}_idx_pos")
    values = g.const(np.array([p["off_value"], p["on_value"]], np.float32), f"{n.name}_values")
    y = g.add("OneHot", [idx, depth_t, values], hint=f"{n.name}_onehot", axis=-1)
    _cast(g, y, dtype, n.out, hint=n.name)


@register("broadcast_axis", "broadcast_axes")
def broadcast_axis(g, n):
    p = n.p
    axes, sizes = p["axis"], p["size"]
    axes = [axes] if isinstance(axes, int) else list(axes)
    sizes = [sizes] if isinstance(sizes, int) else list(sizes)
    rank = n.rank(0)
    shape = [1] * rank
    for a, s in zip(axes, sizes):
        shape[int(a) % rank] = int(s)
    g.add("Expand", [n.inputs[0], g.ints(shape, f"{n.name}_shape")], n.out, hint=n.name)


@register("reverse", "flip")
def reverse(g, n):
    axes = n.p["axis"]
    axes = [axes] if isinstance(axes, int) else list(axes)
    k = len(axes)
    g.slice(n.inputs[0], [-1] * k, [INT_MIN] * k, [int(a) for a in axes], [-1] * k, n.out,
            hint=n.name)


@register("slice_like")
def slice_like(g, n):
    axes = n.p["axes"]
    rank = n.rank(0)
    axes = list(range(rank)) if not axes else [int(a) % rank for a in axes]
    shape = g.add("Shape", [n.inputs[1]], hint=f"{n.name}_like_shape")
    ends = g.add("Gather", [shape, g.ints(axes, f"{n.name}_axes_idx")], hint=f"{n.name}_ends",
                 axis=0)
    g.add("Slice", [n.inputs[0], g.ints([0] * len(axes), f"{n.name}_starts"), ends,
                    g.ints(axes, f"{n.name}_axes")], n.out, hint=n.name)


@register("reshape_like")
def reshape_like(g, n):
    p = n.p
    rl, rr = n.rank(0), n.rank(1)

    def bound(v, rank, default):
        return default if v is None else int(v) % (rank + 1) if int(v) < 0 else int(v)
    lb, le = bound(p["lhs_begin"], rl, 0), bound(p["lhs_end"], rl, rl)
    rb, re = bound(p["rhs_begin"], rr, 0), bound(p["rhs_end"], rr, rr)
    lshape = g.add("Shape", [n.inputs[0]], hint=f"{n.name}_lshape")
    rshape = g.add("Shape", [n.inputs[1]], hint=f"{n.name}_rshape")
    parts = []
    if lb > 0:
        parts.append(_shape_part(g, lshape, 0, lb, f"{n.name}_head"))
    parts.append(_shape_part(g, rshape, rb, re, f"{n.name}_mid"))
    if le < rl:
        parts.append(_shape_part(g, lshape, le, None, f"{n.name}_tail"))
    target = g.add("Concat", parts, hint=f"{n.name}_target", axis=0)
    g.add("Reshape", [n.inputs[0], target], n.out, hint=n.name)


@register("repeat")
def repeat(g, n):
    p = n.p
    reps = int(p["repeats"])
    if reps < 1:
        n.fail(f"repeats={reps} is not supported; expected a positive count")
    x = n.inputs[0]
    axis = p["axis"]
    if axis is None:
        x = g.add("Reshape", [x, g.ints([-1], f"{n.name}_flat")], hint=f"{n.name}_flat")
        rank, axis = 1, 0
    else:
        rank = n.rank(0)
        axis = int(axis) % rank
    shape = g.add("Shape", [x], hint=f"{n.name}_shape")
    u = g.unsqueeze(x, [axis + 1], hint=f"{n.name}_unsq")
    tiles = [1] * (rank + 1)
    tiles[axis + 1] = reps
    t = g.add("Tile", [u, g.ints(tiles, f"{n.name}_reps")], hint=f"{n.name}_tile")
    parts = []
    if axis > 0:
        parts.append(_shape_part(g, shape, 0, axis, f"{n.name}_head"))
    parts.append(g.ints([-1], f"{n.name}_merged"))
    if axis < rank - 1:
        parts.append(_shape_part(g, shape, axis + 1, None, f"{n.name}_tail"))
    target = g.add("Concat", parts, hint=f"{n.name}_target", axis=0)
    g.add("Reshape", [t, target], n.out, hint=n.name)


@register("_split_v2")
def split_v2(g, n):
    p = n.p
    x = n.inputs[0]
    rank = n.rank(0)
    axis = int(p["axis"]) % rank
    k = len(n.outputs)
    squeeze = p["squeeze_axis"]
    outs = n.outputs if not squeeze else [g.fresh(f"{n.name}_part{i}") for i in range(k)]
    if p["sections"] and int(p["sections"]) > 0:
        attrs = {"num_outputs": k} if g.opset >= 18 else {}
        g.add("Split", [x], outs, hint=n.name, axis=axis, **attrs)
    else:
        dim = n.shape(0)[axis]
        cuts = [int(i) for i in p["indices"]] + [dim]
        if cuts[0] != 0:
            n.fail(f"indices={p['indices']} must start at 0")
        sizes = [b - a for a, b in zip(cuts[:-1], cuts[1:])]
        if g.opset >= 13:
            g.add("Split", [x, g.ints(sizes, f"{n.name}_sizes")], outs, hint=n.name, axis=axis)
        else:
            g.add("Split", [x], outs, hint=n.name, axis=axis, split=sizes)
    if squeeze:
        for part, out in zip(outs, n.outputs):
            g.squeeze(part, [axis], out, hint=out)


@register("depth_to_space")
def depth_to_space(g, n):
    g.add("DepthToSpace", [n.inputs[0]], n.out, hint=n.name, blocksize=int(n.p["block_size"]),
          mode="DCR")


@register("space_to_depth")
def space_to_depth(g, n):
    g.add("SpaceToDepth", [n.inputs[0]], n.out, hint=n.name, blocksize=int(n.p["block_size"]))


@register("shape_array")
def shape_array(g, n):
    g.add("Shape", [n.inputs[0]], n.out, hint=n.name)


@register("size_array")
def size_array(g, n):
    size = g.add("Size", [n.inputs[0]], hint=f"{n.name}_size")
    g.add("Reshape", [size, g.ints([1], f"{n.name}_one")], n.out, hint=n.name)


@register("Crop")
def crop(g, n):
    p = n.p
    rank = n.rank(0)
    if rank != 4:
        n.fail(f"a rank-{rank} input is not supported; expected NCHW")
    h, w = n.out_shape()[2:]
    if p["center_crop"]:
        in_h, in_w = n.shape(0)[2:]
        oy, ox = (in_h - h) // 2, (in_w - w) // 2
    else:
        oy, ox = (int(v) for v in p["offset"])
    g.slice(n.inputs[0], [oy, ox], [oy + h, ox + w], [2, 3], None, n.out, hint=n.name)


# -- logic and arithmetic ------------------------------------------------------------------

def _register_logical(mx_name, onnx_op):
    @register(mx_name)
    def logical(g, n):
        a = _cast(g, n.inputs[0], np.bool_, hint=f"{n.name}_a")
        b = _cast(g, n.inputs[1], np.bool_, hint=f"{n.name}_b")
        _cast(g, g.add(onnx_op, [a, b], hint=f"{n.name}_op"), n.out_dtype(), n.out, hint=n.name)


for _mx, _onnx in (("broadcast_logical_and", "And"), ("broadcast_logical_or", "Or"),
                   ("broadcast_logical_xor", "Xor"), ("_logical_and", "And"),
                   ("_logical_or", "Or"), ("_logical_xor", "Xor")):
    _register_logical(_mx, _onnx)


@register("logical_not")
def logical_not(g, n):
    b = _cast(g, n.inputs[0], np.bool_, hint=f"{n.name}_b")
    _cast(g, g.add("Not", [b], hint=f"{n.name}_not"), n.out_dtype(), n.out, hint=n.name)


@register("broadcast_mod", "_mod")
def broadcast_mod(g, n):
    a, b = n.inputs
    if np.issubdtype(n.dtype(0), np.integer):
        g.add("Mod", [a, b], n.out, hint=n.name, fmod=0)
        return
    # MXNet's remainder takes the divisor's sign (Python's %): fmod, then shift by b
    r = g.add("Mod", [a, b], hint=f"{n.name}_fmod", fmod=1)
    zero = g.scalar(0, n.dtype(0), f"{n.name}_zero")
    differ = g.add("Xor", [g.add("Less", [r, zero]), g.add("Less", [b, zero])])
    shift = g.add("And", [differ, g.add("Not", [g.add("Equal", [r, zero])])],
                  hint=f"{n.name}_shift")
    g.add("Where", [shift, g.add("Add", [r, b]), r], n.out, hint=n.name)


@register("LogisticRegressionOutput")
def logistic_regression_output(g, n):
    g.add("Sigmoid", [n.inputs[0]], n.out, hint=n.name)


@register("LinearRegressionOutput", "MAERegressionOutput")
def linear_regression_output(g, n):
    g.add("Identity", [n.inputs[0]], n.out, hint=n.name)


# -- creation ------------------------------------------------------------------------------

@register("_zeros", "_ones", "_full")
def filled(g, n):
    p = n.p
    dtype = np.dtype(p.get("dtype") or np.float32)
    value = {"_zeros": 0, "_ones": 1}.get(n.op)
    if value is None:
        value = float(p["value"])
    shape = [int(s) for s in p["shape"]]
    g.add("ConstantOfShape", [g.ints(shape, f"{n.name}_shape")], n.out, hint=n.name,
          value=g.numpy_helper.from_array(np.array([value], dtype), "value"))


def _scaled_range(g, n, count, start, step, dtype, out, hint):
    """start + step * [0, 1, ..., count - 1] in ``dtype``; ``count`` an int64 scalar tensor."""
    idx = g.add("Range", [_scalar(g, 0, np.int64, f"{hint}_zero"), count,
                          _scalar(g, 1, np.int64, f"{hint}_one")],
                hint=f"{hint}_range")
    idx = _cast(g, idx, np.float64, hint=f"{hint}_f")
    y = g.add("Add", [g.add("Mul", [idx, g.scalar(step, np.float64, f"{hint}_step")]),
                      g.scalar(start, np.float64, f"{hint}_start")], hint=f"{hint}_values")
    return _cast(g, y, dtype, out, hint=hint)


@register("_arange")
def arange(g, n):
    p = n.p
    if p["infer_range"]:
        n.fail("infer_range=True is not supported")
    start, stop, step = float(p["start"]), p["stop"], float(p["step"])
    if stop is None:
        start, stop = 0.0, start
    count = int(np.ceil((float(stop) - start) / step))
    reps = int(p["repeat"])
    dtype = np.dtype(p["dtype"] or np.float32)
    if reps == 1:
        _scaled_range(g, n, _scalar(g, max(count, 0), np.int64, f"{n.name}_count"), start, step, dtype,
                      n.out, n.name)
        return
    y = _scaled_range(g, n, _scalar(g, max(count, 0), np.int64, f"{n.name}_count"), start, step, dtype, None,
                      f"{n.name}_base")
    y = g.add("Tile", [g.unsqueeze(y, [1]), g.ints([1, reps], f"{n.name}_reps")])
    g.add("Reshape", [y, g.ints([-1], f"{n.name}_flat")], n.out, hint=n.name)


@register("_contrib_arange_like")
def arange_like(g, n):
    p = n.p
    if int(p["repeat"]) != 1:
        n.fail(f"repeat={p['repeat']} is not supported; expected 1")
    x = n.inputs[0]
    dtype = n.out_dtype()
    if p["axis"] is None:
        count = g.add("Size", [x], hint=f"{n.name}_count")
        y = _scaled_range(g, n, count, float(p["start"]), float(p["step"]), dtype, None,
                          f"{n.name}_flat")
        g.add("Reshape", [y, g.add("Shape", [x])], n.out, hint=n.name)
    else:
        count = g.squeeze(_dim(g, x, int(p["axis"]) % n.rank(0), n.name), [0])
        _scaled_range(g, n, count, float(p["start"]), float(p["step"]), dtype, n.out, n.name)


# -- random samplers -----------------------------------------------------------------------

@register("_random_uniform", "_random_normal")
def random_sample(g, n):
    p = n.p
    dtype = _tensor_type(g, p.get("dtype") or np.float32)
    shape = [int(s) for s in p["shape"]]
    if n.op == "_random_uniform":
        g.add("RandomUniform", [], n.out, hint=n.name, low=float(p["low"]),
              high=float(p["high"]), shape=shape, dtype=dtype)
    else:
        g.add("RandomNormal", [], n.out, hint=n.name, mean=float(p["loc"]),
              scale=float(p["scale"]), shape=shape, dtype=dtype)


@register("_random_uniform_like", "_random_normal_like")
def random_like(g, n):
    p = n.p
    if n.op == "_random_uniform_like":
        g.add("RandomUniformLike", [n.inputs[0]], n.out, hint=n.name, low=float(p["low"]),
              high=float(p["high"]))
    else:
        g.add("RandomNormalLike", [n.inputs[0]], n.out, hint=n.name, mean=float(p["loc"]),
              scale=float(p["scale"]))


@register("_sample_multinomial")
def sample_multinomial(g, n):
    p = n.p
    shape = tuple(p["shape"] or ())
    if len(shape) > 1:
        n.fail(f"shape={shape} is not supported; expected one sample count")
    count = int(shape[0]) if shape else 1
    probs = n.inputs[0]
    rank = n.rank(0)
    if rank > 2:
        n.fail(f"a rank-{rank} probability input is not supported; expected 1-D or 2-D")
    if rank == 1:
        probs = g.unsqueeze(probs, [0], hint=f"{n.name}_batch")
    # ONNX samples from log-probabilities; MXNet's input holds probabilities
    logp = g.add("Log", [probs], hint=f"{n.name}_logp")
    y = g.add("Multinomial", [logp], hint=f"{n.name}_sample", sample_size=count,
              dtype=_tensor_type(g, np.int64))
    drop = ([0] if rank == 1 else []) + ([] if shape else [1])

    def finish(t, out, dtype, hint):
        if drop:
            t = g.squeeze(t, drop, hint=f"{hint}_squeeze")
        return _cast(g, t, dtype, out, hint=hint)
    finish(y, n.outputs[0], p["dtype"], n.name)
    if len(n.outputs) > 1:  # get_prob: the log-probability of each draw
        lp = g.add("GatherElements", [logp, y], hint=f"{n.name}_logprob", axis=1)
        finish(lp, n.outputs[1], n.dtype(0), f"{n.name}_prob")
