"""Depthwise 2-D convolution gradients (``conv_depthwise``: num_group == channels ==
num_filter) against a tap-by-tap float64 reference, over kernel sizes, strides, dilations,
paddings and batch sizes, small blocks, image parts over threads, and through the
Convolution and Deconvolution operators."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import mxnet as mx
from mxnet.backend import blas_threads
from mxnet.operator import _gemm_threads as gt
from mxnet.operator import conv_depthwise as cd
from mxnet.operator import conv_kernels as ck


def _osize(size, k, s, d, p):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _reference(x, w, gy, K, s, d, p):
    """y, dx, dw of a depthwise convolution in float64, one shifted slice per kernel tap."""
    x, w, gy = (a.astype(np.float64) for a in (x, w, gy))
    n, c, H, W = x.shape
    Ho, Wo = gy.shape[2:]
    xpad = np.zeros((n, c, H + 2 * p[0], W + 2 * p[1]))
    xpad[:, :, p[0]:p[0] + H, p[1]:p[1] + W] = x
    y, dxpad, dw = np.zeros(gy.shape), np.zeros_like(xpad), np.zeros(w.shape)
    for a, b in itertools.product(range(K[0]), range(K[1])):
        sl = (slice(None), slice(None),
              slice(a * d[0], a * d[0] + s[0] * (Ho - 1) + 1, s[0]),
              slice(b * d[1], b * d[1] + s[1] * (Wo - 1) + 1, s[1]))
        wt = w[:, 0, a, b][None, :, None, None]
        y += wt * xpad[sl]
        dxpad[sl] += wt * gy
        dw[:, 0, a, b] = (gy * xpad[sl]).sum(axis=(0, 2, 3))
    return y, dxpad[:, :, p[0]:p[0] + H, p[1]:p[1] + W], dw


# (n, C, (H, W), kernel, stride, dilate, pad)
CASES = [
    (2, 3, (7, 9), (3, 3), (1, 1), (1, 1), (1, 1)),
    (5, 4, (7, 6), (3, 3), (1, 1), (1, 1), (1, 1)),      # tables (n >= 4), small maps
    (2, 3, (8, 8), (3, 3), (2, 2), (1, 1), (1, 1)),      # MobileNet's strided layer
    (5, 4, (9, 7), (3, 3), (2, 2), (1, 1), (1, 1)),      # odd sizes
    (1, 3, (10, 11), (5, 3), (3, 2), (2, 1), (0, 2)),
    (3, 2, (6, 6), (1, 1), (3, 3), (1, 1), (0, 0)),      # stride > kernel: untouched rows
    (2, 5, (12, 12), (3, 3), (1, 2), (2, 2), (2, 1)),
    (4, 3, (5, 5), (2, 2), (1, 1), (1, 1), (0, 0)),      # even kernel, no padding
    (2, 2, (9, 8), (4, 2), (2, 3), (1, 2), (2, 0)),
    (6, 3, (11, 10), (5, 5), (2, 2), (1, 1), (2, 2)),
    (4, 6, (7, 7), (3, 3), (1, 1), (3, 3), (3, 3)),      # dilation 3
    (1, 2, (4, 4), (3, 3), (1, 1), (1, 1), (2, 2)),      # padding wider than the kernel's reach
    (4, 3, (6, 6), (1, 3), (1, 1), (1, 1), (0, 1)),
]
IDS = ["n{}c{}S{}K{}s{}d{}p{}".format(*c) for c in CASES]


def _data(case, dt, seed=0):
    n, c, S, K, s, d, p = case
    O = tuple(_osize(a, k, st, dd, q) for a, k, st, dd, q in zip(S, K, s, d, p))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c) + S).astype(dt)
    w = rng.standard_normal((c, 1) + K).astype(dt)
    gy = rng.standard_normal((n, c) + O).astype(dt)
    cv = ck.Conv(K, s, d, p, c, 1 << 30, n, c, c, S, O)
    return x, w, gy, cv


def _close(got, want, dt):
    if dt == np.float64:
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * max(1.0, np.abs(want).max()))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_module_matches_reference(case, dt):
    """conv_depthwise's kernels on every geometry (whether or not the dispatcher picks
    them), into arrays that start as NaN."""
    x, w, gy, cv = _data(case, dt)
    assert cd.applies(np, cv)
    _, rdx, rdw = _reference(x, w, gy, *case[3:])
    _close(cd.dgrad(gy, w, cv, np.full(x.shape, np.nan, dt)), rdx, dt)
    _close(cd.wgrad(gy, x, cv, np.full(w.shape, np.nan, dt)), rdw, dt)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_small_blocks(monkeypatch, case):
    """Blocks of one plane or a few (channel and image tails, borders written once and the
    planes reused by blocks of other shapes)."""
    x, w, gy, cv = _data(case, np.float64, seed=1)
    _, rdx, rdw = _reference(x, w, gy, *case[3:])
    for block, dot in ((1, 1), (40, 600), (150, 2000)):
        monkeypatch.setattr(cd, "_BLOCK", block)
        monkeypatch.setattr(cd, "_DOT_BYTES", dot)
        _close(cd.dgrad(gy, w, cv, np.empty_like(x)), rdx, np.float64)
        _close(cd.wgrad(gy, x, cv, np.empty_like(w)), rdw, np.float64)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_dispatch_through_conv_kernels(case):
    """conv_dgrad / conv_wgrad / conv_backward / deconv_backward pick the module where
    expected and agree with the reference and with each other bit for bit."""
    x, w, gy, cv = _data(case, np.float32, seed=2)
    ry, rdx, rdw = _reference(x, w, gy, *case[3:])
    n, L = cv.n, cv.L
    assert ck._depthwise(np, cv, "wgrad")
    assert ck._depthwise(np, cv, "dgrad") == (max(cv.stride) > 1 or (n >= 4 and L <= 400))
    dx, dw = ck.conv_dgrad(np, gy, w, cv), ck.conv_wgrad(np, gy, x, cv)
    _close(dx, rdx, np.float32)
    _close(dw, rdw, np.float32)
    bx, bw, bb = ck.conv_backward(np, gy, x, w, cv, bias=True)
    assert bb is None and np.array_equal(bx, dx) and np.array_equal(bw, dw)
    dwb, db = ck.conv_wgrad(np, gy, x, cv, np.empty_like(w), True)
    assert db is None and np.array_equal(dwb, dw)
    # Deconvolution's gradients: the conv forward of its output gradient, the weight
    # gradient with the roles swapped
    fy, fw = ck.deconv_backward(np, x, gy, w, cv)
    _close(fy, ry, np.float32)
    assert np.array_equal(fw, ck.conv_wgrad(np, gy, x, cv))


def test_multiplier_two_is_left_to_the_columns():
    """Two filters per channel (num_filter = 2 * num_group) is not claimed."""
    cv = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 4, 1 << 30, 2, 4, 8, (6, 6), (6, 6))
    assert not ck._depthwise(np, cv, "wgrad") and not ck._depthwise(np, cv, "dgrad")
    cv1 = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 2, 1, 1, (6, 6), (6, 6))
    assert not cd.applies(np, cv1)   # one channel: an ordinary convolution


@pytest.mark.parametrize("workers", [2, 3])
@pytest.mark.parametrize("case", [CASES[1], CASES[3], CASES[9]], ids=[IDS[1], IDS[3], IDS[9]])
def test_image_parts(monkeypatch, case, workers):
    """Shared out over op threads: every range's gradients in one turn, weight-gradient
    parts added in range order, the same bits as the separate kernels."""
    for mod in (ck, gt):
        monkeypatch.setattr(mod, "op_threads", lambda: workers)
    monkeypatch.setattr(blas_threads, "threads", lambda: workers)
    monkeypatch.setattr(ck, "_PART_MACS", 1)
    turns = []
    real = ck._run_slots
    monkeypatch.setattr(ck, "_run_slots", lambda k, task: (turns.append(k), real(k, task)))
    x, w, gy, cv = _data(case, np.float64, seed=3)
    _, rdx, rdw = _reference(x, w, gy, *case[3:])
    dx, dw = ck.conv_backward(np, gy, x, w, cv)
    assert len(turns) == 1 and 2 <= turns[0] <= workers   # one turn, shared out
    _close(dx, rdx, np.float64)
    _close(dw, rdw, np.float64)
    assert np.array_equal(dx, ck.conv_dgrad(np, gy, w, cv))
    assert np.array_equal(dw, ck.conv_wgrad(np, gy, x, cv))


@pytest.mark.parametrize("stride", [1, 2])
def test_operators_autograd(stride):
    """mx.nd.Convolution and Deconvolution (num_group == channels), gradients through
    autograd against the reference (float64 arrays)."""
    n, c, S = 5, 6, (9, 8)
    case = (n, c, S, (3, 3), (stride, stride), (1, 1), (1, 1))
    x, w, gy, _ = _data(case, np.float64, seed=4)
    ry, rdx, rdw = _reference(x, w, gy, *case[3:])
    X, Wt = mx.nd.array(x, dtype="float64"), mx.nd.array(w, dtype="float64")
    X.attach_grad()
    Wt.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(X, Wt, num_filter=c, num_group=c, kernel=(3, 3),
                              stride=(stride, stride), pad=(1, 1), no_bias=True)
    y.backward(mx.nd.array(gy, dtype="float64"))
    _close(y.asnumpy(), ry, np.float64)
    _close(X.grad.asnumpy(), rdx, np.float64)
    _close(Wt.grad.asnumpy(), rdw, np.float64)
    # Deconvolution of gy with the same weight is the data gradient; its weight gradient
    # is the convolution's, with the roles swapped
    G = mx.nd.array(gy, dtype="float64")
    G.attach_grad()
    Wt.grad[:] = 0
    # (adj: the rows and columns that the strided output leaves over)
    adj = tuple(a - stride * (o - 1) - 1 for a, o in zip(S, gy.shape[2:]))
    with mx.autograd.record():
        z = mx.nd.Deconvolution(G, Wt, num_filter=c, num_group=c, kernel=(3, 3),
                                stride=(stride, stride), pad=(1, 1), adj=adj)
    assert z.shape == x.shape
    _close(z.asnumpy(), rdx, np.float64)
    z.backward(mx.nd.array(x, dtype="float64"))
    _close(G.grad.asnumpy(), ry, np.float64)
    _close(Wt.grad.asnumpy(), rdw, np.float64)
