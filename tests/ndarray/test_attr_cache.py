"""mx.nd functions keep the parsed attributes of plain keyword calls (Activation(x,
act_type=...), the gradient rules' calls): the kept form must act exactly as a fresh parse."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.ndarray import register


def test_key_tells_value_types_apart():
    key = register._attr_key
    assert key({"a": 1}) != key({"a": 1.0}) != key({"a": True})
    assert key({"k": (3, 3)}) == key({"k": (3, 3)})
    assert key({"k": (3.0, 3)}) is None            # a float in a shape: never kept
    assert key({"k": [3, 3]}) is None              # unhashable
    assert key({"d": np.float32(1)}) is None       # NumPy scalars take the general path
    assert key({"n": None, "s": "relu"}) == (("n", type(None), None), ("s", str, "relu"))


def test_repeated_keyword_calls_give_fresh_results():
    x = mx.nd.array([[-1.0, 2.0], [3.0, -4.0]])
    for act, want in (("relu", [[0, 2], [3, 0]]), ("softsign", [[-0.5, 2 / 3], [0.75, -0.8]]),
                      ("relu", [[0, 2], [3, 0]])):
        for _ in range(2):
            np.testing.assert_allclose(mx.nd.Activation(x, act_type=act).asnumpy(), want,
                                       rtol=1e-6)
    w, b = mx.nd.ones((3, 2)), mx.nd.array([1.0, 2.0, 3.0])
    for _ in range(2):   # inputs that depend on the attributes (no_bias)
        got = mx.nd.FullyConnected(x, w, b, num_hidden=3).asnumpy()
        np.testing.assert_allclose(got, [[2, 3, 4], [0, 1, 2]])
        got = mx.nd.FullyConnected(x, w, num_hidden=3, no_bias=True).asnumpy()
        np.testing.assert_allclose(got, [[1, 1, 1], [-1, -1, -1]])


def test_bad_keywords_still_raise_every_time():
    x = mx.nd.array([[1.0, 2.0]])
    for _ in range(2):
        with pytest.raises(MXNetError, match="act_type"):
            mx.nd.Activation(x, act_type="bogus")
        with pytest.raises(MXNetError, match="unknown parameter"):
            mx.nd.Activation(x, act_type="relu", slope=0.1)
    w = mx.nd.ones((3, 2))
    with pytest.raises(MXNetError):   # an input missing for the attributes given
        mx.nd.FullyConnected(x, w, num_hidden=3)


def test_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(register, "_ATTR_CACHE_SIZE", 4)
    x = mx.nd.array([[1.0, -2.0]])
    for k in range(10):   # distinct keyword sets: the kept ones are dropped, results fresh
        got = mx.nd.LeakyReLU(x, act_type="leaky", slope=0.5 + k).asnumpy()
        np.testing.assert_allclose(got, [[1.0, -2.0 * (0.5 + k)]])
    cache = next(c.cell_contents for c in mx.nd.LeakyReLU.__closure__
                 if isinstance(c.cell_contents, dict) and c.cell_contents and
                 all(isinstance(k, tuple) for k in c.cell_contents))
    assert len(cache) <= 4
