"""float32 sum/mean over more than 16 elements per output, bit for bit against 1.9.1.

1.9.1 sums each output with compensated (Kahan) float32 steps; for longer reductions we
sum in float64 and round once, which is 1.9.1's result for almost every output of
same-signed data. The expected values below were recorded from MXNet 1.9.1 (CPU) and are
written as the little-endian hex of their float32 bits. Inputs come from NumPy's legacy
RandomState, whose streams are fixed across NumPy versions.
"""
import numpy as np
import pytest

import mxnet as mx


def _data(seed, shape, kind):
    rs = np.random.RandomState(seed)
    if kind == "pos":
        return (rs.rand(*shape) * 3 + 0.05).astype(np.float32)
    return rs.randn(*shape).astype(np.float32)


def _nansum_input():
    x = _data(10, (6, 40), "pos")
    x[1, 3] = np.nan
    x[4, ::7] = np.nan
    return x


nd = mx.nd
CASES = {
    "sum_full_1000_pos": (lambda: nd.sum(nd.array(_data(1, (1000,), "pos"))),
                          (1,), "0bfac144"),
    "sum_full_100000_pos": (lambda: nd.sum(nd.array(_data(2, (100000,), "pos"))),
                            (1,), "f6231748"),
    "mean_full_64_pos": (lambda: nd.array(_data(3, (64,), "pos")).mean(), (1,), "ed94ba3f"),
    "mean_ax1_8x100_pos": (lambda: nd.mean(nd.array(_data(4, (8, 100), "pos")), axis=1), (8,),
                           "ee07ce3fc004d53fcf2bbe3ffac3d73f831ecc3f1216cc3f9385ae3f18acbc3f"),
    "sum_ax023_4x3x5x7_pos": (
        lambda: nd.sum(nd.array(_data(6, (4, 3, 5, 7), "pos")), axis=(0, 2, 3)), (3,),
        "4f6c66432650624342ab5343"),
    "sum_ax023_8x4x32x32_pos": (
        lambda: nd.sum(nd.array(_data(7, (8, 4, 32, 32), "pos")), axis=(0, 2, 3)), (4,),
        "c88445465c4b4546934e4546a1504646"),
    "sum_ax023_keep_16x4x32x32_pos": (
        lambda: nd.sum(nd.array(_data(19, (16, 4, 32, 32), "pos")), axis=(0, 2, 3),
                       keepdims=True), (1, 4, 1, 1), "d2f2c4465850c8464271c6465755c546"),
    "sum_ax0_100x8_pos": (lambda: nd.sum(nd.array(_data(8, (100, 8), "pos")), axis=0), (8,),
                          "95011643705c18431b221a43d1811e43f27b12435f1c2c433e3b1c4306211443"),
    "meth_sum_ax1_4x50_pos": (lambda: nd.array(_data(9, (4, 50), "pos")).sum(axis=1), (4,),
                              "d8e3a74299b28142108eac424926a342"),
    "sum_keepdims_ax1_3x40_pos": (
        lambda: nd.sum(nd.array(_data(14, (3, 40), "pos")), axis=1, keepdims=True), (3, 1),
        "17357b42caa9514245d57842"),
    "mean_full_256x300_pos": (lambda: nd.mean(nd.array(_data(20, (256, 300), "pos"))), (1,),
                              "25a7c63f"),
    "mean_exclude_4x6x9_pos": (
        lambda: nd.mean(nd.array(_data(18, (4, 6, 9), "pos")), axis=0, exclude=True), (4,),
        "8b47c63f7fc1ca3ffb6ad13f3426e83f"),
    "sum_negzero_20": (lambda: nd.sum(nd.array(-np.zeros(20, np.float32))), (1,), "00000000"),
    "np_sum_ax1_8x100_pos": (
        lambda: mx.np.sum(mx.np.array(_data(11, (8, 100), "pos")), axis=1), (8,),
        "94d81c43e3942343f6c61243950722434b5117432931174314ba164394173043"),
    "np_mean_full_300_pos": (lambda: mx.np.mean(mx.np.array(_data(12, (300,), "pos"))), (),
                             "2650c03f"),
    "np_sum_full_keep_300x256_pos": (
        lambda: mx.np.sum(mx.np.array(_data(21, (300, 256), "pos")), keepdims=True), (1, 1),
        "b570e847"),
    "l2loss_8x30": (lambda: mx.gluon.loss.L2Loss()(nd.array(_data(15, (8, 30), "pos")),
                                                   nd.array(_data(16, (8, 30), "pos"))), (8,),
                    "24c2643f70d2363f7256623f19cd4a3f21811f3ff4d0403f5ce2423f74a4413f"),
    "l1loss_8x30": (lambda: mx.gluon.loss.L1Loss()(nd.array(_data(17, (8, 30), "randn")),
                                                   nd.array(_data(16, (8, 30), "pos"))), (8,),
                    "95dac93f7c71ba3f9233d73f4e7fd13f041fff3fcd8dcd3fa324db3f0548d03f"),
}

# outputs where 1.9.1's compensated steps and the rounded exact sum part: the model gets at
# least this many right, and the rest within one unit in the last place
PARTIAL = {
    "sum_ax1_16x37_randn": (
        lambda: nd.sum(nd.array(_data(5, (16, 37), "randn")), axis=1), (16,),
        "8e51d6be2c970841f7df6640ac68e5be867399bfe05065c058e329c03eab8ac0a2a6a6402c1232402"
        "4d6c540b55e04c0fc45453facd06ac00253aa402b3b8abf", 10),
    "nansum_ax1_6x40": (lambda: nd.nansum(nd.array(_nansum_input()), axis=1), (6,),
                        "55b4764288ba6a424b625942e21070427859424266767c42", 5),
    "np_mean_ax1_keep_5x64_pos": (
        lambda: mx.np.mean(mx.np.array(_data(13, (5, 64), "pos")), axis=1, keepdims=True),
        (5, 1), "8113be3ffc01b43f595fb33fa29dc23ff716bf3f", 4),
}


def _data64(seed, shape, kind):
    rs = np.random.RandomState(seed)
    return rs.rand(*shape) * 3 + 0.05 if kind == "pos" else rs.randn(*shape)


# float64 inputs of up to 2048 elements: summed in long double and rounded once
CASES64 = {
    "f64_sum_full_100_pos": (
        lambda: nd.sum(nd.array(_data64(30, (100,), "pos"), dtype="float64")), (1,),
        "295e51d8bca56240", 1),
    "f64_mean_ax1_4x50_pos": (
        lambda: nd.mean(nd.array(_data64(31, (4, 50), "pos"), dtype="float64"), axis=1), (4,),
        "d619c6788b34f53f6f20d161c176f73fb71d1f2d7fa4f83fa3dede4c5698f53f", 4),
    "f64_np_sum_ax1_3x40_pos": (
        lambda: mx.np.sum(mx.np.array(_data64(32, (3, 40), "pos"), dtype="float64"), axis=1),
        (3,), "f2e3c5b42b135040104556788af54b407624f7dd63c44c40", 3),
    "f64_sum_ax1_8x30_randn": (
        lambda: nd.sum(nd.array(_data64(33, (8, 30), "randn"), dtype="float64"), axis=1), (8,),
        "842cdfc3c0f51ac0fd7ae924e8dc0fc0e09b9f71e3ba05403e57a9c9ffdaf2bfc41ba1bea66922c0"
        "27549917a64a0a400e00c35f5e010dc0d707949525dc1940", 4),
}


def _bits(hexstr):
    return np.frombuffer(bytes.fromhex(hexstr), "<u4")


def _got(fn):
    a = fn().asnumpy()
    assert a.dtype == np.float32
    return a


@pytest.mark.parametrize("name", sorted(CASES))
def test_reduction_bits_match_1_9_1(name):
    fn, shape, want = CASES[name]
    got = _got(fn)
    assert got.shape == shape
    np.testing.assert_array_equal(got.reshape(-1).view("<u4"), _bits(want))


@pytest.mark.parametrize("name", sorted(PARTIAL))
def test_reduction_bits_mostly_match_1_9_1(name):
    fn, shape, want, at_least = PARTIAL[name]
    got = _got(fn)
    assert got.shape == shape
    g, w = got.reshape(-1).view("<u4"), _bits(want)
    assert int((g == w).sum()) >= at_least
    assert np.abs(g.astype(np.int64) - w.astype(np.int64)).max() <= 1


def test_sum_of_negative_zeros_is_positive_zero():
    # 1.9.1's sum starts from +0.0, at any length
    for n in (5, 17, 100, 70000):
        out = nd.sum(nd.array(-np.zeros(n, np.float32))).asnumpy()
        assert out.view("<u4")[0] == 0, n
    assert mx.np.sum(mx.np.array(-np.zeros((3, 40), np.float32)), axis=1).asnumpy() \
        .view("<u4").tolist() == [0, 0, 0]


def test_sum_is_the_correctly_rounded_sum():
    # NumPy's float32 pairwise sum of these is one unit off the correctly rounded sum;
    # 1.9.1 gives the rounded sum (and the mean divides it by the count in float32)
    x = np.random.RandomState(1).rand(100).astype(np.float32)
    want = np.float32(x.astype(np.float64).sum())
    assert np.add.reduce(x) != want
    assert nd.sum(nd.array(x)).asnumpy()[0] == want
    assert nd.mean(nd.array(x)).asnumpy()[0] == want / np.float32(100)


def test_nansum_and_infinities():
    x = np.ones((2, 30), np.float32)
    x[0, 4] = np.nan
    x[1, 2] = np.inf
    # 1.9.1 gives NaN for the second row (its compensation becomes inf - inf once the sum
    # is infinite); the sum is infinite, as before
    np.testing.assert_array_equal(nd.nansum(nd.array(x), axis=1).asnumpy(), [29, np.inf])
    np.testing.assert_array_equal(nd.sum(nd.array(x), axis=1).asnumpy(), [np.nan, np.inf])
    y = np.ones(40, np.float32)
    y[3], y[9] = np.inf, -np.inf
    assert np.isnan(nd.sum(nd.array(y)).asnumpy()[0])
    big = np.full(20, 3e38, np.float32)   # overflows float32: inf, as 1.9.1
    assert nd.sum(nd.array(big)).asnumpy()[0] == np.inf


@pytest.mark.parametrize("name", sorted(CASES64))
def test_float64_reduction_bits(name):
    fn, shape, want, at_least = CASES64[name]
    got = fn().asnumpy()
    assert got.dtype == np.float64 and got.shape == shape
    g, w = got.reshape(-1).view("<u8"), np.frombuffer(bytes.fromhex(want), "<u8")
    if np.finfo(np.longdouble).nmant < 63:   # no x87 long double here: float64 pairwise
        np.testing.assert_allclose(got.reshape(-1), w.view(np.float64), rtol=1e-15)
        return
    assert int((g == w).sum()) >= at_least
    np.testing.assert_allclose(got.reshape(-1), w.view(np.float64), rtol=1e-15)


def test_short_nansum_takes_the_compensated_steps():
    """nansum over 3-16 elements per output: 1.9.1's compensated steps with the NaN elements
    skipped. Recorded from 1.9.1: the cancelling row gives 0.5, where a float64 sum rounded
    once gives 1.5 (and the first row's float32 bits differ by one)."""
    x = np.array([[0.1, np.nan, 0.7, 1e-3, 3.3, -2.2],
                  [1e8, 1.0, -1e8, np.nan, 1e-8, 0.5]], dtype=np.float32)
    got = mx.nd.nansum(mx.nd.array(x), axis=1).asnumpy()
    assert got.view(np.uint32).tolist() == [1072911352, 1056964608]
    got64 = mx.nd.nansum(mx.nd.array(x.astype(np.float64), dtype="float64"), axis=1).asnumpy()
    assert got64.tolist() == [1.900999894249253, 1.50000001]


def test_np_var_float64_overflow_is_nan_as_in_1_9_1():
    """float64 mx.np.var over at most 64 elements takes compensated double steps; 1.9.1's
    give nan when the squared deviations overflow (recorded), not NumPy's inf."""
    v = mx.np.var(mx.np.array([1e200, -1e200, 0.0], dtype="float64"))
    assert np.isnan(float(v))


@pytest.mark.parametrize("p", [3, 1.5])
def test_np_norm_ord_p_gradient_closed_form(p):
    """d||x||_p / dx = sign(x) |x|^(p-1) / ||x||_p^(p-1), per row along the axis."""
    x_np = np.random.RandomState(4).randn(5, 7)
    x = mx.np.array(x_np, dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = mx.np.linalg.norm(x, ord=p, axis=1)
    y.backward()
    nrm = (np.abs(x_np) ** p).sum(axis=1, keepdims=True) ** (1 / p)
    want = np.sign(x_np) * np.abs(x_np) ** (p - 1) / nrm ** (p - 1)
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-10)
