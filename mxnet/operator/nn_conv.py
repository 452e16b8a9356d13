"""Convolution and Deconvolution (transposed convolution) over 1, 2 or 3 spatial dims.

Three kernels do all the work, each on channel-first arrays:

- ``_conv_forward``: im2col (one strided-window view of the padded input, copied once into a
  column buffer) and one GEMM per group and block of images;
- ``_conv_dgrad``: for stride 1, the forward pass of the "transposed" convolution (flipped,
  transposed kernel, padding ``dilate*(kernel-1) - pad``); otherwise a GEMM of the weight
  with the output gradient into columns, then col2im, a loop over the kernel taps that adds
  each tap's columns into a strided slice of the padded input gradient (every add covers
  the whole batch, all channels and pixels);
- ``_conv_wgrad``: im2col of the input and a GEMM against the output gradient.

Deconvolution is the transpose of Convolution: its forward pass is Convolution's dgrad and
its backward pass uses Convolution's forward (for data) and wgrad (for weight).

Images are grouped into blocks so that each GEMM has at least ``_GEMM_COLS`` columns (one
image per block for large images, the whole batch for 4x4 ones), and blocks are processed
in chunks whose column buffer stays within ``workspace`` megabytes and, on a CPU, within a
cache-sized ``_COL_BYTES``. The chunk loop is the only Python loop besides col2im's taps,
and each of its iterations is a full-size GEMM.

Shape rules, as in 1.9.1:

- Convolution: ``out = (in + 2*pad - dilate*(kernel-1) - 1) // stride + 1``, with weight
  ``(num_filter, channels/num_group, *kernel)`` and bias ``(num_filter,)``.
- Deconvolution: ``out = stride*(in-1) + dilate*(kernel-1) + 1 - 2*pad + adj`` with weight
  ``(channels, num_filter/num_group, *kernel)``; ``no_bias`` defaults to True. ``adj`` must
  be smaller than ``stride``. When ``target_shape`` has a nonzero entry, pad and adj are
  derived from it (``pad = ceil(d/2)``, ``adj = d % 2`` with ``d`` the full output minus the
  target), so the output has exactly the target shape; the derived adj must still be
  smaller than stride.
- stride and dilate default to 1, pad and adj to 0; every one given must have as many
  entries as kernel.
- layout: NCW, NCHW, NCDHW, or channel-last NHWC / NDHWC, where the weight is
  ``(num_filter, *kernel, channels/num_group)`` (Deconvolution: ``(channels, *kernel,
  num_filter/num_group)``). 1.9.1 computes channel-last layouts only on a GPU; here they
  work everywhere (by moving the channel axis). NWC is rejected, as in 1.9.1.

Inputs must share one floating dtype. float16 is computed in float32 and rounded back
(1.9.1 has no float16 convolution on a CPU).

1.9.1's own CPU Deconvolution kernel (used for float64, or with oneDNN disabled) is wrong
when dilate > 1: it repeats neighbouring output values. This module follows the definition,
which is what 1.9.1's oneDNN (float32) and cuDNN paths compute.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..base import MXNetError
from .nn_dense import as_list, check_float_inputs, check_given, compute_dtype, merge, uniform_type
from .registry import Param, register
from .._mode import mode as _mode

_LAYOUTS = ("NCDHW", "NCHW", "NCW", "NDHWC", "NHWC")
_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_LAST = {2: "NHWC", 3: "NDHWC"}

# Upper bound of the column buffer (bytes) on a CPU, whatever ``workspace`` allows: columns
# written and then multiplied while they are still in the cache make the whole pass about
# 20% faster than one buffer for the batch. (On a GPU, ``workspace`` alone decides.)
_COL_BYTES = 4 << 20
# Aim for at least this many GEMM columns (images x output pixels) per block.
_GEMM_COLS = 1024
# From this many columns on, the weight gradient is computed transposed (see _conv_wgrad).
_TALL_COLS = 4096


def _common_params(workspace, deconv):
    adj = (Param("adj", "shape", (), doc="Output size adjustment per spatial dim (< stride)."),
           Param("target_shape", "shape", (),
                 doc="Spatial output shape; when set, pad and adj are derived from it."),
           ) if deconv else ()
    return (
        Param("kernel", "shape", doc="Kernel size: (w,), (h, w) or (d, h, w)."),
        Param("stride", "shape", (), doc="Stride per spatial dim (default 1)."),
        Param("dilate", "shape", (), doc="Dilation per spatial dim (default 1)."),
        Param("pad", "shape", (), doc="Zero padding per spatial dim (default 0)."),
        *adj,
        Param("num_filter", "int", doc="Number of output channels."),
        Param("num_group", "int", 1, doc="Number of groups the channels are split into."),
        Param("workspace", "int", workspace, doc="Column buffer limit in MB."),
        Param("no_bias", "bool", deconv, doc="Leave out the bias input."),
        Param("cudnn_tune", "str", None, choices=("fastest", "limited_workspace", "off"),
              doc="Accepted for compatibility; ignored."),
        Param("cudnn_off", "bool", False, doc="Accepted for compatibility; ignored."),
        Param("layout", "str", None, choices=_LAYOUTS,
              doc="Data layout; default NCW, NCHW or NCDHW by the kernel's rank."),
    )


_CONV_PARAMS = _common_params(1024, False)
_DECONV_PARAMS = _common_params(512, True)


def _inputs(attrs):
    return ("data", "weight") if attrs["no_bias"] else ("data", "weight", "bias")


# ---------------------------------------------------------------------------------------------
# geometry


class _Plan:
    """Everything one call needs: the validated attributes and all shapes.

    Shapes are channel-first (N, C, *spatial); ``wshape``/``oshape`` are in the user's layout.
    Unknown dimensions (``None``) are allowed for shape inference.
    """

    __slots__ = ("nsp", "kernel", "stride", "dilate", "pad", "adj", "groups", "last",
                 "batch", "cin", "cout", "ispace", "ospace", "wshape", "bshape", "dshape",
                 "oshape", "opname", "attrs", "deconv")

    def describe(self):
        a = self.attrs
        extra = f", adj={self.adj}, target_shape={tuple(a['target_shape'])}" if self.deconv else ""
        return (f"(data {self.dshape}, kernel={self.kernel}, stride={self.stride}, "
                f"dilate={self.dilate}, pad={self.pad}{extra}, num_filter={a['num_filter']}, "
                f"num_group={self.groups}, layout={a['layout']})")


def _spatial_param(opname, attrs, name, n, default, minimum):
    v = tuple(attrs[name])
    if not v:
        return (default,) * n
    if len(v) != n:
        raise MXNetError(f"{opname}: {name} {v} must have as many entries as kernel "
                         f"{tuple(attrs['kernel'])}")
    if any(x is None or x < minimum for x in v):
        raise MXNetError(f"{opname}: every entry of {name} must be >= {minimum}, got {v}")
    return v


def _plan(opname, attrs, dshape, deconv):
    kernel = tuple(attrs["kernel"])
    n = len(kernel)
    if not 1 <= n <= 3:
        raise MXNetError(f"{opname}: kernel {kernel} must have 1, 2 or 3 entries "
                         f"(1-D, 2-D or 3-D convolution)")
    if any(k is None or k < 1 for k in kernel):
        raise MXNetError(f"{opname}: every entry of kernel must be positive, got {kernel}")
    p = _Plan()
    p.opname, p.attrs, p.nsp, p.kernel, p.deconv = opname, attrs, n, kernel, deconv
    p.stride = _spatial_param(opname, attrs, "stride", n, 1, 1)
    p.dilate = _spatial_param(opname, attrs, "dilate", n, 1, 1)
    p.pad = _spatial_param(opname, attrs, "pad", n, 0, 0)
    p.adj = _spatial_param(opname, attrs, "adj", n, 0, 0) if deconv else (0,) * n
    layout = attrs["layout"]
    if layout is None:
        layout = _FIRST[n]
    if layout not in (_FIRST[n], _LAST.get(n)):
        raise MXNetError(f"{opname}: layout {layout} does not fit a {n}-D kernel {kernel}; "
                         f"expected {_FIRST[n]}" + (f" or {_LAST[n]}" if n in _LAST else ""))
    p.last = layout != _FIRST[n]
    g = attrs["num_group"]
    nf = attrs["num_filter"]
    if g < 1:
        raise MXNetError(f"{opname}: num_group must be positive, got {g}")
    if nf < 1:
        raise MXNetError(f"{opname}: num_filter must be positive, got {nf}")
    if attrs["workspace"] < 0:
        raise MXNetError(f"{opname}: workspace must be non-negative, got {attrs['workspace']}")
    p.groups = g
    dshape = tuple(dshape)
    p.dshape = dshape
    if len(dshape) != n + 2:
        raise MXNetError(f"{opname}: data must be {n + 2}-D ({layout}) for a {n}-D kernel "
                         f"{kernel}, got shape {dshape}")
    if p.last:
        batch, cin, ispace = dshape[0], dshape[-1], dshape[1:-1]
    else:
        batch, cin, ispace = dshape[0], dshape[1], dshape[2:]
    p.batch, p.cin, p.ispace = batch, cin, tuple(ispace)
    if cin is not None and cin % g:
        raise MXNetError(f"{opname}: the data's {cin} channels are not divisible by "
                         f"num_group={g} (data shape {dshape})")
    if nf % g:
        raise MXNetError(f"{opname}: num_filter={nf} is not divisible by num_group={g}")
    p.cout = nf
    dk = tuple(d * (k - 1) + 1 for k, d in zip(kernel, p.dilate))
    if deconv:
        p.ospace = _deconv_space(opname, attrs, p, dk)
        wch = (cin, nf // g)
    else:
        out = []
        for i, (s, k, st, pd) in enumerate(zip(ispace, dk, p.stride, p.pad)):
            if s is None:
                out.append(None)
                continue
            if k > s + 2 * pd:
                raise MXNetError(f"{opname}: the dilated kernel ({k}) exceeds the padded input "
                                 f"({s} + 2*{pd}) along spatial dim {i} {p.describe()}")
            out.append((s + 2 * pd - k) // st + 1)
        p.ospace = tuple(out)
        wch = (nf, None if cin is None else cin // g)
    # weight is (out-or-in channels, channels per group, *kernel) channel-first
    p.wshape = (wch[0],) + kernel + (wch[1],) if p.last else wch + kernel
    p.bshape = (nf,)
    p.oshape = ((batch,) + p.ospace + (nf,)) if p.last else (batch, nf) + p.ospace
    return p


def _deconv_space(opname, attrs, p, dk):
    target = tuple(attrs["target_shape"])
    use_target = any(t for t in target)
    if use_target and len(target) != p.nsp:
        raise MXNetError(f"{opname}: target_shape {target} must have as many entries as kernel "
                         f"{p.kernel}")
    out, pads, adjs = [], list(p.pad), list(p.adj)
    for i, s in enumerate(p.ispace):
        if s is None:
            out.append(None)
            continue
        full = p.stride[i] * (s - 1) + dk[i]
        if use_target:
            if target[i] is None or target[i] < 0 or full < target[i]:
                raise MXNetError(f"{opname}: target_shape {target} is too big: along spatial "
                                 f"dim {i} the largest output is {full} {p.describe()}")
            d = full - target[i]
            adjs[i], pads[i] = d % 2, (d + 1) // 2
        if adjs[i] > p.stride[i] - 1:
            raise MXNetError(f"{opname}: adj {adjs[i]} along spatial dim {i} must be smaller "
                             f"than the stride {p.stride[i]} {p.describe()}")
        o = full - 2 * pads[i] + adjs[i]
        if o < 1 and not use_target:
            raise MXNetError(f"{opname}: the output would have size {o} along spatial dim {i} "
                             f"{p.describe()}")
        out.append(o)
    p.pad, p.adj = tuple(pads), tuple(adjs)
    return tuple(out)


def _check_arrays(opname, p, x, w, b):
    names = ("data", "weight", "bias") if b is not None else ("data", "weight")
    dt = check_float_inputs(opname, names, (x, w, b) if b is not None else (x, w))
    if tuple(w.shape) != p.wshape:
        raise MXNetError(f"{opname}: weight has shape {tuple(w.shape)} but {p.wshape} is "
                         f"expected {p.describe()}")
    if b is not None and tuple(b.shape) != p.bshape:
        raise MXNetError(f"{opname}: bias has shape {tuple(b.shape)} but {p.bshape} is "
                         f"expected {p.describe()}")
    return dt


# ---------------------------------------------------------------------------------------------
# kernels on channel-first arrays: x (N, C, *S), w (F, C/G, *K), y (N, F, *O)


def _block_size(n, L):
    """Images per GEMM block: the smallest divisor b of n with b*L >= _GEMM_COLS.

    Large images get one GEMM each (no transposes at all); small ones are folded together
    so that the GEMMs stay wide.
    """
    for b in range(1, n + 1):
        if n % b == 0 and b * L >= _GEMM_COLS:
            return b
    return max(n, 1)


class _Conv:
    """One channel-first convolution ``y = conv(x, w)``: x (n, C, *S), w (F, C/G, *K),
    y (n, F, *O).

    Internally the batch is split into ``nblk`` blocks of ``b`` images and arrays are held
    blocked, (nblk, C, b, *spatial): each block is one GEMM per group, with columns
    (G, Cg*K, b*L).
    """

    def __init__(self, kernel, stride, dilate, pad, groups, ws_bytes, n, c, f, ispace, ospace):
        self.kernel, self.stride, self.dilate, self.pad = kernel, stride, dilate, pad
        self.n, self.c, self.f, self.g = n, c, f, groups
        self.ispace, self.ospace = tuple(ispace), tuple(ospace)
        self.pspace = tuple(s + 2 * q for s, q in zip(ispace, pad))
        self.ksize = math.prod(kernel)
        self.cg, self.fg = c // groups, f // groups
        self.L = math.prod(self.ospace)
        self.unit = (all(k == 1 for k in kernel) and all(s == 1 for s in stride)
                     and not any(pad))
        self.ws_bytes = ws_bytes
        self.b = _block_size(n, self.L)
        self.nblk = n // self.b if n else 0

    @classmethod
    def of_plan(cls, p):
        """The convolution behind a Convolution or Deconvolution plan."""
        args = (p.kernel, p.stride, p.dilate, p.pad, p.groups, p.attrs["workspace"] << 20,
                p.batch)
        if p.deconv:  # Deconvolution(x) is the data gradient of a conv from the output space
            return cls(*args, p.cout, p.cin, p.ospace, p.ispace)
        return cls(*args, p.cin, p.cout, p.ispace, p.ospace)

    # -- layout ------------------------------------------------------------------------------
    def blocked(self, a):
        """(n, C, *sp) -> a view (nblk, C, b, *sp)."""
        return a.reshape((self.nblk, self.b) + a.shape[1:]).swapaxes(1, 2)

    def unblocked(self, xp, a):
        """(nblk, C, b, *sp) -> contiguous (n, C, *sp)."""
        if self.b == 1:
            return xp.ascontiguousarray(a).reshape((self.n,) + a.shape[1:2] + a.shape[3:])
        return xp.ascontiguousarray(a.swapaxes(1, 2)).reshape(
            (self.n,) + a.shape[1:2] + a.shape[3:])

    def grouped(self, xp, gy):
        """Output-shaped (n, F, *O) as contiguous blocks (nblk, G, Fg, b*L)."""
        blk = self.blocked(gy.reshape(self.n, self.f, self.L))
        return xp.ascontiguousarray(blk).reshape(self.nblk, self.g, self.fg, self.b * self.L)

    def inner(self):
        return tuple(slice(q, q + s) for q, s in zip(self.pad, self.ispace))

    def padded(self, xp, x):
        """x (n, C, *S) zero-padded and blocked: (nblk, C, b, *P)."""
        xb = self.blocked(x)
        if not any(self.pad):
            return xb
        out = xp.zeros((self.nblk, self.c, self.b) + self.pspace, x.dtype)
        out[(slice(None),) * 3 + self.inner()] = xb
        return out

    def chunks(self, xp, itemsize):
        """Balanced ranges of blocks whose column buffers fit the workspace."""
        per = max(self.c * self.ksize * self.b * self.L * itemsize, 1)
        limit = max(min(self.ws_bytes, _COL_BYTES) if xp is np else self.ws_bytes, per)
        nblk = max(self.nblk, 1)
        count = -(-nblk // max(1, limit // per))
        size = -(-nblk // count)
        return size, [(i, min(i + size, self.nblk)) for i in range(0, nblk, size)]

    # -- im2col / col2im -----------------------------------------------------------------------
    def im2col(self, xp, xpad, buf):
        """Columns (m, G, Cg*K, b*L) of padded blocks (m, C, b, *P), written into ``buf``."""
        m = xpad.shape[0]
        if self.unit:
            return xpad.reshape(m, self.g, self.cg, self.b * self.L)
        st = xpad.strides
        sp = st[3:]
        shape = (m, self.c) + self.kernel + (self.b,) + self.ospace
        strides = (st[0], st[1]) + tuple(s * d for s, d in zip(sp, self.dilate)) + (st[2],) + \
            tuple(s * t for s, t in zip(sp, self.stride))
        win = xp.lib.stride_tricks.as_strided(xpad, shape, strides)
        col = buf[:math.prod(shape)].reshape(shape)
        col[...] = win
        return col.reshape(m, self.g, self.cg * self.ksize, self.b * self.L)

    def col2im(self, dcol, dxpad):
        """Add columns (m, C, *K, b, *O) into padded blocks (m, C, b, *P), tap by tap: each
        add covers all blocks, channels and pixels at once."""
        head = (slice(None),) * 3
        for tap in itertools.product(*[range(k) for k in self.kernel]):
            dst = head + tuple(slice(t * d, t * d + (o - 1) * s + 1, s) for t, d, o, s in
                               zip(tap, self.dilate, self.ospace, self.stride))
            dxpad[dst] += dcol[(slice(None), slice(None)) + tap]

    def wmat(self, w):
        return w.reshape(self.g, self.fg, self.cg * self.ksize)

    def transposed(self):
        """For stride 1 and pad <= dilated kernel - 1: the convolution whose forward pass is
        this one's data gradient (a full correlation with the flipped, transposed kernel)."""
        if any(s != 1 for s in self.stride):
            return None
        pad = tuple(d * (k - 1) - q for k, d, q in zip(self.kernel, self.dilate, self.pad))
        if any(q < 0 for q in pad):
            return None
        return _Conv(self.kernel, self.stride, self.dilate, pad, self.g, self.ws_bytes,
                     self.n, self.f, self.c, self.ospace, self.ispace)

    def flipped(self, xp, w):
        """Weight (F, Cg, *K) of this conv as the weight (C, Fg, *K) of ``transposed()``."""
        wg = w.reshape((self.g, self.fg, self.cg) + self.kernel).swapaxes(1, 2)
        wg = wg[(Ellipsis,) + (slice(None, None, -1),) * len(self.kernel)]
        return xp.ascontiguousarray(wg).reshape((self.c, self.fg) + self.kernel)


def _conv_forward(xp, x, w, cv):
    """y (n, F, *O) = conv(x, w)."""
    dt = x.dtype
    wm = cv.wmat(w)
    xpad = cv.padded(xp, x)
    size, ranges = cv.chunks(xp, dt.itemsize)
    buf = None if cv.unit else xp.empty(size * cv.c * cv.ksize * cv.b * cv.L, dt)
    y = xp.empty((cv.nblk, cv.g, cv.fg, cv.b * cv.L), dt)
    for i, j in ranges:
        xp.matmul(wm, cv.im2col(xp, xpad[i:j], buf), out=y[i:j])
    y = cv.unblocked(xp, y.reshape((cv.nblk, cv.f, cv.b, cv.L)))
    return y.reshape((cv.n, cv.f) + cv.ospace)


def _conv_dgrad(xp, gy, w, cv):
    """dx (n, C, *S) of y = conv(x, w) given gy (n, F, *O)."""
    tr = cv.transposed() if 8 * math.prod(cv.ispace) <= 9 * math.prod(cv.ospace) else None
    if tr is not None:  # always the case for stride 1 (1x1 kernels included)
        return _conv_forward(xp, gy, cv.flipped(xp, w), tr)
    dt = gy.dtype
    gb = cv.grouped(xp, gy)
    wt = cv.wmat(w).transpose(0, 2, 1)
    size, ranges = cv.chunks(xp, dt.itemsize)
    dbuf = xp.empty(size * cv.c * cv.ksize * cv.b * cv.L, dt)
    dxpad = xp.zeros((cv.nblk, cv.c, cv.b) + cv.pspace, dt)
    for i, j in ranges:
        m = j - i
        dcol = dbuf[:m * cv.c * cv.ksize * cv.b * cv.L].reshape(
            m, cv.g, cv.cg * cv.ksize, cv.b * cv.L)
        xp.matmul(wt, gb[i:j], out=dcol)
        cv.col2im(dcol.reshape((m, cv.c) + cv.kernel + (cv.b,) + cv.ospace), dxpad[i:j])
    if any(cv.pad):
        dxpad = dxpad[(slice(None),) * 3 + cv.inner()]
    return cv.unblocked(xp, dxpad)


def _conv_wgrad(xp, gy, x, cv):
    """dw (F, Cg, *K) of y = conv(x, w) given gy (n, F, *O)."""
    dt = gy.dtype
    gb = cv.grouped(xp, gy)
    xpad = cv.padded(xp, x)
    size, ranges = cv.chunks(xp, dt.itemsize)
    buf = None if cv.unit else xp.empty(size * cv.c * cv.ksize * cv.b * cv.L, dt)
    # With many columns, (Cg*K, Fg) products run faster and their one transpose is cheap;
    # with few (late stages, large weights) the transpose would cost more than it saves.
    tall = cv.n * cv.L >= _TALL_COLS
    dw = None
    for i, j in ranges:
        col = cv.im2col(xp, xpad[i:j], buf)
        if tall:
            part = xp.matmul(col, gb[i:j].transpose(0, 1, 3, 2))      # (m, G, Cg*K, Fg)
        else:
            part = xp.matmul(gb[i:j], col.transpose(0, 1, 3, 2))      # (m, G, Fg, Cg*K)
        part = part[0] if part.shape[0] == 1 else part.sum(axis=0)
        dw = part if dw is None else dw + part
    if dw is None:
        dw = xp.zeros((cv.g, cv.fg, cv.cg * cv.ksize), dt)
    elif tall:
        dw = xp.ascontiguousarray(dw.transpose(0, 2, 1))
    return dw.reshape((cv.f, cv.cg) + cv.kernel)


def _bias_grad(gy, last):
    axes = tuple(range(gy.ndim - 1)) if last else (0,) + tuple(range(2, gy.ndim))
    return gy.sum(axis=axes)


# ---------------------------------------------------------------------------------------------
# layout and dtype handling shared by the four operators


def _to_first(xp, a, last):
    return xp.moveaxis(a, -1, 1) if last else a


def _from_first(xp, a, last):
    return xp.ascontiguousarray(xp.moveaxis(a, 1, -1)) if last else a


def _add_bias(xp, y, b, last):
    if b is not None:
        y += b if last else b.reshape((-1,) + (1,) * (y.ndim - 2))
    return y


def _prepare(opname, attrs, x, w, b, deconv):
    p = _plan(opname, attrs, x.shape, deconv)
    dt = _check_arrays(opname, p, x, w, b)
    return p, dt, compute_dtype(dt)


def _convolution(rc, attrs, x, w, b=None):
    xp = rc.xp
    p, dt, ct = _prepare("Convolution", attrs, x, w, b, False)
    cv = _Conv.of_plan(p)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    wc = _to_first(xp, w.astype(ct, copy=False), p.last)
    y = _from_first(xp, _conv_forward(xp, xc, wc, cv), p.last)
    y = _add_bias(xp, y, None if b is None else b.astype(ct, copy=False), p.last)
    return y.astype(dt, copy=False)


def _backward_convolution(rc, attrs, gy, x, w):
    xp = rc.xp
    opname = "_backward_Convolution"
    p, dt, ct = _prepare(opname, attrs, x, w, None, False)
    if tuple(gy.shape) != p.oshape:
        raise MXNetError(f"{opname}: ograd has shape {tuple(gy.shape)} but {p.oshape} is "
                         f"expected {p.describe()}")
    cv = _Conv.of_plan(p)
    gc = _to_first(xp, gy.astype(ct, copy=False), p.last)
    dx = _conv_dgrad(xp, gc, _to_first(xp, w.astype(ct, copy=False), p.last), cv)
    dw = _conv_wgrad(xp, gc, _to_first(xp, x.astype(ct, copy=False), p.last), cv)
    res = [_from_first(xp, dx, p.last), _from_first(xp, dw, p.last)]
    if not attrs["no_bias"]:
        res.append(_bias_grad(gy.astype(ct, copy=False), p.last))
    return tuple(r.astype(dt, copy=False) for r in res)


def _backward_convolution_nodata(rc, attrs, gy, x, w):
    xp = rc.xp
    p, dt, ct = _prepare("_backward_Convolution", attrs, x, w, None, False)
    cv = _Conv.of_plan(p)
    gc = _to_first(xp, gy.astype(ct, copy=False), p.last)
    dw = _conv_wgrad(xp, gc, _to_first(xp, x.astype(ct, copy=False), p.last), cv)
    res = [_from_first(xp, dw, p.last)]
    if not attrs["no_bias"]:
        res.append(_bias_grad(gy.astype(ct, copy=False), p.last))
    res = tuple(r.astype(dt, copy=False) for r in res)
    return res if len(res) > 1 else res[0]


def _deconvolution(rc, attrs, x, w, b=None):
    xp = rc.xp
    p, dt, ct = _prepare("Deconvolution", attrs, x, w, b, True)
    cv = _Conv.of_plan(p)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    wc = _to_first(xp, w.astype(ct, copy=False), p.last)
    y = _conv_dgrad(xp, xc, wc, cv)
    y = _from_first(xp, y, p.last)
    y = _add_bias(xp, y, None if b is None else b.astype(ct, copy=False), p.last)
    return y.astype(dt, copy=False)


def _backward_deconvolution(rc, attrs, gy, x, w):
    xp = rc.xp
    opname = "_backward_Deconvolution"
    p, dt, ct = _prepare(opname, attrs, x, w, None, True)
    if tuple(gy.shape) != p.oshape:
        raise MXNetError(f"{opname}: ograd has shape {tuple(gy.shape)} but {p.oshape} is "
                         f"expected {p.describe()}")
    cv = _Conv.of_plan(p)
    gc = _to_first(xp, gy.astype(ct, copy=False), p.last)
    wc = _to_first(xp, w.astype(ct, copy=False), p.last)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    dx = _conv_forward(xp, gc, wc, cv)
    dw = _conv_wgrad(xp, xc, gc, cv)
    res = [_from_first(xp, dx, p.last), _from_first(xp, dw, p.last)]
    if not attrs["no_bias"]:
        res.append(_bias_grad(gy.astype(ct, copy=False), p.last))
    return tuple(r.astype(dt, copy=False) for r in res)


# ---------------------------------------------------------------------------------------------
# shape inference and gradients


def _infer(opname, deconv):
    def infer(attrs, ins, outs):
        ins = list(ins)
        nf = attrs["num_filter"]
        if ins[0] is None:
            if len(ins) > 2:
                ins[2] = merge(ins[2], (nf,))
            return ins, outs, []
        p = _plan(opname, attrs, ins[0], deconv)
        ctx = p.describe()
        check_given(opname, "weight", ins[1], p.wshape, ctx)
        ins[1] = merge(ins[1], p.wshape)
        if len(ins) > 2:
            check_given(opname, "bias", ins[2], p.bshape, ctx)
            ins[2] = p.bshape
        out = outs[0] if outs else None
        check_given(opname, "output", out, p.oshape, ctx)
        return ins, [merge(out, p.oshape)], []
    return infer


def _backward_infer(attrs, ins, outs):
    shapes = [ins[1], ins[2]] + ([] if attrs["no_bias"] else [(attrs["num_filter"],)])
    return ins, shapes, []


def _grad_of(opname):
    def grad(F, attrs, ins, outs, og):
        n = 2 if attrs["no_bias"] else 3
        need = _mode.need_grad
        if need is not None and not need[0] and opname == "_backward_Convolution":
            return [None] + as_list(F._backward_Convolution_nodata(og[0], ins[0], ins[1],
                                                                   **attrs), n - 1)
        return as_list(getattr(F, opname)(og[0], ins[0], ins[1], **attrs), n)
    return grad


def _backward_grad_of(fwd, bwd):
    """Second-order rule of ``bwd(g, x, w) -> (dx, dw[, db])``, bilinear in (g, x) and (g, w).

    With heads (hx, hw[, hb]): d/dg = fwd(hx, w, hb) + fwd(x, hw); d/dx = bwd(g, x, hw).dx;
    d/dw = bwd(g, hx, w).dw.
    """
    def grad(F, attrs, ins, outs, og):
        g, x, w = ins
        hx, hw = og[0], og[1]
        nb = dict(attrs, no_bias=True)
        f, b = getattr(F, fwd), getattr(F, bwd)
        dg = f(hx, w, **nb) if attrs["no_bias"] else f(hx, w, og[2], **attrs)
        dg = dg + f(x, hw, **nb)
        dx = as_list(b(g, x, hw, **nb), 2)[0]
        dw = as_list(b(g, hx, w, **nb), 2)[1]
        return [dg, dx, dw]
    return grad


_outputs = {"num_outputs": lambda a: 2 if a["no_bias"] else 3}

register("Convolution", _convolution, params=_CONV_PARAMS, inputs=_inputs,
         infer_shape=_infer("Convolution", False), infer_type=uniform_type("Convolution"),
         gradient=_grad_of("_backward_Convolution"),
         doc="1-D, 2-D or 3-D convolution (cross-correlation) with optional stride, dilation, "
             "zero padding and channel groups.")
register("_backward_Convolution", _backward_convolution, params=_CONV_PARAMS,
         inputs=("ograd", "data", "weight"), infer_shape=_backward_infer,
         infer_type=uniform_type("_backward_Convolution"),
         gradient=_backward_grad_of("Convolution", "_backward_Convolution"), **_outputs,
         doc="Gradients of Convolution with respect to data, weight and (unless no_bias) bias.")
register("Deconvolution", _deconvolution, params=_DECONV_PARAMS, inputs=_inputs,
         infer_shape=_infer("Deconvolution", True), infer_type=uniform_type("Deconvolution"),
         gradient=_grad_of("_backward_Deconvolution"),
         doc="Transposed convolution: the gradient of Convolution with respect to its data, "
             "mapping a small input to a larger output.")
register("_backward_Deconvolution", _backward_deconvolution, params=_DECONV_PARAMS,
         inputs=("ograd", "data", "weight"), infer_shape=_backward_infer,
         infer_type=uniform_type("_backward_Deconvolution"),
         gradient=_backward_grad_of("Deconvolution", "_backward_Deconvolution"), **_outputs,
         doc="Gradients of Deconvolution with respect to data, weight and (unless no_bias) "
             "bias.")


register("_backward_Convolution_nodata", _backward_convolution_nodata, params=_CONV_PARAMS,
         inputs=("ograd", "data", "weight"),
         infer_shape=lambda a, ins, outs: (
             ins, [ins[2]] + ([] if a["no_bias"] else [(a["num_filter"],)]), []),
         infer_type=uniform_type("_backward_Convolution_nodata"),
         num_outputs=lambda a: 1 if a["no_bias"] else 2,
         doc="Weight and bias gradients only, for when the data needs none.")
