"""gluon.contrib: experimental Gluon parts, laid out as in MXNet 1.9.1.

``nn`` (extra layers), ``rnn`` (convolutional and other recurrent cells), ``cnn`` (deformable
convolutions), ``data`` (IntervalSampler, WikiText datasets) and ``estimator`` (a training
loop with event handlers).
"""
from ... import _lazy
from . import nn  # noqa: F401

# the others load on first use (``import mxnet`` stays fast)
__getattr__ = _lazy.lazy_submodules(__name__, {m: m for m in ("estimator", "rnn", "data",
                                                               "cnn")})
