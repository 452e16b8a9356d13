"""Record MXNet 1.9.1's image operators (``mx.nd.image.*``, registered as ``_image_*``):
outputs and gradients of deterministic calls, and the -symbol.json of a hybridized
transform pipeline.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_image_ops.py

The random operators are recorded with ``min_factor == max_factor`` (or a zero amount),
which makes their draw irrelevant. Gradients use a fixed head gradient per output.

Writes ``tests/golden/image_ops.npz`` (per case ``<id>``: ``in0``, ``out0``, ``head0`` and
``grad0`` where the case asks for the gradient) and ``tests/golden/image_ops.json``
(exported graphs by name). ``tests/operator/test_image_ops.py`` imports this module (it
stays importable without mxnet) and replays the cases.
"""
from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
OUT_NPZ = REPO / "tests" / "golden" / "image_ops.npz"
OUT_JSON = REPO / "tests" / "golden" / "image_ops.json"


@dataclass
class Case:
    id: str
    op: str                     # name under mx.nd.image
    x: np.ndarray
    dtype: str = "float32"
    kwargs: dict = field(default_factory=dict)
    grad: bool = False


def _img(h, w, c=3, seed=0, lo=0, hi=256):
    return np.random.RandomState(seed).randint(lo, hi, (h, w, c)).astype(np.float64)


def _unit(*shape, seed=0):
    return np.random.RandomState(seed).uniform(0, 1, shape)


CASES: list[Case] = []


def case(cid, op, x, **kw):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    CASES.append(Case(cid, op, x, **kw))


_HWC = _img(5, 6, seed=1)
_HWC1 = _img(4, 5, 1, seed=2)
_NHWC = np.stack([_img(4, 5, seed=3), _img(4, 5, seed=4)])
_ODD = np.array([[[300.0, -5.0, 2.5], [0.0, 255.0, 1e-3]]])

# -- to_tensor
for dt in ("uint8", "float32", "float64", "int32"):
    case(f"to_tensor.{dt}", "to_tensor", _HWC, dtype=dt)
case("to_tensor.batch", "to_tensor", _NHWC, dtype="uint8")
case("to_tensor.c1", "to_tensor", _HWC1, dtype="uint8")
case("to_tensor.odd", "to_tensor", _ODD)
case("to_tensor.float16", "to_tensor", _HWC, dtype="float16")

# -- normalize
_CHW = _unit(3, 4, 5, seed=5)
_MS = {"mean": (0.485, 0.456, 0.406), "std": (0.229, 0.224, 0.225)}
case("normalize.rgb", "normalize", _CHW, kwargs=_MS, grad=True)
case("normalize.scalar", "normalize", _CHW, kwargs={"mean": 0.5, "std": 0.25}, grad=True)
case("normalize.one", "normalize", _CHW, kwargs={"mean": (0.5,), "std": (2.0,)})
case("normalize.batch", "normalize", _unit(2, 3, 3, 4, seed=6),
     kwargs={"mean": (0.1, 0.2, 0.3), "std": (0.3, 0.2, 0.1)}, grad=True)
case("normalize.c1", "normalize", _unit(1, 3, 4, seed=7), kwargs={"mean": 0.2, "std": 3.0},
     grad=True)
case("normalize.float64", "normalize", _CHW, dtype="float64", kwargs=_MS, grad=True)
case("normalize.float16", "normalize", _CHW, dtype="float16", kwargs=_MS)
case("normalize.uint8", "normalize", _img(2, 4, 3, seed=8).transpose(2, 0, 1), dtype="uint8",
     kwargs={"mean": (100, 50, 20), "std": (2.0, 3.0, 0.7)})

# -- resize
_R = _img(9, 11, seed=9)
for dt in ("uint8", "float32", "float64"):
    for interp in (0, 1, 2, 3, 4):
        for w, h in ((5, 4), (17, 13)):
            case(f"resize.{dt}.{w}x{h}.i{interp}", "resize", _R, dtype=dt,
                 kwargs={"size": (w, h), "interp": interp})
case("resize.half", "resize", _img(8, 10, seed=10), dtype="uint8", kwargs={"size": (5, 4)})
case("resize.int", "resize", _R, dtype="uint8", kwargs={"size": 6})
case("resize.keep_wide", "resize", _R, dtype="uint8", kwargs={"size": 6, "keep_ratio": True})
case("resize.keep_tall", "resize", _R.transpose(1, 0, 2), dtype="float32",
     kwargs={"size": 4, "keep_ratio": True})
case("resize.keep_tuple", "resize", _R, kwargs={"size": (7, 3), "keep_ratio": True})
case("resize.batch", "resize", _NHWC, dtype="uint8", kwargs={"size": (3, 7), "interp": 2})
case("resize.c1", "resize", _HWC1, dtype="uint8", kwargs={"size": (3, 3)})
case("resize.c4", "resize", _img(5, 5, 4, seed=11), kwargs={"size": (8, 6)})
case("resize.i5_f32", "resize", _R, kwargs={"size": (5, 4), "interp": 5})

# -- crop
case("crop.f32", "crop", _HWC, kwargs={"x": 1, "y": 2, "width": 4, "height": 3}, grad=True)
case("crop.batch", "crop", _NHWC, kwargs={"x": 0, "y": 1, "width": 5, "height": 2}, grad=True)
case("crop.uint8", "crop", _HWC, dtype="uint8", kwargs={"x": 2, "y": 0, "width": 3, "height": 5})
case("crop.c1_f64", "crop", _HWC1, dtype="float64", kwargs={"x": 1, "y": 1, "width": 2,
                                                           "height": 2}, grad=True)

# -- flips (1.9.1's gradient passes the head gradient through unflipped). 1.9.1 leaves the
# middle row (top_bottom) or, with one channel, the middle column (left_right) of an odd-sized
# image unwritten, so the images here have an even height and width.
_EVEN = _img(4, 6, seed=13)
for op in ("flip_left_right", "flip_top_bottom"):
    case(f"{op}.f32", op, _EVEN, grad=True)
    case(f"{op}.uint8", op, _EVEN, dtype="uint8")
    case(f"{op}.c1", op, _img(4, 6, 1, seed=14), dtype="float64", grad=True)

# -- colour changes with a fixed factor
_C = _img(4, 5, seed=12)
for op in ("random_brightness", "random_contrast", "random_saturation", "random_hue"):
    for f in (0.4, 1.6):
        for dt in ("uint8", "float32", "float64"):
            case(f"{op}.{dt}.{f}", op, _C, dtype=dt,
                 kwargs={"min_factor": f, "max_factor": f}, grad=dt == "float32" and f == 0.4)
    if op != "random_hue":  # 1.9.1's hue leaves a one-channel output unwritten
        case(f"{op}.c1", op, _HWC1, dtype="float32",
             kwargs={"min_factor": 0.7, "max_factor": 0.7})
    case(f"{op}.float16", op, _C, dtype="float16", kwargs={"min_factor": 1.3, "max_factor": 1.3})
case("random_hue.zero", "random_hue", _C, kwargs={"min_factor": 0.0, "max_factor": 0.0})
_AL = {"alpha": (0.1, -0.2, 0.3)}
for dt in ("uint8", "float32", "float64"):
    case(f"adjust_lighting.{dt}", "adjust_lighting", _C, dtype=dt, kwargs=_AL,
         grad=dt == "float32")
case("adjust_lighting.big", "adjust_lighting", _C, dtype="uint8",
     kwargs={"alpha": (-2.0, 1.5, 0.5)})
case("random_lighting.zero", "random_lighting", _C, kwargs={"alpha_std": 0.0}, grad=True)
# (random_color_jitter with every amount 0 leaves 1.9.1's output unwritten: not recorded)


# -- running
def head_grad(shape, seed=100):
    return np.random.RandomState(seed).normal(size=shape).astype(np.float32)


def run_case(mx, c: Case, x=None, head=None):
    """(output, head gradient or None, input gradient or None) as NumPy arrays."""
    arr = mx.nd.array(np.asarray(c.x if x is None else x, dtype=c.dtype), dtype=c.dtype)
    fn = getattr(mx.nd.image, c.op)
    if not c.grad:
        return fn(arr, **c.kwargs).asnumpy(), None, None
    arr.attach_grad()
    with mx.autograd.record():
        out = fn(arr, **c.kwargs)
    if head is None:
        head = head_grad(out.shape).astype(out.dtype)
    out.backward(mx.nd.array(head, dtype=head.dtype))
    return out.asnumpy(), head, arr.grad.asnumpy()


# -- exported transform pipelines
def pipelines(mx):
    """name -> (hybrid block, input image), built the same way under either mxnet."""
    T = mx.gluon.data.vision.transforms
    nn = mx.gluon.nn
    aug = nn.HybridSequential(prefix="aug_")
    with aug.name_scope():
        aug.add(T.Resize(8), T.CropResize(1, 1, 6, 5, size=(4, 4), interpolation=1),
                T.CropResize(0, 0, 3, 3), T.RandomFlipLeftRight(), T.RandomFlipTopBottom(),
                T.RandomBrightness(0.1), T.RandomContrast(0.2), T.RandomSaturation(0.3),
                T.RandomHue(0.05), T.RandomColorJitter(0.1, 0.2, 0.3, 0.04),
                T.RandomLighting(0.1), T.Resize((6, 5), keep_ratio=True, interpolation=2),
                T.ToTensor(), T.Normalize((0.4, 0.5, 0.6), (0.2, 0.25, 0.3)),
                T.Cast("float64"))
    simple = nn.HybridSequential(prefix="simple_")
    with simple.name_scope():
        simple.add(T.Resize((6, 4)), T.ToTensor(), T.Normalize(0.5, 0.25))
    img = np.random.RandomState(20).randint(0, 256, (10, 12, 3)).astype(np.uint8)
    return {"aug": (aug, img), "simple": (simple, img)}


def export(mx, block, img, path):
    block.hybridize()
    block(mx.nd.array(img, dtype=img.dtype))
    block.export(path)
    return Path(f"{path}-symbol.json").read_text()


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in CASES:
        out, head, grad = run_case(mx, c)
        arrays[f"{c.id}/in0"] = np.asarray(c.x, dtype=c.dtype)
        arrays[f"{c.id}/out0"] = out
        if head is not None:
            arrays[f"{c.id}/head0"] = head
            arrays[f"{c.id}/grad0"] = grad
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    with tempfile.TemporaryDirectory() as tmp:
        graphs = {name: export(mx, b, img, f"{tmp}/{name}")
                  for name, (b, img) in pipelines(mx).items()}
    OUT_JSON.write_text(json.dumps(graphs, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ} and "
          f"{len(graphs)} graphs to {OUT_JSON}")


if __name__ == "__main__":
    main()
