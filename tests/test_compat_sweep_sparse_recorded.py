"""Compatibility sweep: sparse operators recorded by autograd. While recording, 1.9.1 keeps
the storage types its storage inference gives (``dot(csr.T, w)`` is row_sparse,
``retain`` row_sparse, ``cast_storage`` / ``slice`` of a csr csr ...), the gradients reach
the variables in their buffers' storage types, and backward prints the storage-fallback
lines of the gradient operators that run densely. Every expected value, storage type and
log line below was recorded by running the same code under MXNet 1.9.1."""
import re

import numpy as np
import pytest

from mxnet import autograd as ag
from mxnet import nd
from mxnet.ndarray import _fallback_log

_DN = np.array([[0, 1, 0, 2], [0, 0, 0, 0], [3, 0, 4, 0]], dtype='float32')
_ONES = [[1.0] * 4] * 3


def _csr():
    return nd.array(_DN).tostype('csr')


def _rsp():
    return nd.array(_DN).tostype('row_sparse')


def _var(shape, stype='default', grad_stype=None):
    """arange(1, n + 1) in ``shape``, stored as ``stype``, with a gradient buffer."""
    w = nd.array(np.arange(np.prod(shape)).reshape(shape) + 1.0)
    if stype != 'default':
        w = w.tostype(stype)
    w.attach_grad(stype=grad_stype) if grad_stype else w.attach_grad()
    return w


def _run(w, fn, head=None):
    with ag.record():
        y = fn(w)
    stype = y.stype
    y.backward(head)
    return y, stype


# (id, the variable, the recorded function, result stype, result row ids (row_sparse),
#  gradient stype, gradient values)
_CASES = [
    ('dot_csrT_dense', lambda: _var((3, 2)),
     lambda w: nd.sparse.dot(_csr(), w, transpose_a=True), 'row_sparse', [0, 1, 2, 3],
     'default', [[3, 3], [0, 0], [7, 7]]),
    ('dot_csrT_dense_rspgrad', lambda: _var((3, 2), grad_stype='row_sparse'),
     lambda w: nd.sparse.dot(_csr(), w, transpose_a=True), 'row_sparse', [0, 1, 2, 3],
     'row_sparse', [[3, 3], [0, 0], [7, 7]]),
    ('dot_csrT_rspvar', lambda: _var((3, 2), 'row_sparse'),
     lambda w: nd.sparse.dot(_csr(), w, transpose_a=True), 'row_sparse', [0, 1, 2, 3],
     'row_sparse', [[3, 3], [0, 0], [7, 7]]),
    ('dot_dense_csr', lambda: _var((2, 3)), lambda w: nd.sparse.dot(w, _csr()), 'csr', None,
     'default', [[3, 0, 7], [3, 0, 7]]),
    ('dot_dense_csrT', lambda: _var((2, 4)),
     lambda w: nd.sparse.dot(w, _csr(), transpose_b=True), 'csr', None,
     'default', [[3, 1, 4, 2]] * 2),
    ('dot_csr_dense', lambda: _var((4, 2)), lambda w: nd.sparse.dot(_csr(), w), 'default', None,
     'default', [[3, 3], [1, 1], [4, 4], [2, 2]]),
    ('retain', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.sparse.retain(w, nd.array([0, 2])), 'row_sparse', [0, 2],
     'row_sparse', [[1] * 4, [0] * 4, [1] * 4]),
    ('elemwise_add', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.sparse.elemwise_add(w, _rsp()), 'row_sparse', [0, 1, 2], 'row_sparse', _ONES),
    ('plus', lambda: _var((3, 4), 'row_sparse'), lambda w: w + _rsp(), 'row_sparse', [0, 1, 2],
     'row_sparse', _ONES),
    ('minus', lambda: _var((3, 4), 'row_sparse'), lambda w: w - _rsp(), 'row_sparse',
     [0, 1, 2], 'row_sparse', _ONES),
    ('times_rsp', lambda: _var((3, 4), 'row_sparse'), lambda w: w * _rsp(), 'row_sparse',
     [0, 1, 2], 'row_sparse', _DN.tolist()),
    ('rsp_times_dense_var', lambda: _var((3, 4)), lambda w: _rsp() * w, 'row_sparse', [0, 2],
     'default', _DN.tolist()),
    ('csr_var_times_dense', lambda: _var((3, 4), 'csr'), lambda w: w * nd.ones((3, 4)), 'csr',
     None, 'csr', _ONES),
    ('broadcast_mul_csr', lambda: _var((3, 1)), lambda w: nd.broadcast_mul(_csr(), w), 'csr',
     None, 'default', [[3], [0], [7]]),
    ('times_scalar', lambda: _var((3, 4), 'row_sparse'), lambda w: w * 2, 'row_sparse',
     [0, 1, 2], 'row_sparse', [[2.0] * 4] * 3),
    ('div_scalar', lambda: _var((3, 4), 'row_sparse'), lambda w: w / 2, 'row_sparse',
     [0, 1, 2], 'row_sparse', [[0.5] * 4] * 3),
    ('plus_scalar', lambda: _var((3, 4), 'row_sparse'), lambda w: w + 2, 'default', None,
     'row_sparse', _ONES),
    ('square', lambda: _var((3, 4), 'row_sparse'), nd.square, 'row_sparse', [0, 1, 2],
     'row_sparse', (2 * np.arange(1, 13).reshape(3, 4)).tolist()),
    ('negative', lambda: _var((3, 4), 'row_sparse'), lambda w: -w, 'row_sparse', [0, 1, 2],
     'row_sparse', [[-1.0] * 4] * 3),
    ('copy', lambda: _var((3, 4), 'row_sparse'), lambda w: w.copy(), 'row_sparse', [0, 1, 2],
     'row_sparse', _ONES),
    ('add_n_twice', lambda: _var((3, 4), 'row_sparse'), lambda w: nd.add_n(w, w, _rsp()),
     'row_sparse', [0, 1, 2], 'row_sparse', [[2.0] * 4] * 3),
    ('stop_gradient', lambda: _var((3, 4), 'row_sparse'), lambda w: nd.stop_gradient(w) + w,
     'row_sparse', [0, 1, 2], 'row_sparse', _ONES),
    ('square_sum', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd._internal._square_sum(w, axis=1), 'default', None, 'row_sparse',
     (2 * np.arange(1, 13).reshape(3, 4)).tolist()),
    ('square_sum_keepdims', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd._internal._square_sum(w, axis=1, keepdims=True), 'row_sparse', [0, 1, 2],
     'row_sparse', (2 * np.arange(1, 13).reshape(3, 4)).tolist()),
    ('cast_to_row_sparse', lambda: _var((3, 4)), lambda w: nd.cast_storage(w, 'row_sparse'),
     'row_sparse', [0, 1, 2], 'default', _ONES),
    ('tostype_csr', lambda: _var((3, 4)), lambda w: w.tostype('csr'), 'csr', None, 'default',
     _ONES),
    ('cast_to_dense', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.cast_storage(w, 'default'), 'default', None, 'row_sparse', _ONES),
    ('csr_slice', lambda: _var((3, 4), 'csr'),
     lambda w: nd.sparse.slice(w, begin=(0,), end=(2,)), 'csr', None, 'csr',
     [[1.0] * 4, [1.0] * 4, [0.0] * 4]),
    ('csr_slice_cols', lambda: _var((3, 4), 'csr'),
     lambda w: nd.sparse.slice(w, begin=(0, 1), end=(2, 3)), 'csr', None, 'csr',
     [[0, 1, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]]),
    ('csr_sum', lambda: _var((3, 4), 'csr'), lambda w: nd.sparse.sum(w, axis=0), 'default',
     None, 'csr', _ONES),
    ('csr_mean', lambda: _var((3, 4), 'csr'), lambda w: nd.sparse.mean(w, axis=0), 'default',
     None, 'csr', [[1 / 3] * 4] * 3),
    ('rsp_sum', lambda: _var((3, 4), 'row_sparse'), lambda w: nd.sparse.sum(w, axis=0),
     'default', None, 'row_sparse', _ONES),
    ('retain_then_mul', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.sparse.retain(w, nd.array([0, 2])) * _rsp(), 'row_sparse', [0, 2],
     'row_sparse', _DN.tolist()),
    ('embedding_sparse_grad', lambda: _var((5, 2), grad_stype='row_sparse'),
     lambda w: (nd.Embedding(nd.array([1, 3]), w, 5, 2, sparse_grad=True) * 2).sum(),
     'default', None, 'row_sparse', [[0, 0], [2, 2], [0, 0], [2, 2], [0, 0]]),
]


@pytest.mark.parametrize('case', _CASES, ids=[c[0] for c in _CASES])
def test_recorded_sparse_result_and_gradient(case):
    _, make, fn, y_stype, y_rows, g_stype, g_val = case
    w = make()
    y, stype = _run(w, fn)
    assert stype == y_stype
    if y_rows is not None:
        assert y.indices.asnumpy().tolist() == y_rows
    assert w.grad.stype == g_stype
    np.testing.assert_allclose(w.grad.asnumpy(), g_val, rtol=1e-6)


def test_recorded_sparse_values():
    w = _var((3, 2))
    with ag.record():
        y = nd.sparse.dot(_csr(), w, transpose_a=True)
    assert y.asnumpy().tolist() == [[15, 18], [1, 2], [20, 24], [2, 4]]
    w = _var((3, 4), 'row_sparse')
    with ag.record():
        y = nd.sparse.retain(w, nd.array([0, 2]))
    assert y.asnumpy().tolist() == [[1, 2, 3, 4], [0, 0, 0, 0], [9, 10, 11, 12]]
    w = _csr()
    w.attach_grad()
    with ag.record():
        y = nd.sparse.slice(w, begin=(0, 1), end=(2, 3))
    assert y.stype == 'csr' and y.asnumpy().tolist() == [[1, 0], [0, 0]]
    # a head gradient reaches the variable through the row_sparse result
    w = _var((3, 2), grad_stype='row_sparse')
    with ag.record():
        y = nd.sparse.dot(_csr(), w, transpose_a=True)
    y.backward(nd.ones((4, 2)) * 2)
    assert w.grad.indices.asnumpy().tolist() == [0, 2]
    assert w.grad.asnumpy().tolist() == [[6, 6], [0, 0], [14, 14]]


_LINE = re.compile(r"operator = (\S+)\ninput storage types = \[(.*)\]\n"
                   r"output storage types = \[(.*)\]\nparams = (\{.*\})")


def _lines(capfd, w_make, fn):
    """The fallback lines (operator, inputs, outputs, params) printed while recording
    ``fn`` and in its backward pass, from fresh logs."""
    _fallback_log._seen.clear()
    capfd.readouterr()
    w = w_make()
    with ag.record():
        y = fn(w)
    fwd = _LINE.findall(capfd.readouterr().err)
    y.backward()
    err = capfd.readouterr().err
    return fwd, _LINE.findall(err), err


_D, _R, _C = 'default, ', 'row_sparse, ', 'csr, '
_BACKWARD_LINES = [
    ('dot_csr_dense', lambda: _var((4, 2)), lambda w: nd.sparse.dot(_csr(), w),
     [('_backward_dot', _D + _C + _D, _D + _D, '{}')]),
    ('dot_csr_dense_rspgrad', lambda: _var((4, 2), grad_stype='row_sparse'),
     lambda w: nd.sparse.dot(_csr(), w), []),
    ('dot_csrT_dense', lambda: _var((3, 2)),
     lambda w: nd.sparse.dot(_csr(), w, transpose_a=True), []),
    ('dot_csrT_dense_rspgrad', lambda: _var((3, 2), grad_stype='row_sparse'),
     lambda w: nd.sparse.dot(_csr(), w, transpose_a=True),
     [('_backward_dot', _D + _C + _D, _D + _R, '{"transpose_a" : True, }')]),
    ('dot_csrT_rspvar', lambda: _var((3, 2), 'row_sparse'),
     lambda w: nd.sparse.dot(_csr(), w, transpose_a=True),
     [('_backward_dot', _D + _C + _R, _D + _R, '{"transpose_a" : True, }')]),
    ('dot_dense_csr', lambda: _var((2, 3)), lambda w: nd.sparse.dot(w, _csr()), []),
    ('dot_dense_csr_rspgrad', lambda: _var((2, 3), grad_stype='row_sparse'),
     lambda w: nd.sparse.dot(w, _csr()), [('_backward_dot', _D + _D + _C, _R + _D, '{}')]),
    ('dot_csrvar_dense', lambda: _var((3, 4), 'csr'), lambda w: nd.sparse.dot(w, nd.ones((4, 2))),
     [('_backward_dot', _D + _C + _D, _C + _R, '{}')]),
    ('elemwise_add', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.sparse.elemwise_add(w, _rsp()), [('_copy', _D, _R, '{}')]),
    ('plus_scalar', lambda: _var((3, 4), 'row_sparse'), lambda w: w + 2,
     [('_copy', _D, _R, '{"scalar" : 2.0, }')]),
    ('cast_to_dense', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.cast_storage(w, 'default'), [('_copy', _D, _R, '{"stype" : default, }')]),
    ('times_rsp', lambda: _var((3, 4), 'row_sparse'), lambda w: nd.sparse.elemwise_mul(w, _rsp()),
     [('_backward_mul', _D + _R + _R, _R + _D, '{}')]),
    ('square_of_var', lambda: _var((3, 4), 'row_sparse'), lambda w: w * w,
     [('_backward_mul', _D + _R + _R, _D + _D, '{}'),
      ('add_n', _D + _D, _R, '{"num_args" : 2, }')]),
    ('rsp_times_dense_var', lambda: _var((3, 4)), lambda w: _rsp() * w,
     [('_backward_mul', _D + _R + _D, _D + _D, '{}')]),
    ('dense_var_times_csr', lambda: _var((3, 4)), lambda w: w * _csr(),
     [('_backward_broadcast_mul', _D + _D + _C, _D + _D, '{}')]),
    ('minus', lambda: _var((3, 4), 'row_sparse'), lambda w: w - _rsp(),
     [('_backward_sub', _D, _R + _D, '{}')]),
    ('times_scalar', lambda: _var((3, 4), 'row_sparse'), lambda w: w * 2,
     [('_backward_mul_scalar', _D, _R, '{"scalar" : 2.0, }')]),
    ('negative', lambda: _var((3, 4), 'row_sparse'), lambda w: -w,
     [('_backward_mul_scalar', _D, _R, '{"scalar" : -1.0, }')]),
    ('div_scalar', lambda: _var((3, 4), 'row_sparse'), lambda w: w / 2,
     [('_backward_div_scalar', _D, _R, '{"scalar" : 2.0, }')]),
    ('relu', lambda: _var((3, 4), 'row_sparse'), nd.relu,
     [('_backward_relu', _D + _R, _R, '{}')]),
    ('exp', lambda: _var((3, 4), 'row_sparse'), nd.exp,
     [('elemwise_mul', _D + _D, _R, '{}')]),
    ('rsp_sum', lambda: _var((3, 4), 'row_sparse'), lambda w: nd.sparse.sum(w, axis=0),
     [('_backward_sum', _D, _R, '{"axis" : 0, }')]),
    ('csr_mean', lambda: _var((3, 4), 'csr'), lambda w: nd.sparse.mean(w, axis=0),
     [('_backward_mean', _D, _C, '{"axis" : 0, }')]),
    ('csr_slice', lambda: _var((3, 4), 'csr'),
     lambda w: nd.sparse.slice(w, begin=(0, 1), end=(2, 3)),
     [('_backward_slice', _D, _C, '{"end" : (2, 3), "begin" : (0, 1), }')]),
    ('dense_var_twice', lambda: _var((3, 4), grad_stype='row_sparse'), lambda w: w * 2 + w,
     [('add_n', _D + _D, _R, '{"num_args" : 2, }')]),
    ('abs', lambda: _var((3, 4), 'row_sparse'), nd.abs, [('_backward_abs', _D + _R, _R, '{}')]),
    ('tanh', lambda: _var((3, 4), 'row_sparse'), nd.tanh,
     [('_backward_tanh', _D + _R, _R, '{}')]),
    ('clip', lambda: _var((3, 4), 'row_sparse'), lambda w: nd.clip(w, -3, 3),
     [('_backward_clip', _D + _R, _R, '{"a_max" : 3, "a_min" : -3, }')]),
    ('sigmoid', lambda: _var((3, 4), 'row_sparse'), nd.sigmoid,
     [('_backward_sigmoid', _D + _D, _R, '{}')]),
    ('broadcast_div_csr', lambda: _var((3, 1)), lambda w: nd.broadcast_div(_csr(), w),
     [('_backward_broadcast_div', _D + _C + _D, _D + _D, '{}')]),
    ('div_dense', lambda: _var((3, 4), 'row_sparse'), lambda w: w / nd.ones((3, 4)),
     [('_backward_broadcast_div', _D + _R + _D, _R + _D, '{}')]),
    ('fully_connected', lambda: _var((2, 4), 'row_sparse'),
     lambda w: nd.FullyConnected(nd.ones((3, 4)), w, num_hidden=2, no_bias=True),
     [('_backward_FullyConnected', _D + _D + _R, _D + _R,
       '{"no_bias" : True, "num_hidden" : 2, }')]),
    ('concat_twice', lambda: _var((3, 4), 'row_sparse'), lambda w: nd.concat(w, w, dim=0),
     [('add_n', _D + _D, _R, '{"num_args" : 2, }')]),
    ('dot_and_sum', lambda: _var((4, 2), grad_stype='row_sparse'),
     lambda w: nd.sparse.dot(_csr(), w).sum() + w.sum(),
     [('add_n', _D + _R, _R, '{"num_args" : 2, }')]),
    ('rsp_slice', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.slice(w, begin=(0,), end=(2,)),
     [('_backward_slice', _D, _R, '{"end" : (2,), "begin" : (0,), }')]),
    ('rminus_scalar', lambda: _var((3, 4), 'row_sparse'), lambda w: 2 - w,
     [('negative', _D, _R, '{"scalar" : 2.0, }')]),
    ('dense_var_plus_rsp', lambda: _var((3, 4), grad_stype='row_sparse'), lambda w: w + _rsp(),
     [('_backward_broadcast_add', _D, _R + _D, '{}')]),
    ('broadcast_mul_csr_same_shape', lambda: _var((3, 4), grad_stype='row_sparse'),
     lambda w: nd.broadcast_mul(_csr(), w),
     [('_backward_broadcast_mul', _D + _C + _D, _D + _R, '{}')]),
    # natively computed gradients: no line
    ('retain', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd.sparse.retain(w, nd.array([0, 2])), []),
    ('square_sum', lambda: _var((3, 4), 'row_sparse'),
     lambda w: nd._internal._square_sum(w, axis=1), []),
    ('cast_to_row_sparse', lambda: _var((3, 4)), lambda w: nd.cast_storage(w, 'row_sparse'), []),
    ('where_csr', lambda: _var((3, 4)), lambda w: nd.where(_csr(), w, nd.zeros((3, 4))), []),
    ('embedding_sparse_grad', lambda: _var((5, 2), grad_stype='row_sparse'),
     lambda w: nd.Embedding(nd.array([1, 3]), w, 5, 2, sparse_grad=True), []),
]


@pytest.mark.parametrize('case', _BACKWARD_LINES, ids=[c[0] for c in _BACKWARD_LINES])
def test_backward_fallback_lines(case, capfd, monkeypatch):
    monkeypatch.delenv('MXNET_STORAGE_FALLBACK_LOG_VERBOSE', raising=False)
    _, make, fn, expected = case
    _, bwd, _ = _lines(capfd, make, fn)
    assert bwd == expected


def test_forward_lines_of_recorded_sparse_operators(capfd, monkeypatch):
    monkeypatch.delenv('MXNET_STORAGE_FALLBACK_LOG_VERBOSE', raising=False)
    # a dense operator on a recorded row_sparse result says so in forward
    fwd, _, _ = _lines(capfd, lambda: _var((3, 2)),
                       lambda w: nd.sparse.dot(_csr(), w, transpose_a=True).sum())
    assert fwd == [('sum', _R, _D, '{}')]
    # slice's step is shown only when given
    fwd, _, _ = _lines(capfd, lambda: _var((3, 4), 'row_sparse'),
                       lambda w: nd.slice(w, begin=(0,), end=(2,)))
    assert fwd == [('slice', _R, _D, '{"end" : (2,), "begin" : (0,), }')]
    # dense x csr.T has no kernel: dense computation, csr result (recorded or not)
    fwd, bwd, _ = _lines(capfd, lambda: _var((2, 4)),
                         lambda w: nd.sparse.dot(w, _csr(), transpose_b=True))
    assert fwd == [('dot', _D + _C, _C, '{"transpose_b" : True, }')] and bwd == []
    _fallback_log._seen.clear()
    capfd.readouterr()
    y = nd.sparse.dot(nd.ones((2, 4)), _csr(), transpose_b=True)
    assert y.stype == 'csr' and y.asnumpy().tolist() == [[3, 0, 7], [3, 0, 7]]
    assert _LINE.findall(capfd.readouterr().err) == [('dot', _D + _C, _C,
                                                      '{"transpose_b" : True, }')]


def test_dense_minus_recorded_sparse_logs_the_forward_fallback(capfd, monkeypatch):
    monkeypatch.delenv('MXNET_STORAGE_FALLBACK_LOG_VERBOSE', raising=False)
    fwd, bwd, _ = _lines(capfd, lambda: _var((3, 4)), lambda w: w - _rsp())
    assert fwd == [('broadcast_sub', _D + _R, _D, '{}')] and bwd == []
    fwd, _, _ = _lines(capfd, lambda: _var((3, 4)), lambda w: w + _rsp())
    assert fwd == [('broadcast_add', _D + _R, _D, '{}')]
    # a row_sparse weight is read natively by FullyConnected
    fwd, _, _ = _lines(capfd, lambda: _var((2, 4), 'row_sparse'),
                       lambda w: nd.FullyConnected(nd.ones((3, 4)), w, num_hidden=2,
                                                   no_bias=True))
    assert fwd == []


def test_copy_of_a_variable_logs_the_gradient_copy(capfd, monkeypatch):
    monkeypatch.delenv('MXNET_STORAGE_FALLBACK_LOG_VERBOSE', raising=False)
    _, bwd, err = _lines(capfd, lambda: _var((3, 4), 'row_sparse'), lambda w: w.copy())
    assert bwd == []
    assert 'Copy from default storage type on cpu to row_sparse storage type on cpu.' in err


def test_embedding_sparse_grad_into_a_dense_buffer():
    from mxnet.base import MXNetError
    w = nd.ones((5, 2))
    w.attach_grad()
    with ag.record():
        y = nd.Embedding(nd.array([1, 3]), w, 5, 2, sparse_grad=True)
    with pytest.raises(MXNetError, match='sparse_grad'):   # 1.9.1 refuses it in backward
        y.backward()
    # through an intermediate array, or used twice, the gradient is dense (1.9.1)
    for fn, expect in ((lambda w: nd.Embedding(nd.array([1, 3]), w * 1, 5, 2, sparse_grad=True),
                        [0, 0, 1, 1, 0, 0, 1, 1, 0, 0]),
                       (lambda w: nd.Embedding(nd.array([1, 3]), w, 5, 2,
                                               sparse_grad=True).sum() + w.sum(),
                        [1, 1, 2, 2, 1, 1, 2, 2, 1, 1])):
        w = nd.ones((5, 2))
        w.attach_grad()
        with ag.record():
            y = fn(w)
        y.backward()
        assert w.grad.stype == 'default' and w.grad.asnumpy().ravel().tolist() == expect
