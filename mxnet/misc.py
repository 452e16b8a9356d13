"""Legacy learning-rate schedulers kept from early MXNet (``mx.misc``); new code uses
:mod:`mxnet.lr_scheduler`. Import with ``import mxnet.misc``."""
from __future__ import annotations

import logging
import math

__all__ = ["LearningRateScheduler", "FactorScheduler"]


class LearningRateScheduler:
    """Base class: ``scheduler(iteration)`` returns the learning rate; ``base_lr`` starts
    at 0.01."""

    def __init__(self):
        self.base_lr = 0.01

    def __call__(self, iteration):
        """The learning rate for ``iteration`` (subclasses define it)."""
        raise NotImplementedError("must override this")


class FactorScheduler(LearningRateScheduler):
    """``base_lr * factor ** (iteration // step)``: the rate is multiplied by ``factor``
    every ``step`` iterations (``step >= 1``, ``factor < 1``). Each change is logged."""

    def __init__(self, step, factor=0.1):
        super().__init__()
        if step < 1:
            raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor >= 1.0:
            raise ValueError("Factor must be less than 1 to make lr reduce")
        self.step = step
        self.factor = factor
        self.old_lr = self.base_lr
        self.init = False

    def __call__(self, iteration):
        if not self.init:  # base_lr may have been changed after construction
            self.init = True
            self.old_lr = self.base_lr
        lr = self.base_lr * math.pow(self.factor, int(iteration / self.step))
        if lr != self.old_lr:
            self.old_lr = lr
            logging.info("At Iteration [%d]: Swith to new learning rate %.5f", iteration, lr)
        return lr
