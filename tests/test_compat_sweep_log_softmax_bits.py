"""float32 log_softmax / softmax over the last axis bit for bit against MXNet 1.9.1.

1.9.1's CPU build hands these (float32, 1- to 4-d, last axis, no temperature, no lengths) to
oneDNN at every size. log_softmax there is (x - max) - log(s), with s the lane-ordered sum of
oneDNN's polynomial exp and log oneDNN's own table-driven logarithm (log(1.0) is -1.43e-6,
not 0), so every SoftmaxCrossEntropyLoss value depends on it. The CRC-32 values below are of
the float32 bytes of the output and the gradient (a seeded head gradient) and were recorded
from 1.9.1 (NaiveEngine) running the same script; np.random.RandomState's uniform stream is
the same in every NumPy version. tests/test_compat_sweep_nn_bits.py covers the generic
kernel (other axes, temperature, lengths) and softmax from 1,024 elements.
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


def _run(op, shape, seed, lo, hi):
    x = mx.nd.array(_data(seed, shape, lo, hi))
    x.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.nd, op)(x)
    y.backward(mx.nd.array(_data(seed + 1, shape, -1, 1)))
    return _crc(y.asnumpy()), _crc(x.grad.asnumpy())


# (op, shape, seed, low, high, (output CRC, gradient CRC) recorded from 1.9.1)
_CASES = [
    ("log_softmax", (3,), 1, -5, 5, (2441667075, 346971383)),
    ("log_softmax", (32, 10), 2, -5, 5, (447805235, 3711843146)),
    ("log_softmax", (64, 100), 3, -5, 5, (1038276781, 122830331)),
    ("log_softmax", (8, 1000), 4, -5, 5, (784489384, 3789133838)),
    ("log_softmax", (2, 3, 50), 5, -20, 20, (1877802389, 1626255057)),
    ("log_softmax", (2, 2, 3, 33), 6, -5, 5, (4273813507, 598491744)),
    ("log_softmax", (4, 5000), 7, -3, 3, (957357142, 1077778128)),
    ("log_softmax", (1100,), 8, -100, 100, (1775682132, 3756430111)),   # exp underflows
    ("log_softmax", (16, 17), 9, -1e-3, 1e-3, (1130579853, 3720839333)),   # sums near n
    ("log_softmax", (5, 2), 10, -60, 60, (3000580012, 3212157567)),   # sums near 1
    ("softmax", (32, 10), 11, -5, 5, (1390387225, 3804695273)),
    ("softmax", (7, 5), 12, -5, 5, (3137309072, 2697010190)),
    ("softmax", (2, 3, 4), 13, -50, 50, (3046456447, 2050567792)),
]


@pytest.mark.parametrize("op,shape,seed,lo,hi,want", _CASES)
def test_onednn_softmax_bits(op, shape, seed, lo, hi, want):
    assert _run(op, shape, seed, lo, hi) == want


def test_log_softmax_small_rows_bits():
    # float32 bit patterns recorded from 1.9.1
    assert mx.nd.log_softmax(mx.nd.ones(10)).asnumpy().view(np.uint32)[0] == 3222494618
    out = mx.nd.log_softmax(mx.nd.array([0, -30, -30])).asnumpy()
    assert out.view(np.uint32).tolist() == [901775360, 3253731327, 3253731327]
    assert out[0] == np.float32(1.430511474609375e-06)


def _loss(shape, seed, sparse, hybrid=False):
    pred = mx.nd.array(_data(seed, shape, -4, 4))
    if sparse:
        label = mx.nd.array(np.random.RandomState(seed + 1).randint(0, shape[-1], shape[:-1]))
    else:
        label = mx.nd.array(_data(seed + 1, shape, 0, 1))
    fn = mx.gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=sparse)
    if hybrid:
        fn.hybridize()
    pred.attach_grad()
    with mx.autograd.record():
        loss = fn(pred, label)
    loss.backward()
    return _crc(loss.asnumpy()), _crc(pred.grad.asnumpy())


# (shape, seed, sparse_label, (loss CRC, prediction-gradient CRC) recorded from 1.9.1)
@pytest.mark.parametrize("shape,seed,sparse,want", [
    ((32, 10), 30, True, (1708075570, 3381310635)),
    ((64, 100), 31, True, (1380998309, 1821149018)),
    ((8, 1000), 32, True, (893318293, 1639957864)),
    ((16, 10), 33, False, (3193985959, 697543530)),
])
def test_softmax_cross_entropy_loss_bits(shape, seed, sparse, want):
    assert _loss(shape, seed, sparse) == want


def test_softmax_cross_entropy_loss_hybridized_bits():
    # the same values through a cached graph (recorded from 1.9.1, imperative)
    assert _loss((32, 10), 30, True, hybrid=True) == (1708075570, 3381310635)


@pytest.mark.parametrize("shape,axis,want", [
    ((4, 10, 3), 1, (217795785, 2916065508)),          # generic kernel (not the last axis)
    ((8, 12), 0, (3695399432, 4035343216)),            # generic kernel (first axis)
])
def test_softmax_cross_entropy_loss_generic_kernel_hybridized_bits(shape, axis, want):
    # (loss CRC, gradient CRC) recorded from 1.9.1; the hybridized backward fuses pick into
    # log_softmax's gradient and must keep the unfused exp
    rs = np.random.RandomState(5 if axis == 1 else 6)
    pred = mx.nd.array(rs.uniform(-4, 4, shape).astype(np.float32))
    lshape = tuple(s for i, s in enumerate(shape) if i != axis % len(shape))
    label = mx.nd.array(rs.randint(0, shape[axis], lshape))
    for hybrid in (False, True):
        fn = mx.gluon.loss.SoftmaxCrossEntropyLoss(axis=axis)
        if hybrid:
            fn.hybridize()
        x = pred.copy()
        x.attach_grad()
        with mx.autograd.record():
            loss = fn(x, label)
        loss.backward()
        assert (_crc(loss.asnumpy()), _crc(x.grad.asnumpy())) == want


def test_symbol_log_softmax_bits():
    x = mx.sym.var("x")
    ex = mx.sym.log_softmax(x).bind(mx.cpu(), {"x": mx.nd.array(_data(2, (32, 10)))})
    assert _crc(ex.forward()[0].asnumpy()) == 447805235   # recorded from 1.9.1 (as above)


def test_dnn_log_against_float64_log_and_special_values():
    # independent truth: close to the float64 log, over the range of row sums
    x = np.concatenate([np.linspace(1, 2, 4097, dtype=np.float32),
                        np.float32(2) ** np.arange(0, 19, dtype=np.float32),
                        _data(40, (2000,), 1, 300000)])
    got = _onednn.dnn_log(np, x)
    want = np.log(x.astype(np.float64))
    # (its table stores log(r) offset by -127*ln2 in float32, whose ulp near 88 is 7.6e-6:
    # absolute errors up to ~4.4e-6, e.g. log(1) = -1.43e-6)
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got - want) <= 5e-6 + 5 * ulp)
    special = _onednn.dnn_log(np, np.array([0.0, -0.0, -1.0, 1.0], np.float32))
    assert special[0] == special[1] == -np.inf and np.isnan(special[2])
    assert special[3] == np.float32(-1.430511474609375e-06)   # as 1.9.1's log_softmax shows
