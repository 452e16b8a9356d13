"""Pooling backward bit for bit against MXNet 1.9.1 (CPU, float32/float64, small inputs).

Each case runs Pooling forward and backward (a seeded head gradient) on seeded data and
compares the CRC-32 of the data gradient's bytes with the value 1.9.1 gave for the same
script (recorded under 1.9.1, NaiveEngine, on an AVX-512 CPU). Max-pool data are small
integers, so windows tie. What the cases pin down (inputs up to 32,768 elements):

* 1.9.1's own kernel (float64, sum, lp, 1-d, one channel, channels-last, most "full"
  avg pools): output windows in row-major order each add their term to their taps; lp's
  term is og * (x / out) (times x / out again for p=3).
* oneDNN (float32 avg and max, 2-d/3-d, >= 2 channels): per output row, blocks of 12 (avg)
  or 6 (max) output columns, each adding its column taps left to right (so inside a block
  an element takes its windows right to left); 3-d first by the depth tap counted from the
  window's first in-input tap. Under "full" the avg divisor with padding is the kernel size.
"""
import zlib

import numpy as np
import pytest

import mxnet as mx

# (shape, dtype, Pooling attrs, CRC-32 of 1.9.1's data gradient)


def _attrs(pool_type, nd, k, s, p, **kw):
    return dict(kernel=(k,) * nd, stride=(s,) * nd, pad=(p,) * nd, pool_type=pool_type, **kw)


_CASES = [
    ((2, 3, 11, 13), '32', _attrs('avg', 2, 3, 1, 1), 150057662),
    ((2, 3, 11, 13), '32', _attrs('avg', 2, 3, 1, 1, count_include_pad=False), 2381265097),
    ((2, 3, 11, 30), '32', _attrs('avg', 2, 3, 2, 1), 1190409651),
    ((2, 3, 11, 13), '32', _attrs('avg', 2, 2, 1, 0), 3166031011),
    ((2, 3, 11, 13), '32', _attrs('avg', 2, 3, 1, 1, pooling_convention='full'), 494791108),
    ((1, 2, 9, 9), '32', _attrs('avg', 2, 3, 2, 1, pooling_convention='full',
                                count_include_pad=False), 1611781307),
    ((1, 2, 11, 13), '32', _attrs('avg', 2, 3, 2, 1, pooling_convention='full'), 21963165),
    ((1, 2, 11, 14), '32', _attrs('avg', 2, 3, 2, 0, pooling_convention='full'), 111328610),
    ((2, 1, 11, 13), '32', _attrs('avg', 2, 3, 1, 1), 3365900094),
    ((2, 3, 40), '32', _attrs('avg', 1, 3, 1, 1), 711365016),
    ((2, 3, 5, 6, 7), '32', _attrs('avg', 3, 3, 1, 1), 2484322249),
    ((2, 3, 5, 6, 7), '32', _attrs('avg', 3, 3, 2, 1, count_include_pad=False), 3920993202),
    ((2, 3, 5, 6, 7), '32', _attrs('avg', 3, 2, 1, 0), 469886515),
    ((2, 3, 11, 13), '64', _attrs('avg', 2, 3, 1, 1), 3965545296),
    ((2, 3, 5, 6, 7), '64', _attrs('avg', 3, 3, 2, 1, pooling_convention='full'), 2801369508),
    ((2, 11, 13, 3), '32', _attrs('avg', 2, 3, 1, 1, layout='NHWC'), 2031923226),
    ((2, 3, 11, 13), '32', _attrs('sum', 2, 3, 1, 1), 2505382002),
    ((2, 3, 5, 6, 7), '64', _attrs('sum', 3, 3, 1, 1), 1866298970),
    ((2, 3, 11, 13), '32', _attrs('lp', 2, 3, 1, 1, p_value=1), 1353375714),
    ((2, 3, 11, 13), '32', _attrs('lp', 2, 3, 1, 1, p_value=2), 2716309559),
    ((2, 3, 5, 6, 7), '64', _attrs('lp', 3, 2, 1, 0, p_value=2), 1293169634),
    ((2, 3, 11, 13), '32', _attrs('max', 2, 2, 1, 0), 697115889),
    ((2, 3, 11, 13), '32', _attrs('max', 2, 3, 1, 1), 2685530749),
    ((2, 3, 11, 13), '32', _attrs('max', 2, 3, 2, 1, pooling_convention='full'), 3777405552),
    ((2, 3, 16, 16), '32', _attrs('max', 2, 3, 2, 1), 2913279264),
    ((1, 4, 8, 30), '32', _attrs('max', 2, 3, 1, 1), 931761985),
    ((2, 3, 5, 6, 7), '32', _attrs('max', 3, 3, 1, 1), 2086051486),
    ((2, 3, 7, 8, 11), '64', _attrs('max', 3, 5, 1, 2), 3359390203),
    ((2, 1, 11, 13), '32', _attrs('max', 2, 3, 1, 1), 1845401935),
]


def _data(i, shape, dt, kw):
    rs = np.random.RandomState(40 + i)
    if kw["pool_type"] == "max":
        return rs.randint(0, 4, size=shape).astype(dt)
    return rs.uniform(0.1, 2, size=shape).astype(dt)


@pytest.mark.parametrize("i", range(len(_CASES)))
def test_pooling_backward_bits(i):
    shape, dt, kw, want = _CASES[i]
    dt = "float" + dt
    x = mx.nd.array(_data(i, shape, dt, kw), dtype=dt)
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Pooling(x, **kw)
    og = np.random.RandomState(80 + i).uniform(-1, 1, size=y.shape).astype(dt)
    y.backward(mx.nd.array(og, dtype=dt))
    assert zlib.crc32(np.ascontiguousarray(x.grad.asnumpy()).tobytes()) == want


# lp backward from 1.9.1's own forward output (hex of its bytes): p=3 and global p=2
# forward outputs are not all 1.9.1's bits, so the backward gets 1.9.1's output directly.
_LP_CASES = [
    ((1, 2, 9), "float32", dict(kernel=(3,), stride=(1,), pad=(1,), pool_type="lp", p_value=3),
     "56333c3f46c3693f44a2b83f98ecd33f4bf7d73fecb2b43f0466873fe3915b3f0191da3e2dfcb53f"
     "96c801404cac034007251940b97801403e480540448d913f96af943f2fd33d3f",
     2412920822),
    ((1, 2, 9), "float64", dict(kernel=(3,), stride=(1,), pad=(1,), pool_type="lp", p_value=3),
     "7c5d3e45e0d4fa3f4fdef9cd325e014010235c276640fe3f2582dc10ef3b0340d3e46d794c400040"
     "02a283d8ba190340716063786e5d0040fd7360a0838f0040e4aaf55e82aef53fcdad5d27d4d6e83f"
     "07c4cc70ba7ff23f05703a5dba2dfe3f4ddd64fc7762ff3f48dac25a6e49ff3f8ecab198b851ff3f"
     "b0880c6665bf004037ab24a0231f0040b34b6f8d34f0f53f",
     3913120848),
    ((1, 2, 3, 4), "float32", dict(kernel=(1, 1), global_pool=True, pool_type="lp", p_value=2),
     "62307140e751a040",
     1409097609),
    ((1, 2, 3, 4), "float32", dict(kernel=(2, 2), stride=(1, 1), pool_type="lp", p_value=3),
     "6ae0bf3faaeaa03f5a4fb83f058eb53fbf66933fa7ecae3fd94201403829184017bd1740ff241b40"
     "991d1a40721a2040",
     2848922474),
]


@pytest.mark.parametrize("i", range(len(_LP_CASES)))
def test_lp_pooling_backward_bits(i):
    shape, dt, kw, y_hex, want = _LP_CASES[i]
    rs = np.random.RandomState(60 + i)
    x = rs.uniform(0.1, 2, size=shape).astype(dt)
    y = np.frombuffer(bytes.fromhex(y_hex), dtype=dt)
    og = rs.uniform(-1, 1, size=y.shape).astype(dt)
    y_nd = mx.nd.array(y, dtype=dt).reshape(mx.nd.Pooling(mx.nd.array(x, dtype=dt), **kw).shape)
    gx = mx.nd._internal._backward_Pooling(mx.nd.array(og, dtype=dt).reshape(y_nd.shape),
                                           mx.nd.array(x, dtype=dt), y_nd, **kw)
    assert zlib.crc32(np.ascontiguousarray(gx.asnumpy()).tobytes()) == want


def test_large_inputs_keep_the_fast_kernel():
    # above 32,768 elements the (not bit-exact) fast kernels stay: only closeness is checked
    x = mx.nd.array(np.random.RandomState(7).uniform(size=(2, 8, 48, 48)).astype("float32"))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Pooling(x, kernel=(3, 3), stride=(1, 1), pad=(1, 1), pool_type="avg")
    y.backward(mx.nd.ones(y.shape))
    g = x.grad.asnumpy()
    # every interior element is in 9 windows, each giving 1/9
    np.testing.assert_allclose(g[:, :, 1:-1, 1:-1], 1.0, rtol=1e-6)
