"""Gradient table for the subgraph operators ``_foreach``, ``_while_loop`` and ``_cond``.

They exist only as nodes built by mx.sym.contrib.*, so each case runs its graph as a
SymbolBlock (a compiled program recorded by autograd as one node) on the harness's float64
inputs. The golden and structural checks live in tests/symbol/test_control_flow.py.
"""
import pytest

import mxnet as mx

from .harness import GradCase, check_grad_case, rand


def _block(build, names):
    """fn(*ndarrays) running the graph ``build(*vars)`` (built once) as a SymbolBlock."""
    cache = {}

    def fn(*arrays):
        if "net" not in cache:
            syms = [mx.sym.var(n) for n in names]
            cache["net"] = mx.gluon.SymbolBlock(build(*syms), syms)
        return cache["net"](*arrays)
    return fn


def _foreach(x, h, w):
    outs, states = mx.sym.contrib.foreach(
        lambda xt, st: ((xt * w + st[0]).tanh(), [st[0] * xt + w]), x, [h])
    return mx.sym.broadcast_add(outs, states[0].sum())


def _while(x, w):
    outs, final = mx.sym.contrib.while_loop(
        lambda v: v.sum() < 3, lambda v: ([v * w], [v + w * w]), [x], max_iterations=6)
    return mx.sym.broadcast_add(outs[0], final[0])


def _cond(a, b):
    return mx.sym.contrib.cond(a.sum() > 0, lambda: a * b + b.exp(), lambda: a - b * b)


GRAD_CASES = [
    GradCase("foreach", _block(_foreach, ["x", "h", "w"]),
             [rand(4, 3, seed=1), rand(3, seed=2), rand(3, seed=3)], ops=("_foreach",)),
    GradCase("while_loop", _block(_while, ["x", "w"]),
             [rand(2, seed=4, low=0.0, high=0.5), rand(2, seed=5, low=0.3, high=0.8)],
             ops=("_while_loop",)),
    GradCase("cond_then", _block(_cond, ["a", "b"]),
             [rand(3, seed=6, low=0.1, high=1.0), rand(3, seed=7)], ops=("_cond",)),
    GradCase("cond_else", _block(_cond, ["a", "b"]),
             [rand(3, seed=8, low=-1.0, high=-0.1), rand(3, seed=9)], ops=("_cond",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)
