"""Symbol API compatibility sweep: the methods users call on mx.sym graphs.

Expected values were recorded from MXNet 1.9.1 unless a test says otherwise.
"""
import json
import math

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _signs(values):
    return [math.copysign(1.0, v) for v in values]


def test_float_mod_zero_keeps_the_dividend_sign():
    x = mx.nd.array([3., -3, 0, 6, -6, 2.5])
    # recorded from 1.9.1: a zero remainder is +0 unless both operands are negative
    want = [0.0, -0.0, 0.0, 0.0, -0.0, -0.5]
    got = (x % -3).asnumpy().tolist()
    assert got == want and _signs(got) == _signs(want)
    got = mx.nd.broadcast_mod(x, mx.nd.array([-3.])).asnumpy().tolist()
    assert _signs(got) == _signs(want)
    got = (3 % x).asnumpy().tolist()   # _rmod_scalar
    assert got == [0.0, 0.0, 0.0, 3.0, -3.0, 0.5]
    assert _signs(got) == [1.0, 1.0, 1.0, 1.0, -1.0, 1.0]
    s = 3 % mx.sym.var('x')
    got = s.eval(x=mx.nd.array([1., 2., -3.]))[0].asnumpy().tolist()
    assert got == [0.0, 1.0, 0.0] and _signs(got) == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("bad", [-1, 2])
def test_boolean_parameter_rejects_other_integers(bad):
    x = mx.sym.var('x')
    # 1.9.1: Invalid Parameter format for reverse expect boolean but value='-1'
    with pytest.raises(MXNetError, match="reverse"):
        mx.sym.reshape(x, shape=(24,), reverse=bad)
    with pytest.raises(MXNetError, match="reverse"):
        mx.nd.reshape(mx.nd.ones((2, 3)), shape=(6,), reverse=bad)


def test_reshape_with_numpy_style_positional_shape_is_an_error():
    # x.reshape(2, -1) passes shape=2, reverse=-1 in 1.9.1, which rejects reverse=-1
    with pytest.raises(MXNetError, match="reverse"):
        mx.sym.var('x').reshape(2, -1)
    for ok in (0, 1, True, "true", "1"):
        s = mx.sym.reshape(mx.sym.var('x'), shape=(24,), reverse=ok)
        assert s.infer_shape(x=(2, 4, 3))[1] == [(24,)]


def _versioned(version):
    doc = json.loads((mx.sym.var('x') * 2).tojson())
    if version is None:
        doc.pop('attrs')
    else:
        doc['attrs'] = {'mxnet_version': ['int', version]}
    return json.dumps(doc)


@pytest.mark.parametrize("version,lines", [
    # recorded from 1.9.1 (stderr, after the "[HH:MM:SS] " prefix)
    (None, ["../src/nnvm/legacy_json_util.cc:208: Loading symbol saved by previous version "
            "v0.8.0. Attempting to upgrade...",
            "../src/nnvm/legacy_json_util.cc:216: Symbol successfully upgraded!"]),
    (10600, ["../src/nnvm/legacy_json_util.cc:208: Loading symbol saved by previous version "
             "v1.6.0. Attempting to upgrade...",
             "../src/nnvm/legacy_json_util.cc:216: Symbol successfully upgraded!"]),
    (905, ["../src/nnvm/legacy_json_util.cc:208: Loading symbol saved by previous version "
           "v0.9.5. Attempting to upgrade...",
           "../src/nnvm/legacy_json_util.cc:216: Symbol successfully upgraded!"]),
    (10901, []),
    (20000, ["../src/nnvm/legacy_json_util.cc:203: Warning: loading symbol saved by MXNet "
             "version 20000 with lower version of MXNet v10901. May cause undefined behavior. "
             "Please update MXNet if you encounter any issue"]),
])
def test_load_json_logs_the_version_upgrade(capsys, version, lines):
    s = mx.sym.load_json(_versioned(version))
    assert s.list_arguments() == ['x']
    assert json.loads(s.tojson())['attrs'] == {'mxnet_version': ['int', 10901]}
    err = [ln.split('] ', 1)[1] for ln in capsys.readouterr().err.splitlines()
           if 'legacy_json_util' in ln]
    assert err == lines


def test_save_and_load_reject_non_string_names():
    with pytest.raises(TypeError, match="fname need to be string"):
        mx.sym.var('x').save(123)
    with pytest.raises(TypeError, match="fname required to be string"):
        mx.sym.load(3)


@pytest.mark.parametrize("args,msg", [
    # recorded from 1.9.1 (init_op.h)
    ((5, 1), "Invalid range (start, stop, step) = (5,1,1)"),
    ((3, 3), "Invalid range (start, stop, step) = (3,3,1)"),
    ((1, 5, -1), "Invalid range (start, stop, step)= (1,5,-1)"),
])
def test_symbolic_arange_rejects_an_empty_range(args, msg):
    s = mx.sym.arange(*args)
    with pytest.raises(MXNetError) as e:
        s.infer_shape()
    assert msg in str(e.value)
    assert mx.sym.arange(5, 1, -1).infer_shape()[1] == [(4,)]
    assert mx.sym.arange(0, 1, 0.3).infer_shape()[1] == [(4,)]


class _Sq(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * in_data[0] * float(self.scale))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0] * float(self.scale))


@mx.operator.register('sweep_symapi_sq')
class _SqProp(mx.operator.CustomOpProp):
    def __init__(self, scale='1.0', **kwargs):
        super().__init__(need_top_grad=True)
        self.scale = scale

    def list_arguments(self):
        return ['data']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        op = _Sq()
        op.scale = self.scale
        return op


def test_custom_keywords_survive_a_json_round_trip(recwarn):
    x = mx.sym.var('x')
    c = mx.sym.Custom(x, op_type='sweep_symapi_sq', scale=2, name='sq')
    loaded = mx.sym.load_json(c.tojson())
    assert loaded.attr('scale') == '2'
    # recorded from 1.9.1: [2.0, 8.0] (the scale is kept)
    assert loaded.eval(x=mx.nd.array([1., 2.]))[0].asnumpy().tolist() == [2.0, 8.0]
    assert not [w for w in recwarn if 'ignoring parameters' in str(w.message)]


def test_custom_list_attr_order():
    x = mx.sym.var('x')
    op = 'sweep_symapi_sq'
    # recorded from 1.9.1 (the keywords in the order given, listed back to front)
    assert list(mx.sym.Custom(x, op_type=op, scale=2).list_attr()) == ['scale', 'op_type']
    assert list(mx.sym.Custom(x, scale=2, op_type=op).list_attr()) == ['op_type', 'scale']
    assert list(mx.sym.Custom(x, zz=1, op_type=op, aa=3, mm='q').list_attr()) == \
        ['mm', 'aa', 'op_type', 'zz']
    with mx.AttrScope(ctx_group='g'):
        got = mx.sym.Custom(data=x, op_type=op, alpha=0.5, name='named').list_attr()
    assert list(got) == ['__ctx_group__', 'ctx_group', 'alpha', 'op_type']


def test_optimize_for_and_backend_symbols(capsys):
    x = mx.sym.var('x')
    s = x * 2
    with pytest.raises(AssertionError):   # 1.9.1: assert isinstance(backend, str)
        x.optimize_for(None)
    out = s.optimize_for('nonexistent_backend')
    assert out.tojson() == s.tojson()
    err = capsys.readouterr().err
    # recorded from 1.9.1
    assert ("../src/c_api/c_api_symbolic.cc:1555: Error optimizing for backend "
            "'nonexistent_backend' cannot be found") in err
    with pytest.raises(MXNetError, match="SubgraphProperty nonexistent is not found in "
                                         "SubgraphBackendRegistry"):
        s.get_backend_symbol('nonexistent')
    assert s.get_backend_symbol('MKLDNN').list_arguments() == ['x']
    s.optimize_for('MKLDNN')
    assert 'cannot be found' not in capsys.readouterr().err


@pytest.mark.parametrize("make", [
    lambda x: x * 2, lambda x: x + 1, lambda x: 1 - x, lambda x: x / 2, lambda x: x > 0,
    lambda x: -x, lambda x: x % 2, lambda x: 2 ** x,
])
def test_scalar_ops_type_a_boolean_input_as_int64(make):
    s = make(mx.sym.var('x'))
    # recorded from 1.9.1: infer_type(x='bool') gives int64 outputs, as eval computes
    assert s.infer_type(x='bool')[1] == [np.int64]
    out = s.eval(x=mx.nd.array([True, False], dtype='bool'))[0]
    assert out.dtype == np.int64
    assert s.infer_type(x='float16')[1] == [np.float16]


def test_legacy_infer_shape_reads_minus_one_as_unknown():
    a = mx.sym.var('a')
    # recorded from 1.9.1: -1 is an unknown dimension outside NumPy shape semantics
    with pytest.warns(UserWarning, match="Cannot decide shape"):
        assert (a + 1).infer_shape(a=(2, -1)) == (None, None, None)
    assert (a + 1).infer_shape_partial(a=(2, -1)) == ([(2, 0)], [(2, 0)], [])
    assert (a * 2).infer_shape_partial(a=()) == ([()], [()], [])


def test_infer_shape_under_numpy_shape_semantics():
    a = mx.sym.var('a')
    fc = mx.sym.FullyConnected(a, num_hidden=2, name='fc')
    with mx.np_shape(True):
        # recorded from 1.9.1: 0 is a known size, -1 unknown, unknown shapes are None
        assert (a + 1).infer_shape(a=(2, 0)) == ([(2, 0)], [(2, 0)], [])
        assert mx.sym.sum(a, axis=1).infer_shape(a=(0, 3)) == ([(0, 3)], [(0,)], [])
        assert fc.infer_shape(a=(0, 3)) == ([(0, 3), (2, 3), (2,)], [(0, 2)], [])
        assert fc.infer_shape_partial() == ([None, None, None], [None], [])
        assert (a + 1).infer_shape_partial(a=(2, -1)) == ([(2, -1)], [(2, -1)], [])
        with pytest.warns(UserWarning, match=r"a: \(2, -1\)"):
            assert (a + 1).infer_shape(a=(2, -1)) == (None, None, None)
        assert (mx.sym.var('z', shape=(0, 2)) * 2).infer_shape() == ([(0, 2)], [(0, 2)], [])
        assert (a * 2).infer_shape(a=()) == ([()], [()], [])
        ex = fc.simple_bind(mx.cpu(), a=(0, 3))
        assert [v.shape for v in ex.arg_arrays] == [(0, 3), (2, 3), (2,)]
        assert mx.nd.zeros((0, 3)).shape == (0, 3)


def test_gluon_np_mode_zero_batch_with_deferred_shapes():
    from mxnet import np as mnp, npx
    npx.set_np()
    try:
        net = mx.gluon.nn.Dense(3)
        net.initialize()
        assert net.weight.var().attr('__shape__') == '(3, -1)'   # as 1.9.1 writes it
        net.hybridize()
        # recorded from 1.9.1: (0, 3) and the weight's shape (3, 4)
        assert net(mnp.ones((0, 4))).shape == (0, 3)
        assert net.weight.shape == (3, 4)
        conv = mx.gluon.nn.Conv2D(2, 3, padding=1, in_channels=1)
        conv.initialize()
        assert conv(mnp.ones((1, 1, 4, 4))).shape == (1, 2, 4, 4)
    finally:
        npx.reset_np()


def test_var_with_an_unknown_storage_type_is_a_key_error():
    with pytest.raises(KeyError):   # 1.9.1: KeyError 'foo'
        mx.sym.var('v', stype='foo')


def test_pre_0_9_json_gains_its_auxiliary_state_variables(capsys):
    nodes = [
        {"op": "null", "param": {}, "name": "data", "inputs": []},
        {"op": "null", "param": {}, "name": "bn_gamma", "inputs": []},
        {"op": "null", "param": {}, "name": "bn_beta", "inputs": []},
        {"op": "BatchNorm", "param": {"eps": "0.001", "fix_gamma": "True"}, "name": "bn",
         "inputs": [[0, 0], [1, 0], [2, 0]]},
    ]
    doc = {"nodes": nodes, "arg_nodes": [0, 1, 2], "heads": [[3, 0]]}
    s = mx.sym.load_json(json.dumps(doc))
    # recorded from 1.9.1: the upgrade makes bn_moving_mean/var from the node's attributes
    assert s.list_arguments() == ['data', 'bn_gamma', 'bn_beta']
    assert s.list_auxiliary_states() == ['bn_moving_mean', 'bn_moving_var']
    d = s.attr_dict()
    assert d['bn_moving_mean'] == {'__init__': '["zero", {}]', 'eps': '0.001',
                                   'fix_gamma': 'True'}
    assert d['bn_moving_var']['__init__'] == '["one", {}]'
    assert s.infer_shape(data=(2, 3))[2] == [(3,), (3,)]
    assert 'Symbol successfully upgraded!' in capsys.readouterr().err


def test_sampling_output_type_waits_for_the_parameters():
    mu, sd = mx.sym.var('mu'), mx.sym.var('sd')

    def names(types):
        return [None if t is None else np.dtype(t).name for t in types]

    # recorded from 1.9.1 (infer_type_partial)
    s = mx.sym.random.normal(mu, sd)
    assert names(s.infer_type_partial()[1]) == [None]
    assert names(s.infer_type_partial(mu='float64')[1]) == ['float32']
    s = mx.sym.random.normal(mu, sd, dtype='float16')
    assert names(s.infer_type_partial()[1]) == [None]
    assert names(s.infer_type_partial(mu='float64')[1]) == ['float16']
    s = mx.sym.random.multinomial(mu, get_prob=True)
    assert names(s.infer_type_partial()[1]) == [None, None]
    assert names(s.infer_type_partial(mu='float16')[1]) == ['int32', 'float16']


def test_debug_str_of_an_operator_without_inputs():
    # recorded from 1.9.1
    assert mx.sym.zeros((2,)).debug_str() == 'AtomicFunctor  Op:_zeros\n'
    assert mx.sym.arange(3).debug_str() == 'AtomicFunctor  Op:_arange\n'
    assert mx.sym.random.uniform(shape=(2,)).debug_str() == 'AtomicFunctor  Op:_random_uniform\n'
    assert mx.sym.Group([mx.sym.full((2,), 3)]).debug_str() == 'AtomicFunctor  Op:_full\n'
    z = mx.sym.zeros((2,), name='z')
    assert (z + 1).debug_str().startswith('Symbol Outputs:\n\toutput[0]=_plusscalar')
    assert mx.sym.Group([z, mx.sym.var('x')]).debug_str() == (
        'Symbol Outputs:\n\toutput[0]=z(0)\n\toutput[1]=x(0)\n--------------------\n'
        'Op:_zeros, Name=z\nInputs:\nAttrs:\n\tdtype=float32\n\tshape=(2,)\nVariable:x\n')


def test_grouped_symbol_as_an_operator_input_names_the_operator():
    x = mx.sym.var('x')
    g = mx.sym.Group([x * 2, x])
    # 1.9.1: MXNetError "... Keyword Argument data is a tuple, single value is required"
    for make in (mx.sym.relu, lambda s: s + 1, lambda s: s.reshape((1, 2))):
        with pytest.raises(MXNetError, match="tuple with 2 elements"):
            make(g)


def test_infer_shape_dimensions_must_be_integers_of_at_least_minus_one(capsys):
    s = mx.sym.var('x') * 2
    # recorded from 1.9.1: TypeError 'float' object cannot be interpreted as an integer
    for bad in ((2.0, 3), (2.5, 3)):
        with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
            s.infer_shape(x=bad)
        with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
            s.simple_bind(mx.cpu(), x=bad)
    # recorded from 1.9.1: shape dim size must be >= -1, while received -5
    with pytest.raises(MXNetError, match="must be >= -1, while received -5"):
        s.infer_shape(x=(2, -5))
    assert capsys.readouterr().out == "infer_shape error. Arguments:\n  x: (2, -5)\n"
    with pytest.raises(MXNetError, match="must be >= -1"):
        s.infer_shape_partial(x=(2, -2))
    assert s.infer_shape(x=(np.int64(2), np.int32(3)))[1] == [(2, 3)]
