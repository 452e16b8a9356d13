"""The parts of ``mx.sym.contrib`` that 1.9.1 writes in Python: ``rand_zipfian``, the
AdamW front ends that accept ``rescale_grad`` as a number, and the symbolic control flow.

``foreach``, ``while_loop`` and ``cond`` build their body once as a subgraph and add one
``_foreach`` / ``_while_loop`` / ``_cond`` node (see :mod:`mxnet.symbol.control_flow`); such
graphs infer shapes, run forward and backward in executors, Modules and hybridized Gluon
blocks, and save to -symbol.json as 1.9.1 does. The imperative versions, which run the
Python functions eagerly, live in ``mx.nd.contrib``.
"""
from __future__ import annotations

import math

from .control_flow import cond, foreach, while_loop

__all__ = ["rand_zipfian", "adamw_update", "mp_adamw_update", "foreach", "while_loop", "cond"]


def _sym():
    from .. import symbol
    return symbol


def rand_zipfian(true_classes, num_sampled, range_max):
    """Symbolic :func:`mxnet.ndarray.contrib.rand_zipfian`: (samples, expected count of
    each true class, expected count of each sample)."""
    sym = _sym()
    log_range = math.log(range_max + 1)
    u = sym.op._random_uniform(low=0, high=log_range, shape=(num_sampled,), dtype="float64")
    samples = (u.exp() - 1).astype("int64") % range_max

    def expected(classes):
        k = classes.astype("float64")
        return ((k + 2.0) / (k + 1.0)).log() / log_range * num_sampled

    return samples, expected(true_classes), expected(samples)


def _scale(rescale_grad):
    sym = _sym()
    if isinstance(rescale_grad, sym.Symbol):
        return rescale_grad
    return sym.full(shape=(1,), val=rescale_grad)


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """Symbolic AdamW step (``rescale_grad`` may be a Symbol or a number)."""
    return _sym().op._adamw_update(weight=weight, grad=grad, mean=mean, var=var,
                                   rescale_grad=_scale(rescale_grad), lr=lr, eta=eta,
                                   beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                                   clip_gradient=clip_gradient, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None,
                    **kwargs):
    """Symbolic mixed-precision AdamW step on the float32 master copy ``weight32``."""
    return _sym().op._mp_adamw_update(weight=weight, grad=grad, mean=mean, var=var,
                                      weight32=weight32, rescale_grad=_scale(rescale_grad),
                                      lr=lr, eta=eta, beta1=beta1, beta2=beta2,
                                      epsilon=epsilon, wd=wd, clip_gradient=clip_gradient,
                                      name=name, **kwargs)
