"""mxnet-py: a pure-Python reimplementation of Apache MXNet 1.x on NumPy (and CuPy).

``import mxnet as mx`` gives the 1.9.1 API: mx.nd, mx.autograd, mx.context, ...
"""
__version__ = "1.9.1"

import os as _os  # noqa: E402

if "MXNET_LAUNCH_RUNDIR" in _os.environ:  # a process of python -m mxnet.tools.launch
    from .tools.launch import note_process_start as _note_start  # noqa: E402
    _note_start()

from . import base, context, engine  # noqa: E402,F401
from .base import MXNetError  # noqa: E402,F401
from .context import Context, cpu, cpu_pinned, current_context, gpu  # noqa: E402,F401
from . import ndarray  # noqa: E402,F401
from . import ndarray as nd  # noqa: E402,F401
from . import autograd  # noqa: E402,F401
from . import name, attribute, registry  # noqa: E402,F401
from .attribute import AttrScope  # noqa: E402,F401
from . import symbol  # noqa: E402,F401
from . import symbol as sym  # noqa: E402,F401
for _m in ("initializer", "optimizer", "lr_scheduler", "metric", "kvstore"):
    try:
        __import__(f"{__name__}.{_m}")
    except ModuleNotFoundError as _e:  # parts of the update path still being written
        if _e.name != f"{__name__}.{_m}":
            raise
if "initializer" in dir():
    from . import initializer as init  # noqa: E402,F401
if "kvstore" in dir():
    from . import kvstore as kv  # noqa: E402,F401
from . import gluon  # noqa: E402,F401
from . import profiler  # noqa: E402,F401
from . import io, recordio, image  # noqa: E402,F401
from . import module, model, callback, monitor  # noqa: E402,F401
from . import module as mod  # noqa: E402,F401
from . import monitor as mon  # noqa: E402,F401
from . import visualization  # noqa: E402,F401
from . import visualization as viz  # noqa: E402,F401
from . import random  # noqa: E402,F401
from . import test_utils  # noqa: E402,F401

from . import _lazy, util  # noqa: E402,F401
from .util import (is_np_array, is_np_shape, np_array, np_shape,  # noqa: E402,F401
                   set_np_shape, use_np, use_np_array, use_np_shape)

_LAZY = {"np": "numpy", "numpy": "numpy", "npx": "numpy_extension",
         "numpy_extension": "numpy_extension", "onnx": "onnx", "contrib": "contrib"}
# the small modules 1.9.1 imports with mxnet (mx.misc and mx.space need an import, as there)
_LAZY.update({m: m for m in ("runtime", "log", "error", "notebook", "executor_manager",
                             "library", "rtc", "tvmop", "torch", "libinfo", "rnn")}, th="torch",
             rnd="random", img="image")


# mx.np / mx.npx / mx.onnx / mx.contrib load on first use, keeping ``import mxnet`` fast
__getattr__ = _lazy.lazy_submodules(__name__, _LAZY)


# Last: in a distributed job's server process (DMLC_ROLE=server) this serves until the
# job ends and exits, as in 1.9.1; without DMLC_ROLE or an MPI rank it does nothing.
if "kvstore" in dir():
    kv.role.on_import()
