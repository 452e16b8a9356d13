"""Dropout and Embedding: 1.9.1 golden values, numeric gradients, mask semantics, errors."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .harness import GradCase, check_grad_case, expect_error, rand
from .test_nn_norm import _TABLE, golden, replay  # noqa: F401  (golden is a fixture)

nd = mx.nd
CASES = [c for c in _TABLE.CASES if c.op in ("Dropout", "Embedding")]


def _seeded_dropout(**kw):
    def fn(x):
        mx.random.seed(7)  # the same mask on every call of the numeric check
        return nd.Dropout(x, **kw)
    return fn


def _embed(x, w):
    return nd.Embedding(x, w, input_dim=4, output_dim=3)


GRAD_CASES = [
    GradCase("dropout", _seeded_dropout(p=0.4), [rand(3, 4)], ops=("Dropout",)),
    GradCase("dropout_axes", _seeded_dropout(p=0.5, axes=(0,)), [rand(3, 2, 2)], ops=("Dropout",)),
    GradCase("embedding", _embed, [np.array([[0, 3, 3], [1, 0, 3]]), rand(4, 3)], wrt=[1],
             ops=("Embedding",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_golden(case, golden):  # noqa: F811
    replay(case, golden)


# ---------------------------------------------------------------------------------------------
# Dropout


def test_dropout_signature():
    assert list(inspect.signature(nd.Dropout).parameters)[:5] == ["data", "p", "mode", "axes",
                                                                   "cudnn_off"]
    op = get_op("Dropout")
    attrs = op.parse_attrs({})
    assert attrs["p"] == 0.5 and attrs["mode"] == "training" and attrs["axes"] == ()
    assert op.num_outputs(attrs) == 2 and op.num_visible_outputs(attrs) == 1


def test_dropout_identity_in_predict_mode():
    x = nd.array(rand(3, 4))
    y = nd.Dropout(x, p=0.9)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    y[:] = 0  # a fresh buffer, not the input's
    assert x.asnumpy().any()


def test_dropout_train_mask_scale_and_gradient():
    x = nd.array(np.ones((200, 50)), dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        y = nd.Dropout(x, p=0.3)
    y.backward(nd.array(np.full((200, 50), 2.0), dtype="float64"))
    out = y.asnumpy()
    scale = float(np.float32(1) / (np.float32(1) - np.float32(0.3)))  # float32, as 1.9.1
    assert set(np.unique(out)) <= {0.0, scale}
    assert abs((out == 0).mean() - 0.3) < 0.02
    np.testing.assert_array_equal(x.grad.asnumpy(), 2 * out)


def test_dropout_axes_share_the_mask():
    x = nd.ones((4, 6, 5))
    with mx.autograd.train_mode():
        out = nd.Dropout(x, p=0.5, axes=(1,)).asnumpy()
    assert (out == out[:, :1, :]).all()
    assert 0 < (out == 0).mean() < 1


def test_dropout_modes_seed_and_edges():
    x = nd.array(rand(6, 7))
    out = nd.Dropout(x, p=0.5, mode="always").asnumpy()
    assert (out == 0).any()
    with mx.autograd.train_mode():
        mx.random.seed(3)
        a = nd.Dropout(x, p=0.5).asnumpy()
        mx.random.seed(3)
        b = nd.Dropout(x, p=0.5).asnumpy()
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(nd.Dropout(x, p=0.0).asnumpy(), x.asnumpy())
        assert np.isnan(nd.Dropout(x, p=1.0).asnumpy()).all()  # 0 * inf in 1.9.1
        half = nd.Dropout(nd.ones((4, 4), dtype="float16"), p=0.5)
    assert half.dtype == np.float16 and set(np.unique(half.asnumpy())) <= {0.0, 2.0}


def test_dropout_errors():
    x = nd.ones((2, 3))
    expect_error(nd.Dropout, x, p=1.5, match="p=1.5")
    expect_error(nd.Dropout, x, p=-0.1, match="p=-0.1")
    expect_error(nd.Dropout, x, axes=(2,), match="axes")
    expect_error(nd.Dropout, x, axes=(-1,), match="axes")
    expect_error(nd.Dropout, x, mode="sometimes", match="mode")
    expect_error(nd.Dropout, nd.ones((2, 3), dtype="int32"), match="floating point")


# ---------------------------------------------------------------------------------------------
# Embedding


def test_embedding_lookup_dtype_and_shape():
    w = nd.array(np.arange(20).reshape(5, 4), dtype="float64")
    out = nd.Embedding(nd.array([[0, 1.7], [-1, 9]]), w, input_dim=5, output_dim=4)
    assert out.shape == (2, 2, 4) and out.dtype == np.float64
    np.testing.assert_array_equal(out.asnumpy()[:, :, 0], [[0, 4], [0, 16]])
    iw = nd.array(np.arange(6).reshape(3, 2), dtype="int32")
    assert nd.Embedding(nd.array([2, 0], dtype="uint8"), iw, input_dim=3, output_dim=2,
                        dtype="int32").dtype == np.int32


def test_embedding_gradient_accumulates_repeats():
    w = nd.zeros((4, 2))
    w.attach_grad(stype="row_sparse")   # (sparse_grad needs it, as in 1.9.1)
    idx = nd.array([3, 1, 3, 3, 0])
    with mx.autograd.record():
        y = nd.Embedding(idx, w, input_dim=4, output_dim=2, sparse_grad=True)
    y.backward(nd.array(np.arange(10).reshape(5, 2)))
    np.testing.assert_array_equal(w.grad.asnumpy(), [[8, 9], [2, 3], [0, 0], [10, 13]])


def test_embedding_infer_shape_and_type():
    op = get_op("Embedding")
    attrs = op.parse_attrs({"input_dim": 7, "output_dim": 3, "dtype": "float16"})
    ins, outs, _ = op.infer_shape(attrs, [(2, 5), None], [None])
    assert ins == [(2, 5), (7, 3)] and outs == [(2, 5, 3)]
    ins, outs, _ = op.infer_type(attrs, [np.dtype("int32"), None], [None])
    assert ins[1] == np.float16 and outs == [np.float16]


def test_embedding_errors():
    w = nd.ones((5, 4))
    expect_error(nd.Embedding, nd.array([1]), w, input_dim=6, output_dim=4, match="(6, 4)")
    expect_error(nd.Embedding, nd.array([1]), w, input_dim=5, output_dim=3, match="(5, 3)")
    expect_error(nd.Embedding, nd.array([1]), w, match="input_dim")
    expect_error(nd.Embedding, nd.array([1]), w, input_dim=5, output_dim=4, dtype="complex64",
                 match="dtype")
