"""Small MXNet 1.9.1 user scripts (round 7): everything they print, checked against MXNet 1.9.1.

Areas: Gluon parameter sharing (``params=``), ``collect_params`` selection and ``setattr``,
the Parameter API (``list_ctx``/``reset_ctx``/``set_data``/``var``, Constant, deferred
initialisation errors), ``cast('float64')``; Trainer with ``grad_req='add'`` accumulation,
``set_learning_rate``, ``zero_grad`` then ``step``, stale-gradient errors, ``ignore_stale_grad``,
``allreduce_grads``/``update`` and states round trips; initializer variants (Xavier rnd_type/
factor_type, MSRAPrelu, Orthogonal, Bilinear, LSTMBias, legacy name dispatch, ``InitDesc``
attrs, "already initialized" warnings, ``force_reinit``); the legacy ``mx.model.FeedForward``;
``mx.recordio`` with multi-label headers and indexed reads; ``mx.np``/``mx.npx`` basics
(einsum, linalg, boolean masks, npx.softmax/topk/pick/one_hot, ``as_nd_ndarray``); Symbol JSON
round trips, ``infer_shape_partial``/``infer_type``, attributes, ``Group``/``get_internals``;
sparse CSR/row_sparse creation, printing, slicing, ``dot``, ``retain``, ``cast_storage``;
``BucketingModule``; Module with ``__lr_mult__``/``__wd_mult__``, ``module_checkpoint``,
``ProgressBar`` and ``LogValidationMetricsCallback``; misc NDArray ops; autograd
(``grad_req='add'``, ``autograd.grad`` with head gradients, ``mark_variables``, modes, Dropout);
``SimpleDataset``/``ArrayDataset``/samplers/DataLoader options and ``RecordFileDataset``; fused
RNN layers with explicit states; ``nd.image``/``mx.image`` helpers and augmenters; the
transformer contrib ops (interleaved matmuls, masked softmax, LayerNorm); less common Gluon
layers; NDArray printing of every dtype and value range; ``export`` of a varied hybrid net and
its reload by SymbolBlock, ``load_checkpoint`` and Module; Trainers over two CPU contexts with
'device'/'local' kvstores; sparse linear classification from a LibSVM file with four sparse
optimizers; the KVStore API; Module over two contexts; and the numerics fixed in this round
(float32 ``mx.np.einsum`` carried in float64, L2 norms of up to 4096 elements in 1.9.1's
scaled steps, sparse AdaGrad's ``lr * (g / sqrt(h + eps))``, the standard Adam step for a
row_sparse gradient, the multi-tensor LAMB direction in double, SoftmaxOutput predicting with
oneDNN's softmax).

Each ``script_*`` function is a script as a user would write it; the expected text is what
MXNet 1.9.1 printed for the same function (stdout plus INFO log lines, each script run alone
in a fresh process and NameManager, its temporary directory shown as ``<tmp>``; the timings of
``Time cost=`` and ``Speed:`` are masked). Left out on purpose: Orthogonal(rand_type='uniform')
on some shapes (the sign of an SVD vector depends on the LAPACK build), float32 sums of more
than 16 elements printed to all digits (1.9.1's Kahan steps; see reduce.py), ``print`` of an
initializer object (1.9.1 prints its address), what 1.9.1 refuses where ours works
(``mx.np.random.seed``, ``nd.hypot``, second-order gradients of ``**`` and ``*``,
``MXRecordIO.tell`` while reading, a ``DataBatch`` without ``pad`` in ``Module.predict``),
1.9.1's CPU RNN layers ignoring ``sequence_length``, and C-level error messages.
"""
import re

import pytest

import mxnet as mx

from ._printed import restore_random_state, run_printed  # noqa: F401 (the fixture)


pytestmark = pytest.mark.usefixtures("restore_random_state")

_TIMING = re.compile(r"(Time cost=|Speed: )[0-9.]+")


def _check(fn, tmp_path):
    got = _TIMING.sub(r"\1<t>", run_printed(fn, tmp_path))
    assert got.splitlines() == _TIMING.sub(r"\1<t>", EXPECTED[fn.__name__]).splitlines()


# ---------------------------------------------------------------------------------------------
# the scripts

def script_param_sharing_and_api(tmp):
    import mxnet as mx
    from mxnet import gluon, nd, autograd
    from mxnet.gluon import nn

    class Net(gluon.Block):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.a = nn.Dense(4, in_units=3)
                self.b = nn.Dense(4, in_units=3, params=self.a.params)
                self.c = nn.Dense(2, in_units=4)

        def forward(self, x):
            return self.c(self.a(x) + self.b(x))

    mx.random.seed(3)
    net = Net()
    print(net)
    print(net.collect_params())
    net.initialize(mx.init.Xavier())
    print(sorted(net.collect_params().keys()))
    print(sorted(net.collect_params(".*weight").keys()))
    print(sorted(net.collect_params("net0_dense0_.*|.*bias").keys()))
    print(net.a.weight is net.b.weight)
    x = nd.array([[1, 2, 3], [4, 5, 6]])
    with autograd.record():
        y = net(x)
    y.backward()
    print(y)
    print(net.a.weight.grad())
    net.collect_params(".*bias").setattr("lr_mult", 0.0)
    net.collect_params(".*dense1.*").setattr("grad_req", "null")
    for name, p in sorted(net.collect_params().items()):
        print(name, p.lr_mult, p.wd_mult, p.grad_req, p.shape, p.dtype)
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    with autograd.record():
        loss = net(x).sum()
    loss.backward()
    tr.step(2)
    print(net.a.weight.data())
    print(net.c.bias.data())
    # second net sharing the whole dict
    net2 = nn.Dense(2, in_units=4, params=net.c.collect_params())
    print(net2.weight is net.c.weight, net2.prefix, net2.weight.name)
    # parameter API
    p = gluon.Parameter("w", shape=(2, 3))
    print(p)
    try:
        p.data()
    except RuntimeError as e:
        print(str(e)[:200])
    p.initialize(init=mx.init.One(), ctx=[mx.cpu(0), mx.cpu(1)])
    print(p.list_ctx())
    print(p.data(mx.cpu(1)))
    p.reset_ctx(mx.cpu(2))
    print(p.list_ctx(), p.data().context)
    p.set_data(nd.ones((2, 3)) * 5)
    print(p.data())
    print(p.var())
    print(p.grad())
    p2 = gluon.Parameter("v", shape=(0, 3), allow_deferred_init=True)
    p2.initialize()
    try:
        p2.data()
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
    c = gluon.Constant("const", nd.array([1, 2, 3]))
    c.initialize()
    print(c, c.grad_req, c.data())
    d = nn.Dense(3)
    d.initialize()
    try:
        d.weight.data()
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
    d.cast("float64")
    out = d(nd.ones((1, 2), dtype="float64"))
    print(out.dtype, d.weight.dtype, d.weight.shape)
    try:
        d(nd.ones((1, 5), dtype="float64"))
    except Exception as e:
        print(type(e).__name__)


def script_trainer_grad_add_and_stale(tmp):
    import mxnet as mx
    from mxnet import gluon, nd, autograd
    from mxnet.gluon import nn

    mx.random.seed(7)
    net = nn.HybridSequential()
    net.add(nn.Dense(3, activation="relu", in_units=4), nn.Dense(1, in_units=3))
    net.initialize(mx.init.Uniform(0.5))
    net.collect_params().setattr("grad_req", "add")
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5, "momentum": 0.9})
    data = nd.arange(24).reshape((6, 4)) / 10
    label = nd.array([1, 0, 1, 0, 1, 1])
    loss_fn = gluon.loss.L2Loss()
    for epoch in range(2):
        net.collect_params().zero_grad()
        for i in range(3):
            with autograd.record():
                l = loss_fn(net(data[2 * i : 2 * i + 2]), label[2 * i : 2 * i + 2])
            l.backward()
            print(epoch, i, net[1].bias.grad().asnumpy())
        tr.step(6)
        print("lr", tr.learning_rate, "w", net[1].weight.data().asnumpy())
    tr.set_learning_rate(0.05)
    print(tr.learning_rate, tr.optimizer.num_update)
    # step after zero_grad: gradients are zero, momentum continues
    with autograd.record():
        l = loss_fn(net(data), label)
    l.backward()
    net.collect_params().zero_grad()
    tr.step(1)
    print(net[1].weight.data().asnumpy())
    # stale gradient
    net2 = nn.Dense(2, in_units=2)
    extra = gluon.Parameter("extra", shape=(2,))
    extra.initialize()
    net2.initialize()
    params = net2.collect_params()
    params.update({"extra": extra})
    tr2 = gluon.Trainer(params, "sgd", {"learning_rate": 1.0})
    with autograd.record():
        o = net2(nd.ones((1, 2))).sum()
    o.backward()
    try:
        tr2.step(1)
    except Exception as e:
        print(type(e).__name__, str(e))
    tr2.step(1, ignore_stale_grad=True)
    print(extra.data(), net2.bias.data())
    try:
        tr2.step(1)
    except Exception as e:
        print(type(e).__name__, str(e))
    with autograd.record():
        o = net2(nd.ones((1, 2))).sum()
    o.backward()
    tr2.allreduce_grads()
    tr2.update(1, ignore_stale_grad=True)
    print(net2.bias.data())
    try:
        tr2.update(1)
    except Exception as e:
        print(type(e).__name__, str(e))
    tr3 = gluon.Trainer(net2.collect_params(), "adam", {"learning_rate": 0.01}, update_on_kvstore=False)
    with autograd.record():
        o = net2(nd.ones((1, 2))).sum()
    o.backward()
    tr3.step(1)
    print(net2.weight.data())
    tr3.save_states(tmp + "/t.states")
    tr3.load_states(tmp + "/t.states")
    print(tr3.optimizer.num_update, tr3._optimizer.lr)
    try:
        gluon.Trainer([net2.weight, net2.weight], "sgd")
    except Exception as e:
        print(type(e).__name__, str(e))
    try:
        gluon.Trainer(net2.weight, "sgd")
    except Exception as e:
        print(type(e).__name__, str(e))


def script_initializer_variants(tmp):
    import warnings
    import numpy as np
    import mxnet as mx
    from mxnet import nd
    from mxnet.gluon import nn

    mx.random.seed(11)
    np.random.seed(11)
    inits = [
        mx.init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2),
        mx.init.Xavier(rnd_type="uniform", factor_type="out", magnitude=3),
        mx.init.Xavier(factor_type="avg"),
        mx.init.MSRAPrelu(factor_type="in", slope=0.1),
        mx.init.MSRAPrelu(),
        mx.init.Orthogonal(scale=1.2, rand_type="normal"),
        mx.init.Orthogonal(rand_type="normal"),
        mx.init.Normal(0.05),
        mx.init.Uniform(0.2),
        mx.init.Constant(0.3),
        mx.init.One(),
        mx.init.Zero(),
        mx.init.LSTMBias(forget_bias=2.0),
    ]
    for init in inits:
        print(init.dumps())
        arr = nd.zeros((4, 6))
        init(mx.init.InitDesc("fc_weight"), arr)
        print(type(init).__name__, arr.asnumpy().round(5).tolist()[0], arr.abs().sum().asnumpy().round(4))
    # legacy name-based dispatch
    u = mx.init.Uniform(0.1)
    for name in ["fc_bias", "bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var", "conv_weight"]:
        a = nd.ones((3,)) * 7
        u(name, a)
        print(name, a.asnumpy().round(5))
    try:
        u("foo_bar", nd.zeros((2,)))
    except Exception as e:
        print(type(e).__name__, e)
    desc = mx.init.InitDesc("w", attrs={"__init__": mx.init.Constant(4).dumps()})
    a = nd.zeros((2, 2))
    mx.init.Uniform()(desc, a)
    print(desc, desc.attrs, a)
    # bilinear for upsampling
    b = nd.zeros((1, 1, 4, 4))
    mx.init.Bilinear()(mx.init.InitDesc("up_weight"), b)
    print(b)
    # xavier on conv weights
    w = nd.zeros((2, 3, 3, 3))
    mx.init.Xavier(magnitude=2.24)(mx.init.InitDesc("c_weight"), w)
    print(w[0, 0])
    # already initialized warnings
    net = nn.Dense(2, in_units=3)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        net.initialize(mx.init.One())
        net.initialize(mx.init.Zero())
        net.weight.initialize()
    for w_ in ws:
        print(w_.category.__name__, str(w_.message))
    print(net.weight.data())
    net.initialize(mx.init.Constant(2), force_reinit=True)
    print(net.weight.data(), net.bias.data())
    net.weight.initialize(mx.init.Constant(nd.array([[1, 2, 3], [4, 5, 6]])), force_reinit=True)
    print(net.weight.data())
    d = nn.Dense(3, weight_initializer="ones", bias_initializer=mx.init.Constant(0.5))
    d.initialize(mx.init.Zero())
    print(d(nd.ones((1, 2))))
    print(d.weight.init, type(d.bias.init).__name__)
    e = nn.Dense(2, in_units=2, weight_initializer=mx.init.Orthogonal())
    e.initialize()
    print(e.weight.data().asnumpy().round(5))
    try:
        mx.init.Xavier(rnd_type="foo")(mx.init.InitDesc("x_weight"), nd.zeros((2, 2)))
    except Exception as ex:
        print(type(ex).__name__, ex)
    try:
        mx.init.Xavier()(mx.init.InitDesc("x_weight"), nd.zeros((2,)))
    except Exception as ex:
        print(type(ex).__name__, ex)
    print(mx.init.create("xavier").dumps(), mx.init.create("zeros").dumps())
    print(mx.init.Mixed([".*bias", ".*"], [mx.init.Zero(), mx.init.One()]).__class__.__name__)


def script_feedforward_legacy(tmp):
    import numpy as np
    import mxnet as mx

    np.random.seed(0)
    mx.random.seed(0)
    X = np.random.uniform(-1, 1, (40, 5)).astype("float32")
    Y = (X.sum(axis=1) > 0).astype("float32")
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=8, name="fc1")
    act = mx.sym.Activation(fc1, act_type="tanh", name="act1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=2, name="fc2")
    net = mx.sym.SoftmaxOutput(fc2, name="softmax")
    train = mx.io.NDArrayIter(X, Y, batch_size=10)
    model = mx.model.FeedForward(
        net, ctx=mx.cpu(), num_epoch=3, learning_rate=0.5, numpy_batch_size=10, initializer=mx.init.Xavier()
    )
    model.fit(X=train, eval_metric="acc")
    prob = model.predict(mx.io.NDArrayIter(X[:6], None, batch_size=3))
    print(prob.round(4))
    print(model.score(mx.io.NDArrayIter(X, Y, batch_size=10)))
    model.save(tmp + "/ff", 3)
    m2 = mx.model.FeedForward.load(tmp + "/ff", 3)
    print(sorted(m2.arg_params.keys()), m2.begin_epoch)
    print(m2.predict(X[:2]).round(4))


def script_recordio_multilabel(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import recordio

    w = recordio.MXIndexedRecordIO(tmp + "/d.idx", tmp + "/d.rec", "w")
    for i in range(5):
        header = recordio.IRHeader(0, [float(i), i * 0.5, -1.0], i, 0)
        s = recordio.pack(header, bytes([65 + i]) * (i + 1))
        w.write_idx(i * 10, s)
    w.write_idx(99, recordio.pack(recordio.IRHeader(0, 3.5, 7, 8), b"xyz"))
    w.close()
    print(open(tmp + "/d.idx").read())
    r = recordio.MXIndexedRecordIO(tmp + "/d.idx", tmp + "/d.rec", "r")
    print(r.keys, r.idx)
    for k in [30, 0, 99, 20]:
        h, payload = recordio.unpack(r.read_idx(k))
        print(k, h, payload)
    print(h.flag, type(h.label), h.id, h.id2)
    r.seek(20)
    print(recordio.unpack(r.read())[0])
    r.reset()
    n = 0
    while True:
        item = r.read()
        if item is None:
            break
        n += 1
    print("records", n)
    r.close()
    seq = recordio.MXRecordIO(tmp + "/s.rec", "w")
    for i in range(3):
        seq.write(
            recordio.pack(recordio.IRHeader(0, np.array([i, i + 1], dtype="float32"), i, 0), b"\x00" * i)
        )
    seq.close()
    seq = recordio.MXRecordIO(tmp + "/s.rec", "r")
    print([recordio.unpack(seq.read())[0] for _ in range(3)], seq.read())
    seq.close()
    import os

    print(os.path.getsize(tmp + "/s.rec"), os.path.getsize(tmp + "/d.rec"))
    hb = recordio.pack(recordio.IRHeader(0, [1, 2], 5, 0), b"ab")
    print(hb)
    print(recordio.unpack(hb))
    try:
        recordio.MXRecordIO(tmp + "/s.rec", "x")
    except Exception as e:
        print(type(e).__name__)
    rr = recordio.MXIndexedRecordIO(tmp + "/d.idx", tmp + "/d.rec", "r")
    try:
        rr.read_idx(5)
    except Exception as e:
        print(type(e).__name__, e)
    rr.close()
    it = mx.io.ImageRecordIter if False else None
    print(it)


def script_np_npx_basics(tmp):
    import mxnet as mx
    from mxnet import np, npx

    npx.set_np()
    try:
        mx.random.seed(42)
        a = np.random.uniform(size=(3, 4))
        b = np.random.normal(0, 1, size=(4, 2))
        print(a)
        print(b.dtype, b.shape, b.ctx)
        print(np.random.randint(0, 10, size=(5,)))
        print(np.einsum("ij,jk->ik", a, b))
        print(np.einsum("ii->i", np.arange(9).reshape(3, 3)))
        print(np.einsum("ij->", a))
        m = np.array([[2.0, 1.0], [1.0, 3.0]])
        print(np.linalg.inv(m))
        print(np.linalg.norm(m), np.linalg.norm(m, axis=0), np.linalg.norm(m, ord=1))
        u, s, vt = np.linalg.svd(m)
        print(np.round(s, 4))
        print(np.linalg.det(m))
        x = np.arange(12).reshape(3, 4)
        print(x[x > 5])
        print(x[np.array([True, False, True])])
        x[x % 2 == 0] = -1
        print(x)
        print(x.dtype, np.arange(5).dtype, np.ones((2,)).dtype, np.array([1, 2]).dtype)
        y = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, 6.0]])
        print(npx.relu(y))
        print(npx.softmax(y))
        print(npx.softmax(y, axis=0))
        print(npx.log_softmax(y))
        print(npx.sigmoid(y))
        print(npx.one_hot(np.array([0, 2, 1]), 3))
        print(npx.pick(y, np.array([2, 0]), axis=1))
        print(npx.topk(y, k=2))
        print(npx.topk(y, k=2, ret_typ="value", is_ascend=True))
        print(npx.reshape(np.arange(24).reshape(2, 3, 4), (-2, -1)))
        print(npx.batch_flatten(np.ones((2, 3, 2))).shape)
        nd_y = y.as_nd_ndarray()
        print(type(nd_y).__name__, nd_y)
        back = nd_y.as_np_ndarray()
        print(type(back).__name__, back)
        print(np.concatenate([y, y], axis=0).shape, np.stack([y, y]).shape)
        print(np.where(y > 0, y, np.zeros_like(y)))
        print(np.clip(y, -1, 1), np.maximum(y, 0), np.argmax(y, axis=1))
        print(y.sum(), y.mean(axis=0), y.std(), y.var(axis=1), y.max(), y.min(axis=1))
        print(np.cumsum(np.arange(5)), np.diff(np.array([1, 4, 9, 16])))
        print(np.tril(np.ones((3, 3))), np.eye(2, 3), np.linspace(0, 1, 5))
        print(np.sort(np.array([3, 1, 2])), np.argsort(np.array([3.0, 1.0, 2.0])))
        print(np.unique(np.array([3, 1, 3, 2, 1])))
        print(y.T, y.reshape(-1), y.flatten(), y[:, ::-1])
        print(np.dot(y, y.T), y @ y.T)
        print(np.exp(np.array([0.0, 1.0])), np.log1p(np.array([0.5])), np.power(np.array([2.0, 3.0]), 3))
        print(repr(np.array([1.5, 2.5, -0.5]).round()))
        print(y.tolist(), y.item(0) if hasattr(y, "item") else None, float(np.array(2.5)))
        print(np.random.choice(5, size=3), np.random.shuffle(np.arange(4)))
        z = np.zeros((2, 3))
        z[0] = 1
        z[:, 1] += 5
        print(z, z.size, z.ndim, len(z))
        try:
            np.ones((2, 3)) + np.ones((3, 2))
        except Exception as e:
            print(type(e).__name__)
        print(mx.util.is_np_array(), mx.util.is_np_shape())
    finally:
        npx.reset_np()
    print(mx.util.is_np_array(), mx.util.is_np_shape())


def script_symbol_json_infer(tmp):
    import json
    import mxnet as mx

    data = mx.sym.var("data", shape=(0, 3))
    w = mx.sym.var("w", lr_mult=2.0, init=mx.init.One())
    fc = mx.sym.FullyConnected(data, weight=w, num_hidden=4, no_bias=True, name="fc")
    bn = mx.sym.BatchNorm(fc, name="bn", fix_gamma=False)
    act = mx.sym.Activation(bn, act_type="relu", name="relu")
    out = mx.sym.softmax(act, axis=-1, name="sm")
    print(out)
    print(out.list_arguments(), out.list_outputs(), out.list_auxiliary_states())
    print(out.list_inputs())
    print(w.list_attr(), w.attr("__lr_mult__"))
    print(sorted(out.attr_dict().items()))
    print(out.infer_shape_partial())
    print(out.infer_shape(data=(2, 3)))
    print(out.infer_type(data="float64"))
    print(out.infer_type())
    js = out.tojson()
    d = json.loads(js)
    print([n["op"] for n in d["nodes"]], d["arg_nodes"], d["heads"], d["attrs"])
    print(d["nodes"][1])
    print(d["nodes"][2])
    s2 = mx.sym.load_json(js)
    print(s2.tojson() == js, s2.list_arguments())
    out.save(tmp + "/net.json")
    s3 = mx.sym.load(tmp + "/net.json")
    print(s3.name, s3.get_internals().list_outputs())
    print([c.name for c in out.get_children()], out.get_children().list_outputs())
    g = mx.sym.Group([fc, act])
    print(g.list_outputs(), len(g), g[1].name, g.infer_shape(data=(5, 3))[1])
    internals = out.get_internals()
    feat = internals["bn_output"]
    print(feat, feat.list_arguments())
    e = mx.sym.var("x") + mx.sym.var("y") * 2
    print(e.list_arguments(), e.infer_shape(x=(2,), y=(2,)), e.name)
    print(e.eval(x=mx.nd.array([1, 2]), y=mx.nd.array([3, 4]))[0])
    try:
        e.infer_shape(x=(2,), y=(3,))
    except mx.base.MXNetError:
        print("MXNetError")
    try:
        mx.sym.FullyConnected(mx.sym.var("d"), num_hidden=2).infer_type(
            d="int32", fullyconnected0_weight="float32"
        )
    except mx.base.MXNetError:
        print("type MXNetError")
    try:
        out.infer_shape(foo=(2, 3))
    except Exception as ex:
        print(type(ex).__name__)
    c = out(data=mx.sym.var("other"))
    print(c.list_arguments())
    print(
        mx.sym.var("q", shape=(2,), dtype="float16", init="zeros", stype="default", wd_mult=0.5).list_attr()
    )
    with mx.AttrScope(ctx_group="dev1", foo="bar"):
        k = mx.sym.var("k")
        kk = mx.sym.sin(k, name="s")
    print(k.list_attr(), kk.list_attr(), kk.attr_dict())
    print(mx.sym.zeros((2, 2)).eval()[0], mx.sym.ones((1, 2), dtype="int32").eval()[0])
    print(len(out.get_internals()), out.get_internals()[3].name)
    print(repr(mx.sym.Group([mx.sym.var("a"), mx.sym.var("b")])))


def script_sparse_printing_and_ops(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import nd

    data = np.array([1.0, 2.0, 3.0, 4.0], dtype="float32")
    indices = np.array([0, 2, 1, 2])
    indptr = np.array([0, 2, 2, 4])
    c = nd.sparse.csr_matrix((data, indices, indptr), shape=(3, 3))
    print(c)
    print(repr(c), c.stype, c.shape, c.dtype, c.context)
    print(c.data, c.indices, c.indptr)
    print(c.asnumpy())
    print(c[1:3])
    print(c[1:3].asnumpy())
    dense = nd.arange(6).reshape((3, 2))
    print(nd.sparse.dot(c, dense))
    print(nd.dot(c, dense, transpose_a=True))
    r = nd.sparse.row_sparse_array((np.ones((2, 2)), [0, 3]), shape=(5, 2))
    print(r)
    print(r.indices, r.data)
    print(nd.sparse.retain(r, nd.array([3, 4])))
    print(nd.sparse.retain(r, nd.array([3, 4])).asnumpy())
    print(nd.cast_storage(dense, "row_sparse"))
    print(dense.tostype("csr"))
    print(r.tostype("default"))
    z = nd.sparse.zeros("row_sparse", (3, 4))
    print(z, z.indices, z.data.shape)
    zc = nd.sparse.zeros("csr", (2, 3))
    print(zc, zc.indptr)
    print(r + r, (r * 2).stype, nd.sparse.add(r, r).stype)
    print((c * 3).stype, (c + c).stype, nd.sparse.square(c).stype, nd.sum(c, axis=0))
    print(nd.norm(c), c.norm() if hasattr(c, "norm") else None)
    print(r.copy().stype, r.copyto(mx.cpu(1)).context, r.astype("float64").dtype)
    try:
        nd.sparse.array(np.eye(3))
    except ValueError as e:
        print(e)
    print(nd.sparse.array(nd.sparse.csr_matrix(np.eye(2))).stype, nd.sparse.csr_matrix(np.eye(2)).asnumpy())
    print(nd.sparse.csr_matrix(([1.0], ([1], [2])), shape=(2, 3)).asnumpy())
    try:
        c[1]
    except Exception as e:
        print(type(e).__name__)
    try:
        r[1:2]
    except Exception:
        print("Exception")
    print(nd.sparse.abs(r * -1))
    print(nd.sparse.slice(c, begin=(0, 1), end=(2, 3)))
    print(c.check_format() if False else "ok", nd.contrib.getnnz(c), nd.contrib.getnnz(c, axis=1))
    rr = nd.sparse.row_sparse_array(([[1.0, 2.0]], [1]), shape=(3, 2))
    rr[:] = 5
    print(rr)
    rr2 = nd.sparse.row_sparse_array(([[1.0, 2.0]], [1]), shape=(3, 2))
    rr2[:] = nd.ones((3, 2))
    print(rr2.asnumpy(), rr2.stype)
    print(nd.sparse.elemwise_add(r, r), nd.elemwise_mul(r, r).stype)
    w = nd.ones((3, 2))
    print(nd.sparse.dot(c, w, forward_stype="default").stype)
    print(nd.sparse.dot(c.T if hasattr(c, "T") else c, w).stype)


def script_bucketing_module(tmp):
    import numpy as np
    import mxnet as mx

    np.random.seed(1)
    mx.random.seed(1)

    class BucketIter(mx.io.DataIter):
        def __init__(self):
            super().__init__(batch_size=2)
            self.buckets = [3, 5, 3, 5]
            self.default_bucket_key = 5
            self.provide_data = [mx.io.DataDesc("data", (2, 5))]
            self.provide_label = [mx.io.DataDesc("softmax_label", (2,))]
            self.i = 0

        def reset(self):
            self.i = 0

        def next(self):
            if self.i >= len(self.buckets):
                raise StopIteration
            k = self.buckets[self.i]
            rs = np.random.RandomState(self.i)
            self.i += 1
            return mx.io.DataBatch(
                [mx.nd.array(rs.uniform(size=(2, k)))],
                [mx.nd.array(rs.randint(0, 2, size=(2,)))],
                bucket_key=k,
                pad=0,
                provide_data=[mx.io.DataDesc("data", (2, k))],
                provide_label=[mx.io.DataDesc("softmax_label", (2,))],
            )

    def sym_gen(key):
        data = mx.sym.var("data")
        w = mx.sym.var("shared_weight")
        fc = mx.sym.FullyConnected(mx.sym.sum(data, axis=1, keepdims=True), weight=w, num_hidden=2, name="fc")
        out = mx.sym.SoftmaxOutput(fc, name="softmax")
        return out, ("data",), ("softmax_label",)

    it = BucketIter()
    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=5, context=mx.cpu())
    print(mod.data_names if hasattr(mod, "data_names") else None)
    mod.fit(
        it,
        num_epoch=2,
        optimizer="sgd",
        optimizer_params={"learning_rate": 0.3},
        initializer=mx.init.Uniform(0.3),
        eval_metric="acc",
        batch_end_callback=mx.callback.Speedometer(2, 2),
    )
    arg, aux = mod.get_params()
    print(sorted(arg), arg["shared_weight"].asnumpy().round(5))
    print(sorted(mod._buckets.keys()))
    print(mod.score(it, "ce"))
    it.reset()
    out = mod.predict(it)
    print(out.shape, out.asnumpy().round(4)[:3])
    print(mod.data_shapes, mod.output_shapes)
    mod.save_checkpoint(tmp + "/bm", 2)
    import os

    print(sorted(os.listdir(tmp)))


def script_module_lr_mult_and_callbacks(tmp):
    import numpy as np
    import mxnet as mx

    np.random.seed(2)
    mx.random.seed(2)
    X = np.random.uniform(-1, 1, (12, 3)).astype("float32")
    Y = (X[:, 0] > 0).astype("float32")
    data = mx.sym.var("data")
    w1 = mx.sym.var("fc1_weight", lr_mult=0.0)
    fc1 = mx.sym.FullyConnected(data, weight=w1, num_hidden=4, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu")
    fc2 = mx.sym.FullyConnected(act, num_hidden=2, name="fc2", attr={"__wd_mult__": "0.0"})
    net = mx.sym.SoftmaxOutput(fc2, name="softmax")
    train = mx.io.NDArrayIter(X, Y, batch_size=4, shuffle=False)
    val = mx.io.NDArrayIter(X[:8], Y[:8], batch_size=4)
    mod = mx.mod.Module(net, data_names=["data"], label_names=["softmax_label"])
    mod.bind(train.provide_data, train.provide_label)
    mod.init_params(mx.init.Xavier(magnitude=1.0))
    w_before = mod.get_params()[0]["fc1_weight"].asnumpy().copy()
    opt = mx.optimizer.SGD(
        learning_rate=0.2,
        wd=0.01,
        momentum=0.5,
        lr_scheduler=mx.lr_scheduler.FactorScheduler(step=3, factor=0.5),
    )
    mod.init_optimizer(optimizer=opt)
    print(opt.lr_mult, opt.wd_mult)
    mod.fit(
        train,
        eval_data=val,
        num_epoch=3,
        eval_metric=["acc", "ce"],
        epoch_end_callback=mx.callback.module_checkpoint(mod, tmp + "/m", period=2),
        batch_end_callback=[mx.callback.ProgressBar(3)],
        eval_end_callback=mx.callback.LogValidationMetricsCallback(),
    )
    arg = mod.get_params()[0]
    print(np.array_equal(w_before, arg["fc1_weight"].asnumpy()))
    print(arg["fc2_weight"].asnumpy().round(5), arg["fc2_bias"].asnumpy().round(5))
    print(opt.num_update, opt.lr_scheduler.base_lr, opt._get_lr(0) if hasattr(opt, "_get_lr") else "")
    import os

    print(sorted(os.listdir(tmp)))
    print(mod.score(val, mx.metric.Accuracy()))
    for name, val_ in mod.score(val, ["acc", mx.metric.TopKAccuracy(2)]):
        print(name, val_)


def script_nd_misc_ops(tmp):
    from mxnet import nd

    a = nd.array([[1, 2], [3, 4]])
    b = nd.array([[5, 6, 7], [8, 9, 10]])
    print(nd.khatri_rao(a, b.T))
    print(nd.histogram(nd.array([0.1, 0.5, 0.7, 2.0, 3.5]), bins=4, range=(0, 4)))
    print(nd.unravel_index(nd.array([5, 7]), shape=(2, 4)))
    print(nd.ravel_multi_index(nd.array([[1, 1], [1, 3]]), shape=(2, 4)))
    x = nd.arange(16).reshape((1, 4, 2, 2))
    print(nd.depth_to_space(x, 2))
    print(nd.space_to_depth(nd.depth_to_space(x, 2), 2).shape)
    m, v = nd.moments(nd.array([[1, 2, 3], [4, 5, 7]]), axes=1)
    print(m, v)
    print(nd.slice_like(nd.arange(12).reshape((3, 4)), nd.zeros((2, 3))))
    print(nd.broadcast_like(nd.array([[1], [2]]), nd.zeros((2, 3))))
    print(nd.shape_array(x), nd.size_array(x))
    print(nd.diag(nd.array([[1, 2], [3, 4]])), nd.diag(nd.array([1, 2]), k=1))
    print(nd.reshape_like(nd.arange(6), nd.zeros((2, 3))))
    parts = nd.split(nd.arange(6).reshape((2, 3)), num_outputs=2, axis=0, squeeze_axis=True)
    print(parts)
    print(nd.SliceChannel(nd.arange(6).reshape((3, 2)), num_outputs=3, axis=0))
    print(
        nd.pad(
            nd.arange(4).reshape((1, 1, 2, 2)),
            mode="constant",
            pad_width=(0, 0, 0, 0, 1, 1, 1, 1),
            constant_value=-1,
        )
    )
    print(nd.pad(nd.arange(4).reshape((1, 1, 2, 2)), mode="edge", pad_width=(0, 0, 0, 0, 1, 0, 0, 1)))
    print(nd.tile(nd.array([1, 2]), reps=(2, 2)), nd.repeat(nd.array([1, 2]), repeats=2))
    print(nd.flip(nd.arange(4).reshape((2, 2)), axis=1), nd.reverse(nd.arange(3), axis=0))
    print(nd.sort(nd.array([3, 1, 2]), is_ascend=False), nd.argmax(a, axis=1, keepdims=True))
    print(nd.arange(7, dtype="int32") / 2, nd.arange(7, dtype="int32") % 3)
    print(nd.array([1, 2, 3], dtype="int64") * 2.5)
    print(nd.cast(nd.array([1.7, -1.7, 2.5]), "int32"), nd.round(nd.array([0.5, 1.5, -0.5, 2.5])))
    print(nd.rint(nd.array([0.5, 1.5, -0.5, 2.5])), nd.fix(nd.array([1.7, -1.7])))
    print(nd.clip(nd.arange(5), 1, 3), nd.sign(nd.array([-2, 0, 3])))
    print(nd.norm(nd.arange(4).reshape((2, 2)), ord=1, axis=1), nd.L2Normalization(nd.array([[3, 4]])))
    print(nd.topk(nd.array([[3, 1, 2], [0, 5, 4]]), k=2, ret_typ="both"))
    print(nd.gather_nd(nd.arange(6).reshape((2, 3)), nd.array([[0, 1], [2, 0]])))
    print(nd.Cast(nd.array([300]), dtype="uint8"), nd.array([-1]).astype("uint8"))
    print(nd.stack(a, a, axis=1).shape, nd.concat(a, a, dim=0).shape, nd.Concat(a, a, dim=1))
    print(nd.expand_dims(a, axis=0).shape, nd.squeeze(nd.zeros((1, 2, 1))).shape, a.T)
    print(
        nd.swapaxes(nd.zeros((1, 2, 3)), 0, 2).shape, nd.transpose(nd.zeros((1, 2, 3)), axes=(1, 0, 2)).shape
    )
    print(
        nd.smooth_l1(nd.array([-2, -0.5, 0.5, 2]), scalar=1.0),
        nd.erf(nd.array([0.5])),
        nd.erfinv(nd.array([0.5])),
    )
    print(nd.relu(nd.array([-1, 1])), nd.softsign(nd.array([-1, 3])), nd.hard_sigmoid(nd.array([-3, 0, 1])))
    print(nd.log_softmax(nd.array([1, 2, 3])), nd.softmin(nd.array([1, 2, 3])))
    print(
        nd.softmax(nd.array([[1, 2], [3, 5]]), temperature=2.0),
        nd.softmax(nd.array([1, 2, 3]), length=nd.array([2]), use_length=True) if False else "",
    )
    print(
        nd.contrib.arange_like(nd.zeros((2, 3)), axis=1),
        nd.contrib.index_copy(nd.zeros((3, 2)), nd.array([2, 0]), nd.ones((2, 2))),
    )
    print(nd.contrib.boolean_mask(nd.arange(6).reshape((3, 2)), nd.array([1, 0, 1])))
    print(nd.contrib.div_sqrt_dim(nd.ones((2, 4))), nd.contrib.allclose(a, a + 1e-9))
    print(nd.batch_dot(nd.ones((2, 2, 3)), nd.ones((2, 3, 1))).shape, nd.linalg.gemm2(a, a, transpose_b=True))
    print(nd.where(nd.array([1, 0]), nd.array([1, 2]), nd.array([3, 4])), nd.argsort(nd.array([2, 3, 1])))
    print(nd.one_hot(nd.array([1, 0, 3]), depth=3, on_value=5, off_value=-1))
    print(
        nd.sum(a, axis=(), keepdims=True) if False else nd.sum(a, exclude=True, axis=0),
        nd.prod(a),
        nd.nansum(nd.array([1, float("nan")])),
    )
    print(nd.max(a, axis=0), nd.min(a), nd.mean(a, axis=1, keepdims=True), nd.norm(a))
    print(nd.logical_not(nd.array([0, 1])), nd.maximum(a, 2.5), nd.minimum(a, nd.array([[0, 9], [9, 0]])))
    print(nd.power(a, 2), a**0.5, 2**a, 10 // a if hasattr(a, "__rfloordiv__") else "")


def script_autograd_misc(tmp):
    import mxnet as mx
    from mxnet import nd, autograd

    x = nd.array([1.0, 2.0, 3.0])
    print(x.grad)
    x.attach_grad(grad_req="add")
    for i in range(3):
        with autograd.record():
            y = (x * x * (i + 1)).sum()
        y.backward()
    print(x.grad)
    x.grad[:] = 0
    with autograd.record():
        y = nd.sin(x)
    dx = autograd.grad(y, [x], head_grads=nd.array([1.0, 0.5, 0.25]), create_graph=True, retain_graph=True)[0]
    print(dx)
    dx.backward()
    print(x.grad)
    z = nd.array([0.5, -0.5])
    z.attach_grad()
    with autograd.record():
        out = nd.sigmoid(z) * 2
    out.backward(retain_graph=True)
    print(z.grad)
    out.backward()
    print(z.grad)
    try:
        out.backward()
    except mx.base.MXNetError:
        print("MXNetError second backward")
    a = nd.ones((2,))
    g = nd.zeros((2,))
    autograd.mark_variables([a], [g])
    with autograd.record():
        b = a * 4 + nd.BlockGrad(a * 3) + nd.stop_gradient(a)
    b.backward(nd.array([1.0, 2.0]))
    print(g)
    print(autograd.is_recording(), autograd.is_training())
    with autograd.record(train_mode=False):
        print(autograd.is_recording(), autograd.is_training())
        with autograd.pause():
            print(autograd.is_recording(), autograd.is_training())
        with autograd.train_mode():
            print(autograd.is_training())
    with autograd.predict_mode():
        print(autograd.is_training())
    mx.random.seed(5)
    d = nd.ones((2, 6))
    with autograd.record():
        print(nd.Dropout(d, p=0.5))
    with autograd.record(train_mode=False):
        print(nd.Dropout(d, p=0.5))
    with autograd.train_mode():
        print(nd.Dropout(d, p=0.3, mode="always").sum())
    w = nd.array([[1.0, 2.0], [3.0, 4.0]])
    w.attach_grad()
    with autograd.record():
        h = nd.dot(w, w)
        h2 = h.detach() * w
        loss = (h + h2).sum()
    loss.backward()
    print(w.grad)
    q = nd.array([2.0])
    q.attach_grad(grad_req="write")
    with autograd.record():
        r1 = q * 2
        r2 = q * 3
    autograd.backward([r1, r2], head_grads=[nd.array([1.0]), nd.array([10.0])])
    print(q.grad)
    try:
        with autograd.record():
            u = nd.ones((1,)) * 2
        u.backward()
    except mx.base.MXNetError:
        print("no grad MXNetError")
    v = nd.array([3.0])
    v.attach_grad(grad_req="null")
    with autograd.record():
        vv = v * 2
    print(vv, v.grad)
    s = nd.array([1.0, -2.0])
    s.attach_grad()
    with autograd.record():
        t = nd.abs(s) + nd.relu(s) + nd.sqrt(nd.abs(s))
    t.backward()
    print(s.grad)
    e = nd.array([[1.0, 2.0], [3.0, 4.0]])
    e.attach_grad()
    with autograd.record():
        k = e[0] * 2 + e[:, 1].sum()
    k.backward()
    print(e.grad)


def script_gluon_dataset_ops(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.data import SimpleDataset, ArrayDataset, DataLoader

    ds = SimpleDataset(list(range(10)))
    print(len(ds.filter(lambda x: x % 3 == 0)), list(ds.filter(lambda x: x % 3 == 0)))
    print([list(ds.shard(3, i)) for i in range(3)])
    print(list(ds.take(4)), list(ds.take(None))[-2:])
    print(list(ds.transform(lambda x: x * 10, lazy=False))[:3])
    arr = ArrayDataset(np.arange(12).reshape(6, 2).astype("float32"), list(range(6)))
    print(arr[2], len(arr))
    t = arr.transform_first(lambda x: x * 2)
    print(t[1])
    t2 = arr.transform(lambda x, y: (x + 1, y * 3))
    print(t2[5])
    for batch in DataLoader(arr, batch_size=4, last_batch="keep"):
        print([b.shape for b in batch], batch[1])
    for batch in DataLoader(arr, batch_size=4, last_batch="discard"):
        print(batch[0])
    loader = DataLoader(arr, batch_size=4, last_batch="rollover")
    for ep in range(2):
        print(ep, [b[1].asnumpy().tolist() for b in loader])

    def my_batchify(items):
        xs = nd.stack(*[nd.array(i[0]) for i in items])
        return xs.sum(axis=1), len(items)

    print([b for b in DataLoader(arr, batch_size=3, batchify_fn=my_batchify)])
    bs = gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3, "keep")
    print(list(bs), len(bs))
    print(list(gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3, "discard")))
    print(list(gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3, "rollover")))
    np.random.seed(3)
    print(list(gluon.data.RandomSampler(6)))
    print(list(DataLoader(SimpleDataset(list(range(6))), batch_size=2, shuffle=True)))
    print(
        list(gluon.contrib.data.IntervalSampler(7, 3)),
        list(gluon.contrib.data.IntervalSampler(7, 3, rollover=False)),
    )
    loader2 = DataLoader(
        arr, batch_sampler=gluon.data.BatchSampler(gluon.data.SequentialSampler(6), 5, "keep")
    )
    print(len(loader2), [b[0].shape for b in loader2])
    try:
        DataLoader(arr, batch_size=2, batch_sampler=bs)
    except Exception as e:
        print(type(e).__name__, e)
    try:
        DataLoader(arr)
    except Exception as e:
        print(type(e).__name__, e)
    try:
        ArrayDataset(np.zeros((3, 2)), np.zeros(4))
    except Exception as e:
        print(type(e).__name__, e)
    ds_tuple = ArrayDataset([1, 2, 3], ["a", "b", "c"])
    print(
        ds_tuple[1],
        list(DataLoader(SimpleDataset([(1, "a"), (2, "b")]), batch_size=2, batchify_fn=lambda x: x)),
    )
    print(list(DataLoader(SimpleDataset([np.array([1, 2]), np.array([3, 4])]), batch_size=2)))
    print(list(DataLoader(SimpleDataset([1.5, 2.5, 3.5]), batch_size=2)))
    print(list(DataLoader(SimpleDataset([(np.ones(2), 1), (np.zeros(2), 0)]), batch_size=2)))
    rec = mx.recordio.MXIndexedRecordIO(tmp + "/r.idx", tmp + "/r.rec", "w")
    for i in range(4):
        rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0), b"x" * i))
    rec.close()
    rds = gluon.data.RecordFileDataset(tmp + "/r.rec")
    print(len(rds), [mx.recordio.unpack(rds[i]) for i in range(4)])


def script_rnn_layers_states(tmp):
    import mxnet as mx
    from mxnet import nd, gluon

    mx.random.seed(9)
    lstm = gluon.rnn.LSTM(3, num_layers=2, layout="NTC", bidirectional=True, input_size=2)
    print(lstm)
    lstm.initialize(mx.init.Uniform(0.2))
    x = nd.arange(12).reshape((2, 3, 2)) / 10
    states = lstm.begin_state(batch_size=2)
    print([s.shape for s in states])
    out, new_states = lstm(x, states)
    print(out.shape, [s.shape for s in new_states])
    print(out[0].asnumpy().round(5))
    print(new_states[1].asnumpy().round(5)[0])
    gru = gluon.rnn.GRU(4, input_size=2)
    gru.initialize(mx.init.Uniform(0.2))
    y = gru(nd.ones((3, 2, 2)))
    print(y.shape, y.asnumpy().round(5)[-1])
    rnn = gluon.rnn.RNN(2, activation="tanh", input_size=2, use_sequence_length=True)
    print(rnn)
    rnn.initialize(mx.init.One())
    o = rnn(nd.ones((3, 2, 2)) * 0.1, sequence_length=nd.array([3, 3]))
    print(o.asnumpy().round(5))
    print(sorted(lstm.collect_params().keys())[:4])
    lstm.hybridize()
    out2, _ = lstm(x, states)
    print((out2 - out).abs().max())
    try:
        lstm(nd.ones((2, 3, 5)), states)
    except Exception as e:
        print(type(e).__name__)
    cell = gluon.rnn.LSTMCell(3, input_size=2)
    cell.initialize(mx.init.Uniform(0.2))
    outs, st = cell.unroll(3, x, layout="NTC", merge_outputs=True)
    print(outs.shape, st[0].asnumpy().round(5))
    print(cell.state_info(2))


def script_image_ops(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import nd

    img = nd.array(np.arange(4 * 6 * 3).reshape(4, 6, 3) % 256, dtype="uint8")
    t = nd.image.to_tensor(img)
    print(t.shape, t.dtype, t[0, 0])
    n = nd.image.normalize(t, mean=(0.5, 0.4, 0.3), std=(0.2, 0.2, 0.2))
    print(n[1, 1])
    print(nd.image.flip_left_right(img)[0, :, 0], nd.image.flip_top_bottom(img)[:, 0, 0])
    print(nd.image.resize(img, size=(3, 2))[:, :, 0])
    print(nd.image.resize(img, size=3, keep_ratio=True).shape)
    print(nd.image.crop(img, 1, 1, 2, 2)[:, :, 1])
    print(nd.image.to_tensor(img.expand_dims(0)).shape)
    fimg = img.astype("float32")
    print(mx.image.resize_short(fimg, 2).shape, mx.image.center_crop(fimg, (4, 2))[1])
    print(mx.image.fixed_crop(fimg, 1, 0, 3, 2)[:, :, 0])
    print(mx.image.color_normalize(fimg[:1, :1], nd.array([1, 2, 3]), nd.array([2, 2, 2])))
    print(mx.image.imresize(img, 3, 2, interp=1)[:, :, 2])
    print(mx.image.fixed_crop(fimg, 0, 0, 4, 4, size=(2, 2), interp=1)[:, :, 0])
    print(nd.image.adjust_lighting(fimg[:2, :2] / 255, alpha=(0.1, 0.2, 0.3)).asnumpy().round(5)[0])
    augs = mx.image.CreateAugmenter(data_shape=(3, 2, 2), resize=3, mean=True, std=True)
    print([type(a).__name__ for a in augs])
    out = fimg
    for a in augs:
        out = a(out)
    print(out.shape, out.asnumpy().round(4)[0])
    print(mx.image.ForceResizeAug((3, 3))(fimg).shape, mx.image.CastAug("float16")(fimg).dtype)
    print(mx.image.CenterCropAug((2, 2))(fimg)[:, :, 0])
    print(mx.image.HueJitterAug(0.0)(fimg[:1, :1]) if False else "")
    import json

    print(json.loads(mx.image.ColorNormalizeAug(nd.array([1, 2, 3]), nd.array([1, 1, 1])).dumps()))
    print(mx.image.SequentialAug([mx.image.ResizeAug(2), mx.image.CenterCropAug((2, 2))]).dumps())


def script_transformer_ops(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import nd

    rs = np.random.RandomState(0)
    T, B, H, D = 3, 2, 2, 4
    qkv = nd.array(rs.uniform(-1, 1, (T, B, 3 * H * D)))
    att = nd.contrib.interleaved_matmul_selfatt_qk(qkv, heads=H)
    print(att.shape)
    print(att.asnumpy().round(5)[0])
    w = nd.softmax(att, axis=-1)
    o = nd.contrib.interleaved_matmul_selfatt_valatt(qkv, w, heads=H)
    print(o.shape, o.asnumpy().round(5)[0, 0])
    q = nd.array(rs.uniform(-1, 1, (T, B, H * D)))
    kv = nd.array(rs.uniform(-1, 1, (4, B, 2 * H * D)))
    a2 = nd.contrib.interleaved_matmul_encdec_qk(q, kv, heads=H)
    print(a2.shape, a2.asnumpy().round(5)[1])
    o2 = nd.contrib.interleaved_matmul_encdec_valatt(kv, nd.softmax(a2), heads=H)
    print(o2.shape, o2.asnumpy().round(5)[2])
    scores = nd.array(rs.uniform(-1, 1, (2, 3, 4)))
    print(
        nd.softmax(scores, length=nd.array([[2, 4, 1], [3, 3, 4]], dtype="int32"), use_length=True, axis=-1)
        .asnumpy()
        .round(5)[0]
    )
    print(
        nd.masked_softmax(scores, nd.array(rs.randint(0, 2, (2, 3, 4)), dtype="bool")).asnumpy().round(5)[1]
        if hasattr(nd, "masked_softmax")
        else ""
    )
    ln = mx.gluon.nn.LayerNorm(in_channels=4)
    ln.initialize()
    print(ln(scores).asnumpy().round(5)[1])
    print(nd.LayerNorm(scores, nd.ones((4,)) * 2, nd.ones((4,)), eps=1e-3).asnumpy().round(5)[0, 0])
    print(nd.contrib.div_sqrt_dim(scores).asnumpy().round(5)[0, 0])
    mask = nd.contrib.arange_like(scores, axis=-1).reshape((1, 1, 4)) < nd.array([[2], [3]]).reshape(
        (2, 1, 1)
    )
    print(mask)
    print(nd.batch_dot(scores, scores, transpose_b=True).asnumpy().round(5)[0])
    pos = nd.arange(4).reshape((4, 1)) / nd.power(10000, nd.arange(0, 4, 2) / 4).reshape((1, 2))
    print(nd.concat(nd.sin(pos), nd.cos(pos), dim=1).asnumpy().round(5))
    emb = mx.gluon.nn.Embedding(10, 4)
    emb.initialize(mx.init.Uniform(0.1))
    print(emb(nd.array([[1, 2], [3, 9]])).shape)
    print(
        nd.contrib.gelu(nd.array([-1, 0, 1]))
        if hasattr(nd.contrib, "gelu")
        else nd.LeakyReLU(nd.array([-1, 0, 1]), act_type="gelu")
    )


def script_rare_layers(tmp):
    import mxnet as mx
    from mxnet import nd
    from mxnet.gluon import nn

    mx.random.seed(21)
    x = nd.arange(2 * 2 * 4 * 4).reshape((2, 2, 4, 4)) / 32
    layers = [
        nn.ReflectionPad2D(1),
        nn.InstanceNorm(in_channels=2),
        nn.GroupNorm(num_groups=2),
        nn.PReLU(),
        nn.ELU(0.5),
        nn.SELU(),
        nn.Swish(),
        nn.GELU(),
        nn.LeakyReLU(0.2),
        nn.Conv2DTranspose(3, 3, strides=2, padding=1, output_padding=1, in_channels=2),
        nn.MaxPool2D(3, 1, 1),
        nn.AvgPool2D(2, ceil_mode=True, count_include_pad=False),
        nn.GlobalMaxPool2D(),
        nn.GlobalAvgPool2D(layout="NCHW"),
        nn.Flatten(),
        nn.Conv2D(2, 3, dilation=2, padding=2, groups=2, in_channels=2, use_bias=False),
        nn.BatchNorm(axis=1, momentum=0.5, center=False, in_channels=2),
        nn.HybridLambda(lambda F, v: F.tanh(v)),
        nn.Lambda("relu"),
        nn.Dropout(0.3, axes=(1,)),
        nn.Activation("softrelu"),
    ]
    for layer in layers:
        print(layer)
        layer.initialize(mx.init.Uniform(0.3))
        y = layer(x)
        print(y.shape, y.asnumpy().sum().round(3), y.asnumpy().ravel()[:3].round(5))
    c1 = nn.Conv1DTranspose(2, 3, in_channels=2)
    c1.initialize(mx.init.One())
    print(c1, c1(nd.ones((1, 2, 3))))
    p3 = nn.MaxPool3D(2)
    print(p3, p3(nd.arange(16).reshape((1, 1, 2, 2, 4))))
    bn = nn.BatchNorm(in_channels=2)
    bn.initialize()
    with mx.autograd.record():
        bn(x)
    print(bn.running_mean.data(), bn.running_var.data())
    print(nn.Embedding(5, 3, sparse_grad=True))
    print(nn.Dense(3, flatten=False, use_bias=False, dtype="float64"))
    print(nn.Conv3D(4, (1, 2, 3), layout="NCDHW"))
    print(nn.SymbolBlock(mx.sym.relu(mx.sym.var("d")), mx.sym.var("d")))


def script_printing_fuzz(tmp):
    import numpy as np
    import mxnet as mx
    from mxnet import nd

    rs = np.random.RandomState(5)
    vals = [
        np.array([1e-8, 1.0]),
        np.array([1e8, 1.0]),
        np.array([np.nan, np.inf, -np.inf, 1.5]),
        np.array([0.1, 0.25]),
        np.array([123456.789]),
        np.array([-0.0, 0.0]),
        np.array([1e-5, 1e5]),
        rs.randn(3, 4) * 1000,
        rs.randn(2, 2) * 1e-3,
        np.arange(1200).reshape(30, 40),
        np.arange(2000),
        rs.randn(2, 3, 4, 5),
        np.zeros((0, 3)),
        np.array(3.5).reshape(1),
    ]
    for v in vals:
        for dt in ["float32", "float16", "float64", "int32", "int8", "uint8", "int64"]:
            try:
                a = nd.array(v, dtype=dt)
            except Exception as e:
                print(dt, type(e).__name__)
                continue
            print(dt, a)
    print(nd.array([True, False], dtype="bool") if False else "")
    print(repr(nd.ones((2, 2), dtype="float16") / 3))
    print(nd.ones((1,)) / 3, (nd.ones((1,)) / 3).asscalar(), nd.array([2.5]).asscalar())
    print(str(nd.array(np.zeros((2, 0)))), nd.array(np.zeros((2, 0))).shape)
    x = nd.arange(10)
    print(x.__str__() == str(x), len(x), x.size, x.ndim, x.shape, bool(nd.array([1])))
    try:
        bool(x)
    except Exception as e:
        print(type(e).__name__, e)
    for i, row in enumerate(nd.arange(6).reshape((3, 2))):
        print(i, row)
    print(nd.array([[1, 2], [3, 4]]).asnumpy().tolist(), nd.array([1.5]).astype("int32"))
    print(float(nd.array([3.25]).asscalar()), int(nd.array([7]).asscalar()))
    print(nd.array([1, 2]) == nd.array([1, 3]), nd.array([1, 2]) != 1, nd.array([1, 2]) > 1.5)
    print(
        nd.array(np.array([1, 2], dtype="int64")).dtype,
        nd.array([1, 2]).dtype,
        nd.array(np.array([1.0])).dtype,
    )
    print(nd.array(np.float64(2.0)) if False else nd.array([np.float64(2.0)]).dtype)
    print(
        mx.nd.full((2, 2), 7, dtype="int32"),
        mx.nd.empty((1, 2)).shape,
        nd.ones_like(x[:2]),
        nd.zeros_like(x[:1]),
    )
    print(nd.arange(0, 1, 0.25), nd.arange(5, 0, -2), nd.arange(3, repeat=2), nd.linspace(0, 1, 3))
    print(nd.eye(2, 3, k=1))


def script_export_varied_net(tmp):
    import json
    import mxnet as mx
    from mxnet import nd, gluon
    from mxnet.gluon import nn

    mx.random.seed(4)
    net = nn.HybridSequential(prefix="m_")
    with net.name_scope():
        net.add(
            nn.Conv2D(4, 3, padding=1, in_channels=1, weight_initializer="ones"),
            nn.BatchNorm(),
            nn.LeakyReLU(0.1),
            nn.MaxPool2D(),
            nn.Dropout(0.2),
            nn.Conv2D(2, 1, use_bias=False, activation="relu", weight_initializer=mx.init.Constant(0.5)),
            nn.Flatten(),
            nn.Dense(3, activation="tanh"),
            nn.PReLU(),
            nn.ELU(),
            nn.Dense(2, flatten=False),
        )
    net.initialize(mx.init.Xavier())
    net.hybridize()
    x = nd.arange(32).reshape((2, 1, 4, 4)) / 32
    y = net(x)
    print(y)
    net.export(tmp + "/net", epoch=7)
    js = json.load(open(tmp + "/net-symbol.json"))
    for n in js["nodes"]:
        print(n["op"], n["name"], json.dumps(n.get("attrs", {}), sort_keys=True), n["inputs"])
    print(js["arg_nodes"], js["node_row_ptr"], js["heads"], js["attrs"])
    params = nd.load(tmp + "/net-0007.params")
    print([(k, v.shape) for k, v in sorted(params.items())])
    sb = gluon.SymbolBlock.imports(tmp + "/net-symbol.json", ["data"], tmp + "/net-0007.params")
    print((sb(x) - y).abs().max())
    sym, arg, aux = mx.model.load_checkpoint(tmp + "/net", 7)
    print(sorted(arg), sorted(aux))
    mod = mx.mod.Module(sym, data_names=["data"], label_names=None)
    mod.bind([("data", (2, 1, 4, 4))], for_training=False)
    mod.set_params(arg, aux)
    mod.forward(mx.io.DataBatch([x]))
    print((mod.get_outputs()[0] - y).abs().max())
    print(sym.get_internals().list_outputs()[:12])
    print(mx.sym.load(tmp + "/net-symbol.json").tojson() == open(tmp + "/net-symbol.json").read())


def script_multi_ctx_training(tmp):
    import mxnet as mx
    from mxnet import nd, gluon, autograd
    from mxnet.gluon import nn

    mx.random.seed(6)
    ctx = [mx.cpu(0), mx.cpu(1)]
    net = nn.Sequential()
    net.add(nn.Dense(5, activation="relu"), nn.Dense(2))
    net.initialize(mx.init.Uniform(0.3), ctx=ctx)
    for kv, uok in [("device", True), ("local", False), ("device", None)]:
        tr = gluon.Trainer(
            net.collect_params(), "adam", {"learning_rate": 0.01}, kvstore=kv, update_on_kvstore=uok
        )
        X = nd.arange(24).reshape((8, 3)) / 24
        Y = nd.array([0, 1, 1, 0, 1, 0, 0, 1])
        lf = gluon.loss.SoftmaxCrossEntropyLoss()
        for step in range(3):
            xs = gluon.utils.split_and_load(X, ctx)
            ys = gluon.utils.split_and_load(Y, ctx)
            with autograd.record():
                losses = [lf(net(a), b) for a, b in zip(xs, ys)]
            for l in losses:
                l.backward()
            tr.step(8)
            print(kv, uok, step, [float(l.mean().asscalar()) for l in losses])
        print(net[1].bias.data(mx.cpu(1)), net[1].bias.list_data()[0].context)
        print(tr._update_on_kvstore, type(tr._kvstore).__name__ if tr._kvstore else None)
    print(net[0].weight.list_grad()[1].context, len(net[0].weight.list_data()))
    try:
        net(nd.ones((1, 3), ctx=mx.cpu(2)))
    except RuntimeError as e:
        print(str(e)[:150])


def script_sparse_linear_classification(tmp):
    import numpy as np
    import mxnet as mx

    rs = np.random.RandomState(8)
    lines = []
    for _ in range(12):
        idx = sorted(rs.choice(10, size=3, replace=False))
        lab = int(rs.randint(0, 2))
        lines.append("%d %s" % (lab, " ".join("%d:%.3f" % (j, rs.uniform(-1, 1)) for j in idx)))
    open(tmp + "/train.libsvm", "w").write("\n".join(lines) + "\n")
    it = mx.io.LibSVMIter(data_libsvm=tmp + "/train.libsvm", data_shape=(10,), batch_size=4)
    print(it.provide_data, it.provide_label)
    b = next(iter(it))
    print(b.data[0].stype, b.data[0].asnumpy().round(3), b.label[0])
    it.reset()
    x = mx.sym.var("data", stype="csr")
    w = mx.sym.var("weight", shape=(10, 2), stype="row_sparse", init=mx.init.Normal(0.1))
    bias = mx.sym.var("bias", shape=(2,))
    dot = mx.sym.sparse.dot(x, w)
    out = mx.sym.broadcast_add(dot, bias)
    net = mx.sym.SoftmaxOutput(out, name="softmax")
    print(net.list_arguments(), net.infer_storage_type() if hasattr(net, "infer_storage_type") else "")
    mx.random.seed(8)
    for opt, params in [
        ("sgd", {"learning_rate": 0.5, "lazy_update": True, "momentum": 0.9}),
        ("adagrad", {"learning_rate": 0.3}),
        ("ftrl", {"learning_rate": 0.3, "lamda1": 0.01}),
        ("adam", {"learning_rate": 0.1, "lazy_update": False}),
    ]:
        mod = mx.mod.Module(net, data_names=["data"], label_names=["softmax_label"])
        mod.bind(it.provide_data, it.provide_label)
        mod.init_params(mx.init.Constant(0.05))
        mod.init_optimizer(optimizer=opt, optimizer_params=params, kvstore=None)
        metric = mx.metric.create(["acc", "ce"])
        for epoch in range(2):
            it.reset()
            metric.reset()
            for batch in it:
                mod.forward_backward(batch)
                mod.update()
                mod.update_metric(metric, batch.label)
            print(opt, epoch, metric.get())
        arg, _ = mod.get_params()
        print(arg["weight"].stype, arg["weight"].asnumpy().round(5)[:3], arg["bias"].asnumpy().round(5))
    pred = mod.predict(it)
    print(pred.shape, pred.asnumpy().round(4)[:2])
    print(mod.score(it, "acc"))


def script_kvstore_api(tmp):
    import mxnet as mx
    from mxnet import nd

    kv = mx.kv.create("local")
    print(kv.type, kv.rank, kv.num_workers)
    kv.init("w", nd.ones((2, 3)))
    kv.init(["3", "5"], [nd.zeros((2,)), nd.ones((2,)) * 2])
    out = nd.zeros((2, 3))
    kv.push("w", [nd.ones((2, 3)) * 2, nd.ones((2, 3)) * 3])
    kv.pull("w", out=out)
    print(out)
    outs = [nd.zeros((2,)), nd.zeros((2,))]
    kv.pull(["3", "5"], out=outs)
    print(outs)
    kv.pushpull("3", nd.ones((2,)) * 7, out=outs[0])
    print(outs[0])
    b = [nd.zeros((2, 2), ctx=mx.cpu(i)) for i in range(2)]
    kv.broadcast("bb", nd.ones((2, 2)) * 4, out=b)
    print(b[1], b[1].context)

    def upd(key, grad, weight):
        print("updater", key, grad.asnumpy().tolist())
        weight[:] = weight - 0.1 * grad

    kv._set_updater(upd)
    kv.push("w", nd.ones((2, 3)))
    kv.pull("w", out=out)
    print(out)
    kv2 = mx.kv.create("device")
    kv2.set_optimizer(mx.optimizer.SGD(learning_rate=0.5, rescale_grad=0.5))
    kv2.init(0, nd.ones((3,)))
    kv2.push(0, [nd.ones((3,), ctx=mx.cpu(0)), nd.ones((3,), ctx=mx.cpu(1)) * 3])
    o = nd.zeros((3,))
    kv2.pull(0, out=o)
    print(o)
    kv2.save_optimizer_states(tmp + "/kv.states")
    kv2.load_optimizer_states(tmp + "/kv.states")
    rsp = nd.sparse.row_sparse_array(([[1.0, 2.0], [3.0, 4.0]], [0, 2]), shape=(4, 2))
    kv.init("r", rsp)
    ro = nd.sparse.zeros("row_sparse", (4, 2))
    kv.row_sparse_pull("r", out=ro, row_ids=nd.array([2, 3]))
    print(ro, ro.indices)
    try:
        kv.init("w", nd.ones((1,)))
    except Exception as e:
        print(type(e).__name__)
    try:
        kv.pull("nokey", out=out)
    except Exception as e:
        print(type(e).__name__)
    try:
        mx.kv.create("foo")
    except Exception as e:
        print(type(e).__name__)
    print(mx.kv.create("local").is_capable("optimizer") if hasattr(kv, "is_capable") else "")


def script_module_multi_device(tmp):
    import numpy as np
    import mxnet as mx

    np.random.seed(5)
    mx.random.seed(5)
    X = np.random.uniform(-1, 1, (16, 6)).astype("float32")
    Y = (X[:, :3].sum(axis=1) > 0).astype("float32")
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=8, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.BatchNorm(net, name="bn1")
    net = mx.sym.FullyConnected(net, num_hidden=2, name="fc2")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    train = mx.io.NDArrayIter(X, Y, batch_size=8)
    mod = mx.mod.Module(net, context=[mx.cpu(0), mx.cpu(1)])
    mod.fit(
        train,
        num_epoch=3,
        optimizer="sgd",
        kvstore="device",
        optimizer_params={"learning_rate": 0.2, "momentum": 0.9, "rescale_grad": 1.0 / 8},
        initializer=mx.init.Xavier(magnitude=2.0),
        eval_metric="acc",
    )
    arg, aux = mod.get_params()
    print(arg["fc2_weight"].asnumpy().round(5))
    print(aux["bn1_moving_mean"].asnumpy().round(5))
    mod.save_optimizer_states(tmp + "/opt.states")
    mod.load_optimizer_states(tmp + "/opt.states")
    train.reset()
    batch = next(train)
    mod.forward(batch, is_train=True)
    mod.backward()
    print([g.shape for g in mod.get_input_grads()] if mod.inputs_need_grad else "no input grads")
    print(mod.get_outputs()[0].asnumpy().round(4))
    mod.reshape([("data", (4, 6))], [("softmax_label", (4,))])
    mod.forward(mx.io.DataBatch([mx.nd.array(X[:4])], [mx.nd.array(Y[:4])]), is_train=False)
    print(mod.get_outputs()[0].shape, mod.data_shapes)
    mod2 = mx.mod.Module(net, context=mx.cpu())
    mod2.bind([("data", (8, 6))], [("softmax_label", (8,))], inputs_need_grad=True)
    mod2.set_params(arg, aux)
    mod2.forward_backward(batch)
    print(mod2.get_input_grads()[0].asnumpy().round(5)[0])
    print(mod.output_names, mod.label_names, mod.symbol.name)
    print(mod.score(mx.io.NDArrayIter(X, Y, batch_size=8), ["acc", "ce"]))


def script_numerics_bits(tmp):
    import hashlib
    import numpy as np
    import mxnet as mx
    from mxnet import nd, gluon, autograd

    def digest(a):
        a = a.asnumpy() if hasattr(a, "asnumpy") else np.asarray(a)
        return "%s %s %s" % (a.shape, a.dtype, hashlib.sha1(a.tobytes()).hexdigest()[:12])

    rs = np.random.RandomState(7)
    # mx.np.einsum (carried in float64 by 1.9.1)
    from mxnet import np as mnp

    a = mnp.array(rs.randn(5, 7).astype("float32"))
    b = mnp.array(rs.randn(7, 3).astype("float32"))
    c = mnp.array(rs.randn(3, 4).astype("float32"))
    for sub, ops in [
        ("ij,jk->ik", (a, b)),
        ("ij->", (a,)),
        ("ij,jk,kl->il", (a, b, c)),
        ("ij,ij->i", (a, a)),
        ("ji", (a,)),
        ("i,j->ij", (a[0], b[0])),
    ]:
        print(sub, digest(mnp.einsum(sub, *ops)))
    print(mnp.einsum("ij,jk->ik", a, b).asnumpy()[0])
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = mnp.einsum("ij,jk->ik", a, b)
    y.backward(mnp.array(rs.randn(5, 3).astype("float32")))
    print("einsum grads", digest(a.grad), digest(b.grad))
    # L2 norms over more than 64 elements (1.9.1's scaled steps)
    for n in [65, 100, 777, 2048, 4096]:
        x = nd.array(rs.randn(n).astype("float32") * 3)
        print(
            n,
            x.norm().asnumpy().view("uint32"),
            nd.norm(x.reshape((1, -1)), keepdims=True).asnumpy().view("uint32"),
        )
    w = nd.array(rs.randn(16, 16).astype("float32"))
    print(nd.norm(w).asscalar(), w.norm().asnumpy().view("uint32"))
    # sparse AdaGrad and standard (non-lazy) Adam with a row_sparse gradient
    N = 50
    wt = rs.randn(N, 3).astype("float32")
    rows = np.arange(0, N, 3)
    g = nd.sparse.row_sparse_array((rs.randn(rows.size, 3).astype("float32"), rows), shape=(N, 3))
    W, H = nd.array(wt), nd.array(rs.rand(N, 3).astype("float32"))
    nd.sparse.adagrad_update(W, g, H, out=W, lr=0.3, epsilon=1e-7, rescale_grad=0.7)
    print("adagrad", digest(W), digest(H))
    W, M, V = nd.array(wt), nd.zeros((N, 3)), nd.array(rs.rand(N, 3).astype("float32"))
    nd.adam_update(W, g, M, V, out=W, lr=0.1, wd=0.01, rescale_grad=0.5, lazy_update=False)
    print("adam std", digest(W), digest(V))
    # LAMB through a Trainer (1.9.1's multi-tensor kernel)
    net = gluon.nn.Dense(6, in_units=20)
    net.initialize()
    net.weight.set_data(nd.array(rs.uniform(-0.3, 0.3, (6, 20))))
    for opt in ["lamb", "adam", "lars"]:
        p = {"learning_rate": 0.05, "wd": 0.01}
        if opt == "lars":
            p["momentum"] = 0.9
        tr = gluon.Trainer(net.collect_params(), opt, p)
        X = nd.array(rs.randn(8, 20).astype("float32"))
        for _ in range(2):
            with autograd.record():
                loss = (net(X) ** 2).mean()
            loss.backward()
            tr.step(8)
        print(opt, digest(net.weight.data()), digest(net.bias.data()))
    # SoftmaxOutput predicting (1.9.1: oneDNN's softmax) and training
    s = nd.array(rs.randn(16, 10).astype("float32") * 2)
    lab = nd.array(rs.randint(0, 10, 16))
    print("predict", digest(nd.SoftmaxOutput(s, lab)))
    with autograd.record():
        y = nd.SoftmaxOutput(s, lab)
    print("train", digest(y))
    print(nd.SoftmaxOutput(s, lab)[0])
    data = mx.sym.var("data")
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(data, num_hidden=4, name="fc"), name="softmax")
    mx.random.seed(7)
    mod = mx.mod.Module(out)
    it = mx.io.NDArrayIter(
        rs.randn(12, 5).astype("float32"), rs.randint(0, 4, 12).astype("float32"), batch_size=4
    )
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params(mx.init.Xavier())
    pred = mod.predict(it)
    print("module predict", digest(pred))
    print(mod.score(it, ["acc", "ce"]))


# ---------------------------------------------------------------------------------------------
# what MXNet 1.9.1 printed

EXPECTED = {}

EXPECTED['script_autograd_misc'] = (
    'None\n'
    '\n'
    '[12. 24. 36.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[ 0.5403023  -0.20807342 -0.24749812]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[-0.84147096 -0.4546487  -0.03528   ]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[0.47000742 0.47000742]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[0.47000742 0.47000742]\n'
    '<NDArray 2 @cpu(0)>\n'
    'MXNetError second backward\n'
    '\n'
    '[4. 8.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'False False\n'
    'True False\n'
    'False False\n'
    'True\n'
    'False\n'
    '\n'
    '[[0. 2. 0. 0. 2. 0.]\n'
    ' [0. 0. 2. 2. 2. 0.]]\n'
    '<NDArray 2x6 @cpu(0)>\n'
    '\n'
    '[[1. 1. 1. 1. 1. 1.]\n'
    ' [1. 1. 1. 1. 1. 1.]]\n'
    '<NDArray 2x6 @cpu(0)>\n'
    '\n'
    '[12.857143]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[[14. 21.]\n'
    ' [24. 35.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[32.]\n'
    '<NDArray 1 @cpu(0)>\n'
    'no grad MXNetError\n'
    '\n'
    '[6.]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[0.]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[ 2.5       -1.3535534]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[[2. 4.]\n'
    ' [0. 2.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
)

EXPECTED['script_bucketing_module'] = (
    "('data',)\n"
    'INFO Epoch[0] Batch [0-2]\tSpeed: 738.17 samples/sec\taccuracy=0.333333\n'
    'INFO Epoch[0] Train-accuracy=0.375000\n'
    'INFO Epoch[0] Time cost=0.063\n'
    'INFO Epoch[1] Batch [0-2]\tSpeed: 4525.82 samples/sec\taccuracy=0.666667\n'
    'INFO Epoch[1] Train-accuracy=0.625000\n'
    'INFO Epoch[1] Time cost=0.002\n'
    "['fc_bias', 'shared_weight'] [[ 0.06465]\n"
    ' [-0.31734]]\n'
    '[3, 5]\n'
    "[('cross-entropy', 0.6525888890028)]\n"
    '(8, 2) [[0.5494 0.4506]\n'
    ' [0.5254 0.4746]\n'
    ' [0.5228 0.4772]]\n'
    "[DataDesc[data,(2, 5),<class 'numpy.float32'>,NCHW]] [('softmax_output', (2, 2))]\n"
    "['bm-0002.params', 'bm-3-symbol.json', 'bm-5-symbol.json', 'bm.buckets']\n"
)

EXPECTED['script_export_varied_net'] = (
    '\n'
    '[[-0.41705975 -0.48096427]\n'
    ' [-0.41740215 -0.4810833 ]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'null data {} []\n'
    'null m_conv0_weight {"__dtype__": "0", "__init__": "ones", "__lr_mult__": "1.0", "__shape__": "(4,'
    ' 1, 3, 3)", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'null m_conv0_bias {"__dtype__": "0", "__init__": "zeros", "__lr_mult__": "1.0", "__shape__": "(4,)'
    '", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'Convolution m_conv0_fwd {"dilate": "(1, 1)", "kernel": "(3, 3)", "layout": "NCHW", "no_bias": "Fal'
    'se", "num_filter": "4", "num_group": "1", "pad": "(1, 1)", "stride": "(1, 1)"} [[0, 0, 0], [1, 0, '
    '0], [2, 0, 0]]\n'
    'null m_batchnorm0_gamma {"__dtype__": "0", "__init__": "ones", "__lr_mult__": "1.0", "__shape__": '
    '"(0,)", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'null m_batchnorm0_beta {"__dtype__": "0", "__init__": "zeros", "__lr_mult__": "1.0", "__shape__": '
    '"(0,)", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'null m_batchnorm0_running_mean {"__dtype__": "0", "__init__": "zeros", "__lr_mult__": "1.0", "__sh'
    'ape__": "(0,)", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'null m_batchnorm0_running_var {"__dtype__": "0", "__init__": "ones", "__lr_mult__": "1.0", "__shap'
    'e__": "(0,)", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'BatchNorm m_batchnorm0_fwd {"axis": "1", "eps": "1e-05", "fix_gamma": "False", "momentum": "0.9", '
    '"use_global_stats": "False"} [[3, 0, 0], [4, 0, 0], [5, 0, 0], [6, 0, 1], [7, 0, 1]]\n'
    'LeakyReLU m_leakyrelu0_fwd {"act_type": "leaky", "slope": "0.1"} [[8, 0, 0]]\n'
    'Pooling m_pool0_fwd {"global_pool": "False", "kernel": "(2, 2)", "layout": "NCHW", "pad": "(0, 0)"'
    ', "pool_type": "max", "pooling_convention": "valid", "stride": "(2, 2)"} [[9, 0, 0]]\n'
    'Dropout m_dropout0_fwd {"axes": "()", "cudnn_off": "False", "p": "0.2"} [[10, 0, 0]]\n'
    'null m_conv1_weight {"__dtype__": "0", "__init__": "[\\"constant\\", {\\"value\\": 0.5}]", "__lr_m'
    'ult__": "1.0", "__shape__": "(2, 0, 1, 1)", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'Convolution m_conv1_fwd {"dilate": "(1, 1)", "kernel": "(1, 1)", "layout": "NCHW", "no_bias": "Tru'
    'e", "num_filter": "2", "num_group": "1", "pad": "(0, 0)", "stride": "(1, 1)"} [[11, 0, 0], [12, 0,'
    ' 0]]\n'
    'Activation m_conv1_relu_fwd {"act_type": "relu"} [[13, 0, 0]]\n'
    'Flatten m_flatten0_flatten0 {} [[14, 0, 0]]\n'
    'null m_dense0_weight {"__dtype__": "0", "__lr_mult__": "1.0", "__shape__": "(3, 0)", "__storage_ty'
    'pe__": "0", "__wd_mult__": "1.0"} []\n'
    'null m_dense0_bias {"__dtype__": "0", "__init__": "zeros", "__lr_mult__": "1.0", "__shape__": "(3,'
    ')", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'FullyConnected m_dense0_fwd {"flatten": "True", "no_bias": "False", "num_hidden": "3"} [[15, 0, 0]'
    ', [16, 0, 0], [17, 0, 0]]\n'
    'Activation m_dense0_tanh_fwd {"act_type": "tanh"} [[18, 0, 0]]\n'
    'null m_prelu0_alpha {"__dtype__": "0", "__init__": "[\\"constant\\", {\\"value\\": 0.25}]", "__lr_'
    'mult__": "1.0", "__shape__": "(1,)", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'LeakyReLU m_prelu0_fwd {"act_type": "prelu"} [[19, 0, 0], [20, 0, 0]]\n'
    'LeakyReLU m_elu0_leakyrelu0 {"act_type": "elu", "slope": "1.0"} [[21, 0, 0]]\n'
    'null m_dense1_weight {"__dtype__": "0", "__lr_mult__": "1.0", "__shape__": "(2, 0)", "__storage_ty'
    'pe__": "0", "__wd_mult__": "1.0"} []\n'
    'null m_dense1_bias {"__dtype__": "0", "__init__": "zeros", "__lr_mult__": "1.0", "__shape__": "(2,'
    ')", "__storage_type__": "0", "__wd_mult__": "1.0"} []\n'
    'FullyConnected m_dense1_fwd {"flatten": "False", "no_bias": "False", "num_hidden": "2"} [[22, 0, 0'
    '], [23, 0, 0], [24, 0, 0]]\n'
    '[0, 1, 2, 4, 5, 6, 7, 12, 16, 17, 20, 23, 24] [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 16, 17, 18, '
    "19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30] [[25, 0, 0]] {'mxnet_version': ['int', 10901]}\n"
    "[('arg:m_batchnorm0_beta', (4,)), ('arg:m_batchnorm0_gamma', (4,)), ('arg:m_conv0_bias', (4,)), ('"
    "arg:m_conv0_weight', (4, 1, 3, 3)), ('arg:m_conv1_weight', (2, 4, 1, 1)), ('arg:m_dense0_bias', (3"
    ",)), ('arg:m_dense0_weight', (3, 8)), ('arg:m_dense1_bias', (2,)), ('arg:m_dense1_weight', (2, 3))"
    ", ('arg:m_prelu0_alpha', (1,)), ('aux:m_batchnorm0_running_mean', (4,)), ('aux:m_batchnorm0_runnin"
    "g_var', (4,))]\n"
    '\n'
    '[0.]\n'
    '<NDArray 1 @cpu(0)>\n'
    "['m_batchnorm0_beta', 'm_batchnorm0_gamma', 'm_conv0_bias', 'm_conv0_weight', 'm_conv1_weight', 'm"
    "_dense0_bias', 'm_dense0_weight', 'm_dense1_bias', 'm_dense1_weight', 'm_prelu0_alpha'] ['m_batchn"
    "orm0_running_mean', 'm_batchnorm0_running_var']\n"
    '\n'
    '[0.]\n'
    '<NDArray 1 @cpu(0)>\n'
    "['data', 'm_conv0_weight', 'm_conv0_bias', 'm_conv0_fwd_output', 'm_batchnorm0_gamma', 'm_batchnor"
    "m0_beta', 'm_batchnorm0_running_mean', 'm_batchnorm0_running_var', 'm_batchnorm0_fwd_output', 'm_l"
    "eakyrelu0_fwd_output', 'm_pool0_fwd_output', 'm_dropout0_fwd_output']\n"
    'True\n'
)

EXPECTED['script_feedforward_legacy'] = (
    'INFO Start training with [cpu(0)]\n'
    'INFO Epoch[0] Resetting Data Iterator\n'
    'INFO Epoch[0] Time cost=0.038\n'
    'INFO Epoch[1] Resetting Data Iterator\n'
    'INFO Epoch[1] Time cost=0.002\n'
    'INFO Epoch[2] Resetting Data Iterator\n'
    'INFO Epoch[2] Time cost=0.001\n'
    '[[0.2637 0.7363]\n'
    ' [0.0802 0.9198]\n'
    ' [0.2483 0.7517]\n'
    ' [0.4921 0.5079]\n'
    ' [0.1209 0.8791]\n'
    ' [0.1914 0.8086]]\n'
    '0.95\n'
    'INFO Saved checkpoint to "<tmp>/ff-0003.params"\n'
    "['fc1_bias', 'fc1_weight', 'fc2_bias', 'fc2_weight'] 3\n"
    '[[0.2637 0.7363]\n'
    ' [0.0802 0.9198]]\n'
)

EXPECTED['script_gluon_dataset_ops'] = (
    '4 [0, 3, 6, 9]\n'
    '[[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]\n'
    '[0, 1, 2, 3] [8, 9]\n'
    '[0, 10, 20]\n'
    '(array([4., 5.], dtype=float32), 2) 6\n'
    '(array([4., 6.], dtype=float32), 1)\n'
    '(array([11., 12.], dtype=float32), 15)\n'
    '[(4, 2), (4,)] \n'
    '[0 1 2 3]\n'
    '<NDArray 4 @cpu(0)>\n'
    '[(2, 2), (2,)] \n'
    '[4 5]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[[0. 1.]\n'
    ' [2. 3.]\n'
    ' [4. 5.]\n'
    ' [6. 7.]]\n'
    '<NDArray 4x2 @cpu(0)>\n'
    '0 [[0, 1, 2, 3]]\n'
    '1 [[4, 5, 0, 1], [2, 3, 4, 5]]\n'
    '[(\n'
    '[1. 5. 9.]\n'
    '<NDArray 3 @cpu(0)>, 3), (\n'
    '[13. 17. 21.]\n'
    '<NDArray 3 @cpu(0)>, 3)]\n'
    '[[0, 1, 2], [3, 4, 5], [6]] 3\n'
    '[[0, 1, 2], [3, 4, 5]]\n'
    '[[0, 1, 2], [3, 4, 5]]\n'
    '[3, 5, 4, 1, 0, 2]\n'
    '[\n'
    '[5 4]\n'
    '<NDArray 2 @cpu(0)>, \n'
    '[1 2]\n'
    '<NDArray 2 @cpu(0)>, \n'
    '[3 0]\n'
    '<NDArray 2 @cpu(0)>]\n'
    '[0, 3, 6, 1, 4, 2, 5] [0, 3, 6]\n'
    '2 [(5, 2), (1, 2)]\n'
    'ValueError batch_size, shuffle, sampler and last_batch must not be specified if batch_sampler is s'
    'pecified.\n'
    'ValueError batch_size must be specified unless batch_sampler is specified\n'
    'AssertionError All arrays must have the same length; array[0] has length 3 while array[2] has 4.\n'
    "(2, 'b') [[(1, 'a'), (2, 'b')]]\n"
    '[\n'
    '[[1 2]\n'
    ' [3 4]]\n'
    '<NDArray 2x2 @cpu(0)>]\n'
    '[\n'
    '[1.5 2.5]\n'
    '<NDArray 2 @cpu(0)>, \n'
    '[3.5]\n'
    '<NDArray 1 @cpu(0)>]\n'
    '[[\n'
    '[[1. 1.]\n'
    ' [0. 0.]]\n'
    '<NDArray 2x2 @cpu(0)>, \n'
    '[1 0]\n'
    '<NDArray 2 @cpu(0)>]]\n'
    "4 [(HEADER(flag=0, label=0.0, id=0, id2=0), b''), (HEADER(flag=0, label=1.0, id=1, id2=0), b'x'), "
    "(HEADER(flag=0, label=2.0, id=2, id2=0), b'xx'), (HEADER(flag=0, label=3.0, id=3, id2=0), b'xxx')]"
    '\n'
)

EXPECTED['script_image_ops'] = (
    "(3, 4, 6) <class 'numpy.float32'> \n"
    '[0.         0.01176471 0.02352941 0.03529412 0.04705882 0.05882353]\n'
    '<NDArray 6 @cpu(0)>\n'
    '\n'
    '[-1.6274511 -1.5686275 -1.509804  -1.4509804 -1.392157  -1.3333333]\n'
    '<NDArray 6 @cpu(0)>\n'
    '\n'
    '[15 12  9  6  3  0]\n'
    '<NDArray 6 @cpu(0)> \n'
    '[54 36 18  0]\n'
    '<NDArray 4 @cpu(0)>\n'
    '\n'
    '[[11 17 23]\n'
    ' [47 53 59]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '(3, 4, 3)\n'
    '\n'
    '[[22 25]\n'
    ' [40 43]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '(1, 3, 4, 6)\n'
    '(2, 3, 3) (1, 1, 4, 2)\n'
    '\n'
    '[[ 3.  6.  9.]\n'
    ' [21. 24. 27.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[[[-0.5 -0.5 -0.5]]]\n'
    '<NDArray 1x1x3 @cpu(0)>\n'
    '\n'
    '[[13 19 25]\n'
    ' [49 55 61]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[[10.375 16.5  ]\n'
    ' [46.5   52.5  ]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '[[-2.32168 -3.50773 -3.76003]\n'
    ' [-2.30795 -3.49009 -3.73846]]\n'
    "['ResizeAug', 'CenterCropAug', 'CastAug', 'ColorNormalizeAug']\n"
    '(2, 2, 3) [[-1.9913 -1.8882 -1.6396]\n'
    ' [-1.9097 -1.8053 -1.5576]]\n'
    "(3, 3, 3) <class 'numpy.float16'>\n"
    '\n'
    '[[24. 27.]\n'
    ' [42. 45.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    "['colornormalizeaug', {'mean': [1.0, 2.0, 3.0], 'std': [1.0, 1.0, 1.0]}]\n"
    '[\'sequentialaug\', [\'["resizeaug", {"size": 2, "interp": 2}]\', \'["centercropaug", {"size": [2,'
    ' 2], "interp": 2}]\']]\n'
)

EXPECTED['script_initializer_variants'] = (
    '["xavier", {"rnd_type": "gaussian", "factor_type": "in", "magnitude": 2}]\n'
    'Xavier [0.5102099776268005, 1.6756000518798828, -0.11282999813556671, 0.6972299814224243, 0.296770'
    '00641822815, 0.06982000172138214] [11.8123]\n'
    '["xavier", {"rnd_type": "uniform", "factor_type": "out", "magnitude": 3}]\n'
    'Xavier [0.46911001205444336, 0.609470009803772, -0.3483799993991852, -0.5022600293159485, 0.685880'
    '0053596497, -0.431410014629364] [11.1031]\n'
    '["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 3}]\n'
    'Xavier [0.03894999995827675, 0.32705000042915344, 0.09247999638319016, 0.49184998869895935, -0.238'
    '33000659942627, -0.3596799969673157] [7.8946]\n'
    '["msraprelu", {"factor_type": "in", "slope": 0.1}]\n'
    'MSRAPrelu [-0.6232200264930725, -0.32763001322746277, -0.48642998933792114, 0.395689994096756, -0.'
    '4583199918270111, 0.9312400221824646] [12.1587]\n'
    '["msraprelu", {"factor_type": "avg", "slope": 0.25}]\n'
    'MSRAPrelu [-0.7347400188446045, 0.6571400165557861, -0.005009999964386225, 0.15460999310016632, 1.'
    '0957499742507935, -0.733680009841919] [13.5778]\n'
    '["orthogonal", {"scale": 1.2, "rand_type": "normal"}]\n'
    'Orthogonal [-0.2067600041627884, -0.6524500250816345, 0.2641499936580658, -0.6455699801445007, 0.5'
    '974799990653992, 0.3578200042247772] [9.9164]\n'
    '["orthogonal", {"scale": 1.414, "rand_type": "normal"}]\n'
    'Orthogonal [0.14765000343322754, 0.7582499980926514, 0.20864999294281006, 0.8867300152778625, 0.75'
    '04000067710876, -0.09864000231027603] [10.9194]\n'
    '["normal", {"sigma": 0.05}]\n'
    'Normal [-0.018640000373125076, 0.059369999915361404, 0.005280000157654285, -0.10620000213384628, -'
    '0.02071000076830387, -0.025100000202655792] [0.9408]\n'
    '["uniform", {"scale": 0.2}]\n'
    'Uniform [-0.09392999857664108, -0.10950999706983566, -0.08699999749660492, -0.10644999891519547, 0'
    '.08556000143289566, 0.003019999945536256] [2.4157]\n'
    '["constant", {"value": 0.3}]\n'
    'Constant [0.30000001192092896, 0.30000001192092896, 0.30000001192092896, 0.30000001192092896, 0.30'
    '000001192092896, 0.30000001192092896] [7.2]\n'
    '["one", {}]\n'
    'One [1.0, 1.0, 1.0, 1.0, 1.0, 1.0] [24.]\n'
    '["zero", {}]\n'
    'Zero [0.0, 0.0, 0.0, 0.0, 0.0, 0.0] [0.]\n'
    '["lstmbias", {"forget_bias": 2.0}]\n'
    'LSTMBias [0.0, 0.0, 0.0, 0.0, 0.0, 0.0] [12.]\n'
    'fc_bias [0. 0. 0.]\n'
    'bn_gamma [1. 1. 1.]\n'
    'bn_beta [0. 0. 0.]\n'
    'bn_moving_mean [0. 0. 0.]\n'
    'bn_moving_var [1. 1. 1.]\n'
    'conv_weight [-0.00075 -0.07221 -0.05133]\n'
    'ValueError Unknown initialization pattern for foo_bar. Default initialization is now limited to "w'
    'eight", "bias", "gamma" (1.0), and "beta" (0.0).Please use mx.sym.Variable(init=mx.init.*) to set '
    'initialization pattern\n'
    'w {\'__init__\': \'["constant", {"value": 4}]\'} \n'
    '[[4. 4.]\n'
    ' [4. 4.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[[[[0.0625 0.1875 0.1875 0.0625]\n'
    '   [0.1875 0.5625 0.5625 0.1875]\n'
    '   [0.1875 0.5625 0.5625 0.1875]\n'
    '   [0.0625 0.1875 0.1875 0.0625]]]]\n'
    '<NDArray 1x1x4x4 @cpu(0)>\n'
    '\n'
    '[[ 0.04236484 -0.03074846  0.0426265 ]\n'
    ' [-0.26529425  0.18310353  0.24364486]\n'
    ' [ 0.22980335 -0.24501242  0.06017429]]\n'
    '<NDArray 3x3 @cpu(0)>\n'
    "UserWarning Parameter 'dense0_weight' is already initialized, ignoring. Set force_reinit=True to r"
    'e-initialize.\n'
    "UserWarning Parameter 'dense0_bias' is already initialized, ignoring. Set force_reinit=True to re-"
    'initialize.\n'
    "UserWarning Parameter 'dense0_weight' is already initialized, ignoring. Set force_reinit=True to r"
    'e-initialize.\n'
    '\n'
    '[[1. 1. 1.]\n'
    ' [1. 1. 1.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[[2. 2. 2.]\n'
    ' [2. 2. 2.]]\n'
    '<NDArray 2x3 @cpu(0)> \n'
    '[0. 0.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[[1. 2. 3.]\n'
    ' [4. 5. 6.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[[2.5 2.5 2.5]]\n'
    '<NDArray 1x3 @cpu(0)>\n'
    'ones Constant\n'
    '[[-0.43951 -1.34396]\n'
    ' [-1.34396  0.43951]]\n'
    'ValueError Unknown random type\n'
    'ValueError Xavier initializer cannot be applied to vector x_weight. It requires at least 2D.\n'
    '["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 3}] ["zero", {}]\n'
    'Mixed\n'
)

EXPECTED['script_kvstore_api'] = (
    'local 0 1\n'
    '\n'
    '[[5. 5. 5.]\n'
    ' [5. 5. 5.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '[\n'
    '[0. 0.]\n'
    '<NDArray 2 @cpu(0)>, \n'
    '[2. 2.]\n'
    '<NDArray 2 @cpu(0)>]\n'
    '\n'
    '[7. 7.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[[4. 4.]\n'
    ' [4. 4.]]\n'
    '<NDArray 2x2 @cpu(1)> cpu(1)\n'
    "updater b'w' [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]\n"
    '\n'
    '[[4.9 4.9 4.9]\n'
    ' [4.9 4.9 4.9]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[0. 0. 0.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 4x2 @cpu(0)> \n'
    '[2 3]\n'
    '<NDArray 2 @cpu(0)>\n'
    'MXNetError\n'
    'MXNetError\n'
    'True\n'
)

EXPECTED['script_module_lr_mult_and_callbacks'] = (
    'learning rate from ``lr_scheduler`` has been overwritten by ``learning_rate`` in optimizer.\n'
    '{} {}\n'
    'WARNING Already bound, ignoring bind()\n'
    'WARNING optimizer already initialized, ignoring...\n'
    'INFO [--------------------------------------------------------------------------------] 0%\r\n'
    'INFO [===========================-----------------------------------------------------] 34%\r\n'
    'INFO [=====================================================---------------------------] 67%\r\n'
    'INFO Epoch[0] Train-accuracy=0.666667\n'
    'INFO Epoch[0] Train-cross-entropy=0.605798\n'
    'INFO Epoch[0] Time cost=0.064\n'
    'INFO Epoch[0] Validation-accuracy=0.750000\n'
    'INFO Epoch[0] Validation-cross-entropy=0.513955\n'
    'INFO Epoch[0] Validation-accuracy=0.750000\n'
    'INFO Epoch[0] Validation-cross-entropy=0.513955\n'
    'INFO Update[4]: Change learning rate to 1.00000e-01\n'
    'INFO [--------------------------------------------------------------------------------] 0%\r\n'
    'INFO [===========================-----------------------------------------------------] 34%\r\n'
    'INFO [=====================================================---------------------------] 67%\r\n'
    'INFO Epoch[1] Train-accuracy=0.833333\n'
    'INFO Epoch[1] Train-cross-entropy=0.435843\n'
    'INFO Epoch[1] Time cost=0.001\n'
    'INFO Saved checkpoint to "<tmp>/m-0002.params"\n'
    'INFO Epoch[1] Validation-accuracy=0.750000\n'
    'INFO Epoch[1] Validation-cross-entropy=0.471678\n'
    'INFO Epoch[1] Validation-accuracy=0.750000\n'
    'INFO Epoch[1] Validation-cross-entropy=0.471678\n'
    'INFO Update[7]: Change learning rate to 5.00000e-02\n'
    'INFO [--------------------------------------------------------------------------------] 0%\r\n'
    'INFO [===========================-----------------------------------------------------] 34%\r\n'
    'INFO [=====================================================---------------------------] 67%\r\n'
    'INFO Epoch[2] Train-accuracy=0.833333\n'
    'INFO Epoch[2] Train-cross-entropy=0.366972\n'
    'INFO Epoch[2] Time cost=0.005\n'
    'INFO Epoch[2] Validation-accuracy=0.750000\n'
    'INFO Epoch[2] Validation-cross-entropy=0.402172\n'
    'INFO Epoch[2] Validation-accuracy=0.750000\n'
    'INFO Epoch[2] Validation-cross-entropy=0.402172\n'
    'False\n'
    '[[ 0.2961  -0.21445 -0.28732 -0.62983]\n'
    ' [-0.27944 -0.27968  0.34812  0.4535 ]] [ 0.92264 -0.92264]\n'
    '9 0.05 0.05\n'
    "['m-0002.params', 'm-symbol.json']\n"
    "[('accuracy', 0.75)]\n"
    'accuracy 0.75\n'
    'top_k_accuracy_2 1.0\n'
)

EXPECTED['script_module_multi_device'] = (
    'INFO Epoch[0] Train-accuracy=0.812500\n'
    'INFO Epoch[0] Time cost=0.034\n'
    'INFO Epoch[1] Train-accuracy=0.937500\n'
    'INFO Epoch[1] Time cost=0.002\n'
    'INFO Epoch[2] Train-accuracy=0.937500\n'
    'INFO Epoch[2] Time cost=0.003\n'
    '[[-0.07443  0.4303   0.367   -0.74389 -0.25877 -0.37675  0.03526 -0.06952]\n'
    ' [ 0.35141  0.70006  0.43022  0.69832  0.78729  0.66502  0.49579  0.48683]]\n'
    '[0.13257 0.03383 0.05208 0.09532 0.067   0.0432  0.04198 0.22086]\n'
    'no input grads\n'
    '[[9.959e-01 4.100e-03]\n'
    ' [6.660e-02 9.334e-01]\n'
    ' [9.079e-01 9.210e-02]\n'
    ' [1.191e-01 8.809e-01]\n'
    ' [9.642e-01 3.580e-02]\n'
    ' [9.833e-01 1.670e-02]\n'
    ' [9.807e-01 1.930e-02]\n'
    ' [3.000e-04 9.997e-01]]\n'
    "(4, 2) [DataDesc[data,(4, 6),<class 'numpy.float32'>,NCHW]]\n"
    '[-0.00604 -0.00371 -0.00297 -0.00157 -0.0014   0.0028 ]\n'
    "['softmax_output'] ['softmax_label'] softmax\n"
    "[('accuracy', 0.9375), ('cross-entropy', 0.2963644228875637)]\n"
)

EXPECTED['script_multi_ctx_training'] = (
    'device True 0 [0.6931111812591553, 0.6933421492576599]\n'
    'device True 1 [0.6928449273109436, 0.6931590437889099]\n'
    'device True 2 [0.6927621960639954, 0.6931625008583069]\n'
    '\n'
    '[ 0.01630838 -0.01631328]\n'
    '<NDArray 2 @cpu(1)> cpu(0)\n'
    'True KVStore\n'
    'local False 0 [0.6926993727684021, 0.6931719779968262]\n'
    'local False 1 [0.6925130486488342, 0.693176805973053]\n'
    'local False 2 [0.6923235654830933, 0.6932294368743896]\n'
    '\n'
    '[ 0.00170148 -0.00171275]\n'
    '<NDArray 2 @cpu(1)> cpu(0)\n'
    'False KVStore\n'
    'device None 0 [0.6921699047088623, 0.6932001709938049]\n'
    'device None 1 [0.6923739910125732, 0.6931549310684204]\n'
    'device None 2 [0.6920260787010193, 0.6931517124176025]\n'
    '\n'
    '[ 0.00509489 -0.00511419]\n'
    '<NDArray 2 @cpu(1)> cpu(0)\n'
    'True KVStore\n'
    'cpu(1) 2\n'
    "Parameter 'dense0_weight' was not initialized on context cpu(2). It was only initialized on [cpu(0"
    '), cpu(1)].\n'
)

EXPECTED['script_nd_misc_ops'] = (
    '\n'
    '[[ 5. 16.]\n'
    ' [ 6. 18.]\n'
    ' [ 7. 20.]\n'
    ' [15. 32.]\n'
    ' [18. 36.]\n'
    ' [21. 40.]]\n'
    '<NDArray 6x2 @cpu(0)>\n'
    '[\n'
    '[3 0 1 1]\n'
    '<NDArray 4 @cpu(0)>, \n'
    '[0. 1. 2. 3. 4.]\n'
    '<NDArray 5 @cpu(0)>]\n'
    '\n'
    '[[1. 1.]\n'
    ' [1. 3.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[5. 7.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[[[[ 0.  4.  1.  5.]\n'
    '   [ 8. 12.  9. 13.]\n'
    '   [ 2.  6.  3.  7.]\n'
    '   [10. 14. 11. 15.]]]]\n'
    '<NDArray 1x1x4x4 @cpu(0)>\n'
    '(1, 4, 2, 2)\n'
    '\n'
    '[2.        5.3333335]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[0.6666667 1.5555555]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[[0. 1. 2.]\n'
    ' [4. 5. 6.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[[1. 1. 1.]\n'
    ' [2. 2. 2.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '\n'
    '[1 4 2 2]\n'
    '<NDArray 4 @cpu(0)> \n'
    '[16]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[1. 4.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[0. 1. 0.]\n'
    ' [0. 0. 2.]\n'
    ' [0. 0. 0.]]\n'
    '<NDArray 3x3 @cpu(0)>\n'
    '\n'
    '[[0. 1. 2.]\n'
    ' [3. 4. 5.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    '[\n'
    '[0. 1. 2.]\n'
    '<NDArray 3 @cpu(0)>, \n'
    '[3. 4. 5.]\n'
    '<NDArray 3 @cpu(0)>]\n'
    '[\n'
    '[[0. 1.]]\n'
    '<NDArray 1x2 @cpu(0)>, \n'
    '[[2. 3.]]\n'
    '<NDArray 1x2 @cpu(0)>, \n'
    '[[4. 5.]]\n'
    '<NDArray 1x2 @cpu(0)>]\n'
    '\n'
    '[[[[-1. -1. -1. -1.]\n'
    '   [-1.  0.  1. -1.]\n'
    '   [-1.  2.  3. -1.]\n'
    '   [-1. -1. -1. -1.]]]]\n'
    '<NDArray 1x1x4x4 @cpu(0)>\n'
    '\n'
    '[[[[0. 1. 1.]\n'
    '   [0. 1. 1.]\n'
    '   [2. 3. 3.]]]]\n'
    '<NDArray 1x1x3x3 @cpu(0)>\n'
    '\n'
    '[[1. 2. 1. 2.]\n'
    ' [1. 2. 1. 2.]]\n'
    '<NDArray 2x4 @cpu(0)> \n'
    '[1. 1. 2. 2.]\n'
    '<NDArray 4 @cpu(0)>\n'
    '\n'
    '[[1. 0.]\n'
    ' [3. 2.]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '[2. 1. 0.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[3. 2. 1.]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[[1.]\n'
    ' [1.]]\n'
    '<NDArray 2x1 @cpu(0)>\n'
    '\n'
    '[0 0 1 1 2 2 3]\n'
    '<NDArray 7 @cpu(0)> \n'
    '[0 1 2 0 1 2 0]\n'
    '<NDArray 7 @cpu(0)>\n'
    '\n'
    '[2 4 6]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[ 1 -1  2]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[ 1.  2. -1.  3.]\n'
    '<NDArray 4 @cpu(0)>\n'
    '\n'
    '[ 0.  1. -1.  2.]\n'
    '<NDArray 4 @cpu(0)> \n'
    '[ 1. -1.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[1. 1. 2. 3. 3.]\n'
    '<NDArray 5 @cpu(0)> \n'
    '[-1.  0.  1.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[1. 5.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[0.6 0.8]]\n'
    '<NDArray 1x2 @cpu(0)>\n'
    '[\n'
    '[[3. 2.]\n'
    ' [5. 4.]]\n'
    '<NDArray 2x2 @cpu(0)>, \n'
    '[[0. 2.]\n'
    ' [1. 2.]]\n'
    '<NDArray 2x2 @cpu(0)>]\n'
    '\n'
    '[2. 3.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[44]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[255]\n'
    '<NDArray 1 @cpu(0)>\n'
    '(2, 2, 2) (4, 2) \n'
    '[[1. 2. 1. 2.]\n'
    ' [3. 4. 3. 4.]]\n'
    '<NDArray 2x4 @cpu(0)>\n'
    '(1, 2, 2) (2,) \n'
    '[[1. 3.]\n'
    ' [2. 4.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '(3, 2, 1) (2, 1, 3)\n'
    '\n'
    '[1.5   0.125 0.125 1.5  ]\n'
    '<NDArray 4 @cpu(0)> \n'
    '[0.5204999]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[0.47693628]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[0. 1.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[-0.5   0.75]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[0.  0.5 0.7]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[-2.4076037  -1.4076039  -0.40760383]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[0.66524094 0.24472848 0.09003057]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[[0.37754068 0.62245935]\n'
    ' [0.26894143 0.7310586 ]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '\n'
    '[0. 1. 2.]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[[1. 1.]\n'
    ' [0. 0.]\n'
    ' [1. 1.]]\n'
    '<NDArray 3x2 @cpu(0)>\n'
    '\n'
    '[[0. 1.]\n'
    ' [4. 5.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[[0.5 0.5 0.5 0.5]\n'
    ' [0.5 0.5 0.5 0.5]]\n'
    '<NDArray 2x4 @cpu(0)> \n'
    '1\n'
    '<NDArray  @cpu(0)>\n'
    '(2, 2, 1) \n'
    '[[ 5. 11.]\n'
    ' [11. 25.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[1. 4.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[2. 0. 1.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[[-1.  5. -1.]\n'
    ' [ 5. -1. -1.]\n'
    ' [-1. -1. -1.]]\n'
    '<NDArray 3x3 @cpu(0)>\n'
    '\n'
    '[3. 7.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[24.]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[1.]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[3. 4.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[1.]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[[1.5]\n'
    ' [3.5]]\n'
    '<NDArray 2x1 @cpu(0)> \n'
    '[5.477226]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[1. 0.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[2.5 2.5]\n'
    ' [3.  4. ]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '[[0. 2.]\n'
    ' [3. 0.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[[ 1.  4.]\n'
    ' [ 9. 16.]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '[[1.        1.4142135]\n'
    ' [1.7320508 2.       ]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '[[ 2.  4.]\n'
    ' [ 8. 16.]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
)

EXPECTED['script_np_npx_basics'] = (
    'INFO NumPy array semantics has been activated in your code. This allows you to use operators from '
    'MXNet NumPy and NumPy Extension modules as well as MXNet NumPy `ndarray`s.\n'
    'INFO NumPy-shape semantics has been activated in your code. This is required for creating and mani'
    'pulating scalar and zero-size tensors, which were not supported in MXNet before, as in the officia'
    'l NumPy library. Please DO NOT manually deactivate this semantics while using `mxnet.numpy` and `m'
    'xnet.numpy_extension` modules.\n'
    '[[0.82909364 0.7478349  0.55818135 0.5657354 ]\n'
    ' [0.63112146 0.9964986  0.7411964  0.54220843]\n'
    ' [0.09796188 0.37050414 0.06104451 0.2780535 ]]\n'
    'float32 (4, 2) cpu(0)\n'
    '[8 5 4 1 3]\n'
    '[[-1.3786085   0.82504106]\n'
    ' [-1.772613    0.4302257 ]\n'
    ' [-0.35690212  0.05011014]]\n'
    '[0. 4. 8.]\n'
    '6.419434\n'
    '[[ 0.6 -0.2]\n'
    ' [-0.2  0.4]]\n'
    '3.8729835 [2.236068  3.1622777] 4.0\n'
    '[3.618 1.382]\n'
    '5.0\n'
    '[ 6.  7.  8.  9. 10. 11.]\n'
    '[[4. 5. 6. 7.]\n'
    ' [0. 1. 2. 3.]\n'
    ' [4. 5. 6. 7.]]\n'
    '[[-1.  1. -1.  3.]\n'
    ' [-1.  5. -1.  7.]\n'
    ' [-1.  9. -1. 11.]]\n'
    'float32 float32 float32 float32\n'
    '[[1. 0. 3.]\n'
    ' [0. 5. 6.]]\n'
    '[[1.1849965e-01 5.8997497e-03 8.7560058e-01]\n'
    ' [3.3188910e-05 2.6893252e-01 7.3103428e-01]]\n'
    '[[9.9330717e-01 9.1105123e-04 4.7425874e-02]\n'
    ' [6.6928510e-03 9.9908900e-01 9.5257413e-01]]\n'
    '[[ -2.132842    -5.132842    -0.13284211]\n'
    ' [-10.313293    -1.313293    -0.313293  ]]\n'
    '[[0.7310586  0.11920292 0.95257413]\n'
    ' [0.01798621 0.9933072  0.9975274 ]]\n'
    '[[1. 0. 0.]\n'
    ' [0. 0. 1.]\n'
    ' [0. 1. 0.]]\n'
    '[ 3. -4.]\n'
    '[[2. 0.]\n'
    ' [2. 1.]]\n'
    '[[-2.  1.]\n'
    ' [-4.  5.]]\n'
    '[[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11.]\n'
    ' [12. 13. 14. 15. 16. 17. 18. 19. 20. 21. 22. 23.]]\n'
    '(2, 6)\n'
    'NDArray \n'
    '[[ 1. -2.  3.]\n'
    ' [-4.  5.  6.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
    'ndarray [[ 1. -2.  3.]\n'
    ' [-4.  5.  6.]]\n'
    '(4, 3) (2, 2, 3)\n'
    '[[1. 0. 3.]\n'
    ' [0. 5. 6.]]\n'
    '[[ 1. -1.  1.]\n'
    ' [-1.  1.  1.]] [[1. 0. 3.]\n'
    ' [0. 5. 6.]] [2 2]\n'
    '9.0 [-1.5  1.5  4.5] 3.5939765 [ 4.2222223 20.222221 ] 6.0 [-2. -4.]\n'
    '[ 0.  1.  3.  6. 10.] [3. 5. 7.]\n'
    '[[1. 0. 0.]\n'
    ' [1. 1. 0.]\n'
    ' [1. 1. 1.]] [[1. 0. 0.]\n'
    ' [0. 1. 0.]] [0.   0.25 0.5  0.75 1.  ]\n'
    '[1. 2. 3.] [1 2 0]\n'
    '[1. 2. 3.]\n'
    '[[ 1. -4.]\n'
    ' [-2.  5.]\n'
    ' [ 3.  6.]] [ 1. -2.  3. -4.  5.  6.] [ 1. -2.  3. -4.  5.  6.] [[ 3. -2.  1.]\n'
    ' [ 6.  5. -4.]]\n'
    '[[14.  4.]\n'
    ' [ 4. 77.]] [[14.  4.]\n'
    ' [ 4. 77.]]\n'
    '[1.        2.7182817] [0.4054651] [ 8. 27.]\n'
    'array([2., 2., 0.])\n'
    '[[1.0, -2.0, 3.0], [-4.0, 5.0, 6.0]] 1.0 2.5\n'
    '[2 1 4] None\n'
    '[[1. 6. 1.]\n'
    ' [0. 5. 0.]] 6 2 2\n'
    'MXNetError\n'
    'True True\n'
    'False False\n'
)

EXPECTED['script_numerics_bits'] = (
    'ij,jk->ik (5, 3) float32 dbaf9ff06aa2\n'
    'ij-> () float32 78d630f3ff35\n'
    'ij,jk,kl->il (5, 4) float32 5886bc0ee737\n'
    'ij,ij->i (5,) float32 89a48e0672d5\n'
    'ji (7, 5) float32 09c14c0657d3\n'
    'i,j->ij (7, 3) float32 34e15e0ed62e\n'
    '[-4.413856  -2.8103635  2.625556 ]\n'
    'einsum grads (5, 7) float32 e33656fbd44e (7, 3) float32 82638de0e1c8\n'
    '65 [1101437154] [[1101437154]]\n'
    '100 [1105415948] [[1105415948]]\n'
    '777 [1117856907] [[1117856907]]\n'
    '2048 [1124632312] [[1124632312]]\n'
    '4096 [1128141167] [[1128141167]]\n'
    '16.274685 [1099051662]\n'
    'adagrad (50, 3) float32 ef49afba7a32 (50, 3) float32 bfd5b6d019c3\n'
    'adam std (50, 3) float32 79a78aa693ce (50, 3) float32 ae964163f396\n'
    'lamb (6, 20) float32 03bd22c68f7a (6,) float32 d2d1ab41c2af\n'
    'adam (6, 20) float32 062b079e9c3a (6,) float32 a5d1cd2d1cba\n'
    'lars (6, 20) float32 d0cf457dd39b (6,) float32 635f26eadb6c\n'
    'predict (16, 10) float32 901c9604c5f8\n'
    'train (16, 10) float32 3a4cbedf4612\n'
    '\n'
    '[1.37466164e-02 1.14545487e-02 7.93587804e-01 1.19003065e-01\n'
    ' 9.15679775e-05 1.55431330e-02 4.48274519e-03 6.78039109e-03\n'
    ' 2.69197673e-02 8.39035120e-03]\n'
    '<NDArray 10 @cpu(0)>\n'
    'module predict (12, 4) float32 f97bf1a04a9a\n'
    "[('accuracy', 0.25), ('cross-entropy', 1.2897158861160278)]\n"
)

EXPECTED['script_param_sharing_and_api'] = (
    'Net(\n'
    '  (a): Dense(3 -> 4, linear)\n'
    '  (b): Dense(3 -> 4, linear)\n'
    '  (c): Dense(4 -> 2, linear)\n'
    ')\n'
    'net0_ (\n'
    '  Parameter net0_dense0_weight (shape=(4, 3), dtype=float32)\n'
    '  Parameter net0_dense0_bias (shape=(4,), dtype=float32)\n'
    '  Parameter net0_dense2_weight (shape=(2, 4), dtype=float32)\n'
    '  Parameter net0_dense2_bias (shape=(2,), dtype=float32)\n'
    ')\n'
    "['net0_dense0_bias', 'net0_dense0_weight', 'net0_dense2_bias', 'net0_dense2_weight']\n"
    "['net0_dense0_weight', 'net0_dense2_weight']\n"
    "['net0_dense0_bias', 'net0_dense0_weight', 'net0_dense2_bias']\n"
    'True\n'
    '\n'
    '[[-2.7767496 -2.3108528]\n'
    ' [-6.878355  -5.4929695]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[[ 5.309883   7.433837   9.55779  ]\n'
    ' [ 7.6675663 10.734593  13.8016205]\n'
    ' [-1.1403131 -1.5964384 -2.0525637]\n'
    ' [ 2.5869036  3.621665   4.6564264]]\n'
    '<NDArray 4x3 @cpu(0)>\n'
    'net0_dense0_bias 0.0 1.0 write (4,) float32\n'
    'net0_dense0_weight 1.0 1.0 write (4, 3) float32\n'
    'net0_dense2_bias 0.0 1.0 write (2,) float32\n'
    'net0_dense2_weight 1.0 1.0 write (2, 4) float32\n'
    '\n'
    '[[-0.10754508 -0.5167539  -0.5864122 ]\n'
    ' [-0.702736   -0.9737139  -1.1489394 ]\n'
    ' [ 0.11928731 -0.28901753 -0.21110193]\n'
    ' [-0.7791265  -0.39618564 -0.5359083 ]]\n'
    '<NDArray 4x3 @cpu(0)>\n'
    '\n'
    '[0. 0.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'True dense0_ net0_dense2_weight\n'
    "Parameter w (shape=(2, 3), dtype=<class 'numpy.float32'>)\n"
    "Parameter 'w' has not been initialized. Note that you should initialize parameters and create Trai"
    'ner with Block.collect_params() instead of Block.params because the later does not include Paramet'
    'ers \n'
    '[cpu(0), cpu(1)]\n'
    '\n'
    '[[1. 1. 1.]\n'
    ' [1. 1. 1.]]\n'
    '<NDArray 2x3 @cpu(1)>\n'
    '[cpu(2)] cpu(2)\n'
    '\n'
    '[[5. 5. 5.]\n'
    ' [5. 5. 5.]]\n'
    '<NDArray 2x3 @cpu(2)>\n'
    '<Symbol w>\n'
    '\n'
    '[[0. 0. 0.]\n'
    ' [0. 0. 0.]]\n'
    '<NDArray 2x3 @cpu(2)>\n'
    "DeferredInitializationError Parameter 'v' has not been initialized yet because initialization was "
    'deferred. Actual initialization happens during the first forward pass. Please pass one batch of da'
    'ta through the network before ac\n'
    "Constant const (shape=(3,), dtype=<class 'numpy.float32'>) null \n"
    '[1. 2. 3.]\n'
    '<NDArray 3 @cpu(0)>\n'
    "DeferredInitializationError Parameter 'dense1_weight' has not been initialized yet because initial"
    'ization was deferred. Actual initialization happens during the first forward pass. Please pass one'
    ' batch of data through the network before accessing Parameters. You can also avoid deferred initia'
    'lization by specifying in_units, n\n'
    "<class 'numpy.float64'> float64 (3, 2)\n"
    'MXNetError\n'
)

EXPECTED['script_printing_fuzz'] = (
    'float32 \n'
    '[1.e-08 1.e+00]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float16 \n'
    '[0. 1.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float64 \n'
    '[1.e-08 1.e+00]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int32 \n'
    '[0 1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int8 \n'
    '[0 1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'uint8 \n'
    '[0 1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int64 \n'
    '[0 1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float32 \n'
    '[1.e+08 1.e+00]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float16 \n'
    '[inf  1.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float64 \n'
    '[1.e+08 1.e+00]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int32 \n'
    '[100000000         1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int8 \n'
    '[0 1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'uint8 \n'
    '[0 1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int64 \n'
    '[100000000         1]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float32 \n'
    '[ nan  inf -inf  1.5]\n'
    '<NDArray 4 @cpu(0)>\n'
    'float16 \n'
    '[ nan  inf -inf  1.5]\n'
    '<NDArray 4 @cpu(0)>\n'
    'float64 \n'
    '[ nan  inf -inf  1.5]\n'
    '<NDArray 4 @cpu(0)>\n'
    'int32 \n'
    '[-2147483648 -2147483648 -2147483648           1]\n'
    '<NDArray 4 @cpu(0)>\n'
    'int8 \n'
    '[0 0 0 1]\n'
    '<NDArray 4 @cpu(0)>\n'
    'uint8 \n'
    '[0 0 0 1]\n'
    '<NDArray 4 @cpu(0)>\n'
    'int64 \n'
    '[-9223372036854775808 -9223372036854775808 -9223372036854775808\n'
    '                    1]\n'
    '<NDArray 4 @cpu(0)>\n'
    'float32 \n'
    '[0.1  0.25]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float16 \n'
    '[0.1  0.25]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float64 \n'
    '[0.1  0.25]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int32 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int8 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'uint8 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int64 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float32 \n'
    '[123456.79]\n'
    '<NDArray 1 @cpu(0)>\n'
    'float16 \n'
    '[inf]\n'
    '<NDArray 1 @cpu(0)>\n'
    'float64 \n'
    '[123456.789]\n'
    '<NDArray 1 @cpu(0)>\n'
    'int32 \n'
    '[123456]\n'
    '<NDArray 1 @cpu(0)>\n'
    'int8 \n'
    '[64]\n'
    '<NDArray 1 @cpu(0)>\n'
    'uint8 \n'
    '[64]\n'
    '<NDArray 1 @cpu(0)>\n'
    'int64 \n'
    '[123456]\n'
    '<NDArray 1 @cpu(0)>\n'
    'float32 \n'
    '[-0.  0.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float16 \n'
    '[-0.  0.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float64 \n'
    '[-0.  0.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int32 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int8 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'uint8 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int64 \n'
    '[0 0]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float32 \n'
    '[1.e-05 1.e+05]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float16 \n'
    '[1.e-05    inf]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float64 \n'
    '[1.e-05 1.e+05]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int32 \n'
    '[     0 100000]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int8 \n'
    '[  0 -96]\n'
    '<NDArray 2 @cpu(0)>\n'
    'uint8 \n'
    '[  0 160]\n'
    '<NDArray 2 @cpu(0)>\n'
    'int64 \n'
    '[     0 100000]\n'
    '<NDArray 2 @cpu(0)>\n'
    'float32 \n'
    '[[  441.22748  -330.87015  2430.7712   -252.09213]\n'
    ' [  109.60984  1582.4811   -909.2324   -591.63666]\n'
    ' [  187.60323  -329.86996 -1192.7646   -204.87651]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    'float16 \n'
    '[[  441.2  -330.8  2430.   -252.1]\n'
    ' [  109.6  1582.   -909.   -591.5]\n'
    ' [  187.6  -329.8 -1193.   -204.9]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    'float64 \n'
    '[[  441.22748689  -330.87015189  2430.77118701  -252.0921296 ]\n'
    ' [  109.60984158  1582.48111706  -909.23240486  -591.63665793]\n'
    ' [  187.60322584  -329.86995778 -1192.76461242  -204.87651059]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    'int32 \n'
    '[[  441  -330  2430  -252]\n'
    ' [  109  1582  -909  -591]\n'
    ' [  187  -329 -1192  -204]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    'int8 \n'
    '[[-71 -74 126   4]\n'
    ' [109  46 115 -79]\n'
    ' [-69 -73  88  52]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    'uint8 \n'
    '[[185 182 126   4]\n'
    ' [109  46 115 177]\n'
    ' [187 183  88  52]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    'int64 \n'
    '[[  441  -330  2430  -252]\n'
    ' [  109  1582  -909  -591]\n'
    ' [  187  -329 -1192  -204]]\n'
    '<NDArray 3x4 @cpu(0)>\n'
    'float32 \n'
    '[[-0.00035883  0.00060347]\n'
    ' [-0.00166479 -0.00070018]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'float16 \n'
    '[[-0.0003588  0.0006037]\n'
    ' [-0.001665  -0.0007   ]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'float64 \n'
    '[[-0.00035883  0.00060347]\n'
    ' [-0.00166479 -0.00070018]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'int32 \n'
    '[[0 0]\n'
    ' [0 0]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'int8 \n'
    '[[0 0]\n'
    ' [0 0]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'uint8 \n'
    '[[0 0]\n'
    ' [0 0]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'int64 \n'
    '[[0 0]\n'
    ' [0 0]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'float32 \n'
    '[[0.000e+00 1.000e+00 2.000e+00 ... 3.700e+01 3.800e+01 3.900e+01]\n'
    ' [4.000e+01 4.100e+01 4.200e+01 ... 7.700e+01 7.800e+01 7.900e+01]\n'
    ' [8.000e+01 8.100e+01 8.200e+01 ... 1.170e+02 1.180e+02 1.190e+02]\n'
    ' ...\n'
    ' [1.080e+03 1.081e+03 1.082e+03 ... 1.117e+03 1.118e+03 1.119e+03]\n'
    ' [1.120e+03 1.121e+03 1.122e+03 ... 1.157e+03 1.158e+03 1.159e+03]\n'
    ' [1.160e+03 1.161e+03 1.162e+03 ... 1.197e+03 1.198e+03 1.199e+03]]\n'
    '<NDArray 30x40 @cpu(0)>\n'
    'float16 \n'
    '[[0.000e+00 1.000e+00 2.000e+00 ... 3.700e+01 3.800e+01 3.900e+01]\n'
    ' [4.000e+01 4.100e+01 4.200e+01 ... 7.700e+01 7.800e+01 7.900e+01]\n'
    ' [8.000e+01 8.100e+01 8.200e+01 ... 1.170e+02 1.180e+02 1.190e+02]\n'
    ' ...\n'
    ' [1.080e+03 1.081e+03 1.082e+03 ... 1.117e+03 1.118e+03 1.119e+03]\n'
    ' [1.120e+03 1.121e+03 1.122e+03 ... 1.157e+03 1.158e+03 1.159e+03]\n'
    ' [1.160e+03 1.161e+03 1.162e+03 ... 1.197e+03 1.198e+03 1.199e+03]]\n'
    '<NDArray 30x40 @cpu(0)>\n'
    'float64 \n'
    '[[0.000e+00 1.000e+00 2.000e+00 ... 3.700e+01 3.800e+01 3.900e+01]\n'
    ' [4.000e+01 4.100e+01 4.200e+01 ... 7.700e+01 7.800e+01 7.900e+01]\n'
    ' [8.000e+01 8.100e+01 8.200e+01 ... 1.170e+02 1.180e+02 1.190e+02]\n'
    ' ...\n'
    ' [1.080e+03 1.081e+03 1.082e+03 ... 1.117e+03 1.118e+03 1.119e+03]\n'
    ' [1.120e+03 1.121e+03 1.122e+03 ... 1.157e+03 1.158e+03 1.159e+03]\n'
    ' [1.160e+03 1.161e+03 1.162e+03 ... 1.197e+03 1.198e+03 1.199e+03]]\n'
    '<NDArray 30x40 @cpu(0)>\n'
    'int32 \n'
    '[[   0    1    2 ...   37   38   39]\n'
    ' [  40   41   42 ...   77   78   79]\n'
    ' [  80   81   82 ...  117  118  119]\n'
    ' ...\n'
    ' [1080 1081 1082 ... 1117 1118 1119]\n'
    ' [1120 1121 1122 ... 1157 1158 1159]\n'
    ' [1160 1161 1162 ... 1197 1198 1199]]\n'
    '<NDArray 30x40 @cpu(0)>\n'
    'int8 \n'
    '[[   0    1    2 ...   37   38   39]\n'
    ' [  40   41   42 ...   77   78   79]\n'
    ' [  80   81   82 ...  117  118  119]\n'
    ' ...\n'
    ' [  56   57   58 ...   93   94   95]\n'
    ' [  96   97   98 ... -123 -122 -121]\n'
    ' [-120 -119 -118 ...  -83  -82  -81]]\n'
    '<NDArray 30x40 @cpu(0)>\n'
    'uint8 \n'
    '[[  0   1   2 ...  37  38  39]\n'
    ' [ 40  41  42 ...  77  78  79]\n'
    ' [ 80  81  82 ... 117 118 119]\n'
    ' ...\n'
    ' [ 56  57  58 ...  93  94  95]\n'
    ' [ 96  97  98 ... 133 134 135]\n'
    ' [136 137 138 ... 173 174 175]]\n'
    '<NDArray 30x40 @cpu(0)>\n'
    'int64 \n'
    '[[   0    1    2 ...   37   38   39]\n'
    ' [  40   41   42 ...   77   78   79]\n'
    ' [  80   81   82 ...  117  118  119]\n'
    ' ...\n'
    ' [1080 1081 1082 ... 1117 1118 1119]\n'
    ' [1120 1121 1122 ... 1157 1158 1159]\n'
    ' [1160 1161 1162 ... 1197 1198 1199]]\n'
    '<NDArray 30x40 @cpu(0)>\n'
    'float32 \n'
    '[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]\n'
    '<NDArray 2000 @cpu(0)>\n'
    'float16 \n'
    '[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]\n'
    '<NDArray 2000 @cpu(0)>\n'
    'float64 \n'
    '[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]\n'
    '<NDArray 2000 @cpu(0)>\n'
    'int32 \n'
    '[   0    1    2 ... 1997 1998 1999]\n'
    '<NDArray 2000 @cpu(0)>\n'
    'int8 \n'
    '[  0   1   2 ... -51 -50 -49]\n'
    '<NDArray 2000 @cpu(0)>\n'
    'uint8 \n'
    '[  0   1   2 ... 205 206 207]\n'
    '<NDArray 2000 @cpu(0)>\n'
    'int64 \n'
    '[   0    1    2 ... 1997 1998 1999]\n'
    '<NDArray 2000 @cpu(0)>\n'
    'float32 \n'
    '[[[[ 1.151391    1.857331   -1.5111796   0.6448475  -0.98060787]\n'
    '   [-0.8568531  -0.87187916 -0.42250794  0.9964398   0.7124213 ]\n'
    '   [ 0.05914424 -0.36331087  0.00328884 -0.10593044  0.7930533 ]\n'
    '   [-0.63157165 -0.00619491 -0.10106761 -0.05230815  0.24921766]]\n'
    '\n'
    '  [[ 0.19766009  1.3348485  -0.0868756   1.5615323  -0.305853  ]\n'
    '   [-0.4777314   0.10073819  0.35543847  0.2696124   1.2919633 ]\n'
    '   [ 1.139343    0.4944404  -0.33633626 -0.10061435  1.413398  ]\n'
    '   [ 0.22125413 -1.3107731  -0.68956524 -0.5775132   1.1522048 ]]\n'
    '\n'
    '  [[-0.10716399  2.2601068   0.6566195   0.12480683 -0.43570393]\n'
    '   [ 0.9721793  -0.24071114 -0.82412344  0.5681327   0.01275832]\n'
    '   [ 1.1890607  -0.07359332 -2.859688    0.7893664  -1.8777409 ]\n'
    '   [ 1.5387561   1.8213648  -0.4270314  -1.1647019  -1.397074  ]]]\n'
    '\n'
    '\n'
    ' [[[ 0.8726546  -0.20211817 -0.59835994 -0.2434197   2.0885148 ]\n'
    '   [ 0.34691933  0.74572694  0.77690756  1.0184212   1.0613514 ]\n'
    '   [-0.71046644 -0.2151878  -0.7607603  -0.7111632   1.1415077 ]\n'
    '   [-0.50175554 -0.07915136 -0.69282633 -0.59340274  0.7882379 ]]\n'
    '\n'
    '  [[-0.44542998 -0.4821202   0.49355766  0.5004873   0.7924226 ]\n'
    '   [ 0.17076445 -1.7537409   0.63029647  0.49832922  1.0181376 ]\n'
    '   [-0.8464686   2.5208077  -1.2323861   0.72695327  0.04595523]\n'
    '   [-0.48713264  0.81613237 -0.28143013 -2.3356218  -1.1672784 ]]\n'
    '\n'
    '  [[ 0.45765808  2.2379656  -1.4812592  -0.01694532  1.4507335 ]\n'
    '   [ 0.6068703  -0.37562084 -1.4219246  -1.7811513  -0.7479058 ]\n'
    '   [-0.36840954 -2.249118   -1.693675    0.30364847 -0.40899235]\n'
    '   [-0.7548306  -0.40751916 -0.81262475  0.9275162   1.6399541 ]]]]\n'
    '<NDArray 2x3x4x5 @cpu(0)>\n'
    'float16 \n'
    '[[[[ 1.151     1.857    -1.511     0.645    -0.9805  ]\n'
    '   [-0.857    -0.872    -0.4226    0.9966    0.7124  ]\n'
    '   [ 0.05914  -0.3633    0.003288 -0.10596   0.793   ]\n'
    '   [-0.6313   -0.006195 -0.1011   -0.0523    0.2493  ]]\n'
    '\n'
    '  [[ 0.1976    1.335    -0.08685   1.562    -0.306   ]\n'
    '   [-0.4778    0.1007    0.3555    0.2695    1.292   ]\n'
    '   [ 1.14      0.4944   -0.3364   -0.1006    1.413   ]\n'
    '   [ 0.2213   -1.311    -0.6895   -0.5776    1.152   ]]\n'
    '\n'
    '  [[-0.1072    2.26      0.6567    0.1248   -0.4358  ]\n'
    '   [ 0.972    -0.2407   -0.824     0.5684    0.01276 ]\n'
    '   [ 1.189    -0.0736   -2.86      0.7896   -1.878   ]\n'
    '   [ 1.539     1.821    -0.427    -1.165    -1.397   ]]]\n'
    '\n'
    '\n'
    ' [[[ 0.8726   -0.2021   -0.598    -0.2434    2.088   ]\n'
    '   [ 0.347     0.7456    0.777     1.019     1.062   ]\n'
    '   [-0.7104   -0.2152   -0.7607   -0.711     1.142   ]\n'
    '   [-0.502    -0.07916  -0.693    -0.5933    0.788   ]]\n'
    '\n'
    '  [[-0.4453   -0.4822    0.4937    0.5005    0.7925  ]\n'
    '   [ 0.1708   -1.754     0.6304    0.4983    1.019   ]\n'
    '   [-0.8467    2.521    -1.232     0.727     0.04596 ]\n'
    '   [-0.487     0.816    -0.2815   -2.336    -1.167   ]]\n'
    '\n'
    '  [[ 0.4578    2.238    -1.481    -0.01695   1.451   ]\n'
    '   [ 0.607    -0.3757   -1.422    -1.781    -0.748   ]\n'
    '   [-0.3684   -2.25     -1.693     0.3037   -0.409   ]\n'
    '   [-0.755    -0.4075   -0.8125    0.9277    1.64    ]]]]\n'
    '<NDArray 2x3x4x5 @cpu(0)>\n'
    'float64 \n'
    '[[[[ 1.15139101  1.85733101 -1.51117956  0.64484751 -0.98060789]\n'
    '   [-0.85685315 -0.87187918 -0.42250793  0.99643983  0.71242127]\n'
    '   [ 0.05914424 -0.36331088  0.00328884 -0.10593044  0.79305332]\n'
    '   [-0.63157163 -0.00619491 -0.10106761 -0.05230815  0.24921766]]\n'
    '\n'
    '  [[ 0.19766009  1.33484857 -0.08687561  1.56153229 -0.30585302]\n'
    '   [-0.47773142  0.10073819  0.35543847  0.26961241  1.29196338]\n'
    '   [ 1.13934298  0.4944404  -0.33633626 -0.10061435  1.41339802]\n'
    '   [ 0.22125412 -1.31077313 -0.68956523 -0.57751323  1.15220477]]\n'
    '\n'
    '  [[-0.10716398  2.26010677  0.65661947  0.12480683 -0.43570392]\n'
    '   [ 0.97217931 -0.24071114 -0.82412345  0.56813272  0.01275832]\n'
    '   [ 1.18906073 -0.07359332 -2.85968797  0.7893664  -1.87774088]\n'
    '   [ 1.53875615  1.82136474 -0.42703139 -1.16470191 -1.39707402]]]\n'
    '\n'
    '\n'
    ' [[[ 0.87265462 -0.20211818 -0.59835993 -0.2434197   2.08851469]\n'
    '   [ 0.34691933  0.74572695  0.77690759  1.01842113  1.06135144]\n'
    '   [-0.71046645 -0.2151878  -0.76076031 -0.71116323  1.14150774]\n'
    '   [-0.50175555 -0.07915136 -0.69282634 -0.59340277  0.78823794]]\n'
    '\n'
    '  [[-0.44542999 -0.48212019  0.49355766  0.50048733  0.79242262]\n'
    '   [ 0.17076445 -1.75374086  0.63029648  0.49832921  1.01813761]\n'
    '   [-0.84646862  2.52080763 -1.23238611  0.72695326  0.04595522]\n'
    '   [-0.48713265  0.81613236 -0.28143012 -2.33562182 -1.16727845]]\n'
    '\n'
    '  [[ 0.45765807  2.23796561 -1.4812592  -0.01694532  1.45073354]\n'
    '   [ 0.60687032 -0.37562084 -1.42192455 -1.7811513  -0.74790579]\n'
    '   [-0.36840953 -2.24911813 -1.69367504  0.30364847 -0.40899234]\n'
    '   [-0.75483059 -0.40751917 -0.81262476  0.92751621  1.63995407]]]]\n'
    '<NDArray 2x3x4x5 @cpu(0)>\n'
    'int32 \n'
    '[[[[ 1  1 -1  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 0  0  0  0  0]]\n'
    '\n'
    '  [[ 0  1  0  1  0]\n'
    '   [ 0  0  0  0  1]\n'
    '   [ 1  0  0  0  1]\n'
    '   [ 0 -1  0  0  1]]\n'
    '\n'
    '  [[ 0  2  0  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 1  0 -2  0 -1]\n'
    '   [ 1  1  0 -1 -1]]]\n'
    '\n'
    '\n'
    ' [[[ 0  0  0  0  2]\n'
    '   [ 0  0  0  1  1]\n'
    '   [ 0  0  0  0  1]\n'
    '   [ 0  0  0  0  0]]\n'
    '\n'
    '  [[ 0  0  0  0  0]\n'
    '   [ 0 -1  0  0  1]\n'
    '   [ 0  2 -1  0  0]\n'
    '   [ 0  0  0 -2 -1]]\n'
    '\n'
    '  [[ 0  2 -1  0  1]\n'
    '   [ 0  0 -1 -1  0]\n'
    '   [ 0 -2 -1  0  0]\n'
    '   [ 0  0  0  0  1]]]]\n'
    '<NDArray 2x3x4x5 @cpu(0)>\n'
    'int8 \n'
    '[[[[ 1  1 -1  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 0  0  0  0  0]]\n'
    '\n'
    '  [[ 0  1  0  1  0]\n'
    '   [ 0  0  0  0  1]\n'
    '   [ 1  0  0  0  1]\n'
    '   [ 0 -1  0  0  1]]\n'
    '\n'
    '  [[ 0  2  0  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 1  0 -2  0 -1]\n'
    '   [ 1  1  0 -1 -1]]]\n'
    '\n'
    '\n'
    ' [[[ 0  0  0  0  2]\n'
    '   [ 0  0  0  1  1]\n'
    '   [ 0  0  0  0  1]\n'
    '   [ 0  0  0  0  0]]\n'
    '\n'
    '  [[ 0  0  0  0  0]\n'
    '   [ 0 -1  0  0  1]\n'
    '   [ 0  2 -1  0  0]\n'
    '   [ 0  0  0 -2 -1]]\n'
    '\n'
    '  [[ 0  2 -1  0  1]\n'
    '   [ 0  0 -1 -1  0]\n'
    '   [ 0 -2 -1  0  0]\n'
    '   [ 0  0  0  0  1]]]]\n'
    '<NDArray 2x3x4x5 @cpu(0)>\n'
    'uint8 \n'
    '[[[[  1   1 255   0   0]\n'
    '   [  0   0   0   0   0]\n'
    '   [  0   0   0   0   0]\n'
    '   [  0   0   0   0   0]]\n'
    '\n'
    '  [[  0   1   0   1   0]\n'
    '   [  0   0   0   0   1]\n'
    '   [  1   0   0   0   1]\n'
    '   [  0 255   0   0   1]]\n'
    '\n'
    '  [[  0   2   0   0   0]\n'
    '   [  0   0   0   0   0]\n'
    '   [  1   0 254   0 255]\n'
    '   [  1   1   0 255 255]]]\n'
    '\n'
    '\n'
    ' [[[  0   0   0   0   2]\n'
    '   [  0   0   0   1   1]\n'
    '   [  0   0   0   0   1]\n'
    '   [  0   0   0   0   0]]\n'
    '\n'
    '  [[  0   0   0   0   0]\n'
    '   [  0 255   0   0   1]\n'
    '   [  0   2 255   0   0]\n'
    '   [  0   0   0 254 255]]\n'
    '\n'
    '  [[  0   2 255   0   1]\n'
    '   [  0   0 255 255   0]\n'
    '   [  0 254 255   0   0]\n'
    '   [  0   0   0   0   1]]]]\n'
    '<NDArray 2x3x4x5 @cpu(0)>\n'
    'int64 \n'
    '[[[[ 1  1 -1  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 0  0  0  0  0]]\n'
    '\n'
    '  [[ 0  1  0  1  0]\n'
    '   [ 0  0  0  0  1]\n'
    '   [ 1  0  0  0  1]\n'
    '   [ 0 -1  0  0  1]]\n'
    '\n'
    '  [[ 0  2  0  0  0]\n'
    '   [ 0  0  0  0  0]\n'
    '   [ 1  0 -2  0 -1]\n'
    '   [ 1  1  0 -1 -1]]]\n'
    '\n'
    '\n'
    ' [[[ 0  0  0  0  2]\n'
    '   [ 0  0  0  1  1]\n'
    '   [ 0  0  0  0  1]\n'
    '   [ 0  0  0  0  0]]\n'
    '\n'
    '  [[ 0  0  0  0  0]\n'
    '   [ 0 -1  0  0  1]\n'
    '   [ 0  2 -1  0  0]\n'
    '   [ 0  0  0 -2 -1]]\n'
    '\n'
    '  [[ 0  2 -1  0  1]\n'
    '   [ 0  0 -1 -1  0]\n'
    '   [ 0 -2 -1  0  0]\n'
    '   [ 0  0  0  0  1]]]]\n'
    '<NDArray 2x3x4x5 @cpu(0)>\n'
    'float32 \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    'float16 \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    'float64 \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    'int32 \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    'int8 \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    'uint8 \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    'int64 \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    'float32 \n'
    '[3.5]\n'
    '<NDArray 1 @cpu(0)>\n'
    'float16 \n'
    '[3.5]\n'
    '<NDArray 1 @cpu(0)>\n'
    'float64 \n'
    '[3.5]\n'
    '<NDArray 1 @cpu(0)>\n'
    'int32 \n'
    '[3]\n'
    '<NDArray 1 @cpu(0)>\n'
    'int8 \n'
    '[3]\n'
    '<NDArray 1 @cpu(0)>\n'
    'uint8 \n'
    '[3]\n'
    '<NDArray 1 @cpu(0)>\n'
    'int64 \n'
    '[3]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '\n'
    '[[0.3333 0.3333]\n'
    ' [0.3333 0.3333]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[0.33333334]\n'
    '<NDArray 1 @cpu(0)> 0.33333334 2.5\n'
    '\n'
    '[]\n'
    '<NDArray 2x0 @cpu(0)> (2, 0)\n'
    'True 10 10 1 (10,) True\n'
    'ValueError The truth value of an NDArray with multiple elements is ambiguous.\n'
    '0 \n'
    '[0. 1.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '1 \n'
    '[2. 3.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '2 \n'
    '[4. 5.]\n'
    '<NDArray 2 @cpu(0)>\n'
    '[[1.0, 2.0], [3.0, 4.0]] \n'
    '[1]\n'
    '<NDArray 1 @cpu(0)>\n'
    '3.25 7\n'
    '\n'
    '[1. 0.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[0. 1.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[0. 1.]\n'
    '<NDArray 2 @cpu(0)>\n'
    "<class 'numpy.float32'> <class 'numpy.float32'> <class 'numpy.float32'>\n"
    "<class 'numpy.float32'>\n"
    '\n'
    '[[7 7]\n'
    ' [7 7]]\n'
    '<NDArray 2x2 @cpu(0)> (1, 2) \n'
    '[1. 1.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[0.]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[0.   0.25 0.5  0.75]\n'
    '<NDArray 4 @cpu(0)> \n'
    '[5. 3. 1.]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[0. 0. 1. 1. 2. 2.]\n'
    '<NDArray 6 @cpu(0)> \n'
    '[0.  0.5 1. ]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[[0. 1. 0.]\n'
    ' [0. 0. 1.]]\n'
    '<NDArray 2x3 @cpu(0)>\n'
)

EXPECTED['script_rare_layers'] = (
    'ReflectionPad2D(\n'
    '\n'
    ')\n'
    '(2, 2, 6, 6) 141.75 [0.15625 0.125   0.15625]\n'
    'InstanceNorm(eps=1e-05, axis=1, center=True, scale=False, in_channels=2)\n'
    '(2, 2, 4, 4) 0.0 [-1.62659 -1.40971 -1.19283]\n'
    'GroupNorm(eps=1e-05, num_groups=2, center=True, scale=True)\n'
    '(2, 2, 4, 4) 0.0 [-1.62659 -1.40971 -1.19283]\n'
    'PReLU(\n'
    '\n'
    ')\n'
    '(2, 2, 4, 4) 63.0 [0.      0.03125 0.0625 ]\n'
    'ELU(\n'
    '\n'
    ')\n'
    '(2, 2, 4, 4) 63.0 [0.      0.03125 0.0625 ]\n'
    'SELU(\n'
    '\n'
    ')\n'
    '(2, 2, 4, 4) 66.194 [0.      0.03283 0.06567]\n'
    'Swish(\n'
    '\n'
    ')\n'
    '(2, 2, 4, 4) 49.118 [0.      0.01587 0.03223]\n'
    'GELU(\n'
    '\n'
    ')\n'
    '(2, 2, 4, 4) 55.66 [0.      0.01601 0.03281]\n'
    'LeakyReLU(0.2)\n'
    '(2, 2, 4, 4) 63.0 [0.      0.03125 0.0625 ]\n'
    'Conv2DTranspose(3 -> 2, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))\n'
    '(2, 3, 8, 8) -62.299 [-0.11866 -0.07572 -0.12689]\n'
    'MaxPool2D(size=(3, 3), stride=(1, 1), padding=(1, 1), ceil_mode=False, global_pool=False, pool_typ'
    'e=max, layout=NCHW)\n'
    '(2, 2, 4, 4) 70.5 [0.15625 0.1875  0.21875]\n'
    'AvgPool2D(size=(2, 2), stride=(2, 2), padding=(0, 0), ceil_mode=True, global_pool=False, pool_type'
    '=avg, layout=NCHW)\n'
    '(2, 2, 2, 2) 15.75 [0.07812 0.14062 0.32812]\n'
    'GlobalMaxPool2D(size=(1, 1), stride=(1, 1), padding=(0, 0), ceil_mode=True, global_pool=True, pool'
    '_type=max, layout=NCHW)\n'
    '(2, 2, 1, 1) 4.875 [0.46875 0.96875 1.46875]\n'
    'GlobalAvgPool2D(size=(1, 1), stride=(1, 1), padding=(0, 0), ceil_mode=True, global_pool=True, pool'
    '_type=avg, layout=NCHW)\n'
    '(2, 2, 1, 1) 3.938 [0.23438 0.73438 1.23438]\n'
    'Flatten\n'
    '(2, 32) 63.0 [0.      0.03125 0.0625 ]\n'
    'Conv2D(1 -> 2, kernel_size=(3, 3), stride=(1, 1), padding=(2, 2), dilation=(2, 2), groups=2, bias='
    'False)\n'
    '(2, 2, 4, 4) -9.755 [-0.07936 -0.08752  0.0067 ]\n'
    'BatchNorm(axis=1, eps=1e-05, momentum=0.5, fix_gamma=False, use_global_stats=False, in_channels=2)'
    '\n'
    '(2, 2, 4, 4) 63.0 [0.      0.03125 0.0625 ]\n'
    'HybridLambda(<lambda>)\n'
    '(2, 2, 4, 4) 41.916 [0.      0.03124 0.06242]\n'
    'Lambda(relu)\n'
    '(2, 2, 4, 4) 63.0 [0.      0.03125 0.0625 ]\n'
    'Dropout(p = 0.3, axes=(1,))\n'
    '(2, 2, 4, 4) 63.0 [0.      0.03125 0.0625 ]\n'
    'Activation(softrelu)\n'
    '(2, 2, 4, 4) 85.411 [0.69315 0.70889 0.72489]\n'
    'Conv1DTranspose(2 -> 2, kernel_size=(3,), stride=(1,)) \n'
    '[[[2. 4. 6. 4. 2.]\n'
    '  [2. 4. 6. 4. 2.]]]\n'
    '<NDArray 1x2x5 @cpu(0)>\n'
    'MaxPool3D(size=(2, 2, 2), stride=(2, 2, 2), padding=(0, 0, 0), ceil_mode=False, global_pool=False,'
    ' pool_type=max, layout=NCDHW) \n'
    '[[[[[13. 15.]]]]]\n'
    '<NDArray 1x1x1x1x2 @cpu(0)>\n'
    '\n'
    '[0. 0.]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[1. 1.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'Embedding(5 -> 3, float32)\n'
    'Dense(None -> 3, linear)\n'
    'Conv3D(None -> 4, kernel_size=(1, 2, 3), stride=(1, 1, 1))\n'
    'SymbolBlock(\n'
    '<Symbol relu0> : 1 -> 1\n'
    ')\n'
)

EXPECTED['script_recordio_multilabel'] = (
    '0\t0\n'
    '10\t48\n'
    '20\t96\n'
    '30\t144\n'
    '40\t192\n'
    '99\t244\n'
    '\n'
    '[0, 10, 20, 30, 40, 99] {0: 0, 10: 48, 20: 96, 30: 144, 40: 192, 99: 244}\n'
    "30 HEADER(flag=3, label=array([ 3. ,  1.5, -1. ], dtype=float32), id=3, id2=0) b'DDDD'\n"
    "0 HEADER(flag=3, label=array([ 0.,  0., -1.], dtype=float32), id=0, id2=0) b'A'\n"
    "99 HEADER(flag=0, label=3.5, id=7, id2=8) b'xyz'\n"
    "20 HEADER(flag=3, label=array([ 2.,  1., -1.], dtype=float32), id=2, id2=0) b'CCC'\n"
    "3 <class 'numpy.ndarray'> 2 0\n"
    'HEADER(flag=3, label=array([ 2.,  1., -1.], dtype=float32), id=2, id2=0)\n'
    'records 6\n'
    '[HEADER(flag=2, label=array([0., 1.], dtype=float32), id=0, id2=0), HEADER(flag=2, label=array([1.'
    ', 2.], dtype=float32), id=1, id2=0), HEADER(flag=2, label=array([2., 3.], dtype=float32), id=2, id'
    '2=0)] None\n'
    '128 280\n'
    "b'\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x05\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
    "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x80?\\x00\\x00\\x00@ab'\n"
    "(HEADER(flag=2, label=array([1., 2.], dtype=float32), id=5, id2=0), b'ab')\n"
    'ValueError\n'
    'KeyError 5\n'
    'None\n'
)

EXPECTED['script_rnn_layers_states'] = (
    'LSTM(2 -> 3, NTC, num_layers=2, bidirectional)\n'
    '[(4, 2, 3), (4, 2, 3)]\n'
    '(2, 3, 6) [(4, 2, 3), (4, 2, 3)]\n'
    '[[-0.00021 -0.00113  0.00015  0.00158  0.00064 -0.00171]\n'
    ' [ 0.00025 -0.0026   0.00062  0.00156  0.00094 -0.00193]\n'
    ' [ 0.00123 -0.00378  0.00082  0.00085  0.00083 -0.00133]]\n'
    '[[-0.00923  0.03474  0.01517]\n'
    ' [-0.01197  0.10307  0.05253]]\n'
    '(3, 2, 4) [[-0.02826 -0.18184  0.02762  0.007  ]\n'
    ' [-0.02826 -0.18184  0.02762  0.007  ]]\n'
    'RNN(2 -> 2, TNC)\n'
    '[[[0.19738 0.19738]\n'
    '  [0.19738 0.19738]]\n'
    '\n'
    ' [[0.5333  0.5333 ]\n'
    '  [0.5333  0.5333 ]]\n'
    '\n'
    ' [[0.85288 0.85288]\n'
    '  [0.85288 0.85288]]]\n'
    "['lstm0_l0_h2h_bias', 'lstm0_l0_h2h_weight', 'lstm0_l0_i2h_bias', 'lstm0_l0_i2h_weight']\n"
    '\n'
    '[0.]\n'
    '<NDArray 1 @cpu(0)>\n'
    'MXNetError\n'
    '(2, 3, 3) [[0.01636 0.00179 0.03144]\n'
    ' [0.03859 0.00716 0.07844]]\n'
    "[{'shape': (2, 3), '__layout__': 'NC'}, {'shape': (2, 3), '__layout__': 'NC'}]\n"
)

EXPECTED['script_sparse_linear_classification'] = (
    "[DataDesc[data,(4, 10),<class 'numpy.float32'>,NCHW]] [DataDesc[softmax_label,(4,),<class 'numpy.f"
    "loat32'>,NCHW]]\n"
    'csr [[ 0.     0.     0.     0.     0.     0.     0.224  0.     0.532 -0.196]\n'
    ' [ 0.     0.     0.     0.    -0.332  0.    -0.562 -0.868  0.     0.   ]\n'
    ' [ 0.89   0.     0.027  0.     0.     0.     0.     0.347  0.     0.   ]\n'
    ' [ 0.    -0.872  0.     0.     0.     0.    -0.041  0.     0.     0.298]] \n'
    '[0. 1. 1. 0.]\n'
    '<NDArray 4 @cpu(0)>\n'
    "['data', 'weight', 'bias', 'softmax_label'] \n"
    "sgd 0 (['accuracy', 'cross-entropy'], [0.4166666666666667, 0.7448336283365885])\n"
    "sgd 1 (['accuracy', 'cross-entropy'], [0.8333333333333334, 0.5745790600776672])\n"
    'row_sparse [[-0.5171   0.64911]\n'
    ' [ 0.39493 -0.37895]\n'
    ' [-0.22784  0.17641]] [-0.0738  0.0738]\n'
    "adagrad 0 (['accuracy', 'cross-entropy'], [0.25, 0.7610940138498942])\n"
    "adagrad 1 (['accuracy', 'cross-entropy'], [0.8333333333333334, 0.471192330121994])\n"
    'row_sparse [[-0.65805  0.68668]\n'
    ' [ 0.21365 -0.2965 ]\n'
    ' [-1.1304   1.26589]] [-0.10269  0.10269]\n'
    "ftrl 0 (['accuracy', 'cross-entropy'], [0.5, 0.7026475469271342])\n"
    "ftrl 1 (['accuracy', 'cross-entropy'], [0.75, 0.6663500070571899])\n"
    'row_sparse [[-0.12921  0.1345 ]\n'
    ' [ 0.10103 -0.0888 ]\n'
    ' [-0.05873  0.05897]] [-0.00311  0.00311]\n'
    "adam 0 (['accuracy', 'cross-entropy'], [0.3333333333333333, 0.7451169093449911])\n"
    "adam 1 (['accuracy', 'cross-entropy'], [0.9166666666666666, 0.5614088376363119])\n"
    'row_sparse [[-0.53089  0.44087]\n'
    ' [ 0.07819 -0.11165]\n'
    ' [-0.40381  0.37827]] [-0.01111  0.01111]\n'
    '(12, 2) [[0.5688 0.4312]\n'
    ' [0.2417 0.7583]]\n'
    "[('accuracy', 0.9166666666666666)]\n"
)

EXPECTED['script_sparse_printing_and_ops'] = (
    '\n'
    '<CSRNDArray 3x3 @cpu(0)>\n'
    '\n'
    "<CSRNDArray 3x3 @cpu(0)> csr (3, 3) <class 'numpy.float32'> cpu(0)\n"
    '\n'
    '[1. 2. 3. 4.]\n'
    '<NDArray 4 @cpu(0)> \n'
    '[0 2 1 2]\n'
    '<NDArray 4 @cpu(0)> \n'
    '[0 2 2 4]\n'
    '<NDArray 4 @cpu(0)>\n'
    '[[1. 0. 2.]\n'
    ' [0. 0. 0.]\n'
    ' [0. 3. 4.]]\n'
    '\n'
    '<CSRNDArray 2x3 @cpu(0)>\n'
    '[[0. 0. 0.]\n'
    ' [0. 3. 4.]]\n'
    '\n'
    '[[ 8. 11.]\n'
    ' [ 0.  0.]\n'
    ' [22. 29.]]\n'
    '<NDArray 3x2 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 3x2 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 5x2 @cpu(0)>\n'
    '\n'
    '[0 3]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[[1. 1.]\n'
    ' [1. 1.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 5x2 @cpu(0)>\n'
    '[[0. 0.]\n'
    ' [0. 0.]\n'
    ' [0. 0.]\n'
    ' [1. 1.]\n'
    ' [0. 0.]]\n'
    '\n'
    '<RowSparseNDArray 3x2 @cpu(0)>\n'
    '\n'
    '<CSRNDArray 3x2 @cpu(0)>\n'
    '\n'
    '[[1. 1.]\n'
    ' [0. 0.]\n'
    ' [0. 0.]\n'
    ' [1. 1.]\n'
    ' [0. 0.]]\n'
    '<NDArray 5x2 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 3x4 @cpu(0)> \n'
    '[]\n'
    '<NDArray 0 @cpu(0)> (0, 4)\n'
    '\n'
    '<CSRNDArray 2x3 @cpu(0)> \n'
    '[0 0 0]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 5x2 @cpu(0)> row_sparse row_sparse\n'
    'csr csr csr \n'
    '[1. 3. 6.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[5.477226]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[5.477226]\n'
    '<NDArray 1 @cpu(0)>\n'
    "row_sparse cpu(1) <class 'numpy.float64'>\n"
    "('Please use mx.nd.array to create an NDArray with source_array of type ', <class 'numpy.ndarray'>"
    ')\n'
    'csr [[1. 0.]\n'
    ' [0. 1.]]\n'
    '[[0. 0. 0.]\n'
    ' [0. 0. 1.]]\n'
    'Exception\n'
    '\n'
    '<RowSparseNDArray 5x2 @cpu(0)>\n'
    '\n'
    '<CSRNDArray 2x2 @cpu(0)>\n'
    'ok \n'
    '[4]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[2 0 2]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '<RowSparseNDArray 3x2 @cpu(0)>\n'
    '[[1. 1.]\n'
    ' [1. 1.]\n'
    ' [1. 1.]] row_sparse\n'
    '\n'
    '<RowSparseNDArray 5x2 @cpu(0)> row_sparse\n'
    'default\n'
    'default\n'
)

EXPECTED['script_symbol_json_infer'] = (
    '<Symbol sm>\n'
    "['data', 'w', 'bn_gamma', 'bn_beta'] ['sm_output'] ['bn_moving_mean', 'bn_moving_var']\n"
    "['data', 'w', 'bn_gamma', 'bn_beta', 'bn_moving_mean', 'bn_moving_var']\n"
    '{\'__init__\': \'["one", {}]\', \'__lr_mult__\': \'2.0\', \'lr_mult\': \'2.0\'} 2.0\n'
    "[('bn', {'fix_gamma': 'False'}), ('bn_beta', {'fix_gamma': 'False'}), ('bn_gamma', {'fix_gamma': '"
    'False\'}), (\'bn_moving_mean\', {\'__init__\': \'["zero", {}]\', \'fix_gamma\': \'False\'}), (\'bn'
    '_moving_var\', {\'__init__\': \'["one", {}]\', \'fix_gamma\': \'False\'}), (\'data\', {\'__shape__'
    "': '(0, 3)'}), ('fc', {'no_bias': 'True', 'num_hidden': '4'}), ('relu', {'act_type': 'relu'}), ('s"
    'm\', {\'axis\': \'-1\'}), (\'w\', {\'__init__\': \'["one", {}]\', \'__lr_mult__\': \'2.0\', \'lr_m'
    "ult': '2.0'})]\n"
    '([(0, 3), (4, 3), (4,), (4,)], [(0, 4)], [(4,), (4,)])\n'
    '([(2, 3), (4, 3), (4,), (4,)], [(2, 4)], [(4,), (4,)])\n'
    "([<class 'numpy.float64'>, <class 'numpy.float64'>, <class 'numpy.float64'>, <class 'numpy.float64"
    "'>], [<class 'numpy.float64'>], [<class 'numpy.float64'>, <class 'numpy.float64'>])\n"
    '(None, None, None)\n'
    "['null', 'null', 'FullyConnected', 'null', 'null', 'null', 'null', 'BatchNorm', 'Activation', 'sof"
    "tmax'] [0, 1, 3, 4, 5, 6] [[9, 0, 0]] {'mxnet_version': ['int', 10901]}\n"
    '{\'op\': \'null\', \'name\': \'w\', \'attrs\': {\'__init__\': \'["one", {}]\', \'__lr_mult__\': \''
    "2.0'}, 'inputs': []}\n"
    "{'op': 'FullyConnected', 'name': 'fc', 'attrs': {'no_bias': 'True', 'num_hidden': '4'}, 'inputs': "
    '[[0, 0, 0], [1, 0, 0]]}\n'
    "True ['data', 'w', 'bn_gamma', 'bn_beta']\n"
    "sm ['data', 'w', 'fc_output', 'bn_gamma', 'bn_beta', 'bn_moving_mean', 'bn_moving_var', 'bn_output"
    "', 'relu_output', 'sm_output']\n"
    "['relu'] ['relu_output']\n"
    "['fc_output', 'relu_output'] 2 relu [(5, 4), (5, 4)]\n"
    "<Symbol bn> ['data', 'w', 'bn_gamma', 'bn_beta']\n"
    "['x', 'y'] ([(2,), (2,)], [(2,)], []) _plus0\n"
    '\n'
    '[ 7. 10.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'infer_shape error. Arguments:\n'
    '  x: (2,)\n'
    '  y: (3,)\n'
    'MXNetError\n'
    'infer_type error. Arguments:\n'
    '  d: int32\n'
    '  fullyconnected0_weight: float32\n'
    'type MXNetError\n'
    'infer_shape error. Arguments:\n'
    '  foo: (2, 3)\n'
    'MXNetError\n'
    "['other', 'w', 'bn_gamma', 'bn_beta']\n"
    "{'__storage_type__': '0', '__init__': 'zeros', '__dtype__': '2', '__wd_mult__': '0.5', 'wd_mult': "
    "'0.5', '__shape__': '(2,)'}\n"
    "{'foo': 'bar', '__ctx_group__': 'dev1', 'ctx_group': 'dev1'} {'foo': 'bar', '__ctx_group__': 'dev1"
    "', 'ctx_group': 'dev1'} {'k': {'foo': 'bar', '__ctx_group__': 'dev1', 'ctx_group': 'dev1'}, 's': {"
    "'foo': 'bar', '__ctx_group__': 'dev1', 'ctx_group': 'dev1'}}\n"
    '\n'
    '[[0. 0.]\n'
    ' [0. 0.]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '[[1 1]]\n'
    '<NDArray 1x2 @cpu(0)>\n'
    '10 bn_gamma\n'
    '<Symbol group [a, b]>\n'
)

EXPECTED['script_trainer_grad_add_and_stale'] = (
    '0 0 [-0.8368052]\n'
    '0 1 [-1.4976676]\n'
    '0 2 [-2.9825869]\n'
    'lr 0.5 w [[0.36205178 0.27445966 0.56935054]]\n'
    '1 0 [0.40623778]\n'
    '1 1 [2.1977806]\n'
    '1 2 [4.374629]\n'
    'lr 0.5 w [[-0.02536309  0.27445966  0.10671434]]\n'
    '0.05 2\n'
    '[[-0.37403646  0.27445966 -0.30965823]]\n'
    'UserWarning Gradient of Parameter `extra` on context cpu(0) has not been updated by backward since'
    ' last `step`. This could mean a bug in your model that made it only use a subset of the Parameters'
    ' (Blocks) for this iteration. If you are intentionally only using a subset, call step with ignore_'
    'stale_grad=True to suppress this warning and skip updating of Parameters with stale gradient\n'
    '\n'
    '[ 0.01819476 -0.01221873]\n'
    '<NDArray 2 @cpu(0)> \n'
    '[0. 0.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'UserWarning Gradient of Parameter `dense2_bias` on context cpu(0) has not been updated by backward'
    ' since last `step`. This could mean a bug in your model that made it only use a subset of the Para'
    'meters (Blocks) for this iteration. If you are intentionally only using a subset, call step with i'
    'gnore_stale_grad=True to suppress this warning and skip updating of Parameters with stale gradient'
    '\n'
    '\n'
    '[-1. -1.]\n'
    '<NDArray 2 @cpu(0)>\n'
    'UserWarning Gradient of Parameter `dense2_bias` on context cpu(0) has not been updated by backward'
    ' since last `step`. This could mean a bug in your model that made it only use a subset of the Para'
    'meters (Blocks) for this iteration. If you are intentionally only using a subset, call step with i'
    'gnore_stale_grad=True to suppress this warning and skip updating of Parameters with stale gradient'
    '\n'
    '\n'
    '[[-1.001494   -1.0441116 ]\n'
    ' [-0.98497814 -0.9579464 ]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '1 0.01\n'
    "ValueError First argument must be a list or dict of Parameters, got <class 'mxnet.gluon.parameter."
    "Parameter'>.\n"
)

EXPECTED['script_transformer_ops'] = (
    '(4, 3, 3)\n'
    '[[ 0.07768 -0.21383  0.0082 ]\n'
    ' [-0.06846 -0.07109 -0.02668]\n'
    ' [-0.58239  0.61044 -0.05161]]\n'
    '(3, 2, 8) [ 0.25647 -0.17152  0.263   -0.07063  0.78871 -0.07888  0.57864  0.26595]\n'
    '(4, 3, 4) [[-0.03494 -0.3158   0.57395  0.19676]\n'
    ' [ 0.16984 -0.01346  0.55347 -0.71562]\n'
    ' [ 0.32299 -0.13315 -0.12368  0.18916]]\n'
    '(3, 2, 8) [[ 0.17271 -0.27983 -0.58563 -0.14602 -0.30392 -0.14313  0.12578 -0.07424]\n'
    ' [ 0.52037 -0.2244  -0.05415  0.01123  0.02118  0.08861  0.5513   0.09581]]\n'
    '[[0.56898 0.43102 0.      0.     ]\n'
    ' [0.13936 0.20543 0.32356 0.33165]\n'
    ' [1.      0.      0.      0.     ]]\n'
    '\n'
    '[[-1.72162  0.39519  0.66535  0.66109]\n'
    ' [-0.86793  0.00304  1.6308  -0.76591]\n'
    ' [ 0.64245 -0.44414  1.19891 -1.39722]]\n'
    '[ 2.58409 -0.14365 -1.63887  3.19843]\n'
    '[-0.22967 -0.36852 -0.44463 -0.1984 ]\n'
    '\n'
    '[[[1. 1. 0. 0.]]\n'
    '\n'
    ' [[1. 1. 1. 0.]]]\n'
    '<NDArray 2x1x4 @cpu(0)>\n'
    '[[ 1.70244 -0.19802  0.71396]\n'
    ' [-0.19802  0.52149  0.21908]\n'
    ' [ 0.71396  0.21908  0.98482]]\n'
    '[[ 0.       0.       1.       1.     ]\n'
    ' [ 0.84147  0.01     0.5403   0.99995]\n'
    ' [ 0.9093   0.02    -0.41615  0.9998 ]\n'
    ' [ 0.14112  0.03    -0.98999  0.99955]]\n'
    '(2, 2, 4)\n'
    '\n'
    '[-0.15865527  0.          0.84134465]\n'
    '<NDArray 3 @cpu(0)>\n'
)


def test_autograd_misc(tmp_path):
    _check(script_autograd_misc, tmp_path)


def test_bucketing_module(tmp_path):
    _check(script_bucketing_module, tmp_path)


def test_export_varied_net(tmp_path):
    _check(script_export_varied_net, tmp_path)


def test_feedforward_legacy(tmp_path):
    _check(script_feedforward_legacy, tmp_path)


def test_gluon_dataset_ops(tmp_path):
    _check(script_gluon_dataset_ops, tmp_path)


def test_image_ops(tmp_path):
    _check(script_image_ops, tmp_path)


def test_initializer_variants(tmp_path):
    _check(script_initializer_variants, tmp_path)


def test_kvstore_api(tmp_path):
    _check(script_kvstore_api, tmp_path)


def test_module_lr_mult_and_callbacks(tmp_path):
    _check(script_module_lr_mult_and_callbacks, tmp_path)


def test_module_multi_device(tmp_path):
    _check(script_module_multi_device, tmp_path)


def test_multi_ctx_training(tmp_path):
    _check(script_multi_ctx_training, tmp_path)


def test_nd_misc_ops(tmp_path):
    _check(script_nd_misc_ops, tmp_path)


def test_np_npx_basics(tmp_path, monkeypatch):
    # 1.9.1 logs the first activation of NumPy semantics in a process (a fresh one here)
    monkeypatch.setattr(mx.util, "_logged_activation", set())
    _check(script_np_npx_basics, tmp_path)


def test_numerics_bits(tmp_path):
    _check(script_numerics_bits, tmp_path)


def test_param_sharing_and_api(tmp_path):
    _check(script_param_sharing_and_api, tmp_path)


def test_printing_fuzz(tmp_path):
    _check(script_printing_fuzz, tmp_path)


def test_rare_layers(tmp_path):
    _check(script_rare_layers, tmp_path)


def test_recordio_multilabel(tmp_path):
    _check(script_recordio_multilabel, tmp_path)


def test_rnn_layers_states(tmp_path):
    _check(script_rnn_layers_states, tmp_path)


def test_sparse_linear_classification(tmp_path):
    _check(script_sparse_linear_classification, tmp_path)


def test_sparse_printing_and_ops(tmp_path):
    _check(script_sparse_printing_and_ops, tmp_path)


def test_symbol_json_infer(tmp_path):
    _check(script_symbol_json_infer, tmp_path)


def test_trainer_grad_add_and_stale(tmp_path):
    _check(script_trainer_grad_add_and_stale, tmp_path)


def test_transformer_ops(tmp_path):
    _check(script_transformer_ops, tmp_path)
