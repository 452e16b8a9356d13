"""Connectionist temporal classification loss (CTCLoss and its aliases).

The forward pass runs the CTC alpha recursion in log space, vectorised over the
batch and the blank-extended label positions, with one Python step per time step;
the beta recursion follows, and together they give the per-frame label posteriors.
The gradient with respect to the activations, ``softmax(data) - posterior``, is
produced by the forward pass as a hidden second output (as 1.9.1 does), and the
gradient rule scales it by the incoming per-example gradient.

All arithmetic runs in float64 whatever the input dtype, so long sequences do not lose
the loss to rounding; results are cast back to the data's dtype.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from ._common import errstate, shape_err
from .registry import Param, register

__all__ = []

_NAME = "CTCLoss"

_PARAMS = (
    Param("use_data_lengths", "bool", False,
          doc="Read each example's sequence length from `data_lengths` (otherwise all use "
              "the full sequence length)."),
    Param("use_label_lengths", "bool", False,
          doc="Read each example's label length from `label_lengths` (otherwise it ends at "
              "the first padding value: 0 when blank_label='first', -1 when 'last')."),
    Param("blank_label", "str", "first", choices=("first", "last"),
          doc="Which channel is the blank: 'first' (channel 0) or 'last' (alphabet_size-1)."),
)


def _inputs(attrs):
    names = ["data", "label"]
    if attrs["use_data_lengths"]:
        names.append("data_lengths")
    if attrs["use_label_lengths"]:
        names.append("label_lengths")
    return names


def _lse3(xp, a, b, c):
    """Elementwise log(exp(a) + exp(b) + exp(c)), exact when some or all terms are -inf."""
    m = xp.maximum(xp.maximum(a, b), c)
    m = xp.where(xp.isfinite(m), m, 0.0)
    return m + xp.log(xp.exp(a - m) + xp.exp(b - m) + xp.exp(c - m))


def _shift(xp, x, k, fill):
    """Shift along the last axis by k (k > 0: towards higher indices), filling the gap."""
    out = xp.full_like(x, fill)
    if k > 0:
        out[:, k:] = x[:, :-k]
    else:
        out[:, :k] = x[:, -k:]
    return out


def _lengths(xp, name, arr, batch, upper, what):
    """Per-example lengths from a (batch,) array, rounded to integers and range-checked."""
    if arr.shape != (batch,):
        raise MXNetError(f"{_NAME}: {name} must have shape ({batch},) (one {what} per example), "
                         f"got {tuple(arr.shape)}")
    lens = xp.floor(arr.astype(np.float64) + 0.5).astype(np.int64)
    bad = (lens < 0) | (lens > upper)
    if bool(bad.any()):
        raise MXNetError(f"{_NAME}: every value of {name} must lie in [0, {upper}]; "
                         f"got {arr.tolist()}")
    return lens


def _ctc_compute(rc, attrs, data, label, *lengths):
    # log(0) = -inf and (-inf) - (-inf) = nan are expected on unreachable lattice positions
    with errstate(divide="ignore", invalid="ignore"):
        return _ctc(rc.xp, attrs, data, label, lengths)


def _ctc(xp, attrs, data, label, lengths):
    if data.ndim != 3:
        raise shape_err(_NAME, "data must be 3-D (sequence_length, batch_size, alphabet_size)",
                        data)
    if data.dtype.kind != "f":
        raise MXNetError(f"{_NAME}: data must be floating point, got {data.dtype}")
    if data.dtype == np.float16:   # 1.9.1's CPU kernel takes float32 data only
        raise MXNetError(f"{_NAME}: data has dtype float16; the CPU kernel supports float32 "
                         "only (cast the data first)")
    T, B, A = data.shape
    if label.ndim != 2:
        raise shape_err(_NAME, f"label must be 2-D (batch_size={B}, label_sequence_length)",
                        data, label)
    if label.shape[0] != B:
        raise shape_err(_NAME, f"label must have one row per example of data (batch_size={B}), "
                        f"got {label.shape[0]} rows", data, label)
    Lmax = label.shape[1]
    if Lmax > T:
        raise shape_err(_NAME, f"the label length {Lmax} cannot exceed the maximum sequence "
                        f"length {T} of the data", data, label)
    first = attrs["blank_label"] == "first"
    blank = 0 if first else A - 1
    lab = label.astype(np.int64)
    rest = list(lengths)
    if attrs["use_data_lengths"]:
        t_len = _lengths(xp, "data_lengths", rest.pop(0), B, T, "sequence length")
    else:
        t_len = xp.full((B,), T, dtype=np.int64)
    pos = xp.arange(Lmax)[None, :]
    if attrs["use_label_lengths"]:
        l_len = _lengths(xp, "label_lengths", rest.pop(0), B, Lmax, "label length")
    else:
        is_pad = lab == (0 if first else -1)
        l_len = xp.where(is_pad.any(axis=1), xp.argmax(is_pad, axis=1), Lmax).astype(np.int64)
    in_label = pos < l_len[:, None]
    if bool(((lab < 0) | (lab >= A))[in_label].any()):
        raise MXNetError(f"{_NAME}: label values must lie in [0, {A - 1}] for an alphabet of size "
                         f"{A} (blank_label='{attrs['blank_label']}'); got {label.tolist()}")

    # log-softmax over the alphabet, in float64
    x = data.astype(np.float64)
    x = x - x.max(axis=2, keepdims=True)
    logp = x - xp.log(xp.exp(x).sum(axis=2, keepdims=True))
    probs = xp.exp(logp)

    # the blank-extended labels: blank, l1, blank, l2, ..., blank  (B, S)
    S = 2 * Lmax + 1
    ext = xp.full((B, S), blank, dtype=np.int64)
    ext[:, 1::2] = xp.where(in_label, lab, blank)
    s_len = 2 * l_len + 1
    s_idx = xp.arange(S)[None, :]
    valid = s_idx < s_len[:, None]
    skip = xp.zeros((B, S), dtype=bool)     # may a path jump from s-2 straight to s?
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    skip_next = _shift(xp, skip, -2, False)  # ... from s+2 back to s, in the beta pass
    neg = -np.inf
    lp = xp.take_along_axis(logp, xp.broadcast_to(ext[None], (T, B, S)), axis=2)
    lp = xp.where(valid[None], lp, neg)

    alive = xp.arange(T)[:, None] < t_len[None, :]           # (T, B): frame t is in the data
    alpha = xp.empty((T, B, S))
    a = xp.full((B, S), neg)
    a[:, :2] = lp[0, :, :2]
    alpha[0] = a
    for t in range(1, T):
        new = _lse3(xp, a, _shift(xp, a, 1, neg),
                    xp.where(skip, _shift(xp, a, 2, neg), neg)) + lp[t]
        a = xp.where(alive[t][:, None], new, a)   # frozen past the example's last frame
        alpha[t] = a
    ends = (s_idx == s_len[:, None] - 1) | (s_idx == s_len[:, None] - 2)
    last = xp.where(ends, a, neg)
    m = last.max(axis=1)
    m_safe = xp.where(xp.isfinite(m), m, 0.0)
    loglik = m_safe + xp.log(xp.exp(last - m_safe[:, None]).sum(axis=1))

    beta = xp.empty((T, B, S))
    b = xp.full((B, S), neg)
    for t in range(T - 1, -1, -1):
        rec = _lse3(xp, b, _shift(xp, b, -1, neg),
                    xp.where(skip_next, _shift(xp, b, -2, neg), neg)) + lp[t]
        start = xp.where(ends, lp[t], neg)
        at_end = (t_len - 1 == t)[:, None]
        b = xp.where(at_end, start, xp.where((t < t_len - 1)[:, None], rec, neg))
        beta[t] = b

    # an example is infeasible (or empty in time) when no alignment exists: 1.9.1 reports a
    # zero loss for it (its gradient there is uninitialised memory; here it is zero)
    ok = xp.isfinite(loglik) & (t_len > 0)
    ll = xp.where(ok, loglik, 0.0)
    gamma = alpha + beta - lp - ll[None, :, None]
    occ = xp.where(valid[None] & ok[None, :, None] & xp.isfinite(gamma), xp.exp(gamma), 0.0)
    flat = ((xp.arange(T)[:, None, None] * B + xp.arange(B)[None, :, None]) * A + ext[None])
    post = xp.bincount(flat.ravel(), weights=occ.ravel(), minlength=T * B * A).reshape(T, B, A)
    grad = xp.where(alive[:, :, None] & ok[None, :, None], probs - post, 0.0)
    loss = xp.where(ok, -loglik, 0.0)
    return loss.astype(data.dtype), grad.astype(data.dtype)


def _ctc_gradient(F, attrs, inputs, outputs, out_grads):
    scale = F.Reshape(out_grads[0], shape=(1, -1, 1))
    return [F.broadcast_mul(outputs[1], scale)] + [None] * (len(inputs) - 1)


def _ctc_infer_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0]
    if d is not None and len(d) != 3:
        raise MXNetError(f"{_NAME}: data must be 3-D (sequence_length, batch_size, "
                         f"alphabet_size), got shape {tuple(d)}")
    if d is None:
        return in_shapes, out_shapes, []
    T, B, A = d
    lab = in_shapes[1]
    if lab is not None and None not in lab:  # 1.9.1 checks the label here too
        if len(lab) != 2:
            raise MXNetError(f"{_NAME}: label must be 2-D (batch_size={B}, "
                             f"label_sequence_length), got shape {tuple(lab)}")
        if B is not None and lab[0] != B:
            raise MXNetError(f"{_NAME}: label {tuple(lab)} must have one row per example of "
                             f"data {tuple(d)} (batch_size={B}), got {lab[0]} rows")
        if T is not None and lab[1] > T:
            raise MXNetError(f"{_NAME}: the label length {lab[1]} cannot exceed the maximum "
                             f"sequence length {T} of the data {tuple(d)}")
    ins = list(in_shapes)
    for i in range(2, len(ins)):
        ins[i] = (B,)
    return ins, [(B,), (T, B, A)], []


def _ctc_infer_type(attrs, in_types, out_types):
    dt = in_types[0] if in_types[0] is not None else next((t for t in out_types if t), None)
    ins = [dt] + [t if t is not None else dt for t in in_types[1:]]
    return ins, [dt, dt], []


# 1.9.1 names outputs by the total count (two here), so the visible one is 'output0'
register(_NAME, _ctc_compute, params=_PARAMS, inputs=_inputs, num_outputs=2,
         num_visible_outputs=1, output_names=("output0", "output1"), gradient=_ctc_gradient,
         infer_shape=_ctc_infer_shape,
         infer_type=_ctc_infer_type,
         aliases=("ctc_loss", "_contrib_CTCLoss", "_contrib_ctc_loss"),
         doc="Connectionist Temporal Classification loss, one value per example.\n\n"
             "``data`` holds unnormalised activations of shape (sequence_length, batch_size, "
             "alphabet_size); ``label`` is (batch_size, label_sequence_length) with labels padded "
             "by 0 (blank_label='first', where channel 0 is the blank) or by -1 "
             "(blank_label='last', where channel alphabet_size-1 is the blank). The gradient "
             "with respect to ``data`` is softmax(data) minus the CTC label posteriors.")
