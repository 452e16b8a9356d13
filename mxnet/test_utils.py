"""Testing helpers with 1.9.1's names: comparisons with per-dtype tolerances, random
inputs, default context, and numeric gradient checks."""
from __future__ import annotations

import numpy as np

from . import context as _context
from .base import MXNetError
from .context import Context, current_context

__all__ = ["default_context", "set_default_context", "default_rtols", "default_atols",
           "assert_almost_equal", "almost_equal", "same", "rand_ndarray", "rand_shape_2d",
           "rand_shape_3d", "rand_shape_nd", "check_numeric_gradient", "numeric_grad",
           "assert_exception", "get_tolerance"]

_DEFAULT_RTOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4,
                 np.dtype(np.float64): 1e-5, np.dtype(np.bool_): 0, np.dtype(np.int8): 0,
                 np.dtype(np.uint8): 0, np.dtype(np.int32): 0, np.dtype(np.int64): 0}
_DEFAULT_ATOL = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3,
                 np.dtype(np.float64): 1e-20, np.dtype(np.bool_): 0, np.dtype(np.int8): 0,
                 np.dtype(np.uint8): 0, np.dtype(np.int32): 0, np.dtype(np.int64): 0}


def default_rtols():
    return dict(_DEFAULT_RTOL)


def default_atols():
    return dict(_DEFAULT_ATOL)


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


def get_tolerance(arr, tol, table):
    if tol is not None:
        return tol
    dt = np.asarray(arr).dtype
    return table.get(dt, table[np.dtype(np.float32)])


def _tols(a, b, rtol, atol):
    ra = max(get_tolerance(a, rtol, _DEFAULT_RTOL), get_tolerance(b, rtol, _DEFAULT_RTOL))
    aa = max(get_tolerance(a, atol, _DEFAULT_ATOL), get_tolerance(b, atol, _DEFAULT_ATOL))
    return ra, aa


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """True when ``|a - b| <= atol + rtol * |b|`` elementwise."""
    a, b = _as_np(a), _as_np(b)
    rtol, atol = _tols(a, b, rtol, atol)
    if not use_broadcast and a.shape != b.shape:
        return False
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def assert_almost_equal(a, b, rtol=None, atol=None, names=("a", "b"), equal_nan=False,
                        use_broadcast=True, mismatches=(10, 10)):
    """Raise AssertionError, locating the worst element, unless ``a`` and ``b`` are close.

    Tolerances default per dtype as in 1.9.1 (float16 1e-2/1e-1, float32 1e-4/1e-3,
    float64 1e-5/1e-20).
    """
    a, b = _as_np(a), _as_np(b)
    if not use_broadcast and a.shape != b.shape:
        raise AssertionError(f"shape mismatch: {names[0]} {a.shape} vs {names[1]} {b.shape}")
    rtol, atol = _tols(a, b, rtol, atol)
    af, bf = a.astype(np.float64), b.astype(np.float64)
    if np.allclose(af, bf, rtol=rtol, atol=atol, equal_nan=equal_nan):
        return
    with np.errstate(all="ignore"):
        err = np.abs(af - bf) / (atol + rtol * np.abs(bf))
    err = np.where(np.isnan(err), np.inf, err)
    idx = tuple(int(i) for i in np.unravel_index(np.argmax(err), err.shape)) if err.ndim else ()
    raise AssertionError(
        f"Items are not equal: error {float(err[idx]) if err.ndim else float(err):.6g} exceeds "
        f"tolerance rtol={rtol:.3g}, atol={atol:.3g}. Location of maximum error: {idx}, "
        f"{names[0]}={float(af[idx])!r}, {names[1]}={float(bf[idx])!r}\n"
        f" {names[0]}: {a!r}\n {names[1]}: {b!r}")


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


def rand_ndarray(shape, stype="default", density=None, dtype=None, ctx=None, **kwargs):
    """A random dense NDArray (uniform in [0, 1)) of the given shape."""
    from .ndarray import array
    if stype != "default":
        raise MXNetError(f"rand_ndarray: storage type {stype!r} is not supported")
    data = np.random.uniform(size=shape).astype(dtype or np.float32)
    return array(data, ctx=ctx or default_context(), dtype=data.dtype)


def numeric_grad(f, inputs, eps=1e-4, dtype=np.float64):
    """Central-difference gradient of scalar ``sum(f(*inputs) * head)`` for NumPy inputs.

    ``f`` maps NumPy arrays to a NumPy float64 scalar. Returns one array per input.
    """
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


def check_numeric_gradient(fn, location, aux_states=None, numeric_eps=1e-3, rtol=1e-2,
                           atol=None, grad_nodes=None, use_forward_train=True, ctx=None,
                           grad_stype_dict=None, dtype=np.float64, head_grad_seed=0):
    """Compare autograd gradients of ``fn`` with central differences.

    ``fn`` takes NDArrays (one per entry of ``location``, a list of NumPy arrays or a dict)
    and returns an NDArray or a list of them; the scalar checked is the sum of every output
    times a fixed random head gradient. Computation runs in ``dtype`` (float64 by default)
    so the difference quotient is accurate. A Symbol may be given once mx.sym exists.
    """
    from . import autograd
    from .ndarray import array
    if not callable(fn):
        raise MXNetError("check_numeric_gradient: pass a function of NDArrays (Symbol support "
                         "arrives with mx.sym)")
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
