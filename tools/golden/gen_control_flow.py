"""Record symbolic control flow (foreach, while_loop, cond) under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_control_flow.py

Symbol cases (``SYMBOL_CASES``): each builds a graph with ``mx.sym.contrib.*`` under a fresh
``NameManager`` and fresh subgraph counters, then binds it with the case's inputs, runs one
training forward and a backward with the case's head gradients.

Gluon cases (``GLUON_CASES``): a HybridBlock whose ``hybrid_forward`` uses ``F.contrib.*``;
its parameters get NumPy-made values, then one recorded forward and backward of
``sum(out_k * w_k)`` runs imperatively and once more hybridized, and the hybridized block is
exported.

``tests/golden/control_flow.json`` holds per case the -symbol.json text, argument and
output names, inferred shapes, and (for while loops) how many steps ran;
``tests/golden/control_flow.npz`` holds ``<case>/in/<name>``, ``<case>/og<k>``,
``<case>/out<k>`` and ``<case>/grad/<name>`` (for Gluon cases ``<case>/hyb_out<k>`` and
``<case>/hyb_grad/<param>`` too). The tests in tests/symbol/test_control_flow.py and
tests/gluon/test_hybrid_control_flow.py import this module (it must stay importable without
mxnet) and replay the cases against this repository's mxnet.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_NPZ = REPO / "tests" / "golden" / "control_flow.npz"
OUT_JSON = REPO / "tests" / "golden" / "control_flow.json"


def _rand(seed, *shape):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# symbol cases: name -> function(mx) returning (symbol, {input: array}, [head gradients])

def sym_foreach_fc(mx):
    data, s0, w = mx.sym.var("data"), mx.sym.var("s0"), mx.sym.var("w")

    def step(x, states):
        h = mx.sym.FullyConnected(x, w, no_bias=True, num_hidden=3, name="fc") + states[0]
        return h.tanh(), [h]
    outs, states = mx.sym.contrib.foreach(step, data, [s0])
    sym = mx.sym.Group([outs] + states)
    ins = {"data": _rand(1, 4, 2, 5), "s0": _rand(2, 2, 3), "w": _rand(3, 3, 5)}
    return sym, ins, [_rand(4, 4, 2, 3), _rand(5, 2, 3)]


def sym_foreach_lists(mx):
    """Two sequences, nested states, a closed-over operator output and a variable the body
    creates itself."""
    a, b = mx.sym.var("a"), mx.sym.var("b")
    h, c = mx.sym.var("h"), mx.sym.var("c")
    scale = mx.sym.var("scale") * 2

    def step(xs, states):
        x, y = xs
        (hh,), cc = states
        inner = mx.sym.var("inner")
        new_h = mx.sym.broadcast_mul(x + hh, scale) + inner
        new_c = cc * y
        return [new_h, new_c.sigmoid()], [[new_h], new_c]
    outs, states = mx.sym.contrib.foreach(step, [a, b], [[h], c])
    sym = mx.sym.Group(outs + states[0] + [states[1]])
    ins = {"a": _rand(6, 3, 4), "b": _rand(7, 3, 4), "h": _rand(8, 4), "c": _rand(9, 4),
           "scale": _rand(10, 4), "inner": _rand(11, 4)}
    return sym, ins, [_rand(12, 3, 4), _rand(13, 3, 4), _rand(14, 4), _rand(15, 4)]


def sym_foreach_nested(mx):
    d, s = mx.sym.var("d"), mx.sym.var("s")
    w = mx.sym.var("w")

    def outer(x, st):
        o2, s2 = mx.sym.contrib.foreach(lambda y, t: (y * t[0] * w, [t[0] + y]), x, [st[0]])
        return o2, s2
    outs, states = mx.sym.contrib.foreach(outer, d, [s])
    sym = mx.sym.Group([outs] + states)
    ins = {"d": _rand(16, 3, 2, 4), "s": _rand(17, 4), "w": _rand(18, 4)}
    return sym, ins, [_rand(19, 3, 2, 4), _rand(20, 4)]


def sym_while_counter(mx):
    i, s, b = mx.sym.var("i"), mx.sym.var("s"), mx.sym.var("b")
    outs, states = mx.sym.contrib.while_loop(
        lambda i, s: i <= 5, lambda i, s: ([i + s * b], [i + 1, s + i]), [i, s],
        max_iterations=8)
    sym = mx.sym.Group(outs + states)
    ins = {"i": np.array([1.0], np.float32), "s": np.array([2.0], np.float32),
           "b": np.array([0.5], np.float32)}
    return sym, ins, [_rand(21, 8, 1), _rand(22, 1), _rand(23, 1)]


def sym_while_data_stop(mx):
    """The number of steps depends on the data."""
    x, w = mx.sym.var("x"), mx.sym.var("w")

    def func(v):
        nv = v * w + 0.5
        return [nv.tanh(), nv * 2], [nv]
    outs, states = mx.sym.contrib.while_loop(
        lambda v: (v.sum() < 4), func, [x], max_iterations=10)
    sym = mx.sym.Group(outs + states)
    ins = {"x": np.array([0.1, 0.2, -0.3], np.float32),
           "w": np.array([1.5, 1.2, 1.1], np.float32)}
    return sym, ins, [_rand(24, 10, 3), _rand(25, 10, 3), _rand(26, 3)]


def sym_while_shared(mx):
    """A closed-over value that both the condition and the body read (1.9.1 gives it two
    node inputs)."""
    x, w = mx.sym.var("x"), mx.sym.var("w")
    outs, states = mx.sym.contrib.while_loop(
        lambda v: (v * w).sum() < 3, lambda v: ([v * w], [v + w]), [x], max_iterations=5)
    sym = mx.sym.Group(outs + states)
    ins = {"x": np.array([0.1, 0.2], np.float32), "w": np.array([0.5, 0.25], np.float32)}
    return sym, ins, [_rand(43, 5, 2), _rand(44, 2)]


# (a while loop whose condition fails at once leaves 1.9.1's outputs without a shape, so that
# case is tested against closed-form values in tests/symbol/test_control_flow.py)


def _cond_pair(mx):
    a, c = mx.sym.var("a"), mx.sym.var("c")
    out = mx.sym.contrib.cond(a.sum() < 1, lambda: [(a + 5) * c, c.exp()],
                              lambda: [a * a - 5, c * 2])
    return mx.sym.Group(out)


def sym_cond_then(mx):
    ins = {"a": np.array([0.1, -0.4], np.float32), "c": np.array([0.3, 0.7], np.float32)}
    return _cond_pair(mx), ins, [_rand(32, 2), _rand(33, 2)]


def sym_cond_else(mx):
    ins = {"a": np.array([1.1, 0.4], np.float32), "c": np.array([0.3, 0.7], np.float32)}
    return _cond_pair(mx), ins, [_rand(34, 2), _rand(35, 2)]


# (a cond inside a foreach body fails shape inference in 1.9.1's executor, so that case is
# tested against the imperative loop in tests/symbol/test_control_flow.py instead)


# Steps each while loop runs (rows of its outputs past these are padding, which 1.9.1 leaves
# uninitialised).
WHILE_STEPS = {"while_counter": 5, "while_data_stop": 3, "while_shared": 5, "while_stop": 4}

# Cases whose 1.9.1 gradients disagree with numeric differentiation of the same function, so
# tests check those against numeric gradients instead:
# - foreach_lists: a body output that is also a new state (1.9.1 loses part of its gradient);
# - while_stop, hybridized: 1.9.1's cached graph gives other parameter gradients than its own
#   imperative run (which the tests use).
WRONG_IN_REFERENCE = {"foreach_lists": "grad", "while_stop": "hyb_grad"}

SYMBOL_CASES = {name[4:]: fn for name, fn in sorted(globals().items())
                if name.startswith("sym_") and callable(fn)}


# ---------------------------------------------------------------------------------------------
# gluon cases: name -> function(mx) returning (block, [inputs])

def gluon_foreach_rnn(mx):
    from mxnet import gluon
    from mxnet.gluon import nn

    class Loop(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.dense = nn.Dense(3, in_units=3, flatten=False)

        def hybrid_forward(self, F, x, h0):
            def step(xt, st):
                h = F.tanh(self.dense(xt) + st[0])
                return h, [h]
            outs, st = F.contrib.foreach(step, x, [h0])
            return outs, st[0]
    return Loop(prefix="loop_"), [_rand(40, 5, 2, 3), _rand(41, 2, 3)]


def gluon_while_stop(mx):
    from mxnet import gluon
    from mxnet.gluon import nn

    class Grow(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.dense = nn.Dense(3, in_units=3)

        def hybrid_forward(self, F, x):
            def cond(v):
                return F.sum(F.abs(v)) < 6

            def func(v):
                nv = self.dense(v) + v * 1.5
                return [nv], [nv]
            outs, final = F.contrib.while_loop(cond, func, [x], max_iterations=6)
            return outs[0], final[0]
    return Grow(prefix="grow_"), [np.array([[0.3, -0.2, 0.4]], np.float32)]


def gluon_cond_scalar(mx):
    from mxnet import gluon
    from mxnet.gluon import nn

    class Branch(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.left = nn.Dense(2, in_units=3)
                self.right = nn.Dense(2, in_units=3)

        def hybrid_forward(self, F, x, flag):
            return F.contrib.cond(flag > 0, lambda: self.left(x), lambda: self.right(x) * 2)
    return Branch(prefix="branch_"), [_rand(42, 4, 3), np.array([1.0], np.float32)]


def gluon_cond_scalar_else(mx):
    block, ins = gluon_cond_scalar(mx)
    return block, [ins[0], np.array([-1.0], np.float32)]


GLUON_CASES = {name[6:]: fn for name, fn in sorted(globals().items())
               if name.startswith("gluon_") and callable(fn)}


def param_values(names_shapes):
    """Deterministic values for a block's parameters (sorted by name)."""
    return {n: _rand(100 + k, *s) for k, (n, s) in enumerate(sorted(names_shapes))}


def out_weights(shapes):
    return [_rand(200 + k, *s) for k, s in enumerate(shapes)]


def fresh_names(mx):
    """Restart the counters that name nodes and subgraphs (a NameManager to enter)."""
    if hasattr(mx.attribute.AttrScope, "_subgraph_names"):
        mx.attribute.AttrScope._subgraph_names.clear()
    else:
        from mxnet.symbol import control_flow
        control_flow._reset_names()
    return mx.name.NameManager()


# ---------------------------------------------------------------------------------------------

def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def run_gluon(mx, name, hybridize):
    """Outputs and parameter gradients of Gluon case ``name`` (and the block)."""
    from mxnet import autograd
    with fresh_names(mx):
        block, inputs = GLUON_CASES[name](mx)
        block.initialize()
    params = block.collect_params()
    values = param_values([(n, p.shape) for n, p in params.items()])
    for n, p in params.items():
        p.set_data(mx.nd.array(values[n]))
    if hybridize:
        block.hybridize()
    xs = [mx.nd.array(x) for x in inputs]
    with autograd.record():
        outs = _as_list(block(*xs))
        weights = out_weights([o.shape for o in outs])
        loss = sum((o * mx.nd.array(w)).sum() for o, w in zip(outs, weights))
    loss.backward()
    grads = {n: p.grad().asnumpy() for n, p in params.items()}
    return block, [o.asnumpy() for o in outs], grads, values


def main():
    import mxnet as mx
    arrays, meta = {}, {"symbols": {}, "gluon": {}}
    for name, fn in SYMBOL_CASES.items():
        with fresh_names(mx):
            sym, ins, ograds = fn(mx)
        args = {k: mx.nd.array(v) for k, v in ins.items()}
        grads = {k: mx.nd.zeros(v.shape) for k, v in ins.items()}
        # 1.9.1 cannot differentiate some of these graphs: then forward only
        backward = True
        try:
            exe = sym.bind(mx.cpu(), args, args_grad=grads)
        except mx.base.MXNetError as e:
            print("  no backward:", str(e).splitlines()[0][:120])
            exe, backward = sym.bind(mx.cpu(), args), False
        outs = exe.forward(is_train=backward)
        if backward:
            try:
                exe.backward([mx.nd.array(g) for g in ograds])
            except mx.base.MXNetError as e:
                print("  no backward:", str(e).splitlines()[0][:120])
                backward = False
        arg_shapes, out_shapes, _ = sym.infer_shape_partial(
            **{k: v.shape for k, v in ins.items()})
        meta["symbols"][name] = {"json": sym.tojson(), "arguments": sym.list_arguments(),
                                 "outputs": sym.list_outputs(),
                                 "arg_shapes": [list(s) for s in arg_shapes],
                                 "out_shapes": [list(s) for s in out_shapes],
                                 "backward": backward}
        for k, v in ins.items():
            arrays[f"{name}/in/{k}"] = v
        for k, g in enumerate(ograds):
            arrays[f"{name}/og{k}"] = g
        for k, o in enumerate(outs):
            arrays[f"{name}/out{k}"] = o.asnumpy()
        if backward:
            for k, g in grads.items():
                arrays[f"{name}/grad/{k}"] = g.asnumpy()
        print("symbol", name, [o.shape for o in outs])
    tmp = tempfile.mkdtemp()
    for name in GLUON_CASES:
        _, outs, grads, values = run_gluon(mx, name, False)
        block, houts, hgrads, _ = run_gluon(mx, name, True)
        path = os.path.join(tmp, name)
        block.export(path)
        with open(path + "-symbol.json") as f:
            text = f.read()
        meta["gluon"][name] = {"json": text, "params": sorted(values)}
        for k, o in enumerate(outs):
            arrays[f"{name}/out{k}"] = o
        for k, o in enumerate(houts):
            arrays[f"{name}/hyb_out{k}"] = o
        for n, g in grads.items():
            arrays[f"{name}/grad/{n}"] = g
        for n, g in hgrads.items():
            arrays[f"{name}/hyb_grad/{n}"] = g
        print("gluon", name, [o.shape for o in outs])
    np.savez_compressed(OUT_NPZ, **arrays)
    with open(OUT_JSON, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
