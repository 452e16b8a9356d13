"""Regressions found by running realistic legacy ``mx.nd`` / ``mx.sym`` operator scripts under
both mxnet-py and MXNet 1.9.1.

Every expected value below was recorded by running the same call under MXNet 1.9.1.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet import nd
from mxnet.base import MXNetError


def test_broadcast_to_zero_keeps_input_dim():
    a = nd.array([[1], [2]])
    # recorded from 1.9.1: (0, 4) -> (2, 4) [[1,1,1,1],[2,2,2,2]]; (2, 0) -> (2, 1); (0, 0) -> (2, 1)
    assert nd.broadcast_to(a, shape=(0, 4)).asnumpy().tolist() == [[1] * 4, [2] * 4]
    assert nd.broadcast_to(a, shape=(2, 0)).shape == (2, 1)
    assert nd.broadcast_to(a, shape=(0, 0)).shape == (2, 1)
    assert nd.broadcast_to(nd.ones((1, 3)), shape=(0, 3)).shape == (1, 3)
    s = mx.sym.broadcast_to(mx.sym.Variable("a"), shape=(0, 5))
    assert s.infer_shape(a=(3, 1))[1] == [(3, 5)]
    with pytest.raises(MXNetError, match="broadcast_to"):
        nd.broadcast_to(nd.ones((2, 3)), shape=(4, 3))
    # the fluent method checks NumPy-style instead (recorded from 1.9.1: ValueError; (4, 2, 3))
    with pytest.raises(ValueError, match="broadcast"):
        a.broadcast_to((0, 3))
    assert a.broadcast_to((4, 2, 3)).shape == (4, 2, 3)


@pytest.mark.parametrize("op", ["sum", "mean", "max", "prod", "norm"])
def test_reduction_rejects_duplicate_axes(op):
    x = nd.ones((3, 4, 5))
    # recorded from 1.9.1: MXNetError "Reduction axes have duplicates [0,0]"
    with pytest.raises(MXNetError, match=op):
        getattr(nd, op)(x, axis=(0, 0))
    if op != "norm":
        with pytest.raises(MXNetError, match="duplicates"):
            getattr(nd, op)(x, axis=(1, -2))
        with pytest.raises(MXNetError, match="duplicates"):
            mx.sym.Variable("d").__getattribute__(op)(axis=(2, 2)).infer_shape(d=(3, 4, 5))


def test_float16_mean_rounds_the_sum_to_float16():
    # recorded from 1.9.1: [inf]; [1.1 1.1 1.1] (float16); sum of 3000 x 1.1 -> 3298
    assert np.isinf(nd.mean(nd.array([60000, 60000], dtype="float16")).asnumpy()).all()
    x = nd.array(np.full((3, 3000), 1.1), dtype="float16")
    m = nd.mean(x, axis=1)
    assert m.dtype == np.float16
    assert m.asnumpy().tolist() == [np.float16(1.1)] * 3
    assert nd.sum(x, axis=1).asnumpy().tolist() == [3298.0] * 3


def test_ndarray_reshape_size_mismatch_is_value_error():
    x = nd.ones((3, 4, 5))
    # recorded from 1.9.1: ValueError "Cannot reshape array of size 60 into shape (7, 7)";
    # a target larger than the input is MXNetError ("target shape size is larger than the current")
    with pytest.raises(MXNetError, match="reshape") as info:
        x.reshape((8, 8))
    assert not isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match="reshape"):
        x.reshape((7, 7))
    with pytest.raises(ValueError, match="reshape"):
        x.reshape(7, -1)
    # a malformed shape code stays an MXNetError (1.9.1: "One and only one dim can be inferred")
    with pytest.raises(MXNetError, match="reshape") as info:
        x.reshape((-1, -1))
    assert not isinstance(info.value, ValueError)
    assert x.reshape((5, -1)).shape == (5, 12)


def test_sym_optional_input_passed_positionally():
    d, ln = mx.sym.Variable("d"), mx.sym.Variable("l")
    s = mx.sym.SequenceMask(d, ln, use_sequence_length=True, value=0.5)
    assert s.list_arguments() == ["d", "l"]
    x = nd.array(np.arange(24).reshape((4, 3, 2)))
    out = s.bind(mx.cpu(), {"d": x, "l": nd.array([1, 4, 2])}).forward()[0].asnumpy()
    # recorded from 1.9.1
    expected = [[[0, 1], [2, 3], [4, 5]], [[0.5, 0.5], [8, 9], [10, 11]],
                [[0.5, 0.5], [14, 15], [0.5, 0.5]], [[0.5, 0.5], [20, 21], [0.5, 0.5]]]
    assert out.tolist() == expected


def test_cast_rejects_unsupported_dtype():
    # recorded from 1.9.1: MXNetError "Invalid Input: 'complex64', valid values are: {...}"
    with pytest.raises(MXNetError, match="Cast") as info:
        nd.Cast(nd.array([1.5]), dtype="complex64")
    assert "float16" in str(info.value)
    # the supported ones keep 1.9.1's rounding/overflow behaviour (recorded from 1.9.1)
    x = nd.array([-300.7, -1.5, 0.5, 1.5, 2.5, 255.6, 256.2], dtype="float64")
    assert nd.Cast(x, dtype="uint8").asnumpy().tolist() == [212, 255, 0, 1, 2, 255, 0]
    assert nd.Cast(x, dtype="int8").asnumpy().tolist() == [-44, -1, 0, 1, 2, -1, 0]


def test_argmax_axis_out_of_range_is_mxnet_error():
    # recorded from 1.9.1: MXNetError "axis 2 exceeds the input dimension of 2"
    with pytest.raises(MXNetError, match="argmax"):
        nd.argmax(nd.ones((2, 3)), axis=2)
    with pytest.raises(MXNetError, match="argmin"):
        nd.argmin(nd.ones((2, 3)), axis=-3)
    assert nd.argmax(nd.array([[3, 1, 4], [9, 2, 6]]), axis=-1).asnumpy().tolist() == [2, 0]


def test_parameterless_op_ignores_extra_attributes():
    # recorded from 1.9.1: nd.relu(x, foo=1) runs; sym.relu(a, foo=1).attr('foo') == '1'
    assert nd.relu(nd.array([-1, 2]), foo=1).asnumpy().tolist() == [0, 2]
    assert nd.elemwise_add(nd.ones((2,)), nd.ones((2,)), bar="z").asnumpy().tolist() == [2, 2]
    with pytest.raises(MXNetError, match="softmax"):
        nd.softmax(nd.ones((2,)), foo=1)


def test_infer_shape_error_prints_arguments(capsys):
    s = mx.sym.FullyConnected(mx.sym.Variable("d"), num_hidden=3, name="fc")
    with pytest.raises(MXNetError, match="fc"):
        s.infer_shape(d=(2, 3), fc_weight=(4, 3))
    # recorded from 1.9.1 (stdout)
    assert capsys.readouterr().out == ("infer_shape error. Arguments:\n  d: (2, 3)\n"
                                       "  fc_weight: (4, 3)\n")
