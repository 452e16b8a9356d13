"""Compatibility sweep of the API surface against 1.9.1: ``dtype=None`` in the generated
operator functions, names 1.9.1 offers that were missing, and keyword names / positional
orders of Python-level functions.

Expected outcomes were recorded by running MXNet 1.9.1 (NaiveEngine, CPU), except where a
comment gives a closed form or a property of a random draw instead.
"""
import inspect
import json
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

nd, I = mx.nd, mx.nd._internal
X = nd.array([[1., 2., 3.], [4., 5., 6.]])
IDX = nd.array([0, 2, 1])
P = nd.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
W = nd.array(np.arange(6).reshape(3, 2))


@pytest.fixture(autouse=True)
def _fresh_names():
    # automatic node names (retain0, _plus0 ...) count from 0 in each test
    with mx.name.NameManager():
        yield


# --- dtype=None: 1.9.1's generated functions pass np.dtype(None).name, i.e. float64 ---------

_ND_DTYPE_NONE = [  # (id, call, dtype, shape) recorded from 1.9.1
    ("Cast", lambda: nd.Cast(X, dtype=None), "float64", (2, 3)),
    ("cast", lambda: nd.cast(X, dtype=None), "float64", (2, 3)),
    ("Embedding", lambda: nd.Embedding(IDX, W, input_dim=3, output_dim=2, dtype=None),
     "float32", (3, 2)),
    ("SparseEmbedding", lambda: nd.contrib.SparseEmbedding(IDX, W, input_dim=3, output_dim=2,
                                                           dtype=None), "float32", (3, 2)),
    ("_arange", lambda: I._arange(start=0, stop=3, dtype=None), "float64", (3,)),
    ("softmax", lambda: nd.softmax(X, dtype=None), "float64", (2, 3)),
    ("log_softmax", lambda: nd.log_softmax(X, dtype=None), "float64", (2, 3)),
    ("softmin", lambda: nd.softmin(X, dtype=None), "float64", (2, 3)),
    ("_eye", lambda: I._eye(N=2, dtype=None), "float64", (2, 2)),
    ("_full", lambda: I._full(shape=(2,), value=1, dtype=None), "float64", (2,)),
    ("_linspace", lambda: I._linspace(start=0, stop=1, num=3, dtype=None), "float64", (3,)),
    ("_ones", lambda: I._ones(shape=(2,), dtype=None), "float64", (2,)),
    ("_zeros", lambda: I._zeros(shape=(2,), dtype=None), "float64", (2,)),
    ("_random_uniform", lambda: I._random_uniform(shape=(2,), dtype=None), "float64", (2,)),
    ("_random_normal", lambda: I._random_normal(shape=(2,), dtype=None), "float64", (2,)),
    ("_random_exponential", lambda: I._random_exponential(shape=(2,), dtype=None), "float64",
     (2,)),
    ("_random_gamma", lambda: I._random_gamma(shape=(2,), dtype=None), "float64", (2,)),
    ("_random_poisson", lambda: I._random_poisson(shape=(2,), dtype=None), "float64", (2,)),
    ("_random_negative_binomial", lambda: I._random_negative_binomial(shape=(2,), dtype=None),
     "float64", (2,)),
    ("_random_generalized_negative_binomial",
     lambda: I._random_generalized_negative_binomial(shape=(2,), dtype=None), "float64", (2,)),
    ("random_uniform", lambda: nd.random_uniform(shape=(2,), dtype=None), "float64", (2,)),
    ("_sample_uniform", lambda: I._sample_uniform(IDX, IDX + 1, dtype=None), "float64", (3,)),
    ("_sample_normal", lambda: I._sample_normal(IDX, IDX + 1, dtype=None), "float64", (3,)),
    ("_sample_exponential", lambda: I._sample_exponential(IDX + 1, dtype=None), "float64",
     (3,)),
    ("_sample_gamma", lambda: I._sample_gamma(IDX + 1, IDX + 1, dtype=None), "float64", (3,)),
    ("_sample_poisson", lambda: I._sample_poisson(IDX + 1, dtype=None), "float64", (3,)),
    ("_sample_negative_binomial",
     lambda: I._sample_negative_binomial(IDX + 1, IDX * 0 + 0.5, dtype=None), "float64", (3,)),
    ("_sample_multinomial", lambda: I._sample_multinomial(P, dtype=None), "float64", (2,)),
    ("sample_multinomial", lambda: nd.sample_multinomial(P, dtype=None), "float64", (2,)),
    ("argsort", lambda: nd.argsort(X, dtype=None), "float64", (2, 3)),
    ("topk", lambda: nd.topk(X, dtype=None), "float64", (2, 1)),
    ("topk_both", lambda: nd.topk(X, ret_typ="both", dtype=None)[1], "float64", (2, 1)),
    ("one_hot", lambda: nd.one_hot(IDX, 3, dtype=None), "float64", (3, 3)),
    ("op.one_hot", lambda: nd.op.one_hot(IDX, 3, dtype=None), "float64", (3, 3)),
    # other parameters keep None as "not given"
    ("norm_out_dtype", lambda: nd.norm(X, out_dtype=None), "float32", (1,)),
    # the Python-level creators: arange/linspace follow np.dtype(None), the others float32
    ("arange", lambda: nd.arange(3, dtype=None), "float64", (3,)),
    ("linspace", lambda: nd.linspace(0, 1, 3, dtype=None), "float64", (3,)),
    ("eye", lambda: nd.eye(2, dtype=None), "float32", (2, 2)),
    ("zeros", lambda: nd.zeros((2,), dtype=None), "float32", (2,)),
    ("full", lambda: nd.full((2,), 3, dtype=None), "float32", (2,)),
    ("array", lambda: nd.array([1, 2], dtype=None), "float32", (2,)),
    # mx.np keeps None as the default
    ("np.indices", lambda: mx.np.indices((2,), dtype=None), "int32", (1, 2)),
    ("np.zeros", lambda: mx.np.zeros((2,), dtype=None), "float32", (2,)),
    ("np.sum", lambda: mx.np.sum(mx.np.array([1., 2.]), dtype=None), "float32", ()),
    ("npx.one_hot", lambda: mx.npx.one_hot(mx.np.array([0, 1]), 3, dtype=None), "float32",
     (2, 3)),
]


@pytest.mark.parametrize("call,dtype,shape", [c[1:] for c in _ND_DTYPE_NONE],
                         ids=[c[0] for c in _ND_DTYPE_NONE])
def test_nd_dtype_none(call, dtype, shape):
    res = call()
    assert np.dtype(res.dtype).name == dtype
    assert res.shape == shape


def test_nd_dtype_none_values():
    # recorded from 1.9.1
    assert nd.Cast(X, dtype=None).asnumpy().tolist() == [[1, 2, 3], [4, 5, 6]]
    assert nd.one_hot(IDX, 3, dtype=None).asnumpy().tolist() == [[1, 0, 0], [0, 0, 1],
                                                                   [0, 1, 0]]
    assert nd.topk(X, dtype=None).asnumpy().tolist() == [[2.0], [2.0]]
    np.testing.assert_allclose(nd.softmax(X, dtype=None).asnumpy()[0],
                               [0.09003057, 0.24472847, 0.66524096], rtol=1e-6)


@pytest.mark.parametrize("call", [
    lambda: I._random_randint(low=0, high=5, shape=(2,), dtype=None),   # float64 is refused
    lambda: nd.random.randint(0, 5, shape=(2,), dtype=None),
    lambda: nd.contrib.quantize(X, nd.array([0.]), nd.array([6.]), out_type=None),
    lambda: nd.contrib.quantize_v2(X, out_type=None),
    lambda: nd.contrib.dequantize(nd.array([1, 2], dtype="uint8"), nd.array([0.]),
                                  nd.array([6.]), out_type=None),
])
def test_nd_dtype_none_errors(call):
    # recorded from 1.9.1: MXNetError
    with pytest.raises(MXNetError):
        call()


def test_dtype_none_leaves_gradient_rules_alone():
    # the rules pass their (unset) dtype on through mx.nd: gradients keep the input's type
    x = nd.array([[1., 2., 3.]])
    x.attach_grad()
    with mx.autograd.record():
        y = nd.log_softmax(x)
    y.backward()
    assert x.grad.dtype == np.float32
    soft = np.exp([1., 2., 3.]) / np.exp([1., 2., 3.]).sum()
    np.testing.assert_allclose(x.grad.asnumpy(), [1 - 3 * soft], rtol=1e-5)   # closed form


def test_sym_dtype_none():
    v = mx.sym.var("x")
    # recorded from 1.9.1: Symbol.astype(None) and Cast(dtype=None) store 'float64'
    for s in (v.astype(None), v.astype(dtype=None), mx.sym.Cast(v, dtype=None)):
        assert list(s.attr_dict().values())[0]["dtype"] == "float64"
        out = s.bind(mx.cpu(), {"x": X}).forward()[0]
        assert out.dtype == np.float64
    with pytest.raises(MXNetError):
        v.astype()   # 1.9.1: the required dtype is missing
    # mx.sym.np.indices leaves a None dtype out of the node (the op's int32)
    node = json.loads(mx.sym.np.indices((2,), dtype=None).tojson())["nodes"][-1]
    assert "dtype" not in node["attrs"]
    # eye and the windows: float32 by default, a None dtype is left out (recorded from 1.9.1)
    for make in (lambda d: mx.sym.np.eye(2, dtype=d), lambda d: mx.sym.np.hanning(3, dtype=d),
                 lambda d: mx.sym.np.blackman(3, dtype=d)):
        assert "dtype" not in json.loads(make(None).tojson())["nodes"][-1]["attrs"]
        assert json.loads(make(np.float32).tojson())["nodes"][-1]["attrs"]["dtype"] == "float32"
    assert inspect.signature(mx.sym.np.eye).parameters["dtype"].default is np.float32
    assert mx.sym.np.eye(2, dtype=None).as_nd_ndarray().eval()[0].dtype == np.float32
    with pytest.raises(MXNetError, match="Required parameter dtype"):
        mx.sym.var("x").as_np_ndarray().astype(None)


# --- names -----------------------------------------------------------------------------------

def test_sym_sparse_retain():
    s = mx.sym.sparse.retain(mx.sym.var("d"), mx.sym.var("i"))
    node = json.loads(s.tojson())["nodes"][-1]
    assert (node["op"], node["name"]) == ("_sparse_retain", "retain0")   # as 1.9.1
    assert s.infer_shape(d=(4, 3), i=(2,)) == ([(4, 3), (2,)], [(4, 3)], [])
    d = nd.array(np.arange(12).reshape(4, 3)).tostype("row_sparse")
    out = s.bind(mx.cpu(), {"d": d, "i": nd.array([0, 2])}).forward()[0]
    # recorded from 1.9.1
    assert out.stype == "row_sparse"
    assert out.asnumpy().tolist() == [[0, 1, 2], [0, 0, 0], [6, 7, 8], [0, 0, 0]]


def test_sym_sparse_adagrad_update_cannot_compose():
    # 1.9.1 lists it but composing it fails ("Not enough argument to call operator ...")
    with pytest.raises(MXNetError, match="Not enough argument"):
        mx.sym.sparse.adagrad_update(weight=mx.sym.var("w"), grad=mx.sym.var("g"),
                                     history=mx.sym.var("h"), lr=0.1)


_LEGACY_BINARY = {  # name -> (operator in the JSON, first 4 values of name(a + 1, 3))
    "_Plus": ("elemwise_add", [4, 5, 6, 7]), "_Minus": ("elemwise_sub", [-2, -1, 0, 1]),
    "_Mul": ("elemwise_mul", [3, 6, 9, 12]), "_Div": ("elemwise_div", [1 / 3, 2 / 3, 1, 4 / 3]),
    "_Mod": ("_mod", [1, 2, 0, 1]), "_Power": ("_power", [1, 8, 27, 64]),
    "_Maximum": ("_maximum", [3, 3, 3, 4]), "_Minimum": ("_minimum", [1, 2, 3, 3]),
    "_Equal": ("_equal", [0, 0, 1, 0]), "_Not_Equal": ("_not_equal", [1, 1, 0, 1]),
    "_Greater": ("_greater", [0, 0, 0, 1]), "_Greater_Equal": ("_greater_equal", [0, 0, 1, 1]),
    "_Lesser": ("_lesser", [1, 1, 0, 0]), "_Lesser_Equal": ("_lesser_equal", [1, 1, 1, 0]),
    "_Logical_And": ("_logical_and", [1, 1, 1, 1]),
}
_LEGACY_SCALAR = {  # name -> (operator, first 4 values of name(a + 1, scalar=3))
    "_PlusScalar": ("_plus_scalar", [4, 5, 6, 7]), "_MinusScalar": ("_minus_scalar", [-2, -1, 0, 1]),
    "_MulScalar": ("_mul_scalar", [3, 6, 9, 12]), "_RMinusScalar": ("_rminus_scalar", [2, 1, 0, -1]),
    "_RDivScalar": ("_rdiv_scalar", [3, 1.5, 1, 0.75]), "_PowerScalar": ("_power_scalar", [1, 8, 27, 64]),
    "_RPowerScalar": ("_rpower_scalar", [3, 9, 27, 81]), "_ModScalar": ("_mod_scalar", [1, 2, 0, 1]),
    "_GreaterEqualScalar": ("_greater_equal_scalar", [0, 0, 1, 1]),
    "_LogicalXorScalar": ("_logical_xor_scalar", [0, 0, 0, 0]),
}


@pytest.mark.parametrize("name", sorted(_LEGACY_BINARY))
def test_legacy_binary_names(name):
    a = nd.array(np.arange(12).reshape(3, 4))
    opname, vals = _LEGACY_BINARY[name]
    res = getattr(I, name)(a + 1, a * 0 + 3)
    np.testing.assert_allclose(res.asnumpy().ravel()[:4], vals, rtol=1e-6)
    s = getattr(mx.sym._internal, name)(mx.sym.var("a"), mx.sym.var("b"))
    assert s.name == name.lower() + "0"     # recorded from 1.9.1: _plus0, _greater_equal0 ...
    assert json.loads(s.tojson())["nodes"][-1]["op"] == opname


@pytest.mark.parametrize("name", sorted(_LEGACY_SCALAR))
def test_legacy_scalar_names(name):
    a = nd.array(np.arange(12).reshape(3, 4))
    opname, vals = _LEGACY_SCALAR[name]
    np.testing.assert_allclose(getattr(I, name)(a + 1, scalar=3).asnumpy().ravel()[:4], vals,
                               rtol=1e-6)
    node = json.loads(getattr(mx.sym._internal, name)(mx.sym.var("a"), scalar=3).tojson())
    assert node["nodes"][-1]["op"] == opname
    assert node["nodes"][-1]["name"] == name.lower() + "0"


def test_old_json_with_camel_case_ops_loads():
    js = {"nodes": [{"op": "null", "name": "a", "inputs": []},
                    {"op": "null", "name": "b", "inputs": []},
                    {"op": "_Plus", "name": "p", "inputs": [[0, 0, 0], [1, 0, 0]]},
                    {"op": "_MulScalar", "name": "m", "attrs": {"scalar": "2"},
                     "inputs": [[2, 0, 0]]}],
          "arg_nodes": [0, 1], "node_row_ptr": [0, 1, 2, 3, 4], "heads": [[3, 0, 0]],
          "attrs": {"mxnet_version": ["int", 10901]}}
    s = mx.sym.load_json(json.dumps(js))
    nodes = json.loads(s.tojson())["nodes"]
    # recorded from 1.9.1: saved under today's names
    assert [n["op"] for n in nodes[2:]] == ["elemwise_add", "_mul_scalar"]
    assert s.eval(a=nd.ones(2), b=nd.ones(2))[0].asnumpy().tolist() == [4, 4]


def test_slice_assign_family():
    a = nd.array(np.arange(12).reshape(3, 4))
    b = nd.ones((2, 2)) * -1
    # recorded from 1.9.1
    assert I._slice_assign(a, b, begin=(1, 1), end=(3, 3)).asnumpy().tolist() == \
        [[0, 1, 2, 3], [4, -1, -1, 7], [8, -1, -1, 11]]
    assert I._slice_assign(a, b, begin=(0, 0), end=(None, None), step=(2, 2)).asnumpy() \
        .tolist() == [[-1, 1, -1, 3], [4, 5, 6, 7], [-1, 9, -1, 11]]
    assert I._slice_assign_scalar(a, scalar=7, begin=(0, 1), end=(2, 3)).asnumpy().tolist() \
        == [[0, 7, 7, 3], [4, 7, 7, 7], [8, 9, 10, 11]]
    assert I._crop_assign_scalar(a, scalar=7, begin=(0,), end=(1,)).asnumpy().tolist() == \
        [[7, 7, 7, 7], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert a.asnumpy().tolist() == np.arange(12).reshape(3, 4).tolist()   # not in place
    assert I._grad_add(a, a).asnumpy().tolist() == (2 * np.arange(12)).reshape(3, 4).tolist()
    assert I._identity_with_attr_like_rhs(a, a * 2).asnumpy().tolist() == a.asnumpy().tolist()
    s = mx.sym._internal._slice_assign(mx.sym.var("a"), mx.sym.var("b"), begin=(1, 1),
                                       end=(3, 3))
    node = json.loads(s.tojson())["nodes"][-1]
    assert (node["op"], node["name"]) == ("_slice_assign", "_slice_assign0")
    assert s.infer_shape(a=(3, 4)) == ([(3, 4), (2, 2)], [(3, 4)], [])
    assert mx.sym._internal._crop_assign_scalar(mx.sym.var("a"), scalar=2, begin=(1,),
                                                end=(2,)).name == "_crop_assign_scalar0"
    with pytest.raises(MXNetError):
        I._slice_assign(a, nd.ones((3, 3)), begin=(1, 1), end=(3, 3))


def test_module_level_front_ends():
    from mxnet.ndarray.ndarray import moveaxis, onehot_encode, power, zeros
    from mxnet.symbol.symbol import load_json, pow as sym_pow, zeros as sym_zeros
    assert zeros((2,)).asnumpy().tolist() == [0, 0]
    assert power(nd.array([2.]), 3).asnumpy().tolist() == [8]
    assert callable(moveaxis) and callable(onehot_encode) and callable(load_json)
    assert sym_zeros((2,)).name.startswith("_zeros")
    assert isinstance(sym_pow(mx.sym.var("a"), 2), mx.sym.Symbol)
    assert mx.rnd is mx.random and mx.img is mx.image


def test_module_paths():
    from mxnet.executor import Executor
    from mxnet.gluon.contrib.nn.basic_layers import HybridConcurrent
    import mxnet.contrib.onnx as onnx
    import mxnet.ndarray.gen_random as gen_random
    ex = (mx.sym.var("a") * 2).bind(mx.cpu(), {"a": nd.ones(2)})
    assert isinstance(ex, Executor)
    assert HybridConcurrent is mx.gluon.contrib.nn.HybridConcurrent
    assert mx.contrib.quant is mx.contrib.quantization
    assert onnx.export_model_ is onnx.export_model and onnx.import_model_ is onnx.import_model
    # 1.9.1's gen_random: the _random_ operators without their prefix
    assert sorted(n for n in gen_random.__all__)[:4] == [
        "exponential", "exponential_like", "gamma", "gamma_like"]
    assert gen_random.uniform(shape=(2,)).shape == (2,)


def test_registry_get_registry():
    # recorded from 1.9.1 (each gluon Constant registers one more, "constant_<name>_<id>", as
    # in 1.9.1: left out, so the result does not depend on the tests run before)
    names = [n for n in mx.registry.get_registry(mx.init.Initializer) if not n.startswith(
        "constant_")]
    assert sorted(names)[:8] == \
        ["bilinear", "constant", "fusedrnn", "lstmbias", "msraprelu", "normal", "one", "ones"]
    assert "pearsonr" in mx.registry.get_registry(mx.metric.EvalMetric)
    assert mx.registry.get_registry(type("Foo", (), {})) == {}


def test_util_ufunc_helpers():
    U = mx.util
    # recorded from 1.9.1
    cases = [("where", False, True), ("casting", "bogus", False), ("casting", "no", True),
             ("order", "Z", True), ("order", None, False), ("dtype", "bogus", False),
             ("dtype", np.float32, True), ("dtype", int, False), ("dtype", None, False),
             ("subok", 1, False), ("subok", False, True), ("out", None, False)]
    assert [U.np_ufunc_legal_option(k, v) for k, v, _ in cases] == [r for _, _, r in cases]
    un = U.wrap_np_unary_func(lambda x, out=None: x)
    bi = U.wrap_np_binary_func(lambda x, y, out=None: x + y)
    assert un(2, where=True, casting="same_kind", order="K", dtype=None, subok=True) == 2
    assert bi(1, 2) == 3
    with pytest.raises(NotImplementedError, match="where=False is not implemented yet"):
        un(1, where=False)
    with pytest.raises(NotImplementedError, match="dtype=float32 is not implemented yet"):
        bi(1, 2, dtype="float32")
    with pytest.raises(TypeError, match="foo is an invalid keyword"):
        bi(1, 2, foo=1)
    with pytest.raises(ValueError, match="Expecting a gpu context"):
        U.get_cuda_compute_capability(mx.cpu())
    assert mx.npx.get_cuda_compute_capability is U.get_cuda_compute_capability

    @U.set_module("mxnet.foo")
    def f():
        pass
    assert f.__module__ == "mxnet.foo"


def test_base_helpers():
    B = mx.base
    # recorded from 1.9.1
    assert B.build_param_doc(["a", "b", "a"], ["int", "float, optional"],
                             ["first arg", "second"]) == \
        "Parameters\n----------\na : int\n    first arg\nb : float, optional\n    second\n"
    assert B.build_param_doc(["a", "a"], ["int", "int"], ["x", "y"], remove_dup=False) == \
        "Parameters\n----------\na : int\n    x\na : int\n    y\n"
    assert B.build_param_doc([], [], []) == "Parameters\n----------\n\n"
    assert B.py_str(b"x\xc3\xa9") == "x\u00e9" and B.c_str("h").value == b"h"

    class Meta(type):
        pass

    class K(B.with_metaclass(Meta, object)):
        pass
    assert type(K) is Meta and K.__mro__ == (K, object)

    class C:
        _v = 3

        @B.classproperty
        def v(cls):
            return cls._v
    assert C.v == 3 and C().v == 3

    @B.register_error
    class ApiSurfaceError(MXNetError):
        pass
    try:
        assert B.error_types["ApiSurfaceError"] is ApiSurfaceError
    finally:   # the registry is global: leave it as the other tests expect it
        B.error_types.pop("ApiSurfaceError", None)


def test_context_default_ctx():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert mx.Context.default_ctx == mx.cpu(0)
        with mx.Context(mx.cpu(2)):
            assert mx.Context.default_ctx == mx.cpu(2)
        mx.Context.default_ctx = mx.cpu(1)
        try:   # recorded from 1.9.1: assigning it changes the default context
            assert mx.current_context() == mx.cpu(1)
            assert nd.zeros(1).context == mx.cpu(1)
        finally:
            mx.Context.default_ctx = mx.cpu(0)
    with pytest.warns(DeprecationWarning):
        mx.Context.default_ctx   # noqa: B018


def test_dataloader_v1():
    from mxnet.gluon.data.dataloader import DataLoaderV1
    ds = mx.gluon.data.ArrayDataset(nd.arange(10), nd.arange(10) * 2)
    batches = [(x.asnumpy().tolist(), y.asnumpy().tolist())
               for x, y in DataLoaderV1(ds, batch_size=4, last_batch="discard")]
    assert batches == [([0, 1, 2, 3], [0, 2, 4, 6]), ([4, 5, 6, 7], [8, 10, 12, 14])]
    assert list(inspect.signature(DataLoaderV1).parameters) == [
        "dataset", "batch_size", "shuffle", "sampler", "last_batch", "batch_sampler",
        "batchify_fn", "num_workers", "pin_memory", "pin_device_id"]


# --- keyword names and positional orders --------------------------------------------------------

def test_np_reduction_positional_order():
    x = mx.np.array([[1., 2., 3.], [4., 5., 7.]])
    # recorded from 1.9.1: max/min/all/any take (a, axis, keepdims, out); sum (a, axis,
    # dtype, keepdims, initial, out); std/var (a, axis, dtype, out, ddof, keepdims)
    assert mx.np.max(x, 0, True).asnumpy().tolist() == [[4, 5, 7]]
    assert mx.np.min(x, 1, True).asnumpy().tolist() == [[1], [4]]
    assert mx.np.amax(x, 1, True).asnumpy().tolist() == [[3], [7]]
    assert mx.np.all(x, 0, True).shape == (1, 3)
    assert mx.np.any(x, 0, True).shape == (1, 3)
    assert mx.np.sometrue(x, 0, True).shape == (1, 3)
    assert mx.np.sum(x, 0, None, True).asnumpy().tolist() == [[5, 7, 10]]
    out = mx.np.zeros((3,))
    assert mx.np.sum(x, 0, None, False, None, out) is out
    assert out.asnumpy().tolist() == [5, 7, 10]
    np.testing.assert_allclose(mx.np.std(x, 0, None, None, 1).asnumpy(),
                               [2.1213202, 2.1213202, 2.828427], rtol=1e-6)
    assert mx.np.var(x, 0, None, None, 1, True).asnumpy().tolist() == [[4.5, 4.5, 8.0]]
    assert mx.np.mean(x, 0, None, None, True).asnumpy().tolist() == [[2.5, 3.5, 5.0]]
    assert x.any(0, None, True).shape == (1, 3)
    assert x.sum(0, None, None, True).asnumpy().tolist() == [[5, 7, 10]]
    assert list(inspect.signature(mx.np.max).parameters) == ["a", "axis", "keepdims", "out"]
    with pytest.raises(TypeError):
        mx.np.max(x, 0, True, None, 1)


def test_np_keywords():
    x = mx.np.array([[1., 2., 3.], [4., 5., 6.]])
    assert x.argsort(kind="stable").asnumpy().tolist() == [[0, 1, 2], [0, 1, 2]]
    with pytest.raises(NotImplementedError, match="order not supported"):
        x.argsort(order="a")
    assert mx.np.reshape(x, (3, 2), out=mx.np.zeros((3, 2))).shape == (3, 2)
    assert mx.np.squeeze(x.reshape(1, 2, 3), out=mx.np.zeros((2, 3))).shape == (2, 3)
    out = mx.np.zeros((4, 3))
    assert mx.np.vstack([x, x], out=out) is out
    assert out.asnumpy()[2:].tolist() == [[1, 2, 3], [4, 5, 6]]
    assert list(inspect.signature(mx.np.diag).parameters) == ["array", "k"]


def test_npx_keywords():
    npx, np_ = mx.npx, mx.np
    x = np_.array([[1., 2., 3.], [4., 5., 6.]])
    i = np_.array([0., 2.])
    # recorded from 1.9.1
    assert npx.pick(x, i, 1, True).asnumpy().tolist() == [[1], [6]]
    assert npx.pick(data=x, index=i, axis=1, keepdims=False, mode="wrap").asnumpy().tolist() \
        == [1, 6]
    assert npx.one_hot(indices=i, depth=3).asnumpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    assert npx.batch_dot(lhs=x.reshape(1, 2, 3), rhs=x.reshape(1, 3, 2)).asnumpy().tolist() \
        == [[[22, 28], [49, 64]]]
    assert npx.batch_flatten(data=x.reshape(2, 3, 1)).shape == (2, 3)
    assert npx.fully_connected(data=x, weight=np_.ones((2, 3)), num_hidden=2,
                               no_bias=True).asnumpy().tolist() == [[6, 6], [15, 15]]
    assert npx.pooling(x.reshape(1, 1, 2, 3), (2, 2), "avg").asnumpy().tolist() == \
        [[[[3, 4]]]]
    assert npx.pooling(data=x.reshape(1, 1, 2, 3), kernel=(1, 2), pool_type="max",
                       stride=(1, 1), pooling_convention="full").asnumpy().tolist() == \
        [[[[2, 3], [5, 6]]]]
    bn = npx.batch_norm(data=x.reshape(1, 2, 3), gamma=np_.ones((2,)), beta=np_.zeros((2,)),
                        moving_mean=np_.zeros((2,)), moving_var=np_.ones((2,)),
                        use_global_stats=True)
    np.testing.assert_allclose(bn.asnumpy()[0, 0], [0.9995, 1.999, 2.9985], rtol=1e-5)


def test_transform_keywords():
    from mxnet.gluon.data.vision import transforms as T
    img = nd.array(np.full((2, 2, 3), 100, dtype=np.uint8), dtype="uint8")
    for cls, kw in ((T.RandomBrightness, "brightness"), (T.RandomContrast, "contrast"),
                    (T.RandomSaturation, "saturation"), (T.RandomHue, "hue")):
        assert list(inspect.signature(cls).parameters) == [kw]
        t = cls(**{kw: 0})   # an amount of 0 leaves the image unchanged
        assert t(img).asnumpy().tolist() == img.asnumpy().tolist()


def test_misc_signatures():
    assert nd.power(base=nd.array([2.]), exp=3).asnumpy().tolist() == [8]
    a = np.arange(3, dtype="float32")
    r = nd.from_numpy(a, True, mx.np.ndarray)
    assert type(r) is mx.np.ndarray and r.asnumpy().tolist() == [0, 1, 2]
    assert type(nd.from_numpy(np.arange(3, dtype="float32"), array_cls=nd.NDArray)) is \
        nd.NDArray
    g = mx.sym.Group([mx.sym.var("a"), mx.sym.var("b")], create_fn=mx.sym.Symbol)
    assert g.list_outputs() == ["a", "b"]
    assert inspect.signature(nd.arange).parameters["dtype"].default is np.float32
    assert inspect.signature(nd.full).parameters["dtype"].default is np.float32


# --- the deprecated Python operators (mx.operator.NumpyOp / NDArrayOp / PythonOp) ----------------

def _legacy_ops():
    class Sq(mx.operator.NumpyOp):
        def __init__(self):
            super().__init__(True)

        def list_arguments(self):
            return ["data", "w"]

        def list_outputs(self):
            return ["output", "twice"]

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0], in_shape[0]]

        def forward(self, in_data, out_data):
            out_data[0][:] = in_data[0] ** 2 * in_data[1]
            out_data[1][:] = in_data[0] * 2

        def backward(self, out_grad, in_data, out_data, in_grad):
            in_grad[0][:] = 2 * in_data[0] * in_data[1] * out_grad[0] + 2 * out_grad[1]
            in_grad[1][:] = in_data[0] ** 2 * out_grad[0]

    class Tw(mx.operator.NDArrayOp):
        def forward(self, in_data, out_data):
            out_data[0][:] = in_data[0] * 3

        def backward(self, out_grad, in_data, out_data, in_grad):
            in_grad[0][:] = out_grad[0] * 3
    return Sq, Tw


def test_numpy_op_and_ndarray_op():
    Sq, Tw = _legacy_ops()
    with pytest.warns(UserWarning, match="NumpyOp has been deprecated"):
        op = Sq()
    s = op(data=mx.sym.var("x"), w=mx.sym.var("w"), name="sq")
    # recorded from 1.9.1
    assert s.list_arguments() == ["x", "w"]
    assert s.list_outputs() == ["sq_output", "sq_twice"]
    assert s.infer_shape(x=(3,), w=(3,)) == ([(3,), (3,)], [(3,), (3,)], [])
    ex = s.bind(mx.cpu(), {"x": nd.array([1., 2., 3.]), "w": nd.array([1., 1., 2.])},
                args_grad={"x": nd.zeros(3), "w": nd.zeros(3)})
    assert [o.asnumpy().tolist() for o in ex.forward(is_train=True)] == [[1, 4, 18], [2, 4, 6]]
    ex.backward([nd.ones(3), nd.ones(3) * 0.5])
    assert ex.grad_dict["x"].asnumpy().tolist() == [3, 5, 13]
    assert ex.grad_dict["w"].asnumpy().tolist() == [1, 4, 9]
    with pytest.warns(UserWarning, match="NDArrayOp has been deprecated"):
        tw = Tw()
    t = tw(mx.sym.var("a"), name="tw")
    assert (t.list_arguments(), t.list_outputs()) == (["a"], ["tw_output"])
    ex = t.bind(mx.cpu(), {"a": nd.array([1., 2.])}, args_grad={"a": nd.zeros(2)})
    assert ex.forward(is_train=True)[0].asnumpy().tolist() == [3, 6]
    ex.backward(nd.ones(2))
    assert ex.grad_dict["a"].asnumpy().tolist() == [3, 3]
    assert issubclass(mx.operator.NumpyOp, mx.operator.PythonOp)


def test_sample_unique_zipfian():
    mx.random.seed(3)
    samples, trials = I._sample_unique_zipfian(range_max=750000, shape=(3, 2048))
    s = samples.asnumpy()
    assert samples.dtype == np.int64 and trials.dtype == np.int64   # as 1.9.1
    assert s.shape == (3, 2048) and trials.shape == (3,)
    assert all(len(np.unique(row)) == 2048 for row in s)
    assert s.min() >= 0 and s.max() < 750000
    assert (trials.asnumpy() >= 2048).all()
    # log-uniform: P(k) = log((k + 2) / (k + 1)) / log(range_max + 1); class 0 is the likeliest
    assert (s == 0).sum() == 3
    sym = mx.sym._internal._sample_unique_zipfian(range_max=10, shape=(2, 3))
    assert sym.infer_shape() == ([], [(2, 3), (2,)], [])
    assert sym.list_outputs() == ["_sample_unique_zipfian0_output0",
                                  "_sample_unique_zipfian0_output1"]   # as 1.9.1


def test_sym_np_names():
    # names 1.9.1's mx.sym.np offers (their values: tests/operator/test_np_sym_extra.py)
    for name in ("average", "diag_indices_from", "diff", "dsplit", "ediff1d", "empty_like",
                 "histogram", "hsplit", "may_share_memory", "polyval", "resize",
                 "shares_memory", "unravel_index"):
        assert callable(getattr(mx.sym.np, name)), name


def test_ndarray_method_signatures():
    x = nd.array([[1., 2.], [3., 4.]])
    # recorded from 1.9.1: inplace=True gives a reshaped view; broadcast_like takes ``other``
    v = x.expand_dims(axis=0, inplace=True)
    assert v.shape == (1, 2, 2)
    v[:] = 7
    assert x.asnumpy().tolist() == [[7, 7], [7, 7]]
    x = nd.array([[1., 2.], [3., 4.]])
    assert x.expand_dims(0, True).shape == (1, 2, 2)
    assert x.reshape((1, 2, 2)).squeeze(axis=0, inplace=True).shape == (2, 2)
    assert x.flatten(inplace=True).shape == (2, 2)
    assert x.diag(k=1).asnumpy().tolist() == [2]
    assert nd.array([[1.], [2.]]).broadcast_like(other=nd.zeros((2, 3))).asnumpy().tolist() \
        == [[1, 1, 1], [2, 2, 2]]
    with pytest.raises(TypeError):
        nd.array([1.]).broadcast_like(nd.zeros((2, 2)), lhs_axes=None)
    with pytest.raises(MXNetError):
        x.squeeze(axis=0, inplace=True)


def test_sym_np_reduction_positional_order():
    a = mx.sym.var("a").as_np_ndarray()
    S = mx.sym.np

    def attrs(s):
        return [n for n in json.loads(s.tojson())["nodes"] if n["op"] != "null"][-1]["attrs"]
    # recorded from 1.9.1
    assert attrs(S.max(a, 1, True)) == {"axis": "1", "keepdims": "True"}
    assert attrs(S.min(a, 0, False)) == {"axis": "0", "keepdims": "False"}
    assert attrs(S.sum(a, 0, None, True)) == {"axis": "0", "keepdims": "True"}
    assert attrs(S.sum(a, 0, "float64", True)) == {"axis": "0", "dtype": "float64",
                                                   "keepdims": "True"}
    assert attrs(S.prod(a, 1, None, True)) == {"axis": "1", "keepdims": "True"}
    assert attrs(S.all(a, 0, True)) == {"axis": "0", "keepdims": "True"}
    assert attrs(S.sometrue(a, 1, True)) == {"axis": "1", "keepdims": "True"}
    assert attrs(S.squeeze(a=a, axis=0)) == {"axis": "0"}
    assert attrs(S.argsort(a, -1, "stable")) == {"axis": "-1", "dtype": "int64",
                                                 "is_ascend": "True"}
    assert attrs(S.sort(a, kind="stable")) == {"axis": "-1", "is_ascend": "True"}
    out = S.max(a, 1, True).as_nd_ndarray().eval(a=nd.array([[1., 5.], [3., 2.]]))[0]
    assert out.asnumpy().tolist() == [[5], [3]]


def test_np_symbol_members():
    a = mx.sym.var("a").as_np_ndarray()
    assert a.num_outputs == 1   # recorded from 1.9.1
    node = json.loads(a.cumsum(axis=0, dtype="float64").tojson())["nodes"][-1]
    assert (node["op"], node["name"], node["attrs"]) == ("_np_cumsum", "cumsum0",
                                                         {"axis": "0", "dtype": "float64"})


def test_np_reshape_view():
    a = mx.np.arange(6)
    v = a.reshape_view(2, 3)
    assert type(v) is mx.np.ndarray and v.shape == (2, 3)
    v[0, 0] = 9   # recorded from 1.9.1: the write shows in ``a``
    assert a.asnumpy().tolist() == [9, 1, 2, 3, 4, 5]
    assert a.reshape_view((3, 2)).shape == (3, 2) and a.reshape_view(-1, 2).shape == (3, 2)
