"""``_contrib_quantized_rnn`` (``mx.nd.contrib.quantized_rnn``): the INT8 LSTM of 1.9.1's
CPU build, which runs it through oneDNN's int8 LSTM.

Inputs: ``data`` (uint8, (seq_len, batch, input_size), as ``quantize_asym`` produces it),
``parameters`` (the float32 packed vector of the fused ``RNN`` op), ``state`` and
``state_cell`` (float32), and the (1,)-shaped float32 ``scale`` and ``shift`` of the data
(``u8 = rint(x * scale + shift)``; 1.9.1 lists them as ``min_data`` / ``max_data`` in a
symbol's arguments). Outputs are float32: the sequence and, with ``state_outputs``, the
final hidden and cell states. Only ``mode='lstm'`` without projection or sequence lengths.

How 1.9.1 computes it (observed on its outputs, see tools/golden/gen_quantized_rnn.py):

- The weights are quantized inside the operator to int8 with one scale per gate row,
  ``127 / max|w|``, saturating to [-128, 127] (round half to even). The maxima are those
  1.9.1 gathers: the first layer's input and recurrent matrices (both directions when
  bidirectional) and, for each further oneDNN layer group, one (4H, H) block read from
  the group's first input matrix and one read ``4H * input_size`` values after it. (1.9.1
  runs a unidirectional stack with input_size == state_size as one group, so only layer 0
  counts there; other stacks run layer 0 alone and the rest as one group, bidirectional ones
  one group per layer.) Reads past the end of ``parameters`` count as 0 here.
- The hidden state is carried as uint8 with the data's scale and shift (the initial state
  included); the cell state stays float32.
- Gate pre-activations are int32 sums of uint8 x int8 products, with each pair of
  neighbouring products (along the input axis) first added and saturated to int16, as
  oneDNN's int8 GEMM does on CPUs without VNNI. They become float32 as
  ``acc / (w_scale * scale) + bias`` with the bias (``b_x + b_h``) corrected for the shift
  by ``sum(int8 weights of the row) * shift / (w_scale * scale)``.
- Gates, cell update and ``o * tanh(c)`` run in float32; the new hidden state is quantized
  to uint8 and every hidden output (sequence and final state) is its dequantized value
  ``(u8 - shift) / scale``.
- ``p`` (dropout) and the LSTM state clipping attributes are accepted and ignored.

The sequence output and the hidden states match 1.9.1 exactly on the recorded cases; the
float32 cell state differs by a few ulps (oneDNN evaluates exp/tanh with its own
polynomials), which could also move a hidden value lying within ulps of a rounding boundary
by one uint8 step. No gradient (1.9.1 registers none).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .contrib_quantize import F32
from .nn_rnn import _PARAMS as _RNN_PARAMS
from .nn_rnn import _check_attrs as _rnn_check_attrs
from .nn_rnn import _fill as _rnn_fill
from .registry import Param, register

_OP = "_contrib_quantized_rnn"
_U8, _FL = np.dtype(np.uint8), np.dtype(np.float32)
_INPUTS = ("data", "parameters", "state", "state_cell", "min_data", "max_data")
# elements of the pair-product temporary handled at once by the saturating GEMM
_CHUNK_ELEMS = 1 << 22

__all__ = []


def _check_attrs(opname, attrs):
    if attrs["mode"] != "lstm":
        raise MXNetError(f"{opname}: only mode='lstm' is supported (quantized RNN runs a "
                         f"vanilla LSTM); got mode='{attrs['mode']}'")
    if attrs["projection_size"] is not None:
        raise MXNetError(f"{opname}: projection_size is not supported; got "
                         f"{attrs['projection_size']}, expected None")
    if attrs["use_sequence_length"]:
        raise MXNetError(f"{opname}: use_sequence_length is not supported; got True, "
                         "expected False")
    _rnn_check_attrs(opname, attrs)


def _groups(I, H, L, bi):
    """(layers, input size) of the oneDNN layer groups 1.9.1 runs."""
    if bi:
        return [(1, I)] + [(1, 2 * H)] * (L - 1)
    if I == H:
        return [(L, I)]
    return [(1, I)] + ([(L - 1, H)] if L > 1 else [])


def _weight_scales(xp, flat, I, H, L, bi):
    """Per gate-row scales 127 / max|w| over the blocks 1.9.1 reads (see module doc)."""
    G, n = 4 * H, flat.shape[0]
    absw = xp.abs(flat)

    def block(off, count):
        out = xp.zeros(count, dtype=F32)
        lo, hi = max(off, 0), min(off + count, n)
        if hi > lo:
            out[lo - off:hi - off] = absw[lo:hi]
        return out.reshape(G, -1)

    one = (I + H) * G                       # one direction of layer 0
    ax, ah = block(0, G * I), block(G * I, G * H)
    if bi:
        ax = xp.maximum(ax, block(one, G * I))
        ah = xp.maximum(ah, block(G * I + one, G * H))
    wmax = xp.maximum(ax.max(axis=1), ah.max(axis=1))
    D = 2 if bi else 1
    px, ph = one * D, G * I + one * D
    for _, isz in _groups(I, H, L, bi)[1:]:
        goi = xp.maximum(block(px, G * H), block(ph, G * H))
        wmax = xp.maximum(wmax, goi.max(axis=1))
        px += (isz + H) * G * D
        ph = px + G * H
    with np.errstate(divide="ignore"):
        return (F32(127) / wmax).astype(F32)


def _sat_gemm(xp, a, w):
    """int64 (M, G) = a (M, K) uint8 values x w (G, K) int8 values, each neighbouring pair
    of products saturated to int16 before the sum (oneDNN's non-VNNI int8 GEMM)."""
    M, K = a.shape
    G = w.shape[0]
    if K % 2:
        a = xp.concatenate([a, xp.zeros((M, 1), dtype=a.dtype)], axis=1)
        w = xp.concatenate([w, xp.zeros((G, 1), dtype=w.dtype)], axis=1)
    a = a.astype(np.int32)
    w = w.astype(np.int32)
    a0, a1 = a[:, 0::2], a[:, 1::2]
    w0, w1 = w[:, 0::2], w[:, 1::2]
    K2 = a0.shape[1]
    out = xp.empty((M, G), dtype=np.int64)
    step = max(1, _CHUNK_ELEMS // max(1, G * K2))
    for s in range(0, M, step):        # blocks of rows, to bound the temporary
        pair = a0[s:s + step, None, :] * w0[None] + a1[s:s + step, None, :] * w1[None]
        xp.clip(pair, -32768, 32767, out=pair)
        out[s:s + step] = pair.sum(axis=-1, dtype=np.int64)
    return out


def _sigmoid(xp, a):
    return F32(1) / (F32(1) + xp.exp(-a))


def _param_size(attrs, I):
    H, L = attrs["state_size"], attrs["num_layers"]
    D = 2 if attrs["bidirectional"] else 1
    G = 4 * H
    size = D * G * (I + H) + (L - 1) * D * G * (D * H + H)
    return size + L * D * 2 * G


def _shapes(attrs, T, N, I):
    H, L = attrs["state_size"], attrs["num_layers"]
    D = 2 if attrs["bidirectional"] else 1
    return (_param_size(attrs, I),), (L * D, N, H), (T, N, D * H)


def _check_inputs(attrs, data, params, state, cell, scale, shift):
    if data.dtype != _U8:
        raise MXNetError(f"{_OP}: data must be uint8 (quantize it with quantize_asym); got "
                         f"{data.dtype}")
    named = (("parameters", params), ("state", state), ("state_cell", cell),
             ("data_scale (min_data)", scale), ("data_shift (max_data)", shift))
    for name, a in named:
        if a.dtype != _FL:
            raise MXNetError(f"{_OP}: {name} must be float32; got {a.dtype}")
    if data.ndim != 3:
        raise MXNetError(f"{_OP}: data must be 3-D (seq_len, batch, input_size); got shape "
                         f"{tuple(data.shape)}")
    pshape, sshape, _ = _shapes(attrs, *data.shape)
    for (name, a), want in zip(named, (pshape, sshape, sshape, (1,), (1,))):
        if tuple(a.shape) != want:
            raise MXNetError(f"{_OP}: {name} must have shape {want} for data of shape "
                             f"{tuple(data.shape)}; got {tuple(a.shape)}")


def _unpack(flat, I, H, L, D):
    """[(wx, wh, b_x + b_h)] per layer and direction (row l * D + d)."""
    G = 4 * H
    sizes = [I] + [D * H] * (L - 1)
    off, mats = 0, []
    for l in range(L):
        for _ in range(D):
            wx = flat[off:off + G * sizes[l]].reshape(G, sizes[l])
            off += G * sizes[l]
            mats.append([wx, flat[off:off + G * H].reshape(G, H)])
            off += G * H
    for m in mats:
        m.append((flat[off:off + G] + flat[off + G:off + 2 * G]).astype(F32))
        off += 2 * G
    return mats


def _quantized_rnn(rc, attrs, data, params, state, cell, scale, shift):
    xp = rc.xp
    _check_inputs(attrs, data, params, state, cell, scale, shift)
    T, N, I = data.shape
    H, L = attrs["state_size"], attrs["num_layers"]
    bi = attrs["bidirectional"]
    D, G = (2 if bi else 1), 4 * H
    sc, sh = F32(float(scale[0])), F32(float(shift[0]))
    flat = params.astype(F32)
    ws = _weight_scales(xp, flat, I, H, L, bi)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        deq = (F32(1) / (ws * sc)).astype(F32)

    def quant_u8(v):
        return xp.clip(xp.rint(v * sc + sh), 0, 255).astype(np.int32)

    mats = _unpack(flat, I, H, L, D)
    x = data.astype(np.int32)
    hy = xp.empty((L * D, N, H), dtype=F32)
    cy = xp.empty((L * D, N, H), dtype=F32)
    for l in range(L):
        y = xp.empty((T, N, D * H), dtype=np.int32)
        for d in range(D):
            k = l * D + d
            wx, wh, b = mats[k]
            with np.errstate(invalid="ignore", over="ignore"):
                qx = xp.clip(xp.rint(wx * ws[:, None]), -128, 127).astype(np.int32)
                qh = xp.clip(xp.rint(wh * ws[:, None]), -128, 127).astype(np.int32)
                comp = (qx.sum(axis=1) + qh.sum(axis=1)).astype(F32)
                bias = (b - (comp * sh) / (ws * sc)).astype(F32)
            xacc = _sat_gemm(xp, x.reshape(T * N, -1), qx).reshape(T, N, G)
            h = quant_u8(state[k].astype(F32))
            c = cell[k].astype(F32)
            for t in (range(T - 1, -1, -1) if d == 1 else range(T)):
                acc = xacc[t] + _sat_gemm(xp, h, qh)
                g = (acc.astype(F32) * deq + bias).astype(F32)
                gi = _sigmoid(xp, g[:, :H])
                gf = _sigmoid(xp, g[:, H:2 * H])
                gc = xp.tanh(g[:, 2 * H:3 * H])
                go = _sigmoid(xp, g[:, 3 * H:])
                c = (gf * c + gi * gc).astype(F32)
                h = quant_u8((go * xp.tanh(c)).astype(F32))
                y[t, :, d * H:(d + 1) * H] = h
            hy[k] = (h.astype(F32) - sh) / sc
            cy[k] = c
        x = y
    out = ((x.astype(F32) - sh) / sc).astype(F32)
    if attrs["state_outputs"]:
        return out, hy, cy
    return out


def _num_outputs(attrs):
    return 3 if attrs["state_outputs"] else 1


def _output_names(attrs):
    # 1.9.1's spelling, typo included
    return ["output", "state_output", "statecell_ouput"][:_num_outputs(attrs)]


def _fill(ins, i, want, name):
    _rnn_fill(_OP, ins, i, want, name)


def _infer_shape(attrs, in_shapes, out_shapes):
    ins = list(in_shapes)
    for i in (4, 5):
        _fill(ins, i, (1,), _INPUTS[i])
    d = ins[0]
    if d is not None and len(d) != 3:
        raise MXNetError(f"{_OP}: data must be 3-D (seq_len, batch, input_size); got shape "
                         f"{tuple(d)}")
    if d is None or None in d or 0 in d:
        return ins, [None] * _num_outputs(attrs), []
    pshape, sshape, oshape = _shapes(attrs, *d)
    _fill(ins, 1, pshape, "parameters")
    _fill(ins, 2, sshape, "state")
    _fill(ins, 3, sshape, "state_cell")
    return ins, [oshape, sshape, sshape][:_num_outputs(attrs)], []


def _infer_type(attrs, in_types, out_types):
    ins = list(in_types)
    if ins[0] is not None and np.dtype(ins[0]) != _U8:
        raise MXNetError(f"{_OP}: data must be uint8 (quantize it with quantize_asym); got "
                         f"{np.dtype(ins[0]).name}")
    for i in range(1, 6):
        if ins[i] is not None and np.dtype(ins[i]) != _FL:
            raise MXNetError(f"{_OP}: {_INPUTS[i]} must be float32; got "
                             f"{np.dtype(ins[i]).name}")
        ins[i] = _FL
    return ins, [_FL] * _num_outputs(attrs), []


register(_OP, _quantized_rnn, inputs=_INPUTS, num_outputs=_num_outputs,
         output_names=_output_names,
         params=_RNN_PARAMS + (Param("quantized", "bool", False,
                                     doc="Set by the quantization pass; no effect."),),
         infer_shape=_infer_shape, infer_type=_infer_type, attr_check=_check_attrs,
         # 1.9.1's mx.nd front end names the last two inputs data_scale / data_shift
         nd_input_aliases={"data_scale": "min_data", "data_shift": "max_data"},
         doc="INT8 LSTM for inference: uint8 data with its quantize_asym scale and shift, "
             "float32 packed parameters (quantized to int8 per gate row inside), float32 "
             "states; float32 outputs. Forward only.")
