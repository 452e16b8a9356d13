"""Shared checks: run a Symbol in mxnet-py, export it, run the file with onnxruntime."""
import os

import numpy as np
import onnxruntime as ort

import mxnet as mx

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")


def session(path):
    opts = ort.SessionOptions()
    opts.log_severity_level = 3  # keep onnxruntime's notes about unused constants quiet
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def run_onnx(path, feeds):
    return session(path).run(None, feeds)


def random_params(sym, shapes, dtypes=None, seed=0):
    """Random values for every argument and auxiliary state not named in ``shapes``."""
    rng = np.random.default_rng(seed)
    dtypes = dtypes or {}
    arg_shapes, _, aux_shapes = sym.infer_shape(**shapes)
    params = {}
    for name, shape in zip(sym.list_arguments(), arg_shapes):
        if name not in shapes:
            params[name] = mx.nd.array(rng.standard_normal(shape).astype(np.float32) * 0.5)
    for name, shape in zip(sym.list_auxiliary_states(), aux_shapes):
        lo = 0.5 if name.endswith("var") else -0.5  # variances must stay positive
        params[name] = mx.nd.array(rng.uniform(lo, 1.5, shape).astype(np.float32))
    return params


def run_mxnet(sym, feeds, params):
    args = {k: mx.nd.array(v, dtype=v.dtype) for k, v in feeds.items()}
    auxs = set(sym.list_auxiliary_states())
    args.update({k: v for k, v in params.items() if k not in auxs and k in sym.list_arguments()})
    ex = sym.bind(mx.cpu(), args, aux_states={k: v for k, v in params.items() if k in auxs})
    return [o.asnumpy() for o in ex.forward(is_train=False)]


def assert_close(got, want, rtol=1e-4, atol=1e-5, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                               atol=atol, err_msg=what)
