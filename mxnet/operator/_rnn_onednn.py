"""float32 fused RNN as 1.9.1's CPU build computes it (oneDNN's RNN primitive), bit for bit.

1.9.1 runs a float32 ``RNN`` on the CPU through oneDNN's RNN primitive (forward and backward).
The order of its arithmetic, found by experiment against 1.9.1 (every output and gradient of
lstm, gru, rnn_tanh and rnn_relu, 1 to 4 layers, one or two directions, batches of 1 to 20,
K up to 800, and the 2-layer T=35 N=20 I=H=200 LSTM, all 0 bits off):

GEMMs. Every product is oneDNN's own sgemm: per output one fused multiply-add (FMA) chain over
k from +0. The inner dimension K is cut into blocks: 384 while more than 768 remain, then the
rest in two halves (the first one ceil(rest / 2)) when more than 384 remain; block results are
added in order, to C itself where the GEMM accumulates (beta = 1): ``C + b1 + b2 ...``.
A product with a single row (a batch of one, or one time step of one) is oneDNN's GEMV
instead: one chain over all of K, which starts from C itself where it accumulates. (One
output column, an input or state size of 1, follows an order not identified: not emulated
in training.)

Forward, per layer and direction: ``gx`` = the input GEMM of all time steps. Per step:

- rnn_tanh / rnn_relu / lstm, training: ``a = (gx + W_h h) + b`` with the hidden GEMM
  accumulating onto ``gx`` and ``b = b_x + b_h`` (one float32 add). Inference uses another
  kernel: at some steps of layers whose input size equals the state size the hidden chain
  starts from ``gx`` itself (no separate sum, see ``inference_starts``), else as in training;
  and K is not cut at 384 (so inference is emulated only with sizes of at most 384).
- lstm gates: oneDNN's logistic for i, f, o and its tanh for g (``_onednn``);
  ``c = fma(i, g, f * c)``, ``h = o * tanh(c)``.
- gru (linear-before-reset): ``r, z = sigmoid((gx + (b_x + b_h)) + gh)``,
  ``n = tanh(fma(r, gh_n + b_hn, gx_n + b_xn))``, ``h = fma(1 - z, n, z * h)``.

Backward, per layer (last first) and direction, ``dH = dy + dh_next`` per step, with
``xm(v) = fma(-v, v, v)`` and ``om(v) = fma(-v, v, 1)``:

- lstm: ``dC = dc + (om(tanh c) * dH) * o``; ``di = (dC * xm(i)) * g``,
  ``df = (dC * xm(f)) * c_prev``, ``dg = (i * dC) * om(g)``, ``do = (dH * xm(o)) * tanh c``;
  ``dc_prev = dC * f``; ``dh_prev = dG W_h``.
- rnn_tanh: ``dG = dH * om(y)``; rnn_relu: ``dH * (y > 0)``.
- gru: ``dn = ((1 - z) * om(n)) * dH``, ``dz = ((h_prev - n) * xm(z)) * dH``,
  ``dr = (dn * xm(r)) * (gh_n + b_hn)``; the hidden GEMM takes ``dn * r`` in place of dn, and
  ``dh_prev = dH * z + dG' W_h`` (accumulating). oneDNN keeps gru's gates in the order
  (z, r, n): the K order of the dx and dh GEMMs.
- ``dx`` is one GEMM over all steps (K = gates * H); directions add as ``d0 + d1``.
- ``dW_x`` is one GEMM over the (step, batch) rows in forward-processing order; in a stack of
  one direction, the layers above the first one of oneDNN's fused layer group (all layers
  when the input size equals the state size, else the layers from 2 on) first take the
  last step alone and then accumulate the GEMM of the others.
- ``dW_h``: one direction: the GEMM of steps 2.. plus that of step 1 (added after); two
  directions: one GEMM over all steps in processing order; gru: one GEMM per step, added in
  backward order.
- bias gradients: a sequential sum over the rows in backward-processing order (gru's hidden
  bias over the rows of ``dG'``).

Every step is a Python loop over k with vector operations over the outputs, so it costs
several times NumPy's BLAS: ``WORK_MAX`` bounds the multiply-adds of a call that is emulated.
"""
from __future__ import annotations

import numpy as np

from ._onednn import dnn_sigmoid, dnn_tanh

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_KBLK = 384            # oneDNN sgemm's K block
# forward multiply-adds (all layers) of the largest emulated call. The emulation costs ~40 us
# per thousand (forward + backward): 1 << 15 keeps an exact call within ~1.5 ms, against
# 0.1-0.2 ms for the BLAS path (at 1 << 21 a T=35 N=4 H=32 LSTM took 16.7 ms instead of 0.66)
WORK_MAX = 1 << 15
_ALL_AT_ONCE = 1 << 16  # products of a block formed in one array up to this many


def emulated(xp, attrs, lay, T, N, dtype, train, masks):
    """Whether a call takes the exact path: float32 on NumPy, no projection, no clipping, no
    sequence lengths, within ``WORK_MAX``, and within the sizes whose order is known
    (training: input and state sizes > 1; inference: sizes <= 384, and for gru more than one
    (step, batch) row)."""
    if xp is not np or np.dtype(dtype) != _F32 or lay.P or masks is not None or \
            attrs["lstm_state_clip_min"] is not None or T * N == 0:
        return False
    work = sum(lay.D * T * N * lay.G * lay.H * (i + lay.H) for i in lay.in_sizes)
    if work > WORK_MAX:
        return False
    if train:   # oneDNN's GEMV for a single output column (input or state size 1): not known
        return lay.H > 1 and lay.I > 1
    # gru over a single (step, batch) row in inference follows an order not identified
    return max(lay.H, *lay.in_sizes) <= _KBLK and not (lay.mode == "gru" and T * N == 1)


def chain_starts(lay, l, T, N, train):
    """The steps of layer ``l`` whose hidden chain starts from ``gx`` (see below)."""
    if train:
        # a batch of one: oneDNN's GEMV accumulates onto gx
        return frozenset(range(T)) if N == 1 else frozenset()
    return inference_starts(lay, l, T)


def inference_starts(lay, l, T):
    """The steps (time indices) of layer ``l`` whose hidden chain starts from ``gx`` in
    inference; the others add ``gx + W_h h``.

    oneDNN merges the input and the hidden product into one chain where the layer's input size
    equals the state size and both sources have the same row stride. User buffers (data, the
    initial and final states, the output of a group's top layer) have the state size as
    stride; oneDNN's workspace pads it to a multiple of 16.
    In one direction the layers form one fused group when the input size equals the state
    size, else the first layer is a group of its own. Per step: the input comes from the user
    for a group's bottom layer and at the last step (the final state of the layer below),
    else from the workspace; the hidden state from the user at step 0 and in a group's top
    layer (it reads its own output), else from the workspace.
    """
    H = lay.H
    if lay.in_sizes[l] != H:
        return frozenset()
    if lay.D == 2 or H % 16 == 0:
        return frozenset(range(T))
    bottom = 0 if l == 0 or lay.I != H and l == 1 else None
    top = l == lay.L - 1 or (lay.I != H and l == 0)
    starts = set()
    for t in range(T):
        src_user = bottom is not None or t == T - 1
        iter_user = t == 0 or top
        if src_user == iter_user:
            starts.add(t)
    return frozenset(starts)


def _kblocks(k):
    out, s = [], 0
    while s < k:
        rem = k - s
        b = _KBLK if rem > 2 * _KBLK else (rem + 1) // 2 if rem > _KBLK else rem
        out.append((s, s + b))
        s += b
    return out


def _run(a64, b64, acc):
    """acc (float32, in place) += a64 @ b64 as one FMA chain over k; operands float64."""
    m, k = a64.shape
    n = b64.shape[1]
    if m * n * k <= _ALL_AT_ONCE:
        prods = a64.T[:, :, None] * b64[:, None, :]
        for i in range(k):
            np.add(acc, prods[i], out=acc, casting="same_kind")
    else:
        tmp = np.empty((m, n), _F64)
        for i in range(k):
            np.multiply(a64[:, i:i + 1], b64[i], out=tmp)
            np.add(acc, tmp, out=acc, casting="same_kind")
    return acc


def gemm(a, b, c=None, b64=None):
    """float32 ``a @ b`` (+ ``c``, accumulated block by block) in oneDNN's order. A single
    row without ``c`` is oneDNN's GEMV: one chain, K not cut."""
    a64 = a.astype(_F64)
    if b64 is None:
        b64 = b.astype(_F64)
    m, n = a.shape[0], b64.shape[1]
    if m == 1 and c is None:
        return _run(a64, b64, np.zeros((m, n), _F32))
    out = None if c is None else c.astype(_F32, copy=True)
    for s, e in _kblocks(a.shape[1]):
        blk = _run(a64[:, s:e], b64[s:e], np.zeros((m, n), _F32))
        if out is None:
            out = blk
        else:
            out += blk
    if out is None:
        out = np.zeros((m, n), _F32)
    return out


def _chain_from(a, b64, c):
    """One unblocked FMA chain starting from ``c`` (a GEMV, or oneDNN's merged input and
    hidden product in inference)."""
    return _run(a.astype(_F64), b64, c.astype(_F32, copy=True))


def _fma(a, b, c):
    return (a.astype(_F64) * b + c).astype(_F32)


def _xm(v):
    return _fma(-v, v, v)


def _om(v):
    return _fma(-v, v, np.float32(1))


# ---------------------------------------------------------------------------------------------
# forward


def forward(lay, W, x, h, c, ydst, ent, steps, starts=frozenset()):
    """One layer, one direction; ``steps`` in processing order, ``starts`` the steps whose
    hidden chain starts from ``gx`` (``chain_starts``). Writes ``ydst`` and the reserve views
    ``ent`` (as the fast path lays them out); returns the final (h, c)."""
    T, N, In = x.shape
    H, mode = lay.H, lay.mode
    gx = gemm(x.reshape(T * N, In), W.wx.T).reshape(T, N, -1)
    wh64 = W.wh.T.astype(_F64)
    if mode == "gru":
        return _forward_gru(H, W, gx, wh64, h, ydst, ent, steps), None
    b = W.bx + W.bh
    gates, cells = ent.get("gates"), ent.get("cell")
    for t in steps:
        if t in starts:
            a = _chain_from(h, wh64, gx[t])
        else:
            a = gemm(h, None, gx[t], wh64)
        a += b
        if mode == "lstm":
            g = gates[t]
            g[...] = dnn_sigmoid(np, a)
            g[:, 2 * H:3 * H] = dnn_tanh(np, a[:, 2 * H:3 * H])
            c = _fma(g[:, :H], g[:, 2 * H:3 * H], g[:, H:2 * H] * c)
            cells[t] = c
            h = ydst[t]
            np.multiply(g[:, 3 * H:], dnn_tanh(np, c), out=h)
        else:
            h = ydst[t]
            h[...] = dnn_tanh(np, a) if mode == "rnn_tanh" else np.maximum(a, 0)
    return h, c


def _forward_gru(H, W, gx, wh64, h, ydst, ent, steps):
    H2 = 2 * H
    grz = gx[:, :, :H2] + (W.bx[:H2] + W.bh[:H2])
    gn = gx[:, :, H2:] + W.bx[H2:]
    bhn = W.bh[H2:]
    gates = ent["gates"]
    for t in steps:
        gh = gemm(h, None, None, wh64)
        g = gates[t]
        rz = dnn_sigmoid(np, grz[t] + gh[:, :H2])
        g[:, :H2] = rz
        whb = g[:, 3 * H:]
        np.add(gh[:, H2:], bhn, out=whb)
        n = dnn_tanh(np, _fma(rz[:, :H], whb, gn[t]))
        g[:, H2:3 * H] = n
        z = rz[:, H:]
        hn = ydst[t]
        hn[...] = _fma(1 - z, n, z * h)
        h = hn
    return h


# ---------------------------------------------------------------------------------------------
# backward


def _gru_perm(H):
    return np.r_[H:2 * H, 0:H, 2 * H:3 * H]


def backward(lay, W, dW, x, y, hprev, c0, dy, dh, dc, ent, order, bidir, xrest):
    """BPTT of one layer and direction; ``order`` lists the steps in forward-processing order,
    ``hprev`` (T, N, H) the state each step started from. Writes ``dW``; returns
    (d initial h, d initial c, dx)."""
    T, N, In = x.shape
    H, mode = lay.H, lay.mode
    GH = lay.G * H
    dGs = np.empty((T, N, GH), _F32)
    dGh = dGs
    rev = order[::-1]
    perm = slice(None)
    if mode == "lstm":
        dh, dc = _backward_lstm(H, W, ent, c0, dGs, dy, dh, dc, rev, order)
    elif mode == "gru":
        perm = _gru_perm(H)
        dGh = np.empty((T, N, GH), _F32)
        dh = _backward_gru(H, W, ent, hprev, dGs, dGh, dy, dh, rev)
    else:
        d = _om(y) if mode == "rnn_tanh" else (y > 0).astype(_F32)
        wh64 = W.wh.astype(_F64)
        for t in rev:
            dHt = dy[t] + dh
            np.multiply(dHt, d[t], out=dGs[t])
            dh = gemm(dGs[t], None, None, wh64)
    dx = gemm(dGs.reshape(T * N, GH)[:, perm], W.wx[perm]).reshape(T, N, In)
    # weight gradients
    if xrest:
        last = order[-1]
        acc = gemm(dGs[last].T, x[last])
        rest = order[:-1]
        dW.wx[...] = gemm(_rows(dGs, rest).T, _rows(x, rest), acc) if rest else acc
    else:
        dW.wx[...] = gemm(_rows(dGs, order).T, _rows(x, order))
    if mode == "gru":
        acc = np.zeros((GH, H), _F32)
        for t in rev:
            acc += gemm(dGh[t].T, hprev[t])
        dW.wh[...] = acc
    elif bidir:
        dW.wh[...] = gemm(_rows(dGh, order).T, _rows(hprev, order))
    else:
        first = gemm(dGh[order[0]].T, hprev[order[0]])
        rest = order[1:]
        dW.wh[...] = gemm(_rows(dGh, rest).T, _rows(hprev, rest)) + first if rest else first
    dW.bx[...] = _seq_sum(_rows(dGs, rev))
    dW.bh[...] = dW.bx if dGh is dGs else _seq_sum(_rows(dGh, rev))
    return dh, dc, dx


def _rows(a, steps):
    """The (len(steps) * N, ...) rows of ``a`` (T, N, ...) taken step by step."""
    steps = list(steps)
    if steps == list(range(steps[0], steps[0] + len(steps))):
        part = a[steps[0]:steps[0] + len(steps)]
    else:
        part = a[steps]
    return part.reshape(-1, a.shape[-1])


def _seq_sum(rows):
    """Row after row from +0 (a column-wise reduction over axis 0 adds rows in order)."""
    if rows.shape[1] == 1:
        return np.cumsum(np.concatenate([np.zeros((1, 1), _F32), rows]), axis=0)[-1]
    return np.add.reduce(rows, axis=0, initial=np.float32(0))


def _backward_lstm(H, W, ent, c0, dGs, dy, dh, dc, rev, order):
    T = dGs.shape[0]
    g4 = ent["gates"].reshape(T, -1, 4, H)
    i, f, g, o = g4[:, :, 0], g4[:, :, 1], g4[:, :, 2], g4[:, :, 3]
    cells = ent["cell"]
    tc = dnn_tanh(np, cells)
    om_tc = _om(tc)
    xm_i, xm_f, xm_o, om_g = _xm(i), _xm(f), _xm(o), _om(g)
    cprev = np.empty_like(cells)
    first = order[0]
    cprev[first] = c0
    for a, b in zip(order[:-1], order[1:]):
        cprev[b] = cells[a]
    wh64 = W.wh.astype(_F64)
    dc = dc.copy()
    for t in rev:
        dHt = dy[t] + dh
        dCt = om_tc[t] * dHt
        dCt *= o[t]
        dCt += dc
        d4 = dGs[t].reshape(-1, 4, H)
        np.multiply(dCt, xm_i[t], out=d4[:, 0])
        d4[:, 0] *= g[t]
        np.multiply(dCt, xm_f[t], out=d4[:, 1])
        d4[:, 1] *= cprev[t]
        np.multiply(i[t], dCt, out=d4[:, 2])
        d4[:, 2] *= om_g[t]
        np.multiply(dHt, xm_o[t], out=d4[:, 3])
        d4[:, 3] *= tc[t]
        dc = dCt * f[t]
        dh = gemm(dGs[t], None, None, wh64)
    return dh, dc


def _backward_gru(H, W, ent, hprev, dGs, dGh, dy, dh, rev):
    T = dGs.shape[0]
    g4 = ent["gates"].reshape(T, -1, 4, H)
    r, z, n, whb = g4[:, :, 0], g4[:, :, 1], g4[:, :, 2], g4[:, :, 3]
    fn = (1 - z) * _om(n)
    fz = (hprev - n) * _xm(z)
    xm_r = _xm(r)
    perm = _gru_perm(H)
    wh64 = W.wh[perm].astype(_F64)
    for t in rev:
        dHt = dy[t] + dh
        d3 = dGs[t].reshape(-1, 3, H)
        np.multiply(fn[t], dHt, out=d3[:, 2])
        np.multiply(fz[t], dHt, out=d3[:, 1])
        np.multiply(d3[:, 2], xm_r[t], out=d3[:, 0])
        d3[:, 0] *= whb[t]
        e3 = dGh[t].reshape(-1, 3, H)
        e3[:, :2] = d3[:, :2]
        np.multiply(d3[:, 2], r[t], out=e3[:, 2])
        if dHt.shape[0] == 1:   # GEMV: the chain starts from C
            dh = _chain_from(dGh[t][:, perm], wh64, dHt * z[t])
        else:
            dh = gemm(dGh[t][:, perm], None, dHt * z[t], wh64)
    return dh
