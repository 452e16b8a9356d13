"""Record forward outputs and autograd gradients of CTCLoss and the contrib operators under 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_nn_ctc_contrib.py

For every entry of ``CASES`` it builds the inputs (deterministic NumPy data), records
``fn(*inputs, **kwargs)`` under autograd, runs backward with a fixed head gradient per
output and writes ``tests/golden/nn_ctc_contrib.npz`` with, per case ``<id>``:

* ``<id>/in<i>``   -- the inputs (already cast to their dtypes),
* ``<id>/head<j>`` -- the head gradient of output j (cases with ``grad=True``),
* ``<id>/out<j>``  -- output j,
* ``<id>/grad<i>`` -- the gradient of input i, for the inputs listed in ``wrt``.

``tests/operator/test_nn_ctc.py`` and ``tests/operator/test_contrib.py`` import this module
(it must stay importable without mxnet) and replay every case from the stored inputs.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "nn_ctc_contrib.npz"


@dataclass
class Case:
    """One call ``mx.nd.<op>(*inputs, **kwargs)``; ``op`` is a dotted path below mx.nd.

    ``dtypes`` gives each input's dtype; ``wrt`` the inputs whose gradients are recorded
    (None: every floating input); ``grad=False`` records the forward only.
    """

    id: str
    op: str
    inputs: list
    dtypes: list
    kwargs: dict = field(default_factory=dict)
    wrt: list | None = None
    grad: bool = True

    def grad_inputs(self):
        if not self.grad:
            return []
        if self.wrt is not None:
            return list(self.wrt)
        return [i for i, d in enumerate(self.dtypes) if np.dtype(d).kind == "f"]


def _rand(*shape, seed=0, scale=1.0):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape) * scale


def _normal(*shape, seed=0, scale=1.0):
    return np.random.RandomState(seed).normal(size=shape) * scale


CASES: list[Case] = []


def case(cid, op, inputs, dtypes="float32", wrt=None, grad=True, **kwargs):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    if isinstance(dtypes, str):
        dtypes = [dtypes] * len(inputs)
    CASES.append(Case(cid, op, inputs, list(dtypes), kwargs, wrt, grad))


# ------------------------------------------------------------------------------- CTCLoss
# (1.9.1 computes CTC in float32 only; labels and lengths are never differentiated)
_ACT = _normal(6, 3, 5, seed=1)
_LAB_FIRST = np.array([[1, 2, 0], [3, 3, 0], [4, 1, 2]], dtype=np.float64)   # 0 pads
_LAB_LAST = np.array([[0, 1, -1], [2, 2, -1], [3, 0, 1]], dtype=np.float64)  # -1 pads
case("ctc.first", "CTCLoss", [_ACT, _LAB_FIRST], wrt=[0])
case("ctc.last", "CTCLoss", [_ACT, _LAB_LAST], wrt=[0], blank_label="last")
case("ctc.alias_ctc_loss", "ctc_loss", [_ACT, _LAB_FIRST], wrt=[0])
case("ctc.contrib_alias", "contrib.CTCLoss", [_ACT, _LAB_LAST], wrt=[0], blank_label="last")
case("ctc.data_lengths", "CTCLoss", [_ACT, _LAB_FIRST, np.array([6.0, 4.0, 5.0])], wrt=[0],
     use_data_lengths=True)
case("ctc.label_lengths", "CTCLoss", [_ACT, _LAB_LAST, np.array([1.0, 2.0, 3.0])], wrt=[0],
     use_label_lengths=True, blank_label="last")
case("ctc.both_lengths", "CTCLoss",
     [_ACT, _LAB_FIRST, np.array([5.0, 6.0, 4.0]), np.array([2.0, 1.0, 3.0])], wrt=[0],
     use_data_lengths=True, use_label_lengths=True)
case("ctc.repeats_tight", "CTCLoss",
     [_normal(5, 2, 4, seed=2), np.array([[1, 1, 2], [2, 2, 0]], dtype=np.float64)], wrt=[0])
case("ctc.empty_label", "CTCLoss",
     [_normal(4, 2, 3, seed=3), np.array([[0, 0], [2, 0]], dtype=np.float64)], wrt=[0])
case("ctc.long_peaked", "CTCLoss",
     [_normal(40, 2, 6, seed=4, scale=6.0),
      np.array([[1, 2, 3, 4, 5, 1, 2, 3], [5, 5, 4, 0, 0, 0, 0, 0]], dtype=np.float64)],
     wrt=[0])

# ------------------------------------------------------------------------------- elementwise
case("div_sqrt_dim.f32", "contrib.div_sqrt_dim", [_rand(2, 3, 5)])
case("div_sqrt_dim.f64", "contrib.div_sqrt_dim", [_rand(4, 7, seed=1)], "float64")
case("quadratic.abc", "contrib.quadratic", [_rand(3, 4)], a=1.5, b=-2.0, c=0.25)
case("quadratic.default", "contrib.quadratic", [_rand(5, seed=2)], "float64")
case("gradientmultiplier.neg", "contrib.gradientmultiplier", [_rand(3, 4)], scalar=-2.5,
     is_int=False)
case("gradientmultiplier.int", "contrib.gradientmultiplier", [_rand(2, 3)], scalar=3.0)
case("round_ste", "contrib.round_ste", [np.array([-2.7, -1.2, -0.3, 0.2, 0.7, 1.6, 3.3])])
case("sign_ste", "contrib.sign_ste", [np.array([-2.5, -0.1, 0.0, 0.4, 2.0])], "float64")
case("allclose.true", "contrib.allclose", [np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-6])],
     grad=False)
case("allclose.false", "contrib.allclose", [np.array([1.0, 2.0]), np.array([1.0, 2.1])],
     grad=False, rtol=1e-3, atol=0.0)

# ------------------------------------------------------------------------------- generators
case("arange_like.full", "contrib.arange_like", [_rand(2, 3, 4)], grad=False, start=1.0,
     step=0.5, repeat=2)
case("arange_like.axis", "contrib.arange_like", [_rand(2, 3, 4)], "float64", grad=False,
     axis=-1, start=2.0, repeat=3)
case("index_array.all", "contrib.index_array", [_rand(2, 3)], grad=False)
case("index_array.axes", "contrib.index_array", [_rand(2, 3, 2)], grad=False, axes=(-1, 0))

# ------------------------------------------------------------------------------- masks, copies
_BM_DATA = _rand(4, 3, seed=5)
case("boolean_mask.rows", "contrib.boolean_mask", [_BM_DATA, np.array([1.0, 0.0, 1.0, 1.0])],
     wrt=[0])
case("boolean_mask.nonbinary", "contrib.boolean_mask",
     [_rand(3, 2, 2, seed=6), np.array([0.5, 0.0, -2.0])], wrt=[0])
case("index_copy.rows", "contrib.index_copy",
     [_rand(5, 3, seed=7), np.array([3.0, 0.0]), _rand(2, 3, seed=8)], wrt=[0, 2])
case("index_copy.vector", "contrib.index_copy",
     [_rand(6, seed=9), np.array([5.0, 1.0, 2.0]), _rand(3, seed=10)], "float64", wrt=[0, 2])

# ------------------------------------------------------------------------------- spatial
_IMG = _rand(2, 3, 5, 7, seed=11)
case("adaptive_avg.3x4", "contrib.AdaptiveAvgPooling2D", [_IMG], output_size=(3, 4))
case("adaptive_avg.int", "contrib.AdaptiveAvgPooling2D", [_IMG], output_size=2)
case("adaptive_avg.default", "contrib.AdaptiveAvgPooling2D", [_IMG], "float64")
case("adaptive_avg.up", "contrib.AdaptiveAvgPooling2D", [_rand(1, 2, 3, 4, seed=12)],
     output_size=(5, 6))
_SMALL = _rand(2, 2, 3, 4, seed=13)
for _mode, _kw in [("size_up", dict(height=5, width=6)),
                   ("size_down", dict(height=2, width=3)),
                   ("size_up_noalign", dict(height=5, width=6, align_corners=False)),
                   ("size_down_noalign", dict(height=2, width=3, align_corners=False)),
                   ("size_one", dict(height=1, width=3, align_corners=False)),
                   ("scale", dict(scale_height=2.0, scale_width=1.5)),
                   ("odd_scale", dict(mode="odd_scale", scale_height=1.5, scale_width=0.5)),
                   ("to_even_down", dict(mode="to_even_down")),
                   ("to_even_up", dict(mode="to_even_up", align_corners=False)),
                   ("to_odd_down", dict(mode="to_odd_down")),
                   ("to_odd_up", dict(mode="to_odd_up"))]:
    case(f"bilinear.{_mode}", "contrib.BilinearResize2D", [_SMALL], **_kw)
case("bilinear.like", "contrib.BilinearResize2D", [_SMALL, _rand(2, 2, 4, 6, seed=14)],
     wrt=[0, 1], mode="like")
case("bilinear.f64", "contrib.BilinearResize2D", [_rand(1, 1, 4, 3, seed=15)], "float64",
     height=7, width=2, align_corners=False)

# ------------------------------------------------------------------------------- attention
_H, _D, _L, _LK, _B = 2, 3, 4, 5, 2
case("selfatt_qk", "contrib.interleaved_matmul_selfatt_qk", [_rand(_L, _B, _H * 3 * _D, seed=16)],
     heads=_H)
case("selfatt_valatt", "contrib.interleaved_matmul_selfatt_valatt",
     [_rand(_L, _B, _H * 3 * _D, seed=17), _rand(_B * _H, _L, _L, seed=18)], heads=_H)
case("encdec_qk", "contrib.interleaved_matmul_encdec_qk",
     [_rand(_L, _B, _H * _D, seed=19), _rand(_LK, _B, _H * 2 * _D, seed=20)], heads=_H)
case("encdec_valatt", "contrib.interleaved_matmul_encdec_valatt",
     [_rand(_LK, _B, _H * 2 * _D, seed=21), _rand(_B * _H, _L, _LK, seed=22)], heads=_H)


# ------------------------------------------------------------------------------- running
def head_grads(outputs, seed_base=1000):
    """The fixed head gradient of each output."""
    return [np.random.RandomState(seed_base + j).normal(size=o.shape).astype(o.dtype)
            for j, o in enumerate(outputs)]


def resolve(nd, path):
    fn = nd
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def run_case(mx, c: Case, inputs=None, heads=None):
    """Run one case with mxnet module ``mx``: (outputs, heads, {input index: gradient})."""
    src = c.inputs if inputs is None else inputs
    arrays = [np.asarray(x, dtype=d) for x, d in zip(src, c.dtypes)]
    xs = [mx.nd.array(x, dtype=d) for x, d in zip(arrays, c.dtypes)]
    wrt = c.grad_inputs()
    for i in wrt:
        xs[i].attach_grad()
    fn = resolve(mx.nd, c.op)
    if not wrt:
        out = fn(*xs, **c.kwargs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        return [o.asnumpy() for o in outs], [], {}
    with mx.autograd.record():
        out = fn(*xs, **c.kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    outs_np = [o.asnumpy() for o in outs]
    if heads is None:
        heads = head_grads(outs_np)
    mx.autograd.backward(outs, [mx.nd.array(h, dtype=h.dtype) for h in heads])
    return outs_np, heads, {i: xs[i].grad.asnumpy() for i in wrt}


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in CASES:
        outs, heads, grads = run_case(mx, c)
        for i, (x, d) in enumerate(zip(c.inputs, c.dtypes)):
            arrays[f"{c.id}/in{i}"] = np.asarray(x, dtype=d)
        for j, o in enumerate(outs):
            arrays[f"{c.id}/out{j}"] = o
        for j, h in enumerate(heads):
            arrays[f"{c.id}/head{j}"] = h
        for i, g in grads.items():
            arrays[f"{c.id}/grad{i}"] = g
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ}")


if __name__ == "__main__":
    main()
