"""The fused recurrent layer ``RNN`` (rnn_relu, rnn_tanh, lstm, gru) and its backward op.

Conventions shared with 1.9.1 (checked numerically against it, see tools/golden/gen_nn_rnn.py):

- ``data`` is (seq_len, batch, input_size); ``state``/``state_cell`` are
  (num_layers * directions, batch, size) with layer-major rows (row ``layer * D + direction``);
  the output is (seq_len, batch, directions * size), the forward direction first.
- ``parameters`` is one flat vector: first every weight matrix -- for each layer, for each
  direction: the input-to-hidden matrix (gates * H, in), the hidden-to-hidden matrix
  (gates * H, R) and, with ``projection_size``, the projection (P, H) -- then every bias --
  for each layer, for each direction: the input-to-hidden then the hidden-to-hidden bias
  (gates * H each). R is the recurrent size (P with a projection, else H).
- Gate blocks inside a matrix: lstm is (input, forget, cell candidate, output); gru is
  (reset, update, new) and the reset gate multiplies the whole recurrent term of the new
  gate, bias included: ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``.
- ``p`` drops the outputs of every layer but the last one, only while training.

Where 1.9.1's CPU kernel is silent about a feature, the cuDNN behaviour (1.9.1 on a GPU) is
followed, since it is the one its documentation describes:

- ``use_sequence_length``: each batch element runs over its first ``sequence_length[b]``
  steps only (the reverse direction starts at its last valid step); outputs past the end
  are zero and the final states are those of the last valid step. (1.9.1's CPU kernel
  ignores the lengths.)
- ``lstm_state_clip_min/max`` clip the cell state after every step; ``lstm_state_clip_nan``
  then also turns NaN cell values into ``lstm_state_clip_min``. Clipped entries pass no
  gradient. (1.9.1's CPU kernel ignores clipping.)
- ``projection_size`` (LSTMP) and clipping are LSTM-only, as in cuDNN.

How it runs: per layer and direction, the input projection of all time steps is one GEMM;
each time step then does one GEMM for the recurrent term and a few batched elementwise ops.
The forward pass stores what the backward pass needs (activated gates, cell states, the
outputs of inner layers and dropout masks) in one flat hidden output, ``reserve``; the
dedicated ``_backward_RNN`` runs back-propagation through time from it and finishes each
layer and direction with one GEMM per weight gradient.

float32 calls on the CPU up to a size (``_rnn_onednn.emulated``) instead take
``_rnn_onednn``'s forward and backward, which follow the order of arithmetic of oneDNN's RNN
primitive (1.9.1's CPU path) and give its bits; they store the same reserve.
"""
from __future__ import annotations

import math

import numpy as np

from .._mode import mode as _mode
from ..backend import blas_threads
from ..base import MXNetError
from . import _rnn_onednn as _dnn
from .registry import Param, register

_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}
_OP = "RNN"


# ---------------------------------------------------------------------------------------------
# parameters and layout


def _check_attrs(opname, attrs):
    mode = attrs["mode"]
    if attrs["state_size"] <= 0:
        raise MXNetError(f"{opname}: state_size must be positive, got {attrs['state_size']}")
    if attrs["num_layers"] <= 0:
        raise MXNetError(f"{opname}: num_layers must be positive, got {attrs['num_layers']}")
    if not 0.0 <= attrs["p"] <= 1.0:  # 1.9.1 bounds it to [0, 1]
        raise MXNetError(f"{opname}: dropout p must satisfy 0 <= p <= 1, got {attrs['p']}")
    proj = attrs["projection_size"]
    if proj is not None:
        if mode != "lstm":
            raise MXNetError(f"{opname}: projection_size is only supported for mode='lstm', "
                             f"got mode='{mode}'")
        if not 0 < proj <= attrs["state_size"]:
            raise MXNetError(f"{opname}: projection_size must be in [1, state_size="
                             f"{attrs['state_size']}], got {proj}")
    lo, hi = attrs["lstm_state_clip_min"], attrs["lstm_state_clip_max"]
    if lo is not None or hi is not None:
        if mode != "lstm":
            raise MXNetError(f"{opname}: state clipping is only supported for mode='lstm', "
                             f"got mode='{mode}'")
        if lo is None or hi is None:
            raise MXNetError(f"{opname}: lstm_state_clip_min and lstm_state_clip_max must be "
                             f"given together, got min={lo} and max={hi}")
        if hi < lo:
            raise MXNetError(f"{opname}: lstm_state_clip_max ({hi}) must be >= "
                             f"lstm_state_clip_min ({lo})")


_PARAMS = (
    Param("state_size", "int", doc="Size of the hidden state of each layer."),
    Param("num_layers", "int", doc="Number of stacked layers."),
    Param("bidirectional", "bool", False, doc="Run a second, reversed direction per layer."),
    Param("mode", "str", choices=tuple(_GATES), doc="The recurrent cell."),
    Param("p", "float", 0.0, doc="Dropout rate on the outputs of every layer but the last "
                                 "(training only)."),
    Param("state_outputs", "bool", False, doc="Also return the final states."),
    Param("projection_size", "int", None, doc="LSTM only: project the hidden state to this "
                                              "size (LSTMP)."),
    Param("lstm_state_clip_min", "float", None, doc="LSTM only: lower clip of the cell state."),
    Param("lstm_state_clip_max", "float", None, doc="LSTM only: upper clip of the cell state."),
    Param("lstm_state_clip_nan", "bool", False, doc="With clipping, turn NaN cell values into "
                                                    "lstm_state_clip_min."),
    Param("use_sequence_length", "bool", False, doc="Take a per-sample valid length input "
                                                    "``sequence_length``."),
)


class _Layout:
    """Sizes and offsets of the packed parameters and of the reserve, for one input size.

    ``w[l][d]`` is ``(wx, wh, wr)`` and ``b[l][d]`` is ``(bx, bh)``, each an
    ``(offset, shape)`` into the flat parameter vector (``wr`` is None without projection).
    ``reserve_slots(T, N)`` lays the hidden output out the same way.
    """

    def __init__(self, attrs, input_size):
        self.mode = attrs["mode"]
        self.G = _GATES[self.mode]
        self.H = attrs["state_size"]
        self.P = attrs["projection_size"]
        self.R = self.P or self.H
        self.D = 2 if attrs["bidirectional"] else 1
        self.L = attrs["num_layers"]
        # 1.9.1 accepts p = 1 but then drops nothing (recorded on CPU)
        self.dropout = 0 < attrs["p"] < 1 and self.L > 1
        self.I = input_size
        G, H, R, D = self.G, self.H, self.R, self.D
        self.in_sizes = [input_size] + [D * R] * (self.L - 1)
        off = 0
        self.w = []
        for l in range(self.L):
            row = []
            for _ in range(D):
                wx = (off, (G * H, self.in_sizes[l]))
                off += G * H * self.in_sizes[l]
                wh = (off, (G * H, R))
                off += G * H * R
                wr = None
                if self.P:
                    wr = (off, (self.P, H))
                    off += self.P * H
                row.append((wx, wh, wr))
            self.w.append(row)
        self.b = []
        for _ in range(self.L):
            row = []
            for _ in range(D):
                row.append(((off, (G * H,)), (off + G * H, (G * H,))))
                off += 2 * G * H
            self.b.append(row)
        self.size = off

    def state_shape(self, N):
        return (self.L * self.D, N, self.R)

    def cell_shape(self, N):
        return (self.L * self.D, N, self.H)

    def out_shape(self, T, N):
        return (T, N, self.D * self.R)

    def reserve_slots(self, T, N):
        """(slots, total): slots[l] = {"dirs": [per-direction dict], "y": ..., "mask": ...}."""
        H, D, R = self.H, self.D, self.R
        off = 0
        slots = []

        def take(shape):
            nonlocal off
            s = (off, shape)
            off += math.prod(shape)
            return s

        for l in range(self.L):
            dirs = []
            for _ in range(D):
                ent = {}
                if self.mode == "lstm":
                    ent["gates"] = take((T, N, 4 * H))
                    ent["cell"] = take((T, N, H))
                    if self.P:
                        ent["hid"] = take((T, N, H))
                elif self.mode == "gru":
                    ent["gates"] = take((T, N, 4 * H))   # r, z, n and W_hn h + b_hn
                dirs.append(ent)
            layer = {"dirs": dirs}
            if l < self.L - 1:
                layer["y"] = take((T, N, D * R))
                if self.dropout:
                    layer["mask"] = take((T, N, D * R))
            slots.append(layer)
        return slots, off


def _view(flat, slot):
    off, shape = slot
    return flat[off:off + math.prod(shape)].reshape(shape)


def _input_names(attrs):
    names = ["data", "parameters", "state"]
    if attrs["mode"] == "lstm":
        names.append("state_cell")
    if attrs["use_sequence_length"]:
        names.append("sequence_length")
    return names


def _num_states(attrs):
    return 2 if attrs["mode"] == "lstm" else 1


def _output_names(attrs):
    names = ["output"]
    if attrs["state_outputs"]:
        names += ["state_output", "statecell_output"][:_num_states(attrs)]
    return names


# ---------------------------------------------------------------------------------------------
# input checks


def _seen(arrays):
    return ", ".join(f"{tuple(a.shape)} {a.dtype}" for a in arrays)


def _err(msg, arrays=()):
    tail = f" (inputs: {_seen(arrays)})" if arrays else ""
    return MXNetError(f"{_OP}: {msg}{tail}")


def _check_inputs(attrs, data, params, state, cell, seqlen):
    arrays = [a for a in (data, params, state, cell, seqlen) if a is not None]
    if data.ndim != 3:
        raise _err(f"data must be 3-D (seq_len, batch, input_size), got shape {tuple(data.shape)}",
                   arrays)
    T, N, I = data.shape
    if data.dtype.kind != "f":
        raise _err(f"data must be floating point, got {data.dtype}", arrays)
    lay = _Layout(attrs, I)
    if tuple(params.shape) != (lay.size,):
        raise _err(f"parameters must have shape ({lay.size},) for mode='{attrs['mode']}', "
                   f"input_size={I}, state_size={lay.H}, num_layers={lay.L}, "
                   f"bidirectional={attrs['bidirectional']}, projection_size={lay.P}; "
                   f"got {tuple(params.shape)}", arrays)
    for name, a, want in (("state", state, lay.state_shape(N)),
                          ("state_cell", cell, lay.cell_shape(N))):
        if a is not None and tuple(a.shape) != want:
            raise _err(f"{name} must have shape {want}, got {tuple(a.shape)}", arrays)
    for name, a in (("parameters", params), ("state", state), ("state_cell", cell)):
        if a is not None and a.dtype != data.dtype:
            raise _err(f"{name} has dtype {a.dtype} but data has {data.dtype}; "
                       "they must match", arrays)
    if seqlen is not None and tuple(seqlen.shape) != (N,):
        raise _err(f"sequence_length must have shape ({N},) (one length per batch element), "
                   f"got {tuple(seqlen.shape)}", arrays)
    return lay


def _split_inputs(attrs, arrays):
    data, params, state = arrays[:3]
    k = 3
    cell = None
    if attrs["mode"] == "lstm":
        cell = arrays[k]
        k += 1
    seqlen = arrays[k] if attrs["use_sequence_length"] else None
    return data, params, state, cell, seqlen


def _step_masks(xp, seqlen, T):
    """Per-step validity of each batch element: (T, N, 1) bool, or None without lengths.

    Lengths are truncated to integers, as 1.9.1 does when it hands them to cuDNN.
    """
    if seqlen is None:
        return None
    lens = xp.trunc(seqlen.astype(np.float64))
    if bool(xp.any(lens < 0)) or bool(xp.any(lens > T)):
        raise _err(f"sequence_length values must be in [0, {T}] (seq_len), "
                   f"got {seqlen.tolist()}", (seqlen,))
    steps = xp.arange(T, dtype=np.float64).reshape(T, 1, 1)
    return steps < lens.reshape(1, -1, 1)


# ---------------------------------------------------------------------------------------------
# forward


def _sigmoid_(xp, a):
    """In-place logistic function."""
    xp.negative(a, out=a)
    xp.exp(a, out=a)
    a += 1
    xp.reciprocal(a, out=a)
    return a


class _Weights:
    """Views of one layer/direction's weights and biases in the flat parameter vector."""

    def __init__(self, lay, flat, l, d):
        wx, wh, wr = lay.w[l][d]
        bx, bh = lay.b[l][d]
        self.wx, self.wh = _view(flat, wx), _view(flat, wh)
        self.wr = None if wr is None else _view(flat, wr)
        self.bx, self.bh = _view(flat, bx), _view(flat, bh)


def _in_proj(xp, lay, W, x, scale=None):
    """The input GEMM of all time steps plus the biases that add outside the gates (for gru,
    b_hn stays inside the reset gate); ``scale`` multiplies each gate row."""
    T, N, In = x.shape
    GH = W.wx.shape[0]
    bias = W.bx + W.bh
    if lay.mode == "gru":
        bias[2 * lay.H:] = W.bx[2 * lay.H:]
    wx = W.wx
    if scale is not None:
        wx = wx * scale[:, None]
        bias *= scale
    xw = xp.matmul(x.reshape(T * N, In), wx.T).reshape(T, N, GH)
    xw += bias
    return xw


# Below this many multiply-adds a time step's recurrent GEMM runs on one OpenBLAS thread
# (the steps of the loop, not the all-steps input and weight GEMMs): OpenBLAS's threads gain
# little on such GEMMs and stall whenever another process holds a core (a 2-layer LSTM LM
# step, 20 x 200 hidden, with a test run busy on the second core of the 2-core VM: backward
# 356 ms against ~11 on an idle machine).
_STEP_THREADS_MACS = 1 << 22


def _serial_steps(xp, steps, macs):
    """``steps``, iterated with OpenBLAS on one thread when a step's GEMM is small."""
    if xp is not np or macs >= _STEP_THREADS_MACS:
        yield from steps
        return
    with blas_threads.single_threaded():
        yield from steps


def _run_direction(xp, lay, attrs, W, x, h0, c0, ydst, ent, masks, reverse):
    """Run one layer in one direction; write outputs into ``ydst`` (T, N, R) and gate values
    into the reserve views ``ent``. Returns the final (h, c)."""
    steps = _serial_steps(xp, range(x.shape[0] - 1, -1, -1) if reverse else
                          range(x.shape[0]), x.shape[1] * lay.R * lay.G * lay.H)
    if lay.mode == "lstm":
        return _forward_lstm(xp, lay, attrs, W, x, h0, c0, ydst, ent, masks, steps)
    if lay.mode == "gru":
        return _forward_gru(xp, lay, W, x, h0, ydst, ent, masks, steps), None
    return _forward_plain(xp, lay, W, x, h0, ydst, masks, steps), None


def _emit(xp, ydst, t, hnew, h, m):
    """Write step t's output; return the state carried to the next step."""
    if m is None:
        out = ydst[t]
        out[...] = hnew
        return out
    ydst[t] = xp.where(m, hnew, 0)
    return xp.where(m, hnew, h)


def _forward_lstm(xp, lay, attrs, W, x, h, c, ydst, ent, masks, steps):
    H = lay.H
    # sigmoid(a) = 0.5 * tanh(a / 2) + 0.5: with the i, f, o pre-activations halved, one tanh
    # over all four gates and one multiply-add give every activation
    scale = xp.full((4 * H,), 0.5, dtype=x.dtype)
    scale[2 * H:3 * H] = 1
    shift = 1 - scale
    xw = _in_proj(xp, lay, W, x, scale)
    whT = xp.ascontiguousarray((W.wh * scale[:, None]).T)   # BLAS is faster on C order
    gates, cells, hid = ent["gates"], ent["cell"], ent.get("hid")
    wrT = None if hid is None else xp.ascontiguousarray(W.wr.T)
    lo, hi = attrs["lstm_state_clip_min"], attrs["lstm_state_clip_max"]
    direct = hid is None and masks is None
    for t in steps:
        m = None if masks is None else masks[t]
        g = gates[t]
        xp.matmul(h, whT, out=g)
        g += xw[t]
        xp.tanh(g, out=g)
        g *= scale
        g += shift
        ct = cells[t]
        xp.multiply(g[:, H:2 * H], c, out=ct)
        ct += g[:, :H] * g[:, 2 * H:3 * H]
        if lo is not None:
            if attrs["lstm_state_clip_nan"]:
                ct[xp.isnan(ct)] = lo
            xp.clip(ct, lo, hi, out=ct)
        if m is not None:
            ct[...] = xp.where(m, ct, c)
        c = ct
        if direct:
            h = ydst[t]
            xp.tanh(ct, out=h)
            h *= g[:, 3 * H:]
            continue
        hnew = xp.tanh(ct)
        hnew *= g[:, 3 * H:]
        if hid is not None:
            hid[t] = hnew
            hnew = xp.matmul(hnew, wrT)
        h = _emit(xp, ydst, t, hnew, h, m)
    return h, c


def _forward_gru(xp, lay, W, x, h, ydst, ent, masks, steps):
    H = lay.H
    xw = _in_proj(xp, lay, W, x)
    whT = xp.ascontiguousarray(W.wh.T)
    b_hn = W.bh[2 * H:]
    gates = ent["gates"]
    for t in steps:
        m = None if masks is None else masks[t]
        g = gates[t]
        hw = xp.matmul(h, whT)
        rz = g[:, :2 * H]
        xp.add(hw[:, :2 * H], xw[t][:, :2 * H], out=rz)
        _sigmoid_(xp, rz)
        hn = g[:, 3 * H:]
        xp.add(hw[:, 2 * H:], b_hn, out=hn)
        n = g[:, 2 * H:3 * H]
        xp.multiply(g[:, :H], hn, out=n)
        n += xw[t][:, 2 * H:]
        xp.tanh(n, out=n)
        hnew = h - n          # h' = n + z (h - n)
        hnew *= g[:, H:2 * H]
        hnew += n
        h = _emit(xp, ydst, t, hnew, h, m)
    return h


def _forward_plain(xp, lay, W, x, h, ydst, masks, steps):
    xw = _in_proj(xp, lay, W, x)
    whT = xp.ascontiguousarray(W.wh.T)
    for t in steps:
        m = None if masks is None else masks[t]
        hnew = xp.matmul(h, whT)
        hnew += xw[t]
        if lay.mode == "rnn_tanh":
            xp.tanh(hnew, out=hnew)
        else:
            xp.maximum(hnew, 0, out=hnew)
        h = _emit(xp, ydst, t, hnew, h, m)
    return h


def _dropout_keep(rc, shape, p):
    """The keep mask (bool) of the dropout between layers.

    1.9.1's own CPU kernel (float64, or float32 with ``MXNET_USE_MKLDNN_RNN=0``) keeps an
    element where a canonical float from the single-engine ``Random<cpu>`` resource is >= p,
    layer after layer; these are its masks. Its default float32 path (oneDNN's RNN) silently
    applies no dropout at all; that is not copied: the dropout asked for is applied."""
    serial = getattr(rc.rng, "serial", None)
    if serial is None:  # a GPU: cuDNN's dropout
        return rc.rng.random(shape) >= p
    n = math.prod(shape)
    return (serial.uniform_f32(n) >= np.float32(p)).reshape(shape)


def _rnn_forward(rc, attrs, *arrays):
    xp = rc.xp
    data, params, state, cell, seqlen = _split_inputs(attrs, arrays)
    lay = _check_inputs(attrs, data, params, state, cell, seqlen)
    T, N, _ = data.shape
    dt = data.dtype
    D, R = lay.D, lay.R
    masks = _step_masks(xp, seqlen, T)
    slots, total = lay.reserve_slots(T, N)
    # 1.9.1 runs oneDNN's training kind of primitive also for a forward recorded by autograd
    # in predict mode
    train = rc.is_train or _mode.recording
    exact = _dnn.emulated(xp, attrs, lay, T, N, dt, train, masks)
    reserve = xp.empty(total, dtype=dt)
    out = xp.empty(lay.out_shape(T, N), dtype=dt)
    hy = xp.empty(lay.state_shape(N), dtype=dt)
    cy = xp.empty(lay.cell_shape(N), dtype=dt) if cell is not None else None
    x = data
    for l in range(lay.L):
        last = l == lay.L - 1
        y = out if last else _view(reserve, slots[l]["y"])
        for d in range(D):
            k = l * D + d
            ent = {name: _view(reserve, s) for name, s in slots[l]["dirs"][d].items()}
            ydst = y[:, :, d * R:(d + 1) * R] if D == 2 else y
            W = _Weights(lay, params, l, d)
            c0 = None if cell is None else cell[k]
            if exact:
                steps = range(T - 1, -1, -1) if d == 1 else range(T)
                starts = _dnn.chain_starts(lay, l, T, N, train)
                h, c = _dnn.forward(lay, W, x, state[k], c0, ydst, ent, steps, starts)
            else:
                h, c = _run_direction(xp, lay, attrs, W, x, state[k], c0, ydst, ent, masks,
                                      reverse=d == 1)
            hy[k] = h
            if cy is not None:
                cy[k] = c
        if not last:
            x = y
            if lay.dropout:
                mask = _view(reserve, slots[l]["mask"])
                keep = _dropout_keep(rc, mask.shape, attrs["p"]) if rc.is_train else None
                if keep is not None:
                    mask[...] = keep
                    mask *= 1.0 / (1.0 - attrs["p"])
                    x = y * mask
                else:
                    mask[...] = 1
    if cy is None:
        return out, hy, reserve
    return out, hy, cy, reserve


# ---------------------------------------------------------------------------------------------
# backward


def _prev_states(xp, seq, init, reverse, masks=None):
    """The state each step started from: the previous step's (held) state or ``init``.

    With ``masks`` (sequence lengths), the reverse direction of a shorter element starts from
    ``init`` at its last valid step, where ``seq`` (an output, zero past the end) is not the
    state.
    """
    if not reverse:
        return xp.concatenate([init[None], seq[:-1]], axis=0)
    prev = xp.concatenate([seq[1:], init[None]], axis=0)
    if masks is not None:
        nxt = xp.concatenate([masks[1:], xp.zeros_like(masks[:1])], axis=0)
        prev = xp.where(nxt, prev, init[None])
    return prev


def _back_direction(xp, lay, attrs, W, dW, x, y, h0, c0, dy, dh, dc, ent, masks, reverse):
    """BPTT over one layer and direction. Writes the weight gradients into ``dW`` and returns
    (d initial h, d initial c, d input).

    Everything a step's gradient needs besides the incoming gradient (gate derivatives and
    their partner factors) is computed for all steps at once before the loop, so each step
    is a few elementwise ops and one GEMM.
    """
    T, N, In = x.shape
    H, G, mode = lay.H, lay.G, lay.mode
    steps = _serial_steps(xp, range(T) if reverse else range(T - 1, -1, -1),
                          N * lay.R * G * H)
    hprev = _prev_states(xp, y, h0, reverse, masks)
    dA = xp.empty((T, N, G * H), dtype=x.dtype)    # d pre-activation of the input GEMM
    dh = dh.copy()
    dhid = None
    if mode == "lstm":
        dB = dA
        dh, dc, dhid = _backward_lstm(xp, lay, attrs, W, dA, dy, dh, dc.copy(), c0, ent, masks,
                                      steps, reverse)
    elif mode == "gru":
        dB = xp.empty((T, N, G * H), dtype=x.dtype)   # ... and of the recurrent GEMM
        dh = _backward_gru(xp, lay, W, dA, dB, dy, dh, hprev, ent, masks, steps)
    else:
        dB = dA
        dh = _backward_plain(xp, lay, W, dA, y, dy, dh, masks, steps)
    A2 = dA.reshape(T * N, G * H)
    B2 = dB.reshape(T * N, G * H)
    dW.wx[...] = xp.matmul(A2.T, x.reshape(T * N, In))
    dW.wh[...] = xp.matmul(B2.T, hprev.reshape(T * N, lay.R))
    dW.bx[...] = A2.sum(axis=0)
    dW.bh[...] = dW.bx if dB is dA else B2.sum(axis=0)
    if dhid is not None:
        dW.wr[...] = xp.matmul(dhid.reshape(T * N, lay.R).T, ent["hid"].reshape(T * N, H))
    dx = xp.matmul(A2, W.wx).reshape(T, N, In)
    return dh, dc, dx


def _backward_lstm(xp, lay, attrs, W, dA, dy, dh, dc, c0, ent, masks, steps, reverse):
    T, N, _ = dA.shape
    H = lay.H
    g4 = ent["gates"].reshape(T, N, 4, H)
    i, f, cand, o = g4[:, :, 0], g4[:, :, 1], g4[:, :, 2], g4[:, :, 3]
    cells, hid = ent["cell"], ent.get("hid")
    tc = xp.tanh(cells)
    p_out = tc * o * (1 - o)                     # d a_o / d h
    p_cell = o * (1 - tc * tc)                   # d c / d h
    part = xp.empty((T, N, 3, H), dtype=dA.dtype)  # d a_{i,f,g} / d c
    xp.multiply(cand, i * (1 - i), out=part[:, :, 0])
    xp.multiply(_prev_states(xp, cells, c0, reverse), f * (1 - f), out=part[:, :, 1])
    xp.multiply(i, 1 - cand * cand, out=part[:, :, 2])
    lo, hi = attrs["lstm_state_clip_min"], attrs["lstm_state_clip_max"]
    keep = None if lo is None else ((cells > lo) & (cells < hi)).astype(dA.dtype)
    dhid = None if hid is None else xp.empty((T, N, lay.R), dtype=dA.dtype)
    wh = W.wh
    for t in steps:
        m = None if masks is None else masks[t]
        dh += dy[t]
        if dhid is not None:
            dhid[t] = dh if m is None else dh * m
            dhh = xp.matmul(dh, W.wr)
        else:
            dhh = dh
        da = dA[t]
        da4 = da.reshape(N, 4, H)
        xp.multiply(dhh, p_out[t], out=da4[:, 3])
        dcur = dhh * p_cell[t]
        dcur += dc
        if keep is not None:
            dcur *= keep[t]
        xp.multiply(dcur[:, None, :], part[t], out=da4[:, :3])
        dcur *= f[t]
        if m is None:
            dc = dcur
            dh = xp.matmul(da, wh)
        else:
            da *= m
            dc = xp.where(m, dcur, dc)
            dh = xp.where(m, xp.matmul(da, wh), dh)
    return dh, dc, dhid


def _backward_gru(xp, lay, W, dA, dB, dy, dh, hprev, ent, masks, steps):
    T, N, _ = dA.shape
    H = lay.H
    g4 = ent["gates"].reshape(T, N, 4, H)
    r, z, n, hn = g4[:, :, 0], g4[:, :, 1], g4[:, :, 2], g4[:, :, 3]
    part = xp.empty((T, N, 2, H), dtype=dA.dtype)    # d a_{z,n} / d h
    xp.multiply(hprev - n, z * (1 - z), out=part[:, :, 0])
    xp.multiply(1 - z, 1 - n * n, out=part[:, :, 1])
    p_r = hn * r * (1 - r)                           # d a_r / d a_n
    wh = W.wh
    for t in steps:
        m = None if masks is None else masks[t]
        dh += dy[t]
        da4 = dA[t].reshape(N, 3, H)
        db4 = dB[t].reshape(N, 3, H)
        xp.multiply(dh[:, None, :], part[t], out=da4[:, 1:])
        xp.multiply(da4[:, 2], p_r[t], out=da4[:, 0])
        db4[:, :2] = da4[:, :2]
        xp.multiply(da4[:, 2], r[t], out=db4[:, 2])
        if m is None:
            dh *= z[t]
            dh += xp.matmul(dB[t], wh)
        else:
            dA[t] *= m
            dB[t] *= m
            dh = xp.where(m, dh * z[t] + xp.matmul(dB[t], wh), dh)
    return dh


def _backward_plain(xp, lay, W, dA, y, dy, dh, masks, steps):
    deriv = 1 - y * y if lay.mode == "rnn_tanh" else (y > 0).astype(dA.dtype)
    wh = W.wh
    for t in steps:
        m = None if masks is None else masks[t]
        dh += dy[t]
        xp.multiply(dh, deriv[t], out=dA[t])
        if m is None:
            dh = xp.matmul(dA[t], wh)
        else:
            dA[t] *= m
            dh = xp.where(m, xp.matmul(dA[t], wh), dh)
    return dh


def _split_backward(attrs, arrays):
    k = len(_input_names(attrs))
    ns = _num_states(attrs)
    out, reserve, dy = arrays[k:k + 3]
    dstates = arrays[k + 3:k + 3 + ns]
    return arrays[:k], out, reserve, dy, dstates


def _rnn_backward(rc, attrs, *arrays):
    xp = rc.xp
    ins, out, reserve, dy, dstates = _split_backward(attrs, arrays)
    data, params, state, cell, seqlen = _split_inputs(attrs, ins)
    lay = _check_inputs(attrs, data, params, state, cell, seqlen)
    T, N, _ = data.shape
    D, R = lay.D, lay.R
    masks = _step_masks(xp, seqlen, T)
    slots, _ = lay.reserve_slots(T, N)
    exact = _dnn.emulated(xp, attrs, lay, T, N, data.dtype, True, masks)
    dparams = xp.zeros_like(params)
    dstate = xp.empty_like(state)
    dcell = None if cell is None else xp.empty_like(cell)
    dhy = dstates[0]
    dcy = dstates[1] if cell is not None else None
    dY = dy if masks is None else dy * masks
    for l in range(lay.L - 1, -1, -1):
        if l == 0:
            x = data
        else:
            x = _view(reserve, slots[l - 1]["y"])
            if lay.dropout:
                x = x * _view(reserve, slots[l - 1]["mask"])
        y = out if l == lay.L - 1 else _view(reserve, slots[l]["y"])
        dx = None
        for d in range(D):
            k = l * D + d
            ent = {name: _view(reserve, s) for name, s in slots[l]["dirs"][d].items()}
            sl = slice(d * R, (d + 1) * R)
            W, dW = _Weights(lay, params, l, d), _Weights(lay, dparams, l, d)
            c0 = None if cell is None else cell[k]
            if exact:
                order = list(range(T - 1, -1, -1)) if d == 1 else list(range(T))
                dh0, dc0, dxd = _dnn.backward(
                    lay, W, dW, x, y[:, :, sl], _prev_states(xp, y[:, :, sl], state[k], d == 1),
                    c0, dY[:, :, sl], dhy[k], None if dcy is None else dcy[k], ent, order,
                    bidir=D == 2, xrest=D == 1 and l > (0 if lay.I == lay.H else 1))
            else:
                dh0, dc0, dxd = _back_direction(
                    xp, lay, attrs, W, dW, x, y[:, :, sl], state[k], c0, dY[:, :, sl],
                    dhy[k], None if dcy is None else dcy[k], ent, masks, reverse=d == 1)
            dstate[k] = dh0
            if dcell is not None:
                dcell[k] = dc0
            if dx is None:
                dx = dxd
            else:
                dx += dxd
        dY = dx
        if l > 0 and lay.dropout:
            dY *= _view(reserve, slots[l - 1]["mask"])
    if dcell is None:
        return dY, dparams, dstate
    return dY, dparams, dstate, dcell


# ---------------------------------------------------------------------------------------------
# shapes, types, gradient, registration


def _dim(shape, i):
    if shape is None or len(shape) <= i:
        return None
    v = shape[i]
    return None if v is None or v == 0 else v


def _fill(opname, shapes, i, want, name):
    """Set ``shapes[i]`` to ``want`` (a full shape) unless it is known and different."""
    have = shapes[i]
    if have is not None and None not in have and 0 not in have and (
            len(have) != len(want) or any(w is not None and h != w for h, w in zip(have, want))):
        raise MXNetError(f"{opname}: {name} must have shape {want}, got {tuple(have)}")
    shapes[i] = want


def _rnn_infer_shape(attrs, in_shapes, out_shapes):
    ins = list(in_shapes)
    outs = list(out_shapes) if out_shapes else [None] * _rnn_num_outputs(attrs)
    data = ins[0]
    if data is not None and len(data) != 3:
        raise MXNetError(f"{_OP}: data must be 3-D (seq_len, batch, input_size), "
                         f"got shape {tuple(data)}")
    T = _dim(data, 0) or _dim(outs[0], 0)
    N = _dim(data, 1) or _dim(ins[2], 1) or _dim(outs[0], 1)
    if N is None and attrs["use_sequence_length"]:
        N = _dim(ins[-1], 0)
    I = _dim(data, 2)
    lay = _Layout(attrs, I or 0)     # only the parameter count depends on input_size
    if I is not None:
        _fill(_OP, ins, 1, (lay.size,), "parameters")
    if N is None and data is None:
        return ins, outs, []
    # an unknown batch size (N is None) leaves that dim unknown in the states and the output
    ns = _num_states(attrs)
    _fill(_OP, ins, 2, lay.state_shape(N), "state")
    _fill(_OP, outs, 1, lay.state_shape(N), "state_output")
    if ns == 2:
        _fill(_OP, ins, 3, lay.cell_shape(N), "state_cell")
        _fill(_OP, outs, 2, lay.cell_shape(N), "statecell_output")
    if attrs["use_sequence_length"]:
        _fill(_OP, ins, len(ins) - 1, (N,), "sequence_length")
    if T is not None and N is not None:
        if I is not None:
            _fill(_OP, ins, 0, (T, N, I), "data")
        _fill(_OP, outs, 0, lay.out_shape(T, N), "output")
        outs[-1] = (lay.reserve_slots(T, N)[1],)
    elif data is not None:
        _fill(_OP, outs, 0, lay.out_shape(T, N), "output")
    return ins, outs, []


def _rnn_infer_type(attrs, in_types, out_types):
    ins = list(in_types)
    n_float = 3 + (_num_states(attrs) - 1)
    known = next((t for t in ins[:n_float] if t is not None), None)
    if known is None:
        known = next((t for t in out_types if t is not None), None)
    for i in range(n_float):
        if ins[i] is None:
            ins[i] = known
        elif known is not None and np.dtype(ins[i]) != np.dtype(known):
            raise MXNetError(f"{_OP}: input {_input_names(attrs)[i]} has dtype {ins[i]} but "
                             f"data has {known}; they must match")
    if attrs["use_sequence_length"] and ins[-1] is None:
        ins[-1] = known
    return ins, [known] * _rnn_num_outputs(attrs), []


def _rnn_num_outputs(attrs):
    return 2 + _num_states(attrs)


def _rnn_num_visible(attrs):
    return 1 + _num_states(attrs) if attrs["state_outputs"] else 1


def _rnn_grad(F, attrs, ins, outs, og):
    ns = _num_states(attrs)
    args = list(ins) + [outs[0], outs[-1], og[0]] + list(og[1:1 + ns])
    res = F._backward_RNN(*args, **attrs)
    grads = list(res)
    if attrs["use_sequence_length"]:
        grads.append(F.zeros_like(ins[-1]))
    return grads


register(_OP, _rnn_forward, params=_PARAMS, inputs=_input_names,
         num_outputs=_rnn_num_outputs, num_visible_outputs=_rnn_num_visible,
         output_names=_output_names, infer_shape=_rnn_infer_shape, infer_type=_rnn_infer_type,
         gradient=_rnn_grad, attr_check=_check_attrs, needs_rng=True,
         doc="A fused multi-layer recurrent network (vanilla ReLU/tanh RNN, LSTM or GRU) over "
             "a (seq_len, batch, input_size) sequence, with all weights packed in one "
             "``parameters`` vector. Returns the output sequence and, with state_outputs, "
             "the final hidden (and LSTM cell) states.")


def _backward_input_names(attrs):
    names = _input_names(attrs) + ["output", "reserve", "ograd"]
    return names + ["ograd_state", "ograd_state_cell"][:_num_states(attrs)]


def _backward_infer_shape(attrs, in_shapes, out_shapes):
    k = 3 + _num_states(attrs) - 1
    return list(in_shapes), list(in_shapes[:k]), []


def _backward_infer_type(attrs, in_types, out_types):
    k = 3 + _num_states(attrs) - 1
    return list(in_types), list(in_types[:k]), []


register("_backward_RNN", _rnn_backward, params=_PARAMS, inputs=_backward_input_names,
         num_outputs=lambda attrs: 3 + _num_states(attrs) - 1,
         infer_shape=_backward_infer_shape, infer_type=_backward_infer_type,
         attr_check=_check_attrs, nd_hidden=True,
         doc="Back-propagation through time for RNN from its saved gate values: the "
             "gradients of data, parameters, state (and state_cell for LSTM).")
