"""base (dtype table, attribute strings) and context (devices, default stack)."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError, attr_str, dtype_code, dtype_np, parse_attr


@pytest.mark.parametrize("code,name", [(0, "float32"), (1, "float64"), (2, "float16"), (3, "uint8"),
                                       (4, "int32"), (5, "int8"), (6, "int64"), (7, "bool"),
                                       (8, "int16"), (9, "uint16"), (10, "uint32"), (11, "uint64")])
def test_type_codes(code, name):
    assert dtype_np(code) == np.dtype(name)
    assert dtype_code(name) == code


def test_unknown_dtype_raises():
    with pytest.raises(MXNetError):
        dtype_np(99)
    with pytest.raises(MXNetError):
        dtype_np("float7")


@pytest.mark.parametrize("text,value", [("(3, 3)", (3, 3)), ("True", True), ("False", False),
                                        ("None", None), ("[1, 2]", [1, 2]), ("0.5", 0.5),
                                        ("relu", "relu"), ("(2,)", (2,))])
def test_attr_round_trip(text, value):
    assert parse_attr(text) == value
    assert attr_str(value) == text


def test_contexts_are_distinct_devices():
    assert mx.cpu(0) != mx.cpu(1)
    assert mx.cpu(1) == mx.Context("cpu", 1)
    assert str(mx.gpu(2)) == "gpu(2)"
    assert mx.cpu_pinned().device_type == "cpu_pinned"
    assert len({mx.cpu(0), mx.cpu(0), mx.cpu(1)}) == 2


def test_with_context_sets_default():
    default = mx.test_utils.default_context()  # cpu(0), or the device of a GPU run
    assert mx.current_context() == default
    with mx.cpu(1):
        assert mx.current_context() == mx.cpu(1)
        assert mx.nd.zeros((2,)).context == mx.cpu(1)
        with mx.gpu(1):
            assert mx.current_context() == mx.gpu(1)
        assert mx.current_context() == mx.cpu(1)
    assert mx.current_context() == default


def test_gpu_without_cupy_or_device_raises_clearly():
    if mx.context.num_gpus() > 0:
        pytest.skip("a GPU is present")
    with pytest.raises(MXNetError, match="(?i)gpu|cupy"):
        mx.nd.zeros((2,), ctx=mx.gpu(0))


def test_cross_cpu_id_op_runs_on_first_context():
    # 1.9.1 runs an op over cpu(0) and cpu(1) inputs; the result is on the first input's context
    a = mx.nd.ones((2,), ctx=mx.cpu(0))
    b = mx.nd.ones((2,), ctx=mx.cpu(1))
    assert (a + b).context == mx.cpu(0) and (b + a).context == mx.cpu(1)
    assert (a + b).asnumpy().tolist() == [2.0, 2.0]
    assert (a + b.as_in_context(mx.cpu(0))).asnumpy().tolist() == [2.0, 2.0]
