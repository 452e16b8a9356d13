"""Optimizers with per-element adaptive step sizes: Adam, Adamax, Nadam, AdaGrad, AdaDelta,
RMSProp (plain and centred), FTML and Ftrl.

Adam, RMSProp, FTML and Ftrl run the fused operators; the others are written with NDArray
arithmetic in 1.9.1's order of operations, so the float32 results match it.
"""
from __future__ import annotations

import math

from .. import ndarray as nd
from ..ndarray import NDArray
from .optimizer import Optimizer, register

__all__ = ["Adam", "AdaGrad", "RMSProp", "AdaDelta", "Ftrl", "FTML", "Adamax", "Nadam"]


def _check(weight, grad):
    if not isinstance(weight, NDArray) or not isinstance(grad, NDArray):
        raise AssertionError("weight and grad must be NDArrays")


def _begin_step(opt, index, weight, grad):
    """Count the update of ``index`` and return its (lr, wd, update count)."""
    _check(weight, grad)
    opt._update_count(index)
    return opt._get_lr(index), opt._get_wd(index), opt._index_update_count[index]


def _zeros_like(weight, dtype=None):
    return nd.zeros(weight.shape, weight.context,
                    dtype=weight.dtype if dtype is None else dtype)


@register
class Adam(Optimizer):
    """Adam (Kingma & Ba, 2014). The bias corrections are folded into the step size::

        g = clip(rescale_grad*grad + wd*weight)
        mean = beta1*mean + (1-beta1)*g;  var = beta2*var + (1-beta2)*g*g
        weight -= lr * sqrt(1-beta2^t)/(1-beta1^t) * mean / (sqrt(var) + epsilon)

    Parameters
    ----------
    beta1, beta2 : float
        Decay rates of the first and second moment estimates.
    epsilon : float
        Added to the denominator.
    lazy_update : bool
        With a row_sparse gradient, update only its rows and their mean / variance;
        False makes the standard dense update. Dense gradients ignore it.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 lazy_update=True, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        if self.lazy_update and weight.stype == "row_sparse":   # as 1.9.1: lazy states
            return tuple(nd.sparse.zeros("row_sparse", weight.shape, weight.context,
                                         dtype=weight.dtype) for _ in range(2))
        return (_zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        lr, wd, t = _begin_step(self, index, weight, grad)
        coef1 = 1.0 - self.beta1 ** t
        coef2 = 1.0 - self.beta2 ** t
        lr *= math.sqrt(coef2) / coef1
        kwargs = self._fused_kwargs(beta1=self.beta1, beta2=self.beta2, epsilon=self.epsilon)
        mean, var = state
        nd.adam_update(weight, grad, mean, var, out=weight, lazy_update=self.lazy_update,
                       lr=lr, wd=wd, **kwargs)


@register
class AdaGrad(Optimizer):
    """AdaGrad (Duchi et al., 2011)::

        g = clip(rescale_grad*grad);  history += g*g
        weight -= lr * (g / sqrt(history + eps) + wd*weight)

    A row_sparse gradient updates only its rows and their history (1.9.1's sparse
    AdaGrad, which needs ``wd=0``).

    Parameters
    ----------
    eps : float
        Added inside the square root.
    """

    def __init__(self, eps=1e-7, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        if weight.stype == "row_sparse":   # as 1.9.1: a history of the weight's storage type
            return nd.sparse.zeros("row_sparse", weight.shape, weight.context)
        return nd.zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        lr, wd, _ = _begin_step(self, index, weight, grad)
        history = state
        if grad.stype == "row_sparse":  # lazy: only the gradient's rows and their history
            kwargs = {"epsilon": self.float_stable_eps, "rescale_grad": self.rescale_grad}
            if self.clip_gradient:
                kwargs["clip_gradient"] = self.clip_gradient
            nd.sparse.adagrad_update(weight, grad, history, out=weight, lr=lr, wd=wd,
                                     **kwargs)
            return
        grad = grad * self.rescale_grad
        grad = self._clip(grad)
        history[:] += nd.square(grad)
        div = grad / nd.sqrt(history + self.float_stable_eps)
        weight[:] += (div + weight * wd) * -lr


@register
class RMSProp(Optimizer):
    """RMSProp: Tieleman & Hinton's (``rmsprop_update``) or, with ``centered=True``,
    Graves' centred version (``rmspropalex_update``).

    Parameters
    ----------
    gamma1 : float
        Decay of the running average of squared gradients.
    gamma2 : float
        The momentum of the centred version.
    epsilon : float
        Added to the denominator.
    centered : bool
        Use Graves' centred version.
    clip_weights : float, optional
        Clip the weights to ``[-clip_weights, clip_weights]`` after each update.
    """

    def __init__(self, learning_rate=0.001, gamma1=0.9, gamma2=0.9, epsilon=1e-8,
                 centered=False, clip_weights=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.centered = centered
        self.epsilon = epsilon
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        n = 3 if self.centered else 1   # as 1.9.1: float32 states of the weight's stype
        return tuple(nd.zeros(weight.shape, weight.context, stype=weight.stype)
                     for _ in range(n))

    def update(self, index, weight, grad, state):
        lr, wd, _ = _begin_step(self, index, weight, grad)
        kwargs = self._fused_kwargs(gamma1=self.gamma1, epsilon=self.epsilon)
        if self.centered:
            kwargs["gamma2"] = self.gamma2
        if self.clip_weights:
            kwargs["clip_weights"] = self.clip_weights
        if not self.centered:
            (n,) = state
            nd.rmsprop_update(weight, grad, n, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            n, g, delta = state
            nd.rmspropalex_update(weight, grad, n, g, delta, out=weight, lr=lr, wd=wd, **kwargs)


@register
class AdaDelta(Optimizer):
    """AdaDelta (Zeiler, 2012); the learning rate is not used::

        g = clip(rescale_grad*grad)
        acc_g = rho*acc_g + (1-rho)*g*g
        delta = sqrt(acc_delta + epsilon) / sqrt(acc_g + epsilon) * g
        acc_delta = rho*acc_delta + (1-rho)*delta*delta
        weight -= delta + wd*weight

    Note: like 1.9.1 this scales the caller's ``grad`` array by ``rescale_grad`` in place.

    Parameters
    ----------
    rho : float
        Decay of both running averages.
    epsilon : float
        Added inside the square roots.
    """

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (nd.zeros(weight.shape, weight.context), nd.zeros(weight.shape, weight.context))

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        wd = self._get_wd(index)
        self._update_count(index)
        grad *= self.rescale_grad
        grad = self._clip(grad)
        acc_g, acc_delta = state
        acc_g[:] *= self.rho
        acc_g[:] += (1.0 - self.rho) * grad * grad
        current_delta = nd.sqrt(acc_delta + self.epsilon) / nd.sqrt(acc_g + self.epsilon) * grad
        acc_delta[:] *= self.rho
        acc_delta[:] += (1.0 - self.rho) * current_delta * current_delta
        weight[:] -= current_delta + wd * weight


@register
class Ftrl(Optimizer):
    """FTRL-proximal (McMahan et al., 2013) through ``ftrl_update``.

    Parameters
    ----------
    lamda1 : float
        L1 regularisation strength.
    learning_rate : float
        The learning rate (default 0.1).
    beta : float
        Per-coordinate learning rate offset.
    """

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super().__init__(**kwargs)
        self.lamda1 = lamda1
        self.beta = beta
        self.lr = learning_rate

    def create_state(self, index, weight):
        if weight.stype == "row_sparse":   # as 1.9.1: states of the weight's storage type
            return tuple(nd.sparse.zeros("row_sparse", weight.shape, weight.context)
                         for _ in range(2))
        return (nd.zeros(weight.shape, weight.context), nd.zeros(weight.shape, weight.context))

    def update(self, index, weight, grad, state):
        lr, wd, _ = _begin_step(self, index, weight, grad)
        kwargs = self._fused_kwargs(lamda1=self.lamda1, beta=self.beta)
        z, n = state
        nd.ftrl_update(weight, grad, z, n, out=weight, lr=lr, wd=wd, **kwargs)


@register
class FTML(Optimizer):
    """Follow the Moving Leader (Zheng & Kwok, 2017) through ``ftml_update``.

    Parameters
    ----------
    beta1, beta2 : float
        Decay rates.
    epsilon : float
        Added to the denominator.
    """

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight), _zeros_like(weight))  # d, v, z

    def update(self, index, weight, grad, state):
        lr, wd, t = _begin_step(self, index, weight, grad)
        kwargs = {"beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon,
                  "rescale_grad": self.rescale_grad, "t": t}
        if self.clip_gradient:
            kwargs["clip_grad"] = self.clip_gradient
        d, v, z = state
        nd.ftml_update(weight, grad, d, v, z, out=weight, lr=lr, wd=wd, **kwargs)


@register
class Adamax(Optimizer):
    """AdaMax, Adam with the infinity norm (Kingma & Ba, 2014, section 7)::

        g = clip(rescale_grad*grad + wd*weight)
        m = beta1*m + (1-beta1)*g;  u = maximum(beta2*u, |g|)
        weight -= lr / (1 - beta1^t) * m / u

    Parameters
    ----------
    beta1, beta2 : float
        Decay rates.
    """

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        lr, wd, t = _begin_step(self, index, weight, grad)
        lr /= 1.0 - self.beta1 ** t
        grad = grad * self.rescale_grad + wd * weight
        grad = self._clip(grad)
        m_t, u_t = state
        m_t[:] *= self.beta1
        m_t[:] += (1.0 - self.beta1) * grad
        u_t[:] = nd.maximum(self.beta2 * u_t, nd.abs(grad))
        weight[:] -= lr * m_t / u_t


@register
class Nadam(Optimizer):
    """Adam with Nesterov momentum (Dozat, 2016), with a warming momentum schedule.

    Parameters
    ----------
    beta1, beta2 : float
        Decay rates.
    epsilon : float
        Added to the denominator.
    schedule_decay : float
        Decay rate of the momentum schedule.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 schedule_decay=0.004, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.schedule_decay = schedule_decay
        self.m_schedule = 1.0

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        lr, wd, t = _begin_step(self, index, weight, grad)
        grad = grad * self.rescale_grad + wd * weight
        grad = self._clip(grad)
        momentum_t = self.beta1 * (1.0 - 0.5 * pow(0.96, t * self.schedule_decay))
        momentum_t_1 = self.beta1 * (1.0 - 0.5 * pow(0.96, (t + 1) * self.schedule_decay))
        # one schedule shared by every index, as in 1.9.1
        self.m_schedule = self.m_schedule * momentum_t
        m_schedule_next = self.m_schedule * momentum_t_1
        m_t, v_t = state
        m_t[:] *= self.beta1
        m_t[:] += (1.0 - self.beta1) * grad
        v_t[:] *= self.beta2
        v_t[:] += (1.0 - self.beta2) * grad * grad
        grad_prime = grad / (1.0 - self.m_schedule)
        m_t_prime = m_t / (1.0 - m_schedule_next)
        v_t_prime = v_t / (1.0 - pow(self.beta2, t))
        m_t_bar = (1.0 - momentum_t) * grad_prime + momentum_t_1 * m_t_prime
        weight[:] -= lr * m_t_bar / (nd.sqrt(v_t_prime) + self.epsilon)
