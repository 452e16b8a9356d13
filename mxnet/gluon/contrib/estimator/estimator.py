"""The Gluon Estimator: a configurable fit/evaluate loop."""
import copy
import logging
import sys
import warnings

from ...data import DataLoader
from ...loss import Loss as gluon_loss
from ...trainer import Trainer
from ...utils import split_and_load
from ....context import Context, cpu, gpu, num_gpus
from ....metric import Loss as metric_loss
from .batch_processor import BatchProcessor
from .event_handler import (BatchBegin, BatchEnd, EpochBegin, EpochEnd, GradientUpdateHandler,
                            LoggingHandler, MetricHandler, StoppingHandler, TrainBegin, TrainEnd,
                            ValidationHandler, _check_event_handlers)
from .utils import _check_handler_metric_ref, _check_metrics, _suggest_metric_for_loss

__all__ = ['Estimator']


class Estimator:
    """Trains and evaluates a Gluon network with event handlers.

    Parameters
    ----------
    net : gluon.Block
        The network to train.
    loss : gluon.loss.Loss
        The training objective.
    train_metrics : EvalMetric or list of EvalMetric, default None
        Metrics computed on the training data. When None: Accuracy for a
        SoftmaxCrossEntropyLoss, plus a ``metric.Loss`` named after the loss. Their names
        get the prefix 'training '.
    val_metrics : EvalMetric or list of EvalMetric, default None
        Metrics computed on validation data (default: copies of the training metrics).
        Their names get the prefix 'validation ' (or 'training' replaced by 'validation').
    initializer : Initializer, default None
        Used when ``net`` is not fully initialised yet (warns and is ignored otherwise).
    trainer : gluon.Trainer, default None
        Default: SGD with learning rate 0.001 over ``net.collect_params()`` (with a warning).
    context : Context or list of Context, default None
        Devices; default ``gpu(0)`` when a GPU is visible, else ``cpu()``.
    val_net : gluon.Block, default None
        Network used for validation (default ``net``); usually shares ``net``'s parameters.
    val_loss : gluon.loss.Loss, default None
        Loss used for validation (default ``loss``).
    batch_processor : BatchProcessor, default None
        Object with ``fit_batch`` and ``evaluate_batch`` (default ``BatchProcessor()``).

    Attributes
    ----------
    logger : logging.Logger
        Logger named 'Estimator' (level INFO) writing to ``sys.stdout``; every log line of
        the estimator and its handlers goes through it.
    """

    logger = None

    def __init__(self, net, loss, train_metrics=None, val_metrics=None, initializer=None,
                 trainer=None, context=None, val_net=None, val_loss=None,
                 batch_processor=None):
        self.net = net
        self.loss = self._check_loss(loss)
        self._train_metrics = _check_metrics(train_metrics)
        self._val_metrics = _check_metrics(val_metrics)
        self._add_default_training_metrics()
        self._add_validation_metrics()
        self.val_loss = self.loss if val_loss is None else self._check_loss(val_loss)
        self.val_net = self.net if val_net is None else val_net

        self.logger = logging.Logger(name='Estimator', level=logging.INFO)
        self.logger.addHandler(logging.StreamHandler(sys.stdout))

        self.context = self._check_context(context)
        self._initialize(initializer)
        self.trainer = self._check_trainer(trainer)
        self.batch_processor = self._check_batch_processor(batch_processor)

    # -- argument checks ------------------------------------------------------------------------
    def _check_loss(self, loss):
        if not isinstance(loss, gluon_loss):
            raise ValueError("loss must be a Loss, "
                             f"refer to gluon.loss.Loss:{loss}")
        return loss

    def _check_context(self, context):
        n_gpus = num_gpus()
        gpus = [gpu(i) for i in range(n_gpus)]
        if not context:
            if n_gpus > 1:
                warnings.warn("You have multiple GPUs, gpu(0) will be used by default."
                              "To utilize all your GPUs, specify context as a list of gpus, "
                              "e.g. context=[mx.gpu(0), mx.gpu(1)] ", stacklevel=2)
            return [gpu(0)] if n_gpus > 0 else [cpu()]
        if isinstance(context, Context):
            context = [context]
        elif not (isinstance(context, list) and all(isinstance(c, Context) for c in context)):
            raise ValueError("context must be a Context or a list of Context, "
                             "for example mx.cpu() or [mx.gpu(0), mx.gpu(1)], "
                             f"refer to mxnet.Context:{context}")
        for ctx in context:
            assert ctx in gpus or str(ctx).startswith('cpu'), \
                "%s is not available, please make sure your context is in one of: " \
                "mx.cpu(), %s" % (ctx, ", ".join(str(g) for g in gpus))
        return context

    def _check_batch_processor(self, batch_processor):
        if batch_processor is None:
            return BatchProcessor()
        fit = getattr(batch_processor, 'fit_batch', None)
        evaluate = getattr(batch_processor, 'evaluate_batch', None)
        if not callable(fit) or not callable(evaluate):
            raise ValueError('Customized Batch Processor must contain fit_batch()'
                             ' and evaluate_batch() methods')
        return batch_processor

    def _initialize(self, initializer):
        if not self._is_initialized():
            # partly or not initialised: initialise what is missing
            if initializer:
                self.net.initialize(init=initializer, ctx=self.context)
            else:
                self.net.initialize(ctx=self.context)
        elif initializer:
            warnings.warn("Network already fully initialized, skipping initialization. "
                          "You don't need to pass initializer if you already "
                          "initialized your net. "
                          "You can use net.initialize(init=your_initializer, force_reinit=True)"
                          "to force re-initialize.", stacklevel=2)

    def _check_trainer(self, trainer):
        if not trainer:
            warnings.warn("No trainer specified, default SGD optimizer "
                          "with learning rate 0.001 is used.", stacklevel=2)
            return Trainer(self.net.collect_params(), 'sgd', {'learning_rate': 0.001})
        if not isinstance(trainer, Trainer):
            raise ValueError("Trainer must be a Gluon Trainer instance, refer to "
                             f"gluon.Trainer:{trainer}")
        return trainer

    def _is_initialized(self):
        params = self.net.collect_params()
        for name in params:
            try:
                params[name].list_ctx()
            except RuntimeError:
                return False
        return True

    def _get_data_and_label(self, batch, ctx, batch_axis=0):
        data = split_and_load(batch[0], ctx_list=ctx, batch_axis=batch_axis)
        label = split_and_load(batch[1], ctx_list=ctx, batch_axis=batch_axis)
        return data, label

    def _add_default_training_metrics(self):
        if not self._train_metrics:
            suggested = _suggest_metric_for_loss(self.loss)
            if suggested:
                self._train_metrics = [suggested]
            self._train_metrics.append(metric_loss(self.loss.name.rstrip('1234567890')))
        for metric in self._train_metrics:
            metric.name = 'training ' + metric.name

    def _add_validation_metrics(self):
        if not self._val_metrics:
            self._val_metrics = [copy.deepcopy(m) for m in self._train_metrics]
        for metric in self._val_metrics:
            if 'training' in metric.name:
                metric.name = metric.name.replace('training', 'validation')
            else:
                metric.name = 'validation ' + metric.name

    @property
    def train_metrics(self):
        """The training metrics (a list)."""
        return self._train_metrics

    @property
    def val_metrics(self):
        """The validation metrics (a list)."""
        return self._val_metrics

    # -- loops ----------------------------------------------------------------------------------
    def evaluate(self, val_data, batch_axis=0, event_handlers=None):
        """Run ``batch_processor.evaluate_batch`` over every batch of ``val_data``.

        Parameters
        ----------
        val_data : DataLoader
            Validation batches ``(data, label)``.
        batch_axis : int, default 0
            Axis along which batches are split over the contexts.
        event_handlers : EventHandler or list, default None
            Extra handlers; a MetricHandler and a LoggingHandler on ``val_metrics`` are added
            unless given.
        """
        if not isinstance(val_data, DataLoader):
            raise ValueError("Estimator only support input as Gluon DataLoader. Alternatively, you "
                             "can transform your DataIter or any NDArray into Gluon DataLoader. "
                             "Refer to gluon.data.DataLoader")
        for metric in self.val_metrics:
            metric.reset()
        handlers = self._prepare_default_validation_handlers(event_handlers)
        _, epoch_begin, batch_begin, batch_end, epoch_end, _ = \
            self._categorize_handlers(handlers)

        for handler in epoch_begin:
            handler.epoch_begin(self)
        for batch in val_data:
            for handler in batch_begin:
                handler.batch_begin(self, batch=batch)
            _, label, pred, loss = self.batch_processor.evaluate_batch(self, batch, batch_axis)
            for handler in batch_end:
                handler.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
        for handler in epoch_end:
            handler.epoch_end(self)

    def fit(self, train_data, val_data=None, epochs=None, event_handlers=None, batches=None,
            batch_axis=0):
        """Train on ``train_data`` for ``epochs`` epochs or ``batches`` batches (exactly one).

        Parameters
        ----------
        train_data : DataLoader
            Training batches ``(data, label)``.
        val_data : DataLoader, default None
            When given (and no ValidationHandler is), validation runs after every epoch.
        epochs : int, default None
            Number of epochs.
        event_handlers : EventHandler or list, default None
            Extra handlers; a StoppingHandler is always added, and a GradientUpdateHandler,
            MetricHandler, ValidationHandler (with ``val_data``) and LoggingHandler unless one
            of that type is given.
        batches : int, default None
            Number of batches.
        batch_axis : int, default 0
            Axis along which batches are split over the contexts.
        """
        if not isinstance(train_data, DataLoader):
            raise ValueError("Estimator only support input as Gluon DataLoader. Alternatively, you "
                             "can transform your DataIter or any NDArray into Gluon DataLoader. "
                             "Refer to gluon.data.dataloader")
        if (not epochs) == (not batches):
            raise ValueError(
                "Fit only support exactly one type of iteration, "
                "train by number of epochs or number of batches."
                "Please specify one and only one of: epochs or batches.")

        self.max_epoch = epochs
        self.max_batch = batches
        self.batch_axis = batch_axis

        handlers = self._prepare_default_handlers(val_data, event_handlers)
        train_begin, epoch_begin, batch_begin, batch_end, epoch_end, train_end = \
            self._categorize_handlers(handlers)

        for handler in train_begin:
            handler.train_begin(self)
        while True:
            for handler in epoch_begin:
                handler.epoch_begin(self)
            for batch in train_data:
                for handler in batch_begin:
                    handler.batch_begin(self, batch=batch)
                _, label, pred, loss = self.batch_processor.fit_batch(self, batch, batch_axis)
                # every handler sees the batch end, then any of them may stop the epoch
                stop = [handler.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
                        for handler in batch_end]
                if any(stop):
                    break
            stop = [handler.epoch_end(self) for handler in epoch_end]
            if any(stop):
                break
        for handler in train_end:
            handler.train_end(self)

    # -- handler bookkeeping --------------------------------------------------------------------
    def _prepare_default_handlers(self, val_data, event_handlers):
        handlers = _check_event_handlers(event_handlers)
        added = [StoppingHandler(self.max_epoch, self.max_batch)]

        def missing(kind):
            return not any(isinstance(h, kind) for h in handlers)

        if missing(GradientUpdateHandler):
            added.append(GradientUpdateHandler())
        if missing(MetricHandler):
            added.append(MetricHandler(metrics=self.train_metrics))
        if missing(ValidationHandler) and val_data:
            added.append(ValidationHandler(val_data=val_data, eval_fn=self.evaluate))
        if missing(LoggingHandler):
            added.append(LoggingHandler(metrics=self.train_metrics))

        mixing = bool(handlers) and bool(added)
        handlers.extend(added)
        if mixing:
            known = set(self.train_metrics + self.val_metrics)
            for handler in handlers:
                _check_handler_metric_ref(handler, known)
        handlers.sort(key=lambda h: getattr(h, 'priority', 0))
        return handlers

    def _prepare_default_validation_handlers(self, event_handlers):
        handlers = _check_event_handlers(event_handlers)
        added = []
        if not any(isinstance(h, MetricHandler) for h in handlers):
            added.append(MetricHandler(metrics=self.val_metrics))
        if not any(isinstance(h, LoggingHandler) for h in handlers):
            added.append(LoggingHandler(metrics=self.val_metrics))
        mixing = bool(handlers) and bool(added)
        handlers.extend(added)
        if mixing:
            known = set(self.val_metrics)
            for handler in handlers:
                _check_handler_metric_ref(handler, known)
        handlers.sort(key=lambda h: getattr(h, 'priority', 0))
        return handlers

    def _categorize_handlers(self, event_handlers):
        """Split handlers into the six event lists (a handler may be in several)."""
        kinds = (TrainBegin, EpochBegin, BatchBegin, BatchEnd, EpochEnd, TrainEnd)
        return tuple([h for h in event_handlers if isinstance(h, kind)] for kind in kinds)
