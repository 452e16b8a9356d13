"""Regressions found by a compatibility sweep of Gluon layers and custom HybridBlocks in NumPy
mode (``npx.set_np()``) against MXNet 1.9.1.

Literal expected values were recorded from MXNet 1.9.1 unless a comment says otherwise.
"""
import json

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, gluon, npx
from mxnet.base import MXNetError




# -- np.reshape takes -1 only ------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(-2, 2, 2), (-3, 4), (2, -4, 1, 3, 4)])
def test_np_reshape_rejects_legacy_codes(np_mode, shape):
    # 1.9.1: "The shape dimension size to inferred must be -1" (MXNetError) for np.reshape,
    # ndarray.reshape and a hybridized F.np.reshape; NumPy itself would read them as -1
    np = np_mode
    a = np.arange(24).reshape(2, 3, 4)
    with pytest.raises(MXNetError, match="-1"):
        np.reshape(a, shape)
    with pytest.raises(MXNetError, match="-1"):
        a.reshape(shape)

    class Blk(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.reshape(x, shape)
    blk = Blk()
    blk.hybridize()
    with pytest.raises(MXNetError):
        blk(a)
    assert np.reshape(a, (2, 3, -1, 1)).shape == (2, 3, 4, 1)


# -- basic indexing of NumPy-mode symbols --------------------------------------------------------

def _slice_attrs(key):
    x = mx.sym.var("x").as_np_ndarray()
    nodes = json.loads(x[key].tojson())["nodes"]
    return [(n["op"], n.get("attrs", {})) for n in nodes if n["op"] != "null"]


@pytest.mark.parametrize("key, attrs, codes", [
    # recorded from 1.9.1: a negative integer in a tuple is walked backwards (k .. k-1, step -1)
    ((slice(None), -1), {"begin": "[None, -1]", "end": "[None, -2]", "step": "[None, -1]"},
     "(-2, -3, -4)"),
    ((-1, 0), {"begin": "[-1, 0]", "end": "[-2, 1]", "step": "[-1, 1]"}, "(-3, -3, -4)"),
    ((0, -2), {"begin": "[0, -2]", "end": "[1, -3]", "step": "[1, -1]"}, "(-3, -3, -4)"),
    ((1, slice(0, 2), -1), {"begin": "[1, 0, -1]", "end": "[2, 2, -2]",
                            "step": "[1, None, -1]"}, "(-3, -2, -3, -4)"),
    ((slice(None, None, -1), 0), {"begin": "[None, 0]", "end": "[None, 1]", "step": "[-1, 1]"},
     "(-2, -3, -4)"),
])
def test_np_symbol_tuple_index_nodes(np_mode, key, attrs, codes):
    assert _slice_attrs(key) == [("slice", attrs), ("_npx_reshape", {"newshape": codes})]


def test_np_symbol_slice_without_start(np_mode):
    # recorded from 1.9.1: a missing start is written as [None]; the step stays a scalar
    assert _slice_attrs(slice(None, None, 2)) == [
        ("slice", {"begin": "[None]", "end": "[None]", "step": "2"})]
    assert _slice_attrs(slice(-1, None)) == [
        ("slice", {"begin": "-1", "end": "[None]", "step": "None"})]


@pytest.mark.parametrize("key", [(Ellipsis, 0), (None, 0), [0, 2], (slice(None), [1, 0])])
def test_np_symbol_unsupported_index_is_index_error(np_mode, key):
    # 1.9.1 raises the builtin IndexError for these keys on a symbol (ours: also an MXNetError)
    x = mx.sym.var("x").as_np_ndarray()
    with pytest.raises(IndexError):
        x[key]


class _Idx(gluon.HybridBlock):
    def __init__(self, key, **kw):
        super().__init__(**kw)
        self.key = key

    def hybrid_forward(self, F, x):
        return x[self.key] * 2


@pytest.mark.parametrize("key", [(-2, 0), (0, -3), (-2, -3, -4), (slice(None), -3),
                                 (1, slice(None, None, -1), -1), slice(None, None, 2), -1, -2])
def test_np_hybridized_indexing_matches_numpy(np_mode, key):
    # checked against NumPy; 1.9.1 agrees except for a lone -1, whose graph (end=0) fails to
    # run there, a bug not copied
    np = np_mode
    want = onp.arange(24, dtype="float32").reshape(2, 3, 4)[key] * 2
    blk = _Idx(key)
    blk.hybridize()
    x = np.arange(24, dtype="float32").reshape(2, 3, 4)
    x.attach_grad()
    with autograd.record():
        y = blk(x)
    y.backward()
    onp.testing.assert_array_equal(y.asnumpy(), want)
    g = onp.zeros((2, 3, 4), "float32")
    g[key] = 2
    onp.testing.assert_array_equal(x.grad.asnumpy(), g)


# -- NumPy forms of symbol methods ---------------------------------------------------------------

class _Fn(gluon.HybridBlock):
    def __init__(self, fn, **kw):
        super().__init__(**kw)
        self.fn = fn

    def hybrid_forward(self, F, x):
        return self.fn(F, x)


@pytest.mark.parametrize("hybridize", [False, True])
def test_np_round_and_argsort_methods_in_hybrid_forward(np_mode, hybridize):
    # recorded from 1.9.1: x.round(decimals=1) rounds to tenths and x.argsort() gives int64
    # indices in both the imperative and the hybridized block
    np = np_mode
    x = np.array([[0.14, 0.55, 0.96], [0.41, 0.23, 0.77]], dtype="float32")
    rnd = _Fn(lambda F, x: x.round(decimals=1))
    srt = _Fn(lambda F, x: x.argsort(axis=0))
    if hybridize:
        rnd.hybridize()
        srt.hybridize()
    y = rnd(x)
    assert y.dtype == onp.float32
    onp.testing.assert_allclose(y.asnumpy(), [[0.1, 0.6, 1.0], [0.4, 0.2, 0.8]], rtol=1e-6)
    onp.testing.assert_allclose(rnd(x * 10).asnumpy()[0], [1.4, 5.5, 9.6], rtol=1e-6)
    i = srt(x)
    assert i.dtype == onp.int64
    assert i.asnumpy().tolist() == [[0, 1, 1], [1, 0, 0]]


def test_np_symbol_round_and_argsort_nodes(np_mode):
    # recorded from 1.9.1
    a = mx.sym.var("a").as_np_ndarray()
    nodes = [json.loads(s.tojson())["nodes"][-1] for s in (a.round(2), a.argsort())]
    assert [(n["op"], n["attrs"]) for n in nodes] == [
        ("_npi_around", {"decimals": "2"}),
        ("argsort", {"axis": "-1", "dtype": "int64", "is_ascend": "True"})]


# -- BatchNormReLU under NumPy semantics -----------------------------------------------------------

@pytest.mark.parametrize("hybridize", [False, True])
def test_np_mode_batchnorm_relu_applies_the_relu(np_mode, hybridize):
    # 1.9.1 drops the ReLU under np semantics (its np branch calls plain batch_norm); that is
    # a bug nobody would rely on, so the layer does what its name says here: relu(BatchNorm),
    # in closed form below (inference: x / sqrt(1 + eps); training: per-channel standardised)
    np = np_mode
    blk = gluon.nn.BatchNormReLU(prefix="bnr_")
    blk.initialize()
    if hybridize:
        blk.hybridize()
    x = np.array([[-1.0, 2.0], [3.0, -4.0]])
    onp.testing.assert_allclose(blk(x).asnumpy(), [[0.0, 1.99999], [2.999985, 0.0]],
                                rtol=1e-5)
    with autograd.record():
        y = blk(x)
    onp.testing.assert_allclose(y.asnumpy(), [[0.0, 0.999999], [0.999999, 0.0]], rtol=1e-5)


# -- empty feature maps ----------------------------------------------------------------------------

@pytest.mark.parametrize("hybridize", [False, True])
def test_global_pool_of_empty_feature_map_raises_mxnet_error(np_mode, hybridize):
    # 1.9.1 fails here too (MXNetError); this used to be a bare IndexError
    blk = gluon.nn.GlobalAvgPool2D()
    if hybridize:
        blk.hybridize()
    with pytest.raises(MXNetError, match="global pooling"):
        blk(np_mode.zeros((2, 3, 0, 0)))
    # an empty batch is fine
    assert gluon.nn.GlobalMaxPool2D()(np_mode.zeros((0, 3, 2, 2))).shape == (0, 3, 1, 1)


def test_parameter_var_is_a_numpy_symbol_in_np_mode(np_mode):
    # recorded from 1.9.1: under np semantics Parameter.var() is an mx.sym.np symbol
    from mxnet.symbol.numpy import _Symbol
    p = gluon.Parameter("w", shape=(2, 3))
    v = p.var()
    assert isinstance(v, _Symbol) and v.name == "w"
    assert json.loads(p.var().tojson()) == json.loads(v.tojson())
    npx.reset_np()
    try:
        assert not isinstance(p.var(), _Symbol)
    finally:
        npx.set_np()
