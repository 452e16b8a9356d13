"""Deformable convolutions of ``mx.nd.contrib``: DeformableConvolution (DCN v1) and
ModulatedDeformableConvolution (DCN v2), 2-D, NCHW.

Kernel tap ``k = (i, j)`` of output pixel ``(y, x)`` reads the input at ``(y * stride - pad
+ i * dilate + dy, x * stride - pad + j * dilate + dx)`` with the learned offsets ``(dy, dx)``
= channels ``2k`` and ``2k + 1`` of the deformable group's slice of ``offset`` (N, 2 * K *
num_deformable_group, Ho, Wo); input channels are split evenly into the deformable groups.
The modulated version multiplies every sample by its ``mask`` value (N, K *
num_deformable_group, Ho, Wo).

Samples are bilinear and follow 1.9.1's CPU kernels:

- DCN v1 samples only inside ``[0, H) x [0, W)`` (0 elsewhere); along an axis where the
  sample lies in the last pixel row/column, that pixel is used alone.
- DCN v2 samples inside ``(-1, H) x (-1, W)``; neighbours outside the map count as 0.

The kernel is a deformable im2col: the samples of every (channel, tap, output pixel) form the
usual column matrix (four gathers with bilinear weights, one per neighbour), then one
batched GEMM per channel group, as for a regular convolution. The gradients reuse the
columns: weight = GEMM of the output gradient with the columns, column gradient = GEMM of
the weight with the output gradient, which scatters back to the input by the same bilinear
weights (``bincount``) and gives the offsets the bilinear slopes (and the mask the samples).
The loops run over the four neighbours and over chunks of images, never over pixels.

1.9.1 computes ModulatedDeformableConvolution's backward only on a GPU; here it works
everywhere (checked against numeric gradients). As in 1.9.1, only 2-D kernels and the NCHW
layout are supported; the channels must be divisible by num_deformable_group (and, for the
modulated op only, num_filter too, as 1.9.1 checks).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .contrib_box import _cdt
from .nn_dense import as_list
from .registry import Param, register

__all__ = []

_DC = "_contrib_DeformableConvolution"
_MDC = "_contrib_ModulatedDeformableConvolution"
_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))
# column-matrix elements per chunk of images
_COL_BUDGET = 1 << 23


def _params(modulated):
    step = (Param("im2col_step", "int", 64,
                  doc="Images per column buffer in 1.9.1 (accepted; chunks are sized by "
                      "memory here)."),) if modulated else ()
    return (
        Param("kernel", "shape", doc="Kernel size (h, w)."),
        Param("stride", "shape", (), doc="Stride (h, w); default 1."),
        Param("dilate", "shape", (), doc="Dilation (h, w); default 1."),
        Param("pad", "shape", (), doc="Zero padding (h, w); default 0."),
        Param("num_filter", "int", doc="Output channels."),
        Param("num_group", "int", 1, doc="Channel groups of the convolution."),
        Param("num_deformable_group", "int", 1, doc="Channel groups sharing one offset map."),
        Param("workspace", "int", 1024, doc="Accepted for compatibility; ignored."),
        Param("no_bias", "bool", False, doc="Leave out the bias input."),
        *step,
        Param("layout", "str", None, choices=("NCDHW", "NCHW", "NCW"),
              doc="Data layout; only NCHW (the default) is supported."),
    )


def _inputs(modulated):
    def names(attrs):
        head = ("data", "offset", "mask") if modulated else ("data", "offset")
        return head + (("weight",) if attrs["no_bias"] else ("weight", "bias"))
    return names


class _Geo:
    """Validated attributes and shapes of one call (channel-first)."""

    __slots__ = ("kh", "kw", "sh", "sw", "dh", "dw", "ph", "pw", "F", "G", "DG", "N", "C",
                 "H", "W", "Ho", "Wo", "wshape", "oshape", "offshape", "mshape")


def _pair(opname, attrs, name, default, minimum):
    v = tuple(attrs[name])
    if not v:
        return (default, default)
    if len(v) != 2 or any(x is None or x < minimum for x in v):
        raise MXNetError(f"{opname}: {name} must be two values >= {minimum} (h, w) for a 2-D "
                         f"deformable convolution; got {v}")
    return v


def _geometry(opname, attrs, dshape):
    k = tuple(attrs["kernel"])
    if len(k) != 2:
        raise MXNetError(f"{opname}: only 2-D kernels (h, w) are supported; got kernel {k}")
    if attrs["layout"] not in (None, "NCHW"):
        raise MXNetError(f"{opname}: only the NCHW layout is supported; got layout "
                         f"{attrs['layout']}")
    if len(dshape) != 4:
        raise MXNetError(f"{opname}: data must be 4-D (batch, channel, height, width); got "
                         f"shape {tuple(dshape)}")
    g = _Geo()
    g.kh, g.kw = k
    if g.kh < 1 or g.kw < 1:
        raise MXNetError(f"{opname}: kernel entries must be positive; got {k}")
    g.sh, g.sw = _pair(opname, attrs, "stride", 1, 1)
    g.dh, g.dw = _pair(opname, attrs, "dilate", 1, 1)
    g.ph, g.pw = _pair(opname, attrs, "pad", 0, 0)
    g.F, g.G, g.DG = attrs["num_filter"], attrs["num_group"], attrs["num_deformable_group"]
    g.N, g.C, g.H, g.W = dshape
    if g.F <= 0 or g.G <= 0 or g.DG <= 0:
        raise MXNetError(f"{opname}: num_filter, num_group and num_deformable_group must be "
                         f"positive; got {g.F}, {g.G}, {g.DG}")
    if g.C % g.G or g.F % g.G:
        raise MXNetError(f"{opname}: data channels ({g.C}) and num_filter ({g.F}) must be "
                         f"divisible by num_group ({g.G}); data shape {tuple(dshape)}")
    # 1.9.1 asks num_filter to divide into the deformable groups only for the modulated op
    if g.C % g.DG or (opname == _MDC and g.F % g.DG):
        what = f"data channels ({g.C})" + (f" and num_filter ({g.F})" if opname == _MDC else "")
        raise MXNetError(f"{opname}: {what} must be divisible by num_deformable_group ({g.DG}); "
                         f"data shape {tuple(dshape)}")
    eh, ew = g.dh * (g.kh - 1) + 1, g.dw * (g.kw - 1) + 1
    if g.H + 2 * g.ph < eh or g.W + 2 * g.pw < ew:
        raise MXNetError(f"{opname}: the dilated kernel ({eh}, {ew}) exceeds the padded input "
                         f"({g.H + 2 * g.ph}, {g.W + 2 * g.pw}); data shape {tuple(dshape)}, "
                         f"kernel {k}, dilate {(g.dh, g.dw)}, pad {(g.ph, g.pw)}")
    g.Ho = (g.H + 2 * g.ph - eh) // g.sh + 1
    g.Wo = (g.W + 2 * g.pw - ew) // g.sw + 1
    K = g.kh * g.kw
    g.wshape = (g.F, g.C // g.G, g.kh, g.kw)
    g.oshape = (g.N, g.F, g.Ho, g.Wo)
    g.offshape = (g.N, 2 * K * g.DG, g.Ho, g.Wo)
    g.mshape = (g.N, K * g.DG, g.Ho, g.Wo)
    return g


def _check(opname, g, name, shape, want):
    # unknown dimensions (None) of a partially known shape are filled in, not mismatches
    if shape is not None and (len(shape) != len(want) or any(
            s is not None and s != w for s, w in zip(shape, want))):
        raise MXNetError(f"{opname}: {name} must have shape {tuple(want)} for data "
                         f"{(g.N, g.C, g.H, g.W)}, kernel {(g.kh, g.kw)}, num_filter {g.F}, "
                         f"num_group {g.G}, num_deformable_group {g.DG}; got {tuple(shape)}")


# ---------------------------------------------------------------------------------------------
# sampling


class _Taps:
    """Bilinear neighbours of every sample, shaped (n, DG, 1, K, L) for broadcasting over the
    channels of a deformable group: flat pixel index, weight and in-map flag per neighbour,
    plus the fractional parts and the sample's validity."""

    __slots__ = ("idx", "wt", "inside", "lh", "lw", "valid")


def _taps(xp, g, off, modulated, cdt):
    """Neighbours of the samples of a chunk of images; ``off`` (n, DG, K, 2, L)."""
    ki = np.repeat(np.arange(g.kh), g.kw) * g.dh
    kj = np.tile(np.arange(g.kw), g.kh) * g.dw
    oy = np.repeat(np.arange(g.Ho), g.Wo) * g.sh - g.ph
    ox = np.tile(np.arange(g.Wo), g.Ho) * g.sw - g.pw
    base_h = xp.asarray((ki[:, None] + oy[None, :]).astype(cdt))           # (K, L)
    base_w = xp.asarray((kj[:, None] + ox[None, :]).astype(cdt))
    h = base_h + off[:, :, :, 0, :]                                          # (n, DG, K, L)
    w = base_w + off[:, :, :, 1, :]
    H, W = g.H, g.W
    t = _Taps()
    one = cdt.type(1)
    if modulated:
        t.valid = (h > -1) & (w > -1) & (h < H) & (w < W)
        y0 = xp.floor(h)
        x0 = xp.floor(w)
        lh, lw = h - y0, w - x0
        y0, x0 = y0.astype(np.int64), x0.astype(np.int64)
        y1, x1 = y0 + 1, x0 + 1
    else:
        t.valid = (h >= 0) & (w >= 0) & (h < H) & (w < W)
        hs = xp.where(t.valid, h, cdt.type(0))
        ws = xp.where(t.valid, w, cdt.type(0))
        y0 = xp.floor(hs).astype(np.int64)
        x0 = xp.floor(ws).astype(np.int64)
        ytop, xtop = y0 >= H - 1, x0 >= W - 1
        y1 = xp.where(ytop, H - 1, y0 + 1)
        x1 = xp.where(xtop, W - 1, x0 + 1)
        lh = xp.where(ytop, cdt.type(0), hs - y0.astype(cdt))
        lw = xp.where(xtop, cdt.type(0), ws - x0.astype(cdt))
    hh, hw = one - lh, one - lw
    t.idx, t.wt, t.inside = [], [], []
    for yy, xx, wt in ((y0, x0, hh * hw), (y0, x1, hh * lw), (y1, x0, lh * hw),
                       (y1, x1, lh * lw)):
        inside = t.valid & (yy >= 0) & (yy < H) & (xx >= 0) & (xx < W)
        idx = xp.clip(yy, 0, H - 1) * W + xp.clip(xx, 0, W - 1)
        t.idx.append(idx[:, :, None])
        t.wt.append(xp.where(inside, wt, cdt.type(0))[:, :, None])
        t.inside.append(inside[:, :, None])
    t.lh, t.lw = lh[:, :, None], lw[:, :, None]
    t.valid = t.valid[:, :, None]
    return t


def _gather(xp, img, idx):
    """img (n, DG, Cd, H*W) at idx (n, DG, 1, K, L) -> (n, DG, Cd, K, L)."""
    n, DG, Cd, _ = img.shape
    K, L = idx.shape[-2:]
    full = xp.broadcast_to(idx.reshape(n, DG, 1, K * L), (n, DG, Cd, K * L))
    return xp.take_along_axis(img, full, axis=3).reshape(n, DG, Cd, K, L)


def _columns(xp, g, img, t):
    """Unmasked samples (n, DG, Cd, K, L) and the four neighbour values."""
    vals = [_gather(xp, img, idx) for idx in t.idx]
    cols = sum(v * wt for v, wt in zip(vals, t.wt))
    return cols, vals


def _chunks(g):
    per = g.C * g.kh * g.kw * g.Ho * g.Wo * 6
    step = max(1, _COL_BUDGET // max(per, 1))
    for s in range(0, g.N, step):
        yield slice(s, min(g.N, s + step))


def _prep(opname, attrs, modulated, arrays):
    data = arrays[0]
    dt = data.dtype
    for name, a in zip(_inputs(modulated)(attrs), arrays):
        if a.dtype not in _FLOATS or a.dtype != dt:
            raise MXNetError(f"{opname}: every input must have the data's float dtype ({dt}); "
                             f"{name} has {a.dtype}")
    g = _geometry(opname, attrs, data.shape)
    names = _inputs(modulated)(attrs)
    want = {"offset": g.offshape, "mask": g.mshape, "weight": g.wshape, "bias": (g.F,)}
    for name, a in zip(names[1:], arrays[1:]):
        _check(opname, g, name, a.shape, want[name])
    return g, _cdt(dt)


def _split(modulated, attrs, arrays):
    data, offset = arrays[0], arrays[1]
    rest = list(arrays[2:])
    mask = rest.pop(0) if modulated else None
    weight = rest.pop(0)
    bias = rest.pop(0) if not attrs["no_bias"] and rest else None
    return data, offset, mask, weight, bias


# ---------------------------------------------------------------------------------------------
# forward / backward


def _forward(opname, modulated):
    def compute(rc, attrs, *arrays):
        xp = rc.xp
        g, cdt = _prep(opname, attrs, modulated, arrays)
        data, offset, mask, weight, bias = _split(modulated, attrs, arrays)
        K, L = g.kh * g.kw, g.Ho * g.Wo
        Cg, Fg, Cd = g.C // g.G, g.F // g.G, g.C // g.DG
        wmat = weight.astype(cdt, copy=False).reshape(g.G, Fg, Cg * K)
        out = xp.empty((g.N, g.G, Fg, L), dtype=cdt)
        for sl in _chunks(g):
            n = sl.stop - sl.start
            off = offset[sl].astype(cdt, copy=False).reshape(n, g.DG, K, 2, L)
            t = _taps(xp, g, off, modulated, cdt)
            img = data[sl].astype(cdt, copy=False).reshape(n, g.DG, Cd, g.H * g.W)
            cols, _ = _columns(xp, g, img, t)
            if modulated:
                cols = cols * mask[sl].astype(cdt, copy=False).reshape(n, g.DG, 1, K, L)
            cols = cols.reshape(n, g.G, Cg * K, L)
            out[sl] = xp.matmul(wmat[None], cols)
        out = out.reshape(g.oshape)
        if bias is not None:
            out += bias.astype(cdt, copy=False)[None, :, None, None]
        return out.astype(data.dtype, copy=False)
    return compute


def _backward(opname, modulated):
    def compute(rc, attrs, ograd, *arrays):
        xp = rc.xp
        g, cdt = _prep(opname, attrs, modulated, arrays)
        data, offset, mask, weight, bias = _split(modulated, attrs, arrays)
        K, L = g.kh * g.kw, g.Ho * g.Wo
        Cg, Fg, Cd = g.C // g.G, g.F // g.G, g.C // g.DG
        HW = g.H * g.W
        wmat = weight.astype(cdt, copy=False).reshape(g.G, Fg, Cg * K)
        gy = ograd.astype(cdt, copy=False).reshape(g.N, g.G, Fg, L)
        gdata = xp.zeros(g.N * g.C * HW, dtype=cdt)
        goff = xp.empty((g.N, g.DG, K, 2, L), dtype=cdt)
        gmask = xp.empty((g.N, g.DG, K, L), dtype=cdt) if modulated else None
        gw = xp.zeros((g.G, Fg, Cg * K), dtype=cdt)
        for sl in _chunks(g):
            n = sl.stop - sl.start
            off = offset[sl].astype(cdt, copy=False).reshape(n, g.DG, K, 2, L)
            t = _taps(xp, g, off, modulated, cdt)
            img = data[sl].astype(cdt, copy=False).reshape(n, g.DG, Cd, HW)
            samples, vals = _columns(xp, g, img, t)
            gys = gy[sl]
            dcol = xp.matmul(wmat.transpose(0, 2, 1)[None], gys)      # (n, G, Cg*K, L)
            dcol = dcol.reshape(n, g.DG, Cd, K, L)
            if modulated:
                m = mask[sl].astype(cdt, copy=False).reshape(n, g.DG, 1, K, L)
                gmask[sl] = (dcol * samples).sum(axis=2)
                cols = samples * m
                dcol = dcol * m
            else:
                cols = samples
            gw += xp.matmul(gys, cols.reshape(n, g.G, Cg * K, L).transpose(0, 1, 3, 2)).sum(0)
            # data: the column gradient back through the bilinear weights
            chan = (xp.arange(n)[:, None, None] * g.C
                    + xp.arange(g.C).reshape(g.DG, Cd)[None]) * HW     # (n, DG, Cd)
            part = gdata[sl.start * g.C * HW:sl.stop * g.C * HW]
            for idx, wt in zip(t.idx, t.wt):
                flat = chan[..., None, None] + idx
                part += xp.bincount(flat.ravel(), weights=(dcol * wt).ravel(),
                                    minlength=part.size).astype(cdt, copy=False)
            # offsets: the bilinear slopes along h and w
            v00, v01, v10, v11 = (v * ins for v, ins in zip(vals, t.inside))
            one = cdt.type(1)
            dh = (one - t.lw) * (v10 - v00) + t.lw * (v11 - v01)
            dw = (one - t.lh) * (v01 - v00) + t.lh * (v11 - v10)
            dh = xp.where(t.valid, dh, cdt.type(0))
            dw = xp.where(t.valid, dw, cdt.type(0))
            goff[sl, :, :, 0] = (dcol * dh).sum(axis=2)
            goff[sl, :, :, 1] = (dcol * dw).sum(axis=2)
        dt = data.dtype
        grads = [gdata.reshape(data.shape).astype(dt), goff.reshape(g.offshape).astype(dt)]
        if modulated:
            grads.append(gmask.reshape(g.mshape).astype(dt))
        grads.append(gw.reshape(g.wshape).astype(dt))
        if not attrs["no_bias"]:
            if xp is np and cdt == np.float32 and ograd.size:
                # 1.9.1's order: each (n, filter) map left to right, then over n
                from .nn_norm import _sync_seq_sum
                gb = _sync_seq_sum(ograd.astype(cdt, copy=False).reshape(g.N, g.F, L))
            else:
                gb = ograd.astype(cdt).sum(axis=(0, 2, 3))
            grads.append(gb.astype(dt))
        return tuple(grads)
    return compute


def _infer_shape(opname, modulated):
    names = _inputs(modulated)

    def infer(attrs, ins, outs):
        ins = list(ins)
        pos = {n: i for i, n in enumerate(names(attrs))}
        if ins[0] is None:
            if "bias" in pos:
                ins[pos["bias"]] = ins[pos["bias"]] or (attrs["num_filter"],)
            return ins, outs, []
        g = _geometry(opname, attrs, ins[0])
        want = {"offset": g.offshape, "mask": g.mshape, "weight": g.wshape, "bias": (g.F,)}
        for name, i in pos.items():
            if name == "data":
                continue
            _check(opname, g, name, ins[i], want[name])
            ins[i] = want[name]
        _check(opname, g, "output", outs[0] if outs else None, g.oshape)
        return ins, [g.oshape], []
    return infer


def _infer_type(opname):
    def infer(attrs, ins, outs):
        t = ins[0]
        if t is None:
            return ins, outs, []
        if np.dtype(t) not in _FLOATS:
            raise MXNetError(f"{opname}: dtype {np.dtype(t)} is not supported; expected "
                             f"float16, float32 or float64")
        seen = [None if y is None else np.dtype(y).name for y in ins]
        if any(x is not None and np.dtype(x) != np.dtype(t) for x in ins):
            raise MXNetError(f"{opname}: every input must have the data's dtype "
                             f"({np.dtype(t)}); got {seen}")
        return [t] * len(ins), [t], []
    return infer


def _grad_rule(bwd):
    def grad(F, attrs, ins, outs, og):
        return as_list(getattr(F, bwd)(og[0], *ins, **attrs), len(ins))
    return grad


for _name, _mod, _doc in (
        (_DC, False, "Deformable 2-D convolution (DCN v1): every kernel tap samples the input "
                     "bilinearly at a learned offset."),
        (_MDC, True, "Modulated deformable 2-D convolution (DCN v2): deformable convolution "
                     "whose samples are also scaled by a learned mask.")):
    _bwd = "_backward" + _name[len("_contrib"):]
    register(_name, _forward(_name, _mod), params=_params(_mod), inputs=_inputs(_mod),
             infer_shape=_infer_shape(_name, _mod), infer_type=_infer_type(_name),
             gradient=_grad_rule(_bwd), doc=_doc)
    register(_bwd, _backward(_name, _mod), params=_params(_mod),
             inputs=lambda a, _m=_mod: ("ograd",) + tuple(_inputs(_m)(a)),
             num_outputs=lambda a, _m=_mod: (5 if _m else 4) - (1 if a["no_bias"] else 0),
             infer_shape=lambda attrs, ins, outs: (ins, list(ins[1:]), []),
             infer_type=lambda attrs, ins, outs: (ins, list(ins[1:]), []),
             doc=f"Gradients of {_name[len('_contrib_'):]} with respect to every input.")
