"""The operator registry and every operator definition.

Importing this package registers all operators. ``mx.operator`` also hosts the custom
operator API (CustomOp, CustomOpProp, register) once it lands.
"""
from . import _common, elemwise, init_ops, reduce, shape  # noqa: F401  (registration side effects)
from .registry import OpDef, Param, all_ops, get_op, register  # noqa: F401

_FAMILIES = ("indexing_ops", "sort", "linalg", "random_ops", "shape_ops", "special",
             "nn_dense", "nn_conv", "nn_pool", "nn_activation", "nn_output", "nn_norm", "nn_misc",
             "nn_rnn", "nn_spatial", "nn_loss", "nn_ctc", "contrib", "custom", "optimizer_ops",
             "misc_ops", "rnn_param_concat", "contrib_box", "contrib_detection",
             "contrib_optim", "contrib_signal", "contrib_proposal", "contrib_roi_pool",
             "contrib_deformable", "control_flow_ops", "contrib_quantize",
             "contrib_quantized", "contrib_quantized_rnn", "contrib_extra", "image_ops",
             "contrib_graph", "sparse_retain", "legacy_ops")
for _mod in _FAMILIES:
    try:
        __import__(f"{__name__}.{_mod}")
    except ModuleNotFoundError as _e:  # families still being written are optional
        if _e.name != f"{__name__}.{_mod}":
            raise

# the public custom-operator API (mx.operator.register is the CustomOpProp decorator, as in 1.9.1)
from .custom import (CustomOp, CustomOpProp, OperatorArguments,  # noqa: E402,F401,F811
                     get_all_registered_operators, get_operator_arguments, register)
# the deprecated Python operators of the first releases (1.9.1 still has them)
from .legacy_python_op import NDArrayOp, NumpyOp, PythonOp  # noqa: E402,F401
