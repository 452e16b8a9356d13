"""Hybridized Gluon blocks that call F.contrib.foreach / while_loop / cond: same results as
the imperative run and as 1.9.1 (tools/golden/gen_control_flow.py), export byte for byte,
and SymbolBlock.imports of 1.9.1's own files."""
import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon

from .._scripts import load_script

REPO = Path(__file__).resolve().parent.parent.parent


def _load_gen():
    return load_script("tools/golden/gen_control_flow.py", "golden_gen_control_flow_gluon")


GEN = _load_gen()
META = json.loads(GEN.OUT_JSON.read_text())
ARRAYS = np.load(GEN.OUT_NPZ)
CASES = sorted(GEN.GLUON_CASES)


def _check(name, outs, prefix):
    steps = GEN.WHILE_STEPS.get(name)
    for k, o in enumerate(outs):
        want = ARRAYS[f"{name}/{prefix}{k}"]
        assert o.shape == want.shape
        if steps is not None and k == 0:   # the stacked output: padding rows are zeros here
            np.testing.assert_allclose(o[:steps], want[:steps], rtol=1e-5, atol=1e-6)
            assert not o[steps:].any()
        else:
            np.testing.assert_allclose(o, want, rtol=1e-5, atol=1e-6)


def _check_grads(name, grads, prefix):
    for n, g in grads.items():
        np.testing.assert_allclose(g, ARRAYS[f"{name}/{prefix}/{n}"], rtol=1e-4, atol=1e-5,
                                   err_msg=n)


@pytest.mark.parametrize("name", CASES)
def test_imperative_matches_reference(name):
    _, outs, grads, _ = GEN.run_gluon(mx, name, False)
    _check(name, outs, "out")
    _check_grads(name, grads, "grad")


@pytest.mark.parametrize("name", CASES)
def test_hybridized_matches_imperative_and_reference(name):
    _, outs, grads, _ = GEN.run_gluon(mx, name, False)
    _, houts, hgrads, _ = GEN.run_gluon(mx, name, True)
    for a, b in zip(outs, houts):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
    for n in grads:
        np.testing.assert_allclose(hgrads[n], grads[n], rtol=1e-4, atol=1e-5, err_msg=n)
    _check(name, houts, "hyb_out")
    # where 1.9.1's cached graph disagrees with its own imperative run, the latter is the truth
    wrong = GEN.WRONG_IN_REFERENCE.get(name) == "hyb_grad"
    _check_grads(name, hgrads, "grad" if wrong else "hyb_grad")


@pytest.mark.parametrize("name", CASES)
def test_export_matches_reference(name, tmp_path):
    block, _, _, _ = GEN.run_gluon(mx, name, True)
    block.export(str(tmp_path / name))
    text = (tmp_path / f"{name}-symbol.json").read_text()
    assert text == META["gluon"][name]["json"]


@pytest.mark.parametrize("name", CASES)
def test_symbolblock_imports_reference_file(name, tmp_path):
    """1.9.1's exported file and this repository's parameters give 1.9.1's outputs, and
    gradients flow to the imported parameters."""
    block, outs, grads, values = GEN.run_gluon(mx, name, True)
    (tmp_path / "ref-symbol.json").write_text(META["gluon"][name]["json"])
    mx.nd.save(str(tmp_path / "ref-0000.params"),
               {f"arg:{n}": mx.nd.array(v) for n, v in values.items()})
    with GEN.fresh_names(mx):
        _, inputs = GEN.GLUON_CASES[name](mx)
    names = [f"data{i}" for i in range(len(inputs))] if len(inputs) > 1 else ["data"]
    net = gluon.SymbolBlock.imports(str(tmp_path / "ref-symbol.json"), names,
                                    str(tmp_path / "ref-0000.params"))
    xs = [mx.nd.array(x) for x in inputs]
    with autograd.record():
        res = net(*xs)
        res = list(res) if isinstance(res, (list, tuple)) else [res]
        weights = GEN.out_weights([o.shape for o in res])
        loss = sum((o * mx.nd.array(w)).sum() for o, w in zip(res, weights))
    loss.backward()
    _check(name, [o.asnumpy() for o in res], "out")
    _check_grads(name, {n: p.grad().asnumpy() for n, p in net.collect_params().items()},
                 "grad")


def test_deferred_shapes_through_foreach():
    """A Dense without in_units inside the loop body gets its weight shape from the data."""
    from mxnet.gluon import nn

    class Loop(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.dense = nn.Dense(4, flatten=False)

        def hybrid_forward(self, F, x):
            outs, _ = F.contrib.foreach(lambda xt, st: (self.dense(xt) + st[0], st),
                                        x, [F.zeros((2, 4))])
            return outs
    net = Loop()
    net.initialize()
    net.hybridize()
    out = net(mx.nd.ones((3, 2, 5)))
    assert out.shape == (3, 2, 4)
    assert net.dense.weight.shape == (4, 5)
