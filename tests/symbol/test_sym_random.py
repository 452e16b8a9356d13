"""mx.sym.random dispatches like 1.9.1: number parameters give the ``_random_`` operator
with attributes, Symbol parameters the ``_sample_`` operator with inputs (names and
attributes as 1.9.1 prints them)."""
import mxnet as mx


def test_number_parameters_use_random_ops():
    s = mx.sym.random.uniform(low=0, high=1, shape=(2,))
    assert s.name == "_random_uniform0" or s.name.startswith("_random_uniform")
    assert s.list_attr() == {"low": "0", "high": "1", "shape": "(2,)"}
    s = mx.sym.random.normal(0, 2, shape=(3,))
    assert s.name.startswith("_random_normal")
    assert s.list_attr() == {"loc": "0", "scale": "2", "shape": "(3,)"}
    assert s.eval()[0].shape == (3,)


def test_symbol_parameters_use_sample_ops():
    lo, hi = mx.sym.var("lo"), mx.sym.var("hi")
    s = mx.sym.random.uniform(lo, hi, shape=(2,))
    assert s.name.startswith("_sample_uniform")
    assert s.list_arguments() == ["lo", "hi"]
    out = s.eval(lo=mx.nd.zeros((3,)), hi=mx.nd.ones((3,)))[0].asnumpy()
    assert out.shape == (3, 2) and (out >= 0).all() and (out < 1).all()
