"""Reshape-family operators and MXNet's reshape codes."""
from __future__ import annotations

import math

from ..base import MXNetError, dtype_np
from .registry import Param, register

__all__ = ["infer_reshape"]


def infer_reshape(opname, src, target, reverse=False):
    """The output shape of MXNet's Reshape.

    Codes in ``target``: 0 copies the input dim, -1 infers one dim, -2 copies all remaining
    dims, -3 merges two consecutive input dims, -4 splits one input dim into the next two
    target values (one of which may be -1). ``reverse`` applies the codes right to left.
    """
    src = tuple(src)
    tgt = list(target)
    if reverse:
        src, tgt = src[::-1], tgt[::-1]
    out: list[int] = []
    i = 0  # position in src
    j = 0
    infer_at = -1
    try:
        while j < len(tgt):
            t = tgt[j]
            if t > 0:
                out.append(t)
                i += 1
            elif t == 0:
                out.append(src[i])
                i += 1
            elif t == -1:
                if infer_at >= 0:
                    raise MXNetError(f"{opname}: at most one -1 may appear in shape {tuple(target)}")
                infer_at = len(out)
                out.append(-1)
                i += 1
            elif t == -2:
                out.extend(src[i:])
                i = len(src)
            elif t == -3:
                out.append(src[i] * src[i + 1])
                i += 2
            elif t == -4:
                d = src[i]
                a, b = tgt[j + 1], tgt[j + 2]
                if a == -1 and b == -1:
                    raise MXNetError(f"{opname}: -4 split of dim {d} has two -1 values")
                if a == -1:
                    a = d // b
                elif b == -1:
                    b = d // a
                if a * b != d:
                    raise MXNetError(f"{opname}: cannot split dim {d} into ({a}, {b})")
                out.extend([a, b])
                i += 1
                j += 2
            else:
                raise MXNetError(f"{opname}: invalid shape code {t} in {tuple(target)}")
            j += 1
    except IndexError:
        raise MXNetError(f"{opname}: shape {tuple(target)} does not fit input shape "
                         f"{tuple(src[::-1] if reverse else src)}") from None
    total = 1
    for s in src:
        total *= s
    if infer_at >= 0:
        known = 1
        for k, s in enumerate(out):
            if k != infer_at:
                known *= s
        if known == 0 or total % known:
            raise MXNetError(f"{opname}: cannot reshape array of shape "
                             f"{tuple(src[::-1] if reverse else src)} into {tuple(target)}")
        out[infer_at] = total // known
    prod = 1
    for s in out:
        prod *= s
    if prod != total:
        raise MXNetError(f"{opname}: cannot reshape array of shape "
                         f"{tuple(src[::-1] if reverse else src)} (size {total}) into "
                         f"{tuple(target)} (size {prod})")
    return tuple(out[::-1] if reverse else out)


def _reshape_target(attrs):
    shape = attrs["shape"]
    if not shape and attrs.get("target_shape"):
        shape = attrs["target_shape"]
    return shape


def _reshaped(rc, x, shape, out):
    """``x`` with ``shape``, copied into ``out[0]`` when given (a planned buffer, which the
    in-place plan may have put over ``x`` itself), else a new array."""
    o = out[0] if out else None
    if o is not None and tuple(o.shape) == tuple(shape) and o.dtype == x.dtype:
        if not _same_buffer(o, x):   # (over x itself there is nothing to move)
            rc.xp.copyto(o, x.reshape(shape))
        return o
    return x.reshape(shape).copy()


def _same_buffer(a, b):
    """Whether two C-contiguous arrays of one size start at the same address (one memory)."""
    return (a.nbytes == b.nbytes and a.flags.c_contiguous and b.flags.c_contiguous and
            _address(a) == _address(b))


def _address(a):
    iface = getattr(a, "__array_interface__", None) or a.__cuda_array_interface__
    return iface["data"][0]


def _reshape(rc, attrs, x, out=None):
    new = infer_reshape("Reshape", x.shape, _reshape_target(attrs), attrs["reverse"])
    return _reshaped(rc, x, new, out)


def _reshape_partial(src, target, reverse):
    """Reshape's output for an input with unknown dims (None), the way 1.9.1 spells it: a
    copied unknown dim stays unknown, and so does -1 and any merge that touches one."""
    src, tgt = list(src), list(target)
    if reverse:
        src, tgt = src[::-1], tgt[::-1]
    out, i, j = [], 0, 0
    while j < len(tgt):
        t = tgt[j]
        if t > 0 or t == -1:
            out.append(t if t > 0 else None)
            i += 1
        elif t == 0:
            out.append(src[i])
            i += 1
        elif t == -2:
            out.extend(src[i:])
            i = len(src)
        elif t == -3:
            a, b = src[i], src[i + 1]
            out.append(None if a is None or b is None else a * b)
            i += 2
        elif t == -4:
            d, a, b = src[i], tgt[j + 1], tgt[j + 2]
            if d is not None:
                a, b = (d // b if a == -1 else a), (d // a if b == -1 else b)
            out.extend(None if x == -1 else x for x in (a, b))
            i += 1
            j += 2
        j += 1
    return tuple(out[::-1] if reverse else out)


def _reshape_shape(attrs, ins, outs):
    if ins[0] is not None and None in ins[0]:
        try:
            out = _reshape_partial(ins[0], _reshape_target(attrs), attrs["reverse"])
        except IndexError:
            return ins, outs, []
        full = out if None not in out else outs[0]
        if full is not None and None not in full and sum(d is None for d in ins[0]) == 1:
            # one unknown input dim follows from a known output size (as 1.9.1 does)
            known = math.prod(d for d in ins[0] if d is not None)
            if known and math.prod(full) % known == 0:
                return [tuple(math.prod(full) // known if d is None else d
                              for d in ins[0])], [out], []
        return ins, [out], []
    if ins[0] is None:
        return ins, outs, []
    return ins, [infer_reshape("Reshape", ins[0], _reshape_target(attrs), attrs["reverse"])], []


def _reshape_grad(F, attrs, ins, outs, og):
    return [F.reshape(og[0], shape=ins[0].shape)]


register("Reshape", _reshape, params=(
    Param("shape", "shape", ()), Param("reverse", "bool", False),
    Param("target_shape", "shape", ()), Param("keep_highest", "bool", False)),
    infer_shape=_reshape_shape, gradient=_reshape_grad, inplace=((0, 0, True),),
    aliases=("reshape",), accepts_out=True)


def _reshape_like_shape(attrs, lshape, rshape):
    def span(begin, end, n):
        b = 0 if begin is None else (begin % n if n else 0)
        e = n if end is None else (end % n if end < 0 else end)
        return b, e
    lb, le = span(attrs["lhs_begin"], attrs["lhs_end"], len(lshape))
    rb, re_ = span(attrs["rhs_begin"], attrs["rhs_end"], len(rshape))
    return tuple(lshape[:lb]) + tuple(rshape[rb:re_]) + tuple(lshape[le:])


def _lhs_type(attrs, in_types, out_types):
    """The output takes the first input's dtype; the other input's dtype is free (1.9.1)."""
    t = in_types[0] if in_types[0] is not None else out_types[0]
    return [t] + list(in_types[1:]), [t], []


def _reshape_like(rc, attrs, x, like):
    target = _reshape_like_shape(attrs, x.shape, like.shape)
    size = 1
    for s in target:
        size *= s
    if x.size != size:
        raise MXNetError(f"reshape_like: cannot reshape {x.shape} (size {x.size}) to {target} "
                         f"taken from {like.shape}")
    return x.reshape(target).copy()


register("reshape_like", _reshape_like, inputs=("lhs", "rhs"), infer_type=_lhs_type,
         params=(Param("lhs_begin", "int", None), Param("lhs_end", "int", None),
                 Param("rhs_begin", "int", None), Param("rhs_end", "int", None)),
         gradient=lambda F, a, ins, outs, og: [F.reshape_like(og[0], ins[0]), F.zeros_like(ins[1])])


def _flatten(rc, attrs, x, out=None):
    n = x.shape[0] if x.ndim else 1
    rest = 1
    for s in x.shape[1:]:
        rest *= s
    return _reshaped(rc, x, (n, rest), out)


register("Flatten", _flatten, gradient=_reshape_grad, aliases=("flatten",), inplace=((0, 0, True),),
         accepts_out=True,
         infer_shape=lambda a, i, o: (i, [None if i[0] is None or None in i[0] else
                                         (i[0][0], int(__import__("math").prod(i[0][1:])))], []))


def _cast(rc, attrs, x):
    return x.astype(dtype_np(attrs["dtype"]))


def _cast_grad(F, attrs, ins, outs, og):
    return [F.Cast(og[0], dtype=ins[0].dtype.__name__ if hasattr(ins[0].dtype, "__name__")
                   else str(ins[0].dtype))]


_CAST_DTYPES = ("bfloat16", "bool", "float16", "float32", "float64", "int32", "int64", "int8", "uint8")

register("Cast", _cast, params=(Param("dtype", "dtype", choices=_CAST_DTYPES),), gradient=_cast_grad,
         aliases=("cast",), infer_shape=lambda a, i, o: (i, [i[0]], []),
         infer_type=lambda a, i, o: (i, [dtype_np(a["dtype"])], []))


def _copyto(rc, attrs, x):
    return x.copy()


register("_copyto", _copyto, nd_hidden=True,
         gradient=lambda F, a, ins, outs, og: [og[0].as_in_context(ins[0].context)])


# --- broadcasting --------------------------------------------------------------------------

def _broadcast_to_shape(opname, src, target):
    if len(target) != len(src):
        raise MXNetError(f"{opname}: target shape {tuple(target)} must have the same number of "
                         f"dimensions as the input {tuple(src)}")
    out = []
    for s, t in zip(src, target):
        if t == 0:  # 1.9.1: a 0 in the target shape keeps the input's size on that axis
            t = s
        if s != t and s != 1:
            raise MXNetError(f"{opname}: cannot broadcast input of shape {tuple(src)} to "
                             f"{tuple(target)}")
        out.append(t)
    return tuple(out)


def _bcast_grad(F, attrs, ins, outs, og):
    return [F._reduce_to_shape_of(og[0], ins[0])]


def _broadcast_to(rc, attrs, x):
    return rc.xp.broadcast_to(x, _broadcast_to_shape("broadcast_to", x.shape, attrs["shape"])).copy()


register("broadcast_to", _broadcast_to, params=(Param("shape", "shape", ()),),
         gradient=_bcast_grad,
         infer_shape=lambda a, i, o: (i, [None if i[0] is None else
                                         _broadcast_to_shape("broadcast_to", i[0], a["shape"])], []))


def _broadcast_axis(rc, attrs, x):
    axes = attrs["axis"] or ()
    sizes = attrs["size"] or ()
    if len(axes) != len(sizes):
        raise MXNetError(f"broadcast_axis: axis {axes} and size {sizes} must have the same length")
    target = list(x.shape)
    for a, s in zip(axes, sizes):
        a = a % x.ndim
        if x.shape[a] != 1:
            raise MXNetError(f"broadcast_axis: axis {a} of input {x.shape} must have size 1")
        target[a] = s
    return rc.xp.broadcast_to(x, tuple(target)).copy()


register("broadcast_axis", _broadcast_axis, params=(Param("axis", "shape", ()),
                                                    Param("size", "shape", ())),
         gradient=_bcast_grad, aliases=("broadcast_axes",))


def _broadcast_like(rc, attrs, x, like):
    la, ra = attrs["lhs_axes"], attrs["rhs_axes"]
    if la is None:
        target = like.shape
    else:
        target = list(x.shape)
        for a, b in zip(la, ra):
            target[a % x.ndim] = like.shape[b % like.ndim]
        target = tuple(target)
    try:
        return rc.xp.broadcast_to(x, target).copy()
    except ValueError:
        raise MXNetError(f"broadcast_like: cannot broadcast {x.shape} like {like.shape}") from None


register("broadcast_like", _broadcast_like, inputs=("lhs", "rhs"), infer_type=_lhs_type,
         params=(Param("lhs_axes", "shape", None), Param("rhs_axes", "shape", None)),
         gradient=lambda F, a, ins, outs, og: [F._reduce_to_shape_of(og[0], ins[0]),
                                               F.zeros_like(ins[1])])
