"""The array kernels behind Convolution and Deconvolution, on channel-first arrays.

``Conv`` holds the geometry of one convolution ``y = conv(x, w)`` with x ``(n, C, *S)``, w
``(F, C/G, *K)`` and y ``(n, F, *O)``; three kernels compute it and its gradients:

- ``conv_forward``: im2col (the padded input's kernel windows copied into a column buffer)
  and one GEMM per group and block of images;
- ``conv_dgrad``: for stride 1 (and at most twice as many filters as channels), the forward
  pass of the "transposed" convolution (flipped, transposed kernel, padding
  ``dilate*(kernel-1) - pad``); otherwise a GEMM of the weight with the output gradient into
  columns, then col2im (see ``Conv.scatter``);
- ``conv_wgrad``: im2col of the input and a GEMM against the output gradient.

Bias. Where the columns are thin (one group, fewer than ``_THIN_ROWS`` weights per filter, as
in a 3-channel stem) a separate pass over the output, adding the bias or summing the output
gradient, costs a good share of the GEMM; there the column matrix gets a last row of ones, so
the forward GEMM adds the bias (one more weight column) and the weight gradient's GEMM yields
the bias gradient as one more column (``Conv.thin``, ``conv_forward(bias=)``,
``conv_wgrad(bias=True)``). Elsewhere the bias is added after the GEMMs and its gradient left
to the caller.

Batch last. Where output rows are short (under ``_BL_ROW``, as LeNet's 8x8), every row copy
and col2im add above moves only a few values. With one group, stride 1, at least
``_THIN_ROWS`` weights per filter, fewer than ``_BL_FILTERS`` filters and a whole-batch
column buffer within ``_BL_BYTES`` (``Conv.batch_last``), the three kernels instead transpose
x and gy to batch-last arrays ((C, *P, n), (F, *O, n)), so that a row of the columns holds
that output row for all n images (O[-1]*n contiguous values), and run one whole-batch GEMM
each (``_forward_bl``, ``_dgrad_bl``, ``_dwgrad_bl``); col2im adds each tap's columns for all
channels at once into the padded batch-last gradient, which is transposed back at the end.

Layout. Images are grouped into blocks so that each GEMM has at least ``_GEMM_COLS`` columns
(``_WGRAD_COLS`` for the weight gradient, whose GEMM sums over them): one image per block for
large images (no transposes at all), the whole batch for 4x4 ones. Arrays are held blocked,
``(nblk, C, b, *spatial)``, so a block's columns ``(C*K, b*L)`` are one matrix. Blocks are
processed in chunks whose column buffer stays within ``workspace`` megabytes and, on a CPU,
within a cache-sized ``_COL_BYTES``: columns are multiplied while they are still cached.

Memory traffic is what costs besides the GEMMs, so every copy moves whole rows:

- im2col copies rows of the output width, each row one contiguous run in both arrays (on
  NumPy each row moves as one opaque item, ``copy_rows``). For a stride ``s > 1`` along the
  last axis the padded input is first split into its ``s`` phases along that axis (padded
  positions ``r, r+s, r+2s, ...``), so that each kernel tap still reads unit-stride rows.
  Where every phase that a tap reads fits the output along every axis (``Conv.gather_plan``,
  e.g. a 3x3/2 with pad 1 on even sizes), the unpadded input is instead split into its phases
  along all axes at once, each laid out with the output's pitch (``phase_source``); a tap then
  reads one phase shifted by the same offset for every output, so its columns for a channel
  and block are one flat copy of the whole phase, and the few outputs that read past a phase
  edge are zeroed after (``phase_im2col``, the mirror of ``scatter_flat``).
- col2im (strided data gradients) accumulates into the stride phases of the input gradient:
  along every axis, tap ``t`` of output ``o`` lands on input ``s*(o + a) + r`` with
  ``(a, r) = divmod(t*dilate - pad, s)``, i.e. on position ``o + a`` of phase ``r``. With
  the phase arrays given the output's row pitch, a tap is one flat, shifted add over whole
  feature maps (columns whose target falls outside the input are zeroed first, so what spills
  over a row end adds zero). The phases are interleaved into the gradient at the end.
  With one group and no phase longer than the output along the first axis (NumPy), the GEMM
  writes its columns tap-major (weight rows reordered, a strided GEMM output) and the
  accumulators take the output's block shape, so each tap is a single flat add over all
  channels and images: NumPy adds one long run several times faster than many short rows.

Depthwise. The gradients of depthwise 2-D convolutions (num_group == channels == num_filter)
run in ``conv_depthwise`` (tap sums and dot products over pitched planes, no columns) where
``_depthwise`` says that measured faster; their forward pass stays here (see ``_depthwise``).

Every loop here is over kernel taps, phases or chunks, each iteration a whole-array operation;
none runs over pixels, channels or images.

Threads. Each op thread takes whole images: the batch's blocks are shared out, one contiguous
range per thread (``_image_parts``), and each thread runs the kernel on its range with its own
scratch buffers and a single-threaded GEMM (OpenBLAS's count is lowered meanwhile,
``backend.blas_threads``). Columns are then written and multiplied by the same core. Left to
OpenBLAS's threads instead, each GEMM reads columns that another core wrote, and the next
im2col writes them again; on the 2-core VM, while its vCPUs shared no cache (their placement
changes every few minutes; ``benchmark/vcpu_placement.py``), rewriting a 4 MB buffer that the
other core had read took 330-500 us against 64 us, and im2col took 5x longer (a ResNet-18
64->64 3x3 forward: 9.7 of 19 ms). Kernels that cannot be shared out so (one block of
images, or small) run their GEMMs through ``_gemm_threads.matmul``, split by
rows or columns. The batch-last kernels (LeNet's small maps) keep OpenBLAS's threads: for
their few, small GEMMs an OpenBLAS worker that is already spinning takes work faster than a
pool thread wakes (measured: LeNet training 10.7-11.7 ms a step this way, 13.2-14.2 with
those GEMMs split here). The weight gradient adds the ranges' sums in range order, so its
last bits depend on the thread count; the forward and data gradients compute every image
alike (their bits can still differ where OpenBLAS orders a GEMM's sums differently on one
thread than on several, as its Haswell kernels did in one case measured; its AVX-512 ones did
not). The scratch buffers of a range belong to that range, whichever thread runs it
(``scratch``).

Memory. Each kernel takes ``out``, a contiguous array of its result's shape and dtype to write
into (the GEMMs write there directly where the blocked layout is the result's layout), or None
for a fresh result; both give the same bits. Every intermediate (padded input, columns,
blocked outputs, phase accumulators) lives in a per-thread scratch pool (``scratch``), one
grow-only buffer per role, in the manner of 1.9.1's per-operator temporary workspace: a
repeated call allocates nothing but, without ``out``, its result. No result ever views the
pool.
"""
from __future__ import annotations

import itertools
import math
import os
import sys
import threading

import numpy as np

from ..backend import blas_threads
from ._batch_threads import in_part, op_threads, run_each, run_parts
from ._common import channel_table
from ._gemm_threads import matmul

__all__ = ["Conv", "add_channel_bias", "conv_backward", "conv_forward", "conv_dgrad",
           "conv_wgrad", "copy_rows", "deconv_backward", "scratch", "release_scratch"]

# Upper bound of the column buffer (bytes) on a CPU, whatever ``workspace`` allows: columns
# written and then multiplied while they are still in the cache make the whole pass about
# 20% faster than one buffer for the batch. (On a GPU, ``workspace`` alone decides.)
_COL_BYTES = 4 << 20
# Aim for at least this many GEMM columns (images x output pixels) per block.
_GEMM_COLS = 1024
# The weight gradient's GEMM sums over the columns: longer sums run closer to the peak
# (for weights with at least _WGRAD_BLOCK_ROWS values per filter; else one image a block).
_WGRAD_COLS = 2048
_WGRAD_BLOCK_ROWS = 256
# The strided data gradient's columns are scattered right after their GEMM: smaller blocks
# keep them in the cache (and one image per block needs no transposes).
_DGRAD_COLS = 512
# From this many columns on, the weight gradient is computed transposed (see conv_wgrad).
_TALL_COLS = 4096
# Below this many weights per filter (one group), the bias rides in the GEMMs (Conv.thin).
_THIN_ROWS = 256
# Batch-last kernels (``Conv.batch_last``): output rows shorter than _BL_ROW but at least
# _BL_ROW_MIN values for the whole batch, fewer than _BL_FILTERS filters and a whole-batch
# column buffer of at most _BL_BYTES.
_BL_ROW = 16
_BL_ROW_MIN = 32
_BL_FILTERS = 256
_BL_BYTES = 8 << 20
# ... and from this many columns on, the weight gradient is computed transposed.
_BL_TALL_COLS = 1024
# Strided im2col from whole phases (``Conv.gather_plan``): for output rows shorter than this,
# the phases of the outer axes are split off first as whole input rows (see phase_source).
_PHASE_ROW = 16
# Convolutions of at least this many multiply-adds run as one part per op thread, each with
# its own images, buffers and a single-threaded GEMM (``_image_parts``). (LeNet's first layer,
# 9-18 M multiply-adds, ran faster on one thread: 0.91 against 1.28 ms forward + backward.)
_PART_MACS = 1 << 25
# Depthwise convolutions (``conv_depthwise``): the data gradient of stride 1 runs there from
# this many images on, for output maps of at most _DW_PLANE pixels.
_DW_IMAGES = 4
_DW_PLANE = 400


_POOL = threading.local()
_SLOTS = {}   # (calling thread, image part) -> the part's scratch buffers (see scratch)
_SPLIT = os.environ.get("MXNET_PY_CONV_SPLIT", "0") == "1"


def scratch(xp, role, shape, dtype):
    """An uninitialised array of ``shape`` and ``dtype`` in this thread's scratch buffer for
    ``role`` (grown when too small, else reused). The array is valid until the next request
    for the same role in this thread: a kernel uses each role for one purpose at a time and
    never returns a view of it. Inside image part k (``_run_image_parts``) the buffers are
    part k's of the thread that handed the parts out, whichever thread runs it, so that
    repeated calls find them sized."""
    dtype = np.dtype(dtype)
    n = math.prod(shape) * dtype.itemsize
    slot = getattr(_POOL, "slot", None)
    if slot is not None:
        bufs = _SLOTS.setdefault(slot, {})
    else:
        bufs = getattr(_POOL, "bufs", None)
        if bufs is None:
            bufs = _POOL.bufs = {}
    key = (xp.__name__, role) if xp is np else (xp.__name__, xp.cuda.Device().id, role)
    buf = bufs.get(key)
    if buf is None or buf.size < n:
        buf = bufs[key] = xp.empty(max(n, 1), dtype=np.uint8)
    return buf[:n].view(dtype).reshape(shape)


def release_scratch():
    """Drop this thread's scratch buffers and the image parts' (they are made again when
    next needed)."""
    _POOL.bufs = {}
    _SLOTS.clear()


def _result(xp, out, shape, dtype):
    """``out`` when given (checked), else a new array."""
    if out is None:
        return xp.empty(shape, dtype)
    if tuple(out.shape) != tuple(shape) or out.dtype != dtype or not out.flags.c_contiguous:
        raise ValueError(f"out must be a contiguous {dtype} array of shape {tuple(shape)}, got "
                         f"{out.dtype} {tuple(out.shape)}")
    return out


def _zero_outside(a, box):
    """Zero every element of ``a`` (m, C, b, *sp) outside the spatial slices ``box``."""
    head = (slice(None),) * 3
    for d, sl in enumerate(box):
        lo, hi = sl.start, sl.stop
        rest = (slice(None),) * (len(box) - d - 1)
        if lo > 0:
            a[head + box[:d] + (slice(0, lo),) + rest] = 0
        if hi < a.shape[3 + d]:
            a[head + box[:d] + (slice(hi, None),) + rest] = 0


def copy_rows(xp, dst, src):
    """``dst[...] = src``. On NumPy, where the last axis is contiguous in both, each row moves
    as one opaque item: one inner-loop call then covers many short rows, not one row each."""
    n = dst.shape[-1] if dst.ndim else 0
    if (xp is np and n > 1 and dst.size and dst.dtype == src.dtype and dst.shape == src.shape
            and dst.strides[-1] == dst.itemsize and src.strides[-1] == src.itemsize):
        row = np.dtype((np.void, n * dst.itemsize))
        np.copyto(dst.view(row)[..., 0], src.view(row)[..., 0])
    else:
        dst[...] = src


def _by_channels(xp, fn, c, work):
    """``fn(c0, c1)`` for the copies and adds around the GEMMs: ``fn(0, c)``, inline.

    Splitting them over the op threads (``run_parts``) measured 15-20% slower at two threads
    on the strided ResNet-18 layers (bench_ops, idle 2-core VM): the BLAS threads of the
    GEMM just before are still spinning on the cores the split wants. ``work`` is kept for
    callers; set ``MXNET_PY_CONV_SPLIT=1`` to split anyway."""
    if _SPLIT and xp is np:
        run_parts(fn, c, work)
    else:
        fn(0, c)


def _image_parts(xp, cv):
    """Ranges of blocks, one per op thread, where a kernel on ``cv`` runs as one call per
    thread on its own images with a single-threaded GEMM (``_run_image_parts``); None where
    it runs as one call (its GEMMs split by ``_gemm_threads.matmul``): on a GPU, inside a
    part, for a 1x1 convolution without im2col, for small convolutions, and where the blocks
    cannot be shared out evenly enough."""
    if (xp is not np or cv.unit or cv.nblk < 2
            or in_part() or cv.n * cv.f * cv.L * cv.cg * cv.ksize < _PART_MACS):
        return None
    most = min(op_threads(), blas_threads.threads(), cv.nblk)
    for workers in range(most, 1, -1):
        if cv.nblk % workers == 0 or cv.nblk >= 2 * workers:
            bounds = [cv.nblk * k // workers for k in range(workers + 1)]
            return list(zip(bounds[:-1], bounds[1:]))
    return None


def _run_image_parts(cv, parts, fn):
    """``fn(images, part, k)`` for each range ``parts[k]`` of ``cv``'s blocks, one per op
    thread, with OpenBLAS on one thread meanwhile: ``images`` is the slice of the batch those
    blocks hold and ``part`` the convolution on them alone (``Conv.part``). Range k's scratch
    buffers are the calling thread's k-th (two threads may each be running a convolution's
    ranges)."""
    def task(k):
        i, j = parts[k]
        fn(slice(i * cv.b, j * cv.b), cv.part(i, j), k)
    _run_slots(len(parts), task)


def _run_slots(count, task):
    """``task(k)`` for k in ``[0, count)`` over the op threads, with OpenBLAS on one thread,
    each k in the k-th scratch slot of the calling thread."""
    caller = threading.get_ident()

    def run(k):
        _POOL.slot = (caller, k)
        try:
            task(k)
        finally:
            _POOL.slot = None
    with blas_threads.single_threaded():
        run_each(run, count)


def _block_size(n, L, cols):
    """Images per GEMM block: the smallest divisor b of n with b*L >= cols."""
    for b in range(1, n + 1):
        if n % b == 0 and b * L >= cols:
            return b
    return max(n, 1)


def _ceil_div(a, b):
    return -(-a // b)


class Conv:
    """One channel-first convolution ``y = conv(x, w)``: x (n, C, *S), w (F, C/G, *K),
    y (n, F, *O), with its batch split into ``nblk`` blocks of ``b`` images."""

    def __init__(self, kernel, stride, dilate, pad, groups, ws_bytes, n, c, f, ispace, ospace,
                 cols=None):
        self.kernel, self.stride, self.dilate, self.pad = kernel, stride, dilate, pad
        self.nsp = len(kernel)
        self.n, self.c, self.f, self.g = n, c, f, groups
        self.ispace, self.ospace = tuple(ispace), tuple(ospace)
        self.pspace = tuple(s + 2 * q for s, q in zip(ispace, pad))
        self.ksize = math.prod(kernel)
        self.cg, self.fg = c // groups, f // groups
        self.L = math.prod(self.ospace)
        self.unit = (all(k == 1 for k in kernel) and all(s == 1 for s in stride)
                     and not any(pad))
        self.ws_bytes = ws_bytes
        self.b = _block_size(n, self.L, _GEMM_COLS if cols is None else cols)
        self.nblk = n // self.b if n else 0

    def reblocked(self, cols):
        """The same convolution with blocks of at least ``cols`` columns."""
        return Conv(self.kernel, self.stride, self.dilate, self.pad, self.g, self.ws_bytes,
                    self.n, self.c, self.f, self.ispace, self.ospace, cols)

    def part(self, i, j):
        """The same convolution on blocks i..j alone (images i*b .. j*b), blocked alike."""
        p = Conv(self.kernel, self.stride, self.dilate, self.pad, self.g, self.ws_bytes,
                 (j - i) * self.b, self.c, self.f, self.ispace, self.ospace)
        p.b, p.nblk = self.b, j - i
        return p

    # -- layout ------------------------------------------------------------------------------
    def blocked(self, a):
        """(n, C, *sp) -> a view (nblk, C, b, *sp)."""
        return a.reshape((self.nblk, self.b) + a.shape[1:]).swapaxes(1, 2)

    def unblock_into(self, xp, a, dst):
        """Copy blocks (nblk, C, b, *sp) into the contiguous (n, C, *sp) array ``dst``."""
        copy_rows(xp, self.blocked(dst), a)
        return dst

    def grouped(self, xp, gy):
        """Output-shaped (n, F, *O) as contiguous blocks (nblk, G, Fg, b*L) (a scratch copy
        unless one image makes a block)."""
        blk = self.blocked(gy.reshape(self.n, self.f, self.L))
        shape = (self.nblk, self.g, self.fg, self.b * self.L)
        if blk.flags.c_contiguous:
            return blk.reshape(shape)
        dst = scratch(xp, "grouped", blk.shape, gy.dtype)
        copy_rows(xp, dst, blk)
        return dst.reshape(shape)

    def inner(self):
        return tuple(slice(q, q + s) for q, s in zip(self.pad, self.ispace))

    def chunks(self, xp, itemsize):
        """Balanced ranges of blocks whose column buffers fit the workspace."""
        per = max(self.c * self.ksize * self.b * self.L * itemsize, 1)
        limit = max(min(self.ws_bytes, _COL_BYTES) if xp is np else self.ws_bytes, per)
        nblk = max(self.nblk, 1)
        count = -(-nblk // max(1, limit // per))
        size = -(-nblk // count)
        return size, [(i, min(i + size, self.nblk)) for i in range(0, nblk, size)]

    # -- im2col ------------------------------------------------------------------------------
    def source(self, xp, x):
        """What im2col reads: the zero-padded input as blocks (nblk, C, b, *P), split along the
        last spatial axis into its stride phases, as {phase: array}. Phase r holds padded
        positions r, r + s, ... of that axis (only the phases some tap reads)."""
        xb = self.blocked(x)
        s, p, S = self.stride[-1], self.pad[-1], self.ispace[-1]
        head = (slice(None),) * 3
        if s == 1:
            if not any(self.pad):
                return {0: xb}
            out = scratch(xp, "source", (self.nblk, self.c, self.b) + self.pspace, x.dtype)
            _zero_outside(out, self.inner())
            copy_rows(xp, out[head + self.inner()], xb)
            return {0: out}
        outer = self.inner()[:-1]
        P, d, k = self.pspace[-1], self.dilate[-1], self.kernel[-1]
        # stride 2 over 2- or 4-byte items: a phase starting on an even column is the low half
        # of each pair of items (a narrowing cast reads rows contiguously; faster than a
        # strided copy)
        pairs = (xp is np and s == 2 and x.itemsize in (2, 4) and S % 2 == 0
                 and x.flags.c_contiguous and sys.byteorder == "little")
        if pairs:
            wide, narrow = (np.uint32, np.uint16) if x.itemsize == 2 else (np.uint64, np.uint32)
        res = {}
        for r in sorted({(t * d) % s for t in range(k)}):
            length = _ceil_div(P - r, s)
            out = scratch(xp, f"source{r}",
                          (self.nblk, self.c, self.b) + self.pspace[:-1] + (length,), x.dtype)
            j0 = max(0, _ceil_div(p - r, s))
            j1 = min(length, _ceil_div(p + S - r, s))
            if j1 > j0:
                i0 = r + s * j0 - p
                box = outer + (slice(j0, j1),)

                def fill(c0, c1, out=out, box=box, i0=i0, n=j1 - j0):
                    o = out[:, c0:c1]
                    _zero_outside(o, box)
                    if pairs and i0 % 2 == 0:
                        np.copyto(o[head + box].view(narrow),
                                  xb[:, c0:c1].view(wide)[..., i0 // 2:i0 // 2 + n],
                                  casting="unsafe")
                    else:
                        o[head + box] = xb[:, c0:c1, ..., i0:i0 + s * (n - 1) + 1:s]
                _by_channels(xp, fill, self.c, out.size)
            else:
                out[...] = 0
            res[r] = out
        return res

    def im2col(self, xp, src, i, j, buf, ones=False):
        """Columns (m, G, Cg*K, b*L) of blocks i..j of ``source()``, written into ``buf``.
        With ``ones`` (one group, not ``unit``) each block's matrix gets a last row of ones,
        (m, 1, C*K + 1, b*L): a GEMM against it also sums its other operand's rows (a bias
        column of the weight is added, or the bias gradient comes out as a last column)."""
        m = j - i
        if self.unit:
            return src[0][i:j].reshape(m, self.g, self.cg, self.b * self.L)
        n = self.nsp
        shape = (m, self.c) + self.kernel + (self.b,) + self.ospace
        if ones:
            rows = self.c * self.ksize
            full = buf[:m * (rows + 1) * self.b * self.L].reshape(m, rows + 1, self.b * self.L)
            full[:, rows] = 1
            col = full[:, :rows].reshape(shape)
        else:
            col = buf[:math.prod(shape)].reshape(shape)
        s, d = self.stride[-1], self.dilate[-1]
        # the last kernel axis is a dimension of one window view (stride 1) or a loop over its
        # taps t, each reading phase (t*d) % s from position (t*d) // s on
        taps = [(None, 0, 0)] if s == 1 else [
            (t, (t * d) % s, (t * d) // s) for t in range(self.kernel[-1])]
        for t, r, off in taps:
            a = src[r][i:j]
            if off:
                a = a[..., off:]
            st = a.strides
            sp = st[3:]
            kdims = n if t is None else n - 1
            wshape = (m, self.c) + self.kernel[:kdims] + (self.b,) + self.ospace
            strides = ((st[0], st[1]) + tuple(sp[q] * self.dilate[q] for q in range(kdims))
                       + (st[2],) + tuple(sp[q] * self.stride[q] for q in range(n - 1))
                       + (sp[-1] * (self.stride[-1] if t is None else 1),))
            win = xp.lib.stride_tricks.as_strided(a, wshape, strides)
            dst = col if t is None else col[(slice(None),) * (n + 1) + (t,)]
            copy_rows(xp, dst, win)
        if ones:
            return full.reshape(m, 1, rows + 1, self.b * self.L)
        return col.reshape(m, self.g, self.cg * self.ksize, self.b * self.L)

    # -- im2col from whole stride phases ----------------------------------------------------
    def gather_plan(self, xp):
        """``scatter_plan`` where every phase some tap reads fits the output along every axis
        (a strided NumPy convolution, not ``unit``), else None: then ``phase_source`` and
        ``phase_im2col`` copy each tap's columns as whole feature maps."""
        if (xp is not np or self.unit or all(s == 1 for s in self.stride)
                or (self.ksize > 1 and all(k <= s for k, s in zip(self.kernel, self.stride)))):
            return None
        plan = self.scatter_plan()
        if plan is None or any(lengths[r] > o for (lengths, taps), o in zip(plan, self.ospace)
                               for r, _, _, _ in taps):
            return None
        return plan

    def phase_source(self, xp, x, plan):
        """The unpadded input's stride phases as blocks, {phase: (nblk, C, b, *O)}: phase
        (r_0, r_1, ...) holds input positions r_d, r_d + s_d, ... along axis d, with the
        output's pitch (slots past a phase's length are left as they are: only outputs that
        ``phase_im2col`` zeroes read them)."""
        xb = self.blocked(x)
        head = (slice(None),) * 3
        # the even phase of a stride 2 over 2- or 4-byte items is the low half of each pair
        # of items (a narrowing cast reads rows contiguously; faster than a strided copy)
        pairs = (self.stride[-1] == 2 and x.itemsize in (2, 4) and self.ispace[-1] % 2 == 0
                 and x.flags.c_contiguous and sys.byteorder == "little")
        if pairs:
            wide, narrow = (np.uint32, np.uint16) if x.itemsize == 2 else (np.uint64, np.uint32)
        res, rows = {}, {}
        for ph in itertools.product(*[sorted({r for r, _, _, _ in taps}) for _, taps in plan]):
            out = scratch(xp, "psource" + "_".join(map(str, ph)),
                          (self.nblk, self.c, self.b) + self.ospace, x.dtype)
            lengths = [plan[d][0][r] for d, r in enumerate(ph)]
            res[ph] = out
            if not all(lengths):
                continue
            dst = out[head + tuple(slice(0, k) for k in lengths)]
            # the outer axes' phase first, as whole rows (one long loop, where selecting
            # both at once loops over short rows), then the last axis' phase from it
            src = rows.get(ph[:-1])
            if src is None:
                src = xb
                if any(s > 1 for s in self.stride[:-1]) and self.ospace[-1] < _PHASE_ROW:
                    sel = head + tuple(slice(r, None, s) for r, s in zip(ph[:-1], self.stride))
                    src = scratch(xp, "psource_rows", xb[sel].shape, x.dtype)
                    copy_rows(xp, src, xb[sel])
                rows = {ph[:-1]: src}
            if src is xb:
                src = xb[head + tuple(slice(r, None, s) for r, s in zip(ph[:-1], self.stride))]
            if pairs and ph[-1] == 0:
                np.copyto(dst.view(narrow), src.view(wide), casting="unsafe")
            else:
                copy_rows(xp, dst, src[..., ph[-1]::self.stride[-1]])
        return res

    def phase_im2col(self, xp, src, plan, i, j, buf, ones=False):
        """``im2col`` from ``phase_source``: tap t reads position o + a of its phase (``plan``),
        the same shift for every output, so each channel's columns of a tap are one shifted
        copy of its phase's whole block; outputs whose position falls outside the phase are
        zeroed after."""
        m, n, O = j - i, self.nsp, self.ospace
        bl = self.b * self.L
        shape = (m, self.c, self.ksize, bl)
        if ones:
            rows = self.c * self.ksize
            full = buf[:m * (rows + 1) * bl].reshape(m, rows + 1, bl)
            full[:, rows] = 1
            col = full[:, :rows].reshape(shape)
        else:
            col = buf[:math.prod(shape)].reshape(shape)
        pitch = [math.prod(O[d + 1:]) for d in range(n)]
        head = (slice(None),) * 3
        for k, tap in enumerate(itertools.product(*[range(t) for t in self.kernel])):
            info = [plan[d][1][t] for d, t in enumerate(tap)]
            if (self.ksize == 1 and not ones and not any(a for _, a, _, _ in info)
                    and all(lo == 0 and hi == o for (_, _, lo, hi), o in zip(info, O))):
                # one tap reading its phase as it is: the phase is the column matrix
                a = src[tuple(r for r, _, _, _ in info)][i:j]
                return a.reshape(m, self.g, self.cg, bl)
            dst = col[:, :, k]
            if any(lo >= hi for _, _, lo, hi in info):
                dst[...] = 0
                continue
            a = src[tuple(r for r, _, _, _ in info)][i:j].reshape(m, self.c, bl)
            shift = sum(q * p for (_, q, _, _), p in zip(info, pitch))
            if shift >= 0:
                copy_rows(xp, dst[..., :bl - shift], a[..., shift:])
            else:
                copy_rows(xp, dst[..., -shift:], a[..., :bl + shift])
            box = dst.reshape((m, self.c, self.b) + O)
            for d, (_, _, lo, hi) in enumerate(info):
                before, rest = (slice(None),) * d, (slice(None),) * (n - 1 - d)
                if lo > 0:
                    box[head + before + (slice(None, lo),) + rest] = 0
                if hi < O[d]:
                    box[head + before + (slice(hi, None),) + rest] = 0
        if ones:
            return full.reshape(m, 1, rows + 1, bl)
        return col.reshape(m, self.g, self.cg * self.ksize, bl)

    def columns(self, xp, x):
        """(source, im2col) for the kernels: ``phase_source``/``phase_im2col`` where
        ``gather_plan`` allows, else ``source``/``im2col``."""
        plan = self.gather_plan(xp)
        if plan is None:
            return self.source(xp, x), self.im2col
        return (self.phase_source(xp, x, plan),
                lambda xp, src, i, j, buf, ones=False: self.phase_im2col(xp, src, plan, i, j,
                                                                          buf, ones))

    # -- col2im ------------------------------------------------------------------------------
    def scatter_plan(self):
        """Per spatial axis: (phase lengths, [(phase, shift, first, end) per tap]), where tap t
        of outputs first..end-1 lands on position o + shift of the phase. None where a phase of
        an inner axis is longer than the output (it then cannot take the output's pitch)."""
        plan = []
        for d in range(self.nsp):
            S, O, s = self.ispace[d], self.ospace[d], self.stride[d]
            lengths = [_ceil_div(S - r, s) if r < S else 0 for r in range(s)]
            taps = []
            for t in range(self.kernel[d]):
                a, r = divmod(t * self.dilate[d] - self.pad[d], s)
                taps.append((r, a, max(0, -a), min(O, lengths[r] - a)))
            if d > 0 and any(lengths[r] > O for r, _, _, _ in taps):
                return None
            plan.append((lengths, taps))
        return plan

    def scatter(self, plan, dcol, acc):
        """Add columns (m, C, *K, b, *O) into the phase accumulators ``acc`` ({phases: (m, C,
        b, E, *O[1:])}, E the longest phase of the first axis), one flat add per tap."""
        n, O = self.nsp, self.ospace
        pitch = [math.prod(O[d + 1:]) for d in range(n)]
        R = pitch[0]
        full = (slice(None),) * 3
        for tap in itertools.product(*[range(k) for k in self.kernel]):
            info = [plan[d][1][t] for d, t in enumerate(tap)]
            if any(lo >= hi for _, _, lo, hi in info):
                continue
            src = dcol[(slice(None), slice(None)) + tap]                # (m, C, b, *O)
            for d in range(1, n):  # targets outside the input: zero, so spills add nothing
                _, _, lo, hi = info[d]
                rest = (slice(None),) * (n - 1 - d)
                if lo > 0:
                    src[full + (slice(None),) * d + (slice(None, lo),) + rest] = 0
                if hi < O[d]:
                    src[full + (slice(None),) * d + (slice(hi, None),) + rest] = 0
            q = acc[tuple(r for r, _, _, _ in info)]
            dst = q.reshape(q.shape[:3] + (-1,))
            _, a0, lo0, hi0 = info[0]
            s0, s1 = lo0 * R, hi0 * R
            ds = (lo0 + a0) * R + sum(info[d][1] * pitch[d] for d in range(1, n))
            if ds < 0:
                s0, ds = s0 - ds, 0
            s1 = min(s1, s0 + dst.shape[-1] - ds)
            dst[..., ds:ds + s1 - s0] += src.reshape(src.shape[:3] + (-1,))[..., s0:s1]

    def scatter_flat(self, plan, taps, acc):
        """Add columns held tap-major, ``taps`` (*K, C', m, b, *O), into the phase
        accumulators ``acc`` ({phase: (C', m, b, *O)}, contiguous; every phase no longer than
        the output along each axis), one add per tap over the whole flattened arrays: the
        shift is the same for every pixel, channel and block, and what a tap would place
        outside its own block's phase is zeroed first, so that it spills nothing into the
        neighbours."""
        n, O = self.nsp, self.ospace
        pitch = [math.prod(O[d + 1:]) for d in range(n)]
        head = (slice(None),) * 3
        for tap in itertools.product(*[range(k) for k in self.kernel]):
            info = [plan[d][1][t] for d, t in enumerate(tap)]
            if any(lo >= hi for _, _, lo, hi in info):
                continue
            src = taps[tap]
            for d, (_, _, lo, hi) in enumerate(info):
                before, rest = (slice(None),) * d, (slice(None),) * (n - 1 - d)
                if lo > 0:
                    src[head + before + (slice(None, lo),) + rest] = 0
                if hi < O[d]:
                    src[head + before + (slice(hi, None),) + rest] = 0
            dst = acc[tuple(r for r, _, _, _ in info)].reshape(-1)
            flat = src.reshape(-1)
            shift = sum(a * q for (_, a, _, _), q in zip(info, pitch))
            if abs(shift) >= flat.size:
                continue
            if shift >= 0:
                dst[shift:] += flat[:flat.size - shift]
            else:
                dst[:shift] += flat[-shift:]

    def col2im_strided(self, dcol, dxpad):
        """Add columns (m, C, *K, b, *O) into padded blocks (m, C, b, *P), tap by tap (every add
        covers all blocks, channels and pixels at once, with strided targets). Used where
        ``scatter_plan`` is None."""
        head = (slice(None),) * 3
        for tap in itertools.product(*[range(k) for k in self.kernel]):
            dst = head + tuple(slice(t * d, t * d + (o - 1) * s + 1, s) for t, d, o, s in
                               zip(tap, self.dilate, self.ospace, self.stride))
            dxpad[dst] += dcol[(slice(None), slice(None)) + tap]

    # -- weights -----------------------------------------------------------------------------
    def wmat(self, w):
        return w.reshape(self.g, self.fg, self.cg * self.ksize)

    def thin(self):
        """Whether the bias rides in the GEMMs (a ones row in the columns, see ``im2col``):
        one group and few rows per filter, where a separate pass over the output (adding
        the bias, or summing the output gradient) costs a good share of the GEMM itself."""
        return self.g == 1 and not self.unit and self.cg * self.ksize < _THIN_ROWS

    # -- batch last ---------------------------------------------------------------------------
    def batch_last(self, xp, itemsize):
        """Whether the batch-last kernels apply: NumPy, one group, stride 1, many weights per
        filter (not ``thin``) but fewer than ``_BL_FILTERS`` filters (with more the GEMMs
        dominate and the copies saved do not pay), short output rows that the batch makes
        long (at least ``_BL_ROW_MIN`` values) and whole-batch columns within ``_BL_BYTES``
        and the workspace."""
        if not (xp is np and self.g == 1 and not self.unit and self.f < _BL_FILTERS
                and all(s == 1 for s in self.stride) and self.ospace[-1] < _BL_ROW
                and self.ospace[-1] * self.n >= _BL_ROW_MIN
                and self.cg * self.ksize >= _THIN_ROWS):
            return False
        return self.c * self.ksize * self.n * self.L * itemsize <= min(self.ws_bytes, _BL_BYTES)

    def bl_source(self, xp, x):
        """The zero-padded input, batch last: a scratch (C, *P, n)."""
        xt = scratch(xp, "bl_source", (self.c,) + self.pspace + (self.n,), x.dtype)
        inner = (slice(None),) + self.inner()
        for d, sl in enumerate(self.inner()):
            if sl.start > 0:
                xt[inner[:d + 1] + (slice(0, sl.start),)] = 0
            if sl.stop < self.pspace[d]:
                xt[inner[:d + 1] + (slice(sl.stop, None),)] = 0
        xt[inner] = x.transpose(tuple(range(1, self.nsp + 2)) + (0,))
        return xt

    def bl_grad(self, xp, gy):
        """The output gradient (n, F, *O), batch last: a scratch (F, L*n)."""
        gt = scratch(xp, "bl_grad", (self.f,) + self.ospace + (self.n,), gy.dtype)
        gt[...] = gy.transpose(tuple(range(1, self.nsp + 2)) + (0,))
        return gt.reshape(self.f, self.L * self.n)

    def bl_columns(self, xp, xt):
        """Columns (C*K, L*n) of the batch-last padded input ``xt`` (C, *P, n): for every
        channel and tap, a window of whole output rows of all the images (rows of O[-1]*n
        contiguous values, one ``copy_rows`` item each)."""
        n, k = self.n, self.nsp
        a = xt.reshape(xt.shape[:-2] + (-1,))
        st = a.strides
        sp = st[1:]
        shape = (self.c,) + self.kernel + self.ospace[:-1] + (self.ospace[-1] * n,)
        strides = ((st[0],) + tuple(sp[q] * self.dilate[q] for q in range(k - 1))
                   + (xt.itemsize * n * self.dilate[-1],) + sp[:-1] + (xt.itemsize,))
        win = xp.lib.stride_tricks.as_strided(a, shape, strides)
        col = scratch(xp, "columns", shape, xt.dtype)
        copy_rows(xp, col, win)
        return col.reshape(self.c * self.ksize, self.L * n)

    def transposed(self):
        """For stride 1 and pad <= dilated kernel - 1: the convolution whose forward pass is
        this one's data gradient (a full correlation with the flipped, transposed kernel)."""
        if any(s != 1 for s in self.stride):
            return None
        pad = tuple(d * (k - 1) - q for k, d, q in zip(self.kernel, self.dilate, self.pad))
        if any(q < 0 for q in pad):
            return None
        return Conv(self.kernel, self.stride, self.dilate, pad, self.g, self.ws_bytes,
                    self.n, self.f, self.c, self.ospace, self.ispace)

    def flipped(self, xp, w):
        """Weight (F, Cg, *K) of this conv as the weight (C, Fg, *K) of ``transposed()``."""
        wg = w.reshape((self.g, self.fg, self.cg) + self.kernel).swapaxes(1, 2)
        wg = wg[(Ellipsis,) + (slice(None, None, -1),) * len(self.kernel)]
        return xp.ascontiguousarray(wg).reshape((self.c, self.fg) + self.kernel)


def conv_forward(xp, x, w, cv, out=None, bias=None):
    """y (n, F, *O) = conv(x, w) (+ ``bias`` (F,) per filter), written into ``out`` when
    given."""
    dt = x.dtype
    y = _result(xp, out, (cv.n, cv.f) + cv.ospace, dt)
    if cv.batch_last(xp, dt.itemsize):
        return _forward_bl(xp, x, w, cv, y, bias)
    parts = _image_parts(xp, cv)
    if parts:
        _run_image_parts(cv, parts, lambda sl, pc, k: _forward(xp, x[sl], w, pc, y[sl], bias))
        return y
    return _forward(xp, x, w, cv, y, bias)


def _forward(xp, x, w, cv, y, bias):
    dt = x.dtype
    wm = cv.wmat(w)
    fused = bias is not None and cv.thin()
    if fused:   # the bias as one more weight column, against the columns' row of ones
        wm = xp.concatenate([wm, bias.astype(dt, copy=False).reshape(1, cv.f, 1)], axis=2)
    src, im2col = cv.columns(xp, x)
    size, ranges = cv.chunks(xp, dt.itemsize)
    rows = cv.c * cv.ksize + fused
    buf = None if cv.unit else scratch(xp, "columns", (size * rows * cv.b * cv.L,), dt)
    # one image per block: the blocked product is y itself; else it is transposed into y
    blk = y if cv.b == 1 else scratch(xp, "blocked", (cv.nblk, cv.f, cv.b, cv.L), dt)
    ym = blk.reshape(cv.nblk, cv.g, cv.fg, cv.b * cv.L)
    for i, j in ranges:
        matmul(xp, wm, im2col(xp, src, i, j, buf, fused), out=ym[i:j])
    if cv.b != 1:
        cv.unblock_into(xp, blk, y.reshape(cv.n, cv.f, cv.L))
    if bias is not None and not fused:
        add_channel_bias(xp, y, bias.astype(dt, copy=False))
    return y


def _dw():
    from . import conv_depthwise
    return conv_depthwise


def _depthwise(xp, cv, kernel):
    """Whether ``kernel`` ("dgrad" or "wgrad") of ``cv`` runs in ``conv_depthwise`` (a
    depthwise 2-D convolution, where that measured faster than the columns here: the weight
    gradient always; the data gradient for strided convolutions and for small feature maps
    over several images). The forward pass stays here: 1.9.1 adds its taps one fused
    multiply-add at a time, which a GEMM of the taps' columns matches for 85% of the outputs
    measured, and separate multiplies and adds for 52% (enough to move MobileNet's
    ill-conditioned data gradient by a relative 1e-2)."""
    if not (xp is np and cv.g == cv.c and _dw().applies(xp, cv)):
        return False
    if kernel == "wgrad":
        return True
    return (cv.n >= _DW_IMAGES and cv.L <= _DW_PLANE) or max(cv.stride) > 1


def _dw_run(xp, cv, fn, dw=None):
    """``fn(images, conv of those images, weight-gradient sum)`` for the depthwise kernels:
    over the op threads' image ranges (``_image_parts`` with one image per block), else once
    for the whole batch. With ``dw``, each range's weight gradient goes to a part of its own
    and the parts are added in range order into ``dw``."""
    cv1 = cv.reblocked(1)
    parts = _image_parts(xp, cv1)
    if not parts:
        fn(slice(None), cv, dw)
        return
    sums = (scratch(xp, "wparts", (len(parts),) + dw.shape, dw.dtype) if dw is not None
            else [None] * len(parts))
    _run_image_parts(cv1, parts, lambda sl, pc, k: fn(sl, pc, sums[k]))
    if dw is not None:
        xp.sum(sums, axis=0, out=dw)


def add_channel_bias(xp, y, bias):
    """y (n, F, *S) += bias (F,) per channel; on NumPy against a (F, *S) table of the bias
    (``channel_table``)."""
    if xp is np and y.ndim > 2 and y[0].size > bias.size:
        y += channel_table(bias, y[0].size // bias.size).reshape(y.shape[1:])
    else:
        y += bias.reshape((-1,) + (1,) * (y.ndim - 2))
    return y


def _dgrad_plan(xp, cv, itemsize):
    """How conv_dgrad computes: ("tr", transposed conv) for the forward pass of the
    transposed convolution, ("bl", cv) batch last, or ("cols", cv reblocked) columns and
    col2im."""
    # The transposed convolution copies F*K values per input pixel (im2col of gy) and its GEMM
    # has only C rows; col2im writes and adds C*K. So it is used for stride 1 when the output
    # is not much smaller than the input and F <= 2*C (ResNet's layers; not a 3-channel stem).
    tr = (cv.transposed() if 8 * math.prod(cv.ispace) <= 9 * math.prod(cv.ospace)
          and cv.f <= 2 * cv.c else None)
    if tr is not None:
        return "tr", tr
    if cv.batch_last(xp, itemsize):
        return "bl", cv
    return "cols", cv.reblocked(_DGRAD_COLS)


def conv_dgrad(xp, gy, w, cv, out=None):
    """dx (n, C, *S) of y = conv(x, w) given gy (n, F, *O), written into ``out`` when given."""
    if _depthwise(xp, cv, "dgrad"):
        dx = _result(xp, out, (cv.n, cv.c) + cv.ispace, gy.dtype)
        _dw_run(xp, cv, lambda sl, pc, _: _dw().dgrad(gy[sl], w, pc, dx[sl]))
        return dx
    return _conv_dgrad(xp, gy, w, cv, out)


def _conv_dgrad(xp, gy, w, cv, out):
    """conv_dgrad through the columns here."""
    how, dc = _dgrad_plan(xp, cv, gy.dtype.itemsize)
    if how == "tr":
        return conv_forward(xp, gy, cv.flipped(xp, w), dc, out)
    dt = gy.dtype
    dx = _result(xp, out, (cv.n, cv.c) + cv.ispace, dt)
    if how == "bl":
        return _dgrad_bl(xp, gy, w, cv, dx)
    parts = _image_parts(xp, dc)
    if parts:
        _run_image_parts(dc, parts, lambda sl, pc, k: _dgrad(xp, gy[sl], w, pc, dx[sl]))
        return dx
    return _dgrad(xp, gy, w, dc, dx)


def _dgrad(xp, gy, w, cv, dx):
    """conv_dgrad through columns and col2im, into dx."""
    dt = gy.dtype
    gb = cv.grouped(xp, gy)
    size, ranges = cv.chunks(xp, dt.itemsize)
    dbuf = scratch(xp, "columns", (size * cv.c * cv.ksize * cv.b * cv.L,), dt)
    plan = cv.scatter_plan()
    if plan is None:
        dxpad = scratch(xp, "padded", (cv.nblk, cv.c, cv.b) + cv.pspace, dt)
        dxpad[...] = 0
    else:
        phases = list(itertools.product(*[sorted({r for r, _, _, _ in taps})
                                          for _, taps in plan]))
        ext = max(plan[0][0][r] for r in {ph[0] for ph in phases})
        complete = all(set(range(min(s, S))) <= {r for r, _, _, _ in taps}
                       for (_, taps), s, S in zip(plan, cv.stride, cv.ispace))
        if not complete:   # positions that no phase holds (stride > kernel) stay zero
            dx[...] = 0
        dxb = cv.blocked(dx)
        if xp is np and cv.g == 1 and ext <= cv.ospace[0]:
            return _dgrad_flat(xp, gb, w, cv, plan, phases, ranges, dbuf, dxb, dx)
        # the chunk's phase accumulators, reused (and interleaved into dx while still cached)
        acc = scratch(xp, "phases", (len(phases), size, cv.c, cv.b, ext) + cv.ospace[1:], dt)
    wt = cv.wmat(w).transpose(0, 2, 1)
    for i, j in ranges:
        m = j - i
        dcol = dbuf[:m * cv.c * cv.ksize * cv.b * cv.L].reshape(
            m, cv.g, cv.cg * cv.ksize, cv.b * cv.L)
        matmul(xp, wt, gb[i:j], out=dcol)
        dcol = dcol.reshape((m, cv.c) + cv.kernel + (cv.b,) + cv.ospace)
        if plan is None:
            cv.col2im_strided(dcol, dxpad[i:j])
            continue
        qs = acc[:, :m]

        def col2im(c0, c1, dcol=dcol, qs=qs, i=i, j=j):
            # accumulate channels c0..c1 into their phases, then interleave them into dx
            qc = qs[:, :, c0:c1]
            qc[...] = 0
            cv.scatter(plan, dcol[:, c0:c1], dict(zip(phases, qc)))
            _interleave(xp, cv, plan, phases, qc, dxb[i:j, c0:c1])
        # one pass per tap and phase over the accumulators: worth splitting over threads
        _by_channels(xp, col2im, cv.c, qs.size * (cv.ksize + len(phases)))
    if plan is not None:
        return dx
    if any(cv.pad):
        dxpad = dxpad[(slice(None),) * 3 + cv.inner()]
    return cv.unblock_into(xp, dxpad, dx)


def _interleave(xp, cv, plan, phases, accs, dst):
    """Copy the phase accumulators ``accs`` (one (m, C', b, ...) array per phase) into their
    stride phases of ``dst`` (m, C', b, *S)."""
    for ph, q in zip(phases, accs):
        lengths = [plan[d][0][r] for d, r in enumerate(ph)]
        if all(lengths):
            sub = dst[(slice(None),) * 3 + tuple(slice(r, r + s * (k - 1) + 1, s)
                                                 for r, s, k in zip(ph, cv.stride, lengths))]
            copy_rows(xp, sub, q[(slice(None),) * 3 + tuple(slice(0, k) for k in lengths)])


def _dgrad_flat(xp, gb, w, cv, plan, phases, ranges, dbuf, dxb, dx):
    """conv_dgrad's col2im for one group where no phase is longer than the output along the
    first axis: the GEMM writes the columns tap-major, (K, C, m, b*L) (weight rows reordered,
    a strided GEMM output), so that each tap's columns for all channels and blocks are one
    contiguous run, and ``Conv.scatter_flat`` adds each with a single flat add. (Each add
    over many short rows costs several times one add over their concatenation.)"""
    dt = dx.dtype
    k, c, bl = cv.ksize, cv.c, cv.b * cv.L
    wt = xp.ascontiguousarray(w.reshape(cv.f, c, k).transpose(2, 1, 0)).reshape(k * c, cv.f)
    size = max(j - i for i, j in ranges)
    abuf = scratch(xp, "phases", (len(phases) * c * size * bl,), dt)
    for i, j in ranges:
        m = j - i
        cols = dbuf[:k * c * m * bl].reshape(k * c, m, bl)
        matmul(xp, wt, gb[i:j, 0], out=cols.transpose(1, 0, 2))
        cols = cols.reshape(cv.kernel + (c, m, cv.b) + cv.ospace)
        acc = abuf[:len(phases) * c * m * bl].reshape((len(phases), c, m, cv.b) + cv.ospace)

        def col2im(c0, c1, cols=cols, acc=acc, i=i, j=j):
            qc = acc[:, c0:c1]
            qc[...] = 0
            cv.scatter_flat(plan, cols[(slice(None),) * cv.nsp + (slice(c0, c1),)],
                            dict(zip(phases, qc)))
            _interleave(xp, cv, plan, phases, qc.swapaxes(1, 2), dxb[i:j, c0:c1])
        _by_channels(xp, col2im, c, acc.size * (k + len(phases)))
    return dx


def _forward_bl(xp, x, w, cv, y, bias):
    """conv_forward, batch last (``Conv.batch_last``): one GEMM over the whole batch,
    (L*n, C*K) x (C*K, F) (the columns transposed; measured faster than (F, C*K) x
    (C*K, L*n)), its (*O, n, F) product transposed into y."""
    dt = x.dtype
    yt = scratch(xp, "blocked", (cv.L, cv.n, cv.f), dt)
    xp.matmul(cv.bl_columns(xp, cv.bl_source(xp, x)).T, cv.wmat(w)[0].T,
              out=yt.reshape(cv.L * cv.n, cv.f))
    y.reshape(cv.n, cv.f, cv.L)[...] = yt.transpose(1, 2, 0)
    if bias is not None:   # (a separate pass: measured faster than adding while transposing)
        add_channel_bias(xp, y, bias.astype(dt, copy=False))
    return y


def _dgrad_bl(xp, gy, w, cv, dx):
    """conv_dgrad, batch last (``Conv.batch_last``, stride 1): one GEMM (C*K, F) x (F, L*n)
    over the whole batch, then col2im into the padded batch-last gradient (C, *P, n), one
    add per tap over all channels, each row of O[-1]*n values contiguous in both, and the
    inner part transposed into dx."""
    n, c, nsp = cv.n, cv.c, cv.nsp
    region = cv.ospace[:-1] + (cv.ospace[-1] * n,)        # a tap's columns per channel
    cols = scratch(xp, "columns", (c * cv.ksize, cv.L * n), dx.dtype)
    xp.matmul(cv.wmat(w)[0].T, cv.bl_grad(xp, gy), out=cols)
    cols = cols.reshape((c,) + cv.kernel + region)
    acc = scratch(xp, "padded", (c,) + cv.pspace[:-1] + (cv.pspace[-1] * n,), dx.dtype)
    acc[...] = 0
    unit = (1,) * (nsp - 1) + (n,)                       # the last axis holds n per pixel
    for tap in itertools.product(*[range(t) for t in cv.kernel]):
        box = tuple(slice(t * d * u, t * d * u + r)
                    for t, d, r, u in zip(tap, cv.dilate, region, unit))
        acc[(slice(None),) + box] += cols[(slice(None),) + tap]
    src = acc.reshape((c,) + cv.pspace + (n,))[(slice(None),) + cv.inner()]
    dx[...] = src.transpose((nsp + 1, 0) + tuple(range(1, nsp + 1)))
    return dx


def _dwgrad_bl(xp, gy, x, cv, dw):
    """conv_wgrad, batch last (``Conv.batch_last``): one GEMM over the whole batch, with
    many columns (C*K, L*n) x (L*n, F) transposed into dw (measured faster), else
    (F, L*n) x (L*n, C*K) straight into dw (the transpose of a large weight would cost
    more than it saves)."""
    col = cv.bl_columns(xp, cv.bl_source(xp, x))
    gt = cv.bl_grad(xp, gy)
    if cv.L * cv.n < _BL_TALL_COLS:
        xp.matmul(gt, col.T, out=dw.reshape(cv.f, -1))
        return dw
    part = scratch(xp, "wsum", (cv.c * cv.ksize, cv.f), dw.dtype)
    xp.matmul(col, gt.T, out=part)
    dw.reshape(cv.f, -1)[...] = part.T
    return dw


def _wgrad_conv(xp, cv, itemsize):
    """The blocking conv_wgrad computes with, or None for the batch-last kernel."""
    if cv.batch_last(xp, itemsize):
        return None
    # Blocks of several images need gy transposed into them (a copy of gy); that pays off in
    # GEMM speed only where each column meets many weights (not for a 3-channel stem).
    return cv.reblocked(_WGRAD_COLS if cv.cg * cv.ksize >= _WGRAD_BLOCK_ROWS else 1)


def _wgrad_sums(xp, wc, count, dtype, bias):
    """Scratch for ``count`` image parts' weight (and bias, where it rides in the GEMMs)
    gradient sums."""
    dws = scratch(xp, "wparts", (count, wc.f, wc.cg) + wc.kernel, dtype)
    dbs = (scratch(xp, "bparts", (count, wc.f), dtype) if bias and wc.thin()
           else [None] * count)
    return dws, dbs


def _wgrad_total(xp, wc, dws, dbs, dw, bias, bias_out):
    """The parts' sums added up in part order (the same bits however the parts were
    scheduled); conv_wgrad's result."""
    xp.sum(dws, axis=0, out=dw)
    if not bias:
        return dw
    if not wc.thin():
        return dw, None
    db = _result(xp, bias_out, (wc.f,), dw.dtype)
    xp.sum(dbs, axis=0, out=db)
    return dw, db


def conv_wgrad(xp, gy, x, cv, out=None, bias=False, bias_out=None):
    """dw (F, Cg, *K) of y = conv(x, w) given gy (n, F, *O), written into ``out`` when
    given. With ``bias``, returns (dw, db): db (F,) the bias gradient (into ``bias_out`` when
    given) where it comes out of the same GEMM (``Conv.thin``), else None (left to the
    caller)."""
    dt = gy.dtype
    dw = _result(xp, out, (cv.f, cv.cg) + cv.kernel, dt)
    if _depthwise(xp, cv, "wgrad"):
        _dw_run(xp, cv, lambda sl, pc, part: _dw().wgrad(gy[sl], x[sl], pc, part), dw)
        return (dw, None) if bias else dw
    wc = _wgrad_conv(xp, cv, dt.itemsize)
    if wc is None:
        _dwgrad_bl(xp, gy, x, cv, dw)
        return (dw, None) if bias else dw
    parts = _image_parts(xp, wc)
    if not parts:
        return _wgrad(xp, gy, x, wc, dw, bias, bias_out)
    dws, dbs = _wgrad_sums(xp, wc, len(parts), dt, bias)
    _run_image_parts(wc, parts, lambda sl, pc, k: _wgrad(xp, gy[sl], x[sl], pc, dws[k], bias,
                                                         dbs[k]))
    return _wgrad_total(xp, wc, dws, dbs, dw, bias, bias_out)


def conv_backward(xp, gy, x, w, cv, dx_out=None, dw_out=None, bias=False, db_out=None):
    """``(conv_dgrad(...), conv_wgrad(...))``, flattened: (dx, dw), or (dx, dw, db) with
    ``bias`` (db None where the caller sums it). Where both kernels share the batch out in
    the same image ranges, each op thread computes both for its images in one turn: one
    hand-out instead of two, and each core reads its own slice of gy twice. The results are
    those of the two kernels called one after the other, bit for bit."""
    dt = gy.dtype
    if _depthwise(xp, cv, "wgrad"):   # both gradients of each image range in one turn
        dx = _result(xp, dx_out, (cv.n, cv.c) + cv.ispace, dt)
        dw = _result(xp, dw_out, (cv.f, cv.cg) + cv.kernel, dt)
        mine = _depthwise(xp, cv, "dgrad")

        def both(sl, pc, part):
            if mine:
                _dw().dgrad(gy[sl], w, pc, dx[sl])
            else:
                _conv_dgrad(xp, gy[sl], w, pc, dx[sl])
            _dw().wgrad(gy[sl], x[sl], pc, part)
        _dw_run(xp, cv, both, dw)
        return (dx, dw, None) if bias else (dx, dw)
    how, dc = _dgrad_plan(xp, cv, dt.itemsize)
    # the batch-last kernels (conv_dgrad's own, or conv_forward's for "tr") are not paired
    paired = None if how == "bl" or (how == "tr" and dc.batch_last(xp, dt.itemsize)) else \
        _paired_parts(xp, dc, cv, dt.itemsize)
    if paired is None:
        dx = conv_dgrad(xp, gy, w, cv, dx_out)
        res = conv_wgrad(xp, gy, x, cv, dw_out, bias, db_out)
        return (dx,) + (res if bias else (res,))
    dx = _result(xp, dx_out, (cv.n, cv.c) + cv.ispace, dt)
    if how == "tr":
        wd = cv.flipped(xp, w)
        data = lambda sl, pc: _forward(xp, gy[sl], wd, pc, dx[sl], None)  # noqa: E731
    else:
        data = lambda sl, pc: _dgrad(xp, gy[sl], w, pc, dx[sl])  # noqa: E731
    res = _run_paired(xp, dc, data, paired, gy, x,
                      _result(xp, dw_out, (cv.f, cv.cg) + cv.kernel, dt), bias, db_out)
    return (dx,) + (res if bias else (res,))


def deconv_backward(xp, gy, x, w, cv, dx_out=None, dw_out=None):
    """The gradients of Deconvolution ``y = conv_dgrad(x, w)`` (``cv`` the convolution from
    its output space): ``(conv_forward(gy, w), conv_wgrad(x, gy))``, in one turn of the op
    threads where they share the batch out alike (see ``conv_backward``)."""
    dt = gy.dtype
    if _depthwise(xp, cv, "wgrad"):   # both gradients of each image range in one turn
        dx = _result(xp, dx_out, (cv.n, cv.f) + cv.ospace, dt)
        dw = _result(xp, dw_out, (cv.f, cv.cg) + cv.kernel, dt)

        def both(sl, pc, part):
            conv_forward(xp, gy[sl], w, pc, dx[sl])   # (inside a part: inline)
            _dw().wgrad(x[sl], gy[sl], pc, part)
        _dw_run(xp, cv, both, dw)
        return dx, dw
    paired = None if cv.batch_last(xp, dt.itemsize) else _paired_parts(xp, cv, cv, dt.itemsize)
    if paired is None:
        return conv_forward(xp, gy, w, cv, dx_out), conv_wgrad(xp, x, gy, cv, dw_out)
    dx = _result(xp, dx_out, (cv.n, cv.f) + cv.ospace, dt)
    return dx, _run_paired(xp, cv, lambda sl, pc: _forward(xp, gy[sl], w, pc, dx[sl], None),
                           paired, x, gy, _result(xp, dw_out, (cv.f, cv.cg) + cv.kernel, dt),
                           False, None)


def _paired_parts(xp, dc, cv, itemsize):
    """For a data-gradient kernel on the blocking ``dc`` and conv_wgrad on ``cv``: (the data
    kernel's ranges, the weight gradient's conv and ranges) where both share the batch out
    over the same images, else None."""
    wc = _wgrad_conv(xp, cv, itemsize)
    if wc is None:
        return None
    dparts, wparts = _image_parts(xp, dc), _image_parts(xp, wc)
    if not (dparts and wparts and [(i * dc.b, j * dc.b) for i, j in dparts]
            == [(i * wc.b, j * wc.b) for i, j in wparts]):
        return None
    return dparts, wc, wparts


def _run_paired(xp, dc, data, paired, gy, x, dw, bias, db_out):
    """Each image range's data gradient (``data(images, part of dc)``), then its
    weight-gradient sums (of ``gy`` against ``x``), in one turn of the op threads;
    conv_wgrad's result from the sums."""
    dparts, wc, wparts = paired
    dws, dbs = _wgrad_sums(xp, wc, len(wparts), dw.dtype, bias)

    def task(k):
        (i, j), (a, b) = dparts[k], wparts[k]
        data(slice(i * dc.b, j * dc.b), dc.part(i, j))
        _wgrad(xp, gy[a * wc.b:b * wc.b], x[a * wc.b:b * wc.b], wc.part(a, b), dws[k], bias,
               dbs[k])
    _run_slots(len(dparts), task)
    return _wgrad_total(xp, wc, dws, dbs, dw, bias, db_out)


def _wgrad(xp, gy, x, cv, dw, bias, bias_out):
    """conv_wgrad through columns, into dw."""
    dt = gy.dtype
    fused = bias and cv.thin()
    gb = cv.grouped(xp, gy)
    src, im2col = cv.columns(xp, x)
    size, ranges = cv.chunks(xp, dt.itemsize)
    ck = cv.cg * cv.ksize + fused
    buf = None if cv.unit else scratch(xp, "columns",
                                       (size * (cv.c * cv.ksize + fused) * cv.b * cv.L,), dt)
    # With many columns, (Cg*K, Fg) products run faster and their one transpose is cheap;
    # with few (late stages, large weights) the transpose would cost more than it saves.
    # With the bias column, (Fg, Cg*K + 1) measured faster still (and needs no transpose).
    tall = cv.n * cv.L >= _TALL_COLS and not fused
    rows, cols = (ck, cv.fg) if tall else (cv.fg, ck)
    # the sum over chunks (and blocks) gathers here: dw itself unless transposed or widened
    acc = (scratch(xp, "wsum", (cv.g, rows, cols), dt) if tall or fused
           else dw.reshape(cv.g, rows, cols))
    part = scratch(xp, "wpart", (size, cv.g, rows, cols), dt)
    first = True
    for i, j in ranges:
        col = im2col(xp, src, i, j, buf, fused)
        m = j - i
        if tall:
            prod = matmul(xp, col, gb[i:j].transpose(0, 1, 3, 2), out=part[:m])
        else:
            prod = matmul(xp, gb[i:j], col.transpose(0, 1, 3, 2), out=part[:m])
        if first:
            if m == 1:
                acc[...] = prod[0]
            else:
                xp.sum(prod, axis=0, out=acc)
            first = False
        elif m == 1:
            acc += prod[0]
        else:
            acc += prod.sum(axis=0)
    if first:
        acc[...] = 0
    if tall:
        copy_rows(xp, dw.reshape(cv.g, cv.fg, cv.cg * cv.ksize), acc.transpose(0, 2, 1))
    if not bias:
        return dw
    if not fused:
        return dw, None
    copy_rows(xp, dw.reshape(cv.f, ck - 1), acc[0, :, :-1])
    db = _result(xp, bias_out, (cv.f,), dt)
    db[...] = acc[0, :, -1]
    return dw, db
