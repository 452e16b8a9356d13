"""Regressions found by a differential sweep of NDArray methods and cross-cutting array
behaviour (``out=``, from_numpy, DLPack, copyto, dtype support) against MXNet 1.9.1.

Every expected value and exception class below was recorded by running the same call under
MXNet 1.9.1.
"""
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import nd
from mxnet.base import MXNetError


# -- out= must already have the result's dtype and shape -----------------------------------------

@pytest.mark.parametrize("call", [
    lambda o: nd.elemwise_add(nd.ones(3), nd.ones(3), out=o),
    lambda o: nd.broadcast_mul(nd.ones(3), nd.ones(3), out=o),
    lambda o: nd._internal._plus_scalar(nd.ones(3), scalar=1.0, out=o),
    lambda o: nd.relu(nd.ones(3), out=o),
    lambda o: nd.ones(3).exp(out=o),
    lambda o: nd.sum(nd.ones((2, 3)), axis=0, out=o),
    lambda o: nd.clip(nd.ones(3), 0, 2, out=o),
    lambda o: nd.zeros((3,), out=o),
    lambda o: nd.zeros_like(nd.ones(3), out=o),
    lambda o: nd.random.shuffle(nd.ones(3), out=o),
])
@pytest.mark.parametrize("dtype", ["int32", "float16", "float64"])
def test_out_of_another_dtype_raises(call, dtype):
    # 1.9.1: "Incompatible attr ... expected float32, got <dtype>" / "Type inconsistent"
    o = nd.zeros(3, dtype=dtype)
    with pytest.raises(MXNetError, match="expected float32"):
        call(o)
    assert o.asnumpy().tolist() == [0, 0, 0]   # left untouched


@pytest.mark.parametrize("call, out_shape", [
    (lambda o: nd.elemwise_add(nd.ones(3), nd.ones(3), out=o), (4,)),
    (lambda o: nd.elemwise_add(nd.ones(3), nd.ones(3), out=o), (1, 3)),   # no broadcasting
    (lambda o: nd.broadcast_add(nd.ones((2, 1)), nd.ones((1, 3)), out=o), (3, 2)),
    (lambda o: nd.sum(nd.ones((2, 3)), axis=0, out=o), (2,)),
    (lambda o: nd.ones((2, 2)).sum(axis=0, keepdims=True, out=o), (2,)),
    (lambda o: nd.mean(nd.ones((2, 3)), out=o), (2,)),
    (lambda o: nd.zeros((4,), out=o), (3,)),
    (lambda o: nd.ones((4,), out=o), (3,)),
    (lambda o: nd.exp(nd.zeros(2), out=o), (3,)),
])
def test_out_of_another_shape_raises(call, out_shape):
    with pytest.raises(MXNetError, match="Shape inconsistent"):
        call(nd.zeros(out_shape))


def test_out_shape_is_checked_before_dtype():
    # 1.9.1 (shape inference runs first): "Shape inconsistent, Provided = [3], inferred [2,3]"
    with pytest.raises(MXNetError, match="Shape inconsistent"):
        nd.dot(nd.ones((2, 3)), nd.ones((3, 3)), out=nd.zeros(3, dtype="int32"))


def test_out_matching_dtype_and_shape_still_writes_in_place():
    # recorded from 1.9.1
    o = nd.zeros(2, dtype="int32")
    assert nd.sum(nd.ones((2, 3), dtype="int32"), axis=1, out=o) is o
    assert o.asnumpy().tolist() == [3, 3]
    o16 = nd.zeros(2, dtype="float16")
    nd.elemwise_add(nd.ones(2, dtype="float16"), nd.ones(2, dtype="float16"), out=o16)
    assert o16.dtype == np.float16 and o16.asnumpy().tolist() == [2, 2]
    oi = nd.zeros(3, dtype="int32")
    nd.cast(nd.array([1.5, 2.5, 3.5]), dtype="int32", out=oi)
    assert oi.asnumpy().tolist() == [1, 2, 3]
    o = nd.zeros((2, 3), dtype="int32")
    nd.one_hot(nd.array([0, 1]), 3, dtype="int32", out=o)
    assert o.asnumpy().tolist() == [[1, 0, 0], [0, 1, 0]]
    with pytest.raises(MXNetError, match="expected float32"):
        nd.one_hot(nd.array([0, 1]), 3, out=o)
    with pytest.raises(MXNetError, match="expected int64"):
        nd.shape_array(nd.ones((2, 3)), out=nd.zeros(2))


def test_random_out_takes_dtype_and_shape_from_out():
    # recorded from 1.9.1: the sampler's dtype defaults to out's; shape too when not given
    assert nd.random.uniform(0, 1, shape=(3,), out=nd.zeros(3, dtype="float64")).dtype == \
        np.float64
    assert nd.random.normal(0, 1, out=nd.zeros(4)).shape == (4,)
    with pytest.raises(MXNetError):
        nd.random.uniform(0, 1, shape=(3,), out=nd.zeros(3, dtype="int32"))
    with pytest.raises(MXNetError, match="Shape inconsistent"):
        nd.random.normal(0, 1, shape=(3,), out=nd.zeros(4))


def test_out_count_must_match_the_outputs():
    # 1.9.1: "Operator expects 2 (all) or 2 (visible only) outputs, but got 1"
    x = nd.arange(6)
    for out in ([nd.zeros(3)], nd.zeros(3)):
        with pytest.raises(MXNetError, match="out="):
            nd.split(x, 2, axis=0, out=out)
    o = [nd.zeros(3), nd.zeros(3)]
    assert nd.split(x, 2, axis=0, out=o) is o
    assert [a.asnumpy().tolist() for a in o] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(MXNetError, match="1-th output"):
        nd.split(x, 2, axis=0, out=[nd.zeros(3), nd.zeros(3, dtype="int32")])
    # BatchNorm has hidden outputs: one visible out= array is enough
    y = nd.zeros((2, 3))
    nd.BatchNorm(nd.ones((2, 3)), nd.ones(3), nd.zeros(3), nd.zeros(3), nd.ones(3), out=y)


def test_out_that_is_not_an_ndarray_is_a_type_error():
    # 1.9.1 fails with AttributeError / TypeError deep in its front end
    for bad in (np.zeros(2), 5):
        with pytest.raises(TypeError):
            nd.exp(nd.zeros(2), out=bad)


def test_full_with_out_fills_whatever_out_is():
    # recorded from 1.9.1: full(shape, val, out=o) is o[:] = val; shape and dtype are ignored
    o = nd.zeros(3, dtype="int32")
    assert nd.full((4,), 2.5, out=o) is o
    assert o.asnumpy().tolist() == [2, 2, 2]
    o = nd.zeros((3, 1))
    nd.full((2, 2), 2.5, dtype="float64", out=o)
    assert o.dtype == np.float32 and o.asnumpy().tolist() == [[2.5], [2.5], [2.5]]


def test_in_place_operators_keep_dtype_and_check_operands():
    # recorded from 1.9.1: a scalar is cast to the array's dtype first
    x = nd.array([1, 2, 3], dtype="int32")
    x *= 2.5
    assert x.dtype == np.int32 and x.asnumpy().tolist() == [2, 4, 6]
    x += 1.7
    assert x.asnumpy().tolist() == [3, 5, 7]
    with pytest.raises(MXNetError):
        x += nd.array([0.5, 0.5, 0.5])
    v = nd.zeros((2, 3))[1]
    with pytest.raises(MXNetError, match="Shape inconsistent"):
        v += nd.ones((2, 3))


# -- copyto / from_numpy / DLPack -----------------------------------------------------------------

def test_copyto_self_warns_runtime_warning():
    a = nd.ones(2)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert a.copyto(a) is False
    assert w and w[0].category is RuntimeWarning
    # casting between dtypes is allowed, a shape mismatch is not
    assert nd.array([1.5, 2.5]).copyto(nd.zeros(2, dtype="int32")).asnumpy().tolist() == [1, 2]
    with pytest.raises(MXNetError):
        a.copyto(nd.zeros(3))


def test_from_numpy_zero_copy_locks_the_source():
    # recorded from 1.9.1: the NumPy array becomes read-only; the NDArray writes through
    x = np.arange(4, dtype="float32")
    y = nd.from_numpy(x)
    assert not x.flags.writeable
    y[1] = 5
    assert x.tolist() == [0, 5, 2, 3]
    x2 = np.arange(4, dtype="float32")
    y2 = nd.from_numpy(x2, zero_copy=False)
    assert x2.flags.writeable
    x2[0] = 42
    assert y2.asnumpy().tolist() == [0, 1, 2, 3]
    # a read-only C-contiguous source still gives a writeable NDArray over its memory
    r = np.ones(3, dtype="float32")
    r.flags.writeable = False
    yr = nd.from_numpy(r)
    yr[:] = 2
    assert r.tolist() == [2, 2, 2]


def test_from_numpy_rejects_what_1_9_1_rejects():
    # recorded from 1.9.1: ValueError "Only c-contiguous arrays are supported for zero-copy"
    for bad in (np.ones((2, 3), dtype="float32")[:, ::2],
                np.asfortranarray(np.ones((2, 3), dtype="float32"))):
        with pytest.raises(ValueError, match="contiguous"):
            nd.from_numpy(bad)
        assert nd.from_numpy(bad, zero_copy=False).shape == bad.shape
    # ValueError "int16 is not supported." (int8 too)
    for dt in ("int8", "int16", "uint16", "complex64"):
        with pytest.raises(ValueError, match="not supported"):
            nd.from_numpy(np.ones(2, dtype=dt))
    for dt in ("bool", "uint8", "int32", "int64", "float16", "float64"):
        assert nd.from_numpy(np.ones(2, dtype=dt)).dtype == np.dtype(dt)


def test_dlpack_round_trip_shares_writable_memory():
    # recorded from 1.9.1: from_dlpack(to_dlpack_for_read/write()) aliases the source
    for method in ("to_dlpack_for_read", "to_dlpack_for_write"):
        x = nd.arange(6).reshape((2, 3))
        cap = getattr(x, method)()
        y = nd.from_dlpack(cap)
        y[0, 0] = 100
        assert x.asnumpy().tolist() == [[100, 1, 2], [3, 4, 5]]
        with pytest.raises(AssertionError):   # a capsule is consumed only once
            nd.from_dlpack(cap)
    z = nd.from_dlpack(nd.array([1, 2], dtype="int64").to_dlpack_for_write())
    assert z.dtype == np.int64 and z.asnumpy().tolist() == [1, 2]
    e = nd.from_dlpack(nd.array(np.zeros((0, 3))).to_dlpack_for_read())
    assert e.shape == (0, 3)


# -- dtype support of the legacy unary kernels ----------------------------------------------------

@pytest.mark.parametrize("name", ["exp", "sqrt", "square", "abs", "sign", "relu", "sigmoid",
                                  "round", "floor", "rint"])
def test_unary_ops_reject_bool(name):
    # 1.9.1: "Unknown type enum 7"
    x = nd.array([0, 1, 1, 0], dtype="bool")
    with pytest.raises(MXNetError, match="bool"):
        getattr(nd, name)(x)


def test_bool_ops_that_1_9_1_supports():
    # recorded from 1.9.1
    x = nd.array([0, 1, 1, 0], dtype="bool")
    n = -x
    assert n.dtype == np.int64 and n.asnumpy().tolist() == [0, -1, -1, 0]
    assert x.sum().dtype == np.bool_
    assert x.astype("float32").square().asnumpy().tolist() == [0, 1, 1, 0]


def test_ufunc_wrappers_have_their_names():
    # 1.9.1: TypeError "add() got an unexpected keyword argument 'out'"
    with pytest.raises(TypeError, match=r"^add\(\)"):
        nd.add(nd.ones(1), nd.ones(1), out=nd.zeros(1))


# -- 1.9.1's underscore helpers -------------------------------------------------------------------

def test_slice_and_at_are_first_axis_views():
    # recorded from 1.9.1
    a = nd.arange(6).reshape((3, 2))
    v = a._slice(1, 2)
    v[:] = 9
    assert a.asnumpy().tolist() == [[0, 1], [9, 9], [4, 5]]
    assert a._at(1).asnumpy().tolist() == [9, 9]
    assert a._at(-1).asnumpy().tolist() == [4, 5]
    assert nd.arange(3)._at(1).shape == (1,)
    b = nd.zeros((2, 2))
    b._at(0)[:] = 3
    assert b.asnumpy().tolist() == [[3, 3], [0, 0]]
    with pytest.raises(MXNetError):
        a._slice(2, 1)
    with pytest.raises(MXNetError):
        a._at(5)


def test_sync_copyfrom_full_and_fresh_grad():
    # recorded from 1.9.1
    b = nd.zeros(2, dtype="int32")
    assert b._sync_copyfrom([1.7, 2]) is None
    assert b.asnumpy().tolist() == [1, 2]
    with pytest.raises(ValueError):
        nd.zeros(2)._sync_copyfrom(np.ones(3))
    c = nd.zeros(2)
    assert c._full(2.5).asnumpy().tolist() == [2.5, 2.5] and c.asnumpy().tolist() == [2.5, 2.5]
    x = nd.zeros(2)
    x.attach_grad()
    seen = [x._fresh_grad]
    with mx.autograd.record():
        y = x * 2
    y.backward()
    seen.append(x._fresh_grad)
    x._fresh_grad = False
    seen.append(x._fresh_grad)
    assert seen == [0, 1, 0]


# -- empty arrays -------------------------------------------------------------------------------

def test_mean_of_empty_is_nan_without_warnings():
    # recorded from 1.9.1: [nan nan nan], [nan]; no NumPy warning reaches the user
    e = nd.array(np.zeros((0, 3)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m0 = e.mean(axis=0)
        m = e.mean()
        m1 = e.mean(axis=1)
    assert m0.shape == (3,) and np.isnan(m0.asnumpy()).all()
    assert m.shape == (1,) and np.isnan(m.asnumpy()).all()
    assert m1.shape == (0,)


def test_full_accepts_a_zero_dimension():
    # recorded from 1.9.1: full((0, 2), 3, dtype='int32') is an empty 0x2 int32 array
    e = nd.full((0, 2), 3, dtype="int32")
    assert e.shape == (0, 2) and e.dtype == np.int32


def test_float16_composite_unary_ops_round_once():
    # recorded from 1.9.1 (bit patterns): half-precision math runs in float32, rounded once
    x = nd.array([2.0, -1.5, 0.3, 1.7], dtype="float16")
    want = {"sigmoid": [15116, 12758, 14488, 15044], "softsign": [14677, 47309, 13155, 14602],
            "rsqrt": [14760, 14984, 16205, 14883], "rcbrt": [14937, 15101, 15866, 15028]}
    for name, bits in want.items():
        v = getattr(nd, name)(x.abs() if name in ("rsqrt", "rcbrt") else x)
        assert v.dtype == np.float16
        assert v.asnumpy().view(np.uint16).tolist() == bits, name


def test_two_scalar_comparisons_return_ints():
    # recorded from 1.9.1: nd.equal(3, 2) is 0, nd.not_equal(3, 2) is 1 (ints, not bools)
    got = [nd.equal(3, 2), nd.not_equal(3, 2), nd.greater(3, 2), nd.greater_equal(0, 2),
           nd.lesser(0, 2), nd.lesser_equal(2.5, 2), nd.logical_and(3, 2), nd.logical_or(0, 2),
           nd.logical_xor(3, 2)]
    assert got == [0, 1, 1, 0, 1, 0, 1, 1, 0]
    assert all(type(v) is int for v in got)


def test_raw_copyto_casts_and_raw_samplers_take_dtype_from_out():
    # recorded from 1.9.1: _copyto may change dtype (not shape); a sampler with no dtype
    # writes in out's dtype
    oi = nd.zeros(3, dtype="int32")
    nd._internal._copyto(nd.array([1.5, 2.5, 3.5]), out=oi)
    assert oi.asnumpy().tolist() == [1, 2, 3]
    with pytest.raises(MXNetError, match="Shape inconsistent"):
        nd._internal._copyto(nd.ones(3), out=nd.zeros(4))
    with pytest.raises(MXNetError, match="expected float32"):
        nd._internal._copy(nd.ones(3), out=oi)
    o = nd.zeros(3, dtype="float64")
    assert nd._internal._random_uniform(shape=(3,), out=o) is o
    assert o.dtype == np.float64 and ((o.asnumpy() >= 0) & (o.asnumpy() < 1)).all()
    o2 = nd.zeros(2, dtype="float64")
    nd.sample_uniform(nd.zeros(2), nd.ones(2), out=o2)
    assert ((o2.asnumpy() >= 0) & (o2.asnumpy() < 1)).all()
    with pytest.raises(MXNetError):
        nd.sample_uniform(nd.zeros(2), nd.ones(2), out=nd.zeros(2, dtype="int32"))


def test_creators_accept_context_strings():
    # recorded from 1.9.1: zeros/ones/arange/eye take ctx='cpu(1)'
    for make in (lambda: nd.zeros(2, ctx="cpu(1)"), lambda: nd.ones(2, ctx="cpu(1)"),
                 lambda: nd.arange(2, ctx="cpu(1)"), lambda: nd.eye(2, ctx="cpu(1)")):
        assert make().context == mx.cpu(1)


def test_full_overflowing_float16_is_inf_without_a_warning():
    # recorded from 1.9.1: [inf, inf]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v = nd.full((2,), 1e5, dtype="float16")
    assert np.isinf(v.asnumpy()).all()


def test_sparse_front_ends_check_the_out_dtype():
    # recorded from 1.9.1: "Incompatible attr ... expected float32, got float64"
    c = nd.ones((2, 2)).tostype("csr")
    r = nd.ones((2, 2)).tostype("row_sparse")
    with pytest.raises(MXNetError, match="expected float32"):
        nd.sparse.dot(c, nd.ones((2, 2)), out=nd.zeros((2, 2), dtype="float64"))
    with pytest.raises(MXNetError, match="expected float32"):
        nd.sparse.elemwise_add(r, r, out=nd.sparse.zeros("row_sparse", (2, 2), dtype="float64"))
    with pytest.raises(MXNetError, match="expected float32"):
        nd.elemwise_add(nd.ones((2, 2)), nd.ones((2, 2)),
                        out=nd.sparse.zeros("row_sparse", (2, 2), dtype="float64"))
    o = nd.zeros((2, 2))
    assert nd.sparse.dot(c, nd.ones((2, 2)), out=o) is o
    assert o.asnumpy().tolist() == [[2, 2], [2, 2]]
    o = nd.sparse.zeros("csr", (2, 2))
    assert nd.sparse.elemwise_add(c, c, out=o).stype == "csr"
    assert o.asnumpy().tolist() == [[2, 2], [2, 2]]


def test_from_numpy_copies_foreign_read_only_memory(tmp_path):
    # writing through a read-only mmap or a bytes object could crash the interpreter: such
    # sources are copied (1.9.1 aliases them); NumPy-allocated read-only memory is aliased
    b = np.frombuffer(b"\x00" * 16, dtype="float32")
    y = nd.from_numpy(b)
    y[:] = 1
    assert b.tolist() == [0, 0, 0, 0] and y.asnumpy().tolist() == [1, 1, 1, 1]
    f = tmp_path / "m.bin"
    np.arange(4, dtype="float32").tofile(f)
    m = np.memmap(f, dtype="float32", mode="r")
    ym = nd.from_numpy(m)
    ym[0] = 9
    assert m.tolist() == [0, 1, 2, 3] and ym.asnumpy().tolist() == [9, 1, 2, 3]
