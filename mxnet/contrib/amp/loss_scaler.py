"""Dynamic loss scaling for mixed-precision training."""
import logging

from ... import autograd


class LossScaler:
    """Keeps the loss scale of mixed-precision training and adapts it to overflows.

    The scale starts at 2**16. A step whose gradients hold an inf or NaN is skipped and the
    scale halved; after 2000 steps in a row without overflow it doubles, up to 2**24. As in
    MXNet 1.9.1 the new value takes effect at the next ``has_overflow`` call, so ``loss_scale``
    read for a step is the value the previous check left.
    """

    def __init__(self):
        self._loss_scale = 2.0 ** 16
        self._next_loss_scale = self._loss_scale
        self._max_loss_scale = 2.0 ** 24
        self._scale_seq_len = 2000
        self._unskipped = 0

    @property
    def loss_scale(self):
        """The scale the loss is multiplied by in ``amp.scale_loss``."""
        return self._loss_scale

    def has_overflow(self, params):
        """True when any gradient of ``params`` is not finite; updates the scale schedule."""
        from ...ndarray import multi_all_finite, ones
        with autograd.pause():
            grads = [p.list_grad()[0] for p in params
                     if p.grad_req != "null" and p._data is not None]
            finite = True
            if grads:
                flag = ones((1,), ctx=grads[0].context)
                for start in range(0, len(grads), 200):
                    chunk = grads[start:start + 200]
                    multi_all_finite(*chunk, num_arrays=len(chunk), init_output=False, out=flag)
                finite = bool(flag.asnumpy()[0])
        overflow = not finite
        self._loss_scale = self._next_loss_scale
        if overflow:
            self._next_loss_scale = self._loss_scale / 2.0
            self._unskipped = 0
            logging.info("AMP: decreasing loss scale to %f", self._next_loss_scale)
        else:
            self._unskipped += 1
        if self._unskipped == self._scale_seq_len:
            self._unskipped = 0
            self._next_loss_scale = min(self._max_loss_scale, self._loss_scale * 2.0)
            logging.info("AMP: increasing loss scale to %f", self._next_loss_scale)
        return overflow
