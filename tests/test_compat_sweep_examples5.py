"""Small MXNet 1.9.1 user scripts (round 5): everything they print, checked against MXNet 1.9.1.

Areas: ``nd.contrib.foreach``/``while_loop``/``cond`` under autograd, imperative and inside
hybridized blocks; Gluon RNN cells unrolled with ``begin_state``/``valid_length``/``merge_outputs``
and fused RNN layers with explicit states; Symbol graph API on a model-zoo ResNet (``get_internals``,
``get_children``, ``Group``, ``infer_shape_partial``, ``attr_dict``); Module ``get_params``/
``set_params``/``init_optimizer(force_init)``/``borrow_optimizer``/``save_checkpoint`` with
optimizer states/``load``; ``mx.kv`` 'local' and 'device' stores with ``set_optimizer``,
``row_sparse_pull`` and 2-bit gradient compression; ``Trainer.save_states``/``load_states`` for
eleven optimizers; composite/top-k/F1/MCC/Pearson/custom metrics over batches; learning-rate
schedulers with warmup (and their log lines); ``mx.init`` Mixed/Load/``dumps``; a seeded
``transforms.Compose`` pipeline through a DataLoader; sparse ops of recommender scripts;
``ImageIter`` with ``CreateAugmenter`` (seeded).

Each ``script_*`` function is a script as a user would write it; the expected text is what
MXNet 1.9.1 printed for the same function (stdout plus INFO log lines, each script in a fresh
NameManager, its temporary directory shown as ``<tmp>``).  Not covered on purpose: rows of a
``while_loop`` output past the iterations run (1.9.1 leaves them uninitialised) and
``print(init)`` of an initializer (1.9.1 prints an object address).
"""

import pytest

from ._printed import restore_random_state, run_printed  # noqa: F401 (the fixture)


pytestmark = pytest.mark.usefixtures("restore_random_state")


def _check(fn, tmp_path):
    assert run_printed(fn, tmp_path).splitlines() == EXPECTED[fn.__name__].splitlines()


# ---------------------------------------------------------------------------------------------
# the scripts

def script_foreach_while_cond_autograd(tmp):
    import mxnet as mx
    from mxnet import autograd, nd
    x = nd.arange(12).reshape((3, 4)).astype("float32") / 10
    x.attach_grad()

    def step(data, states):
        out = data * 2 + states[0]
        return out, [out.sin()]
    with autograd.record():
        outs, st = nd.contrib.foreach(step, x, [nd.zeros((4,))])
        loss = outs.sum() + st[0].sum()
    loss.backward()
    print(outs.asnumpy().tolist(), st[0].asnumpy().tolist(), x.grad.asnumpy().tolist())
    i = nd.array([0.])
    s = nd.array([1.])
    s.attach_grad()
    with autograd.record():
        out, states = nd.contrib.while_loop(lambda i, s: i < 4,
                                            lambda i, s: (s * 1.5, [i + 1, s * 1.5]),
                                            [i, s], max_iterations=6)
        out.sum().backward()
    # rows past the 4 iterations run are left uninitialised by 1.9.1: only the first 4 are printed
    print(out[:4].asnumpy().tolist(), [t.asnumpy().tolist() for t in states], s.grad)
    a = nd.array([2.0])
    a.attach_grad()
    with autograd.record():
        r = nd.contrib.cond(a > 1, lambda: a * a * 3, lambda: a - 1)
    r.backward()
    print(r, a.grad)

    class B(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            init = F.ones_like(x.slice_axis(axis=0, begin=0, end=1).reshape((-1,)))
            o, s = F.contrib.foreach(lambda d, st: (d * st[0] + 1, [st[0] + d]), x, [init])
            return o, s[0]
    b = B()
    b.hybridize()
    xx = nd.arange(6).reshape((3, 2)).astype("float32")
    xx.attach_grad()
    with autograd.record():
        o, s = b(xx)
        (o.sum() + s.sum()).backward()
    print(o, s, xx.grad)


def script_hybrid_while_cond_foreach_and_rnn_layers(tmp):
    import mxnet as mx
    from mxnet import autograd, gluon, nd

    class W(gluon.HybridBlock):
        def hybrid_forward(self, F, x, y):
            out, st = F.contrib.while_loop(lambda i, a: i < 3,
                                           lambda i, a: (a * y, [i + 1, a + a * y]),
                                           [F.zeros((1,)), x], max_iterations=5)
            c = F.contrib.cond(F.sum(x) > 0, lambda: x * 2, lambda: x - 1)
            return out, st[1], c
    for hyb in [False, True]:
        w = W()
        if hyb:
            w.hybridize()
        x = nd.array([1.0, -2.0])
        y = nd.array([0.5, 0.25])
        x.attach_grad()
        y.attach_grad()
        with autograd.record():
            o, s, c = w(x, y)
            l = o[:3].sum() + s.sum() + c.sum()
        l.backward()
        print(hyb, o[:3].asnumpy().tolist(), s, c, x.grad, y.grad)

    class F2(gluon.HybridBlock):
        def hybrid_forward(self, F, a, b):
            def body(data, st):
                d1, d2 = data
                return [d1 + d2, d1 * st[0]], [st[0] + d2]
            outs, st = F.contrib.foreach(body, [a, b], [F.ones((2,))])
            return outs[0], outs[1], st[0]
    f = F2()
    f.hybridize()
    print([t.asnumpy().tolist() for t in f(nd.arange(6).reshape((3, 2)), nd.ones((3, 2)) * 0.5)])
    net = gluon.rnn.LSTM(4, num_layers=2, layout="NTC", bidirectional=True, input_size=3)
    mx.random.seed(0)
    net.initialize(mx.init.Xavier())
    x = nd.random.uniform(shape=(2, 5, 3))
    st = net.begin_state(batch_size=2)
    print([s.shape for s in st])
    o, s = net(x, st)
    print(o.shape, o.asnumpy().sum(), [float(t.asnumpy().sum()) for t in s])
    net.hybridize()
    o2, s2 = net(x, st)
    print(o2.asnumpy().sum(), (o2 - o).abs().max())
    print(net)
    g = gluon.rnn.GRU(3, input_size=3)
    g.initialize(mx.init.One())
    print(g(nd.ones((4, 1, 3))).asnumpy().sum())


def script_rnn_cells_unroll(tmp):
    import mxnet as mx
    from mxnet import nd
    from mxnet.gluon import rnn
    mx.random.seed(1)
    for cell in [rnn.LSTMCell(4, input_size=3), rnn.GRUCell(4, input_size=3),
                 rnn.RNNCell(4, input_size=3, activation="tanh")]:
        cell.initialize(mx.init.Xavier())
        x = nd.random.uniform(shape=(2, 5, 3))
        bs = cell.begin_state(batch_size=2)
        out, st = cell.unroll(5, x, begin_state=bs, layout="NTC", merge_outputs=True,
                              valid_length=nd.array([3, 5]))
        print(type(cell).__name__, out.shape, [s.shape for s in st])
        print(out.asnumpy().round(5).tolist()[0][-1], out.asnumpy().round(5).tolist()[1][-1])
        print([s.asnumpy().round(5).tolist() for s in st])
        out2, st2 = cell.unroll(5, x, layout="NTC", merge_outputs=False)
        print(len(out2), out2[0].shape)
        print(cell)
    seq = rnn.SequentialRNNCell()
    seq.add(rnn.LSTMCell(3, input_size=2))
    seq.add(rnn.ResidualCell(rnn.GRUCell(3, input_size=3)))
    seq.initialize(mx.init.One())
    o, s = seq.unroll(3, nd.ones((1, 3, 2)), merge_outputs=True)
    print(seq)
    print(o, len(s))
    bi = rnn.BidirectionalCell(rnn.LSTMCell(2, input_size=2), rnn.LSTMCell(2, input_size=2))
    bi.initialize(mx.init.Constant(0.1))
    o, s = bi.unroll(3, nd.ones((1, 3, 2)), merge_outputs=True, valid_length=nd.array([2]))
    print(o.shape, len(s), bi.state_info(2))
    print(bi)


def script_symbol_graph_api(tmp):
    import mxnet as mx
    from mxnet.gluon.model_zoo import vision
    net = vision.get_model("resnet18_v1", classes=10)
    net.initialize()
    net.hybridize()
    sym = net(mx.sym.var("data"))
    print(type(sym), sym.name)
    internals = sym.get_internals()
    outs = internals.list_outputs()
    print(len(outs), outs[:8], outs[-5:])
    print(sym.get_children().list_outputs())
    g = mx.sym.Group([internals[outs[10]], sym])
    print(g.list_outputs())
    print(g.infer_shape(data=(1, 3, 32, 32))[1])
    a, o, au = sym.infer_shape_partial()
    print(o, a[:3])
    d = mx.sym.var("d", shape=(2, 3), lr_mult=2.0, attr={"foo": "bar"})
    fc = mx.sym.FullyConnected(d, num_hidden=4, name="fc1")
    print(fc.attr_dict())
    print(fc.list_attr(), d.list_attr())
    print(fc.get_internals().list_outputs())
    print(fc.get_children().list_outputs())
    print(mx.sym.Group([fc, d]).list_outputs())
    print(fc.infer_shape_partial())
    print(fc.infer_type(d="float32"))
    print(fc)
    print(fc.tojson()[:300])


def script_module_params_optimizer_checkpoint(tmp):
    import os
    import numpy as np
    import mxnet as mx
    mx.random.seed(0)
    np.random.seed(0)
    X = np.random.rand(20, 5).astype("float32")
    Y = (X.sum(1) > 2.5).astype("float32")
    it = mx.io.NDArrayIter(X, Y, batch_size=5, label_name="softmax_label")
    fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    out = mx.sym.SoftmaxOutput(fc, name="softmax")
    mod = mx.mod.Module(out, context=mx.cpu())
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params(mx.init.Uniform(0.1))
    arg, aux = mod.get_params()
    print(sorted(arg.keys()), arg["fc_weight"].asnumpy().round(5).tolist()[0])
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5, "momentum": 0.9})
    mod.init_optimizer(optimizer="adam")
    mod.init_optimizer(optimizer="adam", force_init=True)
    for b in it:
        mod.forward_backward(b)
        mod.update()
    print(mod.get_params()[0]["fc_weight"].asnumpy().round(5).tolist())
    p = os.path.join(tmp, "m")
    mod.save_checkpoint(p, 3, save_optimizer_states=True)
    print(sorted(os.listdir(tmp)))
    m2 = mx.mod.Module.load(p, 3, load_optimizer_states=True)
    m2.bind(it.provide_data, it.provide_label)
    m2.init_optimizer(optimizer="adam")
    it.reset()
    b = next(iter(it))
    m2.forward(b, is_train=False)
    mod.forward(b, is_train=False)
    print(m2.get_outputs()[0].asnumpy().round(5).tolist()[0],
          mod.get_outputs()[0].asnumpy().round(5).tolist()[0])
    m3 = mx.mod.Module(out)
    m3.bind(it.provide_data, it.provide_label, shared_module=mod)
    m3.borrow_optimizer(mod)
    m3.forward_backward(b)
    m3.update()
    print(mod.get_params()[0]["fc_weight"].asnumpy().round(5).tolist()[0])
    m3.set_params({"fc_weight": mx.nd.ones((2, 5)), "fc_bias": mx.nd.zeros(2)}, {})
    print(mod.get_params()[0]["fc_weight"].asnumpy().tolist()[0])
    try:
        m3.set_params({"fc_weight": mx.nd.ones((2, 5))}, {})
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
    m3.set_params({"fc_weight": mx.nd.ones((2, 5))}, {}, allow_missing=True)
    print(mod.score(it, ["acc", "ce"]))


def script_kvstore_local_device(tmp):
    import mxnet as mx
    from mxnet import nd
    for kind in ["local", "device"]:
        kv = mx.kv.create(kind)
        print(kv.type, kv.rank, kv.num_workers)
        kv.init(3, nd.ones((2, 3)))
        kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01))
        for i in range(3):
            kv.push(3, [nd.ones((2, 3)) * (i + 1), nd.ones((2, 3)) * 0.5])
        out = nd.zeros((2, 3))
        kv.pull(3, out=out)
        print(out)
        kv = mx.kv.create(kind)
        kv.init("w", nd.arange(12).reshape((4, 3)).tostype("row_sparse"))
        rs = nd.sparse.zeros("row_sparse", (4, 3))
        kv.row_sparse_pull("w", out=rs, row_ids=nd.array([0, 2, 2]))
        print(rs, rs.indices, rs.data)
    kv = mx.kv.create("device")
    kv.set_gradient_compression({"type": "2bit", "threshold": 0.5})
    kv.init(0, nd.zeros((6,)))
    for _ in range(3):
        kv.push(0, nd.array([0.3, -0.7, 1.2, -0.2, 0.6, 0.0]))
        o = nd.zeros((6,))
        kv.pull(0, out=o)
        print(o)
    kv = mx.kv.create("local")
    kv.init(["a", "b"], [nd.ones((2,)), nd.zeros((3,))])
    kv.push(["a", "b"], [[nd.ones((2,)), nd.ones((2,))], nd.ones((3,))])
    o1 = nd.zeros((2,))
    o2 = nd.zeros((3,))
    kv.pull(["a", "b"], out=[o1, o2])
    print(o1, o2)
    kv.pushpull("a", nd.ones((2,)) * 7, out=o1)
    print(o1)
    for bad in [lambda: kv.init("a", nd.ones((2,))), lambda: kv.pull("zz", out=o1),
                lambda: kv.init(5, nd.ones((2,)))]:
        try:
            bad()
        except mx.base.MXNetError as e:
            print(type(e).__name__, "duplicate" in str(e), "exist" in str(e), "Mixed" in str(e))


def script_trainer_states_round_trip(tmp):
    import os
    import mxnet as mx
    from mxnet import autograd, gluon, nd

    def h(a):
        return "".join(format(int(v), "08x") for v in a.asnumpy().view("uint32").ravel()[:4])
    for opt, kw in [("sgd", {"learning_rate": 0.1, "momentum": 0.9}), ("adam", {"learning_rate": 0.01}),
                    ("rmsprop", {"learning_rate": 0.01, "centered": True}), ("adagrad", {}),
                    ("nag", {"momentum": 0.8}), ("adadelta", {}), ("ftrl", {}), ("lamb", {}),
                    ("signum", {}), ("adamax", {}), ("nadam", {})]:
        mx.random.seed(3)
        net = gluon.nn.Dense(3, in_units=4)
        net.initialize(mx.init.Normal(0.5))
        tr = gluon.Trainer(net.collect_params(), opt, kw)
        x = nd.random.normal(shape=(5, 4))

        def st():
            with autograd.record():
                l = (net(x) ** 2).sum()
            l.backward()
            tr.step(5)
        st()
        st()
        f = os.path.join(tmp, opt + ".st")
        tr.save_states(f)
        net2 = gluon.nn.Dense(3, in_units=4)
        net2.initialize()
        net2.weight.set_data(net.weight.data())
        net2.bias.set_data(net.bias.data())
        tr2 = gluon.Trainer(net2.collect_params(), opt, kw)
        tr2.load_states(f)
        st()
        with autograd.record():
            l = (net2(x) ** 2).sum()
        l.backward()
        tr2.step(5)
        print(opt, h(net.weight.data()), h(net2.weight.data()), tr2.learning_rate,
              tr2._optimizer.num_update, os.path.getsize(f))
    tr = gluon.Trainer(net.collect_params(), "sgd")
    print(tr.learning_rate)
    tr.set_learning_rate(0.3)
    print(tr.learning_rate, tr.optimizer.lr)


def script_metrics_over_batches(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import nd
    np.random.seed(0)
    m = mx.metric.CompositeEvalMetric()
    for n in ["acc", mx.metric.TopKAccuracy(top_k=2), mx.metric.F1(average="micro"),
              mx.metric.MCC(average="micro"), "ce", mx.metric.Perplexity(ignore_label=None)]:
        m.add(n)
    for b in range(4):
        p = nd.array(np.random.rand(6, 2))
        p = p / p.sum(axis=1, keepdims=True)
        m.update([nd.array(np.random.randint(0, 2, (6,)))], [p])
        print(b, m.get())
    print(m.get_name_value())
    m.reset()
    print(m.get())
    f = mx.metric.F1(average="macro")
    mc = mx.metric.MCC(average="macro")
    for _ in range(3):
        p = nd.array(np.random.rand(5, 2))
        l = nd.array(np.random.randint(0, 2, (5,)))
        f.update([l], [p])
        mc.update([l], [p])
        print(f.get(), mc.get())
    pc = mx.metric.PearsonCorrelation(average="micro")
    for _ in range(3):
        pc.update([nd.array(np.random.rand(4))], [nd.array(np.random.rand(4))])
        print(pc.get())
    tk = mx.metric.TopKAccuracy(top_k=3)
    tk.update([nd.array([0, 1, 2, 3])], [nd.array(np.random.rand(4, 5))])
    print(tk.get(), tk)
    print(mx.metric.create(["acc", "f1"]).get())
    print(mx.metric.create("top_k_accuracy", top_k=2))
    try:
        mx.metric.Accuracy().update([nd.array([1, 2])], [nd.array([[0.1, 0.9]])])
    except ValueError as e:
        print(type(e).__name__, e)
    print(mx.metric.Loss().get(), mx.metric.Accuracy().get())
    cm = mx.metric.CustomMetric(lambda l, p: (l == p.argmax(1)).mean(), name="myacc")
    cm.update([nd.array([1, 0])], [nd.array([[0.2, 0.8], [0.9, 0.1]])])
    print(cm.get(), cm)


def script_lr_schedulers_with_warmup(tmp):
    import mxnet as mx
    from mxnet import lr_scheduler as L
    from mxnet import nd
    scheds = [L.FactorScheduler(step=3, factor=0.5, base_lr=1.0, warmup_steps=4, warmup_begin_lr=0.1,
                                warmup_mode="linear", stop_factor_lr=0.1),
              L.FactorScheduler(step=2, factor=0.9, base_lr=0.5, warmup_steps=3, warmup_mode="constant",
                                warmup_begin_lr=0.05),
              L.MultiFactorScheduler(step=[3, 6, 8], factor=0.3, base_lr=2.0, warmup_steps=2,
                                     warmup_begin_lr=0.5),
              L.PolyScheduler(max_update=10, base_lr=1.0, pwr=2, final_lr=0.01, warmup_steps=3),
              L.CosineScheduler(max_update=10, base_lr=1.0, final_lr=0.1, warmup_steps=2,
                                warmup_mode="constant", warmup_begin_lr=0.2)]
    for s in scheds:
        print(type(s).__name__, [round(s(i), 8) for i in range(0, 13)])
    s = L.FactorScheduler(step=2, factor=0.5)
    s.base_lr = 0.8
    print([s(i) for i in [1, 2, 3, 5, 8, 4]])
    for bad in [lambda: L.FactorScheduler(step=0), lambda: L.FactorScheduler(step=2, factor=1.5),
                lambda: L.MultiFactorScheduler(step=[3, 2]),
                lambda: L.FactorScheduler(step=2, warmup_mode="x"), lambda: L.PolyScheduler(max_update=0),
                lambda: L.CosineScheduler(max_update=5, warmup_steps=-1),
                lambda: L.FactorScheduler(step=2, warmup_steps=2, warmup_begin_lr=5, base_lr=1)]:
        try:
            bad()
            print("ok")
        except ValueError as e:
            print(type(e).__name__, e)
    opt = mx.optimizer.SGD(learning_rate=0.3, lr_scheduler=L.FactorScheduler(step=2, factor=0.5))
    w = nd.ones((2,))
    st = opt.create_state(0, w)
    for i in range(5):
        opt.update(0, w, nd.ones((2,)), st)
        print(i, opt.learning_rate, w.asnumpy().tolist())


def script_initializers_mixed_load_dumps(tmp):
    import os
    import mxnet as mx
    from mxnet import gluon, nd
    mx.random.seed(7)
    init = mx.init.Mixed([".*bias", ".*gamma", ".*"], [mx.init.Zero(), mx.init.One(), mx.init.Uniform(0.2)])
    for n, s in [("fc_bias", (3,)), ("bn_gamma", (3,)), ("fc_weight", (2, 3))]:
        a = nd.zeros(s)
        init(mx.init.InitDesc(n), a)
        print(n, a.asnumpy().round(6).tolist())
    for i in [mx.init.One(), mx.init.Zero(), mx.init.Constant(3),
              mx.init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2),
              mx.init.MSRAPrelu(slope=0.1), mx.init.Normal(0.3), mx.init.Orthogonal(), mx.init.Bilinear(),
              mx.init.LSTMBias(forget_bias=2.0),
              mx.init.FusedRNN(mx.init.One(), 4, 1, "lstm")]:
        print(i.dumps())
    f = os.path.join(tmp, "p.params")
    nd.save(f, {"arg:fc_weight": nd.ones((2, 3)) * 5, "aux:bn_moving_mean": nd.ones((3,)) * 2})
    ld = mx.init.Load(f, default_init=mx.init.Constant(9), verbose=True)
    for n, s in [("fc_weight", (2, 3)), ("bn_moving_mean", (3,)), ("other_weight", (2,))]:
        a = nd.zeros(s)
        ld(n, a)
        print(n, a.asnumpy().tolist())
    try:
        ld("fc_weight", nd.zeros((3, 3)))
    except AssertionError as e:
        print(type(e).__name__, e)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(3, in_units=2), gluon.nn.BatchNorm(in_channels=3))
    net.initialize(mx.init.Uniform(0.2))
    for k, v in net.collect_params().items():
        print(k, v.data().asnumpy().round(6).tolist(), v.init)
    for bad in [lambda: mx.init.Xavier()(mx.init.InitDesc("fc_weight"), nd.zeros((3,))),
                lambda: mx.init.Uniform()(mx.init.InitDesc("foo"), nd.zeros((3,)))]:
        try:
            bad()
        except ValueError as e:
            print(type(e).__name__, e)
    a = nd.zeros((2, 3))
    mx.init.Uniform(1.0)(mx.init.InitDesc("m_weight", attrs={"__init__": mx.init.Constant(4).dumps()}), a)
    print(a)


def script_transforms_pipeline_dataloader(tmp):
    import random
    import numpy as np
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.data.vision import transforms as T
    random.seed(4)   # RandomResizedCrop draws from Python"s random module
    mx.random.seed(11)
    np.random.seed(11)
    imgs = nd.array(np.random.randint(0, 256, (6, 20, 24, 3)), dtype="uint8")
    ds = gluon.data.ArrayDataset(imgs, nd.array(np.arange(6)))
    tf = T.Compose([T.RandomResizedCrop(8, scale=(0.5, 1.0)), T.RandomFlipLeftRight(), T.ToTensor(),
                    T.Normalize(mean=(0.5, 0.4, 0.3), std=(0.2, 0.2, 0.2))])
    print(tf)
    dl = gluon.data.DataLoader(ds.transform_first(tf), batch_size=4, shuffle=False, last_batch="keep")
    for x, y in dl:
        print(x.shape, x.dtype, y.asnumpy().tolist(), x.asnumpy().sum().round(3),
              x[0, 0, 0].asnumpy().round(4).tolist())
    tf2 = T.Compose([T.Resize((10, 12)), T.CenterCrop(8), T.RandomBrightness(0.3), T.RandomContrast(0.3),
                     T.ToTensor()])
    for i in range(2):
        o = tf2(imgs[i])
        print(o.shape, o.asnumpy().sum().round(4), o[1, 2].asnumpy().round(4).tolist())
    h = T.Compose([T.ToTensor(), T.Normalize(0.5, 0.25)])
    h.hybridize()
    print(h(imgs[0]).asnumpy().mean().round(5), h(imgs[:2]).shape)
    print(T.Resize(7, keep_ratio=True)(imgs[0]).shape, T.Resize(7)(imgs[0]).shape)
    print(T.CropResize(2, 3, 5, 4)(imgs[0]).shape)
    print(T.RandomLighting(0.1)(nd.ones((4, 4, 3))).asnumpy().sum().round(4))


def script_sparse_recommender_ops(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import autograd, nd
    np.random.seed(5)
    rows = np.array([0, 1, 1, 3, 4, 5])
    cols = np.array([1, 0, 4, 2, 2, 3])
    vals = np.array([5, 3, 4, 1, 2, 5], dtype="float32")
    R = nd.sparse.csr_matrix((vals, (rows, cols)), shape=(6, 5))
    print(R, R.indptr, R.indices, R.data)
    U = nd.array(np.random.rand(5, 3))
    V = nd.array(np.random.rand(6, 3))
    print(nd.sparse.dot(R, U).asnumpy().round(5).tolist())
    print(nd.sparse.dot(R, V, transpose_a=True).asnumpy().round(5).tolist())
    rs = nd.sparse.row_sparse_array((np.ones((2, 3), dtype="float32"), [1, 3]), shape=(5, 3))
    print(nd.sparse.dot(R, rs))
    print((rs * 2).stype, (rs + rs).stype, nd.sparse.elemwise_add(rs, rs), nd.sparse.sum(R, axis=0),
          nd.sparse.sum(R, axis=1))
    print(R[1:4], R.tostype("default").tostype("csr").indptr, rs.tostype("default").asnumpy().tolist())
    print(nd.sparse.retain(rs, nd.array([3])).indices, nd.sparse.square(rs).data,
          nd.sparse.abs(rs * -1).stype)
    w = nd.array(np.random.rand(5, 2)).tostype("row_sparse")
    w.attach_grad(stype="row_sparse")
    with autograd.record():
        out = nd.sparse.dot(R, w)
        l = (out * out).sum()
    l.backward()
    print(w.grad.stype, w.grad.indices, w.grad.data.asnumpy().round(4).tolist())
    emb = nd.Embedding(nd.array([0, 2, 2]), nd.array(np.random.rand(4, 2)), input_dim=4, output_dim=2,
                       sparse_grad=True)
    print(emb.asnumpy().round(4).tolist())
    opt = mx.optimizer.SGD(learning_rate=0.1, lazy_update=True, wd=0.1)
    weight = nd.ones((4, 2)).tostype("row_sparse")
    g = nd.sparse.row_sparse_array((np.ones((1, 2), dtype="float32"), [2]), shape=(4, 2))
    opt.update(0, weight, g, opt.create_state(0, weight))
    print(weight.asnumpy().tolist())
    for r, c in [([0, 5], [1, 1]), ([0, 1], [1, 7]), ([0, -1], [1, 1]), ([0, 1], [-3, 1])]:
        try:
            nd.sparse.csr_matrix((np.array([1., 2]), (np.array(r), np.array(c))), shape=(2, 2))
        except ValueError as e:
            print("ValueError", str(e).split(": ", 1)[-1] if str(e).startswith("csr") else e)
    print(nd.sparse.zeros("csr", (2, 3)), nd.sparse.empty("row_sparse", (2, 3)).indices)
    ad = nd.sparse.add_n(rs, rs, rs)
    print(ad.stype, ad.data.asnumpy().tolist())
    print(nd.contrib.SparseEmbedding(nd.array([1, 3]), nd.array(np.random.rand(4, 2)).tostype("row_sparse"),
                                     input_dim=4, output_dim=2).asnumpy().round(4).tolist())
    print(R.check_format(), R.shape, R.context, R.dtype, R.asscipy().nnz)


def _png(a, path):
    import struct
    import zlib
    h, w, _ = a.shape
    raw = b"".join(b"\x00" + a[i].tobytes() for i in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def script_image_iter_create_augmenter(tmp):
    import os
    import random
    import numpy as np
    import mxnet as mx
    rng = np.random.RandomState(0)
    for i in range(5):
        _png(rng.randint(0, 256, (18 + i, 22, 3)).astype("uint8"), os.path.join(tmp, f"{i}.png"))
    random.seed(2)
    np.random.seed(2)
    mx.random.seed(2)
    augs = mx.image.CreateAugmenter(data_shape=(3, 12, 12), resize=14, rand_crop=True, rand_mirror=True,
                                    mean=True, std=True, brightness=0.2, contrast=0.2, saturation=0.2,
                                    hue=0.1, pca_noise=0.05, rand_gray=0.2, inter_method=1)
    for a in augs:
        print(a.dumps())
    imglist = [[float(i % 2), f"{i}.png"] for i in range(5)]
    it = mx.image.ImageIter(batch_size=2, data_shape=(3, 12, 12), imglist=imglist, path_root=tmp,
                            aug_list=augs, shuffle=False, last_batch_handle="pad")
    print(it.provide_data, it.provide_label)
    for b in it:
        print(b.data[0].shape, b.label[0].asnumpy().tolist(), b.pad, b.data[0].asnumpy().sum().round(2),
              b.data[0][0, 0, 0, :4].asnumpy().round(3).tolist())
    it.reset()
    print(it.next().data[0].asnumpy().mean().round(4))
    it2 = mx.image.ImageIter(batch_size=3, data_shape=(3, 10, 10), imglist=imglist, path_root=tmp,
                             shuffle=True, last_batch_handle="discard", rand_crop=True, rand_resize=True,
                             rand_mirror=True)
    for b in it2:
        print(b.label[0].asnumpy().tolist(), b.data[0].asnumpy().sum())
    im = mx.image.imread(os.path.join(tmp, "2.png"))
    print(im.shape, im.dtype, im.asnumpy().sum())
    print(mx.image.resize_short(im, 10).shape, mx.image.center_crop(im, (8, 8))[1],
          mx.image.random_crop(im, (8, 8))[1])
    print(mx.image.ForceResizeAug((9, 7))(im).shape, mx.image.fixed_crop(im, 1, 2, 5, 6).shape)


def script_print_summary_and_callbacks(tmp):
    import collections
    import mxnet as mx
    from mxnet import gluon, nd
    d = mx.sym.var("data")
    c = mx.sym.Convolution(d, kernel=(3, 3), num_filter=4, name="conv1")
    b = mx.sym.BatchNorm(c, name="bn1")
    a = mx.sym.Activation(b, act_type="relu", name="relu1")
    p = mx.sym.Pooling(a, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    fc = mx.sym.FullyConnected(mx.sym.flatten(p), num_hidden=10, name="fc1")
    out = mx.sym.SoftmaxOutput(fc, name="softmax")
    mx.viz.print_summary(out, shape={"data": (1, 3, 8, 8)})
    mx.viz.print_summary(fc, shape={"data": (2, 1, 6, 6)}, line_length=80, positions=[.4, .6, .7, 1.])
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Conv2D(4, 3, in_channels=3), gluon.nn.BatchNorm(), gluon.nn.Activation("relu"),
            gluon.nn.MaxPool2D(), gluon.nn.Flatten(), gluon.nn.Dense(10))
    net.initialize()
    net.summary(nd.ones((1, 3, 8, 8)))
    net2 = gluon.nn.Sequential()
    net2.add(gluon.nn.Dense(5, activation="tanh"), gluon.nn.Dropout(0.5), gluon.nn.Dense(2))
    net2.initialize()
    net2.summary(nd.ones((3, 4)))
    m = mx.metric.Accuracy()
    m.update([nd.array([1, 0])], [nd.array([[0.1, 0.9], [0.8, 0.2]])])
    P = collections.namedtuple("P", ["epoch", "nbatch", "eval_metric", "locals"])
    cb = mx.callback.log_train_metric(2)
    for i in range(4):
        cb(P(1, i, m, None))
    mx.callback.ProgressBar(4, length=20)(P(0, 2, m, None))


def script_simple_bind_grad_req_and_manual_trainer(tmp):
    import mxnet as mx
    from mxnet import autograd, gluon, nd
    x = mx.sym.var("x")
    w = mx.sym.var("w")
    y = mx.sym.FullyConnected(x, w, no_bias=True, num_hidden=3, name="fc")
    loss = mx.sym.MakeLoss(mx.sym.sum(mx.sym.square(y)))
    ex = loss.simple_bind(mx.cpu(), x=(2, 4), grad_req={"x": "null", "w": "add"})
    print(sorted(ex.arg_dict), [k for k, v in ex.grad_dict.items() if v is not None], ex.outputs[0].shape)
    ex.arg_dict["x"][:] = nd.arange(8).reshape((2, 4)) / 8
    ex.arg_dict["w"][:] = 0.1
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward()
    print(ex.outputs[0], ex.grad_dict["w"])
    print(y.bind(mx.cpu(), {"x": nd.ones((2, 4)), "w": nd.ones((3, 4))}).forward()[0])
    for bad in [lambda: y.bind(mx.cpu(), {"x": nd.ones((2, 4))}),
                lambda: loss.simple_bind(mx.cpu(), x=(2, 4), w=(5, 5))]:
        try:
            bad()
        except (RuntimeError, ValueError) as e:
            print(isinstance(e, ValueError), isinstance(e, RuntimeError), str(e)[:40])
    net = gluon.nn.Dense(2, in_units=3)
    net.initialize(mx.init.One())
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, update_on_kvstore=False)
    parts = gluon.utils.split_and_load(nd.arange(12).reshape((4, 3)), [mx.cpu(0), mx.cpu(1)])
    print([d.context for d in parts], [d.shape for d in parts])
    with autograd.record():
        l = net(nd.arange(12).reshape((4, 3))).sum()
    l.backward()
    tr.allreduce_grads()
    grads = [p.grad() for p in net.collect_params().values()]
    print(gluon.utils.clip_global_norm(grads, 1.0), grads[0])
    tr.update(4)
    print(net.weight.data(), tr._update_on_kvstore, tr._kvstore)
    try:
        tr.step(4)
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
    try:
        net.weight.data(mx.cpu(3))
    except RuntimeError as e:
        print(str(e)[:200])


# ---------------------------------------------------------------------------------------------
# what MXNet 1.9.1 printed

EXPECTED = {}

EXPECTED["script_foreach_while_cond_autograd"] = (
    '[[0.0, 0.20000000298023224, 0.4000000059604645, 0.6000000238418579], [0.800000011920929, 1'
    '.1986693143844604, 1.5894184112548828, 1.9646425247192383], [2.3173561096191406, 2.7315559'
    '38720703, 2.999826669692993, 3.1234400272369385]] [0.7340295314788818, 0.39864298701286316'
    ', 0.14129160344600677, 0.018151629716157913] [[4.447121620178223, 4.019211769104004, 3.841'
    '777801513672, 3.650566816329956], [2.4471218585968018, 2.0602800846099854, 1.9996263980865'
    '479, 1.9998735189437866], [0.6417648792266846, 0.16578757762908936, 0.02006399631500244, 0'
    '.0003294944763183594]]\n'
    '[[1.5], [2.25], [3.375], [5.0625]] [[4.0], [5.0625]] \n'
    '[12.1875]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[12.]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[12.]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[[ 1.  2.]\n'
    ' [ 3.  7.]\n'
    ' [13. 26.]]\n'
    '<NDArray 3x2 @cpu(0)> \n'
    '[ 7. 10.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[ 8. 10.]\n'
    ' [ 6.  8.]\n'
    ' [ 4.  6.]]\n'
    '<NDArray 3x2 @cpu(0)>\n'
)

EXPECTED["script_hybrid_while_cond_foreach_and_rnn_layers"] = (
    'False [[0.5, -0.5], [0.75, -0.625], [1.125, -0.78125]] \n'
    '[ 3.375   -3.90625]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[ 0. -3.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[6.75    3.90625]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[ 13.5  -18.75]\n'
    '<NDArray 2 @cpu(0)>\n'
    'True [[0.5, -0.5], [0.75, -0.625], [1.125, -0.78125]] \n'
    '[ 3.375   -3.90625]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[ 0. -3.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[6.75    3.90625]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[ 13.5  -18.75]\n'
    '<NDArray 2 @cpu(0)>\n'
    '[[[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]], [[0.0, 1.0], [3.0, 4.5], [8.0, 10.0]], [2.5, 2.5]]\n'
    '[(4, 2, 4), (4, 2, 4)]\n'
    '(2, 5, 8) -3.0399513 [0.15857917070388794, 0.42893165349960327]\n'
    '-3.0399513 \n'
    '[0.]\n'
    '<NDArray 1 @cpu(0)>\n'
    'LSTM(3 -> 4, NTC, num_layers=2, bidirectional)\n'
    '1.2104825\n'
)

EXPECTED["script_image_iter_create_augmenter"] = (
    '["resizeaug", {"size": 14, "interp": 1}]\n'
    '["randomcropaug", {"size": [12, 12], "interp": 1}]\n'
    '["horizontalflipaug", {"p": 0.5}]\n'
    '["castaug", {"type": "float32"}]\n'
    '[\'colorjitteraug\', [\'["brightnessjitteraug", {"brightness": 0.2}]\', \'["contrastjitteraug",'
    ' {"contrast": 0.2}]\', \'["saturationjitteraug", {"saturation": 0.2}]\']]\n'
    '["huejitteraug", {"hue": 0.1}]\n'
    '["lightingaug", {"alphastd": 0.05, "eigval": [55.46, 4.794, 1.148], "eigvec": [[-0.5675, 0'
    '.7192, 0.4009], [-0.5808, -0.0045, -0.814], [-0.5836, -0.6948, 0.4203]]}]\n'
    '["randomgrayaug", {"p": 0.2}]\n'
    '["colornormalizeaug", {"mean": [123.68000030517578, 116.27999877929688, 103.52999877929688'
    '], "std": [58.39500045776367, 57.119998931884766, 57.375]}]\n'
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageIter: loading image list...\n'
    "[('data', (2, 3, 12, 12))] [('softmax_label', (2,))]\n"
    '(2, 3, 12, 12) [0.0, 1.0] 0 -79.34 [-0.0989999994635582, 0.14000000059604645, 0.7580000162'
    '124634, -0.4429999887943268]\n'
    '(2, 3, 12, 12) [0.0, 1.0] 0 163.79 [0.18199999630451202, -0.03400000184774399, 0.037999998'
    '77810478, 0.8600000143051147]\n'
    '(2, 3, 12, 12) [0.0, 0.0] 1 268.08 [1.1629999876022339, -0.8809999823570251, 1.03400003910'
    '0647, 1.9190000295639038]\n'
    '0.3434\n'
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageIter: loading image list...\n'
    '[1.0, 0.0, 1.0] 116477.0\n'
    "(20, 22, 3) <class 'numpy.uint8'> 165175\n"
    '(10, 11, 3) (7, 6, 8, 8) (13, 2, 8, 8)\n'
    '(7, 9, 3) (6, 5, 3)\n'
)

EXPECTED["script_initializers_mixed_load_dumps"] = (
    'fc_bias [0.0, 0.0, 0.0]\n'
    'bn_gamma [1.0, 1.0, 1.0]\n'
    'fc_weight [[-0.028575999662280083, 0.1670060008764267, 0.1231909990310669], [0.19908300042'
    '152405, 0.0998380035161972, -0.0826449990272522]]\n'
    '["one", {}]\n'
    '["zero", {}]\n'
    '["constant", {"value": 3}]\n'
    '["xavier", {"rnd_type": "gaussian", "factor_type": "in", "magnitude": 2}]\n'
    '["msraprelu", {"factor_type": "avg", "slope": 0.1}]\n'
    '["normal", {"sigma": 0.3}]\n'
    '["orthogonal", {"scale": 1.414, "rand_type": "uniform"}]\n'
    '["bilinear", {}]\n'
    '["lstmbias", {"forget_bias": 2.0}]\n'
    '["fusedrnn", {"init": "[\\"one\\", {}]", "num_hidden": 4, "num_layers": 1, "mode": "lstm", "'
    'bidirectional": false, "forget_bias": 1.0}]\n'
    'INFO Initialized fc_weight by loading\n'
    'fc_weight [[5.0, 5.0, 5.0], [5.0, 5.0, 5.0]]\n'
    'INFO Initialized bn_moving_mean by loading\n'
    'bn_moving_mean [2.0, 2.0, 2.0]\n'
    'INFO Initialized other_weight by default\n'
    'other_weight [9.0, 9.0]\n'
    'AssertionError Parameter fc_weight cannot be initialized from loading. Shape mismatch, tar'
    'get (3, 3) vs loaded (2, 3)\n'
    'dense0_weight [[-0.03788900002837181, -0.14833900332450867], [-0.09010600298643112, 0.0434'
    '2599958181381], [-0.03990299999713898, 0.1736070066690445]] None\n'
    'dense0_bias [0.0, 0.0, 0.0] zeros\n'
    'batchnorm0_gamma [1.0, 1.0, 1.0] ones\n'
    'batchnorm0_beta [0.0, 0.0, 0.0] zeros\n'
    'batchnorm0_running_mean [0.0, 0.0, 0.0] zeros\n'
    'batchnorm0_running_var [1.0, 1.0, 1.0] ones\n'
    'ValueError Xavier initializer cannot be applied to vector fc_weight. It requires at least 2D.\n'
    'ValueError Unknown initialization pattern for foo. Default initialization is now limited t'
    'o "weight", "bias", "gamma" (1.0), and "beta" (0.0).Please use mx.sym.Variable(init=mx.ini'
    't.*) to set initialization pattern\n'
    '\n'
    '[[4. 4. 4.]\n'
    ' [4. 4. 4.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
)

EXPECTED["script_kvstore_local_device"] = (
    'local 0 1\n'
    '\n'
    '[[-0.23628536 -0.23628536 -0.23628536]\n'
    ' [-0.23628536 -0.23628536 -0.23628536]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 4x3 @cpu(0)> \n'
    '[0 2]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[0. 1. 2.]\n'
    ' [6. 7. 8.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    'device 0 1\n'
    '\n'
    '[[-0.23628536 -0.23628536 -0.23628536]\n'
    ' [-0.23628536 -0.23628536 -0.23628536]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 4x3 @cpu(0)> \n'
    '[0 2]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[0. 1. 2.]\n'
    ' [6. 7. 8.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[ 0.  -0.5  0.5  0.   0.5  0. ]\n'
    '<NDArray 6 @cpu(0)>\n'
    '\n'
    '[ 0.5 -0.5  0.5  0.   0.5  0. ]\n'
    '<NDArray 6 @cpu(0)>\n'
    '\n'
    '[ 0.  -0.5  0.5 -0.5  0.5  0. ]\n'
    '<NDArray 6 @cpu(0)>\n'
    '\n'
    '[2. 2.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[1. 1. 1.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[7. 7.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'MXNetError True False False\n'
    'MXNetError False True False\n'
    'MXNetError False False True\n'
)

EXPECTED["script_lr_schedulers_with_warmup"] = (
    'INFO Update[4]: Change learning rate to 5.00000e-01\n'
    'INFO Update[7]: Change learning rate to 2.50000e-01\n'
    'INFO Update[10]: Change learning rate to 1.25000e-01\n'
    'FactorScheduler [0.1, 0.325, 0.55, 0.775, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.125, 0.125, 0.125]\n'
    'INFO Update[3]: Change learning rate to 4.50000e-01\n'
    'INFO Update[5]: Change learning rate to 4.05000e-01\n'
    'INFO Update[7]: Change learning rate to 3.64500e-01\n'
    'INFO Update[9]: Change learning rate to 3.28050e-01\n'
    'INFO Update[11]: Change learning rate to 2.95245e-01\n'
    'FactorScheduler [0.05, 0.05, 0.05, 0.45, 0.45, 0.405, 0.405, 0.3645, 0.3645, 0.32805, 0.32'
    '805, 0.295245, 0.295245]\n'
    'INFO Update[4]: Change learning rate to 6.00000e-01\n'
    'INFO Update[7]: Change learning rate to 1.80000e-01\n'
    'INFO Update[9]: Change learning rate to 5.40000e-02\n'
    'MultiFactorScheduler [0.5, 1.25, 2.0, 2.0, 0.6, 0.6, 0.6, 0.18, 0.18, 0.054, 0.054, 0.054,'
    ' 0.054]\n'
    'PolyScheduler [0.0, 0.33333333, 0.66666667, 1.0, 0.73734694, 0.51510204, 0.33326531, 0.191'
    '83673, 0.09081633, 0.03020408, 0.01, 0.01, 0.01]\n'
    'CosineScheduler [0.2, 0.2, 1.0, 0.96574579, 0.86819805, 0.72220754, 0.55, 0.37779246, 0.23'
    '180195, 0.13425421, 0.1, 0.1, 0.1]\n'
    'INFO Update[3]: Change learning rate to 4.00000e-01\n'
    'INFO Update[5]: Change learning rate to 2.00000e-01\n'
    'INFO Update[8]: Change learning rate to 1.00000e-01\n'
    '[0.8, 0.8, 0.4, 0.2, 0.1, 0.1]\n'
    'ValueError Schedule step must be greater or equal than 1 round\n'
    'ValueError Factor must be no more than 1 to make lr reduce\n'
    'ValueError Schedule step must be an increasing integer list\n'
    'ValueError Supports only linear and constant modes of warmup\n'
    'ValueError maximum number of updates must be strictly positive\n'
    'ValueError Warmup steps has to be positive or 0\n'
    'ValueError Base lr has to be higher than warmup_begin_lr\n'
    'learning rate from ``lr_scheduler`` has been overwritten by ``learning_rate`` in optimizer.\n'
    '0 0.3 [0.699999988079071, 0.699999988079071]\n'
    '1 0.3 [0.3999999761581421, 0.3999999761581421]\n'
    'INFO Update[3]: Change learning rate to 1.50000e-01\n'
    '2 0.15 [0.2499999701976776, 0.2499999701976776]\n'
    '3 0.15 [0.09999996423721313, 0.09999996423721313]\n'
    'INFO Update[5]: Change learning rate to 7.50000e-02\n'
    '4 0.075 [0.024999961256980896, 0.024999961256980896]\n'
)

EXPECTED["script_metrics_over_batches"] = (
    "0 (['accuracy', 'top_k_accuracy_2', 'f1', 'mcc', 'cross-entropy', 'perplexity'], [0.5, 1.0"
    ', 0.5714285714285715, 0.0, 0.7084905306498209, 2.0309233272400276])\n'
    "1 (['accuracy', 'top_k_accuracy_2', 'f1', 'mcc', 'cross-entropy', 'perplexity'], [0.583333"
    '3333333334, 1.0, 0.5454545454545454, 0.23904572186687875, 0.7926211357116699, 2.2091794029'
    '882545])\n'
    "2 (['accuracy', 'top_k_accuracy_2', 'f1', 'mcc', 'cross-entropy', 'perplexity'], [0.611111"
    '1111111112, 1.0, 0.6666666666666666, 0.2357022603955158, 0.7098957035276625, 2.03377913159'
    '59524])\n'
    "3 (['accuracy', 'top_k_accuracy_2', 'f1', 'mcc', 'cross-entropy', 'perplexity'], [0.583333"
    '3333333334, 1.0, 0.6428571428571429, 0.14285714285714285, 0.7491007546583811, 2.1150971699'
    '00776])\n'
    "[('accuracy', 0.5833333333333334), ('top_k_accuracy_2', 1.0), ('f1', 0.6428571428571429), "
    "('mcc', 0.14285714285714285), ('cross-entropy', 0.7491007546583811), ('perplexity', 2.1150"
    '97169900776)]\n'
    "(['accuracy', 'top_k_accuracy_2', 'f1', 'mcc', 'cross-entropy', 'perplexity'], [nan, nan, "
    'nan, nan, nan, nan])\n'
    "('f1', 0.0) ('mcc', -0.6123724356957946)\n"
    "('f1', 0.3333333333333333) ('mcc', -0.10206207261596575)\n"
    "('f1', 0.38888888888888884) ('mcc', -0.012485826188421617)\n"
    "('pearsonr', 0.26175627233153353)\n"
    "('pearsonr', -0.21957067845196676)\n"
    "('pearsonr', -0.3241442414255243)\n"
    "('top_k_accuracy_3', 0.75) EvalMetric: {'top_k_accuracy_3': 0.75}\n"
    "(['accuracy', 'f1'], [nan, nan])\n"
    "EvalMetric: {'top_k_accuracy_2': nan}\n"
    'ValueError Shape of labels 2 does not match shape of predictions 1\n'
    "('loss', nan) ('accuracy', nan)\n"
    "('myacc', 1.0) EvalMetric: {'myacc': 1.0}\n"
)

EXPECTED["script_module_params_optimizer_checkpoint"] = (
    "['fc_bias', 'fc_weight'] [0.009759999811649323, 0.018570000305771828, 0.04303999990224838,"
    ' 0.06885000318288803, 0.020549999549984932]\n'
    'WARNING optimizer already initialized, ignoring...\n'
    '[[-0.011590000241994858, 0.00892999954521656, 0.021320000290870667, 0.04831000044941902, 0'
    '.0008999999845400453], [0.09294000267982483, 0.018610000610351562, 0.09116999804973602, 0.'
    '005270000081509352, 0.044360000640153885]]\n'
    'INFO Saved checkpoint to "<tmp>/m-0003.params"\n'
    'INFO Saved optimizer state to "<tmp>/m-0003.states"\n'
    "['m-0003.params', 'm-0003.states', 'm-symbol.json']\n"
    '[0.4693700075149536, 0.5306299924850464] [0.4693700075149536, 0.5306299924850464]\n'
    '[-0.011590000241994858, 0.00892999954521656, 0.021320000290870667, 0.04831000044941902, 0.'
    '0008999999845400453]\n'
    '[1.0, 1.0, 1.0, 1.0, 1.0]\n'
    'RuntimeError fc_bias is not presented\n'
    "[('accuracy', 0.6), ('cross-entropy', 0.6931471824645996)]\n"
)

EXPECTED["script_print_summary_and_callbacks"] = (
    '__________________________________________________________________________________________'
    '______________________________\n'
    'Layer (type)                                        Output Shape            Param #     Pr'
    'evious Layer                  \n'
    '=========================================================================================='
    '==============================\n'
    'data(null)                                          3x8x8                   0             '
    '                              \n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    'conv1(Convolution)                                  4x6x6                   112         da'
    'ta                            \n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    'bn1(BatchNorm)                                      4x6x6                   8           co'
    'nv1                           \n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    'relu1(Activation)                                   4x6x6                   0           bn'
    '1                             \n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    'pool1(Pooling)                                      4x3x3                   0           re'
    'lu1                           \n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    'flatten0(Flatten)                                   36                      0           po'
    'ol1                           \n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    'fc1(FullyConnected)                                 10                      370         fl'
    'atten0                        \n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    'softmax(SoftmaxOutput)                              10                      0           fc'
    '1                             \n'
    '=========================================================================================='
    '==============================\n'
    'Total params: 490\n'
    '__________________________________________________________________________________________'
    '______________________________\n'
    '________________________________________________________________________________\n'
    'Layer (type)                    Output Shape    Param # Previous Layer          \n'
    '================================================================================\n'
    'data(null)                      1x6x6           0                               \n'
    '________________________________________________________________________________\n'
    'conv1(Convolution)              4x4x4           40      data                    \n'
    '________________________________________________________________________________\n'
    'bn1(BatchNorm)                  4x4x4           8       conv1                   \n'
    '________________________________________________________________________________\n'
    'relu1(Activation)               4x4x4           0       bn1                     \n'
    '________________________________________________________________________________\n'
    'pool1(Pooling)                  4x2x2           0       relu1                   \n'
    '________________________________________________________________________________\n'
    'flatten0(Flatten)               16              0       pool1                   \n'
    '________________________________________________________________________________\n'
    'fc1(FullyConnected)             10              170     flatten0                \n'
    '================================================================================\n'
    'Total params: 218\n'
    '________________________________________________________________________________\n'
    '--------------------------------------------------------------------------------\n'
    '        Layer (type)                                Output Shape         Param #\n'
    '================================================================================\n'
    '               Input                                (1, 3, 8, 8)               0\n'
    '            Conv2D-1                                (1, 4, 6, 6)             112\n'
    '         BatchNorm-2                                (1, 4, 6, 6)              16\n'
    '        Activation-3                                (1, 4, 6, 6)               0\n'
    '         MaxPool2D-4                                (1, 4, 3, 3)               0\n'
    '           Flatten-5                                     (1, 36)               0\n'
    '             Dense-6                                     (1, 10)             370\n'
    '================================================================================\n'
    'Parameters in forward computation graph, duplicate included\n'
    '   Total params: 498\n'
    '   Trainable params: 490\n'
    '   Non-trainable params: 8\n'
    'Shared params in forward computation graph: 0\n'
    'Unique parameters in model: 498\n'
    '--------------------------------------------------------------------------------\n'
    '--------------------------------------------------------------------------------\n'
    '        Layer (type)                                Output Shape         Param #\n'
    '================================================================================\n'
    '               Input                                      (3, 4)               0\n'
    '        Activation-1                    <Symbol dense1_tanh_fwd>               0\n'
    '        Activation-2                                      (3, 5)               0\n'
    '             Dense-3                                      (3, 5)              25\n'
    '           Dropout-4                                      (3, 5)               0\n'
    '             Dense-5                                      (3, 2)              12\n'
    '================================================================================\n'
    'Parameters in forward computation graph, duplicate included\n'
    '   Total params: 37\n'
    '   Trainable params: 37\n'
    '   Non-trainable params: 0\n'
    'Shared params in forward computation graph: 0\n'
    'Unique parameters in model: 37\n'
    '--------------------------------------------------------------------------------\n'
    'INFO Iter[1] Batch[0] Train-accuracy=1.000000\n'
    'INFO Iter[1] Batch[2] Train-accuracy=1.000000\n'
    'INFO [==========----------] 50%\r\n'
)

EXPECTED["script_rnn_cells_unroll"] = (
    'LSTMCell (2, 5, 4) [(2, 4), (2, 4)]\n'
    '[0.0, 0.0, 0.0, 0.0] [-0.16335999965667725, -0.12087000161409378, -0.328249990940094, 0.04'
    '964999854564667]\n'
    '[[[-0.1249300017952919, -0.1453000009059906, -0.13565999269485474, 0.009750000201165676], '
    '[-0.16335999965667725, -0.12087000161409378, -0.328249990940094, 0.04964999854564667]], [['
    '-0.26857998967170715, -0.320360004901886, -0.264849990606308, 0.019379999488592148], [-0.3'
    '441300094127655, -0.3097800016403198, -0.6402699947357178, 0.13325999677181244]]]\n'
    '5 (2, 4)\n'
    'LSTMCell(3 -> 16)\n'
    'GRUCell (2, 5, 4) [(2, 4)]\n'
    '[0.0, 0.0, 0.0, 0.0] [-0.2155199944972992, -0.12770000100135803, -0.5394600033760071, 0.30'
    '831000208854675]\n'
    '[[[-0.10791999846696854, -0.12789000570774078, -0.4864499866962433, 0.29798999428749084], '
    '[-0.2155199944972992, -0.12770000100135803, -0.5394600033760071, 0.30831000208854675]]]\n'
    '5 (2, 4)\n'
    'GRUCell(3 -> 12)\n'
    'RNNCell (2, 5, 4) [(2, 4)]\n'
    '[0.0, 0.0, 0.0, 0.0] [-0.5996599793434143, -0.4866099953651428, 0.9168199896812439, -0.927'
    '3499846458435]\n'
    '[[[-0.8418599963188171, -0.4526999890804291, 0.9450200200080872, -0.933929979801178], [-0.'
    '5996599793434143, -0.4866099953651428, 0.9168199896812439, -0.9273499846458435]]]\n'
    '5 (2, 4)\n'
    'RNNCell(3 -> 4, tanh)\n'
    'SequentialRNNCell(\n'
    '(0): LSTMCell(2 -> 12)\n'
    '(1): ResidualCell(GRUCell(3 -> 9))\n'
    ')\n'
    '\n'
    '[[[0.7400992 0.7400992 0.7400992]\n'
    '  [1.0938675 1.0938675 1.0938675]\n'
    '  [1.1761178 1.1761178 1.1761178]]]\n'
    '<NDArray 1x3x3 @cpu(0)> 3\n'
    "(1, 3, 4) 4 [{'shape': (2, 2), '__layout__': 'NC'}, {'shape': (2, 2), '__layout__': 'NC'},"
    " {'shape': (2, 2), '__layout__': 'NC'}, {'shape': (2, 2), '__layout__': 'NC'}]\n"
    'BidirectionalCell(forward=LSTMCell(2 -> 8), backward=LSTMCell(2 -> 8))\n'
)

EXPECTED["script_simple_bind_grad_req_and_manual_trainer"] = (
    "['w', 'x'] ['w'] (1,)\n"
    '\n'
    '[0.24375]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[[0.55       0.725      0.90000004 1.075     ]\n'
    ' [0.55       0.725      0.90000004 1.075     ]\n'
    ' [0.55       0.725      0.90000004 1.075     ]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    '\n'
    '[[4. 4. 4.]\n'
    ' [4. 4. 4.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    'True False key `w` is missing in `args`\n'
    'False True simple_bind error. Arguments:\n'
    'x: (2, 4)\n'
    '\n'
    '[cpu(0), cpu(1)] [(2, 3), (2, 3)]\n'
    '54.772255 \n'
    '[[0.32863355 0.4016632  0.47469288]\n'
    ' [0.32863355 0.4016632  0.47469288]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[[0.99178416 0.9899584  0.98813266]\n'
    ' [0.99178416 0.9899584  0.98813266]]\n'
    '<NDArray 2x3 @cpu(0)> None None\n'
    'UserWarning Gradient of Parameter `dense0_bias` on context cpu(0) has not been updated by '
    'backward since last `step`. This could mean a bug in your model that made it only use a su'
    'bset of the Parameters (Blocks) \n'
    "Parameter 'dense0_weight' was not initialized on context cpu(3). It was only initialized o"
    'n [cpu(0)].\n'
)

EXPECTED["script_sparse_recommender_ops"] = (
    '\n'
    '<CSRNDArray 6x5 @cpu(0)> \n'
    '[0 1 3 3 4 5 6]\n'
    '<NDArray 7 @cpu(0)> \n'
    '[1 0 4 2 2 3]\n'
    '<NDArray 6 @cpu(0)> \n'
    '[5. 3. 4. 1. 2. 5.]\n'
    '<NDArray 6 @cpu(0)>\n'
    '[[4.593050003051758, 2.4420599937438965, 3.058720111846924], [2.431220054626465, 3.2454400'
    '062561035, 4.1399102210998535], [0.0, 0.0, 0.0], [0.7659100294113159, 0.5184199810028076, '
    '0.29679998755455017], [1.5318200588226318, 1.0368399620056152, 0.5935999751091003], [0.938'
    '6100172996521, 0.4037100076675415, 3.692199945449829]]\n'
    '[[1.8863600492477417, 1.7395100593566895, 1.7997900247573853], [1.3704299926757812, 2.0711'
    '801052093506, 1.4803999662399292], [2.255419969558716, 2.064620018005371, 0.54243999719619'
    '75], [0.12152999639511108, 1.022779941558838, 3.4992198944091797], [2.5151500701904297, 2.'
    '319350004196167, 2.3997199535369873]]\n'
    '\n'
    '[[5. 5. 5.]\n'
    ' [0. 0. 0.]\n'
    ' [0. 0. 0.]\n'
    ' [0. 0. 0.]\n'
    ' [0. 0. 0.]\n'
    ' [5. 5. 5.]]\n'
    '<NDArray 6x3 @cpu(0)>\n'
    'row_sparse row_sparse \n'
    '<RowSparseNDArray 5x3 @cpu(0)> \n'
    '[3. 5. 3. 5. 4.]\n'
    '<NDArray 5 @cpu(0)> \n'
    '[5. 7. 0. 1. 2. 5.]\n'
    '<NDArray 6 @cpu(0)>\n'
    '\n'
    '<CSRNDArray 3x5 @cpu(0)> \n'
    '[0 1 3 3 4 5 6]\n'
    '<NDArray 7 @cpu(0)> [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0], ['
    '0.0, 0.0, 0.0]]\n'
    '\n'
    '[3]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[[1. 1. 1.]\n'
    ' [1. 1. 1.]]\n'
    '<NDArray 2x3 @cpu(0)> row_sparse\n'
    'row_sparse \n'
    '[0 1 2 3 4]\n'
    '<NDArray 5 @cpu(0)> [[33.29119873046875, 21.304399490356445], [28.883100509643555, 0.08209'
    '999650716782], [5.154699802398682, 6.3979997634887695], [49.28120040893555, 12.95489978790'
    '2832], [44.388301849365234, 28.405899047851562]]\n'
    '[[0.9226999878883362, 0.002199999988079071], [0.39890000224113464, 0.8137000203132629], [0'
    '.39890000224113464, 0.8137000203132629]]\n'
    '[[1.0, 1.0], [1.0, 1.0], [0.8899999856948853, 0.8899999856948853], [1.0, 1.0]]\n'
    'ValueError axis 0 index 5 exceeds matrix dimension 2\n'
    'ValueError axis 1 index 7 exceeds matrix dimension 2\n'
    'ValueError negative axis 0 index: -1\n'
    'ValueError negative axis 1 index: -3\n'
    '\n'
    '<CSRNDArray 2x3 @cpu(0)> \n'
    '[]\n'
    '<NDArray 0 @cpu(0)>\n'
    'row_sparse [[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]]\n'
    '[[0.08649999648332596, 0.11150000244379044], [0.6317999958992004, 0.8166999816894531]]\n'
    "None (6, 5) cpu(0) <class 'numpy.float32'> 6\n"
)

EXPECTED["script_symbol_graph_api"] = (
    "<class 'mxnet.symbol.symbol.Symbol'> resnetv10_dense0_fwd\n"
    "171 ['data', 'resnetv10_conv0_weight', 'resnetv10_conv0_fwd_output', 'resnetv10_batchnorm0"
    "_gamma', 'resnetv10_batchnorm0_beta', 'resnetv10_batchnorm0_running_mean', 'resnetv10_batc"
    "hnorm0_running_var', 'resnetv10_batchnorm0_fwd_output'] ['resnetv10_stage4_activation1_out"
    "put', 'resnetv10_pool1_fwd_output', 'resnetv10_dense0_weight', 'resnetv10_dense0_bias', 'r"
    "esnetv10_dense0_fwd_output']\n"
    "['resnetv10_pool1_fwd_output', 'resnetv10_dense0_weight', 'resnetv10_dense0_bias']\n"
    "['resnetv10_stage1_conv0_weight', 'resnetv10_dense0_fwd_output']\n"
    '[(64, 64, 3, 3), (1, 10)]\n'
    '[()] [(), (64, 0, 7, 7), (0,)]\n'
    "{'d': {'__lr_mult__': '2.0', 'lr_mult': '2.0', '__shape__': '(2, 3)', 'foo': 'bar'}, 'fc1_"
    "weight': {'num_hidden': '4'}, 'fc1_bias': {'num_hidden': '4'}, 'fc1': {'num_hidden': '4'}}\n"
    "{'num_hidden': '4'} {'__lr_mult__': '2.0', 'lr_mult': '2.0', '__shape__': '(2, 3)', 'foo':"
    " 'bar'}\n"
    "['d', 'fc1_weight', 'fc1_bias', 'fc1_output']\n"
    "['d', 'fc1_weight', 'fc1_bias']\n"
    "['fc1_output', 'd']\n"
    '([(2, 3), (4, 3), (4,)], [(2, 4)], [])\n'
    "([<class 'numpy.float32'>, <class 'numpy.float32'>, <class 'numpy.float32'>], [<class 'num"
    "py.float32'>], [])\n"
    '<Symbol fc1>\n'
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "d", \n'
    '      "attrs": {\n'
    '        "__lr_mult__": "2.0", \n'
    '        "__shape__": "(2, 3)", \n'
    '        "foo": "bar"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "fc1_weight", \n'
    '      "attrs": {"num_hidden": "4"}, \n'
    '      "\n'
)

EXPECTED["script_trainer_states_round_trip"] = (
    'sgd bf297515bf358a653cf9fd483d120528 bf297515bf358a653cf9fd483d120528 0.1 3 633\n'
    'adam bf49bdf6bf6be433bed4f59abf68a140 bf49bdf6bf6be433bed4f59abf68a140 0.01 3 845\n'
    'rmsprop bf288effbf4bb354be92ddb4bf47b93e bf288effbf4bb354be92ddb4bf47b93e 0.01 3 1037\n'
    'adagrad bf4b9722bf6dc63cbed8aa92bf6a7d0d bf4b9722bf6dc63cbed8aa92bf6a7d0d 0.01 3 630\n'
    'nag bf4ca10dbf69f1eebebf2252bf49bfc0 bf4ca10dbf69f1eebebf2252bf49bfc0 0.01 3 618\n'
    'adadelta bf499ae8bf6bd342bed4b242bf68825d bf499ae8bf6bd342bed4b242bf68825d 0.01 3 815\n'
    'ftrl be153e26be913ec9bdfb33c6bf02504a be153e26be913ec9bdfb33c6bf02504a 0.1 3 804\n'
    'lamb bf50edf8bf7312cdbee3553ebf6fd0df bf50edf8bf7312cdbee3553ebf6fd0df 0.001 3 879\n'
    'signum bf49bd63bf6be236bed4f412bf68a049 bf49bd63bf6be236bed4f412bf68a049 0.01 3 638\n'
    'adamax bf4fe23abf7207d5bee13dfbbf6ec55c bf4fe23abf7207d5bee13dfbbf6ec55c 0.002 3 813\n'
    'nadam bf50e368bf730854bee34022bf6fc654 bf50e368bf730854bee34022bf6fc654 0.001 3 879\n'
    '0.01\n'
    '0.3 0.3\n'
)

EXPECTED["script_transforms_pipeline_dataloader"] = (
    'Compose(\n'
    '  (0): RandomResizedCrop(\n'
    '  \n'
    '  )\n'
    '  (1): HybridSequential(\n'
    '    (0): RandomFlipLeftRight(\n'
    '    \n'
    '    )\n'
    '    (1): ToTensor(\n'
    '    \n'
    '    )\n'
    '    (2): Normalize(\n'
    '    \n'
    '    )\n'
    '  )\n'
    ')\n'
    "(4, 3, 8, 8) <class 'numpy.float32'> [0.0, 1.0, 2.0, 3.0] 373.078 [0.2451000064611435, 1.2"
    '05899953842163, 0.9314000010490417, 0.7156999707221985, 1.872499942779541, 0.0294000003486'
    '87172, -0.9314000010490417, 0.5587999820709229]\n'
    "(2, 3, 8, 8) <class 'numpy.float32'> [4.0, 5.0] 168.431 [-0.5979999899864197, 0.2842999994"
    '754791, 0.14710000157356262, -0.4803999960422516, -0.9509999752044678, 1.3626999855041504,'
    ' -0.6568999886512756, 0.519599974155426]\n'
    '(3, 8, 8) 69.6902 [0.7254999876022339, 0.43529999256134033, 0.33329999446868896, 0.4077999'
    '8898506165, 0.3176000118255615, 0.13330000638961792, 0.3294000029563904, 0.2784000039100647]\n'
    '(3, 8, 8) 68.9882 [0.23919999599456787, 0.26269999146461487, 0.38040000200271606, 0.505900'
    '0253677368, 0.2587999999523163, 0.45879998803138733, 0.490200012922287, 0.3882000148296356]\n'
    '0.00752 (2, 3, 20, 24)\n'
    '(7, 8, 3) (7, 7, 3)\n'
    '(4, 5, 3)\n'
    '-30.829\n'
)


# ---------------------------------------------------------------------------------------------

def test_foreach_while_cond_autograd(tmp_path):
    _check(script_foreach_while_cond_autograd, tmp_path)


def test_hybrid_while_cond_foreach_and_rnn_layers(tmp_path):
    _check(script_hybrid_while_cond_foreach_and_rnn_layers, tmp_path)


def test_image_iter_create_augmenter(tmp_path):
    pytest.importorskip("PIL")   # decodes images (the image extra)
    _check(script_image_iter_create_augmenter, tmp_path)


def test_initializers_mixed_load_dumps(tmp_path):
    _check(script_initializers_mixed_load_dumps, tmp_path)


def test_kvstore_local_device(tmp_path):
    _check(script_kvstore_local_device, tmp_path)


def test_lr_schedulers_with_warmup(tmp_path):
    _check(script_lr_schedulers_with_warmup, tmp_path)


def test_metrics_over_batches(tmp_path):
    _check(script_metrics_over_batches, tmp_path)


def test_module_params_optimizer_checkpoint(tmp_path):
    _check(script_module_params_optimizer_checkpoint, tmp_path)


def test_print_summary_and_callbacks(tmp_path):
    _check(script_print_summary_and_callbacks, tmp_path)


def test_rnn_cells_unroll(tmp_path):
    _check(script_rnn_cells_unroll, tmp_path)


def test_simple_bind_grad_req_and_manual_trainer(tmp_path):
    _check(script_simple_bind_grad_req_and_manual_trainer, tmp_path)


def test_sparse_recommender_ops(tmp_path):
    pytest.importorskip("scipy")   # asscipy() (scikit-learn of the examples extra brings it)
    _check(script_sparse_recommender_ops, tmp_path)


def test_symbol_graph_api(tmp_path):
    _check(script_symbol_graph_api, tmp_path)


def test_trainer_states_round_trip(tmp_path):
    _check(script_trainer_states_round_trip, tmp_path)


def test_transforms_pipeline_dataloader(tmp_path):
    _check(script_transforms_pipeline_dataloader, tmp_path)
