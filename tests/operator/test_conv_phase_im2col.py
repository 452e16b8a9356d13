"""Strided im2col from whole stride phases (Conv.gather_plan / phase_source / phase_im2col):
the columns must be exactly the kernel windows of the zero-padded input, and the kernels
built on them must agree with a direct float64 convolution."""
import itertools

import numpy as np
import pytest

from mxnet.operator.conv_kernels import Conv, conv_forward, conv_wgrad


def _geometry(kernel, stride, dilate, pad, space):
    return tuple((s + 2 * p - d * (k - 1) - 1) // st + 1
                 for s, p, d, k, st in zip(space, pad, dilate, kernel, stride))


def _naive_columns(x, kernel, stride, dilate, pad, ospace):
    """(n, C, *K, *O): tap t of output o reads padded position o*s + t*d."""
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    n, c = x.shape[:2]
    cols = np.empty((n, c) + kernel + ospace, x.dtype)
    for tap in itertools.product(*[range(k) for k in kernel]):
        sl = tuple(slice(t * d, t * d + (o - 1) * s + 1, s)
                   for t, d, o, s in zip(tap, dilate, ospace, stride))
        cols[(slice(None), slice(None)) + tap] = xp[(slice(None), slice(None)) + sl]
    return cols


CASES = [
    # kernel, stride, dilate, pad, space, n, c, f, groups
    ((3, 3), (2, 2), (1, 1), (1, 1), (32, 32), 4, 3, 5, 1),   # ResNet's 3x3/2, 16 wide
    ((3, 3), (2, 2), (1, 1), (1, 1), (8, 8), 6, 4, 4, 2),     # short rows, groups
    ((1, 1), (2, 2), (1, 1), (0, 0), (8, 8), 3, 4, 6, 1),     # 1x1/2: phase is the column
    ((3, 3), (2, 2), (1, 1), (1, 1), (7, 9), 2, 3, 2, 1),     # odd sizes
    ((4, 4), (2, 2), (1, 1), (1, 1), (16, 16), 2, 3, 4, 1),
    ((3, 3), (3, 2), (2, 1), (2, 1), (12, 10), 2, 2, 3, 1),   # dilation, mixed strides
    ((5,), (2,), (1,), (2,), (20,), 3, 2, 3, 1),              # 1-D
    ((3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), (6, 6, 6), 2, 2, 3, 1),
]


@pytest.mark.parametrize("kernel,stride,dilate,pad,space,n,c,f,g", CASES)
def test_phase_columns_and_kernels(kernel, stride, dilate, pad, space, n, c, f, g):
    rng = np.random.default_rng(3)
    ospace = _geometry(kernel, stride, dilate, pad, space)
    x = rng.standard_normal((n, c) + space).astype(np.float32)
    x.reshape(-1)[::7] = -0.0          # signed zeros must come through as they are
    w = rng.standard_normal((f, c // g) + kernel).astype(np.float32)
    gy = rng.standard_normal((n, f) + ospace).astype(np.float32)
    cv = Conv(kernel, stride, dilate, pad, g, 1 << 20, n, c, f, space, ospace)
    plan = cv.gather_plan(np)
    assert plan is not None
    # the columns, exactly (scratch left dirty first: no stale values may leak through)
    src = cv.phase_source(np, x, plan)
    for a in src.values():
        a[...] = np.nan
    src = cv.phase_source(np, x, plan)
    want = _naive_columns(x, kernel, stride, dilate, pad, ospace)   # (n, C, *K, *O)
    for ones in (False, True) if g == 1 else (False,):
        buf = np.full(cv.nblk * (c * cv.ksize + 1) * cv.b * cv.L, np.nan, np.float32)
        col = cv.phase_im2col(np, src, plan, 0, cv.nblk, buf, ones)
        col = col.reshape(cv.nblk, -1, cv.b * cv.L)
        if ones:
            assert (col[:, -1] == 1).all()
            col = col[:, :-1]
        got = col.reshape((cv.nblk, c) + kernel + (cv.b,) + ospace)
        got = np.moveaxis(got, 2 + len(kernel), 1).reshape((n, c) + kernel + ospace)
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    # the kernels against float64 sums over the same windows
    wd = w.astype(np.float64).reshape((g, f // g, c // g) + kernel)
    cd = want.astype(np.float64).reshape((n, g, c // g) + kernel + ospace)
    ks = "xyz"[:len(kernel)]
    os_ = "uvw"[:len(kernel)]
    y = np.einsum(f"gfc{ks},ngc{ks}{os_}->ngf{os_}", wd, cd).reshape((n, f) + ospace)
    np.testing.assert_allclose(conv_forward(np, x, w, cv), y, rtol=1e-4, atol=1e-4)
    gd = gy.astype(np.float64).reshape((n, g, f // g) + ospace)
    dw = np.einsum(f"ngf{os_},ngc{ks}{os_}->gfc{ks}", gd, cd).reshape(w.shape)
    np.testing.assert_allclose(conv_wgrad(np, gy, x, cv), dw, rtol=1e-4, atol=1e-4)


def test_gather_plan_scope():
    # stride 1, and kernels no larger than the stride (each tap its own phase), keep im2col
    assert Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 20, 2, 3, 4, (8, 8),
                (8, 8)).gather_plan(np) is None
    assert Conv((2, 2), (2, 2), (1, 1), (0, 0), 1, 1 << 20, 2, 3, 4, (8, 8),
                (4, 4)).gather_plan(np) is None
    # a phase longer than the output (pad 0, 3x3/2 on 8: phase of 4 > output 3)
    assert Conv((3, 3), (2, 2), (1, 1), (0, 0), 1, 1 << 20, 2, 3, 4, (8, 8),
                (3, 3)).gather_plan(np) is None
