"""Convolutional recurrent cells (ConvRNN, ConvLSTM, ConvGRU in 1, 2 and 3 dimensions).

The input-to-hidden and hidden-to-hidden transforms are convolutions instead of dense
layers. The hidden-to-hidden convolution is padded so that the state keeps its spatial size,
which is why its kernel sizes must be odd. Parameters: ``i2h_weight``, ``h2h_weight``,
``i2h_bias``, ``h2h_bias``; the weights hold the gates stacked on the output-channel axis.
"""
from math import floor

from ....base import numeric_types
from ...rnn import HybridRecurrentCell

__all__ = ['Conv1DRNNCell', 'Conv2DRNNCell', 'Conv3DRNNCell',
           'Conv1DLSTMCell', 'Conv2DLSTMCell', 'Conv3DLSTMCell',
           'Conv1DGRUCell', 'Conv2DGRUCell', 'Conv3DGRUCell']


def _get_conv_out_size(dimensions, kernels, paddings, dilations):
    """Spatial output size of a stride-1 convolution (0 stays 0, i.e. unknown)."""
    return tuple(int(floor(x + 2 * p - d * (k - 1) - 1) + 1) if x else 0
                 for x, k, p, d in zip(dimensions, kernels, paddings, dilations))


def _tuple(value, dims):
    return (value,) * dims if isinstance(value, numeric_types) else tuple(value)


class _BaseConvRNNCell(HybridRecurrentCell):
    """Shared parameter set-up, shape logic and convolutions of the convolutional cells."""

    _gate_names = ('',)

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad,
                 i2h_dilate, h2h_dilate, i2h_weight_initializer, h2h_weight_initializer,
                 i2h_bias_initializer, h2h_bias_initializer, dims, conv_layout, activation,
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._hidden_channels = hidden_channels
        self._input_shape = input_shape
        self._conv_layout = conv_layout
        self._activation = activation
        specs = [i2h_kernel, i2h_pad, i2h_dilate, h2h_kernel, h2h_dilate]
        if not all(isinstance(s, int) or len(s) == dims for s in specs):
            raise AssertionError(
                f"For {dims}D convolution, the convolution settings can only be either int "
                f"or list/tuple of length {dims}")
        self._i2h_kernel = _tuple(i2h_kernel, dims)
        self._stride = (1,) * dims
        self._i2h_pad = _tuple(i2h_pad, dims)
        self._i2h_dilate = _tuple(i2h_dilate, dims)
        self._h2h_kernel = _tuple(h2h_kernel, dims)
        if not all(k % 2 == 1 for k in self._h2h_kernel):
            raise AssertionError("Only support odd number, get h2h_kernel= %s" % str(h2h_kernel))
        self._h2h_dilate = _tuple(h2h_dilate, dims)
        (self._channel_axis, self._in_channels, i2h_shape, h2h_shape, self._h2h_pad,
         self._state_shape) = self._decide_shapes()
        rows = hidden_channels * self._num_gates
        self.i2h_weight = self.params.get('i2h_weight', shape=i2h_shape,
                                          init=i2h_weight_initializer, allow_deferred_init=True)
        self.h2h_weight = self.params.get('h2h_weight', shape=h2h_shape,
                                          init=h2h_weight_initializer, allow_deferred_init=True)
        self.i2h_bias = self.params.get('i2h_bias', shape=(rows,),
                                        init=i2h_bias_initializer, allow_deferred_init=True)
        self.h2h_bias = self.params.get('h2h_bias', shape=(rows,),
                                        init=h2h_bias_initializer, allow_deferred_init=True)

    def _decide_shapes(self):
        channel_axis = self._conv_layout.find('C')
        shape = tuple(self._input_shape)
        in_channels = shape[channel_axis - 1]
        spatial = shape[1:] if channel_axis == 1 else shape[:-1]
        rows = self._hidden_channels * self._num_gates
        out_size = _get_conv_out_size(spatial, self._i2h_kernel, self._i2h_pad,
                                      self._i2h_dilate)
        h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate, self._h2h_kernel))
        if channel_axis == 1:
            i2h_shape = (rows, in_channels) + self._i2h_kernel
            h2h_shape = (rows, self._hidden_channels) + self._h2h_kernel
            state_shape = (self._hidden_channels,) + out_size
        else:
            i2h_shape = (rows,) + self._i2h_kernel + (in_channels,)
            h2h_shape = (rows,) + self._h2h_kernel + (self._hidden_channels,)
            state_shape = out_size + (self._hidden_channels,)
        return channel_axis, in_channels, i2h_shape, h2h_shape, h2h_pad, state_shape

    def __repr__(self):
        shape = self.i2h_weight.shape
        in_channels = shape[1 if self._channel_axis == 1 else -1]
        return (f'{self.__class__.__name__}({in_channels or None} -> {shape[0]}, '
                f'{self._activation}, {self._conv_layout})')

    @property
    def _num_gates(self):
        return len(self._gate_names)

    def _conv_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias,
                      prefix):
        filters = self._hidden_channels * self._num_gates
        i2h = F.Convolution(data=inputs, num_filter=filters, kernel=self._i2h_kernel,
                            stride=self._stride, pad=self._i2h_pad, dilate=self._i2h_dilate,
                            weight=i2h_weight, bias=i2h_bias, layout=self._conv_layout,
                            name=prefix + 'i2h')
        h2h = F.Convolution(data=states[0], num_filter=filters, kernel=self._h2h_kernel,
                            dilate=self._h2h_dilate, pad=self._h2h_pad, stride=self._stride,
                            weight=h2h_weight, bias=h2h_bias, layout=self._conv_layout,
                            name=prefix + 'h2h')
        return i2h, h2h

    def _states(self, count, batch_size):
        return [{'shape': (batch_size,) + self._state_shape, '__layout__': self._conv_layout}
                for _ in range(count)]

    def state_info(self, batch_size=0):
        raise NotImplementedError("_BaseConvRNNCell is abstract class for convolutional RNN")

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError("_BaseConvRNNCell is abstract class for convolutional RNN")


class _ConvRNNCell(_BaseConvRNNCell):
    _gate_names = ('',)

    def state_info(self, batch_size=0):
        return self._states(1, batch_size)

    def _alias(self):
        return 'conv_rnn'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        output = self._get_activation(F, i2h + h2h, self._activation, name=prefix + 'out')
        return output, [output]


class _ConvLSTMCell(_BaseConvRNNCell):
    _gate_names = ('_i', '_f', '_c', '_o')

    def state_info(self, batch_size=0):
        return self._states(2, batch_size)

    def _alias(self):
        return 'conv_lstm'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, name=prefix + 'slice',
                               axis=self._channel_axis)
        in_gate = F.Activation(gates[0], act_type='sigmoid', name=prefix + 'i')
        forget_gate = F.Activation(gates[1], act_type='sigmoid', name=prefix + 'f')
        in_transform = self._get_activation(F, gates[2], self._activation, name=prefix + 'c')
        out_gate = F.Activation(gates[3], act_type='sigmoid', name=prefix + 'o')
        next_c = F.elemwise_add(forget_gate * states[1], in_gate * in_transform,
                                name=prefix + 'state')
        next_h = F.elemwise_mul(out_gate, self._get_activation(F, next_c, self._activation),
                                name=prefix + 'out')
        return next_h, [next_h, next_c]


class _ConvGRUCell(_BaseConvRNNCell):
    _gate_names = ('_r', '_z', '_o')

    def state_info(self, batch_size=0):
        return self._states(1, batch_size)

    def _alias(self):
        return 'conv_gru'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states, i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, name=prefix + 'i2h_slice',
                                           axis=self._channel_axis)
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, name=prefix + 'h2h_slice',
                                           axis=self._channel_axis)
        reset_gate = F.Activation(i2h_r + h2h_r, act_type='sigmoid', name=prefix + 'r_act')
        update_gate = F.Activation(i2h_z + h2h_z, act_type='sigmoid', name=prefix + 'z_act')
        candidate = self._get_activation(F, i2h + reset_gate * h2h, self._activation,
                                         name=prefix + 'h_act')
        next_h = F.elemwise_add((1. - update_gate) * candidate, update_gate * states[0],
                                name=prefix + 'out')
        return next_h, [next_h]


_DOC = """{dims}D convolutional {kind} cell{paper}.

{math}
Parameters
----------
input_shape : tuple of int
    Shape of one time step of one sample (no batch or time axis), in ``conv_layout``
    order, e.g. {example} for '{layout}'.
hidden_channels : int
    Channels of the hidden state (and output).
i2h_kernel : int or tuple of int
    Kernel of the input convolution.
h2h_kernel : int or tuple of int
    Kernel of the recurrent convolution; odd sizes only.
i2h_pad : int or tuple of int, default {zeros}
    Padding of the input convolution.
i2h_dilate : int or tuple of int, default {ones}
    Dilation of the input convolution.
h2h_dilate : int or tuple of int, default {ones}
    Dilation of the recurrent convolution.
i2h_weight_initializer, h2h_weight_initializer : str or Initializer, default None
    Initializers of the convolution weights.
i2h_bias_initializer, h2h_bias_initializer : str or Initializer, default 'zeros'
    Initializers of the convolution biases.
conv_layout : str, default '{layout}'
    Layout of inputs, states and weights: '{layout}' or '{other}'.
activation : str or gluon.Block, default 'tanh'
    Activation{act_where}: a name for ``Activation`` or a block such as ``nn.LeakyReLU``.
prefix : str, default '{alias}_'
    Name prefix of the cell and its parameters.
params : ParameterDict, default None
    Parameters to share.
"""

_MATH = {
    'RNN': "Computes :math:`h_t = act(W \\ast x_t + R \\ast h_{t-1} + b)`.\n",
    'LSTM': ("Gates :math:`i, f, o = \\sigma(W_* \\ast x_t + R_* \\ast h_{t-1} + b_*)`, candidate "
             ":math:`g = act(W_c \\ast x_t + R_c \\ast h_{t-1} + b_c)`,\n"
             ":math:`c_t = f c_{t-1} + i g` and :math:`h_t = o \\, act(c_t)`.\n"),
    'GRU': ("Gates :math:`r, z = \\sigma(W_* \\ast x_t + R_* \\ast h_{t-1} + b_*)`, candidate "
            ":math:`n = act(W_n \\ast x_t + b_n + r (R_n \\ast h_{t-1} + b_n'))`,\n"
            ":math:`h_t = (1 - z) n + z h_{t-1}`.\n"),
}

_LAYOUTS = {1: ('NCW', 'NWC', '(C, W)'), 2: ('NCHW', 'NHWC', '(C, H, W)'),
            3: ('NCDHW', 'NDHWC', '(C, D, H, W)')}


def _doc(dims, kind):
    layout, other, example = _LAYOUTS[dims]
    return _DOC.format(
        dims=dims, kind={'RNN': 'RNN', 'LSTM': 'LSTM', 'GRU': 'GRU'}[kind],
        paper=(' ("Convolutional LSTM Network", Shi et al., NIPS 2015)'
               if kind == 'LSTM' else ''),
        math=_MATH[kind], example=example, layout=layout, other=other,
        zeros=(0,) * dims, ones=(1,) * dims,
        act_where=' of the candidate' if kind != 'RNN' else '',
        alias={'RNN': 'conv_rnn', 'LSTM': 'conv_lstm', 'GRU': 'conv_gru'}[kind])


def _cell_class(base, dims, kind):
    """The public ``Conv{dims}D{kind}Cell``: ``base`` with 1.9.1's signature and defaults for
    ``dims`` spatial dimensions."""
    layout = _LAYOUTS[dims][0]

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel,
                 i2h_pad=(0,) * dims, i2h_dilate=(1,) * dims, h2h_dilate=(1,) * dims,
                 i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros',
                 conv_layout=layout, activation='tanh', prefix=None, params=None):
        _BaseConvRNNCell.__init__(
            self, input_shape=input_shape, hidden_channels=hidden_channels,
            i2h_kernel=i2h_kernel, h2h_kernel=h2h_kernel, i2h_pad=i2h_pad,
            i2h_dilate=i2h_dilate, h2h_dilate=h2h_dilate,
            i2h_weight_initializer=i2h_weight_initializer,
            h2h_weight_initializer=h2h_weight_initializer,
            i2h_bias_initializer=i2h_bias_initializer,
            h2h_bias_initializer=h2h_bias_initializer, dims=dims, conv_layout=conv_layout,
            activation=activation, prefix=prefix, params=params)

    name = f"Conv{dims}D{kind}Cell"
    __init__.__qualname__ = f"{name}.__init__"
    return type(name, (base,), {"__init__": __init__, "__doc__": _doc(dims, kind),
                                "__module__": __name__, "__qualname__": name})


Conv1DRNNCell = _cell_class(_ConvRNNCell, 1, 'RNN')
Conv2DRNNCell = _cell_class(_ConvRNNCell, 2, 'RNN')
Conv3DRNNCell = _cell_class(_ConvRNNCell, 3, 'RNN')
Conv1DLSTMCell = _cell_class(_ConvLSTMCell, 1, 'LSTM')
Conv2DLSTMCell = _cell_class(_ConvLSTMCell, 2, 'LSTM')
Conv3DLSTMCell = _cell_class(_ConvLSTMCell, 3, 'LSTM')
Conv1DGRUCell = _cell_class(_ConvGRUCell, 1, 'GRU')
Conv2DGRUCell = _cell_class(_ConvGRUCell, 2, 'GRU')
Conv3DGRUCell = _cell_class(_ConvGRUCell, 3, 'GRU')
