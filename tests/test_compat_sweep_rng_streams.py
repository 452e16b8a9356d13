"""mx.random.seed gives 1.9.1's CPU random streams: the parallel sampler (uniform, normal,
randint, the _sample_/_like forms, Dropout, initializers) and the single-engine one
(mx.np.random.uniform/normal). Every expected value is the CRC32 of the output bytes that
MXNet 1.9.1 produced for the same calls, in the same order, recorded as literals."""

import zlib

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon

# CRC32 (hex) of 1.9.1's output bytes for each call of _run_sequence
REF = {
    "c0": "bba1825f",
    "c1": "73aa9674",
    "c1b": "73aa9674",
    "d16": "1b513e18",
    "d32": "6a9ae15f",
    "d64": "4e1b6435",
    "dax": "43db39d0",
    "dbig": "298905db",
    "dinf": "ab8ca7b8",
    "init_default_cnn": "ca09acc8 ecbb4b55 e8681456 ecbb4b55 ecbb4b55 e8681456 daf3a81f 7bd5c66f "
    "151626ad 0fd59b8d",
    "init_default_mlp": "d97d8b5b 758d6336 c3c5d33a ecbb4b55",
    "init_msra_cnn": "956e7a7f ecbb4b55 e8681456 ecbb4b55 ecbb4b55 e8681456 1b5e905f 7bd5c66f "
    "12cae14b 0fd59b8d",
    "init_msra_mlp": "60ef55a7 758d6336 d6f32d1c ecbb4b55",
    "init_normal_cnn": "b37deb57 ecbb4b55 e8681456 ecbb4b55 ecbb4b55 e8681456 22470bbe 7bd5c66f "
    "6fd86c50 0fd59b8d",
    "init_normal_mlp": "d51e7d07 758d6336 e5c8e03d ecbb4b55",
    "init_unif_cnn": "92786cb8 ecbb4b55 e8681456 ecbb4b55 ecbb4b55 e8681456 1fcab06b 7bd5c66f "
    "94991548 0fd59b8d",
    "init_unif_mlp": "b682ba5e 758d6336 73cf00d9 ecbb4b55",
    "init_xavier_cnn": "3427ba1d ecbb4b55 e8681456 ecbb4b55 ecbb4b55 e8681456 a2f96e21 7bd5c66f "
    "9e96510e 0fd59b8d",
    "init_xavier_mlp": "663163d7 758d6336 b5e0ac5f ecbb4b55",
    "init_xg_cnn": "32d7b60d ecbb4b55 e8681456 ecbb4b55 ecbb4b55 e8681456 2e1705b0 7bd5c66f b7e14542 "
    "0fd59b8d",
    "init_xg_mlp": "4dd03ff2 758d6336 c7deab25 ecbb4b55",
    "init_xout_cnn": "d7125293 ecbb4b55 e8681456 ecbb4b55 ecbb4b55 e8681456 f3f0337e 7bd5c66f "
    "3b117a4e 0fd59b8d",
    "init_xout_mlp": "65b19146 758d6336 7a6a57ae ecbb4b55",
    "mod": "fc1_bias:e9ec3db1 fc1_weight:0f4ff733 fc2_bias:7bd5c66f fc2_weight:18abc27d",
    "n16": "2323f604",
    "n32": "39d71302",
    "n32b": "a9afe0e2",
    "n64": "f57aff5d",
    "nl": "ed397d7f",
    "npn": "27fa6f80",
    "npn2": "46f3835f",
    "npri": "168f7838",
    "npu": "b395a6c3",
    "npu2": "196e526f",
    "npu64": "b9860356",
    "orth_tmp": "c8dd26d3",
    "rand": "8815be69",
    "randn": "9e0aa1ec",
    "ri32": "d8121177",
    "ri64": "565ce94e",
    "sn": "3b15bbc3",
    "sn64": "5af2fd99",
    "su": "1da3aec8",
    "su16": "c23daf41",
    "su64": "780fd21c",
    "u16": "a6c06212",
    "u32": "68d917d8",
    "u32b": "8bd47980",
    "u64": "9a9d78b2",
    "ul": "13b39462",
}


def crc(a):
    a = np.ascontiguousarray(a.asnumpy() if hasattr(a, "asnumpy") else a)
    return "%08x" % zlib.crc32(a.tobytes())


def mlp():
    net = gluon.nn.Sequential()
    net.add(
        gluon.nn.Dense(16, activation="relu", in_units=8),
        gluon.nn.Dropout(0.5),
        gluon.nn.Dense(4, in_units=16),
    )
    return net


def cnn():
    net = gluon.nn.HybridSequential()
    net.add(
        gluon.nn.Conv2D(4, 3, in_channels=2),
        gluon.nn.BatchNorm(in_channels=4),
        gluon.nn.Conv2D(3, 3, in_channels=4),
        gluon.nn.Flatten(),
        gluon.nn.Dense(5),
    )
    return net


def _run_sequence():
    R = {}
    mx.random.seed(42)
    R["u32"] = crc(mx.nd.random.uniform(-2, 3, shape=(5,)))
    R["u32b"] = crc(mx.nd.random.uniform(-2, 3, shape=(1000,)))
    R["u64"] = crc(mx.nd.random.uniform(0.1, 0.7, shape=(3, 7), dtype="float64"))
    R["u16"] = crc(mx.nd.random.uniform(-2, 3, shape=(130,), dtype="float16"))
    R["n32"] = crc(mx.nd.random.normal(1, 2, shape=(5,)))
    R["n32b"] = crc(mx.nd.random.normal(1, 2, shape=(3000,)))
    R["n64"] = crc(mx.nd.random.normal(1, 2, shape=(3, 70), dtype="float64"))
    R["n16"] = crc(mx.nd.random.normal(0.3, 1.7, shape=(130,), dtype="float16"))
    R["ri32"] = crc(mx.nd.random.randint(-5, 100, shape=(1000,)))
    R["ri64"] = crc(mx.nd.random.randint(-(2**40), 2**40, shape=(300,), dtype="int64"))
    lo = mx.nd.array([0, 1, 2])
    hi = mx.nd.array([1, 3, 7.5])
    R["su"] = crc(mx.nd.sample_uniform(lo, hi, shape=(2, 40)))
    R["su64"] = crc(mx.nd.sample_uniform(lo.astype("float64"), hi.astype("float64"), shape=(2, 40)))
    R["su16"] = crc(
        mx.nd.sample_uniform(lo.astype("float16"), hi.astype("float16"), shape=(2, 40), dtype="float16")
    )
    R["sn"] = crc(mx.nd.sample_normal(lo, hi, shape=(50,)))
    R["sn64"] = crc(
        mx.nd.sample_normal(lo.astype("float64"), hi.astype("float64"), shape=(5,), dtype="float64")
    )
    R["ul"] = crc(mx.nd.random.uniform_like(mx.nd.ones((7, 30)), low=0.2, high=0.9))
    R["nl"] = crc(mx.nd.random.normal_like(mx.nd.ones((7, 30), dtype="float16"), loc=0.2, scale=0.9))
    R["npu"] = crc(mx.np.random.uniform(0.1, 0.7, size=(50,)))
    R["npn"] = crc(mx.np.random.normal(size=(51,)))
    R["npu2"] = crc(mx.np.random.uniform(mx.np.array([0.0, 1.0]), 2.5, size=(3, 2)))
    R["npn2"] = crc(mx.np.random.normal(0.5, mx.np.array([1.0, 2.0]), size=(3, 2)))
    R["npu64"] = crc(mx.np.random.uniform(size=(3, 2), dtype="float64"))
    R["npri"] = crc(mx.np.random.randint(0, 10, size=(20,)))
    R["randn"] = crc(mx.np.random.randn(4, 3))
    R["rand"] = crc(mx.np.random.rand(4, 3))
    mx.random.seed(9, ctx=mx.cpu(1))
    R["c1"] = crc(mx.nd.random.uniform(shape=(4,)))
    mx.random.seed(9)
    R["c1b"] = crc(mx.nd.random.uniform(shape=(4,), ctx=mx.cpu(1)))
    R["c0"] = crc(mx.nd.random.uniform(shape=(4,)))
    mx.random.seed(3)
    with autograd.record():
        R["d32"] = crc(mx.nd.Dropout(mx.nd.ones((4, 40)), p=0.3))
        R["dax"] = crc(mx.nd.Dropout(mx.nd.ones((4, 5, 70)), p=0.5, axes=(1,)))
        R["d64"] = crc(mx.nd.Dropout(mx.nd.ones((2, 100), dtype="float64"), p=0.3))
        R["d16"] = crc(mx.nd.Dropout(mx.nd.ones((2, 100), dtype="float16"), p=0.25))
        R["dbig"] = crc(mx.nd.Dropout(mx.nd.ones((8, 64, 30)), p=0.5))
    R["dinf"] = crc(mx.nd.Dropout(mx.nd.ones((4, 40)), p=0.3))

    def mlp():
        net = gluon.nn.Sequential()
        net.add(
            gluon.nn.Dense(16, activation="relu", in_units=8),
            gluon.nn.Dropout(0.5),
            gluon.nn.Dense(4, in_units=16),
        )
        return net

    def cnn():
        net = gluon.nn.HybridSequential()
        net.add(
            gluon.nn.Conv2D(4, 3, in_channels=2),
            gluon.nn.BatchNorm(in_channels=4),
            gluon.nn.Conv2D(3, 3, in_channels=4),
            gluon.nn.Flatten(),
            gluon.nn.Dense(5),
        )
        return net

    inits = {
        "default": None,
        "xavier": mx.init.Xavier(),
        "xg": mx.init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2),
        "xout": mx.init.Xavier(factor_type="out"),
        "normal": mx.init.Normal(0.1),
        "msra": mx.init.MSRAPrelu(),
        "unif": mx.init.Uniform(0.3),
    }
    for nm, init in inits.items():
        for mk in (mlp, cnn):
            mx.random.seed(42)
            net = mk()
            net.initialize() if init is None else net.initialize(init)
            if mk is cnn:
                net(mx.nd.ones((1, 2, 8, 8)))
            R["init_%s_%s" % (nm, mk.__name__)] = " ".join(
                crc(p.data()) for p in net.collect_params().values()
            )
    mx.random.seed(7)
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=10, name="fc1")
    act = mx.sym.Activation(fc, act_type="relu")
    fc2 = mx.sym.FullyConnected(act, num_hidden=3, name="fc2")
    out = mx.sym.SoftmaxOutput(fc2, name="softmax")
    mod = mx.mod.Module(out)
    mod.bind(data_shapes=[("data", (4, 6))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(mx.init.Uniform(0.5))
    a, _ = mod.get_params()
    R["mod"] = " ".join(k + ":" + crc(v) for k, v in sorted(a.items()))
    mx.random.seed(1)
    R["orth_tmp"] = crc(mx.nd.random.uniform(-1.0, 1.0, shape=(6, 4)))
    return R


@pytest.fixture(scope="module")
def got():
    try:
        return _run_sequence()
    finally:
        mx.random.seed(0)


SAMPLERS = [
    "u32",
    "u32b",
    "u64",
    "u16",
    "n32",
    "n32b",
    "n64",
    "n16",
    "ri32",
    "ri64",
    "su",
    "su64",
    "su16",
    "sn",
    "sn64",
    "ul",
    "nl",
]
NP = ["npu", "npn", "npu2", "npn2", "npu64", "npri", "randn", "rand"]
DROPOUT = ["d32", "dax", "d64", "d16", "dbig", "dinf"]
SHARED = ["c1", "c1b", "c0"]


@pytest.mark.parametrize("key", SAMPLERS + NP + DROPOUT + SHARED)
def test_sampler_streams(got, key):
    assert got[key] == REF[key]


@pytest.mark.parametrize("key", sorted(k for k in REF if k.startswith("init_")) + ["mod", "orth_tmp"])
def test_initializers(got, key):
    assert got[key] == REF[key]


def test_mlp_training_step_with_dropout():
    """Xavier init after seed(42), one SGD step through Dropout: the dropout mask is 1.9.1's
    bit for bit; the weights agree to a few ulp (Dense's sums are ordered differently)."""
    mx.random.seed(42)
    try:
        net = mlp()
        net.initialize(mx.init.Xavier())
        tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
        x = mx.nd.arange(32).reshape(4, 8) / 16.0
        y = mx.nd.array([0, 1, 2, 3])
        loss = gluon.loss.SoftmaxCrossEntropyLoss()
        with autograd.record():
            h = net[1](net[0](x))
            l = loss(net[2](h), y)
        l.backward()
        tr.step(4)
        assert np.packbits(h.asnumpy().ravel() == 0).tobytes().hex() == "ffd96ffd69fb79d9"
        want = [  # first float32 bit patterns of each parameter after the step, 1.9.1
            [1041754462, 1030614644, 3188715827, 3188813112, 3182387672, 1049271838],
            [3188950087, 0, 0, 1007001944, 0, 3178512740],
            [3196883833, 3204943554, 1054863844, 1053275497, 1025829312, 1041553094],
            [1018011633, 3188281496, 1035626911, 1018379664],
        ]
        params = list(net.collect_params().values())
        assert len(params) == len(want)
        for p, bits in zip(params, want):
            w = np.array(bits, dtype=np.uint32).view(np.float32)
            np.testing.assert_allclose(p.data().asnumpy().ravel()[: len(w)], w, rtol=2e-6, atol=1e-8)
    finally:
        mx.random.seed(0)


def test_closed_form_stream():
    """seed(s): state k of 1024 is std::mt19937(s * 127 + k); a 5-element float32 uniform
    is generate_canonical<float> of state 0's first words."""
    mx.random.seed(11)
    try:
        got = mx.nd.random.uniform(shape=(5,)).asnumpy()
        bg = np.random.RandomState(11 * 127)._bit_generator
        want = bg.random_raw(5).astype(np.float32) / np.float32(2**32)
        assert got.tobytes() == want.tobytes()
        # 200 elements: 4 chunks of 50, chunk k from state k
        mx.random.seed(11)
        got = mx.nd.random.uniform(shape=(200,)).asnumpy()
        for k in range(4):
            bg = np.random.RandomState(11 * 127 + k)._bit_generator
            want = bg.random_raw(50).astype(np.float32) / np.float32(2**32)
            assert got[50 * k : 50 * (k + 1)].tobytes() == want.tobytes()
    finally:
        mx.random.seed(0)


def test_state_snapshot_restores_every_stream():
    from mxnet.backend import get_backend

    mx.random.seed(5)
    try:
        rng = get_backend(mx.cpu()).rng
        mx.nd.random.normal(shape=(100,)).wait_to_read()  # leaves words pending
        snap = rng.bit_generator.state
        a = [
            mx.nd.random.normal(shape=(3000,)).asnumpy(),
            mx.np.random.normal(size=(7,)).asnumpy(),
            mx.nd.random.gamma(shape=(5,)).asnumpy(),
        ]
        rng.bit_generator.state = snap
        b = [
            mx.nd.random.normal(shape=(3000,)).asnumpy(),
            mx.np.random.normal(size=(7,)).asnumpy(),
            mx.nd.random.gamma(shape=(5,)).asnumpy(),
        ]
        for x, y in zip(a, b):
            assert x.tobytes() == y.tobytes()
    finally:
        mx.random.seed(0)


def test_out_buffers_graphs_and_big_draws():
    """out= buffers set the draw type; a bound graph draws in execution order (1.9.1's values
    with MXNET_SUBGRAPH_BACKEND=NONE: its default MKLDNN pass drops the Dropout of a graph
    bound without gradients even when forward(is_train=True)); 1024-chunk draws."""
    mx.random.seed(2)
    try:
        b = mx.nd.zeros((100,), dtype="float16")
        mx.nd.random.uniform(-1, 1, shape=(100,), out=b)
        assert crc(b) == "5f21c26c"
        b = mx.nd.zeros((100,), dtype="float64")
        mx.nd.random.normal(0, 1, shape=(100,), out=b)
        assert crc(b) == "9bbe0d06"
        x = mx.sym.var("x")
        s = mx.sym.Dropout(mx.sym.random.uniform(shape=(3, 50)) + x, p=0.4)
        ex = s.bind(mx.cpu(), {"x": mx.nd.ones((3, 50))})
        assert crc(ex.forward(is_train=True)[0]) == "19c5d022"
        net = gluon.nn.HybridSequential()
        net.add(
            gluon.nn.Dense(20, in_units=10),
            gluon.nn.Dropout(0.3),
            gluon.nn.Dense(5, in_units=20),
            gluon.nn.Dropout(0.2, axes=(1,)),
        )
        net.initialize()
        net.hybridize()
        with autograd.record():
            net(mx.nd.ones((4, 10))).wait_to_read()
        assert crc(mx.nd.random.randint(0, 5, shape=(64 * 3 + 1,))) == "a101ee0b"
        got = []
        for seed in (-1, 2**31 - 1, 123456789):
            mx.random.seed(seed)
            got.append(crc(mx.nd.random.uniform(shape=(2,))))
        assert got == ["65c264e2", "0da90ac0", "a6444f28"]
        assert crc(mx.nd.random.normal(shape=(70000,), dtype="float16")) == "dc1fd82d"
        assert crc(mx.nd.random.normal(shape=(300000,))) == "7e4f2db8"
    finally:
        mx.random.seed(0)


def test_float32_uniform_can_be_exactly_one():
    # recorded from 1.9.1: mx.random.seed(0); mx.nd.random.uniform(shape=(2**25,)) has 1.0 at
    # index 9609221 (chunks of 32,768: state 293, its word 8197 rounds up to 2**32), the only
    # value >= 1; its libstdc++ does not clamp generate_canonical below 1
    from mxnet.backend.mt_parallel import ParallelMT, canonical_f32
    gen = ParallelMT(0)
    n = 2 ** 25
    a, b, k = gen.chunks(n)[293]
    assert (a, b, k) == (9601024, 9633792, 293)
    words = gen.state(293).random_raw(8198)   # (the public draw would take 128 MB)
    assert float(canonical_f32(words)[8197]) == 1.0
    assert float(canonical_f32(words[:8197]).max()) < 1.0
