"""Shape-manipulation operators: transpose, expand_dims, squeeze, SwapAxis, Concat, stack,
SliceChannel (split), _split_v2, tile, repeat, reverse (flip), Pad, slice, slice_axis,
slice_like, diag, depth_to_space, space_to_depth, shape_array and size_array.

Every operator validates its arguments in one shape function that serves both
``infer_shape`` and ``compute``, so imperative and symbolic calls reject the same things
with the same message. Slicing ops share :func:`slice_plan`, which turns MXNet's
``begin``/``end``/``step`` (with ``None`` entries) into Python slices.

Gradients are compositions of registered operators, except where the adjoint needs the
input's shape (slices, Pad, diag, Concat): those use small ``_backward_*`` operators
that take the forward input as a second argument for its shape only.

Behaviour that follows 1.9.1 and may surprise:
- ``transpose`` and ``reverse`` reject negative axes; ``SwapAxis``, ``expand_dims``,
  ``squeeze``, ``Concat``, ``stack``, ``split`` and ``diag`` accept them.
- ``squeeze(axis=())`` is a no-op; ``reverse`` over a repeated axis flips it twice.
- ``Pad`` works on 4-D/5-D float arrays only, never pads the first two axes, and
  ``reflect`` needs each pad smaller than its axis. A negative pad crops that side.
- ``slice`` clamps out-of-range bounds like Python; with a positive step a slice that
  would come out empty (begin at or after end) is an error, as 1.9.1 reports it for
  float data. ``slice_axis`` needs ``0 <= begin < end <= size`` after wrapping negatives.
- ``tile`` rejects zero or negative reps.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ..base import MXNetError
from ._common import addition_ranks
from .registry import Param, register

__all__ = ["slice_plan"]


def _err(opname, msg, shape=None):
    where = f" (input shape {tuple(shape)})" if shape is not None else ""
    return MXNetError(f"{opname}: {msg}{where}")


def _known(*shapes):
    return all(s is not None for s in shapes)


def _axis_in(opname, name, axis, ndim, shape=None):
    """``axis`` made non-negative, for an array of ``ndim`` dims (negatives allowed)."""
    if not -ndim <= axis < ndim:
        raise _err(opname, f"{name}={axis} is out of range for an array of {ndim} dims; "
                           f"expected a value in [{-ndim}, {ndim - 1}]", shape)
    return axis % ndim


def _as_list(res, n):
    """The outputs of a multi-output op called through ``F`` as a list of ``n`` items."""
    if n == 1 and not isinstance(res, (list, tuple)):
        return [res]
    return [res[i] for i in range(n)]


def _same_dtype_all(opname, arrays):
    d0 = arrays[0].dtype
    for i, a in enumerate(arrays[1:], 1):
        if a.dtype != d0:
            raise MXNetError(f"{opname}: all inputs must have the same dtype; input 0 is {d0}, "
                             f"input {i} is {a.dtype}")


def _one_in_known(fn):
    """``_one_in`` that leaves the output unknown until the input shape is complete (1.9.1's
    rule for squeeze)."""
    def infer(attrs, ins, outs):
        if ins[0] is None or None in ins[0]:
            return ins, outs, []
        return ins, [fn(attrs, tuple(ins[0]))], []
    return infer


def _one_in(fn):
    """An ``infer_shape`` for a one-input, one-output op from ``fn(attrs, shape) -> shape``."""
    def infer(attrs, ins, outs):
        if ins[0] is None:
            return ins, outs, []
        return ins, [fn(attrs, tuple(ins[0]))], []
    return infer


def _like_input(attrs, ins, outs):
    """``infer_shape`` of a ``_backward_*`` op: the output has the second input's shape."""
    return ins, [ins[1]], []


# ---------------------------------------------------------------------------------------------
# transpose, expand_dims, squeeze, SwapAxis

def _transpose_axes(attrs, shape):
    ndim = len(shape)
    axes = attrs["axes"]
    if not axes:
        return tuple(range(ndim - 1, -1, -1))
    if len(axes) != ndim or sorted(axes) != list(range(ndim)):
        raise _err("transpose", f"axes {tuple(axes)} must be a permutation of 0..{ndim - 1} "
                                f"(negative axes are not accepted)", shape)
    return tuple(axes)


def _transpose_shape(attrs, shape):
    return tuple(shape[a] for a in _transpose_axes(attrs, shape))


def _transpose(rc, attrs, x):
    return rc.xp.transpose(x, _transpose_axes(attrs, x.shape)).copy()


def _transpose_grad(F, attrs, ins, outs, og):
    axes = attrs["axes"]
    if not axes:
        return [F.transpose(og[0])]
    inverse = [0] * len(axes)
    for i, a in enumerate(axes):
        inverse[a] = i
    return [F.transpose(og[0], axes=tuple(inverse))]


register("transpose", _transpose, params=(Param("axes", "shape", ()),),
         gradient=_transpose_grad, infer_shape=_one_in(_transpose_shape),
         doc="Permute the axes of an array (reverse them when ``axes`` is empty).")


def _expand_dims_shape(attrs, shape):
    ndim = len(shape)
    axis = attrs["axis"]
    if not -ndim - 1 <= axis <= ndim:
        raise _err("expand_dims", f"axis={axis} is out of range; expected a value in "
                                  f"[{-ndim - 1}, {ndim}]", shape)
    axis = axis % (ndim + 1)
    return tuple(shape[:axis]) + (1,) + tuple(shape[axis:])


def _reshape_to(opname, fn):
    def compute(rc, attrs, x):
        return x.reshape(fn(attrs, x.shape)).copy()
    compute.__name__ = opname
    return compute


def _reshape_back_grad(F, attrs, ins, outs, og):
    return [F.reshape_like(og[0], ins[0])]


register("expand_dims", _reshape_to("expand_dims", _expand_dims_shape),
         params=(Param("axis", "int"),), gradient=_reshape_back_grad,
         infer_shape=_one_in(_expand_dims_shape),
         doc="Insert a new axis of size 1 at position ``axis``.")


def _squeeze_shape(attrs, shape):
    ndim = len(shape)
    axis = attrs["axis"]
    if axis is None:
        drop = {i for i, s in enumerate(shape) if s == 1}
    else:
        drop = set()
        for a in axis:
            a = _axis_in("squeeze", "axis", a, ndim, shape)
            if a in drop:
                raise _err("squeeze", f"axis {tuple(axis)} names axis {a} twice", shape)
            if shape[a] != 1:
                raise _err("squeeze", f"cannot squeeze axis {a} of size {shape[a]}; only axes "
                                      f"of size 1 can be removed", shape)
            drop.add(a)
    return tuple(s for i, s in enumerate(shape) if i not in drop) or (1,)


register("squeeze", _reshape_to("squeeze", _squeeze_shape),
         params=(Param("axis", "shape", None),), gradient=_reshape_back_grad,
         infer_shape=_one_in_known(_squeeze_shape),
         doc="Remove axes of size 1 (all of them when ``axis`` is None).")


def _swap_dims(attrs, shape):
    ndim = len(shape)
    return (_axis_in("SwapAxis", "dim1", attrs["dim1"], ndim, shape),
            _axis_in("SwapAxis", "dim2", attrs["dim2"], ndim, shape))


def _swap_shape(attrs, shape):
    a, b = _swap_dims(attrs, shape)
    out = list(shape)
    out[a], out[b] = out[b], out[a]
    return tuple(out)


def _swapaxes(rc, attrs, x):
    a, b = _swap_dims(attrs, x.shape)
    return rc.xp.swapaxes(x, a, b).copy()


register("SwapAxis", _swapaxes, params=(Param("dim1", "int", 0), Param("dim2", "int", 0)),
         gradient=lambda F, a, ins, outs, og: [F.SwapAxis(og[0], dim1=a["dim1"], dim2=a["dim2"])],
         infer_shape=_one_in(_swap_shape), aliases=("swapaxes",),
         doc="Interchange two axes of an array.")


# ---------------------------------------------------------------------------------------------
# Concat and stack

def _check_num_args(opname, attrs):
    if attrs["num_args"] < 1:
        raise MXNetError(f"{opname}: num_args must be at least 1, got {attrs['num_args']}")


def _concat_shape_of(shapes, dim):
    """The output shape of Concat over known input shapes (validating them)."""
    s0 = tuple(shapes[0])
    ndim = len(s0)
    if not -ndim <= dim < ndim:
        raise MXNetError(f"Concat: dim={dim} is out of range for inputs of {ndim} dims "
                         f"(input shapes {[tuple(s) for s in shapes]})")
    d = dim % ndim
    total = 0
    for i, s in enumerate(shapes):
        s = tuple(s)
        if len(s) != ndim or any(a != b for j, (a, b) in enumerate(zip(s, s0)) if j != d):
            raise MXNetError(f"Concat: input {i} has shape {s}, which does not match input 0 "
                             f"{s0} outside dim {d}")
        total += s[d]
    return s0[:d] + (total,) + s0[d + 1:]


def _concat(rc, attrs, *arrays, out=None):
    _same_dtype_all("Concat", arrays)
    shape = _concat_shape_of([a.shape for a in arrays], attrs["dim"])
    axis = attrs["dim"] % arrays[0].ndim
    o = out[0] if out else None
    if o is not None and tuple(o.shape) == tuple(shape) and o.dtype == arrays[0].dtype:
        return rc.xp.concatenate(arrays, axis=axis, out=o)
    return rc.xp.concatenate(arrays, axis=axis)


def _concat_infer(attrs, ins, outs):
    if all(s is not None and None not in s for s in ins):
        return ins, [_concat_shape_of(ins, attrs["dim"])], []
    # partial shapes, as 1.9.1 does it: inputs of unknown rank are skipped; the inputs and the
    # output share every dim but the axis; the output's axis is the sum of the known inputs'
    # sizes unless one of those inputs has an unknown size there
    dims, total, axis_unknown, base = attrs["dim"], 0, False, None
    for s in [s for s in ins if s is not None] + [o for o in outs[:1] if o is not None]:
        d = _axis_in("Concat", "dim", dims, len(s), s)
        t = list(s)
        t[d] = None
        if base is None:
            base = t
        elif len(base) != len(t):
            raise MXNetError(f"Concat: input shapes of different ranks {[s for s in ins]}")
        else:
            base = [a if a is not None else b for a, b in zip(base, t)]
    if base is None:
        return ins, outs, []
    d = dims % len(base)
    for s in ins:
        if s is not None:
            axis_unknown |= s[d] is None
            total += s[d] or 0
    new_ins = [tuple(base) if s is None
               else tuple(b if j != d else s[d] for j, b in enumerate(base)) for s in ins]
    out = list(base)
    if not axis_unknown:
        out[d] = total
    return new_ins, [tuple(out)], []


def _same_dtype_infer(attrs, ins, outs):
    """Every input and the output share one dtype (mixed inputs are an error)."""
    known = next((t for t in list(ins) + list(outs) if t is not None), None)
    return [known] * len(ins), [known] * len(outs), []


def _concat_grad(F, attrs, ins, outs, og):
    n = len(ins)
    return _as_list(F._backward_Concat(og[0], *ins, num_args=n, dim=attrs["dim"]), n)


register("Concat", _concat, params=(Param("num_args", "int"), Param("dim", "int", 1)),
         variadic="num_args", gradient=_concat_grad, infer_shape=_concat_infer,
         infer_type=_same_dtype_infer, attr_check=_check_num_args, aliases=("concat",),
         accepts_out=True,
         doc="Join arrays along an existing axis ``dim``.")


def _concat_backward(rc, attrs, g, *arrays):
    d = attrs["dim"] % g.ndim
    pieces, start = [], 0
    for a in arrays:
        key = [slice(None)] * g.ndim
        key[d] = slice(start, start + a.shape[d])
        pieces.append(g[tuple(key)].copy())
        start += a.shape[d]
    return tuple(pieces)


def _concat_backward_infer(attrs, ins, outs):
    return ins, list(ins[1:]), []


register("_backward_Concat", _concat_backward,
         params=(Param("num_args", "int"), Param("dim", "int", 1)),
         inputs=lambda attrs: ["ograd"] + [f"arg{i}" for i in range(attrs["num_args"])],
         num_outputs=lambda attrs: attrs["num_args"], infer_shape=_concat_backward_infer,
         gradient=lambda F, a, ins, outs, og: [F.concat(*og, dim=a["dim"])] + [None] * a["num_args"],
         doc="The gradient of Concat: ``ograd`` cut into pieces shaped like the inputs.")


def _stack_shape_of(shapes, axis):
    s0 = tuple(shapes[0])
    for i, s in enumerate(shapes):
        if tuple(s) != s0:
            raise MXNetError(f"stack: all inputs must have the same shape; input 0 is {s0}, "
                             f"input {i} is {tuple(s)}")
    ndim = len(s0) + 1
    if not -ndim <= axis < ndim:
        raise MXNetError(f"stack: axis={axis} is out of range for a result of {ndim} dims "
                         f"(input shape {s0})")
    axis %= ndim
    return s0[:axis] + (len(shapes),) + s0[axis:]


def _stack(rc, attrs, *arrays):
    _same_dtype_all("stack", arrays)
    _stack_shape_of([a.shape for a in arrays], attrs["axis"])
    return rc.xp.stack(arrays, axis=attrs["axis"] % (arrays[0].ndim + 1))


def _stack_infer(attrs, ins, outs):
    # 1.9.1 merges the input shapes leniently (the first disagreement stops the merge, without
    # an error) and fills in neither the inputs nor, until the merged shape is complete, the output
    merged = None
    for s in ins:
        if s is None:
            continue
        if merged is None:
            merged = list(s)
            continue
        if len(merged) != len(s):
            continue
        for j, (a, b) in enumerate(zip(merged, s)):
            if a is None:
                merged[j] = b
            elif b is not None and a != b:
                break
    if merged is None or None in merged:
        return ins, outs, []
    ndim = len(merged) + 1
    axis = attrs["axis"]
    if not -ndim <= axis < ndim:
        raise MXNetError(f"stack: axis={axis} is out of range for a result of {ndim} dims "
                         f"(input shape {tuple(merged)})")
    axis %= ndim
    return ins, [tuple(merged[:axis]) + (len(ins),) + tuple(merged[axis:])], []


def _stack_grad(F, attrs, ins, outs, og):
    n = len(ins)
    return _as_list(F.split(og[0], num_outputs=n, axis=attrs["axis"], squeeze_axis=True), n)


register("stack", _stack, params=(Param("axis", "int", 0), Param("num_args", "int")),
         variadic="num_args", gradient=_stack_grad, infer_shape=_stack_infer,
         infer_type=_same_dtype_infer, attr_check=_check_num_args,
         doc="Join same-shaped arrays along a new axis.")


# ---------------------------------------------------------------------------------------------
# SliceChannel (split) and _split_v2

def _split_check(attrs):
    if attrs["num_outputs"] < 1:
        raise MXNetError(f"SliceChannel: num_outputs must be at least 1, got {attrs['num_outputs']}")


def _split_plan(attrs, shape):
    """(axis, piece size) of SliceChannel, validated against ``shape``."""
    n = attrs["num_outputs"]
    axis = _axis_in("SliceChannel", "axis", attrs["axis"], len(shape), shape)
    size = shape[axis]
    if size % n:
        raise _err("SliceChannel", f"axis {axis} of size {size} cannot be split into "
                                   f"{n} equal parts", shape)
    if attrs["squeeze_axis"] and size != n:
        raise _err("SliceChannel", f"squeeze_axis=True needs axis {axis} to have size equal to "
                                   f"num_outputs={n}, but it has size {size}", shape)
    return axis, size // n


def _piece_shape(shape, axis, size, squeeze):
    if squeeze:
        return tuple(s for i, s in enumerate(shape) if i != axis) or (1,)
    return tuple(shape[:axis]) + (size,) + tuple(shape[axis + 1:])


def _split(rc, attrs, x):
    axis, step = _split_plan(attrs, x.shape)
    squeeze = attrs["squeeze_axis"]
    out = []
    for i in range(attrs["num_outputs"]):
        key = [slice(None)] * x.ndim
        key[axis] = slice(i * step, (i + 1) * step)
        out.append(x[tuple(key)].reshape(_piece_shape(x.shape, axis, step, squeeze)).copy())
    return tuple(out)


def _split_infer(attrs, ins, outs):
    if ins[0] is None:
        return ins, outs, []
    shape = tuple(ins[0])
    axis, step = _split_plan(attrs, shape)
    return ins, [_piece_shape(shape, axis, step, attrs["squeeze_axis"])] * attrs["num_outputs"], []


def _split_grad(F, attrs, ins, outs, og):
    if attrs["squeeze_axis"]:
        # a 1-D input's pieces are (1,), not 0-d: reshape the stacked (n, 1) back
        return [F.reshape_like(F.stack(*og, axis=attrs["axis"]), ins[0])]
    return [F.concat(*og, dim=attrs["axis"])]


register("SliceChannel", _split, params=(Param("num_outputs", "int"), Param("axis", "int", 1),
                                        Param("squeeze_axis", "bool", False)),
         num_outputs=lambda attrs: attrs["num_outputs"], gradient=_split_grad,
         # numbered even when there is one part, as 1.9.1 names them
         output_names=lambda attrs: [f"output{i}" for i in range(attrs["num_outputs"])],
         infer_shape=_split_infer, attr_check=lambda name, attrs: _split_check(attrs),
         aliases=("split",), doc="Split an array into ``num_outputs`` equal parts along ``axis``.")


def _split_v2_num(attrs):
    return attrs["sections"] if attrs["sections"] > 0 else len(attrs["indices"])


def _split_v2_plan(attrs, shape):
    """(axis, [(start, stop)]) of _split_v2, validated against ``shape``."""
    axis = _axis_in("_split_v2", "axis", attrs["axis"], len(shape), shape)
    size = shape[axis]
    if attrs["sections"] > 0:
        n = attrs["sections"]
        base, extra = divmod(size, n)
        bounds, start = [], 0
        for i in range(n):
            stop = start + base + (1 if i < extra else 0)
            bounds.append((start, stop))
            start = stop
    else:
        idx = [int(i) for i in attrs["indices"]]
        if not idx:
            raise _err("_split_v2", "indices is empty and sections is 0; give one of them", shape)
        if idx[0] != 0:
            raise _err("_split_v2", f"indices {tuple(idx)} must start at 0 so that the pieces "
                                    f"cover the axis", shape)
        bounds = list(zip(idx, idx[1:] + [size]))
        for i, (b, e) in enumerate(bounds):
            if b > e:
                raise _err("_split_v2", f"indices {tuple(idx)} must be non-decreasing: piece {i} "
                                        f"starts at {b} but ends at {e}", shape)
            if e > size:
                raise _err("_split_v2", f"index {e} is beyond the size {size} of axis {axis}", shape)
    if attrs["squeeze_axis"]:
        for b, e in bounds:
            if e - b != 1:
                raise _err("_split_v2", f"squeeze_axis=True needs every piece to have size 1 on "
                                        f"axis {axis}, got a piece of size {e - b}", shape)
    return axis, bounds


def _split_v2(rc, attrs, x):
    axis, bounds = _split_v2_plan(attrs, x.shape)
    squeeze = attrs["squeeze_axis"]
    out = []
    for b, e in bounds:
        key = [slice(None)] * x.ndim
        key[axis] = slice(b, e)
        out.append(x[tuple(key)].reshape(_piece_shape(x.shape, axis, e - b, squeeze)).copy())
    return tuple(out)


def _split_v2_infer(attrs, ins, outs):
    if ins[0] is None:
        return ins, outs, []
    shape = tuple(ins[0])
    axis, bounds = _split_v2_plan(attrs, shape)
    return ins, [_piece_shape(shape, axis, e - b, attrs["squeeze_axis"]) for b, e in bounds], []


register("_split_v2", _split_v2, params=(
    Param("indices", "shape"), Param("axis", "int", 1), Param("squeeze_axis", "bool", False),
    Param("sections", "int", 0)),
    num_outputs=_split_v2_num, gradient=_split_grad, infer_shape=_split_v2_infer,
    doc="Split an array at the given start ``indices`` (or into ``sections`` near-equal parts).")


# ---------------------------------------------------------------------------------------------
# tile and repeat

def _tile_reps(attrs, shape):
    reps = tuple(attrs["reps"] or ())
    if any(r is None or r <= 0 for r in reps):
        raise _err("tile", f"reps {reps} must all be positive", shape)
    return reps


def _tile_shape(attrs, shape):
    reps = _tile_reps(attrs, shape)
    if not reps:
        return tuple(shape)
    n = max(len(reps), len(shape))
    reps = (1,) * (n - len(reps)) + reps
    shape = (1,) * (n - len(shape)) + tuple(shape)
    return tuple(r * s for r, s in zip(reps, shape))


def _tile(rc, attrs, x):
    reps = _tile_reps(attrs, x.shape)
    if not reps:
        return x.copy()
    return rc.xp.tile(x, reps)


def _tile_grad(F, attrs, ins, outs, og):
    reps = tuple(attrs["reps"] or ())
    if not reps:
        return [F.reshape_like(og[0], ins[0])]
    # Split each of the trailing len(reps) output axes into (rep, size), counting from the
    # right so that the input's ndim need not be known, then sum over the rep axes.
    target = (-2,)
    for r in reps:
        target += (r, -1, -4)
    split = F.reshape(og[0], shape=target, reverse=True)
    axes = tuple(-2 * (len(reps) - i) for i in range(len(reps)))
    return [F.reshape_like(F.sum(split, axis=axes), ins[0])]


def _tile_infer(attrs, ins, outs):
    if ins[0] is None or None in ins[0]:  # 1.9.1 leaves the output unknown for partial inputs
        return ins, outs, []
    return ins, [_tile_shape(attrs, tuple(ins[0]))], []


register("tile", _tile, params=(Param("reps", "shape", optional=True),), gradient=_tile_grad,
         infer_shape=_tile_infer,
         doc="Repeat the whole array ``reps[i]`` times along each axis.")


def _repeat_plan(attrs, shape):
    r = attrs["repeats"]
    if r < 0:
        raise _err("repeat", f"repeats={r} must not be negative", shape)
    axis = attrs["axis"]
    if axis is not None:
        axis = _axis_in("repeat", "axis", axis, len(shape), shape)
    return r, axis


def _repeat_shape(attrs, shape):
    r, axis = _repeat_plan(attrs, shape)
    if axis is None:
        return (math.prod(shape) * r,)
    return tuple(shape[:axis]) + (shape[axis] * r,) + tuple(shape[axis + 1:])


def _repeat(rc, attrs, x):
    r, axis = _repeat_plan(attrs, x.shape)
    return rc.xp.repeat(x, r, axis=axis)


def _repeat_grad(F, attrs, ins, outs, og):
    r, axis = attrs["repeats"], attrs["axis"]
    g = og[0]
    if r == 0:
        return [F.zeros_like(ins[0])]
    if axis is None:
        summed = F.sum(F.reshape(g, shape=(-1, r)), axis=1)
    elif axis >= 0:
        summed = F.sum(F.reshape(g, shape=(0,) * axis + (-4, -1, r, -2)), axis=axis + 1)
    else:  # count from the right so that the input's ndim need not be known
        k = -axis
        summed = F.sum(F.reshape(g, shape=(-2, -1, r, -4) + (0,) * (k - 1), reverse=True),
                       axis=-k)
    return [F.reshape_like(summed, ins[0])]


register("repeat", _repeat, params=(Param("repeats", "int"), Param("axis", "int", None)),
         gradient=_repeat_grad, infer_shape=_one_in(_repeat_shape),
         doc="Repeat each element ``repeats`` times along ``axis`` (of the flattened array "
             "when ``axis`` is None).")


# ---------------------------------------------------------------------------------------------
# reverse (flip)

def _reverse_axes(attrs, shape):
    ndim = len(shape)
    axes = tuple(attrs["axis"])
    for a in axes:
        if not 0 <= a < ndim:
            raise _err("reverse", f"axis {a} is out of range; expected a value in [0, {ndim - 1}] "
                                  f"(negative axes are not accepted)", shape)
    return axes


def _reverse_shape(attrs, shape):
    _reverse_axes(attrs, shape)
    return tuple(shape)


def _reverse(rc, attrs, x):
    out = x
    for a in _reverse_axes(attrs, x.shape):
        out = rc.xp.flip(out, axis=a)
    return out.copy()


register("reverse", _reverse, params=(Param("axis", "shape"),),
         gradient=lambda F, a, ins, outs, og: [F.reverse(og[0], axis=a["axis"])],
         infer_shape=_one_in(_reverse_shape), aliases=("flip",),
         doc="Reverse the order of elements along the given axes.")


# ---------------------------------------------------------------------------------------------
# Pad

_PAD_MODES = ("constant", "edge", "reflect")


def _pad_plan(attrs, shape, dtype=None):
    """Per-axis (before, after) pads, validated as 1.9.1 does."""
    ndim = len(shape)
    pw = tuple(attrs["pad_width"])
    if ndim not in (4, 5):
        raise _err("Pad", f"only 4-D or 5-D input is supported, got {ndim}-D", shape)
    if len(pw) != 2 * ndim:
        raise _err("Pad", f"pad_width {pw} must have 2 * ndim = {2 * ndim} entries", shape)
    if any(pw[:4]):
        raise _err("Pad", f"pad_width {pw} must be zero on the first two axes", shape)
    if dtype is not None and np.dtype(dtype).kind != "f":
        raise _err("Pad", f"only floating-point data is supported, got {np.dtype(dtype).name}", shape)
    pads = [(pw[2 * i], pw[2 * i + 1]) for i in range(ndim)]
    if attrs["mode"] == "reflect":
        for i, (b, a) in enumerate(pads):
            if b >= shape[i] or a >= shape[i]:
                raise _err("Pad", f"reflect padding {(b, a)} on axis {i} must be smaller than "
                                  f"the axis size {shape[i]}", shape)
    for i, (b, a) in enumerate(pads):
        if shape[i] + b + a < 0 or (b < 0 and -b > shape[i]) or (a < 0 and -a > shape[i]):
            raise _err("Pad", f"negative padding {(b, a)} on axis {i} removes more than the "
                              f"axis size {shape[i]}", shape)
    return pads


def _pad_shape(attrs, shape):
    if None in shape:
        # partial shape: 1.9.1 adds the pads to its unknown-size marker -1, so an unknown axis
        # stays unknown when its pads sum to at most 1 and becomes (pads - 1) otherwise
        _pad_plan(attrs, tuple(1 << 30 if d is None else d for d in shape))
        pw = tuple(attrs["pad_width"])
        out = []
        for i, d in enumerate(shape):
            grown = (-1 if d is None else d) + pw[2 * i] + pw[2 * i + 1]
            out.append(None if d is None and grown <= 0 else grown)
        return tuple(out)
    return tuple(s + b + a for s, (b, a) in zip(shape, _pad_plan(attrs, shape)))


def _crop_key(pads, shape):
    """Slices that drop the negative (cropping) part of each pad."""
    return tuple(slice(max(-b, 0), s - max(-a, 0)) for s, (b, a) in zip(shape, pads))


def _pad(rc, attrs, x):
    pads = _pad_plan(attrs, x.shape, x.dtype)
    xp = rc.xp
    x = x[_crop_key(pads, x.shape)]
    width = tuple((max(b, 0), max(a, 0)) for b, a in pads)
    mode = attrs["mode"]
    if mode == "constant":
        return xp.pad(x, width, mode="constant",
                      constant_values=x.dtype.type(attrs["constant_value"]))
    return xp.pad(x, width, mode=mode)


# edge/reflect Pad's backward in 1.9.1's order: every output position, in row-major order,
# adds its gradient into the input position it was read from. Inputs of up to this many
# elements take those steps (the k-th additions into all input positions at once, k = 1, 2,
# ...); larger ones sum each padded band at once.
_PAD_EXACT_MAX = 1 << 14


def _pad_source(n, b, a, mode):
    """The input index each output index along one axis reads (edge: clamp; reflect: mirror
    without repeating the border)."""
    src = np.arange(-b, n + a)
    if mode == "edge":
        return np.clip(src, 0, n - 1)
    src = np.abs(src)
    return np.where(src > n - 1, 2 * (n - 1) - src, src)


@functools.lru_cache(maxsize=64)
def _pad_gather_plan(spatial, pads, mode):
    """The additions into each input position, grouped by turn: turn 0 reads, for every
    input position, the first output position that adds into it; turn k >= 1 lists the input
    positions with a (k+1)-th addition and the output positions it reads."""
    flat_idx = np.zeros((), np.int64)
    for n, (b, a) in zip(spatial, pads):   # row-major flat input index per output position
        flat_idx = flat_idx[..., None] * n + _pad_source(n, b, a, mode)
    idx = flat_idx.reshape(-1)
    order, tgt, rank = addition_ranks(idx)
    by_turn = np.argsort(rank, kind="stable")
    bounds = np.searchsorted(rank[by_turn], np.arange(int(rank.max()) + 2))
    turns = [(tgt[by_turn[lo:hi]], order[by_turn[lo:hi]])
             for lo, hi in zip(bounds[:-1], bounds[1:])]
    return turns[0][1], turns[1:]


def _pad_backward_ordered(g, x_shape, pads, mode):
    first, rest = _pad_gather_plan(tuple(x_shape[2:]), tuple(pads[2:]), mode)
    maps = x_shape[0] * x_shape[1]
    flat = g.reshape(maps, -1)
    out = np.take(flat, first, axis=1)
    out += 0   # (1.9.1 adds into a zeroed gradient: -0.0 becomes +0.0)
    for pos, src in rest:
        out[:, pos] += np.take(flat, src, axis=1)
    return out.reshape(x_shape)


def _pad_backward(rc, attrs, g, x):
    pads = _pad_plan(attrs, x.shape, x.dtype)
    mode = attrs["mode"]
    xp = rc.xp
    if (mode != "constant" and xp is np and 0 < x.size <= _PAD_EXACT_MAX
            and all(b >= 0 and a >= 0 for b, a in pads)):
        return _pad_backward_ordered(g, x.shape, pads, mode)
    cur = g
    for ax, (b, a) in enumerate(pads):
        b, a = max(b, 0), max(a, 0)
        if not (b or a):
            continue
        n = cur.shape[ax] - b - a

        def sl(start, stop, step=None, _ax=ax):
            key = [slice(None)] * cur.ndim
            key[_ax] = slice(start, stop, step)
            return tuple(key)

        inner = cur[sl(b, b + n)].copy()
        if mode == "edge":
            inner[sl(0, 1)] += cur[sl(0, b)].sum(axis=ax, keepdims=True)
            inner[sl(n - 1, n)] += cur[sl(b + n, None)].sum(axis=ax, keepdims=True)
        elif mode == "reflect":
            if b:
                inner[sl(1, b + 1)] += xp.flip(cur[sl(0, b)], axis=ax)
            if a:
                inner[sl(n - 1 - a, n - 1)] += xp.flip(cur[sl(b + n, None)], axis=ax)
        cur = inner
    out = xp.zeros(x.shape, dtype=g.dtype)
    out[_crop_key(pads, x.shape)] = cur
    return out


def _pad_grad(F, attrs, ins, outs, og):
    return [F._backward_Pad(og[0], ins[0], mode=attrs["mode"], pad_width=attrs["pad_width"])]


_PAD_PARAMS = (Param("mode", "str", choices=_PAD_MODES), Param("pad_width", "shape"),
               Param("constant_value", "float", 0.0))

register("Pad", _pad, params=_PAD_PARAMS, gradient=_pad_grad, infer_shape=_one_in(_pad_shape),
         aliases=("pad",),
         doc="Pad the last 2 or 3 axes of a 4-D/5-D array with a constant, its edge values or "
             "its reflection.")


def _pad_backward_grad(F, attrs, ins, outs, og):
    return [F.Pad(og[0], mode=attrs["mode"], pad_width=attrs["pad_width"]), None]


register("_backward_Pad", _pad_backward, params=_PAD_PARAMS, inputs=("ograd", "data"),
         gradient=_pad_backward_grad, infer_shape=_like_input,
         doc="The gradient of Pad (``data`` supplies the input shape).")


# ---------------------------------------------------------------------------------------------
# slice, slice_axis, slice_like

def slice_plan(opname, shape, begin, end, step=()):
    """Python slices and the result shape for MXNet's ``slice(begin, end, step)``.

    Entries may be None. Axes beyond ``len(begin)`` are kept whole. Raises MXNetError on
    a zero step, mismatched lengths, too many axes, or a positive-step slice whose begin
    is at or after its end.
    """
    begin, end = tuple(begin), tuple(end)
    step = tuple(step) if step else (None,) * len(begin)
    if len(begin) != len(end):
        raise _err(opname, f"begin {begin} and end {end} must have the same length", shape)
    if len(step) != len(begin):
        raise _err(opname, f"step {step} must have the same length as begin {begin}", shape)
    if len(begin) > len(shape):
        raise _err(opname, f"begin {begin} names more axes than the input has", shape)
    key, out = [], list(shape)
    for i, (b, e, s) in enumerate(zip(begin, end, step)):
        n = shape[i]
        s = 1 if s is None else s
        if s == 0:
            raise _err(opname, f"step on axis {i} must not be 0", shape)
        if s > 0:
            b = 0 if b is None else (b + n if b < 0 else b)
            e = n if e is None else (e + n if e < 0 else e)
            b, e = min(max(b, 0), n), min(max(e, 0), n)
            if b >= e and b < n:
                raise _err(opname, f"slice on axis {i} with begin={begin[i]}, end={end[i]}, "
                                   f"step={s} is empty (begin must come before end)", shape)
            count = max(0, -(-(e - b) // s))
        else:
            b = n - 1 if b is None else (b + n if b < 0 else b)
            e = -1 if e is None else (e + n if e < 0 else e)
            b, e = min(b, n - 1), max(e, -1)
            count = max(0, -(-(b - e) // -s)) if b >= 0 else 0
        if count == 0:
            key.append(slice(0, 0))
        else:
            stop = b + count * s
            key.append(slice(b, None if stop < 0 else stop, s))
        out[i] = count
    return tuple(key), tuple(out)


def _slice_plan_attrs(attrs, shape, opname="slice"):
    return slice_plan(opname, shape, attrs["begin"], attrs["end"], attrs["step"])


def _slice(rc, attrs, x):
    key, _ = _slice_plan_attrs(attrs, x.shape)
    return x[key].copy()


def _scatter_back(xp, g, shape, key):
    out = xp.zeros(shape, dtype=g.dtype)
    out[key] = g
    return out


def _slice_backward(rc, attrs, g, x):
    key, _ = _slice_plan_attrs(attrs, x.shape, "_backward_slice")
    return _scatter_back(rc.xp, g, x.shape, key)


_SLICE_PARAMS = (Param("begin", "shape"), Param("end", "shape"),
                 Param("step", "shape", (), optional=True))


def _partial_slice_shape(attrs, shape):
    """slice's output shape; an axis of unknown size stays unknown, as in 1.9.1."""
    if None not in shape:
        return _slice_plan_attrs(attrs, shape)[1]
    out = _slice_plan_attrs(attrs, tuple(1 << 30 if d is None else d for d in shape))[1]
    return tuple(None if d is None else o for d, o in zip(shape, out))


def _slice_kw(attrs):
    return {"begin": attrs["begin"], "end": attrs["end"], "step": attrs["step"]}


register("slice", _slice, params=_SLICE_PARAMS,
         gradient=lambda F, a, ins, outs, og: [F._backward_slice(og[0], ins[0], **_slice_kw(a))],
         infer_shape=_one_in(lambda a, s: _partial_slice_shape(a, s)), aliases=("crop",),
         doc="Take ``data[begin:end:step]`` on the leading axes (None entries mean the default).")
register("_backward_slice", _slice_backward, params=_SLICE_PARAMS, inputs=("ograd", "data"),
         gradient=lambda F, a, ins, outs, og: [F.slice(og[0], **_slice_kw(a)), None],
         infer_shape=_like_input,
         doc="The gradient of slice: ``ograd`` placed into zeros shaped like ``data``.")


def _slice_axis_plan(attrs, shape, opname="slice_axis"):
    ndim = len(shape)
    axis = attrs["axis"]
    if not -ndim <= axis < ndim:
        raise _err(opname, f"axis={axis} is out of range for an array of {ndim} dims", shape)
    axis %= ndim
    n = shape[axis]
    b, e = attrs["begin"], attrs["end"]
    bb = b + n if b < 0 else b
    ee = n if e is None else (e + n if e < 0 else e)
    if bb < 0:
        raise _err(opname, f"begin={b} is out of range for axis {axis} of size {n}", shape)
    if ee > n:
        raise _err(opname, f"end={e} is beyond the size {n} of axis {axis}", shape)
    if not bb < ee:
        raise _err(opname, f"begin={b} must come before end={e} on axis {axis} of size {n}", shape)
    key = [slice(None)] * ndim
    key[axis] = slice(bb, ee)
    out = list(shape)
    out[axis] = ee - bb
    return tuple(key), tuple(out)


def _slice_axis(rc, attrs, x):
    key, _ = _slice_axis_plan(attrs, x.shape)
    return x[key].copy()


def _slice_axis_backward(rc, attrs, g, x):
    key, _ = _slice_axis_plan(attrs, x.shape, "_backward_slice_axis")
    return _scatter_back(rc.xp, g, x.shape, key)


_SLICE_AXIS_PARAMS = (Param("axis", "int"), Param("begin", "int"), Param("end", "int", optional=True))


def _slice_axis_kw(a):
    return {"axis": a["axis"], "begin": a["begin"], "end": a["end"]}


register("slice_axis", _slice_axis, params=_SLICE_AXIS_PARAMS,
         gradient=lambda F, a, ins, outs, og: [F._backward_slice_axis(og[0], ins[0],
                                                                      **_slice_axis_kw(a))],
         infer_shape=_one_in(lambda a, s: _slice_axis_plan(a, s)[1]),
         doc="Take ``begin:end`` along one axis (``end`` None means the axis end).")
register("_backward_slice_axis", _slice_axis_backward, params=_SLICE_AXIS_PARAMS,
         inputs=("ograd", "data"),
         gradient=lambda F, a, ins, outs, og: [F.slice_axis(og[0], **_slice_axis_kw(a)), None],
         infer_shape=_like_input,
         doc="The gradient of slice_axis: ``ograd`` placed into zeros shaped like ``data``.")


def _slice_like_plan(attrs, shape, like):
    ndim, lnd = len(shape), len(like)
    axes = tuple(attrs["axes"])
    if not axes:
        if ndim != lnd:
            raise MXNetError(f"slice_like: without axes both inputs need the same ndim; got "
                             f"data {tuple(shape)} and shape_like {tuple(like)}")
        pairs = [(i, i) for i in range(ndim)]
    else:
        pairs = []
        for a in axes:
            if not -ndim <= a < ndim or not -lnd <= a < lnd:
                raise MXNetError(f"slice_like: axis {a} is out of range for data {tuple(shape)} "
                                 f"or shape_like {tuple(like)}")
            pairs.append((a % ndim, a % lnd))
    key = [slice(None)] * ndim
    out = list(shape)
    for i, j in pairs:
        if like[j] > shape[i]:
            raise MXNetError(f"slice_like: axis {i} of shape_like {tuple(like)} is larger than "
                             f"that of data {tuple(shape)}")
        key[i] = slice(0, like[j])
        out[i] = like[j]
    return tuple(key), tuple(out)


def _slice_like(rc, attrs, x, like):
    key, _ = _slice_like_plan(attrs, x.shape, like.shape)
    return x[key].copy()


def _slice_like_infer(attrs, ins, outs):
    if not _known(*ins):
        return ins, outs, []
    return ins, [_slice_like_plan(attrs, tuple(ins[0]), tuple(ins[1]))[1]], []


def _slice_like_backward(rc, attrs, g, x):
    key = tuple(slice(0, s) for s in g.shape)
    return _scatter_back(rc.xp, g, x.shape, key)


register("slice_like", _slice_like, params=(Param("axes", "shape", ()),),
         inputs=("data", "shape_like"), infer_shape=_slice_like_infer,
         # the output takes data's dtype; shape_like's dtype is free (as in 1.9.1)
         infer_type=lambda a, i, o: ([i[0] if i[0] is not None else o[0]] + list(i[1:]),
                                     [i[0] if i[0] is not None else o[0]], []),
         gradient=lambda F, a, ins, outs, og: [F._backward_slice_like(og[0], ins[0]),
                                               F.zeros_like(ins[1])],
         doc="Cut ``data`` from the start to the shape of ``shape_like`` on the given axes.")
register("_backward_slice_like", _slice_like_backward, inputs=("ograd", "data"),
         gradient=lambda F, a, ins, outs, og: [F.slice_like(og[0], ins[0]), None],
         infer_shape=_like_input,
         doc="The gradient of slice_like: ``ograd`` in the leading corner of zeros like ``data``.")


# ---------------------------------------------------------------------------------------------
# diag

def _diag_plan(attrs, shape):
    """(axis1, axis2, length) of the diagonal, or None for 1-D input."""
    ndim = len(shape)
    k = attrs["k"]
    if ndim == 1:
        return None
    if ndim == 0:
        raise _err("diag", "input must have at least 1 dimension", shape)
    a1 = _axis_in("diag", "axis1", attrs["axis1"], ndim, shape)
    a2 = _axis_in("diag", "axis2", attrs["axis2"], ndim, shape)
    if a1 == a2:
        raise _err("diag", f"axis1 and axis2 both refer to axis {a1}", shape)
    n = min(shape[a1], shape[a2] - k) if k >= 0 else min(shape[a1] + k, shape[a2])
    if n < 0:
        raise _err("diag", f"diagonal k={k} does not exist for axes of sizes "
                           f"{shape[a1]} and {shape[a2]}", shape)
    return a1, a2, n


def _diag_shape(attrs, shape):
    plan = _diag_plan(attrs, shape)
    if plan is None:
        n = shape[0] + abs(attrs["k"])
        return (n, n)
    a1, a2, n = plan
    return tuple(s for i, s in enumerate(shape) if i not in (a1, a2)) + (n,)


def _diag_index(xp, k, n):
    i = xp.arange(n)
    return i + max(-k, 0), i + max(k, 0)


def _diag(rc, attrs, x):
    plan = _diag_plan(attrs, x.shape)
    xp = rc.xp
    k = attrs["k"]
    if plan is None:
        return xp.diag(x, k)
    a1, a2, _ = plan
    return xp.diagonal(x, k, a1, a2).copy()


def _diag_backward(rc, attrs, g, x):
    plan = _diag_plan(attrs, x.shape)
    xp = rc.xp
    k = attrs["k"]
    if plan is None:
        return xp.diagonal(g, k).copy()
    a1, a2, n = plan
    out = xp.zeros(x.shape, dtype=g.dtype)
    rows, cols = _diag_index(xp, k, n)
    xp.moveaxis(out, (a1, a2), (-2, -1))[..., rows, cols] = g
    return out


_DIAG_PARAMS = (Param("k", "int", 0), Param("axis1", "int", 0), Param("axis2", "int", 1))


def _diag_kw(a):
    return {"k": a["k"], "axis1": a["axis1"], "axis2": a["axis2"]}


register("diag", _diag, params=_DIAG_PARAMS, infer_shape=_one_in(_diag_shape),
         gradient=lambda F, a, ins, outs, og: [F._backward_diag(og[0], ins[0], **_diag_kw(a))],
         doc="The k-th diagonal over (axis1, axis2); a 1-D input builds a square matrix instead.")
register("_backward_diag", _diag_backward, params=_DIAG_PARAMS, inputs=("ograd", "data"),
         gradient=lambda F, a, ins, outs, og: [F.diag(og[0], **_diag_kw(a)), None],
         infer_shape=_like_input, doc="The gradient of diag (``data`` supplies the input shape).")


# ---------------------------------------------------------------------------------------------
# depth_to_space, space_to_depth

def _block_check(opname, attrs, shape):
    b = attrs["block_size"]
    if len(shape) != 4:
        raise _err(opname, f"input must be 4-D (N, C, H, W), got {len(shape)}-D", shape)
    if b <= 0:
        raise _err(opname, f"block_size={b} must be a positive integer", shape)
    return b


def _d2s_shape(attrs, shape):
    b = _block_check("depth_to_space", attrs, shape)
    n, c, h, w = shape
    if c % (b * b):
        raise _err("depth_to_space", f"channels {c} must be a multiple of block_size^2 = {b * b}",
                   shape)
    return (n, c // (b * b), h * b, w * b)


def _s2d_shape(attrs, shape):
    b = _block_check("space_to_depth", attrs, shape)
    n, c, h, w = shape
    if h % b or w % b:
        raise _err("space_to_depth", f"height {h} and width {w} must be multiples of "
                                     f"block_size={b}", shape)
    return (n, c * b * b, h // b, w // b)


def _depth_to_space(rc, attrs, x):
    out_shape = _d2s_shape(attrs, x.shape)
    b = attrs["block_size"]
    if b == 1:
        return x.copy()
    n, c, h, w = x.shape
    y = x.reshape(n, b, b, c // (b * b), h, w)
    return rc.xp.transpose(y, (0, 3, 4, 1, 5, 2)).reshape(out_shape)


def _space_to_depth(rc, attrs, x):
    out_shape = _s2d_shape(attrs, x.shape)
    b = attrs["block_size"]
    if b == 1:
        return x.copy()
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // b, b, w // b, b)
    return rc.xp.transpose(y, (0, 3, 5, 1, 2, 4)).reshape(out_shape)


register("depth_to_space", _depth_to_space, params=(Param("block_size", "int"),),
         infer_shape=_one_in(_d2s_shape),
         gradient=lambda F, a, ins, outs, og: [F.space_to_depth(og[0], block_size=a["block_size"])],
         doc="Move blocks of channel data into spatial blocks (N, C, H, W) -> "
             "(N, C/b^2, H*b, W*b).")
register("space_to_depth", _space_to_depth, params=(Param("block_size", "int"),),
         infer_shape=_one_in(_s2d_shape),
         gradient=lambda F, a, ins, outs, og: [F.depth_to_space(og[0], block_size=a["block_size"])],
         doc="Move spatial blocks into channels (N, C, H, W) -> (N, C*b^2, H/b, W/b).")


# ---------------------------------------------------------------------------------------------
# shape_array, size_array

def _shape_array(rc, attrs, x):
    return rc.xp.asarray(x.shape, dtype=np.int64).reshape(len(x.shape))


def _size_array(rc, attrs, x):
    return rc.xp.asarray([x.size], dtype=np.int64)


def _int64_type(attrs, ins, outs):
    return ins, [np.dtype(np.int64)], []


def _zero_grad(F, attrs, ins, outs, og):
    return [F.zeros_like(ins[0])]


register("shape_array", _shape_array, gradient=_zero_grad, infer_type=_int64_type,
         infer_shape=_one_in(lambda a, s: (len(s),)),
         doc="The shape of the input as a 1-D int64 array.")
register("size_array", _size_array, gradient=_zero_grad, infer_type=_int64_type,
         infer_shape=_one_in(lambda a, s: (1,)),
         doc="The number of elements of the input as a (1,) int64 array.")
