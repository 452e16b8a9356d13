"""Contrib box, detection and signal operators (contrib_box.py, contrib_detection.py,
contrib_signal.py): 1.9.1 golden forward/backward, numeric gradients, closed forms for the
GPU-only ops, symbols and errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mxnet as mx

from .._scripts import load_script
from .harness import (GradCase, check_grad_case, expect_error, golden_case_results,
                      load_golden_npz, rand)

nd = mx.nd
C = nd.contrib

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "contrib_ops.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_contrib_ops.py")


def _load_table():
    return load_script("tools/golden/gen_contrib_ops.py")


_TABLE = _load_table()


# ---------------------------------------------------------------------------------------------
# numeric gradients

# 1.9.1 passes zero gradients through these (checked against its goldens below).
NON_DIFFERENTIABLE = ("_contrib_box_iou", "_contrib_box_encode", "_contrib_box_decode",
                      "_contrib_bipartite_matching", "_contrib_MultiBoxPrior",
                      "_contrib_MultiBoxTarget", "_contrib_MultiBoxDetection")

# scores and boxes far from every threshold, so small perturbations keep the selection
_NMS_X = np.array([[0, 0.9, 0.10, 0.10, 0.50, 0.50],
                   [1, 0.8, 0.12, 0.11, 0.52, 0.49],
                   [0, 0.7, 0.60, 0.60, 0.90, 0.95],
                   [2, 0.6, 0.05, 0.55, 0.30, 0.85],
                   [1, 0.2, 0.61, 0.58, 0.88, 0.93]])
_ROIS = np.array([[0, 0.7, 1.3, 4.6, 5.2], [1, 2.1, 0.4, 6.3, 3.9], [0, -0.6, 3.2, 2.7, 6.8]])
_H = np.array([[0, 3, 1, 3, 2]], dtype=np.float64)
_SGN = np.array([[1, -1, -1, 1, 1]], dtype=np.float64)


def _roi(**kw):
    return lambda x: C.ROIAlign(x, nd.array(_ROIS, dtype="float64"), **kw)


GRAD_CASES = [
    GradCase("box_nms", lambda x: C.box_nms(x, overlap_thresh=0.5), [_NMS_X],
             ops=("_contrib_box_nms",)),
    # class ids away from integers (they are truncated); the gradient ignores a format
    # conversion (1.9.1 copies the rows' gradients as they are), so none is asked for here
    GradCase("box_nms_classes", lambda x: C.box_non_maximum_suppression(
        x, overlap_thresh=0.5, id_index=0), [_NMS_X + np.array([0.5, 0, 0, 0, 0, 0])],
             ops=("_contrib_box_nms",)),
    GradCase("roi_align", _roi(pooled_size=(2, 3), spatial_scale=1.0), [rand(2, 2, 7, 8)],
             ops=("_contrib_ROIAlign",)),
    GradCase("roi_align_aligned_ps", _roi(pooled_size=(2, 2), spatial_scale=0.8,
                                          sample_ratio=2, aligned=True,
                                          position_sensitive=True),
             [rand(2, 8, 6, 7)], ops=("_contrib_ROIAlign",)),
    GradCase("count_sketch", lambda x: C.count_sketch(x, nd.array(_H), nd.array(_SGN),
                                                      out_dim=4), [rand(3, 5)],
             ops=("_contrib_count_sketch",)),
    GradCase("count_sketch_4d", lambda x: C.count_sketch(x, nd.array(_H), nd.array(_SGN),
                                                         out_dim=6), [rand(2, 1, 2, 5)],
             ops=("_contrib_count_sketch",)),
    GradCase("fft", lambda x: C.fft(x), [rand(3, 5)], ops=("_contrib_fft",)),
    GradCase("fft_4d", lambda x: C.fft(x), [rand(1, 2, 2, 4)], ops=("_contrib_fft",)),
    GradCase("ifft", lambda x: C.ifft(x), [rand(2, 8)], ops=("_contrib_ifft",)),
    # the dedicated backward operators are linear maps with registered gradients too
    GradCase("backward_roi_align",
             lambda g, x: nd.op._backward_ROIAlign(g, x, nd.array(_ROIS, dtype="float64"),
                                                   pooled_size=(2, 2), spatial_scale=1.0),
             [rand(3, 2, 2, 2), rand(2, 2, 6, 7, seed=1)], wrt=[0],
             ops=("_backward_ROIAlign",)),
    GradCase("backward_count_sketch",
             lambda g: nd.op._backward_contrib_count_sketch(g, nd.array(_H), nd.array(_SGN),
                                                            out_dim=4),
             [rand(3, 4)], ops=("_backward_contrib_count_sketch",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward, backward and in-place state


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(case, dtype):
    if np.dtype(dtype) == np.float16 or "float16" in case.input_dtypes():
        return 2e-3, 2e-3
    if np.dtype(dtype) == np.float64:
        return 1e-10, 1e-12
    return 2e-5, 2e-6


@pytest.mark.parametrize("case", _TABLE.CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    for key, have, want in golden_case_results(_TABLE, case, golden):
        rtol, atol = _tol(case, want.dtype)
        np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, err_msg=f"{case.id} {key}")


# ---------------------------------------------------------------------------------------------
# closed forms: the GPU-only operators and ROIAlign


def test_fft_layout_and_unnormalised_inverse():
    x = rand(3, 6, seed=2)
    out = C.fft(nd.array(x, dtype="float64")).asnumpy()
    spec = np.fft.fft(x, axis=-1)
    np.testing.assert_allclose(out[:, 0::2], spec.real, atol=1e-12)
    np.testing.assert_allclose(out[:, 1::2], spec.imag, atol=1e-12)
    back = C.ifft(nd.array(out, dtype="float64")).asnumpy()
    np.testing.assert_allclose(back, 6 * x, atol=1e-12)
    y = C.fft(nd.array(rand(2, 1, 3, 4)))
    assert y.shape == (2, 1, 3, 8) and y.dtype == np.float32
    assert C.ifft(y).shape == (2, 1, 3, 4)


def test_count_sketch_matches_a_loop():
    x = rand(4, 5, seed=3)
    out = C.count_sketch(nd.array(x), nd.array(_H), nd.array(_SGN), out_dim=4).asnumpy()
    want = np.zeros((4, 4))
    for i in range(5):
        want[:, int(_H[0, i])] += _SGN[0, i] * x[:, i]
    np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)
    doc = C.count_sketch(nd.array([[1.2, 2.5, 3.4], [3.2, 5.7, 6.6]]), nd.array([[0, 3, 4]]),
                         nd.array([[1, -1, 1]]), out_dim=5).asnumpy()
    np.testing.assert_allclose(doc, [[1.2, 0, 0, -2.5, 3.4], [3.2, 0, 0, -5.7, 6.6]],
                               rtol=1e-6)


def _bilinear(img, y, x):
    H, W = img.shape
    if y < -1.0 or y > H or x < -1.0 or x > W:
        return 0.0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    y1, x1 = min(y0 + 1, H - 1), min(x0 + 1, W - 1)
    if y0 >= H - 1:
        y0 = y1 = H - 1
        y = float(y0)
    if x0 >= W - 1:
        x0 = x1 = W - 1
        x = float(x0)
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * img[y0, x0] + (1 - ly) * lx * img[y0, x1]
            + ly * (1 - lx) * img[y1, x0] + ly * lx * img[y1, x1])


def _roi_align_loop(data, rois, ph_n, pw_n, scale, ratio, aligned):
    out = np.zeros((len(rois), data.shape[1], ph_n, pw_n))
    off = 0.5 if aligned else 0.0
    for r, (b, x1, y1, x2, y2) in enumerate(rois):
        x1, y1, x2, y2 = x1 * scale - off, y1 * scale - off, x2 * scale - off, y2 * scale - off
        w, h = x2 - x1, y2 - y1
        if not aligned:
            w, h = max(w, 1.0), max(h, 1.0)
        gh = ratio if ratio > 0 else int(np.ceil(h / ph_n))
        gw = ratio if ratio > 0 else int(np.ceil(w / pw_n))
        for c in range(data.shape[1]):
            for ph in range(ph_n):
                for pw in range(pw_n):
                    acc = 0.0
                    for iy in range(gh):
                        y = y1 + ph * h / ph_n + (iy + 0.5) * h / ph_n / gh
                        for ix in range(gw):
                            x = x1 + pw * w / pw_n + (ix + 0.5) * w / pw_n / gw
                            acc += _bilinear(data[int(b), c], y, x)
                    out[r, c, ph, pw] = acc / (gh * gw)
    return out


@pytest.mark.parametrize("kw", [dict(sample_ratio=-1, aligned=False),
                                dict(sample_ratio=3, aligned=True)])
def test_roi_align_matches_a_loop(kw):
    data = rand(2, 2, 6, 7, seed=4)
    out = C.ROIAlign(nd.array(data, dtype="float64"), nd.array(_ROIS, dtype="float64"),
                     pooled_size=(3, 2), spatial_scale=0.75, **kw).asnumpy()
    want = _roi_align_loop(data, _ROIS, 3, 2, 0.75, kw["sample_ratio"], kw["aligned"])
    np.testing.assert_allclose(out, want, rtol=1e-10, atol=1e-12)


def test_roi_align_negative_batch_gives_zeros():
    rois = np.concatenate([_ROIS, [[-1, 0.5, 0.5, 3, 3]]])
    out = C.ROIAlign(nd.array(rand(2, 2, 6, 7)), nd.array(rois), pooled_size=(2, 2),
                     spatial_scale=1.0).asnumpy()
    assert not out[-1].any() and out[0].any()


def test_rand_zipfian():
    mx.random.seed(3)
    true = nd.array([0, 3, 9])
    s, et, es = C.rand_zipfian(true, 2000, 10)
    assert s.shape == (2000,) and s.dtype == np.int64
    assert et.dtype == np.float64 and es.dtype == np.float64
    k = s.asnumpy()
    assert k.min() >= 0 and k.max() < 10
    p = np.log((np.arange(10) + 2) / (np.arange(10) + 1)) / np.log(11)
    np.testing.assert_allclose(et.asnumpy(), p[[0, 3, 9]] * 2000, rtol=1e-12)
    np.testing.assert_allclose(es.asnumpy(), p[k] * 2000, rtol=1e-12)
    freq = np.bincount(k, minlength=10) / 2000
    np.testing.assert_allclose(freq, p, atol=0.04)


def test_nms_topk_zero_and_no_survivors():
    x = nd.array(_NMS_X)
    np.testing.assert_array_equal(C.box_nms(x, topk=0).asnumpy(), _NMS_X.astype(np.float32))
    assert (C.box_nms(x, valid_thresh=1.0).asnumpy() == -1).all()


def test_box_ops_in_float16_run():
    x = nd.array(_NMS_X, dtype="float16")
    assert C.box_nms(x).dtype == np.float16
    assert C.box_iou(x[:, 2:6], x[:, 2:6]).dtype == np.float16


# ---------------------------------------------------------------------------------------------
# symbols


def test_symbols_infer_and_run():
    data = mx.sym.var("data")
    nms = mx.sym.contrib.box_nms(data, id_index=0)
    assert len(nms.list_outputs()) == 1
    _, outs, _ = nms.infer_shape(data=(2, 5, 6))
    assert outs == [(2, 5, 6)]
    ex = nms.bind(mx.cpu(), {"data": nd.array(np.stack([_NMS_X, _NMS_X]))})
    np.testing.assert_allclose(ex.forward()[0].asnumpy()[1],
                               C.box_nms(nd.array(_NMS_X), id_index=0).asnumpy())
    roi = mx.sym.contrib.ROIAlign(mx.sym.var("x"), mx.sym.var("rois"), pooled_size=(2, 2),
                                  spatial_scale=0.5, position_sensitive=True)
    assert roi.infer_shape(x=(1, 8, 5, 5), rois=(3, 5))[1] == [(3, 2, 2, 2)]
    tgt = mx.sym.contrib.MultiBoxTarget(mx.sym.var("a"), mx.sym.var("l"), mx.sym.var("p"),
                                        name="t")
    assert tgt.list_outputs() == ["t_loc_target", "t_loc_mask", "t_cls_target"]
    assert tgt.infer_shape(a=(1, 10, 4), l=(2, 3, 5), p=(2, 4, 10))[1] == [(2, 40), (2, 40),
                                                                          (2, 10)]
    prior = mx.sym.contrib.MultiBoxPrior(mx.sym.var("f"), sizes=(0.2, 0.4), ratios=(1, 2, 3))
    assert prior.infer_shape(f=(1, 3, 4, 5))[1] == [(1, 80, 4)]
    assert mx.sym.contrib.fft(mx.sym.var("z")).infer_shape(z=(2, 3))[1] == [(2, 6)]
    assert mx.sym.contrib.bipartite_matching(mx.sym.var("s"), threshold=0.1).infer_shape(
        s=(2, 3, 4))[1] == [(2, 3), (2, 4)]


# ---------------------------------------------------------------------------------------------
# errors


def test_errors_name_the_problem():
    expect_error(C.box_iou, nd.ones((3, 5)), nd.ones((2, 4)), match="last dimension of 4")
    expect_error(C.box_nms, nd.ones((4, 4)), match="at least 5")
    expect_error(C.box_nms, nd.ones((4, 6)), id_index=2, match="id_index")
    expect_error(C.box_nms, nd.ones((4, 6)), score_index=3, match="score_index")
    expect_error(C.box_nms, nd.ones((4, 6)), in_format="xywh", match="in_format")
    expect_error(C.box_nms, nd.ones((4, 6), dtype="int32"), match="not supported")
    expect_error(C.bipartite_matching, nd.ones((3,)), threshold=0.1, match="2 dimensions")
    expect_error(C.ROIAlign, nd.ones((1, 2, 4, 4)), nd.ones((2, 4)), pooled_size=(2, 2),
                 spatial_scale=1.0, match="(num_rois, 5)")
    expect_error(C.ROIAlign, nd.ones((1, 3, 4, 4)), nd.ones((2, 5)), pooled_size=(2, 2),
                 spatial_scale=1.0, position_sensitive=True, match="divisible")
    expect_error(C.ROIAlign, nd.ones((1, 2, 4, 4)), nd.array([[0, 2, 2, 2, 3]]),
                 pooled_size=(2, 2), spatial_scale=1.0, aligned=True, match="positive width")
    expect_error(C.ROIAlign, nd.ones((1, 2, 4, 4)), nd.array([[3, 0, 0, 2, 2]]),
                 pooled_size=(2, 2), spatial_scale=1.0, match="batch")
    expect_error(C.MultiBoxPrior, nd.ones((1, 1, 2, 2)), steps=(0.1, -1), match="step_x")
    expect_error(C.MultiBoxPrior, nd.ones((2, 2)), match="4-D")
    expect_error(C.MultiBoxTarget, nd.ones((2, 5, 4)), nd.ones((1, 2, 5)), nd.ones((1, 3, 5)),
                 match="shared across the batch")
    expect_error(C.MultiBoxDetection, nd.ones((1, 3, 5)), nd.ones((1, 16)), nd.ones((1, 5, 4)),
                 match="anchors")
    expect_error(C.count_sketch, nd.ones((2, 3)), nd.ones((1, 2)), nd.ones((1, 3)), out_dim=4,
                 match="h must be")
    expect_error(C.count_sketch, nd.ones((2, 3)), nd.array([[0, 1, 5]]), nd.ones((1, 3)),
                 out_dim=4, match="[0, out_dim")
    expect_error(C.fft, nd.ones((2, 3, 4)), match="2-D")
    expect_error(C.ifft, nd.ones((2, 5)), match="even")
