"""Hybridized NumPy-mode blocks (``F.np`` / ``F.npx`` traced into ``mx.sym.np`` symbols)
against MXNet 1.9.1: the exported -symbol.json text, the outputs and the gradients of the
same block sources (tests/golden/numpy_hybrid.json, written by tools/golden/gen_numpy.py),
and ``SymbolBlock.imports`` of the files 1.9.1 exported."""
import json
import os

import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, gluon, np, npx

HERE = os.path.join(os.path.dirname(__file__), "..", "golden")
GOLDEN = os.path.join(HERE, "numpy_hybrid.json")
REGEN = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
         "/work/main/tools/golden/gen_numpy.py hybrid")


def _load():
    if not os.path.exists(GOLDEN):
        pytest.fail(f"golden fixture missing; regenerate with: {REGEN}")
    with open(GOLDEN) as f:
        return json.load(f)


CASES = _load()


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _run(name, case, hybridize):
    env = {"gluon": gluon, "np": np, "npx": npx, "mx": mx}
    exec(case["src"], env)
    inputs = [onp.array(a, dtype="float32") for a in case["inputs"]]
    net = env["Net"](prefix=f"{name}_")
    net.initialize()
    net(*[np.array(a) for a in inputs])
    for k, p in net._collect_params_with_prefix().items():
        p.set_data(np.array(onp.array(case["params"][k], dtype="float32")))
    if hybridize:
        net.hybridize()
    xs = [np.array(a) for a in inputs]
    for xa in xs:
        xa.attach_grad()
    with autograd.record():
        outs = net(*xs)
        total = sum((o * (i + 1)).sum() for i, o in enumerate(outs) if i not in case["no_grad"])
    total.backward()
    return net, outs, xs


def _close(got, want, what):
    want = onp.array(want, dtype="float64")
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    onp.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=what)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("hybridize", [False, True], ids=["imperative", "hybridized"])
def test_outputs_and_gradients(name, hybridize):
    case = CASES[name]
    tag = "hyb" if hybridize else "imp"
    net, outs, xs = _run(name, case, hybridize)
    assert all(isinstance(o, np.ndarray) for o in outs)
    for i, (o, w) in enumerate(zip(outs, case[f"{tag}_outputs"])):
        _close(o.asnumpy(), w, f"{name} output {i}")
    for i, (xa, w) in enumerate(zip(xs, case[f"{tag}_input_grads"])):
        _close(xa.grad.asnumpy(), w, f"{name} input grad {i}")
    for k, p in net._collect_params_with_prefix().items():
        _close(p.grad().asnumpy(), case[f"{tag}_param_grads"][k], f"{name} grad of {k}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_export_matches_reference(name, tmp_path):
    case = CASES[name]
    net, _, _ = _run(name, case, True)
    path = str(tmp_path / name)
    net.export(path)
    with open(path + "-symbol.json") as f:
        text = f.read()
    assert text == case["symbol_json"]
    loaded = npx.load(path + "-0000.params")
    values = loaded.values() if isinstance(loaded, dict) else loaded
    assert len(values) == len(case["params"])
    assert all(isinstance(v, np.ndarray) for v in values)


@pytest.mark.parametrize("name", sorted(CASES))
def test_symbolblock_imports_reference_export(name, tmp_path):
    case = CASES[name]
    sym_file = tmp_path / "net-symbol.json"
    sym_file.write_text(case["symbol_json"])
    n_in = len(case["inputs"])
    names = ["data"] if n_in == 1 else [f"data{i}" for i in range(n_in)]
    block = gluon.SymbolBlock.imports(str(sym_file), names,
                                      os.path.join(HERE, case["params_file"]))
    outs = block(*[np.array(onp.array(a, dtype="float32")) for a in case["inputs"]])
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    assert all(isinstance(o, np.ndarray) for o in outs)
    for i, (o, w) in enumerate(zip(outs, case["hyb_outputs"])):
        _close(o.asnumpy(), w, f"{name} imported output {i}")


def test_symbol_namespaces():
    assert mx.sym.np is mx.symbol.numpy and mx.sym.npx is mx.symbol.numpy_extension
    assert mx.nd.np is mx.np and mx.nd.npx is mx.npx
    x = mx.sym.var("x").as_np_ndarray()
    assert isinstance(x + 1, mx.sym.np._Symbol)
    assert isinstance(mx.sym.npx.fully_connected(x, mx.sym.var("w"), num_hidden=2,
                                                 no_bias=True), mx.sym.np._Symbol)
    assert type(x.as_nd_ndarray()) is mx.sym.Symbol
    assert len(mx.sym.np.split(x, 3)) == 3


def test_symbol_errors():
    x = mx.sym.var("x").as_np_ndarray()
    with pytest.raises(mx.base.MXNetError, match="indexing"):
        x[None]
    with pytest.raises(TypeError, match="add"):
        mx.sym.np.add(x, "a")
    with pytest.raises(mx.base.MXNetError, match="ord"):
        mx.sym.np.linalg.norm(x, ord=3)
