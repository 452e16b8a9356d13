"""Contrib recurrent cells: convolutional RNN/LSTM/GRU cells, VariationalDropoutCell, LSTMPCell."""
# ruff: noqa: F401, F403
from . import conv_rnn_cell, rnn_cell
from .conv_rnn_cell import *
from .rnn_cell import *

__all__ = conv_rnn_cell.__all__ + rnn_cell.__all__
