"""float32 Activation (sigmoid, tanh, softrelu) and LeakyReLU (gelu, elu, selu, leaky) bit for
bit against MXNet 1.9.1, forward and backward.

1.9.1's CPU build runs these through oneDNN 2.4's eltwise kernels (float32 data of 1 to 5
dimensions): polynomial exp, tanh and log1p, Abramowitz and Stegun's erf, fused multiply-adds;
the backward kernels recompute the forward from the input (tanh's derivative is 1 - y*y fused).
Ours emulates them (mxnet/operator/_onednn.py) on arrays of up to ACT_EMULATE_MAX elements.
selu is not oneDNN's in 1.9.1: it calls glibc's expm1f, which ours repeats (fdlibm's algorithm).
Expected values are CRC-32s of the float32 bytes 1.9.1 gave for the same script (recorded
under 1.9.1, NaiveEngine); a few are float32 bit patterns.
"""
import zlib

import numpy as np
import pytest

import mxnet as mx

_SPECIAL = np.array([0.0, -0.0, 1e-30, -1e-30, 1e-40, -1e-40, 1e-45, np.inf, -np.inf, 3e38,
                     -3e38, 88.0, -88.0, 89.0, -89.0, 100.0, -100.0, 20.0, 16.0, 9.0, 5e-4,
                     4e-4, 2.5e-4, -9.0], np.float32)
_SHAPES = [(4096,), (64, 64), (4, 4, 16, 16), (2, 2, 2, 4, 64)]
_CASES = {
    "sigmoid": ("Activation", {"act_type": "sigmoid"}),
    "tanh": ("Activation", {"act_type": "tanh"}),
    "softrelu": ("Activation", {"act_type": "softrelu"}),
    "gelu": ("LeakyReLU", {"act_type": "gelu"}),
    "elu": ("LeakyReLU", {"act_type": "elu", "slope": 0.3}),
    "selu": ("LeakyReLU", {"act_type": "selu"}),
}
# name -> per shape of _SHAPES: (crc of y, crc of x.grad), recorded from 1.9.1
_WANT = {
    "sigmoid": [(4020742441, 1919568601), (4019186449, 254560626), (798227868, 3541646722),
                (3384949333, 1622801505)],
    "tanh": [(2150169679, 2959441710), (2190415924, 2071875674), (3157236528, 804958765),
             (1579933601, 766312208)],
    "softrelu": [(2110313717, 1691112806), (1987551268, 3449777469), (3182093998, 3301319123),
                 (3437930896, 229209471)],
    "gelu": [(1885435124, 220252834), (1365688448, 3604284454), (4209997830, 3818813417),
             (3929221515, 1119688890)],
    "elu": [(3185838616, 205497630), (2405450708, 1679201111), (236968530, 3626255775),
            (1424959247, 2305000045)],
    "selu": [(1921386158, 3589932826), (592525882, 3044448591), (173697923, 4115920360),
             (518799597, 2060025382)],
}
# y at [0.5, -1.5, 3.0, -7.25, 1e-45, 16.0] as float32 bits, recorded from 1.9.1
_BITS = {
    "sigmoid": [0x3f1f597f, 0x3e3acdc2, 0x3f73dbe6, 0x3a3a092e, 0x3f000000, 0x3f7ffffe],
    "tanh": [0x3eec9a9f, 0xbf67b7cc, 0x3f7ebbe9, 0xbf7fffef, 0x1, 0x3f800000],
    "softrelu": [0x3f795d1c, 0x3e4e3f48, 0x40431c0e, 0x3a3a2000, 0x3f317219, 0x41800000],
    "gelu": [0x3eb103ae, 0xbdcd3b59, 0x403fbda5, 0x0, 0x1, 0x417fffff],
    "elu": [0x3f000000, 0xbe6ea788, 0x40400000, 0xbe997dad, 0x1, 0x41800000],
    "selu": [0x3f067d5f, 0xbfaed301, 0x4049bc0e, 0xbfe0e07d, 0x1, 0x41867d5f],
}


def _data(seed, shape, lo, hi):
    return np.random.RandomState(seed).uniform(lo, hi, size=shape).astype(np.float32)


def _inputs(seed, shape):
    x = _data(seed, shape, -12, 12).reshape(-1)
    x[:_SPECIAL.size] = _SPECIAL
    return x.reshape(shape)


def _crc(a):
    return zlib.crc32(np.ascontiguousarray(a, np.float32).tobytes())


def _call(name, x):
    op, kw = _CASES[name]
    return getattr(mx.nd, op)(x, **kw)


@pytest.mark.parametrize("name", sorted(_CASES))
@pytest.mark.parametrize("k", range(len(_SHAPES)))
def test_forward_backward_bits(name, k):
    shape = _SHAPES[k]
    x = mx.nd.array(_inputs(10 + k, shape))
    x.attach_grad()
    with mx.autograd.record():
        y = _call(name, x)
    y.backward(mx.nd.array(_data(20 + k, shape, -2, 2)))
    assert (_crc(y.asnumpy()), _crc(x.grad.asnumpy())) == _WANT[name][k]


@pytest.mark.parametrize("name", sorted(_CASES))
def test_forward_values(name):
    x = mx.nd.array(np.array([0.5, -1.5, 3.0, -7.25, 1e-45, 16.0], np.float32))
    got = _call(name, x).asnumpy().view(np.uint32).tolist()
    assert got == _BITS[name]


@pytest.mark.parametrize("name", ["sigmoid", "tanh", "softrelu", "gelu"])
def test_nan_stays_nan(name):
    y = _call(name, mx.nd.array(np.array([np.nan, 1.0], np.float32))).asnumpy()
    assert np.isnan(y[0]) and not np.isnan(y[1])


def test_elu_gradient_of_tiny_positive_input():
    # oneDNN's elu gradient takes 1 where exp(x) > 1: a tiny positive x (exp(x) rounds to 1)
    # gets the slope; 1.9.1 gives 0.3 here, and 1 at NaN
    x = mx.nd.array(np.array([1e-30, 1e-8, 1e-3, np.nan], np.float32))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.LeakyReLU(x, act_type="elu", slope=0.3)
    y.backward()
    assert x.grad.asnumpy().tolist() == [np.float32(0.3), np.float32(0.3), 1.0, 1.0]


def test_leaky_gradient_at_nan_and_negative_zero():
    # oneDNN's relu gradient (float32 leaky): the slope where x <= 0, else 1 (NaN included)
    x = mx.nd.array(np.array([np.nan, -1.0, 2.0, -0.0], np.float32))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.LeakyReLU(x, act_type="leaky", slope=0.1)
    y.backward()
    assert x.grad.asnumpy().tolist() == [1.0, np.float32(0.1), 1.0, np.float32(0.1)]


def test_symbolic_softrelu_gradient_reads_the_input():
    # softrelu's gradient is oneDNN's logistic of the input: the executor keeps the input
    # (the forward may not overwrite it in place); same bits as the imperative call
    shape = _SHAPES[1]
    xv, ogv = _inputs(11, shape), _data(21, shape, -2, 2)
    sym = mx.sym.Activation(mx.sym.var("data"), act_type="softrelu")
    ex = sym.simple_bind(mx.cpu(), data=shape)
    ex.arg_dict["data"][:] = xv
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(ogv))
    assert (_crc(ex.outputs[0].asnumpy()), _crc(ex.grad_dict["data"].asnumpy())) == \
        _WANT["softrelu"][1]


# mx.nd.softsign / sigmoid / erf gradients: 1.9.1 multiplies the head gradient by the
# derivative (g * (1 / (1 + |x|)**2), g * (y * (1 - y)), g * float32(C * exp(-x*x)) with
# C = 2 / sqrtf(pi)); (dtype, crc of y or None, crc of x.grad), recorded from 1.9.1
@pytest.mark.parametrize("name,lo,hi,n,dtype,want", [
    ("softsign", -30, 30, 4096, "float32", (840057435, 430990024)),
    ("softsign", -30, 30, 4096, "float64", (2873688000, 2726328303)),
    ("sigmoid", -6, 6, 1024, "float32", (2611489469, 3631415067)),
    ("erf", -3, 3, 512, "float32", (None, 3636643342)),   # y: glibc's erff (not emulated)
])
def test_plain_function_gradient_bits(name, lo, hi, n, dtype, want):
    x = mx.nd.array(_data(30, (n,), lo, hi), dtype=dtype)
    x.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.nd, name)(x)
    y.backward(mx.nd.array(_data(31, (n,), -2, 2), dtype=dtype))
    got_y = zlib.crc32(np.ascontiguousarray(y.asnumpy()).tobytes())
    got_dx = zlib.crc32(np.ascontiguousarray(x.grad.asnumpy()).tobytes())
    assert (got_y if want[0] is not None else None, got_dx) == want
