"""Golden values from MXNet 1.9.1 for the mx.npx names mxnet-py added later: the operator front
ends (arange_like, cast, deconvolution, erfinv, gammaln, gather_nd, multibox_*, nonzero,
reshape_like, rnn, roi_pooling, shape_array, slice, smooth_l1, npx.image.*), softmax with a
``length`` mask, their gradients under fixed head gradients, the errors 1.9.1 raises and
the shapes / dtypes of npx.random.bernoulli / normal_n / uniform_n.

Run under the reference venv, outside the checkout:
    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_npx_gaps.py
Writes tests/golden/npx_gaps.npz (arrays) and tests/golden/npx_gaps.json (dtypes, error
classes, sampler shapes); tests/test_np/test_npx_gaps.py reads both. The case table is
tools/golden/npx_gaps_cases.py, shared with the test.
"""
import json
import os
import sys

import numpy as onp

import mxnet as mx
from mxnet import autograd, np, npx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from npx_gaps_cases import cases, error_cases, random_cases, run  # noqa: E402

npx.set_np()
OUT = os.path.join(HERE, "..", "..", "tests", "golden")
arrays, meta = {}, {"dtypes": {}, "errors": {}, "random": {}}


def heads_for(key, outs):
    rs = onp.random.RandomState(len(key))
    return [rs.randn(*o.shape).astype(o.dtype) for o in outs]


for key, (fn, inputs, diff) in cases(np, npx).items():
    xs, outs, heads = run(np, autograd, fn, inputs, diff, lambda outs: heads_for(key, outs))
    for i, a in enumerate(inputs):
        arrays[f"{key}:in{i}"] = a
    for j, o in enumerate(outs):
        arrays[f"{key}:out{j}"] = o.asnumpy()
    for i in diff:
        arrays[f"{key}:grad{i}"] = xs[i].grad.asnumpy()
    if diff:
        for j, h in enumerate(heads):
            arrays[f"{key}:head{j}"] = h.asnumpy()
    meta["dtypes"][key] = [str(o.dtype) for o in outs]

for key, (fn, inputs) in error_cases(np, npx).items():
    try:
        fn(*[np.array(a, dtype=a.dtype) for a in inputs])
        meta["errors"][key] = None
    except Exception as e:  # noqa: BLE001
        meta["errors"][key] = type(e).__name__
    for i, a in enumerate(inputs):
        arrays[f"err:{key}:in{i}"] = a

for key, (fn, inputs) in random_cases(np, npx).items():
    r = fn(*[np.array(a, dtype=a.dtype) for a in inputs])
    v = r.asnumpy()
    meta["random"][key] = {"shape": list(r.shape), "dtype": str(r.dtype),
                           "binary": bool(onp.isin(v, [0, 1]).all())}
    for i, a in enumerate(inputs):
        arrays[f"rnd:{key}:in{i}"] = a

meta["mxnet_version"] = mx.__version__
onp.savez_compressed(os.path.join(OUT, "npx_gaps.npz"), **arrays)
with open(os.path.join(OUT, "npx_gaps.json"), "w") as f:
    json.dump(meta, f, indent=1, sort_keys=True)
print(len(arrays), "arrays;", meta["errors"])
