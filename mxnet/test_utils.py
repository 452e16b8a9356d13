"""Testing helpers with 1.9.1's names: comparisons with per-dtype tolerances, random
inputs (dense and sparse), default context, symbolic forward/backward checks, numeric
gradient checks of Symbols and of functions of NDArrays, timing (:func:`check_speed`),
statistical checks of random generators, download helpers and small matrix generators.

Names of 1.9.1's module that need a GPU or a C++ runtime (:func:`get_cuda_compute_capability`)
raise :class:`~mxnet.base.MXNetError` saying why.
"""
from __future__ import annotations

import bz2
import errno
import gzip
import json
import logging
import math
import numbers
import os
import platform
import struct
import sys
import time
import zipfile
from collections import OrderedDict
from contextlib import contextmanager

import numpy as np
import numpy.random as rnd
import numpy.testing as npt

import mxnet as mx

from . import context as _context
from .base import MXNetError, MXNetValueError
from .context import Context, current_context
from .ndarray import array  # noqa: F401  (1.9.1 exposes it here)
from .symbol import Symbol  # noqa: F401  (1.9.1 exposes it here)
from .symbol.numpy import _Symbol as np_symbol  # noqa: F401  (1.9.1 exposes it here)
from .util import use_np  # noqa: F401  (1.9.1 exposes it here)

__all__ = ["default_context", "set_default_context", "default_rtols", "default_atols",
           "assert_almost_equal", "almost_equal", "same", "rand_ndarray", "rand_shape_2d",
           "rand_shape_3d", "rand_shape_nd", "check_numeric_gradient", "numeric_grad",
           "assert_exception", "get_tolerance", "check_symbolic_forward",
           "check_symbolic_backward", "default_numeric_eps", "check_consistency",
           "check_speed", "DummyIter"]

_EXACT = (np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)
_DEFAULT_RTOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4,
                 np.dtype(np.float64): 1e-5, **{np.dtype(t): 0 for t in _EXACT}}
_DEFAULT_ATOL = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3,
                 np.dtype(np.float64): 1e-20, **{np.dtype(t): 0 for t in _EXACT}}


def default_rtols():
    """Relative tolerance per dtype used when a comparison is given none."""
    return dict(_DEFAULT_RTOL)


def default_atols():
    """Absolute tolerance per dtype used when a comparison is given none."""
    return dict(_DEFAULT_ATOL)


def default_dtype():
    """The dtype of generated test data (float32)."""
    return np.float32


def default_context() -> Context:
    """The context tests run on (``cpu(0)`` unless set, e.g. to ``gpu(0)`` for GPU runs)."""
    return current_context()


def set_default_context(ctx):
    """Make ``ctx`` the default context for array creation."""
    _context.default_context_override(ctx)


def _as_np(a):
    if hasattr(a, "asnumpy"):
        return a.asnumpy()
    return np.asarray(a)


def effective_dtype(dat):
    """The dtype whose tolerances apply to ``dat``: its own dtype (1.9.1 lowers float32 to
    float16 for TF32 GPUs; there are none here)."""
    return np.dtype(dat.dtype) if hasattr(dat, "dtype") else np.asarray(dat).dtype


def get_tolerance(dat, tol, default_tol):
    """``tol`` when it is a number; otherwise the entry for ``dat``'s dtype in the dict
    ``tol`` (if given and present) or in ``default_tol``."""
    if isinstance(tol, numbers.Number):
        return tol
    dtype = effective_dtype(dat)
    tol = {} if tol is None else tol
    if dtype in tol:
        return tol[dtype]
    return default_tol.get(dtype, default_tol[np.dtype(np.float32)])


def get_tols(x, y, rtol, atol):
    """``(rtol, atol)`` for comparing ``x`` with ``y``: the looser of the two dtypes'."""
    x = np.array(x) if isinstance(x, numbers.Number) else x
    y = np.array(y) if isinstance(y, numbers.Number) else y
    return (max(get_tolerance(x, rtol, _DEFAULT_RTOL), get_tolerance(y, rtol, _DEFAULT_RTOL)),
            max(get_tolerance(x, atol, _DEFAULT_ATOL), get_tolerance(y, atol, _DEFAULT_ATOL)))


def get_atol(atol=None, dtype=np.dtype(np.float64)):
    """``atol``, or the default absolute tolerance of ``dtype``."""
    return _DEFAULT_ATOL[np.dtype(dtype)] if atol is None else atol


def get_rtol(rtol=None, dtype=np.dtype(np.float64)):
    """``rtol``, or the default relative tolerance of ``dtype``."""
    return _DEFAULT_RTOL[np.dtype(dtype)] if rtol is None else rtol


def get_etol(etol=None):
    """``etol`` (a tolerated fraction of mismatching elements), default 0."""
    return 0 if etol is None else etol


def _tols(a, b, rtol, atol):
    return get_tols(a, b, rtol, atol)


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """True when ``|a - b| <= atol + rtol * |b|`` elementwise.

    Unlike :func:`assert_almost_equal`, missing tolerances are float64's (rtol 1e-5,
    atol 1e-20) whatever the dtypes, as in 1.9.1; with ``use_broadcast=False`` different
    shapes raise AssertionError.
    """
    a, b = _as_np(a), _as_np(b)
    if not use_broadcast:
        checkShapes(a, b)
    rtol, atol = get_rtol(rtol), get_atol(atol)
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def assert_almost_equal(a, b, rtol=None, atol=None, names=("a", "b"), equal_nan=False,
                        use_broadcast=True, mismatches=(10, 10)):
    """Raise AssertionError, locating the worst element, unless ``a`` and ``b`` are close.

    Tolerances default per dtype as in 1.9.1 (float16 1e-2/1e-1, float32 1e-4/1e-3,
    float64 1e-5/1e-20). On a mismatch of arrays, the worst elements (at most
    ``mismatches[0]`` lines, ``mismatches[1]`` counted) are printed to stdout first, and the
    message has numpy.testing's ``Items are not equal`` layout, as 1.9.1's.
    """
    if not use_broadcast:
        checkShapes(_as_np(a), _as_np(b))
    rtol, atol = get_tols(a, b, rtol, atol)
    if hasattr(a, "asnumpy") and hasattr(b, "asnumpy") and a.shape != b.shape:
        # two NDArrays go through 1.9.1's allclose operator, which wants equal shapes
        raise MXNetValueError(f"assert_almost_equal: {names[0]} of shape {a.shape} and "
                              f"{names[1]} of shape {b.shape} cannot be compared")
    a = _as_np(a) if hasattr(a, "asnumpy") else a
    b = _as_np(b) if hasattr(b, "asnumpy") else b
    an, bn = np.asarray(a), np.asarray(b)
    try:
        np.broadcast_shapes(an.shape, bn.shape)
    except ValueError:
        # 1.9.1 fails in its allclose operator's shape inference: an MXNetError (a ValueError
        # too, as NumPy inputs give)
        raise MXNetValueError(f"assert_almost_equal: {names[0]} of shape {an.shape} and "
                              f"{names[1]} of shape {bn.shape} cannot be compared") from None
    if an.dtype == np.bool_ and bn.dtype == np.bool_:
        npt.assert_equal(an, bn)
        return
    if np.allclose(an, bn, rtol=rtol, atol=atol, equal_nan=equal_nan):
        return
    if an.ndim == 0 and bn.ndim == 0:  # 1.9.1 (NumPy 1.x) measured scalars in float64
        index, worst = _max_violation(an.astype(np.float64), bn.astype(np.float64), rtol, atol)
    else:
        index, worst = _max_violation(an, bn, rtol, atol)
    if index != ():
        err_msg = _mismatch_report(an, bn, rtol, atol, names, equal_nan, mismatches, index, worst)
    else:
        err_msg = "Error %f exceeds tolerance rtol=%e, atol=%e.\n" % (worst, rtol, atol)
    # 1.9.1 set these print options globally here; NumPy 1.x printed no shape=/np.float32()
    legacy = {"legacy": "1.25"} if int(np.__version__.split(".")[0]) >= 2 else {}
    with np.printoptions(threshold=4, suppress=True, **legacy):
        raise AssertionError(npt.build_err_msg([a, b], err_msg=err_msg))


def _mismatch_report(a, b, rtol, atol, names, equal_nan, mismatches, index, worst):
    """Print the worst mismatching elements and return the message's error text."""
    ab, bb = np.broadcast_arrays(a, b)
    with np.errstate(all="ignore"):
        diff = np.where(np.equal(ab, bb), 0, np.abs(ab - bb))
        ratio = (diff / (atol + rtol * np.abs(bb) + 1e-20)).ravel()
    bad = np.flatnonzero(~np.isclose(ab, bb, rtol=rtol, atol=atol, equal_nan=equal_nan).ravel())
    # worst first (NaN counts as the worst), ties in element order, like repeated argmax
    key = ratio[bad]
    nan = np.isnan(key)
    bad = bad[np.lexsort((bad, -np.where(nan, 0, key), ~nan))]
    n_print, n_count = mismatches
    counted = len(bad) if n_count <= 0 else min(len(bad), n_count)
    print(f"\n*** Maximum errors for vector of size {a.size}:  rtol={rtol}, atol={atol}\n")
    for i, flat in enumerate(bad[:min(counted, n_print)]):
        loc = tuple(int(j) for j in np.unravel_index(flat, ab.shape))
        print("%3d: Error %f  %s" % (i + 1, ratio[flat], locationError(ab, bb, loc, names)))
    partial = n_count > 0 and len(bad) > n_count
    found = n_count + 1 if partial else max(len(bad), 1)
    return "Error %f exceeds tolerance rtol=%e, atol=%e (mismatch %s%f%%).\n%s" % (
        worst, rtol, atol, "at least " if partial else "", 100 * found / a.size,
        locationError(ab, bb, index, names, maxError=True))


def same(a, b):
    """True when two arrays are exactly equal."""
    return bool(np.array_equal(_as_np(a), _as_np(b)))


def assert_exception(f, exception_type, *args, **kwargs):
    """Check that ``f(*args, **kwargs)`` raises ``exception_type``."""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError(f"{f} did not raise {exception_type.__name__}")


def rand_shape_2d(dim0=10, dim1=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return (np.random.randint(low, dim0 + 1), np.random.randint(low, dim1 + 1))


def rand_shape_3d(dim0=10, dim1=10, dim2=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return tuple(np.random.randint(low, d + 1) for d in (dim0, dim1, dim2))


def rand_shape_nd(num_dim, dim=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return tuple(np.random.randint(low, dim + 1, size=num_dim).tolist())


def random_arrays(*shapes):
    """Standard-normal float32 numpy arrays of the given shapes (one array when one shape
    is given; ``()`` gives a 0-d array)."""
    arrays = [np.random.randn(*s).astype(default_dtype()) if len(s)
              else np.array(np.random.randn(), dtype=default_dtype()) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def random_uniform_arrays(*shapes, **kwargs):
    """A list of numpy arrays uniform in ``[low, high)`` (keywords ``low`` = 0,
    ``high`` = 1, ``dtype`` = float32)."""
    low = kwargs.pop("low", 0.0)
    high = kwargs.pop("high", 1.0)
    dtype = kwargs.pop("dtype", default_dtype())
    if kwargs:
        raise TypeError("Got unexpected argument/s : " + str(kwargs.keys()))
    return [np.random.uniform(low, high, size=s).astype(dtype) for s in shapes]


def random_sample(population, k):
    """``k`` elements of ``population`` drawn without replacement (a shuffled copy's
    first ``k``)."""
    assert 0 <= k <= len(population)
    pool = population[:]
    np.random.shuffle(pool)
    return pool[:k]


def _sorted_items(d):
    return sorted(d.items(), key=lambda kv: kv[0])


def _sorted_dict(d):
    return OrderedDict(_sorted_items(d))


def _validate_csr_generation_inputs(num_rows, num_cols, density, distribution="uniform"):
    if density < 0 or density > 1:
        raise ValueError("density has to be between 0 and 1")
    if num_rows <= 0 or num_cols <= 0:
        raise ValueError("num_rows or num_cols should be greater than 0")
    if distribution == "powerlaw" and int(num_rows * num_cols * density) < 2 * num_rows:
        raise ValueError("not supported for this density: %s for this shape (%s, %s) Please "
                         "keep : num_rows * num_cols * density >= 2 * num_rows"
                         % (density, num_rows, num_cols))


def shuffle_csr_column_indices(csr):
    """Shuffle, in place, the column indices inside each row of a scipy-style CSR matrix
    (``indptr`` / ``indices`` numpy arrays): valid CSR need not be sorted."""
    for row in range(len(csr.indptr) - 1):
        lo, hi = csr.indptr[row], csr.indptr[row + 1]
        part = np.array(csr.indices[lo:hi])
        np.random.shuffle(part)
        csr.indices[lo:hi] = part


def _uniform_csr(num_rows, num_cols, density, dtype, data_init, shuffle_indices):
    """A CSR array whose non-zeros sit at ``round(rows*cols*density)`` distinct random
    positions, values uniform in [0, 1) (or ``data_init``)."""
    _validate_csr_generation_inputs(num_rows, num_cols, density)
    nnz = int(round(num_rows * num_cols * density))
    flat = np.sort(np.random.choice(num_rows * num_cols, size=nnz, replace=False))
    rows, cols = np.divmod(flat, num_cols)
    data = np.random.uniform(size=nnz).astype(dtype)
    if data_init is not None:
        data.fill(data_init)
    indptr = np.zeros(num_rows + 1, dtype=np.int64)
    np.add.at(indptr, rows + 1, 1)
    indptr = np.cumsum(indptr)
    cols = cols.astype(np.int64)
    if shuffle_indices:
        class _Raw:
            pass
        raw = _Raw()
        raw.indptr, raw.indices = indptr, cols
        shuffle_csr_column_indices(raw)
    return mx.nd.sparse.csr_matrix((data, cols, indptr), shape=(num_rows, num_cols),
                                   dtype=dtype)


def _powerlaw_csr(num_rows, num_cols, density, dtype):
    """A CSR array whose rows hold 1, 2, 4, ... non-zeros (first column always set),
    until ``rows*cols*density`` non-zeros are placed."""
    _validate_csr_generation_inputs(num_rows, num_cols, density, "powerlaw")
    left = int(num_rows * num_cols * density)
    dense = np.zeros((num_rows, num_cols), dtype=dtype)

    def done():
        return mx.nd.array(dense, dtype=dtype).tostype("csr")

    for row in range(num_rows):
        dense[row, 0] = 1 + rnd.uniform(0.001, 2)
        left -= 1
        if left <= 0:
            return done()
    width = 2
    for row in range(num_rows):
        limit = min(num_cols, width)
        if limit == num_cols and left > limit:
            dense[row] = 1 + rnd.uniform(0.001, 2)
            left -= limit - 1
            if left <= 0:
                return done()
            continue
        for col in range(1, limit):
            dense[row, col] = 1 + rnd.uniform(0.001, 2)
            left -= 1
            if left <= 0:
                return done()
        width *= 2
    if left > 0:
        raise ValueError("not supported for this density: %s for this shape (%s,%s)"
                         % (density, num_rows, num_cols))
    return done()


def assign_each(the_input, function):
    """``function`` applied to every element of a numpy array (float64 result); a copy of
    the input when ``function`` is None."""
    if function is None:
        return np.array(the_input)
    flat = [function(v) for v in np.asarray(the_input).ravel()]
    return np.array(flat, dtype=np.float64).reshape(np.shape(the_input))


def assign_each2(input1, input2, function):
    """``function(a, b)`` over the elements of two same-shaped arrays (float64 result); a
    copy of ``input1`` when ``function`` is None."""
    if function is None:
        return np.array(input1)
    assert input1.shape == input2.shape
    flat = [function(a, b) for a, b in zip(np.asarray(input1).ravel(),
                                           np.asarray(input2).ravel())]
    return np.array(flat, dtype=np.float64).reshape(input1.shape)


def create_2d_tensor(rows, columns, dtype=np.int64):
    """``rows x columns`` NDArray whose row ``i`` is filled with ``i``."""
    col = mx.nd.arange(0, rows, dtype=dtype).reshape(rows, 1)
    return mx.nd.broadcast_to(col, shape=(rows, columns))


def create_vector(size, dtype=np.int64):
    """``arange(size)`` as an NDArray."""
    return mx.nd.arange(0, size, dtype=dtype)


def get_identity_mat(size):
    """A float32 ``size x size`` identity NDArray."""
    return mx.nd.array(np.eye(size, dtype=np.float32))


def get_identity_mat_batch(size):
    """Two stacked ``size x size`` identity matrices, shape ``(2, size, size)``."""
    eye = np.eye(size, dtype=np.float32)
    return mx.nd.array(np.stack([eye, eye]))


def rand_sparse_ndarray(shape, stype, density=None, dtype=None, distribution=None,
                        data_init=None, rsp_indices=None, modifier_func=None,
                        shuffle_csr_indices=False, ctx=None):
    """A random sparse array and its parts.

    ``'row_sparse'``: rows kept with probability ``density`` (or exactly ``rsp_indices``),
    values uniform in [0, 1); returns ``(array, (values, indices))``.
    ``'csr'`` (2-D): ``distribution`` ``'uniform'`` (non-zeros at random positions) or
    ``'powerlaw'`` (rows with 1, 2, 4, ... non-zeros); returns
    ``(array, (indptr, indices, data))``. ``density`` defaults to a uniform draw,
    ``data_init`` fills every value, ``modifier_func`` maps each value.
    """
    ctx = ctx or default_context()
    density = rnd.rand() if density is None else density
    dtype = default_dtype() if dtype is None else dtype
    distribution = distribution or "uniform"
    if stype == "row_sparse":
        assert distribution == "uniform", \
            "Distribution %s not supported for row_sparse" % distribution
        if rsp_indices is not None:
            indices = np.asarray(rsp_indices)
            assert len(indices) <= shape[0]
        else:
            indices = np.argwhere(rnd.rand(shape[0]) < density).flatten()
        if indices.shape[0] == 0:
            empty = mx.nd.zeros(shape, stype="row_sparse", dtype=dtype, ctx=ctx)
            return empty, (np.array([], dtype=dtype), np.array([]))
        values = rnd.rand(indices.shape[0], *shape[1:]).astype(dtype)
        if data_init is not None:
            values.fill(data_init)
        if modifier_func is not None:
            values = assign_each(values, modifier_func)
        arr = mx.nd.sparse.row_sparse_array((values, indices), shape=shape, dtype=dtype,
                                            ctx=ctx)
        return arr, (values, indices)
    if stype == "csr":
        assert len(shape) == 2
        if distribution == "uniform":
            csr = _uniform_csr(shape[0], shape[1], density, dtype, data_init,
                               shuffle_csr_indices)
        elif distribution == "powerlaw":
            csr = _powerlaw_csr(shape[0], shape[1], density, dtype)
        else:
            raise AssertionError("Distribution not supported: %s" % distribution)
        if modifier_func is not None:
            values = assign_each(csr.data.asnumpy(), modifier_func).astype(dtype)
            csr = mx.nd.sparse.csr_matrix((values, csr.indices.asnumpy(),
                                           csr.indptr.asnumpy()), shape=shape, dtype=dtype)
        csr = csr.as_in_context(ctx)
        return csr, (csr.indptr, csr.indices, csr.data)
    raise AssertionError("unknown storage type")


def rand_ndarray(shape, stype="default", density=None, dtype=None, modifier_func=None,
                 shuffle_csr_indices=False, distribution=None, ctx=None):
    """A random NDArray: standard-normal values when dense, else as
    :func:`rand_sparse_ndarray` makes them."""
    ctx = ctx or default_context()
    if stype == "default":
        return mx.nd.array(random_arrays(shape), dtype=dtype, ctx=ctx)
    arr, _ = rand_sparse_ndarray(shape, stype, density=density, modifier_func=modifier_func,
                                 dtype=dtype, shuffle_csr_indices=shuffle_csr_indices,
                                 distribution=distribution, ctx=ctx)
    return arr


def create_sparse_array(shape, stype, data_init=None, rsp_indices=None, dtype=None,
                        modifier_func=None, density=.5, shuffle_csr_indices=False):
    """A random sparse array (row_sparse indices sorted when given)."""
    if stype == "row_sparse":
        indices = None if rsp_indices is None else np.sort(np.asarray(rsp_indices))
        arr, _ = rand_sparse_ndarray(shape, stype, density=density, data_init=data_init,
                                     rsp_indices=indices, dtype=dtype,
                                     modifier_func=modifier_func)
        return arr
    if stype == "csr":
        arr, _ = rand_sparse_ndarray(shape, stype, density=density, data_init=data_init,
                                     dtype=dtype, modifier_func=modifier_func,
                                     shuffle_csr_indices=shuffle_csr_indices)
        return arr
    raise AssertionError("Unknown storage type: " + stype)


def create_sparse_array_zd(shape, stype, density, data_init=None, rsp_indices=None,
                           dtype=None, modifier_func=None, shuffle_csr_indices=False):
    """As :func:`create_sparse_array`; for row_sparse only ``rsp_indices`` decides which
    rows are present (no indices: an all-zero array)."""
    if stype == "row_sparse":
        density = 0.0
        if rsp_indices is not None:
            assert len(rsp_indices) <= shape[0]
    return create_sparse_array(shape, stype, data_init=data_init, rsp_indices=rsp_indices,
                               dtype=dtype, modifier_func=modifier_func, density=density,
                               shuffle_csr_indices=shuffle_csr_indices)


def rand_coord_2d(x_low, x_high, y_low, y_high):
    """A random integer point ``(x, y)`` with ``x_low <= x < x_high``, same for y."""
    return (np.random.randint(x_low, x_high, dtype=np.int64),
            np.random.randint(y_low, y_high, dtype=np.int64))


def np_reduce(dat, axis, keepdims, numpy_reduce_func):
    """``numpy_reduce_func`` applied one axis at a time over ``axis`` (an int, a list, or
    None for all), keeping reduced axes as size 1 when ``keepdims``."""
    if isinstance(axis, int):
        axes = [axis]
    else:
        axes = list(axis) if axis is not None else list(range(dat.ndim))
    out = dat
    for ax in sorted(axes, reverse=True):
        out = numpy_reduce_func(out, axis=ax)
    if keepdims:
        shape = list(dat.shape)
        for ax in axes:
            shape[ax] = 1
        out = out.reshape(tuple(shape))
    return out


def numeric_grad(executor, location, aux_states=None, eps=1e-4, use_forward_train=True,
                 dtype=None):
    """Central-difference gradients.

    Two forms:

    - ``numeric_grad(executor, location, aux_states, eps, use_forward_train, dtype)`` as in
      1.9.1: ``location`` maps argument names to NumPy arrays; each element is moved by
      ``+-eps/2``, the executor run forward, and the difference of its first output's
      sum divided by ``eps``. Returns {name: gradient} (float32 by default).
    - ``numeric_grad(f, inputs, eps=..., dtype=...)``: ``f`` maps NumPy arrays to a
      scalar; returns one gradient per input (float64 by default).
    """
    from .executor.executor import Executor
    if isinstance(executor, Executor):
        return _executor_numeric_grad(executor, location, aux_states, eps, use_forward_train,
                                      np.float32 if dtype is None else dtype)
    f, inputs = executor, location
    dtype = np.float64 if dtype is None else dtype
    grads = []
    for i, x in enumerate(inputs):
        x = x.astype(dtype)
        g = np.zeros_like(x)
        flat = x.reshape(-1)
        gflat = g.reshape(-1)
        for j in range(flat.size):
            old = flat[j]
            flat[j] = old + eps
            args = list(inputs)
            args[i] = x
            fp = f(*args)
            flat[j] = old - eps
            fm = f(*args)
            flat[j] = old
            gflat[j] = (fp - fm) / (2 * eps)
        grads.append(g)
    return grads


def _executor_numeric_grad(ex, location, aux_states, eps, use_forward_train, dtype,
                           names=None, heads=None):
    """``{name: d sum(outputs * heads) / d location[name]}`` by central differences of
    width ``eps`` (``heads`` default to ones on the first output, as 1.9.1)."""
    ctx = ex.arg_arrays[0].context if ex.arg_arrays else default_context()
    values = {k: np.array(_as_np(v), dtype=dtype, order="C") for k, v in location.items()}
    for k, v in values.items():
        ex.arg_dict[k][:] = array(v, ctx=ctx, dtype=dtype)

    # one output (1.9.1's case): the output times its head in ``dtype`` (1.9.1 multiplies by
    # the projection inside the graph), and the difference summed in ``dtype`` below, so the
    # numeric gradients (and the numbers a failed check prints) are 1.9.1's
    single = heads is None or len(heads) == 1
    head0 = None if heads is None else np.asarray(heads[0]).astype(dtype)

    def objective():
        if aux_states is not None:
            for key, val in aux_states.items():
                ex.aux_dict[key][:] = array(_as_np(val), ctx=ctx, dtype=dtype)
        outs = ex.forward(is_train=use_forward_train)
        if single:
            o = outs[0].asnumpy()
            return o if head0 is None else o * head0
        return sum(float((o.asnumpy().astype(np.float64) * h).sum())
                   for o, h in zip(outs, heads))

    grads = {}
    for k in (names if names is not None else list(values)):
        v = values[k]
        g = np.zeros(v.shape, dtype=dtype)
        if v.dtype.kind != "f":
            grads[k] = g
            continue
        flat, gflat, orig = v.reshape(-1), g.reshape(-1), v.copy().reshape(-1)
        dst = ex.arg_dict[k]
        for i in range(flat.size):
            flat[i] = orig[i] + eps / 2.0
            dst[:] = array(v, ctx=ctx, dtype=dtype)
            f_plus = objective()
            flat[i] = orig[i] - eps / 2.0
            dst[:] = array(v, ctx=ctx, dtype=dtype)
            f_minus = objective()
            diff = f_plus - f_minus
            gflat[i] = (np.float64(diff.sum()) if single else diff) / eps
            flat[i] = orig[i]
        dst[:] = array(v, ctx=ctx, dtype=dtype)
        grads[k] = g
    return grads


# -- symbolic checks (1.9.1's signatures) ---------------------------------------------------------

_DEFAULT_NUMERIC_EPS = {np.dtype(np.float16): 1.0 / 2 ** 6, np.dtype(np.float32): 1.0 / 2 ** 9,
                        np.dtype(np.float64): 1.0 / 2 ** 14}


def default_numeric_eps():
    """Finite-difference step per dtype (powers of two, exact as input deltas)."""
    return dict(_DEFAULT_NUMERIC_EPS)


def _nd(v, ctx, dtype):
    from .ndarray import NDArray
    if isinstance(v, NDArray):
        return v if dtype == "asnumpy" else v.astype(dtype).as_in_context(ctx)
    v = np.asarray(v)
    return array(v, ctx=ctx, dtype=v.dtype if dtype == "asnumpy" else dtype)


def _parse_location(sym, location, ctx, dtype=np.float32):
    """``location`` (a list in ``list_arguments()`` order, or a dict with every argument)
    as {name: NDArray} sorted by name."""
    if not isinstance(location, (dict, list, tuple)):
        raise TypeError("location must be a list, tuple or dict of arrays")
    names = sym.list_arguments()
    if isinstance(location, dict):
        if set(location) != set(names):
            raise ValueError(f"Symbol arguments and keys of the given location do not match."
                             f"symbol args:{set(names)}, location.keys():{set(location)}")
    else:
        location = dict(zip(names, location))
    return {k: _nd(location[k], ctx, dtype) for k in sorted(location)}


def _parse_aux_states(sym, aux_states, ctx, dtype=np.float32):
    """``aux_states`` (a list in ``list_auxiliary_states()`` order or a dict) as
    {name: NDArray}, or None."""
    if aux_states is None:
        return None
    names = sym.list_auxiliary_states()
    if isinstance(aux_states, dict):
        if set(aux_states) != set(names):
            raise ValueError(f"Symbol aux_states names and given aux_states do not match."
                             f"symbol aux_names:{set(names)}, aux_states.keys:{set(aux_states)}")
    else:
        aux_states = dict(zip(names, aux_states))
    return {k: _nd(v, ctx, dtype) for k, v in aux_states.items()}


def _check_dtype(dtype):
    if not (isinstance(dtype, str) and dtype == "asnumpy") and \
            np.dtype(dtype) not in _DEFAULT_NUMERIC_EPS:
        raise ValueError(f"dtype must be 'asnumpy', float16, float32 or float64, got {dtype}")


def check_symbolic_forward(sym, location, expected, rtol=None, atol=None, aux_states=None,
                           ctx=None, equal_nan=False, dtype=np.float32):
    """Bind ``sym`` at ``location``, run it forward (inference) and compare every output
    with ``expected`` (a list in output order, or a dict by output name). Returns the
    executor's outputs."""
    _check_dtype(dtype)
    ctx = ctx or default_context()
    args = _parse_location(sym, location, ctx, dtype)
    aux = _parse_aux_states(sym, aux_states, ctx, dtype)
    if isinstance(expected, dict):
        expected = [expected[k] for k in sym.list_outputs()]
    from .ndarray import zeros
    grads = {k: zeros(v.shape, ctx=ctx, dtype=v.dtype) for k, v in args.items()}
    ex = sym.bind(ctx=ctx, args=args, args_grad=grads, aux_states=aux)
    outputs = ex.forward(is_train=False)
    for name, want, got in zip(sym.list_outputs(), expected, outputs):
        assert_almost_equal(want, got, rtol, atol, (f"EXPECTED_{name}", f"FORWARD_{name}"),
                            equal_nan=equal_nan)
    return ex.outputs


def check_symbolic_backward(sym, location, out_grads, expected, rtol=None, atol=None,
                            aux_states=None, grad_req="write", ctx=None, grad_stypes=None,
                            equal_nan=False, dtype=np.float32):
    """Bind ``sym`` at ``location``, run forward (training) and backward with
    ``out_grads`` (a list, a dict by output name, or None for loss heads), and compare
    the gradients of the arguments named in ``expected`` (a list in argument order or a
    dict). Gradient arrays start random, so ``add`` is checked as the added amount and
    ``null`` as untouched. Returns the gradient arrays."""
    _check_dtype(dtype)
    ctx = ctx or default_context()
    args = _parse_location(sym, location, ctx, dtype)
    aux = _parse_aux_states(sym, aux_states, ctx, dtype)
    if isinstance(expected, (list, tuple)):
        expected = dict(zip(sym.list_arguments(), expected))
    if grad_stypes:
        bad = {k: v for k, v in grad_stypes.items() if v not in (None, "default")}
        if bad:
            raise MXNetError(f"check_symbolic_backward: sparse gradient storage is not "
                             f"supported ({bad})")
    start = {k: np.random.normal(size=np.shape(_as_np(v))) for k, v in sorted(expected.items())}
    grads = {k: array(v, ctx=ctx, dtype=_as_np(expected[k]).dtype if dtype == "asnumpy"
                      else dtype) for k, v in start.items()}
    if isinstance(grad_req, str):
        grad_req = {k: grad_req for k in sym.list_arguments()}
    elif isinstance(grad_req, (list, tuple)):
        grad_req = dict(zip(sym.list_arguments(), grad_req))
    ex = sym.bind(ctx=ctx, args=args, args_grad=grads, aux_states=aux, grad_req=grad_req)
    ex.forward(is_train=True)
    if isinstance(out_grads, (list, tuple)):
        out_grads = [_nd(g, ctx, dtype) for g in out_grads]
    elif isinstance(out_grads, dict):
        out_grads = {k: _nd(g, ctx, dtype) for k, g in out_grads.items()}
    elif out_grads is not None:
        raise TypeError("out_grads must be a list, a dict or None")
    ex.backward(out_grads)
    for name, want in expected.items():
        req = grad_req.get(name, "null")
        label = (f"EXPECTED_{name}", f"BACKWARD_{name}")
        got = grads[name].asnumpy()
        if req == "write":
            assert_almost_equal(want, got, rtol, atol, label, equal_nan=equal_nan)
        elif req == "add":
            assert_almost_equal(want, got - start[name], rtol, atol, label, equal_nan=equal_nan)
        elif req == "null":
            assert_almost_equal(start[name], got, rtol, atol, label, equal_nan=equal_nan)
        else:
            raise ValueError(f"Invalid grad_req {req} for argument {name}")
    return grads


def check_numeric_gradient(sym, location, aux_states=None, numeric_eps=None, rtol=None,
                           atol=None, grad_nodes=None, use_forward_train=True, ctx=None,
                           grad_stype_dict=None, dtype=None, head_grad_seed=0):
    """Compare computed gradients with central differences.

    ``sym`` is a Symbol (as in 1.9.1) or a function of NDArrays returning an NDArray or a
    list of them. The scalar differentiated is the sum of every output times a random
    head (for a Symbol, a positive random projection as 1.9.1 uses).

    - Symbol: ``location`` lists every argument (in ``list_arguments()`` order, or a
      dict); ``grad_nodes`` names the arguments to check (a list, or a dict of grad_req);
      the executor's backward is compared with differences of width ``numeric_eps``
      (default per dtype: 2**-6, 2**-9, 2**-14). Defaults: float32, the dtype's
      tolerances.
    - function: ``location`` holds one array per parameter of ``fn``; autograd is
      compared. Defaults: float64, ``numeric_eps=1e-3``, ``rtol=1e-2``, ``atol=1e-4``.
    """
    if isinstance(sym, Symbol):
        return _check_symbol_gradient(sym, location, aux_states, numeric_eps, rtol, atol,
                                      grad_nodes, use_forward_train, ctx, grad_stype_dict,
                                      np.float32 if dtype is None else dtype)
    return _check_function_gradient(sym, location, 1e-3 if numeric_eps is None else numeric_eps,
                                    1e-2 if rtol is None else rtol, atol, grad_nodes,
                                    use_forward_train, ctx,
                                    np.float64 if dtype is None else dtype, head_grad_seed)


def _check_symbol_gradient(sym, location, aux_states, numeric_eps, rtol, atol, grad_nodes,
                           use_forward_train, ctx, grad_stype_dict, dtype):
    dtype = np.dtype(dtype)
    if dtype not in _DEFAULT_NUMERIC_EPS:
        raise ValueError(f"dtype must be float16, float32 or float64, got {dtype}")
    if grad_stype_dict and any(v not in (None, "default") for v in grad_stype_dict.values()):
        raise MXNetError("check_numeric_gradient: sparse gradient storage is not supported")
    ctx = ctx or default_context()
    args = _parse_location(sym, location, ctx, dtype)
    aux = _parse_aux_states(sym, aux_states, ctx, dtype)
    aux_np = None if aux is None else {k: v.asnumpy() for k, v in aux.items()}
    if grad_nodes is None:
        grad_req = {k: "write" for k in sym.list_arguments()}
    elif isinstance(grad_nodes, (list, tuple)):
        grad_req = {k: "write" for k in grad_nodes}
    elif isinstance(grad_nodes, dict):
        grad_req = dict(grad_nodes)
    else:
        raise ValueError("grad_nodes must be None, a list, a tuple or a dict")
    nodes = list(grad_req)
    _, out_shapes, _ = sym.infer_shape(**{k: v.shape for k, v in args.items()})
    heads = [np.random.rand(*s) + 0.1 for s in out_shapes]
    start = {k: np.random.normal(0, 0.01, size=args[k].shape) for k in nodes}
    np.random.normal(0, 0.01, size=out_shapes[0])   # 1.9.1's draw for its projection's gradient
    grads = {k: array(v, ctx=ctx, dtype=dtype) for k, v in start.items()}
    ex = sym.bind(ctx, args=args, args_grad=grads, grad_req=grad_req, aux_states=aux)
    ex.forward(is_train=True)
    eps = numeric_eps if numeric_eps is not None else _DEFAULT_NUMERIC_EPS[dtype]
    if dtype in (np.dtype(np.float16), np.dtype(np.float32)) and eps < 1e-5:
        raise ValueError(f"numeric_eps {eps} is too small for {dtype}")
    ex.backward([array(h, ctx=ctx, dtype=dtype) for h in heads])
    computed = {k: grads[k].asnumpy() for k in nodes}
    location_np = {k: v.asnumpy() for k, v in args.items()}
    numeric = _executor_numeric_grad(ex, location_np, aux_np, eps, use_forward_train, dtype,
                                     names=[k for k in nodes if grad_req[k] != "null"],
                                     heads=heads)
    for k in nodes:
        label = (f"NUMERICAL_{k}", f"BACKWARD_{k}")
        req = grad_req[k]
        if req == "write":
            assert_almost_equal(numeric[k], computed[k], rtol, atol, label)
        elif req == "add":
            assert_almost_equal(numeric[k], computed[k] - start[k], rtol, atol, label)
        elif req == "null":
            assert_almost_equal(start[k], computed[k], rtol, atol, label)
        else:
            raise ValueError(f"Invalid grad_req {req} for argument {k}")


def _check_function_gradient(fn, location, numeric_eps, rtol, atol, grad_nodes,
                             use_forward_train, ctx, dtype, head_grad_seed):
    from . import autograd
    if not callable(fn):
        raise MXNetError("check_numeric_gradient: pass a Symbol or a function of NDArrays")
    names = None
    if isinstance(location, dict):
        names = list(location)
        location = [location[k] for k in names]
    ctx = ctx or default_context()
    loc = [np.asarray(_as_np(x), dtype=dtype) for x in location]
    wrt = list(range(len(loc))) if grad_nodes is None else (
        [names.index(n) for n in grad_nodes] if names else list(grad_nodes))
    rng = np.random.RandomState(head_grad_seed)

    def outputs_of(arrays):
        out = fn(*arrays)
        return [out] if not isinstance(out, (list, tuple)) else list(out)

    args = [array(x, ctx=ctx, dtype=dtype) for x in loc]
    for i in wrt:
        args[i].attach_grad()
    with autograd.record(train_mode=use_forward_train):
        outs = outputs_of(args)
    heads = [rng.normal(size=o.shape).astype(dtype) for o in outs]
    autograd.backward(outs, [array(h, ctx=ctx, dtype=dtype) for h in heads])
    analytic = [args[i].grad.asnumpy() for i in wrt]

    def scalar(*xs):
        with autograd.pause(train_mode=use_forward_train):
            res = outputs_of([array(x, ctx=ctx, dtype=dtype) for x in xs])
        return sum(float((r.asnumpy().astype(np.float64) * h).sum()) for r, h in zip(res, heads))

    for k, i in enumerate(wrt):
        def f_i(x, _i=i):
            xs = list(loc)
            xs[_i] = x
            return scalar(*xs)
        num = numeric_grad(f_i, [loc[i]], eps=numeric_eps, dtype=dtype)[0]
        assert_almost_equal(analytic[k], num, rtol=rtol,
                            atol=atol if atol is not None else 1e-4,
                            names=(f"autograd grad of input {i}", "numeric grad"))


def _consistency_tol(tol, dtype, table):
    if tol is None:
        return table.get(np.dtype(dtype), table[np.dtype(np.float32)])
    if isinstance(tol, dict):
        return tol.get(np.dtype(dtype), table.get(np.dtype(dtype), 0))
    return tol


def check_consistency(sym, ctx_list, scale=1.0, grad_req="write", arg_params=None,
                      aux_params=None, rtol=None, atol=None, raise_on_err=True,
                      ground_truth=None, equal_nan=False, use_uniform=False,
                      rand_type=np.float64):
    """Run one symbol on several contexts and dtypes and check that they agree.

    Each entry of ``ctx_list`` is a dict with ``ctx``, the input shapes by name, and an
    optional ``type_dict``. Every binding gets the same random arguments (normal with
    standard deviation ``scale``, or uniform when ``use_uniform``), runs forward in
    inference and training mode and backward with its own outputs as head gradients.
    The binding of the most precise output dtype is the reference (or ``ground_truth``
    when given); the others must match it within the tolerance of their own dtype.
    Returns the reference values: output names and argument-gradient names to NumPy
    arrays.
    """
    if isinstance(sym, (list, tuple)):
        syms = list(sym)
        if len(syms) != len(ctx_list):
            raise MXNetError(f"check_consistency: {len(syms)} symbols for "
                             f"{len(ctx_list)} contexts")
    else:
        syms = [sym] * len(ctx_list)
    arg_names = syms[0].list_arguments()
    out_names = syms[0].list_outputs()
    if isinstance(grad_req, str):
        reqs = {n: grad_req for n in arg_names}
    elif isinstance(grad_req, (list, tuple)):
        reqs = dict(zip(arg_names, grad_req))
    else:
        reqs = {n: grad_req.get(n, "null") for n in arg_names}

    exes = []
    for s, spec in zip(syms, ctx_list):
        spec = dict(spec)
        ctx = spec.pop("ctx")
        type_dict = spec.pop("type_dict", None)
        exes.append(s.simple_bind(ctx, grad_req=reqs, type_dict=type_dict, **spec))

    rs = np.random
    first = exes[0]
    args = {}
    for n, arr in first.arg_dict.items():
        if arg_params is not None and n in arg_params:
            v = _as_np(arg_params[n])
        elif use_uniform:
            v = rs.uniform(-scale, scale, arr.shape)
        else:
            v = rs.normal(0, scale, arr.shape)
        args[n] = np.asarray(v).astype(rand_type)
    auxs = {}
    for n, arr in first.aux_dict.items():
        if aux_params is not None and n in aux_params:
            auxs[n] = _as_np(aux_params[n])
        else:
            auxs[n] = np.zeros(arr.shape) if "mean" in n else np.ones(arr.shape)

    def load(exe):
        for n, arr in exe.arg_dict.items():
            arr[:] = args[n].astype(arr.dtype)
        for n, arr in exe.aux_dict.items():
            arr[:] = auxs[n].astype(arr.dtype)

    precisions = [max(np.dtype(o.dtype).itemsize for o in e.outputs) for e in exes]
    gt_index = int(np.argmax(precisions))

    def compare(phase, values):
        gt = ground_truth if ground_truth is not None else values[gt_index]
        for i, vals in enumerate(values):
            if ground_truth is None and i == gt_index:
                continue
            for name, v in vals.items():
                if name not in gt:
                    continue
                dt = v.dtype
                r = _consistency_tol(rtol, dt, _DEFAULT_RTOL)
                a = _consistency_tol(atol, dt, _DEFAULT_ATOL)
                try:
                    assert_almost_equal(v, gt[name].astype(dt), rtol=r, atol=a,
                                        equal_nan=equal_nan,
                                        names=(f"{name} on {ctx_list[i]['ctx']} ({dt})",
                                               f"{name} reference"))
                except AssertionError as e:
                    if raise_on_err:
                        raise AssertionError(f"check_consistency ({phase}): {e}") from None
                    print(f"check_consistency ({phase}): {e}")
        return gt

    values = []
    for exe in exes:
        load(exe)
        exe.forward(is_train=False)
        values.append({n: o.asnumpy() for n, o in zip(out_names, exe.outputs)})
    compare("inference", values)

    values = []
    for exe in exes:
        load(exe)
        exe.forward(is_train=True)
        exe.backward([o.copy() for o in exe.outputs])
        v = {n: o.asnumpy() for n, o in zip(out_names, exe.outputs)}
        for n, g in exe.grad_dict.items():
            if g is not None and reqs.get(n, "null") != "null":
                v[n] = g.asnumpy()
        values.append(v)
    return compare("training", values)


# -- comparison variants ----------------------------------------------------------------
def checkShapes(a, b):
    """Raise AssertionError unless ``a`` and ``b`` have the same shape."""
    if a.shape != b.shape:
        raise AssertionError(npt.build_err_msg(
            [a, b], err_msg=f"a.shape = {a.shape} and b.shape = {b.shape} are not equal"))


def locationError(a, b, index, names, maxError=False):
    """The text locating a mismatch: ``Location of [maximum ]error: INDEX, a=..., b=...``."""
    kind = "maximum " if maxError else ""
    return "Location of %serror: %s, %s=%.8f, %s=%.8f" % (kind, str(index), names[0],
                                                         a[index], names[1], b[index])


def _max_violation(a, b, rtol, atol):
    """Index and size of the largest ``|a - b| / (atol + rtol |b|)`` (equal infs count 0)."""
    with np.errstate(all="ignore"):
        diff = np.where(np.equal(a, b), 0, np.abs(a - b))
        ratio = diff / (atol + rtol * np.abs(b) + 1e-20)
    loc = tuple(int(i) for i in np.unravel_index(np.argmax(ratio), ratio.shape))
    return loc, np.max(ratio)


def assert_allclose(a, b, rtol=1e-07, atol=0, equal_nan=True):
    """:func:`assert_almost_equal` with numpy.testing.assert_allclose's defaults."""
    assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def assert_almost_equal_with_err(a, b, rtol=None, atol=None, etol=None, names=("a", "b"),
                                 equal_nan=False, mismatches=(10, 10)):
    """Like :func:`assert_almost_equal`, but pass when at most a fraction ``etol`` of the
    elements are out of tolerance (``etol`` 0 or None: none may be)."""
    etol = get_etol(etol)
    if etol <= 0:
        assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
        return
    rtol, atol = get_tols(a, b, rtol, atol)
    a = _as_np(a) if hasattr(a, "asnumpy") else a
    b = _as_np(b) if hasattr(b, "asnumpy") else b
    an, bn = np.asarray(a), np.asarray(b)
    close = np.isclose(an, bn, rtol=rtol, atol=atol)
    if 1 - np.count_nonzero(close) / close.size <= etol:
        return
    index, worst = _max_violation(an, bn, rtol, atol)
    err_msg = _mismatch_report(an, bn, rtol, atol, names, equal_nan, mismatches, index, worst)
    legacy = {"legacy": "1.25"} if int(np.__version__.split(".")[0]) >= 2 else {}
    with np.printoptions(threshold=4, suppress=True, **legacy):
        raise AssertionError(npt.build_err_msg([a, b], err_msg=err_msg))


def assert_almost_equal_ignore_nan(a, b, rtol=None, atol=None, names=("a", "b")):
    """:func:`assert_almost_equal` after zeroing every position that is NaN in either."""
    a, b = np.copy(_as_np(a)), np.copy(_as_np(b))
    nan = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan] = 0
    b[nan] = 0
    assert_almost_equal(a, b, rtol, atol, names)


def compare_ndarray_tuple(t1, t2, rtol=None, atol=None):
    """:func:`assert_almost_equal` over (nested tuples of) arrays; None skips."""
    if t1 is None or t2 is None:
        return
    if isinstance(t1, tuple):
        for x, y in zip(t1, t2):
            compare_ndarray_tuple(x, y, rtol, atol)
    else:
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)


def same_array(array1, array2):
    """Whether two NDArrays share memory: a change through ``array1`` shows in ``array2``
    (``array1`` is restored)."""
    array1[:] += 1
    shared = same(array1.asnumpy(), array2.asnumpy())
    array1[:] -= 1
    return shared and same(array1.asnumpy(), array2.asnumpy())


def same_symbol_structure(sym1, sym2):
    """Whether the graphs' nodes have the same operators, position by position."""
    nodes1 = json.loads(sym1.tojson())["nodes"]
    nodes2 = json.loads(sym2.tojson())["nodes"]
    return all(n1["op"] == n2["op"] for n1, n2 in zip(nodes1, nodes2))


def collapse_sum_like(a, shape):
    """Sum the numpy array ``a`` over the axes that ``shape`` broadcasts along, giving an
    array of ``shape``."""
    assert a.ndim >= len(shape)
    if np.prod(shape) == 0 or a.size == 0:
        return np.zeros(shape, dtype=a.dtype)
    lead = a.ndim - len(shape)
    axes = list(range(lead))
    for i, size in enumerate(shape):
        if size != a.shape[lead + i]:
            assert size == 1
            axes.append(lead + i)
    return np.sum(a, axis=tuple(axes)).reshape(shape)


# -- running symbols ----------------------------------------------------------------------
def retry(n):
    """Decorator: rerun a (stochastic) test up to ``n`` times while it fails an assertion."""
    assert n > 0

    def decorate(f):
        def wrapper(*args, **kwargs):
            for attempt in range(n):
                try:
                    f(*args, **kwargs)
                    return
                except AssertionError:
                    if attempt == n - 1:
                        raise
                    mx.nd.waitall()
        return wrapper
    return decorate


def simple_forward(sym, ctx=None, is_train=False, **inputs):
    """Bind ``sym`` to the numpy ``inputs`` (by name), run forward, return the output as
    numpy (a list when there are several)."""
    ctx = ctx or default_context()
    exe = sym.bind(ctx, args={k: mx.nd.array(v) for k, v in inputs.items()})
    exe.forward(is_train=is_train)
    outs = [o.asnumpy() for o in exe.outputs]
    return outs[0] if len(outs) == 1 else outs


def check_speed(sym, location=None, ctx=None, N=20, grad_req=None, typ="whole", **kwargs):
    """Seconds per iteration of ``sym``: forward plus backward (``typ='whole'``, the
    outputs fed back as head gradients) or forward only (``typ='forward'``), averaged
    over ``N`` runs after one warm-up run.

    ``location`` maps argument names to numpy arrays (their shapes bind the executor);
    without it the executor is bound from the shapes in ``kwargs`` and every argument
    gets standard-normal values. ``grad_req`` defaults to ``'write'``.
    """
    ctx = ctx or default_context()
    grad_req = grad_req or "write"
    if location is None:
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx, **kwargs)
        location = {k: np.random.normal(size=a.shape, scale=1.0)
                    for k, a in exe.arg_dict.items()}
    else:
        assert isinstance(location, dict), 'Expect dict, get "location"=%s' % str(location)
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx,
                              **{k: v.shape for k, v in location.items()})
    for name, value in location.items():
        exe.arg_dict[name][:] = value.astype(exe.arg_dict[name].dtype)
    if typ == "whole":
        def run():
            exe.forward(is_train=True)
            exe.backward(out_grads=exe.outputs)
    elif typ == "forward":
        def run():
            exe.forward(is_train=False)
    else:
        raise ValueError('typ can only be "whole" or "forward".')
    run()
    for out in exe.outputs:
        out.wait_to_read()
    start = time.time()
    for _ in range(N):
        run()
    mx.nd.waitall()
    return (time.time() - start) / N


def check_gluon_hybridize_consistency(net_builder, data_l, numpy_func=None, test_grad=True,
                                      rtol=1E-4, atol=1E-4):
    """Check that a HybridBlock built by ``net_builder(prefix='net_')`` gives the same
    outputs (and input gradients, with ``test_grad``) hybridized and not, with the same
    parameters; and, when ``numpy_func`` is given, the same outputs as it on ``data_l``.
    The network must not draw random numbers."""
    with mx.util.np_shape(True), mx.util.np_array(True):
        values = None  # the first network's initial parameters, given to the others
        want_out, want_grads = None, None
        for hybridize in (False, True):
            for use_autograd in ([False, True] if test_grad else [False]):
                net = net_builder(prefix="net_")
                net.initialize()
                params = net.collect_params()
                inputs = [x.copy() for x in data_l]
                if values is not None:
                    # shapes may be deferred: one forward pass settles them first
                    net(*[x.copy() for x in data_l])
                    for k, v in params.items():
                        v.set_data(values[k])
                if hybridize:
                    net.hybridize()
                if use_autograd:
                    for x in inputs:
                        x.attach_grad()
                    with mx.autograd.record():
                        out = net(*inputs)
                    out.backward(out)
                else:
                    out = net(*inputs)
                if values is None:
                    values = {k: v.data().copy() for k, v in params.items()}
                if want_out is None:
                    want_out = out.asnumpy()
                else:
                    assert_almost_equal(out.asnumpy(), want_out, rtol=rtol, atol=atol)
                if use_autograd:
                    grads = [x.grad.asnumpy() for x in inputs]
                    if want_grads is None:
                        want_grads = grads
                    else:
                        for got, want in zip(grads, want_grads):
                            assert_almost_equal(got, want, rtol=rtol, atol=atol)
        if numpy_func is not None:
            ref = numpy_func(*[x.asnumpy() for x in data_l])
            assert_almost_equal(want_out, ref, rtol=rtol, atol=atol)


def compare_optimizer(opt1, opt2, shape, dtype, w_stype="default", g_stype="default",
                      rtol=1e-4, atol=1e-5, compare_states=True, ntensors=1):
    """Run one update of ``opt1`` and ``opt2`` on the same random weight(s) and
    gradient(s) and compare the resulting states and weights. ``shape`` may be a list
    of shapes (``ntensors`` tensors; ``opt2`` updates them in one aggregated call)."""
    ctx = default_context()
    if not isinstance(shape, list):
        assert ntensors == 1

        def pair(stype, density):
            if stype == "default":
                second = mx.random.uniform(shape=shape, ctx=ctx, dtype=dtype)
                return second.copyto(ctx), second
            if stype in ("row_sparse", "csr"):
                second = rand_ndarray(shape, stype, density=density, dtype=dtype)
                return second.copyto(ctx).tostype("default"), second
            raise Exception("type not supported yet")

        w1, w2 = pair(w_stype, 1)
        g1, g2 = pair(g_stype, None)
        s1 = opt1.create_state_multi_precision(0, w1)
        s2 = opt2.create_state_multi_precision(0, w2)
        if compare_states:
            compare_ndarray_tuple(s1, s2)
        opt1.update_multi_precision(0, w1, g1, s1)
        opt2.update_multi_precision(0, w2, g2, s2)
        if compare_states:
            compare_ndarray_tuple(s1, s2, rtol=rtol, atol=atol)
        assert_almost_equal(w1, w2, rtol=rtol, atol=atol)
        return
    w1 = tuple(mx.random.uniform(shape=s, ctx=ctx, dtype=dtype) for s in shape)
    g1 = tuple(mx.random.uniform(shape=s, ctx=ctx, dtype=dtype) for s in shape)
    w2 = tuple(w.copy() for w in w1)
    g2 = tuple(g.copy() for g in g1)
    s2 = [opt2.create_state_multi_precision(0, w2[i]) for i in range(ntensors)]
    opt2.update_multi_precision(list(range(ntensors)), w2, g2, s2)
    for i in range(ntensors):
        s1 = opt1.create_state_multi_precision(i, w1[i])
        opt1.update_multi_precision(i, w1[i], g1[i], s1)
        if compare_states:
            compare_ndarray_tuple(s1, s2[i], rtol, atol)
        compare_ndarray_tuple(w1[i], w2[i], rtol, atol)


class DummyIter(mx.io.DataIter):
    """An endless iterator repeating the first batch of ``real_iter`` (for timing)."""

    def __init__(self, real_iter):
        super().__init__()
        self.real_iter = real_iter
        self.provide_data = real_iter.provide_data
        self.provide_label = real_iter.provide_label
        self.batch_size = real_iter.batch_size
        self.the_batch = next(real_iter)

    def __iter__(self):
        return self

    def next(self):
        """The first batch of the real iterator, every time (never StopIteration)."""
        return self.the_batch


# -- random-generator checks ------------------------------------------------------------
def gen_buckets_probs_with_ppf(ppf, nbuckets):
    """``nbuckets`` equal-probability buckets ``(ppf(i/n), ppf((i+1)/n))`` from a quantile
    function, with their probabilities ``1/n``."""
    assert nbuckets > 0
    probs = [1.0 / nbuckets] * nbuckets
    buckets = [(ppf(i / float(nbuckets)), ppf((i + 1) / float(nbuckets)))
               for i in range(nbuckets)]
    return buckets, probs


def mean_check(generator, mu, sigma, nsamples=1000000):
    """Whether the mean of ``generator(nsamples)`` lies within ``mu +- 3 sigma/sqrt(n)``."""
    mean = np.array(generator(nsamples)).mean()
    half = 3 * sigma / np.sqrt(nsamples)
    return bool(mu - half < mean < mu + half)


def var_check(generator, sigma, nsamples=1000000):
    """Whether the sample variance of ``generator(nsamples)`` lies within
    ``sigma^2 +- 3 sqrt(2 sigma^4 / (n - 1))``."""
    var = np.array(generator(nsamples)).var(ddof=1)
    half = 3 * np.sqrt(2 * sigma ** 4 / (nsamples - 1))
    return bool(sigma ** 2 - half < var < sigma ** 2 + half)


def _upper_regularized_gamma(a, x):
    """Q(a, x) = Gamma(a, x) / Gamma(a) (a series below a + 1, a continued fraction
    above), for the chi-square survival function without scipy."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def _chisquare_pvalue(obs, exp):
    stat = float(np.sum((np.asarray(obs, np.float64) - exp) ** 2 / np.asarray(exp, np.float64)))
    try:   # scipy loads in seconds: only here, never at import mxnet
        import scipy.stats as ss
    except ImportError:
        ss = None
    if ss is not None:
        return float(ss.chisquare(f_obs=obs, f_exp=exp)[1])
    return _upper_regularized_gamma((len(obs) - 1) / 2.0, stat / 2.0)


def chi_square_check(generator, buckets, probs, nsamples=1000000):
    """Chi-square test of ``generator(nsamples)`` against bucket probabilities.

    ``buckets`` are ascending non-overlapping ``(low, high)`` ranges for a continuous
    distribution, or the possible values of a discrete one; ``probs`` their expected
    probabilities. Returns ``(p_value, observed_counts, expected_counts)``; the p-value
    comes from scipy when installed, else from the regularized incomplete gamma.
    """
    assert isinstance(buckets, list)
    samples = generator(nsamples)
    assert len(probs) == len(buckets)
    expected = (nsamples * np.array(probs, dtype=np.float32)).astype(np.int32)
    observed = np.zeros(len(buckets), dtype=np.int64)
    if isinstance(buckets[0], (list, tuple)):
        edges = np.zeros(2 * len(buckets), dtype=np.float32)
        for i, (low, high) in enumerate(buckets):
            assert low <= high
            if i < len(buckets) - 1:
                assert high <= buckets[i + 1][0]
            edges[2 * i], edges[2 * i + 1] = low, high
        ids = np.searchsorted(edges, _as_np(samples), side="right") // 2
        for i in range(len(buckets)):
            observed[i] = (ids == i).sum()
    else:
        values = _as_np(samples)
        for i, value in enumerate(buckets):
            observed[i] = (values == value).sum()
    return _chisquare_pvalue(observed, expected), observed, expected


def verify_generator(generator, buckets, probs, nsamples=1000000, nrepeat=5, success_rate=0.2,
                     alpha=0.05):
    """Repeat :func:`chi_square_check` ``nrepeat`` times; raise AssertionError unless at
    least ``success_rate`` of the p-values exceed ``alpha``. Returns the p-values."""
    pvals, observed, expected = [], [], []
    for _ in range(nrepeat):
        p, obs, exp = chi_square_check(generator, buckets, probs, nsamples)
        pvals.append(p)
        observed.append(obs)
        expected.append(exp)
    if (np.array(pvals) > alpha).sum() < nrepeat * success_rate:
        raise AssertionError("Generator test fails, Chi-square p=%s, obs_freq=%s, "
                             "expected_freq=%s.\nbuckets=%s, probs=%s"
                             % (pvals, observed, expected, buckets, probs))
    return pvals


# -- matrices with known spectra ----------------------------------------------------------
def new_matrix_with_real_eigvals_2d(n):
    """A random ``n x n`` matrix ``Q^-1 D Q`` with real eigenvalues in (-10, 10), ``Q``
    well conditioned (a Householder reflection times a diagonal)."""
    while True:
        d = np.diag(np.random.uniform(-1.0, 1.0, n))
        v = np.random.uniform(-1.0, 1.0, n).reshape(n, 1)
        v = v / np.linalg.norm(v, axis=-2, keepdims=True)
        q = (np.eye(n) - 2 * v @ v.T) @ d
        if np.linalg.cond(q, 2) < 3:
            break
    eig = np.diag(np.random.uniform(-10.0, 10.0, n))
    return np.linalg.inv(q) @ eig @ q


def new_matrix_with_real_eigvals_nd(shape):
    """A stack of :func:`new_matrix_with_real_eigvals_2d` matrices of ``shape``."""
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_matrix_with_real_eigvals_2d(shape[-1])
                     for _ in range(count)]).reshape(shape)


def new_orthonormal_matrix_2d(n):
    """A random ``n x n`` orthonormal matrix (Q of a QR decomposition)."""
    x = np.random.randn(n, n)
    return np.linalg.qr(x.T @ x)[0]


def new_sym_matrix_with_real_eigvals_2d(n):
    """A random symmetric ``n x n`` matrix with eigenvalues uniform in (-10, 10)."""
    q = new_orthonormal_matrix_2d(n)
    return q.T @ np.diag(np.random.uniform(-10.0, 10.0, n)) @ q


def new_sym_matrix_with_real_eigvals_nd(shape):
    """A stack of :func:`new_sym_matrix_with_real_eigvals_2d` matrices of ``shape``."""
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_sym_matrix_with_real_eigvals_2d(shape[-1])
                     for _ in range(count)]).reshape(shape)


# -- environment and platform ---------------------------------------------------------------
def getenv(name):
    """The value of environment variable ``name`` or None (there is no separate C runtime
    environment here: this is the process environment)."""
    return os.environ.get(name)


def setenv(name, value):
    """Set (``value`` a string) or unset (``value`` None) environment variable ``name``."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


@contextmanager
def environment(*args):
    """Set environment variables for a ``with`` block and restore them afterwards.

    ``environment(name, value)`` or ``environment({name: value, ...})``; a value of None
    unsets the variable.
    """
    if len(args) == 1 and isinstance(args[0], dict):
        wanted = args[0]
    else:
        assert len(args) == 2, "Expecting one dict arg or two args: env var name and value"
        wanted = {args[0]: args[1]}
    saved = {k: os.environ.get(k) for k in wanted}
    for k, v in wanted.items():
        setenv(k, v)
    try:
        yield
    finally:
        mx.nd.waitall()
        for k, v in saved.items():
            setenv(k, v)


@contextmanager
def discard_stderr():
    """Send everything written to file descriptor 2 to the null device inside the block."""
    with open(os.devnull, "w") as sink:
        try:
            fd = sys.stderr.fileno()
        except (AttributeError, OSError, ValueError):
            yield  # stderr is not a real file here: nothing to redirect
            return
        sys.stderr.flush()
        saved = os.dup(fd)
        try:
            os.dup2(sink.fileno(), fd)
            yield
        finally:
            os.dup2(saved, fd)
            os.close(saved)


def is_cd_run():
    """Whether the environment marks a continuous-delivery run (``CD_JOB=1``)."""
    return os.environ.get("CD_JOB", 0) == "1"


def is_aarch64_run():
    """Whether this machine is aarch64."""
    return platform.machine() == "aarch64"


def __getattr__(name):
    # mx.runtime is loaded on first use (import mxnet keeps it unloaded, as 1.9.1 does not
    # need it either until asked)
    if name == "Features":
        from .runtime import Features
        return Features
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"Features"})


def get_cuda_compute_capability(ctx):
    """Not available: this implementation has no CUDA runtime to query."""
    raise MXNetError("get_cuda_compute_capability needs the CUDA runtime of MXNet's C++ "
                     "core; this NumPy implementation has none (context %s)" % (ctx,))


def has_tvm_ops():
    """Whether operators generated by TVM are built in (never: there is no TVM here)."""
    from .runtime import Features
    return bool(Features().is_enabled("TVM_OP"))


def is_op_runnable():
    """Whether TVM-built operators may run in the current context (always here: there are
    none, and no GPU compute capability to check)."""
    return True


def list_gpus():
    """``range(number of GPUs)`` (empty here)."""
    return range(mx.context.num_gpus())


def get_im2rec_path(home_env="MXNET_HOME"):
    """The path of the im2rec.py tool: under ``$MXNET_HOME`` (when set) or the package's
    ``tools/`` folder, or ``../../tools`` from there."""
    base = os.environ.get(home_env) or os.path.dirname(mx.__file__)
    for candidate in (os.path.join(base, "tools", "im2rec.py"),
                      os.path.join(base, "..", "..", "tools", "im2rec.py")):
        if os.path.isfile(candidate):
            return candidate
    raise OSError("Could not find path to tools/im2rec.py")


# -- downloads and data sets ------------------------------------------------------------------
def download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """Fetch ``url`` into ``fname`` (default: the URL's last part, inside ``dirname`` when
    given) unless it exists and not ``overwrite``; retry up to ``retries`` times. The data
    goes to a temporary file renamed into place. Returns the file name."""
    import urllib.request

    from .ndarray.serialization import write_file_atomic

    assert retries >= 0, "Number of retries should be at least 0"
    if fname is None:
        fname = url.split("/")[-1]
    if dirname is None:
        dirname = os.path.dirname(fname)
    else:
        fname = os.path.join(dirname, fname)
    if dirname and not os.path.exists(dirname):
        logging.info("create directory %s", dirname)
        try:
            os.makedirs(dirname)
        except OSError as exc:
            if exc.errno != errno.EEXIST:
                raise OSError("failed to create " + dirname) from exc
    if not overwrite and os.path.exists(fname):
        logging.info("%s exists, skipping download", fname)
        return fname
    while True:
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                status = getattr(response, "status", None)
                assert status in (None, 200), "failed to open %s" % url
                write_file_atomic(fname, iter(lambda: response.read(1 << 20), b""))
            break
        except Exception:
            retries -= 1
            if retries <= 0:
                raise
            print("download failed, retrying, {} attempt{} left".format(
                retries, "s" if retries > 1 else ""))
    logging.info("downloaded %s into %s successfully", url, fname)
    return fname


_MODEL_BASE = "http://data.mxnet.io/models/"
_MODEL_FILES = {
    "imagenet1k-inception-bn": ("imagenet/inception-bn/Inception-BN", "0126"),
    "imagenet1k-resnet-18": ("imagenet/resnet/18-layers/resnet-18", "0000"),
    "imagenet1k-resnet-34": ("imagenet/resnet/34-layers/resnet-34", "0000"),
    "imagenet1k-resnet-50": ("imagenet/resnet/50-layers/resnet-50", "0000"),
    "imagenet1k-resnet-101": ("imagenet/resnet/101-layers/resnet-101", "0000"),
    "imagenet1k-resnet-152": ("imagenet/resnet/152-layers/resnet-152", "0000"),
    "imagenet1k-resnext-50": ("imagenet/resnext/50-layers/resnext-50", "0000"),
    "imagenet1k-resnext-101": ("imagenet/resnext/101-layers/resnext-101", "0000"),
    "imagenet1k-resnext-101-64x4d": ("imagenet/resnext/101-layers/resnext-101-64x4d", "0000"),
    "imagenet11k-resnet-152": ("imagenet-11k/resnet-152/resnet-152", "0000"),
    "imagenet11k-place365ch-resnet-152": ("imagenet-11k-place365-ch/resnet-152", "0000"),
    "imagenet11k-place365ch-resnet-50": ("imagenet-11k-place365-ch/resnet-50", "0000"),
}


def download_model(model_name, dst_dir="./", meta_info=None):
    """Fetch a model's ``-symbol.json`` and ``-0000.params`` into ``dst_dir``.

    ``meta_info`` maps model names to ``{'symbol': url, 'params': url}`` (default: the
    ImageNet models 1.9.1 knows on data.mxnet.io). Returns ``(dst_dir/model_name, 0)``,
    or ``(None, 0)`` for an unknown name.
    """
    if meta_info is None:
        meta_info = {name: {"symbol": f"{_MODEL_BASE}{path}-symbol.json",
                            "params": f"{_MODEL_BASE}{path}-{epoch}.params"}
                     for name, (path, epoch) in _MODEL_FILES.items()}
    meta_info = dict(meta_info)
    if model_name not in meta_info:
        return None, 0
    if not os.path.isdir(dst_dir):
        os.mkdir(dst_dir)
    meta = dict(meta_info[model_name])
    prefix = os.path.join(dst_dir, model_name)
    assert "symbol" in meta, "missing symbol url"
    download(meta["symbol"], prefix + "-symbol.json")
    assert "params" in meta, "mssing parameter file url"
    download(meta["params"], prefix + "-0000.params")
    return prefix, 0


_MNIST_URL = "http://data.mxnet.io/data/mnist/"


def _read_mnist_gz(label_file, image_file):
    with gzip.open(label_file) as f:
        struct.unpack(">II", f.read(8))
        label = np.frombuffer(f.read(), dtype=np.int8)
    with gzip.open(image_file, "rb") as f:
        _, _, rows, cols = struct.unpack(">IIII", f.read(16))
        image = np.frombuffer(f.read(), dtype=np.uint8).reshape(len(label), 1, rows, cols)
    return label, image.astype(np.float32) / 255


def get_mnist():
    """MNIST as numpy arrays (downloaded into the current directory):
    ``{'train_data', 'train_label', 'test_data', 'test_label'}``, images
    ``(N, 1, 28, 28)`` float32 in [0, 1]."""
    def fetch(name):
        return download(_MNIST_URL + name)

    train_lbl, train_img = _read_mnist_gz(fetch("train-labels-idx1-ubyte.gz"),
                                          fetch("train-images-idx3-ubyte.gz"))
    test_lbl, test_img = _read_mnist_gz(fetch("t10k-labels-idx1-ubyte.gz"),
                                        fetch("t10k-images-idx3-ubyte.gz"))
    return {"train_data": train_img, "train_label": train_lbl,
            "test_data": test_img, "test_label": test_lbl}


def get_mnist_pkl():
    """Fetch ``data/mnist.pkl.gz`` (unless present)."""
    os.makedirs("data", exist_ok=True)
    if not os.path.exists("data/mnist.pkl.gz"):
        download("http://deeplearning.net/data/mnist/mnist.pkl.gz", dirname="data")


def _fetch_zip_into_data(url, wanted):
    os.makedirs("data", exist_ok=True)
    if not all(os.path.exists(os.path.join("data", w)) for w in wanted):
        with zipfile.ZipFile(download(url, dirname="data")) as zf:
            zf.extractall("data")


def get_mnist_ubyte():
    """Fetch and unzip the ubyte MNIST files into ``data/`` (unless present)."""
    _fetch_zip_into_data("http://data.mxnet.io/mxnet/data/mnist.zip",
                         ["train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                          "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"])


def get_cifar10():
    """Fetch and unzip CIFAR-10 (.rec / .lst) into ``data/cifar`` (unless present)."""
    _fetch_zip_into_data("http://data.mxnet.io/mxnet/data/cifar10.zip",
                         ["cifar/train.rec", "cifar/test.rec", "cifar/train.lst",
                          "cifar/test.lst"])


def get_mnist_iterator(batch_size, input_shape, num_parts=1, part_index=0):
    """``(train, val)`` MNISTIters over ``data/`` (fetched if needed); flat images unless
    ``input_shape`` has three dimensions."""
    get_mnist_ubyte()
    flat = len(input_shape) != 3
    common = dict(input_shape=input_shape, batch_size=batch_size, flat=flat,
                  num_parts=num_parts, part_index=part_index)
    train = mx.io.MNISTIter(image="data/train-images-idx3-ubyte",
                            label="data/train-labels-idx1-ubyte", shuffle=True, **common)
    val = mx.io.MNISTIter(image="data/t10k-images-idx3-ubyte",
                          label="data/t10k-labels-idx1-ubyte", **common)
    return train, val


def get_zip_data(data_dir, url, data_origin_name):
    """Fetch the zip ``url`` as ``data_dir/data_origin_name`` and extract it there (unless
    that file exists)."""
    archive = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(archive):
        download(url, dirname=data_dir, overwrite=False)
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(path=data_dir)


def get_bz2_data(data_dir, data_name, url, data_origin_name):
    """Fetch the bz2 ``url`` and decompress it into ``data_dir/data_name`` (unless that
    exists); the compressed file is removed afterwards."""
    target = os.path.join(data_dir, data_name)
    archive = os.path.join(data_dir, data_origin_name)
    if os.path.exists(target):
        return
    download(url, fname=archive, dirname=data_dir, overwrite=False)
    with bz2.BZ2File(archive, "rb") as src, open(target, "wb") as dst:
        for chunk in iter(lambda: src.read(1 << 20), b""):
            dst.write(chunk)
    os.remove(archive)
