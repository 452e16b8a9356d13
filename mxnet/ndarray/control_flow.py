"""Imperative control flow of ``mx.nd.contrib``: foreach, while_loop and cond.

They run the user's Python callables eagerly, as 1.9.1 does for NDArrays: the operators the
callables use are recorded by autograd like any others, so gradients flow through loops and
branches without special support.

Outputs may be an NDArray or (nested) lists of NDArrays; they are flattened per step, stacked
along a new first axis, and regrouped into the structure of the last step's output.
"""
from __future__ import annotations

from .._nest import flatten, regroup
from ..base import MXNetError
from .ndarray import NDArray

__all__ = ["foreach", "while_loop", "cond"]


class _NestError(MXNetError, TypeError, AssertionError):
    """Data, states or outputs that are not (nested lists of) NDArrays: 1.9.1 asserts this,
    so the error is also an AssertionError (and a TypeError, as it was here before)."""


def _nd():
    from .. import ndarray
    return ndarray


def _flatten(args, what):
    """(flat list of NDArrays, format) of an NDArray or nested list of NDArrays."""
    return flatten(args, lambda x: [x] if isinstance(x, NDArray) else None, what, "NDArray",
                   _NestError, "an")


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _scalar(value, kind, what):
    if hasattr(value, "asscalar"):
        value = value.asscalar()
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise ValueError(f"Cannot convert {what} to python {kind.__name__}") from None


def foreach(body, data, init_states):
    """Run ``body`` over the first axis of ``data``, threading loop states.

    ``out, states = body(data[i], states)`` for every i (``data`` may be a list of
    NDArrays, then ``body`` gets the list of their i-th slices). Returns the per-step
    outputs stacked along a new axis 0, and the final states.

    >>> step = lambda x, s: (x * 2, [s[0] + x])
    >>> outs, states = mx.nd.contrib.foreach(step, mx.nd.arange(3), [mx.nd.zeros(1)])
    >>> outs.asnumpy().ravel().tolist(), states[0].asscalar()
    ([0.0, 2.0, 4.0], 3.0)
    """
    _flatten(data, "foreach data")
    _flatten(init_states, "foreach init_states")
    single = isinstance(data, NDArray)
    steps = data.shape[0] if single else data[0].shape[0]
    states = init_states
    per_step, fmt = [], None
    for i in range(steps):
        piece = data[i] if single else [d[i] for d in data]
        out, states = body(piece, states)
        flat, fmt = _flatten(out, "foreach output")
        per_step.append(flat)
    if fmt is None:
        raise ValueError("foreach needs at least one step (data has length 0 along axis 0)")
    stack = _nd().stack
    stacked = [stack(*items, axis=0) for items in zip(*per_step)]
    outputs, _ = regroup(stacked, fmt)
    return outputs, states


def while_loop(cond, func, loop_vars, max_iterations=None):
    """Run ``func`` while ``cond`` holds, for at most ``max_iterations`` steps.

    ``cond(*loop_vars)`` returns a scalar NDArray (or a Python value);
    ``func(*loop_vars)`` returns ``(step_output, new_loop_vars)``. Returns the step outputs
    stacked along axis 0 -- padded to ``max_iterations`` rows (the padding is zeros; 1.9.1
    leaves it uninitialised) -- and the final loop variables.

    >>> outs, (i,) = mx.nd.contrib.while_loop(lambda i: i < 3, lambda i: (i * i, [i + 1]),
    ...                                       [mx.nd.array([0])], max_iterations=5)
    >>> outs.shape, i.asscalar()
    ((5, 1), 3.0)
    """
    if max_iterations is None:
        raise ValueError("max_iterations should be specified")
    max_iterations = _scalar(max_iterations, int, "max_iteration")
    if len(loop_vars) == 0:
        raise ValueError("loop_vars should contain at least one element")
    single = isinstance(loop_vars, NDArray)
    loop_vars = _as_list(loop_vars)
    steps, per_step, fmt = 0, [], None
    while steps < max_iterations and _scalar(cond(*loop_vars), bool, "Return value of cond"):
        step_out, new_vars = func(*loop_vars)
        step_out = [] if step_out is None else step_out
        new_vars = _as_list([] if new_vars is None else new_vars)
        if len(new_vars) != len(loop_vars):
            raise ValueError("The length of loop_vars should be consistent during the loop")
        loop_vars = new_vars
        flat, fmt = _flatten(step_out, "while output")
        if per_step and len(flat) != len(per_step[0]):
            raise ValueError("Number of elements in step_output should be the same in each "
                             "step")
        per_step.append(flat)
        steps += 1
    nd = _nd()
    stacked = []
    for k, items in enumerate(zip(*per_step), 1):
        rows = [x.expand_dims(0) for x in items]
        if steps != max_iterations:
            pad = (max_iterations - steps,) + tuple(items[0].shape)
            rows.append(nd.zeros(pad, ctx=items[0].context, dtype=items[0].dtype))
        shapes = {tuple(x.shape[1:]) for x in rows}
        if len(shapes) > 1:
            raise ValueError(f"Shapes of {k}-th elements in step_outputs are inconsistent: "
                             + ", ".join(f"step {i}: {tuple(x.shape)}"
                                         for i, x in enumerate(items)))
        stacked.append(nd.concat(*rows, dim=0))
    if fmt is not None:
        stacked, _ = regroup(stacked, fmt)
    return stacked, (loop_vars[0] if single else loop_vars)


def cond(pred, then_func, else_func):
    """``then_func()`` if the scalar ``pred`` is true, else ``else_func()``.

    >>> mx.nd.contrib.cond(mx.nd.array([1]), lambda: mx.nd.ones(1), lambda: mx.nd.zeros(1))
    ... # doctest: +SKIP
    """
    return then_func() if _scalar(pred, bool, "pred") else else_func()
