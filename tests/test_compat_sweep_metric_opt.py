"""Compatibility sweep (metrics, optimizers, learning-rate schedulers and initializers as user
scripts call them). Expected values were recorded from MXNet 1.9.1 unless a test says
otherwise."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import nd
from mxnet.ndarray import _fallback_log


# ------------------------------------------------------------------ initializers

def test_bilinear_lays_the_kernel_over_dims_2_and_3():
    a = nd.zeros((1, 1, 2, 3, 2))
    mx.init.Bilinear()(mx.init.InitDesc('up_weight'), a)
    # recorded from 1.9.1: the kernel's period is shape[3] along x and shape[2] along y
    assert np.allclose(a.asnumpy().ravel(), [0.0625, 0.1875, 0.1875, 0.1875, 0.5625, 0.5625,
                                             0.0625, 0.1875, 0.1875, 0.1875, 0.5625, 0.5625])
    a = nd.zeros((2, 1, 3, 2))
    mx.init.Bilinear()(mx.init.InitDesc('up_weight'), a)
    assert a.asnumpy().ravel().tolist() == [1, 0, 0, 0, -1, 0] * 2   # recorded from 1.9.1


@pytest.mark.parametrize('shape', [(3, 2), (2, 2, 4)])
def test_bilinear_on_a_weight_below_4_d_raises(shape):
    a = nd.zeros(shape)
    # 1.9.1 fails with "IndexError: tuple index out of range"
    with pytest.raises(IndexError, match='Bilinear'):
        mx.init.Bilinear()(mx.init.InitDesc('fc_weight'), a)
    with pytest.raises(mx.base.MXNetError):
        mx.init.Bilinear()(mx.init.InitDesc('fc_weight'), a)


# ------------------------------------------------------------------ optimizer states

def _state_stypes(state):
    if state is None:
        return None
    if isinstance(state, (tuple, list)):
        return [_state_stypes(s) for s in state]
    return (state.shape, state.stype)


@pytest.mark.parametrize('name, kw, expected', [
    # recorded from 1.9.1: these optimizers make states of the weight's storage type
    ('rmsprop', {}, [((5, 3), 'row_sparse')]),
    ('signum', {}, ((5, 3), 'row_sparse')),
    ('groupadagrad', {}, ((5, 1), 'row_sparse')),
    ('nag', {'momentum': 0.9}, ((5, 3), 'default')),
    ('sgd', {'momentum': 0.9, 'lazy_update': False}, ((5, 3), 'default')),
])
def test_states_of_row_sparse_weights(name, kw, expected):
    o = mx.optimizer.create(name, learning_rate=0.1, **kw)
    w = nd.ones((5, 3)).tostype('row_sparse')
    assert _state_stypes(o.create_state(0, w)) == expected


def test_dense_update_of_a_row_sparse_weight_logs_its_output_stype(capfd):
    np.random.seed(2)
    w0 = np.random.rand(5, 3).astype('float32')
    gd = np.zeros((5, 3), dtype='float32')
    gd[[1, 3]] = np.random.rand(2, 3)
    o = mx.optimizer.create('rmsprop', learning_rate=0.1, wd=0.01)
    w = nd.array(w0).tostype('row_sparse')
    st = o.create_state(0, w)
    _fallback_log._seen.clear()
    capfd.readouterr()
    o.update(0, w, nd.array(gd).tostype('row_sparse'), st)
    err = capfd.readouterr().err
    # recorded from 1.9.1
    assert ('operator = rmsprop_update\ninput storage types = [row_sparse, row_sparse, '
            'row_sparse, ]\noutput storage types = [row_sparse, ]\nparams = {"rescale_grad" : '
            '1.0, "epsilon" : 1e-08, "gamma1" : 0.9, "wd" : 0.01, "lr" : 0.1, }') in err
    assert w.stype == 'row_sparse'
    assert np.allclose(w.asnumpy()[:2], [[0.1206, -0.17457, 0.23396],   # recorded from 1.9.1
                                         [0.11909, 0.10414, 0.01411]], atol=1e-5)


# ------------------------------------------------------------------ gluon initialization

@pytest.mark.parametrize('how', ['init', 'param_init', 'default_init', 'block'])
def test_initializing_with_a_non_initializer_raises_assertion_error(how):
    p = mx.gluon.Parameter('w', shape=(2, 3), init=3.5 if how == 'param_init' else None)
    # 1.9.1: "AssertionError: initializer must be of string type" (from the registry)
    with pytest.raises(AssertionError, match='initializer must be of string type'):
        if how == 'init':
            p.initialize(5)
        elif how == 'param_init':
            p.initialize()
        elif how == 'default_init':
            p.initialize(None, None, 7)
        else:
            mx.gluon.nn.Dense(2, in_units=2).initialize(5)


# ------------------------------------------------------------------ metrics

def test_pcc_update_with_empty_arrays_raises_mxnet_error():
    m = mx.metric.PCC()
    # 1.9.1 raises an MXNetError (its shape inference rejects 0-size arrays)
    with pytest.raises(mx.base.MXNetError, match='PCC.update'):
        m.update([nd.array(np.zeros((0,)))], [nd.array(np.zeros((0, 2)))])
    m.update([nd.array([1, 1, 0])], [nd.array([[0.3, 0.7], [0.2, 0.8], [0.6, 0.4]])])
    assert m.get() == ('pcc', 1.0)


def test_pcc_pairs_predictions_and_labels_as_1_9_1_does():
    p = nd.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.6, 0.3, 0.1], [0.3, 0.3, 0.4]])
    lab = nd.array([1, 2, 0, 0])
    # values recorded from 1.9.1
    m = mx.metric.PCC()
    m.update([lab], [p.reshape((4, 3, 1))])    # argmax leaves (4, 1): one row per sample
    assert m.get()[1] == pytest.approx(0.7)
    m = mx.metric.PCC()
    m.update([lab], [p[:3]])                   # the extra label is left out
    assert m.get() == ('pcc', 1.0)
    m = mx.metric.PCC()
    m.update([lab.reshape((2, 2))], [p])
    assert m.get() == ('pcc', 0.0)


@pytest.mark.parametrize('wst', ['default', 'row_sparse'])
def test_group_adagrad_with_row_sparse_grads_is_quiet(wst, capfd):
    np.random.seed(2)
    w0 = np.random.rand(5, 3).astype('float32')
    gd = np.zeros((5, 3), dtype='float32')
    gd[[1, 3]] = np.random.rand(2, 3)
    o = mx.optimizer.create('groupadagrad', learning_rate=0.1, rescale_grad=0.5,
                            clip_gradient=0.3)
    w = nd.array(w0).tostype(wst)
    st = o.create_state(0, w)
    _fallback_log._seen.clear()
    capfd.readouterr()
    for i in range(2):
        o.update(0, w, nd.array(gd * (i + 1)).tostype('row_sparse'), st)
    assert 'fallback' not in capfd.readouterr().err   # 1.9.1 runs a row-sparse kernel
    assert (w.stype, st.stype) == (wst, wst)
    # recorded from 1.9.1
    expected = w0.copy()
    expected[1] = [0.25682, 0.24186, 0.17048]
    expected[3] = [0.04615, 0.58004, 0.32928]
    assert np.allclose(w.asnumpy(), expected, atol=1e-5)
    assert np.allclose(st.asnumpy().ravel(), [0, 0.17036, 0, 0.11392, 0], atol=1e-5)


def test_multi_lamb_update_on_row_sparse_arrays_logs_keywords_in_given_order(capfd):
    np.random.seed(2)
    ws = [nd.array(np.random.rand(4, 3)).tostype('row_sparse') for _ in range(2)]
    gs = [nd.array(np.random.rand(4, 3)).tostype('row_sparse') for _ in range(2)]
    ms = [nd.zeros((4, 3)).tostype('row_sparse') for _ in range(2)]
    vs = [nd.zeros((4, 3)).tostype('row_sparse') for _ in range(2)]
    _fallback_log._seen.clear()
    capfd.readouterr()
    nd.contrib.multi_lamb_update(ws, gs, ms, vs, step_count=[1, 1], lrs=[0.1, 0.1],
                                 wds=[0.0, 0.0], out=ws, beta1=0.9, epsilon=1e-6,
                                 rescale_grad=0.5)
    err = capfd.readouterr().err
    # recorded from 1.9.1 (its list-input front end keeps the keywords' order)
    assert ('operator = _multi_lamb_update\ninput storage types = [' + 'row_sparse, ' * 8
            + ']\noutput storage types = [row_sparse, row_sparse, ]\nparams = {"rescale_grad" : '
            '0.5, "epsilon" : 1e-06, "beta1" : 0.9, "wds" : [0.0, 0.0], "learning_rates" : '
            '[0.1, 0.1], "step_count" : [1, 1], "num_tensors" : 2, }') in err
    assert [w.stype for w in ws] == ['row_sparse', 'row_sparse']
    assert np.allclose(ws[0].asnumpy().ravel()[:3], [0.393, -0.0171, 0.5066], atol=1e-4)
