"""Checkpoint helpers of the legacy ``mx.rnn`` API: fused cell weights are unpacked into
per-gate arrays when saved and packed again when loaded."""
from __future__ import annotations

import warnings

from ..model import load_checkpoint, save_checkpoint
from .rnn_cell import BaseRNNCell

__all__ = ["rnn_unroll", "save_rnn_checkpoint", "load_rnn_checkpoint", "do_rnn_checkpoint"]


def _as_cells(cells):
    return [cells] if isinstance(cells, BaseRNNCell) else list(cells)


def rnn_unroll(cell, length, inputs=None, begin_state=None, input_prefix="", layout="NTC"):
    """Deprecated spelling of ``cell.unroll(length, inputs, begin_state, layout)``."""
    warnings.warn("rnn_unroll is deprecated. Please call cell.unroll directly.", stacklevel=2)
    return cell.unroll(length=length, inputs=inputs, begin_state=begin_state, layout=layout)


def save_rnn_checkpoint(cells, prefix, epoch, symbol, arg_params, aux_params):
    """``mx.model.save_checkpoint`` after ``unpack_weights`` of each cell (one cell or a list):
    writes ``prefix-symbol.json`` and ``prefix-%04d.params``."""
    for cell in _as_cells(cells):
        arg_params = cell.unpack_weights(arg_params)
    save_checkpoint(prefix, epoch, symbol, arg_params, aux_params)


def load_rnn_checkpoint(cells, prefix, epoch):
    """``mx.model.load_checkpoint`` followed by ``pack_weights`` of each cell; returns
    ``(symbol, arg_params, aux_params)``."""
    sym, arg, aux = load_checkpoint(prefix, epoch)
    for cell in _as_cells(cells):
        arg = cell.pack_weights(arg)
    return sym, arg, aux


def do_rnn_checkpoint(cells, prefix, period=1):
    """An epoch-end callback for ``Module.fit`` saving with :func:`save_rnn_checkpoint` every
    ``period`` epochs (as epoch ``iter_no + 1``)."""
    period = int(max(1, period))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            save_rnn_checkpoint(cells, prefix, iter_no + 1, sym, arg, aux)
    return _callback
