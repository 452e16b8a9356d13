"""Learning rate schedules: the learning rate as a function of ``num_update``, the largest
number of updates applied to any weight so far.

Every scheduler can start with a warmup of ``warmup_steps`` updates, either rising linearly
from ``warmup_begin_lr`` to ``base_lr`` or holding ``warmup_begin_lr``. As in 1.9.1 the
schedulers keep state between calls (FactorScheduler and MultiFactorScheduler only ever
decay, and Poly/Cosine hold their last value past ``max_update``), with the same attribute
names, so pickled schedulers move between the two.
"""
from __future__ import annotations

import logging
from math import cos, pi

__all__ = ["LRScheduler", "FactorScheduler", "MultiFactorScheduler", "PolyScheduler",
           "CosineScheduler"]


class LRScheduler:
    """Base class: ``scheduler(num_update)`` returns the learning rate.

    Parameters
    ----------
    base_lr : float
        The learning rate after warmup.
    warmup_steps : int
        Number of warmup updates.
    warmup_begin_lr : float
        The learning rate at the start of warmup.
    warmup_mode : str
        'linear' (rise to base_lr) or 'constant' (hold warmup_begin_lr).
    """

    def __init__(self, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0, warmup_mode="linear"):
        self.base_lr = base_lr
        if not isinstance(warmup_steps, int):
            raise AssertionError("warmup_steps must be an int")
        self.warmup_steps = warmup_steps
        self.warmup_final_lr = base_lr
        self.warmup_begin_lr = warmup_begin_lr
        if self.warmup_begin_lr > self.warmup_final_lr:
            raise ValueError("Base lr has to be higher than warmup_begin_lr")
        if self.warmup_steps < 0:
            raise ValueError("Warmup steps has to be positive or 0")
        if warmup_mode not in ("linear", "constant"):
            raise ValueError("Supports only linear and constant modes of warmup")
        self.warmup_mode = warmup_mode

    def get_warmup_lr(self, num_update):
        """The learning rate during warmup (``num_update < warmup_steps``)."""
        if num_update >= self.warmup_steps:
            raise AssertionError("get_warmup_lr is only for num_update < warmup_steps")
        if self.warmup_mode == "linear":
            increase = ((self.warmup_final_lr - self.warmup_begin_lr)
                        * float(num_update) / float(self.warmup_steps))
            return self.warmup_begin_lr + increase
        if self.warmup_mode == "constant":
            return self.warmup_begin_lr
        raise ValueError(f"Invalid warmup mode {self.warmup_mode}")

    def __call__(self, num_update):
        """The learning rate after ``num_update`` updates."""
        raise NotImplementedError("must override this")


class FactorScheduler(LRScheduler):
    """Multiply the learning rate by ``factor`` every ``step`` updates:
    ``base_lr * factor ** floor((num_update - 1) / step)``, never below ``stop_factor_lr``.

    Parameters
    ----------
    step : int
        Updates between decays.
    factor : float
        The decay factor (at most 1).
    stop_factor_lr : float
        The learning rate stops decaying once it falls below this (and is set to it).
    """

    def __init__(self, step, factor=1, stop_factor_lr=1e-8, base_lr=0.01, warmup_steps=0,
                 warmup_begin_lr=0, warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if step < 1:
            raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step = step
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.count = 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        # a loop, not a single check, so resuming at a large num_update catches up
        while num_update > self.count + self.step:
            self.count += self.step
            self.base_lr *= self.factor
            if self.base_lr < self.stop_factor_lr:
                self.base_lr = self.stop_factor_lr
                logging.info("Update[%d]: now learning rate arrived at %0.5e, will not "
                             "change in the future", num_update, self.base_lr)
            else:
                logging.info("Update[%d]: Change learning rate to %0.5e", num_update,
                             self.base_lr)
        return self.base_lr


class MultiFactorScheduler(LRScheduler):
    """Multiply the learning rate by ``factor`` each time ``num_update`` passes one of the
    increasing ``step`` values.

    Parameters
    ----------
    step : list of int
        The update counts after which the rate decays.
    factor : float
        The decay factor (at most 1).
    """

    def __init__(self, step, factor=1, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(step, list) or len(step) < 1:
            raise AssertionError("step must be a non-empty list")
        for i, s in enumerate(step):
            if i != 0 and step[i] <= step[i - 1]:
                raise ValueError("Schedule step must be an increasing integer list")
            if s < 1:
                raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step = step
        self.cur_step_ind = 0
        self.factor = factor
        self.count = 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while self.cur_step_ind <= len(self.step) - 1:
            if num_update > self.step[self.cur_step_ind]:
                self.count = self.step[self.cur_step_ind]
                self.cur_step_ind += 1
                self.base_lr *= self.factor
                logging.info("Update[%d]: Change learning rate to %0.5e", num_update,
                             self.base_lr)
            else:
                return self.base_lr
        return self.base_lr


class PolyScheduler(LRScheduler):
    """Polynomial decay after warmup::

        final_lr + (base_lr - final_lr) * (1 - (num_update - warmup_steps) / max_steps) ** pwr

    with ``max_steps = max_update - warmup_steps``; the rate stays put after ``max_update``.

    Parameters
    ----------
    max_update : int
        The update count at which the rate reaches ``final_lr``.
    pwr : int
        The power of the decay.
    final_lr : float
        The final learning rate.
    """

    def __init__(self, max_update, base_lr=0.01, pwr=2, final_lr=0, warmup_steps=0,
                 warmup_begin_lr=0, warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(max_update, int):
            raise AssertionError("max_update must be an int")
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.power = pwr
        self.base_lr_orig = self.base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            frac = float(num_update - self.warmup_steps) / float(self.max_steps)
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * pow(
                1 - frac, self.power)
        return self.base_lr


class CosineScheduler(LRScheduler):
    """Cosine decay after warmup::

        final_lr + (base_lr - final_lr) * (1 + cos(pi * (num_update - warmup_steps) / max_steps)) / 2

    with ``max_steps = max_update - warmup_steps``; the rate stays put after ``max_update``.

    Parameters
    ----------
    max_update : int
        The update count at which the rate reaches ``final_lr``.
    final_lr : float
        The final learning rate.
    """

    def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode="linear"):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(max_update, int):
            raise AssertionError("max_update must be an int")
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            angle = pi * (num_update - self.warmup_steps) / self.max_steps
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * (
                1 + cos(angle)) / 2
        return self.base_lr
