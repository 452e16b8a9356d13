"""How backward fills ``.grad`` buffers: a "write" gradient may take over the memory of the
freshly computed gradient instead of being copied, but only where nothing else can see
either buffer; every case below must read as if the values had been copied."""
import numpy as np

import mxnet as mx
from mxnet import autograd


def _leaf(values):
    x = mx.nd.array(np.asarray(values, dtype=np.float32))
    x.attach_grad()
    return x


def test_write_gives_closed_form_gradient_and_takes_the_fresh_buffer():
    x = _leaf(np.arange(24).reshape(2, 3, 4))
    for _ in range(3):
        old = id(x.grad._data)   # (holding the array itself would force a copy)
        with autograd.record():
            y = (x * x).sum()
        y.backward()
        np.testing.assert_array_equal(x.grad.asnumpy(), 2 * x.asnumpy())
        # nothing else held either buffer: the fresh one (alive with the old) was taken
        assert id(x.grad._data) != old


def test_view_of_grad_sees_new_values():
    x = _leaf(np.ones((4, 3)))
    view = x.grad[1:3]
    with autograd.record():
        y = x * 3
    y.backward()
    np.testing.assert_array_equal(view.asnumpy(), np.full((2, 3), 3, np.float32))
    assert np.shares_memory(view._data, x.grad._data)


def test_grad_ndarray_held_by_caller_is_the_same_object():
    x = _leaf(np.ones(5))
    g = x.grad
    with autograd.record():
        y = x * 4
    y.backward()
    assert x.grad is g
    np.testing.assert_array_equal(g.asnumpy(), np.full(5, 4, np.float32))


def test_head_gradient_passed_through_is_not_aliased():
    x = _leaf(np.ones(3))
    head = mx.nd.array([1.0, 2.0, 3.0])
    with autograd.record():
        y = mx.nd.identity(x)
    y.backward(head)
    head[:] = 0
    np.testing.assert_array_equal(x.grad.asnumpy(), [1, 2, 3])


def test_leaf_as_head_with_user_gradient_is_not_aliased():
    x = _leaf(np.ones(3))
    head = mx.nd.array([5.0, 6.0, 7.0])
    with autograd.record():
        y = x.reshape((3,))
    y.backward(head)
    head[:] = -1
    np.testing.assert_array_equal(x.grad.asnumpy(), [5, 6, 7])


def test_two_leaves_fed_the_same_gradient_do_not_share_it():
    x, y = _leaf(np.ones(4)), _leaf(np.ones(4))
    with autograd.record():
        z = x + y
    z.backward(mx.nd.array([1.0, 2.0, 3.0, 4.0]))
    assert not np.shares_memory(x.grad._data, y.grad._data)
    x.grad[:] = 0
    np.testing.assert_array_equal(y.grad.asnumpy(), [1, 2, 3, 4])


class _KeepsItsGradient(autograd.Function):
    """Returns from backward an array it also keeps."""

    def forward(self, x):
        return x * 1

    def backward(self, dy):
        self.kept = dy * 2
        return self.kept


def test_function_gradient_kept_by_the_function_is_not_aliased():
    x = _leaf(np.ones(3))
    f = _KeepsItsGradient()
    with autograd.record():
        y = f(x)
    y.backward()
    f.kept[:] = 100
    np.testing.assert_array_equal(x.grad.asnumpy(), [2, 2, 2])


def test_add_accumulates_in_place():
    x = mx.nd.array(np.arange(6, dtype=np.float32))
    x.attach_grad(grad_req="add")
    buf = x.grad._data
    for _ in range(3):
        with autograd.record():
            y = (x * x).sum()
        y.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), 3 * 2 * np.arange(6, dtype=np.float32))
    assert x.grad._data is buf


def test_float16_gradient_written_exactly():
    x = mx.nd.array(np.linspace(-2, 2, 7), dtype=np.float16)
    x.attach_grad()
    with autograd.record():
        y = x * x
    y.backward()
    assert x.grad.dtype == np.float16
    np.testing.assert_array_equal(x.grad.asnumpy(), (2 * x.asnumpy()).astype(np.float16))


class _OverlapOwner:
    _overlap = 2   # every graph through the asynchronous walker (see test_autograd_overlap)


def test_asynchronous_pass_writes_the_same_and_keeps_views():
    owner = _OverlapOwner()
    autograd._overlap_owners.add(owner)
    try:
        x = _leaf(np.arange(12).reshape(3, 4))
        view = x.grad[0:1]
        for _ in range(2):
            with autograd.record():
                y = (x * x).sum()
            y.backward()
            np.testing.assert_array_equal(x.grad.asnumpy(), 2 * x.asnumpy())
            np.testing.assert_array_equal(view.asnumpy(), 2 * x.asnumpy()[0:1])
        head = mx.nd.array(np.full((3, 4), 5.0))
        with autograd.record():
            y = mx.nd.identity(x)
        y.backward(head)
        head[:] = 0
        np.testing.assert_array_equal(x.grad.asnumpy(), np.full((3, 4), 5.0))
    finally:
        autograd._overlap_owners.discard(owner)
        mx.nd.waitall()
