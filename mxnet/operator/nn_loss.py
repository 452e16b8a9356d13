"""Loss helpers: MakeLoss, make_loss, smooth_l1 and softmax_cross_entropy.

* ``MakeLoss`` / ``make_loss`` pass their input through and mark it as a loss: their
  backward ignores the head gradient. MakeLoss's is ``grad_scale`` divided by 1, the number
  of rows (``normalization='batch'``; 1.9.1 flattens all but the last axis into rows, so a
  1-d input counts as one row) or the number of elements above ``valid_thresh``
  (``'valid'``, at least 1); make_loss's is 1.
* ``smooth_l1(x, scalar=sigma)`` is ``0.5 (sigma x)^2`` where ``|x| < 1 / sigma^2`` and
  ``|x| - 0.5 / sigma^2`` elsewhere.
* ``softmax_cross_entropy(data, label)`` sums ``-log softmax(data)[i, label[i]]`` over the
  batch into a (1,) array; ``data`` is 2-d, ``label`` 1-d class indices (truncated to int).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from ._safe_acc import plain_softmax_f16
from .nn_activation import check_float, softmax_forward
from .nn_output import _class_index
from .registry import Param, register

_F32 = np.float32


def _same(attrs, ins, outs):
    known = next((s for s in list(ins) + list(outs) if s is not None), None)
    return [known] * len(ins), [known] * len(outs), []


# ---------------------------------------------------------------------------------------------
# MakeLoss, make_loss

_MAKELOSS_PARAMS = (
    Param("grad_scale", "float", 1.0, doc="The gradient of every element."),
    Param("valid_thresh", "float", 0.0,
          doc="With normalization='valid', elements above this count as valid."),
    Param("normalization", "str", "null", choices=("batch", "null", "valid"),
          doc="Divide the gradient by nothing, the batch size or the number of valid elements."),
)


def _identity(rc, attrs, x):
    return x.copy()


def _make_loss_backward(rc, attrs, x):
    xp = rc.xp
    norm = attrs["normalization"]
    if norm == "batch":                 # 1.9.1 views the data as 2-d: rows = size / last dim
        count = x.size // x.shape[-1] if x.ndim and x.shape[-1] else 1
    elif norm == "valid":
        thresh = x.dtype.type(_F32(attrs["valid_thresh"])) if x.dtype.kind == "f" else \
            attrs["valid_thresh"]
        count = max(int(xp.sum(x > thresh)), 1)
    else:
        count = 1
    value = _F32(attrs["grad_scale"]) / _F32(count)
    return xp.full(x.shape, value, dtype=x.dtype)


register("MakeLoss", _identity, params=_MAKELOSS_PARAMS, infer_shape=_same, infer_type=_same,
         gradient=lambda F, a, ins, outs, og: [F._backward_MakeLoss(ins[0], **a)],
         doc="Mark the input as a loss: the identity, with a constant backward (``grad_scale``, "
             "optionally normalised).")
register("_backward_MakeLoss", _make_loss_backward, params=_MAKELOSS_PARAMS, infer_shape=_same,
         infer_type=_same, doc="The gradient of MakeLoss.")

register("make_loss", _identity, infer_shape=_same, infer_type=_same, output_names=("loss",),
         gradient=lambda F, a, ins, outs, og: [F.ones_like(ins[0])],
         doc="Mark the input as a loss: the identity, whose backward is 1 everywhere.")


# ---------------------------------------------------------------------------------------------
# smooth_l1

_SL1_PARAMS = (Param("scalar", "float", 1.0, doc="sigma: the quadratic zone is |x| < 1/sigma^2."),
               Param("is_int", "bool", True, doc="Accepted for compatibility; unused."))


def _sigma_sq(attrs, dtype):
    s = dtype.type(attrs["scalar"])
    return s * s


def _smooth_l1(rc, attrs, x):
    xp = rc.xp
    if x.dtype == np.bool_:
        raise MXNetError(f"smooth_l1: boolean input is not supported (1.9.1 has no bool kernel; "
                         f"input shape {tuple(x.shape)}); cast it first")
    if x.dtype == np.float16:   # 1.9.1: float16 sigma, everything else in float32
        xw, bsq = x.astype(np.float32), np.float32(np.float16(attrs["scalar"])) ** 2
    elif x.dtype.kind == "f":
        xw, bsq = x, _sigma_sq(attrs, x.dtype)
    else:   # 1.9.1: sigma cast to the integer type, the arithmetic in float32
        xw = x.astype(np.float32)
        bsq = np.float32(np.trunc(attrs["scalar"])) ** 2
    inv = xw.dtype.type(np.inf) if bsq == 0 else 1 / bsq
    ax = xp.abs(xw)
    half_inv = xw.dtype.type(0.5) / bsq if bsq != 0 else inv
    out = xp.where(ax > inv, ax - half_inv, 0.5 * xw * xw * bsq)
    return out.astype(x.dtype, copy=False)


def _smooth_l1_backward(rc, attrs, og, x):
    xp = rc.xp
    if x.dtype == np.float16:   # 1.9.1: float16 sigma squared in float32; the derivative
        # and the product with the head gradient each rounded to float16
        xw, og = x.astype(np.float32), og.astype(np.float32)
        bsq = np.float32(np.float16(attrs["scalar"])) ** 2
    else:
        xw = x if x.dtype.kind == "f" else x.astype(np.float64)
        bsq = _sigma_sq(attrs, xw.dtype)
    inv = xw.dtype.type(np.inf) if bsq == 0 else 1 / bsq
    d = xp.where(xw > inv, 1, xp.where(xw < -inv, -1, xw * bsq)).astype(xw.dtype, copy=False)
    if x.dtype == np.float16:
        d = d.astype(np.float16).astype(np.float32)
    return (og * d).astype(x.dtype, copy=False)


register("smooth_l1", _smooth_l1, params=_SL1_PARAMS, infer_shape=_same, infer_type=_same,
         gradient=lambda F, a, ins, outs, og: [F._backward_smooth_l1(og[0], ins[0], **a)],
         doc="The smooth L1 (Huber-like) function of each element, with sigma = ``scalar``.")
register("_backward_smooth_l1", _smooth_l1_backward, params=_SL1_PARAMS, inputs=("ograd", "data"),
         infer_shape=lambda a, i, o: (list(i), [i[1]], []),
         infer_type=lambda a, i, o: (list(i), [i[1]], []), doc="The gradient of smooth_l1.")


# ---------------------------------------------------------------------------------------------
# softmax_cross_entropy


def _sce_check(dshape, lshape):
    if len(dshape) != 2:
        raise MXNetError(f"softmax_cross_entropy: data must be 2-d (batch, classes), got shape "
                         f"{tuple(dshape)}")
    if len(lshape) != 1 or lshape[0] != dshape[0]:
        raise MXNetError(f"softmax_cross_entropy: label must be 1-d with one class index per "
                         f"row of data {tuple(dshape)}, got shape {tuple(lshape)}")


def _sce_hit(xp, label, k):
    return _class_index(xp, label)[:, None] == xp.arange(k)[None, :]


def _softmax_cross_entropy(rc, attrs, data, label):
    check_float("softmax_cross_entropy", data)
    _sce_check(data.shape, label.shape)
    xp = rc.xp
    hit = _sce_hit(xp, label, data.shape[1])
    if data.dtype == np.float16 and xp is np:
        # 1.9.1 on float16: exponentials rounded to float16, a float16 running row sum,
        # float16 quotients and logs, and the per-row losses added up in float16
        with np.errstate(all="ignore"):
            pick = np.where(hit, plain_softmax_f16(data, 1), np.float16(1)).prod(axis=1)
            nll = -np.log(pick.astype(np.float32)).astype(np.float16)
            loss = np.add.accumulate(nll)[-1:] if nll.size else np.zeros(1, np.float16)
        return loss
    logp = softmax_forward(xp, data, 1, kind="log_softmax")
    return (-xp.sum(xp.where(hit, logp, 0))).reshape(1).astype(data.dtype)


def _softmax_cross_entropy_backward(rc, attrs, og, data, label):
    xp = rc.xp
    hit = _sce_hit(xp, label, data.shape[1])
    if data.dtype == np.float16 and og.dtype == np.float16 and xp is np:
        # 1.9.1: (float16 softmax, minus one at the label) times the head gradient, in float16
        with np.errstate(all="ignore"):
            p = plain_softmax_f16(data, 1)
            return np.where(hit, p - np.float16(1), p) * og.reshape(())
    p = softmax_forward(xp, data, 1)
    return ((p - hit.astype(p.dtype)) * og.reshape(())).astype(data.dtype, copy=False)


def _sce_shape(attrs, ins, outs):
    d, lab = ins
    if d is not None and lab is None:
        lab = (d[0],)
    if d is not None and lab is not None:
        _sce_check(d, lab)
    return [d, lab], [(1,)], []


register("softmax_cross_entropy", _softmax_cross_entropy, inputs=("data", "label"),
         infer_shape=_sce_shape, infer_type=_same,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_softmax_cross_entropy(og[0], ins[0], ins[1]), None],
         doc="The summed softmax cross-entropy of 2-d ``data`` against 1-d class ``label``.")
register("_backward_softmax_cross_entropy", _softmax_cross_entropy_backward,
         inputs=("ograd", "data", "label"),
         infer_shape=lambda a, i, o: (list(i), [i[1]], []),
         infer_type=lambda a, i, o: (list(i), [i[1]], []),
         doc="The gradient of softmax_cross_entropy.")
