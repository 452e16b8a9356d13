"""Record how MXNet 1.9.1's deprecated ``mx.model.FeedForward`` trains, logs, predicts,
scores, saves and loads, for tests/module/test_feedforward.py.

Run with the reference interpreter, from outside the repository root so that
``import mxnet`` finds the reference (never this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_feedforward.py

The initial weights come from ``tests/golden/feedforward_init.params``, which this script
writes first from NumPy draws (``write_fixture``); every scenario then loads that file,
so neither side's random initializer is involved (biases and BatchNorm states left out of
the file are filled by the initializers' deterministic rules). Data are NumPy draws with
fixed seeds; the shuffling of NumPy inputs follows ``np.random.seed``.

Each scenario in ``SCENARIOS`` is ``f(mx, workdir) -> dict`` of numpy arrays plus, under
the key ``"log"``, the log lines (the time-cost lines are dropped) and under ``"info"``
small JSON values. Results go to ``tests/golden/feedforward.npz`` / ``feedforward.json``.
This module must import without mxnet: the test imports it and replays every scenario.
"""
from __future__ import annotations

import json
import logging
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"
FIXTURE = GOLDEN / "feedforward_init.params"
DIM, HIDDEN, CLASSES = 6, 10, 3


# -- networks, data, fixed initial parameters ---------------------------------------------
def mlp(mx):
    x = mx.sym.var("data")
    h = mx.sym.Activation(mx.sym.FullyConnected(x, num_hidden=HIDDEN, name="fc1"),
                          act_type="relu", name="relu1")
    out = mx.sym.FullyConnected(h, num_hidden=CLASSES, name="fc2")
    return mx.sym.SoftmaxOutput(out, name="softmax")


def bn_mlp(mx):
    x = mx.sym.var("data")
    h = mx.sym.FullyConnected(x, num_hidden=HIDDEN, name="bfc1")
    h = mx.sym.BatchNorm(h, fix_gamma=False, name="bn1")
    h = mx.sym.Activation(h, act_type="tanh", name="tanh1")
    out = mx.sym.FullyConnected(h, num_hidden=CLASSES, name="bfc2")
    return mx.sym.SoftmaxOutput(out, name="softmax")


def dataset(n, seed):
    """Separable-ish 3-class data: the class is the argmax of a fixed projection."""
    rng = np.random.RandomState(seed)
    x = rng.randn(n, DIM).astype(np.float32)
    proj = np.random.RandomState(99).randn(DIM, CLASSES)
    y = np.argmax(x @ proj + 0.3 * rng.randn(n, CLASSES), axis=1).astype(np.float32)
    return x, y


def write_fixture(mx):
    """Weights for both networks (biases are left to the initializer: zeros)."""
    rng = np.random.RandomState(2024)
    shapes = {"fc1_weight": (HIDDEN, DIM), "fc1_bias": (HIDDEN,),
              "fc2_weight": (CLASSES, HIDDEN), "fc2_bias": (CLASSES,),
              "bfc1_weight": (HIDDEN, DIM), "bfc2_weight": (CLASSES, HIDDEN)}
    values = {f"arg:{k}": mx.nd.array(rng.uniform(-0.4, 0.4, s).astype(np.float32))
              for k, s in shapes.items()}
    mx.nd.save(str(FIXTURE), values)


def initial(mx, names):
    """The fixture's values for ``names`` (fresh NDArrays)."""
    saved = mx.nd.load(str(FIXTURE))
    return {n: saved[f"arg:{n}"].copy() for n in names}


class _Logs:
    """Capture the text of log records on a logger: a private one (``name``, not passed on
    to the root) or, without a name, the root logger (the default eval_end_callback logs
    there); ``close`` gives the logger back its level and handlers."""

    def __init__(self, name=None):
        self.lines = []
        self.logger = logging.getLogger(name)
        self._level, self._handlers = self.logger.level, self.logger.handlers[:]
        self.logger.setLevel(logging.INFO)
        if name is not None:
            self.logger.propagate = False
        outer = self

        class _H(logging.Handler):
            def emit(self, record):
                outer.lines.append(record.getMessage())

        self.logger.handlers[:] = [_H()]

    def kept(self):
        return [ln for ln in self.lines if "Time cost" not in ln]

    def close(self):
        self.logger.handlers[:] = self._handlers
        self.logger.setLevel(self._level)


def _model(mx, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return mx.model.FeedForward(*args, **kwargs)


def _params(model, prefix=""):
    out = {f"{prefix}arg:{k}": v.asnumpy() for k, v in model.arg_params.items()}
    out.update({f"{prefix}aux:{k}": v.asnumpy() for k, v in model.aux_params.items()})
    return out


def _batch_recorder(store):
    def cb(param):
        for name, value in param.eval_metric.get_name_value():
            store.append([param.epoch, param.nbatch, name, float(value)])
    return cb


# -- scenarios --------------------------------------------------------------------------
def scenario_iter_sgd(mx, workdir):
    """MLP on NDArrayIters, SGD with momentum by name, default validation logging;
    then predict / score / save / load."""
    x, y = dataset(48, 1)
    xv, yv = dataset(20, 2)
    train = mx.io.NDArrayIter(x, y, batch_size=8, shuffle=False)
    val = mx.io.NDArrayIter(xv, yv, batch_size=8, shuffle=False)
    args = initial(mx, ["fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"])
    model = _model(mx, mlp(mx), ctx=mx.cpu(), num_epoch=3, optimizer="sgd",
                   learning_rate=0.1, momentum=0.9, wd=1e-4, arg_params=args)
    batches, epochs = [], {}
    logs = _Logs("feedforward.iter_sgd")
    root = _Logs()
    try:
        model.fit(train, eval_data=val, eval_metric="acc", logger=logs.logger,
                  batch_end_callback=[_batch_recorder(batches),
                                      mx.callback.log_train_metric(3)],
                  epoch_end_callback=lambda e, s, a, x_: epochs.update(
                      {f"epoch{e}:{k}": v.asnumpy() for k, v in a.items()}))
    finally:
        root.close()
    out = _params(model)
    out.update(epochs)
    out["predict"] = model.predict(val)
    pred, data, label = model.predict(val, return_data=True)
    out["predict_rd"], out["predict_data"], out["predict_label"] = pred, data, label
    out["predict_1batch"] = model.predict(val, num_batch=1)
    out["predict_numpy"] = model.predict(xv)
    out["score_acc"] = np.array(model.score(val))
    out["score_ce"] = np.array(model.score(val, eval_metric="ce"))
    out["score_2batch"] = np.array(model.score(val, num_batch=2))
    prefix = str(Path(workdir) / "ff")
    model.save(prefix)
    loaded = mx.model.FeedForward.load(prefix, 3)
    out["loaded_predict"] = loaded.predict(val)
    saved = mx.nd.load(prefix + "-0003.params")
    out.update({f"saved:{k}": v.asnumpy() for k, v in saved.items()})
    info = {"begin_epoch": loaded.begin_epoch, "saved_keys": sorted(saved),
            "symbol_json_equal": open(prefix + "-symbol.json").read() == mlp(mx).tojson(),
            "batches": batches}
    return {**out, "log": logs.kept() + ["ROOT " + ln for ln in root.kept()], "info": info}


def scenario_numpy_bn(mx, workdir):
    """BatchNorm MLP on NumPy arrays (shuffled, roll_over batches of numpy_batch_size),
    an epoch_size, a (data, label) eval pair, an Optimizer object, two metrics, a
    begin_epoch, the initializer filling what arg_params leaves out."""
    x, y = dataset(50, 3)
    xv, yv = dataset(18, 4)
    args = initial(mx, ["bfc1_weight", "bfc2_weight"])
    sgd = mx.optimizer.SGD(learning_rate=0.05, momentum=0.9, wd=1e-3, rescale_grad=1.0 / 16)
    model = _model(mx, bn_mlp(mx), num_epoch=4, begin_epoch=1, epoch_size=5,
                   optimizer=sgd, initializer=mx.init.Xavier(), numpy_batch_size=16,
                   arg_params=args)
    logs = _Logs("feedforward.numpy_bn")
    evals, epochs = [], {}

    def on_eval(param):
        for name, value in param.eval_metric.get_name_value():
            evals.append([param.epoch, param.nbatch, name, float(value)])

    np.random.seed(11)
    model.fit(x, y, eval_data=(xv, yv), eval_metric=["acc", "ce"], logger=logs.logger,
              eval_end_callback=on_eval,
              epoch_end_callback=lambda e, s, a, x_: epochs.update(
                  {f"epoch{e}:{k}": v.asnumpy() for k, v in {**a, **x_}.items()}))
    out = _params(model)
    out.update(epochs)
    out["predict"] = model.predict(xv)
    out["score_acc"] = np.array(model.score(mx.io.NDArrayIter(xv, yv, batch_size=5)))
    return {**out, "log": logs.kept(), "info": {"evals": evals}}


def scenario_multi_device(mx, workdir):
    """Two CPU contexts: 'local' store updating the weights, and no store (the
    optimizer on each device, gradients summed by nobody: each device its own copy,
    averaged when copied back)."""
    x, y = dataset(40, 5)
    out, info = {}, {}
    for tag, kv, work in (("kv", "local", None), ("nokv", None, [1, 3])):
        args = initial(mx, ["fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"])
        model = _model(mx, mlp(mx), ctx=[mx.cpu(0), mx.cpu(1)], num_epoch=2,
                       learning_rate=0.2, momentum=0.5, arg_params=args)
        train = mx.io.NDArrayIter(x, y, batch_size=8)
        batches = []
        model.fit(train, kvstore=kv, work_load_list=work,
                  batch_end_callback=_batch_recorder(batches))
        out.update(_params(model, f"{tag}/"))
        info[tag] = batches
    return {**out, "info": info}


def scenario_create_and_resume(mx, workdir):
    """FeedForward.create on NumPy arrays, checkpoint through do_checkpoint, load and
    continue training from the saved epoch."""
    x, y = dataset(30, 6)
    args = initial(mx, ["fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"])
    prefix = str(Path(workdir) / "cr")
    np.random.seed(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        model = mx.model.FeedForward.create(
            mlp(mx), x, y, num_epoch=2, learning_rate=0.1, numpy_batch_size=12,
            arg_params=args, epoch_end_callback=mx.callback.do_checkpoint(prefix),
            eval_end_callback=None)
        out = _params(model, "first/")
        resumed = mx.model.FeedForward.load(prefix, 2, num_epoch=4, learning_rate=0.05,
                                            numpy_batch_size=10)
    np.random.seed(6)
    resumed.fit(x, y.reshape(-1, 1))
    out.update(_params(resumed, "resumed/"))
    first_epoch = mx.nd.load(prefix + "-0001.params")
    out.update({f"ckpt1:{k}": v.asnumpy() for k, v in first_epoch.items()})
    return out


SCENARIOS = {
    "iter_sgd": scenario_iter_sgd,
    "numpy_bn": scenario_numpy_bn,
    "multi_device": scenario_multi_device,
    "create_and_resume": scenario_create_and_resume,
}


def split(result):
    """``(arrays, extras)``: numpy values vs the JSON ones ("log", "info")."""
    extras = {k: result[k] for k in ("log", "info") if k in result}
    arrays = {k: np.asarray(v) for k, v in result.items() if k not in extras}
    return arrays, extras


def main():
    import mxnet as mx
    if Path(mx.__file__).resolve().is_relative_to(REPO / "mxnet"):
        sys.exit("run this with the reference interpreter, outside the repository")
    write_fixture(mx)
    arrays, extras = {}, {}
    for name, fn in SCENARIOS.items():
        with tempfile.TemporaryDirectory() as tmp:
            arr, extra = split(fn(mx, tmp))
        arrays.update({f"{name}/{k}": v for k, v in arr.items()})
        extras[name] = extra
        print(name, len(arr), "arrays", list(extra))
    np.savez_compressed(GOLDEN / "feedforward.npz", **arrays)
    with open(GOLDEN / "feedforward.json", "w") as f:
        json.dump(extras, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
