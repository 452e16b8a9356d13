"""The fused RNN operator: 1.9.1 golden outputs, states and gradients; numeric gradients;
the packed layout spelled out; shape inference; dropout, clipping, sequence lengths; errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .._scripts import load_script
from .harness import GradCase, check_grad_case, expect_error, load_golden_npz

nd = mx.nd

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "nn_rnn.npz"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_nn_rnn.py"


def _load_table():
    return load_script("tools/golden/gen_nn_rnn.py")


_TABLE = _load_table()

NON_DIFFERENTIABLE = ("_backward_RNN",)


# ---------------------------------------------------------------------------------------------
# numeric gradients


def _rnn_case(cid, mode, T=3, N=2, I=3, H=2, lengths=None, seed=0, **kw):
    """A GradCase over (data, parameters, state[, state_cell][, sequence_length])."""
    kw = dict(mode=mode, state_size=H, num_layers=kw.pop("num_layers", 1), **kw)
    if lengths is not None:
        kw["use_sequence_length"] = True
    c = _TABLE.Case(cid, T, N, I, kw, lengths, seed=seed)
    inputs = _TABLE.make_inputs(c)
    n_diff = 4 if mode == "lstm" else 3
    return GradCase(cid, lambda *a: nd.RNN(*a, **kw), inputs, ops=("RNN",),
                    wrt=list(range(n_diff)), atol=1e-6)


GRAD_CASES = []
for _mode in ("rnn_relu", "rnn_tanh", "lstm", "gru"):
    GRAD_CASES += [
        _rnn_case(f"{_mode}_uni_states", _mode, state_outputs=True, seed=1),
        _rnn_case(f"{_mode}_bi_2layer_states", _mode, num_layers=2, bidirectional=True,
                  state_outputs=True, seed=2),
        _rnn_case(f"{_mode}_2layer_output_only", _mode, num_layers=2, seed=3),
        _rnn_case(f"{_mode}_bi_seqlen", _mode, T=4, N=3, lengths=(4, 1, 2), bidirectional=True,
                  state_outputs=True, seed=4),
    ]
GRAD_CASES += [
    _rnn_case("lstm_proj_bi_2layer", "lstm", H=3, projection_size=2, num_layers=2,
              bidirectional=True, state_outputs=True, seed=5),
    _rnn_case("lstm_proj_seqlen", "lstm", H=3, projection_size=1, lengths=(2, 3),
              bidirectional=True, state_outputs=True, seed=6),
    _rnn_case("lstm_clip", "lstm", H=2, lstm_state_clip_min=-0.4, lstm_state_clip_max=0.5,
              state_outputs=True, seed=7),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden forward and backward


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def _tol(case):
    if case.dtype == "float32":
        return 1e-4, 1e-5
    if case.kwargs["mode"] == "rnn_relu":
        return 1e-6, 1e-6      # 1.9.1's float64 ReLU RNN is only float32-accurate
    return 1e-9, 1e-11


@pytest.mark.parametrize("case", _TABLE.CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    def take(kind):
        out, j = [], 0
        while f"{case.id}/{kind}{j}" in golden:
            out.append(golden[f"{case.id}/{kind}{j}"])
            j += 1
        return out

    inputs, heads, want_out, want_grad = take("in"), take("head"), take("out"), take("grad")
    outs, _, grads = _TABLE.run_case(mx, case, inputs=inputs, heads=heads or None)
    rtol, atol = _tol(case)
    assert len(outs) == len(want_out) == _TABLE.n_visible(case)
    for j, (o, w) in enumerate(zip(outs, want_out)):
        assert o.dtype == w.dtype and o.shape == w.shape, (j, o.dtype, o.shape, w.shape)
        np.testing.assert_allclose(o, w, rtol=rtol, atol=atol, err_msg=f"output {j}")
    assert len(grads) == len(want_grad)
    for i, (g, w) in enumerate(zip(grads, want_grad)):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


# ---------------------------------------------------------------------------------------------
# the packed layout, spelled out


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _reference(mode, x, params, h0, c0, H, P=None, clip=None):
    """One layer, one direction, written from the layout in the module docstring."""
    G = {"lstm": 4, "gru": 3, "rnn_tanh": 1}[mode]
    I = x.shape[2]
    R = P or H
    off = 0

    def take(*shape):
        nonlocal off
        n = int(np.prod(shape))
        a = params[off:off + n].reshape(shape)
        off += n
        return a

    wx, wh = take(G * H, I), take(G * H, R)
    wr = take(P, H) if P else None
    bx, bh = take(G * H), take(G * H)
    assert off == params.size
    h, c, ys = h0, c0, []
    for t in range(x.shape[0]):
        gx, gh = x[t] @ wx.T + bx, h @ wh.T + bh
        if mode == "lstm":
            a = gx + gh
            i, f, g, o = (_sig(a[:, :H]), _sig(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]),
                          _sig(a[:, 3 * H:]))
            c = f * c + i * g
            if clip:
                c = np.clip(c, *clip)
            h = o * np.tanh(c)
            if P:
                h = h @ wr.T
        elif mode == "gru":
            r = _sig(gx[:, :H] + gh[:, :H])
            z = _sig(gx[:, H:2 * H] + gh[:, H:2 * H])
            n = np.tanh(gx[:, 2 * H:] + r * gh[:, 2 * H:])
            h = (1 - z) * n + z * h
        else:
            h = np.tanh(gx + gh)
        ys.append(h)
    return np.stack(ys), h, c


@pytest.mark.parametrize("mode,P,clip", [("lstm", None, None), ("lstm", 2, None),
                                         ("lstm", None, (-0.2, 0.3)), ("gru", None, None),
                                         ("rnn_tanh", None, None)])
def test_layout_and_gate_order(mode, P, clip):
    H = 3
    kw = dict(mode=mode, state_size=H, num_layers=1, state_outputs=True, projection_size=P)
    if clip:
        kw.update(lstm_state_clip_min=clip[0], lstm_state_clip_max=clip[1])
    c = _TABLE.Case("ref", 4, 2, 3, kw)
    ins = _TABLE.make_inputs(c)
    res = nd.RNN(*[nd.array(a, dtype="float64") for a in ins], **kw)
    y, h, cc = _reference(mode, ins[0], ins[1], ins[2][0], ins[3][0] if mode == "lstm" else None,
                          H, P, clip)
    np.testing.assert_allclose(res[0].asnumpy(), y, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(res[1].asnumpy()[0], h, rtol=1e-12, atol=1e-12)
    if mode == "lstm":
        np.testing.assert_allclose(res[2].asnumpy()[0], cc, rtol=1e-12, atol=1e-12)
        if clip:
            assert res[2].asnumpy().min() >= clip[0] and res[2].asnumpy().max() <= clip[1]


# ---------------------------------------------------------------------------------------------
# shape inference and outputs


@pytest.mark.parametrize("mode,kw,params,state,out", [
    # sizes as reported by 1.9.1's infer_shape for data (3, 2, 3), state_size 2
    ("lstm", dict(num_layers=2, bidirectional=True), 240, (4, 2, 2), (3, 2, 4)),
    ("lstm", dict(num_layers=2, bidirectional=True, projection_size=1), 184, (4, 2, 1), (3, 2, 2)),
    ("lstm", dict(num_layers=2), 104, (2, 2, 2), (3, 2, 2)),
    ("gru", dict(num_layers=2, bidirectional=True), 180, (4, 2, 2), (3, 2, 4)),
    ("rnn_tanh", dict(num_layers=2, bidirectional=True), 60, (4, 2, 2), (3, 2, 4)),
    ("rnn_relu", dict(num_layers=2, bidirectional=True, use_sequence_length=True), 60, (4, 2, 2),
     (3, 2, 4)),
])
def test_infer_shape(mode, kw, params, state, out):
    op = get_op("RNN")
    attrs = op.parse_attrs(dict(mode=mode, state_size=2, state_outputs=True, **kw))
    names = op.input_names(attrs)
    ins, outs, _ = op.infer_shape(attrs, [(3, 2, 3)] + [None] * (len(names) - 1),
                                  [None] * op.num_outputs(attrs))
    assert ins[1] == (params,) and ins[2] == state
    assert outs[0] == out and outs[1] == state
    if mode == "lstm":
        assert ins[3] == outs[2] == (state[0], 2, 2)
    if kw.get("use_sequence_length"):
        assert names[-1] == "sequence_length" and ins[-1] == (2,)
    assert op.list_output_names(attrs) == ["output", "state_output", "statecell_output"][
        :3 if mode == "lstm" else 2]
    # the reserve (hidden last output) matches what the kernel allocates
    arrays = _TABLE.make_inputs(_TABLE.Case("s", 3, 2, 3, dict(mode=mode, state_size=2, **kw),
                                            (3, 2) if kw.get("use_sequence_length") else None))
    res = op.compute(mx.operator.registry.RunContext(
        mx.backend.get_backend(mx.cpu()), False), attrs, *arrays)
    assert [tuple(r.shape) for r in res] == [tuple(s) for s in outs]


def test_infer_shape_parameters_from_input_size_only():
    """Gluon's deferred initialisation knows only the feature size of data."""
    op = get_op("RNN")
    attrs = op.parse_attrs(dict(mode="gru", state_size=4, num_layers=1))
    ins, outs, _ = op.infer_shape(attrs, [(None, None, 5), None, None], [None, None, None])
    # 1.9.1 (recorded): data (0, 0, 5) gives state (1, 0, 4) and output (0, 0, 4)
    assert ins[1] == (3 * 4 * (5 + 4 + 2),) and ins[2] == (1, None, 4)
    assert outs[0] == (None, None, 4)
    expect_error(op.infer_shape, attrs, [(3, 2, 5), (7,), None], [None] * 3, match="(7,)")


def test_output_arity_and_types():
    c = _TABLE.Case("a", 3, 2, 3, dict(mode="lstm", state_size=2, num_layers=1))
    ins = [nd.array(a, dtype="float32") for a in _TABLE.make_inputs(c)]
    out = nd.RNN(*ins, state_size=2, num_layers=1, mode="lstm")
    assert isinstance(out, mx.nd.NDArray) and out.shape == (3, 2, 2) and out.dtype == np.float32
    outs = nd.RNN(*ins, state_size=2, num_layers=1, mode="lstm", state_outputs=True)
    assert [o.shape for o in outs] == [(3, 2, 2), (1, 2, 2), (1, 2, 2)]
    # params after the inputs, positionally, in 1.9.1's declaration order
    pos = nd.RNN(*ins, 2, 1, False, "lstm", 0.0, True)
    np.testing.assert_array_equal(pos[2].asnumpy(), outs[2].asnumpy())


def test_backward_through_one_output_only():
    c = _TABLE.Case("b", 3, 2, 3, dict(mode="lstm", state_size=2, num_layers=2,
                                       state_outputs=True))
    ins = [nd.array(a, dtype="float64") for a in _TABLE.make_inputs(c)]
    for a in ins:
        a.attach_grad()
    with mx.autograd.record():
        _, hy, _ = nd.RNN(*ins, **c.kwargs)
        loss = (hy * hy).sum()
    loss.backward()
    assert np.abs(ins[3].grad.asnumpy()).sum() > 0   # cy unused, the initial cell still matters
    assert ins[1].grad.shape == ins[1].shape


# ---------------------------------------------------------------------------------------------
# sequence lengths, dropout, NaN clipping


def test_zero_sequence_length_keeps_the_initial_state():
    kw = dict(mode="gru", state_size=2, num_layers=1, bidirectional=True, state_outputs=True,
              use_sequence_length=True)
    c = _TABLE.Case("z", 3, 2, 3, kw, (0, 3))
    ins = _TABLE.make_inputs(c)
    y, hy = nd.RNN(*[nd.array(a, dtype="float64") for a in ins], **kw)
    assert not y.asnumpy()[:, 0].any()
    np.testing.assert_array_equal(hy.asnumpy()[:, 0], ins[2][:, 0])
    expect_error(nd.RNN, *[nd.array(a) for a in ins[:3]], nd.array([1, 4]), **kw,
                 match="sequence_length")


def test_dropout_between_layers_in_training_only():
    kw = dict(mode="lstm", state_size=3, num_layers=2, p=0.5, state_outputs=True)
    c = _TABLE.Case("d", 4, 3, 3, kw)
    ins = [nd.array(a, dtype="float64") for a in _TABLE.make_inputs(c)]
    plain = nd.RNN(*ins, **dict(kw, p=0.0))[0].asnumpy()
    np.testing.assert_array_equal(nd.RNN(*ins, **kw)[0].asnumpy(), plain)   # inference
    with mx.autograd.train_mode():
        mx.random.seed(3)
        a = nd.RNN(*ins, **kw)[0].asnumpy()
        mx.random.seed(3)
        b = nd.RNN(*ins, **kw)[0].asnumpy()
        one_layer = dict(kw, num_layers=1)
        c1 = _TABLE.Case("d1", 4, 3, 3, one_layer)
        ins1 = [nd.array(x, dtype="float64") for x in _TABLE.make_inputs(c1)]
        np.testing.assert_array_equal(nd.RNN(*ins1, **one_layer)[0].asnumpy(),
                                      nd.RNN(*ins1, **dict(one_layer, p=0.0))[0].asnumpy())
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, plain)


def test_dropout_gradient_with_a_fixed_mask():
    kw = dict(mode="gru", state_size=2, num_layers=2, bidirectional=True, p=0.4)
    c = _TABLE.Case("dg", 3, 2, 3, kw)

    def fn(*a):
        mx.random.seed(11)   # the same mask for every evaluation
        return nd.RNN(*a, **kw)

    check_grad_case(GradCase("dropout", fn, _TABLE.make_inputs(c), wrt=[0, 1], atol=1e-6))


def test_clip_nan():
    kw = dict(mode="lstm", state_size=2, num_layers=1, state_outputs=True,
              lstm_state_clip_min=-0.5, lstm_state_clip_max=0.5)
    c = _TABLE.Case("n", 2, 2, 3, kw)
    ins = _TABLE.make_inputs(c)
    ins[0][1, 0, 0] = np.nan
    arrs = [nd.array(a, dtype="float64") for a in ins]
    cy = nd.RNN(*arrs, **kw)[2].asnumpy()
    assert np.isnan(cy[0, 0]).all() and not np.isnan(cy[0, 1]).any()
    cy = nd.RNN(*arrs, lstm_state_clip_nan=True, **kw)[2].asnumpy()
    np.testing.assert_array_equal(cy[0, 0], [-0.5, -0.5])


# ---------------------------------------------------------------------------------------------
# errors


def test_errors():
    x, h = nd.ones((3, 2, 3)), nd.ones((1, 2, 2))
    p = nd.ones((2 * 5 + 4,))
    kw = dict(state_size=2, num_layers=1, mode="rnn_tanh")
    expect_error(nd.RNN, x, nd.ones((13,)), h, **kw, match="parameters must have shape (14,)")
    expect_error(nd.RNN, x, p, nd.ones((2, 2, 2)), **kw, match="state must have shape (1, 2, 2)")
    expect_error(nd.RNN, nd.ones((3, 3)), p, h, **kw, match="3-D")
    expect_error(nd.RNN, x, p.astype("float64"), h, **kw, match="dtype")
    expect_error(nd.RNN, x, p, h, nd.ones((3,)), use_sequence_length=True, **kw,
                 match="sequence_length must have shape (2,)")
    expect_error(nd.RNN, x, p, h, state_size=2, num_layers=1, mode="gru", match="parameters")
    expect_error(nd.RNN, x, p, h, state_size=2, num_layers=1, mode="lstm", match="state_cell")
    expect_error(nd.RNN, x, p, h, state_size=2, num_layers=1, mode="lru", match="mode")
    expect_error(nd.RNN, x, p, h, **kw, p=1.5, match="dropout")
    expect_error(nd.RNN, x, p, h, **kw, projection_size=1, match="projection_size")
    expect_error(nd.RNN, x, p, h, h, state_size=2, num_layers=1, mode="lstm", projection_size=3,
                 match="projection_size")
    expect_error(nd.RNN, x, p, h, h, state_size=2, num_layers=1, mode="lstm",
                 lstm_state_clip_min=-1.0, match="together")
    expect_error(nd.RNN, x, p, h, h, state_size=2, num_layers=1, mode="lstm",
                 lstm_state_clip_min=1.0, lstm_state_clip_max=0.0, match="lstm_state_clip_max")
    expect_error(nd.RNN, x, p, h, **kw, lstm_state_clip_min=0.0, lstm_state_clip_max=1.0,
                 match="only supported for mode='lstm'")
    expect_error(nd.RNN, x, p, h, state_size=0, num_layers=1, mode="rnn_tanh", match="state_size")



@pytest.mark.parametrize("hidden, serial", [(64, True), (512, False)])
def test_small_step_gemms_run_on_one_openblas_thread(monkeypatch, hidden, serial):
    """The recurrent loop of a call whose step GEMM is small runs with OpenBLAS held at one
    thread (its threads stall when another process holds a core); large steps keep them.
    Either way the gradients match the numeric ones."""
    from mxnet.backend import blas_threads
    from mxnet.operator import nn_rnn
    entered = []
    real = blas_threads.single_threaded
    monkeypatch.setattr(blas_threads, "single_threaded", lambda: (entered.append(1), real())[1])
    T, N, In = 3, 20, 16
    x = mx.nd.array(np.random.RandomState(0).randn(T, N, In).astype(np.float32) * 0.1)
    size = 4 * hidden * (In + hidden + 2)
    params = mx.nd.array(np.random.RandomState(1).randn(size).astype(np.float32) * 0.05)
    state = mx.nd.zeros((1, N, hidden))
    cell = mx.nd.zeros((1, N, hidden))
    for a in (x, params):
        a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.RNN(x, params, state, cell, state_size=hidden, num_layers=1, mode="lstm")
    y.backward(mx.nd.ones(y.shape))
    assert bool(entered) == serial
    assert (N * hidden * 4 * hidden < nn_rnn._STEP_THREADS_MACS) == serial
    # the input gradient against central differences on a few elements (float64 math)
    xs = x.asnumpy().astype(np.float64)
    for idx in [(0, 0, 0), (2, 19, 15), (1, 7, 3)]:
        d = np.zeros_like(xs)
        d[idx] = 1e-3
        f = [mx.nd.RNN(mx.nd.array(xs + s * d, dtype="float64"), params.astype("float64"),
                       state.astype("float64"), cell.astype("float64"), state_size=hidden,
                       num_layers=1, mode="lstm").sum().asscalar() for s in (1, -1)]
        np.testing.assert_allclose(x.grad.asnumpy()[idx], (f[0] - f[1]) / 2e-3, rtol=2e-3,
                                   atol=2e-4)
