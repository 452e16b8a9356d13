"""Experimental contributions (``mx.contrib``), as laid out in MXNet 1.9.1.

- ``mx.contrib.onnx``: ONNX import (``import_model``, ``get_model_metadata``,
  ``import_to_gluon``) and the older location of ``export_model``;
- ``mx.contrib.ndarray`` / ``mx.contrib.nd`` and ``mx.contrib.symbol`` / ``mx.contrib.sym``:
  the contrib operators, the same functions as ``mx.nd.contrib`` and ``mx.sym.contrib``;
- ``mx.contrib.quantization``: INT8 model quantization (``quantize_model``, ``quantize_net``);
- ``mx.contrib.amp`` (mixed precision), ``text`` (vocabulary, embeddings), ``io``
  (DataLoaderIter), ``autograd`` (the older autograd API), ``svrg_optimization`` (SVRGModule),
  ``tensorboard`` (LogMetricsCallback): see docs/contrib.md.

Submodules load on first use, so ``import mxnet`` stays fast and needs no onnx.
"""
from .._lazy import lazy_submodules

_SUBMODULES = {"onnx": "onnx", "ndarray": "ndarray", "nd": "ndarray", "symbol": "symbol",
               "sym": "symbol", "quantization": "quantization", "quant": "quantization"}
_SUBMODULES.update({"amp": "amp", "text": "text", "io": "io", "autograd": "autograd",
                    "svrg_optimization": "svrg_optimization", "tensorboard": "tensorboard"})

__all__ = sorted(_SUBMODULES)


__getattr__ = lazy_submodules(__name__, _SUBMODULES)


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES))
