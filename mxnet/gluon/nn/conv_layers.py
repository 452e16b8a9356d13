"""Convolution, transposed convolution, pooling and padding layers."""
from __future__ import annotations

from ... import symbol as _sym
from ..block import HybridBlock
from ._common import children_repr, tuple_of
from .activations import Activation

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
           "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
           "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D", "GlobalAvgPool1D",
           "GlobalAvgPool2D", "GlobalAvgPool3D", "ReflectionPad2D"]


def _weight_shape(op_name, layout, kernel, channels, in_channels, groups):
    """The weight shape the operator infers; 0 stands for the not yet known input channels.

    Convolution: ``(channels, in_channels / groups, *kernel)``; Deconvolution:
    ``(in_channels, channels / groups, *kernel)``. Channel-last layouts put the per-group
    channel count after the kernel dimensions.
    """
    if op_name == "Deconvolution":
        lead, per_group = in_channels, channels // groups
    else:
        lead, per_group = channels, in_channels // groups
    if layout.find("C") == 1:
        return (lead, per_group, *kernel)
    return (lead, *kernel, per_group)


def _check_arguments(op_name, layout, in_channels, kwargs):
    """Runs the operator's shape inference on a partly known input shape (batch 1, the given
    input channels, the rest unknown), as 1.9.1 does while building the layer, so that
    inconsistent arguments (stride/padding/dilation lengths, zero sizes, channels that
    ``groups`` does not divide) raise MXNetError at construction, not at the first forward."""
    from ...util import is_np_shape
    dshape = [-1 if is_np_shape() else 0] * (len(kwargs["kernel"]) + 2)  # unknown dims
    dshape[layout.find("N")] = 1
    dshape[layout.find("C")] = in_channels
    op = getattr(_sym, op_name)
    op(_sym.var("data", shape=tuple(dshape)), name="fwd", **kwargs).infer_shape_partial()


class _Conv(HybridBlock):
    """Shared by every convolution layer: the operator kwargs, weight/bias and activation."""

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups, layout,
                 in_channels=0, activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", op_name="Convolution", adj=None, prefix=None,
                 params=None):
        super().__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            n = len(kernel_size)
            strides = tuple_of(strides, n)
            padding = tuple_of(padding, n)
            dilation = tuple_of(dilation, n)
            self._op_name = op_name
            self._kwargs = {"kernel": kernel_size, "stride": strides, "dilate": dilation,
                            "pad": padding, "num_filter": channels, "num_group": groups,
                            "no_bias": not use_bias, "layout": layout}
            if adj is not None:
                self._kwargs["adj"] = adj
            _check_arguments(op_name, layout, in_channels, self._kwargs)
            wshape = _weight_shape(op_name, layout, tuple(kernel_size), channels, in_channels,
                                   groups)
            self.weight = self.params.get("weight", shape=wshape, init=weight_initializer,
                                          allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get("bias", shape=(channels,), init=bias_initializer,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            self.act = Activation(activation, prefix=activation + "_") if activation is not None \
                else None

    def hybrid_forward(self, F, x, weight, bias=None):
        op = getattr(F, self._op_name)
        if bias is None:
            out = op(x, weight, name="fwd", **self._kwargs)
        else:
            out = op(x, weight, bias, name="fwd", **self._kwargs)
        if self.act is not None:
            out = self.act(out)
        return out

    def _alias(self):
        return "conv"

    def __repr__(self):
        kw = self._kwargs
        n = len(kw["kernel"])
        parts = [f"kernel_size={kw['kernel']}", f"stride={kw['stride']}"]
        if kw["pad"] != (0,) * n:
            parts.append(f"padding={kw['pad']}")
        if kw["dilate"] != (1,) * n:
            parts.append(f"dilation={kw['dilate']}")
        # 1.9.1 looks for an ``out_pad`` attribute that the transposed layers never set (they
        # store ``outpad``), so output_padding is not printed; kept for identical reprs.
        if hasattr(self, "out_pad") and self.out_pad != (0,) * n:
            parts.append(f"output_padding={self.out_pad}")
        if kw["num_group"] != 1:
            parts.append(f"groups={kw['num_group']}")
        if self.bias is None:
            parts.append("bias=False")
        if self.act:
            parts.append(str(self.act))
        shape = self.weight.shape
        mapping = f"{shape[1] if shape[1] else None} -> {shape[0]}"
        return f"{self.__class__.__name__}({mapping}, {', '.join(parts)})"


def _check_layout(layout, allowed):
    if layout not in allowed:
        raise AssertionError(f"Only supports {' and '.join(repr(a) for a in allowed)} layout for now")


def _check_len(value, n, what):
    if len(value) != n:
        raise AssertionError(f"{what} must be a number or a list of {n} ints")


class _ConvND(_Conv):
    """Convolution over ``_ndim`` spatial axes; subclasses fix the dimension and layouts."""

    _ndim = 2
    _layouts = ("NCHW", "NHWC")
    _op = "Convolution"

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups, layout,
                 activation, use_bias, weight_initializer, bias_initializer, in_channels,
                 output_padding=None, **kwargs):
        _check_layout(layout, self._layouts)
        kernel_size = tuple_of(kernel_size, self._ndim)
        _check_len(kernel_size, self._ndim, "kernel_size")
        adj = None
        if self._op == "Deconvolution":
            output_padding = tuple_of(output_padding, self._ndim)
            _check_len(output_padding, self._ndim, "output_padding")
            adj = output_padding
        op_name = kwargs.pop("op_name", self._op)
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         in_channels, activation, use_bias, weight_initializer, bias_initializer,
                         op_name=op_name, adj=adj, **kwargs)
        if adj is not None:
            self.outpad = adj


class Conv1D(_ConvND):
    """1-D convolution over ``(N, C, W)`` input."""

    _ndim, _layouts = 1, ("NCW",)

    def __init__(self, channels, kernel_size, strides=1, padding=0, dilation=1, groups=1,
                 layout="NCW", activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", in_channels=0, **kwargs):
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         activation, use_bias, weight_initializer, bias_initializer, in_channels,
                         **kwargs)


class Conv2D(_ConvND):
    """2-D convolution over ``(N, C, H, W)`` (or ``NHWC``) input."""

    _ndim, _layouts = 2, ("NCHW", "NHWC")

    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0), dilation=(1, 1),
                 groups=1, layout="NCHW", activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", in_channels=0, **kwargs):
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         activation, use_bias, weight_initializer, bias_initializer, in_channels,
                         **kwargs)


class Conv3D(_ConvND):
    """3-D convolution over ``(N, C, D, H, W)`` (or ``NDHWC``) input."""

    _ndim, _layouts = 3, ("NCDHW", "NDHWC")

    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0),
                 dilation=(1, 1, 1), groups=1, layout="NCDHW", activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer="zeros", in_channels=0, **kwargs):
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         activation, use_bias, weight_initializer, bias_initializer, in_channels,
                         **kwargs)


class Conv1DTranspose(_ConvND):
    """1-D transposed convolution (the gradient of Conv1D with respect to its input)."""

    _ndim, _layouts, _op = 1, ("NCW",), "Deconvolution"

    def __init__(self, channels, kernel_size, strides=1, padding=0, output_padding=0,
                 dilation=1, groups=1, layout="NCW", activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer="zeros", in_channels=0, **kwargs):
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         activation, use_bias, weight_initializer, bias_initializer, in_channels,
                         output_padding=output_padding, **kwargs)


class Conv2DTranspose(_ConvND):
    """2-D transposed convolution; ``output_padding`` adds rows/columns at the far edge."""

    _ndim, _layouts, _op = 2, ("NCHW", "NHWC"), "Deconvolution"

    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0),
                 output_padding=(0, 0), dilation=(1, 1), groups=1, layout="NCHW",
                 activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", in_channels=0, **kwargs):
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         activation, use_bias, weight_initializer, bias_initializer, in_channels,
                         output_padding=output_padding, **kwargs)


class Conv3DTranspose(_ConvND):
    """3-D transposed convolution."""

    _ndim, _layouts, _op = 3, ("NCDHW", "NDHWC"), "Deconvolution"

    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0),
                 output_padding=(0, 0, 0), dilation=(1, 1, 1), groups=1, layout="NCDHW",
                 activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", in_channels=0, **kwargs):
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         activation, use_bias, weight_initializer, bias_initializer, in_channels,
                         output_padding=output_padding, **kwargs)


class _Pooling(HybridBlock):
    """Shared by the pooling layers: the Pooling operator's kwargs and repr."""

    def __init__(self, pool_size, strides, padding, ceil_mode, global_pool, pool_type, layout,
                 count_include_pad=None, **kwargs):
        super().__init__(**kwargs)
        if strides is None:
            strides = pool_size
        strides = tuple_of(strides, len(pool_size))
        padding = tuple_of(padding, len(pool_size))
        self._kwargs = {"kernel": pool_size, "stride": strides, "pad": padding,
                        "global_pool": global_pool, "pool_type": pool_type, "layout": layout,
                        "pooling_convention": "full" if ceil_mode else "valid"}
        if count_include_pad is not None:
            self._kwargs["count_include_pad"] = count_include_pad

    def _alias(self):
        return "pool"

    def hybrid_forward(self, F, x):
        return F.Pooling(x, name="fwd", **self._kwargs)

    def __repr__(self):
        kw = self._kwargs
        return (f"{self.__class__.__name__}(size={kw['kernel']}, stride={kw['stride']}, "
                f"padding={kw['pad']}, ceil_mode={kw['pooling_convention'] == 'full'}, "
                f"global_pool={kw['global_pool']}, pool_type={kw['pool_type']}, "
                f"layout={kw['layout']})")


_POOL_LAYOUTS = {1: ("NCW", "NWC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _check_pool_layout(layout, ndim):
    allowed = _POOL_LAYOUTS[ndim]
    if layout not in allowed:
        raise AssertionError(f"Only {allowed[0]} and {allowed[1]} layouts are valid for {ndim}D "
                             "Pooling")


def _pool_size(pool_size, ndim):
    pool_size = tuple_of(pool_size, ndim)
    _check_len(pool_size, ndim, "pool_size")
    return pool_size


class _LocalPool(_Pooling):
    _ndim = 2
    _type = "max"

    def __init__(self, pool_size, strides, padding, layout, ceil_mode, count_include_pad=None,
                 **kwargs):
        _check_pool_layout(layout, self._ndim)
        super().__init__(_pool_size(pool_size, self._ndim), strides, padding, ceil_mode, False,
                         self._type, layout, count_include_pad, **kwargs)


class MaxPool1D(_LocalPool):
    """Max pooling over ``(N, C, W)``; ``strides`` default to ``pool_size``."""

    _ndim, _type = 1, "max"

    def __init__(self, pool_size=2, strides=None, padding=0, layout="NCW", ceil_mode=False,
                 **kwargs):
        super().__init__(pool_size, strides, padding, layout, ceil_mode, **kwargs)


class MaxPool2D(_LocalPool):
    """Max pooling over ``(N, C, H, W)``; ``ceil_mode`` rounds the output size up."""

    _ndim, _type = 2, "max"

    def __init__(self, pool_size=(2, 2), strides=None, padding=0, layout="NCHW", ceil_mode=False,
                 **kwargs):
        super().__init__(pool_size, strides, padding, layout, ceil_mode, **kwargs)


class MaxPool3D(_LocalPool):
    """Max pooling over ``(N, C, D, H, W)``."""

    _ndim, _type = 3, "max"

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding=0, ceil_mode=False,
                 layout="NCDHW", **kwargs):
        super().__init__(pool_size, strides, padding, layout, ceil_mode, **kwargs)


class AvgPool1D(_LocalPool):
    """Average pooling over ``(N, C, W)``; ``count_include_pad`` counts padded zeros."""

    _ndim, _type = 1, "avg"

    def __init__(self, pool_size=2, strides=None, padding=0, layout="NCW", ceil_mode=False,
                 count_include_pad=True, **kwargs):
        super().__init__(pool_size, strides, padding, layout, ceil_mode, count_include_pad,
                         **kwargs)


class AvgPool2D(_LocalPool):
    """Average pooling over ``(N, C, H, W)``."""

    _ndim, _type = 2, "avg"

    def __init__(self, pool_size=(2, 2), strides=None, padding=0, ceil_mode=False, layout="NCHW",
                 count_include_pad=True, **kwargs):
        super().__init__(pool_size, strides, padding, layout, ceil_mode, count_include_pad,
                         **kwargs)


class AvgPool3D(_LocalPool):
    """Average pooling over ``(N, C, D, H, W)``."""

    _ndim, _type = 3, "avg"

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding=0, ceil_mode=False,
                 layout="NCDHW", count_include_pad=True, **kwargs):
        super().__init__(pool_size, strides, padding, layout, ceil_mode, count_include_pad,
                         **kwargs)


class _GlobalPool(_Pooling):
    """Pool each channel's whole spatial extent to size 1."""

    _ndim = 2
    _type = "max"

    def __init__(self, layout, **kwargs):
        _check_pool_layout(layout, self._ndim)
        super().__init__((1,) * self._ndim, None, 0, True, True, self._type, layout, **kwargs)


class GlobalMaxPool1D(_GlobalPool):
    """Global max pooling over ``(N, C, W)`` to ``(N, C, 1)``."""

    _ndim, _type = 1, "max"

    def __init__(self, layout="NCW", **kwargs):
        super().__init__(layout, **kwargs)


class GlobalMaxPool2D(_GlobalPool):
    """Global max pooling over ``(N, C, H, W)`` to ``(N, C, 1, 1)``."""

    _ndim, _type = 2, "max"

    def __init__(self, layout="NCHW", **kwargs):
        super().__init__(layout, **kwargs)


class GlobalMaxPool3D(_GlobalPool):
    """Global max pooling over ``(N, C, D, H, W)``."""

    _ndim, _type = 3, "max"

    def __init__(self, layout="NCDHW", **kwargs):
        super().__init__(layout, **kwargs)


class GlobalAvgPool1D(_GlobalPool):
    """Global average pooling over ``(N, C, W)``."""

    _ndim, _type = 1, "avg"

    def __init__(self, layout="NCW", **kwargs):
        super().__init__(layout, **kwargs)


class GlobalAvgPool2D(_GlobalPool):
    """Global average pooling over ``(N, C, H, W)``."""

    _ndim, _type = 2, "avg"

    def __init__(self, layout="NCHW", **kwargs):
        super().__init__(layout, **kwargs)


class GlobalAvgPool3D(_GlobalPool):
    """Global average pooling over ``(N, C, D, H, W)``."""

    _ndim, _type = 3, "avg"

    def __init__(self, layout="NCDHW", **kwargs):
        super().__init__(layout, **kwargs)


class ReflectionPad2D(HybridBlock):
    """Pad the two spatial axes of ``(N, C, H, W)`` by mirroring (``padding`` on every side,
    or an 8-tuple ``pad_width`` as ``mx.nd.pad`` takes it)."""

    def __init__(self, padding=0, **kwargs):
        super().__init__(**kwargs)
        if isinstance(padding, int):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        if len(padding) != 8:
            raise AssertionError("ReflectionPad2D: padding must be an int or 8 values")
        self._padding = padding

    def hybrid_forward(self, F, x):
        return F.pad(x, mode="reflect", pad_width=self._padding)

    def __repr__(self):
        return children_repr(self)
