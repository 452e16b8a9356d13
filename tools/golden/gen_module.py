"""Record how MXNet 1.9.1's Module API trains, predicts, logs and checkpoints, for
tests/module.

Run with the reference interpreter, from outside the repository root so that
``import mxnet`` finds the reference (never this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_module.py

Each scenario in ``SCENARIOS`` is a function ``f(mx) -> dict``: it builds a small
network with NumPy-generated data and fixed initial parameters (so no random state
is involved), runs the Module API, and returns ``{key: numpy array}`` (and, for log
scenarios, ``{"log": [lines]}``). This module must import without mxnet:
``tests/module/test_golden.py`` imports it and replays every scenario against
mxnet-py, comparing with what this script stored in ``tests/golden/module/``
(``module.npz`` for arrays, ``module.json`` for logs and names). The checkpoint
scenario also leaves 1.9.1's checkpoint files there (``ckpt-*``), which the tests
load, and whose bytes they compare with the files mxnet-py writes.
"""
from __future__ import annotations

import json
import logging
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
OUT_DIR = REPO / "tests" / "golden" / "module"
CKPT_PREFIX = "ckpt"

SGD = ("sgd", (("learning_rate", 0.1), ("momentum", 0.9), ("wd", 1e-3)))
ADAM = ("adam", (("learning_rate", 0.01), ("wd", 1e-3)))


# -- networks, data and fixed parameters ---------------------------------------------------
def mlp(mx, hidden=8, classes=3):
    data = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=hidden, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=classes, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


def bn_mlp(mx):
    data = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=6, name="fc1")
    bn = mx.sym.BatchNorm(fc1, fix_gamma=False, name="bn1")
    act = mx.sym.Activation(bn, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


def dataset(n=24, dim=5, classes=3, seed=42):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, dim).astype(np.float32)
    y = rng.randint(0, classes, n).astype(np.float32)
    return x, y


def fixed_params(mx, sym, data_shape, seed=7):
    """NumPy-drawn values for every parameter of ``sym`` (aux: mean 0, var 1)."""
    arg_shapes, _, aux_shapes = sym.infer_shape(data=data_shape)
    rng = np.random.RandomState(seed)
    args = {}
    for name, shape in zip(sym.list_arguments(), arg_shapes):
        if name in ("data", "softmax_label"):
            continue
        args[name] = mx.nd.array(rng.uniform(-0.5, 0.5, shape).astype(np.float32))
    auxs = {}
    for name, shape in zip(sym.list_auxiliary_states(), aux_shapes):
        fill = np.ones(shape) if name.endswith("var") else np.zeros(shape)
        auxs[name] = mx.nd.array(fill.astype(np.float32))
    return args, auxs


def contexts(mx, n):
    return mx.cpu(0) if n == 1 else [mx.cpu(i) for i in range(n)]


def params_out(mod, prefix=""):
    arg, aux = mod.get_params()
    out = {f"{prefix}arg:{k}": v.asnumpy() for k, v in arg.items()}
    out.update({f"{prefix}aux:{k}": v.asnumpy() for k, v in aux.items()})
    return out


class _Env:
    """Set environment variables for a ``with`` block."""

    def __init__(self, **env):
        self.env = env
        self.old = {}

    def __enter__(self):
        for k, v in self.env.items():
            self.old[k] = os.environ.get(k)
            os.environ[k] = v

    def __exit__(self, *exc):
        for k, v in self.old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# -- training steps ----------------------------------------------------------------------------
def train_steps(mx, ndev=1, kvstore="local", opt=SGD, env=None, workload=None, net=mlp,
                batch=8, fixed=None, steps=3):
    sym = net(mx)
    x, y = dataset()
    it = mx.io.NDArrayIter(x, y, batch_size=batch, shuffle=False)
    args, auxs = fixed_params(mx, sym, (batch, x.shape[1]))
    with _Env(**(env or {})):
        mod = mx.mod.Module(sym, context=contexts(mx, ndev), work_load_list=workload,
                            fixed_param_names=fixed)
        mod.bind(it.provide_data, it.provide_label)
        mod.init_params(arg_params=args, aux_params=auxs)
        mod.init_optimizer(kvstore=kvstore, optimizer=opt[0], optimizer_params=opt[1])
    out = {}
    for i, b in enumerate(it):
        if i == steps:
            break
        mod.forward_backward(b)
        mod.update()
        out[f"out{i}"] = mod.get_outputs()[0].asnumpy()
    out.update(params_out(mod))
    out["update_on_kvstore"] = np.array(bool(mod._update_on_kvstore))
    return out


def scenario_input_grads(mx):
    sym = mlp(mx)
    x, y = dataset()
    it = mx.io.NDArrayIter(x, y, batch_size=8)
    args, auxs = fixed_params(mx, sym, (8, 5))
    mod = mx.mod.Module(sym, context=contexts(mx, 2))
    mod.bind(it.provide_data, it.provide_label, inputs_need_grad=True)
    mod.init_params(arg_params=args, aux_params=auxs)
    b = next(iter(it))
    mod.forward(b, is_train=True)
    mod.backward()
    merged = mod.get_input_grads()[0].asnumpy()
    parts = [g.asnumpy() for g in mod.get_input_grads(merge_multi_context=False)[0]]
    return {"merged": merged, "part0": parts[0], "part1": parts[1],
            "outputs": mod.get_outputs()[0].asnumpy()}


def scenario_out_grads(mx):
    """A network without a loss layer, trained from given output gradients."""
    data = mx.sym.var("data")
    sym = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    x, _ = dataset()
    rng = np.random.RandomState(3)
    mod = mx.mod.Module(sym, label_names=None, context=contexts(mx, 2))
    mod.bind([("data", (8, 5))], None)
    w = rng.uniform(-1, 1, (4, 5)).astype(np.float32)
    mod.init_params(arg_params={"fc_weight": mx.nd.array(w), "fc_bias": mx.nd.zeros((4,))})
    mod.init_optimizer(kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.5),))
    for i in range(2):
        batch = mx.io.DataBatch([mx.nd.array(x[i * 8:(i + 1) * 8])], None)
        mod.forward(batch, is_train=True)
        og = mx.nd.array(rng.randn(8, 4).astype(np.float32))
        mod.backward([og])
        mod.update()
    return params_out(mod)


def scenario_predict(mx):
    sym = mlp(mx)
    x, y = dataset(n=20)
    it = mx.io.NDArrayIter(x, y, batch_size=8, last_batch_handle="pad")
    args, auxs = fixed_params(mx, sym, (8, 5))
    mod = mx.mod.Module(sym, context=contexts(mx, 2))
    mod.bind(it.provide_data, it.provide_label, for_training=False)
    mod.init_params(arg_params=args, aux_params=auxs)
    out = {"merged": mod.predict(it).asnumpy()}
    lists = mod.predict(it, merge_batches=False)
    out["n_batches"] = np.array(len(lists))
    for i, outs in enumerate(lists):
        out[f"batch{i}"] = outs[0].asnumpy()
    always = mod.predict(it, always_output_list=True)
    out["always_len"] = np.array(len(always))
    out["num_batch2"] = mod.predict(it, num_batch=2).asnumpy()
    out["iter_pads"] = np.array([b.pad for _, _, b in mod.iter_predict(it)])
    score = mod.score(it, ["acc", "ce"])
    out["score_names"] = np.array([n for n, _ in score])
    out["score_values"] = np.array([v for _, v in score])
    out["output_shapes"] = np.array([s for _, s in mod.output_shapes])
    return out


def scenario_reshape(mx):
    """Forward batches of a different size than bound (Module reshapes itself)."""
    sym = mlp(mx)
    x, y = dataset()
    args, auxs = fixed_params(mx, sym, (8, 5))
    mod = mx.mod.Module(sym, context=contexts(mx, 2))
    mod.bind([("data", (8, 5))], [("softmax_label", (8,))])
    mod.init_params(arg_params=args, aux_params=auxs)
    mod.init_optimizer(optimizer=SGD[0], optimizer_params=SGD[1])
    out = {}
    for i, n in enumerate((8, 6, 10, 8)):
        b = mx.io.DataBatch([mx.nd.array(x[:n])], [mx.nd.array(y[:n])])
        mod.forward_backward(b)
        mod.update()
        out[f"out{i}"] = mod.get_outputs()[0].asnumpy()
    out.update(params_out(mod))
    return out


def bucket_sym_gen(mx):
    def sym_gen(key):
        data = mx.sym.var("data")
        fc1 = mx.sym.FullyConnected(data, num_hidden=6, flatten=False, name="fc1")
        act = mx.sym.Activation(fc1, act_type="tanh", name="act1")
        pooled = mx.sym.mean(act, axis=1, name="pool")
        fc2 = mx.sym.FullyConnected(pooled, num_hidden=3, name="fc2")
        return mx.sym.SoftmaxOutput(fc2, name="softmax"), ("data",), ("softmax_label",)
    return sym_gen


def scenario_bucketing(mx):
    rng = np.random.RandomState(11)
    sym_gen = bucket_sym_gen(mx)
    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=5, context=contexts(mx, 2))
    mod.bind([("data", (4, 5, 4))], [("softmax_label", (4,))])
    args = {"fc1_weight": rng.uniform(-0.5, 0.5, (6, 4)), "fc1_bias": rng.uniform(-0.1, 0.1, 6),
            "fc2_weight": rng.uniform(-0.5, 0.5, (3, 6)), "fc2_bias": np.zeros(3)}
    mod.init_params(arg_params={k: mx.nd.array(v.astype(np.float32)) for k, v in args.items()})
    mod.init_optimizer(kvstore="local", optimizer=SGD[0], optimizer_params=SGD[1])
    out = {}
    for i, key in enumerate((5, 3, 5, 2, 3)):
        x = rng.randn(4, key, 4).astype(np.float32)
        y = rng.randint(0, 3, 4).astype(np.float32)
        b = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)], bucket_key=key,
                            provide_data=[("data", (4, key, 4))],
                            provide_label=[("softmax_label", (4,))])
        mod.forward_backward(b)
        mod.update()
        out[f"out{i}"] = mod.get_outputs()[0].asnumpy()
    out["buckets"] = np.array(sorted(mod._buckets))
    out.update(params_out(mod))
    return out


def scenario_sequential(mx):
    data = mx.sym.var("data")
    net1 = mx.sym.Activation(mx.sym.FullyConnected(data, num_hidden=8, name="fc1"),
                             act_type="relu", name="relu1")
    data2 = mx.sym.var("hidden")
    net2 = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(data2, num_hidden=3, name="fc2"),
                                name="softmax")
    mod1 = mx.mod.Module(net1, label_names=None, context=contexts(mx, 2))
    mod2 = mx.mod.Module(net2, data_names=["hidden"], context=contexts(mx, 2))
    seq = mx.mod.SequentialModule()
    seq.add(mod1).add(mod2, take_labels=True, auto_wiring=True)
    x, y = dataset()
    it = mx.io.NDArrayIter(x, y, batch_size=8)
    seq.bind(it.provide_data, it.provide_label)
    args, _ = fixed_params(mx, mlp(mx), (8, 5))
    seq.init_params(arg_params=args)
    seq.init_optimizer(optimizer=SGD[0], optimizer_params=SGD[1])
    out = {}
    for i, b in enumerate(it):
        seq.forward_backward(b)
        seq.update()
        out[f"out{i}"] = seq.get_outputs()[0].asnumpy()
    out.update(params_out(seq))
    out["output_shapes"] = np.array([s for _, s in seq.output_shapes])
    return out


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(f"{record.levelname}:{record.getMessage()}")


def capture_logs(fn):
    """Run ``fn()`` collecting the root logger's records as ``LEVEL:message``."""
    root = logging.getLogger()
    handler = _Capture()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        result = fn()
    finally:
        root.removeHandler(handler)
        root.setLevel(old)
    return handler.lines, result


def mask_log(line, tmpdir=None):
    """Hide what varies between runs: speeds, times, temporary paths."""
    line = re.sub(r"Speed: (\d+\.\d\d|inf) samples/sec", "Speed: <S> samples/sec", line)
    line = re.sub(r"Time cost=\d+\.\d{3}$", "Time cost=<T>", line)
    if tmpdir:
        line = line.replace(str(tmpdir), "<DIR>")
    return line


def scenario_fit_logs(mx):
    """Module.fit on two devices with Speedometer, do_checkpoint, validation and a
    composite metric; the log lines (masked) and final parameters."""
    sym = mlp(mx)
    x, y = dataset(n=48)
    train = mx.io.NDArrayIter(x, y, batch_size=8)
    val = mx.io.NDArrayIter(x[:16], y[:16], batch_size=8)
    args, auxs = fixed_params(mx, sym, (8, 5))
    mod = mx.mod.Module(sym, context=contexts(mx, 2))
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "fit")

        def run():
            mod.fit(train, eval_data=val, eval_metric=["acc", "ce"], num_epoch=2,
                    arg_params=args, aux_params=auxs, optimizer=SGD[0],
                    optimizer_params=SGD[1],
                    batch_end_callback=[mx.callback.Speedometer(8, 2),
                                        mx.callback.Speedometer(8, 3, auto_reset=False)],
                    epoch_end_callback=mx.callback.do_checkpoint(prefix),
                    eval_end_callback=mx.callback.LogValidationMetricsCallback())
            return sorted(os.listdir(tmp))
        lines, files = capture_logs(run)
        lines = [mask_log(line, tmp) for line in lines]
    out = params_out(mod)
    out["log"] = lines
    out["files"] = files
    return out


def scenario_callbacks(mx):
    """log_train_metric, ProgressBar and Speedometer without a metric."""
    metric = mx.metric.create("acc")
    metric.update([mx.nd.array([0, 1, 1])], [mx.nd.array([[0.9, 0.1], [0.2, 0.8],
                                                          [0.7, 0.3]])])
    cbs = [mx.callback.log_train_metric(2), mx.callback.log_train_metric(3, auto_reset=True),
           mx.callback.ProgressBar(5, length=10), mx.callback.Speedometer(4, 2)]

    def run():
        for nbatch in range(6):
            for cb in cbs:
                cb(mx.model.BatchEndParam(epoch=1, nbatch=nbatch, eval_metric=metric,
                                          locals=None))
        sp = mx.callback.Speedometer(4, 2)
        for nbatch in range(5):
            sp(mx.model.BatchEndParam(epoch=0, nbatch=nbatch, eval_metric=None, locals=None))
        mx.callback.LogValidationMetricsCallback()(
            mx.model.BatchEndParam(epoch=3, nbatch=0, eval_metric=metric, locals=None))
    lines, _ = capture_logs(run)
    return {"log": [mask_log(line) for line in lines]}


def scenario_monitor(mx):
    """Monitor statistics of a tiny net: inference, and the forward part of training."""
    sym = mlp(mx, hidden=4)
    x, y = dataset()
    args, auxs = fixed_params(mx, sym, (8, 5))
    mod = mx.mod.Module(sym, context=mx.cpu(0))
    mod.bind([("data", (8, 5))], [("softmax_label", (8,))])
    mod.init_params(arg_params=args, aux_params=auxs)
    mod.init_optimizer(optimizer="sgd", optimizer_params=(("learning_rate", 0.1),))
    mon = mx.mon.Monitor(2, pattern=".*(output|weight)$", sort=True)
    mod.install_monitor(mon)
    b = mx.io.DataBatch([mx.nd.array(x[:8])], [mx.nd.array(y[:8])])
    rows = []
    for _ in range(3):
        mon.tic()
        mod.forward(b, is_train=False)
        rows.extend(mon.toc())
    mon2 = mx.mon.Monitor(1, stat_func=lambda a: mx.nd.max(a), pattern="fc.*")
    mod.install_monitor(mon2)
    mon2.tic()
    mod.forward_backward(b)
    mod.update()
    rows2 = [r for r in mon2.toc() if "backward" not in r[1]]
    lines, _ = capture_logs(lambda: (mon2.tic(), mod.forward(b, is_train=False),
                                     mon2.toc_print()))
    return {"rows": [list(r) for r in rows], "rows_train": [list(r) for r in rows2],
            "log": lines}


def scenario_checkpoint(mx, out_dir=None):
    """Train, save a checkpoint with optimizer states, train on; the checkpoint files
    stay in ``out_dir`` (the golden directory) for the load tests."""
    out_dir = Path(out_dir or OUT_DIR)
    sym = bn_mlp(mx)
    x, y = dataset()
    it = mx.io.NDArrayIter(x, y, batch_size=8)
    args, auxs = fixed_params(mx, sym, (8, 5))
    mod = mx.mod.Module(sym, context=mx.cpu(0))
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params(arg_params=args, aux_params=auxs)
    mod.init_optimizer(kvstore=None, optimizer=SGD[0], optimizer_params=SGD[1])
    batches = list(it)
    for b in batches:
        mod.forward_backward(b)
        mod.update()
    out = params_out(mod, "saved/")
    prefix = str(out_dir / CKPT_PREFIX)
    mod.save_checkpoint(prefix, 3, save_optimizer_states=True)
    for b in batches[:2]:
        mod.forward_backward(b)
        mod.update()
    out.update(params_out(mod, "resumed/"))
    return out


SCENARIOS = {
    "one_ctx_sgd": lambda mx: train_steps(mx),
    "two_ctx_local": lambda mx: train_steps(mx, ndev=2),
    "two_ctx_device": lambda mx: train_steps(mx, ndev=2, kvstore="device"),
    "two_ctx_worker_update_adam": lambda mx: train_steps(
        mx, ndev=2, opt=ADAM, env={"MXNET_UPDATE_ON_KVSTORE": "0"}),
    "two_ctx_no_kvstore": lambda mx: train_steps(mx, ndev=2, kvstore=None),
    "two_ctx_workload": lambda mx: train_steps(mx, ndev=2, workload=[1, 3]),
    "two_ctx_batchnorm": lambda mx: train_steps(mx, ndev=2, net=bn_mlp),
    # both of fc1's parameters fixed: 1.9.1's (MKLDNN) FullyConnected backward leaves the
    # bias gradient at zero when only the weight's grad_req is 'null', a bug not copied here
    "fixed_param": lambda mx: train_steps(mx, ndev=2, fixed=["fc1_weight", "fc1_bias"]),
    "input_grads": scenario_input_grads,
    "out_grads": scenario_out_grads,
    "predict": scenario_predict,
    "reshape": scenario_reshape,
    "bucketing": scenario_bucketing,
    "sequential": scenario_sequential,
    "fit_logs": scenario_fit_logs,
    "callbacks": scenario_callbacks,
    "monitor": scenario_monitor,
}

JSON_KEYS = ("log", "files", "rows", "rows_train")


def _split(result):
    arrays = {k: v for k, v in result.items() if k not in JSON_KEYS}
    extra = {k: v for k, v in result.items() if k in JSON_KEYS}
    return arrays, extra


def main():
    import mxnet as mx
    if Path(mx.__file__).resolve().is_relative_to(REPO / "mxnet"):
        sys.exit("run this with the reference interpreter, outside the repository")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    arrays, extras = {}, {}
    for name, fn in list(SCENARIOS.items()) + [("checkpoint", scenario_checkpoint)]:
        res = fn(mx)
        arr, extra = _split(res)
        for k, v in arr.items():
            arrays[f"{name}/{k}"] = np.asarray(v)
        if extra:
            extras[name] = extra
        print(name, len(arr), "arrays", list(extra))
    np.savez(OUT_DIR / "module.npz", **arrays)
    with open(OUT_DIR / "module.json", "w") as f:
        json.dump(extras, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
