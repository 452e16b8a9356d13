"""Record the contrib detection, box, optimizer front-end and control-flow operators under
MXNet 1.9.1: outputs, autograd gradients and the inputs after the call (in-place states).

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_contrib_ops.py

A case calls ``op`` -- a dotted path below ``mx.nd`` or a function ``fn(mx, *arrays)`` --
on NDArrays made from ``inputs`` (cast to ``dtypes``), under ``autograd.record()`` when
``grad_of`` names inputs, then runs backward with a fixed head gradient per floating
output. Outputs may be nested lists (control flow); they are flattened in order.

``tests/golden/contrib_ops.npz`` holds per case ``<id>``: ``in<i>``, ``out<j>``,
``head<j>``, ``grad<i>`` (for i in ``grad_of``) and ``post<i>`` (input i after the call).

count_sketch, fft and ifft are GPU-only in 1.9.1 and have no fixtures here (their tests
check closed forms instead); rand_zipfian is random.

``tests/operator/test_contrib_ops.py`` imports this module (it must stay importable
without mxnet) and replays every case against this repository's mxnet.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "contrib_ops.npz"


@dataclass
class Case:
    """One recorded call (see the module docstring)."""

    id: str
    op: Any
    inputs: list
    kwargs: dict = field(default_factory=dict)
    dtypes: tuple = ()
    grad_of: tuple = ()

    def input_dtypes(self):
        if not self.dtypes:
            return ["float32"] * len(self.inputs)
        if len(self.dtypes) == 1:
            return list(self.dtypes) * len(self.inputs)
        return list(self.dtypes)


def case_table():
    """A new list of cases and the function that adds one to it (unique ids), for this
    generator and the ones that reuse its Case and run_case."""
    cases: list[Case] = []

    def add(cid, op, inputs, **kw):
        if any(c.id == cid for c in cases):
            raise ValueError(f"duplicate case id {cid!r}")
        cases.append(Case(cid, op, inputs, **kw))

    return cases, add


CASES, case = case_table()


def _rs(seed):
    return np.random.RandomState(seed)


def _corners(n, seed, lo=0.0, hi=1.0, min_size=0.05, max_size=0.5):
    r = _rs(seed)
    x1 = r.uniform(lo, hi - max_size, n)
    y1 = r.uniform(lo, hi - max_size, n)
    w = r.uniform(min_size, max_size, n)
    h = r.uniform(min_size, max_size, n)
    return np.stack([x1, y1, x1 + w, y1 + h], axis=-1)


# ------------------------------------------------------------------------------- box_iou
_A = _corners(6, 1).reshape(2, 3, 4)
_B = _corners(5, 2)
_B[1] = [_B[1, 2], _B[1, 3], _B[1, 0], _B[1, 1]]          # negative width and height
_B[2] = _A[0, 1]                                         # identical box
_B[3] = [_A[0, 0, 2], _A[0, 0, 1], _A[0, 0, 2] + 0.2, _A[0, 0, 3]]   # touching edge
case("box_iou.corner", "contrib.box_iou", [_A, _B], grad_of=(0, 1))
case("box_iou.center", "contrib.box_iou", [np.abs(_A), np.abs(_B)],
     kwargs={"format": "center"}, grad_of=(0,))
case("box_iou.f64", "contrib.box_iou", [_corners(4, 3), _corners(3, 4)], dtypes=("float64",))


# ------------------------------------------------------------------------------- box_nms
def _nms_rows(n, seed, n_cls=3):
    """[id, score, x1, y1, x2, y2] rows in clusters, so that boxes overlap a lot."""
    r = _rs(seed)
    centers = r.uniform(0.2, 0.8, (3, 2))
    c = centers[r.randint(0, 3, n)] + r.normal(0, 0.04, (n, 2))
    wh = r.uniform(0.15, 0.3, (n, 2))
    boxes = np.concatenate([c - wh / 2, c + wh / 2], axis=1)
    ids = r.randint(0, n_cls, n).astype(np.float64)
    scores = np.round(r.uniform(0.0, 1.0, n), 3)
    return np.concatenate([ids[:, None], scores[:, None], boxes], axis=1)


_N1 = _nms_rows(10, 5)
_N1[3, 1] = _N1[6, 1]                                    # a tie in score
_NB = np.stack([_nms_rows(9, 6), _nms_rows(9, 7)])
case("box_nms.default", "contrib.box_nms", [_N1], grad_of=(0,))
case("box_nms.alias", "contrib.box_non_maximum_suppression", [_N1],
     kwargs={"overlap_thresh": 0.3}, grad_of=(0,))
case("box_nms.class_aware", "contrib.box_nms", [_NB],
     kwargs={"overlap_thresh": 0.2, "id_index": 0}, grad_of=(0,))
case("box_nms.force", "contrib.box_nms", [_NB],
     kwargs={"overlap_thresh": 0.2, "id_index": 0, "force_suppress": True}, grad_of=(0,))
case("box_nms.background", "contrib.box_nms", [_NB],
     kwargs={"overlap_thresh": 0.4, "id_index": 0, "background_id": 1}, grad_of=(0,))
case("box_nms.topk_valid", "contrib.box_nms", [_NB],
     kwargs={"topk": 4, "valid_thresh": 0.3, "overlap_thresh": 0.45}, grad_of=(0,))
case("box_nms.topk0", "contrib.box_nms", [_N1], kwargs={"topk": 0}, grad_of=(0,))
case("box_nms.none_valid", "contrib.box_nms", [_N1], kwargs={"valid_thresh": 2.0},
     grad_of=(0,))
case("box_nms.thresh0", "contrib.box_nms", [_N1], kwargs={"overlap_thresh": 0.0})
_NL = np.concatenate([_N1[:, 2:6], _N1[:, 1:2]], axis=1)  # [x1, y1, x2, y2, score]
case("box_nms.layout", "contrib.box_nms", [_NL],
     kwargs={"coord_start": 0, "score_index": 4, "overlap_thresh": 0.3}, grad_of=(0,))
_NC = _N1.copy()
_NC[:, 2:4] = (_N1[:, 2:4] + _N1[:, 4:6]) / 2
_NC[:, 4:6] = _N1[:, 4:6] - _N1[:, 2:4]
case("box_nms.center_in", "contrib.box_nms", [_NC],
     kwargs={"in_format": "center", "overlap_thresh": 0.3}, grad_of=(0,))
case("box_nms.center_to_corner", "contrib.box_nms", [_NC],
     kwargs={"in_format": "center", "out_format": "corner", "overlap_thresh": 0.3})
_NN = _N1.copy()
_NN[[1, 4], 2] -= 0.5                                    # boxes left of the origin
case("box_nms.corner_to_center", "contrib.box_nms", [_NN],
     kwargs={"out_format": "center", "overlap_thresh": 0.3})
case("box_nms.batched_f64", "contrib.box_nms",
     [np.stack([_NB, _NB[::-1]]).reshape(2, 2, 9, 6)],
     kwargs={"overlap_thresh": 0.3, "id_index": 0, "topk": 6}, dtypes=("float64",),
     grad_of=(0,))
case("box_nms.extra_columns", "contrib.box_nms",
     [np.concatenate([_N1, _rs(8).uniform(size=(10, 2))], axis=1)],
     kwargs={"overlap_thresh": 0.25, "id_index": 0}, grad_of=(0,))


# ------------------------------------------------------------------------------- encode / decode
_ANC = _corners(10, 9).reshape(2, 5, 4)
_REF = _corners(6, 10).reshape(2, 3, 4)
_SAMPLES = np.array([[1, -1, 0, 1, 1], [0, 1, 1, -1, 1]], dtype=np.float64)
_MATCHES = np.array([[0, -1, 2, 1, 2], [1, 0, 2, 0, 1]], dtype=np.float64)
_MATCHES[0, 1] = 0
case("box_encode.default", "contrib.box_encode",
     [_SAMPLES, _MATCHES, _ANC, _REF, np.zeros(4), np.ones(4)], grad_of=(2, 3))
case("box_encode.means_stds", "contrib.box_encode",
     [_SAMPLES, _MATCHES, _ANC, _REF, np.array([0.1, -0.1, 0.0, 0.2]),
      np.array([0.1, 0.1, 0.2, 0.2])])
_ENC = _rs(11).normal(0, 0.5, (2, 5, 4))
_ANC_C = np.concatenate([(_ANC[0, :, :2] + _ANC[0, :, 2:]) / 2,
                         _ANC[0, :, 2:] - _ANC[0, :, :2]], axis=1)[None]
case("box_decode.center", "contrib.box_decode", [_ENC, _ANC_C], grad_of=(0, 1))
case("box_decode.corner_stds", "contrib.box_decode", [_ENC, _ANC[:1]],
     kwargs={"format": "corner", "std0": 0.1, "std1": 0.1, "std2": 0.2, "std3": 0.2})
case("box_decode.clip_f64", "contrib.box_decode", [_ENC * 4, _ANC_C],
     kwargs={"clip": 0.5}, dtypes=("float64",))


# ------------------------------------------------------------------------------- bipartite
_S = _rs(12).uniform(size=(2, 4, 3))
case("bipartite.desc", "contrib.bipartite_matching", [_S], kwargs={"threshold": 0.1},
     grad_of=(0,))
case("bipartite.asc", "contrib.bipartite_matching", [_S],
     kwargs={"threshold": 0.9, "is_ascend": True})
case("bipartite.topk", "contrib.bipartite_matching", [_S],
     kwargs={"threshold": 0.05, "topk": 1})
case("bipartite.stop_early", "contrib.bipartite_matching", [_S],
     kwargs={"threshold": 0.6})
_ST = np.array([[0.5, 0.5, 0.2], [0.5, 0.1, 0.5], [0.3, 0.5, 0.5]])
case("bipartite.ties", "contrib.bipartite_matching", [_ST], kwargs={"threshold": 0.0})
case("bipartite.batched", "contrib.bipartite_matching",
     [_rs(13).uniform(size=(2, 2, 3, 5))], kwargs={"threshold": 0.2}, dtypes=("float64",))


# ------------------------------------------------------------------------------- ROIAlign
_FM = _rs(14).normal(size=(2, 3, 7, 8))
_ROIS = np.array([[0, 1.2, 0.7, 5.3, 4.1],
                  [1, -0.8, 2.0, 3.3, 7.5],
                  [0, 6.0, 5.5, 9.5, 8.0],
                  [1, 2.2, 2.1, 2.5, 2.3],
                  [1, 0.0, 0.0, 7.0, 6.0]])
case("roi_align.adaptive", "contrib.ROIAlign", [_FM, _ROIS],
     kwargs={"pooled_size": (2, 3), "spatial_scale": 1.0}, grad_of=(0, 1))
case("roi_align.sample2", "contrib.ROIAlign", [_FM, _ROIS],
     kwargs={"pooled_size": (3, 3), "spatial_scale": 1.0, "sample_ratio": 2}, grad_of=(0,))
case("roi_align.scale", "contrib.ROIAlign", [_FM, _ROIS * np.array([1, 2, 2, 2, 2])],
     kwargs={"pooled_size": (2, 2), "spatial_scale": 0.5}, grad_of=(0,))
case("roi_align.aligned", "contrib.ROIAlign", [_FM, _ROIS],
     kwargs={"pooled_size": (2, 2), "spatial_scale": 1.0, "aligned": True, "sample_ratio": 3},
     grad_of=(0,))
case("roi_align.position_sensitive", "contrib.ROIAlign",
     [_rs(15).normal(size=(2, 8, 6, 6)), _ROIS],
     kwargs={"pooled_size": (2, 2), "spatial_scale": 1.0, "position_sensitive": True},
     grad_of=(0,))
case("roi_align.f64", "contrib.ROIAlign", [_FM, _ROIS],
     kwargs={"pooled_size": (4, 2), "spatial_scale": 1.0}, dtypes=("float64",), grad_of=(0,))


# ------------------------------------------------------------------------------- MultiBox
_MAP = np.zeros((1, 2, 4, 4))
case("prior.default", "contrib.MultiBoxPrior", [_MAP], grad_of=(0,))
case("prior.sizes_ratios", "contrib.MultiBoxPrior", [np.zeros((2, 1, 3, 5))],
     kwargs={"sizes": (0.3, 0.5, 0.8), "ratios": (1, 2, 0.5)})
case("prior.clip_steps", "contrib.MultiBoxPrior", [np.zeros((1, 1, 3, 4))],
     kwargs={"sizes": (0.6,), "ratios": (1, 3), "clip": True, "steps": (0.3, 0.2),
             "offsets": (0.2, 0.7)})


def _anchors(h=4, w=4, sizes=(0.3, 0.5), ratios=(1, 2)):
    """The same anchors MultiBoxPrior gives (float32 arithmetic)."""
    f = np.float32
    sizes = np.asarray(sizes, dtype=f)
    rt = np.sqrt(np.asarray(ratios[1:], dtype=f))
    hw = np.concatenate([sizes * f(h) / f(w) / f(2), sizes[0] * f(h) / f(w) * rt / f(2)])
    hh = np.concatenate([sizes / f(2), sizes[0] / rt / f(2)])
    cy = (np.arange(h, dtype=f) + f(0.5)) * (f(1) / f(h))
    cx = (np.arange(w, dtype=f) + f(0.5)) * (f(1) / f(w))
    a = len(hw)
    box = np.stack([np.broadcast_to(cx[None, :, None] - hw, (h, w, a)),
                    np.broadcast_to(cy[:, None, None] - hh, (h, w, a)),
                    np.broadcast_to(cx[None, :, None] + hw, (h, w, a)),
                    np.broadcast_to(cy[:, None, None] + hh, (h, w, a))], axis=-1)
    return box.reshape(1, -1, 4)


_ANCHORS = _anchors()                                      # (1, 48, 4)
_LABELS = np.array([[[1, 0.1, 0.1, 0.45, 0.5], [0, 0.5, 0.4, 0.9, 0.95], [-1, -1, -1, -1, -1]],
                    [[2, 0.3, 0.2, 0.7, 0.6], [-1, -1, -1, -1, -1], [-1, -1, -1, -1, -1]]])
_NO_GT = _LABELS.copy()
_NO_GT[1, 0] = -1
_CLS = _rs(16).normal(size=(2, 4, 48))
case("target.default", "contrib.MultiBoxTarget", [_ANCHORS, _LABELS, _CLS], grad_of=(2,))
case("target.mining", "contrib.MultiBoxTarget", [_ANCHORS, _LABELS, _CLS],
     kwargs={"negative_mining_ratio": 3.0, "negative_mining_thresh": 0.5})
case("target.mining_thresh", "contrib.MultiBoxTarget", [_ANCHORS, _LABELS, _CLS],
     kwargs={"negative_mining_ratio": 2.5, "negative_mining_thresh": 0.3,
             "overlap_threshold": 0.3, "ignore_label": -2.0})
case("target.overlap_variances", "contrib.MultiBoxTarget", [_ANCHORS, _LABELS, _CLS],
     kwargs={"overlap_threshold": 0.2, "variances": (0.2, 0.2, 0.5, 0.5)})
case("target.no_overlap_stage", "contrib.MultiBoxTarget", [_ANCHORS, _LABELS, _CLS],
     kwargs={"overlap_threshold": 0.0, "negative_mining_ratio": 1.0})
case("target.empty_batch", "contrib.MultiBoxTarget", [_ANCHORS, _NO_GT, _CLS])
case("target.wide_labels", "contrib.MultiBoxTarget",
     [_ANCHORS, np.concatenate([_LABELS, np.full((2, 3, 1), 7.0)], axis=2), _CLS])


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


_PROB = _softmax(_rs(17).normal(0, 2.0, (2, 4, 48)), axis=1)
_LOC = _rs(18).normal(0, 0.5, (2, 48 * 4))
case("detection.default", "contrib.MultiBoxDetection", [_PROB, _LOC, _ANCHORS],
     grad_of=(0, 1, 2))
case("detection.threshold", "contrib.MultiBoxDetection", [_PROB, _LOC, _ANCHORS],
     kwargs={"threshold": 0.4, "nms_threshold": 0.3})
case("detection.force", "contrib.MultiBoxDetection", [_PROB, _LOC, _ANCHORS],
     kwargs={"force_suppress": True, "threshold": 0.2})
case("detection.topk", "contrib.MultiBoxDetection", [_PROB, _LOC, _ANCHORS],
     kwargs={"nms_topk": 5, "threshold": 0.2})
case("detection.no_nms_noclip", "contrib.MultiBoxDetection", [_PROB, _LOC, _ANCHORS],
     kwargs={"nms_threshold": 0.0, "clip": False, "threshold": 0.3})
case("detection.variances", "contrib.MultiBoxDetection", [_PROB, _LOC, _ANCHORS],
     kwargs={"variances": (0.2, 0.2, 0.1, 0.1), "nms_threshold": 0.6, "threshold": 0.25})


# ------------------------------------------------------------------------------- optimizers
def _w(seed, shape=(3, 4)):
    return _rs(seed).normal(size=shape)


def _pos(seed, shape=(3, 4)):
    return _rs(seed).uniform(0.1, 1.0, size=shape)


case("adamw.scalar_scale", "contrib.adamw_update", [_w(20), _w(21), _w(22), _pos(23)],
     kwargs={"rescale_grad": 0.5, "lr": 0.01, "eta": 0.9, "wd": 0.01})
case("adamw.clip", "contrib.adamw_update", [_w(20), _w(21) * 5, _w(22), _pos(23)],
     kwargs={"rescale_grad": 1.0, "lr": 0.05, "eta": 1.0, "clip_gradient": 0.5,
             "beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6})


def _adamw_skip(mx, w, g, m, v):
    return mx.nd.contrib.adamw_update(w, g, m, v, 0.0, lr=0.1, eta=1.0, out=w)


case("adamw.zero_scale_skips", _adamw_skip, [_w(20), _w(21), _w(22), _pos(23)])


def _adamw_array_scale(mx, w, g, m, v, s):
    return mx.nd.contrib.adamw_update(w, g, m, v, s, lr=0.1, eta=0.5, wd=0.1)


case("adamw.array_scale", _adamw_array_scale, [_w(20), _w(21), _w(22), _pos(23),
                                                np.array([2.0])])
case("mp_adamw.f16", "contrib.mp_adamw_update",
     [_w(24), _w(25), _w(26), _pos(27), _w(24)],
     kwargs={"rescale_grad": 0.25, "lr": 0.01, "eta": 1.0, "wd": 0.02},
     dtypes=("float16", "float16", "float32", "float32", "float32"))


def _multi_adamw(mx, w0, g0, m0, v0, w1, g1, m1, v1):
    return mx.nd.contrib.multi_adamw_update([w0, w1], [g0, g1], [m0, m1], [v0, v1], 0.5,
                                            lrs=[0.01, 0.02], wds=[0.0, 0.1], etas=[1.0, 0.5],
                                            out=[w0, w1])


case("multi_adamw", _multi_adamw,
     [_w(30), _w(31), _w(32), _pos(33), _w(34, (5,)), _w(35, (5,)), _w(36, (5,)),
      _pos(37, (5,))])


def _multi_mp_adamw(mx, w0, g0, m0, v0, w320, w1, g1, m1, v1, w321):
    return mx.nd.contrib.multi_mp_adamw_update([w0, w1], [g0, g1], [m0, m1], [v0, v1],
                                               [w320, w321], 2.0, lrs=[0.01, 0.02],
                                               wds=[0.05, 0.0], etas=[1.0, 0.9],
                                               out=[w0, w1])


case("multi_mp_adamw", _multi_mp_adamw,
     [_w(40), _w(41), _w(42), _pos(43), _w(40), _w(44, (5,)), _w(45, (5,)), _w(46, (5,)),
      _pos(47, (5,)), _w(44, (5,))],
     dtypes=("float16", "float16", "float32", "float32", "float32") * 2)


def _multi_lamb(mx, w0, g0, m0, v0, w1, g1, m1, v1):
    return mx.nd.contrib.multi_lamb_update([w0, w1], [g0, g1], [m0, m1], [v0, v1],
                                           step_count=[1, 3], lrs=[0.01, 0.02],
                                           wds=[0.01, 0.0], out=[w0, w1])


case("multi_lamb", _multi_lamb,
     [_w(50), _w(51), _w(52), _pos(53), _w(54, (5,)), _w(55, (5,)), _w(56, (5,)),
      _pos(57, (5,))])


def _multi_mp_lamb(mx, w0, g0, m0, v0, w320, w1, g1, m1, v1, w321):
    return mx.nd.contrib.multi_mp_lamb_update([w0, w1], [g0, g1], [m0, m1], [v0, v1],
                                              [w320, w321], step_count=[2, 2],
                                              lrs=[0.01, 0.02], wds=[0.0, 0.01],
                                              out=[w0, w1])


case("multi_mp_lamb", _multi_mp_lamb,
     [_w(60), _w(61), _w(62), _pos(63), _w(60), _w(64, (5,)), _w(65, (5,)), _w(66, (5,)),
      _pos(67, (5,)), _w(64, (5,))],
     dtypes=("float16", "float16", "float32", "float32", "float32") * 2)


def _row_sparse(mx, g):
    """1.9.1 only implements group_adagrad_update for row-sparse gradients."""
    try:
        return g.tostype("row_sparse")
    except mx.base.MXNetError:
        return g


def _group_adagrad(mx, w, g, h):
    return mx.nd.contrib.group_adagrad_update(w, _row_sparse(mx, g), h, lr=0.1, out=w)


def _group_adagrad_clip(mx, w, g, h):
    return mx.nd.contrib.group_adagrad_update(w, _row_sparse(mx, g), h, lr=0.05,
                                              rescale_grad=2.0, clip_gradient=0.3,
                                              epsilon=1e-3, out=w)


case("group_adagrad.default", _group_adagrad, [_w(70, (4, 3)), _w(71, (4, 3)),
                                               _pos(72, (4, 1))])
case("group_adagrad.clip", _group_adagrad_clip, [_w(73, (3, 5)), _w(74, (3, 5)),
                                                 _pos(75, (3, 1))])


# ------------------------------------------------------------------------------- control flow
def _foreach_rnn(mx, x, h0, w):
    def step(xt, states):
        h = mx.nd.tanh(xt * w + states[0] * 0.5)
        return h * 2, [h]
    outs, states = mx.nd.contrib.foreach(step, x, [h0])
    return [outs, states[0]]


def _foreach_nested(mx, a, b, s0, s1):
    def step(xs, states):
        x, y = xs
        p, q = states
        new_p = p + x * y
        new_q = mx.nd.maximum(q, x)
        return [new_p, [x - y, new_q * 2]], [new_p, new_q]
    outs, states = mx.nd.contrib.foreach(step, [a, b], [s0, s1])
    return [outs, states]


def _while_sum(mx, x, limit):
    def cond(i, acc):
        return (acc.sum() < limit.sum()) * (i < 10)

    def func(i, acc):
        new = acc * 1.5 + x
        return [new, acc * x], [i + 1, new]
    outs, (i, acc) = mx.nd.contrib.while_loop(cond, func, [mx.nd.zeros((1,)), x * 0 + 0.1],
                                              max_iterations=6)
    steps = int(i.asscalar())
    return [o[:steps] for o in outs] + [acc]


def _cond_branch(mx, x, y):
    first = mx.nd.contrib.cond((x.sum() > 0), lambda: x * y + 1, lambda: x - y)
    second = mx.nd.contrib.cond((y.sum() > 100), lambda: x * y, lambda: [x * x, y * 3])
    return [first, second]


case("foreach.rnn", _foreach_rnn, [_w(80, (5, 2, 3)), _w(81, (2, 3)), _w(82, (2, 3))],
     grad_of=(0, 1, 2))
case("foreach.nested", _foreach_nested,
     [_w(83, (4, 3)), _w(84, (4, 3)), _w(85, (3,)), _w(86, (3,))], grad_of=(0, 1, 2, 3))
case("while_loop.sum", _while_sum, [_pos(87, (2,)), np.array([3.0, 4.0])], grad_of=(0,))
case("cond.branches", _cond_branch, [_pos(88, (2, 2)), _w(89, (2, 2))], grad_of=(0, 1))


# ------------------------------------------------------------------------------- running
def head_grads(shapes, dtypes):
    """The fixed head gradient of each output."""
    return [np.random.RandomState(1000 + j).normal(size=s).astype(dt)
            for j, (s, dt) in enumerate(zip(shapes, dtypes))]


def resolve(ns, path):
    fn = ns
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def flatten(out):
    """Outputs (an NDArray or nested lists/tuples of them) as a flat list."""
    if isinstance(out, (list, tuple)):
        return [a for o in out for a in flatten(o)]
    return [out]


def _head_dtype(dt):
    return dt if np.dtype(dt).kind == "f" else np.dtype(np.float32)


def run_case(mx, c: Case, inputs=None, heads=None):
    """Run one case: (outputs, heads, {input index: gradient}, inputs after) as NumPy."""
    raw = c.inputs if inputs is None else inputs
    xs = [mx.nd.array(np.asarray(x, dtype=dt), dtype=dt) for x, dt in zip(raw, c.input_dtypes())]
    fn = resolve(mx.nd, c.op) if isinstance(c.op, str) else (lambda *a, **k: c.op(mx, *a, **k))
    grads = {}
    if not c.grad_of:
        outs = flatten(fn(*xs, **c.kwargs))
    else:
        for i in c.grad_of:
            xs[i].attach_grad()
        with mx.autograd.record():
            outs = flatten(fn(*xs, **c.kwargs))
        diff = [o for o in outs if np.dtype(o.dtype).kind == "f"]
        if heads is None:
            heads = head_grads([o.shape for o in diff], [_head_dtype(o.dtype) for o in diff])
        mx.autograd.backward(diff, [mx.nd.array(h, dtype=h.dtype) for h in heads])
        grads = {i: xs[i].grad.asnumpy() for i in c.grad_of}
    return [o.asnumpy() for o in outs], heads or [], grads, [x.asnumpy() for x in xs]


def write_cases(mx, cases, out_npz, post=True):
    """Run every case under ``mx`` (the reference) and write its inputs, outputs, head
    gradients, gradients and (with ``post``) states after the call to ``out_npz``."""
    arrays = {}
    for c in cases:
        try:
            outs, heads, grads, after = run_case(mx, c)
        except Exception as e:
            raise RuntimeError(f"case {c.id} failed under 1.9.1") from e
        for i, (x, dt) in enumerate(zip(c.inputs, c.input_dtypes())):
            arrays[f"{c.id}/in{i}"] = np.asarray(x, dtype=dt)
        for j, o in enumerate(outs):
            arrays[f"{c.id}/out{j}"] = o
        for j, h in enumerate(heads):
            arrays[f"{c.id}/head{j}"] = h
        for i, g in grads.items():
            arrays[f"{c.id}/grad{i}"] = g
        if post:
            for i, p in enumerate(after):
                arrays[f"{c.id}/post{i}"] = p
    out_npz.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out_npz, **arrays)
    print(f"wrote {len(cases)} cases ({len(arrays)} arrays) to {out_npz} "
          f"({out_npz.stat().st_size} bytes)")


def main():
    os.environ.setdefault("MXNET_MKLDNN_ENABLED", "0")
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    write_cases(mx, CASES, OUT_NPZ)


if __name__ == "__main__":
    main()
