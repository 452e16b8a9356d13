"""Compatibility sweep: the Gluon Block API as users print, configure and inspect it.

Expected texts and values were recorded from MXNet 1.9.1 unless a comment says otherwise.
"""
import pytest

import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import nn


# --- ParameterDict.get on an existing parameter that does not fit the request -------------

@pytest.mark.parametrize("kwargs, text", [
    # recorded from 1.9.1
    ({"shape": (2, 3)}, "Cannot retrieve Parameter 'pp_a' because desired attribute does not "
                        "match with stored for attribute 'shape': desired '(2, 3)' vs stored "
                        "'(1, 3)'."),
    ({"shape": (1,)}, "Cannot retrieve Parameter 'pp_a' because desired attribute does not match "
                      "with stored for attribute 'shape': desired '(1,)' vs stored '(1, 3)'."),
    ({"dtype": "float16"}, "Cannot retrieve Parameter 'pp_a' because desired attribute does not "
                           "match with stored for attribute 'dtype': desired 'float16' vs stored "
                           "'<class 'numpy.float32'>'."),
    ({"lr_mult": 1.0}, "Cannot retrieve Parameter 'pp_a' because desired attribute does not "
                       "match with stored for attribute 'lr_mult': desired '1.0' vs stored "
                       "'2.0'."),
    ({"grad_req": "null"}, "Cannot retrieve Parameter 'pp_a' because desired attribute does not "
                           "match with stored for attribute 'grad_req': desired 'null' vs stored "
                           "'write'."),
])
def test_parameterdict_get_mismatch_message(kwargs, text):
    pd = gluon.ParameterDict("pp_")
    pd.get("a", shape=(1, 3), lr_mult=2.0)
    with pytest.raises(AssertionError) as info:
        pd.get("a", **kwargs)
    assert str(info.value) == text


def test_parameterdict_get_compatible_requests_pass():
    pd = gluon.ParameterDict("pp_")
    p = pd.get("a", shape=(1, 3), lr_mult=2.0)
    # unknown dims and equal attributes are a match (1.9.1)
    assert pd.get("a", shape=(0, 3)) is p and p.shape == (1, 3)
    assert pd.get("a", wd_mult=1.0, dtype="float32") is p
    q = pd.get("b", shape=(0, 3))
    assert pd.get("b", shape=(4, 3)) is q and q.shape == (4, 3)
    with pytest.raises(AssertionError, match=r"desired '\(4, 5\)' vs stored '\(4, 3\)'"):
        pd.get("b", shape=(4, 5))


# --- an operator's input slot given something that is not an NDArray ----------------------

@pytest.mark.parametrize("call, text", [
    # recorded from 1.9.1 (the first line of the message)
    (lambda x, w, b: nd.FullyConnected([x], w, b, num_hidden=2),
     "Argument data must have NDArray type, but got ["),
    (lambda x, w, b: nd.FullyConnected(x, [w], b, num_hidden=2),
     "Argument weight must have NDArray type, but got ["),
    (lambda x, w, b: nd.FullyConnected(1.0, w, b, num_hidden=2),
     "Argument data must have NDArray type, but got 1.0"),
    (lambda x, w, b: nd.Convolution([x], w, kernel=(1,), num_filter=1),
     "Argument data must have NDArray type, but got ["),
])
def test_non_ndarray_input_of_an_op_with_optional_inputs(call, text):
    x, w, b = nd.ones((1, 2)), nd.ones((2, 2)), nd.ones((2,))
    with pytest.raises(AssertionError) as info:
        call(x, w, b)
    assert str(info.value).startswith(text)


def test_dense_called_with_a_list_names_the_data_argument():
    d = nn.Dense(2, in_units=2)
    d.initialize()
    with pytest.raises(AssertionError, match="^Argument data must have NDArray type, but got"):
        d([nd.ones((1, 2))])
    # positional parameters after the inputs still work
    out = nd.FullyConnected(nd.ones((1, 2)), nd.ones((3, 2)), nd.ones((3,)), 3)
    assert out.asnumpy().tolist() == [[3.0, 3.0, 3.0]]


def test_parameterdict_load_missing_lists_names_briefly(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Dense(3, in_units=4), nn.BatchNorm(in_channels=3), nn.Dense(2, in_units=3))
    net.initialize()
    f = str(tmp_path / "m.params")
    nd.save(f, {k: v.data() for k, v in net.collect_params().items()})
    other = gluon.ParameterDict("zz_")
    other.get("w", shape=(1,))
    with pytest.raises(AssertionError) as info:
        other.load(f)
    # 1.9.1 shortens a list of more than 7 names around '...'
    names = list(net.collect_params().keys())
    listed = ", ".join(f"'{n}'" for n in names[:3]) + ", ..., " + ", ".join(
        f"'{n}'" for n in names[-4:])
    assert f"which contains parameters: {listed}." in str(info.value)


def test_symbolblock_inputs_given_as_a_name_string_is_a_value_error():
    out = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    # 1.9.1 raises a ValueError naming the string and its type
    with pytest.raises(ValueError, match="but got data of type <class 'str'>"):
        gluon.SymbolBlock(out, "data")
    with pytest.raises(AssertionError, match="is an output of operators"):
        gluon.SymbolBlock(out, [out])
    block = gluon.SymbolBlock(out, mx.sym.var("data"))
    assert sorted(block.collect_params().keys()) == ["fc_bias", "fc_weight"]


@pytest.mark.parametrize("kwargs, text", [
    # recorded from 1.9.1
    ({"stype": "foo"}, "stype for Parameter 'x' must be one of 'default', 'row_sparse', or "
                       "'csr', but got 'foo'"),
    ({"grad_stype": "foo"}, "grad_stype for Parameter 'x' must be one of 'default', "
                            "'row_sparse', or 'csr', but got 'foo'"),
    ({"grad_stype": None}, "grad_stype for Parameter 'x' must be one of 'default', "
                           "'row_sparse', or 'csr', but got 'None'"),
])
def test_parameter_storage_type_is_checked(kwargs, text):
    with pytest.raises(AssertionError) as info:
        gluon.Parameter("x", **kwargs)
    assert str(info.value) == text
    p = gluon.Parameter("y", shape=(4, 2), grad_stype="row_sparse")
    assert p._grad_stype == "row_sparse"


def test_child_block_before_block_init_is_an_attribute_error():
    class NoSuper(nn.Block):
        def __init__(self):   # forgets super().__init__(), as 1.9.1 users sometimes do
            self.fc = nn.Dense(2)

        def forward(self, x):
            return self.fc(x)

    # 1.9.1: AttributeError: 'NoSuper' object has no attribute '_children'
    with pytest.raises(AttributeError, match="'NoSuper' object has no attribute '_children'"):
        NoSuper()

    class PlainAttr(nn.HybridBlock):
        def __init__(self):
            self.x = 3   # a plain value is fine in 1.9.1 too

    assert PlainAttr().x == 3


def test_clear_cached_op_retraces_the_graph():
    class Scale(nn.HybridBlock):
        def __init__(self):
            super().__init__()
            self.k = 2.0

        def hybrid_forward(self, F, x):
            return x * self.k

    s = Scale()
    s.hybridize()
    assert s(nd.ones((1,))).asnumpy().tolist() == [2.0]
    s.k = 5.0   # a plain attribute: the cached graph keeps the old value (1.9.1: [2.0])
    assert s(nd.ones((1,))).asnumpy().tolist() == [2.0]
    s._clear_cached_op()   # 1.9.1: [5.0] after clearing
    assert s(nd.ones((1,))).asnumpy().tolist() == [5.0]


def test_parameter_var_is_made_once_and_shared_with_symbolic_calls():
    d = nn.Dense(2, in_units=3)
    d.initialize(mx.init.One())
    w = d.weight.var()
    assert d.weight.var() is w   # 1.9.1: True
    out = d(mx.sym.var("data"))
    # weight regularisation built next to the block's output: one argument per name (1.9.1)
    reg = mx.sym.broadcast_add(out, 0.5 * mx.sym.sum(d.weight.var()))
    assert reg.list_arguments() == ["data", d.weight.name, d.bias.name]
    ex = reg.simple_bind(mx.cpu(), data=(1, 3))
    assert sorted(ex.arg_dict) == sorted(["data", d.weight.name, d.bias.name])
    ex.arg_dict[d.weight.name][:] = 1
    ex.arg_dict[d.bias.name][:] = 0
    ex.arg_dict["data"][:] = 1
    # recorded from 1.9.1: [[6.0, 6.0]] (3 from the layer, 0.5 * 6 from the weight sum)
    assert ex.forward()[0].asnumpy().tolist() == [[6.0, 6.0]]
    p = gluon.Parameter("w", shape=(2,))
    assert (p.var() + p.var() * 2).list_arguments() == ["w"]   # 1.9.1: ['w']


def test_negative_parameter_dimension_fails_at_initialize():
    p = gluon.Parameter("x", shape=(-1, 2))   # accepted when made, as in 1.9.1
    # 1.9.1: AssertionError: shape dimension size cannot be less than 0, while received -1
    with pytest.raises(AssertionError,
                       match="^shape dimension size cannot be less than 0, while received -1"):
        p.initialize()
    q = gluon.Parameter("q", shape=(0, 2))
    with pytest.raises(ValueError, match="invalid shape"):   # as 1.9.1
        q.initialize()
