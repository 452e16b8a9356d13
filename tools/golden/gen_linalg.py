"""Record forward outputs and autograd gradients of dot, batch_dot and mx.nd.linalg.* under 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_linalg.py

For every entry of ``CASES`` it builds the inputs (deterministic NumPy data), records
``fn(*inputs, **kwargs)`` under autograd, runs backward with a fixed head gradient per
output and writes ``tests/golden/linalg.npz`` with, per case ``<id>``:

* ``<id>/in<i>``   -- the inputs (already cast to the case dtype),
* ``<id>/head<j>`` -- the head gradient of output j,
* ``<id>/out<j>``  -- output j,
* ``<id>/grad<i>`` -- the gradient of input i.

``tests/operator/test_linalg.py`` imports this module (it must stay importable without
mxnet) and replays every case against this repository's mxnet from the stored inputs.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "linalg.npz"


@dataclass
class Case:
    """One call ``mx.nd.<op>(*inputs, **kwargs)``; ``op`` is a dotted path below mx.nd."""

    id: str
    op: str
    inputs: list
    kwargs: dict = field(default_factory=dict)
    dtype: str = "float64"


def _rand(*shape, seed=0):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape)


def _spd(*shape, seed=0):
    """Symmetric positive definite matrices (batched over the leading axes)."""
    x = _rand(*shape, seed=seed)
    n = shape[-1]
    return x @ np.swapaxes(x, -1, -2) + n * np.eye(n)


def _cond(*shape, seed=0):
    """Well-conditioned (not triangular, not symmetric) square matrices."""
    return _rand(*shape, seed=seed) + shape[-1] * np.eye(shape[-1])


def _chol(*shape, seed=0):
    return np.linalg.cholesky(_spd(*shape, seed=seed))


def _sym(*shape, seed=0):
    x = _rand(*shape, seed=seed)
    return x + np.swapaxes(x, -1, -2) + np.diag(np.arange(shape[-1]) * 1.5)


CASES: list[Case] = []


def case(cid, op, inputs, dtype="float64", **kwargs):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    CASES.append(Case(cid, op, inputs, kwargs, dtype))


# ----------------------------------------------------------------------- dot, batch_dot
case("dot.2d", "dot", [_rand(2, 3), _rand(3, 4, seed=1)])
case("dot.ta", "dot", [_rand(3, 2), _rand(3, 4, seed=1)], transpose_a=True)
case("dot.tb", "dot", [_rand(2, 3), _rand(4, 3, seed=1)], transpose_b=True)
case("dot.ta_tb", "dot", [_rand(3, 2), _rand(4, 3, seed=1)], transpose_a=True, transpose_b=True)
case("dot.1d_1d", "dot", [_rand(3), _rand(3, seed=1)])
case("dot.2d_1d", "dot", [_rand(2, 3), _rand(3, seed=1)])
case("dot.1d_2d", "dot", [_rand(2), _rand(2, 3, seed=1)])
case("dot.1d_2d_ta", "dot", [_rand(2), _rand(2, 3, seed=1)], transpose_a=True)
case("dot.1d_2d_tb", "dot", [_rand(3), _rand(2, 3, seed=1)], transpose_b=True)
case("dot.3d_2d", "dot", [_rand(2, 2, 3), _rand(3, 2, seed=1)])
case("dot.3d_3d", "dot", [_rand(2, 3, 4), _rand(4, 3, 2, seed=1)])
case("dot.3d_2d_ta", "dot", [_rand(2, 3, 4), _rand(2, 5, seed=1)], transpose_a=True)
case("dot.3d_2d_tb", "dot", [_rand(2, 3, 4), _rand(5, 4, seed=1)], transpose_b=True)
case("dot.3d_3d_ta_tb", "dot", [_rand(2, 3, 4), _rand(3, 5, 2, seed=1)],
     transpose_a=True, transpose_b=True)
case("dot.float32", "dot", [_rand(2, 3), _rand(3, 4, seed=1)], dtype="float32")
case("batch_dot.basic", "batch_dot", [_rand(2, 2, 3), _rand(2, 3, 4, seed=1)])
case("batch_dot.ta", "batch_dot", [_rand(2, 3, 2), _rand(2, 3, 4, seed=1)], transpose_a=True)
case("batch_dot.tb", "batch_dot", [_rand(2, 2, 3), _rand(2, 4, 3, seed=1)], transpose_b=True)
case("batch_dot.ta_tb", "batch_dot", [_rand(2, 3, 2), _rand(2, 4, 3, seed=1)],
     transpose_a=True, transpose_b=True)
case("batch_dot.4d", "batch_dot", [_rand(2, 2, 2, 3), _rand(2, 2, 3, 2, seed=1)])
case("batch_dot.float32", "batch_dot", [_rand(3, 2, 3), _rand(3, 3, 2, seed=1)], dtype="float32")

# ------------------------------------------------------------------------ gemm, gemm2
_A, _B, _C = _rand(2, 3), _rand(3, 4, seed=1), _rand(2, 4, seed=2)
case("gemm.basic", "linalg.gemm", [_A, _B, _C])
case("gemm.alpha_beta", "linalg.gemm", [_A, _B, _C], alpha=2.0, beta=-0.5)
case("gemm.beta0", "linalg.gemm", [_A, _B, _C], beta=0.0)
case("gemm.ta", "linalg.gemm", [_A.T.copy(), _B, _C], transpose_a=True)
case("gemm.tb", "linalg.gemm", [_A, _B.T.copy(), _C], transpose_b=True, alpha=0.5)
case("gemm.ta_tb", "linalg.gemm", [_A.T.copy(), _B.T.copy(), _C], transpose_a=True,
     transpose_b=True)
case("gemm.batched", "linalg.gemm", [_rand(2, 2, 3), _rand(2, 3, 2, seed=1),
                                     _rand(2, 2, 2, seed=2)], alpha=1.5, beta=2.0)
case("gemm.axis1", "linalg.gemm", [_rand(2, 3, 4, 5), _rand(2, 6, 4, 5, seed=1),
                                   _rand(2, 3, 4, 6, seed=2)], axis=1, transpose_b=True)
case("gemm.axis0_ta", "linalg.gemm", [_rand(3, 2, 4), _rand(3, 2, 5, seed=1),
                                      _rand(4, 2, 5, seed=2)], axis=0, transpose_a=True)
case("gemm.float32", "linalg.gemm", [_A, _B, _C], dtype="float32", alpha=-1.0)
case("gemm2.basic", "linalg.gemm2", [_A, _B])
case("gemm2.alpha", "linalg.gemm2", [_A, _B], alpha=-2.0)
case("gemm2.ta", "linalg.gemm2", [_A.T.copy(), _B], transpose_a=True)
case("gemm2.tb", "linalg.gemm2", [_A, _B.T.copy()], transpose_b=True)
case("gemm2.ta_tb", "linalg.gemm2", [_A.T.copy(), _B.T.copy()], transpose_a=True,
     transpose_b=True, alpha=3.0)
case("gemm2.batched", "linalg.gemm2", [_rand(3, 2, 2), _rand(3, 2, 2, seed=1)], transpose_b=True)
case("gemm2.4d", "linalg.gemm2", [_rand(2, 2, 2, 3), _rand(2, 2, 3, 1, seed=1)])
case("gemm2.axis1", "linalg.gemm2", [_rand(2, 3, 4, 5), _rand(2, 6, 4, 5, seed=1)], axis=1,
     transpose_b=True)
case("gemm2.axis_neg3", "linalg.gemm2", [_rand(2, 3, 4), _rand(2, 3, 5, seed=1)], axis=-3,
     transpose_a=True)
case("gemm2.float32", "linalg.gemm2", [_A, _B], dtype="float32")

# ------------------------------------------------------------------------ Cholesky
case("potrf.2d", "linalg.potrf", [_spd(3, 3)])
case("potrf.batched", "linalg.potrf", [_spd(2, 3, 3, seed=1)])
case("potrf.upper", "linalg.potrf", [_spd(3, 3, seed=2)], lower=False)
case("potrf.float32", "linalg.potrf", [_spd(3, 3, seed=3)], dtype="float32")
case("potri.2d", "linalg.potri", [_chol(3, 3)])
case("potri.batched", "linalg.potri", [_chol(2, 3, 3, seed=1)])
case("potri.upper", "linalg.potri", [np.swapaxes(_chol(3, 3, seed=2), -1, -2).copy()], lower=False)
case("potri.full_input", "linalg.potri", [_cond(3, 3, seed=4)])

# ------------------------------------------------------------------------ trsm, trmm
_T, _TB3, _TB2 = _cond(3, 3, seed=5), _rand(3, 2, seed=6), _rand(2, 3, seed=7)
for _op in ("trsm", "trmm"):
    case(f"{_op}.basic", f"linalg.{_op}", [_T, _TB3])
    case(f"{_op}.alpha", f"linalg.{_op}", [_T, _TB3], alpha=2.0)
    case(f"{_op}.transpose", f"linalg.{_op}", [_T, _TB3], transpose=True)
    case(f"{_op}.rightside", f"linalg.{_op}", [_T, _TB2], rightside=True)
    case(f"{_op}.upper", f"linalg.{_op}", [_T, _TB3], lower=False)
    case(f"{_op}.right_transpose", f"linalg.{_op}", [_T, _TB2], rightside=True, transpose=True,
         alpha=0.5)
    case(f"{_op}.right_upper_transpose", f"linalg.{_op}", [_T, _TB2], rightside=True,
         transpose=True, lower=False, alpha=-1.5)
    case(f"{_op}.batched", f"linalg.{_op}", [_cond(2, 3, 3, seed=8), _rand(2, 3, 2, seed=9)])
    case(f"{_op}.float32", f"linalg.{_op}", [_T, _TB3], dtype="float32", lower=False)

# ------------------------------------------------------------------------ syrk, gelqf, syevd
case("syrk.basic", "linalg.syrk", [_A])
case("syrk.transpose_alpha", "linalg.syrk", [_A], transpose=True, alpha=0.5)
case("syrk.batched", "linalg.syrk", [_rand(2, 2, 3, seed=3)], alpha=-1.0)
case("gelqf.2d", "linalg.gelqf", [_rand(2, 4, seed=10)])
case("gelqf.square", "linalg.gelqf", [_cond(3, 3, seed=11)])
case("gelqf.batched", "linalg.gelqf", [_rand(2, 2, 3, seed=12)])
case("gelqf.float32", "linalg.gelqf", [_rand(2, 3, seed=13)], dtype="float32")
case("syevd.2d", "linalg.syevd", [_sym(3, 3, seed=14)])
case("syevd.batched", "linalg.syevd", [_sym(2, 3, 3, seed=15)])
case("syevd.float32", "linalg.syevd", [_sym(4, 4, seed=16)], dtype="float32")

# ------------------------------------------------------------------------ inverse, det, ...
case("inverse.2d", "linalg.inverse", [_cond(3, 3, seed=17)])
case("inverse.batched", "linalg.inverse", [_cond(2, 3, 3, seed=18)])
case("det.2d", "linalg.det", [_cond(3, 3, seed=19)])
case("det.negative", "linalg.det", [-_cond(3, 3, seed=20)])
case("det.batched", "linalg.det", [_cond(2, 2, 2, seed=21)])
case("slogdet.2d", "linalg.slogdet", [_cond(3, 3, seed=22)])
case("slogdet.negative", "linalg.slogdet", [-_cond(3, 3, seed=23)])
case("slogdet.batched", "linalg.slogdet", [_cond(2, 2, 2, seed=24)])
case("sumlogdiag.2d", "linalg.sumlogdiag", [_spd(3, 3, seed=25)])
case("sumlogdiag.batched", "linalg.sumlogdiag", [_spd(2, 3, 3, seed=26)])

# ------------------------------------------------------------------------ diagonals, triangles
_S4, _S4B = _rand(4, 4, seed=27), _rand(2, 3, 3, seed=28)
case("extractdiag.0", "linalg.extractdiag", [_S4])
case("extractdiag.pos", "linalg.extractdiag", [_S4], offset=2)
case("extractdiag.neg", "linalg.extractdiag", [_S4], offset=-1)
case("extractdiag.batched", "linalg.extractdiag", [_S4B], offset=1)
case("makediag.0", "linalg.makediag", [_rand(3, seed=29)])
case("makediag.pos", "linalg.makediag", [_rand(3, seed=29)], offset=2)
case("makediag.neg", "linalg.makediag", [_rand(2, 3, seed=30)], offset=-1)
case("extracttrian.lower", "linalg.extracttrian", [_S4])
case("extracttrian.upper", "linalg.extracttrian", [_S4], lower=False)
case("extracttrian.pos", "linalg.extracttrian", [_S4], offset=1)
case("extracttrian.neg", "linalg.extracttrian", [_S4], offset=-2, lower=False)
case("extracttrian.batched", "linalg.extracttrian", [_S4B], lower=False)
case("maketrian.lower", "linalg.maketrian", [_rand(6, seed=31)])
case("maketrian.upper", "linalg.maketrian", [_rand(6, seed=31)], lower=False)
case("maketrian.pos", "linalg.maketrian", [_rand(6, seed=31)], offset=1)
case("maketrian.neg", "linalg.maketrian", [_rand(3, seed=32)], offset=-2)
case("maketrian.batched", "linalg.maketrian", [_rand(2, 3, seed=33)], lower=False)


# ------------------------------------------------------------------------ running
def head_grads(outputs_shapes, dtype):
    """The fixed head gradient of each output."""
    return [np.random.RandomState(1000 + j).normal(size=s).astype(dtype)
            for j, s in enumerate(outputs_shapes)]


def resolve(nd, path):
    fn = nd
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def run_case(mx, c: Case, inputs=None, heads=None):
    """Run one case with mxnet module ``mx``: (outputs, heads, input gradients) as NumPy."""
    inputs = [np.asarray(x, dtype=c.dtype) for x in (c.inputs if inputs is None else inputs)]
    xs = [mx.nd.array(x, dtype=c.dtype) for x in inputs]
    for x in xs:
        x.attach_grad()
    fn = resolve(mx.nd, c.op)
    with mx.autograd.record():
        out = fn(*xs, **c.kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if heads is None:
        heads = head_grads([o.shape for o in outs], c.dtype)
    mx.autograd.backward(outs, [mx.nd.array(h, dtype=c.dtype) for h in heads])
    return [o.asnumpy() for o in outs], heads, [x.grad.asnumpy() for x in xs]


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in CASES:
        outs, heads, grads = run_case(mx, c)
        for i, x in enumerate(c.inputs):
            arrays[f"{c.id}/in{i}"] = np.asarray(x, dtype=c.dtype)
        for j, (o, h) in enumerate(zip(outs, heads)):
            arrays[f"{c.id}/out{j}"] = o
            arrays[f"{c.id}/head{j}"] = h
        for i, g in enumerate(grads):
            arrays[f"{c.id}/grad{i}"] = g
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ}")


if __name__ == "__main__":
    main()
