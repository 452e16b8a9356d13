"""FullyConnected: a dense layer, ``out = data @ weight.T + bias``, and its backward operator.

``flatten=True`` (the default) views the data as ``(shape[0], prod(shape[1:]))``; a 1-D input
of length n is then n rows of one feature each, as in 1.9.1. ``flatten=False`` applies the
layer to the last axis and keeps the leading ones.

The forward pass is one GEMM; ``_backward_FullyConnected(ograd, data, weight)`` returns the
gradients of data, weight and (unless ``no_bias``) bias with two GEMMs and a sum. Both are
bilinear, so the second-order rule is written with the same two operators.

Like 1.9.1, the inputs must share one floating dtype. float16 is accepted on every device
(1.9.1 allows it only with cuDNN); it is computed in float32 and rounded back. bfloat16 (with
ml_dtypes) is computed the way 1.9.1's oneDNN does on a CPU: the bfloat16 values are widened
to float32 (exactly), products and sums run in float32, and results are rounded to the
nearest bfloat16 (ties to even).
"""
from __future__ import annotations

import math

import numpy as np

from ..base import _BF16, MXNetError
from ._gemm_order import column_sum, dnn_chain, dnn_inner_product
from .registry import Param, register

__all__ = ["check_float_inputs", "uniform_type", "shape_mismatch", "as_list", "compute_dtype",
           "LOW_FLOATS"]

_F32 = np.dtype(np.float32)
# the half-precision types, computed in float32 and rounded back (bfloat16 needs ml_dtypes)
LOW_FLOATS = (np.dtype(np.float16),) + ((_BF16,) if _BF16 is not None else ())
_FLOATS = LOW_FLOATS + (_F32, np.dtype(np.float64))
_FLOAT_NAMES = "bfloat16, float16, float32 or float64" if _BF16 is not None else \
    "float16, float32 or float64"


# ---------------------------------------------------------------------------------------------
# helpers shared with nn_conv


def check_float_inputs(opname, names, arrays):
    """All inputs share one floating dtype; returns it."""
    dt = arrays[0].dtype
    for name, a in zip(names[1:], arrays[1:]):
        if a.dtype != dt:
            raise MXNetError(f"{opname}: all inputs must have the same dtype; data is {dt} but "
                             f"{name} is {a.dtype} {tuple(a.shape)}")
    if dt not in _FLOATS:
        raise MXNetError(f"{opname}: dtype {dt} is not supported; expected {_FLOAT_NAMES} "
                         f"(data shape {tuple(arrays[0].shape)})")
    return dt


def uniform_type(opname):
    """An ``infer_type`` rule: every input and output has the same dtype."""
    def infer(attrs, in_types, out_types):
        known = [t for t in list(in_types) + list(out_types) if t is not None]
        if known:
            first = np.dtype(known[0])
            for t in known[1:]:
                if np.dtype(t) != first:
                    raise MXNetError(f"{opname}: all inputs and outputs must have the same dtype, "
                                     f"got {[None if t is None else np.dtype(t).name for t in in_types]}")
            known = first
        else:
            known = None
        return [known] * len(in_types), [known] * len(out_types), []
    return infer


def shape_mismatch(opname, what, given, expected, context):
    return MXNetError(f"{opname}: {what} has shape {tuple(given)} but {tuple(expected)} is "
                      f"expected {context}")


def check_given(opname, what, given, expected, context):
    """Raise when a provided shape disagrees with the inferred one (unknown dims match)."""
    if given is None or expected is None:
        return
    if len(given) != len(expected) or any(
            g is not None and e is not None and g != e for g, e in zip(given, expected)):
        raise shape_mismatch(opname, what, given, expected, context)


def merge(given, expected):
    """The inferred shape with the unknown dimensions of one filled from the other."""
    if given is None:
        return expected
    if expected is None:
        return tuple(given)
    return tuple(e if e is not None else g for g, e in zip(given, expected))


def as_list(res, n):
    """Outputs of an op called through ``F`` as a list of ``n`` entries."""
    if n == 1 and not isinstance(res, (list, tuple)):
        return [res]
    return [res[i] for i in range(n)]


def compute_dtype(dt):
    """float16 and bfloat16 kernels run in float32 (NumPy has no half-precision GEMM; products
    of two bfloat16 values are exact in float32, as in oneDNN's bfloat16 kernels)."""
    return _F32 if dt in LOW_FLOATS else dt


# ---------------------------------------------------------------------------------------------
# FullyConnected

_FC_PARAMS = (
    Param("num_hidden", "int", doc="Number of output units."),
    Param("no_bias", "bool", False, doc="Leave out the bias input."),
    Param("flatten", "bool", True,
          doc="Collapse all axes but the first of the data; otherwise apply to the last axis."),
)


def _fc_inputs(attrs):
    return ("data", "weight") if attrs["no_bias"] else ("data", "weight", "bias")


def _prod(dims):
    return None if any(d is None for d in dims) else math.prod(dims)


def _fc_plan(opname, attrs, dshape):
    """(rows, features, output shape) of FullyConnected for data of shape ``dshape``."""
    nh = attrs["num_hidden"]
    if nh < 1:
        raise MXNetError(f"{opname}: num_hidden must be positive, got {nh}")
    dshape = tuple(dshape)
    if not dshape:
        raise MXNetError(f"{opname}: data must have at least one dimension, got shape ()")
    if attrs["flatten"]:
        feat = _prod(dshape[1:]) if len(dshape) > 1 else 1
        return dshape[0], feat, (dshape[0], nh)
    return _prod(dshape[:-1]), dshape[-1], dshape[:-1] + (nh,)


def _fc_check(opname, attrs, x, w, b):
    names = ("data", "weight", "bias") if b is not None else ("data", "weight")
    arrays = (x, w, b) if b is not None else (x, w)
    dt = check_float_inputs(opname, names, arrays)
    rows, feat, oshape = _fc_plan(opname, attrs, x.shape)
    nh = attrs["num_hidden"]
    ctx = (f"for data {tuple(x.shape)} with num_hidden={nh}, flatten={attrs['flatten']}")
    if tuple(w.shape) != (nh, feat):
        raise shape_mismatch(opname, "weight", w.shape, (nh, feat), ctx)
    if b is not None and tuple(b.shape) != (nh,):
        raise shape_mismatch(opname, "bias", b.shape, (nh,), ctx)
    return dt, rows, feat, oshape


def _uniform(ct, *arrays):
    """Whether every given array already has the compute dtype ``ct`` (no casts needed)."""
    return all(a is None or a.dtype == ct for a in arrays)


def _out_view(out, i, shape, dtype, view):
    """``out[i]`` seen with shape ``view`` when it is a contiguous ``shape``/``dtype`` array."""
    o = out[i] if out is not None and len(out) > i else None
    if o is None or tuple(o.shape) != tuple(shape) or o.dtype != dtype or \
            not o.flags.c_contiguous:
        return None, None
    return o, o.reshape(view)


def _fully_connected(rc, attrs, x, w, b=None, out=None):
    xp = rc.xp
    dt, rows, feat, oshape = _fc_check("FullyConnected", attrs, x, w, b)
    ct = compute_dtype(dt)
    x2 = x.reshape(rows, feat).astype(ct, copy=False)
    # small float32 layers: oneDNN's summation order (1.9.1's bits); None elsewhere
    y = dnn_inner_product(xp, x2, w, b) if dt == _F32 else None
    if y is not None:
        o, o2 = _out_view(out, 0, oshape, dt, (rows, attrs["num_hidden"]))
        if o is not None:
            o2[...] = y
            return o
        return y.reshape(oshape)
    if out is not None and _uniform(ct, x, w, b):
        o, o2 = _out_view(out, 0, oshape, dt, (rows, attrs["num_hidden"]))
        if o is not None:
            xp.matmul(x2, w.T, out=o2)
            if b is not None:
                o2 += b
            return o
    y = xp.matmul(x2, w.astype(ct, copy=False).T)
    if b is not None:
        y += b.astype(ct, copy=False)
    if tuple(y.shape) != tuple(oshape):
        y = y.reshape(oshape)
    return y.astype(dt, copy=False)


def _fc_shape(attrs, ins, outs):
    ins = list(ins)
    dshape = ins[0]
    if dshape is None:  # 1.9.1 infers nothing, the bias included, until the data shape is known
        return ins, outs, []
    rows, feat, oshape = _fc_plan("FullyConnected", attrs, dshape)
    nh = attrs["num_hidden"]
    ctx = f"for data {tuple(dshape)} with num_hidden={nh}, flatten={attrs['flatten']}"
    check_given("FullyConnected", "weight", ins[1], (nh, feat), ctx)
    ins[1] = merge(ins[1], (nh, feat))
    if len(ins) > 2:
        check_given("FullyConnected", "bias", ins[2], (nh,), ctx)
        ins[2] = (nh,)
    out = merge(outs[0] if outs else None, oshape)
    if out[0] is not None and dshape[0] is None:  # the batch size flows back from the output
        ins[0] = (out[0],) + tuple(dshape[1:])
    return ins, [out], []


def _fc_grad(F, attrs, ins, outs, og):
    n = 2 if attrs["no_bias"] else 3
    from .._mode import mode as _mode
    need = _mode.need_grad
    if need is not None and not need[0]:
        return [None] + as_list(F._backward_FullyConnected_nodata(og[0], ins[0], ins[1],
                                                                  **attrs), n - 1)
    res = F._backward_FullyConnected(og[0], ins[0], ins[1], **attrs)
    return as_list(res, n)


def _fc_attr_check(opname, attrs):
    # 1.9.1 checks the bound when the operator is created, before any shape is known
    if attrs["num_hidden"] < 1:
        raise MXNetError(f"{opname}: value {attrs['num_hidden']} for parameter num_hidden "
                         f"should be greater equal to 1")


register("FullyConnected", _fully_connected, params=_FC_PARAMS, inputs=_fc_inputs,
         accepts_out=True, attr_check=_fc_attr_check,
         infer_shape=_fc_shape, infer_type=uniform_type("FullyConnected"), gradient=_fc_grad,
         doc="A dense layer: ``out = data @ weight.T + bias``. With ``flatten`` the data is "
             "viewed as (batch, features); without it the layer maps the last axis.")


def _fc_weight_grads(xp, g2, x2, dt, no_bias, out, first):
    """dw = g^T x and db = sum(g), into ``out[first]``/``out[first + 1]`` when given."""
    dwo, dw2 = _out_view(out, first, (g2.shape[1], x2.shape[1]), dt, (g2.shape[1], x2.shape[1]))
    # small float32 layers: oneDNN's summation order (1.9.1's bits); None elsewhere
    dw = dnn_chain(xp, g2.T, x2) if dt == _F32 else None
    if dw is not None:
        if dwo is not None:
            dwo[...] = dw
            dw = dwo
    elif dwo is not None:
        dw = xp.matmul(g2.T, x2, out=dwo)
    else:
        dw = xp.matmul(g2.T, x2).astype(dt, copy=False)
    if no_bias:
        return dw, None
    dbo, _ = _out_view(out, first + 1, (g2.shape[1],), dt, (g2.shape[1],))
    db = column_sum(xp, g2) if dt == _F32 else g2.sum(axis=0)
    if dbo is not None:
        dbo[...] = db
        return dw, dbo
    return dw, db.astype(dt, copy=False)


def _backward_fc(rc, attrs, g, x, w, out=None):
    xp = rc.xp
    opname = "_backward_FullyConnected"
    dt, rows, feat, oshape = _fc_check(opname, attrs, x, w, None)
    if tuple(g.shape) != tuple(oshape):
        raise shape_mismatch(opname, "ograd", g.shape, oshape, f"for data {tuple(x.shape)}")
    ct = compute_dtype(dt)
    g2 = g.reshape(rows, attrs["num_hidden"]).astype(ct, copy=False)
    x2 = x.reshape(rows, feat).astype(ct, copy=False)
    # oneDNN's order where emulated (not for one feature: another kernel, order not found)
    dxe = dnn_chain(xp, g2, w) if dt == _F32 and feat > 1 else None
    if out is not None and _uniform(ct, g, x, w):
        dxo, dx2 = _out_view(out, 0, x.shape, dt, (rows, feat))
        if dxo is not None:
            if dxe is not None:
                dx2[...] = dxe
            else:
                xp.matmul(g2, w, out=dx2)
            dx = dxo
        else:
            dx = (dxe if dxe is not None else xp.matmul(g2, w)).reshape(x.shape)
        dw, db = _fc_weight_grads(xp, g2, x2, dt, attrs["no_bias"], out, 1)
        return (dx, dw) if attrs["no_bias"] else (dx, dw, db)
    if dxe is None:
        dxe = xp.matmul(g2, w.astype(ct, copy=False))
    dx = dxe.reshape(x.shape).astype(dt, copy=False)
    dw, db = _fc_weight_grads(xp, g2, x2, dt, attrs["no_bias"], None, 1)
    if attrs["no_bias"]:
        return dx, dw
    return dx, dw, db


def _backward_fc_grad(F, attrs, ins, outs, og):
    # dx = g W, dw = g^T x and db = sum(g) are linear in g and in x or W separately.
    g, x, w = ins
    hx, hw = og[0], og[1]
    kw = dict(attrs, no_bias=True)
    if attrs["no_bias"]:
        dg = F.FullyConnected(hx, w, **kw)
    else:
        dg = F.FullyConnected(hx, w, og[2], **attrs)
    dg = dg + F.FullyConnected(x, hw, **kw)
    dx = as_list(F._backward_FullyConnected(g, x, hw, **kw), 2)[0]
    dw = as_list(F._backward_FullyConnected(g, hx, w, **kw), 2)[1]
    return [dg, dx, dw]


def _backward_fc_shape(attrs, ins, outs):
    _, x, w = ins
    outs = [x, w] + ([] if attrs["no_bias"] else [(attrs["num_hidden"],)])
    return ins, outs, []


register("_backward_FullyConnected", _backward_fc, params=_FC_PARAMS, accepts_out=True,
         inputs=("ograd", "data", "weight"),
         num_outputs=lambda a: 2 if a["no_bias"] else 3,
         infer_shape=_backward_fc_shape, infer_type=uniform_type("_backward_FullyConnected"),
         gradient=_backward_fc_grad,
         doc="Gradients of FullyConnected with respect to data, weight and (unless no_bias) bias.")


def _backward_fc_nodata(rc, attrs, g, x, w, out=None):
    xp = rc.xp
    dt, rows, feat, oshape = _fc_check("_backward_FullyConnected", attrs, x, w, None)
    ct = compute_dtype(dt)
    g2 = g.reshape(rows, attrs["num_hidden"]).astype(ct, copy=False)
    x2 = x.reshape(rows, feat).astype(ct, copy=False)
    if out is not None and _uniform(ct, g, x, w):
        dw, db = _fc_weight_grads(xp, g2, x2, dt, attrs["no_bias"], out, 0)
        return dw if attrs["no_bias"] else (dw, db)
    dw, db = _fc_weight_grads(xp, g2, x2, dt, attrs["no_bias"], None, 0)
    return dw if attrs["no_bias"] else (dw, db)


register("_backward_FullyConnected_nodata", _backward_fc_nodata, params=_FC_PARAMS,
         accepts_out=True,
         inputs=("ograd", "data", "weight"),
         num_outputs=lambda a: 1 if a["no_bias"] else 2,
         infer_shape=lambda a, ins, outs: (
             ins, [ins[2]] + ([] if a["no_bias"] else [(a["num_hidden"],)]), []),
         infer_type=uniform_type("_backward_FullyConnected_nodata"),
         doc="Weight and bias gradients only, for when the data needs none.")
