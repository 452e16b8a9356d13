"""Pooling forward bit for bit against MXNet 1.9.1 (CPU): lp pooling, global pools and
the avg / max corner cases, float16/float32/float64.

Each case pools seeded data and compares the CRC-32 of the output's bytes with the value
1.9.1 gave for the same script (recorded under 1.9.1, NaiveEngine, on an AVX-512 CPU). What
the cases pin down (inputs up to 32,768 elements; global pools up to 65,536):

* lp p=3 takes the C library's cube root (glibc's cbrt / cbrtf, not correctly rounded) of
  the window's sum of x*x*x; NumPy's SIMD cbrt differs from it in the last bit in ~30% of
  float32 and ~50% of float64 results.
* global sum / lp / avg add the positions of a feature map left to right; avg divides each
  position by the count first (1.9.1's own kernel: float16, float64, channels-last, or no
  kernel given) or the sum (oneDNN: float32 channels-first with a kernel given).
* avg with count_include_pad=False in 1.9.1's own kernel divides each tap by the window's
  valid count; float32 "full" pools whose shape is the "valid" one run in oneDNN (sum, then
  divide).
* max skips NaN; a window of only NaN / -inf gives the lowest finite value.
"""
import zlib

import numpy as np
import pytest

import mxnet as mx


def A(pool_type, nd, k, s, p, **kw):
    return dict(kernel=(k,) * nd, stride=(s,) * nd, pad=(p,) * nd, pool_type=pool_type, **kw)


def G(pool_type, nd, **kw):
    return dict(kernel=(1,) * nd, global_pool=True, pool_type=pool_type, **kw)


# (shape, dtype, Pooling attrs, CRC-32 of 1.9.1's output)
_CASES = [
    ((2, 3, 17), '32', A('lp', 1, 3, 2, 1, p_value=3), 3438810935),
    ((2, 3, 9, 11), '32', A('lp', 2, 3, 2, 1, p_value=3, pooling_convention='full'), 571375013),
    ((2, 3, 6, 8, 8), '32', A('lp', 3, 3, 2, 1, p_value=3), 3152732485),
    ((2, 3, 9, 11), '64', A('lp', 2, 3, 2, 1, p_value=3), 3013970005),
    ((2, 3, 17), '64', dict(kernel=(3,), stride=(2,), pad=(0, 0, 0), pool_type='lp', p_value=3,
        pooling_convention='same'), 151502999),
    ((2, 3, 9, 11), '16', A('lp', 2, 3, 2, 1, p_value=3), 1183501816),
    ((4, 8, 16, 16), '32', A('lp', 2, 2, 2, 0, p_value=3), 4053484764),
    ((2, 9, 11, 3), '32', A('lp', 2, 3, 2, 1, p_value=3, layout='NHWC'), 3753178491),
    ((2, 3, 9, 11), '32', A('lp', 2, 3, 1, 1, p_value=2), 3141044635),
    ((2, 3, 7, 9), '32', G('lp', 2, p_value=3), 227618002),
    ((2, 4, 40, 40), '32', G('lp', 2, p_value=2), 2246828173),
    ((2, 4, 40, 40), '64', G('lp', 2, p_value=3), 2799828339),
    ((2, 3, 5, 6, 7), '32', G('lp', 3, p_value=1), 3413955128),
    ((4, 16, 7, 7), '32', G('avg', 2), 1111792319),
    ((4, 16, 7, 7), '64', G('avg', 2), 1177358844),
    ((2, 33, 33, 4), '32', G('avg', 2, layout='NHWC'), 3615301898),
    ((2, 2, 100, 100), '32', G('sum', 2), 3423381278),
    ((1, 1, 65536), '64', G('avg', 1), 3458266873),
    ((2, 3, 2, 7, 7), '32', G('avg', 3), 2874642918),
    ((8, 32, 4, 4), '32', G('avg', 2), 3595321461),
    ((4, 8, 9, 9), '16', G('avg', 2), 3345043791),
    ((4, 8, 9, 9), '16', G('sum', 2), 4157732679),
    ((2, 3, 9, 11), '64', A('avg', 2, 3, 2, 1, count_include_pad=False), 1213769299),
    ((2, 3, 9, 11), '16', A('avg', 2, 3, 2, 1, count_include_pad=False), 64543396),
    ((2, 3, 9, 11), '32', A('avg', 2, 3, 2, 1, pooling_convention='full'), 4201590792),
    ((2, 3, 10, 10), '32', A('avg', 2, 3, 2, 1, pooling_convention='full',
        count_include_pad=False), 3933402457),
    ((2, 9, 11, 3), '32', A('avg', 2, 3, 2, 1, layout='NHWC', count_include_pad=False),
        3944325726),
    ((2, 2, 5, 6, 7), '32', A('avg', 3, 3, 2, 1, pooling_convention='full',
        count_include_pad=False), 3840137054),
    ((2, 3, 17), '32', A('avg', 1, 3, 2, 1, pooling_convention='full'), 3091304154),
    ((2, 3, 9, 11), '16', A('max', 2, 3, 2, 1), 1403153146),
    ((2, 3, 9, 11), '32', A('max', 2, 3, 2, 1), 2542812440),
    ((2, 3, 9, 9), '64', G('max', 2), 1996663708),
    ((2, 3, 130), '16', G('max', 1), 1889187776),
]


def _data(i, shape, dt, kw):
    rs = np.random.RandomState(40 + i)
    x = (rs.randn(*shape) * (8 if dt == "float16" else 1)).astype(dt)
    if kw["pool_type"] == "max":
        f = x.reshape(-1)
        f[rs.randint(0, f.size, max(1, f.size // 20))] = np.nan
        f[rs.randint(0, f.size, max(1, f.size // 20))] = -np.inf
    return x


@pytest.mark.parametrize("i", range(len(_CASES)))
def test_pooling_forward_bits(i):
    shape, dt, kw, want = _CASES[i]
    dt = "float" + dt
    y = mx.nd.Pooling(mx.nd.array(_data(i, shape, dt, kw), dtype=dt), **kw).asnumpy()
    assert y.dtype == np.dtype(dt)
    assert zlib.crc32(np.ascontiguousarray(y).tobytes()) == want


# lp p=3 with a one-element window is cbrt(x * x * x): 1.9.1's results (glibc's cbrtf / cbrt)
_CBRT32 = (["0x403beaee", "0x40b3491b", "0xbee87c13", "0x40121e87", "0x408f6e7d", "0x4025f8c5",
            "0xc0400000", "0x2b8cbccc", "0xc0e80000"],
           ["0x403beaee", "0x40b3491b", "0xbee87c13", "0x40121e87", "0x408f6e7d", "0x4025f8c5",
            "0xc0400000", "0x2b8cbccc", "0xc0e80000"])
_CBRT64 = (["0x1.faf35310dabb8p-1", "-0x1.79789fab354c6p-10", "-0x1.e0c204cd1cba0p+2",
            "0x1.721e37d19c2fep-2", "0x1.363b19727bf79p+1", "-0x1.7164bc5255deep-1",
            "-0x1.8000000000000p+1", "0x1.19799812dea11p-40", "-0x1.d000000000000p+2"],
           ["0x1.faf35310dabb9p-1", "-0x1.79789fab354c7p-10", "-0x1.e0c204cd1cb9fp+2",
            "0x1.721e37d19c2fep-2", "0x1.363b19727bf79p+1", "-0x1.7164bc5255dedp-1",
            "-0x1.8000000000001p+1", "0x1.19799812dea0fp-40", "-0x1.d000000000001p+2"])


def test_lp3_cube_root_float32():
    x = np.array([int(h, 16) for h in _CBRT32[0]], np.uint32).view(np.float32)
    want = np.array([int(h, 16) for h in _CBRT32[1]], np.uint32)
    y = mx.nd.Pooling(mx.nd.array(x.reshape(1, 1, -1)), kernel=(1,), pool_type="lp",
                      p_value=3).asnumpy()
    assert y.reshape(-1).view(np.uint32).tolist() == want.tolist()


def test_lp3_cube_root_float64():
    x = np.array([float.fromhex(h) for h in _CBRT64[0]])
    y = mx.nd.Pooling(mx.nd.array(x.reshape(1, 1, -1), dtype="float64"), kernel=(1,),
                      pool_type="lp", p_value=3).asnumpy()
    assert [float(v).hex() for v in y.reshape(-1)] == \
        [float(float.fromhex(h)).hex() for h in _CBRT64[1]]


def test_cube_root_special_values():
    from mxnet.operator.nn_pool import _libm_cbrt
    for dt in (np.float32, np.float64):
        x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 8.0, -8.0, 1e-300 if dt == np.float64
                      else 1e-44], dt)
        y = _libm_cbrt(x)
        assert y.dtype == dt
        assert np.signbit(y[1]) and y[0] == 0 and y[2] == np.inf and y[3] == -np.inf
        assert np.isnan(y[4]) and y[5] == 2 and y[6] == -2
        assert abs(float(y[7]) ** 3 / float(x[7]) - 1) < 1e-5   # subnormal input (float32)
