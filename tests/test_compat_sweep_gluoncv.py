"""Regression tests from running GluonCV 0.10.5 (model zoo, transforms, losses, training steps)
on mxnet-py and on MXNet 1.9.1 (docs/gluoncv.md). Each test reproduces, without GluonCV, the
mxnet usage that differed; the expected values were recorded from MXNet 1.9.1 and are written
as literals. The last test runs GluonCV itself when it is installed (CI does not install it)."""
import json
import re

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator import sort as sort_ops
from mxnet import gluon, nd


# --------------------------------------------------------------------------------------------
# gluon.Constant (GluonCV's anchors, offsets and preprocessing means are Constants)

def test_constant_init_is_a_registered_per_constant_initializer():
    c = gluon.Constant("c", nd.array([1.0, 2.0]))
    # 1.9.1: the init is named after the parameter and the Constant's id()
    assert c.init == "Constant_c_%d" % id(c)
    init = mx.init.create(c.init)
    assert init.dumps() == '["init", {}]'
    arr = nd.zeros((2,))
    init._init_weight(None, arr)
    assert arr.asnumpy().tolist() == [1.0, 2.0]
    # the name given as a descriptor's __init__ attribute, as a symbol file's variable carries
    out = nd.zeros((2,))
    mx.init.Xavier()(mx.init.InitDesc("foo", attrs={"__init__": c.init}), out)
    assert out.asnumpy().tolist() == [1.0, 2.0]
    assert c.var().attr("__init__") == c.init


def test_constant_initialize_keeps_value_and_explicit_init_overrides():
    c = gluon.Constant("c1", [3.0, 4.0])
    c.initialize()
    assert c.data().asnumpy().tolist() == [3.0, 4.0]
    c2 = gluon.Constant("c2", [3.0, 4.0])
    c2.initialize(init=mx.init.One())    # 1.9.1: an explicit init replaces the value
    assert c2.data().asnumpy().tolist() == [1.0, 1.0]


class _AddConst(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.k = self.params.get_constant("k", nd.array([[1.0, 2.0]]))

    def hybrid_forward(self, F, x, k):
        return F.broadcast_add(x, k)


def test_exported_constant_records_its_initializer_name(tmp_path):
    b = _AddConst(prefix="addc_")
    b.initialize()
    b.hybridize()
    assert b(nd.ones((1, 2))).asnumpy().tolist() == [[2.0, 3.0]]
    b.export(str(tmp_path / "m"))
    nodes = json.loads((tmp_path / "m-symbol.json").read_text())["nodes"]
    k = [n for n in nodes if n["name"] == "addc_k"][0]
    # 1.9.1 writes e.g. "Constant_addc_k_140323045197136" (the id differs from run to run)
    assert re.fullmatch(r"Constant_addc_k_[0-9]+", k["attrs"]["__init__"])
    assert k["attrs"]["__init__"] == b.k.init


# --------------------------------------------------------------------------------------------
# topk / sort / argsort: positions of tied values in 1.9.1's CPU order (CenterNet's decoder
# takes topk over a heatmap whose saturated scores tie; SSD's hard-negative mining argsorts)

def _cpu(value, **kw):
    # 1.9.1's CPU kernels give these orders (its GPU sort is another algorithm; on a GPU
    # this package keeps stable orders), so these arrays live on the CPU in every test run
    return nd.array(value, ctx=mx.cpu(), **kw)


_X36 = np.array([0.5, 1, 1, 0.2, 1, 1, 0.9, 1, 1, 1, 0.3, 1] * 3, dtype=np.float32)


def test_topk_ties_follow_std_sort():
    x = _cpu(_X36)
    assert nd.topk(x, k=10).asnumpy().astype(int).tolist() == [
        1, 35, 33, 32, 31, 29, 28, 26, 25, 23]
    assert nd.topk(x, k=10, is_ascend=True).asnumpy().astype(int).tolist() == [
        15, 3, 27, 10, 22, 34, 12, 24, 0, 6]
    assert nd.argsort(x).asnumpy().astype(int).tolist()[:12] == [
        15, 3, 27, 10, 22, 34, 12, 24, 0, 6, 30, 18]
    s = mx.sym.topk(mx.sym.var("d"), k=4)
    assert s.eval(ctx=mx.cpu(), d=x)[0].asnumpy().astype(int).tolist() == [4, 1, 5, 2]


def test_topk_ties_follow_partial_sort(monkeypatch):
    # past the default retrace limits (rows of 4,096): lifted here
    monkeypatch.setattr(sort_ops, "_STL_ROW_MAX", 1 << 17)
    monkeypatch.setattr(sort_ops, "_STL_TOTAL_MAX", 1 << 18)
    z = np.ones((1, 20000), np.float32)
    z[0, ::7] = 0.5
    assert nd.topk(_cpu(z), k=12).asnumpy().astype(int).tolist() == [
        [8, 10, 4, 3, 11, 1, 9, 12, 5, 13, 2, 6]]
    y = np.tile(np.array([3, 1, 3, 3, 2, 3, 1, 1, 3, 2, 3, 3, 1, 3, 2, 3, 3, 1, 2, 3], np.float32), 30)
    assert nd.topk(_cpu(y), k=5).asnumpy().astype(int).tolist() == [3, 0, 5, 8, 2]
    assert nd.topk(_cpu(y), k=3, is_ascend=True).asnumpy().astype(int).tolist() == [7, 1, 6]
    h = np.ones((1, 2, 8, 8), np.float32)
    h[0, :, ::3, ::2] = 0.25
    assert nd.topk(_cpu(h).reshape((0, -1)), k=10).asnumpy().astype(int).tolist() == [
        [8, 9, 1, 7, 5, 3, 12, 13, 11, 10]]


def test_tie_orders_across_dtypes_axes_and_return_types():
    rs = np.random.RandomState(42)
    a = rs.randint(0, 4, size=(3, 33)).astype(np.float32)
    # k * 8 < n: partial sort; k * 8 > n: full sort
    assert nd.topk(_cpu(a), k=4, axis=1).asnumpy().astype(int).tolist() == [
        [14, 1, 16, 5], [11, 3, 12, 10], [10, 0, 11, 2]]
    assert nd.topk(_cpu(a), k=5, axis=1).asnumpy().astype(int).tolist() == [
        [16, 32, 29, 28, 24], [10, 20, 22, 23, 13], [2, 17, 25, 24, 31]]
    both = nd.topk(_cpu(a), k=6, axis=1, ret_typ="both", is_ascend=True)
    assert both[1].asnumpy().astype(int).tolist() == [
        [2, 31, 6, 7, 21, 30], [2, 30, 4, 5, 29, 26], [1, 21, 16, 8, 6, 4]]
    b = rs.randint(0, 3, size=(17,)).astype(np.float64)
    assert nd.argsort(_cpu(b, dtype="float64")).asnumpy().astype(int).tolist() == [
        0, 15, 14, 12, 16, 2, 3, 4, 5, 6, 7, 10, 13, 8, 11, 9, 1]
    c = rs.randint(0, 5, size=(4, 40)).astype(np.int32)
    got = nd.topk(_cpu(c, dtype="int32"), k=2, axis=0).asnumpy().astype(int)
    assert got[0].tolist() == [
        0, 1, 2, 2, 3, 0, 0, 1, 0, 0, 3, 1, 1, 1, 1, 1, 0, 1, 1, 1,
        2, 0, 0, 3, 2, 1, 0, 1, 0, 1, 1, 0, 2, 0, 0, 1, 2, 2, 0, 3]
    assert nd.topk(_cpu(c, dtype="int32"), k=7, axis=None).asnumpy().astype(int).tolist() == [
        22, 8, 31, 38, 0, 9, 6]
    got = nd.argsort(_cpu(c[0].astype(np.float32)), is_ascend=False, dtype="int32")
    assert got.asnumpy().tolist()[:20] == [
        0, 22, 31, 6, 38, 8, 9, 26, 28, 14, 33, 5, 4, 3, 35, 34, 37, 15, 16, 32]
    mask = nd.topk(_cpu(a[:1]), k=3, ret_typ="mask").asnumpy().astype(int)
    assert np.nonzero(mask[0])[0].tolist() == [1, 5, 14]
    assert mx.np.argsort(mx.np.array(a[1], ctx=mx.cpu())).asnumpy().astype(int).tolist()[:12] == [
        2, 30, 4, 5, 29, 26, 24, 16, 32, 18, 0, 15]


def test_long_row_argsort_as_mask_rcnn_sorts_its_detections(monkeypatch):
    # past the default retrace limits (rows of 4,096): lifted here
    monkeypatch.setattr(sort_ops, "_STL_ROW_MAX", 1 << 17)
    monkeypatch.setattr(sort_ops, "_STL_TOTAL_MAX", 1 << 18)
    # Mask R-CNN (COCO) argsorts 1000 x 80 detection scores in one row, most of them -1
    rs = np.random.RandomState(5)
    s = np.full((1, 80000), -1, np.float32)
    idx = rs.choice(80000, 20000, replace=False)
    s[0, idx] = rs.randint(0, 500, size=20000).astype(np.float32) / 500
    o = nd.argsort(_cpu(s), axis=1, is_ascend=False).asnumpy().astype(np.int64)[0]
    assert o[:24].tolist() == [
        29361, 32182, 4419, 73579, 43844, 18851, 60163, 44370, 59641, 45391, 18091, 57582,
        75580, 56893, 60410, 79286, 56626, 29092, 24940, 79145, 77387, 3723, 28136, 6259]
    assert int((o * np.arange(80000)).sum() % 1000000007) == 403284754
    assert nd.topk(_cpu(s), k=20).asnumpy().astype(int)[0].tolist() == [
        10562, 28033, 29361, 18851, 11691, 32182, 28136, 39565, 6259, 24940,
        34399, 3723, 34842, 18091, 35153, 29092, 41585, 27118, 4419, 4197]


def test_topk_without_ties_and_with_nan_unchanged():
    rs = np.random.RandomState(0)
    x = rs.permutation(50).astype(np.float32).reshape(2, 25)
    got = nd.topk(_cpu(x), k=5).asnumpy().astype(int)
    np.testing.assert_array_equal(got, np.argsort(-x, axis=1)[:, :5])
    v = _cpu([1, np.nan, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    # NaN rows keep this package's rule (NaN sorts above every number), ties stable there
    assert nd.topk(v, k=3).asnumpy().astype(int).tolist() == [1, 3, 0]


# --------------------------------------------------------------------------------------------
# GluonCV itself, when installed

_CIFAR20 = [[-0.539833, 0.164415, 0.44031, -0.483695, -0.81741, -0.505365, -0.267327, -0.869931,
             0.185243, -0.322822],
            [-0.542136, 0.144009, 0.444745, -0.433764, -0.777046, -0.508825, -0.239509, -0.856005,
             0.165858, -0.313504]]
_CENTERNET_BOXES = [[87.0698, -0.1517, 87.2215, -0.6831], [55.0066, -0.2183, 55.2209, -0.7102],
                    [62.9992, -0.2107, 63.2084, -0.716], [115.4058, 0.0002, 115.3877, -0.4923],
                    [23.1746, -0.259, 23.4138, -0.576], [95.1273, -0.1244, 95.2544, -0.6447]]


def _zoo(name, shape, **kw):
    gcv = pytest.importorskip("gluoncv")
    mx.random.seed(0)
    net = gcv.model_zoo.get_model(name, pretrained=False, **kw)
    mx.random.seed(0)
    net.initialize(mx.init.Xavier())
    x = nd.array(np.random.RandomState(1).uniform(-1, 1, size=shape).astype(np.float32))
    return net, x


def test_gluoncv_models_give_1_9_1_outputs():
    net, x = _zoo("cifar_resnet20_v1", (2, 3, 32, 32))
    np.testing.assert_allclose(net(x).asnumpy(), _CIFAR20, rtol=1e-5, atol=1e-6)
    net, x = _zoo("center_net_resnet18_v1b_voc", (1, 3, 128, 128), pretrained_base=False)
    ids, scores, boxes = net(x)
    assert ids.asnumpy().ravel().tolist() == [1.0] * 40
    assert scores.asnumpy().ravel().tolist() == [1.0] * 40
    # the 40 saturated scores tie: which positions topk reports decides these boxes
    np.testing.assert_allclose(boxes.asnumpy()[0, :6], _CENTERNET_BOXES, rtol=1e-4, atol=1e-3)
