"""Golden ``Executor.debug_str()`` listings of executors bound for training, recorded under
MXNet 1.9.1 (with ``MXNET_SUBGRAPH_BACKEND=NONE``, so that no graph is fused).

Run with the reference interpreter, from outside the repository root so that
``import mxnet`` finds the reference::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine MXNET_SUBGRAPH_BACKEND=NONE \\
        /work/main/.ref/bin/python /work/main/tools/golden/gen_debug_str.py

This module is also the case table: ``tests/symbol/test_debug_str_golden.py`` loads it
(without running :func:`main`) and binds the same graphs with this repository's ``mxnet``.
It imports nothing from mxnet at module level.

Output: ``tests/golden/debug_str/cases.json``, per case the full listing.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "tests" / "golden" / "debug_str"

# (case id, code defining ``net`` from mx, input shapes, grad_req: a string for every
# argument, or the tuple of arguments that need no gradient, the rest 'write')
CASES = [
    ("mlp", """
x = mx.sym.var('data')
y = mx.sym.FullyConnected(x, num_hidden=16, name='fc0')
y = mx.sym.Activation(y, act_type='relu', name='relu0')
y = mx.sym.FullyConnected(y, num_hidden=8, name='fc1')
y = mx.sym.Activation(y, act_type='tanh', name='tanh1')
y = mx.sym.FullyConnected(y, num_hidden=3, name='fc2')
net = mx.sym.SoftmaxOutput(y, name='softmax')
""", {"data": (4, 10)}, "write"),
    ("mlp_params_only", """
x = mx.sym.var('data')
y = mx.sym.FullyConnected(x, num_hidden=16, name='fc0')
y = mx.sym.Activation(y, act_type='relu', name='relu0')
y = mx.sym.FullyConnected(y, num_hidden=3, name='fc1')
net = mx.sym.SoftmaxOutput(y, name='softmax')
""", {"data": (4, 10)}, ("data", "softmax_label")),
    ("lenet", """
x = mx.sym.var('data')
y = mx.sym.Convolution(x, num_filter=6, kernel=(5, 5), name='conv1')
y = mx.sym.Activation(y, act_type='tanh', name='tanh1')
y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type='max', name='pool1')
y = mx.sym.Convolution(y, num_filter=16, kernel=(5, 5), name='conv2')
y = mx.sym.Activation(y, act_type='tanh', name='tanh2')
y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type='avg', name='pool2')
y = mx.sym.Flatten(y, name='flatten')
y = mx.sym.FullyConnected(y, num_hidden=32, name='fc1')
y = mx.sym.Activation(y, act_type='tanh', name='tanh3')
y = mx.sym.FullyConnected(y, num_hidden=10, name='fc2')
net = mx.sym.SoftmaxOutput(y, name='softmax')
""", {"data": (2, 1, 28, 28)}, ("data", "softmax_label")),
    ("conv_block", """
x = mx.sym.var('data')
y = mx.sym.Convolution(x, num_filter=8, kernel=(3, 3), pad=(1, 1), no_bias=True, name='c1')
y = mx.sym.Activation(y, act_type='relu', name='r1')
z = mx.sym.Convolution(y, num_filter=8, kernel=(3, 3), pad=(1, 1), name='c2')
z = mx.sym.Activation(z + y, act_type='relu', name='r2')
z = mx.sym.Deconvolution(z, num_filter=4, kernel=(2, 2), stride=(2, 2), name='up')
net = mx.sym.Pooling(z, global_pool=True, kernel=(1, 1), pool_type='avg', name='gap')
""", {"data": (2, 4, 8, 8)}, "write"),
    ("head_grad", """
x = mx.sym.var('x')
net = mx.sym.exp(x, name='e') * 3 + x
""", {"x": (3, 4)}, "write"),
    ("bn_dropout", """
x = mx.sym.var('data')
y = mx.sym.Convolution(x, num_filter=4, kernel=(3, 3), name='conv')
y = mx.sym.BatchNorm(y, fix_gamma=False, name='bn')
y = mx.sym.Dropout(y, p=0.5, name='drop')
y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type='max', name='pool')
net = mx.sym.LinearRegressionOutput(mx.sym.flatten(y, name='flat'), name='lro')
""", {"data": (2, 3, 10, 10), "lro_label": (2, 64)}, ("data", "lro_label")),
    ("group_shared", """
x = mx.sym.var('x')
w = mx.sym.var('w')
a = mx.sym.FullyConnected(x, w, num_hidden=4, no_bias=True, name='fa')
b = mx.sym.FullyConnected(a, w, num_hidden=4, no_bias=True, name='fb')
c = mx.sym.BlockGrad(mx.sym.tanh(a, name='t'), name='stop')
net = mx.sym.Group([mx.sym.sigmoid(b, name='s'), c, mx.sym.elemwise_add(x, x, name='twice')])
""", {"x": (3, 4), "w": (4, 4)}, "write"),
    ("add_req", """
x = mx.sym.var('x')
y = mx.sym.FullyConnected(x, num_hidden=5, name='fc')
net = mx.sym.LogisticRegressionOutput(mx.sym.relu(y, name='r'), name='out')
""", {"x": (2, 3), "out_label": (2, 5)}, "add"),
    ("no_grad", """
x = mx.sym.var('data')
y = mx.sym.Convolution(x, num_filter=4, kernel=(3, 3), name='conv')
net = mx.sym.SoftmaxOutput(mx.sym.flatten(y, name='flat'), name='softmax')
""", {"data": (2, 3, 6, 6)}, "null"),
]


def listing(mx, code, shapes, req):
    """The ``debug_str()`` of the case's graph bound with ``req``; automatic names are
    counted from zero for every case."""
    env = {"mx": mx}
    with mx.name.NameManager():
        exec(code, env)
    net = env["net"]
    if not isinstance(req, str):
        req = {n: "null" if n in req else "write" for n in net.list_arguments()}
    ex = net.simple_bind(mx.cpu(), grad_req=req, **shapes)
    return ex.debug_str()


def main():
    os.environ.setdefault("MXNET_SUBGRAPH_BACKEND", "NONE")
    import mxnet as mx
    if not mx.__file__.startswith(str(REPO / ".ref")):
        sys.exit(f"run this under the reference MXNet, not {mx.__file__}")
    out = {cid: listing(mx, code, shapes, req) for cid, code, shapes, req in CASES}
    FIXTURES.mkdir(parents=True, exist_ok=True)
    (FIXTURES / "cases.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {FIXTURES / 'cases.json'}")


if __name__ == "__main__":
    main()
