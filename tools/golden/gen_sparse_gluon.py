"""Record what MXNet 1.9.1's Gluon does with row_sparse gradients: an Embedding
(``sparse_grad=True``) + Dense model trained a few steps with sgd (momentum 0.9, wd 1e-4),
plain sgd, adam and adagrad, on batches that leave some embedding rows untouched; on one device
(no KVStore) and on two CPU contexts (a ``device`` KVStore, with and without
``update_on_kvstore``). Also the gradient's storage type and stored rows after backward,
and after ``zero_grad``. The ``zero/*`` cases train an Embedding whose looked-up rows get
exactly zero gradients at some steps (1.9.1 still stores those rows, so weight decay and
momentum apply to them); ``zgrad/*`` records the stored rows of the row_sparse gradients
of nd.Embedding, contrib.SparseEmbedding and dot(csr, dense) in that situation.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_sparse_gluon.py

Writes ``tests/golden/sparse_gluon.npz``: per case ``<case>/<step>/<name>`` for the
embedding weight, the dense weight and bias and the embedding's optimizer states, and
``grad/*`` for the gradient checks. ``tests/test_sparse/test_sparse_gluon.py`` imports this
module (importable without mxnet) for :data:`CASES`, :data:`ZERO_CASES` and the functions
that run them.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent.parent / "tests" / "golden"

VOCAB, DIM, OUT = 10, 4, 3
# each batch: (token ids (batch, 2), targets (batch, 3)); rows 2, 4, 8 and 9 are never used
BATCHES = [
    ([[1, 3], [5, 3]], [[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]]),
    ([[7, 7], [3, 0]], [[-1.0, 1.5, 0.25], [0.0, 2.0, 1.0]]),
    ([[6, 1], [0, 5]], [[1.0, 1.0, -1.0], [-0.5, 0.75, 0.5]]),
]

# case name -> (optimizer, optimizer params, number of contexts, update_on_kvstore[, kvstore])
CASES = {
    "sgd_mom": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4}, 1, None),
    "sgd": ("sgd", {"learning_rate": 0.1, "wd": 1e-4}, 1, None),
    "adam": ("adam", {"learning_rate": 0.05, "wd": 1e-4}, 1, None),
    "adagrad": ("adagrad", {"learning_rate": 0.1}, 1, None),
    "sgd_mom_2dev_kv": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4}, 2, True),
    "sgd_mom_2dev_local": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4}, 2,
                           False),
    "adam_2dev_local": ("adam", {"learning_rate": 0.05, "wd": 1e-4}, 2, False),
    "sgd_mom_2dev_localkv": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4}, 2,
                             True, "local"),
    "adagrad_2dev_localkv_noupd": ("adagrad", {"learning_rate": 0.1}, 2, False, "local"),
}


def initial_weights():
    rs = np.random.RandomState(7)  # fixed values: no exact cancellations in the gradients
    emb = rs.uniform(-1, 1, (VOCAB, DIM)).astype(np.float32)
    w = rs.uniform(-0.5, 0.5, (OUT, 2 * DIM)).astype(np.float32)
    b = rs.uniform(-0.3, 0.3, (OUT,)).astype(np.float32)
    return emb, w, b


def build(mx, nctx):
    nn = mx.gluon.nn
    net = nn.HybridSequential()
    net.add(nn.Embedding(VOCAB, DIM, sparse_grad=True))
    net.add(nn.Dense(OUT, in_units=2 * DIM, flatten=True))
    ctxs = [mx.cpu(i) for i in range(nctx)]
    net.initialize(ctx=ctxs)
    emb, w, b = initial_weights()
    p_emb = net[0].weight
    p_w, p_b = net[1].weight, net[1].bias
    p_emb.set_data(mx.nd.array(emb))
    p_w.set_data(mx.nd.array(w))
    p_b.set_data(mx.nd.array(b))
    return net, ctxs, (p_emb, p_w, p_b)


def _states(trainer, kv_updates, param):
    """``param``'s optimizer state as a list of numpy arrays (1.9.1's Trainer sorts the
    parameters by name, so its index is looked up)."""
    idx = trainer._params.index(param)
    if kv_updates:
        st = trainer._kvstore._updater.states[idx]
    else:
        st = trainer._updaters[0].states[idx]
    if st is None:
        return []
    if not isinstance(st, (tuple, list)):
        st = [st]
    return [s.asnumpy() for s in st]


def run_case(mx, name):
    """Train case ``name``; returns {key: numpy array}."""
    opt, params, nctx, on_kv, *kvstore = CASES[name]
    net, ctxs, (p_emb, p_w, p_b) = build(mx, nctx)
    kwargs = {} if on_kv is None else {"update_on_kvstore": on_kv}
    if kvstore:
        kwargs["kvstore"] = kvstore[0]
    trainer = mx.gluon.Trainer(net.collect_params(), opt, dict(params), **kwargs)
    out = {}
    for step, (x, y) in enumerate(BATCHES):
        xs = np.array(x, dtype=np.float32)
        ys = np.array(y, dtype=np.float32)
        with mx.autograd.record():
            losses = []
            for k, ctx in enumerate(ctxs):
                # device 1 sees row 6 in place of row 0 (so the devices touch different
                # rows) and the targets rolled by one
                xk = mx.nd.array(np.roll(xs, k, axis=0), ctx=ctx)
                yk = mx.nd.array(np.roll(ys, k, axis=0), ctx=ctx)
                if k:
                    xk = mx.nd.array(np.where(xs == 0, 6, xs), ctx=ctx)
                pred = net(xk)
                losses.append(((pred - yk) ** 2).sum())
        mx.autograd.backward(losses)
        trainer.step(2)
        kv_updates = bool(trainer._update_on_kvstore)
        out[f"{name}/{step}/emb"] = p_emb.data(ctxs[-1]).asnumpy()
        out[f"{name}/{step}/w"] = p_w.data(ctxs[-1]).asnumpy()
        out[f"{name}/{step}/b"] = p_b.data(ctxs[-1]).asnumpy()
        for j, s in enumerate(_states(trainer, kv_updates, p_emb)):
            out[f"{name}/{step}/state{j}"] = s
    return out


def grad_checks(mx):
    net, ctxs, (p_emb, _, _) = build(mx, 1)
    x = mx.nd.array([[1, 3], [5, 3]])
    with mx.autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    g = p_emb.grad()
    out = {"grad/stype_rsp": np.array(g.stype == "row_sparse"),
           "grad/indices": g.indices.asnumpy(), "grad/data": g.data.asnumpy(),
           "grad/dense": g.asnumpy()}
    p_emb.zero_grad()
    g = p_emb.grad()
    out["grad/zero_stype_rsp"] = np.array(g.stype == "row_sparse")
    out["grad/zero_nnz_rows"] = np.array(g.indices.shape[0])
    out["grad/zero_dense"] = g.asnumpy()
    return out


# -- looked-up rows whose gradient is exactly zero ---------------------------------------------
# 1.9.1's row_sparse gradient stores every row looked up, all-zero rows included, so a lazy
# update still applies weight decay and momentum to them. The model: Embedding(sparse_grad)
# with the output scaled per token by a 0/1 mask; a masked token gets a zero gradient.
ZERO_BATCHES = [
    # row 3: looked up three times, always masked; row 5's two lookups do not cancel
    ([[1, 3, 5], [3, 3, 0]], [[1, 0, 1], [0, 0, 1]]),
    # one id only, masked everywhere: the gradient holds row 7 alone, all zeros
    ([[7, 7, 7], [7, 7, 7]], [[0, 0, 0], [0, 0, 0]]),
    # row 2 masked; row 6 three times, once unmasked
    ([[6, 1, 6], [2, 0, 6]], [[1, 1, 0], [0, 1, 0]]),
]

# case name -> (optimizer, optimizer params, number of contexts, update_on_kvstore,
# hybridize)
ZERO_CASES = {
    "sgd_mom": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 0.05}, 1, None, False),
    "sgd_mom_hybrid": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 0.05}, 1, None,
                       True),
    "sgd": ("sgd", {"learning_rate": 0.1, "wd": 0.05}, 1, None, False),
    "adam": ("adam", {"learning_rate": 0.05, "wd": 0.05}, 1, None, False),
    "adagrad": ("adagrad", {"learning_rate": 0.1}, 1, None, False),
    "sgd_mom_2dev_kv": ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 0.05}, 2, True,
                        False),
    "adam_2dev_local": ("adam", {"learning_rate": 0.05, "wd": 0.05}, 2, False, False),
}


def zero_targets(step, shape):
    return np.random.RandomState(100 + step).uniform(-1, 1, shape).astype(np.float32)


def run_zero_case(mx, name):
    """Train zero-gradient case ``name``; returns {key: numpy array} with, per step, the
    embedding gradient's stored rows and values (first device, before the update), the
    weight after the update and the optimizer states."""
    opt, params, nctx, on_kv, hybrid = ZERO_CASES[name]
    ctxs = [mx.cpu(i) for i in range(nctx)]
    emb = mx.gluon.nn.Embedding(VOCAB, DIM, sparse_grad=True)
    emb.initialize(ctx=ctxs)
    emb.weight.set_data(mx.nd.array(initial_weights()[0]))
    if hybrid:
        emb.hybridize()
    kwargs = {} if on_kv is None else {"update_on_kvstore": on_kv}
    trainer = mx.gluon.Trainer(emb.collect_params(), opt, dict(params), **kwargs)
    out = {}
    key = f"zero/{name}"
    for step, (x, m) in enumerate(ZERO_BATCHES):
        xs = np.array(x, dtype=np.float32)
        ms = np.array(m, dtype=np.float32)
        target = zero_targets(step, xs.shape + (DIM,))
        with mx.autograd.record():
            losses = []
            for k, ctx in enumerate(ctxs):
                # device 1 reads row 9 in place of row 1 (unmasked there or not)
                xk = np.where(xs == 1, 9, xs) if k else xs
                e = emb(mx.nd.array(xk, ctx=ctx)) * mx.nd.array(ms[..., None], ctx=ctx)
                losses.append(((e - mx.nd.array(target, ctx=ctx)) ** 2).sum())
        mx.autograd.backward(losses)
        g = emb.weight.grad(ctxs[0])
        out[f"{key}/{step}/grad_indices"] = g.indices.asnumpy()
        out[f"{key}/{step}/grad_data"] = g.data.asnumpy()
        trainer.step(len(ctxs))
        kv_updates = bool(trainer._update_on_kvstore)
        out[f"{key}/{step}/emb"] = emb.weight.data(ctxs[-1]).asnumpy()
        for j, st in enumerate(_states(trainer, kv_updates, emb.weight)):
            out[f"{key}/{step}/state{j}"] = st
    return out


def zero_grad_checks(mx):
    """The stored rows of the row_sparse gradients that mx.nd.Embedding(sparse_grad=True),
    contrib.SparseEmbedding and dot(csr, dense) give a variable with a row_sparse gradient
    buffer, where some rows' gradients are zero (also an all-zero output gradient)."""
    nd = mx.nd
    out = {}
    ids = nd.array([[4, 1, 4], [6, 1, 0]])
    head = nd.array([[[1] * DIM, [0] * DIM, [1] * DIM], [[0] * DIM, [0] * DIM, [2] * DIM]])
    w0 = initial_weights()[0]
    csr = nd.sparse.csr_matrix((np.array([1., 2., 0., 3.], dtype=np.float32),
                                np.array([0, 2, 3, 8]), np.array([0, 2, 4])),
                               shape=(2, VOCAB))
    calls = {
        "embedding": lambda w: nd.Embedding(ids, w, input_dim=VOCAB, output_dim=DIM,
                                            sparse_grad=True) * head,
        "sparse_embedding": lambda w: nd.contrib.SparseEmbedding(
            ids, w, input_dim=VOCAB, output_dim=DIM) * head,
        "embedding_all_zero": lambda w: nd.Embedding(ids, w, input_dim=VOCAB,
                                                     output_dim=DIM, sparse_grad=True) * 0,
        "embedding_twice": lambda w: nd.Embedding(nd.array([2, 2]), w, input_dim=VOCAB,
                                                  output_dim=DIM, sparse_grad=True) * 0
        + nd.Embedding(nd.array([5, 1]), w, input_dim=VOCAB, output_dim=DIM,
                       sparse_grad=True),
        # csr column 3 stores a zero, column 8 sits in a row whose head gradient is zero
        "dot_csr_dense": lambda w: nd.sparse.dot(csr, w) * nd.array([[1] * DIM, [0] * DIM]),
    }
    for name, fn in calls.items():
        w = nd.array(w0)
        w.attach_grad(stype="row_sparse")
        with mx.autograd.record():
            y = fn(w)
        y.backward()
        out[f"zgrad/{name}/stype_rsp"] = np.array(w.grad.stype == "row_sparse")
        out[f"zgrad/{name}/indices"] = w.grad.indices.asnumpy()
        out[f"zgrad/{name}/data"] = w.grad.data.asnumpy()
    return out


def main():
    import mxnet as mx
    out = grad_checks(mx)
    for name in CASES:
        out.update(run_case(mx, name))
    out.update(zero_grad_checks(mx))
    for name in ZERO_CASES:
        out.update(run_zero_case(mx, name))
    GOLDEN.mkdir(parents=True, exist_ok=True)
    np.savez(GOLDEN / "sparse_gluon.npz", **out)
    print(f"wrote {len(out)} arrays")


if __name__ == "__main__":
    main()
