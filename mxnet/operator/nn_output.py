"""Output layers: SoftmaxOutput (alias Softmax), LinearRegressionOutput,
LogisticRegressionOutput, MAERegressionOutput and SVMOutput.

Their forward is the prediction (softmax, identity or sigmoid). Their backward ignores the
incoming head gradient (unless SoftmaxOutput's ``out_grad`` is set) and returns the gradient
of the loss each layer stands for, as 1.9.1 does; the label gets no gradient.

1.9.1's rules, followed here:

* labels are class indices cast to int by truncation (``1.7 -> 1``, ``-0.5 -> 0``); an index
  outside ``[0, classes)`` matches no class; ``ignore_label`` is truncated the same way;
* SoftmaxOutput without ``multi_output`` normalises over everything but axis 0 (over the last
  axis with ``preserve_shape``) and reads the first ``rows`` entries of the flattened label;
* with ``multi_output`` the softmax runs over axis 1, and unless ``normalization='valid'``
  the gradient is also divided by the number of positions per instance;
* ``normalization='valid'`` counts the labels different from ``ignore_label`` (at least 1),
  whether or not ``use_ignore`` is set;
* a label shaped like the data is a probability target: the gradient is
  ``(out - label) * grad_scale``, with no normalization;
* ``smooth_alpha`` applies without ``multi_output`` only;
* ``out_grad=True`` multiplies the gradient by the *output* (1.9.1 wires the output where
  the head gradient should go); ``OUT_GRAD_AS_1_9_1 = False`` uses the head gradient;
* regression outputs scale by ``grad_scale / (label.size / label.shape[0])``;
* ``float`` parameters are float32 in 1.9.1 and are rounded to float32 here.
"""
from __future__ import annotations

import math

import numpy as np

from ..base import MXNetError
from ._onednn import EMULATE_MAX
from ._safe_acc import plain_softmax_f16
from .nn_activation import check_float, softmax_forward
from .registry import Param, register

_F32 = np.float32

# 1.9.1's backward hands SoftmaxOutput the output where the head gradient belongs, so
# out_grad=True scales the gradient by the output itself. False multiplies by the head gradient.
OUT_GRAD_AS_1_9_1 = True


def _f32(v):
    return _F32(v)


def _shape(s):
    return tuple(int(d) for d in s)


def _class_index(xp, label):
    """Labels as 1.9.1's ``static_cast<int>`` reads them (truncation toward zero)."""
    lab = xp.trunc(label.astype(np.float64))
    lab = xp.where(xp.isfinite(lab), lab, -(2 ** 31))
    return xp.clip(lab, -(2 ** 31), 2 ** 31 - 1).astype(np.int64)


def _same_type_all(attrs, ins, outs):
    t = next((s for s in list(ins) + list(outs) if s is not None), None)
    return [t] * len(ins), [t] * len(outs), []


def _head_free_shape(attrs, ins, outs):
    """infer_shape of a backward op whose single output is shaped like its ``out`` input."""
    return list(ins), [ins[1]], []


# ---------------------------------------------------------------------------------------------
# SoftmaxOutput

_SO_PARAMS = (
    Param("grad_scale", "float", 1.0, doc="Scales the gradient."),
    Param("ignore_label", "float", -1.0, doc="The label ignored when ``use_ignore`` is set."),
    Param("multi_output", "bool", False, doc="Softmax over axis 1 for every other position."),
    Param("use_ignore", "bool", False, doc="Give rows labelled ``ignore_label`` no gradient."),
    Param("preserve_shape", "bool", False, doc="Softmax over the last axis only."),
    Param("normalization", "str", "null", choices=("batch", "null", "valid"),
          doc="Divide the gradient by nothing, the batch size, or the number of valid labels."),
    Param("out_grad", "bool", False, doc="Multiply the gradient by the head gradient."),
    Param("smooth_alpha", "float", 0.0,
          doc="Label smoothing: the target is 1 - alpha, and alpha / (classes - 1) elsewhere."),
)


def _so_label_shapes(attrs, dshape):
    """The label shapes 1.9.1 accepts for data of shape ``dshape`` (the first is inferred)."""
    if attrs["multi_output"]:
        if len(dshape) < 2:
            raise MXNetError(f"SoftmaxOutput: multi_output needs data with at least 2 "
                             f"dimensions, got shape {dshape}")
        n, rest = dshape[0], dshape[2:]
        return [(n, math.prod(rest) if rest else 1), (n,) + rest, (n, 1) + rest, dshape]
    return [dshape[:-1], dshape]


def _so_check_label(dshape, lshape, attrs):
    ok = _so_label_shapes(attrs, dshape)
    if lshape not in ok:
        want = " or ".join(str(s) for s in dict.fromkeys(ok))
        raise MXNetError(f"SoftmaxOutput: label of shape {lshape} does not fit data of shape "
                         f"{dshape}; expected {want}")


def _so_axis_view(attrs, shape):
    """(2-d or 3-d view shape, class axis) over which SoftmaxOutput normalises."""
    size = math.prod(shape)
    if attrs["multi_output"]:
        n, k = shape[0], shape[1]
        return (n, k, size // (n * k) if n * k else 0), 1
    if attrs["preserve_shape"]:
        k = shape[-1] if shape else 1
        return (size // k if k else 0, k), 1
    n = shape[0] if shape else 1
    return (n, size // n if n else 0), 1


def _out0(out, like):
    """``out[0]`` when it is a contiguous array shaped and typed like ``like`` (else None)."""
    o = out[0] if out else None
    if o is None or o.shape != like.shape or o.dtype != like.dtype or not o.flags.c_contiguous:
        return None
    return o


def _softmax_output(rc, attrs, data, label, out=None):
    check_float("SoftmaxOutput", data)
    dshape, lshape = _shape(data.shape), _shape(label.shape)
    _so_check_label(dshape, lshape, attrs)
    view, axis = _so_axis_view(attrs, dshape)
    o = _out0(out, data)
    if data.size == 0:  # an empty batch: an empty output
        return rc.xp.zeros(dshape, dtype=data.dtype)
    if data.dtype == np.float16 and rc.xp is np:
        return plain_softmax_f16(data.reshape(view), axis).reshape(dshape)
    dnn = False
    if not rc.is_train and rc.xp is np and data.dtype == np.float32 and \
            not attrs["multi_output"] and (data.ndim == 2 or
                                           (data.ndim == 4 and attrs["preserve_shape"])):
        # 1.9.1's CPU build predicts with oneDNN's softmax for 2-d (and 4-d) float32 data:
        # its exp and lane-ordered sum, not the generic kernel's (training keeps that one).
        # For 4-d data without preserve_shape oneDNN normalises over the last axis only,
        # unlike the training pass (over all but axis 0): ours keeps the documented axes.
        dnn = "exact" if data.size <= EMULATE_MAX else "fast"
    res = softmax_forward(rc.xp, data.reshape(view), axis,
                          out=None if o is None else o.reshape(view), onednn=dnn)
    return o if o is not None and res.base is o else res.reshape(dshape)


def _out_grad_factor(og, out):
    """What ``out_grad=True`` multiplies by: in 1.9.1 that is the output, not the head gradient."""
    return out if OUT_GRAD_AS_1_9_1 else og.astype(out.dtype, copy=False)


def _softmax_output_backward_out(rc, attrs, og, y, label, out=None):
    """The gradient (see below), written into ``out[0]`` in the common case."""
    if not (attrs["multi_output"] or attrs["use_ignore"] or attrs["out_grad"] or
            attrs["smooth_alpha"] > 0 or attrs["normalization"] == "valid") and \
            tuple(label.shape) != tuple(y.shape):
        # the common case (also without ``out``: fewer steps than the general path)
        o = _out0(out, y)
        if o is None:
            o = rc.xp.empty(y.shape, y.dtype)
        return _softmax_output_backward_into(rc.xp, attrs, y, label, o)
    return _softmax_output_backward(rc, attrs, og, y, label)


def _softmax_output_backward(rc, attrs, og, out, label):
    xp = rc.xp
    dt = out.dtype
    grad_scale = _f32(attrs["grad_scale"])
    if _shape(label.shape) == _shape(out.shape):                   # probability targets
        g = (out - label.astype(dt, copy=False)) * dt.type(grad_scale)
        if attrs["out_grad"]:
            g = g * _out_grad_factor(og, out)
        return g.astype(dt, copy=False)
    view, _ = _so_axis_view(attrs, _shape(out.shape))
    o = out.reshape(view)
    rows, k = view[0], view[1]
    if attrs["multi_output"]:
        lab = _class_index(xp, label.reshape(rows, view[2]))[:, None, :]
        cls = xp.arange(k).reshape(1, k, 1)
    else:
        lab = _class_index(xp, label.reshape(-1)[:rows])[:, None]
        cls = xp.arange(k).reshape(1, k)
    hit = lab == cls
    alpha = dt.type(_f32(attrs["smooth_alpha"]))
    if alpha > 0 and not attrs["multi_output"]:                    # 1.9.1 smooths 2-d only
        off = alpha / dt.type(k - 1) if k > 1 else dt.type(np.inf)
        target = xp.where(hit, 1 - alpha, off)
    else:
        target = hit.astype(dt)
    g = o - target
    ignore = int(_f32(attrs["ignore_label"]))
    if attrs["use_ignore"]:
        g = xp.where(lab == ignore, dt.type(0), g)
    norm = attrs["normalization"]
    if norm == "batch":
        count = rows
    elif norm == "valid":
        count = max(int(xp.sum(lab != ignore)), 1)
    else:
        count = 1
    if attrs["multi_output"] and norm != "valid":
        count *= view[2]
    g = g * dt.type(_F32(grad_scale / _F32(count)))
    if attrs["out_grad"]:
        g = g * _out_grad_factor(og, out).reshape(view)
    return g.reshape(out.shape).astype(dt, copy=False)


def _softmax_output_backward_into(xp, attrs, out, label, o):
    """The common case (class labels, no smoothing, no ignore, no out_grad) written into
    ``o``: the same values as the general path, ``(out - onehot) * scale``."""
    dt = out.dtype
    view, _ = _so_axis_view(attrs, _shape(out.shape))
    rows, k = view[0], view[1]
    g = o.reshape(view)
    xp.copyto(g, out.reshape(view))
    lab = label.reshape(-1)[:rows]
    # _class_index's truncation lands in [0, k) exactly where -1 < label < k (NaN: nowhere);
    # only those labels are converted (float ones compared in float64, exactly)
    hi = k if lab.dtype.kind in "iu" else np.float64(k)
    hit = lab > -1
    hit &= lab < hi
    r = xp.arange(rows)
    g[r[hit], lab[hit].astype(np.int64)] -= dt.type(1)
    count = rows if attrs["normalization"] == "batch" else 1
    g *= dt.type(_F32(_f32(attrs["grad_scale"]) / _F32(count)))
    return o


def _so_shape(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else outs[0]
    ins = list(ins)
    if d is not None:
        d = tuple(d)
        if ins[1] is None:
            ins[1] = _so_label_shapes(attrs, d)[0]
        else:
            _so_check_label(d, tuple(ins[1]), attrs)
    ins[0] = d
    return ins, [d], []


register("SoftmaxOutput", _softmax_output, params=_SO_PARAMS, inputs=("data", "label"),
         accepts_out=True,
         infer_shape=_so_shape, infer_type=_same_type_all, aliases=("Softmax",),
         gradient=lambda F, a, ins, outs, og: [
             F._backward_SoftmaxOutput(og[0], outs[0], ins[1], **a), None],
         doc="Softmax whose backward is the cross-entropy gradient against ``label``.")
register("_backward_SoftmaxOutput", _softmax_output_backward_out, params=_SO_PARAMS,
         accepts_out=True,
         inputs=("ograd", "output", "label"), infer_shape=_head_free_shape,
         infer_type=_same_type_all, doc="The gradient of SoftmaxOutput.")


# ---------------------------------------------------------------------------------------------
# regression outputs

_REG_PARAMS = (Param("grad_scale", "float", 1.0, doc="Scales the gradient."),)


def _reg_label_shape(attrs, dshape):
    if len(dshape) == 2 and dshape[1] == 1:
        return (dshape[0],)
    return dshape


def _reg_check(name, dshape, lshape):
    if not dshape or not lshape:
        if dshape == lshape:
            return
    elif lshape[0] == dshape[0] and math.prod(lshape) == math.prod(dshape):
        return
    raise MXNetError(f"{name}: label of shape {lshape} does not fit data of shape {dshape}; "
                     f"it needs the same first dimension and the same number of elements "
                     f"(e.g. {_reg_label_shape(None, dshape)})")


def _register_regression(name, short, forward, backward, doc):
    def compute(rc, attrs, data, label):
        check_float(name, data)
        _reg_check(name, _shape(data.shape), _shape(label.shape))
        return forward(rc.xp, data)

    def grad_compute(rc, attrs, out, label):
        lab = label.reshape(out.shape).astype(out.dtype, copy=False)
        n = label.shape[0] if label.ndim else 1
        per_row = label.size // n if n else 1
        scale = out.dtype.type(_F32(_f32(attrs["grad_scale"]) / _F32(per_row)))
        return (backward(rc.xp, out, lab) * scale).astype(out.dtype, copy=False)

    def shape(attrs, ins, outs):
        d = ins[0] if ins[0] is not None else outs[0]
        ins = list(ins)
        if d is not None and None in tuple(d):  # 1.9.1 waits for a complete data shape
            return ins, list(outs), []
        if d is not None:
            d = tuple(d)
            if ins[1] is None:
                ins[1] = _reg_label_shape(attrs, d)
            else:
                _reg_check(name, d, tuple(ins[1]))
        ins[0] = d
        return ins, [d], []

    back = f"_backward_{short}"
    register(name, compute, params=_REG_PARAMS, inputs=("data", "label"), infer_shape=shape,
             infer_type=_same_type_all, inplace=((0, 0),),
             gradient=lambda F, a, ins, outs, og: [getattr(F, back)(outs[0], ins[1], **a), None],
             doc=doc)
    register(back, grad_compute, params=_REG_PARAMS, inputs=("output", "label"),
             infer_shape=lambda a, i, o: (list(i), [i[0]], []), infer_type=_same_type_all,
             doc=f"The gradient of {name}.")


_register_regression(
    "LinearRegressionOutput", "linear_reg_out", lambda xp, x: x.copy(),
    lambda xp, out, lab: out - lab,
    "Identity forward; backward is the squared-loss gradient ``out - label``.")
_register_regression(
    "MAERegressionOutput", "mae_reg_out", lambda xp, x: x.copy(),
    # 1.9.1 takes +1 where out > label and -1 everywhere else, ties included (not sign(0) = 0)
    lambda xp, out, lab: xp.where(out - lab > 0, 1, -1).astype(out.dtype, copy=False),
    "Identity forward; backward is the absolute-loss gradient ``sign(out - label)``.")


def _logistic_forward(xp, x):
    if x.dtype == np.float32 and x.size <= EMULATE_MAX:
        # 1.9.1: 1 / (1 + expf(-x)) in float32, as mx.nd.sigmoid (NumPy's float32 exp is
        # another rounding in about 1 of 6 arguments); large arrays keep the fast kernel
        from .elemwise import _sigmoid
        return _sigmoid(xp, x)
    return (1.0 / (1.0 + xp.exp(-x.astype(np.float32 if x.dtype == np.float16 else x.dtype)))) \
        .astype(x.dtype, copy=False)


_register_regression(
    "LogisticRegressionOutput", "logistic_reg_out", _logistic_forward,
    lambda xp, out, lab: out - lab,
    "Sigmoid forward; backward is the logistic-loss gradient ``out - label``.")


# ---------------------------------------------------------------------------------------------
# SVMOutput

_SVM_PARAMS = (
    Param("margin", "float", 1.0, doc="The margin the loss asks of every score."),
    Param("regularization_coefficient", "float", 1.0, doc="Scales the gradient."),
    Param("use_linear", "bool", False, doc="L1 (hinge) loss instead of the squared hinge."),
)


def _svm_check(dshape, lshape):
    if lshape != dshape[:-1]:
        raise MXNetError(f"SVMOutput: label of shape {lshape} does not fit data of shape "
                         f"{dshape}; expected {dshape[:-1]}")


def _svm_output(rc, attrs, data, label):
    check_float("SVMOutput", data)
    _svm_check(_shape(data.shape), _shape(label.shape))
    return data.copy()


def _svm_backward(rc, attrs, out, label):
    xp = rc.xp
    dt = out.dtype.type
    k = out.shape[-1] if out.ndim else 1
    x = out.reshape(-1, k)
    hit = _class_index(xp, label.reshape(-1))[:, None] == xp.arange(k)[None, :]
    m = dt(_f32(attrs["margin"]))
    reg = dt(_f32(attrs["regularization_coefficient"]))
    if attrs["use_linear"]:
        g = xp.where(hit, -(m > x).astype(x.dtype), (m > -x).astype(x.dtype)) * reg
    else:
        # the zeros are -0.0 before scaling, so they print as 1.9.1's do (-0.0 for reg > 0)
        at_label = xp.where(m > x, (m - x) * dt(-2), dt(-0.0))
        others = xp.where(m > -x, (m + x) * dt(2), dt(-0.0))
        g = xp.where(hit, at_label, others) * reg
    return g.reshape(out.shape).astype(out.dtype, copy=False)


def _svm_shape(attrs, ins, outs):
    d = ins[0] if ins[0] is not None else outs[0]
    ins = list(ins)
    if d is not None:
        d = tuple(d)
        if ins[1] is None:
            ins[1] = d[:-1]
        else:
            _svm_check(d, tuple(ins[1]))
    ins[0] = d
    return ins, [d], []


register("SVMOutput", _svm_output, params=_SVM_PARAMS, inputs=("data", "label"),
         infer_shape=_svm_shape, infer_type=_same_type_all,
         gradient=lambda F, a, ins, outs, og: [F._backward_SVMOutput(outs[0], ins[1], **a), None],
         doc="Identity forward; backward is the (squared) hinge-loss gradient for class "
             "``label`` over the last axis.")
register("_backward_SVMOutput", _svm_backward, params=_SVM_PARAMS, inputs=("output", "label"),
         infer_shape=lambda a, i, o: (list(i), [i[0]], []), infer_type=_same_type_all,
         doc="The gradient of SVMOutput.")
