"""CTCLoss (and its aliases): 1.9.1 golden loss and gradient, numeric gradients, label padding
conventions, lengths and errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mxnet as mx

from .._scripts import load_script
from .harness import GradCase, check_grad_case, expect_error, load_golden_npz, rand

nd = mx.nd

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "nn_ctc_contrib.npz"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_nn_ctc_contrib.py"


def _load_table():
    return load_script("tools/golden/gen_nn_ctc_contrib.py")


_TABLE = _load_table()
_CASES = [c for c in _TABLE.CASES if c.id.startswith("ctc.")]

_LAB = np.array([[1, 2, 0], [3, 3, 0]], dtype=np.float64)


def _ctc(**kw):
    lab = nd.array(kw.pop("label", _LAB))
    extra = [nd.array(x) for x in kw.pop("lengths", [])]
    return lambda d: nd.CTCLoss(d, lab, *extra, **kw)


GRAD_CASES = [
    GradCase("ctc_first", _ctc(), [rand(5, 2, 4)], ops=("CTCLoss",)),
    GradCase("ctc_last", _ctc(label=[[0, 1, -1], [2, 2, -1]], blank_label="last"),
             [rand(5, 2, 4, seed=1)], ops=("CTCLoss",)),
    GradCase("ctc_lengths", _ctc(lengths=[[4, 5], [1, 2]], use_data_lengths=True,
                                 use_label_lengths=True),
             [rand(5, 2, 4, seed=2)], ops=("ctc_loss",)),
    GradCase("ctc_contrib_alias", lambda d: nd.contrib.ctc_loss(d, nd.array([[2, 1], [1, 0]])),
             [rand(4, 2, 3, seed=3)], ops=("_contrib_ctc_loss",)),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ---------------------------------------------------------------------------------------------
# 1.9.1 golden loss and gradient


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def check_golden(case, golden, rtol=1e-4, atol=1e-5):
    """Replay one generator case against this mxnet and compare with the stored 1.9.1 arrays."""
    n_out = sum(1 for k in golden if k.startswith(f"{case.id}/out"))
    inputs = [golden[f"{case.id}/in{i}"] for i in range(len(case.inputs))]
    heads = [golden[f"{case.id}/head{j}"] for j in range(n_out)] if case.grad_inputs() else None
    outs, _, grads = _TABLE.run_case(mx, case, inputs=inputs, heads=heads)
    assert len(outs) == n_out
    for j, o in enumerate(outs):
        want = golden[f"{case.id}/out{j}"]
        assert o.dtype == want.dtype and o.shape == want.shape, (j, o.dtype, o.shape, want.shape)
        np.testing.assert_allclose(o, want, rtol=rtol, atol=atol, err_msg=f"output {j}")
    for i, g in grads.items():
        want = golden[f"{case.id}/grad{i}"]
        assert g.shape == want.shape
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


@pytest.mark.parametrize("case", _CASES, ids=lambda c: c.id)
def test_golden(case, golden):
    # 1.9.1 runs the recursions in float32; over 40 peaked frames its gradient drifts ~3e-5
    check_golden(case, golden, atol=1e-4 if "long" in case.id else 2e-5)


# ---------------------------------------------------------------------------------------------
# semantics


def _log_softmax(x):
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def _brute_force_loss(act, label, blank):
    """-log of the summed probability of every frame-level path collapsing to ``label``."""
    import itertools
    T, A = act.shape
    lp = _log_softmax(act)
    total = 0.0
    for path in itertools.product(range(A), repeat=T):
        collapsed = [k for i, k in enumerate(path) if k != blank and (i == 0 or path[i - 1] != k)]
        if collapsed == list(label):
            total += np.exp(sum(lp[t, k] for t, k in enumerate(path)))
    return -np.log(total)


@pytest.mark.parametrize("blank_label, label, padded", [
    ("first", [2, 2, 1], [2, 2, 1, 0]),
    ("first", [1], [1, 0, 0, 0]),
    ("last", [0, 1], [0, 1, -1, -1]),
    ("last", [], [-1, -1, -1, -1]),
])
def test_matches_brute_force_path_sum(blank_label, label, padded):
    act = rand(5, 1, 3, seed=7) * 2
    blank = 0 if blank_label == "first" else 2
    got = nd.CTCLoss(nd.array(act, dtype="float64"), nd.array([padded]),
                     blank_label=blank_label).asnumpy()
    want = _brute_force_loss(act[:, 0], label, blank)
    np.testing.assert_allclose(got, [want], rtol=1e-10)


def test_padding_value_depends_on_blank_label():
    act = nd.array(rand(6, 1, 5, seed=3))
    first = nd.CTCLoss(act, nd.array([[1, 2, 0, 0]])).asnumpy()
    first_len = nd.CTCLoss(act, nd.array([[1, 2, 3, 4]]), nd.array([2]),
                           use_label_lengths=True).asnumpy()
    np.testing.assert_allclose(first, first_len, rtol=1e-6)
    # with blank_label='last' the value 0 is a real label and -1 pads
    last_zero = nd.CTCLoss(act, nd.array([[1, 2, 0, 0]]), blank_label="last").asnumpy()
    last_pad = nd.CTCLoss(act, nd.array([[1, 2, -1, -1]]), blank_label="last").asnumpy()
    last_len = nd.CTCLoss(act, nd.array([[1, 2, 3, 3]]), nd.array([2]), use_label_lengths=True,
                          blank_label="last").asnumpy()
    assert not np.allclose(last_zero, last_pad)
    np.testing.assert_allclose(last_pad, last_len, rtol=1e-6)


def test_gradient_is_softmax_minus_posterior_and_scales_with_head():
    act = nd.array(rand(4, 2, 3, seed=4), dtype="float64")
    act.attach_grad()
    with mx.autograd.record():
        loss = nd.CTCLoss(act, nd.array([[1, 2], [2, 0]]))
    loss.backward(nd.array([2.0, -0.5], dtype="float64"))
    g = act.grad.asnumpy()
    # the posterior sums to one over the alphabet at every frame, as does the softmax
    np.testing.assert_allclose(g.sum(-1), 0, atol=1e-12)
    sm = np.exp(_log_softmax(act.asnumpy()))
    assert np.all(g[:, 0] / 2.0 <= sm[:, 0] + 1e-12)
    assert np.all(-g[:, 1] / 0.5 <= sm[:, 1] + 1e-12)


def test_frames_past_data_length_get_no_gradient():
    act = nd.array(rand(6, 2, 4, seed=5))
    act.attach_grad()
    with mx.autograd.record():
        loss = nd.CTCLoss(act, nd.array([[1, 0], [2, 3]]), nd.array([3, 6]), use_data_lengths=True)
    loss.backward()
    g = act.grad.asnumpy()
    assert np.all(g[3:, 0] == 0) and np.any(g[:3, 0] != 0) and np.any(g[3:, 1] != 0)
    short = nd.CTCLoss(nd.array(act.asnumpy()[:3, :1]), nd.array([[1, 0]])).asnumpy()
    np.testing.assert_allclose(loss.asnumpy()[:1], short, rtol=1e-6)


def test_infeasible_alignment_gives_zero_loss_and_gradient():
    # 'aab' needs 4 frames (a blank between the repeats); only 3 are given for example 0
    act = nd.array(rand(5, 2, 3, seed=6))
    act.attach_grad()
    with mx.autograd.record():
        loss = nd.CTCLoss(act, nd.array([[1, 1, 2], [1, 2, 0]]), nd.array([3, 5]),
                          use_data_lengths=True)
    loss.backward()
    assert loss.asnumpy()[0] == 0 and loss.asnumpy()[1] > 0
    assert np.all(act.grad.asnumpy()[:, 0] == 0)


def test_single_visible_output_and_dtype():
    out = nd.CTCLoss(nd.ones((3, 2, 4), dtype="float64"), nd.array([[1], [2]]))
    assert isinstance(out, nd.NDArray) and out.shape == (2,) and out.dtype == np.float64
    op = mx.operator.get_op("CTCLoss")
    attrs = op.parse_attrs({"use_data_lengths": True})
    assert op.input_names(attrs) == ["data", "label", "data_lengths"]
    # 1.9.1 names by the total output count: mx.sym.CTCLoss(..., name="c") lists c_output0
    assert op.list_output_names(attrs) == ["output0", "output1"]
    assert op.infer_shape(attrs, [(3, 2, 4), (2, 1), None], [None, None])[1] == [(2,), (3, 2, 4)]


def test_long_sequences_stay_finite():
    act = nd.array(rand(300, 2, 6, seed=8) * 20)
    lab = nd.array(np.random.RandomState(0).randint(1, 6, size=(2, 40)))
    act.attach_grad()
    with mx.autograd.record():
        loss = nd.CTCLoss(act, lab)
    loss.backward()
    assert np.all(np.isfinite(loss.asnumpy())) and np.all(loss.asnumpy() > 0)
    assert np.all(np.isfinite(act.grad.asnumpy()))


def test_errors_name_the_problem():
    act = nd.ones((4, 2, 3))
    expect_error(nd.CTCLoss, nd.ones((4, 3)), nd.ones((2, 1)), match="3-D")
    expect_error(nd.CTCLoss, act, nd.ones((3, 1)), match="batch_size=2")
    expect_error(nd.CTCLoss, act, nd.ones((2, 5)), match="cannot exceed")
    expect_error(nd.CTCLoss, act, nd.array([[1, 3], [1, 0]]), match="[0, 2]")
    expect_error(nd.CTCLoss, act, nd.array([[1, 0], [1, 0]]), nd.array([5, 4]),
                 use_data_lengths=True, match="data_lengths")
    expect_error(nd.CTCLoss, act, nd.array([[1, 0], [1, 0]]), nd.array([1, 3]),
                 use_label_lengths=True, match="label_lengths")
    expect_error(nd.CTCLoss, act, nd.array([[1, 0], [1, 0]]), nd.array([4]),
                 use_data_lengths=True, match="shape (2,)")
    expect_error(nd.CTCLoss, nd.ones((4, 2, 3), dtype="int32"), nd.array([[1], [1]]),
                 match="floating")
    expect_error(nd.CTCLoss, act, nd.array([[1], [1]]), blank_label="middle", match="blank_label")
    expect_error(nd.CTCLoss, act, nd.array([[1], [1]]), use_data_lengths=True,
                 match="data_lengths")
