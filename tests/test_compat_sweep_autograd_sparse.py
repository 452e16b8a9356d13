"""Regressions found by running realistic MXNet 1.9.1 scripts (autograd, custom operators,
control flow, sparse arrays, KVStore) under both libraries.

Every expected value below was recorded by running the same code under MXNet 1.9.1, unless a
comment says it is a closed form.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd as ag
from mxnet import nd


def test_mark_variables_null_req_leaves_array_out_of_graph():
    # 1.9.1: backward raises MXNetError ("no inputs in computation graph that require
    # gradients") and the gradient buffer is untouched
    v = nd.array([1., 2.])
    gv = nd.ones(2)
    ag.mark_variables(v, gv, grad_reqs='null')
    with ag.record():
        out = v * 3
    with pytest.raises(mx.base.MXNetError):
        out.backward()
    assert gv.asnumpy().tolist() == [1.0, 1.0]


def test_attach_grad_unknown_stype_is_value_error():
    # 1.9.1: ValueError ("unknown storage type")
    with pytest.raises(ValueError):
        nd.ones((2, 2)).attach_grad(stype='foo')


class _SoftmaxLoss(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1, keepdims=True))
        self.assign(out_data[0], req[0], nd.array(y / y.sum(axis=1, keepdims=True)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        lab = in_data[1].asnumpy().astype(np.int64)
        y = out_data[0].asnumpy()
        y[np.arange(lab.shape[0]), lab] -= 1.0
        self.assign(in_grad[0], req[0], nd.array(y))


@mx.operator.register("sweepd_softmax_loss")
class _SoftmaxLossProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ['data', 'label']

    def infer_shape(self, in_shape):
        # reads only the data shape: the label's is derived from it
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return _SoftmaxLoss()


def _softmax_loss_net():
    fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3, name='fc')
    return mx.sym.Custom(fc, mx.sym.var('label'), op_type='sweepd_softmax_loss', name='sm')


def test_custom_op_infer_shape_from_partial_inputs():
    # 1.9.1 hands the prop [] for an unknown input shape; the label shape comes back from it
    sm = _softmax_loss_net()
    assert sm.infer_shape(data=(4, 5)) == ([(4, 5), (3, 5), (3,), (4,)], [(4, 3)], [])


def test_custom_op_backward_in_simple_bind():
    sm = _softmax_loss_net()
    ex = sm.simple_bind(mx.cpu(), data=(4, 5))
    for v in ex.arg_dict.values():
        v[:] = np.arange(v.size).reshape(v.shape) * 0.01
    ex.arg_dict['label'][:] = [0, 1, 2, 0]
    out = ex.forward(is_train=True)
    ex.backward()
    # recorded from 1.9.1
    assert np.allclose(out[0].asnumpy()[0], [0.32835, 0.33331, 0.33834], atol=1e-5)
    assert np.allclose(ex.grad_dict['fc_bias'].asnumpy(), [-0.71136, 0.33274, 0.37862],
                       atol=1e-5)
    assert np.allclose(ex.grad_dict['fc_weight'].asnumpy()[0],
                       [-0.05438, -0.06149, -0.06861, -0.07572, -0.08284], atol=1e-5)


_DN = np.array([[0, 1, 0, 2], [0, 0, 0, 0], [3, 0, 4, 0]], dtype='float32')


def test_sparse_value_errors_match_builtin_type():
    # 1.9.1 raises ValueError for these
    with pytest.raises(ValueError):
        nd.sparse.zeros('foo', (2, 2))
    with pytest.raises(ValueError):
        nd.zeros((2, 2), stype='foo')
    with pytest.raises(ValueError):
        nd.sparse.csr_matrix(np.ones((2, 2, 2)))
    with pytest.raises(ValueError):
        nd.ones((2, 2, 2)).tostype('csr')


def test_reshape_of_sparse_raises_not_supported():
    c = nd.array(_DN).tostype('csr')
    with pytest.raises(mx.base.NotSupportedForSparseNDArray):
        c.reshape((4, 3))


def test_zero_size_dense_to_sparse():
    r = nd.array(np.zeros((0, 3))).tostype('row_sparse')
    assert r.shape == (0, 3) and r.indices.asnumpy().tolist() == []
    c = nd.array(np.zeros((0, 3))).tostype('csr')
    assert c.shape == (0, 3) and c.indptr.asnumpy().tolist() == [0]


def test_dot_csr_transposed_with_row_sparse_is_row_sparse():
    c = nd.array(_DN).tostype('csr')
    x3 = nd.arange(6).reshape((3, 2))
    o = nd.sparse.dot(c, x3.tostype('row_sparse'), transpose_a=True)
    # recorded from 1.9.1
    assert o.stype == 'row_sparse'
    assert o.asnumpy().tolist() == [[12.0, 15.0], [0.0, 1.0], [16.0, 20.0], [0.0, 2.0]]
    # only the csr values in rows the row_sparse operand stores count
    rhs = nd.array([[1, 2], [0, 0], [0, 0]]).tostype('row_sparse')
    o = nd.sparse.dot(c, rhs, transpose_a=True)
    assert o.indices.asnumpy().tolist() == [1, 3]
    assert o.data.asnumpy().tolist() == [[1.0, 2.0], [2.0, 4.0]]
    o = nd.sparse.dot(c, nd.sparse.zeros('row_sparse', (3, 2)), transpose_a=True)
    assert o.stype == 'row_sparse' and o.indices.asnumpy().tolist() == []


def test_add_n_of_row_sparse_is_row_sparse():
    r = nd.array(_DN).tostype('row_sparse')
    for o in (nd.add_n(r, r), nd.sparse.add_n(r, r), nd.ElementWiseSum(r, r)):
        # recorded from 1.9.1
        assert o.stype == 'row_sparse'
        assert o.indices.asnumpy().tolist() == [0, 2]
        assert o.asnumpy().tolist() == (_DN * 2).tolist()
    o = nd.add_n(r, nd.sparse.zeros('row_sparse', (3, 4)))
    assert o.stype == 'row_sparse' and o.indices.asnumpy().tolist() == [0, 2]
    assert nd.add_n(r, nd.array(_DN)).stype == 'default'
    assert nd.add_n(nd.array(_DN).tostype('csr'), nd.array(_DN).tostype('csr')).stype == 'default'


def test_broadcast_mul_div_csr_with_dense_is_csr():
    c = nd.array(_DN).tostype('csr')
    # recorded from 1.9.1
    o = nd.broadcast_mul(c, nd.array([[1], [2], [3]]))
    assert o.stype == 'csr'
    assert o.asnumpy().tolist() == [[0.0, 1.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0],
                                    [9.0, 0.0, 12.0, 0.0]]
    o = nd.sparse.broadcast_div(c, nd.array([[1, 2, 3, 4]]))
    assert o.stype == 'csr'
    assert np.allclose(o.asnumpy(), [[0.0, 0.5, 0.0, 0.5], [0.0, 0.0, 0.0, 0.0],
                                     [3.0, 0.0, 4.0 / 3, 0.0]])
    assert nd.broadcast_mul(c, nd.array([1, 2, 3, 4])).stype == 'csr'
    # a dense lhs or an addition stays dense (1.9.1)
    assert nd.broadcast_mul(nd.array([[1], [2], [3]]), c).stype == 'default'
    assert nd.broadcast_add(c, nd.array([[1], [2], [3]])).stype == 'default'


def test_square_sum():
    r = nd.array(_DN).tostype('row_sparse')
    # recorded from 1.9.1
    assert nd._internal._square_sum(r, axis=1).asnumpy().tolist() == [5.0, 0.0, 25.0]
    assert nd._internal._square_sum(r, axis=0).asnumpy().tolist() == [9.0, 1.0, 16.0, 4.0]
    o = nd._internal._square_sum(r, axis=1, keepdims=True)
    assert o.stype == 'row_sparse' and o.indices.asnumpy().tolist() == [0, 2]
    assert o.asnumpy().tolist() == [[5.0], [0.0], [25.0]]
    # the gradient is 2 * x (closed form)
    x = nd.array([[1., 2.], [3., 4.]])
    x.attach_grad()
    with ag.record():
        y = nd._internal._square_sum(x, axis=0)
    y.backward()
    assert x.grad.asnumpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]
    s = mx.sym._internal._square_sum(mx.sym.var('x'), axis=1)
    assert s.infer_shape(x=(2, 3))[1] == [(2,)]


def test_row_sparse_assign_scalar_stores_every_row():
    # recorded from 1.9.1
    a = nd.array([[1, 0], [0, 0], [0, 0]]).tostype('row_sparse')
    a[:] = 2
    assert a.indices.asnumpy().tolist() == [0, 1, 2]
    assert a.data.asnumpy().tolist() == [[2.0, 2.0]] * 3
    b = nd.sparse.zeros('row_sparse', (3, 2), dtype='int32')
    b[:] = 0
    assert b.indices.asnumpy().tolist() == [0, 1, 2] and b.dtype == np.int32
    c = nd.array(_DN).tostype('csr')
    with pytest.raises(ValueError):
        c[:] = 1


def test_sym_sparse_namespace_sparse_linear_model():
    x = mx.sym.var('data', stype='csr')
    w = mx.sym.var('weight', stype='row_sparse', shape=(4, 1), init=mx.init.Constant(0.1))
    y = mx.sym.broadcast_add(mx.sym.sparse.dot(x, w), mx.sym.var('bias', shape=(1,)))
    out = mx.sym.LogisticRegressionOutput(y, mx.sym.var('softmax_label'), name='out')
    it = mx.io.NDArrayIter(nd.array(_DN).tostype('csr'),
                           np.array([[1], [0], [1]], dtype='float32'), batch_size=3,
                           last_batch_handle='discard')
    mod = mx.mod.Module(out, data_names=['data'], label_names=['softmax_label'])
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params()
    mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 0.5})
    for _ in range(3):
        it.reset()
        for batch in it:
            mod.forward_backward(batch)
            mod.update()
    args, _ = mod.get_params()
    # recorded from 1.9.1 (where the weight is a RowSparseNDArray)
    assert np.allclose(args['weight'].asnumpy().ravel(), [0.35518, 0.27238, 0.44024, 0.44476],
                       atol=1e-5)
    assert np.allclose(args['bias'].asnumpy(), [0.00437], atol=1e-5)
    assert hasattr(mx.sym.sparse, 'elemwise_add') and hasattr(mx.sym.sparse, 'cast_storage')


def test_row_sparse_data_records_into_parameter_gradient():
    p = mx.gluon.Parameter('w', shape=(4, 2), stype='row_sparse', grad_stype='row_sparse',
                           init=mx.init.One())
    p.initialize()
    tr = mx.gluon.Trainer([p], 'sgd', {'learning_rate': 1.0})
    d = p.row_sparse_data(nd.array([0, 2]))
    assert d.stype == 'row_sparse' and d.indices.asnumpy().tolist() == [0, 2]
    with ag.record():
        y = nd.sparse.dot(nd.array([[1, 0, 1, 0]]).tostype('csr'), d)
    y.backward()
    assert p.grad().stype == 'row_sparse'
    tr.step(1)
    # recorded from 1.9.1
    assert p.row_sparse_data(nd.arange(4)).asnumpy().tolist() == \
        [[0.0, 0.0], [1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]


def test_foreach_non_ndarray_data_is_assertion_error():
    # 1.9.1 asserts that the data is a (nested) list of NDArrays
    with pytest.raises(AssertionError):
        nd.contrib.foreach(lambda x, s: (x, s), 5, [nd.zeros(2)])
    with pytest.raises(TypeError):   # kept for scripts written against mxnet-py
        nd.contrib.foreach(lambda x, s: (x, s), 5, [nd.zeros(2)])


def test_sparse_scalar_arithmetic_casts_scalar_to_dtype():
    # recorded from 1.9.1: the scalar is cast to the array's dtype first
    r = nd.array([[3, 4], [0, 0]], dtype='int32').tostype('row_sparse')
    assert (r * 2.5).asnumpy().tolist() == [[6, 8], [0, 0]]
    assert (r / 2.5).asnumpy().tolist() == [[1, 2], [0, 0]]
    ru = nd.array([[3, 4], [0, 0]], dtype='uint8').tostype('row_sparse')
    assert (ru * -1).asnumpy().tolist() == [[253, 252], [0, 0]]
    c = nd.array([[3, 4], [0, 0]], dtype='int32').tostype('csr')
    assert (2.5 * c).asnumpy().tolist() == [[6, 8], [0, 0]]
    assert (c * 2.5).dtype == np.int32 and (c * 2.5).stype == 'csr'


def test_sparse_times_recorded_dense_gives_gradient():
    r = nd.array(_DN).tostype('row_sparse')
    c = nd.array(_DN).tostype('csr')
    for f in (lambda w: r * w, lambda w: w * c, lambda w: nd.broadcast_mul(c, w),
              lambda w: nd.sparse.elemwise_mul(r, w)):
        w = nd.ones((3, 4)) * 2
        w.attach_grad()
        with ag.record():
            z = f(w)
        z.backward()
        # recorded from 1.9.1 (d(r * w)/dw = r)
        assert w.grad.asnumpy().tolist() == _DN.tolist()
        assert z.asnumpy().tolist() == (_DN * 2).tolist()


_CALLS = {'fwd': 0, 'bwd': 0}


class _CountedSquare(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        _CALLS['fwd'] += 1
        self.assign(out_data[0], req[0], in_data[0] * in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        _CALLS['bwd'] += 1
        self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])


@mx.operator.register("sweepd_counted_square")
class _CountedSquareProp(mx.operator.CustomOpProp):
    def infer_shape(self, in_shape):
        return in_shape, in_shape, []

    def create_operator(self, ctx, shapes, dtypes):
        return _CountedSquare()


def test_hybridized_custom_op_backward_runs_once_per_pass():
    class Net(mx.gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.d = mx.gluon.nn.Dense(2, in_units=2)

        def hybrid_forward(self, F, x):
            return F.Custom(self.d(x), op_type='sweepd_counted_square')

    net = Net()
    net.initialize(mx.init.Constant(0.5))
    net.hybridize()
    _CALLS.update(fwd=0, bwd=0)
    for _ in range(2):
        with ag.record():
            y = net(nd.ones((3, 2)))
        y.backward()
    nd.waitall()
    # 1.9.1: one forward and one backward call per pass (no extra calls on placeholders)
    assert _CALLS == {'fwd': 2, 'bwd': 2}
    # closed form: bias stays zeros, each output is 1, so d/dw = 3 rows * 2 * 1 = 6
    assert net.d.weight.grad().asnumpy().tolist() == [[6.0, 6.0], [6.0, 6.0]]


def test_make_loss_and_stop_gradient_keep_sparse_storage():
    r = nd.array(_DN).tostype('row_sparse')
    c = nd.array(_DN).tostype('csr')
    # recorded from 1.9.1
    for f in (nd.sparse.make_loss, nd.sparse.stop_gradient, nd.make_loss, nd.stop_gradient):
        assert f(r).stype == 'row_sparse' and f(r).asnumpy().tolist() == _DN.tolist()
        assert f(c).stype == 'csr'


def test_module_row_sparse_embedding_updates_lazily():
    user, item = mx.sym.var('user'), mx.sym.var('item')
    uw = mx.sym.var('user_weight', stype='row_sparse')
    iw = mx.sym.var('item_weight', stype='row_sparse')
    u = mx.sym.Embedding(user, weight=uw, input_dim=5, output_dim=2, sparse_grad=True)
    i = mx.sym.Embedding(item, weight=iw, input_dim=4, output_dim=2, sparse_grad=True)
    loss = mx.sym.LinearRegressionOutput(mx.sym.sum(u * i, axis=1), mx.sym.var('score'))
    it = mx.io.NDArrayIter({'user': np.array([0, 1, 1, 3], 'float32'),
                            'item': np.array([2, 0, 2, 2], 'float32')},
                           {'score': np.array([1, 2, 3, 4], 'float32')}, batch_size=2)
    mod = mx.mod.Module(loss, data_names=['user', 'item'], label_names=['score'])
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params(mx.init.Constant(0.5))
    mod.init_optimizer(optimizer='sgd', kvstore=None,
                       optimizer_params={'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.1})
    for _ in range(2):
        it.reset()
        for b in it:
            mod.forward_backward(b)
            mod.update()
    args, _ = mod.get_params()
    # recorded from 1.9.1: rows never looked up (user 2 and 4, items 1 and 3) keep 0.5,
    # untouched by weight decay and momentum
    assert np.allclose(args['user_weight'].asnumpy()[:, 0],
                       [0.52003, 0.88891, 0.5, 0.77598, 0.5], atol=1e-5)
    assert np.allclose(args['item_weight'].asnumpy()[:, 0],
                       [0.59792, 0.5, 1.07731, 0.5], atol=1e-5)


def test_kvstore_pull_into_row_sparse_with_ignore_sparse_false():
    kv = mx.kv.create('local')
    kv.init('e', nd.array([[1, 1], [0, 0], [2, 2]]).tostype('row_sparse'))
    skipped = nd.sparse.zeros('row_sparse', (3, 2))
    kv.pull('e', out=skipped)   # ignore_sparse=True leaves a sparse output alone
    assert skipped.asnumpy().tolist() == [[0.0, 0.0]] * 3
    out = nd.sparse.zeros('row_sparse', (3, 2))
    kv.pull('e', out=out, ignore_sparse=False)
    # recorded from 1.9.1 (this used to deadlock: the copy waited on its own write)
    assert out.asnumpy().tolist() == [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    dense = nd.ones((3, 2)) * 7
    kv.pull('e', out=dense)
    assert dense.asnumpy().tolist() == [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]


def test_set_recording_rejects_non_boolean_flags():
    # 1.9.1 hands the flag to C as an int: a string is a TypeError
    with pytest.raises(TypeError):
        ag.set_recording('yes')
    with pytest.raises(TypeError):
        ag.set_training(None)
    assert not ag.is_recording() and not ag.is_training()
    # recorded from 1.9.1: each call returns the previous value
    assert [ag.set_recording(True), ag.set_recording(1), ag.set_recording(False),
            ag.set_recording(np.bool_(False))] == [False, True, True, False]


def test_sparse_storage_of_fluent_methods_comparisons_and_products():
    dn = np.array([[0, 1], [2, 0], [0, 0]], dtype='float32')
    c = nd.array(dn).tostype('csr')
    r = nd.array(dn).tostype('row_sparse')
    full = nd.ones((3, 2))
    # recorded from 1.9.1: (expression, storage type of the result)
    cases = [(r.sqrt(), 'row_sparse'), (c.abs(), 'csr'), (c.square(), 'csr'),
             (r.relu(), 'row_sparse'), (r.floor(), 'row_sparse'), (r.exp(), 'default'),
             (r.zeros_like(), 'row_sparse'), (c.zeros_like(), 'csr'),
             (r > 0, 'row_sparse'), (r != 0, 'row_sparse'), (c > 0, 'csr'),
             (r == 1, 'row_sparse'), (0 < r, 'row_sparse'), (r < 1, 'default'),
             (r >= 0, 'default'), (r != 3, 'default'),
             (r * full, 'row_sparse'), (full * r, 'default'), (full * c, 'default'),
             (r * nd.array([[2.0]]), 'default'), (nd.array([[2.0]]) * r, 'default'),
             (c * nd.array([[2.0, 3.0]]), 'csr'), (2 * r, 'row_sparse')]
    assert [o.stype for o, _ in cases] == [st for _, st in cases]
    assert (r > 0).asnumpy().tolist() == [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]]
    assert (r == 1).asnumpy().tolist() == [[0.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    assert (r < 1).asnumpy().tolist() == [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    assert (full * r).asnumpy().tolist() == dn.tolist()
    assert (r * nd.array([[2.0, 3.0]])).asnumpy().tolist() == [[0.0, 3.0], [4.0, 0.0],
                                                              [0.0, 0.0]]


def test_sparse_dot_forward_stype():
    c = nd.array([[0, 1], [2, 0], [0, 0]]).tostype('csr')
    w = nd.ones((2, 2))
    expected = [[1.0, 1.0], [2.0, 2.0], [0.0, 0.0]]
    # recorded from 1.9.1
    for fst in ('default', 'csr', 'row_sparse'):
        o = nd.sparse.dot(c, w, forward_stype=fst)
        assert o.stype == fst and o.asnumpy().tolist() == expected
    o = nd.sparse.dot(c, nd.ones((3, 2)), transpose_a=True, forward_stype='default')
    assert o.stype == 'default' and o.asnumpy().tolist() == [[2.0, 2.0], [1.0, 1.0]]


def test_sparse_variable_gradients_are_recorded_and_keep_storage():
    c = nd.array([[1, 0], [0, 2]]).tostype('csr')
    c.attach_grad()
    with ag.record():
        z = (c * 3 + c).sum()
    z.backward()
    # recorded from 1.9.1
    assert c.grad.stype == 'csr' and c.grad.asnumpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]
    r = nd.array([[1, 0], [0, 0]]).tostype('row_sparse')
    r.attach_grad()
    with ag.record():
        z = nd.sparse.sqrt(r * 4 + 1)
    z.backward()
    assert r.grad.stype == 'row_sparse'
    assert np.allclose(r.grad.asnumpy(), [[0.894427, 2.0], [2.0, 2.0]])


def test_trainer_rejects_local_updates_of_row_sparse_weights():
    def make(**kw):
        p = mx.gluon.Parameter('w', shape=(4, 2), stype='row_sparse', grad_stype='row_sparse',
                               init=mx.init.One())
        p.initialize()
        tr = mx.gluon.Trainer([p], 'sgd', {'learning_rate': 1.0}, **kw)
        d = p.row_sparse_data(nd.array([0, 2]))
        with ag.record():
            y = nd.sparse.dot(nd.array([[1, 0, 1, 0]]).tostype('csr'), d)
        y.backward()
        return tr
    # 1.9.1: ValueError for update_on_kvstore=False, TypeError for kvstore=None
    with pytest.raises(ValueError):
        make(update_on_kvstore=False).step(1)
    with pytest.raises(TypeError):
        make(kvstore=None).step(1)
