"""Symbol.list_attr() / attr_dict() report keys in 1.9.1's order.

1.9.1 keeps a node's attributes in a C++ hash map and lists them in its iteration order;
every expected key order below was recorded by running MXNet 1.9.1.
"""
import copy

import mxnet as mx


def _keys(sym):
    return list(sym.list_attr())


def test_operator_parameters_order():
    x = mx.sym.Variable("x")
    c = mx.sym.Convolution(x, kernel=(3, 3), num_filter=8, stride=(2, 2), pad=(1, 1),
                           no_bias=True, name="c")
    assert _keys(c) == ["num_filter", "pad", "stride", "no_bias", "kernel"]   # 1.9.1
    p = mx.sym.Pooling(c, kernel=(2, 2), pool_type="max", stride=(2, 2), name="p")
    assert _keys(p) == ["stride", "pool_type", "kernel"]   # 1.9.1
    bn = mx.sym.BatchNorm(p, fix_gamma=False, eps=1e-3, momentum=0.8, name="bn")
    assert _keys(bn) == ["fix_gamma", "momentum", "eps"]   # 1.9.1
    assert _keys(mx.sym.reshape(x, shape=(2, -1))) == ["shape"]


def test_many_parameters_and_scope_attributes():
    x = mx.sym.Variable("x")
    kw = dict(kernel=(3, 3), num_filter=8, stride=(2, 2), dilate=(1, 1), pad=(1, 1),
              num_group=1, workspace=512, no_bias=True, cudnn_tune="off", cudnn_off=True,
              layout="NCHW")
    c2 = mx.sym.Convolution(x, name="c2", **kw)
    assert _keys(c2) == ["cudnn_tune", "workspace", "layout", "cudnn_off", "pad",   # 1.9.1
                         "num_filter", "dilate", "num_group", "stride", "no_bias", "kernel"]
    with mx.AttrScope(ctx_group="g", __a1__="1", __a2__="2", __a3__="3"):
        c3 = mx.sym.Convolution(x, name="c3", **kw)
    assert _keys(c3) == ["layout", "cudnn_tune", "no_bias", "__ctx_group__", "ctx_group",  # 1.9.1
                         "__a1__", "__a2__", "__a3__", "stride", "cudnn_off", "num_group",
                         "workspace", "kernel", "dilate", "num_filter", "pad"]
    with mx.AttrScope(ctx_group="g1", __aa__="1", __bb__="2"):
        s = mx.sym.softmax(x, axis=1, name="s")
    assert _keys(s) == ["axis", "__bb__", "__aa__", "__ctx_group__", "ctx_group"]   # 1.9.1


def test_user_attr_and_later_set_attr():
    x = mx.sym.Variable("x")
    fc = mx.sym.FullyConnected(x, num_hidden=10, name="fc",
                               attr={"__ctx_group__": "dev1", "__foo__": "bar",
                                     "__lr_mult__": "3"})
    assert _keys(fc) == ["num_hidden", "__lr_mult__", "lr_mult", "__foo__",   # 1.9.1
                         "__ctx_group__", "ctx_group"]
    f2 = mx.sym.FullyConnected(x, num_hidden=4, no_bias=False, flatten=True, name="f2")
    f2._set_attr(__zz__="1", __lr_mult__="5", ctx_group="dd")
    assert _keys(f2) == ["__ctx_group__", "ctx_group", "__lr_mult__", "lr_mult",   # 1.9.1
                         "__zz__", "flatten", "no_bias", "num_hidden"]


def test_variadic_operators_put_count_last_inserted():
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    assert _keys(mx.sym.concat(x, y, dim=1)) == ["num_args", "dim"]   # 1.9.1
    assert _keys(mx.sym.concat(x, y, attr={"__q__": "1"})) == ["num_args", "__q__"]   # 1.9.1
    with mx.AttrScope(__g__="z"):
        assert _keys(mx.sym.add_n(x, y, x)) == ["num_args", "__g__"]   # 1.9.1


def test_variable_attributes_order():
    w = mx.sym.Variable("w", shape=(3, 4), dtype="float32", init=mx.init.Xavier(),
                        lr_mult=2.0, wd_mult=0.5)
    assert _keys(w) == ["__init__", "__dtype__", "__wd_mult__", "wd_mult",   # 1.9.1
                        "__lr_mult__", "lr_mult", "__shape__"]
    v3 = mx.sym.Variable("v3", attr={"__k%d__" % i: str(i) for i in range(11)})
    assert _keys(v3) == ["__k8__", "__k9__", "__k7__", "__k10__", "__k5__", "__k3__",   # 1.9.1
                         "__k6__", "__k4__", "__k2__", "__k1__", "__k0__"]
    # twelve keys: the map grows (and re-orders)
    v2 = mx.sym.Variable("v2", attr={"__k%d__" % i: str(i) for i in range(12)})
    assert _keys(v2) == ["__k1__", "__k11__", "__k2__", "__k3__", "__k5__", "__k4__",   # 1.9.1
                         "__k10__", "__k7__", "__k6__", "__k9__", "__k0__", "__k8__"]
    v = mx.sym.Variable("v", attr={"__k%d__" % i: str(i) for i in range(20)})
    assert _keys(v) == [   # 1.9.1
        "__k18__", "__k15__", "__k14__", "__k13__", "__k1__", "__k17__", "__k11__", "__k2__",
        "__k3__", "__k5__", "__k12__", "__k4__", "__k10__", "__k19__", "__k16__", "__k7__",
        "__k6__", "__k9__", "__k0__", "__k8__"]


def test_attr_dict_made_variables_and_copies():
    x = mx.sym.Variable("x")
    c = mx.sym.Convolution(x, kernel=(3, 3), num_filter=8, stride=(2, 2), pad=(1, 1),
                           no_bias=True, name="c")
    bn = mx.sym.BatchNorm(c, fix_gamma=False, eps=1e-3, momentum=0.8, name="bn")
    conv_keys = ["num_filter", "pad", "stride", "no_bias", "kernel"]   # 1.9.1
    bn_keys = ["fix_gamma", "momentum", "eps"]   # 1.9.1
    expected = [("c_weight", conv_keys), ("c", conv_keys), ("bn_gamma", bn_keys),   # 1.9.1
                ("bn_beta", bn_keys), ("bn_moving_mean", ["__init__"] + bn_keys),
                ("bn_moving_var", ["__init__"] + bn_keys), ("bn", bn_keys)]
    for sym in (bn, copy.copy(bn), copy.deepcopy(bn), bn(x=mx.sym.Variable("d"))):
        got = [(k, list(v)) for k, v in sym.attr_dict().items()]
        assert got == expected
    assert _keys(copy.deepcopy(c)) == conv_keys
    assert _keys(bn.get_internals()["c_output"]) == conv_keys
    # a weight the user gives keeps its own attributes
    w = mx.sym.Variable("fc2_weight", wd_mult=0.1)
    fc2 = mx.sym.FullyConnected(x, weight=w, num_hidden=4, name="fc2")
    assert list(fc2.attr_dict()["fc2_weight"]) == ["__wd_mult__", "wd_mult"]   # 1.9.1
