"""Gluon losses. Each returns one value per sample: the element-wise loss, optionally scaled
by ``sample_weight`` (broadcast) and the constant ``weight``, averaged over every axis but
``batch_axis`` (KLDivLoss and TripletLoss sum instead; PoissonNLLLoss averages everything)."""
from __future__ import annotations

import math
import numbers

from .. import ndarray as _nd
from .. import util as _util
from .block import HybridBlock

__all__ = ["Loss", "L2Loss", "L1Loss", "SigmoidBinaryCrossEntropyLoss", "SigmoidBCELoss",
           "SoftmaxCrossEntropyLoss", "SoftmaxCELoss", "KLDivLoss", "CTCLoss", "HuberLoss",
           "HingeLoss", "SquaredHingeLoss", "LogisticLoss", "TripletLoss", "PoissonNLLLoss",
           "CosineEmbeddingLoss", "SDMLLoss"]


def _broadcast_mul(F, a, b):
    """``a * b`` broadcast; NumPy semantics (promoting mixed dtypes) in np mode, as 1.9.1."""
    if _util.is_np_array():
        return a * b
    return F.broadcast_mul(a, b)


def _apply_weighting(F, loss, weight=None, sample_weight=None):
    """Scale ``loss`` by ``sample_weight`` (broadcast) and then by the number ``weight``."""
    if sample_weight is not None:
        loss = _broadcast_mul(F, loss, sample_weight)
    if weight is not None:
        if not isinstance(weight, numbers.Number):
            raise AssertionError("weight must be a number")
        loss = loss * weight
    return loss


def _reshape_like(F, x, y):
    """``x`` reshaped to ``y``'s shape (labels given as (N,) for (N, 1) predictions)."""
    if F is _nd:
        return x.reshape(y.shape)
    return F.reshape_like(x, y)


def _constant(F, shape, value):
    """A constant array usable in both modes (``F.full`` where the namespace has it)."""
    if F is _nd:
        return _nd.full(shape, value)
    full = getattr(F, "full", None)
    if full is not None:
        return full(shape, value)
    return F._internal._full(shape=shape, value=value)


def _batch_mean(F, loss, batch_axis, np_first_axis=False):
    """Mean over every axis but ``batch_axis``. With ``np_first_axis``, under NumPy semantics
    the mean is over every axis after the first, whatever ``batch_axis`` says: 1.9.1's
    L2Loss, L1Loss, SigmoidBCELoss and SoftmaxCELoss do that in np mode."""
    if np_first_axis and _util.is_np_array():
        # NumPy's mean, whose float16 sums round differently from the legacy mean's
        if F is _nd:
            return F.np.mean(loss, axis=tuple(range(1, loss.ndim)))
        return F.npx.batch_flatten(loss).mean(axis=1)
    return F.mean(loss, axis=batch_axis, exclude=True)


class Loss(HybridBlock):
    """Base of the losses: holds the global ``weight`` and the ``batch_axis``."""

    def __init__(self, weight, batch_axis, **kwargs):
        super().__init__(**kwargs)
        self._weight = weight
        self._batch_axis = batch_axis

    def __repr__(self):
        return f"{self.__class__.__name__}(batch_axis={self._batch_axis}, w={self._weight})"

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


class L2Loss(Loss):
    """``weight / 2 * (label - pred) ** 2`` averaged per sample (weight defaults to 1)."""

    def __init__(self, weight=1.0, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.square(label - pred)
        loss = _apply_weighting(F, loss, self._weight / 2, sample_weight)
        return _batch_mean(F, loss, self._batch_axis, np_first_axis=True)


class L1Loss(Loss):
    """``|label - pred|`` averaged per sample."""

    def __init__(self, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.abs(label - pred)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _batch_mean(F, loss, self._batch_axis, np_first_axis=True)


class SigmoidBinaryCrossEntropyLoss(Loss):
    """Binary cross-entropy with labels in {0, 1}.

    By default ``pred`` are logits and the loss is computed stably as
    ``max(x, 0) - x * z + log(1 + exp(-|x|))``; ``from_sigmoid=True`` takes probabilities.
    ``pos_weight`` (broadcast) scales the positive term.
    """

    def __init__(self, from_sigmoid=False, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_sigmoid = from_sigmoid

    def hybrid_forward(self, F, pred, label, sample_weight=None, pos_weight=None):
        label = _reshape_like(F, label, pred)
        if not self._from_sigmoid:
            softplus_neg_abs = F.Activation(-F.abs(pred), act_type="softrelu")
            if pos_weight is None:
                loss = F.relu(pred) - pred * label + softplus_neg_abs
            else:
                log_weight = 1 + _broadcast_mul(F, pos_weight - 1, label)
                loss = pred - pred * label + log_weight * (softplus_neg_abs + F.relu(-pred))
        else:
            eps = 1e-12
            pos = F.log(pred + eps) * label
            if pos_weight is not None:
                pos = _broadcast_mul(F, pos, pos_weight)
            loss = -(pos + F.log(1.0 - pred + eps) * (1.0 - label))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _batch_mean(F, loss, self._batch_axis, np_first_axis=True)


SigmoidBCELoss = SigmoidBinaryCrossEntropyLoss


class SoftmaxCrossEntropyLoss(Loss):
    """Cross-entropy of ``softmax(pred)`` along ``axis`` with integer labels
    (``sparse_label=True``) or a distribution; ``from_logits=True`` means ``pred`` already
    holds log-probabilities."""

    def __init__(self, axis=-1, sparse_label=True, from_logits=False, weight=None, batch_axis=0,
                 **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._axis = axis
        self._sparse_label = sparse_label
        self._from_logits = from_logits

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, axis=self._axis)
        if self._sparse_label:
            loss = -F.pick(pred, label, axis=self._axis, keepdims=True)
        else:
            label = _reshape_like(F, label, pred)
            # the array's own sum: NumPy's under np semantics (float16 sums differ), as 1.9.1
            loss = -(pred * label).sum(axis=self._axis, keepdims=True)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _batch_mean(F, loss, self._batch_axis, np_first_axis=True)


SoftmaxCELoss = SoftmaxCrossEntropyLoss


class KLDivLoss(Loss):
    """``label * (log(label) - pred)`` summed per sample (1.9.1 sums here, not averages);
    ``pred`` are log-probabilities unless ``from_logits=False``."""

    def __init__(self, from_logits=True, axis=-1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._axis = axis

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        if not self._from_logits:
            pred = F.log_softmax(pred, axis=self._axis)
        loss = label * (F.log(label + 1e-12) - pred)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return F.sum(loss, axis=self._batch_axis, exclude=True)


class CTCLoss(Loss):
    """Connectionist temporal classification loss; the blank is the last class.

    ``layout`` of ``pred`` is 'NTC' or 'TNC'; ``label_layout`` is 'NT' or 'TN'. Labels are
    padded with -1 unless ``label_lengths`` are given.
    """

    def __init__(self, layout="NTC", label_layout="NT", weight=None, **kwargs):
        if layout not in ("NTC", "TNC"):
            raise AssertionError(f"Only 'NTC' and 'TNC' layouts for pred are supported. Got: "
                                 f"{layout}")
        if label_layout not in ("NT", "TN"):
            raise AssertionError(f"Only 'NT' and 'TN' layouts for label are supported. Got: "
                                 f"{label_layout}")
        self._layout = layout
        self._label_layout = label_layout
        super().__init__(weight, label_layout.find("N"), **kwargs)

    def hybrid_forward(self, F, pred, label, pred_lengths=None, label_lengths=None,
                       sample_weight=None):
        if self._layout == "NTC":
            pred = F.swapaxes(pred, 0, 1)
        if self._batch_axis == 1:
            label = F.swapaxes(label, 0, 1)
        loss = F.CTCLoss(pred, label, data_lengths=pred_lengths, label_lengths=label_lengths,
                         use_data_lengths=pred_lengths is not None,
                         use_label_lengths=label_lengths is not None, blank_label="last")
        return _apply_weighting(F, loss, self._weight, sample_weight)


class HuberLoss(Loss):
    """Smooth L1: ``0.5 / rho * d ** 2`` where ``d = |label - pred| <= rho``, else ``d - rho / 2``."""

    def __init__(self, rho=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._rho = rho

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.abs(label - pred)
        loss = F.where(loss > self._rho, loss - 0.5 * self._rho,
                       (0.5 / self._rho) * F.square(loss))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _batch_mean(F, loss, self._batch_axis)


class HingeLoss(Loss):
    """``max(0, margin - pred * label)`` with labels in {-1, 1}."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.relu(self._margin - pred * label)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _batch_mean(F, loss, self._batch_axis)


class SquaredHingeLoss(Loss):
    """``max(0, margin - pred * label) ** 2`` with labels in {-1, 1}."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        loss = F.square(F.relu(self._margin - pred * label))
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _batch_mean(F, loss, self._batch_axis)


class LogisticLoss(Loss):
    """``log(1 + exp(-pred * label))``; ``label_format`` 'signed' ({-1, 1}) or 'binary' ({0, 1})."""

    def __init__(self, weight=None, batch_axis=0, label_format="signed", **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._label_format = label_format
        if label_format not in ("signed", "binary"):
            raise ValueError(f"label_format can only be signed or binary, recieved {label_format}.")

    def hybrid_forward(self, F, pred, label, sample_weight=None):
        label = _reshape_like(F, label, pred)
        if self._label_format == "signed":
            label = (label + 1.0) / 2.0
        loss = F.relu(pred) - pred * label + F.Activation(-F.abs(pred), act_type="softrelu")
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return _batch_mean(F, loss, self._batch_axis)


class TripletLoss(Loss):
    """``max(0, |pos - pred|^2 - |neg - pred|^2 + margin)`` per sample (squared distances
    summed over the non-batch axes). Takes no sample weight, as in 1.9.1."""

    def __init__(self, margin=1, weight=None, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, pred, positive, negative):
        positive = _reshape_like(F, positive, pred)
        negative = _reshape_like(F, negative, pred)
        loss = F.sum(F.square(positive - pred) - F.square(negative - pred),
                     axis=self._batch_axis, exclude=True)
        loss = F.relu(loss + self._margin)
        return _apply_weighting(F, loss, self._weight, None)


class PoissonNLLLoss(Loss):
    """Negative log-likelihood of ``target`` under a Poisson with rate ``exp(pred)``
    (``from_logits=True``) or ``pred``; averaged over all elements, giving shape (1,).
    ``compute_full`` adds Stirling's approximation of ``log(target!)`` for targets > 1."""

    def __init__(self, weight=None, from_logits=True, batch_axis=0, compute_full=False, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._from_logits = from_logits
        self._compute_full = compute_full

    def hybrid_forward(self, F, pred, target, sample_weight=None, epsilon=1e-08):
        target = _reshape_like(F, target, pred)
        if self._from_logits:
            loss = F.exp(pred) - target * pred
        else:
            loss = pred - target * F.log(pred + epsilon)
        if self._compute_full:
            stirling = target * F.log(target) - target + 0.5 * F.log(2 * target * math.pi)
            loss = loss + stirling * (target > 1)
        loss = _apply_weighting(F, loss, self._weight, sample_weight)
        return F.mean(loss)


class CosineEmbeddingLoss(Loss):
    """``1 - cos(x1, x2)`` for label 1 and ``max(0, cos(x1, x2) - margin)`` for label -1;
    one value per sample, shape (N, 1)."""

    def __init__(self, weight=None, batch_axis=0, margin=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self._margin = margin

    def hybrid_forward(self, F, input1, input2, label, sample_weight=None):
        input1 = _reshape_like(F, input1, input2)
        label = label.reshape((-1, 1))
        cos_sim = self._cosine_similarity(F, input1, input2)
        pos = label == 1
        neg = label == -1
        loss_pos = (1 - cos_sim) * pos
        loss_neg = F.broadcast_maximum(_constant(F, (1, 1), 0.0), neg * (cos_sim - self._margin))
        loss = loss_pos + loss_neg
        return _apply_weighting(F, loss, self._weight, sample_weight)

    def _cosine_similarity(self, F, x, y, axis=-1):
        x_norm = F.norm(x, axis=axis).reshape((-1, 1))
        y_norm = F.norm(y, axis=axis).reshape((-1, 1))
        x_dot_y = F.sum(x * y, axis=axis).reshape((-1, 1))
        return x_dot_y / F.broadcast_maximum(x_norm * y_norm, _constant(F, (1, 1), 1e-12))


class SDMLLoss(Loss):
    """Smoothed deep metric learning loss for a batch of matching pairs ``(x1[i], x2[i])``:
    KL divergence between softmax(-squared distances) over the batch and smoothed one-hot
    targets. Needs concrete shapes, so it runs imperatively only (as in 1.9.1)."""

    def __init__(self, smoothing_parameter=0.3, weight=1.0, batch_axis=0, **kwargs):
        super().__init__(weight, batch_axis, **kwargs)
        self.kl_loss = KLDivLoss(from_logits=True)
        self.smoothing_parameter = smoothing_parameter

    def _compute_distances(self, x1, x2):
        if x1.shape != x2.shape:
            raise AssertionError("SDMLLoss: x1 and x2 must have the same shape")
        n, dim = x1.shape
        x1_ = x1.expand_dims(1).broadcast_to([n, n, dim])
        x2_ = x2.expand_dims(0).broadcast_to([n, n, dim])
        return ((x1_ - x2_) ** 2).sum(axis=2)

    def _compute_labels(self, F, batch_size):
        gold = F.eye(batch_size)
        s = self.smoothing_parameter
        return gold * (1 - s) + (1 - gold) * s / (batch_size - 1)

    def _loss(self, F, x1, x2):
        batch_size = x1.shape[0]
        labels = self._compute_labels(F, batch_size)
        distances = self._compute_distances(x1, x2)
        log_probabilities = F.log_softmax(-distances, axis=1)
        return self.kl_loss(log_probabilities, labels.as_in_context(distances.context))

    def hybrid_forward(self, F, x1, x2):
        return self._loss(F, x1, x2)
