"""Record the region-proposal and deformable detection operators of ``mx.nd.contrib`` under
MXNet 1.9.1: outputs and autograd gradients of Proposal, MultiProposal, PSROIPooling,
DeformablePSROIPooling, DeformableConvolution, ModulatedDeformableConvolution and RROIAlign.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_detection_ops.py

Cases, the runner and the file layout are those of ``gen_contrib_ops.py`` (imported from
there): ``tests/golden/detection_ops.npz`` holds per case ``<id>``: ``in<i>``, ``out<j>``,
``head<j>``, ``grad<i>`` and ``post<i>``.

Proposal sorts its candidates with an unstable sort, so the inputs here keep every score
that can reach the output distinct (boxes filtered out get the score -1 and tie; they only
ever fill the output when too few valid boxes survive, which the cases below avoid or make
unambiguous). RROIAlign has no gradient in 1.9.1, and ModulatedDeformableConvolution's
backward is GPU-only there (its cases record the forward pass only).

``tests/operator/test_detection_ops.py`` imports this module (it must stay importable
without mxnet) and replays every case against this repository's mxnet.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "detection_ops.npz"


sys.path.insert(0, str(HERE))
import gen_contrib_ops as _B  # noqa: E402  (a script beside this one, not a package)

Case = _B.Case
run_case = _B.run_case
CASES, case = _B.case_table()


def _rs(seed):
    return np.random.RandomState(seed)


# ------------------------------------------------------------------------------- Proposal
def _rpn_inputs(seed, batch, n_anchor, h, w, delta=0.3):
    r = _rs(seed)
    logits = r.normal(size=(batch, 2, n_anchor, h, w))
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob = (e / e.sum(axis=1, keepdims=True)).reshape(batch, 2 * n_anchor, h, w)
    deltas = r.uniform(-delta, delta, size=(batch, 4 * n_anchor, h, w))
    return prob, deltas


_P1, _D1 = _rpn_inputs(1, 1, 12, 6, 7)
_INFO1 = np.array([[96.0, 112.0, 1.0]])
case("proposal.default_post20", "contrib.Proposal", [_P1, _D1, _INFO1],
     kwargs={"rpn_post_nms_top_n": 20}, grad_of=(0, 1, 2))
case("proposal.score_pre50", "contrib.Proposal", [_P1, _D1, _INFO1],
     kwargs={"rpn_pre_nms_top_n": 50, "rpn_post_nms_top_n": 12, "threshold": 0.5,
             "output_score": True}, grad_of=(0, 1))
_P2, _D2 = _rpn_inputs(2, 1, 4, 5, 6)
case("proposal.ratios_scales", "contrib.Proposal", [_P2, _D2, np.array([[80.0, 90.0, 1.0]])],
     kwargs={"scales": (2.0, 4.0), "ratios": (0.5, 2.0), "rpn_min_size": 4,
             "rpn_post_nms_top_n": 15, "threshold": 0.6, "output_score": True})
# few survivors: the output cycles through the kept boxes
_P3, _D3 = _rpn_inputs(3, 1, 1, 3, 3, delta=0.05)
case("proposal.cycle", "contrib.Proposal", [_P3, _D3, np.array([[12.0, 12.0, 1.0]])],
     kwargs={"scales": (3.0,), "ratios": (1.0,), "feature_stride": 4, "rpn_min_size": 0,
             "threshold": 0.25, "rpn_post_nms_top_n": 7, "output_score": True})
_D4 = _rs(4).uniform(-3, 3, size=_D2.shape)
case("proposal.iou_loss", "contrib.Proposal", [_P2, _D4, np.array([[80.0, 96.0, 2.0]])],
     kwargs={"scales": (2.0, 4.0), "ratios": (0.5, 2.0), "rpn_min_size": 2, "iou_loss": True,
             "rpn_post_nms_top_n": 10, "output_score": True})
_PM, _DM = _rpn_inputs(5, 2, 12, 5, 6)
case("multi_proposal.batch2", "contrib.MultiProposal",
     [_PM, _DM, np.array([[80.0, 96.0, 1.0], [64.0, 80.0, 1.0]])],
     kwargs={"rpn_post_nms_top_n": 10, "rpn_pre_nms_top_n": 100, "output_score": True},
     grad_of=(0, 1, 2))
case("multi_proposal.default", "contrib.MultiProposal",
     [_PM, _DM, np.array([[80.0, 96.0, 1.0], [80.0, 96.0, 1.0]])],
     kwargs={"rpn_post_nms_top_n": 8, "threshold": 0.4})


# ------------------------------------------------------------------------------- PSROIPooling
_FM = _rs(10).normal(size=(2, 18, 9, 10))
_ROIS = np.array([[0, 2.3, 1.6, 13.2, 15.7], [1, 0.0, 0.0, 19.0, 17.0], [0, 6.4, 4.5, 9.5, 8.4],
                  [1, -3.0, 5.0, 26.0, 30.0], [1, 10.0, 12.0, 10.2, 12.3]])
case("psroi.basic", "contrib.PSROIPooling", [_FM, _ROIS],
     kwargs={"spatial_scale": 0.5, "output_dim": 2, "pooled_size": 3}, grad_of=(0, 1))
case("psroi.group2_pool4", "contrib.PSROIPooling", [_FM[:, :16], _ROIS],
     kwargs={"spatial_scale": 0.5, "output_dim": 4, "pooled_size": 4, "group_size": 2},
     grad_of=(0,))
case("psroi.f64", "contrib.PSROIPooling", [_FM, _ROIS],
     kwargs={"spatial_scale": 0.4, "output_dim": 2, "pooled_size": 3}, dtypes=("float64",),
     grad_of=(0,))


# ------------------------------------------------------------------------------- DeformablePSROIPooling
_TRANS = _rs(11).normal(size=(5, 2, 3, 3))
_TRANS2 = _rs(12).normal(size=(5, 4, 2, 2))
case("dpsroi.no_trans", "contrib.DeformablePSROIPooling", [_FM, _ROIS],
     kwargs={"spatial_scale": 0.5, "output_dim": 2, "group_size": 3, "pooled_size": 3,
             "no_trans": True, "sample_per_part": 2}, grad_of=(0,))
case("dpsroi.trans", "contrib.DeformablePSROIPooling", [_FM, _ROIS, _TRANS],
     kwargs={"spatial_scale": 0.5, "output_dim": 2, "group_size": 3, "pooled_size": 3,
             "part_size": 3, "sample_per_part": 2, "trans_std": 0.1}, grad_of=(0, 1, 2))
case("dpsroi.classes_parts", "contrib.DeformablePSROIPooling", [_FM[:, :8], _ROIS, _TRANS2],
     kwargs={"spatial_scale": 0.625, "output_dim": 2, "group_size": 2, "pooled_size": 4,
             "part_size": 2, "sample_per_part": 3, "trans_std": 0.2}, grad_of=(0, 2))
case("dpsroi.default_part", "contrib.DeformablePSROIPooling", [_FM, _ROIS, _TRANS],
     kwargs={"spatial_scale": 0.5, "output_dim": 2, "group_size": 3, "pooled_size": 3,
             "trans_std": 0.3}, grad_of=(0, 2))


# ------------------------------------------------------------------------------- DeformableConvolution
_X = _rs(20).normal(size=(2, 4, 6, 7))
_OFF = _rs(21).uniform(-2.5, 2.5, size=(2, 18, 6, 7))
_OFF_S2 = _rs(22).uniform(-2.5, 2.5, size=(2, 36, 2, 3))
_W = _rs(23).normal(size=(6, 4, 3, 3))
_WG = _rs(24).normal(size=(6, 2, 3, 3))
_BIAS = _rs(25).normal(size=(6,))
case("dconv.pad1", "contrib.DeformableConvolution", [_X, _OFF, _W, _BIAS],
     kwargs={"kernel": (3, 3), "pad": (1, 1), "num_filter": 6}, grad_of=(0, 1, 2, 3))
case("dconv.groups_stride", "contrib.DeformableConvolution", [_X, _OFF_S2, _WG],
     kwargs={"kernel": (3, 3), "stride": (2, 2), "dilate": (2, 1), "pad": (1, 0),
             "num_filter": 6, "num_group": 2, "num_deformable_group": 2, "no_bias": True},
     grad_of=(0, 1, 2))
_OFF_12 = _rs(26).uniform(-1.5, 1.5, size=(2, 4, 6, 6))
case("dconv.kernel12", "contrib.DeformableConvolution",
     [_X, _OFF_12, _rs(27).normal(size=(3, 4, 1, 2)), _rs(28).normal(size=(3,))],
     kwargs={"kernel": (1, 2), "num_filter": 3}, grad_of=(0, 1, 2, 3))
_MASK = _rs(29).uniform(0, 1, size=(2, 9, 6, 7))
_MASK_S2 = _rs(30).uniform(0, 1, size=(2, 18, 2, 3))
case("mdconv.pad1", "contrib.ModulatedDeformableConvolution", [_X, _OFF, _MASK, _W, _BIAS],
     kwargs={"kernel": (3, 3), "pad": (1, 1), "num_filter": 6})
case("mdconv.groups_stride", "contrib.ModulatedDeformableConvolution",
     [_X, _OFF_S2, _MASK_S2, _WG],
     kwargs={"kernel": (3, 3), "stride": (2, 2), "dilate": (2, 1), "pad": (1, 0),
             "num_filter": 6, "num_group": 2, "num_deformable_group": 2, "no_bias": True})


# ------------------------------------------------------------------------------- RROIAlign
_RFM = _rs(40).normal(size=(2, 3, 8, 9))
_RROIS = np.array([[0, 4.2, 3.7, 5.0, 3.0, 30.0], [1, 8.0, 6.0, 10.0, 6.0, -45.0],
                   [0, 1.0, 1.5, 0.5, 4.0, 90.0], [1, 15.0, 14.0, 12.0, 8.0, 170.0],
                   [0, 2.0, 14.0, 3.0, 3.0, 0.0]])
case("rroi.adaptive", "contrib.RROIAlign", [_RFM, _RROIS],
     kwargs={"pooled_size": (2, 3), "spatial_scale": 0.5})
case("rroi.sample2", "contrib.RROIAlign", [_RFM, _RROIS],
     kwargs={"pooled_size": (3, 3), "spatial_scale": 0.8, "sampling_ratio": 2})


def main():
    os.environ.setdefault("MXNET_MKLDNN_ENABLED", "0")
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    _B.write_cases(mx, CASES, OUT_NPZ, post=False)


if __name__ == "__main__":
    main()
