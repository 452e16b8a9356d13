"""Connectionist temporal classification loss (CTCLoss and its aliases).

1.9.1's CPU kernel is Baidu's warp-ctc: a log-softmax over the alphabet, the alpha recursion
over the blank-extended label, then a beta recursion that also sums alpha * beta per label and
forms the gradient softmax(data) - posterior, which the forward pass returns as a hidden second
output (the gradient rule scales it by the incoming per-example gradient).  ``_warp_ctc``
repeats that computation in the data's dtype and in warp-ctc's order of evaluation, so float32
results are 1.9.1's bit for bit: the same float32 steps, glibc's expf/logf (``backend/libm32.py``), the
log-sums in double, and the same windows of reachable lattice columns, which decide which
terms of a log-sum are exactly -inf.  It is vectorised over the batch and the lattice, with one
Python step per frame.  float64 data (which 1.9.1 rejects) runs the same steps in float64.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from ..backend import libm32 as _libm32
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
    # an impossible alignment (loss +inf) meets inf - inf and exp(+inf) on the way, as in 1.9.1
    with errstate(divide="ignore", invalid="ignore", over="ignore"):
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
    elif Lmax == 0:
        l_len = xp.zeros((B,), dtype=np.int64)
    else:
        is_pad = lab == (0 if first else -1)
        l_len = xp.where(is_pad.any(axis=1), xp.argmax(is_pad, axis=1), Lmax).astype(np.int64)
    in_label = pos < l_len[:, None]
    if bool(((lab < 0) | (lab >= A))[in_label].any()):
        raise MXNetError(f"{_NAME}: label values must lie in [0, {A - 1}] for an alphabet of size "
                         f"{A} (blank_label='{attrs['blank_label']}'); got {label.tolist()}")

    if Lmax == 0:                       # no label columns: one padding column, never used
        lab = xp.zeros((B, 1), dtype=np.int64)
    if T == 0 or B == 0 or A == 0:      # nothing to align: zero loss, empty gradient
        return xp.zeros((B,), dtype=data.dtype), xp.zeros(data.shape, dtype=data.dtype)
    return _warp_ctc(xp, data, lab, t_len, l_len, blank)


# Above this many activations, float32 exp is rounded from float64 (correctly rounded) instead
# of repeating glibc's expf step by step: about 3x faster on the softmax and the gradient, and
# different from 1.9.1 in about 1 of 1,600 exponentials, by one unit in the last place.
_EXACT_EXP_LIMIT = 1 << 20


def _libm(xp, dt, size=0):
    """exp and log as 1.9.1's C library evaluates them for dtype ``dt``."""
    if dt == np.float64:
        return xp.exp, xp.log
    if size > _EXACT_EXP_LIMIT:
        return (lambda v: xp.exp(v, dtype=np.float64).astype(dt),
                lambda v: _libm32.logf(xp, v))
    return lambda v: _libm32.expf(xp, v), lambda v: _libm32.logf(xp, v)


def _log_plus(xp, p1, p2):
    """log(exp(p1) + exp(p2)) as max + log1p(exp(min - max)).

    1.9.1 evaluates this with the C library's double exp and log1p, so only the difference is
    rounded to the data's precision and the sum is rounded once at the end.  Impossible
    lattice cells hold a huge negative sentinel rather than -inf (see ``_warp_ctc``), for which
    this returns the other operand exactly, as 1.9.1's -inf test does."""
    m = xp.maximum(p1, p2)
    r = xp.exp(xp.minimum(p1, p2) - m, dtype=np.float64)
    xp.log1p(r, out=r)
    return xp.add(r, m, out=m, casting="same_kind")     # summed in double, rounded once


def _windows(xp, lab, t_len, l_len, T, S):
    """The lattice columns each example visits, as half-open [lo, hi) per frame.

    Positions that cannot start (alpha) or finish (beta) an alignment in the frames that
    remain stay impossible, which decides how the log-sums round.  The bounds move by the
    label steps (2 past a new symbol, 1 and 1 past a repeated one); P holds their running sums.
    Returns the alpha and beta windows as (T, B, S) masks, and which examples have an
    alignment at all (the label, repeats counted twice, fits in the frames)."""
    B, Lmax = lab.shape
    items = xp.arange(Lmax)[None, :]
    rep = xp.zeros((B, Lmax), dtype=bool)     # item i repeats item i-1
    rep[:, 1:] = (lab[:, 1:] == lab[:, :-1]) & (items[:, 1:] < l_len[:, None])
    K = l_len + rep.sum(axis=1)                # frames the shortest alignment needs
    counts = xp.where(items < l_len[:, None], 1 + rep, 0)
    counts[:, 0] = 1
    off = xp.cumsum(counts, axis=1) - counts
    steps = xp.zeros((B, 2 * Lmax + 2), dtype=np.int64)
    dump = 2 * Lmax + 1
    valid = items < l_len[:, None]
    valid[:, 0] = True
    row = (2 * Lmax + 2) * xp.arange(B)[:, None]
    flat = steps.reshape(-1)
    flat[(row + xp.where(valid, off, dump)).ravel()] = xp.where(rep, 1, 2).ravel()
    flat[(row + xp.where(rep, off + 1, dump)).ravel()] = 1
    steps[:, 0] = 1
    steps[:, dump] = 0
    P = xp.zeros((B, 2 * Lmax + 3), dtype=np.int64)
    P[:, 1:] = xp.cumsum(steps, axis=1)

    def at(idx):                               # P[b, idx[t, b]]
        return xp.take_along_axis(P.T, idx, axis=0)

    def at_e(idx):                             # running sums of the end steps
        return xp.where(idx < K[None, :], at(xp.minimum(idx + 1, 2 * Lmax + 2)) - 1,
                        at(xp.minimum(idx, 2 * Lmax + 2)))

    Tb, Kb = t_len[None, :], K[None, :]
    Sb = 2 * l_len[None, :] + 1
    t = xp.arange(T)[:, None]
    k = xp.clip(Kb - Tb + t + 1, 0, Kb)
    tk = xp.minimum(t, Kb)
    a_lo = xp.where(Kb < Tb, 0, 1) + at(k) - at(xp.broadcast_to(xp.maximum(0, Kb - Tb + 1), k.shape))
    a_hi = xp.where(Sb > 1, 2, 1) + at_e(tk)
    b_lo = xp.where(Sb > 1, Sb - 2, 0) - (at(xp.broadcast_to(Kb, k.shape)) - at(k))
    b_hi = xp.where(Tb > Kb, Sb, Sb - 1) - (at_e(xp.broadcast_to(xp.minimum(Tb - 1, Kb), k.shape))
                                            - at_e(tk))
    feasible = (K <= t_len) & (t_len > 0)
    live = (t < Tb) & feasible[None, :]
    s = xp.arange(S)[None, None, :]
    win_a = (s >= a_lo[:, :, None]) & (s < a_hi[:, :, None]) & live[:, :, None]
    win_b = (s >= b_lo[:, :, None]) & (s < b_hi[:, :, None]) & live[:, :, None]
    return win_a, win_b, feasible


def _label_sums(xp, gamma, lab, in_label):
    """Per lattice column, the log-sum of gamma (T, B, S) over the columns of its channel,
    each sum taken in column order as 1.9.1 does: one sum over the blank columns, and for a
    label symbol over its occurrences in the label (usually one).  Returns (T, B, S)."""
    T, B, S = gamma.shape
    Lmax = S // 2
    g = xp.ascontiguousarray(gamma.transpose(2, 1, 0))     # (S, B, T): rows are contiguous
    out = xp.empty_like(g)
    acc = g[0].copy()
    for s in range(2, S, 2):
        acc = _log_plus(xp, g[s], acc)
    out[0::2] = acc
    if Lmax:
        j = xp.arange(Lmax)
        same = (lab[:, :, None] == lab[:, None, :]) & in_label[:, :, None] & in_label[:, None, :]
        before = same & (j[None, None, :] < j[None, :, None])   # [b, j, i]: i < j, same symbol
        after = same & (j[None, None, :] >= j[None, :, None])
        prev = xp.where(before.any(axis=2), Lmax - 1 - xp.argmax(before[:, :, ::-1], axis=2), -1)
        last = xp.where(in_label, Lmax - 1 - xp.argmax(after[:, :, ::-1], axis=2), j[None, :])
        bidx = xp.arange(B)
        sums = g[1::2].copy()                                   # (Lmax, B, T)
        for k in range(Lmax):
            pk = prev[:, k]
            if bool((pk >= 0).any()):
                folded = _log_plus(xp, sums[k], sums[xp.maximum(pk, 0), bidx])
                sums[k] = xp.where((pk >= 0)[:, None], folded, sums[k])
        out[1::2] = sums[last.T, bidx[None, :]]
    return out.transpose(2, 1, 0)


def _label_sums_general(xp, gamma, ext, blank, A, NEG):
    """As ``_label_sums`` but into (T, B, A), for labels that use the blank's channel."""
    T, B, S = gamma.shape
    bidx = xp.arange(B)
    occ = xp.full((T, B, A), NEG)
    seen = xp.zeros((B, A), dtype=bool)
    seen[:, blank] = True
    for s in range(S):
        if s % 2 == 0:
            occ[:, :, blank] = _log_plus(xp, gamma[:, :, s], occ[:, :, blank])
            continue
        c = ext[:, s]
        if bool(seen[bidx, c].any()):
            occ[:, bidx, c] = _log_plus(xp, gamma[:, :, s], occ[:, bidx, c])
        else:
            occ[:, bidx, c] = gamma[:, :, s]
        seen[bidx, c] = True
    return occ


def _warp_ctc(xp, data, lab, t_len, l_len, blank):
    """1.9.1's CPU kernel (Baidu's warp-ctc) in its own order of evaluation, in the data's
    dtype: softmax, the alpha pass, then the beta pass that sums alpha * beta per label.

    Impossible cells hold NEG instead of -inf: NEG + x == NEG for every log-probability x, and
    log-plus with NEG returns the other operand unchanged, so the arithmetic on possible cells
    is exactly 1.9.1's while no step needs a -inf test."""
    T, B, A = data.shape
    dt = data.dtype.type
    fn = _libm(xp, dt, data.size)
    NEG = dt(-1e25) if dt == np.float32 else dt(-1e250)
    Lmax = lab.shape[1]
    S = 2 * Lmax + 1

    # softmax over the alphabet as exp(x - max - log(sum)); the sum runs in channel order
    x = data - data.max(axis=2, keepdims=True)
    e = fn[0](x)
    if T * B >= 512:        # a running sum over channels (faster than cumsum on many rows)
        total = e[:, :, 0].copy()
        for a in range(1, A):
            total += e[:, :, a]
        total = total[:, :, None]
    else:                   # cumsum is serial too
        total = xp.cumsum(e, axis=2, dtype=dt)[:, :, -1:]
    logp = x - fn[1](total)
    probs = fn[0](logp)

    # the blank-extended labels: blank, l1, blank, l2, ..., blank  (B, S)
    in_label = xp.arange(Lmax)[None, :] < l_len[:, None]
    ext = xp.full((B, S), blank, dtype=np.int64)
    ext[:, 1::2] = xp.where(in_label, lab, blank)
    skip = xp.zeros((B, S), dtype=bool)     # may a path jump from s-2 straight to s?
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    skip_add = xp.where(skip, dt(0), NEG)
    skipn_add = xp.full((B, S), NEG)        # ... and in the beta pass, from s+2 back to s:
    skipn_add[:, :-2] = xp.where((ext[:, :-2] != blank) & (ext[:, :-2] != ext[:, 2:]), dt(0), NEG)
    # (the same unless a label equals the blank: 1.9.1 tests the earlier column in both)
    win_a, win_b, ok = _windows(xp, lab, t_len, l_len, T, S)
    lpx = logp.reshape(T, B * A)[:, (ext + A * xp.arange(B)[:, None]).ravel()].reshape(T, B, S)
    lpx = xp.maximum(lpx, NEG)              # an activation of -inf: impossible, as NEG is

    # alpha and beta run together, one Python step per frame (step k: alpha's frame k, beta's
    # frame T-1-k).  Beta's columns are kept reversed, so both recursions read their two
    # predecessors from the left, from two impossible columns in front.  Beta updates one
    # column in place: cells outside its window keep the value of a later frame, as 1.9.1's
    # single beta column does.
    lpa = xp.where(win_a, lpx, NEG)
    lpb = lpx[::-1, :, ::-1]                # step k -> beta's frame T-1-k, columns reversed
    lp_step = xp.concatenate([lpa, lpb], axis=1)
    keep = xp.concatenate([xp.zeros((T, B, S), dtype=bool), ~win_b[::-1, :, ::-1]], axis=1)
    skips = xp.concatenate([skip_add, skipn_add[:, ::-1]], axis=0)
    starts = {}                             # steps at which an example's beta begins
    for b, (n, fits) in enumerate(zip(t_len.tolist(), ok.tolist())):
        if fits:
            starts.setdefault(T - n, []).append(b)
    steps = xp.full((T, 2 * B, S + 2), NEG)
    for k in range(T):
        if k:
            prev = steps[k - 1]
            ps = _log_plus(xp, prev[:, 2:], prev[:, 1:-1])
            ps = _log_plus(xp, ps, prev[:, :-2] + skips)
            ps += lp_step[k]
            xp.copyto(ps, prev[:, 2:], where=keep[k])
        else:
            ps = xp.full((2 * B, S), NEG)
            ps[:B] = lpa[0]
        if k in starts:                     # beta starts at the example's last frame
            rows = xp.asarray(starts[k])
            ps[B + rows] = xp.where(keep[k, B + rows], ps[B + rows], lpb[k, rows])
        steps[k, :, 2:] = ps
    steps = steps[:, :, 2:]
    alpha = steps[:, :B]
    bidx = xp.arange(B)
    last_t = xp.maximum(t_len - 1, 0)
    a_end = xp.where(win_a[last_t, bidx], alpha[last_t, bidx], NEG)
    loglik = xp.full((B,), NEG)
    end_cols = xp.nonzero(win_a[last_t, bidx].any(axis=0))[0].tolist()
    for s in end_cols:      # summed in column order, as 1.9.1 does
        loglik = _log_plus(xp, loglik, a_end[:, s])
    # alpha * beta (log), counting frame t twice, on the cells of beta's window
    gamma = xp.where(win_b, alpha + steps[::-1, B:, ::-1], NEG)

    # per frame and label, log-sum of alpha * beta over the label's columns, in column order
    cols = (slice(None), bidx[:, None], ext)
    if bool((ext[:, 1::2] == blank)[in_label].any()):
        occ = _label_sums_general(xp, gamma, ext, blank, A, NEG)
        occ_s = occ[cols]
    else:
        occ_s = _label_sums(xp, gamma, lab, in_label)
        occ = None

    # an alignment that fits in time may still be impossible (a label equal to the blank
    # cannot be skipped to): its log-likelihood is -inf and its loss +inf, as in 1.9.1
    loglik = xp.where(loglik <= NEG / 2, dt(-np.inf), loglik)
    ll = xp.where(ok, loglik, dt(0))
    # the softmax, less the label posterior where some alignment passes (1.9.1 takes
    # exp(log(alpha*beta) - log p - loglik) with its log-softmax as log p)
    if S < A:       # only the label's channels have a posterior: work on those alone
        probs_s = probs[cols]
        grad = probs.copy()
        grad[cols] = xp.where(occ_s <= NEG / 2, probs_s,
                              probs_s - fn[0]((occ_s - lpx) - ll[None, :, None]))
    else:
        if occ is None:
            occ = xp.full((T, B, A), NEG)
            occ[cols] = occ_s               # a channel's columns all hold its one sum
        grad = probs - fn[0]((occ - logp) - ll[None, :, None])
        grad = xp.where(occ <= NEG / 2, probs, grad)
    alive = (xp.arange(T)[:, None] < t_len[None, :]) & ok[None, :]
    if not bool(alive.all()):
        xp.copyto(grad, dt(0), where=~alive[:, :, None])
    # no alignment (label too long for the frames): 1.9.1 reports zero loss; its gradient is
    # left uninitialised there, ours is zero
    loss = xp.where(ok, -loglik, dt(0))
    return loss.astype(data.dtype, copy=False), grad.astype(data.dtype, copy=False)


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
