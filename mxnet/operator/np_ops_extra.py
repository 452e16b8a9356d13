"""More NumPy-interface operators: the names 1.9.1's ``mx.sym.np`` front ends put into graphs
(``_np_sum``, ``_np_dot``, ``_npx_relu`` ...), and further ``mx.np`` functions (triangles,
diagonals, traces, integer arithmetic, stacking helpers, ``np.linalg``).

Loaded with :mod:`mxnet.operator.np_ops` (never at ``import mxnet``). Where 1.9.1 has two
operator names for one computation (``_npi_abs`` / ``_npi_absolute``) both are registered
with the same kernel and gradient, so graphs exported by 1.9.1 load and run here and graphs
traced here are written with 1.9.1's names.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from ._common import normalize_axis
from ._gemm_order import gemm
from .np_ops import _CTX_DT, _F32, _no_cpu_half, _tensordot_grad, _zero_grad, promote
from .registry import Param, get_op, register


def _twin(new, old, params=None, compute=None, doc=None):
    """Register ``new`` with ``old``'s kernel, inputs and gradient (optionally more params)."""
    op = get_op(old)
    register(new, compute or op.compute, params=tuple(op.params.values()) if params is None
             else params, inputs=op._inputs, num_outputs=op._num_outputs,
             gradient=op.gradient, variadic=op.variadic, needs_rng=op.needs_rng,
             attr_check=op.attr_check, infer_shape=op.infer_shape, infer_type=op.infer_type,
             nd_hidden=True, doc=doc or op.doc)


# --- twins under 1.9.1's graph names ---------------------------------------------------------

_twin("_npi_absolute", "_npi_abs")
_twin("_npx_relu", "_npi_relu")
_twin("_npx_sigmoid", "_npi_sigmoid")
_twin("_npi_broadcast_to", "_np_broadcast_to")


def _np_sum(rc, attrs, x, _base=get_op("_npi_sum").compute):
    out = _base(rc, attrs, x)
    if attrs["initial"] is not None:
        out = rc.xp.asarray(out + out.dtype.type(attrs["initial"]), dtype=out.dtype)
    return out


_twin("_np_sum", "_npi_sum", compute=_np_sum,
      params=(Param("axis", "shape", None), Param("dtype", "dtype", None),
              Param("keepdims", "bool", False), Param("initial", "float", None)))


# --- dot / tensordot with an integer axes count ----------------------------------------------

def _dot_axes(a_nd, b_nd):
    return (a_nd - 1,), (max(b_nd - 2, 0),)


def _dot(rc, attrs, a, b):
    dt = promote("dot", a.dtype, b.dtype)
    _no_cpu_half("dot", dt, rc)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    if a.ndim and b.ndim and a.shape[-1] != b.shape[max(b.ndim - 2, 0)]:
        raise MXNetError(f"dot: shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} "
                         f"(dim {a.ndim - 1}) != {b.shape[max(b.ndim - 2, 0)]}")
    if a.ndim in (1, 2) and b.ndim in (1, 2) and a.ndim + b.ndim > 2:
        # 1.9.1 keeps vector-shaped products on GEMM (see _gemm_order)
        out = gemm(rc.xp, a.reshape(-1, a.shape[-1]), b.reshape(b.shape[0], -1))
        return out.reshape(a.shape[:-1] + b.shape[1:])
    return rc.xp.asarray(rc.xp.dot(a, b), dtype=dt)


def _dot_grad(F, attrs, ins, outs, og):
    a, b = ins
    if not a.shape or not b.shape:
        g = og[0]
        return [F._np_sum_to_like(F._npi_multiply(g, b), a),
                F._np_sum_to_like(F._npi_multiply(g, a), b)]
    ax_a, ax_b = _dot_axes(len(a.shape), len(b.shape))
    return _tensordot_grad(F, {"a_axes_summed": ax_a, "b_axes_summed": ax_b}, ins, outs, og)


register("_np_dot", _dot, inputs=("a", "b"), nd_hidden=True, gradient=_dot_grad,
         doc="NumPy's dot: products over the last axis of a and the second-to-last of b.")


def _int_axes(attrs, a_nd, b_nd):
    n = attrs["axes"]
    if n < 0 or n > a_nd or n > b_nd:
        raise MXNetError(f"tensordot: axes={n} is out of range for inputs of {a_nd} and {b_nd} "
                         "dimensions")
    return tuple(range(a_nd - n, a_nd)), tuple(range(n))


def _tensordot_int(rc, attrs, a, b):
    ax_a, ax_b = _int_axes(attrs, a.ndim, b.ndim)
    return get_op("_npi_tensordot").compute(rc, {"a_axes_summed": ax_a, "b_axes_summed": ax_b},
                                            a, b)


def _tensordot_int_grad(F, attrs, ins, outs, og):
    ax_a, ax_b = _int_axes(attrs, len(ins[0].shape), len(ins[1].shape))
    return _tensordot_grad(F, {"a_axes_summed": ax_a, "b_axes_summed": ax_b}, ins, outs, og)


register("_npi_tensordot_int_axes", _tensordot_int, inputs=("a", "b"), nd_hidden=True,
         params=(Param("axes", "int"),), gradient=_tensordot_int_grad,
         doc="tensordot over the last ``axes`` axes of a and the first ``axes`` of b.")


# --- stacking helpers ------------------------------------------------------------------------

def _atleast(x, n):
    return x.reshape((1,) * (n - x.ndim) + x.shape) if x.ndim < n else x


def _cat_dtype(name, arrays):
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = promote(name, dt, a.dtype)
    return dt


def _stack_like(name, prep, axis_of):
    def compute(rc, attrs, *arrays):
        arrs = [prep(a) for a in arrays]
        ax = axis_of(arrs)
        nd = arrs[0].ndim
        for a in arrs[1:]:
            if a.ndim != nd or any(s != t for i, (s, t) in enumerate(zip(a.shape, arrs[0].shape))
                                   if i != ax):
                raise MXNetError(f"{name}: all the input array dimensions except for the "
                                 f"concatenation axis must match exactly (shapes "
                                 f"{[tuple(b.shape) for b in arrays]})")
        dt = _cat_dtype(name, arrs)
        return rc.xp.concatenate([a.astype(dt, copy=False) for a in arrs], axis=ax)

    def grad(F, attrs, ins, outs, og):
        shapes = [tuple(x.shape) for x in ins]
        arrs = [np.empty(prep(np.empty(s)).shape) for s in shapes]
        ax = axis_of(arrs)
        res, start = [], 0
        for s, a in zip(shapes, arrs):
            n = a.shape[ax]
            piece = F.slice_axis(og[0], axis=ax, begin=start, end=start + n)
            res.append(F._np_reshape(piece, newshape=s))
            start += n
        return res

    register(f"_npi_{name}", compute, variadic="num_args", nd_hidden=True, gradient=grad,
             params=(Param("num_args", "int", 1),),
             doc=f"NumPy's {name}: join arrays (1.9.1's rules for low-dimensional inputs).")


_stack_like("hstack", lambda a: _atleast(a, 1), lambda arrs: 0 if arrs[0].ndim == 1 else 1)
_stack_like("vstack", lambda a: _atleast(a, 2), lambda arrs: 0)
_stack_like("column_stack", lambda a: a.reshape(-1, 1) if a.ndim < 2 else a, lambda arrs: 1)
_stack_like("dstack", lambda a: (a.reshape(1, -1, 1) if a.ndim == 1 else
                                 a.reshape(a.shape + (1,)) if a.ndim == 2 else _atleast(a, 3)),
            lambda arrs: 2)


# --- moveaxis ---------------------------------------------------------------------------------

def _move_order(attrs, nd):
    src = [normalize_axis("moveaxis", a, nd) for a in attrs["source"]]
    dst = [normalize_axis("moveaxis", a, nd) for a in attrs["destination"]]
    if len(src) != len(dst):
        raise MXNetError(f"moveaxis: source {attrs['source']} and destination "
                         f"{attrs['destination']} must have the same number of elements")
    order = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return tuple(order)


def _moveaxis(rc, attrs, x):
    return rc.xp.transpose(x, _move_order(attrs, x.ndim))


def _moveaxis_grad(F, attrs, ins, outs, og):
    order = _move_order(attrs, len(ins[0].shape))
    return [F._np_transpose(og[0], axes=tuple(int(i) for i in np.argsort(order)))]


register("_np_moveaxis", _moveaxis, inputs=("a",), nd_hidden=True, gradient=_moveaxis_grad,
         params=(Param("source", "shape"), Param("destination", "shape")))


# --- creation from a prototype, identity -----------------------------------------------------

def _full_like(rc, attrs, x):
    dt = x.dtype if attrs["dtype"] is None else np.dtype(attrs["dtype"])
    return rc.xp.full(x.shape, attrs["fill_value"], dtype=dt)


register("_npi_full_like", _full_like, inputs=("a",), nd_hidden=True, gradient=_zero_grad,
         params=(Param("fill_value", "float"), Param("ctx", "str", ""),
                 Param("dtype", "dtype", None)))


def _identity(rc, attrs):
    shape = attrs["shape"]
    return rc.xp.eye(shape[0], shape[1] if len(shape) > 1 else None, dtype=attrs["dtype"])


register("_npi_identity", _identity, inputs=(), nd_hidden=True,
         params=(Param("shape", "shape"),) + _CTX_DT)


# --- where with scalar branches --------------------------------------------------------------

def _where_scalar(side):
    def compute(rc, attrs, cond, other):
        v = other.dtype.type(attrs["scalar"])
        c = cond.astype(bool)
        x, y = (v, other) if side == "l" else (other, v)
        try:
            return rc.xp.asarray(rc.xp.where(c, x, y), dtype=other.dtype)
        except ValueError:
            raise MXNetError(f"where: condition {cond.shape} and operand {other.shape} do not "
                             "broadcast") from None

    def grad(F, attrs, ins, outs, og):
        c, other = ins
        g = og[0]
        zero = F._npi_zeros_like(g)
        kept = F._npi_where(c, zero, g) if side == "l" else F._npi_where(c, g, zero)
        return [None, F._np_sum_to_like(kept, other)]

    name = f"_npi_where_{side}scalar"
    register(name, compute, inputs=("condition", "y" if side == "l" else "x"), nd_hidden=True,
             params=(Param("scalar", "float", 0.0),), gradient=grad)


_where_scalar("l")
_where_scalar("r")


def _where_scalar2(rc, attrs, cond):
    return rc.xp.where(cond.astype(bool), np.float32(attrs["x"]), np.float32(attrs["y"])).astype(
        _F32)


register("_npi_where_scalar2", _where_scalar2, inputs=("condition",), nd_hidden=True,
         params=(Param("x", "float", 0.0), Param("y", "float", 0.0)), gradient=_zero_grad)



# =============================================================================================
# further mx.np operators

def _swap_last(F, x):
    return F._npi_swapaxes(x, dim1=-1, dim2=-2)


# --- take ---------------------------------------------------------------------------------

def _take_index(attrs, idx, n, name="take"):
    idx = idx.astype(np.int64)
    mode = attrs["mode"]
    if mode == "clip":
        return idx.clip(0, max(n - 1, 0))
    if mode == "wrap":
        return idx % max(n, 1)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise MXNetError(f"{name}: index out of range for axis of size {n} (mode='raise')")
    return idx % max(n, 1)


def _take(rc, attrs, a, idx):
    axis = attrs["axis"]
    src = a.reshape(-1) if axis is None else a
    ax = 0 if axis is None else normalize_axis("take", axis, a.ndim)
    return rc.xp.take(src, _take_index(attrs, idx, src.shape[ax]), axis=ax)


def _take_backward(rc, attrs, g, idx, like):
    xp = rc.xp
    axis = attrs["axis"]
    flat_shape = (like.size,) if axis is None else like.shape
    ax = 0 if axis is None else normalize_axis("take", axis, like.ndim)
    out = xp.zeros(flat_shape, dtype=g.dtype)
    ii = _take_index(attrs, idx, flat_shape[ax]).reshape(-1)
    moved = xp.moveaxis(out, ax, 0)
    gm = g.reshape(flat_shape[:ax] + (ii.size,) + flat_shape[ax + 1:])
    xp.add.at(moved, ii, xp.moveaxis(gm, ax, 0))
    return out.reshape(like.shape)


_TAKE_PARAMS = (Param("axis", "int", None), Param("mode", "str", "raise",
                                                 choices=("raise", "wrap", "clip")))
register("_npi_take_backward", _take_backward, inputs=("ograd", "indices", "like"),
         nd_hidden=True, params=_TAKE_PARAMS)
register("_npi_take", _take, inputs=("a", "indices"), nd_hidden=True, params=_TAKE_PARAMS,
         gradient=lambda F, at, ins, outs, og: [F._npi_take_backward(og[0], ins[1], ins[0], **at),
                                               None])


# --- triangles, diagonals, traces ---------------------------------------------------------

def _tril(rc, attrs, x):
    if x.ndim < 1:
        raise MXNetError(f"tril: input must be at least 1-d, got shape {x.shape}")
    fn = rc.xp.tril if attrs["lower"] else rc.xp.triu
    return fn(x, attrs["k"])


register("_npi_tril", _tril, inputs=("a",), nd_hidden=True,
         params=(Param("k", "int", 0), Param("lower", "bool", True)),
         gradient=lambda F, at, ins, outs, og: [F._npi_tril(og[0], **at)])


def _diag_axes(attrs, nd, name):
    a1 = normalize_axis(name, attrs["axis1"], nd)
    a2 = normalize_axis(name, attrs["axis2"], nd)
    if a1 == a2:
        raise MXNetError(f"{name}: axis1 and axis2 cannot be the same ({attrs['axis1']})")
    return a1, a2


def _diagonal(rc, attrs, x):
    if x.ndim < 2:
        raise MXNetError(f"diagonal: input must be at least 2-d, got shape {x.shape}")
    a1, a2 = _diag_axes(attrs, x.ndim, "diagonal")
    return rc.xp.diagonal(x, attrs["offset"], a1, a2).copy()


def _diagonal_backward(rc, attrs, g, like):
    xp = rc.xp
    a1, a2 = _diag_axes(attrs, like.ndim, "diagonal")
    out = xp.zeros(like.shape, dtype=g.dtype)
    view = xp.diagonal(out, attrs["offset"], a1, a2)
    n = view.shape[-1]
    moved = xp.moveaxis(out, (a1, a2), (-2, -1))
    off = attrs["offset"]
    r = xp.arange(n) + (0 if off >= 0 else -off)
    c = xp.arange(n) + (off if off >= 0 else 0)
    moved[..., r, c] = g
    return out


_DIAG_PARAMS = (Param("offset", "int", 0), Param("axis1", "int", 0), Param("axis2", "int", 1))
register("_np_diagonal_backward", _diagonal_backward, inputs=("ograd", "like"), nd_hidden=True,
         params=_DIAG_PARAMS)
register("_np_diagonal", _diagonal, inputs=("data",), nd_hidden=True, params=_DIAG_PARAMS,
         gradient=lambda F, at, ins, outs, og: [F._np_diagonal_backward(og[0], ins[0], **at)])


def _trace(rc, attrs, x):
    if x.ndim < 2:
        raise MXNetError(f"trace: input must be at least 2-d, got shape {x.shape}")
    a1, a2 = _diag_axes(attrs, x.ndim, "trace")
    return rc.xp.asarray(rc.xp.trace(x, attrs["offset"], a1, a2), dtype=x.dtype)


def _trace_grad(F, attrs, ins, outs, og):
    x = ins[0]
    a1, a2 = _diag_axes(attrs, len(x.shape), "trace")
    n = np.diagonal(np.empty(x.shape, dtype=np.bool_), attrs["offset"], a1, a2).shape
    g = F._np_broadcast_to(F._npi_expand_dims(og[0], axis=-1), shape=n)
    return [F._np_diagonal_backward(g, x, **attrs)]


register("_np_trace", _trace, inputs=("data",), nd_hidden=True, params=_DIAG_PARAMS,
         gradient=_trace_grad)


def _diag(rc, attrs, x):
    if x.ndim not in (1, 2):
        raise MXNetError(f"diag: input must be 1-d or 2-d, got shape {x.shape}")
    return rc.xp.diag(x, attrs["k"]).copy()


def _diag_grad(F, attrs, ins, outs, og):
    if len(ins[0].shape) == 1:
        return [F._np_diag(og[0], k=attrs["k"])]
    return [F._np_diagonal_backward(og[0], ins[0], offset=attrs["k"], axis1=0, axis2=1)]


register("_np_diag", _diag, inputs=("data",), nd_hidden=True, params=(Param("k", "int", 0),),
         gradient=_diag_grad)


# --- roll, rot90, pad ---------------------------------------------------------------------

def _roll(rc, attrs, x):
    shift, axis = attrs["shift"], attrs["axis"]
    if axis is None:
        if len(shift) != 1:
            raise MXNetError(f"roll: shift {shift} must be one int when axis is None")
        return rc.xp.roll(x, shift[0])
    if len(shift) not in (1, len(axis)):
        raise MXNetError(f"roll: shift {shift} and axis {axis} must have the same length")
    axes = tuple(normalize_axis("roll", a, x.ndim) for a in axis)
    return rc.xp.roll(x, shift if len(shift) > 1 else shift * len(axes), axes)


register("_np_roll", _roll, inputs=("data",), nd_hidden=True,
         params=(Param("shift", "shape"), Param("axis", "shape", None)),
         gradient=lambda F, at, ins, outs, og: [F._np_roll(
             og[0], shift=tuple(-s for s in at["shift"]), axis=at["axis"])])


def _rot90(rc, attrs, x):
    axes = attrs["axes"]
    if len(axes) != 2 or x.ndim < 2:
        raise MXNetError(f"rot90: axes {axes} must name two axes of a >=2-d input (shape "
                         f"{x.shape})")
    a = tuple(normalize_axis("rot90", v, x.ndim) for v in axes)
    if a[0] == a[1]:
        raise MXNetError(f"rot90: axes must be different, got {axes}")
    return rc.xp.rot90(x, attrs["k"], a).copy()


register("_npi_rot90", _rot90, inputs=("data",), nd_hidden=True,
         params=(Param("k", "int", 1), Param("axes", "shape", (0, 1))),
         gradient=lambda F, at, ins, outs, og: [F._npi_rot90(og[0], k=-at["k"],
                                                             axes=at["axes"])])


def _pad(rc, attrs, x):
    pw = tuple(tuple(int(v) for v in p) for p in attrs["pad_width"])
    if len(pw) != x.ndim or any(len(p) != 2 or min(p) < 0 for p in pw):
        raise MXNetError(f"pad: pad_width {attrs['pad_width']} must give (before, after) >= 0 "
                         f"for each of the {x.ndim} axes of shape {x.shape}")
    mode = attrs["mode"]
    if mode == "constant":
        return rc.xp.pad(x, pw, mode="constant", constant_values=attrs["constant_value"])
    return rc.xp.pad(x, pw, mode=mode)


def _pad_grad(F, attrs, ins, outs, og):
    if attrs["mode"] != "constant":
        raise MXNetError(f"pad: the gradient is only implemented for mode='constant', not "
                         f"{attrs['mode']!r}")
    shape = ins[0].shape
    key = tuple(slice(int(p[0]), int(p[0]) + n) for p, n in zip(attrs["pad_width"], shape))
    return [F._np_getitem(og[0], key=key)]


register("_npi_pad", _pad, inputs=("data",), nd_hidden=True, gradient=_pad_grad,
         params=(Param("pad_width", "any"), Param("mode", "str", "constant",
                                                   choices=("constant", "edge", "reflect",
                                                            "symmetric", "wrap", "maximum",
                                                            "minimum", "mean", "median")),
                 Param("constant_value", "float", 0.0)))


# --- more elementwise binary ops (array-array; the front ends make scalars 0-d arrays) -----

def _elem_binary(name, fn, grad=None, integer=False, float_out=False, keep_int=False):
    def compute(rc, attrs, a, b, _fn=fn, _n=f"_npi_{name}"):
        dt = promote(_n, a.dtype, b.dtype)
        if integer and dt.kind not in "iub":
            raise MXNetError(f"{name}: only integer (or bool) inputs are supported, got "
                             f"{a.dtype} and {b.dtype}")
        if keep_int and a.dtype == b.dtype and dt.kind in "iu":
            # 1.9.1 keeps two same-typed integer operands' dtype (the value is truncated)
            with np.errstate(over="ignore", invalid="ignore"):
                out = _fn(rc.xp, a.astype(np.float64), b.astype(np.float64))
            return rc.xp.asarray(out).astype(dt)
        if float_out and dt.kind in "iub":
            dt = _F32
        try:
            out = _fn(rc.xp, a.astype(dt, copy=False), b.astype(dt, copy=False))
        except ValueError:
            raise MXNetError(f"{name}: operands could not be broadcast together with shapes "
                             f"{a.shape} ({a.dtype}) and {b.shape} ({b.dtype})") from None
        return rc.xp.asarray(out, dtype=dt if out.dtype != np.bool_ else None)

    def full_grad(F, attrs, ins, outs, og):
        gx, gy = grad(F, ins[0], ins[1], outs[0], og[0])
        return [F._np_sum_to_like(gx, ins[0]), F._np_sum_to_like(gy, ins[1])]

    register(f"_npi_{name}", compute, inputs=("x1", "x2"), nd_hidden=True,
             gradient=full_grad if grad is not None else _zero_grad)


def _hypot_grad(F, x, y, z, g):
    return (F._npi_multiply(g, F._npi_true_divide(x, z)),
            F._npi_multiply(g, F._npi_true_divide(y, z)))


def _arctan2_grad(F, x, y, z, g):
    den = F._npi_add(F._npi_multiply(x, x), F._npi_multiply(y, y))
    return (F._npi_multiply(g, F._npi_true_divide(y, den)),
            F._npi_negative(F._npi_multiply(g, F._npi_true_divide(x, den))))


def _copysign_grad(F, x, y, z, g):
    same = F._npi_equal(F._npi_sign(x), F._npi_sign(z))
    s = F._npi_subtract_scalar(F._npi_multiply_scalar(same, scalar=2.0, is_int=True),
                               scalar=1.0, is_int=True)
    return F._npi_multiply(g, s), F._npi_zeros_like(y)


def _ldexp_grad(F, x, y, z, g):
    return (F._npi_multiply(g, F._npi_rpower_scalar(y, scalar=2.0, is_int=True)),
            F._npi_multiply_scalar(F._npi_multiply(g, z), scalar=float(np.log(2.0)),
                                   is_int=False))


_elem_binary("hypot", lambda xp, a, b: xp.hypot(a, b), _hypot_grad, float_out=True)
_elem_binary("arctan2", lambda xp, a, b: xp.arctan2(a, b), _arctan2_grad, float_out=True)
_elem_binary("copysign", lambda xp, a, b: xp.copysign(a, b), _copysign_grad, float_out=True,
             keep_int=True)
_elem_binary("ldexp", lambda xp, a, b: a * xp.power(2.0, b).astype(a.dtype), _ldexp_grad,
             float_out=True, keep_int=True)
def _int_ufunc(f):
    def run(xp, a, b):
        if a.dtype == np.bool_ and f in ("lcm", "gcd"):   # no bool loop: as int8, back to bool
            return getattr(xp, f)(a.astype(np.int8), b.astype(np.int8)).astype(np.bool_)
        return getattr(xp, f)(a, b)
    return run


for _nm in ("lcm", "gcd", "bitwise_and", "bitwise_or", "bitwise_xor"):
    _elem_binary(_nm, _int_ufunc(_nm), integer=True)


def _unary_plain(name, fn, grad=None, out_dtype=None):
    def compute(rc, attrs, x, _fn=fn):
        out = _fn(rc.xp, x)
        return rc.xp.asarray(out, dtype=out_dtype)
    register(f"_npi_{name}", compute, inputs=("x",), nd_hidden=True,
             gradient=grad or _zero_grad)


_unary_plain("isposinf", lambda xp, x: xp.isposinf(x) if x.dtype.kind == "f" else
             xp.zeros(x.shape, dtype=bool))
_unary_plain("isneginf", lambda xp, x: xp.isneginf(x) if x.dtype.kind == "f" else
             xp.zeros(x.shape, dtype=bool))


def _bitwise_not(xp, x):
    if x.dtype.kind not in "iub":
        raise MXNetError(f"bitwise_not: only integer (or bool) inputs are supported, got "
                         f"{x.dtype}")
    return xp.invert(x)


_unary_plain("bitwise_not", _bitwise_not)


def _nan_to_num(rc, attrs, x):
    if x.dtype.kind != "f":
        return x.copy()
    return rc.xp.nan_to_num(x, copy=True, nan=attrs["nan"], posinf=attrs["posinf"],
                            neginf=attrs["neginf"])


register("_npi_nan_to_num", _nan_to_num, inputs=("data",), nd_hidden=True,
         params=(Param("copy", "bool", True), Param("nan", "float", 0.0),
                 Param("posinf", "float", None), Param("neginf", "float", None)),
         gradient=lambda F, at, ins, outs, og: [F._npi_multiply(og[0],
                                                                F._npi_isfinite(ins[0]))])


# --- einsum -------------------------------------------------------------------------------

def _einsum_parts(subscripts, n):
    s = subscripts.replace(" ", "")
    if "->" in s:
        lhs, out = s.split("->")
    else:
        lhs = s
        letters = lhs.replace(",", "").replace(".", "")
        out = ("..." if "..." in lhs else "") + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1))
    ins = lhs.split(",")
    if len(ins) != n:
        raise MXNetError(f"einsum: subscripts {subscripts!r} name {len(ins)} operands, got {n}")
    return ins, out


_EINSUM_F64_MAX = 65536


def _einsum(rc, attrs, *ops):
    dt = _cat_dtype("einsum", list(ops))
    # 1.9.1's einsum (optimize=False, its default) carries float16 in float32 and float32 in
    # float64, and rounds the result once (bit for bit in a sweep over products, traces,
    # contractions of 2 and 3 operands and '...'); optimize=True takes other paths there.
    # Carried in float64 NumPy's loops take 1.2-4x as long, so operands of more than
    # _EINSUM_F64_MAX elements in all keep float32.
    work = dt
    if dt == np.float16:
        work = np.dtype(np.float32)
    elif dt == np.float32 and not attrs.get("optimize") and \
            sum(o.size for o in ops) <= _EINSUM_F64_MAX:
        work = np.dtype(np.float64)
    try:
        return rc.xp.asarray(rc.xp.einsum(attrs["subscripts"],
                                          *[o.astype(work, copy=False) for o in ops])
                             ).astype(dt, copy=False)
    except ValueError as e:
        raise MXNetError(f"einsum: {e} (subscripts {attrs['subscripts']!r}, shapes "
                         f"{[tuple(o.shape) for o in ops]})") from None


def _einsum_grad(F, attrs, ins, outs, og):
    subs, out = _einsum_parts(attrs["subscripts"], len(ins))
    res = []
    for i, x in enumerate(ins):
        if len(set(subs[i].replace(".", ""))) != len(subs[i].replace(".", "")) or \
                "." in attrs["subscripts"]:
            # repeated indices or '...': a dedicated (first-order) backward kernel
            res.append(F._npi_einsum_backward(og[0], *ins, subscripts=attrs["subscripts"],
                                              index=i, num_args=len(ins) + 1))
            continue
        others = [s for j, s in enumerate(subs) if j != i]
        expr = ",".join([out] + others) + "->" + subs[i]
        have = set(out + "".join(others))
        missing = [c for c in subs[i] if c not in have]
        if missing:  # indices summed away only inside operand i: broadcast back
            keep = "".join(c for c in subs[i] if c in have)
            g = F._npi_einsum(og[0], *[ins[j] for j in range(len(ins)) if j != i],
                              subscripts=",".join([out] + others) + "->" + keep,
                              num_args=len(ins))
            shape = tuple(1 if c in missing else n for c, n in zip(subs[i], x.shape))
            g = F._np_broadcast_to(F._np_reshape(g, newshape=shape), shape=tuple(x.shape))
        else:
            g = F._npi_einsum(og[0], *[ins[j] for j in range(len(ins)) if j != i],
                              subscripts=expr, num_args=len(ins))
        res.append(g)
    return res


def _einsum_explicit(subscripts, shapes):
    """(operand subscripts, output subscripts) with '...' replaced by fresh letters, and the
    full size of every letter."""
    ins, out = _einsum_parts(subscripts, len(shapes))
    used = set("".join(ins) + out)
    fresh = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in used]
    n_ell = [len(shp) - len(s.replace("...", "")) if "..." in s else 0
             for s, shp in zip(ins, shapes)]
    e = max(n_ell + [0])
    ell = "".join(fresh[:e])
    ins = [s.replace("...", ell[e - k:]) for s, k in zip(ins, n_ell)]
    out = out.replace("...", ell)
    size = {}
    for s, shp in zip(ins, shapes):
        for c, n in zip(s, shp):
            size[c] = max(size.get(c, 1), int(n))
    return ins, out, size


def _einsum_backward(rc, attrs, g, *ops):
    """The gradient of einsum for operand ``index`` when its subscripts repeat an index or use
    '...': the other operands are broadcast to full size, the gradient is formed over the
    operand's distinct indices, written onto its diagonals and summed back to its shape."""
    xp = rc.xp
    i = attrs["index"]
    ins, out, size = _einsum_explicit(attrs["subscripts"], [o.shape for o in ops])
    full = [xp.broadcast_to(o, tuple(size[c] for c in s)) for s, o in zip(ins, ops)]
    uniq = "".join(dict.fromkeys(ins[i]))
    others = [j for j in range(len(ops)) if j != i]
    have = set(out + "".join(ins[j] for j in others))
    keep = "".join(c for c in uniq if c in have)
    gu = xp.einsum(",".join([out] + [ins[j] for j in others]) + "->" + keep,
                   g, *[full[j] for j in others])
    gu = xp.broadcast_to(gu.reshape(tuple(size[c] if c in have else 1 for c in uniq)),
                         tuple(size[c] for c in uniq))
    res = xp.zeros(tuple(size[c] for c in ins[i]), dtype=g.dtype)
    xp.einsum(ins[i] + "->" + uniq, res)[...] += gu   # a writable view of the diagonals
    x = ops[i]
    extra = res.ndim - x.ndim
    axes = tuple(range(extra)) + tuple(k + extra for k, n in enumerate(x.shape)
                                       if n == 1 and res.shape[k + extra] != 1)
    if axes:
        res = res.sum(axis=axes, keepdims=True)
    return res.reshape(x.shape).astype(x.dtype, copy=False)


register("_npi_einsum_backward", _einsum_backward, variadic="num_args", nd_hidden=True,
         params=(Param("num_args", "int", 2), Param("subscripts", "str", ""),
                 Param("index", "int", 0)))


register("_npi_einsum", _einsum, variadic="num_args", nd_hidden=True, gradient=_einsum_grad,
         params=(Param("num_args", "int", 1), Param("subscripts", "str", ""),
                 Param("optimize", "int", 0)))


# --- data-dependent shapes: unique, nonzero, bincount, histogram ----------------------------

def _unique_count(attrs):
    return 1 + int(attrs["return_index"]) + int(attrs["return_inverse"]) + \
        int(attrs["return_counts"])


def _unique(rc, attrs, x):
    xp = rc.xp
    axis = attrs["axis"]
    if axis is not None:
        axis = normalize_axis("unique", axis, x.ndim)
    res = xp.unique(x, return_index=attrs["return_index"],
                    return_inverse=attrs["return_inverse"],
                    return_counts=attrs["return_counts"], axis=axis)
    if not isinstance(res, tuple):
        return res
    out = [res[0]] + [xp.asarray(r, dtype=np.int64).reshape(-1) for r in res[1:]]
    return tuple(out)


register("_npi_unique", _unique, inputs=("data",), nd_hidden=True, num_outputs=_unique_count,
         gradient=_zero_grad,   # 1.9.1 passes a zero gradient through unique
         params=(Param("return_index", "bool", False), Param("return_inverse", "bool", False),
                 Param("return_counts", "bool", False), Param("axis", "int", None)))


def _nonzero(rc, attrs, x):
    return rc.xp.asarray(rc.xp.argwhere(x), dtype=np.int64).reshape(-1, max(x.ndim, 1))


register("_npi_nonzero", _nonzero, inputs=("x",), nd_hidden=True,
         doc="Indices of the nonzero elements, one row per element (N, ndim) in int64.")


def _bincount(rc, attrs, x, *w):
    if x.dtype.kind not in "iu":
        raise MXNetError(f"bincount: input must be an integer array, got {x.dtype}")
    if x.ndim != 1:
        raise MXNetError(f"bincount: input must be 1-d, got shape {x.shape}")
    if x.size and x.min() < 0:
        raise MXNetError("bincount: input must be non-negative")
    out = rc.xp.bincount(x, weights=w[0] if w else None, minlength=attrs["minlength"])
    # 1.9.1: the counts in the input's dtype (wrapping, e.g. 300 in uint8 is 44)
    return out.astype(w[0].dtype if w else x.dtype, copy=False)


register("_npi_bincount", _bincount, nd_hidden=True,
         inputs=lambda at: ("data", "weights") if at["has_weights"] else ("data",),
         params=(Param("minlength", "int", 0), Param("has_weights", "bool", False)))


def _histogram(rc, attrs, x, *bins):
    xp = rc.xp
    if bins:
        cnt, edges = xp.histogram(x, bins=bins[0])
    else:
        rng = attrs["range"]
        if rng is None:
            rng = (float(x.min()), float(x.max())) if x.size else (0.0, 1.0)
        cnt, edges = xp.histogram(x, bins=attrs["bin_cnt"], range=tuple(rng))
    return xp.asarray(cnt, dtype=np.int64), xp.asarray(edges, dtype=x.dtype)


register("_npi_histogram", _histogram, nd_hidden=True, num_outputs=2,
         inputs=lambda at: ("data",) if at["bin_cnt"] is not None else ("data", "bins"),
         params=(Param("bin_cnt", "int", None), Param("range", "tuple_float", None)))


def _percentile(rc, attrs, x):
    axis = attrs["axis"]
    if axis is not None:
        axis = tuple(normalize_axis("percentile", a, x.ndim) for a in axis)
    q = np.asarray(attrs["q"] if attrs["q_scalar"] is None else attrs["q_scalar"],
                   dtype=np.float64)
    if q.size and (q.min() < 0 or q.max() > 100):
        raise MXNetError(f"percentile: percentiles must be in the range [0, 100], got "
                         f"{q.tolist()}")
    qv = q if attrs["q_is_seq"] and attrs["q_scalar"] is None else q.reshape(())
    if attrs["interpolation"] in ("linear", "nearest") and x.size:
        return _percentile_191(rc.xp, x, qv, axis, attrs["interpolation"], attrs["keepdims"],
                               attrs["q_f32"])
    out = rc.xp.percentile(x.astype(np.float64), qv, axis=axis, method=attrs["interpolation"],
                           keepdims=attrs["keepdims"])
    # as 1.9.1: float64 stays float64, every other dtype (float16 too) gives float32
    return rc.xp.asarray(out, dtype=x.dtype if x.dtype == np.float64 else _F32)


def _percentile_191(xp, x, q, axis, method, keepdims, q_f32=False):
    """1.9.1's 'linear' and 'nearest' percentiles: the position q * (n-1) / 100 rounded to
    float32 (computed in float32 for a float32 array of q); 'nearest' takes the element at
    that position rounded half away from zero, 'linear' sums the two neighbours weighted by
    float32 weights (in float64 for float64 input, each product rounded to float16 for
    float16 input, float32 otherwise)."""
    axes = tuple(range(x.ndim)) if axis is None else axis
    rest = [i for i in range(x.ndim) if i not in axes]
    n = int(np.prod([x.shape[i] for i in axes]))
    lead = tuple(x.shape[i] for i in rest)
    srt = xp.sort(xp.transpose(x, rest + list(axes)).reshape(lead + (n,)), axis=-1)
    acc = np.float64 if x.dtype == np.float64 else np.float32
    outs = []
    for qq in q.reshape(-1):
        if q_f32:
            pos = np.float32(np.float32(qq) * np.float32(n - 1)) / np.float32(100)
        else:
            pos = np.float32(qq * (n - 1) / 100.0)
        lo = int(np.floor(pos))
        if method == "nearest":
            k = min(int(np.floor(pos + np.float32(0.5))), n - 1)
            outs.append(srt[..., k].astype(acc))
            continue
        hi = min(lo + 1, n - 1)
        w_hi = np.float32(pos - np.float32(lo))
        w_lo = np.float32(1) - w_hi
        a, b = srt[..., lo].astype(acc), srt[..., hi].astype(acc)
        if x.dtype == np.float16:
            outs.append((a * w_lo).astype(np.float16).astype(_F32) +
                        (b * w_hi).astype(np.float16).astype(_F32))
        else:
            outs.append(a * acc(w_lo) + b * acc(w_hi))
    out = xp.stack(outs).reshape(q.shape + lead)
    if keepdims:
        kept = list(x.shape)
        for i in axes:
            kept[i] = 1
        out = out.reshape(q.shape + tuple(kept))
    return out


register("_npi_percentile", _percentile, inputs=("a",), nd_hidden=True, gradient=_zero_grad,
         params=(Param("q", "tuple_float", ()), Param("q_scalar", "float", None),
                 Param("q_is_seq", "bool", False), Param("q_f32", "bool", False),
                 Param("axis", "shape", None), Param("keepdims", "bool", False),
                 Param("interpolation", "str", "linear",
                       choices=("linear", "lower", "higher", "midpoint", "nearest"))))


# --- creation: logspace, indices, windows -------------------------------------------------

def _logspace(rc, attrs):
    return rc.xp.logspace(attrs["start"], attrs["stop"], attrs["num"],
                          endpoint=attrs["endpoint"], base=attrs["base"]).astype(attrs["dtype"])


register("_npi_logspace", _logspace, inputs=(), nd_hidden=True,
         params=(Param("start", "float"), Param("stop", "float"), Param("num", "int", 50),
                 Param("endpoint", "bool", True), Param("base", "float", 10.0)) + _CTX_DT)


def _indices(rc, attrs):
    return rc.xp.indices(attrs["dimensions"], dtype=attrs["dtype"])


register("_npi_indices", _indices, inputs=(), nd_hidden=True,
         params=(Param("dimensions", "shape"), Param("ctx", "str", ""),
                 Param("dtype", "dtype", "int32")))

for _w in ("blackman", "hamming", "hanning"):
    register(f"_npi_{_w}", (lambda f: (lambda rc, attrs: getattr(rc.xp, f)(attrs["M"]).astype(
        attrs["dtype"])))(_w), inputs=(), nd_hidden=True, params=(Param("M", "int"),) + _CTX_DT)


# --- linear algebra -------------------------------------------------------------------------

def _sq(name, a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise MXNetError(f"{name}: expected a (batch of) square matrices, got shape {a.shape}")
    if a.dtype.kind != "f":
        raise MXNetError(f"{name}: expected a floating-point array, got {a.dtype}")


def _lin(name, fn):
    def compute(rc, attrs, *xs):
        _sq(name, xs[0])
        try:
            return fn(rc.xp, attrs, *xs)
        except np.linalg.LinAlgError as e:
            raise MXNetError(f"{name}: {e} (shape {xs[0].shape})") from None
    return compute


def _inv_grad(F, attrs, ins, outs, og):
    yt = _swap_last(F, outs[0])
    return [F._npi_negative(F._npi_matmul(F._npi_matmul(yt, og[0]), yt))]


def _det_grad(F, attrs, ins, outs, og):
    scale = F._npi_expand_dims(F._npi_expand_dims(F._npi_multiply(og[0], outs[0]), axis=-1),
                               axis=-1)
    return [F._npi_multiply(scale, _swap_last(F, F._npi_inv(ins[0])))]


def _slogdet_grad(F, attrs, ins, outs, og):
    scale = F._npi_expand_dims(F._npi_expand_dims(og[1], axis=-1), axis=-1)
    return [F._npi_multiply(scale, _swap_last(F, F._npi_inv(ins[0])))]


register("_npi_inv", _lin("inv", lambda xp, at, a: xp.linalg.inv(a)), inputs=("A",),
         nd_hidden=True, gradient=_inv_grad)
register("_npi_det", _lin("det", lambda xp, at, a: xp.asarray(xp.linalg.det(a), dtype=a.dtype)),
         inputs=("A",), nd_hidden=True, gradient=_det_grad)


def _slogdet(xp, at, a):
    s, l = xp.linalg.slogdet(a)
    return xp.asarray(s, dtype=a.dtype), xp.asarray(l, dtype=a.dtype)


register("_npi_slogdet", _lin("slogdet", _slogdet), inputs=("A",), nd_hidden=True,
         num_outputs=2, gradient=_slogdet_grad)
def _cholesky_grad(F, attrs, ins, outs, og):
    return [F._npi_backward_cholesky(og[0], outs[0], lower=attrs["lower"])]


register("_npi_cholesky", _lin("cholesky", lambda xp, at, a: xp.linalg.cholesky(
    a if at["lower"] else xp.swapaxes(a, -1, -2)) if at["lower"] else xp.swapaxes(
        xp.linalg.cholesky(xp.swapaxes(a, -1, -2)), -1, -2)), inputs=("A",), nd_hidden=True,
    params=(Param("lower", "bool", True),), gradient=_cholesky_grad)


def _tri_inv_t(xp, low):
    """inv(L) for a batch of lower-triangular L (through a solve against the identity)."""
    eye = xp.broadcast_to(xp.eye(low.shape[-1], dtype=low.dtype), low.shape)
    return xp.linalg.solve(low, eye)


def _backward_cholesky(rc, attrs, dl, low):
    """dA = 0.5 L^-T sym(L^T dL) L^-1, sym copying the lower triangle onto the upper one
    (a symmetric gradient, as 1.9.1's potrf backward gives)."""
    xp = rc.xp
    dt = low.dtype
    low, dl = low.astype(np.float64), dl.astype(np.float64)
    if not attrs["lower"]:  # upper factor U = L^T
        low, dl = xp.swapaxes(low, -1, -2), xp.swapaxes(dl, -1, -2)
    m = xp.matmul(xp.swapaxes(low, -1, -2), dl)
    lower = xp.tril(m)
    sym = lower + xp.swapaxes(xp.tril(m, -1), -1, -2)
    linv = _tri_inv_t(xp, low)
    return (0.5 * xp.matmul(xp.matmul(xp.swapaxes(linv, -1, -2), sym), linv)).astype(dt)


register("_npi_backward_cholesky", _backward_cholesky, inputs=("ograd", "L"), nd_hidden=True,
         params=(Param("lower", "bool", True),))


def _eigh(xp, at, a):
    w, v = xp.linalg.eigh(a, UPLO=at["UPLO"])
    return w.astype(a.dtype), v.astype(a.dtype)


register("_npi_eigh", _lin("eigh", _eigh), inputs=("A",), nd_hidden=True, num_outputs=2,
         params=(Param("UPLO", "str", "L", choices=("L", "U")),), gradient=_zero_grad)
register("_npi_eigvalsh", _lin("eigvalsh", lambda xp, at, a: xp.linalg.eigvalsh(
    a, UPLO=at["UPLO"]).astype(a.dtype)), inputs=("A",), nd_hidden=True,
    params=(Param("UPLO", "str", "L", choices=("L", "U")),), gradient=_zero_grad)


def _real_eig(name, vectors):
    def fn(xp, at, a):
        res = xp.linalg.eig(a) if vectors else xp.linalg.eigvals(a)
        parts = res if vectors else (res,)
        if any(xp.iscomplexobj(p) and xp.abs(xp.imag(p)).max(initial=0) > 0 for p in parts):
            raise MXNetError(f"{name}: complex eigenvalues are not supported (mx.np has no "
                             "complex dtype)")
        out = tuple(xp.real(p).astype(a.dtype) for p in parts)
        return out if vectors else out[0]
    return fn


register("_npi_eig", _lin("eig", _real_eig("eig", True)), inputs=("A",), nd_hidden=True,
         num_outputs=2, gradient=_zero_grad)
register("_npi_eigvals", _lin("eigvals", _real_eig("eigvals", False)), inputs=("A",),
         nd_hidden=True, gradient=_zero_grad)


def _svd(rc, attrs, a):
    """1.9.1's reduced SVD a = ut @ diag(l) @ v of (..., M, N) matrices with M <= N; the sign
    of each row of v (and column of ut) makes the row's largest-magnitude entry positive."""
    xp = rc.xp
    if a.ndim < 2:
        raise MXNetError(f"svd: expected a (batch of) matrices of ndim >= 2, got shape {a.shape}")
    if a.shape[-2] > a.shape[-1]:
        raise MXNetError(f"svd: expected M <= N for (..., M, N) matrices, got shape {a.shape}")
    dt = a.dtype if a.dtype.kind == "f" else np.dtype(np.float32)
    ut, s, v = xp.linalg.svd(a.astype(np.float64), full_matrices=False)
    if v.size:
        big = xp.take_along_axis(v, xp.argmax(xp.abs(v), axis=-1)[..., None], axis=-1)
        sign = xp.where(big < 0, -1.0, 1.0)
        v = v * sign
        ut = ut * xp.swapaxes(sign, -1, -2)
    return ut.astype(dt), s.astype(dt), v.astype(dt)


def _svd_grad(F, attrs, ins, outs, og):
    return [F._npi_backward_svd(og[0], og[1], og[2], outs[0], outs[1], outs[2])]


register("_npi_svd", _svd, inputs=("A",), nd_hidden=True, num_outputs=3, gradient=_svd_grad)


def _backward_svd(rc, attrs, dut, dl, dv, ut, s, v):
    """Gradient of a = ut diag(s) v (Seeger et al., Auto-differentiating linear algebra):
    ut [(F o (ut^T dut - dut^T ut)) S + diag(dl) + S (F o (v dv^T - dv v^T))] v
    + ut S^-1 dv (I - v^T v), with F_ij = 1 / (s_j^2 - s_i^2) off the diagonal."""
    xp = rc.xp
    dt = ut.dtype
    f64 = [x.astype(np.float64) for x in (dut, dl, dv, ut, s, v)]
    dut, dl, dv, ut, s, v = f64
    tr = lambda x: xp.swapaxes(x, -1, -2)  # noqa: E731
    s2 = s * s
    diff = s2[..., None, :] - s2[..., :, None]
    m = s.shape[-1]
    off = ~xp.eye(m, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        fmat = xp.where(off, 1.0 / xp.where(off, diff, 1.0), 0.0)
        sinv = xp.where(s != 0, 1.0 / xp.where(s != 0, s, 1.0), 0.0)
    ju = tr(ut) @ dut
    jv = v @ tr(dv)
    inner = (fmat * (ju - tr(ju))) * s[..., None, :]
    inner = inner + xp.eye(m) * dl[..., None, :]
    inner = inner + s[..., :, None] * (fmat * (jv - tr(jv)))
    da = ut @ inner @ v
    proj = dv - (dv @ tr(v)) @ v
    da = da + ut @ (sinv[..., :, None] * proj)
    return da.astype(dt)


register("_npi_backward_svd", _backward_svd,
         inputs=("ograd_ut", "ograd_l", "ograd_v", "ut", "l", "v"), nd_hidden=True)


def _pinv(rc, attrs, a):
    if a.ndim < 2 or a.dtype.kind != "f":
        raise MXNetError(f"pinv: expected a (batch of) float matrices, got {a.shape} {a.dtype}")
    return rc.xp.linalg.pinv(a, rcond=attrs["rcond"], hermitian=attrs["hermitian"]).astype(
        a.dtype)


register("_npi_pinv_scalar_rcond", _pinv, inputs=("A",), nd_hidden=True,
         params=(Param("rcond", "float", 1e-15), Param("hermitian", "bool", False)),
         gradient=_zero_grad)


def _pinv_array_rcond(rc, attrs, a, rcond):
    """pinv with a per-matrix ``rcond`` array that broadcasts to ``a``'s batch shape."""
    if a.ndim < 2 or a.dtype.kind != "f":
        raise MXNetError(f"pinv: expected a (batch of) float matrices, got {a.shape} {a.dtype}")
    if rcond.dtype != a.dtype:
        raise MXNetError(f"pinv: rcond must have the dtype of a ({a.dtype}), got {rcond.dtype}")
    batch = tuple(a.shape[:-2])
    try:
        ok = np.broadcast_shapes(rcond.shape, batch) == batch
    except ValueError:
        ok = False
    if not ok:
        raise MXNetError(f"pinv: rcond of shape {list(rcond.shape)} does not broadcast to the "
                         f"batch shape {list(batch)} of a {list(a.shape)}")
    return rc.xp.linalg.pinv(a, rcond=rcond).astype(a.dtype)


def _pinv_shape(attrs, ins, outs):
    a = ins[0]
    if a is None or len(a) < 2 or any(d is None for d in a[-2:]):
        return ins, list(outs), []
    return ins, [tuple(a[:-2]) + (a[-1], a[-2])], []


register("_npi_pinv", _pinv_array_rcond, inputs=("A", "rcond"), nd_hidden=True,
         params=(Param("hermitian", "bool", False),), gradient=_zero_grad,
         infer_shape=_pinv_shape)


def _solve(rc, attrs, a, b):
    _sq("solve", a)
    vec = b.ndim == a.ndim - 1
    if (b.shape[-1] if vec else b.shape[-2]) != a.shape[-1]:
        raise MXNetError(f"solve: a {a.shape} and b {b.shape} are not aligned")
    dt = promote("solve", a.dtype, b.dtype)
    try:
        bb = b[..., None] if vec else b
        x = rc.xp.linalg.solve(a.astype(dt), bb.astype(dt))
    except np.linalg.LinAlgError as e:
        raise MXNetError(f"solve: {e} (shape {a.shape})") from None
    return x[..., 0] if vec else x


def _solve_grad(F, attrs, ins, outs, og):
    a, b = ins
    x = outs[0]
    db = F._npi_solve(_swap_last(F, a), og[0])
    if len(b.shape) == len(a.shape) - 1:
        da = F._npi_multiply(F._npi_expand_dims(db, axis=-1), F._npi_expand_dims(x, axis=-2))
    else:
        da = F._npi_matmul(db, _swap_last(F, x))
    return [F._npi_negative(da), db]


register("_npi_solve", _solve, inputs=("A", "B"), nd_hidden=True, gradient=_solve_grad)


def _tensorinv(rc, attrs, a):
    try:
        return rc.xp.linalg.tensorinv(a, ind=attrs["ind"])
    except (np.linalg.LinAlgError, ValueError) as e:
        raise MXNetError(f"tensorinv: {e} (shape {a.shape}, ind {attrs['ind']})") from None


def _backward_tensorinv(rc, attrs, dy, y):
    """dA = -Y^T dY Y^T on the matrix views (Y = tensorinv's output, (Q..., P...))."""
    ind_out = y.ndim - attrs["ind"]  # the output's leading axes are the input's trailing ones
    q = int(np.prod(y.shape[:ind_out]))
    ym = y.reshape(q, -1).astype(np.float64)
    dym = dy.reshape(ym.shape).astype(np.float64)
    da = -(ym.T @ dym @ ym.T)
    return da.reshape(tuple(y.shape[ind_out:]) + tuple(y.shape[:ind_out])).astype(y.dtype)


register("_npi_backward_tensorinv", _backward_tensorinv, inputs=("ograd", "y"),
         nd_hidden=True, params=(Param("ind", "int", 2),))
register("_npi_tensorinv", _tensorinv, inputs=("a",), nd_hidden=True,
         params=(Param("ind", "int", 2),),
         gradient=lambda F, at, ins, outs, og: [F._npi_backward_tensorinv(og[0], outs[0],
                                                                          ind=at["ind"])])


def _tensorsolve(rc, attrs, a, b):
    try:
        return rc.xp.linalg.tensorsolve(a, b, axes=attrs["a_axes"] or None)
    except (np.linalg.LinAlgError, ValueError) as e:
        raise MXNetError(f"tensorsolve: {e} (shapes {a.shape}, {b.shape})") from None


def _solve_axes(ndim, axes):
    order = list(range(ndim))
    for k in axes:
        order.remove(k % ndim)
        order.append(k % ndim)
    return order


def _backward_tensorsolve(rc, attrs, dx, a, b, x):
    """db = solve(A^T, dx), dA = -db x^T on the matrix view A of ``a`` (its ``a_axes``
    moved to the end, as the forward does)."""
    xp = rc.xp
    order = _solve_axes(a.ndim, attrs["a_axes"] or ())
    at = xp.transpose(a, order).astype(np.float64)
    am = at.reshape(b.size, x.size)
    db = xp.linalg.solve(am.T, dx.reshape(-1).astype(np.float64))
    dam = -xp.outer(db, x.reshape(-1).astype(np.float64))
    da = xp.transpose(dam.reshape(at.shape), list(np.argsort(order)))
    return da.astype(a.dtype), db.reshape(b.shape).astype(b.dtype)


register("_npi_backward_tensorsolve", _backward_tensorsolve, inputs=("ograd", "a", "b", "x"),
         nd_hidden=True, num_outputs=2, params=(Param("a_axes", "shape", None),))
register("_npi_tensorsolve", _tensorsolve, inputs=("a", "b"), nd_hidden=True,
         params=(Param("a_axes", "shape", None),),
         gradient=lambda F, at, ins, outs, og: list(F._npi_backward_tensorsolve(
             og[0], ins[0], ins[1], outs[0], a_axes=at["a_axes"])))


# --- random distributions (scalar parameters) ----------------------------------------------

def _dist(name, draw, params):
    def compute(rc, attrs, _d=draw):
        size = attrs["size"] or ()
        return rc.xp.asarray(_d(rc.rng, attrs, size)).astype(attrs["dtype"])
    register(f"_npi_{name}", compute, inputs=(), nd_hidden=True, needs_rng=True,
             params=params + (Param("size", "shape", None),) + _CTX_DT)


def _exact(name):
    """1.9.1's CPU sampler ``np_<name>`` of backend/mt_dists.py on the single engine, or None
    on GPU (no ``serial`` engine)."""
    def compute(rc, attrs, _name=name):
        serial = getattr(rc.rng, "serial", None)
        if serial is None:
            return None
        from ..backend import mt_dists  # noqa: PLC0415
        size = tuple(attrs["size"] or ())
        n = int(np.prod(size, dtype=np.int64))
        dt = np.dtype(attrs["dtype"])
        with np.errstate(all="ignore"):
            if _name == "beta":
                y = mt_dists.np_beta(serial, n, attrs["a"], attrs["b"], dt)
            elif _name == "chisquare":
                # a chi-square is gamma(df/2, scale 2); 1.9.1 draws gamma(df/2, 0.5), a bug
                # not copied: the same uniforms, scaled by 2 rather than 0.5
                y = mt_dists.np_chisquare(serial, n, attrs["df"], dt, scale=2.0)
            elif dt == np.float64:  # lognormal: the float argument, exp in double
                z = serial.normal_f32(n)
                arg = np.float32(attrs["mean"]) + np.float32(attrs["sigma"]) * z
                y = mt_dists._gexp(arg.astype(np.float64))
            elif dt == np.float16:  # the float argument rounded to half, then exp
                z = serial.normal_f32(n)
                arg = np.float32(attrs["mean"]) + np.float32(attrs["sigma"]) * z
                y = mt_dists._gexp(arg.astype(np.float16).astype(np.float64)).astype(
                    np.float32)
            else:                   # lognormal
                y = mt_dists.np_lognormal(serial, n, attrs["mean"], attrs["sigma"])
        return np.asarray(y).reshape(size).astype(dt, copy=False)
    return compute


def _dist_exact(name, draw, params):
    exact = _exact(name)

    def compute(rc, attrs):
        res = exact(rc, attrs)
        if res is not None:
            return res
        size = attrs["size"] or ()
        return rc.xp.asarray(draw(rc.rng, attrs, size)).astype(attrs["dtype"])
    register(f"_npi_{name}", compute, inputs=(), nd_hidden=True, needs_rng=True,
             params=params + (Param("size", "shape", None),) + _CTX_DT)


_P = Param
# exponential / gamma / gumbel / logistic / pareto / powerd / rayleigh / weibull (array-valued
# parameters too): np_random.py
_dist_exact("beta", lambda r, a, s: r.beta(a["a"], a["b"], s),
            (_P("a", "float"), _P("b", "float")))
_dist_exact("chisquare", lambda r, a, s: r.chisquare(a["df"], s), (_P("df", "float"),))
_dist("laplace", lambda r, a, s: r.laplace(a["loc"], a["scale"], s),
      (_P("loc", "float", 0.0), _P("scale", "float", 1.0)))
_dist_exact("lognormal", lambda r, a, s: r.lognormal(a["mean"], a["sigma"], s),
      (_P("mean", "float", 0.0), _P("sigma", "float", 1.0)))
_dist("f", lambda r, a, s: r.f(a["dfnum"], a["dfden"], s),
      (_P("dfnum", "float"), _P("dfden", "float")))
_dist("binomial", lambda r, a, s: r.binomial(int(a["n"]), a["p"], s),
      (_P("n", "float"), _P("p", "float")))


def _mvn(rc, attrs, mean, cov):
    size = attrs["size"] or None
    serial = getattr(rc.rng, "serial", None)
    try:
        low = np.linalg.cholesky(np.asarray(cov, dtype=np.float64)) if serial is not None \
            and mean.dtype.kind == "f" else None
    except np.linalg.LinAlgError:   # a singular cov: NumPy's sampler (an SVD) below
        low = None
    if low is not None:
        # 1.9.1 draws the noise as mx.np.random.normal does (the single engine's float32
        # normals, in the mean's dtype), then adds the Cholesky factor's product with it. (Its
        # product, einsum('...jk,...j->...k', L, z), is L^T z, whose covariance is L^T L, not
        # cov; ours takes L z: the same samples for a diagonal cov.)
        shape = tuple(size or ()) + tuple(mean.shape)
        z = serial.normal_f32(int(np.prod(shape, dtype=np.int64))).reshape(shape)
        out = np.asarray(mean, dtype=np.float64) + np.einsum(
            "kj,...j->...k", low, z.astype(mean.dtype).astype(np.float64))
        return rc.xp.asarray(out).astype(mean.dtype)
    out = rc.rng.multivariate_normal(np.asarray(mean.get() if hasattr(mean, "get") else mean,
                                                dtype=np.float64),
                                     np.asarray(cov.get() if hasattr(cov, "get") else cov,
                                                dtype=np.float64), size)
    return rc.xp.asarray(out).astype(mean.dtype)


register("_npi_multivariate_normal", _mvn, inputs=("mean", "cov"), nd_hidden=True,
         needs_rng=True, params=(Param("size", "shape", None),))


# --- 1.9.1 graph names for copies, diagflat, atleast_nd, npx.nonzero -----------------------

_twin("_np_copy", "_copy")
_twin("_npx_nonzero", "_npi_nonzero")


def _diagflat(rc, attrs, x):
    return rc.xp.diagflat(x, attrs["k"])


register("_np_diagflat", _diagflat, inputs=("data",), nd_hidden=True,
         params=(Param("k", "int", 0),),
         gradient=lambda F, at, ins, outs, og: [F._np_reshape(F._np_diag(og[0], k=at["k"]),
                                                              newshape=tuple(ins[0].shape))])


def _atleast_nd(n):
    def shape_of(shape):
        if len(shape) >= n:
            return tuple(shape)
        if n == 3:
            return {0: (1, 1, 1), 1: (1,) + tuple(shape) + (1,), 2: tuple(shape) + (1,)}[len(shape)]
        return (1,) * (n - len(shape)) + tuple(shape)

    def compute(rc, attrs, *arrays):
        out = tuple(a.reshape(shape_of(a.shape)) for a in arrays)
        return out if len(out) > 1 else out[0]

    def grad(F, attrs, ins, outs, og):
        return [F._np_reshape(g, newshape=tuple(x.shape)) for g, x in zip(og, ins)]

    register(f"_np_atleast_{n}d", compute, variadic="num_args", nd_hidden=True, gradient=grad,
             num_outputs=lambda at: at["num_args"], params=(Param("num_args", "int", 1),))


for _n in (1, 2, 3):
    _atleast_nd(_n)
