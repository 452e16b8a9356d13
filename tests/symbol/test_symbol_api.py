"""Symbol and Executor behaviour beyond the golden table: our own choices where 1.9.1
is broken, error messages, round trips, and executor features (reshape, sharing)."""
from __future__ import annotations

import copy
import json
import pickle
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

needs_fc = pytest.mark.skipif(not hasattr(mx.sym, "FullyConnected"),
                              reason="FullyConnected is not registered yet")


def mlp():
    data = mx.sym.var("data")
    out = mx.sym.FullyConnected(data=data, name="fc1", num_hidden=100)
    out = mx.sym.Activation(data=out, act_type="relu")
    return mx.sym.FullyConnected(data=out, name="fc2", num_hidden=10)


# -- inference ---------------------------------------------------------------------------------

@needs_fc
def test_inconsistent_shape_error_names_node_and_shapes():
    with pytest.raises(MXNetError) as e:
        mlp().infer_shape(data=(10, 20), fc1_weight=(1, 20))
    msg = str(e.value)
    assert "fc1" in msg and "(1, 20)" in msg and "(100, 20)" in msg


def test_inconsistent_elemwise_error():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    with mx.name.NameManager():
        c = a + b
    with pytest.raises(MXNetError, match=r"_plus0.*\(3,2\).*\(2,3\)|_plus0.*\(2,3\).*\(3,2\)"):
        c.infer_shape(a=(2, 3), b=(3, 2))
    with pytest.raises(MXNetError, match="_plus0.*float16|_plus0.*float32"):
        c.infer_type(a="float32", b="float16")


def test_positional_inference_works_here():
    # 1.9.1's Python front end fails on positional shapes (a C string bug); ours maps them
    # to list_arguments() order
    a, b = mx.sym.var("a"), mx.sym.var("b")
    c = a * b
    assert c.infer_shape((3, 3)) == ([(3, 3), (3, 3)], [(3, 3)], [])
    assert c.infer_shape(None, (2, 2)) == ([(2, 2), (2, 2)], [(2, 2)], [])
    assert c.infer_type("float16") == ([np.float16, np.float16], [np.float16], [])
    with pytest.raises(ValueError):
        c.infer_shape((2,), b=(2,))


def test_incomplete_shapes_warn_and_return_nones():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    c = a + b
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert c.infer_shape(a=(0, 3)) == (None, None, None)
    assert any("Cannot decide shape" in str(x.message) for x in w)
    assert c.infer_shape_partial() == ([(), ()], [()], [])
    assert c.infer_shape_partial(a=(0, 3)) == ([(0, 3), (0, 3)], [(0, 3)], [])
    assert c.infer_type_partial() == ([None, None], [None], [])


def test_shape_hint_from_variable_attribute():
    a = mx.sym.var("a", shape=(2, 3))
    b = mx.sym.var("b")
    assert (a * b).infer_shape() == ([(2, 3), (2, 3)], [(2, 3)], [])


def test_ops_without_shape_rule_are_inferred_by_running_them():
    # Cast and _arange have no infer_shape rule in the registry yet
    x = mx.sym.var("x")
    assert mx.sym.Cast(x, dtype="float16").infer_shape(x=(2, 5))[1] == [(2, 5)]
    assert mx.sym.arange(0, 6, 2).infer_shape()[1] == [(3,)]


# -- JSON --------------------------------------------------------------------------------------

def test_malformed_and_unknown_json():
    with pytest.raises(MXNetError):
        mx.sym.load_json('{"nodes": [')
    with pytest.raises(MXNetError, match="NoSuchOp"):
        mx.sym.load_json(json.dumps({"nodes": [{"op": "NoSuchOp", "name": "y", "inputs": []}],
                                     "heads": [[0, 0, 0]]}))
    with pytest.raises(MXNetError):
        mx.sym.load_json(json.dumps({"nodes": [{"op": "null", "name": "x", "inputs": []}],
                                     "heads": [[3, 0, 0]]}))
    with pytest.raises(MXNetError):
        mx.sym.load_json(json.dumps({"nodes": [{"op": "relu", "name": "r",
                                                "inputs": [[0, 0, 0]]}], "heads": [[0, 0, 0]]}))
    with pytest.raises(TypeError):
        mx.sym.load_json(None)
    with pytest.raises(MXNetError):
        mx.sym.load("/nonexistent/x-symbol.json")


@needs_fc
def test_save_load_roundtrip(tmp_path):
    sym = mx.sym.Group([mlp(), mx.sym.var("w", lr_mult=0.5, shape=(2,)) * 2])
    fn = str(tmp_path / "net-symbol.json")
    sym.save(fn)
    back = mx.sym.load(fn)
    assert back.tojson() == sym.tojson()
    assert back.attr_dict() == sym.attr_dict()
    assert back.list_outputs() == sym.list_outputs()


def test_json_multiline_arrays():
    # dmlc's writer breaks arrays of more than ten numbers or entries over lines
    xs = [mx.sym.var(f"x{i}") for i in range(11)]
    with mx.name.NameManager():
        s = mx.sym.add_n(*xs)
    text = s.tojson()
    assert '"inputs": [\n        [0, 0, 0], \n' in text
    assert '"arg_nodes": [\n    0, \n' in text
    assert mx.sym.load_json(text).tojson() == text


def test_json_escapes_strings():
    x = mx.sym.var('we"ird\\name', attr={"k": "line\nbreak\ttab"})
    back = mx.sym.load_json(x.tojson())
    assert back.name == 'we"ird\\name'
    assert back.list_attr() == {"k": "line\nbreak\ttab"}


# -- Symbol API --------------------------------------------------------------------------------

@needs_fc
def test_pickle_copy_deepcopy():
    s = mlp()
    for other in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s)):
        assert other.tojson() == s.tojson()
    c = copy.deepcopy(s)
    c._set_attr(name="renamed")
    assert s.name == "fc2" and c.name == "renamed"


@needs_fc
def test_compose_by_name():
    data = mx.sym.var("data")
    net1 = mx.sym.FullyConnected(data=data, name="fc1", num_hidden=10)
    net2 = mx.sym.FullyConnected(name="fc3", num_hidden=10)
    composed = net2(fc3_data=net1, name="composed")
    assert composed.name == "composed" and net2.name == "fc3"
    assert composed.list_arguments() == ["data", "fc1_weight", "fc1_bias", "fc3_weight",
                                         "fc3_bias"]
    assert net2.list_arguments() == ["fc3_data", "fc3_weight", "fc3_bias"]
    with pytest.raises(MXNetError):
        net2(nope=net1)
    with pytest.raises(MXNetError):
        net2(net1)


def test_getitem_and_iteration():
    x = mx.sym.var("x")
    with mx.name.NameManager():
        s = mx.sym.split(x, num_outputs=3)
    assert [t.list_outputs()[0] for t in s] == ["split0_output0", "split0_output1",
                                                 "split0_output2"]
    assert s["split0_output2"].list_outputs() == ["split0_output2"]
    assert s[1:].list_outputs() == ["split0_output1", "split0_output2"]
    with pytest.raises(IndexError):
        s[3]
    with pytest.raises(ValueError):
        s["nope"]
    with pytest.raises(TypeError):
        s["x", 1]


def test_a_one_part_split_numbers_its_output_as_1_9_1():
    # 1.9.1: mx.sym.split(x, num_outputs=1).list_outputs() == ['split0_output0']
    with mx.name.NameManager():
        s = mx.sym.split(mx.sym.var("x"), num_outputs=1)
    assert s.list_outputs() == ["split0_output0"]


def test_ndarray_only_methods_raise():
    x = mx.sym.var("x")
    for m in ("asnumpy", "copy", "backward", "detach"):
        with pytest.raises(mx.sym.NotImplementedForSymbol):
            getattr(x, m)()
    with pytest.raises(MXNetError):
        bool(x)


def test_eval_creation_front_ends():
    z = mx.sym.zeros((2, 3)).eval()[0].asnumpy()
    assert z.dtype == np.float32 and (z == 0).all()
    np.testing.assert_array_equal(mx.sym.full((2,), 7, dtype="int32").eval()[0].asnumpy(), [7, 7])
    np.testing.assert_array_equal(mx.sym.arange(1, 4, repeat=2).eval()[0].asnumpy(),
                                  [1, 1, 2, 2, 3, 3])
    a = mx.sym.var("a")
    out = (mx.sym.ones((3,)) + a).eval(a=mx.nd.array([1, 2, 3]))
    np.testing.assert_array_equal(out[0].asnumpy(), [2, 3, 4])


# -- Executor ----------------------------------------------------------------------------------

def test_bind_grad_req_add_accumulates():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    ga, gb = mx.nd.ones((2,)), mx.nd.ones((2,))
    ex = (a * b).bind(mx.current_context(), {"a": mx.nd.array([1, 2]), "b": mx.nd.array([3, 4])},
                      args_grad={"a": ga, "b": gb}, grad_req={"a": "add", "b": "write"},
                      group2ctx={"dev1": mx.current_context()})
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones((2,)))
    np.testing.assert_array_equal(ga.asnumpy(), [7, 9])
    np.testing.assert_array_equal(gb.asnumpy(), [1, 2])


@needs_fc
def test_executor_reshape_shares_memory():
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    ex = fc.simple_bind(mx.current_context(), data=(4, 2))
    small = ex.reshape(data=(2, 2))
    assert small.arg_dict["fc_weight"] is ex.arg_dict["fc_weight"]
    ex.arg_dict["data"][:] = 3
    assert (small.arg_dict["data"].asnumpy() == 3).all()
    with pytest.raises(MXNetError):
        ex.reshape(data=(8, 2))
    big = ex.reshape(allow_up_sizing=True, data=(8, 2))
    assert big.arg_dict["data"].shape == (8, 2)
    assert big.forward()[0].shape == (8, 3)


@needs_fc
def test_simple_bind_shared_exec_with_buffer():
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    buf = {}
    ex = fc.simple_bind(mx.current_context(), data=(4, 2), shared_buffer=buf)
    ex2 = fc.simple_bind(mx.current_context(), data=(2, 2), shared_exec=ex,
                         shared_arg_names=["fc_weight", "fc_bias"], shared_buffer=buf)
    assert ex2.arg_dict["fc_weight"] is ex.arg_dict["fc_weight"]
    assert ex2.grad_dict["fc_weight"] is ex.grad_dict["fc_weight"]


def test_monitor_callback_sees_outputs():
    a = mx.sym.var("a")
    with mx.name.NameManager():
        b = mx.sym.relu(a * 2, name="r")
    seen = {}
    ex = b.bind(mx.current_context(), {"a": mx.nd.array([-1.0, 2.0])})
    # 1.9.1 passes each name as bytes
    ex.set_monitor_callback(lambda name, arr: seen.__setitem__(name.decode(), arr.asnumpy()))
    ex.forward()
    assert sorted(seen) == ["_mulscalar0_output", "r_output"]
    np.testing.assert_array_equal(seen["r_output"], [0, 4])


def test_executor_errors():
    a = mx.sym.var("a")
    with pytest.raises(TypeError):
        (a + 1).bind("cpu", {"a": mx.nd.ones((2,))})
    with pytest.raises(ValueError):
        (a + 1).bind(mx.current_context(), {"a": mx.nd.ones((2,))}, grad_req="sometimes")
    ex = (a + 1).bind(mx.current_context(), {"a": mx.nd.ones((2,))}, args_grad={"a": mx.nd.zeros((2,))})
    with pytest.raises(MXNetError):
        ex.backward(mx.nd.ones((2,)))


def test_symbolic_histogram():
    # 1.9.1: one _histogram node with bin_cnt/range attributes; a null range is refused
    with mx.name.NameManager():
        s = mx.sym.histogram(mx.sym.var("a"), bins=5, range=(0, 1))
    assert s.list_outputs() == ["_histogram0_output0", "_histogram0_output1"]
    node = json.loads(s.tojson())["nodes"][1]
    assert node["op"] == "_histogram" and node["attrs"] == {"bin_cnt": "5", "range": "(0, 1)"}
    counts, edges = s.bind(mx.cpu(), {"a": mx.nd.array([0.1, 0.5, 0.55, 0.9, 1.0])}).forward()
    np.testing.assert_array_equal(counts.asnumpy(), [1, 0, 2, 0, 2])
    np.testing.assert_allclose(edges.asnumpy(), np.linspace(0, 1, 6), rtol=1e-6)
    with pytest.raises(ValueError, match="null range"):
        mx.sym.histogram(mx.sym.var("a"), bins=5)
