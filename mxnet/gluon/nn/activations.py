"""Activation layers: Activation, LeakyReLU, PReLU, ELU, SELU, Swish, GELU."""
from __future__ import annotations

from ... import util as _util
from ..block import HybridBlock
from ._common import children_repr

__all__ = ["Activation", "LeakyReLU", "PReLU", "ELU", "SELU", "Swish", "GELU"]


class Activation(HybridBlock):
    """Apply an element-wise activation (``relu``, ``sigmoid``, ``tanh``, ``softrelu``, ``softsign``).

    The block's name hint is the activation type, so ``Activation('relu')`` is named ``relu0``.
    """

    def __init__(self, activation, **kwargs):
        self._act_type = activation
        super().__init__(**kwargs)

    def _alias(self):
        return self._act_type

    def hybrid_forward(self, F, x):
        return F.Activation(x, act_type=self._act_type, name="fwd")

    def __repr__(self):
        return f"{self.__class__.__name__}({self._act_type})"


class LeakyReLU(HybridBlock):
    """``x`` where positive, ``alpha * x`` elsewhere."""

    def __init__(self, alpha, **kwargs):
        if alpha < 0:
            raise AssertionError("Slope coefficient for LeakyReLU must be no less than 0.")
        super().__init__(**kwargs)
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type="leaky", slope=self._alpha, name="fwd")

    def __repr__(self):
        return f"{self.__class__.__name__}({self._alpha})"


class PReLU(HybridBlock):
    """Leaky ReLU whose slope ``alpha`` (one per channel, or one shared) is learned.

    ``alpha_initializer`` defaults to ``mx.init.Constant(0.25)``.
    """

    def __init__(self, alpha_initializer=None, in_channels=1, **kwargs):
        super().__init__(**kwargs)
        if alpha_initializer is None:
            from ... import initializer
            alpha_initializer = initializer.Constant(0.25)
        with self.name_scope():
            self.alpha = self.params.get("alpha", shape=(in_channels,), init=alpha_initializer)

    def hybrid_forward(self, F, x, alpha):
        return F.LeakyReLU(x, gamma=alpha, act_type="prelu", name="fwd")

    def __repr__(self):
        return children_repr(self)


class ELU(HybridBlock):
    """Exponential linear unit: ``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        leaky_relu = F.npx.leaky_relu if _util.is_np_array() else F.LeakyReLU  # node names
        return leaky_relu(x, act_type="elu", slope=self._alpha)

    def __repr__(self):
        return children_repr(self)


class SELU(HybridBlock):
    """Scaled exponential linear unit (fixed alpha and scale from Klambauer et al.)."""

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type="selu", name="fwd")

    def __repr__(self):
        return children_repr(self)


class GELU(HybridBlock):
    """Gaussian error linear unit, ``x * Phi(x)`` (exact, via erf)."""

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type="gelu", name="fwd")

    def __repr__(self):
        return children_repr(self)


class Swish(HybridBlock):
    """``x * sigmoid(beta * x)``."""

    def __init__(self, beta=1.0, **kwargs):
        super().__init__(**kwargs)
        self._beta = beta

    def hybrid_forward(self, F, x):
        if _util.is_np_array():   # 1.9.1: npx.sigmoid (``_npx_sigmoid`` in a graph)
            return x * F.npx.sigmoid(self._beta * x)
        return x * F.sigmoid(self._beta * x, name="fwd")

    def __repr__(self):
        return children_repr(self)
