"""Detection operators of ``mx.nd.contrib``: ROIAlign and the SSD trio MultiBoxPrior,
MultiBoxTarget and MultiBoxDetection.

- **ROIAlign** averages, in every output bin, a grid of bilinear samples of the feature map
  (``sample_ratio`` per side, or ``ceil(roi size / pooled size)`` when it is not positive).
  Regions are [batch, x1, y1, x2, y2] in image coordinates scaled by ``spatial_scale``;
  ``aligned`` shifts them by half a pixel (and then requires a positive size), otherwise a
  region is at least 1x1. Samples more than one pixel outside the map contribute 0, samples
  just outside are clamped to the border. ``position_sensitive`` reads channel
  ``(c * PH + ph) * PW + pw`` for output channel c at bin (ph, pw). The interpolation is
  separable: per region, dense (PH, H) and (PW, W) weight matrices turn the pooling into two
  matrix products per image, and the gradient applies their transposes (regions get no
  gradient).
- **MultiBoxPrior** lays ``len(sizes) + len(ratios) - 1`` anchors (corner format, computed
  in float32 like 1.9.1) on every feature-map cell: each size at ``ratios[0]``, then
  ``sizes[0]`` at each further ratio.
- **MultiBoxTarget** matches anchors to ground truth as 1.9.1 does: greedily the best
  remaining (anchor, object) pair while its IoU exceeds 1e-6, then every other anchor whose
  best IoU exceeds ``overlap_threshold``; negatives are all other anchors, or with
  ``negative_mining_ratio`` the hardest ones (lowest background probability) among those
  whose best IoU is below ``negative_mining_thresh``. Labels stop at the first row whose
  class is -1; a batch without objects is left at ``ignore_label``.
- **MultiBoxDetection** decodes every anchor whose best foreground probability reaches
  ``threshold``, sorts them by score and suppresses greedily (IoU >= ``nms_threshold``,
  same class unless ``force_suppress``); suppressed rows keep their box but get class -1.
  As in 1.9.1's CPU kernel, ``background_id`` is accepted but class 0 is always the
  background, and the rows beyond ``nms_topk`` keep their unsorted contents with class -1.

None of the MultiBox operators has a gradient (zeros, as in 1.9.1).

Differences from 1.9.1: a region with a negative batch index gives an all-zero output (1.9.1
zeroes a single element and leaves the rest unset), and a batch index past the data raises.
MultiBoxPrior also accepts float16 and float64 data (1.9.1: float32 only).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from ._common import float32_only_type, roi_type
from .contrib_box import (_cdt, _require_float, _zero_grad, exp_f32, greedy_nms,
                          stable_argsort)
from .registry import Param, register

__all__ = []

_F32 = np.float32


# =============================================================================================
# ROIAlign

_ROI_NAME = "_contrib_ROIAlign"


def _roi_out_shape(attrs, dshape, rshape):
    if len(dshape) != 4:
        raise MXNetError(f"{_ROI_NAME}: data must be 4-D (batch, channel, height, width); got "
                         f"shape {tuple(dshape)}")
    if len(rshape) != 2 or rshape[1] != 5:
        raise MXNetError(f"{_ROI_NAME}: rois must be a 2-D tensor of shape (num_rois, 5); got "
                         f"shape {tuple(rshape)}")
    PH, PW = _pooled(attrs)
    C = dshape[1]
    if attrs["position_sensitive"]:
        if C % (PH * PW):
            raise MXNetError(f"{_ROI_NAME}: with position_sensitive the input channels ({C}) "
                             f"must be divisible by pooled_size[0] * pooled_size[1] = "
                             f"{PH * PW}")
        C //= PH * PW
    return (rshape[0], C, PH, PW)


def _pooled(attrs):
    ps = attrs["pooled_size"]
    if len(ps) != 2 or ps[0] <= 0 or ps[1] <= 0:
        raise MXNetError(f"{_ROI_NAME}: pooled_size must be two positive sizes (h, w); got "
                         f"{ps}")
    return ps


def _axis_samples(xp, start, bin_size, grid, n_bins, size, G, dt):
    """Sample positions along one axis: corner indices (R, n_bins, 2G) and weights.

    ``start``, ``bin_size`` (R,) in dtype ``dt``; ``grid`` (R,) samples per bin (G is the
    largest). Follows 1.9.1's arithmetic: sample = start + p * bin + (i + .5) * bin / grid.
    """
    p = xp.arange(n_bins, dtype=dt)[None, :, None]
    i = xp.arange(G, dtype=dt)[None, None, :]
    gr = grid.astype(dt)[:, None, None]
    bs = bin_size[:, None, None]
    pos = (start[:, None, None] + p * bs) + (i + dt.type(0.5)) * bs / gr
    ok = (xp.arange(G)[None, None, :] < grid[:, None, None]) & (pos >= -1.0) & (pos <= size)
    pos = xp.maximum(pos, dt.type(0))
    low = pos.astype(np.int64)
    top = low >= size - 1
    low = xp.where(top, size - 1, low)
    high = xp.where(top, size - 1, low + 1)
    pos = xp.where(top, low.astype(dt), pos)
    frac = pos - low.astype(dt)
    w_low, w_high = dt.type(1) - frac, frac
    zero = xp.zeros((), dtype=dt)
    idx = xp.concatenate([low, high], axis=-1)
    w = xp.concatenate([xp.where(ok, w_low, zero), xp.where(ok, w_high, zero)], axis=-1)
    return xp.clip(idx, 0, max(size - 1, 0)), w


def _roi_geometry(xp, attrs, data_shape, rois):
    """Per region: batch index, y/x corner indices and weights, and the sample count
    (regions with a negative batch index get zero weights)."""
    name = _ROI_NAME
    N, C, H, W = data_shape
    PH, PW = _pooled(attrs)
    dt = _cdt(rois.dtype)
    r = rois.astype(dt, copy=False)
    batch = r[:, 0].astype(np.int64)
    if bool((batch >= N).any()):
        raise MXNetError(f"{name}: a region's batch index is past the data's batch size {N}")
    if not 0 <= attrs["spatial_scale"] <= 1:   # 1.9.1 bounds the parameter to [0, 1]
        raise MXNetError(f"{name}: spatial_scale={attrs['spatial_scale']} is out of range; "
                         "expected a value in [0, 1] (feature-map size over image size)")
    scale = dt.type(np.float32(attrs["spatial_scale"]))
    off = dt.type(0.5) if attrs["aligned"] else dt.type(0)
    x1, y1, x2, y2 = (r[:, k] * scale - off for k in range(1, 5))
    rw, rh = x2 - x1, y2 - y1
    if attrs["aligned"]:
        bad = ~((rw > 0) & (rh > 0)) & (batch >= 0)
        if bool(bad.any()):
            raise MXNetError(f"{name}: with aligned=True every region needs a positive width "
                             f"and height")
    else:
        rw, rh = xp.maximum(rw, dt.type(1)), xp.maximum(rh, dt.type(1))
    bh, bw = rh / dt.type(PH), rw / dt.type(PW)
    sr = attrs["sample_ratio"]
    if sr > 0:
        gh = xp.full(batch.shape, sr, dtype=np.int64)
        gw = gh
    else:
        gh = xp.ceil(rh / dt.type(PH)).astype(np.int64)
        gw = xp.ceil(rw / dt.type(PW)).astype(np.int64)
    gh = xp.where(batch >= 0, gh, 0)
    gw = xp.where(batch >= 0, gw, 0)
    Gh = max(int(gh.max()) if gh.size else 0, 1)
    Gw = max(int(gw.max()) if gw.size else 0, 1)
    yi, wy = _axis_samples(xp, y1, bh, gh, PH, H, Gh, dt)
    xi, wx = _axis_samples(xp, x1, bw, gw, PW, W, Gw, dt)
    count = xp.maximum(gh * gw, 1).astype(dt)
    return xp.maximum(batch, 0), yi, wy, xi, wx, count


def _axis_matrix(xp, idx, w, size, dt):
    """Dense (R, bins, size) interpolation weights from corner indices and weights
    (R, bins, K) -- duplicates (two samples reading one pixel) add up."""
    R, P, K = idx.shape
    rows = (xp.arange(R)[:, None, None] * P + xp.arange(P)[None, :, None]) * size
    m = xp.bincount((rows + idx).ravel(), weights=w.astype(np.float64).ravel(),
                    minlength=R * P * size)
    return m.reshape(R, P, size).astype(dt)


def _roi_groups(xp, batch, per_roi, budget=1 << 24):
    """(image, region indices) chunks: regions of one image at a time, at most ``budget``
    intermediate elements per chunk."""
    step = max(1, budget // max(per_roi, 1))
    b_host = np.asarray(batch.get() if hasattr(batch, "get") else batch)
    for b in np.unique(b_host):
        idx = np.nonzero(b_host == b)[0]
        for s in range(0, idx.size, step):
            yield int(b), xp.asarray(idx[s:s + step])


def _ps_index(xp, C_out, PH, PW):
    """Input channel of output channel c at bin (ph, pw) for position-sensitive pooling."""
    c = xp.arange(C_out)[:, None, None]
    return (c * PH + xp.arange(PH)[None, :, None]) * PW + xp.arange(PW)[None, None, :]


def _roi_matrices(xp, attrs, data_shape, rois, cdt):
    batch, yi, wy, xi, wx, count = _roi_geometry(xp, attrs, data_shape, rois)
    H, W = data_shape[2:]
    return (batch, _axis_matrix(xp, yi, wy, H, cdt), _axis_matrix(xp, xi, wx, W, cdt),
            count.astype(cdt))


# 1.9.1 adds a bin's bilinear samples one after another (w1*v1 + w2*v2 + w3*v3 + w4*v4, the
# samples in row-major order) and divides by their count; ours gathers the samples that way
# while R * C * PH * PW * samples-per-bin stays within this, else it takes the separable
# matrix products below (much faster on large regions; last-bit differences).
_ROI_EXACT_MAX = 1 << 21


def _roi_align_samples(xp, data, geom, oshape, cdt, ps=False):
    """ROIAlign in 1.9.1's order of operations (``ps``: position-sensitive channels)."""
    batch, yi, wy, xi, wx, count = geom
    R, C, PH, PW = oshape
    Gh, Gw = yi.shape[-1] // 2, xi.shape[-1] // 2
    d = data.astype(cdt, copy=False)
    b = batch[:, None, None]
    if ps:   # output channel c of bin (ph, pw) reads input channel cin[ph, pw, c]
        cin = _ps_index(xp, C, PH, PW).transpose(1, 2, 0)[None]

        def get(y, x):   # (R, PH, PW, C)
            return d[b[..., None], cin, y[..., None], x[..., None]]
    else:
        def get(y, x):
            return d[b, :, y, x]
    acc = xp.zeros((R, PH, PW, C), dtype=cdt)
    for iy in range(Gh):
        ylo, yhi = yi[:, :, iy, None], yi[:, :, Gh + iy, None]
        wyl, wyh = wy[:, :, iy, None], wy[:, :, Gh + iy, None]
        for ix in range(Gw):
            xlo, xhi = xi[:, None, :, ix], xi[:, None, :, Gw + ix]
            wxl, wxh = wx[:, None, :, ix], wx[:, None, :, Gw + ix]
            val = (wyl * wxl)[..., None] * get(ylo, xlo)   # (R, PH, PW, C)
            val += (wyl * wxh)[..., None] * get(ylo, xhi)
            val += (wyh * wxl)[..., None] * get(yhi, xlo)
            val += (wyh * wxh)[..., None] * get(yhi, xhi)
            acc += val
    acc /= count[:, None, None, None]
    return acc.transpose(0, 3, 1, 2)


def _roi_align_scatter(data, geom, og, cdt, ps=False):
    """ROIAlign's data gradient (NumPy) in 1.9.1's order: for every region, channel, bin,
    sample (row-major) and corner in turn, grad[corner] += og * w / count."""
    batch, yi, wy, xi, wx, count = geom
    R, C, PH, PW = og.shape
    C_in, H, W = data.shape[1:]
    Gh, Gw = yi.shape[-1] // 2, xi.shape[-1] // 2
    shp = (R, C, PH, PW, Gh, Gw, 4)

    def grid(a, y):   # (R, P, 2G) -> its low and high halves on the y or x sample axis
        if y:
            return a[:, None, :, None, :Gh, None, None], a[:, None, :, None, Gh:, None, None]
        return a[:, None, None, :, None, :Gw, None], a[:, None, None, :, None, Gw:, None]

    ylo, yhi = grid(yi, True)
    xlo, xhi = grid(xi, False)
    wyl, wyh = grid(wy, True)
    wxl, wxh = grid(wx, False)
    yy = np.concatenate(np.broadcast_arrays(ylo, ylo, yhi, yhi), axis=-1)
    xx = np.concatenate(np.broadcast_arrays(xlo, xhi, xlo, xhi), axis=-1)
    w = np.concatenate(np.broadcast_arrays(wyl * wxl, wyl * wxh, wyh * wxl, wyh * wxh), axis=-1)
    vals = og.astype(cdt, copy=False)[:, :, :, :, None, None, None] * w
    vals /= count[:, None, None, None, None, None, None]
    chan = (_ps_index(np, C, PH, PW) if ps else np.arange(C)[:, None, None])
    bc = batch[:, None, None, None, None, None, None] * C_in + chan[None, :, :, :, None, None, None]
    idx = (bc * H + yy) * W + xx
    grad = np.zeros(data.size, dtype=cdt)
    np.add.at(grad, np.broadcast_to(idx, shp).ravel(), np.broadcast_to(vals, shp).ravel())
    return grad.reshape(data.shape)


def _roi_align(rc, attrs, data, rois):
    """out[r] = Ay[r] @ data[batch[r]] @ Ax[r]^T / count[r] per channel, with the dense
    separable interpolation matrices Ay (PH, H) and Ax (PW, W): two matrix products per
    image instead of a gather per sample."""
    xp = rc.xp
    _require_float(_ROI_NAME, data, rois)
    oshape = _roi_out_shape(attrs, data.shape, rois.shape)
    R, C_out, PH, PW = oshape
    dt = data.dtype
    cdt = _cdt(dt)
    out = xp.zeros(oshape, dtype=cdt)
    if R == 0 or data.size == 0:
        return out.astype(dt)
    N, C, H, W = data.shape
    ps = attrs["position_sensitive"]
    geom = _roi_geometry(xp, attrs, data.shape, rois)
    work = R * C_out * PH * PW * (geom[1].shape[-1] // 2) * (geom[3].shape[-1] // 2)
    if work <= _ROI_EXACT_MAX:
        return xp.ascontiguousarray(
            _roi_align_samples(xp, data, geom, oshape, cdt, ps).astype(dt, copy=False))
    batch, Ay, Ax, count = _roi_matrices(xp, attrs, data.shape, rois, cdt)
    if ps:
        cin = _ps_index(xp, C_out, PH, PW)
        pp = xp.arange(PH)[None, :, None]
    for b, rs in _roi_groups(xp, batch, PH * C * W):
        n = rs.shape[0]
        img = data[b].astype(cdt, copy=False).transpose(1, 0, 2).reshape(H, C * W)
        # V[r, p, c, w] = sum_h Ay[r, p, h] * data[b, c, h, w]
        v = xp.matmul(Ay[rs].reshape(n * PH, H), img).reshape(n, PH, C, W)
        ax = Ax[rs]
        if not ps:
            o = xp.matmul(v.reshape(n, PH * C, W), xp.ascontiguousarray(ax.transpose(0, 2, 1)))
            o = o.reshape(n, PH, C, PW).transpose(0, 2, 1, 3)
        else:
            o = (v[:, pp, cin, :] * ax[:, None, None, :, :]).sum(axis=-1)
        out[rs] = o / count[rs][:, None, None, None]
    return out.astype(dt, copy=False)


def _roi_align_shape(attrs, ins, outs):
    d, r = ins
    if d is None or r is None:
        return ins, outs, []
    return ins, [_roi_out_shape(attrs, d, r)], []


_ROI_PARAMS = (
    Param("pooled_size", "shape", doc="Output bins per region (h, w)."),
    Param("spatial_scale", "float", doc="Feature-map size over image size (1 / total "
                                        "stride)."),
    Param("sample_ratio", "int", -1, doc="Samples per bin side (<= 0: adaptive)."),
    Param("position_sensitive", "bool", False, doc="Position-sensitive pooling (R-FCN)."),
    Param("aligned", "bool", False, doc="Shift regions by half a pixel (Detectron2)."),
)


def _roi_align_grad(F, attrs, inputs, outputs, out_grads):
    g = F._backward_ROIAlign(out_grads[0], inputs[0], inputs[1], **attrs)
    return [g, F.zeros_like(inputs[1])]


register(_ROI_NAME, _roi_align, inputs=("data", "rois"), params=_ROI_PARAMS,
         infer_shape=_roi_align_shape, infer_type=roi_type(_ROI_NAME),
         gradient=_roi_align_grad,
         doc="Bilinear region-of-interest pooling (Mask R-CNN's RoIAlign) of NCHW feature "
             "maps over regions [batch, x1, y1, x2, y2].")


def _backward_roi_align(rc, attrs, ograd, data, rois):
    """The adjoint of the forward: grad[b] += Ay[r]^T @ ograd[r] @ Ax[r] / count[r]."""
    xp = rc.xp
    N, C, H, W = data.shape
    R, C_out, PH, PW = ograd.shape
    cdt = _cdt(data.dtype)
    grad = xp.zeros(data.shape, dtype=cdt)
    if R == 0 or data.size == 0:
        return grad.astype(data.dtype)
    if xp is np:
        geom = _roi_geometry(xp, attrs, data.shape, rois)
        work = R * C_out * PH * PW * (geom[1].shape[-1] // 2) * (geom[3].shape[-1] // 2)
        if work <= _ROI_EXACT_MAX:
            return _roi_align_scatter(data, geom, ograd, cdt, attrs["position_sensitive"]
                                      ).astype(data.dtype, copy=False)
    batch, Ay, Ax, count = _roi_matrices(xp, attrs, data.shape, rois, cdt)
    g = ograd.astype(cdt, copy=False) / count[:, None, None, None]
    ps = attrs["position_sensitive"]
    if ps:
        cin = _ps_index(xp, C_out, PH, PW)
        pp = xp.arange(PH)[None, :, None]
        qq = xp.arange(PW)[None, None, :]
    for b, rs in _roi_groups(xp, batch, PH * C * W):
        n = rs.shape[0]
        gr = g[rs]
        if ps:
            full = xp.zeros((n, C, PH, PW), dtype=cdt)
            full[:, cin, pp, qq] = gr
            gr = full
        # Z[r, p, c, w] = sum_q g[r, c, p, q] * Ax[r, q, w]
        z = xp.matmul(gr.transpose(0, 2, 1, 3).reshape(n, PH * C, PW), Ax[rs])
        # grad[b, c, h, w] += sum_{r, p} Ay[r, p, h] * Z[r, p, c, w]
        t = xp.matmul(Ay[rs].reshape(n * PH, H).T, z.reshape(n * PH, C * W))
        grad[b] += t.reshape(H, C, W).transpose(1, 0, 2)
    return grad.astype(data.dtype, copy=False)


register("_backward_ROIAlign", _backward_roi_align, inputs=("ograd", "data", "rois"),
         params=_ROI_PARAMS, ignored_inputs=lambda attrs: (1,),
         infer_shape=lambda attrs, ins, outs: (ins, [ins[1]], []),
         infer_type=lambda attrs, ins, outs: (ins, [ins[1]], []),
         gradient=lambda F, a, ins, outs, og: [F._contrib_ROIAlign(og[0], ins[2], **a),
                                               F.zeros_like(ins[1]), F.zeros_like(ins[2])],
         doc="Gradient of ROIAlign with respect to the data (data only supplies the shape).")


# =============================================================================================
# MultiBoxPrior


def _prior_check(attrs):
    name = "_contrib_MultiBoxPrior"
    if not attrs["sizes"] or not attrs["ratios"]:
        raise MXNetError(f"{name}: sizes and ratios must not be empty")
    if len(attrs["steps"]) != 2:
        raise MXNetError(f"{name}: steps must be (step_y, step_x); got {attrs['steps']}")
    if len(attrs["offsets"]) != 2 or not all(0 <= o <= 1 for o in attrs["offsets"]):
        raise MXNetError(f"{name}: offsets must be (offset_y, offset_x) in [0, 1]; got "
                         f"{attrs['offsets']}")
    if attrs["steps"][0] * attrs["steps"][1] < 0:
        raise MXNetError(f"{name}: steps {attrs['steps']}: specify both step_y and step_x "
                         f"(or neither)")


def _prior_shape(attrs, d):
    if len(d) < 4 or d[2] <= 0 or d[3] <= 0:
        raise MXNetError(f"_contrib_MultiBoxPrior: data must be 4-D (batch, channel, y, x) "
                         f"with positive height and width; got shape {tuple(d)}")
    return (1, d[2] * d[3] * (len(attrs["sizes"]) + len(attrs["ratios"]) - 1), 4)


def _multibox_prior(rc, attrs, data):
    xp = rc.xp
    name = "_contrib_MultiBoxPrior"
    _require_float(name, data)
    _prior_check(attrs)
    oshape = _prior_shape(attrs, data.shape)
    H, W = data.shape[2], data.shape[3]
    step_y, step_x = (_F32(s) for s in attrs["steps"])
    if step_y <= 0 or step_x <= 0:
        step_y, step_x = _F32(1) / _F32(H), _F32(1) / _F32(W)
    off_y, off_x = (_F32(o) for o in attrs["offsets"])
    sizes = np.asarray(attrs["sizes"], dtype=_F32)
    hf, wf = _F32(H), _F32(W)
    with np.errstate(all="ignore"):   # a ratio <= 0 gives inf / NaN boxes, as in 1.9.1
        ratios = np.sqrt(np.asarray(attrs["ratios"], dtype=_F32))
        # half widths / heights of one cell's anchors: every size at ratios[0], then
        # sizes[0] at each further ratio
        half_w = np.concatenate([sizes * hf / wf * ratios[0] / _F32(2),
                                 sizes[0] * hf / wf * ratios[1:] / _F32(2)])
        half_h = np.concatenate([sizes / ratios[0] / _F32(2), sizes[0] / ratios[1:] / _F32(2)])
    cy = (xp.arange(H, dtype=_F32) + off_y) * step_y
    cx = (xp.arange(W, dtype=_F32) + off_x) * step_x
    hw, hh = xp.asarray(half_w), xp.asarray(half_h)
    cyy = cy[:, None, None]
    cxx = cx[None, :, None]
    A = hw.shape[0]
    box = xp.stack([xp.broadcast_to(cxx - hw, (H, W, A)), xp.broadcast_to(cyy - hh, (H, W, A)),
                    xp.broadcast_to(cxx + hw, (H, W, A)), xp.broadcast_to(cyy + hh, (H, W, A))],
                   axis=-1)
    if attrs["clip"]:
        box = xp.clip(box, _F32(0), _F32(1))
    return box.reshape(oshape).astype(data.dtype)


register("_contrib_MultiBoxPrior", _multibox_prior,
         params=(Param("sizes", "tuple_float", (1.0,), doc="Anchor sizes (fractions of the "
                                                            "image)."),
                 Param("ratios", "tuple_float", (1.0,), doc="Aspect ratios (for sizes[0])."),
                 Param("clip", "bool", False, doc="Clip the boxes to [0, 1]."),
                 Param("steps", "tuple_float", (-1.0, -1.0),
                       doc="Anchor step (y, x); -1 for 1 / feature size."),
                 Param("offsets", "tuple_float", (0.5, 0.5),
                       doc="Anchor centre offsets (y, x) within a cell.")),
         infer_shape=lambda attrs, ins, outs: (
             ins, [None if ins[0] is None else _prior_shape(attrs, ins[0])], []),
         infer_type=float32_only_type("_contrib_MultiBoxPrior"), gradient=_zero_grad,
         doc="SSD prior (anchor) boxes for every cell of a feature map: (1, cells * anchors, "
             "4) corners.")


# =============================================================================================
# MultiBoxTarget


def _pair_iou(xp, a, b):
    """IoU of corner boxes broadcast against each other, 0 where the union is 0."""
    zero = xp.zeros((), dtype=a.dtype)
    w = xp.maximum(zero, xp.minimum(a[..., 2], b[..., 2]) - xp.maximum(a[..., 0], b[..., 0]))
    h = xp.maximum(zero, xp.minimum(a[..., 3], b[..., 3]) - xp.maximum(a[..., 1], b[..., 1]))
    inter = w * h
    union = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1]) + \
        (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1]) - inter
    return inter, union


def _target_shapes(ashape, lshape, pshape):
    name = "_contrib_MultiBoxTarget"
    if len(ashape) != 3 or ashape[0] != 1 or ashape[1] <= 0 or ashape[2] != 4:
        raise MXNetError(f"{name}: anchors must be (1, num_anchors, 4), shared across the "
                         f"batch; got shape {tuple(ashape)}")
    if len(lshape) != 3 or lshape[1] <= 0 or lshape[2] < 5:
        raise MXNetError(f"{name}: labels must be (batch, num_labels, width >= 5); got shape "
                         f"{tuple(lshape)}")
    if len(pshape) != 3 or pshape[2] != ashape[1]:
        raise MXNetError(f"{name}: class predictions must be (batch, num_classes, "
                         f"num_anchors={ashape[1]}); got shape {tuple(pshape)}")
    B, N = lshape[0], ashape[1]
    return [(B, N * 4), (B, N * 4), (B, N)]


def _multibox_target(rc, attrs, anchor, label, cls_pred):
    xp = rc.xp
    name = "_contrib_MultiBoxTarget"
    _require_float(name, anchor, label, cls_pred)
    _target_shapes(anchor.shape, label.shape, cls_pred.shape)
    if len(attrs["variances"]) != 4:
        raise MXNetError(f"{name}: variances must have 4 values; got {attrs['variances']}")
    dt = anchor.dtype
    cdt = _cdt(dt)
    anchors = anchor.reshape(-1, 4).astype(cdt, copy=False)
    lab = label.astype(cdt, copy=False)
    B, L, _ = lab.shape
    N = anchors.shape[0]
    # labels end at the first row whose class is -1
    stop = lab[:, :, 0].astype(_F32) == _F32(-1)
    n_gt = xp.where(stop.any(axis=1), xp.argmax(stop, axis=1), L)
    gt_ok = xp.arange(L)[None, :] < n_gt[:, None]                              # (B, L)
    inter, union = _pair_iou(xp, anchors[None, :, None, :], lab[:, None, :, 1:5])
    iou = xp.where(union == 0, xp.zeros((), dtype=cdt), inter / xp.where(union == 0, 1, union))
    iou = iou.astype(_F32)                                                      # (B, N, L)
    rows = xp.arange(B)
    positive = xp.zeros((B, N), dtype=bool)
    match = xp.zeros((B, N), dtype=np.int64)
    gt_done = ~gt_ok
    # 1) greedy: the best remaining (anchor, object) pair, while its IoU exceeds 1e-6
    active = ~gt_done.all(axis=1)
    while bool(active.any()):
        avail = (~positive)[:, :, None] & (~gt_done)[:, None, :]
        cand = xp.where(avail, iou, _F32(-1)).reshape(B, N * L)
        best = xp.argmax(cand, axis=1)
        take = active & (cand[rows, best] > _F32(1e-6))
        j, k = best // L, best % L
        b = xp.nonzero(take)[0]
        positive[b, j[b]] = True
        match[b, j[b]] = k[b]
        gt_done[b, k[b]] = True
        active = take & ~gt_done.all(axis=1)
    # 2) every other anchor's best object (first of equal IoUs)
    masked = xp.where(gt_ok[:, None, :], iou, _F32(-2))
    best_gt = xp.argmax(masked, axis=2)
    best_iou = xp.take_along_axis(masked, best_gt[:, :, None], axis=2)[:, :, 0]
    has_gt = (n_gt > 0)[:, None]
    if attrs["overlap_threshold"] > 0:
        extra = ~positive & has_gt & (best_iou > _F32(attrs["overlap_threshold"]))
        match = xp.where(extra, best_gt, match)
        positive |= extra
    # 3) negatives
    ratio = attrs["negative_mining_ratio"]
    if ratio > 0:
        negative = _mine_negatives(xp, attrs, cls_pred, positive, best_iou, has_gt)
    else:
        negative = ~positive & has_gt
    # 4) targets
    g = xp.take_along_axis(lab, match[:, :, None], axis=1)                      # (B, N, W)
    loc = _encode_targets(xp, anchors, g[:, :, 1:5], attrs["variances"])
    pos4 = positive[:, :, None]
    loc_target = xp.where(pos4, loc, _F32(0)).reshape(B, N * 4).astype(dt)
    loc_mask = xp.broadcast_to(pos4, (B, N, 4)).reshape(B, N * 4).astype(dt)
    cls_target = xp.where(positive, g[:, :, 0] + cdt.type(1),
                          xp.where(negative, cdt.type(0), cdt.type(np.float32(
                              attrs["ignore_label"])))).astype(dt)
    return loc_target, loc_mask, cls_target


def _mine_negatives(xp, attrs, cls_pred, positive, best_iou, has_gt):
    """The hardest negatives: lowest background probability first, ties by anchor order."""
    name = "_contrib_MultiBoxTarget"
    B, N = positive.shape
    if float(attrs["negative_mining_thresh"]) <= 0:
        raise MXNetError(f"{name}: negative_mining_thresh must be positive with negative "
                         f"mining")
    n_pos = positive.sum(axis=1)
    n_neg = (n_pos.astype(_F32) * _F32(attrs["negative_mining_ratio"])).astype(np.int64)
    n_neg = xp.minimum(n_neg, N - n_pos)
    n_neg = xp.where(has_gt[:, 0], n_neg, 0)
    cand = ~positive & (best_iou < _F32(attrs["negative_mining_thresh"]))
    if bool((cand.sum(axis=1) < n_neg).any()):
        raise MXNetError(f"{name}: not enough negative candidates for negative mining "
                         f"(best IoU below negative_mining_thresh="
                         f"{attrs['negative_mining_thresh']})")
    p = cls_pred.astype(_cdt(cls_pred.dtype), copy=False)
    m = p.max(axis=1, keepdims=True)
    e = xp.exp(p - m)
    bg = (e[:, 0, :] / e.sum(axis=1)).astype(np.float64)                       # (B, N)
    key = xp.where(cand, bg, np.inf)
    order = stable_argsort(xp, key, axis=1)
    rank = xp.argsort(order, axis=1)
    return cand & (rank < n_neg[:, None])


def _encode_targets(xp, anchors, gt, variances):
    """1.9.1's float32 regression targets of anchors (N, 4) towards boxes (B, N, 4)."""
    a = anchors.astype(_F32)
    g = gt.astype(_F32)
    vx, vy, vw, vh = (_F32(v) for v in variances)
    aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
    ax, ay = (a[:, 0] + a[:, 2]) * _F32(0.5), (a[:, 1] + a[:, 3]) * _F32(0.5)
    gw, gh = g[..., 2] - g[..., 0], g[..., 3] - g[..., 1]
    gx, gy = (g[..., 0] + g[..., 2]) * _F32(0.5), (g[..., 1] + g[..., 3]) * _F32(0.5)
    from ..backend.libm32 import logf   # 1.9.1 takes the C library's logf of the ratio
    return xp.stack([(gx - ax) / aw / vx, (gy - ay) / ah / vy,
                     logf(xp, gw / aw) / vw, logf(xp, gh / ah) / vh], axis=-1)


def _target_shape(attrs, ins, outs):
    if any(s is None for s in ins):
        return ins, outs, []
    return ins, _target_shapes(*ins), []


register("_contrib_MultiBoxTarget", _multibox_target, inputs=("anchor", "label", "cls_pred"),
         params=(Param("overlap_threshold", "float", 0.5, doc="IoU above which an anchor is "
                                                              "a positive match."),
                 Param("ignore_label", "float", -1.0, doc="Class target of ignored anchors."),
                 Param("negative_mining_ratio", "float", -1.0,
                       doc="Negatives per positive (-1: every unmatched anchor)."),
                 Param("negative_mining_thresh", "float", 0.5,
                       doc="Only anchors whose best IoU is below this can be mined."),
                 Param("minimum_negative_samples", "int", 0,
                       doc="Minimum number of negatives (unused by 1.9.1's CPU kernel)."),
                 Param("variances", "tuple_float", (0.1, 0.1, 0.2, 0.2),
                       doc="Scales of the encoded box offsets.")),
         num_outputs=3, output_names=("loc_target", "loc_mask", "cls_target"),
         infer_shape=_target_shape, infer_type=float32_only_type("_contrib_MultiBoxTarget"),
         gradient=_zero_grad,
         doc="SSD training targets: box offsets (batch, anchors * 4), their mask and the class "
             "of each anchor (0 background, ignore_label for ignored anchors).")


# =============================================================================================
# MultiBoxDetection


def _detection_shape(cshape, lshape, ashape):
    name = "_contrib_MultiBoxDetection"
    if len(cshape) != 3 or len(lshape) != 2 or len(ashape) != 3:
        raise MXNetError(f"{name}: expected cls_prob (batch, classes, anchors), loc_pred "
                         f"(batch, anchors * 4) and anchor (1, anchors, 4); got "
                         f"{tuple(cshape)}, {tuple(lshape)}, {tuple(ashape)}")
    if cshape[2] != ashape[1] or cshape[2] * 4 != lshape[1] or ashape[1] <= 0 or \
            ashape[2] != 4:
        raise MXNetError(f"{name}: the number of anchors does not agree: cls_prob "
                         f"{tuple(cshape)}, loc_pred {tuple(lshape)}, anchor {tuple(ashape)}")
    return (cshape[0], ashape[1], 6)


def _multibox_detection(rc, attrs, cls_prob, loc_pred, anchor):
    xp = rc.xp
    name = "_contrib_MultiBoxDetection"
    _require_float(name, cls_prob, loc_pred, anchor)
    B, N, _ = _detection_shape(cls_prob.shape, loc_pred.shape, anchor.shape)
    if len(attrs["variances"]) != 4:
        raise MXNetError(f"{name}: variances must have 4 values; got {attrs['variances']}")
    dt = cls_prob.dtype
    cdt = _cdt(dt)
    prob = cls_prob.astype(cdt, copy=False)
    C = prob.shape[1]
    out = xp.full((B, N, 6), -1, dtype=cdt)
    if C < 2:
        return out.astype(dt)
    fg = prob[:, 1:, :]
    cls = xp.argmax(fg, axis=1)                                                 # (B, N)
    score = xp.take_along_axis(fg, cls[:, None, :], axis=1)[:, 0, :]
    valid = (score > cdt.type(-1)) & (score >= cdt.type(np.float32(attrs["threshold"])))
    boxes = _decode(xp, anchor.reshape(-1, 4).astype(cdt, copy=False),
                    loc_pred.reshape(B, N, 4).astype(cdt, copy=False), attrs, cdt)
    rows6 = xp.concatenate([cls.astype(cdt)[:, :, None], score[:, :, None], boxes], axis=-1)
    # valid rows to the front, in anchor order
    n_valid = valid.sum(axis=1)
    order = stable_argsort(xp, ~valid, axis=1)
    packed = xp.take_along_axis(rows6, order[:, :, None], axis=1)
    slot = xp.arange(N)[None, :]
    out = xp.where((slot < n_valid[:, None])[:, :, None], packed, out)
    nms = attrs["nms_threshold"]
    if nms <= 0 or nms > 1 or not bool((n_valid > 0).any()):
        return out.astype(dt)
    # score order among the valid rows (stable), the first nkeep take part in NMS
    key = xp.where(slot < n_valid[:, None], -out[:, :, 1].astype(np.float64), np.inf)
    by_score = stable_argsort(xp, key, axis=1)
    topk = attrs["nms_topk"]
    n_keep = xp.minimum(n_valid, topk) if topk > 0 else n_valid
    in_keep = slot < n_keep[:, None]
    cut = (slot >= n_keep[:, None]) & (slot < n_valid[:, None])
    srt = xp.take_along_axis(out, by_score[:, :, None], axis=1)
    out[:, :, 0] = xp.where(cut, cdt.type(-1), out[:, :, 0])
    out = xp.where(in_keep[:, :, None], srt, out)
    thr = cdt.type(np.float32(nms))
    rows = xp.arange(B)
    K = int(n_keep.max())                      # only the first K rows take part in NMS
    bx = out[:, :K, 2:6]

    def hits_of(ref):
        inter, union = _pair_iou(xp, bx[rows, ref][:, None, :], bx)
        iou = xp.where(union <= 0, cdt.type(0), inter / xp.where(union <= 0, 1, union))
        return iou >= thr

    keep_k = in_keep[:, :K]
    kept = greedy_nms(xp, keep_k, hits_of,
                      None if attrs["force_suppress"] else out[:, :K, 0].copy())
    out[:, :K, 0] = xp.where(keep_k & ~kept, cdt.type(-1), out[:, :K, 0])
    return out.astype(dt)


def _decode(xp, anchors, loc, attrs, cdt):
    """1.9.1's TransformLocations: centre offsets to (clipped) corners, in the data dtype."""
    vx, vy, vw, vh = (cdt.type(np.float32(v)) for v in attrs["variances"])
    al, at, ar, ab = anchors[:, 0], anchors[:, 1], anchors[:, 2], anchors[:, 3]
    aw, ah = ar - al, ab - at
    two = cdt.type(2)
    ax, ay = (al + ar) / two, (at + ab) / two
    ox = loc[..., 0] * vx * aw + ax
    oy = loc[..., 1] * vy * ah + ay
    ow = exp_f32(xp, loc[..., 2] * vw) * aw / two
    oh = exp_f32(xp, loc[..., 3] * vh) * ah / two
    box = xp.stack([ox - ow, oy - oh, ox + ow, oy + oh], axis=-1)
    if attrs["clip"]:
        box = xp.clip(box, cdt.type(0), cdt.type(1))
    return box


register("_contrib_MultiBoxDetection", _multibox_detection,
         inputs=("cls_prob", "loc_pred", "anchor"),
         params=(Param("clip", "bool", True, doc="Clip the boxes to [0, 1]."),
                 Param("threshold", "float", 0.01, doc="Lowest score of a detection."),
                 Param("background_id", "int", 0, doc="Background class (class 0 is always "
                                                      "the background, as in 1.9.1)."),
                 Param("nms_threshold", "float", 0.5, doc="IoU at which NMS suppresses."),
                 Param("force_suppress", "bool", False, doc="Suppress across classes."),
                 Param("variances", "tuple_float", (0.1, 0.1, 0.2, 0.2),
                       doc="Scales of the encoded box offsets."),
                 Param("nms_topk", "int", -1, doc="Detections kept before NMS (-1: all).")),
         infer_shape=lambda attrs, ins, outs: (
             ins, [None if any(s is None for s in ins) else _detection_shape(*ins)], []),
         infer_type=float32_only_type("_contrib_MultiBoxDetection"), gradient=_zero_grad,
         doc="SSD detections (batch, anchors, 6) rows [class, score, xmin, ymin, xmax, ymax]; "
             "rows without a detection are -1.")

