"""Callbacks for ``Module.fit``: logging progress and saving checkpoints.

Batch-end callbacks receive a :data:`mxnet.model.BatchEndParam`
``(epoch, nbatch, eval_metric, locals)``; epoch-end callbacks receive
``(epoch, symbol, arg_params, aux_params)``. Log lines go through the root ``logging``
logger with 1.9.1's exact formats, so scripts that parse them keep working.
"""
from __future__ import annotations

import logging
import math
import time

from .model import save_checkpoint

__all__ = ["module_checkpoint", "do_checkpoint", "log_train_metric", "Speedometer",
           "ProgressBar", "LogValidationMetricsCallback"]


def _every(period):
    return int(max(1, period))


def module_checkpoint(mod, prefix, period=1, save_optimizer_states=False):
    """Epoch-end callback: ``mod.save_checkpoint(prefix, epoch + 1, ...)`` every ``period``
    epochs (optimizer states too, if asked)."""
    period = _every(period)

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            mod.save_checkpoint(prefix, iter_no + 1, save_optimizer_states)
    return _callback


def do_checkpoint(prefix, period=1):
    """Epoch-end callback: write ``prefix-symbol.json`` and ``prefix-%04d.params`` (epoch
    numbered from 1) every ``period`` epochs."""
    period = _every(period)

    def _callback(iter_no, sym, arg, aux):
        if (iter_no + 1) % period == 0:
            save_checkpoint(prefix, iter_no + 1, sym, arg, aux)
    return _callback


def log_train_metric(period, auto_reset=False):
    """Batch-end callback: log the training metric every ``period`` batches; with
    ``auto_reset`` the metric's local statistics restart after each line."""
    def _callback(param):
        if param.nbatch % period == 0 and param.eval_metric is not None:
            for name, value in param.eval_metric.get_name_value():
                logging.info("Iter[%d] Batch[%d] Train-%s=%f", param.epoch, param.nbatch,
                             name, value)
            if auto_reset:
                param.eval_metric.reset_local()
    return _callback


class Speedometer:
    """Batch-end callback logging throughput (and the metric) every ``frequent`` batches.

    The line is ``Epoch[E] Batch [A-B]\\tSpeed: S samples/sec\\tname=value...``. With
    ``auto_reset`` (the default) the metric's local statistics restart after each line,
    so each line covers the batches since the previous one; without it the line reads
    ``Batch [0-B]`` and the metric accumulates over the epoch. Timing restarts when the
    batch count goes backwards (a new epoch).
    """

    def __init__(self, batch_size, frequent=50, auto_reset=True):
        self.batch_size = batch_size
        self.frequent = frequent
        self.init = False
        self.tic = 0
        self.last_count = 0
        self.auto_reset = auto_reset

    def __call__(self, param):
        count = param.nbatch
        if self.last_count > count:
            self.init = False
        self.last_count = count
        if not self.init:
            self.init = True
            self.tic = time.time()
            return
        if count % self.frequent != 0:
            return
        try:
            speed = self.frequent * self.batch_size / (time.time() - self.tic)
        except ZeroDivisionError:
            speed = float("inf")
        if param.eval_metric is not None:
            name_value = param.eval_metric.get_name_value()
            flat = [x for pair in name_value for x in pair]
            fields = "\t%s=%f" * len(name_value)
            if self.auto_reset:
                param.eval_metric.reset_local()
                logging.info("Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec" + fields,
                             param.epoch, count - self.frequent, count, speed, *flat)
            else:
                logging.info("Epoch[%d] Batch [0-%d]\tSpeed: %.2f samples/sec" + fields,
                             param.epoch, count, speed, *flat)
        else:
            logging.info("Iter[%d] Batch [%d]\tSpeed: %.2f samples/sec", param.epoch, count, speed)
        self.tic = time.time()


class ProgressBar:
    """Batch-end callback drawing a text progress bar of ``length`` characters over
    ``total`` batches."""

    def __init__(self, total, length=80):
        self.bar_len = length
        self.total = total

    def __call__(self, param):
        count = param.nbatch
        filled = int(round(self.bar_len * count / float(self.total)))
        percents = math.ceil(100.0 * count / float(self.total))
        bar = "=" * filled + "-" * (self.bar_len - filled)
        logging.info("[%s] %s%s\r", bar, percents, "%")


class LogValidationMetricsCallback:
    """Eval-end callback logging each validation metric as ``Epoch[E] Validation-name=value``."""

    def __call__(self, param):
        if not param.eval_metric:
            return
        for name, value in param.eval_metric.get_name_value():
            logging.info("Epoch[%d] Validation-%s=%f", param.epoch, name, value)
