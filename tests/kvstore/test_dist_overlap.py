"""Overlap of gradient communication with backward (MXNET_KVSTORE_OVERLAP), in real
two-worker MPI jobs: exact sums of gradients made by the asynchronous backward pass,
Trainer and Module results identical at every overlap level (and close to one process
doing the same work), user code between backward and step, no deadlock over many keys."""
from __future__ import annotations

import numpy as np
import pytest

from .test_dist import needs_mpi, run_job

_JOB = r"""
import os, sys
import numpy as np
import mxnet as mx
from mxnet import autograd, gluon

name, outdir = sys.argv[1], sys.argv[2]
level = int(os.environ["MXNET_KVSTORE_OVERLAP"])
sync = "_async" not in name
kv = mx.kv.create(name)
W, r = kv.num_workers, kv.rank
assert kv._overlap == level
assert bool(autograd._overlap_owners) == (level > 0)
passes = []   # the asynchronous passes started
_start = autograd._run_async
def spy(body, reads, writes, what):
    passes.append(what)
    _start(body, reads, writes, what)
autograd._run_async = spy
tot = W * (W + 1) // 2

# 1. exact sums: worker r's gradient of key k is (k + 1) * (r + 1) everywhere, made by
# backward; several keys (one sharded over the servers), pushed last layer first
shapes = [(3,), (4, 5), (64,), (2, 3, 4), (7,), (6, 9)]
ws = [mx.nd.ones(s) for s in shapes]
for w in ws:
    w.attach_grad()
kv.init(list(range(len(shapes))), [mx.nd.zeros(s) for s in shapes])
outs = [mx.nd.zeros(s) for s in shapes]
for rnd in range(4):
    with autograd.record():
        loss = sum(((w * float((k + 1) * (r + 1) + rnd)).sum() for k, w in enumerate(ws)),
                   mx.nd.zeros((1,)))
    loss.backward()
    for k in reversed(range(len(shapes))):
        kv.push(k, ws[k].grad, priority=-k)
        kv.pull(k, out=outs[k], priority=-k)
    for k, o in enumerate(outs):
        if sync:
            np.testing.assert_array_equal(o.asnumpy(), (k + 1) * tot + W * rnd)
        else:
            assert np.isfinite(o.asnumpy()).all()
kv._barrier()
# the imperative graph ran asynchronously only at level 2
assert len(passes) == (4 if level == 2 else 0), passes
passes.clear()

# 2. a few Trainer steps on an MLP, plain and hybridized, with user code between
# backward and step (reading gradients, clip_global_norm)
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 10)).astype(np.float32)
Y = rng.normal(size=(64, 4)).astype(np.float32)

def train(hybrid, clip, update_on_kv):
    mx.random.seed(7)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(32, activation="relu", in_units=10),
            gluon.nn.Dense(32, activation="tanh", in_units=32), gluon.nn.Dense(4, in_units=32))
    net.initialize(mx.init.Normal(0.2))
    if hybrid:
        net.hybridize()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05, "momentum": 0.9},
                       kvstore=name, update_on_kvstore=update_on_kv)
    for i in range(4):
        rows = slice(16 * i + 8 * r, 16 * i + 8 * r + 8)
        x, y = mx.nd.array(X[rows]), mx.nd.array(Y[rows])
        with autograd.record():
            loss = gluon.loss.L2Loss()(net(x), y)
        loss.backward()
        grads = [p.grad() for p in net.collect_params().values()]
        assert all(np.isfinite(g.asnumpy()).all() for g in grads)
        if clip:
            gluon.utils.clip_global_norm(grads, 0.05)
        tr.step(8)
    return [p.data().asnumpy() for p in net.collect_params().values()]

res = {}
for hybrid in (False, True):
    for clip in (False, True):
        for upd in ((True, False) if sync else (True,)):
            for j, a in enumerate(train(hybrid, clip, upd)):
                res[f"h{int(hybrid)}c{int(clip)}u{int(upd)}p{j}"] = a
# hybridized: 2 clips x (2 or 1) update modes x 4 steps asynchronous at levels 1 and 2;
# imperative as many again at level 2
n = 2 * (2 if sync else 1) * 4
assert len(passes) == {0: 0, 1: n, 2: 2 * n}[level], passes
np.savez(os.path.join(outdir, f"w{level}_{r}.npz"), **res)
print(f"OVERLAP JOB OK worker {r} ({name}, overlap={level})", flush=True)
"""


def _reference():
    """One process doing both workers' work: batch 16 rows, the same 1/8 scaling."""
    import mxnet as mx
    from mxnet import autograd, gluon
    rng = np.random.default_rng(0)
    X = rng.normal(size=(64, 10)).astype(np.float32)
    Y = rng.normal(size=(64, 4)).astype(np.float32)
    mx.random.seed(7)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(32, activation="relu", in_units=10),
            gluon.nn.Dense(32, activation="tanh", in_units=32), gluon.nn.Dense(4, in_units=32))
    net.initialize(mx.init.Normal(0.2))
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05, "momentum": 0.9},
                       kvstore=None)
    for i in range(4):
        x, y = mx.nd.array(X[16 * i:16 * i + 16]), mx.nd.array(Y[16 * i:16 * i + 16])
        with autograd.record():
            loss = gluon.loss.L2Loss()(net(x), y)
        loss.backward()
        tr.step(8)
    return [p.data().asnumpy() for p in net.collect_params().values()]


@needs_mpi
@pytest.mark.slow
@pytest.mark.parametrize("name,servers", [
    ("dist_sync", 1), ("dist_sync_allreduce", 0), ("dist_async", 1),
])
def test_overlap_on_and_off_give_the_same_results(tmp_path, name, servers):
    got = {}
    for overlap in ("2", "1", "0"):
        rc, out, secs = run_job(tmp_path, _JOB, [name, str(tmp_path)], workers=2,
                                servers=servers, timeout=60,
                                env={"MXNET_KVSTORE_OVERLAP": overlap,
                                     "MXNET_KVSTORE_BIGARRAY_BOUND": "50"})
        assert rc == 0, out
        assert out.count("OVERLAP JOB OK") == 2, out
        got[overlap] = [dict(np.load(tmp_path / f"w{overlap}_{r}.npz")) for r in range(2)]
    if name == "dist_async":
        return   # the order of the workers' updates is not deterministic
    on, off = got["1"], got["0"]
    for key in on[0]:
        # every worker holds the same weights, with overlap on exactly those with it off
        np.testing.assert_array_equal(on[0][key], on[1][key], err_msg=key)
        np.testing.assert_array_equal(on[0][key], off[0][key], err_msg=key)
        np.testing.assert_array_equal(got["2"][0][key], off[0][key], err_msg=key)
    # independent truth: one process over both workers' rows (without clipping: the
    # job clips each worker's half-batch gradient, one process would clip the sum)
    for j, w in enumerate(_reference()):
        for key in (f"h0c0u1p{j}", f"h1c0u1p{j}"):
            np.testing.assert_allclose(on[0][key], w, rtol=1e-4, atol=1e-5, err_msg=key)


_WIDE = r"""
import sys
import numpy as np
import mxnet as mx
from mxnet import autograd

name = sys.argv[1]
kv = mx.kv.create(name)
W, r = kv.num_workers, kv.rank
sync = "_async" not in name
n = 24
ws = [mx.nd.ones((5 + k,)) for k in range(n)]
for w in ws:
    w.attach_grad()
kv.init(list(range(n)), [mx.nd.zeros((5 + k,)) for k in range(n)])
outs = [mx.nd.zeros((5 + k,)) for k in range(n)]
for step in range(6):
    with autograd.record():
        loss = mx.nd.zeros((1,))
        for k, w in enumerate(ws):
            loss = loss + (w * w * float(r + 1)).sum()
    loss.backward()
    # worker 0 pushes in one order, worker 1 in the other: still no deadlock (and the
    # allreduce store needs the same order on every worker, so it gets one)
    keys = list(range(n)) if (r == 0 or name.endswith("allreduce")) else list(reversed(range(n)))
    for k in keys:
        kv.pushpull(k, ws[k].grad, out=outs[k], priority=k % 3)
    if step % 2:
        kv._barrier()
mx.nd.waitall()
if sync:
    for o in outs:
        np.testing.assert_array_equal(o.asnumpy(), 2.0 * W * (W + 1) / 2)
print(f"WIDE OK {r}", flush=True)
"""


@needs_mpi
@pytest.mark.slow
@pytest.mark.parametrize("name,servers", [
    ("dist_sync", 2), ("dist_async", 1), ("dist_sync_allreduce", 0),
])
def test_many_keys_in_flight_do_not_deadlock(tmp_path, name, servers):
    rc, out, secs = run_job(tmp_path, _WIDE, [name], workers=2, servers=servers, timeout=60,
                            env={"MXNET_KVSTORE_OVERLAP": "2"})
    assert rc == 0, out
    assert out.count("WIDE OK") == 2, out


_MODULE = r"""
import os, sys
import numpy as np
import mxnet as mx
from mxnet import autograd

name, outdir = sys.argv[1], sys.argv[2]
overlap = os.environ["MXNET_KVSTORE_OVERLAP"] == "1"
kv = mx.kv.create(name)
W, r = kv.num_workers, kv.rank
assert bool(autograd._overlap_owners) == overlap
passes = []   # the asynchronous passes started (the executor's backward among them)
_start = autograd._run_async
def spy(body, reads, writes, what):
    passes.append(what)
    _start(body, reads, writes, what)
autograd._run_async = spy
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 10)).astype(np.float32)
Y = rng.integers(0, 4, 64).astype(np.float32)

def net(bn):
    h = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=32, name="fc1")
    if bn:
        h = mx.sym.BatchNorm(h, fix_gamma=False, name="bn")
    h = mx.sym.Activation(h, act_type="relu")
    h = mx.sym.FullyConnected(h, num_hidden=32, name="fc2")
    h = mx.sym.Activation(h, act_type="tanh")
    h = mx.sym.FullyConnected(h, num_hidden=4, name="fc3")
    return mx.sym.SoftmaxOutput(h, name="softmax")

def fit(bn, update_on_kv):
    os.environ["MXNET_UPDATE_ON_KVSTORE"] = "1" if update_on_kv else "0"
    # worker r trains on rows 8r..8r+7 of every block of 16
    rows = np.concatenate([np.arange(16 * i + 8 * r, 16 * i + 8 * r + 8) for i in range(4)])
    it = mx.io.NDArrayIter(X[rows], Y[rows], batch_size=8, label_name="softmax_label")
    mx.random.seed(7)
    mod = mx.mod.Module(net(bn), context=mx.cpu())
    kv = mx.kv.create(name)   # a store of its own: every fit initialises the same keys
    mod.fit(it, kvstore=kv, optimizer="sgd", num_epoch=2, initializer=mx.init.Normal(0.2),
            optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    args, aux = mod.get_params()
    out = {f"arg:{k}": v.asnumpy() for k, v in args.items()}
    out.update({f"aux:{k}": v.asnumpy() for k, v in aux.items()})
    return out

res = {}
for bn in (False, True):
    for upd in (True, False):
        for k, a in fit(bn, upd).items():
            res[f"bn{int(bn)}u{int(upd)}|{k}"] = a
assert passes.count("Executor.backward") == (32 if overlap else 0), passes
np.savez(os.path.join(outdir, f"m{int(overlap)}_{r}.npz"), **res)
print(f"MODULE JOB OK worker {r} ({name}, overlap={int(overlap)})", flush=True)
"""


def _module_reference():
    """One process over both workers' rows (batch 16), no store: what the two workers
    compute together (Module scales gradients by 1 / (batch size x workers))."""
    import mxnet as mx
    rng = np.random.default_rng(0)
    X = rng.normal(size=(64, 10)).astype(np.float32)
    Y = rng.integers(0, 4, 64).astype(np.float32)
    h = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=32, name="fc1")
    h = mx.sym.Activation(h, act_type="relu")
    h = mx.sym.FullyConnected(h, num_hidden=32, name="fc2")
    h = mx.sym.Activation(h, act_type="tanh")
    h = mx.sym.FullyConnected(h, num_hidden=4, name="fc3")
    sym = mx.sym.SoftmaxOutput(h, name="softmax")
    it = mx.io.NDArrayIter(X, Y, batch_size=16, label_name="softmax_label")
    mx.random.seed(7)
    mod = mx.mod.Module(sym, context=mx.cpu())
    mod.fit(it, kvstore=None, optimizer="sgd", num_epoch=2, initializer=mx.init.Normal(0.2),
            optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    return {f"arg:{k}": v.asnumpy() for k, v in mod.get_params()[0].items()}


@needs_mpi
@pytest.mark.slow
@pytest.mark.parametrize("name,servers", [("dist_sync", 1), ("dist_sync_allreduce", 0)])
def test_module_fit_is_identical_with_overlap_on_and_off(tmp_path, name, servers):
    got = {}
    for overlap in ("1", "0"):
        rc, out, secs = run_job(tmp_path, _MODULE, [name, str(tmp_path)], workers=2,
                                servers=servers, timeout=90,
                                env={"MXNET_KVSTORE_OVERLAP": overlap})
        assert rc == 0, out
        assert out.count("MODULE JOB OK") == 2, out
        got[overlap] = [dict(np.load(tmp_path / f"m{overlap}_{r}.npz")) for r in range(2)]
    on, off = got["1"], got["0"]
    assert on[0].keys() == off[0].keys()
    for key in on[0]:
        for r in range(2):
            np.testing.assert_array_equal(on[r][key], off[r][key], err_msg=f"{key} worker {r}")
        if "|arg:" in key:   # the weights are the same on every worker
            np.testing.assert_array_equal(on[0][key], on[1][key], err_msg=key)
    # independent truth: one process over both workers' rows
    for k, w in _module_reference().items():
        for upd in (1, 0):
            np.testing.assert_allclose(on[0][f"bn0u{upd}|{k}"], w, rtol=1e-4, atol=1e-5,
                                       err_msg=k)
