"""The deprecated Python operator API of the first MXNet releases: ``mx.operator.PythonOp``,
``NumpyOp`` and ``NDArrayOp`` (still present in 1.9.1, which warns that CustomOp replaces it).

A subclass overrides ``list_arguments``, ``list_outputs``, ``infer_shape`` (returning the input
and output shapes), ``forward(in_data, out_data)`` and ``backward(out_grad, in_data, out_data,
in_grad)``; calling an instance with input symbols (``op(data=fc, name='sm')``) makes a symbol.
``NumpyOp`` hands NumPy arrays to ``forward``/``backward`` and copies what they write into the
outputs back; ``NDArrayOp`` hands the NDArrays themselves.

Here each instance is run through the ``Custom`` operator: the instance is registered as a
:class:`CustomOpProp` of its own (op_type ``_legacy_python_op_<n>``). So the values, shapes,
output names (``<name>_output``) and gradients follow the instance's methods, while the saved
graph names ``Custom`` where 1.9.1's names ``_Native`` / ``_NDArray`` (whose graphs cannot be
loaded back anyway: they point into the running process).
"""
from __future__ import annotations

import itertools
import warnings

import numpy as np

from .custom import CustomOp, CustomOpProp, register

__all__ = ["PythonOp", "NumpyOp", "NDArrayOp"]

_COUNTER = itertools.count()


class PythonOp:
    """Base class of the deprecated Python operators (use :class:`CustomOp` instead)."""

    _ref_holder: list = []

    def __init__(self, need_top_grad=True):
        self.info_ = None
        self.need_top_grad_ = need_top_grad
        warnings.warn("PythonOp has been deprecated. Please use CustomOp", stacklevel=2)

    def __call__(self, *args, **kwargs):
        return self.get_symbol(*args, **kwargs)

    def get_symbol(self, *args, **kwargs):
        """The symbol of this operator applied to the input symbols (overridden below)."""
        raise NotImplementedError("Must override this")

    def forward(self, in_data, out_data):
        """Write the outputs from the inputs (default: copy the first input)."""
        out_data[0][:] = in_data[0]

    def backward(self, out_grad, in_data, out_data, in_grad):
        """Write the input gradients (default: ones)."""
        in_grad[0][:] = 1.0

    def infer_shape(self, in_shape):
        """(input shapes, output shapes); by default one output shaped like the first input."""
        return in_shape, [in_shape[0]]

    def list_outputs(self):
        return ["output"]

    def list_arguments(self):
        return ["data"]

    def need_top_grad(self):
        """Whether ``backward`` reads the output gradient."""
        return self.need_top_grad_

    # -- the Custom operator behind the symbol ---------------------------------------------------
    def _custom_symbol(self, args, kwargs, host_arrays):
        from .. import symbol
        if self.info_ is None:
            self.info_ = f"_legacy_python_op_{next(_COUNTER)}"
            register(self.info_)(_make_prop(self, host_arrays))
            PythonOp._ref_holder.append(self)
        return symbol.Custom(*args, op_type=self.info_, **kwargs)


class NumpyOp(PythonOp):
    """A deprecated Python operator computed on NumPy arrays."""

    def __init__(self, need_top_grad=True):
        super().__init__(need_top_grad)
        warnings.warn("NumpyOp has been deprecated. Please use CustomOp", stacklevel=2)

    def get_symbol(self, *args, **kwargs):
        return self._custom_symbol(args, kwargs, True)


class NDArrayOp(PythonOp):
    """A deprecated Python operator computed on NDArrays."""

    def __init__(self, need_top_grad=True):
        super().__init__(need_top_grad)
        warnings.warn("NDArrayOp has been deprecated. Please use CustomOp", stacklevel=2)

    def get_symbol(self, *args, **kwargs):
        return self._custom_symbol(args, kwargs, False)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The ids (among ``out_grad``, ``in_data``, ``out_data``) ``backward`` reads."""
        deps = []
        if self.need_top_grad():
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps


class _LegacyOp(CustomOp):
    """Runs a PythonOp's forward/backward for the Custom operator."""

    def __init__(self, legacy, host_arrays):
        super().__init__()
        self._legacy = legacy
        self._host = host_arrays

    def _run(self, method, groups, targets, req):
        if not self._host:   # NDArrayOp: the arrays themselves, written in place
            method(*groups, targets)
            return
        host = [[a.asnumpy() for a in g] for g in groups]
        bufs = [np.zeros(t.shape, dtype=t.dtype) for t in targets]
        method(*host, bufs)
        from ..ndarray import array
        for t, r, b in zip(targets, req, bufs):
            self.assign(t, r, array(b, ctx=t.context, dtype=t.dtype))

    def forward(self, is_train, req, in_data, out_data, aux):
        lg = self._legacy
        self._run(lambda ins, outs: lg.forward(in_data=ins, out_data=outs), [in_data],
                  out_data, req)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        lg = self._legacy
        og = out_grad if lg.need_top_grad() else []
        self._run(lambda g, i, o, ig: lg.backward(out_grad=g, in_data=i, out_data=o, in_grad=ig),
                  [og, in_data, out_data], in_grad, req)


def _make_prop(legacy, host_arrays):
    class _LegacyProp(CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=legacy.need_top_grad())

        def list_arguments(self):
            return legacy.list_arguments()

        def list_outputs(self):
            return legacy.list_outputs()

        def infer_shape(self, in_shape):
            res = legacy.infer_shape(in_shape)
            return res[0], res[1], []

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            own = getattr(legacy, "declare_backward_dependency", None)
            if own is not None:
                return own(out_grad, in_data, out_data)
            return super().declare_backward_dependency(out_grad, in_data, out_data)

        def create_operator(self, ctx, in_shapes, in_dtypes):
            return _LegacyOp(legacy, host_arrays)

    _LegacyProp.__name__ = _LegacyProp.__qualname__ = f"{type(legacy).__name__}Prop"
    return _LegacyProp
