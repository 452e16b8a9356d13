"""``mx.np.random`` samplers whose parameters may be arrays (1.9.1's ``_npi_normal`` family).

Each sampler is one operator. A parameter given as a number is an attribute; a parameter
left None is an array input instead (inputs in the parameter order), so a traced graph holds
the single node 1.9.1 writes. The output shape is ``size`` when given (and not ``()``), else
the broadcast shape of the array parameters. As in 1.9.1, ``size`` only has to be
broadcast-compatible with the parameters: a parameter axis longer than the matching output
axis (or an extra leading axis) is read at index 0.

The reparameterisable samplers (normal, logistic, gumbel, exponential, rayleigh, weibull,
pareto) keep their standard noise as a second, hidden output and differentiate their
parameters pathwise; uniform, gamma and power give zero gradients, as in 1.9.1.

On CPU every sampler here draws 1.9.1's numbers from its single engine (``rc.rng.serial``):
uniform and normal in ``_serial_draw``, the others through ``backend/mt_dists.py``; the
hidden noise is computed from the same uniforms. On GPU the CuPy generator draws.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError, MXNetValueError
from .registry import Param, register

__all__ = []

def _host(v):
    return np.asarray(v.get() if hasattr(v, "get") else v, dtype=np.float64)


def _out_shape(opname, size, shapes):
    """The output shape from ``size`` and the array parameters' shapes."""
    try:
        bshape = np.broadcast_shapes(*shapes) if shapes else ()
    except ValueError:
        raise MXNetError(f"{opname}: the array parameters of shapes {[list(s) for s in shapes]} "
                         "do not broadcast together") from None
    if size is None or len(size) == 0:
        return tuple(bshape)
    size = tuple(size)
    try:
        np.broadcast_shapes(bshape, size)
    except ValueError:
        raise MXNetError(f"{opname}: operands could not be broadcast together with shapes "
                         f"{list(bshape)} {list(size)} (the parameters and size)") from None
    return size


def _fit(p, shape):
    """Parameter ``p`` read at every position of ``shape`` (axes it has beyond it at 0)."""
    if p.ndim == 0:
        return p
    nd = max(p.ndim, len(shape))
    pshape = (1,) * (nd - p.ndim) + p.shape
    oshape = (1,) * (nd - len(shape)) + tuple(shape)
    p = p.reshape(pshape)
    p = p[tuple(slice(0, 1) if ps != os else slice(None) for ps, os in zip(pshape, oshape))]
    return np.broadcast_to(p.reshape(p.shape[nd - len(shape):]), shape)


# noise draws (float64, on the host generator's stream)
def _std_normal(rng, shape):
    return rng.standard_normal(shape, dtype=np.float64)


def _std_exp(rng, shape):
    return rng.standard_exponential(shape)


def _u_open(rng, shape):
    return 1.0 - rng.random(shape)        # in (0, 1]


def _gumbel_noise(rng, shape):
    return -np.log(-np.log(np.clip(_u_open(rng, shape), 0, 1 - 1e-16)))


def _logistic_noise(rng, shape):
    u = np.clip(_u_open(rng, shape), 1e-300, 1 - 1e-16)
    return np.log(u / (1.0 - u))


def _rayleigh_noise(rng, shape):
    return np.sqrt(2.0 * rng.standard_exponential(shape))


# name: (params with defaults, noise or None, transform(v, noise, rng, shape), has dtype,
#        has ctx, the checks 1.9.1 makes {parameter: (strict for arrays, strict for numbers)}:
#        strict means > 0, else >= 0)
def _loc_scale(v, n, rng, shape):
    return v["loc"] + v["scale"] * n


def _scale(v, n, rng, shape):
    return v["scale"] * n


def _uniform(v, n, rng, shape):
    return v["low"] + (v["high"] - v["low"]) * rng.random(shape)


def _gamma(v, n, rng, shape):
    return rng.gamma(v["shape"], v["scale"], shape)


def _weibull(v, n, rng, shape):
    with np.errstate(divide="ignore"):
        return n ** (1.0 / v["a"])


def _pareto(v, n, rng, shape):
    with np.errstate(divide="ignore", over="ignore"):
        return np.exp(n / v["a"]) - 1.0


def _power(v, n, rng, shape):
    with np.errstate(divide="ignore"):
        return (1.0 - np.exp(-rng.standard_exponential(shape))) ** (1.0 / v["a"])


_SPECS = {
    "normal": ((("loc", 0.0), ("scale", 1.0)), _std_normal, _loc_scale, True, True,
               {"scale": (False, False)}),
    "logistic": ((("loc", 0.0), ("scale", 1.0)), _logistic_noise, _loc_scale, False, True,
                 {"scale": (False, False)}),
    "gumbel": ((("loc", 0.0), ("scale", 1.0)), _gumbel_noise, _loc_scale, False, True,
               {"scale": (False, False)}),
    "exponential": ((("scale", 1.0),), _std_exp, _scale, False, True,
                    {"scale": (False, False)}),
    "rayleigh": ((("scale", 1.0),), _rayleigh_noise, _scale, False, True,
                 {"scale": (False, False)}),
    "weibull": ((("a", 1.0),), _std_exp, _weibull, False, True, {"a": (False, True)}),
    "pareto": ((("a", 1.0),), _std_exp, _pareto, False, True, {"a": (False, True)}),
    "uniform": ((("low", 0.0), ("high", 1.0)), None, _uniform, True, True, {}),
    "gamma": ((("shape", 1.0), ("scale", 1.0)), None, _gamma, True, True,
              {"shape": (True, True), "scale": (True, True)}),
    "powerd": ((("a", 1.0),), None, _power, False, False, {"a": (False, True)}),
}


def _serial_draw(gen, name, vals, shape, dt):
    """1.9.1's CPU uniform and normal: float32 draws from its single-engine generator (see
    ``backend/mt_parallel.py``), then ``low + (high - low) * u`` or ``loc + scale * z`` in the
    output type (float32 for float16). Normal also returns its noise, as the hidden output."""
    n = int(np.prod(shape, dtype=np.int64))
    ct = np.dtype(np.float64) if dt == np.float64 else np.dtype(np.float32)
    if name == "uniform":
        lo, hi = (np.asarray(vals[k], dtype=ct) for k in ("low", "high"))
        u = gen.uniform_f32(n).reshape(shape).astype(ct, copy=False)
        return (lo + (hi - lo) * u).astype(dt, copy=False)
    loc, scale = (np.asarray(vals[k], dtype=ct) for k in ("loc", "scale"))
    z = gen.normal_f32(n).reshape(shape)
    y = loc + scale * z.astype(ct, copy=False)
    return y.astype(dt, copy=False), z.astype(dt, copy=False)


class _Recorder:
    """The single engine, keeping the uniforms a sampler draws (for its hidden noise)."""

    def __init__(self, sm):
        self._sm = sm
        self.u = None

    def uniform_f32(self, n):
        self.u = self._sm.uniform_f32(n)
        return self.u


# the hidden noise of each reparameterisable sampler, from its uniforms u (float64)
_NOISE_OF_U = {
    "logistic": lambda u: np.log(u / (1.0 - u)),
    "gumbel": lambda u: -np.log(-np.log(u)),
    "exponential": lambda u: -np.log(u),
    "rayleigh": lambda u: np.sqrt(-2.0 * np.log(u)),
    "weibull": lambda u: -np.log(u),
    "pareto": lambda u: -np.log(u),
}


def _exact_draw(sm, name, vals, shape, dt):
    """1.9.1's CPU sampler (``backend/mt_dists.py``) on the single engine ``sm``: a number
    parameter is an attribute (a C float), an array one is read at every output position.
    Returns the sample and, for the reparameterisable samplers, the noise behind it."""
    from ..backend import mt_dists  # noqa: PLC0415 - loaded with the first such draw
    n = int(np.prod(shape, dtype=np.int64))
    flat = {k: (v if np.ndim(v) == 0 else np.ascontiguousarray(v).reshape(-1))
            for k, v in vals.items()}
    rec = _Recorder(sm)
    with np.errstate(all="ignore"):
        if name == "gamma":
            y = mt_dists.np_gamma(sm, n, flat["shape"], flat["scale"], dt)
        elif name == "powerd":
            y = mt_dists.np_power(sm, n, flat["a"])
            sm.take(0, 1)       # 1.9.1's power draws one word more than it uses
        elif name in ("logistic", "gumbel"):
            y = getattr(mt_dists, "np_" + name)(rec, n, flat["loc"], flat["scale"])
        elif name in ("exponential", "rayleigh"):
            y = getattr(mt_dists, "np_" + name)(rec, n, flat["scale"])
        else:                   # weibull, pareto
            y = getattr(mt_dists, "np_" + name)(rec, n, flat["a"])
        y = np.asarray(y).reshape(shape).astype(dt, copy=False)
        if name not in _NOISE_OF_U:
            return y
        u = rec.u.astype(np.float64) if rec.u is not None else np.zeros(n)
        noise = _NOISE_OF_U[name](u).reshape(shape).astype(dt)
    return y, noise


def _pathwise(name, F, attrs, ins, outs, og):
    """d(sample)/d(parameter) times the output gradient, per array input, reduced to it."""
    g, y, n = og[0], outs[0], outs[1]
    mul, div = F._npi_multiply, F._npi_true_divide
    names = [k for k, _ in _SPECS[name][0] if attrs[k] is None]
    a = ins[0] if names else None
    res = []
    for k, x in zip(names, ins):
        if k == "loc":
            d = g
        elif k == "scale":
            d = mul(g, n)
        elif name == "weibull":   # y = n ** (1/a): dy/da = -y log(n) / a^2
            d = F._npi_negative(div(mul(mul(g, y), F._npi_log(n)), mul(a, a)))
        else:                     # pareto, y = exp(n/a) - 1: dy/da = -(y + 1) n / a^2
            d = F._npi_negative(div(mul(mul(g, F._npi_add_scalar(y, scalar=1.0, is_int=False)),
                                        n), mul(a, a)))
        res.append(F._npi_backward_sample_param(d, x))
    return res


def _zero(F, attrs, ins, outs, og):
    return [F._npi_zeros_like(x) for x in ins]


def _make(name):
    pspecs, noise, transform, has_dtype, has_ctx, checks = _SPECS[name]
    pnames = [k for k, _ in pspecs]
    opname = f"_npi_{name}"
    nout = 1 if noise is None else 2

    def arrays_of(attrs):
        return [k for k in pnames if attrs[k] is None]

    def compute(rc, attrs, *arrays):
        vals = {k: attrs[k] for k in pnames}
        names = arrays_of(attrs)
        hosts = [_host(x) for x in arrays]
        shape = _out_shape(opname, attrs["size"], [h.shape for h in hosts])
        for k, (arr_strict, num_strict) in checks.items():
            v = hosts[names.index(k)] if k in names else vals[k]
            strict = arr_strict if k in names else num_strict
            if bool(np.any((v <= 0) if strict else (v < 0))):
                raise MXNetValueError(f"{opname}: expect {k} {'>' if strict else '>='} 0, got "
                                      f"{'an array with a value out of range' if k in names else v}")
        for k, h in zip(names, hosts):
            vals[k] = rc.xp.asarray(_fit(h, shape))   # on the device, with the noise
        rng = rc.rng
        dt = attrs["dtype"] if has_dtype else np.float32
        serial = getattr(rng, "serial", None)
        if name in ("uniform", "normal") and serial is not None:
            return _serial_draw(rng.serial, name, vals, shape, np.dtype(dt))
        if serial is not None:
            return _exact_draw(serial, name, vals, shape, np.dtype(dt))
        n = noise(rng, shape) if noise is not None else None
        y = rc.xp.asarray(transform(vals, n, rng, shape)).astype(dt)
        if n is None:
            return y
        return y, rc.xp.asarray(n).astype(dt)

    def infer_shape(attrs, ins, outs):
        if any(s is None for s in ins):
            size = attrs["size"]
            if size is not None and len(size) and all(d is not None for d in size):
                return ins, [tuple(size)] * nout, []
            return ins, list(outs), []
        shape = _out_shape(opname, attrs["size"], [tuple(s) for s in ins])
        return ins, [shape] * nout, []

    def infer_type(attrs, ins, outs):
        dt = np.dtype(attrs["dtype"]) if has_dtype else np.dtype(np.float32)
        return ins, [dt] * nout, []

    params = tuple(Param(k, "float", d, optional=True) for k, d in pspecs)
    params += (Param("size", "shape", None),)
    if has_ctx:
        params += (Param("ctx", "str", ""),)
    if has_dtype:
        params += (Param("dtype", "dtype", "float32"),)
    grad = _zero if noise is None else (lambda F, a, i, o, g, _n=name: _pathwise(_n, F, a, i,
                                                                                  o, g))
    compute.__name__ = opname
    register(opname, compute, inputs=arrays_of, nd_hidden=True, needs_rng=True,
             params=params, num_outputs=nout, num_visible_outputs=1,
             output_names=None if nout == 1 else ("output0",), infer_shape=infer_shape,
             infer_type=infer_type, gradient=grad,
             doc=f"Samples of the {name} distribution; parameters left None are array inputs.")


for _name in _SPECS:
    _make(_name)


def _backward_sample_param(rc, attrs, g, like):
    """The gradient ``g`` (output shaped) of a sampler parameter, summed to ``like``'s shape
    (both broadcast against each other first, as 1.9.1's backward does)."""
    xp = rc.xp
    full = np.broadcast_shapes(g.shape, like.shape)
    g = xp.broadcast_to(g, full)
    extra = len(full) - like.ndim
    axes = tuple(range(extra)) + tuple(i + extra for i, s in enumerate(like.shape)
                                       if s == 1 and full[i + extra] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return xp.asarray(g.reshape(like.shape), dtype=like.dtype)


register("_npi_backward_sample_param", _backward_sample_param, inputs=("data", "like"),
         nd_hidden=True)


# --- multivariate_normal in graphs: 1.9.1 writes it as the Python operator "mvn_fallback" ----

def _register_mvn_fallback():
    from ..base import parse_attr
    from .custom import CustomOp, CustomOpProp
    from .custom import register as register_custom

    class _MvnOp(CustomOp):
        def __init__(self, size):
            super().__init__()
            self._size = size

        def forward(self, is_train, req, in_data, out_data, aux):
            from .registry import get_op as _get
            from ..ndarray.ndarray import invoke
            op = _get("_npi_multivariate_normal")
            res = invoke(op, [in_data[0], in_data[1]], op.parse_attrs({"size": self._size}))
            self.assign(out_data[0], req[0], res)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            for r, g in zip(req, in_grad):
                self.assign(g, r, 0)

    class _MvnProp(CustomOpProp):
        def __init__(self, size="None"):
            super().__init__(need_top_grad=True)
            size = parse_attr(size) if isinstance(size, str) else size
            self._size = (size,) if isinstance(size, int) else (tuple(size) if size else None)

        def list_arguments(self):
            return ["mean", "variance"]

        def infer_shape(self, in_shape):
            return in_shape, [tuple(self._size or ()) + tuple(in_shape[0])], []

        def create_operator(self, ctx, in_shapes, in_dtypes):
            return _MvnOp(self._size)

    register_custom("mvn_fallback")(_MvnProp)


_register_mvn_fallback()
