"""Gradients of depthwise 2-D convolutions (one filter per channel: num_group == channels ==
num_filter, weight (C, 1, kh, kw)) on NumPy, without columns.

The generic kernels (``conv_kernels``) run one tiny GEMM per channel (M = 1 or K = 1) over
im2col columns, so a depthwise layer moves K copies of its input through memory for a few
multiply-adds each. Here every tap is a whole-array operation on a "pitched" layout instead:
each (image, channel) plane is laid out with a common row pitch, so that a kernel tap is one
flat shift of the whole plane and of all planes at once.

- ``dgrad`` (the data gradient, any stride, dilation, padding and kernel size): along every
  axis, tap ``t`` of output ``o`` lands on padded input ``s*o + t*d = s*(o + q) + r`` with
  ``(q, r) = divmod(t*d, s)``: on position ``o + q`` of stride phase ``r``. Each phase is a
  sum of the output gradient's planes (zero-padded by the largest ``q`` and given the common
  pitch), each shifted by its tap's ``q`` and scaled by its channel's weight: one multiply
  and one add per tap over a cache-sized block of channels and images. A phase is then
  copied into its positions of the input gradient (all of them for stride 1).
- ``wgrad`` (the weight gradient): ``dw[c, t] = sum over images and outputs of
  gy * x_t``, where ``x_t`` is the padded input phase ``r`` shifted by ``q``, again a flat
  shift of a pitched plane. Each (image, channel, tap) is one BLAS dot product (a batched
  ``matmul`` of (1, S) by (S, 1)), over blocks of planes that stay in the cache while their
  taps read them; the images' sums are added at the end.

Per-channel weights multiply a block through a table (``channel_table``: the weights
repeated over a plane), which NumPy's loops run faster than a (C, 1) column broadcast.
"""
from __future__ import annotations

import numpy as np

from ._common import channel_table
from .conv_kernels import copy_rows, scratch

__all__ = ["applies", "dgrad", "wgrad"]

# Values of one operand per block of the tap loops: blocks this size stay in L2 while all
# taps read them.
_BLOCK = 1 << 16
# The weight gradient's dot products: planes per block (both operands) about this many bytes.
_DOT_BYTES = 1 << 19


def applies(xp, cv):
    """Whether ``cv`` is a depthwise 2-D convolution that this module computes."""
    return (xp is np and cv.nsp == 2 and cv.c > 1 and cv.g == cv.c == cv.f
            and cv.n > 0 and cv.L > 0)


def _axis(k, s, d):
    """Per tap of one axis: (phase r, shift q) with t*d = s*q + r."""
    return [((t * d) % s, (t * d) // s) for t in range(k)]


def _span(r, s, p, size, limit):
    """Phase ``r`` positions u in [u0, u1) (u1 <= limit) whose padded position r + s*u lies in
    the unpadded input [p, p + size), and the input index of u0."""
    u0 = max(0, -(-(p - r) // s))
    u1 = min(limit, -(-(p + size - r) // s))
    return u0, max(u0, u1), r + s * u0 - p


def _scratch(role, shape, dtype):
    return scratch(np, role, shape, dtype)


def _blocks(n, c, plane):
    """(images, channels) blocks of about _BLOCK values."""
    cb = max(1, min(c, _BLOCK // max(plane, 1)))
    nb = max(1, min(n, _BLOCK // (cb * plane)))
    return [(n0, min(n, n0 + nb), c0, min(c, c0 + cb))
            for c0 in range(0, c, cb) for n0 in range(0, n, nb)]


def _phase_buffers(cv, keys, most, hx, wx, tail, dt):
    """Scratch for the padded input's phases ``keys`` ((r, rw) pairs) of up to ``most``
    planes (hx, wx) each (borders zeroed, once): {key: (buffer, (the part of a plane that
    the input fills, that part of x))}."""
    (H, W), (sh, sw), (ph, pw) = cv.ispace, cv.stride, cv.pad
    phases = {}
    for k, key in enumerate(keys):
        buf = _scratch(f"dw_phase{k}", (most * hx * wx + tail,), dt)
        buf[...] = 0
        u0, u1, h0 = _span(key[0], sh, ph, H, hx)
        v0, v1, w0 = _span(key[1], sw, pw, W, wx)
        box = None
        if u1 > u0 and v1 > v0:
            box = ((slice(u0, u1), slice(v0, v1)),
                   (slice(h0, h0 + sh * (u1 - u0 - 1) + 1, sh),
                    slice(w0, w0 + sw * (v1 - v0 - 1) + 1, sw)))
        phases[key] = buf, box
    return phases


def _fill(phases, xs, hx, wx, sw):
    """Copy the block of planes ``xs`` (m, cb, H, W) into its phase buffers."""
    shape = xs.shape[:2]
    m = shape[0] * shape[1]
    for buf, box in phases.values():
        if box is not None:
            dst = buf[:m * hx * wx].reshape(shape + (hx, wx))[(Ellipsis,) + box[0]]
            if sw == 1:
                copy_rows(np, dst, xs[(Ellipsis,) + box[1]])
            else:
                dst[...] = xs[(Ellipsis,) + box[1]]


def _tables(wt, c0, c1, plane, use_table):
    """Per tap, the weights of channels c0..c1 as a table over their planes (or a column)."""
    col = wt[c0:c1]
    if use_table:
        return [channel_table(col[:, t], plane).reshape(-1) for t in range(col.shape[1])]
    return [col[:, t].reshape(1, c1 - c0, 1) for t in range(col.shape[1])]


def _tapsum(src, taps, tables, a, t, m, cb, plane, use_table):
    """a (m, cb*plane) = sum over ``taps`` [(weight index, flat shift)] of the shifted
    ``src`` times the tap's table; ``t`` is scratch like ``a``."""
    for k, (tap, off) in enumerate(taps):
        part = src[off:off + m * cb * plane].reshape(m, cb * plane)
        out = a if k == 0 else t
        if not use_table:
            part, out = part.reshape(m, cb, plane), out.reshape(m, cb, plane)
        np.multiply(part, tables[tap], out=out)
        if k:
            a += t


def dgrad(gy, w, cv, dx):
    """dx (n, C, H, W) of a depthwise convolution, given gy (n, C, Ho, Wo) and w (C, 1, kh,
    kw); written into the contiguous ``dx``."""
    n, c = cv.n, cv.c
    (H, W), (Ho, Wo) = cv.ispace, cv.ospace
    (sh, sw), (ph, pw) = cv.stride, cv.pad
    th, tw = (_axis(k, s, d) for k, s, d in zip(cv.kernel, cv.stride, cv.dilate))
    qh, qw = max(q for _, q in th), max(q for _, q in tw)
    rows = {r: _span(r, sh, ph, H, 1 << 62) for r in {r for r, _ in th}}
    cols = {r: _span(r, sw, pw, W, 1 << 62) for r in {r for r, _ in tw}}
    hg = max(Ho, max(u1 for _, u1, _ in rows.values())) + qh
    wg = max(Wo, max(u1 for _, u1, _ in cols.values())) + qw
    plane = hg * wg
    dt = dx.dtype
    # positions that no tap reaches (stride > dilated kernel) stay zero
    if not (set(range(min(sh, H))) <= set(rows) and set(range(min(sw, W))) <= set(cols)):
        dx[...] = 0
    # the output gradient of each block of planes, zero-padded (qh rows and qw columns first)
    # with pitch wg; the borders are written once
    blocks = _blocks(n, c, plane)
    most = max((n1 - n0) * (c1 - c0) for n0, n1, c0, c1 in blocks)
    tail = qh * wg + qw
    g = _scratch("dw_gpad", (most * plane + tail,), dt)
    g[...] = 0
    # the taps of each phase (r, rw): (weight index, flat shift)
    kw = cv.kernel[1]
    phases = {}
    for i, (r, q) in enumerate(th):
        for j, (rw, qq) in enumerate(tw):
            phases.setdefault((r, rw), []).append((i * kw + j, (qh - q) * wg + (qw - qq)))
    wt = w.reshape(c, -1).astype(dt, copy=False)
    acc = _scratch("dw_acc", (most * plane,), dt)
    tmp = _scratch("dw_tmp", (most * plane,), dt)
    # a table is made once per block of channels and used by every image: worth it from a
    # few images on (else a (channels, 1) column broadcast)
    use_table = n >= 4
    tables, tc0 = None, None
    for n0, n1, c0, c1 in blocks:
        m, cb = n1 - n0, c1 - c0
        a = acc[:m * cb * plane].reshape(m, cb * plane)
        t = tmp[:m * cb * plane].reshape(m, cb * plane)
        gb = g[:m * cb * plane].reshape(m, cb, hg, wg)
        copy_rows(np, gb[:, :, qh:qh + Ho, qw:qw + Wo], gy[n0:n1, c0:c1])
        if tc0 != c0:
            tables, tc0 = _tables(wt, c0, c1, plane, use_table), c0
        for (r, rw), taps in phases.items():
            u0, u1, h0 = rows[r]
            v0, v1, w0 = cols[rw]
            if u1 <= u0 or v1 <= v0:
                continue
            _tapsum(g, taps, tables, a, t, m, cb, plane, use_table)
            res = a.reshape(m, cb, hg, wg)[:, :, u0:u1, v0:v1]
            dst = dx[n0:n1, c0:c1, h0:h0 + sh * (u1 - u0 - 1) + 1:sh,
                     w0:w0 + sw * (v1 - v0 - 1) + 1:sw]
            if sw == 1:
                copy_rows(np, dst, res)
            else:
                dst[...] = res
    return dx


def wgrad(gy, x, cv, dw):
    """dw (C, 1, kh, kw) of a depthwise convolution, given gy (n, C, Ho, Wo) and x (n, C, H,
    W); written into the contiguous ``dw``. Blocks of (image, channel) planes are copied into
    pitched phase buffers (their zero borders written once) and dotted with the pitched
    output gradient while they are cached."""
    n, c = cv.n, cv.c
    Ho, Wo = cv.ospace
    sw = cv.stride[1]
    th, tw = (_axis(k, s, d) for k, s, d in zip(cv.kernel, cv.stride, cv.dilate))
    qh, qw = max(q for _, q in th), max(q for _, q in tw)
    hx, wx = Ho + qh, Wo + qw
    plane, size = hx * wx, Ho * wx
    tail = qh * wx + qw
    dt = dw.dtype
    keys = sorted({(r, rw) for r, _ in th for rw, _ in tw})
    per = (len(keys) * plane + size) * dt.itemsize
    cb = max(1, min(c, _DOT_BYTES // per))
    nb = max(1, min(n, _DOT_BYTES // (per * cb)))
    most = nb * cb
    phases = _phase_buffers(cv, keys, most, hx, wx, tail, dt)
    gbuf = _scratch("dw_gpitch", (most * size,), dt)
    if wx > Wo:
        gbuf[...] = 0
    kw = cv.kernel[1]
    taps = [(i * kw + j, (r, rw), q * wx + qq)
            for i, (r, q) in enumerate(th) for j, (rw, qq) in enumerate(tw)]
    dots = _scratch("dw_dots", (cv.ksize, n, c, 1, 1), dt)
    for n0 in range(0, n, nb):
        n1 = min(n, n0 + nb)
        for c0 in range(0, c, cb):
            c1 = min(c, c0 + cb)
            m = (n1 - n0) * (c1 - c0)
            shape = (n1 - n0, c1 - c0)
            _fill(phases, x[n0:n1, c0:c1], hx, wx, sw)
            if wx == Wo:
                gp = gy[n0:n1, c0:c1].reshape(shape + (1, size))
            else:
                gp = gbuf[:m * size].reshape(shape + (Ho, wx))
                copy_rows(np, gp[..., :Wo], gy[n0:n1, c0:c1])
                gp = gp.reshape(shape + (1, size))
            for tap, key, off in taps:
                xv = phases[key][0][off:off + m * plane].reshape(shape + (plane,))
                np.matmul(gp, xv[..., :size, None], out=dots[tap, n0:n1, c0:c1])
    total = dots.reshape(cv.ksize, n, c).sum(axis=1)
    dw.reshape(c, cv.ksize)[...] = total.T
    return dw
