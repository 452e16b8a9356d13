"""Regressions from a compatibility sweep of the single-process KVStore (local / device) and
of row_sparse optimizer states held by a store. Expected values were recorded from MXNet
1.9.1 (NaiveEngine) running the same calls."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.base import MXNetError


def _rsp(rows, value, shape=(6, 2), ctx=None):
    data = np.full((len(rows), shape[1]), value, dtype="float32")
    return mx.nd.sparse.row_sparse_array((data, rows), shape=shape, ctx=ctx or mx.cpu(0))


def _run_rsp_store(name, **kw):
    """A store holding a row_sparse weight, updated by three pushes of different rows."""
    kv = mx.kv.create("local")
    kv.init("w", mx.nd.array(np.arange(12).reshape(6, 2) / 10.).tostype("row_sparse"))
    kv.set_optimizer(mx.optimizer.create(name, learning_rate=0.1, **kw))
    for rows in ([0, 2], [2, 5], [1]):
        kv.push("w", _rsp(rows, 0.5))
    out = mx.nd.sparse.zeros("row_sparse", (6, 2))
    kv.row_sparse_pull("w", out=out, row_ids=mx.nd.arange(0, 6))
    states = kv._updater.states["w"]
    return out, states if isinstance(states, tuple) else (states,)


# recorded from 1.9.1 (rounded to 5 decimals): (weight after the pushes, each state's
# values); every state is a row_sparse array storing all 6 rows, as is the weight
_UNTOUCHED = [[0.6, 0.7], [0.8, 0.9]]   # rows 3 and 4 are never pushed
RSP_STORE_CASES = {
    "sgd_mom": (("sgd", dict(momentum=0.9, wd=0.1)),
                [[-0.05, 0.049], [0.148, 0.247], [0.24394, 0.34105]] + _UNTOUCHED +
                [[0.94, 1.039]],
                [[[-0.05, -0.051], [-0.052, -0.053], [-0.10206, -0.10395], [0, 0], [0, 0],
                  [-0.06, -0.061]]]),
    "adam": (("adam", dict(wd=0.1)),
             [[-0.1, -0.0], [0.13612, 0.23612], [0.20005, 0.30005]] + _UNTOUCHED +
             [[0.92559, 1.02559]],
             [[[0.05, 0.051], [0.052, 0.053], [0.1016, 0.1035], [0, 0], [0, 0], [0.06, 0.061]],
              [[0.00025, 0.00026], [0.00027, 0.00028], [0.00057, 0.00059], [0, 0], [0, 0],
               [0.00036, 0.00037]]]),
    "adagrad": (("adagrad", {}),
                [[-0.1, 0.0], [0.1, 0.2], [0.22929, 0.32929]] + _UNTOUCHED + [[0.9, 1.0]],
                [[[0.25, 0.25], [0.25, 0.25], [0.5, 0.5], [0, 0], [0, 0], [0.25, 0.25]]]),
    # ftrl was a dense (non-lazy) update here before: rows 3 and 4 became 0
    "ftrl": (("ftrl", dict(wd=0.1)),
             [[-0.03245, 0.0], [0.03245, 0.06556], [0.06956, 0.10267]] + _UNTOUCHED +
             [[0.29735, 0.33046]],
             [[[0.5, 0.0], [-0.5, -1.0], [-1.20436, -1.77294], [0, 0], [0, 0], [-4.5, -5.0]],
              [[0.25, 0.25], [0.25, 0.25], [0.5, 0.5], [0, 0], [0, 0], [0.25, 0.25]]]),
}


@pytest.mark.parametrize("case", sorted(RSP_STORE_CASES))
def test_store_keeps_row_sparse_states_and_updates_lazily(case):
    (name, kw), want_w, want_states = RSP_STORE_CASES[case]
    out, states = _run_rsp_store(name, **kw)
    assert out.indices.asnumpy().tolist() == list(range(6))
    np.testing.assert_allclose(out.asnumpy(), want_w, rtol=0, atol=6e-6)
    assert len(states) == len(want_states)
    for st, want in zip(states, want_states):
        assert st.stype == "row_sparse"
        assert st.indices.asnumpy().tolist() == list(range(6))   # 1.9.1 fills them
        np.testing.assert_allclose(st.asnumpy(), want, rtol=0, atol=6e-6)   # 5 decimals


def test_store_standard_update_keeps_dense_states():
    # lazy_update=False: 1.9.1 gives dense states and a standard update of every row
    out, (st,) = _run_rsp_store("sgd", momentum=0.9, wd=0.1, lazy_update=False)
    assert st.stype == "default"
    np.testing.assert_allclose(out.asnumpy()[3:5], [[0.56663, 0.66107], [0.7555, 0.84994]],
                               rtol=1e-4)


def test_imperative_states_of_a_full_row_sparse_weight_are_full():
    opt = mx.optimizer.create("adam", learning_rate=0.1, wd=0.1)
    upd = mx.optimizer.get_updater(opt)
    w = mx.nd.array(np.arange(12).reshape(6, 2) / 10.).tostype("row_sparse")
    for rows in ([0, 2], [2, 5]):
        upd(0, _rsp(rows, 0.5), w)
    mean, var = upd.states[0]
    # recorded from 1.9.1
    for st in (mean, var):
        assert st.stype == "row_sparse"
        assert st.indices.asnumpy().tolist() == [0, 1, 2, 3, 4, 5]
    np.testing.assert_allclose(mean.asnumpy()[[0, 2, 5]],
                               [[0.05, 0.051], [0.1016, 0.1035], [0.06, 0.061]], rtol=1e-4)


def test_row_sparse_states_survive_save_and_load(tmp_path):
    kv = mx.kv.create("device")
    w0 = mx.nd.array(np.arange(15).reshape(5, 3) / 7.).tostype("row_sparse")
    kv.init("a", w0)
    make = lambda: mx.optimizer.create("adam", learning_rate=0.2, beta1=0.8)  # noqa: E731
    kv.set_optimizer(make())
    for step, (r1, r2) in enumerate([([0, 3], [3]), ([1], [4]), ([], [0, 2])]):
        kv.push("a", [_rsp(r1, 0.4 + step, (5, 3), mx.cpu(0)),
                      _rsp(r2, -0.3, (5, 3), mx.cpu(1))])
    fname = str(tmp_path / "kv.states")
    kv.save_optimizer_states(fname)
    kv2 = mx.kv.create("device")
    kv2.init("a", w0)
    kv2.set_optimizer(make())
    kv2.load_optimizer_states(fname)
    mean = kv2._updater.states["a"][0]
    assert mean.stype == "row_sparse"
    # recorded from 1.9.1
    np.testing.assert_allclose(mean.asnumpy()[:, 0], [0.004, 0.28, -0.06, 0.02, -0.06],
                               rtol=1e-5)
    kv2.push("a", _rsp([2], 1.0, (5, 3)))
    out = mx.nd.zeros((5, 3))
    kv2.pull("a", out=out)
    np.testing.assert_allclose(out.asnumpy()[2], [0.71155, 0.8544, 0.99726], rtol=0, atol=6e-6)
    np.testing.assert_allclose(out.asnumpy()[3], [1.28571, 1.42857, 1.57143], rtol=1e-4)


def test_pull_of_a_row_sparse_value_into_dense_logs_the_copy(capfd):
    from mxnet.ndarray import _fallback_log
    _fallback_log._seen.clear()
    kv = mx.kv.create("local")
    kv.init(3, mx.nd.array([[1, 2], [0, 0], [3, 4]]).tostype("row_sparse"))
    out = mx.nd.zeros((3, 2))
    kv.pull(3, out=out)
    assert out.asnumpy().tolist() == [[1, 2], [0, 0], [3, 4]]
    err = capfd.readouterr().err
    assert "Copy from row_sparse storage type on cpu to default storage type on cpu." in err
    # after a dense push the stored value is dense: no message for a dense pull
    kv.push(3, mx.nd.ones((3, 2)))
    kv.pull(3, out=out)
    assert "Storage fallback" not in capfd.readouterr().err


def test_pushpull_leaves_sparse_outputs_alone():
    kv = mx.kv.create("local")
    kv.init("p", mx.nd.array([[1, 1], [0, 0], [2, 2], [0, 0]]).tostype("row_sparse"))
    vals = [_rsp([1], i * 2 + 1, (4, 2), mx.cpu(i)) for i in range(2)]
    kv.pushpull("p", vals)
    # recorded from 1.9.1: the values keep their own rows; the store holds the sum
    assert [v.asnumpy()[1].tolist() for v in vals] == [[1, 1], [3, 3]]
    outs = [mx.nd.sparse.zeros("row_sparse", (4, 2)) for _ in range(2)]
    kv.pushpull("p", vals, out=outs)
    assert all(o.indices.asnumpy().tolist() == [] for o in outs)
    dense = [mx.nd.zeros((4, 2)) for _ in range(2)]
    kv.pushpull("p", vals, out=dense)
    assert all(d.asnumpy().tolist() == [[0, 0], [4, 4], [0, 0], [0, 0]] for d in dense)


def test_row_sparse_pull_of_a_value_without_rows():
    kv = mx.kv.create("local")
    kv.init("e", mx.nd.sparse.zeros("row_sparse", (6, 2)))
    out = mx.nd.sparse.zeros("row_sparse", (6, 2))
    kv.row_sparse_pull("e", out=out, row_ids=mx.nd.array([1, 2]))
    assert out.indices.asnumpy().tolist() == []   # as 1.9.1
    kv.init("f", mx.nd.array([[1, 1], [0, 0], [2, 2]]).tostype("row_sparse"))
    out = mx.nd.sparse.zeros("row_sparse", (3, 2))
    kv.row_sparse_pull("f", out=out, row_ids=mx.nd.array([0, 1, 2]))
    assert out.indices.asnumpy().tolist() == [0, 1, 2]   # absent rows come back as zeros


@pytest.mark.parametrize("dtype", ["float16", "float64", "int32"])
def test_two_bit_compression_needs_float32(dtype):
    kv = mx.kv.create("device")
    kv.set_gradient_compression({"type": "2bit", "threshold": 0.5})
    kv.init(0, mx.nd.zeros((3,), dtype=dtype))
    with pytest.raises(MXNetError, match="float32"):
        kv.push(0, [mx.nd.array([0.6, -0.7, 0.2], ctx=mx.cpu(i), dtype=dtype)
                    for i in range(2)])


def test_int_keys_must_fit_32_bits():
    kv = mx.kv.create("local")
    kv.init(2**31 - 1, mx.nd.ones((1,)))
    kv.init(-2**31, mx.nd.ones((1,)))
    for key in (2**31, -2**31 - 1, 2**40):
        with pytest.raises(OverflowError):
            kv.init(key, mx.nd.ones((1,)))


def test_trainer_row_sparse_grads_reduced_before_a_fallback_update():
    # ftrl runs densely on Embedding(sparse_grad=True) weights; with update_on_kvstore=False
    # it read each device's gradient before the store's pull had written the sum into it
    ctxs = [mx.cpu(0), mx.cpu(1)]
    emb = gluon.nn.Embedding(6, 2, sparse_grad=True)
    emb.initialize(mx.init.Constant(0.3), ctx=ctxs)
    tr = gluon.Trainer(emb.collect_params(), "ftrl", {"learning_rate": 0.1}, kvstore="local",
                       update_on_kvstore=False)
    for b in ([[0, 2], [2, 3]], [[5], [0]], [[1, 1], [4]]):
        xs = [mx.nd.array(x, ctx=c) for x, c in zip(b, ctxs)]
        with autograd.record():
            ls = [(emb(x) * mx.nd.array([1, -2], ctx=x.context)).sum() for x in xs]
        for loss in ls:
            loss.backward()
        tr.step(1)
    want = [[0.05808, 0.31857], [-0.06633, 0.0798], [0.133, 0.3198], [0.0995, 0.26633],
            [-0.0495, 0.06633], [-0.0495, 0.06633]]   # recorded from 1.9.1, on both devices
    for c in ctxs:
        np.testing.assert_allclose(emb.weight.data(c).asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_trainer_row_sparse_parameter_keeps_row_sparse_states_in_the_store():
    ctxs = [mx.cpu(0), mx.cpu(1)]
    p = gluon.Parameter("w", shape=(6, 2), stype="row_sparse", grad_stype="row_sparse")
    p.initialize(ctx=ctxs, init=mx.init.Constant(0.4))
    tr = gluon.Trainer([p], "ftrl", {"learning_rate": 0.1, "wd": 0.01}, kvstore="local")
    for rows in ([[0, 2], [2, 3]], [[5], [0]], [[1], [4, 5]]):
        for c, r in zip(ctxs, rows):
            w = p.row_sparse_data(mx.nd.array(r, ctx=c))
            with autograd.record():
                y = mx.nd.Embedding(mx.nd.array(r, ctx=c), w, input_dim=6, output_dim=2,
                                    sparse_grad=True)
                loss = (y * mx.nd.array([1, -1], ctx=c)).sum()
            loss.backward()
        tr.step(1)
    full = p.row_sparse_data(mx.nd.arange(0, 6, ctx=ctxs[1]))
    # recorded from 1.9.1 (5 decimals)
    np.testing.assert_allclose(
        full.asnumpy(), [[0.10802, 0.29078], [0.14943, 0.24938], [0.1996, 0.33289],
                         [0.14943, 0.24938], [0.14943, 0.24938], [0.10802, 0.29078]],
        rtol=0, atol=6e-6)
    z, n = tr._kvstore._updater.states[0]
    for st in (z, n):
        assert st.stype == "row_sparse"
        assert st.indices.asnumpy().tolist() == [0, 1, 2, 3, 4, 5]
    np.testing.assert_allclose(n.asnumpy()[:, 0], [2, 1, 4, 1, 1, 2])
    np.testing.assert_allclose(z.asnumpy()[0], [-2.61894, -7.03295], rtol=0, atol=6e-6)


def test_trainer_refuses_a_kvstore_of_another_type():
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = gluon.nn.Dense(2, in_units=3)
    net.initialize(ctx=ctxs)
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, kvstore=3)
    xs = gluon.utils.split_and_load(mx.nd.ones((4, 3)), ctxs)
    with autograd.record():
        ls = [net(x).sum() for x in xs]
    for loss in ls:
        loss.backward()
    with pytest.raises(TypeError, match="kvstore must be KVStore, str or None"):
        tr.step(4)


def test_dense_push_into_a_row_sparse_weight_keeps_row_sparse_states():
    kv = mx.kv.create("local")
    kv.init("w", mx.nd.array(np.arange(8).reshape(4, 2) + 1.).tostype("row_sparse"))
    kv.set_optimizer(mx.optimizer.create("sgd", learning_rate=0.1, momentum=0.9))
    kv.push("w", mx.nd.ones((4, 2)))   # 1.9.1: a storage fallback, the states row_sparse
    assert kv._updater.states["w"].stype == "row_sparse"
    kv.push("w", [_rsp([1], 1.0, (4, 2), mx.cpu(i)) for i in range(2)])   # then lazy
    out = mx.nd.zeros((4, 2))
    kv.pull("w", out=out)
    # recorded from 1.9.1
    np.testing.assert_allclose(out.asnumpy(), [[0.9, 1.9], [2.61, 3.61], [4.9, 5.9],
                                               [6.9, 7.9]], rtol=1e-6)
    mom = kv._updater.states["w"]
    assert mom.indices.asnumpy().tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(mom.asnumpy()[:, 0], [-0.1, -0.29, -0.1, -0.1], rtol=1e-6)


def test_mp_sgd_mom_update_gives_row_sparse_states_their_new_values():
    w = mx.nd.array(np.arange(10).reshape(5, 2) + 1, dtype="float16").tostype("row_sparse")
    g = mx.nd.sparse.row_sparse_array((np.ones((2, 2), dtype="float16"), [0, 3]), shape=(5, 2),
                                      dtype="float16")
    mom = mx.nd.sparse.zeros("row_sparse", (5, 2), dtype="float32")
    w32 = w.astype("float32")
    mx.nd.mp_sgd_mom_update(w, g, mom, w32, out=w, lr=0.1, momentum=0.5)
    # recorded from 1.9.1 (its storage fallback writes the states back)
    np.testing.assert_allclose(mom.asnumpy()[:, 0], [-0.1, 0, 0, -0.1, 0], rtol=1e-6)
    np.testing.assert_allclose(w32.asnumpy()[:, 0], [0.9, 3, 5, 6.9, 9], rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy()[:, 0], [0.89990234375, 3, 5, 6.8984375, 9])


def test_float16_row_sparse_weight_with_multi_precision_in_the_store():
    kv = mx.kv.create("device")
    dt = "float16"
    kv.init("w", mx.nd.array(np.arange(10).reshape(5, 2) + 1, dtype=dt).tostype("row_sparse"))
    g = [mx.nd.sparse.row_sparse_array((np.ones((2, 2), dtype=dt) * (i + 1), [i, 3]),
                                       shape=(5, 2), ctx=mx.cpu(i), dtype=dt) for i in range(3)]
    kv.push("w", g)   # no updater yet: the store keeps the sum (rows 0-3)
    kv.set_optimizer(mx.optimizer.create("sgd", learning_rate=0.1, momentum=0.5,
                                         multi_precision=True))
    kv.push("w", g)
    kv.push("w", g[:1])
    out = mx.nd.sparse.zeros("row_sparse", (5, 2), dtype=dt)
    kv.row_sparse_pull("w", out=out, row_ids=mx.nd.arange(0, 5, dtype="int64"))
    # recorded from 1.9.1 (4 decimals)
    np.testing.assert_allclose(out.asnumpy()[:, 0], [0.75, 1.7002, 2.5508, 5.0, 0.0],
                               atol=1e-4)
    mom, w32 = kv._updater.states["w"]
    assert (mom.stype, w32.stype, mom.dtype, w32.dtype) == ("row_sparse", "row_sparse",
                                                           np.float32, np.float32)
    assert mom.indices.asnumpy().tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(mom.asnumpy()[:, 0], [-0.15, -0.1, -0.15, -0.4, 0], atol=1e-6)
    np.testing.assert_allclose(w32.asnumpy()[:, 0], [0.75, 1.7, 2.55, 5.0, 0], atol=1e-6)
