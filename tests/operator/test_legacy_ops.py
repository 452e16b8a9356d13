"""Old and internal operator names (mxnet/operator/legacy_ops.py, sparse_retain.py): numeric
gradients of the differentiable ones. Their forward values against 1.9.1 are checked in
tests/test_compat_sweep_api_surface.py."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx

from .harness import GradCase, check_grad_case, rand

nd = mx.nd
_ROWS = np.array([2.0, 0.0])


def _retain(x):
    return nd._internal._sparse_retain(x, nd.array(_ROWS, dtype=x.dtype))


GRAD_CASES = [
    GradCase("identity_with_attr_like_rhs",
             lambda x, y: nd._internal._identity_with_attr_like_rhs(x, y),
             [rand(2, 3), rand(2, 3, seed=1)], ops=("_identity_with_attr_like_rhs",)),
    GradCase("sparse_retain", _retain, [rand(4, 3)], ops=("_sparse_retain",)),
]

NON_DIFFERENTIABLE = ("_grad_add", "_slice_assign", "_slice_assign_scalar")


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


def test_sparse_retain_gradient_keeps_the_rows():
    x = nd.array(np.arange(12.0).reshape(4, 3))
    x.attach_grad()
    with mx.autograd.record():
        y = _retain(x)
    y.backward(nd.ones((4, 3)))
    assert x.grad.asnumpy().tolist() == [[1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 0, 0]]


def test_grad_add_is_not_differentiable():
    # as 1.9.1: "Operator _grad_add is non-differentiable ..."
    a = nd.array([1.0, 2.0])
    a.attach_grad()
    with mx.autograd.record():
        y = nd._internal._grad_add(a, a)
    with pytest.raises(mx.base.MXNetError, match="non-differentiable"):
        y.backward()
