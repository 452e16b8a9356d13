"""Gluon Estimator: a training loop (``Estimator``) driven by event handlers."""
# ruff: noqa: F401, F403
from . import batch_processor, estimator, event_handler
from .batch_processor import *
from .estimator import *
from .event_handler import *
