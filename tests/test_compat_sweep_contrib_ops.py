"""Regression tests from a compatibility sweep of the contrib operator long tail.

Expected values were recorded from MXNet 1.9.1 unless stated otherwise.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def test_round_ste_keeps_sign_of_zero():
    # recorded from 1.9.1: rounding half away from zero, and -0.4 / -0.0 give -0.0
    x = mx.nd.array([-2.5, -0.4, -0.0, 0.4, 0.5, 1.5], dtype='float64')
    out = mx.nd.contrib.round_ste(x).asnumpy()
    assert out.tolist() == [-3.0, -0.0, -0.0, 0.0, 1.0, 2.0]
    assert np.signbit(out).tolist() == [True, True, True, False, False, False]
    out16 = mx.nd.contrib.round_ste(mx.nd.array([-0.4, 2.5], dtype='float16')).asnumpy()
    assert out16.dtype == np.float16
    assert out16.tolist() == [-0.0, 3.0] and bool(np.signbit(out16[0]))


def test_round_ste_straight_through_gradient():
    x = mx.nd.array([-2.5, -0.4, 0.7])
    x.attach_grad()
    with mx.autograd.record():
        (mx.nd.contrib.round_ste(x) * 3).sum().backward()
    assert x.grad.asnumpy().tolist() == [3.0, 3.0, 3.0]


def _encode_inputs():
    samples = mx.nd.array([[1, -1, 0, 1]])
    matches = mx.nd.array([[0, 1, 0, 2]])
    anchors = mx.nd.array([[[0, 0, 10, 10], [5, 5, 15, 15], [0, 0, 4, 8], [2, 2, 6, 6]]])
    refs = mx.nd.array([[[0, 0, 9, 9], [4, 6, 14, 16], [1, 1, 5, 5]]])
    return samples, matches, anchors, refs


def test_box_encode_values():
    t, m = mx.nd.contrib.box_encode(*_encode_inputs(), mx.nd.array([0, 0, 0, 0]),
                                    mx.nd.array([0.1, 0.1, 0.2, 0.2]))
    # recorded from 1.9.1
    np.testing.assert_allclose(t.asnumpy(), [[[-0.5, -0.5, -0.5268027186393738, -0.5268027186393738],
                                              [0, 0, 0, 0], [0, 0, 0, 0], [-2.5, -2.5, 0, 0]]],
                               rtol=1e-6)
    assert m.asnumpy().tolist() == [[[1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]]]


@pytest.mark.parametrize("which", ["means", "stds"])
def test_box_encode_rejects_bad_means_stds(which):
    # 1.9.1 raises MXNetError ("Shape inconsistent, Provided = [3], inferred shape=(4,)");
    # this used to fail with a bare IndexError
    args = {"means": mx.nd.zeros(4), "stds": mx.nd.ones(4)}
    args[which] = mx.nd.ones(3)
    with pytest.raises(MXNetError, match=which):
        mx.nd.contrib.box_encode(*_encode_inputs(), args["means"], args["stds"])
    sym = mx.sym.contrib.box_encode(*[mx.sym.var(n) for n in
                                      ("s", "m", "a", "r", "mu", "sd")])
    shapes = dict(s=(1, 4), m=(1, 4), a=(1, 4, 4), r=(1, 3, 4), mu=(4,), sd=(4,))
    shapes["mu" if which == "means" else "sd"] = (3,)
    with pytest.raises(MXNetError):
        sym.infer_shape(**shapes)


@pytest.mark.parametrize("kw", [dict(height=0, width=2), dict(height=-1, width=2),
                                dict(height=3, width=0)])
def test_bilinear_resize_rejects_sizes_below_one(kw):
    # 1.9.1: "value 0 for Parameter height should be greater equal to 1" (ours returned an
    # empty array for height=0)
    x = mx.nd.arange(9).reshape((1, 1, 3, 3))
    with pytest.raises(MXNetError, match="height|width"):
        mx.nd.contrib.BilinearResize2D(x, **kw)


def test_bilinear_resize_values_and_gradient():
    x = mx.nd.array([[[[0, 1], [2, 3]]]])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.contrib.BilinearResize2D(x, height=3, width=3)
    y.backward(mx.nd.ones((1, 1, 3, 3)))
    # recorded from 1.9.1 (mode 'like' through simple_bind gave the same numbers)
    assert y.asnumpy().tolist() == [[[[0.0, 0.5, 1.0], [1.0, 1.5, 2.0], [2.0, 2.5, 3.0]]]]
    assert x.grad.asnumpy().tolist() == [[[[2.25, 2.25], [2.25, 2.25]]]]


def test_allclose_and_box_iou_need_matching_dtypes():
    # 1.9.1 raises MXNetError for float32 vs float64 inputs; ours used to compute silently
    with pytest.raises(MXNetError, match="dtype"):
        mx.nd.contrib.allclose(mx.nd.ones(2), mx.nd.ones(2, dtype='float64'))
    with pytest.raises(MXNetError, match="dtype"):
        mx.nd.contrib.box_iou(mx.nd.ones((2, 4)), mx.nd.ones((2, 4), dtype='float64'))
    # same dtypes keep working (recorded from 1.9.1)
    assert mx.nd.contrib.allclose(mx.nd.ones(2, dtype='int32'),
                                  mx.nd.ones(2, dtype='int32')).asnumpy().tolist() == 1
    iou = mx.nd.contrib.box_iou(mx.nd.array([[0, 0, 10, 10]], dtype='float64'),
                                mx.nd.array([[0, 0, 5, 5]], dtype='float64'))
    assert iou.dtype == np.float64
    np.testing.assert_allclose(iou.asnumpy(), [[0.25]])


def test_box_nms_and_ctc_loss_output_names():
    # recorded from 1.9.1: both ops have a hidden second output, so the visible one is
    # named "<name>_output0" (ours used to say "<name>_output")
    d = mx.sym.var('d')
    assert mx.sym.contrib.box_nms(d, name='n').list_outputs() == ['n_output0']
    assert mx.sym.contrib.box_non_maximum_suppression(d, name='m').list_outputs() == ['m_output0']
    assert mx.sym.contrib.box_nms(d, name='n').get_internals().list_outputs() == ['d', 'n_output0']
    assert mx.sym.CTCLoss(d, mx.sym.var('l'), name='c').list_outputs() == ['c_output0']
    assert mx.sym.contrib.ctc_loss(d, mx.sym.var('l'), name='c2').list_outputs() == ['c2_output0']
    internals = mx.sym.contrib.box_nms(d, name='n').get_internals()
    ex = (internals['n_output0'] * 2).simple_bind(mx.cpu(), d=(1, 2, 6))
    assert ex.forward()[0].shape == (1, 2, 6)


def test_hawkesll_output_names_and_values():
    # recorded from 1.9.1: outputs are named "output" and "out_state"
    names = [mx.sym.var(n) for n in ('lda', 'alpha', 'beta', 'state', 'lags', 'marks', 'vl', 'mt')]
    assert mx.sym.contrib.hawkesll(*names, name='a').list_outputs() == ['a_output', 'a_out_state']
    ll, st = mx.nd.contrib.hawkesll(
        mx.nd.array([[0.5, 0.3, 0.2], [0.1, 0.4, 0.6]]), mx.nd.array([0.2, 0.1, 0.3]),
        mx.nd.array([1.0, 2.0, 0.5]), mx.nd.zeros((2, 3)),
        mx.nd.array([[0.5, 0.7, 0.2, 1.0], [0.3, 0.3, 0.9, 0.1]]),
        mx.nd.array([[0, 1, 2, 0], [2, 2, 1, 0]], dtype='int32'),
        mx.nd.array([4, 3]), mx.nd.array([3.0, 2.5]))
    # recorded from 1.9.1 (mx.nd.contrib.hawkesll with these inputs)
    np.testing.assert_allclose(ll.asnumpy(), [-7.6779, -4.9636], atol=1e-4)
    np.testing.assert_allclose(st.asnumpy(), [[0.6309, 0.0273, 0.4493], [0.0, 0.1353, 0.7196]],
                               atol=1e-4)
