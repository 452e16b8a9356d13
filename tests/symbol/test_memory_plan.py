"""The executor's memory plan: in-place reuse, co-sharing, the switches, and that
planned execution computes exactly what unplanned execution computes."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet.executor.plan import plan_memory

if not hasattr(mx.sym, "FullyConnected"):
    pytest.skip("FullyConnected is not registered yet", allow_module_level=True)


def deep_mlp(depth=8, hidden=64):
    x = mx.sym.var("data")
    for i in range(depth):
        x = mx.sym.FullyConnected(x, num_hidden=hidden, name=f"fc{i}")
        x = mx.sym.Activation(x, act_type="relu", name=f"relu{i}")
    return mx.sym.FullyConnected(x, num_hidden=10, name="out")


def _bind(sym, shapes, seed=0, grad_req="null"):
    ex = sym.simple_bind(mx.current_context(), grad_req=grad_req, **shapes)
    rng = np.random.RandomState(seed)
    for a in ex.arg_arrays:
        a[:] = rng.uniform(-0.5, 0.5, a.shape)
    return ex


def _reference(sym, ex):
    """The same graph run imperatively, node by node, through mx.nd."""
    from mxnet.ndarray.ndarray import invoke
    from mxnet.symbol.graph import topo_order
    vals = {}
    arrays = dict(ex.arg_dict)
    arrays.update(ex.aux_dict)
    for node in topo_order(sym._outputs):
        if node.op is None:
            vals[(id(node), 0)] = arrays[node.name]
            continue
        res = invoke(node.op, [vals[(id(s), i)] for s, i in node.inputs], node.parsed)
        for i, r in enumerate(res if isinstance(res, list) else [res]):
            vals[(id(node), i)] = r
    return [vals[(id(n), i)].asnumpy() for n, i in sym._outputs]


def test_deep_mlp_planned_bytes_below_naive():
    ex = _bind(deep_mlp(), {"data": (16, 32)})
    planned, naive = ex.plan_bytes
    plan = ex.memory_plan()
    # 16 intermediate (16, 64) float32 entries: relu runs in place on the FC output and
    # consecutive layers share two blocks
    assert naive == 16 * 16 * 64 * 4
    assert planned == 2 * 16 * 64 * 4
    assert planned < naive
    assert len(plan.inplace) == 8
    assert ex.debug_str().endswith(" MB allocated\nTotal 11 TempSpace resource requested\n")


def test_switches_disable_planning(monkeypatch):
    sym = deep_mlp()
    ex = _bind(sym, {"data": (16, 32)})
    no_inplace = ex.memory_plan(enable_inplace=False)
    assert not no_inplace.inplace
    assert no_inplace.planned_bytes < no_inplace.naive_bytes  # sharing still works
    no_share = ex.memory_plan(match_range=0)
    assert no_share.shared == 0
    assert no_share.planned_bytes < no_share.naive_bytes  # in-place still works
    none = ex.memory_plan(enable_inplace=False, match_range=0)
    assert none.planned_bytes == none.naive_bytes
    monkeypatch.setenv("MXNET_EXEC_ENABLE_INPLACE", "0")
    monkeypatch.setenv("NNVM_EXEC_MATCH_RANGE", "0")
    ex2 = _bind(sym, {"data": (16, 32)})
    assert ex2.plan_bytes[0] == ex2.plan_bytes[1]
    out_naive = ex2.forward()[0].asnumpy()
    monkeypatch.delenv("MXNET_EXEC_ENABLE_INPLACE")
    monkeypatch.delenv("NNVM_EXEC_MATCH_RANGE")
    ex3 = _bind(sym, {"data": (16, 32)})
    assert ex3.plan_bytes[0] < ex3.plan_bytes[1]
    np.testing.assert_array_equal(ex3.forward()[0].asnumpy(), out_naive)


def test_planned_outputs_match_reference():
    sym = deep_mlp()
    ex = _bind(sym, {"data": (16, 32)})
    out = ex.forward()[0].asnumpy()
    np.testing.assert_allclose(out, _reference(sym, ex)[0], rtol=1e-6, atol=1e-7)
    # the planned buffers are reused across calls: a second run gives the same values
    np.testing.assert_array_equal(ex.forward()[0].asnumpy(), out)


def _branchy():
    """Entries read several times, views (reshape/flatten/transpose), multi-output
    split and in-place candidates whose input is still needed elsewhere."""
    x = mx.sym.var("x")
    w = mx.sym.var("w")
    a = mx.sym.relu(x * 2 - 1)
    b = mx.sym.Reshape(a, shape=(0, -1))
    c = mx.sym.tanh(b) + b
    d = mx.sym.transpose(c)
    e = mx.sym.transpose(d) * a.reshape((0, -1))
    s = mx.sym.split(e, num_outputs=2, axis=1)
    f = mx.sym.sigmoid(s[0]) * s[1] + mx.sym.exp(-s[1])
    g = mx.sym.FullyConnected(f, w, num_hidden=3, no_bias=True, name="fc")
    h = mx.sym.broadcast_add(mx.sym.Flatten(mx.sym.relu(g)), mx.sym.sum(f, axis=1, keepdims=True))
    return mx.sym.Group([h, mx.sym.square(a).sum(), c])


@pytest.mark.parametrize("inplace,match", [(True, 16), (False, 16), (True, 0), (False, 0),
                                           (True, 1)])
def test_branchy_graph_values(inplace, match, monkeypatch):
    monkeypatch.setenv("MXNET_EXEC_ENABLE_INPLACE", "1" if inplace else "0")
    monkeypatch.setenv("NNVM_EXEC_MATCH_RANGE", str(match))
    sym = _branchy()
    ex = _bind(sym, {"x": (4, 6)})
    outs = [o.asnumpy() for o in ex.forward()]
    for got, want in zip(outs, _reference(sym, ex)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    plan = ex.memory_plan()
    if not inplace:
        assert not plan.inplace
    if match == 0:
        assert plan.shared == 0


def test_training_forward_matches_planned():
    sym = _branchy()
    ex = _bind(sym, {"x": (4, 6)}, grad_req="write")
    planned = [o.asnumpy() for o in ex.forward(is_train=False)]
    trained = [o.asnumpy() for o in ex.forward(is_train=True)]
    for a, b in zip(planned, trained):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    ex.backward([mx.nd.ones(o.shape) for o in ex.outputs])
    assert np.isfinite(ex.grad_dict["w"].asnumpy()).all()


def test_outputs_are_persistent_arrays():
    a = mx.sym.var("a")
    ex = (a * 2).bind(mx.current_context(), {"a": mx.nd.ones((2,))})
    first = ex.forward()[0]
    ex.arg_dict["a"][:] = 5
    second = ex.forward()[0]
    assert first is second
    np.testing.assert_array_equal(first.asnumpy(), [10, 10])


def test_plan_unit_inplace_needs_last_reader():
    # entry 1 = op(x); entries 2 and 3 both read 1; 2 may not take 1's buffer in place
    # because 3 still reads it; 3 may (last reader)
    steps = [("a", [0], [1], [(0, 0)]), ("b", [1], [2], [(0, 0)]), ("c", [1, 2], [3], [(0, 0)]),
             ("d", [3], [4], [])]
    nbytes = {1: 64, 2: 64, 3: 64, 4: 64}
    plan = plan_memory(steps, nbytes, dedicated={4}, external={0})
    assert plan.storage[2] != plan.storage[1]
    assert plan.storage[3] == plan.storage[1]
    assert plan.inplace == [(1, 3)]


def test_plan_unit_size_matching():
    steps = [("a", [0], [1], []), ("b", [1], [2], []), ("c", [2], [3], []), ("d", [3], [4], [])]
    nbytes = {1: 1000, 2: 10, 3: 900, 4: 8}
    tight = plan_memory(steps, nbytes, dedicated={4}, external={0}, match_range=2)
    # 3 (900 bytes) may reuse 1's 1000-byte block; 2 (10 bytes) is too small to match it
    assert tight.storage[3] == tight.storage[1]
    assert tight.storage[2] != tight.storage[1]
    off = plan_memory(steps, nbytes, dedicated={4}, external={0}, match_range=0)
    assert len(set(off.storage.values())) == 3 and off.planned_bytes == off.naive_bytes


def test_unused_outputs_are_freed():
    x = mx.sym.var("x")
    bn = mx.sym.BatchNorm(x, output_mean_var=False, name="bn") if hasattr(mx.sym, "BatchNorm") \
        else None
    if bn is None:
        pytest.skip("BatchNorm not registered")
    y = mx.sym.relu(bn) * 3
    ex = _bind(y, {"x": (4, 3, 2, 2)})
    ex.aux_dict["bn_moving_var"][:] = 1
    out = ex.forward()[0].asnumpy()
    np.testing.assert_allclose(out, _reference(y, ex)[0], rtol=1e-6, atol=1e-6)
