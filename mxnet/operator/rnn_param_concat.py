"""``_rnn_param_concat``: pack a fused RNN layer's separate weights into one flat vector.

Gluon's fused layers (``gluon.rnn.LSTM`` and friends) keep one Parameter per matrix and bias
(``l0_i2h_weight`` ...) and join them into the ``parameters`` input of the ``RNN`` operator at
every call. This operator is that join: every input is flattened (row-major) and the pieces
are laid end to end, so the result is always 1-D. ``dim`` is kept for compatibility with
1.9.1's graphs (which pass 1-D pieces with ``dim=0``) and must address that single axis.

Shape inference runs both ways. Forwards, the total is the sum of the input sizes. Backwards,
when the total is known (the ``RNN`` operator derives it from the data shape), what the complete
inputs leave over goes to the incomplete ones: to a single one, or shared evenly among several
that have the same partial shape (the input-to-hidden weights of both directions). An input with
one unknown dimension, such as a deferred ``(4 * hidden, 0)`` weight, gets that dimension from
its share. This is how a layer built with ``input_size=0`` learns its weight shapes.

The gradient cuts the output gradient back into pieces shaped like the inputs.
"""
from __future__ import annotations

import math

from ..base import MXNetError
from .registry import Param, register

_OP = "_rnn_param_concat"


def _check(opname, attrs):
    if attrs["num_args"] < 1:
        raise MXNetError(f"{opname}: num_args must be at least 1, got {attrs['num_args']}")
    if attrs["dim"] not in (0, -1):
        raise MXNetError(f"{opname}: the pieces are joined as flat vectors, so dim must be 0 "
                         f"(or -1), got {attrs['dim']}")


def _params():
    return (Param("num_args", "int", doc="Number of inputs."),
            Param("dim", "int", 1, doc="Axis of the (flattened, 1-D) pieces to join along: "
                                       "0 or -1."))


def _compute(rc, attrs, *arrays):
    d0 = arrays[0].dtype
    for i, a in enumerate(arrays):
        if a.dtype != d0:
            seen = ", ".join(f"{tuple(b.shape)} {b.dtype}" for b in arrays)
            raise MXNetError(f"{_OP}: input {i} has dtype {a.dtype} but input 0 has {d0}; all "
                             f"inputs must share a dtype (inputs: {seen})")
    return rc.xp.concatenate([a.reshape(-1) for a in arrays])


def _size(shape):
    """The element count of a shape, or None while any dimension is unknown."""
    if shape is None or any(d is None for d in shape):
        return None
    return math.prod(shape)


def _fill_one(shape, rest):
    """``shape`` (None or with unknown dims) completed so that it holds ``rest`` elements,
    or None when that is not determined."""
    if shape is None:
        return (rest,)
    unknown = [i for i, d in enumerate(shape) if d is None]
    if len(unknown) != 1:
        return None
    known = math.prod(d for d in shape if d is not None)
    if known == 0 or rest % known:
        raise MXNetError(f"{_OP}: {rest} elements are left for an input of shape "
                         f"{tuple(0 if d is None else d for d in shape)}, which cannot hold them")
    out = list(shape)
    out[unknown[0]] = rest // known
    return tuple(out)


def _infer_shape(attrs, in_shapes, out_shapes):
    ins = list(in_shapes)
    outs = list(out_shapes) if out_shapes else [None]
    sizes = [_size(s) for s in ins]
    if all(n is not None for n in sizes):
        return ins, [(sum(sizes),)], []
    total = outs[0][0] if outs[0] is not None and len(outs[0]) == 1 else None
    missing = [i for i, n in enumerate(sizes) if n is None]
    # several incomplete inputs share what is left only when they look alike (the i2h weights
    # of both directions of a layer, all waiting for the same input size)
    if total is None or len({ins[i] for i in missing}) != 1:
        return ins, outs, []
    rest = total - sum(n for n in sizes if n is not None)
    if rest < 0 or rest % len(missing):
        raise MXNetError(f"{_OP}: the known inputs leave {rest} of the {total} output elements "
                         f"for {len(missing)} incomplete input(s), which cannot share them")
    filled = _fill_one(ins[missing[0]], rest // len(missing))
    if filled is not None:
        for i in missing:
            ins[i] = filled
    return ins, outs, []


def _gradient(F, attrs, ins, outs, og):
    n = len(ins)
    res = F._backward_rnn_param_concat(og[0], *ins, num_args=n, dim=attrs["dim"])
    if n == 1 and not isinstance(res, (list, tuple)):
        return [res]
    return [res[i] for i in range(n)]


register(_OP, _compute, params=_params(), variadic="num_args", infer_shape=_infer_shape,
         gradient=_gradient, attr_check=_check,
         doc="Flatten every input and join them into one 1-D vector (the packed parameters of "
             "a fused RNN layer).")


def _backward_compute(rc, attrs, g, *arrays):
    pieces, start = [], 0
    for a in arrays:
        n = a.size
        pieces.append(g[start:start + n].reshape(a.shape).copy())
        start += n
    if start != g.shape[0]:
        raise MXNetError(f"_backward{_OP}: the gradient has {g.shape[0]} elements but the "
                         f"inputs hold {start}")
    return tuple(pieces)


def _backward_infer_shape(attrs, in_shapes, out_shapes):
    return list(in_shapes), list(in_shapes[1:]), []


def _backward_gradient(F, attrs, ins, outs, og):
    return [F._rnn_param_concat(*og, num_args=len(og), dim=0)] + [None] * attrs["num_args"]


register("_backward_rnn_param_concat", _backward_compute, params=_params(),
         inputs=lambda attrs: ["ograd"] + [f"arg{i}" for i in range(attrs["num_args"])],
         num_outputs=lambda attrs: attrs["num_args"], infer_shape=_backward_infer_shape,
         gradient=_backward_gradient, attr_check=_check, nd_hidden=True,
         doc="The gradient of _rnn_param_concat: the flat gradient cut into pieces shaped "
             "like the inputs.")
