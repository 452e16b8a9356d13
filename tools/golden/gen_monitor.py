"""Golden cases for executor monitors (``set_monitor_callback``, ``mx.monitor.Monitor``),
recorded under MXNet 1.9.1.

Run with the reference interpreter, from outside the repository root so that
``import mxnet`` finds the reference::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_monitor.py

This module is also the case table: ``tests/symbol/test_monitor_golden.py`` loads it
(without running :func:`main`) and runs the same cases against this repository's
``mxnet``. It imports nothing from mxnet at module level.

Two kinds of cases:

* ``GRAPHS``: a graph bound with every argument's gradient requested (unless the case
  says otherwise), watched by a callback that records every (name, value) it is shown
  during ``forward(is_train=True)``, ``backward(head gradients)`` and
  ``forward(is_train=False)``, with ``monitor_all`` False and True. 1.9.1 crashes
  (segfault) showing the inputs of the gradient nodes of operators it still runs through
  its legacy interface (SliceChannel, SwapAxis, InstanceNorm ...): such cases run with
  ``monitor_all=False`` only.
* ``MODULES``: ``mx.mon.Monitor`` installed on a Module: the rows ``toc`` returns and the
  lines ``toc_print`` logs.

Outputs (``tests/golden/monitor/``): ``cases.json`` (names, dtypes, shapes, rows, log
lines) and ``cases.npz`` (the values).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "tests" / "golden" / "monitor"

# (case id, code defining ``net`` from mx, shapes, options). Options: ``ints`` (argument
# -> exclusive upper bound of its integer values), ``req`` (grad_req per argument; the
# rest 'write'), ``monitor_all`` (the settings to record, default both), ``skip`` (regexes
# of names whose values 1.9.1 leaves unspecified: oneDNN workspaces, unwritten gradients,
# the mask of a Dropout with p=0).
_POOL_WS = r".*_workspace$|pool\w*_backward_input4$"
GRAPHS = [
    ("mlp", """
data = mx.sym.var('data')
fc1 = mx.sym.FullyConnected(data, num_hidden=4, name='fc1')
act = mx.sym.Activation(fc1, act_type='relu', name='relu1')
fc2 = mx.sym.FullyConnected(act, num_hidden=3, name='fc2')
net = mx.sym.SoftmaxOutput(fc2, name='softmax')
""", {"data": (2, 5)}, {"ints": {"softmax_label": 3}}),
    ("mlp_module_reqs", """
data = mx.sym.var('data')
fc1 = mx.sym.FullyConnected(data, num_hidden=4, name='fc1')
act = mx.sym.Activation(fc1, act_type='tanh', name='act1')
fc2 = mx.sym.FullyConnected(act, num_hidden=3, name='fc2')
net = mx.sym.SoftmaxOutput(fc2, name='softmax')
""", {"data": (2, 5)}, {"ints": {"softmax_label": 3},
                        "req": {"data": "null", "softmax_label": "null", "fc2_bias": "add"},
                        "skip": [r"fc1_backward_output0$", r"softmax_backward_output1$",
                                 r"fc2_backward_output2$"]}),
    ("convnet", """
data = mx.sym.var('data')
c1 = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name='conv1')
bn = mx.sym.BatchNorm(c1, fix_gamma=False, name='bn1')
a1 = mx.sym.Activation(bn, act_type='relu', name='relu1')
p1 = mx.sym.Pooling(a1, pool_type='max', kernel=(2, 2), stride=(2, 2), name='pool1')
c2 = mx.sym.Convolution(p1, kernel=(1, 1), num_filter=3, no_bias=True, name='conv2')
p2 = mx.sym.Pooling(c2, pool_type='avg', kernel=(3, 3), name='pool2')
fl = mx.sym.Flatten(p2, name='flat')
d = mx.sym.Dropout(fl, p=0.0, name='drop')
fc = mx.sym.FullyConnected(d, num_hidden=5, name='fc')
net = mx.sym.SoftmaxOutput(fc, name='softmax')
""", {"data": (2, 1, 8, 8)}, {"ints": {"softmax_label": 5},
                             "skip": [_POOL_WS, r"drop_mask$|drop_backward_input1$"]}),
    ("residual_fanout", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=4, name='fc')
r = mx.sym.relu(fc, name='r')
s = mx.sym.sigmoid(fc, name='s')
t = mx.sym.tanh(fc, name='t')
net = mx.sym.Group([(r + s) * 2 + t, fc])
""", {"data": (2, 3)}, {}),
    ("shared_weight", """
x = mx.sym.var('x')
w = mx.sym.var('w')
a = mx.sym.FullyConnected(x, weight=w, num_hidden=3, no_bias=True, name='a')
b = mx.sym.FullyConnected(a, weight=w, num_hidden=3, no_bias=True, name='b')
net = mx.sym.LinearRegressionOutput(b, name='lr')
""", {"x": (2, 3)}, {}),
    ("dup_grads", """
x = mx.sym.var('x')
y = mx.sym.var('y')
net = x + y
""", {"x": (2, 3), "y": (2, 3)}, {}),
    ("blockgrad_and_arith", """
x = mx.sym.var('x')
y = mx.sym.var('y')
z = mx.sym.BlockGrad(x * 3) + x * y - y / 2 + mx.sym.exp(y)
net = mx.sym.sum(z, axis=1)
""", {"x": (2, 3), "y": (2, 3)}, {}),
    ("lenet_bn_dropout", """
data = mx.sym.var('data')
c = mx.sym.Convolution(data, kernel=(2, 2), num_filter=2, name='c')
b = mx.sym.BatchNorm(c, name='b')
a = mx.sym.LeakyReLU(b, act_type='leaky', name='lk')
p = mx.sym.Pooling(a, kernel=(1, 1), global_pool=True, pool_type='avg', name='gp')
f = mx.sym.flatten(p, name='f')
e = mx.sym.concat(f, f * 2, dim=1, name='cat')
net = mx.sym.LogisticRegressionOutput(mx.sym.FullyConnected(e, num_hidden=2, name='o'),
                                      name='out')
""", {"data": (3, 2, 4, 4)}, {}),
    ("norms_softmax", """
x = mx.sym.var('x')
ln = mx.sym.LayerNorm(x, name='ln')
sm = mx.sym.softmax(ln, name='sm')
ls = mx.sym.log_softmax(x, name='ls')
emb = mx.sym.Embedding(mx.sym.var('i'), input_dim=4, output_dim=3, name='emb')
net = mx.sym.Group([sm * ls, mx.sym.sum(emb, axis=0, name='es')])
""", {"x": (2, 3), "i": (2,)}, {"ints": {"i": 4}, "req": {"i": "null"},
                              "skip": [r"emb_backward_output0$"]}),
    ("rnn_lstm", """
x = mx.sym.var('x')
net = mx.sym.RNN(x, state_size=2, num_layers=1, mode='lstm', state_outputs=True, name='rnn')
""", {"x": (3, 2, 2), "rnn_state": (1, 2, 2), "rnn_state_cell": (1, 2, 2)}, {}),
    ("many_consumers", """
x = mx.sym.var('x')
net = mx.sym.add_n(*[mx.sym.sin(x * (i + 1)) for i in range(9)])
""", {"x": (2, 3)}, {}),
    ("legacy_ops", """
x = mx.sym.var('x')
s = mx.sym.split(x, num_outputs=2, axis=1, name='sp')
w = mx.sym.swapaxes(s[0] * s[1], dim1=0, dim2=1, name='sw')
net = mx.sym.L2Normalization(w, name='l2')
""", {"x": (2, 4)}, {"monitor_all": (False,)}),
]

# single operators, each named n, on variables x and y: (id, expression, shapes, options)
_LEGACY = {"monitor_all": (False,)}
OPS = [
    ("fc", "mx.sym.FullyConnected(x, num_hidden=3, name='n')", {"x": (2, 4)}, {}),
    ("fc_nobias", "mx.sym.FullyConnected(x, num_hidden=3, no_bias=True, name='n')",
     {"x": (2, 4)}, {}),
    ("fc_noflat", "mx.sym.FullyConnected(x, num_hidden=3, flatten=False, name='n')",
     {"x": (2, 2, 4)}, {}),
    ("conv", "mx.sym.Convolution(x, kernel=(2, 2), num_filter=2, name='n')",
     {"x": (1, 2, 4, 4)}, {}),
    ("conv1d", "mx.sym.Convolution(x, kernel=(2,), num_filter=2, name='n')", {"x": (1, 2, 5)}, {}),
    ("deconv", "mx.sym.Deconvolution(x, kernel=(2, 2), num_filter=2, name='n')",
     {"x": (1, 2, 3, 3)}, {}),
    ("act_sigmoid", "mx.sym.Activation(x, act_type='sigmoid', name='n')", {"x": (2, 3)}, {}),
    ("act_softrelu", "mx.sym.Activation(x, act_type='softrelu', name='n')", {"x": (2, 3)}, {}),
    ("act_softsign", "mx.sym.Activation(x, act_type='softsign', name='n')", {"x": (2, 3)}, {}),
    ("elu", "mx.sym.LeakyReLU(x, act_type='elu', name='n')", {"x": (2, 3)}, {}),
    ("selu", "mx.sym.LeakyReLU(x, act_type='selu', name='n')", {"x": (2, 3)}, {}),
    ("gelu", "mx.sym.LeakyReLU(x, act_type='gelu', name='n')", {"x": (2, 3)}, {}),
    ("prelu", "mx.sym.LeakyReLU(x, act_type='prelu', name='n')", {"x": (2, 3)}, {}),
    ("pool_sum", "mx.sym.Pooling(x, kernel=(2, 2), pool_type='sum', name='n')",
     {"x": (1, 2, 4, 4)}, {}),
    ("pool_gmax", "mx.sym.Pooling(x, kernel=(1, 1), global_pool=True, pool_type='max', "
     "name='n')", {"x": (1, 2, 4, 4)}, {"skip": [r"n_workspace$|n_backward_input4$"]}),
    ("pool_max1d", "mx.sym.Pooling(x, kernel=(2,), pool_type='max', name='n')",
     {"x": (1, 2, 4)}, {"skip": [r"n_workspace$|n_backward_input4$"]}),
    ("reshape", "mx.sym.Reshape(x, shape=(0, -1), name='n')", {"x": (2, 3, 2)}, {}),
    ("bn_fix_gamma", "mx.sym.BatchNorm(x, name='n')", {"x": (2, 3, 2, 2)}, {}),
    ("bn_2d", "mx.sym.BatchNorm(x, fix_gamma=False, name='n')", {"x": (4, 3)}, {}),
    ("instancenorm", "mx.sym.InstanceNorm(x, name='n')", {"x": (2, 3, 4)}, _LEGACY),
    ("lrn", "mx.sym.LRN(x, nsize=3, name='n')", {"x": (1, 3, 2, 2)},
     {"skip": [r"n_tmp_norm$|n_backward_input2$"]}),
    ("softmaxout_multi", "mx.sym.SoftmaxOutput(x, multi_output=True, name='n')",
     {"x": (2, 3, 2)}, {"ints": {"n_label": 3}, "req": {"n_label": "null"},
                        "skip": [r"n_backward_output1$"]}),
    ("maereg", "mx.sym.MAERegressionOutput(x, name='n')", {"x": (2, 3)}, {}),
    ("softmax_act", "mx.sym.SoftmaxActivation(x, name='n')", {"x": (2, 3)}, {}),
    ("makeloss", "mx.sym.MakeLoss(x, name='n')", {"x": (2, 3)}, _LEGACY),
    ("sequence_mask", "mx.sym.SequenceMask(x, name='n')", {"x": (3, 2, 2)}, _LEGACY),
    ("minus", "mx.sym._internal._minus(x, y, name='n')", {"x": (2, 3), "y": (2, 3)}, {}),
    ("div", "mx.sym._internal._div(x, y, name='n')", {"x": (2, 3), "y": (2, 3)}, {}),
    ("bcast_add", "mx.sym.broadcast_add(x, y, name='n')", {"x": (2, 3), "y": (1, 3)}, {}),
    ("bcast_mul", "mx.sym.broadcast_mul(x, y, name='n')", {"x": (2, 3), "y": (1, 3)}, {}),
    ("plus_scalar", "mx.sym._internal._plus_scalar(x, scalar=2.0, name='n')", {"x": (2, 3)}, {}),
    ("rminus_scalar", "mx.sym._internal._rminus_scalar(x, scalar=2.0, name='n')",
     {"x": (2, 3)}, {}),
    ("rdiv_scalar", "mx.sym._internal._rdiv_scalar(x, scalar=2.0, name='n')", {"x": (2, 3)}, {}),
    ("power_scalar", "mx.sym._internal._power_scalar(x, scalar=2.0, name='n')",
     {"x": (2, 3)}, {}),
    ("log", "mx.sym.log(x, name='n')", {"x": (2, 3)}, {}),
    ("sqrt", "mx.sym.sqrt(x, name='n')", {"x": (2, 3)}, {}),
    ("square", "mx.sym.square(x, name='n')", {"x": (2, 3)}, {}),
    ("abs", "mx.sym.abs(x, name='n')", {"x": (2, 3)}, {}),
    ("negative", "mx.sym.negative(x, name='n')", {"x": (2, 3)}, {}),
    ("identity", "mx.sym.identity(x, name='n')", {"x": (2, 3)}, {}),
    ("mean", "mx.sym.mean(x, axis=1, name='n')", {"x": (2, 3)}, {}),
    ("max", "mx.sym.max(x, axis=1, name='n')", {"x": (2, 3)}, {}),
    ("transpose", "mx.sym.transpose(x, name='n')", {"x": (2, 3)}, {}),
    ("expand_dims", "mx.sym.expand_dims(x, axis=1, name='n')", {"x": (2, 3)}, {}),
    ("slice_axis", "mx.sym.slice_axis(x, axis=1, begin=0, end=2, name='n')", {"x": (2, 3)}, {}),
    ("clip", "mx.sym.clip(x, a_min=-0.5, a_max=0.5, name='n')", {"x": (2, 3)}, {}),
    ("cast", "mx.sym.Cast(x, dtype='float64', name='n')", {"x": (2, 3)}, {}),
    ("dot", "mx.sym.dot(x, y, name='n')", {"x": (2, 3), "y": (3, 2)}, {}),
    ("batch_dot", "mx.sym.batch_dot(x, y, name='n')", {"x": (2, 2, 3), "y": (2, 3, 2)}, {}),
    ("add_n", "mx.sym.add_n(x, y, name='n')", {"x": (2, 3), "y": (2, 3)}, {}),
    ("upsampling", "mx.sym.UpSampling(x, scale=2, sample_type='nearest', name='n')",
     {"x": (1, 2, 2, 2)}, {}),
    ("take", "mx.sym.take(x, y, name='n')", {"x": (4, 3), "y": (2,)},
     {"ints": {"y": 4}, "req": {"y": "null"}, "skip": [r"n_backward_output1$"]}),
    ("where", "mx.sym.where(y, x, x * 2, name='n')", {"x": (2, 3), "y": (2, 3)},
     {"ints": {"y": 2}, "req": {"y": "null"}}),
    ("rnn_gru", "mx.sym.RNN(x, state_size=2, num_layers=1, mode='gru', name='n')",
     {"x": (2, 1, 3), "n_state": (1, 1, 2)}, {}),
]
GRAPHS += [(f"op_{cid}", f"x = mx.sym.var('x')\ny = mx.sym.var('y')\nnet = {expr}\n", shapes,
            opts) for cid, expr, shapes, opts in OPS]

MODULES = ["mlp", "convnet"]


# ------------------------------------------------------------------------------------------
# helpers shared by the generator (reference MXNet) and the tests (this repository)

def as_ndarray(mx, value):
    """A monitor callback's array as an NDArray (1.9.1 passes a raw handle)."""
    if isinstance(value, mx.nd.NDArray):
        return value
    import ctypes
    from mxnet.base import NDArrayHandle
    return mx.nd.NDArray(ctypes.cast(value, NDArrayHandle), writable=False)


def build(mx, code):
    ns = {"mx": mx}
    with mx.name.NameManager():
        exec(compile(code, "<monitor case>", "exec"), ns)  # noqa: S102
    return ns["net"]


def run_graph(mx, np, code, shapes, opts, monitor_all):
    """[(phase, name, numpy value)] a callback sees, and the gradients after backward."""
    net = build(mx, code)
    ints = opts.get("ints", {})
    arg_shapes, out_shapes, aux_shapes = net.infer_shape(**shapes)
    rng = np.random.RandomState(0)
    args = {}
    for n, s in zip(net.list_arguments(), arg_shapes):
        if n in ints:
            args[n] = rng.randint(0, ints[n], size=s).astype("float32")
        else:
            args[n] = rng.uniform(-1, 1, size=s).astype("float32")
    aux = {n: rng.uniform(0.5, 1.5, size=s).astype("float32")
           for n, s in zip(net.list_auxiliary_states(), aux_shapes)}
    reqs = {n: opts.get("req", {}).get(n, "write") for n in net.list_arguments()}
    grads = {n: mx.nd.array(rng.uniform(-1, 1, size=a.shape)) for n, a in args.items()}
    ex = net.bind(mx.cpu(), {k: mx.nd.array(v) for k, v in args.items()}, args_grad=grads,
                  grad_req=reqs, aux_states={k: mx.nd.array(v) for k, v in aux.items()})
    seen = []
    phase = ["forward"]

    def callback(name, value):
        name = name.decode() if isinstance(name, bytes) else name
        seen.append((phase[0], name, as_ndarray(mx, value).asnumpy()))

    ex.set_monitor_callback(callback, monitor_all)
    ex.forward(is_train=True)
    phase[0] = "backward"
    head = [mx.nd.array(rng.uniform(-1, 1, size=s)) for s in out_shapes]
    ex.backward(head)
    phase[0] = "predict"
    ex.forward(is_train=False)
    return seen, {n: g.asnumpy() for n, g in ex.grad_dict.items() if g is not None}


def module_rows(mx, np, code, shapes, opts):
    """Monitor rows from a Module: default statistics, every name, sorted and not, with
    and without monitor_all; plus the lines ``toc_print`` logs."""
    import logging
    net = build(mx, code)
    ints = opts.get("ints", {})
    label = [n for n in net.list_arguments() if n.endswith("_label")][0]
    data_shape = shapes["data"]
    mod = mx.mod.Module(net, context=mx.cpu(0), data_names=["data"], label_names=[label])
    mod.bind([("data", data_shape)], [(label, (data_shape[0],))])
    rng = np.random.RandomState(1)
    arg_shapes, _, aux_shapes = net.infer_shape(**shapes)
    args = {n: mx.nd.array(rng.uniform(-1, 1, size=s))
            for n, s in zip(net.list_arguments(), arg_shapes) if n not in ("data", label)}
    auxs = {n: mx.nd.array(rng.uniform(0.5, 1.5, size=s))
            for n, s in zip(net.list_auxiliary_states(), aux_shapes)}
    mod.init_params(arg_params=args, aux_params=auxs)
    mod.init_optimizer(optimizer="sgd", optimizer_params=(("learning_rate", 0.1),))
    x = rng.uniform(-1, 1, size=data_shape).astype("float32")
    y = rng.randint(0, ints[label], size=(data_shape[0],)).astype("float32")
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)])
    out = {}
    for key, kw in (("plain", {}), ("sorted", {"sort": True}), ("all", {"monitor_all": True}),
                    ("pattern", {"pattern": ".*backward.*|.*weight$"})):
        mon = mx.mon.Monitor(1, **kw)
        mod.install_monitor(mon)
        mon.tic()
        mod.forward_backward(batch)
        out[key] = [list(r) for r in mon.toc()]
    # the monitor stays installed: one more step, logged
    mon = mx.mon.Monitor(2, pattern=".*_output.*")
    mod.install_monitor(mon)
    records = []

    class Capture(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    handler = Capture()
    logger = logging.getLogger()
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        for _ in range(3):
            mon.tic()
            mod.forward_backward(batch)
            mod.update()
            mon.toc_print()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    out["log"] = records
    return out


# ------------------------------------------------------------------------------------------
# the generator (reference only)

def main():
    os.environ.setdefault("MXNET_ENGINE_TYPE", "NaiveEngine")
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != REPO]
    import warnings

    import numpy as np
    import mxnet as mx
    if getattr(mx, "__version__", None) != "1.9.1" or not hasattr(mx.base, "_LIB"):
        raise SystemExit(f"reference MXNet 1.9.1 required, got {mx.__file__}")
    warnings.simplefilter("ignore")
    FIXTURES.mkdir(parents=True, exist_ok=True)
    doc = {"format": 1, "mxnet_version": mx.__version__,
           "generator": "tools/golden/gen_monitor.py", "graphs": {}, "modules": {}}
    arrays = {}
    for cid, code, shapes, opts in GRAPHS:
        for monitor_all in opts.get("monitor_all", (False, True)):
            key = f"{cid}/{int(monitor_all)}"
            seen, grads = run_graph(mx, np, code, shapes, opts, monitor_all)
            rows = []
            for i, (phase, name, value) in enumerate(seen):
                arrays[f"{key}/{i}"] = value
                rows.append([phase, name, value.dtype.name, list(value.shape)])
            for n, g in grads.items():
                arrays[f"{key}/grad/{n}"] = g
            doc["graphs"][key] = {"code": code, "rows": rows, "grads": sorted(grads)}
            print(f"{key}: {len(rows)} callbacks")
    table = {cid: (code, shapes, opts) for cid, code, shapes, opts in GRAPHS}
    for cid in MODULES:
        code, shapes, opts = table[cid]
        doc["modules"][cid] = module_rows(mx, np, code, shapes, opts)
        print(f"module {cid}: {len(doc['modules'][cid]['plain'])} rows")
    (FIXTURES / "cases.json").write_text(json.dumps(doc, indent=1) + "\n")
    np.savez_compressed(FIXTURES / "cases.npz", **arrays)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
