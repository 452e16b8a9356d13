"""The benchmark networks, written once for the training benchmarks (bench_training.py,
bench_gpu.py, tools/gpu_profile.py): a Gluon version built with whichever ``mxnet``
module the caller passes (this project's or the reference 1.9.1), and a PyTorch twin.

Workloads: ``mlp`` (784-512-512-10, ReLU), ``lenet``, ``resnet18`` (the CIFAR ResNet-18:
3x3 stem, BasicBlocks 64-128-256-512 x2, global average pool, fc10), ``resnet50``
(ResNet-50 v1, 1000 classes) and ``lstm`` (2-layer LSTM language model: vocabulary V,
embedding E, hidden H, sequence length T).
"""
V, E, H, T = 10000, 200, 200, 35
STAGES = ((64, 1), (128, 2), (256, 2), (512, 2))


def dense_mlp(mx, sizes):
    """A Gluon MLP with layer sizes ``sizes`` (input first), ReLU between the Dense
    layers, Xavier-initialised (the data-parallel benchmarks' network)."""
    nn = mx.gluon.nn
    net = nn.HybridSequential()
    for n_in, n_out in zip(sizes[:-2], sizes[1:-1]):
        net.add(nn.Dense(n_out, activation="relu", in_units=n_in))
    net.add(nn.Dense(sizes[-1], in_units=sizes[-2]))
    net.initialize(mx.init.Xavier())
    return net


def gluon_net(mx, work, ctx):
    """The Gluon network of ``work`` on ``ctx``, Xavier-initialised (not hybridized);
    None when ``mx`` has no ``gluon.rnn.LSTM`` (lstm only)."""
    gluon, nn = mx.gluon, mx.gluon.nn

    class Basic(gluon.HybridBlock):
        def __init__(self, cout, stride, down, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.c1 = nn.Conv2D(cout, 3, stride, 1, use_bias=False)
                self.b1 = nn.BatchNorm()
                self.c2 = nn.Conv2D(cout, 3, 1, 1, use_bias=False)
                self.b2 = nn.BatchNorm()
                self.down = None
                if down:
                    self.down = nn.HybridSequential(prefix="down_")
                    with self.down.name_scope():
                        self.down.add(nn.Conv2D(cout, 1, stride, use_bias=False),
                                      nn.BatchNorm())

        def hybrid_forward(self, F, x):
            r = x if self.down is None else self.down(x)
            y = F.Activation(self.b1(self.c1(x)), act_type="relu")
            return F.Activation(self.b2(self.c2(y)) + r, act_type="relu")

    class LM(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.emb = nn.Embedding(V, E)
                self.rnn = gluon.rnn.LSTM(H, num_layers=2, input_size=E)
                self.dec = nn.Dense(V, flatten=False, in_units=H)

        def hybrid_forward(self, F, x):
            return self.dec(self.rnn(self.emb(x)))

    if work == "mlp":
        net = nn.HybridSequential(prefix="mlp_")
        with net.name_scope():
            net.add(nn.Dense(512, activation="relu"), nn.Dense(512, activation="relu"),
                    nn.Dense(10))
    elif work == "lenet":
        net = nn.HybridSequential(prefix="lenet_")
        with net.name_scope():
            net.add(nn.Conv2D(20, 5, activation="relu"), nn.MaxPool2D(2, 2),
                    nn.Conv2D(50, 5, activation="relu"), nn.MaxPool2D(2, 2),
                    nn.Dense(500, activation="relu"), nn.Dense(10))
    elif work == "resnet18":
        net = nn.HybridSequential(prefix="resnet_")
        with net.name_scope():
            net.add(nn.Conv2D(64, 3, 1, 1, use_bias=False), nn.BatchNorm(),
                    nn.Activation("relu"))
            cin = 64
            for i, (cout, stride) in enumerate(STAGES):
                net.add(Basic(cout, stride, stride != 1 or cin != cout, prefix=f"s{i}a_"),
                        Basic(cout, 1, False, prefix=f"s{i}b_"))
                cin = cout
            net.add(nn.GlobalAvgPool2D(), nn.Dense(10))
    elif work == "resnet50":
        net = gluon.model_zoo.vision.resnet50_v1(classes=1000)
    else:
        if not hasattr(gluon, "rnn") or not hasattr(gluon.rnn, "LSTM"):
            return None
        net = LM(prefix="lm_")
    net.initialize(mx.init.Xavier(), ctx=ctx)
    return net


def torch_net(work):
    """The PyTorch twin of :func:`gluon_net` (default initialisation, on the CPU)."""
    import torch.nn as tnn
    import torch.nn.functional as TF

    class Basic(tnn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1 = tnn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.b1 = tnn.BatchNorm2d(cout)
            self.c2 = tnn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.b2 = tnn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride, bias=False),
                                           tnn.BatchNorm2d(cout))

        def forward(self, x):
            r = x if self.down is None else self.down(x)
            y = TF.relu(self.b1(self.c1(x)))
            return TF.relu(self.b2(self.c2(y)) + r)

    class LM(tnn.Module):
        def __init__(self):
            super().__init__()
            self.emb = tnn.Embedding(V, E)
            self.rnn = tnn.LSTM(E, H, 2)
            self.dec = tnn.Linear(H, V)

        def forward(self, x):
            return self.dec(self.rnn(self.emb(x))[0])

    if work == "mlp":
        return tnn.Sequential(tnn.Linear(784, 512), tnn.ReLU(), tnn.Linear(512, 512), tnn.ReLU(),
                              tnn.Linear(512, 10))
    if work == "lenet":
        return tnn.Sequential(tnn.Conv2d(1, 20, 5), tnn.ReLU(), tnn.MaxPool2d(2, 2),
                              tnn.Conv2d(20, 50, 5), tnn.ReLU(), tnn.MaxPool2d(2, 2),
                              tnn.Flatten(), tnn.Linear(800, 500), tnn.ReLU(), tnn.Linear(500, 10))
    if work == "resnet18":
        layers, cin = [tnn.Conv2d(3, 64, 3, 1, 1, bias=False), tnn.BatchNorm2d(64), tnn.ReLU()], 64
        for cout, stride in STAGES:
            layers += [Basic(cin, cout, stride), Basic(cout, cout, 1)]
            cin = cout
        layers += [tnn.AdaptiveAvgPool2d(1), tnn.Flatten(), tnn.Linear(512, 10)]
        return tnn.Sequential(*layers)
    if work == "resnet50":
        import torchvision
        return torchvision.models.resnet50(num_classes=1000)
    return LM()
