"""Per-batch training and evaluation steps used by the Estimator."""
from ... import utils as _gutils
from .... import autograd

__all__ = ['BatchProcessor']


class BatchProcessor:
    """Default ``fit_batch`` / ``evaluate_batch`` implementation of the Estimator.

    Subclass it and override either method to customise how one mini-batch is processed,
    then pass an instance as ``Estimator(..., batch_processor=...)``.
    """

    def __init__(self):
        pass

    def _get_data_and_label(self, batch, ctx, batch_axis=0):
        data = _gutils.split_and_load(batch[0], ctx_list=ctx, batch_axis=batch_axis)
        label = _gutils.split_and_load(batch[1], ctx_list=ctx, batch_axis=batch_axis)
        return data, label

    def evaluate_batch(self, estimator, val_batch, batch_axis=0):
        """Run ``estimator.val_net`` and ``estimator.val_loss`` on one validation batch.

        Returns the lists ``(data, label, pred, loss)``, one entry per context.
        """
        data, label = self._get_data_and_label(val_batch, estimator.context, batch_axis)
        pred = [estimator.val_net(x) for x in data]
        loss = [estimator.val_loss(p, y) for p, y in zip(pred, label)]
        return data, label, pred, loss

    def fit_batch(self, estimator, train_batch, batch_axis=0):
        """Forward and backward pass of ``estimator.net`` on one training batch.

        The gradient step itself is taken by a GradientUpdateHandler. Returns the lists
        ``(data, label, pred, loss)``, one entry per context (the data split with
        ``gluon.utils.split_and_load``).
        """
        data, label = self._get_data_and_label(train_batch, estimator.context, batch_axis)
        with autograd.record():
            pred = [estimator.net(x) for x in data]
            loss = [estimator.loss(p, y) for p, y in zip(pred, label)]
        for value in loss:
            value.backward()
        return data, label, pred, loss
