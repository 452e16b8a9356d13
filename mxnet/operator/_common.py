"""Small helpers shared by operator definitions."""
from __future__ import annotations

import warnings

import numpy as np

from ..base import MXNetError

__all__ = ["cast_scalar", "same_dtype", "shape_err", "normalize_axis", "norm_axes", "errstate",
           "float32_only_type", "one_dtype_type", "roi_type", "channel_table",
           "addition_ranks"]

errstate = np.errstate

# Kernels compute on whatever values users pass (log(0), 0/0, overflow) and, like MXNet,
# return inf/nan silently. A filter scoped to this package is free on the hot path,
# unlike entering np.errstate around every kernel.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"mxnet\.")


def cast_scalar(value, dtype):
    """A Python scalar converted to ``dtype`` the way MXNet's scalar ops do (C cast)."""
    try:
        return dtype.type(value)
    except (OverflowError, ValueError, TypeError):
        return np.array(value).astype(dtype)[()]


def same_dtype(opname, a, b):
    """Raise MXNetError unless two input arrays share a dtype, as 1.9.1's legacy ops require."""
    if a.dtype != b.dtype:
        raise MXNetError(f"{opname}: incompatible input types: lhs is {a.dtype} {a.shape}, "
                         f"rhs is {b.dtype} {b.shape}; both inputs must have the same dtype")


def shape_err(opname, msg, *arrays):
    """An MXNetError naming the operator and the shapes/dtypes it saw."""
    seen = ", ".join(f"{tuple(a.shape)} {a.dtype}" for a in arrays)
    return MXNetError(f"{opname}: {msg} (inputs: {seen})")


def normalize_axis(opname, axis, ndim):
    """One axis made non-negative; MXNetError when out of range."""
    if not -ndim <= axis < max(ndim, 1):
        raise MXNetError(f"{opname}: axis {axis} is out of range for an array of ndim {ndim}")
    return axis % ndim if ndim else 0


def norm_axes(opname, axis, ndim, exclude=False):
    """A tuple of non-negative axes from MXNet's ``axis`` (None, int or tuple) and ``exclude``."""
    if axis is None or axis == ():
        # 1.9.1 reduces every axis here, exclude or not
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    named = [normalize_axis(opname, a, ndim) for a in axis]
    axes = tuple(sorted(set(named)))
    if len(axes) != len(named):   # as 1.9.1's reductions, an axis named twice is an error
        raise MXNetError(f"{opname}: reduction axes {tuple(axis)} have duplicates "
                         f"(input ndim {ndim}); expected distinct axes")
    if exclude:
        axes = tuple(i for i in range(ndim) if i not in axes)
    return axes


def float32_only_type(opname, num_aux=0):
    """infer_type of the 1.9.1 operators whose graphs run in float32 alone (the legacy
    detection and ROI operators): every input, output and auxiliary state is float32, and
    any other dtype is an error."""
    f32 = np.dtype(np.float32)

    def infer(attrs, in_types, out_types):
        known = [t for t in list(in_types) + list(out_types) if t is not None]
        for t in known:
            if np.dtype(t) != f32:
                raise MXNetError(f"{opname}: dtype {np.dtype(t).name} is not supported; "
                                 f"expected float32")
        if not known:
            return in_types, out_types, [None] * num_aux
        return [f32] * len(in_types), [f32] * len(out_types), [f32] * num_aux
    return infer


def one_dtype_type(attrs, in_types, out_types):
    """infer_type: every input and output shares one dtype; the inference pass reports
    inputs of different dtypes as an error, as 1.9.1 does."""
    known = next((t for t in list(in_types) + list(out_types) if t is not None), None)
    return [known] * len(in_types), [known] * len(out_types), []


def roi_type(opname):
    """infer_type of ROIPooling / ROIAlign / RROIAlign: 1.9.1 needs the dtypes of data and
    rois both given (one dtype, which the output takes); one without the other is an error."""
    def infer(attrs, in_types, out_types):
        data, rois = in_types[0], in_types[1]
        if (data is None) != (rois is None):
            raise MXNetError(f"{opname}: the dtypes of data and rois must both be known "
                             f"(got data {data}, rois {rois})")
        if data is None:
            return in_types, out_types, []
        return [data, data], [data] * len(out_types), []
    return infer


def elementwise_sum_order(parts):
    """``parts`` in the order 1.9.1's ElementWiseSum (``add_n``, also its gradient summation)
    adds them: 3 or 4 of them last one first, ((x3 + x2) + x1) + x0, any other number first
    one first (float sums depend on the order)."""
    return parts[::-1] if len(parts) in (3, 4) else parts


def channel_table(v, size):
    """A per-channel vector (C,) spread over ``size`` positions, a C-contiguous (C, size)
    array: NumPy's loops run 2-3x faster against it than against a (C, 1) column broadcast
    along each row (the bias add of a convolution, BatchNorm's scale and shift)."""
    return np.repeat(v, size).reshape(len(v), size)


def addition_ranks(targets):
    """For a scatter-add in source order (source k adds into ``targets[k]``): ``(order,
    tgt, rank)`` with ``order`` the sources sorted by target (stable, so each target's
    sources stay in source order), ``tgt = targets[order]`` and ``rank`` the place of each
    among its target's additions (0 for the first). Adding rank 0's values, then rank 1's,
    ... reproduces a sequential kernel's order of additions with whole-array operations."""
    order = np.argsort(targets, kind="stable")
    tgt = targets[order]
    return order, tgt, np.arange(tgt.size) - np.searchsorted(tgt, tgt)
