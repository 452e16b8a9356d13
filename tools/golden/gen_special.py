"""Record 1.9.1's forward values (and some gradients) of gamma, gammaln, erf and erfinv.

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_special.py

It writes ``tests/golden/special.npz`` with, for every operator ``op`` and input dtype ``dt``
in ``DTYPES[op]``:

* ``<op>/<dt>/x`` -- the inputs (``grid(op)`` cast to ``dt``; integer grids are separate),
* ``<op>/<dt>/y`` -- ``mx.nd.<op>(x)`` as computed by 1.9.1,

and, for every operator, on a float64 grid where the functions are smooth:

* ``<op>/grad/x`` and ``<op>/grad/dx`` -- the input and 1.9.1's autograd gradient of
  ``sum(op(x))``.

``tests/operator/test_special.py`` replays the stored inputs against this repository.
This module stays importable without mxnet.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "special.npz"

OPS = ("gamma", "gammaln", "erf", "erfinv")
FLOAT_DTYPES = ("float16", "float32", "float64")
INT_DTYPES = ("int32", "int64", "uint8", "int8")
INF, NAN = float("inf"), float("nan")


def _rng(seed):
    return np.random.RandomState(seed)


def grid(op):
    """The float64 input grid of one operator: special values, edges and random samples."""
    if op in ("gamma", "gammaln"):
        fixed = [-INF, -1e17, -200.5, -180.5, -177.5, -171.5, -170.5, -100.3, -50.0, -20.7, -3.3,
                 -3.0, -2.5, -2.0, -1.5, -1.0, -0.75, -0.5, -0.25, -1e-10, -1e-300, -0.0, 0.0,
                 1e-300, 1e-40, 1e-10, 1e-3, 0.1, 0.25, 0.5, 0.9, 1.0, 1.0 + 1e-8, 1.2, 1.4616321,
                 1.5, 1.9, 2.0, 2.0 - 1e-9, 2.2, 2.5, 3.0, 3.7, 5.0, 10.0, 12.0, 15.5, 23.5, 23.9,
                 24.0, 24.1, 30.5, 34.9, 35.1, 50.5, 100.0, 150.25, 170.0, 171.0, 171.6, 171.7,
                 172.0, 1e3, 1e10, 1e30, 1e300, INF, NAN]
        rnd = [_rng(1).uniform(-30.0, 30.0, 120), _rng(2).uniform(0.0, 171.5, 60),
               _rng(3).uniform(-170.0, 0.0, 60), 10.0 ** _rng(4).uniform(-12.0, 0.0, 20)]
        x = np.concatenate([np.array(fixed)] + rnd)
        if op == "gammaln":
            x = np.concatenate([x, 10.0 ** _rng(5).uniform(0.0, 300.0, 30),
                                -(10.0 ** _rng(6).uniform(0.0, 12.0, 20)) - 0.5])
        return x
    if op == "erf":
        fixed = [-INF, -30.0, -6.0, -5.9, -3.0, -2.5, -1.0, -0.5, -1e-300, -0.0, 0.0, 1e-310,
                 1e-20, 1e-8, 0.1, 0.3, 0.5, 0.9, 1.0, 2.0, 2.49, 2.5, 2.51, 3.5, 4.0, 5.0, 5.8,
                 5.9, 6.0, 27.0, 1e300, INF, NAN]
        return np.concatenate([np.array(fixed), _rng(7).uniform(-6.0, 6.0, 200),
                               10.0 ** _rng(8).uniform(-15.0, 0.5, 30)])
    if op == "erfinv":
        fixed = [-INF, -2.0, -1.0, -(1 - 2.0 ** -52), -0.999999, -0.9, -0.5, -1e-300, -0.0, 0.0,
                 1e-310, 1e-20, 1e-8, 1e-3, 0.1, 0.3, 0.4999, 0.5, 0.5001, 0.7, 0.9, 0.99,
                 0.999999, 1 - 1e-12, 1 - 2.0 ** -50, 1 - 2.0 ** -52, 1.0, 1.0 + 2.0 ** -52, 2.0,
                 INF, NAN]
        tails = 1.0 - 10.0 ** -_rng(10).uniform(0.0, 15.5, 40)
        return np.concatenate([np.array(fixed), _rng(9).uniform(-1.0, 1.0, 200), tails, -tails])
    raise KeyError(op)


def int_grid(op):
    """Small integers; gamma stops at 12 (1.9.1's libm is a few ulp off the factorial above)."""
    if op == "gamma":
        return np.arange(-4, 13)
    if op == "gammaln":
        return np.concatenate([np.arange(-4, 13), [20, 50, 100, 126, 127]])
    return np.arange(-4, 5)


def grad_grid(op):
    """Float64 points where the function is smooth and 1.9.1's gradient is accurate."""
    if op == "gamma":
        return np.concatenate([_rng(11).uniform(0.2, 20.0, 40), -3.3 + _rng(12).uniform(0, 0.6, 5),
                               [-0.5, -1.5, -2.5, 0.5, 1.0, 2.0, 150.25]])
    if op == "gammaln":
        return np.concatenate([_rng(13).uniform(0.2, 100.0, 40), -3.3 + _rng(14).uniform(0, 0.6, 5),
                               [-0.5, -1.5, -2.5, 0.5, 1.0, 2.0, 1e4]])
    if op == "erf":
        return np.concatenate([_rng(15).uniform(-4.0, 4.0, 40), [0.0, -0.0, 1.0, 30.0]])
    if op == "erfinv":
        return np.concatenate([_rng(16).uniform(-0.999, 0.999, 40), [0.0, 0.5, -0.9999]])
    raise KeyError(op)


def dtypes(op):
    return FLOAT_DTYPES + INT_DTYPES


def inputs(op, dtype):
    """The exact input array of one (op, dtype) pair."""
    if np.dtype(dtype).kind == "f":
        with np.errstate(all="ignore"):
            return grid(op).astype(dtype)
    return int_grid(op).astype(dtype)


def main():
    import mxnet as mx
    if not Path(mx.__file__).resolve().is_relative_to(REPO / ".ref"):
        sys.exit(f"run this with the reference MXNet 1.9.1, not {mx.__file__}")
    out = {}
    for op in OPS:
        fn = getattr(mx.nd, op)
        for dt in dtypes(op):
            x = inputs(op, dt)
            y = fn(mx.nd.array(x, dtype=dt)).asnumpy()
            assert y.dtype == np.dtype(dt), (op, dt, y.dtype)
            out[f"{op}/{dt}/x"] = x
            out[f"{op}/{dt}/y"] = y
        gx = grad_grid(op)
        a = mx.nd.array(gx, dtype="float64")
        a.attach_grad()
        with mx.autograd.record():
            b = fn(a)
        b.backward()
        out[f"{op}/grad/x"] = gx
        out[f"{op}/grad/dx"] = a.grad.asnumpy()
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **out)
    print(f"wrote {len(out)} arrays to {OUT_NPZ}")


if __name__ == "__main__":
    main()
