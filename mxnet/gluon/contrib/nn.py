"""gluon.contrib.nn: Concurrent, HybridConcurrent, Identity, SyncBatchNorm, PixelShuffle."""
from ..nn.contrib_layers import *  # noqa: F401,F403
from ..nn.contrib_layers import __all__  # noqa: F401
