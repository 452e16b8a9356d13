"""Compatibility sweep: saving, loading, pickling and copying as users do it.

Expected values were recorded from MXNet 1.9.1 running the same calls.
"""
import copy
import os
import pickle

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon


def test_parameter_deepcopy_keeps_gradient_buffers():
    p = gluon.Parameter("w", shape=(2,), dtype="float16")
    p.initialize(init=mx.init.Constant(2.0))
    p.grad()[:] = 3
    q = copy.deepcopy(p)
    # recorded from 1.9.1: [3.0, 3.0] float16, data [2.0, 2.0], a separate array
    assert q.grad().asnumpy().tolist() == [3.0, 3.0]
    assert q.grad().dtype == np.float16
    assert q.data().asnumpy().tolist() == [2.0, 2.0]
    assert q.data() is not p.data() and q.grad() is not p.grad()
    q.grad()[:] = 5
    assert p.grad().asnumpy().tolist() == [3.0, 3.0]
    # a shallow copy shares the arrays (1.9.1: data() is the same object) and the gradient
    c = copy.copy(p)
    assert c.data() is p.data() and c.grad() is p.grad()
    # pickling keeps the gradient too
    r = pickle.loads(pickle.dumps(p))
    assert r.grad().asnumpy().tolist() == [3.0, 3.0]


def test_parameter_deepcopy_grad_req_null():
    p = gluon.Parameter("v", shape=(2,), grad_req="null")
    p.initialize()
    q = copy.deepcopy(p)
    # 1.9.1: RuntimeError "Cannot get gradient array for Parameter 'v' because grad_req='null'"
    with pytest.raises(RuntimeError, match="grad_req='null'"):
        q.grad()


def test_deepcopied_block_trains_independently():
    # 1.9.1 raises "Cannot differentiate node" here (its copied arrays lose their autograd
    # marks); that bug is not copied: the copy trains, with the closed-form gradient.
    net = gluon.nn.Dense(3, in_units=2, prefix="d_")
    net.initialize(mx.init.Constant(0.5))
    n2 = copy.deepcopy(net)
    with autograd.record():
        loss = n2(mx.nd.ones((1, 2))).sum()
    loss.backward()
    assert n2.weight.grad().asnumpy().tolist() == [[1.0, 1.0]] * 3
    assert net.weight.grad().asnumpy().tolist() == [[0.0, 0.0]] * 3


def test_pickle_block_after_use():
    # the per-device caches that running ops leave on a Context must not reach the pickle
    net = gluon.nn.Dense(3, in_units=2, prefix="d_")
    net.initialize(mx.init.Constant(0.5))
    n2 = copy.deepcopy(net)
    n2.weight.set_data(mx.nd.zeros((3, 2)))
    net(mx.nd.ones((1, 2)))
    r = pickle.loads(pickle.dumps(net))
    # recorded from 1.9.1: ('d_', [[1.0, 1.0, 1.0]])
    assert r.prefix == "d_"
    assert r(mx.nd.ones((1, 2))).asnumpy().tolist() == [[1.0, 1.0, 1.0]]


def test_context_pickle_layout_matches_191():
    # pickle.dumps([mx.gpu(1), mx.cpu(0)], protocol=2) as written by 1.9.1
    raw = (b"\x80\x02]q\x00(cmxnet.context\nContext\nq\x01)\x81q\x02}q\x03(X\r\x00\x00\x00"
           b"device_typeidq\x04K\x02X\t\x00\x00\x00device_idq\x05K\x01X\x08\x00\x00\x00"
           b"_old_ctxq\x06Nubh\x01)\x81q\x07}q\x08(h\x04K\x01h\x05K\x00h\x06Nube.")
    ctxs = pickle.loads(raw)
    assert ctxs == [mx.gpu(1), mx.cpu(0)]
    assert hash(ctxs[0]) == hash(mx.gpu(1))
    assert pickle.dumps([mx.gpu(1), mx.cpu(0)], protocol=2) == raw
    mx.nd.ones(1)   # fills cpu(0)'s run cache
    c = copy.deepcopy(mx.cpu(0))
    assert c == mx.cpu(0) and str(c) == "cpu(0)"
    with c:
        assert mx.nd.ones(1).context == mx.cpu(0)


def test_unpickled_cpu_arrays_land_on_cpu0():
    # recorded from 1.9.1: pickle, deepcopy and copy of cpu(1)/cpu_pinned arrays give cpu(0)
    a = mx.nd.ones((2, 2), ctx=mx.cpu(1))
    b = mx.nd.arange(3, ctx=mx.cpu_pinned(0))
    assert pickle.loads(pickle.dumps(a)).context == mx.cpu(0)
    assert pickle.loads(pickle.dumps(b)).context == mx.cpu(0)
    assert copy.deepcopy(a).context == mx.cpu(0)
    assert copy.copy(a).context == mx.cpu(0)
    assert a.copy().context == mx.cpu(1)
    c = mx.nd.array([[0, 1], [2, 0]], ctx=mx.cpu(3)).tostype("csr")
    r = pickle.loads(pickle.dumps(c))
    assert r.context == mx.cpu(0) and r.stype == "csr"
    assert r.asnumpy().tolist() == [[0.0, 1.0], [2.0, 0.0]]


def test_export_epoch_formatting(tmp_path):
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(2, in_units=3))
    net.initialize(mx.init.One())
    net.hybridize()
    net(mx.nd.ones((1, 3)))
    prefix = str(tmp_path / "e")
    for ep in (-1, 3.7, 12345):
        net.export(prefix, epoch=ep)
    # recorded from 1.9.1 (%04d formatting)
    assert sorted(os.listdir(tmp_path)) == ["e--001.params", "e-0003.params", "e-12345.params",
                                            "e-symbol.json"]
    # 1.9.1: TypeError "%d format: a real number is required, not str"
    with pytest.raises(TypeError):
        net.export(prefix, epoch="7")


def test_save_into_directory_names_the_target(tmp_path):
    a = mx.nd.ones(2)
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    # 1.9.1: IsADirectoryError "[Errno 21] Is a directory: '<the directory>'"
    with pytest.raises(IsADirectoryError) as info:
        tr.save_states(str(tmp_path))
    assert info.value.filename == str(tmp_path)
    with pytest.raises(mx.base.MXNetError):
        mx.nd.save(str(tmp_path), [a])
    assert os.listdir(tmp_path) == []   # no temporary file left behind


def test_failed_save_keeps_old_file(tmp_path):
    f = str(tmp_path / "keep")
    mx.nd.save(f, [mx.nd.ones(3)])
    # 1.9.1: TypeError, and the old file is untouched
    with pytest.raises(TypeError):
        mx.nd.save(f, [mx.nd.ones(2), "x"])
    assert mx.nd.load(f)[0].asnumpy().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(TypeError):
        mx.nd.save(str(tmp_path / "newf"), {"a": mx.nd.ones(2), "b": 3})
    assert sorted(os.listdir(tmp_path)) == ["keep"]


def test_save_needs_a_str_path(tmp_path):
    import io
    import pathlib
    a = mx.nd.ones(2)
    # 1.9.1: AttributeError "'_io.BytesIO' object has no attribute 'encode'" (also for bytes
    # and pathlib paths); load raises TypeError "fname required to be a string"
    for bad in (io.BytesIO(), pathlib.Path(tmp_path / "p"), str(tmp_path / "b").encode()):
        with pytest.raises(AttributeError, match="str file path"):
            mx.nd.save(bad, [a])
    net = gluon.nn.Dense(1, in_units=1)
    net.initialize()
    with pytest.raises(AttributeError):
        net.save_parameters(pathlib.Path(tmp_path / "q"))
    with pytest.raises(TypeError, match="fname required to be a string"):
        mx.nd.load(io.BytesIO(b""))
    # 1.9.1 checks the data first: ValueError for a tuple, TypeError for a non-array item
    with pytest.raises(ValueError, match="data needs to either be"):
        mx.nd.save(io.BytesIO(), (a,))
    with pytest.raises(TypeError, match="save only accept") as info:
        mx.nd.save(io.BytesIO(), [1])
    assert not isinstance(info.value, AttributeError)
    assert os.listdir(tmp_path) == []


_SYM_JSON_191 = ('{\n  "nodes": [\n    {\n      "op": "null", \n      "name": "x", \n      '
                 '"inputs": []\n    }, \n    {\n      "op": "relu", \n      "name": "r", \n      '
                 '"inputs": [[0, 0, 0]]\n    }\n  ], \n  "arg_nodes": [0], \n  '
                 '"node_row_ptr": [0, 1, 2], \n  "heads": [[1, 0, 0]], \n  '
                 '"attrs": {"mxnet_version": ["int", 10901]}\n}')
# pickle.dumps(mx.sym.relu(mx.sym.var('x'), name='r'), protocol=2) as written by 1.9.1
_SYM_PICKLE_191 = (b"\x80\x02cmxnet.symbol.symbol\nSymbol\nq\x00N\x85q\x01Rq\x02}q\x03X\x06"
                   b"\x00\x00\x00handleq\x04X*\x01\x00\x00" + _SYM_JSON_191.encode()
                   + b"q\x05sb.")


def test_symbol_pickle_layout_matches_191():
    s = pickle.loads(_SYM_PICKLE_191)
    assert type(s) is mx.sym.Symbol
    assert s.list_arguments() == ["x"] and s.list_outputs() == ["r_output"]
    assert pickle.dumps(mx.sym.relu(mx.sym.var("x"), name="r"), protocol=2) == _SYM_PICKLE_191
    # recorded from 1.9.1: a NumPy symbol unpickles as a plain Symbol
    r = pickle.loads(pickle.dumps(mx.sym.var("a").as_np_ndarray()))
    assert type(r) is mx.sym.Symbol and r.list_arguments() == ["a"]


def test_numpy_shape_records_need_numpy_shape_semantics(tmp_path):
    from mxnet import npx
    f = str(tmp_path / "np.params")
    npx.set_np()
    try:
        npx.save(f, mx.np.array([[1.0, 2.0], [3.0, 4.0]]))
    finally:
        npx.reset_np()
    # 1.9.1: MXNetError "ndarray was saved in np shape semantics, must be loaded in the same
    # semantics" from mx.nd.load and load_frombuffer while NumPy shape semantics are off
    with pytest.raises(mx.base.MXNetError, match="NumPy shape semantics"):
        mx.nd.load(f)
    with open(f, "rb") as fh:
        buf = fh.read()
    with pytest.raises(mx.base.MXNetError, match="NumPy shape semantics"):
        mx.nd.load_frombuffer(buf)
    with mx.util.np_shape(True):
        r = mx.nd.load(f)
    assert type(r[0]) is mx.nd.NDArray and r[0].asnumpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert npx.load(f)[0].shape == (2, 2)
