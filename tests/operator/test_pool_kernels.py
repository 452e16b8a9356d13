"""Pooling's per-axis window sums (running sums over the flat array, subsampled) and their
adjoint (strided placement and shifted adds) against a window-by-window reference, over odd
shapes, padding, strides longer than the kernel, the 'full' convention and 1-D to 3-D."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import mxnet as mx

nd = mx.nd


def _geometry(shape, kernel, stride, pad, full):
    out = []
    for L, k, s, p in zip(shape[2:], kernel, stride, pad):
        span = L + 2 * p - k
        out.append((-(-span // s) if full else span // s) + 1)
    return out


def _windows(shape, kernel, stride, pad, out):
    """(output index, tuple of input slices) of every window, clipped to the input."""
    for o in itertools.product(*[range(n) for n in out]):
        sl = []
        for oo, L, k, s, p in zip(o, shape[2:], kernel, stride, pad):
            a = oo * s - p
            sl.append(slice(max(a, 0), min(a + k, L)))
        yield o, tuple(sl)


def _reference(x, head, pool_type, kernel, stride, pad, full, include_pad):
    out = _geometry(x.shape, kernel, stride, pad, full)
    y = np.zeros(x.shape[:2] + tuple(out))
    gx = np.zeros_like(x)
    for o, sl in _windows(x.shape, kernel, stride, pad, out):
        idx = (slice(None), slice(None)) + sl
        win = x[idx]
        if win.size == 0:  # a window wholly in the padding ('full'): lowest value, or 0
            y[(slice(None), slice(None)) + o] = np.finfo(x.dtype).min if pool_type == "max" else 0
            continue
        if pool_type == "max":
            flat = win.reshape(win.shape[:2] + (-1,))
            y[(slice(None), slice(None)) + o] = flat.max(axis=2)
            first = flat.argmax(axis=2)
            g = np.zeros_like(flat)
            np.put_along_axis(g, first[..., None], head[(slice(None), slice(None)) + o][..., None],
                              axis=2)
            gx[idx] += g.reshape(win.shape)
            continue
        total = win.sum(axis=tuple(range(2, x.ndim)))
        if pool_type == "avg":
            if include_pad:
                count = np.prod([min(oo * s - p + k, L + p) - (oo * s - p) for oo, L, k, s, p in
                                 zip(o, x.shape[2:], kernel, stride, pad)])
            else:
                count = np.prod([s_.stop - s_.start for s_ in sl])
            count = max(count, 1)
        else:
            count = 1
        y[(slice(None), slice(None)) + o] = total / count
        gx[idx] += (head[(slice(None), slice(None)) + o] / count).reshape(
            x.shape[:2] + (1,) * (x.ndim - 2))
    return y, gx


def _check_float64(x, kw, rng, full=False, include_pad=True):
    """Pooling of ``x`` (float64) with ``kw`` and its gradient for a random head drawn
    from ``rng``, against the window-by-window reference; returns the output."""
    xa = nd.array(x, dtype="float64")
    xa.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(xa, **kw)
    head = rng.standard_normal(y.shape)
    y.backward(nd.array(head, dtype="float64"))
    y_ref, gx_ref = _reference(x, head, kw["pool_type"], kw["kernel"], kw["stride"], kw["pad"],
                               full, include_pad)
    np.testing.assert_allclose(y.asnumpy(), y_ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(xa.grad.asnumpy(), gx_ref, rtol=1e-12, atol=1e-12)
    return y


# shape, kernel, stride, pad, full
GEOMETRIES = [
    ((2, 3, 9), (3,), (2,), (1,), False),
    ((2, 3, 10), (4,), (3,), (2,), True),
    ((1, 2, 7), (2,), (4,), (0,), False),            # stride > kernel
    ((2, 2, 8, 8), (3, 3), (2, 2), (1, 1), False),   # the ResNet stem
    ((2, 2, 9, 7), (3, 3), (2, 2), (1, 1), False),
    ((2, 2, 8, 9), (3, 2), (2, 3), (1, 0), True),
    ((1, 3, 6, 6), (2, 2), (2, 2), (0, 0), False),
    ((1, 2, 7, 6), (5, 3), (1, 2), (2, 1), False),
    ((2, 2, 5, 5), (3, 3), (1, 1), (1, 1), False),
    ((1, 2, 11, 10), (3, 4), (4, 3), (1, 2), True),
    ((1, 2, 4, 5, 6), (2, 3, 2), (2, 1, 2), (1, 1, 0), False),
    ((1, 1, 5, 6, 7), (3, 3, 3), (2, 2, 2), (1, 1, 1), True),
]


@pytest.mark.parametrize("geom", GEOMETRIES, ids=lambda g: f"{g[0]}k{g[1]}s{g[2]}p{g[3]}f{g[4]:d}")
@pytest.mark.parametrize("pool_type,include_pad", [("avg", True), ("avg", False), ("sum", True),
                                                   ("max", True)])
def test_pooling_matches_window_reference(geom, pool_type, include_pad):
    shape, kernel, stride, pad, full = geom
    if pool_type == "avg" and len(shape) == 5 and not include_pad:
        pytest.skip("3-D windows that read nothing are NaN in 1.9.1 (covered elsewhere)")
    rng = np.random.default_rng(len(shape) * 100 + sum(kernel))
    x = rng.permutation(np.prod(shape)).reshape(shape) * 0.25 - 3.0   # distinct values
    kw = dict(kernel=kernel, stride=stride, pad=pad, pool_type=pool_type,
              pooling_convention="full" if full else "valid")
    if pool_type == "avg":
        kw["count_include_pad"] = include_pad
    _check_float64(x, kw, rng, full, include_pad)


# inputs made of whole stride phases (length = stride * out): the max backward scores taps
# on the phases, the sum backward spreads into them
ALIGNED = [
    ((2, 3, 12), (3,), (2,), (1,)),
    ((2, 2, 12), (4,), (3,), (1,)),
    ((1, 2, 8), (1,), (2,), (0,)),                # kernel < stride: phases no window reads
    ((2, 3, 8, 8), (3, 3), (2, 2), (1, 1)),       # the ResNet stem
    ((2, 2, 6, 8), (2, 2), (2, 2), (0, 0)),
    ((1, 2, 9, 8), (5, 3), (3, 2), (2, 1)),
    ((1, 2, 6, 6), (3, 3), (1, 2), (1, 1)),
    ((1, 2, 4, 6, 4), (3, 3, 2), (2, 3, 2), (1, 1, 0)),
]


@pytest.mark.parametrize("geom", ALIGNED, ids=lambda g: f"{g[0]}k{g[1]}s{g[2]}p{g[3]}")
@pytest.mark.parametrize("pool_type", ["max", "avg", "sum"])
@pytest.mark.parametrize("ties", [False, True])
def test_stride_aligned_pools_match_window_reference(geom, pool_type, ties):
    """Ties (rounded data, many equal values) must send a max window's gradient to its first
    maximum in row-major order, as the reference's argmax does."""
    shape, kernel, stride, pad = geom
    rng = np.random.default_rng(sum(shape) + 7 * sum(kernel))
    x = rng.standard_normal(shape)
    if ties:
        x = np.round(x * 1.5)
    kw = dict(kernel=kernel, stride=stride, pad=pad, pool_type=pool_type)
    y = _check_float64(x, kw, rng)
    assert [L == s * o for L, s, o in zip(shape[2:], stride, y.shape[2:])] == [True] * len(stride)


@pytest.mark.parametrize("geom", [GEOMETRIES[3], GEOMETRIES[5], GEOMETRIES[10], ALIGNED[5]],
                         ids=lambda g: f"{g[0]}k{g[1]}s{g[2]}p{g[3]}")
@pytest.mark.parametrize("pool_type", ["max", "avg"])
def test_pooling_in_pieces_of_feature_maps(monkeypatch, geom, pool_type):
    """Large pools run a few feature maps at a time (``_PIECE_ELEMENTS``); forced here down
    to single maps and small groups, with ties for the max backward's first-maximum rule."""
    from mxnet.operator import nn_pool
    shape, kernel, stride, pad = geom[:4]
    full = geom[4] if len(geom) > 4 else False
    rng = np.random.default_rng(21)
    x = np.round(rng.standard_normal(shape) * 2)
    kw = dict(kernel=kernel, stride=stride, pad=pad, pool_type=pool_type,
              pooling_convention="full" if full else "valid")
    for piece in (1, 2 * int(np.prod(shape[2:])) + 1):
        monkeypatch.setattr(nn_pool, "_PIECE_ELEMENTS", piece)
        _check_float64(x, kw, rng, full)


@pytest.mark.parametrize("pool_type", ["avg", "max"])
def test_float32_and_float16_stem_pooling(pool_type):
    """The ResNet stem window (3x3, stride 2, pad 1) in float32 and float16 (summed in float32)."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3, 12, 10))
    head = rng.standard_normal((2, 3, 6, 5))
    y_ref, gx_ref = _reference(x, head, pool_type, (3, 3), (2, 2), (1, 1), False, True)
    for dtype, tol in (("float32", 1e-5), ("float16", 2e-2)):
        xa = nd.array(x, dtype=dtype)
        xa.attach_grad()
        with mx.autograd.record():
            y = nd.Pooling(xa, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type=pool_type)
        y.backward(nd.array(head, dtype=dtype))
        assert y.dtype == np.dtype(dtype)
        # rounding is monotonic: the max of the rounded inputs is the rounded max
        np.testing.assert_allclose(y.asnumpy().astype(np.float64), y_ref, rtol=tol, atol=tol)
        if pool_type == "avg":
            np.testing.assert_allclose(xa.grad.asnumpy().astype(np.float64), gx_ref, rtol=tol,
                                       atol=tol)


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("pool_type", ["max", "avg"])
def test_batch_split_over_threads_gives_identical_results(monkeypatch, pool_type, layout):
    """Large pools run on slices of the batch in several threads: bit-identical results."""
    from mxnet.operator import _batch_threads
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 3, 10, 9)).astype(np.float32)
    head = rng.standard_normal((5, 3, 5, 5)).astype(np.float32)
    if layout == "NHWC":
        x, head = x.transpose(0, 2, 3, 1).copy(), head.transpose(0, 2, 3, 1).copy()
    kw = dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type=pool_type, layout=layout)

    def run(threads):
        monkeypatch.setenv("MXNET_PY_OP_THREADS", str(threads))
        xa = nd.array(x)
        xa.attach_grad()
        with mx.autograd.record():
            y = nd.Pooling(xa, **kw)
        y.backward(nd.array(head))
        return y.asnumpy(), xa.grad.asnumpy()

    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    one = run(1)
    for threads in (2, 3, 8):
        for got, want in zip(run(threads), one):
            np.testing.assert_array_equal(got, want)


def test_op_threads_do_not_wait_for_a_thread_without_a_core(monkeypatch):
    """Chunks are claimed dynamically: with the pool thread held up (as on a machine whose
    other core is busy) the calling thread computes every chunk; an error in a chunk is
    raised in the caller."""
    import threading

    from mxnet.operator import _batch_threads
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    monkeypatch.setenv("MXNET_PY_OP_THREADS", "2")
    pool = _batch_threads._pool(1)
    release = threading.Event()
    blocker = pool.submit(release.wait, 30)   # occupies the only pool thread
    try:
        x = np.arange(6 * 4, dtype=np.float64).reshape(6, 4)
        got = _batch_threads.map_batch(lambda a: a * 2, [x], x.shape, x.dtype)
        np.testing.assert_array_equal(got, x * 2)
        seen = []
        _batch_threads.run_parts(lambda a, b: seen.append((a, b)), 10)
        seen.sort()
        assert seen[0][0] == 0 and seen[-1][1] == 10 and len(seen) > 2
        assert all(a[1] == b[0] for a, b in zip(seen, seen[1:]))   # contiguous, disjoint

        def fail(a, b):
            raise ValueError(f"chunk {a}:{b}")
        with pytest.raises(ValueError, match="chunk 0:"):
            _batch_threads.run_parts(fail, 10)
    finally:
        release.set()
        blocker.result()


def _max_backward_loop(x, out, head, kernel, stride, pad):
    """The max pool gradient window by window, in x's dtype: each window's head added, in
    row-major window order, to its first tap (row-major) equal to the window's output."""
    gx = np.zeros_like(x)
    H, W = x.shape[2:]
    for n, c, i, j in itertools.product(*[range(v) for v in out.shape]):
        target = out[n, c, i, j]
        for a, b in itertools.product(range(kernel[0]), range(kernel[1])):
            r, q = i * stride[0] - pad[0] + a, j * stride[1] - pad[1] + b
            if 0 <= r < H and 0 <= q < W and x[n, c, r, q] == target:
                gx[n, c, r, q] += head[n, c, i, j]
                break
    return gx


@pytest.fixture
def fast_kernels(monkeypatch):
    """The fast kernels at every size: inputs up to ``_EXACT_TAPS_MAX`` elements otherwise
    take the exact path (1.9.1's own accumulation order, oneDNN's for float32 with several
    channels; tests/test_compat_sweep_pool_bwd_bits.py)."""
    from mxnet.operator import nn_pool
    monkeypatch.setattr(nn_pool, "_EXACT_TAPS_MAX", 0)


# 2-D pools made of whole stride phases with a column stride of 2 (the row-phase split of the
# max backward, the offset scores, the interleaved spread of the sum backward)
COLUMN_PAIRS = [
    ((2, 3, 8, 10), (3, 3), (2, 2), (1, 1)),      # the ResNet stem
    ((1, 2, 6, 8), (2, 2), (2, 2), (0, 0)),
    ((1, 2, 6, 8), (4, 4), (2, 2), (1, 1)),
    ((1, 2, 5, 6), (3, 3), (1, 2), (1, 1)),        # row stride 1
    ((1, 2, 9, 8), (5, 3), (3, 2), (2, 1)),
    ((1, 2, 4, 6), (1, 1), (2, 2), (0, 0)),        # phases no window reads
    ((1, 1, 4, 300), (3, 3), (2, 2), (1, 1)),      # tap offsets beyond a uint8 score
]


@pytest.mark.parametrize("geom", COLUMN_PAIRS, ids=lambda g: f"{g[0]}k{g[1]}s{g[2]}p{g[3]}")
@pytest.mark.parametrize("data", ["ties", "nan", "ninf", "lowest_inside"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_column_pair_max_backward_is_the_window_loop_bit_for_bit(geom, data, dtype, fast_kernels):
    """The max gradient of a stride-aligned pool equals, bit for bit, the window loop's: ties
    (values 0..3) go to the first tap, NaN inputs are skipped, sums of shared positions are
    added in row-major window order."""
    shape, kernel, stride, pad = geom
    rng = np.random.default_rng(sum(shape) + 3 * sum(kernel))
    x = rng.integers(0, 4, shape).astype(dtype)
    if data == "nan":
        x[rng.random(shape) < 0.3] = np.nan
    elif data == "ninf":
        x[rng.random(shape) < 0.3] = -np.inf
    elif data == "lowest_inside":   # the lowest value everywhere but a frame: windows that
        # read padding also read the frame, the others may be all at the lowest value
        x[:, :, pad[0]:shape[2] - pad[0], pad[1]:shape[3] - pad[1]] = np.finfo(dtype).min
    kw = dict(kernel=kernel, stride=stride, pad=pad, pool_type="max")
    xa = nd.array(x, dtype=dtype)
    xa.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(xa, **kw)
    head = rng.standard_normal(y.shape).astype(dtype)
    y.backward(nd.array(head, dtype=dtype))
    want = _max_backward_loop(x, y.asnumpy(), head, kernel, stride, pad)
    np.testing.assert_array_equal(xa.grad.asnumpy(), want)


@pytest.mark.parametrize("geom", COLUMN_PAIRS, ids=lambda g: f"{g[0]}k{g[1]}s{g[2]}p{g[3]}")
@pytest.mark.parametrize("pool_type", ["avg", "sum"])
def test_column_pair_sum_backward_matches_window_reference(geom, pool_type):
    """The interleaved spread of a stride-aligned sum/avg backward against the window loop
    (float64), NaN heads reaching exactly the taps of their windows."""
    shape, kernel, stride, pad = geom
    rng = np.random.default_rng(sum(shape) + 5 * sum(kernel))
    x = rng.standard_normal(shape)
    kw = dict(kernel=kernel, stride=stride, pad=pad, pool_type=pool_type)
    _check_float64(x, kw, rng)
    xa = nd.array(x, dtype="float64")
    xa.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(xa, **kw)
    head = rng.standard_normal(y.shape)
    head[rng.random(head.shape) < 0.1] = np.nan
    y.backward(nd.array(head, dtype="float64"))
    _, want = _reference(x, head, pool_type, kernel, stride, pad, False, True)
    np.testing.assert_array_equal(np.isnan(xa.grad.asnumpy()), np.isnan(want))
    np.testing.assert_allclose(xa.grad.asnumpy(), want, rtol=1e-12, atol=1e-12)


# -- the training forward that keeps each window's first maximum (3x3/2 pad 1, even sizes)

from mxnet.operator import nn_pool as _nn_pool  # noqa: E402

STEM = dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max")


def _stem_data(shape, data, dtype, rng):
    x = rng.integers(0, 4, shape).astype(dtype)
    if data == "normal":
        x = rng.standard_normal(shape).astype(dtype)
    elif data == "nan":
        x[rng.random(shape) < 0.3] = np.nan
    elif data == "nan_window":                # a window of NaN only: no offsets kept
        x[0, 0, :3, :3] = np.nan
    elif data == "ninf":
        x[rng.random(shape) < 0.2] = -np.inf
    elif data == "signed_zeros":
        x = np.where(rng.random(shape) < 0.5, -0.0, 0.0).astype(dtype)
        x[rng.random(shape) < 0.1] = 1
    return x


@pytest.mark.parametrize("shape", [(2, 3, 8, 10), (1, 2, 2, 2), (3, 1, 4, 126), (1, 1, 6, 128)],
                         ids=str)
@pytest.mark.parametrize("data", ["ties", "normal", "nan", "nan_window", "ninf", "signed_zeros"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_kept_first_max_is_the_window_loop_bit_for_bit(shape, data, dtype, fast_kernels):
    """A training forward keeps the offsets (unless some output is the lowest value, or rows
    are too long for byte offsets); the output equals the inference forward's and the
    gradient the window loop's, bit for bit."""
    rng = np.random.default_rng(sum(shape))
    x = _stem_data(shape, data, dtype, rng)
    xa = nd.array(x, dtype=dtype)
    xa.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(xa, **STEM)
    kept = _nn_pool._first_max_of(y._data, xa._data) is not None
    with_lowest = data in ("nan_window",) or (data == "ninf" and bool(
        (y.asnumpy() == np.finfo(dtype).min).any()))
    assert kept == (shape[3] <= 126 and not with_lowest)
    np.testing.assert_array_equal(y.asnumpy(), nd.Pooling(xa, **STEM).asnumpy())
    head = rng.standard_normal(y.shape).astype(dtype)
    y.backward(nd.array(head, dtype=dtype))
    want = _max_backward_loop(x, y.asnumpy(), head, (3, 3), (2, 2), (1, 1))
    if kept:
        np.testing.assert_array_equal(xa.grad.asnumpy(), want)
    else:   # the per-axis stages (lowest-valued outputs) add shared positions in their order
        np.testing.assert_allclose(xa.grad.asnumpy(), want, rtol=2e-3 if dtype == "float16"
                                   else 1e-6, atol=1e-6)


def test_kept_first_max_in_pieces_and_threads(monkeypatch, fast_kernels):
    """Pieces of feature maps and the batch split over threads keep the same offsets."""
    rng = np.random.default_rng(5)
    x = _stem_data((8, 6, 8, 8), "ties", "float32", rng)
    head = rng.standard_normal((8, 6, 4, 4)).astype("float32")
    want = _max_backward_loop(x, _reference(x.astype(np.float64), head, "max", (3, 3), (2, 2),
                                            (1, 1), False, True)[0].astype("float32"),
                              head, (3, 3), (2, 2), (1, 1))
    monkeypatch.setattr(_nn_pool, "_PIECE_ELEMENTS", 3 * 64)
    from mxnet.operator import _batch_threads
    monkeypatch.setattr(_batch_threads, "_MIN_ELEMENTS", 1)
    monkeypatch.setenv("MXNET_PY_OP_THREADS", "2")
    xa = nd.array(x)
    xa.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(xa, **STEM)
    assert _nn_pool._first_max_of(y._data, xa._data) is not None
    y.backward(nd.array(head))
    np.testing.assert_array_equal(xa.grad.asnumpy(), want)


def test_kept_first_max_follows_its_output_buffer():
    """The offsets belong to the output array the training forward wrote: another data
    array does not use them, an inference forward into the same buffer (an executor's
    output) drops them, and they go when the output is freed."""
    import gc
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 2, 6, 6)).astype("float32")
    data = nd.array(x)
    data.attach_grad()
    with mx.autograd.record():
        y = nd.Pooling(data, **STEM)
    assert _nn_pool._first_max_of(y._data, data._data) is not None
    assert _nn_pool._first_max_of(y._data, x) is None           # another data array
    attrs = mx.operator.registry.get_op("Pooling").parse_attrs(STEM)

    class Run:
        xp, is_train = np, False

    buf = y._data
    _nn_pool._pooling(Run, attrs, data._data, out=[buf])       # inference into the buffer
    assert _nn_pool._first_max_of(buf, data._data) is None
    with mx.autograd.record():
        y2 = nd.Pooling(data, **STEM)
    assert _nn_pool._first_max_of(y2._data, data._data) is not None
    key = id(y2._data)
    assert key in _nn_pool._FIRST_MAX
    del y2
    gc.collect()
    # other tests' entries may be collected here too, so look for this one only
    assert key not in _nn_pool._FIRST_MAX


def test_kept_first_max_in_executors_and_hybridized_blocks(fast_kernels):
    """simple_bind (is_train) and a hybridized block give the window loop's gradient."""
    rng = np.random.default_rng(11)
    x = _stem_data((2, 3, 8, 8), "ties", "float32", rng)
    head = rng.standard_normal((2, 3, 4, 4)).astype("float32")
    y_ref = nd.Pooling(nd.array(x), **STEM).asnumpy()
    want = _max_backward_loop(x, y_ref, head, (3, 3), (2, 2), (1, 1))
    sym = mx.sym.Pooling(mx.sym.var("data"), **STEM)
    ex = sym.simple_bind(mx.cpu(), data=x.shape)
    ex.forward(is_train=True, data=nd.array(x))
    ex.backward(nd.array(head))
    np.testing.assert_array_equal(ex.grad_dict["data"].asnumpy(), want)
    net = mx.gluon.nn.MaxPool2D(3, 2, 1)
    net.hybridize()
    xa = nd.array(x)
    xa.attach_grad()
    with mx.autograd.record():
        y = net(xa)
    y.backward(nd.array(head))
    np.testing.assert_array_equal(xa.grad.asnumpy(), want)
