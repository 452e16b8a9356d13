"""Small MXNet 1.9.1 user scripts (round 4): what they print, checked against MXNet 1.9.1.

Areas: ``mx.test_utils.check_numeric_gradient`` (its NumPy random draws and the numbers of its
failure message), the profiler's finished dump, ``gamma``/``gammaln`` (1.9.1 calls the C
library's tgammaf/lgammaf; its gradients use Cephes' psi in float), every Gluon optimizer over
a few Trainer steps, ``Module.fit`` with a ``Monitor``, batch-end/eval-end callback lists and
``score``/``predict`` options, and seeded MLP/LSTM training (hybridized or not).

Every expected value was printed by MXNet 1.9.1 running the same code (float32 results as
the hex of their bits, SHA-1 prefixes of parameter bytes, log lines as text).
"""
import hashlib
import json
import logging

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.base import MXNetError
from mxnet.gluon import nn
from mxnet.test_utils import check_numeric_gradient


@pytest.fixture(autouse=True)
def _restore_random_state():
    from mxnet.backend.cpu import CPUBackend
    saved_rng = CPUBackend._shared_rng[0]
    saved_np = onp.random.get_state()
    with mx.name.NameManager():   # block names count from 0, as in a fresh script
        yield
    CPUBackend._shared_rng[0] = saved_rng
    onp.random.set_state(saved_np)


def _hex(a):
    return "".join(format(int(v), "08x")
                   for v in onp.ascontiguousarray(a.asnumpy()).view(onp.uint32).ravel())


def _sha(a):
    return hashlib.sha1(onp.ascontiguousarray(a.asnumpy()).tobytes()).hexdigest()[:10]


# ---------------------------------------------------------------------------------------------
# mx.test_utils.check_numeric_gradient

def test_check_numeric_gradient_draws_and_reports_like_1_9_1():
    # 1.9.1 draws the projection (rand), the gradients' start values (normal, per argument)
    # and one more normal array for the projection's own gradient; the finite differences are
    # taken of the float32 output times the projection, summed in float32
    onp.random.seed(0)
    x = mx.sym.var("x")
    check_numeric_gradient(mx.sym.tanh(x) * 2, [onp.array([[0.1, 0.5], [-0.3, 0.9]])],
                           numeric_eps=1e-3, rtol=1e-2, atol=1e-3)
    assert onp.random.rand() == 0.5680445610939323
    with pytest.raises(AssertionError) as err:
        check_numeric_gradient(mx.sym.abs(x) * 3, [onp.array([1.0, -2.0])], numeric_eps=1e-3,
                               rtol=1e-6, atol=0)
    msg = str(err.value)
    assert ("Error 61.218369 exceeds tolerance rtol=1.000000e-06, atol=0.000000e+00 "
            "(mismatch 50.000000%).") in msg
    assert ("Location of maximum error: (1,), NUMERICAL_x=-0.51307678, "
            "BACKWARD_x=-0.51310819") in msg
    assert "ACTUAL: array([ 3.0767918, -0.5130768], dtype=float32)" in msg
    assert "DESIRED: array([ 3.0767899, -0.5131082], dtype=float32)" in msg
    assert onp.random.rand() == 0.7805291762864555

    onp.random.seed(3)
    y = mx.sym.var("y")
    with pytest.raises(AssertionError) as err:
        check_numeric_gradient(x * y + mx.sym.sin(x),
                               {"x": onp.array([0.2, 0.7]), "y": onp.array([1.5, -0.5])},
                               grad_nodes=["y"], numeric_eps=1e-2, rtol=1e-7, atol=0)
    msg = str(err.value)
    assert ("Location of maximum error: (0,), NUMERICAL_y=0.13015866, "
            "BACKWARD_y=0.13015959") in msg
    assert "ACTUAL: array([0.13015866, 0.56570023], dtype=float32)" in msg
    assert onp.random.rand() == 0.05146720330082988


# ---------------------------------------------------------------------------------------------
# profiler

def test_profiler_finished_dump_needs_a_new_run(tmp_path):
    # 1.9.1: after dump() (finished=True) a second dump raises until set_state('run'); the
    # written trace is not overwritten by an empty one
    from mxnet import profiler
    path = tmp_path / "prof.json"
    profiler.set_config(profile_imperative=True, filename=str(path))
    try:
        profiler.set_state("run")
        nd.ones((2,)).wait_to_read()
        profiler.dump()
        nd.ones((2,)).wait_to_read()
        with pytest.raises(MXNetError):
            profiler.dump()
        names = {e.get("name") for e in json.loads(path.read_text())["traceEvents"]}
        assert "_ones" in names
        profiler.set_state("stop")
        profiler.set_state("run")
        nd.ones((3,)).wait_to_read()
        profiler.set_state("stop")
        profiler.dump()
        assert "_ones" in {e.get("name") for e in json.loads(path.read_text())["traceEvents"]}
    finally:
        profiler.set_state("stop")
        profiler.set_config()


# ---------------------------------------------------------------------------------------------
# gamma / gammaln

_GAMMA_X = onp.array([0.3, 1.7, 4.2, 7.7, 12.5, 33.3, 0.05, 2.5, -0.5, -1.5, -2.25, -3.7, 0,
                      -0.0, -1, 1e-40, onp.inf, onp.nan, 36], onp.float32)
_GAMMA_1_9_1 = {
    "gamma": ("403f75de3f689c8d40f836c9452d1d454d0281067b103483419bc2bc3faa27d5c062dfc640173fd8"
              "bfdf14903e80d77c7f800000ff8000007fc000007f8000007f8000007fc000007f800000",
              [2.9915688627795918, 0.9086387418891017, 7.756687595705443, 2769.8293189909564,
               136843365.46556583, 7.487557657016624e+35, 19.470085013906726, 1.329340388179137,
               -3.5449077018110318, 2.363271801207355, -1.742814865728253, 0.2516440060427754],
              [16891, 15173, 18368, 26983, 31744, 31744, 19678, 15697, 49943, 16570, 48889,
               13318]),
    "gammaln": ("3f8c431cbdc436d240031b8840fda6394195dff242a5351a403e021e3e91c1f43fa1fc4d3f5c2c0b"
                "3f0e3559bfb09b517f8000007f8000007f80000042b834f27f8000007fc0000042b845b9",
                [1.095797953064734, -0.09580768746272736, 2.048555386842551, 7.926540979590141,
                 18.73434751193645, 82.6037209186398, 2.9688791857796466, 0.2846828704729192,
                 1.2655121234846454, 0.8600470153764809, 0.5555015450206474,
                 -1.379739864669403],
                [15458, 44577, 16408, 18413, 19631, 21802, 16880, 13454, 15632, 15073, 14450,
                 48518]),
}


@pytest.mark.parametrize("name", ["gamma", "gammaln"])
def test_gamma_and_gammaln_give_1_9_1_bits(name):
    f = getattr(nd, name)
    want32, want64, want16 = _GAMMA_1_9_1[name]
    assert _hex(f(nd.array(_GAMMA_X))) == want32
    assert f(nd.array(_GAMMA_X[:12], dtype="float64")).asnumpy().tolist() == want64
    got16 = f(nd.array(_GAMMA_X[:12], dtype="float16")).asnumpy().view(onp.uint16).tolist()
    assert got16 == want16
    # symbolic use takes the same kernel
    s = getattr(mx.sym, name)(mx.sym.var("a"))
    assert _hex(s.eval(a=nd.array(_GAMMA_X[:4]))[0]) == want32[:32]


@pytest.mark.parametrize("name,want", [
    ("gamma", "c0eab548be7c417141aae2373fbf6f0445bc08c340af90793fb295874a6a64f83fe1f939"),
    ("gammaln", "c01ce9bfbe8acf4440303e733f2201df400b081ebfa24d5d3fb295873f877601bff2b320"),
])
def test_gamma_and_gammaln_gradients_give_1_9_1_bits(name, want):
    x = nd.array([0.3, 1.7, 4.2, -1.5, 7.7, -0.3, 2.0, 11.0, -2.7])
    head = nd.array([0.7, -1.3, 2.1, 0.9, 1.1, -0.6, 3.3, 0.45, 1.7])
    x.attach_grad()
    with autograd.record():
        y = getattr(nd, name)(x)
    y.backward(head)
    assert _hex(x.grad) == want


# ---------------------------------------------------------------------------------------------
# Gluon optimizers through a Trainer

_OPT_CASES = [
    ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3}),
    ("nag", {"learning_rate": 0.1, "momentum": 0.9}),
    ("adam", {"learning_rate": 0.01}),
    ("rmsprop", {"learning_rate": 0.01, "centered": True}),
    ("rmsprop", {"learning_rate": 0.01}),
    ("adagrad", {"learning_rate": 0.1}),
    ("adadelta", {}),
    ("ftrl", {"learning_rate": 0.1}),
    ("signum", {"learning_rate": 0.01}),
    ("adamax", {"learning_rate": 0.01}),
    ("nadam", {"learning_rate": 0.01}),
    ("ftml", {"learning_rate": 0.01}),
    ("lamb", {"learning_rate": 0.01}),
    ("lars", {"learning_rate": 0.1, "momentum": 0.9}),
    ("dcasgd", {"learning_rate": 0.1}),
    ("sgld", {"learning_rate": 0.01}),
    ("lbsgd", {"learning_rate": 0.1}),
    ("sgd", {"learning_rate": 0.2, "clip_gradient": 0.01}),
]
# the last loss, then the first 6 weights and the 3 biases as float32 hex
_OPT_1_9_1 = """\
0.8958949 3dd8c452 3df7d478 3edfbbe2 3f19a62f 3d0ff178 3f1a7cce 3d56d31a 3e05164a be3acb2e
0.8674367 3de586d6 3ddb9471 3eea8bf5 3f19ab6e bc2e2808 3f1954f6 3d869b3b 3e2da506 be70f2ba
0.9366325 3dfe9463 3df7744c 3ed3467a 3f213b95 3e0d5536 3f1482f2 3d22abd9 3d23c48c bd238556
0.8104703 3e9323a0 bda9c0d5 3f1b9ca0 3f18dc00 bd8350cd 3eceaff0 3e4c1a09 3e78ff21 be6f024f
0.8907461 3e299f99 3d91a3b4 3eebbe3f 3f14b55a 3db55c49 3f08fd4a 3da4377f 3db6e062 bdb24a4f
0.7625866 3e865846 bdcaaa8a 3f1f4b12 3efef233 bdb6fd44 3ed2af7e 3e28f273 3e85bb23 be790d8d
0.9367554 3df71829 3df7c452 3ed34842 3f1bb866 3e0c77fa 3f15e240 3d1ba1c6 3d2769ab bd24c882
1.0344698 3c580571 bbb1d0ee 3d64ff68 3cb7cafa bd01838f 3c316434 3d2cc352 3d4af3e0 bda2aae0
0.9366051 3dff12c4 3df76c11 3ed34fe2 3f22e39f 3e0d4d98 3f147993 3d23d70a 3d23d70a bd23d70a
0.93698674 3dfa9a0b 3df7c294 3ed2e650 3f1fa29c 3e0da22a 3f14d6db 3d19aeab 3d2303ed bd203ca1
0.94602466 3de457cb 3e0845a8 3ecce72f 3f1da6a4 3e19eb76 3f17baab 3cf867bd 3d0024a6 bcfe1489
0.9467649 3de093ee 3e0a2f02 3ecbf5c4 3f1d628e 3e1bd464 3f183575 3cccb81d 3cd3c67b bcd1ccd4
0.9589753 3dcbc490 3e1556aa 3ec67e98 3f1c643f 3e26eea0 3f1ae2a5 3c28cb42 3c28cf21 bc28ce4c
0.953382 3dad6530 3e247629 3ebf01dd 3f18a83c 3e357c71 3f1eb149 3cb1a909 3d517f4c bd9529ec
0.93028325 3dc0865f 3e12ba16 3ecd73de 3f1926a0 3deb4a51 3f1ce7bf 3cbdff2d 3d6b741d bda536d4
0.9435318 3e3845c9 3dce79f2 3ea904a6 3f57abfc 3e3d6e0c 3f3ad73e bec84d3d bd75c3b4 be150635
0.93028075 3dc0865f 3e12ba0e 3ecd73ed 3f1926a0 3deb47e4 3f1ce7bf 3cbdff7b 3d6b77ae bda53bce
0.9648786 3dbd898c 3e1c7aa4 3ec2ed96 3f19f19a 3e2e1234 3f1caabb 3c03126f 3c03126f bc03126f
""".splitlines()


@pytest.mark.parametrize("case", range(len(_OPT_CASES)))
def test_trainer_with_each_optimizer_gives_1_9_1_bits(case):
    opt, kw = _OPT_CASES[case]
    X = nd.array(onp.random.RandomState(0).uniform(-1, 1, (8, 5)))
    Y = nd.array(onp.random.RandomState(1).randint(0, 3, 8))
    mx.random.seed(0)
    net = nn.Dense(3, in_units=5)
    net.initialize(mx.init.Xavier())
    tr = gluon.Trainer(net.collect_params(), opt, kw)
    L = gluon.loss.SoftmaxCrossEntropyLoss()
    for _ in range(4):
        with autograd.record():
            loss = L(net(X), Y)
        loss.backward()
        tr.step(8)
    w = onp.ascontiguousarray(net.weight.data().asnumpy().ravel()[:6])
    got = [str(loss.mean().asscalar())] + [format(int(v), "08x") for v in w.view(onp.uint32)]
    got += [format(int(v), "08x") for v in net.bias.data().asnumpy().view(onp.uint32)]
    assert " ".join(got) == _OPT_1_9_1[case]


# ---------------------------------------------------------------------------------------------
# Module.fit with a Monitor, callback lists, score and predict options

_MONITOR_NAMES = ["fc2_backward_output0", "fc2_backward_output1", "fc2_backward_output2",
                  "fc2_bias", "fc2_output", "fc2_weight"]
_MONITOR_1_9_1 = {
    1: ["0.28009397", "0.38079208", "0.54633963", "0.045528308", "0.34812754", "0.40746066"],
    2: ["0.24662359", "0.3581357", "0.62609863", "0.13867867", "0.28353012", "0.41852418"],
    3: ["0.18229395", "0.29481915", "1.0257483", "0.30799302", "0.53355986", "0.44867787"],
    4: ["0.26228195", "0.7087655", "1.8663316", "0.30484828", "0.5404909", "0.5073757"],
    5: ["0.1658388", "0.24204622", "0.3119637", "0.27602106", "1.1077337", "0.583785"],
    6: ["0.22059286", "0.13127366", "0.013815761", "0.24892525", "1.493689", "0.6674092"],
    7: ["0.30609697", "0.34754413", "0.778055", "0.2893769", "1.8838168", "0.74582607"],
    8: ["0.02505204", "0.03538183", "0.051151022", "0.32152084", "3.5340319", "0.8206086"],
}
_FIT_LOG_1_9_1 = [
    "Iter[0] Batch[0] Train-accuracy=0.666667", "Iter[0] Batch[0] Train-cross-entropy=0.684119",
    "Iter[0] Batch[2] Train-accuracy=0.777778", "Iter[0] Batch[2] Train-cross-entropy=0.536279",
    "Epoch[0] Train-accuracy=0.791667", "Epoch[0] Train-cross-entropy=0.519858",
    "Epoch[0] Validation-accuracy=1.000000", "Epoch[0] Validation-cross-entropy=0.209239",
    "Iter[1] Batch[0] Train-accuracy=1.000000", "Iter[1] Batch[0] Train-cross-entropy=0.178423",
    "Iter[1] Batch[2] Train-accuracy=0.944444", "Iter[1] Batch[2] Train-cross-entropy=0.184669",
    "Epoch[1] Train-accuracy=0.958333", "Epoch[1] Train-cross-entropy=0.141099",
    "Epoch[1] Validation-accuracy=1.000000", "Epoch[1] Validation-cross-entropy=0.026154",
]


def test_module_fit_with_monitor_and_callback_lists_logs_like_1_9_1(caplog):
    mx.random.seed(7)
    X = onp.random.RandomState(0).uniform(-1, 1, (20, 6)).astype("float32")
    Y = (X.sum(1) > 0).astype("float32")
    train = mx.io.NDArrayIter(X, Y, batch_size=6, shuffle=False, last_batch_handle="pad")
    val = mx.io.NDArrayIter(X[:10], Y[:10], batch_size=4, last_batch_handle="pad")
    data = mx.sym.var("data")
    act = mx.sym.Activation(mx.sym.FullyConnected(data, num_hidden=8, name="fc1"),
                            act_type="relu", name="relu1")
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(act, num_hidden=2, name="fc2"),
                               name="softmax")
    mod = mx.mod.Module(out, context=mx.cpu())
    seen, evals, epochs = [], [], []

    def batch_cb(p):
        seen.append((p.epoch, p.nbatch, [round(v, 5) for _, v in p.eval_metric.get_name_value()]))

    with caplog.at_level(logging.INFO):
        mod.fit(train, eval_data=val, eval_metric=["acc", "ce"], num_epoch=2,
                initializer=mx.init.Xavier(magnitude=2.0), optimizer="sgd",
                optimizer_params={"learning_rate": 0.5, "momentum": 0.9},
                batch_end_callback=[batch_cb, mx.callback.log_train_metric(2)],
                eval_end_callback=lambda p: evals.append((p.epoch, p.nbatch,
                                                          p.eval_metric.get_name_value())),
                epoch_end_callback=lambda e, s, a, x: epochs.append((e, sorted(a))),
                monitor=mx.mon.Monitor(1, pattern="fc2.*", sort=True))
    msgs = [r.getMessage() for r in caplog.records]
    monitor = [m for m in msgs if m.startswith("Batch:")]
    want = [f"Batch: {b:7d} {n:30s} {v}\t" for b, vals in _MONITOR_1_9_1.items()
            for n, v in zip(_MONITOR_NAMES, vals)]
    assert monitor == want
    assert [m for m in msgs if "Train-" in m or "Validation-" in m] == _FIT_LOG_1_9_1
    assert seen == [(0, 0, [0.66667, 0.68412]), (0, 1, [0.66667, 0.62648]),
                    (0, 2, [0.77778, 0.53628]), (0, 3, [0.79167, 0.51986]),
                    (1, 0, [1.0, 0.17842]), (1, 1, [1.0, 0.18084]),
                    (1, 2, [0.94444, 0.18467]), (1, 3, [0.95833, 0.1411])]
    assert evals == [(0, 3, [("accuracy", 1.0), ("cross-entropy", 0.20923873782157898)]),
                     (1, 3, [("accuracy", 1.0), ("cross-entropy", 0.026154272258281708)])]
    names = ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    assert epochs == [(0, names), (1, names)]

    assert mod.score(val, ["acc", mx.metric.MSE()], num_batch=2) == \
        [("accuracy", 1.0), ("mse", 0.49092400074005127)]
    p = mod.predict(val, num_batch=2)
    assert p.shape == (8, 2)
    onp.testing.assert_allclose(p.asnumpy()[:4, 0], [2.5380e-02, 4.0000e-05, 9.9901e-01, 0.0],
                                atol=6e-6)
    batches = mod.predict(val, merge_batches=False)
    assert [b[0].shape for b in batches] == [(4, 2), (4, 2), (2, 2)]
    assert [(i, b.pad) for _, i, b in mod.iter_predict(val, num_batch=1)] == [(0, 0)]


# ---------------------------------------------------------------------------------------------
# seeded training scripts

def _seeded_net(kind):
    net = nn.HybridSequential()
    if kind == "mlp":
        net.add(nn.Dense(16, activation="sigmoid"), nn.Dropout(0.3),
                nn.Dense(8, activation="softrelu"), nn.Dense(3))
    else:
        net.add(gluon.rnn.LSTM(6, layout="NTC"), nn.Dense(3, flatten=True))
    return net


_SEEDED_1_9_1 = {
    ("mlp", False): (["1.4095929861068726", "1.2891610860824585", "1.128477931022644"],
                     ["166b515ba2", "8c28d2045d", "9960fff508", "9e3dba1822", "83f940ef11",
                      "14d63185fe"]),
    ("mlp", True): (["2.1661808490753174", "2.1552765369415283", "1.8217936754226685"],
                    ["0e839b41e5", "72916936a9", "76f41c5bca", "d8c082e425", "5e1cfa601c",
                     "69997d6d7a"]),
    ("rnn", False): (["1.02335786819458", "0.9764044880867004", "0.9300553202629089"],
                     ["352c9fffe6", "701c79c65e", "be95b62de8", "d1f5c4206d", "be95b62de8",
                      "cb48af3b9a"]),
}
_SEEDED_1_9_1[("rnn", True)] = _SEEDED_1_9_1[("rnn", False)]


@pytest.mark.parametrize("kind,hybrid", sorted(_SEEDED_1_9_1))
def test_seeded_adam_training_gives_1_9_1_bits(kind, hybrid):
    # Xavier initialisation and Dropout masks from mx.random.seed (a hybridized net draws
    # other masks than an imperative one, in 1.9.1 too), three Adam steps
    shape = (6, 7) if kind == "mlp" else (3, 5, 4)
    mx.random.seed(123)
    net = _seeded_net(kind)
    net.initialize(mx.init.Xavier(), ctx=mx.cpu())
    if hybrid:
        net.hybridize(static_alloc=True, static_shape=True)
    X = nd.array(onp.random.RandomState(1).uniform(-1, 1, shape))
    Y = nd.array(onp.random.RandomState(2).randint(0, 3, shape[0]))
    tr = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.01})
    L = gluon.loss.SoftmaxCrossEntropyLoss()
    losses = []
    for _ in range(3):
        with autograd.record():
            loss = L(net(X), Y)
        loss.backward()
        tr.step(shape[0])
        losses.append(repr(float(loss.mean().asscalar())))
    sums = [_sha(v.data()) for _, v in sorted(net.collect_params().items())]
    assert (losses, sums) == _SEEDED_1_9_1[(kind, hybrid)]


# ---------------------------------------------------------------------------------------------
# gradients of an entry used several times

@pytest.mark.parametrize("n,want", [
    (3, "bddeed3abd3a64ccbdf22a7cbb9d0400be88a69cbf3a082a"),
    (4, "bf1d6469bd89c609be8fb4f9beb537503f087d4abf2711cb"),
    (5, "bf928b82bd877066bec9e20fbf75e5d83f6fe9f2beba6c07"),
])
def test_several_uses_of_an_array_sum_their_gradients_in_1_9_1_order(n, want):
    # 1.9.1 adds 3 or 4 contributions first-recorded use first, 5 or more last-recorded first
    # (autograd, bound symbols and hybridized blocks alike)
    rs = onp.random.RandomState(5)
    p = rs.uniform(-2, 2, (6,)).astype(onp.float32)
    og = rs.uniform(-1, 1, (6,)).astype(onp.float32)
    ws = [rs.uniform(-1, 1, (6,)).astype(onp.float32) for _ in range(5)][:n]
    x = nd.array(p)
    x.attach_grad()
    with autograd.record():
        y = x * nd.array(ws[0])
        for w in ws[1:]:
            y = y + x * nd.array(w)
    y.backward(nd.array(og))
    assert _hex(x.grad) == want

    xs = mx.sym.var("x")
    wv = [mx.sym.var(f"w{k}") for k in range(n)]
    ys = xs * wv[0]
    for w in wv[1:]:
        ys = ys + xs * w
    args = {"x": nd.array(p), **{f"w{k}": nd.array(w) for k, w in enumerate(ws)}}
    ex = ys.bind(mx.cpu(), args, args_grad={"x": nd.zeros((6,))}, grad_req={"x": "write"})
    ex.forward(is_train=True)
    ex.backward(nd.array(og))
    assert _hex(ex.grad_dict["x"]) == want

    class Uses(gluon.HybridBlock):
        def hybrid_forward(self, F, x, *w):
            y = x * w[0]
            for v in w[1:]:
                y = y + x * v
            return y

    blk = Uses()
    blk.hybridize()
    x = nd.array(p)
    x.attach_grad()
    with autograd.record():
        y = blk(x, *[nd.array(w) for w in ws])
    y.backward(nd.array(og))
    assert _hex(x.grad) == want


@pytest.mark.parametrize("hybrid", [False, True])
def test_sigmoid_bce_loss_gradient_gives_1_9_1_bits(hybrid):
    # relu(x) - x * z + softrelu(-|x|): three uses of the prediction
    rs = onp.random.RandomState(0)
    pred = nd.array(rs.uniform(-2, 2, (4, 5)))
    label = nd.array(rs.uniform(0, 1, (4, 5)))
    loss_fn = gluon.loss.SigmoidBCELoss()
    if hybrid:
        loss_fn.hybridize()
    pred.attach_grad()
    with autograd.record():
        loss = loss_fn(pred, label)
    loss.backward()
    assert _hex(loss) == "3f1e75eb3f269bad3f38a56b3f5ad50a"
    assert _hex(pred.grad) == (
        "bdb01c80bc9dd7ca3ce525f8bd4123c23d7aa63039ce74003d714ce3bcc02f443d8c6bb3bbbf1030"
        "3dcbfe18bd4902003cb6a4f43d63418e3cdaea97bdbb1348bdc64d693d0e877fbd1c92c43cd9836e")


# ---------------------------------------------------------------------------------------------
# n-ary sums: add_n and the KVStore's reduction of pushed values

_SUMS_1_9_1 = {
    ("add_n", 3): "bf8aa846bf950418bf8148163fa2086f3f3dbfec3f16b635",
    ("add_n", 4): "be622608c0075226bf4f1506400aa2103e4ea8b43f2f89e1",
    ("add_n", 5): "3f18efc5c0364674bf43184a402aaf7e3f0a33163f1f072e",
    ("local", 3): "bf8aa846bf950418bf8148163fa2086f3f3dbfec3f16b635",
    ("local", 4): "be622608c0075226bf4f1505400aa2103e4ea8b43f2f89e1",
    ("local", 6): "3be8e000c0377509bf82378a4027caf93e8b12203fa60562",
    ("device", 3): "bf8aa845bf950418bf8148163fa2086f3f3dbfec3f16b635",
    ("device", 4): "be622604c0075226bf4f1506400aa2103e4ea8b83f2f89e1",
    ("device", 6): "3be8e000c0377509bf82378b4027caf93e8b12243fa60562",
}


@pytest.mark.parametrize("kind,n", sorted(_SUMS_1_9_1))
def test_add_n_and_kvstore_sums_add_in_1_9_1_order(kind, n):
    # add_n: 3 or 4 inputs last one first; 'local' store: x0 + (((x1 + x2) + x3) + x4) ...;
    # 'device' store: first to last
    rs = onp.random.RandomState(7)
    xs = [rs.uniform(-1, 1, (6,)).astype(onp.float32) for _ in range(6)][:n]
    if kind == "add_n":
        got = nd.add_n(*[nd.array(x) for x in xs])
    else:
        kv = mx.kv.create(kind)
        kv.init("w", nd.zeros((6,)))
        kv.push("w", [nd.array(x, ctx=mx.cpu(i)) for i, x in enumerate(xs)])
        got = nd.zeros((6,))
        kv.pull("w", out=got)
    assert _hex(got) == _SUMS_1_9_1[(kind, n)]


def test_perplexity_metric_gives_1_9_1_value():
    # 1.9.1 takes the log with ndarray.log (the C library's logf) and sums with nd.sum
    rs = onp.random.RandomState(0)
    preds = [nd.array(rs.uniform(0, 1, (8, 3))) for _ in range(3)]
    preds = [p / p.sum(axis=1, keepdims=True) for p in preds]
    labels = [nd.array(rs.randint(0, 3, (8,))) for _ in range(3)]
    for ignore, want in ((None, 2.6871074270900235), (1, 2.6449763935626116)):
        m = mx.metric.Perplexity(ignore_label=ignore)
        for p, lab in zip(preds, labels):
            m.update([lab], [p])
        assert m.get() == ("perplexity", want)
        assert m.get_global() == ("perplexity", want)


# ---------------------------------------------------------------------------------------------
# gradients of binary and scalar operators (1.9.1 multiplies the head gradient by the
# derivative, formed first; a broadcast input's gradient is summed as nd.sum sums)

_BINARY_GRADS_1_9_1 = {
    "div": ("beda8998bef2745e3f3b938b3e1444d2c029dcd5bda603a3be7058373f9cb6113e8c46e63df73695"
            "3df235a43f888d10",
            "be199909be849b383dbe1d44bd420b7fbfa1ee0bbb9b50f2be8bc4713d5ecf6abe1be2fdbd4d20aa"
            "bd7b81323f7dd332"),
    "bdiv_col": ("beda8998beea21543e6f6c413de0126fc029dcd5bdf725abbf165a774005079f3e8c46e63e03"
                 "71133d86ec693f1097ae", "bed1772bc034ff0f3d4cdb00"),
    "bdiv_row": ("beda8998bef2745e3f3b938b3e1444d2befa0b61bcbc5f68bead65fc3f0193e83e7530673ded"
                 "ea1c3e38c34e3f273bba", "be9e42d0be9c8cc7bf1e523d3eaadba4"),
    "power": ("bf8d406abfc3bd813f03ce993e5ffef6bf3acdc6bd66480ebe26c1bc3f783b933f2fa79f3e97b0c5"
              "3dcb14e83f457633", None),
    "hypot": ("3e83d78c3ecc6e98bd5b07263d7d93ec3ec3c4ea3b1a925d3e18b025bcfd104d3e58b2693da033bb"
              "3d45bc71bf1c8a19",
              "bf3b9562bf3ae3b93ed81a9c3e41c1f5bf4d5c17bd2537edbe0348143f31fd5a3ec2ff7b3e411206"
              "3dbe6d9b3f286d93"),
}
_SCALAR_GRADS_1_9_1 = {
    "rdiv": "3f3c68e34096b7f4c07c692fbe8d54324204dae53e50c6bf40db0684c0893de1c171ade7bfb9364c"
            "be16d836bf7e2005",
    "pow": "c08a8ff1bfb9d1e43f09e5263f5dde27bee8beacbd9b9115bdd7c6253f9310e93e6fa7e63e9d884c"
           "3ee7652f4090fec1",
    "rpow": "c056aebfbfadf45e3f1989f53f257f82bf7640d8bd8ca496be5c0d053f8d799a3ef3e86e3e9ee50e"
            "3eac898f405bcb01",
    "hypot": "bf261b17bee0feb43e3e6d583e1f84b1be560f52bcb61430bd43f16b3eb670b33dd979923dcb1450"
             "3da76ed03f3b7231",
}


def _grad_inputs():
    rs = onp.random.RandomState(11)
    a0 = rs.uniform(-1, 1, (3, 4)).astype(onp.float32)
    b0 = rs.uniform(0.3, 2, (3, 4)).astype(onp.float32)
    g0 = rs.uniform(-1, 1, (3, 4)).astype(onp.float32)
    x0 = rs.uniform(0.2, 2, (3, 4)).astype(onp.float32)
    return a0, b0, g0, x0


@pytest.mark.parametrize("name", sorted(_BINARY_GRADS_1_9_1))
def test_binary_operator_gradients_give_1_9_1_bits(name):
    a0, b0, g0, _ = _grad_inputs()
    fn, bshape = {"div": (lambda a, b: a / b, (3, 4)), "bdiv_col": (nd.broadcast_div, (3, 1)),
                  "bdiv_row": (nd.broadcast_div, (1, 4)), "power": (nd.broadcast_power, (3, 4)),
                  "hypot": (nd.broadcast_hypot, (3, 4))}[name]
    a = nd.array(onp.abs(a0) + 0.1 if name == "power" else a0)
    b = nd.array(b0[:bshape[0], :bshape[1]])
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = fn(a, b)
    y.backward(nd.array(g0))
    want_a, want_b = _BINARY_GRADS_1_9_1[name]
    assert _hex(a.grad) == want_a
    if want_b is not None:   # (power's rhs gradient takes logf, one element an ulp off here)
        assert _hex(b.grad) == want_b


@pytest.mark.parametrize("name", sorted(_SCALAR_GRADS_1_9_1))
def test_scalar_operator_gradients_give_1_9_1_bits(name):
    _, _, g0, x0 = _grad_inputs()
    fn = {"rdiv": lambda x: 3.7 / x, "pow": lambda x: x ** 2.3, "rpow": lambda x: 2.3 ** x,
          "hypot": lambda x: nd._internal._hypot_scalar(x, scalar=1.3)}[name]
    x = nd.array(x0)
    x.attach_grad()
    with autograd.record():
        y = fn(x)
    y.backward(nd.array(g0))
    assert _hex(x.grad) == _SCALAR_GRADS_1_9_1[name]


_UNARY_GRADS_1_9_1 = {
    "sqrt": "3f77889cbedf4918bec694063e15a3933faa29a63ec5a40cbf0caa243d7437ab",
    "arctan": "3f5ed7eabefb3205bec9e0ac3e2a09363f60a4763ed4d1b7bf184bdd3d2b2283",
    "arctanh": "3f763d56bfb23bf0bef500f83e9665ca3f66509840151e80c043093b3d30b8e1",
    "arcsinh": "3f645548bf18bd8abed364f63e4033cc3f6209dd3f0aa0b1bf4501c03d2c80f5",
    "erfinv": "3f57da09bf8a6719bed47de33e7914823f4b901f3fd1d1a1c00b09cf3d1c12cd",
}


@pytest.mark.parametrize("name", sorted(_UNARY_GRADS_1_9_1))
def test_unary_operator_gradients_give_1_9_1_bits(name):
    rs = onp.random.RandomState(12)
    x0 = rs.uniform(0.1, 0.9, (8,)).astype(onp.float32)
    g0 = rs.uniform(-1, 1, (8,)).astype(onp.float32)
    x = nd.array(x0)
    x.attach_grad()
    with autograd.record():
        y = getattr(nd, name)(x)
    y.backward(nd.array(g0))
    assert _hex(x.grad) == _UNARY_GRADS_1_9_1[name]


def test_float16_gamma_gradient_gives_1_9_1_bits():
    # the half kernel takes gamma(x) in float for the derivative, not the float16 output
    rs = onp.random.RandomState(12)
    x0 = rs.uniform(0.1, 0.9, (8,)).astype(onp.float32)
    g0 = rs.uniform(-1, 1, (8,)).astype(onp.float32)
    x = nd.array(x0, dtype="float16")
    x.attach_grad()
    with autograd.record():
        y = nd.gamma(x)
    y.backward(nd.array(g0, dtype="float16"))
    got = "".join(format(int(v), "04x") for v in x.grad.asnumpy().view(onp.uint16))
    assert got == "cc6c3cbb4436b940d46ab9a53c2cc139"
