"""Spatial operators: UpSampling, Crop, ROIPooling, GridGenerator, BilinearSampler and
SpatialTransformer, each with a dedicated backward operator.

What 1.9.1 does, reproduced here:

- **UpSampling, nearest.** Every input is repeated up to the first input's size times ``scale``
  (so later inputs may have other sizes, as long as they divide it); the results are
  concatenated along the channels (``multi_input_mode='concat'``) or summed.
- **UpSampling, bilinear.** This is a depthwise transposed convolution: inputs ``data`` and
  ``weight`` of shape (C, 1, k, k) with k = 2*scale - scale % 2, stride ``scale`` and pad
  ceil((scale - 1) / 2), so the output is exactly ``scale`` times larger. The weight is an
  ordinary input (initialised with ``mx.init.Bilinear`` in practice) and gets a gradient.
  ``num_filter`` must equal the channel count (1.9.1 crashes otherwise; here it raises).
- **Crop.** With a second input, the output takes its height and width; otherwise ``h_w``.
  ``center_crop`` puts the window at ((H - h) // 2, (W - w) // 2), else at ``offset``.
- **ROIPooling.** Max pooling over a grid of bins in each region [batch, x1, y1, x2, y2]:
  corners are scaled and rounded half away from zero, the region is at least 1x1, bin ``i``
  spans [floor(i * size / pooled), ceil((i + 1) * size / pooled)) clipped to the map. Empty
  bins and regions whose batch index is out of range give 0. Ties go to the first position in
  row-major order. The second (hidden) output holds that position (h * W + w, or -1) in the
  data's dtype; the gradient with respect to ``rois`` is zero.
- **GridGenerator.** ``affine``: the (N, 6) matrices map the target grid, x and y running
  from -1 to 1 (the y row of the output second), to source coordinates. ``warp``: the flow
  (N, 2, H, W) is added to the pixel grid and normalised to [-1, 1].
- **BilinearSampler.** Source coordinate (x + 1) * (W - 1) / 2, four neighbours weighted
  bilinearly, neighbours outside the map read as 0. The gradient with respect to the grid is
  the derivative of that interpolation (one-sided at integer positions, as in 1.9.1).
- **SpatialTransformer.** GridGenerator (affine, ``target_shape``) then BilinearSampler.

Relaxations: 1.9.1 accepts only float32 for Crop and GridGenerator and rejects float16 in
SpatialTransformer; here float16, float32 and float64 all work (float16 computes in float32),
so that gradients can be checked in float64.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from ._common import errstate, roi_type
from .nn_pool import check_float, uniform_float_type
from .registry import Param, register

__all__ = []


def _cdt(dt):
    return np.dtype(np.float32) if dt == np.float16 else np.dtype(dt)


def _need_ndim(opname, name, a, n, what):
    if a.ndim != n:
        raise MXNetError(f"{opname}: {name} must be {n}-D {what}; got shape {tuple(a.shape)}")




# =============================================================================================
# UpSampling


def _up_kernel(scale):
    return 2 * scale - scale % 2


def _up_inputs(attrs):
    if attrs["sample_type"] == "bilinear":
        return ["data", "weight"]
    return [f"arg{i}" for i in range(attrs["num_args"])]


def _up_check(opname, attrs):
    if attrs["scale"] < 1:
        raise MXNetError(f"{opname}: scale={attrs['scale']} must be at least 1")
    if attrs["num_args"] < 1:
        raise MXNetError(f"{opname}: num_args={attrs['num_args']} must be at least 1")


def _nearest_plan(opname, attrs, shapes):
    """Per-input repeat factors and the output shape of nearest upsampling."""
    for i, s in enumerate(shapes):
        if len(s) != 4:
            raise MXNetError(f"{opname}: input {i} must be 4-D (batch, channel, y, x); got "
                             f"shape {tuple(s)}")
    scale = attrs["scale"]
    oh, ow = shapes[0][2] * scale, shapes[0][3] * scale
    factors = []
    for i, s in enumerate(shapes):
        if s[2] == 0 or oh % s[2] or ow % s[3] or ow // s[3] != oh // s[2]:
            raise MXNetError(f"{opname}: input {i} of shape {tuple(s)} cannot be repeated to the "
                             f"output size ({oh}, {ow}) (first input times scale={scale})")
        if s[0] != shapes[0][0]:
            raise MXNetError(f"{opname}: input {i} has batch size {s[0]} but input 0 has "
                             f"{shapes[0][0]}")
        factors.append(oh // s[2])
    if attrs["multi_input_mode"] == "sum":
        for i, s in enumerate(shapes):
            if s[1] != shapes[0][1]:
                raise MXNetError(f"{opname}: multi_input_mode='sum' needs equal channel counts; "
                                 f"input {i} has {s[1]}, input 0 has {shapes[0][1]}")
        channels = shapes[0][1]
    else:
        channels = sum(s[1] for s in shapes)
    return factors, (shapes[0][0], channels, oh, ow)


def _bilinear_check(opname, attrs, dshape, wshape):
    if len(dshape) != 4:
        raise MXNetError(f"{opname}: data must be 4-D (batch, channel, y, x); got shape "
                         f"{tuple(dshape)}")
    k = _up_kernel(attrs["scale"])
    want = (dshape[1], 1, k, k)
    if wshape is not None and tuple(wshape) != want:
        raise MXNetError(f"{opname}: weight has shape {tuple(wshape)} but {want} is expected "
                         f"for data {tuple(dshape)} and scale={attrs['scale']}")
    if attrs["num_filter"] != dshape[1]:
        raise MXNetError(f"{opname}: bilinear upsampling needs num_filter equal to the number of "
                         f"channels ({dshape[1]}), got num_filter={attrs['num_filter']}")
    return want


def _repeat(xp, x, f):
    n, c, h, w = x.shape
    return xp.broadcast_to(x[:, :, :, None, :, None], (n, c, h, f, w, f)).reshape(n, c, h * f, w * f)


def _tap_slices(scale, k, h, w):
    """(a, b, slices) for each tap of a stride-``scale`` k x k transposed convolution."""
    for a in range(k):
        for b in range(k):
            yield a, b, (slice(None), slice(None), slice(a, a + scale * (h - 1) + 1, scale),
                         slice(b, b + scale * (w - 1) + 1, scale))


def _deconv_depthwise(xp, x, w, scale):
    """Depthwise transposed convolution of UpSampling(bilinear), cropped to scale x the input."""
    n, c, h, wd = x.shape
    k = _up_kernel(scale)
    pad = scale // 2
    canvas = xp.zeros((n, c, (h - 1) * scale + k, (wd - 1) * scale + k), dtype=x.dtype)
    for a, b, sl in _tap_slices(scale, k, h, wd):
        canvas[sl] += x * w[:, 0, a, b][None, :, None, None]
    return xp.ascontiguousarray(canvas[:, :, pad:pad + h * scale, pad:pad + wd * scale])


def _upsampling(rc, attrs, *xs):
    xp = rc.xp
    if attrs["sample_type"] == "bilinear":
        data, weight = xs
        dt = check_float("UpSampling", ["data", "weight"], [data, weight])
        _bilinear_check("UpSampling", attrs, data.shape, weight.shape)
        cdt = _cdt(dt)
        out = _deconv_depthwise(xp, data.astype(cdt, copy=False), weight.astype(cdt, copy=False),
                                attrs["scale"])
        return out.astype(dt, copy=False)
    check_float("UpSampling", _up_inputs(attrs), list(xs))
    factors, _ = _nearest_plan("UpSampling", attrs, [x.shape for x in xs])
    ups = [_repeat(xp, x, f) for x, f in zip(xs, factors)]
    if len(ups) == 1:
        return xp.ascontiguousarray(ups[0])
    if attrs["multi_input_mode"] == "sum":
        out = ups[0].copy()
        for u in ups[1:]:
            out += u
        return out
    return xp.concatenate(ups, axis=1)


def _backward_upsampling(rc, attrs, ograd, *xs):
    xp = rc.xp
    scale = attrs["scale"]
    if attrs["sample_type"] == "bilinear":
        data, weight = xs
        dt = check_float("_backward_UpSampling", ["data", "weight"], [data, weight])
        _bilinear_check("_backward_UpSampling", attrs, data.shape, weight.shape)
        cdt = _cdt(dt)
        n, c, h, wd = data.shape
        k = _up_kernel(scale)
        pad = scale // 2
        full = xp.zeros((n, c, (h - 1) * scale + k, (wd - 1) * scale + k), dtype=cdt)
        full[:, :, pad:pad + h * scale, pad:pad + wd * scale] = ograd
        x = data.astype(cdt, copy=False)
        w = weight.astype(cdt, copy=False)
        gx = xp.zeros(x.shape, dtype=cdt)
        gw = []
        for a, b, sl in _tap_slices(scale, k, h, wd):
            part = full[sl]
            gx += part * w[:, 0, a, b][None, :, None, None]
            gw.append((part * x).sum(axis=(0, 2, 3)))
        gw = xp.stack(gw, axis=1).reshape(c, 1, k, k)
        return gx.astype(dt, copy=False), gw.astype(dt, copy=False)
    factors, oshape = _nearest_plan("_backward_UpSampling", attrs, [x.shape for x in xs])
    if tuple(ograd.shape) != oshape:
        raise MXNetError(f"_backward_UpSampling: ograd has shape {tuple(ograd.shape)}, expected "
                         f"{oshape}")
    grads = []
    c0 = 0
    for x, f in zip(xs, factors):
        n, c, h, w = x.shape
        if attrs["multi_input_mode"] == "sum":
            part = ograd
        else:
            part = ograd[:, c0:c0 + c]
            c0 += c
        # 1.9.1 adds each block's f * f gradients to 0 in turn, row-major
        blk = part.reshape(n, c, h, f, w, f)
        acc = xp.zeros((n, c, h, w), dtype=blk.dtype)
        for i in range(f):
            for j in range(f):
                acc += blk[:, :, :, i, :, j]
        grads.append(acc.astype(x.dtype, copy=False))
    return grads[0] if len(grads) == 1 else tuple(grads)


def _upsampling_shape(attrs, ins, outs):
    if attrs["sample_type"] == "bilinear":
        d = ins[0]
        if d is None or None in d:
            return ins, outs, []
        k = _up_kernel(attrs["scale"])
        w = (d[1], 1, k, k)
        if ins[1] is not None and tuple(ins[1]) != w:
            raise MXNetError(f"UpSampling: weight has shape {tuple(ins[1])} but {w} is expected "
                             f"for data {tuple(d)}")
        return [d, w], [(d[0], d[1], d[2] * attrs["scale"], d[3] * attrs["scale"])], []
    if any(s is None or None in s for s in ins):
        return ins, outs, []
    _, oshape = _nearest_plan("UpSampling", attrs, ins)
    return ins, [oshape], []


def _upsampling_grad(F, attrs, ins, outs, og):
    g = F._backward_UpSampling(og[0], *ins, **attrs)
    return list(g) if isinstance(g, (list, tuple)) else [g]


_UP_PARAMS = (
    Param("scale", "int", doc="Upsampling factor."),
    Param("num_filter", "int", 0, doc="bilinear: the number of channels."),
    Param("sample_type", "str", choices=("bilinear", "nearest"), doc="Interpolation method."),
    Param("multi_input_mode", "str", "concat", choices=("concat", "sum"),
          doc="nearest with several inputs: concatenate along channels or add."),
    Param("num_args", "int", doc="Number of inputs (set from the positional inputs)."),
    Param("workspace", "int", 512, doc="Accepted for compatibility; no effect."),
)

register("UpSampling", _upsampling, params=_UP_PARAMS, inputs=_up_inputs, variadic="num_args",
         attr_check=_up_check, infer_shape=_upsampling_shape, infer_type=uniform_float_type("UpSampling"),
         gradient=_upsampling_grad,
         doc="Upsample 4-D feature maps by an integer scale (nearest repeat or bilinear kernel).")

register("_backward_UpSampling", _backward_upsampling, params=_UP_PARAMS,
         inputs=lambda a: ["ograd"] + _up_inputs(a), attr_check=_up_check, nd_hidden=True,
         num_outputs=lambda a: 2 if a["sample_type"] == "bilinear" else a["num_args"],
         infer_shape=lambda a, i, o: (i, list(i[1:]), []),
         infer_type=uniform_float_type("_backward_UpSampling"),
         doc="Gradients of UpSampling with respect to each of its inputs.")


# =============================================================================================
# Crop


def _crop_check(opname, attrs):
    if attrs["num_args"] not in (1, 2):
        raise MXNetError(f"{opname}: num_args={attrs['num_args']}; Crop takes 1 input (data, with "
                         f"h_w) or 2 (data, crop_like)")
    for name in ("offset", "h_w"):
        if len(attrs[name]) != 2:
            raise MXNetError(f"{opname}: {name} {tuple(attrs[name])} must have 2 entries (y, x)")


def _crop_window(opname, attrs, dshape, hw, source="h_w"):
    """(y, x, h, w) of the crop window inside data of shape ``dshape``; ``source`` names where
    the size (h, w) came from, for messages."""
    if len(dshape) != 4:
        raise MXNetError(f"{opname}: data must be 4-D (batch, channel, y, x); got shape "
                         f"{tuple(dshape)}")
    h, w = hw
    H, W = dshape[2], dshape[3]
    if not (1 <= h <= H and 1 <= w <= W):
        raise MXNetError(f"{opname}: crop size ({h}, {w}) from {source} must be at least 1 and "
                         f"at most the data's ({H}, {W})")
    if attrs["center_crop"]:
        return (H - h) // 2, (W - w) // 2, h, w
    y, x = attrs["offset"]
    if y < 0 or x < 0:
        raise MXNetError(f"{opname}: offset ({y}, {x}) must not be negative")
    if not (0 <= y <= H - h and 0 <= x <= W - w):
        raise MXNetError(f"{opname}: offset ({y}, {x}) leaves no room for a ({h}, {w}) crop of "
                         f"data ({H}, {W}); expected offset <= ({H - h}, {W - w})")
    return y, x, h, w


def _crop_size(opname, attrs, like_shape):
    if like_shape is None:
        return tuple(attrs["h_w"])
    if len(like_shape) < 4:
        raise MXNetError(f"{opname}: crop_like must have at least 4 dimensions (its dims 2 and 3 "
                         f"give the size); got shape {tuple(like_shape)}")
    return like_shape[2], like_shape[3]


def _crop(rc, attrs, data, crop_like=None):
    check_float("Crop", ["data"], [data])
    hw = _crop_size("Crop", attrs, None if crop_like is None else crop_like.shape)
    y, x, h, w = _crop_window("Crop", attrs, data.shape, hw,
                              "h_w" if crop_like is None else "crop_like")
    return rc.xp.ascontiguousarray(data[:, :, y:y + h, x:x + w])


def _backward_crop(rc, attrs, ograd, data):
    y, x, h, w = _crop_window("_backward_Crop", attrs, data.shape, ograd.shape[2:4], "ograd")
    out = rc.xp.zeros(data.shape, dtype=data.dtype)
    out[:, :, y:y + h, x:x + w] = ograd
    return out


def _crop_shape(attrs, ins, outs):
    d = ins[0]
    like = ins[1] if len(ins) > 1 else None
    if d is None or None in d or (len(ins) > 1 and (like is None or None in like)):
        return ins, outs, []
    y, x, h, w = _crop_window("Crop", attrs, d, _crop_size("Crop", attrs, like),
                              "h_w" if like is None else "crop_like")
    return ins, [(d[0], d[1], h, w)], []


def _crop_grad(F, attrs, ins, outs, og):
    g = F._backward_Crop(og[0], ins[0], offset=attrs["offset"], center_crop=attrs["center_crop"])
    return [g] + [F.zeros_like(a) for a in ins[1:]]


register("Crop", _crop, inputs=lambda a: ["data"] if a["num_args"] == 1 else ["data", "crop_like"],
         variadic="num_args", attr_check=_crop_check,
         params=(Param("num_args", "int", doc="1 (data) or 2 (data, crop_like)."),
                 Param("offset", "shape", (0, 0), doc="Top-left corner (y, x) of the crop."),
                 Param("h_w", "shape", (0, 0), doc="Crop size (h, w) when there is one input."),
                 Param("center_crop", "bool", False, doc="Centre the crop (offset ignored).")),
         infer_shape=_crop_shape, infer_type=uniform_float_type("Crop"), gradient=_crop_grad,
         doc="Cut a window out of 4-D data, sized by h_w or by a second input.")

register("_backward_Crop", _backward_crop, inputs=("ograd", "data"), nd_hidden=True,
         params=(Param("offset", "shape", (0, 0)), Param("center_crop", "bool", False)),
         infer_shape=lambda a, i, o: (i, [i[1]], []), infer_type=uniform_float_type("_backward_Crop"),
         doc="Gradient of Crop with respect to its data.")


# =============================================================================================
# ROIPooling


def _roi_check(opname, attrs):
    ps = attrs["pooled_size"]
    if len(ps) != 2 or any(v is None or v <= 0 for v in ps):
        raise MXNetError(f"{opname}: pooled_size {tuple(ps)} must be two positive integers (h, w)")
    scale = attrs.get("spatial_scale")
    if scale is not None and not 0.0 <= scale <= 1.0:  # 1.9.1 bounds it to [0, 1]
        raise MXNetError(f"{opname}: spatial_scale={scale} is out of range; expected a value in "
                         f"[0, 1] (feature-map size over image size)")


def _roi_shapes(opname, dshape, rshape):
    if len(dshape) != 4:
        raise MXNetError(f"{opname}: data must be a 4-D feature map (batch, channel, y, x); got "
                         f"shape {tuple(dshape)}")
    if len(rshape) != 2 or rshape[1] != 5:
        raise MXNetError(f"{opname}: rois must have shape (num_rois, 5) with rows [batch_index, "
                         f"x1, y1, x2, y2]; got shape {tuple(rshape)}")


def _round_half_away(xp, v):
    return xp.where(v >= 0, xp.floor(v + 0.5), xp.ceil(v - 0.5))


def _floor_log2(xp, n, levels):
    k = xp.zeros(n.shape, dtype=np.int64)
    for j in range(1, levels):
        k += n >= (1 << j)
    return k


def _combine(xp, va, ia, vb, ib):
    """Max of two candidates; on ties the smaller flat index (row-major first) wins."""
    take_b = (vb > va) | ((vb == va) & (ib < ia))
    return xp.where(take_b, vb, va), xp.where(take_b, ib, ia)


def _roi_bins(xp, rois, attrs, shape, cdt):
    """Batch index, clipped bin bounds (R, PH) / (R, PW) and the empty-bin mask (R, PH, PW)."""
    n, _, H, W = shape
    PH, PW = attrs["pooled_size"]
    r = rois.astype(cdt, copy=False)
    scale = cdt.type(attrs["spatial_scale"])
    batch = r[:, 0].astype(np.int64)
    x1, y1, x2, y2 = (_round_half_away(xp, r[:, i] * scale).astype(np.int64) for i in (1, 2, 3, 4))
    rh = xp.maximum(y2 - y1 + 1, 1).astype(cdt)
    rw = xp.maximum(x2 - x1 + 1, 1).astype(cdt)
    bh = rh / cdt.type(PH)
    bw = rw / cdt.type(PW)
    ph = xp.arange(PH, dtype=cdt)[None, :]
    pw = xp.arange(PW, dtype=cdt)[None, :]
    hs = xp.clip(xp.floor(ph * bh[:, None]).astype(np.int64) + y1[:, None], 0, H)
    he = xp.clip(xp.ceil((ph + 1) * bh[:, None]).astype(np.int64) + y1[:, None], 0, H)
    ws = xp.clip(xp.floor(pw * bw[:, None]).astype(np.int64) + x1[:, None], 0, W)
    we = xp.clip(xp.ceil((pw + 1) * bw[:, None]).astype(np.int64) + x1[:, None], 0, W)
    bad_batch = (batch < 0) | (batch >= n)
    empty = ((he <= hs)[:, :, None] | (we <= ws)[:, None, :]) | bad_batch[:, None, None]
    return xp.clip(batch, 0, max(n - 1, 0)), hs, he, ws, we, empty


def _sparse_table(xp, xt, kh_levels, kw_levels):
    """Range-max tables over (h, w) of xt (N, H, W, C): level (a, b) holds, at (h, w), the max
    (and its first flat position h*W + w) of the 2**a x 2**b block starting there."""
    _, H, W, _ = xt.shape
    flat = xp.arange(H * W, dtype=np.int32).reshape(1, H, W, 1)
    row = [(xt, xp.broadcast_to(flat, xt.shape))]
    for b in range(1, kw_levels):
        v, i = row[-1]
        s = 1 << (b - 1)
        nv, ni = v.copy(), xp.array(i, copy=True)
        cv, ci = _combine(xp, v[:, :, :W - s], i[:, :, :W - s], v[:, :, s:], i[:, :, s:])
        nv[:, :, :W - s], ni[:, :, :W - s] = cv, ci
        row.append((nv, ni))
    table = [row]
    for a in range(1, kh_levels):
        s = 1 << (a - 1)
        new = []
        for v, i in table[-1]:
            nv, ni = v.copy(), xp.array(i, copy=True)
            cv, ci = _combine(xp, v[:, :H - s], i[:, :H - s], v[:, s:], i[:, s:])
            nv[:, :H - s], ni[:, :H - s] = cv, ci
            new.append((nv, ni))
        table.append(new)
    vals = xp.stack([xp.stack([v for v, _ in r]) for r in table])
    idxs = xp.stack([xp.stack([i for _, i in r]) for r in table])
    return vals, idxs


def _roi_pooling(rc, attrs, data, rois):
    xp = rc.xp
    dt = check_float("ROIPooling", ["data", "rois"], [data, rois])
    _roi_shapes("ROIPooling", data.shape, rois.shape)
    cdt = _cdt(dt)
    n, c, H, W = data.shape
    PH, PW = attrs["pooled_size"]
    R = rois.shape[0]
    if R == 0 or data.size == 0:
        z = xp.zeros((R, c, PH, PW), dtype=dt)
        return z, z - 1
    batch, hs, he, ws, we, empty = _roi_bins(xp, rois, attrs, data.shape, cdt)
    lh, lw = xp.maximum(he - hs, 1), xp.maximum(we - ws, 1)
    kh_levels = int(lh.max()).bit_length()
    kw_levels = int(lw.max()).bit_length()
    xt = xp.ascontiguousarray(data.astype(cdt, copy=False).transpose(0, 2, 3, 1))
    vals, idxs = _sparse_table(xp, xt, kh_levels, kw_levels)
    kh = _floor_log2(xp, lh, kh_levels)
    kw = _floor_log2(xp, lw, kw_levels)
    h_a = xp.minimum(hs, H - 1)
    h_b = xp.clip(he - (1 << kh), 0, H - 1)
    w_a = xp.minimum(ws, W - 1)
    w_b = xp.clip(we - (1 << kw), 0, W - 1)
    K1, K2, B = kh[:, :, None], kw[:, None, :], batch[:, None, None]
    best_v = best_i = None
    for hh in (h_a, h_b):
        for ww in (w_a, w_b):
            v = vals[K1, K2, B, hh[:, :, None], ww[:, None, :]]
            i = idxs[K1, K2, B, hh[:, :, None], ww[:, None, :]]
            if best_v is None:
                best_v, best_i = v, i
            else:
                best_v, best_i = _combine(xp, best_v, best_i, v, i)
    e = empty[..., None]
    out = xp.where(e, 0, best_v).transpose(0, 3, 1, 2)
    arg = xp.where(e, -1, best_i).transpose(0, 3, 1, 2)
    return xp.ascontiguousarray(out).astype(dt), xp.ascontiguousarray(arg).astype(dt)


def _backward_roi_pooling(rc, attrs, ograd, data, rois, maxidx):
    xp = rc.xp
    n, c, H, W = data.shape
    R = rois.shape[0]
    cdt = _cdt(data.dtype)
    batch = rois[:, 0].astype(np.int64)
    ok = (batch >= 0) & (batch < n)
    arg = maxidx.astype(np.int64)
    use = (arg >= 0) & ok[:, None, None, None]
    plane = (xp.clip(batch, 0, max(n - 1, 0))[:, None] * c + xp.arange(c)[None, :]) * (H * W)
    flat = xp.where(use, plane.reshape(R, c, 1, 1) + arg, 0).ravel()
    if xp is np:   # 1.9.1: each input adds its bins' gradients in turn (region, channel, bin)
        keep = use.ravel()
        g = np.zeros(data.size, dtype=cdt)
        np.add.at(g, flat[keep], ograd.astype(cdt, copy=False).ravel()[keep])
        return g.reshape(data.shape).astype(data.dtype, copy=False)
    weights = xp.where(use, ograd.astype(cdt, copy=False), 0).ravel()
    g = xp.bincount(flat, weights=weights, minlength=data.size)
    return g.reshape(data.shape).astype(data.dtype)


def _roi_shape(attrs, ins, outs):
    d, r = ins
    if d is None or r is None or None in d or None in r:
        return ins, outs, []
    _roi_shapes("ROIPooling", d, r)
    o = (r[0], d[1]) + tuple(attrs["pooled_size"])
    return ins, [o, o], []


def _roi_grad(F, attrs, ins, outs, og):
    g = F._backward_ROIPooling(og[0], ins[0], ins[1], outs[1], pooled_size=attrs["pooled_size"],
                               spatial_scale=attrs["spatial_scale"])
    return [g, F.zeros_like(ins[1])]


_ROI_PARAMS = (Param("pooled_size", "shape", doc="Output bins per region (h, w)."),
               Param("spatial_scale", "float",
                     doc="Feature-map size over image size (1 / total stride)."))

register("ROIPooling", _roi_pooling, inputs=("data", "rois"), params=_ROI_PARAMS,
         attr_check=_roi_check, num_outputs=2, num_visible_outputs=1,
         infer_shape=_roi_shape, infer_type=roi_type("ROIPooling"), gradient=_roi_grad,
         doc="Max-pool each region of interest of a feature map onto a fixed grid of bins.")

register("_backward_ROIPooling", _backward_roi_pooling, params=_ROI_PARAMS, attr_check=_roi_check,
         inputs=("ograd", "data", "rois", "maxidx"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=uniform_float_type("_backward_ROIPooling"),
         doc="Gradient of ROIPooling with respect to its data, from the recorded max positions.")


# =============================================================================================
# GridGenerator


def _grid_check(opname, attrs):
    if len(attrs["target_shape"]) != 2:
        raise MXNetError(f"{opname}: target_shape {tuple(attrs['target_shape'])} must be (h, w)")


def _target(opname, attrs):
    h, w = attrs["target_shape"]
    if h <= 0 or w <= 0:
        raise MXNetError(f"{opname}: target_shape ({h}, {w}) must be positive; it is required "
                         f"for the affine transform")
    return h, w


def _coords(xp, n, dt):
    """n target coordinates from -1 to 1 (NaN for n = 1: 1.9.1 computes 0 * (2 / 0) - 1)."""
    if n == 1:
        return xp.full(1, np.nan, dtype=dt)
    return xp.arange(n, dtype=dt) * dt.type(2.0 / (n - 1)) - dt.type(1)


def _affine_base(xp, h, w, dt):
    """The (3, h*w) target grid [x; y; 1] with x, y from -1 to 1."""
    xs = _coords(xp, w, dt)
    ys = _coords(xp, h, dt)
    gx = xp.broadcast_to(xs[None, :], (h, w)).reshape(-1)
    gy = xp.broadcast_to(ys[:, None], (h, w)).reshape(-1)
    return xp.stack([gx, gy, xp.ones(h * w, dtype=dt)])


def _affine_grid(xp, theta, h, w, base=None):
    dt = theta.dtype
    base = _affine_base(xp, h, w, dt) if base is None else base
    return xp.matmul(theta.reshape(-1, 2, 3), base).reshape(-1, 2, h, w)


def _st_base(xp, h, w, dt):
    """SpatialTransformer's target grid: 1.9.1 computes its coordinates -1 + i * 2.0 / (n - 1)
    in double and rounds them (GridGenerator's are float32 steps; ~20% differ in the last
    bit), which makes its outputs and gradients bit-exact."""
    def coords(n):
        with errstate(divide="ignore", invalid="ignore"):   # n = 1: 0 * inf is NaN, as 1.9.1
            return (np.arange(n) * (2.0 / (n - 1) if n > 1 else np.inf) - 1.0).astype(dt)
    gx = np.broadcast_to(coords(w)[None, :], (h, w)).reshape(-1)
    gy = np.broadcast_to(coords(h)[:, None], (h, w)).reshape(-1)
    return xp.asarray(np.stack([gx, gy, np.ones(h * w, dtype=dt)]))


def _half_extent(dt, n):
    return dt.type((n - 1) / 2.0)


def _check_affine(opname, name, theta):
    if theta.ndim != 2 or theta.shape[1] != 6:
        raise MXNetError(f"{opname}: {name} must be (batch, 6) affine matrices; got shape "
                         f"{tuple(theta.shape)}")


def _check_affine_shape(opname, name, shape):
    """The shape-only form of _check_affine, for infer_shape (dimensions may be unknown)."""
    if shape is not None and (len(shape) != 2 or shape[1] not in (None, 6)):
        raise MXNetError(f"{opname}: {name} must be (batch, 6) affine matrices; got shape "
                         f"{tuple(shape)}")


def _grid_generator(rc, attrs, data):
    xp = rc.xp
    dt = check_float("GridGenerator", ["data"], [data])
    cdt = _cdt(dt)
    x = data.astype(cdt, copy=False)
    if attrs["transform_type"] == "affine":
        _check_affine("GridGenerator", "data", data)
        h, w = _target("GridGenerator", attrs)
        return _affine_grid(xp, x, h, w).astype(dt, copy=False)
    if data.ndim != 4 or data.shape[1] != 2:
        raise MXNetError(f"GridGenerator: for transform_type='warp' data must be an optical flow "
                         f"of shape (batch, 2, h, w); got shape {tuple(data.shape)}")
    _, _, h, w = data.shape
    jx = xp.arange(w, dtype=cdt)[None, :]
    iy = xp.arange(h, dtype=cdt)[:, None]
    with errstate(divide="ignore", invalid="ignore"):  # a single row/column divides by 0
        gx = (x[:, 0] + jx) / _half_extent(cdt, w) - cdt.type(1)
        gy = (x[:, 1] + iy) / _half_extent(cdt, h) - cdt.type(1)
    return xp.stack([gx, gy], axis=1).astype(dt, copy=False)


def _backward_grid_generator(rc, attrs, ograd):
    xp = rc.xp
    dt = check_float("_backward_GridGenerator", ["ograd"], [ograd])
    cdt = _cdt(dt)
    og = ograd.astype(cdt, copy=False)
    if ograd.ndim != 4 or ograd.shape[1] != 2:
        raise MXNetError(f"_backward_GridGenerator: ograd must have shape (batch, 2, h, w); got "
                         f"{tuple(ograd.shape)}")
    n, _, h, w = ograd.shape
    if attrs["transform_type"] == "affine":
        base = _affine_base(xp, h, w, cdt)
        g = xp.matmul(og.reshape(n, 2, h * w), base.T).reshape(n, 6)
        return g.astype(dt, copy=False)
    with errstate(divide="ignore", invalid="ignore"):
        sx = og[:, 0] / _half_extent(cdt, w)
        sy = og[:, 1] / _half_extent(cdt, h)
    return xp.stack([sx, sy], axis=1).astype(dt, copy=False)


def _grid_shape(attrs, ins, outs):
    d = ins[0]
    if attrs["transform_type"] == "warp":
        if d is not None and (len(d) != 4 or d[1] not in (None, 2)):
            raise MXNetError(f"GridGenerator: for transform_type='warp' data must be an optical "
                             f"flow of shape (batch, 2, h, w); got shape {tuple(d)}")
        return ins, [d], []
    h, w = _target("GridGenerator", attrs)
    _check_affine_shape("GridGenerator", "data", d)
    if d is None or d[0] is None:
        return ins, outs, []
    return [(d[0], 6)], [(d[0], 2, h, w)], []


_GRID_PARAMS = (Param("transform_type", "str", choices=("affine", "warp"),
                      doc="affine: data is (N, 6) matrices; warp: data is a (N, 2, H, W) flow."),
                Param("target_shape", "shape", (0, 0), doc="Output (h, w) for affine."))

register("GridGenerator", _grid_generator, params=_GRID_PARAMS, attr_check=_grid_check,
         infer_shape=_grid_shape, infer_type=uniform_float_type("GridGenerator", strict=False),
         gradient=lambda F, a, ins, outs, og: [F._backward_GridGenerator(og[0], **a)],
         doc="Sampling grid in [-1, 1] coordinates from affine matrices or an optical flow.")

register("_backward_GridGenerator", _backward_grid_generator, params=_GRID_PARAMS,
         inputs=("ograd",), attr_check=_grid_check, nd_hidden=True,
         infer_type=uniform_float_type("_backward_GridGenerator"),
         doc="Gradient of GridGenerator (a linear map) with respect to its data.")


# =============================================================================================
# BilinearSampler


def _sampler_check(opname, data, grid):
    _need_ndim(opname, "data", data, 4, "(batch, channel, y, x)")
    _need_ndim(opname, "grid", grid, 4, "(batch, 2, y, x)")
    if grid.shape[1] != 2:
        raise MXNetError(f"{opname}: grid must have 2 channels (x, y); got shape "
                         f"{tuple(grid.shape)}")
    if grid.shape[0] != data.shape[0]:
        raise MXNetError(f"{opname}: data {tuple(data.shape)} and grid {tuple(grid.shape)} must "
                         f"have the same batch size")


def _corners(xp, data, grid):
    """Flat neighbour positions, validity masks and weights of bilinear sampling.

    Returns (x, y, wx, wy, corners) where corners is a list of (flat index (N, L), mask (N, L))
    for top-left, top-right, bottom-left, bottom-right; wx, wy are the top-left weights.
    """
    n, c, H, W = data.shape
    dt = data.dtype
    gx = grid[:, 0].reshape(n, -1)
    gy = grid[:, 1].reshape(n, -1)
    xr = (gx + dt.type(1)) * dt.type(W - 1) / dt.type(2)
    yr = (gy + dt.type(1)) * dt.type(H - 1) / dt.type(2)
    x0f, y0f = xp.floor(xr), xp.floor(yr)
    wx = dt.type(1) - (xr - x0f)
    wy = dt.type(1) - (yr - y0f)
    big = max(H, W) + 2  # keep out-of-range coordinates finite before the int cast
    x0 = xp.clip(x0f, -2, big).astype(np.int64)
    y0 = xp.clip(y0f, -2, big).astype(np.int64)
    corners = []
    for dy in (0, 1):
        for dx in (0, 1):
            xx, yy = x0 + dx, y0 + dy
            ok = (xx >= 0) & (xx <= W - 1) & (yy >= 0) & (yy <= H - 1)
            corners.append((xp.where(ok, yy * W + xx, 0), ok))
    return wx, wy, corners


def _gather(xp, flat, idx, c):
    n = flat.shape[0]
    return xp.take_along_axis(flat, xp.broadcast_to(idx[:, None, :], (n, c, idx.shape[1])), axis=2)


def _corner_weights(wx, wy):
    one = wx.dtype.type(1)
    return (wy * wx, wy * (one - wx), (one - wy) * wx, (one - wy) * (one - wx))


def _sample(xp, data, grid):
    """1.9.1's arithmetic: tl*wy*wx + tr*wy*(1-wx) + bl*(1-wy)*wx + br*(1-wy)*(1-wx), where
    the factors 1 - w are C doubles, so every term but the first, and the sum, are float64
    (rounded to the data type at the end); corners outside the data read 0."""
    n, c, H, W = data.shape
    flat = data.reshape(n, c, H * W)
    wx, wy, corners = _corners(xp, data, grid)
    tl, tr, bl, br = (xp.where(ok[:, None, :], _gather(xp, flat, idx, c), 0)
                      for idx, ok in corners)
    wx, wy = wx[:, None, :], wy[:, None, :]
    rx = 1.0 - wx.astype(np.float64)
    ry = 1.0 - wy.astype(np.float64)
    out = (tl * wy * wx).astype(np.float64)
    out += (tr * wy) * rx
    out += (bl * ry) * wx
    out += (br * ry) * rx
    return out.astype(data.dtype).reshape((n, c) + grid.shape[2:])


# BilinearSampler's data gradient with at most this many (output position, corner) steps is
# accumulated as 1.9.1 does it: in order of output position then corner, each float64 term
# added to the float32 total and rounded (a loop over the steps); else summed in float64 once.
_SAMPLER_EXACT_STEPS = 1024


def _sample_backward_data(og, wx, wy, corners, shape):
    """The data gradient (NumPy) in 1.9.1's order and rounding (see _SAMPLER_EXACT_STEPS)."""
    n, c, H, W = shape
    g = og.astype(np.float64)
    a, b = wy[:, None, :], wx[:, None, :]
    ra, rb = 1.0 - a.astype(np.float64), 1.0 - b.astype(np.float64)
    terms = ((og * a) * b, (og * a) * rb, (g * ra) * b, (g * ra) * rb)   # (n, c, L) each
    gflat = np.zeros((n, c, H * W), dtype=og.dtype)
    chans = np.arange(c)[None, :]
    for pos in range(og.shape[2]):
        for (idx, ok), term in zip(corners, terms):
            rows = np.nonzero(ok[:, pos])[0]
            if rows.size:
                at = (rows[:, None], chans, idx[rows, pos][:, None])
                gflat[at] = (gflat[at] + term[rows, :, pos]).astype(og.dtype)
    return gflat.reshape(shape)


def _sample_backward(xp, ograd, data, grid):
    n, c, H, W = data.shape
    dt = data.dtype
    L = grid.shape[2] * grid.shape[3]
    flat = data.reshape(n, c, H * W)
    og = ograd.reshape(n, c, L)
    wx, wy, corners = _corners(xp, data, grid)
    exact = xp is np and dt == np.float32 and 4 * L <= _SAMPLER_EXACT_STEPS
    vals, flat_idx, weights = [], [], []
    plane = (xp.arange(n * c, dtype=np.int64) * (H * W)).reshape(n, c, 1)
    for (idx, ok), wgt in zip(corners, _corner_weights(wx, wy)):
        okf = ok[:, None, :]
        vals.append(xp.where(okf, _gather(xp, flat, idx, c), 0))
        flat_idx.append((plane + idx[:, None, :]).ravel())
        weights.append(xp.where(okf, og * wgt[:, None, :], 0).ravel())
    if exact:
        gdata = _sample_backward_data(og, wx, wy, corners, data.shape)
    else:
        gdata = xp.bincount(xp.concatenate(flat_idx), weights=xp.concatenate(weights),
                            minlength=data.size).reshape(data.shape).astype(dt)
    tl, tr, bl, br = vals
    cross = tl - tr - bl + br
    gy = -(og * (tr - br + cross * wx[:, None, :])).sum(axis=1)
    gx = -(og * (bl - br + cross * wy[:, None, :])).sum(axis=1)
    ggrid = xp.stack([gx * dt.type(W - 1) / dt.type(2), gy * dt.type(H - 1) / dt.type(2)], axis=1)
    return gdata, ggrid.reshape(grid.shape)


def _bilinear_sampler(rc, attrs, data, grid):
    dt = check_float("BilinearSampler", ["data", "grid"], [data, grid])
    _sampler_check("BilinearSampler", data, grid)
    cdt = _cdt(dt)
    out = _sample(rc.xp, data.astype(cdt, copy=False), grid.astype(cdt, copy=False))
    return out.astype(dt, copy=False)


def _backward_bilinear_sampler(rc, attrs, ograd, data, grid):
    dt = check_float("_backward_BilinearSampler", ["data", "grid"], [data, grid])
    _sampler_check("_backward_BilinearSampler", data, grid)
    cdt = _cdt(dt)
    gd, gg = _sample_backward(rc.xp, ograd.astype(cdt, copy=False), data.astype(cdt, copy=False),
                              grid.astype(cdt, copy=False))
    return gd.astype(dt, copy=False), gg.astype(dt, copy=False)


def _sampler_shape(attrs, ins, outs):
    d, g = ins
    if d is None or g is None or None in d or None in g:
        return ins, outs, []
    if len(d) != 4 or len(g) != 4 or g[1] != 2 or g[0] != d[0]:
        raise MXNetError(f"BilinearSampler: data {tuple(d)} must be (N, C, H, W) and grid "
                         f"{tuple(g)} must be (N, 2, h, w) with the same N")
    return ins, [(d[0], d[1], g[2], g[3])], []


register("BilinearSampler", _bilinear_sampler, inputs=("data", "grid"),
         params=(Param("cudnn_off", "bool", None, doc="Accepted for compatibility; no effect."),),
         infer_shape=_sampler_shape, infer_type=uniform_float_type("BilinearSampler", strict=False),
         gradient=lambda F, a, ins, outs, og: list(
             F._backward_BilinearSampler(og[0], ins[0], ins[1])),
         doc="Sample data at the grid's [-1, 1] coordinates with bilinear interpolation.")

register("_backward_BilinearSampler", _backward_bilinear_sampler,
         inputs=("ograd", "data", "grid"), num_outputs=2, nd_hidden=True,
         params=(Param("cudnn_off", "bool", None),),
         infer_shape=lambda a, i, o: (i, [i[1], i[2]], []),
         infer_type=uniform_float_type("_backward_BilinearSampler"),
         doc="Gradients of BilinearSampler with respect to data and grid.")


# =============================================================================================
# SpatialTransformer


def _spatial_transformer(rc, attrs, data, loc):
    xp = rc.xp
    dt = check_float("SpatialTransformer", ["data", "loc"], [data, loc])
    _need_ndim("SpatialTransformer", "data", data, 4, "(batch, channel, y, x)")
    _check_affine("SpatialTransformer", "loc", loc)
    if loc.shape[0] != data.shape[0]:
        raise MXNetError(f"SpatialTransformer: loc {tuple(loc.shape)} must have one row per item "
                         f"of data {tuple(data.shape)}")
    h, w = _target("SpatialTransformer", attrs)
    cdt = _cdt(dt)
    grid = _affine_grid(xp, loc.astype(cdt, copy=False), h, w, _st_base(xp, h, w, cdt))
    return _sample(xp, data.astype(cdt, copy=False), grid).astype(dt, copy=False)


def _backward_spatial_transformer(rc, attrs, ograd, data, loc):
    """Gradients of SpatialTransformer: BilinearSampler's backward on the transformer's grid,
    and the grid's gradient times the target grid's transpose for loc."""
    xp = rc.xp
    dt = check_float("SpatialTransformer", ["data", "loc"], [data, loc])
    h, w = _target("SpatialTransformer", attrs)
    cdt = _cdt(dt)
    base = _st_base(xp, h, w, cdt)
    grid = _affine_grid(xp, loc.astype(cdt, copy=False), h, w, base)
    gd, gg = _sample_backward(xp, ograd.astype(cdt, copy=False), data.astype(cdt, copy=False),
                              grid)
    gl = xp.matmul(gg.reshape(loc.shape[0], 2, h * w), base.T).reshape(loc.shape[0], 6)
    return gd.astype(dt, copy=False), gl.astype(dt, copy=False)


def _st_shape(attrs, ins, outs):
    d = ins[0]
    h, w = _target("SpatialTransformer", attrs)
    _check_affine_shape("SpatialTransformer", "loc", ins[1])
    if d is None or None in d:
        return ins, outs, []
    return [d, (d[0], 6)], [(d[0], d[1], h, w)], []


def _st_grad(F, attrs, ins, outs, og):
    return list(F._backward_SpatialTransformer(og[0], ins[0], ins[1], **attrs))


_ST_PARAMS = (Param("target_shape", "shape", (0, 0), doc="Output (h, w)."),
              Param("transform_type", "str", choices=("affine",), doc="Only 'affine'."),
              Param("sampler_type", "str", choices=("bilinear",), doc="Only 'bilinear'."),
              Param("cudnn_off", "bool", None, doc="Accepted for compatibility; no effect."))

register("SpatialTransformer", _spatial_transformer, inputs=("data", "loc"),
         params=_ST_PARAMS,
         attr_check=_grid_check, infer_shape=_st_shape,
         infer_type=uniform_float_type("SpatialTransformer", strict=False), gradient=_st_grad,
         doc="Warp data with per-item affine matrices (GridGenerator + BilinearSampler).")

register("_backward_SpatialTransformer", _backward_spatial_transformer,
         inputs=("ograd", "data", "loc"), num_outputs=2, nd_hidden=True, params=_ST_PARAMS,
         attr_check=_grid_check, infer_shape=lambda a, i, o: (i, [i[1], i[2]], []),
         infer_type=uniform_float_type("_backward_SpatialTransformer"),
         doc="Gradients of SpatialTransformer with respect to data and loc.")
