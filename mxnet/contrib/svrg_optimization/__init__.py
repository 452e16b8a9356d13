"""Stochastic Variance Reduced Gradient training (``mx.contrib.svrg_optimization``).

:class:`SVRGModule` is a Module that, every ``update_freq`` epochs, snapshots its weights
and computes the full-data gradient at the snapshot; each mini-batch step then follows
``g(w) - g(w_snapshot) + full_gradient(w_snapshot)`` (Johnson & Zhang, 2013).
"""
from . import svrg_module, svrg_optimizer
from .svrg_module import SVRGModule

__all__ = ["SVRGModule", "svrg_module", "svrg_optimizer"]
