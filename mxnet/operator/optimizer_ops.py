"""Fused optimizer update operators (sgd_update, adam_update, the multi_* family ...).

Conventions, as in 1.9.1:

- The new weight is the operator's output; the weight input itself is only overwritten
  when the caller passes ``out=weight`` (what ``mx.optimizer`` does). State inputs
  (momentum, mean/var, the float32 master copy ``weight32`` ...) are updated in place:
  the arrays a kernel receives are the real buffers.
- Float parameters are C floats: a kernel rounds each one to float32 and then to the
  weight's dtype before using it, and evaluates the update with the same grouping of
  operations as 1.9.1's kernels, so float32 results agree bit for bit on NumPy.
  float16 weights compute in float16 (each operation rounded, as mshadow's ``half_t``
  does); the ``mp_*`` variants compute in float32 on ``weight32`` instead.
- ``clip_gradient`` (``clip_grad`` for ftml) clips only when it is >= 0; the default -1
  turns clipping off and 0 clips every gradient to zero.
- ``lazy_update`` only matters for row_sparse gradients; dense arrays (the only storage
  here) always get the standard update, whatever its value.

1.9.1 behaviours kept on purpose (each is commented at its kernel):

- ``signsgd_update`` takes the sign of the raw gradient: rescale_grad and clip_gradient
  have no effect;
- ``nag_mom_update`` recomputes the momentum from the already-updated weight (what 1.9.1
  does with ``out=weight`` and always in ``mp_nag_mom_update``);
- ``mp_lamb_update_phase2`` does not write ``weight32`` back;
- ``_adamw_update`` leaves the rescaled, clipped gradient in the ``grad`` input;
- ``rmsprop_update`` squares the gradient as ``(1-gamma1)*(g*g)`` but
  ``rmspropalex_update`` as ``((1-gamma1)*g)*g`` -- the two kernels round differently;
- ``multi_sum_sq`` rounds each square to the input dtype and adds them up sequentially in
  float32, and ``ftml_update``'s ``epsilon`` is a double whose default is ``float(1e-8f)``.

Known differences: ``_multi_lamb_update`` can differ from 1.9.1 in the last bit of a few
elements (on float16 weights, by a few ulps where lr * trust ratio is a float16
subnormal). ``_multi_adamw_update`` / ``_multi_mp_adamw_update`` update the moments as
``beta * (state - x) + x`` (1.9.1's multi-tensor kernel), the single-tensor ones as
``beta * state + (1 - beta) * x``.

None of these operators is differentiable (``gradient=None``).
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .conv_kernels import scratch
from .registry import Param, register

_F32 = np.dtype(np.float32)

# ---------------------------------------------------------------------------------------------
# helpers


def _c(value, dt):
    """A float parameter as the kernel sees it: a C float cast to the array dtype ``dt``."""
    return dt.type(np.float32(value))


def _clip(xp, x, bound):
    """mshadow's clip: values beyond +-bound become +-bound; NaN passes through."""
    return xp.clip(x, -bound, bound)


def _sign(xp, x):
    """(x > 0) - (x < 0) in x's dtype (0 for NaN, as the C comparison gives)."""
    return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)


def _check(opname, arrays, names, mp_names=()):
    """Every array has the weight's shape; mixed-precision slots are float32, others share
    the weight's dtype."""
    w = arrays[0]
    for a, n in zip(arrays, names):
        if tuple(a.shape) != tuple(w.shape):
            raise MXNetError(f"{opname}: input '{n}' has shape {tuple(a.shape)} but weight has "
                             f"shape {tuple(w.shape)}")
        want = _F32 if n in mp_names else w.dtype
        if a.dtype != want:
            raise MXNetError(f"{opname}: input '{n}' has dtype {a.dtype}; expected {want}")


def _set(dst, value):
    """Write ``value`` into the state buffer ``dst`` (in place)."""
    dst[...] = value


# Large updates run their steps in pieces of this many elements, in place in the state buffers
# and a few cache-sized temporaries: the whole-array expressions make a new array per step, and
# an Adam update of (512, 512, 3, 3) took 7.8 ms that way against 3.9 in pieces (1.9.1: 4.3).
# Smaller arrays keep the expressions (fewer calls).
_PIECE = 1 << 16


def _piecewise(xp, weight, *others):
    """Whether an update runs in pieces (``_by_pieces``): large contiguous NumPy arrays of one
    dtype, none sharing memory with another."""
    arrays = (weight,) + others
    if xp is not np or weight.size < _PIECE:
        return False
    if not all(type(a) is np.ndarray and a.flags.c_contiguous and a.dtype == weight.dtype
               and a.shape == weight.shape for a in arrays):
        return False
    return not any(np.may_share_memory(a, b) for i, a in enumerate(arrays) for b in arrays[i + 1:])


def _by_pieces(arrays, ntemp, body, into=None):
    """The new weight, from ``body(*pieces, *temps, out)`` over pieces of ``_PIECE`` elements:
    ``pieces`` the flat ranges of ``arrays`` (states are updated in place through them),
    ``temps`` scratch ranges of their dtype, ``out`` the new weight's range in ``into`` (the
    weight itself, see ``_into_weight``) or in a new array like ``arrays[0]``. Each body
    repeats its kernel's expression step by step, in the same order, so the bits are the
    expression's."""
    out = np.empty_like(arrays[0]) if into is None else into
    flats = [a.reshape(-1) for a in arrays]
    of, n = out.reshape(-1), out.size
    temps = scratch(np, "optimizer.pieces", (ntemp, min(n, _PIECE)), out.dtype)
    for s in range(0, n, _PIECE):
        e = min(s + _PIECE, n)
        body(*[f[s:e] for f in flats], *[t[:e - s] for t in temps], of[s:e])
    return out


def _lr_grad_into(g, t, lr, rs, clip):
    """t = lr * clip(rs * g) when ``clip`` >= 0, else (lr * rs) * g: the gradient term of
    the SGD kernels, step by step in their expressions' order (a piece of ``_by_pieces``)."""
    if clip >= 0:
        np.multiply(g, rs, out=t)
        np.clip(t, -clip, clip, out=t)
        np.multiply(t, lr, out=t)
    else:
        np.multiply(g, lr * rs, out=t)


def _decayed_grad_into(gr, w, g, t, rs, wd, clip):
    """g = clip(rs * gr + wd * w) (clipping when ``clip`` >= 0), t scratch: the gradient of
    the Adam and RMSProp kernels, step by step (a piece of ``_by_pieces``)."""
    np.multiply(gr, rs, out=g)
    np.multiply(w, wd, out=t)
    np.add(g, t, out=g)
    if clip >= 0:
        np.clip(g, -clip, clip, out=g)


# -- shape / type inference for "blocks" of same-shaped arrays ---------------------------------


def _block_shape(per, tail=None, n_of=None):
    """Inputs come in blocks of ``per`` arrays sharing one shape (one block per weight),
    then ``tail(attrs, n)`` extra input shapes; output i has block i's shape."""
    def infer(attrs, in_shapes, out_shapes):
        n = n_of(attrs) if n_of else 1
        ins = list(in_shapes)
        outs = list(out_shapes) if out_shapes else [None] * n
        for b in range(n):
            blk = ins[b * per:(b + 1) * per] + [outs[b]]
            known = next((s for s in blk if s is not None), None)
            if known is None:
                continue
            known = tuple(known)
            for j in range(per):
                s = ins[b * per + j]
                if s is not None and tuple(s) != known:
                    raise MXNetError(f"optimizer update: input {b * per + j} has shape {tuple(s)}"
                                     f" but its weight has shape {known}")
                ins[b * per + j] = known
            outs[b] = known
        if tail is not None:
            t = tail(attrs, n)
            ins[n * per:] = [tuple(s) for s in t]
        return ins, outs, []
    return infer


def _block_type(kinds, tail=None, n_of=None):
    """``kinds`` gives each block slot's dtype: 'w' (the weight's) or 'f' (float32)."""
    per = len(kinds)

    def infer(attrs, in_types, out_types):
        n = n_of(attrs) if n_of else 1
        ins = list(in_types)
        outs = list(out_types) if out_types else [None] * n
        for b in range(n):
            wt = ins[b * per] if ins[b * per] is not None else outs[b]
            if wt is None:
                wt = next((ins[b * per + j] for j, k in enumerate(kinds)
                           if k == "w" and ins[b * per + j] is not None), None)
            for j, k in enumerate(kinds):
                ins[b * per + j] = _F32 if k == "f" else wt
            outs[b] = wt
        if tail is not None:
            ins[n * per:] = [_F32] * tail
        return ins, outs, []
    return infer


def _names(prefixes, attrs, count_key, tail=()):
    n = attrs[count_key]
    return [f"{p}_{i}" for i in range(n) for p in prefixes] + list(tail)


def _common(*names):
    """The usual trailing parameters (wd, rescale_grad, clip_gradient, lazy_update)."""
    table = {
        "wd": Param("wd", "float", 0.0, doc="Weight decay (L2 penalty) coefficient."),
        "rescale_grad": Param("rescale_grad", "float", 1.0, doc="Multiply the gradient by this."),
        "clip_gradient": Param("clip_gradient", "float", -1.0,
                               doc="Clip the rescaled gradient to [-c, c] when c >= 0."),
        "lazy_update": Param("lazy_update", "bool", True,
                             doc="Row-sparse lazy update flag (dense arrays ignore it)."),
    }
    return tuple(table[n] for n in names)


_LR = Param("lr", "float", doc="Learning rate.")
_MOMENTUM = Param("momentum", "float", 0.0, doc="Momentum (decay of the previous update).")


_INTO_WEIGHT = set()


def _into_weight(kernel):
    """Mark a kernel that takes ``into=weight``: called so when the caller passed out=weight,
    it may write the new weight there itself (its pieces read each range of the weight before
    writing it) and return that buffer."""
    _INTO_WEIGHT.add(kernel)
    return kernel


def _reg(name, kernel, inputs, params, mp=(), doc="", out_f32=False, new_weight=True):
    """Register a single-weight update op whose inputs all share the weight's shape
    (``out_f32``: the output is float32 whatever the weight's dtype; ``new_weight``: the
    output is the updated weight, so it may take the weight's buffer)."""
    kinds = tuple("f" if n in mp else "w" for n in inputs)
    infer_type = _block_type(kinds)
    if out_f32:
        def infer_type(attrs, in_types, out_types, _base=infer_type):
            ins, _outs, aux = _base(attrs, in_types, [None])
            return ins, [_F32], aux

    def compute(rc, attrs, *arrays, out=None):
        _check(name, arrays, inputs, mp)
        o = out[0] if out else None
        if o is not None and o is arrays[0] and kernel in _INTO_WEIGHT:
            return kernel(rc.xp, attrs, *arrays, into=o)
        return kernel(rc.xp, attrs, *arrays)
    compute.__name__ = name
    register(name, compute, params=params, inputs=inputs, infer_shape=_block_shape(len(inputs)),
             infer_type=infer_type, inplace=((0, 0),) if new_weight else (), doc=doc,
             accepts_out=new_weight)


# ---------------------------------------------------------------------------------------------
# SGD family


@_into_weight
def _sgd_kernel(xp, attrs, weight, grad, into=None):
    dt = weight.dtype
    lr, wd, rs = _c(attrs["lr"], dt), _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    clip = _c(attrs["clip_gradient"], dt)
    decay = dt.type(1) - lr * wd
    if _piecewise(xp, weight, grad):
        def body(w, g, t, o):
            _lr_grad_into(g, t, lr, rs, clip)
            np.multiply(w, decay, out=o)
            np.subtract(o, t, out=o)
        return _by_pieces((weight, grad), 1, body, into)
    if clip >= 0:
        return decay * weight - lr * _clip(xp, rs * grad, clip)
    return decay * weight - (lr * rs) * grad


@_into_weight
def _sgd_mom_kernel(xp, attrs, weight, grad, mom, into=None):
    dt = weight.dtype
    lr, wd, rs = _c(attrs["lr"], dt), _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    m, clip = _c(attrs["momentum"], dt), _c(attrs["clip_gradient"], dt)
    if _piecewise(xp, weight, grad, mom):
        def body(w, g, v, t, o):   # v: the momentum, updated in place
            np.multiply(v, m, out=v)
            np.multiply(w, lr * wd, out=t)
            np.subtract(v, t, out=v)
            _lr_grad_into(g, t, lr, rs, clip)
            np.subtract(v, t, out=v)
            np.add(w, v, out=o)
        return _by_pieces((weight, grad, mom), 1, body, into)
    if clip >= 0:
        new = m * mom - (lr * wd) * weight - lr * _clip(xp, rs * grad, clip)
    else:
        new = m * mom - (lr * wd) * weight - (lr * rs) * grad
    _set(mom, new)
    return weight + new


def _mp_sgd_kernel(xp, attrs, weight, grad, weight32):
    w = _sgd_kernel(xp, attrs, weight32, grad.astype(_F32))
    _set(weight32, w)
    return w.astype(weight.dtype)


def _mp_sgd_mom_kernel(xp, attrs, weight, grad, mom, weight32):
    w = _sgd_mom_kernel(xp, attrs, weight32, grad.astype(_F32), mom)
    _set(weight32, w)
    return w.astype(weight.dtype)


@_into_weight
def _nag_mom_kernel(xp, attrs, weight, grad, mom, into=None):
    # 1.9.1 writes the new weight first and then recomputes the momentum from the weight
    # buffer; with out=weight (how mx.optimizer.NAG calls it) and in the mp_ variant that
    # buffer already holds the new weight, so the momentum's decay term uses the new weight.
    # This kernel always does so (1.9.1 without out= would use the old weight there).
    dt = weight.dtype
    lr, wd, rs = _c(attrs["lr"], dt), _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    m, clip = _c(attrs["momentum"], dt), _c(attrs["clip_gradient"], dt)
    if _piecewise(xp, weight, grad, mom):
        def body(w, gr, v, g, t, o):   # v: the momentum, updated in place (first to m*mom)
            np.multiply(gr, rs, out=g)
            if clip >= 0:
                np.clip(g, -clip, clip, out=g)
            np.multiply(v, m, out=v)
            np.multiply(w, wd, out=t)
            np.add(g, t, out=t)
            np.multiply(t, lr, out=t)
            np.subtract(v, t, out=t)
            np.multiply(t, m + dt.type(1), out=t)
            np.subtract(w, v, out=o)
            np.add(o, t, out=o)
            np.multiply(o, wd, out=t)
            np.add(g, t, out=t)
            np.multiply(t, lr, out=t)
            np.subtract(v, t, out=v)
        return _by_pieces((weight, grad, mom), 2, body, into)
    g = rs * grad
    if clip >= 0:
        g = _clip(xp, g, clip)
    mm = m * mom
    out = weight - mm + (m + dt.type(1)) * (mm - lr * (g + wd * weight))
    _set(mom, mm - lr * (g + wd * out))
    return out


def _mp_nag_mom_kernel(xp, attrs, weight, grad, mom, weight32):
    w = _nag_mom_kernel(xp, attrs, weight32, grad.astype(_F32), mom)
    _set(weight32, w)
    return w.astype(weight.dtype)


_SGD_DOC = "weight = (1 - lr*wd)*weight - lr*clip(rescale_grad*grad)."
_MOM_DOC = ("mom = momentum*mom - lr*wd*weight - lr*clip(rescale_grad*grad); weight += mom "
            "(mom is updated in place).")
_NAG_DOC = ("Nesterov momentum: with g = clip(rescale_grad*grad), weight' = weight - momentum*mom "
            "+ (1 + momentum)*(momentum*mom - lr*(g + wd*weight)), then mom = momentum*mom - "
            "lr*(g + wd*weight') (in place).")

_reg("sgd_update", _sgd_kernel, ("weight", "grad"),
     (_LR,) + _common("wd", "rescale_grad", "clip_gradient", "lazy_update"), doc=_SGD_DOC)
_reg("sgd_mom_update", _sgd_mom_kernel, ("weight", "grad", "mom"),
     (_LR, _MOMENTUM) + _common("wd", "rescale_grad", "clip_gradient", "lazy_update"),
     doc=_MOM_DOC)
_reg("mp_sgd_update", _mp_sgd_kernel, ("weight", "grad", "weight32"),
     (_LR,) + _common("wd", "rescale_grad", "clip_gradient", "lazy_update"), mp=("weight32",),
     doc=_SGD_DOC + " Computed in float32 on weight32, which is updated in place.")
_reg("mp_sgd_mom_update", _mp_sgd_mom_kernel, ("weight", "grad", "mom", "weight32"),
     (_LR, _MOMENTUM) + _common("wd", "rescale_grad", "clip_gradient", "lazy_update"),
     mp=("mom", "weight32"), doc=_MOM_DOC + " Computed in float32 on weight32.")
_reg("nag_mom_update", _nag_mom_kernel, ("weight", "grad", "mom"),
     (_LR, _MOMENTUM) + _common("wd", "rescale_grad", "clip_gradient"), doc=_NAG_DOC)
_reg("mp_nag_mom_update", _mp_nag_mom_kernel, ("weight", "grad", "mom", "weight32"),
     (_LR, _MOMENTUM) + _common("wd", "rescale_grad", "clip_gradient"),
     mp=("mom", "weight32"), doc=_NAG_DOC + " Computed in float32 on weight32.")


# -- signSGD / Signum --------------------------------------------------------------------------


def _signsgd_kernel(xp, attrs, weight, grad):
    # 1.9.1 takes the sign of the raw gradient: rescale_grad and clip_gradient are ignored
    dt = weight.dtype
    lr, wd = _c(attrs["lr"], dt), _c(attrs["wd"], dt)
    return (dt.type(1) - lr * wd) * weight - lr * _sign(xp, grad)


def _signum_kernel(xp, attrs, weight, grad, mom):
    dt = weight.dtype
    lr, wd, rs = _c(attrs["lr"], dt), _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    m, clip, wd_lh = _c(attrs["momentum"], dt), _c(attrs["clip_gradient"], dt), _c(attrs["wd_lh"], dt)
    one_m = dt.type(1) - m
    if clip >= 0:
        new = m * mom - (one_m * wd) * weight - one_m * _clip(xp, rs * grad, clip)
    else:
        new = m * mom - (one_m * wd) * weight - (one_m * rs) * grad
    _set(mom, new)
    return (dt.type(1) - lr * wd_lh) * weight + lr * _sign(xp, new)


_reg("signsgd_update", _signsgd_kernel, ("weight", "grad"),
     (_LR,) + _common("wd", "rescale_grad", "clip_gradient"),
     doc="weight = (1 - lr*wd)*weight - lr*sign(grad) (rescale_grad and clip_gradient have "
         "no effect, as in 1.9.1).")
_reg("signum_update", _signum_kernel, ("weight", "grad", "mom"),
     (_LR, _MOMENTUM) + _common("wd", "rescale_grad", "clip_gradient") +
     (Param("wd_lh", "float", 0.0, doc="Decoupled weight decay."),),
     doc="mom = momentum*mom - (1-momentum)*(wd*weight + clip(rescale_grad*grad)); "
         "weight = (1 - lr*wd_lh)*weight + lr*sign(mom).")


# ---------------------------------------------------------------------------------------------
# Adam, RMSProp, Ftrl, FTML


@_into_weight
def _adam_kernel(xp, attrs, weight, grad, mean, var, into=None):
    dt = weight.dtype
    lr, wd, rs = _c(attrs["lr"], dt), _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    b1, b2, eps = _c(attrs["beta1"], dt), _c(attrs["beta2"], dt), _c(attrs["epsilon"], dt)
    clip = _c(attrs["clip_gradient"], dt)
    one = dt.type(1)
    if _piecewise(xp, weight, grad, mean, var):
        def body(w, gr, m, v, g, t, u, o):   # m, v: the moments, updated in place
            _decayed_grad_into(gr, w, g, t, rs, wd, clip)
            np.multiply(g, one - b1, out=t)
            np.multiply(m, b1, out=m)
            np.add(m, t, out=m)
            np.multiply(g, one - b2, out=t)
            np.multiply(t, g, out=t)
            np.multiply(v, b2, out=v)
            np.add(v, t, out=v)
            np.multiply(m, lr, out=t)
            np.sqrt(v, out=u)
            np.add(u, eps, out=u)
            np.divide(t, u, out=t)
            np.subtract(w, t, out=o)
        return _by_pieces((weight, grad, mean, var), 3, body, into)
    g = grad * rs + weight * wd
    if clip >= 0:
        g = _clip(xp, g, clip)
    m = b1 * mean + (one - b1) * g
    v = b2 * var + (one - b2) * g * g
    _set(mean, m)
    _set(var, v)
    return weight - lr * m / (xp.sqrt(v) + eps)


_reg("adam_update", _adam_kernel, ("weight", "grad", "mean", "var"),
     (_LR, Param("beta1", "float", 0.9), Param("beta2", "float", 0.999),
      Param("epsilon", "float", 1e-8)) +
     _common("wd", "rescale_grad", "clip_gradient", "lazy_update"),
     doc="g = clip(rescale_grad*grad + wd*weight); mean = beta1*mean + (1-beta1)*g; "
         "var = beta2*var + (1-beta2)*g*g; weight -= lr*mean/(sqrt(var) + epsilon). "
         "No bias correction: mx.optimizer.Adam folds it into lr.")


def _rms_grad(xp, attrs, weight, grad, dt):
    wd, rs = _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    clip = _c(attrs["clip_gradient"], dt)
    g = rs * grad + wd * weight
    return _clip(xp, g, clip) if clip >= 0 else g


def _clip_weights(xp, attrs, w, dt):
    cw = _c(attrs["clip_weights"], dt)
    return _clip(xp, w, cw) if cw >= 0 else w


@_into_weight
def _rmsprop_kernel(xp, attrs, weight, grad, n, into=None):
    dt = weight.dtype
    lr, g1, eps = _c(attrs["lr"], dt), _c(attrs["gamma1"], dt), _c(attrs["epsilon"], dt)
    if _piecewise(xp, weight, grad, n):
        wd, rs = _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
        clip, cw = _c(attrs["clip_gradient"], dt), _c(attrs["clip_weights"], dt)

        def body(w, gr, nn, g, t, o):   # nn: the state n, updated in place
            _decayed_grad_into(gr, w, g, t, rs, wd, clip)
            np.multiply(g, g, out=t)
            np.multiply(t, dt.type(1) - g1, out=t)
            np.multiply(nn, g1, out=nn)
            np.add(t, nn, out=nn)
            np.add(nn, eps, out=t)
            np.sqrt(t, out=t)
            np.divide(g, t, out=g)
            np.multiply(g, lr, out=g)
            np.subtract(w, g, out=o)
            if cw >= 0:
                np.clip(o, -cw, cw, out=o)
        return _by_pieces((weight, grad, n), 2, body, into)
    g = _rms_grad(xp, attrs, weight, grad, dt)
    new_n = (dt.type(1) - g1) * (g * g) + g1 * n
    _set(n, new_n)
    return _clip_weights(xp, attrs, weight - lr * (g / xp.sqrt(new_n + eps)), dt)


def _rmspropalex_kernel(xp, attrs, weight, grad, n, gstate, delta):
    dt = weight.dtype
    lr, g1, g2 = _c(attrs["lr"], dt), _c(attrs["gamma1"], dt), _c(attrs["gamma2"], dt)
    eps = _c(attrs["epsilon"], dt)
    one_g1 = dt.type(1) - g1
    g = _rms_grad(xp, attrs, weight, grad, dt)
    new_n = one_g1 * g * g + g1 * n
    new_g = one_g1 * g + g1 * gstate
    new_d = g2 * delta - lr * g / xp.sqrt(new_n - new_g * new_g + eps)
    _set(n, new_n)
    _set(gstate, new_g)
    _set(delta, new_d)
    return _clip_weights(xp, attrs, weight + new_d, dt)


_RMS_COMMON = _common("wd", "rescale_grad", "clip_gradient") + (
    Param("clip_weights", "float", -1.0, doc="Clip the new weight to [-c, c] when c >= 0."),)

_reg("rmsprop_update", _rmsprop_kernel, ("weight", "grad", "n"),
     (_LR, Param("gamma1", "float", 0.95), Param("epsilon", "float", 1e-8)) + _RMS_COMMON,
     doc="g = clip(rescale_grad*grad + wd*weight); n = (1-gamma1)*g*g + gamma1*n; "
         "weight -= lr*g/sqrt(n + epsilon).")
_reg("rmspropalex_update", _rmspropalex_kernel, ("weight", "grad", "n", "g", "delta"),
     (_LR, Param("gamma1", "float", 0.95), Param("gamma2", "float", 0.9),
      Param("epsilon", "float", 1e-8)) + _RMS_COMMON,
     doc="Graves' centred RMSProp: n and g are running averages of g*g and g; "
         "delta = gamma2*delta - lr*g/sqrt(n - g_avg^2 + epsilon); weight += delta.")


def _ftrl_kernel(xp, attrs, weight, grad, z, n):
    dt = weight.dtype
    lr, wd, rs = _c(attrs["lr"], dt), _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    l1, beta, clip = _c(attrs["lamda1"], dt), _c(attrs["beta"], dt), _c(attrs["clip_gradient"], dt)
    g = grad * rs
    if clip >= 0:
        g = _clip(xp, g, clip)
    g2 = g * g
    new_z = z + (g - (xp.sqrt(n + g2) - xp.sqrt(n)) * weight / lr)
    new_n = n + g2
    _set(z, new_z)
    _set(n, new_n)
    keep = (xp.abs(new_z) > l1).astype(dt)
    return (_sign(xp, new_z) * l1 - new_z) / ((beta + xp.sqrt(new_n)) / lr + wd) * keep


_reg("ftrl_update", _ftrl_kernel, ("weight", "grad", "z", "n"),
     (_LR, Param("lamda1", "float", 0.01), Param("beta", "float", 1.0)) +
     _common("wd", "rescale_grad", "clip_gradient"),
     doc="FTRL-proximal: z += g - (sqrt(n + g*g) - sqrt(n))*weight/lr; n += g*g; "
         "weight = (sign(z)*lamda1 - z)/((beta + sqrt(n))/lr + wd) where |z| > lamda1, else 0.")


def _ftml_kernel(xp, attrs, weight, grad, d, v, z):
    dt = weight.dtype
    lr, wd, rs = _c(attrs["lr"], dt), _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    b1, b2 = _c(attrs["beta1"], dt), _c(attrs["beta2"], dt)
    eps = dt.type(attrs["epsilon"])  # a C double in 1.9.1
    clip = _c(attrs["clip_grad"], dt)
    t = dt.type(attrs["t"])
    one = dt.type(1)
    g = rs * grad + wd * weight
    if clip >= 0:
        g = _clip(xp, g, clip)
    new_v = b2 * v + (one - b2) * (g * g)
    d_t = (one - b1 ** t) / lr * (xp.sqrt(new_v / (one - b2 ** t)) + eps)
    new_z = b1 * z + (one - b1) * g - (d_t - b1 * d) * weight
    _set(v, new_v)
    _set(z, new_z)
    _set(d, d_t)
    return -new_z / d_t


_reg("ftml_update", _ftml_kernel, ("weight", "grad", "d", "v", "z"),
     (_LR, Param("beta1", "float", 0.6), Param("beta2", "float", 0.999),
      # a C double whose default is the float literal 1e-8f
      Param("epsilon", "float", float(np.float32(1e-8))),
      Param("t", "int", doc="The 1-based step number."),
      Param("wd", "float", 0.0), Param("rescale_grad", "float", 1.0),
      Param("clip_grad", "float", -1.0, doc="Clip the gradient to [-c, c] when c >= 0.")),
     doc="Follow the Moving Leader; d, v and z are updated in place.")


# ---------------------------------------------------------------------------------------------
# LAMB (two phases; the norms r1 = |weight| and r2 = |g| are computed in between)


def _lamb_moments(attrs, g, mean, var, b1, b2, one, scalar):
    """LAMB's moving averages of g and g*g, written into the ``mean`` and ``var`` states, and
    returned bias-corrected when ``bias_correction`` is set (the step count ``t`` as
    ``scalar``, the arithmetic's dtype)."""
    m = b1 * mean + (one - b1) * g
    v = b2 * var + (one - b2) * g * g
    _set(mean, m)
    _set(var, v)
    if attrs["bias_correction"]:
        t = scalar(attrs["t"])
        m = m / (one - b1 ** t)
        v = v / (one - b2 ** t)
    return m, v


def _lamb_step_moments(xp, attrs, grad, mean, var, dt):
    """(m, v, wd, epsilon): LAMB's moments from the rescaled, clipped gradient (the states
    updated in place), with the parameters as the kernels see them in ``dt``."""
    wd, rs = _c(attrs["wd"], dt), _c(attrs["rescale_grad"], dt)
    b1, b2, eps = _c(attrs["beta1"], dt), _c(attrs["beta2"], dt), _c(attrs["epsilon"], dt)
    clip = _c(attrs["clip_gradient"], dt)
    g = grad * rs
    if clip >= 0:
        g = _clip(xp, g, clip)
    m, v = _lamb_moments(attrs, g, mean, var, b1, b2, dt.type(1), dt.type)
    return m, v, wd, eps


def _lamb_phase1_math(xp, attrs, w, grad, mean, var, dt):
    m, v, wd, eps = _lamb_step_moments(xp, attrs, grad, mean, var, dt)
    return m / (xp.sqrt(v) + eps) + wd * w


def _lamb_phase1_kernel(xp, attrs, weight, grad, mean, var):
    return _lamb_phase1_math(xp, attrs, weight, grad, mean, var, weight.dtype)


def _mp_lamb_phase1_kernel(xp, attrs, weight, grad, mean, var, weight32):
    return _lamb_phase1_math(xp, attrs, weight32, grad.astype(_F32), mean, var, _F32)


def _lamb_ratio(lr, r1, r2, lower, upper, dt, grouped=False):
    """lr scaled by the trust ratio r1/r2 (r1 bounded); plain lr when either norm is 0.
    ``grouped``: lr*(r1/r2), the multi-tensor kernel's rounding, instead of lr*r1/r2."""
    if lower >= 0:
        r1 = max(r1, dt.type(lower))
    if upper >= 0:
        r1 = min(r1, dt.type(upper))
    if r1 == 0 or r2 == 0:
        return lr
    return lr * (r1 / r2) if grouped else lr * r1 / r2


def _lamb_phase2_math(attrs, w, g, r1, r2, dt):
    lr = _c(attrs["lr"], dt)
    r1 = dt.type(float(r1.reshape(-1)[0]))
    r2 = dt.type(float(r2.reshape(-1)[0]))
    lr_t = _lamb_ratio(lr, r1, r2, np.float32(attrs["lower_bound"]),
                       np.float32(attrs["upper_bound"]), dt)
    return w - lr_t * g


def _lamb_phase2_kernel(xp, attrs, weight, g, r1, r2):
    return _lamb_phase2_math(attrs, weight, g, r1, r2, weight.dtype)


def _mp_lamb_phase2_kernel(xp, attrs, weight, g, r1, r2, weight32):
    # As in 1.9.1, weight32 is read but not written back: only the float16 output changes
    # (so repeated mp_lamb steps all start from the same master copy).
    return _lamb_phase2_math(attrs, weight32, g, r1, r2, _F32).astype(weight.dtype)


_LAMB1_PARAMS = (Param("beta1", "float", 0.9), Param("beta2", "float", 0.999),
                 Param("epsilon", "float", 1e-6), Param("t", "int", doc="The 1-based step."),
                 Param("bias_correction", "bool", True), Param("wd", "float"),
                 Param("rescale_grad", "float", 1.0), Param("clip_gradient", "float", -1.0))
_LAMB2_PARAMS = (_LR, Param("lower_bound", "float", -1.0, doc="Lower bound of r1 when >= 0."),
                 Param("upper_bound", "float", -1.0, doc="Upper bound of r1 when >= 0."))
_LAMB1_DOC = ("LAMB phase 1: updates mean and var in place and returns the direction "
              "g = mean_hat/(sqrt(var_hat) + epsilon) + wd*weight.")
_LAMB2_DOC = ("LAMB phase 2: weight - lr*(r1/r2)*g, with r1 = |weight| (clamped to the "
              "bounds) and r2 = |g| given as 1-element arrays; lr alone when either is 0.")


def _lamb2_shape(n_in):
    def infer(attrs, in_shapes, out_shapes):
        ins = list(in_shapes)
        w = next((s for s in (ins[0], ins[1], out_shapes[0] if out_shapes else None)
                  if s is not None), None)
        if w is not None:
            ins[0] = ins[1] = tuple(w)
            if n_in == 5:
                ins[4] = tuple(w)
        ins[2] = ins[2] if ins[2] is not None else (1,)
        ins[3] = ins[3] if ins[3] is not None else (1,)
        return ins, [None if w is None else tuple(w)], []
    return infer


def _lamb2_check(opname, weight, g, r1, r2):
    if tuple(g.shape) != tuple(weight.shape):
        raise MXNetError(f"{opname}: g has shape {tuple(g.shape)} but weight has shape "
                         f"{tuple(weight.shape)}")
    for n, r in (("r1", r1), ("r2", r2)):
        if r.size != 1:
            raise MXNetError(f"{opname}: {n} must hold one value, got shape {tuple(r.shape)}")


def _reg_lamb2(name, kernel, inputs, mp):
    def compute(rc, attrs, *arrays):
        _lamb2_check(name, *arrays[:4])
        return kernel(rc.xp, attrs, *arrays)
    compute.__name__ = name
    kinds = ("w", "f", "f", "f", "f") if mp else ("w", "w", "w", "w")
    register(name, compute, params=_LAMB2_PARAMS, inputs=inputs,
             infer_shape=_lamb2_shape(len(inputs)), infer_type=_block_type(kinds),
             inplace=((0, 0),), doc=_LAMB2_DOC)


_reg("lamb_update_phase1", _lamb_phase1_kernel, ("weight", "grad", "mean", "var"),
     _LAMB1_PARAMS, doc=_LAMB1_DOC, new_weight=False)
_reg("mp_lamb_update_phase1", _mp_lamb_phase1_kernel,
     ("weight", "grad", "mean", "var", "weight32"), _LAMB1_PARAMS,
     mp=("mean", "var", "weight32"), out_f32=True, new_weight=False,
     doc=_LAMB1_DOC + " Computed in float32 on weight32; g is float32.")
_reg_lamb2("lamb_update_phase2", _lamb_phase2_kernel, ("weight", "g", "r1", "r2"), False)
_reg_lamb2("mp_lamb_update_phase2", _mp_lamb_phase2_kernel,
           ("weight", "g", "r1", "r2", "weight32"), True)


# ---------------------------------------------------------------------------------------------
# multi-tensor SGD: inputs are blocks (weight_i, grad_i[, mom_i][, weight32_i]) for i < num_weights


def _multi_sgd_one(xp, w, grad, mom, lr, wd, attrs, dt):
    """One tensor of 1.9.1's MultiSGDKernel: computed as mom' = m*mom - lr*wd*w - lr*g,
    w' = w + mom' (also without momentum, where mom is 0)."""
    lr, wd = dt.type(np.float32(lr)), dt.type(np.float32(wd))
    rs, clip = _c(attrs["rescale_grad"], dt), _c(attrs["clip_gradient"], dt)
    m = _c(attrs.get("momentum", 0.0), dt)
    g = grad.astype(dt, copy=False)
    if _piecewise(xp, w, g, *(() if mom is None else (mom,))):
        return _by_pieces((w, g) + (() if mom is None else (mom,)),
                          1, _multi_sgd_body(m, lr, wd, rs, clip, mom is not None))
    if mom is not None and clip < 0 and mom.dtype == dt:
        # in place on the momentum state, in the same order (same rounding) as below
        xp.multiply(mom, m, out=mom)
        if wd:
            mom -= (lr * wd) * w
        mom -= (lr * rs) * g
        return w + mom
    prev = mom if mom is not None else dt.type(0)
    if clip >= 0:
        new = m * prev - (lr * wd) * w - lr * _clip(xp, rs * g, clip)
    else:
        new = m * prev - (lr * wd) * w - (lr * rs) * g
    if mom is not None:
        _set(mom, new)
    return w + new


def _multi_sgd_body(m, lr, wd, rs, clip, with_mom):
    """``_multi_sgd_one``'s steps for one piece (see ``_by_pieces``): with the momentum, those
    of its in-place path (or, clipping, of its expression); without, the expression's with
    the momentum term the scalar 0."""
    if with_mom:
        def body(w, g, v, t, o):   # v: the momentum, updated in place
            np.multiply(v, m, out=v)
            if wd or clip >= 0:
                np.multiply(w, lr * wd, out=t)
                np.subtract(v, t, out=v)
            _lr_grad_into(g, t, lr, rs, clip)
            np.subtract(v, t, out=v)
            np.add(w, v, out=o)
        return body
    start = m * m.dtype.type(0)

    def body(w, g, t, o):
        np.multiply(w, lr * wd, out=o)
        np.subtract(start, o, out=o)
        _lr_grad_into(g, t, lr, rs, clip)
        np.subtract(o, t, out=o)
        np.add(w, o, out=o)
    return body


def _make_multi_sgd(name, mom, mp, preloaded):
    per = 2 + int(mom) + int(mp)
    prefixes = ["weight", "grad"] + (["mom"] if mom else []) + (["weight32"] if mp else [])
    kinds = ("w", "w") + (("f",) if (mom and mp) else ("w",) if mom else ()) + (("f",) if mp else ())
    n_of = lambda a: a["num_weights"]  # noqa: E731

    def compute(rc, attrs, *arrays):
        xp = rc.xp
        n = attrs["num_weights"]
        if len(arrays) != n * per + (2 if preloaded else 0):
            raise MXNetError(f"{name}: expected {n * per + (2 if preloaded else 0)} inputs for "
                             f"num_weights={n}, got {len(arrays)}")
        if preloaded:
            lrs = [float(x) for x in _host(arrays[n * per])]
            wds = [float(x) for x in _host(arrays[n * per + 1])]
        else:
            lrs, wds = attrs["lrs"], attrs["wds"]
            if len(lrs) < n or len(wds) < n:
                raise MXNetError(f"{name}: lrs and wds need num_weights={n} values, got "
                                 f"{len(lrs)} and {len(wds)}")
        outs = []
        for i in range(n):
            blk = arrays[i * per:(i + 1) * per]
            _check(name, blk, prefixes, ("weight32",) + (("mom",) if mp else ()))
            weight, grad = blk[0], blk[1]
            m = blk[2] if mom else None
            if mp:
                w32 = blk[-1]
                new = _multi_sgd_one(xp, w32, grad, m, lrs[i], wds[i], attrs, _F32)
                _set(w32, new)
                outs.append(new.astype(weight.dtype))
            else:
                outs.append(_multi_sgd_one(xp, weight, grad, m, lrs[i], wds[i], attrs,
                                           weight.dtype))
        return tuple(outs)
    compute.__name__ = name

    params = []
    if not preloaded:
        params += [Param("lrs", "tuple_float", doc="Learning rate of each weight."),
                   Param("wds", "tuple_float", doc="Weight decay of each weight.")]
    if mom:
        params.append(_MOMENTUM)
    params += list(_common("rescale_grad", "clip_gradient"))
    params.append(Param("num_weights", "int", 1, doc="Number of weights updated."))
    tail_names = ("lrs", "wds") if preloaded else ()
    tail_shape = (lambda a, n: [(n,), (n,)]) if preloaded else None
    register(name, compute, params=tuple(params),
             inputs=lambda a: _names(prefixes, a, "num_weights", tail_names),
             num_outputs=n_of, infer_shape=_block_shape(per, tail_shape, n_of),
             infer_type=_block_type(kinds, 2 if preloaded else None, n_of),
             doc=f"Update num_weights weights at once ({', '.join(prefixes)} per weight"
                 + (", then the lrs and wds arrays" if preloaded else "") + "); "
                 "each output is one updated weight.")


def _host(a):
    """A small device array as a NumPy array (lrs/wds of the preloaded ops, adamw's scale)."""
    return a.get() if hasattr(a, "get") else np.asarray(a)


for _mom in (False, True):
    for _mp in (False, True):
        for _pre in (False, True):
            _make_multi_sgd(f"{'preloaded_' if _pre else ''}multi_{'mp_' if _mp else ''}sgd_"
                            f"{'mom_' if _mom else ''}update", _mom, _mp, _pre)


# -- multi_sum_sq and multi_lars (LARS' fused learning rates) ----------------------------------


def _sum_sq(xp, a):
    """1.9.1's sum of squares: each square rounded to the array's dtype, then added up one
    by one in float32 (a sequential sum, hence cumsum rather than NumPy's pairwise sum)."""
    if a.size == 0:
        return xp.zeros((), dtype=_F32)
    return xp.cumsum((a * a).reshape(-1), dtype=_F32)[-1]


def _multi_sum_sq(rc, attrs, *arrays):
    xp = rc.xp
    n = attrs["num_arrays"]
    if len(arrays) != n:
        raise MXNetError(f"multi_sum_sq: num_arrays={n} but {len(arrays)} arrays were given")
    return xp.stack([_sum_sq(xp, a) for a in arrays]).astype(_F32)


register("multi_sum_sq", _multi_sum_sq, params=(Param("num_arrays", "int"),),
         inputs=lambda a: [f"array_{i}" for i in range(a["num_arrays"])],
         infer_shape=lambda a, i, o: (i, [(a["num_arrays"],)], []),
         infer_type=lambda a, i, o: ([next((t for t in i if t is not None), None)] * len(i),
                                     [_F32], []),
         doc="The sum of squares of each input array, as a float32 vector of num_arrays values.")


def _multi_lars(rc, attrs, lrs, w_sq, g_sq, wds):
    xp = rc.xp
    dt = lrs.dtype
    eta, eps, rs = _c(attrs["eta"], dt), _c(attrs["eps"], dt), _c(attrs["rescale_grad"], dt)
    w_norm = xp.sqrt(w_sq)
    g_norm = xp.sqrt(g_sq) * rs
    scaled = lrs * eta * w_norm / (g_norm + wds * w_norm + eps)
    return xp.where((w_norm > 0) & (g_norm > 0), scaled, lrs).astype(dt)


register("multi_lars", _multi_lars,
         params=(Param("eta", "float", doc="LARS coefficient."), Param("eps", "float"),
                 Param("rescale_grad", "float", 1.0)),
         inputs=("lrs", "weights_sum_sq", "grads_sum_sq", "wds"),
         infer_shape=_block_shape(4), infer_type=_block_type(("w", "w", "w", "w")),
         doc="Layer-wise learning rates: lr*eta*|w|/(|g|*rescale_grad + wd*|w| + eps) where "
             "both norms are positive, lr otherwise (norms from the sums of squares).")


# ---------------------------------------------------------------------------------------------
# multi-tensor LAMB (1.9.1's contrib multi_lamb_update calls these)


def _multi_lamb_half(xp, attrs, w, grad, mean, var, lr):
    """One float16 tensor of ``_multi_lamb_update`` (no master copy). The 1.9.1 kernel works
    in half precision, each operation rounded to half: its float parameters rescale_grad,
    wd and lr enter as floats (rounded once with their operand), epsilon is cast to half
    first, and the trust ratio r1/r2 is rounded to half. The direction is kept in a float32
    buffer, so r2 sums float32 squares (a float16 square would underflow)."""
    h, f = w.dtype, np.float32
    hc = lambda v: h.type(np.float32(v))  # noqa: E731  (a float cast to half)
    one, b1, b2 = h.type(1), hc(attrs["beta1"]), hc(attrs["beta2"])
    g = (grad.astype(f) * f(attrs["rescale_grad"])).astype(h)
    if attrs["clip_gradient"] >= 0:
        g = _clip(xp, g, hc(attrs["clip_gradient"]))
    m, v = _lamb_moments(attrs, g, mean, var, b1, b2, one, h.type)
    den = (xp.sqrt(v.astype(f)) + f(hc(attrs["epsilon"]))).astype(h)
    q = m / den
    d = q + (f(attrs["wd"]) * w.astype(f)).astype(h)
    d32 = d.astype(f)
    r1 = f(np.sqrt(f(_host(_sum_sq(xp, w)))))
    r2 = f(np.sqrt(f(_host(_sum_sq(xp, d32)))))
    if attrs["lower_bound"] >= 0:
        r1 = max(r1, f(attrs["lower_bound"]))
    if attrs["upper_bound"] >= 0:
        r1 = min(r1, f(attrs["upper_bound"]))
    r = h.type(1) if r1 == 0 or r2 == 0 else h.type(r1 / r2)
    lr_adj = h.type(f(lr) * f(r))
    return w - (f(lr_adj) * d32).astype(h)


# weights of up to this many elements take the multi-tensor kernel's double-precision direction
# (_multi_lamb_direction); larger ones keep the float steps of lamb_update_phase1, which
# differ in the last bits but cost less (a (1024, 1024) LAMB step: 9.4 ms against 11.5)
_MULTI_LAMB_EXACT_MAX = 1 << 16


def _multi_lamb_direction(xp, attrs, w, grad, mean, var, dt):
    """The LAMB direction as 1.9.1's multi-tensor kernel forms it (float32/float64 weights):
    the moments as in lamb_update_phase1, then ``m / (sqrt(v) + epsilon) + wd * w`` with the
    square root taken in double (C's sqrt of a float), so the quotient and the sum are
    double and only ``wd * w`` is rounded on its own; rounded to ``dt`` once. (The
    single-tensor phase-1 kernel stays in float: the two differ in the last bits.)"""
    m, v, wd, eps = _lamb_step_moments(xp, attrs, grad, mean, var, dt)
    f64 = np.float64
    q = m.astype(f64) / (xp.sqrt(v.astype(f64)) + f64(eps))
    return (q + (wd * w).astype(f64)).astype(dt)


def _make_multi_lamb(name, mp):
    per = 5 if mp else 4
    prefixes = ["weight", "grad", "mean", "var"] + (["weight32"] if mp else [])
    kinds = ("w", "w", "f", "f", "f") if mp else ("w", "w", "w", "w")
    n_of = lambda a: a["num_tensors"]  # noqa: E731

    def compute(rc, attrs, *arrays):
        xp = rc.xp
        n = attrs["num_tensors"]
        if len(arrays) != n * per:
            raise MXNetError(f"{name}: expected {n * per} inputs for num_tensors={n}, "
                             f"got {len(arrays)}")
        lrs, wds, steps = attrs["learning_rates"], attrs["wds"], attrs["step_count"]
        outs = []
        for i in range(n):
            blk = arrays[i * per:(i + 1) * per]
            _check(name, blk, prefixes, ("mean", "var", "weight32") if mp else ())
            weight, grad, mean, var = blk[:4]
            dt = _F32 if mp else weight.dtype
            w = blk[4] if mp else weight
            a1 = dict(attrs, wd=wds[i], t=steps[i])
            if not mp and dt == np.float16:
                outs.append(_multi_lamb_half(xp, a1, weight, grad, mean, var, lrs[i]))
                continue
            g = (_multi_lamb_direction if w.size <= _MULTI_LAMB_EXACT_MAX else
                 _lamb_phase1_math)(xp, a1, w, grad.astype(dt, copy=False), mean, var, dt)
            # r1 is the norm of the (float16 for mp) weight, r2 that of the float32 direction
            r1 = np.float32(np.sqrt(np.float32(_host(_sum_sq(xp, weight)))))
            r2 = np.float32(np.sqrt(np.float32(_host(_sum_sq(xp, g)))))
            lr_t = _lamb_ratio(np.float32(lrs[i]), r1, r2, np.float32(attrs["lower_bound"]),
                               np.float32(attrs["upper_bound"]), _F32, grouped=True)
            new = w - dt.type(lr_t) * g
            if mp:
                _set(w, new)
                new = new.astype(weight.dtype)
            outs.append(new)
        return tuple(outs)
    compute.__name__ = name

    params = (Param("learning_rates", "tuple_float"), Param("beta1", "float", 0.9),
              Param("beta2", "float", 0.999), Param("epsilon", "float", 1e-6),
              Param("wds", "tuple_float"), Param("rescale_grad", "float", 1.0),
              Param("lower_bound", "float", -1.0), Param("upper_bound", "float", -1.0),
              Param("clip_gradient", "float", -1.0), Param("bias_correction", "bool", True),
              Param("step_count", "shape", doc="The 1-based step of each tensor."),
              Param("num_tensors", "int", 1))
    register(name, compute, params=params, key_var_num_args="num_tensors",
             inputs=lambda a: _names(prefixes, a, "num_tensors"), num_outputs=n_of,
             infer_shape=_block_shape(per, None, n_of), infer_type=_block_type(kinds, None, n_of),
             doc="Both LAMB phases for num_tensors weights (mean and var updated in place).")


_make_multi_lamb("_multi_lamb_update", False)
_make_multi_lamb("_multi_mp_lamb_update", True)


# ---------------------------------------------------------------------------------------------
# AdamW (1.9.1's contrib adamw_update calls these; rescale_grad is an array input, and a
# non-finite or zero value skips the update, states included)


def _adamw_one(xp, attrs, w, grad, mean, var, scale, lr, wd, eta, dt, write_grad, multi):
    b1, b2, eps = _c(attrs["beta1"], dt), _c(attrs["beta2"], dt), _c(attrs["epsilon"], dt)
    clip = _c(attrs["clip_gradient"], dt)
    lr, wd, eta = dt.type(np.float32(lr)), dt.type(np.float32(wd)), dt.type(np.float32(eta))
    one = dt.type(1)
    g = grad.astype(dt, copy=False) * dt.type(scale)
    if clip >= 0:
        g = _clip(xp, g, clip)
    if write_grad:
        _set(grad, g)
    if multi:  # the multi-tensor kernel moves each moment towards the new value:
        # mean = beta1 * (mean - g) + g, var = beta2 * (var - g*g) + g*g (found by experiment)
        gg = g * g
        m = b1 * (mean - g) + g
        v = b2 * (var - gg) + gg
    else:
        m = b1 * mean + (one - b1) * g
        v = b2 * var + (one - b2) * (g * g)
    _set(mean, m)
    _set(var, v)
    return w - eta * (lr * m / (xp.sqrt(v) + eps) + wd * w)


def _make_adamw(name, mp, multi):
    per = 5 if mp else 4
    prefixes = ["weight", "grad", "mean", "var"] + (["weight32"] if mp else [])
    kinds = ("w", "w", "f", "f", "f") if mp else ("w", "w", "w", "w")
    n_of = (lambda a: a["num_weights"]) if multi else None

    def compute(rc, attrs, *arrays):
        xp = rc.xp
        n = attrs["num_weights"] if multi else 1
        if len(arrays) != n * per + 1:
            raise MXNetError(f"{name}: expected {n * per + 1} inputs, got {len(arrays)}")
        scale = float(_host(arrays[-1]).reshape(-1)[0])
        if multi:
            lrs, wds, etas = attrs["lrs"], attrs["wds"], attrs["etas"]
        else:
            lrs, wds, etas = (attrs["lr"],), (attrs["wd"],), (attrs["eta"],)
        outs = []
        for i in range(n):
            blk = arrays[i * per:(i + 1) * per]
            _check(name, blk, prefixes, ("mean", "var", "weight32") if mp else ())
            weight = blk[0]
            w = blk[4] if mp else weight
            if not np.isfinite(scale) or scale == 0:
                outs.append(weight.copy())
                continue
            dt = w.dtype
            # 1.9.1's single-tensor, single-precision kernel leaves the scaled, clipped
            # gradient in the grad buffer
            new = _adamw_one(xp, attrs, w, blk[1], blk[2], blk[3], np.float32(scale),
                             lrs[i], wds[i], etas[i], dt, write_grad=not (mp or multi), multi=multi)
            if mp:
                _set(w, new)
                new = new.astype(weight.dtype)
            outs.append(new)
        return tuple(outs) if multi else outs[0]
    compute.__name__ = name

    common = (Param("beta1", "float", 0.9), Param("beta2", "float", 0.999),
              Param("epsilon", "float", 1e-8))
    if multi:
        params = (Param("lrs", "tuple_float"),) + common + (
            Param("wds", "tuple_float"), Param("etas", "tuple_float"),
            Param("clip_gradient", "float", -1.0), Param("num_weights", "int", 1))
        inputs = lambda a: _names(prefixes, a, "num_weights", ("rescale_grad",))  # noqa: E731
    else:
        params = (_LR,) + common + (Param("wd", "float", 0.0), Param("eta", "float"),
                                    Param("clip_gradient", "float", -1.0))
        inputs = tuple(prefixes) + ("rescale_grad",)
    register(name, compute, params=params, inputs=inputs, num_outputs=n_of or 1,
             infer_shape=_block_shape(per, lambda a, n: [(1,)], n_of),
             infer_type=_block_type(kinds, 1, n_of),
             doc="AdamW: weight -= eta*(lr*mean/(sqrt(var) + epsilon) + wd*weight), with the "
                 "gradient scaled by the rescale_grad array (no update when it is 0, inf or nan).")


_make_adamw("_adamw_update", False, False)
_make_adamw("_mp_adamw_update", True, False)
_make_adamw("_multi_adamw_update", False, True)
_make_adamw("_multi_mp_adamw_update", True, True)
