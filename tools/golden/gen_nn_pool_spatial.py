"""Record forward outputs and autograd gradients of Pooling and the spatial operators under 1.9.1.

Run with the reference interpreter, from outside the repository so that ``import mxnet`` finds
the reference (never this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_nn_pool_spatial.py

Every entry of ``CASES`` is one call ``mx.nd.<op>(*inputs, **kwargs)`` recorded under autograd
and run backward with a fixed head gradient. The script writes
``tests/golden/nn_pool_spatial.npz`` with, per case ``<id>``: ``<id>/in<i>`` (the inputs),
``<id>/head0``, ``<id>/out0`` and ``<id>/grad<i>`` (the gradient of input i).

``tests/operator/test_nn_pool.py`` and ``test_nn_spatial.py`` import this module (it must stay
importable without mxnet) and replay every case from the stored inputs.

Cases avoid two oneDNN (float32 CPU) quirks of 1.9.1 that are not the operator's semantics:
float32 max/avg pooling with pad >= kernel raises, and the float32 avg-pooling gradient of a
'full' window that reaches past the padding divides by the whole kernel although the forward
pass does not. Those configurations appear here in float64 (the native kernels).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "nn_pool_spatial.npz"


@dataclass
class Case:
    """One call ``mx.nd.<op>(*inputs, **kwargs)``."""

    id: str
    op: str
    inputs: list
    kwargs: dict = field(default_factory=dict)
    dtype: str = "float64"

    @property
    def family(self):
        return "pool" if self.op == "Pooling" else "spatial"


def _rand(*shape, seed=0, low=-1.0, high=1.0):
    return np.random.RandomState(seed).uniform(low, high, size=shape)


def _distinct(*shape, seed=0):
    """Values without ties (a shuffled ramp), so max pooling has one winner per window."""
    n = int(np.prod(shape))
    return (np.random.RandomState(seed).permutation(n).reshape(shape) - n / 2) / n * 4


def _ties(*shape, seed=0):
    return np.random.RandomState(seed).randint(0, 3, size=shape).astype(np.float64)


CASES: list[Case] = []


def case(cid, op, inputs, dtype="float64", **kwargs):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    CASES.append(Case(cid, op, inputs, kwargs, dtype))


# ------------------------------------------------------------------------------------ Pooling
_X2 = _distinct(2, 3, 6, 7, seed=1)
case("pool.max2d", "Pooling", [_X2], kernel=(2, 2), stride=(2, 2))
case("pool.max2d.f32", "Pooling", [_X2], dtype="float32", kernel=(3, 3), stride=(2, 2), pad=(1, 1))
case("pool.max2d.full", "Pooling", [_X2], kernel=(3, 2), stride=(2, 3), pad=(1, 0),
     pooling_convention="full")
case("pool.max2d.ties", "Pooling", [_ties(2, 2, 5, 5, seed=2)], kernel=(3, 3), stride=(1, 2),
     pad=(1, 1))
case("pool.max2d.ties.f32", "Pooling", [_ties(2, 2, 5, 5, seed=3)], dtype="float32",
     kernel=(2, 2), stride=(1, 1))
case("pool.max1d", "Pooling", [_distinct(2, 3, 9, seed=4)], kernel=(3,), stride=(2,), pad=(1,))
case("pool.max3d", "Pooling", [_distinct(1, 2, 4, 5, 4, seed=5)], kernel=(2, 3, 2),
     stride=(2, 1, 2), pad=(0, 1, 1), pooling_convention="full")
case("pool.max.bigpad", "Pooling", [_distinct(1, 2, 4, 4, seed=6)], kernel=(1, 2), stride=(2, 2),
     pad=(1, 2))
case("pool.avg2d", "Pooling", [_X2], pool_type="avg", kernel=(3, 3), stride=(2, 2), pad=(1, 1))
case("pool.avg2d.f32", "Pooling", [_X2], dtype="float32", pool_type="avg", kernel=(2, 2),
     stride=(2, 2))
case("pool.avg2d.nopad", "Pooling", [_X2], pool_type="avg", kernel=(3, 3), stride=(2, 2),
     pad=(1, 1), count_include_pad=False)
case("pool.avg2d.full", "Pooling", [_X2], pool_type="avg", kernel=(2, 3), stride=(3, 2),
     pad=(1, 1), pooling_convention="full")
case("pool.avg2d.full.nopad", "Pooling", [_X2], pool_type="avg", kernel=(2, 3), stride=(3, 2),
     pad=(1, 1), pooling_convention="full", count_include_pad=False)
case("pool.avg1d.empty", "Pooling", [_rand(1, 2, 6, seed=7)], pool_type="avg", kernel=(1,),
     stride=(2,), pooling_convention="full")
case("pool.avg3d", "Pooling", [_rand(1, 2, 4, 5, 3, seed=8)], pool_type="avg", kernel=(2, 2, 2),
     stride=(2, 2, 1), pad=(1, 0, 1))
case("pool.avg3d.empty", "Pooling", [_rand(1, 1, 5, 4, 4, seed=9)], pool_type="avg",
     kernel=(2, 2, 2), stride=(2, 2, 2), pad=(1, 1, 1), pooling_convention="full",
     count_include_pad=False)
case("pool.sum2d", "Pooling", [_X2], pool_type="sum", kernel=(2, 3), stride=(1, 2), pad=(1, 1))
case("pool.sum1d.f32", "Pooling", [_rand(2, 3, 8, seed=10)], dtype="float32", pool_type="sum",
     kernel=(3,), stride=(2,), pooling_convention="full")
case("pool.lp1", "Pooling", [_rand(2, 2, 5, 5, seed=11)], pool_type="lp", p_value=1,
     kernel=(2, 2), stride=(1, 1))
case("pool.lp2", "Pooling", [_rand(2, 2, 5, 5, seed=12)], pool_type="lp", p_value=2,
     kernel=(3, 3), stride=(2, 2), pad=(1, 1))
case("pool.lp3", "Pooling", [_rand(2, 2, 5, 5, seed=13)], pool_type="lp", p_value=3,
     kernel=(2, 2), stride=(2, 2), pooling_convention="full")
case("pool.lp2.3d.f32", "Pooling", [_rand(1, 2, 3, 4, 4, seed=14)], dtype="float32",
     pool_type="lp", p_value=2, kernel=(2, 2, 2), stride=(1, 2, 2))
case("pool.global.max", "Pooling", [_distinct(2, 3, 4, 5, seed=15)], global_pool=True)
case("pool.global.avg.f32", "Pooling", [_rand(2, 3, 4, 5, seed=16)], dtype="float32",
     global_pool=True, pool_type="avg", kernel=(2, 2), pad=(1, 1))
case("pool.global.lp", "Pooling", [_rand(2, 3, 4, seed=17)], global_pool=True, pool_type="lp",
     p_value=2)
case("pool.global.sum3d", "Pooling", [_rand(1, 2, 2, 3, 3, seed=18)], global_pool=True,
     pool_type="sum")
case("pool.nhwc.max", "Pooling", [_distinct(2, 5, 6, 3, seed=19)], layout="NHWC", kernel=(2, 2),
     stride=(2, 2), pooling_convention="full")
case("pool.nwc.avg", "Pooling", [_rand(2, 7, 3, seed=20)], layout="NWC", pool_type="avg",
     kernel=(3,), stride=(2,), pad=(1,))
case("pool.ndhwc.max", "Pooling", [_distinct(1, 3, 4, 4, 2, seed=21)], layout="NDHWC",
     kernel=(2, 2, 2), stride=(1, 2, 2))
case("pool.same.max", "Pooling", [_distinct(2, 2, 7, seed=22)], pooling_convention="same",
     kernel=(3,), stride=(2,), pad=(0, 0, 0))
case("pool.same.avg", "Pooling", [_rand(2, 2, 7, seed=23)], pooling_convention="same",
     pool_type="avg", kernel=(4,), stride=(1,), pad=(0, 0, 0))
case("pool.f16", "Pooling", [_rand(1, 2, 4, 4, seed=24)], dtype="float16", pool_type="avg",
     kernel=(2, 2), stride=(2, 2))

# ---------------------------------------------------------------------------------- UpSampling
case("up.nearest", "UpSampling", [_rand(2, 3, 2, 3, seed=30)], scale=2, sample_type="nearest")
case("up.nearest.f32.s3", "UpSampling", [_rand(1, 2, 3, 2, seed=31)], dtype="float32", scale=3,
     sample_type="nearest")
case("up.nearest.concat", "UpSampling", [_rand(1, 2, 4, 4, seed=32), _rand(1, 3, 2, 2, seed=33)],
     scale=2, sample_type="nearest")
case("up.nearest.sum", "UpSampling", [_rand(2, 2, 2, 2, seed=34), _rand(2, 2, 4, 4, seed=35),
                                      _rand(2, 2, 1, 1, seed=36)],
     scale=2, sample_type="nearest", multi_input_mode="sum")
case("up.bilinear.s2", "UpSampling", [_rand(2, 3, 3, 4, seed=37), _rand(3, 1, 4, 4, seed=38)],
     scale=2, sample_type="bilinear", num_filter=3)
case("up.bilinear.s3.f32", "UpSampling", [_rand(1, 2, 2, 3, seed=39), _rand(2, 1, 5, 5, seed=40)],
     dtype="float32", scale=3, sample_type="bilinear", num_filter=2)
case("up.bilinear.s1", "UpSampling", [_rand(1, 2, 2, 2, seed=41), _rand(2, 1, 1, 1, seed=42)],
     scale=1, sample_type="bilinear", num_filter=2)

# ---------------------------------------------------------------------------------------- Crop
_CX = _rand(2, 2, 5, 6, seed=50)
case("crop.like", "Crop", [_CX, _rand(1, 1, 3, 2, seed=51)], dtype="float32")
case("crop.like.offset", "Crop", [_CX, _rand(1, 4, 3, 4, seed=52)], dtype="float32", offset=(2, 1))
case("crop.like.center", "Crop", [_CX, _rand(1, 1, 2, 3, seed=53)], dtype="float32",
     center_crop=True)
case("crop.hw", "Crop", [_CX], dtype="float32", h_w=(3, 2), offset=(2, 4))
case("crop.hw.center", "Crop", [_CX], dtype="float32", h_w=(4, 3), center_crop=True)

# ---------------------------------------------------------------------------------- ROIPooling
_RX = _distinct(2, 3, 6, 7, seed=60)
_ROIS = np.array([[0, 0, 0, 4, 3], [1, 1.4, 0.6, 6.6, 5.5], [0, 2, 2, 2, 2], [1, -3, -2, 10, 12],
                  [0, 5.2, 1.1, 2.0, 4.9], [1, 0.5, 2.5, 3.5, 5.5]])
case("roi.basic", "ROIPooling", [_RX, _ROIS], pooled_size=(2, 3), spatial_scale=1.0)
case("roi.scale.f32", "ROIPooling", [_RX, _ROIS * 2], dtype="float32", pooled_size=(3, 2),
     spatial_scale=0.5)
case("roi.big", "ROIPooling", [_distinct(1, 2, 9, 11, seed=61),
                               np.array([[0, 0, 0, 10, 8], [0, 1, 2, 9, 7], [0, 3, 1, 3, 6]])],
     pooled_size=(2, 2), spatial_scale=1.0)
case("roi.ties", "ROIPooling", [_ties(1, 2, 5, 5, seed=62),
                                np.array([[0, 0, 0, 4, 4], [0, 1, 0, 4, 2], [0, 2, 2, 2, 2]])],
     pooled_size=(3, 3), spatial_scale=1.0)
case("roi.badbatch", "ROIPooling", [_RX, np.array([[2, 0, 0, 3, 3], [-1, 0, 0, 2, 2],
                                                   [1, 0, 0, 3, 3]])],
     pooled_size=(2, 2), spatial_scale=1.0)

# -------------------------------------------------------------------------------- GridGenerator
_THETA = np.array([[1, 0, 0, 0, 1, 0], [0.5, 0.2, 0.1, -0.3, 1.2, 0.4], [0.9, -0.4, 0.3, 0.2, 0.7,
                                                                           -0.2]])
case("grid.affine", "GridGenerator", [_THETA], dtype="float32", transform_type="affine",
     target_shape=(3, 4))
case("grid.affine.tall", "GridGenerator", [_THETA[:2]], dtype="float32", transform_type="affine",
     target_shape=(5, 2))
case("grid.warp", "GridGenerator", [_rand(2, 2, 3, 4, seed=70)], dtype="float32",
     transform_type="warp")

# ------------------------------------------------------------------------------ BilinearSampler
_SD = _rand(2, 3, 4, 5, seed=80)
_SG = _rand(2, 2, 3, 4, seed=81, low=-1.3, high=1.3)
case("sampler", "BilinearSampler", [_SD, _SG])
case("sampler.f32", "BilinearSampler", [_SD, _SG], dtype="float32")
case("sampler.inside", "BilinearSampler", [_rand(1, 2, 5, 4, seed=82),
                                           _rand(1, 2, 6, 3, seed=83, low=-0.95, high=0.95)])
case("sampler.edges", "BilinearSampler", [_rand(1, 1, 3, 4, seed=84),
                                          np.array([[[[-1, -1 / 3, 1 / 3, 1.0, 1.2]],
                                                     [[-1, 0, 1, 0.5, -1.5]]]])],
     dtype="float32")

# --------------------------------------------------------------------------- SpatialTransformer
_LOC = np.array([[0.9, 0.1, 0.05, -0.1, 1.1, 0.02], [0.7, -0.3, 0.2, 0.25, 0.8, -0.1]])
case("st.affine", "SpatialTransformer", [_rand(2, 3, 5, 6, seed=90), _LOC], target_shape=(4, 3),
     transform_type="affine", sampler_type="bilinear")
case("st.affine.f32", "SpatialTransformer", [_rand(2, 2, 4, 4, seed=91), _LOC], dtype="float32",
     target_shape=(6, 5), transform_type="affine", sampler_type="bilinear")


# ------------------------------------------------------------------------------------ running
def head_grad(shape, dtype, seed=1000):
    return np.random.RandomState(seed).normal(size=shape).astype(dtype)


def run_case(mx, c: Case, inputs=None, head=None):
    """Run one case with mxnet module ``mx``: (output, head, input gradients) as NumPy."""
    inputs = [np.asarray(x, dtype=c.dtype) for x in (c.inputs if inputs is None else inputs)]
    xs = [mx.nd.array(x, dtype=c.dtype) for x in inputs]
    for x in xs:
        x.attach_grad()
    fn = getattr(mx.nd, c.op)
    with mx.autograd.record():
        out = fn(*xs, **c.kwargs)
    if head is None:
        head = head_grad(out.shape, c.dtype)
    out.backward(mx.nd.array(head, dtype=c.dtype))
    return out.asnumpy(), head, [x.grad.asnumpy() for x in xs]


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in CASES:
        out, head, grads = run_case(mx, c)
        for i, x in enumerate(c.inputs):
            arrays[f"{c.id}/in{i}"] = np.asarray(x, dtype=c.dtype)
        arrays[f"{c.id}/out0"] = out
        arrays[f"{c.id}/head0"] = head
        for i, g in enumerate(grads):
            arrays[f"{c.id}/grad{i}"] = g
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ}")


if __name__ == "__main__":
    main()
