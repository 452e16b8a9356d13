"""Bounding-box operators of ``mx.nd.contrib``: box_iou, box_nms (box_non_maximum_suppression),
box_encode, box_decode and bipartite_matching.

Boxes are ``corner`` ([xmin, ymin, xmax, ymax]) or ``center`` ([x, y, width, height]).
As in 1.9.1:

- **box_iou** gives 0 wherever the intersection is not positive; a box whose width or height
  is negative has area 0.
- **box_nms** keeps boxes whose score is above ``valid_thresh`` (and, with ``id_index``, whose
  class is not ``background_id``), sorts them by descending score (ties keep input order),
  takes the first ``topk`` per batch and suppresses greedily: a kept box removes every later
  box (of the same class unless ``force_suppress``) whose IoU with it exceeds
  ``overlap_thresh``. Survivors fill the front of each batch in score order, the rest is -1.
  A hidden second output records where each output row came from (a flat index over all
  batches); the gradient copies each output row's gradient back there. Converting to
  ``out_format`` skips rows whose first coordinate is negative (1.9.1's test for the -1
  padding), and ``topk=0`` returns the input unchanged.
- **bipartite_matching** walks all (row, column) scores from best to worst (ties in input
  order) and matches a pair while both are free and the score passes ``threshold``; the
  first free pair that fails ends the walk. With ``topk`` the walk stops once the count of
  matches exceeds ``topk`` (so ``topk + 1`` pairs are kept, as 1.9.1 does).
- **box_encode / box_decode** turn corner boxes into normalised centre offsets and back.

box_iou, box_encode, box_decode and bipartite_matching pass zero gradients, as in 1.9.1.

The greedy passes (NMS, matching) loop once per kept box or match; every step works on all
batches and all candidates at once.
"""
from __future__ import annotations

import math

import numpy as np

from ..base import MXNetError
from ._common import same_dtype
from .registry import Param, register

__all__ = []

_FORMATS = ("corner", "center")
_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def _require_float(opname, *arrays):
    for a in arrays:
        if a.dtype not in _FLOATS:
            raise MXNetError(f"{opname}: dtype {a.dtype} is not supported; expected float16, "
                             f"float32 or float64")


def _cdt(dt):
    """Compute dtype: float16 works in float32."""
    return np.dtype(np.float32) if dt == np.float16 else np.dtype(dt)


def _zero_grad(F, attrs, inputs, outputs, out_grads):
    return [F.zeros_like(x) for x in inputs]


def _float_type(opname, from_any_input=False, same=False):
    """infer_type: the float dtype of the first input (of any input when
    ``from_any_input``) or of an output, given to the unknown inputs and every output
    (and, with ``same``, required of the known inputs too, as 1.9.1 does)."""
    def infer(attrs, in_types, out_types):
        seeds = in_types if from_any_input else in_types[:1]
        known = next((t for t in list(seeds) + list(out_types) if t is not None), None)
        if known is not None and np.dtype(known) not in _FLOATS:
            raise MXNetError(f"{opname}: dtype {np.dtype(known)} is not supported; expected "
                             f"float16, float32 or float64")
        t = None if known is None else np.dtype(known)
        if same and t is not None:
            return [t] * len(in_types), [t] * len(out_types), []
        ins = [t if x is None else x for x in in_types]
        return ins, [t] * len(out_types), []
    return infer


def stable_argsort(xp, a, axis=-1):
    """Argsort keeping equal keys in input order (CuPy's sort is always stable and older
    CuPy releases reject ``kind``)."""
    if xp is np:
        return np.argsort(a, axis=axis, kind="stable")
    return xp.argsort(a, axis=axis)


# ---------------------------------------------------------------------------------------------
# geometry shared with the MultiBox operators


def box_edges(box, fmt):
    """(left, top, right, bottom) of boxes ``(..., 4)`` given in ``fmt``."""
    if fmt == "corner":
        return box[..., 0], box[..., 1], box[..., 2], box[..., 3]
    hw, hh = box[..., 2] / 2, box[..., 3] / 2
    return box[..., 0] - hw, box[..., 1] - hh, box[..., 0] + hw, box[..., 1] + hh


def box_area(xp, box, fmt):
    """Width * height, or 0 when either is negative."""
    if fmt == "corner":
        w, h = box[..., 2] - box[..., 0], box[..., 3] - box[..., 1]
    else:
        w, h = box[..., 2], box[..., 3]
    return xp.where((w < 0) | (h < 0), xp.zeros_like(w), w * h)


def box_intersection(xp, a, b, fmt):
    """Overlap area of boxes ``a`` and ``b`` (broadcast against each other)."""
    al, at, ar, ab = box_edges(a, fmt)
    bl, bt, br, bb = box_edges(b, fmt)
    w = xp.minimum(ar, br) - xp.maximum(al, bl)
    h = xp.minimum(ab, bb) - xp.maximum(at, bt)
    zero = xp.zeros((), dtype=w.dtype)
    return xp.maximum(w, zero) * xp.maximum(h, zero)


# ---------------------------------------------------------------------------------------------
# box_iou


def _iou_shapes(opname, ls, rs):
    for name, s in (("lhs", ls), ("rhs", rs)):
        if len(s) < 2 or s[-1] != 4:
            raise MXNetError(f"{opname}: {name} must have at least 2 dimensions and a last "
                             f"dimension of 4; got shape {tuple(s)}")
    return tuple(ls[:-1]) + tuple(rs[:-1])


def _box_iou(rc, attrs, lhs, rhs):
    xp = rc.xp
    name = "_contrib_box_iou"
    _require_float(name, lhs, rhs)
    oshape = _iou_shapes(name, lhs.shape, rhs.shape)
    same_dtype(name, lhs, rhs)
    dt = lhs.dtype
    cdt = _cdt(dt)
    a = lhs.reshape(-1, 1, 4).astype(cdt, copy=False)
    b = rhs.reshape(1, -1, 4).astype(cdt, copy=False)
    fmt = attrs["format"]
    inter = box_intersection(xp, a, b, fmt)
    union = box_area(xp, a, fmt) + box_area(xp, b, fmt) - inter
    iou = xp.where(inter > 0, inter / xp.where(inter > 0, union, 1), 0)
    return iou.astype(dt, copy=False).reshape(oshape)


def _box_iou_shape(attrs, ins, outs):
    ls, rs = ins
    if ls is None or rs is None:
        return ins, outs, []
    return ins, [_iou_shapes("_contrib_box_iou", ls, rs)], []


_FORMAT_PARAM = Param("format", "str", "corner", choices=_FORMATS,
                      doc="Box encoding: 'corner' [xmin, ymin, xmax, ymax] or 'center' "
                          "[x, y, width, height].")

register("_contrib_box_iou", _box_iou, inputs=("lhs", "rhs"), params=(_FORMAT_PARAM,),
         infer_shape=_box_iou_shape, infer_type=_float_type("_contrib_box_iou", same=True),
         gradient=_zero_grad,
         doc="Intersection over union of every lhs box with every rhs box: the output shape "
             "is lhs.shape[:-1] + rhs.shape[:-1].")


# ---------------------------------------------------------------------------------------------
# greedy suppression, shared with MultiBoxDetection


def greedy_nms(xp, alive, hits_of, classes=None):
    """Greedy suppression over (B, K) candidates already in priority order.

    ``alive`` marks the candidates; ``hits_of(ref)`` returns the (B, K) mask of candidates
    overlapping each batch's reference candidate ``ref`` (B,) enough to be suppressed;
    ``classes`` (B, K), when given, limits suppression to equal classes. One iteration per
    kept candidate: the first alive, unvisited candidate of every batch is kept and removes
    the later ones it hits. Returns the kept mask.
    """
    B, K = alive.shape
    alive = alive.copy()
    visited = xp.zeros_like(alive)
    pos = xp.arange(K)[None, :]
    rows = xp.arange(B)
    while True:
        pending = alive & ~visited
        has = pending.any(axis=1)
        if not bool(has.any()):
            return alive
        ref = xp.argmax(pending, axis=1)
        visited[rows, ref] |= has
        hit = hits_of(ref) & has[:, None] & (pos > ref[:, None])
        if classes is not None:
            hit &= classes == classes[rows, ref][:, None]
        alive &= ~hit


# ---------------------------------------------------------------------------------------------
# box_nms


_NMS_PARAMS = (
    Param("overlap_thresh", "float", 0.5, doc="Suppress a box whose IoU with a kept, "
                                              "higher-scored box exceeds this."),
    Param("valid_thresh", "float", 0.0, doc="Only boxes scoring above this take part."),
    Param("topk", "int", -1, doc="Keep only the topk highest scores per batch (-1: all)."),
    Param("coord_start", "int", 2, doc="Index of the first of the 4 coordinates."),
    Param("score_index", "int", 1, doc="Index of the score."),
    Param("id_index", "int", -1, doc="Index of the class id (-1: no class)."),
    Param("background_id", "int", -1, doc="Class id ignored by NMS (with id_index)."),
    Param("force_suppress", "bool", False, doc="Suppress across classes too."),
    Param("in_format", "str", "corner", choices=_FORMATS, doc="Input box encoding."),
    Param("out_format", "str", "corner", choices=_FORMATS, doc="Output box encoding."),
)


def _nms_check(opname, attrs, shape):
    if len(shape) < 2:
        raise MXNetError(f"{opname}: input must have at least 2 dimensions (..., num_boxes, "
                         f"box_width); got shape {tuple(shape)}")
    width = shape[-1]
    need = 5 + (1 if attrs["id_index"] >= 0 else 0)
    if width < need:
        raise MXNetError(f"{opname}: the last dimension must have at least {need} elements "
                         f"(score and 4 coordinates{', class id' if need == 6 else ''}); "
                         f"got {width}")
    cs, si, ii = attrs["coord_start"], attrs["score_index"], attrs["id_index"]
    if not 0 <= si < width:
        raise MXNetError(f"{opname}: score_index {si} is out of range [0, {width})")
    if cs <= si <= cs + 3:
        raise MXNetError(f"{opname}: score_index {si} conflicts with the coordinates "
                         f"[{cs}, {cs + 3}]")
    if cs < 0 or cs + 3 >= width:
        raise MXNetError(f"{opname}: coordinates [{cs}, {cs + 3}] are out of range [0, "
                         f"{width})")
    if ii >= 0:
        if ii >= width:
            raise MXNetError(f"{opname}: id_index {ii} is out of range [0, {width})")
        if cs <= ii <= cs + 3:
            raise MXNetError(f"{opname}: id_index {ii} conflicts with the coordinates "
                             f"[{cs}, {cs + 3}]")
        if ii == si:
            raise MXNetError(f"{opname}: id_index {ii} conflicts with score_index {si}")


def _convert_format(xp, out, cs, to):
    """1.9.1's in-place encoding switch of output rows; rows whose first coordinate is
    negative (the -1 padding, or a box left of the origin) are left as they are."""
    box = out[..., cs:cs + 4]
    skip = box[..., 0] < 0
    if to == "center":
        l, t, r, b = box[..., 0], box[..., 1], box[..., 2], box[..., 3]
        new = xp.stack([(l + r) / 2, (t + b) / 2, r - l, b - t], axis=-1)
    else:
        x, y = box[..., 0], box[..., 1]
        hw, hh = box[..., 2] / 2, box[..., 3] / 2
        new = xp.stack([x - hw, y - hh, x + hw, y + hh], axis=-1)
    out[..., cs:cs + 4] = xp.where(skip[..., None], box, new.astype(out.dtype, copy=False))


def _box_nms(rc, attrs, data):
    xp = rc.xp
    name = "_contrib_box_nms"
    _require_float(name, data)
    _nms_check(name, attrs, data.shape)
    dt = data.dtype
    shape = data.shape
    N, W = shape[-2:]
    B = math.prod(shape[:-2])
    rec_shape = tuple(shape[:-1]) + (1,)
    topk = N if attrs["topk"] < 0 else min(N, attrs["topk"])
    if topk < 1 or B * N == 0:
        return data.copy(), xp.arange(B * N, dtype=dt).reshape(rec_shape)
    x = data.reshape(B, N, W)
    cs, si, ii = attrs["coord_start"], attrs["score_index"], attrs["id_index"]
    score = x[:, :, si]
    valid = score > dt.type(np.float32(attrs["valid_thresh"]))
    if ii >= 0:
        valid &= x[:, :, ii] != dt.type(attrs["background_id"])
    key = xp.where(valid, -score.astype(np.float64), np.inf)
    n_cand = xp.minimum(valid.sum(axis=1), topk)
    K = max(int(n_cand.max()), 1)              # candidates per batch, at most topk
    order = stable_argsort(xp, key, axis=1)[:, :K]
    alive = xp.arange(K)[None, :] < n_cand[:, None]
    cand = xp.take_along_axis(x, order[:, :, None], axis=1)           # (B, K, W)
    fmt = attrs["in_format"]
    cdt = _cdt(dt)
    boxes = cand[:, :, cs:cs + 4].astype(cdt, copy=False)
    area = box_area(xp, boxes, fmt)
    thresh = cdt.type(np.float32(attrs["overlap_thresh"]))
    rows = xp.arange(B)

    def hits_of(ref):
        inter = box_intersection(xp, boxes[rows, ref][:, None, :], boxes, fmt)
        return inter / (area[rows, ref][:, None] + area - inter) > thresh

    classes = None
    if ii >= 0 and not attrs["force_suppress"]:
        classes = xp.trunc(cand[:, :, ii].astype(np.float64))
    kept = greedy_nms(xp, alive, hits_of, classes)
    dest = xp.cumsum(kept, axis=1) - 1
    out = xp.full((B, N, W), -1, dtype=dt)
    record = xp.full((B, N), -1, dtype=dt)
    b_idx, k_idx = xp.nonzero(kept)
    out[b_idx, dest[b_idx, k_idx]] = cand[b_idx, k_idx]
    record[b_idx, dest[b_idx, k_idx]] = (b_idx * N + order[b_idx, k_idx]).astype(dt)
    if attrs["in_format"] != attrs["out_format"]:
        _convert_format(xp, out, cs, attrs["out_format"])
    return out.reshape(shape), record.reshape(rec_shape)


def _box_nms_shape(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else outs[0]
    if d is None:
        return ins, outs, []
    _nms_check("_contrib_box_nms", attrs, d)
    return [tuple(d)], [tuple(d), tuple(d[:-1]) + (1,)], []


def _box_nms_grad(F, attrs, inputs, outputs, out_grads):
    return [F._backward_contrib_box_nms(out_grads[0], outputs[1], **attrs)]


# 1.9.1 names outputs by the total count (two here), so the visible one is 'output0'
register("_contrib_box_nms", _box_nms, params=_NMS_PARAMS, num_outputs=2,
         num_visible_outputs=1, output_names=("output0", "output1"), infer_shape=_box_nms_shape,
         infer_type=_float_type("_contrib_box_nms"), gradient=_box_nms_grad,
         aliases=("_contrib_box_non_maximum_suppression",),
         doc="Non-maximum suppression: survivors sorted by score at the front of each batch, "
             "the rest filled with -1.")


def _backward_box_nms(rc, attrs, ograd, record):
    xp = rc.xp
    W = ograd.shape[-1]
    og = ograd.reshape(-1, W)
    rec = record.reshape(-1).astype(np.int64)
    g = xp.zeros_like(og)
    use = rec >= 0
    g[rec[use]] = og[use]
    return g.reshape(ograd.shape)


register("_backward_contrib_box_nms", _backward_box_nms, inputs=("ograd", "record"),
         params=_NMS_PARAMS,
         infer_shape=lambda attrs, ins, outs: (ins, [ins[0]], []),
         infer_type=lambda attrs, ins, outs: (ins, [ins[0]], []),
         doc="Gradient of box_nms: each output row's gradient goes back to its input row.")


# ---------------------------------------------------------------------------------------------
# bipartite_matching


def _bipartite(rc, attrs, data):
    xp = rc.xp
    name = "_contrib_bipartite_matching"
    _require_float(name, data)
    if data.ndim < 2:
        raise MXNetError(f"{name}: the score matrix must have at least 2 dimensions; got shape "
                         f"{tuple(data.shape)}")
    dt = data.dtype
    N, M = data.shape[-2:]
    B = math.prod(data.shape[:-2])
    rmark = xp.full((B, N), -1, dtype=np.int64)
    cmark = xp.full((B, M), -1, dtype=np.int64)
    if B * N * M:
        s = data.reshape(B, N * M)
        asc = attrs["is_ascend"]
        key = s.astype(np.float64) if asc else -s.astype(np.float64)
        order = stable_argsort(xp, key, axis=1)
        srt = xp.take_along_axis(s, order, axis=1)
        r_of, c_of = order // M, order % M
        thr = dt.type(np.float32(attrs["threshold"]))
        good = (srt < thr) if asc else (srt > thr)
        topk = attrs["topk"]
        active = xp.ones(B, dtype=bool)
        count = xp.zeros(B, dtype=np.int64)
        rows = xp.arange(B)
        while bool(active.any()):
            free = (xp.take_along_axis(rmark, r_of, axis=1) < 0) & \
                   (xp.take_along_axis(cmark, c_of, axis=1) < 0)
            has = free.any(axis=1)
            j = xp.argmax(free, axis=1)
            take = active & has & good[rows, j]
            active &= take
            b = xp.nonzero(take)[0]
            rmark[b, r_of[b, j[b]]] = c_of[b, j[b]]
            cmark[b, c_of[b, j[b]]] = r_of[b, j[b]]
            count += take
            if topk > 0:
                active &= count <= topk
    lead = tuple(data.shape[:-2])
    return rmark.astype(dt).reshape(lead + (N,)), cmark.astype(dt).reshape(lead + (M,))


def _bipartite_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    if len(d) < 2:
        raise MXNetError(f"_contrib_bipartite_matching: the score matrix must have at least 2 "
                         f"dimensions; got shape {tuple(d)}")
    return ins, [tuple(d[:-1]), tuple(d[:-2]) + (d[-1],)], []


register("_contrib_bipartite_matching", _bipartite,
         params=(Param("is_ascend", "bool", False, doc="Lower scores match first."),
                 Param("threshold", "float", doc="Scores must be above this (below with "
                                                 "is_ascend) to match."),
                 Param("topk", "int", -1, doc="Limit on the matches (-1: none).")),
         num_outputs=2, infer_shape=_bipartite_shape,
         infer_type=_float_type("_contrib_bipartite_matching"), gradient=_zero_grad,
         doc="Greedy bipartite matching on a (..., N, M) score matrix: the column matched to "
             "each row and the row matched to each column (-1 when unmatched).")


# ---------------------------------------------------------------------------------------------
# box_encode / box_decode


def _corner_to_center(box):
    """(x, y, w, h) of corner boxes, with 1.9.1's ``xmin + w * 0.5`` centre."""
    w = box[..., 2] - box[..., 0]
    h = box[..., 3] - box[..., 1]
    return box[..., 0] + w * 0.5, box[..., 1] + h * 0.5, w, h


def _box_encode(rc, attrs, samples, matches, anchors, refs, means, stds):
    xp = rc.xp
    name = "_contrib_box_encode"
    _require_float(name, samples, matches, anchors, refs, means, stds)
    if samples.ndim != 2 or anchors.ndim != 3 or anchors.shape[-1] != 4 or refs.ndim != 3 \
            or refs.shape[-1] != 4:
        raise MXNetError(f"{name}: expected samples (B, N), matches (B, N), anchors (B, N, 4) "
                         f"and refs (B, M, 4); got {tuple(samples.shape)}, "
                         f"{tuple(matches.shape)}, {tuple(anchors.shape)}, {tuple(refs.shape)}")
    _box_encode_shape(attrs, [tuple(a.shape) for a in
                              (samples, matches, anchors, refs, means, stds)], [None, None])
    dt = anchors.dtype
    B, N = anchors.shape[:2]
    M = refs.shape[1]
    idx = xp.clip(matches.reshape(B, N).astype(np.int64), 0, max(M - 1, 0))
    ref = xp.take_along_axis(refs, idx[:, :, None], axis=1) if M else xp.zeros_like(anchors)
    rx, ry, rw, rh = _corner_to_center(ref)
    ax, ay, aw, ah = _corner_to_center(anchors)
    mu, sd = means.astype(dt, copy=False), stds.astype(dt, copy=False)
    if dt == np.float32:   # 1.9.1: the log of the float ratio and what follows in double
        def log_t(r, i):
            return ((xp.log(r.astype(np.float64)) - mu[i].astype(np.float64))
                    / sd[i].astype(np.float64)).astype(dt)
    else:
        def log_t(r, i):
            return (xp.log(r) - mu[i]) / sd[i]
    t = xp.stack([((rx - ax) / aw - mu[0]) / sd[0], ((ry - ay) / ah - mu[1]) / sd[1],
                  log_t(rw / aw, 2), log_t(rh / ah, 3)], axis=-1)
    valid = (samples.reshape(B, N) > 0.5)[:, :, None]
    zero = xp.zeros((), dtype=dt)
    targets = xp.where(valid, t.astype(dt, copy=False), zero)
    masks = xp.broadcast_to(valid, targets.shape).astype(dt)
    return targets, masks


def _box_encode_shape(attrs, ins, outs):
    a = ins[2]
    if a is None:
        return ins, outs, []
    ins = list(ins)
    for i, nm in ((4, "means"), (5, "stds")):
        if ins[i] is not None and tuple(ins[i]) != (4,):
            raise MXNetError(f"_contrib_box_encode: {nm} must have shape (4,), "
                             f"got {tuple(ins[i])}")
    ins[4] = ins[5] = (4,)
    return ins, [tuple(a), tuple(a)], []


register("_contrib_box_encode", _box_encode,
         inputs=("samples", "matches", "anchors", "refs", "means", "stds"), num_outputs=2,
         infer_shape=_box_encode_shape,
         infer_type=lambda attrs, ins, outs: _float_type("_contrib_box_encode")(
             attrs, [ins[2]] + list(ins[:2]) + list(ins[3:]), outs),
         gradient=_zero_grad,
         doc="Regression targets of matched anchors, ((ref centre - anchor centre) / anchor "
             "size - mean) / std and (log(ref size / anchor size) - mean) / std, with a mask "
             "of the positive samples.")


def exp_f32(xp, x):
    """exp as 1.9.1's kernels take it: for float32 the C library's expf (``libm32``; NumPy's
    float32 loop is an ulp off on about 1 of 6 arguments); other dtypes as the backend
    gives."""
    if x.dtype == np.float32:
        from ..backend.libm32 import expf
        return expf(xp, x)
    return xp.exp(x)


def _box_decode(rc, attrs, data, anchors):
    xp = rc.xp
    name = "_contrib_box_decode"
    _require_float(name, data, anchors)
    if data.ndim != 3 or data.shape[-1] != 4 or anchors.ndim < 3 or anchors.shape[-1] != 4:
        raise MXNetError(f"{name}: expected data (B, N, 4) and anchors (1, N, 4); got "
                         f"{tuple(data.shape)} and {tuple(anchors.shape)}")
    dt = data.dtype
    B, N = data.shape[:2]
    a = anchors.reshape(-1, 4)[:N].reshape(1, N, 4).astype(dt, copy=False)
    if attrs["format"] == "corner":
        ax, ay, aw, ah = _corner_to_center(a)
    else:
        ax, ay, aw, ah = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
    std = [dt.type(np.float32(attrs[f"std{i}"])) for i in range(4)]
    ox = data[..., 0] * std[0] * aw + ax
    oy = data[..., 1] * std[1] * ah + ay
    dw = data[..., 2] * std[2]
    dh = data[..., 3] * std[3]
    clip = np.float32(attrs["clip"])
    if clip > 0:
        c = dt.type(clip)
        dw, dh = xp.minimum(dw, c), xp.minimum(dh, c)
    ow = exp_f32(xp, dw) * aw * 0.5
    oh = exp_f32(xp, dh) * ah * 0.5
    return xp.stack([ox - ow, oy - oh, ox + ow, oy + oh], axis=-1).astype(dt, copy=False)


register("_contrib_box_decode", _box_decode, inputs=("data", "anchors"),
         params=tuple(Param(f"std{i}", "float", 1.0, doc=f"Scale of encoded value {i}.")
                      for i in range(4)) + (
             Param("clip", "float", -1.0, doc="Upper bound on the encoded log sizes when "
                                              "positive."),
             Param("format", "str", "center", choices=_FORMATS,
                   doc="Encoding of the anchors.")),
         infer_shape=lambda attrs, ins, outs: (ins, [ins[0]], []),
         infer_type=_float_type("_contrib_box_decode", same=True), gradient=_zero_grad,
         doc="Corner boxes from centre offsets relative to anchors (the inverse of "
             "box_encode).")
