"""The convolution kernels (im2col with stride phases, phase-split col2im, blocked GEMMs)
against a straightforward tap-by-tap reference, over odd shapes and every combination of
stride, padding, dilation and groups, with the blocking and chunking tuned both ways."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from mxnet.operator import conv_kernels as ck


def _cupy():
    try:
        import cupy
        return cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:  # noqa: BLE001 (no CuPy, no driver, no device)
        return None


# the kernels take the array module: NumPy always, CuPy where a GPU is visible
XPS = ["numpy"] + (["cupy"] if _cupy() is not None else [])


def _module(name):
    return np if name == "numpy" else _cupy()


def _out_space(S, K, s, d, p):
    return tuple((a + 2 * q - dd * (k - 1) - 1) // st + 1
                 for a, k, st, dd, q in zip(S, K, s, d, p))


def _taps(K, s, d, O):
    """(tap, slices of the padded input that the tap reads for every output)."""
    for t in itertools.product(*[range(k) for k in K]):
        yield t, tuple(slice(tt * dd, tt * dd + (o - 1) * st + 1, st)
                       for tt, dd, o, st in zip(t, d, O, s))


def _reference(x, w, gy, K, s, d, p, G):
    """y, dx and dw of a grouped convolution, one einsum per kernel tap (float64)."""
    n, C = x.shape[:2]
    F = w.shape[0]
    cg, fg = C // G, F // G
    O = gy.shape[2:]
    xpad = np.zeros((n, C) + tuple(a + 2 * q for a, q in zip(x.shape[2:], p)))
    inner = tuple(slice(q, q + a) for q, a in zip(p, x.shape[2:]))
    xpad[(slice(None), slice(None)) + inner] = x
    xg = xpad.reshape((n, G, cg) + xpad.shape[2:])
    wg = w.reshape((G, fg, cg) + K)
    gg = gy.reshape((n, G, fg) + O)
    y = np.zeros((n, G, fg) + O)
    dxpad = np.zeros_like(xg)
    dw = np.zeros_like(wg)
    for t, sl in _taps(K, s, d, O):
        idx = (slice(None),) * 3 + sl
        wt = wg[(slice(None),) * 3 + t]                        # (G, fg, cg)
        y += np.einsum("gfc,ngc...->ngf...", wt, xg[idx])
        dxpad[idx] += np.einsum("gfc,ngf...->ngc...", wt, gg)
        dw[(slice(None),) * 3 + t] += np.einsum("ngfl,ngcl->gfc", gg.reshape(n, G, fg, -1),
                                                xg[idx].reshape(n, G, cg, -1))
    dx = dxpad.reshape(xpad.shape)[(slice(None), slice(None)) + inner]
    return y.reshape((n, F) + O), dx, dw.reshape(w.shape)


# (batch, channels, filters, groups, spatial, kernel, stride, dilate, pad)
CASES = [
    (2, 3, 4, 1, (9,), (3,), (2,), (1,), (1,)),
    (3, 2, 2, 1, (10,), (4,), (3,), (2,), (2,)),
    (2, 4, 6, 2, (7, 6), (3, 3), (1, 1), (1, 1), (1, 1)),
    (2, 3, 5, 1, (8, 8), (3, 3), (2, 2), (1, 1), (1, 1)),
    (2, 3, 5, 1, (9, 7), (3, 3), (2, 2), (1, 1), (1, 1)),
    (3, 2, 4, 1, (9, 9), (3, 3), (2, 2), (1, 1), (0, 0)),
    (2, 4, 4, 4, (7, 8), (3, 2), (2, 3), (1, 1), (1, 0)),
    (2, 2, 3, 1, (11, 10), (3, 3), (2, 2), (2, 2), (2, 1)),
    (2, 2, 2, 1, (8, 8), (4, 4), (2, 2), (1, 1), (1, 1)),
    (2, 6, 4, 2, (12, 11), (3, 3), (3, 3), (1, 2), (1, 2)),
    (2, 3, 3, 1, (6, 6), (1, 1), (2, 2), (1, 1), (0, 0)),
    (2, 3, 3, 1, (7, 7), (2, 2), (3, 3), (1, 1), (0, 0)),   # stride > kernel: gaps
    (2, 2, 3, 1, (1, 5), (1, 3), (2, 2), (1, 1), (1, 1)),   # a 1-pixel axis only padding reads
    (2, 3, 3, 1, (5, 5), (1, 1), (1, 1), (1, 1), (0, 0)),
    (2, 2, 4, 1, (9, 8), (5, 3), (1, 2), (2, 1), (3, 1)),
    (2, 2, 2, 1, (5, 6, 7), (3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1)),
    (2, 2, 4, 2, (6, 5, 7), (2, 3, 3), (1, 2, 2), (2, 1, 1), (1, 0, 1)),
    (4, 3, 5, 1, (4, 4), (3, 3), (1, 1), (1, 1), (1, 1)),
    # stride 1 with many more filters than channels: col2im rather than the transposed conv
    (2, 1, 4, 1, (8, 7), (3, 3), (1, 1), (1, 1), (1, 1)),          # flat scatter
    (2, 2, 5, 1, (9, 8), (5, 5), (1, 1), (1, 1), (0, 0)),          # strided fallback
    (2, 3, 7, 1, (9, 10), (3, 3), (1, 1), (2, 1), (2, 1)),
    (2, 2, 6, 2, (6, 7), (3, 3), (1, 1), (1, 1), (1, 1)),
    # one group, no phase longer than the output: col2im from tap-major columns, flat adds
    (3, 3, 10, 1, (7, 9), (3, 3), (1, 1), (1, 1), (1, 1)),         # a stem
    (2, 2, 7, 1, (5, 6), (3, 3), (1, 1), (1, 1), (2, 2)),          # output larger than input
    (2, 2, 6, 1, (10,), (5,), (1,), (1,), (2,)),
    (2, 2, 5, 1, (7, 6, 5), (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1)),
]

TUNINGS = {
    "default": {},
    "one_image_blocks": {"_GEMM_COLS": 1, "_WGRAD_COLS": 1, "_DGRAD_COLS": 1, "_COL_BYTES": 1},
    "whole_batch_blocks": {"_GEMM_COLS": 1 << 30, "_WGRAD_COLS": 1 << 30, "_DGRAD_COLS": 1 << 30,
                           "_WGRAD_BLOCK_ROWS": 1, "_TALL_COLS": 1},
    "mixed": {"_GEMM_COLS": 30, "_WGRAD_COLS": 1 << 30, "_WGRAD_BLOCK_ROWS": 1, "_COL_BYTES": 1,
              "_TALL_COLS": 1 << 30},
    # the batch-last kernels wherever one group and stride 1 allow them
    "batch_last": {"_THIN_ROWS": 1, "_BL_ROW": 1 << 30, "_BL_ROW_MIN": 1,
                   "_BL_BYTES": 1 << 40},
}


@pytest.mark.parametrize("xp_name", XPS)
@pytest.mark.parametrize("tuning", sorted(TUNINGS))
@pytest.mark.parametrize("case", CASES, ids=lambda c: "n{}c{}f{}g{}S{}K{}s{}d{}p{}".format(*c))
def test_kernels_match_reference(monkeypatch, case, tuning, xp_name):
    for name, value in TUNINGS[tuning].items():
        monkeypatch.setattr(ck, name, value)
    x, w, gy, cv = _case_data(case)
    y_ref, dx_ref, dw_ref = _reference(x, w, gy, *_geometry(case))
    xp = _module(xp_name)
    host = (lambda a: a) if xp is np else (lambda a: a.get())
    xd, wd, gd = (xp.asarray(a) for a in (x, w, gy))
    for got, ref in ((ck.conv_forward(xp, xd, wd, cv), y_ref),
                     (ck.conv_dgrad(xp, gd, wd, cv), dx_ref),
                     (ck.conv_wgrad(xp, gd, xd, cv), dw_ref)):
        np.testing.assert_allclose(host(got), ref, rtol=1e-10, atol=1e-10)


def test_float32_strided_paths():
    """float32 takes the same paths as float64 (the row copies move raw bytes)."""
    n, C, F, S, K, s, p = 3, 5, 6, (10, 9), (3, 3), (2, 2), (1, 1)
    O = _out_space(S, K, s, (1, 1), p)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, C) + S).astype(np.float32)
    w = rng.standard_normal((F, C) + K).astype(np.float32)
    gy = rng.standard_normal((n, F) + O).astype(np.float32)
    refs = _reference(x.astype(np.float64), w.astype(np.float64), gy.astype(np.float64),
                      K, s, (1, 1), p, 1)
    cv = ck.Conv(K, s, (1, 1), p, 1, 1 << 30, n, C, F, S, O)
    outs = (ck.conv_forward(np, x, w, cv), ck.conv_dgrad(np, gy, w, cv),
            ck.conv_wgrad(np, gy, x, cv))
    for got, ref in zip(outs, refs):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


def test_scatter_plan_falls_back_where_phases_outgrow_the_output():
    """Stride 2 without padding: an inner axis' phase (ceil(9/2) = 5) is longer than the
    output (4), so col2im uses strided adds; the result is the same."""
    cv = ck.Conv((3, 3), (2, 2), (1, 1), (0, 0), 1, 1 << 30, 2, 2, 3, (9, 9), (4, 4))
    assert cv.scatter_plan() is None
    cv = ck.Conv((3, 3), (2, 2), (1, 1), (1, 1), 1, 1 << 30, 2, 2, 3, (8, 8), (4, 4))
    assert cv.scatter_plan() is not None


def test_copy_rows_matches_assignment():
    rng = np.random.default_rng(1)
    src = rng.standard_normal((4, 5, 7)).astype(np.float32)
    dst = np.zeros((4, 6, 9), np.float32)
    ck.copy_rows(np, dst[:, 1:, 2:], src)
    ref = np.zeros_like(dst)
    ref[:, 1:, 2:] = src
    np.testing.assert_array_equal(dst, ref)
    strided = np.zeros((4, 5, 14), np.float32)
    ck.copy_rows(np, strided[..., ::2], src)             # not row-contiguous: plain copy
    np.testing.assert_array_equal(strided[..., ::2], src)


def _geometry(case):
    """(kernel, stride, dilate, pad, groups) of a case, as _reference takes them."""
    n, C, F, G, S, K, s, d, p = case
    return K, s, d, p, G


def _case_data(case, dtype=np.float64):
    n, C, F, G, S, K, s, d, p = case
    O = _out_space(S, K, s, d, p)
    rng = np.random.default_rng(sum(map(ord, str(case))))
    x, w, gy = (rng.standard_normal(shape).astype(dtype)
                for shape in ((n, C) + S, (F, C // G) + K, (n, F) + O))
    return x, w, gy, ck.Conv(K, s, d, p, G, 1 << 30, n, C, F, S, O)


def _count_calls(monkeypatch, name):
    calls = []
    orig = getattr(ck.Conv, name)

    def counted(self, *args):
        calls.append(1)
        return orig(self, *args)
    monkeypatch.setattr(ck.Conv, name, counted)
    return calls


@pytest.mark.parametrize("case, flat", [
    ((3, 3, 10, 1, (7, 9), (3, 3), (1, 1), (1, 1), (1, 1)), True),
    ((2, 3, 5, 1, (9, 7), (3, 3), (2, 2), (1, 1), (1, 1)), True),      # stride phases
    ((2, 2, 7, 1, (5, 6), (3, 3), (1, 1), (1, 1), (2, 2)), True),
    ((3, 2, 2, 1, (10,), (4,), (3,), (2,), (2,)), False),             # a phase outgrows it
    ((2, 2, 6, 2, (6, 7), (3, 3), (1, 1), (1, 1), (1, 1)), False),     # two groups
    ((2, 2, 5, 1, (9, 8), (5, 5), (1, 1), (1, 1), (0, 0)), False),     # strided fallback
])
@pytest.mark.parametrize("split", [False, True])
def test_dgrad_col2im_paths(monkeypatch, case, flat, split):
    """Which col2im the data gradient takes, and that it is right whole and when the
    accumulation runs on two channel ranges (as on the op threads)."""
    if split:
        def by_channels(xp, fn, c, work):
            fn(0, c // 2)
            fn(c // 2, c)
        monkeypatch.setattr(ck, "_by_channels", by_channels)
    calls = _count_calls(monkeypatch, "scatter_flat")
    x, w, gy, cv = _case_data(case)
    n, C, F, G, S, K, s, d, p = case
    _, dx_ref, _ = _reference(x, w, gy, K, s, d, p, G)
    np.testing.assert_allclose(ck.conv_dgrad(np, gy, w, cv), dx_ref, rtol=1e-10, atol=1e-10)
    assert bool(calls) == flat


@pytest.mark.parametrize("case, fused", [
    ((3, 3, 10, 1, (7, 9), (3, 3), (1, 1), (1, 1), (1, 1)), True),
    ((2, 1, 4, 1, (8,), (5,), (2,), (1,), (0,)), True),
    ((2, 2, 3, 1, (5, 6, 7), (3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1)), True),
    ((2, 4, 6, 2, (7, 6), (3, 3), (1, 1), (1, 1), (1, 1)), False),     # two groups
    ((2, 3, 3, 1, (5, 5), (1, 1), (1, 1), (1, 1), (0, 0)), False),     # 1x1: no columns
    ((2, 30, 4, 1, (6, 5), (3, 3), (1, 1), (1, 1), (1, 1)), False),    # 270 rows per filter
])
@pytest.mark.parametrize("tuning", ["default", "one_image_blocks", "whole_batch_blocks"])
def test_bias_in_the_gemms(monkeypatch, case, fused, tuning):
    """The bias as a weight column against a row of ones (forward) and its gradient as a
    column of the weight gradient's GEMM, where ``Conv.thin``; added and left to the caller
    elsewhere."""
    for name, value in TUNINGS[tuning].items():
        monkeypatch.setattr(ck, name, value)
    x, w, gy, cv = _case_data(case)
    n, C, F, G, S, K, s, d, p = case
    assert cv.thin() == fused
    y_ref, _, dw_ref = _reference(x, w, gy, K, s, d, p, G)
    b = np.random.default_rng(3).standard_normal(F)
    want = y_ref + b.reshape((-1,) + (1,) * len(S))
    np.testing.assert_allclose(ck.conv_forward(np, x, w, cv, bias=b), want, rtol=1e-10,
                               atol=1e-10)
    out = np.full(want.shape, np.nan)
    assert ck.conv_forward(np, x, w, cv, out, b) is out
    np.testing.assert_allclose(out, want, rtol=1e-10, atol=1e-10)
    dw_out, db_out = np.full(w.shape, np.nan), np.full(F, np.nan)
    dw, db = ck.conv_wgrad(np, gy, x, cv, dw_out, True, db_out)
    assert dw is dw_out
    np.testing.assert_allclose(dw, dw_ref, rtol=1e-10, atol=1e-10)
    if fused:
        assert db is db_out
        np.testing.assert_allclose(db, gy.sum(axis=(0,) + tuple(range(2, gy.ndim))),
                                   rtol=1e-10, atol=1e-10)
    else:
        assert db is None
    np.testing.assert_allclose(ck.conv_wgrad(np, gy, x, cv), dw_ref, rtol=1e-10, atol=1e-10)


def test_empty_batch_with_bias():
    x, w, gy, cv = _case_data((0, 3, 4, 1, (5, 6), (3, 3), (1, 1), (1, 1), (1, 1)))
    assert ck.conv_forward(np, x, w, cv, bias=np.ones(4)).shape == (0, 4, 5, 6)
    assert ck.conv_dgrad(np, gy, w, cv).shape == (0, 3, 5, 6)
    dw, db = ck.conv_wgrad(np, gy, x, cv, bias=True)
    np.testing.assert_array_equal(dw, 0)
    np.testing.assert_array_equal(db, 0)


@pytest.mark.parametrize("case, batch_last", [
    ((8, 12, 5, 1, (8, 8), (5, 5), (1, 1), (1, 1), (0, 0)), True),      # LeNet's conv2, small
    ((7, 30, 4, 1, (6, 5), (3, 3), (1, 1), (2, 1), (2, 1)), True),      # padded, dilated
    ((4, 60, 3, 1, (9,), (5,), (1,), (1,), (2,)), True),
    ((6, 12, 3, 1, (5, 4, 6), (3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1)), True),
    ((8, 30, 4, 1, (8, 8), (3, 3), (2, 2), (1, 1), (1, 1)), False),     # stride 2
    ((8, 60, 4, 2, (6, 5), (3, 3), (1, 1), (1, 1), (1, 1)), False),     # two groups
    ((8, 3, 10, 1, (7, 9), (3, 3), (1, 1), (1, 1), (1, 1)), False),     # thin (a stem)
    ((8, 30, 256, 1, (6, 5), (3, 3), (1, 1), (1, 1), (1, 1)), False),   # many filters
    ((2, 30, 3, 1, (4, 20), (3, 3), (1, 1), (1, 1), (1, 1)), False),    # long output rows
    ((2, 30, 3, 1, (6, 5), (3, 3), (1, 1), (1, 1), (1, 1)), False),     # short batch rows
])
def test_batch_last_kernels(case, batch_last):
    """Short output rows and many weights per filter: whole-batch GEMMs on batch-last
    arrays (``Conv.batch_last``), with the bias added after the forward GEMM and its
    gradient left to the caller; results into ``out`` the same bits as fresh ones."""
    x, w, gy, cv = _case_data(case)
    n, C, F, G, S, K, s, d, p = case
    assert cv.batch_last(np, 8) == batch_last
    y_ref, dx_ref, dw_ref = _reference(x, w, gy, K, s, d, p, G)
    b = np.random.default_rng(3).standard_normal(F)
    y = ck.conv_forward(np, x, w, cv, bias=b)
    np.testing.assert_allclose(y, y_ref + b.reshape((-1,) + (1,) * len(S)), rtol=1e-10,
                               atol=1e-10)
    dx = ck.conv_dgrad(np, gy, w, cv)
    np.testing.assert_allclose(dx, dx_ref, rtol=1e-10, atol=1e-10)
    dw, db = ck.conv_wgrad(np, gy, x, cv, bias=True)
    np.testing.assert_allclose(dw, dw_ref, rtol=1e-10, atol=1e-10)
    if batch_last:
        assert db is None
    for fn, args in ((ck.conv_forward, (x, w, cv)), (ck.conv_dgrad, (gy, w, cv)),
                     (ck.conv_wgrad, (gy, x, cv))):
        extra = (b,) if fn is ck.conv_forward else ()
        want = fn(np, *args, None, *extra)
        out = np.full(want.shape, np.nan)
        assert fn(np, *args, out, *extra) is out
        np.testing.assert_array_equal(out, want)


def test_batch_last_float32_lenet():
    """LeNet's second convolution at batch 32 in float32 (the shape the path is for)."""
    case = (32, 20, 50, 1, (12, 12), (5, 5), (1, 1), (1, 1), (0, 0))
    x, w, gy, cv = _case_data(case, np.float32)
    assert cv.batch_last(np, 4)
    refs = _reference(*(a.astype(np.float64) for a in (x, w, gy)), *case[5:9], 1)
    outs = (ck.conv_forward(np, x, w, cv), ck.conv_dgrad(np, gy, w, cv),
            ck.conv_wgrad(np, gy, x, cv))
    for got, ref in zip(outs, refs):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-3)
