"""Signal-processing contrib operators: count_sketch, fft and ifft.

1.9.1 builds these for GPUs only (cuFFT and a CUDA kernel); here they run on every device.

- **count_sketch** maps each row of ``data`` (N, d) -- or (N1, N2, N3, d) -- to ``out_dim``
  buckets: ``out[n, h[i]] += s[i] * data[n, i]`` with ``h``, ``s`` of shape (1, d). Its
  gradient gathers back: ``grad[n, i] = s[i] * ograd[n, h[i]]`` (h and s get none).
- **fft** is the unnormalised 1-D DFT along the last axis of real data (N, d) or
  (N1, N2, N3, d); the output interleaves real and imaginary parts,
  ``[re0, im0, re1, im1, ...]`` (last axis 2d).
- **ifft** takes that interleaved layout (last axis 2d) and returns the real part of the
  unnormalised inverse DFT (last axis d): ``ifft(fft(x)) == d * x``, as cuFFT gives.

The two transforms are each other's adjoints, so each one's gradient is the other.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .contrib_box import _require_float
from .registry import Param, register

__all__ = []

def _same_type(attrs, in_types, out_types):
    t = next((x for x in list(in_types) + list(out_types) if x is not None), None)
    return [t] * len(in_types), [t] * len(out_types), []


def _check_2d_4d(opname, shape):
    if len(shape) not in (2, 4):
        raise MXNetError(f"{opname}: data must be 2-D (N, d) or 4-D (N1, N2, N3, d); got shape "
                         f"{tuple(shape)}")


# ---------------------------------------------------------------------------------------------
# count_sketch

_CS = "_contrib_count_sketch"


def _sketch_check(attrs, dshape, hshape, sshape):
    _check_2d_4d(_CS, dshape)
    d = dshape[-1]
    for name, s in (("h", hshape), ("s", sshape)):
        if len(s) != 2 or s[1] != d:
            raise MXNetError(f"{_CS}: {name} must be a 2-D (1, {d}) tensor matching the last "
                             f"data dimension; got shape {tuple(s)}")
    if attrs["out_dim"] <= 0:
        raise MXNetError(f"{_CS}: out_dim must be positive; got {attrs['out_dim']}")
    return tuple(dshape[:-1]) + (attrs["out_dim"],)


def _buckets(xp, attrs, h, d):
    idx = h.reshape(-1)[:d].astype(np.int64)
    if idx.size and bool(((idx < 0) | (idx >= attrs["out_dim"])).any()):
        raise MXNetError(f"{_CS}: hash indices h must lie in [0, out_dim={attrs['out_dim']})")
    return idx


def _count_sketch(rc, attrs, data, h, s):
    xp = rc.xp
    _require_float(_CS, data, h, s)
    oshape = _sketch_check(attrs, data.shape, h.shape, s.shape)
    d, k = data.shape[-1], attrs["out_dim"]
    idx = _buckets(xp, attrs, h, d)
    x = data.reshape(-1, d)
    n = x.shape[0]
    flat = (xp.arange(n)[:, None] * k + idx[None, :]).ravel()
    vals = (x * s.reshape(-1)[:d].astype(x.dtype)).astype(np.float64).ravel()
    out = xp.bincount(flat, weights=vals, minlength=n * k)
    return out.reshape(oshape).astype(data.dtype)


def _count_sketch_shape(attrs, ins, outs):
    if any(x is None for x in ins):
        return ins, outs, []
    return ins, [_sketch_check(attrs, *ins)], []


_CS_PARAMS = (Param("out_dim", "int", doc="The output dimension (number of buckets)."),
              Param("processing_batch_size", "int", 32,
                    doc="Rows per processing batch (a GPU tuning knob; no effect here)."))

register(_CS, _count_sketch, inputs=("data", "h", "s"), params=_CS_PARAMS,
         infer_shape=_count_sketch_shape, infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_contrib_count_sketch(og[0], ins[1], ins[2], **a),
             F.zeros_like(ins[1]), F.zeros_like(ins[2])],
         doc="Count sketch of the last axis: out[..., h[i]] += s[i] * data[..., i].")


def _backward_count_sketch(rc, attrs, ograd, h, s):
    xp = rc.xp
    d = h.shape[-1]
    idx = _buckets(xp, attrs, h, d)
    g = ograd.reshape(-1, attrs["out_dim"])
    out = g[:, idx] * s.reshape(-1)[:d].astype(g.dtype)
    return out.reshape(tuple(ograd.shape[:-1]) + (d,))


register("_backward_contrib_count_sketch", _backward_count_sketch, inputs=("ograd", "h", "s"),
         params=_CS_PARAMS,
         infer_shape=lambda attrs, ins, outs: (
             ins, [None if ins[0] is None or ins[1] is None
                   else tuple(ins[0][:-1]) + (ins[1][-1],)], []),
         infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [F._contrib_count_sketch(og[0], ins[1], ins[2], **a),
                                               F.zeros_like(ins[1]), F.zeros_like(ins[2])],
         doc="Gradient of count_sketch with respect to the data.")


# ---------------------------------------------------------------------------------------------
# fft / ifft

_COMPUTE_SIZE = (Param("compute_size", "int", 128,
                       doc="Rows per cuFFT batch in 1.9.1 (no effect here)."),)


def _fft(rc, attrs, data):
    xp = rc.xp
    name = "_contrib_fft"
    _require_float(name, data)
    _check_2d_4d(name, data.shape)
    spec = xp.fft.fft(data.astype(np.float64), axis=-1)
    out = xp.stack([spec.real, spec.imag], axis=-1)
    return out.reshape(tuple(data.shape[:-1]) + (2 * data.shape[-1],)).astype(data.dtype)


def _fft_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    _check_2d_4d("_contrib_fft", d)
    return ins, [tuple(d[:-1]) + (2 * d[-1],)], []


register("_contrib_fft", _fft, params=_COMPUTE_SIZE, infer_shape=_fft_shape,
         infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [F._contrib_ifft(og[0])],
         doc="Unnormalised DFT of real rows, as interleaved [re0, im0, re1, im1, ...].")


def _ifft(rc, attrs, data):
    xp = rc.xp
    name = "_contrib_ifft"
    _require_float(name, data)
    _check_2d_4d(name, data.shape)
    if data.shape[-1] % 2:
        raise MXNetError(f"{name}: the last dimension holds (real, imaginary) pairs and must be "
                         f"even; got shape {tuple(data.shape)}")
    d = data.shape[-1] // 2
    z = data.astype(np.float64).reshape(tuple(data.shape[:-1]) + (d, 2))
    spec = z[..., 0] + 1j * z[..., 1]
    out = xp.fft.ifft(spec, axis=-1).real * d
    return out.astype(data.dtype)


def _ifft_shape(attrs, ins, outs):
    d = ins[0]
    if d is None:
        return ins, outs, []
    _check_2d_4d("_contrib_ifft", d)
    return ins, [tuple(d[:-1]) + (d[-1] // 2,)], []


register("_contrib_ifft", _ifft, params=_COMPUTE_SIZE, infer_shape=_ifft_shape,
         infer_type=_same_type,
         gradient=lambda F, a, ins, outs, og: [F._contrib_fft(og[0])],
         doc="Real part of the unnormalised inverse DFT of interleaved complex rows.")
