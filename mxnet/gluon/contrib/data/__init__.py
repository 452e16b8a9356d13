"""Contrib datasets and samplers: ``IntervalSampler`` and the ``text`` datasets."""
# ruff: noqa: F401, F403
from . import text
from .sampler import *
