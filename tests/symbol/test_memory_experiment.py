"""The memory experiment: Executor.debug_str's allocation line, the training plan, the four
planning modes and the lower bound, and that planning never changes what a graph computes.

The MB figures marked "1.9.1" were printed by MXNet 1.9.1's ``Executor.debug_str()``
(``MXNET_SUBGRAPH_BACKEND=NONE``, so the graphs are not fused) for the same graphs.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.executor import plan as P

REPO = Path(__file__).resolve().parents[2]
MODES = [(True, 16), (False, 16), (True, 0), (False, 0), (True, 1)]


def mlp():
    x = mx.sym.var("data")
    y = x
    for i in range(3):
        y = mx.sym.FullyConnected(y, num_hidden=1024, name=f"fc{i}")
        y = mx.sym.Activation(y, act_type="relu", name=f"relu{i}")
    y = mx.sym.FullyConnected(y, num_hidden=10, name="out")
    return mx.sym.SoftmaxOutput(y, name="softmax"), {"data": (1024, 1024)}


def cnn(batch=64, size=32):
    """Convolution, BatchNorm, a residual add, two poolings of one input, Concat, Flatten
    and Dropout: in-place, identity and co-sharing all have something to do."""
    x = mx.sym.var("data")
    y = mx.sym.Convolution(x, num_filter=32, kernel=(3, 3), pad=(1, 1), name="c1")
    y = mx.sym.BatchNorm(y, fix_gamma=False, name="bn1")
    y = mx.sym.Activation(y, act_type="relu", name="r1")
    z = mx.sym.Convolution(y, num_filter=32, kernel=(3, 3), pad=(1, 1), name="c2")
    z = mx.sym.Activation(z + y, act_type="relu", name="r2")
    p = mx.sym.Pooling(z, kernel=(2, 2), stride=(2, 2), pool_type="max", name="p1")
    q = mx.sym.Pooling(z, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="p2")
    c = mx.sym.Concat(p, q, dim=1, name="cat")
    f = mx.sym.Dropout(mx.sym.Flatten(c, name="flat"), p=0.5, name="drop")
    y = mx.sym.FullyConnected(f, num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(y, name="softmax"), {"data": (batch, 16, size, size)}


def views():
    """Flatten/Reshape outputs sharing their input's storage while the input is still
    read elsewhere, and an in-place op on a reshaped view."""
    x = mx.sym.var("x")
    a = mx.sym.exp(x * 0.5)
    b = mx.sym.Flatten(a)
    c = mx.sym.Reshape(a, shape=(0, -1))
    d = mx.sym.sigmoid(b) + mx.sym.relu(c)
    e = mx.sym.tanh(mx.sym.Reshape(d, shape=(-1,)))
    f = mx.sym.sum(a, axis=(2, 3)) * 2
    g = mx.sym.FullyConnected(mx.sym.Dropout(b, p=0.3), num_hidden=4, name="fc")
    return mx.sym.Group([e, f, g, mx.sym.square(d)]), {"x": (3, 2, 4, 5)}


def _last_lines(ex):
    return ex.debug_str().splitlines()[-2:]


def _mb_line(ex):
    return _last_lines(ex)[0]


# -- debug_str ---------------------------------------------------------------------------------------

def test_debug_str_ends_as_in_1_9_1():
    sym, shapes = mlp()
    ex = sym.simple_bind(mx.cpu(), grad_req="null", **shapes)
    text = ex.debug_str()
    assert text.startswith(sym.debug_str())
    assert text.endswith("Total 8 MB allocated\nTotal 11 TempSpace resource requested\n")
    assert _mb_line(ex) == f"Total {ex.allocated_bytes >> 20} MB allocated"


@pytest.mark.parametrize("net,req,mb", [(mlp, "null", 8), (mlp, "write", 16),
                                        (cnn, "null", 18), (cnn, "write", 48)])
def test_allocated_mb_matches_1_9_1(net, req, mb):
    sym, shapes = net()
    ex = sym.simple_bind(mx.cpu(), grad_req=req, **shapes)
    assert _mb_line(ex) == f"Total {mb} MB allocated"


@pytest.mark.parametrize("net,req,mb_1_9_1", [(mlp, "null", 12), (mlp, "write", 24),
                                              (cnn, "null", 38), (cnn, "write", 76)])
def test_allocated_mb_without_sharing(net, req, mb_1_9_1, monkeypatch):
    # NNVM_EXEC_MATCH_RANGE=0 turns co-sharing off in both (1.9.1 keeps in-place then)
    monkeypatch.setenv("NNVM_EXEC_MATCH_RANGE", "0")
    sym, shapes = net()
    ex = sym.simple_bind(mx.cpu(), grad_req=req, **shapes)
    got = ex.allocated_bytes >> 20
    assert got <= mb_1_9_1
    assert got == {("mlp", "null"): 12, ("mlp", "write"): 24, ("cnn", "null"): 36,
                   ("cnn", "write"): 76}[(net.__name__, req)]


def test_allocation_excludes_bound_arrays():
    x = mx.sym.var("x")
    y = mx.sym.exp(x) * 3
    for req in ("null", "write"):
        ex = y.simple_bind(mx.cpu(), grad_req=req, x=(100, 100))
        # exp's result and the output buffer (40000 bytes each), in training also the
        # gradient reaching exp; x and its gradient array are the caller's, and exp's
        # backward writes straight into that gradient array
        assert ex.allocated_bytes == {"null": 2, "write": 3}[req] * 40000
        assert ex.allocated_bytes == ex.memory_plan(training=req == "write").total_bytes


# -- the numbers of one small net are stable ---------------------------------------------------------

# exact bytes of cnn() (batch 64, 16x32x32) under every mode and the lower bound
CNN_BYTES = {
    "null": {"none": 71308544, "inplace": 37754112, "share": 25171200, "both": 18879744,
             "lower_bound": 16777472},
    "write": {"none": 155197184, "inplace": 79699712, "share": 56628480, "both": 50337024,
              "lower_bound": 46140160},
}


@pytest.mark.parametrize("req", ["null", "write"])
def test_cnn_memory_report_is_stable(req):
    sym, shapes = cnn()
    rep = P.memory_report(sym, shapes, grad_req=req)
    assert rep == CNN_BYTES[req]
    assert rep["lower_bound"] <= rep["both"] <= min(rep["inplace"], rep["share"])
    assert rep["both"] <= rep["none"]


def test_report_matches_bound_executor():
    sym, shapes = cnn(batch=4, size=8)
    rep = P.memory_report(sym, shapes, grad_req="write")
    ex = sym.simple_bind(mx.cpu(), grad_req="write", **shapes)
    assert ex.allocated_bytes == rep["both"]
    ex = sym.simple_bind(mx.cpu(), grad_req="null", **shapes)
    assert ex.allocated_bytes == P.memory_report(sym, shapes)["both"]


# -- the training schedule --------------------------------------------------------------------------

def _lifetimes(sched):
    first, last = {}, {}
    for k, (_, ins, outs, _) in enumerate(sched.steps):
        for e in outs:
            first.setdefault(e, k)
            last.setdefault(e, k)
        for e in ins:
            last[e] = k
    return first, last


def _check_valid(sched, plan):
    """No two entries on one block are live at once, unless joined in place."""
    parent = {}

    def find(e):
        while parent.get(e, e) != e:
            e = parent[e]
        return e

    for a, b in plan.inplace:
        parent[find(b)] = find(a)
    first, last = _lifetimes(sched)
    spans = {}
    for e, sid in plan.storage.items():
        g = find(e)
        lo, hi = spans.get((sid, g), (first[e], last[e]))
        spans[(sid, g)] = (min(lo, first[e]), max(hi, last[e]))
    by_block = {}
    for (sid, _), span in spans.items():
        by_block.setdefault(sid, []).append(span)
    for sid, iv in by_block.items():
        iv.sort()
        for (_, e1), (s2, _) in zip(iv, iv[1:]):
            assert e1 < s2, f"block {sid}: lifetimes overlap"
        for e, s in plan.storage.items():
            if s == sid:
                assert sched.nbytes[e] <= plan.sizes[sid]


def test_training_schedule_keeps_what_backward_reads():
    sym, shapes = mlp()
    sched = P.symbol_schedule(sym, shapes, grad_req="write")
    names = [s[0] for s in sched.steps]
    assert names[:8] == ["fc0", "relu0", "fc1", "relu1", "fc2", "relu2", "out", "softmax"]
    assert names[8:] == ["softmax_backward:_backward_SoftmaxOutput",
                         "out_backward:_backward_FullyConnected",
                         "relu2_backward:_backward_Activation",
                         "fc2_backward:_backward_FullyConnected",
                         "relu1_backward:_backward_Activation",
                         "fc1_backward:_backward_FullyConnected",
                         "relu0_backward:_backward_Activation",
                         "fc0_backward:_backward_FullyConnected"]
    first, last = _lifetimes(sched)
    relu1_out = sched.steps[3][2][0]
    # relu1's output is read by fc2's backward (as its data) and relu1's backward
    assert last[relu1_out] == names.index("relu1_backward:_backward_Activation")
    # fc1's output is relu1's input: relu's backward reads only the output, so it dies
    # in the forward pass and relu1 may overwrite it
    fc1_out = sched.steps[2][2][0]
    assert last[fc1_out] == 3
    plan = sched.plan(True, 16)
    assert (fc1_out, relu1_out) in plan.inplace
    # the weight gradients go straight into the bound arrays (not planned)
    fc0_bwd = sched.steps[names.index("fc0_backward:_backward_FullyConnected")]
    assert all(e in sched.external for e in fc0_bwd[2])
    _check_valid(sched, plan)


def test_gradient_sums_are_planned():
    x = mx.sym.var("x")
    a = mx.sym.exp(x, name="e")
    y = mx.sym.sin(a) + mx.sym.cos(a) * a       # a has three consumers
    sched = P.symbol_schedule(y, {"x": (8, 8)}, grad_req="write")
    adds = [s for s in sched.steps if s[0] == "_grad_add"]
    assert len(adds) == 2                        # summed as soon as each arrives
    plan = sched.plan(True, 16)
    _check_valid(sched, plan)
    # exp's backward writes x's gradient straight into the bound array
    exp_bwd = [s for s in sched.steps if s[0].startswith("e_backward:")]
    assert exp_bwd and all(o in sched.external for o in exp_bwd[-1][2])


def test_untraceable_rule_is_planned_conservatively():
    from mxnet.operator.registry import get_op
    op = get_op("tanh")
    tpl = P._conservative(op, [((2, 3), np.dtype("float32"))], [((2, 3), np.dtype("float32"))])
    (_, _, refs, infos), = tpl.nodes
    assert refs == [("in", 0), ("out", 0), ("og", 0)] and infos == [((2, 3), np.float32)]


@pytest.mark.parametrize("mode", [m[0] for m in P.MODES])
def test_plans_of_a_real_network_are_valid(mode):
    spec = importlib.util.spec_from_file_location("bench_memory",
                                                  REPO / "benchmark" / "bench_memory.py")
    bm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bm)
    inplace, match = {m[0]: m[1:] for m in P.MODES}[mode]
    for build, shape in ((bm.resnet50_v1, (2, 3, 224, 224)), (bm.inception_v3, (2, 3, 299, 299))):
        for req in ("null", "write"):
            sched = P.symbol_schedule(build(), {"data": shape}, grad_req=req)
            plan = sched.plan(inplace, 16 if match is None else match)
            _check_valid(sched, plan)
            assert plan.peak_bytes <= plan.total_bytes


# -- planning never changes results ----------------------------------------------------------------

def _run_all(sym, shapes, seed=0):
    ex = sym.simple_bind(mx.cpu(), grad_req="null", **shapes)
    rng = np.random.RandomState(seed)
    for a in ex.arg_arrays:
        a[:] = rng.uniform(-1, 1, a.shape)
    for name, a in ex.aux_dict.items():
        a[:] = rng.uniform(0.5, 1.5, a.shape) if name.endswith("var") else rng.uniform(-1, 1,
                                                                                        a.shape)
    outs = [o.asnumpy().copy() for o in ex.forward(is_train=False)]
    again = [o.asnumpy().copy() for o in ex.forward(is_train=False)]
    return ex, outs, again


@pytest.mark.parametrize("net", [cnn, views], ids=["cnn", "views"])
@pytest.mark.parametrize("inplace,match", MODES)
def test_planning_modes_compute_the_same(net, inplace, match, monkeypatch):
    sym, shapes = net(batch=2, size=8) if net is cnn else net()
    monkeypatch.setenv("MXNET_EXEC_ENABLE_INPLACE", "0")
    monkeypatch.setenv("NNVM_EXEC_MATCH_RANGE", "0")
    _, want, _ = _run_all(sym, shapes)
    monkeypatch.setenv("MXNET_EXEC_ENABLE_INPLACE", "1" if inplace else "0")
    monkeypatch.setenv("NNVM_EXEC_MATCH_RANGE", str(match))
    ex, got, again = _run_all(sym, shapes)
    plan = ex.memory_plan()
    if inplace and match:
        assert plan.planned_bytes < plan.naive_bytes
    for w, g, a in zip(want, got, again):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(a, w)


def test_identity_views_share_storage():
    sym, shapes = views()
    ex = sym.simple_bind(mx.cpu(), grad_req="null", **shapes)
    plan = ex.memory_plan(enable_inplace=True, match_range=0)
    flat = [st for st in ex._steps if st.op.name == "Flatten"][0]
    src = flat.ins[0]
    # the Flatten output lives on its input's block although exp's output is read later
    assert plan.storage[flat.outs[0]] == plan.storage[src]


def test_training_results_do_not_depend_on_the_plan(monkeypatch):
    sym, shapes = cnn(batch=2, size=8)
    results = []
    for inplace, match in ((True, 16), (False, 0)):
        monkeypatch.setenv("MXNET_EXEC_ENABLE_INPLACE", "1" if inplace else "0")
        monkeypatch.setenv("NNVM_EXEC_MATCH_RANGE", str(match))
        ex = sym.simple_bind(mx.cpu(), grad_req="write", **shapes)
        rng = np.random.RandomState(1)
        for a in ex.arg_arrays:
            a[:] = rng.uniform(-1, 1, a.shape)
        ex.aux_dict["bn1_moving_var"][:] = 1
        mx.random.seed(3)
        out = ex.forward(is_train=True)[0].asnumpy()
        ex.backward()
        results.append([out] + [g.asnumpy() for g in ex.grad_arrays])
        assert ex.debug_str().endswith("TempSpace resource requested\n")
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
