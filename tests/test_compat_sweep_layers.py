"""Regressions from a compatibility sweep of Gluon layers, blocks, RNN cells and the model zoo
against MXNet 1.9.1. Literal expected values were recorded from 1.9.1 where noted."""
import io
import contextlib
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import nn, rnn
from mxnet.gluon.model_zoo import vision


def _dense_chain():
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=3), nn.Dense(2, in_units=3), nn.Dense(3, in_units=3))
    return net


@pytest.fixture
def saved_chain(tmp_path):
    net = _dense_chain()
    net.initialize()
    path = str(tmp_path / "chain.params")
    net.save_parameters(path)
    return net, path


# -- load_parameters: dtype and shape checks -----------------------------------------------------

def test_load_parameters_dtype_mismatch_needs_cast_dtype(saved_chain):
    _, path = saved_chain
    net = _dense_chain()
    net.cast("float64")
    # 1.9.1: AssertionError "... dtype incompatible expected float64 vs saved <class
    # 'numpy.float32'>. Set cast_dtype=True ..."
    with pytest.raises(AssertionError, match="cast_dtype=True"):
        net.load_parameters(path)


def test_load_parameters_cast_dtype_current_and_saved(saved_chain):
    src, path = saved_chain
    net = _dense_chain()
    net.cast("float64")
    net.load_parameters(path, cast_dtype=True)
    assert net[0].weight.data().dtype == np.float64
    np.testing.assert_allclose(net[0].weight.data().asnumpy(), src[0].weight.data().asnumpy())
    # dtype_source='saved': the parameter takes the file's dtype (float32 in 1.9.1)
    net2 = _dense_chain()
    net2.cast("float64")
    net2.load_parameters(path, cast_dtype=True, dtype_source="saved")
    assert net2[0].weight.data().dtype == np.float32


def test_load_parameters_bad_dtype_source(saved_chain):
    _, path = saved_chain
    with pytest.raises(AssertionError):   # an assert in 1.9.1
        _dense_chain().load_parameters(path, cast_dtype=True, dtype_source="foo")


def test_load_parameters_shape_mismatch(saved_chain):
    _, path = saved_chain
    net = nn.HybridSequential()
    net.add(nn.Dense(4, in_units=3), nn.Dense(2, in_units=3), nn.Dense(3, in_units=3))
    with pytest.raises(AssertionError, match="shape incompatible"):
        net.load_parameters(path)


# -- save_parameters(deduplicate=True) ----------------------------------------------------------

def test_deduplicate_keeps_last_name_and_loads_back(tmp_path):
    shared = nn.Dense(3, in_units=3)
    net = nn.HybridSequential()
    net.add(shared, nn.Dense(2, in_units=3), shared)
    net.initialize()
    path = str(tmp_path / "tied.params")
    net.save_parameters(path, deduplicate=True)
    # recorded from 1.9.1
    assert list(nd.load(path).keys()) == ["2.weight", "2.bias", "1.weight", "1.bias"]
    shared2 = nn.Dense(3, in_units=3)
    net2 = nn.HybridSequential()
    net2.add(shared2, nn.Dense(2, in_units=3), shared2)
    net2.load_parameters(path)   # every name of a shared parameter counts as present
    np.testing.assert_array_equal(net2[0].weight.data().asnumpy(),
                                  net[0].weight.data().asnumpy())
    with pytest.raises(AssertionError, match="'0.weight' is missing"):
        _dense_chain().load_parameters(path)


# -- ParameterDict.load ---------------------------------------------------------------------------

def test_parameterdict_load_restore_prefix_must_match(tmp_path):
    net = _dense_chain()
    net.initialize()
    path = str(tmp_path / "pd.params")
    net.collect_params().save(path)
    # 1.9.1: AssertionError "restore_prefix is 'zz' but Parameters name ... does not start ..."
    with pytest.raises(AssertionError, match="restore_prefix"):
        _dense_chain().collect_params().load(path, restore_prefix="zz")
    with pytest.raises(AssertionError, match="which contains parameters"):
        _dense_chain().collect_params().load(path)


# -- symbolic calls reuse one variable per parameter ---------------------------------------------

def test_shared_block_called_twice_on_symbols():
    d = nn.Dense(3, prefix="d_")
    y = d(d(mx.sym.var("data")))
    assert y.list_arguments() == ["data", "d_weight", "d_bias"]   # recorded from 1.9.1


def test_cell_unrolled_on_symbols_has_one_node_per_parameter():
    cell = rnn.LSTMCell(4, prefix="lstm_")
    outs, _ = cell.unroll(3, mx.sym.var("data"), layout="NTC", merge_outputs=True)
    # recorded from 1.9.1
    assert outs.list_arguments() == ["data", "lstm_i2h_weight", "lstm_i2h_bias",
                                     "lstm_h2h_weight", "lstm_h2h_bias"]
    assert outs.infer_shape(data=(2, 3, 5))[1] == [(2, 3, 4)]


# -- hooks and summary ----------------------------------------------------------------------------

def test_two_forward_hooks_both_run():
    d = nn.Dense(2, in_units=2)
    d.initialize()
    calls = []
    h1 = d.register_forward_hook(lambda b, i, o: calls.append("a"))
    d.register_forward_hook(lambda b, i, o: calls.append("b"))
    d.register_forward_pre_hook(lambda b, i: calls.append("pre1"))
    d.register_forward_pre_hook(lambda b, i: calls.append("pre2"))
    d(nd.ones((1, 2)))
    assert calls == ["pre1", "pre2", "a", "b"]
    h1.detach()
    calls.clear()
    d(nd.ones((1, 2)))
    assert calls == ["pre1", "pre2", "b"]


def _summary_lines(block, *inputs):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        block.summary(*inputs)
    return buf.getvalue().splitlines()


def test_summary_shared_layer_in_sequential():
    dd = nn.Dense(3, in_units=3)
    seq = nn.Sequential()
    seq.add(dd, dd)
    seq.initialize()
    lines = _summary_lines(seq, nd.ones((1, 3)))
    # recorded from 1.9.1: the shared layer's hook is registered once per child slot
    assert [ln.split()[0] for ln in lines if ln.strip().startswith("Dense-")] == \
        ["Dense-1", "Dense-2", "Dense-3", "Dense-4"]
    assert "   Total params: 48" in lines
    assert "Shared params in forward computation graph: 36" in lines
    assert "Unique parameters in model: 12" in lines


def test_resnet_v1_block_summary_order():
    b = vision.BasicBlockV1(8, 2, downsample=True, in_channels=4)
    b.initialize()
    lines = _summary_lines(b, nd.ones((1, 4, 6, 6)))
    rows = [ln.split() for ln in lines if "-" in ln.split()[0] and ln.split()[0][-1].isdigit()]
    # recorded from 1.9.1: the body runs before the downsample branch
    assert [(r[0], int(r[-1])) for r in rows] == [
        ("Conv2D-1", 288), ("BatchNorm-2", 32), ("Activation-3", 0), ("Conv2D-4", 576),
        ("BatchNorm-5", 32), ("Conv2D-6", 32), ("BatchNorm-7", 32), ("BasicBlockV1-8", 0)]


# -- unregistered containers of blocks ------------------------------------------------------------

class _ListHolder(gluon.Block):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(2), nn.Dense(3)]
        self.ok = [1, 2]
        self.d = nn.Dense(1)
        self.registered = [self.d]

    def forward(self, x):
        return self.d(x)


def test_unregistered_container_warning():
    blk = _ListHolder()
    with pytest.warns(UserWarning, match='"_ListHolder.layers" is an unregistered container'):
        params = blk.collect_params()
    assert len(list(params.keys())) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.HybridSequential().collect_params()
        rnn.LSTM(3).collect_params()


# -- SymbolBlock with the wrong number of inputs --------------------------------------------------

def test_symbolblock_wrong_input_count_is_value_error():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    out = mx.sym.FullyConnected(a, num_hidden=3, name="fc1") + \
        mx.sym.FullyConnected(b, num_hidden=3, name="fc2")
    sb = gluon.SymbolBlock(out, [a, b])
    sb.initialize()
    sb.hybridize()
    assert sb(nd.ones((2, 4)), nd.ones((2, 5))).shape == (2, 3)
    with pytest.raises(ValueError):   # ValueError in 1.9.1 (argument structure mismatch)
        sb(nd.ones((2, 4)))


# -- model zoo constructor errors: the exception types 1.9.1 raises -------------------------------

@pytest.mark.parametrize("call, exc, message", [
    (lambda: vision.get_resnet(3, 18), AssertionError, "Invalid resnet version"),
    (lambda: vision.get_resnet(1, 20), AssertionError, "Invalid number of layers: 20"),
    (lambda: vision.get_vgg(12), KeyError, "12"),
    (lambda: vision.densenet.get_densenet(100), KeyError, "100"),
    (lambda: vision.SqueezeNet("2.0"), AssertionError, "Unsupported SqueezeNet version"),
    (lambda: vision.VGG([1, 1], [64]), AssertionError, None),
    (lambda: vision.ResNetV1(vision.BasicBlockV1, [2, 2], [64, 64]), AssertionError, None),
    (lambda: vision.get_mobilenet(0.3, pretrained=True, root="/nonexistent_mx_models"),
     ValueError, "Pretrained model for mobilenet0.30 is not available"),
])
def test_model_zoo_error_types(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


# -- ParameterDict.load_dict and gluon.tensor_types ------------------------------------------------

def test_parameterdict_load_dict():
    net = nn.HybridSequential(prefix="ld_")
    with net.name_scope():
        net.add(nn.Dense(2, in_units=3), nn.Dense(1, in_units=2))
    net.initialize()
    arrs = {k: v.data() for k, v in net.collect_params().items()}
    net2 = nn.HybridSequential(prefix="ld_")
    with net2.name_scope():
        net2.add(nn.Dense(2, in_units=3), nn.Dense(1, in_units=2))
    pd = net2.collect_params()
    pd.load_dict({k[len("ld_"):]: v for k, v in arrs.items()}, restore_prefix="ld_")
    np.testing.assert_array_equal(net2[1].weight.data().asnumpy(),
                                  net[1].weight.data().asnumpy())
    # 1.9.1 raises AssertionError for both a missing and an extra name in load_dict
    with pytest.raises(AssertionError, match="is missing"):
        pd.load_dict({})
    with pytest.raises(AssertionError, match="'foo'"):
        pd.load_dict(dict(arrs, foo=nd.ones((1,))))
    pd.load_dict(dict(arrs, foo=nd.ones((1,))), ignore_extra=True)
    pd.load_dict({"arg:" + k: v for k, v in arrs.items()})


def test_tensor_types():
    assert gluon.tensor_types == (mx.sym.Symbol, nd.NDArray)


def test_optimize_for():
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=2))
    net.initialize(mx.init.One())
    with pytest.raises(ValueError, match="backend"):   # ValueError in 1.9.1
        net.optimize_for(nd.ones((1, 2)))
    assert net.optimize_for(nd.ones((1, 2)), backend="MKLDNN") is None
    assert net(nd.ones((1, 2))).asnumpy().tolist() == [[2.0, 2.0, 2.0]]


def test_parameter_private_stype_aliases():
    emb = nn.Embedding(6, 3, sparse_grad=True)
    # 1.9.1 keeps these as _grad_stype / _stype
    assert emb.weight._grad_stype == "row_sparse"
    assert emb.weight._stype == "default"


# -- BatchNorm moving statistics: the order of the backward pass ---------------------------------

def _bn_two_branch(loss_fn, heads_as_list=False):
    rs = np.random.RandomState(0)
    x1 = nd.array(rs.uniform(-1, 1, (2, 2, 3, 3)))
    x2 = nd.array(rs.uniform(-2, 2, (2, 2, 3, 3)))
    x3 = nd.array(rs.uniform(-3, 1, (2, 2, 3, 3)))
    bn = nn.BatchNorm(in_channels=2)
    bn.initialize()
    with mx.autograd.record():
        ys = [bn(x1), bn(x2), bn(x3)]
        loss = loss_fn(ys)
    if heads_as_list:
        mx.autograd.backward(loss)
    else:
        loss.backward()
    return bn.running_mean.data().asnumpy()


@pytest.mark.parametrize("loss_fn, heads_as_list, expected", [
    # 1.9.1 updates the moving statistics in BatchNorm's backward and runs the
    # last-recorded independent branch first (values recorded from 1.9.1)
    (lambda ys: ys[0].sum() + (ys[1] * 2).sum(), False, [0.005817, -0.026556]),
    (lambda ys: (ys[1] * 2).sum() + ys[0].sum(), False, [0.000965, -0.029013]),
    (lambda ys: ys[0].sum() + ys[1].sum() + ys[2].sum(), False, [-0.106896, -0.111797]),
    (lambda ys: ys[2].sum() + (ys[1].sum() + ys[0].sum()), False, [-0.138283, -0.131347]),
    (lambda ys: nd.add_n(ys[1], ys[0], ys[2]).sum(), False, [-0.111748, -0.114254]),
    (lambda ys: [ys[0].sum(), ys[2].sum(), ys[1].sum()], True, [-0.117397, -0.118846]),
])
def test_batchnorm_moving_stats_backward_order(loss_fn, heads_as_list, expected):
    got = _bn_two_branch(loss_fn, heads_as_list)
    np.testing.assert_allclose(got, expected, atol=2e-6)


def test_parameter_dtype_as_given():
    # recorded from 1.9.1: Parameter.dtype is the value given to the constructor or cast()
    bn = nn.BatchNorm(in_channels=2)
    assert [p.dtype for p in bn.collect_params().values()] == [np.float32] * 4
    bn.cast("float16")   # BatchNorm keeps float32 statistics, named as a string
    assert [p.dtype for p in bn.collect_params().values()] == ["float32"] * 4
    d = nn.Dense(2)
    assert (d.weight.dtype, d.bias.dtype) == ("float32", "float32")
    d.cast(np.float16)
    assert d.weight.dtype is np.float16
    lstm = rnn.LSTM(2, prefix="lstmdt_")
    assert lstm.collect_params()["lstmdt_l0_i2h_weight"].dtype == "float32"
    assert gluon.Parameter("x", shape=(1,)).dtype is np.float32
    net = nn.Dense(2, in_units=2)
    net.initialize()
    net.cast("float64")
    assert net.weight.dtype == "float64" and net.weight.data().dtype == np.float64
    assert net(nd.ones((1, 2), dtype="float64")).dtype == np.float64
