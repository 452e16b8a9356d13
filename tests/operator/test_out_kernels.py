"""Concat, clip, Dropout, Reshape and Flatten with ``out=`` (the executor's planned buffers):
the same bits as without it, written into the given buffer, also when the buffer is the
input itself (the in-place plan)."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet.backend import get_backend
from mxnet.operator.registry import RunContext, get_op


def _rc(train=True, seed=0):
    rc = RunContext(get_backend(mx.cpu()), train)
    mx.random.seed(seed)
    return rc


def _check(name, attrs, ins, train=True, inplace=False):
    op = get_op(name)
    attrs = op.parse_attrs(attrs)
    want = op.compute(_rc(train), attrs, *[a.copy() for a in ins])
    want = want[0] if isinstance(want, (tuple, list)) else want
    ins = [a.copy() for a in ins]
    buf = ins[0] if inplace else np.full(want.shape, np.nan, want.dtype)
    got = op.compute(_rc(train), attrs, *ins, out=[buf])
    got = got[0] if isinstance(got, (tuple, list)) else got
    assert got is buf, f"{name} did not write into out"
    np.testing.assert_array_equal(got, want)


_X = np.random.RandomState(1).randn(4, 3, 5).astype(np.float32)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_concat(dim):
    parts = [_X, _X * 2, _X - 1]
    _check("Concat", {"num_args": "3", "dim": str(dim)}, parts)


@pytest.mark.parametrize("lo,hi", [(-0.5, 0.5), (0.5, -0.5), (-10, 10)])
@pytest.mark.parametrize("inplace", [False, True])
def test_clip(lo, hi, inplace):
    x = _X.copy()
    x[0, 0, :3] = [np.nan, np.inf, -np.inf]
    _check("clip", {"a_min": str(lo), "a_max": str(hi)}, [x], inplace=inplace)


@pytest.mark.parametrize("train,p", [(False, 0.5), (True, 0.0), (True, 0.3), (True, 1.0)])
@pytest.mark.parametrize("inplace", [False, True])
def test_dropout(train, p, inplace):
    _check("Dropout", {"p": str(p)}, [_X], train=train, inplace=inplace)


def test_reshape_and_flatten():
    _check("Reshape", {"shape": "(-1, 5)"}, [_X])
    _check("Flatten", {}, [_X])
    _check("Reshape", {"shape": "(3, 4, 5)"}, [_X])


@pytest.mark.parametrize("slope", [0.25, 0.0, 1.5])
@pytest.mark.parametrize("inplace", [False, True])
def test_leaky_relu(slope, inplace):
    x = _X.copy()
    x[0, 0, :3] = [np.nan, -0.0, -np.inf]
    _check("LeakyReLU", {"act_type": "leaky", "slope": str(slope)}, [x], inplace=inplace)


@pytest.mark.parametrize("inplace", [False, True])
def test_prelu(inplace):
    gamma = np.array([0.1, -0.5, 2.0], dtype=np.float32)
    _check("LeakyReLU", {"act_type": "prelu"}, [_X, gamma], inplace=inplace)
