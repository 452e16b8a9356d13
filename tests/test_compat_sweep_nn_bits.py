"""NN operators bit for bit against MXNet 1.9.1 (float32, CPU build).

Each case runs forward and backward (a seeded head gradient) on seeded float32 data and
compares the CRC-32 of the output's and the gradient's float32 bytes with the value 1.9.1
gave for the same script (recorded under 1.9.1, NaiveEngine). ``np.random.RandomState``'s
uniform stream is the same in every NumPy version, so the inputs are the ones 1.9.1 saw.

What the cases pin down:

* softmax / log_softmax / softmin through 1.9.1's generic kernel (an axis other than the
  last, a temperature, lengths, softmin, SoftmaxOutput): exp rounded as glibc's expf, the sum
  taken element after element, then a division; the gradient y * (g - sum(g * y)) or
  g - expf(y) * sum(g), divided by the temperature.
* softmax over the last axis without temperature, which 1.9.1 hands to oneDNN: oneDNN's
  polynomial exp, a sum kept in 16 SIMD lanes folded in halves, times the sum's reciprocal;
  the gradient with the same lane-ordered sum (ours emulates this at every size).
"""
import zlib

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator import _onednn


def _data(seed, shape, lo=-5.0, hi=5.0):
    return np.random.RandomState(seed).uniform(lo, hi, size=shape).astype(np.float32)


def _crc(a):
    return zlib.crc32(np.ascontiguousarray(a, np.float32).tobytes())


def _run(op, shape, seed, lo=-5.0, hi=5.0, **kw):
    x = mx.nd.array(_data(seed, shape, lo, hi))
    x.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.nd, op)(x, **kw)
    y.backward(mx.nd.array(_data(seed + 1, shape, -1, 1)))
    return _crc(y.asnumpy()), _crc(x.grad.asnumpy())


# (op, shape, seed, low, high, attrs, (output CRC, gradient CRC) recorded from 1.9.1)
_SOFTMAX_CASES = [
    ("softmax", (6, 9), 1, -5, 5, {"axis": 0}, (2300855084, 298737284)),
    ("softmax", (6, 9), 2, -5, 5, {"temperature": 2.5}, (209901314, 1839627262)),
    ("log_softmax", (6, 9), 3, -5, 5, {"temperature": 0.7}, (1511909921, 3342683991)),
    ("log_softmax", (3, 5, 4), 4, -5, 5, {"axis": 1}, (3462034356, 1009423860)),
    ("softmin", (6, 9), 5, -5, 5, {}, (552735742, 799532943)),
    # oneDNN's kernel (last axis, no temperature)
    ("softmax", (4, 300), 6, -5, 5, {}, (1532916410, 2184376012)),
    ("softmax", (2, 3, 4, 50), 7, -5, 5, {}, (936187014, 2635777355)),
    ("softmax", (8, 130), 8, -100, 100, {}, (4001373187, 1158620181)),   # exp underflows
    ("softmax", (2, 2, 2, 3, 50), 20, -5, 5, {}, (800826556, 172508662)),  # 5-d: generic
    ("softmax", (1100,), 21, -5, 5, {}, (274834709, 1502641938)),
    # dtype given: oneDNN's forward, the generic backward
    ("softmax", (4, 300), 22, -5, 5, {"dtype": "float32"}, (3692500703, 3273589143)),
]


@pytest.mark.parametrize("op,shape,seed,lo,hi,kw,want", _SOFTMAX_CASES)
def test_softmax_bits(op, shape, seed, lo, hi, kw, want):
    assert _run(op, shape, seed, lo, hi, **kw) == want


def test_softmax_length_bits():
    x = mx.nd.array(_data(9, (4, 9)))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.softmax(x, mx.nd.array([3, 9, 1, 5], dtype="int32"), use_length=True)
    y.backward(mx.nd.array(_data(10, (4, 9), -1, 1)))
    # recorded from 1.9.1; the gradient past each length is +0
    assert (_crc(y.asnumpy()), _crc(x.grad.asnumpy())) == (608381425, 1515335293)


@pytest.mark.parametrize("shape,kw,want", [
    ((32, 10), {}, (2747914453, 520779679)),
    ((4, 5, 3, 3), {"multi_output": True, "normalization": "valid"}, (486131087, 2115336310)),
])
def test_softmax_output_bits(shape, kw, want):
    x = mx.nd.array(_data(11, shape))
    lab_shape = (shape[0],) if len(shape) == 2 else (shape[0],) + shape[2:]
    lab = mx.nd.array(np.random.RandomState(12).randint(0, shape[1], lab_shape)
                      .astype(np.float32))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.SoftmaxOutput(x, lab, **kw)
    y.backward()
    assert (_crc(y.asnumpy()), _crc(x.grad.asnumpy())) == want   # recorded from 1.9.1


def test_onednn_exp_closed_form():
    # exact powers of two and the underflow cut: e**0 = 1, below logf(FLT_MIN) gives 0, and
    # every result within 8 ulp of the true exp (the polynomial is off by up to ~5)
    x = np.array([0.0, -87.5, -88.0, 88.0], np.float32)
    y = _onednn.dnn_exp(np, x)
    assert y[0] == 1.0 and y[1] == 0.0 and y[2] == 0.0
    z = np.linspace(-80, 80, 4001, dtype=np.float32)
    ez = _onednn.dnn_exp(np, z)
    ulp = np.spacing(ez).astype(np.float64)
    assert np.all(np.abs(ez.astype(np.float64) - np.exp(z.astype(np.float64))) <= 8 * ulp)


def test_lane_sum_order():
    # against the order spelled out element by element in float32: lane j % 16 adds x[j] in
    # turn, then lanes i and i + w are added for w = 8, 4, 2, 1
    rs = np.random.RandomState(3)
    for n in (1, 5, 16, 17, 40, 100):
        x = (rs.standard_normal((2, n)) * 10.0 ** rs.uniform(-4, 4, (2, n))).astype(np.float32)
        for row in range(2):
            lanes = [np.float32(0)] * 16
            for j in range(n):
                lanes[j % 16] = np.float32(lanes[j % 16] + x[row, j])
            w = 16
            while w > 1:
                w //= 2
                lanes = [np.float32(lanes[i] + lanes[i + w]) for i in range(w)]
            assert _onednn.lane_sum(np, x)[row, 0] == lanes[0]


# Pooling forward: 1.9.1 adds each window's taps in turn, row-major (taps in the padding
# skipped); oneDNN (float32 NC* layouts, "valid" convention) then divides the sum, 1.9.1's own
# kernel ("full" convention, NHWC, float64) divides each tap when the padding counts.
# (shape, dtype, attrs, output CRC recorded from 1.9.1); ours is exact up to 32768 elements
_POOL_CASES = [
    ((2, 3, 11, 11), "float32", dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                     pool_type="avg"), 2179047011),
    ((2, 3, 11, 11), "float32", dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
                                     count_include_pad=False), 605198308),
    ((2, 3, 10, 10), "float32", dict(kernel=(3, 3), stride=(2, 2), pool_type="avg",
                                     pooling_convention="full"), 2776587767),
    ((2, 3, 11, 11), "float32", dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
                                     pooling_convention="full", count_include_pad=False),
     3777386702),
    ((2, 11, 11, 3), "float32", dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
                                     layout="NHWC"), 935790828),
    ((2, 3, 11, 11), "float64", dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                     pool_type="avg"), 3563837147),
    ((4, 3, 16, 16), "float32", dict(kernel=(2, 2), stride=(2, 2), pool_type="avg"), 2495332303),
    ((2, 3, 13, 11), "float32", dict(kernel=(5, 3), stride=(2, 1), pad=(2, 0),
                                     pool_type="avg"), 2508757322),
    ((4, 3, 15, 15), "float32", dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                     pool_type="sum"), 1287470298),
    ((4, 3, 15, 15), "float32", dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="lp",
                                     p_value=2), 1503598004),
    ((2, 2, 7, 7, 7), "float32", dict(kernel=(3, 3, 3), stride=(2, 2, 2), pad=(1, 1, 1),
                                      pool_type="avg"), 2685111357),
    ((2, 2, 6, 7, 6), "float32", dict(kernel=(3, 3, 3), stride=(2, 2, 2), pool_type="avg",
                                      pooling_convention="full"), 621584493),
    ((2, 3, 40), "float32", dict(kernel=(9,), stride=(3,), pool_type="avg"), 1289674278),
    ((2, 3, 17, 17), "float32", dict(kernel=(8, 8), stride=(8, 8), pool_type="avg",
                                     pooling_convention="full"), 1908650853),
]


@pytest.mark.parametrize("i", range(len(_POOL_CASES)))
def test_pooling_forward_bits(i):
    shape, dtype, kw, want = _POOL_CASES[i]
    y = mx.nd.Pooling(mx.nd.array(_data(30 + i, shape), dtype=dtype), **kw).asnumpy()
    assert zlib.crc32(np.ascontiguousarray(y).tobytes()) == want


# BatchNorm inference (float32, up to 65536 elements): y = (x - mean) * (gamma / sqrt(var +
# eps)) + beta step by step. (shape, train_mode, attrs, CRCs of y, moving_mean, moving_var),
# recorded from 1.9.1. Training-mode statistics are not emulated: 1.9.1's oneDNN sums them in
# an order that depends on its input's memory layout (a convolution's blocked output gives
# other bits than a plain array).
_BN_CASES = [
    ((4, 3, 5, 5), False, {"fix_gamma": False}, (2153620786, 510221174, 1378261795)),
    ((4, 3, 5, 5), True, {"fix_gamma": False, "use_global_stats": True},
     (2153620786, 510221174, 1378261795)),
]


@pytest.mark.parametrize("shape,train,kw,want", _BN_CASES)
def test_batchnorm_bits(shape, train, kw, want):
    c = shape[1]
    x = mx.nd.array(_data(50, shape))
    g = mx.nd.array(_data(51, (c,), -1, 1))
    b = mx.nd.array(_data(52, (c,), -1, 1))
    mm = mx.nd.array(_data(53, (c,), -1, 1))
    mv = mx.nd.array(_data(54, (c,), 0.5, 1.5))
    with mx.autograd.record(train_mode=train):
        y = mx.nd.BatchNorm(x, g, b, mm, mv, **kw)
    assert (_crc(y.asnumpy()), _crc(mm.asnumpy()), _crc(mv.asnumpy())) == want


@pytest.mark.parametrize("shape", [(6, 10), (2, 3, 2, 1, 5)])
def test_elu_onednn_bits(shape):
    # 1.9.1 runs float32 elu of 1-5 dimensions in oneDNN: slope * (exp(x) - 1) with oneDNN's
    # exp, gradient slope * exp(x) from the input; recorded from 1.9.1
    x = mx.nd.array(_data(40, shape, -3, 3))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.LeakyReLU(x, act_type="elu", slope=0.3)
    y.backward(mx.nd.array(_data(41, shape, -1, 1)))
    assert (_crc(y.asnumpy()), _crc(x.grad.asnumpy())) == (954957602, 3750130983)


# float32 / float64 sum and mean over at most 16 elements per output: 1.9.1's compensated
# (Kahan) sum, element after element (row-major over the reduced axes), then / count
@pytest.mark.parametrize("op,kw,want", [
    ("sum", {"axis": 3}, 497937075),
    ("mean", {"axis": 1}, 1208842879),
    ("sum", {"axis": 2, "keepdims": True}, 1495868407),
])
def test_short_reduction_bits(op, kw, want):
    x = mx.nd.array(_data(60, (7, 6, 5, 9), -1, 3))
    assert _crc(getattr(mx.nd, op)(x, **kw).asnumpy()) == want   # recorded from 1.9.1


def test_short_reduction_bits_two_axes():
    x = mx.nd.array(_data(60, (7, 6, 3, 4), -1, 3))
    assert _crc(mx.nd.sum(x, axis=(2, 3)).asnumpy()) == 2641351281   # recorded from 1.9.1


def test_short_reduction_bits_1d_and_float64():
    s = mx.nd.sum(mx.nd.array(_data(61, (16,), -1, 3))).asnumpy()
    m = mx.nd.mean(mx.nd.array(_data(62, (5, 12), -1, 3), dtype="float64"), axis=1).asnumpy()
    assert (_crc(s), zlib.crc32(m.tobytes())) == (820243084, 1838170220)   # from 1.9.1


@pytest.mark.parametrize("name,kw,label,want", [
    ("L2Loss", {}, "q", (617946351, 783495192)),
    ("L1Loss", {}, "q", (667005391, 2393981917)),
    ("HuberLoss", {"rho": 0.8}, "q", (75857015, 3281697446)),
    ("HingeLoss", {}, "sign", (1463847876, 4217533498)),
    ("KLDivLoss", {}, "prob", (1699385655, 1304233423)),
])
def test_gluon_loss_bits(name, kw, label, want):
    p_np, q = _data(70, (16, 10), -2, 2), _data(71, (16, 10), -2, 2)
    e = np.exp(q.astype(np.float64))   # float64: the same bits on every machine
    lab = {"q": q, "sign": np.where(q > 0, 1, -1).astype(np.float32),
           "prob": (e / e.sum(1, keepdims=True)).astype(np.float32)}[label]
    p = mx.nd.array(p_np)
    p.attach_grad()
    with mx.autograd.record():
        loss = getattr(mx.gluon.loss, name)(**kw)(p, mx.nd.array(lab))
    loss.backward()
    assert (_crc(loss.asnumpy()), _crc(p.grad.asnumpy())) == want   # recorded from 1.9.1


def _rois(seed, n, size, scale):
    rs = np.random.RandomState(seed)
    x1 = rs.uniform(0, size / scale * 0.6, n)
    y1 = rs.uniform(0, size / scale * 0.6, n)
    x2 = x1 + rs.uniform(1, size / scale * 0.4, n)
    y2 = y1 + rs.uniform(1, size / scale * 0.4, n)
    return np.stack([rs.randint(0, 2, n), x1, y1, x2, y2], 1).astype(np.float32)


@pytest.mark.parametrize("kw,want", [
    ({"pooled_size": (3, 3), "spatial_scale": 0.5}, (1094832989, 1030449017)),
    ({"pooled_size": (2, 3), "spatial_scale": 0.5, "sample_ratio": 2}, (2531229056, 2771993363)),
    ({"pooled_size": (3, 3), "spatial_scale": 0.5, "aligned": True}, (78655639, 3114218768)),
])
def test_roialign_bits(kw, want):
    # each bin: its samples' w1*v1 + w2*v2 + w3*v3 + w4*v4 added in turn, / count; the
    # gradient scattered region by region, channel, bin, sample, corner; from 1.9.1
    d = mx.nd.array(_data(80, (2, 3, 12, 12)))
    d.attach_grad()
    with mx.autograd.record():
        y = mx.nd.contrib.ROIAlign(d, mx.nd.array(_rois(81, 5, 12, 0.5)), **kw)
    y.backward(mx.nd.array(_data(82, y.shape, -1, 1)))
    assert (_crc(y.asnumpy()), _crc(d.grad.asnumpy())) == want


@pytest.mark.parametrize("scale,want", [(2, 2525362488), (3, 44657084)])
def test_upsampling_nearest_grad_bits(scale, want):
    # each input's gradient: its scale x scale block added to 0 row-major; from 1.9.1
    x = mx.nd.array(_data(83, (2, 3, 4, 5)))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.UpSampling(x, scale=scale, sample_type="nearest")
    y.backward(mx.nd.array(_data(84, y.shape, -1, 1)))
    assert _crc(x.grad.asnumpy()) == want


@pytest.mark.parametrize("mode,want", [("instance", 504308716), ("channel", 716183469),
                                       ("spatial", 3697010999)])
def test_l2_normalization_bits(mode, want):
    # x / sqrt(eps + x0^2 + x1^2 + ...), the squares added in order; from 1.9.1
    y = mx.nd.L2Normalization(mx.nd.array(_data(85, (3, 4, 5, 6))), mode=mode)
    assert _crc(y.asnumpy()) == want


def test_bilinear_sampler_bits():
    # output: tl*wy*wx + tr*wy*(1-wx) + bl*(1-wy)*wx + br*(1-wy)*(1-wx) with the 1 - w
    # factors in double; data gradient: per output position and corner in turn, a double term
    # added to the float total; CRCs of output, data and grid gradients from 1.9.1
    d = mx.nd.array(_data(92, (2, 3, 6, 7)))
    g = mx.nd.array(_data(93, (2, 2, 5, 4), -1.1, 1.1))
    d.attach_grad()
    g.attach_grad()
    with mx.autograd.record():
        y = mx.nd.BilinearSampler(d, g)
    y.backward(mx.nd.array(_data(94, (2, 3, 5, 4), -1, 1)))
    got = tuple(_crc(a.asnumpy()) for a in (y, d.grad, g.grad))
    assert got == (1408015359, 2397956306, 1310129854)


def test_roipooling_grad_bits():
    # 12 overlapping regions: each input adds its bins' gradients in float32, in order of
    # region, channel and bin (NumPy's bincount summed them in float64); from 1.9.1
    d = mx.nd.array(_data(86, (2, 3, 12, 12)))
    d.attach_grad()
    with mx.autograd.record():
        y = mx.nd.ROIPooling(d, mx.nd.array(_rois(87, 12, 12, 0.5)), pooled_size=(3, 3),
                             spatial_scale=0.5)
    y.backward(mx.nd.array(_data(88, y.shape, -1, 1)))
    assert (_crc(y.asnumpy()), _crc(d.grad.asnumpy())) == (1153879555, 2448364008)
