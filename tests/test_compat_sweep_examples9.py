"""Small MXNet 1.9.1 user scripts (round 9): everything they print, checked against MXNet 1.9.1.

Areas: InstanceNorm / LayerNorm / GroupNorm layers with ``center`` / ``scale`` switched off and
ReflectionPad2D, forward and backward; ``Lambda`` / ``HybridLambda`` from names and callables and
their mistakes; ``SymbolBlock`` over a ``Group`` of ``get_internals()`` outputs (several outputs,
a sub-graph sharing its parameters, export and import); forward pre-hooks and hooks with
``detach``, ``apply``, ``ParameterDict.load`` / ``save`` with ``restore_prefix`` /
``strip_prefix``; fused RNN layers with ``begin_state(func=...)``, 'NTC' layout, bidirectional
states and ``LSTMCell.unroll`` with ``valid_length``; ``NDArrayIter`` roll_over / discard /
seeded shuffle, ``DataDesc`` / ``DataBatch`` printing, ``ResizeIter``, ``PrefetchingIter`` with
renamed data and labels; ``CustomMetric`` / ``mx.metric.np`` / ``create`` with lists,
``CompositeEvalMetric`` ``get_name_value`` / ``get_metric`` / ``get_config``, ``update_dict``
and ``reset_local``; ``Module.save_checkpoint`` with optimizer states, ``load_checkpoint`` and
``Module.load(load_optimizer_states=True)`` resumed training; KVStore ``_set_updater``,
``pushpull``, ``broadcast`` and 'device' stores over two CPU contexts; Symbol ``eval``,
``simple_bind`` with ``shared_buffer`` / ``shared_exec``, executor ``reshape``, ``bind`` with
``grad_req='add'``, ``debug_str``; NDArray printing of NaN / inf / -0.0 / float16 extremes,
``tostype`` round trips, in-place updates through views and ``__setitem__`` forms; contrib
graph ops (div_sqrt_dim, index_array, arange_like, getnnz, edge_id, dgl_adjacency,
dgl_subgraph); the ParameterDict API (``get``, ``update``, Constant, ``zero_grad``,
``setattr``, ``reset_ctx``); Symbol names of operators and scalar arithmetic, attributes and
``AttrScope``; less common activation, pooling, transposed-convolution and sparse-gradient
Embedding layers; ``nd.contrib.BilinearResize2D`` forward and backward over the size modes,
with and without ``align_corners``, imperative and hybridized, and the gradients of edge /
reflect ``nd.pad`` (2-D and 3-D, float16/32/64) and ReflectionPad2D (bit for bit: SHA-1
prefixes of the output and gradient bytes).

Each ``script_*`` function is a script as a user would write it; the expected text is what
MXNet 1.9.1 printed for the same function (stdout plus INFO log lines, each script run alone in a
fresh process and NameManager, its temporary directory shown as ``<tmp>``, the timings of
``Time cost=`` masked).

Left out on purpose: exception type names where ours subclasses 1.9.1's (MXNetAssertionError is
an AssertionError, MXNetError a RuntimeError: the scripts catch the 1.9.1 class and print its
name), C-level error messages (only the classes are compared), ``mx.metric.create(3)``'s message
(ours adds the type it got), and extensions 1.9.1 lacks: ``int()`` / ``float()`` of a one-element
NDArray and ``len()`` of a ParameterDict (TypeError in 1.9.1), ``Parameter.grad_stype``, and
``nd.contrib.count_sketch`` on CPU (GPU only in 1.9.1). BilinearResize2D's backward with
``mode='like'`` is not recorded: 1.9.1 aborts the process (double free) or segfaults there.
"""
import re

import pytest

from ._printed import restore_random_state, run_printed  # noqa: F401 (the fixture)


pytestmark = pytest.mark.usefixtures("restore_random_state")


_TIMING = re.compile(r"(Time cost=)[0-9.]+")


def _check(fn, tmp_path):
    got = _TIMING.sub(r"\1<t>", run_printed(fn, tmp_path))
    assert got.splitlines() == EXPECTED[fn.__name__].splitlines()


# ---------------------------------------------------------------------------------------------
# the scripts


def script_norm_layers_options(tmp):
    import mxnet as mx
    from mxnet import gluon, nd

    x = nd.arange(48).reshape((2, 4, 2, 3)) / 10.0
    x[0, 1] = x[0, 1] * -2
    for blk in [
        gluon.nn.InstanceNorm(center=False, epsilon=1e-3),
        gluon.nn.InstanceNorm(scale=False, in_channels=4),
        gluon.nn.LayerNorm(axis=1, center=False),
        gluon.nn.LayerNorm(scale=False, epsilon=0.1),
        gluon.nn.GroupNorm(num_groups=2, center=False),
        gluon.nn.GroupNorm(num_groups=4, scale=False, epsilon=1e-2),
        gluon.nn.ReflectionPad2D(1),
        gluon.nn.ReflectionPad2D((0, 0, 0, 0, 1, 0, 0, 1)),
    ]:
        print(blk)
        blk.initialize(mx.init.Constant(0.5))
        xx = x.copy()
        xx.attach_grad()
        with mx.autograd.record():
            y = blk(xx)
        y.backward(nd.ones_like(y) * nd.arange(y.size).reshape(y.shape) / y.size)
        print(y.shape, y.asnumpy().round(4).ravel()[:12].tolist(), round(float(y.sum().asscalar()), 3))
        print("grad", xx.grad.asnumpy().round(4).ravel()[:8].tolist())
        for name, p in blk.collect_params().items():
            print(
                name,
                p.shape,
                p.grad_req,
                p.grad().asnumpy().round(4).tolist() if p.grad_req != "null" else None,
            )
    blk = gluon.nn.LayerNorm(in_channels=3)
    blk.hybridize()
    blk.initialize()
    print(blk(nd.array([[1, 2, 4], [0, 0, 1]])).asnumpy().round(5).tolist())


def script_lambda_blocks(tmp):
    import mxnet as mx
    from mxnet import gluon, nd

    a = gluon.nn.Lambda("tanh")
    b = gluon.nn.Lambda(lambda x: x * 2 + 1)
    c = gluon.nn.HybridLambda("relu")
    d = gluon.nn.HybridLambda(lambda F, x, y: F.broadcast_add(x, y) * 3)
    print(a)
    print(c)
    print(type(b).__name__, type(d).__name__)
    x = nd.array([[-1.0, 0.5], [2.0, -3.0]])
    print(a(x).asnumpy().round(5).tolist(), b(x).asnumpy().tolist(), c(x).asnumpy().tolist())
    print(d(x, nd.array([1.0, 2.0])).asnumpy().tolist())
    net = gluon.nn.HybridSequential()
    net.add(
        gluon.nn.Dense(3, in_units=2),
        gluon.nn.HybridLambda("sigmoid"),
        gluon.nn.HybridLambda(lambda F, x: F.sum(x, axis=1)),
    )
    net.initialize(mx.init.Constant(0.2))
    print(net)
    net.hybridize()
    print(net(x).asnumpy().round(5).tolist())
    sym = net(mx.sym.var("data"))
    print(sym.list_outputs(), sym.list_arguments())
    for bad in [
        lambda: gluon.nn.Lambda("no_such_function"),
        lambda: gluon.nn.HybridLambda("no_such_op"),
        lambda: gluon.nn.Lambda(3),
    ]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)


def script_symbolblock_internals(tmp):
    import mxnet as mx
    from mxnet import gluon, nd

    data = mx.sym.var("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=2, name="fc2")
    out = mx.sym.softmax(fc2, name="sm")
    internals = out.get_internals()
    print(internals.list_outputs())
    grp = mx.sym.Group([internals["relu1_output"], internals["fc2_output"], out])
    blk = gluon.SymbolBlock(grp, data)
    print(sorted(blk.collect_params().keys()))
    rs = __import__("numpy").random.RandomState(0)
    try:
        blk.collect_params().initialize(mx.init.Xavier(rnd_type="uniform", magnitude=1), ctx=mx.cpu())
        blk(nd.ones((3, 5)))
    except ValueError as e:
        print("ValueError", e)
    blk.collect_params().initialize(mx.init.Uniform(1), ctx=mx.cpu(), force_reinit=True)
    x = nd.array(rs.uniform(-1, 1, (3, 5)))
    blk(x)
    for name in sorted(blk.collect_params().keys()):
        p = blk.collect_params()[name]
        p.set_data(nd.array(rs.uniform(-1, 1, p.shape)))
    x = nd.array(rs.uniform(-1, 1, (3, 5)))
    outs = blk(x)
    print(type(outs).__name__, len(outs), [o.shape for o in outs])
    for o in outs:
        print(o.asnumpy().round(4).tolist())
    sub = gluon.SymbolBlock(internals["relu1_output"], data, params=blk.collect_params())
    print(sorted(sub.collect_params().keys()))
    print(sub(x).asnumpy().round(4).tolist())
    blk.hybridize()
    x.attach_grad()
    with mx.autograd.record():
        o = blk(x)
        loss = o[0].sum() + (o[1] * o[2]).sum()
    loss.backward()
    print(x.grad.asnumpy().round(4).tolist())
    print(blk.collect_params()["fc1_weight"].grad().asnumpy().round(4)[0].tolist())
    blk.export(tmp + "/multi")
    blk2 = gluon.SymbolBlock.imports(tmp + "/multi-symbol.json", ["data"], tmp + "/multi-0000.params")
    print([float(o.asnumpy().round(4).sum().round(3)) for o in blk2(x)])


def script_hooks_and_apply(tmp):
    import mxnet as mx
    from mxnet import gluon, nd

    net = gluon.nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(gluon.nn.Dense(3, in_units=2), gluon.nn.Dense(1, in_units=3))
    net.initialize(mx.init.Constant(0.1))
    calls = []

    def pre(block, inputs):
        calls.append(("pre", block.name, [i.shape for i in inputs]))

    def post(block, inputs, output):
        calls.append(("post", block.name, output.shape, round(float(output.sum().asscalar()), 4)))

    h1 = net[0].register_forward_pre_hook(pre)
    h2 = net[0].register_forward_hook(post)
    h3 = net.register_forward_hook(post)
    x = nd.array([[1.0, 2.0], [3.0, -1.0]])
    net(x)
    print(calls)
    calls.clear()
    h1.detach()
    net(x)
    print(calls)
    calls.clear()
    with h2:
        pass
    net(x)
    print(calls)
    h3.detach()
    calls.clear()
    net(x)
    print(calls)
    names = []
    net.apply(lambda b: names.append(b.name))
    print(names)
    net.apply(lambda b: [p.set_data(p.data() * 2) for p in b._reg_params.values()])
    print([p.data().asnumpy().ravel().tolist() for p in net.collect_params().values()])
    print(net(x).asnumpy().tolist())
    net.collect_params().setattr("grad_req", "null")
    print([p.grad_req for p in net.collect_params().values()])
    net.save_parameters(tmp + "/p.params")
    d = nd.load(tmp + "/p.params")
    print(sorted(d.keys()))
    net2 = gluon.nn.HybridSequential(prefix="other_")
    with net2.name_scope():
        net2.add(gluon.nn.Dense(3, in_units=2), gluon.nn.Dense(1, in_units=3))
    net2.load_parameters(tmp + "/p.params")
    print(net2(x).asnumpy().tolist())
    pd = net2.collect_params()
    try:
        pd.load(tmp + "/p.params", restore_prefix="other_")
    except AssertionError as e:
        print("AssertionError", str(e).replace(tmp, "<tmp>")[:150])
    pd.save(tmp + "/pd.params", strip_prefix="other_")
    print(sorted(nd.load(tmp + "/pd.params").keys()))
    try:
        pd.load(tmp + "/pd.params")
    except AssertionError as e:
        print("AssertionError", str(e).replace(tmp, "<tmp>")[:150])


def script_rnn_layers_states(tmp):
    import mxnet as mx
    from mxnet import gluon, nd

    mx.random.seed(1)
    lstm = gluon.rnn.LSTM(3, num_layers=1, layout="NTC", bidirectional=True, input_size=2)
    gru = gluon.rnn.GRU(2, num_layers=2, layout="TNC", input_size=2)
    rnn = gluon.rnn.RNN(2, activation="tanh", layout="NTC", input_size=2)
    for layer in [lstm, gru, rnn]:
        layer.initialize(mx.init.Uniform(0.5))
        print(layer)
        print(layer.state_info(4))
        st = layer.begin_state(batch_size=4, func=mx.nd.ones)
        print([s.shape for s in st], [float(s.sum().asscalar()) for s in st])
        try:
            layer.begin_state(4, func=mx.nd.full, val=0.5)
        except TypeError as e:
            print("TypeError", e)
        st2 = layer.begin_state(4, func=lambda name, shape, dtype, **kw: mx.nd.full(shape, 0.5, dtype=dtype))
        print([float(s.mean().asscalar()) for s in st2])
    x = nd.array(__import__("numpy").random.RandomState(3).uniform(-1, 1, (4, 3, 2)))
    out, states = lstm(x, lstm.begin_state(4, func=mx.nd.ones))
    print(out.shape, [s.shape for s in states], out.asnumpy().round(4)[0].tolist())
    print([s.asnumpy().round(4)[:, 0].tolist() for s in states])
    out = lstm(x)
    print(type(out).__name__, out.shape)
    out, states = gru(x.swapaxes(0, 1), gru.begin_state(4, func=mx.nd.zeros))
    print(out.shape, states[0].asnumpy().round(4).tolist())
    out, st = rnn(x, rnn.begin_state(4))
    print(out.asnumpy().round(4)[1].tolist(), st[0].shape)
    try:
        lstm(x, [nd.ones((2, 4, 3))])
    except Exception as e:
        print(type(e).__name__)
    cell = gluon.rnn.LSTMCell(3, input_size=2)
    cell.initialize(mx.init.Uniform(0.5))
    outs, st = cell.unroll(
        3,
        x,
        layout="NTC",
        merge_outputs=True,
        valid_length=nd.array([1, 3, 2, 3]),
        begin_state=cell.begin_state(4, func=mx.nd.ones),
    )
    print(outs.asnumpy().round(4)[:, :, 0].tolist(), [s.asnumpy().round(4)[:, 0].tolist() for s in st])


def script_io_iters(tmp):
    import mxnet as mx
    import numpy as np

    data = np.arange(20).reshape((10, 2)).astype("float32")
    label = np.arange(10).astype("float32")
    it = mx.io.NDArrayIter({"feat": data}, {"lab": label}, batch_size=4, last_batch_handle="roll_over")
    print(it.provide_data, it.provide_label)
    for epoch in range(3):
        print("epoch", epoch, [(b.data[0].asnumpy()[:, 0].tolist(), b.pad) for b in it])
        it.reset()
    it = mx.io.NDArrayIter(data, label, batch_size=3, last_batch_handle="discard")
    print([b.label[0].asnumpy().tolist() for b in it], it.num_data)
    np.random.seed(11)
    it = mx.io.NDArrayIter(data, label, batch_size=4, shuffle=True, last_batch_handle="pad")
    print(
        [
            (b.label[0].asnumpy().tolist(), b.pad, b.index.tolist() if b.index is not None else None)
            for b in it
        ]
    )
    d = mx.io.DataDesc("data", (4, 3), layout="NCHW")
    print(d, repr(d), d.dtype, d.layout, mx.io.DataDesc.get_batch_axis("TNC"))
    print(mx.io.DataDesc.get_list([("a", (1, 2))], [("a", np.float16)]))
    b = mx.io.DataBatch([mx.nd.ones((2, 2))], [mx.nd.zeros((2,))], pad=1)
    print(b)
    base = mx.io.NDArrayIter(data, label, batch_size=4)
    r = mx.io.ResizeIter(base, 5)
    print([b.label[0].asnumpy().tolist() for b in r])
    r.reset()
    print(len(list(r)))
    base1 = mx.io.NDArrayIter(data[:8], label[:8], batch_size=4, data_name="x", label_name="y")
    base2 = mx.io.NDArrayIter(data[:8] * 10, label[:8], batch_size=4, data_name="x", label_name="y")
    p = mx.io.PrefetchingIter(
        [base1, base2], rename_data=[{"x": "x1"}, {"x": "x2"}], rename_label=[{"y": "y1"}, {"y": "y2"}]
    )
    print(p.provide_data, p.provide_label)
    for b in p:
        print([x.asnumpy()[:, 1].tolist() for x in b.data], [x.asnumpy().tolist() for x in b.label])
    try:
        mx.io.NDArrayIter(data, label[:5], batch_size=2)
    except Exception as e:
        print(type(e).__name__, e)
    try:
        mx.io.NDArrayIter(data, label, batch_size=2, last_batch_handle="keep")
    except Exception as e:
        print(type(e).__name__, e)


def script_metrics_api(tmp):
    import mxnet as mx
    import numpy as np
    from mxnet import nd

    def my_acc(label, pred):
        return float((pred.argmax(axis=1) == label).mean())

    m = mx.metric.CustomMetric(my_acc, name="myacc")
    print(m.name, m)
    m2 = mx.metric.np(lambda l, p: float(np.abs(l - p.ravel()).sum()), name="l1sum", allow_extra_outputs=True)
    print(m2.name)
    comp = mx.metric.create(["acc", "ce", m, mx.metric.np(lambda l, p: 1.0)])
    print(type(comp).__name__, [x.name for x in comp.metrics])
    labels = [nd.array([0, 1, 2, 1])]
    preds = [nd.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])]
    comp.update(labels, preds)
    comp.update(labels, [nd.array([[0.1, 0.2, 0.7], [0.1, 0.8, 0.1], [0.2, 0.3, 0.5], [0.2, 0.6, 0.2]])])
    print([(n, round(v, 5)) for n, v in comp.get_name_value()])
    print(comp.get())
    print(comp.get_metric(0).get(), comp.get_metric(2).num_inst)
    try:
        comp.get_metric(9)
    except Exception as e:
        print(type(e).__name__, e)
    try:
        print(comp.get_config())
    except NotImplementedError as e:
        print("NotImplementedError", e)
    print(mx.metric.create(["acc", "mse"]).get_config())
    m3 = mx.metric.create("top_k_accuracy", top_k=2)
    m3.update(labels, preds)
    print(m3.get(), m3.get_config())
    m4 = mx.metric.create(my_acc)
    print(type(m4).__name__, m4.name)
    m5 = mx.metric.Accuracy(output_names=["a_output"], label_names=["lab"])
    m5.update_dict({"lab": labels[0], "other": labels[0]}, {"a_output": preds[0], "b_output": preds[0]})
    print(m5.get(), m5.get_global())
    m5.reset_local()
    print(m5.get(), m5.get_global())
    for bad in ["nosuchmetric", 3]:
        try:
            mx.metric.create(bad)
        except Exception as e:
            print(type(e).__name__, str(e)[:29])
    ce = mx.metric.CrossEntropy(eps=1e-3)
    ce.update([nd.array([0, 1])], [nd.array([[1.0, 0.0], [1.0, 0.0]])])
    print(ce.get())
    pe = mx.metric.Perplexity(ignore_label=1)
    pe.update([nd.array([0, 1, 1])], [nd.array([[0.6, 0.4], [0.3, 0.7], [0.9, 0.1]])])
    print(pe.get())


def script_module_resume(tmp):
    import mxnet as mx
    import numpy as np

    np.random.seed(0)
    mx.random.seed(0)
    x = np.random.RandomState(1).uniform(-1, 1, (12, 3)).astype("float32")
    y = (x.sum(axis=1) > 0).astype("float32")
    it = mx.io.NDArrayIter(x, y, batch_size=4, label_name="softmax_label")
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    mod = mx.mod.Module(net, context=mx.cpu())
    mod.fit(
        it,
        num_epoch=2,
        optimizer="adam",
        optimizer_params={"learning_rate": 0.05},
        initializer=mx.init.Constant(0.1),
        eval_metric="acc",
    )
    mod.save_checkpoint(tmp + "/m", 2, save_optimizer_states=True)
    import os

    print(sorted(os.listdir(tmp)))
    sym, arg, aux = mx.model.load_checkpoint(tmp + "/m", 2)
    print(sym.list_arguments(), sorted(arg.keys()), aux)
    print(arg["fc_weight"].asnumpy().round(4).tolist())
    mod2 = mx.mod.Module.load(tmp + "/m", 2, load_optimizer_states=True, context=mx.cpu())
    it.reset()
    mod2.fit(
        it,
        num_epoch=4,
        begin_epoch=2,
        optimizer="adam",
        optimizer_params={"learning_rate": 0.05},
        eval_metric="acc",
    )
    print(mod2.get_params()[0]["fc_weight"].asnumpy().round(4).tolist())
    mod.fit(
        it,
        num_epoch=4,
        begin_epoch=2,
        optimizer="adam",
        optimizer_params={"learning_rate": 0.05},
        eval_metric="acc",
        force_init=False,
    )
    print(mod.get_params()[0]["fc_weight"].asnumpy().round(4).tolist())
    print(mod.score(it, "acc"), mod2.score(it, ["acc", "ce"]))
    try:
        mx.mod.Module.load(tmp + "/m", 7)
    except Exception as e:
        print(type(e).__name__)


def script_kvstore_updater(tmp):
    import mxnet as mx
    from mxnet import nd

    kv = mx.kv.create("local")
    print(kv.type, kv.rank, kv.num_workers)
    kv.init("w", nd.ones((2, 3)))
    try:
        kv.init([5, 7], [nd.zeros((2,)), nd.ones((2,)) * 2])
    except mx.base.MXNetError:
        print("MXNetError mixed")
    kv.init(["5", "7"], [nd.zeros((2,)), nd.ones((2,)) * 2])
    log = []

    def upd(key, grad, weight):
        log.append((key, grad.asnumpy().tolist()))
        weight[:] = weight - 0.5 * grad

    kv._set_updater(upd)
    kv.push("w", [nd.ones((2, 3)), nd.ones((2, 3)) * 2])
    out = nd.zeros((2, 3))
    kv.pull("w", out=out)
    print(out.asnumpy().tolist(), log)
    kv.push(["5", "7"], [nd.array([1, 2]), nd.array([3, 4])])
    outs = [nd.zeros((2,)), nd.zeros((2,))]
    kv.pull(["5", "7"], out=outs)
    print([o.asnumpy().tolist() for o in outs], log[-2:])
    o = nd.zeros((2, 3))
    kv.pushpull("w", nd.ones((2, 3)) * 4, out=o)
    print(o.asnumpy().tolist())
    kv2 = mx.kv.create("device")
    kv2.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, rescale_grad=0.5))
    kv2.init(3, nd.ones((4,)))
    ctxs = [mx.cpu(0), mx.cpu(1)]
    for step in range(3):
        grads = [nd.array([1, 2, 3, 4], ctx=c) * (i + 1) for i, c in enumerate(ctxs)]
        kv2.push(3, grads)
        outs = [nd.zeros((4,), ctx=c) for c in ctxs]
        kv2.pull(3, out=outs)
        print(step, [o.asnumpy().round(5).tolist() for o in outs], [str(o.context) for o in outs])
    kv3 = mx.kv.create("device")
    kv3.init("a", nd.zeros((3,)))
    outs = [nd.zeros((3,), ctx=c) for c in ctxs]
    kv3.pushpull("a", [nd.array([1, 2, 3], ctx=c) for c in ctxs], out=outs)
    print([o.asnumpy().tolist() for o in outs])
    bo = [nd.zeros((2,), ctx=c) for c in ctxs]
    kv3.broadcast("b", nd.ones((2,)) * 7, out=bo)
    print([o.asnumpy().tolist() for o in bo])
    try:
        kv3.pull("zz", out=nd.zeros((1,)))
    except Exception as e:
        print(type(e).__name__)
    try:
        kv3.init("a", nd.zeros((3,)))
    except Exception as e:
        print(type(e).__name__)


def script_executor_sharing(tmp):
    import mxnet as mx
    from mxnet import nd

    x = mx.sym.var("x")
    w = mx.sym.var("w")
    y = mx.sym.FullyConnected(x, w, num_hidden=2, no_bias=True, name="fc")
    z = mx.sym.relu(y, name="r") * 2
    print(z.eval(x=nd.array([[1, -2, 3]]), w=nd.array([[1, 1, 1], [0, 1, 0]]))[0].asnumpy().tolist())
    ex = z.simple_bind(mx.cpu(), x=(4, 3), grad_req="write")
    print(
        sorted(ex.arg_dict.keys()),
        [a.shape for a in ex.arg_arrays],
        [g.shape if g is not None else None for g in ex.grad_arrays],
    )
    ex.arg_dict["x"][:] = nd.arange(12).reshape((4, 3)) / 10
    ex.arg_dict["w"][:] = nd.array([[1, -1, 0.5], [0.2, 0.3, -0.4]])
    print(ex.forward(is_train=True)[0].asnumpy().round(4).tolist())
    ex.backward(nd.ones((4, 2)))
    print(ex.grad_dict["w"].asnumpy().round(4).tolist())
    ex2 = ex.reshape(x=(2, 3))
    print(ex2.arg_dict["x"].shape, ex2.arg_dict["w"].asnumpy().tolist())
    print(ex2.forward()[0].asnumpy().round(4).tolist())
    try:
        ex.reshape(x=(8, 3))
    except Exception as e:
        print(type(e).__name__)
    ex3 = ex.reshape(allow_up_sizing=True, x=(8, 3))
    print(ex3.arg_dict["x"].shape, ex3.outputs[0].shape)
    shared = {}
    e1 = z.simple_bind(mx.cpu(), x=(2, 3), shared_buffer=shared)
    print(sorted(shared.keys()))
    e2 = z.simple_bind(mx.cpu(), x=(2, 3), shared_exec=e1, shared_arg_names=["w"], shared_buffer=shared)
    e1.arg_dict["w"][:] = 3
    e2.arg_dict["x"][:] = 1
    print(e2.forward()[0].asnumpy().tolist())
    args = {"x": nd.ones((1, 3)), "w": nd.ones((2, 3))}
    grads = {"w": nd.zeros((2, 3))}
    e4 = z.bind(mx.cpu(), args, args_grad=grads, grad_req={"x": "null", "w": "add"})
    for _ in range(2):
        e4.forward(is_train=True)
        e4.backward(nd.ones((1, 2)))
    print(grads["w"].asnumpy().tolist())
    e5 = z.bind(mx.cpu(), args, shared_exec=e4)
    print(e5.forward()[0].asnumpy().tolist())
    try:
        z.bind(mx.cpu(), {"x": nd.ones((1, 3))})
    except Exception as e:
        print(type(e).__name__, str(e)[:160])
    print(list(e4.output_dict.keys()))


def script_nd_special_values(tmp):
    from mxnet import nd
    import numpy as np

    a = nd.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-30, 3.4e38])
    print(a)
    print(a.asnumpy().tolist())
    h = nd.array([65504, 1e-7, 6e-8, 70000, -0.0, np.nan], dtype="float16")
    print(h)
    print(h.asnumpy().tolist())
    print(nd.array([1e10, 1e-10, 123456789.0]))
    print(nd.array([[1.5, 2.25]], dtype="float64"))
    print(nd.array([1, 2, 3], dtype="int64") / 2)
    x = nd.array([3.14159])
    print(f"{x.asscalar():.2f}", format(x.asscalar(), ".3e"))
    try:
        print(f"{x:.2f}")
    except Exception as e:
        print(type(e).__name__, e)
    print(f"{nd.array([1.5])}")
    print(nd.ones((1, 1, 1)) * np.nan)
    print(nd.array([np.nan, 1]).max(), nd.array([np.nan, 1]).argmax(), nd.array([np.inf, -np.inf]).sum())
    d = nd.array([[0, 1.5, 0], [2, 0, 0]])
    c = d.tostype("csr")
    print(c)
    print(c.data, c.indices, c.indptr)
    r = d.tostype("row_sparse")
    print(r.indices, r.data)
    print(c.tostype("default").asnumpy().tolist(), r.tostype("default").asnumpy().tolist())
    print(r.tostype("row_sparse") is r, d.tostype("default") is d)
    try:
        c.tostype("row_sparse")
    except Exception as e:
        print(type(e).__name__, str(e)[:120])
    print(nd.array([1e-45, 1.4e-45, -1e-40]).asnumpy().tolist())
    print(nd.array([1, 2], dtype="uint8") - 3, nd.array([200], dtype="int8"))
    print(nd.array([0.1, 0.2], dtype="float16") * 3)


def script_executor_debug_str(tmp):
    import mxnet as mx

    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    bn = mx.sym.BatchNorm(fc, name="bn", fix_gamma=False)
    act = mx.sym.Activation(bn, act_type="tanh", name="act")
    out = mx.sym.LinearRegressionOutput(act, name="lro")
    print(out.debug_str())
    ex = out.simple_bind(mx.cpu(), data=(2, 4), lro_label=(2, 3))
    print(ex.debug_str())
    print(sorted(ex.aux_dict.keys()), [a.shape for a in ex.aux_arrays])
    print(out.tojson()[:200])


def script_contrib_graph_ops(tmp):
    import mxnet as mx
    from mxnet import nd
    import numpy as np

    x = nd.arange(24).reshape((2, 3, 4))
    print(nd.contrib.div_sqrt_dim(x).asnumpy().round(4)[0].tolist())
    print(nd.contrib.index_array(nd.ones((2, 3))).asnumpy().tolist())
    print(nd.contrib.index_array(nd.ones((2, 3, 2)), axes=(0, 2)).asnumpy()[1].tolist())
    print(nd.contrib.arange_like(x, axis=1, start=2, step=0.5).asnumpy().tolist())
    print(nd.contrib.arange_like(nd.ones((2, 2)), repeat=2).asnumpy().tolist())
    shape = (4, 4)
    data = np.array([1, 2, 3, 4, 5, 6], dtype="int64")
    indices = np.array([1, 2, 0, 3, 1, 2])
    indptr = np.array([0, 2, 3, 5, 6])
    a = nd.sparse.csr_matrix((data, indices, indptr), shape=shape, dtype="int64")
    print(nd.contrib.getnnz(a).asnumpy().tolist(), nd.contrib.getnnz(a, axis=1).asnumpy().tolist())
    try:
        nd.contrib.getnnz(a, axis=0)
    except mx.base.MXNetError:
        print("MXNetError axis 0")
    print(
        nd.contrib.edge_id(
            a, nd.array([0, 0, 1, 3, 2], dtype="int64"), nd.array([1, 0, 2, 2, 3], dtype="int64")
        )
        .asnumpy()
        .tolist()
    )
    adj = nd.contrib.dgl_adjacency(a)
    print(adj.stype, adj.dtype, adj.data.asnumpy().tolist(), adj.indices.asnumpy().tolist())
    g = nd.contrib.dgl_subgraph(a, nd.array([0, 1, 2], dtype="int64"), return_mapping=True)
    print(len(g), [s.asnumpy().tolist() for s in g])
    b = nd.contrib.boolean_mask(nd.arange(6).reshape((3, 2)), nd.array([1, 0, 1]))
    print(b.asnumpy().tolist())
    ic = nd.contrib.index_copy(nd.zeros((4, 2)), nd.array([3, 0], dtype="int64"), nd.array([[1, 2], [3, 4]]))
    print(ic.asnumpy().tolist())


def script_param_dict_api(tmp):
    import mxnet as mx
    from mxnet import gluon, nd

    net = gluon.nn.HybridSequential(prefix="m_")
    with net.name_scope():
        net.add(gluon.nn.Dense(2, in_units=3), gluon.nn.BatchNorm(in_channels=2))
    net.initialize(mx.init.One())
    pd = net.collect_params()
    print(pd)
    print(list(pd.keys()), pd.prefix)
    print(net.collect_params(".*weight|.*gamma").keys())
    sub = gluon.ParameterDict("m_")
    w = sub.get("dense0_weight")
    print(w is pd["m_dense0_weight"], w.shape)
    extra = gluon.ParameterDict("x_")
    extra.get("c", shape=(2,), init=mx.init.Constant(3), grad_req="null")
    pd.update(extra)
    print(list(pd.keys())[-1], len(list(pd.keys())))
    try:
        sub.get("dense0_weight", shape=(5, 5))
    except AssertionError as e:
        print("AssertionError", str(e)[:120])
    k = gluon.Constant("k", nd.array([1.0, 2.0]))
    print(k, k.grad_req)
    k.initialize()
    print(k.data().asnumpy().tolist())
    x = nd.ones((2, 3))
    with mx.autograd.record():
        y = net(x)
    y.backward()
    print([p.name for p in pd.values() if p.grad_req != "null"])
    print(pd["m_dense0_weight"].grad().asnumpy().tolist())
    pd.zero_grad()
    try:
        pd.list_ctx()
    except RuntimeError as e:
        print("RuntimeError", e)
    pd["x_c"].initialize()
    print(pd["m_dense0_weight"].grad().asnumpy().sum(), pd.list_ctx())
    pd["m_dense0_weight"].lr_mult = 0.5
    pd.setattr("wd_mult", 0.0)
    print([(p.name, p.lr_mult, p.wd_mult) for p in pd.values()])
    pd.reset_ctx([mx.cpu(0), mx.cpu(1)])
    print(pd["m_dense0_bias"].list_ctx(), len(pd["m_dense0_bias"].list_data()))
    print(pd["m_batchnorm0_running_var"].data(mx.cpu(1)).asnumpy().tolist())
    try:
        pd["m_dense0_bias"].data(mx.cpu(2))
    except RuntimeError as e:
        print("RuntimeError", str(e)[:140])


def script_symbol_names_repr(tmp):
    import mxnet as mx

    a = mx.sym.var("a", shape=(2, 3), lr_mult=2.0)
    b = mx.sym.Variable("b", dtype="float16", init=mx.init.Zero())
    c = (a + 1) * b - a / 2 + 3**a
    print(c, repr(c).split(" ")[0], c.name)
    print(c.list_arguments(), c.list_outputs())
    print(c.get_internals().list_outputs())
    print([ch.name for ch in c.get_children()])
    print(a.attr("__shape__"), a.attr("__lr_mult__"), b.attr("__dtype__"), b.attr("__init__"), a.list_attr())
    print(c.attr_dict())
    d = mx.sym.split(a, num_outputs=3, axis=1, name="sp")
    print(d.list_outputs(), len(d), d[1].name, d[1].list_outputs())
    e = mx.sym.Group([d[0], d[2]])
    print(e.list_outputs(), e.infer_shape(a=(2, 3)))
    print(c.infer_type(a="float32", b="float32"))
    try:
        c.infer_type(a="float32", b="float16")
    except Exception as ex:
        print(type(ex).__name__)
    f = mx.sym.load_json(c.tojson())
    print(f.list_arguments() == c.list_arguments(), f.tojson() == c.tojson())
    g = mx.sym.FullyConnected(mx.sym.var("data", attr={"mood": "ok"}), num_hidden=4, name="fc")
    try:
        mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=4, name="fc", attr={"mood": "ok"})
    except mx.base.MXNetError:
        print("MXNetError attr")
    print(g.list_arguments(), g.get_children()[0].attr("mood"), g.attr("num_hidden"), g.list_attr())
    with mx.AttrScope(ctx_group="dev1", mood="sad"):
        h = mx.sym.relu(g, name="rr")
    print(h.list_attr(), h.attr_dict()["rr"])
    print(mx.sym.zeros((2, 2)).name, mx.sym.ones((1,), name="o").list_outputs())
    print(mx.sym.var("x").__copy__().name, (mx.sym.var("x") * mx.sym.var("y")).name)
    print(mx.sym.maximum(a, 1).name, mx.sym.minimum(2, a).name, (a**b).name, (-a).name, abs(a).name)
    print((a > 1).name, (1 < a).name, (a == b).name, (a != 2).name)


def script_nd_inplace_setitem(tmp):
    from mxnet import nd

    x = nd.arange(12).reshape((3, 4))
    y = x[1]
    y += 100
    print(x.asnumpy().tolist())
    z = x[1:3]
    z *= -1
    print(x.asnumpy().tolist())
    x[:, 1] = nd.array([7, 8, 9])
    x[0, ::2] = 5
    x[-1] = nd.array([1, 2, 3, 4]).reshape((1, 4))
    print(x.asnumpy().tolist())
    x[[0, 2], [1, 3]] = 0.5
    print(x.asnumpy().tolist())
    x[nd.array([1])] = 42
    print(x.asnumpy().tolist())
    w = nd.ones((2, 3))
    w[:] = nd.array([1, 2, 3])
    print(w.asnumpy().tolist())
    w[0][:] = 9
    print(w.asnumpy().tolist())
    v = w.reshape((3, 2))
    v[0, 0] = -7
    print(w.asnumpy().tolist(), v.asnumpy().tolist())
    print(x[1:2, None].shape, x[..., 1].asnumpy().tolist(), x[::-1, 1].asnumpy().tolist())
    print(x[nd.array([0, 2]), nd.array([3, 0])].asnumpy().tolist())
    i = nd.array([1, 2], dtype="int32")
    print(x[i].shape, x[:, i].asnumpy().tolist())
    q = nd.zeros((2, 2), dtype="int32")
    q[:] = 3.7
    q += 1.9
    print(q.asnumpy().tolist(), q.dtype)
    r = nd.array([1.0, 2.0])
    r2 = r
    r = r + 1
    r2 -= 1
    print(r.asnumpy().tolist(), r2.asnumpy().tolist())
    s = nd.ones((2, 2))
    s /= 4
    s **= 2
    s %= 0.05
    print(s.asnumpy().round(6).tolist())
    for bad in [
        lambda: x.__setitem__((0, 0, 0), 1),
        lambda: x.__setitem__(5, 1),
        lambda: x[7],
        lambda: x.__setitem__(slice(None), nd.ones((2, 2))),
    ]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__)
    print(x.size, x.ndim, x.T.shape, len(x), x.context, x.stype, x.handle is not None)
    print(bool(nd.array([1])), bool(nd.array([0.0])), nd.array([3.7]).asscalar())
    try:
        bool(nd.array([1, 2]))
    except ValueError as e:
        print("ValueError", e)


def script_layers_misc2(tmp):
    import mxnet as mx
    from mxnet import gluon, nd

    mx.random.seed(3)
    x = nd.array([[-2.0, -0.5, 0.0, 0.5, 2.0]])
    for blk in [
        gluon.nn.ELU(alpha=0.5),
        gluon.nn.SELU(),
        gluon.nn.Swish(beta=2.0),
        gluon.nn.GELU(),
        gluon.nn.PReLU(alpha_initializer=mx.init.Constant(0.1)),
        gluon.nn.LeakyReLU(0.3),
        gluon.nn.Activation("softrelu"),
    ]:
        blk.initialize()
        print(blk, blk(x).asnumpy().round(5).tolist())
    emb = gluon.nn.Embedding(5, 2, sparse_grad=True, weight_initializer=mx.init.Constant(0.5))
    emb.initialize()
    print(emb)
    tr = gluon.Trainer(emb.collect_params(), "sgd", {"learning_rate": 1.0, "wd": 0.1})
    with mx.autograd.record():
        o = emb(nd.array([[0, 3], [3, 3]]))
    o.backward()
    print(emb.weight.grad().stype, emb.weight.grad().indices.asnumpy().tolist())
    tr.step(1)
    print(emb.weight.data().asnumpy().tolist())
    ct = gluon.nn.Conv1DTranspose(
        2, 3, strides=2, output_padding=1, in_channels=1, weight_initializer=mx.init.One()
    )
    ct.initialize()
    print(ct, ct(nd.array([[[1, 2, 3]]])).asnumpy().tolist())
    for p in [
        gluon.nn.MaxPool1D(2, ceil_mode=True),
        gluon.nn.AvgPool1D(3, 2, padding=1, count_include_pad=False),
        gluon.nn.AvgPool1D(3, 2, padding=1),
        gluon.nn.GlobalMaxPool1D(),
        gluon.nn.GlobalAvgPool2D(layout="NHWC"),
    ]:
        inp = (
            nd.array([[[1, 5, 2, 8, 3]]])
            if "2D" not in p.__class__.__name__
            else nd.arange(8).reshape((1, 2, 2, 2))
        )
        print(p, p(inp).asnumpy().tolist())
    fl = gluon.nn.Flatten()
    print(fl, fl(nd.ones((2, 3, 4))).shape)
    d = gluon.nn.Dense(2, flatten=False, use_bias=False, in_units=4, dtype="float64")
    print(d, d.weight.dtype)
    dr = gluon.nn.Dropout(0.5, axes=(1,))
    with mx.autograd.train_mode():
        print(dr, dr(nd.ones((2, 4))).asnumpy().tolist())


def script_bilinear_resize(tmp):
    import hashlib

    import numpy as np

    import mxnet as mx
    from mxnet import gluon, nd

    def h(a):
        return hashlib.sha1(a.asnumpy().tobytes()).hexdigest()[:16]

    rs = np.random.RandomState(3)
    cases = [
        ((2, 3, 5, 6), dict(height=11, width=13)),
        ((1, 2, 7, 4), dict(height=3, width=9, align_corners=False)),
        ((1, 2, 6, 6), dict(scale_height=2.0, scale_width=0.5, align_corners=False)),
        ((2, 1, 5, 8), dict(mode="odd_scale", scale_height=2.0, scale_width=1.5)),
        ((1, 3, 4, 5), dict(mode="to_even_up", align_corners=False)),
        ((1, 1, 5, 10), dict(height=7, width=1, align_corners=False)),
        ((1, 1, 1, 3), dict(height=4, width=6)),
    ]
    for shape, kw in cases:
        x = nd.array(rs.uniform(-3, 3, shape))
        x.attach_grad()
        with mx.autograd.record():
            y = nd.contrib.BilinearResize2D(x, **kw)
        y.backward(nd.array(rs.uniform(-1, 1, y.shape)))
        print(y.shape, h(y), h(x.grad), y.asnumpy().ravel()[:3].tolist())
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.HybridLambda(lambda F, x: F.relu(x * 2 - 1)))
    net.add(gluon.nn.HybridLambda(lambda F, x: F.contrib.BilinearResize2D(x, height=9, width=7)))
    net.hybridize()
    x = nd.array(rs.uniform(0, 1, (2, 2, 4, 3)))
    x.attach_grad()
    with mx.autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    print(h(net(x)), h(x.grad), x.grad.asnumpy().ravel()[:3].tolist())


def script_pad_gradients(tmp):
    import hashlib

    import numpy as np

    import mxnet as mx
    from mxnet import gluon, nd

    def h(a):
        return hashlib.sha1(a.asnumpy().tobytes()).hexdigest()[:16]

    rs = np.random.RandomState(4)
    cases = [
        ((2, 2, 4, 5), "edge", (0, 0, 0, 0, 2, 3, 1, 4), "float32"),
        ((1, 3, 5, 4), "reflect", (0, 0, 0, 0, 3, 1, 2, 3), "float32"),
        ((1, 2, 3, 4, 5), "reflect", (0, 0, 0, 0, 1, 2, 2, 1, 3, 3), "float32"),
        ((2, 1, 3, 3, 2), "edge", (0, 0, 0, 0, 1, 1, 2, 0, 0, 3), "float32"),
        ((1, 2, 4, 4), "reflect", (0, 0, 0, 0, 2, 2, 2, 2), "float64"),
        ((1, 1, 3, 5), "edge", (0, 0, 0, 0, 2, 2, 3, 1), "float16"),
        ((1, 1, 3, 3), "constant", (0, 0, 0, 0, 1, 2, 0, 1), "float32"),
    ]
    for shape, mode, pw, dt in cases:
        x = nd.array(rs.uniform(-2, 2, shape), dtype=dt)
        x.attach_grad()
        with mx.autograd.record():
            y = nd.pad(x, mode=mode, pad_width=pw, constant_value=0.5)
        y.backward(nd.array(rs.uniform(-1, 1, y.shape), dtype=dt))
        print(y.shape, h(y), h(x.grad), x.grad.asnumpy().ravel()[:2].tolist())
    pad = gluon.nn.ReflectionPad2D(2)
    x = nd.array(rs.uniform(-1, 1, (2, 3, 5, 5)))
    x.attach_grad()
    with mx.autograd.record():
        loss = (pad(x) * nd.array(rs.uniform(0, 1, (2, 3, 9, 9)))).sum()
    loss.backward()
    print(pad, h(x.grad), x.grad.asnumpy()[0, 0, 0].tolist())


# ---------------------------------------------------------------------------------------------
# what MXNet 1.9.1 printed

EXPECTED = {}

EXPECTED['script_bilinear_resize'] = (
    '(2, 3, 11, 13) 76e0737a2e755ab0 8afd44d2166ea479 [0.30478742718696594, 0.6981621980667114, 1.09153'
    '69987487793]\n'
    '(1, 2, 3, 9) d1cdb7e295200802 11e9ae415e496c94 [0.8176855444908142, 0.9083418846130371, 1.15009212'
    '49389648]\n'
    '(1, 2, 12, 3) de0426a656aa1453 5483901818f04647 [0.1855630874633789, -0.23263341188430786, -0.4053'
    '167700767517]\n'
    '(2, 1, 9, 12) 90ea5c8ff238fc44 97b3f61a27dd26b0 [0.018871182575821877, -0.4040609896183014, -0.828'
    '8489580154419]\n'
    '(1, 3, 4, 6) 4245c4fe56107a68 156eee8e4826b493 [-0.35861527919769287, -0.3556598126888275, -0.1368'
    '079036474228]\n'
    '(1, 1, 7, 1) c8d54a34ed4a12ad b56e5dc57b597deb [-2.254462718963623, -0.9534801840782166, 0.5303168'
    '296813965]\n'
    '(1, 1, 4, 6) f1c7c4333af71ce6 d4cb538bd1ec0e66 [-2.97835636138916, -1.767962098121643, -0.55756759'
    '64355469]\n'
    '8bac6075f3ace285 2ed9f9644bf29aa5 [5.702437400817871, 0.0, 0.0]\n'
)

EXPECTED['script_contrib_graph_ops'] = (
    '[[0.0, 0.5, 1.0, 1.5], [2.0, 2.5, 3.0, 3.5], [4.0, 4.5, 5.0, 5.5]]\n'
    '[[[0, 0], [0, 1], [0, 2]], [[1, 0], [1, 1], [1, 2]]]\n'
    '[[[1, 0], [1, 1]], [[1, 0], [1, 1]], [[1, 0], [1, 1]]]\n'
    '[2.0, 2.5, 3.0]\n'
    '[[0.0, 0.0], [1.0, 1.0]]\n'
    '[6] [2, 1, 2, 1]\n'
    'MXNetError axis 0\n'
    '[1, -1, -1, 6, 4]\n'
    "csr <class 'numpy.float32'> [1.0, 1.0, 1.0, 1.0, 1.0, 1.0] [1, 2, 0, 3, 1, 2]\n"
    '2 [[[0, 0, 1], [2, 0, 0], [0, 3, 0]], [[0, 1, 2], [3, 0, 0], [0, 5, 0]]]\n'
    '[[0.0, 1.0], [4.0, 5.0]]\n'
    '[[3.0, 4.0], [0.0, 0.0], [0.0, 0.0], [1.0, 2.0]]\n'
)

EXPECTED['script_executor_debug_str'] = (
    'Symbol Outputs:\n'
    '\toutput[0]=lro(0)\n'
    'Variable:data\n'
    'Variable:fc_weight\n'
    'Variable:fc_bias\n'
    '--------------------\n'
    'Op:FullyConnected, Name=fc\n'
    'Inputs:\n'
    '\targ[0]=data(0) version=0\n'
    '\targ[1]=fc_weight(0) version=0\n'
    '\targ[2]=fc_bias(0) version=0\n'
    'Attrs:\n'
    '\tnum_hidden=3\n'
    'Variable:bn_gamma\n'
    'Variable:bn_beta\n'
    'Variable:bn_moving_mean\n'
    'Variable:bn_moving_var\n'
    '--------------------\n'
    'Op:BatchNorm, Name=bn\n'
    'Inputs:\n'
    '\targ[0]=fc(0)\n'
    '\targ[1]=bn_gamma(0) version=0\n'
    '\targ[2]=bn_beta(0) version=0\n'
    '\targ[3]=bn_moving_mean(0) version=1\n'
    '\targ[4]=bn_moving_var(0) version=1\n'
    'Attrs:\n'
    '\tfix_gamma=False\n'
    '--------------------\n'
    'Op:Activation, Name=act\n'
    'Inputs:\n'
    '\targ[0]=bn(0)\n'
    'Attrs:\n'
    '\tact_type=tanh\n'
    'Variable:lro_label\n'
    '--------------------\n'
    'Op:LinearRegressionOutput, Name=lro\n'
    'Inputs:\n'
    '\targ[0]=act(0)\n'
    '\targ[1]=lro_label(0) version=0\n'
    '\n'
    'Symbol Outputs:\n'
    '\toutput[0]=lro(0)\n'
    '\toutput[1]=fc_backward(0)\n'
    '\toutput[2]=fc_backward(1)\n'
    '\toutput[3]=fc_backward(2)\n'
    '\toutput[4]=bn_backward(1)\n'
    '\toutput[5]=bn_backward(2)\n'
    '\toutput[6]=lro_backward(1)\n'
    'Variable:data\n'
    'Variable:fc_weight\n'
    'Variable:fc_bias\n'
    '--------------------\n'
    'Op:FullyConnected, Name=fc\n'
    'Inputs:\n'
    '\targ[0]=data(0) version=0\n'
    '\targ[1]=fc_weight(0) version=0\n'
    '\targ[2]=fc_bias(0) version=0\n'
    'Attrs:\n'
    '\tnum_hidden=3\n'
    'Variable:bn_gamma\n'
    'Variable:bn_beta\n'
    'Variable:bn_moving_mean\n'
    'Variable:bn_moving_var\n'
    '--------------------\n'
    'Op:BatchNorm, Name=bn\n'
    'Inputs:\n'
    '\targ[0]=fc(0)\n'
    '\targ[1]=bn_gamma(0) version=0\n'
    '\targ[2]=bn_beta(0) version=0\n'
    '\targ[3]=bn_moving_mean(0) version=1\n'
    '\targ[4]=bn_moving_var(0) version=1\n'
    'Attrs:\n'
    '\tfix_gamma=False\n'
    '--------------------\n'
    'Op:Activation, Name=act\n'
    'Inputs:\n'
    '\targ[0]=bn(0)\n'
    'Attrs:\n'
    '\tact_type=tanh\n'
    'Variable:lro_label\n'
    '--------------------\n'
    'Op:LinearRegressionOutput, Name=lro\n'
    'Inputs:\n'
    '\targ[0]=act(0)\n'
    '\targ[1]=lro_label(0) version=0\n'
    '--------------------\n'
    'Op:_backward_linear_reg_out, Name=lro_backward\n'
    'Inputs:\n'
    '\targ[0]=lro_label(0) version=0\n'
    '\targ[1]=lro(0)\n'
    'Control deps:\n'
    '\tcdep[0]=lro\n'
    '--------------------\n'
    'Op:_backward_Activation, Name=act_backward\n'
    'Inputs:\n'
    '\targ[0]=lro_backward(0)\n'
    '\targ[1]=act(0)\n'
    '\targ[2]=bn(0)\n'
    'Attrs:\n'
    '\tact_type=tanh\n'
    'Control deps:\n'
    '\tcdep[0]=act\n'
    '--------------------\n'
    'Op:_backward_BatchNorm, Name=bn_backward\n'
    'Inputs:\n'
    '\targ[0]=act_backward(0)\n'
    '\targ[1]=bn(1)\n'
    '\targ[2]=bn(2)\n'
    '\targ[3]=fc(0)\n'
    '\targ[4]=bn_gamma(0) version=0\n'
    '\targ[5]=bn_beta(0) version=0\n'
    '\targ[6]=bn_moving_mean(0) version=1\n'
    '\targ[7]=bn_moving_var(0) version=1\n'
    'Attrs:\n'
    '\tfix_gamma=False\n'
    'Control deps:\n'
    '\tcdep[0]=bn\n'
    '--------------------\n'
    'Op:_backward_FullyConnected, Name=fc_backward\n'
    'Inputs:\n'
    '\targ[0]=bn_backward(0)\n'
    '\targ[1]=data(0) version=0\n'
    '\targ[2]=fc_weight(0) version=0\n'
    'Attrs:\n'
    '\tnum_hidden=3\n'
    'Control deps:\n'
    '\tcdep[0]=fc\n'
    'Total 0 MB allocated\n'
    'Total 11 TempSpace resource requested\n'
    '\n'
    "['bn_moving_mean', 'bn_moving_var'] [(3,), (3,)]\n"
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "data", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "fc_weight", \n'
    '      "attrs": {"num_hidden": "3"}, \n'
    '      "inputs": \n'
)

EXPECTED['script_executor_sharing'] = (
    '[[4.0, 0.0]]\n'
    "['w', 'x'] [(4, 3), (2, 3)] [(4, 3), (2, 3)]\n"
    '[[0.0, 0.0], [0.30000001192092896, 0.0], [0.6000000238418579, 0.019999999552965164], [0.8999999761'
    '581421, 0.07999999821186066]]\n'
    '[[3.5999999046325684, 4.199999809265137, 4.800000190734863], [3.0, 3.4000000953674316, 3.799999952'
    '316284]]\n'
    '(2, 3) [[1.0, -1.0, 0.5], [0.20000000298023224, 0.30000001192092896, -0.4000000059604645]]\n'
    '[[0.0, 0.0], [0.30000001192092896, 0.0]]\n'
    'MXNetError\n'
    '(8, 3) (8, 2)\n'
    "['grad of w', 'grad of x', 'w', 'x']\n"
    '[[18.0, 18.0], [18.0, 18.0]]\n'
    '[[4.0, 4.0, 4.0], [4.0, 4.0, 4.0]]\n'
    '[[6.0, 6.0]]\n'
    'ValueError key `w` is missing in `args`\n'
    "['_mulscalar0_output']\n"
)

EXPECTED['script_hooks_and_apply'] = (
    "[('pre', 'net_dense0', [(2, 2)]), ('post', 'net_dense0', (2, 3), 1.5), ('post', 'net', (2, 1), 0.1"
    '5)]\n'
    "[('post', 'net_dense0', (2, 3), 1.5), ('post', 'net', (2, 1), 0.15)]\n"
    "[('post', 'net', (2, 1), 0.15)]\n"
    '[]\n'
    "['net_dense0', 'net_dense1', 'net']\n"
    '[[0.20000000298023224, 0.20000000298023224, 0.20000000298023224, 0.20000000298023224, 0.2000000029'
    '8023224, 0.20000000298023224], [0.0, 0.0, 0.0], [0.20000000298023224, 0.20000000298023224, 0.20000'
    '000298023224], [0.0]]\n'
    '[[0.36000001430511475], [0.24000000953674316]]\n'
    "['null', 'null', 'null', 'null']\n"
    "['0.bias', '0.weight', '1.bias', '1.weight']\n"
    '[[0.36000001430511475], [0.24000000953674316]]\n'
    "AssertionError Parameter 'dense0_weight' is missing in file: <tmp>/p.params, which contains parame"
    "ters: 'other_0.weight', 'other_0.bias', 'other_1.weight', 'other_1.\n"
    "['dense0_bias', 'dense0_weight', 'dense1_bias', 'dense1_weight']\n"
    "AssertionError Parameter 'other_dense0_weight' is missing in file: <tmp>/pd.params, which contains"
    " parameters: 'dense0_weight', 'dense0_bias', 'dense1_weight', 'dens\n"
)

EXPECTED['script_io_iters'] = (
    "[DataDesc[feat,(4, 2),<class 'numpy.float32'>,NCHW]] [DataDesc[lab,(4,),<class 'numpy.float32'>,NC"
    'HW]]\n'
    'epoch 0 [([0.0, 2.0, 4.0, 6.0], 0), ([8.0, 10.0, 12.0, 14.0], 0)]\n'
    'epoch 1 [([16.0, 18.0, 0.0, 2.0], 2), ([4.0, 6.0, 8.0, 10.0], 0), ([12.0, 14.0, 16.0, 18.0], 0)]\n'
    'epoch 2 [([0.0, 2.0, 4.0, 6.0], 0), ([8.0, 10.0, 12.0, 14.0], 0)]\n'
    '[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]] 10\n'
    '[([7.0, 8.0, 2.0, 6.0], 0, None), ([4.0, 5.0, 1.0, 3.0], 0, None), ([0.0, 9.0, 7.0, 8.0], 2, None)'
    ']\n'
    "DataDesc[data,(4, 3),<class 'numpy.float32'>,NCHW] DataDesc[data,(4, 3),<class 'numpy.float32'>,NC"
    "HW] <class 'numpy.float32'> NCHW 1\n"
    "[DataDesc[a,(1, 2),<class 'numpy.float16'>,NCHW]]\n"
    'DataBatch: data shapes: [(2, 2)] label shapes: [(2,)]\n'
    '[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 0.0, 1.0], [0.0, 1.0, 2.0, 3.0], [4.0, 5.0'
    ', 6.0, 7.0]]\n'
    '5\n'
    "[DataDesc[x1,(4, 2),<class 'numpy.float32'>,NCHW], DataDesc[x2,(4, 2),<class 'numpy.float32'>,NCHW"
    "]] [DataDesc[y1,(4,),<class 'numpy.float32'>,NCHW], DataDesc[y2,(4,),<class 'numpy.float32'>,NCHW]"
    ']\n'
    '[[1.0, 3.0, 5.0, 7.0], [10.0, 30.0, 50.0, 70.0]] [[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0]]\n'
    '[[9.0, 11.0, 13.0, 15.0], [90.0, 110.0, 130.0, 150.0]] [[4.0, 5.0, 6.0, 7.0], [4.0, 5.0, 6.0, 7.0]'
    ']\n'
)

EXPECTED['script_kvstore_updater'] = (
    'local 0 1\n'
    'MXNetError mixed\n'
    "[[-0.5, -0.5, -0.5], [-0.5, -0.5, -0.5]] [(b'w', [[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]])]\n"
    "[[-0.5, -1.0], [0.5, 0.0]] [(b'5', [1.0, 2.0]), (b'7', [3.0, 4.0])]\n"
    '[[-2.5, -2.5, -2.5], [-2.5, -2.5, -2.5]]\n'
    '0 [[0.8500000238418579, 0.699999988079071, 0.550000011920929, 0.4000000059604645], [0.850000023841'
    "8579, 0.699999988079071, 0.550000011920929, 0.4000000059604645]] ['cpu(0)', 'cpu(1)']\n"
    '1 [[0.5649999976158142, 0.12999999523162842, -0.3050000071525574, -0.7400000095367432], [0.5649999'
    "976158142, 0.12999999523162842, -0.3050000071525574, -0.7400000095367432]] ['cpu(0)', 'cpu(1)']\n"
    '2 [[0.15850000083446503, -0.6830000281333923, -1.5245000123977661, -2.365999937057495], [0.1585000'
    "0083446503, -0.6830000281333923, -1.5245000123977661, -2.365999937057495]] ['cpu(0)', 'cpu(1)']\n"
    '[[2.0, 4.0, 6.0], [2.0, 4.0, 6.0]]\n'
    '[[7.0, 7.0], [7.0, 7.0]]\n'
    'MXNetError\n'
    'MXNetError\n'
)

EXPECTED['script_lambda_blocks'] = (
    'Lambda(tanh)\n'
    'HybridLambda(relu)\n'
    'Lambda HybridLambda\n'
    '[[-0.7615900039672852, 0.462119996547699], [0.9640300273895264, -0.9950500130653381]] [[-1.0, 2.0]'
    ', [5.0, -5.0]] [[0.0, 0.5], [2.0, 0.0]]\n'
    '[[0.0, 7.5], [9.0, -3.0]]\n'
    'HybridSequential(\n'
    '  (0): Dense(2 -> 3, linear)\n'
    '  (1): HybridLambda(sigmoid)\n'
    '  (2): HybridLambda(<lambda>)\n'
    ')\n'
    '[1.4250600337982178, 1.3504999876022339]\n'
    "['hybridlambda3_sum0_output'] ['data', 'dense0_weight', 'dense0_bias']\n"
    'AssertionError Function name no_such_function is not found in ndarray.\n'
    'AssertionError Function name no_such_op is not found in symbol/ndarray.\n'
    "ValueError Unrecognized function in lambda: 3 of type <class 'int'>\n"
)

EXPECTED['script_layers_misc2'] = (
    'ELU(\n'
    '\n'
    ') [[-0.43233001232147217, -0.19673000276088715, 0.0, 0.5, 2.0]]\n'
    'SELU(\n'
    '\n'
    ') [[-1.520169973373413, -0.6917600035667419, 0.0, 0.5253499746322632, 2.1013998985290527]]\n'
    'Swish(\n'
    '\n'
    ') [[-0.03596999868750572, -0.13447000086307526, 0.0, 0.36553001403808594, 1.9640300273895264]]\n'
    'GELU(\n'
    '\n'
    ') [[-0.045499999076128006, -0.1542699933052063, 0.0, 0.3457300066947937, 1.9544999599456787]]\n'
    'PReLU(\n'
    '\n'
    ') [[-0.20000000298023224, -0.05000000074505806, 0.0, 0.5, 2.0]]\n'
    'LeakyReLU(0.3) [[-0.6000000238418579, -0.15000000596046448, 0.0, 0.5, 2.0]]\n'
    'Activation(softrelu) [[0.12692999839782715, 0.47407999634742737, 0.693149983882904, 0.974080026149'
    '7498, 2.126929998397827]]\n'
    'Embedding(5 -> 2, float32)\n'
    'row_sparse [0, 3]\n'
    '[[-0.550000011920929, -0.550000011920929], [0.5, 0.5], [0.5, 0.5], [-2.549999952316284, -2.5499999'
    '52316284], [0.5, 0.5]]\n'
    'Conv1DTranspose(2 -> 1, kernel_size=(3,), stride=(2,)) [[[1.0, 1.0, 3.0, 2.0, 5.0, 3.0, 3.0, 0.0],'
    ' [1.0, 1.0, 3.0, 2.0, 5.0, 3.0, 3.0, 0.0]]]\n'
    'MaxPool1D(size=(2,), stride=(2,), padding=(0,), ceil_mode=True, global_pool=False, pool_type=max, '
    'layout=NCW) [[[5.0, 8.0, 3.0]]]\n'
    'AvgPool1D(size=(3,), stride=(2,), padding=(1,), ceil_mode=False, global_pool=False, pool_type=avg,'
    ' layout=NCW) [[[3.0, 5.0, 5.5]]]\n'
    'AvgPool1D(size=(3,), stride=(2,), padding=(1,), ceil_mode=False, global_pool=False, pool_type=avg,'
    ' layout=NCW) [[[2.0, 5.0, 3.6666667461395264]]]\n'
    'GlobalMaxPool1D(size=(1,), stride=(1,), padding=(0,), ceil_mode=True, global_pool=True, pool_type='
    'max, layout=NCW) [[[8.0]]]\n'
    'GlobalAvgPool2D(size=(1, 1), stride=(1, 1), padding=(0, 0), ceil_mode=True, global_pool=True, pool'
    '_type=avg, layout=NHWC) [[[[3.0, 4.0]]]]\n'
    'Flatten (2, 12)\n'
    'Dense(4 -> 2, linear) float64\n'
    'Dropout(p = 0.5, axes=(1,)) [[0.0, 0.0, 0.0, 0.0], [2.0, 2.0, 2.0, 2.0]]\n'
)

EXPECTED['script_metrics_api'] = (
    "myacc EvalMetric: {'myacc': nan}\n"
    'l1sum\n'
    "CompositeEvalMetric ['accuracy', 'cross-entropy', 'myacc', 'custom(<lambda>)']\n"
    "[('accuracy', 0.625), ('cross-entropy', 0.89037), ('myacc', 0.625), ('custom(<lambda>)', 1.0)]\n"
    "(['accuracy', 'cross-entropy', 'myacc', 'custom(<lambda>)'], [0.625, 0.8903663456439972, 0.625, 1."
    '0])\n'
    "('accuracy', 0.625) 2\n"
    'NotImplementedError CustomMetric cannot be serialized\n'
    "{'metric': 'CompositeEvalMetric', 'name': 'composite', 'output_names': None, 'label_names': None, "
    "'metrics': [{'axis': 1, 'metric': 'Accuracy', 'name': 'accuracy', 'output_names': None, 'label_nam"
    "es': None}, {'metric': 'MSE', 'name': 'mse', 'output_names': None, 'label_names': None}]}\n"
    "('top_k_accuracy_2', 0.75) {'top_k': 2, 'metric': 'TopKAccuracy', 'name': 'top_k_accuracy_2', 'out"
    "put_names': None, 'label_names': None}\n"
    'CustomMetric my_acc\n'
    "('accuracy', 0.5) ('accuracy', 0.5)\n"
    "('accuracy', nan) ('accuracy', 0.5)\n"
    'AssertionError nosuchmetric is not registere\n'
    'AssertionError metric must be of string type\n'
    "('cross-entropy', 3.4533779621124268)\n"
    "('perplexity', 1.666666584386752)\n"
)

EXPECTED['script_module_resume'] = (
    'INFO Epoch[0] Train-accuracy=0.583333\n'
    'INFO Epoch[0] Time cost=<t>\n'
    'INFO Epoch[1] Train-accuracy=0.750000\n'
    'INFO Epoch[1] Time cost=<t>\n'
    'INFO Saved checkpoint to "<tmp>/m-0002.params"\n'
    'INFO Saved optimizer state to "<tmp>/m-0002.states"\n'
    "['m-0002.params', 'm-0002.states', 'm-symbol.json']\n"
    "['data', 'fc_weight', 'fc_bias', 'softmax_label'] ['fc_bias', 'fc_weight'] {}\n"
    '[[-0.1898999959230423, -0.020600000396370888, -0.019300000742077827], [0.38989999890327454, 0.2205'
    '9999406337738, 0.21930000185966492]]\n'
    'INFO Epoch[2] Train-accuracy=0.750000\n'
    'INFO Epoch[2] Time cost=<t>\n'
    'INFO Epoch[3] Train-accuracy=0.750000\n'
    'INFO Epoch[3] Time cost=<t>\n'
    '[[-0.5633000135421753, -0.17190000414848328, -0.06319999694824219], [0.7633000016212463, 0.3718999'
    '922275543, 0.2632000148296356]]\n'
    'WARNING Already bound, ignoring bind()\n'
    'WARNING optimizer already initialized, ignoring...\n'
    'INFO Epoch[2] Train-accuracy=0.750000\n'
    'INFO Epoch[2] Time cost=<t>\n'
    'INFO Epoch[3] Train-accuracy=0.750000\n'
    'INFO Epoch[3] Time cost=<t>\n'
    '[[-0.4648999869823456, -0.13220000267028809, -0.04769999906420708], [0.664900004863739, 0.33219999'
    '074935913, 0.24770000576972961]]\n'
    "[('accuracy', 0.8333333333333334)] [('accuracy', 0.8333333333333334), ('cross-entropy', 0.39680892"
    '2290802)]\n'
    'MXNetError\n'
)

EXPECTED['script_nd_inplace_setitem'] = (
    '[[0.0, 1.0, 2.0, 3.0], [104.0, 105.0, 106.0, 107.0], [8.0, 9.0, 10.0, 11.0]]\n'
    '[[0.0, 1.0, 2.0, 3.0], [-104.0, -105.0, -106.0, -107.0], [-8.0, -9.0, -10.0, -11.0]]\n'
    '[[5.0, 7.0, 5.0, 3.0], [-104.0, 8.0, -106.0, -107.0], [1.0, 2.0, 3.0, 4.0]]\n'
    '[[5.0, 0.5, 5.0, 3.0], [-104.0, 8.0, -106.0, -107.0], [1.0, 2.0, 3.0, 0.5]]\n'
    '[[5.0, 0.5, 5.0, 3.0], [42.0, 42.0, 42.0, 42.0], [1.0, 2.0, 3.0, 0.5]]\n'
    '[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]\n'
    '[[9.0, 9.0, 9.0], [1.0, 2.0, 3.0]]\n'
    '[[-7.0, 9.0, 9.0], [1.0, 2.0, 3.0]] [[-7.0, 9.0], [9.0, 1.0], [2.0, 3.0]]\n'
    '(1, 1, 4) [0.5, 42.0, 2.0] [2.0, 42.0, 0.5]\n'
    '[3.0, 1.0]\n'
    '(2, 4) [[0.5, 5.0], [42.0, 42.0], [2.0, 3.0]]\n'
    "[[4, 4], [4, 4]] <class 'numpy.int32'>\n"
    '[2.0, 3.0] [0.0, 1.0]\n'
    '[[0.012500000186264515, 0.012500000186264515], [0.012500000186264515, 0.012500000186264515]]\n'
    'IndexError\n'
    'IndexError\n'
    'IndexError\n'
    'ValueError\n'
    '12 2 (4, 3) 3 cpu(0) default True\n'
    'True False 3.7\n'
    'ValueError The truth value of an NDArray with multiple elements is ambiguous.\n'
)

EXPECTED['script_nd_special_values'] = (
    '\n'
    '[     nan      inf     -inf -0.0e+00  0.0e+00  1.0e-30  3.4e+38]\n'
    '<NDArray 7 @cpu(0)>\n'
    '[nan, inf, -inf, -0.0, 0.0, 1.0000000031710769e-30, 3.3999999521443642e+38]\n'
    '\n'
    '[ 6.55e+04  1.19e-07  5.96e-08       inf -0.00e+00       nan]\n'
    '<NDArray 6 @cpu(0)>\n'
    '[65504.0, 1.1920928955078125e-07, 5.960464477539063e-08, inf, -0.0, nan]\n'
    '\n'
    '[1.0000000e+10 1.0000000e-10 1.2345679e+08]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[[1.5  2.25]]\n'
    '<NDArray 1x2 @cpu(0)>\n'
    '\n'
    '[0 1 1]\n'
    '<NDArray 3 @cpu(0)>\n'
    '3.14 3.142e+00\n'
    'TypeError unsupported format string passed to NDArray.__format__\n'
    '\n'
    '[1.5]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[[[nan]]]\n'
    '<NDArray 1x1x1 @cpu(0)>\n'
    '\n'
    '[nan]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[0.]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[nan]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '<CSRNDArray 2x3 @cpu(0)>\n'
    '\n'
    '[1.5 2. ]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[1 0]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[0 1 2]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[0 1]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[0.  1.5 0. ]\n'
    ' [2.  0.  0. ]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '[[0.0, 1.5, 0.0], [2.0, 0.0, 0.0]] [[0.0, 1.5, 0.0], [2.0, 0.0, 0.0]]\n'
    'False False\n'
    'ValueError cast_storage from csr to row_sparse is not supported\n'
    '[1.401298464324817e-45, 1.401298464324817e-45, -9.99994610111476e-41]\n'
    '\n'
    '[254 255]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[-56]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[0.2998 0.5996]\n'
    '<NDArray 2 @cpu(0)>\n'
)

EXPECTED['script_norm_layers_options'] = (
    'InstanceNorm(eps=0.001, axis=1, center=False, scale=False, in_channels=0)\n'
    '(2, 4, 2, 3) [-1.4393999576568604, -0.8636000156402588, -0.28790000081062317, 0.28790000081062317,'
    ' 0.8636000156402588, 1.4393999576568604, 1.4575999975204468, 0.8745999932289124, 0.291500002145767'
    '2, -0.2915000021457672, -0.8745999932289124, -1.4575999975204468] -0.0\n'
    'grad [-0.00989999994635582, -0.006000000052154064, -0.0020000000949949026, 0.0020000000949949026, '
    '0.006000000052154064, 0.00989999994635582, -0.0013000000035390258, -0.0007999999797903001]\n'
    'instancenorm0_gamma (4,) null None\n'
    'instancenorm0_beta (4,) null None\n'
    'InstanceNorm(eps=1e-05, axis=1, center=True, scale=False, in_channels=4)\n'
    '(2, 4, 2, 3) [-1.4636000394821167, -0.8781999945640564, -0.29269999265670776, 0.29269999265670776,'
    ' 0.8781999945640564, 1.4636000394821167, 1.4637999534606934, 0.8783000111579895, 0.292800009250640'
    '87, -0.29280000925064087, -0.8783000111579895, -1.4637999534606934] -0.0\n'
    'grad [-9.999999747378752e-05, -9.999999747378752e-05, -0.0, 0.0, 9.999999747378752e-05, 9.99999974'
    '7378752e-05, -0.0, -0.0]\n'
    'instancenorm1_gamma (4,) null None\n'
    'instancenorm1_beta (4,) write [3.625, 5.125, 6.625, 8.125]\n'
    'LayerNorm(eps=1e-05, axis=1, center=False, scale=True, in_channels=0)\n'
    '(2, 4, 2, 3) [-0.3905999958515167, -0.2971999943256378, -0.21819999814033508, -0.1509000062942505,'
    ' -0.093299999833107, -0.04340000078082085, -1.4321000576019287, -1.4860999584197998, -1.5275000333'
    '78601, -1.5598000288009644, -1.5852999687194824, -1.6057000160217285] -0.0\n'
    'grad [-0.12690000236034393, -0.125, -0.12120000272989273, -0.11659999936819077, -0.111500002443790'
    '44, -0.10639999806880951, 0.07720000296831131, 0.06859999895095825]\n'
    'layernorm0_gamma (4,) write [-4.481100082397461, -3.4577999114990234, 3.3355000019073486, 10.21450'
    '0427246094]\n'
    'layernorm0_beta (4,) null None\n'
    'LayerNorm(eps=0.1, axis=-1, center=True, scale=False, in_channels=0)\n'
    '(2, 4, 2, 3) [-0.3061999976634979, 0.0, 0.3061999976634979, -0.3061999976634979, 0.0, 0.3061999976'
    '634979, 0.5619999766349792, 0.0, -0.5619999766349792, 0.5619999766349792, 0.0, -0.5619999766349792'
    '] 0.0\n'
    'grad [-0.05979999899864197, 0.0, 0.05979999899864197, -0.05979999899864197, 0.0, 0.059799998998641'
    '97, -0.04619999974966049, -0.0]\n'
    'layernorm1_gamma (3,) null None\n'
    'layernorm1_beta (3,) write [7.5, 7.8333001136779785, 8.16670036315918]\n'
    'GroupNorm(eps=1e-05, num_groups=2, center=False, scale=True)\n'
    '(2, 4, 2, 3) [0.7166000008583069, 0.815500020980835, 0.9143000245094299, 1.013100028038025, 1.1119'
    '999885559082, 1.210800051689148, -0.46950000524520874, -0.6672000288963318, -0.8648999929428101, -'
    '1.062600016593933, -1.260200023651123, -1.457900047302246] -0.0\n'
    'grad [-0.06849999725818634, -0.04170000180602074, -0.01489999983459711, 0.011800000444054604, 0.03'
    '8600001484155655, 0.06539999693632126, -0.01899999938905239, -0.01080000028014183]\n'
    'groupnorm0_gamma (2,) write [0.10419999808073044, 1.7259999513626099]\n'
    'groupnorm0_beta (2,) null None\n'
    'GroupNorm(eps=0.01, num_groups=4, center=True, scale=False)\n'
    '(2, 4, 2, 3) [-1.263200044631958, -0.7578999996185303, -0.2526000142097473, 0.2526000142097473, 0.'
    '7578999996185303, 1.263200044631958, 1.4048999547958374, 0.8428999781608582, 0.2809999883174896, -'
    '0.2809999883174896, -0.8428999781608582, -1.4048999547958374] -0.0\n'
    'grad [-0.06719999760389328, -0.040300000458955765, -0.013399999588727951, 0.013399999588727951, 0.'
    '040300000458955765, 0.06719999760389328, -0.011599999852478504, -0.006899999920278788]\n'
    'groupnorm1_gamma (4,) null None\n'
    'groupnorm1_beta (4,) write [3.625, 5.125, 6.625, 8.125]\n'
    'ReflectionPad2D(\n'
    '\n'
    ')\n'
    '(2, 4, 4, 5) [0.4000000059604645, 0.30000001192092896, 0.4000000059604645, 0.5, 0.4000000059604645'
    ', 0.10000000149011612, 0.0, 0.10000000149011612, 0.20000000298023224, 0.10000000149011612, 0.40000'
    '00059604645, 0.30000001192092896] 325.0\n'
    'grad [0.13750000298023224, 0.44999998807907104, 0.16249999403953552, 0.07500000298023224, 0.262499'
    '98807907104, 0.10000000149011612, 0.38749998807907104, 1.2000000476837158]\n'
    'ReflectionPad2D(\n'
    '\n'
    ')\n'
    '(2, 4, 3, 4) [0.30000001192092896, 0.4000000059604645, 0.5, 0.4000000059604645, 0.0, 0.10000000149'
    '011612, 0.20000000298023224, 0.10000000149011612, 0.30000001192092896, 0.4000000059604645, 0.5, 0.'
    '4000000059604645] 198.0\n'
    'grad [0.04170000180602074, 0.125, 0.0625, 0.08330000191926956, 0.25, 0.125, 0.16670000553131104, 0'
    '.375]\n'
    '[[-1.0690399408340454, -0.26725998520851135, 1.336300015449524], [-0.7070900201797485, -0.70709002'
    '01797485, 1.414180040359497]]\n'
)

EXPECTED['script_pad_gradients'] = (
    '(2, 2, 9, 10) e6ccd6af3b9497b9 f7c7a70167df7a78 [-2.705197334289551, -0.06477916240692139]\n'
    '(1, 3, 9, 9) fe9274695d7e1bd0 266c85de9fda80ed [1.4482388496398926, 0.7973498106002808]\n'
    '(1, 2, 6, 7, 11) c547471748e4dc91 14fd48e8c25718fc [-1.035342812538147, 1.6393483877182007]\n'
    '(2, 1, 5, 5, 5) edcdcd882d367f8a 6d91b415ea47c35d [0.6178345084190369, -0.22287237644195557]\n'
    '(1, 2, 8, 8) aaa5ae10e58702ef 7f27fe0a897474d5 [-0.7001942056087127, -1.7559953495435265]\n'
    '(1, 1, 7, 9) e34dcef294921151 4ee26e916b76ba8c [-0.6162109375, -0.2939453125]\n'
    '(1, 1, 6, 4) ccc139fc986b2213 cb601031d5a73f3a [-0.6035885810852051, -0.4777669608592987]\n'
    'ReflectionPad2D(\n'
    '\n'
    ') 3110005ab4eab414 [0.07831759005784988, 0.6171762943267822, 1.2218469381332397, 0.825189650058746'
    '3, 0.3277241885662079]\n'
)

EXPECTED['script_param_dict_api'] = (
    'm_ (\n'
    '  Parameter m_dense0_weight (shape=(2, 3), dtype=float32)\n'
    '  Parameter m_dense0_bias (shape=(2,), dtype=float32)\n'
    "  Parameter m_batchnorm0_gamma (shape=(2,), dtype=<class 'numpy.float32'>)\n"
    "  Parameter m_batchnorm0_beta (shape=(2,), dtype=<class 'numpy.float32'>)\n"
    "  Parameter m_batchnorm0_running_mean (shape=(2,), dtype=<class 'numpy.float32'>)\n"
    "  Parameter m_batchnorm0_running_var (shape=(2,), dtype=<class 'numpy.float32'>)\n"
    ')\n'
    "['m_dense0_weight', 'm_dense0_bias', 'm_batchnorm0_gamma', 'm_batchnorm0_beta', 'm_batchnorm0_runn"
    "ing_mean', 'm_batchnorm0_running_var'] m_\n"
    "odict_keys(['m_dense0_weight', 'm_batchnorm0_gamma'])\n"
    'False None\n'
    'x_c 7\n'
    "Constant k (shape=(2,), dtype=<class 'numpy.float32'>) null\n"
    '[1.0, 2.0]\n'
    "['m_dense0_weight', 'm_dense0_bias', 'm_batchnorm0_gamma', 'm_batchnorm0_beta']\n"
    '[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]\n'
    "RuntimeError Parameter 'x_c' has not been initialized\n"
    '0.0 [cpu(0)]\n'
    "[('m_dense0_weight', 0.5, 0.0), ('m_dense0_bias', 1.0, 0.0), ('m_batchnorm0_gamma', 1.0, 0.0), ('m"
    "_batchnorm0_beta', 1.0, 0.0), ('m_batchnorm0_running_mean', 1.0, 0.0), ('m_batchnorm0_running_var'"
    ", 1.0, 0.0), ('x_c', 1.0, 0.0)]\n"
    '[cpu(0), cpu(1)] 2\n'
    '[0.8999999761581421, 0.8999999761581421]\n'
    "RuntimeError Parameter 'm_dense0_bias' was not initialized on context cpu(2). It was only initiali"
    'zed on [cpu(0), cpu(1)].\n'
)

EXPECTED['script_rnn_layers_states'] = (
    'LSTM(2 -> 3, NTC, bidirectional)\n'
    "[{'shape': (2, 4, 3), '__layout__': 'LNC', 'dtype': 'float32'}, {'shape': (2, 4, 3), '__layout__':"
    " 'LNC', 'dtype': 'float32'}]\n"
    '[(2, 4, 3), (2, 4, 3)] [24.0, 24.0]\n'
    "TypeError full() got an unexpected keyword argument 'name'\n"
    '[0.5, 0.5]\n'
    'GRU(2 -> 2, TNC, num_layers=2)\n'
    "[{'shape': (2, 4, 2), '__layout__': 'LNC', 'dtype': 'float32'}]\n"
    '[(2, 4, 2)] [16.0]\n'
    "TypeError full() got an unexpected keyword argument 'name'\n"
    '[0.5]\n'
    'RNN(2 -> 2, NTC)\n'
    "[{'shape': (1, 4, 2), '__layout__': 'LNC', 'dtype': 'float32'}]\n"
    '[(1, 4, 2)] [8.0]\n'
    "TypeError full() got an unexpected keyword argument 'name'\n"
    '[0.5]\n'
    '(4, 3, 6) [(2, 4, 3), (2, 4, 3)] [[0.21899999678134918, 0.2142000049352646, 0.04740000143647194, 0'
    '.14869999885559082, 0.004600000102072954, 0.08659999817609787], [0.18610000610351562, 0.0222999993'
    '71170998, 0.01769999973475933, 0.22360000014305115, 0.07769999653100967, 0.1453000009059906], [0.1'
    '298999935388565, 0.019700000062584877, 0.04740000143647194, 0.31360000371932983, 0.173500001430511'
    '47, 0.1137000024318695]]\n'
    '[[[0.1298999935388565, 0.019700000062584877, 0.04740000143647194], [0.14869999885559082, 0.0046000'
    '00102072954, 0.08659999817609787]], [[0.26460000872612, 0.03180000185966492, 0.14980000257492065],'
    ' [0.2987000048160553, 0.008700000122189522, 0.18960000574588776]]]\n'
    'NDArray (4, 3, 6)\n'
    '(3, 4, 2) [[[0.0723000019788742, 0.04309999942779541], [0.20649999380111694, 0.17000000178813934],'
    ' [0.08209999650716782, 0.09679999947547913], [0.008799999952316284, -0.010700000450015068]], [[0.0'
    '12500000186264515, -0.0010999999940395355], [0.013500000350177288, -0.012000000104308128], [-0.006'
    '599999964237213, -0.007400000002235174], [0.009499999694526196, 0.00019999999494757503]]]\n'
    '[[-0.10499999672174454, 0.15379999577999115], [-0.15479999780654907, 0.07500000298023224], [-0.111'
    '29999905824661, 0.05009999871253967]] (1, 4, 2)\n'
    'MXNetError\n'
    '[[0.3806000053882599, 0.0, 0.0], [0.2849000096321106, 0.19529999792575836, 0.08269999921321869], ['
    '0.290800005197525, 0.28999999165534973, 0.0], [0.32760000228881836, 0.27709999680519104, 0.0841000'
    '0056028366]] [[0.3806000053882599, 0.08269999921321869, 0.28999999165534973, 0.08410000056028366],'
    ' [0.9333000183105469, 0.14329999685287476, 0.6265000104904175, 0.19189999997615814]]\n'
)

EXPECTED['script_symbol_names_repr'] = (
    '<Symbol _plus0> <Symbol _plus0\n'
    "['a', 'b'] ['_plus0_output']\n"
    "['a', '_plusscalar0_output', 'b', '_mul0_output', '_divscalar0_output', '_minus0_output', '_rpower"
    "_scalar0_output', '_plus0_output']\n"
    "['_minus0', '_rpower_scalar0']\n"
    '(2, 3) 2.0 2 ["zero", {}] {\'__lr_mult__\': \'2.0\', \'lr_mult\': \'2.0\', \'__shape__\': \'(2, 3)'
    "'}\n"
    "{'a': {'__lr_mult__': '2.0', 'lr_mult': '2.0', '__shape__': '(2, 3)'}, '_plusscalar0': {'scalar': "
    '\'1\'}, \'b\': {\'__init__\': \'["zero", {}]\', \'__dtype__\': \'2\'}, \'_divscalar0\': {\'scalar'
    "': '2'}, '_rpower_scalar0': {'scalar': '3'}}\n"
    "['sp_output0', 'sp_output1', 'sp_output2'] 3 sp ['sp_output1']\n"
    "['sp_output0', 'sp_output2'] ([(2, 3)], [(2, 1), (2, 1)], [])\n"
    "([<class 'numpy.float32'>, <class 'numpy.float32'>], [<class 'numpy.float32'>], [])\n"
    'infer_type error. Arguments:\n'
    '  a: float32\n'
    '  b: float16\n'
    'MXNetError\n'
    'True True\n'
    'MXNetError attr\n'
    "['data', 'fc_weight', 'fc_bias'] ok 4 {'num_hidden': '4'}\n"
    "{'mood': 'sad', '__ctx_group__': 'dev1', 'ctx_group': 'dev1'} {'mood': 'sad', '__ctx_group__': 'de"
    "v1', 'ctx_group': 'dev1'}\n"
    "_zeros0 ['o_output']\n"
    'x _mul1\n'
    '_maximumscalar0 _minimumscalar0 _power0 _mulscalar0 abs0\n'
    '_greater_scalar0 _greater_scalar1 _equal0 _not_equal_scalar0\n'
)

EXPECTED['script_symbolblock_internals'] = (
    "['data', 'fc1_weight', 'fc1_bias', 'fc1_output', 'relu1_output', 'fc2_weight', 'fc2_bias', 'fc2_ou"
    "tput', 'sm_output']\n"
    "['fc1_bias', 'fc1_weight', 'fc2_bias', 'fc2_weight']\n"
    'ValueError Xavier initializer cannot be applied to vector fc1_bias. It requires at least 2D.\n'
    'list 3 [(3, 4), (3, 2), (3, 2)]\n'
    '[[0.0, 0.2092999964952469, 0.38370001316070557, 0.34619998931884766], [0.0, 0.0, 1.285599946975708'
    ', 0.8507999777793884], [0.0, 0.042100001126527786, 0.5198000073432922, 0.14399999380111694]]\n'
    '[[0.22439999878406525, -0.8148000240325928], [-0.48330000042915344, -1.5491000413894653], [-0.0288'
    '9999933540821, -0.7443000078201294]]\n'
    '[[0.7386999726295471, 0.2612999975681305], [0.7437999844551086, 0.25619998574256897], [0.671599984'
    '1690063, 0.32839998602867126]]\n'
    "['fc1_bias', 'fc1_weight']\n"
    '[[0.0, 0.2092999964952469, 0.38370001316070557, 0.34619998931884766], [0.0, 0.0, 1.285599946975708'
    ', 0.8507999777793884], [0.0, 0.042100001126527786, 0.5198000073432922, 0.14399999380111694]]\n'
    '[[-2.28439998626709, 0.6169000267982483, -0.5929999947547913, 1.4788000583648682, 1.22160005569458'
    '], [-1.2692999839782715, 0.24480000138282776, 0.36070001125335693, 0.29190000891685486, 1.16789996'
    '62399292], [-2.1308999061584473, 0.5616999864578247, -0.525600016117096, 1.3641999959945679, 1.150'
    '5000591278076]]\n'
    '[0.0, 0.0, 0.0, 0.0, 0.0]\n'
    '[3.7809998989105225, -3.3959999084472656, 3.0]\n'
)


# ---------------------------------------------------------------------------------------------
# the tests


def test_norm_layers_options(tmp_path):
    _check(script_norm_layers_options, tmp_path)


def test_lambda_blocks(tmp_path):
    _check(script_lambda_blocks, tmp_path)


def test_symbolblock_internals(tmp_path):
    _check(script_symbolblock_internals, tmp_path)


def test_hooks_and_apply(tmp_path):
    _check(script_hooks_and_apply, tmp_path)


def test_rnn_layers_states(tmp_path):
    _check(script_rnn_layers_states, tmp_path)


def test_io_iters(tmp_path):
    _check(script_io_iters, tmp_path)


def test_metrics_api(tmp_path):
    _check(script_metrics_api, tmp_path)


def test_module_resume(tmp_path):
    _check(script_module_resume, tmp_path)


def test_kvstore_updater(tmp_path):
    _check(script_kvstore_updater, tmp_path)


def test_executor_sharing(tmp_path):
    _check(script_executor_sharing, tmp_path)


def test_nd_special_values(tmp_path):
    _check(script_nd_special_values, tmp_path)


def test_executor_debug_str(tmp_path):
    _check(script_executor_debug_str, tmp_path)


def test_contrib_graph_ops(tmp_path):
    _check(script_contrib_graph_ops, tmp_path)


def test_param_dict_api(tmp_path):
    _check(script_param_dict_api, tmp_path)


def test_symbol_names_repr(tmp_path):
    _check(script_symbol_names_repr, tmp_path)


def test_nd_inplace_setitem(tmp_path):
    _check(script_nd_inplace_setitem, tmp_path)


def test_layers_misc2(tmp_path):
    _check(script_layers_misc2, tmp_path)


def test_bilinear_resize(tmp_path):
    _check(script_bilinear_resize, tmp_path)


def test_pad_gradients(tmp_path):
    _check(script_pad_gradients, tmp_path)
