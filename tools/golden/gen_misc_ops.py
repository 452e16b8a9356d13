"""Record outputs, gradients and input states after the call of the miscellaneous operators
(mxnet/operator/misc_ops.py) under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_misc_ops.py

MKL-DNN is switched off (``MXNET_MKLDNN_ENABLED=0``): with it, 1.9.1's CPU build rejects
float16/float64 in amp_cast/amp_multicast and rounds float-to-int casts, neither of which
is the operator's own semantics.

A case runs in one of these modes:

* ``nd``: ``mx.nd.<op>(*inputs, **kwargs)`` under ``autograd.record()`` and backward with a
  fixed head gradient per output (no recording when ``grad_of`` is empty);
* ``sym_train`` / ``sym_predict``: ``mx.sym.<op>`` on variables for the first
  ``len(inputs) - n_aux`` inputs (auxiliary states are created by the operator, in
  ``list_auxiliary_states`` order), bound with ``simple_bind``, run forward in training
  (then backward) or inference mode. Used where 1.9.1's ``mx.nd`` cannot take the
  auxiliary states.

``tests/golden/misc_ops.npz`` holds, per case ``<id>``: ``in<i>`` (inputs as passed),
``head<j>`` / ``out<j>`` (head gradient and output j), ``grad<i>`` (gradient of input i for
each i in ``grad_of``) and ``post<i>`` (input i after the call: reset_arrays zeroes its
inputs, IdentityAttachKLSparseReg and BatchNorm_v1 update their auxiliary states).

``tests/operator/test_misc_ops.py`` imports this module (it must stay importable without
mxnet) and replays the cases against this repository's mxnet.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "misc_ops.npz"


@dataclass
class Case:
    """One recorded call; see the module docstring for the modes."""

    id: str
    op: str
    inputs: list
    kwargs: dict = field(default_factory=dict)
    dtypes: tuple = ()
    grad_of: tuple = ()
    mode: str = "nd"
    n_aux: int = 0

    def input_dtypes(self):
        if not self.dtypes:
            return ["float32"] * len(self.inputs)
        if len(self.dtypes) == 1:
            return list(self.dtypes) * len(self.inputs)
        return list(self.dtypes)


def _rand(*shape, seed=0, low=-1.0, high=1.0):
    return np.random.RandomState(seed).uniform(low, high, size=shape)


CASES: list[Case] = []


def case(cid, op, inputs, **kw):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    CASES.append(Case(cid, op, inputs, **kw))


# ------------------------------------------------------------------------ hard_sigmoid
_HS = _rand(3, 5, low=-4, high=4)
case("hs.default", "hard_sigmoid", [_HS], grad_of=(0,))
case("hs.params_f64", "hard_sigmoid", [_HS], kwargs={"alpha": 0.3, "beta": 0.4},
     dtypes=("float64",), grad_of=(0,))
case("hs.float16", "hard_sigmoid", [_HS], kwargs={"alpha": 0.25}, dtypes=("float16",),
     grad_of=(0,))

# ------------------------------------------------------------------------ cumsum
case("cumsum.flat", "cumsum", [_rand(2, 3, 4)], grad_of=(0,))
case("cumsum.axis1_f64", "cumsum", [_rand(2, 3, 4, seed=1)], kwargs={"axis": 1},
     dtypes=("float64",), grad_of=(0,))
case("cumsum.dtype_f64", "cumsum", [_rand(3, 4, seed=2)], kwargs={"axis": 1, "dtype": "float64"},
     grad_of=(0,))
case("cumsum.int8_wraps", "cumsum", [np.array([[100, 100, 100], [-100, -50, -100]])],
     kwargs={"axis": 1}, dtypes=("int8",))
case("cumsum.bool", "cumsum", [np.array([[1, 0, 1], [1, 1, 0]])], dtypes=("bool",))
case("cumsum.int32_to_f32", "cumsum", [np.array([[1, 2], [3, 4]])],
     kwargs={"axis": 0, "dtype": "float32"}, dtypes=("int32",))

# ------------------------------------------------------------------------ moments
case("moments.axis1_f64", "moments", [_rand(3, 4)], kwargs={"axes": (1,)}, dtypes=("float64",),
     grad_of=(0,))
case("moments.keepdims", "moments", [_rand(2, 3, 4, seed=1)],
     kwargs={"axes": (0, 2), "keepdims": True}, grad_of=(0,))
case("moments.all", "moments", [_rand(2, 3, seed=2)], kwargs={"axes": (0, 1)}, grad_of=(0,))
case("moments.neg_axis", "moments", [_rand(2, 3, 2, seed=3)], kwargs={"axes": (-1,)},
     grad_of=(0,))
case("moments.int32", "moments", [np.array([[1, 2, 6], [4, 8, -3]])], kwargs={"axes": (1,)},
     dtypes=("int32",))
case("moments.float16", "moments", [_rand(4, 3, seed=4)], kwargs={"axes": (0,)},
     dtypes=("float16",))

# ------------------------------------------------------------------------ khatri_rao
case("kr.two", "khatri_rao", [_rand(3, 2), _rand(4, 2, seed=1)])
case("kr.three_f64", "khatri_rao", [_rand(2, 3), _rand(3, 3, seed=1), _rand(1, 3, seed=2)],
     dtypes=("float64",))
case("kr.one", "khatri_rao", [_rand(3, 2, seed=3)])

# ------------------------------------------------------------------------ ravel / unravel
case("ravel.basic", "ravel_multi_index", [np.array([[3, 6, 6], [4, 5, 1]])],
     kwargs={"shape": (7, 6)}, grad_of=(0,))
case("ravel.odd_f64", "ravel_multi_index",
     [np.array([[3.7, 1, -1, 9], [4.9, 5, 2, 0], [0, 1, 2, 3]])], kwargs={"shape": (2, 3, 4)},
     dtypes=("float64",))
case("ravel.int32", "ravel_multi_index", [np.array([[1, 0, 2], [3, 4, 0]])],
     kwargs={"shape": (3, 5)}, dtypes=("int32",))
case("unravel.basic", "unravel_index", [np.array([22, 41, 37, -1, 100, 2.7, -7])],
     kwargs={"shape": (7, 6)}, grad_of=(0,))
case("unravel.int64_3d", "unravel_index", [np.array([0, 7, 59, 33])],
     kwargs={"shape": (3, 4, 5)}, dtypes=("int64",))

# ------------------------------------------------------------------------ _histogram
_HX = np.array([0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, -1, 5, 2.9999, 0.75, 2.25])
case("hist.cnt", "_internal._histogram", [_HX], kwargs={"bin_cnt": 4, "range": (0, 3)})
case("hist.cnt_f64_2d", "_internal._histogram", [_rand(3, 4, seed=5, low=-2, high=3)],
     kwargs={"bin_cnt": 5, "range": (-1, 2)}, dtypes=("float64",))
case("hist.cnt_int32", "_internal._histogram", [_HX], kwargs={"bin_cnt": 4, "range": (0, 3)},
     dtypes=("int32",))
case("hist.degenerate", "_internal._histogram", [_HX], kwargs={"bin_cnt": 3, "range": (1, 1)})
case("hist.bins", "_internal._histogram", [_HX, np.array([0, 1, 2.5, 3])])

# ------------------------------------------------------------------------ index legacy ops
_M = np.arange(12.0).reshape(3, 4)
case("choose.basic", "choose_element_0index", [_rand(3, 4), np.array([0, 3, 1])], grad_of=(0,))
case("choose.wrap_keepdims", "choose_element_0index", [_rand(3, 4, seed=1), np.array([5, -1, 2])],
     kwargs={"mode": "wrap", "keepdims": True, "axis": 1}, grad_of=(0,))
case("fill.basic", "fill_element_0index", [_M, np.array([10, 20, 30]), np.array([0, 3, 1])])
case("fill.odd_indices", "fill_element_0index",
     [_M, np.array([10, 20, 30]), np.array([5, -1, 1.7])])
case("onehot.basic", "_internal._onehot_encode", [np.array([1, 7, -1, 2.6]), np.ones((4, 5))])

# ------------------------------------------------------------------------ reset / finite
case("reset.two", "reset_arrays", [_rand(2, 3), _rand(4, seed=1)], kwargs={"num_arrays": 2},
     dtypes=("float32", "float64"))
case("finite.inf", "all_finite", [np.array([1, 2, np.inf])])
case("finite.ok_f16", "all_finite", [np.array([[1, 2], [3, 4]])], dtypes=("float16",))
case("finite.nan_f64", "all_finite", [np.array([1, np.nan])], dtypes=("float64",))
case("mfinite.ok", "multi_all_finite", [_rand(2, 3), _rand(4, seed=1)], kwargs={"num_arrays": 2})
case("mfinite.bad", "multi_all_finite", [_rand(2, 3), np.array([1, -np.inf]), _rand(2, seed=2)],
     kwargs={"num_arrays": 3})

# ------------------------------------------------------------------------ casts
_C = np.array([[1.5, -2.7, 70000.0], [0.25, 3.0, -1.5]])
case("cast_storage.default", "cast_storage", [_rand(2, 3)], kwargs={"stype": "default"},
     grad_of=(0,))
case("amp_cast.f32_f16", "amp_cast", [_C], kwargs={"dtype": "float16"}, grad_of=(0,))
case("amp_cast.f16_f32", "amp_cast", [_C], kwargs={"dtype": "float32"}, dtypes=("float16",),
     grad_of=(0,))
case("amp_cast.f32_int32", "amp_cast", [_C], kwargs={"dtype": "int32"})
case("amp_cast.f64_passes", "amp_cast", [_C], kwargs={"dtype": "float16"}, dtypes=("float64",),
     grad_of=(0,))
case("amp_cast.int32_passes", "amp_cast", [np.array([1, 2, 3])], kwargs={"dtype": "float16"},
     dtypes=("int32",))
case("amp_multicast.wide", "amp_multicast", [_C, _C], kwargs={"num_outputs": 2},
     dtypes=("float16", "float32"), grad_of=(0, 1))
case("amp_multicast.narrow", "amp_multicast", [_C, _C, _C],
     kwargs={"num_outputs": 3, "cast_narrow": True}, dtypes=("float16", "float64", "float32"),
     grad_of=(0, 1, 2))
case("amp_multicast.first_int", "amp_multicast", [np.array([1, 2]), np.array([1.5, 2.5])],
     kwargs={"num_outputs": 2}, dtypes=("int32", "float16"))
case("amp_multicast.f64_f16", "amp_multicast", [_C, _C], kwargs={"num_outputs": 2},
     dtypes=("float64", "float16"), grad_of=(0, 1))

# ------------------------------------------------------------------------ im2col / col2im
_IM = _rand(2, 3, 5, 6, seed=7)
_BLK = {"kernel": (2, 3), "stride": (2, 1), "dilate": (1, 2), "pad": (1, 0)}
case("im2col.default", "im2col", [_IM], kwargs={"kernel": (2, 2)}, grad_of=(0,))
case("im2col.full", "im2col", [_IM], kwargs=_BLK, grad_of=(0,))
case("im2col.f64_pad", "im2col", [_rand(1, 2, 4, 4, seed=8)],
     kwargs={"kernel": (3, 3), "pad": (1, 1), "stride": (2, 2)}, dtypes=("float64",),
     grad_of=(0,))
case("col2im.full", "col2im", [_rand(2, 18, 6, seed=9)], kwargs=dict(_BLK, output_size=(5, 6)),
     grad_of=(0,))
case("col2im.overlap", "col2im", [_rand(1, 8, 9, seed=10)],
     kwargs={"kernel": (2, 2), "output_size": (4, 4)}, grad_of=(0,))

# ------------------------------------------------------------------------ Correlation
_CA, _CB = _rand(2, 3, 6, 7, seed=11), _rand(2, 3, 6, 7, seed=12)
case("corr.default", "Correlation", [_CA, _CB], grad_of=(0, 1))
case("corr.k3_pad", "Correlation", [_CA, _CB],
     kwargs={"kernel_size": 3, "max_displacement": 2, "pad_size": 2}, grad_of=(0, 1))
case("corr.strided_sub", "Correlation", [_CA, _CB],
     kwargs={"kernel_size": 3, "max_displacement": 2, "stride1": 2, "stride2": 2, "pad_size": 1,
             "is_multiply": False}, grad_of=(0, 1))
case("corr.f64_disp", "Correlation", [_rand(1, 2, 7, 7, seed=13), _rand(1, 2, 7, 7, seed=14)],
     kwargs={"max_displacement": 2, "stride2": 2, "stride1": 2}, dtypes=("float64",),
     grad_of=(0, 1))

# ------------------------------------------------------------------------ legacy layers
_BNX = _rand(4, 3, 2, 2, seed=15)
_BN_PARAMS = [np.linspace(0.5, 2.0, 3), np.linspace(-0.2, 0.3, 3)]
_BN_AUX = [np.linspace(0.1, 0.3, 3), np.linspace(0.5, 1.5, 3)]
case("kl.train", "IdentityAttachKLSparseReg", [_rand(4, 3, seed=16, low=0.05, high=0.95),
                                               np.full(3, 0.5)],
     kwargs={"sparseness_target": 0.2, "penalty": 0.01, "momentum": 0.5}, mode="sym_train",
     n_aux=1, grad_of=(0,))
case("kl.defaults", "IdentityAttachKLSparseReg",
     [_rand(5, 4, seed=17, low=0.05, high=0.95), np.linspace(0.2, 0.6, 4)],
     mode="sym_train", n_aux=1, grad_of=(0,))
case("bn_v1.train", "BatchNorm_v1", [_BNX] + _BN_PARAMS + _BN_AUX,
     kwargs={"fix_gamma": False, "output_mean_var": True}, mode="sym_train", n_aux=2,
     grad_of=(0, 1, 2))
case("bn_v1.fix_gamma", "BatchNorm_v1", [_rand(3, 3, 2, 1, seed=18)] + _BN_PARAMS + _BN_AUX,
     kwargs={"momentum": 0.7, "eps": 0.01}, mode="sym_train", n_aux=2, grad_of=(0, 1, 2))
case("bn_v1.global_stats", "BatchNorm_v1", [_BNX] + _BN_PARAMS + _BN_AUX,
     kwargs={"fix_gamma": False, "use_global_stats": True, "output_mean_var": True},
     mode="sym_train", n_aux=2, grad_of=(0, 1, 2))
case("bn_v1.predict", "BatchNorm_v1", [_BNX] + _BN_PARAMS + _BN_AUX,
     kwargs={"fix_gamma": False, "output_mean_var": True}, mode="sym_predict", n_aux=2)
_CW, _CBIAS = _rand(4, 3, 3, 2, seed=19), _rand(4, seed=20)
case("conv_v1.basic", "Convolution_v1", [_IM, _CW, _CBIAS],
     kwargs={"kernel": (3, 2), "num_filter": 4, "stride": (2, 1), "pad": (1, 1)},
     grad_of=(0, 1, 2))
case("conv_v1.nobias_group", "Convolution_v1", [_rand(2, 4, 5, 5, seed=21), _rand(2, 2, 2, 2)],
     kwargs={"kernel": (2, 2), "num_filter": 2, "num_group": 2, "no_bias": True,
             "dilate": (2, 1)}, grad_of=(0, 1))
_PX = _rand(2, 3, 7, 6, seed=22)
case("pool_v1.max", "Pooling_v1", [_PX], kwargs={"kernel": (3, 3)}, grad_of=(0,))
case("pool_v1.max_full_pad", "Pooling_v1", [_PX],
     kwargs={"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "pooling_convention": "full"},
     grad_of=(0,))
case("pool_v1.avg_pad", "Pooling_v1", [_PX],
     kwargs={"kernel": (3, 2), "pool_type": "avg", "stride": (2, 2), "pad": (1, 1)},
     grad_of=(0,))
case("pool_v1.avg_full", "Pooling_v1", [_PX],
     kwargs={"kernel": (2, 2), "pool_type": "avg", "stride": (3, 3),
             "pooling_convention": "full"}, grad_of=(0,))
case("pool_v1.sum_full", "Pooling_v1", [_PX],
     kwargs={"kernel": (3, 3), "pool_type": "sum", "stride": (2, 3), "pad": (1, 0),
             "pooling_convention": "full"}, grad_of=(0,))
case("pool_v1.global_avg_f64", "Pooling_v1", [_PX],
     kwargs={"pool_type": "avg", "global_pool": True}, dtypes=("float64",), grad_of=(0,))


# ------------------------------------------------------------------------ running
def head_grads(shapes, dtypes):
    """The fixed head gradient of each output."""
    return [np.random.RandomState(1000 + j).normal(size=s).astype(dt)
            for j, (s, dt) in enumerate(zip(shapes, dtypes))]


def resolve(ns, path):
    fn = ns
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def _head_dtype(dt):
    return dt if np.dtype(dt).kind == "f" else np.dtype(np.float32)


def _run_nd(mx, c, xs, heads):
    fn = resolve(mx.nd, c.op)
    if not c.grad_of:
        out = fn(*xs, **c.kwargs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        return outs, heads, {}
    for i in c.grad_of:
        xs[i].attach_grad()
    with mx.autograd.record():
        out = fn(*xs, **c.kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if heads is None:
        heads = head_grads([o.shape for o in outs], [_head_dtype(o.dtype) for o in outs])
    mx.autograd.backward(outs, [mx.nd.array(h, dtype=h.dtype) for h in heads])
    return outs, heads, {i: xs[i].grad.asnumpy() for i in c.grad_of}


def _run_sym(mx, c, xs, heads):
    n_args = len(xs) - c.n_aux
    names = [f"in{i}" for i in range(n_args)]
    sym = resolve(mx.sym, c.op)(*[mx.sym.var(n) for n in names], **c.kwargs)
    arg_names, aux_names = sym.list_arguments(), sym.list_auxiliary_states()
    assert arg_names == names and len(aux_names) == c.n_aux, (arg_names, aux_names)
    shapes = {n: x.shape for n, x in zip(names, xs)}
    types = {n: x.dtype for n, x in zip(names, xs)}
    ex = sym.simple_bind(mx.current_context(), grad_req="write", type_dict=types, **shapes)
    for n, x in zip(names, xs):
        ex.arg_dict[n][:] = x
    for n, x in zip(aux_names, xs[n_args:]):
        ex.aux_dict[n][:] = x
    train = c.mode == "sym_train"
    outs = list(ex.forward(is_train=train))
    grads = {}
    if train:
        if heads is None:
            heads = head_grads([o.shape for o in outs], [_head_dtype(o.dtype) for o in outs])
        ex.backward([mx.nd.array(h, dtype=h.dtype) for h in heads])
        grads = {i: ex.grad_dict[names[i]].asnumpy() for i in c.grad_of}
    post = [ex.arg_dict[n].asnumpy() for n in names] + [ex.aux_dict[n].asnumpy()
                                                        for n in aux_names]
    return outs, heads, grads, post


def run_case(mx, c: Case, inputs=None, heads=None):
    """Run one case: (outputs, heads, {input index: gradient}, inputs after) as NumPy."""
    raw = c.inputs if inputs is None else inputs
    xs = [mx.nd.array(np.asarray(x, dtype=dt), dtype=dt) for x, dt in zip(raw, c.input_dtypes())]
    if c.mode == "nd":
        outs, heads, grads = _run_nd(mx, c, xs, heads)
        post = [x.asnumpy() for x in xs]
    else:
        outs, heads, grads, post = _run_sym(mx, c, xs, heads)
    return [o.asnumpy() for o in outs], heads or [], grads, post


def main():
    os.environ.setdefault("MXNET_MKLDNN_ENABLED", "0")
    os.environ.setdefault("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "0")
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in CASES:
        outs, heads, grads, post = run_case(mx, c)
        for i, (x, dt) in enumerate(zip(c.inputs, c.input_dtypes())):
            arrays[f"{c.id}/in{i}"] = np.asarray(x, dtype=dt)
            arrays[f"{c.id}/post{i}"] = post[i]
        for j, o in enumerate(outs):
            arrays[f"{c.id}/out{j}"] = o
        for j, h in enumerate(heads):
            arrays[f"{c.id}/head{j}"] = h
        for i, g in grads.items():
            arrays[f"{c.id}/grad{i}"] = g
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ}")


if __name__ == "__main__":
    main()
