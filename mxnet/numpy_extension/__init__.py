"""``mx.npx``: MXNet's extensions to the NumPy interface: the semantics switches, neural-network
operators on ``mx.np`` arrays, devices, and saving/loading NumPy arrays."""
from __future__ import annotations

from ..context import Context, cpu, cpu_pinned, current_context, gpu, num_gpus  # noqa: F401
from ..util import (is_np_array, is_np_shape, np_array, np_shape, reset_np, set_np,  # noqa: F401
                    set_np_shape, use_np, use_np_array, use_np_shape)
from ..util import get_cuda_compute_capability  # noqa: F401
from . import random  # noqa: F401
from ._op import *  # noqa: F401,F403
from ._op import __all__ as _op_all
from .utils import load, save  # noqa: F401
from .random import seed  # noqa: F401


def __getattr__(name):
    # npx.image is loaded on first use (it reaches into mx.image)
    if name == "image":
        import importlib
        return importlib.import_module(".image", __name__)
    raise AttributeError(f"module 'mxnet.numpy_extension' has no attribute '{name}'")


def waitall():
    """Wait until all pending work finishes (as ``mx.nd.waitall``)."""
    from ..ndarray import waitall as _w
    _w()


__all__ = ["set_np", "reset_np", "is_np_array", "is_np_shape", "use_np", "use_np_array",
           "use_np_shape", "np_array", "np_shape", "set_np_shape", "cpu", "gpu", "cpu_pinned",
           "num_gpus", "current_context", "waitall", "seed", "load", "save", "random", "image",  # noqa: F405  (image: loaded on first use)
           "Context"] + list(_op_all)
