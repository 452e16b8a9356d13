"""NDArray reads and writes respect work pushed asynchronously to the engine."""
import threading
import time

import numpy as np
import pytest

import mxnet as mx
from mxnet import engine


def test_read_waits_for_async_writer():
    a = mx.nd.zeros((4,))
    started = threading.Event()

    def slow_write():
        started.set()
        time.sleep(0.05)
        a._data[:] = 7

    engine.push(slow_write, mutable_vars=[a.engine_var], prop=engine.FnProperty.ASYNC, name="slow_write")
    started.wait(1)
    b = a + 1  # must see the finished write
    assert b.asnumpy().tolist() == [8.0] * 4


def test_inplace_write_waits_for_async_reader():
    a = mx.nd.ones((3,))
    seen = []

    def slow_read():
        time.sleep(0.05)
        seen.append(a._data.copy())

    engine.push(slow_read, const_vars=[a.engine_var], prop=engine.FnProperty.ASYNC, name="slow_read")
    a += 1
    mx.nd.waitall()
    assert seen[0].tolist() == [1.0, 1.0, 1.0]
    assert a.asnumpy().tolist() == [2.0, 2.0, 2.0]


def test_async_failure_surfaces_at_wait_point():
    a = mx.nd.zeros((2,))

    def bad():
        raise ValueError("boom")

    engine.push(bad, mutable_vars=[a.engine_var], prop=engine.FnProperty.ASYNC, name="bad_op")
    with pytest.raises(mx.MXNetError, match="bad_op"):
        a.asnumpy()
    # cleared after being raised once
    assert np.array_equal(a.asnumpy(), np.zeros(2, np.float32))
