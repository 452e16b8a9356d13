"""gluon.contrib.nn: Concurrent, HybridConcurrent, Identity, SyncBatchNorm, PixelShuffle."""
from ..nn.contrib_layers import *  # noqa: F401,F403
from ..nn.contrib_layers import __all__  # noqa: F401

# 1.9.1 defines these in mxnet.gluon.contrib.nn.basic_layers: that import path works too
import sys as _sys  # noqa: E402

basic_layers = _sys.modules[__name__]
_sys.modules[__name__ + ".basic_layers"] = basic_layers
