"""Record how 1.9.1 treats a graph output listed more than once, for
tests/symbol/test_group_heads.py.

Run with the reference interpreter, from outside the repository::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /path/to/repo/.ref/bin/python \
        /path/to/repo/tools/golden/gen_group_heads.py

Every case is a routine taking the ``mxnet`` module and returning a JSON-able record; the
test runs the same routines against this repository's mxnet and compares the records. The
paths covered:

* the Executor (``bind`` and ``simple_bind``) of ``Group([y, y])``, ``Group([a, b, a])``,
  a split output listed alone and inside the split's group, and a bound variable listed
  twice: the output names, whether the outputs share memory (with each other, with the
  bound arguments), the forward values and the gradients for distinct head gradients
  (``write`` and ``add``), plus ``debug_str`` and the monitor's names and sums;
* a creation operator with a legacy 0 in ``shape`` as a graph output (shape inference
  fills it), listed once and twice;
* ``mx.mod.Module`` over ``Group([fc, fc])``;
* imperative ``autograd.backward``/``autograd.grad`` with a head listed twice;
* a Gluon block returning the same array twice, plain and hybridized (with and without
  ``static_alloc``).

Output: ``tests/golden/group_heads.json``.
"""
from __future__ import annotations

import ctypes
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "golden" / "group_heads.json"

X3 = [1.0, 2.0, 3.0]
W3 = [4.0, 5.0, 6.0]


def _vals(a):
    return np.asarray(a.asnumpy(), dtype=np.float64).ravel().tolist()


def _heads(mx, n, size):
    """Distinct head gradients: 1, 10, 100, ... (so a sum and a pick differ)."""
    return [mx.nd.ones(size) * 10.0 ** k for k in range(n)]


def _aliased(a, b):
    """Whether writing ``a`` shows in ``b``: ``a`` gets a marker, ``b`` is read, ``a`` gets
    its values back (and so does ``b`` when they share memory)."""
    keep = a.asnumpy().copy()
    a[:] = _MARK
    seen = bool(np.all(b.asnumpy() == _MARK))
    a[:] = keep
    return seen


_MARK = -12345.5


def _name(n):
    return n.decode() if isinstance(n, bytes) else str(n)


def _array(mx, v):
    """The monitor's value as an NDArray (1.9.1 hands the callback a raw handle)."""
    if isinstance(v, mx.nd.NDArray):
        return v
    from mxnet.base import NDArrayHandle
    return mx.nd.NDArray(ctypes.cast(v, NDArrayHandle), writable=False)


# -- graphs ------------------------------------------------------------------------------------

def _sym_pair(mx):
    x, w = mx.sym.var("x"), mx.sym.var("w")
    y = x * w
    return mx.sym.Group([y, y]), 3


def _sym_triple(mx):
    x, w = mx.sym.var("x"), mx.sym.var("w")
    a = x * 2
    b = x + w
    return mx.sym.Group([a, b, a]), 3


def _sym_split_first(mx):
    x, w = mx.sym.var("x"), mx.sym.var("w")
    s = mx.sym.split(x * w, num_outputs=3, axis=0)
    return mx.sym.Group([s[1], s]), 6


def _sym_split_last(mx):
    x, w = mx.sym.var("x"), mx.sym.var("w")
    s = mx.sym.split(x * w, num_outputs=3, axis=0)
    return mx.sym.Group([s, s[1]]), 6


def _sym_var(mx):
    x, w = mx.sym.var("x"), mx.sym.var("w")
    return mx.sym.Group([x, x, x * w]), 3


GRAPHS = {"pair": _sym_pair, "triple": _sym_triple, "split_first": _sym_split_first,
          "split_last": _sym_split_last, "var": _sym_var}


def _graph(mx, graph):
    """``(symbol, argument length)`` of ``graph``, its operators named from 0 (a fresh
    name manager), so that names do not depend on what ran before."""
    with mx.name.NameManager():
        return GRAPHS[graph](mx)


def _inputs(mx, size):
    if size == 3:
        return mx.nd.array(X3), mx.nd.array(W3)
    return mx.nd.arange(1, size + 1), mx.nd.arange(10, 10 + size)


# -- the Executor ------------------------------------------------------------------------------

def executor_case(mx, graph, grad_req):
    """``bind`` with explicit arrays: names, aliasing, values, gradients of two backwards."""
    sym, size = _graph(mx, graph)
    xs, ws = _inputs(mx, size)
    gx, gw = mx.nd.zeros(size), mx.nd.zeros(size)
    ex = sym.bind(mx.cpu(), {"x": xs, "w": ws}, args_grad={"x": gx, "w": gw},
                  grad_req=grad_req)
    rec = {"names": sym.list_outputs(), "n_outputs": len(ex.outputs),
           "distinct_objects": len({id(o) for o in ex.outputs}),
           "shapes": [list(o.shape) for o in ex.outputs]}
    outs = ex.forward(is_train=True)
    rec["forward"] = [_vals(o) for o in outs]
    heads = _heads(mx, len(outs), outs[0].shape)
    ex.backward(heads)
    rec["grad1"] = {"x": _vals(gx), "w": _vals(gw)}
    ex.forward(is_train=True)
    ex.backward(list(reversed(heads)))
    rec["grad2"] = {"x": _vals(gx), "w": _vals(gw)}
    # memory shared between outputs, and between outputs and the bound arguments
    outs = ex.forward(is_train=False)
    rec["alias_outputs"] = [[_aliased(outs[i], outs[j]) for j in range(len(outs))]
                            for i in range(len(outs))]
    rec["alias_x"] = [_aliased(o, xs) for o in outs]
    rec["forward_predict"] = [_vals(o) for o in outs]
    return rec


def simple_bind_case(mx, graph, grad_req):
    """``simple_bind``: allocations, aliasing, two backwards."""
    sym, size = _graph(mx, graph)
    xs, ws = _inputs(mx, size)
    ex = sym.simple_bind(mx.cpu(), x=(size,), w=(size,), grad_req=grad_req)
    rec = {"n_outputs": len(ex.outputs), "shapes": [list(o.shape) for o in ex.outputs],
           "distinct_objects": len({id(o) for o in ex.outputs})}
    ex.arg_dict["x"][:] = xs
    ex.arg_dict["w"][:] = ws
    # outputs share memory right after binding, before any forward
    rec["alias_after_bind"] = [_aliased(ex.outputs[0], o) for o in ex.outputs[1:]]
    rec["alias_x_after_bind"] = [_aliased(o, ex.arg_dict["x"]) for o in ex.outputs]
    outs = ex.forward(is_train=True)
    rec["alias_after_train_forward"] = [_aliased(outs[0], o) for o in outs[1:]]
    rec["alias_x_after_train_forward"] = [_aliased(o, ex.arg_dict["x"]) for o in outs]
    outs = ex.forward(is_train=True)
    rec["forward"] = [_vals(o) for o in outs]
    heads = _heads(mx, len(outs), outs[0].shape)
    ex.backward(heads)
    ex.forward(is_train=True)
    ex.backward(heads)
    rec["grad"] = {k: _vals(v) for k, v in sorted(ex.grad_dict.items())}
    return rec


def debug_monitor_case(mx, graph, monitor_all=True):
    """``debug_str`` with gradients, and what a monitor sees of forward and backward
    (1.9.1 dies of the split graph's backward with ``monitor_all``)."""
    sym, size = _graph(mx, graph)
    xs, ws = _inputs(mx, size)
    ex = sym.simple_bind(mx.cpu(), x=(size,), w=(size,))
    text = ex.debug_str()
    seen = []
    ex.set_monitor_callback(
        lambda n, v: seen.append([_name(n), float(_array(mx, v).asnumpy().sum())]),
        monitor_all=monitor_all)
    ex.arg_dict["x"][:] = xs
    ex.arg_dict["w"][:] = ws
    outs = ex.forward(is_train=True)
    ex.backward(_heads(mx, len(outs), outs[0].shape))
    mx.nd.waitall()
    return {"debug_str": text, "monitor": seen}


def creator_case(mx, repeat):
    """A creation operator with a legacy 0 in ``shape`` (as ``mx.rnn`` begin states are)
    that is a graph output itself, once or (``repeat``) listed twice: shapes and values
    of training and predict forwards, and the gradient."""
    with mx.name.NameManager():
        x = mx.sym.var("x")
        z = mx.sym.ones((0, 3))
        y = x * 2 + z
        sym = mx.sym.Group([z, y, z] if repeat else [y, z])
    rec = {}
    for req in ("write", "null"):
        ex = sym.simple_bind(mx.cpu(), x=(2, 3), grad_req=req)
        runs = []
        for train in (True, True, False):
            outs = ex.forward(is_train=train, x=mx.nd.array(np.arange(6.0).reshape(2, 3)))
            runs.append([[list(o.shape), _vals(o)] for o in outs])
        rec[req] = runs
        if req == "write":
            ex.forward(is_train=True)
            ex.backward(_heads(mx, len(ex.outputs), (2, 3)))
            rec["grad"] = _vals(ex.grad_dict["x"])
    return rec


# -- Module --------------------------------------------------------------------------------

def module_case(mx):
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, no_bias=True, name="fc")
    mod = mx.mod.Module(mx.sym.Group([fc, fc]), data_names=["data"], label_names=None)
    mod.bind(data_shapes=[("data", (2, 3))], inputs_need_grad=True)
    mod.init_params(mx.init.Constant(0.5))
    d = mx.nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    mod.forward(mx.io.DataBatch([d]), is_train=True)
    outs = mod.get_outputs()
    rec = {"names": mod.output_names, "forward": [_vals(o) for o in outs]}
    mod.backward([mx.nd.ones((2, 2)), mx.nd.ones((2, 2)) * 10])
    rec["weight_grad"] = _vals(mod._exec_group.grad_arrays[0][0])
    rec["input_grad"] = _vals(mod.get_input_grads()[0])
    return rec


# -- imperative autograd -------------------------------------------------------------------------

def imperative_case(mx):
    from mxnet import autograd
    rec = {}
    x = mx.nd.array(X3)
    x.attach_grad()

    def ones(k=1.0):
        return mx.nd.ones(3) * k

    with autograd.record():
        y = x * 2
    autograd.backward([y, y], [ones(), ones(10)])
    rec["pair"] = _vals(x.grad)
    with autograd.record():
        y = x * 2
    autograd.backward([y, y])
    rec["pair_default"] = _vals(x.grad)
    with autograd.record():
        y = x * 2
        z = x + 1
    autograd.backward([y, z, y], [ones(), ones(10), ones(100)])
    rec["triple"] = _vals(x.grad)
    with autograd.record():
        y = x * 2
    autograd.backward([x, y, x], [ones(), ones(10), ones(100)])
    rec["leaf_twice"] = _vals(x.grad)
    with autograd.record():
        y = x * 2
    rec["grad_pair"] = _vals(autograd.grad([y, y], [x], [ones(), ones(10)])[0])
    x.grad[:] = 0
    x.attach_grad(grad_req="add")
    for _ in range(2):
        with autograd.record():
            y = x * 3
        autograd.backward([y, y], [ones(), ones(10)])
    rec["pair_add"] = _vals(x.grad)
    return rec


# -- Gluon -----------------------------------------------------------------------------------

def gluon_case(mx, mode):
    """A block returning ``(y, y)`` and one returning ``(y, x + 1, y)``; ``mode`` is
    "plain", "hybrid" or "static" (hybridized with static_alloc and static_shape)."""
    from mxnet import autograd, gluon

    class Pair(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            y = x * 2
            return y, y

    class Triple(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            y = x * 2
            return y, x + 1, y

    def make(cls):
        b = cls()
        if mode == "hybrid":
            b.hybridize()
        elif mode == "static":
            b.hybridize(static_alloc=True, static_shape=True)
        return b

    rec = {}
    b = make(Pair)
    x = mx.nd.array(X3)
    x.attach_grad()
    grads = []
    for _ in range(2):
        with autograd.record():
            o1, o2 = b(x)
        rec["same_object"] = o1 is o2
        autograd.backward([o1, o2], [mx.nd.ones(3), mx.nd.ones(3) * 10])
        grads.append(_vals(x.grad))
    rec["pair"] = grads
    with autograd.record():
        o1, o2 = b(x)
    rec["alias_recorded"] = _aliased(o1, o2)
    o1, o2 = b(x)
    rec["alias_inference"] = _aliased(o1, o2)
    o1, o2 = b(x)
    rec["forward"] = [_vals(o1), _vals(o2)]
    t = make(Triple)
    with autograd.record():
        o = t(x)
    autograd.backward(list(o), [mx.nd.ones(3), mx.nd.ones(3) * 10, mx.nd.ones(3) * 100])
    rec["triple"] = _vals(x.grad)
    with autograd.record():
        o = t(x)
        s = o[0] + o[2]
    s.backward(mx.nd.ones(3))
    rec["triple_summed"] = _vals(x.grad)
    with autograd.record():
        o = t(x)
    o[2].backward(mx.nd.ones(3) * 5)
    rec["triple_last_only"] = _vals(x.grad)
    return rec


def all_cases(mx):
    """Every record, keyed by case name."""
    out = {}
    # 1.9.1 mis-accumulates ``add`` gradients of an argument read by several operators
    # (each backward adds the gradient array into itself once more), which "triple" would
    # show: it runs with ``write`` only
    for g in GRAPHS:
        reqs = ("write",) if g == "triple" else ("write", "add")
        for req in reqs:
            out[f"exec/{g}/{req}"] = executor_case(mx, g, req)
        out[f"simple_bind/{g}"] = simple_bind_case(mx, g, reqs[-1])
    for g in ("pair", "triple", "var"):
        out[f"debug_monitor/{g}"] = debug_monitor_case(mx, g)
    out["debug_monitor/split_first"] = debug_monitor_case(mx, "split_first", False)
    out["creator/once"] = creator_case(mx, False)
    out["creator/repeat"] = creator_case(mx, True)
    out["module"] = module_case(mx)
    out["imperative"] = imperative_case(mx)
    for mode in ("plain", "hybrid", "static"):
        out[f"gluon/{mode}"] = gluon_case(mx, mode)
    return out


def load_golden(path=OUT):
    with open(path) as f:
        return json.load(f)


def main():
    import mxnet as mx
    rec = {"mxnet": mx.__version__, "cases": all_cases(mx)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT} ({len(rec['cases'])} cases)")


if __name__ == "__main__":
    main()
