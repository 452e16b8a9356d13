"""Row_sparse gradients in Gluon against MXNet 1.9.1 (tests/golden/sparse_gluon.npz, written
by tools/golden/gen_sparse_gluon.py): Embedding(sparse_grad=True) + Dense trained with
sgd / adam on one device and on two (KVStore row-union reduction), lazy updates leaving the
untouched rows and their optimizer states alone."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "golden"))
import gen_sparse_gluon as gen  # noqa: E402

GOLD = np.load(ROOT / "tests" / "golden" / "sparse_gluon.npz")
UNTOUCHED = [2, 4, 8, 9]


@pytest.mark.parametrize("case", list(gen.CASES))
def test_training_matches_reference(case):
    got = gen.run_case(mx, case)
    want = {k: v for k, v in GOLD.items() if k.startswith(case + "/")}
    assert sorted(got) == sorted(want)
    for k, v in want.items():
        np.testing.assert_allclose(got[k], v, rtol=1e-5, atol=1e-6, err_msg=k)


@pytest.mark.parametrize("case", ["sgd_mom", "adam", "adagrad"])
def test_untouched_rows_and_states_stay(case):
    emb0 = gen.initial_weights()[0]
    got = gen.run_case(mx, case)
    np.testing.assert_array_equal(got[f"{case}/2/emb"][UNTOUCHED], emb0[UNTOUCHED])
    for j in range(2 if case == "adam" else 1):
        np.testing.assert_array_equal(got[f"{case}/2/state{j}"][UNTOUCHED], 0)


def test_grad_stype_and_zero_grad():
    got = gen.grad_checks(mx)
    for k, v in GOLD.items():
        if k.startswith("grad/"):
            np.testing.assert_allclose(got[k], v, rtol=1e-6, err_msg=k)


def test_param_grad_is_row_sparse_on_every_context():
    p = mx.gluon.Parameter("w", shape=(5, 2), grad_stype="row_sparse")
    p.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    assert all(g.stype == "row_sparse" for g in p.list_grad())
    assert p.grad(mx.cpu(1)).stype == "row_sparse"
    p.grad_req = "null"
    p.grad_req = "write"
    assert p.grad().stype == "row_sparse"


def test_bad_grad_stype():
    # as 1.9.1: an unknown grad_stype is refused when the Parameter is made
    with pytest.raises(MXNetError, match="grad_stype"):
        mx.gluon.Parameter("w", shape=(5, 2), grad_stype="dense")


def test_lazy_update_false_is_dense_update():
    """lazy_update=False: every row decays and carries momentum (the standard update)."""
    net, _, (p_emb, _, _) = gen.build(mx, 1)
    tr = mx.gluon.Trainer(net.collect_params(), "sgd",
                          {"learning_rate": 0.1, "wd": 0.5, "lazy_update": False})
    x, _ = gen.BATCHES[0]
    with mx.autograd.record():
        loss = net(mx.nd.array(x)).sum()
    loss.backward()
    tr.step(1)
    emb0 = gen.initial_weights()[0]
    np.testing.assert_allclose(p_emb.data().asnumpy()[UNTOUCHED],
                               emb0[UNTOUCHED] * (1 - 0.1 * 0.5), rtol=1e-6)


def test_kvstore_local_row_union_push_pull():
    kv = mx.kv.create("local")
    kv.init(3, mx.nd.zeros((5, 2)))
    a = mx.nd.sparse.row_sparse_array(([[1., 2.], [3., 4.]], [0, 2]), shape=(5, 2))
    b = mx.nd.sparse.row_sparse_array(([[10., 20.], [5., 5.]], [2, 4]), shape=(5, 2),
                                      ctx=mx.cpu(1))
    kv.push(3, [a, b])
    out = mx.nd.sparse.zeros("row_sparse", (5, 2))
    kv.pull(3, out=out, ignore_sparse=False)
    assert out.stype == "row_sparse"
    np.testing.assert_array_equal(out.indices.asnumpy(), [0, 2, 4])
    np.testing.assert_array_equal(out.data.asnumpy(), [[1, 2], [13, 24], [5, 5]])
    dense = mx.nd.zeros((5, 2))
    kv.pull(3, out=dense)
    np.testing.assert_array_equal(dense.asnumpy(), out.asnumpy())


def test_allreduce_grads_then_update_matches_step():
    """allreduce_grads() + update() on two devices gives 1.9.1's step() result."""
    net, ctxs, (p_emb, p_w, _) = gen.build(mx, 2)
    tr = mx.gluon.Trainer(net.collect_params(), "sgd",
                          {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4},
                          update_on_kvstore=False)
    x, y = (np.array(a, dtype=np.float32) for a in gen.BATCHES[0])
    with mx.autograd.record():
        losses = []
        for k, ctx in enumerate(ctxs):
            xk = mx.nd.array(np.where(x == 0, 6, x) if k else x, ctx=ctx)
            yk = mx.nd.array(np.roll(y, k, axis=0), ctx=ctx)
            losses.append(((net(xk) - yk) ** 2).sum())
    mx.autograd.backward(losses)
    tr.allreduce_grads()
    # both devices now hold the summed gradient over the union of their rows
    g0, g1 = p_emb.list_grad()
    assert g0.stype == g1.stype == "row_sparse"
    np.testing.assert_array_equal(g0.indices.asnumpy(), g1.indices.asnumpy())
    tr.update(2)
    np.testing.assert_allclose(p_emb.data(ctxs[1]).asnumpy(), GOLD["sgd_mom_2dev_local/0/emb"],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(p_w.data(ctxs[0]).asnumpy(), GOLD["sgd_mom_2dev_local/0/w"],
                               rtol=1e-5, atol=1e-6)


def test_parameter_dict_zero_grad_mixed_stypes():
    net, _, (p_emb, p_w, _) = gen.build(mx, 1)
    with mx.autograd.record():
        loss = net(mx.nd.array(gen.BATCHES[0][0])).sum()
    loss.backward()
    assert p_emb.grad().indices.shape[0] > 0
    net.collect_params().zero_grad()
    assert p_emb.grad().stype == "row_sparse" and p_emb.grad().indices.shape[0] == 0
    assert p_w.grad().stype == "default" and not p_w.grad().asnumpy().any()


def test_kvstore_push_mixed_stypes_is_an_error():
    kv = mx.kv.create("local")
    kv.init(0, mx.nd.zeros((4, 2)))
    rsp = mx.nd.sparse.row_sparse_array(([[1., 2.]], [1]), shape=(4, 2))
    with pytest.raises(MXNetError, match="storage types"):
        kv.push(0, [rsp, mx.nd.ones((4, 2), ctx=mx.cpu(1))])


# -- looked-up rows whose gradient is exactly zero (1.9.1 stores them) ---------------------------

@pytest.mark.parametrize("case", list(gen.ZERO_CASES))
def test_zero_gradient_rows_match_reference(case):
    """The gradient stores every looked-up row, so the lazy update decays them and moves
    their momentum / moments like 1.9.1's; rows never looked up stay as they were."""
    got = gen.run_zero_case(mx, case)
    want = {k: v for k, v in GOLD.items() if k.startswith(f"zero/{case}/")}
    assert want and sorted(got) == sorted(want)
    for k, v in want.items():
        if k.endswith("grad_indices"):
            np.testing.assert_array_equal(got[k], v, err_msg=k)
        else:
            np.testing.assert_allclose(got[k], v, rtol=1e-5, atol=1e-6, err_msg=k)


def test_zero_gradient_row_is_decayed():
    """Step 0 of the sgd case: row 3 is looked up with a zero gradient, so only weight decay
    moves it; row 8 is never looked up and keeps its value."""
    lr, wd = (gen.ZERO_CASES["sgd"][1][k] for k in ("learning_rate", "wd"))
    emb0 = gen.initial_weights()[0]
    got = gen.run_zero_case(mx, "sgd")
    np.testing.assert_array_equal(got["zero/sgd/0/grad_indices"], [0, 1, 3, 5])
    np.testing.assert_array_equal(got["zero/sgd/0/grad_data"][2], 0)
    np.testing.assert_allclose(got["zero/sgd/0/emb"][3], emb0[3] * (1 - lr * wd), rtol=1e-6)
    np.testing.assert_array_equal(got["zero/sgd/2/emb"][8], emb0[8])


def test_zero_gradient_rows_of_operators():
    """nd.Embedding(sparse_grad), contrib.SparseEmbedding and dot(csr, dense) into a
    row_sparse gradient buffer store the rows looked up (csr column ids), zero or not."""
    got = gen.zero_grad_checks(mx)
    want = {k: v for k, v in GOLD.items() if k.startswith("zgrad/")}
    assert want and sorted(got) == sorted(want)
    for k, v in want.items():
        np.testing.assert_array_equal(got[k].shape, v.shape, err_msg=k)
        np.testing.assert_allclose(got[k], v, rtol=1e-6, err_msg=k)


@pytest.mark.parametrize("ids", [[-1, 2], [8, 2], [7.5, 1]])
def test_sparse_grad_index_out_of_bound(ids):
    """With sparse_grad, 1.9.1's backward pass rejects indices outside [0, input_dim - 1]
    (the forward pass clips them)."""
    w = mx.nd.ones((8, 2))
    w.attach_grad(stype="row_sparse")
    with mx.autograd.record():
        y = mx.nd.Embedding(mx.nd.array(ids), w, input_dim=8, output_dim=2, sparse_grad=True)
    with pytest.raises(MXNetError, match="out of bound"):
        y.backward()


def test_hybridized_sparse_grad_twice():
    """A hybridized Embedding called twice in one graph: the rows of both lookups."""
    class Net(mx.gluon.HybridBlock):
        def __init__(self):
            super().__init__()
            self.emb = mx.gluon.nn.Embedding(gen.VOCAB, gen.DIM, sparse_grad=True)

        def hybrid_forward(self, F, a, b):
            return F.sum(self.emb(a) * 0) + F.sum(self.emb(b))

    net = Net()
    net.initialize()
    net.hybridize()
    with mx.autograd.record():
        loss = net(mx.nd.array([2, 2]), mx.nd.array([5, 1]))
    loss.backward()
    g = net.emb.weight.grad()
    np.testing.assert_array_equal(g.indices.asnumpy(), [1, 2, 5])
    np.testing.assert_array_equal(g.data.asnumpy(), [[1] * gen.DIM, [0] * gen.DIM,
                                                     [1] * gen.DIM])
