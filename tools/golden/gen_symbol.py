"""Golden cases for ``mx.sym`` and the graph executor, recorded under MXNet 1.9.1.

Run with the reference interpreter, from outside the repository root so that
``import mxnet`` finds the reference::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_symbol.py

This module is also the case table: ``tests/symbol/test_symbol_golden.py`` loads it
(without running :func:`main`) and evaluates the same snippets against this
repository's ``mxnet``. It must therefore import nothing from mxnet at module level.

Each case is ``(case_id, code, needs)``. ``code`` runs with ``mx``, ``np``, ``H``
(this module: the shared helpers below) and ``FIX`` (the fixture folder) bound and
assigns ``result``; ``needs`` lists ``mx.sym`` operator names the case uses, so the
tests can skip cases whose operators are not registered yet. Every snippet runs
inside a fresh ``mx.name.NameManager()`` so automatic names start from 0.

Outputs (all under ``tests/golden/symbol/``):

* ``cases.json``: per case, the code and either the encoded result or the error
  class (plus the reference's message, for information only);
* ``cases.npz``: the arrays the results refer to;
* ``*-symbol.json``: graphs written by 1.9.1's ``Symbol.save`` (and one file in the
  pre-1.0 ``param``/``attr`` layout, made by rewriting keys), read by load cases.
"""
from __future__ import annotations

import json
import os
import sys
import textwrap
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "tests" / "golden" / "symbol"
FORMAT_VERSION = 1

CASES: list[tuple[str, str, tuple]] = []


def case(case_id, code, needs=()):
    """Append one case (``code`` may be an indented block)."""
    if any(c[0] == case_id for c in CASES):
        raise ValueError(f"duplicate case id {case_id!r}")
    CASES.append((case_id, textwrap.dedent(code).strip("\n") + "\n", tuple(needs)))


# ------------------------------------------------------------------------------------------
# helpers shared by the generator (reference MXNet) and the tests (this repository)

def describe(sym):
    """The structural facts of a symbol that need no arrays."""
    return {
        "json": sym.tojson(),
        "arguments": sym.list_arguments(),
        "outputs": sym.list_outputs(),
        "aux": sym.list_auxiliary_states(),
        "inputs": sym.list_inputs(),
        "attr_dict": sym.attr_dict(),
        "internals": sym.get_internals().list_outputs(),
        "name": sym.name,
        "len": len(sym),
    }


def text(name):
    """A monitor callback's name as str (1.9.1 passes bytes)."""
    return name.decode() if isinstance(name, bytes) else name


def _gen_value(np, rng, name, shape, dtype, ints, positive):
    if name in ints:
        return rng.randint(0, ints[name], size=shape).astype(dtype)
    if name in positive or name.endswith("moving_var"):
        return rng.uniform(0.5, 1.5, size=shape).astype(dtype)
    return rng.uniform(-1.0, 1.0, size=shape).astype(dtype)


def make_inputs(mx, np, sym, shapes, seed=0, ints=None, positive=(), dtypes=None):
    """Seeded NumPy values for every argument and auxiliary state of ``sym``."""
    ints = dict(ints or {})
    dtypes = dict(dtypes or {})
    arg_shapes, out_shapes, aux_shapes = sym.infer_shape(**shapes)
    if dtypes:
        arg_types, _, aux_types = sym.infer_type(**dtypes)
    else:
        arg_types = ["float32"] * len(arg_shapes)
        aux_types = ["float32"] * len(aux_shapes)
    rng = np.random.RandomState(seed)
    args = {n: _gen_value(np, rng, n, s, np.dtype(t), ints, positive)
            for n, s, t in zip(sym.list_arguments(), arg_shapes, arg_types)}
    aux = {n: _gen_value(np, rng, n, s, np.dtype(t), ints, positive)
           for n, s, t in zip(sym.list_auxiliary_states(), aux_shapes, aux_types)}
    return args, aux, out_shapes


def run_executor(mx, np, sym, shapes, grad_req="write", seed=0, ints=None, positive=(),
                 head_grads=True, dtypes=None, train=True):
    """Bind ``sym`` to seeded inputs; forward (predict, train), backward; every array."""
    args, aux, out_shapes = make_inputs(mx, np, sym, shapes, seed, ints, positive, dtypes)
    names = sym.list_arguments()
    if isinstance(grad_req, str):
        reqs = {n: grad_req for n in names}
    elif isinstance(grad_req, dict):
        reqs = {n: grad_req.get(n, "null") for n in names}
    else:
        reqs = dict(zip(names, grad_req))
    rng = np.random.RandomState(seed + 1000)
    grads = {n: mx.nd.array(rng.uniform(-1, 1, size=args[n].shape), dtype=args[n].dtype)
             for n in names if reqs[n] != "null"}
    nd_args = {n: mx.nd.array(v, dtype=v.dtype) for n, v in args.items()}
    nd_aux = {n: mx.nd.array(v, dtype=v.dtype) for n, v in aux.items()}
    ex = sym.bind(mx.current_context(), nd_args, args_grad=grads, grad_req=grad_req, aux_states=nd_aux)
    res = {"inputs": args, "aux_in": aux,
           "grads_in": {n: g.asnumpy() for n, g in grads.items()}}
    res["predict"] = [o.asnumpy() for o in ex.forward(is_train=False)]
    res["aux_after_predict"] = {n: a.asnumpy() for n, a in ex.aux_dict.items()}
    if not train:
        return res
    res["train"] = [o.asnumpy() for o in ex.forward(is_train=True)]
    res["aux_after_train_forward"] = {n: a.asnumpy() for n, a in ex.aux_dict.items()}
    ograds = None
    if head_grads:
        ograds = [mx.nd.array(rng.uniform(-1, 1, size=s)) for s in out_shapes]
        res["head_grads"] = [g.asnumpy() for g in ograds]
    ex.backward(ograds)
    res["grads"] = {n: g.asnumpy() for n, g in ex.grad_dict.items() if g is not None}
    res["aux_after_backward"] = {n: a.asnumpy() for n, a in ex.aux_dict.items()}
    res["outputs_after_backward"] = [o.asnumpy() for o in ex.outputs]
    return res


# ------------------------------------------------------------------------------------------
# networks (each snippet defines ``net``)

NET_MLP = """
data = mx.sym.var('data')
fc1 = mx.sym.FullyConnected(data, num_hidden=16)
act = mx.sym.Activation(fc1, act_type='relu')
fc2 = mx.sym.FullyConnected(act, num_hidden=10)
net = mx.sym.SoftmaxOutput(fc2)
"""

NET_LENET = """
data = mx.sym.var('data')
c1 = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name='conv1')
a1 = mx.sym.Activation(c1, act_type='tanh')
p1 = mx.sym.Pooling(a1, pool_type='max', kernel=(2, 2), stride=(2, 2))
c2 = mx.sym.Convolution(p1, kernel=(3, 3), num_filter=6, pad=(1, 1), name='conv2')
a2 = mx.sym.Activation(c2, act_type='relu')
p2 = mx.sym.Pooling(a2, pool_type='avg', kernel=(2, 2), stride=(2, 2))
fl = mx.sym.Flatten(p2)
fc = mx.sym.FullyConnected(fl, num_hidden=10, name='fc')
net = mx.sym.SoftmaxOutput(fc, name='softmax')
"""

NET_BN = """
data = mx.sym.var('data')
c = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, no_bias=True, name='conv')
bn = mx.sym.BatchNorm(c, fix_gamma=False, momentum=0.8, eps=1e-4, name='bn')
r = mx.sym.Activation(bn, act_type='relu')
bn2 = mx.sym.BatchNorm(r, name='bn2')
net = mx.sym.sum(bn2, axis=(2, 3))
"""

NET_ARITH = """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = (a + b) * 2 - 3 / (a + 1.5) + a ** 2
d = 2 ** b + (1 - a) * (b / a) - (4 % (b + 3)) + (-a) + (a % 0.7)
e = 1.5 * c - d / 2.0 + 0.5 + abs(b) ** 0.5 + a ** b
net = e
"""

NET_GROUP = """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=5, name='fc')
r = mx.sym.relu(fc)
t = mx.sym.tanh(fc)
net = mx.sym.Group([r, t * 2, fc])
"""

NET_SPLIT = """
x = mx.sym.var('x')
s = mx.sym.split(x, num_outputs=3, axis=1)
y = s[0] + s[1] * s[2]
sq = mx.sym.SliceChannel(x, num_outputs=6, axis=1, squeeze_axis=True, name='sq')
net = mx.sym.Group([y, sq[5], s[2]])
"""

NET_SHAPES = """
x = mx.sym.var('x')
y = mx.sym.var('y')
r = mx.sym.Reshape(x, shape=(0, -1))
t = mx.sym.transpose(r, axes=(1, 0))
c = mx.sym.Concat(t, y, dim=1)
f = mx.sym.reshape(c, shape=(-1,))
e = mx.sym.expand_dims(f, axis=0)
net = mx.sym.Group([c, e * 3, mx.sym.swapaxes(x, dim1=1, dim2=2)])
"""

NET_VARS = """
w = mx.sym.var('w', shape=(3, 4), lr_mult=0.5, wd_mult=2, dtype='float32',
               init='[\\"uniform\\", {\\"scale\\": 0.07}]', attr={'mood': 'calm'})
with mx.AttrScope(ctx_group='dev1', lr_mult='0.1'):
    with mx.AttrScope(note='scoped'):
        d = mx.sym.var('d')
    fc = mx.sym.FullyConnected(d, weight=w, num_hidden=3, no_bias=True, name='fc')
with mx.name.Prefix('blk_'):
    h = mx.sym.Activation(fc, act_type='sigmoid')
    h2 = mx.sym.FullyConnected(h, num_hidden=2)
net = h2
"""


def _net_case(cid, net_code, shapes, needs, grad_req="write", ints=None, positive=(),
              head_grads=True, extra=""):
    code = net_code + f"""
shapes = {shapes!r}
result = H.describe(net)
result['infer_shape'] = net.infer_shape(**shapes)
result['infer_shape_partial_empty'] = net.infer_shape_partial()
result['infer_type'] = net.infer_type(**{{k: 'float32' for k in list(shapes)[:1]}})
result['exec'] = H.run_executor(mx, np, net, shapes, grad_req={grad_req!r}, ints={ints!r},
                                positive={tuple(positive)!r}, head_grads={head_grads!r})
""" + extra
    case(cid, code, needs)


_FC = ("FullyConnected", "Activation", "SoftmaxOutput")
_CONV = ("Convolution", "Pooling", "Flatten", "Activation", "FullyConnected", "SoftmaxOutput")

_net_case("net_mlp", NET_MLP, {"data": (4, 8)}, _FC, ints={"softmaxoutput0_label": 10},
          head_grads=False,
          grad_req={"data": "null", "fullyconnected0_weight": "write",
                    "fullyconnected0_bias": "add", "fullyconnected1_weight": "add",
                    "fullyconnected1_bias": "write"})
_net_case("net_lenet", NET_LENET, {"data": (2, 1, 12, 12)}, _CONV, ints={"softmax_label": 10},
          head_grads=False, grad_req="write")
_net_case("net_bn", NET_BN, {"data": (3, 2, 6, 6)}, ("Convolution", "BatchNorm", "Activation"),
          grad_req={"data": "write", "conv_weight": "write", "bn_gamma": "write",
                    "bn_beta": "add", "bn2_gamma": "write", "bn2_beta": "null"})
_net_case("net_arith", NET_ARITH, {"a": (3, 4), "b": (3, 4)}, (), positive=("a", "b"),
          grad_req=["write", "add"])
_net_case("net_group", NET_GROUP, {"data": (3, 4)}, ("FullyConnected",),
          grad_req={"data": "write", "fc_weight": "add"})
_net_case("net_split", NET_SPLIT, {"x": (2, 6, 3)}, ("SliceChannel",))
_net_case("net_shapes", NET_SHAPES, {"x": (2, 3, 4), "y": (12, 5)},
          ("Reshape", "Concat", "transpose", "swapaxes"))
_net_case("net_vars", NET_VARS, {"d": (5, 4)}, ("FullyConnected", "Activation"),
          grad_req="write")

case("mlp_internal_slice", NET_MLP + """
internals = net.get_internals()
feat = internals['fullyconnected0_output']
both = internals[1:4]
result = {'internals': internals.list_outputs(), 'feat': H.describe(feat),
          'both': both.list_outputs(), 'both_json': both.tojson(),
          'exec': H.run_executor(mx, np, feat, {'data': (2, 8)})}
""", _FC)

case("bn_output_mean_var", """
x = mx.sym.var('x')
bn = mx.sym.BatchNorm(x, output_mean_var=True, fix_gamma=False, name='bn')
result = H.describe(bn)
result['infer'] = bn.infer_shape(x=(4, 3, 2))
result['exec'] = H.run_executor(mx, np, bn, {'x': (4, 3, 2)}, grad_req='write', train=False)
""", ("BatchNorm",))

case("bn_aux_updates", """
x = mx.sym.var('x')
bn = mx.sym.BatchNorm(x, fix_gamma=False, momentum=0.5, name='bn')
args, aux, _ = H.make_inputs(mx, np, bn, {'x': (4, 3)})
ex = bn.bind(mx.cpu(), {k: mx.nd.array(v) for k, v in args.items()},
             aux_states={k: mx.nd.array(v) for k, v in aux.items()}, grad_req='null')
o1 = ex.forward(is_train=True)[0].asnumpy()
a1 = {k: v.asnumpy() for k, v in ex.aux_dict.items()}
o2 = ex.forward(is_train=False)[0].asnumpy()
ex.forward(is_train=True)
a2 = {k: v.asnumpy() for k, v in ex.aux_dict.items()}
result = [o1, a1, o2, a2, aux]
""", ("BatchNorm",))

# ------------------------------------------------------------------------------------------
# naming, attributes, composition

case("auto_names_arith", """
x = mx.sym.var('x')
y = mx.sym.var('y')
exprs = [x + y, x - y, x * y, x / y, x ** y, x % y, x + 1, 1 + x, x - 1, 1 - x, x * 2, 2 * x,
         x / 2, 2 / x, x ** 2, 2 ** x, x % 2, 2 % x, -x, abs(x), x == y, x != y, x > y, x >= y,
         x < y, x <= y, x == 1, x != 1, x > 1, x >= 1, x < 1, x <= 1, 1 > x, 1 <= x,
         mx.sym.pow(x, y), mx.sym.pow(x, 2), mx.sym.pow(2, x), mx.sym.power(x, y),
         mx.sym.maximum(x, y), mx.sym.maximum(x, 1), mx.sym.maximum(1, x), mx.sym.minimum(x, y),
         mx.sym.minimum(2, x), mx.sym.hypot(x, y), mx.sym.hypot(x, 3)]
result = [(e.name, json.loads(e.tojson())['nodes'][-1]['op'], e.list_attr()) for e in exprs]
""")

case("scalar_attr_strings", """
x = mx.sym.var('x')
vals = [2, 2.5, -1, 0.1, 1e-7, 1e20, np.float32(0.1), np.float64(0.25), np.int64(3), 10 ** 12]
result = [(x * v).list_attr() for v in vals] + [(v + x).list_attr() for v in vals[:3]]
""")

case("scalar_bool_error", """
x = mx.sym.var('x')
result = (x + True).list_attr()
""")

case("arith_type_error", """
x = mx.sym.var('x')
result = x + 'a'
""")

case("symbol_bool_error", """
x = mx.sym.var('x')
result = bool(x)
""")

case("iadd_error", """
x = mx.sym.var('x')
x += 1
result = x
""")

case("op_names_and_attrs", """
x = mx.sym.var('x')
w = mx.sym.var('w')
syms = [mx.sym.FullyConnected(x, num_hidden=3, flatten=False, no_bias=True),
        mx.sym.Convolution(x, kernel=(3, 3), num_filter=4, stride=[1, 1], pad=(1, 1)),
        mx.sym.Convolution(x, w, kernel=(1,), num_filter=2, no_bias=True, name='c1d'),
        mx.sym.Cast(x, dtype=np.float16), mx.sym.cast(x, dtype='int32'),
        mx.sym.Activation(x, act_type='relu'), mx.sym.relu(x), mx.sym.sigmoid(x),
        mx.sym.Pooling(x, kernel=(2, 2), pool_type='max', global_pool=False),
        mx.sym.Reshape(x, shape=(0, -1)), mx.sym.reshape(x, shape=(2, -1), reverse=True),
        mx.sym.Concat(x, x, dim=1), mx.sym.concat(x, x, x), mx.sym.elemwise_add(x, x),
        mx.sym.broadcast_add(x, x), mx.sym.sum(x, axis=(1, 2), keepdims=True),
        mx.sym.transpose(x, axes=(1, 0)), mx.sym.expand_dims(x, axis=-1),
        mx.sym.split(x, num_outputs=2), mx.sym.SliceChannel(x, 4, name='sc'),
        mx.sym.Flatten(x), mx.sym.flatten(x), mx.sym.Dropout(x, p=0.3),
        mx.sym.BatchNorm(x), mx.sym.softmax(x, axis=-1), mx.sym.add_n(x, x, x),
        mx.sym.ElementWiseSum(x, w, name='esum'), mx.sym.clip(x, a_min=-1, a_max=1.5),
        mx.sym.slice_axis(x, axis=0, begin=1, end=None), mx.sym.one_hot(x, depth=5)]
result = [(s.name, s.list_outputs(), s.list_arguments(), s.list_auxiliary_states(), s.tojson())
          for s in syms]
""", ("FullyConnected", "Convolution", "Activation", "Pooling", "Dropout", "BatchNorm",
      "SliceChannel", "Concat"))

case("fluent_methods", """
x = mx.sym.var('x')
syms = [x.reshape((2, -1)), x.reshape(shape=(3, 2)), x.astype('float16'),
        x.flatten(), x.sum(axis=1), x.mean(), x.max(axis=0, keepdims=True), x.expand_dims(1),
        x.abs(), x.softmax(), x.transpose(), x.transpose(axes=(1, 0)), x.exp(), x.log(),
        x.sqrt(), x.square(), x.relu(), x.sigmoid(), x.tanh(), x.clip(0, 1), x.split(2),
        x.swapaxes(0, 1), x.squeeze(), x.zeros_like(), x.ones_like(), x.slice_axis(0, 0, 1),
        x.norm(), x.argmax(axis=1), x.round(), x.tile((2, 1)), x.repeat(2), x.flip(0),
        x.sign(), x.reciprocal(), x.log_softmax(), x.broadcast_to((2, 2, 3)),
        x.slice(begin=(0, 0), end=(1, 2)), x.take(mx.sym.var('i')), x.pick(mx.sym.var('i')),
        x.one_hot(3), x.topk(k=1), x.sort(), x.argsort(), x.shape_array(), x.size_array()]
result = [(s.name, s.list_attr(), json.loads(s.tojson())['nodes'][-1]['op']) for s in syms]
vals = {'x': np.arange(6, dtype='float32').reshape(2, 3) / 7.0}
ev = [x.reshape((3, 2)), x.sum(axis=1), x.transpose(), x.astype('float16'), x.exp(),
      x.split(3, axis=1)[1], x.flatten(), x.expand_dims(0)]
result.append([e.eval(x=mx.nd.array(vals['x']))[0] for e in ev])
""")

case("fluent_not_for_symbol", """
x = mx.sym.var('x')
errs = []
for m in ('asnumpy', 'asscalar', 'copy', 'as_in_context', 'detach', 'backward', 'wait_to_read'):
    try:
        getattr(x, m)()
        errs.append((m, None))
    except Exception as e:
        errs.append((m, type(e).__name__, isinstance(e, mx.base.MXNetError)))
result = errs
""")

case("getitem", """
x = mx.sym.var('x')
s = mx.sym.split(x, num_outputs=4, axis=0, name='sp')
g = mx.sym.Group([s[0], x, s[3]])
result = {'int': s[2].list_outputs(), 'neg': [len(list(s))],
          'name': s['sp_output1'].list_outputs(), 'slice': s[1:3].list_outputs(),
          'slice_step': s[::2].list_outputs(), 'iter': [t.name for t in g],
          'group_getitem': g[1].list_outputs(), 'var0': x[0].name, 'len': len(s),
          'repr': [repr(s), repr(g), repr(x), repr(s[1])]}
""", ("split",))

case("getitem_out_of_range", """
x = mx.sym.var('x')
result = mx.sym.split(x, num_outputs=2)[2]
""")

case("getitem_bad_name", """
x = mx.sym.var('x')
result = mx.sym.split(x, num_outputs=2)['nope']
""")

case("getitem_dup_name", """
x = mx.sym.var('x')
result = mx.sym.Group([x, x])['x']
""")

case("getitem_float", """
x = mx.sym.var('x')
result = mx.sym.Group([x, x])[1.0]
""")

case("compose_by_name", """
data = mx.sym.var('data')
net1 = mx.sym.FullyConnected(data=data, name='fc1', num_hidden=10)
net2 = mx.sym.FullyConnected(name='fc3', num_hidden=10)
composed = net2(fc3_data=net1, name='composed')
result = {'net2_args': net2.list_arguments(), 'composed': H.describe(composed),
          'net2_after': H.describe(net2),
          'shape': composed.infer_shape(data=(2, 3))}
""", ("FullyConnected",))

case("compose_positional_atomic", """
a = mx.sym.var('a')
fc = mx.sym.FullyConnected(name='fc4', num_hidden=4)
result = fc(a)
""", ("FullyConnected",))

case("compose_positional_general", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = mx.sym.elemwise_add(a, b, name='add')
result = c(mx.sym.var('p'))
""")

case("infer_shape_positional_single", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).infer_shape((3, 3))
""")

case("infer_shape_positional_none_first", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).infer_shape(None, (2, 2))
""")

case("infer_type_positional", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).infer_type('float16')
""")

case("infer_type_positional_pair", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).infer_type('float16', None)
""")

case("compose_inplace", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = a * 2 + b
z = mx.sym.var('z')
c._compose(a=mx.sym.exp(z), name='ignored_for_group?')
result = H.describe(c)
""")

case("compose_both_error", """
a = mx.sym.var('a')
c = a + 1
result = c(mx.sym.var('p'), a=mx.sym.var('q'))
""")

case("compose_type_error", """
a = mx.sym.var('a')
c = a + 1
result = c(a=3)
""")

case("compose_var_and_partial", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = mx.sym.elemwise_add(a, b, name='add')
d = c(b=mx.sym.var('w') * 3)
result = [H.describe(d), H.describe(c)]
""")

case("op_missing_input_vars", """
fc = mx.sym.FullyConnected(num_hidden=4, name='fc')
conv = mx.sym.Convolution(kernel=(2, 2), num_filter=3)
bn = mx.sym.BatchNorm()
sm = mx.sym.SoftmaxOutput(fc)
result = [H.describe(s) for s in (fc, conv, bn, sm)]
""", ("FullyConnected", "Convolution", "BatchNorm", "SoftmaxOutput"))

case("op_custom_weight", """
x = mx.sym.var('x')
w = mx.sym.var('myweight', shape=(4, 3))
fc = mx.sym.FullyConnected(x, weight=w, num_hidden=4, name='fc')
result = [H.describe(fc), fc.infer_shape(x=(2, 3))]
""", ("FullyConnected",))

case("op_missing_param_error", """
x = mx.sym.var('x')
result = mx.sym.FullyConnected(x)
""", ("FullyConnected",))

case("op_bad_param_error", """
x = mx.sym.var('x')
result = mx.sym.Activation(x, act_type='nope')
""", ("Activation",))

case("op_unknown_param_error", """
x = mx.sym.var('x')
result = mx.sym.relu(x, foo=3)
""")

case("op_deprecated_hidden_key", """
x = mx.sym.var('x')
result = mx.sym.FullyConnected(x, num_hidden=2, weight_lr_mult=0.1)
""", ("FullyConnected",))

case("op_attr_kwarg", """
x = mx.sym.var('x')
y = mx.sym.FullyConnected(x, num_hidden=2, name='fc', attr={'lr_mult': '0.3'})
z = mx.sym.relu(x, attr={'ctx_group': 'g2', 'k': 'v'})
result = [H.describe(y), y.list_attr(), z.list_attr()]
""", ("FullyConnected",))

case("var_attrs", """
a = mx.sym.var('a', shape=[2, 3], lr_mult=0.1, dtype=np.float16)
b = mx.sym.var('b', shape=5, init='zeros', stype='row_sparse', wd_mult=0)
c = mx.sym.var('c', shape=(4,), dtype='int32', __extra__=7, attr={'k': 'v'})
d = mx.sym.Variable('d', shape=(1, 2), dtype='float64', lr_mult=2, wd_mult=0.5)
e = mx.sym.var('e', stype='csr', dtype='bool')
result = [(s.list_attr(), s.attr_dict(), s.tojson(), s.attr('lr_mult'), s.attr('__lr_mult__'),
           s.attr('name'), s.attr('op_name'), s.attr('_value_index'), s.attr('nothing'),
           s.attr('shape'), s.attr('__shape__'))
          for s in (a, b, c, d, e)]
""")

case("var_bad_kwarg", """
result = mx.sym.var('a', foo=1)
""")

case("var_bad_name", """
result = mx.sym.var(3)
""")

case("attr_scope", """
with mx.AttrScope(ctx_group='g', force_mirroring='True', mirror_stage='1', foo='x'):
    c = mx.sym.var('c')
    d = mx.sym.relu(c)
    with mx.AttrScope(ctx_group='inner', lr_mult='3'):
        e = mx.sym.sigmoid(d, attr={'foo': 'override'})
f = mx.sym.tanh(e)
result = [H.describe(f), c.list_attr(), d.list_attr(), e.list_attr(), f.list_attr(),
          e.attr('ctx_group'), e.attr('__ctx_group__'), e.attr('lr_mult')]
""")

case("attr_scope_bad_value", """
with mx.AttrScope(ctx_group=3):
    result = mx.sym.var('a')
""")

case("set_attr", """
x = mx.sym.var('x')
y = mx.sym.relu(x)
y._set_attr(ctx_group='g', mood='fine')
y._set_attr(name='renamed')
fc = mx.sym.FullyConnected(x, num_hidden=3, name='fc')
fc._set_attr(num_hidden='5')
result = [H.describe(y), y.list_attr(), fc.infer_shape(x=(2, 2)), fc.list_attr()]
""", ("FullyConnected",))

case("set_attr_deprecated", """
x = mx.sym.var('x')
y = mx.sym.relu(x)
y._set_attr(fc_lr_mult='1')
result = y
""")

case("set_attr_non_string", """
x = mx.sym.var('x')
x._set_attr(foo=1)
result = x
""")

case("group_attrs", """
x = mx.sym.var('x', attr={'a': 'b'})
s = mx.sym.split(x, num_outputs=3, axis=1)
g = mx.sym.Group([s[0], mx.sym.relu(x)])
result = [g.name, g.list_outputs(), repr(g), g.list_attr(), g.attr('name'), s.attr('name'),
          s.name, g.attr_dict(), g.get_children().list_outputs(), x.get_children(),
          mx.sym.Group([x, x]).tojson(), mx.sym.Group([g, x]).list_outputs()]
""", ("split",))

case("group_empty", """
result = mx.sym.Group([])
""")

case("group_bad", """
result = mx.sym.Group([mx.sym.var('a'), 1])
""")

case("prefix_and_namemanager", """
x = mx.sym.var('x')
with mx.name.Prefix('p1_'):
    a = mx.sym.relu(x)
    b = mx.sym.relu(a, name='named')
    v = mx.sym.var('v')
    c = mx.sym.FullyConnected(b, num_hidden=2)
with mx.name.NameManager():
    d = mx.sym.relu(c)
e = mx.sym.relu(d)
result = [a.name, b.name, v.name, c.name, c.list_arguments(), d.name, e.name]
""", ("FullyConnected",))

case("copy_deepcopy_pickle", """
import copy
import pickle
x = mx.sym.var('x', lr_mult=0.5)
y = mx.sym.FullyConnected(x, num_hidden=3, name='fc') * 2
c1 = copy.copy(y)
c2 = copy.deepcopy(y)
c2._set_attr(name='changed')
p = pickle.loads(pickle.dumps(y))
p0 = pickle.loads(pickle.dumps(y, protocol=0))
result = [y.tojson() == c1.tojson(), y.name, c2.name, p.tojson() == y.tojson(),
          p0.tojson() == y.tojson(), type(p).__name__, y.__getstate__().keys() == {'handle'},
          isinstance(y.__getstate__()['handle'], str)]
""", ("FullyConnected",))

case("children_and_internals", """
x = mx.sym.var('x')
y = mx.sym.var('y')
z = mx.sym.var('z')
a = y + z
b = x + a
bn = mx.sym.BatchNorm(b, name='bn')
result = [b.get_children().list_outputs(), b.get_children().get_children().list_outputs(),
          bn.get_internals().list_outputs(), bn.get_internals()['_plus1_output'].name,
          bn.get_children().list_outputs(), x.get_internals().list_outputs()]
""", ("BatchNorm",))

case("shared_aux_versions", """
x = mx.sym.var('x')
mm = mx.sym.var('mm')
mv = mx.sym.var('mv', init='zeros')
b1 = mx.sym.BatchNorm(x, moving_mean=mm, moving_var=mv, name='b1')
b2 = mx.sym.BatchNorm(b1, moving_mean=mm, moving_var=mv, name='b2')
g = mx.sym.Group([b2, mm * 1, mm])
result = [H.describe(g), mx.sym.load_json(g.tojson()).tojson() == g.tojson(),
          g.infer_shape(x=(2, 3))]
""", ("BatchNorm",))

case("symbol_debug_str", """
a = mx.sym.Variable('a')
b = mx.sym.sin(a, attr={'lr_mult': '2', 'tag': 'x'})
c = 2 * a + b
bn = mx.sym.BatchNorm(c, name='bn', fix_gamma=False)
s = mx.sym.split(bn, num_outputs=2)
g = mx.sym.Group([s[1], c, a])
result = [g.debug_str(), a.debug_str()]
""", ("BatchNorm", "split"))

# ------------------------------------------------------------------------------------------
# inference

case("infer_shape_partial_unknown", """
data = mx.sym.var('data')
fc1 = mx.sym.FullyConnected(data, num_hidden=8, name='fc1')
act = mx.sym.relu(fc1)
fc2 = mx.sym.FullyConnected(act, num_hidden=3, name='fc2')
w = mx.sym.var('w')
out = mx.sym.Group([fc2, w * 2])
result = [out.infer_shape(data=(2, 5)), out.infer_shape_partial(data=(2, 5)),
          out.infer_shape_partial(), out.infer_shape(), out.infer_shape(data=(0, 5)),
          out.infer_shape_partial(data=(0, 5)), out.infer_shape(data=(2, 5), w=(3,)),
          out.infer_shape_partial(fc1_weight=(8, 5))]
""", ("FullyConnected",))

case("infer_shape_positional", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = a + b
result = [c.infer_shape(a=(0, 3)), c.infer_shape_partial(a=(0, 3)), mx.sym.var('x', shape=(2, 0)).infer_shape(),
          mx.sym.var('x', shape=(2, 0)).infer_shape_partial(),
          mx.sym.var('x', shape=(2, 4)).infer_shape()]
""")

case("infer_shape_merge_partial", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = a + b
result = [c.infer_shape(a=(0, 3), b=(2, 0)), c.infer_shape_partial(a=(0, 3), b=(2, 0))]
""")

case("infer_shape_mixed_args_error", """
a = mx.sym.var('a')
result = (a + 1).infer_shape((2,), a=(2,))
""")

case("infer_shape_list_error", """
a = mx.sym.var('a')
result = (a + 1).infer_shape(a=[2, 3])
""")

case("infer_shape_inconsistent", """
data = mx.sym.var('data')
out = mx.sym.FullyConnected(data=data, name='fc1', num_hidden=100)
out = mx.sym.Activation(data=out, act_type='relu')
out = mx.sym.FullyConnected(data=out, name='fc2', num_hidden=10)
result = out.infer_shape(data=(10, 20), fc1_weight=(1, 20))
""", ("FullyConnected", "Activation"))

case("infer_shape_inconsistent_elemwise", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).infer_shape(a=(2, 3), b=(3, 2))
""")

case("infer_shape_inconsistent_partial", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).infer_shape_partial(a=(2, 3), b=(3, 2))
""")

case("infer_shape_unknown_name", """
a = mx.sym.var('a')
result = (a + 1).infer_shape(zzz=(2, 3))
""")

case("infer_shape_var_hint", """
a = mx.sym.var('a', shape=(2, 3))
b = mx.sym.var('b')
c = a * b
result = [c.infer_shape(), c.infer_shape(b=(2, 3)), c.infer_shape_partial()]
""")

case("infer_shape_var_hint_conflict", """
a = mx.sym.var('a', shape=(2, 3))
b = mx.sym.var('b')
result = (a * b).infer_shape(a=(4, 4))
""")

case("infer_type", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = a + b
d = mx.sym.Cast(c, dtype='float16')
w = mx.sym.var('w', dtype='float64')
g = mx.sym.Group([d, w * 2])
result = [c.infer_type(a='float32'), c.infer_type(a=np.float64),
          c.infer_type(a=np.int32), d.infer_type(a='float32'), g.infer_type(a='float32'),
          g.infer_type(), g.infer_type_partial(), c.infer_type(), c.infer_type_partial()]
""")

case("infer_type_inconsistent", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).infer_type(a='float32', b='float16')
""")

case("infer_type_fc", """
data = mx.sym.var('data')
bn = mx.sym.BatchNorm(mx.sym.FullyConnected(data, num_hidden=3), name='bn')
result = [bn.infer_type(data='float64'), bn.infer_type(data='float16')]
""", ("FullyConnected", "BatchNorm"))

# ------------------------------------------------------------------------------------------
# creation front ends

case("creation_functions", """
syms = [mx.sym.zeros((2, 3)), mx.sym.zeros(4), mx.sym.zeros(shape=(2,), dtype='int32'),
        mx.sym.ones((2, 3), dtype='int32'), mx.sym.ones(shape=(1, 2), dtype=np.float64),
        mx.sym.full((2, 3), 5), mx.sym.full((2,), 0.5, dtype='float16'),
        mx.sym.arange(0, 5), mx.sym.arange(2, 8, 2, repeat=2), mx.sym.arange(5, dtype='int64'),
        mx.sym.arange(start=1, stop=4, step=0.5, name='ar'), mx.sym.eye(3), mx.sym.eye(2, 3, 1),
        mx.sym.linspace(0, 1, 5), mx.sym.zeros((2, 2), name='zz'),
        mx.sym.zeros_like(mx.sym.var('q')), mx.sym.ones_like(mx.sym.var('q'))]
result = [(s.name, s.list_attr(), s.tojson(), s.list_arguments()) for s in syms]
result.append([s.eval()[0] for s in syms[:-2]])
result.append([s.infer_shape() for s in syms[:-2]])
result.append([s.infer_type() for s in syms[:-2]])
""")

case("eval_and_bind_dict", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = 2 * a + mx.sym.sin(b)
r1 = c.eval(ctx=mx.cpu(), a=mx.nd.ones((2, 3)), b=mx.nd.array(np.arange(6).reshape(2, 3)))
r2 = mx.sym.Group([c, a - b]).eval(a=mx.nd.ones((2,)), b=mx.nd.array([3, 4]))
result = [r1, r2, type(r1).__name__]
""")

case("eval_missing_arg", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).eval(a=mx.nd.ones((2,)))
""")

# ------------------------------------------------------------------------------------------
# executor API

case("bind_grad_req_list_and_dict", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = a * b + a
args = {'a': mx.nd.array([1., 2.]), 'b': mx.nd.array([3., 4.])}
out = []
for req in ('write', 'add', 'null', ['add', 'write'], {'b': 'write'}, {'a': 'add', 'b': 'null'}):
    grads = {'a': mx.nd.ones((2,)), 'b': mx.nd.ones((2,))}
    ex = c.bind(mx.cpu(), args, args_grad=grads, grad_req=req)
    ex.forward(is_train=True)
    ex.backward(mx.nd.array([1., 10.]))
    out.append({k: v.asnumpy() for k, v in grads.items()})
    ex.forward(is_train=True)
    ex.backward([mx.nd.array([1., 1.])])
    out.append({k: v.asnumpy() for k, v in grads.items()})
    out.append(sorted((k, v is None) for k, v in ex.grad_dict.items()))
result = out
""")

case("bind_partial_args_grad", """
a = mx.sym.var('a')
b = mx.sym.var('b')
c = a * b
ex = c.bind(mx.cpu(), [mx.nd.array([1., 2.]), mx.nd.array([3., 4.])],
            args_grad={'b': mx.nd.zeros((2,))})
ex.forward(is_train=True)
ex.backward(mx.nd.ones((2,)))
result = [sorted((k, v is None) for k, v in ex.grad_dict.items()), ex.grad_dict['b'],
          [g is None for g in ex.grad_arrays], ex.outputs, list(ex.output_dict),
          sorted(ex.arg_dict)]
""")

case("bind_missing_arg", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).bind(mx.cpu(), {'a': mx.nd.ones((2,))})
""")

case("bind_wrong_length", """
a = mx.sym.var('a')
b = mx.sym.var('b')
result = (a + b).bind(mx.cpu(), [mx.nd.ones((2,))])
""")

case("bind_not_ndarray", """
a = mx.sym.var('a')
result = (a + 1).bind(mx.cpu(), {'a': np.ones(2)})
""")

case("bind_bad_grad_req", """
a = mx.sym.var('a')
result = (a + 1).bind(mx.cpu(), {'a': mx.nd.ones((2,))}, grad_req='sometimes')
""")

case("bind_bad_ctx", """
a = mx.sym.var('a')
result = (a + 1).bind('cpu', {'a': mx.nd.ones((2,))})
""")

case("bind_shape_mismatch", """
a = mx.sym.var('a')
b = mx.sym.var('b')
ex = (a + b).bind(mx.cpu(), {'a': mx.nd.ones((2,)), 'b': mx.nd.ones((3,))})
result = ex.forward()
""")

case("forward_kwargs", """
a = mx.sym.var('a')
b = mx.sym.var('b')
ex = (a * b).bind(mx.cpu(), {'a': mx.nd.ones((2,)), 'b': mx.nd.ones((2,))})
r1 = ex.forward(a=mx.nd.array([2., 3.]))[0].asnumpy()
r2 = ex.forward(is_train=False, b=np.array([5., 7.], dtype='float32'))[0].asnumpy()
result = [r1, r2, ex.arg_dict['a'], ex.arg_dict['b']]
""")

case("forward_kwargs_bad_shape", """
a = mx.sym.var('a')
ex = (a * 2).bind(mx.cpu(), {'a': mx.nd.ones((2,))})
result = ex.forward(a=mx.nd.ones((3,)))
""")

case("forward_kwargs_unknown", """
a = mx.sym.var('a')
ex = (a * 2).bind(mx.cpu(), {'a': mx.nd.ones((2,))})
result = ex.forward(zz=mx.nd.ones((2,)))
""")

case("forward_kwargs_bad_type", """
a = mx.sym.var('a')
ex = (a * 2).bind(mx.cpu(), {'a': mx.nd.ones((2,))})
result = ex.forward(a=[1, 2])
""")

case("outputs_track_arguments", """
a = mx.sym.var('a')
ex = (a * 2).bind(mx.cpu(), {'a': mx.nd.ones((2,))})
o1 = ex.forward()[0]
ex.arg_dict['a'][:] = 5
o2 = ex.forward()[0]
result = [o1, o2, ex.outputs[0]]
""")

case("backward_dict_out_grads", """
a = mx.sym.var('a')
g = mx.sym.Group([a * 2, a * 3])
ga = mx.nd.zeros((2,))
ex = g.bind(mx.cpu(), {'a': mx.nd.ones((2,))}, args_grad={'a': ga})
ex.forward(is_train=True)
ex.backward({'_mulscalar0_output': mx.nd.ones((2,)), '_mulscalar1_output': mx.nd.ones((2,)) * 2})
result = [ga, g.list_outputs()]
""")

case("simple_bind", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
bn = mx.sym.BatchNorm(fc, name='bn')
ex = bn.simple_bind(mx.cpu(), data=(2, 4))
ex2 = bn.simple_bind(mx.cpu(), grad_req={'fc_weight': 'write'}, type_dict={'data': 'float64'},
                     data=(2, 4))
ex3 = bn.simple_bind(mx.cpu(), grad_req='null', data=(5, 4))
def summ(e):
    return ([(n, a.shape, np.dtype(a.dtype).name) for n, a in e.arg_dict.items()],
            [(n, None if g is None else (g.shape, np.dtype(g.dtype).name))
             for n, g in e.grad_dict.items()],
            [(n, a.shape, np.dtype(a.dtype).name) for n, a in e.aux_dict.items()],
            [(o.shape, np.dtype(o.dtype).name) for o in e.outputs])
result = [summ(ex), summ(ex2), summ(ex3)]
""", ("FullyConnected", "BatchNorm"))

case("simple_bind_cannot_infer", """
data = mx.sym.var('data')
w = mx.sym.var('w')
result = (data + w * 0).simple_bind(mx.cpu())
""")

case("simple_bind_shared_exec", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
ex = fc.simple_bind(mx.cpu(), data=(4, 2))
ex.arg_dict['fc_weight'][:] = 1.5
ex2 = fc.simple_bind(mx.cpu(), data=(2, 2), shared_exec=ex,
                     shared_arg_names=['fc_weight', 'fc_bias'])
ex.arg_dict['fc_bias'][:] = 2
ex2.arg_dict['data'][:] = 1
result = [ex2.forward()[0], ex2.arg_dict['fc_weight'], ex2.arg_dict['data'].shape]
""", ("FullyConnected",))

case("simple_bind_shared_buffer", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
buf = {}
ex = fc.simple_bind(mx.cpu(), data=(4, 2), shared_buffer=buf)
ex.arg_dict['fc_weight'][:] = 1.5
ex2 = fc.simple_bind(mx.cpu(), data=(2, 2), shared_exec=ex,
                     shared_arg_names=['fc_weight', 'fc_bias'], shared_buffer=buf)
ex.arg_dict['fc_bias'][:] = 2
ex2.arg_dict['data'][:] = 1
ex.arg_dict['data'][:] = 3
result = [ex2.forward()[0], ex2.arg_dict['fc_weight'], ex2.arg_dict['data'], sorted(buf),
          ex.arg_dict['data']]
""", ("FullyConnected",))

case("executor_reshape", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
ex = fc.simple_bind(mx.cpu(), data=(4, 2))
ex.arg_dict['fc_weight'][:] = np.arange(6).reshape(3, 2)
ex.arg_dict['fc_bias'][:] = 1
ex.arg_dict['data'][:] = np.arange(8).reshape(4, 2)
small = ex.reshape(data=(2, 2))
o_small = small.forward()[0].asnumpy()
ex.arg_dict['fc_weight'][:] = 0
o_small2 = small.forward()[0].asnumpy()
big = ex.reshape(allow_up_sizing=True, data=(6, 2))
result = [o_small, o_small2, small.arg_dict['data'], [a.shape for a in big.arg_arrays],
          [None if g is None else g.shape for g in big.grad_arrays],
          [a.shape for a in small.arg_arrays]]
""", ("FullyConnected",))

case("executor_reshape_upsize_error", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
ex = fc.simple_bind(mx.cpu(), data=(4, 2))
result = ex.reshape(data=(6, 2))
""", ("FullyConnected",))

case("executor_reshape_partial_error", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
ex = fc.simple_bind(mx.cpu(), data=(4, 2))
result = ex.reshape(data=(4, 5))
""", ("FullyConnected",))

case("executor_reshape_partial_ok", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
ex = fc.simple_bind(mx.cpu(), data=(4, 2))
r = ex.reshape(partial_shaping=True, data=(4, 1))
result = [a.shape for a in r.arg_arrays]
""", ("FullyConnected",))

case("monitor_callback", """
a = mx.sym.var('a')
b = mx.sym.relu(a * 2, name='r')
seen = []
ex = b.bind(mx.cpu(), {'a': mx.nd.array([-1., 2.])})
ex.set_monitor_callback(lambda name, arr: seen.append(H.text(name)))
ex.forward()
seen_all = []
ex.set_monitor_callback(lambda name, arr: seen_all.append(H.text(name)), monitor_all=True)
ex.forward()
result = [seen, seen_all]
""")

case("copy_params_from", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
ex = fc.simple_bind(mx.cpu(), data=(1, 2))
ex.copy_params_from({'fc_weight': mx.nd.ones((2, 2)), 'fc_bias': mx.nd.array([1., 2.])})
ex.arg_dict['data'][:] = 1
result = [ex.forward()[0]]
""", ("FullyConnected",))

case("copy_params_from_extra", """
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
ex = fc.simple_bind(mx.cpu(), data=(1, 2))
result = ex.copy_params_from({'nope': mx.nd.ones((2, 2))})
""", ("FullyConnected",))

case("symbol_gradient_api", """
a = mx.sym.var('a')
result = (a * 2).gradient(['a'])
""")

# ------------------------------------------------------------------------------------------
# JSON load

case("load_json_errors_malformed", """
result = mx.sym.load_json('{"nodes": [')
""")

case("load_json_errors_unknown_op", """
text = json.dumps({"nodes": [{"op": "null", "name": "x", "inputs": []},
                             {"op": "NoSuchOp", "name": "y", "inputs": [[0, 0, 0]]}],
                   "arg_nodes": [0], "node_row_ptr": [0, 1, 2], "heads": [[1, 0, 0]],
                   "attrs": {"mxnet_version": ["int", 10901]}})
result = mx.sym.load_json(text)
""")

case("load_json_not_string", """
result = mx.sym.load_json(3)
""")

case("load_missing_file", """
result = mx.sym.load('/nonexistent/dir/none-symbol.json')
""")

case("load_json_roundtrip_minimal", """
text = json.dumps({"nodes": [{"op": "null", "name": "x", "inputs": []},
                             {"op": "relu", "name": "r", "inputs": [[0, 0, 0]]},
                             {"op": "_plus_scalar", "name": "p", "attrs": {"scalar": "2"},
                              "inputs": [[1, 0, 0]]}],
                   "arg_nodes": [0], "node_row_ptr": [0, 1, 2, 3], "heads": [[2, 0, 0]],
                   "attrs": {"mxnet_version": ["int", 10600]}})
s = mx.sym.load_json(text)
result = [H.describe(s), s.eval(x=mx.nd.array([-1., 3.]))]
""")

case("load_json_old_attr_names", """
text = json.dumps({"nodes": [{"op": "null", "name": "x", "inputs": []},
                             {"op": "Activation", "name": "a", "param": {"act_type": "tanh"},
                              "attr": {"__ctx_group__": "g"}, "inputs": [[0, 0]],
                              "backward_source_id": -1}],
                   "arg_nodes": [0], "heads": [[1, 0]]})
s = mx.sym.load_json(text)
result = [H.describe(s), s.eval(x=mx.nd.array([-1., 3.]))]
""", ("Activation",))

for _fname, _needs in (("mlp", _FC), ("lenet", _CONV), ("bn", ("Convolution", "BatchNorm")),
                       ("arith", ()), ("vars", ("FullyConnected", "Activation")),
                       ("legacy_mlp", _FC)):
    case(f"load_file_{_fname}", f"""
sym = mx.sym.load(FIX + '/{_fname}-symbol.json')
shapes = H.FILE_SHAPES['{_fname}']
result = H.describe(sym)
result['exec'] = H.run_executor(mx, np, sym, shapes, ints=H.FILE_INTS.get('{_fname}'),
                                positive=H.FILE_POSITIVE.get('{_fname}', ()),
                                head_grads=H.FILE_HEAD_GRADS.get('{_fname}', True))
""", _needs)

case("save_load_roundtrip", NET_LENET + """
import os, tempfile
d = tempfile.mkdtemp()
fn = os.path.join(d, 'net-symbol.json')
net.save(fn)
with open(fn) as f:
    text = f.read()
back = mx.sym.load(fn)
result = [text == net.tojson(), back.tojson() == net.tojson(), H.describe(back)]
""", _CONV)

# ------------------------------------------------------------------------------------------
# the fused RNN in JSON: node_row_ptr counts 1.9.1's outputs (no hidden ones on CPU)

case("rnn_json", """
x = mx.sym.var('x')
res = []
for mode in ('lstm', 'gru', 'rnn_tanh', 'rnn_relu'):
    for so in (False, True):
        for proj in ((None, 2) if mode == 'lstm' else (None,)):
            for bi in (False, True):
                kw = dict(state_size=4, num_layers=2, mode=mode, state_outputs=so,
                          bidirectional=bi, name=f'{mode}_{int(so)}_{proj}_{int(bi)}')
                if proj:
                    kw['projection_size'] = proj
                s = mx.sym.RNN(x, **kw)
                res.append(H.describe(s))
                res.append(mx.sym.load_json(s.tojson()).tojson() == s.tojson())
lstm = mx.sym.RNN(x, state_size=3, num_layers=1, mode='lstm', state_outputs=True, name='l')
net = mx.sym.Group([lstm[1] * 2, lstm[0]])
res.append(H.describe(net))
res.append(H.describe(mx.sym.RNN(x, state_size=3, num_layers=1, mode='gru', p=0.2,
                                 use_sequence_length=False, name='g')))
result = res
""", ("RNN",))

# ------------------------------------------------------------------------------------------
# attributes recorded by the Python front ends (mx.sym.random) and automatic names of the
# submodule functions

case("random_front_attrs", """
lo = mx.sym.var('lo')
hi = mx.sym.var('hi')
syms = [mx.sym.random.uniform(shape=(2,), dtype=None), mx.sym.random.uniform(shape=(2,)),
        mx.sym.random.uniform(-1, 2.5, (3,), 'float16'), mx.sym.random.normal(shape=(2,)),
        mx.sym.random.normal(loc=1, scale=0.5, dtype=None), mx.sym.random.randn(2, 3),
        mx.sym.random.randn(4, loc=2, dtype='float64'), mx.sym.random.poisson(shape=(2,)),
        mx.sym.random.exponential(shape=(2,)), mx.sym.random.exponential(scale=4),
        mx.sym.random.gamma(shape=(2,)), mx.sym.random.negative_binomial(shape=(2,)),
        mx.sym.random.generalized_negative_binomial(shape=(2,)),
        mx.sym.random.randint(0, 5, shape=(2,)), mx.sym.random.randint(-3, 3, dtype='int64'),
        mx.sym.random.uniform(lo, hi, shape=(2,)), mx.sym.random.normal(lo, hi, dtype=None),
        mx.sym.random.gamma(lo, hi), mx.sym.random.exponential(lo),
        mx.sym.random.multinomial(lo), mx.sym.random.multinomial(lo, shape=3, get_prob=False),
        mx.sym.random.shuffle(lo), mx.sym.random.uniform_like(lo),
        mx.sym.random.normal_like(lo, loc=1), mx.sym.random_uniform(shape=(2,)),
        mx.sym.uniform(shape=(2,), dtype=None), mx.sym.random_normal(shape=(2,), dtype=None),
        mx.sym.sample_uniform(lo, hi), mx.sym.one_hot(lo, depth=3, dtype=None),
        mx.sym.zeros(shape=(2,), dtype=None), mx.sym.arange(3, dtype=None),
        mx.sym.Cast(lo, dtype='float16')]
result = [(s.name, s.list_attr(), s.list_arguments(), s.tojson()) for s in syms]
""")

case("random_front_errors_mixed", """
result = mx.sym.random.uniform(mx.sym.var('lo'), 1)
""")

case("random_front_errors_type", """
result = mx.sym.random.normal('a', 1)
""")

case("submodule_name_hints", """
a = mx.sym.var('a')
b = mx.sym.var('b')
syms = [mx.sym.linalg.gemm2(a, b), mx.sym.linalg_gemm2(a, b), mx.sym.linalg.potrf(a),
        mx.sym.contrib.quadratic(a), mx.sym.random.uniform_like(a),
        mx.sym._internal._plus_scalar(a, scalar=1), mx.sym._internal._random_uniform(),
        mx.sym.relu(a), mx.sym.Convolution(a, kernel=(1,), num_filter=1)]
result = [s.name for s in syms]
""")


FILE_SHAPES = {"mlp": {"data": (4, 8)}, "lenet": {"data": (2, 1, 12, 12)},
               "bn": {"data": (3, 2, 6, 6)}, "arith": {"a": (3, 4), "b": (3, 4)},
               "vars": {"d": (5, 4)}, "legacy_mlp": {"data": (3, 6)}}
FILE_INTS = {"mlp": {"softmaxoutput0_label": 10}, "lenet": {"softmax_label": 10},
             "legacy_mlp": {"sm_label": 4}}
FILE_POSITIVE = {"arith": ("a", "b")}
FILE_HEAD_GRADS = {"mlp": False, "lenet": False, "legacy_mlp": False}

LEGACY_MLP = """
data = mx.sym.var('data')
fc1 = mx.sym.FullyConnected(data, num_hidden=5, name='fc1', attr={'lr_mult': '0.5'})
act = mx.sym.Activation(fc1, act_type='relu', name='relu1')
fc2 = mx.sym.FullyConnected(act, num_hidden=4, name='fc2')
net = mx.sym.SoftmaxOutput(fc2, name='sm')
"""


def to_legacy_json(text):
    """Rewrite a 1.x -symbol.json into the pre-1.0 layout (``param``/``attr`` keys).

    Operator parameters go under ``param``, hidden ``__x__`` attributes under
    ``attr``; inputs and heads become (node, index) pairs; every node gets
    ``backward_source_id`` -1; ``node_row_ptr`` and the graph ``attrs`` are dropped.
    """
    doc = json.loads(text)
    nodes = []
    for nd in doc["nodes"]:
        attrs = nd.get("attrs", {})
        param = {k: v for k, v in attrs.items() if not k.startswith("__")}
        hidden = {k: v for k, v in attrs.items() if k.startswith("__")}
        out = {"op": nd["op"], "param": param if nd["op"] != "null" else {},
               "name": nd["name"], "inputs": [e[:2] for e in nd["inputs"]],
               "backward_source_id": -1}
        if hidden:
            out["attr"] = hidden
        nodes.append(out)
    return json.dumps({"nodes": nodes, "arg_nodes": doc["arg_nodes"],
                       "heads": [h[:2] for h in doc["heads"]]}, indent=2)


# ------------------------------------------------------------------------------------------
# the generator (reference only)

class Encoder:
    """Results to JSON, arrays into a side table."""

    def __init__(self, np, mx, prefix):
        self.np, self.mx, self.prefix = np, mx, prefix
        self.arrays = {}

    def _store(self, arr):
        key = f"{self.prefix}_{len(self.arrays)}"
        self.arrays[key] = arr
        return key

    def encode(self, v):
        np, mx = self.np, self.mx
        if isinstance(v, mx.nd.NDArray):
            a = v.asnumpy()
            return {"__nd__": self._store(a), "dtype": a.dtype.name, "shape": list(a.shape)}
        if isinstance(v, np.ndarray):
            return {"__np__": self._store(v.copy()), "dtype": v.dtype.name, "shape": list(v.shape)}
        if isinstance(v, type) and issubclass(v, np.generic):
            return {"__type__": np.dtype(v).name}
        if isinstance(v, np.dtype):
            return {"__dtype__": v.name}
        if isinstance(v, np.generic):
            return {"__npscalar__": v.item(), "dtype": v.dtype.name}
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, tuple):
            return {"__tuple__": [self.encode(x) for x in v]}
        if isinstance(v, list):
            return [self.encode(x) for x in v]
        if isinstance(v, dict):
            return {"__dict__": [[self.encode(k), self.encode(x)] for k, x in v.items()]}
        if isinstance(v, (set, frozenset)):
            return {"__set__": sorted(self.encode(x) for x in v)}
        if isinstance(v, mx.sym.Symbol):
            return {"__symbol__": v.tojson()}
        if type(v).__name__ == "Executor":
            return {"__executor__": True}
        raise TypeError(f"cannot encode {type(v).__name__}")


def evaluate(code, mx, np):
    """Run one snippet in a fresh naming scope; returns its ``result``."""
    helpers = types.SimpleNamespace(**{k: v for k, v in globals().items() if not k.startswith("__")})
    ns = {"mx": mx, "np": np, "H": helpers, "FIX": str(FIXTURES), "json": json,
          "__name__": "golden_symbol_case"}
    with mx.name.NameManager():
        exec(compile(code, "<symbol golden case>", "exec"), ns)  # noqa: S102
    return ns["result"]


def _write_files(mx):
    """-symbol.json files written by the reference."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    import numpy as np
    for fname, code in (("mlp", NET_MLP), ("lenet", NET_LENET), ("bn", NET_BN),
                        ("arith", NET_ARITH), ("vars", NET_VARS), ("legacy_mlp", LEGACY_MLP)):
        ns = {"mx": mx, "np": np}
        with mx.name.NameManager():
            exec(compile(code, fname, "exec"), ns)  # noqa: S102
        path = FIXTURES / f"{fname}-symbol.json"
        ns["net"].save(str(path))
        if fname == "legacy_mlp":
            path.write_text(to_legacy_json(path.read_text()))
            # the reference must accept (and upgrade) what we wrote
            back = mx.sym.load(str(path))
            assert back.list_arguments() == ns["net"].list_arguments()


def main():
    os.environ.setdefault("MXNET_ENGINE_TYPE", "NaiveEngine")
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != REPO]
    import warnings

    import numpy as np
    import mxnet as mx
    if getattr(mx, "__version__", None) != "1.9.1" or not hasattr(mx.base, "_LIB"):
        raise SystemExit(f"reference MXNet 1.9.1 required, got {mx.__file__}")
    warnings.simplefilter("ignore")
    _write_files(mx)
    out = {"format": FORMAT_VERSION, "mxnet_version": mx.__version__,
           "generator": "tools/golden/gen_symbol.py", "cases": {}}
    arrays = {}
    import io
    from contextlib import redirect_stdout
    for idx, (cid, code, needs) in enumerate(CASES):
        enc = Encoder(np, mx, f"c{idx:03d}")
        buf = io.StringIO()
        try:
            with redirect_stdout(buf):
                value = evaluate(code, mx, np)
            rec = {"outcome": "value", "value": enc.encode(value)}
        except Exception as exc:  # noqa: BLE001 - recording failures is the point
            enc.arrays.clear()
            msg = str(exc).strip().splitlines()
            rec = {"outcome": "error", "type": type(exc).__name__,
                   "mxnet_error": isinstance(exc, mx.base.MXNetError),
                   "builtin": next((c.__name__ for c in type(exc).__mro__
                                    if c.__module__ == "builtins"), None),
                   "message": (msg[0] if msg else "")[:300]}
        mx.autograd.set_recording(False)
        mx.autograd.set_training(False)
        arrays.update(enc.arrays)
        out["cases"][cid] = {"code": code, "needs": list(needs), **rec}
        print(f"{cid}: {rec['outcome']} {rec.get('type', '')} {rec.get('message', '')[:120]}")
    (FIXTURES / "cases.json").write_text(json.dumps(out, indent=1) + "\n")
    np.savez_compressed(FIXTURES / "cases.npz", **arrays)
    print(f"{len(CASES)} cases -> {FIXTURES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
