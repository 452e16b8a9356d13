"""Peephole rewrites of a compiled backward pass (see :mod:`.program`).

A rewrite replaces a few steps by one that computes the same values with fewer passes
over memory; each is exact (the same floating-point operations on every element, up to
the sign of a zero), so hybridized and imperative gradients agree.

- identities (a multiplication by exactly 1, a reshape or broadcast to the same shape, as
  the gradients of ``mean`` and of broadcasting produce) are dropped: their readers read
  the input instead;
- ``pick`` after ``log_softmax`` (the cross-entropy of Gluon's SoftmaxCrossEntropyLoss):
  the gradient ``pick`` scatters is zero except at one position per row, so the row sum
  ``log_softmax``'s backward takes of it is the picked gradient itself, and
  ``g - exp(y) * sum(g)`` is ``-(exp(y) * og)`` plus ``og`` at the picked position. That
  skips zero-filling the scatter target, the row sum and one full subtraction.
"""
from __future__ import annotations

import math

import numpy as np

from ..operator._common import normalize_axis
from ..operator._onednn import dnn_exp
from ..operator.indexing_ops import _mode_index
from ..operator.nn_activation import _exp_f32, onednn_softmax
from ..operator.registry import OpDef, get_op

__all__ = ["fuse_backward"]

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _pick_log_softmax_backward(rc, attrs, og, index, y, out=None):
    """The input gradient of ``log_softmax`` when its only consumer is ``pick``."""
    xp = rc.xp
    axis = normalize_axis("pick", attrs["axis"], y.ndim)
    n = y.shape[axis]
    pre, post = math.prod(y.shape[:axis]), math.prod(y.shape[axis + 1:])
    idx = _mode_index(xp, "pick", index, n, attrs["mode"]).reshape(pre, post)
    o = out[0] if out else None
    if o is None or o.shape != y.shape or o.dtype != y.dtype or not o.flags.c_contiguous:
        o = xp.empty(y.shape, dtype=y.dtype)
    o3 = o.reshape(pre, n, post)
    # the exp (and rounding) of the log_softmax backward this replaces (see softmax_backward)
    dnn = None if attrs.get("dtype") else onednn_softmax(
        "log_softmax", y, axis, attrs.get("temperature"), attrs.get("use_length"), y.dtype)
    if dnn == "exact":   # oneDNN's: og - exp(y) * og_picked, one rounding per element
        t = xp.multiply(dnn_exp(xp, y).reshape(pre, n, post), og.reshape(pre, 1, post),
                        dtype=np.float64)
        xp.subtract(0.0, t, out=t)
        t[xp.arange(pre)[:, None], idx, xp.arange(post)[None, :]] += og.reshape(pre, post)
        o3[...] = t
        return o
    if dnn:
        xp.exp(y.reshape(pre, n, post), out=o3)
    else:
        o3[...] = _exp_f32(xp, y.reshape(pre, n, post))
    o3 *= og.reshape(pre, 1, post)
    xp.negative(o3, out=o3)
    o3[xp.arange(pre)[:, None], idx, xp.arange(post)[None, :]] += og.reshape(pre, post)
    return o


_PICK_LOG_SOFTMAX = OpDef("_backward_pick_log_softmax", _pick_log_softmax_backward,
                          inputs=("ograd", "index", "output"), accepts_out=True)


def _fuse_pick_log_softmax(steps, info, reads, keep, make_step):
    pick_bwd, ls_bwd = get_op("_backward_pick"), get_op("_backward_log_softmax")
    producer = {e: k for k, st in enumerate(steps) for e in st.outs}
    drop = set()
    for k, st in enumerate(steps):
        if st.op is not ls_bwd or len(st.ins) != 3:
            continue
        g, x, y = st.ins
        a = producer.get(g)
        if a is None or steps[a].op is not pick_bwd or reads.get(g) != 1 or g in keep:
            continue
        og, index, data = steps[a].ins
        if data != y or info.get(y) is None or info.get(og) is None or info.get(x) is None:
            continue
        (yshape, ydt), ogdt, xdt = info[y], info[og][1], info[x][1]
        la, pa = st.attrs, steps[a].attrs
        if pa.get("axis") is None or ydt not in _FLOATS or ogdt != ydt or xdt != ydt or \
                la.get("temperature") not in (None, 1.0) or pa.get("mode") == "raise":
            continue
        nd = len(yshape)
        if normalize_axis("log_softmax", la["axis"], nd) != normalize_axis("pick", pa["axis"], nd):
            continue
        attrs = {"axis": pa["axis"], "mode": pa["mode"], "temperature": la.get("temperature"),
                 "dtype": la.get("dtype"), "use_length": la.get("use_length")}
        steps[k] = make_step(_PICK_LOG_SOFTMAX, attrs, [og, index, y], list(st.outs),
                             f"{st.name}+pick")
        drop.add(a)
    return [st for k, st in enumerate(steps) if k not in drop]


def _is_identity(st, info):
    """Whether step ``st`` returns its first input's values unchanged: a multiplication or
    division by exactly 1, or a reshape, broadcast or reduction to the shape it has."""
    name = st.op.name if st.op is not None else None
    if name is None or len(st.outs) != 1 or not st.ins:
        return False
    a, o = info.get(st.ins[0]), info.get(st.outs[0])
    if a is None or o is None or a != o:
        return False
    if name in ("_mul_scalar", "_div_scalar"):
        return float(st.attrs.get("scalar")) == 1.0 and a[1].kind == "f"
    return name in ("Reshape", "reshape_like", "broadcast_like", "_reduce_to_shape_of")


def _drop_identities(steps, info, keep):
    """Steps without the identities: their readers read the input entry instead."""
    alias: dict = {}
    out = []
    for st in steps:
        if alias:
            st.ins = [alias.get(e, e) for e in st.ins]
        if st.kind == 0 and _is_identity(st, info) and st.outs[0] not in keep:
            alias[st.outs[0]] = st.ins[0]
            continue
        out.append(st)
    return out


def fuse_backward(steps, info, keep, make_step):
    """The backward steps with the rewrites above applied (identities dropped first).

    ``info``: entry -> (shape, dtype); ``keep``: entries that must stay (final gradients);
    ``make_step(op, attrs, ins, outs, name)`` builds a step.
    """
    steps = _drop_identities(steps, info, keep)
    reads: dict = {}
    for st in steps:
        for e in st.ins:
            reads[e] = reads.get(e, 0) + 1
    return _fuse_pick_log_softmax(steps, info, reads, keep, make_step)
