"""Record gluon.nn layers and gluon.loss losses under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_gluon_nn.py

Layers (``LAYERS``): each block is built from a Python expression under a fresh
``mx.name.NameManager`` (so its name counters start at 0), initialised, run once to finish
deferred initialisation, then given NumPy-made parameter values with ``set_data``. One forward
under ``autograd.record(train_mode=...)`` and a backward with a fixed head gradient follow, then
the same again hybridized (parameters reset first). Losses (``LOSSES``): each loss is called on
its inputs, with and without a sample weight, imperatively and hybridized, and backward runs
from the summed loss.

``tests/golden/gluon_nn.npz`` holds, per case ``<id>``: ``x``/``in<i>`` (inputs), ``dy`` (head
gradient), ``p<j>`` (parameter values set), ``y`` / ``hy`` (imperative / hybridized output),
``dx`` / ``gin<i>`` (input gradients), ``g<j>`` (parameter gradients), ``post<j>`` (parameters
after the step, for the running statistics), ``sw_*`` (the same with sample_weight).
``tests/golden/gluon_nn.json`` holds names, shapes (before and after deferred init), grad_reqs
and reprs. ``tests/gluon/test_nn.py`` and ``test_loss.py`` import this module (it must stay
importable without mxnet) and replay the cases against this repository's mxnet.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "gluon_nn.npz"
OUT_JSON = REPO / "tests" / "golden" / "gluon_nn.json"


def namespace(mx):
    """The names the case expressions may use, for a given ``mxnet`` module."""
    from mxnet.gluon import loss as gloss
    from mxnet.gluon import nn
    from mxnet.gluon.contrib import nn as cnn

    def hseq(*blocks):
        net = nn.HybridSequential()
        net.add(*blocks)
        return net

    def seq(*blocks):
        net = nn.Sequential()
        net.add(*blocks)
        return net

    def hconc(axis, *blocks):
        net = cnn.HybridConcurrent(axis=axis)
        net.add(*blocks)
        return net

    def conc(axis, *blocks):
        net = cnn.Concurrent(axis=axis)
        net.add(*blocks)
        return net

    def nested():
        # children created inside the parent's name scope get the parent's prefix
        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Conv2D(3, 3, padding=1, activation="relu"), nn.BatchNorm(),
                    nn.MaxPool2D(), nn.Flatten(), nn.Dense(4), nn.Dropout(0.0))
        return net

    return {"mx": mx, "nn": nn, "cnn": cnn, "gloss": gloss, "hseq": hseq, "seq": seq,
            "hconc": hconc, "conc": conc, "nested": nested}


@dataclass
class Layer:
    """A block built by ``expr`` run on input ``x`` of ``shape`` (``kind`` says how x is drawn)."""

    id: str
    expr: str
    shape: tuple
    kind: str = "normal"      # normal | index:<n> | positive
    train: bool = True        # autograd.record(train_mode=...)
    x_grad: bool = True
    hybrid: bool = True       # the hybridized run must match too
    dtype: str = "float32"


LAYERS = [
    Layer("dense", "nn.Dense(4, activation='tanh')", (2, 3, 5)),
    Layer("dense_noflat", "nn.Dense(3, use_bias=False, flatten=False, in_units=5)", (2, 3, 5)),
    Layer("dense_f64", "nn.Dense(2, dtype='float64', in_units=3)", (2, 3), dtype="float64"),
    Layer("dropout0", "nn.Dropout(0.0)", (2, 3)),
    Layer("dropout_predict", "nn.Dropout(0.5, axes=(1,))", (2, 3), train=False),
    Layer("batchnorm", "nn.BatchNorm()", (4, 3, 2, 2)),
    Layer("batchnorm_last", "nn.BatchNorm(axis=-1, center=False, scale=False, momentum=0.8, "
          "epsilon=1e-3)", (4, 2, 3)),
    Layer("batchnorm_global", "nn.BatchNorm(use_global_stats=True, in_channels=3)", (2, 3, 4)),
    Layer("batchnorm_predict", "nn.BatchNorm(momentum=0.5)", (3, 2, 4), train=False),
    Layer("instancenorm", "nn.InstanceNorm()", (2, 3, 4)),
    Layer("instancenorm_axis", "nn.InstanceNorm(axis=2, scale=True, epsilon=1e-3)", (2, 3, 4)),
    Layer("layernorm", "nn.LayerNorm()", (2, 3, 4)),
    Layer("layernorm_axis", "nn.LayerNorm(axis=1, center=False, in_channels=3)", (2, 3, 4)),
    Layer("groupnorm", "nn.GroupNorm(num_groups=2)", (2, 4, 3)),
    Layer("embedding", "nn.Embedding(10, 4)", (2, 3), kind="index:10", x_grad=False),
    Layer("flatten", "nn.Flatten()", (2, 3, 2, 2)),
    Layer("lambda", "nn.Lambda('tanh')", (2, 3), hybrid=False),
    Layer("hybridlambda", "nn.HybridLambda('tanh')", (2, 3)),
    Layer("hybridlambda_fn", "nn.HybridLambda(lambda F, x: F.relu(x) * 2)", (2, 3)),
    Layer("conv1d", "nn.Conv1D(4, 3, strides=2, padding=1, activation='relu')", (2, 3, 7)),
    Layer("conv2d", "nn.Conv2D(4, (3, 2), strides=(2, 1), padding=(1, 0), dilation=(1, 2), "
          "groups=2)", (2, 4, 6, 5)),
    Layer("conv2d_nobias", "nn.Conv2D(2, 1, use_bias=False, in_channels=3)", (1, 3, 2, 2)),
    Layer("conv3d", "nn.Conv3D(2, 2, use_bias=False)", (1, 2, 3, 4, 4)),
    Layer("conv1d_t", "nn.Conv1DTranspose(3, 3, strides=2, output_padding=1)", (2, 2, 4)),
    Layer("conv2d_t", "nn.Conv2DTranspose(3, 3, strides=2, padding=1, output_padding=1, "
          "in_channels=2, activation='sigmoid')", (1, 2, 3, 3)),
    Layer("conv3d_t", "nn.Conv3DTranspose(2, 2, strides=2)", (1, 2, 2, 2, 2)),
    Layer("maxpool1d", "nn.MaxPool1D()", (2, 2, 7)),
    Layer("maxpool2d", "nn.MaxPool2D(pool_size=3, strides=2, padding=1, ceil_mode=True)",
          (1, 2, 6, 6)),
    Layer("maxpool3d", "nn.MaxPool3D()", (1, 1, 4, 4, 4)),
    Layer("avgpool1d", "nn.AvgPool1D(3, 1, 1)", (2, 2, 5)),
    Layer("avgpool2d", "nn.AvgPool2D(3, 2, 1, count_include_pad=False)", (1, 2, 5, 5)),
    Layer("avgpool2d_ceil", "nn.AvgPool2D(ceil_mode=True)", (1, 2, 5, 5)),
    Layer("avgpool3d", "nn.AvgPool3D(pool_size=2, strides=1)", (1, 1, 3, 3, 3)),
    Layer("gmaxpool1d", "nn.GlobalMaxPool1D()", (2, 3, 5)),
    Layer("gmaxpool2d", "nn.GlobalMaxPool2D()", (2, 3, 3, 4)),
    Layer("gmaxpool3d", "nn.GlobalMaxPool3D()", (1, 2, 2, 3, 2)),
    Layer("gavgpool1d", "nn.GlobalAvgPool1D()", (2, 3, 5)),
    Layer("gavgpool2d", "nn.GlobalAvgPool2D()", (2, 3, 3, 4)),
    Layer("gavgpool3d", "nn.GlobalAvgPool3D()", (1, 2, 2, 3, 2)),
    Layer("reflectionpad", "nn.ReflectionPad2D(1)", (1, 2, 3, 4)),
    Layer("relu", "nn.Activation('relu')", (2, 5)),
    Layer("sigmoid", "nn.Activation('sigmoid')", (2, 5)),
    Layer("tanh", "nn.Activation('tanh')", (2, 5)),
    Layer("softrelu", "nn.Activation('softrelu')", (2, 5)),
    Layer("softsign", "nn.Activation('softsign')", (2, 5)),
    Layer("leakyrelu", "nn.LeakyReLU(0.1)", (2, 5)),
    Layer("prelu", "nn.PReLU()", (2, 5)),
    Layer("prelu_channels", "nn.PReLU(in_channels=3)", (2, 3, 4)),
    Layer("elu", "nn.ELU(0.5)", (2, 5)),
    Layer("selu", "nn.SELU()", (2, 5)),
    Layer("swish", "nn.Swish(2.0)", (2, 5)),
    Layer("gelu", "nn.GELU()", (2, 5)),
    Layer("hseq", "hseq(nn.Dense(3, activation='relu'), nn.Dense(2))", (2, 4)),
    Layer("seq", "seq(nn.Dense(3), nn.Activation('tanh'), nn.Dense(2))", (2, 4)),
    Layer("nested", "nested()", (2, 2, 4, 4)),
    Layer("hconcurrent", "hconc(1, cnn.Identity(), nn.Dense(3, flatten=False), "
          "nn.Activation('tanh'))", (2, 4)),
    Layer("concurrent", "conc(-1, nn.Dense(2), nn.Dense(3))", (2, 4), hybrid=False),
    Layer("syncbatchnorm", "cnn.SyncBatchNorm(num_devices=1)", (4, 3, 2)),
    Layer("pixelshuffle1d", "cnn.PixelShuffle1D(2)", (1, 4, 3)),
    Layer("pixelshuffle2d", "cnn.PixelShuffle2D((2, 3))", (1, 12, 2, 3)),
    Layer("pixelshuffle3d", "cnn.PixelShuffle3D(2)", (1, 8, 1, 2, 2)),
]

# Reprs of blocks that are only constructed (printed before and after nothing runs).
REPRS = [
    "nn.Dense(3)", "nn.Dense(3, activation='relu', in_units=5)",
    "nn.Conv2D(4, 3)", "nn.Conv2DTranspose(4, 3, output_padding=1, strides=2)",
    "nn.Conv1D(4, 3, activation='tanh', use_bias=False, groups=2, dilation=2, padding=1)",
    "nn.Conv3D(4, 3, layout='NDHWC')", "nn.Conv2D(4, 3, layout='NHWC', in_channels=6, groups=2)",
    "nn.Conv3DTranspose(4, 3, layout='NDHWC')", "nn.MaxPool2D()", "nn.AvgPool1D(3, padding=1)",
    "nn.GlobalAvgPool2D()", "nn.Activation('relu')", "nn.LeakyReLU(0.1)", "nn.PReLU()",
    "nn.ELU()", "nn.SELU()", "nn.Swish()", "nn.GELU()", "nn.BatchNorm()",
    "nn.BatchNorm(in_channels=3, scale=False)", "nn.InstanceNorm()", "nn.LayerNorm()",
    "nn.GroupNorm()", "nn.Embedding(10, 4)", "nn.Flatten()", "nn.Dropout(0.5)",
    "nn.ReflectionPad2D(2)", "nn.Lambda('tanh')", "nn.HybridLambda('tanh')", "nn.Sequential()",
    "nn.HybridSequential()", "hseq(nn.Dense(3), nn.Dense(2))", "nested()",
    "cnn.Identity()", "hconc(1, nn.Dense(2))", "cnn.SyncBatchNorm(num_devices=1)",
    "cnn.PixelShuffle2D(2)", "gloss.L2Loss()", "gloss.SoftmaxCrossEntropyLoss()",
    "gloss.CTCLoss(layout='TNC', label_layout='TN')", "gloss.SDMLLoss()",
]


# Hybridized, run once on ``(shape)`` and exported: the graph's operator nodes (op, name,
# attrs, inputs) must be the same as 1.9.1's.
EXPORTS = [
    ("hseq(nn.Conv2D(3, 3, padding=1, activation='relu'), nn.MaxPool2D(), nn.Flatten(), "
     "nn.Dense(4), nn.Dropout(0.0), nn.LeakyReLU(0.1), nn.Swish(), nn.ELU(), nn.PReLU())",
     (2, 2, 4, 4)),
    ("nested()", (2, 2, 4, 4)),
    ("hseq(nn.Conv1DTranspose(2, 3, strides=2, output_padding=1), nn.AvgPool1D(3, 1, 1, "
     "count_include_pad=False), nn.GlobalMaxPool1D(), nn.LayerNorm(), nn.Dense(3, flatten=False,"
     " use_bias=False), nn.GELU(), nn.SELU(), nn.Activation('softsign'))", (2, 3, 5)),
    ("hconc(1, cnn.Identity(), nn.HybridLambda('tanh'), nn.InstanceNorm(), nn.GroupNorm(), "
     "nn.Conv2D(2, 1, in_channels=3), nn.BatchNorm(use_global_stats=True))", (1, 3, 1, 1)),
    ("hseq(nn.Embedding(5, 2), nn.Flatten(), cnn.SyncBatchNorm(num_devices=1))", (2, 3)),
]


@dataclass
class LossCase:
    """``expr`` called on the inputs ``(name, kind, shape)``; ``sw`` is the sample_weight shape
    (None: the loss takes none), ``grad`` the inputs to differentiate, ``extra`` inputs passed
    after sample_weight (SigmoidBCE's pos_weight)."""

    id: str
    expr: str
    inputs: list
    sw: tuple | None = None
    grad: tuple = ("pred",)
    extra: list = field(default_factory=list)
    hybrid: bool = True
    record: bool = True       # False: forward only, outside autograd
    nones: int = 0            # None arguments passed before sample_weight (optional inputs)


LOSSES = [
    LossCase("l2", "gloss.L2Loss()", [("pred", "normal", (3, 4)), ("label", "normal", (3, 4))],
             sw=(3, 1), grad=("pred", "label")),
    LossCase("l2_axis1", "gloss.L2Loss(weight=2.0, batch_axis=1)",
             [("pred", "normal", (3, 4)), ("label", "normal", (3, 4))], sw=(1, 4)),
    LossCase("l2_reshape", "gloss.L2Loss()", [("pred", "normal", (3, 1)), ("label", "normal", (3,))],
             sw=(3, 1)),
    LossCase("l1", "gloss.L1Loss(weight=0.5)",
             [("pred", "normal", (3, 4)), ("label", "normal", (3, 4))], sw=(3, 1)),
    LossCase("sbce", "gloss.SigmoidBinaryCrossEntropyLoss()",
             [("pred", "normal", (3, 4)), ("label", "binary", (3, 4))], sw=(3, 1),
             grad=("pred", "label")),
    LossCase("sbce_pos", "gloss.SigmoidBCELoss()",
             [("pred", "normal", (3, 4)), ("label", "binary", (3, 4))], sw=(3, 1),
             extra=[("pos_weight", "positive", (4,))]),
    LossCase("sbce_sigmoid", "gloss.SigmoidBCELoss(from_sigmoid=True, weight=2.0)",
             [("pred", "prob", (3, 4)), ("label", "binary", (3, 4))], sw=(3, 1)),
    LossCase("sbce_sigmoid_pos", "gloss.SigmoidBCELoss(from_sigmoid=True)",
             [("pred", "prob", (3, 4)), ("label", "binary", (3, 4))], sw=(3, 1),
             extra=[("pos_weight", "positive", (4,))]),
    LossCase("softmax_ce", "gloss.SoftmaxCrossEntropyLoss()",
             [("pred", "normal", (3, 5)), ("label", "index:5", (3,))], sw=(3, 1)),
    LossCase("softmax_ce_dense", "gloss.SoftmaxCELoss(sparse_label=False)",
             [("pred", "normal", (3, 5)), ("label", "simplex", (3, 5))], sw=(3, 1),
             grad=("pred", "label")),
    LossCase("softmax_ce_axis", "gloss.SoftmaxCELoss(axis=1, from_logits=True)",
             [("pred", "normal", (2, 4, 3)), ("label", "index:4", (2, 3))], sw=(2, 1, 1)),
    LossCase("kldiv", "gloss.KLDivLoss()",
             [("pred", "logsimplex", (3, 5)), ("label", "simplex", (3, 5))], sw=(3, 1),
             grad=("pred", "label")),
    LossCase("kldiv_logits", "gloss.KLDivLoss(from_logits=False, axis=0)",
             [("pred", "normal", (3, 5)), ("label", "simplex", (3, 5))], sw=(3, 1)),
    LossCase("ctc", "gloss.CTCLoss()",
             [("pred", "normal", (2, 6, 4)), ("label", "ctc_label", (2, 3))], sw=(2,), nones=2),
    LossCase("ctc_tnc", "gloss.CTCLoss(layout='TNC', label_layout='TN')",
             [("pred", "normal", (6, 2, 4)), ("label", "ctc_label_tn", (3, 2)),
              ("pred_lengths", "const:5,6", (2,)), ("label_lengths", "const:2,3", (2,))],
             sw=(2,)),
    LossCase("huber", "gloss.HuberLoss(rho=0.5)",
             [("pred", "normal", (3, 4)), ("label", "normal", (3, 4))], sw=(3, 1),
             grad=("pred", "label")),
    LossCase("hinge", "gloss.HingeLoss(margin=0.5)",
             [("pred", "normal", (3, 4)), ("label", "sign", (3, 4))], sw=(3, 1)),
    LossCase("sq_hinge", "gloss.SquaredHingeLoss()",
             [("pred", "normal", (3, 4)), ("label", "sign", (3, 4))], sw=(3, 1)),
    LossCase("logistic", "gloss.LogisticLoss()",
             [("pred", "normal", (3, 4)), ("label", "sign", (3, 4))], sw=(3, 1)),
    LossCase("logistic_binary", "gloss.LogisticLoss(label_format='binary')",
             [("pred", "normal", (3, 4)), ("label", "binary", (3, 4))], sw=(3, 1)),
    LossCase("triplet", "gloss.TripletLoss(margin=0.5)",
             [("pred", "normal", (3, 4)), ("positive", "normal", (3, 4)),
              ("negative", "normal", (3, 4))], grad=("pred", "positive", "negative")),
    LossCase("poisson", "gloss.PoissonNLLLoss()",
             [("pred", "normal", (3, 4)), ("target", "index:4", (3, 4))], sw=(3, 1)),
    LossCase("poisson_full", "gloss.PoissonNLLLoss(from_logits=False, compute_full=True)",
             [("pred", "positive", (3, 4)), ("target", "count", (3, 4))], sw=(3, 1), grad=(),
             record=False, hybrid=False),  # 1.9.1 multiplies in place: no autograd, no Symbol
    LossCase("cosine", "gloss.CosineEmbeddingLoss()",
             [("input1", "normal", (3, 4)), ("input2", "normal", (3, 4)),
              ("label", "const:1,-1,1", (3,))], sw=(3, 1), grad=("input1", "input2")),
    LossCase("cosine_margin", "gloss.CosineEmbeddingLoss(margin=0.2)",
             [("input1", "normal", (4, 3)), ("input2", "normal", (4, 3)),
              ("label", "const:-1,-1,1,-1", (4,))], sw=(4, 1), grad=("input1", "input2")),
    LossCase("sdml", "gloss.SDMLLoss()",
             [("x1", "normal", (4, 3)), ("x2", "normal", (4, 3))], grad=("x1", "x2"),
             hybrid=False),
]


def draw(rng, kind, shape):
    """Input values of a given kind (a float64 array; the tests cast to float32)."""
    if kind == "normal":
        return rng.standard_normal(shape)
    if kind == "positive":
        return rng.uniform(0.2, 2.0, shape)
    if kind == "prob":
        return rng.uniform(0.05, 0.95, shape)
    if kind == "binary":
        return rng.integers(0, 2, shape).astype(np.float64)
    if kind == "sign":
        return rng.integers(0, 2, shape) * 2.0 - 1.0
    if kind == "count":
        return rng.integers(1, 6, shape).astype(np.float64)
    if kind == "simplex":
        e = np.exp(rng.standard_normal(shape))
        return e / e.sum(axis=-1, keepdims=True)
    if kind == "logsimplex":
        return np.log(draw(rng, "simplex", shape))
    if kind.startswith("index:"):
        return rng.integers(0, int(kind[6:]), shape).astype(np.float64)
    if kind.startswith("const:"):
        return np.array([float(v) for v in kind[6:].split(",")]).reshape(shape)
    if kind == "ctc_label":      # classes 0..2 (3 is the blank), -1 pads
        return np.array([[0, 1, 1], [2, 0, -1]], dtype=np.float64)
    if kind == "ctc_label_tn":
        return np.array([[1, 0], [2, 2], [-1, 1]], dtype=np.float64)
    raise ValueError(kind)


def param_value(rng, name, shape):
    """The value a test sets for a parameter (statistics and scales kept positive)."""
    if name.endswith(("running_var", "gamma")):
        return rng.uniform(0.5, 1.5, shape)
    return rng.normal(0.0, 0.5, shape)


def seed_of(case_id):
    return sum(ord(c) * (i + 1) for i, c in enumerate(case_id)) % (2 ** 31)


# ---------------------------------------------------------------------------------------------
# recording under the reference

def _params_info(net):
    return [[name, list(p.shape) if p.shape is not None else None, p.grad_req]
            for name, p in net.collect_params().items()]


def _run_layer(mx, ns, case, out, meta):
    from mxnet import autograd
    rng = np.random.default_rng(seed_of(case.id))
    with mx.name.NameManager():
        net = eval(case.expr, ns)  # noqa: S307 - expressions come from the table above
    info = {"repr_before": repr(net), "params_before": _params_info(net), "prefix": net.prefix}
    dtype = case.dtype
    x = draw(rng, case.kind, case.shape).astype(dtype)
    net.initialize()
    net(mx.nd.array(x, dtype=dtype))   # finish deferred initialisation (predict mode)
    params = list(net.collect_params().values())
    values = [param_value(rng, p.name, p.shape).astype(p.dtype) for p in params]
    info["params_after"] = _params_info(net)
    info["repr_after"] = repr(net)
    out[f"{case.id}/x"] = x
    for j, v in enumerate(values):
        out[f"{case.id}/p{j}"] = v
    results = {}
    for mode in ("imperative", "hybrid") if case.hybrid else ("imperative",):
        if mode == "hybrid":
            net.hybridize()
        for p, v in zip(params, values):
            p.set_data(mx.nd.array(v, dtype=p.dtype))
        net.collect_params().zero_grad()
        xa = mx.nd.array(x, dtype=dtype)
        if case.x_grad:
            xa.attach_grad()
        with autograd.record(train_mode=case.train):
            y = net(xa)
        if "dy" not in results:
            results["dy"] = rng.standard_normal(y.shape).astype(y.dtype)
        y.backward(mx.nd.array(results["dy"], dtype=y.dtype), train_mode=case.train)
        key = "y" if mode == "imperative" else "hy"
        out[f"{case.id}/{key}"] = y.asnumpy()
        if mode == "imperative":
            if case.x_grad:
                out[f"{case.id}/dx"] = xa.grad.asnumpy()
            for j, p in enumerate(params):
                if p.grad_req != "null":
                    out[f"{case.id}/g{j}"] = p.grad().asnumpy()
                out[f"{case.id}/post{j}"] = p.data().asnumpy()
        else:
            if case.x_grad:
                out[f"{case.id}/hdx"] = xa.grad.asnumpy()
    out[f"{case.id}/dy"] = results["dy"]
    meta["layers"][case.id] = info


def _loss_inputs(rng, case):
    arrays = {name: draw(rng, kind, shape) for name, kind, shape in case.inputs + case.extra}
    if case.sw is not None:
        arrays["sample_weight"] = rng.uniform(0.0, 2.0, case.sw)
    return {k: v.astype(np.float32) for k, v in arrays.items()}


def _call_loss(mx, net, case, arrays, with_sw):
    """Run one loss call under record; returns (loss, {name: grad})."""
    from mxnet import autograd
    nds = {k: mx.nd.array(v) for k, v in arrays.items()}
    for name in case.grad:
        nds[name].attach_grad()
    args = [nds[name] for name, _, _ in case.inputs]
    if case.extra:
        sw = nds["sample_weight"] if with_sw else mx.nd.ones(case.sw)
        args += [sw] + [nds[name] for name, _, _ in case.extra]
    elif with_sw:
        args += [None] * case.nones + [nds["sample_weight"]]
    if not case.record:
        return net(*args).asnumpy(), {}
    with autograd.record():
        loss = net(*args)
    loss.backward()
    return loss.asnumpy(), {name: nds[name].grad.asnumpy() for name in case.grad}


def _run_loss(mx, ns, case, out, meta):
    rng = np.random.default_rng(seed_of(case.id))
    arrays = _loss_inputs(rng, case)
    for k, v in arrays.items():
        out[f"loss/{case.id}/in/{k}"] = v
    variants = [False, True] if case.sw is not None or case.extra else [False]
    modes = ("imperative", "hybrid") if case.hybrid else ("imperative",)
    for mode in modes:
        for with_sw in variants:
            # a hybridized block keeps the argument structure of its first call: one per variant
            with mx.name.NameManager():
                net = eval(case.expr, ns)  # noqa: S307
            meta["losses"][case.id] = {"repr": repr(net)}
            if mode == "hybrid":
                net.hybridize()
            tag = ("sw_" if with_sw else "") + ("h" if mode == "hybrid" else "")
            loss, grads = _call_loss(mx, net, case, arrays, with_sw)
            out[f"loss/{case.id}/{tag}y"] = loss
            for name, g in grads.items():
                out[f"loss/{case.id}/{tag}g/{name}"] = g


def main():
    import mxnet as mx
    if not hasattr(mx, "__file__") or "/.ref/" not in mx.__file__:
        sys.exit("run this with the reference interpreter, outside the repository")
    ns = namespace(mx)
    out, meta = {}, {"layers": {}, "losses": {}, "reprs": {}}
    for case in LAYERS:
        _run_layer(mx, ns, case, out, meta)
    for case in LOSSES:
        _run_loss(mx, ns, case, out, meta)
    for expr in REPRS:
        with mx.name.NameManager():
            block = eval(expr, ns)  # noqa: S307
        meta["reprs"][expr] = {"repr": repr(block), "prefix": block.prefix,
                               "params": _params_info(block)}
    meta["exports"] = {}
    for expr, shape in EXPORTS:
        with mx.name.NameManager():
            block = eval(expr, ns)  # noqa: S307
        block.initialize()
        block.hybridize()
        block(mx.nd.ones(shape))
        block.export("/tmp/gen_gluon_nn_export")
        graph = json.loads(Path("/tmp/gen_gluon_nn_export-symbol.json").read_text())
        meta["exports"][expr] = {"nodes": graph["nodes"], "heads": graph["heads"]}
    np.savez_compressed(OUT_NPZ, **out)
    OUT_JSON.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} arrays to {OUT_NPZ} and {OUT_JSON}")



if __name__ == "__main__":
    main()
