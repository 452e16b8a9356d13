"""Record 1.9.1's forward outputs and autograd gradients of the activation, softmax and
output/loss layers (Activation, LeakyReLU, softmax, log_softmax, softmin,
SoftmaxActivation, SoftmaxOutput, the regression outputs, SVMOutput, MakeLoss, make_loss,
smooth_l1, softmax_cross_entropy).

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_nn_activation_output.py

For every entry of ``CASES`` it builds the inputs, records the call under autograd (train
mode unless the case says otherwise), runs backward with a fixed random head gradient per
output and writes ``tests/golden/nn_activation_output.npz`` with, per case ``<id>``:

* ``<id>/in<i>``   -- input i (already in its dtype),
* ``<id>/head<j>`` -- the head gradient of output j,
* ``<id>/out<j>``  -- output j,
* ``<id>/grad<i>`` -- the gradient of input i, for every i in the case's ``wrt``.

``tests/operator/test_nn_activation.py`` and ``test_nn_output.py`` import this module (it
must stay importable without mxnet) and replay each case from the stored arrays.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "nn_activation_output.npz"


@dataclass
class Case:
    """``mx.nd.<op>(*inputs, **kwargs)``.

    ``dtypes`` gives each input's dtype (default: ``dtype`` for all); ``wrt`` the inputs
    whose gradients are recorded (default: all); ``n_out`` limits the outputs taken (for
    ops returning a list); ``backward=False`` records the forward only; ``rtol`` loosens
    the comparison where 1.9.1 computes in float32 whatever the dtype.
    """

    id: str
    op: str
    inputs: list
    kwargs: dict = field(default_factory=dict)
    dtype: str = "float64"
    dtypes: list | None = None
    wrt: list | None = None
    n_out: int | None = None
    backward: bool = True
    train: bool = True
    rtol: float | None = None
    family: str = "activation"

    def input_dtypes(self):
        return self.dtypes or [self.dtype] * len(self.inputs)

    def grad_inputs(self):
        return list(range(len(self.inputs))) if self.wrt is None else list(self.wrt)


CASES: list[Case] = []


def case(cid, op, inputs, family="activation", **kw):
    if any(c.id == cid for c in CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    CASES.append(Case(cid, op, inputs, family=family, **{k: v for k, v in kw.items()
                                                         if k in Case.__dataclass_fields__},
                      kwargs={k: v for k, v in kw.items()
                              if k not in Case.__dataclass_fields__}))


def _rand(*shape, seed=0, scale=2.0):
    return np.random.RandomState(seed).uniform(-scale, scale, size=shape)


# inputs that reach the regions where the kernels switch formulas
_WIDE = np.array([[-40.0, -25.0, -20.5, -3.0, -1.0, -0.3, 0.0],
                  [0.2, 0.7, 1.0, 3.0, 19.5, 20.5, 40.0]])

# ----------------------------------------------------------------------------- Activation
for _act in ("relu", "sigmoid", "tanh", "softrelu", "softsign"):
    case(f"Activation.{_act}", "Activation", [_rand(3, 4, seed=1)], act_type=_act)
    case(f"Activation.{_act}.wide", "Activation", [_WIDE], act_type=_act)
    case(f"Activation.{_act}.float32", "Activation", [_rand(2, 3, 2, seed=2)], act_type=_act,
         dtype="float32")
    case(f"Activation.{_act}.float16", "Activation", [_rand(2, 5, seed=3)], act_type=_act,
         dtype="float16")

# ----------------------------------------------------------------------------- LeakyReLU
case("LeakyReLU.leaky", "LeakyReLU", [_WIDE])
case("LeakyReLU.leaky_slope", "LeakyReLU", [_rand(3, 4, seed=4)], act_type="leaky", slope=0.1)
case("LeakyReLU.leaky_float32", "LeakyReLU", [_rand(3, 4, seed=4)], dtype="float32", slope=0.3)
case("LeakyReLU.elu", "LeakyReLU", [_WIDE], act_type="elu")
case("LeakyReLU.elu_slope", "LeakyReLU", [_rand(3, 4, seed=5)], act_type="elu", slope=0.7)
case("LeakyReLU.elu_float16", "LeakyReLU", [_rand(3, 4, seed=5)], act_type="elu", dtype="float16")
case("LeakyReLU.selu", "LeakyReLU", [_WIDE], act_type="selu")
case("LeakyReLU.selu_float32", "LeakyReLU", [_rand(2, 3, 2, seed=6)], act_type="selu",
     dtype="float32")
case("LeakyReLU.gelu", "LeakyReLU", [np.concatenate([_WIDE, _rand(2, 7, seed=7)])],
     act_type="gelu", rtol=2e-6)
case("LeakyReLU.gelu_float32", "LeakyReLU", [_rand(3, 4, seed=8)], act_type="gelu",
     dtype="float32")
case("LeakyReLU.prelu", "LeakyReLU", [_rand(2, 3, 4, seed=9), np.array([0.5, -1.5, 2.0])],
     act_type="prelu")
case("LeakyReLU.prelu_2d", "LeakyReLU", [_rand(4, 3, seed=10), np.array([0.5, -1.5, 2.0])],
     act_type="prelu")
case("LeakyReLU.prelu_scalar_gamma", "LeakyReLU", [_rand(2, 3, 2, seed=11), np.array([0.3])],
     act_type="prelu")
case("LeakyReLU.prelu_gamma_axis0", "LeakyReLU", [_rand(2, 3, 2, seed=12), np.array([0.3, 2.0])],
     act_type="prelu")
case("LeakyReLU.prelu_gamma_2d", "LeakyReLU",
     [_rand(2, 3, 2, seed=13), np.array([[0.3, 2.0, -1.0]])], act_type="prelu")
case("LeakyReLU.prelu_4d_float32", "LeakyReLU",
     [_rand(2, 3, 2, 2, seed=14), np.array([0.1, 0.2, 0.3])], act_type="prelu", dtype="float32")
# rrelu: 1.9.1 crashes when training, and leaves its mask output uninitialised in predict mode
case("LeakyReLU.rrelu_predict", "LeakyReLU", [_rand(3, 4, seed=15)], act_type="rrelu",
     n_out=1, backward=False, train=False)
case("LeakyReLU.rrelu_predict_bounds", "LeakyReLU", [_rand(3, 4, seed=15)], act_type="rrelu",
     lower_bound=0.2, upper_bound=0.5, n_out=1, backward=False, train=False)

# ----------------------------------------------------------------------------- softmax family
_X3 = _rand(2, 3, 4, seed=20)
_LEN = np.array([[1, 4, 0], [2, 3, 4]])
for _op in ("softmax", "log_softmax", "softmin"):
    case(f"{_op}.default", _op, [_X3])
    case(f"{_op}.axis0", _op, [_X3], axis=0)
    case(f"{_op}.axis1", _op, [_X3], axis=1)
    case(f"{_op}.axis_neg2", _op, [_X3], axis=-2)
    case(f"{_op}.temperature", _op, [_X3], temperature=2.5)
    case(f"{_op}.temperature_small", _op, [_X3], temperature=0.3, axis=1)
    case(f"{_op}.1d", _op, [_rand(5, seed=21)])
    case(f"{_op}.large", _op, [np.array([[1000.0, 0.0, -1000.0], [5.0, 5.0, 5.0]])])
    case(f"{_op}.float32", _op, [_X3], dtype="float32")
    case(f"{_op}.float16", _op, [_X3], dtype="float16", rtol=3e-3)
    # the op's own ``dtype`` parameter clashes with case()'s, so these are built directly
    CASES.append(Case(f"{_op}.out_float64", _op, [_X3], {"dtype": "float64"}, dtype="float32",
                      rtol=1e-6))  # computed in float32, stored in float64
    CASES.append(Case(f"{_op}.out_float32_from_16", _op, [_X3], {"dtype": "float32"},
                      dtype="float16", rtol=3e-3))
case("softmax.length", "softmax", [_X3, _LEN], use_length=True, dtypes=["float64", "int32"],
     wrt=[0])
case("softmax.length_axis1", "softmax", [_X3, np.array([[1, 3, 0, 2], [2, 3, 1, 1]])], axis=1,
     use_length=True, dtypes=["float64", "int64"], wrt=[0])
case("softmax.length_temperature", "softmax", [_X3, _LEN], use_length=True, temperature=0.5,
     dtypes=["float32", "int32"], wrt=[0])
# 1.9.1's SoftmaxActivation only runs on float32 (other dtypes fail an internal type check)
_F32 = dict(dtype="float32")
case("SoftmaxActivation.instance_2d", "SoftmaxActivation", [_rand(3, 5, seed=22)], **_F32)
case("SoftmaxActivation.instance_3d", "SoftmaxActivation", [_X3], **_F32)
case("SoftmaxActivation.instance_1d", "SoftmaxActivation", [_rand(4, seed=23)], backward=False,
     **_F32)  # 1.9.1 fails in backward on 1-d input
case("SoftmaxActivation.channel_3d", "SoftmaxActivation", [_X3], mode="channel", **_F32)
case("SoftmaxActivation.channel_4d", "SoftmaxActivation", [_rand(2, 3, 2, 2, seed=24)],
     mode="channel", **_F32)

# ----------------------------------------------------------------------------- SoftmaxOutput
_D2 = _rand(4, 5, seed=30)
_L2 = np.array([1.0, 4.0, 0.0, 2.0])
_L2_IGN = np.array([1.0, -1.0, 3.0, -1.0])
_OUT = dict(family="output", dtypes=["float64", "float64"], wrt=[0])


def _so(cid, inputs, **kw):
    case(f"SoftmaxOutput.{cid}", "SoftmaxOutput", inputs, **_OUT, **kw)


_so("default", [_D2, _L2])
_so("grad_scale", [_D2, _L2], grad_scale=2.5)
_so("odd_labels", [_D2, np.array([1.7, -0.5, 7.0, -3.0])])
_so("batch", [_D2, _L2], normalization="batch")
_so("valid_ignore", [_D2, _L2_IGN], normalization="valid", use_ignore=True)
_so("valid_no_use_ignore", [_D2, _L2_IGN], normalization="valid")
_so("valid_all_ignored", [_D2, np.full(4, -1.0)], normalization="valid", use_ignore=True)
_so("ignore_label", [_D2, _L2], use_ignore=True, ignore_label=4.0)
_so("ignore_label_float", [_D2, _L2], use_ignore=True, ignore_label=2.6)
_so("ignore_without_use_ignore", [_D2, _L2], ignore_label=4.0)
_so("smooth", [_D2, _L2], smooth_alpha=0.1)
_so("smooth_ignore", [_D2, _L2_IGN], smooth_alpha=0.2, use_ignore=True, normalization="valid",
    grad_scale=3.0)
_so("out_grad", [_D2, _L2], out_grad=True)
_so("out_grad_batch", [_D2, _L2], out_grad=True, normalization="batch", grad_scale=0.5)
_so("prob_label", [_D2, np.abs(_rand(4, 5, seed=31))])
_so("prob_label_scale", [_D2, np.abs(_rand(4, 5, seed=31))], grad_scale=0.3, normalization="batch")
_so("prob_label_out_grad", [_D2, np.abs(_rand(4, 5, seed=31))], out_grad=True)
_so("3d_flat", [_X3, np.array([[2.0, 5.0, 11.0], [1.0, 0.0, 3.0]])])
_so("4d_flat", [_rand(2, 3, 2, 2, seed=32), np.arange(12.0).reshape(2, 3, 2) * 1.5])
_so("preserve_shape", [_X3, np.array([[1.0, 3.0, 0.0], [2.0, 2.0, 1.0]])], preserve_shape=True)
_so("preserve_shape_valid", [_X3, np.array([[1.0, -1.0, 0.0], [-1.0, 2.0, 1.0]])],
    preserve_shape=True, normalization="valid", use_ignore=True)
_so("preserve_shape_batch", [_X3, np.array([[1.0, 3.0, 0.0], [2.0, 2.0, 1.0]])],
    preserve_shape=True, normalization="batch")
_L3M = np.array([[0.0, 2.0, 1.0, 1.0], [2.0, 1.0, 0.0, 0.0]])
_so("multi", [_X3, _L3M], multi_output=True)
_so("multi_batch", [_X3, _L3M], multi_output=True, normalization="batch")
_so("multi_valid", [_X3, np.array([[0.0, -1.0, 1.0, 1.0], [2.0, 1.0, -1.0, -1.0]])],
    multi_output=True, normalization="valid", use_ignore=True)
_so("multi_smooth", [_X3, _L3M], multi_output=True, smooth_alpha=0.3, grad_scale=2.0)
_so("multi_label_keepdim", [_X3, _L3M.reshape(2, 1, 4)], multi_output=True)
_so("multi_4d", [_rand(2, 3, 2, 2, seed=34), np.array([[[0.0, 2.0], [1.0, 1.0]]] * 2)],
    multi_output=True)
_so("multi_4d_flat_label", [_rand(2, 3, 2, 2, seed=34), np.array([[0.0, 2.0, 1.0, 1.0]] * 2)],
    multi_output=True, normalization="batch")
_so("multi_2d", [_D2, _L2], multi_output=True)
_so("multi_prob", [_X3, np.abs(_rand(2, 3, 4, seed=35))], multi_output=True)
case("SoftmaxOutput.float32", "SoftmaxOutput", [_D2, _L2], family="output", dtype="float32",
     wrt=[0], grad_scale=0.1)
case("Softmax.alias", "Softmax", [_D2, _L2], family="output", wrt=[0], normalization="batch")

# ----------------------------------------------------------------------------- regression
_R = _rand(4, 3, seed=40)
for _op in ("LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput"):
    case(f"{_op}.default", _op, [_R, _rand(4, 3, seed=41)], family="output", wrt=[0])
    case(f"{_op}.grad_scale", _op, [_R, _rand(4, 3, seed=41)], family="output", wrt=[0],
         grad_scale=2.5)
    case(f"{_op}.column_label1d", _op, [_R[:, :1], _rand(4, seed=42)], family="output", wrt=[0])
    case(f"{_op}.3d_flat_label", _op, [_rand(2, 3, 2, seed=43), _rand(2, 6, seed=44)],
         family="output", wrt=[0])
    case(f"{_op}.1d", _op, [_rand(5, seed=45), _rand(5, seed=46)], family="output", wrt=[0])
    case(f"{_op}.float32", _op, [_R, _rand(4, 3, seed=41)], family="output", wrt=[0],
         dtype="float32", grad_scale=0.7)

# ----------------------------------------------------------------------------- SVMOutput
_S = np.array([[-2.0, -0.5, 0.3, 1.5], [0.9, 1.2, -1.1, 0.2], [0.0, 1.0, -1.0, 0.5]])
_SL = np.array([1.0, 3.0, 0.0])
case("SVMOutput.l2", "SVMOutput", [_S, _SL], family="output", wrt=[0])
case("SVMOutput.l1", "SVMOutput", [_S, _SL], family="output", wrt=[0], use_linear=True)
case("SVMOutput.margin_reg", "SVMOutput", [_S, _SL], family="output", wrt=[0], margin=0.5,
     regularization_coefficient=2.0)
case("SVMOutput.l1_margin", "SVMOutput", [_S, _SL], family="output", wrt=[0], margin=1.5,
     regularization_coefficient=0.25, use_linear=True)
case("SVMOutput.3d", "SVMOutput", [_rand(2, 3, 2, seed=47), np.array([[1.0, 0, 1], [0, 1, 0]])],
     family="output", wrt=[0])
case("SVMOutput.odd_labels", "SVMOutput", [_S, np.array([1.9, -1.0, 9.0])], family="output",
     wrt=[0])
case("SVMOutput.float32", "SVMOutput", [_S, _SL], family="output", wrt=[0], dtype="float32",
     margin=0.3)

# ----------------------------------------------------------------------------- losses
_M = np.array([[-3.0, -0.5, 0.0, 0.2, 2.0], [1.0, 0.0, -1.0, 3.0, 0.1]])
case("MakeLoss.default", "MakeLoss", [_M], family="output")
case("MakeLoss.grad_scale", "MakeLoss", [_M], family="output", grad_scale=3.0)
case("MakeLoss.batch", "MakeLoss", [_rand(4, 2, 3, seed=50)], family="output",
     normalization="batch", grad_scale=2.0)
case("MakeLoss.valid", "MakeLoss", [_M], family="output", normalization="valid",
     valid_thresh=0.15)
case("MakeLoss.valid_none", "MakeLoss", [_M], family="output", normalization="valid",
     valid_thresh=100.0)
case("MakeLoss.valid_default_thresh", "MakeLoss", [_M], family="output", normalization="valid")
case("MakeLoss.float32", "MakeLoss", [_M], family="output", dtype="float32", grad_scale=0.3)
case("make_loss.default", "make_loss", [_M], family="output")
case("make_loss.float32", "make_loss", [_rand(2, 3, seed=51)], family="output", dtype="float32")
case("smooth_l1.default", "smooth_l1", [_M], family="output")
case("smooth_l1.sigma2", "smooth_l1", [_M], family="output", scalar=2.0)
case("smooth_l1.sigma_half", "smooth_l1", [_M], family="output", scalar=0.5)
case("smooth_l1.float32", "smooth_l1", [_rand(3, 4, seed=52)], family="output", scalar=1.5,
     dtype="float32")
case("softmax_cross_entropy.default", "softmax_cross_entropy", [_D2, _L2], family="output",
     wrt=[0])
case("softmax_cross_entropy.odd_labels", "softmax_cross_entropy",
     [_D2, np.array([1.7, 0.2, 3.99, 4.0])], family="output", wrt=[0])
case("softmax_cross_entropy.float32", "softmax_cross_entropy", [_D2, _L2], family="output",
     wrt=[0], dtype="float32")


# ----------------------------------------------------------------------------- running
def head_grads(shapes, dtypes):
    """The fixed head gradient of each output."""
    return [np.random.RandomState(1000 + j).normal(size=s).astype(dt)
            for j, (s, dt) in enumerate(zip(shapes, dtypes))]


def run_case(mx, c: Case, inputs=None, heads=None):
    """Run one case with mxnet module ``mx``: (outputs, heads, gradients of ``c.wrt``)."""
    inputs = c.inputs if inputs is None else inputs
    xs = [mx.nd.array(np.asarray(x), dtype=dt) for x, dt in zip(inputs, c.input_dtypes())]
    wrt = c.grad_inputs() if c.backward else []
    for i in wrt:
        xs[i].attach_grad()
    fn = getattr(mx.nd, c.op)
    with mx.autograd.record(train_mode=c.train):
        out = fn(*xs, **c.kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if c.n_out is not None:
        outs = outs[:c.n_out]
    if heads is None:
        heads = head_grads([o.shape for o in outs], [o.dtype for o in outs])
    if c.backward:
        mx.autograd.backward(outs, [mx.nd.array(h, dtype=h.dtype) for h in heads],
                             train_mode=c.train)
    return [o.asnumpy() for o in outs], heads, [xs[i].grad.asnumpy() for i in wrt]


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    arrays = {}
    for c in CASES:
        try:
            outs, heads, grads = run_case(mx, c)
        except mx.base.MXNetError as e:
            sys.exit(f"case {c.id} failed under 1.9.1: {str(e).splitlines()[-1]}")
        for i, (x, dt) in enumerate(zip(c.inputs, c.input_dtypes())):
            arrays[f"{c.id}/in{i}"] = np.asarray(x).astype(dt)
        for j, (o, h) in enumerate(zip(outs, heads)):
            arrays[f"{c.id}/out{j}"] = o
            arrays[f"{c.id}/head{j}"] = h
        for i, g in zip(c.grad_inputs() if c.backward else [], grads):
            arrays[f"{c.id}/grad{i}"] = g
    OUT_NPZ.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(CASES)} cases ({len(arrays)} arrays) to {OUT_NPZ}")


if __name__ == "__main__":
    main()
