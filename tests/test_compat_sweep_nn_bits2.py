"""More NN operators bit for bit against MXNet 1.9.1 (float32, CPU build, NaiveEngine).

As in test_compat_sweep_nn_bits.py: seeded float32 inputs (``np.random.RandomState``'s
uniform stream is the same in every NumPy version), a seeded head gradient, and the CRC-32 of
each output's and gradient's bytes, recorded from 1.9.1 running the same script.

What the cases pin down:

* moments: each sum accumulated in float64, rounded to float32, divided by the float32 count;
  the gradient 2 * og_var * (x - mean) / n + og_mean / n in float32.
* norm(ord=1) over up to 16 elements per output: 1.9.1's compensated float32 sum.
* L2Normalization backward: y = x / norm, t = sum(og * y) added in order,
  (og - y * t) / norm.
* log's and log1p's gradients: og * (1 / x), og * (1 / (x + 1)).
* Correlation: the forward adds taps x channels in turn (up to 32 per output), the backward
  adds each (og * other) / sumelems term in 1.9.1's loop order.
* LRN (oneDNN): omega = k + alpha * sum / n with the squares of channels c - half .. c + half
  added in turn; x * sqrt(1 / (sqrt(omega) * omega)) for beta 0.75, x * (1 / powf(omega,
  beta)) otherwise; oneDNN's reference backward.
* InstanceNorm: sums in order times 1/m, gamma * (x - mean) / std + beta, and 1.9.1's
  backward step by step (up to 4096 elements); GroupNorm (up to 65536): float64-accumulated
  sums, dx = (o - mean(o)) - xn * mean(o * xn) with o = og * gamma / std.
* SpatialTransformer: its own target grid (double coordinates, rounded), then BilinearSampler.
"""
import zlib

import numpy as np
import pytest

import mxnet as mx


def _data(seed, shape, lo=-5.0, hi=5.0):
    return np.random.RandomState(seed).uniform(lo, hi, size=shape).astype(np.float32)


def _crc(a):
    return zlib.crc32(np.ascontiguousarray(a, np.float32).tobytes())


def _fb(fn, inputs):
    """CRCs of fn(*inputs) and of every input's gradient under the head gradient seed 99."""
    xs = [mx.nd.array(a) for a in inputs]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = fn(*xs)
    y.backward(mx.nd.array(_data(99, y.shape, -1, 1)))
    return (_crc(y.asnumpy()),) + tuple(_crc(x.grad.asnumpy()) for x in xs)


def test_moments_bits():
    x = mx.nd.array(_data(23, (6, 7, 40)))
    m, v = mx.nd.moments(x, axes=(1, 2))
    m2, v2 = mx.nd.moments(x, axes=(0,))
    got = tuple(_crc(a.asnumpy()) for a in (m, v, m2, v2))
    assert got == (859634338, 2745993078, 123112850, 2063711106)   # recorded from 1.9.1


def test_moments_grad_bits():
    # var only, then both outputs with head gradients; recorded from 1.9.1
    assert _fb(lambda x: mx.nd.moments(x, axes=(1,))[1], [_data(23, (6, 7, 5))]) == \
        (1003853121, 1404447809)
    x = mx.nd.array(_data(23, (6, 7, 5)))
    x.attach_grad()
    with mx.autograd.record():
        m, v = mx.nd.moments(x, axes=(1,))
    mx.autograd.backward([m, v], [mx.nd.array(_data(98, (6, 5), -1, 1)),
                                  mx.nd.array(_data(99, (6, 5), -1, 1))])
    assert _crc(x.grad.asnumpy()) == 3475399687


def test_norm_ord1_short_bits():
    got = _fb(lambda x: mx.nd.norm(x, ord=1, axis=(0, 2)), [_data(24, (3, 33, 4))])
    assert got == (2642584807, 4033688094)   # recorded from 1.9.1


def test_norm_ord1_long_close():
    # above 16 elements per output ours rounds a float64 sum, 1.9.1 takes compensated float32
    # steps: the two agree to the last bit mostly and always within one ulp of the sum
    x = _data(24, (6, 300, 4))
    got = mx.nd.norm(mx.nd.array(x), ord=1, axis=1).asnumpy()
    want = np.abs(x.astype(np.float64)).sum(axis=1)
    assert np.all(np.abs(got - want) <= np.spacing(np.float32(want)))


@pytest.mark.parametrize("mode,want", [("instance", (755435423, 615225691)),
                                       ("channel", (814915084, 2798615687)),
                                       ("spatial", (1490059529, 711821205))])
def test_l2_normalization_grad_bits(mode, want):
    got = _fb(lambda x: mx.nd.L2Normalization(x, mode=mode), [_data(11, (3, 4, 5, 6))])
    assert got == want   # recorded from 1.9.1


@pytest.mark.parametrize("op,want", [("log", 491871985), ("log1p", 218633027)])
def test_log_grad_bits(op, want):
    x = mx.nd.array(_data(1, (16, 10), 0.01, 3))
    x.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.nd, op)(x)
    y.backward(mx.nd.array(_data(2, (16, 10), -1, 1)))
    assert _crc(x.grad.asnumpy()) == want   # recorded from 1.9.1


def test_sigmoid_bce_from_sigmoid_bits():
    p = _data(13, (16, 10), 0.01, 0.99)
    lab = mx.nd.array((_data(14, (16, 10), 0, 1) > 0.5).astype(np.float32))
    got = _fb(lambda a: mx.gluon.loss.SigmoidBCELoss(from_sigmoid=True)(a, lab), [p])
    assert got == (2980881821, 606869444)   # recorded from 1.9.1


_CORR_CASES = [
    # (data shape, seeds, attrs, CRCs of output and both gradients recorded from 1.9.1)
    ((2, 3, 7, 8), (20, 21), dict(kernel_size=1, max_displacement=2, stride1=1, stride2=1,
                                  pad_size=2), (3090619203, 3690508336, 3828381241)),
    ((2, 3, 7, 8), (20, 21), dict(kernel_size=3, max_displacement=2, stride1=1, stride2=2,
                                  pad_size=3), (165874343, 2999691426, 1598671591)),
    ((2, 3, 7, 8), (20, 21), dict(kernel_size=1, max_displacement=1, pad_size=1,
                                  is_multiply=False), (3032751018, 1343407743, 2091757706)),
    ((2, 2, 9, 8), (30, 31), dict(kernel_size=3, max_displacement=2, stride1=2, stride2=1,
                                  pad_size=2), (1616617286, 426139782, 1712299064)),
    ((2, 8, 6, 7), (32, 33), dict(kernel_size=1, max_displacement=3, stride1=1, stride2=2,
                                  pad_size=3), (3104166304, 3052449855, 1819312733)),
    ((1, 40, 6, 7), (34, 35), dict(kernel_size=1, max_displacement=2, stride1=1, stride2=1,
                                   pad_size=2), (614305543, 428351515, 1833507647)),
    ((2, 2, 6, 7), (36, 37), dict(kernel_size=3, max_displacement=1, pad_size=2,
                                  is_multiply=False), (3301822842, 2885634042, 3364717301)),
]


@pytest.mark.parametrize("shape,seeds,kw,want", _CORR_CASES)
def test_correlation_bits(shape, seeds, kw, want):
    got = _fb(lambda a, b: mx.nd.Correlation(a, b, **kw),
              [_data(seeds[0], shape), _data(seeds[1], shape)])
    assert got == want


_LRN_CASES = [
    # (shape, seed, attrs, CRCs of output and gradient recorded from 1.9.1)
    ((2, 7, 4, 5), 10, dict(nsize=5), (2684904046, 2074013392)),
    ((2, 7, 4, 5), 10, dict(nsize=3, beta=0.5, alpha=0.01, knorm=1.5), (2094834969, 1468242016)),
    ((2, 9, 4, 5), 41, dict(nsize=3, alpha=0.5, beta=0.6, knorm=1.3), (79789193, 836706271)),
    ((2, 12, 4, 5), 42, dict(nsize=7, alpha=0.7, beta=0.5, knorm=2.0), (3699246190, 1231814558)),
    ((2, 9, 4, 5), 41, dict(nsize=3, alpha=0.5, beta=0.75, knorm=1.3), (529834864, 880917385)),
    ((2, 7, 4, 5), 43, dict(nsize=5, alpha=0.9, beta=0.75, knorm=1.0), (2768660276, 2207112148)),
    ((2, 8, 4, 5), 44, dict(nsize=5, alpha=0.9, beta=0.75, knorm=1.0), (1136701681, 3181386030)),
    ((2, 7, 4, 5), 45, dict(nsize=4, alpha=0.9, beta=0.75, knorm=1.0), (2615007098, 2835002720)),
    ((3, 7), 46, dict(nsize=3, alpha=0.9, beta=0.75, knorm=1.0), (611109166, 455404323)),
]


@pytest.mark.parametrize("shape,seed,kw,want", _LRN_CASES)
def test_lrn_bits(shape, seed, kw, want):
    assert _fb(lambda x: mx.nd.LRN(x, **kw), [_data(seed, shape)]) == want


def test_lrn_jit_case_gradient_bits():
    # nsize 5, beta 0.75, 16 channels: 1.9.1's forward is oneDNN's JIT kernel (not emulated;
    # ~40% of outputs bit-equal), its gradient the reference one; gradient CRC from 1.9.1
    x = mx.nd.array(_data(40, (2, 16, 4, 5)))
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.LRN(x, nsize=5, alpha=0.9, beta=0.75, knorm=1.0)
    y.backward(mx.nd.array(_data(99, y.shape, -1, 1)))
    assert _crc(x.grad.asnumpy()) == 3244924746


def test_instance_norm_bits():
    got = _fb(lambda x, g, b: mx.nd.InstanceNorm(x, g, b),
              [_data(4, (3, 4, 5, 6)), _data(5, (4,), -1, 1), _data(6, (4,), -1, 1)])
    assert got == (4241090360, 3198821783, 315444303, 280754269)   # recorded from 1.9.1


def test_group_norm_bits():
    got = _fb(lambda x, g, b: mx.nd.GroupNorm(x, g, b, num_groups=2),
              [_data(7, (3, 4, 5, 6)), _data(8, (2,), -1, 1), _data(9, (2,), -1, 1)])
    assert got == (1087248066, 3226839540, 3068406170, 3404809998)   # recorded from 1.9.1


def test_spatial_transformer_bits():
    # 1.9.1's target grid rounds double coordinates -1 + i * 2.0 / (n - 1); then
    # BilinearSampler's steps; CRCs of output, data and loc gradients from 1.9.1
    loc = _data(26, (2, 6), -0.3, 0.3) + np.array([1, 0, 0, 0, 1, 0], np.float32)
    got = _fb(lambda a, b: mx.nd.SpatialTransformer(a, b, target_shape=(5, 6),
                                                    transform_type="affine",
                                                    sampler_type="bilinear"),
              [_data(27, (2, 3, 7, 8)), loc])
    assert got == (3409617704, 1258117898, 1268398844)
