"""Record gluon.contrib (estimator, rnn, cnn, data) under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_gluon_contrib.py

The scenario functions below take the ``mxnet`` module as an argument and return plain
Python/NumPy results; this script runs them under 1.9.1 and the tests
(tests/gluon/test_gluon_contrib_*.py) import this module (it must stay importable without
mxnet) and run the same functions with this repository's mxnet, then compare.

- Estimator: a small MLP whose initial parameters are the recorded
  ``tests/golden/gluon_contrib_est_init.params`` (made from NumPy values), trained on NumPy
  data with several handler set-ups: metric values per epoch, final parameters, log lines
  (timings replaced by ``<t>``), checkpoint file listings, warnings and errors.
- rnn / cnn: cells and layers built under a fresh NameManager, parameters set from NumPy;
  parameter names and shapes (before and after deferred initialisation), reprs, outputs,
  states and (for some) gradients.
- data: IntervalSampler orders; WikiText2/WikiText103 read from a small token file written
  into a temporary ``root`` (1.9.1's SHA-1 check is bypassed while recording).

Output: ``tests/golden/gluon_contrib.npz`` (arrays under ``<scenario>/<key>``, plus a JSON
``__meta__`` with everything that is not an array) and the .params file above.
"""
from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import warnings
from io import StringIO
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "gluon_contrib.npz"
INIT_PARAMS = REPO / "tests" / "golden" / "gluon_contrib_est_init.params"


# ---------------------------------------------------------------------------------------------
# estimator
# ---------------------------------------------------------------------------------------------
def _normalise(line):
    line = re.sub(r"Finished in [0-9.]+s", "Finished in <t>s", line)
    line = re.sub(r"using total [0-9]+s", "using total <t>s", line)
    line = re.sub(r"time/interval: [0-9.]+s", "time/interval: <t>s", line)
    return line.rstrip("\n")


def _data(mx, n, seed, batch_size):
    from mxnet import gluon
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
    w = np.array([[1.0, -2.0, 0.5], [0.3, 1.0, -1.0], [-0.7, 0.2, 1.5], [0.9, -0.4, 0.1]],
                 dtype=np.float32)
    y = np.argmax(x @ w + 0.3 * rng.randn(n, 3), axis=1).astype(np.float32)
    ds = gluon.data.ArrayDataset(mx.nd.array(x), mx.nd.array(y))
    return gluon.data.DataLoader(ds, batch_size=batch_size, shuffle=False)


def make_net(mx, hybridize=False):
    from mxnet.gluon import nn
    net = nn.HybridSequential(prefix="mlp_")
    with net.name_scope():
        net.add(nn.Dense(8, activation="relu", in_units=4))
        net.add(nn.Dense(3, in_units=8))
    if hybridize:
        net.hybridize()
    return net


def init_values():
    """NumPy initial values of make_net's parameters, in collect_params() order."""
    rng = np.random.RandomState(7)
    shapes = [(8, 4), (8,), (3, 8), (3,)]
    return [rng.uniform(-0.6, 0.6, s).astype(np.float32) for s in shapes]


def loaded_net(mx, hybridize=False):
    net = make_net(mx, hybridize)
    net.load_parameters(str(INIT_PARAMS))
    return net


class _Capture:
    """Collect the estimator's log lines and the warnings raised while it is alive."""

    def __init__(self):
        self.stream = StringIO()

    def attach(self, est):
        est.logger.addHandler(logging.StreamHandler(self.stream))

    def lines(self):
        return [_normalise(x) for x in self.stream.getvalue().splitlines()]


def _recorder(mx, est, log):
    from mxnet.gluon.contrib.estimator import EpochEnd

    class Recorder(EpochEnd):
        def epoch_end(self, estimator, *args, **kwargs):
            log.append([[m.name, float(m.get()[1])] for m in
                        est.train_metrics + est.val_metrics])
    return Recorder()


def _params(net):
    return {k: v.data().asnumpy() for k, v in net.collect_params().items()}


def _trainer(mx, net, kind="sgd"):
    from mxnet import gluon
    if kind == "sgd":
        return gluon.Trainer(net.collect_params(), "sgd",
                             {"learning_rate": 0.2, "momentum": 0.9})
    return gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.01})


def _warned(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [str(w.message) for w in caught]


def scenario_fit(mx):
    """Default metrics, validation every epoch, batch logging every 2 batches."""
    from mxnet import gluon
    from mxnet.gluon.contrib.estimator import Estimator, LoggingHandler
    net = loaded_net(mx)
    cap = _Capture()
    est, warns = _warned(lambda: Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(),
                                           trainer=_trainer(mx, net), context=mx.cpu()))
    cap.attach(est)
    per_epoch = []
    handlers = [LoggingHandler(log_interval=2, metrics=est.train_metrics),
                _recorder(mx, est, per_epoch)]
    _, fit_warns = _warned(lambda: est.fit(_data(mx, 40, 1, 8), val_data=_data(mx, 24, 2, 12),
                                           epochs=3, event_handlers=handlers))
    return {"metrics": per_epoch, "log": cap.lines(), "warnings": warns + fit_warns,
            "arrays": _params(net)}


def scenario_batches(mx):
    """fit(batches=...), Adam, explicit metrics, default trainer-less warning, evaluate()."""
    from mxnet import gluon
    from mxnet.gluon.contrib.estimator import Estimator
    net = loaded_net(mx)
    cap = _Capture()
    acc = mx.metric.Accuracy()
    loss_metric = mx.metric.Loss()
    est, warns = _warned(lambda: Estimator(
        net, gluon.loss.SoftmaxCrossEntropyLoss(), train_metrics=[acc, loss_metric],
        trainer=_trainer(mx, net, "adam")))
    cap.attach(est)
    est.fit(_data(mx, 40, 3, 8), batches=7)
    est.evaluate(_data(mx, 20, 4, 10))
    values = [[m.name, float(m.get()[1])] for m in est.train_metrics + est.val_metrics]
    net2 = loaded_net(mx)
    est2, warns2 = _warned(lambda: Estimator(net2, gluon.loss.L2Loss(),
                                             initializer=mx.init.Xavier()))
    names2 = [[m.name for m in est2.train_metrics], [m.name for m in est2.val_metrics]]
    return {"metrics": values, "log": cap.lines(), "warnings": warns + warns2,
            "names": names2, "arrays": _params(net)}


def scenario_checkpoint(mx):
    """CheckpointHandler: epoch checkpoints with save_best and max_checkpoints, the symbol
    file of a hybridized net, resuming, and batch-period checkpoints."""
    from mxnet import gluon
    from mxnet.gluon.contrib.estimator import CheckpointHandler, Estimator
    out = {"log": [], "listing": [], "warnings": [], "arrays": {}}
    with tempfile.TemporaryDirectory() as tmp:
        d1 = os.path.join(tmp, "ck1")
        net = loaded_net(mx, hybridize=True)
        est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=_trainer(mx, net))
        cap = _Capture()
        cap.attach(est)
        ck, warns = _warned(lambda: CheckpointHandler(
            d1, model_prefix="m", monitor=est.val_metrics[0], save_best=True, verbose=1,
            max_checkpoints=2))
        out["warnings"] += warns
        est.fit(_data(mx, 32, 5, 8), val_data=_data(mx, 16, 6, 8), epochs=3,
                event_handlers=[ck])
        out["listing"].append(sorted(os.listdir(d1)))
        out["log"].append([x.replace(d1, "<dir>") for x in cap.lines()])
        for k, v in mx.nd.load(os.path.join(d1, "m-best.params")).items():
            out["arrays"]["best/" + k] = v.asnumpy()

        # resume: 2 more epochs of a 5-epoch run, starting from m-epoch2batch11
        net = loaded_net(mx)
        est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=_trainer(mx, net))
        cap = _Capture()
        cap.attach(est)
        ck = CheckpointHandler(d1, model_prefix="m", resume_from_checkpoint=True,
                               max_checkpoints=2)
        est.fit(_data(mx, 32, 5, 8), epochs=5, event_handlers=[ck])
        out["listing"].append(sorted(os.listdir(d1)))
        out["log"].append([x.replace(d1, "<dir>") for x in cap.lines()])
        for k, v in _params(net).items():
            out["arrays"]["resumed/" + k] = v

        # batch checkpoints
        d2 = os.path.join(tmp, "ck2")
        net = loaded_net(mx)
        est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=_trainer(mx, net))
        cap = _Capture()
        cap.attach(est)
        ck = CheckpointHandler(d2, batch_period=2, epoch_period=None, max_checkpoints=3)
        est.fit(_data(mx, 24, 8, 8), batches=9, event_handlers=[ck])
        out["listing"].append(sorted(os.listdir(d2)))
        out["log"].append([x.replace(d2, "<dir>") for x in cap.lines()])
        # resume by batches
        net = loaded_net(mx)
        est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=_trainer(mx, net))
        cap = _Capture()
        cap.attach(est)
        ck = CheckpointHandler(d2, batch_period=2, epoch_period=None, max_checkpoints=3,
                               resume_from_checkpoint=True)
        est.fit(_data(mx, 24, 8, 8), batches=12, event_handlers=[ck])
        out["listing"].append(sorted(os.listdir(d2)))
        out["log"].append([x.replace(d2, "<dir>") for x in cap.lines()])
        for k, v in _params(net).items():
            out["arrays"]["batches/" + k] = v
    return out


def scenario_early_stopping(mx):
    """EarlyStoppingHandler in min/max/auto modes, with a ValidationHandler every 2 batches."""
    from mxnet import gluon
    from mxnet.gluon.contrib.estimator import (EarlyStoppingHandler, Estimator,
                                               ValidationHandler)
    out = {"log": [], "warnings": [], "metrics": [], "arrays": {}}
    for mode, patience in (("max", 1), ("min", 2), ("auto", 0), ("bogus", 1)):
        net = loaded_net(mx)
        est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=_trainer(mx, net))
        cap = _Capture()
        cap.attach(est)
        handlers, warns = _warned(lambda: [EarlyStoppingHandler(
            est.train_metrics[1], patience=patience, mode=mode, min_delta=0.001)])
        val = _data(mx, 16, 10, 8)
        handlers.append(ValidationHandler(val, est.evaluate, batch_period=2, epoch_period=None))
        per_epoch = []
        handlers.append(_recorder(mx, est, per_epoch))
        est.fit(_data(mx, 24, 9, 8), epochs=6, event_handlers=handlers)
        out["log"].append(cap.lines())
        out["warnings"].append(warns)
        out["metrics"].append(per_epoch)
    return out


def scenario_errors(mx):
    """The ValueErrors (and one AssertionError) of bad arguments: type name and message."""
    from mxnet import gluon
    from mxnet.gluon.contrib.estimator import (CheckpointHandler, EarlyStoppingHandler,
                                               Estimator, LoggingHandler, MetricHandler)
    net = loaded_net(mx)
    loss = gluon.loss.L2Loss()
    trainer = _trainer(mx, net)
    est = Estimator(net, loss, trainer=trainer)
    loader = _data(mx, 8, 1, 4)
    cases = {
        "bad_loss": lambda: Estimator(net, "l2", trainer=trainer),
        "bad_context": lambda: Estimator(net, loss, trainer=trainer, context="cpu"),
        "bad_trainer": lambda: Estimator(net, loss, trainer="sgd"),
        "bad_metrics": lambda: Estimator(net, loss, trainer=trainer, train_metrics=["acc"]),
        "bad_processor": lambda: Estimator(net, loss, trainer=trainer, batch_processor=object()),
        "not_loader": lambda: est.fit([1, 2], epochs=1),
        "eval_not_loader": lambda: est.evaluate([1, 2]),
        "epochs_and_batches": lambda: est.fit(loader, epochs=1, batches=1),
        "neither": lambda: est.fit(loader),
        "bad_handler": lambda: est.fit(loader, epochs=1, event_handlers=[object()]),
        "unknown_metric": lambda: est.fit(loader, epochs=1, event_handlers=[
            MetricHandler([mx.metric.Accuracy()])]),
        "log_interval": lambda: LoggingHandler(log_interval="batch"),
        "ckpt_no_monitor": lambda: CheckpointHandler(tempfile.gettempdir(), save_best=True),
        "early_no_metric": lambda: EarlyStoppingHandler("acc"),
        "early_composite": lambda: EarlyStoppingHandler(mx.metric.CompositeEvalMetric()),
    }
    out = {}
    for name, fn in cases.items():
        try:
            fn()
            out[name] = None
        except Exception as e:  # noqa: BLE001 - recording what 1.9.1 raises
            out[name] = [type(e).__name__, str(e)]
    return {"errors": out}


ESTIMATOR_SCENARIOS = {
    "fit": scenario_fit,
    "batches": scenario_batches,
    "checkpoint": scenario_checkpoint,
    "early": scenario_early_stopping,
    "errors": scenario_errors,
}


def write_init_params(mx):
    net = make_net(mx)
    net.initialize()
    for p, v in zip(net.collect_params().values(), init_values()):
        p.set_data(mx.nd.array(v))
    net.save_parameters(str(INIT_PARAMS))


# ---------------------------------------------------------------------------------------------
# rnn and cnn
# ---------------------------------------------------------------------------------------------
def namespace(mx):
    from mxnet.gluon import nn, rnn
    from mxnet.gluon.contrib import cnn
    from mxnet.gluon.contrib import rnn as crnn
    return {"mx": mx, "nn": nn, "rnn": rnn, "crnn": crnn, "cnn": cnn}


# (key, expression, full input shape (layout NTC...), valid lengths or None, want grads)
CELLS = [
    ("c1rnn", "crnn.Conv1DRNNCell((2, 7), 3, 3, 3, i2h_pad=1)", (2, 3, 2, 7), None, True),
    ("c2rnn", "crnn.Conv2DRNNCell((2, 5, 4), 2, (3, 1), 3, i2h_dilate=(1, 1), "
              "activation='relu')", (2, 2, 2, 5, 4), None, False),
    ("c3rnn", "crnn.Conv3DRNNCell((1, 3, 4, 4), 2, 2, 1)", (1, 2, 1, 3, 4, 4), None, False),
    ("c1lstm", "crnn.Conv1DLSTMCell((3, 6), 2, 3, 5, h2h_dilate=2)", (2, 3, 3, 6), [3, 1],
     True),
    ("c2lstm", "crnn.Conv2DLSTMCell((2, 4, 5), 3, 3, 3, i2h_pad=1, prefix='cl_')",
     (2, 3, 2, 4, 5), None, True),
    ("c3lstm", "crnn.Conv3DLSTMCell((2, 3, 3, 3), 2, 3, 1, i2h_pad=(1, 1, 1))",
     (1, 2, 2, 3, 3, 3), None, False),
    ("c1gru", "crnn.Conv1DGRUCell((2, 8), 3, 3, 3, i2h_dilate=2, activation='softsign')",
     (2, 3, 2, 8), None, True),
    ("c2gru", "crnn.Conv2DGRUCell((3, 4, 4), 2, 1, 3)", (2, 2, 3, 4, 4), [1, 2], False),
    ("c3gru", "crnn.Conv3DGRUCell((1, 3, 3, 2), 2, (1, 2, 1), 3, activation='sigmoid')",
     (1, 2, 1, 3, 3, 2), None, False),
    ("lstmp", "crnn.LSTMPCell(5, 3)", (3, 4, 6), None, True),
    ("lstmp_in", "crnn.LSTMPCell(4, 2, input_size=3, prefix='p_')", (2, 3, 3), [2, 3], True),
    ("vardrop", "crnn.VariationalDropoutCell(rnn.LSTMCell(4, input_size=3), drop_inputs=0.3, "
                "drop_outputs=0.4)", (2, 3, 3), [3, 2], False),
    ("vardrop_state", "crnn.VariationalDropoutCell(rnn.GRUCell(3), drop_states=0.5)",
     (2, 4, 2), None, False),
    ("vardrop_lstmp", "crnn.VariationalDropoutCell(crnn.LSTMPCell(4, 2), drop_inputs=0.2, "
                      "drop_states=0.2, drop_outputs=0.2)", (2, 3, 3), None, False),
]

# (key, expression, input shape, want grads: 1.9.1's CPU backward of the modulated operator
# raises "only implemented in GPU")
LAYERS = [
    ("dc", "cnn.DeformableConvolution(4, kernel_size=3, padding=1)", (2, 3, 5, 5), True),
    ("dc_g", "cnn.DeformableConvolution(4, kernel_size=(3, 2), strides=2, groups=2, "
             "num_deformable_group=2, in_channels=4, activation='relu')", (1, 4, 7, 6), True),
    ("dc_nb", "cnn.DeformableConvolution(2, kernel_size=1, use_bias=False, "
              "offset_use_bias=False, dilation=2, prefix='d_')", (1, 3, 4, 4), True),
    ("mdc", "cnn.ModulatedDeformableConvolution(3, kernel_size=3, padding=1)", (2, 2, 5, 4),
     False),
    ("mdc_g", "cnn.ModulatedDeformableConvolution(4, kernel_size=3, padding=(1, 0), "
              "num_deformable_group=2, groups=2, activation='tanh')", (1, 4, 5, 5), False),
]

REPRS = [
    "crnn.Conv2DLSTMCell((3, 8, 8), 4, 3, 3, conv_layout='NHWC')",
    "crnn.Conv1DGRUCell((2, 7), 3, 3, 3, activation=nn.LeakyReLU(0.1))",
    "crnn.LSTMPCell(5, 3)",
    "crnn.LSTMPCell(5, 3, input_size=7)",
    "crnn.VariationalDropoutCell(rnn.RNNCell(3), drop_states=0.1, drop_outputs=0.2)",
    "cnn.DeformableConvolution(4, kernel_size=3, padding=1, dilation=2, groups=2)",
    "cnn.DeformableConvolution(4, kernel_size=3, use_bias=False, activation='relu')",
    "cnn.ModulatedDeformableConvolution(4, kernel_size=3, activation='relu')",
    "cnn.ModulatedDeformableConvolution(4, kernel_size=3)",
]


def build(mx, expr):
    with mx.name.NameManager():
        return eval(expr, namespace(mx))  # noqa: S307 - expressions from the tables above


def params_info(net):
    return [[k, None if p.shape is None else [int(s) for s in p.shape]]
            for k, p in net.collect_params().items()]


def _values(seed, shape, scale=0.5):
    rng = np.random.RandomState(seed)
    return rng.uniform(-scale, scale, shape).astype(np.float32)


def run_cell(mx, case):
    """Unroll the cell (merged NTC outputs) with parameters set from NumPy; then one
    hybridized step inside a wrapper; gradients of inputs and parameters when asked."""
    from mxnet import autograd
    from mxnet.gluon import HybridBlock
    key, expr, shape, valid, grads = case
    cell = build(mx, expr)
    info = {"before": params_info(cell), "repr_before": repr(cell)}
    cell.initialize()
    x = mx.nd.array(_values(1, shape, 1.0))
    length = shape[1]
    if any(0 in p.shape for p in cell.collect_params().values()):
        cell.unroll(length, x, merge_outputs=True)        # finishes deferred initialisation
    # (set before any convolution ran: 1.9.1 cannot overwrite MKL-DNN-laid-out weights)
    for j, p in enumerate(cell.collect_params().values()):
        p.set_data(mx.nd.array(_values(100 + j, p.shape)))
    info["after"] = params_info(cell)
    info["repr_after"] = repr(cell)
    arrays = {}
    vl = None if valid is None else mx.nd.array(valid)
    x.attach_grad()
    params = list(cell.collect_params().values())
    # predict mode: the variational dropout masks are then all ones (training-mode masks are
    # random and are checked for structure in the tests instead)
    with autograd.record(train_mode=False):
        out, states = cell.unroll(length, x, merge_outputs=True, valid_length=vl)
        total = (out * mx.nd.array(_values(2, out.shape, 1.0))).sum()
        for i, s in enumerate(states):
            total = total + (s * mx.nd.array(_values(3 + i, s.shape, 1.0))).sum()
    arrays["y"] = out.asnumpy()
    for i, s in enumerate(states):
        arrays[f"s{i}"] = s.asnumpy()
    if grads:
        total.backward()
        arrays["dx"] = x.grad.asnumpy()
        for j, p in enumerate(params):
            arrays[f"g{j}"] = p.grad().asnumpy()
    # list outputs, explicit begin state
    begin = [mx.nd.array(_values(20 + i, s.shape)) for i, s in enumerate(states)]
    outs, st2 = cell.unroll(length, x, begin_state=begin, merge_outputs=False)
    arrays["y_list"] = np.stack([o.asnumpy() for o in outs], axis=1)
    for i, s in enumerate(st2):
        arrays[f"s_list{i}"] = s.asnumpy()

    class Wrap(HybridBlock):
        def __init__(self, inner):
            super().__init__(prefix="wrap_")
            self.inner = inner

        def hybrid_forward(self, F, data, *st):
            return self.inner.unroll(length, data, begin_state=list(st), merge_outputs=True)

    wrap = Wrap(cell)
    wrap.hybridize()
    cell.reset()
    hy_out, hy_states = wrap(x, *begin)
    arrays["y_hybrid"] = hy_out.asnumpy()
    for i, s in enumerate(hy_states):
        arrays[f"s_hybrid{i}"] = s.asnumpy()
    return info, arrays


def run_layer(mx, case):
    """Forward (imperative and hybridized) and gradients of a deformable layer whose offset
    convolution has non-zero NumPy weights (so sampling is fractional)."""
    from mxnet import autograd
    key, expr, shape, grads = case
    layer = build(mx, expr)
    info = {"before": params_info(layer), "repr_before": repr(layer),
            "init": {k: str(p.init) for k, p in layer.collect_params().items()}}
    layer.initialize()
    x = mx.nd.array(_values(1, shape, 1.0))
    first = layer(x)
    info["after"] = params_info(layer)
    info["repr_after"] = repr(layer)
    arrays = {}
    # default initialisation: offsets (and their bias) are zeros, the layer is a plain conv
    for k, p in layer.collect_params().items():
        if "offset" in k or k.endswith("bias"):
            arrays["init_" + k] = p.data().asnumpy()
    arrays["y_init_zero_offsets_ok"] = np.array(first.shape)
    params = list(layer.collect_params().values())
    for j, p in enumerate(params):
        scale = 0.3 if "offset" in p.name else 0.5
        p.set_data(mx.nd.array(_values(200 + j, p.shape, scale)))
    x.attach_grad()
    with autograd.record():
        y = layer(x)
        total = (y * mx.nd.array(_values(5, y.shape, 1.0))).sum()
    arrays["y"] = y.asnumpy()
    if grads:
        total.backward()
        arrays["dx"] = x.grad.asnumpy()
        for j, p in enumerate(params):
            arrays[f"g{j}"] = p.grad().asnumpy()
    layer.hybridize()
    arrays["y_hybrid"] = layer(x).asnumpy()
    return info, arrays


# ---------------------------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------------------------
SAMPLERS = [(13, 3, True), (13, 3, False), (10, 10, True), (7, 1, True), (9, 4, False),
            (1, 1, True)]

WIKI_TRAIN = """
 = Valkyria Chronicles III =

 Senjō no Valkyria 3 : Unrecorded Chronicles is a tactical role @-@ playing video game .
 The game began development in 2010 , carrying over a large portion of the work .

 = = Gameplay = =

 As with previous games , the game is a tactical role @-@ playing game .
 Troops are divided into five classes : Scouts , Shocktroopers , Engineers , Lancers .
"""

WIKI_VALID = """
 = Tower Building =

 The game is a building of the Little Rock game , playing with <unk> troops .
"""


def run_wikitext(mx, root):
    """WikiText2 train + validation (with the train vocabulary) and WikiText103 test."""
    from mxnet.gluon.contrib import data as cdata
    for name, text in (("wiki.train.tokens", WIKI_TRAIN), ("wiki.valid.tokens", WIKI_VALID),
                       ("wiki.test.tokens", WIKI_VALID + WIKI_TRAIN)):
        with open(os.path.join(root, name), "w", encoding="utf8") as f:
            f.write(text)
    train = cdata.text.WikiText2(root=root, segment="train", seq_len=6)
    valid = cdata.text.WikiText2(root=root, segment="validation", vocab=train.vocabulary,
                                 seq_len=4)
    test = cdata.text.WikiText103(root=root, segment="test", seq_len=35)
    arrays = {}
    for tag, ds in (("train", train), ("valid", valid), ("test", test)):
        arrays[f"{tag}_data"] = ds._data.asnumpy()
        arrays[f"{tag}_label"] = ds._label.asnumpy()
        item = ds[1] if len(ds) > 1 else ds[0]
        arrays[f"{tag}_item"] = np.stack([item[0].asnumpy(), item[1].asnumpy()])
    info = {"len": [len(train), len(valid), len(test)],
            "idx_to_token": train.vocabulary.idx_to_token,
            "test_idx_to_token": test.vocabulary.idx_to_token,
            "freq": sorted(train.frequencies.items()),
            "valid_same_vocab": valid.vocabulary is train.vocabulary,
            "valid_freq": sorted(valid.frequencies.items())}
    return info, arrays


# ---------------------------------------------------------------------------------------------
def _jsonable(obj):
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items() if k != "arrays"}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def main():
    import mxnet as mx
    import mxnet.gluon.contrib.data.text as text_mod
    out: dict = {}
    meta: dict = {"estimator": {}, "cells": {}, "layers": {}, "reprs": {}}
    write_init_params(mx)
    for name, fn in ESTIMATOR_SCENARIOS.items():
        res = fn(mx)
        meta["estimator"][name] = _jsonable(res)
        for k, v in res.get("arrays", {}).items():
            out[f"est_{name}/{k}"] = v
    for case in CELLS:
        info, arrays = run_cell(mx, case)
        meta["cells"][case[0]] = info
        out.update({f"{case[0]}/{k}": v for k, v in arrays.items()})
    for case in LAYERS:
        info, arrays = run_layer(mx, case)
        meta["layers"][case[0]] = info
        out.update({f"{case[0]}/{k}": v for k, v in arrays.items()})
    for expr in REPRS:
        meta["reprs"][expr] = repr(build(mx, expr))
    from mxnet.gluon.contrib import data as cdata
    meta["samplers"] = [list(cdata.IntervalSampler(*s)) + [len(cdata.IntervalSampler(*s))]
                        for s in SAMPLERS]
    text_mod.check_sha1 = lambda *a, **k: True      # the real files are not used here
    with tempfile.TemporaryDirectory() as root:
        info, arrays = run_wikitext(mx, root)
    meta["wikitext"] = info
    out.update({f"wiki/{k}": v for k, v in arrays.items()})
    out["__meta__"] = np.array(json.dumps(meta, sort_keys=True))
    np.savez_compressed(OUT_NPZ, **out)
    print(f"wrote {len(out)} arrays to {OUT_NPZ}")


if __name__ == "__main__":
    main()
