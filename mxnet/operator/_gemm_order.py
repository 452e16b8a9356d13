"""The summation order of 1.9.1's CPU matrix products, where NumPy's BLAS calls would differ.

Found by experiment against 1.9.1 (float32 and float64, inner dimension K from 1 to 3000):

- ``dot``/``batch_dot``/``linalg_gemm2`` always call OpenBLAS's GEMM, also when one side of the
  product is a vector. NumPy's ``matmul`` sends an (M, K) x (K, 1) product (and 1 x K times
  K x N) to GEMV instead, whose accumulation order differs. NumPy's GEMM itself gives
  1.9.1's bits (0 differences over every shape tried) when its OpenBLAS runs on one thread;
  with more threads, products from about 500 x 34 x 33 up differ in the last bit (the thread
  count is global state, left alone here). A vector-shaped product is therefore widened by
  one zero column (or row; both for a 1 x 1 product) to stay on GEMM. A dot of two 1-D
  arrays is BLAS's DOT in 1.9.1, as in NumPy. For a row vector (M == 1) this holds in float32
  only: 1.9.1's float64 ``(1, K) x (K, N)`` follows another order (an FMA chain for K < 8,
  not identified above), so float64 row vectors keep NumPy's order.
- ``FullyConnected`` in float32 runs oneDNN's inner product. Per output element it is one
  fused multiply-add chain over k = 0 .. K-1 when the batch has at least 16 rows (and more
  than one output unit), and 16 interleaved FMA chains (lane k mod 16) folded by halving
  when the batch has 2 to 15 rows; the bias is added last, in float32. (Above K = 384 the
  chain is split in two halves; that size is past the emulation limit anyway.)
  One-row batches and single-unit layers over >= 16 rows follow yet another order and keep
  NumPy's BLAS.
- Its backward (float32, oneDNN) is one FMA chain per output for both ``dx = g W`` (over the
  units) and ``dw = g^T x`` (over the batch), whatever the batch size; ``db`` is a sequential
  sum over the batch (NumPy's column sums are sequential too, except for a single column,
  which NumPy sums pairwise).

An exact float32 FMA is emulated as the float64 product (exact) plus the float32
accumulator, rounded to float32; the double rounding this can cause was never seen in the
sweeps. The emulation is a Python loop over k with vector steps over the M x N outputs, so it
is used only for small K and small outputs (``FMA_MAX_K``, ``FMA_MAX_WORK``); larger
products keep BLAS (not bit-exact there).
"""
from __future__ import annotations

import numpy as np

FMA_MAX_K = 32          # longest emulated inner dimension
FMA_MAX_WORK = 1 << 15  # largest emulated M * N * K (the emulation is 3-30x BLAS's time)
GEMM_PAD_MAX = 1 << 16  # largest vector-shaped product's operand kept on GEMM
SEQ_SUM_MAX = 1 << 12   # longest single-column bias gradient summed in order
_LANES = 16             # float32 lanes of an AVX-512 register (oneDNN's small-batch kernel)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def gemm(xp, a, b):
    """``xp.matmul(a, b)`` of (..., M, K) and (..., K, N) operands as OpenBLAS's GEMM orders
    it, also when M or N is 1 (NumPy would use GEMV there). GEMM on a one-column product is
    ~4x slower than GEMV on large operands, so those (over ``GEMM_PAD_MAX`` elements) keep
    NumPy's order."""
    m, n = a.shape[-2], b.shape[-1]
    if (m > 1 and n > 1) or a.shape[-1] < 2 or a.dtype != b.dtype or \
            a.dtype not in (_F32, _F64) or max(a.size, b.size) > GEMM_PAD_MAX:
        return xp.matmul(a, b)
    if m == 1 and n == 1:   # a 1 x 1 GEMM (not a 1-D dot, which is BLAS's DOT in 1.9.1 too)
        return xp.matmul(_widen(xp, a, -2), _widen(xp, b, -1))[..., :1, :1]
    if n == 1:
        return xp.matmul(a, _widen(xp, b, -1))[..., :1]
    if a.dtype != _F32:
        return xp.matmul(a, b)
    return xp.matmul(_widen(xp, a, -2), b)[..., :1, :]


def _widen(xp, x, axis):
    """``x`` with a zero row (axis -2) or column (axis -1) appended to its length-1 axis."""
    shape = list(x.shape)
    shape[axis] = 2
    out = xp.zeros(tuple(shape), x.dtype)
    if axis == -1:
        out[..., :1] = x
    else:
        out[..., :1, :] = x
    return out


def _fma_chain(a64, b64):
    """One FMA chain over k per output: (M, K) x (K, N) float64 views of float32 data."""
    m, k = a64.shape
    n = b64.shape[1]
    if m * n <= 2048:   # small outputs: all products at once, then one ufunc call per step
        prods = a64.T[:, :, None] * b64[:, None, :]
        prods[0] += 0.0   # the accumulator starts at +0: a -0 product leaves +0
        acc = prods[0].astype(_F32)
        for i in range(1, k):
            np.add(acc, prods[i], out=acc, casting="same_kind")   # in float64, then rounded
        return acc
    acc = (a64[:, :1] * b64[0] + 0.0).astype(_F32)
    for i in range(1, k):
        np.add(acc, a64[:, i:i + 1] * b64[i], out=acc, casting="same_kind")
    return acc


def _fma_lanes(a64, b64):
    """16 FMA chains (lane k mod 16) folded by halving."""
    m, k = a64.shape
    n = b64.shape[1]
    lanes = np.zeros((_LANES, m, n), _F32)
    w = min(_LANES, k)
    first = a64[:, :w].T[:, :, None] * b64[:w, None, :]
    first += 0.0   # the lanes start at +0: a -0 product leaves +0
    lanes[:w] = first
    for s in range(_LANES, k, _LANES):
        w = min(_LANES, k - s)
        np.add(lanes[:w], a64[:, s:s + w].T[:, :, None] * b64[s:s + w, None, :], out=lanes[:w],
               casting="same_kind")
    h = _LANES
    while h > 1:
        h //= 2
        lanes = lanes[:h] + lanes[h:]
    return lanes[0]


def dnn_inner_product(xp, x2, w, b):
    """oneDNN's float32 ``x2 @ w.T (+ b)`` for x2 (M, K) and w (N, K), or None where the
    order is not emulated (other dtypes or devices, large sizes, unmatched shapes)."""
    if xp is not np or x2.dtype != _F32 or w.dtype != _F32 or (b is not None and b.dtype != _F32):
        return None
    m, k = x2.shape
    n = w.shape[0]
    if k > FMA_MAX_K or m * n * k > FMA_MAX_WORK or m < 2 or (m >= 16 and n < 2) or k < 2:
        return None
    a64 = x2.astype(_F64)
    b64 = w.T.astype(_F64)
    y = _fma_chain(a64, b64) if m >= 16 else _fma_lanes(a64, b64)
    if b is not None:
        y += b
    return y


def dnn_chain(xp, a, b):
    """``a @ b`` of float32 (M, K) and (K, N) as one FMA chain over k per output (oneDNN's
    FullyConnected backward), or None where not emulated."""
    if xp is not np or a.dtype != _F32 or b.dtype != _F32:
        return None
    m, k = a.shape
    n = b.shape[1]
    if k < 2 or k > FMA_MAX_K or m * n * k > FMA_MAX_WORK:
        return None
    return _fma_chain(a.astype(_F64), b.astype(_F64))


def column_sum(xp, g):
    """Sum over the rows of a float32 (M, N) array, row after row (oneDNN's bias gradient)."""
    if xp is np and g.shape[1] == 1 and g.dtype == _F32 and 2 < g.shape[0] <= SEQ_SUM_MAX:
        return np.cumsum(g[:, 0])[-1:]
    return g.sum(axis=0)
