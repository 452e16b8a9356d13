"""Contrib recurrent cells: VariationalDropoutCell and LSTMPCell (plus ``dynamic_unroll``)."""
from ...rnn import BidirectionalCell, HybridRecurrentCell, ModifierCell, SequentialRNNCell
from ...rnn.rnn_cell import _TENSORS as tensor_types
from ...rnn.rnn_cell import (_as_list, _format_sequence, _get_begin_state,
                              _mask_sequence_variable_length)

__all__ = ['VariationalDropoutCell', 'LSTMPCell']


class VariationalDropoutCell(ModifierCell):
    """Variational dropout (Gal & Ghahramani, https://arxiv.org/abs/1512.05287) around a cell.

    One dropout mask per sequence is drawn for the inputs, for the first state (h) and for
    the outputs, and reused at every time step. The masks are drawn at the first step and
    kept until ``reset()`` (``unroll`` resets); step the cell by hand only with a
    ``reset()`` between sequences.

    Parameters
    ----------
    base_cell : RecurrentCell
        The wrapped cell.
    drop_inputs : float, default 0.
        Dropout rate of the inputs (0: none).
    drop_states : float, default 0.
        Dropout rate of the first state (0: none). Not allowed with bidirectional cells.
    drop_outputs : float, default 0.
        Dropout rate of the outputs (0: none).
    """

    def __init__(self, base_cell, drop_inputs=0., drop_states=0., drop_outputs=0.):
        if drop_states and isinstance(base_cell, BidirectionalCell):
            raise AssertionError(
                "BidirectionalCell doesn't support variational state dropout. "
                "Please add VariationalDropoutCell to the cells underneath instead.")
        if drop_states and isinstance(base_cell, SequentialRNNCell) and \
                getattr(base_cell, '_bidirectional', False):
            raise AssertionError(
                "Bidirectional SequentialRNNCell doesn't support variational state dropout. "
                "Please add VariationalDropoutCell to the cells underneath instead.")
        super().__init__(base_cell)
        self.drop_inputs = drop_inputs
        self.drop_states = drop_states
        self.drop_outputs = drop_outputs
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _alias(self):
        return 'vardrop'

    def reset(self):
        super().reset()
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _initialize_input_masks(self, F, inputs, states):
        if self.drop_states and self.drop_states_mask is None:
            self.drop_states_mask = F.Dropout(F.ones_like(states[0]), p=self.drop_states)
        if self.drop_inputs and self.drop_inputs_mask is None:
            self.drop_inputs_mask = F.Dropout(F.ones_like(inputs), p=self.drop_inputs)

    def _initialize_output_mask(self, F, output):
        if self.drop_outputs and self.drop_outputs_mask is None:
            self.drop_outputs_mask = F.Dropout(F.ones_like(output), p=self.drop_outputs)

    def hybrid_forward(self, F, inputs, states):
        self._initialize_input_masks(F, inputs, states)
        if self.drop_states:
            states = list(states)
            states[0] = states[0] * self.drop_states_mask   # h is always the first state
        if self.drop_inputs:
            inputs = inputs * self.drop_inputs_mask
        output, next_states = self.base_cell(inputs, states)
        self._initialize_output_mask(F, output)
        if self.drop_outputs:
            output = output * self.drop_outputs_mask
        return output, next_states

    def __repr__(self):
        return f'{self.__class__.__name__}(p_out = {self.drop_outputs}, p_state = {self.drop_states})'

    def unroll(self, length, inputs, begin_state=None, layout='NTC', merge_outputs=None,
               valid_length=None):
        """Unroll over ``length`` steps (see ``RecurrentCell.unroll``).

        Without state dropout the input and output dropouts are applied to the whole sequence
        at once (one mask broadcast over the time axis) around the base cell's own unroll.
        """
        if self.drop_states:
            return super().unroll(length, inputs, begin_state, layout, merge_outputs,
                                  valid_length=valid_length)
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, True)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
        if self.drop_inputs:
            inputs = F.Dropout(inputs, p=self.drop_inputs, axes=(axis,))
        outputs, states = self.base_cell.unroll(length, inputs, states, layout,
                                                merge_outputs=True, valid_length=valid_length)
        if self.drop_outputs:
            outputs = F.Dropout(outputs, p=self.drop_outputs, axes=(axis,))
        if merge_outputs is None:
            merge_outputs = isinstance(outputs, tensor_types)
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     merge_outputs)
        return outputs, states


class LSTMPCell(HybridRecurrentCell):
    r"""LSTM cell with a projected recurrent state (LSTMP, Sak et al.,
    https://arxiv.org/abs/1402.1128).

    The gates are those of an LSTM fed with the projected state :math:`r_{t-1}`; the cell
    then emits :math:`r_t = W_{hr} h_t` (no bias) as output and first state:

    .. math::
        i, f, o = \sigma(W_{i*} x_t + b_{i*} + W_{r*} r_{t-1} + b_{r*}),\quad
        g = \tanh(W_{ig} x_t + b_{ig} + W_{rg} r_{t-1} + b_{rg}),\\
        c_t = f c_{t-1} + i g,\quad h_t = o \tanh(c_t),\quad r_t = W_{hr} h_t

    Parameters
    ----------
    hidden_size : int
        Size of the cell state.
    projection_size : int
        Size of the output (projected) state.
    i2h_weight_initializer, h2h_weight_initializer, h2r_weight_initializer : default None
        Initializers of the input, recurrent and projection weights.
    i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
        Initializers of the biases.
    input_size : int, default 0
        Input features (0: inferred at the first call).
    prefix : str, default 'lstmp_'
        Name prefix of the cell and its parameters.
    params : ParameterDict, default None
        Parameters to share.

    Inputs are (batch, input_size); states ``[r (batch, projection_size), c (batch,
    hidden_size)]``; the output is (batch, projection_size).
    """

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None,
                 h2h_weight_initializer=None, h2r_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros', input_size=0,
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._projection_size = projection_size
        rows = 4 * hidden_size
        self.i2h_weight = self.params.get('i2h_weight', shape=(rows, input_size),
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get('h2h_weight', shape=(rows, projection_size),
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.h2r_weight = self.params.get('h2r_weight', shape=(projection_size, hidden_size),
                                          init=h2r_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get('i2h_bias', shape=(rows,),
                                        init=i2h_bias_initializer, allow_deferred_init=True)
        self.h2h_bias = self.params.get('h2h_bias', shape=(rows,),
                                        init=h2h_bias_initializer, allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size, self._projection_size), '__layout__': 'NC'},
                {'shape': (batch_size, self._hidden_size), '__layout__': 'NC'}]

    def _alias(self):
        return 'lstmp'

    def __repr__(self):
        shape = self.i2h_weight.shape
        return f'{self.__class__.__name__}({shape[1] or None} -> {shape[0]} -> {self.h2r_weight.shape[0]})'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, h2r_weight, i2h_bias,
                       h2h_bias):
        prefix = 't%d_' % self._counter
        rows = self._hidden_size * 4
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias, num_hidden=rows,
                               name=prefix + 'i2h')
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias,
                               num_hidden=rows, name=prefix + 'h2h')
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, name=prefix + 'slice')
        in_gate = F.Activation(gates[0], act_type='sigmoid', name=prefix + 'i')
        forget_gate = F.Activation(gates[1], act_type='sigmoid', name=prefix + 'f')
        in_transform = F.Activation(gates[2], act_type='tanh', name=prefix + 'c')
        out_gate = F.Activation(gates[3], act_type='sigmoid', name=prefix + 'o')
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform,
                                name=prefix + 'state')
        hidden = F.elemwise_mul(out_gate, F.Activation(next_c, act_type='tanh'),
                                name=prefix + 'hidden')
        next_r = F.FullyConnected(data=hidden, num_hidden=self._projection_size,
                                  weight=h2r_weight, no_bias=True, name=prefix + 'out')
        return next_r, [next_r, next_c]


def dynamic_unroll(cell, inputs, begin_state, drop_inputs=0, drop_outputs=0, layout='TNC',
                   valid_length=None):
    """Run ``cell`` over the time axis of ``inputs`` with ``contrib.foreach``.

    Parameters
    ----------
    cell : RecurrentCell
        The cell to run.
    inputs : NDArray or Symbol
        (length, batch, ...) for layout 'TNC', (batch, length, ...) for 'NTC'.
    begin_state : list of NDArray or Symbol
        Initial states.
    drop_inputs, drop_outputs : float, default 0
        Dropout rates applied to the whole input / output sequence (mask shared over time).
    layout : str, default 'TNC'
    valid_length : NDArray or Symbol, default None
        (batch,) lengths; past them states stop changing and outputs are zero.

    Returns
    -------
    (outputs, states): outputs in ``layout``, and the final states.
    """
    inputs, axis, F, _ = _format_sequence(0, inputs, layout, True)
    if axis != 0:
        axes = list(range(len(layout)))
        axes[0], axes[axis] = axes[axis], axes[0]
        inputs = F.transpose(inputs, axes=axes)
    states = begin_state
    if drop_inputs:
        inputs = F.Dropout(inputs, p=drop_inputs, axes=(axis,))

    if valid_length is None:
        def loop_body(step, step_states):
            return cell(step, step_states)
    else:
        states = list(_as_list(states))
        states.append(F.zeros(1))

        def loop_body(step, step_states):
            cell_states, iter_no = step_states[:-1], step_states[-1]
            out, new_states = cell(step, cell_states)
            live = F.broadcast_greater(valid_length, iter_no)
            new_states = [F.where(live, new, old) for new, old in zip(new_states, cell_states)]
            new_states.append(iter_no + 1)
            return out, new_states

    outputs, states = F.contrib.foreach(loop_body, inputs, states)
    if drop_outputs:
        outputs = F.Dropout(outputs, p=drop_outputs, axes=(axis,))
    if axis != 0:
        outputs = F.transpose(outputs, axes)
    if valid_length is None:
        return outputs, states
    outputs = F.SequenceMask(outputs, sequence_length=valid_length, use_sequence_length=True,
                             axis=axis)
    return outputs, states[:-1]   # drop the iteration counter
