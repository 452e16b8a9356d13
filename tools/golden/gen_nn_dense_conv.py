"""Record forward outputs and autograd gradients of FullyConnected, Convolution and
Deconvolution under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_nn_dense_conv.py

For every entry of ``CASES`` it builds the inputs (deterministic NumPy data), records
``mx.nd.<op>(*inputs, **kwargs)`` under autograd, runs backward with a fixed head gradient
and writes ``tests/golden/nn_dense_conv.npz`` with, per case ``<id>``: ``<id>/in<i>`` (the
inputs), ``<id>/head0``, ``<id>/out0`` and ``<id>/grad<i>`` (the gradient of input i).

Cases marked ``native`` run in a second reference process with ``MXNET_MKLDNN_ENABLED=0``:
1.9.1's oneDNN deconvolution rejects the output adjustment that ``target_shape`` derives
("could not create a descriptor for a dilated deconvolution"), while its own kernels
handle it. Conversely 3-D Deconvolution exists only through oneDNN.

``tests/operator/test_nn_dense_conv.py`` imports this module (it must stay importable
without mxnet) and replays every case against this repository's mxnet.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "nn_dense_conv.npz"


@dataclass
class Case:
    """One call ``mx.nd.<op>(*inputs, **kwargs)``."""

    id: str
    op: str
    inputs: list
    kwargs: dict = field(default_factory=dict)
    dtype: str = "float64"
    native: bool = False


def _rand(*shape, seed=0):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape)


CASES: list[Case] = []


def case(cid, op, shapes, dtype="float64", native=False, **kwargs):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    inputs = [_rand(*s, seed=i) for i, s in enumerate(shapes)]
    CASES.append(Case(cid, op, inputs, kwargs, dtype, native))


# ------------------------------------------------------------------------ FullyConnected
FC = "FullyConnected"
case("fc.2d", FC, [(3, 4), (5, 4), (5,)], num_hidden=5)
case("fc.flatten_3d", FC, [(2, 3, 4), (5, 12), (5,)], num_hidden=5)
case("fc.no_bias", FC, [(2, 3, 2), (4, 6)], num_hidden=4, no_bias=True)
case("fc.no_flatten_3d", FC, [(2, 3, 4), (5, 4), (5,)], num_hidden=5, flatten=False)
case("fc.no_flatten_4d_no_bias", FC, [(2, 2, 3, 4), (3, 4)], num_hidden=3, flatten=False,
     no_bias=True)
case("fc.1d", FC, [(4,), (3, 1), (3,)], num_hidden=3)
case("fc.1d_no_flatten", FC, [(4,), (3, 4), (3,)], num_hidden=3, flatten=False)
case("fc.float32", FC, [(8, 16), (10, 16), (10,)], dtype="float32", num_hidden=10)

# ------------------------------------------------------------------------ Convolution
CV = "Convolution"
case("conv1d.basic", CV, [(2, 3, 9), (4, 3, 3), (4,)], kernel=(3,), num_filter=4)
case("conv1d.stride_dilate_pad", CV, [(2, 3, 11), (4, 3, 3), (4,)], kernel=(3,), stride=(2,),
     dilate=(2,), pad=(1,), num_filter=4)
case("conv1d.group", CV, [(2, 4, 7), (6, 2, 2), (6,)], kernel=(2,), num_filter=6, num_group=2)
case("conv2d.basic", CV, [(2, 3, 6, 7), (4, 3, 3, 3), (4,)], kernel=(3, 3), num_filter=4)
case("conv2d.pad", CV, [(2, 3, 5, 5), (4, 3, 3, 3), (4,)], kernel=(3, 3), pad=(1, 1),
     num_filter=4)
case("conv2d.asym", CV, [(2, 3, 9, 8), (5, 3, 3, 2), (5,)], kernel=(3, 2), stride=(2, 1),
     dilate=(1, 2), pad=(2, 0), num_filter=5)
case("conv2d.stride3_no_bias", CV, [(1, 2, 10, 11), (3, 2, 4, 3)], kernel=(4, 3),
     stride=(3, 3), num_filter=3, no_bias=True)
case("conv2d.group", CV, [(2, 4, 6, 6), (6, 2, 3, 3), (6,)], kernel=(3, 3), pad=(1, 1),
     num_filter=6, num_group=2)
case("conv2d.depthwise", CV, [(2, 4, 6, 5), (4, 1, 3, 3), (4,)], kernel=(3, 3), pad=(1, 1),
     num_filter=4, num_group=4)
case("conv2d.depthwise_mult2", CV, [(2, 3, 5, 5), (6, 1, 3, 3), (6,)], kernel=(3, 3),
     stride=(2, 2), num_filter=6, num_group=3)
case("conv2d.1x1", CV, [(2, 4, 5, 5), (3, 4, 1, 1), (3,)], kernel=(1, 1), num_filter=3)
case("conv2d.1x1_stride2", CV, [(2, 4, 5, 5), (3, 4, 1, 1), (3,)], kernel=(1, 1),
     stride=(2, 2), num_filter=3)
case("conv2d.pad_exceeds_kernel", CV, [(2, 2, 3, 3), (3, 2, 3, 3), (3,)], kernel=(3, 3),
     pad=(3, 2), num_filter=3)
case("conv2d.large_image", CV, [(2, 2, 32, 33), (3, 2, 3, 3), (3,)], kernel=(3, 3),
     pad=(1, 1), num_filter=3)
case("conv2d.float32", CV, [(4, 8, 9, 9), (16, 8, 3, 3), (16,)], dtype="float32",
     kernel=(3, 3), pad=(1, 1), num_filter=16)
case("conv3d.basic", CV, [(2, 2, 4, 5, 4), (3, 2, 2, 3, 2), (3,)], kernel=(2, 3, 2),
     num_filter=3)
case("conv3d.stride_pad_group", CV, [(1, 4, 5, 6, 5), (4, 2, 3, 2, 3), (4,)],
     kernel=(3, 2, 3), stride=(2, 1, 2), dilate=(1, 2, 1), pad=(1, 1, 0), num_filter=4,
     num_group=2)

# ------------------------------------------------------------------------ Deconvolution
DC = "Deconvolution"
case("deconv1d.basic", DC, [(2, 3, 5), (3, 4, 3)], kernel=(3,), num_filter=4)
# 1.9.1's own (non-oneDNN) Deconvolution kernels, used for float64, get dilate > 1 wrong:
# the output repeats neighbouring values. Dilated cases therefore run in float32 (oneDNN),
# which agrees with the definition (and with cuDNN / PyTorch).
case("deconv1d.stride_adj", DC, [(2, 3, 5), (3, 4, 3), (4,)], dtype="float32", kernel=(3,),
     stride=(3,), dilate=(2,), pad=(2,), adj=(1,), num_filter=4, no_bias=False)
case("deconv2d.basic", DC, [(2, 3, 4, 5), (3, 2, 3, 3)], kernel=(3, 3), num_filter=2)
case("deconv2d.bias", DC, [(2, 3, 4, 5), (3, 2, 3, 3), (2,)], kernel=(3, 3), pad=(1, 1),
     num_filter=2, no_bias=False)
case("deconv2d.stride_pad_adj", DC, [(2, 3, 4, 4), (3, 2, 3, 3), (2,)], kernel=(3, 3),
     stride=(2, 2), pad=(1, 1), adj=(1, 1), num_filter=2, no_bias=False)
case("deconv2d.asym", DC, [(1, 2, 4, 3), (2, 3, 3, 2)], dtype="float32", kernel=(3, 2),
     stride=(2, 3), dilate=(1, 2), pad=(1, 0), adj=(1, 2), num_filter=3)
case("deconv2d.group", DC, [(2, 4, 3, 4), (4, 3, 3, 3)], kernel=(3, 3), stride=(2, 2),
     num_filter=6, num_group=2)
case("deconv2d.depthwise", DC, [(2, 3, 4, 4), (3, 1, 3, 3)], kernel=(3, 3), pad=(1, 1),
     num_filter=3, num_group=3)
case("deconv2d.pad_exceeds_kernel", DC, [(2, 3, 5, 5), (3, 2, 3, 3)], kernel=(3, 3),
     pad=(3, 3), num_filter=2)
case("deconv2d.1x1", DC, [(2, 4, 3, 3), (4, 2, 1, 1)], kernel=(1, 1), num_filter=2)
case("deconv2d.target_shape", DC, [(2, 3, 5, 5), (3, 2, 3, 3)], native=True, kernel=(3, 3),
     stride=(2, 2), target_shape=(10, 9), num_filter=2)
case("deconv2d.target_shape_small", DC, [(1, 2, 5, 5), (2, 2, 3, 3), (2,)], native=True,
     kernel=(3, 3), stride=(2, 2), pad=(7, 7), adj=(1, 1), target_shape=(4, 6), num_filter=2,
     no_bias=False)
case("deconv2d.target_shape_full", DC, [(1, 2, 3, 3), (2, 2, 3, 3)], kernel=(3, 3),
     stride=(2, 2), target_shape=(7, 7), num_filter=2)
case("deconv2d.float32", DC, [(4, 8, 6, 6), (8, 4, 4, 4), (4,)], dtype="float32",
     kernel=(4, 4), stride=(2, 2), pad=(1, 1), num_filter=4, no_bias=False)
# 3-D Deconvolution exists in 1.9.1 only through oneDNN, which has no float64
case("deconv3d.basic", DC, [(2, 2, 3, 4, 3), (2, 3, 2, 3, 2)], dtype="float32", kernel=(2, 3, 2),
     stride=(2, 1, 2), num_filter=3)
case("deconv3d.pad_adj_bias", DC, [(1, 2, 3, 3, 3), (2, 2, 3, 3, 3), (2,)], dtype="float32",
     kernel=(3, 3, 3),
     stride=(2, 2, 2), pad=(1, 1, 1), adj=(1, 0, 1), num_filter=2, no_bias=False)


# ------------------------------------------------------------------------ running
def head_grad(shape, dtype):
    """The fixed head gradient of the output."""
    return np.random.RandomState(1000).normal(size=shape).astype(dtype)


def run_case(mx, c: Case, inputs=None, head=None):
    """Run one case with mxnet module ``mx``: (output, head, input gradients) as NumPy."""
    inputs = [np.asarray(x, dtype=c.dtype) for x in (c.inputs if inputs is None else inputs)]
    xs = [mx.nd.array(x, dtype=c.dtype) for x in inputs]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        out = getattr(mx.nd, c.op)(*xs, **c.kwargs)
    if head is None:
        head = head_grad(out.shape, c.dtype)
    out.backward(mx.nd.array(head, dtype=c.dtype))
    return out.asnumpy(), head, [x.grad.asnumpy() for x in xs]


def _record(cases):
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in cases:
        out, head, grads = run_case(mx, c)
        for i, x in enumerate(c.inputs):
            arrays[f"{c.id}/in{i}"] = np.asarray(x, dtype=c.dtype)
        arrays[f"{c.id}/out0"] = out
        arrays[f"{c.id}/head0"] = head
        for i, g in enumerate(grads):
            arrays[f"{c.id}/grad{i}"] = g
    return arrays


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--native":
        np.savez(sys.argv[2], **_record([c for c in CASES if c.native]))
        return
    arrays = _record([c for c in CASES if not c.native])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "native.npz")
        env = dict(os.environ, MXNET_MKLDNN_ENABLED="0", MXNET_ENGINE_TYPE="NaiveEngine",
                   MXNET_STORAGE_FALLBACK_LOG_VERBOSE="0")
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--native", path],
                       cwd=tmp, env=env, check=True)
        with np.load(path) as npz:
            arrays.update({k: npz[k] for k in npz.files})
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ}")


if __name__ == "__main__":
    main()
