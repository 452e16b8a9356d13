"""Convolution and Deconvolution (transposed convolution) over 1, 2 or 3 spatial dims.

The array work is in ``conv_kernels``, on channel-first arrays: ``conv_forward`` (im2col and
one GEMM per group and block of images), ``conv_dgrad`` (the transposed convolution for
stride 1, else a GEMM into columns and col2im into the input gradient's stride phases) and
``conv_wgrad`` (im2col and a GEMM against the output gradient); Convolution's backward pass
calls both through ``conv_backward``, which runs them in one turn of the op threads.

Deconvolution is the transpose of Convolution: its forward pass is Convolution's dgrad and
its backward pass uses Convolution's forward (for data) and wgrad (for weight).

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

All five kernels take ``out=`` (see the registry): channel-first float32/float64 results
are computed straight into the given arrays (bit for bit what a call without ``out``
returns); float16 and channel-last results are computed apart and returned as they are.

Inputs must share one floating dtype. float16 is computed in float32 and rounded back
(1.9.1 has no float16 convolution on a CPU); so is bfloat16 (with ml_dtypes), rounded to
nearest even as 1.9.1's oneDNN convolution does.

1.9.1's own CPU Deconvolution kernel (used for float64, or with oneDNN disabled) is wrong
when dilate > 1: it repeats neighbouring output values. This module follows the definition,
which is what 1.9.1's oneDNN (float32) and cuDNN paths compute.
"""
from __future__ import annotations

from ..base import MXNetError
from ._gemm_threads import matmul
from .conv_kernels import (Conv, add_channel_bias, conv_backward, conv_dgrad, conv_forward,
                           conv_wgrad, deconv_backward)
from .nn_dense import as_list, check_float_inputs, check_given, compute_dtype, merge, uniform_type
from .registry import Param, register
from .._mode import mode as _mode

_LAYOUTS = ("NCDHW", "NCHW", "NCW", "NDHWC", "NHWC")
_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_LAST = {2: "NHWC", 3: "NDHWC"}


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


def _conv_attr_check(opname, attrs):
    """What 1.9.1 refuses when the operator is created, before any shape is known."""
    kernel = tuple(attrs["kernel"])
    if len(kernel) > 3:
        raise MXNetError(f"{opname}: kernel {kernel} must have 1, 2 or 3 entries "
                         f"(1-D, 2-D or 3-D convolution)")
    for name in ("stride", "dilate", "pad", "adj"):
        v = tuple(attrs.get(name) or ())
        if v and len(v) != len(kernel):
            raise MXNetError(f"{opname}: {name} {v} must have as many entries as kernel "
                             f"{kernel}")
    if attrs["num_filter"] < 1:
        raise MXNetError(f"{opname}: num_filter must be positive, got {attrs['num_filter']}")


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
            if not use_target and adjs[i] > p.stride[i] - 1:  # 1.9.1 checks it without s
                raise MXNetError(f"{opname}: adj {adjs[i]} along spatial dim {i} must be "
                                 f"smaller than the stride {p.stride[i]} {p.describe()}")
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


def _conv_of_plan(p):
    """The convolution behind a Convolution or Deconvolution plan."""
    args = (p.kernel, p.stride, p.dilate, p.pad, p.groups, p.attrs["workspace"] << 20, p.batch)
    if p.deconv:  # Deconvolution(x) is the data gradient of a conv from the output space
        return Conv(*args, p.cout, p.cin, p.ospace, p.ispace)
    return Conv(*args, p.cin, p.cout, p.ispace, p.ospace)


def _bias_grad(xp, gy, last, out=None):
    """Sum of gy over every axis but the channel one, as one matrix-vector product per image
    (several times faster than a reduction over the non-contiguous axes); into ``out`` when
    given."""
    f = gy.shape[-1] if last else gy.shape[1]
    if last:
        return matmul(xp, xp.ones(gy.size // f, gy.dtype), gy.reshape(-1, f), out=out)
    g = xp.ascontiguousarray(gy).reshape(gy.shape[0], f, -1)
    return xp.sum(g @ xp.ones(g.shape[2], gy.dtype), axis=0, out=out)


# ---------------------------------------------------------------------------------------------
# layout and dtype handling shared by the four operators


def _to_first(xp, a, last):
    return xp.moveaxis(a, -1, 1) if last else a


def _from_first(xp, a, last):
    return xp.ascontiguousarray(xp.moveaxis(a, 1, -1)) if last else a


def _add_bias(xp, y, b, last):
    if b is not None:
        if last:
            y += b
        else:
            add_channel_bias(xp, y, b)
    return y


def _prepare(opname, attrs, x, w, b, deconv):
    p = _plan(opname, attrs, x.shape, deconv)
    dt = _check_arrays(opname, p, x, w, b)
    return p, dt, compute_dtype(dt)


def _outs(out, p, dt, ct, shapes):
    """Per result, the given ``out`` array it may be computed into, or None. Results are
    computed into ``out`` for channel-first layouts in the compute dtype (float16 and
    channel-last results are made apart and returned as they are)."""
    if out is None or p.last or dt != ct:
        return [None] * len(shapes)
    res = []
    for k, shape in enumerate(shapes):
        o = out[k] if k < len(out) else None
        ok = (o is not None and tuple(o.shape) == tuple(shape) and o.dtype == dt and
              o.flags.c_contiguous)
        res.append(o if ok else None)
    return res


def _finish(xp, res, p, dt, spatial):
    """The results in the user's layout and dtype; the first ``spatial`` ones are
    channel-first arrays (data and weight gradients), the rest bias gradients."""
    return tuple((_from_first(xp, r, p.last) if k < spatial else r).astype(dt, copy=False)
                 for k, r in enumerate(res))


def _convolution(rc, attrs, x, w, b=None, out=None):
    xp = rc.xp
    p, dt, ct = _prepare("Convolution", attrs, x, w, b, False)
    (yo,) = _outs(out, p, dt, ct, [p.oshape])
    cv = _conv_of_plan(p)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    wc = _to_first(xp, w.astype(ct, copy=False), p.last)
    bc = None if b is None else b.astype(ct, copy=False)
    y = _from_first(xp, conv_forward(xp, xc, wc, cv, yo, bc), p.last)
    return y.astype(dt, copy=False)


def _check_ograd(opname, p, gy):
    if tuple(gy.shape) != p.oshape:
        raise MXNetError(f"{opname}: ograd has shape {tuple(gy.shape)} but {p.oshape} is "
                         f"expected {p.describe()}")


def _backward_setup(rc, opname, attrs, gy, x, w, deconv, out, with_data):
    """What every backward kernel starts with: the plan, dtypes, output buffers (data
    gradient when ``with_data``, weight, bias), the conv geometry and the channel-first
    output gradient in the compute type."""
    p, dt, ct = _prepare(opname, attrs, x, w, None, deconv)
    _check_ograd(opname, p, gy)
    shapes = ([x.shape] if with_data else []) + [w.shape, p.bshape]
    outs = _outs(out, p, dt, ct, shapes)
    gc = _to_first(rc.xp, gy.astype(ct, copy=False), p.last)
    return p, dt, ct, outs, _conv_of_plan(p), gc


def _backward_convolution(rc, attrs, gy, x, w, out=None):
    xp = rc.xp
    p, dt, ct, outs, cv, gc = _backward_setup(rc, "_backward_Convolution", attrs, gy, x, w,
                                              False, out, True)
    wc = _to_first(xp, w.astype(ct, copy=False), p.last)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    if attrs["no_bias"]:
        return _finish(xp, conv_backward(xp, gc, xc, wc, cv, outs[0], outs[1]), p, dt, 2)
    # the bias gradient comes out of the weight gradient's GEMM where that is cheaper
    dx, dw, db = conv_backward(xp, gc, xc, wc, cv, outs[0], outs[1], True, outs[2])
    if db is None:
        db = _bias_grad(xp, gy.astype(ct, copy=False), p.last, outs[2])
    return _finish(xp, [dx, dw, db], p, dt, 2)


def _backward_convolution_nodata(rc, attrs, gy, x, w, out=None):
    xp = rc.xp
    p, dt, ct, outs, cv, gc = _backward_setup(rc, "_backward_Convolution", attrs, gy, x, w,
                                              False, out, False)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    if attrs["no_bias"]:
        res = [conv_wgrad(xp, gc, xc, cv, outs[0])]
    else:
        dw, db = conv_wgrad(xp, gc, xc, cv, outs[0], True, outs[1])
        if db is None:
            db = _bias_grad(xp, gy.astype(ct, copy=False), p.last, outs[1])
        res = [dw, db]
    res = _finish(xp, res, p, dt, 1)
    return res if len(res) > 1 else res[0]


def _deconvolution(rc, attrs, x, w, b=None, out=None):
    xp = rc.xp
    p, dt, ct = _prepare("Deconvolution", attrs, x, w, b, True)
    (yo,) = _outs(out, p, dt, ct, [p.oshape])
    cv = _conv_of_plan(p)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    wc = _to_first(xp, w.astype(ct, copy=False), p.last)
    y = _from_first(xp, conv_dgrad(xp, xc, wc, cv, yo), p.last)
    y = _add_bias(xp, y, None if b is None else b.astype(ct, copy=False), p.last)
    return y.astype(dt, copy=False)


def _backward_deconvolution(rc, attrs, gy, x, w, out=None):
    xp = rc.xp
    p, dt, ct, outs, cv, gc = _backward_setup(rc, "_backward_Deconvolution", attrs, gy, x, w,
                                              True, out, True)
    wc = _to_first(xp, w.astype(ct, copy=False), p.last)
    xc = _to_first(xp, x.astype(ct, copy=False), p.last)
    res = list(deconv_backward(xp, gc, xc, wc, cv, outs[0], outs[1]))
    if not attrs["no_bias"]:
        res.append(_bias_grad(xp, gy.astype(ct, copy=False), p.last, outs[2]))
    return _finish(xp, res, p, dt, 2)


# ---------------------------------------------------------------------------------------------
# shape inference and gradients


def _infer(opname, deconv):
    def infer(attrs, ins, outs):
        ins = list(ins)
        if ins[0] is None:  # as in 1.9.1, the bias shape also waits for the data shape
            return ins, outs, []
        out = outs[0] if outs else None
        if ins[0][0] is None and all(d is not None for d in ins[0][1:]):
            # legacy partial shape: the batch (first) dimension is unknown; take it from the
            # output when that is known, else infer everything else with a stand-in batch
            if out is not None and out[0] is not None:
                ins[0] = (out[0],) + tuple(ins[0][1:])
            else:
                p = _plan(opname, attrs, (1,) + tuple(ins[0][1:]), deconv)
                ins[1] = merge(ins[1], p.wshape)
                if len(ins) > 2:
                    ins[2] = merge(ins[2], p.bshape)
                return ins, [merge(out, (None,) + tuple(p.oshape[1:]))], []
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
         accepts_out=True, attr_check=_conv_attr_check,
         infer_shape=_infer("Convolution", False), infer_type=uniform_type("Convolution"),
         gradient=_grad_of("_backward_Convolution"),
         doc="1-D, 2-D or 3-D convolution (cross-correlation) with optional stride, dilation, "
             "zero padding and channel groups.")
register("_backward_Convolution", _backward_convolution, params=_CONV_PARAMS,
         accepts_out=True,
         inputs=("ograd", "data", "weight"), infer_shape=_backward_infer,
         infer_type=uniform_type("_backward_Convolution"),
         gradient=_backward_grad_of("Convolution", "_backward_Convolution"), **_outputs,
         doc="Gradients of Convolution with respect to data, weight and (unless no_bias) bias.")
register("Deconvolution", _deconvolution, params=_DECONV_PARAMS, inputs=_inputs,
         accepts_out=True, attr_check=_conv_attr_check,
         infer_shape=_infer("Deconvolution", True), infer_type=uniform_type("Deconvolution"),
         gradient=_grad_of("_backward_Deconvolution"),
         doc="Transposed convolution: the gradient of Convolution with respect to its data, "
             "mapping a small input to a larger output.")
register("_backward_Deconvolution", _backward_deconvolution, params=_DECONV_PARAMS,
         accepts_out=True,
         inputs=("ograd", "data", "weight"), infer_shape=_backward_infer,
         infer_type=uniform_type("_backward_Deconvolution"),
         gradient=_backward_grad_of("Deconvolution", "_backward_Deconvolution"), **_outputs,
         doc="Gradients of Deconvolution with respect to data, weight and (unless no_bias) "
             "bias.")


register("_backward_Convolution_nodata", _backward_convolution_nodata, params=_CONV_PARAMS,
         accepts_out=True,
         inputs=("ograd", "data", "weight"),
         infer_shape=lambda a, ins, outs: (
             ins, [ins[2]] + ([] if a["no_bias"] else [(a["num_filter"],)]), []),
         infer_type=uniform_type("_backward_Convolution_nodata"),
         num_outputs=lambda a: 1 if a["no_bias"] else 2,
         doc="Weight and bias gradients only, for when the data needs none.")
