"""The convolution kernels shared out over op threads (image parts, split GEMMs) against the
tap-by-tap reference, and the OpenBLAS thread-count control they rely on."""
from __future__ import annotations

import os
import threading

import numpy as np
import pytest

from mxnet.backend import blas_threads
from mxnet.operator import _gemm_threads as gt
from mxnet.operator import conv_kernels as ck

from .test_conv_kernels import CASES, _case_data, _geometry, _out_space, _reference


def _force_threads(monkeypatch, n):
    """Pretend to have n op threads and n OpenBLAS threads, whatever the machine has."""
    monkeypatch.setattr(ck, "op_threads", lambda: n)
    monkeypatch.setattr(gt, "op_threads", lambda: n)
    monkeypatch.setattr(blas_threads, "threads", lambda: n)


def _run(case):
    x, w, gy, cv = _case_data(case)
    got = (ck.conv_forward(np, x, w, cv), ck.conv_dgrad(np, gy, w, cv),
           ck.conv_wgrad(np, gy, x, cv))
    return got, _reference(x, w, gy, *_geometry(case))


@pytest.mark.parametrize("workers", [2, 3])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "n{}c{}f{}g{}S{}K{}s{}d{}p{}".format(*c))
def test_image_parts_match_reference(monkeypatch, case, workers):
    """Every kernel shared out image by image (one-image blocks, every size qualifying)."""
    _force_threads(monkeypatch, workers)
    for name, value in {"_PART_MACS": 1, "_GEMM_COLS": 1, "_WGRAD_COLS": 1,
                        "_DGRAD_COLS": 1}.items():
        monkeypatch.setattr(ck, name, value)
    calls = []
    real = ck._run_image_parts
    monkeypatch.setattr(ck, "_run_image_parts",
                        lambda cv, parts, fn: (calls.append(parts), real(cv, parts, fn))[1])
    got, ref = _run(case)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-10)
    n = case[0]
    fair = any(n % w == 0 or n >= 2 * w for w in range(2, min(workers, n) + 1))
    if fair and not all(k == 1 for k in case[5]):
        assert calls, "no kernel was shared out"
        for parts in calls:   # contiguous, covering every block once
            assert parts[0][0] == 0 and all(a[1] == b[0] for a, b in zip(parts, parts[1:]))


@pytest.mark.parametrize("case", CASES, ids=lambda c: "n{}c{}f{}g{}S{}K{}s{}d{}p{}".format(*c))
def test_split_gemms_match_reference(monkeypatch, case):
    """Every GEMM split over three threads (no image parts)."""
    _force_threads(monkeypatch, 3)
    monkeypatch.setattr(ck, "_PART_MACS", 1 << 62)
    for name, value in {"_OPENBLAS_SERIAL_MACS": 0, "_SPLIT_MACS": 0, "_SPLIT_MIN_DIM": 1,
                        "_ALIGN": 1}.items():
        monkeypatch.setattr(gt, name, value)
    got, ref = _run(case)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-10)


def _one_image_blocks_and_turns(monkeypatch, workers):
    """Every kernel shared out one image per block over ``workers`` threads; returns the list
    that records the thread count of each turn of the op threads (``_run_slots``)."""
    _force_threads(monkeypatch, workers)
    for name in ("_PART_MACS", "_GEMM_COLS", "_WGRAD_COLS", "_DGRAD_COLS"):
        monkeypatch.setattr(ck, name, 1)
    turns = []
    real = ck._run_slots
    monkeypatch.setattr(ck, "_run_slots", lambda n, task: (turns.append(n), real(n, task)))
    return turns


@pytest.mark.parametrize("workers", [2, 3])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "n{}c{}f{}g{}S{}K{}s{}d{}p{}".format(*c))
def test_fused_backward_matches_reference(monkeypatch, case, workers):
    """conv_backward: the data and weight gradients in one turn of the op threads, against
    the tap-by-tap reference, and bit for bit what conv_dgrad and conv_wgrad give."""
    turns = _one_image_blocks_and_turns(monkeypatch, workers)
    x, w, gy, cv = _case_data(case)
    dx, dw = ck.conv_backward(np, gy, x, w, cv)
    fused = len(turns) == 1
    _, ref_dx, ref_dw = _reference(x, w, gy, *_geometry(case))
    np.testing.assert_allclose(dx, ref_dx, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(dw, ref_dw, rtol=1e-10, atol=1e-10)
    assert np.array_equal(dx, ck.conv_dgrad(np, gy, w, cv))
    assert np.array_equal(dw, ck.conv_wgrad(np, gy, x, cv))
    n = case[0]
    fair = any(n % k == 0 or n >= 2 * k for k in range(2, min(workers, n) + 1))
    if fair and not all(k == 1 for k in case[5]):
        assert fused, f"the two gradients took {len(turns)} turns"


@pytest.mark.parametrize("case", CASES, ids=lambda c: "n{}c{}f{}g{}S{}K{}s{}d{}p{}".format(*c))
def test_fused_deconv_backward_matches_reference(monkeypatch, case):
    """deconv_backward (Deconvolution's gradients: the convolution's forward pass of gy and
    its weight gradient with the roles swapped) in one turn: against the tap-by-tap reference
    and bit for bit the two kernels."""
    turns = _one_image_blocks_and_turns(monkeypatch, 2)
    # the deconvolution's input is the convolution's output space, its output the input's
    xs, w, ys, cv = _case_data(case)
    dx, dw = ck.deconv_backward(np, xs, ys, w, cv)
    fused = list(turns)
    ref_y, _, ref_dw = _reference(xs, w, ys, *_geometry(case))
    np.testing.assert_allclose(dx, ref_y, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(dw, ref_dw, rtol=1e-10, atol=1e-10)
    assert np.array_equal(dx, ck.conv_forward(np, xs, w, cv))
    assert np.array_equal(dw, ck.conv_wgrad(np, ys, xs, cv))
    if (case[0] % 2 == 0 or case[0] >= 4) and not all(k == 1 for k in case[5]):
        assert fused == [2], fused


def test_fused_backward_bias_and_outputs(monkeypatch):
    """A thin (stem) convolution: the bias gradient rides in the weight gradient's GEMMs, in
    one turn with the data gradient, into the given arrays; with more filters the bias is
    left to the caller (None)."""
    _force_threads(monkeypatch, 2)
    rng = np.random.default_rng(5)
    for C, F in ((3, 16), (32, 40)):
        x = rng.standard_normal((4, C, 10, 10)).astype(np.float32)
        w = rng.standard_normal((F, C, 3, 3)).astype(np.float32)
        gy = rng.standard_normal((4, F, 10, 10)).astype(np.float32)
        cv = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 4, C, F, (10, 10), (10, 10))
        monkeypatch.setattr(ck, "_PART_MACS", 1)
        outs = np.empty_like(x), np.empty_like(w), np.empty(F, np.float32)
        dx, dw, db = ck.conv_backward(np, gy, x, w, cv, *outs[:2], True, outs[2])
        assert dx is outs[0] and dw is outs[1]
        want_dw, want_db = ck.conv_wgrad(np, gy, x, cv, None, True)
        assert np.array_equal(dx, ck.conv_dgrad(np, gy, w, cv))
        assert np.array_equal(dw, want_dw)
        if C == 3:
            assert db is outs[2] and np.array_equal(db, want_db)
            np.testing.assert_allclose(db, gy.astype(np.float64).sum(axis=(0, 2, 3)),
                                       rtol=1e-5, atol=1e-4)
        else:
            assert db is None and want_db is None


def test_image_parts_same_bits_as_one_call(monkeypatch):
    """float32 forward and data gradient: the same bits shared out or not (every image is
    computed alike); the weight gradient sums the parts in order, within rounding."""
    rng = np.random.default_rng(3)
    n, C, F, S = 8, 16, 24, (12, 12)
    x = rng.standard_normal((n, C) + S).astype(np.float32)
    w = rng.standard_normal((F, C, 3, 3)).astype(np.float32)
    for stride in (1, 2):
        O = _out_space(S, (3, 3), (stride,) * 2, (1, 1), (1, 1))
        gy = rng.standard_normal((n, F) + O).astype(np.float32)
        cv = ck.Conv((3, 3), (stride,) * 2, (1, 1), (1, 1), 1, 1 << 30, n, C, F, S, O)
        results = []
        for workers in (1, 2):
            _force_threads(monkeypatch, workers)
            monkeypatch.setattr(ck, "_PART_MACS", 1)
            monkeypatch.setattr(ck, "_GEMM_COLS", 1)
            monkeypatch.setattr(ck, "_DGRAD_COLS", 1)
            monkeypatch.setattr(ck, "_WGRAD_COLS", 1)
            results.append((ck.conv_forward(np, x, w, cv), ck.conv_dgrad(np, gy, w, cv),
                            ck.conv_wgrad(np, gy, x, cv)))
        (y1, dx1, dw1), (y2, dx2, dw2) = results
        assert np.array_equal(y1, y2) and np.array_equal(dx1, dx2)
        np.testing.assert_allclose(dw1, dw2, rtol=1e-5, atol=1e-4)


def test_image_parts_choice(monkeypatch):
    """Ranges only where each thread gets a fair share, contiguous and covering every block."""
    _force_threads(monkeypatch, 2)
    big = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 32, 64, 64, (32, 32), (32, 32))
    assert ck._image_parts(np, big) == [(0, 16), (16, 32)]
    assert ck._image_parts(None, big) is None                       # not NumPy
    stem = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 32, 3, 64, (32, 32), (32, 32))
    assert ck._image_parts(np, stem) == [(0, 16), (16, 32)]         # thin columns too
    unit = ck.Conv((1, 1), (1, 1), (1, 1), (0, 0), 1, 1 << 30, 32, 64, 64, (32, 32), (32, 32))
    assert ck._image_parts(np, unit) is None                        # no im2col
    small = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 2, 64, 64, (8, 8), (8, 8))
    assert ck._image_parts(np, small) is None                       # under _PART_MACS
    one_block = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 32, 512, 512, (4, 4),
                        (4, 4))
    assert one_block.nblk == 1 and ck._image_parts(np, one_block) is None
    _force_threads(monkeypatch, 4)
    assert ck._image_parts(np, big.part(0, 3)) == [(0, 1), (1, 2), (2, 3)]
    # 5 blocks, 4 threads: 4 or 3 ranges would be uneven, so 2 (of 2 and 3 blocks)
    assert ck._image_parts(np, big.part(0, 5)) == [(0, 2), (2, 5)]
    _force_threads(monkeypatch, 1)
    assert ck._image_parts(np, big) is None


@pytest.mark.parametrize("shapes", [((5, 40, 70), (5, 70, 33)), ((70, 40), (40, 90)),
                                    ((3, 1, 30, 20), (4, 20, 50)), ((64,), (64, 40)),
                                    ((40, 64), (64,))])
@pytest.mark.parametrize("given_out", [False, True])
def test_split_matmul_equals_numpy(monkeypatch, shapes, given_out):
    _force_threads(monkeypatch, 3)
    for name, value in {"_OPENBLAS_SERIAL_MACS": 0, "_SPLIT_MACS": 0, "_SPLIT_MIN_DIM": 1,
                        "_ALIGN": 4}.items():
        monkeypatch.setattr(gt, name, value)
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(s) for s in shapes)
    want = np.matmul(a, b)
    out = np.full_like(want, np.nan) if given_out else None
    got = gt.matmul(np, a, b, out=out)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    if given_out:
        assert got is out


def test_blas_single_threaded_nests_and_restores():
    before = blas_threads.threads()
    if not before:
        pytest.skip("NumPy's BLAS is not an OpenBLAS this process can find")
    set_fn, get_fn = blas_threads._library()
    inside = []
    barrier = threading.Barrier(2)

    def worker():
        with blas_threads.single_threaded():
            barrier.wait()
            inside.append(get_fn())
            barrier.wait()
    t = threading.Thread(target=worker)
    t.start()
    with blas_threads.single_threaded():
        with blas_threads.single_threaded():
            barrier.wait()
            inside.append(get_fn())
            assert blas_threads.threads() == before    # the count outside the blocks
            barrier.wait()
        inside.append(get_fn())
    t.join()
    assert inside == [1, 1, 1]
    assert get_fn() == before == blas_threads.threads()


def test_blas_control_can_be_turned_off(monkeypatch):
    monkeypatch.setitem(blas_threads._STATE, "tried", False)
    monkeypatch.setitem(blas_threads._STATE, "lib", None)
    monkeypatch.setenv("MXNET_PY_BLAS_CONTROL", "0")
    assert blas_threads.threads() == 0
    with blas_threads.single_threaded():   # a no-op
        pass
    monkeypatch.setitem(blas_threads._STATE, "tried", False)   # found again afterwards


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs Linux and two usable CPUs")
def test_pool_threads_kept_off_the_callers_cpu():
    """A part handed to a pool thread runs on another CPU than the caller's, one of the
    process's allowed CPUs."""
    from mxnet.operator import _batch_threads as bt
    allowed = os.sched_getaffinity(0)
    seen = {}
    both = threading.Event()

    def task(k):   # the first part waits (a while) for the second to start elsewhere
        seen[threading.current_thread().name] = os.sched_getaffinity(0)
        if len(seen) == 2:
            both.set()
        else:
            both.wait(2)
    bt.run_each(task, 2)
    pool = {name: mask for name, mask in seen.items() if name.startswith("mxnet-op")}
    if not pool:   # the caller took both parts before the pool thread started
        pytest.skip("the pool thread took no part")
    for mask in pool.values():
        assert mask < allowed and len(mask) == len(allowed) - 1


@pytest.mark.skipif(not hasattr(os, "fork") or not hasattr(os, "sched_setaffinity")
                    or len(os.sched_getaffinity(0)) < 2, reason="needs Linux fork, two CPUs")
def test_forked_child_starts_its_own_pool():
    """A forked child (a DataLoader worker) neither waits on the parent's pool threads nor
    pins them: it starts its own, and OpenBLAS's count is back to normal there."""
    from mxnet.operator import _batch_threads as bt
    bt.run_each(lambda k: None, 2)
    parent_tids = set(bt._POOL_TIDS)
    masks = {tid: os.sched_getaffinity(tid) for tid in parent_tids}
    with blas_threads.single_threaded():
        pid = os.fork()
        if pid == 0:   # the child: report through the exit status, never raise
            ok = not (set(bt._POOL_TIDS) & parent_tids) and not blas_threads._STATE["depth"]
            seen = []
            bt.run_each(lambda k: seen.append(k), 2)
            os._exit(0 if ok and sorted(seen) == [0, 1] else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert {tid: os.sched_getaffinity(tid) for tid in parent_tids} == masks


def test_concurrent_callers_keep_their_own_part_buffers(monkeypatch):
    """Two threads running shared-out convolutions at once (the engine's workers may) each
    get their own results: the parts' scratch buffers belong to the calling thread."""
    _force_threads(monkeypatch, 2)
    monkeypatch.setattr(ck, "_PART_MACS", 1)
    monkeypatch.setattr(ck, "_GEMM_COLS", 1)
    rng = np.random.default_rng(5)
    cv = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 8, 6, 10, (12, 12), (12, 12))
    xs = [rng.standard_normal((8, 6, 12, 12)).astype(np.float32) for _ in range(2)]
    w = rng.standard_normal((10, 6, 3, 3)).astype(np.float32)
    want = [ck.conv_forward(np, x, w, cv) for x in xs]
    bad = []
    start = threading.Barrier(2)

    def run(i):
        start.wait()
        for _ in range(30):
            if not np.array_equal(ck.conv_forward(np, xs[i], w, cv), want[i]):
                bad.append(i)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad


@pytest.mark.parametrize("shape", [(3, 5, 7, 6), (2, 4, 1, 1), (4, 6, 9), (2, 3, 2, 3, 4)])
def test_add_channel_bias_equals_broadcast(shape):
    """The table form of the bias add gives the broadcast add's bits."""
    rng = np.random.default_rng(2)
    y = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[1]).astype(np.float32)
    want = y + b.reshape((-1,) + (1,) * (len(shape) - 2))
    got = ck.add_channel_bias(np, y.copy(), b)
    assert np.array_equal(got, want)


def test_fused_backward_keeps_the_batch_last_data_gradient(monkeypatch):
    """Where the data gradient's transposed convolution runs batch last (short rows), the
    backward pass keeps that kernel (the bits of conv_dgrad) rather than image parts."""
    _force_threads(monkeypatch, 2)
    for name in ("_PART_MACS", "_GEMM_COLS", "_WGRAD_COLS"):   # one image per block
        monkeypatch.setattr(ck, name, 1)
    rng = np.random.default_rng(4)
    # 24 channels: the weight gradient is not batch last (thin), the data gradient's
    # transposed convolution (40 channels in) is
    x = rng.standard_normal((16, 24, 8, 8)).astype(np.float32)
    w = rng.standard_normal((40, 24, 3, 3)).astype(np.float32)
    gy = rng.standard_normal((16, 40, 8, 8)).astype(np.float32)
    cv = ck.Conv((3, 3), (1, 1), (1, 1), (1, 1), 1, 1 << 30, 16, 24, 40, (8, 8), (8, 8))
    how, tr = ck._dgrad_plan(np, cv, 4)
    assert how == "tr" and tr.batch_last(np, 4) and not cv.batch_last(np, 4)
    dx, dw = ck.conv_backward(np, gy, x, w, cv)
    assert np.array_equal(dx, ck.conv_dgrad(np, gy, w, cv))
    assert np.array_equal(dw, ck.conv_wgrad(np, gy, x, cv))
