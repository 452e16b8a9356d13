"""Golden values from MXNet 1.9.1 for the mx.np gaps closed later: gradients of np.linalg
(svd, cholesky, tensorinv, tensorsolve; the zero gradients of eigh/eigvalsh/eig/eigvals/pinv),
NumPy-rule ``matmul`` with 1-d operands (values, gradients, symbolic shapes) and the shapes /
dtypes / errors of np.random samplers given array-valued parameters.

Run under the reference venv, outside the checkout:
    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_numpy_gaps.py
Writes tests/golden/numpy_gaps.npz (arrays) and tests/golden/numpy_gaps.json (shapes, dtypes,
error kinds); tests/test_np/test_np_gaps.py reads both.
"""
import json
import os

import numpy as onp

import mxnet as mx
from mxnet import autograd, np, npx

npx.set_np()
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "golden")
rs = onp.random.RandomState(7)
arrays = {}
meta = {"linalg": [], "matmul": [], "random": {}}


def spd(shape, dtype):
    m = rs.randn(*shape)
    return (m @ onp.swapaxes(m, -1, -2) + shape[-1] * onp.eye(shape[-1])).astype(dtype)


def record_grad(key, fn, inputs, **kw):
    """Run fn under autograd with fixed random head gradients for each output."""
    xs = [np.array(x) for x in inputs]
    for x in xs:
        x.attach_grad()
    with autograd.record():
        outs = fn(*xs, **kw)
        outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
        heads = [onp.asarray(rs.randn(*o.shape), dtype=o.dtype) for o in outs]
        total = sum((o * np.array(h)).sum() for o, h in zip(outs, heads))
    total.backward()
    for i, x in enumerate(inputs):
        arrays[f"{key}/in{i}"] = x
        arrays[f"{key}/grad{i}"] = xs[i].grad.asnumpy()
    for i, (o, h) in enumerate(zip(outs, heads)):
        arrays[f"{key}/out{i}"] = o.asnumpy()
        arrays[f"{key}/head{i}"] = h
    meta["linalg"].append({"key": key, "fn": fn.__name__, "kw": kw, "n_in": len(inputs),
                           "n_out": len(outs)})


for dt in ("float32", "float64"):
    for shp in ((2, 3), (3, 3), (2, 2, 4), (1, 5)):
        record_grad(f"svd_{dt}_{'x'.join(map(str, shp))}", np.linalg.svd,
                    [rs.randn(*shp).astype(dt)])
    for shp in ((3, 3), (2, 4, 4)):
        record_grad(f"cholesky_{dt}_{'x'.join(map(str, shp))}", np.linalg.cholesky,
                    [spd(shp, dt)])
    record_grad(f"tensorinv_{dt}_ind1", np.linalg.tensorinv,
                [(rs.randn(4, 2, 2) + 2 * onp.eye(4).reshape(4, 2, 2)).astype(dt)], ind=1)
    record_grad(f"tensorinv_{dt}_ind2", np.linalg.tensorinv,
                [(rs.randn(2, 3, 6) + 2 * onp.eye(6).reshape(2, 3, 6)).astype(dt)], ind=2)
    record_grad(f"tensorsolve_{dt}", np.linalg.tensorsolve,
                [(rs.randn(2, 3, 6) + 2 * onp.eye(6).reshape(2, 3, 6)).astype(dt),
                 rs.randn(2, 3).astype(dt)])
    record_grad(f"tensorsolve_{dt}_axes", np.linalg.tensorsolve,
                [(rs.randn(6, 2, 3) + 2 * onp.eye(6).reshape(6, 2, 3)).astype(dt),
                 rs.randn(2, 3).astype(dt)], axes=(0,))
    for fn in (np.linalg.eigh, np.linalg.eigvalsh, np.linalg.eig, np.linalg.eigvals):
        record_grad(f"{fn.__name__}_{dt}", fn, [spd((3, 3), dt)])
    record_grad(f"pinv_{dt}", np.linalg.pinv, [rs.randn(3, 4).astype(dt)])

# matmul with 1-d operands: values and gradients (nd), symbolic output shapes
a_sym, b_sym = mx.sym.var("a").as_np_ndarray(), mx.sym.var("b").as_np_ndarray()
mm = mx.sym.np.matmul(a_sym, b_sym)
for sa, sb in (((3,), (3,)), ((3,), (3, 4)), ((2, 3), (3,)), ((5, 2, 3), (3,)),
               ((3,), (5, 3, 2)), ((4,), (2, 4, 1))):
    key = f"matmul_{'x'.join(map(str, sa))}_{'x'.join(map(str, sb))}"
    record_grad(key, np.matmul, [rs.randn(*sa).astype("float32"),
                                 rs.randn(*sb).astype("float32")])
    meta["matmul"].append({"key": key, "a": sa, "b": sb,
                           "sym_shape": list(mm.infer_shape(a=sa, b=sb)[1][0])})
try:
    mm.infer_shape(a=(3,), b=(4,))
    meta["matmul_mismatch"] = "ok"
except mx.MXNetError:
    meta["matmul_mismatch"] = "MXNetError"
meta["linalg"] = [m for m in meta["linalg"] if not m["key"].startswith("matmul")]

# random samplers with array-valued parameters: output shapes and dtypes
A = "np.array([[1.], [2.]])"
B = "np.array([0.5, 1.0, 2.0])"
RANDOM = [
    f"np.random.normal({A}, {B})", f"np.random.normal({A}, 2.0)", f"np.random.normal(1.0, {B})",
    f"np.random.normal({A}, {B}, size=(4, 2, 3))", f"np.random.normal({B}, size=(2, 3))",
    f"np.random.normal({B}, size=3)", f"np.random.normal({A}, {B}, dtype='float64')",
    "np.random.normal(np.array(1.0), np.array(2.0))",
    f"np.random.normal({A}.astype('float64'), {B}.astype('float64'))",
    f"np.random.normal({A}.astype('float16'), 1.0)", "np.random.normal(np.array([1, 2]), 1.0)",
    f"np.random.uniform({A}, {B} + 3)", f"np.random.uniform({A}, 5.0)",
    f"np.random.uniform(0., {B})", f"np.random.uniform({A}, {B}, size=(3, 2, 3))",
    f"np.random.uniform({A}.astype('float64'), 3.)",
    f"np.random.gamma({A}, {B})", f"np.random.gamma({A})", f"np.random.gamma(2.0, {B}, size=(2, 3))",
    f"np.random.exponential({B})", f"np.random.exponential({B}, size=(2, 3))",
    f"np.random.logistic({A}, {B})", f"np.random.gumbel({A}, {B})", f"np.random.rayleigh({B})",
    f"np.random.weibull({B})", f"np.random.pareto({B})", f"np.random.power({B})",
    f"np.random.lognormal({A}, {B})", f"np.random.beta({A}, {B})", f"np.random.chisquare({B})",
    f"np.random.normal({A}, {B}, out=np.zeros((2, 3)))",
]
RANDOM_ERRORS = [
    f"np.random.normal(0., -{B})", f"np.random.exponential(-{B})", f"np.random.gamma(-{B})",
    f"np.random.gamma(1.0, -{B})", f"np.random.weibull(-{B})", f"np.random.rayleigh(-{B})",
    f"np.random.pareto(-{B})", f"np.random.power(-{B})", f"np.random.logistic(0., -{B})",
    f"np.random.gumbel(0., -{B})", f"np.random.normal({A}, {B}, size=(5, 7))",
]
for expr in RANDOM:
    o = eval(expr)
    meta["random"][expr] = {"shape": list(o.shape), "dtype": str(o.dtype)}
for expr in RANDOM_ERRORS:
    try:
        eval(expr)
        npx.waitall()
        meta["random"][expr] = {"error": None}
    except Exception as e:  # noqa: BLE001
        meta["random"][expr] = {"error": type(e).__name__}

# which samplers differentiate their array parameters (pathwise) and which give zeros
GRADS = {
    "normal": "np.random.normal(a, b)", "logistic": "np.random.logistic(a, b)",
    "gumbel": "np.random.gumbel(a, b)", "exponential": "np.random.exponential(b) + 0 * a",
    "rayleigh": "np.random.rayleigh(b) + 0 * a", "weibull": "np.random.weibull(b) + 0 * a",
    "pareto": "np.random.pareto(b) + 0 * a", "power": "np.random.power(b) + 0 * a",
    "uniform": "np.random.uniform(a, b + 3)", "gamma": "np.random.gamma(a, b)",
    "lognormal": "np.random.lognormal(a, b)",
}
meta["random_grads"] = {}
for name, expr in GRADS.items():
    a, b = np.array([[1.], [2.]]), np.array([0.5, 1.0, 2.0])
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = eval(expr)
    y.backward()
    meta["random_grads"][name] = {"expr": expr, "a_zero": bool((a.grad == 0).all()),
                                  "b_zero": bool((b.grad == 0).all())}

# mx.sym.np.linalg front ends: the graphs 1.9.1 writes
SYM_LINALG = ["L.svd(a)[0]", "L.svd(a)[2]", "L.cholesky(a)", "L.tensorinv(a, ind=1)",
              "L.tensorsolve(a, b)", "L.tensorsolve(a, b, axes=(0,))", "L.pinv(a)",
              "L.pinv(a, rcond=0.5)", "L.eigvals(a)", "L.eigvalsh(a, UPLO='U')", "L.eig(a)[1]",
              "L.eigh(a)[0]", "mx.sym.np.matmul(a, b)"]
sym_env = {"L": mx.sym.np.linalg, "mx": mx, "a": mx.sym.var("a").as_np_ndarray(),
           "b": mx.sym.var("b").as_np_ndarray()}
meta["sym_linalg_json"] = {}
for e in SYM_LINALG:
    with mx.name.NameManager():
        meta["sym_linalg_json"][e] = eval(e, sym_env).tojson()

# 1.9.1 has no float64-default mode: set_np takes shape and array only
import inspect  # noqa: E402
meta["set_np_params"] = list(inspect.signature(npx.set_np).parameters)
meta["has_is_np_default_dtype"] = hasattr(npx, "is_np_default_dtype")
meta["creation_dtypes"] = {e: str(eval(e).dtype) for e in (
    "np.ones(2)", "np.zeros(2)", "np.empty(2)", "np.full((2,), 1.5)", "np.arange(3.)",
    "np.linspace(0, 1, 3)", "np.eye(2)", "np.identity(2)", "np.array([1., 2.])",
    "np.random.normal(size=2)", "np.random.uniform(size=2)")}

onp.savez_compressed(os.path.join(OUT, "numpy_gaps.npz"), **arrays)
with open(os.path.join(OUT, "numpy_gaps.json"), "w") as f:
    json.dump(meta, f, indent=1, sort_keys=True)
print(len(arrays), "arrays,", len(meta["random"]), "random cases")
