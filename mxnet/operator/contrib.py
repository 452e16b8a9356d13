"""Contrib operators used by Gluon models, losses and common scripts (``mx.nd.contrib.X``).

Registered under their 1.9.1 names (``_contrib_X``): div_sqrt_dim, arange_like, quadratic,
boolean_mask, index_copy, index_array, gradientmultiplier, allclose, round_ste, sign_ste,
AdaptiveAvgPooling2D and BilinearResize2D, plus 1.9.1's explicit backward operators
backward_quadratic, backward_gradientmultiplier and backward_index_copy (which 1.9.1's
``mx.nd.contrib`` lists but whose generated functions cannot pass inputs; here they take
them positionally).

AdaptiveAvgPooling2D and BilinearResize2D are separable linear maps of the two spatial
axes: each builds a small (out, in) weight matrix per axis and applies ``Mh @ x @ Mw^T``.
Their backward operators apply the transposed matrices, and are themselves differentiable
(the adjoint of the adjoint is the forward map). float32 BilinearResize2D of moderate size
instead follows 1.9.1's per-pixel arithmetic and order of additions (``_bilinear_f32``).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ..base import MXNetError
from ._common import addition_ranks, normalize_axis, one_dtype_type, same_dtype, shape_err
from .registry import Param, register

__all__ = []


def _same_shape(attrs, in_shapes, out_shapes):
    known = next((s for s in list(in_shapes[:1]) + list(out_shapes) if s is not None), None)
    return [known] + list(in_shapes[1:]), [known] * len(out_shapes), []


def _same_type(attrs, in_types, out_types):
    known = next((t for t in list(in_types[:1]) + list(out_types) if t is not None), None)
    return [known] + list(in_types[1:]), [known] * len(out_types), []


def _zero_grad(F, attrs, inputs, outputs, out_grads):
    return [F.zeros_like(x) for x in inputs]


def _require_float(opname, *arrays):
    for a in arrays:
        if a.dtype.kind != "f":
            raise MXNetError(f"{opname}: this operation only supports floating point types, "
                             f"not {a.dtype}")


# ---------------------------------------------------------------------------------------------
# elementwise helpers


def _div_sqrt_dim(rc, attrs, data):
    if data.ndim == 0:
        raise shape_err("_contrib_div_sqrt_dim", "data must have at least one axis", data)
    # 1.9.1 converts sqrt(last dim) to the data's dtype before dividing (so int data is
    # divided by the truncated root)
    root = data.dtype.type(math.sqrt(data.shape[-1]))
    if data.dtype.kind == "f":
        return data / root
    return (data / root).astype(data.dtype)


register("_contrib_div_sqrt_dim", _div_sqrt_dim, infer_shape=_same_shape, infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [F._contrib_div_sqrt_dim(og[0])],
         doc="Divide the input by the square root of its last dimension.")


_QUAD_PARAMS = (Param("a", "float", 0.0, doc="Coefficient of the quadratic term."),
                Param("b", "float", 0.0, doc="Coefficient of the linear term."),
                Param("c", "float", 0.0, doc="Constant term."))


def _quadratic(rc, attrs, data):
    a, b, c = attrs["a"], attrs["b"], attrs["c"]
    if data.dtype.kind == "f":
        return (data * a + b) * data + data.dtype.type(c)
    x = data.astype(np.float64)
    return ((x * a + b) * x + c).astype(data.dtype)


def _quadratic_grad(F, attrs, inputs, outputs, out_grads):
    # d/dx (a x^2 + b x + c) = 2a x + b, itself a quadratic with coefficients (0, 2a, b)
    slope = F._contrib_quadratic(inputs[0], a=0.0, b=2.0 * attrs["a"], c=attrs["b"])
    return [F.elemwise_mul(out_grads[0], slope)]


register("_contrib_quadratic", _quadratic, params=_QUAD_PARAMS, infer_shape=_same_shape,
         infer_type=_same_type, gradient=_quadratic_grad, inplace=((0, 0),),
         doc="Elementwise a * x^2 + b * x + c.")


def _grad_mult(rc, attrs, data):
    return data.copy()


register("_contrib_gradientmultiplier", _grad_mult,
         params=(Param("scalar", "float", 1.0, doc="Factor applied to the gradient."),
                 Param("is_int", "bool", True, doc="Whether the scalar is an integer.")),
         infer_shape=_same_shape, infer_type=_same_type, inplace=((0, 0),),
         gradient=lambda F, a, ins, outs, og: [F._mul_scalar(og[0], scalar=a["scalar"],
                                                             is_int=False)],
         doc="Identity in the forward pass; multiplies the gradient by `scalar` in backward.")


def _round_ste(rc, attrs, data):
    xp = rc.xp
    if data.dtype.kind != "f":
        return data.copy()
    # copysign keeps the sign of zeros (round(-0.4) is -0.0, as std::round gives)
    return xp.copysign(xp.floor(xp.abs(data) + 0.5), data).astype(data.dtype)


def _sign_ste(rc, attrs, data):
    return rc.xp.sign(data)


def _straight_through(F, attrs, inputs, outputs, out_grads):
    return [F.identity(out_grads[0])]


register("_contrib_round_ste", _round_ste, infer_shape=_same_shape, infer_type=_same_type,
         gradient=_straight_through,
         doc="Round half away from zero; the gradient passes straight through (identity).")
register("_contrib_sign_ste", _sign_ste, infer_shape=_same_shape, infer_type=_same_type,
         gradient=_straight_through,
         doc="Sign of the input; the gradient passes straight through (identity).")


def _allclose(rc, attrs, a, b):
    if a.shape != b.shape:
        raise shape_err("_contrib_allclose", "a and b must have the same shape", a, b)
    same_dtype("_contrib_allclose", a, b)
    xp = rc.xp
    ok = xp.allclose(a.astype(np.float64), b.astype(np.float64), rtol=attrs["rtol"],
                     atol=attrs["atol"], equal_nan=attrs["equal_nan"])
    return xp.asarray(ok, dtype=np.uint8).reshape(())


register("_contrib_allclose", _allclose, inputs=("a", "b"),
         params=(Param("rtol", "float", 1e-5, doc="Relative tolerance."),
                 Param("atol", "float", 1e-8, doc="Absolute tolerance."),
                 Param("equal_nan", "bool", True, doc="Whether NaNs compare equal.")),
         infer_shape=lambda attrs, ins, outs: (ins, [()], []),
         infer_type=lambda attrs, ins, outs: (ins, [np.dtype(np.uint8)], []),
         doc="1 (uint8, shape ()) when |a - b| <= atol + rtol * |b| everywhere, else 0.")


# ---------------------------------------------------------------------------------------------
# index generators


def _arange_like(rc, attrs, data):
    xp = rc.xp
    axis = attrs["axis"]
    if axis is None:
        shape = data.shape
    else:
        shape = (data.shape[normalize_axis("_contrib_arange_like", axis, data.ndim)],)
    n = math.prod(shape)
    start, step, dt = attrs["start"], attrs["step"], data.dtype
    # as 1.9.1's arange: start and step cast to an integer dtype (truncated for float16),
    # and float32 values formed in float32 arithmetic
    if dt.kind in "iub":
        start, step = float(np.array(start).astype(dt)), float(np.array(step).astype(dt))
    elif dt == np.float16:
        start, step = float(np.trunc(start)), float(np.trunc(step))
    wt = np.float32 if dt == np.float32 else np.float64
    idx = xp.arange(n, dtype=wt) // max(attrs["repeat"], 1)
    vals = wt(start) + wt(step) * idx
    return vals.astype(dt).reshape(shape)


def _arange_like_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    if d is None:
        return in_shapes, out_shapes, []
    axis = attrs["axis"]
    out = tuple(d) if axis is None else (d[normalize_axis("_contrib_arange_like", axis,
                                                          len(d))],)
    return in_shapes, [out], []


register("_contrib_arange_like", _arange_like,
         params=(Param("start", "float", 0.0, doc="First value."),
                 Param("step", "float", 1.0, doc="Spacing between values."),
                 Param("repeat", "int", 1, doc="How many times each value repeats."),
                 Param("ctx", "str", "", doc="Context of the output (imperative calls)."),
                 Param("axis", "int", None, doc="Count along this axis only (default: the "
                                                "whole shape).")),
         infer_shape=_arange_like_shape, infer_type=_same_type, gradient=_zero_grad,
         doc="Evenly spaced values shaped like the input (or like one of its axes).")


def _index_array(rc, attrs, data):
    xp = rc.xp
    axes = attrs["axes"]
    if axes is None:
        axes = tuple(range(data.ndim))
    else:
        axes = tuple(normalize_axis("_contrib_index_array", a, data.ndim) for a in axes)
    grids = xp.indices(data.shape, dtype=np.int64)
    if not axes:
        return xp.zeros(data.shape + (0,), dtype=np.int64)
    return xp.stack([grids[a] for a in axes], axis=-1)


def _index_array_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    if d is None:
        return in_shapes, out_shapes, []
    n = len(d) if attrs["axes"] is None else len(attrs["axes"])
    return in_shapes, [tuple(d) + (n,)], []


register("_contrib_index_array", _index_array,
         params=(Param("axes", "shape", None, doc="The axes whose indices are listed "
                                                  "(default: all)."),),
         infer_shape=_index_array_shape,
         infer_type=lambda attrs, ins, outs: (ins, [np.dtype(np.int64)], []),
         gradient=_zero_grad,
         doc="For every element, its index along the chosen axes (int64, last axis holds the "
             "coordinates).")


# ---------------------------------------------------------------------------------------------
# masking and row copies


def _mask_positions(xp, opname, data, index, axis):
    if index.ndim != 1 or index.shape[0] != data.shape[axis]:
        raise shape_err(opname, f"index must be 1-D with length data.shape[{axis}]="
                        f"{data.shape[axis]}", data, index)
    return xp.nonzero(index != 0)[0]


def _boolean_mask(rc, attrs, data, index):
    xp = rc.xp
    if data.ndim == 0:
        raise shape_err("_contrib_boolean_mask", "data must have at least one axis", data)
    axis = normalize_axis("_contrib_boolean_mask", attrs["axis"], data.ndim)
    pos = _mask_positions(xp, "_contrib_boolean_mask", data, index, axis)
    return xp.take(data, pos, axis=axis)


def _boolean_mask_grad(F, attrs, inputs, outputs, out_grads):
    return [F._backward_contrib_boolean_mask(out_grads[0], inputs[0], inputs[1],
                                             axis=attrs["axis"]), None]


_MASK_PARAMS = (Param("axis", "int", 0, doc="The axis along which to select."),)

register("_contrib_boolean_mask", _boolean_mask, inputs=("data", "index"), params=_MASK_PARAMS,
         # the output takes data's dtype; index's dtype is free (as in 1.9.1)
         infer_type=lambda a, i, o: ([i[0] if i[0] is not None else o[0]] + list(i[1:]),
                                     [i[0] if i[0] is not None else o[0]], []),
         gradient=_boolean_mask_grad,
         doc="Keep the slices of `data` along `axis` where `index` is nonzero.")


def _backward_boolean_mask(rc, attrs, ograd, data, index):
    xp = rc.xp
    axis = normalize_axis("_backward_contrib_boolean_mask", attrs["axis"], data.ndim)
    pos = _mask_positions(xp, "_backward_contrib_boolean_mask", data, index, axis)
    out = xp.zeros(data.shape, dtype=ograd.dtype)
    out[(slice(None),) * axis + (pos,)] = ograd
    return out


register("_backward_contrib_boolean_mask", _backward_boolean_mask,
         inputs=("ograd", "data", "index"), params=_MASK_PARAMS,
         gradient=lambda F, a, ins, outs, og: [
             F._contrib_boolean_mask(og[0], ins[2], axis=a["axis"]), None, None],
         doc="Scatter the gradient of boolean_mask back to the kept slices.")


def _index_copy(rc, attrs, old, index, new):
    name = "_contrib_index_copy"
    if index.ndim != 1:
        raise shape_err(name, "index_vector must be 1-D", old, index, new)
    if old.ndim == 0 or new.ndim != old.ndim or new.shape[0] != index.shape[0] or \
            new.shape[1:] != old.shape[1:]:
        raise shape_err(name, "new_tensor must have shape (len(index_vector),) + "
                        "old_tensor.shape[1:]", old, index, new)
    same_dtype(name, old, new)
    idx = index.astype(np.int64)
    if bool(((idx < 0) | (idx >= old.shape[0])).any()):
        raise MXNetError(f"{name}: index_vector values must lie in [0, {old.shape[0] - 1}]; "
                         f"got {index.tolist()}")
    out = old.copy()
    out[idx] = new
    return out


def _index_copy_grad(F, attrs, inputs, outputs, out_grads):
    og = out_grads[0]
    old_grad = F._contrib_index_copy(og, inputs[1], F.zeros_like(inputs[2]))
    return [old_grad, None, F.take(og, inputs[1])]


register("_contrib_index_copy", _index_copy, inputs=("old_tensor", "index_vector", "new_tensor"),
         infer_shape=lambda attrs, ins, outs: (ins, [ins[0]], []),
         infer_type=lambda attrs, ins, outs: (ins, [ins[0]], []),
         gradient=_index_copy_grad,
         doc="A copy of old_tensor whose rows index_vector[i] are replaced by new_tensor[i].")


def _backward_index_copy(rc, attrs, ograd, old, index, new):
    """1.9.1's explicit backward: rows named by index go to new_tensor's gradient (the first
    position naming a row takes it), the other rows to old_tensor's; index gets zeros."""
    xp = rc.xp
    idx = index.astype(np.int64).reshape(-1)
    g_old = ograd.copy()
    g_old[idx] = 0
    first = xp.zeros(idx.shape, dtype=bool)
    if idx.size:
        order = idx.argsort(kind="stable") if xp is np else xp.argsort(idx)
        srt = idx[order]
        lead = xp.concatenate([xp.ones(1, dtype=bool), srt[1:] != srt[:-1]])
        first[order] = lead
    g_new = xp.where(first.reshape((-1,) + (1,) * (ograd.ndim - 1)), ograd[idx],
                     xp.zeros((), dtype=ograd.dtype)).astype(new.dtype)
    return g_old, xp.zeros(index.shape, dtype=index.dtype), g_new


register("_contrib_backward_index_copy", _backward_index_copy,
         inputs=("ograd", "old_tensor", "index_vector", "new_tensor"), num_outputs=3,
         infer_shape=lambda attrs, ins, outs: (ins, [ins[1], ins[2], ins[3]], []),
         infer_type=lambda attrs, ins, outs: (ins, [ins[1], ins[2], ins[3]], []),
         doc="Gradients of index_copy for (old_tensor, index_vector, new_tensor).")


def _backward_quadratic(rc, attrs, ograd, data):
    a, b = attrs["a"], attrs["b"]
    if data.dtype.kind == "f":
        return ograd * (data * data.dtype.type(2 * a) + data.dtype.type(b))
    return (ograd * (data.astype(np.float64) * (2 * a) + b)).astype(ograd.dtype)


register("_contrib_backward_quadratic", _backward_quadratic, inputs=("ograd", "data"),
         params=_QUAD_PARAMS,
         infer_shape=lambda attrs, ins, outs: (ins, [ins[1]], []),
         infer_type=lambda attrs, ins, outs: (ins, [ins[0]], []),
         doc="Gradient of quadratic: ograd * (2 * a * data + b).")

register("_contrib_backward_gradientmultiplier",
         lambda rc, attrs, data: data * data.dtype.type(attrs["scalar"]),
         params=(Param("scalar", "float", 1.0, doc="Factor applied to the gradient."),
                 Param("is_int", "bool", True, doc="Whether the scalar is an integer.")),
         infer_shape=_same_shape, infer_type=_same_type,
         doc="Gradient of gradientmultiplier: the output gradient times scalar.")


# ---------------------------------------------------------------------------------------------
# separable spatial resampling (NCHW)


def _separable(xp, x, mh, mw):
    """``mh @ x @ mw.T`` over the last two axes, accumulated in at least float32."""
    ct = np.float32 if x.dtype == np.float16 else x.dtype
    y = xp.matmul(xp.matmul(mh.astype(ct), x.astype(ct, copy=False)), mw.T.astype(ct))
    return y.astype(x.dtype, copy=False)


def _pool_matrix(xp, n_in, n_out):
    """Row i averages input positions [floor(i*n/m), ceil((i+1)*n/m))."""
    i = xp.arange(n_out, dtype=np.int64)
    start = (i * n_in) // n_out
    end = -((-(i + 1) * n_in) // n_out)
    j = xp.arange(n_in, dtype=np.int64)[None, :]
    inside = (j >= start[:, None]) & (j < end[:, None])
    return inside / (end - start)[:, None].astype(np.float64)


def _pool_size(attrs):
    size = attrs["output_size"]
    if size is None or len(size) == 0:
        return 1, 1
    if len(size) == 1:
        return size[0], size[0]
    if len(size) == 2:
        return size
    raise MXNetError(f"_contrib_AdaptiveAvgPooling2D: output_size must be an int or a pair "
                     f"(height, width), got {size}")


def _check_4d(opname, data):
    if data.ndim != 4:
        raise shape_err(opname, "data must be 4-D (batch, channel, height, width)", data)
    _require_float(opname, data)


# float32 AdaptiveAvgPooling2D on the CPU in 1.9.1's arithmetic: each window summed in
# float32 row by row, then divided by its width and by its height; the backward divides each
# output gradient by the height and the width and adds it into the window's pixels, output
# pixel after output pixel (row-major). Bit for bit 1.9.1's values; windows of up to this
# many pixels on arrays of moderate size take it (the separable matmuls are faster).
_ADAPTIVE_EXACT_WINDOW = 64
_ADAPTIVE_EXACT_MAX = 1 << 20


def _adaptive_windows(n_in, n_out):
    """Start and length of each output position's window along one axis."""
    i = np.arange(n_out, dtype=np.int64)
    start = (i * n_in) // n_out
    return start, -((-(i + 1) * n_in) // n_out) - start


def _adaptive_exact(xp, arr, in_hw, out_hw):
    if xp is not np or arr.dtype != np.float32 or arr.size == 0 or arr.size > _ADAPTIVE_EXACT_MAX:
        return False
    (H, W), (oh, ow) = in_hw, out_hw
    if min(H, W, oh, ow) <= 0:
        return False
    return (-(-H // oh) + 1) * (-(-W // ow) + 1) <= _ADAPTIVE_EXACT_WINDOW


def _take_index(idx):
    """``idx`` (increasing positions) as a slice where it is an arithmetic progression."""
    if len(idx) == 1:
        return slice(int(idx[0]), int(idx[0]) + 1)
    step = int(idx[1] - idx[0])
    if step > 0 and (np.diff(idx) == step).all():
        return slice(int(idx[0]), int(idx[-1]) + 1, step)
    return idx


def _ordered_window_sum(x, rs, rn, cs, cn):
    """Sums of float32 ``x`` (N, C, H, W) over windows of rows [rs[i], rs[i] + rn[i]) and
    columns [cs[j], cs[j] + cn[j]), each added one pixel at a time in row-major order (as
    1.9.1's loops add them). Returns (N, C, len(rs), len(cs))."""
    H, W = x.shape[2:]
    rows = [_take_index(np.minimum(rs + dh, H - 1)) for dh in range(int(rn.max()))]
    cols = [_take_index(np.minimum(cs + dw, W - 1)) for dw in range(int(cn.max()))]
    strided = all(isinstance(i, slice) for i in rows + cols)
    if not strided:   # gathers: pixels outermost, so each takes whole (N, C) blocks
        x = np.ascontiguousarray(x.transpose(2, 3, 0, 1))
    acc = np.zeros((x.shape[:2] + (len(rs), len(cs))) if strided
                   else ((len(rs), len(cs)) + x.shape[2:]), np.float32)
    col_in = [dw < cn for dw in range(len(cols))]
    col_full = [bool(m.all()) for m in col_in]
    for dh, ri in enumerate(rows):
        xr = x[:, :, ri] if strided else x[ri]
        row_in = dh < rn
        row_full = bool(row_in.all())
        for dw, ci in enumerate(cols):
            v = xr[..., ci] if strided else xr[:, ci]
            if row_full and col_full[dw]:
                acc += v
            else:
                mask = row_in[:, None] & col_in[dw][None, :]
                np.add(acc, v, out=acc, where=mask if strided else mask[:, :, None, None])
    return acc if strided else acc.transpose(2, 3, 0, 1)


def _adaptive_f32(x, oh, ow):
    H, W = x.shape[2:]
    hs, hn = _adaptive_windows(H, oh)
    ws, wn = _adaptive_windows(W, ow)
    acc = _ordered_window_sum(x, hs, hn, ws, wn)
    acc /= wn.astype(np.float32)[None, :]
    acc /= hn.astype(np.float32)[:, None]
    return acc


def _adaptive_covers(n_in, n_out):
    """For each input position: the first output window holding it and how many do."""
    start, length = _adaptive_windows(n_in, n_out)
    j = np.arange(n_in)[:, None]
    inside = (j >= start[None, :]) & (j < (start + length)[None, :])
    return inside.argmax(axis=1), inside.sum(axis=1)


def _adaptive_f32_backward(g, H, W):
    oh, ow = g.shape[2:]
    _, hn = _adaptive_windows(H, oh)
    _, wn = _adaptive_windows(W, ow)
    gs = g / hn.astype(np.float32)[:, None] / wn.astype(np.float32)[None, :]
    # each input pixel adds the gradients of the windows holding it, in output order
    hf, hc = _adaptive_covers(H, oh)
    wf, wc = _adaptive_covers(W, ow)
    return _ordered_window_sum(gs, hf, hc, wf, wc)


def _adaptive_avg_pool(rc, attrs, data):
    name = "_contrib_AdaptiveAvgPooling2D"
    _check_4d(name, data)
    oh, ow = _pool_size(attrs)
    if oh <= 0 or ow <= 0:
        raise MXNetError(f"{name}: output_size must be positive, got {(oh, ow)}")
    xp = rc.xp
    H, W = data.shape[2:]
    if _adaptive_exact(xp, data, (H, W), (oh, ow)):
        return _adaptive_f32(data, oh, ow)
    return _separable(xp, data, _pool_matrix(xp, H, oh), _pool_matrix(xp, W, ow))


def _adaptive_pool_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    if d is None:
        return in_shapes, out_shapes, []
    return in_shapes, [tuple(d[:2]) + tuple(_pool_size(attrs))], []


_POOL_PARAMS = (Param("output_size", "shape", (), doc="Output size: an int (square) or "
                                                      "(height, width)."),)

register("_contrib_AdaptiveAvgPooling2D", _adaptive_avg_pool, params=_POOL_PARAMS,
         infer_shape=_adaptive_pool_shape, infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_contrib_AdaptiveAvgPooling2D(og[0], ins[0])],
         doc="Average pooling whose windows adapt so that the output has `output_size`.")


def _adaptive_avg_pool_backward(rc, attrs, ograd, data):
    xp = rc.xp
    (oh, ow), (H, W) = ograd.shape[2:], data.shape[2:]
    if ograd.dtype == np.float32 and _adaptive_exact(xp, data, (H, W), (oh, ow)):
        return _adaptive_f32_backward(ograd, H, W)
    return _separable(xp, ograd, _pool_matrix(xp, H, oh).T, _pool_matrix(xp, W, ow).T)


register("_backward_contrib_AdaptiveAvgPooling2D", _adaptive_avg_pool_backward,
         inputs=("ograd", "data"),
         gradient=lambda F, a, ins, outs, og: [
             F._contrib_AdaptiveAvgPooling2D(og[0], output_size=tuple(ins[0].shape[2:])), None],
         doc="Gradient of AdaptiveAvgPooling2D (data only supplies the input shape).")


def _interp_matrix(xp, n_in, n_out, align_corners):
    """Bilinear weights (n_out, n_in) along one axis, with 1.9.1's source-index rule."""
    i = xp.arange(n_out, dtype=np.float64)
    if n_out <= 1:
        src = xp.zeros_like(i)
    elif align_corners:
        src = i * ((n_in - 1) / (n_out - 1))
    else:
        src = xp.maximum((i + 0.5) * (n_in / n_out) - 0.5, 0.0)
    i0 = xp.minimum(xp.floor(src).astype(np.int64), n_in - 1)
    i1 = xp.minimum(i0 + 1, n_in - 1)
    lam = src - i0
    j = xp.arange(n_in, dtype=np.int64)[None, :]
    return ((j == i0[:, None]) * (1.0 - lam)[:, None] + (j == i1[:, None]) * lam[:, None])


# float32 BilinearResize2D on the CPU, in 1.9.1's arithmetic: float32 source positions and
# weights per axis, each output pixel h0*(w0*p00 + w1*p01) + h1*(w0*p10 + w1*p11) rounded
# step by step, and the backward adding each pixel's four products (h*w)*g into the input
# gradient in the output's row-major order. Bit for bit 1.9.1's result; outputs of up to
# this many elements take it (the separable matmuls are faster on large ones).
_BILINEAR_EXACT_MAX = 1 << 16


def _bilinear_exact(xp, arr, data, n_out):
    return (xp is np and arr.dtype == np.float32 and data.size > 0
            and 0 < n_out <= _BILINEAR_EXACT_MAX)


def _bilinear_axis(n_in, n_out, align_corners):
    """Source rows (low, high) and float32 weights (low, high) along one axis."""
    f32 = np.float32
    i = np.arange(n_out).astype(f32)
    if n_out <= 1:   # a single output row reads row 0 in both modes
        src = np.zeros(n_out, f32)
    elif align_corners:
        src = f32((n_in - 1) / (n_out - 1)) * i
    else:
        # (the scale is a float, the half-pixel shift a double: one rounding at the end)
        scale = np.float64(f32(f32(n_in) / f32(n_out)))
        src = np.maximum(scale * (np.arange(n_out) + 0.5) - 0.5, 0).astype(f32)
    lo = src.astype(np.int64)
    hi = lo + (lo < n_in - 1)
    w_hi = src - lo.astype(f32)
    return lo, hi, f32(1) - w_hi, w_hi


def _bilinear_f32(x, oh, ow, align_corners):
    h0, h1, a0, a1 = _bilinear_axis(x.shape[2], oh, align_corners)
    w0, w1, b0, b1 = _bilinear_axis(x.shape[3], ow, align_corners)
    # the horizontal blend w0*p0 + w1*p1 depends on the input row only: once per input row
    rows = b0 * x[..., w0] + b1 * x[..., w1]
    return a0[:, None] * rows[:, :, h0] + a1[:, None] * rows[:, :, h1]


@functools.lru_cache(maxsize=64)
def _bilinear_gather_plan(H, W, oh, ow, align_corners):
    """1.9.1's backward adds, for each output pixel in row-major order, (h*w)*g into its four
    input positions. Sorted by input position, the k-th addition into each position (k = 0,
    1, ...) fills row k of a (K, H*W) table, whose rows summed in turn keep 1.9.1's order.
    Returns, for every slot of the table, the output pixel it reads (oh*ow: a zero past the
    last addition) and its weight, and K."""
    h0, h1, a0, a1 = _bilinear_axis(H, oh, align_corners)
    w0, w1, b0, b1 = _bilinear_axis(W, ow, align_corners)
    idx = np.stack([(h0 * W)[:, None] + w0, (h0 * W)[:, None] + w1,
                    (h1 * W)[:, None] + w0, (h1 * W)[:, None] + w1], -1).reshape(-1)
    wts = np.stack([a0[:, None] * b0, a0[:, None] * b1, a1[:, None] * b0, a1[:, None] * b1],
                   -1).reshape(-1)
    order, tgt, rank = addition_ranks(idx)
    k = int(rank.max()) + 1 if rank.size else 1
    pixel = np.full(k * H * W, oh * ow, np.int64)
    weight = np.ones(k * H * W, np.float32)
    pixel[rank * (H * W) + tgt] = order // 4
    weight[rank * (H * W) + tgt] = wts[order]
    return pixel, weight, k


def _bilinear_f32_backward(g, H, W, align_corners):
    N, C, oh, ow = g.shape
    pixel, weight, k = _bilinear_gather_plan(H, W, oh, ow, align_corners)
    flat = np.zeros((N * C, oh * ow + 1), np.float32)   # (a zero column for empty slots)
    flat[:, :-1] = g.reshape(N * C, oh * ow)
    table = (np.take(flat, pixel, axis=1) * weight).reshape(N * C, k, H * W)
    if k > 32:   # (large upsampling) NumPy's accumulate adds in the same order, in C
        return (np.add.accumulate(table, axis=1)[:, -1] + np.float32(0)).reshape(N, C, H, W)
    out = np.zeros((N * C, H * W), np.float32)   # (+0.0 first, as 1.9.1's zeroed gradient)
    for j in range(k):
        out += table[:, j]
    return out.reshape(N, C, H, W)


_RESIZE_MODES = ("like", "odd_scale", "size", "to_even_down", "to_even_up", "to_odd_down",
                 "to_odd_up")

_RESIZE_PARAMS = (
    Param("height", "int", 1, doc="Output height (mode 'size' without scale_height)."),
    Param("width", "int", 1, doc="Output width (mode 'size' without scale_width)."),
    Param("scale_height", "float", None, doc="Height scale (modes 'size' and 'odd_scale')."),
    Param("scale_width", "float", None, doc="Width scale (modes 'size' and 'odd_scale')."),
    Param("mode", "str", "size", choices=_RESIZE_MODES, doc="How the output size is chosen."),
    Param("align_corners", "bool", True, doc="Map the corner pixels of input and output onto "
                                             "each other."),
)


def _resize_out_size(attrs, H, W, like_shape=None):
    name = "_contrib_BilinearResize2D"
    for key in ("height", "width"):
        if attrs[key] < 1:
            # 1.9.1 checks these bounds whatever the mode
            raise MXNetError(f"{name}: {key} must be at least 1, got {attrs[key]}")
    mode = attrs["mode"]
    sh, sw = attrs["scale_height"], attrs["scale_width"]
    if mode == "like":
        if like_shape is None or len(like_shape) < 2:
            raise MXNetError(f"{name}: mode 'like' needs a `like` input with spatial axes")
        return int(like_shape[-2]), int(like_shape[-1])
    if mode in ("size", "odd_scale") and (sh is not None or mode == "odd_scale"):
        if sh is None or sw is None:
            raise MXNetError(f"{name}: mode '{mode}' with scales needs both scale_height and "
                             f"scale_width (got {sh}, {sw})")
        if mode == "size":
            return int(H * sh), int(W * sw)

        def odd(n, s):
            return int((n - 1) * s + 1) if n % 2 else int(n * s)
        return odd(H, sh), odd(W, sw)
    if mode == "size":
        return attrs["height"], attrs["width"]
    if mode == "to_even_down":
        return H - H % 2, W - W % 2
    if mode == "to_even_up":
        return H + H % 2, W + W % 2
    if mode == "to_odd_down":
        return H - (1 - H % 2), W - (1 - W % 2)
    return H + (1 - H % 2), W + (1 - W % 2)        # to_odd_up


def _resize(rc, attrs, data, *like):
    name = "_contrib_BilinearResize2D"
    _check_4d(name, data)
    H, W = data.shape[2:]
    oh, ow = _resize_out_size(attrs, H, W, like[0].shape if like else None)
    if oh < 0 or ow < 0:
        raise MXNetError(f"{name}: the output size {(oh, ow)} is negative")
    xp = rc.xp
    ac = attrs["align_corners"]
    if _bilinear_exact(xp, data, data, data.shape[0] * data.shape[1] * oh * ow):
        return _bilinear_f32(data, oh, ow, ac)
    return _separable(xp, data, _interp_matrix(xp, H, oh, ac), _interp_matrix(xp, W, ow, ac))


def _resize_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    like = in_shapes[1] if len(in_shapes) > 1 else None
    if d is None or (attrs["mode"] == "like" and like is None):
        return in_shapes, out_shapes, []
    oh, ow = _resize_out_size(attrs, d[2], d[3], like)
    return in_shapes, [tuple(d[:2]) + (oh, ow)], []


def _resize_grad(F, attrs, inputs, outputs, out_grads):
    g = F._backward_contrib_BilinearResize2D(out_grads[0], inputs[0],
                                             align_corners=attrs["align_corners"])
    return [g] + [None] * (len(inputs) - 1)


def _resize_type(attrs, in_types, out_types):
    """data's dtype for the output, and for an untyped ``like`` input (1.9.1)."""
    ins, outs, aux = _same_type(attrs, in_types, out_types)
    return ins[:1] + [ins[0] if t is None else t for t in ins[1:]], outs, aux


register("_contrib_BilinearResize2D", _resize, params=_RESIZE_PARAMS,
         inputs=lambda attrs: ["data", "like"] if attrs["mode"] == "like" else ["data"],
         infer_shape=_resize_shape, infer_type=_resize_type, gradient=_resize_grad,
         doc="Bilinear resize of NCHW data; the output size follows `mode`.")


def _resize_backward(rc, attrs, ograd, data):
    xp = rc.xp
    (oh, ow), (H, W) = ograd.shape[2:], data.shape[2:]
    ac = attrs["align_corners"]
    if _bilinear_exact(xp, ograd, data, ograd.size):
        return _bilinear_f32_backward(ograd, H, W, ac)
    return _separable(xp, ograd, _interp_matrix(xp, H, oh, ac).T,
                      _interp_matrix(xp, W, ow, ac).T)


def _resize_backward_grad(F, attrs, inputs, outputs, out_grads):
    oh, ow = inputs[0].shape[2:]
    return [F._contrib_BilinearResize2D(out_grads[0], height=oh, width=ow,
                                        align_corners=attrs["align_corners"]), None]


register("_backward_contrib_BilinearResize2D", _resize_backward, inputs=("ograd", "data"),
         params=(Param("align_corners", "bool", True),), gradient=_resize_backward_grad,
         doc="Gradient of BilinearResize2D (data only supplies the input shape).")


# ---------------------------------------------------------------------------------------------
# multi-head attention on interleaved projections (GluonNLP's transformer/BERT layers)
#
# The projections of every head lie interleaved along the last axis: for self-attention,
# (seq, batch, heads * 3 * head_dim) holds [q_h, k_h, v_h] per head; for encoder-decoder
# attention, keys_values holds [k_h, v_h] per head. Attention maps are (batch*heads, q, k).


def _heads_of(opname, x, heads, parts):
    if x.ndim != 3:
        raise shape_err(opname, "the projections must be 3-D (seq_len, batch, features)", x)
    if heads <= 0 or x.shape[2] % (heads * parts):
        raise shape_err(opname, f"the last axis must split into heads={heads} x {parts} "
                        "equal projections", x)
    return x.shape[2] // (heads * parts)


def _split(x, heads, parts):
    """(L, B, heads*parts*D) -> list of ``parts`` arrays (B*heads, L, D)."""
    L, B, F = x.shape
    D = F // (heads * parts)
    y = x.reshape(L, B, heads, parts, D).transpose(3, 1, 2, 0, 4)
    return [y[p].reshape(B * heads, L, D) for p in range(parts)]


def _merge(xp, pieces, L, B, heads):
    """Inverse of ``_split``: list of (B*heads, L, D) (None = zeros) -> (L, B, heads*n*D)."""
    ref = next(p for p in pieces if p is not None)
    D = ref.shape[2]
    full = [xp.zeros_like(ref) if p is None else p for p in pieces]
    y = xp.stack([p.reshape(B, heads, L, D) for p in full], axis=0)   # (n, B, h, L, D)
    return y.transpose(3, 1, 2, 0, 4).reshape(L, B, heads * len(pieces) * D)


def _bt(x):
    return x.transpose(0, 2, 1)


_HEADS = (Param("heads", "int", doc="Number of attention heads."),)


def _selfatt_qk(rc, attrs, qkv):
    name = "_contrib_interleaved_matmul_selfatt_qk"
    D = _heads_of(name, qkv, attrs["heads"], 3)
    q, k, _ = _split(qkv, attrs["heads"], 3)
    # as 1.9.1: GEMM with alpha = 1/sqrt(D), i.e. the scale applied to the finished sums
    return rc.xp.matmul(q, _bt(k)) * qkv.dtype.type(1.0 / math.sqrt(D))


def _selfatt_qk_bwd(rc, attrs, ograd, qkv):
    xp = rc.xp
    L, B, _ = qkv.shape
    D = _heads_of("_backward_interleaved_matmul_selfatt_qk", qkv, attrs["heads"], 3)
    q, k, _ = _split(qkv, attrs["heads"], 3)
    s = qkv.dtype.type(1.0 / math.sqrt(D))
    dq = xp.matmul(ograd, k) * s
    dk = xp.matmul(_bt(ograd), q) * s
    return _merge(xp, [dq, dk, None], L, B, attrs["heads"])


def _selfatt_valatt(rc, attrs, qkv, att):
    xp = rc.xp
    name = "_contrib_interleaved_matmul_selfatt_valatt"
    _heads_of(name, qkv, attrs["heads"], 3)
    L, B, _ = qkv.shape
    _, _, v = _split(qkv, attrs["heads"], 3)
    if att.shape != (B * attrs["heads"], L, L):
        raise shape_err(name, f"attention must have shape (batch*heads, seq_len, seq_len) = "
                        f"{(B * attrs['heads'], L, L)}", qkv, att)
    out = xp.matmul(att, v)
    return _merge(xp, [out], L, B, attrs["heads"])


def _selfatt_valatt_bwd(rc, attrs, ograd, qkv, att):
    xp = rc.xp
    L, B, _ = qkv.shape
    _, _, v = _split(qkv, attrs["heads"], 3)
    (g,) = _split(ograd, attrs["heads"], 1)
    datt = xp.matmul(g, _bt(v))
    dv = xp.matmul(_bt(att), g)
    return _merge(xp, [None, None, dv], L, B, attrs["heads"]), datt


def _encdec_qk(rc, attrs, queries, keys_values):
    xp = rc.xp
    name = "_contrib_interleaved_matmul_encdec_qk"
    D = _heads_of(name, queries, attrs["heads"], 1)
    Dk = _heads_of(name, keys_values, attrs["heads"], 2)
    if D != Dk or queries.shape[1] != keys_values.shape[1]:
        raise shape_err(name, "queries (Lq, B, heads*D) and keys_values (Lk, B, heads*2*D) "
                        "must agree on batch and head size", queries, keys_values)
    (q,) = _split(queries, attrs["heads"], 1)
    k, _ = _split(keys_values, attrs["heads"], 2)
    return xp.matmul(q, _bt(k)) * queries.dtype.type(1.0 / math.sqrt(D))   # alpha, as 1.9.1


def _encdec_qk_bwd(rc, attrs, ograd, queries, keys_values):
    xp = rc.xp
    h = attrs["heads"]
    Lq, B, _ = queries.shape
    Lk = keys_values.shape[0]
    (q,) = _split(queries, h, 1)
    k, _ = _split(keys_values, h, 2)
    s = queries.dtype.type(1.0 / math.sqrt(q.shape[2]))
    dq = xp.matmul(ograd, k) * s
    dk = xp.matmul(_bt(ograd), q) * s
    return _merge(xp, [dq], Lq, B, h), _merge(xp, [dk, None], Lk, B, h)


def _encdec_valatt(rc, attrs, keys_values, att):
    xp = rc.xp
    name = "_contrib_interleaved_matmul_encdec_valatt"
    h = attrs["heads"]
    _heads_of(name, keys_values, h, 2)
    Lk, B, _ = keys_values.shape
    if att.ndim != 3 or att.shape[0] != B * h or att.shape[2] != Lk:
        raise shape_err(name, f"attention must have shape (batch*heads={B * h}, query_len, "
                        f"key_len={Lk})", keys_values, att)
    _, v = _split(keys_values, h, 2)
    return _merge(xp, [xp.matmul(att, v)], att.shape[1], B, h)


def _encdec_valatt_bwd(rc, attrs, ograd, keys_values, att):
    xp = rc.xp
    h = attrs["heads"]
    Lk, B, _ = keys_values.shape
    _, v = _split(keys_values, h, 2)
    (g,) = _split(ograd, h, 1)
    return _merge(xp, [None, xp.matmul(_bt(att), g)], Lk, B, h), xp.matmul(g, _bt(v))


def _attention_op(name, fwd, bwd, inputs, doc):
    bname = "_backward_" + name[len("_contrib_"):]

    def gradient(F, attrs, ins, outs, og):
        res = getattr(F, bname)(og[0], *ins, heads=attrs["heads"])
        return list(res) if isinstance(res, (list, tuple)) else [res]

    register(name, fwd, inputs=inputs, params=_HEADS, gradient=gradient, doc=doc,
             infer_type=one_dtype_type)
    register(bname, bwd, inputs=("ograd",) + inputs, params=_HEADS,
             num_outputs=len(inputs), doc=f"Gradient of {name}.")


_attention_op("_contrib_interleaved_matmul_selfatt_qk", _selfatt_qk, _selfatt_qk_bwd,
              ("queries_keys_values",),
              "Scaled q k^T per head from interleaved self-attention projections.")
_attention_op("_contrib_interleaved_matmul_selfatt_valatt", _selfatt_valatt, _selfatt_valatt_bwd,
              ("queries_keys_values", "attention"),
              "Attention-weighted values per head from interleaved self-attention projections.")
_attention_op("_contrib_interleaved_matmul_encdec_qk", _encdec_qk, _encdec_qk_bwd,
              ("queries", "keys_values"),
              "Scaled q k^T per head for encoder-decoder attention (keys/values interleaved).")
_attention_op("_contrib_interleaved_matmul_encdec_valatt", _encdec_valatt, _encdec_valatt_bwd,
              ("keys_values", "attention"),
              "Attention-weighted values per head for encoder-decoder attention.")
