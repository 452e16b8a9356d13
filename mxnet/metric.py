"""``mx.metric``: evaluation metrics accumulated over batches.

A metric keeps two running sums: a *local* one that :meth:`EvalMetric.reset_local` clears
(per logging interval) and a *global* one that only :meth:`EvalMetric.reset` clears (per
epoch). ``update(labels, preds)`` takes lists of NDArrays (one per output); ``get()`` returns
``(name, value)``, where value is ``sum_metric / num_inst`` -- NaN before any update.

The arithmetic follows MXNet 1.9.1 step for step (which sums are per batch and which per
sample, in which dtype), so values agree with it. The work is done on NumPy copies.

>>> import mxnet as mx
>>> acc = mx.metric.create('acc')
>>> acc.update([mx.nd.array([0, 1, 1])], [mx.nd.array([[0.9, 0.1], [0.3, 0.7], [0.6, 0.4]])])
>>> acc.get()
('accuracy', 0.6666666666666666)
"""
from __future__ import annotations

import math
from collections import OrderedDict

import numpy

from .base import MXNetError, numeric_types
from . import registry as _reg
from .ndarray import NDArray

__all__ = ["EvalMetric", "CompositeEvalMetric", "Accuracy", "TopKAccuracy", "F1", "MCC",
           "Perplexity", "MAE", "MSE", "RMSE", "CrossEntropy", "NegativeLogLikelihood",
           "PearsonCorrelation", "PCC", "Loss", "Torch", "Caffe", "CustomMetric", "np",
           "create", "register", "alias", "check_label_shapes"]


def _host(x):
    """A NumPy copy of an NDArray (NumPy arrays pass through)."""
    return x.asnumpy() if isinstance(x, NDArray) else numpy.asarray(x)


def _py(x):
    """NumPy scalars to Python numbers (values unchanged; prints cleanly under NumPy 2)."""
    return x.item() if isinstance(x, numpy.generic) else x


def _sum_like_mxnet(x):
    """Sum of all elements in the array's own dtype, as ``mx.nd.sum`` computes it (1.9.1's
    compensated steps for up to 16 elements, else added in float64 and rounded once)."""
    x = numpy.asarray(x)
    if x.dtype in (numpy.float32, numpy.float64):
        from .operator.reduce import _float_sum
        return x.dtype.type(numpy.asarray(_float_sum(numpy, x, None, False)).reshape(-1)[0])
    if x.dtype.kind == "f" and x.dtype.itemsize < 8:
        return x.dtype.type(x.sum(dtype=numpy.float64))
    return x.sum()


def _nd_log(x):
    """log as 1.9.1's ``ndarray.log`` computes it: float32 through the C library's logf."""
    if x.dtype == numpy.float32:
        from .backend.libm32 import logf
        return logf(numpy, x)
    return numpy.log(x)


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Raise ValueError unless labels and preds have the same length (``shape=True``: the
    same shape). With ``wrap=True`` a single NDArray is wrapped in a list; returns both."""
    if shape:
        label_shape, pred_shape = labels.shape, preds.shape
    else:
        label_shape, pred_shape = len(labels), len(preds)
    if label_shape != pred_shape:
        raise ValueError(f"Shape of labels {label_shape} does not match shape of "
                         f"predictions {pred_shape}")
    if wrap:
        if isinstance(labels, NDArray):
            labels = [labels]
        if isinstance(preds, NDArray):
            preds = [preds]
    return labels, preds


# --------------------------------------------------------------------------------------------
# registry: lower-cased names and aliases -> metric classes
# --------------------------------------------------------------------------------------------
_REG = _reg.Registry(object, "metric")  # base class set once EvalMetric exists


def register(klass, name=None):
    """Register a :class:`EvalMetric` subclass under its lower-cased class name (usable as a
    class decorator)."""
    return _REG.register(klass, name)


def alias(*aliases):
    """A class decorator registering the class under extra names as well."""
    return _REG.alias(*aliases)


def _create(*args, **kwargs):
    return _REG.create(*args, **kwargs)


def create(metric, *args, **kwargs):
    """Make a metric from a registered name or alias ('acc', 'ce', 'top_k_accuracy' ...), a
    config dict or JSON string, a metric instance (returned as it is), a function
    ``feval(label, pred)`` (a :class:`CustomMetric`) or a list of any of these (a
    :class:`CompositeEvalMetric`; ``args`` and ``kwargs`` go to every member).

    >>> create(['acc', 'mse']).get()
    (['accuracy', 'mse'], [nan, nan])
    """
    if callable(metric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = CompositeEvalMetric()
        for child in metric:
            composite.add(create(child, *args, **kwargs))
        return composite
    return _create(metric, *args, **kwargs)


# --------------------------------------------------------------------------------------------
# the base class
# --------------------------------------------------------------------------------------------
def _name_value_pairs(name, value):
    names = name if isinstance(name, list) else [name]
    values = value if isinstance(value, list) else [value]
    return list(zip(names, values))


class EvalMetric:
    """Base class of the metrics.

    ``output_names`` / ``label_names`` choose which entries :meth:`update_dict` passes on
    (all of them, in order, when None). Subclasses implement :meth:`update` and add to
    ``sum_metric`` / ``num_inst`` and their ``global_`` twins.
    """

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return f"EvalMetric: {dict(self.get_name_value())}"

    def get_config(self):
        """A dict from which :func:`create` rebuilds this metric."""
        config = self._kwargs.copy()
        config.update({"metric": self.__class__.__name__, "name": self.name,
                       "output_names": self.output_names, "label_names": self.label_names})
        return config

    def update_dict(self, label, pred):
        """Update from dicts name -> NDArray, picking entries by ``label_names`` and
        ``output_names``."""
        if self.output_names is not None:
            pred = [pred[name] for name in self.output_names]
        else:
            pred = list(pred.values())
        if self.label_names is not None:
            label = [label[name] for name in self.label_names]
        else:
            label = list(label.values())
        self.update(label, pred)

    def update(self, labels, preds):
        """Add one batch: ``labels`` and ``preds`` are lists of NDArrays."""
        raise NotImplementedError()

    def reset(self):
        """Clear the local and the global statistics."""
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        """Clear the local statistics only."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def _add(self, value, count):
        """Add to the local and the global sums."""
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def get(self):
        """``(name, value)`` over the batches since the last reset_local."""
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, self.sum_metric / self.num_inst)

    def get_global(self):
        """``(name, value)`` over the batches since the last reset."""
        if not self._has_global_stats:
            return self.get()
        if self.global_num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, self.global_sum_metric / self.global_num_inst)

    def get_name_value(self):
        """``[(name, value), ...]`` of :meth:`get`."""
        return _name_value_pairs(*self.get())

    def get_global_name_value(self):
        """``[(name, value), ...]`` of :meth:`get_global`."""
        if not self._has_global_stats:
            return self.get_name_value()
        return _name_value_pairs(*self.get_global())


# --------------------------------------------------------------------------------------------
# composite
# --------------------------------------------------------------------------------------------

_REG.base = EvalMetric

@register
@alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get`` returns ``([names], [values])``."""

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.metrics = [create(m) for m in (metrics or [])]

    def add(self, metric):
        """Append a metric (anything :func:`create` accepts)."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The ``index``-th child metric.

        Out of range, 1.9.1 *returns* (does not raise) a ValueError; so does this.
        """
        try:
            return self.metrics[index]
        except IndexError:
            return ValueError(f"Metric index {index} is out of range 0 and {len(self.metrics)}")

    def update_dict(self, labels, preds):
        if self.label_names is not None:
            labels = OrderedDict([i for i in labels.items() if i[0] in self.label_names])
        if self.output_names is not None:
            preds = OrderedDict([i for i in preds.items() if i[0] in self.output_names])
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        # during __init__ the children do not exist yet (nor do this metric's own sums,
        # which 1.9.1 never sets on a composite)
        for metric in getattr(self, "metrics", ()):
            metric.reset()

    def reset_local(self):
        for metric in getattr(self, "metrics", ()):
            metric.reset_local()

    def _collect(self, use_global):
        names, values = [], []
        for metric in self.metrics:
            name, value = metric.get_global() if use_global else metric.get()
            if isinstance(name, str):
                name = [name]
            if isinstance(value, numeric_types):
                value = [value]
            names.extend(name)
            values.extend(value)
        return (names, values)

    def get(self):
        return self._collect(False)

    def get_global(self):
        return self._collect(True)

    def get_config(self):
        config = super().get_config()
        config.update({"metrics": [m.get_config() for m in self.metrics]})
        return config


# --------------------------------------------------------------------------------------------
# classification
# --------------------------------------------------------------------------------------------
@register
@alias("acc")
class Accuracy(EvalMetric):
    """Fraction of correct predictions. Predictions with more dimensions than the labels are
    scores, reduced by argmax along ``axis``; otherwise they are class ids (truncated to
    int32, as are the labels)."""

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super().__init__(name, axis=axis, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            pred = _host(pred)
            label = _host(label)
            if pred.shape != label.shape:
                if not -pred.ndim <= self.axis < pred.ndim:
                    raise MXNetError(f"Accuracy.update: predictions of shape {pred.shape} differ "
                                     f"from labels of shape {label.shape} and have no axis "
                                     f"{self.axis} to take the argmax along")
                pred = pred.argmax(axis=self.axis)
            pred = pred.astype("int32").ravel()
            label = label.astype("int32").ravel()
            check_label_shapes(label, pred)
            self._add(int((pred == label).sum()), len(pred))


@register
@alias("top_k_accuracy", "top_k_acc")
class TopKAccuracy(EvalMetric):
    """Fraction of samples whose label is among the ``top_k`` highest scores; the name gets
    the suffix ``_<top_k>``."""

    def __init__(self, top_k=1, name="top_k_accuracy", output_names=None, label_names=None):
        super().__init__(name, top_k=top_k, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.top_k = top_k
        if not self.top_k > 1:
            raise AssertionError("Please use Accuracy if top_k is no more than 1")
        self.name += f"_{self.top_k}"

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            if len(pred.shape) > 2:
                raise AssertionError("Predictions should be no more than 2 dims")
            order = numpy.argpartition(_host(pred).astype("float32"), -self.top_k)
            label = _host(label).astype("int32")
            check_label_shapes(label, order)
            num_samples = order.shape[0]
            if order.ndim == 1:
                # 1.9.1 compares index positions with labels here, and forgets the global sum
                self.sum_metric += int((order.ravel() == label.ravel()).sum())
            else:
                top = order[:, order.shape[1] - self.top_k:]
                hits = int((top == label.reshape(-1, 1)).sum())
                self.sum_metric += hits
                self.global_sum_metric += hits
            self.num_inst += num_samples
            self.global_num_inst += num_samples


class _BinaryClassificationMetrics:
    """Confusion counts (local and global) for the binary metrics F1 and MCC: class 1 is
    positive, a prediction is the argmax of the two scores."""

    _FIELDS = ("true_positives", "false_positives", "false_negatives", "true_negatives")

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        pred = _host(pred)
        label = _host(label).astype("int32")
        pred_label = numpy.argmax(pred, axis=1)
        check_label_shapes(label, pred)
        if len(numpy.unique(label)) > 2:
            raise ValueError(f"{self.__class__.__name__} currently only supports binary "
                             "classification.")
        pred_true = pred_label == 1
        pred_false = 1 - pred_true
        label_true = label == 1
        label_false = 1 - label_true
        counts = ((pred_true * label_true).sum(), (pred_true * label_false).sum(),
                  (pred_false * label_true).sum(), (pred_false * label_false).sum())
        for field, n in zip(self._FIELDS, counts):
            setattr(self, field, getattr(self, field) + int(n))
            setattr(self, "global_" + field, getattr(self, "global_" + field) + int(n))

    def _counts(self, use_global):
        prefix = "global_" if use_global else ""
        return [getattr(self, prefix + f) for f in self._FIELDS]

    def _precision(self, use_global):
        tp, fp, _, _ = self._counts(use_global)
        return float(tp) / (tp + fp) if tp + fp > 0 else 0.0

    def _recall(self, use_global):
        tp, _, fn, _ = self._counts(use_global)
        return float(tp) / (tp + fn) if tp + fn > 0 else 0.0

    def _fscore(self, use_global):
        p, r = self._precision(use_global), self._recall(use_global)
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    precision = property(lambda self: self._precision(False))
    global_precision = property(lambda self: self._precision(True))
    recall = property(lambda self: self._recall(False))
    global_recall = property(lambda self: self._recall(True))
    fscore = property(lambda self: self._fscore(False))
    global_fscore = property(lambda self: self._fscore(True))
    total_examples = property(lambda self: sum(self._counts(False)))
    global_total_examples = property(lambda self: sum(self._counts(True)))

    def matthewscc(self, use_global=False):
        """Matthews correlation coefficient of the counts (0 before any example); zero
        factors are left out of the denominator."""
        if not sum(self._counts(use_global)):
            return 0.0
        tp, fp, fn, tn = (float(c) for c in self._counts(use_global))
        denom = 1.0
        for t in ((tp + fp), (tp + fn), (tn + fp), (tn + fn)):
            if t != 0.0:
                denom *= t
        return ((tp * tn) - (fp * fn)) / math.sqrt(denom)

    def local_reset_stats(self):
        for f in self._FIELDS:
            setattr(self, f, 0)

    def reset_stats(self):
        for f in self._FIELDS:
            setattr(self, f, 0)
            setattr(self, "global_" + f, 0)


class _BinaryMetric(EvalMetric):
    """Shared update of F1 and MCC.

    ``average='macro'`` averages the per-batch scores (the counts, global ones included,
    restart after every update, as in 1.9.1); any other value ('micro', 'binary') scores
    the counts accumulated since the last reset.
    """

    def __init__(self, name, output_names, label_names, average):
        self.average = average
        self.metrics = _BinaryClassificationMetrics()
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)

    def _score(self, use_global):
        raise NotImplementedError()

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self.metrics.update_binary_stats(label, pred)
        if self.average == "macro":
            self.sum_metric += self._score(False)
            self.global_sum_metric += self._score(True)
            self.num_inst += 1
            self.global_num_inst += 1
            self.metrics.reset_stats()
        else:
            self.sum_metric = self._score(False) * self.metrics.total_examples
            self.global_sum_metric = self._score(True) * self.metrics.global_total_examples
            self.num_inst = self.metrics.total_examples
            self.global_num_inst = self.metrics.global_total_examples

    def reset(self):
        self.sum_metric = 0.0
        self.num_inst = 0
        self.global_sum_metric = 0.0
        self.global_num_inst = 0
        self.metrics.reset_stats()

    def reset_local(self):
        self.sum_metric = 0.0
        self.num_inst = 0
        self.metrics.local_reset_stats()


@register
class F1(_BinaryMetric):
    """F1 score of binary classification (labels 0/1, predictions (n, 2) scores)."""

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        super().__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self.metrics._fscore(use_global)


@register
class MCC(_BinaryMetric):
    """Matthews correlation coefficient of binary classification (labels 0/1, predictions
    (n, 2) scores)."""

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        super().__init__(name, output_names, label_names, average)

    # 1.9.1 keeps these private names on MCC
    _average = property(lambda self: self.average)
    _metrics = property(lambda self: self.metrics)

    def _score(self, use_global):
        return self.metrics.matthewscc(use_global)

    def reset(self):
        super().reset()
        self.num_inst = 0.0   # as 1.9.1: MCC's local count starts as a float


@register
class PCC(EvalMetric):
    """Multi-class Matthews correlation (Pearson correlation of the confusion matrix), which
    grows with the largest class id seen. Each update call counts as one instance."""

    def __init__(self, name="pcc", output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super().__init__(name=name, output_names=output_names, label_names=label_names,
                         has_global_stats=has_global_stats)

    def _grow(self, inc):
        self.lcm = numpy.pad(self.lcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.gcm = numpy.pad(self.gcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.k += inc

    @staticmethod
    def _calc_mcc(cmat):
        n = cmat.sum()
        x = cmat.sum(axis=1)
        y = cmat.sum(axis=0)
        cov_xx = numpy.sum(x * (n - x))
        cov_yy = numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float("nan")
        cov_xy = numpy.sum(cmat.diagonal() * n - x * y)
        return float(cov_xy / (cov_xx * cov_yy) ** 0.5)

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _host(label).astype("int32")
            pred = _host(pred)
            if label.size == 0 or pred.size == 0:   # 1.9.1 fails here too (an MXNetError)
                raise MXNetError(f"PCC.update: got empty labels {label.shape} or predictions "
                                 f"{pred.shape}; expected at least one sample")
            pred = pred.argmax(axis=1) if pred.shape != label.shape else pred.astype("int32")
            n = max(pred.max(), label.max())
            if n >= self.k:
                self._grow(int(n) + 1 - self.k)
            bcm = numpy.zeros((self.k, self.k))
            if pred.ndim == 1 and label.ndim == 1:
                m = min(len(pred), len(label))   # 1.9.1 pairs them up with zip()
                numpy.add.at(bcm, (pred[:m], label[:m]), 1)
            else:
                for i, j in zip(pred, label):    # 1.9.1's pairing of rows, kept as it is
                    bcm[i, j] += 1
            self.lcm += bcm
            self.gcm += bcm
        self.num_inst += 1
        self.global_num_inst += 1

    @property
    def sum_metric(self):
        return self._calc_mcc(self.lcm) * self.num_inst

    @property
    def global_sum_metric(self):
        return self._calc_mcc(self.gcm) * self.global_num_inst

    def reset(self):
        self.global_num_inst = 0.0
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        self.num_inst = 0.0
        self.lcm = numpy.zeros((self.k, self.k))


# --------------------------------------------------------------------------------------------
# probabilities
# --------------------------------------------------------------------------------------------
def _pick(pred, index, axis):
    """``mx.nd.pick(pred, index, axis)`` (indices clipped into range) on NumPy arrays."""
    axis = axis % pred.ndim
    rest = pred.shape[:axis] + pred.shape[axis + 1:]
    if index.shape != rest:
        raise MXNetError(f"pick: Shape inconsistent, Provided = {list(index.shape)}, "
                         f"inferred shape={list(rest)}")
    index = numpy.clip(index, 0, pred.shape[axis] - 1)
    picked = numpy.take_along_axis(pred, numpy.expand_dims(index, axis), axis)
    return numpy.squeeze(picked, axis)


@register
class Perplexity(EvalMetric):
    """``exp`` of the mean negative log of the probability given to the label (probabilities
    below 1e-10 count as 1e-10). Labels equal to ``ignore_label`` are left out."""

    def __init__(self, ignore_label, axis=-1, name="perplexity", output_names=None,
                 label_names=None):
        super().__init__(name, ignore_label=ignore_label, output_names=output_names,
                         label_names=label_names, has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        if len(labels) != len(preds):
            raise AssertionError(f"{len(labels)} labels but {len(preds)} predictions")
        loss = 0.0
        num = 0
        for label, pred in zip(labels, preds):
            if label.size != pred.size / pred.shape[-1]:
                raise AssertionError(f"shape mismatch: {label.shape} vs. {pred.shape}")
            label = _host(label).reshape(label.size)
            pred = _host(pred)
            prob = _pick(pred, label.astype("int32"), self.axis)
            if self.ignore_label is not None:
                ignore = (label == self.ignore_label).astype(prob.dtype)
                num -= float(ignore.sum())   # a float count, as 1.9.1's
                prob = prob * (1 - ignore) + ignore
            loss -= float(_sum_like_mxnet(_nd_log(numpy.maximum(prob.dtype.type(1e-10), prob))))
            num += prob.size
        self._add(loss, num)

    def get(self):
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.sum_metric / self.num_inst))

    def get_global(self):
        if self.global_num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.global_sum_metric / self.global_num_inst))


class _ProbMetric(EvalMetric):
    """Sum over samples of ``-log(p[label] + eps)``, ``pred`` being (n, classes)."""

    def __init__(self, eps, name, output_names, label_names):
        super().__init__(name, eps=eps, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _host(label).ravel()
            pred = _host(pred)
            n = pred.shape[0]
            if label.shape[0] != n:
                raise AssertionError(f"{label.shape[0]} labels for {n} predictions")
            prob = pred[numpy.arange(n, dtype=numpy.int64), numpy.int64(label)]
            self._add(float((-numpy.log(prob + self.eps)).sum()), n)


@register
@alias("ce")
class CrossEntropy(_ProbMetric):
    """Mean cross entropy of the label under the predicted distribution."""

    def __init__(self, eps=1e-12, name="cross-entropy", output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


@register
@alias("nll_loss")
class NegativeLogLikelihood(_ProbMetric):
    """Mean negative log likelihood of the label."""

    def __init__(self, eps=1e-12, name="nll-loss", output_names=None, label_names=None):
        super().__init__(eps, name, output_names, label_names)


# --------------------------------------------------------------------------------------------
# regression
# --------------------------------------------------------------------------------------------
class _RegressionMetric(EvalMetric):
    """A per-output error, averaged over outputs and batches (each output counts once,
    whatever its size). 1-D arrays are read as columns, so (n,) and (n, 1) agree."""

    def __init__(self, name, output_names, label_names):
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)

    @staticmethod
    def _error(diff):
        raise NotImplementedError()

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _host(label)
            pred = _host(pred)
            if label.ndim == 1:
                label = label.reshape(label.shape[0], 1)
            if pred.ndim == 1:
                pred = pred.reshape(pred.shape[0], 1)
            self._add(float(self._error(label - pred)), 1)


@register
class MAE(_RegressionMetric):
    """Mean absolute error."""

    def __init__(self, name="mae", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _error(diff):
        return numpy.abs(diff).mean()


@register
class MSE(_RegressionMetric):
    """Mean squared error."""

    def __init__(self, name="mse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _error(diff):
        return (diff ** 2.0).mean()


@register
class RMSE(_RegressionMetric):
    """Root mean squared error (the root is taken per output, then averaged)."""

    def __init__(self, name="rmse", output_names=None, label_names=None):
        super().__init__(name, output_names, label_names)

    @staticmethod
    def _error(diff):
        return numpy.sqrt((diff ** 2.0).mean())


@register
@alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of predictions and labels.

    ``average='macro'`` averages the coefficient of each output; 'micro' computes one
    coefficient over all values seen, with running (Welford) moments. As in 1.9.1, in micro
    mode ``reset_local`` keeps the running moments and ``get_global`` reports 0.0.
    """

    def __init__(self, name="pearsonr", output_names=None, label_names=None, average="macro"):
        self.average = average
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        if self.average == "micro":
            self.reset_micro()

    def reset_micro(self):
        self._sse_p = 0
        self._mean_p = 0
        self._sse_l = 0
        self._mean_l = 0
        self._pred_nums = 0
        self._label_nums = 0
        self._conv = 0

    def reset(self):
        super().reset()
        if self.average == "micro":
            self.reset_micro()

    @staticmethod
    def update_variance(new_values, *aggregate):
        """Fold ``new_values`` into (count, mean, sum of squared deviations)."""
        count, mean, m_2 = aggregate
        count += len(new_values)
        delta = new_values - mean
        mean += numpy.sum(delta / count)
        delta_2 = new_values - mean
        m_2 += numpy.sum(delta * delta_2)
        return count, mean, m_2

    def update_cov(self, label, pred):
        self._conv = self._conv + numpy.sum((label - self._mean_l) * (pred - self._mean_p))

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_label_shapes(label, pred, False, True)
            label = _host(label).ravel().astype(numpy.float64)
            pred = _host(pred).ravel().astype(numpy.float64)
            if self.average == "macro":
                self._add(float(numpy.corrcoef(pred, label)[0, 1]), 1)
                continue
            self.num_inst += 1
            self.global_num_inst += 1
            # label moments first, then the co-moment (new label mean, old pred mean)
            self._label_nums, self._mean_l, self._sse_l = self.update_variance(
                label, self._label_nums, self._mean_l, self._sse_l)
            self.update_cov(label, pred)
            self._pred_nums, self._mean_p, self._sse_p = self.update_variance(
                pred, self._pred_nums, self._mean_p, self._sse_p)

    def get(self):
        if self.num_inst == 0:
            return (self.name, float("nan"))
        if self.average == "macro":
            return (self.name, self.sum_metric / self.num_inst)
        n = self._label_nums
        r = self._conv / ((n - 1) * numpy.sqrt(self._sse_p / (n - 1))
                          * numpy.sqrt(self._sse_l / (n - 1)))
        return (self.name, _py(r))


# --------------------------------------------------------------------------------------------
# losses and custom metrics
# --------------------------------------------------------------------------------------------
@register
class Loss(EvalMetric):
    """Mean of the given loss values (labels are ignored)."""

    def __init__(self, name="loss", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)

    def update(self, _, preds):
        if isinstance(preds, NDArray):
            preds = [preds]
        for pred in preds:
            self._add(float(_sum_like_mxnet(_host(pred))), pred.size)


@register
class Torch(Loss):
    """:class:`Loss` under the name 'torch' (kept for old scripts)."""

    def __init__(self, name="torch", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class Caffe(Loss):
    """:class:`Loss` under the name 'caffe' (kept for old scripts)."""

    def __init__(self, name="caffe", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class CustomMetric(EvalMetric):
    """A metric from ``feval(label, pred)`` on NumPy arrays, returning a value (one instance)
    or ``(sum, count)``. The default name is the function's (``custom(<lambda>)`` for a
    lambda). ``allow_extra_outputs`` skips the check that labels and preds pair up."""

    def __init__(self, feval, name=None, allow_extra_outputs=False, output_names=None,
                 label_names=None):
        if name is None:
            name = feval.__name__
            if "<" in name:
                name = f"custom({name})"
        super().__init__(name, feval=feval, allow_extra_outputs=allow_extra_outputs,
                         output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        for pred, label in zip(preds, labels):
            reval = self._feval(_host(label), _host(pred))
            if isinstance(reval, tuple):
                value, count = reval
                self._add(_py(value), _py(count))
            else:
                self._add(_py(reval), 1)

    def get_config(self):
        raise NotImplementedError("CustomMetric cannot be serialized")


def np(numpy_feval, name=None, allow_extra_outputs=False):
    """A :class:`CustomMetric` from ``numpy_feval(label, pred)`` on NumPy arrays."""
    def feval(label, pred):
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)
