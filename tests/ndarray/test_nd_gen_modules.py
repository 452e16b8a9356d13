"""mx.nd.gen_* modules, mx.nd.utils and the indexing helpers against 1.9.1.

tests/golden/nd_helpers.json is written by tools/golden/gen_nd_helpers.py under the
reference: the gen_* modules' ``__all__``, utils' ``__all__``, and the results (or error
types and messages) of the three helpers on ~100 keys and 4 shapes.
"""
import builtins
import importlib
import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.ndarray import gen_op
from mxnet.ndarray.gen_op import Convolution

from .._scripts import load_script

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = load_script("tools/golden/gen_nd_helpers.py")
GOLD = json.load(open(os.path.join(HERE, "..", "golden", "nd_helpers.json")))

# 1.9.1 names whose operators (or aliases) this registry does not have; the symbol side has
# no sparse-only retain / adagrad_update
KNOWN_ABSENT = {"nd": {}, "sym": {"gen_sparse": {"adagrad_update", "retain"}}}


@pytest.mark.parametrize("side", ["nd", "sym"])
def test_gen_modules_have_the_reference_names(side):
    ns, pkg, gold = ((mx.nd, "mxnet.ndarray", GOLD["gen"]) if side == "nd"
                     else (mx.sym, "mxnet.symbol", GOLD["gen_sym"]))
    for mod, ref in gold.items():
        m = getattr(ns, mod)
        assert m is importlib.import_module(f"{pkg}.{mod}")
        assert m.__all__ == sorted(m.__all__)
        absent = set(ref) - set(m.__all__)
        if mod == "gen__internal":
            # the internal module lacks the reference's backward and alias-only entries that
            # the registry does not define; the forward names it has must be in the reference
            assert len(set(ref) & set(m.__all__)) > 120
            continue
        assert absent <= KNOWN_ABSENT[side].get(mod, set()), (mod, sorted(absent))
        extra = set(m.__all__) - set(ref)
        assert extra <= {"full_like"}, (mod, sorted(extra))
        for n in m.__all__:
            assert callable(getattr(m, n))


def test_gen_modules_reuse_the_nd_functions():
    assert Convolution is mx.nd.Convolution is gen_op.Convolution
    assert mx.nd.gen_contrib.box_nms is mx.nd.contrib.box_nms
    assert mx.nd.gen_linalg.gemm2 is mx.nd.linalg.gemm2
    assert mx.nd.gen_image.to_tensor is mx.nd.image.to_tensor
    assert mx.nd.gen__internal._plus_scalar is mx.nd._internal._plus_scalar
    assert mx.nd.gen_sparse.FullyConnected is mx.nd.FullyConnected
    assert mx.nd.gen_sparse.retain is mx.nd.sparse.retain
    assert "_sample_uniform" in mx.nd.gen__internal.__all__
    assert not any(n.startswith(("_contrib_", "_random_", "_np")) for n in
                   mx.nd.gen__internal.__all__)
    x = mx.nd.array([[1.0, -2.0], [3.0, 4.0]])
    np.testing.assert_allclose(mx.nd.gen_sparse.abs(x).asnumpy(), [[1, 2], [3, 4]])
    np.testing.assert_allclose(mx.nd.gen_linalg.gemm2(x, x).asnumpy(),
                               np.array([[1, -2], [3, 4]]) @ np.array([[1, -2], [3, 4]]))


def test_utils_names_and_storage_dispatch():
    u = mx.nd.utils
    assert sorted(u.__all__) == GOLD["utils_all"]
    assert u.load is mx.nd.load and u.save is mx.nd.save
    z = u.zeros((2, 3), stype="csr")
    assert z.stype == "csr" and z.shape == (2, 3) and z.asnumpy().sum() == 0
    assert u.zeros((2, 3), dtype="int32").dtype == np.int32
    assert u.empty((4, 2), stype="row_sparse").stype == "row_sparse"
    assert u.empty(3).shape == (3,)
    sp = pytest.importorskip("scipy.sparse")
    a = u.array(sp.csr_matrix(np.array([[0, 1.5], [2, 0]])))
    assert a.stype == "csr"
    np.testing.assert_allclose(a.asnumpy(), [[0, 1.5], [2, 0]])
    assert u.array([[1, 2]]).stype == "default"
    with pytest.raises(mx.base.MXNetError, match="zeros: unknown storage type"):
        u.zeros((2, 2), stype="coo")


# -- the helpers -------------------------------------------------------------------------------
def _arr(d, kind):
    data = np.array(d[kind], dtype=d["dtype"]).reshape(d["shape"])
    if kind == "numpy":
        return data
    if kind == "np_nd":
        return mx.np.array(data, dtype=d["dtype"])
    return mx.nd.array(data, dtype=d["dtype"])


def decode(e):
    (tag, v), = [(k, v) for k, v in e.items() if k not in ("type", "np", "dtype", "shape")]
    if tag == "none":
        return None
    if tag == "ellipsis":
        return Ellipsis
    if tag == "bool":
        return np.bool_(v) if e["np"] else v
    if tag == "int":
        return getattr(np, e["type"])(v) if e["type"] != "int" else v
    if tag in ("float", "str"):
        return v
    if tag == "slice":
        return slice(*v)
    if tag == "range":
        return range(*v)
    if tag == "tuple":
        return tuple(decode(x) for x in v)
    if tag == "list":
        return [decode(x) for x in v]
    if tag == "dict":
        return {decode(k): decode(w) for k, w in v}
    return _arr(e, tag)


def _check(rec, fn, *args):
    if "error" in rec:
        with pytest.raises(getattr(builtins, rec["error"])) as info:
            fn(*args)
        # NumPy 2 spells the bool scalar type numpy.bool, NumPy 1 (the reference) numpy.bool_
        assert rec["message"].replace("numpy.bool_", "numpy.bool") in str(info.value).replace(
            "numpy.bool_", "numpy.bool")
    else:
        assert GEN.encode(fn(*args)) == rec["ok"]


def test_get_indexing_dispatch_code_matches_reference():
    assert len(GOLD["dispatch"]) > 90
    for label, rec in GOLD["dispatch"].items():
        try:
            _check(rec, mx.nd.get_indexing_dispatch_code, decode(rec["key"]))
        except AssertionError as e:
            raise AssertionError(f"{label}: {e}") from None


def test_indexing_key_expand_implicit_axes_matches_reference():
    for label, rec in GOLD["expand"].items():
        try:
            _check(rec, mx.nd.indexing_key_expand_implicit_axes, decode(rec["key"]),
                   tuple(rec["shape"]))
        except AssertionError as e:
            raise AssertionError(f"{label}: {e}") from None


def test_expand_under_numpy_semantics_matches_reference():
    with mx.util.np_array(True):
        for label, rec in GOLD["expand_np"].items():
            try:
                _check(rec, mx.nd.indexing_key_expand_implicit_axes, decode(rec["key"]),
                       tuple(rec["shape"]))
            except AssertionError as e:
                raise AssertionError(f"{label}: {e}") from None


def test_get_oshape_of_gather_nd_op_matches_reference():
    for rec in GOLD["gather"]:
        _check(rec, mx.nd.get_oshape_of_gather_nd_op, tuple(rec["dshape"]), tuple(rec["ishape"]))
    from mxnet.ndarray.ndarray import get_oshape_of_gather_nd_op
    assert get_oshape_of_gather_nd_op((2, 3, 4), (2, 5, 6)) == (5, 6, 4)


def test_nd_creators_pick_storage_from_stype_as_in_1_9_1():
    # 1.9.1's mx.nd.zeros / empty / array are the mxnet.ndarray.utils functions
    assert mx.nd.zeros is mx.nd.utils.zeros and mx.nd.array is mx.nd.utils.array
    z = mx.nd.zeros((2, 3), stype="csr")
    assert z.stype == "csr" and z.shape == (2, 3) and z.asnumpy().sum() == 0
    assert mx.nd.empty((4, 2), stype="row_sparse").stype == "row_sparse"
    assert mx.nd.array(z).stype == "csr"
    d = mx.nd.zeros((2, 2), dtype="float64")
    assert d.stype == "default" and d.dtype == np.float64


def test_gen_modules_share_the_namespace_functions():
    from mxnet.symbol.gen_op import Convolution as SymConvolution
    assert SymConvolution is mx.sym.Convolution
    assert mx.sym.gen_contrib.box_nms is mx.sym.contrib.box_nms
