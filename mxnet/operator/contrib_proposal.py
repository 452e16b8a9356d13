"""Region proposal operators of ``mx.nd.contrib`` (Faster R-CNN's RPN): Proposal and
MultiProposal.

Per image, as 1.9.1 computes it (in float32):

1. anchors: for every ratio (outer) and scale (inner), a box centred on the
   ``feature_stride`` x ``feature_stride`` base cell with ``w = round(sqrt(floor(s*s / r)))
   * scale`` and ``h = round(w / scale * r) * scale`` (``s`` the stride), laid on every cell
   of the feature map; a candidate's index is ``(y * W + x) * A + a``;
2. each candidate is moved by its regression deltas (centre/log-size deltas, or corner
   offsets with ``iou_loss``) and clipped to the image ``im_info = (height, width, scale)``;
   its score is the foreground probability (channel ``A + a`` of ``cls_prob``). Cells
   beyond the image (``y >= int(height / stride)`` or ``x >= ...``) and boxes narrower or
   lower than ``rpn_min_size * scale`` (these are also grown by half that size on each
   side) get the score -1;
3. the ``rpn_pre_nms_top_n`` best (all when not positive) are sorted by descending score
   and suppressed greedily (IoU with the +1 pixel convention above ``threshold``) until
   ``min(rpn_post_nms_top_n, rpn_pre_nms_top_n)`` boxes are kept;
4. the output has ``rpn_post_nms_top_n`` rows ``[image index, x1, y1, x2, y2]`` (and scores
   with ``output_score``); when fewer boxes were kept, the rows cycle through them.

Proposal takes one image (batch 1); MultiProposal stacks every image's rows. Neither has a
gradient: 1.9.1 passes zeros to every input, and so do these.

Differences from 1.9.1: equal scores keep the candidate order (1.9.1's sort is unstable, so
its order among ties is unspecified); float16/float64 inputs are computed in float32.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from ._common import float32_only_type
from .contrib_box import _require_float, _zero_grad, exp_f32, stable_argsort
from .registry import Param, register

__all__ = []

_F32 = np.float32


def _params():
    return (
        Param("rpn_pre_nms_top_n", "int", 6000,
              doc="Candidates kept (by score) before suppression; <= 0 keeps all."),
        Param("rpn_post_nms_top_n", "int", 300, doc="Boxes output per image."),
        Param("threshold", "float", 0.7, doc="IoU above which a lower-scored box is "
                                             "suppressed."),
        Param("rpn_min_size", "int", 16, doc="Smallest box side (times the image scale)."),
        Param("scales", "tuple_float", (4.0, 8.0, 16.0, 32.0), doc="Anchor scales."),
        Param("ratios", "tuple_float", (0.5, 1.0, 2.0), doc="Anchor aspect ratios (h / w)."),
        Param("feature_stride", "int", 16, doc="Image pixels per feature-map cell."),
        Param("output_score", "bool", False, doc="Also output the boxes' scores."),
        Param("iou_loss", "bool", False, doc="Deltas are corner offsets (IoU loss) instead "
                                             "of centre/size deltas."),
    )


def base_anchors(stride, ratios, scales):
    """The (A, 4) anchors of one cell, ratio-major, as float32 corners."""
    size = float(stride) * float(stride)
    ctr = _F32(0.5 * (stride - 1.0))
    rows = []
    for r in ratios:
        r32 = _F32(r)
        size_ratio = np.floor(_F32(size) / r32)
        for s in scales:
            s32 = _F32(s)
            w = _F32(np.floor(np.sqrt(size_ratio) + _F32(0.5)) * s32)
            h = _F32(np.floor(w / s32 * r32 + _F32(0.5)) * s32)
            hw, hh = _F32(0.5 * (w - 1.0)), _F32(0.5 * (h - 1.0))
            rows.append([ctr - hw, ctr - hh, ctr + hw, ctr + hh])
    return np.asarray(rows, dtype=_F32)


def _check_shapes(opname, attrs, cshape, bshape, ishape, single):
    A = len(attrs["scales"]) * len(attrs["ratios"])
    if len(cshape) != 4 or cshape[1] != 2 * A:
        raise MXNetError(f"{opname}: cls_prob must be (batch, 2 * num_anchors, height, width) "
                         f"with num_anchors = len(scales) * len(ratios) = {A}; got shape "
                         f"{tuple(cshape)}")
    if single and cshape[0] != 1:
        raise MXNetError(f"{opname}: only one image per call is supported (cls_prob batch "
                         f"size 1); got shape {tuple(cshape)} -- use MultiProposal")
    want_b = (cshape[0], 4 * A, cshape[2], cshape[3])
    if bshape is not None and tuple(bshape) != want_b:
        raise MXNetError(f"{opname}: bbox_pred must have shape {want_b} for cls_prob "
                         f"{tuple(cshape)}; got {tuple(bshape)}")
    if ishape is not None and tuple(ishape) != (cshape[0], 3):
        raise MXNetError(f"{opname}: im_info must have shape {(cshape[0], 3)} (height, width, "
                         f"scale per image); got {tuple(ishape)}")
    if attrs["feature_stride"] <= 0:
        raise MXNetError(f"{opname}: feature_stride must be positive; got "
                         f"{attrs['feature_stride']}")
    if attrs["rpn_post_nms_top_n"] <= 0:
        raise MXNetError(f"{opname}: rpn_post_nms_top_n must be positive; got "
                         f"{attrs['rpn_post_nms_top_n']}")


def _decode(xp, attrs, anchors, deltas, info):
    """Candidate boxes (B, K, 4) and their validity mask from the deltas (B, K, 4)."""
    im_h = info[:, 0][:, None]
    im_w = info[:, 1][:, None]
    a = anchors[None]
    if attrs["iou_loss"]:
        x1 = a[..., 0] + deltas[..., 0]
        y1 = a[..., 1] + deltas[..., 1]
        x2 = a[..., 2] + deltas[..., 2]
        y2 = a[..., 3] + deltas[..., 3]
    else:
        one, half = _F32(1), _F32(0.5)
        w = a[..., 2] - a[..., 0] + one
        h = a[..., 3] - a[..., 1] + one
        cx = a[..., 0] + half * (w - one)
        cy = a[..., 1] + half * (h - one)
        pcx = deltas[..., 0] * w + cx
        pcy = deltas[..., 1] * h + cy
        pw = exp_f32(xp, deltas[..., 2]) * w
        ph = exp_f32(xp, deltas[..., 3]) * h
        x1, x2 = pcx - half * (pw - one), pcx + half * (pw - one)
        y1, y2 = pcy - half * (ph - one), pcy + half * (ph - one)
    zero = _F32(0)
    x1 = xp.maximum(xp.minimum(x1, im_w - 1), zero)
    x2 = xp.maximum(xp.minimum(x2, im_w - 1), zero)
    y1 = xp.maximum(xp.minimum(y1, im_h - 1), zero)
    y2 = xp.maximum(xp.minimum(y2, im_h - 1), zero)
    return xp.stack([x1, y1, x2, y2], axis=-1)


def _nms_keep(xp, boxes, n_keep, thresh):
    """Greedy suppression over (B, P, 4) boxes in priority order: the indices (B, n_keep)
    of the kept boxes (-1 past the last) and their count per image. One iteration per kept
    box, every image at once."""
    B, P, _ = boxes.shape
    one = _F32(1)
    area = (boxes[..., 2] - boxes[..., 0] + one) * (boxes[..., 3] - boxes[..., 1] + one)
    alive = xp.ones((B, P), dtype=bool)
    keep = xp.full((B, n_keep), -1, dtype=np.int64)
    count = xp.zeros(B, dtype=np.int64)
    rows = xp.arange(B)
    pos = xp.arange(P)[None, :]
    thr = _F32(thresh)
    zero = _F32(0)
    for k in range(n_keep):
        has = alive.any(axis=1)
        if not bool(has.any()):
            break
        ref = xp.argmax(alive, axis=1)
        keep[:, k] = xp.where(has, ref, -1)
        count += has
        b = boxes[rows, ref]                                                  # (B, 4)
        iw = xp.maximum(zero, xp.minimum(b[:, None, 2], boxes[..., 2])
                        - xp.maximum(b[:, None, 0], boxes[..., 0]) + one)
        ih = xp.maximum(zero, xp.minimum(b[:, None, 3], boxes[..., 3])
                        - xp.maximum(b[:, None, 1], boxes[..., 1]) + one)
        inter = iw * ih
        ovr = inter / (area[rows, ref][:, None] + area - inter)
        alive &= ~(ovr > thr) & (pos > ref[:, None])
    return keep, count


def _proposal(opname, single):
    def compute(rc, attrs, cls_prob, bbox_pred, im_info):
        xp = rc.xp
        _require_float(opname, cls_prob, bbox_pred, im_info)
        _check_shapes(opname, attrs, cls_prob.shape, bbox_pred.shape, im_info.shape, single)
        B, A2, H, W = cls_prob.shape
        A = A2 // 2
        fs = attrs["feature_stride"]
        K = H * W * A
        anchors = xp.asarray(base_anchors(fs, attrs["ratios"], attrs["scales"]))
        sy = (xp.arange(H, dtype=_F32) * _F32(fs))[:, None, None]
        sx = (xp.arange(W, dtype=_F32) * _F32(fs))[None, :, None]
        shift = [sx, sy, sx, sy]
        shifted = xp.stack([xp.broadcast_to(anchors[None, None, :, k] + shift[k], (H, W, A))
                            for k in range(4)], axis=-1).reshape(K, 4)
        score = cls_prob[:, A:].astype(_F32).transpose(0, 2, 3, 1).reshape(B, K)
        deltas = bbox_pred.astype(_F32).reshape(B, A, 4, H, W).transpose(0, 3, 4, 1, 2)
        info = im_info.astype(_F32)
        boxes = _decode(xp, attrs, shifted, deltas.reshape(B, K, 4), info)
        # cells beyond the image's real extent (padding) cannot propose
        real_h = xp.floor(info[:, 0] / _F32(fs)).astype(np.int64)
        real_w = xp.floor(info[:, 1] / _F32(fs)).astype(np.int64)
        if bool((real_h > H).any() or (real_w > W).any()):
            raise MXNetError(f"{opname}: im_info describes an image larger than the feature "
                             f"map ({H}x{W} cells of stride {fs}); got im_info "
                             f"{np.asarray(info.get() if hasattr(info, 'get') else info)}")
        cy = xp.repeat(xp.arange(H), W * A)[None, :]
        cx = xp.tile(xp.repeat(xp.arange(W), A), H)[None, :]
        padded = (cy >= real_h[:, None]) | (cx >= real_w[:, None])
        score = xp.where(padded, _F32(-1), score)
        # boxes below the minimum size are grown and disqualified
        min_size = (_F32(attrs["rpn_min_size"]) * info[:, 2])[:, None]
        one = _F32(1)
        small = ((boxes[..., 2] - boxes[..., 0] + one < min_size)
                 | (boxes[..., 3] - boxes[..., 1] + one < min_size))
        grow = xp.where(small, min_size / _F32(2), _F32(0))[..., None]
        boxes = boxes + grow * xp.asarray(np.array([-1, -1, 1, 1], dtype=_F32))
        score = xp.where(small, _F32(-1), score)
        pre = attrs["rpn_pre_nms_top_n"]
        pre = K if pre <= 0 else min(pre, K)
        post = min(attrs["rpn_post_nms_top_n"], pre)
        order = stable_argsort(xp, -score, axis=1)[:, :pre]
        sboxes = xp.take_along_axis(boxes, order[:, :, None], axis=1)
        sscore = xp.take_along_axis(score, order, axis=1)
        keep, count = _nms_keep(xp, sboxes, post, attrs["threshold"])
        n_out = attrs["rpn_post_nms_top_n"]
        slot = xp.arange(n_out)[None, :] % xp.maximum(count, 1)[:, None]
        pick = xp.take_along_axis(keep, xp.minimum(slot, post - 1), axis=1)
        rows = xp.arange(B)[:, None]
        out_boxes = sboxes[rows, pick]                                            # (B, n, 4)
        out_score = sscore[rows, pick]
        bidx = xp.broadcast_to(xp.arange(B, dtype=_F32)[:, None, None], (B, n_out, 1))
        out = xp.concatenate([bidx, out_boxes], axis=-1).reshape(B * n_out, 5)
        dt = cls_prob.dtype
        return out.astype(dt), out_score.reshape(B * n_out, 1).astype(dt)
    return compute


def _infer_shape(opname, single):
    def infer(attrs, ins, outs):
        c, b, i = ins
        if c is None:
            return ins, outs, []
        _check_shapes(opname, attrs, c, b, i, single)
        A = len(attrs["scales"]) * len(attrs["ratios"])
        n = c[0] * attrs["rpn_post_nms_top_n"]
        return ([c, (c[0], 4 * A, c[2], c[3]), (c[0], 3)], [(n, 5), (n, 1)], [])
    return infer


for _name, _single, _doc in (
        ("_contrib_Proposal", True,
         "Region proposals of one image from RPN scores and box deltas: (post_nms_top_n, 5) "
         "rows [0, x1, y1, x2, y2] (and their scores with output_score)."),
        ("_contrib_MultiProposal", False,
         "Region proposals of every image from RPN scores and box deltas: (batch * "
         "post_nms_top_n, 5) rows [image, x1, y1, x2, y2] (and scores with output_score).")):
    register(_name, _proposal(_name, _single), inputs=("cls_prob", "bbox_pred", "im_info"),
             params=_params(), num_outputs=2,
             num_visible_outputs=lambda a: 2 if a["output_score"] else 1,
             output_names=lambda a: ("output", "score") if a["output_score"] else ("output",),
             infer_shape=_infer_shape(_name, _single), infer_type=float32_only_type(_name),
             gradient=_zero_grad, doc=_doc)
