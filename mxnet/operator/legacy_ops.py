"""Names 1.9.1 still registers for old code, and a few small internal operators.

- The CamelCase names of the first MXNet releases (``_Plus``, ``_MulScalar``,
  ``_Greater_Equal`` ...) are aliases of today's operators: ``mx.sym._internal._Plus(a, b)``
  makes an ``elemwise_add`` node (named ``_plus0``), as in 1.9.1.
- ``_slice_assign(lhs, rhs, begin, end, step)`` is ``lhs`` with ``lhs[begin:end:step]``
  replaced by ``rhs`` (whose shape must be the slice's); ``_slice_assign_scalar(data,
  scalar, begin, end, step)`` fills that slice with ``scalar``. ``_crop_assign`` /
  ``_crop_assign_scalar`` are their old names. Neither has a gradient (nor has 1.9.1's).
- ``_sample_unique_zipfian(range_max, shape)``: per row, distinct draws from the log-uniform
  distribution and the number of draws needed. On CPU it draws 1.9.1's numbers: row ``r``
  from parallel state ``r // ceil(batch / 1024)``, one float64 uniform ``u``
  (two words) per draw, value ``round(exp(u * log(range_max))) - 1``.
- ``_grad_add(lhs, rhs)`` is ``lhs + rhs`` under its own name (1.9.1 sums gradients with it;
  it has no gradient itself);
  ``_identity_with_attr_like_rhs(lhs, rhs)`` is ``lhs``, whose shape must equal ``rhs``'s.

This module is imported after every other operator family (see ``_FAMILIES``), so the
aliases find their targets.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .elemwise import _same_shape
from .registry import Param, all_ops, get_op, register
from .shape_ops import slice_plan

__all__ = []

_ALIASES = {
    "_Plus": "elemwise_add", "_Minus": "elemwise_sub", "_Mul": "elemwise_mul",
    "_Div": "elemwise_div", "_Mod": "_mod", "_Power": "_power", "_Hypot": "_hypot",
    "_Maximum": "_maximum", "_Minimum": "_minimum", "_Equal": "_equal",
    "_Not_Equal": "_not_equal", "_Greater": "_greater", "_Greater_Equal": "_greater_equal",
    "_Lesser": "_lesser", "_Lesser_Equal": "_lesser_equal", "_Logical_And": "_logical_and",
    "_Logical_Or": "_logical_or", "_Logical_Xor": "_logical_xor",
    "_PlusScalar": "_plus_scalar", "_MinusScalar": "_minus_scalar",
    "_MulScalar": "_mul_scalar", "_DivScalar": "_div_scalar", "_ModScalar": "_mod_scalar",
    "_PowerScalar": "_power_scalar", "_HypotScalar": "_hypot_scalar",
    "_MaximumScalar": "_maximum_scalar", "_MinimumScalar": "_minimum_scalar",
    "_EqualScalar": "_equal_scalar", "_NotEqualScalar": "_not_equal_scalar",
    "_GreaterScalar": "_greater_scalar", "_GreaterEqualScalar": "_greater_equal_scalar",
    "_LesserScalar": "_lesser_scalar", "_LesserEqualScalar": "_lesser_equal_scalar",
    "_LogicalAndScalar": "_logical_and_scalar", "_LogicalOrScalar": "_logical_or_scalar",
    "_LogicalXorScalar": "_logical_xor_scalar", "_RMinusScalar": "_rminus_scalar",
    "_RDivScalar": "_rdiv_scalar", "_RModScalar": "_rmod_scalar",
    "_RPowerScalar": "_rpower_scalar",
}


def _add_aliases(table):
    ops = all_ops()
    for alias, target in table.items():
        if alias not in ops and target in ops:
            ops[alias] = get_op(target)


# -- slice assignment ---------------------------------------------------------------------------

_SLICE_PARAMS = (Param("begin", "shape", doc="First index per leading axis (None: the start)."),
                 Param("end", "shape", doc="Stop index per leading axis (None: the end)."),
                 Param("step", "shape", (), optional=True, doc="Step per axis (default 1)."))


def _slice_assign(rc, attrs, lhs, rhs):
    key, shape = slice_plan("_slice_assign", lhs.shape, attrs["begin"], attrs["end"],
                            attrs["step"])
    if tuple(rhs.shape) != tuple(shape):
        raise MXNetError(f"_slice_assign: rhs has shape {tuple(rhs.shape)}, but the slice "
                         f"begin={attrs['begin']}, end={attrs['end']} of lhs {tuple(lhs.shape)} "
                         f"has shape {tuple(shape)}")
    out = lhs.copy()
    out[key] = rhs
    return out


def _slice_assign_shape(attrs, ins, outs):
    lhs = ins[0] if ins[0] is not None else (outs[0] if outs else None)
    rhs = ins[1]
    if lhs is not None and None not in lhs and rhs is None:
        rhs = slice_plan("_slice_assign", tuple(lhs), attrs["begin"], attrs["end"],
                         attrs["step"])[1]
    return [lhs, rhs], [lhs], []


def _slice_assign_scalar(rc, attrs, data):
    key, _ = slice_plan("_slice_assign_scalar", data.shape, attrs["begin"], attrs["end"],
                        attrs["step"])
    out = data.copy()
    out[key] = attrs["scalar"]
    return out


register("_slice_assign", _slice_assign, params=_SLICE_PARAMS, inputs=("lhs", "rhs"),
         infer_shape=_slice_assign_shape, aliases=("_crop_assign",),
         doc="``lhs`` with the slice ``[begin:end:step]`` replaced by ``rhs``.")
register("_slice_assign_scalar", _slice_assign_scalar,
         params=(Param("scalar", "float", 0.0, doc="The value written into the slice."),)
         + _SLICE_PARAMS,
         infer_shape=lambda a, i, o: ([i[0] if i[0] is not None else o[0]],
                                      [i[0] if i[0] is not None else o[0]], []),
         aliases=("_crop_assign_scalar",),
         doc="``data`` with the slice ``[begin:end:step]`` set to ``scalar``.")


# -- gradient helpers ---------------------------------------------------------------------------

def _grad_add(rc, attrs, lhs, rhs):
    return lhs + rhs


def _identity_like_rhs(rc, attrs, lhs, rhs):
    return lhs.copy()


register("_grad_add", _grad_add, inputs=("lhs", "rhs"), infer_shape=_same_shape,
         doc="``lhs + rhs`` (the operator 1.9.1 sums gradients with; like 1.9.1's, it has no "
             "gradient of its own).")
register("_identity_with_attr_like_rhs", _identity_like_rhs, inputs=("lhs", "rhs"),
         infer_shape=_same_shape,
         gradient=lambda F, a, ins, outs, og: [og[0], F.zeros_like(ins[1])],
         doc="``lhs`` unchanged; its shape must equal ``rhs``'s.")



# -- _sample_unique_zipfian -----------------------------------------------------------------------

def _unique_zipfian(rc, attrs):
    """Per row: draws from P(k) = log((k + 2) / (k + 1)) / log(range_max + 1) until
    ``num_sampled`` distinct values came up; the distinct values in order of appearance and
    the number of draws it took."""
    n_max = attrs["range_max"]
    shape = attrs["shape"]
    if shape is None or len(shape) != 2:
        raise MXNetError(f"_sample_unique_zipfian: shape must be 2-D (batch_size, num_sampled), "
                         f"got {shape}")
    batch, k = shape
    if k > n_max:
        raise MXNetError(f"_sample_unique_zipfian: cannot draw {k} distinct values from "
                         f"range_max={n_max}")
    samples = np.zeros((batch, k), dtype=np.int64)
    trials = np.zeros((batch,), dtype=np.int64)
    par = getattr(rc.rng, "parallel", None)
    if par is not None:     # 1.9.1's CPU draws
        _unique_zipfian_mt(par, n_max, k, samples, trials)
        return rc.xp.asarray(samples), rc.xp.asarray(trials)
    log_range = np.log(n_max + 1.0)
    for row in range(batch):   # one row at a time, each drawn in vectorised chunks
        drawn = np.zeros((0,), dtype=np.int64)
        while True:
            u = rc.rng.random(max(2 * k, 16))
            u = u.get() if hasattr(u, "get") else np.asarray(u)
            vals = (np.exp(u * log_range) - 1.0).astype(np.int64) % n_max
            drawn = np.concatenate([drawn, vals])
            uniq, first = np.unique(drawn, return_index=True)
            if uniq.size >= k:
                order = np.sort(first)[:k]
                samples[row] = drawn[order]
                trials[row] = order[-1] + 1
                break
    xp = rc.xp
    return xp.asarray(samples), xp.asarray(trials)


def _unique_zipfian_mt(par, n_max, k, samples, trials):
    """1.9.1's CPU kernel: rows split in ``min(batch, 1024)`` contiguous chunks of
    ``ceil(batch / 1024)`` rows, chunk ``j`` drawing from parallel state ``j``; each draw is a
    float64 canonical uniform ``u`` (two words), value ``round(exp(u * log(range_max))) - 1``,
    repeated until ``k`` distinct values came up (words past the last draw are given back)."""
    from ..backend.mt_parallel import NUM_STATES, canonical_f64
    log_range = np.log(float(n_max))
    batch = samples.shape[0]
    step = -(-batch // min(batch, NUM_STATES))
    for row in range(batch):
        st = row // step
        drawn = np.zeros((0,), dtype=np.int64)
        while True:
            m = max(2 * k, 16)
            w = par.take(st, 2 * m)
            u = canonical_f64(w[0::2], w[1::2])
            vals = np.floor(np.exp(u * log_range) + 0.5).astype(np.int64) - 1
            base = drawn.size
            drawn = np.concatenate([drawn, vals])
            uniq, first = np.unique(drawn, return_index=True)
            if uniq.size >= k:
                order = np.sort(first)[:k]
                used = int(order[-1]) + 1
                samples[row] = drawn[order]
                trials[row] = used
                par.give_back(st, w[2 * (used - base):])
                break


register("_sample_unique_zipfian", _unique_zipfian, inputs=(), num_outputs=2, needs_rng=True,
         params=(Param("range_max", "int", doc="The number of classes to draw from."),
                 Param("shape", "shape", None, optional=True,
                       doc="(batch_size, num_sampled).")),
         infer_shape=lambda a, i, o: (i, [tuple(a["shape"]), (a["shape"][0],)], []),
         infer_type=lambda a, i, o: (i, [np.dtype(np.int64)] * 2, []),
         doc="Distinct draws from a log-uniform (Zipfian) distribution over [0, range_max), "
             "and the number of draws each row took.")

_add_aliases(_ALIASES)
