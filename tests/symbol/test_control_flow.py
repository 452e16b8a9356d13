"""Symbolic control flow (mx.sym.contrib.foreach / while_loop / cond) against 1.9.1's
JSON, outputs and gradients (tools/golden/gen_control_flow.py), numeric gradients and the
imperative loops."""
import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.base import MXNetError

from .._scripts import load_script

REPO = Path(__file__).resolve().parent.parent.parent


def _load_gen():
    return load_script("tools/golden/gen_control_flow.py")


GEN = _load_gen()
META = json.loads(GEN.OUT_JSON.read_text())
ARRAYS = np.load(GEN.OUT_NPZ)


def _build(name):
    with GEN.fresh_names(mx):
        return GEN.SYMBOL_CASES[name](mx)


def _run(sym, ins, ograds, grad=True):
    args = {k: mx.nd.array(v) for k, v in ins.items()}
    grads = {k: mx.nd.zeros(v.shape) for k, v in ins.items()} if grad else None
    exe = sym.bind(mx.cpu(), args, args_grad=grads)
    outs = [o.asnumpy() for o in exe.forward(is_train=grad)]
    if grad:
        exe.backward([mx.nd.array(g) for g in ograds])
        grads = {k: v.asnumpy() for k, v in grads.items()}
    return outs, grads


def _check_outputs(name, outs, prefix="out"):
    """Compare with the reference; a while loop's padding rows (uninitialised in 1.9.1) must
    be zeros here."""
    steps = GEN.WHILE_STEPS.get(name)
    stacked = len(outs) - _num_loop_vars(name)
    for k, o in enumerate(outs):
        want = ARRAYS[f"{name}/{prefix}{k}"]
        assert o.shape == want.shape, (name, k)
        if steps is not None and k < stacked:
            np.testing.assert_allclose(o[:steps], want[:steps], rtol=1e-5, atol=1e-6)
            assert not o[steps:].any(), "padding rows must be zeros"
        else:
            np.testing.assert_allclose(o, want, rtol=1e-5, atol=1e-6)


def _num_loop_vars(name):
    return {"while_counter": 2, "while_data_stop": 1, "while_shared": 1,
            "while_stop": 1}.get(name, 0)


def _numeric_grads(sym, ins, ograds, eps=1e-3):
    """Central differences of sum(out_k * ograd_k), in float64 arithmetic on the float32
    graph (small graphs only)."""
    def f(vals):
        outs, _ = _run(sym, vals, ograds, grad=False)
        return sum(float((o.astype(np.float64) * g).sum()) for o, g in zip(outs, ograds))
    res = {}
    for k, v in ins.items():
        num = np.zeros(v.shape)
        for idx in np.ndindex(v.shape):
            p = {kk: vv.copy() for kk, vv in ins.items()}
            p[k][idx] += eps
            fp = f(p)
            p[k][idx] -= 2 * eps
            num[idx] = (fp - f(p)) / (2 * eps)
        res[k] = num
    return res


@pytest.mark.parametrize("name", sorted(GEN.SYMBOL_CASES))
def test_json_matches_reference(name):
    sym, _, _ = _build(name)
    m = META["symbols"][name]
    assert sym.tojson() == m["json"]
    assert sym.list_arguments() == m["arguments"]
    assert sym.list_outputs() == m["outputs"]
    again = mx.sym.load_json(m["json"])
    assert again.tojson() == m["json"]


@pytest.mark.parametrize("name", sorted(GEN.SYMBOL_CASES))
def test_infer_shape(name):
    sym, ins, _ = _build(name)
    m = META["symbols"][name]
    arg_shapes, out_shapes, _ = sym.infer_shape(**{k: v.shape for k, v in ins.items()})
    assert [list(s) for s in arg_shapes] == m["arg_shapes"]
    # 1.9.1 leaves the outputs of cond and while_loop unknown until it runs; here they are
    # inferred (and must be what the run gives)
    for k, s in enumerate(out_shapes):
        assert tuple(s) == ARRAYS[f"{name}/out{k}"].shape
        if m["out_shapes"][k]:
            assert list(s) == m["out_shapes"][k]
    arg_types, out_types, _ = sym.infer_type(**{k: np.float32 for k in ins})
    assert all(t == np.float32 for t in arg_types + out_types)


@pytest.mark.parametrize("name", sorted(GEN.SYMBOL_CASES))
def test_forward_backward_match_reference(name):
    sym, ins, ograds = _build(name)
    outs, grads = _run(sym, ins, ograds)
    _check_outputs(name, outs)
    if META["symbols"][name]["backward"] and GEN.WRONG_IN_REFERENCE.get(name) != "grad":
        for k in ins:
            np.testing.assert_allclose(grads[k], ARRAYS[f"{name}/grad/{k}"], rtol=1e-4,
                                       atol=1e-5, err_msg=k)


@pytest.mark.parametrize("name", ["foreach_lists", "while_shared", "while_data_stop",
                                  "cond_then", "cond_else", "foreach_nested"])
def test_gradients_match_numeric(name):
    sym, ins, ograds = _build(name)
    ins = {k: v.astype(np.float64).astype(np.float32) for k, v in ins.items()}
    _, grads = _run(sym, ins, ograds)
    num = _numeric_grads(sym, ins, ograds)
    for k in ins:
        np.testing.assert_allclose(grads[k], num[k], rtol=2e-2, atol=2e-2, err_msg=k)


@pytest.mark.parametrize("name", sorted(GEN.SYMBOL_CASES))
def test_loaded_reference_json_runs(name):
    """The reference's own file, loaded and run, gives the reference's results."""
    _, ins, ograds = _build(name)
    sym = mx.sym.load_json(META["symbols"][name]["json"])
    outs, _ = _run(sym, ins, ograds)
    _check_outputs(name, outs)


def test_simple_bind_infers_closed_over_weight():
    sym, ins, ograds = _build("foreach_fc")
    exe = sym.simple_bind(mx.cpu(), data=(4, 2, 5), s0=(2, 3))
    assert exe.arg_dict["w"].shape == (3, 5)
    for k, v in ins.items():
        exe.arg_dict[k][:] = v
    outs = exe.forward(is_train=True)
    exe.backward([mx.nd.array(g) for g in ograds])
    np.testing.assert_allclose(outs[0].asnumpy(), ARRAYS["foreach_fc/out0"], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(exe.grad_dict["w"].asnumpy(), ARRAYS["foreach_fc/grad/w"],
                               rtol=1e-4, atol=1e-5)


def test_module_runs_foreach():
    sym, ins, ograds = _build("foreach_fc")
    sym = sym[0]   # the stacked outputs (the Module slices head gradients on axis 0)
    want, want_grads = _run(sym, ins, ograds[:1])
    mod = mx.mod.Module(sym, data_names=["data"], label_names=None)
    mod.bind(data_shapes=[("data", (4, 2, 5))], inputs_need_grad=True)
    mod.init_params(arg_params={"w": mx.nd.array(ins["w"]), "s0": mx.nd.array(ins["s0"])})
    mod.forward(mx.io.DataBatch([mx.nd.array(ins["data"])]), is_train=True)
    mod.backward([mx.nd.array(ograds[0])])
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), want[0], rtol=1e-6)
    np.testing.assert_allclose(mod.get_input_grads()[0].asnumpy(), want_grads["data"],
                               rtol=1e-6)


def test_while_loop_without_steps():
    """The condition fails at once: zero outputs of the inferred shape, the loop variables
    unchanged, and their gradients are the head gradients."""
    x, y = mx.sym.var("x"), mx.sym.var("y")
    outs, states = mx.sym.contrib.while_loop(
        lambda a, b: a.sum() > 100, lambda a, b: ([a * b], [a + b, b * 2]), [x, y],
        max_iterations=3)
    sym = mx.sym.Group(outs + states)
    rs = np.random.RandomState(0)
    ins = {"x": rs.rand(2, 2).astype(np.float32), "y": rs.rand(2, 2).astype(np.float32)}
    og = [rs.rand(3, 2, 2).astype(np.float32), rs.rand(2, 2).astype(np.float32),
          rs.rand(2, 2).astype(np.float32)]
    res, grads = _run(sym, ins, og)
    assert res[0].shape == (3, 2, 2) and not res[0].any()
    np.testing.assert_array_equal(res[1], ins["x"])
    np.testing.assert_array_equal(res[2], ins["y"])
    np.testing.assert_array_equal(grads["x"], og[1])
    np.testing.assert_array_equal(grads["y"], og[2])


def test_cond_inside_foreach_matches_imperative():
    d, s = mx.sym.var("d"), mx.sym.var("s")

    def step(F):
        def body(x, st):
            h = st[0]
            out = F.contrib.cond(x.sum() > 0, lambda: x * h, lambda: x - h)
            return out, [h + out]
        return body
    outs, states = mx.sym.contrib.foreach(step(mx.sym), d, [s])
    sym = mx.sym.Group([outs] + states)
    rs = np.random.RandomState(3)
    ins = {"d": rs.uniform(-1, 1, (5, 3)).astype(np.float32),
           "s": rs.uniform(-1, 1, (3,)).astype(np.float32)}
    og = [rs.rand(5, 3).astype(np.float32), rs.rand(3).astype(np.float32)]
    res, grads = _run(sym, ins, og)
    nd_in = {k: mx.nd.array(v) for k, v in ins.items()}
    for v in nd_in.values():
        v.attach_grad()
    with autograd.record():
        o, st = mx.nd.contrib.foreach(step(mx.nd), nd_in["d"], [nd_in["s"]])
        loss = (o * mx.nd.array(og[0])).sum() + (st[0] * mx.nd.array(og[1])).sum()
    loss.backward()
    np.testing.assert_allclose(res[0], o.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(res[1], st[0].asnumpy(), rtol=1e-6)
    for k in ins:
        np.testing.assert_allclose(grads[k], nd_in[k].grad.asnumpy(), rtol=1e-5, atol=1e-6)


def test_cond_runs_only_the_taken_branch():
    """The untaken branch would fail (a shape mismatch) if it ran."""
    a, b = mx.sym.var("a"), mx.sym.var("b")
    out = mx.sym.contrib.cond(a.sum() > 0, lambda: a * 2,
                              lambda: mx.sym.reshape(b, shape=(2,)) + a)
    exe = out.bind(mx.cpu(), {"a": mx.nd.ones(2), "b": mx.nd.ones(2)})
    np.testing.assert_array_equal(exe.forward()[0].asnumpy(), [2, 2])


def test_subgraph_names_nest_and_count():
    with GEN.fresh_names(mx):
        d = mx.sym.var("d")
        with mx.AttrScope(__subgraph_name__="outer0"):
            _, st = mx.sym.contrib.foreach(lambda x, s: (x, [s[0] + x]), d, [d * 1])
        _, st2 = mx.sym.contrib.foreach(lambda x, s: (x, [s[0] + x]), d, [d * 1])
    inner = [n for n in json.loads(st[0].tojson())["nodes"] if n["op"] == "_foreach"][0]
    names = {n.get("attrs", {}).get("__subgraph_name__")
             for n in inner["subgraphs"][0]["nodes"]}
    assert "outer0$foreach0" in names
    second = [n for n in json.loads(st2[0].tojson())["nodes"] if n["op"] == "_foreach"][0]
    assert "foreach0" in {n.get("attrs", {}).get("__subgraph_name__")
                          for n in second["subgraphs"][0]["nodes"]}


# -- errors ------------------------------------------------------------------------------------

def test_foreach_errors():
    d, s = mx.sym.var("d"), mx.sym.var("s")
    with pytest.raises(ValueError, match="data arrays have to be used"):
        mx.sym.contrib.foreach(lambda x, st: (st[0] * 2, [st[0] + 1]), d, [s])
    with pytest.raises(MXNetError, match="different structure"):
        mx.sym.contrib.foreach(lambda x, st: (x, [st[0], st[0]]), d, [s])
    with pytest.raises(MXNetError, match="Symbol or a"):
        mx.sym.contrib.foreach(lambda x, st: (x, st), d, [np.zeros(2)])
    outs, _ = mx.sym.contrib.foreach(lambda x, st: (x + st[0], [st[0]]), d, [s])
    with pytest.raises(MXNetError, match="_foreach"):
        outs.infer_shape(d=(3, 4), s=(5,))
    with pytest.raises(MXNetError):
        exe = outs.bind(mx.cpu(), {"d": mx.nd.array(np.zeros((0, 2))), "s": mx.nd.zeros(2)})
        exe.forward()[0].asnumpy()


def test_while_loop_errors():
    x = mx.sym.var("x")
    with pytest.raises(ValueError, match="max_iterations"):
        mx.sym.contrib.while_loop(lambda v: v < 3, lambda v: ([], [v + 1]), [x])
    with pytest.raises(MXNetError, match="consistent"):
        mx.sym.contrib.while_loop(lambda v: v < 3, lambda v: ([], [v, v]), [x],
                                  max_iterations=3)
    with pytest.raises(MXNetError, match="doesn't involve"):
        mx.sym.contrib.while_loop(lambda v: v < 3, lambda v: ([], [mx.sym.ones(1)]), [x],
                                  max_iterations=3)
    outs, states = mx.sym.contrib.while_loop(lambda v: v.sum() < 3,
                                             lambda v: ([v], [mx.sym.concat(v, v, dim=0)]),
                                             [x], max_iterations=3)
    with pytest.raises(MXNetError, match="loop variable 0 .*inconsistent"):
        states[0].bind(mx.cpu(), {"x": mx.nd.zeros(1)})


def test_cond_errors():
    a = mx.sym.var("a")
    with pytest.raises(ValueError, match="differs"):
        mx.sym.contrib.cond(a.sum() > 0, lambda: [a, a], lambda: a)
    with pytest.raises(MXNetError, match="pred must be a Symbol"):
        mx.sym.contrib.cond(True, lambda: a, lambda: a)
    out = mx.sym.contrib.cond(a > 0, lambda: a, lambda: a * 2)
    exe = out.bind(mx.cpu(), {"a": mx.nd.ones(3)})
    with pytest.raises(MXNetError, match="one value"):
        exe.forward()[0].asnumpy()


def test_raw_operator_without_subgraph_is_refused():
    x = mx.sym.var("x")
    node = mx.sym._internal._cond(x, num_args=4, num_outputs=1, cond_input_locs=[0],
                                  then_input_locs=[0], else_input_locs=[0])
    with pytest.raises(MXNetError, match="no subgraph"):
        node.infer_shape(x=(1,))
    doc = json.loads(META["symbols"]["cond_then"]["json"])
    del doc["nodes"][-1]["subgraphs"][2]
    with pytest.raises(MXNetError, match="takes 3 subgraph"):
        mx.sym.load_json(json.dumps(doc))


def test_dropout_in_body_gets_the_forward_mask_in_backward():
    """The gradient replays the loop with the random state of the forward call, so the
    masks match: d/dw sum(dropout(x_t * w)) = sum_t mask_t * x_t / (1 - p)."""
    x, w = mx.sym.var("x"), mx.sym.var("w")
    outs, _ = mx.sym.contrib.foreach(
        lambda xt, st: (mx.sym.Dropout(xt * w, p=0.5), st), x, [mx.sym.var("s")])
    rs = np.random.RandomState(5)
    xv = rs.uniform(0.5, 1.5, (6, 8)).astype(np.float32)
    wv = rs.uniform(0.5, 1.5, (8,)).astype(np.float32)
    grads = {"x": mx.nd.zeros((6, 8)), "w": mx.nd.zeros(8), "s": mx.nd.zeros(1)}
    exe = outs.bind(mx.cpu(), {"x": mx.nd.array(xv), "w": mx.nd.array(wv),
                               "s": mx.nd.zeros(1)}, args_grad=grads)
    for _ in range(2):
        out = exe.forward(is_train=True)[0].asnumpy()
        exe.backward([mx.nd.ones((6, 8))])
        mask = out != 0
        assert 0 < mask.sum() < mask.size
        np.testing.assert_allclose(grads["w"].asnumpy(), (mask * xv).sum(0) * 2, rtol=1e-5)
        np.testing.assert_allclose(grads["x"].asnumpy(), mask * wv * 2, rtol=1e-5)
