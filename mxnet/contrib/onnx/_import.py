"""import_model / get_model_metadata / import_to_gluon."""
import os
import tempfile

from ...onnx._deps import require_onnx


def _load(model_file):
    onnx = require_onnx()
    return onnx.load_model(model_file)


def import_model(model_file):
    """Read an ONNX file into MXNet: returns ``(sym, arg_params, aux_params)``.

    Parameters come back as NDArrays keyed by the ONNX initializer names; batch-norm
    running statistics are auxiliary states. Shape arithmetic that depends only on static
    shapes (``Shape``/``Gather``/``Concat`` feeding ``Reshape``) is evaluated at import time.
    """
    from .onnx2mx._graph import Importer, opset_of
    model = _load(model_file)
    return Importer(model.graph, opset_of(model)).run(model)


def get_model_metadata(model_file):
    """Inputs and outputs of an ONNX file, as 1.9.1 reports them::

        {'input_tensor_data': [(name, shape, onnx_elem_type), ...],
         'output_tensor_data': [(name, shape), ...]}

    Initializers are not listed among the inputs; symbolic dims read as 0.
    """
    from .onnx2mx._graph import metadata
    return metadata(_load(model_file).graph)


def import_to_gluon(model_file, ctx):
    """Read an ONNX file into a ``gluon.nn.SymbolBlock`` whose parameters live on ``ctx``."""
    from ... import ndarray as nd
    from ... import symbol
    from ...gluon import SymbolBlock
    from .onnx2mx._graph import Importer, metadata, opset_of
    model = _load(model_file)
    sym, arg_params, aux_params = Importer(model.graph, opset_of(model)).run(model)
    inputs = [symbol.var(name) for name, _, _ in metadata(model.graph)["input_tensor_data"]]
    net = SymbolBlock(sym, inputs)
    params = dict(arg_params)
    params.update(aux_params)
    if params:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "onnx_import.params")
            nd.save(path, params)
            # integer constants (indices, shapes) keep their own dtype
            net.collect_params().load(path, ctx=ctx, ignore_extra=True, cast_dtype=True,
                                      dtype_source="saved")
    return net
