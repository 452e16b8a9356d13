"""Fused recurrent layers: RNN (ReLU/tanh), LSTM and GRU over whole sequences.

Each layer keeps one Parameter per matrix and bias, named as in 1.9.1:
``{d}{l}_i2h_weight``, ``{d}{l}_h2h_weight``, ``{d}{l}_i2h_bias``, ``{d}{l}_h2h_bias`` (and
``{d}{l}_h2r_weight`` for a projected LSTM), where ``d`` is ``l`` (forward) or ``r`` (reverse)
and ``l`` the layer index. At every call the pieces are packed by ``_rnn_param_concat`` into
the flat ``parameters`` input of the fused ``RNN`` operator, in the operator's order: all
weights (per layer, per direction: i2h, h2h[, h2r]), then all biases.

Calling a layer: ``layer(inputs, states=None, sequence_length=None)``. Without ``states`` the
layer starts from zeros and returns only the output sequence; with them it returns
``(output, new_states)``. ``sequence_length`` is only accepted by layers built with
``use_sequence_length=True``.
"""
from __future__ import annotations

import re

from ... import ndarray as _nd
from ... import symbol as _sym
from ... import util as _util
from ...ndarray import NDArray
from ...operator import rnn_param_concat as _rnn_param_concat  # noqa: F401  (registers the op)
from ...symbol import Symbol
from ...symbol.numpy._symbol import node as _np_node
from ..block import HybridBlock

__all__ = ["RNN", "LSTM", "GRU"]

_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}
_KEY = re.compile(r"(l|r)(\d+)_(i2h|h2h|h2r)_(weight|bias)\Z")


def _complete(shape):
    return shape is not None and all(d is not None and d > 0 for d in shape)


class _RNNLayer(HybridBlock):
    """The machinery shared by RNN, LSTM and GRU (see the module docstring)."""

    _retrace_with_known_shapes = True   # the graph flattens the weights once shapes are known

    def __init__(self, hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                 i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                 h2h_bias_initializer, mode, projection_size, h2r_weight_initializer,
                 lstm_state_clip_min, lstm_state_clip_max, lstm_state_clip_nan, dtype,
                 use_sequence_length=False, **kwargs):
        super().__init__(**kwargs)
        if layout not in ("TNC", "NTC"):
            raise AssertionError(f"Invalid layout {layout}; must be one of ['TNC' or 'NTC']")
        self._hidden_size = hidden_size
        self._projection_size = projection_size or None
        self._num_layers = num_layers
        self._mode = mode
        self._layout = layout
        self._dropout = dropout
        self._dir = 2 if bidirectional else 1
        self._input_size = input_size
        self._i2h_weight_initializer = i2h_weight_initializer
        self._h2h_weight_initializer = h2h_weight_initializer
        self._i2h_bias_initializer = i2h_bias_initializer
        self._h2h_bias_initializer = h2h_bias_initializer
        self._h2r_weight_initializer = h2r_weight_initializer
        self._lstm_state_clip_min = lstm_state_clip_min
        self._lstm_state_clip_max = lstm_state_clip_max
        self._lstm_state_clip_nan = lstm_state_clip_nan
        self._dtype = dtype
        self._use_sequence_length = use_sequence_length
        self.skip_states = None
        self._gates = _GATES[mode]

        gh = self._gates * hidden_size
        rec = self._projection_size or hidden_size     # the size fed back (and passed up)
        n_in = input_size
        for layer in range(num_layers):
            for d in "lr"[:self._dir]:
                key = f"{d}{layer}_"
                self._register_param(key + "i2h_weight", (gh, n_in), i2h_weight_initializer, dtype)
                self._register_param(key + "h2h_weight", (gh, rec), h2h_weight_initializer, dtype)
                self._register_param(key + "i2h_bias", (gh,), i2h_bias_initializer, dtype)
                self._register_param(key + "h2h_bias", (gh,), h2h_bias_initializer, dtype)
                if self._projection_size:
                    self._register_param(key + "h2r_weight", (rec, hidden_size),
                                         h2r_weight_initializer, dtype)
            n_in = rec * self._dir

    def _register_param(self, name, shape, init, dtype):
        p = self.params.get(name, shape=shape, init=init, allow_deferred_init=True, dtype=dtype)
        setattr(self, name, p)
        return p

    def __repr__(self):
        shape = self.l0_i2h_weight.shape
        text = f"{self.__class__.__name__}({shape[1] or None} -> {shape[0] // self._gates}, " \
               f"{self._layout}"
        if self._num_layers != 1:
            text += f", num_layers={self._num_layers}"
        if self._dropout != 0:
            text += f", dropout={self._dropout}"
        if self._dir == 2:
            text += ", bidirectional"
        return text + ")"

    def _collect_params_with_prefix(self, prefix=""):
        # structural names follow the old unfused (cell stack) layout, as 1.9.1's files do
        if prefix:
            prefix += "."
        matches = {key: _KEY.match(key) for key in self._reg_params}
        bidirectional = any(m.group(1) == "r" for m in matches.values())
        ret = {}
        for key, val in self._reg_params.items():
            d, layer, kind, what = matches[key].groups()
            if bidirectional:
                ret[f"{prefix}_unfused.{layer}.{d}_cell.{kind}_{what}"] = val
            else:
                ret[f"{prefix}_unfused.{layer}.{kind}_{what}"] = val
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def state_info(self, batch_size=0):
        raise NotImplementedError

    def _unfuse(self):
        """The same network as a HybridSequentialRNNCell of per-layer cells (a
        BidirectionalCell per layer when bidirectional, a DropoutCell between layers when
        ``dropout`` > 0). The stack shares this layer's Parameters: its cells are named
        ``l{i}_`` / ``r{i}_`` under this layer's prefix."""
        from . import rnn_cell
        if self._projection_size:
            raise AssertionError("_unfuse: a projected LSTM (projection_size) has no cell "
                                 "equivalent")
        if self._lstm_state_clip_min or self._lstm_state_clip_max:
            raise AssertionError("_unfuse: state clipping (state_clip_min/max) has no cell "
                                 "equivalent")
        if self._mode.startswith("rnn_"):
            def make(**kw):
                return rnn_cell.RNNCell(self._hidden_size, activation=self._mode[4:], **kw)
        else:
            kind = rnn_cell.LSTMCell if self._mode == "lstm" else rnn_cell.GRUCell

            def make(**kw):
                return kind(self._hidden_size, **kw)
        stack = rnn_cell.HybridSequentialRNNCell(prefix=self.prefix, params=self.params)
        n_in = self._input_size
        with stack.name_scope():
            for layer in range(self._num_layers):
                kw = dict(input_size=n_in,
                          i2h_weight_initializer=self._i2h_weight_initializer,
                          h2h_weight_initializer=self._h2h_weight_initializer,
                          i2h_bias_initializer=self._i2h_bias_initializer,
                          h2h_bias_initializer=self._h2h_bias_initializer)
                if self._dir == 2:
                    stack.add(rnn_cell.BidirectionalCell(make(prefix=f"l{layer}_", **kw),
                                                         make(prefix=f"r{layer}_", **kw)))
                else:
                    stack.add(make(prefix=f"l{layer}_", **kw))
                if self._dropout > 0 and layer < self._num_layers - 1:
                    stack.add(rnn_cell.DropoutCell(self._dropout))
                n_in = self._hidden_size * self._dir
        return stack

    def _state_entry(self, batch_size, size):
        return {"shape": (self._num_layers * self._dir, batch_size, size), "__layout__": "LNC",
                "dtype": self._dtype}

    def cast(self, dtype):
        super().cast(dtype)
        self._dtype = dtype

    def begin_state(self, batch_size=0, func=_nd.zeros, **kwargs):
        """The initial recurrent states: ``func(name=..., shape=..., **kwargs)`` per state.

        ``func`` is ``mx.nd.zeros`` by default; pass ``mx.sym.zeros`` (or ``mx.sym.var``) for
        symbols. ``kwargs`` (ctx, dtype ...) override the state description.
        """
        states = []
        for i, info in enumerate(self.state_info(batch_size)):
            if info is None:
                info = dict(kwargs)
            else:
                info.update(kwargs)
            state = func(name=f"{self.prefix}h0_{i}", **info)
            if isinstance(state, NDArray) and _util.is_np_array():
                state = state.as_np_ndarray()   # under npx.set_np() the states are mx.np arrays
            states.append(state)
        return states

    def __call__(self, inputs, states=None, sequence_length=None, **kwargs):
        self.skip_states = states is None
        if states is None:
            if isinstance(inputs, NDArray):
                batch_size = inputs.shape[self._layout.find("N")]
                states = self.begin_state(batch_size, ctx=inputs.context, dtype=inputs.dtype)
            else:
                states = self.begin_state(0, func=_sym.zeros)   # 0: inferred, as in 1.9.1
        if isinstance(states, (NDArray, Symbol)):
            states = [states]
        if self._use_sequence_length:
            return super().__call__(inputs, states, sequence_length, **kwargs)
        return super().__call__(inputs, states, **kwargs)

    def hybrid_forward(self, F, inputs, states, sequence_length=None, **kwargs):
        if F is _nd:
            batch_size = inputs.shape[self._layout.find("N")]
            for state, info in zip(states, self.state_info(batch_size)):
                if state.shape != info["shape"]:
                    raise ValueError(f"Invalid recurrent state shape. Expecting "
                                     f"{info['shape']}, got {state.shape}.")
        out = self._forward_kernel(F, inputs, states, sequence_length, **kwargs)
        return out[0] if self.skip_states else out

    def _packed_order(self):
        """Parameter keys in the order of the operator's flat vector."""
        kinds = ("i2h", "h2h", "h2r") if self._projection_size else ("i2h", "h2h")
        keys = [f"{d}{layer}_{kind}_weight" for layer in range(self._num_layers)
                for d in "lr"[:self._dir] for kind in kinds]
        keys += [f"{d}{layer}_{kind}_bias" for layer in range(self._num_layers)
                 for d in "lr"[:self._dir] for kind in ("i2h", "h2h")]
        return keys

    def _forward_kernel(self, F, inputs, states, sequence_length, **kwargs):
        if self._layout == "NTC":
            inputs = F.swapaxes(inputs, dim1=0, dim2=1)
        order = self._packed_order()
        pieces = [kwargs[k] for k in order]
        if F is _sym and all(_complete(self._reg_params[k].shape) for k in order):
            # the graph 1.9.1 builds (and exports): every piece reshaped to 1-D first
            pieces = [p.reshape(-1) for p in pieces]
        # otherwise the concat flattens the pieces itself: imperatively that saves a copy per
        # parameter, and while shapes are inferred an input-to-hidden weight whose input size
        # is unknown can take it from the packed total (Reshape infers only forwards)
        if F is _sym and _util.is_np_array():   # 1.9.1 names this node rnn_param_concat<N>
            params = _np_node("_rnn_param_concat", pieces, {"dim": 0, "num_args": len(pieces)},
                              hint="rnn_param_concat")
        else:
            params = F._internal._rnn_param_concat(*pieces, dim=0)
        args = list(states)
        if self._use_sequence_length:
            args.append(sequence_length)
        rnn = F.RNN(inputs, params, *args, use_sequence_length=self._use_sequence_length,
                    state_size=self._hidden_size, projection_size=self._projection_size,
                    num_layers=self._num_layers, bidirectional=self._dir == 2,
                    p=self._dropout, state_outputs=True, mode=self._mode,
                    lstm_state_clip_min=self._lstm_state_clip_min,
                    lstm_state_clip_max=self._lstm_state_clip_max,
                    lstm_state_clip_nan=self._lstm_state_clip_nan)
        outputs = rnn[0]
        states = [rnn[1], rnn[2]] if self._mode == "lstm" else [rnn[1]]
        if self._layout == "NTC":
            outputs = F.swapaxes(outputs, dim1=0, dim2=1)
        return outputs, states


class RNN(_RNNLayer):
    """A multi-layer Elman RNN: ``h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)`` with
    ``act`` ReLU or tanh.

    Parameters: ``hidden_size``; ``num_layers``; ``activation`` ('relu' or 'tanh');
    ``layout`` ('TNC' or 'NTC' for the input and output sequence); ``dropout`` between layers
    (training only); ``bidirectional``; initializers for the four parameter kinds;
    ``input_size`` (0: taken from the first input); ``dtype``; and, through ``kwargs``,
    ``use_sequence_length``, ``prefix`` and ``params``.

    Call with ``(inputs, states=None[, sequence_length])``. ``states`` is one array of shape
    ``(num_layers * directions, batch, hidden_size)``.
    """

    def __init__(self, hidden_size, num_layers=1, activation="relu", layout="TNC", dropout=0,
                 bidirectional=False, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 dtype="float32", **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, "rnn_" + activation, None, None, None, None,
                         False, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_entry(batch_size, self._hidden_size)]


class LSTM(_RNNLayer):
    """A multi-layer LSTM (gates in the order input, forget, cell candidate, output).

    Besides the arguments of :class:`RNN` (no ``activation``): ``projection_size`` projects
    each hidden state to that size (LSTMP, with ``h2r_weight`` parameters and
    ``h2r_weight_initializer``); ``state_clip_min`` / ``state_clip_max`` / ``state_clip_nan``
    clip the cell state.

    ``states`` is ``[h, c]``: h is ``(num_layers * directions, batch, projection_size or
    hidden_size)`` and c ``(num_layers * directions, batch, hidden_size)``.
    """

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False,
                 input_size=0, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 projection_size=None, h2r_weight_initializer=None, state_clip_min=None,
                 state_clip_max=None, state_clip_nan=False, dtype="float32", **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, "lstm", projection_size, h2r_weight_initializer,
                         state_clip_min, state_clip_max, state_clip_nan, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_entry(batch_size, self._projection_size or self._hidden_size),
                self._state_entry(batch_size, self._hidden_size)]


class GRU(_RNNLayer):
    """A multi-layer GRU (gates in the order reset, update, new; the reset gate scales the
    whole recurrent term of the new gate, its bias included).

    Arguments as for :class:`RNN` without ``activation``. ``states`` is one array of shape
    ``(num_layers * directions, batch, hidden_size)``.
    """

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False,
                 input_size=0, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", dtype="float32",
                 **kwargs):
        super().__init__(hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                         i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                         h2h_bias_initializer, "gru", None, None, None, None, False, dtype,
                         **kwargs)

    def state_info(self, batch_size=0):
        return [self._state_entry(batch_size, self._hidden_size)]
