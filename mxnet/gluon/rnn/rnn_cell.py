"""Recurrent cells: one time step at a time, plus ``unroll`` over a whole sequence.

A cell is called as ``output, new_states = cell(x_t, states)`` with ``x_t`` of shape
(batch, input) and ``states`` a list (see ``state_info``). ``unroll(length, inputs, ...)``
runs the steps in Python, so it works imperatively and, inside a HybridBlock, while tracing.

- Basic cells: :class:`RNNCell`, :class:`LSTMCell`, :class:`GRUCell`, with parameters
  ``i2h_weight``, ``h2h_weight``, ``i2h_bias``, ``h2h_bias`` (gate blocks stacked on axis 0 in
  the order the fused ``RNN`` operator uses, so weights move between the two unchanged).
- Containers: :class:`SequentialRNNCell`, :class:`HybridSequentialRNNCell` (stacks) and
  :class:`BidirectionalCell` (a forward and a reverse cell; unroll only).
- :class:`DropoutCell` and the modifiers (:class:`ModifierCell`): :class:`ResidualCell`,
  :class:`ZoneoutCell`.

Variable lengths: ``unroll(..., valid_length=v)`` zeroes outputs past each sequence's length
and returns the states of its last valid step; the reverse cell of a BidirectionalCell reads
each sequence backwards from its last valid step.
"""
from __future__ import annotations

from numbers import Number

from ... import ndarray as _nd
from ... import symbol as _sym
from ...ndarray import NDArray
from ...symbol import Symbol
from ..block import Block, HybridBlock
from ..nn import LeakyReLU

__all__ = ["RecurrentCell", "HybridRecurrentCell", "RNNCell", "LSTMCell", "GRUCell",
           "SequentialRNNCell", "HybridSequentialRNNCell", "DropoutCell", "ModifierCell",
           "ZoneoutCell", "ResidualCell", "BidirectionalCell"]

_TENSORS = (Symbol, NDArray)
_MODIFIED = ("After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be called "
             "directly. Call the modifier cell instead.")


# ---------------------------------------------------------------------------------------------
# sequence helpers


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _split_steps(F, x, num_outputs, axis, squeeze=True):
    """``x`` cut along ``axis`` into a list of ``num_outputs`` squeezed steps (a grouped
    symbol is unpacked too). ``squeeze``: the ``squeeze_axis`` value as 1.9.1 spells it at
    that call site (``1`` or ``True``: the same split, written differently in exports)."""
    parts = F.split(x, num_outputs=num_outputs, axis=axis, squeeze_axis=squeeze)
    if isinstance(parts, Symbol):
        return list(parts) if len(parts) > 1 else [parts]
    return _as_list(parts)


def _indent(text, spaces):
    pad = " " * spaces
    return text.replace("\n", "\n" + pad)


def _cells_state_info(cells, batch_size):
    return [info for c in cells for info in c.state_info(batch_size)]


def _cells_begin_state(cells, **kwargs):
    return [s for c in cells for s in c.begin_state(**kwargs)]


def _get_begin_state(cell, F, begin_state, inputs, batch_size, layout="NTC"):
    """``begin_state`` or, when None, zero states sized for ``inputs``."""
    if begin_state is not None:
        return begin_state
    if F is _nd:
        ctx = inputs.context if isinstance(inputs, _TENSORS) else inputs[0].context
        with ctx:
            return cell.begin_state(func=_nd.zeros, batch_size=batch_size)
    # as in 1.9.1: a 0 (unknown) batch dimension, which shape inference fills in from the
    # operators reading the states (hybridized blocks and executors infer it per call)
    return cell.begin_state(func=_sym.zeros, batch_size=batch_size)


def _format_sequence(length, inputs, layout, merge, in_layout=None):
    """Bring ``inputs`` (one tensor in ``in_layout`` or a list of per-step tensors) to the form
    ``merge`` asks for: False a list of (batch, ...) steps, True one tensor in ``layout``,
    None whatever it already is. Returns (inputs, time axis, F, batch size (0 if unknown))."""
    if inputs is None:
        raise AssertionError("unroll(inputs=None) has been deprecated. Please create input "
                             "variables outside unroll.")
    axis = layout.find("T")
    batch_axis = layout.find("N")
    batch_size = 0
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, Symbol):
        F = _sym
        if merge is False:
            if len(inputs.list_outputs()) != 1:
                raise AssertionError("unroll doesn't allow grouped symbol as input. Please "
                                     "convert to list with list(inputs) first or let unroll "
                                     "handle splitting.")
            inputs = _split_steps(_sym, inputs, length, in_axis, squeeze=1)
    elif isinstance(inputs, NDArray):
        F = _nd
        batch_size = inputs.shape[batch_axis]
        if merge is False:
            if length is not None and length != inputs.shape[in_axis]:
                raise AssertionError(f"unroll: length={length} but the input has "
                                     f"{inputs.shape[in_axis]} steps on axis {in_axis}")
            inputs = _as_list(_nd.split(inputs, axis=in_axis, num_outputs=inputs.shape[in_axis],
                                        squeeze_axis=1))
    else:
        if length is not None and len(inputs) != length:
            raise AssertionError(f"unroll: length={length} but {len(inputs)} inputs were given")
        if isinstance(inputs[0], Symbol):
            F = _sym
        else:
            F = _nd
            batch_size = inputs[0].shape[0]
        if merge is True:
            inputs = F.stack(*inputs, axis=axis)
            in_axis = axis
    if isinstance(inputs, _TENSORS) and axis != in_axis:
        inputs = F.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis, F, batch_size


def _mask_sequence_variable_length(F, data, length, valid_length, time_axis, merge):
    """Zero every step past each sequence's valid length; a list again unless ``merge``."""
    if not isinstance(data, _TENSORS):
        data = F.stack(*data, axis=time_axis)
    outputs = F.SequenceMask(data, sequence_length=valid_length, use_sequence_length=True,
                             axis=time_axis)
    if not merge:
        outputs = _split_steps(F, outputs, length, time_axis)
    return outputs


def _reverse_sequences(sequences, unroll_step, valid_length=None):
    """The list of steps reversed; with ``valid_length`` each sequence's valid part only."""
    F = _sym if isinstance(sequences[0], Symbol) else _nd
    if valid_length is None:
        return list(reversed(sequences))
    rev = F.SequenceReverse(F.stack(*sequences, axis=0), sequence_length=valid_length,
                            use_sequence_length=True)
    if unroll_step > 1 or F is _sym:
        return _split_steps(F, rev, unroll_step, 0)
    return [rev[0]]


# ---------------------------------------------------------------------------------------------
# base classes


class RecurrentCell(Block):
    """The base of all recurrent cells.

    Subclasses define ``state_info`` and the step (``hybrid_forward`` for hybrid cells);
    ``begin_state`` and ``unroll`` come from here.
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._modified = False
        self.reset()

    def reset(self):
        """Reset the step counters before reusing the cell for another sequence or graph."""
        self._init_counter = -1
        self._counter = -1
        for cell in self._children.values():
            cell.reset()

    def state_info(self, batch_size=0):
        """One dict (``shape``, ``__layout__`` ...) per recurrent state."""
        raise NotImplementedError()

    def begin_state(self, batch_size=0, func=_nd.zeros, **kwargs):
        """Initial states, ``func(name=..., shape=..., **kwargs)`` each.

        ``func`` defaults to ``mx.nd.zeros``; use ``mx.sym.zeros`` or ``mx.sym.var`` to get
        symbols. ``kwargs`` (ctx, dtype ...) extend the state description.
        """
        if self._modified:
            raise AssertionError(_MODIFIED)
        states = []
        for info in self.state_info(batch_size):
            self._init_counter += 1
            if info is None:
                info = dict(kwargs)
            else:
                info.update(kwargs)
            states.append(func(name=f"{self._prefix}begin_state_{self._init_counter}", **info))
        return states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        """Run ``length`` steps over ``inputs`` (one tensor in ``layout``, or a list of
        per-step tensors). Returns ``(outputs, states)``; ``outputs`` is one tensor in
        ``layout`` when ``merge_outputs`` is True, a list of steps when False, and in the
        form of ``inputs`` when None."""
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
        outputs = []
        history = []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
            if valid_length is not None:
                history.append(states)
        if valid_length is not None:
            states = [F.SequenceLast(F.stack(*steps, axis=0), sequence_length=valid_length,
                                     use_sequence_length=True, axis=0)
                      for steps in zip(*history)]
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis, True)
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, F, inputs, activation, **kwargs):
        """``activation`` (a name, a LeakyReLU block or a callable) applied to ``inputs``."""
        named = {"tanh": F.tanh, "relu": F.relu, "sigmoid": F.sigmoid, "softsign": F.softsign}
        if isinstance(activation, str):
            fn = named.get(activation)
            if fn is not None:
                return fn(inputs, **kwargs)
            return F.Activation(inputs, act_type=activation, **kwargs)
        if isinstance(activation, LeakyReLU):
            return F.LeakyReLU(inputs, act_type="leaky", slope=activation._alpha, **kwargs)
        return activation(inputs, **kwargs)

    def forward(self, inputs, states):
        """One step: ``(output, new_states)``."""
        self._counter += 1
        return super().forward(inputs, states)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """A recurrent cell whose step is a ``hybrid_forward(F, inputs, states, **params)``."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


def _mapping(weight, rows_per_unit=1):
    shape = weight.shape
    return f"{shape[1] or None} -> {shape[0] // rows_per_unit}"


class _GatedCell(HybridRecurrentCell):
    """The four parameters shared by RNNCell, LSTMCell and GRUCell."""

    _gates = 1          # blocks of hidden_size rows in each weight
    _nstates = 1        # states, each (batch, hidden_size)
    _alias_name = ""    # what _alias() returns

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        rows = self._gates * hidden_size
        self.i2h_weight = self.params.get("i2h_weight", shape=(rows, input_size),
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get("h2h_weight", shape=(rows, hidden_size),
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(rows,), init=i2h_bias_initializer,
                                        allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(rows,), init=h2h_bias_initializer,
                                        allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}
                for _ in range(self._nstates)]

    def _alias(self):
        return self._alias_name

    def __repr__(self):
        return f"{self.__class__.__name__}({_mapping(self.i2h_weight)})"

    def _projections(self, F, inputs, h, i2h_weight, h2h_weight, i2h_bias, h2h_bias, prefix):
        units = self._gates * self._hidden_size
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=units,
                               name=prefix + "i2h")
        h2h = F.FullyConnected(data=h, weight=h2h_weight, bias=h2h_bias, num_hidden=units,
                               name=prefix + "h2h")
        return i2h, h2h


# ---------------------------------------------------------------------------------------------
# basic cells


class RNNCell(_GatedCell):
    """An Elman cell: ``h' = activation(W_ih x + b_ih + W_hh h + b_hh)``; the output is h'.

    ``activation`` is a name ('tanh', 'relu', 'sigmoid', 'softsign' or any Activation type),
    a LeakyReLU block or a callable. ``input_size=0`` defers the input size to the first
    call. One state of shape (batch, hidden_size).
    """

    _alias_name = "rnn"

    def __init__(self, hidden_size, activation="tanh", i2h_weight_initializer=None,
                 h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None):
        # set before Block.__init__ and past __setattr__: an activation block is not a child
        object.__setattr__(self, "_activation", activation)
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer,
                         i2h_bias_initializer, h2h_bias_initializer, input_size, prefix, params)

    def __repr__(self):
        return f"{self.__class__.__name__}({_mapping(self.i2h_weight)}, {self._activation})"

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        i2h, h2h = self._projections(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                     h2h_bias, prefix)
        pre = F.elemwise_add(i2h, h2h, name=prefix + "plus0")
        output = self._get_activation(F, pre, self._activation, name=prefix + "out")
        return output, [output]


class LSTMCell(_GatedCell):
    """A long short-term memory cell.

    With ``g = W_ih x + b_ih + W_hh h + b_hh`` cut into four blocks (input, forget, cell
    candidate, output): ``c' = f * c + i * a(cand)`` and ``h' = o * a(c')``, where i, f and o
    go through ``recurrent_activation`` (sigmoid) and ``a`` is ``activation`` (tanh). The
    output is h'; the states are ``[h, c]``, each (batch, hidden_size).
    """

    _gates = 4
    _nstates = 2
    _alias_name = "lstm"

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 prefix=None, params=None, activation="tanh", recurrent_activation="sigmoid"):
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer,
                         i2h_bias_initializer, h2h_bias_initializer, input_size, prefix, params)
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        i2h, h2h = self._projections(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                     h2h_bias, prefix)
        gates = F.elemwise_add(i2h, h2h, name=prefix + "plus0")
        blocks = F.SliceChannel(gates, num_outputs=4, name=prefix + "slice")
        act, ract = self._activation, self._recurrent_activation
        in_gate = self._get_activation(F, blocks[0], ract, name=prefix + "i")
        forget_gate = self._get_activation(F, blocks[1], ract, name=prefix + "f")
        candidate = self._get_activation(F, blocks[2], act, name=prefix + "c")
        out_gate = self._get_activation(F, blocks[3], ract, name=prefix + "o")
        next_c = F.elemwise_add(F.elemwise_mul(forget_gate, states[1], name=prefix + "mul0"),
                                F.elemwise_mul(in_gate, candidate, name=prefix + "mul1"),
                                name=prefix + "state")
        # the cell state goes through Activation by name, as in 1.9.1
        squashed = F.Activation(next_c, act_type=act, name=prefix + "activation0")
        next_h = F.elemwise_mul(out_gate, squashed, name=prefix + "out")
        return next_h, [next_h, next_c]


class GRUCell(_GatedCell):
    """A gated recurrent unit.

    With the i2h and h2h projections each cut into (reset, update, new) blocks:
    ``r = sigmoid(xr + hr)``, ``z = sigmoid(xz + hz)``, ``n = tanh(xn + r * hn)`` (hn includes
    its bias) and ``h' = (1 - z) * n + z * h``. One state of shape (batch, hidden_size).
    """

    _gates = 3
    _alias_name = "gru"

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 prefix=None, params=None):
        # spelled out so that a wrong keyword is reported against GRUCell, as in 1.9.1
        super().__init__(hidden_size, i2h_weight_initializer, h2h_weight_initializer,
                         i2h_bias_initializer, h2h_bias_initializer, input_size, prefix, params)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = f"t{self._counter}_"
        h = states[0]
        i2h, h2h = self._projections(F, inputs, h, i2h_weight, h2h_weight, i2h_bias, h2h_bias,
                                     prefix)
        xr, xz, xn = F.SliceChannel(i2h, num_outputs=3, name=prefix + "i2h_slice")
        hr, hz, hn = F.SliceChannel(h2h, num_outputs=3, name=prefix + "h2h_slice")
        reset = F.Activation(F.elemwise_add(xr, hr, name=prefix + "plus0"), act_type="sigmoid",
                             name=prefix + "r_act")
        update = F.Activation(F.elemwise_add(xz, hz, name=prefix + "plus1"), act_type="sigmoid",
                              name=prefix + "z_act")
        new = F.Activation(F.elemwise_add(xn, F.elemwise_mul(reset, hn, name=prefix + "mul0"),
                                          name=prefix + "plus2"),
                           act_type="tanh", name=prefix + "h_act")
        ones = F.ones_like(update, name=prefix + "ones_like0")
        keep_new = F.elemwise_mul(F.elemwise_sub(ones, update, name=prefix + "minus0"), new,
                                  name=prefix + "mul1")
        next_h = F.elemwise_add(keep_new, F.elemwise_mul(update, h, name=prefix + "mul20"),
                                name=prefix + "out")
        return next_h, [next_h]


# ---------------------------------------------------------------------------------------------
# stacks


class _StackMixin:
    """Stepping and unrolling shared by the two sequential cells."""

    def __repr__(self):
        body = "\n".join(f"({i}): {_indent(repr(m), 2)}" for i, m in self._children.items())
        return f"{self.__class__.__name__}(\n{body}\n)"

    def add(self, cell):
        """Append a cell to the stack."""
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        if self._modified:
            raise AssertionError(_MODIFIED)
        return _cells_begin_state(self._children.values(), **kwargs)

    def __call__(self, inputs, states):
        self._counter += 1
        if any(isinstance(c, BidirectionalCell) for c in self._children.values()):
            raise AssertionError("a stack holding a BidirectionalCell cannot be stepped; use "
                                 "unroll")
        next_states = []
        p = 0
        for cell in self._children.values():
            n = len(cell.state_info())
            inputs, state = cell(inputs, states[p:p + n])
            p += n
            next_states.extend(state)
        return inputs, next_states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, _, F, batch_size = _format_sequence(length, inputs, layout, None)
        begin_state = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
        last = len(self._children) - 1
        p = 0
        next_states = []
        for i, cell in enumerate(self._children.values()):
            n = len(cell.state_info())
            inputs, states = cell.unroll(length, inputs=inputs, begin_state=begin_state[p:p + n],
                                         layout=layout,
                                         merge_outputs=merge_outputs if i == last else None,
                                         valid_length=valid_length)
            p += n
            next_states.extend(states)
        return inputs, next_states

    def __getitem__(self, i):
        return self._children[str(i)]

    def __len__(self):
        return len(self._children)


class SequentialRNNCell(_StackMixin, RecurrentCell):
    """A stack of cells: each step's output feeds the next cell; states are concatenated."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def begin_state(self, **kwargs):
        # defined here so that a positional batch size is reported against this class
        return _StackMixin.begin_state(self, **kwargs)

    def hybrid_forward(self, *args, **kwargs):
        raise NotImplementedError


class HybridSequentialRNNCell(_StackMixin, HybridRecurrentCell):
    """A stack of hybrid cells (see :class:`SequentialRNNCell`)."""

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def begin_state(self, **kwargs):
        # defined here so that a positional batch size is reported against this class
        return _StackMixin.begin_state(self, **kwargs)

    def hybrid_forward(self, F, inputs, states):
        return self.__call__(inputs, states)


# ---------------------------------------------------------------------------------------------
# dropout and modifiers


class DropoutCell(HybridRecurrentCell):
    """Dropout on the step input (training only); it has no states.

    ``axes`` share one mask along those axes (variational dropout).
    """

    def __init__(self, rate, axes=(), prefix=None, params=None):
        super().__init__(prefix, params)
        if not isinstance(rate, Number):
            raise AssertionError("rate must be a number")
        self._rate = rate
        self._axes = axes

    def __repr__(self):
        return f"{self.__class__.__name__}(rate={self._rate}, axes={self._axes})"

    def state_info(self, batch_size=0):
        return []

    def _alias(self):
        return "dropout"

    def hybrid_forward(self, F, inputs, states):
        if self._rate > 0:
            inputs = F.Dropout(data=inputs, p=self._rate, axes=self._axes,
                               name=f"t{self._counter}_fwd")
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, _, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, _TENSORS):
            # one dropout over the whole sequence tensor
            return self.hybrid_forward(F, inputs, begin_state if begin_state else [])
        return super().unroll(length, inputs, begin_state=begin_state, layout=layout,
                              merge_outputs=merge_outputs, valid_length=None)


class ModifierCell(HybridRecurrentCell):
    """The base of cells that wrap another cell (``base_cell``) and change its step.

    The modifier shares the base cell's parameters; the base cell itself may no longer be
    called or asked for begin states directly.
    """

    def __init__(self, base_cell):
        if base_cell._modified:
            raise AssertionError(f"Cell {base_cell.name} is already modified. One cell cannot "
                                 "be modified twice")
        base_cell._modified = True
        super().__init__(prefix=base_cell.prefix + self._alias(), params=None)
        self.base_cell = base_cell

    @property
    def params(self):
        return self.base_cell.params

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, func=_sym.zeros, **kwargs):
        # 1.9.1 defaults to symbols here (unlike the other cells)
        if self._modified:
            raise AssertionError(_MODIFIED)
        self.base_cell._modified = False
        try:
            begin = self.base_cell.begin_state(func=func, **kwargs)
        finally:
            self.base_cell._modified = True
        return begin

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError

    def __repr__(self):
        return f"{self.__class__.__name__}({self.base_cell})"


class ZoneoutCell(ModifierCell):
    """Zoneout: while training, each output / state unit keeps its previous value with
    probability ``zoneout_outputs`` / ``zoneout_states`` instead of updating."""

    def __init__(self, base_cell, zoneout_outputs=0., zoneout_states=0.):
        if isinstance(base_cell, BidirectionalCell):
            raise AssertionError("BidirectionalCell doesn't support zoneout since it doesn't "
                                 "support step. Please add ZoneoutCell to the cells underneath "
                                 "instead.")
        if isinstance(base_cell, SequentialRNNCell) and getattr(base_cell, "_bidirectional",
                                                                False):
            raise AssertionError("Bidirectional SequentialRNNCell doesn't support zoneout. "
                                 "Please add ZoneoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self._prev_output = None

    def __repr__(self):
        return (f"{self.__class__.__name__}(p_out={self.zoneout_outputs}, "
                f"p_state={self.zoneout_states}, {self.base_cell})")

    def _alias(self):
        return "zoneout"

    def reset(self):
        super().reset()
        self._prev_output = None

    def hybrid_forward(self, F, inputs, states):
        p_out, p_state = self.zoneout_outputs, self.zoneout_states
        next_output, next_states = self.base_cell(inputs, states)

        def keep_new(p, like):
            # nonzero where the new value is taken (Dropout of ones: identity outside training)
            return F.Dropout(F.ones_like(like), p=p)

        prev_output = self._prev_output
        if prev_output is None:
            prev_output = F.zeros_like(next_output)
        output = next_output
        if p_out != 0.:
            output = F.where(keep_new(p_out, next_output), next_output, prev_output)
        new_states = next_states
        if p_state != 0.:
            new_states = [F.where(keep_new(p_state, new), new, old)
                          for new, old in zip(next_states, states)]
        self._prev_output = output
        return output, new_states


class ResidualCell(ModifierCell):
    """Adds the step input to the base cell's output (``output + inputs``)."""

    def __init__(self, base_cell):
        super().__init__(base_cell)

    def hybrid_forward(self, F, inputs, states):
        output, states = self.base_cell(inputs, states)
        output = F.elemwise_add(output, inputs, name=f"t{self._counter}_fwd")
        return output, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        self.reset()
        self.base_cell._modified = False
        try:
            outputs, states = self.base_cell.unroll(length, inputs=inputs,
                                                    begin_state=begin_state, layout=layout,
                                                    merge_outputs=merge_outputs,
                                                    valid_length=valid_length)
        finally:
            self.base_cell._modified = True
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, _TENSORS)
        inputs, axis, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if valid_length is not None:
            # padded steps contribute no input
            inputs = _mask_sequence_variable_length(F, inputs, length, valid_length, axis,
                                                    merge_outputs)
        if merge_outputs:
            outputs = F.elemwise_add(outputs, inputs)
        else:
            outputs = [F.elemwise_add(o, i) for o, i in zip(outputs, inputs)]
        return outputs, states


# ---------------------------------------------------------------------------------------------
# bidirectional


class BidirectionalCell(HybridRecurrentCell):
    """Runs ``l_cell`` forwards and ``r_cell`` backwards over the sequence and joins their
    outputs on the feature axis. It cannot be stepped; use ``unroll``."""

    def __init__(self, l_cell, r_cell, output_prefix="bi_"):
        super().__init__(prefix="", params=None)
        self.register_child(l_cell, "l_cell")
        self.register_child(r_cell, "r_cell")
        self._output_prefix = output_prefix

    def __call__(self, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    def __repr__(self):
        return (f"{self.__class__.__name__}(forward={self._children['l_cell']}, "
                f"backward={self._children['r_cell']})")

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        if self._modified:
            raise AssertionError(_MODIFIED)
        return _cells_begin_state(self._children.values(), **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        reversed_inputs = list(_reverse_sequences(inputs, length, valid_length))
        states = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
        l_cell, r_cell = self._children.values()
        n_l = len(l_cell.state_info(batch_size))
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=states[:n_l],
                                            layout=layout, merge_outputs=merge_outputs,
                                            valid_length=valid_length)
        r_outputs, r_states = r_cell.unroll(length, inputs=reversed_inputs,
                                            begin_state=states[n_l:], layout=layout,
                                            merge_outputs=False, valid_length=valid_length)
        r_outputs = _reverse_sequences(r_outputs, length, valid_length)
        if merge_outputs is None:
            merge_outputs = isinstance(l_outputs, _TENSORS)
            l_outputs, _, _, _ = _format_sequence(None, l_outputs, layout, merge_outputs)
            r_outputs, _, _, _ = _format_sequence(None, r_outputs, layout, merge_outputs)
        if merge_outputs:
            if not isinstance(r_outputs, _TENSORS):    # (merged above when merge was None)
                r_outputs = F.stack(*r_outputs, axis=axis)
            outputs = F.concat(l_outputs, r_outputs, dim=2, name=f"{self._output_prefix}out")
        else:
            outputs = [F.concat(lo, ro, dim=1, name=f"{self._output_prefix}t{i}")
                       for i, (lo, ro) in enumerate(zip(l_outputs, r_outputs))]
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     merge_outputs)
        return outputs, l_states + r_states
