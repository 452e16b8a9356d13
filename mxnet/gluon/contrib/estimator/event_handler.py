"""Event handlers for the Gluon Estimator.

A handler subclasses one or more of the event mixins (``TrainBegin``, ``EpochBegin``,
``BatchBegin``, ``BatchEnd``, ``EpochEnd``, ``TrainEnd``); the Estimator calls the matching
method of every handler at that point of the loop, in ascending ``priority`` order. A
``batch_end`` or ``epoch_end`` that returns True stops training.
"""
import os
import time
import warnings

import numpy as np

from ....metric import CompositeEvalMetric, EvalMetric
from ....metric import Loss as metric_loss
from .utils import _check_metrics

__all__ = ['TrainBegin', 'TrainEnd', 'EpochBegin', 'EpochEnd', 'BatchBegin', 'BatchEnd',
           'StoppingHandler', 'MetricHandler', 'ValidationHandler',
           'LoggingHandler', 'CheckpointHandler', 'EarlyStoppingHandler', 'GradientUpdateHandler']


class EventHandler:
    """Common base of every event handler."""


def _check_event_handlers(handlers):
    """Normalise ``handlers`` to a new list of EventHandler."""
    if isinstance(handlers, EventHandler):
        return [handlers]
    given = handlers
    handlers = list(handlers or [])
    if not all(isinstance(h, EventHandler) for h in handlers):
        raise ValueError("handlers must be an EventHandler or a list of EventHandler, "
                         f"got: {given}")
    return handlers


class TrainBegin(EventHandler):
    """Mixin: ``train_begin`` runs once before the first epoch."""

    def train_begin(self, estimator, *args, **kwargs):
        pass


class TrainEnd(EventHandler):
    """Mixin: ``train_end`` runs once after the last epoch."""

    def train_end(self, estimator, *args, **kwargs):
        pass


class EpochBegin(EventHandler):
    """Mixin: ``epoch_begin`` runs at the start of every epoch (and of every evaluation)."""

    def epoch_begin(self, estimator, *args, **kwargs):
        pass


class EpochEnd(EventHandler):
    """Mixin: ``epoch_end`` runs at the end of every epoch; returning True stops training."""

    def epoch_end(self, estimator, *args, **kwargs):
        return False


class BatchBegin(EventHandler):
    """Mixin: ``batch_begin`` runs before every batch (keyword ``batch``)."""

    def batch_begin(self, estimator, *args, **kwargs):
        pass


class BatchEnd(EventHandler):
    """Mixin: ``batch_end`` runs after every batch (keywords ``batch``, ``pred``, ``label``,
    ``loss``); returning True stops training."""

    def batch_end(self, estimator, *args, **kwargs):
        return False


def _pick_monitor_op(kind, mode, monitor):
    """The comparison ``np.less``/``np.greater`` for ``mode``, with 1.9.1's warnings.

    In 'auto' mode 1.9.1 always chooses ``greater`` (its metric-name test is always true);
    this does the same so that runs agree.
    """
    if mode not in ['auto', 'min', 'max']:
        warnings.warn('%s mode %s is unknown, '
                      'fallback to auto mode. CheckpointHandler will use'
                      'max mode for f1 and accuracy metric comparison and '
                      'use min mode other wise' % (kind, mode),
                      RuntimeWarning, stacklevel=2)
        mode = 'auto'
    if mode == 'min':
        return np.less
    if mode == 'max':
        return np.greater
    name = monitor.get()[0]
    warnings.warn(f"`greater` operator will be used to determine if {name} has improved. "
                  "Please specify `mode='min'` to use the `less` operator. "
                  "Specify `mode='max' to disable this warning.`", stacklevel=2)
    return np.greater


class StoppingHandler(TrainBegin, BatchEnd, EpochEnd):
    """Stops training once ``max_epoch`` epochs or ``max_batch`` batches have run.

    The limits are taken from the estimator (``fit(epochs=..., batches=...)``) at train begin.
    """

    def __init__(self, max_epoch=None, max_batch=None):
        self.max_epoch = max_epoch
        self.max_batch = max_batch
        self.current_batch = 0
        self.current_epoch = 0
        self.stop_training = False

    def train_begin(self, estimator, *args, **kwargs):
        self.max_epoch = estimator.max_epoch
        self.max_batch = estimator.max_batch
        self.current_batch = 0
        self.current_epoch = 0

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.current_batch == self.max_batch:
            self.stop_training = True
        return self.stop_training

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.current_epoch == self.max_epoch:
            self.stop_training = True
        return self.stop_training


class MetricHandler(EpochBegin, BatchEnd):
    """Resets ``metrics`` at epoch begin and updates them at every batch end.

    A ``metric.Loss`` is updated with the batch losses, any other metric with
    ``(label, pred)``. The default priority (-1000) runs it before the other handlers.
    """

    def __init__(self, metrics, priority=-1000):
        self.metrics = _check_metrics(metrics)
        self.priority = priority

    def epoch_begin(self, estimator, *args, **kwargs):
        for metric in self.metrics:
            metric.reset()

    def batch_end(self, estimator, *args, **kwargs):
        pred = kwargs['pred']
        label = kwargs['label']
        loss = kwargs['loss']
        for metric in self.metrics:
            if isinstance(metric, metric_loss):
                metric.update(0, loss)
            else:
                metric.update(label, pred)


class ValidationHandler(TrainBegin, BatchEnd, EpochEnd):
    """Runs ``eval_fn(val_data=..., batch_axis=..., event_handlers=...)`` periodically.

    Parameters
    ----------
    val_data : DataLoader
        The validation data.
    eval_fn : callable
        Usually ``estimator.evaluate``.
    epoch_period : int, default 1
        Validate after every ``epoch_period`` epochs (None or 0: never at epoch end).
    batch_period : int, default None
        Validate after every ``batch_period`` batches (None: never at batch end).
    priority : scalar, default -1000
        Handlers run in ascending priority.
    event_handlers : EventHandler or list, default None
        Handed on to ``eval_fn``.
    """

    def __init__(self, val_data, eval_fn, epoch_period=1, batch_period=None,
                 priority=-1000, event_handlers=None):
        self.val_data = val_data
        self.eval_fn = eval_fn
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.priority = priority
        self.event_handlers = event_handlers

    def train_begin(self, estimator, *args, **kwargs):
        self.current_batch = 0
        self.current_epoch = 0

    def _run(self, estimator):
        self.eval_fn(val_data=self.val_data, batch_axis=estimator.batch_axis,
                     event_handlers=self.event_handlers)

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.batch_period and self.current_batch % self.batch_period == 0:
            self._run(estimator)

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.epoch_period and self.current_epoch % self.epoch_period == 0:
            self._run(estimator)


class LoggingHandler(TrainBegin, TrainEnd, EpochBegin, EpochEnd, BatchBegin, BatchEnd):
    """Writes training progress to ``estimator.logger``.

    Parameters
    ----------
    log_interval : int or 'epoch', default 'epoch'
        'epoch' logs at epoch begin/end; an integer k also logs every k-th batch.
    metrics : list of EvalMetric
        The metrics whose values are logged.
    priority : scalar, default inf
        Runs last, after every other handler has updated its state.
    """

    def __init__(self, log_interval='epoch', metrics=None, priority=np.inf):
        super().__init__()
        if not isinstance(log_interval, int) and log_interval != 'epoch':
            raise ValueError("log_interval must be either an integer or string 'epoch'")
        self.metrics = _check_metrics(metrics)
        self.batch_index = 0
        self.current_epoch = 0
        self.processed_samples = 0
        self.priority = priority
        self.log_interval = log_interval
        self.log_interval_time = 0

    def _with_values(self, msg):
        for metric in self.metrics:
            name, value = metric.get()
            msg += '%s: %.4f, ' % (name, value)
        return msg.rstrip(', ')

    def train_begin(self, estimator, *args, **kwargs):
        self.train_start = time.time()
        trainer = estimator.trainer
        estimator.logger.info("Training begin: using optimizer %s "
                              "with current learning rate %.4f ",
                              trainer.optimizer.__class__.__name__, trainer.learning_rate)
        if estimator.max_epoch:
            estimator.logger.info("Train for %d epochs.", estimator.max_epoch)
        else:
            estimator.logger.info("Train for %d batches.", estimator.max_batch)
        self.current_epoch = 0
        self.batch_index = 0
        self.processed_samples = 0
        self.log_interval_time = 0

    def train_end(self, estimator, *args, **kwargs):
        elapsed = time.time() - self.train_start
        msg = 'Train finished using total %ds with %d epochs. ' % (elapsed, self.current_epoch)
        estimator.logger.info(self._with_values(msg))

    def batch_begin(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            self.batch_start = time.time()

    def batch_end(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            self.log_interval_time += time.time() - self.batch_start
            msg = '[Epoch %d][Batch %d]' % (self.current_epoch, self.batch_index)
            self.processed_samples += kwargs['batch'][0].shape[0]
            msg += '[Samples %s] ' % (self.processed_samples)
            if self.batch_index % self.log_interval == 0:
                msg += 'time/interval: %.3fs ' % self.log_interval_time
                self.log_interval_time = 0
                estimator.logger.info(self._with_values(msg))
        self.batch_index += 1

    def epoch_begin(self, estimator, *args, **kwargs):
        # training vs validation is told apart by the 'training' prefix the Estimator gives
        # its training metrics
        training = any('training' in metric.name for metric in self.metrics)
        self.epoch_start = time.time()
        if training:
            estimator.logger.info("[Epoch %d] Begin, current learning rate: %.4f",
                                  self.current_epoch, estimator.trainer.learning_rate)
        else:
            estimator.logger.info("Validation Begin")

    def epoch_end(self, estimator, *args, **kwargs):
        elapsed = time.time() - self.epoch_start
        msg = '[Epoch %d] Finished in %.3fs, ' % (self.current_epoch, elapsed)
        estimator.logger.info(self._with_values(msg))
        self.current_epoch += 1
        self.batch_index = 0


def _cached_symbol(net):
    """The traced graph of a hybridized block that has run at least once, else None. As in
    1.9.1, a block that is not hybridized has one too once its deferred parameter shapes were
    inferred from a first batch (that traces ``hybrid_forward``)."""
    from ....symbol import Symbol
    cached = getattr(net, '_cached', None)
    if cached:
        return Symbol(cached[1])
    traced = getattr(net, '__dict__', {}).get('_traced')
    if traced:
        return traced[1][1]
    return None


class CheckpointHandler(TrainBegin, BatchEnd, EpochEnd):
    """Saves parameters and trainer states periodically, and optionally the best model.

    Files are ``{model_prefix}-epoch{E}batch{B}.params`` / ``.states`` in ``model_dir`` (the
    best model: ``{model_prefix}-best.params`` / ``.states``); the symbol of a hybridized net
    goes to ``{model_prefix}-symbol.json`` after the first batch. Each file is written to a
    temporary name in ``model_dir`` and then renamed, so a crash never leaves a torn
    checkpoint.

    Parameters
    ----------
    model_dir : str
        Directory of the checkpoints (created when missing).
    model_prefix : str, default 'model'
        File name prefix.
    monitor : EvalMetric, default None
        Metric deciding the best model (required with ``save_best``).
    verbose : int, default 0
        1 logs every save.
    save_best : bool, default False
        Also keep the best model by ``monitor``.
    mode : {'auto', 'min', 'max'}, default 'auto'
        Whether a smaller or a larger monitored value is better ('auto', as in 1.9.1,
        always picks larger).
    epoch_period : int, default 1
        Save after every ``epoch_period`` epochs.
    batch_period : int, default None
        Save after every ``batch_period`` batches.
    max_checkpoints : int, default 5
        Keep at most this many periodic checkpoints; older ones are removed.
    resume_from_checkpoint : bool, default False
        Load the latest checkpoint in ``model_dir`` at train begin and train only the
        remaining epochs or batches.
    """

    def __init__(self, model_dir, model_prefix='model', monitor=None, verbose=0,
                 save_best=False, mode='auto', epoch_period=1, batch_period=None,
                 max_checkpoints=5, resume_from_checkpoint=False):
        self.monitor = monitor
        self.verbose = verbose
        if not os.path.exists(model_dir):
            os.makedirs(model_dir)
        self.model_dir = model_dir
        self.model_prefix = model_prefix
        self.save_best = save_best
        if self.save_best and not isinstance(self.monitor, EvalMetric):
            raise ValueError("To save best model only, please provide one of the metric objects "
                             "from estimator.train_metrics and estimator.val_metrics as monitor.")
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.max_checkpoints = max_checkpoints
        self.resume_from_checkpoint = resume_from_checkpoint
        self.saved_checkpoints = []
        if self.save_best:
            self.monitor_op = _pick_monitor_op('ModelCheckpoint', mode, self.monitor)
            self.best = np.inf if self.monitor_op is np.less else -np.inf

    def train_begin(self, estimator, *args, **kwargs):
        self.current_epoch = 0
        self.current_batch = 0
        if self.save_best:
            self.best = np.inf if self.monitor_op is np.less else -np.inf
        if self.resume_from_checkpoint:
            error_msg = "To use resume from checkpoint, you must only specify " \
                        "the same type of period you used for training." \
                        "For example, if you are training based on number of epochs," \
                        "you must save only based on epochs, and set batch_period to None."
            if estimator.max_batch:
                assert self.batch_period, error_msg
                assert not self.epoch_period, error_msg
            if estimator.max_epoch:
                assert self.epoch_period, error_msg
                assert not self.batch_period, error_msg
            self._resume_from_checkpoint(estimator)

    def batch_end(self, estimator, *args, **kwargs):
        if self.current_batch == 0:
            self._save_symbol(estimator)
        if self.batch_period and (self.current_batch + 1) % self.batch_period == 0:
            self._save_checkpoint(estimator)
        self.current_batch += 1

    def epoch_end(self, estimator, *args, **kwargs):
        if self.epoch_period and (self.current_epoch + 1) % self.epoch_period == 0:
            self._save_checkpoint(estimator)
        self.current_epoch += 1

    def _save_checkpoint(self, estimator):
        if self.resume_from_checkpoint:
            epoch_no = self.current_epoch + self.trained_epoch + 1
            # at epoch end the batch counter has already moved past the last batch
            batch_no = self.current_batch + self.trained_batch
            if not estimator.max_epoch:
                batch_no += 1
        else:
            epoch_no = self.current_epoch
            batch_no = self.current_batch
        prefix = "%s-epoch%dbatch%d" % (self.model_prefix, epoch_no, batch_no)
        self._save_params_and_trainer(estimator, prefix)
        if self.verbose > 0:
            estimator.logger.info('[Epoch %d] CheckpointHandler: trained total %d batches, '
                                  'saving model at %s with prefix: %s',
                                  self.current_epoch, self.current_batch + 1,
                                  self.model_dir, prefix)
        if not self.save_best:
            return
        monitor_name, monitor_value = self.monitor.get()
        if np.isnan(monitor_value):
            warnings.warn(RuntimeWarning(
                'Skipping save best because %s is not updated, make sure you pass one of the '
                'metric objects estimator.train_metrics and estimator.val_metrics as monitor',
                monitor_name), stacklevel=2)
        elif self.monitor_op(monitor_value, self.best):
            best_prefix = self.model_prefix + '-best'
            self._save_params_and_trainer(estimator, best_prefix)
            self.best = monitor_value
            if self.verbose > 0:
                # 1.9.1 logs the new value twice (best is updated before the message)
                estimator.logger.info('[Epoch %d] CheckpointHandler: '
                                      '%s improved from %0.5f to %0.5f, '
                                      'updating best model at %s with prefix: %s',
                                      self.current_epoch, monitor_name,
                                      self.best, monitor_value, self.model_dir, best_prefix)
        elif self.verbose > 0:
            estimator.logger.info('[Epoch %d] CheckpointHandler: '
                                  '%s did not improve from %0.5f, '
                                  'skipping updating best model',
                                  self.current_batch, monitor_name, self.best)

    def _save_symbol(self, estimator):
        symbol_file = os.path.join(self.model_dir, self.model_prefix + '-symbol.json')
        sym = _cached_symbol(estimator.net)
        if sym is not None:
            self._atomic(symbol_file, sym.save)
        else:
            estimator.logger.info(
                "Model architecture(symbol file) is not saved, please use HybridBlock "
                "to construct your model, and call net.hybridize() before passing to "
                "Estimator in order to save model architecture as %s.",
                symbol_file)

    def _atomic(self, path, save_fn):
        """Call ``save_fn`` on a temporary name next to ``path``, then rename it to ``path``."""
        directory, base = os.path.split(path)
        tmp = os.path.join(directory, '.%s.%d.tmp' % (base, os.getpid()))
        try:
            save_fn(tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    def _save_params_and_trainer(self, estimator, file_prefix):
        param_file = os.path.join(self.model_dir, file_prefix + '.params')
        trainer_file = os.path.join(self.model_dir, file_prefix + '.states')
        self._atomic(param_file, estimator.net.save_parameters)
        self._atomic(trainer_file, estimator.trainer.save_states)
        if 'best' not in file_prefix:
            self.saved_checkpoints.append(file_prefix)
        if len(self.saved_checkpoints) > self.max_checkpoints:
            old = self.saved_checkpoints.pop(0)
            # only that checkpoint's own files (1.9.1 removes every file whose name merely
            # starts with the prefix, which can hit e.g. ...batch80 when removing ...batch8)
            for fname in os.listdir(self.model_dir):
                if fname.startswith(old) and fname[len(old):] in ('.params', '.states'):
                    os.remove(os.path.join(self.model_dir, fname))

    def _resume_from_checkpoint(self, estimator):
        prefix = self.model_prefix + '-epoch'
        self.trained_epoch = self._find_max_iteration(
            dir=self.model_dir, prefix=prefix, start='epoch', end='batch',
            saved_checkpoints=self.saved_checkpoints)
        prefix += str(self.trained_epoch)
        self.trained_batch = self._find_max_iteration(
            dir=self.model_dir, prefix=prefix, start='batch', end='.params')

        if self.trained_epoch == -1:
            msg = "CheckpointHandler: No checkpoint found, training from scratch for "
            if estimator.max_batch:
                msg += "%d batches" % estimator.max_batch
            else:
                msg += "%d epochs" % estimator.max_epoch
            estimator.logger.info(msg)
            return
        msg = "CheckpointHandler: Checkpoint resumed from epoch %d batch %d, " \
              "continue to train for " % (self.trained_epoch, self.trained_batch)
        if estimator.max_epoch:
            if self.trained_epoch >= estimator.max_epoch - 1:
                raise ValueError("Found checkpoint with maximum number of epoch %d reached, "
                                 "please specify resume_from_checkpoint=False (default value) "
                                 "if you wan to train from scratch." % estimator.max_epoch)
            estimator.max_epoch = estimator.max_epoch - self.trained_epoch - 1
            msg += "%d epochs " % estimator.max_epoch
        if estimator.max_batch:
            if self.trained_batch >= estimator.max_batch - 1:
                raise ValueError("Found checkpoint with maximum number of batch %d reached, "
                                 "please specifyresume_from_checkpoint=False (default value) "
                                 "if you wan to train from scratch." % self.trained_batch)
            estimator.max_batch = estimator.max_batch - self.trained_batch - 1
            msg += "%d batches " % estimator.max_batch
        stem = "%s-epoch%dbatch%d" % (self.model_prefix, self.trained_epoch, self.trained_batch)
        param_file = os.path.join(self.model_dir, stem + '.params')
        trainer_file = os.path.join(self.model_dir, stem + '.states')
        assert os.path.exists(param_file), \
            "Failed to load checkpoint, %s does not exist" % param_file
        assert os.path.exists(trainer_file), \
            "Failed to load checkpoint, %s does not exist" % trainer_file
        estimator.net.load_parameters(param_file, ctx=estimator.context)
        estimator.trainer.load_states(trainer_file)
        estimator.logger.warning(msg)

    def _find_max_iteration(self, dir, prefix, start, end, saved_checkpoints=None):  # noqa: A002
        """Largest number between ``start`` and ``end`` in the .params files named
        ``prefix...`` in ``dir`` (-1 when there is none)."""
        error_msg = "Error parsing checkpoint file, please check your " \
                    "checkpoints have the format: " \
                    "{model_name}-epoch{epoch_number}batch{batch_number}.params, " \
                    "there should also be a .states file for each .params file "
        max_iter = -1
        for fname in os.listdir(dir):
            if not (fname.startswith(prefix) and '.params' in fname):
                continue
            if saved_checkpoints:
                # 1.9.1 records existing checkpoints only once the list is non-empty
                saved_checkpoints.append(fname[:fname.find('.params')])
            try:
                value = int(fname[fname.find(start) + len(start): fname.find(end)])
            except ValueError:
                raise ValueError(error_msg) from None
            max_iter = max(max_iter, value)
        return max_iter


class EarlyStoppingHandler(TrainBegin, EpochEnd, TrainEnd):
    """Stops training when ``monitor`` has not improved for ``patience`` epochs.

    Parameters
    ----------
    monitor : EvalMetric
        One of the estimator's training or validation metrics (not a composite).
    min_delta : float, default 0
        Smallest change that counts as an improvement.
    patience : int, default 0
        Epochs without improvement before stopping.
    mode : {'auto', 'min', 'max'}, default 'auto'
        Whether smaller or larger is better ('auto', as in 1.9.1, always picks larger).
    baseline : float, default None
        Initial value to improve on.
    """

    def __init__(self, monitor, min_delta=0, patience=0, mode='auto', baseline=None):
        super().__init__()
        if not isinstance(monitor, EvalMetric):
            raise ValueError(
                "Please provide one of the metric objects from estimator.train_metrics and "
                "estimator.val_metrics as monitor.")
        if isinstance(monitor, CompositeEvalMetric):
            raise ValueError("CompositeEvalMetric is not supported for EarlyStoppingHandler, "
                             "please specify a simple metric instead.")
        self.monitor = monitor
        self.baseline = baseline
        self.patience = patience
        self.min_delta = min_delta
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        self.monitor_op = _pick_monitor_op('EarlyStopping', mode, monitor)
        if self.monitor_op is not np.greater:
            self.min_delta *= -1

    def train_begin(self, estimator, *args, **kwargs):
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        if self.baseline is not None:
            self.best = self.baseline
        else:
            self.best = np.inf if self.monitor_op is np.less else -np.inf

    def epoch_end(self, estimator, *args, **kwargs):
        monitor_name, monitor_value = self.monitor.get()
        if np.isnan(monitor_value):
            warnings.warn(RuntimeWarning(
                '%s is not updated, make sure you pass one of the metric objects from'
                'estimator.train_metrics and estimator.val_metrics as monitor.', monitor_name),
                stacklevel=2)
        elif self.monitor_op(monitor_value - self.min_delta, self.best):
            self.best = monitor_value
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = self.current_epoch
                self.stop_training = True
        self.current_epoch += 1
        return self.stop_training

    def train_end(self, estimator, *args, **kwargs):
        if self.stopped_epoch > 0:
            estimator.logger.info('[Epoch %d] EarlyStoppingHanlder: '
                                  'early stopping due to %s not improving',
                                  self.stopped_epoch, self.monitor.get()[0])


class GradientUpdateHandler(BatchEnd):
    """Calls ``estimator.trainer.step(batch_size)`` at every batch end.

    ``batch_size`` is the total first-axis length of the per-context losses. The default
    priority (-2000) runs it before every other handler.
    """

    def __init__(self, priority=-2000):
        self.priority = priority

    def batch_end(self, estimator, *args, **kwargs):
        loss = kwargs['loss']
        if not isinstance(loss, list):
            loss = [loss]
        batch_size = sum(value.shape[0] for value in loss)
        estimator.trainer.step(batch_size)
