"""Pooling (max, avg, sum, lp over 1-D, 2-D and 3-D windows) and its backward operator.

Geometry, as 1.9.1 computes it per spatial dim (input length ``L``, kernel ``k``, stride ``s``,
pad ``p``):

- output length: ``valid`` floor((L + 2p - k) / s) + 1, ``full`` ceil((L + 2p - k) / s) + 1,
  ``same`` ceil(L / s) (1-D only, no padding);
- window ``o`` starts at ``o*s - p``; the elements read are those of ``[0, L)`` inside it.

How 1.9.1 treats the corner cases, reproduced here:

- max: the result is at least the dtype's lowest finite value (a window that reads nothing,
  or only -inf/NaN, gives that value); NaN inputs are skipped. The gradient goes to the first
  position (row-major within the window) equal to the output.
- avg: the divisor is the window clipped to ``[-p, L + p)`` (``count_include_pad``, the
  default) or to ``[0, L)``. 1-D and 2-D windows that read nothing give 0; 3-D ones divide 0
  by their (possibly zero or negative) divisor, so they give NaN or 0. 1.9.1's own kernel
  (float16, float64, channels-last layouts, "full" pools whose shape is not the "valid" one,
  global pools given no kernel) divides each tap before adding it; oneDNN's (float32) divides
  the sum.
- lp: ``p_value`` 1 sums the raw values (no absolute value), 2 is the root of the sum of
  squares, 3 the signed cube root (the C library's cbrt, see ``_libm_cbrt``) of the sum of
  x*x*x. The gradient is 0 where the output is 0 (p = 2, 3).
- ``global_pool`` pools each whole feature map: kernel, stride and pad are ignored (but a
  given kernel must still have the data's spatial rank).
- ``pooling_convention='same'`` works in 1.9.1 only for 1-D data with ``pad`` given as three
  zeros (it reads pad[0..2]); other uses raise, here with a message that says so.
- Channels-last layouts (NWC, NHWC, NDHWC) are accepted on CPU, as in 1.9.1.

How it is computed on NumPy (every pass a whole-array ufunc call over contiguous memory):

- max forward, and the sums of avg, sum and lp: one spatial axis at a time (windows are
  separable), outermost first, so that the first pass, over the whole input, moves whole rows.
  Along an axis the windows inside the input come from one running reduction over the flat
  array (k - 1 shifted, contiguous passes) subsampled by the stride; the few windows that
  reach into the padding are redone from their valid taps. A window's sum is thus added
  axis by axis rather than in 1.9.1's row-major order (the results differ by rounding only).
- the sum backward is the adjoint of those stages, innermost axis first: the windows' values
  are placed at their first position (every s-th slot of a zeroed array, one flat strided
  copy) and spread over their k taps by k - 1 shifted flat adds; what a shift carries over a
  row end comes from slots no inner window uses, i.e. zeros. Border windows are added tap by
  tap.
- the max backward goes through a tap layout (``_TapLayout``): the padded input is split into
  stride phases so that each kernel tap of every window is one contiguous slice. It scores
  each window's first tap equal to the output (one pass per tap, uint8) and adds the
  gradients with ``np.add.at`` in row-major output order (1.9.1's order). Where every input
  length is stride * out (the ResNet stem's 3x3/2 pad 1 on even sizes, 2x2/2 pools) the
  phases need no padding blocks: they are shaped like the output, and a tap is a flat
  shifted compare whose wrapped-around windows are cleared (``_aligned_scores``); a tap
  scores 255 minus its offset from the window origin where those fit a byte, so that the
  flat index is the origin table minus the score. With a column stride of 2 the phases are
  cut out as whole rows first and then split into column pairs by flat pair gathers. The
  sum backward there fills each stride phase of the gradient from shifted windows and
  interleaves the phases (``_aligned_spread``); in 2-D with a column stride of 2 the
  column phases are written straight into their interleaved slots and the row phases
  move in as whole rows (``_aligned_spread_rows``).
- a training forward of the 3x3 stride 2 pad 1 max pool on even sizes (ResNet's stem) also
  keeps, per window, its first maximum as a byte offset from the window origin, computed on
  the forward's own intermediate arrays (columns first, then rows); the backward of that
  output then only adds the gradients at those offsets (see ``_first_max_forward``), as
  1.9.1's oneDNN kernel uses the workspace its forward wrote.
- global pools (up to 64 positions, or up to 65,536 input elements except max) add the
  positions left to right as 1.9.1 does: blocks of feature maps are copied transposed and
  reduced over their leading (position) axis (``_running_sums``).
- large pools (from 2**19 input elements) run on slices of the batch in ``OMP_NUM_THREADS``
  threads (``_batch_threads.map_batch``; NumPy releases the GIL in its loops), as 1.9.1's
  kernels run on OpenMP threads; within a thread, the forward and the max backward go
  through pieces of about 2**19 elements (``_PIECE_ELEMENTS``) so that their temporaries
  stay in the cache.

CuPy arrays, max backwards of windows with more than 64 taps and max backwards whose output
ties the lowest value while windows read padding use generic per-axis stages instead: a
stage reduces one spatial axis (or a run of trailing axes) at a time, each tap a strided
view of the padded input. Their backward spreads the gradient back the same way; for max it
recomputes the stages and routes through them outermost axis first, which lands on the
row-major first maximum. Pools that cover the whole feature map (global pooling) reduce over the spatial axes
directly.
"""
from __future__ import annotations

import itertools
import math
import sys
import threading
import weakref

import numpy as np

from ..backend.libm32 import c_math
from ..base import _BF16, MXNetError, dtype_name, dtype_np, native_log
from ._batch_threads import map_batch
from .conv_kernels import scratch
from .registry import Param, register

__all__ = ["pool_geometry", "check_float", "uniform_float_type", "FLOAT_TYPES", "GROUPINGS"]

FLOAT_TYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))

_LAYOUTS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}
_CHANNELS_LAST = ("NWC", "NHWC", "NDHWC")


# Pooling also takes bfloat16 (with ml_dtypes), computed in float32 and rounded back
POOL_TYPES = FLOAT_TYPES + ((_BF16,) if _BF16 is not None else ())


def _names(types):
    return ", ".join(dtype_name(t) for t in types[:-1]) + " or " + dtype_name(types[-1])


def check_float(opname, names, arrays, types=FLOAT_TYPES):
    """Every array has the first one's floating dtype (one of ``types``); returns that dtype."""
    dt = arrays[0].dtype
    if dt not in types:
        raise MXNetError(f"{opname}: {names[0]} has dtype {dt} {tuple(arrays[0].shape)}; expected "
                         f"{_names(types)}")
    for name, a in zip(names[1:], arrays[1:]):
        if a.dtype != dt:
            raise MXNetError(f"{opname}: all inputs must share one dtype; {names[0]} is {dt} but "
                             f"{name} is {a.dtype} {tuple(a.shape)}")
    return dt


def uniform_float_type(opname, types=FLOAT_TYPES, strict=True):
    """infer_type: one floating dtype (one of ``types``) for every input and output.

    With ``strict=False`` any dtype passes type inference (1.9.1 rejects it only when the
    operator runs), which is what 1.9.1's Pooling and the spatial samplers do."""
    def infer(attrs, in_types, out_types):
        known = next((t for t in list(in_types) + list(out_types) if t is not None), None)
        if strict and known is not None and dtype_np(known) not in types:
            raise MXNetError(f"{opname}: dtype {dtype_name(known)} is not supported; expected "
                             f"{_names(types)}")
        t = None if known is None else dtype_np(known)
        return [t] * len(in_types), [t] * len(out_types), []
    return infer


# ---------------------------------------------------------------------------------------------
# geometry


class _Geom:
    """Resolved pooling geometry for one input shape (channels-first spatial dims)."""

    __slots__ = ("spatial", "kernel", "stride", "pad", "out", "channels_last", "is_global")

    def __init__(self, spatial, kernel, stride, pad, out, channels_last, is_global):
        self.spatial, self.kernel, self.stride, self.pad = spatial, kernel, stride, pad
        self.out, self.channels_last, self.is_global = out, channels_last, is_global

    def out_shape(self, dshape):
        if self.channels_last:
            return (dshape[0],) + self.out + (dshape[-1],)
        return tuple(dshape[:2]) + self.out


def _fill(opname, name, value, n, default):
    if not value:
        return (default,) * n
    if len(value) < n:
        raise MXNetError(f"{opname}: {name} {tuple(value)} has {len(value)} entries but the data "
                         f"has {n} spatial dimension(s)")
    return tuple(value[:n])


def pool_geometry(opname, attrs, dshape):
    """Kernel, stride, pad and output spatial size of Pooling for a data shape."""
    dshape = tuple(dshape)
    nd_ = len(dshape)
    if nd_ not in (3, 4, 5):
        raise MXNetError(f"{opname}: data of shape {dshape} has {nd_} dimensions; expected 3-D "
                         f"(N, C, W), 4-D (N, C, H, W) or 5-D (N, C, D, H, W)")
    nsp = nd_ - 2
    layout = attrs["layout"]
    if layout is not None and layout not in _LAYOUTS[nd_]:
        raise MXNetError(f"{opname}: layout {layout} does not fit {nd_}-D data {dshape}; "
                         f"expected one of {list(_LAYOUTS[nd_])}")
    channels_last = layout in _CHANNELS_LAST
    spatial = dshape[1:-1] if channels_last else dshape[2:]
    kernel = tuple(attrs["kernel"])
    if attrs["global_pool"]:
        if kernel and len(kernel) != nsp:
            raise MXNetError(f"{opname}: kernel {kernel} has {len(kernel)} dims but the data "
                             f"{dshape} has {nsp} spatial dims (global_pool still checks it)")
        g = _Geom(tuple(spatial), tuple(spatial), (1,) * nsp, (0,) * nsp, (1,) * nsp,
                  channels_last, True)
        return g
    if not kernel:
        raise MXNetError(f"{opname}: kernel is required unless global_pool=True "
                         f"(data shape {dshape})")
    if len(kernel) != nsp:
        raise MXNetError(f"{opname}: a {len(kernel)}-D kernel {kernel} needs {len(kernel) + 2}-D "
                         f"data, got shape {dshape}")
    stride = _fill(opname, "stride", attrs["stride"], nsp, 1)
    conv = attrs["pooling_convention"]
    if conv == "same":
        pad_given = tuple(attrs["pad"])
        if nsp != 1:
            raise MXNetError(f"{opname}: pooling_convention='same' supports only 1-D pooling "
                             f"(data shape {dshape})")
        if len(pad_given) < 3 or any(pad_given[:3]):
            raise MXNetError(f"{opname}: pooling_convention='same' takes no padding; 1.9.1 reads "
                             f"pad[0..2], so pass pad=(0, 0, 0) (got pad={pad_given})")
        pad = (0,)
    else:
        pad = _fill(opname, "pad", attrs["pad"], nsp, 0)
    out = []
    for d in range(nsp):
        L, k, s, p = spatial[d], kernel[d], stride[d], pad[d]
        if k > L + 2 * p:
            raise MXNetError(f"{opname}: kernel size {k} along spatial dim {d} exceeds the input "
                             f"size {L} padded to {L + 2 * p} (data shape {dshape})")
        if conv == "valid":
            out.append((L + 2 * p - k) // s + 1)
        elif conv == "full":
            out.append(-(-(L + 2 * p - k) // s) + 1)
        else:
            out.append(-(-L // s))
    return _Geom(tuple(spatial), kernel, stride, pad, tuple(out), channels_last, False)


def _check_attrs(opname, attrs):
    for name in ("kernel", "stride"):
        if any(v is not None and v <= 0 for v in attrs[name]):
            raise MXNetError(f"{opname}: {name} {tuple(attrs[name])} must be positive in every "
                             f"dimension")
    if any(v is not None and v < 0 for v in attrs["pad"]):
        raise MXNetError(f"{opname}: pad {tuple(attrs['pad'])} must not be negative")
    if attrs["pool_type"] == "lp":
        p = attrs["p_value"]
        if p is None:
            raise MXNetError(f"{opname}: pool_type='lp' requires p_value (1, 2 or 3)")
        if p not in (1, 2, 3):
            raise MXNetError(f"{opname}: p_value={p} is not supported; expected 1, 2 or 3")


# ---------------------------------------------------------------------------------------------
# kernels on channels-first arrays


def _lowest(dtype):
    return np.finfo(dtype).min


def _compute_dtype(dt):
    """float16 sums run in float32 and are rounded once at the end."""
    return np.dtype(np.float32) if dt == np.float16 else dt


_VIEWS = threading.local()


def _scratch(role, shape, dtype):
    """This thread's reusable buffer for a pooling temporary (see ``conv_kernels.scratch``):
    valid until the next request for the same role in the same thread. The views handed out
    are remembered per (role, shape, dtype): a pool asks for the same ones every call, and
    the lookup is then one dict access."""
    memo = getattr(_VIEWS, "memo", None)
    if memo is None:
        memo = _VIEWS.memo = {}
    key = (role, tuple(shape), dtype)
    view = memo.get(key)
    if view is None:
        view = scratch(np, "pool." + role, key[1], dtype)
        # the role's buffer may have been replaced by a larger one: forget views of the old
        for k in [k for k in memo if k[0] == role]:
            del memo[k]
        if len(memo) >= 256:
            memo.clear()
        memo[key] = view
    return view


def _dest(out, shape, dtype):
    """``out`` (the caller's buffer) or a new array to hold a kernel's result."""
    return np.empty(shape, dtype=dtype) if out is None else out


def _into(xp, out, res):
    """``res`` written into ``out`` when given (then returned), else ``res`` itself."""
    if out is None or res is out:
        return res
    xp.copyto(out, res, casting="unsafe")
    return out


def _padded_shape(lead, g):
    """The spatial extent that holds every tap of every output window (pad before, extra after)."""
    return tuple(lead) + tuple(max(L + p, (o - 1) * s + k)
                               for L, p, o, s, k in zip(g.spatial, g.pad, g.out, g.stride, g.kernel))


def _padded(xp, x, g, fill):
    """x padded so that every tap of every output window is inside the array."""
    shape = _padded_shape(x.shape[:2], g)
    if shape == x.shape:
        return x
    out = xp.full(shape, fill, dtype=x.dtype)
    out[(slice(None), slice(None)) + tuple(slice(a, a + L) for a, L in zip(g.pad, g.spatial))] = x
    return out


def _unpad(gpad, g):
    if gpad.shape[2:] == tuple(g.spatial):
        return gpad
    return gpad[(slice(None), slice(None)) +
                tuple(slice(a, a + L) for a, L in zip(g.pad, g.spatial))]


# the ways to reduce 1, 2 or 3 spatial axes in runs of trailing axes, innermost run first
GROUPINGS = {1: [[(0,)]],
             2: [[(0, 1)], [(1,), (0,)]],
             3: [[(0, 1, 2)], [(1, 2), (0,)], [(2,), (0, 1)], [(2,), (1,), (0,)]]}


def _plan(g):
    """Groups of spatial dims reduced together, innermost group first.

    A window is separable, so its taps can be combined one axis at a time (k_h + k_w passes
    over smaller arrays) or all at once (k_h * k_w passes over the output); the cheaper
    grouping in elements touched is chosen. Groups are runs of trailing axes, which keeps the
    row-major first-maximum rule of the backward pass.
    """
    best, best_cost = None, None
    for groups in GROUPINGS[len(g.spatial)]:
        cur = list(_padded_shape((), g))
        cost = 0
        for grp in groups:
            for d in grp:
                cur[d] = g.out[d]
            cost += math.prod(g.kernel[d] for d in grp) * math.prod(cur)
        if best_cost is None or cost < best_cost:
            best, best_cost = groups, cost
    return best


def _group_views(ndim, g, grp):
    """Index tuples of the taps of a group of axes, in row-major tap order."""
    per_axis = []
    for d in grp:
        k, s, o = g.kernel[d], g.stride[d], g.out[d]
        per_axis.append([slice(t, t + s * (o - 1) + 1, s) for t in range(k)])
    views = []
    for combo in itertools.product(*per_axis):
        idx = [slice(None)] * ndim
        for d, sl in zip(grp, combo):
            idx[2 + d] = sl
        views.append(tuple(idx))
    return views


def _stages(xp, xpad, g, plan, combine):
    """[xpad, after group 1, ...]: windowed reductions (fmax or add), innermost group first."""
    stages = [xpad]
    for grp in plan:
        y = stages[-1]
        views = _group_views(y.ndim, g, grp)
        acc = combine(y[views[0]], y[views[1]]) if len(views) > 1 else y[views[0]].copy()
        for v in views[2:]:
            combine(acc, y[v], out=acc)
        stages.append(acc)
    return stages


def _spread(xp, z, g, plan, full_shape):
    """Adjoint of the windowed sums: each window's value added to all its taps."""
    for grp in reversed(plan):
        shape = tuple(full_shape[j] if j >= 2 and j - 2 in grp else n for j, n in enumerate(z.shape))
        out = xp.zeros(shape, dtype=z.dtype)
        for v in _group_views(z.ndim, g, grp):
            out[v] += z
        z = out
    return z


_DIVISORS: dict = {}


def _divisor(xp, g, count_include_pad, dtype):
    """The avg-pool divisor of every output position, shaped to broadcast over (N, C, ...),
    with zeros replaced by 1, and the mask of those zeros (3-D only, else None). On NumPy
    the (read-only) arrays are kept per geometry: the same pools run every step."""
    if xp is not np:
        return _make_divisor(xp, g, count_include_pad, dtype)
    key = (g.spatial, g.kernel, g.stride, g.pad, g.out, bool(count_include_pad), dtype)
    res = _DIVISORS.get(key)
    if res is None:
        res = _make_divisor(np, g, count_include_pad, dtype)
        div = res[0]
        if div.size and bool((div == div.flat[0]).all()):
            res = (np.array(div.flat[0]), res[1])   # one divisor: a 0-d array (a scalar)
        for a in res:
            if a is not None:
                a.setflags(write=False)
        if len(_DIVISORS) >= 64:
            _DIVISORS.clear()
        _DIVISORS[key] = res
    return res


def _make_divisor(xp, g, count_include_pad, dtype):
    nsp = len(g.spatial)
    total = None
    empty = None
    for d in range(nsp):
        o = xp.arange(g.out[d])
        start = o * g.stride[d] - g.pad[d]
        end = xp.minimum(start + g.kernel[d], g.spatial[d] + g.pad[d])
        cstart = xp.maximum(start, 0)
        cend = xp.minimum(end, g.spatial[d])
        size = (end - start) if count_include_pad else (cend - cstart)
        shape = [1] * nsp
        shape[d] = g.out[d]
        size = size.reshape(shape)
        nothing = (cend <= cstart).reshape(shape)
        total = size if total is None else total * size
        empty = nothing if empty is None else (empty | nothing)
    if nsp < 3:
        # 1.9.1 gives 0 for windows that read nothing
        return xp.where(empty, 1, total).astype(dtype), None
    # 3-D: 0 / 0 is NaN; a negative divisor (window past the padding) leaves 0
    zero = total == 0
    return xp.where(zero, 1, total).astype(dtype), zero


def _lp_pow(v, p):
    return v if p == 1 else (v * v if p == 2 else v * v * v)


def _lp_root(xp, v, p, size=0, out=None):
    """The p-th root of the window sums v (into ``out`` if given); glibc's cube root (as
    1.9.1) where ``size`` (the pooled input's elements, for a global pool the outputs') is at
    most _EXACT_TAPS_MAX."""
    if p == 3 and xp is np and size <= _EXACT_TAPS_MAX:
        return _libm_cbrt(v, out)
    if p == 1:
        return _into(xp, out, v)
    return (xp.sqrt if p == 2 else xp.cbrt)(v, out=out)


# 1.9.1's lp pooling takes the cube root with the C library's cbrt / cbrtf, which glibc does
# not round correctly: NumPy's (SIMD) cbrt differs from it in ~30% of float32 and ~50% of
# float64 results. So the C library's functions are called themselves, element by element
# (~0.06 us each for cbrt, ~0.2 us for cbrtf through ctypes), up to _LIBM_CBRT_MAX results.
_LIBM_CBRT = []
_LIBM_CBRT_MAX = 8192


def _cbrt_functions():
    """(cbrt, cbrtf) of the C library as object ufuncs, or None where it cannot be loaded."""
    if not _LIBM_CBRT:
        f32 = c_math("cbrtf")
        f64 = np.frompyfunc(math.cbrt, 1, 1) if hasattr(math, "cbrt") else \
            c_math("cbrt", double=True)
        _LIBM_CBRT.append(None if f32 is None or f64 is None else (f64, f32))
    return _LIBM_CBRT[0]


def _libm_cbrt(v, out=None):
    """The C library's cbrt (float64) or cbrtf (float32; float16 through float32) of the
    array v; NumPy's cbrt where the C library is not available."""
    dt = v.dtype
    if dt not in (np.float32, np.float64):
        r = _libm_cbrt(v.astype(np.float32))
        return r.astype(dt) if out is None else _into(np, out, r)
    fns = _cbrt_functions() if v.size <= _LIBM_CBRT_MAX else None
    if fns is None:
        return np.cbrt(v, out=out)
    r = fns[dt == np.float32](v).astype(dt)
    return r if out is None else _into(np, out, r)


def _global_forward(xp, x, g, attrs):
    nsp = len(g.spatial)
    axes = tuple(range(2, 2 + nsp))
    pt = attrs["pool_type"]
    if pt == "max":
        flat = x.reshape(x.shape[:2] + (-1,))
        out = flat.max(axis=2)
        if bool(xp.isnan(out).any()):  # NaN skipped, as in 1.9.1 (nanmax is slower)
            out = xp.nanmax(flat, axis=2)
        out = xp.fmax(out, _lowest(x.dtype))
        return out.reshape(x.shape[:2] + (1,) * nsp)
    cdt = _compute_dtype(x.dtype)
    xc = x.astype(cdt, copy=False)
    p = attrs["p_value"] if pt == "lp" else 1
    if pt == "lp":
        s = _lp_pow(xc, p).sum(axis=axes, keepdims=True)
        return _lp_root(xp, s, p, s.size).astype(x.dtype)
    s = xc.sum(axis=axes, keepdims=True)
    if pt == "avg":
        s = s / cdt.type(math.prod(g.spatial))
    return s.astype(x.dtype)


# Global avg / sum / lp pools of more than 64 positions (_MAX_TAPS) add the positions in
# 1.9.1's order (a running sum, ~10-20x slower than NumPy's pairwise sum there) up to this
# many input elements; larger ones take NumPy's sum
_EXACT_GLOBAL_MAX = 65536


def _pool_forward(xp, x, g, attrs, out=None, total=None):
    """The pooled x (channels first), written into ``out`` when given (contiguous); x may be
    a slice of the batch of a pooled array of ``total`` elements."""
    if xp is np and (_global_columns(x, g) or g.is_global and x.size and
                     attrs["pool_type"] != "max" and (total or x.size) <= _EXACT_GLOBAL_MAX):
        return _fast_global_forward(x, g, attrs, out)
    if xp is np and x.size and not g.is_global:
        oshape = tuple(x.shape[:2]) + tuple(g.out)
        return _by_maps(lambda a, o: _fast_forward(a, g, attrs, o), x,
                        _dest(out, oshape, x.dtype))
    return _into(xp, out, _generic_forward(xp, x, g, attrs))


def _generic_forward(xp, x, g, attrs):
    if g.is_global and x.size:
        return _global_forward(xp, x, g, attrs)
    pt = attrs["pool_type"]
    plan = _plan(g)
    if pt == "max":
        out = _stages(xp, _padded(xp, x, g, _lowest(x.dtype)), g, plan, xp.fmax)[-1]
        return xp.fmax(out, _lowest(x.dtype), out=out)
    cdt = _compute_dtype(x.dtype)
    p = attrs["p_value"] if pt == "lp" else 1
    xpad = _padded(xp, _lp_pow(x.astype(cdt, copy=False), p), g, 0)
    out = _stages(xp, xpad, g, plan, xp.add)[-1]
    if pt == "avg":
        div, zero = _divisor(xp, g, attrs["count_include_pad"] is not False, cdt)
        out = out / div
        if zero is not None:
            out = xp.where(zero, cdt.type(np.nan), out)
    elif pt == "lp":
        out = _lp_root(xp, out, p, x.size)
    return out.astype(x.dtype, copy=False)


def _global_max_backward(xp, og, x, out):
    flat = x.reshape(x.shape[:2] + (-1,))
    hit = flat == out.reshape(x.shape[:2] + (1,))
    first = xp.argmax(hit.astype(np.uint8), axis=2)
    where = (xp.arange(flat.shape[2]) == first[..., None]) & hit
    g = xp.where(where, og.reshape(x.shape[:2] + (1,)), 0)
    return g.reshape(x.shape).astype(x.dtype, copy=False)


def _max_backward(xp, og, x, out, g):
    """Route each output gradient to the first maximum (row-major) of its window.

    The forward stages are recomputed; the gradient then goes back through them outermost
    group first: to the first tap whose partial maximum equals the output, then within it to
    the first element equal to that. That is the row-major first maximum. Once a window's
    gradient is routed it is removed from what later taps may take.
    """
    plan = _plan(g)
    stages = _stages(xp, _padded(xp, x, g, _lowest(x.dtype)), g, plan, xp.fmax)
    finite = xp.__name__ == "numpy" and bool(xp.isfinite(og).all())
    r, target = og, out
    for i in range(len(plan), 0, -1):
        prev = stages[i - 1]
        routed = xp.zeros(prev.shape, dtype=og.dtype)
        views = _group_views(prev.ndim, g, plan[i - 1])
        # buffers reused across taps: fresh large temporaries cost page faults on CPU
        rest = r.copy()
        hit = xp.empty(target.shape, dtype=bool)
        part = xp.empty(target.shape, dtype=og.dtype)
        for j, v in enumerate(views):
            xp.equal(prev[v], target, out=hit)
            if finite:  # a multiply is much faster than where on CPU
                xp.multiply(rest, hit, out=part)
                if j < len(views) - 1:
                    xp.subtract(rest, part, out=rest)
            else:  # where keeps a NaN/inf gradient off the positions it does not reach
                part = xp.where(hit, rest, 0)
                rest = xp.where(hit, 0, rest)
            routed[v] += part
        r, target = routed, prev
    return xp.ascontiguousarray(_unpad(r, g))


def _pool_backward(xp, og, x, out, g, attrs, dst=None, exact=False):
    """The gradient of x (channels first) from the pooled ``out`` and its gradient ``og``,
    written into ``dst`` when given (contiguous). ``exact``: the whole input is small enough
    (``_EXACT_TAPS_MAX``) to add the terms in 1.9.1's order: oneDNN's (``_onednn_backward``)
    or its own kernel's (``_exact_sum_backward``, ``_exact_max_backward``)."""
    pt = attrs["pool_type"]
    if exact and all(k <= s for k, s in zip(g.kernel, g.stride)) and (
            pt == "max" or pt == "sum" or (pt == "avg" and not (
                attrs["pooling_convention"] == "full" and attrs["count_include_pad"] is not False
                and _onednn_backward(attrs, x, g)))):
        exact = False   # windows apart: one term per element, the general kernels agree
    if exact and xp is np and x.size:
        if pt == "max":
            gx = _exact_max_backward(og, x, g, _dest(dst, x.shape, x.dtype),
                                     _onednn_backward(attrs, x, g))
            if gx is not None:
                return gx
        elif _onednn_backward(attrs, x, g):
            return _onednn_avg_backward(og, x, g, attrs, _dest(dst, x.shape, x.dtype))
        else:
            return _exact_sum_backward(og, x, out, g, attrs, _dest(dst, x.shape, x.dtype))
    if pt == "max":
        lay = _layout(x, g) if xp is np else None
        if lay is not None:
            gx = _fast_max_backward(og, x, out, lay, dst)
            if gx is not None:
                return gx
        if xp is np and _global_columns(x, g):
            return _fast_global_max_backward(og, x, out, dst)
        if g.is_global and x.size:
            return _into(xp, dst, _global_max_backward(xp, og, x, out))
        return _into(xp, dst, _max_backward(xp, og, x, out, g))
    if xp is np and x.size and not g.is_global:
        return _sum_backward_by_maps(og, x, out, g, attrs, _dest(dst, x.shape, x.dtype))
    cdt = _compute_dtype(x.dtype)
    ogc = og.astype(cdt, copy=False)
    p = attrs["p_value"] if pt == "lp" else 1
    if pt == "avg":
        div = _divisor(xp, g, attrs["count_include_pad"] is not False, cdt)[0]
        scale = _divide(ogc, div) if xp is np else ogc / div
    elif pt == "lp" and p > 1:
        o = out.astype(cdt, copy=False)
        zero = o == 0
        scale = xp.where(zero, 0, ogc / xp.where(zero, 1, o if p == 2 else o * o))
    else:
        scale = ogc
    xc = x.astype(cdt, copy=False)
    if g.is_global and x.size:
        shaped = scale.reshape(scale.shape[:2] + (1,) * (x.ndim - 2))
        if p == 1:
            res = xp.broadcast_to(shaped, x.shape)
            if dst is not None:
                return _into(xp, dst, res)
            return xp.ascontiguousarray(res).astype(x.dtype, copy=False)
        if xp is np and dst is not None and cdt == x.dtype:
            pw = xc if p == 2 else np.multiply(xc, xc, out=_scratch("lp_pow", x.shape, cdt))
            return np.multiply(shaped, pw, out=dst)
        return _into(xp, dst, (shaped * _lp_pow(xc, p - 1)).astype(x.dtype, copy=False))
    gx = _unpad(_spread(xp, scale, g, _plan(g), _padded_shape(x.shape[:2], g)), g)
    if p > 1:
        gx = gx * _lp_pow(xc, p - 1)
    return _into(xp, dst, xp.ascontiguousarray(gx).astype(x.dtype, copy=False))


def _sum_backward_by_maps(og, x, out, g, attrs, dst):
    """``_fast_sum_backward`` over pieces of whole feature maps (about ``_PIECE_ELEMENTS``
    input elements each, as the forward), so that its passes' temporaries stay in the cache
    (the ResNet stem's avg-pool backward: 1.8 ms for the whole batch at once, 1.1 ms in four
    pieces, one thread)."""
    maps, plane = math.prod(x.shape[:2]), math.prod(x.shape[2:])
    step = max(1, _PIECE_ELEMENTS // max(plane, 1))
    if maps <= step or not (x.flags.c_contiguous and og.flags.c_contiguous
                            and out.flags.c_contiguous and dst.flags.c_contiguous):
        return _fast_sum_backward(og, x, out, g, attrs, dst)
    lead = (1, maps)
    ogm, xm = og.reshape(lead + og.shape[2:]), x.reshape(lead + x.shape[2:])
    om, dm = out.reshape(lead + out.shape[2:]), dst.reshape(lead + dst.shape[2:])
    for a in range(0, maps, step):
        b = a + step
        _fast_sum_backward(ogm[:, a:b], xm[:, a:b], om[:, a:b], g, attrs, dm[:, a:b])
    return dst


def _onednn_backward(attrs, x, g):
    """Whether 1.9.1 runs this avg/max-pool backward (x channels first) in oneDNN's blocked
    kernel, whose accumulation order ``_onednn_spread`` follows; else its own kernel's
    (``_exact_sum_backward``; max: row-major windows, as the general kernels). Observed on
    1.9.1 (AVX-512 CPU): float32 avg and max pools of 2-d/3-d channels-first data with at
    least 2 channels; for avg under the "full" convention only
    where every axis has stride 1, or stride 2 with (size + 2 pad + kernel) % 4 in (1, 2),
    and no window lies wholly in the padding. Other strides under "full" take the own
    kernel's order here (1.9.1's choice for them is not mapped)."""
    if (attrs["pool_type"] not in ("avg", "max") or x.dtype != np.float32 or g.is_global
            or attrs["layout"] in _CHANNELS_LAST or len(g.kernel) == 1 or x.shape[1] < 2):
        return False
    if attrs["pool_type"] == "max" or attrs["pooling_convention"] != "full":
        return True
    return all((s == 1 or (s == 2 and (L + 2 * p + k) % 4 in (1, 2)))
               and (O - 1) * s - p < L    # no window wholly in the padding
               for L, k, s, p, O in zip(g.spatial, g.kernel, g.stride, g.pad, g.out))


_ONEDNN_UR_W = {"avg": 12, "max": 6}   # output columns per block of oneDNN's backward


def _axis_span(t, s, p, L, lo, hi):
    """(output slice, input slice) of the windows in [lo, hi) whose tap t is in the input
    along one axis, or None."""
    lo = max(lo, -((t - p) // s))
    hi = min(hi, (L - 1 - t + p) // s + 1)
    if hi <= lo:
        return None
    start = lo * s + t - p
    return slice(lo, hi), slice(start, start + (hi - lo - 1) * s + 1, s)


def _onednn_spread(gx, g, ur_w, term):
    """Add every window's terms into gx (zeros, channels first) in the order oneDNN's
    blocked backward kernel does. An input element takes its terms ordered by: (3-d) the
    depth tap counted from the window's first in-input tap, ascending; then the output row
    ascending; then the block of ``ur_w`` output columns; then the column tap ascending
    (within a block the columns therefore come right to left). ``term(o, taps)`` gives the
    terms of the windows at output index ``o`` for the (absolute) kernel tap ``taps``."""
    nsp = len(g.kernel)
    kh, sh, ph, Lh, Oh = (a[nsp - 2] for a in (g.kernel, g.stride, g.pad, g.spatial, g.out))
    kw, sw, pw, Lw, Ow = (a[nsp - 1] for a in (g.kernel, g.stride, g.pad, g.spatial, g.out))
    depth = [[(None, ())]]
    if nsp == 3:
        kd, sd, pd, Ld, Od = g.kernel[0], g.stride[0], g.pad[0], g.spatial[0], g.out[0]
        first = min(Od, -(-pd // sd))        # windows from here on start inside the input
        depth = []
        for j in range(kd):                  # j: the window's j-th tap inside the input
            sl = [(_axis_span(j + pd - o * sd, sd, pd, Ld, o, o + 1), (j + pd - o * sd,))
                  for o in range(first) if j + pd - o * sd < kd]   # starting in the padding
            sl.append((_axis_span(j, sd, pd, Ld, first, Od), (j,)))
            depth.append([d for d in sl if d[0] is not None])
    blocks = [(b, min(b + ur_w, Ow)) for b in range(0, Ow, ur_w)]
    for spans in depth:
        for dsp, dt in spans:
            do, di = ((dsp[0],), (dsp[1],)) if dsp else ((), ())
            for ki in range(kh - 1, -1, -1):
                hs = _axis_span(ki, sh, ph, Lh, 0, Oh)
                if hs is None:
                    continue
                for b0, b1 in blocks:
                    for kj in range(kw):
                        ws = _axis_span(kj, sw, pw, Lw, b0, b1)
                        if ws is None:
                            continue
                        v = gx[(Ellipsis, *di, hs[1], ws[1])]
                        np.add(v, term((Ellipsis, *do, hs[0], ws[0]), (*dt, ki, kj)), out=v)
    return gx


def _onednn_avg_backward(og, x, g, attrs, dst):
    """avg backward as oneDNN adds it (``_onednn_spread``), each term og / divisor; the
    divisor with padding counted is the whole kernel's size."""
    if attrs["count_include_pad"] is not False:
        scale = og / og.dtype.type(math.prod(g.kernel))
    else:
        scale = og / _divisor(np, g, False, og.dtype)[0]
    gx = _onednn_spread(np.zeros(x.shape, dtype=og.dtype), g, _ONEDNN_UR_W["avg"],
                        lambda o, taps: scale[o])
    return _into(np, dst, gx)


def _onednn_corners(gx, og, c, W):
    """Redo, in oneDNN's order, the sums of a 3x3 stride 2 pad 1 max-pool gradient ``gx``
    (even input sizes, finite ``og``) that another order may round differently: only the
    odd-odd positions, the corners 4 windows share, can take 3 or more terms. ``c``: each
    window's first maximum as ky * W + kx. oneDNN adds the upper windows' terms, then the
    lower ones'; in each row the right window first, unless it begins a new block of
    ``_ONEDNN_UR_W["max"]`` output columns."""
    O0, O1 = c.shape[-2:]
    if O0 < 2 or O1 < 2:
        return gx
    t00 = og[..., :-1, :-1] * (c[..., :-1, :-1] == 2 * W + 2)   # the corner is tap (2, 2)
    t01 = og[..., :-1, 1:] * (c[..., :-1, 1:] == 2 * W)         # (2, 0)
    t10 = og[..., 1:, :-1] * (c[..., 1:, :-1] == 2)             # (0, 2)
    t11 = og[..., 1:, 1:] * (c[..., 1:, 1:] == 0)               # (0, 0)
    zero = og.dtype.type(0)
    right_first = (t01 + zero) + t00   # + zero: the sum starts at +0, as the kernel's
    right_first += t11
    right_first += t10
    edge = (np.arange(1, O1) % _ONEDNN_UR_W["max"]) == 0   # the right window starts a block
    if edge.any():
        left_first = (t00 + zero) + t01
        left_first += t10
        left_first += t11
        np.copyto(right_first, left_first, where=edge)
    gx[..., 1:2 * O0 - 1:2, 1:2 * O1 - 1:2] = right_first
    return gx


def _exact_max_backward(og, x, g, dst, onednn):
    """max backward with 1.9.1's accumulation order: each window's gradient goes to its
    first maximum (row-major, taps in the padding skipped), added in oneDNN's order
    (``_onednn_spread``) or, for 1.9.1's own kernel, window by window in row-major order.
    None where x is not all finite (the general kernels handle NaN and inf)."""
    if not np.isfinite(x).all():
        return None
    taps = list(itertools.product(*(range(k) for k in g.kernel)))
    # every window's taps side by side (padding as -inf): argmax takes the first maximum
    xpad = _padded(np, x, g, -np.inf)
    stack = np.empty(og.shape + (len(taps),), dtype=x.dtype)
    for n, t in enumerate(taps):
        stack[..., n] = xpad[(Ellipsis, *(slice(k, k + (O - 1) * st + 1, st)
                                          for k, st, O in zip(t, g.stride, g.out)))]
    arg = np.argmax(stack, axis=-1)
    if np.isfinite(og).all():   # a product is much faster than where
        terms = [og * (arg == n) for n in range(len(taps))]
    else:
        terms = [np.where(arg == n, og, og.dtype.type(0)) for n in range(len(taps))]
    spans = {}
    for n, t in enumerate(taps):
        sp = [_axis_span(*a, 0, O) for a, O in
              zip(zip(t, g.stride, g.pad, g.spatial), g.out)]
        if None not in sp:
            spans[t] = (n, (Ellipsis, *(a[0] for a in sp)), (Ellipsis, *(a[1] for a in sp)))
    index = {t: n for n, t in enumerate(taps)}

    def term(o, t):
        return terms[index[t]][o]

    gx = np.zeros(x.shape, dtype=og.dtype)
    if onednn:
        _onednn_spread(gx, g, _ONEDNN_UR_W["max"], term)
    else:   # taps in reverse row-major order: each element's windows in row-major order
        for t in reversed(taps):
            if t in spans:
                n, o, i = spans[t]
                v = gx[i]
                np.add(v, terms[n][o], out=v)
    return _into(np, dst, gx)


def _exact_sum_backward(og, x, out, g, attrs, dst):
    """avg, sum and lp backward as 1.9.1's own kernel adds it: output windows in row-major
    order, each adding its gradient (for lp: og * (x / out) ** (p-1), per tap) to every
    tap in the input. An input element therefore takes its windows' terms in row-major
    window order, which is the reverse row-major order of its tap offset in them."""
    pt = attrs["pool_type"]
    cdt = _compute_dtype(x.dtype)
    ogc = og.astype(cdt, copy=False)
    p = attrs["p_value"] if pt == "lp" else 1
    if pt == "avg":
        div = _divisor(np, g, attrs["count_include_pad"] is not False, cdt)[0]
        scale = ogc / div
    else:
        scale = ogc
    xc = x.astype(cdt, copy=False)
    if p > 1:
        o = out.astype(cdt, copy=False)
        zero = o == 0
        den = np.where(zero, 1, o)
    gx = np.zeros(x.shape, dtype=cdt)
    for taps in itertools.product(*(range(k - 1, -1, -1) for k in g.kernel)):
        sl = _tap_slices(g, taps)
        if sl is None:
            continue
        osl, isl = sl
        term = scale[osl]
        if p > 1:   # og * (x / out), times (x / out) again for p=3; 0 where out is 0
            r = xc[isl] / den[osl]
            term = term * r if p == 2 else term * r * r
            term = np.where(zero[osl], 0, term)
        dst_v = gx[isl]
        np.add(dst_v, term, out=dst_v)
    return _into(np, dst, gx.astype(x.dtype, copy=False))


def _fast_sum_backward(og, x, out, g, attrs, dst):
    """avg, sum and lp backward on NumPy (not global), into ``dst``: the scaled output
    gradient spread over the windows' taps (then times x**(p-1) for lp). Temporaries come
    from the scratch buffers."""
    pt = attrs["pool_type"]
    cdt = _compute_dtype(x.dtype)
    ogc = og.astype(cdt, copy=False)
    p = attrs["p_value"] if pt == "lp" else 1
    if pt == "avg":
        div = _divisor(np, g, attrs["count_include_pad"] is not False, cdt)[0]
        scale = _divide(ogc, div, out=_scratch("scale", og.shape, cdt))
    elif pt == "lp" and p > 1:
        # scale = og / out**(p-1), 0 where out is 0
        o = out.astype(cdt, copy=False)
        zero = np.equal(o, 0, out=_scratch("zero", o.shape, bool))
        scale = _scratch("scale", o.shape, cdt)
        if p == 2:
            np.copyto(scale, o)
        else:
            np.multiply(o, o, out=scale)
        np.copyto(scale, 1, where=zero)
        np.divide(ogc, scale, out=scale)
        np.copyto(scale, 0, where=zero)
    else:
        scale = ogc
    gx = dst if cdt == x.dtype else _scratch("gx", x.shape, cdt)
    if _is_aligned(g):
        _aligned_spread(scale, g, x.shape, gx)
    else:
        _separable_spread(scale, g, x.shape, gx)
    if p > 1:
        xc = x.astype(cdt, copy=False)
        gx *= xc if p == 2 else np.multiply(xc, xc, out=_scratch("lp_pow", x.shape, cdt))
    return _into(np, dst, gx)


# ---------------------------------------------------------------------------------------------
# the tap engine (NumPy): every window tap as one contiguous slice


_MAX_TAPS = 64  # windows (and global pools) with more taps use the per-axis stages above


def _copy(dst, src):
    """dst[...] = src. Where rows (the last axis) are contiguous in both, each row moves as one
    opaque item: NumPy then makes one inner-loop call for many short rows, not one per row."""
    n = dst.shape[-1] if dst.ndim else 0
    if (n > 1 and dst.size and dst.dtype == src.dtype and dst.shape == src.shape
            and dst.strides[-1] == dst.itemsize and src.strides[-1] == src.itemsize):
        row = np.dtype((np.void, n * dst.itemsize))
        np.copyto(dst.view(row)[..., 0], src.view(row)[..., 0])
    else:
        np.copyto(dst, src)


def _gather(dst, src, start, step):
    """dst[:] = src[start::step] for flat arrays; a stride of 2 over 2- or 4-byte items is read
    as wider unsigned pairs and narrowed (the low half is the first item), several times
    faster than a strided copy."""
    n = dst.size
    it = src.itemsize
    if step == 2 and it in (2, 4) and sys.byteorder == "little" and n > 1:
        wide, narrow = (np.uint32, np.uint16) if it == 2 else (np.uint64, np.uint32)
        np.copyto(dst[:n - 1].view(narrow), src[start:start + 2 * (n - 1)].view(wide),
                  casting="unsafe")
        dst[n - 1] = src[start + 2 * (n - 1)]
    else:
        np.copyto(dst, src[start:start + step * (n - 1) + 1:step])


class _TapLayout:
    """Where each kernel tap of every window lies in a phase-split, padded copy of the input.

    Along a spatial dim with stride ``s`` the padded input is split into ``min(k, s)`` phases
    (padded positions ``b*s + r`` for phase ``r``, block ``b``), each holding
    ``blocks = out + (k - 1) // s`` blocks. Tap ``t`` of window ``o`` is then block ``o + t // s``
    of phase ``t % s``. With the output laid out on the same block grid (``(N, C) + blocks``,
    the valid outputs in the leading ``out`` blocks), a tap is one shift of the flattened
    phase array: every tap of every window is read by one contiguous slice, and a reduction
    is one whole-array ufunc call per tap. The grid's extra blocks hold don't-care values.
    """

    def __init__(self, lead, g):
        n = len(g.spatial)
        self.lead = lead
        self.stride = tuple(g.stride)
        self.nph = tuple(min(k, s) for k, s in zip(g.kernel, g.stride))
        self.blocks = tuple(o + (k - 1) // s for o, k, s in zip(g.out, g.kernel, g.stride))
        self.out = tuple(g.out)
        self.plane = math.prod(self.blocks)
        pitch = [math.prod(self.blocks[d + 1:]) for d in range(n)]
        xpitch = [math.prod(g.spatial[d + 1:]) for d in range(n)]
        self.xplane = math.prod(g.spatial)
        phases = list(itertools.product(*(range(p) for p in self.nph)))
        index = {r: i for i, r in enumerate(phases)}
        # (phase, shift on the block grid, offset from the window origin in the input) per tap,
        # in row-major tap order
        self.taps = []
        for t in itertools.product(*(range(k) for k in g.kernel)):
            r = tuple(td % s for td, s in zip(t, g.stride))
            self.taps.append((index[r],
                              sum((td // s) * p for td, s, p in zip(t, g.stride, pitch)),
                              sum(td * p for td, p in zip(t, xpitch))))
        self.size = math.prod(lead) * self.plane
        self.span = self.size - max(sh for _, sh, _ in self.taps)
        # per phase and dim: the blocks that hold input positions, and the first such position
        self.copies = []
        for r in phases:
            spec = []
            for d in range(n):
                L, s, p, A = g.spatial[d], g.stride[d], g.pad[d], self.blocks[d]
                b0 = max(0, -(-(p - r[d]) // s))
                b1 = min(A, (L - 1 + p - r[d]) // s + 1)
                spec.append((b0, max(b0, b1), b0 * s + r[d] - p, s))
            self.copies.append(spec)
        self.padded = any(p > 0 for p in g.pad) or any(
            (o - 1) * s + k > L + p for o, s, k, L, p in zip(g.out, g.stride, g.kernel, g.spatial,
                                                           g.pad))
        self.disjoint = all(s >= k for s, k in zip(g.stride, g.kernel))
        self.aliased = (all(s == 1 for s in g.stride) and not self.padded
                        and self.blocks == tuple(g.spatial))
        # window origins in the flattened (C-contiguous) input of one (n, c) feature map
        origin = np.zeros((), dtype=np.intp)
        for d in range(n):
            o = (np.arange(g.out[d], dtype=np.intp) * g.stride[d] - g.pad[d]) * xpitch[d]
            origin = np.add.outer(origin, o)
        self.origin = origin.reshape(-1)
        # input offset from its window's origin of the tap that scored (see match_scores)
        self.by_score = np.array([0] + [xo for _, _, xo in self.taps][::-1], dtype=np.intp)
        self.nout = math.prod(lead) * math.prod(g.out)
        self.aligned = _aligned_taps(g)
        # stride-aligned: index tuples (into the (-1, *out) grid) of the windows some tap of
        # which is outside the input, None where a tap is outside for every window
        self.border = None
        if self.aligned is not None and all(c is not None for _, _, c in self.aligned[3]):
            seen = {}
            for _, _, clears in self.aligned[3]:
                for w in clears:
                    seen.setdefault(tuple((i.start, i.stop) for i in w), w)
            self.border = list(seen.values())
        offsets = [xo for _, _, xo in self.taps]
        # per tap: _OFFSET_BASE minus its input offset from the window origin; these fall
        # with the tap index (a tap inside the input lies further on in the flat input than
        # the taps before it), so the highest score is still the first match
        self.offset_scores = ([_OFFSET_BASE - xo for xo in offsets]
                              if self.aligned is not None and max(offsets) < _OFFSET_BASE
                              else None)
        self.geom = g

    def offset_origins(self):
        """The window origins plus ``_OFFSET_BASE`` (flat, lead + out), cached as the plain
        origins are; None where the taps' offsets do not fit a uint8 score or the table
        would be too large."""
        if self.offset_scores is None or self.nout * 8 > _ORIGINS_CACHE_BYTES:
            return None
        key = (self, "offset")
        table = _ORIGINS.get(key)
        if table is None:
            table = np.add.outer(np.arange(math.prod(self.lead), dtype=np.intp) * self.xplane,
                                 self.origin + _OFFSET_BASE).reshape(-1)
            _remember_origins(key, table)
        return table

    def add_window_origins(self, idx):
        """Add to idx (lead + out, C order) the flat input index of each window's origin.
        The table of those is kept for recent layouts while small (the same pools run
        every step); otherwise two broadcast adds (the origin within a feature map, then
        the map's offset) do it without a table."""
        table = _ORIGINS.get(self)
        if table is None and self.nout * 8 <= _ORIGINS_CACHE_BYTES:
            table = np.add.outer(np.arange(math.prod(self.lead), dtype=np.intp) * self.xplane,
                                 self.origin).reshape(-1)
            _remember_origins(self, table)
        if table is not None:
            flat = idx.reshape(-1)
            np.add(flat, table, out=flat)
            return
        rows = idx.reshape(math.prod(self.lead), -1)
        rows += self.origin
        rows += (np.arange(math.prod(self.lead), dtype=np.intp) * self.xplane)[:, None]

    def block_view(self, a):
        """The valid outputs of a flat array laid out on the block grid."""
        a = a[:self.size].reshape(self.lead + self.blocks)
        if self.blocks == self.out:
            return a
        return a[(slice(None),) * len(self.lead) + tuple(slice(0, o) for o in self.out)]

    def _slices(self, spec):
        lead = (slice(None),) * len(self.lead)
        blk = lead + tuple(slice(b0, b1) for b0, b1, _, _ in spec)
        src = lead + tuple(slice(x0, x0 + (b1 - b0 - 1) * s + 1, s) for b0, b1, x0, s in spec)
        return blk, src

    def _columns(self, x):
        """The residue classes of the last axis (stride s) that the phases read, each gathered
        into a contiguous (lead + spatial[:-1] + (W // s,)) array; None where a direct copy is
        used (stride 1, long rows, other layouts)."""
        s, W = self.stride[-1], x.shape[-1]
        # from 8 columns a phase on, a direct strided copy is faster than gathering first
        if s == 1 or W % s or W // s >= 8 or not x.flags.c_contiguous:
            return None
        cols = {}
        for spec in self.copies:
            rho = spec[-1][2] % s
            if rho not in cols and all(b1 > b0 for b0, b1, _, _ in spec):
                E = _scratch(f"cols{rho}", x.shape[:-1] + (W // s,), x.dtype)
                _gather(E.reshape(-1), x.reshape(-1), rho, s)
                cols[rho] = E
        return cols

    def _column_slices(self, spec, src):
        b0, b1, x0, s = spec[-1]
        return x0 % s, src[:-1] + (slice(x0 // s, x0 // s + b1 - b0),)

    def split(self, x, fill, dtype):
        """(phases, size) array: the padded input split into phases on the block grid."""
        if self.aliased and x.dtype == dtype and x.flags.c_contiguous:
            return x.reshape(1, self.size)
        P = _scratch("split", (len(self.copies),) + self.lead + self.blocks, dtype)
        lead = (slice(None),) * len(self.lead)
        cols = self._columns(x)
        for c, spec in enumerate(self.copies):
            if any(b1 <= b0 for b0, b1, _, _ in spec):
                P[c] = fill
                continue
            blk, src = self._slices(spec)
            if cols is None:
                _copy(P[c][blk], x[src])
            else:
                rho, sl = self._column_slices(spec, src)
                _copy(P[c][blk], cols[rho][sl])
            for d, (b0, b1, _, _) in enumerate(spec):  # padding around the copied box
                if b0 > 0:
                    P[c][lead + (slice(None),) * d + (slice(0, b0),)] = fill
                if b1 < self.blocks[d]:
                    P[c][lead + (slice(None),) * d + (slice(b1, None),)] = fill
        return P.reshape(len(self.copies), self.size)

    def to_grid(self, a, fill):
        """A (lead + out) array placed on the flat block grid (other blocks set to fill)."""
        if self.blocks == self.out:
            return np.ascontiguousarray(a).reshape(-1)
        flat = _scratch("grid", (self.size,), a.dtype)
        flat.fill(fill)
        _copy(self.block_view(flat), a)
        return flat

    def match_scores(self, P, target):
        """uint8 grid: K - t for the first tap t (row-major) equal to target, 0 where none is
        (K taps). Each tap scores K - t where it matches and the highest score is kept."""
        n, K = self.span, len(self.taps)
        best = _scratch("best", (self.size,), np.uint8)
        best.fill(0)
        eq = _scratch("eq", (n,), bool)
        score = _scratch("score", (n,), np.uint8)
        b = best[:n]
        for t, (c, sh, _) in enumerate(self.taps):
            np.equal(P[c, sh:sh + n], target[:n], out=eq)
            np.multiply(eq.view(np.uint8), K - t, out=score)
            np.maximum(b, score, out=b)
        return best


def _layout(x, g):
    """The tap layout for x (channels first), or None where the per-axis stages are used."""
    if x.size == 0 or g.is_global or math.prod(g.kernel) > _MAX_TAPS:
        return None
    key = (tuple(x.shape), g.spatial, g.kernel, g.stride, g.pad, g.out)
    lay = _LAYOUTS_CACHE.get(key)
    if lay is None:
        if len(_LAYOUTS_CACHE) >= 32:
            _LAYOUTS_CACHE.clear()
        lay = _LAYOUTS_CACHE[key] = _TapLayout(tuple(x.shape[:2]), g)
    return lay


_LAYOUTS_CACHE: dict = {}
# window-origin tables of recent layouts (see _TapLayout.add_window_origins), at most this
# many bytes in all
_ORIGINS: dict = {}
_ORIGINS_LOCK = threading.Lock()
_ORIGINS_CACHE_BYTES = 32 << 20
# see _TapLayout.offset_scores: a uint8 score, 0 meaning no match
_OFFSET_BASE = 255


def _remember_origins(key, table):
    with _ORIGINS_LOCK:   # the op threads may add tables at the same time
        while _ORIGINS and sum(t.nbytes for t in _ORIGINS.values()) + table.nbytes > \
                _ORIGINS_CACHE_BYTES:
            _ORIGINS.pop(next(iter(_ORIGINS)))
        _ORIGINS[key] = table


def _interior(L, k, s, p, O):
    """The windows lo..hi-1 along an axis that lie wholly inside [0, L)."""
    lo = min(O, -(-p // s))
    return lo, max(lo, min(O, (L + p - k) // s + 1))


def _axis_window(y, R, L, I, k, s, p, O, combine, empty, dst):
    """Windowed reduction (``combine``: fmax or add) along the middle axis of y viewed as
    (R, L, I): written into ``dst`` (contiguous, R*O*I elements) as (R, O, I), ``empty``
    where a window reads nothing.

    Windows inside [0, L) come from one running reduction over the whole flat array (k - 1
    contiguous passes, taps in order), subsampled; the few windows that reach into the padding
    are redone from their valid taps.
    """
    z = dst.reshape(R, O, I)
    yf = y.reshape(-1)
    y3 = yf.reshape(R, L, I)
    lo, hi = _interior(L, k, s, p, O)
    if hi > lo:
        n = R * L * I
        start = (lo * s - p) * I
        if k == 1:
            U = yf
        else:
            U = _scratch("run", (n,), y.dtype)
            m = n - (k - 1) * I
            combine(yf[:m], yf[I:I + m], out=U[:m])
            for t in range(2, k):
                combine(U[:m], yf[t * I:t * I + m], out=U[:m])
        if (I == 1 or s == 1) and L == s * O:
            # one flat strided read: output j is U[s*j - p*I]; borders fixed below
            j0, j1 = lo * I, ((R - 1) * O + hi) * I
            _gather(z.reshape(-1)[j0:j1], U, start, s)
        else:
            _copy(z[:, lo:hi], U[:n].reshape(R, L, I)[:, lo * s - p:(hi - 1) * s - p + 1:s])
    if I == 1:  # 1-D strided views: one inner loop rather than one per row
        z2, y2 = z.reshape(R, O), y3.reshape(R, L)
    else:
        z2, y2 = z, y3
    for o in itertools.chain(range(lo), range(hi, O)):
        taps = [o * s - p + t for t in range(k) if 0 <= o * s - p + t < L]
        if len(taps) < 2:
            z2[:, o] = y2[:, taps[0]] if taps else empty
            continue
        combine(y2[:, taps[0]], y2[:, taps[1]], out=z2[:, o])
        for l in taps[2:]:
            combine(z2[:, o], y2[:, l], out=z2[:, o])
    return z


def _axis_spread(z, R, O, I, k, s, p, L, y):
    """Adjoint of the windowed sum along an axis: z (R, O, I) -> y (R, L, I) (``y`` given:
    contiguous, R*L*I elements), every input position the sum of the windows that read it.

    The windows inside [0, L) are placed at their first position (every s-th slot of a zeroed
    array; one flat strided copy where rows line up) and summed over the k taps by k - 1
    shifted, flat, contiguous adds: what a shift carries over a row end comes from slots that
    no inner window uses, so it adds zeros. The border windows are added tap by tap.
    """
    z = z.reshape(R, O, I)
    if s > 1 and I > 1:
        return _axis_spread_phases(z, R, O, I, k, s, p, L, y)
    n = R * L * I
    lo, hi = _interior(L, k, s, p, O)
    yf = y.reshape(-1)
    direct = k == 1 or hi <= lo   # the placed windows are the result
    Z = yf if direct else _scratch("slots", (n,), z.dtype)
    Z[...] = 0
    if hi > lo:
        if I == 1 and L == s * O:
            # output j = r*O + o starts at slot s*j - p: one strided copy places rows 0..R-1;
            # the border windows it places too (in their own or the previous row) are cleared
            first = s * lo - p
            count = (R - 1) * O + hi - lo
            np.copyto(Z[first:first + s * (count - 1) + 1:s], z.reshape(-1)[lo:lo + count])
            Z2 = Z.reshape(R, L)
            for o in itertools.chain(range(lo), range(hi, O)):
                Z2[:, (o * s - p) % L] = 0
        else:
            _copy(Z.reshape(R, L, I)[:, lo * s - p:(hi - 1) * s - p + 1:s], z[:, lo:hi])
    if not direct:
        yf[:I] = Z[:I]
        np.add(Z[I:], Z[:n - I], out=yf[I:])
        for t in range(2, k):
            np.add(yf[t * I:], Z[:n - t * I], out=yf[t * I:])
    if I == 1:
        z2, y2 = z.reshape(R, O), yf.reshape(R, L)
    else:
        z2, y2 = z, yf.reshape(R, L, I)
    for o in itertools.chain(range(lo), range(hi, O)):
        for t in range(k):
            l = o * s - p + t
            if 0 <= l < L:
                y2[:, l] += z2[:, o]
    return yf.reshape(R, L, I)


def _axis_spread_phases(z, R, O, I, k, s, p, L, y):
    """``_axis_spread`` for a strided axis of whole rows (I > 1), one stride phase at a time:
    the rows l = s*q + r of phase r receive window q - a from each tap t with
    (a, r) = divmod(t - p, s), so a phase is a sum of shifted blocks of z (contiguous within
    each of the R groups), moved into place as whole rows. No zero-filled slots are added.
    ``y``: the result's buffer (contiguous, R*L*I elements)."""
    y = y.reshape(R, L, I)
    for r in range(min(s, L)):
        nq = -(-(L - r) // s)
        # (q range, z range) of every tap landing on this phase
        parts = []
        for t in range(k):
            a, rt = divmod(t - p, s)
            if rt != r:
                continue
            q0, q1 = max(0, a), min(nq, O + a)
            if q1 > q0:
                parts.append((q0, q1, q0 - a))
        dst = y[:, r::s]
        if len(parts) == 1 and parts[0][:2] == (0, nq):
            _copy(dst, z[:, parts[0][2]:parts[0][2] + nq])
            continue
        full = [part for part in parts if part[:2] == (0, nq)]
        if full:  # start from a tap that covers the whole phase (no zero fill)
            parts.remove(full[0])
            ph = _scratch("phase_acc", (R, nq, I), z.dtype)
            np.copyto(ph, z[:, full[0][2]:full[0][2] + nq])
        else:
            ph = _scratch("phase_acc", (R, nq, I), z.dtype)
            ph[...] = 0
        for q0, q1, o0 in parts:
            ph[:, q0:q1] += z[:, o0:o0 + q1 - q0]
        _copy(dst, ph)
    return y


def _separable_stages(x, g, combine, empty, out):
    """The windowed reduction of x one spatial axis at a time, outermost first, into ``out``
    (the stages between in scratch buffers, one per axis)."""
    y = np.ascontiguousarray(x)
    lead = y.shape[:2]
    n = len(g.spatial)
    for d in range(n):
        R = math.prod(lead) * math.prod(g.out[:d])
        I = math.prod(g.spatial[d + 1:])
        dst = out if d == n - 1 else _scratch(f"stage{d}", (R * g.out[d] * I,), y.dtype)
        y = _axis_window(y, R, g.spatial[d], I, g.kernel[d], g.stride[d], g.pad[d], g.out[d],
                         combine, empty, dst)
    return out


def _separable_max(x, g, out):
    """Max pooling one spatial axis at a time, outermost first (the innermost axis, whose
    padding fix-ups touch every row, then works on the smallest array), into ``out``; NaN
    skipped, at least the lowest finite value."""
    y = _separable_stages(x, g, np.fmax, -np.inf, out)
    low = _lowest(x.dtype)
    if y.size and y.min() >= low:   # no window of NaN or padding only: nothing to raise
        return y
    return np.fmax(y, low, out=y)


def _separable_sum(x, g, out):
    """Window sums one spatial axis at a time, outermost first (the first pass, over the
    whole input, then moves whole rows), into ``out``."""
    return _separable_stages(x, g, np.add, 0, out)


def _separable_spread(z, g, shape, out):
    """Adjoint of ``_separable_sum``: innermost axis first, into ``out`` (contiguous, of
    ``shape``; the stages between in scratch buffers)."""
    z = np.ascontiguousarray(z)
    lead = shape[:2]
    for d in reversed(range(len(g.spatial))):
        R = math.prod(lead) * math.prod(g.out[:d])
        I = math.prod(g.spatial[d + 1:])
        y = out if d == 0 else _scratch(f"spread{d}", (R * g.spatial[d] * I,), z.dtype)
        z = _axis_spread(z, R, g.out[d], I, g.kernel[d], g.stride[d], g.pad[d], g.spatial[d], y)
    return out


# -- stride-aligned pools: the stride phases of the input ---------------------------------
#
# Where every input length is stride * out (ResNet's 3x3/2 pad 1 stem pool, 2x2/2 pools), the
# input is made of whole stride phases, each shaped like the output. Along an axis, tap t of
# window o reads phase (t - pad) % s at position o + (t - pad) // s, so on phase arrays a tap
# is one flat, shifted, contiguous pass over the output grid; positions for which the flat
# pass reads across a row end are redone from their valid taps. Used by the max backward
# (``_aligned_scores``: no padding blocks, no grid copy of the output) and by the sum
# backward (``_aligned_spread``: each phase of the gradient summed from shifted windows,
# then interleaved, rather than zero-filled strided slots and full-size shifted adds).


def _is_aligned(g):
    """Strided (some stride > 1) and every input length stride * out."""
    return not g.is_global and any(s > 1 for s in g.stride) and all(
        L == s * o for L, s, o in zip(g.spatial, g.stride, g.out))


def _phase_slices(r, stride):
    return (slice(None),) * 2 + tuple(slice(rd, None, s) for rd, s in zip(r, stride))


def _rows_then_columns(x, stride):
    return (len(stride) > 1 and stride[-1] == 2 and x.itemsize in (2, 4)
            and x.flags.c_contiguous and sys.byteorder == "little")


def _split_phases(x, stride, wanted):
    """{residues: contiguous (N, C, *out) phase of x} for the residue tuples in ``wanted``
    (in this thread's scratch buffers)."""
    if _rows_then_columns(x, stride):
        return dict(_split_rows_then_columns(x, stride, wanted))
    pairs = (stride[-1] == 2 and x.itemsize in (2, 4) and x.flags.c_contiguous
             and sys.byteorder == "little")
    if pairs:   # even phase of the last axis: the low half of each wide pair (see _gather)
        wide, narrow = (np.uint32, np.uint16) if x.itemsize == 2 else (np.uint64, np.uint32)
        xw = x.view(wide)
    res = {}
    for r in wanted:
        src = x[_phase_slices(r, stride)]
        dst = _scratch(f"phase{r}", src.shape, x.dtype)
        if pairs and r[-1] == 0:
            np.copyto(dst.view(narrow), xw[_phase_slices(r[:-1], stride[:-1])],
                      casting="unsafe")
        else:
            np.copyto(dst, src)
        res[r] = dst
    return res


def _split_rows_then_columns(x, stride, wanted, reuse=False):
    """``_split_phases`` where the last axis has stride 2, as (residues, phase) pairs: the
    phases of the outer axes are first copied out as whole rows (each row one opaque item,
    see ``_copy``), then each such contiguous block gives its two column phases by a flat
    pair gather (``_gather``). Strided element-wise copies over short rows cost several
    times more. With ``reuse`` every phase comes in one buffer, valid until the next is
    asked for (the working set then stays small)."""
    for outer in dict.fromkeys(r[:-1] for r in wanted):
        if all(s == 1 for s in stride[:-1]):
            rows = x
        else:
            src = x[_phase_slices(outer, stride[:-1])]
            rows = _scratch("rows", src.shape, x.dtype)   # consumed before the next
            _copy(rows, src)
        flat = rows.reshape(-1)
        for rc in (0, 1):
            r = outer + (rc,)
            if r in wanted:
                role = "phase" if reuse else f"phase{r}"
                dst = _scratch(role, rows.shape[:-1] + (rows.shape[-1] // 2,), x.dtype)
                _gather(dst.reshape(-1), flat, rc, 2)
                yield r, dst


def _flat_taps(combine, srcs, out):
    """out[w] = srcs[0][w + sh0] (combine) srcs[1][w + sh1] (combine) ... on flat arrays, for
    every w whose reads are all inside the arrays (the others are left alone)."""
    M = out.size
    lo = max(0, max(-sh for _, sh in srcs))
    hi = min(M, min(M - sh for _, sh in srcs))
    if hi <= lo:
        return
    (a, sa), rest = srcs[0], srcs[1:]
    if not rest:
        np.copyto(out[lo:hi], a[lo + sa:hi + sa])
        return
    b, sb = rest[0]
    combine(a[lo + sa:hi + sa], b[lo + sb:hi + sb], out=out[lo:hi])
    for c, sc in rest[1:]:
        combine(out[lo:hi], c[lo + sc:hi + sc], out=out[lo:hi])


def _axis_taps(combine, out, srcs, d, n_pos, empty):
    """Along spatial axis d of (N, C, *O) grids: out[.., o, ..] = the valid srcs (array, a)
    at o + a combined in order, for the positions o where the flat pass read across a row
    end (some tap outside [0, n_pos)); ``empty`` where no tap is valid."""
    head = (slice(None),) * (2 + d)
    for o in range(n_pos):
        if all(0 <= o + a < n_pos for _, a in srcs):
            continue
        valid = [src[head + (o + a,)] for src, a in srcs if 0 <= o + a < n_pos]
        dst = out[head + (o,)]
        if not valid:
            dst[...] = empty
        elif len(valid) == 1:
            dst[...] = valid[0]
        else:
            combine(valid[0], valid[1], out=dst)
            for v in valid[2:]:
                combine(dst, v, out=dst)


def _axis_plan(g, d):
    """(shift a, phase r) of each tap along axis d, in tap order."""
    return [divmod(t - g.pad[d], g.stride[d])[::-1] for t in range(g.kernel[d])]


def _aligned_spread(z, g, shape, gx):
    """``_separable_spread`` for stride-aligned pools: every input position the sum of the
    windows that read it (in tap order), innermost axis first; z (N, C, *out) -> gx (N, C,
    *spatial), the phases between in scratch buffers."""
    n, O = len(g.spatial), tuple(g.out)
    if n == 2 and g.stride[-1] == 2 and gx.flags.c_contiguous:
        return _aligned_spread_rows(np.ascontiguousarray(z), g, gx)
    cur = {(): np.ascontiguousarray(z)}
    for d in reversed(range(n)):
        pitch = math.prod(O[d + 1:])
        plan = _axis_plan(g, d)
        new = {}
        for key, arr in cur.items():
            for r in range(g.stride[d]):
                # phase position q gets window q - a of every tap (a, r) landing on it
                srcs = [(arr, -a) for rt, a in plan if rt == r]
                if not srcs:
                    continue    # no window reads this phase: it stays zero
                if len(srcs) == 1 and srcs[0][1] == 0:   # the windows themselves
                    new[(r,) + key] = arr
                    continue
                out = _scratch(f"spread{d}{(r,) + key}", arr.shape, arr.dtype)
                _flat_taps(np.add, [(m.reshape(-1), a * pitch) for m, a in srcs],
                           out.reshape(-1))
                _axis_taps(np.add, out, srcs, d, O[d], 0)
                new[(r,) + key] = out
        cur = new
    if len(cur) < math.prod(g.stride):   # phases no window reads stay zero
        gx[...] = 0
    for r, arr in cur.items():
        np.copyto(gx[_phase_slices(r, g.stride)], arr)
    return gx


def _aligned_spread_rows(z, g, gx):
    """``_aligned_spread`` for 2-D pools whose column stride is 2, without separate phase
    arrays: the column pass writes its two phases straight into the even and odd slots of
    one (N, C, out_h, W) array Y (each a flat pass with an 8-byte step), which is then the
    row phases' common source; each row phase of gx is one run of shifted flat adds over Y
    (or Y itself) moved in as whole rows. The sums are the same, in the same order, as
    the phase by phase version."""
    O0, O1 = g.out
    W = 2 * O1
    lead = z.shape[:2]
    Y = _scratch("spread_rows", lead + (O0, W), z.dtype)
    Yf = Y.reshape(-1)
    zf = z.reshape(-1)
    for r, srcs in _phase_sources(g, 1):
        slot = Y[..., r::2]
        if not srcs:
            slot[...] = 0
        elif len(srcs) == 1 and srcs[0] == 0:
            np.copyto(slot, z)
        else:
            _flat_taps(np.add, [(zf, a) for a in srcs], Yf[r::2])
            _axis_taps(np.add, slot, [(z, a) for a in srcs], 1, O1, 0)
    s0 = g.stride[0]
    for r, srcs in _phase_sources(g, 0):
        dst = gx if s0 == 1 else gx[:, :, r::s0]
        if not srcs:
            dst[...] = 0
        elif len(srcs) == 1 and srcs[0] == 0:
            _copy(dst, Y)
        else:
            out = gx if s0 == 1 else _scratch("spread_row_phase", Y.shape, Y.dtype)
            _flat_taps(np.add, [(Yf, a * W) for a in srcs], out.reshape(-1))
            _axis_taps(np.add, out, [(Y, a) for a in srcs], 0, O0, 0)
            if out is not gx:
                _copy(dst, out)
    return gx


def _phase_sources(g, d):
    """Per phase r along axis d (stride s): the shifts b, in tap order, such that phase
    position q receives window q + b (one per tap landing on the phase)."""
    plan = _axis_plan(g, d)
    return [(r, [-a for rt, a in plan if rt == r]) for r in range(g.stride[d])]


# The NumPy forward and the max backward pool about this many input elements (whole feature
# maps) at a time: the passes' temporaries, a few times the piece, then stay in the cache.
# At the ResNet stem (32x64 maps of 32x32, four pieces) a max pool's forward + backward takes
# 10-20% less CPU time than passes over the whole batch.
_PIECE_ELEMENTS = 1 << 19


def _by_maps(fn, x, out):
    """``fn(x, out)`` (a forward kernel on (N, C, *spatial) that writes its result into
    ``out``, contiguous) over pieces of whole feature maps of x (viewed as
    (1, N*C, *spatial)), each written into its part of ``out``."""
    maps, plane = math.prod(x.shape[:2]), math.prod(x.shape[2:])
    step = max(1, _PIECE_ELEMENTS // max(plane, 1))
    if maps <= step or not x.flags.c_contiguous:
        fn(x, out)
        return out
    xm = x.reshape((1, maps) + x.shape[2:])
    om = out.reshape((1, maps) + out.shape[2:])
    for a in range(0, maps, step):
        fn(xm[:, a:a + step], om[:, a:a + step])
    return out


def _lp_pow_scratch(x, p, cdt):
    """x ** p in the compute dtype (the same products as ``_lp_pow``), x itself where p is 1
    and no cast is needed, else in scratch buffers."""
    v = x
    if x.dtype != cdt:
        v = _scratch("cast", x.shape, cdt)
        np.copyto(v, x)
    if p == 1:
        return v
    src = np.multiply(v, v, out=_scratch("pow", x.shape, cdt))
    return src if p == 2 else np.multiply(src, v, out=src)


# 1.9.1 adds a window's taps one after another in row-major order (oneDNN's kernel and its
# own); ours does that for inputs up to this many elements. Larger ones take the separable
# sums (one spatial axis at a time), 1.7x (2x2 stride 2) to 3x (3x3 stride 2 pad 1) faster at
# the batch-32 benchmark shapes, all of which are larger, but ~50% of outputs then differ from
# 1.9.1's in the last bit.
_EXACT_TAPS_MAX = 32768


def _tap_sum(x, g, out, div=None):
    """Window sums of x (N, C, *spatial) into ``out``, each window's taps added in turn in
    row-major order (taps in the padding skipped). With ``div`` (broadcasting over the output
    window grid), each tap is divided by its window's divisor before it is added, as 1.9.1's
    own avg kernel does (oneDNN's divides the sum)."""
    out[...] = 0
    for taps in itertools.product(*(range(k) for k in g.kernel)):
        sl = _tap_slices(g, taps)
        if sl is None:
            continue
        osl, isl = sl
        dst = out[osl]
        src = x[isl]
        if div is not None:
            src = src / (div if div.ndim == 0 else div[osl[1:]])
        np.add(dst, src, out=dst)
    return out


def _tap_slices(g, taps):
    """(output slices, input slices), each led by an Ellipsis, of the windows whose kernel
    tap ``taps`` lies inside the input (as strided input views); None where no window's does."""
    osl, isl = [Ellipsis], [Ellipsis]
    for t, s, p, L, O in zip(taps, g.stride, g.pad, g.spatial, g.out):
        lo = max(0, -((t - p) // s))            # first window whose tap t is in the input
        hi = min(O, (L - 1 - t + p) // s + 1)   # one past the last
        if hi <= lo:
            return None
        osl.append(slice(lo, hi))
        start = lo * s + t - p
        isl.append(slice(start, start + (hi - lo - 1) * s + 1, s))
    return tuple(osl), tuple(isl)


def _fast_forward(x, g, attrs, out):
    """The NumPy pooling of x (N, C, *spatial), not global, into ``out`` (contiguous)."""
    pt = attrs["pool_type"]
    if pt == "max":
        return _separable_max(x, g, out)
    cdt = _compute_dtype(x.dtype)
    p = attrs["p_value"] if pt == "lp" else 1
    acc = out if out.dtype == cdt else _scratch("acc", out.shape, cdt)
    src = _lp_pow_scratch(x, p, cdt)
    if x.size <= _EXACT_TAPS_MAX:
        div = None
        if pt == "avg":
            div, zero = _divisor(np, g, attrs["count_include_pad"] is not False, cdt)
        # 1.9.1's own kernel (what oneDNN does not take: dtypes other than float32,
        # channels-last layouts, the "full" convention where its shape is not the "valid"
        # one) divides each tap by the window's divisor (the valid count where padding does
        # not count); oneDNN divides the sum
        conv = attrs["pooling_convention"]
        own = x.dtype != np.float32 or attrs["layout"] in _CHANNELS_LAST or \
            conv == "same" or conv == "full" and any(
                (L + 2 * p_ - k) % s for L, k, s, p_ in zip(g.spatial, g.kernel, g.stride, g.pad))
        if div is not None and own:
            _tap_sum(src, g, acc, div)
            if zero is not None:
                np.copyto(acc, cdt.type(np.nan), where=zero)
            return _into(np, out, acc)
        _tap_sum(src, g, acc)
    else:
        _separable_sum(src, g, acc)
    if pt == "avg":
        div, zero = _divisor(np, g, attrs["count_include_pad"] is not False, cdt)
        _divide(acc, div, out=acc)
        if zero is not None:
            np.copyto(acc, cdt.type(np.nan), where=zero)
    elif pt == "lp" and p == 3 and x.size <= _EXACT_TAPS_MAX:
        _libm_cbrt(acc, out=acc)   # 1.9.1's cbrt (NumPy's differs in the last bit)
    elif pt == "lp" and p > 1:
        (np.sqrt if p == 2 else np.cbrt)(acc, out=acc)
    return _into(np, out, acc)


def _divide(a, div, out=None):
    """a / div, by a scalar where every window has the same divisor (into ``out`` if given)."""
    d0 = div.reshape(-1)[0] if div.size else 1
    return np.divide(a, d0 if bool((div == d0).all()) else div, out=out)


def _aligned_taps(g):
    """Where every input length is ``stride * out`` (the input is made of whole stride
    phases, each shaped like the output): per kernel tap in row-major order, the input phase
    it reads, its flat shift on the output grid (window w reads phase position w + shift) and
    the windows for which it lies outside the input (``_outside``). None otherwise."""
    n = len(g.spatial)
    if any(L != s * o for L, s, o in zip(g.spatial, g.stride, g.out)):
        return None
    pitch = [math.prod(g.out[d + 1:]) for d in range(n)]
    phases = list(itertools.product(*(range(s) for s in g.stride)))
    index = {r: i for i, r in enumerate(phases)}
    taps = []
    for t in itertools.product(*(range(k) for k in g.kernel)):
        r, shift, box = [], 0, []
        for d in range(n):
            a, rd = divmod(t[d] - g.pad[d], g.stride[d])
            r.append(rd)
            shift += a * pitch[d]
            box.append((max(0, -a), min(g.out[d], g.out[d] - a)))
        taps.append((index[tuple(r)], shift, _outside(box, g.out)))
    return tuple(g.stride), tuple(g.out), phases, taps


def _outside(box, out):
    """Index tuples (into a (-1, *out) grid) of the windows outside ``box`` (per axis the
    windows [lo, hi) for which a tap lies inside the input); None where the box is empty."""
    if any(lo >= hi for lo, hi in box):
        return None
    clears = []
    for d, (lo, hi) in enumerate(box):
        head = (slice(None),) * (d + 1)
        if lo > 0:
            clears.append(head + (slice(0, lo),))
        if hi < out[d]:
            clears.append(head + (slice(hi, None),))
    return tuple(clears)


def _aligned_scores(x, out, aligned, values=None):
    """``_TapLayout.match_scores`` for stride-aligned inputs (``_aligned_taps``), on the
    output grid itself: the input is split into its stride phases (no padding blocks), a tap
    is one flat shifted compare, and the windows for which it falls outside the input (or
    wraps into the next row) are cleared. Scores in plain output order: tap t scores
    ``values[t]`` (default K - t; any values falling with t keep the first match)."""
    stride, O, phases, taps = aligned
    lead = tuple(x.shape[:2])
    M = math.prod(lead) * math.prod(O)
    read = {phases[c] for c, _, clears in taps if clears is not None}
    if len(phases) == 1 and x.flags.c_contiguous:
        split = [(phases[0], x)]
    elif _rows_then_columns(x, stride):
        # the highest score does not depend on the order the taps are scored in: each phase
        # is scored by its taps as soon as it is cut out, in one reused buffer
        split = _split_rows_then_columns(x, stride, [r for r in phases if r in read],
                                         reuse=True)
    else:
        split = _split_phases(x, stride, [r for r in phases if r in read]).items()
    index = {r: i for i, r in enumerate(phases)}
    target = np.ascontiguousarray(out).reshape(M)
    K = len(taps)
    best = _scratch("best", (M,), np.uint8)
    best.fill(0)
    eq = _scratch("eq", (M,), bool)
    eq8 = eq.view(np.uint8)   # turned into the tap's scores in place
    grid = eq.reshape((-1,) + O)
    for r, phase in split:
        ph = phase.reshape(M)
        for t, (c, sh, clears) in enumerate(taps):
            if c != index[r] or clears is None:   # None: outside the input for every window
                continue
            # windows [lo, hi) read inside the flat phase; only those are compared and scored
            lo, hi = max(0, -sh), min(M, M - sh)
            np.equal(ph[lo + sh:hi + sh], target[lo:hi], out=eq[lo:hi])
            for where in clears:
                grid[where] = False
            np.multiply(eq8[lo:hi], K - t if values is None else values[t], out=eq8[lo:hi])
            np.maximum(best[lo:hi], eq8[lo:hi], out=best[lo:hi])
    return best


def _padded_windows_above(out, lay, low):
    """Whether every output of a window that reads padding is above ``low``; on stride-aligned
    layouts only the border slabs of such windows are looked at, else all of ``out``."""
    if lay.border is None:
        return bool(out.min() > low)
    grid = out.reshape((-1,) + lay.aligned[1])
    return all(bool(grid[where].min() > low) for where in lay.border if grid[where].size)


def _fast_max_backward(og, x, out, lay, dst=None):
    """Each output gradient added to the first tap (row-major) of its window equal to the
    output, in ``dst`` (zeroed first) or a new array. None where windows read padding and
    some output is the lowest value: padding holds that value, so such a tie goes through
    the per-axis stages."""
    low = _lowest(x.dtype)
    if lay.padded and out.size and not _padded_windows_above(out, lay, low):
        return None
    # a new result comes zeroed from the allocator; a given one is zeroed piece by piece
    gx = np.zeros(x.shape, dtype=og.dtype) if dst is None else dst
    gf = gx.reshape(-1)
    og = np.ascontiguousarray(og)
    maps, plane = math.prod(x.shape[:2]), math.prod(x.shape[2:])
    step = max(1, _PIECE_ELEMENTS // max(plane, 1))
    if maps <= step or not (x.flags.c_contiguous and out.flags.c_contiguous):
        if dst is not None:
            gf[...] = 0
        _max_scatter(gf, og.reshape(-1), x, out, lay)
    else:   # pieces of whole feature maps (see _by_maps), each into its part of gx
        g = lay.geom
        xm = x.reshape((1, maps) + x.shape[2:])
        om, gm = out.reshape((1, maps) + out.shape[2:]), og.reshape(maps, -1)
        for a in range(0, maps, step):
            b = min(a + step, maps)
            xp_ = xm[:, a:b]
            part = gf[a * plane:b * plane]
            if dst is not None:
                part[...] = 0
            _max_scatter(part, gm[a:b].reshape(-1), xp_, om[:, a:b], _layout(xp_, g))
    return gx


def _max_scatter(gx, og, x, out, lay):
    """Add og (flat, x's windows) into gx (flat, x's elements) at each window's first tap
    equal to its output; windows equal to no tap add nothing."""
    if lay.aligned is not None:
        table = lay.offset_origins()
        if table is not None:
            # each tap scores _OFFSET_BASE minus its offset from the window origin, so that
            # the index is the origin table minus the score: no lookup pass
            scores = _aligned_scores(x, out, lay.aligned, lay.offset_scores)
            idx = _scratch("idx", scores.shape, np.intp)
            np.copyto(idx, scores)   # widened first: a mixed-type subtract is slower
            np.subtract(table, idx, out=idx)
            _scatter_matches(gx, og, idx, scores, lay)
            return
        scores = _aligned_scores(x, out, lay.aligned)
        valid = scores
    else:
        scores = lay.match_scores(lay.split(x, _lowest(x.dtype), x.dtype),
                                  lay.to_grid(out, np.nan))
        valid = lay.block_view(scores)
    # the scores widened to intp in a scratch buffer, then looked up in place (take would
    # otherwise make its own intp copy of them); every score indexes by_score, and "clip"
    # lets take write straight into its out
    idx = _scratch("idx", valid.shape, np.intp)
    np.copyto(idx, valid)
    np.take(lay.by_score, idx, out=idx, mode="clip")
    lay.add_window_origins(idx)
    _scatter_matches(gx, og, idx, valid, lay, scores)


def _scatter_matches(gx, og, idx, valid, lay, scores=None):
    """gx[idx] += og for the windows whose score (``valid``, same order) is not 0."""
    idx = idx.reshape(-1)
    if np.count_nonzero(valid if scores is None else scores) < lay.nout:
        keep = valid.reshape(-1) != 0   # outputs equal to no tap (the grid's padding
        idx, og = idx[keep], og[keep]   # blocks never match): dropped
    if lay.disjoint:  # each input position in at most one window
        gx[idx] = og
    else:  # in row-major output order, as 1.9.1's CPU kernel adds them
        np.add.at(gx, idx, og)


def _global_columns(x, g):
    """Whether a global pool runs as one pass per spatial position (a column of the
    (N*C, positions) matrix) rather than as a reduction over the positions."""
    return bool(g.is_global and x.size and math.prod(g.spatial) <= _MAX_TAPS)


def _fast_global_forward(x, g, attrs, out=None):
    """Global pooling, the positions of each feature map taken in order, into ``out`` if
    given."""
    NC = math.prod(x.shape[:2])
    flat = x.reshape(NC, -1)
    S = flat.shape[1]
    out = _dest(out, x.shape[:2] + (1,) * len(g.spatial), x.dtype)
    pt = attrs["pool_type"]
    if pt == "max":
        acc = out.reshape(NC)
        np.copyto(acc, flat[:, 0])
        for t in range(1, S):
            np.fmax(acc, flat[:, t], out=acc)
        np.fmax(acc, _lowest(x.dtype), out=acc)
        return out
    cdt = _compute_dtype(x.dtype)
    p = attrs["p_value"] if pt == "lp" else 1
    src = _lp_pow_scratch(flat, p, cdt) if p > 1 else flat   # (a cast comes with the copies)
    # 1.9.1's own avg kernel adds each position divided by the count; oneDNN's (float32
    # channels-first data, where a kernel is given) divides the sum, as does a power-of-two
    # count (ResNet's 4x4 and 8x8 pools) for either
    onednn = x.dtype == np.float32 and bool(attrs["kernel"]) and \
        attrs["layout"] not in _CHANNELS_LAST
    div = cdt.type(S) if pt == "avg" and S & (S - 1) and not onednn else None
    acc = out.reshape(NC) if out.dtype == cdt else _scratch("acc", (NC,), cdt)
    _running_sums(src, acc, div)
    if pt == "avg" and div is None:
        np.divide(acc, cdt.type(S), out=acc)
    elif pt == "lp" and p > 1:
        _lp_root(np, acc, p, NC, out=acc)
    _into(np, out.reshape(NC), acc)
    return out


_GLOBAL_BLOCK = 1 << 17   # elements per transposed block of _running_sums


def _running_sums(src, acc, div=None):
    """acc[i] = src[i, 0] + src[i, 1] + ... added left to right (1.9.1's order), each term
    first divided by ``div`` when given, in acc's dtype. Blocks of rows are copied transposed
    (positions x maps, in cache) and reduced over their first axis, which NumPy adds row
    after row (a lone column it would add pairwise; few long rows take running sums)."""
    NC, S = src.shape
    cdt = acc.dtype
    if S == 1:
        if div is None:
            np.copyto(acc, src[:, 0])
        else:
            np.divide(src[:, 0], div, out=acc, dtype=cdt)
        return acc
    step = max(2, _GLOBAL_BLOCK // S)
    buf = _scratch("gsum", (S, min(step, NC)), cdt)
    for a in range(0, NC, step):
        blk = src[a:a + step]
        n = blk.shape[0]
        if n < 8:   # long rows: running sums along them are faster
            rows = blk if div is None else np.divide(blk, div, dtype=cdt)
            acc[a:a + n] = np.cumsum(rows, axis=1, dtype=cdt)[:, -1]
            continue
        t = buf[:, :n]
        if div is None:
            np.copyto(t, blk.T)
        else:
            np.divide(blk.T, div, out=t, dtype=cdt)
        np.add.reduce(t, axis=0, out=acc[a:a + n])
    return acc


def _fast_global_max_backward(og, x, out, dst=None):
    """The gradient of each feature map to its first (row-major) position equal to the
    output, in ``dst`` (zeroed first) or a new array."""
    flat = x.reshape(math.prod(x.shape[:2]), -1)
    NC, S = flat.shape
    target = out.reshape(NC)
    best = np.zeros(NC, dtype=np.uint8)
    eq = np.empty(NC, dtype=bool)
    score = np.empty(NC, dtype=np.uint8)
    for t in range(S):  # position t scores S - t where it matches; the highest is the first
        np.equal(flat[:, t], target, out=eq)
        np.multiply(eq.view(np.uint8), S - t, out=score)
        np.maximum(best, score, out=best)
    idx = np.arange(0, NC * S, S, dtype=np.intp)
    idx += S
    idx -= best
    ogf = og.reshape(-1)
    keep = best != 0   # where no position equals the output, the gradient is dropped
    gx = _dest(dst, x.shape, og.dtype)
    gx[...] = 0
    gx.reshape(-1)[idx[keep]] = ogf[keep]
    return gx


# ---------------------------------------------------------------------------------------------
# layout handling and registration


# -- max pooling that keeps where each maximum lies ---------------------------------------------
#
# 1.9.1's oneDNN max pooling writes a workspace in the forward pass (where each window's
# maximum lies) and its backward only scatters through it. The same is done here for the
# 3x3 stride 2 pad 1 pools on even sizes (ResNet's stem): a training forward computes the
# maximum one axis at a time, columns first, and on the same intermediate arrays each
# window's first maximum in row-major order as a byte offset from the window origin (the
# first row of the window whose maximum is the output, then the first column of that row
# holding it); the backward adds the output gradients at those offsets, without scoring the
# taps again. Where some output is the lowest value (NaN or -inf only windows) no offsets are
# kept and the backward scores the taps as for any other pool.

_FIRST_MAX: dict = {}   # id(output array) -> (ref to output, ref to data, offsets (uint8))


def _keeps_first_max(x, g):
    """Whether x's max pool can keep its first-max offsets (see above)."""
    return (len(g.spatial) == 2 and tuple(g.kernel) == (3, 3) and tuple(g.stride) == (2, 2)
            and tuple(g.pad) == (1, 1) and not g.is_global and x.size > 0
            and all(L == 2 * o for L, o in zip(g.spatial, g.out)) and g.spatial[1] <= 126
            and x.itemsize in (2, 4) and x.flags.c_contiguous and type(x) is np.ndarray
            and sys.byteorder == "little")


def _remember_first_max(out, data, offsets):
    key = id(out)

    def drop(ref):
        entry = _FIRST_MAX.get(key)
        if entry is not None and entry[0] is ref:
            _FIRST_MAX.pop(key, None)

    _FIRST_MAX[key] = (weakref.ref(out, drop), weakref.ref(data), offsets)


def _forget_first_max(out):
    if _FIRST_MAX:
        entry = _FIRST_MAX.get(id(out))
        if entry is not None and entry[0]() is out:
            _FIRST_MAX.pop(id(out), None)


def _first_max_of(out, data):
    """The offsets kept by the training forward that wrote ``out`` from ``data``, or None."""
    entry = _FIRST_MAX.get(id(out))
    if entry is None or entry[0]() is not out or entry[1]() is not data:
        return None
    return entry[2]


def _first_max_forward(x, out, offsets):
    """out = the 3x3/2 pad 1 max pool of x (N, C, 2*O0, 2*O1), offsets (N, C, O0, O1) = each
    window's row-major first maximum as ky * W + kx, in pieces of whole feature maps. False
    (offsets unusable) where some output is the lowest value."""
    maps = math.prod(x.shape[:2])
    H, W = x.shape[2:]
    step = max(1, _PIECE_ELEMENTS // (H * W))
    xm = x.reshape(maps, H * W)
    om, cm = out.reshape(maps, -1), offsets.reshape(maps, -1)
    ok = True
    for a in range(0, maps, step):
        b = min(a + step, maps)
        ok &= _first_max_piece(xm[a:b].reshape(-1), om[a:b].reshape(-1),
                               cm[a:b].reshape(-1), b - a, H, W)
    return ok


def _first_max_piece(xf, of, cf, P, H, W):
    O0, O1 = H // 2, W // 2
    R, M = P * H, P * O0 * O1
    n1, dt, u8 = R * O1, xf.dtype, np.uint8
    # columns: the row windows' maxima h, over the even (E) and odd (O) columns
    E = _scratch("fm.E", (n1,), dt)
    O = _scratch("fm.O", (n1,), dt)
    _gather(E, xf, 0, 2)
    _gather(O, xf, 1, 2)
    h = _scratch("fm.h", (n1,), dt)
    np.fmax(E, O, out=h)
    np.fmax(h[1:], O[:-1], out=h[1:])          # tap kx = 0: the odd column to the left
    E2, O2, h2 = E.reshape(R, O1), O.reshape(R, O1), h.reshape(R, O1)
    np.fmax(E2[:, 0], O2[:, 0], out=h2[:, 0])  # ox = 0 has no column to the left
    # per row window, the first column equal to its maximum: 2 - (eq0 | eq1) - eq0
    eq0 = _scratch("fm.eq0", (n1,), bool)
    eq1 = _scratch("fm.eq1", (n1,), bool)
    eq0[0] = False
    np.equal(O[:-1], h[1:], out=eq0[1:])
    eq0.reshape(R, O1)[:, 0] = False
    np.equal(E, h, out=eq1)
    np.logical_or(eq0, eq1, out=eq1)
    hc = _scratch("fm.hc", (n1,), u8)
    np.subtract(2, eq1.view(u8), out=hc)
    np.subtract(hc, eq0.view(u8), out=hc)
    # rows: the even (He) and odd (Ho) rows of h and of their column codes
    He = _scratch("fm.He", (M,), dt)
    Ho = _scratch("fm.Ho", (M,), dt)
    h4 = h.reshape(P * O0, 2 * O1)
    _copy(He.reshape(P * O0, O1), h4[:, :O1])
    _copy(Ho.reshape(P * O0, O1), h4[:, O1:])
    hce = _scratch("fm.hce", (M,), u8)
    hco = _scratch("fm.hco", (M,), u8)
    c4 = hc.reshape(P * O0, 2 * O1)
    _copy(hce.reshape(P * O0, O1), c4[:, :O1])
    _copy(hco.reshape(P * O0, O1), c4[:, O1:])
    np.fmax(He, Ho, out=of)
    np.fmax(of[O1:], Ho[:-O1], out=of[O1:])    # tap ky = 0: the odd row above
    of3, He3, Ho3 = of.reshape(P, O0, O1), He.reshape(P, O0, O1), Ho.reshape(P, O0, O1)
    np.fmax(He3[:, 0], Ho3[:, 0], out=of3[:, 0])   # oy = 0 has no row above
    low = _lowest(dt)
    if not of.min() > low:   # NaN- or -inf-only windows (or the lowest value itself)
        np.fmax(of, low, out=of)
        return False
    # the first row whose maximum is the output: above (r0), middle (r1), else below
    r0 = _scratch("fm.r0", (M,), bool)
    r1 = _scratch("fm.r1", (M,), bool)
    r0[:O1] = False
    np.equal(Ho[:-O1], of[O1:], out=r0[O1:])
    r0.reshape(P, O0, O1)[:, 0] = False
    np.equal(He, of, out=r1)
    np.greater(r1, r0, out=r1)                 # middle row, and not the row above
    # offsets, in uint8 arithmetic (mod 256): below 2W + kx, then the middle row's W + kx
    # where r1, then the row above's kx where r0
    t = _scratch("fm.t", (M,), u8)
    np.add(hco, 2 * W, out=cf)
    np.add(hce, W, out=t)
    np.subtract(t, cf, out=t)
    np.multiply(t, r1.view(u8), out=t)
    np.add(cf, t, out=cf)
    np.subtract(hco[:-O1], cf[O1:], out=t[O1:])
    np.multiply(t[O1:], r0[O1:].view(u8), out=t[O1:])
    np.add(cf[O1:], t[O1:], out=cf[O1:])
    return True


def _first_max_backward(og, x, offsets, g, dst=None):
    """x's gradient: each output gradient added at its window's kept first maximum (in
    row-major window order, as the scoring path adds them), in ``dst`` or a new array."""
    gx = np.zeros(x.shape, dtype=og.dtype) if dst is None else dst
    maps, plane = math.prod(x.shape[:2]), math.prod(x.shape[2:])
    step = max(1, _PIECE_ELEMENTS // plane)
    gm = gx.reshape(maps, plane)
    ogm = np.ascontiguousarray(og).reshape(maps, -1)
    cm = offsets.reshape(maps, -1)
    xm = x.reshape((1, maps) + x.shape[2:])
    for a in range(0, maps, step):
        b = min(a + step, maps)
        part = gm[a:b].reshape(-1)
        if dst is not None:
            part[...] = 0
        lay = _layout(xm[:, a:b], g)
        idx = _scratch("idx", (cm[a:b].size,), np.intp)
        np.copyto(idx, cm[a:b].reshape(-1))
        lay.add_window_origins(idx)
        np.add.at(part, idx, ogm[a:b].reshape(-1))
    return gx


def _to_channels_first(x):
    return x.transpose((0, x.ndim - 1) + tuple(range(1, x.ndim - 1)))


def _to_channels_last(x):
    return x.transpose((0,) + tuple(range(2, x.ndim)) + (1,))


def _given(out, shape, dtype):
    """``out[0]`` when the result (``shape``, ``dtype``) can be written into it (a contiguous
    array of that shape and dtype), else None (a new array is returned)."""
    o = out[0] if out else None
    if o is None or tuple(o.shape) != tuple(shape) or o.dtype != dtype or \
            not o.flags.c_contiguous:
        return None
    return o


def _channels_first_copy(xp, a, role):
    """A channels-last array as a contiguous channels-first one (NumPy: in a scratch
    buffer), so that the kernels run on whole feature maps."""
    a = _to_channels_first(a)
    if xp is not np:
        return xp.ascontiguousarray(a)
    buf = _scratch(role, a.shape, a.dtype)
    np.copyto(buf, a)
    return buf


def _channels_last_result(xp, res, dst):
    """The channels-first result ``res`` in channels-last order, in ``dst`` if given."""
    res = _to_channels_last(res)
    # a fresh copy: with unit spatial dims the transposed view is already contiguous, and
    # returning it would hand out the (reused) scratch buffer itself
    return res.copy(order="C") if dst is None else _into(xp, dst, res)


def _bf16_check(opname, attrs, dt):
    """Whether ``dt`` is bfloat16, which 1.9.1 (oneDNN) pools only with 'max' and 'avg'."""
    if _BF16 is None or dt != _BF16:
        return False
    if attrs["pool_type"] not in ("max", "avg"):
        raise MXNetError(f"{opname}: pool_type={attrs['pool_type']!r} does not support bfloat16 "
                         f"data; expected 'max' or 'avg' (or float16/float32/float64 data)")
    return True


_SCORING_LOGGED = set()   # the oneDNN pooling primitives 1.9.1 has made (and logged) so far


def _check_onednn_pad(attrs, dtype, g, dshape=None, is_train=False):
    """1.9.1 hands float32 max / avg pooling in channels-first layouts to oneDNN ('full'
    avg only where it gives the 'valid' shape), which refuses a pad as large as the kernel;
    its own kernels (float16, float64, channels-last, sum and lp) take such pads. When
    training, oneDNN's avg pooling that leaves the padding out of the count logs a line the
    first time it is made for a shape."""
    if g.is_global or dtype != np.float32 or g.channels_last or \
            attrs["pool_type"] not in ("max", "avg"):
        return
    if attrs["pooling_convention"] == "full" and attrs["pool_type"] == "avg" and any(
            (L + 2 * p - k) % s for L, k, s, p in zip(g.spatial, g.kernel, g.stride, g.pad)):
        return
    if any(p >= k for p, k in zip(g.pad, g.kernel)):
        raise MXNetError(f"Pooling: pad {g.pad} must be smaller than the kernel {g.kernel} in "
                         f"every dimension for {attrs['pool_type']} pooling of float32 data")
    if is_train and attrs["pool_type"] == "avg" and attrs["count_include_pad"] is False:
        key = (tuple(dshape), g.kernel, g.stride, g.pad)
        if key not in _SCORING_LOGGED:
            _SCORING_LOGGED.add(key)
            native_log("../src/operator/nn/mkldnn/mkldnn_pooling.cc:58",
                       "MKLDNN Pooling: training with prop_kind is forward_scoring")


def _pooling(rc, attrs, data, out=None):
    check_float("Pooling", ["data"], [data], POOL_TYPES)
    if _bf16_check("Pooling", attrs, data.dtype):   # float32 kernel, rounded once
        return _pooling(rc, attrs, data.astype(np.float32)).astype(_BF16)
    xp = rc.xp
    g = pool_geometry("Pooling", attrs, data.shape)
    if g.is_global and 0 in g.kernel:   # 1.9.1 fails on this too (it cannot allocate)
        raise MXNetError(f"Pooling: global pooling needs a non-empty feature map, got data "
                         f"of shape {tuple(data.shape)}")
    _check_onednn_pad(attrs, data.dtype, g, data.shape, rc.is_train)
    dst = _given(out, g.out_shape(data.shape), data.dtype)

    def kernel(a, out=None):
        return _pool_forward(xp, a, g, attrs, out, data.size)

    if not g.channels_last:
        oshape = tuple(data.shape[:2]) + g.out
        if rc.is_train and xp is np and attrs["pool_type"] == "max" and \
                _keeps_first_max(data, g):
            return _pooling_keeping_first_max(data, g, oshape, dst)
        res = map_batch(kernel, [data], oshape, data.dtype, out=dst, into=True)
        _forget_first_max(res)   # the buffer may hold an earlier training forward's
        return res
    x = _channels_first_copy(xp, data, "cl_data")
    oshape = tuple(x.shape[:2]) + g.out
    res = map_batch(kernel, [x], oshape, x.dtype, into=True,
                    out=_scratch("cl_out", oshape, x.dtype) if xp is np else None)
    return _channels_last_result(xp, res, dst)


def _pooling_keeping_first_max(data, g, oshape, dst):
    res = np.empty(oshape, dtype=data.dtype) if dst is None else dst
    offsets = np.empty(oshape, dtype=np.uint8)
    ok = [True]

    def kernel(x, c, out=None):
        if not _first_max_forward(x, out, c):
            ok[0] = False

    map_batch(kernel, [data, offsets], oshape, data.dtype, out=res, into=True)
    if ok[0]:
        _remember_first_max(res, data, offsets)
    else:
        _forget_first_max(res)
    return res


def _backward_pooling(rc, attrs, ograd, data, output, out=None):
    check_float("_backward_Pooling", ["data", "output"], [data, output], POOL_TYPES)
    if _bf16_check("_backward_Pooling", attrs, data.dtype):   # float32 kernel, rounded once
        f32 = np.float32
        return _backward_pooling(rc, attrs, ograd.astype(f32), data.astype(f32),
                                 output.astype(f32)).astype(_BF16)
    xp = rc.xp
    ograd = ograd.astype(data.dtype, copy=False)
    g = pool_geometry("_backward_Pooling", attrs, data.shape)
    if tuple(ograd.shape) != g.out_shape(data.shape):
        raise MXNetError(f"_backward_Pooling: ograd has shape {tuple(ograd.shape)} but the pooled "
                         f"output of data {tuple(data.shape)} has shape {g.out_shape(data.shape)}")
    dst = _given(out, data.shape, data.dtype)

    # small float32/float64 inputs: 1.9.1's accumulation order (see _pool_backward)
    exact = data.size <= _EXACT_TAPS_MAX and data.dtype in (np.float32, np.float64)

    def kernel(og, x, y, out=None):
        return _pool_backward(xp, og, x, y, g, attrs, out, exact)

    if not g.channels_last:
        offsets = _first_max_of(output, data) if attrs["pool_type"] == "max" else None
        # (ky * W + kx, the offsets, names one tap only where W >= 3)
        if (offsets is not None and exact and xp is np and offsets.shape == ograd.shape
                and ograd.flags.c_contiguous and data.shape[-1] >= 3):
            onednn = _onednn_backward(attrs, data, g)

            def exact_from_offsets(og, x, c, out=None):   # c: ky * W + kx of a 3x3 window
                gx = _first_max_backward(og, x, c, g, out)   # row-major window order
                if onednn and np.isfinite(og).all():
                    _onednn_corners(gx, og, c, x.shape[-1])
                return gx
            return map_batch(exact_from_offsets, [ograd, data, offsets], data.shape,
                             data.dtype, out=dst, into=True)
        if offsets is not None and exact and xp is np:
            offsets = None   # the exact path adds in 1.9.1's order
        if offsets is not None and offsets.shape == ograd.shape and ograd.flags.c_contiguous:
            def from_offsets(og, x, c, out=None):
                return _first_max_backward(og, x, c, g, out)
            return map_batch(from_offsets, [ograd, data, offsets], data.shape, data.dtype,
                             out=dst, into=True)
        return map_batch(kernel, [ograd, data, output], data.shape, data.dtype, out=dst,
                         into=True)
    ins = [_channels_first_copy(xp, a, role) for a, role in
           ((ograd, "cl_ograd"), (data, "cl_data"), (output, "cl_output"))]
    shape = ins[1].shape
    gx = map_batch(kernel, ins, shape, data.dtype, into=True,
                   out=_scratch("cl_out", shape, data.dtype) if xp is np else None)
    return _channels_last_result(xp, gx, dst)


def _pooling_shape(attrs, ins, outs):
    d = ins[0]
    if d is not None and None in d:
        # 1.9.1 pools a partial shape whose unknown dims are only the batch and channel axes
        last = attrs.get("layout") in ("NWC", "NHWC", "NDHWC")
        free = (0, len(d) - 1) if last else (0, 1)
        # (a global pool's output is 1 along every spatial axis, known or not)
        if not attrs["global_pool"] and any(x is None for i, x in enumerate(d)
                                            if i not in free):
            return ins, outs, []
        full = tuple(1 if x is None else x for x in d)
        out = pool_geometry("Pooling", attrs, full).out_shape(full)
        return ins, [tuple(None if d[i] is None and i in free else o
                           for i, o in enumerate(out))], []
    if d is None:
        return ins, outs, []
    return ins, [pool_geometry("Pooling", attrs, d).out_shape(d)], []


def _pooling_grad(F, attrs, ins, outs, og):
    return [F._backward_Pooling(og[0], ins[0], outs[0], **attrs)]


_POOL_PARAMS = (
    Param("kernel", "shape", (), doc="Window size: (w,), (h, w) or (d, h, w)."),
    Param("pool_type", "str", "max", choices=("avg", "lp", "max", "sum"),
          doc="How a window is reduced."),
    Param("global_pool", "bool", False, doc="Pool each whole feature map (kernel ignored)."),
    Param("cudnn_off", "bool", False, doc="Accepted for compatibility; no effect."),
    Param("pooling_convention", "str", "valid", choices=("full", "same", "valid"),
          doc="Output size rule: floor (valid), ceil (full) or ceil(L / stride) (same)."),
    Param("stride", "shape", (), doc="Window step per spatial dim (default 1)."),
    Param("pad", "shape", (), doc="Implicit padding per spatial dim (default 0)."),
    Param("p_value", "int", None, doc="p of lp pooling: 1, 2 or 3."),
    Param("count_include_pad", "bool", None,
          doc="avg pooling: divide by the padded window size (default) or the valid count."),
    Param("layout", "str", None, choices=("NCDHW", "NCHW", "NCW", "NDHWC", "NHWC", "NWC"),
          doc="Data layout; default channels-first."),
)

register("Pooling", _pooling, params=_POOL_PARAMS, inputs=("data",), accepts_out=True,
         infer_shape=_pooling_shape,
         infer_type=uniform_float_type("Pooling", POOL_TYPES, strict=False),
         gradient=_pooling_grad,
         attr_check=_check_attrs,
         doc="Pool windows of a 1-D, 2-D or 3-D feature map with max, average, sum or Lp norm.")

register("_backward_Pooling", _backward_pooling, params=_POOL_PARAMS, accepts_out=True,
         inputs=("ograd", "data", "output"), attr_check=_check_attrs, nd_hidden=True,
         infer_shape=lambda a, i, o: (i, [i[1]], []),
         infer_type=uniform_float_type("_backward_Pooling", POOL_TYPES),
         doc="Gradient of Pooling with respect to its data, from (ograd, data, output).")
