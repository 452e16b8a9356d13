"""Symbolic recurrent cells of the legacy ``mx.rnn`` API (MXNet 1.x).

A cell turns one time step's input symbol and its state symbols into an output symbol and new
state symbols; ``unroll`` repeats that over a sequence. Every node the cells create carries the
name 1.9.1 gives it (``<prefix>t<step>_<part>``), so unrolled graphs serialise to the same JSON
and expose the same argument names (``<prefix>i2h_weight``, ``<prefix>begin_state_<k>``, ...).
"""
from __future__ import annotations

import functools
import warnings

from .. import initializer as init
from .. import ndarray, symbol
from ..base import MXNetError, numeric_types, string_types

__all__ = ["RNNParams", "BaseRNNCell", "RNNCell", "LSTMCell", "GRUCell", "FusedRNNCell",
           "SequentialRNNCell", "DropoutCell", "ModifierCell", "ZoneoutCell", "ResidualCell",
           "BidirectionalCell", "BaseConvRNNCell", "ConvRNNCell", "ConvLSTMCell", "ConvGRUCell"]


# ---------------------------------------------------------------------------------------------
# helpers shared by container cells


def _state_info_of(cells):
    info = []
    for c in cells:
        info.extend(c.state_info)
    return info


def _begin_state_of(cells, **kwargs):
    states = []
    for c in cells:
        states.extend(c.begin_state(**kwargs))
    return states


def _unpack_all(cells, args):
    for c in cells:
        args = c.unpack_weights(args)
    return args


def _pack_all(cells, args):
    for c in cells:
        args = c.pack_weights(args)
    return args


def _check_unmodified(cell):
    if cell._modified:
        raise AssertionError("begin_state: this cell is wrapped by a modifier cell (e.g. "
                             "DropoutCell, ZoneoutCell); call begin_state on the modifier "
                             "cell instead of the wrapped one.")


def _normalize_sequence(length, inputs, layout, merge, in_layout=None):
    """Bring ``inputs`` to the requested form: a list of per-step symbols when ``merge`` is
    False, one symbol with the time axis of ``layout`` when True, unchanged when None.
    Returns ``(inputs, time_axis)``."""
    if inputs is None:
        raise AssertionError("unroll: inputs=None is no longer supported; create the input "
                             "variables yourself and pass them as inputs.")
    if not isinstance(layout, str) or "T" not in layout:
        raise MXNetError(f"unroll: layout must be a string containing 'T', got {layout!r}")
    axis = layout.find("T")
    src_axis = axis if in_layout is None else in_layout.find("T")
    if isinstance(inputs, symbol.Symbol):
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise AssertionError("unroll: a grouped symbol cannot be split over time; "
                                     "pass list(inputs) instead.")
            inputs = list(symbol.split(inputs, axis=src_axis, num_outputs=length,
                                       squeeze_axis=1))
    else:
        inputs = list(inputs)
        if length is not None and len(inputs) != length:
            raise AssertionError(f"unroll: length is {length} but {len(inputs)} input "
                                 "symbols were given")
        if merge is True:
            expanded = [symbol.expand_dims(x, axis=axis) for x in inputs]
            inputs = symbol.Concat(*expanded, dim=axis)
            src_axis = axis
    if isinstance(inputs, symbol.Symbol) and src_axis != axis:
        inputs = symbol.swapaxes(inputs, dim0=axis, dim1=src_axis)
    return inputs, axis


# ---------------------------------------------------------------------------------------------
# parameters and the base class


class RNNParams:
    """Holds the weight variables of one or more cells, keyed by full name, so that cells
    built on the same container share their weights.

    Parameters
    ----------
    prefix : str
        Prepended to every name passed to :meth:`get`.
    """

    def __init__(self, prefix=""):
        self._prefix = prefix
        self._params = {}

    def get(self, name, **kwargs):
        """Return the variable ``prefix + name``, creating it (``symbol.Variable(full_name,
        **kwargs)``) on first request."""
        full = self._prefix + name
        var = self._params.get(full)
        if var is None:
            var = symbol.Variable(full, **kwargs)
            self._params[full] = var
        return var


class BaseRNNCell:
    """Common machinery of the symbolic cells.

    Parameters
    ----------
    prefix : str
        Prefix of the node names (and of the weight names when ``params`` is None).
    params : RNNParams or None
        Container to take weights from; a new one using ``prefix`` when None.
    """

    def __init__(self, prefix="", params=None):
        self._own_params = params is None
        if params is None:
            params = RNNParams(prefix)
        self._prefix = prefix
        self._params = params
        self._modified = False
        self.reset()

    def reset(self):
        """Restart the step and begin-state counters (done by every ``unroll``)."""
        self._init_counter = -1
        self._counter = -1
        for child in getattr(self, "_cells", ()):
            child.reset()

    def __call__(self, inputs, states):
        """One time step: ``(output, new_states)`` for ``inputs`` and ``states``."""
        raise NotImplementedError()

    @property
    def params(self):
        """The :class:`RNNParams` of this cell (asking for it marks them as shared)."""
        self._own_params = False
        return self._params

    @property
    def state_info(self):
        """One dict per state: its ``shape`` (0 for the batch axis) and ``__layout__``."""
        raise NotImplementedError()

    @property
    def state_shape(self):
        """The shapes of the states."""
        return [info["shape"] for info in self.state_info]

    @property
    def _gate_names(self):
        return ()

    def begin_state(self, func=symbol.zeros, **kwargs):
        """Symbols for the states before the first step, made by
        ``func(name='<prefix>begin_state_<k>', **kwargs, **state_info[k])``
        (``symbol.zeros`` by default; ``symbol.Variable`` feeds states as inputs)."""
        _check_unmodified(self)
        states = []
        for info in self.state_info:
            self._init_counter += 1
            if info is not None:
                kwargs.update(info)
            name = f"{self._prefix}begin_state_{self._init_counter}"
            states.append(func(name=name, **kwargs))
        return states

    def unpack_weights(self, args):
        """Split each fused ``i2h``/``h2h`` weight and bias of this cell into one array per
        gate (``<prefix>i2h_f_weight``, ...). Returns a new dict."""
        args = dict(args)
        gates = self._gate_names
        if not gates:
            return args
        h = self._num_hidden
        for group in ("i2h", "h2h"):
            weight = args.pop(f"{self._prefix}{group}_weight")
            bias = args.pop(f"{self._prefix}{group}_bias")
            for j, gate in enumerate(gates):
                args[f"{self._prefix}{group}{gate}_weight"] = weight[j * h:(j + 1) * h].copy()
                args[f"{self._prefix}{group}{gate}_bias"] = bias[j * h:(j + 1) * h].copy()
        return args

    def pack_weights(self, args):
        """Inverse of :meth:`unpack_weights`: join the per-gate arrays. Returns a new dict."""
        args = dict(args)
        gates = self._gate_names
        if not gates:
            return args
        for group in ("i2h", "h2h"):
            weights = [args.pop(f"{self._prefix}{group}{g}_weight") for g in gates]
            biases = [args.pop(f"{self._prefix}{group}{g}_bias") for g in gates]
            args[f"{self._prefix}{group}_weight"] = ndarray.concatenate(weights)
            args[f"{self._prefix}{group}_bias"] = ndarray.concatenate(biases)
        return args

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        """Apply the cell over ``length`` steps.

        ``inputs`` is one symbol laid out as ``layout`` (``'NTC'`` or ``'TNC'``) or a list of
        ``length`` per-step symbols. ``begin_state`` defaults to :meth:`begin_state`.
        ``merge_outputs`` True gives one output symbol in ``layout``, False a list, None
        whichever is cheaper. Returns ``(outputs, states)``.
        """
        self.reset()
        steps, _ = _normalize_sequence(length, inputs, layout, False)
        states = self.begin_state() if begin_state is None else begin_state
        outputs = []
        for x in steps[:length]:
            out, states = self(x, states)
            outputs.append(out)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, inputs, activation, **kwargs):
        if isinstance(activation, string_types):
            return symbol.Activation(inputs, act_type=activation, **kwargs)
        return activation(inputs, **kwargs)


def _check_hidden(where, num_hidden):
    if isinstance(num_hidden, bool) or not isinstance(num_hidden, numeric_types) \
            or int(num_hidden) != num_hidden or num_hidden <= 0:
        raise MXNetError(f"{where}: num_hidden must be a positive integer, got {num_hidden!r}")


# ---------------------------------------------------------------------------------------------
# plain cells


class RNNCell(BaseRNNCell):
    """Elman cell: ``h' = act(W_i x + b_i + W_h h + b_h)``.

    Parameters
    ----------
    num_hidden : int
        Output width.
    activation : str or callable, default 'tanh'
        An ``Activation`` act_type, or a function ``f(symbol, name=...)``.
    prefix : str, default ``'rnn_'``
    params : RNNParams or None
    """

    def __init__(self, num_hidden, activation="tanh", prefix="rnn_", params=None):
        _check_hidden("RNNCell", num_hidden)
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._activation = activation
        self._iW = self.params.get("i2h_weight")
        self._iB = self.params.get("i2h_bias")
        self._hW = self.params.get("h2h_weight")
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self):
        return [{"shape": (0, self._num_hidden), "__layout__": "NC"}]

    @property
    def _gate_names(self):
        return ("",)

    def __call__(self, inputs, states):
        self._counter += 1
        stem = f"{self._prefix}t{self._counter}_"
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB,
                                    num_hidden=self._num_hidden, name=stem + "i2h")
        h2h = symbol.FullyConnected(data=states[0], weight=self._hW, bias=self._hB,
                                    num_hidden=self._num_hidden, name=stem + "h2h")
        out = self._get_activation(i2h + h2h, self._activation, name=stem + "out")
        return out, [out]


class LSTMCell(BaseRNNCell):
    """LSTM cell with gates in the order input, forget, cell, output.

    Parameters
    ----------
    num_hidden : int
    prefix : str, default ``'lstm_'``
    params : RNNParams or None
    forget_bias : float, default 1.0
        Initial value of the forget-gate part of ``i2h_bias`` (through ``init.LSTMBias``).
    """

    def __init__(self, num_hidden, prefix="lstm_", params=None, forget_bias=1.0):
        _check_hidden("LSTMCell", num_hidden)
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._iW = self.params.get("i2h_weight")
        self._hW = self.params.get("h2h_weight")
        self._iB = self.params.get("i2h_bias", init=init.LSTMBias(forget_bias=forget_bias))
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self):
        return [{"shape": (0, self._num_hidden), "__layout__": "NC"} for _ in range(2)]

    @property
    def _gate_names(self):
        return ["_i", "_f", "_c", "_o"]

    def __call__(self, inputs, states):
        self._counter += 1
        stem = f"{self._prefix}t{self._counter}_"
        n4 = self._num_hidden * 4
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB,
                                    num_hidden=n4, name=stem + "i2h")
        h2h = symbol.FullyConnected(data=states[0], weight=self._hW, bias=self._hB,
                                    num_hidden=n4, name=stem + "h2h")
        parts = symbol.SliceChannel(i2h + h2h, num_outputs=4, name=stem + "slice")
        gate_i = symbol.Activation(parts[0], act_type="sigmoid", name=stem + "i")
        gate_f = symbol.Activation(parts[1], act_type="sigmoid", name=stem + "f")
        cand = symbol.Activation(parts[2], act_type="tanh", name=stem + "c")
        gate_o = symbol.Activation(parts[3], act_type="sigmoid", name=stem + "o")
        c_new = symbol._internal._plus(gate_f * states[1], gate_i * cand, name=stem + "state")
        h_new = symbol._internal._mul(gate_o, symbol.Activation(c_new, act_type="tanh"),
                                      name=stem + "out")
        return h_new, [h_new, c_new]


class GRUCell(BaseRNNCell):
    """GRU cell in cuDNN's formulation (reset gate applied after the recurrent product),
    gates in the order reset, update, candidate.

    Parameters
    ----------
    num_hidden : int
    prefix : str, default ``'gru_'``
    params : RNNParams or None
    """

    def __init__(self, num_hidden, prefix="gru_", params=None):
        _check_hidden("GRUCell", num_hidden)
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._iW = self.params.get("i2h_weight")
        self._iB = self.params.get("i2h_bias")
        self._hW = self.params.get("h2h_weight")
        self._hB = self.params.get("h2h_bias")

    @property
    def state_info(self):
        return [{"shape": (0, self._num_hidden), "__layout__": "NC"}]

    @property
    def _gate_names(self):
        return ["_r", "_z", "_o"]

    def __call__(self, inputs, states):
        self._counter += 1
        stem = f"{self._prefix}t{self._counter}_"
        h_prev = states[0]
        n3 = self._num_hidden * 3
        i2h = symbol.FullyConnected(data=inputs, weight=self._iW, bias=self._iB,
                                    num_hidden=n3, name=stem + "_i2h")
        h2h = symbol.FullyConnected(data=h_prev, weight=self._hW, bias=self._hB,
                                    num_hidden=n3, name=stem + "_h2h")
        xr, xz, xn = symbol.SliceChannel(i2h, num_outputs=3, name=stem + "_i2h_slice")
        hr, hz, hn = symbol.SliceChannel(h2h, num_outputs=3, name=stem + "_h2h_slice")
        r = symbol.Activation(xr + hr, act_type="sigmoid", name=stem + "_r_act")
        z = symbol.Activation(xz + hz, act_type="sigmoid", name=stem + "_z_act")
        cand = symbol.Activation(xn + r * hn, act_type="tanh", name=stem + "_h_act")
        h_new = symbol._internal._plus((1. - z) * cand, z * h_prev, name=stem + "out")
        return h_new, [h_new]


# ---------------------------------------------------------------------------------------------
# fused cell


_FUSED_GATES = {"rnn_relu": [""], "rnn_tanh": [""], "lstm": ["_i", "_f", "_c", "_o"],
                "gru": ["_r", "_z", "_o"]}


class FusedRNNCell(BaseRNNCell):
    """A whole (optionally bidirectional, multi-layer) RNN as one ``RNN`` operator whose
    weights live in a single flat ``<prefix>parameters`` vector.

    Parameters
    ----------
    num_hidden : int
    num_layers : int, default 1
    mode : {'rnn_relu', 'rnn_tanh', 'lstm', 'gru'}, default 'lstm'
    bidirectional : bool, default False
    dropout : float, default 0.
        Dropout between layers (training only).
    get_next_state : bool, default False
        Also return the final states from ``unroll``.
    forget_bias : float, default 1.0
    prefix : str, default ``'<mode>_'``
    params : RNNParams or None
    """

    def __init__(self, num_hidden, num_layers=1, mode="lstm", bidirectional=False,
                 dropout=0., get_next_state=False, forget_bias=1.0, prefix=None, params=None):
        if mode not in _FUSED_GATES:
            raise MXNetError(f"FusedRNNCell: mode must be one of {sorted(_FUSED_GATES)}, "
                             f"got {mode!r}")
        _check_hidden("FusedRNNCell", num_hidden)
        if prefix is None:
            prefix = f"{mode}_"
        super().__init__(prefix=prefix, params=params)
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._dropout = dropout
        self._get_next_state = get_next_state
        self._directions = ["l", "r"] if bidirectional else ["l"]
        fused_init = init.FusedRNN(None, num_hidden, num_layers, mode, bidirectional,
                                   forget_bias)
        self._parameter = self.params.get("parameters", init=fused_init)

    @property
    def state_info(self):
        ndir = 2 if self._bidirectional else 1
        count = 2 if self._mode == "lstm" else 1
        return [{"shape": (ndir * self._num_layers, 0, self._num_hidden), "__layout__": "LNC"}
                for _ in range(count)]

    @property
    def _gate_names(self):
        return _FUSED_GATES[self._mode]

    @property
    def _num_gates(self):
        return len(self._gate_names)

    def _layout_entries(self, num_input):
        """``(name, shape)`` of every piece of the flat vector, in storage order: all weights
        (per layer, per direction: i2h gates then h2h gates), then all biases likewise."""
        h = self._num_hidden
        ndir = len(self._directions)
        gates = self._gate_names
        weights, biases = [], []
        for layer in range(self._num_layers):
            width = num_input if layer == 0 else ndir * h
            for d in self._directions:
                stem = f"{self._prefix}{d}{layer}_"
                weights += [(f"{stem}i2h{g}_weight", (h, width)) for g in gates]
                weights += [(f"{stem}h2h{g}_weight", (h, h)) for g in gates]
                biases += [(f"{stem}i2h{g}_bias", (h,)) for g in gates]
                biases += [(f"{stem}h2h{g}_bias", (h,)) for g in gates]
        return weights + biases

    def _num_input_of(self, size):
        ndir = len(self._directions)
        m, h, nl = self._num_gates, self._num_hidden, self._num_layers
        # size = m*h*ndir*[(num_input + h + 2) + (nl - 1)*(ndir*h + h + 2)]
        per = m * h * ndir
        if size % per:
            raise MXNetError(f"FusedRNNCell.unpack_weights: parameter vector of size {size} "
                             "does not fit this cell")
        return size // per - (nl - 1) * (ndir * h + h + 2) - h - 2

    def unpack_weights(self, args):
        args = dict(args)
        name = self._parameter.name
        if name not in args:
            raise MXNetError(f"FusedRNNCell.unpack_weights: args has no {name!r}")
        flat = args.pop(name)
        num_input = self._num_input_of(flat.size)
        pos = 0
        for key, shape in self._layout_entries(num_input):
            n = 1
            for s in shape:
                n *= s
            args[key] = flat[pos:pos + n].reshape(shape).copy()
            pos += n
        if pos != flat.size:
            raise MXNetError("FusedRNNCell.unpack_weights: invalid parameter vector size "
                             f"{flat.size} for this cell")
        return args

    def pack_weights(self, args):
        args = dict(args)
        first = f"{self._prefix}l0_i2h{self._gate_names[0]}_weight"
        if first not in args:
            raise MXNetError(f"FusedRNNCell.pack_weights: args has no {first!r}")
        num_input = args[first].shape[1]
        pieces = []
        for key, shape in self._layout_entries(num_input):
            if key not in args:
                raise MXNetError(f"FusedRNNCell.pack_weights: args has no {key!r}")
            arr = args.pop(key)
            if tuple(arr.shape) != shape:
                raise MXNetError(f"FusedRNNCell.pack_weights: {key!r} has shape "
                                 f"{tuple(arr.shape)}, expected {shape}")
            pieces.append(arr.reshape((-1,)))
        w0 = pieces[0]
        args[self._parameter.name] = ndarray.concatenate(
            [p.astype(w0.dtype, copy=False) for p in pieces]).as_in_context(w0.context)
        return args

    def __call__(self, inputs, states):
        raise NotImplementedError("FusedRNNCell cannot be stepped. Please use unroll")

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        data, axis = _normalize_sequence(length, inputs, layout, True)
        if axis == 1:
            # reported from this line (1.9.1's stacklevel), so Python shows it once per process
            warnings.warn("NTC layout detected. Consider using TNC for FusedRNNCell for "
                          "faster speed", stacklevel=1)
            data = symbol.swapaxes(data, dim1=0, dim2=1)
        elif axis != 0:
            raise AssertionError(f"Unsupported layout {layout}")
        if begin_state is None:
            begin_state = self.begin_state()
        state_kw = {"state": begin_state[0]}
        if self._mode == "lstm":
            state_kw["state_cell"] = begin_state[1]
        net = symbol.RNN(data=data, parameters=self._parameter, state_size=self._num_hidden,
                         num_layers=self._num_layers, bidirectional=self._bidirectional,
                         p=self._dropout, state_outputs=self._get_next_state,
                         mode=self._mode, name=self._prefix + "rnn", **state_kw)
        if not self._get_next_state:
            outputs, states = net, []
        else:
            nstates = 2 if self._mode == "lstm" else 1
            states = [net[k] for k in range(1, nstates + 1)]
            for s in states:
                s._set_attr(__layout__="LNC")
            outputs = net[0]
        if axis == 1:
            outputs = symbol.swapaxes(outputs, dim1=0, dim2=1)
        outputs, _ = _normalize_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def unfuse(self):
        """The same network as a :class:`SequentialRNNCell` of step-able cells named so that
        :meth:`unpack_weights` output feeds it directly."""
        h = self._num_hidden

        def make(prefix):
            if self._mode == "rnn_relu":
                return RNNCell(h, activation="relu", prefix=prefix)
            if self._mode == "rnn_tanh":
                return RNNCell(h, activation="tanh", prefix=prefix)
            if self._mode == "lstm":
                return LSTMCell(h, prefix=prefix)
            return GRUCell(h, prefix=prefix)

        stack = SequentialRNNCell()
        for layer in range(self._num_layers):
            if self._bidirectional:
                stack.add(BidirectionalCell(make(f"{self._prefix}l{layer}_"),
                                            make(f"{self._prefix}r{layer}_"),
                                            output_prefix=f"{self._prefix}bi_l{layer}_"))
            else:
                stack.add(make(f"{self._prefix}l{layer}_"))
            if self._dropout > 0 and layer != self._num_layers - 1:
                stack.add(DropoutCell(self._dropout, prefix=f"{self._prefix}_dropout{layer}_"))
        return stack


# ---------------------------------------------------------------------------------------------
# containers and modifiers


class SequentialRNNCell(BaseRNNCell):
    """A stack of cells, each fed the previous one's output.

    Parameters
    ----------
    params : RNNParams or None
        When given, every added cell takes its weights from it (and must not have its own).
    """

    def __init__(self, params=None):
        super().__init__(prefix="", params=params)
        self._override_cell_params = params is not None
        self._cells = []

    def add(self, cell):
        """Append ``cell`` to the top of the stack."""
        self._cells.append(cell)
        if self._override_cell_params:
            if not cell._own_params:
                raise AssertionError("SequentialRNNCell.add: give params either to the "
                                     "SequentialRNNCell or to its child cells, not both.")
            cell.params._params.update(self.params._params)
        self.params._params.update(cell.params._params)

    @property
    def _bidirectional(self):
        return any(isinstance(c, BidirectionalCell) for c in self._cells)

    @property
    def state_info(self):
        return _state_info_of(self._cells)

    def begin_state(self, **kwargs):
        _check_unmodified(self)
        return _begin_state_of(self._cells, **kwargs)

    def unpack_weights(self, args):
        return _unpack_all(self._cells, args)

    def pack_weights(self, args):
        return _pack_all(self._cells, args)

    def __call__(self, inputs, states):
        self._counter += 1
        new_states = []
        pos = 0
        for cell in self._cells:
            if isinstance(cell, BidirectionalCell):
                raise AssertionError("SequentialRNNCell: a stack holding a BidirectionalCell "
                                     "cannot be stepped; use unroll")
            n = len(cell.state_info)
            inputs, st = cell(inputs, states[pos:pos + n])
            pos += n
            new_states.extend(st)
        return inputs, new_states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        if begin_state is None:
            begin_state = self.begin_state()
        last = len(self._cells) - 1
        pos = 0
        new_states = []
        for i, cell in enumerate(self._cells):
            n = len(cell.state_info)
            inputs, st = cell.unroll(length, inputs=inputs, begin_state=begin_state[pos:pos + n],
                                     layout=layout,
                                     merge_outputs=merge_outputs if i == last else None)
            pos += n
            new_states.extend(st)
        return inputs, new_states


class DropoutCell(BaseRNNCell):
    """Dropout on the sequence passing through (no state).

    Parameters
    ----------
    dropout : float
        Probability of zeroing an element.
    prefix : str, default ``'dropout_'``
    params : RNNParams or None
    """

    def __init__(self, dropout, prefix="dropout_", params=None):
        super().__init__(prefix, params)
        if not isinstance(dropout, numeric_types):
            raise AssertionError("dropout probability must be a number")
        self.dropout = dropout

    @property
    def state_info(self):
        return []

    def __call__(self, inputs, states):
        if self.dropout > 0:
            inputs = symbol.Dropout(data=inputs, p=self.dropout)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, symbol.Symbol):
            return self(inputs, [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout,
                              merge_outputs=merge_outputs)


class ModifierCell(BaseRNNCell):
    """Base of the cells that wrap another cell and alter what it computes. Once wrapped, the
    base cell must be used only through the modifier."""

    def __init__(self, base_cell):
        super().__init__()
        base_cell._modified = True
        self.base_cell = base_cell

    @property
    def params(self):
        self._own_params = False
        return self.base_cell.params

    @property
    def state_info(self):
        return self.base_cell.state_info

    def begin_state(self, init_sym=symbol.zeros, **kwargs):
        """The wrapped cell's begin states (``init_sym`` plays the role of ``func``)."""
        _check_unmodified(self)
        if "func" in kwargs:
            init_sym = kwargs.pop("func")
        self.base_cell._modified = False
        try:
            return self.base_cell.begin_state(func=init_sym, **kwargs)
        finally:
            self.base_cell._modified = True

    def unpack_weights(self, args):
        return self.base_cell.unpack_weights(args)

    def pack_weights(self, args):
        return self.base_cell.pack_weights(args)

    def __call__(self, inputs, states):
        raise NotImplementedError


class ZoneoutCell(ModifierCell):
    """Zoneout (Krueger et al. 2016): in training, each output / state element keeps its
    previous value with probability ``zoneout_outputs`` / ``zoneout_states``.

    Parameters
    ----------
    base_cell : BaseRNNCell
        A step-able cell (not fused, not bidirectional).
    zoneout_outputs : float, default 0.
    zoneout_states : float, default 0.
    """

    def __init__(self, base_cell, zoneout_outputs=0., zoneout_states=0.):
        if isinstance(base_cell, FusedRNNCell):
            raise AssertionError("FusedRNNCell doesn't support zoneout. Please unfuse first.")
        if isinstance(base_cell, BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support zoneout since it doesn't "
                                 "support step. Please add ZoneoutCell to the cells underneath "
                                 "instead.")
        if isinstance(base_cell, SequentialRNNCell) and base_cell._bidirectional:
            raise AssertionError("Bidirectional SequentialRNNCell doesn't support zoneout. "
                                 "Please add ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self.prev_output = None

    def reset(self):
        super().reset()
        self.prev_output = None

    def __call__(self, inputs, states):
        out, new_states = self.base_cell(inputs, states)

        def keep(p, like):
            return symbol.Dropout(symbol.ones_like(like), p=p)

        prev = self.prev_output if self.prev_output is not None else symbol.zeros((0, 0))
        if self.zoneout_outputs != 0.:
            out = symbol.where(keep(self.zoneout_outputs, out), out, prev)
        if self.zoneout_states != 0.:
            new_states = [symbol.where(keep(self.zoneout_states, new), new, old)
                          for new, old in zip(new_states, states)]
        self.prev_output = out
        return out, new_states


class ResidualCell(ModifierCell):
    """Adds the cell's input to its output (Wu et al. 2016).

    Parameters
    ----------
    base_cell : BaseRNNCell
    """

    def __call__(self, inputs, states):
        out, states = self.base_cell(inputs, states)
        out = symbol.elemwise_add(out, inputs, name=f"{out.name}_plus_residual")
        return out, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        self.base_cell._modified = False
        try:
            outputs, states = self.base_cell.unroll(length, inputs=inputs,
                                                    begin_state=begin_state, layout=layout,
                                                    merge_outputs=merge_outputs)
        finally:
            self.base_cell._modified = True
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, symbol.Symbol)
        inputs, _ = _normalize_sequence(length, inputs, layout, merge_outputs)
        if merge_outputs:
            outputs = symbol.elemwise_add(outputs, inputs,
                                          name=f"{outputs.name}_plus_residual")
        else:
            outputs = [symbol.elemwise_add(o, x, name=f"{o.name}_plus_residual")
                       for o, x in zip(outputs, inputs)]
        return outputs, states


class BidirectionalCell(BaseRNNCell):
    """Runs ``l_cell`` forward and ``r_cell`` backward over the sequence and concatenates
    their outputs on the feature axis.

    Parameters
    ----------
    l_cell, r_cell : BaseRNNCell
    params : RNNParams or None
        When given, both cells take their weights from it.
    output_prefix : str, default ``'bi_'``
        Prefix of the output Concat nodes (``<output_prefix>t<i>`` or ``<output_prefix>out``).
    """

    def __init__(self, l_cell, r_cell, params=None, output_prefix="bi_"):
        super().__init__("", params=params)
        self._output_prefix = output_prefix
        self._override_cell_params = params is not None
        if self._override_cell_params:
            if not (l_cell._own_params and r_cell._own_params):
                raise AssertionError("BidirectionalCell: give params either to the "
                                     "BidirectionalCell or to its child cells, not both.")
            l_cell.params._params.update(self.params._params)
            r_cell.params._params.update(self.params._params)
        self.params._params.update(l_cell.params._params)
        self.params._params.update(r_cell.params._params)
        self._cells = [l_cell, r_cell]

    def unpack_weights(self, args):
        return _unpack_all(self._cells, args)

    def pack_weights(self, args):
        return _pack_all(self._cells, args)

    def __call__(self, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    @property
    def state_info(self):
        return _state_info_of(self._cells)

    def begin_state(self, **kwargs):
        _check_unmodified(self)
        return _begin_state_of(self._cells, **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None):
        self.reset()
        steps, axis = _normalize_sequence(length, inputs, layout, False)
        if begin_state is None:
            begin_state = self.begin_state()
        l_cell, r_cell = self._cells
        nl = len(l_cell.state_info)
        l_out, l_states = l_cell.unroll(length, inputs=steps, begin_state=begin_state[:nl],
                                        layout=layout, merge_outputs=merge_outputs)
        r_out, r_states = r_cell.unroll(length, inputs=list(reversed(steps)),
                                        begin_state=begin_state[nl:], layout=layout,
                                        merge_outputs=merge_outputs)
        if merge_outputs is None:
            merge_outputs = isinstance(l_out, symbol.Symbol) and isinstance(r_out, symbol.Symbol)
            if not merge_outputs:
                if isinstance(l_out, symbol.Symbol):
                    l_out = list(symbol.SliceChannel(l_out, axis=axis, num_outputs=length,
                                                     squeeze_axis=1))
                if isinstance(r_out, symbol.Symbol):
                    r_out = list(symbol.SliceChannel(r_out, axis=axis, num_outputs=length,
                                                     squeeze_axis=1))
        if merge_outputs:
            outputs = symbol.Concat(l_out, symbol.reverse(r_out, axis=axis), dim=2,
                                    name=f"{self._output_prefix}out")
        else:
            outputs = [symbol.Concat(lo, ro, dim=1, name=f"{self._output_prefix}t{i}")
                       for i, (lo, ro) in enumerate(zip(l_out, reversed(list(r_out))))]
        return outputs, [l_states, r_states]


# ---------------------------------------------------------------------------------------------
# convolutional cells


def _default_conv_activation():
    return functools.partial(symbol.LeakyReLU, act_type="leaky", slope=0.2)


class BaseConvRNNCell(BaseRNNCell):
    """Shared part of the convolutional cells: ``i2h`` and ``h2h`` are convolutions, the
    state has the spatial shape the ``i2h`` convolution gives for ``input_shape``."""

    def __init__(self, input_shape, num_hidden, h2h_kernel, h2h_dilate, i2h_kernel,
                 i2h_stride, i2h_pad, i2h_dilate, i2h_weight_initializer,
                 h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                 activation, prefix="", params=None, conv_layout="NCHW"):
        super().__init__(prefix=prefix, params=params)
        if h2h_kernel[0] % 2 != 1 or h2h_kernel[1] % 2 != 1:
            raise AssertionError(f"Only support odd number, get h2h_kernel= {h2h_kernel}")
        self._h2h_kernel = h2h_kernel
        self._h2h_pad = (h2h_dilate[0] * (h2h_kernel[0] - 1) // 2,
                         h2h_dilate[1] * (h2h_kernel[1] - 1) // 2)
        self._h2h_dilate = h2h_dilate
        self._i2h_kernel = i2h_kernel
        self._i2h_stride = i2h_stride
        self._i2h_pad = i2h_pad
        self._i2h_dilate = i2h_dilate
        self._num_hidden = num_hidden
        self._input_shape = input_shape
        self._conv_layout = conv_layout
        self._activation = activation

        probe = symbol.Convolution(data=symbol.Variable("data"), num_filter=num_hidden,
                                   kernel=i2h_kernel, stride=i2h_stride, pad=i2h_pad,
                                   dilate=i2h_dilate, layout=conv_layout)
        out_shape = probe.infer_shape(data=input_shape)[1][0]
        self._state_shape = (0,) + tuple(out_shape[1:])

        self._iW = self.params.get("i2h_weight", init=i2h_weight_initializer)
        self._hW = self.params.get("h2h_weight", init=h2h_weight_initializer)
        self._iB = self.params.get("i2h_bias", init=i2h_bias_initializer)
        self._hB = self.params.get("h2h_bias", init=h2h_bias_initializer)

    @property
    def _num_gates(self):
        return len(self._gate_names)

    @property
    def state_info(self):
        return [{"shape": self._state_shape, "__layout__": self._conv_layout}
                for _ in range(2)]

    def _conv_forward(self, inputs, states, name):
        nf = self._num_hidden * self._num_gates
        i2h = symbol.Convolution(name=f"{name}i2h", data=inputs, num_filter=nf,
                                 kernel=self._i2h_kernel, stride=self._i2h_stride,
                                 pad=self._i2h_pad, dilate=self._i2h_dilate, weight=self._iW,
                                 bias=self._iB, layout=self._conv_layout)
        h2h = symbol.Convolution(name=f"{name}h2h", data=states[0], num_filter=nf,
                                 kernel=self._h2h_kernel, dilate=self._h2h_dilate,
                                 pad=self._h2h_pad, stride=(1, 1), weight=self._hW,
                                 bias=self._hB, layout=self._conv_layout)
        return i2h, h2h

    def __call__(self, inputs, states):
        raise NotImplementedError("BaseConvRNNCell is abstract class for convolutional RNN")


_CONV_DOC = """
    Parameters
    ----------
    input_shape : tuple of int
        Shape of one time step's input (batch axis included).
    num_hidden : int
        Channels of the state.
    h2h_kernel, h2h_dilate : tuple of int, default (3, 3), (1, 1)
        State-to-state convolution (odd kernel; padding keeps the spatial size).
    i2h_kernel, i2h_stride, i2h_pad, i2h_dilate : tuple of int
        Input-to-state convolution, defaults (3, 3), (1, 1), (1, 1), (1, 1).
    i2h_weight_initializer, h2h_weight_initializer : str or Initializer, default None
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    activation : str or callable, default leaky ReLU with slope 0.2
    prefix : str
    params : RNNParams or None
    conv_layout : str, default 'NCHW'
"""


class ConvRNNCell(BaseConvRNNCell):
    __doc__ = "Convolutional Elman cell (prefix ``'ConvRNN_'``)." + _CONV_DOC

    def __init__(self, input_shape, num_hidden, h2h_kernel=(3, 3), h2h_dilate=(1, 1),
                 i2h_kernel=(3, 3), i2h_stride=(1, 1), i2h_pad=(1, 1), i2h_dilate=(1, 1),
                 i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 activation=_default_conv_activation(), prefix="ConvRNN_", params=None,
                 conv_layout="NCHW"):
        super().__init__(input_shape, num_hidden, h2h_kernel, h2h_dilate, i2h_kernel,
                         i2h_stride, i2h_pad, i2h_dilate, i2h_weight_initializer,
                         h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                         activation, prefix=prefix, params=params, conv_layout=conv_layout)

    @property
    def _gate_names(self):
        return ("",)

    @property
    def state_info(self):
        return [{"shape": self._state_shape, "__layout__": self._conv_layout}]

    def __call__(self, inputs, states):
        self._counter += 1
        stem = f"{self._prefix}t{self._counter}_"
        i2h, h2h = self._conv_forward(inputs, states, stem)
        out = self._get_activation(i2h + h2h, self._activation, name=stem + "out")
        return out, [out]


class ConvLSTMCell(BaseConvRNNCell):
    __doc__ = "Convolutional LSTM cell (Shi et al. 2015; prefix ``'ConvLSTM_'``)." + _CONV_DOC

    def __init__(self, input_shape, num_hidden, h2h_kernel=(3, 3), h2h_dilate=(1, 1),
                 i2h_kernel=(3, 3), i2h_stride=(1, 1), i2h_pad=(1, 1), i2h_dilate=(1, 1),
                 i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 activation=_default_conv_activation(), prefix="ConvLSTM_", params=None,
                 conv_layout="NCHW"):
        super().__init__(input_shape, num_hidden, h2h_kernel, h2h_dilate, i2h_kernel,
                         i2h_stride, i2h_pad, i2h_dilate, i2h_weight_initializer,
                         h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                         activation, prefix=prefix, params=params, conv_layout=conv_layout)

    @property
    def _gate_names(self):
        return ["_i", "_f", "_c", "_o"]

    def __call__(self, inputs, states):
        self._counter += 1
        stem = f"{self._prefix}t{self._counter}_"
        i2h, h2h = self._conv_forward(inputs, states, stem)
        parts = symbol.SliceChannel(i2h + h2h, num_outputs=4,
                                    axis=self._conv_layout.find("C"), name=stem + "slice")
        gate_i = symbol.Activation(parts[0], act_type="sigmoid", name=stem + "i")
        gate_f = symbol.Activation(parts[1], act_type="sigmoid", name=stem + "f")
        cand = self._get_activation(parts[2], self._activation, name=stem + "c")
        gate_o = symbol.Activation(parts[3], act_type="sigmoid", name=stem + "o")
        c_new = symbol._internal._plus(gate_f * states[1], gate_i * cand, name=stem + "state")
        h_new = symbol._internal._mul(gate_o, self._get_activation(c_new, self._activation),
                                      name=stem + "out")
        return h_new, [h_new, c_new]


class ConvGRUCell(BaseConvRNNCell):
    __doc__ = "Convolutional GRU cell (prefix ``'ConvGRU_'``)." + _CONV_DOC

    def __init__(self, input_shape, num_hidden, h2h_kernel=(3, 3), h2h_dilate=(1, 1),
                 i2h_kernel=(3, 3), i2h_stride=(1, 1), i2h_pad=(1, 1), i2h_dilate=(1, 1),
                 i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 activation=_default_conv_activation(), prefix="ConvGRU_", params=None,
                 conv_layout="NCHW"):
        super().__init__(input_shape, num_hidden, h2h_kernel, h2h_dilate, i2h_kernel,
                         i2h_stride, i2h_pad, i2h_dilate, i2h_weight_initializer,
                         h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                         activation, prefix=prefix, params=params, conv_layout=conv_layout)

    @property
    def _gate_names(self):
        return ["_r", "_z", "_o"]

    @property
    def state_info(self):
        return [{"shape": self._state_shape, "__layout__": self._conv_layout}]

    def __call__(self, inputs, states):
        self._counter += 1
        stem = f"{self._prefix}t{self._counter}_"
        i2h, h2h = self._conv_forward(inputs, states, stem)
        xr, xz, xn = symbol.SliceChannel(i2h, num_outputs=3, name=stem + "_i2h_slice")
        hr, hz, hn = symbol.SliceChannel(h2h, num_outputs=3, name=stem + "_h2h_slice")
        r = symbol.Activation(xr + hr, act_type="sigmoid", name=stem + "_r_act")
        z = symbol.Activation(xz + hz, act_type="sigmoid", name=stem + "_z_act")
        cand = self._get_activation(xn + r * hn, self._activation, name=stem + "_h_act")
        h_new = symbol._internal._plus((1. - z) * cand, z * states[0], name=stem + "out")
        return h_new, [h_new]
