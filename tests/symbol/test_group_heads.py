"""A graph output listed more than once, against 1.9.1.

1.9.1's graph executor (``bind``/``simple_bind``, hence ``mx.mod.Module``) gives such an
entry the head gradient of its LAST listing only, and its outputs share one buffer (an
output that is a bound argument is that argument's memory); imperative ``autograd`` keeps
the last head gradient of a tape entry listed twice too. A hybridized block (CachedOp)
hands out its own array per output and adds the head gradients up.

Fixture: tests/golden/group_heads.json, written by tools/golden/gen_group_heads.py, whose
routines this module runs against this repository's mxnet.
"""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx

from .._scripts import load_script

GEN = load_script("tools/golden/gen_group_heads.py")
GOLDEN = GEN.load_golden()["cases"]


def same(actual, expected, where):
    """Records equal: exact for strings, booleans and structure, close for numbers."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        assert sorted(actual) == sorted(expected), f"{where}: keys {sorted(actual)}"
        for k in expected:
            same(actual[k], expected[k], f"{where}/{k}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), \
            f"{where}: {actual!r} != {expected!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            same(a, e, f"{where}[{i}]")
    elif isinstance(expected, bool) or isinstance(expected, str):
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"
    elif isinstance(expected, (int, float)):
        assert not isinstance(actual, bool), where
        np.testing.assert_allclose(actual, expected, rtol=1e-6, atol=1e-6, err_msg=where)
    else:
        assert actual == expected, where


def _case(name):
    kind, _, rest = name.partition("/")
    if kind == "exec":
        graph, req = rest.split("/")
        return GEN.executor_case(mx, graph, req)
    if kind == "simple_bind":
        return GEN.simple_bind_case(mx, rest, "write" if rest == "triple" else "add")
    if kind == "debug_monitor":
        return GEN.debug_monitor_case(mx, rest, rest != "split_first")
    if kind == "gluon":
        return GEN.gluon_case(mx, rest)
    if kind == "creator":
        return GEN.creator_case(mx, rest == "repeat")
    if kind == "module":
        return GEN.module_case(mx)
    if kind == "imperative":
        return GEN.imperative_case(mx)
    raise AssertionError(name)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_against_1_9_1(name):
    same(_case(name), GOLDEN[name], name)


def test_fixture_covers_the_paths():
    """The fixture holds the cases the module docstring names (a lost case fails here)."""
    kinds = {n.split("/")[0] for n in GOLDEN}
    assert kinds == {"exec", "simple_bind", "debug_monitor", "creator", "module", "imperative",
                     "gluon"}
    # the picks differ from the sums in every executor case (so the fixture can tell them
    # apart): the last head gradient of "pair" is 10, the sum would be 11
    assert GOLDEN["exec/pair/write"]["grad1"]["x"] == [40.0, 50.0, 60.0]
    assert GOLDEN["gluon/hybrid"]["pair"][0] == [22.0, 22.0, 22.0]


def test_executor_last_head_wins_closed_form():
    """Group([y, y]) with y = x * w: dL/dx = w * g_last, dL/dw = x * g_last."""
    x, w = mx.sym.var("x"), mx.sym.var("w")
    y = x * w
    xs, ws = np.array([1.0, -2.0, 0.5], np.float32), np.array([3.0, 0.25, -4.0], np.float32)
    gx, gw = mx.nd.zeros(3), mx.nd.zeros(3)
    ex = mx.sym.Group([y, y]).bind(mx.cpu(), {"x": mx.nd.array(xs), "w": mx.nd.array(ws)},
                                   args_grad={"x": gx, "w": gw})
    ex.forward(is_train=True)
    g1, g2 = np.array([5.0, 6.0, 7.0], np.float32), np.array([-1.0, 2.0, 0.5], np.float32)
    ex.backward([mx.nd.array(g1), mx.nd.array(g2)])
    np.testing.assert_allclose(gx.asnumpy(), ws * g2)
    np.testing.assert_allclose(gw.asnumpy(), xs * g2)


def test_hybridized_pair_inference_outputs_are_distinct():
    """Inference through a hybridized block: the repeated output is a copy of its own."""
    class Pair(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            y = x + 1
            return y, y

    b = Pair()
    b.hybridize()
    o1, o2 = b(mx.nd.array([1.0, 2.0]))
    o1[:] = 0
    np.testing.assert_array_equal(o2.asnumpy(), [2.0, 3.0])
