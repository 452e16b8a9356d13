"""Contrib convolution layers: DeformableConvolution and ModulatedDeformableConvolution."""
# ruff: noqa: F401, F403
from . import conv_layers
from .conv_layers import *

__all__ = conv_layers.__all__
