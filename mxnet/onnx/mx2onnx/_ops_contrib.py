"""Converters for contrib operators: detection (box_nms, box_decode, ROIAlign, ROIPooling),
the attention ops of BERT-style models, adaptive pooling and bilinear resizing."""
import numpy as np

from ._ops_more import _scalar
from ._registry import register

INT_MAX = 2 ** 63 - 1


def _last_dim_sqrt(g, n, x, hint):
    """sqrt(size of the last axis of ``x``) as a scalar of ``x``'s type."""
    shape = g.add("Shape", [x], hint=f"{hint}_shape")
    d = g.slice(shape, [-1], [INT_MAX], [0], hint=f"{hint}_last")
    d = g.add("Cast", [d], hint=f"{hint}_cast", to=g.helper.np_dtype_to_tensor_dtype(n.dtype(0)))
    return g.add("Sqrt", [d], hint=f"{hint}_sqrt")


@register("_contrib_div_sqrt_dim")
def div_sqrt_dim(g, n):
    g.add("Div", [n.inputs[0], _last_dim_sqrt(g, n, n.inputs[0], n.name)], n.out, hint=n.name)


def _heads(g, n, x, heads, parts, part, hint):
    """Projection ``part`` of ``parts`` interleaved per head in (L, B, heads*parts*D):
    returned as (B, heads, L, D)."""
    split = g.add("Reshape", [x, g.ints([0, 0, heads, parts, -1], f"{hint}_split_shape")],
                  hint=f"{hint}_split")
    one = g.slice(split, [part], [part + 1], [3], hint=f"{hint}_part{part}")
    one = g.squeeze(one, [3], hint=f"{hint}_part{part}_sq")
    return g.add("Transpose", [one], hint=f"{hint}_part{part}_t", perm=[1, 2, 0, 3])


def _merge_batch_heads(g, y, out, hint):
    """(B, heads, Lq, Lk) -> (B*heads, Lq, Lk), shape-independent."""
    shape = g.add("Shape", [y], hint=f"{hint}_shape")
    tail = g.slice(shape, [2], [4], [0], hint=f"{hint}_tail")
    target = g.add("Concat", [g.ints([-1], f"{hint}_lead"), tail], hint=f"{hint}_target", axis=0)
    return g.add("Reshape", [y, target], out, hint=hint)


def _scores(g, n, q, k):
    """(q / sqrt(D)) @ k^T for (B, heads, L, D) operands, as (B*heads, Lq, Lk)."""
    q = g.add("Div", [q, _last_dim_sqrt(g, n, q, f"{n.name}_d")], hint=f"{n.name}_qscaled")
    kt = g.add("Transpose", [k], hint=f"{n.name}_kT", perm=[0, 1, 3, 2])
    y = g.add("MatMul", [q, kt], hint=f"{n.name}_qk")
    return _merge_batch_heads(g, y, n.out, n.name)


def _apply(g, n, att, v, heads):
    """att (B*heads, Lq, Lk) @ v (B, heads, Lk, D) -> (Lq, B, heads*D)."""
    lead = g.slice(g.add("Shape", [v], hint=f"{n.name}_vshape"), [0], [2], [0],
                   hint=f"{n.name}_lead")
    lk = g.slice(g.add("Shape", [att], hint=f"{n.name}_ashape"), [2], [3], [0],
                 hint=f"{n.name}_lk")
    target = g.add("Concat", [lead, g.ints([-1], f"{n.name}_lq"), lk], hint=f"{n.name}_att4s",
                   axis=0)
    att = g.add("Reshape", [att, target], hint=f"{n.name}_att4")      # (B, heads, Lq, Lk)
    y = g.add("MatMul", [att, v], hint=f"{n.name}_av")                 # (B, heads, Lq, D)
    y = g.add("Transpose", [y], hint=f"{n.name}_t", perm=[2, 0, 1, 3])  # (Lq, B, heads, D)
    g.add("Reshape", [y, g.ints([0, 0, -1], f"{n.name}_merge")], n.out, hint=n.name)


@register("_contrib_interleaved_matmul_selfatt_qk")
def selfatt_qk(g, n):
    h = int(n.p["heads"])
    q = _heads(g, n, n.inputs[0], h, 3, 0, f"{n.name}_q")
    k = _heads(g, n, n.inputs[0], h, 3, 1, f"{n.name}_k")
    _scores(g, n, q, k)


@register("_contrib_interleaved_matmul_selfatt_valatt")
def selfatt_valatt(g, n):
    h = int(n.p["heads"])
    v = _heads(g, n, n.inputs[0], h, 3, 2, f"{n.name}_v")
    _apply(g, n, n.inputs[1], v, h)


@register("_contrib_interleaved_matmul_encdec_qk")
def encdec_qk(g, n):
    h = int(n.p["heads"])
    q = _heads(g, n, n.inputs[0], h, 1, 0, f"{n.name}_q")
    k = _heads(g, n, n.inputs[1], h, 2, 0, f"{n.name}_k")
    _scores(g, n, q, k)


@register("_contrib_interleaved_matmul_encdec_valatt")
def encdec_valatt(g, n):
    h = int(n.p["heads"])
    v = _heads(g, n, n.inputs[0], h, 2, 1, f"{n.name}_v")
    _apply(g, n, n.inputs[1], v, h)


# -- detection -----------------------------------------------------------------------------

@register("_contrib_box_decode")
def box_decode(g, n):
    p = n.p
    data, anchors = n.inputs
    dt = n.dtype(0)

    def col(x, i, hint):
        return g.slice(x, [i], [i + 1], [-1], hint=f"{n.name}_{hint}")

    def c(v, hint):
        return g.scalar(v, dt, f"{n.name}_{hint}")
    ax0, ay0, ax1, ay1 = (col(anchors, i, f"a{i}") for i in range(4))
    if p["format"] == "corner":
        aw = g.add("Sub", [ax1, ax0], hint=f"{n.name}_aw")
        ah = g.add("Sub", [ay1, ay0], hint=f"{n.name}_ah")
        half = c(0.5, "half")
        ax = g.add("Add", [ax0, g.add("Mul", [aw, half])], hint=f"{n.name}_ax")
        ay = g.add("Add", [ay0, g.add("Mul", [ah, half])], hint=f"{n.name}_ay")
    else:
        ax, ay, aw, ah = ax0, ay0, ax1, ay1
    d = [g.add("Mul", [col(data, i, f"d{i}"), c(float(np.float32(p[f"std{i}"])), f"std{i}")])
         for i in range(4)]
    ox = g.add("Add", [g.add("Mul", [d[0], aw]), ax], hint=f"{n.name}_ox")
    oy = g.add("Add", [g.add("Mul", [d[1], ah]), ay], hint=f"{n.name}_oy")
    dw, dh = d[2], d[3]
    clip = float(np.float32(p["clip"]))
    if clip > 0:
        dw = g.add("Min", [dw, c(clip, "clip")])
        dh = g.add("Min", [dh, c(clip, "clip")])
    ow = g.add("Mul", [g.add("Mul", [g.add("Exp", [dw]), aw]), c(0.5, "half_w")])
    oh = g.add("Mul", [g.add("Mul", [g.add("Exp", [dh]), ah]), c(0.5, "half_h")])
    parts = [g.add("Sub", [ox, ow]), g.add("Sub", [oy, oh]), g.add("Add", [ox, ow]),
             g.add("Add", [oy, oh])]
    g.add("Concat", parts, n.out, hint=n.name, axis=-1)


@register("_contrib_box_nms")
def box_nms(g, n):
    p = n.p
    if p["in_format"] != p["out_format"]:
        n.fail(f"in_format={p['in_format']!r} with out_format={p['out_format']!r} is not "
               "supported; expected equal formats")
    shape = tuple(n._in[0][0])
    rank = len(shape)
    N, W = int(shape[-2]), int(shape[-1])
    if N == 0:
        g.add("Identity", [n.inputs[0]], n.out, hint=n.name)
        return
    dt = n.dtype(0)
    name = n.name
    cs, si, ii = int(p["coord_start"]), int(p["score_index"]), int(p["id_index"])
    K = N if int(p["topk"]) < 0 else min(N, int(p["topk"]))
    x = n.inputs[0]
    if rank != 3:
        x = g.add("Reshape", [x, g.ints([-1, N, W], f"{name}_3d")], hint=f"{name}_3d")

    def col(t, a, b, hint):
        return g.slice(t, [a], [b], [2], hint=f"{name}_{hint}")
    lowest = g.scalar(np.finfo(dt).min, dt, f"{name}_lowest")
    score = g.squeeze(col(x, si, si + 1, "score"), [2], hint=f"{name}_score_sq")   # (B, N)
    if ii >= 0 and int(p["background_id"]) >= 0:
        ids = g.squeeze(col(x, ii, ii + 1, "bg_ids"), [2], hint=f"{name}_bg_ids_sq")
        bg = g.add("Equal", [ids, g.scalar(float(p["background_id"]), dt, f"{name}_bg")])
        score = g.add("Where", [bg, lowest, score], hint=f"{name}_score_fg")
    # the topk best candidates, best first (ties: lower index first, as MXNet's stable sort)
    cand_score, order = g.add("TopK", [score, g.ints([K], f"{name}_k")],
                              [g.fresh(f"{name}_cand_score"), g.fresh(f"{name}_order")],
                              hint=f"{name}_topk", axis=1, largest=1, sorted=1)
    cand = g.add("GatherElements", [x, g.add("Expand", [
        g.unsqueeze(order, [2], hint=f"{name}_order3"),
        g.add("Concat", [g.slice(g.add("Shape", [x]), [0], [1], [0]), g.ints([K, W],
                                                                            f"{name}_kw")],
              axis=0)], hint=f"{name}_order_w")], hint=f"{name}_cand", axis=1)  # (B, K, W)
    boxes = col(cand, cs, cs + 4, "boxes")
    if ii >= 0 and not p["force_suppress"]:
        # per-class suppression: shift each class's boxes apart so that they never overlap
        cls = col(cand, ii, ii + 1, "cls")
        lo = g.add("ReduceMin", [boxes], hint=f"{name}_lo", keepdims=0)
        hi = g.add("ReduceMax", [boxes], hint=f"{name}_hi", keepdims=0)
        span = g.add("Add", [g.add("Sub", [hi, lo]), g.scalar(1, dt, f"{name}_one")])
        shift = g.add("Mul", [cls, g.add("Mul", [span, g.scalar(2, dt, f"{name}_two")])])
        if p["in_format"] == "center":  # only the centre moves
            shift = g.add("Mul", [shift, g.const(np.array([1, 1, 0, 0], dt), f"{name}_xy")])
        boxes = g.add("Add", [boxes, shift], hint=f"{name}_shifted")
    sel = g.add("NonMaxSuppression", [
        boxes, g.unsqueeze(cand_score, [1], hint=f"{name}_scores"),
        g.ints([K], f"{name}_max_out"),
        g.const(np.array([p["overlap_thresh"]], np.float32), f"{name}_iou"),
        g.const(np.array([p["valid_thresh"]], np.float32), f"{name}_valid")],
        hint=f"{name}_nms", center_point_box=int(p["in_format"] == "center"))
    # keep mask (B, K) from the selected (batch, class, index) triples
    pos = g.add("Gather", [sel, g.ints([0, 2], f"{name}_bi")], hint=f"{name}_sel_pos", axis=1)
    zeros = g.add("ConstantOfShape", [g.add("Shape", [order])], hint=f"{name}_zeros",
                  value=g.numpy_helper.from_array(np.zeros(1, np.int64), "value"))
    nsel = g.slice(g.add("Shape", [sel], hint=f"{name}_sel_shape"), [0], [1], [0])
    ones = g.add("ConstantOfShape", [nsel], hint=f"{name}_ones",
                 value=g.numpy_helper.from_array(np.ones(1, np.int64), "value"))
    keep = g.add("ScatterND", [zeros, pos, ones], hint=f"{name}_keep")           # (B, K) 0/1
    # kept candidates first, in score order: sort by index + K * dropped
    idx = g.add("Range", [_scalar(g, 0, np.int64, f"{name}_r0"), _scalar(g, K, np.int64, f"{name}_rk"),
                          _scalar(g, 1, np.int64, f"{name}_r1")], hint=f"{name}_range")
    dropped = g.add("Sub", [g.ints([1], f"{name}_one_d"), keep])
    key = g.add("Add", [idx, g.add("Mul", [dropped, g.ints([K], f"{name}_kk")])])
    _, pack = g.add("TopK", [key, g.ints([K], f"{name}_k2")],
                    [g.fresh(f"{name}_pack_key"), g.fresh(f"{name}_pack")], hint=f"{name}_packsort",
                    axis=1, largest=0, sorted=1)
    packed = g.add("GatherElements", [cand, g.add("Expand", [
        g.unsqueeze(pack, [2], hint=f"{name}_pack3"), g.add("Shape", [cand])])],
        hint=f"{name}_packed", axis=1)
    count = g.add("ReduceSum", [keep, g.ints([1], f"{name}_cnt_axis")] if g.opset >= 13
                  else [keep], hint=f"{name}_count", keepdims=1,
                  **({} if g.opset >= 13 else {"axes": [1]}))
    alive = g.unsqueeze(g.add("Less", [idx, count], hint=f"{name}_alive"), [2])
    minus1 = g.scalar(-1, dt, f"{name}_minus1")
    out = g.add("Where", [alive, packed, minus1], hint=f"{name}_rows")
    if K < N:
        out = g.add("Pad", [out, g.ints([0, 0, 0, 0, N - K, 0], f"{name}_pads"), minus1],
                    hint=f"{name}_pad", mode="constant")
    if rank == 3:
        g.add("Identity", [out], n.out, hint=name)
    else:
        g.add("Reshape", [out, g.add("Shape", [n.inputs[0]])], n.out, hint=name)


@register("_contrib_ROIAlign")
def roi_align(g, n):
    p = n.p
    if p["position_sensitive"]:
        n.fail("position_sensitive=True is not supported")
    attrs = {}
    if g.opset >= 16:
        attrs["coordinate_transformation_mode"] = "half_pixel" if p["aligned"] else \
            "output_half_pixel"
    elif p["aligned"]:
        n.fail("aligned=True needs opset 16 or newer")
    rois = n.inputs[1]
    batch = g.add("Cast", [g.squeeze(g.slice(rois, [0], [1], [1], hint=f"{n.name}_bcol"), [1])],
                  hint=f"{n.name}_batch", to=g.onnx.TensorProto.INT64)
    boxes = g.slice(rois, [1], [5], [1], hint=f"{n.name}_boxes")
    ph, pw = (int(v) for v in p["pooled_size"])
    g.add("RoiAlign", [n.inputs[0], boxes, batch], n.out, hint=n.name, mode="avg",
          output_height=ph, output_width=pw, sampling_ratio=max(int(p["sample_ratio"]), 0),
          spatial_scale=float(p["spatial_scale"]), **attrs)


@register("ROIPooling")
def roi_pooling(g, n):
    p = n.p
    g.add("MaxRoiPool", [n.inputs[0], n.inputs[1]], n.out, hint=n.name,
          pooled_shape=[int(v) for v in p["pooled_size"]],
          spatial_scale=float(p["spatial_scale"]))


# -- resizing and pooling ------------------------------------------------------------------

@register("_contrib_AdaptiveAvgPooling2D")
def adaptive_avg_pool(g, n):
    size = n.p["output_size"]
    size = tuple(size) if isinstance(size, (tuple, list)) else (size,)
    size = (1, 1) if not size else (size * 2 if len(size) == 1 else size)
    if tuple(int(s) for s in size) == (1, 1):
        g.add("GlobalAveragePool", [n.inputs[0]], n.out, hint=n.name)
        return
    h, w = n.shape(0)[2:]
    oh, ow = (int(s) for s in size)
    if h % oh or w % ow:
        n.fail(f"output_size={size} must divide the input's spatial size {(h, w)}")
    g.add("AveragePool", [n.inputs[0]], n.out, hint=n.name, kernel_shape=[h // oh, w // ow],
          strides=[h // oh, w // ow])


@register("_contrib_BilinearResize2D")
def bilinear_resize(g, n):
    p = n.p
    if p["mode"] != "size" or len(n.inputs) != 1:
        n.fail(f"mode={p['mode']!r} is not supported; expected 'size'")
    out = n.out_shape()
    ctm = "align_corners" if p["align_corners"] else "pytorch_half_pixel"
    roi = g.const(np.zeros(0, np.float32), f"{n.name}_roi")
    scales = g.const(np.zeros(0, np.float32), f"{n.name}_scales")
    g.add("Resize", [n.inputs[0], roi, scales, g.ints(out, f"{n.name}_sizes")], n.out,
          hint=n.name, mode="linear", coordinate_transformation_mode=ctm)
