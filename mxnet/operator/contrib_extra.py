"""Two leftover contrib operators of 1.9.1: SparseEmbedding and the Hawkes process
log-likelihood (hawkesll, with its gradient operator backward_hawkesll).

SparseEmbedding is Embedding under its deprecated contrib name, always with
``sparse_grad``: through autograd its weight's gradient is row_sparse, storing every row
looked up (zero rows included), as in 1.9.1.

hawkesll scores K independent univariate Hawkes processes with exponential kernels for each
of N samples. Process k has background rate ``lda[n, k]``, branching ratio ``alpha[k]`` and
decay ``beta[k]``; its intensity is ``lda + alpha * beta * sum(exp(-beta * (t - t_i)))`` over
its earlier events ``t_i``. Events arrive as ragged rows of inter-arrival times ``lags`` and
process ids ``marks`` (the first ``valid_length[n]`` entries count), observed on
``(0, max_time[n]]``; ``state`` carries ``sum(exp(-beta * (0 - t_i)))`` over events before
the window. The outputs are the log-likelihood (N,) and the state at ``max_time`` (N, K).

Each event of process k, at distance ``d`` from that process's previous event (or from 0),
adds ``log(intensity)`` and subtracts the compensator (integral of the intensity over
``d``); at the end, the compensator up to ``max_time`` is subtracted for every process. The
state decays by ``exp(-beta * d)`` between events and grows by one at each.

As in 1.9.1, the gradient flows to lda, alpha and beta from the log-likelihood only; the
input state gets a zero gradient and the output state's head gradient is ignored. The loop
runs over the T event slots, each step vectorised over the N samples. 1.9.1 evaluates exp
and log in single precision even for float64 input; here they run in the input's precision
(float64 results agree with 1.9.1's to about 1e-8 relative).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .registry import Param, get_op, register

__all__ = []

# ---------------------------------------------------------------------------------------------
# SparseEmbedding

_EMB = get_op("Embedding")
# 1.9.1 also takes ``deterministic`` here (its backward's accumulation order; the values are
# the same either way)
_DETERMINISTIC = Param("deterministic", "bool", False,
                       doc="Accumulate the weight's gradient in a fixed order (no effect here).")
register("_contrib_SparseEmbedding", _EMB.compute,
         params=tuple(_EMB.params.values()) + (_DETERMINISTIC,),
         inputs=("data", "weight"), infer_shape=_EMB.infer_shape, infer_type=_EMB.infer_type,
         attr_check=_EMB.attr_check, gradient=_EMB.gradient,
         grad_rows=lambda xp, a, pos, ins: _EMB.grad_rows(xp, a, pos, ins, always=True),
         doc="Embedding under its deprecated contrib name: rows of ``weight`` (input_dim x "
             "output_dim) looked up at the integer positions in ``data``. The weight's "
             "gradient is row_sparse (the rows looked up).")


# ---------------------------------------------------------------------------------------------
# hawkesll

_HL = "_contrib_hawkesll"
_HL_INPUTS = ("lda", "alpha", "beta", "state", "lags", "marks", "valid_length", "max_time")
_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def _check_inputs(opname, lda, alpha, beta, state, lags, marks, valid_length, max_time):
    if lda.ndim != 2:
        raise MXNetError(f"{opname}: lda must be 2-D (N, K); got shape {tuple(lda.shape)}")
    n, k = lda.shape
    want = {"alpha": (k,), "beta": (k,), "state": (n, k), "valid_length": (n,),
            "max_time": (n,)}
    got = {"alpha": alpha, "beta": beta, "state": state, "valid_length": valid_length,
           "max_time": max_time}
    for name, shape in want.items():
        if tuple(got[name].shape) != shape:
            raise MXNetError(f"{opname}: {name} must have shape {shape} for lda of shape "
                             f"{(n, k)}; got {tuple(got[name].shape)}")
    if lags.ndim != 2 or lags.shape[0] != n or tuple(marks.shape) != tuple(lags.shape):
        raise MXNetError(f"{opname}: lags and marks must both have shape (N, T) with N={n}; "
                         f"got {tuple(lags.shape)} and {tuple(marks.shape)}")
    if marks.dtype != np.int32:
        raise MXNetError(f"{opname}: marks must be int32; got {marks.dtype}")
    if lda.dtype not in _FLOATS:
        raise MXNetError(f"{opname}: lda has dtype {lda.dtype}; expected a float type")


def _walk(xp, lda, alpha, beta, state, lags, marks, valid_length, max_time, grads):
    """Run the event recursion; returns the log-likelihood, the final state and (with
    ``grads``) the per-sample gradients of the log-likelihood w.r.t. lda, alpha, beta."""
    dt = lda.dtype
    n, k = lda.shape
    rows = xp.arange(n)
    t = xp.zeros(n, dtype=dt)
    last = xp.zeros((n, k), dtype=dt)
    phi = state.astype(dt, copy=True)
    ll = xp.zeros(n, dtype=dt)
    if grads:
        dphi = xp.zeros((n, k), dtype=dt)
        g_mu = xp.zeros((n, k), dtype=dt)
        g_al = xp.zeros((n, k), dtype=dt)
        g_be = xp.zeros((n, k), dtype=dt)
    vl = valid_length.astype(np.float64)
    for j in range(lags.shape[1]):
        on = j < vl
        if not bool(on.any()):
            break
        c = xp.clip(marks[:, j].astype(np.int64), 0, k - 1)
        t = xp.where(on, t + lags[:, j], t)
        a, b = alpha[c], beta[c]
        s = phi[rows, c]
        d = t - last[rows, c]
        ed = xp.exp(-b * d)
        mu = lda[rows, c]
        rate = mu + a * b * s * ed
        with np.errstate(divide="ignore", invalid="ignore"):
            ll = xp.where(on, ll + xp.log(rate) - (mu * d + a * s * (1 - ed)), ll)
        if grads:
            ds = dphi[rows, c]
            with np.errstate(divide="ignore", invalid="ignore"):
                gm = 1 / rate - d
                ga = b * s * ed / rate - s * (1 - ed)
                gb = (a * ed * (s * (1 - b * d) + b * ds) / rate
                      - a * (ds * (1 - ed) + s * d * ed))
            z = xp.zeros((), dtype=dt)
            g_mu[rows, c] += xp.where(on, gm, z)
            g_al[rows, c] += xp.where(on, ga, z)
            g_be[rows, c] += xp.where(on, gb, z)
            dphi[rows, c] = xp.where(on, ed * (ds - d * s), ds)
        phi[rows, c] = xp.where(on, 1 + s * ed, s)
        last[rows, c] = xp.where(on, t, last[rows, c])
    d = max_time[:, None] - last
    ed = xp.exp(-beta[None, :] * d)
    ll = ll - (lda * d + alpha[None, :] * phi * (1 - ed)).sum(axis=1)
    if not grads:
        return ll, ed * phi
    g_mu = g_mu - d
    g_al = g_al - phi * (1 - ed)
    g_be = g_be - alpha[None, :] * (dphi * (1 - ed) + phi * d * ed)
    return ll, ed * phi, (g_mu, g_al, g_be)


def _hawkesll(rc, attrs, lda, alpha, beta, state, lags, marks, valid_length, max_time):
    _check_inputs(_HL, lda, alpha, beta, state, lags, marks, valid_length, max_time)
    ll, st = _walk(rc.xp, lda, alpha, beta, state, lags, marks, valid_length, max_time, False)
    return ll.astype(lda.dtype), st.astype(lda.dtype)


def _hawkes_shape(attrs, ins, outs):
    ins = list(ins)
    if ins[0] is None:
        return ins, [None, None], []
    n, k = ins[0]
    for i, s in ((1, (k,)), (2, (k,)), (3, (n, k)), (6, (n,)), (7, (n,))):
        ins[i] = ins[i] or s
    return ins, [(n,), (n, k)], []


def _hawkes_type(attrs, ins, outs):
    t = ins[0] if ins[0] is not None else np.dtype(np.float32)
    return [t, t, t, t, t, np.dtype(np.int32), t, t], [t, t], []


def _hawkes_grad(F, attrs, inputs, outputs, out_grads):
    g = F._contrib_backward_hawkesll(out_grads[0], out_grads[1], *inputs)
    return [g[0], g[1], g[2], g[3], None, None, None, None]


register(_HL, _hawkesll, inputs=_HL_INPUTS, num_outputs=2, output_names=("output", "out_state"),
         infer_shape=_hawkes_shape, infer_type=_hawkes_type, gradient=_hawkes_grad,
         doc="Log-likelihood of K independent univariate Hawkes processes (exponential "
             "kernels) for each of N ragged event sequences; returns the log-likelihood (N,) "
             "and the processes' state at max_time (N, K).")


_BHL = "_contrib_backward_hawkesll"


def _backward_hawkesll(rc, attrs, og_ll, og_state, lda, alpha, beta, state, lags, marks,
                       valid_length, max_time):
    xp = rc.xp
    _check_inputs(_BHL, lda, alpha, beta, state, lags, marks, valid_length, max_time)
    _, _, (g_mu, g_al, g_be) = _walk(xp, lda, alpha, beta, state, lags, marks, valid_length,
                                     max_time, True)
    w = og_ll.astype(lda.dtype)[:, None]
    dt = lda.dtype
    return ((g_mu * w).astype(dt), (g_al * w).sum(axis=0).astype(dt),
            (g_be * w).sum(axis=0).astype(dt), xp.zeros_like(state), xp.zeros_like(lags),
            xp.zeros_like(marks), xp.zeros_like(valid_length), xp.zeros_like(max_time))


def _backward_shape(attrs, ins, outs):
    return list(ins), list(ins[2:]), []


def _backward_type(attrs, ins, outs):
    return list(ins), list(ins[2:]), []


register(_BHL, _backward_hawkesll, inputs=("ograd_loglike", "ograd_state") + _HL_INPUTS,
         num_outputs=8, infer_shape=_backward_shape, infer_type=_backward_type,
         doc="Gradient of hawkesll: from the head gradients of its two outputs and its eight "
             "inputs, the gradients of those inputs (lda, alpha and beta from the "
             "log-likelihood; zeros for the rest, as in 1.9.1).")
