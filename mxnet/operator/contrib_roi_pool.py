"""Region pooling operators of ``mx.nd.contrib`` used by R-FCN style detectors:
PSROIPooling, DeformablePSROIPooling and RROIAlign.

Regions are rows ``[batch index, x1, y1, x2, y2]`` in image coordinates (RROIAlign:
``[batch index, centre x, centre y, width, height, angle in degrees]``) scaled by
``spatial_scale``. Output channel ``o`` of bin ``(ph, pw)`` reads input channel
``(o * G + gh) * G + gw`` with ``(gh, gw) = floor((ph, pw) * G / pooled_size)`` and ``G``
the group size (position-sensitive pooling). As in 1.9.1:

- **PSROIPooling** rounds the region's corners to whole pixels (``x2 + 1`` exclusive, at least
  0.1 wide) and averages the pixels of each bin ``[floor(start), ceil(end))`` clipped to the
  map (an empty bin gives 0). float32 data (NumPy, up to a size) takes 1.9.1's steps: float32
  sums pixel after pixel, and the gradient added to each pixel bin after bin. Otherwise the
  box sums come from a summed-area table, one gather per bin; the gradient spreads each
  bin's gradient over its pixels by the transposed table (four corner deltas and two
  cumulative sums).
- **DeformablePSROIPooling** works on the rounded region shifted by half a pixel. Each bin
  is moved by ``trans * trans_std`` times the region size (``trans`` (rois, 2 * classes,
  part_size, part_size), x then y per class; part ``floor((ph, pw) / pooled * part_size)``)
  and averages ``sample_per_part**2`` bilinear samples at ``start + i * bin /
  sample_per_part``; samples beyond half a pixel outside the map are skipped, the others
  are clamped into it. The trans gradient is 1.9.1's: the bilinear slope at the clamped
  sample, also for samples that were clamped.
- **RROIAlign** rotates ROIAlign's sample grid (``sampling_ratio`` samples per bin side, or
  ``ceil(size / pooled)`` when not positive) by the region's angle about its centre. It has
  no gradient in 1.9.1, so none is registered here either.

Differences from 1.9.1: a region whose batch index lies outside the data raises (1.9.1
reads outside the array); so does data with fewer channels than the pooling reads.
"""
from __future__ import annotations

import math

import numpy as np

from ..base import MXNetError
from ._common import roi_type
from .contrib_box import _cdt, _require_float
from .nn_dense import as_list
from .registry import Param, register

__all__ = []


def _host(a):
    return np.asarray(a.get() if hasattr(a, "get") else a)


def _c_round(xp, x):
    """C's round(): halves away from zero."""
    return xp.sign(x) * xp.floor(xp.abs(x) + x.dtype.type(0.5))


def _roi_chunks(R, per_roi, budget=1 << 22):
    step = max(1, budget // max(per_roi, 1))
    for s in range(0, R, step):
        yield slice(s, min(R, s + step))


def _check_data_rois(opname, dshape, rshape, width=5):
    if len(dshape) != 4:
        raise MXNetError(f"{opname}: data must be 4-D (batch, channel, height, width); got "
                         f"shape {tuple(dshape)}")
    if len(rshape) != 2 or rshape[1] != width:
        raise MXNetError(f"{opname}: rois must be 2-D of shape (num_rois, {width}); got shape "
                         f"{tuple(rshape)}")


def _batch_index(opname, xp, rois, n):
    b = rois[:, 0].astype(np.int64)
    if b.size and bool(((b < 0) | (b >= n)).any()):
        raise MXNetError(f"{opname}: every region's batch index must lie in [0, {n}); got "
                         f"{sorted(set(_host(b).tolist()))}")
    return b


def _group_channels(xp, output_dim, P, G):
    """Input channel (output_dim, P, P) of every output channel and bin."""
    g = np.minimum(np.floor(np.arange(P, dtype=np.float64) * G / P).astype(np.int64), G - 1)
    c = (np.arange(output_dim)[:, None, None] * G + g[None, :, None]) * G + g[None, None, :]
    return xp.asarray(c)


# =============================================================================================
# PSROIPooling

_PS = "_contrib_PSROIPooling"


def _check_scale(name, attrs):
    """1.9.1 bounds spatial_scale to [0, 1] for every region-pooling operator."""
    if not 0 <= attrs["spatial_scale"] <= 1:
        raise MXNetError(f"{name}: spatial_scale={attrs['spatial_scale']} is out of range; "
                         "expected a value in [0, 1] (feature-map size over image size)")


def _ps_group(attrs):
    return attrs["group_size"] if attrs["group_size"] > 0 else attrs["pooled_size"]


def _ps_check(attrs, dshape, rshape):
    _check_data_rois(_PS, dshape, rshape)
    P, G, O = attrs["pooled_size"], _ps_group(attrs), attrs["output_dim"]
    if P <= 0 or O <= 0:
        raise MXNetError(f"{_PS}: pooled_size and output_dim must be positive; got "
                         f"pooled_size={P}, output_dim={O}")
    if dshape[1] < O * G * G:
        raise MXNetError(f"{_PS}: data has {dshape[1]} channels but output_dim * group_size**2"
                         f" = {O} * {G}**2 = {O * G * G} are read")
    return (rshape[0], O, P, P)


def _ps_bins(xp, attrs, data_shape, rois):
    """Per region, output channel and bin: flat index of the table corners and the area."""
    N, C, H, W = data_shape
    P, O = attrs["pooled_size"], attrs["output_dim"]
    dt = _cdt(rois.dtype)
    r = rois.astype(dt, copy=False)
    b = _batch_index(_PS, xp, rois, N)
    _check_scale(_PS, attrs)
    scale = dt.type(np.float32(attrs["spatial_scale"]))
    x1, y1 = _c_round(xp, r[:, 1]) * scale, _c_round(xp, r[:, 2]) * scale
    x2 = (_c_round(xp, r[:, 3]) + dt.type(1)) * scale
    y2 = (_c_round(xp, r[:, 4]) + dt.type(1)) * scale
    rw = xp.maximum(x2 - x1, dt.type(0.1))
    rh = xp.maximum(y2 - y1, dt.type(0.1))
    bw, bh = rw / dt.type(P), rh / dt.type(P)
    p = xp.arange(P, dtype=dt)[None, :]
    hs = xp.clip(xp.floor(p * bh[:, None] + y1[:, None]), 0, H).astype(np.int64)
    he = xp.clip(xp.ceil((p + 1) * bh[:, None] + y1[:, None]), 0, H).astype(np.int64)
    ws = xp.clip(xp.floor(p * bw[:, None] + x1[:, None]), 0, W).astype(np.int64)
    we = xp.clip(xp.ceil((p + 1) * bw[:, None] + x1[:, None]), 0, W).astype(np.int64)
    # (R, O, P, P) index pieces: table plane of (b, c) and the row/column bounds
    c = _group_channels(xp, O, P, _ps_group(attrs))
    plane = (b[:, None, None, None] * C + c[None]) * ((H + 1) * (W + 1))
    hs, he = hs[:, None, :, None], he[:, None, :, None]
    ws, we = ws[:, None, None, :], we[:, None, None, :]
    area = (he - hs) * (we - ws)
    return plane, hs, he, ws, we, area


# 1.9.1 sums a bin's pixels one after another (row-major) in the data's dtype, and its
# gradient adds og / area to the bin's pixels, bin after bin (regions, channels, rows,
# columns). While the bins' pixels number at most this many (counting every bin as large as
# the largest), float32 NumPy data takes those steps; beyond, the summed-area tables below
# (float64: last-bit differences, and cancellation residue where 1.9.1 gives exact zeros).
_PS_EXACT_MAX = 1 << 23


def _ps_exact_sums(data, plane, hs, he, ws, we):
    """Bin sums of float32 ``data`` added pixel after pixel in float32 (None: over the cap)."""
    shape = np.broadcast_shapes(plane.shape, hs.shape, ws.shape)
    bh = int((he - hs).max(initial=0))
    bw = int((we - ws).max(initial=0))
    if int(np.prod(shape)) * max(bh, 1) * max(bw, 1) > _PS_EXACT_MAX:
        return None
    H, W = data.shape[2:]
    # every bin's pixels gathered at once, pixel-major (pixels outside a bin read 0)
    hh = hs[None, None] + np.arange(bh).reshape((bh, 1) + (1,) * hs.ndim)
    ww = ws[None, None] + np.arange(bw).reshape((1, bw) + (1,) * ws.ndim)
    inside = (hh < he[None, None]) & (ww < we[None, None])
    idx = plane[None, None] + np.minimum(hh, H - 1) * W + np.minimum(ww, W - 1)
    vals = np.where(inside, data.reshape(-1)[idx], np.float32(0)).reshape((bh * bw,) + shape)
    acc = np.zeros(shape, np.float32)
    for k in range(bh * bw):
        acc += vals[k]
    return acc


def _ps_exact_scatter(dshape, ograd, plane, hs, he, ws, we, area):
    """PSROIPooling's float32 data gradient in 1.9.1's order (None: over the cap)."""
    shape = np.broadcast_shapes(plane.shape, hs.shape, ws.shape)
    bh = int((he - hs).max(initial=0))
    bw = int((we - ws).max(initial=0))
    if int(np.prod(shape)) * max(bh, 1) * max(bw, 1) > _PS_EXACT_MAX:
        return None
    W = dshape[3]
    g = ograd.astype(np.float32, copy=False) / np.maximum(area, 1).astype(np.float32)
    hh = hs[..., None, None] + np.arange(bh)[:, None]     # (..., Bh, 1)
    ww = ws[..., None, None] + np.arange(bw)[None, :]     # (..., 1, Bw)
    full = shape + (bh, bw)
    inside = np.broadcast_to((hh < he[..., None, None]) & (ww < we[..., None, None])
                             & (area > 0)[..., None, None], full)
    idx = np.broadcast_to(plane[..., None, None] + hh * W + ww, full)[inside]
    vals = np.broadcast_to(g[..., None, None], full)[inside]
    grad = np.zeros(int(np.prod(dshape)), np.float32)
    np.add.at(grad, idx, vals)
    return grad.reshape(dshape)


def _psroi_pool(rc, attrs, data, rois):
    xp = rc.xp
    _require_float(_PS, data, rois)
    oshape = _ps_check(attrs, data.shape, rois.shape)
    N, C, H, W = data.shape
    if oshape[0] == 0:
        return xp.zeros(oshape, dtype=data.dtype)
    if xp is np and data.dtype == np.float32:
        plane, hs, he, ws, we, area = _ps_bins(xp, attrs, data.shape, rois)
        plane = plane // ((H + 1) * (W + 1)) * (H * W)
        s = _ps_exact_sums(data, plane, hs, he, ws, we)
        if s is not None:
            out = np.where(area > 0, s / np.maximum(area, 1).astype(np.float32), np.float32(0))
            return np.ascontiguousarray(out, dtype=np.float32)
    table = xp.zeros((N, C, H + 1, W + 1), dtype=np.float64)
    table[:, :, 1:, 1:] = data.astype(np.float64).cumsum(axis=2).cumsum(axis=3)
    flat = table.reshape(-1)
    plane, hs, he, ws, we, area = _ps_bins(xp, attrs, data.shape, rois)
    W1 = W + 1
    s = (flat[plane + he * W1 + we] - flat[plane + hs * W1 + we]
         - flat[plane + he * W1 + ws] + flat[plane + hs * W1 + ws])
    out = xp.where(area > 0, s / xp.maximum(area, 1), 0.0)
    return out.astype(data.dtype)


def _backward_psroi_pool(rc, attrs, ograd, data, rois):
    """Each bin's gradient / area over its pixels: +-g at the four corners of a (H+1, W+1)
    difference table, then cumulative sums along both axes."""
    xp = rc.xp
    N, C, H, W = data.shape
    if rois.shape[0] == 0:
        return xp.zeros(data.shape, dtype=data.dtype), xp.zeros_like(rois)
    plane, hs, he, ws, we, area = _ps_bins(xp, attrs, data.shape, rois)
    if xp is np and data.dtype == np.float32:
        grad = _ps_exact_scatter(data.shape, ograd, plane // ((H + 1) * (W + 1)) * (H * W),
                                 hs, he, ws, we, area)
        if grad is not None:
            return grad, xp.zeros_like(rois)
    g = xp.where(area > 0, ograd.astype(np.float64) / xp.maximum(area, 1), 0.0)
    W1 = W + 1
    idx = xp.concatenate([xp.broadcast_to(plane + hh * W1 + ww, g.shape).ravel()
                          for hh, ww in ((hs, ws), (hs, we), (he, ws), (he, we))])
    wts = xp.concatenate([g.ravel(), -g.ravel(), -g.ravel(), g.ravel()])
    diff = xp.bincount(idx, weights=wts, minlength=N * C * (H + 1) * W1)
    grad = diff.reshape(N, C, H + 1, W1).cumsum(axis=2).cumsum(axis=3)[:, :, :H, :W]
    return grad.astype(data.dtype), xp.zeros_like(rois)


def _psroi_shape(attrs, ins, outs):
    d, r = ins
    if d is None or r is None:
        return ins, outs, []
    return ins, [_ps_check(attrs, d, r)], []


def _same_type(opname):
    def infer(attrs, ins, outs):
        t = ins[0] if ins[0] is not None else next((x for x in ins if x is not None), None)
        if t is None:
            return ins, outs, []
        if np.dtype(t) not in (np.float16, np.float32, np.float64):
            raise MXNetError(f"{opname}: dtype {np.dtype(t)} is not supported; expected "
                             f"float16, float32 or float64")
        return [t if x is None else x for x in ins], [t] * len(outs), []
    return infer


_PS_PARAMS = (
    Param("spatial_scale", "float", doc="Feature-map size over image size."),
    Param("output_dim", "int", doc="Output channels."),
    Param("pooled_size", "int", doc="Bins per side."),
    Param("group_size", "int", 0, doc="Position-sensitive groups per side (0: pooled_size)."),
)

register(_PS, _psroi_pool, inputs=("data", "rois"), params=_PS_PARAMS,
         infer_shape=_psroi_shape, infer_type=_same_type(_PS),
         gradient=lambda F, a, ins, outs, og: as_list(
             F._backward_PSROIPooling(og[0], ins[0], ins[1], **a), 2),
         doc="Position-sensitive region-of-interest average pooling (R-FCN) of NCHW feature "
             "maps over regions [batch, x1, y1, x2, y2].")
register("_backward_PSROIPooling", _backward_psroi_pool, inputs=("ograd", "data", "rois"),
         params=_PS_PARAMS, num_outputs=2, ignored_inputs=lambda attrs: (1,),
         infer_shape=lambda attrs, ins, outs: (ins, [ins[1], ins[2]], []),
         infer_type=lambda attrs, ins, outs: (ins, [ins[1], ins[2]], []),
         gradient=lambda F, a, ins, outs, og: [F._contrib_PSROIPooling(og[0], ins[2], **a),
                                               F.zeros_like(ins[1]), F.zeros_like(ins[2])],
         doc="Gradients of PSROIPooling: data (data only supplies the shape) and zeros for "
             "the regions.")


# =============================================================================================
# DeformablePSROIPooling

_DPS = "_contrib_DeformablePSROIPooling"


def _dps_inputs(attrs):
    return ("data", "rois") if attrs["no_trans"] else ("data", "rois", "trans")


def _dps_part(attrs):
    return attrs["part_size"] if attrs["part_size"] > 0 else attrs["pooled_size"]


def _dps_check(attrs, dshape, rshape, tshape):
    _check_data_rois(_DPS, dshape, rshape)
    P, G, O = attrs["pooled_size"], attrs["group_size"], attrs["output_dim"]
    if P <= 0 or G <= 0 or O <= 0 or attrs["sample_per_part"] <= 0:
        raise MXNetError(f"{_DPS}: pooled_size, group_size, output_dim and sample_per_part "
                         f"must be positive; got {P}, {G}, {O}, {attrs['sample_per_part']}")
    if dshape[1] < O * G * G:
        raise MXNetError(f"{_DPS}: data has {dshape[1]} channels but output_dim * "
                         f"group_size**2 = {O * G * G} are read")
    if not attrs["no_trans"] and tshape is not None:
        part = _dps_part(attrs)
        if len(tshape) != 4 or tshape[1] < 2 or tshape[1] % 2 or tshape[0] < rshape[0] or \
                tuple(tshape[2:]) != (part, part):
            raise MXNetError(f"{_DPS}: trans must be 4-D (num_rois={rshape[0]}, 2 * "
                             f"num_classes, part_size={part}, part_size={part}); got shape "
                             f"{tuple(tshape)}")
        if O % (tshape[1] // 2):
            raise MXNetError(f"{_DPS}: output_dim {O} must be a multiple of the number of "
                             f"classes in trans ({tshape[1] // 2}, trans shape "
                             f"{tuple(tshape)})")
    return (rshape[0], O, P, P)


class _Samples:
    """Bilinear samples of a chunk of regions, (r, O, P, P, S, S) each."""
    __slots__ = ("flat", "valid", "count", "x0", "x1", "y0", "y1", "dx", "dy", "rw", "rh",
                 "tidx")


def _dps_samples(xp, attrs, data_shape, rois, trans, sl, b):
    N, C, H, W = data_shape
    P, O, G = attrs["pooled_size"], attrs["output_dim"], attrs["group_size"]
    S = attrs["sample_per_part"]
    part = _dps_part(attrs)
    dt = _cdt(rois.dtype)
    r = rois[sl].astype(dt, copy=False)
    R = r.shape[0]
    _check_scale(_DPS, attrs)
    scale = dt.type(np.float32(attrs["spatial_scale"]))
    half = dt.type(0.5)
    x1 = _c_round(xp, r[:, 1]) * scale - half
    y1 = _c_round(xp, r[:, 2]) * scale - half
    x2 = (_c_round(xp, r[:, 3]) + dt.type(1)) * scale - half
    y2 = (_c_round(xp, r[:, 4]) + dt.type(1)) * scale - half
    rw = xp.maximum(x2 - x1, dt.type(0.1))
    rh = xp.maximum(y2 - y1, dt.type(0.1))
    bw, bh = rw / dt.type(P), rh / dt.type(P)
    sbw, sbh = bw / dt.type(S), bh / dt.type(S)
    p = xp.arange(P, dtype=dt)
    part_i = xp.floor(p / dt.type(P) * dt.type(part)).astype(np.int64)        # (P,)
    o = xp.arange(O)
    if attrs["no_trans"]:
        tx = xp.zeros((R, O, P, P), dtype=dt)
        ty = tx
        tidx = None
    else:
        ncls = trans.shape[1] // 2
        cls = o // (O // ncls)
        rr = xp.arange(sl.start, sl.stop)[:, None, None, None]
        base = ((rr * ncls + cls[None, :, None, None]) * 2) * part
        tidx = (base + part_i[None, None, :, None]) * part + part_i[None, None, None, :]
        tflat = trans.astype(dt, copy=False).reshape(-1)
        std = dt.type(np.float32(attrs["trans_std"]))
        tx = tflat[tidx] * std
        ty = tflat[tidx + part * part] * std
    ws = p[None, None, None, :] * bw[:, None, None, None] + x1[:, None, None, None]
    ws = ws + tx * rw[:, None, None, None]
    hs = p[None, None, :, None] * bh[:, None, None, None] + y1[:, None, None, None]
    hs = hs + ty * rh[:, None, None, None]
    i = xp.arange(S, dtype=dt)
    w = ws[..., None, None] + i[None, :] * sbw[:, None, None, None, None, None]
    h = hs[..., None, None] + i[:, None] * sbh[:, None, None, None, None, None]
    valid = (w >= -half) & (w <= dt.type(W) - half) & (h >= -half) & (h <= dt.type(H) - half)
    w = xp.clip(w, dt.type(0), dt.type(W - 1))
    h = xp.clip(h, dt.type(0), dt.type(H - 1))
    s = _Samples()
    s.x0, s.x1 = xp.floor(w).astype(np.int64), xp.ceil(w).astype(np.int64)
    s.y0, s.y1 = xp.floor(h).astype(np.int64), xp.ceil(h).astype(np.int64)
    s.dx, s.dy = w - s.x0.astype(dt), h - s.y0.astype(dt)
    c = _group_channels(xp, O, P, G)
    s.flat = ((b[sl][:, None, None, None] * C + c[None]) * (H * W))[..., None, None]
    s.valid = valid
    s.count = valid.sum(axis=(-1, -2))
    s.rw, s.rh, s.tidx = rw, rh, tidx
    return s


def _corners(s):
    """(row, column, weight) of the four bilinear neighbours."""
    one = s.dx.dtype.type(1)
    return ((s.y0, s.x0, (one - s.dx) * (one - s.dy)), (s.y1, s.x0, (one - s.dx) * s.dy),
            (s.y0, s.x1, s.dx * (one - s.dy)), (s.y1, s.x1, s.dx * s.dy))


def _dps_pool(rc, attrs, data, rois, trans=None):
    xp = rc.xp
    _require_float(_DPS, data, rois, *(() if trans is None else (trans,)))
    oshape = _dps_check(attrs, data.shape, rois.shape, None if trans is None else trans.shape)
    N, C, H, W = data.shape
    R, O, P, _ = oshape
    out = xp.zeros(oshape, dtype=_cdt(data.dtype))
    count = xp.zeros(oshape, dtype=data.dtype)   # the hidden top_count 1.9.1 keeps
    if R == 0:
        return out.astype(data.dtype), count
    b = _batch_index(_DPS, xp, rois, N)
    flat = data.astype(_cdt(data.dtype), copy=False).reshape(-1)
    S = attrs["sample_per_part"]
    for sl in _roi_chunks(R, O * P * P * S * S * 8):
        s = _dps_samples(xp, attrs, data.shape, rois, trans, sl, b)
        acc = 0
        for y, x, wt in _corners(s):
            acc = acc + wt * flat[s.flat + y * W + x]
        acc = xp.where(s.valid, acc, 0).sum(axis=(-1, -2))
        out[sl] = xp.where(s.count > 0, acc / xp.maximum(s.count, 1).astype(out.dtype), 0)
        count[sl] = s.count
    return out.astype(data.dtype), count


def _backward_dps_pool(rc, attrs, ograd, data, rois, trans=None):
    xp = rc.xp
    N, C, H, W = data.shape
    R = rois.shape[0]
    cdt = _cdt(data.dtype)
    gdata = xp.zeros(N * C * H * W, dtype=np.float64)
    gtrans = None if trans is None else xp.zeros(trans.size, dtype=np.float64)
    if R:
        b = _batch_index(_DPS, xp, rois, N)
        flat = data.astype(cdt, copy=False).reshape(-1)
        O, P, S = attrs["output_dim"], attrs["pooled_size"], attrs["sample_per_part"]
        part = _dps_part(attrs)
        std = cdt.type(np.float32(attrs["trans_std"]))
        for sl in _roi_chunks(R, O * P * P * S * S * 8):
            s = _dps_samples(xp, attrs, data.shape, rois, trans, sl, b)
            g = ograd[sl].astype(cdt, copy=False)
            diff = xp.where(s.count > 0, g / xp.maximum(s.count, 1).astype(cdt), 0)
            diff = xp.where(s.valid, diff[..., None, None], 0)
            for y, x, wt in _corners(s):
                gdata += xp.bincount((s.flat + y * W + x).ravel(),
                                     weights=(wt * diff).astype(np.float64).ravel(),
                                     minlength=gdata.size)
            if gtrans is None:
                continue
            one = cdt.type(1)
            u00 = flat[s.flat + s.y0 * W + s.x0]
            u01 = flat[s.flat + s.y1 * W + s.x0]
            u10 = flat[s.flat + s.y0 * W + s.x1]
            u11 = flat[s.flat + s.y1 * W + s.x1]
            gx = (u11 * s.dy + u10 * (one - s.dy) - u01 * s.dy - u00 * (one - s.dy))
            gy = (u11 * s.dx + u01 * (one - s.dx) - u10 * s.dx - u00 * (one - s.dx))
            gx = (gx * std * diff).sum(axis=(-1, -2)) * s.rw[:, None, None, None]
            gy = (gy * std * diff).sum(axis=(-1, -2)) * s.rh[:, None, None, None]
            gtrans += xp.bincount(s.tidx.ravel(), weights=gx.astype(np.float64).ravel(),
                                  minlength=gtrans.size)
            gtrans += xp.bincount((s.tidx + part * part).ravel(),
                                  weights=gy.astype(np.float64).ravel(),
                                  minlength=gtrans.size)
    grads = [gdata.reshape(data.shape).astype(data.dtype), xp.zeros_like(rois)]
    if trans is not None:
        grads.append(gtrans.reshape(trans.shape).astype(trans.dtype))
    return tuple(grads)


def _dps_shape(attrs, ins, outs):
    d, r = ins[0], ins[1]
    t = None if attrs["no_trans"] else ins[2]
    if d is None or r is None:
        return ins, outs, []
    o = _dps_check(attrs, d, r, t)
    return ins, [o, o], []


_DPS_PARAMS = (
    Param("spatial_scale", "float", doc="Feature-map size over image size."),
    Param("output_dim", "int", doc="Output channels."),
    Param("group_size", "int", doc="Position-sensitive groups per side."),
    Param("pooled_size", "int", doc="Bins per side."),
    Param("part_size", "int", 0, doc="Offset parts per side (0: pooled_size)."),
    Param("sample_per_part", "int", 1, doc="Samples per bin side."),
    Param("trans_std", "float", 0.0, doc="Scale of the offsets in trans."),
    Param("no_trans", "bool", False, doc="No offsets (and no trans input)."),
)


def _dps_grad(F, attrs, ins, outs, og):
    return as_list(F._backward_DeformablePSROIPooling(og[0], *ins, **attrs), len(ins))


register(_DPS, _dps_pool, inputs=_dps_inputs, params=_DPS_PARAMS, num_outputs=2,
         num_visible_outputs=1, infer_shape=_dps_shape, infer_type=_same_type(_DPS),
         gradient=_dps_grad,
         doc="Deformable position-sensitive region-of-interest pooling: bins shifted by "
             "learned offsets (trans), each averaging bilinear samples.")
register("_backward_DeformablePSROIPooling", _backward_dps_pool,
         inputs=lambda a: ("ograd",) + _dps_inputs(a), params=_DPS_PARAMS,
         num_outputs=lambda a: 2 if a["no_trans"] else 3,
         infer_shape=lambda attrs, ins, outs: (ins, list(ins[1:]), []),
         infer_type=lambda attrs, ins, outs: (ins, list(ins[1:]), []),
         doc="Gradients of DeformablePSROIPooling: data, zeros for the regions, and trans.")


# =============================================================================================
# RROIAlign

_RR = "_contrib_RROIAlign"


def _rr_check(attrs, dshape, rshape):
    _check_data_rois(_RR, dshape, rshape, width=6)
    ps = attrs["pooled_size"]
    if len(ps) != 2 or ps[0] <= 0 or ps[1] <= 0:
        raise MXNetError(f"{_RR}: pooled_size must be two positive sizes (h, w); got {ps}")
    return (rshape[0], dshape[1], ps[0], ps[1])


def _rroi_align(rc, attrs, data, rois):
    xp = rc.xp
    _require_float(_RR, data, rois)
    if data.dtype != rois.dtype:
        raise MXNetError(f"{_RR}: data and rois must share one dtype; got {data.dtype} and "
                         f"{rois.dtype}")
    oshape = _rr_check(attrs, data.shape, rois.shape)
    R, C, PH, PW = oshape
    N, _, H, W = data.shape
    dt = _cdt(data.dtype)
    out = xp.zeros(oshape, dtype=dt)
    if R == 0:
        return out.astype(data.dtype)
    b = _batch_index(_RR, xp, rois, N)
    r = rois.astype(dt, copy=False)
    _check_scale(_RR, attrs)
    scale = dt.type(np.float32(attrs["spatial_scale"]))
    cx, cy = r[:, 1] * scale, r[:, 2] * scale
    rw = xp.maximum(r[:, 3] * scale, dt.type(1))
    rh = xp.maximum(r[:, 4] * scale, dt.type(1))
    theta = (r[:, 5].astype(np.float64) * math.pi / 180.0).astype(dt)
    cos, sin = xp.cos(theta), xp.sin(theta)
    bh, bw = rh / dt.type(PH), rw / dt.type(PW)
    sr = attrs["sampling_ratio"]
    if sr > 0:
        gh = xp.full(R, sr, dtype=np.int64)
        gw = gh
    else:
        gh = xp.ceil(rh / dt.type(PH)).astype(np.int64)
        gw = xp.ceil(rw / dt.type(PW)).astype(np.int64)
    flat = data.astype(dt, copy=False).reshape(N, C, H * W)
    Gh, Gw = int(gh.max()), int(gw.max())
    for sl in _roi_chunks(R, C * PH * PW * Gh * Gw * 4):
        def col(a, sl=sl):
            return a[sl][:, None, None, None, None]
        ph = xp.arange(PH, dtype=dt)[None, :, None, None, None]
        pw = xp.arange(PW, dtype=dt)[None, None, :, None, None]
        iy = xp.arange(Gh, dtype=dt)[None, None, None, :, None]
        ix = xp.arange(Gw, dtype=dt)[None, None, None, None, :]
        half = dt.type(0.5)
        yy = -col(rh) / dt.type(2) + ph * col(bh) + (iy + half) * col(bh) / col(gh).astype(dt)
        xx = -col(rw) / dt.type(2) + pw * col(bw) + (ix + half) * col(bw) / col(gw).astype(dt)
        x = xx * col(cos) + yy * col(sin) + col(cx)
        y = yy * col(cos) - xx * col(sin) + col(cy)
        ok = ((iy < col(gh)) & (ix < col(gw)) & (y >= -1) & (y <= H) & (x >= -1) & (x <= W))
        y, x = xp.maximum(y, dt.type(0)), xp.maximum(x, dt.type(0))
        y0, x0 = y.astype(np.int64), x.astype(np.int64)
        ytop, xtop = y0 >= H - 1, x0 >= W - 1
        y0 = xp.where(ytop, H - 1, y0)
        x0 = xp.where(xtop, W - 1, x0)
        y1 = xp.where(ytop, H - 1, y0 + 1)
        x1 = xp.where(xtop, W - 1, x0 + 1)
        ly = xp.where(ytop, dt.type(0), y - y0.astype(dt))
        lx = xp.where(xtop, dt.type(0), x - x0.astype(dt))
        hy, hx = dt.type(1) - ly, dt.type(1) - lx
        n = y.shape[0]
        imgs = flat[b[sl]]                                                   # (n, C, H*W)
        acc = 0
        for yi, xi, wt in ((y0, x0, hy * hx), (y0, x1, hy * lx), (y1, x0, ly * hx),
                           (y1, x1, ly * lx)):
            idx = (yi * W + xi).reshape(n, 1, -1)
            v = xp.take_along_axis(imgs, xp.broadcast_to(idx, (n, C, idx.shape[-1])), axis=2)
            acc = acc + v * xp.where(ok, wt, dt.type(0)).reshape(n, 1, -1)
        acc = acc.reshape(n, C, PH, PW, Gh * Gw).sum(axis=-1)
        out[sl] = acc / (gh[sl] * gw[sl]).astype(dt)[:, None, None, None]
    return out.astype(data.dtype)


register(_RR, _rroi_align, inputs=("data", "rois"),
         params=(Param("pooled_size", "shape", doc="Output bins per region (h, w)."),
                 Param("spatial_scale", "float", doc="Feature-map size over image size."),
                 Param("sampling_ratio", "int", -1,
                       doc="Samples per bin side (<= 0: adaptive).")),
         infer_shape=lambda attrs, ins, outs: (
             ins, [None if ins[0] is None or ins[1] is None
                   else _rr_check(attrs, ins[0], ins[1])], []),
         infer_type=roi_type(_RR),
         doc="Rotated ROIAlign: bilinear pooling of NCHW feature maps over rotated regions "
             "[batch, centre x, centre y, width, height, angle (degrees)]; no gradient.")
