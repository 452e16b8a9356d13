"""gluon.rnn: recurrent cells (stepped or unrolled) and fused recurrent layers."""
from .rnn_cell import *  # noqa: F401,F403
from .rnn_layer import *  # noqa: F401,F403
from . import rnn_cell, rnn_layer  # noqa: F401
