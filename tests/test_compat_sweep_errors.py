"""Compatibility sweep: the mistakes MXNet 1.9.1 users make, and what they see.

Each test checks that a mistake raises 1.9.1's exception class (or a subclass of it) with a
message naming what went wrong, or that a script 1.9.1 runs keeps running. The classes,
message fragments and values were recorded from MXNet 1.9.1.
"""
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon, nd
from mxnet.base import MXNetError
from mxnet.gluon import nn


# -- NDArray ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["x", {}, (0, "x")])
def test_getitem_with_a_non_index_key_raises_valueerror(key):
    # 1.9.1: ValueError "NDArray does not support slicing with key x of type <class 'str'>."
    a = nd.ones((2, 3))
    with pytest.raises(ValueError, match="not supported"):
        a[key]


def test_getitem_with_a_float_list_truncates_like_1_9_1():
    # recorded from 1.9.1: a[[0.5, 2.7]] and a[np.array([1.2, 0.0])] index rows 0, 2 and 1, 0
    a = nd.arange(6).reshape((3, 2))
    assert a[[0.5, 2.7]].asnumpy().tolist() == [[0.0, 1.0], [4.0, 5.0]]
    assert a[np.array([1.2, 0.0])].asnumpy().tolist() == [[2.0, 3.0], [0.0, 1.0]]


@pytest.mark.parametrize("src", [object(), {"a": 1}, "abc"])
def test_array_of_a_non_numeric_source_raises_typeerror(src):
    # 1.9.1: TypeError "source_array must be array like object"
    with pytest.raises(TypeError, match="source_array must be array like"):
        nd.array(src)


def test_array_of_numeric_strings_converts():
    # recorded from 1.9.1: nd.array(['1', '2.5']) -> [1.0, 2.5]
    assert nd.array(["1", "2.5"]).asnumpy().tolist() == [1.0, 2.5]


def test_full_and_setitem_with_a_string_raise_typeerror():
    # 1.9.1: TypeError "... does not support assignment with non-array-like object x of type str"
    with pytest.raises(TypeError):
        nd.full((2,), "x")
    a = nd.ones((2,))
    with pytest.raises(TypeError, match="str"):
        a[0] = "x"
    assert a.asnumpy().tolist() == [1.0, 1.0]


def test_float_of_a_multi_element_array_raises_typeerror():
    # 1.9.1: TypeError "float() argument must be a string or a real number, not 'NDArray'"
    with pytest.raises(TypeError, match=r"\(2, 3\)"):
        float(nd.ones((2, 3)))
    with pytest.raises(TypeError):
        int(nd.ones((2,)))


# -- Symbol ----------------------------------------------------------------------------------------
def test_infer_type_with_a_bad_dtype_name_prints_nothing(capsys):
    # 1.9.1: TypeError "data type 'foo' not understood", and no "infer_type error" lines
    fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=4)
    with pytest.raises(TypeError, match="foo"):
        fc.infer_type(data="foo")
    assert capsys.readouterr().out == ""


def test_fully_connected_num_hidden_zero_fails_at_creation():
    # 1.9.1: MXNetError "value 0 for Parameter num_hidden should be greater equal to 1", when
    # the symbol is made; Gluon reports it as "Deferred initialization failed ..." (ValueError)
    with pytest.raises(MXNetError, match="num_hidden should be greater equal to 1"):
        mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=0)
    net = nn.Dense(0)
    net.initialize()
    with pytest.raises(ValueError, match="Deferred initialization failed.*num_hidden"):
        net(nd.ones((1, 3)))


# -- Gluon -----------------------------------------------------------------------------------------
def test_hybridized_block_with_a_scalar_second_input_raises_valueerror():
    # 1.9.1: ValueError "When hybridized, the input of HybridBlock input must be (nested) list of
    # Symbol or NDArray, but got 1.0 of type <class 'float'>"
    class Add(nn.HybridBlock):
        def hybrid_forward(self, F, x, y=None):
            return x * 2 if y is None else x + y

    b = Add()
    b.hybridize()
    assert b(nd.ones((2,))).asnumpy().tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="must be .*lists? of Symbol or NDArray, but got 1.0"):
        b(nd.ones((2,)), 1.0)


def test_reset_ctx_of_an_uninitialized_parameter_raises_valueerror():
    # 1.9.1: ValueError "Cannot reset context for Parameter 'dense0_weight' because it has not
    # been initialized."
    with pytest.raises(ValueError, match="Cannot reset context for Parameter"):
        nn.Dense(2).collect_params().reset_ctx(mx.cpu(1))


def test_dataloader_of_ragged_or_string_samples_raises_keyerror():
    # 1.9.1: KeyError (<class 'numpy.object_'> / <class 'numpy.str_'>) from its dtype table
    ragged = gluon.data.SimpleDataset([np.ones(2), np.ones(3)])
    with pytest.raises(KeyError, match="same shape"):
        list(gluon.data.DataLoader(ragged, batch_size=2))
    strings = gluon.data.SimpleDataset(["a", "b"])
    with pytest.raises(KeyError, match="str"):
        list(gluon.data.DataLoader(strings, batch_size=2))


def test_record_file_dataset_of_a_missing_file_raises_mxneterror(tmp_path):
    # 1.9.1: MXNetError ... Open "none.rec": No such file or directory
    with pytest.raises(MXNetError, match="none.rec"):
        gluon.data.RecordFileDataset(str(tmp_path / "none.rec"))


# -- io / optimizer --------------------------------------------------------------------------------
def test_ndarrayiter_with_an_unknown_last_batch_handle_keeps_running():
    # recorded from 1.9.1: last_batch_handle='rollover' (DataLoader's spelling) is accepted and
    # the short last batch is dropped: batches [0..3], [4..7]
    with pytest.warns(UserWarning, match="unknown last_batch_handle 'rollover'"):
        it = mx.io.NDArrayIter(np.arange(10).astype("float32"), batch_size=4,
                               last_batch_handle="rollover")
    batches = [b.data[0].asnumpy().tolist() for b in it]
    assert batches == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]


def test_registering_an_optimizer_twice_warns():
    # 1.9.1: UserWarning "WARNING: New optimizer mxnet.optimizer.optimizer.SGD is overriding
    # existing optimizer mxnet.optimizer.optimizer.SGD"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mx.optimizer.Optimizer.register(mx.optimizer.SGD)
    assert any("is overriding existing optimizer" in str(w.message) for w in caught)


def test_parameter_dict_update_with_a_conflicting_parameter_raises_assertionerror():
    # 1.9.1: AssertionError "Cannot update self with other because they have different
    # Parameters with the same name 'net_w'"
    a = gluon.ParameterDict("net_")
    a.get("w", shape=(2, 3))
    b = gluon.ParameterDict("net_")
    b.get("w", shape=(2, 3))
    with pytest.raises(AssertionError, match="same name 'net_w'"):
        a.update(b)


def test_saving_into_a_missing_directory_names_the_file(tmp_path):
    # 1.9.1: Symbol.save / save_checkpoint raise MXNetError naming "<dir>/m-symbol.json";
    # Trainer.save_states (Python's open) raises FileNotFoundError naming the file
    missing = tmp_path / "no_dir"
    with pytest.raises(MXNetError, match="m-symbol.json"):
        mx.sym.var("x").save(str(missing / "m-symbol.json"))
    net = nn.Dense(2, in_units=2)
    net.initialize()
    trainer = gluon.Trainer(net.collect_params(), "sgd")
    with pytest.raises(FileNotFoundError) as info:
        trainer.save_states(str(missing / "t.states"))
    assert info.value.filename == str(missing / "t.states")


def test_custom_function_without_backward_raises_mxneterror():
    # 1.9.1: MXNetError (its C++ side reports the Python NotImplementedError of backward)
    class Double(mx.autograd.Function):
        def forward(self, x):
            return x * 2

    x = nd.array([1.0, 2.0])
    x.attach_grad()
    with mx.autograd.record():
        y = Double()(x)
    with pytest.raises(MXNetError, match="Double.backward is not implemented"):
        y.backward()
        x.grad.wait_to_read()


# -- mx.np / npx -----------------------------------------------------------------------------------
def test_np_indexing_keys_like_1_9_1():
    # 1.9.1: a[1.5], a['x'], a[0, 'x'] raise ValueError ("NDArray does not support slicing with
    # key ..."); a float index list is truncated: a[[0.5, 1]] has shape (2, 3)
    a = mx.np.arange(6).reshape(2, 3)
    for key in (1.5, "x", (0, "x")):
        with pytest.raises(ValueError, match="not supported"):
            a[key]
    assert a[[0.5, 1]].asnumpy().tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_np_split_and_hsplit_sections_like_1_9_1():
    # recorded from 1.9.1: hsplit of 5 columns into 3 sections gives widths 2, 2, 1 (as
    # array_split); split and vsplit raise ValueError "array split does not result in an equal
    # division"
    a = mx.np.arange(10).reshape(2, 5)
    assert [x.shape for x in mx.np.hsplit(a, 3)] == [(2, 2), (2, 2), (2, 1)]
    assert [x.shape for x in mx.np.hsplit(mx.np.arange(5), 2)] == [(3,), (2,)]
    with pytest.raises(ValueError, match="equal division"):
        mx.np.split(a, 2, axis=1)
    with pytest.raises(ValueError, match="equal division"):
        mx.np.vsplit(mx.np.ones((3, 2)), 2)


def test_npx_operator_with_a_non_array_input_raises_assertionerror():
    # 1.9.1: AssertionError "Argument data must have NDArray type, but got 1.0"
    with pytest.raises(AssertionError, match="float"):
        mx.npx.sigmoid(1.0)
    with pytest.raises(AssertionError, match="numpy.ndarray"):
        mx.npx.relu(np.ones(2))


@pytest.mark.parametrize("result, cls, fragment", [
    (lambda x: len(x), ValueError, "but got 1 of type"),
    (lambda x: {"a": x}, ValueError, "of type <class 'dict'>"),
    (lambda x: None, TypeError, "list of symbols"),
])
def test_hybrid_forward_returning_a_non_symbol(result, cls, fragment):
    # 1.9.1: ValueError "When hybridized, the input of HybridBlock output must be (nested) list
    # of Symbol or NDArray, but got 1 of type <class 'int'>"; for None a TypeError "Expected a
    # list of symbols as input"
    class Bad(nn.HybridBlock):
        def hybrid_forward(self, F, x):
            return result(x)

    b = Bad()
    b.hybridize()
    with pytest.raises(cls, match=fragment):
        b(nd.ones((2, 3)))


def test_bind_with_a_bad_grad_req_and_duplicate_names():
    # 1.9.1: bind(grad_req='foo') raises ValueError "grad_req must be in {'null': 0, 'write': 1,
    # 'add': 3}"; grad_req={'x': 'foo'} a KeyError 'foo'; simple_bind of a symbol with two
    # variables named 'a' a RuntimeError ("simple_bind error ..."; here when arg_dict is read)
    z = mx.sym.var("x") * mx.sym.var("y")
    args = {"x": nd.ones(2), "y": nd.ones(2)}
    with pytest.raises(ValueError, match="grad_req must be in"):
        z.bind(mx.cpu(), args, grad_req="foo")
    with pytest.raises(KeyError, match="foo"):
        z.bind(mx.cpu(), args, grad_req={"x": "foo"})
    dup = mx.sym.var("a") + mx.sym.var("a")
    with pytest.raises(RuntimeError, match="Duplicate names"):
        _ = dup.simple_bind(mx.cpu(), a=(2,)).arg_dict


def test_reshape_positional_shape_wins_over_the_keyword():
    # recorded from 1.9.1: nd.ones(6).reshape((2, 3), shape=(3, 2)) has shape (2, 3); an unknown
    # keyword raises TypeError
    assert nd.ones(6).reshape((2, 3), shape=(3, 2)).shape == (2, 3)
    assert nd.ones(6).reshape(shape=(3, 2)).shape == (3, 2)
    with pytest.raises(TypeError, match="foo"):
        nd.ones(6).reshape((2, 3), foo=1)


def test_creating_a_zero_dim_array_names_the_function():
    # 1.9.1: MXNetError "Operator _ones inferring shapes failed." for nd.ones((0, 3))
    with pytest.raises(MXNetError, match="ones: shape"):
        nd.ones((0, 3))
    # but nd.full((0, 3), 2.0) works in 1.9.1 (recorded): an empty 0x3 array
    assert nd.full((0, 3), 2.0).shape == (0, 3)


@pytest.mark.parametrize("dtype", ["uint16", "int16", "complex64"])
def test_ndarray_creation_with_a_dtype_ndarray_lacks_raises(dtype):
    # 1.9.1: KeyError <class 'numpy.uint16'> from nd.array / nd.empty / astype, and MXNetError
    # "Invalid Input: 'uint16', valid values are: {...}" from nd.zeros / nd.ones / nd.full
    for make in (lambda: nd.array([1, 2], dtype=dtype), lambda: nd.empty((2,), dtype=dtype),
                 lambda: nd.ones(2).astype(dtype)):
        with pytest.raises(KeyError, match=dtype):
            make()
    for make in (lambda: nd.zeros((2,), dtype=dtype), lambda: nd.ones((2,), dtype=dtype),
                 lambda: nd.full((2,), 1, dtype=dtype)):
        with pytest.raises(MXNetError, match=dtype):
            make()
    # the dtypes 1.9.1 does accept keep working
    assert nd.array([1, 2], dtype="bool").dtype == np.bool_
    assert nd.zeros((2,), dtype="int8").dtype == np.int8


def test_load_parameters_of_a_list_file_raises(tmp_path):
    # 1.9.1: AttributeError "'list' object has no attribute 'keys'" for a file nd.save wrote from
    # a list; here an MXNetError that is also an AttributeError, saying what is wrong
    fname = str(tmp_path / "list.params")
    nd.save(fname, [nd.ones(2), nd.ones(3)])
    net = nn.Dense(2, in_units=2)
    net.initialize()
    with pytest.raises(AttributeError, match="without names"):
        net.load_parameters(fname)


def test_failed_deferred_shape_inference_prints_only_the_inputs(capsys):
    # 1.9.1 prints "infer_shape error. Arguments:" and the block's inputs (data0, data1), not
    # the parameters, then raises ValueError "Deferred initialization failed ..."
    gru = gluon.rnn.GRU(4, num_layers=2, bidirectional=True)
    gru.initialize()
    capsys.readouterr()
    with pytest.raises(ValueError, match="Deferred initialization failed"):
        gru(nd.ones((3, 2, 5)), [nd.zeros((2, 2, 4))])
    assert capsys.readouterr().out == ("infer_shape error. Arguments:\n  data0: (3, 2, 5)\n"
                                       "  data1: (2, 2, 4)\n")


def test_assert_almost_equal_of_incompatible_shapes_raises_mxneterror():
    # 1.9.1: MXNetError "Operator _contrib_allclose inferring shapes failed." for NDArrays of
    # shapes (2,) and (3,)
    from mxnet.test_utils import assert_almost_equal
    with pytest.raises(MXNetError, match=r"\(2,\).*\(3,\)"):
        assert_almost_equal(nd.ones(2), nd.ones(3))
    with pytest.raises(AssertionError, match="Items are not equal"):
        assert_almost_equal(nd.ones(2), nd.zeros(2))
    # two NDArrays must have equal shapes (1.9.1: the same MXNetError for (2, 3) and (1, 3));
    # NumPy arrays broadcast
    with pytest.raises(MXNetError, match=r"\(2, 3\).*\(1, 3\)"):
        assert_almost_equal(nd.ones((2, 3)), nd.ones((1, 3)))
    assert_almost_equal(np.ones((2, 3)), np.ones((1, 3)))
    assert_almost_equal(nd.ones((2, 3)), np.ones((1, 3)))
