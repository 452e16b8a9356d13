"""Gluon: the imperative-first high-level API (blocks, parameters, trainer, data, losses)."""
from .block import Block, HybridBlock, SymbolBlock  # noqa: F401
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict  # noqa: F401
from . import utils  # noqa: F401
from ..ndarray import NDArray as _NDArray
from ..symbol import Symbol as _Symbol

tensor_types = (_Symbol, _NDArray)  # what a Gluon block takes as a tensor input, as in 1.9.1

for _mod in ("nn", "rnn", "loss", "data", "model_zoo", "contrib"):
    try:
        __import__(f"{__name__}.{_mod}")
    except ModuleNotFoundError as _e:  # parts still being written are optional
        if _e.name != f"{__name__}.{_mod}":
            raise
try:
    from .trainer import Trainer  # noqa: F401
except ModuleNotFoundError as _e:
    if _e.name != f"{__name__}.trainer":
        raise
