"""The single-process KVStore: sums, pulls to many devices, ordering on the engine,
updaters and optimizers, errors."""
from __future__ import annotations

import pickle
import threading
import time

import numpy as np
import pytest

import mxnet as mx
import mxnet.kvstore as kv
from mxnet import engine
from mxnet.base import MXNetError

DEVS = [mx.cpu(i) for i in range(4)]


@pytest.fixture(params=["NaiveEngine", "ThreadedEngine"])
def any_engine(request):
    prev = engine.set_engine(request.param)
    try:
        yield request.param
    finally:
        engine.set_engine(prev)


@pytest.fixture
def threaded():
    prev = engine.set_engine("ThreadedEngine")
    try:
        yield
    finally:
        engine.set_engine(prev)


def _rand(shape, seed):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32)


def _optimizer_module():
    try:
        import mxnet.optimizer as opt
    except ImportError:
        pytest.skip("mxnet.optimizer is not available yet")
    if not hasattr(opt, "create") or not hasattr(opt, "get_updater"):
        pytest.skip("mxnet.optimizer lacks create / get_updater")
    return opt


# -- creation ---------------------------------------------------------------------------------

def test_create_types_and_properties():
    for name, expect in [("local", "local"), ("Device", "device"), ("nccl", "nccl"),
                         ("local_allreduce_device", "local_allreduce_device")]:
        store = kv.create(name)
        assert isinstance(store, kv.KVStore) and isinstance(store, kv.KVStoreBase)
        assert (store.type, store.rank, store.num_workers) == (expect, 0, 1)
        assert store._barrier() is None
    assert kv.create()._on_device is False
    assert kv.create("nccl")._on_device and kv.create("device")._on_device


@pytest.mark.parametrize("name", ["dist_sync", "dist_async", "dist_device_sync", "DIST_SYNC_DEVICE"])
def test_dist_types_raise_clearly_outside_a_job(name):
    with pytest.raises(MXNetError, match="not part of a distributed job"):
        kv.create(name)


def test_register_custom_store():
    class MyStoreForTest(kv.KVStoreBase):
        pass
    try:
        assert kv.KVStoreBase.register(MyStoreForTest) is MyStoreForTest
        assert type(kv.create("MyStoreForTest")) is MyStoreForTest
        with pytest.warns(UserWarning, match="overriding"):
            kv.KVStoreBase.register(MyStoreForTest)
    finally:
        kv.KVStoreBase.kv_registry.pop("mystorefortest", None)


def test_teststore_pushpull_and_broadcast():
    store = kv.create("teststore")
    vals = [mx.nd.full((2,), i + 1, ctx=d) for i, d in enumerate(DEVS[:3])]
    store.pushpull(0, vals)
    assert all(v.asnumpy().tolist() == [6, 6] for v in vals)
    out = [mx.nd.zeros((2,), ctx=d) for d in DEVS[:2]]
    store.broadcast(1, mx.nd.array([3, 4]), out=out)
    assert all(o.asnumpy().tolist() == [3, 4] for o in out)


# -- sums and pulls across devices ----------------------------------------------------------------

@pytest.mark.parametrize("kind", ["local", "device"])
@pytest.mark.parametrize("ndev", [1, 2, 4])
def test_push_sums_values_pull_fills_every_device(kind, ndev, any_engine):
    store = kv.create(kind)
    shape = (3, 5)
    store.init(7, mx.nd.zeros(shape, ctx=DEVS[ndev - 1]))
    grads = [_rand(shape, i) for i in range(ndev)]
    store.push(7, [mx.nd.array(g, ctx=d) for g, d in zip(grads, DEVS)])
    outs = [mx.nd.full(shape, -1, ctx=d) for d in DEVS]
    store.pull(7, out=outs)
    want = np.sum(grads, axis=0)
    for o, d in zip(outs, DEVS):
        assert o.context == d
        np.testing.assert_allclose(o.asnumpy(), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kind", ["local", "device"])
def test_many_keys_lists_and_str_keys(kind, any_engine):
    store = kv.create(kind)
    names = ["w0", "w1", "bias"]
    shapes = [(4, 3), (2,), (5, 1)]
    store.init(names, [mx.nd.zeros(s) for s in shapes])
    grads = [[_rand(s, 10 * k + i) for i in range(4)] for k, s in enumerate(shapes)]
    store.push(names, [[mx.nd.array(g, ctx=d) for g, d in zip(gs, DEVS)] for gs in grads])
    outs = [[mx.nd.zeros(s, ctx=d) for d in DEVS] for s in shapes]
    store.pull(names, out=outs)
    for gs, os_ in zip(grads, outs):
        for o in os_:
            np.testing.assert_allclose(o.asnumpy(), np.sum(gs, axis=0), rtol=1e-6, atol=1e-6)


def test_device_store_spreads_keys_over_devices():
    store = kv.create("device")
    keys = list(range(8))
    sizes = [64, 8, 32, 16, 64, 8, 32, 16]
    store.init(keys, [mx.nd.zeros((n,)) for n in sizes])
    store.push(0, [mx.nd.ones((64,), ctx=d) for d in DEVS])
    homes = {k: store._store[k].home for k in keys}
    load = {d: 0 for d in DEVS}
    for k, n in zip(keys, sizes):
        load[homes[k]] += n
    assert set(homes.values()) == set(DEVS)
    assert max(load.values()) - min(load.values()) <= 16
    # the stored value lives on its home, where the pushes are summed
    assert all(store._store[k].ctx == homes[k] for k in keys)
    out = mx.nd.zeros((64,), ctx=mx.cpu(3))
    store.pull(0, out=out)
    assert out.asnumpy().tolist() == [4.0] * 64


def test_local_store_keeps_values_in_cpu_memory():
    store = kv.create("local")
    store.init(0, mx.nd.ones((2,), ctx=mx.cpu(2)))
    store.push(0, [mx.nd.ones((2,), ctx=d) for d in DEVS])
    assert store._store[0].ctx == mx.cpu_pinned(0)


def test_init_copies_and_pull_casts_dtype(any_engine):
    store = kv.create("device")
    v = mx.nd.array([1, 2, 3], dtype="float64")
    store.init(0, v)
    v[:] = 9
    a, b = mx.nd.zeros((3,), dtype="int32"), mx.nd.zeros((3,), dtype="float16")
    store.pull(0, out=[a, b])
    assert a.asnumpy().tolist() == [1, 2, 3] and a.dtype == np.int32
    assert b.asnumpy().tolist() == [1, 2, 3] and b.dtype == np.float16


# -- ordering on the engine -------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["local", "device"])
def test_repeated_push_pull_rounds_keep_order(kind, threaded):
    """A data-parallel loop: each round's gradients depend on the weights just pulled."""
    store = kv.create(kind)
    shape = (64, 33)
    keys = [0, 1, 2]
    store.init(keys, [mx.nd.zeros(shape) for _ in keys])
    w = {k: [mx.nd.zeros(shape, ctx=d) for d in DEVS] for k in keys}
    g = {k: [mx.nd.ones(shape, ctx=d) for d in DEVS] for k in keys}
    ref = {k: np.zeros(shape, np.float32) for k in keys}
    ref_g = {k: [np.ones(shape, np.float32) for _ in DEVS] for k in keys}
    for r in range(25):
        for k in keys:
            store.push(k, g[k], priority=-k)
        for k in keys:
            store.pull(k, out=w[k], priority=-k)
        for k in keys:
            for i in range(len(DEVS)):
                g[k][i] = w[k][i] * 0.5 + (i + r + k)  # waits for the pull
            ref[k] = np.sum(ref_g[k], axis=0)
            ref_g[k] = [ref[k] * 0.5 + (i + r + k) for i in range(len(DEVS))]
    for k in keys:
        for wi in w[k]:
            np.testing.assert_allclose(wi.asnumpy(), ref[k], rtol=1e-5)


def test_pull_waits_for_slow_push_even_with_higher_priority(threaded):
    store = kv.create("device")
    store.init(0, mx.nd.zeros((4,)))
    src = mx.nd.zeros((4,))
    gate = threading.Event()

    def slow_writer():
        gate.wait(2)
        time.sleep(0.02)
        src._data[:] = 5

    engine.push(slow_writer, (), (src.engine_var,), prop=engine.FnProperty.ASYNC, name="slow")
    store.push(0, src, priority=-10)     # reads src: waits for the slow writer
    out = mx.nd.zeros((4,))
    store.pull(0, out=out, priority=10)  # depends on the push despite its priority
    gate.set()
    assert out.asnumpy().tolist() == [5.0] * 4


def test_writing_a_pushed_array_waits_for_the_push(threaded):
    store = kv.create("local")
    store.init(0, mx.nd.zeros((1000,)))
    a = mx.nd.ones((1000,))
    b = mx.nd.ones((1000,), ctx=mx.cpu(1))
    for _ in range(20):
        store.push(0, [a, b])
        a += 1       # must not leak into the push above
        b[:] = 100
        out = mx.nd.zeros((1000,))
        store.pull(0, out=out)
        assert out.asnumpy()[0] == 2.0
        a[:] = 1
        b[:] = 1


def test_pushpull_inplace_and_to_out(any_engine):
    store = kv.create("device")
    store.init("g", mx.nd.zeros((3,)))
    vals = [mx.nd.array([1, 2, 3], ctx=d) for d in DEVS]
    store.pushpull("g", vals)
    assert all(v.asnumpy().tolist() == [4, 8, 12] for v in vals)
    outs = [mx.nd.zeros((3,), ctx=d) for d in DEVS[:2]]
    store.pushpull("g", vals[:2], out=outs)
    assert all(o.asnumpy().tolist() == [8, 16, 24] for o in outs)
    assert vals[0].asnumpy().tolist() == [4, 8, 12]


def test_broadcast_initialises_and_fills(any_engine):
    store = kv.create("device")
    outs = [mx.nd.zeros((2, 2), ctx=d) for d in DEVS]
    store.broadcast(3, mx.nd.array([[1, 2], [3, 4]], ctx=mx.cpu(1)), out=outs)
    assert all(o.asnumpy().tolist() == [[1, 2], [3, 4]] for o in outs)
    with pytest.raises(MXNetError, match="duplicate init of key 3"):
        store.broadcast(3, mx.nd.zeros((2, 2)), out=outs[0])


def test_row_sparse_pull_dense_rows(any_engine):
    store = kv.create("local")
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    store.init("emb", mx.nd.array(data))
    out = mx.nd.full((4, 3), -1)
    store.row_sparse_pull("emb", out=out, row_ids=mx.nd.array([2, 0, 2]))
    want = np.zeros_like(data)
    want[[0, 2]] = data[[0, 2]]
    np.testing.assert_array_equal(out.asnumpy(), want)
    # one row_ids array for many outputs: pulled once, then copied
    outs = [mx.nd.zeros((4, 3), ctx=d) for d in DEVS[:3]]
    store.row_sparse_pull("emb", out=outs, row_ids=mx.nd.array([3], dtype="int64"))
    want = np.zeros_like(data)
    want[3] = data[3]
    for o in outs:
        np.testing.assert_array_equal(o.asnumpy(), want)
    # one row_ids array per output
    outs = [mx.nd.zeros((4, 3), ctx=d) for d in DEVS[:2]]
    store.row_sparse_pull("emb", out=outs, row_ids=[mx.nd.array([1]), mx.nd.array([0, 1])])
    np.testing.assert_array_equal(outs[0].asnumpy()[1], data[1])
    np.testing.assert_array_equal(outs[1].asnumpy()[:2], data[:2])
    with pytest.raises(AssertionError, match="number of row_ids"):
        store.row_sparse_pull("emb", out=outs, row_ids=[mx.nd.array([1])] * 3)


# -- updaters -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["local", "device"])
def test_custom_updater_sees_sum_and_weight_on_one_device(kind, any_engine):
    store = kv.create(kind)
    calls = []

    def updater(key, grad, weight):
        calls.append((key, grad.context, weight.context, grad.asnumpy().copy()))
        weight[:] = weight - 0.5 * grad

    store._set_updater(updater)
    store.init(["a", "b"], [mx.nd.ones((3,)), mx.nd.zeros((2,))])
    assert calls == []  # init does not update
    store.push("a", [mx.nd.full((3,), i, ctx=d) for i, d in enumerate(DEVS)])
    store.push("a", mx.nd.ones((3,), ctx=mx.cpu(2)))
    assert [c[0] for c in calls] == [b"a", b"a"]  # str keys arrive as bytes, as in 1.9.1
    assert all(c[1] == c[2] for c in calls)
    assert calls[0][3].tolist() == [6, 6, 6]
    out = mx.nd.zeros((3,), ctx=mx.cpu(3))
    store.pull("a", out=out)
    assert out.asnumpy().tolist() == [1 - 3 - 0.5] * 3


def test_set_updater_alias_and_int_keys(any_engine):
    store = kv.create("device")
    seen = []
    store.set_updater(lambda k, g, w: (seen.append(k), w.__iadd__(g)))
    store.init(5, mx.nd.ones((2,)))
    store.pushpull(5, [mx.nd.ones((2,), ctx=d) for d in DEVS])
    mx.nd.waitall()
    assert seen == [5]


def test_updater_waits_for_pending_pulls_of_the_weight(threaded):
    store = kv.create("local")
    store.init(0, mx.nd.zeros((5000,)))
    store._set_updater(lambda k, g, w: w.__iadd__(g))
    outs = []
    for _ in range(10):
        store.push(0, [mx.nd.ones((5000,), ctx=d) for d in DEVS])
        o = mx.nd.zeros((5000,))
        store.pull(0, out=o)
        outs.append(o)
    for r, o in enumerate(outs):
        assert o.asnumpy()[0] == 4.0 * (r + 1)


def test_updater_failure_raises_from_push(any_engine):
    store = kv.create("local")
    store.init(0, mx.nd.zeros((2,)))

    def broken(key, grad, weight):
        raise ValueError("boom")

    store._set_updater(broken)
    with pytest.raises(ValueError, match="boom"):
        store.push(0, mx.nd.ones((2,)))


def test_async_failure_surfaces_at_wait_point(threaded):
    store = kv.create("local")
    store.init(0, mx.nd.zeros((4, 2)))
    out = mx.nd.zeros((4, 2))
    store.row_sparse_pull(0, out=out, row_ids=mx.nd.array([7]))  # row 7 does not exist
    with pytest.raises(MXNetError, match="KVStore.row_sparse_pull"):
        out.asnumpy()
    store.pull(0, out=out)  # the store itself is fine
    assert out.asnumpy().sum() == 0


class _FakeUpdater:
    """Enough of optimizer.Updater for the store's state plumbing."""

    def __init__(self):
        self.states = {}
        self.optimizer = "opt"

    def __call__(self, key, grad, weight):
        self.states[key] = self.states.get(key, 0) + 1
        weight += grad

    def get_states(self, dump_optimizer=False):
        return pickle.dumps((self.states, self.optimizer) if dump_optimizer else self.states)

    def set_states(self, states):
        states = pickle.loads(states)
        if isinstance(states, tuple) and len(states) == 2:
            self.states, self.optimizer = states
        else:
            self.states = states


def test_save_load_states_plumbing(tmp_path):
    store = kv.create("local")
    store._set_updater(_FakeUpdater())
    store.init([0, 1], [mx.nd.zeros((2,)), mx.nd.zeros((2,))])
    store.push([0, 1, 0], [mx.nd.ones((2,))] * 3)
    store.push(0, mx.nd.ones((2,)))
    store.save_optimizer_states(str(tmp_path / "s"))
    store.save_optimizer_states(str(tmp_path / "s_opt"), dump_optimizer=True)
    assert pickle.loads((tmp_path / "s").read_bytes()) == {0: 2, 1: 1}
    other = kv.create("local")
    other._set_updater(_FakeUpdater())
    other.load_optimizer_states(str(tmp_path / "s_opt"))
    assert other._updater.states == {0: 2, 1: 1} and other._updater.optimizer == "opt"


# -- optimizers (need mxnet.optimizer) ------------------------------------------------------------------

@pytest.mark.parametrize("kind,key", [("local", 3), ("device", "weight")])
def test_optimizer_on_store_matches_updater_by_hand(kind, key, any_engine):
    opt = _optimizer_module()
    make = lambda: opt.create("sgd", learning_rate=0.1, momentum=0.9, wd=0.01, rescale_grad=0.25)
    store = kv.create(kind)
    store.set_optimizer(make())
    w0 = _rand((4, 3), 0)
    store.init(key, mx.nd.array(w0))
    by_hand = opt.get_updater(make())
    weight = mx.nd.array(w0)
    for r in range(4):
        grads = [_rand((4, 3), 10 * r + i) for i in range(len(DEVS))]
        store.push(key, [mx.nd.array(g, ctx=d) for g, d in zip(grads, DEVS)])
        by_hand(key, mx.nd.array(np.sum(grads, axis=0)), weight)
    outs = [mx.nd.zeros((4, 3), ctx=d) for d in DEVS]
    store.pull(key, out=outs)
    for o in outs:
        np.testing.assert_allclose(o.asnumpy(), weight.asnumpy(), rtol=1e-5, atol=1e-6)


def test_optimizer_states_round_trip(tmp_path):
    opt = _optimizer_module()
    make = lambda: opt.create("adam", learning_rate=0.01)
    store = kv.create("device")
    store.set_optimizer(make())
    store.init([0, 1], [mx.nd.ones((3,)), mx.nd.ones((2, 2))])

    def step(s, r):
        s.push([0, 1], [[mx.nd.full((3,), r + i, ctx=d) for i, d in enumerate(DEVS[:2])],
                        mx.nd.full((2, 2), -r)])

    for r in range(3):
        step(store, r)
    fname = str(tmp_path / "adam.states")
    store.save_optimizer_states(fname, dump_optimizer=True)
    w = [mx.nd.zeros((3,)), mx.nd.zeros((2, 2))]
    store.pull([0, 1], out=w)
    restored = kv.create("device")
    restored.set_optimizer(make())
    restored.init([0, 1], w)
    restored.load_optimizer_states(fname)
    step(store, 3)
    step(restored, 3)
    a = [mx.nd.zeros((3,)), mx.nd.zeros((2, 2))]
    b = [mx.nd.zeros((3,)), mx.nd.zeros((2, 2))]
    store.pull([0, 1], out=a)
    restored.pull([0, 1], out=b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x.asnumpy(), y.asnumpy(), rtol=1e-6)


# -- gradient compression ------------------------------------------------------------------------------

def test_two_bit_compression_keeps_residual_per_source(any_engine):
    store = kv.create("device")
    store.set_gradient_compression({"type": "2bit", "threshold": 0.25})
    shape = (50,)
    store.init(0, mx.nd.zeros(shape))
    resid = [np.zeros(shape, np.float32) for _ in DEVS]
    out = mx.nd.zeros(shape)
    for r in range(6):
        grads = [_rand(shape, 100 * r + i) * 0.4 for i in range(len(DEVS))]
        store.push(0, [mx.nd.array(g, ctx=d) for g, d in zip(grads, DEVS)])
        total = np.zeros(shape, np.float32)
        for i, g in enumerate(grads):
            resid[i] += g
            q = np.where(resid[i] >= 0.25, 0.25, np.where(resid[i] <= -0.25, -0.25, 0)).astype(np.float32)
            resid[i] -= q
            total += q
        store.pull(0, out=out)
        np.testing.assert_allclose(out.asnumpy(), total, atol=1e-6)


def test_compression_only_on_device_stores():
    with pytest.raises(Exception, match="not supported for this type"):
        kv.create("local").set_gradient_compression({"type": "2bit"})
    with pytest.raises(Exception, match="not supported for this type"):
        kv.create("nccl").set_gradient_compression({"type": "2bit"})
    with pytest.raises(MXNetError, match="threshold must be greater than 0"):
        kv.create("device").set_gradient_compression({"type": "2bit", "threshold": -1})


# -- errors ---------------------------------------------------------------------------------------------

def test_uninitialised_keys_are_named():
    store = kv.create("local")
    store.init(1, mx.nd.zeros((2,)))
    with pytest.raises(MXNetError, match="key 4 has not been inited"):
        store.push(4, mx.nd.ones((2,)))
    with pytest.raises(MXNetError, match="key 5 has not been inited"):
        store.pull(5, out=mx.nd.ones((2,)))
    with pytest.raises(MXNetError, match="key 6 has not been inited"):
        store.pushpull([1, 6], [mx.nd.ones((2,)), mx.nd.ones((2,))])
    s2 = kv.create("device")
    s2.init("a", mx.nd.zeros((2,)))
    with pytest.raises(MXNetError, match="key 'b' has not been inited"):
        s2.row_sparse_pull("b", out=mx.nd.ones((2,)), row_ids=mx.nd.array([0]))


def test_shape_mismatch_names_key_and_shapes():
    store = kv.create("device")
    store.init("w", mx.nd.zeros((2, 3)))
    with pytest.raises(MXNetError, match=r"key 'w'.*\(2, 3\).*\(3, 2\)"):
        store.push("w", [mx.nd.zeros((2, 3)), mx.nd.zeros((3, 2), ctx=mx.cpu(1))])
    with pytest.raises(MXNetError, match=r"key 'w'.*\(2, 3\).*\(6,\)"):
        store.pull("w", out=mx.nd.zeros((6,)))
    out = mx.nd.full((2, 3), 4)
    store.pull("w", out=out)  # nothing was pushed by the failed calls
    assert out.asnumpy().sum() == 0


def test_key_kinds_cannot_mix():
    store = kv.create("local")
    store.init(0, mx.nd.zeros((1,)))
    with pytest.raises(MXNetError, match="Mixed key types"):
        store.init("w", mx.nd.zeros((1,)))
    with pytest.raises(AssertionError, match="inconsistent types of keys"):
        kv.create("local").init([1, "a"], [mx.nd.zeros((1,))] * 2)
    with pytest.raises(AssertionError, match="unexpected type for keys"):
        kv.create("local").init(np.int32(1), mx.nd.zeros((1,)))


def test_save_states_without_updater():
    with pytest.raises(AssertionError, match="Cannot save states"):
        kv.create("local").save_optimizer_states("never-written")
