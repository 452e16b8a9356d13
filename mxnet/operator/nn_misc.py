"""Dropout and Embedding.

Dropout follows 1.9.1: in training mode (or with ``mode='always'``) each element is kept
with probability ``1 - p`` and scaled by ``1 / (1 - p)`` (the scale is computed in
float32, and ``p = 1`` gives NaN as 0 * inf); otherwise it is the identity. ``axes``
share one mask draw along those axes. The second, hidden output is the scaled mask the
gradient multiplies by; only floating point data is accepted, in every mode.

Embedding truncates floating point indices toward zero and clips them to
``[0, input_dim - 1]``; NaN and infinite indices read row 0, as 1.9.1's integer
conversion makes them (and the backward pass converts to int32, so an index of 1e10
reads the last row but sends its gradient to row 0). The weight gradient adds up the
rows of repeated indices. The indices get no gradient. With ``sparse_grad`` autograd
makes the weight's gradient row_sparse, storing each row looked up even where its values
are all zero (1.9.1), so lazy optimizer updates touch exactly those rows.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, dtype_np
from .registry import Param, register

# ---------------------------------------------------------------------------------------------
# Dropout


def _dropout_mask_shape(opname, shape, axes):
    ndim = len(shape)
    for a in axes:
        if not 0 <= a < ndim:
            raise MXNetError(f"{opname}: axis {a} in axes={tuple(axes)} is out of range for data "
                             f"of shape {tuple(shape)}; expected axes in [0, {ndim})")
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def _dropout(rc, attrs, x, out=None):
    xp = rc.xp
    if x.dtype.kind != "f" and x.dtype.name != "bfloat16":
        raise MXNetError(f"Dropout: data must be a floating point array, got {x.dtype} of "
                         f"shape {tuple(x.shape)}")
    mshape = _dropout_mask_shape("Dropout", x.shape, attrs["axes"])
    p = attrs["p"]
    o = out[0] if out else None
    if o is not None and (o.shape != x.shape or o.dtype != x.dtype):
        o = None
    if not (rc.is_train or attrs["mode"] == "always") or p == 0:
        ones = xp.broadcast_to(xp.ones((), dtype=x.dtype), x.shape)
        if o is not None:
            xp.copyto(o, x)
            return o, ones
        return x.copy(), ones
    if p >= 1:  # every element dropped: 0 * inf, as 1.9.1 computes it
        mask = xp.full(mshape, np.nan, dtype=x.dtype)
    elif getattr(rc.rng, "parallel", None) is not None and x.dtype.kind == "f":
        # 1.9.1's CPU kernel: one draw per mask element from the parallel generator (in the
        # data type, double for float16), rounded to float; kept where u <= 1 - p
        gen = rc.rng.parallel
        pkeep = np.float32(1) - np.float32(p)
        n = int(np.prod(mshape, dtype=np.int64))
        if x.dtype == np.float32:
            keep = gen.uniform_f32_le(n, pkeep)
        else:
            keep = gen.uniform_f64(n).astype(np.float32) <= pkeep
        mask = (keep * (np.float32(1) / pkeep)).astype(x.dtype).reshape(mshape)
    else:
        rdt = np.float64 if x.dtype == np.float64 else np.float32
        keep = rc.rng.random(mshape, dtype=rdt) >= p
        scale = np.float32(1) / (np.float32(1) - np.float32(p))
        mask = keep.astype(x.dtype) * x.dtype.type(scale)
    if o is not None:
        return xp.multiply(x, mask, out=o), xp.broadcast_to(mask, x.shape)
    return x * mask, xp.broadcast_to(mask, x.shape)


def _dropout_check(opname, attrs):
    p = attrs["p"]
    if not 0.0 <= p <= 1.0:
        raise MXNetError(f"{opname}: p={p} is out of range; expected a probability in [0, 1]")


def _dropout_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0] if in_shapes[0] is not None else (out_shapes[0] if out_shapes else None)
    if d is not None:
        _dropout_mask_shape("Dropout", d, attrs["axes"])
    return [d], [d, d], []


def _dropout_type(attrs, in_types, out_types):
    t = in_types[0] if in_types[0] is not None else (out_types[0] if out_types else None)
    return [t], [t, t], []


register("Dropout", _dropout, inplace=((0, 0),), accepts_out=True,
         params=(Param("p", "float", 0.5, doc="Probability of zeroing an element."),
                 Param("mode", "str", "training", choices=("always", "training"),
                       doc="training: only in training mode; always: in every mode."),
                 Param("axes", "shape", (), doc="Axes along which one mask value is shared."),
                 Param("cudnn_off", "bool", False, optional=True,
                       doc="Accepted for compatibility.")),
         num_outputs=2, num_visible_outputs=1, output_names=("output",),
         infer_shape=_dropout_shape, infer_type=_dropout_type, attr_check=_dropout_check,
         gradient=lambda F, a, ins, outs, og: [og[0] * outs[1]], needs_rng=True,
         doc="Zero elements at random with probability ``p`` in training mode and scale the "
             "rest by ``1 / (1 - p)``; the identity in inference mode.")


# ---------------------------------------------------------------------------------------------
# Embedding


def _embedding_index(xp, data, input_dim, int_bits=64):
    """Row numbers for ``data``: truncated toward zero and clipped.

    1.9.1 converts floating point indices to a signed integer of ``int_bits`` bits (64 in
    the forward pass, 32 in the backward one); values that do not fit, NaN and infinities
    become the most negative integer there, which clips to row 0.
    """
    if data.dtype.kind in "iub":
        return xp.clip(data, 0, input_dim - 1).astype(np.intp, copy=False)
    d = data.astype(np.float64) if data.dtype.itemsize < 4 else data
    d = xp.where(xp.isfinite(d) & (d < 2.0 ** (int_bits - 1)), d, 0)
    return xp.clip(d, 0, input_dim - 1).astype(np.intp)


def _embedding_weight_check(attrs, weight):
    want = (attrs["input_dim"], attrs["output_dim"])
    if tuple(weight.shape) != want:
        raise MXNetError(f"Embedding: weight must have shape {want} (input_dim, output_dim), got "
                         f"{tuple(weight.shape)} {weight.dtype}")


def _embedding(rc, attrs, data, weight):
    _embedding_weight_check(attrs, weight)
    idx = _embedding_index(rc.xp, data, attrs["input_dim"])
    return rc.xp.take(weight, idx, axis=0)


def _scatter_rows(xp, out, idx, rows):
    """out[idx[i]] += rows[i], adding the rows of repeated indices."""
    if xp is np:
        np.add.at(out, idx, rows)
    else:
        import cupyx
        cupyx.scatter_add(out, idx, rows)


def _backward_embedding(rc, attrs, og, data, out=None):
    xp = rc.xp
    n, dim = attrs["input_dim"], attrs["output_dim"]
    idx = _embedding_index(xp, data, n, int_bits=32).reshape(-1)
    o = out[0] if out else None
    if o is not None and o.shape == (n, dim) and o.dtype == og.dtype:
        o.fill(0)
        _scatter_rows(xp, o, idx, og.reshape(idx.size, dim))
        return o
    out = xp.zeros((n, dim), dtype=og.dtype)
    _scatter_rows(xp, out, idx, og.reshape(idx.size, dim))
    return out


def _embedding_grad_rows(xp, attrs, pos, inputs, always=False):
    """The rows of the weight's row_sparse gradient: every row looked up, once, sorted,
    whatever its gradient (1.9.1). Only with ``sparse_grad`` (``always`` for
    SparseEmbedding); like 1.9.1, that backward pass rejects an index below 0 or above
    ``input_dim - 1`` (NaN passes and reads row 0)."""
    if pos != 1 or not (always or attrs["sparse_grad"]):
        return None
    data = inputs[0]._data
    n = attrs["input_dim"]
    if data.dtype.kind == "b":
        data = data.astype(np.int64)
    if data.size and bool(((data < 0) | (data > n - 1)).any()):
        raise MXNetError("Embedding input contains data out of bound: with sparse_grad, "
                         f"indices must lie in [0, {n - 1}]")
    idx = _embedding_index(xp, data, n, int_bits=32).reshape(-1)
    return xp.unique(idx).astype(np.int64)


def _embedding_shape(attrs, in_shapes, out_shapes):
    w = (attrs["input_dim"], attrs["output_dim"])
    d = in_shapes[0]
    if in_shapes[1] is not None and tuple(in_shapes[1]) != w:
        raise MXNetError(f"Embedding: weight has shape {tuple(in_shapes[1])} but input_dim and "
                         f"output_dim ask for {w}")
    if d is None:  # as in 1.9.1, the weight shape waits for the data shape
        return [d, in_shapes[1]], list(out_shapes), []
    return [d, w], [tuple(d) + (w[1],)], []


def _embedding_type(attrs, in_types, out_types):
    d, w = in_types
    if w is None:
        w = out_types[0] if out_types and out_types[0] is not None else dtype_np(attrs["dtype"])
    return [d if d is not None else np.dtype(np.float32), w], [w], []


_EMB_PARAMS = (
    Param("input_dim", "int", doc="Vocabulary size: the number of rows of weight."),
    Param("output_dim", "int", doc="Size of each embedding vector."),
    Param("dtype", "dtype", "float32", choices=("bfloat16", "float16", "float32", "float64",
                                                "int32", "int64", "int8", "uint8"),
          doc="The weight's dtype when it is inferred."),
    Param("sparse_grad", "bool", False, doc="Make the weight's gradient row_sparse, storing "
                                            "exactly the rows looked up (autograd)."),
)


def _embedding_check(opname, attrs):
    if attrs["input_dim"] < 1 or attrs["output_dim"] < 1:
        raise MXNetError(f"{opname}: input_dim and output_dim must be positive, got "
                         f"input_dim={attrs['input_dim']}, output_dim={attrs['output_dim']}")


register("Embedding", _embedding, params=_EMB_PARAMS, inputs=("data", "weight"),
         infer_shape=_embedding_shape, infer_type=_embedding_type, attr_check=_embedding_check,
         grad_rows=_embedding_grad_rows,
         gradient=lambda F, a, ins, outs, og: [
             None, F._backward_Embedding(og[0], ins[0], input_dim=a["input_dim"],
                                         output_dim=a["output_dim"])],
         doc="Look up rows of ``weight`` (input_dim x output_dim) at the integer positions in "
             "``data``; the output has shape ``data.shape + (output_dim,)``.")

register("_backward_Embedding", _backward_embedding, accepts_out=True,
         params=(Param("input_dim", "int"), Param("output_dim", "int")),
         inputs=("ograd", "data"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [(a["input_dim"], a["output_dim"])], []),
         infer_type=lambda a, i, o: (i, [i[0]], []),
         gradient=lambda F, a, ins, outs, og: [
             F.Embedding(ins[1], og[0], input_dim=a["input_dim"], output_dim=a["output_dim"]),
             None])
