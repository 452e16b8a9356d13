"""Helpers shared by the Estimator and its event handlers (metric checks and suggestions)."""
from ...loss import SoftmaxCrossEntropyLoss
from ....metric import Accuracy, CompositeEvalMetric, EvalMetric


def _check_metrics(metrics):
    """Normalise ``metrics`` to a flat list of EvalMetric (composites are expanded)."""
    if isinstance(metrics, CompositeEvalMetric):
        flat = []
        for child in metrics.metrics:
            flat.extend(_check_metrics(child))
        return flat
    if isinstance(metrics, EvalMetric):
        return [metrics]
    metrics = metrics or []
    if not all(isinstance(m, EvalMetric) for m in metrics):
        raise ValueError("metrics must be a Metric or a list of Metric, "
                         f"refer to mxnet.metric.EvalMetric: {metrics}")
    return metrics


def _check_metric_known(handler, metric, known_metrics):
    if metric not in known_metrics:
        raise ValueError(
            f'Event handler {type(handler).__name__} refers to a metric instance {metric} outside of '
            'the known training and validation metrics. Please use the metrics from '
            'estimator.train_metrics and estimator.val_metrics '
            'instead.')


def _check_handler_metric_ref(handler, known_metrics):
    """Every attribute of ``handler`` whose name holds 'metric' must refer to known metrics.

    (1.9.1 meant to check 'monitor' attributes too but only looks at 'metric'; so does this.)
    """
    for attr in dir(handler):
        if 'metric' not in attr:
            continue
        ref = getattr(handler, attr)
        if not ref:
            continue
        if isinstance(ref, list):
            for metric in ref:
                _check_metric_known(handler, metric, known_metrics)
        else:
            _check_metric_known(handler, ref, known_metrics)


def _suggest_metric_for_loss(loss):
    """Accuracy for a softmax cross-entropy loss, otherwise no suggestion."""
    if isinstance(loss, SoftmaxCrossEntropyLoss):
        return Accuracy()
    return None
