"""Convolution, Deconvolution, Pooling and the activations write into the buffers they are
given (``out=``): the results are bit-for-bit those of a call without ``out``, the planned
executor hands them the same buffers every step, and a training step then allocates nothing
the size of an activation for them (their scratch memory is reused from one call to the
next)."""
from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest

import mxnet as mx
from mxnet.backend import get_backend
from mxnet.operator.registry import RunContext, get_op

from ._fill import fill_args

_CONV = [
    dict(kernel=(3, 3), pad=(1, 1), num_filter=6),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=4, no_bias=True),
    dict(kernel=(2, 3), stride=(3, 2), dilate=(2, 1), num_filter=6, num_group=2),
    dict(kernel=(1, 1), num_filter=8),
    dict(kernel=(5,), stride=(2,), pad=(2,), num_filter=3),
    dict(kernel=(2, 2, 2), stride=(1, 2, 2), pad=(1, 0, 1), num_filter=4),
    dict(kernel=(3, 3), pad=(1, 1), num_filter=6, layout="NHWC"),
]
_DECONV = [
    dict(kernel=(2, 2), stride=(2, 2), num_filter=5),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), adj=(1, 1), num_filter=4, no_bias=False),
    dict(kernel=(4, 4), stride=(2, 2), target_shape=(13, 11), num_filter=6, num_group=2),
    dict(kernel=(3,), pad=(1,), num_filter=3),
]
_POOL = [
    dict(kernel=(2, 2), stride=(2, 2), pool_type="max"),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg"),
    dict(kernel=(3, 3), stride=(1, 1), pool_type="sum", pooling_convention="full"),
    dict(global_pool=True, kernel=(1, 1), pool_type="max"),
    dict(kernel=(2,), stride=(2,), pool_type="lp", p_value=2),
    dict(kernel=(3,), stride=(2,), pad=(1,), pool_type="lp", p_value=3),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max"),
    dict(kernel=(3, 2), stride=(2, 3), pad=(1, 0), pool_type="lp", p_value=1,
         pooling_convention="full"),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg", count_include_pad=False),
    dict(kernel=(4,), stride=(3,), pad=(0, 0, 0), pool_type="max", pooling_convention="same"),
    dict(kernel=(2, 3, 2), stride=(2, 1, 2), pad=(1, 1, 0), pool_type="max"),
    dict(kernel=(2, 2, 2), stride=(2, 2, 2), pool_type="avg"),
    dict(kernel=(9, 9), stride=(1, 1), pad=(4, 4), pool_type="max"),   # > 64 taps
    dict(global_pool=True, kernel=(1, 1), pool_type="avg"),
    dict(global_pool=True, kernel=(1, 1), pool_type="lp", p_value=3),
    dict(kernel=(2, 2), stride=(2, 2), pool_type="max", layout="NHWC"),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="sum", layout="NHWC"),
]


def _rc():
    return RunContext(get_backend(mx.cpu()), True)


def _data(kw, dtype, batch=4, channels=6, long=False):
    nsp = len(kw["kernel"]) if kw.get("kernel") and not kw.get("global_pool") else 2
    spatial = {1: (96 if long else 17,), 2: (12, 10), 3: (6 if long else 5, 7, 6)}[nsp]
    if kw.get("layout") == "NHWC":
        return np.random.RandomState(0).randn(batch, *spatial, channels).astype(dtype)
    return np.random.RandomState(0).randn(batch, channels, *spatial).astype(dtype)


def _compare(op, attrs, ins, nout):
    """Run ``op`` without and with ``out`` (twice, over garbage-filled buffers): identical
    bits, and the results are the given buffers (Pooling: always; the convolutions: the
    channel-first float32/float64 ones)."""
    rc = _rc()
    want = op.compute(rc, attrs, *ins)
    want = list(want) if isinstance(want, (tuple, list)) else [want]
    assert len(want) == nout
    bufs = [np.full(w.shape, np.nan, w.dtype) for w in want]
    for _ in range(2):
        got = op.compute(rc, attrs, *ins, out=list(bufs))
        got = list(got) if isinstance(got, (tuple, list)) else [got]
        for k, (g, w, b) in enumerate(zip(got, want, bufs)):
            np.testing.assert_array_equal(g, w, err_msg=f"{op.name} output {k}")
            assert g.dtype == w.dtype and g.shape == w.shape
            channel_last = attrs.get("layout") in ("NHWC", "NWC", "NDHWC")
            if op.name.endswith("Pooling") or (w.dtype != np.float16 and not channel_last):
                assert g is b, f"{op.name} output {k} was not written into out"
        bufs = [b + 1 if b.dtype != np.float16 else b for b in bufs]   # other garbage
    return want


def _conv_args(name, kw, dtype):
    op = get_op(name)
    attrs = op.parse_attrs(kw)
    x = _data(kw, dtype)
    ins_shapes, out_shapes, _ = op.infer_shape(
        attrs, [tuple(x.shape)] + [None] * (len(op.input_names(attrs)) - 1), [None])
    rs = np.random.RandomState(1)
    ins = [x] + [rs.randn(*s).astype(dtype) for s in ins_shapes[1:]]
    return op, attrs, ins, out_shapes[0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("name,kw", [("Convolution", k) for k in _CONV] +
                         [("Deconvolution", k) for k in _DECONV])
def test_conv_out_matches_fresh_results(name, kw, dtype):
    op, attrs, ins, oshape = _conv_args(name, kw, dtype)
    (y,) = _compare(op, attrs, ins, 1)
    gy = np.random.RandomState(2).randn(*oshape).astype(dtype)
    nout = 2 if attrs["no_bias"] else 3
    bwd = get_op(f"_backward_{name}")
    _compare(bwd, attrs, [gy, ins[0], ins[1]], nout)
    if name == "Convolution":
        _compare(get_op("_backward_Convolution_nodata"), attrs, [gy, ins[0], ins[1]], nout - 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("kw", _POOL)
@pytest.mark.parametrize("big", [False, True])
def test_pool_out_matches_fresh_results(kw, dtype, big, monkeypatch):
    # ``big``: the batch is split over two threads, which write into ``out`` themselves
    if big and dtype == np.float16:
        pytest.skip("the threaded path is covered in float32 and float64")
    monkeypatch.setenv("MXNET_PY_OP_THREADS", "2")
    op = get_op("Pooling")
    attrs = op.parse_attrs(kw)
    x = _data(kw, dtype, batch=128 if big else 3, channels=96 if big else 6, long=big)
    if big:
        from mxnet.operator import _batch_threads
        assert x.size >= _batch_threads._MIN_ELEMENTS
    x.reshape(-1)[::17] = np.round(x.reshape(-1)[::17])   # some ties within windows
    (y,) = _compare(op, attrs, [x], 1)
    gy = np.random.RandomState(2).randn(*y.shape).astype(dtype)
    _compare(get_op("_backward_Pooling"), attrs, [gy, x, y], 1)
    if big:   # the threaded path wrote into the buffers
        bufs = [np.empty_like(y)]
        assert op.compute(_rc(), attrs, x, out=bufs) is bufs[0]


@pytest.mark.parametrize("kw", [dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max"),
                                dict(global_pool=True, kernel=(1, 1), pool_type="max")])
def test_pool_out_with_nan_and_padding_ties(kw):
    """Windows of NaN only, and outputs equal to the lowest value next to the padding (the
    max backward's other paths), still write into ``out``."""
    x = _data(kw, np.float32, batch=2)
    x[0, 0] = np.nan
    x[0, 1] = np.finfo(np.float32).min
    x[1, :, :2] = -np.inf
    op = get_op("Pooling")
    attrs = op.parse_attrs(kw)
    (y,) = _compare(op, attrs, [x], 1)
    gy = np.random.RandomState(2).randn(*y.shape).astype(np.float32)
    _compare(get_op("_backward_Pooling"), attrs, [gy, x, y], 1)


_ACTS = ("relu", "sigmoid", "tanh", "softrelu", "softsign")


def _act_data(dtype, shape):
    rs = np.random.RandomState(4)
    x = (rs.randn(*shape) * 8).astype(dtype)
    x.reshape(-1)[::11] = 0
    x.reshape(-1)[::13] = -0.0
    x.reshape(-1)[3] = np.nan
    x.reshape(-1)[5] = 25   # softrelu's linear range
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("act", _ACTS)
@pytest.mark.parametrize("big", [False, True])
def test_activation_out_matches_fresh_results(act, dtype, big, monkeypatch):
    """Activation and its backward give the same bits into ``out``, into garbage-filled
    buffers and in place over their first input (the declared in-place pair)."""
    monkeypatch.setenv("MXNET_PY_OP_THREADS", "2")
    shape = (32, 16, 32, 32) if big else (4, 5, 6)   # big: split over two threads
    x = _act_data(dtype, shape)
    fwd, bwd = get_op("Activation"), get_op("_backward_Activation")
    attrs = fwd.parse_attrs(dict(act_type=act))
    (y,) = _compare(fwd, attrs, [x], 1)
    og = np.random.RandomState(5).randn(*shape).astype(dtype)
    og.reshape(-1)[7] = np.inf
    (gx,) = _compare(bwd, attrs, [og, x, y], 1)
    x2, og2 = x.copy(), og.copy()
    assert fwd.compute(_rc(), attrs, x2, out=[x2]) is x2
    np.testing.assert_array_equal(x2, y)
    assert bwd.compute(_rc(), attrs, og2, x, y, out=[og2]) is og2
    np.testing.assert_array_equal(og2, gx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["softmax", "log_softmax"])
def test_softmax_out_matches_fresh_results(kind, dtype):
    x = np.random.RandomState(6).randn(16, 10).astype(dtype)
    op = get_op(kind)
    attrs = op.parse_attrs(dict(axis=-1))
    (y,) = _compare(op, attrs, [x], 1)
    og = np.random.RandomState(7).randn(16, 10).astype(dtype)
    _compare(get_op(f"_backward_{kind}"), attrs, [og, x, y], 1)


# -- the planned executor ---------------------------------------------------------------------

_MINE = ("Convolution", "Deconvolution", "_backward_Convolution", "_backward_Deconvolution",
         "_backward_Convolution_nodata")


def _net():
    x = mx.sym.var("data")
    y = mx.sym.Convolution(x, num_filter=16, kernel=(3, 3), pad=(1, 1), name="c1")
    y = mx.sym.Activation(y, act_type="tanh", name="t1")
    z = mx.sym.Convolution(y, num_filter=16, kernel=(3, 3), pad=(1, 1), no_bias=True, name="c2")
    y = mx.sym.Activation(z + y, act_type="tanh", name="t2")
    y = mx.sym.Convolution(y, num_filter=32, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                           name="c3")
    y = mx.sym.Deconvolution(y, num_filter=8, kernel=(2, 2), stride=(2, 2), name="up")
    y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool")
    y = mx.sym.FullyConnected(y, num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(y, name="softmax")


_SHAPES = {"data": (16, 8, 48, 48), "softmax_label": (16,)}
# the smallest activation of the conv layers (c3's output: 16 x 32 x 24 x 24 float32)
_ACTIVATION = 16 * 32 * 24 * 24 * 4


def _bind(grad_req="write"):
    sym = _net()
    reqs = {n: "null" if n == "softmax_label" else grad_req for n in sym.list_arguments()}
    return fill_args(sym.simple_bind(mx.cpu(), grad_req=reqs, **_SHAPES), 0, 10, 0.3)


class _Watch:
    """Wraps kernels to record, per call: op name, the out buffers, the results and the
    peak of new memory (tracemalloc) while the kernel ran."""

    def __init__(self, monkeypatch, names):
        self.calls = []
        for name in names:
            op = get_op(name)
            monkeypatch.setattr(op, "compute", self._wrap(name, op.compute))

    def _wrap(self, name, fn):
        def compute(rc, attrs, *arrays, out=None):
            tracing = tracemalloc.is_tracing()
            if tracing:
                tracemalloc.reset_peak()
                start = tracemalloc.get_traced_memory()[0]
            res = fn(rc, attrs, *arrays) if out is None else fn(rc, attrs, *arrays, out=out)
            peak = tracemalloc.get_traced_memory()[1] - start if tracing else None
            self.calls.append((name, out, res if isinstance(res, (tuple, list)) else (res,),
                               peak))
            return res
        return compute


def test_training_steps_reuse_conv_buffers_and_allocate_no_activation(monkeypatch):
    ex = _bind()
    for _ in range(2):   # plans, arenas and scratch buffers are made here
        ex.forward(is_train=True)
        ex.backward()
    watch = _Watch(monkeypatch, _MINE)
    outputs = list(ex.outputs)
    seen = []
    mx.nd.waitall()   # nothing of the setup may still run in the engine's threads
    gc.disable()   # a collection inside a kernel would blur its figures
    tracemalloc.start()
    try:
        for step in range(3):
            watch.calls.clear()
            before = tracemalloc.get_traced_memory()[0]
            ex.forward(is_train=True)
            ex.backward()
            grown = tracemalloc.get_traced_memory()[0] - before
            seen.append([(name, [id(o) for o in out]) for name, out, _, _ in watch.calls])
            for name, out, res, peak in watch.calls:
                assert out is not None, f"{name} was not given its planned buffers"
                for k, (o, r) in enumerate(zip(out, res)):
                    assert o is None or r is o, f"{name} output {k} is not its buffer"
                # nothing the size of an activation: the scratch memory is reused (what
                # remains, under 200 KB, is NumPy's iteration buffers, whose size does not
                # depend on the arrays')
                assert peak < _ACTIVATION // 4, (step, name, peak, _ACTIVATION)
            # a step leaves nothing behind (the first traced step is skipped: arrays made
            # before tracing began are freed there without being counted)
            if step:
                assert grown < _ACTIVATION // 8, (step, grown, _ACTIVATION)
    finally:
        tracemalloc.stop()
        gc.enable()
    assert sorted(n for n, _ in seen[0]) == sorted(
        ["Convolution"] * 3 + ["Deconvolution", "_backward_Deconvolution"] +
        ["_backward_Convolution"] * 3)
    assert seen[0] == seen[1] == seen[2]   # the same buffers, step after step
    assert all(a is b for a, b in zip(outputs, ex.outputs))


def test_planned_inference_reuses_buffers(monkeypatch):
    ex = _bind("null")
    ex.forward(is_train=False)
    watch = _Watch(monkeypatch, ("Convolution", "Deconvolution", "Pooling"))
    ids = []
    out0 = ex.outputs[0]._data
    for _ in range(2):
        watch.calls.clear()
        ex.forward(is_train=False)
        ids.append([[id(o) for o in out] for _, out, _, _ in watch.calls])
        for name, out, res, _ in watch.calls:
            if name != "Pooling":
                assert res[0] is out[0], name
    assert ids[0] == ids[1]
    assert ex.outputs[0]._data is out0


@pytest.mark.parametrize("grad_req", ["write", "add"])
def test_training_with_out_equals_training_without(grad_req, monkeypatch):
    """The executor's results with the kernels writing into planned buffers are bit for bit
    those with every kernel returning fresh arrays."""
    def run():
        ex = _bind(grad_req)
        for g in ex.grad_arrays:
            if g is not None:
                g[:] = 0.5
        for _ in range(2):
            ex.forward(is_train=True)
            ex.backward()
        res = {"out": ex.outputs[0].asnumpy()}
        res.update({n: g.asnumpy() for n, g in ex.grad_dict.items() if g is not None})
        ex.forward(is_train=False)
        res["inference"] = ex.outputs[0].asnumpy()
        return res

    with_out = run()
    for name in _MINE + ("Pooling", "_backward_Pooling"):
        monkeypatch.setattr(get_op(name), "accepts_out", False)
    without = run()
    assert with_out.keys() == without.keys()
    for k in with_out:
        np.testing.assert_array_equal(with_out[k], without[k], err_msg=k)


def test_lenet_training_matches_autograd():
    """Gradients of a LeNet-style graph through the planned executor (ReLU backward running in
    place over the pooling gradient, conv gradients written into planned buffers and straight
    into the bound gradient arrays) equal those of the imperative tape."""
    x = mx.sym.var("data")
    y = mx.sym.Convolution(x, num_filter=6, kernel=(5, 5), name="c1")
    y = mx.sym.Activation(y, act_type="relu", name="r1")
    y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type="max", name="p1")
    y = mx.sym.Convolution(y, num_filter=8, kernel=(3, 3), name="c2")
    y = mx.sym.Activation(y, act_type="relu", name="r2")
    y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="p2")
    y = mx.sym.FullyConnected(mx.sym.Flatten(y), num_hidden=10, name="fc")
    sym = mx.sym.SoftmaxOutput(y, name="softmax")
    reqs = {n: "null" if n == "softmax_label" else "write" for n in sym.list_arguments()}
    ex = fill_args(sym.simple_bind(mx.cpu(), grad_req=reqs, data=(4, 1, 20, 20),
                                   softmax_label=(4,)), 3, 10, 0.5)
    for _ in range(3):   # later steps reuse the buffers of the first
        ex.forward(is_train=True)
        ex.backward()
    args = {n: a.copy() for n, a in ex.arg_dict.items()}
    for n, a in args.items():
        if n != "softmax_label":
            a.attach_grad()
    with mx.autograd.record():
        h = mx.nd.Convolution(args["data"], args["c1_weight"], args["c1_bias"], num_filter=6,
                              kernel=(5, 5))
        h = mx.nd.Pooling(mx.nd.Activation(h, act_type="relu"), kernel=(2, 2), stride=(2, 2),
                          pool_type="max")
        h = mx.nd.Convolution(h, args["c2_weight"], args["c2_bias"], num_filter=8,
                              kernel=(3, 3))
        h = mx.nd.Pooling(mx.nd.Activation(h, act_type="relu"), kernel=(2, 2), stride=(2, 2),
                          pool_type="avg")
        h = mx.nd.FullyConnected(mx.nd.Flatten(h), args["fc_weight"], args["fc_bias"],
                                 num_hidden=10)
        out = mx.nd.SoftmaxOutput(h, args["softmax_label"])
    out.backward()
    np.testing.assert_allclose(ex.outputs[0].asnumpy(), out.asnumpy(), rtol=1e-6, atol=1e-7)
    for n, a in args.items():
        if n != "softmax_label":
            np.testing.assert_allclose(ex.grad_dict[n].asnumpy(), a.grad.asnumpy(), rtol=1e-5,
                                       atol=1e-6, err_msg=n)


def test_lenet_training_step_allocates_well_under_one_activation(monkeypatch):
    """A LeNet training step (conv, relu, max pool, FC, softmax; batch 64) through the
    planned executor: the conv, pooling and activation kernels write into their planned
    buffers and take their temporaries from scratch memory reused across steps, so all of
    them together allocate well under one activation per step (before the pooling and
    activation kernels did so, about 2.7 activations: 8 MB). One op thread: each thread has
    its own scratch memory, and on a loaded machine a pool thread may take its first piece of
    work only in a measured step."""
    monkeypatch.setenv("MXNET_PY_OP_THREADS", "1")
    x = mx.sym.var("data")
    y = mx.sym.Convolution(x, num_filter=20, kernel=(5, 5), name="c1")
    y = mx.sym.Activation(y, act_type="relu", name="r1")
    y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type="max", name="p1")
    y = mx.sym.Convolution(y, num_filter=50, kernel=(5, 5), name="c2")
    y = mx.sym.Activation(y, act_type="relu", name="r2")
    y = mx.sym.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type="max", name="p2")
    y = mx.sym.FullyConnected(mx.sym.Flatten(y), num_hidden=100, name="fc1")
    y = mx.sym.Activation(y, act_type="relu", name="r3")
    y = mx.sym.FullyConnected(y, num_hidden=10, name="fc2")
    sym = mx.sym.SoftmaxOutput(y, name="softmax")
    reqs = {n: "null" if n in ("data", "softmax_label") else "write"
            for n in sym.list_arguments()}
    ex = fill_args(sym.simple_bind(mx.cpu(), grad_req=reqs, data=(64, 1, 28, 28),
                                   softmax_label=(64,)), 0, 10, 0.3)
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward()
    act = 64 * 20 * 24 * 24 * 4   # r1's output, float32
    watch = _Watch(monkeypatch, _MINE + ("Pooling", "_backward_Pooling", "Activation",
                                         "_backward_Activation"))
    mx.nd.waitall()
    gc.disable()
    tracemalloc.start()
    try:
        for step in range(3):
            watch.calls.clear()
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            ex.forward(is_train=True)
            ex.backward()
            mx.nd.waitall()
            now, peak = tracemalloc.get_traced_memory()
            names = sorted(name for name, _, _, _ in watch.calls)
            assert names.count("_backward_Pooling") == 2 and names.count("Activation") == 3
            for name, out, res, kpeak in watch.calls:
                assert out is not None and all(o is None or r is o for o, r in zip(out, res)), \
                    name
                assert kpeak < act // 16, (step, name, kpeak, act)
            total = sum(p for _, _, _, p in watch.calls)
            assert total < act // 4, (step, total, act)
            assert peak - before < act // 4, (step, peak - before, act)
            if step:
                assert now - before < act // 16, (step, now - before, act)
    finally:
        tracemalloc.stop()
        gc.enable()
