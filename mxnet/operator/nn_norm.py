"""Normalisation operators: BatchNorm, _contrib_SyncBatchNorm, LayerNorm, GroupNorm,
InstanceNorm, L2Normalization and LRN.

Behaviour follows 1.9.1's CPU kernels, including its less obvious choices:

- BatchNorm and SyncBatchNorm update ``moving_mean``/``moving_var`` in the *backward*
  pass, not the forward one (a training-mode forward alone leaves them untouched), and
  store the biased batch variance. The update runs whenever the backward pass runs in
  training mode without ``use_global_stats``, with the statistics saved by the forward
  pass (after an inference-mode forward those are the moving statistics themselves).
- ``fix_gamma=True`` (the default) writes 1 into ``gamma`` in place, and gamma's
  gradient is zero.
- BatchNorm's second and third outputs are the mean and the *inverse* standard deviation
  ``1/sqrt(var + eps)``; SyncBatchNorm's are the mean and the biased variance. LayerNorm
  and GroupNorm give the mean and the standard deviation ``sqrt(var + eps)``.
- GroupNorm's gamma and beta hold one value per group, shape ``(num_groups,)``.
- LRN sums squares over the ``2 * ((nsize - 1) // 2) + 1`` channels centred on each
  channel but divides alpha by ``nsize``.

Half-precision inputs are computed in float32 (BatchNorm's gamma, beta and moving
statistics are float32 then, as in 1.9.1). InstanceNorm and LRN also accept float16
and float64, where 1.9.1 computes only float32.

Backward passes are dedicated ``_backward_*`` operators: composing them from
elementwise operators would make several extra passes over the activations.

Large float32/float64 BatchNorm (past the range where 1.9.1's summation order is emulated)
runs on the op threads, image by image: one pass for the batch statistics (shifted sums),
one for the output, one for the gradient's sums and one for the data gradient, each image's
steps against per-channel tables while its slice is in the core's cache (``_bn_fast_*``).
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..base import MXNetError
from ._batch_threads import run_parts
from ._common import channel_table
from ._safe_acc import layer_norm_f16, safe_acc_on
from .conv_kernels import scratch
from .registry import Param, register

# ---------------------------------------------------------------------------------------------
# shared helpers


def _f32(v):
    """A value as 1.9.1 sees a ``float`` (not ``double``) parameter."""
    return float(np.float32(v))


def _prod(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


def _acc(dtype):
    """The dtype statistics are computed in: float32 for half precision."""
    return np.dtype(np.float32) if dtype.itemsize < 4 else dtype


def _desc(*arrays):
    return ", ".join(f"{tuple(a.shape)} {a.dtype}" for a in arrays)


def _check_float(opname, x):
    if x.dtype.kind != "f" and x.dtype.name != "bfloat16":
        raise MXNetError(f"{opname}: data must be a floating point array, got {x.dtype} "
                         f"of shape {tuple(x.shape)}")


def _check_param(opname, name, arr, shape, dtype, data):
    if tuple(arr.shape) != tuple(shape):
        raise MXNetError(f"{opname}: {name} must have shape {tuple(shape)} for data of shape "
                         f"{tuple(data.shape)}, got {tuple(arr.shape)}")
    if arr.dtype != dtype:
        raise MXNetError(f"{opname}: {name} must have dtype {dtype} for data of dtype "
                         f"{data.dtype}, got {arr.dtype}")


def _axis(opname, axis, ndim):
    if not -ndim <= axis < ndim:
        raise MXNetError(f"{opname}: axis {axis} is out of range for data of rank {ndim}; "
                         f"expected an axis in [{-ndim}, {ndim - 1}]")
    return axis % ndim


def _split3(shape, axis):
    """(elements before axis, size of axis, elements after axis)."""
    return _prod(shape[:axis]), int(shape[axis]), _prod(shape[axis + 1:])


def _as(x, dtype):
    return x if x.dtype == dtype else x.astype(dtype)


def _big_out(out, i, x):
    """``out[i]`` when it can take a result shaped and typed like ``x`` without a cast
    (the statistics dtype is ``x``'s), else None."""
    o = out[i] if out is not None and len(out) > i else None
    if o is None or o.shape != x.shape or o.dtype != x.dtype or _acc(x.dtype) != x.dtype or \
            not o.flags.c_contiguous:
        return None
    return o


def _chan_sum(xp, a):
    """Per-channel sum of a (P, C, Q) array."""
    return xp.einsum("pcq->c", a)


def _chan_dot(xp, a, b):
    """Per-channel sum of a * b for (P, C, Q) arrays, without a temporary."""
    return xp.einsum("pcq,pcq->c", a, b)


# ---------------------------------------------------------------------------------------------
# BatchNorm and SyncBatchNorm


# float32 BatchNorm inputs up to this many elements take 1.9.1's inference arithmetic step by
# step: (x - mean) * (gamma / sqrt(var + eps)) + beta. Larger ones fold the mean into the shift
# (one pass less). Training: see _BN_TRAIN_EXACT_MAX below.
_BN_EXACT_MAX = 65536


def _seq_rows(t):
    """Float32 sum of ``t`` over axis 0, adding its rows one after another (NumPy does so for
    a C-ordered array, except a column of scalars, which it sums pairwise)."""
    if t[0].size == 1:
        return np.cumsum(t.reshape(len(t)), dtype=np.float32)[-1].reshape(t.shape[1:])
    return t.sum(axis=0, dtype=np.float32)


def _sync_seq_sum(a, square=False):
    """Per-channel float32 sum of a (N, C, S) array in 1.9.1's SyncBatchNorm order: each
    (n, c) row left to right, then the row sums in n order. ``square`` also returns the
    sums of a * a (from the same reordered copy)."""
    t = np.ascontiguousarray(np.moveaxis(a, 2, 0))
    total = _seq_rows(_seq_rows(t))
    if not square:
        return total
    return total, _seq_rows(_seq_rows(t * t))   # (t may be a view of a: no in-place)


def _sync_forward_exact(x3, gamma, beta, mm, mv, eps, batch_stats, o3):
    """1.9.1's CPU SyncBatchNorm forward on float32 (N, C, S) data, step by step. Training:
    mean = sum(x) / n, var = sum(x * x) / n - mean^2, out = gamma * (x - mean) / sqrt(var +
    eps) + beta. Inference: out = (gamma / sqrt(mv + eps)) * x + (beta - gamma * mm /
    sqrt(mv + eps)). Returns (out, mean, var)."""
    f32 = np.float32
    with np.errstate(all="ignore"):
        if batch_stats:
            scale = f32(1.0) / f32(x3.shape[0] * x3.shape[2])
            total, squares = _sync_seq_sum(x3, square=True)
            mean = total * scale
            var = squares * scale - mean * mean
            root = np.sqrt(var + eps)
            out = np.subtract(x3, mean[:, None], out=o3)
            np.multiply(gamma[:, None], out, out=out)
            out /= root[:, None]
            out += beta[:, None]
            return out, mean, var
        root = np.sqrt(mv + eps)
        out = np.multiply((gamma / root)[:, None], x3, out=o3)
        out += (beta - gamma * mm / root)[:, None]
        return out, mm.copy(), mv.copy()


# 1.9.1 hands float32 BatchNorm of every rank and axis to oneDNN's plain-layout ("ncsp") kernel,
# the data seen as (N, C, S) with the channel axis in the middle. Each channel's sums (mean,
# variance, and the backward's sum(g) and sum(g * (x - mean))) are float32 sums taken element
# after element in (n, s) order (what its threads do on the 2-core machines 1.9.1 was measured
# on; more threads would split them). Emulating that order needs channel-last copies of the
# data (x in the forward pass, x and g in the backward) and sums that NumPy can only vectorise
# across channels: forward + backward take 1.1-1.8x the pairwise kernel's time up to 65,536
# elements and ~2x on ResNet-sized inputs, so the training kernel takes it up to this many
# elements (as the inference arithmetic above) and keeps NumPy's pairwise sums beyond (a few
# ulps off 1.9.1). That is 1.9.1's order for data in the plain layout. The output of 1.9.1's
# oneDNN Convolution (and of the oneDNN operators after it) is in a blocked layout (nChw16c),
# which 1.9.1 normalises with another oneDNN kernel in another order, so BatchNorm right after
# a convolution still differs from 1.9.1 in the last bits. (That kernel, observed: per image
# n, spatial position s goes to accumulator s % 4, accumulator 0 starting from the running
# sum of the images before, then acc0 + acc1 + acc2 + acc3; the variance's steps are fused
# multiply-adds of (mean - x)^2; out = fma(x - mean, gamma / sqrt(var + eps), beta); the
# backward sums are one running fused chain (n, s).)
_BN_TRAIN_EXACT_MAX = _BN_EXACT_MAX


def _chan_last(a3):
    """``(t, owned)``: float32 (N, C, S) data as a C-contiguous (N * S, C) array, each channel a
    column with its rows in (n, s) order; ``owned`` when ``t`` is a new array (a view of ``a3``
    where no transposition is needed). Transposed through (N, S/64, C, 64) tiles where S and C
    are large (NumPy's direct strided copy is up to ~3x slower there)."""
    n, c, s = a3.shape
    if s == 1 or c == 1:
        return a3.reshape(n * s, c), False
    out = np.empty((n, s, c), a3.dtype)
    b = 64
    k = s // b
    if s >= 256 and c >= 64:
        tiles = np.empty((n, k, c, b), a3.dtype)
        np.copyto(tiles, a3[:, :, :k * b].reshape(n, c, k, b).transpose(0, 2, 1, 3))
        np.copyto(out[:, :k * b].reshape(n, k, b, c), tiles.transpose(0, 1, 3, 2))
        if s > k * b:
            np.copyto(out[:, k * b:], a3[:, :, k * b:].transpose(0, 2, 1))
    else:
        np.copyto(out, a3.transpose(0, 2, 1))
    return out.reshape(n * s, c), True


def _col_sums(t):
    """Float32 sums of the columns of a 2-D array with contiguous rows, each adding its rows
    one after another (as _seq_rows; einsum adds a row at a time too, with less overhead per
    row than sum(axis=0), which wins on wide rows)."""
    if t.shape[1] == 1 or t.shape[1] >= 256 or t.shape[0] <= 64:
        return _seq_rows(t)
    return np.einsum("rc->c", t)


def _centre_rows(t, v, owned):
    """``t - v`` for a C-contiguous (R, C) ``t`` and a (C,) ``v``, in place when ``owned``.
    Large ones go as rows of up to ~4096 elements (NumPy's per-row overhead dominates rows of
    a few channels)."""
    r, c = t.shape
    out = t if owned else np.empty_like(t)
    k = math.gcd(r, 1 << max(0, (4096 // c).bit_length() - 1)) if t.size > 8192 else 1
    if k > 1:
        np.subtract(t.reshape(r // k, k * c), np.tile(v, k), out=out.reshape(r // k, k * c))
    else:
        np.subtract(t, v, out=out)
    return out


def _bn_train_stats(x3, eps):
    """1.9.1's batch statistics of float32 (N, C, S) data: mean = sum(x) / n, var =
    sum((x - mean)^2) / n, both sums in (n, s) order; root = sqrt(var + eps) in float32."""
    f32 = np.float32
    n = f32(x3.shape[0] * x3.shape[2])
    t, owned = _chan_last(x3)
    mean = _col_sums(t) / n
    t = _centre_rows(t, mean, owned)
    t *= t
    var = _col_sums(t) / n
    return mean, var, np.sqrt(var + f32(eps))


# Large float32/float64 BatchNorm on NumPy (past the exact range): every pass over the data
# runs over the op threads, image by image (``_batch_threads.run_parts``), and each image's
# steps are taken while its slice is in the core's cache. Per-channel sums are taken per image
# and then added over the images in order, so the results do not depend on the thread count.
# Groups of images of about this many elements make one step.
_BN_STEP = 1 << 16
# ... and only from this many elements on: below, the four hand-outs of a training step
# (statistics, output; gradient sums, data gradient) cost more than the second core saves
_BN_THREADS_MIN = 1 << 20


def _bn_threaded(xp, x3):
    return xp is np and x3.dtype in (np.float32, np.float64) and x3.flags.c_contiguous and \
        x3.shape[0] > 1 and x3.size > _BN_TRAIN_EXACT_MAX


def _by_images(x3, step):
    """``step(i, j)`` for every group of images i..j of (N, C, S) data (about _BN_STEP
    elements each), the groups shared out over the op threads from _BN_THREADS_MIN elements
    on (one inline call below)."""
    nimg, c, sp = x3.shape
    k = max(1, _BN_STEP // max(c * sp, 1))

    def part(a, b):
        for i in range(a, b, k):
            step(i, min(i + k, b))
    run_parts(part, nimg, x3.size if x3.size >= _BN_THREADS_MIN else 0)


def _over_images(a):
    """Per-channel sums of per-image partial sums (N, C), added pairwise along a contiguous
    copy (a running sum over thousands of images, as channel-last data gives, loses digits)."""
    return np.ascontiguousarray(a.T).sum(axis=1)


def _bn_fast_stats(x3):
    """(mean, biased var) per channel of (N, C, S) data in one pass over the op threads:
    each image's sums of d = x - K and d * d, K the first image's channel means (shifted
    sums: with K near the mean, sum(d * d) / n - mean(d)^2 loses no precision to
    cancellation), then added over the images in a fixed order."""
    nimg, c, sp = x3.shape
    count = x3.dtype.type(nimg * sp)
    ref = np.einsum("cq->c", x3[0]) / x3.dtype.type(sp)
    tk = channel_table(ref, sp)
    sums = np.empty((nimg, c), x3.dtype)
    squares = np.empty((nimg, c), x3.dtype)

    def step(i, j):
        t = scratch(np, "bn.t", (j - i, c, sp), x3.dtype)
        np.subtract(x3[i:j], tk, out=t)
        np.einsum("pcq->pc", t, out=sums[i:j])
        np.einsum("pcq,pcq->pc", t, t, out=squares[i:j])
    _by_images(x3, step)
    shift = _over_images(sums) / count
    var = _over_images(squares) / count - shift * shift
    return ref + shift, np.maximum(var, 0, out=var)


def _bn_fast_affine(x3, scale, shift, o3):
    """x * scale + shift per channel (the mean folded into the shift, as PyTorch's CPU kernel
    does), into ``o3`` (a new array when None)."""
    sp = x3.shape[2]
    out = np.empty_like(x3) if o3 is None else o3
    ts, tb = channel_table(scale, sp), channel_table(shift, sp)

    def step(i, j):
        o = np.multiply(x3[i:j], ts, out=out[i:j])
        o += tb
    _by_images(x3, step)
    return out


def _bn_fast_grad_sums(x3, g3, mean):
    """(sum(g), sum(g * (x - mean))) per channel, image by image."""
    nimg, c, sp = x3.shape
    sg = np.empty((nimg, c), x3.dtype)
    sd = np.empty((nimg, c), x3.dtype)
    tm = channel_table(mean, sp)
    np.einsum("pcq->pc", g3, out=sg)   # (one call: per-image calls cost more than the pass)

    def step(i, j):
        t = scratch(np, "bn.t", (j - i, c, sp), x3.dtype)
        np.subtract(x3[i:j], tm, out=t)
        np.einsum("pcq,pcq->pc", g3[i:j], t, out=sd[i:j])
    _by_images(x3, step)
    return _over_images(sg), _over_images(sd)


def _bn_fast_dx(x3, g3, a, b, c0, o3):
    """dx = g * a + x * b + c0 per channel (b None: g * a alone)."""
    nimg, c, sp = x3.shape
    out = np.empty_like(g3) if o3 is None else o3
    ta = channel_table(a, sp)
    if b is not None:
        tb, tc = channel_table(b, sp), channel_table(c0, sp)

    def step(i, j):
        o = np.multiply(g3[i:j], ta, out=out[i:j])
        if b is not None:
            t = scratch(np, "bn.t", (j - i, c, sp), x3.dtype)
            np.multiply(x3[i:j], tb, out=t)
            o += t
            o += tc
    _by_images(x3, step)
    return out


def _bn_exact_train(xp, x, saved_is_var):
    """Whether BatchNorm (not SyncBatchNorm) of ``x`` takes 1.9.1's summation order."""
    return xp is np and x.dtype == np.float32 and not saved_is_var and \
        0 < x.size <= _BN_TRAIN_EXACT_MAX


def _bn_checks(opname, x, gamma, beta, mm, mv, axis):
    _check_float(opname, x)
    if x.ndim == 0:
        raise MXNetError(f"{opname}: data must have at least one dimension")
    axis = _axis(opname, axis, x.ndim)
    c = x.shape[axis]
    pdt = _acc(x.dtype)
    for name, arr in (("gamma", gamma), ("beta", beta), ("moving_mean", mm), ("moving_var", mv)):
        _check_param(opname, name, arr, (c,), pdt, x)
    return axis


def _bn_forward_f16(x, shp, gamma, beta, mm, mv, eps, batch_stats):
    """1.9.1's CPU BatchNorm of float16 data (float32 parameters): batch statistics are
    float32 running sums (in (batch, spatial) order), var + eps is rounded to float16 before
    1/sqrt, and the output rounds to float16 after each of -mean, *invstd, *gamma, +beta.
    Returns (out, mean, invstd)."""
    f32, h = np.float32, np.float16
    c = shp[1]
    with np.errstate(all="ignore"):
        if batch_stats:
            rows = x.reshape(shp).transpose(1, 0, 2).reshape(c, -1).astype(f32)
            n = f32(max(rows.shape[1], 1))
            # cumsum adds left to right, as the C loop does
            mean = np.cumsum(rows, axis=1)[:, -1] / n if rows.shape[1] else np.zeros(c, f32)
            dev = rows - mean[:, None]
            var = np.cumsum(dev * dev, axis=1)[:, -1] / n if rows.shape[1] else mean * 0
        else:
            mean, var = mm.astype(f32), mv.astype(f32)
        root = np.sqrt((var + f32(h(eps))).astype(h).astype(f32))
        invstd = (1.0 / root.astype(np.float64)).astype(f32)
        x3 = x.reshape(shp)
        out = (x3.astype(f32) - mean[:, None]).astype(h)
        out = (out.astype(f32) * invstd[:, None]).astype(h)
        out = (out.astype(f32) * gamma.astype(f32)[:, None]).astype(h)
        out = (out.astype(f32) + beta.astype(f32)[:, None]).astype(h)
    return out.reshape(x.shape), mean.astype(f32), invstd


def _make_bn_forward(opname, saved_is_var, axis_of):
    """The forward kernel; ``saved_is_var`` picks SyncBatchNorm's (mean, var) outputs."""

    def compute(rc, attrs, x, gamma, beta, mm, mv, out=None):
        xp = rc.xp
        axis = _bn_checks(opname, x, gamma, beta, mm, mv, axis_of(attrs))
        if attrs["fix_gamma"]:
            gamma[...] = 1  # 1.9.1 overwrites gamma in place
        acc = _acc(x.dtype)
        shp = _split3(x.shape, axis)
        if x.dtype == np.float16 and xp is np and not saved_is_var:
            return _bn_forward_f16(x, shp, gamma, beta, mm, mv, attrs["eps"],
                                   rc.is_train and not attrs["use_global_stats"])
        x3 = _as(x.reshape(shp), acc)
        o = _big_out(out, 0, x)
        o3 = None if o is None else o.reshape(shp)
        eps = attrs["eps"]
        exact = xp is np and x3.dtype == np.float32 and x.size <= _BN_EXACT_MAX
        if exact and saved_is_var and x.size:
            out, mean, var = _sync_forward_exact(x3, gamma, beta, mm, mv, eps, rc.is_train and
                                                 not attrs["use_global_stats"], o3)
            out = o if o is not None else _as(out, x.dtype).reshape(x.shape)
            return out, mean, var
        if rc.is_train and not attrs["use_global_stats"] and _bn_exact_train(xp, x, saved_is_var):
            with np.errstate(all="ignore"):
                mean, _var, root = _bn_train_stats(x3, eps)
                # (x - mean) * (gamma / root) + beta; invstd = 1 / root
                scale = (np.float32(1) if attrs["fix_gamma"] else gamma) / root
                out = np.subtract(x3, mean[:, None], out=o3)
                out *= scale[:, None]
                out += beta[:, None]
                saved = (mean, np.float32(1) / root)
        elif rc.is_train and not attrs["use_global_stats"] and _bn_threaded(xp, x3) and \
                (o3 is None or o3.flags.c_contiguous):
            with np.errstate(all="ignore"):
                mean, var = _bn_fast_stats(x3)
                invstd = 1.0 / np.sqrt(var + eps)
                scale = invstd if attrs["fix_gamma"] else gamma * invstd
                out = _bn_fast_affine(x3, scale, beta - mean * scale, o3)
            saved = (mean, var if saved_is_var else invstd)
        elif rc.is_train and not attrs["use_global_stats"]:
            n = x3.shape[0] * x3.shape[2]
            mean = _chan_sum(xp, x3) / n
            out = xp.subtract(x3, mean[:, None], out=o3)
            var = _chan_dot(xp, out, out) / n
            invstd = 1.0 / xp.sqrt(var + eps)
            scale = invstd if attrs["fix_gamma"] else gamma * invstd
            out *= scale[:, None]
            out += beta[:, None]
            saved = (mean, var if saved_is_var else invstd)
        else:
            root = xp.sqrt(mv + eps)
            invstd = 1.0 / root
            scale = invstd if attrs["fix_gamma"] else gamma / root
            if exact:   # 1.9.1's steps; larger inputs fold the mean into the shift (1 pass less)
                out = xp.subtract(x3, mm[:, None], out=o3)
                out *= scale[:, None]
                out += beta[:, None]
            elif _bn_threaded(xp, x3) and (o3 is None or o3.flags.c_contiguous):
                out = _bn_fast_affine(x3, scale, beta - mm * scale, o3)
            else:
                out = xp.multiply(x3, scale[:, None], out=o3)
                out += (beta - mm * scale)[:, None]
            saved = (mm.copy(), mv.copy() if saved_is_var else invstd)
        out = o if o is not None else _as(out, x.dtype).reshape(x.shape)
        return out, _as(saved[0], acc), _as(saved[1], acc)

    compute.__name__ = f"{opname}_forward"
    return compute


def _bn_backward_exact(attrs, train, x3, g3, gamma, mean, invstd, mm, mv, o3):
    """1.9.1's BatchNorm backward of float32 (N, C, S) data (oneDNN's plain-layout kernel):
    sums in (n, s) order; in training mode the variance is recovered from 1/sqrt(var + eps) in
    double, the moving statistics move towards the batch's, and dx = (g - (sum(g) / n + (x -
    mean) * dgamma * r / n)) * (gamma * r) with r = 1 / sqrt(var + eps), dgamma = sum(g * (x -
    mean)) * r; otherwise dx = g * (gamma * r). Returns (dx, dgamma, dbeta)."""
    f32 = np.float32
    eps = attrs["eps"]
    n = f32(x3.shape[0] * x3.shape[2])
    w = f32(1) if attrs["fix_gamma"] else gamma
    with np.errstate(all="ignore"):
        if train:
            var = (1.0 / (invstd * invstd).astype(np.float64) - eps).astype(f32)
            m = f32(attrs["momentum"])
            mm *= m
            mm += mean * (f32(1) - m)
            mv *= m
            mv += var * (f32(1) - m)
            r = f32(1) / np.sqrt(var + f32(eps))
        else:
            r = invstd
        gt = _chan_last(g3)[0]
        dbeta = _col_sums(gt)
        t, owned = _chan_last(x3)
        t = _centre_rows(t, mean, owned)
        t *= gt
        dgamma = _col_sums(t) * r
        if train:
            dx = np.subtract(x3, mean[:, None], out=o3)
            dx *= dgamma[:, None]
            dx *= r[:, None]
            dx /= n
            dx += (dbeta / n)[:, None]
            np.subtract(g3, dx, out=dx)
            dx *= (w * r)[:, None]
        else:
            dx = np.multiply(g3, (w * r)[:, None], out=o3)
    if attrs["fix_gamma"]:
        dgamma = np.zeros_like(dgamma)
    return dx, dgamma, dbeta


def _bn_move(attrs, mm, mv, mean, var):
    """The moving statistics move towards the batch's: m * moving + (1 - m) * batch."""
    m = np.float32(attrs["momentum"])
    mm *= m
    mm += (np.float32(1) - m) * mean
    mv *= m
    mv += (np.float32(1) - m) * var


def _make_bn_backward(opname, saved_is_var, axis_of):
    """Gradients of data, gamma and beta; updates the moving statistics in training mode."""

    def compute(rc, attrs, og, x, gamma, mean, saved, mm, mv, out=None):
        xp = rc.xp
        axis = _axis(opname, axis_of(attrs), x.ndim)
        acc = _acc(x.dtype)
        shp = _split3(x.shape, axis)
        x3 = _as(x.reshape(shp), acc)
        g3 = _as(og.reshape(shp), acc)
        o = _big_out(out, 0, x) if og.dtype == x.dtype else None
        o3 = None if o is None else o.reshape(shp)
        eps = attrs["eps"]
        if og.dtype == x.dtype and _bn_exact_train(xp, x, saved_is_var):
            if o3 is not None and (np.may_share_memory(o3, g3) or np.may_share_memory(o3, x3)):
                o = o3 = None
            dx, dgamma, dbeta = _bn_backward_exact(
                attrs, rc.is_train and not attrs["use_global_stats"], x3, g3, gamma, mean,
                saved, mm, mv, o3)
            return (o if o is not None else dx.reshape(x.shape)), dgamma, dbeta
        invstd = 1.0 / xp.sqrt(saved + eps) if saved_is_var else saved
        w = xp.ones_like(invstd) if attrs["fix_gamma"] else gamma
        train = rc.is_train and not attrs["use_global_stats"]
        # the threaded kernels (large float32/float64 data; dx may take g's buffer, not x's)
        fast = (og.dtype == x.dtype and _bn_threaded(xp, x3) and g3.flags.c_contiguous and
                not (saved_is_var and x.size <= _BN_EXACT_MAX) and
                (o3 is None or not (np.may_share_memory(o3, g3) or
                                    np.may_share_memory(o3, x3))))
        exact_sums = None
        if fast:
            with np.errstate(all="ignore"):
                sum_g, dot = _bn_fast_grad_sums(x3, g3, mean)
        else:
            xc = x3 - mean[:, None]
            if saved_is_var and xp is np and x3.dtype == np.float32 and \
                    0 < x.size <= _BN_EXACT_MAX:
                # 1.9.1's SyncBatchNorm sums, in its order: sum(g) and sum(g * (x - mean) /
                # root)
                with np.errstate(all="ignore"):
                    root = np.sqrt(saved + eps)
                    exact_sums = (_sync_seq_sum(g3), xp.zeros_like(saved) if attrs["fix_gamma"]
                                  else _sync_seq_sum(g3 * xc / root[:, None]), root)
            sum_g = exact_sums[0] if exact_sums else _chan_sum(xp, g3)
            dot = _chan_dot(xp, g3, xc)  # sum of g * (x - mean) per channel
        a = w * invstd
        if train:
            _bn_move(attrs, mm, mv, mean, saved if saved_is_var else
                     1.0 / (invstd * invstd) - eps)
            n = x3.shape[0] * x3.shape[2]
            k = dot * invstd * invstd / n
        if fast:
            with np.errstate(all="ignore"):
                if train:
                    # g*a - (x - mean)*a*k - a*sum_g/n, the mean folded into the constant
                    b = -a * k
                    dx = _bn_fast_dx(x3, g3, a, b, -(a * sum_g / n) - mean * b, o3)
                else:
                    dx = _bn_fast_dx(x3, g3, a, None, None, o3)
        elif train:
            dx = xp.multiply(g3, a[:, None], out=o3)
            xc *= (-a * k)[:, None]
            dx += xc
            dx -= (a * sum_g / n)[:, None]
        elif exact_sums:   # 1.9.1's SyncBatchNorm: (g * gamma) * (1 / root)
            dx = xp.multiply(g3, w[:, None], out=o3)
            dx *= (np.float32(1) / exact_sums[2])[:, None]
        else:
            dx = xp.multiply(g3, a[:, None], out=o3)
        dgamma = xp.zeros_like(invstd) if attrs["fix_gamma"] else dot * invstd
        if exact_sums:
            sum_g, dgamma = exact_sums[:2]
        dx = o if o is not None else _as(dx, x.dtype).reshape(x.shape)
        return dx, _as(dgamma, gamma.dtype), _as(sum_g, gamma.dtype)

    compute.__name__ = f"{opname}_backward"
    return compute


def _bn_shape(axis_of):
    def infer(attrs, in_shapes, out_shapes):
        d = in_shapes[0] if in_shapes[0] is not None else (out_shapes[0] if out_shapes else None)
        if d is None:
            c = next((s for s in list(in_shapes[1:3]) + list(out_shapes[1:3]) if s is not None),
                     None)
            p = None if c is None else tuple(c)
            return [None, p, p], [None, p, p], [p, p]
        d = tuple(d)
        axis = _axis("BatchNorm", axis_of(attrs), len(d))
        p = (d[axis],)
        for name, s in zip(("gamma", "beta"), in_shapes[1:3]):
            if s is not None and None not in tuple(s) and tuple(s) != p:
                raise MXNetError(f"BatchNorm: {name} has shape {tuple(s)} but data of shape {d} "
                                 f"needs {p}")
        return [d, p, p], [d, p, p], [p, p]
    return infer


def _bn_type(attrs, in_types, out_types):
    t = in_types[0] if in_types[0] is not None else (out_types[0] if out_types else None)
    if t is None:
        return in_types, out_types, [None, None]
    p = _acc(np.dtype(t))
    return [t, p, p], [t, p, p], [p, p]


def _bn_float_type(attrs, in_types, out_types):
    """_bn_type for BatchNorm (and BatchNormWithReLU), which 1.9.1 types for floating data only."""
    t = in_types[0]
    if t is not None and np.dtype(t).kind != "f" and "bfloat16" not in str(t):
        raise MXNetError(f"BatchNorm: This operation only supports floating point types, "
                         f"not {np.dtype(t).name}")
    return _bn_type(attrs, in_types, out_types)


def _bn_outputs(attrs):
    return 3 if attrs["output_mean_var"] else 1


def _make_bn_gradient(backward_name):
    def gradient(F, attrs, ins, outs, og):
        x, gamma, _beta, mm, mv = ins
        res = getattr(F, backward_name)(og[0], x, gamma, outs[1], outs[2], mm, mv, **attrs)
        return list(res)
    return gradient


def _bn_backward_shape(attrs, in_shapes, out_shapes):
    return in_shapes, [in_shapes[1], in_shapes[2], in_shapes[2]], []


def _bn_backward_type(attrs, in_types, out_types):
    return in_types, [in_types[1], in_types[2], in_types[2]], []


_BN_INPUTS = ("data", "gamma", "beta")
_BN_AUX = ("moving_mean", "moving_var")
_BN_BACKWARD_INPUTS = ("ograd", "data", "gamma", "mean", "var", "moving_mean", "moving_var")

_BN_PARAMS = (
    Param("eps", "float", 1e-3, doc="Added to the variance before the square root."),
    Param("momentum", "float", 0.9, doc="Weight of the old value in the moving averages."),
    Param("fix_gamma", "bool", True, doc="Use gamma = 1 (written into gamma) and give it no "
                                         "gradient."),
    Param("use_global_stats", "bool", False, doc="Normalise with the moving statistics even "
                                                 "in training mode."),
    Param("output_mean_var", "bool", False, doc="Also return the mean and 1/sqrt(var + eps)."),
    Param("axis", "int", 1, doc="The channel axis."),
    Param("cudnn_off", "bool", False, doc="Accepted for compatibility."),
    Param("min_calib_range", "float", None, doc="Quantisation calibration (unused)."),
    Param("max_calib_range", "float", None, doc="Quantisation calibration (unused)."),
)

_bn_axis = lambda attrs: attrs["axis"]  # noqa: E731

register("BatchNorm", _make_bn_forward("BatchNorm", False, _bn_axis), params=_BN_PARAMS,
         accepts_out=True,
         inputs=_BN_INPUTS, aux=_BN_AUX, num_outputs=3, num_visible_outputs=_bn_outputs,
         output_names=lambda a: ["output", "mean", "var"][:_bn_outputs(a)],
         infer_shape=_bn_shape(_bn_axis), infer_type=_bn_float_type,
         gradient=_make_bn_gradient("_backward_BatchNorm"),
         doc="Batch normalisation over every axis but ``axis``, with learnable gamma and beta "
             "and moving statistics (auxiliary states) for inference.")

register("_backward_BatchNorm", _make_bn_backward("BatchNorm", False, _bn_axis),
         params=_BN_PARAMS, accepts_out=True, inputs=_BN_BACKWARD_INPUTS, num_outputs=3, nd_hidden=True,
         infer_shape=_bn_backward_shape, infer_type=_bn_backward_type)

_bn_forward = _make_bn_forward("BatchNorm", False, _bn_axis)


def _bn_relu_forward(rc, attrs, x, gamma, beta, mm, mv, out=None):
    res = _bn_forward(rc, attrs, x, gamma, beta, mm, mv, out=None if out is None else out[:3])
    y = res[0]
    rc.xp.maximum(y, y.dtype.type(0), out=y)
    # 1.9.1's oneDNN kernel keeps a hidden workspace shaped like the data, whose content it
    # leaves unspecified; nothing here reads it
    return tuple(res) + (rc.xp.zeros(x.shape, dtype=x.dtype),)


def _bn_relu_shape(attrs, in_shapes, out_shapes):
    ins, outs, aux = _bn_shape(_bn_axis)(attrs, in_shapes, out_shapes[:3])
    return ins, list(outs) + [outs[0]], aux


def _bn_relu_type(attrs, in_types, out_types):
    ins, outs, aux = _bn_float_type(attrs, in_types, out_types[:3])
    return ins, list(outs) + [outs[0]], aux


def _bn_relu_gradient(F, attrs, ins, outs, og):
    x, gamma, _beta, mm, mv = ins
    masked = og[0] * (outs[0] > 0)   # ReLU's gradient, then BatchNorm's
    return list(F._backward_BatchNorm(masked, x, gamma, outs[1], outs[2], mm, mv, **attrs))


register("_contrib_BatchNormWithReLU", _bn_relu_forward, params=_BN_PARAMS, accepts_out=True,
         inputs=_BN_INPUTS, aux=_BN_AUX, num_outputs=4, num_visible_outputs=_bn_outputs,
         output_names=lambda a: ["output", "mean", "var"][:_bn_outputs(a)],
         infer_shape=_bn_relu_shape, infer_type=_bn_relu_type, gradient=_bn_relu_gradient,
         doc="BatchNorm followed by ReLU in one operator (what Gluon's BatchNormReLU calls); "
             "attributes, statistics and auxiliary states as BatchNorm's. 1.9.1 runs it "
             "through oneDNN only, on 4-D float32 data; here any BatchNorm input works.")

_SYNC_PARAMS = (
    Param("eps", "float", 1e-3, doc="Added to the variance before the square root."),
    Param("momentum", "float", 0.9, doc="Weight of the old value in the moving averages."),
    Param("fix_gamma", "bool", True, doc="Use gamma = 1 and give it no gradient."),
    Param("use_global_stats", "bool", False, doc="Normalise with the moving statistics."),
    Param("output_mean_var", "bool", False, doc="Also return the mean and the variance."),
    Param("ndev", "int", 1, doc="Number of devices meant to share statistics (each device "
                              "uses its own here: see _sync_forward)."),
    Param("key", "str", doc="Name shared by the synchronised copies."),
)


_UNSYNCED_KEYS: set = set()


def _sync_forward(rc, attrs, x, gamma, beta, mm, mv):
    if attrs["ndev"] > 1 and rc.is_train and not attrs["use_global_stats"] and \
            attrs["key"] not in _UNSYNCED_KEYS:
        # 1.9.1's engine threads block until every device has sent its statistics; calls run
        # one after another in the caller's thread here, so a device cannot wait for the others
        _UNSYNCED_KEYS.add(attrs["key"])
        warnings.warn(f"SyncBatchNorm ({attrs['key']!r}, ndev={attrs['ndev']}): statistics are "
                      "not synchronised across devices in mxnet-py; each device normalises "
                      "with its own batch's statistics", UserWarning, stacklevel=2)
    attrs = dict(attrs, eps=_f32(attrs["eps"]))
    return _sync_forward_kernel(rc, attrs, x, gamma, beta, mm, mv)


def _sync_backward(rc, attrs, og, x, gamma, mean, var, mm, mv):
    attrs = dict(attrs, eps=_f32(attrs["eps"]))
    return _sync_backward_kernel(rc, attrs, og, x, gamma, mean, var, mm, mv)


_sync_axis = lambda attrs: 1  # noqa: E731
_sync_forward_kernel = _make_bn_forward("SyncBatchNorm", True, _sync_axis)
_sync_backward_kernel = _make_bn_backward("SyncBatchNorm", True, _sync_axis)

register("_contrib_SyncBatchNorm", _sync_forward, params=_SYNC_PARAMS, inputs=_BN_INPUTS,
         aux=_BN_AUX, num_outputs=3, num_visible_outputs=_bn_outputs,
         output_names=lambda a: ["output", "mean", "var"][:_bn_outputs(a)],
         infer_shape=_bn_shape(_sync_axis), infer_type=_bn_type,
         gradient=_make_bn_gradient("_backward__contrib_SyncBatchNorm"),
         doc="Batch normalisation whose statistics would be reduced across ``ndev`` devices; "
             "on one device it is BatchNorm over axis 1.")

register("_backward__contrib_SyncBatchNorm", _sync_backward, params=_SYNC_PARAMS,
         inputs=_BN_BACKWARD_INPUTS, num_outputs=3, nd_hidden=True,
         infer_shape=_bn_backward_shape, infer_type=_bn_backward_type)


# ---------------------------------------------------------------------------------------------
# Normalisation over one axis of a (P, R, Q) view: LayerNorm, GroupNorm, InstanceNorm


def _moments(xp, x3, eps):
    """(x - mean) / std over axis 1 (a new array), mean and 1/std shaped (P, 1, Q)."""
    r = x3.shape[1]
    mean = xp.einsum("prq->pq", x3)[:, None, :] / r
    xhat = x3 - mean
    var = xp.einsum("prq,prq->pq", xhat, xhat)[:, None, :] / r
    rstd = 1.0 / xp.sqrt(var + eps)
    xhat *= rstd
    return xhat, mean, var, rstd


def _normalized_backward(xp, dxhat, xhat, rstd):
    """Data gradient from d(loss)/d(xhat); reductions over axis 1. Reuses both buffers."""
    r = xhat.shape[1]
    m1 = xp.einsum("prq->pq", dxhat)[:, None, :] / r
    m2 = xp.einsum("prq,prq->pq", dxhat, xhat)[:, None, :] / r
    dxhat -= m1
    xhat *= m2
    dxhat -= xhat
    dxhat *= rstd
    return dxhat


def _check_affine(opname, x, gamma, beta, n):
    for name, arr in (("gamma", gamma), ("beta", beta)):
        _check_param(opname, name, arr, (n,), x.dtype, x)


# -- LayerNorm ---------------------------------------------------------------------------------

# NumPy inputs of up to this many elements take 1.9.1's CPU LayerNorm step by step (same bits):
# - forward over the last axis: per row, a sum added element after element in the data type
#   (mean = sum / n, std = sqrt(sum of squared deviations / n + eps)), and the output
#   (x - mean) * gamma / std + beta;
# - forward over another axis, and every backward: compensated (Kahan) sums carried in float64
#   for float32/float64 data and in float32 for float16 data (in the data type itself when
#   MXNET_SAFE_ACCUMULATION=1), each rounded to the data type, with every elementwise step in
#   the data type.
# Larger inputs keep the fast kernels below (einsum sums, a multiply by 1/std; the last bit of
# about half the outputs differs): the element-after-element sums need a transposed copy of
# the data, which more than doubles the forward time of a (400, 768) input.
_LN_EXACT_MAX = 65536
# Kahan sums carried in the data type itself (float64 data; float32 under safe accumulation)
# take explicit steps (4 NumPy calls per element) over at most this many elements per output,
# NumPy's pairwise sum beyond.
_LN_KAHAN_MAX = 16


def _ln_acc(dtype):
    """The type 1.9.1's LayerNorm carries its compensated sums in."""
    if safe_acc_on():
        return dtype
    return np.dtype(np.float32) if dtype == np.float16 else np.dtype(np.float64)


def _ln_sum(a, axes, acc):
    """1.9.1's compensated sum of ``a`` over ``axes`` (kept), carried in ``acc`` and rounded
    to ``a``'s dtype."""
    from .reduce import _count, _f16_sum, _kahan_sum
    if acc != a.dtype:
        # a float64 pairwise sum rounds to the same value as Kahan steps in a wider type
        # (their difference lies far below the last bit of acc)
        return np.add.reduce(a, axis=axes, dtype=np.float64, keepdims=True) \
            .astype(acc).astype(a.dtype)
    if a.dtype == np.float16:
        return _f16_sum(a, axes, True)
    if _count(a, axes) <= _LN_KAHAN_MAX:
        return _kahan_sum(a, axes, True)
    return np.add.reduce(a, axis=axes, keepdims=True)


def _ln_sum2(a, b, axes, acc):
    """_ln_sum of two same-shaped arrays; explicit Kahan steps take both in one loop."""
    if acc != a.dtype:
        return _ln_sum(a, axes, acc), _ln_sum(b, axes, acc)
    both = _ln_sum(np.stack((a, b)), tuple(i + 1 for i in axes), acc)
    return both[0], both[1]


def _ln_exact_ok(xp, x):
    return xp is np and 0 < x.size <= _LN_EXACT_MAX and \
        x.dtype in (np.float16, np.float32, np.float64)


def _layer_norm_exact(x3, gamma, beta, eps, last):
    """1.9.1's LayerNorm of float32/float64 ``x3`` (P, C, Q) over axis 1; returns out and the
    mean and std shaped (P, 1, Q)."""
    f = x3.dtype.type
    p, c, q = x3.shape
    eps = f(eps)
    if last:
        x2 = x3.reshape(p, c)
        if p == 1:   # (NumPy would sum a single row pairwise)
            mean = (np.add.accumulate(x2, axis=1)[:, -1] + f(0)) / f(c)
            sq = x2 - mean[:, None]
            sq *= sq
            ss = np.add.accumulate(sq, axis=1)[:, -1]
        else:
            # a reduction over the outer axis of a C-ordered array adds row after row
            xt = np.ascontiguousarray(x2.T)
            mean = (np.add.reduce(xt, axis=0) + f(0)) / f(c)   # (+0: 1.9.1 starts from 0)
            xt -= mean
            xt *= xt
            ss = np.add.reduce(xt, axis=0)
        std = np.sqrt(ss / f(c) + eps)[:, None]
        out = x2 - mean[:, None]
        out *= gamma
        out /= std
        out += beta
        return out, mean.reshape(p, 1, 1), std.reshape(p, 1, 1)
    acc = _ln_acc(x3.dtype)
    mean = _ln_sum(x3, (1,), acc) / f(c)
    out = x3 - mean
    std = np.sqrt(_ln_sum(out * out, (1,), acc) / f(c) + eps)
    out /= std
    out *= gamma[:, None]
    out += beta[:, None]
    return out, mean, std


def _layer_norm_backward_exact(og3, x3, gamma, mean, std):
    """1.9.1's LayerNorm gradients (data, gamma, beta) for (P, C, Q) ``og3`` and ``x3``, the
    forward's mean and std shaped (P, 1, Q)."""
    f = x3.dtype.type
    c = x3.shape[1]
    acc = _ln_acc(x3.dtype)
    xhat = x3 - mean
    xhat /= std
    t = og3 * xhat
    dgamma, dbeta = _ln_sum2(t, og3, (0, 2), acc)
    w = og3 * gamma[:, None]
    w /= std
    np.multiply(xhat, w, out=t)
    mw, mt = _ln_sum2(w, t, (1,), acc)
    dx = w - mw / f(c)
    xhat *= mt / f(c)
    dx -= xhat
    return dx, dgamma.reshape(c), dbeta.reshape(c)


def _layer_norm(rc, attrs, x, gamma, beta):
    xp = rc.xp
    _check_float("LayerNorm", x)
    axis = _axis("LayerNorm", attrs["axis"], x.ndim)
    p, c, q = _split3(x.shape, axis)
    _check_affine("LayerNorm", x, gamma, beta, c)
    kept = tuple(1 if i == axis else s for i, s in enumerate(x.shape))
    if x.dtype == gamma.dtype == beta.dtype == np.float16 and xp is np:
        out, mean, std = layer_norm_f16(x.reshape(p, c, q), gamma, beta, attrs["eps"],
                                        axis == x.ndim - 1)
        return out.reshape(x.shape), mean.reshape(kept), std.reshape(kept)
    if _ln_exact_ok(xp, x) and x.dtype in (np.float32, np.float64) and \
            gamma.dtype == beta.dtype == x.dtype:
        out, mean, std = _layer_norm_exact(x.reshape(p, c, q), gamma, beta, _f32(attrs["eps"]),
                                           axis == x.ndim - 1)
        return out.reshape(x.shape), mean.reshape(kept), std.reshape(kept)
    acc = _acc(x.dtype)
    xhat, mean, var, rstd = _moments(xp, _as(x.reshape(p, c, q), acc), _f32(attrs["eps"]))
    xhat *= _as(gamma, acc)[:, None]
    xhat += _as(beta, acc)[:, None]
    std = xp.sqrt(var + _f32(attrs["eps"]))
    return (_as(xhat, x.dtype).reshape(x.shape), _as(mean, x.dtype).reshape(kept),
            _as(std, x.dtype).reshape(kept))


def _backward_layer_norm(rc, attrs, og, x, gamma, mean, std):
    xp = rc.xp
    axis = _axis("LayerNorm", attrs["axis"], x.ndim)
    p, c, q = _split3(x.shape, axis)
    if _ln_exact_ok(xp, x) and og.dtype == gamma.dtype == mean.dtype == std.dtype == x.dtype:
        dx, dgamma, dbeta = _layer_norm_backward_exact(
            og.reshape(p, c, q), x.reshape(p, c, q), gamma, mean.reshape(p, 1, q),
            std.reshape(p, 1, q))
        return dx.reshape(x.shape), dgamma, dbeta
    acc = _acc(x.dtype)
    x3 = _as(x.reshape(p, c, q), acc)
    g3 = _as(og.reshape(p, c, q), acc)
    rstd = 1.0 / _as(std.reshape(p, 1, q), acc)
    xhat = x3 - _as(mean.reshape(p, 1, q), acc)
    xhat *= rstd
    dgamma = _chan_dot(xp, g3, xhat)
    dbeta = _chan_sum(xp, g3)
    dx = _normalized_backward(xp, g3 * _as(gamma, acc)[:, None], xhat, rstd)
    return _as(dx, x.dtype).reshape(x.shape), _as(dgamma, gamma.dtype), _as(dbeta, gamma.dtype)


def _ln_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0] if in_shapes[0] is not None else (out_shapes[0] if out_shapes else None)
    if d is None:
        return in_shapes, out_shapes, []
    d = tuple(d)
    axis = _axis("LayerNorm", attrs["axis"], len(d))
    p = (d[axis],)
    for name, s in zip(("gamma", "beta"), in_shapes[1:3]):
        if s is not None and None not in tuple(s) and tuple(s) != p:
            raise MXNetError(f"LayerNorm: {name} has shape {tuple(s)} but data of shape {d} "
                             f"needs {p}")
    kept = tuple(1 if i == axis else s for i, s in enumerate(d))
    return [d, p, p], [d, kept, kept], []


def _same_types(attrs, in_types, out_types):
    t = next((t for t in list(in_types) + list(out_types) if t is not None), None)
    return [t] * len(in_types), [t] * len(out_types), []


def _mean_std_outputs(attrs):
    return 3 if attrs["output_mean_var"] else 1


def _affine_gradient(backward_name, param_names):
    def gradient(F, attrs, ins, outs, og):
        kw = {k: attrs[k] for k in param_names}
        return list(getattr(F, backward_name)(og[0], ins[0], ins[1], outs[1], outs[2], **kw))
    return gradient


def _backward_affine_shape(attrs, in_shapes, out_shapes):
    return in_shapes, [in_shapes[1], in_shapes[2], in_shapes[2]], []


def _backward_affine_type(attrs, in_types, out_types):
    return in_types, [in_types[1], in_types[2], in_types[2]], []


_LN_PARAMS = (Param("axis", "int", -1, doc="The axis normalised over."),
              Param("eps", "float", 1e-5, doc="Added to the variance before the square root."),
              Param("output_mean_var", "bool", False, doc="Also return the mean and std."))

register("LayerNorm", _layer_norm, params=_LN_PARAMS, inputs=("data", "gamma", "beta"),
         num_outputs=3, num_visible_outputs=_mean_std_outputs,
         output_names=lambda a: ["output", "mean", "std"][:_mean_std_outputs(a)],
         infer_shape=_ln_shape, infer_type=_same_types,
         gradient=_affine_gradient("_backward_LayerNorm", ("axis", "eps", "output_mean_var")),
         doc="Normalise along ``axis`` to zero mean and unit variance, then scale by gamma and "
             "shift by beta (both of length ``data.shape[axis]``).")

register("_backward_LayerNorm", _backward_layer_norm, params=_LN_PARAMS,
         inputs=("ograd", "data", "gamma", "mean", "std"), num_outputs=3, nd_hidden=True,
         infer_shape=_backward_affine_shape, infer_type=_backward_affine_type)


# -- GroupNorm and InstanceNorm ----------------------------------------------------------------

def _group_view(opname, x, groups):
    if x.ndim < 3:
        raise MXNetError(f"{opname}: data must have at least 3 dimensions (N, C, ...), got "
                         f"shape {tuple(x.shape)}")
    n, c = x.shape[0], x.shape[1]
    if groups <= 0 or c % groups:
        raise MXNetError(f"{opname}: the {c} channels of data {tuple(x.shape)} cannot be split "
                         f"into {groups} groups")
    return n, c, _prod(x.shape[2:])


# GroupNorm takes 1.9.1's float32 steps (bit-exact) up to this many elements: its sums are
# float64-accumulated, and the steps add passes; on (16, 64, 32, 32) the forward took 2.2x and
# the backward 3.5-5x the time of the einsum path that larger inputs keep
_GN_EXACT_MAX = 1 << 16


def _group_norm(rc, attrs, x, gamma, beta):
    xp = rc.xp
    _check_float("GroupNorm", x)
    g = attrs["num_groups"]
    n, c, m = _group_view("GroupNorm", x, g)
    _check_affine("GroupNorm", x, gamma, beta, g)
    if x.dtype == gamma.dtype == beta.dtype == np.float16 and xp is np:
        # 1.9.1: compensated float32 sums rounded to float16, float16 arithmetic elsewhere
        from .reduce import _f16_sum
        h = np.float16
        x3 = x.reshape(n, g, (c // g) * m)
        k = h(x3.shape[2])
        with np.errstate(all="ignore"):
            mean = _f16_sum(x3, (2,), True, acc=np.float32).astype(h) / k
            d = x3 - mean
            var = _f16_sum(d * d, (2,), True, acc=np.float32).astype(h) / k
            std = np.sqrt(var + h(attrs["eps"]))
            out = (d / std) * gamma[None, :, None] + beta[None, :, None]
        return out.reshape(x.shape), mean.reshape(n, g), std.reshape(n, g)
    if x.dtype == gamma.dtype == beta.dtype == np.float32 and 0 < x.size <= _GN_EXACT_MAX:
        # 1.9.1: the sums accumulated in float64 and rounded, then float32 steps (bit-exact)
        x3 = x.reshape(n, g, (c // g) * m)
        k = np.float32(x3.shape[2])
        mean = x3.sum(axis=2, keepdims=True, dtype=np.float64).astype(np.float32) / k
        d = x3 - mean
        var = (d * d).sum(axis=2, keepdims=True, dtype=np.float64).astype(np.float32)
        std = xp.sqrt(var / k + np.float32(attrs["eps"]))
        d /= std
        d *= gamma[None, :, None]
        d += beta[None, :, None]
        return d.reshape(x.shape), mean.reshape(n, g), std.reshape(n, g)
    acc = _acc(x.dtype)
    eps = _f32(attrs["eps"])
    xhat, mean, var, _ = _moments(xp, _as(x.reshape(n * g, (c // g) * m, 1), acc), eps)
    out = xhat.reshape(n, g, (c // g) * m)
    out *= _as(gamma, acc)[:, None]
    out += _as(beta, acc)[:, None]
    std = xp.sqrt(var + eps)
    return (_as(out, x.dtype).reshape(x.shape), _as(mean, x.dtype).reshape(n, g),
            _as(std, x.dtype).reshape(n, g))


def _backward_group_norm(rc, attrs, og, x, gamma, mean, std):
    xp = rc.xp
    g = attrs["num_groups"]
    n, c, m = _group_view("GroupNorm", x, g)
    acc = _acc(x.dtype)
    k = (c // g) * m
    g3 = _as(og.reshape(n, g, k), acc)
    if x.dtype == gamma.dtype == np.float32 and xp is np and 0 < x.size <= _GN_EXACT_MAX:
        # 1.9.1's steps (bit-exact): with xn = (x - mean) / std and o = og * gamma / std,
        # dx = (o - mean(o)) - xn * mean(o * xn); every sum accumulated in float64, rounded,
        # then divided by the float32 count
        def fsum(a, axis):
            return a.sum(axis=axis, keepdims=axis == 2, dtype=np.float64).astype(np.float32)
        s3 = std.reshape(n, g, 1)
        nd = (x.reshape(n, g, k) - mean.reshape(n, g, 1)) / s3
        cnt = np.float32(k)
        dgamma, dbeta = fsum(g3 * nd, (0, 2)), fsum(g3, (0, 2))
        o = g3 * gamma[:, None]
        o /= s3
        dx = o - fsum(o, 2) / cnt
        o *= nd
        nd *= fsum(o, 2) / cnt
        dx -= nd
        return dx.reshape(x.shape), dgamma, dbeta
    rstd = 1.0 / _as(std.reshape(n * g, 1, 1), acc)
    xhat = _as(x.reshape(n * g, k, 1), acc) - _as(mean.reshape(n * g, 1, 1), acc)
    xhat *= rstd
    xh3 = xhat.reshape(n, g, k)
    dgamma = xp.einsum("ngk,ngk->g", g3, xh3)
    dbeta = xp.einsum("ngk->g", g3)
    dxhat = (g3 * _as(gamma, acc)[:, None]).reshape(n * g, k, 1)
    dx = _normalized_backward(xp, dxhat, xhat, rstd)
    return _as(dx, x.dtype).reshape(x.shape), _as(dgamma, gamma.dtype), _as(dbeta, gamma.dtype)


def _gn_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0] if in_shapes[0] is not None else (out_shapes[0] if out_shapes else None)
    g = attrs["num_groups"]
    p = (g,)
    if d is None:  # as in 1.9.1, gamma and beta wait for the data shape
        return list(in_shapes), out_shapes, []
    d = tuple(d)
    if len(d) < 3:
        raise MXNetError(f"GroupNorm: data must have at least 3 dimensions, got shape {d}")
    if d[1] is not None and d[1] % g:
        raise MXNetError(f"GroupNorm: the {d[1]} channels of data {d} cannot be split into "
                         f"num_groups={g} groups")
    return [d, p, p], [d, (d[0], g), (d[0], g)], []


_GN_PARAMS = (Param("num_groups", "int", 1, doc="Number of channel groups."),
              Param("eps", "float", 1e-5, doc="Added to the variance before the square root."),
              Param("output_mean_var", "bool", False, doc="Also return the mean and std."))

register("GroupNorm", _group_norm, params=_GN_PARAMS, inputs=("data", "gamma", "beta"),
         num_outputs=3, num_visible_outputs=_mean_std_outputs,
         output_names=lambda a: ["output", "mean", "std"][:_mean_std_outputs(a)],
         infer_shape=_gn_shape, infer_type=_same_types,
         gradient=_affine_gradient("_backward_GroupNorm", ("num_groups", "eps",
                                                            "output_mean_var")),
         doc="Split the channels (axis 1) into ``num_groups`` groups and normalise each group of "
             "each sample; gamma and beta hold one value per group.")

register("_backward_GroupNorm", _backward_group_norm, params=_GN_PARAMS,
         inputs=("ograd", "data", "gamma", "mean", "std"), num_outputs=3, nd_hidden=True,
         infer_shape=_backward_affine_shape, infer_type=_backward_affine_type)


def _instance_norm(rc, attrs, x, gamma, beta):
    xp = rc.xp
    _check_float("InstanceNorm", x)
    if x.dtype == np.float16:   # 1.9.1's CPU kernel takes float32 only
        raise MXNetError("InstanceNorm: data has dtype float16; the CPU InstanceNorm supports "
                         "float32 only (cast the data, gamma and beta first)")
    if x.ndim < 3:
        raise MXNetError(f"InstanceNorm: data must have at least 3 dimensions (N, C, ...), got "
                         f"shape {tuple(x.shape)}")
    n, c, m = x.shape[0], x.shape[1], _prod(x.shape[2:])
    _check_affine("InstanceNorm", x, gamma, beta, c)
    if x.dtype == np.float32 and xp is np and m and x.size <= _IN_EXACT_MAX:
        # 1.9.1's steps: sums added in order, times 1/m; out = gamma * (x - mean) / std + beta
        x3 = x.reshape(n, c, m)
        inv = np.float32(1) / np.float32(m)
        mean = _in_sum(x3) * inv
        d = x3 - mean
        var = _in_sum(d * d) * inv
        out = d * gamma[:, None]
        out /= np.sqrt(var + np.float32(attrs["eps"]))
        out += beta[:, None]
        return out.reshape(x.shape), mean.reshape(n, c), var.reshape(n, c)
    acc = _acc(x.dtype)
    xhat, mean, var, _ = _moments(xp, _as(x.reshape(n * c, m, 1), acc), _f32(attrs["eps"]))
    out = xhat.reshape(n, c, m)
    out *= _as(gamma, acc)[:, None]
    out += _as(beta, acc)[:, None]
    return (_as(out, x.dtype).reshape(x.shape), _as(mean, x.dtype).reshape(n, c),
            _as(var, x.dtype).reshape(n, c))


# InstanceNorm takes 1.9.1's float32 steps (bit-exact) up to this many elements: its in-order
# sums run as NumPy accumulations, ~20x slower than a pairwise sum per element (a (16, 64, 32,
# 32) forward + backward took 4x, (4, 16, 32, 32) 6x longer); larger inputs keep the einsum
# path
_IN_EXACT_MAX = 1 << 12


def _in_sum(a):
    """Sum over the last axis, element after element (keeping it as size 1)."""
    return np.add.accumulate(a, axis=-1)[..., -1:]


def _in_chan_sum(a):
    """Per-channel sum of an (n, c, m) array, samples then positions in order."""
    return np.add.accumulate(a.transpose(1, 0, 2).reshape(a.shape[1], -1), axis=1)[:, -1]


def _backward_instance_norm_f32(attrs, og, x, gamma, mean, var):
    """1.9.1's InstanceNorm backward step by step (float32; sums in order; var + eps raised
    to -1.5 with powf, here a rounded float64 power)."""
    f32 = np.float32
    n, c, m = x.shape[0], x.shape[1], _prod(x.shape[2:])
    x3, g3 = x.reshape(n, c, m), og.reshape(n, c, m)
    inv = f32(1) / f32(m)
    d = x3 - mean.reshape(n, c, 1)
    ve = var.reshape(n, c, 1) + f32(attrs["eps"])
    std = np.sqrt(ve)
    gg = g3 * gamma[:, None]
    t = gg * d
    t *= f32(-0.5)
    t *= (ve.astype(np.float64) ** -1.5).astype(f32)
    gvar = _in_sum(t)
    gmean = _in_sum(gg) * (f32(-1) / std) + inv * _in_sum(f32(-2) * d) * gvar
    dgamma = _in_chan_sum((g3 * d) / std)
    dbeta = _in_chan_sum(g3)
    gg *= f32(1) / std
    gvar *= inv
    gvar *= f32(2)
    gg += gvar * d
    gg += gmean * inv
    return gg.reshape(x.shape), dgamma, dbeta


def _backward_instance_norm(rc, attrs, og, x, gamma, mean, var):
    xp = rc.xp
    if x.dtype == np.float32 and xp is np and 0 < x.size <= _IN_EXACT_MAX:
        return _backward_instance_norm_f32(attrs, og, x, gamma, mean, var)
    n, c, m = x.shape[0], x.shape[1], _prod(x.shape[2:])
    acc = _acc(x.dtype)
    rstd = 1.0 / xp.sqrt(_as(var.reshape(n * c, 1, 1), acc) + _f32(attrs["eps"]))
    xhat = _as(x.reshape(n * c, m, 1), acc) - _as(mean.reshape(n * c, 1, 1), acc)
    xhat *= rstd
    g3 = _as(og.reshape(n, c, m), acc)
    dgamma = _chan_dot(xp, g3, xhat.reshape(n, c, m))
    dbeta = _chan_sum(xp, g3)
    dxhat = (g3 * _as(gamma, acc)[:, None]).reshape(n * c, m, 1)
    dx = _normalized_backward(xp, dxhat, xhat, rstd)
    return _as(dx, x.dtype).reshape(x.shape), _as(dgamma, gamma.dtype), _as(dbeta, gamma.dtype)


def _in_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0] if in_shapes[0] is not None else (out_shapes[0] if out_shapes else None)
    if d is None:
        return in_shapes, out_shapes, []
    d = tuple(d)
    if len(d) < 3:
        raise MXNetError(f"InstanceNorm: data must have at least 3 dimensions, got shape {d}")
    p = (d[1],)
    return [d, p, p], [d, d[:2], d[:2]], []


_IN_PARAMS = (Param("eps", "float", 1e-3, doc="Added to the variance before the square root."),)

def _instance_norm_type(attrs, in_types, out_types):
    """1.9.1's InstanceNorm graph accepts float32 only."""
    for t in list(in_types) + list(out_types):
        if t is not None and np.dtype(t) != np.float32:
            raise MXNetError(f"InstanceNorm: unsupported dtype {np.dtype(t).name}; the symbolic "
                             f"InstanceNorm accepts float32 only")
    return _same_types(attrs, in_types, out_types)


register("InstanceNorm", _instance_norm, params=_IN_PARAMS, inputs=("data", "gamma", "beta"),
         num_outputs=3, num_visible_outputs=1, output_names=("output",),
         infer_shape=_in_shape, infer_type=_instance_norm_type,
         gradient=_affine_gradient("_backward_InstanceNorm", ("eps",)),
         doc="Normalise each channel of each sample over its spatial axes, then scale by gamma "
             "and shift by beta (one value per channel).")

register("_backward_InstanceNorm", _backward_instance_norm, params=_IN_PARAMS,
         inputs=("ograd", "data", "gamma", "mean", "var"), num_outputs=3, nd_hidden=True,
         infer_shape=_backward_affine_shape, infer_type=_backward_affine_type)


# ---------------------------------------------------------------------------------------------
# L2Normalization


def _l2_view(x, mode):
    """A 3-D view (P, R, Q) of the data whose axis 1 is the one summed over."""
    if mode == "instance":
        return (x.shape[0], _prod(x.shape[1:]), 1)
    if x.ndim < 3:
        raise MXNetError(f"L2Normalization: {mode} mode needs data of at least 3 dimensions, "
                         f"got shape {tuple(x.shape)}")
    n, c, m = x.shape[0], x.shape[1], _prod(x.shape[2:])
    return (n, c, m) if mode == "channel" else (n * c, m, 1)


def _l2_norm_shape(shape, mode):
    if mode == "instance":
        return (shape[0],)
    if mode == "channel":
        return (shape[0],) + tuple(shape[2:])
    return (shape[0], shape[1])


def _l2_normalization(rc, attrs, x):
    xp = rc.xp
    _check_float("L2Normalization", x)
    if x.ndim == 0:
        raise MXNetError("L2Normalization: data must have at least one dimension")
    acc = _acc(x.dtype)
    if x.dtype == np.float16 and xp is np:
        # 1.9.1's CPU kernel: a float16 running sum of float16 squares that starts at eps,
        # its float16 square root, and float16 quotients
        x3 = x.reshape(_l2_view(x, attrs["mode"]))
        start = np.full((x3.shape[0], 1, x3.shape[2]), np.float16(attrs["eps"]), np.float16)
        with np.errstate(all="ignore"):   # float16 accumulate: left to right, rounding each step
            norm = np.add.accumulate(np.concatenate([start, x3 * x3], axis=1), axis=1)[:, -1]
            norm = np.sqrt(norm)
            out = x3 / norm[:, None, :]
        return out.reshape(x.shape), norm.reshape(_l2_norm_shape(x.shape, attrs["mode"]))
    x3 = _as(x.reshape(_l2_view(x, attrs["mode"])), acc)
    if xp is np:   # 1.9.1: a running sum of the squares that starts at eps, in order
        sq = np.concatenate([np.full((x3.shape[0], 1, x3.shape[2]), _f32(attrs["eps"]), acc),
                             x3 * x3], axis=1)
        norm = np.sqrt(np.add.accumulate(sq, axis=1)[:, -1])
    else:
        norm = xp.sqrt(xp.einsum("prq,prq->pq", x3, x3) + _f32(attrs["eps"]))
    out = x3 / norm[:, None, :]
    return (_as(out, x.dtype).reshape(x.shape),
            _as(norm, x.dtype).reshape(_l2_norm_shape(x.shape, attrs["mode"])))


def _backward_l2_normalization(rc, attrs, og, x, norm):
    xp = rc.xp
    acc = _acc(x.dtype)
    view = _l2_view(x, attrs["mode"])
    if xp is np and x.dtype in (np.float32, np.float64):
        # 1.9.1: y = x / norm, t = sum(og * y) added in order, dx = (og - y * t) / norm
        n3 = norm.reshape(view[0], 1, view[2])
        g3 = og.reshape(view)
        y = x.reshape(view) / n3
        t = g3 * y
        # in order: NumPy's reduce over a non-innermost axis adds whole rows in turn; over the
        # innermost one (Q == 1) it would pair, hence the accumulation
        t = np.add.reduce(t, axis=1, keepdims=True) if view[2] > 1 else \
            np.add.accumulate(t, axis=1)[:, -1:]
        y *= t
        return ((g3 - y) / n3).reshape(x.shape)
    x3 = _as(x.reshape(view), acc)
    g3 = _as(og.reshape(view), acc)
    inv = 1.0 / _as(norm.reshape(view[0], 1, view[2]), acc)
    dot = xp.einsum("prq,prq->pq", g3, x3)[:, None, :]
    dx = x3 * (-dot * inv * inv * inv)
    dx += g3 * inv
    return _as(dx, x.dtype).reshape(x.shape)


def _l2_shape(attrs, in_shapes, out_shapes):
    d = in_shapes[0] if in_shapes[0] is not None else (out_shapes[0] if out_shapes else None)
    if d is None:
        return in_shapes, out_shapes, []
    d = tuple(d)
    if attrs["mode"] != "instance" and len(d) < 3:
        raise MXNetError(f"L2Normalization: {attrs['mode']} mode needs data of at least 3 "
                         f"dimensions, got shape {d}")
    return [d], [d, _l2_norm_shape(d, attrs["mode"])], []


_L2_PARAMS = (Param("eps", "float", 1e-10, doc="Added to the sum of squares."),
              Param("mode", "str", "instance", choices=("channel", "instance", "spatial"),
                    doc="instance: each sample; channel: across channels at each position; "
                        "spatial: each channel of each sample."))

register("L2Normalization", _l2_normalization, params=_L2_PARAMS, num_outputs=2,
         num_visible_outputs=1, output_names=("output",), infer_shape=_l2_shape,
         infer_type=_same_types,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_L2Normalization(og[0], ins[0], outs[1], eps=a["eps"], mode=a["mode"])],
         doc="Divide the data by its L2 norm ``sqrt(sum(x**2) + eps)`` over the axes ``mode`` "
             "selects.")

register("_backward_L2Normalization", _backward_l2_normalization, params=_L2_PARAMS,
         inputs=("ograd", "data", "norm"), nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []), infer_type=lambda a, i, o: (i, [i[1]], []))


# ---------------------------------------------------------------------------------------------
# LRN


def _window_sum(xp, a, half):
    """Sum of ``a`` over channels c-half .. c+half (axis 1), zero beyond the edges."""
    s = a.copy()
    c = a.shape[1]
    for d in range(1, min(half, c - 1) + 1):  # over window offsets, not channels
        s[:, d:] += a[:, :-d]
        s[:, :-d] += a[:, d:]
    return s


def _lrn_check(x, nsize):
    _check_float("LRN", x)
    if x.dtype == np.float16:   # 1.9.1's CPU LRN takes float32 only
        raise MXNetError("LRN: data has dtype float16; the CPU LRN supports float32 only "
                         "(cast the data first)")
    if x.ndim not in (2, 4):
        raise MXNetError(f"LRN: data must have 4 dimensions (N, C, H, W), got shape "
                         f"{tuple(x.shape)}")
    if nsize < 1:
        raise MXNetError(f"LRN: nsize must be positive, got {nsize}")


def _lrn_consts(attrs):
    salpha = float(np.float32(attrs["alpha"]) / np.float32(attrs["nsize"]))
    return salpha, _f32(attrs["beta"]), _f32(attrs["knorm"]), (attrs["nsize"] - 1) // 2


def _dnn_window(xp, a, half):
    """1.9.1's float32 (oneDNN) window sum: channels c - half .. c + half (those that exist)
    added to 0 in turn (an even nsize sums nsize - 1 channels, as 1.9.1)."""
    c = a.shape[1]
    z = xp.zeros(a.shape[:1] + (half,) + a.shape[2:], a.dtype)
    pad = xp.concatenate([z, a, z], axis=1)
    s = pad[:, :c] + a.dtype.type(0)
    for j in range(1, 2 * half + 1):   # over window taps, not channels
        s += pad[:, j:j + c]
    return s


def _dnn_neg_pow(xp, om, beta):
    """omega ** -beta as 1.9.1's oneDNN LRN takes it: sqrt(1 / (sqrt(om) * om)) for 0.75,
    else 1 / powf(om, beta) (powf as a rounded float64 power)."""
    if beta == 0.75:
        t = xp.sqrt(om)
        t *= om
        return xp.sqrt(om.dtype.type(1) / t)
    return om.dtype.type(1) / (om.astype(np.float64) ** float(beta)).astype(om.dtype)


def _lrn(rc, attrs, x):
    xp = rc.xp
    _lrn_check(x, attrs["nsize"])
    salpha, beta, knorm, half = _lrn_consts(attrs)
    if x.dtype == np.float32:
        # 1.9.1 (oneDNN): omega = k + alpha * sum / n, out = x * omega ** -beta (bit-exact
        # except with nsize 5, beta 0.75 and channels a multiple of 16, oneDNN's JIT kernel)
        om = _dnn_window(xp, x * x, half)
        om *= _f32(attrs["alpha"])
        om /= np.float32(attrs["nsize"])
        om += knorm
        return x * _dnn_neg_pow(xp, om, float(beta)), om
    acc = _acc(x.dtype)
    xa = _as(x, acc)
    norm = _window_sum(xp, xa * xa, half)
    norm *= salpha
    norm += knorm
    out = xa * norm ** -beta
    return _as(out, x.dtype), _as(norm, x.dtype)


def _backward_lrn(rc, attrs, og, x, norm):
    xp = rc.xp
    salpha, beta, _, half = _lrn_consts(attrs)
    if x.dtype == np.float32:
        # 1.9.1 (oneDNN): g * p - (sum over the window of x * (g * p) / omega) * 2 * alpha *
        # beta * x / n, with p = omega ** -beta
        n = attrs["nsize"]
        tmp = _dnn_neg_pow(xp, norm, float(beta))
        tmp *= og
        t = x * tmp
        t /= norm
        b = _dnn_window(xp, t, half)
        w = x * (np.float32(2) * np.float32(attrs["alpha"]) * np.float32(beta))
        w /= np.float32(n)
        b *= w
        tmp -= b
        return tmp
    acc = _acc(x.dtype)
    xa, ga, na = _as(x, acc), _as(og, acc), _as(norm, acc)
    p = na ** -beta
    t = ga * xa
    t *= p
    t /= na
    s = _window_sum(xp, t, half)
    s *= xa
    s *= -2.0 * beta * salpha
    s += ga * p
    return _as(s, x.dtype)


_LRN_PARAMS = (Param("alpha", "float", 1e-4, doc="Scale of the sum of squares."),
               Param("beta", "float", 0.75, doc="Exponent."),
               Param("knorm", "float", 2.0, doc="Added to the scaled sum of squares."),
               Param("nsize", "int", doc="Number of neighbouring channels in the window."))

register("LRN", _lrn, params=_LRN_PARAMS, num_outputs=2, num_visible_outputs=1,
         output_names=("output",),
         infer_shape=lambda a, i, o: ([i[0] or o[0]], [i[0] or o[0]] * 2, []),
         infer_type=_same_types,
         gradient=lambda F, a, ins, outs, og: [
             F._backward_LRN(og[0], ins[0], outs[1], alpha=a["alpha"], beta=a["beta"],
                             knorm=a["knorm"], nsize=a["nsize"])],
         doc="Local response normalisation across channels: "
             "``x / (knorm + alpha / nsize * sum of x**2 over nearby channels) ** beta``.")

register("_backward_LRN", _backward_lrn, params=_LRN_PARAMS, inputs=("ograd", "data", "norm"),
         nd_hidden=True, infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=lambda a, i, o: (i, [i[1]], []))
