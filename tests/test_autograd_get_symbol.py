"""autograd.get_symbol: the recorded computation as a Symbol, named as 1.9.1 names it."""
import json

import numpy as np
import pytest

import mxnet as mx


def test_get_symbol_matches_1_9_1_structure_and_values():
    x = mx.nd.array([1, 2])
    x.attach_grad()
    with mx.autograd.record():
        y = (x * x + mx.nd.exp(x)).sum()
    sym = mx.autograd.get_symbol(y)
    nodes = [(n["op"], n["name"], n["inputs"]) for n in json.loads(sym.tojson())["nodes"]]
    # recorded from MXNet 1.9.1 for the same snippet
    assert nodes == [("null", "var0", []),
                     ("broadcast_mul", "node_0", [[0, 0, 0], [0, 0, 0]]),
                     ("exp", "node_1", [[0, 0, 0]]),
                     ("broadcast_add", "node_2", [[1, 0, 0], [2, 0, 0]]),
                     ("sum", "node_3", [[3, 0, 0]])]
    assert sym.list_outputs() == ["node_3_output"]
    out = sym.eval(var0=mx.nd.array([3.0, 4.0]))[0].asnumpy()
    np.testing.assert_allclose(out, [9 + 16 + np.exp(3.0) + np.exp(4.0)], rtol=1e-6)


def test_get_symbol_of_unrecorded_array_raises():
    with pytest.raises(mx.MXNetError, match="computational graph"):
        mx.autograd.get_symbol(mx.nd.ones((2,)))
