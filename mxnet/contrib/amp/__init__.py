"""Automatic mixed precision (``mx.contrib.amp``), as in MXNet 1.9.1.

- ``init`` / ``init_trainer`` / ``scale_loss`` / ``unscale``: mixed-precision training of
  Gluon models with dynamic loss scaling (:class:`~.loss_scaler.LossScaler`);
- ``convert_symbol`` / ``convert_model`` / ``convert_hybrid_block`` /
  ``convert_bucketing_module``: rewrite a float32 model for low-precision inference by
  inserting ``amp_cast`` / ``amp_multicast`` nodes;
- ``list_*``: 1.9.1's operator lists.
"""
from . import lists
from .amp import *  # noqa: F403
from .amp import __all__ as _amp_all
from .loss_scaler import LossScaler

__all__ = list(_amp_all) + ["LossScaler", "lists"]
