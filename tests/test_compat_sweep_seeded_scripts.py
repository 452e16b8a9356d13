"""Classic MXNet 1.9.1 scripts that rely on ``mx.random.seed`` (no hand-loaded weights).

Each scenario is a small training or set-up script as users write them: default or
Xavier initialisation, deferred shapes, Dropout in training, DataLoader / NDArrayIter
shuffling, Module, hybridized nets, RNN layers, numpy mode, image augmentation.

``EXPECTED`` holds what MXNet 1.9.1 printed for the same code: initial parameters, masks and
augmentation results as exact bits (a SHA-1 prefix of the float32 bytes, plus the first
values as float32 hex), losses after training steps as floats compared to 1e-5 relative
(dense and convolution sums may round differently in the last bit).
"""
import hashlib

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, gluon, init, nd

LOSS_RTOL = 1e-5


# ---------------------------------------------------------------------------------------------
# helpers


def _np(a):
    return onp.ascontiguousarray(a.asnumpy() if hasattr(a, "asnumpy") else onp.asarray(a))


def bits(a):
    """Exact-bits summary: shape, SHA-1 prefix of the bytes, the first 3 values as hex."""
    a = _np(a)
    head = a.ravel()[:3]
    if a.dtype == onp.float32:
        head = [format(int(v), "08x") for v in head.view(onp.uint32)]
    else:
        head = [repr(v.item()) for v in head]
    return [list(a.shape), str(a.dtype), hashlib.sha1(a.tobytes()).hexdigest()[:16], head]


def params(net):
    return {k: bits(p.data()) for k, p in sorted(net.collect_params().items())}


def mean(v):
    return float(_np(v).astype(onp.float64).mean())


def _mask(a):
    """Where ``a`` is nonzero, as hex of the packed bits (first element = high bit)."""
    return onp.packbits(_np(a).ravel() != 0).tobytes().hex()


def _fit(net, loss_fn, trainer, x, y, steps, batch):
    """``steps`` recorded training steps on (x, y); the mean loss of each."""
    losses = []
    for _ in range(steps):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(batch)
        losses.append(mean(loss))
    return losses


# ---------------------------------------------------------------------------------------------
# scenarios (each returns a dict; the same code produced EXPECTED under 1.9.1)


def scen_mlp_dropout():
    mx.random.seed(42)
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(16, activation="relu"), gluon.nn.Dropout(0.5), gluon.nn.Dense(4))
    net.initialize()
    net(nd.zeros((1, 10)))
    out = {"init": params(net)}
    X = nd.random.uniform(shape=(8, 10))
    y = nd.random.randint(0, 4, shape=(8,)).astype("float32")
    out["X"], out["y"] = bits(X), bits(y)
    L = gluon.loss.SoftmaxCrossEntropyLoss()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    out["losses"] = _fit(net, L, tr, X, y, 5, 8)
    return out


def scen_hybrid_conv_bn():
    mx.random.seed(7)
    net = gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(gluon.nn.Conv2D(8, 3, padding=1), gluon.nn.BatchNorm(),
                gluon.nn.Activation("relu"), gluon.nn.MaxPool2D(), gluon.nn.Dropout(0.3),
                gluon.nn.Flatten(), gluon.nn.Dense(10))
    net.initialize(init.Xavier(magnitude=2.24))
    net.hybridize()
    X = nd.random.normal(shape=(4, 3, 8, 8))
    y = nd.array([1, 2, 3, 4])
    L = gluon.loss.SoftmaxCrossEntropyLoss()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    out, losses = {"X": bits(X)}, []
    for i in range(4):
        with autograd.record():
            loss = L(net(X), y)
        if i == 0:
            out["init"] = params(net)
        loss.backward()
        tr.step(4)
        losses.append(mean(loss))
    out["losses"] = losses
    return out


def scen_dataloader_shuffle():
    mx.random.seed(42)
    onp.random.seed(42)
    Xn = onp.random.randn(40, 5).astype("float32")
    yn = (Xn.sum(1) > 0).astype("float32")
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(nd.array(Xn), nd.array(yn)),
                                   batch_size=8, shuffle=True)
    net = gluon.nn.Dense(2)
    net.initialize(init.Normal(0.1))
    L = gluon.loss.SoftmaxCrossEntropyLoss()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5, "momentum": 0.9})
    out, epochs = {}, []
    for ep in range(3):
        tot = 0.0
        for xb, yb in loader:
            if ep == 0 and not out:
                out["first_labels"] = bits(yb)
            with autograd.record():
                loss = L(net(xb), yb)
            if ep == 0 and "init" not in out:
                out["init"] = params(net)
            loss.backward()
            tr.step(xb.shape[0])
            tot += float(loss.sum().asscalar())
        epochs.append(tot / 40)
    out["epochs"] = epochs
    return out


def scen_module_iter():
    mx.random.seed(3)
    onp.random.seed(3)
    X = onp.random.uniform(-1, 1, (64, 6)).astype("float32")
    y = (X[:, 0] * X[:, 1] > 0).astype("float32")
    it = mx.io.NDArrayIter(X, y, batch_size=16, shuffle=True, label_name="softmax_label")
    data = mx.sym.var("data")
    h = mx.sym.FullyConnected(data, num_hidden=12, name="fc1")
    h = mx.sym.Activation(h, act_type="tanh")
    h = mx.sym.Dropout(h, p=0.2)
    h = mx.sym.FullyConnected(h, num_hidden=2, name="fc2")
    mod = mx.mod.Module(mx.sym.SoftmaxOutput(h, name="softmax"), context=mx.cpu())
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(init.Xavier())
    arg, _ = mod.get_params()
    out = {"init": {k: bits(arg[k]) for k in sorted(arg)}}
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.3})
    metric = mx.metric.create("ce")
    epochs = []
    for _ in range(3):
        it.reset()
        metric.reset()
        for b in it:
            mod.forward(b, is_train=True)
            mod.update_metric(metric, b.label)
            mod.backward()
            mod.update()
        epochs.append(metric.get()[1])
    out["epochs"] = epochs
    return out


def scen_lstm_embedding():
    # 1.9.1 runs float32 RNN layers through oneDNN on the CPU, which ignores dropout between
    # layers, so its numbers for the script's dropout=0.2 are those of dropout=0 (recorded).
    # Ours applies the dropout (not copied), so the layer here has none.
    mx.random.seed(11)

    class Net(gluon.Block):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.emb = gluon.nn.Embedding(20, 6)
                self.rnn = gluon.rnn.LSTM(8, num_layers=2, dropout=0, bidirectional=True)
                self.out = gluon.nn.Dense(20, flatten=False)

        def forward(self, x):
            return self.out(self.rnn(self.emb(x)))

    net = Net()
    net.initialize(init.Xavier())
    x = nd.random.randint(0, 20, shape=(5, 3)).astype("float32")
    y = nd.random.randint(0, 20, shape=(5, 3)).astype("float32")
    net(x)
    out = {"x": bits(x), "init": params(net)}
    L = gluon.loss.SoftmaxCrossEntropyLoss()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
    out["losses"] = _fit(net, L, tr, x, y, 4, 15)
    return out


def scen_rnn_cells():
    mx.random.seed(5)
    gru = gluon.rnn.GRU(7, layout="NTC", input_size=4)
    gru.initialize()
    rnn = gluon.rnn.RNN(5, activation="tanh", num_layers=1)
    rnn.initialize(init.Uniform(0.3))
    cell = gluon.rnn.SequentialRNNCell()
    cell.add(gluon.rnn.LSTMCell(6))
    cell.add(gluon.rnn.DropoutCell(0.5))
    cell.add(gluon.rnn.GRUCell(3))
    cell.initialize()
    x = nd.random.normal(shape=(2, 4, 4))
    with autograd.record():
        o1 = gru(x)
        o2 = rnn(x.transpose((1, 0, 2)))
        o3, _ = cell.unroll(4, x, layout="NTC", merge_outputs=True)
    out = {"gru": params(gru), "rnn": params(rnn), "cell": params(cell)}
    out["o"] = [_np(o).ravel()[:8].tolist() for o in (o1, o2, o3)]
    return out


def scen_rnn_float64_dropout():
    # 1.9.1's own CPU kernel (float64): a keep mask per layer from the single-engine generator
    H, T, N, L = 4, 20, 2, 3
    ws = [onp.zeros((H, H)), onp.zeros((H, H))] + [onp.eye(H), onp.zeros((H, H))] * (L - 1)
    b = onp.concatenate([onp.ones(H), onp.zeros(H)] + [onp.zeros(H)] * (2 * (L - 1)))
    p = nd.array(onp.concatenate([w.ravel() for w in ws] + [b]), dtype="float64")
    x = nd.zeros((T, N, H), dtype="float64")
    st = nd.zeros((L, N, H), dtype="float64")
    mx.random.seed(42)
    with autograd.train_mode():
        o = nd.RNN(x, p, st, state_size=H, num_layers=L, mode="rnn_relu", p=0.5)
    return {"mask": _mask(o), "max": float(o.max().asscalar()),
            "after": bits(nd.random.uniform(shape=(3,)))}


def scen_np_mode_init():
    from mxnet import npx
    out = {}
    inits = [("uniform", init.Uniform(0.3)), ("normal", init.Normal(0.2)),
             ("xavier", init.Xavier()), ("xavier_g", init.Xavier(rnd_type="gaussian")),
             ("msra", init.MSRAPrelu())]
    try:
        for nm, ini in inits:
            for m in ("nd", "np"):
                if m == "np":
                    npx.set_np()
                mx.random.seed(42)
                net = gluon.nn.Dense(16, in_units=9)
                net.initialize(ini)
                out[nm + "_" + m] = bits(net.weight.data())
                npx.reset_np()
    finally:
        npx.reset_np()
    return out


def scen_np_mode_training():
    from mxnet import np, npx
    npx.set_np()
    try:
        mx.random.seed(42)
        net = gluon.nn.HybridSequential()
        net.add(gluon.nn.Dense(16, activation="relu"), gluon.nn.Dropout(0.4), gluon.nn.Dense(3))
        net.initialize(init.Xavier())
        net.hybridize()
        X = np.random.uniform(size=(8, 5))
        y = np.random.randint(0, 3, size=(8,))
        Z = np.random.normal(0, 1, size=(3, 3))
        net(X)
        out = {"X": bits(X), "y": bits(y), "Z": bits(Z), "init": params(net)}
        L = gluon.loss.SoftmaxCrossEntropyLoss()
        tr = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.01})
        out["losses"] = _fit(net, L, tr, X, y, 4, 8)
        with autograd.record():
            out["dropout"] = _mask(npx.dropout(np.ones((4, 6)), p=0.5))
        return out
    finally:
        npx.reset_np()


def scen_image_random():
    img = nd.array(onp.arange(18).reshape(2, 3, 3), dtype="float32")
    im3 = nd.array(onp.random.RandomState(0).uniform(0, 255, (2, 2, 3)), dtype="float32")

    def flips(n=40):
        return "".join(str(int((nd.image.random_flip_left_right(img) != img).sum().asscalar() > 0))
                       for _ in range(n))
    mx.random.seed(42)
    out = {"flips": flips()}
    ops = {"bright": lambda: nd.image.random_brightness(im3, 0.5, 1.5),
           "contrast": lambda: nd.image.random_contrast(im3, 0.5, 1.5),
           "sat": lambda: nd.image.random_saturation(im3, 0.5, 1.5),
           "hue": lambda: nd.image.random_hue(im3, 0.8, 1.2),
           "jit": lambda: nd.image.random_color_jitter(im3, 0.2, 0.2, 0.2, 0.1),
           "jit_big": lambda: nd.image.random_color_jitter(im3, 1.5, 1.2, 1.7, 0.4),
           "light": lambda: nd.image.random_lighting(im3, 0.1)}
    for k, f in ops.items():
        mx.random.seed(42)
        o = f()
        out[k] = [bits(o), flips(), bits(nd.random.uniform(shape=(2,)))]
    return out


def scen_gluon_transforms():
    import random

    from mxnet.gluon.data.vision import transforms as T
    mx.random.seed(42)
    onp.random.seed(42)
    random.seed(42)
    img = nd.array(onp.random.randint(0, 255, (16, 16, 3)), dtype="uint8")
    out = {}
    for nm, t in [("flip", T.RandomFlipLeftRight()), ("bright", T.RandomBrightness(0.3)),
                  ("jitter", T.RandomColorJitter(0.2, 0.2, 0.2, 0.1)),
                  ("light", T.RandomLighting(0.1)), ("rrc", T.RandomResizedCrop(8))]:
        res = []
        for _ in range(3):
            x = img.astype("float32") if nm in ("bright", "jitter", "light") else img
            res.append(t(x).astype("float32").reshape((-1,)))
        out[nm] = bits(nd.concat(*res, dim=0))
    return out


def scen_symbol_random_graph():
    mx.random.seed(4)
    data = mx.sym.var("data")
    a = mx.sym.Dropout(mx.sym.FullyConnected(data, num_hidden=30, name="fa"), p=0.5)
    b = mx.sym.random.normal(shape=(2, 30))
    c = mx.sym.Dropout(mx.sym.FullyConnected(data, num_hidden=30, name="fb"), p=0.5)
    u = mx.sym.random.uniform_like(c)
    ex = mx.sym.Group([a, b, c, u]).simple_bind(mx.cpu(), data=(2, 4))
    for v in ex.arg_dict.values():
        v[:] = 1
    o = ex.forward(is_train=True)
    return {"a": bits(o[0]), "b": bits(o[1]), "c": bits(o[2]), "u": bits(o[3])}


def scen_hybrid_block_random():
    class Noisy(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.d1 = gluon.nn.Dense(70)
                self.drop = gluon.nn.Dropout(0.5)

        def hybrid_forward(self, F, x):
            a = self.drop(self.d1(x))
            n = F.random.normal_like(a, loc=0, scale=0.1)
            u = F.random.uniform(low=0, high=0.1, shape=(3, 70))
            return F.concat(a, n, u, dim=0)

    out = {}
    for hyb in (False, True):
        mx.random.seed(9)
        net = Noisy()
        net.initialize()
        if hyb:
            net.hybridize()
        with autograd.record():
            y = net(nd.ones((3, 5)))
        y = _np(y)
        out["hyb%d" % hyb] = [_mask(y[:3]), bits(y[3:])]
    return out


def scen_mobilenet():
    from mxnet.gluon.model_zoo import vision
    mx.random.seed(42)
    net = vision.get_model("mobilenet0.25", pretrained=False, classes=10)
    net.initialize()
    x = nd.random.uniform(shape=(2, 3, 32, 32))
    with autograd.predict_mode():
        pred = net(x)
    h = hashlib.sha1()
    for k, p in sorted(net.collect_params().items()):
        h.update(k.encode())
        h.update(_np(p.data()).tobytes())
    return {"params": h.hexdigest()[:16], "pred": _np(pred).ravel().tolist()}


def scen_contrib_cells():
    from mxnet.gluon import contrib
    mx.random.seed(21)
    cell = contrib.rnn.VariationalDropoutCell(gluon.rnn.LSTMCell(6, input_size=4),
                                              drop_inputs=0.3, drop_states=0.2,
                                              drop_outputs=0.4)
    cell.initialize()
    x = nd.random.uniform(shape=(2, 5, 4))
    with autograd.record():
        o, _ = cell.unroll(5, x, layout="NTC", merge_outputs=True)
    out = {"vd": params(cell), "vd_zero": _mask(o)}
    conv = contrib.rnn.Conv2DLSTMCell(input_shape=(3, 8, 8), hidden_channels=4,
                                      i2h_kernel=(3, 3), h2h_kernel=(3, 3), i2h_pad=(1, 1))
    conv.initialize()
    out["conv"] = params(conv)
    p = contrib.rnn.LSTMPCell(8, 3, input_size=4)
    p.initialize(init.Xavier())
    out["lstmp"] = params(p)
    return out


def scen_initializers():
    mx.random.seed(123)
    onp.random.seed(123)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Embedding(30, 5),
            gluon.nn.Dense(7, weight_initializer=init.MSRAPrelu(),
                           bias_initializer=init.Constant(0.1), flatten=False),
            gluon.nn.Dense(6, weight_initializer="xavier", flatten=False),
            gluon.nn.Dense(5, weight_initializer=init.Xavier(rnd_type="gaussian",
                                                             factor_type="out", magnitude=3),
                           flatten=False),
            gluon.nn.Dense(4, weight_initializer=init.Normal(0.5), flatten=False),
            gluon.nn.PReLU(), gluon.nn.LayerNorm(),
            gluon.nn.Dense(2, weight_initializer=init.Uniform(2)))
    net.initialize()
    net(nd.array([[1, 2, 3, 4], [5, 6, 7, 8]]))
    out = {"net": params(net)}
    up = gluon.nn.Conv2DTranspose(2, 4, strides=2, padding=1, in_channels=2,
                                  weight_initializer=init.Bilinear())
    up.initialize()
    out["bilinear"] = params(up)
    lstm = gluon.rnn.LSTM(3, input_size=2, i2h_bias_initializer=init.LSTMBias(1.0))
    lstm.initialize(init.Xavier())
    out["lstm"] = params(lstm)
    n64 = gluon.nn.Dense(70, in_units=3, dtype="float64")
    n64.initialize(init.Xavier())
    out["f64"] = params(n64)
    n16 = gluon.nn.Dense(70, in_units=3, dtype="float16")
    n16.initialize()
    out["f16"] = params(n16)
    mc = gluon.nn.Dense(40, in_units=3)
    mc.initialize(init.Uniform(), ctx=[mx.cpu(0), mx.cpu(1)])
    out["mc"] = [bits(mc.weight.data(mx.cpu(0))), bits(mc.weight.data(mx.cpu(1)))]
    with autograd.record():
        out["drop_axes"] = _mask(gluon.nn.Dropout(0.3, axes=(1,))(nd.ones((4, 5, 6))))
        out["drop64"] = _mask(nd.Dropout(nd.ones((10, 10), dtype="float64"), p=0.4))
    out["always"] = _mask(nd.Dropout(nd.ones((3, 30)), p=0.6, mode="always"))
    return out


# ---------------------------------------------------------------------------------------------
# values printed by MXNet 1.9.1 for the scenarios above

EXPECTED = {'contrib_cells': {'conv': {'conv_lstm0_h2h_bias': [[16], 'float32', 'c8d7d0ef0eedfa82',
                                                    ['00000000', '00000000', '00000000']],
                            'conv_lstm0_h2h_weight': [[16, 4, 3, 3], 'float32', '86336124eff9f6ec',
                                                      ['3d2a3032', 'bd859769', '3d87cd85']],
                            'conv_lstm0_i2h_bias': [[16], 'float32', 'c8d7d0ef0eedfa82',
                                                    ['00000000', '00000000', '00000000']],
                            'conv_lstm0_i2h_weight': [[16, 3, 3, 3], 'float32', '01d7854d6989a5cf',
                                                      ['3d439538', '3c349660', 'bd060af0']]},
                   'lstmp': {'lstmp0_h2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                 ['00000000', '00000000', '00000000']],
                             'lstmp0_h2h_weight': [[32, 3], 'float32', 'f5f8337e54b17125',
                                                   ['3ea97e95', 'be0b4c42', '3d3473b8']],
                             'lstmp0_h2r_weight': [[3, 8], 'float32', '28ff9f3fa86bbe19',
                                                   ['3e811734', '3d183f30', 'bdcd4198']],
                             'lstmp0_i2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                 ['00000000', '00000000', '00000000']],
                             'lstmp0_i2h_weight': [[32, 4], 'float32', '41cb6be1aa636285',
                                                   ['beceddc5', '3e806d56', 'be538e16']]},
                   'vd': {'lstm0_h2h_bias': [[24], 'float32', 'c49a9785b2243f2f',
                                             ['00000000', '00000000', '00000000']],
                          'lstm0_h2h_weight': [[24, 6], 'float32', '07e8f2b269113dc9',
                                               ['3d0ebce4', '3cd7ef44', '3ccd055c']],
                          'lstm0_i2h_bias': [[24], 'float32', 'c49a9785b2243f2f',
                                             ['00000000', '00000000', '00000000']],
                          'lstm0_i2h_weight': [[24, 4], 'float32', '8cc4453545f52ae6',
                                               ['3d899531', 'bd62036d', 'bd37ae7e']]},
                   'vd_zero': 'a69a69a400000000'},
 'dataloader_shuffle': {'epochs': [0.6280391335487365, 0.26104546189308164, 0.05864843055605888],
                        'first_labels': [[8], 'float32', '15336598c526a0ff',
                                         ['00000000', '3f800000', '00000000']],
                        'init': {'dense0_bias': [[2], 'float32', '05fe405753166f12',
                                                 ['00000000', '00000000']],
                                 'dense0_weight': [[2, 5], 'float32', 'c7862ba49c3baa9f',
                                                   ['3d58dc1a', '3e4a471b', '3ceea0c5']]}},
 'gluon_transforms': {'bright': [[2304], 'float32', '744279227c4ae5da',
                                 ['42e985be', '434ce78d', '42d2a0ca']],
                      'flip': [[2304], 'float32', 'd0a08bcd11b2f120',
                               ['434f0000', '41600000', '433d0000']],
                      'jitter': [[2304], 'float32', '7d39988662515cec',
                                 ['42e1b297', '432f45fd', '42b51672']],
                      'light': [[2304], 'float32', 'e197e31dce03202d',
                                ['42c547f0', '432ff5fa', '42b1aab1']],
                      'rrc': [[576], 'float32', '69017a4ac33052e7',
                              ['43440000', '42900000', '43210000']]},
 'hybrid_block_random': {'hyb0': ['24cda34920b845462714c796848b3ac8a01b17807c4c0cb6143ac0',
                                  [[6, 70], 'float32', 'b139f78de9e26104',
                                   ['3e9f0e7d', 'bc12a0d2', '3da38475']]],
                         'hyb1': ['24cda34920b845462714c796848b3ac8a01b17807c4c0cb6143ac0',
                                  [[6, 70], 'float32', 'b139f78de9e26104',
                                   ['3e9f0e7d', 'bc12a0d2', '3da38475']]]},
 'hybrid_conv_bn': {'X': [[4, 3, 8, 8], 'float32', 'a43f721e719051ed',
                          ['3f4d86ec', 'bf57090b', 'bf80378b']],
                    'init': {'hybridsequential0_batchnorm0_beta': [[8], 'float32',
                                                                   'de8a847bff8c343d',
                                                                   ['00000000', '00000000',
                                                                    '00000000']],
                             'hybridsequential0_batchnorm0_gamma': [[8], 'float32',
                                                                    '470fab5e9f129829',
                                                                    ['3f800000', '3f800000',
                                                                     '3f800000']],
                             'hybridsequential0_batchnorm0_running_mean': [[8], 'float32',
                                                                           'de8a847bff8c343d',
                                                                           ['00000000', '00000000',
                                                                            '00000000']],
                             'hybridsequential0_batchnorm0_running_var': [[8], 'float32',
                                                                          '470fab5e9f129829',
                                                                          ['3f800000', '3f800000',
                                                                           '3f800000']],
                             'hybridsequential0_conv0_bias': [[8], 'float32', 'de8a847bff8c343d',
                                                              ['00000000', '00000000', '00000000']],
                             'hybridsequential0_conv0_weight': [[8, 3, 3, 3], 'float32',
                                                                '69ddc1d80cdbd82f',
                                                                ['3d37be70', '3e39edc0',
                                                                 'bdf45cbc']],
                             'hybridsequential0_dense0_bias': [[10], 'float32', 'b80de5d138758541',
                                                               ['00000000', '00000000',
                                                                '00000000']],
                             'hybridsequential0_dense0_weight': [[10, 128], 'float32',
                                                                 '6a50133dac219536',
                                                                 ['bc8e14c8', '3d90a1f2',
                                                                  '3c8f9c68']]},
                    'losses': [4.603110522031784, 0.7466410510241985, 0.5143896141089499,
                               0.3784496961743571]},
 'image_random': {'bright': [[[2, 2, 3], 'float32', 'aac416cc72163a7e',
                              ['433a00d6', '43726425', '434c49b4']],
                             '1110010011000100000101111010101011111111',
                             [[2], 'float32', 'b7ab270c962ce4c6', ['3f543f7b', '3f3f721c']]],
                  'contrast': [[[2, 2, 3], 'float32', '04bd3d81902bd58e',
                                ['4304adc4', '433d1112', '4316f6a2']],
                               '1110010011000100000101111010101011111111',
                               [[2], 'float32', 'b7ab270c962ce4c6', ['3f543f7b', '3f3f721c']]],
                  'flips': '1111000001001101110011101111100101110101',
                  'hue': [[[2, 2, 3], 'float32', 'b484d669954e7b4f',
                           ['430bf28c', '4331886e', '43365f90']],
                          '1110010011000100000101111010101011111111',
                          [[2], 'float32', 'b7ab270c962ce4c6', ['3f543f7b', '3f3f721c']]],
                  'jit': [[[2, 2, 3], 'float32', 'cde7f76f00d60067',
                           ['431a2678', '434c6581', '43486148']],
                          '0010011000100000101111010101011111111101',
                          [[2], 'float32', 'b7ab270c962ce4c6', ['3f543f7b', '3f3f721c']]],
                  'jit_big': [[[2, 2, 3], 'float32', '71522d16b7e724bb',
                               ['43b153be', '438655ef', '43c31ac1']],
                              '0010011000100000101111010101011111111101',
                              [[2], 'float32', 'b7ab270c962ce4c6', ['3f543f7b', '3f3f721c']]],
                  'light': [[[2, 2, 3], 'float32', 'be1da31692123e30',
                             ['430a9d4a', '43347b56', '4317da29']],
                            '1100000100110111001110111110010111010100',
                            [[2], 'float32', 'b7ab270c962ce4c6', ['3f543f7b', '3f3f721c']]],
                  'sat': [[[2, 2, 3], 'float32', '44bb4a61dc04b599',
                           ['43343c9d', '436c9fec', '4346857b']],
                          '1110010011000100000101111010101011111111',
                          [[2], 'float32', 'b7ab270c962ce4c6', ['3f543f7b', '3f3f721c']]]},
 'initializers': {'always': '88a0027094c7b820b93e0800',
                  'bilinear': {'conv0_bias': [[2], 'float32', '05fe405753166f12',
                                              ['00000000', '00000000']],
                               'conv0_weight': [[2, 2, 4, 4], 'float32', 'bfea95560248149c',
                                                ['3d800000', '3e400000', '3e400000']]},
                  'drop64': '77acef9abd7cfbffe6fea25540',
                  'drop_axes': 'fffffffdb6db6db4924924bcf3cf3c',
                  'f16': {'dense6_bias': [[70], 'float16', 'b2b34d8be5cf7666',
                                          ['0.0', '0.0', '0.0']],
                          'dense6_weight': [[70, 3], 'float16', '2a48519ddc112f19',
                                            ['-0.0360107421875', '0.0458984375',
                                             '0.0004906654357910156']]},
                  'f64': {'dense5_bias': [[70], 'float64', '24eac245a213c04c',
                                          ['0.0', '0.0', '0.0']],
                          'dense5_weight': [[70, 3], 'float64', '31900cc5c8d1a09b',
                                            ['0.18367151941091348', '0.26757166089639406',
                                             '0.007277353968923761']]},
                  'lstm': {'lstm0_l0_h2h_bias': [[12], 'float32', 'c17fd92682ca5b30',
                                                 ['00000000', '00000000', '00000000']],
                           'lstm0_l0_h2h_weight': [[12, 3], 'float32', '1895af58e68a3d7a',
                                                   ['3e89cd6c', 'bedafa08', '3eea2e1e']],
                           'lstm0_l0_i2h_bias': [[12], 'float32', '61a63f8dbe7887ad',
                                                 ['00000000', '00000000', '00000000']],
                           'lstm0_l0_i2h_weight': [[12, 2], 'float32', '25f9f0108f502683',
                                                   ['beb38124', 'bd9ee4f8', 'bedc338e']]},
                  'mc': [[[40, 3], 'float32', '19f2850e35a35502',
                          ['3cdc0280', '3cc9e440', 'bd87bed9']],
                         [[40, 3], 'float32', '19f2850e35a35502',
                          ['3cdc0280', '3cc9e440', 'bd87bed9']]],
                  'net': {'dense0_bias': [[7], 'float32', '429bae74efc2bd1c',
                                          ['3dcccccd', '3dcccccd', '3dcccccd']],
                          'dense0_weight': [[7, 5], 'float32', '5d41803ee4c165d5',
                                            ['be054929', '3ef00b25', 'beb615d9']],
                          'dense1_bias': [[6], 'float32', 'd3399b7262fb56cb',
                                          ['00000000', '00000000', '00000000']],
                          'dense1_weight': [[6, 7], 'float32', 'd2ef322b58833f54',
                                            ['3e9f8c22', '3f189320', 'bd2d5e60']],
                          'dense2_bias': [[5], 'float32', '6768033e21646824',
                                          ['00000000', '00000000', '00000000']],
                          'dense2_weight': [[5, 6], 'float32', '040c45540469ed48',
                                            ['bf038ff0', '3eadb2b6', '3e706fe7']],
                          'dense3_bias': [[4], 'float32', 'e129f27c5103bc5c',
                                          ['00000000', '00000000', '00000000']],
                          'dense3_weight': [[4, 5], 'float32', '49071f65f48ca2ad',
                                            ['be347b68', '3f55b8a0', 'be6661d7']],
                          'dense4_bias': [[2], 'float32', '05fe405753166f12',
                                          ['00000000', '00000000']],
                          'dense4_weight': [[2, 16], 'float32', '369093a51e04f60a',
                                            ['be2411d8', '3e7e36d0', 'bffba293']],
                          'embedding0_weight': [[30, 5], 'float32', 'b439a7c881abfba2',
                                                ['3d8b0f69', '3d3521d4', 'bc402444']],
                          'layernorm0_beta': [[4], 'float32', 'e129f27c5103bc5c',
                                              ['00000000', '00000000', '00000000']],
                          'layernorm0_gamma': [[4], 'float32', 'df87141c4e5d8879',
                                               ['3f800000', '3f800000', '3f800000']],
                          'prelu0_alpha': [[1], 'float32', '94743c7eb98bb6e5', ['3e800000']]}},
 'lstm_embedding': {'init': {'net0_dense0_bias': [[20], 'float32', '8fc36a50d0ba5aab',
                                                  ['00000000', '00000000', '00000000']],
                             'net0_dense0_weight': [[20, 16], 'float32', '0bdfd65003872bed',
                                                    ['bdde1a18', 'be8372d0', '3e11e9e0']],
                             'net0_embedding0_weight': [[20, 6], 'float32', 'c0d25d669f9364c6',
                                                        ['be454640', '3de699c8', '3c17ba40']],
                             'net0_lstm0_l0_h2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_l0_h2h_weight': [[32, 8], 'float32', '219025d0272223e1',
                                                          ['bdd4ce24', 'be1bf69c', 'be42f077']],
                             'net0_lstm0_l0_i2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_l0_i2h_weight': [[32, 6], 'float32', 'bf5d38575f3579ce',
                                                          ['3e93b13d', 'be8ca29c', 'be850ff8']],
                             'net0_lstm0_l1_h2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_l1_h2h_weight': [[32, 8], 'float32', 'e776cd4cecd14b41',
                                                          ['bc193c60', '3ea958a0', 'bea5cc92']],
                             'net0_lstm0_l1_i2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_l1_i2h_weight': [[32, 16], 'float32', '6df0d153c6576ab3',
                                                          ['bd5595f8', 'bd06c9e0', '3d99812c']],
                             'net0_lstm0_r0_h2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_r0_h2h_weight': [[32, 8], 'float32', 'fd0d0230b9bc2a6c',
                                                          ['3d1cb200', '3cd13c80', '3e37c140']],
                             'net0_lstm0_r0_i2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_r0_i2h_weight': [[32, 6], 'float32', '36eb738206b0cb78',
                                                          ['3e864591', '3e505ca2', '3e6014ba']],
                             'net0_lstm0_r1_h2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_r1_h2h_weight': [[32, 8], 'float32', 'e0a804c613cbeada',
                                                          ['3eb85fd4', '3c2a29a0', '3e69ce18']],
                             'net0_lstm0_r1_i2h_bias': [[32], 'float32', '0ae4f711ef5d6e9d',
                                                        ['00000000', '00000000', '00000000']],
                             'net0_lstm0_r1_i2h_weight': [[32, 16], 'float32', 'c469b8b393e6440d',
                                                          ['3df9a77c', '3e1b5e7a', '3de4313c']]},
                    'losses': [2.9902961254119873, 2.976890277862549, 2.9637972831726076,
                               2.95100474357605],
                    'x': [[5, 3], 'float32', '75bb0501a0120a08',
                          ['41500000', '41600000', '41000000']]},
 'mlp_dropout': {'X': [[8, 10], 'float32', '91596be2ca2fc2c1',
                       ['3f40d169', '3da2c9c5', '3ecb5e37']],
                 'init': {'dense0_bias': [[16], 'float32', 'c8d7d0ef0eedfa82',
                                          ['00000000', '00000000', '00000000']],
                          'dense0_weight': [[16, 10], 'float32', '74bad2e1112e4999',
                                            ['3d3cb728', '3d0e1e54', '3c057440']],
                          'dense1_bias': [[4], 'float32', 'e129f27c5103bc5c',
                                          ['00000000', '00000000', '00000000']],
                          'dense1_weight': [[4, 16], 'float32', '4afbb0a9b32840e5',
                                            ['3c841dfc', '3d0d7724', 'bd682156']]},
                 'losses': [1.3798957616090775, 1.3757196217775345, 1.3647522777318954,
                            1.3578922748565674, 1.349016711115837],
                 'y': [[8], 'float32', '9e0144445511c978', ['40400000', '00000000', '00000000']]},
 'mobilenet': {'params': '4cd96e4dff108e4b',
               'pred': [-4.46122181206266e-27, -5.298836632342263e-26, -8.431859347185732e-26,
                        5.163378121559336e-27, 1.646329289888128e-26, 3.079026418476255e-26,
                        2.0570910121294553e-26, -3.3293184251560735e-26, 2.3307450112578777e-27,
                        -4.8999142948038643e-26, -1.2048348101894333e-26, -5.232197607373718e-26,
                        -1.1261614347778298e-25, -1.5572206713700104e-26, 1.4235981110844684e-26,
                        2.5634195352528152e-26, 8.246449917365177e-27, -3.688836852329892e-26,
                        -1.3903895321649926e-26, -5.212705963741355e-26]},
 'module_iter': {'epochs': [0.7403817027807236, 0.7273778915405273, 0.6887175142765045],
                 'init': {'fc1_bias': [[12], 'float32', 'c17fd92682ca5b30',
                                       ['00000000', '00000000', '00000000']],
                          'fc1_weight': [[12, 6], 'float32', 'eb90856130b01b10',
                                         ['3dc9b998', 'bdb94430', 'bd8a9998']],
                          'fc2_bias': [[2], 'float32', '05fe405753166f12',
                                       ['00000000', '00000000']],
                          'fc2_weight': [[2, 12], 'float32', 'd56d7103f109fff1',
                                         ['be420542', '3f08174c', '3d0697a0']]}},
 'np_mode_init': {'msra_nd': [[16, 9], 'float32', '2740e93f08deeea2',
                              ['3e526287', '3f443cfd', '3de780cf']],
                  'msra_np': [[16, 9], 'float32', '2139c1635a440958',
                              ['3e526287', '3e8baeae', '3f443cfd']],
                  'normal_nd': [[16, 9], 'float32', '5c75cb0ac8250029',
                                ['3dd8dc1a', '3eca471b', '3d6ea0c5']],
                  'normal_np': [[16, 9], 'float32', 'ab2fc6e724f0a720',
                                ['3dd8dc1a', '3e0ffb34', '3eca471b']],
                  'uniform_nd': [[16, 9], 'float32', '2f81af07ae475782',
                                 ['3e4a31f4', '3e184510', '3d0efc88']],
                  'uniform_np': [[16, 9], 'float32', '960a73ea2ff4b405',
                                 ['3e4a31f4', '3e184510', '3d0efc88']],
                  'xavier_g_nd': [[16, 9], 'float32', '7975c52e638b3d60',
                                  ['3e84cc87', '3f77bd17', '3e122114']],
                  'xavier_g_np': [[16, 9], 'float32', 'c2f10503990ffee8',
                                  ['3e84cc87', '3eb0571e', '3f77bd17']],
                  'xavier_nd': [[16, 9], 'float32', 'c1842353029eb382',
                                ['3ea51775', '3e78a7ce', '3d697ef8']],
                  'xavier_np': [[16, 9], 'float32', '81e793748b9bce40',
                                ['3ea51775', '3e78a7ce', '3d697ef8']]},
 'np_mode_training': {'X': [[8, 5], 'float32', '37eb6348bd5aa698',
                            ['3f543f7b', '3f3f721c', '3f0ee4f9']],
                      'Z': [[3, 3], 'float32', '10524d1b72c44ed8',
                            ['3f762587', '3e95a74a', '3f843d37']],
                      'dropout': 'cdcb44',
                      'init': {'dense0_bias': [[16], 'float32', 'c8d7d0ef0eedfa82',
                                               ['00000000', '00000000', '00000000']],
                               'dense0_weight': [[16, 5], 'float32', 'df16a0cd47c479be',
                                                 ['bdf35104', '3ed7e00c', '3dfc3678']],
                               'dense1_bias': [[3], 'float32', '2c513f149e737ec4',
                                               ['00000000', '00000000', '00000000']],
                               'dense1_weight': [[3, 16], 'float32', 'f3823af0af497f72',
                                                 ['be83c5a0', '3e778f9c', '3ef3ced6']]},
                      'losses': [0.9189165756106377, 0.8868352100253105, 0.9188866168260574,
                                 0.8428684957325459],
                      'y': [[8], 'int64', 'ca56a842af533521', ['0', '0', '1']]},
 'rnn_cells': {'cell': {'gru1_h2h_bias': [[9], 'float32', '8696cf0f4655636c',
                                          ['00000000', '00000000', '00000000']],
                        'gru1_h2h_weight': [[9, 3], 'float32', 'e590b277422fe60c',
                                            ['3d342222', '3d8f0265', 'bc860258']],
                        'gru1_i2h_bias': [[9], 'float32', '8696cf0f4655636c',
                                          ['00000000', '00000000', '00000000']],
                        'gru1_i2h_weight': [[9, 6], 'float32', 'b532d62728a75d63',
                                            ['3d23f6fe', '3cc21894', 'bd6a69a2']],
                        'lstm0_h2h_bias': [[24], 'float32', 'c49a9785b2243f2f',
                                           ['00000000', '00000000', '00000000']],
                        'lstm0_h2h_weight': [[24, 6], 'float32', 'ebaece3a3a330ac4',
                                             ['3d58cc5a', 'bcb4fa8c', '3b8615e0']],
                        'lstm0_i2h_bias': [[24], 'float32', 'c49a9785b2243f2f',
                                           ['00000000', '00000000', '00000000']],
                        'lstm0_i2h_weight': [[24, 4], 'float32', 'b18a7d1b3de43e73',
                                             ['3d2742a2', 'bd389560', '3c31bb78']]},
               'gru': {'gru0_l0_h2h_bias': [[21], 'float32', 'f68f30ee52133e40',
                                            ['00000000', '00000000', '00000000']],
                       'gru0_l0_h2h_weight': [[21, 7], 'float32', 'e642d4f6cc72a1cc',
                                              ['3d6bdde2', 'bd408134', 'bcd16c58']],
                       'gru0_l0_i2h_bias': [[21], 'float32', 'f68f30ee52133e40',
                                            ['00000000', '00000000', '00000000']],
                       'gru0_l0_i2h_weight': [[21, 4], 'float32', 'c3d710122447e509',
                                              ['3d4edc78', 'bccb6eec', '3d18aa82']]},
               'o': [[-0.008030605502426624, 0.04278392344713211, 0.03061317838728428,
                      0.02563595026731491, -0.020837007090449333, 0.01042898464947939,
                      0.017161771655082703, -0.08014142513275146],
                     [0.2677052319049835, 0.3782390058040619, -0.1642848253250122,
                      -0.09794370085000992, -0.33276939392089844, -0.09319497644901276,
                      -0.18444430828094482, 0.058254119008779526],
                     [-0.0013463757932186127, 0.0007766373455524445, 0.0007039585616439581,
                      0.0005408120923675597, -0.0011767275864258409, -0.0035957132931798697,
                      0.0014238674193620682, -0.0040632858872413635]],
               'rnn': {'rnn0_l0_h2h_bias': [[5], 'float32', '6768033e21646824',
                                            ['00000000', '00000000', '00000000']],
                       'rnn0_l0_h2h_weight': [[5, 5], 'float32', '9b96c302ad29e861',
                                              ['3e80ed14', '3d474eb0', 'bd3a62c8']],
                       'rnn0_l0_i2h_bias': [[5], 'float32', '6768033e21646824',
                                            ['00000000', '00000000', '00000000']],
                       'rnn0_l0_i2h_weight': [[5, 4], 'float32', '43de75b7b03c1389',
                                              ['3da2aa3c', '3c69d6e0', '3e888acc']]}},
 'rnn_float64_dropout': {'after': [[3], 'float32', '819679889733db31',
                                   ['3f543f7b', '3f3f721c', '3f0ee4f9']],
                         'mask': '2900100000003740030880215488320493000a1d',
                         'max': 4.0},
 'symbol_random_graph': {'a': [[2, 30], 'float32', 'afa0c7c897c15e71',
                               ['41200000', '41200000', '00000000']],
                         'b': [[2, 30], 'float32', 'c61f7270ab3fd910',
                               ['bf901312', '3e33a08c', 'be8fe830']],
                         'c': [[2, 30], 'float32', '96b0885e9e54954b',
                               ['00000000', '00000000', '41200000']],
                         'u': [[2, 30], 'float32', '1e0d50ee18ad1186',
                               ['3f162a7e', '3ecc36ed', '3f7a8411']]}}


# ---------------------------------------------------------------------------------------------
# tests


@pytest.fixture(autouse=True)
def _restore_random_state():
    from mxnet.backend.cpu import CPUBackend
    saved_rng = CPUBackend._shared_rng[0]
    saved_np = onp.random.get_state()
    # a fresh script: block names count from 0 whatever tests ran before
    with mx.name.NameManager():
        yield
    CPUBackend._shared_rng[0] = saved_rng
    onp.random.set_state(saved_np)


LOSS_KEYS = {"losses", "epochs", "pred", "o"}


def _compare(got, want, path=""):
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), path
        for k in want:
            _compare(got[k], want[k], f"{path}/{k}")
    elif path.rsplit("/", 1)[-1] in LOSS_KEYS:
        g = onp.asarray(got, dtype=onp.float64)
        w = onp.asarray(want, dtype=onp.float64)
        # near-zero entries are held to the same accuracy relative to the largest one
        onp.testing.assert_allclose(g, w, rtol=LOSS_RTOL, atol=LOSS_RTOL * onp.abs(w).max(),
                                    err_msg=path)
    else:
        assert got == want, path


SCENARIOS = sorted(k[5:] for k in list(globals()) if k.startswith("scen_"))


@pytest.mark.parametrize("name", SCENARIOS)
def test_seeded_script(name):
    _compare(globals()["scen_" + name](), EXPECTED[name], name)
