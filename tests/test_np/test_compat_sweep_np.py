"""Regressions from the mx.np compatibility sweep: each case is a difference found between
mxnet-py and MXNet 1.9.1 running the same user script. Expected values were recorded from
1.9.1 (comments say so) or are closed-form."""
import math

import numpy as onp
import pytest

from mxnet import autograd, np, npx
from mxnet.base import MXNetError


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _signbit(a):
    return onp.signbit(a.asnumpy()).tolist()


def test_round_tie_to_positive_zero():
    # recorded from 1.9.1: a tie at -0.5 rounds to +0, a non-tie like -0.4 keeps -0
    x = np.array([1.25, 2.5, -0.5, -1.5, -2.5, -0.4, 0.5, 1.5, -0.0])
    r = np.round(x)
    assert r.asnumpy().tolist() == [1.0, 2.0, 0.0, -2.0, -2.0, 0.0, 0.0, 2.0, 0.0]
    assert _signbit(r) == [False, False, False, True, True, True, False, False, True]
    r1 = np.round(np.array([-0.05, -0.15, 0.25, -0.04]), 1)
    assert _signbit(r1) == [False, True, False, True]
    assert onp.allclose(r1.asnumpy(), [0.0, -0.2, 0.2, 0.0])
    rm = np.round(np.array([-5.0, -4.0, 5.0, -50.0]), -1)   # 1.9.1: [0, -0, 0, -50]
    assert rm.asnumpy().tolist() == [0.0, 0.0, 0.0, -50.0]
    assert _signbit(rm) == [False, True, False, True]


def test_rint_keeps_sign_of_zero():
    # 1.9.1's rint breaks ties downwards and gives -0.0 for -0.4
    x = np.array([1.25, 2.5, -0.5, -1.5, -2.5, -0.4, 0.5, 1.5, -0.6, 0.4])
    r = np.rint(x)
    assert r.asnumpy().tolist() == [1.0, 2.0, -1.0, -2.0, -3.0, 0.0, 0.0, 1.0, -1.0, 0.0]
    assert _signbit(r)[5] and not _signbit(r)[9]


def test_slogdet_returns_list():
    res = np.linalg.slogdet(np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]]))
    assert isinstance(res, list)                     # 1.9.1 returns a list
    assert res[0].item() == 1.0
    assert abs(res[1].item() - math.log(18.0)) < 1e-6


M = [[1.0, -2.0], [3.0, 4.0]]


@pytest.mark.parametrize("ordv,expected", [
    # recorded from 1.9.1
    (1, 6.0), (-1, 4.0), (2, 5.116673), (-2, 1.954395), (onp.inf, 7.0), (-onp.inf, 3.0),
    ("nuc", 7.071068), ("fro", 5.477226), (None, 5.477226)])
def test_matrix_norm_orders(ordv, expected):
    a = np.array(M)
    r = np.linalg.norm(a, ord=ordv)
    assert r.shape == () and abs(r.item() - expected) < 1e-5
    rk = np.linalg.norm(a, ord=ordv, axis=(0, 1), keepdims=True)
    assert rk.shape == (1, 1) and abs(rk.item() - expected) < 1e-5


def test_vector_norm_orders():
    v = np.array([1.0, -2.0, 3.0])
    # recorded from 1.9.1: ord=0 counts nonzeros, 3 -> 3.3019273, -1 -> 0.54545456
    assert np.linalg.norm(v, ord=0).item() == 3.0
    assert abs(np.linalg.norm(v, ord=3).item() - 3.3019273) < 1e-6
    assert abs(np.linalg.norm(v, ord=-1).item() - 0.54545456) < 1e-7
    with pytest.raises(MXNetError):                  # 1.9.1 rejects a vector inf-norm
        np.linalg.norm(v, ord=onp.inf)
    b = np.array([[1.0, -2.0, 0.0], [0.0, 3.0, -4.0]])
    assert np.linalg.norm(b, ord=1, axis=1).asnumpy().tolist() == [3.0, 7.0]


def test_matrix_norm_one_gradient():
    a = np.array(M)
    a.attach_grad()
    with autograd.record():
        r = np.linalg.norm(a, ord=1)                 # max column sum: column 1 (|-2|+|4|)
    r.backward()
    assert a.grad.asnumpy().tolist() == [[0.0, -1.0], [0.0, 1.0]]


def test_where_one_argument():
    r = np.where(np.array([3.0, -1, 2, -5, 0, 4]) > 0)
    assert isinstance(r, tuple) and len(r) == 1      # 1.9.1: (array([0, 2, 5]),) int64
    assert r[0].dtype == onp.int64 and r[0].asnumpy().tolist() == [0, 2, 5]


def test_count_nonzero_is_python_int():
    r = np.count_nonzero(np.array([3.0, -1, 2, -5, 0, 4]))
    assert type(r) is int and r == 5                 # 1.9.1 (NumPy 1.23) gives int


def test_uint8_mixes_with_wider_signed_ints():
    u8 = np.array([1, 2], dtype="uint8")
    i32 = np.array([1, 2], dtype="int32")
    i64 = np.array([1, 2], dtype="int64")
    # recorded from 1.9.1: add/multiply/power accept the mix, other binary ops do not
    assert (u8 + i32).dtype == onp.int32 and (u8 + i32).asnumpy().tolist() == [2, 4]
    assert (i32 * u8).dtype == onp.int32 and (i32 * u8).asnumpy().tolist() == [1, 4]
    assert (u8 ** i64).dtype == onp.int64 and (u8 ** i64).asnumpy().tolist() == [1, 4]
    with pytest.raises(MXNetError):
        u8 - i32
    with pytest.raises(MXNetError):
        u8 + np.array([1, 2], dtype="int8")


def test_fully_connected_adds_bias_by_default():
    x, w = np.ones((2, 3)), np.ones((4, 3))
    out = npx.fully_connected(x, w, np.ones(4), num_hidden=4)   # 1.9.1: all 4.0
    assert out.asnumpy().tolist() == [[4.0] * 4] * 2
    assert npx.fully_connected(x, w, no_bias=True, num_hidden=4).asnumpy().tolist() == \
        [[3.0] * 4] * 2
    with pytest.raises(MXNetError):                  # 1.9.1: 3 inputs where 2 expected
        npx.fully_connected(x, w, np.ones(4), num_hidden=4, no_bias=True)
    with pytest.raises(MXNetError):
        npx.fully_connected(x, w, num_hidden=4)


def test_bitwise_operators_on_masks():
    r = np.array([1, 2, 3])
    assert ((r >= 2) & (r < 3)).asnumpy().tolist() == [False, True, False]
    assert ((r >= 3) | (r < 2)).asnumpy().tolist() == [True, False, True]
    assert ((r >= 0) ^ (r < 2)).asnumpy().tolist() == [False, True, True]
    assert (~(r > 1)).asnumpy().tolist() == [True, False, False]
    i = np.array([5, 6], dtype="int32")
    assert (i | 1).asnumpy().tolist() == [5, 7] and (i | 1).dtype == onp.int32
    m = r > 1
    m &= r < 3
    assert m.asnumpy().tolist() == [False, True, False]
    with pytest.raises(MXNetError):                  # float operands are rejected, as in 1.9.1
        np.array([1.0]) & np.array([1.0])
