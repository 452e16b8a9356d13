"""BatchNorm in training mode bit for bit against MXNet 1.9.1 (float32, CPU build).

1.9.1 hands float32 BatchNorm of every rank and axis to oneDNN's plain-layout kernel, the data
seen as (N, C, S). Each channel's sums (mean, variance, sum(g), sum(g * (x - mean))) are
float32 sums taken element after element in (n, s) order; mean = sum / n, var = sum((x -
mean)^2) / n, out = gamma / sqrt(var + eps) * (x - mean) + beta; MXNet returns 1 / sqrt(var +
eps) as the third output, recovers var from it in double for the backward pass and the
moving statistics; dx = (g - (sum(g) / n + (x - mean) * dgamma * r / n)) * (gamma * r).

Each case runs forward (output_mean_var) and backward (a seeded head gradient) under
autograd and compares the CRC-32 of the float32 bytes of: output, mean, inverse std, moving
mean and moving var after the backward pass, and the gradients of data, gamma and beta, with
the values 1.9.1 gave for the same script (recorded under 1.9.1, NaiveEngine, on a 2-core
machine). ``np.random.RandomState``'s uniform stream is the same in every NumPy version, so
the inputs are the ones 1.9.1 saw.

Inputs of more than ``nn_norm._BN_TRAIN_EXACT_MAX`` elements keep NumPy's faster pairwise
sums; the ResNet-sized cases raise that bound to check the exact path there as well.
"""
import zlib

import numpy as np
import pytest

import mxnet as mx


@pytest.fixture(autouse=True)
def _on_cpu():
    """The recorded bits are 1.9.1's CPU kernels': run on the CPU whatever the default device."""
    with mx.cpu():
        yield


def _data(seed, shape, lo, hi):
    return np.random.RandomState(seed).uniform(lo, hi, size=shape).astype(np.float32)


def _crc(a):
    a = a.asnumpy() if hasattr(a, "asnumpy") else a
    return zlib.crc32(np.ascontiguousarray(a, np.float32).tobytes())


def _bn_case(shape, axis=1, fix_gamma=False, seed=0, **kw):
    """CRC-32s of (out, mean, invstd, moving_mean, moving_var, dx, dgamma, dbeta)."""
    nd = mx.nd
    c = shape[axis]
    x = nd.array(_data(seed, shape, -3, 5))
    gamma = nd.array(_data(seed + 2, (c,), 0.5, 1.5))
    beta = nd.array(_data(seed + 3, (c,), -1, 1))
    mm = nd.array(_data(seed + 4, (c,), -1, 1))
    mv = nd.array(_data(seed + 5, (c,), 0.5, 2))
    for a in (x, gamma, beta):
        a.attach_grad()
    with mx.autograd.record():
        out, mean, inv = nd.BatchNorm(x, gamma, beta, mm, mv, axis=axis, fix_gamma=fix_gamma,
                                      output_mean_var=True, **kw)
    out.backward(nd.array(_data(seed + 1, shape, -1, 1)))
    return tuple(_crc(a) for a in (out, mean, inv, mm, mv, x.grad, gamma.grad, beta.grad))


# name: (shape, axis, fix_gamma, extra attributes)
CASES = {
    "nchw": ((8, 3, 5, 7), 1, False, {}),
    "nchw_fix_gamma": ((8, 3, 5, 7), 1, True, {}),
    "2d": ((4, 16), 1, False, {}),
    "2d_fix_gamma": ((4, 16), 1, True, {}),
    "dense": ((32, 10), 1, False, {}),
    "3d": ((4, 5, 6), 1, False, {}),
    "5d": ((2, 6, 4, 4, 4), 1, False, {}),
    "last_axis": ((4, 5, 6), -1, False, {}),
    "last_axis_fix_gamma": ((4, 5, 6), -1, True, {}),
    "last_axis_4d": ((2, 3, 4, 5), -1, False, {}),
    "middle_axis": ((3, 4, 5, 2), 2, False, {}),
    "one_channel": ((5, 1, 3, 3), 1, False, {}),
    "batch_of_one": ((1, 4, 7), 1, False, {}),
    "eps_momentum": ((6, 4, 3, 3), 1, False, {"eps": 1e-5, "momentum": 0.99}),
    "global_stats": ((6, 4, 3, 3), 1, False, {"use_global_stats": True}),
    # S = 256, C = 64: the tiled channel-last copy; 65,536 elements (the default bound)
    "tiled": ((4, 64, 16, 16), 1, False, {}),
}

# recorded from 1.9.1
EXPECTED = {
    "2d": (
        3235845031, 1540338357, 2668910560, 1145399018, 992592817, 896088832, 2771873116,
        3907899880
    ),
    "2d_fix_gamma": (
        1313283892, 2875348221, 3794561849, 2830911848, 2096843074, 2421592294, 1972200246,
        319269749
    ),
    "3d": (
        3876309265, 1157959396, 1008545406, 3814596823, 1287905924, 728505006, 1054058654,
        2169580928
    ),
    "5d": (
        2915344329, 2908383007, 99415790, 1921518762, 1585347915, 1396950961, 33436852,
        1182142106
    ),
    "batch_of_one": (
        3736258330, 271315199, 4108796965, 474803598, 3237881119, 2677656253, 4070171287,
        4224902851
    ),
    "dense": (
        423468328, 2972654178, 2628821577, 1669045832, 3320616033, 284530258, 992144235,
        281926273
    ),
    "eps_momentum": (
        131187351, 1673541661, 65977894, 2315269637, 2304888909, 3136199252, 2502994479,
        2215471850
    ),
    "global_stats": (
        106562121, 886840802, 713812382, 886840802, 2739283382, 3595171506, 3218495609,
        2215471850
    ),
    "last_axis": (
        3787495807, 2454625720, 1813587385, 2874045218, 810296030, 950667251, 2378647798,
        1135381462
    ),
    "last_axis_4d": (
        2743999799, 1058715929, 1975691043, 1909355305, 535247630, 3606848274, 558471054,
        861567106
    ),
    "last_axis_fix_gamma": (
        1323256879, 2896340899, 2610765062, 3228559542, 2754899414, 1651042854, 2747386400,
        2508855961
    ),
    "middle_axis": (
        1907683688, 2838419854, 843311728, 2193910482, 1707405224, 786781327, 3341867000,
        913314601
    ),
    "nchw": (
        319954438, 1063400301, 676475667, 964680977, 3474243146, 2197081822, 3561567574,
        3641753655
    ),
    "nchw_fix_gamma": (
        424008079, 1771072875, 3287225955, 3664396482, 2664741607, 2005952936, 2077607535,
        3178550685
    ),
    "one_channel": (
        129992114, 1033997220, 2170374171, 2190820068, 3044808670, 1311966954, 972592167,
        692143057
    ),
    "tiled": (
        4092825628, 1369538982, 2682219871, 2322047675, 1752587053, 3088441432, 1840258645,
        2584847022
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_batchnorm_training_bits(name):
    shape, axis, fix_gamma, kw = CASES[name]
    got = _bn_case(shape, axis, fix_gamma, seed=len(name), **kw)
    assert got == EXPECTED[name]


# ResNet-18 sizes, above the default bound: 1.9.1's bits once the bound is raised
BIG_CASES = {
    "resnet_64": ((32, 64, 32, 32), 1, False, {}),
    "resnet_128": ((32, 128, 16, 16), 1, True, {}),
}
BIG_EXPECTED = {
    "resnet_128": (
        3765737770, 1197192710, 3114787711, 198136311, 2612593712, 11699510, 2997515640,
        2378589853
    ),
    "resnet_64": (
        2608885183, 3476179003, 196334215, 761151709, 2527623615, 3762849916, 2923391916,
        3933503329
    ),
}


@pytest.mark.parametrize("name", sorted(BIG_CASES))
def test_batchnorm_training_bits_resnet_sizes(name, monkeypatch):
    from mxnet.operator import nn_norm
    shape, axis, fix_gamma, kw = BIG_CASES[name]
    monkeypatch.setattr(nn_norm, "_BN_TRAIN_EXACT_MAX", 1 << 22)
    assert _bn_case(shape, axis, fix_gamma, seed=len(name), **kw) == BIG_EXPECTED[name]


def test_batchnorm_above_bound_stays_close():
    """Above the bound the pairwise kernel stays within a few ulps of the exact one."""
    from mxnet.operator import nn_norm
    shape = (4, 8, 48, 48)
    assert np.prod(shape) > nn_norm._BN_TRAIN_EXACT_MAX
    x = mx.nd.array(_data(1, shape, -3, 5))
    g = mx.nd.array(_data(2, shape, -1, 1))
    res = []
    for bound in (nn_norm._BN_TRAIN_EXACT_MAX, 1 << 22):
        old = nn_norm._BN_TRAIN_EXACT_MAX
        nn_norm._BN_TRAIN_EXACT_MAX = bound
        try:
            gamma, beta = mx.nd.ones(8) * 1.5, mx.nd.zeros(8)
            mm, mv = mx.nd.zeros(8), mx.nd.ones(8)
            xx = x.copy()
            xx.attach_grad()
            with mx.autograd.record():
                out = mx.nd.BatchNorm(xx, gamma, beta, mm, mv, fix_gamma=False)
            out.backward(g)
            res.append([a.asnumpy() for a in (out, xx.grad, mm, mv)])
        finally:
            nn_norm._BN_TRAIN_EXACT_MAX = old
    for fast, exact in zip(*res):
        np.testing.assert_allclose(fast, exact, rtol=1e-5, atol=1e-5)


def _gluon_run(hybridize):
    """Two BatchNorm layers (axis 1, and axis -1 without gamma), two training steps."""
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.BatchNorm(in_channels=6))
    net.add(mx.gluon.nn.BatchNorm(axis=-1, in_channels=5, scale=False))
    net.initialize()
    for i, p in enumerate(net.collect_params().values()):
        p.set_data(mx.nd.array(_data(10 + i, p.shape, 0.5, 1.5)))
    if hybridize:
        net.hybridize()
    x = mx.nd.array(_data(20, (8, 6, 4, 5), -3, 5))
    x.attach_grad()
    for _ in range(2):
        with mx.autograd.record():
            y = net(x)
            loss = (y * y).sum()
        loss.backward()
    params = [p.data() for p in net.collect_params().values()]
    grads = [p.grad() for p in net.collect_params().values() if p.grad_req != "null"]
    return tuple(_crc(a) for a in [y, x.grad] + params + grads)


GLUON_EXPECTED = (
    3579146588, 2448000232, 745388432, 747363086, 667955754, 3284604706, 1511897693, 2473856706,
    1075583042, 1891368812, 876423047, 296224159, 2828200775
)


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_batchnorm_bits(hybridize):
    assert _gluon_run(hybridize) == GLUON_EXPECTED


def _module_run():
    data = mx.sym.var("data")
    sym = mx.sym.BatchNorm(data, fix_gamma=False, eps=1e-4, momentum=0.8, name="bn")
    sym = mx.sym.MakeLoss(mx.sym.sum(sym * sym))
    mod = mx.mod.Module(sym, data_names=["data"], label_names=None, context=mx.cpu())
    x = _data(30, (8, 6, 5, 5), -3, 5)
    mod.bind([("data", x.shape)], inputs_need_grad=True)
    mod.init_params(mx.init.Zero())
    arg, aux = mod.get_params()
    arg["bn_gamma"][:] = mx.nd.array(_data(31, (6,), 0.5, 2))
    arg["bn_beta"][:] = mx.nd.array(_data(32, (6,), -1, 1))
    aux["bn_moving_var"][:] = 1
    mod.set_params(arg, aux)
    for _ in range(2):
        mod.forward(mx.io.DataBatch([mx.nd.array(x)]), is_train=True)
        mod.backward()
    ex = mod._exec_group.execs[0]
    return tuple(_crc(a) for a in (mod.get_outputs()[0], mod.get_input_grads()[0],
                                   ex.grad_dict["bn_gamma"], ex.grad_dict["bn_beta"],
                                   ex.aux_dict["bn_moving_mean"], ex.aux_dict["bn_moving_var"]))


MODULE_EXPECTED = (
    3895970498, 3099831656, 1308032757, 69082011, 2655829873, 3450240604
)


def test_module_batchnorm_bits():
    assert _module_run() == MODULE_EXPECTED


# _contrib_BatchNormWithReLU (oneDNN's BatchNorm with a fused ReLU in 1.9.1): the same sums,
# the head gradient zeroed where the output is not positive
RELU_EXPECTED = {
    (4, 6, 5, 5): (2008307774, 2514928376, 3880879092, 3006077371, 2998481046, 2562431588),
    (8, 3, 7, 7): (154644432, 907208028, 388449338, 2519099962, 3614246711, 976735549),
}


def test_batchnorm_with_relu_bits():
    rs = np.random.RandomState(0)
    for shape, expected in RELU_EXPECTED.items():
        c = shape[1]
        x = mx.nd.array(rs.uniform(-3, 5, shape).astype(np.float32))
        g = mx.nd.array(rs.uniform(-1, 1, shape).astype(np.float32))
        gamma = mx.nd.array(rs.uniform(0.5, 1.5, c).astype(np.float32))
        beta = mx.nd.array(rs.uniform(-1, 1, c).astype(np.float32))
        mm, mv = mx.nd.zeros(c), mx.nd.ones(c)
        for a in (x, gamma, beta):
            a.attach_grad()
        with mx.autograd.record():
            y = mx.nd.contrib.BatchNormWithReLU(x, gamma, beta, mm, mv, fix_gamma=False)
        y.backward(g)
        got = tuple(_crc(a) for a in (y, x.grad, gamma.grad, beta.grad, mm, mv))
        assert got == expected, shape
