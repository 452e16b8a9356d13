"""Contrib optimizer update operators: ``_contrib_group_adagrad_update``.

The AdamW and multi-tensor LAMB kernels live in :mod:`.optimizer_ops` (1.9.1 registers them
as ``_adamw_update``, ``_multi_lamb_update`` ...); ``mx.nd.contrib.adamw_update`` and its
siblings are Python front ends over them (see ``mxnet/ndarray/contrib_front.py``).

group_adagrad_update keeps one AdaGrad history per row of the weight::

    g = clip(rescale_grad * grad, clip_gradient)      # clipping only when clip_gradient >= 0
    history += mean(g * g over each row)               # in place, shape (rows, 1)
    new weight = weight - lr * g / sqrt(history + epsilon)

1.9.1 implements it only for row-sparse gradients written back with ``out=weight`` (a dense
gradient raises "not implemented for CPU"); here dense arrays take the same update with every
row present, which is what the row-sparse kernel computes when all rows are stored.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .registry import Param, register

__all__ = []


def _group_adagrad(rc, attrs, weight, grad, history):
    xp = rc.xp
    name = "_contrib_group_adagrad_update"
    if grad.shape != weight.shape:
        raise MXNetError(f"{name}: grad has shape {tuple(grad.shape)} but weight has shape "
                         f"{tuple(weight.shape)}")
    if weight.ndim < 1 or history.size != weight.shape[0]:
        raise MXNetError(f"{name}: history must hold one value per weight row "
                         f"({weight.shape[0] if weight.ndim else 0}); got shape "
                         f"{tuple(history.shape)}")
    for a, n in ((grad, "grad"), (history, "history")):
        if a.dtype != weight.dtype:
            raise MXNetError(f"{name}: {n} has dtype {a.dtype}; expected {weight.dtype}")
    dt = weight.dtype
    c = {k: dt.type(np.float32(attrs[k])) for k in ("lr", "rescale_grad", "clip_gradient",
                                                      "epsilon")}
    rows = weight.shape[0]
    g = grad.reshape(rows, -1) * c["rescale_grad"]
    if c["clip_gradient"] >= 0:
        g = xp.clip(g, -c["clip_gradient"], c["clip_gradient"])
    width = g.shape[1]
    ssq = (g * g).sum(axis=1, dtype=dt)
    h = history.reshape(rows) + ssq / dt.type(width) if width else history.reshape(rows)
    history[...] = h.reshape(history.shape)
    new = weight.reshape(rows, -1) - c["lr"] * g / xp.sqrt(h + c["epsilon"])[:, None]
    return new.reshape(weight.shape).astype(dt, copy=False)


def _ga_shape(attrs, ins, outs):
    w = ins[0] if ins[0] is not None else (outs[0] if outs else None)
    if w is None:
        return ins, outs, []
    w = tuple(w)
    h = ins[2] if ins[2] is not None else (w[0], 1)
    return [w, w, tuple(h)], [w], []


def _ga_type(attrs, in_types, out_types):
    t = next((x for x in list(in_types) + list(out_types) if x is not None), None)
    return [t] * 3, [t], []


register("_contrib_group_adagrad_update", _group_adagrad, inputs=("weight", "grad", "history"),
         params=(Param("lr", "float", doc="Learning rate."),
                 Param("rescale_grad", "float", 1.0, doc="Multiply the gradient by this."),
                 Param("clip_gradient", "float", -1.0,
                       doc="Clip the rescaled gradient to [-c, c] when c >= 0."),
                 Param("epsilon", "float", 1e-5, doc="Added under the square root.")),
         infer_shape=_ga_shape, infer_type=_ga_type, inplace=((0, 0),),
         doc="AdaGrad with one history value per weight row (the history is updated in "
             "place; the output is the new weight).")
