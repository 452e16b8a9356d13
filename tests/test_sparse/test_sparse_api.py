"""mx.nd.sparse beyond the golden table: closed-form values, errors, copies, pickling,
the storage fallback of dense operators, and random shapes checked against NumPy."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

sp = mx.nd.sparse
nd = mx.nd


def _rand_sparse(rng, shape, density):
    x = rng.standard_normal(shape).astype(np.float32)
    x[rng.random(shape) > density] = 0
    return x


def _csr_parts(x):
    """Independent CSR components of a dense 2-D array (row-major non-zeros)."""
    rows, cols = np.nonzero(x)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=x.shape[0]))])
    return x[rows, cols], cols, indptr


def test_components_and_properties():
    a = sp.csr_matrix(([1., 2., 3.], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 4))
    assert isinstance(a, sp.BaseSparseNDArray) and isinstance(a, nd.NDArray)
    assert (a.stype, a.shape, a.dtype, a.ndim, a.context) == ("csr", (3, 4), np.float32, 2,
                                                              mx.cpu())
    assert a.indices.dtype == np.int64 and a.indptr.dtype == np.int64
    assert repr(a) == "\n<CSRNDArray 3x4 @cpu(0)>"
    a.wait_to_read()
    # .data returns a copy: writing to it leaves the array alone
    d = a.data
    d[:] = 7
    np.testing.assert_array_equal(a.data.asnumpy(), [1, 2, 3])
    r = sp.row_sparse_array(([[1., 2.]], [1]), shape=(3, 2))
    assert repr(r) == "\n<RowSparseNDArray 3x2 @cpu(0)>"
    np.testing.assert_array_equal(r.asnumpy(), [[0, 0], [1, 2], [0, 0]])


def test_coo_input_sums_duplicates():
    a = sp.csr_matrix(([1., 2., 5.], ([1, 0, 1], [1, 0, 1])), shape=(2, 3))
    np.testing.assert_array_equal(a.asnumpy(), [[2, 0, 0], [0, 6, 0]])
    np.testing.assert_array_equal(a.indptr.asnumpy(), [0, 1, 2])
    a.check_format()
    b = sp.csr_matrix(([1., 2.], ([1, 0], [1, 2])))
    assert b.shape == (2, 3)


@pytest.mark.parametrize("seed", range(4))
def test_random_roundtrip_dot_and_reductions(seed):
    rng = np.random.default_rng(seed)
    m, k, n = rng.integers(1, 9, size=3)
    x = _rand_sparse(rng, (m, k), 0.3)
    w = rng.standard_normal((k, n)).astype(np.float32)
    v = rng.standard_normal((m, n)).astype(np.float32)
    a = sp.csr_matrix(_csr_parts(x), shape=(m, k))
    a.check_format()
    np.testing.assert_array_equal(a.asnumpy(), x)
    np.testing.assert_array_equal(nd.array(x).tostype("csr").asnumpy(), x)
    np.testing.assert_allclose(sp.dot(a, nd.array(w)).asnumpy(), x @ w, rtol=1e-5, atol=1e-5)
    t = sp.dot(a, nd.array(v), transpose_a=True)
    assert t.stype == "row_sparse"
    t.check_format()
    np.testing.assert_allclose(t.asnumpy(), x.T @ v, rtol=1e-5, atol=1e-5)
    u = rng.standard_normal((n, m)).astype(np.float32)
    np.testing.assert_allclose(sp.dot(nd.array(u), a).asnumpy(), u @ x, rtol=1e-5, atol=1e-5)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(sp.sum(a, axis=axis).asnumpy().reshape(-1),
                                   np.sum(x, axis=axis).reshape(-1), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(sp.mean(a, axis=axis).asnumpy().reshape(-1),
                                   np.mean(x, axis=axis).reshape(-1), rtol=1e-5, atol=1e-5)
    y = _rand_sparse(rng, (m, k), 0.3)
    b = nd.array(y).tostype("csr")
    np.testing.assert_allclose((a + b).asnumpy(), x + y, rtol=1e-6)
    np.testing.assert_allclose((a - b).asnumpy(), x - y, rtol=1e-6)
    np.testing.assert_allclose((a * b).asnumpy(), x * y, rtol=1e-6)
    rows = _rand_sparse(rng, (m, k), 0.5)
    rows[rng.random(m) > 0.5] = 0
    r = nd.array(rows).tostype("row_sparse")
    r.check_format()
    np.testing.assert_array_equal(r.asnumpy(), rows)
    np.testing.assert_allclose((r + r * 2).asnumpy(), rows * 3, rtol=1e-6)


def test_dense_operators_fall_back_to_dense():
    a = sp.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]), shape=(2, 2))
    e = nd.exp(a)
    assert type(e) is nd.NDArray and e.stype == "default"
    np.testing.assert_allclose(e.asnumpy(), np.exp(a.asnumpy()), rtol=1e-6)
    t = nd.transpose(a)
    assert type(t) is nd.NDArray
    np.testing.assert_array_equal(t.asnumpy(), a.asnumpy().T)
    assert type(nd.relu(nd.ones((2,)))) is nd.NDArray  # dense path unchanged


def test_out_and_copyto_into_sparse():
    a = sp.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]), shape=(2, 2))
    b = sp.zeros("csr", (2, 2))
    a.copyto(b)
    np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    c = sp.zeros("csr", (2, 2))
    nd.cast_storage(nd.array([[0, 5.], [0, 0]]), "csr", out=c)
    assert c.stype == "csr"
    np.testing.assert_array_equal(c.indptr.asnumpy(), [0, 1, 1])
    d = nd.zeros((2, 2))
    a.copyto(d)
    np.testing.assert_array_equal(d.asnumpy(), a.asnumpy())
    c[:] = nd.array([[1., 0], [0, 0]])
    np.testing.assert_array_equal(c.asnumpy(), [[1, 0], [0, 0]])
    with pytest.raises(ValueError, match="numeric"):
        c[:] = 3
    with pytest.raises(MXNetError, match="shape mismatch"):
        a.copyto(sp.zeros("csr", (3, 2)))


def test_pickle_keeps_storage_type():
    for x in (sp.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]), shape=(2, 3)),
              sp.row_sparse_array(([[1., 2.]], [2]), shape=(3, 2))):
        y = pickle.loads(pickle.dumps(x))
        assert type(y) is type(x)
        np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())


def test_constructor_errors():
    with pytest.raises(MXNetError, match="indptr"):
        sp.csr_matrix(([1., 2.], [0, 1], [0, 3, 2]), shape=(2, 2))
    with pytest.raises(MXNetError, match=r"indptr must have shape \(4,\)"):
        sp.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]), shape=(3, 2))
    with pytest.raises(MXNetError, match="same length|one length"):
        sp.csr_matrix(([1., 2., 3.], [0, 1], [0, 1, 2]), shape=(2, 2))
    with pytest.raises(MXNetError, match="do not fit"):
        sp.row_sparse_array(([[1., 2.]], [0]), shape=(3, 3))
    with pytest.raises(MXNetError, match="2-D"):
        sp.csr_matrix(np.ones((2, 2, 2)))
    with pytest.raises(MXNetError, match="unknown storage type"):
        sp.zeros("coo", (2, 2))
    with pytest.raises(MXNetError, match="unknown stype"):
        nd.cast_storage(nd.ones((2, 2)), "coo")
    with pytest.raises(MXNetError, match="axis 0 index 3 exceeds matrix dimension 2"):
        sp.csr_matrix(([1.], ([3], [0])), shape=(2, 2))


def test_dot_autograd_through_nd_dot_and_fluent_ops():
    a = sp.csr_matrix(([1., 2., 3.], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 4))
    w = nd.ones((4, 2))
    w.attach_grad()
    with mx.autograd.record():
        loss = nd.dot(a, w).sum()
    loss.backward()
    np.testing.assert_allclose(w.grad.asnumpy(), a.asnumpy().T @ np.ones((3, 2)), rtol=1e-6)


def test_asscipy_needs_scipy():
    a = sp.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]), shape=(2, 2))
    try:
        import scipy.sparse as spsp
    except ImportError:
        with pytest.raises(ImportError, match="scipy"):
            a.asscipy()
        return
    m = a.asscipy()
    np.testing.assert_array_equal(m.toarray(), a.asnumpy())
    np.testing.assert_array_equal(sp.csr_matrix(spsp.coo_matrix(m)).asnumpy(), a.asnumpy())


def test_slice_concat_getitem_closed_form():
    x = np.array([[0, 1, 0, 2], [3, 0, 0, 0], [0, 0, 4, 5], [0, 6, 0, 0]], np.float32)
    a = nd.array(x).tostype("csr")
    np.testing.assert_array_equal(sp.slice(a, begin=(1, 1), end=(4, 4)).asnumpy(), x[1:, 1:])
    np.testing.assert_array_equal(a[1:3].asnumpy(), x[1:3])
    np.testing.assert_array_equal(a[-2:].asnumpy(), x[-2:])
    np.testing.assert_array_equal(a[3:1].asnumpy(), x[3:1])
    c = sp.concat(a, a[1:2], dim=0)
    assert c.stype == "csr"
    c.check_format()
    np.testing.assert_array_equal(c.asnumpy(), np.concatenate([x, x[1:2]]))
    with pytest.raises(IndexError):
        a[4]


def test_out_argument_of_sparse_functions():
    a = sp.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]), shape=(2, 2))
    o = nd.zeros((2, 3))
    assert sp.dot(a, nd.ones((2, 3)), out=o) is o
    np.testing.assert_array_equal(o.asnumpy(), a.asnumpy() @ np.ones((2, 3)))
    c = sp.zeros("csr", (2, 2))
    assert sp.square(a, out=c) is c and c.stype == "csr"
    np.testing.assert_array_equal(c.asnumpy(), a.asnumpy() ** 2)
    s = nd.zeros((2,))
    nd.sum(a, axis=1, out=s)
    np.testing.assert_array_equal(s.asnumpy(), [1, 2])


def test_empty_and_all_zero_arrays():
    z = sp.zeros("csr", (3, 4))
    w = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(sp.dot(z, nd.array(w)).asnumpy(), np.zeros((3, 2)))
    t = sp.dot(z, nd.ones((3, 2)), transpose_a=True)
    assert t.stype == "row_sparse" and t.indices.shape == (0,)
    np.testing.assert_array_equal(sp.dot(nd.ones((2, 3)), z).asnumpy(), np.zeros((2, 4)))
    np.testing.assert_array_equal(sp.sum(z, axis=1).asnumpy(), np.zeros(3))
    r = sp.zeros("row_sparse", (3, 2))
    np.testing.assert_array_equal(sp.retain(r, nd.array([1])).asnumpy(), np.zeros((3, 2)))
    np.testing.assert_array_equal((r + r).asnumpy(), np.zeros((3, 2)))
    assert nd.zeros((2, 2)).tostype("csr").indptr.asnumpy().tolist() == [0, 0, 0]


def test_lazy_sgd_leaves_rows_without_gradient_alone():
    w0 = np.arange(8, dtype=np.float32).reshape(4, 2) + 1
    grad = sp.row_sparse_array(([[1., 1.]], [2]), shape=(4, 2))
    w = nd.array(w0)
    nd.sgd_update(w, grad, lr=0.5, wd=0.1, out=w)
    want = w0.copy()
    want[2] = (1 - 0.5 * 0.1) * w0[2] - 0.5 * 1.0  # closed form of one SGD step on row 2
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-6)


def test_attach_grad_stype_checks():
    w = nd.ones((3, 2))
    with pytest.raises(MXNetError, match="grad_req='add'"):
        w.attach_grad(grad_req="add", stype="row_sparse")
    with pytest.raises(MXNetError, match="unknown stype"):
        w.attach_grad(stype="coo")
    w.attach_grad(stype="row_sparse")
    assert w.grad.stype == "row_sparse"
    with mx.autograd.record():
        loss = (w * nd.array([[1., 1.], [0., 0.], [2., 2.]])).sum()
    loss.backward()
    assert w.grad.stype == "row_sparse"
    np.testing.assert_array_equal(w.grad.indices.asnumpy(), [0, 2])
    w.attach_grad()
    assert w.grad.stype == "default"


def test_sparse_adagrad_rejects_what_1_9_1_rejects():
    w, h = nd.ones((3, 2)), nd.ones((3, 2))
    g = sp.row_sparse_array(([[1., 1.]], [1]), shape=(3, 2))
    with pytest.raises(MXNetError, match="wd"):
        sp.adagrad_update(w, g, h, lr=0.1, wd=0.1, out=w)
    with pytest.raises(MXNetError, match="row_sparse grad"):
        sp.adagrad_update(w, nd.ones((3, 2)), h, lr=0.1, out=w)
    sp.adagrad_update(w, g, h, lr=0.1, out=w)
    np.testing.assert_allclose(h.asnumpy(), [[1, 1], [2, 2], [1, 1]])
    np.testing.assert_allclose(w.asnumpy()[1], 1 - 0.1 / np.sqrt(2 + 1e-7), rtol=1e-6)
