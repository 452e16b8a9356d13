"""Distributed KVStores over MPI: real multi-process jobs started by mxnet.tools.launch.

Each job is bounded by the launcher's ``--timeout`` and by a subprocess timeout. The
jobs run a battery of store calls (``_BATTERY``) and print one OK line per worker.
Skipped when mpi4py or MPICH's mpiexec is missing (``pip install 'mxnet-py[dist]'``).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from mxnet.kvstore import protocol as P
from mxnet.tools import launch

ROOT = Path(__file__).resolve().parents[2]

try:
    import mpi4py  # noqa: F401
    _MPI = launch.find_mpiexec() is not None
except ImportError:
    _MPI = False

needs_mpi = pytest.mark.skipif(not _MPI, reason="needs mpi4py and mpiexec (pip install mpi4py mpich)")


def _env(extra=None):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("DMLC_", "PMI_", "MXNET_KVSTORE_")):
            del env[k]
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["MXNET_KVSTORE_TIMEOUT"] = "15"
    env["MXNET_KVSTORE_START_TIMEOUT"] = "30"
    env.update(extra or {})
    return env


def _launch_cmd(script, args, workers, servers, timeout):
    return [sys.executable, "-m", "mxnet.tools.launch", "-n", str(workers), "-s", str(servers),
            "--timeout", str(timeout), sys.executable, str(script), *args]


def run_job(tmp_path, body, args=(), workers=2, servers=1, env=None, timeout=40):
    """Run ``body`` as every process of a job; return (exit status, output, seconds)."""
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(body))
    t0 = time.monotonic()
    proc = subprocess.Popen(_launch_cmd(script, args, workers, servers, timeout),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=_env(env), cwd=str(tmp_path))
    try:
        out, _ = proc.communicate(timeout=timeout + 20)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)  # the launcher stops the whole job
        out, _ = proc.communicate(timeout=20)
        pytest.fail(f"the job did not end in time:\n{out}")
    return proc.returncode, out, time.monotonic() - t0


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return False


# -- the battery every store type goes through -------------------------------------------------

_BATTERY = r"""
import os, sys
import numpy as np
import mxnet as mx
from mxnet.base import MXNetError

name = sys.argv[1]
ps = "allreduce" not in name
sync = "_async" not in name
kv = mx.kv.create(name)
W, r = kv.num_workers, kv.rank
S = int(os.environ["DMLC_NUM_SERVER"])
assert kv.type == name and W == int(os.environ["DMLC_NUM_WORKER"]) and 0 <= r < W
tot = W * (W + 1) // 2
eq = np.testing.assert_array_equal
shape = (4, 5)

def raises(fn, *words):
    try:
        fn()
    except (MXNetError, AssertionError) as e:
        assert all(w in str(e) for w in words), str(e)
        return
    raise AssertionError(f"no error; expected one mentioning {words}")

# init: worker 0's value is stored
kv.init(3, mx.nd.full(shape, 7 + r))
o = mx.nd.zeros(shape)
kv.pull(3, out=o)
eq(o.asnumpy(), 7)
kv.init([5, 6], [mx.nd.ones(shape), mx.nd.zeros((3,))])

# push then pull: the sum over workers (sync); after a barrier, every push was applied
kv.push(3, mx.nd.full(shape, r + 1))
kv.pull(3, out=o)
if sync:
    eq(o.asnumpy(), tot)
kv._barrier()
kv.pull(3, out=o)
v = o.asnumpy()
if sync:
    eq(v, tot)
else:
    assert v.min() == v.max() and 1 <= v[0, 0] <= W, v

# several devices per worker, several outputs
kv.push(5, [mx.nd.ones(shape, ctx=mx.cpu(i)) * (i + 1) for i in range(2)])
outs = [mx.nd.zeros(shape, ctx=mx.cpu(i)) for i in range(2)]
kv.pull(5, out=outs)
for x in outs:
    eq(x.asnumpy(), 3 * W if sync else 3)

# pushpull with and without out
o6 = mx.nd.zeros((3,))
kv.pushpull(6, mx.nd.full((3,), r + 1), out=o6)
v6 = mx.nd.full((3,), r + 1)
kv.pushpull(6, v6)
if sync:
    eq(o6.asnumpy(), tot)
    eq(v6.asnumpy(), tot)

# broadcast and row_sparse_pull
kv.broadcast(8, mx.nd.full(shape, 10 + r), out=o)
eq(o.asnumpy(), 10)
rs = mx.nd.zeros(shape)
kv.row_sparse_pull(8, out=rs, row_ids=mx.nd.array([0, 2]))
eq(rs.asnumpy()[[0, 2]], 10)
eq(rs.asnumpy()[[1, 3]], 0)

# errors: uninitialised key, shape mismatch, duplicate init, mixed key kinds
raises(lambda: kv.push(99, mx.nd.ones(shape)), "99", "init")
raises(lambda: kv.pull(98, out=o), "98", "init")
raises(lambda: kv.push(3, mx.nd.ones((2, 2))), "shape")
raises(lambda: kv.init(3, mx.nd.ones(shape)), "duplicate", "3")
raises(lambda: kv.init("s", mx.nd.ones(shape)), "key")
raises(lambda: kv.save_optimizer_states("x"), "Cannot save")

# a big array, sharded over every server
big = (10, 13)
kv.init(20, mx.nd.zeros(big))
if ps:
    assert len(kv._keys[20].plan) == max(S, 1), kv._keys[20].plan
    assert len(kv._keys[3].plan) == 1
vals = np.arange(130, dtype=np.float32).reshape(big)
kv.push(20, mx.nd.array(vals * (r + 1)))
ob = mx.nd.zeros(big)
kv._barrier()
kv.pull(20, out=ob)
if sync:
    eq(ob.asnumpy(), vals * tot)

# string keys, in a second store
kv2 = mx.kv.create(name)
kv2.init("w", mx.nd.ones(shape) * 2)
kv2.push("w", mx.nd.ones(shape))
ow = mx.nd.zeros(shape)
kv2.pull("w", out=ow)
if sync:
    eq(ow.asnumpy(), W)
raises(lambda: kv2.push(3, mx.nd.ones(shape)), "int")

# the optimizer runs in the store (on the servers for ps stores)
kv3 = mx.kv.create(name)
kv3.init([0, 1], [mx.nd.ones(shape), mx.nd.ones(big)])
kv3.set_optimizer(mx.optimizer.SGD(learning_rate=0.25, rescale_grad=1.0))
w0 = mx.nd.zeros(shape)
w1 = mx.nd.zeros(big)
steps = 3
for _ in range(steps):
    kv3.push([0, 1], [mx.nd.full(shape, 0.5 * (r + 1)), mx.nd.full(big, 0.5 * (r + 1))])
    kv3.pull([0, 1], out=[w0, w1])
kv3._barrier()
kv3.pull([0, 1], out=[w0, w1])
want = np.float32(1) - np.float32(0.25 * 0.5 * tot * steps)
np.testing.assert_allclose(w0.asnumpy(), want, rtol=1e-6)
np.testing.assert_allclose(w1.asnumpy(), want, rtol=1e-6)

# 2-bit compression (worker -> server), against a NumPy model of every worker
def ref_quantize(g, res, t):
    out = np.zeros_like(g)
    for i in range(g.size):
        v = res[i] + g[i]
        if v >= t:
            out[i], res[i] = t, v - t
        elif v <= -t:
            out[i], res[i] = -t, v + t
        else:
            out[i], res[i] = 0, v
    return out

if ps:
    kv4 = mx.kv.create(name)
    kv4.set_gradient_compression({"type": "2bit", "threshold": 0.5})
    cshape = (7, 9)
    kv4.init([0, 1], [mx.nd.zeros(cshape), mx.nd.zeros(big)])
    res = {(w, k): np.zeros(n, np.float32) for w in range(W) for k, n in ((0, 63), (1, 130))}
    rngs = [np.random.default_rng(100 + w) for w in range(W)]
    oc, obig = mx.nd.zeros(cshape), mx.nd.zeros(big)
    for step in range(4):
        grads = [[rng.uniform(-0.8, 0.8, n).astype(np.float32) for n in (63, 130)] for rng in rngs]
        kv4.push([0, 1], [mx.nd.array(grads[r][0].reshape(cshape)), mx.nd.array(grads[r][1].reshape(big))])
        kv4.pull([0, 1], out=[oc, obig])
        want = [sum(ref_quantize(grads[w][k], res[(w, k)], np.float32(0.5)) for w in range(W))
                for k in (0, 1)]
        if sync:
            eq(oc.asnumpy().ravel(), want[0])
            eq(obig.asnumpy().ravel(), want[1])
        kv4._barrier()
else:
    raises(lambda: kv.set_gradient_compression({"type": "2bit"}), "not supported")

kv._barrier()
print(f"BATTERY OK worker {r} of {W} ({name})", flush=True)
"""


@needs_mpi
@pytest.mark.slow
@pytest.mark.parametrize("name,servers", [
    ("dist_sync", 1), ("dist_sync", 2), ("dist_async", 1), ("dist_async", 2),
    ("dist_sync_allreduce", 0), ("dist_device_sync", 1),
])
def test_battery(tmp_path, name, servers):
    rc, out, secs = run_job(tmp_path, _BATTERY, [name], workers=2, servers=servers,
                            env={"MXNET_KVSTORE_BIGARRAY_BOUND": "50"})
    assert rc == 0, out
    assert out.count("BATTERY OK") == 2, out
    assert secs < 40


_TRAINER = r"""
import numpy as np
import mxnet as mx
from mxnet import autograd, gluon

rng = np.random.default_rng(0)
X = rng.normal(size=(128, 6)).astype(np.float32)
Y = X @ rng.normal(size=(6, 1)).astype(np.float32)

def train(kvstore, rows):
    mx.random.seed(1)
    net = gluon.nn.Dense(1, in_units=6)
    net.initialize(mx.init.Normal(0.1))
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05, "momentum": 0.9},
                       kvstore=kvstore)
    for i in range(0, 64, 16):
        x, y = mx.nd.array(X[rows][i:i + 16]), mx.nd.array(Y[rows][i:i + 16])
        with autograd.record():
            loss = gluon.loss.L2Loss()(net(x), y)
        loss.backward()
        tr.step(16)
    return tr, net.weight.data().asnumpy(), net.bias.data().asnumpy()

kv = mx.kv.create("dist_sync")
r = kv.rank
mine = np.arange(64) * 2 + r    # worker r trains on every other row
tr_ps, w_ps, b_ps = train("dist_sync", mine)
tr_ar, w_ar, b_ar = train("dist_sync_allreduce", mine)
assert tr_ps._update_on_kvstore and tr_ps._kvstore.type == "dist_sync"
np.testing.assert_array_equal(w_ps, w_ar)
np.testing.assert_array_equal(b_ps, b_ar)
# one process on both workers' rows, batch 32 but the same 1/16 scaling, sees the same
# summed gradients
rows = np.stack([np.arange(64) * 2, np.arange(64) * 2 + 1], axis=1).reshape(-1)
mx.random.seed(1)
net = gluon.nn.Dense(1, in_units=6)
net.initialize(mx.init.Normal(0.1))
tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.05, "momentum": 0.9}, kvstore=None)
for i in range(0, 128, 32):
    x, y = mx.nd.array(X[rows][i:i + 32]), mx.nd.array(Y[rows][i:i + 32])
    with autograd.record():
        loss = gluon.loss.L2Loss()(net(x), y)
    loss.backward()
    tr.step(16)
np.testing.assert_allclose(w_ps, net.weight.data().asnumpy(), rtol=1e-5, atol=1e-6)
print(f"TRAINER OK {r}", flush=True)
"""


@needs_mpi
@pytest.mark.slow
def test_gluon_trainer_over_dist_stores(tmp_path):
    rc, out, secs = run_job(tmp_path, _TRAINER, workers=2, servers=1)
    assert rc == 0, out
    assert out.count("TRAINER OK") == 2, out


_DIE = r"""
import os, sys, signal, time
pidfile = os.path.join(os.environ["TEST_PIDDIR"], str(os.getpid()))
open(pidfile, "w").close()
import mxnet as mx  # the server serves in here
kv = mx.kv.create("dist_sync")
kv.init(0, mx.nd.zeros((3,)))
o = mx.nd.zeros((3,))
if kv.rank == 1:
    time.sleep(0.5)
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
for _ in range(100000):
    kv.push(0, mx.nd.ones((3,)))
    kv.pull(0, out=o)
    o.wait_to_read()
    time.sleep(0.01)
"""


@needs_mpi
@pytest.mark.slow
def test_killed_worker_ends_the_job(tmp_path):
    piddir = tmp_path / "pids"
    piddir.mkdir()
    rc, out, secs = run_job(tmp_path, _DIE, ["SIGKILL"], env={"TEST_PIDDIR": str(piddir)})
    assert rc != 0, out
    # mpiexec reports the signal; the launcher says which processes it saw end (the
    # killed one first, unless the machine is so loaded that it saw them together).
    assert "signal 9" in out and "mxnet.tools.launch: the job failed" in out, out
    assert secs < 30, out
    time.sleep(0.5)
    assert not [p for p in os.listdir(piddir) if _alive(int(p))]


@needs_mpi
@pytest.mark.slow
def test_hung_worker_is_detected(tmp_path):
    # A stopped process does not die, so MPI does not notice; the pings do.
    piddir = tmp_path / "pids"
    piddir.mkdir()
    rc, out, secs = run_job(tmp_path, _DIE, ["SIGSTOP"],
                            env={"TEST_PIDDIR": str(piddir), "MXNET_KVSTORE_TIMEOUT": "3"})
    assert rc != 0, out
    assert "worker 1 (MPI rank 2) has not answered" in out, out
    assert "Aborting the job" in out
    assert secs < 30, out
    time.sleep(0.5)
    assert not [p for p in os.listdir(piddir) if _alive(int(p))]


@needs_mpi
@pytest.mark.slow
def test_uneven_sync_pushes_end_the_job(tmp_path):
    body = """
    import mxnet as mx
    kv = mx.kv.create("dist_sync")
    kv.init(0, mx.nd.zeros(3))
    o = mx.nd.zeros(3)
    for _ in range(2 if kv.rank == 1 else 5):
        kv.push(0, mx.nd.ones(3))
        kv.pull(0, out=o)
        o.wait_to_read()
    """
    rc, out, secs = run_job(tmp_path, body)
    assert rc != 0, out
    assert "worker 1 (MPI rank 2) finished while a dist_sync round of key 0" in out, out
    assert "a process aborted it" in out
    assert secs < 30


@needs_mpi
@pytest.mark.slow
def test_ctrl_c_leaves_no_process(tmp_path):
    piddir = tmp_path / "pids"
    piddir.mkdir()
    script = tmp_path / "job.py"
    script.write_text(_DIE.replace("if kv.rank == 1:", "if False:"))
    proc = subprocess.Popen(_launch_cmd(script, ["SIGKILL"], 2, 1, 60), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=_env({"TEST_PIDDIR": str(piddir)}), cwd=str(tmp_path))
    try:
        deadline = time.monotonic() + 30
        while len(os.listdir(piddir)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(os.listdir(piddir)) == 3
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, out
    time.sleep(0.5)
    assert not [p for p in os.listdir(piddir) if _alive(int(p))], out


# -- in-process pieces -----------------------------------------------------------------------

def test_not_launched_raises_clearly():
    import mxnet as mx
    from mxnet.base import MXNetError
    if P.launched():
        pytest.skip("this test process runs inside an MPI job")
    with pytest.raises(MXNetError, match="mxnet.tools.launch"):
        mx.kv.create("dist_sync")


def _ref_pack(codes):
    words = []
    for start in range(0, len(codes), 16):
        block = list(codes[start:start + 16]) + [0] * (16 - len(codes[start:start + 16]))
        by = bytes(sum(int(block[4 * j + i]) << (6 - 2 * i) for i in range(4)) for j in range(4))
        words.append(np.frombuffer(by, dtype=np.float32)[0])
    return np.array(words, dtype=np.float32)


@pytest.mark.parametrize("n", [1, 15, 16, 17, 100])
def test_2bit_pack_matches_model(n):
    rng = np.random.default_rng(n)
    g = rng.uniform(-1, 1, n).astype(np.float32)
    res = np.zeros(n, np.float32)
    codes = P.quantize_2bit(g.copy(), res, 0.4)
    want_codes = np.where(g >= 0.4, 3, np.where(g <= -0.4, 2, 0))
    np.testing.assert_array_equal(codes, want_codes)
    np.testing.assert_array_equal(res, g - np.where(g >= 0.4, 0.4, np.where(g <= -0.4, -0.4, 0))
                                  .astype(np.float32))
    words = P.pack_2bit(codes)
    assert words.dtype == np.float32 and words.size == -(-n // 16)
    np.testing.assert_array_equal(words.view(np.uint32), _ref_pack(codes).view(np.uint32))
    vals = P.unpack_2bit(words, n, 0.4)
    np.testing.assert_array_equal(vals, np.float32(0.4) * (codes == 3) - np.float32(0.4) * (codes == 2))


def test_shard_plan_and_layout():
    assert P.shard_plan(3, 10, 2, bound=100) == [(P.home_server(3, 2), 0, 10)]
    assert P.shard_plan(3, 101, 2, bound=100) == [(0, 0, 50), (1, 50, 101)]
    assert P.shard_plan("w", 500, 1, bound=100) == [(0, 0, 500)]
    lay = P.Layout(2, 4, {"DMLC_NUM_SERVER": "2", "DMLC_NUM_WORKER": "2", "DMLC_ROLE": "worker"})
    assert (lay.role, lay.worker_index, lay.server_ranks) == ("worker", 0, [0, 1])
    from mxnet.base import MXNetError
    with pytest.raises(MXNetError, match="DMLC_ROLE"):
        P.Layout(0, 4, {"DMLC_NUM_SERVER": "2", "DMLC_ROLE": "worker"})
    with pytest.raises(MXNetError, match="needs? 5"):
        P.Layout(0, 4, {"DMLC_NUM_SERVER": "2", "DMLC_NUM_WORKER": "3"})


def test_launch_command_line():
    cmd = launch.build_command("mpiexec", 2, 1, ["python", "t.py"], env=[("A", "1")])
    s = " ".join(cmd)
    assert "-genv DMLC_NUM_WORKER 2" in s and "-genv DMLC_NUM_SERVER 1" in s and "-genv A 1" in s
    assert "-n 1 -env DMLC_ROLE server python t.py : -n 2 -env DMLC_ROLE worker python t.py" in s
    cmd = launch.build_command("mpiexec", 3, 0, ["python", "t.py"], hostfile="hosts")
    assert cmd[1:3] == ["-f", "hosts"] and "server" not in cmd


def test_messenger_posts_by_priority():
    from mxnet.kvstore.dist_worker import _COLLECTIVES, by_priority
    log = []

    def item(name, prio=0, chain="k"):
        return (lambda: log.append(name)), prio, chain

    def order(*entries):
        log.clear()
        for fn in by_priority(list(entries)):
            fn()
        return log[:]

    # keys pushed in backward order, lowest priority first: posted highest first
    assert order(item("push2", -2, 2), item("push1", -1, 1), item("push0", 0, 0)) == \
        ["push0", "push1", "push2"]
    # a key's messages keep their order whatever their priorities
    assert order(item("push5", -5, 5), item("pull5", 9, 5), item("push0", 0, 0)) == \
        ["push0", "push5", "pull5"]
    # fences (no chain) are never crossed; collectives keep program order
    assert order(item("a", -1, 1), item("cmd", 0, None), item("b", 5, 2), item("c", 9, 3)) == \
        ["a", "cmd", "c", "b"]
    assert order(item("ar1", -1, _COLLECTIVES), item("ar0", 0, _COLLECTIVES),
                 item("p", 3, 7)) == ["p", "ar1", "ar0"]
    # equal priorities: submission order
    assert order(item("x", 0, 1), item("y", 0, 2), item("z", 0, 1)) == ["x", "y", "z"]
