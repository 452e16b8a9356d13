"""The autograd tape's data: nodes that remember how each recorded array was made.

An NDArray produced while recording gets ``_node = (TapeNode, output_index)``; an array
with ``attach_grad`` gets ``(Leaf, 0)``. ``mxnet.autograd`` walks these to run backward.
"""
from __future__ import annotations

import weakref

__all__ = ["TapeNode", "Leaf", "FusedNode", "WRITTEN", "live_entry"]


class Leaf:
    """A variable whose gradient is wanted: the array, its grad buffer and grad_req."""

    __slots__ = ("_ref", "fresh", "__weakref__")
    freed = False   # as TapeNode.freed: a variable is never consumed by backward

    def __init__(self, array):
        self._ref = weakref.ref(array)  # weak: the array holds its Leaf; no cycle
        self.fresh = False  # set by backward when it writes the gradient; Trainer clears it

    @property
    def array(self):
        """The variable array, or None once it has been garbage collected."""
        return self._ref()


def live_entry(array):
    """``array._node``, or None when the node belongs to a graph that backward has already
    consumed (freed): such an array enters new graphs as a constant, as 1.9.1 gives it a
    fresh, gradient-less variable (d2l's RNN loops carry the state of the previous batch into
    the next one)."""
    e = array._node
    return None if e is not None and e[0].freed else e


class TapeNode:
    """One recorded operator call.

    ``gradient`` overrides the operator's rule (custom Functions); ``inputs`` keeps the
    input arrays, ``in_entries`` the (node, index) they had when recorded. Outputs are
    kept as raw device arrays (``out_data``), not NDArrays, so that no reference cycle
    ties an output to its node.
    """

    __slots__ = ("op", "attrs", "inputs", "in_entries", "out_data", "ctx", "gradient",
                 "claimed", "__weakref__")

    def __init__(self, op, attrs, inputs, out_data, ctx, gradient=None):
        self.op = op
        self.attrs = attrs
        self.inputs = inputs
        # live_entry inlined (this runs for every recorded op)
        self.in_entries = [None if (e := a._node) is not None and e[0].freed else e
                           for a in inputs]
        self.out_data = out_data
        self.ctx = ctx
        self.gradient = gradient
        # set when an asynchronous backward pass that will free the node has started
        self.claimed = False

    @property
    def freed(self) -> bool:
        return self.inputs is None or self.claimed

    def free(self):
        """Drop the saved arrays once backward no longer needs them."""
        self.inputs = None
        self.in_entries = None
        self.out_data = None


class _Written:
    """Marks a gradient that a fused node already wrote into the leaf's gradient buffer."""

    __slots__ = ()

    def __repr__(self):
        return "WRITTEN"


WRITTEN = _Written()


class FusedNode(TapeNode):
    """One tape node standing for a whole graph run as a unit (a hybridized block's call).

    ``runner`` does the work: ``runner.backward(node, out_grads, sinks, transient)`` returns
    one gradient per input (an NDArray, None, or :data:`WRITTEN` when it wrote straight
    into the buffer ``sinks[i]`` named), and ``runner.release()`` gives back the buffers
    the call holds once backward no longer needs them.
    """

    __slots__ = ("runner",)

    def __init__(self, op, inputs, out_data, ctx, runner):
        super().__init__(op, {}, inputs, out_data, ctx)
        self.runner = runner

    def free(self):
        super().free()
        self._release()

    def _release(self):
        runner, self.runner = self.runner, None
        if runner is not None:
            runner.release()

    def __del__(self):
        try:
            self._release()
        except Exception:  # noqa: BLE001 - e.g. at interpreter shutdown
            pass
