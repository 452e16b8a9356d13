"""Compatibility sweep (sparse arrays in Gluon and imperative code, part 2): row_sparse
Parameter accessors, optimizer states of row_sparse weights, sparse in-place arithmetic and
the storage-fallback log lines. Expected values were recorded from MXNet 1.9.1."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.ndarray import _fallback_log


def _rsp():
    return nd.sparse.row_sparse_array((nd.array([[1, 2], [3, 4]]), nd.array([0, 2])),
                                      shape=(3, 2))


def _csr():
    return nd.array([[0, 1], [2, 0], [0, 0]]).tostype('csr')


def _dense():
    return nd.array([[1, 1], [2, 2], [3, 3]])


# ------------------------------------------------------------------ Parameter accessors

def test_row_sparse_parameter_accessors_raise_runtime_error():
    p = gluon.Parameter('w', shape=(4, 3), stype='row_sparse', grad_stype='row_sparse')
    p.initialize(init=mx.init.One())
    # messages recorded from 1.9.1
    with pytest.raises(RuntimeError, match=r"^Cannot return a copy of Parameter 'w' on ctx "
                       r"None via data\(\) because its storage type is row_sparse"):
        p.data()
    with pytest.raises(RuntimeError, match=r"on all contexts via list_data\(\) because its "
                       "storage type is row_sparse"):
        p.list_data()
    with pytest.raises(RuntimeError, match="when no Trainer is created with it"):
        p.row_sparse_data(nd.array([0, 2]))
    with pytest.raises(RuntimeError, match="when no Trainer is created with it"):
        p.list_row_sparse_data(nd.array([0, 2]))
    assert p.grad().stype == 'row_sparse'
    gluon.Trainer([p], 'sgd', {'learning_rate': 0.1})
    r = p.row_sparse_data(nd.array([3, 1, 1]))
    # 1.9.1 stores the requested rows sorted and without repeats
    assert r.stype == 'row_sparse' and r.indices.asnumpy().tolist() == [1, 3]
    assert r.asnumpy().tolist() == [[0, 0, 0], [1, 1, 1], [0, 0, 0], [1, 1, 1]]
    assert [a.indices.asnumpy().tolist()
            for a in p.list_row_sparse_data(nd.array([2, 0]))] == [[0, 2]]

    q = gluon.Parameter('q', shape=(2, 2))
    q.initialize()
    with pytest.raises(RuntimeError, match=r"^Cannot return a copy of Parameter q via "
                       r"row_sparse_data\(\) because its storage type is default"):
        q.row_sparse_data(nd.array([0]))
    with pytest.raises(RuntimeError, match=r"^Cannot return copies of Parameter 'q' on all "
                       r"contexts via list_row_sparse_data\(\)"):
        q.list_row_sparse_data(nd.array([0]))


class _RspBlock(gluon.Block):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.w = self.params.get('w', shape=(5, 2), stype='row_sparse',
                                     grad_stype='row_sparse', init=mx.init.Constant(0.5))

    def forward(self, x):
        w = self.w.row_sparse_data(x)
        return nd.Embedding(x, w.tostype('default'), 5, 2)


@pytest.mark.parametrize('kvstore', ['device', 'local'])
def test_row_sparse_block_trains_and_saves_row_sparse(kvstore, tmp_path):
    net = _RspBlock(prefix='b_')
    net.initialize()
    tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 1.0, 'momentum': 0.5},
                       kvstore=kvstore)
    x = nd.array([1, 3])
    rows = []
    for _ in range(2):
        with autograd.record():
            y = net(x)
        y.backward()
        assert net.w.grad().stype == 'row_sparse'
        tr.step(1)
        rows.append(net.w.row_sparse_data(nd.arange(5)).asnumpy()[:, 0].tolist())
    # recorded from 1.9.1
    assert rows == [[0.5, -0.5, 0.5, -0.5, 0.5], [0.5, -2.0, 0.5, -2.0, 0.5]]
    f = str(tmp_path / 'p.params')
    net.save_parameters(f)
    saved = nd.load(f)
    assert list(saved) == ['w'] and saved['w'].stype == 'row_sparse'
    assert saved['w'].asnumpy()[:, 1].tolist() == [0.5, -2.0, 0.5, -2.0, 0.5]
    net.load_parameters(f)
    tr.save_states(str(tmp_path / 's'))
    tr.load_states(str(tmp_path / 's'))


def test_row_sparse_parameter_needs_a_kvstore_and_a_trainer_to_save(tmp_path):
    net = _RspBlock(prefix='c_')
    net.initialize()
    with pytest.raises(RuntimeError, match="Cannot reduce row_sparse data for Parameter "
                       "'c_w' when no Trainer"):
        net.save_parameters(str(tmp_path / 'x.params'))
    gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 1.0}, kvstore=None)
    # 1.9.1: a TypeError as soon as the rows are asked for (and when saving)
    with pytest.raises(TypeError, match="Cannot create 'None' KVStore with row_sparse "
                       "parameters. The type must be KVStore or str."):
        net(nd.array([1]))
    with pytest.raises(TypeError):
        net.save_parameters(str(tmp_path / 'x.params'))


# ------------------------------------------------------------------ optimizer states

def _opt_run(name, wst, **kw):
    o = mx.optimizer.create(name, learning_rate=0.1, **kw)
    w = nd.array(np.arange(12).reshape(4, 3) / 10.0 + 0.5).tostype(wst)
    g = nd.sparse.row_sparse_array((nd.array([[1, 2, 3]]), nd.array([2])), shape=(4, 3))
    st = o.create_state(0, w)
    sts = st if isinstance(st, (tuple, list)) else (st,)
    for _ in range(2):
        o.update(0, w, g, st)
    return w, sts


def test_sgd_momentum_states_of_row_sparse_weights():
    w, sts = _opt_run('sgd', 'row_sparse', momentum=0.9, wd=0.01)
    assert [s.stype for s in sts] == ['row_sparse']   # lazy: row_sparse state (1.9.1)
    # recorded from 1.9.1: only row 2 changes
    np.testing.assert_allclose(w.asnumpy()[2], [0.80691, 0.61672, 0.42653], rtol=1e-5)
    np.testing.assert_allclose(w.asnumpy()[[0, 3]], [[0.5, 0.6, 0.7], [1.4, 1.5, 1.6]],
                               rtol=1e-6)
    w, sts = _opt_run('sgd', 'row_sparse', momentum=0.9, wd=0.01, lazy_update=False)
    assert [s.stype for s in sts] == ['default']
    # standard update: every row decays (recorded from 1.9.1)
    np.testing.assert_allclose(w.asnumpy()[:, 0], [0.49855, 0.79768, 0.80691, 1.39594],
                               rtol=1e-5)
    np.testing.assert_allclose(sts[0].asnumpy()[:, 2], [-0.00133, -0.0019, -0.57217,
                                                        -0.00304], atol=1e-5)


def test_adam_states_of_row_sparse_weights():
    w, sts = _opt_run('adam', 'row_sparse', wd=0.01)
    assert [s.stype for s in sts] == ['row_sparse', 'row_sparse']
    # recorded from 1.9.1
    want = np.arange(12).reshape(4, 3) / 10.0 + 0.5
    want[2] = [0.9, 1.0, 1.1]
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(sts[1].asnumpy()[2], [0.00204, 0.00809, 0.01814], rtol=1e-3)
    w, sts = _opt_run('adam', 'row_sparse', wd=0.01, lazy_update=False)
    assert [s.stype for s in sts] == ['default', 'default']
    np.testing.assert_allclose(w.asnumpy()[:, 0], [0.3012, 0.60057, 0.9, 1.20026], rtol=1e-4)


def test_ftrl_and_adagrad_on_row_sparse_weights_are_lazy():
    w, sts = _opt_run('ftrl', 'row_sparse', wd=0.01)
    assert [s.stype for s in sts] == ['row_sparse', 'row_sparse']
    # recorded from 1.9.1: untouched rows keep their values
    np.testing.assert_allclose(w.asnumpy()[[0, 1, 3]],
                               [[0.5, 0.6, 0.7], [0.8, 0.9, 1.0], [1.4, 1.5, 1.6]], rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy()[2], [0.45785, 0.68053, 0.84231], rtol=1e-4)
    np.testing.assert_allclose(sts[0].asnumpy()[2], [-11.06796, -26.07035, -44.17786],
                               rtol=1e-5)
    w, sts = _opt_run('adagrad', 'row_sparse', wd=0.0)
    assert sts[0].stype == 'row_sparse' and w.stype == 'row_sparse'
    np.testing.assert_allclose(w.asnumpy()[2], [0.92929, 1.02929, 1.12929], rtol=1e-5)
    np.testing.assert_allclose(w.asnumpy()[0], [0.5, 0.6, 0.7], rtol=1e-6)
    assert sts[0].asnumpy()[2].tolist() == [2.0, 8.0, 18.0]


# ------------------------------------------------------------------ in-place arithmetic

def test_sparse_inplace_arithmetic_keeps_storage_type():
    a = _rsp()
    a += _dense()
    # recorded from 1.9.1
    assert a.stype == 'row_sparse' and a.indices.asnumpy().tolist() == [0, 1, 2]
    assert a.asnumpy().tolist() == [[2, 3], [2, 2], [6, 7]]
    a = _rsp()
    a /= _dense()
    assert a.stype == 'row_sparse' and a.indices.asnumpy().tolist() == [0, 2]
    np.testing.assert_allclose(a.asnumpy(), [[1, 2], [0, 0], [1, 1.33333]], rtol=1e-5)
    a = _rsp()
    a += 1
    assert a.stype == 'row_sparse' and a.asnumpy().tolist() == [[2, 3], [1, 1], [4, 5]]
    a = _rsp()
    a *= nd.array([3])
    assert a.stype == 'row_sparse' and a.indices.asnumpy().tolist() == [0, 2]
    assert a.asnumpy().tolist() == [[3, 6], [0, 0], [9, 12]]
    c = _csr()
    c += nd.ones((3, 2))
    assert c.stype == 'csr' and c.asnumpy().tolist() == [[1, 2], [3, 1], [1, 1]]
    c = _csr()
    c -= 1
    assert c.stype == 'csr' and c.asnumpy().tolist() == [[-1, 0], [1, -1], [-1, -1]]


def _logged(capfd, fn):
    _fallback_log._seen.clear()
    capfd.readouterr()
    res = fn()
    return res, capfd.readouterr().err


def test_sparse_arithmetic_fallback_log_lines(capfd, monkeypatch):
    monkeypatch.delenv('MXNET_STORAGE_FALLBACK_LOG_VERBOSE', raising=False)
    # which operators 1.9.1 runs densely (and warns about), as recorded from it
    cases = [
        (lambda: _dense() + _rsp(), 'broadcast_add', '[default, row_sparse, ]'),
        (lambda: _dense() - _rsp(), 'broadcast_sub', '[default, row_sparse, ]'),
        (lambda: _rsp() / _dense(), 'broadcast_div', '[row_sparse, default, ]'),
        (lambda: _rsp() * nd.ones((1, 2)), 'broadcast_mul', '[row_sparse, default, ]'),
        (lambda: _rsp() + nd.ones((1, 2)), 'broadcast_add', '[row_sparse, default, ]'),
        (lambda: _dense() * _csr(), 'broadcast_mul', '[default, csr, ]'),
        (lambda: 2 / _rsp(), '_rdiv_scalar', '[row_sparse, ]'),
        (lambda: 1 - _rsp(), '_rminus_scalar', '[row_sparse, ]'),
        (lambda: _rsp() ** 2, '_power_scalar', '[row_sparse, ]'),
        (lambda: _rsp() % 2, '_mod_scalar', '[row_sparse, ]'),
        (lambda: _rsp() < 1, '_lesser_scalar', '[row_sparse, ]'),
        (lambda: _csr() == 0, '_equal_scalar', '[csr, ]'),
    ]
    for fn, op, stypes in cases:
        _, err = _logged(capfd, fn)
        assert f'operator = {op}\ninput storage types = {stypes}' in err, (op, err)
    _, err = _logged(capfd, lambda: 2 / _rsp())
    assert 'params = {"scalar" : 2.0, }' in err
    # computed natively in 1.9.1: no warning
    for fn in (lambda: _rsp() + _dense(), lambda: _rsp() - _dense(), lambda: _rsp() + 1,
               lambda: _rsp() * _dense(), lambda: _rsp() * 2, lambda: _rsp() / 2,
               lambda: _dense() + _csr(), lambda: _csr() - _dense(), lambda: _rsp() > 1,
               lambda: _rsp() + _rsp(), lambda: 1 + _csr()):
        _, err = _logged(capfd, fn)
        assert 'fallback' not in err, err
    _, err = _logged(capfd, lambda: _rsp().__iadd__(_dense()))
    assert 'Copy from default storage type on cpu to row_sparse storage type on cpu.' in err


def test_optimizer_updates_of_row_sparse_weights_do_not_warn(capfd):
    # 1.9.1 has native kernels for the standard update of a row_sparse weight
    _, err = _logged(capfd, lambda: _opt_run('sgd', 'row_sparse', momentum=0.9,
                                             lazy_update=False))
    assert 'fallback' not in err
    _, err = _logged(capfd, lambda: _opt_run('adam', 'row_sparse', lazy_update=False))
    assert 'fallback' not in err


def test_recorded_tostype_of_row_sparse_reaches_the_gradient():
    w = nd.ones((5, 2)).tostype('row_sparse')
    w.attach_grad(stype='row_sparse')
    x = nd.array([1, 3])
    with autograd.record():
        y = nd.Embedding(x, w.tostype('default'), 5, 2)
    y.backward()
    # recorded from 1.9.1
    assert w.grad.stype == 'row_sparse'
    assert w.grad.asnumpy().tolist() == [[0, 0], [1, 1], [0, 0], [1, 1], [0, 0]]


def test_recorded_reduction_of_row_sparse_reaches_the_gradient(capfd):
    a = _rsp()
    a.attach_grad()
    _fallback_log._seen.clear()
    with autograd.record():
        c = nd.mean(a, axis=0)
    c.backward()
    # recorded from 1.9.1
    np.testing.assert_allclose(c.asnumpy(), [1.33333, 2.0], rtol=1e-5)
    assert a.grad.stype == 'row_sparse'
    np.testing.assert_allclose(a.grad.asnumpy(), np.full((3, 2), 1 / 3), rtol=1e-6)
    err = capfd.readouterr().err
    assert 'operator = mean\ninput storage types = [row_sparse, ]' in err
    # the dense operators our gradient rules compose are never named
    assert 'broadcast_like' not in err and '_reduce_to_shape_of' not in err


def test_sparse_dot_dtype_mismatch_and_forward_stype_warning(capfd):
    c = nd.array([[0, 1.5], [0, 0], [2, 0]], dtype='float64').tostype('csr')
    with pytest.raises(mx.base.MXNetError):   # 1.9.1: incompatible attr (dtype)
        nd.sparse.dot(c, nd.ones((2, 2)))
    c = nd.array([[0, 1.5], [0, 0], [2, 0]]).tostype('csr')
    _, err = _logged(capfd, lambda: nd.sparse.dot(c, nd.ones((2, 2)),
                                                  forward_stype='row_sparse'))
    # recorded from 1.9.1
    assert ('operator = dot\ninput storage types = [csr, default, ]\noutput storage types = '
            '[row_sparse, ]\nparams = {"forward_stype" : row_sparse, }') in err
    y, err = _logged(capfd, lambda: nd.sparse.dot(nd.ones((2, 3)), c, forward_stype='default'))
    assert 'fallback' not in err and y.stype == 'default'
    y, err = _logged(capfd, lambda: nd.sparse.dot(c, nd.ones((3, 2)), transpose_a=True,
                                                  forward_stype='default'))
    assert 'fallback' not in err and y.stype == 'default'


def test_fallback_names_and_clip_global_norm_of_row_sparse(capfd):
    r = _rsp()
    _, err = _logged(capfd, lambda: nd.concat(r, r, dim=0))
    # recorded from 1.9.1: the operator's own name and the frontend's parameter order
    assert 'operator = Concat\n' in err and 'params = {"num_args" : 2, "dim" : 0, }' in err
    _, err = _logged(capfd, lambda: nd.norm(r))
    assert 'fallback' not in err
    _, err = _logged(capfd, lambda: nd.norm(r, axis=1))
    assert 'operator = norm\n' in err and 'params = {"axis" : 1, }' in err
    g = nd.sparse.row_sparse_array((nd.array([[1, 1], [3, 3], [2, 2]]), nd.array([1, 2, 5])),
                                   shape=(6, 2))
    n, err = _logged(capfd, lambda: gluon.utils.clip_global_norm([g], 1.0))
    # recorded from 1.9.1
    assert round(float(n), 4) == 5.2915 and g.stype == 'row_sparse'
    np.testing.assert_allclose(g.asnumpy()[[1, 2, 5], 0], [0.189, 0.5669, 0.378], atol=1e-4)
    assert 'operator = broadcast_mul\ninput storage types = [row_sparse, default, ]' in err
    assert 'operator = sum' not in err


# an Adam mean state as 1.9.1 pickles it inside Trainer.save_states after one lazy step:
# its header gives a stale storage shape (0, 2) but the data holds one row per index
_RSP_STATE_191 = bytes.fromhex(
    "c9fa93f9010000000200000000000000000000000200000000000000020000000400000000000000"
    "020000000000000003000000000000000000000006000000010000000400000000000000d0cccc3d"
    "d0cccc3d0000000000000000d0cccc3dd0cccc3d0000000000000000000000000000000001000000"
    "0000000002000000000000000300000000000000")


def test_row_sparse_state_pickled_by_1_9_1_loads():
    a = nd.sparse.zeros('row_sparse', (4, 2))
    a.__setstate__({'handle': bytearray(_RSP_STATE_191)})
    # as 1.9.1 reads it
    assert a.stype == 'row_sparse' and a.indices.asnumpy().tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(a.asnumpy(), [[0.1, 0.1], [0, 0], [0.1, 0.1], [0, 0]],
                               rtol=1e-6)


def test_trainer_with_row_sparse_weights_updates_on_a_kvstore():
    def make(**kw):
        p = gluon.Parameter('w', shape=(4, 2), stype='row_sparse', grad_stype='row_sparse',
                            init=mx.init.One())
        p.initialize()
        return p, gluon.Trainer([p], 'sgd', {'learning_rate': 1.0}, **kw)
    p, tr = make(update_on_kvstore=False)
    with pytest.raises(ValueError, match=r"^Cannot set update_on_kvstore=False when sparse "
                       "weights are present.$"):   # recorded from 1.9.1
        p.row_sparse_data(nd.array([1]))
    for kw in ({}, {'kvstore': 'local'}, {'kvstore': mx.kv.create('local')}):
        p, tr = make(**kw)
        r = p.row_sparse_data(nd.array([1]))
        with autograd.record():
            y = nd.sparse.dot(nd.array([[0, 1, 0, 0]]).tostype('csr'), r)
        y.backward()
        tr.step(1)
        assert p.row_sparse_data(nd.arange(4)).asnumpy()[:, 0].tolist() == [1, 0, 1, 1]
        # 1.9.1: even on one device the sparse weights are updated in the KVStore
        with pytest.raises(AssertionError, match="allreduce_grads"):
            tr.allreduce_grads()


class _SparseLinear(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.w = self.params.get('w', shape=(5, 1), init=mx.init.Constant(0.1),
                                     grad_stype='row_sparse')
            self.b = self.params.get('b', shape=(1,), init=mx.init.Zero())

    def hybrid_forward(self, F, x, w, b):
        return F.broadcast_add(F.sparse.dot(x, w), b)


@pytest.mark.parametrize('hybridize', [False, True])
def test_gluon_sparse_linear_regression(hybridize, capfd):
    rng = np.random.RandomState(0)
    X = rng.rand(8, 5) * (rng.rand(8, 5) > 0.6)
    data, label = nd.array(X).tostype('csr'), nd.array(X.sum(1, keepdims=True) * 2)
    net = _SparseLinear(prefix='lin_')
    net.initialize()
    if hybridize:
        net.hybridize()
    tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})
    loss = gluon.loss.L2Loss()
    _fallback_log._seen.clear()
    capfd.readouterr()
    for _ in range(3):
        for i in range(0, 8, 4):
            with autograd.record():
                lv = loss(net(data[i:i + 4]), label[i:i + 4])
            lv.backward()
            tr.step(4)
    # recorded from 1.9.1 (no storage fallback: dot's row_sparse gradient is native)
    assert 'fallback' not in capfd.readouterr().err
    np.testing.assert_allclose(net.w.data().asnumpy()[:, 0],
                               [0.3533, 0.1227, 0.6639, 0.3122, 0.278], atol=1e-4)
    np.testing.assert_allclose(net.b.data().asnumpy(), [1.3266], atol=1e-4)
    assert round(float(lv.mean().asscalar()), 3) == 0.314


def test_csr_reduction_with_keepdims_is_a_fallback(capfd):
    c = _csr()
    y, err = _logged(capfd, lambda: nd.sum(c, axis=1, keepdims=True))
    # recorded from 1.9.1
    assert y.asnumpy().tolist() == [[1], [2], [0]]
    assert 'operator = sum\ninput storage types = [csr, ]' in err
    assert 'params = {"keepdims" : True, "axis" : 1, }' in err
    y, err = _logged(capfd, lambda: nd.sum(c, axis=1))
    assert 'fallback' not in err and y.asnumpy().tolist() == [1, 2, 0]


def test_set_data_resets_the_kvstore_that_updates_the_parameter():
    p = gluon.Parameter('w', shape=(4, 2), stype='row_sparse', grad_stype='row_sparse',
                        init=mx.init.One())
    p.initialize()
    tr = gluon.Trainer([p], 'sgd', {'learning_rate': 1.0})

    def step():
        w = p.row_sparse_data(nd.array([1]))
        with autograd.record():
            y = nd.sparse.dot(nd.array([[0, 1, 0, 0]]).tostype('csr'), w)
        y.backward()
        tr.step(1)
    step()
    p.set_data(nd.ones((4, 2)) * 3)
    step()
    # recorded from 1.9.1
    assert p.row_sparse_data(nd.arange(4)).asnumpy()[:, 0].tolist() == [3, 2, 3, 3]

    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = gluon.nn.Dense(1, in_units=2, use_bias=False)
    net.initialize(mx.init.One(), ctx=ctxs)
    tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})

    def step2():
        for c in ctxs:
            with autograd.record():
                y = net(nd.array([[1, 2]], ctx=c)).sum()
            y.backward()
        tr.step(1)
    step2()
    step2()
    net.weight.set_data(nd.ones((1, 2)) * 3)
    step2()   # a fresh store: the momentum starts again (recorded from 1.9.1)
    for c in ctxs:
        np.testing.assert_allclose(net.weight.data(c).asnumpy(), [[2.8, 2.6]], rtol=1e-6)


def test_row_sparse_weight_with_dense_grad_updates_its_row_sparse_states(capfd):
    def run(name, **kw):
        o = mx.optimizer.create(name, learning_rate=0.1, **kw)
        w = nd.array(np.arange(6).reshape(3, 2) / 10.0 + 0.5).tostype('row_sparse')
        g = nd.array([[1, 1], [0, 0], [2, 2]])
        st = o.create_state(0, w)
        for _ in range(2):
            o.update(0, w, g, st)
        return w, st if isinstance(st, tuple) else (st,)
    _fallback_log._seen.clear()
    capfd.readouterr()
    w, (mom,) = run('sgd', momentum=0.9)
    # recorded from 1.9.1 (a storage fallback whose state input is written back)
    np.testing.assert_allclose(w.asnumpy(), [[0.21, 0.31], [0.7, 0.8], [0.32, 0.42]],
                               rtol=1e-6)
    assert mom.stype == 'row_sparse'
    np.testing.assert_allclose(mom.asnumpy(), [[-0.19, -0.19], [0, 0], [-0.38, -0.38]],
                               rtol=1e-6)
    assert ('operator = sgd_mom_update\ninput storage types = [row_sparse, default, '
            'row_sparse, ]') in capfd.readouterr().err
    w, (mean, var) = run('adam')
    np.testing.assert_allclose(mean.asnumpy(), [[0.19, 0.19], [0, 0], [0.38, 0.38]], rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy()[2], [0.7, 0.8], rtol=1e-5)


def test_operators_native_for_some_sparse_inputs_do_not_warn(capfd):
    # recorded from 1.9.1: no storage fallback for these
    y, err = _logged(capfd, lambda: nd.elemwise_div(_rsp(), nd.ones((3, 2))))
    assert 'fallback' not in err and y.asnumpy().tolist() == [[1, 2], [0, 0], [3, 4]]
    y, err = _logged(capfd, lambda: nd.where(_csr(), _dense(), nd.zeros((3, 2))))
    assert 'fallback' not in err and y.asnumpy().tolist() == [[0, 1], [2, 0], [0, 0]]
    y, err = _logged(capfd, lambda: nd.elemwise_div(_dense(), _rsp()))
    assert 'fallback' not in err and y.asnumpy()[1].tolist() == [np.inf, np.inf]
