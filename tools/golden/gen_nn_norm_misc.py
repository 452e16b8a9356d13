"""Record outputs, gradients and updated auxiliary states of the normalisation, Dropout
and Embedding operators under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_nn_norm_misc.py

Every entry of ``CASES`` calls ``mx.nd.<op>(*inputs, **kwargs)`` under
``autograd.record(train_mode=...)`` and runs backward with a fixed head gradient per
visible output. ``tests/golden/nn_norm_misc.npz`` then holds, per case ``<id>``:

* ``<id>/in<i>``   -- the inputs as passed (auxiliary states last),
* ``<id>/head<j>`` -- the head gradient of output j,
* ``<id>/out<j>``  -- output j,
* ``<id>/grad<i>`` -- the gradient of input i, for each i in ``case.grad_of``,
* ``<id>/post<i>`` -- input i after forward and backward (moving statistics updated,
  gamma overwritten by ``fix_gamma``).

``tests/operator/test_nn_norm.py`` and ``test_nn_misc.py`` import this module (it must
stay importable without mxnet) and replay the cases against this repository's mxnet.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "nn_norm_misc.npz"

# record mode, backward mode
MODES = {"train": (True, True), "predict": (False, False), "predict_train_bwd": (False, True)}


@dataclass
class Case:
    """``mx.nd.<op>(*inputs, **kwargs)``; the last ``n_aux`` inputs are auxiliary states."""

    id: str
    op: str
    inputs: list
    kwargs: dict = field(default_factory=dict)
    dtypes: tuple = ()
    n_aux: int = 0
    grad_of: tuple | None = None
    mode: str = "train"

    def input_dtypes(self):
        return list(self.dtypes) if self.dtypes else ["float64"] * len(self.inputs)

    def grad_indices(self):
        if self.grad_of is not None:
            return list(self.grad_of)
        return list(range(len(self.inputs) - self.n_aux))


def _rand(*shape, seed=0, low=-1.0, high=1.0):
    return np.random.RandomState(seed).uniform(low, high, size=shape)


def _bn_inputs(shape, axis=1, seed=0):
    c = shape[axis]
    return [_rand(*shape, seed=seed), np.linspace(0.5, 2.0, c), np.linspace(-0.2, 0.3, c),
            np.linspace(0.1, 0.3, c), np.linspace(0.5, 1.5, c)]


def _affine(c, seed=1):
    return [_rand(c, seed=seed, low=0.5, high=1.5), _rand(c, seed=seed + 1)]


CASES: list[Case] = []


def case(cid, op, inputs, **kw):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    CASES.append(Case(cid, op, inputs, **kw))


# ------------------------------------------------------------------------ BatchNorm
case("bn.train", "BatchNorm", _bn_inputs((4, 3, 2, 2)), kwargs={"fix_gamma": False}, n_aux=2)
case("bn.train_fix_gamma", "BatchNorm", _bn_inputs((4, 3, 2, 2), seed=1), n_aux=2)
case("bn.train_omv", "BatchNorm", _bn_inputs((3, 2, 3), seed=2),
     kwargs={"fix_gamma": False, "output_mean_var": True}, n_aux=2)
case("bn.train_2d", "BatchNorm", _bn_inputs((5, 3), seed=3),
     kwargs={"fix_gamma": False, "momentum": 0.7, "eps": 1e-2}, n_aux=2)
case("bn.train_axis_last", "BatchNorm", _bn_inputs((2, 3, 4), axis=2, seed=4),
     kwargs={"fix_gamma": False, "axis": -1}, n_aux=2)
case("bn.train_axis2", "BatchNorm", _bn_inputs((3, 2, 3, 2), axis=2, seed=5),
     kwargs={"fix_gamma": False, "axis": 2}, n_aux=2)
case("bn.global_stats", "BatchNorm", _bn_inputs((4, 3, 2), seed=6),
     kwargs={"fix_gamma": False, "use_global_stats": True, "output_mean_var": True}, n_aux=2)
case("bn.predict", "BatchNorm", _bn_inputs((4, 3, 2), seed=7),
     kwargs={"fix_gamma": False, "output_mean_var": True}, n_aux=2, mode="predict")
case("bn.predict_train_bwd", "BatchNorm", _bn_inputs((4, 3, 2), seed=8),
     kwargs={"fix_gamma": False}, n_aux=2, mode="predict_train_bwd")
case("bn.float32", "BatchNorm", _bn_inputs((4, 3, 2, 2), seed=9),
     kwargs={"fix_gamma": False, "output_mean_var": True}, n_aux=2, dtypes=("float32",) * 5)
case("bn.float16", "BatchNorm", _bn_inputs((4, 3, 2, 2), seed=10),
     kwargs={"fix_gamma": False}, n_aux=2, dtypes=("float16",) + ("float32",) * 4)
case("sync_bn.train", "contrib.SyncBatchNorm", _bn_inputs((4, 3, 2), seed=11),
     kwargs={"fix_gamma": False, "output_mean_var": True, "key": "g1"}, n_aux=2,
     dtypes=("float32",) * 5)
case("sync_bn.fix_gamma", "contrib.SyncBatchNorm", _bn_inputs((3, 2, 2, 2), seed=12),
     kwargs={"key": "g2", "momentum": 0.8}, n_aux=2, dtypes=("float32",) * 5)
case("sync_bn.global_stats", "contrib.SyncBatchNorm", _bn_inputs((3, 2, 2, 2), seed=13),
     kwargs={"key": "g3", "fix_gamma": False, "use_global_stats": True}, n_aux=2,
     dtypes=("float32",) * 5)

# BatchNormWithReLU runs on oneDNN only in 1.9.1: 4-D float32 data
case("bn_relu.train", "contrib.BatchNormWithReLU", _bn_inputs((4, 3, 2, 2), seed=14),
     kwargs={"fix_gamma": False}, n_aux=2, dtypes=("float32",) * 5)
case("bn_relu.fix_gamma_omv", "contrib.BatchNormWithReLU", _bn_inputs((2, 3, 3, 2), seed=15),
     kwargs={"output_mean_var": True, "momentum": 0.8}, n_aux=2, dtypes=("float32",) * 5)
case("bn_relu.global_stats", "contrib.BatchNormWithReLU", _bn_inputs((3, 2, 2, 2), seed=16),
     kwargs={"fix_gamma": False, "use_global_stats": True}, n_aux=2, dtypes=("float32",) * 5)
# forward only: a backward after a predict-mode forward takes oneDNN's ReLU mask from a
# workspace that inference does not fill, so 1.9.1's gradient there is not meaningful
case("bn_relu.predict", "contrib.BatchNormWithReLU", _bn_inputs((3, 2, 2, 2), seed=17),
     kwargs={"fix_gamma": False}, n_aux=2, dtypes=("float32",) * 5, mode="predict",
     grad_of=())
# (SyncBatchNorm computes float32 only in 1.9.1 and keeps state per key: one key per shape)
# ------------------------------------------------------------------------ LayerNorm
case("ln.last", "LayerNorm", [_rand(2, 3, 4)] + _affine(4))
case("ln.axis1_omv", "LayerNorm", [_rand(2, 3, 4, seed=2)] + _affine(3, seed=3),
     kwargs={"axis": 1, "output_mean_var": True, "eps": 1e-2})
case("ln.axis0", "LayerNorm", [_rand(3, 2, seed=4)] + _affine(3, seed=5), kwargs={"axis": 0})
case("ln.float32", "LayerNorm", [_rand(3, 5, seed=6)] + _affine(5, seed=7),
     kwargs={"output_mean_var": True}, dtypes=("float32",) * 3)
case("ln.predict", "LayerNorm", [_rand(2, 4, seed=8)] + _affine(4, seed=9), mode="predict")

# ------------------------------------------------------------------------ GroupNorm
case("gn.two_groups", "GroupNorm", [_rand(2, 4, 3)] + _affine(2), kwargs={"num_groups": 2})
case("gn.omv", "GroupNorm", [_rand(2, 6, 2, 2, seed=2)] + _affine(3, seed=3),
     kwargs={"num_groups": 3, "output_mean_var": True, "eps": 1e-2})
case("gn.one_group", "GroupNorm", [_rand(3, 2, 3, seed=4)] + _affine(1, seed=5))
case("gn.float32", "GroupNorm", [_rand(2, 4, 2, seed=6)] + _affine(4, seed=7),
     kwargs={"num_groups": 4}, dtypes=("float32",) * 3)

# ------------------------------------------------------------------------ InstanceNorm (float32 only in 1.9.1)
case("in.3d", "InstanceNorm", [_rand(2, 3, 4)] + _affine(3), dtypes=("float32",) * 3)
case("in.4d", "InstanceNorm", [_rand(2, 2, 3, 2, seed=2)] + _affine(2, seed=3),
     kwargs={"eps": 0.1}, dtypes=("float32",) * 3)

# ------------------------------------------------------------------------ L2Normalization
case("l2.instance", "L2Normalization", [_rand(2, 3, 2, 2)])
case("l2.channel", "L2Normalization", [_rand(2, 3, 2, 2, seed=1)], kwargs={"mode": "channel"})
case("l2.spatial", "L2Normalization", [_rand(2, 3, 2, 2, seed=2)], kwargs={"mode": "spatial"})
case("l2.spatial_3d", "L2Normalization", [_rand(2, 3, 4, seed=3)],
     kwargs={"mode": "spatial", "eps": 0.5})
case("l2.instance_2d", "L2Normalization", [_rand(3, 4, seed=4)])
case("l2.channel_float32", "L2Normalization", [_rand(2, 4, 3, seed=5)],
     kwargs={"mode": "channel"}, dtypes=("float32",))

# ------------------------------------------------------------------------ LRN (float32 only in 1.9.1)
case("lrn.n3", "LRN", [_rand(2, 5, 2, 2)], kwargs={"nsize": 3}, dtypes=("float32",))
case("lrn.n4_even", "LRN", [_rand(1, 6, 2, 2, seed=1)],
     kwargs={"nsize": 4, "alpha": 0.5, "beta": 0.6, "knorm": 1.5}, dtypes=("float32",))
case("lrn.n5", "LRN", [_rand(2, 4, 1, 3, seed=2)],
     kwargs={"nsize": 5, "alpha": 1.0, "beta": 1.2, "knorm": 1.0}, dtypes=("float32",))
case("lrn.2d", "LRN", [_rand(3, 5, seed=3)], kwargs={"nsize": 3, "alpha": 0.3},
     dtypes=("float32",))

# ------------------------------------------------------------------------ Dropout (deterministic cases only)
case("dropout.predict", "Dropout", [_rand(2, 3)], kwargs={"p": 0.5}, mode="predict")
case("dropout.predict_train_bwd", "Dropout", [_rand(2, 3, seed=1)], kwargs={"p": 0.3},
     mode="predict_train_bwd")
case("dropout.p0", "Dropout", [_rand(2, 3, seed=2)], kwargs={"p": 0.0})
case("dropout.always_p0", "Dropout", [_rand(3, 2, seed=3)], kwargs={"p": 0.0, "mode": "always"},
     mode="predict")

# ------------------------------------------------------------------------ Embedding
_W = _rand(5, 3, seed=20)
_IDX = np.array([[0.0, 1.0, 1.0], [4.0, 1.0, 2.5]])
_ODD = np.array([-0.5, -1.5, 4.9, 5.5, 100.0, -100.0, 2.999, 1e10, np.nan, np.inf, -np.inf])
case("emb.repeats", "Embedding", [_IDX, _W], kwargs={"input_dim": 5, "output_dim": 3},
     dtypes=("float32", "float32"), grad_of=(1,))
case("emb.float64", "Embedding", [_IDX, _W],
     kwargs={"input_dim": 5, "output_dim": 3, "dtype": "float64"}, grad_of=(1,))
case("emb.odd_indices", "Embedding", [_ODD, _W], kwargs={"input_dim": 5, "output_dim": 3},
     dtypes=("float32", "float32"), grad_of=(1,))
case("emb.int_indices", "Embedding", [np.array([[-1, 6], [3, 3]]), _W],
     kwargs={"input_dim": 5, "output_dim": 3}, dtypes=("int32", "float32"), grad_of=(1,))


# ------------------------------------------------------------------------ running
def head_grads(shapes, dtype):
    """The fixed head gradient of each output."""
    return [np.random.RandomState(1000 + j).normal(size=s).astype(dtype)
            for j, s in enumerate(shapes)]


def resolve(nd, path):
    fn = nd
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def _dense(a):
    return a.tostype("default").asnumpy() if getattr(a, "stype", "default") != "default" else a.asnumpy()


def run_case(mx, c: Case, inputs=None, heads=None):
    """Run one case: (outputs, heads, {input index: gradient}, inputs after) as NumPy."""
    dts = c.input_dtypes()
    raw = c.inputs if inputs is None else inputs
    xs = [mx.nd.array(np.asarray(x, dtype=dt), dtype=dt) for x, dt in zip(raw, dts)]
    for i in c.grad_indices():
        xs[i].attach_grad()
    rec_train, bwd_train = MODES[c.mode]
    fn = resolve(mx.nd, c.op)
    with mx.autograd.record(train_mode=rec_train):
        out = fn(*xs, **c.kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if heads is None:
        heads = [h.astype(o.dtype) for h, o in
                 zip(head_grads([o.shape for o in outs], "float64"), outs)]
    if c.grad_indices():   # grad_of=() records the forward only
        mx.autograd.backward(outs, [mx.nd.array(h, dtype=h.dtype) for h in heads],
                             train_mode=bwd_train)
    grads = {i: _dense(xs[i].grad) for i in c.grad_indices()}
    return [o.asnumpy() for o in outs], heads, grads, [x.asnumpy() for x in xs]


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in CASES:
        outs, heads, grads, post = run_case(mx, c)
        for i, (x, dt) in enumerate(zip(c.inputs, c.input_dtypes())):
            arrays[f"{c.id}/in{i}"] = np.asarray(x, dtype=dt)
            arrays[f"{c.id}/post{i}"] = post[i]
        for j, (o, h) in enumerate(zip(outs, heads)):
            arrays[f"{c.id}/out{j}"] = o
            arrays[f"{c.id}/head{j}"] = h
        for i, g in grads.items():
            arrays[f"{c.id}/grad{i}"] = g
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ}")


if __name__ == "__main__":
    main()
