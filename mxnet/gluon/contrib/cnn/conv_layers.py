"""Deformable convolution layers (v1, Dai et al. 2017; v2 "modulated", Zhu et al. 2018).

Each layer holds an ordinary convolution that predicts, from the input, the sampling offsets
(and for v2 the modulation masks) of a deformable convolution over the same input. The
offset convolution starts at zero (``offset_weight_initializer='zeros'``), so an untrained
layer behaves like a plain convolution.
"""
from ....base import numeric_types
from ...block import HybridBlock
from ...nn import Activation

__all__ = ['DeformableConvolution', 'ModulatedDeformableConvolution']

_PARAMS_DOC = """
Parameters
----------
channels : int
    Output channels.
kernel_size : int or tuple of 2 int, default (1, 1)
    Window size.
strides : int or tuple of 2 int, default (1, 1)
padding : int or tuple of 2 int, default (0, 0)
    Zero padding on both sides.
dilation : int or tuple of 2 int, default (1, 1)
groups : int, default 1
    Channel groups of both convolutions.
num_deformable_group : int, default 1
    Channel groups that get their own offsets.
layout : {'NCHW', 'NHWC'}, default 'NCHW'
    Data layout. (1.9.1's CPU operators only run 'NCHW'.)
use_bias : bool, default True
    Whether the deformable convolution has a bias.
in_channels : int, default 0
    Input channels (0: inferred at the first call).
activation : str, default None
    Name of an activation applied to the output (None: linear).
weight_initializer, bias_initializer : default None, 'zeros'
    Initializers of ``deformable_conv_weight`` / ``deformable_conv_bias``.
offset_weight_initializer, offset_bias_initializer : default 'zeros', 'zeros'
    Initializers of ``offset_weight`` / ``offset_bias``.
offset_use_bias : bool, default True
    Whether the offset convolution has a bias.
op_name : str
    Kept for signature compatibility (unused, as in 1.9.1).
adj : tuple, default None
    Passed on to both operators when given (as in 1.9.1).
prefix, params : see ``Block``.

Input: (batch, in_channels, height, width) for 'NCHW'. Output: (batch, channels, out_h, out_w)
with ``out = floor((in + 2*pad - dilation*(kernel-1) - 1) / stride) + 1``.
"""


def _pair(value, n=2):
    return (value,) * n if isinstance(value, numeric_types) else value


class _DeformableBase(HybridBlock):
    """Argument handling and parameter creation shared by both deformable layers."""

    _offset_per_tap = 2          # offset channels per kernel tap and deformable group
    _weight_first = False        # 1.9.1 registers the parameters in different orders

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups,
                 num_deformable_group, layout, use_bias, in_channels, activation,
                 weight_initializer, bias_initializer, offset_weight_initializer,
                 offset_bias_initializer, offset_use_bias, op_name, adj, prefix, params):
        super().__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            if layout not in ('NCHW', 'NHWC'):
                raise AssertionError("Only supports 'NCHW' and 'NHWC' layout for now")
            kernel_size = _pair(kernel_size)
            n = len(kernel_size)
            strides, padding, dilation = (_pair(v, n) for v in (strides, padding, dilation))
            self._op_name = op_name
            taps = kernel_size[0] * kernel_size[1] * num_deformable_group
            self._kwargs_offset = {
                'kernel': kernel_size, 'stride': strides, 'dilate': dilation, 'pad': padding,
                'num_filter': self._offset_per_tap * taps, 'num_group': groups,
                'no_bias': not offset_use_bias, 'layout': layout}
            self._kwargs_deformable_conv = {
                'kernel': kernel_size, 'stride': strides, 'dilate': dilation, 'pad': padding,
                'num_filter': channels, 'num_group': groups,
                'num_deformable_group': num_deformable_group,
                'no_bias': not use_bias, 'layout': layout}
            if adj:
                self._kwargs_offset['adj'] = adj
                self._kwargs_deformable_conv['adj'] = adj

            # the offset convolution's weight shape follows Convolution's rule for the layout
            per_group = in_channels // groups if in_channels else 0
            offset_out = self._kwargs_offset['num_filter']
            if layout.find('C') == 1:
                offset_shape = (offset_out, per_group) + tuple(kernel_size)
            else:
                offset_shape = (offset_out,) + tuple(kernel_size) + (per_group,)
            # 1.9.1 always leaves the input-channel axis of this weight to inference
            weight_shape = [channels, 0] + list(kernel_size)

            def make_weight():
                self.deformable_conv_weight = self.params.get(
                    'deformable_conv_weight', shape=weight_shape, init=weight_initializer,
                    allow_deferred_init=True)
                self.deformable_conv_bias = self.params.get(
                    'deformable_conv_bias', shape=(channels,), init=bias_initializer,
                    allow_deferred_init=True) if use_bias else None

            def make_offset():
                self.offset_weight = self.params.get(
                    'offset_weight', shape=offset_shape, init=offset_weight_initializer,
                    allow_deferred_init=True)
                self.offset_bias = self.params.get(
                    'offset_bias', shape=(offset_out,), init=offset_bias_initializer,
                    allow_deferred_init=True) if offset_use_bias else None

            order = (make_weight, make_offset) if self._weight_first else \
                (make_offset, make_weight)
            for make in order:
                make()
            self.act = Activation(activation, prefix=activation + '_') if activation else None

    def _offsets(self, F, x, offset_weight, offset_bias):
        if offset_bias is None:
            return F.Convolution(x, offset_weight, cudnn_off=True, **self._kwargs_offset)
        return F.Convolution(x, offset_weight, offset_bias, cudnn_off=True,
                             **self._kwargs_offset)

    def _finish(self, out):
        return self.act(out) if self.act else out


class DeformableConvolution(_DeformableBase):
    __doc__ = ("2-D deformable convolution v1 (Dai et al., 2017, "
               "https://arxiv.org/abs/1703.06211).\n\nParameters: ``offset_weight``, "
               "``offset_bias``, ``deformable_conv_weight``, ``deformable_conv_bias``.\n"
               + _PARAMS_DOC)

    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0),
                 dilation=(1, 1), groups=1, num_deformable_group=1, layout='NCHW',
                 use_bias=True, in_channels=0, activation=None, weight_initializer=None,
                 bias_initializer='zeros', offset_weight_initializer='zeros',
                 offset_bias_initializer='zeros', offset_use_bias=True,
                 op_name='DeformableConvolution', adj=None, prefix=None, params=None):
        super().__init__(channels, kernel_size, strides, padding, dilation, groups,
                         num_deformable_group, layout, use_bias, in_channels, activation,
                         weight_initializer, bias_initializer, offset_weight_initializer,
                         offset_bias_initializer, offset_use_bias, op_name, adj, prefix, params)

    def hybrid_forward(self, F, x, offset_weight, deformable_conv_weight, offset_bias=None,
                       deformable_conv_bias=None):
        offset = self._offsets(F, x, offset_weight, offset_bias)
        extra = {} if deformable_conv_bias is None else {'bias': deformable_conv_bias}
        out = F.contrib.DeformableConvolution(data=x, offset=offset,
                                              weight=deformable_conv_weight, name='fwd',
                                              **extra, **self._kwargs_deformable_conv)
        return self._finish(out)

    def _alias(self):
        return 'deformable_conv'

    def __repr__(self):
        kw = self._kwargs_deformable_conv
        n = len(kw['kernel'])
        s = '{name}({mapping}, kernel_size={kernel}, stride={stride}'
        if kw['pad'] != (0,) * n:
            s += ', padding={pad}'
        if kw['dilate'] != (1,) * n:
            s += ', dilation={dilate}'
        if kw['num_group'] != 1:
            s += ', groups={num_group}'
        if self.deformable_conv_bias is None:
            s += ', bias=False'
        if self.act:
            s += f', {self.act}'
        s += ')'
        shape = self.deformable_conv_weight.shape
        return s.format(name=self.__class__.__name__,
                        mapping=f'{shape[1] if shape[1] else None} -> {shape[0]}',
                        **kw)


class ModulatedDeformableConvolution(_DeformableBase):
    __doc__ = ("2-D modulated deformable convolution v2 (Zhu et al., 2018, "
               "https://arxiv.org/abs/1811.11168).\n\nThe offset convolution predicts "
               "3 values per kernel tap and deformable group: two offsets and a mask "
               "logit, turned into a modulation factor ``2 * sigmoid(logit)`` (1 at "
               "initialisation).\nParameters: ``deformable_conv_weight``, "
               "``deformable_conv_bias``, ``offset_weight``, ``offset_bias``.\n"
               + _PARAMS_DOC)

    _offset_per_tap = 3
    _weight_first = True

    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0),
                 dilation=(1, 1), groups=1, num_deformable_group=1, layout='NCHW',
                 use_bias=True, in_channels=0, activation=None, weight_initializer=None,
                 bias_initializer='zeros', offset_weight_initializer='zeros',
                 offset_bias_initializer='zeros', offset_use_bias=True,
                 op_name='ModulatedDeformableConvolution', adj=None, prefix=None, params=None):
        kernel = _pair(kernel_size)
        self.offset_split_index = num_deformable_group * 2 * kernel[0] * kernel[1]
        super().__init__(channels, kernel_size, strides, padding, dilation, groups,
                         num_deformable_group, layout, use_bias, in_channels, activation,
                         weight_initializer, bias_initializer, offset_weight_initializer,
                         offset_bias_initializer, offset_use_bias, op_name, adj, prefix, params)

    def hybrid_forward(self, F, x, offset_weight, deformable_conv_weight, offset_bias=None,
                       deformable_conv_bias=None):
        raw = self._offsets(F, x, offset_weight, offset_bias)
        offset = F.slice_axis(raw, axis=1, begin=0, end=self.offset_split_index)
        mask = F.sigmoid(F.slice_axis(raw, axis=1, begin=self.offset_split_index, end=None)) * 2
        extra = {} if deformable_conv_bias is None else {'bias': deformable_conv_bias}
        out = F.contrib.ModulatedDeformableConvolution(
            data=x, offset=offset, mask=mask, weight=deformable_conv_weight, name='fwd',
            **extra, **self._kwargs_deformable_conv)
        return self._finish(out)

    def _alias(self):
        return 'modulated_deformable_conv'
