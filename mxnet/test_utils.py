"""Testing helpers with 1.9.1's names: comparisons with per-dtype tolerances, random
inputs, default context, symbolic forward/backward checks, and numeric gradient checks
of Symbols and of functions of NDArrays."""
from __future__ import annotations

import numpy as np

from . import context as _context
from .base import MXNetError
from .context import Context, current_context

__all__ = ["default_context", "set_default_context", "default_rtols", "default_atols",
           "assert_almost_equal", "almost_equal", "same", "rand_ndarray", "rand_shape_2d",
           "rand_shape_3d", "rand_shape_nd", "check_numeric_gradient", "numeric_grad",
           "assert_exception", "get_tolerance", "check_symbolic_forward",
           "check_symbolic_backward", "default_numeric_eps", "check_consistency"]

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
    from .ndarray import array
    ctx = ex.arg_arrays[0].context if ex.arg_arrays else default_context()
    values = {k: np.array(_as_np(v), dtype=dtype, order="C") for k, v in location.items()}
    for k, v in values.items():
        ex.arg_dict[k][:] = array(v, ctx=ctx, dtype=dtype)

    def objective():
        if aux_states is not None:
            for key, val in aux_states.items():
                ex.aux_dict[key][:] = array(_as_np(val), ctx=ctx, dtype=dtype)
        outs = ex.forward(is_train=use_forward_train)
        if heads is None:
            return outs[0].asnumpy().astype(np.float64).sum()
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
            gflat[i] = (f_plus - f_minus) / eps
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
    from .ndarray import NDArray, array
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
    from .ndarray import array
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
    from .symbol import Symbol
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
    from .ndarray import array
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
    from .ndarray import array
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
