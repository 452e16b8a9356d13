"""export_model: an MXNet Symbol and its parameters -> an .onnx file."""
import logging
import os

import numpy as np

from ...base import MXNetError
from .._deps import require_onnx
from ._graph import DEFAULT_OPSET, MIN_OPSET, build_graph


def get_operator_support(opset_version=None):
    """Sorted names of the MXNet operators :func:`export_model` can convert."""
    require_onnx()
    from ._registry import load_converters
    return sorted(load_converters())


class _BadArgument(MXNetError, ValueError):
    """A wrong sym/params argument: a ValueError as in 1.9.1, and an MXNetError."""


def _load_inputs(sym, params):
    """Symbol and merged parameters from objects or file paths (either may be a path)."""
    from ... import ndarray as nd
    from ... import symbol
    for path in (sym, params):
        if isinstance(path, (str, os.PathLike)) and not os.path.isfile(path):
            raise _BadArgument(f"export_model: file '{path}' does not exist; pass a -symbol.json "
                               "path and a .params path, or a Symbol and a dict of parameters")
    if isinstance(sym, (str, os.PathLike)):
        sym = symbol.load(os.fspath(sym))
    if isinstance(params, (str, os.PathLike)):
        params = nd.load(os.fspath(params))
    if isinstance(params, (list, tuple)) and len(params) == 2 and all(
            isinstance(p, dict) for p in params):
        params = {**params[0], **params[1]}
    if not isinstance(sym, symbol.Symbol) or not isinstance(params, dict):
        raise _BadArgument(f"export_model: sym and params must be a Symbol and a dict (or "
                           f"[arg_params, aux_params]), or file paths; got "
                           f"{type(sym).__name__} and {type(params).__name__}")
    return sym, params


def _resolve_opset(onnx, opset_version):
    newest = onnx.defs.onnx_opset_version()
    if opset_version is None:
        return min(DEFAULT_OPSET, newest)
    opset_version = int(opset_version)
    if not MIN_OPSET <= opset_version <= newest:
        raise MXNetError(f"export_model: opset_version={opset_version} is not supported; "
                         f"expected {MIN_OPSET} to {newest} (the installed onnx's newest)")
    return opset_version


def export_model(sym, params, in_shapes=None, in_types=np.float32, onnx_file_path="model.onnx",
                 verbose=False, dynamic=False, dynamic_input_shapes=None,
                 run_shape_inference=False, input_type=None, input_shape=None,
                 opset_version=None):
    """Write an MXNet model as an ONNX file and return the file's path.

    Parameters
    ----------
    sym : Symbol or str
        The model, or the path of its ``-symbol.json`` file.
    params : dict, list of two dicts, or str
        Parameters by name (``arg:``/``aux:`` prefixes allowed), ``[arg_params, aux_params]``,
        or the path of a ``.params`` file.
    in_shapes : list of tuple
        One shape per data input, in ``sym.list_inputs()`` order (parameters and loss
        labels are not data inputs).
    in_types : dtype or list of dtype
        The data inputs' types, one for all or one per input.
    onnx_file_path : str
        Where to write the model.
    verbose : bool
        Log each converted node.
    dynamic : bool
        Mark the inputs' and outputs' dimensions as symbolic; ``dynamic_input_shapes``
        gives the inputs' dims (None for a symbolic one) instead of all-symbolic.
    run_shape_inference : bool
        Annotate the file with ONNX shape inference (kept as is if inference fails).
    input_type, input_shape :
        Old names of ``in_types`` and ``in_shapes``.
    opset_version : int, optional
        The ONNX opset to write; 13 by default.
    """
    onnx = require_onnx()
    if input_type is not None:
        in_types = input_type
    if input_shape is not None:
        in_shapes = input_shape
    if in_shapes is None:
        raise MXNetError("export_model: in_shapes is required (one shape per data input)")
    if in_shapes and isinstance(in_shapes[0], int):
        in_shapes = [in_shapes]
    if not isinstance(in_types, (list, tuple)):
        in_types = [in_types] * len(in_shapes)
    in_types = [np.dtype(t) for t in in_types]

    sym, params = _load_inputs(sym, params)
    opset = _resolve_opset(onnx, opset_version)
    graph = build_graph(sym, params, in_shapes, in_types, opset, dynamic=dynamic,
                        dynamic_input_shapes=dynamic_input_shapes, verbose=verbose)
    opsets = [onnx.helper.make_opsetid("", opset)]
    model = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="mxnet-py",
                                   ir_version=onnx.helper.find_min_ir_version_for(opsets))
    onnx.checker.check_model(model)
    if run_shape_inference:
        try:
            model = onnx.shape_inference.infer_shapes(model)
        except Exception as err:  # ONNX's inference has gaps; the unannotated model is valid
            logging.info("ONNX shape inference failed, keeping the model as is: %s", err)
    with open(onnx_file_path, "wb") as f:
        f.write(model.SerializeToString())
    logging.info("Exported ONNX file %s (opset %d, input shapes %s)", onnx_file_path, opset,
                 in_shapes)
    return onnx_file_path
