"""Logging training metrics for TensorBoard (``mx.contrib.tensorboard``)."""

__all__ = ["LogMetricsCallback"]


class LogMetricsCallback:
    """A batch- or epoch-end callback that writes the metric values as TensorBoard scalars.

    Like ``callback.Speedometer`` but into event files under ``logging_dir``; ``prefix``
    (optional) is put before each metric name, e.g. to tell training from validation curves
    drawn in one plot. Writing needs the ``mxboard`` package (as in 1.9.1), which is not a
    dependency of this project. Without it, as in 1.9.1, the constructor only logs an error;
    the first call that has metrics to write then raises ImportError (1.9.1 fails there with
    an AttributeError).
    """

    def __init__(self, logging_dir, prefix=None):
        self.prefix = prefix
        try:
            from mxboard import SummaryWriter
        except ImportError:
            import logging
            logging.error("You can install mxboard via `pip install mxboard`.")
            return
        self.summary_writer = SummaryWriter(logging_dir)

    def __call__(self, param):
        """Write each (name, value) of ``param.eval_metric`` at step ``param.epoch``."""
        if param.eval_metric is None:
            return
        if not hasattr(self, "summary_writer"):
            raise ImportError("mx.contrib.tensorboard.LogMetricsCallback needs the 'mxboard' "
                              "package (pip install mxboard), which is not installed")
        for name, value in param.eval_metric.get_name_value():
            if self.prefix is not None:
                name = f"{self.prefix}-{name}"
            self.summary_writer.add_scalar(name, value, global_step=param.epoch)
