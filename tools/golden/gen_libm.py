"""Record 1.9.1's float32 results of its transcendental elementwise operators, bit for bit.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_libm.py

1.9.1's CPU kernels call glibc's float functions (expf, logf, sinf, tanhf, powf ...). It writes
``tests/golden/libm_f32.npz`` with, for every case ``name`` of ``CASES``:

* ``<name>/x`` (and ``<name>/b`` for the binary ones) -- 384 seeded float32 inputs,
* ``<name>/y`` -- 1.9.1's float32 output,
* ``<name>/dx`` -- for unary operators, the gradient of ``sum(op(x))`` under autograd,
* ``<name>/y16`` -- the output for the inputs cast to float16 (unary operators).

``tests/test_compat_sweep_libm.py`` replays the inputs against this repository.
This module stays importable without mxnet.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "libm_f32.npz"
N = 384

# name -> (low, high) of the uniform inputs
UNARY = {
    "exp": (-20, 20), "expm1": (-5, 5), "log": (1e-3, 100), "log2": (1e-3, 100),
    "log10": (1e-3, 100), "cbrt": (-100, 100), "rcbrt": (0.01, 100), "rsqrt": (1e-3, 100),
    "reciprocal": (0.01, 100), "sin": (-10, 10), "cos": (-10, 10), "tan": (-1.5, 1.5),
    "arcsin": (-1, 1), "arccos": (-1, 1), "arctan": (-10, 10), "cosh": (-10, 10),
    "tanh": (-20, 20), "sigmoid": (-20, 20), "degrees": (-10, 10), "radians": (-500, 500),
    "erf": (-4, 4), "erfinv": (-0.999, 0.999),
}
BINARY = ("power", "_power_scalar", "_rpower_scalar", "np_exp", "np_tanh", "np_log")


def inputs(name, seed):
    lo, hi = UNARY.get(name, (0.1, 5))
    return np.random.RandomState(seed).uniform(lo, hi, N).astype(np.float32)


def main():
    import mxnet as mx

    out = {}
    for i, name in enumerate(UNARY):
        x = inputs(name, 100 + i)
        a = mx.nd.array(x)
        a.attach_grad()
        with mx.autograd.record():
            y = getattr(mx.nd, name)(a)
        y.backward()
        out[f"{name}/x"] = x
        out[f"{name}/y"] = y.asnumpy()
        out[f"{name}/dx"] = a.grad.asnumpy()
        out[f"{name}/y16"] = getattr(mx.nd, name)(mx.nd.array(x, dtype="float16")).asnumpy()
    a = inputs("power", 200)
    b = np.random.RandomState(201).uniform(-3, 3, N).astype(np.float32)
    out["power/x"], out["power/b"] = a, b
    out["power/y"] = mx.nd.power(mx.nd.array(a), mx.nd.array(b)).asnumpy()
    out["_power_scalar/x"] = a
    out["_power_scalar/y"] = (mx.nd.array(a) ** 2.3).asnumpy()
    out["_rpower_scalar/x"] = b
    out["_rpower_scalar/y"] = (2.3 ** mx.nd.array(b)).asnumpy()
    for name in ("exp", "tanh", "log"):
        x = out[f"{name}/x"]
        out[f"np_{name}/x"] = x
        out[f"np_{name}/y"] = getattr(mx.np, name)(mx.np.array(x)).asnumpy()
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **out)
    print("wrote", OUT_NPZ, len(out), "arrays")


if __name__ == "__main__":
    main()
