"""Region proposal, position-sensitive pooling and deformable convolution operators
(contrib_proposal.py, contrib_roi_pool.py, contrib_deformable.py): 1.9.1 golden forward and
backward, numeric gradients, closed forms, symbols and errors."""
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
GOLDEN = REPO / "tests" / "golden" / "detection_ops.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_detection_ops.py")


def _load_table():
    return load_script("tools/golden/gen_detection_ops.py")


_TABLE = _load_table()


# ---------------------------------------------------------------------------------------------
# numeric gradients

# 1.9.1 passes zero gradients to every input of these (checked against its goldens below).
NON_DIFFERENTIABLE = ("_contrib_Proposal", "_contrib_MultiProposal")

_ROIS = np.array([[0, 1.2, 0.7, 9.6, 8.1], [1, 3.0, 2.0, 6.0, 11.0], [0, -2.0, 4.0, 14.0, 9.0]])
_OFF_G = rand(2, 18, 4, 5, low=-1.7, high=1.7, seed=3)


def _ps(**kw):
    return lambda x: C.PSROIPooling(x, nd.array(_ROIS, dtype="float64"), **kw)


def _dps_trans(**kw):
    return lambda x, t: C.DeformablePSROIPooling(x, nd.array(_ROIS, dtype="float64"), t, **kw)


GRAD_CASES = [
    GradCase("psroi", _ps(spatial_scale=0.5, output_dim=2, pooled_size=3),
             [rand(2, 18, 6, 7)], ops=("_contrib_PSROIPooling",)),
    GradCase("psroi_group2", _ps(spatial_scale=0.6, output_dim=3, pooled_size=4, group_size=2),
             [rand(2, 12, 6, 7, seed=1)], ops=("_contrib_PSROIPooling",)),
    GradCase("dpsroi_no_trans",
             lambda x: C.DeformablePSROIPooling(x, nd.array(_ROIS, dtype="float64"),
                                                spatial_scale=0.5, output_dim=2, group_size=2,
                                                pooled_size=2, sample_per_part=2,
                                                no_trans=True),
             [rand(2, 8, 6, 7, seed=2)], ops=("_contrib_DeformablePSROIPooling",)),
    GradCase("dpsroi_trans", _dps_trans(spatial_scale=0.5, output_dim=2, group_size=2,
                                        pooled_size=2, part_size=2, sample_per_part=2,
                                        trans_std=0.1),
             [rand(2, 8, 6, 7, seed=4), rand(3, 2, 2, 2, seed=5)],
             ops=("_contrib_DeformablePSROIPooling",)),
    GradCase("dconv", lambda x, o, w, b: C.DeformableConvolution(
        x, o, w, b, kernel=(3, 3), pad=(1, 1), num_filter=3),
        [rand(2, 2, 4, 5, seed=6), _OFF_G, rand(3, 2, 3, 3, seed=7), rand(3, seed=8)],
        ops=("_contrib_DeformableConvolution",)),
    GradCase("dconv_groups", lambda x, o, w: C.DeformableConvolution(
        x, o, w, kernel=(2, 2), stride=(2, 1), num_filter=4, num_group=2,
        num_deformable_group=2, no_bias=True),
        [rand(1, 4, 5, 5, seed=9), rand(1, 16, 2, 4, low=-1.3, high=1.3, seed=10),
         rand(4, 2, 2, 2, seed=11)], ops=("_contrib_DeformableConvolution",)),
    GradCase("mdconv", lambda x, o, m, w, b: C.ModulatedDeformableConvolution(
        x, o, m, w, b, kernel=(3, 3), pad=(1, 1), num_filter=3),
        [rand(2, 2, 4, 5, seed=12), _OFF_G, rand(2, 9, 4, 5, low=0, high=1, seed=13),
         rand(3, 2, 3, 3, seed=14), rand(3, seed=15)],
        ops=("_contrib_ModulatedDeformableConvolution",)),
    GradCase("mdconv_groups", lambda x, o, m, w: C.ModulatedDeformableConvolution(
        x, o, m, w, kernel=(2, 2), dilate=(1, 2), num_filter=4, num_group=2,
        num_deformable_group=2, no_bias=True),
        [rand(1, 4, 5, 5, seed=16), rand(1, 16, 4, 3, low=-1.3, high=1.3, seed=17),
         rand(1, 8, 4, 3, seed=18), rand(4, 2, 2, 2, seed=19)],
        ops=("_contrib_ModulatedDeformableConvolution",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward and backward


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(dtype):
    if np.dtype(dtype) == np.float64:
        return 1e-10, 1e-12
    return 2e-5, 2e-5


@pytest.mark.parametrize("case", _TABLE.CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    for key, have, want in golden_case_results(_TABLE, case, golden, post=False):
        rtol, atol = _tol(want.dtype)
        np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, err_msg=f"{case.id} {key}")


# ---------------------------------------------------------------------------------------------
# closed forms


@pytest.mark.parametrize("kw", [dict(kernel=(3, 3), pad=(1, 1)),
                                dict(kernel=(3, 2), stride=(2, 1), dilate=(1, 2), num_group=2)])
def test_zero_offsets_give_a_plain_convolution(kw):
    x = rand(2, 4, 6, 7, seed=20)
    K = kw["kernel"][0] * kw["kernel"][1]
    w = rand(6, 4 // kw.get("num_group", 1), *kw["kernel"], seed=21)
    b = rand(6, seed=22)
    ref = nd.Convolution(nd.array(x, dtype="float64"), nd.array(w, dtype="float64"),
                         nd.array(b, dtype="float64"), num_filter=6, **kw).asnumpy()
    off = nd.zeros((2, 2 * K, *ref.shape[2:]), dtype="float64")
    got = C.DeformableConvolution(nd.array(x, dtype="float64"), off,
                                  nd.array(w, dtype="float64"), nd.array(b, dtype="float64"),
                                  num_filter=6, **kw).asnumpy()
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    mask = nd.ones((2, K, *ref.shape[2:]), dtype="float64")
    got = C.ModulatedDeformableConvolution(nd.array(x, dtype="float64"), off, mask,
                                           nd.array(w, dtype="float64"),
                                           nd.array(b, dtype="float64"), num_filter=6,
                                           **kw).asnumpy()
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


def test_integer_offsets_shift_the_input():
    """An offset of whole pixels reads the input shifted by that much (1x1 kernel)."""
    x = rand(1, 1, 5, 6, seed=23)
    off = np.zeros((1, 2, 5, 6))
    off[0, 0] = 1.0                       # one row down
    off[0, 1] = -2.0                      # two columns left
    out = C.DeformableConvolution(nd.array(x, dtype="float64"), nd.array(off, dtype="float64"),
                                  nd.ones((1, 1, 1, 1), dtype="float64"), kernel=(1, 1),
                                  num_filter=1, no_bias=True).asnumpy()[0, 0]
    want = np.zeros((5, 6))
    want[:4, 2:] = x[0, 0, 1:, :4]
    np.testing.assert_allclose(out, want, atol=1e-12)


def test_psroi_pooling_matches_a_loop():
    data = rand(2, 18, 6, 7, seed=24)
    out = C.PSROIPooling(nd.array(data, dtype="float64"), nd.array(_ROIS, dtype="float64"),
                         spatial_scale=0.5, output_dim=2, pooled_size=3).asnumpy()
    want = np.zeros_like(out)
    for r, (b, x1, y1, x2, y2) in enumerate(_ROIS):
        sx, sy = np.floor(np.abs(x1) + 0.5) * np.sign(x1) * 0.5, np.round(y1) * 0.5
        ex, ey = (np.round(x2) + 1) * 0.5, (np.round(y2) + 1) * 0.5
        bw, bh = max(ex - sx, 0.1) / 3, max(ey - sy, 0.1) / 3
        for c in range(2):
            for ph in range(3):
                for pw in range(3):
                    hs = min(max(int(np.floor(ph * bh + sy)), 0), 6)
                    he = min(max(int(np.ceil((ph + 1) * bh + sy)), 0), 6)
                    ws = min(max(int(np.floor(pw * bw + sx)), 0), 7)
                    we = min(max(int(np.ceil((pw + 1) * bw + sx)), 0), 7)
                    ch = (c * 3 + ph) * 3 + pw
                    patch = data[int(b), ch, hs:he, ws:we]
                    want[r, c, ph, pw] = patch.mean() if patch.size else 0.0
    np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-12)


def test_multi_proposal_is_proposal_per_image():
    g = np.load(GOLDEN)
    prob, deltas, info = (g[f"multi_proposal.batch2/in{i}"] for i in range(3))
    kw = dict(rpn_post_nms_top_n=10, rpn_pre_nms_top_n=100, output_score=True)
    rows, scores = C.MultiProposal(nd.array(prob), nd.array(deltas), nd.array(info), **kw)
    for b in range(2):
        one, s = C.Proposal(nd.array(prob[b:b + 1]), nd.array(deltas[b:b + 1]),
                            nd.array(info[b:b + 1]), **kw)
        want = one.asnumpy()
        want[:, 0] = b
        np.testing.assert_array_equal(rows.asnumpy()[b * 10:(b + 1) * 10], want)
        np.testing.assert_array_equal(scores.asnumpy()[b * 10:(b + 1) * 10], s.asnumpy())


def test_rroi_align_axis_aligned_matches_roi_align():
    """An unrotated region samples exactly like ROIAlign's (centre/size vs corners)."""
    data = rand(1, 2, 7, 8, seed=25)
    rr = np.array([[0, 3.5, 3.0, 4.0, 3.0, 0.0]])
    out = C.RROIAlign(nd.array(data, dtype="float64"), nd.array(rr, dtype="float64"),
                      pooled_size=(2, 2), spatial_scale=1.0, sampling_ratio=2).asnumpy()
    ref = C.ROIAlign(nd.array(data, dtype="float64"),
                     nd.array([[0, 1.5, 1.5, 5.5, 4.5]], dtype="float64"), pooled_size=(2, 2),
                     spatial_scale=1.0, sample_ratio=2).asnumpy()
    np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)


def test_rroi_align_has_no_gradient():
    x = nd.array(rand(1, 2, 5, 5))
    x.attach_grad()
    with mx.autograd.record():
        y = C.RROIAlign(x, nd.array([[0, 2, 2, 2, 2, 30]]), pooled_size=(2, 2),
                        spatial_scale=1.0)
    expect_error(y.backward, match="non-differentiable")


# ---------------------------------------------------------------------------------------------
# symbols


def test_symbols_infer_and_run():
    data, off = mx.sym.var("data"), mx.sym.var("offset")
    dc = mx.sym.contrib.DeformableConvolution(data, off, kernel=(3, 3), pad=(1, 1),
                                              num_filter=5, name="dc")
    assert dc.list_arguments() == ["data", "offset", "dc_weight", "dc_bias"]
    args, outs, _ = dc.infer_shape(data=(2, 4, 6, 7), offset=(2, 18, 6, 7))
    assert args == [(2, 4, 6, 7), (2, 18, 6, 7), (5, 4, 3, 3), (5,)]
    assert outs == [(2, 5, 6, 7)]
    vals = {"data": rand(2, 4, 6, 7), "offset": rand(2, 18, 6, 7, seed=1),
            "dc_weight": rand(5, 4, 3, 3, seed=2), "dc_bias": rand(5, seed=3)}
    ex = dc.bind(mx.cpu(), {k: nd.array(v) for k, v in vals.items()})
    np.testing.assert_allclose(
        ex.forward()[0].asnumpy(),
        C.DeformableConvolution(*(nd.array(vals[k]) for k in ("data", "offset", "dc_weight",
                                                               "dc_bias")),
                                kernel=(3, 3), pad=(1, 1), num_filter=5).asnumpy(),
        rtol=1e-6, atol=1e-6)
    mdc = mx.sym.contrib.ModulatedDeformableConvolution(data, off, mx.sym.var("mask"),
                                                        kernel=(3, 3), num_filter=2,
                                                        no_bias=True, name="m")
    assert mdc.list_arguments() == ["data", "offset", "mask", "m_weight"]
    assert mdc.infer_shape(data=(1, 2, 5, 5), offset=(1, 18, 3, 3),
                           mask=(1, 9, 3, 3))[0][3] == (2, 2, 3, 3)
    p = mx.sym.contrib.Proposal(mx.sym.var("cls_prob"), mx.sym.var("bbox_pred"),
                                mx.sym.var("im_info"), output_score=True, name="p")
    assert p.list_outputs() == ["p_output", "p_score"]
    assert p.infer_shape(cls_prob=(1, 24, 5, 6))[1] == [(300, 5), (300, 1)]
    assert len(mx.sym.contrib.Proposal(mx.sym.var("c"), mx.sym.var("b"), mx.sym.var("i"),
                                       name="q").list_outputs()) == 1
    mp = mx.sym.contrib.MultiProposal(mx.sym.var("c"), mx.sym.var("b"), mx.sym.var("i"),
                                      rpn_post_nms_top_n=7, name="mp")
    assert mp.infer_shape(c=(3, 24, 5, 6))[0] == [(3, 24, 5, 6), (3, 48, 5, 6), (3, 3)]
    assert mp.infer_shape(c=(3, 24, 5, 6))[1] == [(21, 5)]
    dps = mx.sym.contrib.DeformablePSROIPooling(data, mx.sym.var("rois"), spatial_scale=0.5,
                                                output_dim=2, group_size=3, pooled_size=3,
                                                no_trans=True, name="d")
    assert dps.list_arguments() == ["data", "rois"]
    assert dps.infer_shape(data=(1, 18, 8, 8), rois=(3, 5))[1] == [(3, 2, 3, 3)]
    ps = mx.sym.contrib.PSROIPooling(data, mx.sym.var("rois"), spatial_scale=0.5,
                                     output_dim=2, pooled_size=3)
    assert ps.infer_shape(data=(1, 18, 8, 8), rois=(3, 5))[1] == [(3, 2, 3, 3)]
    assert ps.list_attr() == {"spatial_scale": "0.5", "output_dim": "2", "pooled_size": "3"}
    rr = mx.sym.contrib.RROIAlign(data, mx.sym.var("rois"), pooled_size=(2, 3),
                                  spatial_scale=0.5)
    assert rr.infer_shape(data=(1, 3, 8, 8), rois=(2, 6))[1] == [(2, 3, 2, 3)]


# ---------------------------------------------------------------------------------------------
# errors


def test_errors_name_the_problem():
    r = nd.array(_ROIS)
    expect_error(C.PSROIPooling, nd.ones((18, 8, 8)), r, spatial_scale=0.5, output_dim=2,
                 pooled_size=3, match="4-D")
    expect_error(C.PSROIPooling, nd.ones((1, 16, 8, 8)), r, spatial_scale=0.5, output_dim=2,
                 pooled_size=3, match="18 are read")
    expect_error(C.PSROIPooling, nd.ones((1, 18, 8, 8)), nd.ones((3, 4)), spatial_scale=0.5,
                 output_dim=2, pooled_size=3, match="(num_rois, 5)")
    expect_error(C.PSROIPooling, nd.ones((1, 18, 8, 8)), r, spatial_scale=0.5, output_dim=2,
                 pooled_size=3, match="batch index")
    expect_error(C.DeformablePSROIPooling, nd.ones((2, 18, 8, 8)), r, nd.ones((3, 2, 3)),
                 spatial_scale=0.5, output_dim=2, group_size=3, pooled_size=3, match="trans")
    expect_error(C.DeformablePSROIPooling, nd.ones((2, 18, 8, 8)), r, nd.ones((3, 6, 3, 3)),
                 spatial_scale=0.5, output_dim=2, group_size=3, pooled_size=3,
                 match="multiple of the number of classes")
    x, off, w = nd.ones((1, 2, 5, 5)), nd.ones((1, 18, 3, 3)), nd.ones((2, 2, 3, 3))
    expect_error(C.DeformableConvolution, x, nd.ones((1, 16, 3, 3)), w, nd.ones((2,)),
                 kernel=(3, 3), num_filter=2, match="offset must have shape (1, 18, 3, 3)")
    expect_error(C.DeformableConvolution, nd.ones((1, 2, 5)), nd.ones((1, 6, 3)),
                 nd.ones((2, 2, 3)), nd.ones((2,)), kernel=(3,), num_filter=2, match="2-D")
    expect_error(C.DeformableConvolution, x, off, nd.ones((2, 1, 3, 3)), nd.ones((2,)),
                 kernel=(3, 3), num_filter=2, match="weight must have shape (2, 2, 3, 3)")
    expect_error(C.DeformableConvolution, x, off, w, nd.ones((2,)), kernel=(3, 3),
                 num_filter=2, num_group=3, match="num_group")
    expect_error(C.DeformableConvolution, x, off, w, kernel=(7, 7), num_filter=2,
                 no_bias=True, match="exceeds the padded input")
    expect_error(C.ModulatedDeformableConvolution, x, off, nd.ones((1, 8, 3, 3)), w,
                 nd.ones((2,)), kernel=(3, 3), num_filter=2, match="mask must have shape")
    expect_error(C.DeformableConvolution, x, off.astype("float64"), w, nd.ones((2,)),
                 kernel=(3, 3), num_filter=2, match="offset has float64")
    expect_error(C.Proposal, nd.ones((2, 24, 3, 3)), nd.ones((2, 48, 3, 3)), nd.ones((2, 3)),
                 match="MultiProposal")
    expect_error(C.Proposal, nd.ones((1, 20, 3, 3)), nd.ones((1, 40, 3, 3)), nd.ones((1, 3)),
                 match="len(scales) * len(ratios) = 12")
    expect_error(C.MultiProposal, nd.ones((2, 24, 3, 3)), nd.ones((2, 40, 3, 3)),
                 nd.ones((2, 3)), match="bbox_pred")
    expect_error(C.Proposal, nd.ones((1, 24, 3, 3)), nd.ones((1, 48, 3, 3)),
                 nd.array([[100, 48, 1]]), match="larger than the feature map")
    expect_error(C.RROIAlign, nd.ones((1, 2, 5, 5)), nd.ones((1, 5)), pooled_size=(2, 2),
                 spatial_scale=1.0, match="(num_rois, 6)")
    expect_error(C.RROIAlign, nd.ones((1, 2, 5, 5)), nd.ones((1, 6), dtype="float64"),
                 pooled_size=(2, 2), spatial_scale=1.0, match="share one dtype")


def test_float16_is_computed_in_float32():
    x, off = rand(1, 2, 5, 5, seed=30), rand(1, 18, 3, 3, seed=31)
    w, b = rand(2, 2, 3, 3, seed=32), rand(2, seed=33)
    args = [x, off, w, b]
    lo = C.DeformableConvolution(*(nd.array(a, dtype="float16") for a in args),
                                 kernel=(3, 3), num_filter=2)
    hi = C.DeformableConvolution(*(nd.array(a.astype(np.float16), dtype="float32")
                                   for a in args), kernel=(3, 3), num_filter=2)
    assert lo.dtype == np.float16
    np.testing.assert_allclose(lo.asnumpy(), hi.asnumpy(), rtol=2e-3, atol=2e-3)
    ps = C.PSROIPooling(nd.array(rand(1, 8, 6, 6), dtype="float16"),
                        nd.array([[0, 1, 1, 9, 9]], dtype="float16"), spatial_scale=0.5,
                        output_dim=2, pooled_size=2)
    assert ps.dtype == np.float16 and ps.shape == (1, 2, 2, 2)


def test_executor_backward_matches_autograd():
    names = ["data", "offset", "dc_weight", "dc_bias"]
    vals = dict(zip(names, [rand(2, 4, 5, 6), rand(2, 18, 5, 6, low=-2, high=2, seed=1),
                            rand(3, 4, 3, 3, seed=2), rand(3, seed=3)]))
    sym = mx.sym.contrib.DeformableConvolution(mx.sym.var("data"), mx.sym.var("offset"),
                                               kernel=(3, 3), pad=(1, 1), num_filter=3,
                                               name="dc")
    grads = {k: nd.zeros(v.shape) for k, v in vals.items()}
    ex = sym.bind(mx.cpu(), {k: nd.array(v) for k, v in vals.items()}, args_grad=grads)
    ex.forward(is_train=True)
    head = nd.array(rand(2, 3, 5, 6, seed=4))
    ex.backward(head)
    xs = [nd.array(vals[k]) for k in names]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = C.DeformableConvolution(*xs, kernel=(3, 3), pad=(1, 1), num_filter=3)
    y.backward(head)
    for k, x in zip(names, xs):
        np.testing.assert_allclose(grads[k].asnumpy(), x.grad.asnumpy(), rtol=1e-6, atol=1e-6)
    g = np.load(GOLDEN)
    prop = mx.sym.contrib.Proposal(mx.sym.var("c"), mx.sym.var("b"), mx.sym.var("i"),
                                   rpn_post_nms_top_n=20)
    ex = prop.bind(mx.cpu(), {k: nd.array(g[f"proposal.default_post20/in{j}"])
                              for j, k in enumerate("cbi")})
    np.testing.assert_allclose(ex.forward()[0].asnumpy(), g["proposal.default_post20/out0"],
                               rtol=2e-5, atol=2e-5)


def test_image_chunks_give_the_same_result(monkeypatch):
    from mxnet.operator import contrib_deformable
    args = [nd.array(a, dtype="float64") for a in
            (rand(3, 2, 5, 6), rand(3, 8, 5, 6, low=-2, high=2, seed=1),
             rand(3, 4, 5, 6, seed=2), rand(2, 2, 2, 2, seed=3))]
    head = nd.array(rand(3, 2, 5, 6, seed=4), dtype="float64")
    kw = dict(kernel=(2, 2), pad=(1, 1), dilate=(2, 2), num_filter=2, no_bias=True)

    def run():
        out = C.ModulatedDeformableConvolution(*args, **kw).asnumpy()
        grads = nd.op._backward_ModulatedDeformableConvolution(head, *args, **kw)
        return [out] + [g.asnumpy() for g in grads]

    whole = run()
    monkeypatch.setattr(contrib_deformable, "_COL_BUDGET", 1)   # one image per chunk
    for a, b in zip(whole, run()):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
