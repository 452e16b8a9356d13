"""Compatibility sweep: CSRNDArray / RowSparseNDArray as user code handles them.

Expected values, storage types, exception types and fallback lines were recorded from
MXNet 1.9.1 (MXNET_ENGINE_TYPE=NaiveEngine) unless a test says otherwise.
"""
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

sp = mx.nd.sparse
_DENSE = [[0, 1, 0], [0, 0, 0], [2, 0, -3]]


def _csr():
    return mx.nd.array(_DENSE).tostype("csr")


def _rsp():
    return mx.nd.array(_DENSE).tostype("row_sparse")


def _fallback_ops(text):
    return [line.split("= ", 1)[1] for line in text.splitlines()
            if line.startswith("operator = ")]


def test_ones_rejects_a_storage_type():
    # recorded from 1.9.1: MXNetError "Cannot find argument 'stype'" (only zeros/empty take it)
    with pytest.raises(MXNetError, match="stype"):
        mx.nd.ones((2, 3), stype="csr")
    assert mx.nd.zeros((2, 3), stype="csr").stype == "csr"


def test_setitem_errors_and_numpy_warning():
    # recorded from 1.9.1: csr[1] = 1 -> Exception; rsp[1] = 1 -> TypeError;
    # x[1:2] = 1 -> ValueError; x[:] = numpy array warns (RuntimeWarning) and assigns
    with pytest.raises(MXNetError):
        _csr()[1] = 1
    with pytest.raises(TypeError):
        _rsp()[1] = 1
    for x in (_csr(), _rsp()):
        with pytest.raises(ValueError):
            x[1:2] = 1
        with pytest.warns(RuntimeWarning, match="not efficient"):
            x[:] = np.ones((3, 3))
        assert x.asnumpy().tolist() == [[1.0] * 3] * 3
    x = _csr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x[:] = mx.nd.ones((3, 3))   # an NDArray value: no warning


def test_adding_a_zero_scalar_keeps_the_storage_type():
    # recorded from 1.9.1: c + 0.0 csr, 0 + r row_sparse, c - 0 csr, sparse.add(c, 0) csr;
    # c + 1 and 0 - c are dense
    assert (_csr() + 0.0).stype == "csr"
    assert (0 + _rsp()).stype == "row_sparse"
    assert (_csr() - 0).stype == "csr"
    assert (_rsp() - 0).stype == "row_sparse"
    assert sp.add(_csr(), 0).stype == "csr"
    assert (_csr() + 1).stype == "default"
    assert (0 - _csr()).stype == "default"
    res = _rsp() + 0
    assert res.asnumpy().tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, -3.0]]
    assert res.dtype == np.float32


def test_csr_divided_by_dense():
    c, d = _csr(), mx.nd.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    # recorded from 1.9.1: broadcast_div of a csr and a dense array of the same shape fails
    with pytest.raises(MXNetError, match="elemwise_div"):
        c / d
    with pytest.raises(MXNetError, match="elemwise_div"):
        mx.nd.broadcast_div(c, d)
    # ... a broadcast dense divisor keeps the csr (recorded from 1.9.1)
    res = c / mx.nd.array([[1, 2, 3]])
    assert res.stype == "csr"
    np.testing.assert_allclose(res.asnumpy(), [[0, 0.5, 0], [0, 0, 0], [2, 0, -1]])
    res = sp.divide(c, mx.nd.array([1, 2, 3]))
    assert res.stype == "csr"
    np.testing.assert_allclose(res.asnumpy(), [[0, 0.5, 0], [0, 0, 0], [2, 0, -1]])
    # ... while sparse.divide of equal shapes is elemwise_div: dense (recorded from 1.9.1)
    res = sp.divide(c, d)
    assert res.stype == "default"
    np.testing.assert_allclose(res.asnumpy(), [[0, 0.5, 0], [0, 0, 0], [2 / 7, 0, -1 / 3]],
                               rtol=1e-6)


def test_elemwise_div_storage_pairs_without_fallback_lines(capfd, monkeypatch):
    monkeypatch.setenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "1")
    from mxnet.ndarray import _fallback_log
    monkeypatch.setattr(_fallback_log, "_seen", set())
    arrs = {"c": _csr(), "r": _rsp(), "d": mx.nd.array(_DENSE) + 1}
    seen = {}
    for a in "crd":
        for b in "crd":
            if a == b == "d":
                continue
            capfd.readouterr()
            res = mx.nd.elemwise_div(arrs[a], arrs[b])
            res.wait_to_read()
            assert res.stype == "default"
            seen[a + b] = bool(_fallback_ops(capfd.readouterr().err))
    # recorded from 1.9.1: only (csr, csr), (csr, row_sparse) and (row_sparse, csr) warn
    assert seen == {"cc": True, "cr": True, "cd": False, "rc": True, "rr": False,
                    "rd": False, "dc": False, "dr": False}


def test_norm_and_sum_fallback_lines_of_csr(capfd, monkeypatch):
    monkeypatch.setenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "1")
    from mxnet.ndarray import _fallback_log
    monkeypatch.setattr(_fallback_log, "_seen", set())
    c = mx.nd.array([[0, 1, 0, 4], [0, 0, 0, 0], [2, 0, -3, 0]]).tostype("csr")
    # recorded from 1.9.1: (call, warns, values)
    cases = [(lambda: mx.nd.norm(c, axis=0), False, [2, 1, 3, 4]),
             (lambda: mx.nd.norm(c, axis=1), False, [17 ** 0.5, 0, 13 ** 0.5]),
             (lambda: mx.nd.norm(c, axis=-1), True, [17 ** 0.5, 0, 13 ** 0.5]),
             (lambda: mx.nd.norm(c, axis=(0, 1)), True, [30 ** 0.5]),
             (lambda: mx.nd.norm(c, ord=1), True, [10]),
             (lambda: mx.nd.norm(c, axis=1, keepdims=True), True, [[17 ** 0.5], [0], [13 ** 0.5]]),
             (lambda: mx.nd.sum(c, axis=(0,)), False, [2, 1, -3, 4]),
             (lambda: mx.nd.sum(c, axis=-2), True, [2, 1, -3, 4]),
             (lambda: mx.nd.mean(c, axis=-1), True, [1.25, 0, -0.25])]
    for i, (call, warns, expected) in enumerate(cases):
        capfd.readouterr()
        res = call()
        np.testing.assert_allclose(res.asnumpy(), expected, rtol=1e-6, err_msg=str(i))
        assert bool(_fallback_ops(capfd.readouterr().err)) == warns, i


def test_asscalar_of_a_sparse_array_is_not_implemented():
    # recorded from 1.9.1: NotImplementedError
    with pytest.raises(NotImplementedError):
        sp.csr_matrix(np.ones((1, 1))).asscalar()
    with pytest.raises(MXNetError):
        sp.row_sparse_array(np.ones((1, 1))).asscalar()


def test_constructor_argument_errors():
    data, idx = [1.0, 2, 3], [0, 2, 1]
    # recorded from 1.9.1: ValueError for a 2-tuple or 4-tuple (data, indices, ...) source,
    # TypeError for a string source
    with pytest.raises(ValueError):
        sp.csr_matrix((data, idx), shape=(3, 3))
    with pytest.raises(ValueError, match="length 4"):
        sp.csr_matrix((data, idx, [0, 1, 2, 3], [0]), shape=(3, 3))
    with pytest.raises(TypeError):
        sp.csr_matrix("abc")
    with pytest.raises(TypeError):
        sp.row_sparse_array("abc")
    with pytest.raises(TypeError):
        sp.row_sparse_array(([1.0, 2], [0, 3], [1], [2]))
    # the valid forms still work
    assert sp.csr_matrix(([1.0, 2.0], ([0, 1], [1, 0])), shape=(2, 2)).asnumpy().tolist() == \
        [[0.0, 1.0], [2.0, 0.0]]
    assert sp.csr_matrix((2, 3)).shape == (2, 3)
    assert sp.row_sparse_array((3, 4, 5), dtype="int32").dtype == np.int32


def test_zero_preserving_unary_into_a_dense_out_runs_the_operator_densely(capfd, monkeypatch):
    monkeypatch.setenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "1")
    from mxnet.ndarray import _fallback_log
    monkeypatch.setattr(_fallback_log, "_seen", set())
    capfd.readouterr()
    out = mx.nd.zeros((3, 3))
    res = mx.nd.abs(_csr(), out=out)
    assert res is out and res.stype == "default"
    assert res.asnumpy().tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, 3.0]]
    # recorded from 1.9.1: the operator's fallback line (not a storage copy line)
    assert _fallback_ops(capfd.readouterr().err) == ["abs"]
    res = mx.nd.relu(_rsp(), out=sp.zeros("row_sparse", (3, 3)))
    assert res.stype == "row_sparse"
    assert res.asnumpy().tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, 0.0]]


def test_detach_keeps_the_storage_type():
    # recorded from 1.9.1: CSRNDArray.detach() is a CSRNDArray
    c = _csr()
    with mx.autograd.record():
        d = c.detach()
    assert isinstance(d, sp.CSRNDArray) and d.stype == "csr"
    assert d.asnumpy().tolist() == c.asnumpy().tolist()
    assert _rsp().detach().stype == "row_sparse"


def test_as_np_ndarray_and_truth_value_errors():
    # recorded from 1.9.1: as_np_ndarray -> ValueError; bool(sparse) -> NotImplementedError
    with pytest.raises(ValueError):
        _csr().as_np_ndarray()
    with pytest.raises(ValueError):
        _rsp().as_np_ndarray()
    with pytest.raises(NotImplementedError):
        bool(sp.csr_matrix(np.ones((1, 1))))
    assert type(_csr().tostype("default").as_np_ndarray()).__name__ == "ndarray"


def test_float16_csr_dot_and_mixed_dtype_concat_are_errors():
    c = sp.csr_matrix(np.array([[0, -1.5, 0, 1], [0, 0, 0, 0], [2.25, 0, -3, 0]], "float16"))
    # recorded from 1.9.1: "only supports 32-bit and 64-bit floating point"
    with pytest.raises(MXNetError):
        sp.dot(c, mx.nd.ones((4, 2), dtype="float16"))
    with pytest.raises(MXNetError):
        sp.dot(c, mx.nd.ones((3, 2), dtype="float16"), transpose_a=True)
    # recorded from 1.9.1: "Non-uniform data type in Concat"
    with pytest.raises(MXNetError):
        sp.concat(c, sp.zeros("csr", (2, 4)), dim=0)
    res = sp.concat(c, sp.zeros("csr", (2, 4), dtype="float16"), dim=0)
    assert res.stype == "csr" and res.dtype == np.float16 and res.shape == (5, 4)
    res = sp.dot(c.astype("float32"), mx.nd.ones((4, 2)))
    assert res.asnumpy().tolist() == [[-0.5, -0.5], [0.0, 0.0], [-0.75, -0.75]]


def test_sparse_operands_of_different_dtypes_are_an_error():
    c64 = sp.csr_matrix(np.eye(3))   # float64, as its NumPy source
    r64 = _rsp().astype("float64")
    # recorded from 1.9.1: "Incompatible attr in node ... expected float32, got float64"
    for call in (lambda: _csr() + c64, lambda: _csr() - c64, lambda: _csr() * c64,
                 lambda: _rsp() + r64, lambda: _rsp() * r64, lambda: sp.add(_csr(), c64),
                 lambda: mx.nd.add_n(_rsp(), r64)):
        with pytest.raises(MXNetError):
            call()
    c = _csr()
    with pytest.raises(MXNetError):
        c += c64
    assert c.dtype == np.float32   # left unchanged
    assert (_rsp() + r64.astype("float32")).dtype == np.float32


def test_inplace_division_of_csr_by_dense():
    c = _csr()
    # recorded from 1.9.1: c /= dense of the same shape fails (broadcast_div)
    with pytest.raises(MXNetError):
        c /= mx.nd.ones((3, 3)) * 2
    c /= 2
    assert c.stype == "csr"
    assert c.asnumpy().tolist() == [[0.0, 0.5, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, -1.5]]


def test_argument_errors_of_dot_retain_and_dense_sources():
    # recorded from 1.9.1: AssertionError "Argument rhs must have NDArray type"
    with pytest.raises(AssertionError, match="rhs"):
        sp.dot(_csr(), np.ones((3, 2)))
    with pytest.raises(AssertionError, match="rhs"):
        sp.dot(_csr(), "x")
    # recorded from 1.9.1: ValueError "Shape mismatch detected. (2, 2) v.s. (3, 3)"
    with pytest.raises(ValueError):
        sp.csr_matrix(np.eye(2), shape=(3, 3))
    with pytest.raises(ValueError):
        sp.row_sparse_array(np.eye(2), shape=(3, 3))
    # recorded from 1.9.1: MXNetError for a missing indices argument
    with pytest.raises(MXNetError):
        sp.retain(_rsp(), None)
    res = sp.retain(_rsp(), mx.nd.array([2, 1, 0]))
    assert res.indices.asnumpy().tolist() == [2, 1, 0]
    assert res.asnumpy().tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, -3.0]]


def test_csr_dot_needs_a_2d_dense_rhs():
    # recorded from 1.9.1: "sparse dot only supports 2 dimensional rhs"
    with pytest.raises(MXNetError):
        sp.dot(_csr(), mx.nd.ones((3,)))
    with pytest.raises(MXNetError):
        sp.dot(_csr(), mx.nd.ones((3, 2, 2)))
    res = sp.dot(_csr(), mx.nd.array(np.arange(6).reshape(3, 2)), transpose_a=True)
    assert res.stype == "row_sparse"
    assert res.asnumpy().tolist() == [[8.0, 10.0], [0.0, 1.0], [-12.0, -15.0]]


def test_fallback_lines_of_maximum_minimum_and_broadcast_add(capfd, monkeypatch):
    monkeypatch.setenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "1")
    from mxnet.ndarray import _fallback_log
    monkeypatch.setattr(_fallback_log, "_seen", set())
    c, r, row = _csr(), _rsp(), mx.nd.ones((1, 3))
    # recorded from 1.9.1: (call, the operator named in the fallback line or None)
    cases = [(lambda: mx.nd.broadcast_add(c, row), None),
             (lambda: mx.nd.broadcast_sub(row, c), None),
             (lambda: mx.nd.broadcast_add(r, row), "broadcast_add"),
             (lambda: mx.nd.maximum(c, 0), "_maximum_scalar"),
             (lambda: mx.nd.minimum(r, r), "broadcast_minimum"),
             (lambda: mx.nd.maximum(c, c), "broadcast_maximum")]
    for i, (call, name) in enumerate(cases):
        capfd.readouterr()
        res = call()
        res.wait_to_read()
        assert res.stype == "default"
        assert _fallback_ops(capfd.readouterr().err) == ([name] if name else []), i
    assert mx.nd.maximum(c, 0).asnumpy().tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0],
                                                      [2.0, 0.0, 0.0]]
