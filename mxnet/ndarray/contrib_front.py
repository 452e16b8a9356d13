"""The parts of ``mx.nd.contrib`` that 1.9.1 writes in Python rather than as operators.

- ``rand_zipfian``: candidate sampling from the approximately log-uniform (Zipfian)
  distribution ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``;
- the optimizer front ends ``adamw_update``, ``mp_adamw_update``, ``multi_adamw_update``,
  ``multi_mp_adamw_update``, ``multi_lamb_update`` and ``multi_mp_lamb_update``, which accept
  ``rescale_grad`` as a number (made into a one-element array on the weight's device) and
  lists of arrays, and call the fused operators;
- the imperative control flow ``foreach``, ``while_loop`` and ``cond`` (in
  :mod:`.control_flow`), which run Python callables eagerly, so autograd records the
  operators they call like any others.
"""
from __future__ import annotations

import math

from ..context import current_context
from .control_flow import cond, foreach, while_loop
from .ndarray import NDArray

__all__ = ["rand_zipfian", "adamw_update", "mp_adamw_update", "multi_adamw_update",
           "multi_mp_adamw_update", "multi_lamb_update", "multi_mp_lamb_update", "foreach",
           "while_loop", "cond"]


def _nd():
    from .. import ndarray
    return ndarray


def rand_zipfian(true_classes, num_sampled, range_max, ctx=None):
    """Sample ``num_sampled`` classes (with replacement) from [0, range_max) with
    ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``.

    Returns ``(samples, expected_count_true, expected_count_sampled)``: the sampled classes
    (int64), and how often each true class and each sampled class is expected to appear in
    ``num_sampled`` draws (float64).

    >>> s, et, es = mx.nd.contrib.rand_zipfian(mx.nd.array([3]), 4, 5)
    >>> s.shape, s.dtype, et.dtype
    ((4,), dtype('int64'), dtype('float64'))
    """
    nd = _nd()
    ctx = current_context() if ctx is None else ctx
    log_range = math.log(range_max + 1)
    # exp(U(0, log(range_max + 1))) - 1 is log-uniform on [0, range_max); the modulo guards
    # the upper edge
    u = nd.random.uniform(0, log_range, shape=(num_sampled,), dtype="float64", ctx=ctx)
    samples = (u.exp() - 1).astype("int64") % range_max

    def expected(classes):
        k = classes.astype("float64")
        return ((k + 2.0) / (k + 1.0)).log() / log_range * num_sampled

    return samples, expected(true_classes.as_in_context(ctx)), expected(samples)


# ---------------------------------------------------------------------------------------------
# optimizer front ends


def _scale_array(rescale_grad, ctx):
    if isinstance(rescale_grad, NDArray):
        return rescale_grad.as_in_context(ctx)
    return _nd().full((1,), rescale_grad, ctx=ctx)


def _interleave(*lists):
    return [a for group in zip(*lists) for a in group]


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """AdamW step: ``weight -= eta * (lr * mean / (sqrt(var) + epsilon) + wd * weight)``.

    ``mean`` and ``var`` are updated in place; the new weight is returned (written to
    ``out`` when given). ``rescale_grad`` may be a number or an NDArray; when it is 0, inf
    or nan the step is skipped.
    """
    return _nd()._internal._adamw_update(
        weight, grad, mean, var, _scale_array(rescale_grad, weight.context), lr=lr, eta=eta,
        beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient,
        out=out, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None,
                    **kwargs):
    """:func:`adamw_update` on the float32 master copy ``weight32`` (updated in place)."""
    return _nd()._internal._mp_adamw_update(
        weight, grad, mean, var, weight32, _scale_array(rescale_grad, weight.context), lr=lr,
        eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient,
        out=out, name=name, **kwargs)


def multi_adamw_update(weights, grads, mean, var, rescale_grad, lrs, wds, etas, out=None,
                       name=None, size=0, **kwargs):
    """:func:`adamw_update` for lists of weights, with one lr, wd and eta per weight."""
    size = size or len(weights)
    arrays = _interleave(weights, grads, mean, var) + [
        _scale_array(rescale_grad, weights[0].context)]
    return _nd()._internal._multi_adamw_update(*arrays, out=out, num_weights=size, lrs=lrs,
                                               wds=wds, etas=etas, name=name, **kwargs)


def multi_mp_adamw_update(weights, grads, mean, var, weights32, rescale_grad, lrs, wds, etas,
                          out=None, name=None, size=0, **kwargs):
    """:func:`multi_adamw_update` with float32 master copies ``weights32``."""
    size = size or len(weights)
    arrays = _interleave(weights, grads, mean, var, weights32) + [
        _scale_array(rescale_grad, weights[0].context)]
    return _nd()._internal._multi_mp_adamw_update(*arrays, out=out, num_weights=size, lrs=lrs,
                                                  wds=wds, etas=etas, name=name, **kwargs)


def multi_lamb_update(weights, grads, mean, var, step_count, lrs, wds, out=None,
                      num_tensors=0, **kwargs):
    """Both LAMB phases for lists of tensors (``step_count``, ``lrs``, ``wds``: one value
    per tensor); mean and var are updated in place."""
    num_tensors = num_tensors or len(weights)
    return _nd()._internal._multi_lamb_update(
        *_interleave(weights, grads, mean, var), out=out, num_tensors=num_tensors,
        step_count=step_count, learning_rates=lrs, wds=wds, **kwargs)


def multi_mp_lamb_update(weights, grads, mean, var, weights32, step_count, lrs, wds, out=None,
                         num_tensors=0, **kwargs):
    """:func:`multi_lamb_update` with float32 master copies ``weights32``."""
    num_tensors = num_tensors or len(weights)
    return _nd()._internal._multi_mp_lamb_update(
        *_interleave(weights, grads, mean, var, weights32), out=out, num_tensors=num_tensors,
        step_count=step_count, learning_rates=lrs, wds=wds, **kwargs)
